// SPDX-License-Identifier: GPL-2.0
/*
 * perf_open: opens one perf event (or a group) with chosen attributes and
 * prints the errno name, for the guest tests of event_init's refusals.
 *
 * Usage: perf_open PMU CONFIG[:CONFIG1[:CONFIG2]] [options] [-- CONFIG...]
 *   --cpu N        CPU to open on (default 0; -1 = any CPU)
 *   --task         open for the calling task instead of a CPU
 *   --sample N     a sampling event with period N
 *   --exclude-user set exclude_user
 *   --type N       use this attr.type instead of the PMU's
 *   --repeat N     open (and close) the first event N - 1 times before
 *                  (the log-flood test)
 *   -- CONFIG...   more events opened as members of the first one's group
 * Prints "ok" when every open succeeded, else the first failure's errno
 * name (e.g. EINVAL) and the index of the event that failed.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *errname(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case ENODEV: return "ENODEV";
	case EBUSY: return "EBUSY";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case ENOSPC: return "ENOSPC";
	default: return "EOTHER";
	}
}

static void parse_config(const char *s, struct perf_event_attr *a)
{
	char *end;

	a->config = strtoull(s, &end, 0);
	if (*end == ':')
		a->config1 = strtoull(end + 1, &end, 0);
	if (*end == ':')
		a->config2 = strtoull(end + 1, &end, 0);
}

int main(int argc, char **argv)
{
	struct perf_event_attr base = { .size = sizeof(base) }, a;
	char path[256];
	int cpu = 0, pid = -1, fd, leader = -1, i, n = 0;
	unsigned int type;
	int type_override = -1;
	long repeat = 1, r;
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: perf_open PMU CONFIG [options] [-- CONFIG...]\n");
		return 2;
	}
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", argv[1]);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%u", &type) != 1) {
		printf("NOPMU\n");
		return 1;
	}
	fclose(f);
	for (i = 3; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--cpu") && i + 1 < argc)
			cpu = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--task"))
			pid = 0, cpu = -1;
		else if (!strcmp(argv[i], "--sample") && i + 1 < argc)
			base.sample_period = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--exclude-user"))
			base.exclude_user = 1;
		else if (!strcmp(argv[i], "--type") && i + 1 < argc)
			type_override = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
			repeat = atol(argv[++i]);
	}
	base.type = type_override >= 0 ? (unsigned int)type_override : type;
	a = base;
	parse_config(argv[2], &a);
	for (r = 1; r < repeat; r++) {
		fd = syscall(__NR_perf_event_open, &a, pid, cpu, -1, 0);
		if (fd >= 0)
			close(fd);
	}
	fd = syscall(__NR_perf_event_open, &a, pid, cpu, -1, 0);
	if (fd < 0) {
		printf("%s 0\n", errname(errno));
		return 1;
	}
	leader = fd;
	for (i++; i < argc; i++) {
		n++;
		a = base;
		parse_config(argv[i], &a);
		fd = syscall(__NR_perf_event_open, &a, pid, cpu, leader, 0);
		if (fd < 0) {
			printf("%s %d\n", errname(errno), n);
			return 1;
		}
	}
	printf("ok\n");
	return 0;
}
