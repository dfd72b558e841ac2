/*
 * error - the one error struct that travels back through common/.
 *
 * A failing function fills a struct spaa_error where the failure happens
 * and returns -1; callers pass it up unchanged.  Only common/main.c turns
 * it into a LAMI error object, a stderr line and an exit status.
 *
 * Messages follow one grammar: lowercase, no full stop, the problem first,
 * subjects quoted, e.g. "unknown frame id 42 in 'stack' record".  The file
 * and line are kept apart from the message so that both the LAMI object
 * and the human line can be built from them.
 *
 * A struct spaa_error owns nothing (its strings are fixed buffers): a
 * zeroed one, or one after spaa_error_init, means "no error".
 */
#ifndef SPAA_ERROR_H
#define SPAA_ERROR_H

#include <stdarg.h>
#include <stddef.h>

/* error-code strings of the LAMI error object */
#define SPAA_E_USAGE "usage"                 /* bad command line (exit 2) */
#define SPAA_E_NOT_FOUND "input-not-found"   /* path does not exist */
#define SPAA_E_IO "io-error"                 /* read error, unreadable file */
#define SPAA_E_NO_PROFILE "no-profile"       /* directory without profiles */
#define SPAA_E_DECOMPRESS "decompress-error" /* corrupt or truncated gzip/zstd */
#define SPAA_E_LIMIT "limit-exceeded"        /* a resource bound was hit */
#define SPAA_E_PARSE "parse-error"           /* not JSON, not UTF-8 */
#define SPAA_E_INVALID "invalid-profile"     /* JSON but breaks the SPAA spec */
#define SPAA_E_NO_DATA "no-data"             /* nothing to report */
#define SPAA_E_OVERFLOW "overflow"           /* a value LAMI readers cannot hold */
#define SPAA_E_INCOMPATIBLE "incompatible"   /* --test-compatibility said no */
#define SPAA_E_INTERNAL "internal-error"

struct spaa_error {
	char code[32];          /* one of SPAA_E_*, "" while no error */
	char file[1024];        /* input the error is about, "" if none */
	unsigned long line;     /* 1-based line in file, 0 if none */
	char msg[1024];         /* the cause */
};

/* Clears err (code "" means no error). */
void spaa_error_init(struct spaa_error *err);

/*
 * Fills err with code and a printf-style message, no file or line.
 * Returns -1 so that "return spaa_error_set(...)" reads naturally.
 * err may be NULL (the error is then dropped).
 */
int spaa_error_set(struct spaa_error *err, const char *code,
		   const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Same with a file and a line (line 0: the whole file).  Returns -1. */
int spaa_error_at(struct spaa_error *err, const char *code, const char *file,
		  unsigned long line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/*
 * Writes "file:line: msg" (or "file: msg", or "msg") into buf, truncating
 * to size.  This is the text of the LAMI error-message and of stderr.
 */
void spaa_error_format(const struct spaa_error *err, char *buf, size_t size);

/*
 * strerror(e) in buf, in the message grammar above: lowercase first
 * letter, except for acronyms ("I/O ...").  Returns buf.
 */
const char *spaa_error_strerror(int e, char *buf, size_t size);

/*
 * The error of stat(2), open(2) or opendir(3) failing with errno e on
 * path: SPAA_E_NOT_FOUND for ENOENT and ENOTDIR, else SPAA_E_IO.
 * Returns -1.
 */
int spaa_error_path(struct spaa_error *err, const char *path, int e);

#endif
