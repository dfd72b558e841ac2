/*
 * check_repeats - what a file repeats of earlier files of a load is stored
 * once (model/repeats.h, spaa_load_opts.fold_repeats): copies of a file
 * give the model of one copy with every weight multiplied by the number
 * of copies; records of another context, joined records and sums past
 * 64 bits stay apart; a file's own repeats stay as they are; errors
 * still name the file and line of the file being read.
 */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "formats/load.h"
#include "model/repeats.h"
#include "testutil.h"

Suite *repeats_suite(void);

static void setup(void)
{
	testutil_tmpdir_setup("check_repeats");
}

static void teardown(void)
{
	testutil_tmpdir_teardown();
}

#define EV(n) "{'name':'" n "','kind':'software','sampling':{'mode':'event','primary_metric':'samples'}}"

/*
 * Two events, a thread, a window, and a sample before the stack it names
 * (a placeholder, which is never shared).
 */
static const char profile[] = TESTUTIL_HEADER(EV("faults") "," EV("switches"))
	"{'type':'dso','id':1,'name':'/bin/a','is_kernel':false}\n"
	"{'type':'frame','id':1,'func':'main','dso':1}\n"
	"{'type':'frame','id':2,'func':'work','dso':1}\n"
	"{'type':'thread','pid':7,'tid':8,'comm':'w'}\n"
	"{'type':'sample','timestamp':5,'stack_id':'late','tid':8,'event':'faults'}\n"
	"{'type':'stack','id':'s','frames':[2,1],'context':{'event':'faults','tid':8},"
	"'weights':[{'metric':'samples','value':3},{'metric':'bytes','unit':'B','value':40}],"
	"'exclusive':{'frame':2,'weights':[{'metric':'samples','value':2}]}}\n"
	"{'type':'stack','id':'s','frames':[2,1],'context':{'event':'switches','tid':8},"
	"'weights':[{'metric':'samples','value':5}]}\n"
	"{'type':'stack','id':'t','frames':[2],'context':{'event':'faults'},'weights':[{'metric':'samples','value':7}]}\n"
	"{'type':'stack','id':'late','frames':[1],'context':{'event':'faults'},'weights':[{'metric':'samples','value':11}]}\n"
	"{'type':'window','start':1,'end':9,'by_stack':[{'stack_id':'s','weights':[{'metric':'samples','value':1}]}]}\n";

/* Writes text (' read as ") to DIR/NAME. */
static void put(const char *dir, const char *name, const char *text)
{
	char path[256], *t = strdup(text);

	ck_assert_ptr_nonnull(t);
	for (char *c = t; *c; c++)
		if (*c == '\'')
			*c = '"';
	mkdir(testutil_path(dir), 0700);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	testutil_write(path, t, strlen(t));
	free(t);
}

/* Loads directory dir (fold: with fold_repeats); returns spaa_load's result. */
static int load_dir(struct spaa_profile *p, const char *dir, bool fold,
		    struct spaa_error *err)
{
	const char *path = testutil_path(dir);
	struct spaa_load_opts o = { .fold_repeats = fold };

	spaa_profile_init(p);
	spaa_error_init(err);
	return spaa_load(p, &path, 1, &o, err);
}

static void load_ok(struct spaa_profile *p, const char *dir, bool fold)
{
	struct spaa_error err;

	ck_assert_msg(!load_dir(p, dir, fold, &err), "%s", err.msg);
}

static uint64_t weight(const struct spaa_profile *p, uint32_t off, uint32_t n,
		       const char *metric)
{
	uint64_t v = 0;

	ck_assert(spaa_profile_weights_get(p, off, n, testutil_str(p, metric), &v));
	return v;
}

START_TEST(test_copies_fold_into_one)
{
	struct spaa_profile one, three, apart;

	put("one", "a.spaa", profile);
	for (int i = 0; i < 3; i++)
		put("three", i == 0 ? "a.spaa" : i == 1 ? "b.spaa" : "c.spaa", profile);
	load_ok(&one, "one", true);
	load_ok(&apart, "three", false);
	load_ok(&three, "three", true);

	ck_assert_uint_eq(one.nrecords, 4);
	ck_assert_uint_eq(apart.nrecords, 12);
	/* s, t and their records shared; 'late' was a placeholder in each copy */
	ck_assert_uint_eq(three.nrecords, 4 + 2);
	ck_assert_uint_eq(one.nframes, 2);
	ck_assert_uint_eq(three.nframes, 2);
	ck_assert_uint_eq(one.nstacks, 3);
	ck_assert_uint_eq(three.nstacks, 3 + 2);
	ck_assert_uint_eq(three.nfiles, 3);
	ck_assert_uint_eq(three.nsamples, 3);
	ck_assert_uint_eq(three.nwindows, 3);

	/* the shared records: 3 times the one file's, same order */
	for (uint32_t i = 0; i < 3; i++) {
		const struct spaa_record *a = &one.records[i], *b = &three.records[i];

		ck_assert_uint_eq(a->stack, b->stack);
		ck_assert_uint_eq(a->event, b->event);
		ck_assert_int_eq(a->tid, b->tid);
		ck_assert_uint_eq(b->nweights, a->nweights);
		ck_assert_uint_eq(weight(&three, b->weights, b->nweights, "samples"),
				  3 * weight(&one, a->weights, a->nweights, "samples"));
	}
	ck_assert_uint_eq(weight(&three, three.records[0].weights, 2, "bytes"), 120);
	ck_assert_uint_eq(weight(&three, three.records[0].excl, 1, "samples"), 6);
	/* 'late' of each file, in file order */
	for (uint32_t i = 3; i < 6; i++) {
		ck_assert_uint_eq(three.records[i].stack, i == 3 ? 0 : i - 1);
		ck_assert_uint_eq(weight(&three, three.records[i].weights, 1, "samples"), 11);
	}
	/* the window entries keep their weights after the pool is compacted */
	for (uint32_t w = 0; w < 3; w++) {
		const struct spaa_window_entry *e = &three.window_entries[three.windows[w].entries];

		ck_assert_uint_eq(e->stack, three.records[0].stack);
		ck_assert_uint_eq(weight(&three, e->weights, e->nweights, "samples"), 1);
	}
	/* nothing in the pool but what the kept records and windows hold */
	ck_assert_uint_eq(three.nweight_pool, one.nweight_pool + 2 * (1 + 1));
	for (uint32_t ev = 0; ev < 2; ev++)
		ck_assert_uint_eq(spaa_profile_total(&three, ev, testutil_str(&three, "samples")),
				  spaa_profile_total(&apart, ev, testutil_str(&apart, "samples")));
	/* each stack's records, newest first, are the kept ones */
	ck_assert_uint_eq(three.stacks[three.records[0].stack].first_record, 1);
	ck_assert_uint_eq(three.records[1].next_same_stack, 0);
	ck_assert_uint_eq(three.records[0].next_same_stack, SPAA_NONE);
	spaa_profile_release(&one);
	spaa_profile_release(&three);
	spaa_profile_release(&apart);
}
END_TEST

/*
 * The exclusive metric is not among the weights: a larger exclusive
 * weight of a metric the stack has is taken as the stack's.
 */
#define BODY(tid, excl) \
	"{'type':'dso','id':1,'name':'/bin/a','is_kernel':false}\n" \
	"{'type':'frame','id':1,'func':'main','dso':1}\n" \
	"{'type':'stack','id':'s','frames':[1],'context':{'tid':" tid "}," \
	"'weights':[{'metric':'samples','value':1}]," \
	"'exclusive':{'frame':1,'weights':[{'metric':'cost','value':" excl "}]}}\n"

START_TEST(test_what_stays_apart)
{
	struct spaa_profile p;

	/* another thread: one stack, two records */
	put("ctx", "a.spaa", TESTUTIL_HEADER(EV("faults")) BODY("1", "1"));
	put("ctx", "b.spaa", TESTUTIL_HEADER(EV("faults")) BODY("2", "1"));
	load_ok(&p, "ctx", true);
	ck_assert_uint_eq(p.nstacks, 1);
	ck_assert_uint_eq(p.nrecords, 2);
	ck_assert_int_eq(p.records[0].tid, 1);
	ck_assert_int_eq(p.records[1].tid, 2);
	spaa_profile_release(&p);

	/* 2^63 twice does not fit: both records kept whole */
	put("big", "a.spaa", TESTUTIL_HEADER(EV("faults")) BODY("1", "9223372036854775808"));
	put("big", "b.spaa", TESTUTIL_HEADER(EV("faults")) BODY("1", "9223372036854775808"));
	put("big", "c.spaa", TESTUTIL_HEADER(EV("faults")) BODY("1", "9223372036854775807"));
	load_ok(&p, "big", true);
	ck_assert_uint_eq(p.nrecords, 2);
	ck_assert_uint_eq(weight(&p, p.records[0].excl, 1, "cost"), UINT64_MAX);
	ck_assert_uint_eq(weight(&p, p.records[0].weights, 1, "samples"), 2);
	ck_assert_uint_eq(weight(&p, p.records[1].excl, 1, "cost"), 9223372036854775808u);
	ck_assert_uint_eq(weight(&p, p.records[1].weights, 1, "samples"), 1);
	spaa_profile_release(&p);
}
END_TEST

/*
 * tests/data/related.spaa in short: user stack u1 joined with kernel
 * stack k1 (defined first, so the second file shares it), u2 alone.
 */
static const char related[] = TESTUTIL_HEADER(EV("faults"))
	"{'type':'dso','id':1,'name':'app','is_kernel':false}\n"
	"{'type':'dso','id':3,'name':'kernel','is_kernel':true}\n"
	"{'type':'frame','id':1,'func':'main','dso':1}\n"
	"{'type':'frame','id':10,'func':'sys_read','dso':3,'kind':'kernel'}\n"
	"{'type':'stack','id':'k1','frames':[10],'stack_type':'kernel','weights':[{'metric':'samples','value':4}]}\n"
	"{'type':'stack','id':'u1','frames':[1],'stack_type':'user','weights':[{'metric':'samples','value':4}],'related_stacks':['k1']}\n"
	"{'type':'stack','id':'u2','frames':[1,1],'stack_type':'user','weights':[{'metric':'samples','value':6}]}\n";

START_TEST(test_related_stacks)
{
	struct spaa_profile p;
	uint64_t counted = 0;

	put("rel", "a.spaa", related);
	put("rel", "b.spaa", related);
	load_ok(&p, "rel", true);
	/* k1 absorbed (merged), u1 joined in each file (kept), u2 merged */
	ck_assert_uint_eq(p.nstacks, 3);
	ck_assert_uint_eq(p.nrecords, 4);
	ck_assert(p.records[0].absorbed);
	ck_assert_uint_eq(weight(&p, p.records[0].weights, 1, "samples"), 8);
	ck_assert_uint_eq(p.records[1].nframes, 2);
	ck_assert_uint_eq(p.records[3].nframes, 2);
	ck_assert_uint_eq(p.records[3].stack, p.records[1].stack);
	ck_assert_uint_eq(weight(&p, p.records[2].weights, 1, "samples"), 12);
	for (uint32_t i = 0; i < p.nrecords; i++)
		if (!p.records[i].absorbed)
			counted += weight(&p, p.records[i].weights, 1, "samples");
	ck_assert_uint_eq(counted, 2 * (4 + 6));
	spaa_profile_release(&p);
}
END_TEST

START_TEST(test_errors_name_the_file)
{
	struct spaa_profile p;
	struct spaa_error err;

	put("reuse", "a.spaa", TESTUTIL_HEADER(EV("faults")) BODY("1", "1"));
	put("reuse", "b.spaa", TESTUTIL_HEADER(EV("faults"))
	    "{'type':'dso','id':1,'name':'/bin/a','is_kernel':false}\n"
	    "{'type':'frame','id':1,'func':'main','dso':1}\n"
	    "{'type':'frame','id':2,'func':'other','dso':1}\n"
	    "{'type':'stack','id':'s','frames':[1],'weights':[{'metric':'samples','value':1}]}\n"
	    "{'type':'stack','id':'s','frames':[2],'weights':[{'metric':'samples','value':1}]}\n");
	ck_assert_int_eq(load_dir(&p, "reuse", true, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.file, "b.spaa"));
	ck_assert_uint_eq(err.line, 6);
	ck_assert_str_eq(err.msg, "stack id 's' is reused with different frames (first defined on line 5)");
	spaa_profile_release(&p);
}
END_TEST

Suite *repeats_suite(void)
{
	Suite *s = suite_create("repeats");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_copies_fold_into_one);
	tcase_add_test(tc, test_what_stays_apart);
	tcase_add_test(tc, test_related_stacks);
	tcase_add_test(tc, test_errors_name_the_file);
	suite_add_tcase(s, tc);
	return s;
}
