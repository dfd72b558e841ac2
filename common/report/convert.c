#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats/detect.h"
#include "formats/folded.h"
#include "formats/load.h"
#include "formats/perf_data.h"
#include "formats/perf_script.h"
#include "formats/pprof.h"
#include "formats/profile_writer.h"
#include "formats/spaa_reader.h"
#include "formats/spaa_writer.h"
#include "io/input.h"
#include "io/output.h"
#include "io/pathlist.h"
#include "model/sbuf.h"
#include "model/util.h"
#include "report/convert.h"
#include "report/flamegraph.h"

/* The compression asked for, else the output name's (.zst, .gz). */
static enum spaa_input_comp default_compression(const char *out)
{
	size_t n = strlen(out);

	if (n > 4 && !strcmp(out + n - 4, ".zst"))
		return SPAA_INPUT_COMP_ZSTD;
	if (n > 3 && !strcmp(out + n - 3, ".gz"))
		return SPAA_INPUT_COMP_GZIP;
	return SPAA_INPUT_COMP_NONE;
}

static int open_output(const struct spaa_convert_opts *o,
		       struct spaa_output **out, struct spaa_error *err)
{
	return spaa_output_open(out, o->output, o->compress >= 0 ?
				(enum spaa_input_comp)o->compress :
				default_compression(o->output), 0, err);
}

/*
 * SPAA to SPAA: the reader validates every record (spec section 7, as
 * spaa-validate does) while on_line copies it, so one streaming pass both
 * checks and writes, and a bad input is an error whose partial output the
 * caller discards.  A line is copied as it is (unknown fields, key order,
 * numbers as written, record order) except that the line ending becomes
 * LF, blanks around the record go and blank lines are dropped.  on_line
 * sees a line before the reader has judged it, so each line waits in
 * pending until the next one arrives (or the input ends well): standard
 * output, which nothing can take back, never gets the rejected record.
 */
struct copy {
	struct spaa_output *out;
	struct spaa_sbuf pending;
};

static int copy_pending(struct copy *c, struct spaa_error *err)
{
	if (!c->pending.len)
		return 0;
	if (spaa_output_write(c->out, c->pending.s, c->pending.len, err) ||
	    spaa_output_write(c->out, "\n", 1, err))
		return -1;
	c->pending.len = 0;
	return 0;
}

static int copy_line(void *data, const char *line, size_t len,
		     struct spaa_error *err)
{
	struct copy *c = data;

	if (copy_pending(c, err))
		return -1;
	while (len && (*line == ' ' || *line == '\t'))
		line++, len--;
	while (len && (line[len - 1] == ' ' || line[len - 1] == '\t' ||
		       line[len - 1] == '\r'))
		len--;
	spaa_sbuf_add(&c->pending, line, len);  /* blank: the reader warns about it */
	return 0;
}

static int copy_spaa(const struct spaa_convert_opts *o, struct spaa_input *in,
		     struct spaa_output *out, struct spaa_error *err)
{
	struct spaa_profile p;
	struct spaa_load_opts lo = o->load;
	struct copy c = { .out = out };
	int ret;

	lo.on_line = copy_line;
	lo.data = &c;
	spaa_profile_init(&p);
	ret = spaa_reader_read(&p, in, &lo, NULL, 0, 0, err) || copy_pending(&c, err) ? -1 : 0;
	spaa_profile_release(&p);
	free(c.pending.s);
	return ret;
}

/* The title asked for, else "Flame graph of INPUT", in buf. */
static const char *svg_title(const struct spaa_convert_opts *o, char *buf,
			     size_t size)
{
	if (o->svg.title)
		return o->svg.title;
	snprintf(buf, size, "Flame graph of %s",
		 strcmp(o->input, "-") ? o->input : "standard input");
	return buf;
}

/* The header's source_tool: the one every input file names, else ours. */
static const char *profile_source(const struct spaa_profile *p)
{
	uint32_t t = p->nfiles ? p->files[0].source_tool : 0;

	for (uint32_t i = 1; i < p->nfiles; i++)
		if (p->files[i].source_tool != t)
			t = 0;
	return t ? spaa_profile_str(p, t) : "spaa-convert";
}

/*
 * Inputs that are read whole into the model (SPX reports; SPAA to folded):
 * loaded from the path or from the open input, then written.  The output
 * is opened only once the input has loaded.
 */
static int convert_profile(const struct spaa_convert_opts *o,
			   struct spaa_input *in, struct spaa_output **out,
			   struct spaa_error *err)
{
	struct spaa_profile p;
	struct spaa_profile_writer *pw = NULL;
	struct spaa_load_opts lo = o->load;
	struct spaa_flamegraph_opts svg = o->svg;
	char title[1024];
	int ret = -1;

	spaa_profile_init(&p);
	if (o->to == SPAA_CONVERT_SPAA) {
		pw = spaa_profile_writer_new();
		if (!o->no_samples) {
			lo.on_sample = spaa_profile_writer_on_sample;
			lo.data = pw;
		}
	}
	/* several files are one profile: what they repeat is stored once */
	lo.fold_repeats = true;
	if (in ? spaa_load_input(&p, in, &lo, NULL, 0, 0, err) :
	    spaa_load(&p, o->ninputs > 1 ? o->inputs : &o->input,
		      o->ninputs > 1 ? o->ninputs : 1, &lo, err))
		goto out;
	if (o->time_ns && (o->no_samples || !p.nsamples))
		spaa_warn(&o->load.warn, o->input, 0,
			  "no sample records with time stamps: Trace Compass shows the profile as one 'header' event, and only the analyses of the whole profile apply");
	if (open_output(o, out, err))
		goto out;
	svg.title = svg_title(o, title, sizeof(title));
	if (pw ? spaa_profile_writer_write(pw, &p, profile_source(&p), *out, err) :
	    o->to == SPAA_CONVERT_SVG ?
	    spaa_flamegraph_write_profile(&p, o->event, o->metric, &svg, *out, err) :
	    spaa_folded_write_profile(&p, o->event, o->metric, *out, &o->load.warn, err))
		goto out;
	ret = 0;
out:
	spaa_profile_writer_free(pw);
	spaa_profile_release(&p);
	return ret;
}

/*
 * perf and folded input to SVG: the writer's SPAA (without sample
 * records) goes to a temporary file read back into the profile model, so
 * a flame graph shows DSOs, kinds and metrics as of any SPAA input.
 */
static int writer_to_svg(const struct spaa_convert_opts *o, struct spaa_writer *w,
			 struct spaa_output **out, struct spaa_error *err)
{
	struct spaa_output *tmp = NULL;
	struct spaa_convert_opts ro = *o;
	char *path = NULL, title[1024];
	int ret = -1;

	if (spaa_output_temp_create(&path, "spaa-convert", err) ||
	    spaa_output_open(&tmp, path, SPAA_INPUT_COMP_NONE, 0, err) ||
	    spaa_writer_write_spaa(w, tmp, err))
		goto out;
	ret = spaa_output_close(tmp, err);
	tmp = NULL;
	ro.input = path;
	ro.svg.title = svg_title(o, title, sizeof(title));
	if (!ret)
		ret = convert_profile(&ro, NULL, out, err);
out:
	spaa_output_abort(tmp);
	spaa_output_temp_remove(path);
	return ret;
}

/*
 * Whether path names SPX reports: 1 (a report by either of its files, or
 * a directory holding only reports), 0 (a file of another format, or
 * stdin), 2 (a directory holding SPAA files), -1 with err (no such path).
 */
static int spx_input(const char *path, struct spaa_error *err)
{
	struct spaa_pathlist list = { 0 };
	struct stat st;
	int ret = -1;

	if (!strcmp(path, "-"))
		return 0;
	if (spaa_pathlist_expand(path, &list, err))
		goto out;
	ret = 1;
	for (size_t i = 0; i < list.nr && ret; i++) {
		if (list.kinds[i] == SPAA_PATHLIST_SPX)
			continue;
		ret = !stat(path, &st) && S_ISDIR(st.st_mode) ? 2 : 0;
	}
out:
	spaa_pathlist_release(&list);
	return ret;
}

/*
 * The format of content not named by --from.  What the detection does not
 * know is said for what it is (spaa_detect_explain), or given to the
 * reader that names what is wrong with it (folded stacks for a call
 * path).
 */
static int sniff(struct spaa_input *in, enum spaa_convert_format *fmt,
		 struct spaa_error *err)
{
	enum spaa_detect_format d;

	if (spaa_detect(in, &d, err))
		return -1;
	switch (d) {
	case SPAA_DETECT_EMPTY:
		if (spaa_detect_explain(in, &d, err))
			return -1;
		return spaa_error_at(err, SPAA_E_NO_DATA, spaa_input_name(in), 0,
				     "the input is empty");
	case SPAA_DETECT_SPAA:
		*fmt = SPAA_CONVERT_SPAA;
		break;
	case SPAA_DETECT_PERF:
		*fmt = SPAA_CONVERT_PERF;
		break;
	case SPAA_DETECT_PPROF:
		*fmt = SPAA_CONVERT_PPROF;
		break;
	case SPAA_DETECT_PERF_DATA:
		*fmt = SPAA_CONVERT_PERF_DATA;
		break;
	case SPAA_DETECT_V8:
	case SPAA_DETECT_DTRACE:
		*fmt = SPAA_CONVERT_LOADER;
		break;
	case SPAA_DETECT_UNKNOWN:
		if (spaa_detect_explain(in, &d, err))
			return -1;
		*fmt = d == SPAA_DETECT_FOLDED ? SPAA_CONVERT_FOLDED : SPAA_CONVERT_SPAA;
		break;
	case SPAA_DETECT_FOLDED:
		*fmt = SPAA_CONVERT_FOLDED;
		break;
	}
	return 0;
}

/*
 * The input format, where the path tells it: SPX reports (a report by
 * either of its files, a directory of them) and directories of SPAA
 * files, which only the loader reads; AUTO when the content must tell.
 */
static int path_format(const struct spaa_convert_opts *o,
		       enum spaa_convert_format *from, struct spaa_error *err)
{
	int spx;

	*from = o->from;
	if (*from != SPAA_CONVERT_SPX && *from != SPAA_CONVERT_AUTO)
		return 0;
	if (*from == SPAA_CONVERT_SPX && !strcmp(o->input, "-"))
		return spaa_error_set(err, SPAA_E_USAGE,
				      "an SPX report is two files (KEY.json, KEY.txt.gz): name one of them, not standard input");
	if ((spx = spx_input(o->input, err)) < 0)
		return -1;
	if (spx == 2 && *from == SPAA_CONVERT_SPX)
		return spaa_error_at(err, SPAA_E_INVALID, o->input, 0,
				     "not an SPX report: a directory holding other profiles");
	if (spx == 2)
		*from = SPAA_CONVERT_MERGE;     /* the loader reads them all */
	if (*from == SPAA_CONVERT_SPX && !spx)
		return spaa_error_at(err, SPAA_E_INVALID, o->input, 0,
				     "not an SPX report: expected KEY.json with KEY.txt.gz beside it (or the reverse), or a directory of such reports");
	if (spx == 1)
		*from = SPAA_CONVERT_SPX;
	return 0;
}

/* pprof to SPAA: the reader writes SPAA itself. */
static int convert_pprof(const struct spaa_convert_opts *o, struct spaa_input *in,
			 struct spaa_output *out, struct spaa_error *err)
{
	struct spaa_pprof_opts po = {
		o->load.max_pprof, o->load.max_depth, &o->load.warn,
	};

	return spaa_pprof_convert(in, out, &po, err);
}

/* perf script text or folded stacks, read into a writer, then written. */
static int convert_text(const struct spaa_convert_opts *o, struct spaa_input *in,
			enum spaa_convert_format from, struct spaa_output **out,
			struct spaa_error *err)
{
	struct spaa_writer_opts wo = {
		.source_tool = from == SPAA_CONVERT_PERF ? "perf" : "folded",
		/* the flame graph reads the writer's SPAA back: no samples */
		.samples = !o->no_samples && o->to != SPAA_CONVERT_SVG,
	};
	struct spaa_writer *w = spaa_writer_new(&wo);
	int ret = -1;

	if (from == SPAA_CONVERT_PERF ?
	    spaa_perf_script_convert(in, w, o->load.max_depth, &o->load.warn, err) :
	    spaa_folded_convert(in, w, o->load.max_depth, err))
		goto out;
	if (o->to == SPAA_CONVERT_SVG) {
		ret = writer_to_svg(o, w, out, err);
		goto out;
	}
	if (open_output(o, out, err) ||
	    (o->to == SPAA_CONVERT_FOLDED ?
	     spaa_writer_write_folded(w, o->event, o->metric, *out, &o->load.warn,
				      spaa_input_name(in), err) :
	     spaa_writer_write_spaa(w, *out, err)))
		goto out;
	ret = 0;
out:
	spaa_writer_free(w);
	return ret;
}

/* perf.data: the text perf script prints of it, converted as perf text. */
static int convert_perf_data(const struct spaa_convert_opts *o, struct spaa_input *in,
			     struct spaa_output **out, struct spaa_error *err)
{
	struct spaa_input_opts io = { .max_line = o->load.max_line };
	struct spaa_perf_data *pd;
	struct spaa_input *text;
	int r;

	if (spaa_perf_data_open(&pd, &text, o->input,
				spaa_input_compression(in) != SPAA_INPUT_COMP_NONE, &io, err))
		return -1;
	r = convert_text(o, text, SPAA_CONVERT_PERF, out, err);
	if (spaa_perf_data_close(pd, r != 0, err))
		return -1;
	return r;
}

int spaa_convert(const struct spaa_convert_opts *o, struct spaa_error *err)
{
	struct spaa_input_opts io;
	struct spaa_input *in = NULL;
	struct spaa_output *out = NULL;
	enum spaa_convert_format from;
	int ret = -1;

	spaa_load_input_opts(&o->load, &io);
	if (o->ninputs > 1)
		from = SPAA_CONVERT_MERGE;
	else if (path_format(o, &from, err))
		goto out;
	if (from == SPAA_CONVERT_SPX || from == SPAA_CONVERT_MERGE ||
	    (o->time_ns && strcmp(o->input, "-")) ||
	    (from == SPAA_CONVERT_SPAA && o->to != SPAA_CONVERT_SPAA &&
	     strcmp(o->input, "-"))) {
		/* a path may be a directory: the loader reads every profile in it */
		if (convert_profile(o, NULL, &out, err))
			goto out;
	} else {
		if (spaa_input_open(&in, o->input, &io, err) ||
		    (from == SPAA_CONVERT_AUTO && sniff(in, &from, err)))
			goto out;
		if (o->time_ns) {
			if (convert_profile(o, in, &out, err))
				goto out;
		} else if (from == SPAA_CONVERT_PPROF && o->to == SPAA_CONVERT_SPAA) {
			if (open_output(o, &out, err) || convert_pprof(o, in, out, err))
				goto out;
		} else if (((from == SPAA_CONVERT_SPAA || from == SPAA_CONVERT_PPROF) &&
			    o->to != SPAA_CONVERT_SPAA) || from == SPAA_CONVERT_LOADER) {
			if (convert_profile(o, in, &out, err))
				goto out;
		} else if (from == SPAA_CONVERT_SPAA) {
			if (open_output(o, &out, err) || copy_spaa(o, in, out, err))
				goto out;
		} else if (from == SPAA_CONVERT_PERF_DATA) {
			if (convert_perf_data(o, in, &out, err))
				goto out;
		} else if (convert_text(o, in, from, &out, err)) {
			goto out;
		}
	}
	ret = spaa_output_close(out, err);
	out = NULL;
out:
	spaa_output_abort(out);
	spaa_input_close(in);
	return ret;
}
