/*
 * check_filter - the one filter of samples and records
 * (analysis/filter.h): a time range with both ends in it, a process and
 * a thread, the time range results cover, times as written (integer
 * ns, units, from the profile's start), a range moved from another
 * clock, and what a filter that selected nothing is told.
 */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/filter.h"
#include "testutil.h"

static const char explain_profile[] =
	TESTUTIL_HEADER("{'name':'cycles','kind':'hardware','sampling':{'mode':'period','primary_metric':'period'}}")
	"{'type':'dso','id':1,'name':'/bin/app','is_kernel':false}\n"
	"{'type':'frame','id':1,'func':'main','dso':1}\n"
	"{'type':'frame','id':2,'func':'parse_json','dso':1}\n"
	"{'type':'frame','id':3,'func':'memcpy','dso':1}\n"
	"{'type':'thread','pid':7,'tid':8,'comm':'worker'}\n"
	"{'type':'stack','id':'s1','frames':[3,2,1],'context':{'event':'cycles','pid':9,'tid':10,'comm':'io'},'weights':[{'metric':'period','value':1}]}\n"
	"{'type':'stack','id':'s2','frames':[1],'context':{'event':'cycles','pid':9},'weights':[{'metric':'period','value':1}]}\n";

/* what a filter that selected nothing is told, by hand from explain_profile */
static const struct {
	int64_t pid, tid;
	const char *comm, *focus, *ignore, *begin;
	const char *msg;        /* NULL: not the filter's doing (0) */
} explains[] = {
	{ SPAA_NO_ID, SPAA_NO_ID, NULL, NULL, NULL, NULL, NULL },
	{ SPAA_NO_ID, 99, NULL, NULL, NULL, NULL,
	  "--tid 99 selects nothing: the profile has threads 7/8, 9/10, 9/? (pid/tid)" },
	{ 5, 8, NULL, NULL, NULL, NULL,
	  "--pid 5 --tid 8 selects nothing: the profile has threads 7/8, 9/10, 9/? (pid/tid)" },
	{ 9, SPAA_NO_ID, NULL, NULL, NULL, NULL, NULL },
	{ SPAA_NO_ID, SPAA_NO_ID, "nope", NULL, NULL, NULL,
	  "--comm 'nope' selects nothing: the profile's commands are 'worker', 'io'" },
	{ 7, SPAA_NO_ID, "io", NULL, NULL, NULL,
	  "--pid 7 --comm 'io' selects nothing: that process or thread runs 'worker'" },
	/* s2 has no command: pid 9 names only s1's */
	{ 9, SPAA_NO_ID, "worker", NULL, NULL, NULL,
	  "--pid 9 --comm 'worker' selects nothing: that process or thread runs 'io'" },
	{ SPAA_NO_ID, 8, "io", NULL, NULL, NULL,
	  "--tid 8 --comm 'io' selects nothing: that process or thread runs 'worker'" },
	{ SPAA_NO_ID, SPAA_NO_ID, "io", NULL, NULL, NULL, NULL },
	{ SPAA_NO_ID, SPAA_NO_ID, NULL, "zzz", NULL, NULL,
	  "--focus 'zzz' selects nothing: it matches none of the profile's 3 functions" },
	/* no function matches even with a time range */
	{ SPAA_NO_ID, SPAA_NO_ID, NULL, "zzz", NULL, "5",
	  "--focus 'zzz' selects nothing: it matches none of the profile's 3 functions" },
	{ SPAA_NO_ID, SPAA_NO_ID, NULL, NULL, "^m", NULL,
	  "--ignore '^m' selects nothing: every stack selected passes through one of the 2 functions (of 3) that --ignore matches" },
	{ SPAA_NO_ID, 10, "io", "json", NULL, NULL,
	  "--tid 10 --comm 'io' --focus 'json' selects nothing: 1 of the profile's 3 functions match --focus, and no stack selected passes through them" },
	{ SPAA_NO_ID, SPAA_NO_ID, NULL, "json", "cpy", NULL,
	  "--focus 'json' --ignore 'cpy' selects nothing: of the profile's 3 functions 1 match --focus and 1 --ignore, and no stack selected passes through the first and none of the second" },
	/* a window's emptiness: its titles say so */
	{ SPAA_NO_ID, SPAA_NO_ID, NULL, NULL, "^m", "5", NULL },
};

START_TEST(test_filter_explain_empty)
{
	struct spaa_profile p;
	struct spaa_filter f;
	struct spaa_error err = { 0 };
	int r;

	testutil_load_quoted(&p, "explain.spaa", explain_profile);
	spaa_filter_init(&f);
	f.pid = explains[_i].pid;
	f.tid = explains[_i].tid;
	f.comm = explains[_i].comm;
	ck_assert(!explains[_i].focus || !spaa_filter_set_focus(&f, explains[_i].focus));
	ck_assert(!explains[_i].ignore || !spaa_filter_set_ignore(&f, explains[_i].ignore));
	ck_assert(!explains[_i].begin || !spaa_filter_set_begin(&f, explains[_i].begin));
	r = spaa_filter_explain_empty(&f, &p, &err);
	if (explains[_i].msg) {
		ck_assert_int_eq(r, -1);
		ck_assert_str_eq(err.code, SPAA_E_NO_DATA);
		ck_assert_str_eq(err.msg, explains[_i].msg);
	} else {
		ck_assert_int_eq(r, 0);
	}
	spaa_filter_release(&f);
	spaa_profile_release(&p);
}
END_TEST

Suite *filter_suite(void);

/* The profiles the tests load are files of a directory of their own. */
static void setup(void)
{
	testutil_tmpdir_setup("check_filter");
}

static void teardown(void)
{
	testutil_tmpdir_teardown();
}

START_TEST(test_filter_passes_all)
{
	struct spaa_filter f;

	spaa_filter_init(&f);
	ck_assert(!spaa_filter_has_range(&f));
	ck_assert(spaa_filter_time(&f, INT64_MIN) && spaa_filter_time(&f, INT64_MAX));
	ck_assert(spaa_filter_thread(&f, SPAA_NO_ID, SPAA_NO_ID));
	ck_assert(spaa_filter_thread(&f, 5, 6));
}
END_TEST

START_TEST(test_filter_cuts)
{
	struct spaa_filter f;

	spaa_filter_init(&f);
	f.has_begin = true;
	f.begin = 10;
	ck_assert(spaa_filter_has_range(&f));
	ck_assert(!spaa_filter_time(&f, 9));
	ck_assert(spaa_filter_time(&f, 10));
	f.has_end = true;
	f.end = 20;
	ck_assert(spaa_filter_time(&f, 20) && !spaa_filter_time(&f, 21));
	f.pid = 5;
	ck_assert(spaa_filter_thread(&f, 5, 99));
	ck_assert(!spaa_filter_thread(&f, 6, 99));
	/* a record that does not say its process is not that process's */
	ck_assert(!spaa_filter_thread(&f, SPAA_NO_ID, 99));
	f.tid = 7;
	ck_assert(spaa_filter_thread(&f, 5, 7) && !spaa_filter_thread(&f, 5, 8));
}
END_TEST

START_TEST(test_filter_range)
{
	struct spaa_profile p;
	struct spaa_filter f;
	int64_t b, e;

	spaa_profile_init(&p);
	spaa_filter_init(&f);
	spaa_filter_range(&f, &p, &b, &e);
	ck_assert(b == 0 && e == 0);            /* no time at all */
	spaa_profile_cover_time(&p, 100, 200);
	spaa_filter_range(&f, &p, &b, &e);
	ck_assert(b == 100 && e == 200);        /* the profile's span */
	f.has_begin = true;
	f.begin = 150;
	spaa_filter_range(&f, &p, &b, &e);
	ck_assert(b == 150 && e == 200);
	f.has_end = true;
	f.end = 300;                            /* beyond the profile: as asked */
	spaa_filter_range(&f, &p, &b, &e);
	ck_assert(b == 150 && e == 300);
	f.has_end = false;
	f.begin = 500;                          /* after the profile's end */
	spaa_filter_range(&f, &p, &b, &e);
	ck_assert(b == 500 && e == 500);
	spaa_profile_release(&p);
}
END_TEST

START_TEST(test_filter_shift)
{
	struct spaa_filter f;
	struct spaa_error err;

	spaa_filter_init(&f);
	f.has_begin = f.has_end = true;
	f.begin = 1000;
	f.end = 1500;
	ck_assert_int_eq(spaa_filter_shift(&f, 400, "given", &err), 0);
	ck_assert(f.begin == 600 && f.end == 1100 && f.clock_offset == 400);
	ck_assert_str_eq(f.clock_from, "given");
	/* a bound not given stays open */
	spaa_filter_init(&f);
	f.has_begin = true;
	f.begin = -5;
	ck_assert_int_eq(spaa_filter_shift(&f, -10, "x", &err), 0);
	ck_assert(f.begin == 5 && f.end == INT64_MAX);
	/* a time from the profile's start is not moved */
	spaa_filter_init(&f);
	ck_assert_int_eq(spaa_filter_set_begin(&f, "+2ns"), 0);
	ck_assert_int_eq(spaa_filter_set_end(&f, "1000"), 0);
	ck_assert_int_eq(spaa_filter_shift(&f, 400, "x", &err), 0);
	spaa_filter_start(&f, 50);
	ck_assert(f.begin == 52 && f.end == 600);
	/* past 64 bits: refused, nothing moved */
	spaa_filter_init(&f);
	f.has_end = true;
	f.end = INT64_MIN + 3;
	ck_assert_int_eq(spaa_filter_shift(&f, 4, "x", &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_USAGE);
	ck_assert(f.end == INT64_MIN + 3 && !f.clock_from[0]);
}
END_TEST

START_TEST(test_filter_overlap)
{
	struct spaa_profile p;
	struct spaa_filter f;
	struct spaa_error err;

	spaa_profile_init(&p);
	spaa_profile_cover_time(&p, 100, 200);
	spaa_filter_init(&f);
	f.has_begin = f.has_end = true;
	f.begin = 300;
	f.end = 400;
	/* not moved: a window after the profile is only empty */
	ck_assert_int_eq(spaa_filter_check_overlap(&f, &p, &err), 0);
	ck_assert_int_eq(spaa_filter_shift(&f, 50, "--clock-offset", &err), 0);
	ck_assert_int_eq(spaa_filter_check_overlap(&f, &p, &err), -1);  /* 250..350 */
	ck_assert_str_eq(err.code, SPAA_E_NO_DATA);
	ck_assert_ptr_nonnull(strstr(err.msg, "250 to 350 ns"));
	ck_assert_ptr_nonnull(strstr(err.msg, "covers 100 to 200 ns"));
	/* touching one end is overlap: both ends are inclusive */
	f.begin = 200;
	ck_assert_int_eq(spaa_filter_check_overlap(&f, &p, &err), 0);
	f.begin = 0;
	f.end = 99;
	ck_assert_int_eq(spaa_filter_check_overlap(&f, &p, &err), -1);
	f.end = 100;
	ck_assert_int_eq(spaa_filter_check_overlap(&f, &p, &err), 0);
	spaa_profile_release(&p);
}
END_TEST

static const struct {
	const char *s;
	int rc;
	int64_t ns;
	bool from_start;
} times[] = {
	/* Trace Compass' integer nanoseconds, exactly */
	{ "0", 0, 0, false },
	{ "795", 0, 795, false },
	{ "-5", 0, -5, false },
	{ "1700000000123456789", 0, 1700000000123456789, false },
	{ "9223372036854775807", 0, INT64_MAX, false },
	{ "-9223372036854775808", 0, INT64_MIN, false },
	{ "9223372036854775808", -1, 0, false },
	{ "-9223372036854775809", -1, 0, false },
	/* seconds with a fraction and a unit */
	{ "795.1s", 0, 795100000000, false },
	{ "120ms", 0, 120000000, false },
	{ "3us", 0, 3000, false },
	{ "5ns", 0, 5, false },
	{ "0.000000001s", 0, 1, false },
	{ "1.5000ns", -1, 0, false },
	{ "1.0000ns", 0, 1, false },
	{ "2.0000000000s", 0, 2000000000, false },
	{ "0.0000000005s", -1, 0, false },
	{ "1.25ms", 0, 1250000, false },
	{ "-1.5s", 0, -1500000000, false },
	{ "9223372036.854775807s", 0, INT64_MAX, false },
	{ "9223372036.854775808s", -1, 0, false },
	{ "9223372037s", -1, 0, false },
	{ "-9223372036.854775807s", 0, -INT64_MAX, false },
	{ "-9223372036.854775808s", -1, 0, false },     /* only as integer ns */
	/* from the start */
	{ "+1.5s", 0, 1500000000, true },
	{ "+0", 0, 0, true },
	{ "+250", 0, 250, true },
	{ "+2ms", 0, 2000000, true },
	/* not times */
	{ "", -1, 0, false },
	{ "+", -1, 0, false },
	{ "-", -1, 0, false },
	{ "1.5", -1, 0, false },          /* seconds or nanoseconds? */
	{ "1.", -1, 0, false },
	{ ".5s", -1, 0, false },
	{ "1.s", -1, 0, false },
	{ "5 s", -1, 0, false },
	{ "5S", -1, 0, false },
	{ "5sec", -1, 0, false },
	{ "1e9", -1, 0, false },
	{ "+-5", -1, 0, false },
	{ "-+5", -1, 0, false },
	{ "++5", -1, 0, false },
	{ "0x10", -1, 0, false },
	{ "1h", -1, 0, false },
};

START_TEST(test_parse_time)
{
	int64_t ns = 42;
	bool from_start = !times[_i].from_start;
	int rc = spaa_filter_parse_time(times[_i].s, &ns, &from_start);

	ck_assert_msg(rc == times[_i].rc, "'%s': rc %d", times[_i].s, rc);
	if (!rc)
		ck_assert_msg(ns == times[_i].ns && from_start == times[_i].from_start,
			      "'%s': %lld%s", times[_i].s, (long long)ns,
			      from_start ? " from the start" : "");
}
END_TEST

START_TEST(test_filter_from_start)
{
	struct spaa_profile p;
	struct spaa_filter f;
	int64_t b, e;

	spaa_profile_init(&p);
	spaa_filter_init(&f);
	ck_assert_int_eq(spaa_filter_set_begin(&f, "+1.5s"), 0);
	ck_assert_int_eq(spaa_filter_set_end(&f, "+2s"), 0);
	ck_assert(spaa_filter_has_range(&f) && !spaa_filter_inverted(&f));
	/* started: absolute from then on, whatever the profile's span */
	spaa_profile_cover_time(&p, 1000000000, 20000000000);
	spaa_filter_start(&f, 4000000000);
	ck_assert(!spaa_filter_time(&f, 5499999999) && spaa_filter_time(&f, 5500000000));
	ck_assert(spaa_filter_time(&f, 6000000000) && !spaa_filter_time(&f, 6000000001));
	spaa_filter_range(&f, &p, &b, &e);
	ck_assert(b == 5500000000 && e == 6000000000);
	/* another profile, its own start; saturating at the end of time */
	spaa_filter_start(&f, INT64_MAX - 1);
	ck_assert(f.begin == INT64_MAX && f.end == INT64_MAX);
	/* an absolute end stays; so does the begin once given absolute */
	ck_assert_int_eq(spaa_filter_set_end(&f, "7s"), 0);
	ck_assert_int_eq(spaa_filter_set_begin(&f, "8s"), 0);
	ck_assert(spaa_filter_inverted(&f));
	spaa_filter_start(&f, 0);
	ck_assert(f.begin == 8000000000 && f.end == 7000000000);
	/* mixed: cannot be told before the start */
	ck_assert_int_eq(spaa_filter_set_begin(&f, "+8s"), 0);
	ck_assert(!spaa_filter_inverted(&f));
	ck_assert_int_eq(spaa_filter_set_begin(&f, "+x"), -1);
	spaa_profile_release(&p);
}
END_TEST

static const char threads_profile[] =
	TESTUTIL_HEADER("{'name':'cycles','kind':'hardware','sampling':{'mode':'period','primary_metric':'period'}}")
	"{'type':'dso','id':1,'name':'/bin/app','is_kernel':false}\n"
	"{'type':'frame','id':1,'func':'main','dso':1}\n"
	"{'type':'frame','id':2,'func':'parse_json','dso':1}\n"
	"{'type':'frame','id':3,'func':'memcpy','dso':1}\n"
	"{'type':'thread','pid':7,'tid':8,'comm':'worker'}\n"
	"{'type':'stack','id':'s1','frames':[3,2,1],'context':{'event':'cycles'},'weights':[{'metric':'period','value':1}]}\n"
	"{'type':'stack','id':'s2','frames':[1],'context':{'event':'cycles'},'weights':[{'metric':'period','value':1}]}\n";

START_TEST(test_filter_context_and_stacks)
{
	struct spaa_profile p;
	struct spaa_filter f;
	uint8_t *memo;
	uint32_t worker, main_;

	testutil_load_quoted(&p, "threads.spaa", threads_profile);
	memo = calloc(spaa_profile_nfunctions(&p), 1);
	worker = testutil_str(&p, "worker");
	main_ = testutil_str(&p, "main");
	spaa_filter_init(&f);
	ck_assert(spaa_filter_context(&f, &p, 1, 2, 0));
	/* --comm: the record's own name, else its thread's */
	f.comm = "worker";
	ck_assert(spaa_filter_context(&f, &p, 7, 8, 0));
	ck_assert(!spaa_filter_context(&f, &p, 7, 9, 0));     /* no such thread */
	ck_assert(spaa_filter_context(&f, &p, 1, 2, worker));
	ck_assert(!spaa_filter_context(&f, &p, 7, 8, main_));
	f.pid = 6;
	ck_assert(!spaa_filter_context(&f, &p, 7, 8, 0));
	/* stacks: s1 main;parse_json;memcpy, s2 main */
	ck_assert(!spaa_filter_has_stacks(&f));
	ck_assert_int_eq(spaa_filter_set_focus(&f, "^parse"), 0);
	ck_assert(spaa_filter_has_stacks(&f));
	ck_assert(spaa_filter_stack(&f, &p, p.frame_pool + p.stacks[0].frames,
				    p.stacks[0].nframes, memo));
	ck_assert(!spaa_filter_stack(&f, &p, p.frame_pool + p.stacks[1].frames,
				     p.stacks[1].nframes, memo));
	ck_assert_int_eq(spaa_filter_set_ignore(&f, "cpy$"), 0);
	memset(memo, 0, spaa_profile_nfunctions(&p));
	ck_assert(!spaa_filter_stack(&f, &p, p.frame_pool + p.stacks[0].frames,
				     p.stacks[0].nframes, memo));
	/* a pattern that does not compile leaves the one before */
	ck_assert_int_eq(spaa_filter_set_focus(&f, "a("), -1);
	ck_assert(f.has_focus);
	ck_assert_str_eq(f.focus_pattern, "^parse");
	spaa_filter_release(&f);
	spaa_filter_release(&f);        /* harmless twice */
	ck_assert(!spaa_filter_has_stacks(&f));
	free(memo);
	spaa_profile_release(&p);
}
END_TEST

/*
 * threads.spaa's records have no ids: --pid keeps none; --focus parse
 * keeps s1; --focus parse --ignore cpy keeps none; describe says each.
 */
START_TEST(test_filter_keeps_records_and_describe)
{
	struct spaa_profile p;
	struct spaa_filter f;
	char said[128];

	testutil_load_quoted(&p, "threads.spaa", threads_profile);
	spaa_filter_init(&f);
	ck_assert(spaa_filter_keeps_records(&f, &p));
	ck_assert_str_eq(spaa_filter_describe(&f, said, sizeof(said)), "");
	f.pid = 7;
	ck_assert(!spaa_filter_keeps_records(&f, &p));
	f.pid = SPAA_NO_ID;
	ck_assert_int_eq(spaa_filter_set_focus(&f, "^parse"), 0);
	ck_assert(spaa_filter_keeps_records(&f, &p));
	ck_assert_int_eq(spaa_filter_set_ignore(&f, "cpy$"), 0);
	ck_assert(!spaa_filter_keeps_records(&f, &p));
	f.pid = 7;
	f.tid = 8;
	f.comm = "worker";
	ck_assert_str_eq(spaa_filter_describe(&f, said, sizeof(said)),
			 "process 7, thread 8, command 'worker', stacks through '^parse', "
			 "no stacks through 'cpy$'");
	/* cut to the buffer, terminated */
	ck_assert_str_eq(spaa_filter_describe(&f, said, 12), "process 7, ");
	spaa_filter_release(&f);
	spaa_profile_release(&p);
}
END_TEST

Suite *filter_suite(void)
{
	Suite *s = suite_create("filter");
	TCase *tc = tcase_create("filter");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_filter_passes_all);
	tcase_add_test(tc, test_filter_cuts);
	tcase_add_test(tc, test_filter_range);
	tcase_add_test(tc, test_filter_shift);
	tcase_add_test(tc, test_filter_overlap);
	tcase_add_loop_test(tc, test_parse_time, 0, sizeof(times) / sizeof(times[0]));
	tcase_add_test(tc, test_filter_from_start);
	tcase_add_test(tc, test_filter_context_and_stacks);
	tcase_add_test(tc, test_filter_keeps_records_and_describe);
	tcase_add_loop_test(tc, test_filter_explain_empty, 0, sizeof(explains) / sizeof(explains[0]));
	suite_add_tcase(s, tc);
	return s;
}
