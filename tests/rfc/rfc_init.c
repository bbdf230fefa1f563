// SPDX-License-Identifier: GPL-2.0
/*
 * rfc_init: the init of the guest that boots the kernel of the patch series
 * (scripts/rfc-check.sh). The kernel has run its KUnit suites (the Rust
 * doctests among them) before this starts; this checks the sample PMU
 * rust_pmu through sysfs and perf_event_open(), prints one "rfc: ok ..." or
 * "rfc: not ok ..." line per check and a last "rfc: N passed, N failed"
 * line, and restarts the machine (which QEMU's -no-reboot turns into its
 * exit).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <linux/reboot.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define DIR "/sys/bus/event_source/devices/rust_pmu/"

static int passed, failed;

static void check(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("rfc: %s ", ok ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (ok)
		passed++;
	else
		failed++;
}

/* The first line of a file, without its newline; "" when unreadable. */
static const char *first_line(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");

	buf[0] = 0;
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = 0;
	return buf;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

/* Opens an event of type TYPE; the errno on failure, as a negative number. */
static int open_event(int type, uint64_t config, int pid, int cpu, int group,
		      uint64_t period, int exclude_user)
{
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.sample_period = period;
	attr.exclude_user = exclude_user;
	fd = syscall(SYS_perf_event_open, &attr, pid, cpu, group, 0);
	return fd < 0 ? -errno : (int)fd;
}

/*
 * A group led by a software event that samples (cpu-clock, every 1 ms of
 * this task's time), with the sample PMU as its member; each sample reads
 * the group (PERF_SAMPLE_READ, PERF_FORMAT_GROUP), which calls rust_pmu's
 * read from the leader's overflow (an hrtimer interrupt here; an NMI for a
 * hardware leader, which QEMU's CPU cannot give). The samples must carry
 * the member's count, growing, and about the leader's (both count this
 * task's time in ns).
 */
static void group_sample(int type)
{
	struct perf_event_attr attr;
	struct perf_event_mmap_page *mp;
	uint64_t t0, head, off, data_off, data_size, first = 0, last = 0, last_leader = 0;
	long pg = sysconf(_SC_PAGESIZE);
	size_t len = pg * (1 + 64);
	int leader, member, samples = 0, bad = 0, back = 0;
	unsigned char *base;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.sample_period = 1000000;
	attr.sample_type = PERF_SAMPLE_READ;
	attr.read_format = PERF_FORMAT_GROUP;
	attr.disabled = 1;
	leader = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	member = leader >= 0 ? open_event(type, 0, 0, -1, leader, 0, 0) : -1;
	check(leader >= 0 && member >= 0,
	      "a cpu-clock leader that samples, with a rust_pmu member, opens (%d, %d)",
	      leader < 0 ? -errno : leader, member);
	if (leader < 0 || member < 0)
		goto out;
	base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, leader, 0);
	check(base != MAP_FAILED, "the leader's ring buffer maps");
	if (base == MAP_FAILED)
		goto out;
	ioctl(leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	t0 = now_ns();
	while (now_ns() - t0 < 200000000)
		;
	ioctl(leader, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	mp = (struct perf_event_mmap_page *)base;
	head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	data_off = mp->data_offset ? mp->data_offset : (uint64_t)pg;
	data_size = mp->data_size ? mp->data_size : (uint64_t)pg * 64;
	for (off = 0; off + sizeof(struct perf_event_header) <= head;) {
		unsigned char rec[256];
		struct perf_event_header h;
		uint64_t i, v[3];

		for (i = 0; i < sizeof(h); i++)
			rec[i] = base[data_off + (off + i) % data_size];
		memcpy(&h, rec, sizeof(h));
		if (h.size < sizeof(h) || h.size > sizeof(rec) || off + h.size > head)
			break;
		for (i = 0; i < h.size; i++)
			rec[i] = base[data_off + (off + i) % data_size];
		off += h.size;
		if (h.type != PERF_RECORD_SAMPLE)
			continue;
		/* { u64 nr; u64 values[nr]; }: the leader's count, the member's. */
		if (h.size != sizeof(h) + sizeof(v)) {
			bad++;
			continue;
		}
		memcpy(v, rec + sizeof(h), sizeof(v));
		if (v[0] != 2) {
			bad++;
			continue;
		}
		if (samples++ == 0)
			first = v[2];
		else if (v[2] < last)
			back++;
		last = v[2];
		last_leader = v[1];
	}
	check(samples >= 20 && bad == 0,
	      "group samples read the group: %d samples of the leader and rust_pmu, %d malformed",
	      samples, bad);
	check(samples >= 2 && back == 0 && last > first,
	      "rust_pmu's count in the samples grows (%llu ns to %llu ns, %d steps back)",
	      (unsigned long long)first, (unsigned long long)last, back);
	check(last >= last_leader / 2 && last <= last_leader + last_leader / 2,
	      "rust_pmu's count in the last sample is about the cpu-clock leader's (%llu ns, %llu ns)",
	      (unsigned long long)last, (unsigned long long)last_leader);
	munmap(base, len);
out:
	if (member >= 0)
		close(member);
	if (leader >= 0)
		close(leader);
}

static uint64_t read_count(int fd)
{
	uint64_t v = 0;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return UINT64_MAX;
	return v;
}

int main(void)
{
	uint64_t t0, busy, wall, n;
	int type, fd, fd2, e;
	const char *s;
	char link[256];
	ssize_t len;

	mkdir("/dev", 0755);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	fd = open("/dev/console", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
	}
	mkdir("/proc", 0755);
	mount("proc", "/proc", "proc", 0, NULL);
	mkdir("/sys", 0755);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	printf("rfc: init started\n");

	s = first_line(DIR "type");
	type = atoi(s);
	check(type > 0, "rust_pmu is registered (type %s)", s);
	s = first_line(DIR "format/event");
	check(!strcmp(s, "config:0-7"), "format/event is config:0-7 (%s)", s);
	s = first_line(DIR "events/ns");
	check(!strcmp(s, "event=0x00"), "events/ns is event=0x00 (%s)", s);
	s = first_line(DIR "events/ns.unit");
	check(!strcmp(s, "ns"), "events/ns.unit is ns (%s)", s);
	check(access(DIR "cpumask", F_OK) != 0, "no cpumask file (no scope, no cpumask callback)");
	/*
	 * Registered under its faux device (Registration::new_foreign_owned()
	 * sets pmu->parent): the PMU's device is that device's child.
	 */
	len = readlink("/sys/bus/event_source/devices/rust_pmu", link, sizeof(link) - 1);
	link[len > 0 ? len : 0] = 0;
	check(strstr(link, "/devices/faux/rust_pmu/rust_pmu") != NULL,
	      "the PMU's device is a child of the faux device rust_pmu (%s)", link);

	/* A task event counts while the task runs: busy 100 ms, then sleep 100 ms. */
	fd = open_event(type, 0, 0, -1, -1, 0, 0);
	check(fd >= 0, "a task event opens (%d)", fd);
	if (fd >= 0) {
		struct timespec ts = { 0, 100000000 };

		t0 = now_ns();
		while (now_ns() - t0 < 100000000)
			;
		busy = now_ns() - t0;
		nanosleep(&ts, NULL);
		n = read_count(fd);
		wall = now_ns() - t0;
		check(n >= busy / 2 && n <= wall + wall / 20,
		      "task event: %llu ns counted, busy %llu ns of %llu ns",
		      (unsigned long long)n, (unsigned long long)busy, (unsigned long long)wall);
		close(fd);
	}

	/* A CPU event counts all the time it is enabled, sleep included. */
	fd = open_event(type, 0, -1, 0, -1, 0, 0);
	check(fd >= 0, "a CPU event opens (%d)", fd);
	if (fd >= 0) {
		struct timespec ts = { 0, 200000000 };

		t0 = now_ns();
		nanosleep(&ts, NULL);
		n = read_count(fd);
		wall = now_ns() - t0;
		check(n >= wall - wall / 10 && n <= wall + wall / 10,
		      "CPU event: %llu ns counted in %llu ns", (unsigned long long)n,
		      (unsigned long long)wall);
		close(fd);
	}

	/* A group of two. */
	fd = open_event(type, 0, 0, -1, -1, 0, 0);
	fd2 = fd >= 0 ? open_event(type, 0, 0, -1, fd, 0, 0) : -1;
	check(fd >= 0 && fd2 >= 0, "a group of two opens (%d, %d)", fd, fd2);
	if (fd2 >= 0)
		close(fd2);
	if (fd >= 0)
		close(fd);

	group_sample(type);

	/* Refusals: the PMU's own (event code), and perf's for its capabilities. */
	e = open_event(type, 1, 0, -1, -1, 0, 0);
	check(e == -EINVAL, "event code 1 is refused with EINVAL (%d)", e);
	e = open_event(type, 0, 0, -1, -1, 1000, 0);
	check(e == -EOPNOTSUPP, "a sampling event is refused with EOPNOTSUPP (NO_INTERRUPT, implied) (%d)", e);
	e = open_event(type, 0, 0, -1, -1, 0, 1);
	check(e < 0, "exclude_user is refused (NO_EXCLUDE) (%d)", e);
	if (e >= 0)
		close(e);

	printf("rfc: %d passed, %d failed\n", passed, failed);
	fflush(stdout);
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
