/*
 * timed.c - how long a command ran, for make bench and compare.sh.
 *
 * usage: timed OUT COMMAND [ARGS...]
 * Runs COMMAND and writes to OUT its wall seconds, user and system CPU
 * seconds and peak RSS in kB, in the order of /usr/bin/time -f
 * '%e %U %S %M'; exits with COMMAND's status (128 + the signal that
 * ended it; 127 when it could not be run).
 *
 * /usr/bin/time prints hundredths: on runs of a few tenths of a second
 * that is 2 to 5 % a reading, more than most changes gain, so the times
 * here come from wait4 to the microsecond (doc/PERFORMANCE.md, "What a
 * stack costs").  A small C program, not a script: the peak RSS of a
 * child counts what it had before exec, the image of whatever forked it.
 * As with /usr/bin/time, CPU time and peak include the children
 * COMMAND waited for (the stages of a pipeline run by bash -c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds(struct timeval t)
{
	return (double)t.tv_sec + (double)t.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	struct timespec start, end;
	struct rusage ru;
	FILE *out;
	pid_t pid;
	int st;

	if (argc < 3) {
		fprintf(stderr, "usage: timed OUT COMMAND [ARGS...]\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	pid = fork();
	if (pid < 0) {
		perror("timed: fork");
		return 127;
	}
	if (!pid) {
		execvp(argv[2], argv + 2);
		fprintf(stderr, "timed: %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	while (wait4(pid, &st, 0, &ru) < 0) {
		if (errno != EINTR) {
			perror("timed: wait4");
			return 127;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	out = fopen(argv[1], "w");
	if (!out || fprintf(out, "%.6f %.6f %.6f %ld\n",
			    (double)(end.tv_sec - start.tv_sec) +
			    (double)(end.tv_nsec - start.tv_nsec) / 1e9,
			    seconds(ru.ru_utime), seconds(ru.ru_stime), ru.ru_maxrss) < 0 ||
	    fclose(out)) {
		perror(argv[1]);
		return 127;
	}
	return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st);
}
