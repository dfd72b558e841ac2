/* sched_getaffinity, CPU_COUNT */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "formats/ahead.h"
#include "formats/detect.h"
#include "formats/dtrace.h"
#include "formats/folded.h"
#include "formats/load.h"
#include "formats/perf_data.h"
#include "formats/perf_script.h"
#include "formats/pprof.h"
#include "formats/spaa_reader.h"
#include "formats/spx_reader.h"
#include "formats/v8_cpu.h"
#include "formats/v8_heap.h"
#include "formats/writer_load.h"
#include "io/input.h"
#include "io/pathlist.h"
#include "io/prefetch.h"
#include "io/spares.h"
#include "model/repeats.h"
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
	uint64_t pprof = o->max_pprof, events = o->max_events, window = o->max_window;

	if (limit_env("SPAA_MAX_LINE", SIZE_MAX / 4, &line, err) ||
	    limit_env("SPAA_MAX_DEPTH", UINT32_MAX, &depth, err) ||
	    limit_env("SPAA_MAX_STRINGS", UINT32_MAX - 1, &strings, err) ||
	    limit_env("SPAA_MAX_PPROF", SIZE_MAX / 4, &pprof, err) ||
	    limit_env("SPAA_MAX_EVENTS", UINT32_MAX - 1, &events, err) ||
	    limit_env("SPAA_MAX_ZSTD_WINDOW", UINT64_MAX, &window, err))
		return -1;
	if (o->threads > SPAA_LOAD_MAX_THREADS)
		return spaa_error_set(err, SPAA_E_USAGE,
				      "invalid value '%llu' for '--threads': expected an integer from 1 to %u",
				      (unsigned long long)o->threads, SPAA_LOAD_MAX_THREADS);
	if (!o->threads &&
	    limit_env("SPAA_THREADS", SPAA_LOAD_MAX_THREADS, &o->threads, err))
		return -1;
	o->max_events = (uint32_t)events;
	o->max_window = window;
	o->max_pprof = (size_t)pprof;
	o->max_line = (size_t)line;
	o->max_depth = (uint32_t)depth;
	o->max_strings = (uint32_t)strings;
	return 0;
}

unsigned spaa_load_threads(const struct spaa_load_opts *o)
{
	cpu_set_t set;
	int n;

	if (o->threads)
		return (unsigned)o->threads;
	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	n = CPU_COUNT(&set);
	return n < 1 ? 1 : n > SPAA_LOAD_MAX_THREADS ? SPAA_LOAD_MAX_THREADS : (unsigned)n;
}

void spaa_load_input_opts(const struct spaa_load_opts *o, struct spaa_input_opts *io)
{
	*io = (struct spaa_input_opts){
		.max_line = o->max_line, .max_window = o->max_window,
		.thread_min = o->thread_min, .threads = spaa_load_threads(o),
		.spares = o->spares,
	};
}

/*
 * perf script text and folded stacks: converted as spaa-convert converts
 * them, then read back (writer_load.h).
 */
static int load_converted(struct spaa_profile *p, struct spaa_input *in,
			  enum spaa_detect_format fmt, const struct spaa_load_opts *o,
			  struct spaa_repeats *rep, struct spaa_error *err)
{
	struct spaa_writer_opts wo = {
		.source_tool = fmt == SPAA_DETECT_PERF ? "perf" : "folded",
		.samples = true,
	};
	struct spaa_writer *w = spaa_writer_new(&wo);
	int ret = -1;

	if (fmt == SPAA_DETECT_PERF ?
	    spaa_perf_script_convert(in, w, o->max_depth, &o->warn, err) :
	    spaa_folded_convert(in, w, o->max_depth, err))
		goto out;
	ret = spaa_writer_load(p, w, spaa_input_name(in), o, rep, err);
out:
	spaa_writer_free(w);
	return ret;
}

/* perf.data: perf script's output, read as perf script text. */
static int load_perf_data(struct spaa_profile *p, struct spaa_input *in,
			  const struct spaa_load_opts *o, struct spaa_repeats *rep,
			  struct spaa_error *err)
{
	struct spaa_input_opts io = { .max_line = o->max_line };
	struct spaa_perf_data *pd;
	struct spaa_input *text;
	int r;

	if (spaa_perf_data_open(&pd, &text, spaa_input_name(in),
				spaa_input_compression(in) != SPAA_INPUT_COMP_NONE, &io, err))
		return -1;
	r = load_converted(p, text, SPAA_DETECT_PERF, o, rep, err);
	if (spaa_perf_data_close(pd, r != 0, err))
		return -1;
	return r;
}

struct pprof_job {
	struct spaa_input *in;
	struct spaa_pprof_opts opts;
};

static int write_pprof(void *ctx, struct spaa_output *out, struct spaa_error *err)
{
	struct pprof_job *j = ctx;

	return spaa_pprof_convert(j->in, out, &j->opts, err);
}

/* Fills the bounds left 0 with their defaults. */
static void defaults(struct spaa_load_opts *o)
{
	if (!o->max_depth)
		o->max_depth = SPAA_LOAD_MAX_DEPTH_DEFAULT;
	if (!o->max_strings)
		o->max_strings = SPAA_LOAD_MAX_STRINGS_DEFAULT;
}

/* The files a reader added from index first on came in format (for people: the text header). */
static void mark_format(struct spaa_profile *p, uint32_t first, const char *format)
{
	for (uint32_t i = first; i < p->nfiles; i++)
		p->files[i].format = format;
}

int spaa_load_input(struct spaa_profile *p, struct spaa_input *in,
		    const struct spaa_load_opts *opts, struct spaa_repeats *rep,
		    uint64_t base, uint64_t total, struct spaa_error *err)
{
	struct spaa_load_opts o = *opts;
	enum spaa_detect_format fmt = SPAA_DETECT_SPAA;
	const char *data;
	size_t len;
	enum spaa_v8_kind kind;
	struct pprof_job job;
	uint32_t first;
	int r;

	defaults(&o);
	first = p->nfiles;
	job = (struct pprof_job){ in, { o.max_pprof, o.max_depth, &o.warn } };
	/*
	 * A validating load (spaa-validate) reads only SPAA.  What is not
	 * known and not explained (spaa_detect_explain) goes to the reader
	 * that words its fault.
	 */
	if (!o.findings.fn && spaa_detect(in, &fmt, err))
		return -1;
	/* what no reader here reads is said for what it is */
	if ((fmt == SPAA_DETECT_UNKNOWN || fmt == SPAA_DETECT_EMPTY) &&
	    spaa_detect_explain(in, &fmt, err))
		return -1;
	switch (fmt) {
	case SPAA_DETECT_PERF:
	case SPAA_DETECT_FOLDED:
		r = load_converted(p, in, fmt, &o, rep, err);
		break;
	case SPAA_DETECT_PERF_DATA:
		r = load_perf_data(p, in, &o, rep, err);
		break;
	case SPAA_DETECT_PPROF:
		r = spaa_writer_load_spaa(p, write_pprof, &job, spaa_input_name(in),
					  &o, rep, err);
		break;
	case SPAA_DETECT_V8:
		/* which V8 document: the detector has peeked at it already */
		if (spaa_input_peek(in, SPAA_DETECT_SNIFF_BYTES, &data, &len, err))
			return -1;
		kind = spaa_v8_sniff(data, len);
		r = kind == SPAA_V8_HEAPSNAPSHOT || kind == SPAA_V8_HEAPPROFILE ?
		    spaa_v8_heap_read(p, in, kind, &o, base, total, err) :
		    spaa_v8_cpu_read(p, in, kind, &o, base, total, err);
		mark_format(p, first, kind == SPAA_V8_HEAPSNAPSHOT ? "V8 heap snapshot" :
			    kind == SPAA_V8_HEAPPROFILE ? "V8 heap profile" : "V8 CPU profile");
		return r;
	case SPAA_DETECT_DTRACE:
		r = spaa_dtrace_read(p, in, &o, base, total, err);
		mark_format(p, first, "DTrace");
		return r;
	default:
		r = spaa_reader_read(p, in, &o, rep, base, total, err);
		mark_format(p, first, "SPAA");
		return r;
	}
	mark_format(p, first, fmt == SPAA_DETECT_PERF ? "perf script" :
		    fmt == SPAA_DETECT_FOLDED ? "folded stacks" :
		    fmt == SPAA_DETECT_PERF_DATA ? "perf.data" : "pprof");
	if (!r && o.on_progress)
		o.on_progress(o.progress_data, base + spaa_input_bytes_read(in), total);
	return r;
}

/*
 * The files of the list the loop opens (not SPX reports, which their
 * reader opens) that get a decoding thread of their own (big: from
 * spaa_pathlist_size), opened and read ahead by a thread of their own
 * (prefetch.h) when there are several; NULL when there are not.  A file
 * read inline is opened by the reader: handed over from another core,
 * its bytes cost the reader more than they saved (prefetch.h), and
 * waking the thread a file cost ~30 us of system time
 * (doc/PERFORMANCE.md, Many files).  want[i] is left true for the files the prefetch opens.
 */
static struct spaa_prefetch *prefetch_start(const struct spaa_pathlist *list,
					    const struct spaa_input_opts *io, bool *want)
{
	size_t n = 0;

	for (size_t i = 0; i < list->nr; i++)
		n += want[i] = want[i] && list->kinds[i] != SPAA_PATHLIST_SPX;
	if (n < 2)
		return NULL;
	return spaa_prefetch_start(list, want, io);
}

/*
 * Whether in, a file a directory holds under a name no profile has, is
 * not a profile to read (pathlist.h: SPAA_PATHLIST_MAYBE): 1 to skip it,
 * 0 to read it, -1 with err.
 */
static int not_a_profile(struct spaa_input *in, struct spaa_error *err)
{
	enum spaa_detect_format fmt;

	if (spaa_detect_listed(in, &fmt, err))
		return -1;
	return fmt == SPAA_DETECT_UNKNOWN || fmt == SPAA_DETECT_EMPTY;
}

/*
 * After the load: a path whose every file was skipped as not a profile is
 * a directory without profiles (an error naming it); otherwise each
 * skipped file is said in a warning.
 */
static int report_not_profiles(const char *const *paths, size_t npaths,
			       const size_t *first, const bool *skipped,
			       const struct spaa_pathlist *list,
			       const struct spaa_load_opts *o, struct spaa_error *err)
{
	for (size_t i = 0; i < npaths; i++) {
		size_t n = 0;

		for (size_t j = first[i]; j < first[i + 1]; j++)
			n += skipped[j];
		if (n && n == first[i + 1] - first[i])
			return spaa_error_at(err, SPAA_E_NO_PROFILE, paths[i], 0,
					     "no profiles in directory: none of its %zu file(s) holds a format spaa-tools reads (spaa-tools(7), FORMATS)",
					     n);
	}
	for (size_t j = 0; j < list->nr; j++) {
		struct spaa_sbuf path = { 0 };

		if (!skipped[j])
			continue;
		spaa_warn(&o->warn, spaa_pathlist_path(list, j, &path), 0,
			  "skipped: its content is not a profile in a format spaa-tools reads");
		free(path.s);
	}
	return 0;
}

/*
 * A load that folds repeats keeps one file entry for the files that only
 * repeated what earlier files held (spaa_profile_fold_last_file): the
 * first entry of each format and source tool, found here.
 */
struct file_kinds {
	struct spaa_map map;    /* struct file_kind -> index into first */
	uint32_t *first;        /* owned: the file entry of each kind */
	size_t alloc;
};

struct file_kind {
	uint64_t format;        /* the static string's address */
	uint32_t source_tool, pad;
};

/* What the model held before a file was read. */
struct file_mark {
	uint32_t files, stacks, events, windows;
};

static struct file_mark file_mark(const struct spaa_profile *p)
{
	return (struct file_mark){ p->nfiles, p->nstacks, p->nevents, p->nwindows };
}

/*
 * After a file read since m: its entry is folded into the first of its
 * kind when the file added no stack, event or window, the model's only
 * references to a file; else it may become the first of its kind.
 */
static void fold_file(struct file_kinds *k, struct spaa_profile *p, const struct file_mark *m)
{
	bool repeated = p->nfiles == m->files + 1 && p->nstacks == m->stacks &&
			p->nevents == m->events && p->nwindows == m->windows;

	for (uint32_t i = m->files; i < p->nfiles; i++) {
		struct file_kind key = {
			(uint64_t)(uintptr_t)p->files[i].format, p->files[i].source_tool, 0,
		};
		bool created;
		uint32_t n = spaa_map_intern(&k->map, &key, &created);

		if (created) {
			SPAA_ALLOC_GROW(k->first, (size_t)n + 1, k->alloc);
			k->first[n] = i;
		} else if (repeated) {
			spaa_profile_fold_last_file(p, k->first[n]);
		}
	}
}

int spaa_load(struct spaa_profile *p, const char *const *paths, size_t npaths,
	      const struct spaa_load_opts *opts, struct spaa_error *err)
{
	struct spaa_load_opts o = *opts;
	struct spaa_input_opts io;
	struct spaa_prefetch *pf = NULL;
	struct spaa_ahead *ahead = NULL;
	bool *want = NULL, *skipped = NULL, *small = NULL;
	size_t *from = spaa_xcalloc(npaths + 1, sizeof(*from));
	struct spaa_pathlist list = { 0 };
	struct spaa_sbuf path = { 0 };
	struct file_kinds kinds = { .first = NULL };
	struct spaa_repeats rep;
	uint64_t total, base = 0;
	int ret = -1;

	spaa_map_init(&kinds.map, sizeof(struct file_kind));
	spaa_repeats_init(&rep);
	defaults(&o);
	o.tree_pool = spaa_json_pool_new();
	o.spares = spaa_spares_new();
	o.threads = spaa_load_threads(&o);      /* asked once for every file */
	spaa_load_input_opts(&o, &io);
	for (size_t i = 0; i < npaths; i++) {
		from[i] = list.nr;
		if (spaa_pathlist_expand(paths[i], &list, err))
			goto out;
	}
	from[npaths] = list.nr;
	/*
	 * One file under 1 MiB reads faster inline (input.h).  Of several,
	 * those under SPAA_AHEAD_FILE_MAX are read ahead on other threads,
	 * and the others keep their decoding thread from that size on, so
	 * that a second thread works on every file: read inline, a
	 * directory of 200 files of 900 KB took 1.14 times the wall time.
	 */
	if (!io.thread_min && list.nr > 1)
		io.thread_min = SPAA_AHEAD_FILE_MAX;
	skipped = spaa_xcalloc(list.nr + 1, sizeof(*skipped));
	for (size_t i = 0; i < list.nskipped; i++)
		spaa_warn(&o.warn, list.skipped[i].path, 0,
			  "skipped: %s, not a profile file", list.skipped[i].why);
	want = spaa_xcalloc(list.nr + 1, sizeof(*want));
	small = spaa_xcalloc(list.nr + 1, sizeof(*small));
	total = spaa_pathlist_size(&list, io.thread_min ? io.thread_min :
				   SPAA_AHEAD_FILE_MAX, want);
	/* what ahead.h reads: small SPAA files (not stdin) and SPX reports */
	for (size_t i = 0; i < list.nr; i++)
		small[i] = !want[i] && (list.kinds[i] == SPAA_PATHLIST_SPX ||
					(list.kinds[i] == SPAA_PATHLIST_SPAA &&
					 strcmp(spaa_pathlist_path(&list, i, &path), "-")));
	if (o.threads > 1) {
		pf = prefetch_start(&list, &io, want);
		ahead = spaa_ahead_start(&list, small, &o);
	}
	for (size_t i = 0; i < list.nr; i++) {
		struct spaa_input *in;
		struct spaa_repeats *seen = o.fold_repeats && i ? &rep : NULL;
		struct file_mark m = file_mark(p);
		uint64_t done;
		int r, grafted;

		if (seen)
			spaa_repeats_index(seen, p);
		done = 0;
		grafted = ahead && small[i] ?
			  spaa_ahead_take(ahead, i, p, seen, base, total, &done, err) : 0;
		if (grafted || list.kinds[i] == SPAA_PATHLIST_SPX) {
			r = grafted < 0 ? -1 : 0;
			if (!grafted) {
				r = spaa_spx_reader_read(p, spaa_pathlist_path(&list, i, &path),
							 &o, seen, base, total, &done, err);
			}
			mark_format(p, m.files, list.kinds[i] == SPAA_PATHLIST_SPX ?
				    "SPX report" : "SPAA");
			base += done;
			if (r)
				goto out;
			if (o.fold_repeats)
				fold_file(&kinds, p, &m);
			continue;
		}
		if (pf ? spaa_prefetch_take(pf, i, &in, err) :
		    spaa_input_open(&in, spaa_pathlist_path(&list, i, &path), &io, err))
			goto out;
		if (list.kinds[i] == SPAA_PATHLIST_MAYBE && (r = not_a_profile(in, err))) {
			skipped[i] = r > 0;
			base += spaa_input_size(in);
			spaa_input_close(in);
			if (r < 0)
				goto out;
			if (o.on_progress)
				o.on_progress(o.progress_data, base, total);
			continue;
		}
		r = spaa_load_input(p, in, &o, seen, base, total, err);
		base += spaa_input_bytes_read(in);
		spaa_input_close(in);
		if (r)
			goto out;
		if (o.fold_repeats)
			fold_file(&kinds, p, &m);
	}
	if (report_not_profiles(paths, npaths, from, skipped, &list, &o, err))
		goto out;
	/* no sample told the start: the span's (windows, titles) */
	if (!p->nsamples && o.on_start)
		o.on_start(o.start_data, p->has_time ? p->time_start : 0);
	ret = 0;
out:
	spaa_ahead_free(ahead);
	spaa_prefetch_free(pf);        /* closes the inputs not taken */
	spaa_json_pool_free(o.tree_pool);
	spaa_spares_free(o.spares);     /* after every input is closed */
	free(want);
	free(small);
	free(skipped);
	free(from);
	spaa_pathlist_release(&list);
	free(path.s);
	spaa_map_release(&kinds.map);
	free(kinds.first);
	spaa_repeats_release(&rep);
	return ret;
}
