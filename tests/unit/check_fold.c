/*
 * check_fold - samples folded as they stream past (analysis/fold.h):
 * groups by stack, event, thread and CPU, counts in and out of the
 * range, periods, and the stack record each group stands for with the
 * denominators of its share.  Expected values are worked out by hand.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/fold.h"
#include "testutil.h"

Suite *fold_suite(void);

static void setup(void)
{
	testutil_tmpdir_setup("check_fold");
}

static void teardown(void)
{
	testutil_tmpdir_teardown();
}

/*
 * One stack on seven CPUs and another stack in between, interleaved: the
 * first four groups of a stack are found from its head, the others along
 * its chain, and each sample still lands in its own group.  Sample i of
 * the loop runs on CPU i % 7 of stack 700 (past the first heads: they
 * grow) with period i + 1, then once on stack 3; periods of CPU c over
 * i < 28: sum of (c + 1 + 7j), j < 4 = 4c + 4 + 42.
 */
START_TEST(test_fold_many_groups)
{
	struct spaa_fold f;
	struct spaa_error err;

	spaa_error_init(&err);
	spaa_fold_init(&f, NULL);
	for (int i = 0; i < 28; i++) {
		struct spaa_sample s = {
			.time = i, .stack = 700, .pid = 1, .tid = 2, .cpu = i % 7,
			.has_period = true, .period = (uint64_t)i + 1,
		};

		ck_assert_int_eq(spaa_fold_add(&f, &s, &err), 0);
		s.stack = 3;
		s.cpu = 0;
		s.has_period = i != 4;
		ck_assert_int_eq(spaa_fold_add(&f, &s, &err), 0);
	}
	/* groups by first sight: (700, cpu 0), (3, cpu 0), (700, 1), (700, 2), ... */
	ck_assert_uint_eq(f.nkeys, 8);
	ck_assert_uint_eq(f.in_samples, 56);
	ck_assert_uint_eq(f.groups[1].key.stack, 3);
	ck_assert_uint_eq(f.groups[1].count, 28);
	ck_assert(!f.all_period[1]);
	for (uint32_t g = 0, c = 0; g < 8; g++) {
		if (g == 1)
			continue;
		ck_assert_uint_eq(f.groups[g].key.stack, 700);
		ck_assert_int_eq(f.groups[g].key.cpu, c);
		ck_assert_uint_eq(f.groups[g].count, 4);
		ck_assert_uint_eq(f.groups[g].in_period, 4 * c + 4 + 42);
		ck_assert(f.all_period[g]);
		c++;
	}
	spaa_fold_release(&f);
}
END_TEST

/* Both ends of the range are in it; a period is summed only in range. */
START_TEST(test_fold_range_ends)
{
	struct spaa_fold f;
	struct spaa_error err;
	static const int64_t times[] = { 9, 10, 15, 20, 21 };

	spaa_error_init(&err);
	spaa_fold_init(&f, TESTUTIL_RANGE(10, 20));
	for (size_t i = 0; i < 5; i++) {
		struct spaa_sample s = {
			.time = times[i], .stack = 0, .pid = SPAA_NO_ID,
			.tid = SPAA_NO_ID, .cpu = SPAA_NO_ID,
			.has_period = true, .period = 100,
		};

		ck_assert_int_eq(spaa_fold_add(&f, &s, &err), 0);
	}
	ck_assert_uint_eq(f.nkeys, 1);
	ck_assert_uint_eq(f.groups[0].count, 5);
	ck_assert_uint_eq(f.groups[0].in_count, 3);
	ck_assert_uint_eq(f.groups[0].in_period, 300);
	ck_assert_uint_eq(f.in_samples, 3);
	spaa_fold_release(&f);
	spaa_fold_release(&f);  /* harmless twice */
}
END_TEST

START_TEST(test_fold_period_overflow)
{
	struct spaa_sample s = {
		.pid = SPAA_NO_ID, .tid = SPAA_NO_ID, .cpu = SPAA_NO_ID,
		.has_period = true, .period = UINT64_MAX,
	};
	struct spaa_fold f;
	struct spaa_error err;

	spaa_error_init(&err);
	spaa_fold_init(&f, NULL);
	ck_assert_int_eq(spaa_fold_add(&f, &s, &err), 0);
	s.period = 1;
	ck_assert_int_eq(spaa_fold_add(&f, &s, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_LIMIT);
	ck_assert_str_eq(err.msg, "a sum of weights overflows 64 bits");
	spaa_fold_release(&f);
}
END_TEST

/*
 * Stack a has two records, one per thread (tid 1, tid 2); stack b one
 * without a tid.  Samples: a/tid 1 at 1 and 5, a/tid 2 at 2, b/tid 7 at
 * 3 and 9 (seconds); the range is [0 s, 4 s].
 */
static const char records_profile[] =
	TESTUTIL_HEADER("{'name':'e','kind':'software','sampling':{'mode':'event','primary_metric':'period'}}")
	"{'type':'dso','id':1,'name':'/bin/x','is_kernel':false}\n"
	"{'type':'frame','id':1,'func':'f','dso':1}\n"
	"{'type':'stack','id':'a','frames':[1],'context':{'pid':1,'tid':1},'weights':[{'metric':'period','value':10}]}\n"
	"{'type':'stack','id':'a','frames':[1],'context':{'pid':1,'tid':2},'weights':[{'metric':'period','value':9}]}\n"
	"{'type':'stack','id':'b','frames':[1],'weights':[{'metric':'period','value':7}]}\n"
	"{'type':'sample','timestamp':1,'stack_id':'a','pid':1,'tid':1}\n"
	"{'type':'sample','timestamp':2,'stack_id':'a','pid':1,'tid':2}\n"
	"{'type':'sample','timestamp':3,'stack_id':'b','pid':1,'tid':7}\n"
	"{'type':'sample','timestamp':5,'stack_id':'a','pid':1,'tid':1}\n"
	"{'type':'sample','timestamp':9,'stack_id':'b','pid':1,'tid':7}\n";

static int fold_on_sample(void *data, const struct spaa_profile *p,
			  const struct spaa_sample *s, struct spaa_error *err)
{
	return spaa_fold_on_sample(data, p, s, err);
}

START_TEST(test_fold_records)
{
	char *text = strdup(records_profile);
	const char *path;
	struct spaa_load_opts o = { .on_sample = fold_on_sample };
	struct spaa_fold_records recs;
	struct spaa_profile p;
	struct spaa_fold f;
	struct spaa_error err;

	for (char *c = text; *c; c++)
		if (*c == '\'')
			*c = '"';
	path = testutil_write("r.spaa", text, strlen(text));
	free(text);
	spaa_fold_init(&f, TESTUTIL_RANGE(0, 4000000000));
	o.data = &f;
	spaa_profile_init(&p);
	spaa_error_init(&err);
	ck_assert_msg(!spaa_load(&p, &path, 1, &o, &err), "%s", err.msg);
	/* groups by first sight: a/tid 1, a/tid 2, b/tid 7 */
	ck_assert_uint_eq(f.nkeys, 3);
	spaa_fold_records_init(&recs, &f, &p);
	/* each group finds the record of its thread; b's record names none */
	ck_assert_uint_eq(recs.of[0], 0);
	ck_assert_uint_eq(recs.of[1], 1);
	ck_assert_uint_eq(recs.of[2], 2);
	ck_assert_uint_eq(recs.samples[0], 2);
	ck_assert_uint_eq(recs.samples[1], 1);
	ck_assert_uint_eq(recs.samples[2], 2);
	/* a/tid 1: 1 of 2 samples in range, 10 * 1/2; b: 1 of 2, 7/2 rounds to 4 */
	ck_assert_uint_eq(spaa_fold_records_share(&recs, &f, 0, 10), 5);
	ck_assert_uint_eq(spaa_fold_records_share(&recs, &f, 1, 9), 9);
	ck_assert_uint_eq(spaa_fold_records_share(&recs, &f, 2, 7), 4);
	spaa_fold_records_release(&recs);
	spaa_fold_records_release(&recs);
	spaa_fold_release(&f);
	spaa_profile_release(&p);
}
END_TEST

Suite *fold_suite(void)
{
	Suite *s = suite_create("fold");
	TCase *tc = tcase_create("fold");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_fold_many_groups);
	tcase_add_test(tc, test_fold_range_ends);
	tcase_add_test(tc, test_fold_period_overflow);
	tcase_add_test(tc, test_fold_records);
	suite_add_tcase(s, tc);
	return s;
}
