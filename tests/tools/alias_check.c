// SPDX-License-Identifier: GPL-2.0
/*
 * alias_check: opens every events/ alias of every uncore PMU, one at a
 * time, on the first CPU of the PMU's cpumask, has the simulation count it
 * (an injection with programmed=1: the counter programmed for the alias
 * counts N) and checks that the event reads exactly N. The aliases' terms
 * are turned into perf_event_attr words with the PMU's format/ files, as
 * the perf tool does.
 *
 * Usage: alias_check [-o] [-n N] [PMU...]   (default: every uncore_* PMU)
 *   -o   open only: enable, read and close each alias without injecting
 *        (real hardware, where nothing can be injected)
 * Prints one TAP line per PMU ("ok K - uncore_x: A aliases"), the failures
 * as '#' lines, and the plan; exits 1 if any alias failed.
 *
 *        alias_check -l FILE
 * Each line "PMU|terms" of FILE in turn: writes "ev K" (K from 1) to the
 * trace marker, then opens the event on the first CPU of the PMU's
 * cpumask, enables, disables, reads and closes it. Prints "# K: ..." for
 * an event that failed; exits 1 if any did.
 *
 *        alias_check -e FILE
 * Each line "PMU|terms" of FILE, as the loaded driver's format/ files
 * encode it: "PMU|terms|config config1 config2" (hex), or "PMU|terms|-"
 * where the terms do not apply.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define DEV "/sys/bus/event_source/devices"
#define INJECT "/sys/kernel/debug/rust_uncore/inject"
#define MARKER "/sys/kernel/tracing/trace_marker"
#define MAX_FMT 64
#define MAX_RANGES 4

/* Open-only mode (-o). */
static int open_only;

struct fmt {
	char name[256];
	int word; /* 0 config, 1 config1, 2 config2 */
	int n;
	int lo[MAX_RANGES], hi[MAX_RANGES];
};

static int read_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return 0;
}

static int load_formats(const char *pmu, struct fmt *fm)
{
	char path[512], buf[256];
	struct dirent *d;
	DIR *dir;
	int n = 0;

	snprintf(path, sizeof(path), DEV "/%s/format", pmu);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((d = readdir(dir)) && n < MAX_FMT) {
		char *p, *tok, *save;
		struct fmt *f = &fm[n];

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), DEV "/%s/format/%s", pmu, d->d_name);
		if (read_file(path, buf, sizeof(buf)))
			continue;
		snprintf(f->name, sizeof(f->name), "%s", d->d_name);
		p = strchr(buf, ':');
		if (!p)
			continue;
		*p++ = 0;
		f->word = !strcmp(buf, "config1") ? 1 : !strcmp(buf, "config2") ? 2 : 0;
		f->n = 0;
		for (tok = strtok_r(p, ",", &save); tok && f->n < MAX_RANGES; tok = strtok_r(NULL, ",", &save)) {
			char *dash = strchr(tok, '-');

			f->lo[f->n] = atoi(tok);
			f->hi[f->n] = dash ? atoi(dash + 1) : f->lo[f->n];
			f->n++;
		}
		n++;
	}
	closedir(dir);
	return n;
}

/* Applies "name=value,..." to the attribute words; -1 on an unknown term. */
static int apply_terms(char *terms, struct fmt *fm, int nfm, uint64_t *w)
{
	char *tok, *save;

	for (tok = strtok_r(terms, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		uint64_t v = 1;
		int i, r;

		if (eq) {
			*eq = 0;
			v = strtoull(eq + 1, NULL, 0);
		}
		for (i = 0; i < nfm && strcmp(fm[i].name, tok); i++)
			;
		if (i == nfm)
			return -1;
		for (r = 0; r < fm[i].n; r++) {
			int width = fm[i].hi[r] - fm[i].lo[r] + 1;
			uint64_t mask = width >= 64 ? ~0ULL : (1ULL << width) - 1;

			w[fm[i].word] &= ~(mask << fm[i].lo[r]);
			w[fm[i].word] |= (v & mask) << fm[i].lo[r];
			v = width >= 64 ? 0 : v >> width;
		}
	}
	return 0;
}

static int first_cpu(const char *pmu)
{
	char path[512], buf[256];

	snprintf(path, sizeof(path), DEV "/%s/cpumask", pmu);
	if (read_file(path, buf, sizeof(buf)))
		return -1;
	return buf[0] ? atoi(buf) : -1;
}

static int socket_of(int cpu)
{
	char path[256], buf[32];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
	return read_file(path, buf, sizeof(buf)) ? -1 : atoi(buf);
}

static int inject(const char *pmu, int socket, uint64_t n)
{
	char line[256];
	int fd = open(INJECT, O_WRONLY), len, r;

	if (fd < 0)
		return -1;
	len = snprintf(line, sizeof(line), "pmu=%s socket=%d programmed=1 count=%llu\n", pmu, socket,
		       (unsigned long long)n);
	r = write(fd, line, len) == len ? 0 : -1;
	close(fd);
	return r;
}


/* Opens a disabled counting event of PMU type on cpu with config words w. */
static int open_event(unsigned int type, int cpu, const uint64_t *w)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = type;
	a.size = sizeof(a);
	a.config = w[0];
	a.config1 = w[1];
	a.config2 = w[2];
	a.disabled = 1;
	return syscall(SYS_perf_event_open, &a, -1, cpu, -1, 0);
}
/* Checks one PMU; returns the number of failing aliases. */
static int check_pmu(const char *pmu, uint64_t n, int *count)
{
	struct fmt fm[MAX_FMT];
	char path[512], terms[512];
	int nfm = load_formats(pmu, fm), cpu = first_cpu(pmu), socket, fails = 0;
	unsigned int type;
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), DEV "/%s/type", pmu);
	if (read_file(path, terms, sizeof(terms)) || cpu < 0) {
		printf("# %s: no type or cpumask\n", pmu);
		return 1;
	}
	type = atoi(terms);
	socket = socket_of(cpu);
	snprintf(path, sizeof(path), DEV "/%s/events", pmu);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((d = readdir(dir))) {
		uint64_t w[3] = { 0, 0, 0 }, v = 0;
		int fd;

		if (d->d_name[0] == '.' || strstr(d->d_name, ".scale") || strstr(d->d_name, ".unit"))
			continue;
		snprintf(path, sizeof(path), DEV "/%s/events/%s", pmu, d->d_name);
		if (read_file(path, terms, sizeof(terms)) || apply_terms(terms, fm, nfm, w)) {
			printf("# %s/%s/: terms do not apply to the formats\n", pmu, d->d_name);
			fails++;
			continue;
		}
		(*count)++;
		fd = open_event(type, cpu, w);
		if (fd < 0) {
			printf("# %s/%s/: open: %s\n", pmu, d->d_name, strerror(errno));
			fails++;
			continue;
		}
		if (open_only) {
			if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) || ioctl(fd, PERF_EVENT_IOC_DISABLE, 0) ||
			    read(fd, &v, sizeof(v)) != sizeof(v)) {
				printf("# %s/%s/: enable or read: %s\n", pmu, d->d_name, strerror(errno));
				fails++;
			}
		} else if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) || inject(pmu, socket, n) ||
		    ioctl(fd, PERF_EVENT_IOC_DISABLE, 0) || read(fd, &v, sizeof(v)) != sizeof(v) || v != n) {
			printf("# %s/%s/ (%s): counted %llu, want %llu\n", pmu, d->d_name, terms,
			       (unsigned long long)v, (unsigned long long)n);
			fails++;
		}
		close(fd);
	}
	closedir(dir);
	return fails;
}

/* Opens, enables, disables, reads and closes one event; 0 on success. */
static int cycle(unsigned int type, int cpu, const uint64_t *w)
{
	uint64_t v;
	int fd = open_event(type, cpu, w), r;

	if (fd < 0)
		return -1;
	r = ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) || ioctl(fd, PERF_EVENT_IOC_DISABLE, 0) ||
	    read(fd, &v, sizeof(v)) != sizeof(v);
	close(fd);
	return r ? -1 : 0;
}

/* -l FILE; returns the number of events that failed. */
static int run_list(const char *file)
{
	char line[1024], path[1100], buf[64];
	FILE *f = fopen(file, "r");
	int marker = open(MARKER, O_WRONLY), k = 0, fails = 0;

	if (!f || marker < 0) {
		printf("# %s or %s: %s\n", file, MARKER, strerror(errno));
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct fmt fm[MAX_FMT];
		uint64_t w[3] = { 0, 0, 0 };
		char *terms = strchr(line, '|');
		int nfm, cpu, len;

		line[strcspn(line, "\n")] = 0;
		if (!terms)
			continue;
		*terms++ = 0;
		len = snprintf(buf, sizeof(buf), "ev %d\n", ++k);
		if (write(marker, buf, len) != len)
			fails++;
		nfm = load_formats(line, fm);
		cpu = first_cpu(line);
		snprintf(path, sizeof(path), DEV "/%s/type", line);
		if (cpu < 0 || read_file(path, buf, sizeof(buf)) || apply_terms(terms, fm, nfm, w) ||
		    cycle(atoi(buf), cpu, w)) {
			printf("# %d: %s: %s\n", k, line, strerror(errno));
			fails++;
		}
	}
	fclose(f);
	close(marker);
	return fails;
}

/* -e FILE: each line's encoding under the loaded driver's formats. */
static int encode_list(const char *file)
{
	char line[1024], copy[1024];
	FILE *f = fopen(file, "r");

	if (!f) {
		printf("# %s: %s\n", file, strerror(errno));
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct fmt fm[MAX_FMT];
		uint64_t w[3] = { 0, 0, 0 };
		char *terms;
		int nfm;

		line[strcspn(line, "\n")] = 0;
		terms = strchr(line, '|');
		if (!terms)
			continue;
		*terms++ = 0;
		snprintf(copy, sizeof(copy), "%s", terms);
		nfm = load_formats(line, fm);
		if (nfm < 0 || apply_terms(copy, fm, nfm, w))
			printf("%s|%s|-\n", line, terms);
		else
			printf("%s|%s|%llx %llx %llx\n", line, terms, (unsigned long long)w[0],
			       (unsigned long long)w[1], (unsigned long long)w[2]);
	}
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t n = 7;
	int i, k = 0, failed = 0, total = 0;

	if (argc == 3 && !strcmp(argv[1], "-l"))
		return run_list(argv[2]) != 0;
	if (argc == 3 && !strcmp(argv[1], "-e"))
		return encode_list(argv[2]);
	if (argc > 1 && !strcmp(argv[1], "-o")) {
		open_only = 1;
		argv++;
		argc--;
	}
	if (argc > 2 && !strcmp(argv[1], "-n")) {
		n = strtoull(argv[2], NULL, 0);
		argv += 2;
		argc -= 2;
	}
	if (argc > 1) {
		for (i = 1; i < argc; i++) {
			int c = 0, f = check_pmu(argv[i], n, &c);

			printf("%s %d - %s: %d aliases\n", f ? "not ok" : "ok", ++k, argv[i], c);
			failed |= !!f;
			total += c;
		}
	} else {
		struct dirent **list;
		int m = scandir(DEV, &list, NULL, alphasort);

		for (i = 0; i < m; i++) {
			if (!strncmp(list[i]->d_name, "uncore_", 7)) {
				int c = 0, f = check_pmu(list[i]->d_name, n, &c);

				printf("%s %d - %s: %d aliases\n", f ? "not ok" : "ok", ++k, list[i]->d_name, c);
				failed |= !!f;
				total += c;
			}
			free(list[i]);
		}
		free(list);
	}
	printf("# %d aliases checked\n", total);
	printf("1..%d\n", k);
	return failed;
}
