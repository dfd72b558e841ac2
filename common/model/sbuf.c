#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model/sbuf.h"
#include "model/util.h"

void spaa_sbuf_add(struct spaa_sbuf *sb, const char *s, size_t n)
{
	SPAA_ALLOC_GROW(sb->s, sb->len + n + 1, sb->alloc);
	memcpy(sb->s + sb->len, s, n);
	sb->len += n;
	sb->s[sb->len] = '\0';
}

void spaa_sbuf_adds(struct spaa_sbuf *sb, const char *s)
{
	spaa_sbuf_add(sb, s, strlen(s));
}

void spaa_sbuf_printf(struct spaa_sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	SPAA_ALLOC_GROW(sb->s, sb->len + (size_t)n + 1, sb->alloc);
	va_start(ap, fmt);
	vsnprintf(sb->s + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

char *spaa_sbuf_detach(struct spaa_sbuf *sb)
{
	char *s = sb->s ? sb->s : spaa_xstrdup("");

	sb->s = NULL;
	sb->len = sb->alloc = 0;
	return s;
}
