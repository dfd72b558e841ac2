/*
 * check_analysis - the command line every analysis shares
 * (report/analysis.h): the LAMI options, the shared and an analysis' own
 * options in both "--opt value" and "--opt=value" forms, every usage
 * error (table-driven), and --help.
 */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/util.h"
#include "report/analysis.h"
#include "testutil.h"

Suite *analysis_suite(void);

/* An analysis' own options, one of each kind. */
struct extras {
	bool inverted;
	const char *function;
	uint64_t bins;
	int64_t offset;
	struct spaa_option_list exclude;
};

#define AT(field) offsetof(struct extras, field)

static const struct spaa_option extra_opts[] = {
	{ "inverted", 0, SPAA_OPTION_FLAG, AT(inverted), NULL,
	  "invert the call stacks", NULL, NULL },
	{ "function", 0, SPAA_OPTION_STRING, AT(function), "NAME",
	  "focus on function NAME", NULL, NULL },
	{ "bins", 0, SPAA_OPTION_U64, AT(bins), "N", "use N time bins", NULL, NULL },
	{ "offset", 0, SPAA_OPTION_I64, AT(offset), "NS", "shift timestamps by NS",
	  NULL, NULL },
	{ "exclude", 0, SPAA_OPTION_LIST, AT(exclude), "PATTERN",
	  "drop frames matching PATTERN (repeatable)", NULL, NULL },
	{ NULL, 0, 0, 0, NULL, NULL, NULL, NULL },
};

static const struct spaa_analysis test_analysis = {
	.name = "test", .synopsis = "PATH...",
	.description = "Tests the help text.",
	.options = extra_opts, .options_size = sizeof(struct extras),
};

static const struct spaa_analysis bare_analysis = {
	.name = "x", .synopsis = "PATH",
};

static struct extras x;

static void extras_reset(void)
{
	spaa_analysis_options_release(&test_analysis, &x);
	memset(&x, 0, sizeof(x));
}

/* A one-line summary of everything parsed, compared as a string. */
static char *summarize(const struct spaa_analysis_opts *o)
{
	struct testutil_capture c;
	size_t i;

	testutil_capture_open(&c);
	fprintf(c.f, "flags=%s%s%s%s%s", o->metadata ? "M" : "",
		o->mi_version ? "I" : "", o->help ? "H" : "",
		o->version ? "V" : "", o->output_progress ? "P" : "");
	if (o->test_compat)
		fprintf(c.f, " tc=%s", o->test_compat);
	if (o->filter.has_begin)
		fprintf(c.f, " begin=%s%lld", o->filter.begin_from_start ? "+" : "",
			(long long)(o->filter.begin_from_start ? o->filter.begin_offset :
				    o->filter.begin));
	if (o->filter.has_end)
		fprintf(c.f, " end=%s%lld", o->filter.end_from_start ? "+" : "",
			(long long)(o->filter.end_from_start ? o->filter.end_offset :
				    o->filter.end));
	if (o->limit == SPAA_ANALYSIS_UNLIMITED)
		fputs(" limit=unlimited", c.f);
	else
		fprintf(c.f, " limit=%llu", (unsigned long long)o->limit);
	if (o->format != SPAA_ANALYSIS_LAMI)
		fprintf(c.f, " format=%s",
			o->format == SPAA_ANALYSIS_TEXT ? "text" : "csv");
	for (i = 0; i < o->paths.nr; i++)
		fprintf(c.f, "%s%s", i ? "," : " paths=", o->paths.items[i]);
	if (x.inverted)
		fputs(" inverted", c.f);
	if (x.function)
		fprintf(c.f, " function=%s", x.function);
	if (x.bins)
		fprintf(c.f, " bins=%llu", (unsigned long long)x.bins);
	if (x.offset)
		fprintf(c.f, " offset=%lld", (long long)x.offset);
	for (i = 0; i < x.exclude.nr; i++)
		fprintf(c.f, "%s%s", i ? "," : " exclude=", x.exclude.items[i]);
	testutil_capture_close(&c);
	return c.buf;
}

#define MAXARGS 8
#define TIME_FORMS SPAA_FILTER_TIME_FORMS

static const struct {
	const char *argv[MAXARGS];      /* after the program name */
	int rc;
	const char *expect;             /* summary, or error message */
} parse_cases[] = {
	{ { NULL }, 0, "flags= limit=unlimited" },
	{ { "a.spaa" }, 0, "flags= limit=unlimited paths=a.spaa" },
	{ { "a", "b", "c" }, 0, "flags= limit=unlimited paths=a,b,c" },
	{ { "--metadata" }, 0, "flags=M limit=unlimited" },
	{ { "--mi-version" }, 0, "flags=I limit=unlimited" },
	{ { "--help" }, 0, "flags=H limit=unlimited" },
	{ { "-h" }, 0, "flags=H limit=unlimited" },
	{ { "--version" }, 0, "flags=V limit=unlimited" },
	{ { "--output-progress", "t" }, 0,
	  "flags=P limit=unlimited paths=t" },
	/* TC's form, then the spec's */
	{ { "--output-progress", "--begin", "5", "--end", "7", "/t" }, 0,
	  "flags=P begin=5 end=7 limit=unlimited paths=/t" },
	{ { "--begin=5", "--end=7", "/t" }, 0,
	  "flags= begin=5 end=7 limit=unlimited paths=/t" },
	{ { "--begin", "-5", "--end=-1" }, 0,
	  "flags= begin=-5 end=-1 limit=unlimited" },
	{ { "--begin", "-9223372036854775808", "--end",
	    "9223372036854775807" }, 0,
	  "flags= begin=-9223372036854775808 end=9223372036854775807 "
	  "limit=unlimited" },
	{ { "--begin=3", "--end=3" }, 0,
	  "flags= begin=3 end=3 limit=unlimited" },
	{ { "--begin=10" }, 0, "flags= begin=10 limit=unlimited" },
	/* times as people write them; from the start after '+' */
	{ { "--begin=795.1s", "--end", "796s" }, 0,
	  "flags= begin=795100000000 end=796000000000 limit=unlimited" },
	{ { "--begin", "+1.5s", "--end=+2500ms" }, 0,
	  "flags= begin=+1500000000 end=+2500000000 limit=unlimited" },
	{ { "--begin", "+5", "--end=-3us" }, 0,
	  "flags= begin=+5 end=-3000 limit=unlimited" },
	/* a begin after the end it cannot be told from the start */
	{ { "--begin", "+9s", "--end=3" }, 0,
	  "flags= begin=+9000000000 end=3 limit=unlimited" },
	{ { "--begin", "+1s", "--begin=4" }, 0, "flags= begin=4 limit=unlimited" },
	{ { "--end", "10" }, 0, "flags= end=10 limit=unlimited" },
	{ { "--limit", "10" }, 0, "flags= limit=10" },
	{ { "--limit=10" }, 0, "flags= limit=10" },
	{ { "--limit=1" }, 0, "flags= limit=1" },
	{ { "--limit", "unlimited" }, 0, "flags= limit=unlimited" },
	{ { "--limit=unlimited" }, 0, "flags= limit=unlimited" },
	{ { "--limit=5", "--limit=unlimited" }, 0, "flags= limit=unlimited" },
	{ { "--limit=0" }, 0, "flags= limit=unlimited" },
	{ { "--test-compatibility", "/t/p" }, 0,
	  "flags= tc=/t/p limit=unlimited" },
	{ { "--test-compatibility=/t/p" }, 0,
	  "flags= tc=/t/p limit=unlimited" },
	{ { "-" }, 0, "flags= limit=unlimited paths=-" },
	{ { "--", "--metadata", "-x", "-" }, 0,
	  "flags= limit=unlimited paths=--metadata,-x,-" },
	{ { "a", "--", "--", "b" }, 0, "flags= limit=unlimited paths=a,--,b" },
	{ { "a", "--metadata", "b" }, 0, "flags=M limit=unlimited paths=a,b" },
	{ { "--inverted" }, 0, "flags= limit=unlimited inverted" },
	{ { "--function", "main", "x" }, 0,
	  "flags= limit=unlimited paths=x function=main" },
	{ { "--function=main", "--function", "foo=bar" }, 0,
	  "flags= limit=unlimited function=foo=bar" },
	{ { "--function=" }, 0, "flags= limit=unlimited function=" },
	{ { "--function", "--metadata" }, 0,
	  "flags= limit=unlimited function=--metadata" },
	{ { "--bins", "12" }, 0, "flags= limit=unlimited bins=12" },
	{ { "--bins=18446744073709551615" }, 0,
	  "flags= limit=unlimited bins=18446744073709551615" },
	{ { "--offset", "-3" }, 0, "flags= limit=unlimited offset=-3" },
	{ { "--offset=42" }, 0, "flags= limit=unlimited offset=42" },
	{ { "--exclude", "a", "--exclude=b", "--exclude", "c" }, 0,
	  "flags= limit=unlimited exclude=a,b,c" },
	{ { "--format", "text", "t" }, 0,
	  "flags= limit=unlimited format=text paths=t" },
	{ { "--format=csv" }, 0, "flags= limit=unlimited format=csv" },
	{ { "--format=text", "--format", "json" }, 0, "flags= limit=unlimited" },
	{ { "--format=lami" }, 0, "flags= limit=unlimited" },
	/* protocol modes ignore the format: they are LAMI by definition */
	{ { "--format=csv", "--metadata" }, 0,
	  "flags=M limit=unlimited format=csv" },
	/* errors */
	{ { "--foo" }, -1, "unknown option '--foo'" },
	{ { "--format=TEXT" }, -1, "invalid value 'TEXT' for '--format'" },
	{ { "--format" }, -1, "option '--format' needs a value" },
	{ { "--format=text", "--output-progress" }, -1,
	  "'--output-progress' needs '--format lami'" },
	{ { "--output-progress", "--format", "csv" }, -1,
	  "'--output-progress' needs '--format lami'" },
	{ { "x", "--foo=bar" }, -1, "unknown option '--foo'" },
	{ { "-x" }, -1, "unknown option '-x'" },
	{ { "-help" }, -1, "unknown option '-help' (did you mean '--help'?)" },
	{ { "--meta" }, -1, "unknown option '--meta' (did you mean '--metadata'?)" },
	{ { "--Metadata" }, -1, "unknown option '--Metadata' (did you mean '--metadata'?)" },
	{ { "--limt", "3" }, -1, "unknown option '--limt' (did you mean '--limit'?)" },
	{ { "--children" }, -1, "unknown option '--children': perf report's --children "
	  "is the Total column of spaa-hotspots' functions table, always shown" },
	{ { "-nodecount", "5" }, -1, "unknown option '-nodecount': pprof's -nodecount is '--limit N' here" },
	{ { "-i", "x" }, -1, "unknown option '-i': perf report's --input is the PROFILE argument here" },
	/* pprof's "-name=value" is named without its value */
	{ { "-nodefraction=0.01" }, -1, "unknown option '-nodefraction': pprof's -nodefraction "
	  "is '--percent-limit P' here (a percentage: 0.5 % for -nodefraction=0.005)" },
	{ { "-cum" }, -1, "unknown option '-cum': pprof's -cum is spaa-hotspots' '--sort total' here" },
	{ { "--=x" }, -1, "unknown option '--'" },
	{ { "--metadata=x" }, -1, "option '--metadata' takes no value" },
	{ { "--metadata=" }, -1, "option '--metadata' takes no value" },
	{ { "--help=1" }, -1, "option '--help' takes no value" },
	{ { "--inverted=yes" }, -1, "option '--inverted' takes no value" },
	{ { "--limit" }, -1, "option '--limit' needs a value" },
	{ { "x", "--begin" }, -1, "option '--begin' needs a value" },
	{ { "--end" }, -1, "option '--end' needs a value" },
	{ { "--test-compatibility" }, -1,
	  "option '--test-compatibility' needs a value" },
	{ { "--function" }, -1, "option '--function' needs a value" },
	{ { "--exclude" }, -1, "option '--exclude' needs a value" },
	{ { "--begin=x" }, -1, "invalid value 'x' for '--begin' (" TIME_FORMS ")" },
	{ { "--begin", "1.5" }, -1, "invalid value '1.5' for '--begin' (" TIME_FORMS ")" },
	{ { "--begin", "+-5" }, -1, "invalid value '+-5' for '--begin' (" TIME_FORMS ")" },
	{ { "--begin=" }, -1, "invalid value '' for '--begin' (" TIME_FORMS ")" },
	{ { "--begin", "--end", "5" }, -1,
	  "invalid value '--end' for '--begin' (" TIME_FORMS ")" },
	{ { "--end", "1.5h" }, -1, "invalid value '1.5h' for '--end' (" TIME_FORMS ")" },
	{ { "--begin=+7s", "--end=+5s" }, -1,
	  "'--begin' (+7000000000) is after '--end' (+5000000000)" },
	{ { "--end", "9223372036854775808" }, -1,
	  "invalid value '9223372036854775808' for '--end' (" TIME_FORMS ")" },
	{ { "--limit", "-1" }, -1, "invalid value '-1' for '--limit'" },
	{ { "--limit=ten" }, -1, "invalid value 'ten' for '--limit'" },
	{ { "--limit=Unlimited" }, -1,
	  "invalid value 'Unlimited' for '--limit'" },
	{ { "--limit=18446744073709551616" }, -1,
	  "invalid value '18446744073709551616' for '--limit'" },
	{ { "--test-compatibility=" }, -1,
	  "invalid value '' for '--test-compatibility'" },
	{ { "--bins=-1" }, -1, "invalid value '-1' for '--bins'" },
	{ { "--bins", "" }, -1, "invalid value '' for '--bins'" },
	{ { "--offset=x" }, -1, "invalid value 'x' for '--offset'" },
	{ { "--begin=7", "--end=5", "t" }, -1,
	  "'--begin' (7) is after '--end' (5)" },
	{ { "--begin", "-1", "--end", "-2" }, -1,
	  "'--begin' (-1) is after '--end' (-2)" },
	/* the last --begin counts */
	{ { "--begin=1", "--begin=9", "--end=8" }, -1,
	  "'--begin' (9) is after '--end' (8)" },
};

START_TEST(test_parse_args)
{
	char *argv[MAXARGS + 2] = { (char *)"spaa-test" };
	const char *want = parse_cases[_i].expect;
	struct spaa_error err;
	struct spaa_analysis_opts o;
	int argc = 1, rc;

	while (argc <= MAXARGS && parse_cases[_i].argv[argc - 1]) {
		argv[argc] = (char *)parse_cases[_i].argv[argc - 1];
		argc++;
	}
	argv[argc] = NULL;
	extras_reset();
	spaa_error_init(&err);
	rc = spaa_analysis_parse(&test_analysis, argc, argv, &o, &x, &err);

	ck_assert_msg(rc == parse_cases[_i].rc, "case %d: rc %d (%s)", _i,
		      rc, err.msg);
	if (rc) {
		ck_assert_str_eq(err.code, SPAA_E_USAGE);
		ck_assert_str_eq(err.msg, want);
		ck_assert_ptr_null(o.paths.items);
		ck_assert_uint_eq(o.paths.nr, 0);
	} else {
		char *got = summarize(&o);

		ck_assert_str_eq(err.code, "");
		ck_assert_msg(!strcmp(got, want), "case %d: got '%s', want '%s'",
			      _i, got, want);
		free(got);
	}
	spaa_analysis_opts_release(&o);
	spaa_analysis_opts_release(&o);  /* harmless twice */
	extras_reset();
}
END_TEST

START_TEST(test_parse_args_no_extra)
{
	char *argv[] = { (char *)"p", (char *)"--inverted", NULL };
	struct spaa_error err;
	struct spaa_analysis_opts o;

	spaa_error_init(&err);
	ck_assert_int_eq(spaa_analysis_parse(&bare_analysis, 2, argv, &o, NULL, &err), -1);
	ck_assert_str_eq(err.msg, "unknown option '--inverted'");
	spaa_analysis_opts_release(&o);
	/* a NULL err drops the message but still fails */
	ck_assert_int_eq(spaa_analysis_parse(&bare_analysis, 2, argv, &o, NULL, NULL), -1);
	spaa_analysis_opts_release(&o);
	ck_assert_int_eq(spaa_analysis_parse(&bare_analysis, 1, argv, &o, NULL, NULL), 0);
	ck_assert_uint_eq(o.limit, SPAA_ANALYSIS_UNLIMITED);
	ck_assert(!o.filter.has_begin && !o.filter.has_end && !o.test_compat);
	ck_assert(o.filter.pid == SPAA_NO_ID && o.filter.tid == SPAA_NO_ID);
	spaa_analysis_opts_release(&o);
}
END_TEST

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* main reports a usage error in the format asked for before the mistake */
START_TEST(test_parse_args_format_kept)
{
	char *argv[] = { (char *)"spaa-test", (char *)"--format=csv",
			 (char *)"--bogus", NULL };
	struct spaa_error err;
	struct spaa_analysis_opts o;

	spaa_error_init(&err);
	ck_assert_int_eq(spaa_analysis_parse(&bare_analysis, 3, argv, &o, NULL, &err), -1);
	ck_assert_int_eq(o.format, SPAA_ANALYSIS_CSV);
	spaa_analysis_opts_release(&o);
}
END_TEST

START_TEST(test_help)
{
	static const char *const names[] = {
		"--begin TS", "--end TS", "--clock-offset NS", "--limit N", "--format FMT",
		"--width N", "--wide", "--threads N", "--output-progress",
		"--metadata", "--mi-version", "--test-compatibility PATH",
		"--version", "-h, --help", "--inverted", "--function NAME",
		"--bins N", "--offset NS", "--exclude PATTERN",
	};
	/* "  " + "--test-compatibility PATH", the widest, + "  " */
	const size_t help_column = 2 + 25 + 2;
	struct testutil_capture c;
	const char *out, *p;
	size_t i, options = 0;

	testutil_capture_open(&c);
	spaa_analysis_help(c.f, &test_analysis, "spaa-test");
	out = testutil_capture_close(&c);
	ck_assert_msg(!strncmp(out, "usage: spaa-test [OPTIONS] PATH...\n\n"
			       "Tests the help text.\n\nLAMI options:\n", 72),
		      "%s", out);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char line[64];

		/* each option starts a line, indented by two spaces */
		snprintf(line, sizeof(line), "\n  %s ", names[i]);
		ck_assert_msg(strstr(out, line), "'%s' missing:\n%s", names[i],
			      out);
	}
	/* help texts start in one column */
	for (p = out; *p; p = strchr(p, '\n') + 1) {
		if (strncmp(p, "  -", 3))
			continue;
		options++;
		ck_assert_msg(p[help_column - 1] == ' ' &&
			      p[help_column] >= 'a' && p[help_column] <= 'z',
			      "misaligned: '%.*s'", (int)(strchr(p, '\n') - p), p);
	}
	ck_assert_uint_eq(options, sizeof(names) / sizeof(names[0]));
	ck_assert_ptr_nonnull(strstr(out, "  --limit N"));
	ck_assert_ptr_nonnull(strstr(out, "write at most N rows per table; 0 or "
				     "'unlimited' (the default): all\n"));
	ck_assert_ptr_nonnull(strstr(out, "drop frames matching PATTERN "
				     "(repeatable)\n"));
	/* common options before the analysis' own */
	ck_assert(strstr(out, "--help") < strstr(out, "\nAnalysis options:\n"));
	ck_assert(strstr(out, "\nAnalysis options:\n") < strstr(out, "--inverted"));
	ck_assert(ends_with(out, "\n\nSee spaa-test(1).\n"));
	testutil_capture_free(&c);

	/* no extras, no description */
	testutil_capture_open(&c);
	spaa_analysis_help(c.f, &bare_analysis, "spaa-x");
	out = testutil_capture_close(&c);
	ck_assert(!strncmp(out, "usage: spaa-x [OPTIONS] PATH\n\nLAMI options:\n",
			   44));
	ck_assert_ptr_null(strstr(out, "Analysis options"));
	ck_assert_ptr_nonnull(strstr(out, "\n  --metadata "));
	ck_assert(ends_with(out, "\n\nSee spaa-x(1).\n"));
	testutil_capture_free(&c);
}
END_TEST

/* The options of SPAA_ANALYSIS_EVENT, SPAA_ANALYSIS_THREADS and SPAA_ANALYSIS_STACKS. */
START_TEST(test_shared_options)
{
	static const struct spaa_analysis shared = {
		.name = "s",
		.flags = SPAA_ANALYSIS_EVENT | SPAA_ANALYSIS_THREADS | SPAA_ANALYSIS_STACKS,
	};
	char *argv[] = { (char *)"spaa-s", (char *)"--event=cycles",
			 (char *)"--metric", (char *)"period", (char *)"--pid",
			 (char *)"-1", (char *)"--tid=7", (char *)"p", NULL };
	struct spaa_analysis_opts o;
	struct spaa_error err;

	spaa_error_init(&err);
	ck_assert_int_eq(spaa_analysis_parse(&shared, 8, argv, &o, NULL, &err), 0);
	ck_assert_str_eq(o.event, "cycles");
	ck_assert_str_eq(o.metric, "period");
	ck_assert_int_eq(o.filter.pid, -1);
	ck_assert_int_eq(o.filter.tid, 7);
	ck_assert_uint_eq(o.paths.nr, 1);
	spaa_analysis_opts_release(&o);
	{
		char *sel[] = { (char *)"spaa-s", (char *)"--comm", (char *)"w",
				(char *)"--focus=^a", (char *)"--symbol-filter", (char *)"b$",
				(char *)"--ignore", (char *)"c|d", NULL };

		ck_assert_int_eq(spaa_analysis_parse(&shared, 8, sel, &o, NULL, &err), 0);
		ck_assert_str_eq(o.filter.comm, "w");
		/* --symbol-filter is --focus: the last one given counts */
		ck_assert(o.filter.has_focus && o.filter.has_ignore);
		ck_assert_str_eq(o.filter.focus_pattern, "b$");
		ck_assert_str_eq(o.filter.ignore_pattern, "c|d");
		spaa_analysis_opts_release(&o);
		ck_assert(!o.filter.has_focus && !o.filter.has_ignore);
		sel[3] = (char *)"--focus=(";
		ck_assert_int_eq(spaa_analysis_parse(&shared, 4, sel, &o, NULL, &err), -1);
		ck_assert_str_eq(err.msg, "invalid value '(' for '--focus' "
				 "(a POSIX extended regular expression)");
		spaa_analysis_opts_release(&o);
	}
	/* an analysis without the flags does not take them */
	ck_assert_int_eq(spaa_analysis_parse(&bare_analysis, 2, argv, &o, NULL, &err), -1);
	ck_assert_str_eq(err.msg, "unknown option '--event'");
	spaa_analysis_opts_release(&o);
}
END_TEST

/* Parses args (after the program name) and maps the clock: 0 or -1. */
static int map(const char *args[], size_t n, struct spaa_analysis_opts *o,
	       struct spaa_error *err)
{
	char *argv[MAXARGS + 1] = { (char *)"spaa-s" };

	ck_assert(n < MAXARGS);
	for (size_t i = 0; i < n; i++)
		argv[i + 1] = (char *)args[i];
	ck_assert_int_eq(spaa_analysis_parse(&bare_analysis, (int)n + 1, argv, o,
					     NULL, err), 0);
	return spaa_analysis_map_clock(o, err);
}

START_TEST(test_map_clock)
{
	/* tests/data/ctf/README.md: that clock is 1700000000250000000 ns ahead */
	const char *ctf[] = { "--begin", "1700000002500000000", "--end=1700000002900000000",
			      "tests/data/ctf/text" };
	const char *given[] = { "--clock-offset", "-7", "--begin", "10", "tests/data/ctf/text" };
	const char *file[] = { "--begin", "10", "--end", "20", "tests/data/ctf/text/run.spaa" };
	const char *no_range[] = { "tests/data/ctf/text" };
	const char *overflow[] = { "--clock-offset=1", "--begin", "-9223372036854775808", "p" };
	struct spaa_analysis_opts o;
	struct spaa_error err;

	spaa_error_init(&err);
	ck_assert_int_eq(map(ctf, 4, &o, &err), 0);
	ck_assert(o.filter.begin == 2250000000 && o.filter.end == 2650000000);
	ck_assert_str_eq(o.filter.clock_from,
			 "of the clock 'monotonic' of tests/data/ctf/text/metadata");
	spaa_analysis_opts_release(&o);
	/* by hand, whatever the path; an end not given stays open */
	ck_assert_int_eq(map(given, 5, &o, &err), 0);
	ck_assert(o.filter.begin == 17 && o.filter.end == INT64_MAX);
	ck_assert_int_eq(o.filter.clock_offset, -7);
	spaa_analysis_opts_release(&o);
	/* a profile file is no trace directory; no range, nothing to move */
	ck_assert_int_eq(map(file, 5, &o, &err), 0);
	ck_assert(o.filter.begin == 10 && o.filter.end == 20 && !o.filter.clock_from[0]);
	spaa_analysis_opts_release(&o);
	ck_assert_int_eq(map(no_range, 1, &o, &err), 0);
	ck_assert(!o.filter.clock_from[0]);
	spaa_analysis_opts_release(&o);
	ck_assert_int_eq(map(overflow, 4, &o, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_USAGE);
	spaa_analysis_opts_release(&o);
}
END_TEST

START_TEST(test_hint_trace)
{
	struct spaa_error err;

	/* a trace directory without profiles: incompatible, and where one goes */
	spaa_error_at(&err, SPAA_E_NO_PROFILE, "tests/data/ctf/no-profile", 0, "no profiles");
	spaa_analysis_hint_trace(&err, "tests/data/ctf/no-profile");
	ck_assert_str_eq(err.code, SPAA_E_INCOMPATIBLE);
	ck_assert_ptr_nonnull(strstr(err.msg, "no profile found"));
	/* any other directory, or another error: left alone */
	spaa_error_at(&err, SPAA_E_NO_PROFILE, "tests/data/bad", 0, "no profiles");
	spaa_analysis_hint_trace(&err, "tests/data/bad");
	ck_assert_str_eq(err.code, SPAA_E_NO_PROFILE);
	spaa_error_at(&err, SPAA_E_PARSE, "tests/data/ctf/no-profile", 0, "bad");
	spaa_analysis_hint_trace(&err, "tests/data/ctf/no-profile");
	ck_assert_str_eq(err.code, SPAA_E_PARSE);
}
END_TEST

Suite *analysis_suite(void)
{
	Suite *s = suite_create("analysis");
	TCase *tc = tcase_create("options");

	tcase_add_loop_test(tc, test_parse_args, 0,
			    sizeof(parse_cases) / sizeof(parse_cases[0]));
	tcase_add_test(tc, test_parse_args_no_extra);
	tcase_add_test(tc, test_parse_args_format_kept);
	tcase_add_test(tc, test_shared_options);
	tcase_add_test(tc, test_help);
	tcase_add_test(tc, test_map_clock);
	tcase_add_test(tc, test_hint_trace);
	suite_add_tcase(s, tc);
	return s;
}
