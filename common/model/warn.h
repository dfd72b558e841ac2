/*
 * warn - where warnings go: the SHOULD-warn rules of the SPAA spec and
 * resource notes.  common/ never prints: the program's main chooses the
 * sink (stderr, a validator's list of findings, nothing).
 *
 * A zeroed struct spaa_warn_sink, or a NULL sink, drops every warning.
 * Modules that may warn many times per file fold repeats of one kind
 * into a single call with a count (see spaa_reader.h).
 */
#ifndef SPAA_WARN_H
#define SPAA_WARN_H

struct spaa_warn_sink {
	void (*fn)(void *data, const char *file, unsigned long line,
		   const char *msg);
	void *data;             /* weak: passed to fn */
};

/* Formats the message and hands it to the sink; line 0: the whole file. */
void spaa_warn(const struct spaa_warn_sink *sink, const char *file,
	       unsigned long line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
