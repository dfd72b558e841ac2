/*
 * spaa-convert - other profilers' output into SPAA, and SPAA out again.
 *
 *   perf script text  --> SPAA or folded     (common/perf_script)
 *   folded stacks     --> SPAA or folded     (common/folded)
 *   SPX reports       --> SPAA or folded     (common/load, profile_writer)
 *   SPAA              --> SPAA (validated by the reader while each line
 *                         is copied as it is: unknown fields survive)
 *                         or folded          (common/load)
 *   any of them       --> a flame graph SVG  (common/flamegraph): perf
 *                         and folded input through a temporary SPAA file
 *                         read back into the profile model
 *
 * Parsing lives in common/ (usable and fuzzable on its own); this file
 * maps each format's notions onto SPAA's and owns the command line,
 * stdout, stderr and the exit status: 0 done, 1 input or output error,
 * 2 usage.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/pathlist.h"
#include "model/warn.h"
#include "report/analysis.h"
#include "report/flamegraph.h"
#include "formats/folded.h"
#include "io/input.h"
#include "formats/load.h"
#include "io/output.h"
#include "formats/perf_script.h"
#include "formats/profile_writer.h"
#include "report/report.h"
#include "formats/spaa_reader.h"
#include "formats/spaa_writer.h"
#include "model/units.h"
#include "model/util.h"

#define PROG "spaa-convert"

static const char usage_text[] =
	"usage: " PROG " [--from perf|folded|spx|spaa] [--to spaa|folded|svg]\n"
	"                    [-o OUT] [--compress zstd|gzip|none] [--no-samples]\n"
	"                    [--event NAME] [--metric NAME] [--title TEXT]\n"
	"                    [--width PX] [--min-width PX] INPUT\n"
	"\n"
	"Converts perf script text, folded stacks and SPX reports to SPAA,\n"
	"any of them or SPAA to folded stacks or to a flame graph (SVG), and\n"
	"SPAA to SPAA (validated, recompressed).  INPUT may be compressed (gzip,\n"
	"zstd); - is standard input; an SPX report is KEY.json or KEY.txt.gz,\n"
	"or a directory of them.\n"
	"\n"
	"  --from FORMAT      input format (default: detected from the content)\n"
	"  --to FORMAT        output format: spaa (default), folded or svg (an\n"
	"                     interactive flame graph)\n"
	"  -o, --output OUT   output file (default: - = standard output)\n"
	"  --compress C       zstd, gzip or none (default: from OUT's name,\n"
	"                     .zst or .gz, else none)\n"
	"  --no-samples       leave out the raw sample records\n"
	"  --event NAME       folded, svg output: the event to write (default:\n"
	"                     first)\n"
	"  --metric NAME      folded, svg output: the weight to write (default:\n"
	"                     the event's primary metric)\n"
	"  --title TEXT       svg output: the title (default: \"Flame graph of\n"
	"                     INPUT\")\n"
	"  --width PX         svg output: width in pixels (default: 1200)\n"
	"  --min-width PX     svg output: leave out frames narrower than PX\n"
	"                     pixels, counted in a note (default: 0.1)\n"
	"  -h, --help         show this help and exit\n"
	"  --version          show the version and exit\n"
	"\n"
	"Exit status: 0 converted, 1 input or output error, 2 usage.\n"
	"See spaa-convert(1).\n";

enum format { FMT_AUTO, FMT_PERF, FMT_FOLDED, FMT_SPX, FMT_SPAA, FMT_SVG };

struct options {
	enum format from, to;
	const char *out, *input, *event, *metric, *title;
	int compress;           /* -1: from the output name */
	bool no_samples;
	uint64_t width;         /* svg */
	double min_width;       /* svg */
	struct spaa_load_opts limits;   /* only the bounds (SPAA_MAX_*) */
};

static const char *const format_names[] = {
	"auto", "perf", "folded", "spx", "spaa", "svg",
};

static int parse_format(const char *s)
{
	for (int i = 1; i < 6; i++)
		if (!strcmp(s, format_names[i]))
			return i;
	return -1;
}

/* ---- perf script -------------------------------------------------------- */

struct perf_conv {
	struct spaa_writer *w;
	uint32_t *fbuf;
	size_t fbuf_alloc;
	char *last_event;       /* owned: cache of the last event's name */
	uint32_t last_ev;
	uint64_t dropped;       /* samples without any frame */
	const char *path;       /* weak */
	uint32_t max_depth;
};

static bool kernel_dso(const char *d)
{
	size_t n = d ? strlen(d) : 0;

	return n && (!strncmp(d, "[kernel", 7) || strstr(d, "kallsyms") ||
		     (d[0] == '[' && n > 4 && !strcmp(d + n - 4, ".ko]")));
}

/*
 * perf's event names: tracepoints "sys:name" are probes, the generic
 * hardware and software events by name, "cpu/.../" and raw "rNNN" are
 * hardware.  Modifiers (":ppp", ":u") are not part of the kind.
 */
static enum spaa_event_kind event_kind(const char *name)
{
	static const char *const sw[] = {
		"cpu-clock", "task-clock", "page-faults", "faults", "minor-faults",
		"major-faults", "context-switches", "cs", "cpu-migrations",
		"migrations", "alignment-faults", "emulation-faults", "dummy",
		"bpf-output", NULL,
	};
	size_t n = strcspn(name, ":");

	if (name[n] == ':' && n + 1 < strlen(name) &&
	    strspn(name + n + 1, "ukhIGHpPSDWe") != strlen(name + n + 1))
		return SPAA_EV_PROBE;   /* "sched:sched_switch", not "cycles:u" */
	for (const char *const *s = sw; *s; s++)
		if (strlen(*s) == n && !strncmp(name, *s, n))
			return SPAA_EV_SOFTWARE;
	return SPAA_EV_HARDWARE;
}

static int spaa_perf_script_sample(void *data, const struct spaa_perf_script_sample *s,
		       struct spaa_error *err)
{
	struct perf_conv *pc = data;
	struct spaa_writer *w = pc->w;
	struct spaa_writer_sample ws = {
		.pid = s->pid == SPAA_PERF_SCRIPT_NO_ID ? SPAA_NO_ID : s->pid,
		.tid = s->tid == SPAA_PERF_SCRIPT_NO_ID ? SPAA_NO_ID : s->tid,
		.cpu = s->cpu == SPAA_PERF_SCRIPT_NO_ID ? SPAA_NO_ID : s->cpu,
		.comm = s->comm, .has_time = s->has_time, .time = s->time,
		.count = 1, .has_period = s->has_period, .period = s->period,
	};

	if (!s->nframes) {
		pc->dropped++;
		return 0;
	}
	if (s->nframes > pc->max_depth)
		return spaa_error_at(err, SPAA_E_LIMIT, pc->path, s->line,
				     "a sample has %u frames, more than the limit of %u (SPAA_MAX_DEPTH)",
				     s->nframes, pc->max_depth);
	if (!pc->last_event || strcmp(pc->last_event, s->event)) {
		free(pc->last_event);
		pc->last_event = spaa_xstrdup(s->event);
		pc->last_ev = spaa_writer_add_event(w, s->event, event_kind(s->event));
	}
	ws.event = pc->last_ev;
	SPAA_ALLOC_GROW(pc->fbuf, s->nframes, pc->fbuf_alloc);
	for (uint32_t i = 0; i < s->nframes; i++) {
		const struct spaa_perf_script_frame *f = &s->frames[i];
		struct spaa_writer_frame wf = {
			.func = f->sym, .has_ip = f->has_ip, .ip = f->ip,
			.symoff = f->symoff, .srcline = f->srcline,
			.func_resolved = true, .inline_depth = -1,
		};
		const char *dso = f->dso;
		char hex[24];
		uint32_t phys = i;

		/*
		 * Inlined frames (perf's "(inlined)" DSO) share the address of
		 * the physical frame after them, toward the root; they take its
		 * DSO and an inline depth counted from it.  When every frame at
		 * the address is marked inlined, the last is the function that
		 * holds the code, so it is the physical one.
		 */
		if (f->inlined) {
			while (phys + 1 < s->nframes && s->frames[phys].inlined &&
			       s->frames[phys + 1].has_ip == f->has_ip &&
			       s->frames[phys + 1].ip == f->ip)
				phys++;
			wf.inline_depth = (int)(phys - i);
			wf.inlined = wf.inline_depth > 0;
			dso = NULL;
			for (uint32_t j = phys; j < s->nframes && !dso; j++)
				if (!s->frames[j].inlined)
					dso = s->frames[j].dso;
		} else if (i > 0 && s->frames[i - 1].inlined && f->has_ip &&
			   s->frames[i - 1].ip == f->ip) {
			wf.inline_depth = 0;
		}
		if (!dso)
			dso = "[unknown]";
		if (!strcmp(f->sym, "[unknown]") && f->has_ip) {
			/* as perf report shows it: the raw address */
			snprintf(hex, sizeof(hex), "0x%" PRIx64, f->ip);
			wf.func = hex;
			wf.func_resolved = false;
		} else if (!strncmp(f->sym, "0x", 2)) {
			wf.func_resolved = false;
		}
		wf.kind = kernel_dso(dso) || (f->has_ip && f->ip >= 0xffff800000000000ULL) ?
			  SPAA_FRAME_KERNEL : SPAA_FRAME_USER;
		wf.dso = spaa_writer_add_dso(w, dso, kernel_dso(dso));
		pc->fbuf[i] = spaa_writer_add_frame(w, &wf);
	}
	return spaa_writer_add_sample(w, &ws, pc->fbuf, s->nframes, err);
}

/* ---- driver ------------------------------------------------------------- */

struct source {
	struct spaa_input *in;
};

static int next_line(struct source *src, char **line, size_t *len,
		     struct spaa_error *err)
{
	return spaa_input_getline(src->in, line, len, err);
}

/* Reader warnings (SPAA and SPX input) go to stderr, one line each. */
static void warn_stderr(void *data, const char *file, unsigned long line,
			const char *msg)
{
	(void)data;
	if (line)
		fprintf(stderr, PROG ": warning: %s:%lu: %s\n", file, line, msg);
	else
		fprintf(stderr, PROG ": warning: %s: %s\n", file, msg);
}

static int convert_perf(const struct options *o, struct source *src,
			struct spaa_writer *w, struct spaa_error *err)
{
	struct perf_conv pc = {
		.w = w, .path = spaa_input_name(src->in),
		.max_depth = o->limits.max_depth,
	};
	struct spaa_perf_script *ps = spaa_perf_script_new(spaa_input_name(src->in),
						 spaa_perf_script_sample, &pc);
	char *line;
	size_t len;
	int got, ret = -1;

	while ((got = next_line(src, &line, &len, err)) > 0) {
		if (spaa_perf_script_line(ps, line, len, spaa_input_lineno(src->in), err))
			goto out;
	}
	if (got < 0 || spaa_perf_script_finish(ps, err))
		goto out;
	if (!spaa_perf_script_nsamples(ps)) {
		spaa_error_at(err, SPAA_E_NO_DATA, spaa_input_name(src->in), 0,
			      "no perf samples in the input");
		goto out;
	}
	if (pc.dropped)
		fprintf(stderr, PROG ": warning: %s: %" PRIu64 " of %" PRIu64
			" samples had no frame and were left out\n",
			spaa_input_name(src->in), pc.dropped, spaa_perf_script_nsamples(ps));
	ret = 0;
out:
	spaa_perf_script_free(ps);
	free(pc.fbuf);
	free(pc.last_event);
	return ret;
}

static int convert_folded(const struct options *o, struct source *src,
			  struct spaa_writer *w, struct spaa_error *err)
{
	struct spaa_folded_parser fp;
	uint32_t *fbuf = NULL, ev, dso_user, dso_kernel;
	size_t fbuf_alloc = 0;
	char *line, *name = NULL;
	size_t len, name_alloc = 0;
	uint64_t lines = 0;
	int got, ret = -1;

	spaa_folded_parser_init(&fp);
	ev = spaa_writer_add_event(w, "folded", SPAA_EV_SOFTWARE);
	dso_user = spaa_writer_add_dso(w, "[unknown]", false);
	dso_kernel = spaa_writer_add_dso(w, "[kernel.kallsyms]", true);
	while ((got = next_line(src, &line, &len, err)) > 0) {
		struct spaa_writer_sample ws = {
			.event = ev, .pid = SPAA_NO_ID, .tid = SPAA_NO_ID,
			.cpu = SPAA_NO_ID,
		};
		uint32_t n;
		int r = spaa_folded_parse(&fp, line, len, spaa_input_name(src->in),
				     spaa_input_lineno(src->in), &n, &ws.count, err);

		if (r < 0)
			goto out;
		if (!r || !ws.count)
			continue;
		if (n > o->limits.max_depth) {
			spaa_error_at(err, SPAA_E_LIMIT, spaa_input_name(src->in),
				      spaa_input_lineno(src->in),
				      "a stack has %u frames, more than the limit of %u (SPAA_MAX_DEPTH)",
				      n, o->limits.max_depth);
			goto out;
		}
		SPAA_ALLOC_GROW(fbuf, n, fbuf_alloc);
		for (uint32_t i = 0; i < n; i++) {
			const struct spaa_folded_frame *f = &fp.frames[n - 1 - i];
			struct spaa_writer_frame wf = {
				.func_resolved = true, .inline_depth = -1,
				.kind = f->annot == SPAA_FOLDED_KERNEL ? SPAA_FRAME_KERNEL :
					SPAA_FRAME_USER,
				.dso = f->annot == SPAA_FOLDED_KERNEL ? dso_kernel : dso_user,
				.inlined = f->annot == SPAA_FOLDED_INLINED,
			};

			SPAA_ALLOC_GROW(name, f->len + 1, name_alloc);
			memcpy(name, f->name, f->len);
			name[f->len] = '\0';
			wf.func = name;
			fbuf[i] = spaa_writer_add_frame(w, &wf);
		}
		if (spaa_writer_add_sample(w, &ws, fbuf, n, err))
			goto out;
		lines++;
	}
	if (got < 0)
		goto out;
	if (!lines) {
		spaa_error_at(err, SPAA_E_NO_DATA, spaa_input_name(src->in), 0,
			      "no folded stacks in the input");
		goto out;
	}
	ret = 0;
out:
	spaa_folded_parser_release(&fp);
	free(fbuf);
	free(name);
	return ret;
}

/*
 * SPAA to SPAA: the reader validates every record (spec section 7, as
 * spaa-validate does) while on_line copies it, so one streaming pass both
 * checks and writes, and a bad input is an error whose partial output the
 * caller discards.  A line is copied as it is (unknown fields, key order,
 * numbers as written, record order) except that the line ending becomes
 * LF, blanks around the record go and blank lines are dropped.
 */
static int copy_line(void *data, const char *line, size_t len,
		     struct spaa_error *err)
{
	struct spaa_output *out = data;

	while (len && (*line == ' ' || *line == '\t'))
		line++, len--;
	while (len && (line[len - 1] == ' ' || line[len - 1] == '\t' ||
		       line[len - 1] == '\r'))
		len--;
	if (!len)
		return 0;       /* the reader warns about it */
	if (spaa_output_write(out, line, len, err) ||
	    spaa_output_write(out, "\n", 1, err))
		return -1;
	return 0;
}

static int copy_spaa(const struct options *o, struct source *src,
		     struct spaa_output *out, struct spaa_error *err)
{
	struct spaa_profile p;
	struct spaa_load_opts lo = o->limits;
	int ret;

	lo.warn = (struct spaa_warn_sink){ warn_stderr, NULL };
	lo.on_line = copy_line;
	lo.data = out;
	spaa_profile_init(&p);
	ret = spaa_reader_read(&p, src->in, &lo, 0, 0, err);
	spaa_profile_release(&p);
	return ret;
}

static enum spaa_input_comp default_compression(const char *out);

/* Folded stacks of one event of a loaded profile (SPAA or SPX). */
static int profile_to_folded(const struct options *o,
			     const struct spaa_profile *p,
			     struct spaa_output *out, struct spaa_error *err)
{
	struct spaa_folded_table t;
	uint32_t ev = 0, metric;
	bool any = false;
	int ret = -1;

	spaa_folded_table_init(&t);
	if (o->event && (ev = spaa_profile_find_event(p, o->event)) == SPAA_NONE) {
		spaa_error_set(err, SPAA_E_USAGE, "no event '%s' in the input", o->event);
		goto out;
	}
	if (!p->nevents)
		goto done;
	metric = p->events[ev].primary_metric;
	if (o->metric && (metric = spaa_strtab_find(&p->strings, o->metric,
						    strlen(o->metric))) == SPAA_NONE)
		metric = 0;     /* named nowhere: no record has it */
	for (uint32_t i = 0; i < p->nrecords; i++) {
		const struct spaa_record *r = &p->records[i];
		const uint32_t *fr = spaa_profile_record_frames(p, r);
		uint64_t v;

		if (r->absorbed || r->event != ev || !metric ||
		    !spaa_profile_weights_get(p, r->weights, r->nweights, metric, &v))
			continue;
		any = true;
		if (!v)
			continue;       /* a 0 line says nothing to a flame graph */
		spaa_folded_table_begin(&t);
		for (uint32_t f = r->nframes; f-- > 0;) {
			const char *name = spaa_profile_str(p, p->functions[p->frames[fr[f]].fn].name);

			spaa_folded_table_push(&t, name, strlen(name));
		}
		if (spaa_folded_table_add(&t, v, err))
			goto out;
	}
	if (o->metric && !any) {
		spaa_error_set(err, SPAA_E_USAGE, "no stack record of event '%s' has a weight '%s'",
			       spaa_profile_str(p, p->events[ev].name), o->metric);
		goto out;
	}
done:
	ret = spaa_folded_table_write(&t, out, err);
out:
	spaa_folded_table_release(&t);
	return ret;
}

/* --title, else "Flame graph of INPUT", in buf. */
static const char *svg_title(const struct options *o, char *buf, size_t size)
{
	if (o->title)
		return o->title;
	snprintf(buf, size, "Flame graph of %s",
		 strcmp(o->input, "-") ? o->input : "standard input");
	return buf;
}

/*
 * A flame graph of one event and metric, selected as the analyses select
 * them, of every stack record but those absorbed into a logical stack.
 */
static int profile_to_svg(const struct options *o, const struct spaa_profile *p,
			  struct spaa_output *out, struct spaa_error *err)
{
	struct spaa_flamegraph *fg = spaa_flamegraph_new();
	struct spaa_metrics_sem sem;
	uint32_t ev, metric;
	char what[1024], title[1024];
	int ret = -1;

	if (spaa_report_select(p, o->event, o->metric, &ev, &metric, err))
		goto out;
	spaa_metrics_semantics(p, ev, metric, spaa_metrics_unit(p, ev, metric), &sem);
	for (uint32_t i = 0; i < p->nrecords; i++) {
		const struct spaa_record *r = &p->records[i];
		const uint32_t *fr = spaa_profile_record_frames(p, r);
		uint64_t v;

		if (r->absorbed || r->event != ev ||
		    !spaa_profile_weights_get(p, r->weights, r->nweights, metric, &v) || !v)
			continue;
		spaa_flamegraph_begin(fg);
		for (uint32_t f = r->nframes; f-- > 0;) {
			const struct spaa_frame *frame = &p->frames[fr[f]];
			const struct spaa_function *fn = &p->functions[frame->fn];
			const struct spaa_dso *dso = &p->dsos[fn->dso];
			const char *name = spaa_profile_str(p, fn->name);

			spaa_flamegraph_push(fg, name, strlen(name), spaa_profile_str(p, dso->name),
					spaa_flamegraph_classify(spaa_profile_str(p, dso->name),
							    dso->is_kernel ||
							    frame->kind == SPAA_FRAME_KERNEL));
		}
		if (spaa_flamegraph_add(fg, v, 0, err))
			goto out;
	}
	snprintf(what, sizeof(what), "event '%s', %s '%s'",
		 spaa_profile_str(p, p->events[ev].name),
		 metric == p->events[ev].primary_metric ? "primary metric" : "metric",
		 spaa_profile_str(p, metric));
	ret = spaa_flamegraph_write(fg, &(struct spaa_flamegraph_opts){
		.title = svg_title(o, title, sizeof(title)), .what = what,
		.width = (unsigned)o->width, .min_width = o->min_width, .sem = &sem,
	}, out, err);
out:
	spaa_flamegraph_free(fg);
	return ret;
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
static int convert_profile(const struct options *o, struct source *src,
			   struct spaa_output **out, struct spaa_error *err)
{
	struct spaa_profile p;
	struct spaa_profile_writer *pw = NULL;
	struct spaa_load_opts lo = o->limits;
	int ret = -1;

	lo.warn = (struct spaa_warn_sink){ warn_stderr, NULL };
	spaa_profile_init(&p);
	if (o->to == FMT_SPAA) {
		pw = spaa_profile_writer_new();
		if (!o->no_samples) {
			lo.on_sample = spaa_profile_writer_on_sample;
			lo.data = pw;
		}
	}
	if (src->in ? spaa_reader_read(&p, src->in, &lo, 0, 0, err) :
	    spaa_load(&p, &o->input, 1, &lo, err))
		goto out;
	if (spaa_output_open(out, o->out, o->compress >= 0 ?
			     (enum spaa_input_comp)o->compress :
			     default_compression(o->out), 0, err))
		goto out;
	if (pw ? spaa_profile_writer_write(pw, &p, profile_source(&p), *out, err) :
	    o->to == FMT_SVG ? profile_to_svg(o, &p, *out, err) :
	    profile_to_folded(o, &p, *out, err))
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
static int writer_to_svg(const struct options *o, struct spaa_writer *w,
			 struct spaa_output **out, struct spaa_error *err)
{
	const char *dir = getenv("TMPDIR");
	struct spaa_output *tmp = NULL;
	struct options ro = *o;
	struct source none = { 0 };
	char path[4096], title[1024];
	int fd, ret = -1;

	snprintf(path, sizeof(path), "%s/spaa-convert-XXXXXX", dir && *dir ? dir : "/tmp");
	if ((fd = mkstemp(path)) < 0)
		return spaa_error_at(err, SPAA_E_IO, path, 0,
				     "cannot create a temporary file: %s", strerror(errno));
	close(fd);
	if (spaa_output_open(&tmp, path, SPAA_INPUT_COMP_NONE, 0, err) ||
	    spaa_writer_write_spaa(w, tmp, err))
		goto out;
	ret = spaa_output_close(tmp, err);
	tmp = NULL;
	ro.input = path;
	ro.title = svg_title(o, title, sizeof(title));
	if (!ret)
		ret = convert_profile(&ro, &none, out, err);
out:
	spaa_output_abort(tmp);
	unlink(path);
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

static enum format detect(const char *line, size_t len)
{
	size_t i = strspn(line, " \t");

	if (i < len && line[i] == '{')
		return FMT_SPAA;
	if (spaa_perf_script_sniff(line, len))
		return FMT_PERF;
	return FMT_FOLDED;
}

/*
 * Tells the format from the first line that is not blank or a '#'
 * comment, looked at without consuming it, so every converter (and the
 * SPAA reader's "header first" rule) sees the input from line 1, stdin
 * included.  Only the first SNIFF_BYTES are looked at.
 */
#define SNIFF_BYTES ((size_t)64 << 10)

static int sniff(struct source *src, enum format *fmt, struct spaa_error *err)
{
	const char *data, *end, *nl;
	char *line;
	size_t len;

	if (spaa_input_peek(src->in, SNIFF_BYTES, &data, &len, err))
		return -1;
	for (end = data + len; data < end; data = nl + 1) {
		size_t n, i;

		nl = memchr(data, '\n', (size_t)(end - data));
		if (!nl)
			nl = end;
		n = (size_t)(nl - data);
		for (i = 0; i < n && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r'); i++)
			;
		if (i == n || data[i] == '#')
			continue;
		if (n && data[n - 1] == '\r')
			n--;
		line = spaa_xstrndup(data, n);  /* detect wants a C string */
		*fmt = detect(line, strlen(line));
		free(line);
		return 0;
	}
	if (len < SNIFF_BYTES) {
		spaa_error_at(err, SPAA_E_NO_DATA, spaa_input_name(src->in), 0,
			      "the input is empty");
		return -1;
	}
	*fmt = FMT_FOLDED;      /* only comments so far: folded skips them too */
	return 0;
}

static enum spaa_input_comp default_compression(const char *out)
{
	size_t n = strlen(out);

	if (n > 4 && !strcmp(out + n - 4, ".zst"))
		return SPAA_INPUT_COMP_ZSTD;
	if (n > 3 && !strcmp(out + n - 3, ".gz"))
		return SPAA_INPUT_COMP_GZIP;
	return SPAA_INPUT_COMP_NONE;
}

static int run(const struct options *o, struct spaa_error *err)
{
	struct source src = { 0 };
	struct spaa_output *out = NULL;
	struct spaa_writer *w = NULL;
	enum format from = o->from;
	int spx = 0, ret = -1;

	if (from == FMT_SPX || from == FMT_AUTO) {
		if (from == FMT_SPX && !strcmp(o->input, "-")) {
			spaa_error_set(err, SPAA_E_USAGE,
				       "an SPX report is two files (KEY.json, KEY.txt.gz): name one of them, not standard input");
			goto out;
		}
		if ((spx = spx_input(o->input, err)) < 0)
			goto out;
		if (spx == 2 && (from == FMT_SPX || o->to == FMT_SPAA)) {
			/* SPAA files of a directory would have to be merged: lossy */
			spaa_error_set(err, SPAA_E_USAGE,
				       "%s: a directory converts to SPAA only when it holds SPX reports alone; convert SPAA files one at a time",
				       o->input);
			goto out;
		}
		if (spx == 2)
			from = FMT_SPAA;        /* to folded: the loader reads them all */
		if (from == FMT_SPX && !spx) {
			spaa_error_at(err, SPAA_E_INVALID, o->input, 0,
				      "not an SPX report: expected KEY.json with KEY.txt.gz beside it (or the reverse), or a directory of such reports");
			goto out;
		}
		if (spx == 1)
			from = FMT_SPX;
	}
	if (from == FMT_SPX) {
		if (convert_profile(o, &src, &out, err))
			goto out;
	} else if (from == FMT_SPAA && o->to != FMT_SPAA && strcmp(o->input, "-")) {
		/* a path may be a directory: the loader reads every profile in it */
		if (convert_profile(o, &src, &out, err))
			goto out;
	} else {
		struct spaa_input_opts io = { .max_line = o->limits.max_line };

		if (spaa_input_open(&src.in, o->input, &io, err))
			goto out;
		if (from == FMT_AUTO && sniff(&src, &from, err))
			goto out;
		if (from == FMT_SPAA && o->to != FMT_SPAA) {
			if (convert_profile(o, &src, &out, err))
				goto out;
		} else if (o->to == FMT_SVG) {
			struct spaa_writer_opts wo = {
				.source_tool = from == FMT_PERF ? "perf" : "folded",
			};

			w = spaa_writer_new(&wo);
			if (from == FMT_PERF ? convert_perf(o, &src, w, err) :
			    convert_folded(o, &src, w, err))
				goto out;
			if (writer_to_svg(o, w, &out, err))
				goto out;
		} else {
			if (spaa_output_open(&out, o->out, o->compress >= 0 ?
					     (enum spaa_input_comp)o->compress :
					     default_compression(o->out), 0, err))
				goto out;
			if (from == FMT_SPAA) {
				if (copy_spaa(o, &src, out, err))
					goto out;
			} else {
				struct spaa_writer_opts wo = {
					.source_tool = from == FMT_PERF ? "perf" : "folded",
					.samples = !o->no_samples,
				};

				w = spaa_writer_new(&wo);
				if (from == FMT_PERF ? convert_perf(o, &src, w, err) :
				    convert_folded(o, &src, w, err))
					goto out;
				if (o->to == FMT_FOLDED ?
				    spaa_writer_write_folded(w, o->event, o->metric, out, err) :
				    spaa_writer_write_spaa(w, out, err))
					goto out;
			}
		}
	}
	ret = spaa_output_close(out, err);
	out = NULL;
out:
	spaa_output_abort(out);
	spaa_writer_free(w);
	spaa_input_close(src.in);
	return ret;
}

static int usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, PROG ": error: %s%s%s (see --help)\n", msg,
		arg ? " " : "", arg ? arg : "");
	return 2;
}

int main(int argc, char **argv)
{
	struct options o = {
		.to = FMT_SPAA, .out = "-", .compress = -1,
		.width = SPAA_FLAMEGRAPH_WIDTH_DEFAULT,
		.min_width = SPAA_FLAMEGRAPH_MIN_WIDTH_DEFAULT,
		.limits = { .max_depth = SPAA_LOAD_MAX_DEPTH_DEFAULT },
	};
	struct spaa_error err;
	bool dashdash = false;
	char msg[2200];

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL;
		const char *eq = strchr(a, '=');
		char opt[32];

		if (dashdash || a[0] != '-' || !strcmp(a, "-")) {
			if (o.input)
				return usage_error("more than one input:", a);
			o.input = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			dashdash = true;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage_text, stdout);
			return fflush(stdout) ? 1 : 0;
		}
		if (!strcmp(a, "--version")) {
			printf(PROG " (spaa-tools) %s\n", SPAA_VERSION);
			return fflush(stdout) ? 1 : 0;
		}
		if (!strcmp(a, "--no-samples")) {
			o.no_samples = true;
			continue;
		}
		/* options with a value: --opt VALUE or --opt=VALUE */
		snprintf(opt, sizeof(opt), "%.*s", (int)(eq && !strncmp(a, "--", 2) ?
							 eq - a : (ptrdiff_t)strlen(a)), a);
		if (eq && !strncmp(a, "--", 2))
			val = eq + 1;
		else if (i + 1 < argc)
			val = argv[++i];
		else
			return usage_error("missing value for", a);
		if (!strcmp(opt, "--from")) {
			int f = parse_format(val);

			if (f < 0 || f == FMT_SVG)
				return usage_error("unknown input format", val);
			o.from = f;
		} else if (!strcmp(opt, "--to")) {
			int f = parse_format(val);

			if (f != FMT_SPAA && f != FMT_FOLDED && f != FMT_SVG)
				return usage_error("output format must be spaa, folded or svg, not", val);
			o.to = f;
		} else if (!strcmp(opt, "-o") || !strcmp(opt, "--output")) {
			o.out = val;
		} else if (!strcmp(opt, "--compress")) {
			o.compress = spaa_output_comp_parse(val);
			if (o.compress < 0)
				return usage_error("--compress must be zstd, gzip or none, not", val);
		} else if (!strcmp(opt, "--event")) {
			o.event = val;
		} else if (!strcmp(opt, "--metric")) {
			o.metric = val;
		} else if (!strcmp(opt, "--title")) {
			o.title = val;
		} else if (!strcmp(opt, "--width")) {
			if (spaa_parse_u64(val, &o.width) || o.width < SPAA_FLAMEGRAPH_WIDTH_MIN ||
			    o.width > SPAA_FLAMEGRAPH_WIDTH_MAX)
				return usage_error("--width must be a number of pixels from 100 to 100000, not", val);
		} else if (!strcmp(opt, "--min-width")) {
			if (spaa_units_parse_decimal(val, &o.min_width))
				return usage_error("--min-width must be a non-negative number of pixels, not", val);
		} else {
			return usage_error("unknown option", a);
		}
	}
	if (!o.input)
		return usage_error("expected an input path", NULL);
	if (o.from == FMT_SPAA && o.to == FMT_SPAA && o.no_samples)
		return usage_error("--no-samples does not apply to SPAA input", NULL);
	if (o.to != FMT_SVG && (o.title || o.width != SPAA_FLAMEGRAPH_WIDTH_DEFAULT ||
				o.min_width != SPAA_FLAMEGRAPH_MIN_WIDTH_DEFAULT))
		return usage_error("--title, --width and --min-width apply to --to svg only", NULL);

	spaa_error_init(&err);
	if (spaa_load_limits_env(&o.limits, &err) || run(&o, &err)) {
		spaa_error_format(&err, msg, sizeof(msg));
		fprintf(stderr, PROG ": error: %s\n", msg);
		return !strcmp(err.code, SPAA_E_USAGE) ? 2 : 1;
	}
	return 0;
}
