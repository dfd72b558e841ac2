#include <stdlib.h>

#include "formats/load.h"
#include "formats/spaa_reader.h"
#include "formats/spx_reader.h"
#include "formats/v8_cpu.h"
#include "io/input.h"
#include "io/pathlist.h"
#include "model/util.h"

/* One bound from the environment into *out (at most max). */
static int limit_env(const char *name, uint64_t max, uint64_t *out,
		     struct spaa_error *err)
{
	const char *v = getenv(name);
	uint64_t n;

	if (!v || !*v)
		return 0;
	if (spaa_parse_u64(v, &n) || !n || n > max)
		return spaa_error_set(err, SPAA_E_USAGE,
				      "invalid value '%.64s' for %s: expected an integer from 1 to %llu",
				      v, name, (unsigned long long)max);
	*out = n;
	return 0;
}

int spaa_load_limits_env(struct spaa_load_opts *o, struct spaa_error *err)
{
	uint64_t line = o->max_line, depth = o->max_depth, strings = o->max_strings;

	if (limit_env("SPAA_MAX_LINE", SIZE_MAX / 4, &line, err) ||
	    limit_env("SPAA_MAX_DEPTH", UINT32_MAX, &depth, err) ||
	    limit_env("SPAA_MAX_STRINGS", UINT32_MAX - 1, &strings, err))
		return -1;
	o->max_line = (size_t)line;
	o->max_depth = (uint32_t)depth;
	o->max_strings = (uint32_t)strings;
	return 0;
}

/* Enough of the start to tell a JSON document's first member name. */
#define SNIFF_BYTES 4096

bool spaa_load_sniff_foreign(const char *data, size_t len)
{
	return spaa_v8_sniff(data, len) != SPAA_V8_NONE;
}

int spaa_load_input(struct spaa_profile *p, struct spaa_input *in,
		    const struct spaa_load_opts *opts, uint64_t bytes_base,
		    uint64_t bytes_total, struct spaa_error *err)
{
	enum spaa_v8_kind v8;
	const char *data;
	size_t len;

	if (spaa_input_peek(in, SNIFF_BYTES, &data, &len, err))
		return -1;
	v8 = spaa_v8_sniff(data, len);
	if (v8 == SPAA_V8_CPUPROFILE || v8 == SPAA_V8_TRACE)
		return spaa_v8_cpu_read(p, in, v8, opts, bytes_base, bytes_total, err);
	return spaa_reader_read(p, in, opts, bytes_base, bytes_total, err);
}

int spaa_load(struct spaa_profile *p, const char *const *paths, size_t npaths,
	      const struct spaa_load_opts *opts, struct spaa_error *err)
{
	struct spaa_load_opts o = *opts;
	struct spaa_input_opts io = { .max_line = opts->max_line };
	struct spaa_pathlist list = { 0 };
	uint64_t total, base = 0;
	int ret = -1;

	if (!o.max_depth)
		o.max_depth = SPAA_LOAD_MAX_DEPTH_DEFAULT;
	if (!o.max_strings)
		o.max_strings = SPAA_LOAD_MAX_STRINGS_DEFAULT;
	for (size_t i = 0; i < npaths; i++)
		if (spaa_pathlist_expand(paths[i], &list, err))
			goto out;
	total = spaa_pathlist_size(&list);
	for (size_t i = 0; i < list.nr; i++) {
		struct spaa_input *in;
		int r;

		if (list.kinds[i] == SPAA_PATHLIST_SPX) {
			uint64_t done = 0;

			r = spaa_spx_reader_read(p, list.paths[i], &o, base, total, &done, err);
			base += done;
			if (r)
				goto out;
			continue;
		}
		if (spaa_input_open(&in, list.paths[i], &io, err))
			goto out;
		r = spaa_load_input(p, in, &o, base, total, err);
		base += spaa_input_bytes_read(in);
		spaa_input_close(in);
		if (r)
			goto out;
	}
	ret = 0;
out:
	spaa_pathlist_release(&list);
	return ret;
}
