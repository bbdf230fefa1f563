// SPDX-License-Identifier: GPL-2.0
/*
 * elapsed: runs a command and prints how long it took, for the benchmarks'
 * insmod-to-PMUs-registered time (insmod returns once the module's init,
 * which registers the PMUs, has returned).
 *
 * Usage: elapsed COMMAND [ARG...]
 * Prints "elapsed_ns N status S" (CLOCK_MONOTONIC nanoseconds from just
 * before the fork to the child's exit; S is its exit status, or 128 plus
 * the signal that ended it) and exits with S.
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

int main(int argc, char **argv)
{
	int64_t t0, t1;
	int status, s;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: elapsed COMMAND [ARG...]\n");
		return 2;
	}
	t0 = now_ns();
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid) {
		perror("waitpid");
		return 2;
	}
	t1 = now_ns();
	s = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	printf("elapsed_ns %lld status %d\n", (long long)(t1 - t0), s);
	return s;
}
