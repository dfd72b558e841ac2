#include <stdarg.h>
#include <stdio.h>

#include "model/warn.h"

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
