// SPDX-License-Identifier: GPL-2.0
/*
 * memcpy_bw: copies BYTES (default 256 MiB) through a buffer pair larger
 * than any last-level cache, so that the reads reach memory, and prints
 * the number of bytes read. Usage: memcpy_bw [MIB]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 0) : 256;
	size_t chunk = 64UL << 20, done = 0, total = mib << 20;
	char *src = malloc(chunk), *dst = malloc(chunk);

	if (!src || !dst)
		return 1;
	memset(src, 1, chunk);
	memset(dst, 2, chunk);
	while (done < total) {
		memcpy(dst, src, chunk);
		done += chunk;
		/* Keep the compiler from eliding the copy. */
		src[done % chunk] ^= dst[(done + 7) % chunk];
	}
	printf("%zu\n", done);
	return 0;
}
