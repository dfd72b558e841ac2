#include <stdio.h>
#include <string.h>

#include "model/error.h"

void spaa_error_init(struct spaa_error *err)
{
	memset(err, 0, sizeof(*err));
}

static int verror(struct spaa_error *err, const char *code, const char *file,
		  unsigned long line, const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));

static int verror(struct spaa_error *err, const char *code, const char *file,
		  unsigned long line, const char *fmt, va_list ap)
{
	if (!err)
		return -1;
	snprintf(err->code, sizeof(err->code), "%s", code);
	snprintf(err->file, sizeof(err->file), "%s", file ? file : "");
	err->line = line;
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	return -1;
}

int spaa_error_set(struct spaa_error *err, const char *code,
		   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(err, code, NULL, 0, fmt, ap);
	va_end(ap);
	return -1;
}

int spaa_error_at(struct spaa_error *err, const char *code, const char *file,
		  unsigned long line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(err, code, file, line, fmt, ap);
	va_end(ap);
	return -1;
}

void spaa_error_format(const struct spaa_error *err, char *buf, size_t size)
{
	if (err->file[0] && err->line)
		snprintf(buf, size, "%s:%lu: %s", err->file, err->line,
			 err->msg);
	else if (err->file[0])
		snprintf(buf, size, "%s: %s", err->file, err->msg);
	else
		snprintf(buf, size, "%s", err->msg);
}

void spaa_warn(const struct spaa_warn_sink *sink, const char *file,
	       unsigned long line, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (!sink || !sink->fn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sink->fn(sink->data, file, line, msg);
}
