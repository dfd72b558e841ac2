/*
 * The V8 CPU profile reader: the bytes are a .cpuprofile or a trace
 * document (told as the loader tells them; anything else is read as a
 * .cpuprofile when the first byte is even, as a trace when odd, so that
 * mutations of the first member name still reach both).
 */
#include "formats/v8_cpu.h"
#include "fuzz.h"
#include "io/input.h"

static int touch_sample(void *data, const struct spaa_profile *p,
			const struct spaa_sample *s, struct spaa_error *err)
{
	(void)p;
	(void)err;
	*(uint64_t *)data += s->period + (uint64_t)s->time;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t sum = 0;
	struct spaa_load_opts lo = {
		.on_sample = touch_sample, .data = &sum,
		.max_depth = SPAA_LOAD_MAX_DEPTH_DEFAULT,
		.max_strings = SPAA_LOAD_MAX_STRINGS_DEFAULT,
	};
	enum spaa_v8_kind kind = spaa_v8_sniff((const char *)data, size);
	const char *path = fuzz_write("p.cpuprofile", data, size);
	struct spaa_profile p;
	struct spaa_input *in;
	struct spaa_error err;

	if (kind != SPAA_V8_TRACE)
		kind = kind == SPAA_V8_CPUPROFILE || !size || !(data[0] & 1) ?
		       SPAA_V8_CPUPROFILE : SPAA_V8_TRACE;
	spaa_error_init(&err);
	if (spaa_input_open(&in, path, NULL, &err))
		return 0;
	spaa_profile_init(&p);
	spaa_v8_cpu_read(&p, in, kind, &lo, 0, 0, &err);
	spaa_profile_release(&p);
	spaa_input_close(in);
	return 0;
}
