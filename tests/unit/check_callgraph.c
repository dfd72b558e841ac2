/*
 * check_callgraph - immediate callers and callees (analysis/callgraph.h)
 * on a profile of four stacks, every edge weight worked out by hand:
 *
 *   s1  a -> b -> c       4     (root first)
 *   s2  a -> b -> a -> b  3     b's caller a twice: counted once
 *   s3  a                 1
 *   s4  b -> c -> c       2     c calling c is no edge
 */
#include <check.h>
#include <regex.h>
#include <string.h>

#include "analysis/callgraph.h"
#include "model/util.h"
#include "testutil.h"

Suite *callgraph_suite(void);

/* The profiles the tests load are files of a directory of their own. */
static void setup(void)
{
	testutil_tmpdir_setup("check_callgraph");
}

static void teardown(void)
{
	testutil_tmpdir_teardown();
}

static const char profile[] =
	TESTUTIL_HEADER("{'name':'cycles','kind':'hardware','sampling':{'mode':'period','primary_metric':'period'}}")
	"{'type':'dso','id':1,'name':'/bin/app','is_kernel':false}\n"
	"{'type':'frame','id':1,'func':'a','dso':1}\n"
	"{'type':'frame','id':2,'func':'b','dso':1}\n"
	"{'type':'frame','id':3,'func':'c','dso':1}\n"
	"{'type':'stack','id':'s1','frames':[3,2,1],'context':{'event':'cycles'},'weights':[{'metric':'period','value':4}]}\n"
	"{'type':'stack','id':'s2','frames':[2,1,2,1],'context':{'event':'cycles'},'weights':[{'metric':'period','value':3}]}\n"
	"{'type':'stack','id':'s3','frames':[1],'context':{'event':'cycles'},'weights':[{'metric':'period','value':1}]}\n"
	"{'type':'stack','id':'s4','frames':[3,3,2],'context':{'event':'cycles'},'weights':[{'metric':'period','value':2}]}\n";

/* The weight of edge (fn, other, side) by names; 0 when absent. */
static uint64_t edge(const struct spaa_callgraph *cg, const struct spaa_profile *p,
		     const char *fn, const char *other, uint32_t side)
{
	for (uint32_t i = 0; i < cg->edges.nr; i++) {
		const struct spaa_callgraph_edge *e = spaa_callgraph_edge(cg, i);

		if (e->side == side &&
		    !strcmp(spaa_profile_str(p, p->functions[e->fn].name), fn) &&
		    !strcmp(spaa_profile_str(p, p->functions[e->other].name), other))
			return cg->weight[i];
	}
	return 0;
}

static void add_records(struct spaa_callgraph *cg, const struct spaa_profile *p)
{
	struct spaa_error err;

	spaa_error_init(&err);
	for (uint32_t i = 0; i < p->nrecords; i++) {
		const struct spaa_record *r = &p->records[i];

		ck_assert_int_eq(spaa_callgraph_add(cg, spaa_profile_record_frames(p, r),
						    r->nframes, r->nweights ?
						    p->weight_pool[r->weights].value : 0, &err), 0);
	}
}

START_TEST(test_callers_and_callees)
{
	struct spaa_profile p;
	struct spaa_callgraph cg;
	regex_t b, c;

	testutil_load_quoted(&p, "calls.spaa", profile);
	ck_assert_int_eq(regcomp(&b, "^b$", REG_EXTENDED | REG_NOSUB), 0);
	ck_assert_int_eq(regcomp(&c, "c", REG_EXTENDED | REG_NOSUB), 0);
	spaa_callgraph_init(&cg, &p, &b, &c);
	ck_assert_uint_eq(cg.nchosen, 2);
	add_records(&cg, &p);
	/* callers of b: a in s1 (4) and s2 (3, once); s4 starts at b */
	ck_assert_uint_eq(edge(&cg, &p, "b", "a", SPAA_CALLGRAPH_CALLER), 7);
	/* callees of c: only c itself, which is no edge */
	ck_assert_uint_eq(edge(&cg, &p, "c", "c", SPAA_CALLGRAPH_CALLEE), 0);
	/* not asked: callees of b, callers of c */
	ck_assert_uint_eq(edge(&cg, &p, "b", "c", SPAA_CALLGRAPH_CALLEE), 0);
	ck_assert_uint_eq(edge(&cg, &p, "c", "b", SPAA_CALLGRAPH_CALLER), 0);
	ck_assert_uint_eq(cg.edges.nr, 1);
	spaa_callgraph_release(&cg);

	spaa_callgraph_init(&cg, &p, &c, &b);
	add_records(&cg, &p);
	/* callers of c: b in s1 (4) and s4 (2) */
	ck_assert_uint_eq(edge(&cg, &p, "c", "b", SPAA_CALLGRAPH_CALLER), 6);
	/* callees of b: c in s1 (4) and s4 (2); a in s2 (3) */
	ck_assert_uint_eq(edge(&cg, &p, "b", "c", SPAA_CALLGRAPH_CALLEE), 6);
	ck_assert_uint_eq(edge(&cg, &p, "b", "a", SPAA_CALLGRAPH_CALLEE), 3);
	ck_assert_uint_eq(cg.edges.nr, 3);
	spaa_callgraph_release(&cg);
	spaa_callgraph_release(&cg);    /* harmless twice */

	/* nothing chosen: nothing counted */
	spaa_callgraph_init(&cg, &p, NULL, NULL);
	add_records(&cg, &p);
	ck_assert_uint_eq(cg.nchosen, 0);
	ck_assert_uint_eq(cg.edges.nr, 0);
	spaa_callgraph_release(&cg);
	regfree(&b);
	regfree(&c);
	spaa_profile_release(&p);
}
END_TEST

START_TEST(test_overflow)
{
	struct spaa_profile p;
	struct spaa_callgraph cg;
	struct spaa_error err;
	regex_t b;
	const struct spaa_record *r;

	testutil_load_quoted(&p, "calls.spaa", profile);
	ck_assert_int_eq(regcomp(&b, "^b$", REG_EXTENDED | REG_NOSUB), 0);
	spaa_callgraph_init(&cg, &p, &b, NULL);
	spaa_error_init(&err);
	r = &p.records[0];
	ck_assert_int_eq(spaa_callgraph_add(&cg, spaa_profile_record_frames(&p, r),
					    r->nframes, UINT64_MAX, &err), 0);
	ck_assert_int_eq(spaa_callgraph_add(&cg, spaa_profile_record_frames(&p, r),
					    r->nframes, 1, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_LIMIT);
	spaa_callgraph_release(&cg);
	regfree(&b);
	spaa_profile_release(&p);
}
END_TEST

Suite *callgraph_suite(void)
{
	Suite *s = suite_create("callgraph");
	TCase *tc = tcase_create("callgraph");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_callers_and_callees);
	tcase_add_test(tc, test_overflow);
	suite_add_tcase(s, tc);
	return s;
}
