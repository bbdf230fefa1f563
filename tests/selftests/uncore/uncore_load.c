// SPDX-License-Identifier: GPL-2.0
/*
 * uncore_load: the selftests' memory and cache traffic of known size.
 *
 * Usage: uncore_load MODE MIB PASSES [HOME_CPU RUN_CPU]
 *
 * A buffer of MIB MiB (far larger than any last-level cache of the
 * supported parts) is allocated and written once (its pages faulted in),
 * then PASSES passes of MODE run over it:
 *
 *   read    loads every 64-byte line, in order: one DRAM read per line
 *   write   non-temporal stores to every line: one DRAM write per line and
 *           no read (no read for ownership)
 *   thrash  one load per line, in a stride of 4097 lines (every access in
 *           another 4 KiB page, no line reused within a pass): one LLC
 *           lookup per line at least
 *   remote  as read, with the buffer first written on HOME_CPU (its pages
 *           on that CPU's node) and the passes run on RUN_CPU
 *
 * The selftests run it with two pass counts and take the difference, so
 * that the allocation and the first write cancel. Prints the lines
 * touched by the passes.
 */
#define _GNU_SOURCE
#include <emmintrin.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int pin(long cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	size_t mib, passes, size, lines, i, p, k = 0;
	unsigned long sum = 0;
	unsigned char *buf;
	const char *mode;

	if (argc != 4 && argc != 6) {
		fprintf(stderr, "usage: %s read|write|thrash|remote MIB PASSES [HOME_CPU RUN_CPU]\n", argv[0]);
		return 2;
	}
	mode = argv[1];
	mib = strtoul(argv[2], NULL, 0);
	passes = strtoul(argv[3], NULL, 0);
	size = mib << 20;
	lines = size / 64;
	if (!lines || (strcmp(mode, "remote") == 0) != (argc == 6)) {
		fprintf(stderr, "%s: bad arguments (remote takes HOME_CPU RUN_CPU, the others not)\n", argv[0]);
		return 2;
	}
	if (argc == 6 && pin(strtol(argv[4], NULL, 0)))
		return 1;
	buf = aligned_alloc(4096, size);
	if (!buf)
		return 1;
	memset(buf, 1, size);
	if (argc == 6 && pin(strtol(argv[5], NULL, 0)))
		return 1;
	for (p = 0; p < passes; p++) {
		if (!strcmp(mode, "read") || !strcmp(mode, "remote")) {
			for (i = 0; i < lines; i++)
				sum += ((volatile unsigned char *)buf)[i * 64];
		} else if (!strcmp(mode, "write")) {
			__m128i v = _mm_set1_epi32((int)p);

			for (i = 0; i < size; i += 16)
				_mm_stream_si128((__m128i *)(buf + i), v);
			_mm_sfence();
		} else if (!strcmp(mode, "thrash")) {
			for (i = 0; i < lines; i++) {
				sum += ((volatile unsigned char *)buf)[k * 64];
				k = (k + 4097) % lines;
			}
		} else {
			fprintf(stderr, "%s: unknown mode %s\n", argv[0], mode);
			return 2;
		}
	}
	printf("%zu\n", passes * lines + (sum & 0));
	return 0;
}
