/*
 * sbuf - a growing NUL-terminated string, for names and messages whose
 * length is not known in advance.
 *
 * Ownership: zero-initialize it; s is NULL until something is added, then
 * owned by the buffer: free(sb.s) releases it, or spaa_sbuf_detach hands
 * it to the caller and leaves the buffer empty.  Allocation failure aborts
 * (util.h).
 */
#ifndef SPAA_SBUF_H
#define SPAA_SBUF_H

#include <stddef.h>

struct spaa_sbuf {
	char *s;
	size_t len, alloc;
};

void spaa_sbuf_add(struct spaa_sbuf *sb, const char *s, size_t n);
void spaa_sbuf_adds(struct spaa_sbuf *sb, const char *s);
void spaa_sbuf_printf(struct spaa_sbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Takes the string (never NULL; the caller owns it); sb is empty again. */
char *spaa_sbuf_detach(struct spaa_sbuf *sb);

#endif
