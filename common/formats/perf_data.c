#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "formats/perf_data.h"
#include "io/output.h"
#include "model/util.h"

extern char **environ;

#define MAGIC "PERFILE2"

struct spaa_perf_data {
	pid_t pid;
	int errfd;              /* perf's standard error (an unlinked file) */
	char *path;             /* owned */
	struct spaa_input *in;  /* owned: perf's output */
};

bool spaa_perf_data_sniff(const char *data, size_t len)
{
	return len >= 8 && !memcmp(data, MAGIC, 8);
}

/* An unlinked temporary file for perf's standard error, or -1. */
static int error_file(void)
{
	FILE *f = spaa_output_spool(NULL);
	int fd = f ? dup(fileno(f)) : -1;

	if (f)
		fclose(f);
	return fd;
}

int spaa_perf_data_open(struct spaa_perf_data **pd, struct spaa_input **in,
			const char *path, bool compressed,
			const struct spaa_input_opts *io, struct spaa_error *err)
{
	/* --force: a file recorded by another user is read all the same */
	char *argv[] = { (char *)"perf", (char *)"script", (char *)"--force",
			 (char *)"-i", (char *)path, (char *)"-F", (char *)"+pid,+period",
			 NULL };
	posix_spawn_file_actions_t fa;
	struct spaa_perf_data *d;
	int out[2], r;

	*pd = NULL;
	*in = NULL;
	if (compressed || !strcmp(path, "-"))
		return spaa_error_at(err, SPAA_E_INVALID, path, 0,
				     "a perf.data file must be named uncompressed: perf reads the file itself");
	d = spaa_xcalloc(1, sizeof(*d));
	d->pid = -1;
	d->path = spaa_xstrdup(path);
	if ((d->errfd = error_file()) < 0 || pipe(out)) {
		r = errno;
		if (d->errfd >= 0)
			close(d->errfd);
		free(d->path);
		free(d);
		return spaa_error_at(err, SPAA_E_IO, path, 0,
				     "cannot run perf: %s", strerror(r));
	}
	fcntl(out[0], F_SETFD, FD_CLOEXEC);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	posix_spawn_file_actions_adddup2(&fa, d->errfd, 2);
	posix_spawn_file_actions_addclose(&fa, out[0]);
	r = posix_spawnp(&d->pid, "perf", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(out[1]);
	if (r) {
		close(out[0]);
		d->pid = -1;
		spaa_perf_data_close(d, true, NULL);
		if (r == ENOENT)
			return spaa_error_at(err, SPAA_E_IO, path, 0,
					     "a perf.data file needs perf to be read, and perf is not installed (not on PATH): install it (Debian: linux-perf) or pass the text of 'perf script -i %s'",
					     path);
		return spaa_error_at(err, SPAA_E_IO, path, 0, "cannot run perf: %s",
				     strerror(r));
	}
	if (spaa_input_open_fd(&d->in, out[0], path, io, err)) {
		spaa_perf_data_close(d, true, NULL);
		return -1;
	}
	*pd = d;
	*in = d->in;
	return 0;
}

int spaa_perf_data_close(struct spaa_perf_data *d, bool failed,
			 struct spaa_error *err)
{
	char line[512] = "";
	int status = 0, ret = 0;
	ssize_t n;

	if (!d)
		return 0;
	if (failed && d->pid > 0)
		kill(d->pid, SIGTERM);  /* it may be blocked writing to us */
	spaa_input_close(d->in);
	while (d->pid > 0 && waitpid(d->pid, &status, 0) < 0 && errno == EINTR)
		;
	/* perf's own failure explains ours (an empty output, say) */
	if (d->pid > 0 && ((WIFEXITED(status) && WEXITSTATUS(status)) ||
			   (!failed && !WIFEXITED(status)))) {
		n = pread(d->errfd, line, sizeof(line) - 1, 0);
		line[n > 0 ? n : 0] = '\0';
		line[strcspn(line, "\n")] = '\0';
		if (WIFEXITED(status))
			spaa_error_at(err, SPAA_E_IO, d->path, 0, "perf script failed (exit %d)%s%s",
				      WEXITSTATUS(status), *line ? ": " : "", line);
		else
			spaa_error_at(err, SPAA_E_IO, d->path, 0, "perf script was killed by signal %d",
				      WTERMSIG(status));
		ret = -1;
	}
	close(d->errfd);
	free(d->path);
	free(d);
	return ret;
}
