#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#include "io/output.h"
#include "model/util.h"

#define OUT_BUF (128u << 10)

struct spaa_output {
	FILE *fp;               /* owned unless stdout */
	char *path;             /* owned; the name given, NULL for stdout */
	char *target;           /* owned; where its symbolic links lead */
	char *tmp;              /* owned; temporary name, NULL when in place */
	int slot;               /* tmp's slot in temps[], -1 if none */
	enum spaa_input_comp comp;
	z_stream zs;
	bool zs_live;
	ZSTD_CCtx *zc;
	unsigned char *cbuf;    /* owned; compressed bytes on their way out */
	char *fmt;              /* owned; printf scratch */
	size_t fmt_alloc;
};

static int io_error(struct spaa_output *o, struct spaa_error *err)
{
	return spaa_error_at(err, SPAA_E_IO, o->path ? o->path : "-", 0,
			     "cannot write the output: %s", strerror(errno));
}

static int put(struct spaa_output *o, const void *buf, size_t len,
	       struct spaa_error *err)
{
	if (len && fwrite(buf, 1, len, o->fp) != len)
		return io_error(o, err);
	return 0;
}

int spaa_output_comp_parse(const char *name)
{
	if (!strcmp(name, "none"))
		return SPAA_INPUT_COMP_NONE;
	if (!strcmp(name, "gzip") || !strcmp(name, "gz"))
		return SPAA_INPUT_COMP_GZIP;
	if (!strcmp(name, "zstd") || !strcmp(name, "zst"))
		return SPAA_INPUT_COMP_ZSTD;
	return -1;
}

/*
 * Temporary files that a SIGINT, SIGTERM or SIGHUP must remove: fixed
 * slots, because the handler may only read memory and call
 * async-signal-safe functions (unlink, raise).  The one piece of global
 * state in common/: a signal handler has nowhere else to look.
 */
#define TEMP_SLOTS 8

static struct {
	char path[PATH_MAX];
	volatile sig_atomic_t live;
} temps[TEMP_SLOTS];

static void on_fatal_signal(int sig)
{
	for (size_t i = 0; i < TEMP_SLOTS; i++)
		if (temps[i].live)
			unlink(temps[i].path);
	/* SA_RESETHAND restored the default action: die of the signal */
	raise(sig);
}

/* Installs on_fatal_signal where the program left the default action. */
static void catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	static bool done;
	struct sigaction sa = { .sa_handler = on_fatal_signal,
				.sa_flags = SA_RESETHAND };

	if (done)
		return;
	done = true;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old;

		/* an ignored SIGHUP (nohup) stays ignored */
		if (!sigaction(sigs[i], NULL, &old) && old.sa_handler == SIG_DFL)
			sigaction(sigs[i], &sa, NULL);
	}
}

/* The signals on which temporary files are removed, in *set. */
static void fatal_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

int spaa_output_thread_create(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	sigset_t set, old;
	int rc;

	fatal_signals(&set);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	rc = pthread_create(thread, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

/* Slot for path, or -1 when none is free (the file is then not guarded). */
static int temp_register(const char *path)
{
	size_t n = strlen(path);

	catch_signals();
	for (int i = 0; i < TEMP_SLOTS; i++) {
		if (temps[i].live || n >= sizeof(temps[i].path))
			continue;
		memcpy(temps[i].path, path, n + 1);
		temps[i].live = 1;
		return i;
	}
	return -1;
}

static void temp_unregister(int *slot)
{
	if (*slot >= 0)
		temps[*slot].live = 0;
	*slot = -1;
}

const char *spaa_output_tmpdir(void)
{
	const char *dir = getenv("TMPDIR");

	return dir && *dir ? dir : "/tmp";
}

/*
 * mkstemp of DIR/NAME, registered for removal on signals; an error names
 * what (NULL: the temporary file).
 */
static int temp_create(char **path, int *slot, const char *dir,
		       const char *name, const char *what, struct spaa_error *err)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	int fd;

	sigset_t set, old;

	*path = spaa_xmalloc(n);
	snprintf(*path, n, "%s/%s", dir, name);
	/*
	 * A signal between mkstemp and temp_register would leave the file
	 * behind: hold the signals until it is registered.  The program's
	 * other threads block them (spaa_output_thread_create), so this
	 * thread is the one that takes them.
	 */
	catch_signals();
	fatal_signals(&set);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	fd = mkstemp(*path);
	if (fd >= 0)
		*slot = temp_register(*path);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (fd < 0) {
		if (what)
			spaa_error_at(err, SPAA_E_IO, what, 0, "cannot create the output: %s",
				      strerror(errno));
		else
			spaa_error_at(err, SPAA_E_IO, *path, 0,
				      "cannot create a temporary file: %s", strerror(errno));
		SPAA_FREE_AND_NULL(*path);
		return -1;
	}
	return fd;
}

int spaa_output_temp_create(char **path, const char *prefix,
			    struct spaa_error *err)
{
	char name[64];
	int fd, slot;

	snprintf(name, sizeof(name), "%s-XXXXXX", prefix);
	if ((fd = temp_create(path, &slot, spaa_output_tmpdir(), name, NULL, err)) < 0)
		return -1;
	close(fd);
	return 0;
}

void spaa_output_temp_remove(char *path)
{
	if (!path)
		return;
	for (int i = 0; i < TEMP_SLOTS; i++)
		if (temps[i].live && !strcmp(temps[i].path, path))
			temps[i].live = 0;
	unlink(path);
	free(path);
}

FILE *spaa_output_spool(struct spaa_error *err)
{
	char *path;
	FILE *fp;
	int fd, slot;

	fd = temp_create(&path, &slot, spaa_output_tmpdir(), "spaa-spool-XXXXXX", NULL, err);
	if (fd < 0)
		return NULL;
	/* nameless from now on: nothing is left behind, whatever happens */
	unlink(path);
	temp_unregister(&slot);
	if (!(fp = fdopen(fd, "w+b"))) {
		spaa_error_at(err, SPAA_E_IO, path, 0, "cannot create a temporary file: %s",
			      strerror(errno));
		close(fd);
	}
	free(path);
	return fp;
}

/*
 * "/proc/PID/fd/N" of this process -> N (the descriptor /dev/stdout and
 * /dev/fd/N stand for), else -1.
 */
static int own_fd(const char *dir, const char *name)
{
	char self[64];
	char *end;
	long n;

	snprintf(self, sizeof(self), "/proc/%ld/fd", (long)getpid());
	if (strcmp(dir, self))
		return -1;
	errno = 0;
	n = strtol(name, &end, 10);
	return !errno && end != name && !*end && n >= 0 && n <= INT_MAX ? (int)n : -1;
}

/*
 * What writing to path means.  Symbolic links are followed one by one:
 * a link inside /proc (/dev/stdout, /dev/fd/N) is a "magic" link to an
 * open file, never a path to replace, so it is written in place (a
 * descriptor of ours is duplicated, keeping its offset and append mode).
 * Otherwise *target is where the chain ends: a regular file or nothing
 * (written through a temporary file and renamed, *st->st_mode 0 when new),
 * or something else (a device, a FIFO, a socket: written in place).
 */
enum target_kind { TARGET_RENAME, TARGET_IN_PLACE, TARGET_FD };

static int resolve(const char *path, char **target, struct stat *st, int *fd,
		   enum target_kind *kind, struct spaa_error *err)
{
	char *cur = spaa_xstrdup(path);

	for (int hop = 0; hop < 40; hop++) {
		char link[PATH_MAX], *dir, *slash, *real;
		ssize_t n;

		if (lstat(cur, st)) {
			if (errno != ENOENT)
				break;
			memset(st, 0, sizeof(*st));
			*kind = TARGET_RENAME;
			*target = cur;
			return 0;
		}
		if (!S_ISLNK(st->st_mode)) {
			if (S_ISDIR(st->st_mode)) {
				errno = EISDIR;
				break;
			}
			*kind = S_ISREG(st->st_mode) ? TARGET_RENAME : TARGET_IN_PLACE;
			*target = cur;
			return 0;
		}
		if ((n = readlink(cur, link, sizeof(link) - 1)) < 0)
			break;
		link[n] = 0;
		slash = strrchr(cur, '/');
		dir = slash ? spaa_xstrndup(cur, (size_t)(slash - cur) + (slash == cur)) :
		      spaa_xstrdup(".");
		real = realpath(dir, NULL);
		free(dir);
		if (!real)
			break;
		if (!strncmp(real, "/proc/", 6)) {
			*fd = own_fd(real, slash ? slash + 1 : cur);
			*kind = *fd >= 0 ? TARGET_FD : TARGET_IN_PLACE;
			free(real);
			free(cur);
			*target = spaa_xstrdup(path);
			return 0;
		}
		free(cur);
		if (link[0] == '/') {
			cur = spaa_xstrdup(link);
		} else {
			size_t m = strlen(real) + strlen(link) + 2;

			cur = spaa_xmalloc(m);
			snprintf(cur, m, "%s/%s", real, link);
		}
		free(real);
		if (hop == 39)
			errno = ELOOP;
	}
	spaa_error_at(err, SPAA_E_IO, path, 0, "cannot write the output: %s",
		      strerror(errno));
	free(cur);
	return -1;
}

/*
 * The temporary file beside target that replaces it: same owner (where we
 * may) and mode as the file it replaces, else what the umask gives a new
 * file.  A file the user could not write in place is refused, not
 * replaced (root may write anything, so a file without any write
 * permission counts as read-only for root too).
 */
static int open_temp_beside(struct spaa_output *o, const struct stat *st,
			    struct spaa_error *err)
{
	const char *slash = strrchr(o->target, '/');
	char *dir = slash ? spaa_xstrndup(o->target, (size_t)(slash - o->target) + (slash == o->target)) :
		    spaa_xstrdup(".");
	char name[NAME_MAX + 16];
	int fd;
	mode_t mode;

	if (st->st_mode && (!(st->st_mode & 0222) || access(o->target, W_OK))) {
		free(dir);
		return spaa_error_at(err, SPAA_E_IO, o->path, 0,
				     "cannot write the output: the file is read-only");
	}
	snprintf(name, sizeof(name), "%s.tmpXXXXXX", slash ? slash + 1 : o->target);
	fd = temp_create(&o->tmp, &o->slot, dir, name, o->path, err);
	free(dir);
	if (fd < 0)
		return -1;
	if (st->st_mode) {
		if ((st->st_uid != geteuid() || st->st_gid != getegid()) &&
		    fchown(fd, st->st_uid, st->st_gid)) {
			/* not ours to give away: the new file stays ours */
		}
		mode = st->st_mode & 07777;
	} else {
		mode_t mask = umask(0);

		umask(mask);
		mode = 0666 & ~mask;    /* mkstemp makes it 0600 */
	}
	if (fchmod(fd, mode) || !(o->fp = fdopen(fd, "wb"))) {
		close(fd);
		return io_error(o, err);
	}
	return 0;
}

int spaa_output_open(struct spaa_output **out, const char *path,
		     enum spaa_input_comp comp, int level,
		     struct spaa_error *err)
{
	struct spaa_output *o = spaa_xcalloc(1, sizeof(*o));

	o->comp = comp;
	o->slot = -1;
	if (!strcmp(path, "-")) {
		o->fp = stdout;
	} else {
		enum target_kind kind;
		struct stat st;
		int fd = -1;

		o->path = spaa_xstrdup(path);
		if (resolve(path, &o->target, &st, &fd, &kind, err))
			goto fail;
		if (kind == TARGET_RENAME) {
			if (open_temp_beside(o, &st, err))
				goto fail;
		} else {
			fd = kind == TARGET_FD ? dup(fd) :
			     open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
			if (fd < 0 || !(o->fp = fdopen(fd, "wb"))) {
				if (fd >= 0)
					close(fd);
				io_error(o, err);
				goto fail;
			}
		}
	}
	if (comp != SPAA_INPUT_COMP_NONE)
		o->cbuf = spaa_xmalloc(OUT_BUF);
	if (comp == SPAA_INPUT_COMP_GZIP) {
		/* 15 + 16: gzip framing, which input.c recognises by magic */
		if (deflateInit2(&o->zs, level ? level : Z_DEFAULT_COMPRESSION,
				 Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
			spaa_error_set(err, SPAA_E_INTERNAL, "cannot set up gzip compression");
			goto fail;
		}
		o->zs_live = true;
	} else if (comp == SPAA_INPUT_COMP_ZSTD) {
		o->zc = ZSTD_createCCtx();
		if (!o->zc || ZSTD_isError(ZSTD_CCtx_setParameter(o->zc, ZSTD_c_compressionLevel,
								   level ? level : 3))) {
			spaa_error_set(err, SPAA_E_INTERNAL, "cannot set up zstd compression");
			goto fail;
		}
	}
	*out = o;
	return 0;
fail:
	spaa_output_abort(o);
	return -1;
}

/* Feeds len bytes (or, with finish, the end of stream) to the compressor. */
static int out_compress(struct spaa_output *o, const void *buf, size_t len,
		    bool finish, struct spaa_error *err)
{
	if (o->comp == SPAA_INPUT_COMP_GZIP) {
		int ret;

		o->zs.next_in = (Bytef *)(uintptr_t)buf;
		o->zs.avail_in = (uInt)len;
		do {
			o->zs.next_out = o->cbuf;
			o->zs.avail_out = OUT_BUF;
			ret = deflate(&o->zs, finish ? Z_FINISH : Z_NO_FLUSH);
			if (ret == Z_STREAM_ERROR)
				return spaa_error_set(err, SPAA_E_INTERNAL, "gzip compression failed");
			if (put(o, o->cbuf, OUT_BUF - o->zs.avail_out, err))
				return -1;
		} while (o->zs.avail_out == 0 || (finish && ret != Z_STREAM_END));
		return 0;
	}
	{
		ZSTD_inBuffer in = { buf, len, 0 };
		size_t left;

		do {
			ZSTD_outBuffer zout = { o->cbuf, OUT_BUF, 0 };

			left = ZSTD_compressStream2(o->zc, &zout, &in,
						    finish ? ZSTD_e_end : ZSTD_e_continue);
			if (ZSTD_isError(left))
				return spaa_error_set(err, SPAA_E_INTERNAL, "zstd compression failed: %s",
						      ZSTD_getErrorName(left));
			if (put(o, o->cbuf, zout.pos, err))
				return -1;
		} while (finish ? left != 0 : in.pos < in.size);
	}
	return 0;
}

int spaa_output_write(struct spaa_output *o, const void *buf, size_t len,
		      struct spaa_error *err)
{
	/* zlib counts in uInt: feed huge buffers in slices */
	while (o->comp == SPAA_INPUT_COMP_GZIP && len > (1u << 30)) {
		if (out_compress(o, buf, 1u << 30, false, err))
			return -1;
		buf = (const char *)buf + (1u << 30);
		len -= 1u << 30;
	}
	if (o->comp == SPAA_INPUT_COMP_NONE)
		return put(o, buf, len, err);
	return out_compress(o, buf, len, false, err);
}

int spaa_output_printf(struct spaa_output *o, struct spaa_error *err,
		       const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->fmt, o->fmt_alloc, fmt, ap);
	va_end(ap);
	if (n < 0)
		return spaa_error_set(err, SPAA_E_INTERNAL, "formatting failed");
	if ((size_t)n >= o->fmt_alloc) {
		SPAA_ALLOC_GROW(o->fmt, (size_t)n + 1, o->fmt_alloc);
		va_start(ap, fmt);
		vsnprintf(o->fmt, o->fmt_alloc, fmt, ap);
		va_end(ap);
	}
	return spaa_output_write(o, o->fmt, (size_t)n, err);
}

int spaa_output_close(struct spaa_output *o, struct spaa_error *err)
{
	int ret = 0;

	if (o->comp != SPAA_INPUT_COMP_NONE && out_compress(o, "", 0, true, err))
		ret = -1;
	if (!ret && fflush(o->fp))
		ret = io_error(o, err);
	if (o->fp != stdout) {
		if (fclose(o->fp) && !ret)
			ret = io_error(o, err);
		o->fp = NULL;
		if (!ret && o->tmp && rename(o->tmp, o->target))
			ret = io_error(o, err);
		if (!ret) {
			temp_unregister(&o->slot);
			SPAA_FREE_AND_NULL(o->tmp);
		}
	}
	spaa_output_abort(o);
	return ret;
}

void spaa_output_abort(struct spaa_output *o)
{
	if (!o)
		return;
	if (o->fp && o->fp != stdout)
		fclose(o->fp);
	if (o->tmp)
		unlink(o->tmp);
	temp_unregister(&o->slot);
	if (o->zs_live)
		deflateEnd(&o->zs);
	ZSTD_freeCCtx(o->zc);
	free(o->cbuf);
	free(o->fmt);
	free(o->path);
	free(o->target);
	free(o->tmp);
	free(o);
}
