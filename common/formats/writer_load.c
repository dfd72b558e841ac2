#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/spaa_reader.h"
#include "formats/writer_load.h"
#include "io/input.h"
#include "io/output.h"
#include "model/util.h"

/* The reader's warnings, with the input's name for the temporary file's. */
struct renamed {
	const struct spaa_warn_sink *sink;
	const char *name;
};

static void warn_renamed(void *data, const char *file, unsigned long line,
			 const char *msg)
{
	const struct renamed *r = data;

	(void)file;
	(void)line;
	spaa_warn(r->sink, r->name, 0, "%s", msg);
}

static int write_writer(void *ctx, struct spaa_output *out, struct spaa_error *err)
{
	return spaa_writer_write_spaa(ctx, out, err);
}

int spaa_writer_load(struct spaa_profile *p, struct spaa_writer *w,
		     const char *name, const struct spaa_load_opts *opts,
		     struct spaa_repeats *rep, struct spaa_error *err)
{
	return spaa_writer_load_spaa(p, write_writer, w, name, opts, rep, err);
}

int spaa_writer_load_spaa(struct spaa_profile *p, spaa_writer_load_fn write,
			  void *ctx, const char *name,
			  const struct spaa_load_opts *opts, struct spaa_repeats *rep,
			  struct spaa_error *err)
{
	struct renamed rn = { &opts->warn, name };
	struct spaa_load_opts o = *opts;
	struct spaa_output *out = NULL;
	struct spaa_input *in = NULL;
	char *path = NULL;
	int ret = -1;

	if (spaa_output_temp_create(&path, "spaa-load", err)) {
		snprintf(err->file, sizeof(err->file), "%s", name);
		return -1;
	}
	if (spaa_output_open(&out, path, SPAA_INPUT_COMP_NONE, 0, err) ||
	    write(ctx, out, err))
		goto out;
	ret = spaa_output_close(out, err);
	out = NULL;
	if (ret)
		goto out;
	ret = -1;
	o.on_line = NULL;
	o.on_progress = NULL;
	o.warn = (struct spaa_warn_sink){ warn_renamed, &rn };
	if (spaa_input_open(&in, path, NULL, err))
		goto out;
	if (spaa_reader_read(p, in, &o, rep, 0, 0, err))
		goto out;
	/* the temporary file's name goes, the input's stays */
	free(p->files[p->nfiles - 1].path);
	p->files[p->nfiles - 1].path = spaa_xstrdup(name);
	ret = 0;
out:
	if (ret && !strcmp(err->file, path)) {   /* the reader's, on the file */
		snprintf(err->file, sizeof(err->file), "%s", name);
		err->line = 0;
	}
	spaa_input_close(in);
	spaa_output_abort(out);
	spaa_output_temp_remove(path);
	return ret;
}
