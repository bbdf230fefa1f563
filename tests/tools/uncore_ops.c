// SPDX-License-Identifier: GPL-2.0
/*
 * uncore_ops: drives one uncore event through perf's operations, one
 * system call at a time, for the register-access and latency benchmarks.
 *
 * Usage: uncore_ops PMU CONFIG[:CONFIG1[:CONFIG2]] [options]
 *   --cpu N       CPU to open on (default 0)
 *   --reads N     read() calls while the event counts (default 10)
 *   --hold MS     milliseconds to keep the event counting after the reads
 *                 (poll ticks happen then; default 0)
 *   --marker FILE write "uncore_ops: STEP" to FILE (the tracing
 *                 trace_marker) before each step: open (event_init),
 *                 enable (add and start), read, hold, disable (stop and
 *                 del), close, end
 *   --time        print the median, minimum and maximum time of one
 *                 read() in nanoseconds ("read_ns MEDIAN MIN MAX")
 *   --tally FILE  the simulation's stats file: after each step, print the
 *                 register accesses the driver made in it, from its
 *                 access_* lines ("tally STEP msr_read=N msr_write=N ...")
 *   --inject LINE during the hold, write LINE to the simulation's inject
 *                 file, as step injectK (K = 1, 2, ...; up to 4 of them)
 * Prints "ok COUNT" (the count read last) or "FAIL STEP ERRNO".
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define KINDS 5
#define INJECT "/sys/kernel/debug/rust_uncore/inject"

static FILE *marker;
static const char *tally_file;
static const char *kinds[KINDS] = { "msr_read", "msr_write", "cfg_read", "cfg_write", "mmio_read" };
static unsigned long long tally_last[KINDS];
static const char *current;

/* read_tally: the access_* figures of the stats file into t. */
static void read_tally(unsigned long long *t)
{
	char key[64];
	unsigned long long v;
	FILE *f = fopen(tally_file, "r");
	int k;

	if (!f)
		return;
	while (fscanf(f, "%63s %llu", key, &v) == 2)
		for (k = 0; k < KINDS; k++)
			if (!strncmp(key, "access_", 7) && !strcmp(key + 7, kinds[k]))
				t[k] = v;
	fclose(f);
}

/* step: ends the current step (printing its tally) and begins the next. */
static void step(const char *name)
{
	unsigned long long t[KINDS] = { 0 };
	int k;

	if (tally_file) {
		read_tally(t);
		if (current) {
			printf("tally %s", current);
			for (k = 0; k < KINDS; k++)
				printf(" %s=%llu", kinds[k], t[k] - tally_last[k]);
			printf("\n");
		}
		memcpy(tally_last, t, sizeof(t));
	}
	current = name;
	if (marker) {
		fprintf(marker, "uncore_ops: %s\n", name);
		fflush(marker);
	}
}

/* Step NAME: the ioctl REQ on FD; says so and returns 1 if it fails. */
static int ioctl_step(const char *name, int fd, unsigned long req)
{
	step(name);
	if (ioctl(fd, req, 0)) {
		printf("FAIL %s %d\n", name, errno);
		return 1;
	}
	return 0;
}

static int64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	struct perf_event_attr a = { .size = sizeof(a), .disabled = 1 };
	int cpu = 0, reads = 10, hold = 0, timed = 0, fd, i, n_inject = 0;
	const char *inject[4];
	static char names[4][16];
	int64_t *ns;
	uint64_t count = 0;
	char path[256], *end;
	unsigned int type;
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: uncore_ops PMU CONFIG [--cpu N] [--reads N] [--hold MS] [--marker FILE] [--time]\n");
		return 2;
	}
	for (i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "--cpu") && i + 1 < argc) {
			cpu = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--reads") && i + 1 < argc) {
			reads = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--hold") && i + 1 < argc) {
			hold = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--marker") && i + 1 < argc) {
			marker = fopen(argv[++i], "w");
			if (!marker) {
				perror(argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--time")) {
			timed = 1;
		} else if (!strcmp(argv[i], "--tally") && i + 1 < argc) {
			tally_file = argv[++i];
		} else if (!strcmp(argv[i], "--inject") && i + 1 < argc && n_inject < 4) {
			inject[n_inject++] = argv[++i];
		} else {
			fprintf(stderr, "uncore_ops: unknown option '%s'\n", argv[i]);
			return 2;
		}
	}
	if (reads < 1)
		reads = 1;
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", argv[1]);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%u", &type) != 1) {
		printf("FAIL pmu %s\n", argv[1]);
		return 1;
	}
	fclose(f);
	a.type = type;
	a.config = strtoull(argv[2], &end, 0);
	if (*end == ':')
		a.config1 = strtoull(end + 1, &end, 0);
	if (*end == ':')
		a.config2 = strtoull(end + 1, &end, 0);
	ns = calloc(reads, sizeof(*ns));
	if (!ns)
		return 2;

	step("open");
	fd = syscall(__NR_perf_event_open, &a, -1, cpu, -1, 0);
	if (fd < 0) {
		printf("FAIL open %d\n", errno);
		return 1;
	}
	if (ioctl_step("enable", fd, PERF_EVENT_IOC_ENABLE))
		return 1;
	step("read");
	for (i = 0; i < reads; i++) {
		int64_t t0 = now_ns();

		if (read(fd, &count, sizeof(count)) != sizeof(count)) {
			printf("FAIL read %d\n", errno);
			return 1;
		}
		ns[i] = now_ns() - t0;
	}
	step("hold");
	if (hold > 0)
		usleep(hold * 1000);
	for (i = 0; i < n_inject; i++) {
		snprintf(names[i], sizeof(names[i]), "inject%d", i + 1);
		step(names[i]);
		f = fopen(INJECT, "w");
		if (!f || fputs(inject[i], f) < 0 || fclose(f)) {
			printf("FAIL %s %d\n", names[i], errno);
			return 1;
		}
	}
	if (ioctl_step("disable", fd, PERF_EVENT_IOC_DISABLE))
		return 1;
	step("close");
	close(fd);
	step("end");
	if (timed) {
		qsort(ns, reads, sizeof(*ns), cmp64);
		printf("read_ns %lld %lld %lld\n", (long long)ns[reads / 2],
		       (long long)ns[0], (long long)ns[reads - 1]);
	}
	printf("ok %llu\n", (unsigned long long)count);
	return 0;
}
