#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

#define NSLOTS 4

static char dir[64];
static struct {
	char name[32];
	char path[128];
} slots[NSLOTS];

static void cleanup(void)
{
	for (int i = 0; i < NSLOTS; i++)
		if (slots[i].name[0])
			unlink(slots[i].path);
	rmdir(dir);
}

const char *fuzz_write(const char *name, const void *data, size_t size)
{
	FILE *f;
	int i;

	if (!dir[0]) {
		const char *tmp = getenv("TMPDIR");

		snprintf(dir, sizeof(dir), "%s/spaa-fuzz-XXXXXX",
			 tmp && strlen(tmp) < 32 ? tmp : "/tmp");
		if (!mkdtemp(dir))
			abort();
		atexit(cleanup);
	}
	for (i = 0; i < NSLOTS && slots[i].name[0]; i++)
		if (!strcmp(slots[i].name, name))
			break;
	if (i == NSLOTS || strlen(name) >= sizeof(slots[i].name))
		abort();
	snprintf(slots[i].name, sizeof(slots[i].name), "%s", name);
	snprintf(slots[i].path, sizeof(slots[i].path), "%s/%s", dir, name);
	f = fopen(slots[i].path, "wb");
	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f))
		abort();
	return slots[i].path;
}

int fuzz_each_line(const uint8_t *data, size_t size,
		   int (*fn)(void *ctx, const char *line, size_t len,
			     unsigned long lineno),
		   void *ctx)
{
	unsigned long lineno = 0;
	size_t at = 0;
	int r = 0;

	while (!r && at < size) {
		const uint8_t *nl = memchr(data + at, '\n', size - at);
		size_t len = nl ? (size_t)(nl - data) - at : size - at;
		char *line = malloc(len + 1);

		if (!line)
			abort();
		memcpy(line, data + at, len);
		line[len] = '\0';
		r = fn(ctx, line, len, ++lineno);
		free(line);
		at += len + 1;
	}
	return r;
}

FILE *fuzz_devnull(void)
{
	static FILE *f;

	if (!f && !(f = fopen("/dev/null", "w")))
		abort();
	return f;
}
