/*
 * spaa-convert - other profilers' output into SPAA, and SPAA out again.
 *
 * The conversions are the library's (common/report/convert.h); this
 * file owns the command line, stdout, stderr and the exit status:
 * 0 done, 1 input or output error, 2 usage.
 */
#include <stdio.h>
#include <string.h>

#include "io/output.h"
#include "model/util.h"
#include "model/warn.h"
#include "report/convert.h"
#include "report/option.h"
#include "report/version.h"

#define PROG "spaa-convert"

static const char description[] =
	"Converts perf script text, perf.data (through perf), folded stacks,\n"
	"pprof profiles, V8 CPU and heap profiles, DTrace aggregations and SPX\n"
	"reports to SPAA, any of them or SPAA to folded stacks or to a flame\n"
	"graph (SVG), and SPAA to SPAA (validated, recompressed).  INPUT may be\n"
	"compressed (gzip, zstd); - is standard input; an SPX report is\n"
	"KEY.json or KEY.txt.gz, or a directory of them.  Several INPUTs (files,\n"
	"directories, any formats) are merged into one profile.";

/* The names of --from and --to, in the order of enum spaa_convert_format from PERF on. */
static const char *const from_names[] = {
	"perf", "folded", "spx", "spaa", "pprof", "perf.data", NULL,
};
static const char *const to_names[] = { "spaa", "folded", "svg", NULL };
static const enum spaa_convert_format to_formats[] = {
	SPAA_CONVERT_SPAA, SPAA_CONVERT_FOLDED, SPAA_CONVERT_SVG,
};
static const char *const compress_names[] = { "none", "gzip", "zstd", NULL };

/* The command line as given. */
struct options {
	int from;               /* index in from_names; -1: from the content */
	int to;                 /* index in to_names */
	const char *output, *event, *metric;
	int compress;           /* index in compress_names (enum spaa_input_comp); -1: from the name */
	bool no_samples;
	bool time_ns;
	struct spaa_flamegraph_args svg;
};

#define AT(field) offsetof(struct options, field)

static const struct spaa_option options[] = {
	{ "from", 0, SPAA_OPTION_CHOICE, AT(from), "perf|folded|spx|spaa|pprof|perf.data",
	  "input format (default: detected from the content)", from_names, NULL },
	{ "to", 0, SPAA_OPTION_CHOICE, AT(to), "spaa|folded|svg",
	  "output format: spaa (default), folded or svg (an interactive flame graph)",
	  to_names, NULL },
	{ "output", 'o', SPAA_OPTION_STRING, AT(output), "OUT",
	  "output file (default: - = standard output)", NULL, NULL },
	{ "compress", 0, SPAA_OPTION_CHOICE, AT(compress), "none|gzip|zstd",
	  "compression (default: from OUT's name, .zst or .gz, else none)",
	  compress_names, NULL },
	{ "no-samples", 0, SPAA_OPTION_FLAG, AT(no_samples), NULL,
	  "leave out the raw sample records", NULL, NULL },
	{ "time-ns", 0, SPAA_OPTION_FLAG, AT(time_ns), NULL,
	  "SPAA output in integer nanoseconds, rewritten from the profile model: what Trace Compass' custom parser reads",
	  NULL, NULL },
	{ "event", 0, SPAA_OPTION_STRING, AT(event), "NAME",
	  "folded, svg output: the event to write (default: the first)", NULL, NULL },
	{ "metric", 0, SPAA_OPTION_STRING, AT(metric), "NAME",
	  "folded, svg output: the weight to write (default: the event's primary metric)",
	  NULL, NULL },
	SPAA_FLAMEGRAPH_OPTIONS(struct options, svg),
	{ NULL, 0, 0, 0, NULL, NULL, NULL, NULL },
};

/* Reader warnings go to stderr, one line each. */
static void warn_stderr(void *data, const char *file, unsigned long line,
			const char *msg)
{
	char text[2400];

	(void)data;
	if (line)
		snprintf(text, sizeof(text), "%s:%lu: %s", file, line, msg);
	else
		snprintf(text, sizeof(text), "%s: %s", file, msg);
	fprintf(stderr, PROG ": warning: %s\n", spaa_clean_controls(text));
}

/* The conversion the command line asks for, or a usage error. */
static int conversion(const struct options *o, const struct spaa_option_args *args,
		      struct spaa_convert_opts *c, struct spaa_error *err)
{
	c->from = o->from < 0 ? SPAA_CONVERT_AUTO :
		  (enum spaa_convert_format)(SPAA_CONVERT_PERF + o->from);
	c->to = to_formats[o->to];
	c->output = o->output ? o->output : "-";
	c->compress = o->compress;
	c->no_samples = o->no_samples;
	c->time_ns = o->time_ns;
	c->event = o->event;
	c->metric = o->metric;
	c->load.warn = (struct spaa_warn_sink){ warn_stderr, NULL };
	c->load.max_depth = SPAA_LOAD_MAX_DEPTH_DEFAULT;
	if (!args->nr)
		return spaa_error_set(err, SPAA_E_USAGE, "expected an input path");
	c->input = args->items[0];
	c->inputs = (const char *const *)args->items;
	c->ninputs = args->nr;
	if (c->ninputs > 1 && o->from >= 0)
		return spaa_error_set(err, SPAA_E_USAGE,
				      "'--from' applies to one input: several are told apart by content");
	if (c->time_ns && c->to != SPAA_CONVERT_SPAA)
		return spaa_error_set(err, SPAA_E_USAGE,
				      "'--time-ns' applies to SPAA output");
	if (c->from == SPAA_CONVERT_SPAA && c->to == SPAA_CONVERT_SPAA &&
	    c->no_samples && !c->time_ns)
		return spaa_error_set(err, SPAA_E_USAGE,
				      "'--no-samples' does not apply to SPAA input");
	if (c->to == SPAA_CONVERT_SPAA && (c->event || c->metric))
		/* SPAA output keeps every event and metric: nothing to choose */
		return spaa_error_set(err, SPAA_E_USAGE,
				      "'--event' and '--metric' choose what folded and svg output write, not SPAA");
	if (c->to != SPAA_CONVERT_SVG && spaa_flamegraph_args_given(&o->svg))
		return spaa_error_set(err, SPAA_E_USAGE,
				      "'--svg-title', '--svg-width' and '--svg-min-width' need '--to svg'");
	return spaa_flamegraph_args_apply(&o->svg, &c->svg, err) ||
	       spaa_load_limits_env(&c->load, err);
}

int main(int argc, char **argv)
{
	struct options o = { .from = -1, .compress = -1 };
	struct spaa_option_program prog = { 0 };
	const struct spaa_option_set sets[] = {
		{ "Options", options, &o },
		{ NULL, spaa_option_program_options, &prog },
	};
	struct spaa_option_args args;
	struct spaa_convert_opts c = { 0 };
	struct spaa_error err;
	char msg[2200];
	int status = 0;

	spaa_error_init(&err);
	if (spaa_option_parse(argc, argv, sets, 2, &args, &err))
		goto fail;
	c.load.threads = prog.threads;
	if (prog.help) {
		spaa_option_help(stdout, PROG, "INPUT...", description, sets, 2,
				 "Exit status: 0 converted, 1 input or output error, 2 usage.");
	} else if (prog.version) {
		printf(PROG " (spaa-tools) %s\n", SPAA_VERSION);
	} else if (conversion(&o, &args, &c, &err) || spaa_convert(&c, &err)) {
		goto fail;
	}
	spaa_option_args_release(&args);
	return fflush(stdout) ? 1 : 0;
fail:
	spaa_option_args_release(&args);
	spaa_error_format(&err, msg, sizeof(msg));
	status = !strcmp(err.code, SPAA_E_USAGE) ? 2 : 1;
	fprintf(stderr, PROG ": error: %s%s\n", spaa_clean_controls(msg),
		status == 2 ? " (see --help)" : "");
	return status;
}
