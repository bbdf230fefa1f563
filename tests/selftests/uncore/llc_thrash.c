// SPDX-License-Identifier: GPL-2.0
/*
 * llc_thrash: touches one byte per 64-byte line of a 256 MiB buffer, far
 * larger than any last-level cache, in a stride that defeats the
 * prefetchers, and prints the number of lines touched. Usage: llc_thrash
 * [PASSES]
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	size_t passes = argc > 1 ? strtoul(argv[1], NULL, 0) : 4;
	size_t size = 256UL << 20, lines = size / 64, i, p, touched = 0;
	volatile unsigned char *buf = malloc(size);
	/* A stride of 4097 lines (prime to the line count's power of two). */
	size_t step = 4097, k = 0;

	if (!buf)
		return 1;
	for (p = 0; p < passes; p++) {
		for (i = 0; i < lines; i++) {
			buf[k * 64]++;
			k = (k + step) % lines;
			touched++;
		}
	}
	printf("%zu\n", touched);
	return 0;
}
