/*
 * The pprof reader: the bytes are a protobuf message (plain: the seeds
 * are the test profiles decompressed, so mutations reach the decoder).
 * The content check runs on them; the converter runs whatever it says,
 * writing SPAA to a file that is thrown away; then the loader reads the
 * file as the programs do (detection, conversion, the SPAA reader).
 */
#include <stdio.h>

#include "formats/load.h"
#include "formats/pprof.h"
#include "fuzz.h"

static void convert(const char *path)
{
	struct spaa_pprof_opts o = { 0 };
	struct spaa_output *out = NULL;
	struct spaa_input *in = NULL;
	struct spaa_error err;
	char dst[4200];

	spaa_error_init(&err);
	snprintf(dst, sizeof(dst), "%s.spaa", path);
	if (!spaa_input_open(&in, path, NULL, &err) &&
	    !spaa_output_open(&out, dst, SPAA_INPUT_COMP_NONE, 0, &err))
		spaa_pprof_convert(in, out, &o, &err);
	spaa_output_abort(out);
	spaa_input_close(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_write("in.pb", data, size);
	struct spaa_load_opts lo = { 0 };
	struct spaa_profile p;
	struct spaa_error err;

	spaa_pprof_sniff(data, size, true);
	convert(path);
	spaa_error_init(&err);
	spaa_profile_init(&p);
	spaa_load(&p, &path, 1, &lo, &err);
	spaa_profile_release(&p);
	return 0;
}
