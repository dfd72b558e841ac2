#include <stdlib.h>

#include "input.h"
#include "load.h"
#include "spaa_reader.h"
#include "spx_reader.h"
#include "util.h"

int spaa_load(struct spaa_profile *p, const char *const *paths, size_t npaths,
	      const struct spaa_load_opts *opts, struct spaa_error *err)
{
	struct spaa_load_opts o = *opts;
	struct spaa_input_opts io = { .max_line = opts->max_line };
	struct spaa_pathlist list = { 0 };
	uint64_t total, base = 0;
	int ret = -1;

	if (!o.max_depth)
		o.max_depth = SPAA_MAX_DEPTH_DEFAULT;
	for (size_t i = 0; i < npaths; i++)
		if (spaa_input_expand(paths[i], &list, err))
			goto out;
	total = spaa_pathlist_size(&list);
	for (size_t i = 0; i < list.nr; i++) {
		struct spaa_input *in;
		int r;

		if (list.kinds[i] == SPAA_PATH_SPX) {
			uint64_t done = 0;

			r = spx_reader_read(p, list.paths[i], &o, base, total, &done, err);
			base += done;
			if (r)
				goto out;
			continue;
		}
		if (spaa_input_open(&in, list.paths[i], &io, err))
			goto out;
		r = spaa_reader_read(p, in, &o, base, total, err);
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
