/*
 * The V8 heap reader: the bytes are a heap snapshot (or timeline) or a
 * sampling heap profile, told as the loader tells them; anything else is
 * read as a snapshot when the first byte is even, as a sampling profile
 * when odd, so that mutations of the first member name reach both.
 */
#include "formats/v8_heap.h"
#include "fuzz.h"
#include "io/input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct spaa_load_opts lo = {
		.max_depth = SPAA_LOAD_MAX_DEPTH_DEFAULT,
		.max_strings = SPAA_LOAD_MAX_STRINGS_DEFAULT,
	};
	enum spaa_v8_kind kind = spaa_v8_sniff((const char *)data, size);
	const char *path = fuzz_write("p.heapsnapshot", data, size);
	struct spaa_profile p;
	struct spaa_input *in;
	struct spaa_error err;

	if (kind != SPAA_V8_HEAPPROFILE)
		kind = kind == SPAA_V8_HEAPSNAPSHOT || !size || !(data[0] & 1) ?
		       SPAA_V8_HEAPSNAPSHOT : SPAA_V8_HEAPPROFILE;
	spaa_error_init(&err);
	if (spaa_input_open(&in, path, NULL, &err))
		return 0;
	spaa_profile_init(&p);
	spaa_v8_heap_read(&p, in, kind, &lo, 0, 0, &err);
	spaa_profile_release(&p);
	spaa_input_close(in);
	return 0;
}
