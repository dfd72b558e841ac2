/*
 * main - the one main() of every analysis executable.
 *
 * The only place that writes to stdout and stderr and that chooses exit
 * statuses:
 *   0  success (results written; or compatible, metadata, help, version)
 *   1  the input or the analysis failed (LAMI error object on stdout)
 *   2  usage error (LAMI error object on stdout)
 * On failure the error object goes to stdout (LAMI) and the same message
 * to stderr, because Trace Compass shows only stderr after a non-zero exit.
 * In --mi-version, --metadata and --test-compatibility modes TC merges
 * stderr into stdout, so nothing is written to stderr there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "util.h"

/* Warnings are capped so stderr stays far below TC's 64 KiB pipe. */
#define MAX_WARNINGS 50

struct warn_state {
	const char *prog;
	unsigned count;
};

static void print_warning(void *data, const char *file, unsigned long line,
			  const char *msg)
{
	struct warn_state *w = data;

	if (++w->count > MAX_WARNINGS)
		return;
	if (line)
		fprintf(stderr, "%s: warning: %s:%lu: %s\n", w->prog, file, line, msg);
	else
		fprintf(stderr, "%s: warning: %s: %s\n", w->prog, file, msg);
}

static void progress(void *data, uint64_t done, uint64_t total)
{
	lami_progress_update(data, done, total, "reading profile");
}

static int fail(const char *prog, const struct spaa_error *err, bool quiet)
{
	char msg[2200];

	spaa_error_format(err, msg, sizeof(msg));
	lami_error_write(stdout, err->code[0] ? err->code : SPAA_E_INTERNAL, msg);
	fflush(stdout);
	if (!quiet)
		fprintf(stderr, "%s: error: %s\n", prog, msg);
	return !strcmp(err->code, SPAA_E_USAGE) ? 2 : 1;
}

static void write_metadata(const struct spaa_analysis *a)
{
	static const char *const authors[] = { "spaa-tools developers", NULL };
	static const char *const tags[] = { "spaa", "profile", "stack", NULL };
	struct lami_meta m = {
		.title = a->title,
		.description = a->description,
		.authors = authors,
		.tags = tags,
		.version_major = SPAA_VERSION_MAJOR,
		.version_minor = SPAA_VERSION_MINOR,
		.version_patch = SPAA_VERSION_PATCH,
		.classes = a->classes,
		.nclasses = a->nclasses,
	};

	lami_metadata_write(stdout, &m);
}

int main(int argc, char **argv)
{
	const struct spaa_analysis *a = &spaa_this_analysis;
	struct spaa_run run = { 0 };
	struct lami_opts opts;
	struct lami_progress prog;
	struct warn_state ws = { 0 };
	struct spaa_error err;
	char name[64];
	int status = 0;

	snprintf(name, sizeof(name), "spaa-%s", a->name);
	ws.prog = name;
	spaa_error_init(&err);
	lami_results_init(&run.results);
	if (lami_parse_args(argc, argv, &opts, a->options, &err)) {
		status = fail(name, &err, false);
		goto out;
	}
	run.opts = &opts;

	if (opts.mi_version) {
		/* "1.0" switches Trace Compass to progress + compatibility mode */
		puts("1.0");
	} else if (opts.help) {
		lami_help_write(stdout, name, a->synopsis, a->description, a->options);
	} else if (opts.version) {
		printf("%s (spaa-tools) %s\n", name, SPAA_VERSION);
	} else if (opts.metadata) {
		write_metadata(a);
	} else if (opts.test_compat) {
		/* silent: stderr is merged into stdout and must stay clean */
		struct spaa_load_opts quiet = { 0 };
		struct spaa_profile p;

		spaa_profile_init(&p);
		if (spaa_load(&p, &opts.test_compat, 1, &quiet, &err) ||
		    a->compatible(&p, opts.test_compat, &err))
			status = fail(name, &err, true);
		spaa_profile_release(&p);
	} else if (!(a->flags & SPAA_ANALYSIS_TWO_INPUTS) && opts.npaths != 1) {
		/* two-input analyses count their own paths (--baseline PATH) */
		spaa_error_set(&err, SPAA_E_USAGE,
			       "expected one profile path, got %zu (see --help)",
			       opts.npaths);
		status = fail(name, &err, false);
	} else {
		lami_progress_init(&prog, opts.output_progress ? stdout : NULL);
		run.load.warn = (struct spaa_warn_sink){ print_warning, &ws };
		run.load.on_progress = progress;
		run.load.progress_data = &prog;
		if (a->run(&run, &err)) {
			status = fail(name, &err, false);
		} else if (!run.results.nr) {
			spaa_error_set(&err, SPAA_E_NO_DATA,
				       "nothing to report: the profile has no data for this analysis");
			status = fail(name, &err, false);
		} else {
			lami_results_write(stdout, &run.results);
		}
		if (ws.count > MAX_WARNINGS)
			fprintf(stderr, "%s: warning: %u more warnings not shown\n",
				name, ws.count - MAX_WARNINGS);
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "%s: error: cannot write the output\n", name);
		status = 1;
	}
out:
	lami_results_release(&run.results);
	lami_opts_release(&opts);
	/* repeatable options fill lists only main can free on every path */
	for (const struct lami_option *x = a->options; x && x->name; x++)
		if (x->kind == LAMI_OPT_LIST)
			lami_strlist_release(x->dest);
	return status;
}
