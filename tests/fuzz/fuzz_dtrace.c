/*
 * The DTrace reader: the bytes are dtrace's output text (header lines,
 * stack entries, messages), read as the loader reads it.
 */
#include "formats/dtrace.h"
#include "fuzz.h"
#include "io/input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct spaa_load_opts lo = {
		.max_depth = SPAA_LOAD_MAX_DEPTH_DEFAULT,
		.max_strings = SPAA_LOAD_MAX_STRINGS_DEFAULT,
	};
	const char *path = fuzz_write("dtrace.txt", data, size);
	struct spaa_profile p;
	struct spaa_input *in;
	struct spaa_error err;

	spaa_error_init(&err);
	(void)spaa_dtrace_sniff((const char *)data, size, true);
	if (spaa_input_open(&in, path, NULL, &err))
		return 0;
	spaa_profile_init(&p);
	spaa_dtrace_read(&p, in, &lo, 0, 0, &err);
	spaa_profile_release(&p);
	spaa_input_close(in);
	return 0;
}
