/*
 * The SPAA reader as the programs use it: the bytes are a file of any
 * compression (the seeds hold plain, gzip and zstd profiles), loaded by
 * spaa-hotspots' run (reader, model, aggregates, table writer), then
 * loaded again the way spaa-validate does (every bad record reported and
 * skipped, the path most likely to go on with half-built state).
 */
#include <stdlib.h>

#include "fuzz.h"
#include "report/analysis.h"

static void count_finding(void *data, const struct spaa_error *e)
{
	(void)e;
	++*(unsigned long *)data;
}

static void analyse(const char *path)
{
	static char prog[] = "fuzz";
	char *argv[] = { prog, (char *)path, NULL };
	const struct spaa_analysis *a = &spaa_analysis_hotspots;
	void *options = calloc(1, a->options_size ? a->options_size : 1);
	struct spaa_analysis_run run = { 0 };
	struct spaa_analysis_opts o;
	struct spaa_error err;

	if (!options)
		abort();
	spaa_error_init(&err);
	spaa_lami_results_init(&run.results);
	if (a->options_init)
		a->options_init(options);
	if (spaa_analysis_parse(a, 2, argv, &o, options, &err))
		abort();
	run.opts = &o;
	run.options = options;
	/* main.c reports "no data" for a run without tables */
	if (!a->run(&run, &err) && run.results.nr)
		spaa_lami_results_write(fuzz_devnull(), &run.results);
	spaa_analysis_run_release(&run);
	spaa_analysis_opts_release(&o);
	spaa_analysis_options_release(a, options);
	free(options);
}

static void validate(const char *path)
{
	unsigned long nfindings = 0;
	struct spaa_load_opts lo = {
		.findings = { count_finding, &nfindings },
	};
	struct spaa_profile p;
	struct spaa_error err;

	spaa_error_init(&err);
	spaa_profile_init(&p);
	spaa_load(&p, &path, 1, &lo, &err);
	spaa_profile_release(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_write("in.spaa", data, size);

	analyse(path);
	validate(path);
	return 0;
}
