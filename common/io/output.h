/*
 * output - writing a stream to a file or stdout, optionally compressed.
 *
 * The counterpart of input: bytes go through a fixed buffer into zlib's
 * deflate (gzip framing) or zstd's streaming compressor, so memory does not
 * grow with the output.  What the path names decides how it is written
 * (spaa-convert(1), Output targets):
 * - a regular file, or a new name, is written under a temporary name
 *   beside it and renamed into place by spaa_output_close, so a failed
 *   conversion never leaves a half-written file under the name asked for
 *   (and an input converted onto itself is read whole before it is
 *   replaced).  Symbolic links are followed first: the link stays and the
 *   file it leads to is replaced, keeping its mode (and owner where we
 *   may).  A file without write permission is refused, never replaced;
 * - anything else (a device, a FIFO, /dev/stdout and /dev/fd/N, which
 *   lead into /proc) is written in place, and its write errors are errors
 *   (/dev/full: "No space left on device");
 * - "-" is stdout, which is flushed but never closed.
 * Temporary files, these and spaa_output_temp_create's, are removed when
 * SIGINT, SIGTERM or SIGHUP arrives, and the program then dies of the
 * signal (the first such file installs the handlers, only where the
 * action was the default one).
 *
 * Ownership: spaa_output_open hands the caller a stream that only
 * spaa_output_close or spaa_output_abort frees.
 */
#ifndef SPAA_OUTPUT_H
#define SPAA_OUTPUT_H

#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

#include "io/input.h"
#include "model/error.h"

struct spaa_output;

/*
 * Opens path ("-" = stdout) for writing with compression comp; level 0
 * means the library's default.  On success *out is owned by the caller:
 * finish it with spaa_output_close (or spaa_output_abort).  Errors:
 * SPAA_E_IO (cannot create the file), SPAA_E_INTERNAL (compressor set-up).
 */
int spaa_output_open(struct spaa_output **out, const char *path,
		     enum spaa_input_comp comp, int level,
		     struct spaa_error *err);

/* Appends len bytes.  Returns 0, or -1 with SPAA_E_IO on a write error. */
int spaa_output_write(struct spaa_output *out, const void *buf, size_t len,
		      struct spaa_error *err);

/* printf-style append; same returns. */
int spaa_output_printf(struct spaa_output *out, struct spaa_error *err,
		       const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Ends the compressed stream, flushes, closes and (for a file) renames the
 * temporary file into place; frees out in every case.  Returns 0 or -1
 * with SPAA_E_IO; on failure the temporary file is removed.
 */
int spaa_output_close(struct spaa_output *out, struct spaa_error *err);

/* Frees out, removing a temporary file; accepts NULL. */
void spaa_output_abort(struct spaa_output *out);

/* Where temporary files go: $TMPDIR when set and not empty, else /tmp. */
const char *spaa_output_tmpdir(void);

/*
 * An empty file spaa_output_tmpdir()/PREFIX-XXXXXX, removed if a signal
 * ends the program.  *path is the caller's: spaa_output_temp_remove
 * removes the file and frees it.  Errors: SPAA_E_IO.
 */
int spaa_output_temp_create(char **path, const char *prefix,
			    struct spaa_error *err);

/* Removes the file and frees path; accepts NULL. */
void spaa_output_temp_remove(char *path);

/*
 * A nameless read-write file in spaa_output_tmpdir() for spooling, owned
 * by the caller (fclose frees it and its space).  NULL with SPAA_E_IO.
 */
FILE *spaa_output_spool(struct spaa_error *err);

/* "none", "gzip", "zstd" -> compression; -1 for anything else. */
int spaa_output_comp_parse(const char *name);

/*
 * pthread_create with SIGINT, SIGTERM and SIGHUP blocked in the new thread:
 * every thread the library starts uses it, so that those signals reach the
 * thread that creates temporary files, which holds them while it does.
 */
int spaa_output_thread_create(pthread_t *thread, void *(*fn)(void *), void *arg);

#endif
