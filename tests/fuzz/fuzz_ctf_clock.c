/*
 * The clock of CTF metadata (formats/ctf_clock.h), from memory and as the
 * file "metadata" of a directory, which must agree: the same answer, the
 * same clock, the same error.
 */
#include <stdlib.h>
#include <string.h>

#include "formats/ctf_clock.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct spaa_ctf_clock a, b;
	struct spaa_error ea, eb;
	const char *path = fuzz_write("metadata", data, size);
	char dir[4096];
	int ra, rb;

	snprintf(dir, sizeof(dir), "%.*s", (int)(strrchr(path, '/') - path), path);
	spaa_error_init(&ea);
	spaa_error_init(&eb);
	ra = spaa_ctf_clock_parse(data, size, path, &a, &ea);
	rb = spaa_ctf_clock_read(dir, &b, &eb);
	if (ra != rb || memcmp(&a, &b, sizeof(a)) ||
	    (ra < 0 && (strcmp(ea.msg, eb.msg) || ea.line != eb.line)))
		abort();
	return 0;
}
