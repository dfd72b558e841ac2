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

FILE *fuzz_devnull(void)
{
	static FILE *f;

	if (!f && !(f = fopen("/dev/null", "w")))
		abort();
	return f;
}
