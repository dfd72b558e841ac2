#include <ctype.h>
#include <errno.h>
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

const char *spaa_error_strerror(int e, char *buf, size_t size)
{
	snprintf(buf, size, "%s", strerror(e));
	if (isupper((unsigned char)buf[0]) && islower((unsigned char)buf[1]))
		buf[0] = (char)tolower((unsigned char)buf[0]);
	return buf;
}

int spaa_error_path(struct spaa_error *err, const char *path, int e)
{
	char text[256];

	/* "" would vanish from the message ("no such file or directory") */
	if (!path[0])
		return spaa_error_at(err, SPAA_E_NOT_FOUND, "", 0,
				     "an empty path ('') names no file or directory");
	return spaa_error_at(err, e == ENOENT || e == ENOTDIR ?
			     SPAA_E_NOT_FOUND : SPAA_E_IO, path, 0, "%s",
			     spaa_error_strerror(e, text, sizeof(text)));
}
