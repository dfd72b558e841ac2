/*
 * spaa-validate - checks SPAA files against the spec and reports every
 * finding, not only the first.
 *
 * The rules are the reader's (common/spaa_reader.c): this program loads
 * each file in the reader's validating mode (spaa_load_opts.findings),
 * where a bad record is reported and skipped, and warnings are reported
 * one by one.  So a rule added to the reader is checked here for free,
 * and every tool agrees with this one about what is valid.
 *
 * Exit status: 0 every file is valid (warnings allowed), 1 a file is
 * invalid or cannot be read, 2 usage.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/detect.h"
#include "formats/load.h"
#include "io/input.h"
#include "io/jsonw.h"
#include "io/pathlist.h"
#include "model/sbuf.h"
#include "model/strtab.h"
#include "model/util.h"
#include "model/warn.h"
#include "report/option.h"
#include "report/version.h"

#define PROG "spaa-validate"

static const char description[] =
	"Checks SPAA files against the SPAA 1.0 spec: every MUST-reject rule\n"
	"of section 7 and the structural rules of sections 3-5 (an error), and\n"
	"every SHOULD-warn rule (a warning).  Prints one line per finding,\n"
	"FILE:LINE: error|warning: MESSAGE, then one summary line per file.\n"
	"SPX reports are read as the analyses read them.\n"
	"PROFILE is a file (plain, gzip or zstd), a directory (every SPAA file\n"
	"in it) or - for standard input.";

enum severity { SEV_ERROR, SEV_WARNING };

/*
 * Memory stays flat on millions of bad lines: findings are folded by
 * shape (the message with its numbers and quoted names blanked, so
 * "unknown type 'a'" at line 9 and "unknown type 'b'" at line 12 are
 * alike), the first KEEP_LIKE of a shape are kept and the rest only
 * counted, and the last one kept says "(and N more like it)", as the
 * analyses' folded warnings do.  Past MAX_SHAPES shapes, findings of a
 * new shape are counted together as "other".
 */
#define KEEP_LIKE 10
#define MAX_SHAPES 1000

struct finding {
	enum severity sev;
	unsigned long line;     /* 0: about the whole file */
	uint32_t shape;         /* index in findings.shapes */
	char *msg;              /* owned */
};

/* Findings of the file being checked. */
struct findings {
	struct finding *v;      /* owned; the ones kept */
	size_t nr, alloc;
	struct spaa_strtab shapes;
	unsigned long *count;   /* owned; findings of each shape */
	size_t ncount, count_alloc;
	size_t errors, warnings;
};

/* The shape of a finding, into sb: severity, message without specifics. */
static void shape_of(struct spaa_sbuf *sb, enum severity sev, const char *msg)
{
	sb->len = 0;
	spaa_sbuf_add(sb, sev == SEV_ERROR ? "e" : "w", 1);
	while (*msg) {
		size_t n = strcspn(msg, "0123456789'");

		spaa_sbuf_add(sb, msg, n);
		msg += n;
		if (*msg == '\'') {
			const char *end = strchr(msg + 1, '\'');

			spaa_sbuf_add(sb, "''", 2);
			msg = end ? end + 1 : msg + strlen(msg);
		} else if (*msg) {
			spaa_sbuf_add(sb, "#", 1);
			msg += strspn(msg, "0123456789");
		}
	}
}

static void add(struct findings *f, enum severity sev, unsigned long line,
		const char *msg)
{
	struct spaa_sbuf key = { 0 };
	uint32_t shape;

	if (!f->shapes.nr)
		spaa_strtab_init(&f->shapes);
	shape_of(&key, sev, msg);
	shape = spaa_strtab_find(&f->shapes, key.s, key.len);
	if (shape == SPAA_NONE && f->shapes.nr > MAX_SHAPES)
		shape = spaa_strtab_intern(&f->shapes, sev == SEV_ERROR ? "e" : "w", 1);
	else if (shape == SPAA_NONE)
		shape = spaa_strtab_intern(&f->shapes, key.s, key.len);
	free(key.s);
	if (shape >= f->ncount) {
		SPAA_ALLOC_GROW(f->count, (size_t)shape + 1, f->count_alloc);
		memset(f->count + f->ncount, 0, (shape + 1 - f->ncount) * sizeof(*f->count));
		f->ncount = (size_t)shape + 1;
	}
	if (sev == SEV_ERROR)
		f->errors++;
	else
		f->warnings++;
	if (++f->count[shape] > KEEP_LIKE)
		return;
	SPAA_ALLOC_GROW(f->v, f->nr + 1, f->alloc);
	f->v[f->nr++] = (struct finding){ sev, line, shape, spaa_xstrdup(msg) };
}

/* "(and N more like it)" after a shape's last kept finding, else "". */
static const char *more_like_it(const struct findings *f, size_t i,
				unsigned long *seen, char *buf, size_t size)
{
	uint32_t sh = f->v[i].shape;
	bool other = spaa_strtab_len(&f->shapes, sh) == 1;

	buf[0] = 0;
	if (++seen[sh] == KEEP_LIKE && f->count[sh] > KEEP_LIKE)
		snprintf(buf, size, " (and %lu more %s)", f->count[sh] - KEEP_LIKE,
			 other ? "findings of other kinds" : "like it");
	return buf;
}

static void on_error(void *data, const struct spaa_error *e)
{
	add(data, SEV_ERROR, e->line, e->msg);
}

static void on_warning(void *data, const char *file, unsigned long line,
		       const char *msg)
{
	(void)file;
	add(data, SEV_WARNING, line, msg);
}

static void findings_clear(struct findings *f)
{
	for (size_t i = 0; i < f->nr; i++)
		free(f->v[i].msg);
	free(f->v);
	free(f->count);
	spaa_strtab_release(&f->shapes);
	memset(f, 0, sizeof(*f));
}

/* By line, whole-file findings last; stable, so reading order breaks ties. */
static void sort_findings(struct findings *f)
{
	for (size_t i = 1; i < f->nr; i++) {
		struct finding x = f->v[i];
		unsigned long kx = x.line ? x.line : (unsigned long)-1;
		size_t j = i;

		for (; j > 0; j--) {
			unsigned long kj = f->v[j - 1].line ? f->v[j - 1].line :
					   (unsigned long)-1;
			if (kj <= kx)
				break;
			f->v[j] = f->v[j - 1];
		}
		f->v[j] = x;
	}
}

struct counts {
	uint32_t events, dsos, frames, threads, stacks, records, windows;
	uint64_t samples;
};

static void count(const struct spaa_profile *p, struct counts *c)
{
	memset(c, 0, sizeof(*c));
	c->events = p->nevents;
	c->dsos = spaa_profile_ndsos(p);
	c->frames = p->nframes;
	c->threads = spaa_profile_nthreads(p);
	for (uint32_t i = 0; i < p->nstacks; i++)
		c->stacks += p->stacks[i].defined;
	c->records = p->nrecords;
	c->windows = p->nwindows;
	c->samples = p->nsamples;
}

struct options {
	bool json, quiet;
};

static const struct spaa_option options[] = {
	{ "json", 0, SPAA_OPTION_FLAG, offsetof(struct options, json), NULL,
	  "print the findings and counts as one JSON object", NULL, NULL },
	{ "quiet", 'q', SPAA_OPTION_FLAG, offsetof(struct options, quiet), NULL,
	  "print only the summary lines (or nothing with --json)", NULL, NULL },
	{ NULL, 0, 0, 0, NULL, NULL, NULL, NULL },
};

static const char *sev_name(enum severity s)
{
	return s == SEV_ERROR ? "error" : "warning";
}

static void print_text(const char *path, const struct findings *f,
		       const struct counts *c, bool valid, bool quiet)
{
	/* an empty path would leave the lines without a name: ": error: ..." */
	if (!*path)
		path = "''";
	if (!quiet) {
		unsigned long *seen = spaa_xcalloc(f->ncount + 1, sizeof(*seen));
		char more[96];

		for (size_t i = 0; i < f->nr; i++) {
			more_like_it(f, i, seen, more, sizeof(more));
			/* the text is for a terminal: no escape sequence of the input */
			spaa_clean_controls(f->v[i].msg);
			if (f->v[i].line)
				printf("%s:%lu: %s: %s%s\n", path, f->v[i].line,
				       sev_name(f->v[i].sev), f->v[i].msg, more);
			else
				printf("%s: %s: %s%s\n", path, sev_name(f->v[i].sev),
				       f->v[i].msg, more);
		}
		free(seen);
	}
	if (valid)
		printf("%s: valid: %u events, %u dsos, %u frames, %u threads, %u stacks in %u stack records, %" PRIu64 " samples, %u windows; %zu warning%s\n",
		       path, c->events, c->dsos, c->frames, c->threads, c->stacks,
		       c->records, c->samples, c->windows, f->warnings,
		       f->warnings == 1 ? "" : "s");
	else
		printf("%s: invalid: %zu error%s, %zu warning%s\n", path, f->errors,
		       f->errors == 1 ? "" : "s", f->warnings,
		       f->warnings == 1 ? "" : "s");
}

static void json_file(struct spaa_jsonw *jw, const char *path,
		      const struct findings *f, const struct counts *c,
		      bool valid, bool quiet)
{
	spaa_jsonw_object_begin(jw);
	spaa_jsonw_kv_string(jw, "path", path);
	spaa_jsonw_kv_bool(jw, "valid", valid);
	spaa_jsonw_kv_u64(jw, "errors", f->errors);
	spaa_jsonw_kv_u64(jw, "warnings", f->warnings);
	if (valid) {
		spaa_jsonw_key(jw, "counts");
		spaa_jsonw_object_begin(jw);
		spaa_jsonw_kv_u64(jw, "events", c->events);
		spaa_jsonw_kv_u64(jw, "dsos", c->dsos);
		spaa_jsonw_kv_u64(jw, "frames", c->frames);
		spaa_jsonw_kv_u64(jw, "threads", c->threads);
		spaa_jsonw_kv_u64(jw, "stacks", c->stacks);
		spaa_jsonw_kv_u64(jw, "stack_records", c->records);
		spaa_jsonw_kv_u64(jw, "samples", c->samples);
		spaa_jsonw_kv_u64(jw, "windows", c->windows);
		spaa_jsonw_object_end(jw);
	}
	if (!quiet) {
		unsigned long *seen = spaa_xcalloc(f->ncount + 1, sizeof(*seen));
		char more[96];

		spaa_jsonw_key(jw, "findings");
		spaa_jsonw_array_begin(jw);
		for (size_t i = 0; i < f->nr; i++) {
			more_like_it(f, i, seen, more, sizeof(more));
			spaa_jsonw_object_begin(jw);
			spaa_jsonw_key(jw, "line");
			if (f->v[i].line)
				spaa_jsonw_u64(jw, f->v[i].line);
			else
				spaa_jsonw_null(jw);     /* about the whole file */
			spaa_jsonw_kv_string(jw, "severity", sev_name(f->v[i].sev));
			spaa_jsonw_kv_string(jw, "message", f->v[i].msg);
			if (*more)
				spaa_jsonw_kv_u64(jw, "more_like_it",
						  f->count[f->v[i].shape] - KEEP_LIKE);
			spaa_jsonw_object_end(jw);
		}
		spaa_jsonw_array_end(jw);
		free(seen);
	}
	spaa_jsonw_object_end(jw);
}

/*
 * Whether path, a file to check (not standard input, which can be read
 * once), holds another format than
 * SPAA: perf script, pprof..., or content of no format (binary data, an
 * archive: spaa_detect_explain), said in msg.  Text of no format is
 * checked as SPAA, line by line: the findings say what is wrong.
 */
static bool other_format(const char *path, const struct spaa_load_opts *limits,
			 char *msg, size_t size)
{
	static const char *const names[] = {
		[SPAA_DETECT_PERF] = "perf script", [SPAA_DETECT_FOLDED] = "folded stacks",
		[SPAA_DETECT_PPROF] = "a pprof profile", [SPAA_DETECT_PERF_DATA] = "a perf.data file",
		[SPAA_DETECT_V8] = "a V8 profile", [SPAA_DETECT_DTRACE] = "DTrace output",
	};
	struct spaa_input_opts io = { .max_line = limits->max_line, .max_window = limits->max_window };
	enum spaa_detect_format fmt = SPAA_DETECT_SPAA;
	struct spaa_input *in;
	struct spaa_error err;
	bool other = false;

	spaa_error_init(&err);
	/* unreadable: check_file says why */
	if (spaa_input_open(&in, path, &io, &err))
		return false;
	if (spaa_detect(in, &fmt, &err) || fmt == SPAA_DETECT_SPAA || fmt == SPAA_DETECT_EMPTY) {
		spaa_input_close(in);
		return false;
	}
	if (fmt != SPAA_DETECT_UNKNOWN) {
		snprintf(msg, size, "not SPAA but %s, which the analyses read as it is and 'spaa-convert' writes as SPAA; spaa-validate checks SPAA files and SPX reports",
			 names[fmt]);
		other = true;
	} else if (spaa_detect_explain(in, &fmt, &err) && !err.line) {
		snprintf(msg, size, "%s", err.msg);
		other = true;
	}
	spaa_input_close(in);
	return other;
}

/*
 * Checks one file; returns true when it is valid.  Errors that stop the
 * reader (unreadable input, corrupt compression) are findings like the
 * others, so the output has one shape.
 */
static bool check_file(const char *path, const struct spaa_load_opts *limits,
		       struct findings *f, struct counts *c)
{
	struct spaa_profile p;
	struct spaa_load_opts o = *limits;
	struct spaa_error err;
	size_t before;
	int ret;

	o.warn = (struct spaa_warn_sink){ on_warning, f };
	o.findings = (struct spaa_load_finding_sink){ on_error, f };
	o.unfold_warnings = true;
	spaa_profile_init(&p);
	spaa_error_init(&err);
	before = f->errors;
	ret = spaa_load(&p, &path, 1, &o, &err);
	/* the summary error of a validating load repeats what the sink saw */
	if (ret && !(f->errors > before && !strcmp(err.code, SPAA_E_INVALID) &&
		     !err.line))
		add(f, SEV_ERROR, err.line, err.msg);
	count(&p, c);
	spaa_profile_release(&p);
	sort_findings(f);
	return ret == 0 && !f->errors;
}

/*
 * Whether the file path, which a directory holds under a name no profile
 * has, starts as SPAA does (formats/detect.h); unreadable counts as SPAA,
 * so that check_file says why.
 */
static bool holds_spaa(const char *path, const struct spaa_load_opts *limits)
{
	struct spaa_input_opts io = { .max_line = limits->max_line, .max_window = limits->max_window };
	enum spaa_detect_format fmt = SPAA_DETECT_SPAA;
	struct spaa_input *in;
	struct spaa_error err;

	spaa_error_init(&err);
	if (spaa_input_open(&in, path, &io, &err))
		return true;
	if (spaa_detect_listed(in, &fmt, &err))
		fmt = SPAA_DETECT_SPAA;
	spaa_input_close(in);
	return fmt == SPAA_DETECT_SPAA;
}

static int usage_error(const struct spaa_error *err)
{
	char msg[sizeof(err->msg)];

	snprintf(msg, sizeof(msg), "%s", err->msg);
	fprintf(stderr, PROG ": error: %s (see --help)\n", spaa_clean_controls(msg));
	return 2;
}

int main(int argc, char **argv)
{
	struct options opt = { 0 };
	struct spaa_option_program prog = { 0 };
	const struct spaa_option_set sets[] = {
		{ "Options", options, &opt },
		{ NULL, spaa_option_program_options, &prog },
	};
	struct spaa_load_opts limits = { 0 };   /* only the bounds (SPAA_MAX_*), threads */
	struct spaa_pathlist list = { 0 };
	struct spaa_option_args paths;
	struct spaa_error err;
	struct spaa_jsonw jw;
	bool all_valid = true;
	size_t nchecked = 0;
	int status;

	spaa_error_init(&err);
	if (spaa_option_parse(argc, argv, sets, 2, &paths, &err))
		return usage_error(&err);
	if (prog.help || prog.version) {
		if (prog.help)
			spaa_option_help(stdout, PROG, "PROFILE...", description, sets, 2,
					 "Exit status: 0 valid, 1 invalid or unreadable, 2 usage.");
		else
			printf(PROG " (spaa-tools) %s\n", SPAA_VERSION);
		spaa_option_args_release(&paths);
		return fflush(stdout) ? 1 : 0;
	}
	if (!paths.nr) {
		spaa_error_set(&err, SPAA_E_USAGE, "expected at least one profile path");
		return usage_error(&err);
	}
	limits.threads = prog.threads;
	if (spaa_load_limits_env(&limits, &err)) {
		spaa_option_args_release(&paths);
		return usage_error(&err);
	}

	spaa_jsonw_init(&jw);
	if (opt.json) {
		spaa_jsonw_object_begin(&jw);
		spaa_jsonw_key(&jw, "files");
		spaa_jsonw_array_begin(&jw);
	}
	for (size_t i = 0; i < paths.nr; i++) {
		spaa_error_init(&err);
		if (spaa_pathlist_expand(paths.items[i], &list, &err)) {
			/* a missing path is judged like an unreadable file */
			struct findings f = { 0 };
			struct counts c = { 0 };

			add(&f, SEV_ERROR, 0, err.msg);
			if (opt.json)
				json_file(&jw, paths.items[i], &f, &c, false, opt.quiet);
			else
				print_text(paths.items[i], &f, &c, false, opt.quiet);
			findings_clear(&f);
			all_valid = false;
		}
	}
	/* a directory's entries that are not files to read cannot be valid */
	for (size_t i = 0; i < list.nskipped; i++) {
		struct findings f = { 0 };
		struct counts c = { 0 };
		char msg[128];

		snprintf(msg, sizeof(msg), "not a profile file: %s", list.skipped[i].why);
		add(&f, SEV_ERROR, 0, msg);
		if (opt.json)
			json_file(&jw, list.skipped[i].path, &f, &c, false, opt.quiet);
		else
			print_text(list.skipped[i].path, &f, &c, false, opt.quiet);
		findings_clear(&f);
		all_valid = false;
	}
	for (size_t i = 0; i < list.nr; i++) {
		struct findings f = { 0 };
		struct counts c;
		char msg[1024];
		bool valid;

		/* a directory's other files are checked when they hold SPAA */
		if (list.kinds[i] == SPAA_PATHLIST_MAYBE && !holds_spaa(list.paths[i], &limits))
			continue;
		nchecked++;
		/* an SPX report is judged by the reader the analyses use */
		if (list.kinds[i] != SPAA_PATHLIST_SPX && strcmp(list.paths[i], "-") &&
		    other_format(list.paths[i], &limits, msg, sizeof(msg))) {
			add(&f, SEV_ERROR, 0, msg);
			memset(&c, 0, sizeof(c));
			valid = false;
		} else {
			valid = check_file(list.paths[i], &limits, &f, &c);
		}
		all_valid &= valid;
		if (opt.json)
			json_file(&jw, list.paths[i], &f, &c, valid, opt.quiet);
		else
			print_text(list.paths[i], &f, &c, valid, opt.quiet);
		findings_clear(&f);
		fflush(stdout);
	}
	/* directories of other formats only: nothing was judged valid */
	if (!nchecked && all_valid) {
		fprintf(stderr, PROG ": error: no SPAA profile among the files given\n");
		all_valid = false;
	}
	if (opt.json) {
		spaa_jsonw_array_end(&jw);
		spaa_jsonw_kv_bool(&jw, "valid", all_valid);
		spaa_jsonw_object_end(&jw);
		printf("%s\n", jw.buf);
	}
	spaa_jsonw_release(&jw);
	spaa_pathlist_release(&list);
	spaa_option_args_release(&paths);
	status = all_valid ? 0 : 1;
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, PROG ": error: cannot write the output\n");
		status = 1;
	}
	return status;
}
