/*
 * compare: a baseline reduced before the target is loaded (struct
 * spaa_compare_base) keeps what spaa-diff compares.  The profile below has
 * two events; every expected value is read off its records by hand:
 *
 *   stack  frames (root first)     event        samples  period  exclusive
 *   a      main, compute           cycles       3        30      compute 30
 *   b      main, parse, memcpy     cycles       2        20      -
 *   c      main, parse             page-faults  1        5       -
 *   d      main, compute           cycles       1        10      -
 *
 * Functions are interned as their frames are read (main, parse, memcpy,
 * compute), so their keys are 1 to 4 in that order (0 is the empty key).
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "formats/load.h"
#include "testutil.h"

static void setup(void)
{
	testutil_tmpdir_setup("check_compare");
}

static void teardown(void)
{
	testutil_tmpdir_teardown();
}

#define EV(n) "{\"name\":\"" n "\",\"kind\":\"hardware\",\"sampling\":" \
	"{\"mode\":\"period\",\"primary_metric\":\"period\"}}"
#define FRAME(id, fn, dso) "{\"type\":\"frame\",\"id\":" #id ",\"func\":\"" fn \
	"\",\"dso\":" #dso "}\n"
#define STACK(id, frames, ev, n, w, excl) "{\"type\":\"stack\",\"id\":\"" id \
	"\",\"frames\":[" frames "],\"context\":{\"event\":\"" ev "\"}," \
	"\"weights\":[{\"metric\":\"samples\",\"value\":" #n "}," \
	"{\"metric\":\"period\",\"value\":" #w "}]" excl "}\n"

static const char profile[] =
	"{\"type\":\"header\",\"format\":\"spaa\",\"version\":\"1.0\","
	"\"source_tool\":\"perf\",\"frame_order\":\"leaf_to_root\","
	"\"stack_id_mode\":\"content_addressable\",\"events\":["
	EV("cycles") "," EV("page-faults") "]}\n"
	"{\"type\":\"dso\",\"id\":1,\"name\":\"/bin/app\",\"is_kernel\":false}\n"
	"{\"type\":\"dso\",\"id\":2,\"name\":\"/lib/libc.so.6\",\"is_kernel\":false}\n"
	FRAME(1, "main", 1) FRAME(2, "parse", 1) FRAME(3, "memcpy", 2)
	FRAME(4, "compute", 1)
	STACK("a", "4,1", "cycles", 3, 30,
	      ",\"exclusive\":{\"frame\":4,\"weights\":[{\"metric\":\"period\",\"value\":30}]}")
	STACK("b", "3,2,1", "cycles", 2, 20, "")
	STACK("c", "2,1", "page-faults", 1, 5, "")
	STACK("d", "4,1", "cycles", 1, 10, "");

enum { MAIN = 1, PARSE, MEMCPY, COMPUTE };

static void load(struct spaa_profile *p)
{
	testutil_load(p, "two.spaa", profile);
}

START_TEST(test_base_every_event)
{
	static const char *const map_items[] = { "/bin/app=/opt/app" };
	struct spaa_profile p;
	struct spaa_compare_keys k;
	struct spaa_compare_base b;
	struct spaa_compare_side side;
	struct spaa_compare_choice *c;
	struct spaa_error err;
	char list[64];
	char *name;

	load(&p);
	spaa_compare_keys_init(&k, map_items, 1);
	spaa_compare_base_init(&b, &k, &p, NULL, NULL, NULL);
	spaa_profile_release(&p);

	ck_assert_uint_eq(b.nevents, 2);
	ck_assert_str_eq(spaa_compare_base_event_list(&b, list, sizeof(list)),
			 "'cycles', 'page-faults'");
	ck_assert_uint_eq(b.nchoices, 2);
	/* the baseline's DSOs are renamed, in profile order */
	ck_assert_uint_eq(spaa_compare_nfunctions(&k), 5);
	ck_assert_str_eq(spaa_compare_function_name(&k, MAIN), "main");
	ck_assert_str_eq(spaa_compare_function_dso(&k, MAIN), "/opt/app");
	ck_assert_str_eq(spaa_compare_function_name(&k, MEMCPY), "memcpy");
	ck_assert_str_eq(spaa_compare_function_dso(&k, MEMCPY), "/lib/libc.so.6");
	ck_assert_str_eq(spaa_compare_function_name(&k, COMPUTE), "compute");

	/* NULL asks for the first event */
	c = spaa_compare_base_choice(&b, NULL);
	ck_assert_ptr_eq(c, &b.choices[0]);
	ck_assert(!c->unselectable && !c->overflows);
	ck_assert_str_eq(c->event, "cycles");
	ck_assert_str_eq(c->metric, "period");
	ck_assert(c->primary);
	ck_assert_uint_eq(c->left_out.records, 1);      /* c */
	ck_assert_uint_eq(c->left_out.samples, 0);
	ck_assert_uint_eq(c->sum.total, 60);
	ck_assert(c->sum.samples_known);
	ck_assert_uint_eq(c->sum.samples, 6);
	ck_assert_uint_eq(spaa_compare_get(&c->sum.fn_self, COMPUTE), 40);
	ck_assert_uint_eq(spaa_compare_get(&c->sum.fn_self, MEMCPY), 20);
	ck_assert_uint_eq(spaa_compare_get(&c->sum.fn_self, MAIN), 0);
	ck_assert_uint_eq(spaa_compare_get(&c->sum.fn_total, MAIN), 60);
	ck_assert_uint_eq(spaa_compare_get(&c->sum.fn_total, PARSE), 20);
	ck_assert_uint_eq(spaa_compare_get(&c->sum.fn_total, COMPUTE), 40);
	/* a and d are one path, met first */
	ck_assert_uint_eq(c->sum.paths.nr, 3);
	ck_assert_uint_eq(spaa_compare_get(&c->sum.path, 1), 40);
	ck_assert_uint_eq(spaa_compare_get(&c->sum.path, 2), 20);
	ck_assert_uint_eq(spaa_compare_npaths(&k), 1);      /* no path key yet */

	c = spaa_compare_base_choice(&b, "page-faults");
	ck_assert_ptr_eq(c, &b.choices[1]);
	ck_assert_str_eq(c->event, "page-faults");
	ck_assert_uint_eq(c->left_out.records, 3);      /* a, b, d */
	ck_assert_uint_eq(c->sum.total, 5);
	ck_assert_uint_eq(spaa_compare_get(&c->sum.fn_self, PARSE), 5);
	ck_assert_uint_eq(spaa_compare_get(&c->sum.fn_total, MEMCPY), 0);

	/* taken: path keys in the order of the sum, the sum released */
	spaa_error_init(&err);
	spaa_compare_side_init(&side, true);
	c = spaa_compare_base_choice(&b, "cycles");
	ck_assert_int_eq(spaa_compare_side_take_sum(&side, &k, &c->sum, &err), 0);
	ck_assert_uint_eq(c->sum.paths.nr, 0);
	ck_assert_uint_eq(side.total, 60);
	ck_assert_uint_eq(side.samples, 6);
	ck_assert_uint_eq(spaa_compare_get(&side.fn_total, MAIN), 60);
	ck_assert_uint_eq(spaa_compare_npaths(&k), 3);
	name = spaa_compare_path_name(&k, 1);
	ck_assert_str_eq(name, "main;compute");
	free(name);
	name = spaa_compare_path_name(&k, 2);
	ck_assert_str_eq(name, "main;parse;memcpy");
	free(name);
	ck_assert_uint_eq(spaa_compare_get(&side.path, 1), 40);
	ck_assert_uint_eq(spaa_compare_get(&side.path, 2), 20);

	spaa_compare_side_release(&side);
	spaa_compare_base_release(&b);
	spaa_compare_keys_release(&k);
}
END_TEST

/*
 * The baseline reduced through a filter: --focus parse keeps cycles'
 * stack b only (3,2,1: 20), --ignore memcpy leaves a and d (40).
 */
START_TEST(test_base_filtered)
{
	struct spaa_profile p;
	struct spaa_compare_keys k;
	struct spaa_compare_base b;
	struct spaa_filter f;
	const struct spaa_compare_choice *c;

	load(&p);
	spaa_compare_keys_init(&k, NULL, 0);
	spaa_filter_init(&f);
	ck_assert_int_eq(spaa_filter_set_focus(&f, "^parse$"), 0);
	spaa_compare_base_init(&b, &k, &p, "cycles", NULL, &f);
	c = spaa_compare_base_choice(&b, "cycles");
	ck_assert_uint_eq(c->sum.total, 20);
	ck_assert_uint_eq(spaa_compare_get(&c->sum.fn_self, MEMCPY), 20);
	ck_assert_uint_eq(spaa_compare_get(&c->sum.fn_self, COMPUTE), 0);
	spaa_compare_base_release(&b);
	spaa_filter_release(&f);

	spaa_filter_init(&f);
	ck_assert_int_eq(spaa_filter_set_ignore(&f, "memcpy"), 0);
	spaa_compare_base_init(&b, &k, &p, "cycles", NULL, &f);
	c = spaa_compare_base_choice(&b, "cycles");
	ck_assert_uint_eq(c->sum.total, 40);
	ck_assert_uint_eq(spaa_compare_get(&c->sum.fn_self, COMPUTE), 40);
	ck_assert_uint_eq(spaa_compare_get(&c->sum.fn_total, PARSE), 0);
	spaa_compare_base_release(&b);
	spaa_filter_release(&f);

	spaa_compare_keys_release(&k);
	spaa_profile_release(&p);
}
END_TEST

START_TEST(test_base_unselectable)
{
	struct spaa_profile p;
	struct spaa_compare_keys k;
	struct spaa_compare_base b;
	const struct spaa_compare_choice *c;

	load(&p);
	spaa_compare_keys_init(&k, NULL, 0);

	/* an event it lacks: one choice, the error of selecting it */
	spaa_compare_base_init(&b, &k, &p, "instructions", NULL, NULL);
	ck_assert_uint_eq(b.nchoices, 1);
	c = spaa_compare_base_choice(&b, "instructions");
	ck_assert(c->unselectable);
	ck_assert_str_eq(c->event, "instructions");
	ck_assert_str_eq(c->err.code, SPAA_E_USAGE);
	ck_assert_str_eq(c->err.file, "");
	ck_assert_str_eq(c->err.msg,
			 "no event 'instructions' in the profile (it has 'cycles', 'page-faults')");
	spaa_compare_base_release(&b);

	/* a metric it lacks: each event's choice says so */
	spaa_compare_base_init(&b, &k, &p, NULL, "bytes", NULL);
	ck_assert_uint_eq(b.nchoices, 2);
	c = spaa_compare_base_choice(&b, "page-faults");
	ck_assert(c->unselectable);
	ck_assert_str_eq(c->err.msg,
			 "event 'page-faults' has no metric 'bytes' (it has 'samples', 'period')");
	spaa_compare_base_release(&b);

	spaa_compare_keys_release(&k);
	spaa_profile_release(&p);
}
END_TEST

/*
 * The deltas of one row, by hand: B = 11, T = 16 (ns, scale 1), the row
 * b = t = 3.  Raw delta 0; normalized 3 - 3 * 16/11 = -15/11; share
 * delta 3/16 - 3/11 = -15/176; relative (share) -15/11 / (48/11) = -5/16,
 * (raw) 0.  b = 0, t = 5: relative unknown either way.
 */
START_TEST(test_compute)
{
	const struct spaa_metrics_sem ns = { SPAA_METRICS_DURATION, 1, "" };
	struct spaa_compare c;
	struct spaa_compare_delta d;
	struct spaa_error err;

	spaa_error_init(&err);
	ck_assert_int_eq(spaa_compare_init(&c, SPAA_COMPARE_TOTAL, &ns, 11, &ns, 16, &err), 0);
	ck_assert_int_eq(c.mode, SPAA_COMPARE_SHARE);      /* total is share */
	spaa_compare_compute(&c, 3, 3, &d);
	ck_assert(d.base == 3 && d.target == 3 && d.raw == 0);
	ck_assert_double_eq_tol(d.normalized, -15.0 / 11, 1e-12);
	ck_assert(d.delta == d.normalized);
	ck_assert_double_eq_tol(d.share_delta, -15.0 / 176, 1e-15);
	ck_assert_double_eq_tol(d.relative, -5.0 / 16, 1e-15);
	spaa_compare_compute(&c, 0, 5, &d);
	ck_assert(d.raw == 5 && isnan(d.relative));

	ck_assert_int_eq(spaa_compare_init(&c, SPAA_COMPARE_NONE, &ns, 11, &ns, 16, &err), 0);
	spaa_compare_compute(&c, 3, 3, &d);
	ck_assert(d.raw == 0 && d.delta == 0 && d.relative == 0);
	ck_assert_double_eq_tol(d.normalized, -15.0 / 11, 1e-12);
	spaa_compare_compute(&c, 2, 7, &d);
	ck_assert(d.raw == 5 && d.delta == 5 && d.relative == 2.5);

	ck_assert_int_eq(spaa_compare_default(SPAA_EV_ALLOCATION), SPAA_COMPARE_NONE);
	ck_assert_int_eq(spaa_compare_default(SPAA_EV_TIMER), SPAA_COMPARE_SHARE);
	ck_assert_int_eq(spaa_compare_default(SPAA_EV_HARDWARE), SPAA_COMPARE_SHARE);
}
END_TEST

/*
 * Renamed binaries, by hand.  Baseline: /bin/old holds a, b, c, d
 * (stacks a<-b 10, c<-d 5), /lib/x holds f (1).  Target: /bin/new holds
 * a, b, c, e (a<-b 20, c<-e 7), /lib/y holds g (2).  Each DSO has weight
 * on one side only.  old and new share a, b, c: 3 of 4 names, more than
 * half and at least 3, so they pair; x {f} and y {g} share none.
 */
#define ONE_EVENT(dsos, frames, stacks) \
	"{\"type\":\"header\",\"format\":\"spaa\",\"version\":\"1.0\"," \
	"\"source_tool\":\"perf\",\"frame_order\":\"leaf_to_root\"," \
	"\"stack_id_mode\":\"content_addressable\",\"events\":[" EV("cycles") "]}\n" \
	dsos frames stacks
#define DSO(id, name) "{\"type\":\"dso\",\"id\":" #id ",\"name\":\"" name "\",\"is_kernel\":false}\n"

static void side_of(struct spaa_compare_side *s, struct spaa_compare_keys *k,
		    const char *name, const char *text)
{
	struct spaa_profile p;
	struct spaa_aggregate a;
	struct spaa_error err;
	uint32_t ev, m;

	spaa_error_init(&err);
	testutil_load(&p, name, text);
	ck_assert_int_eq(spaa_weights_select(&p, NULL, NULL, &ev, &m, &err), 0);
	spaa_aggregate_init(&a, &p);
	a.path_by_function = true;
	ck_assert_int_eq(spaa_aggregate_add_records(&a, ev, m, NULL, &err), 0);
	ck_assert_int_eq(spaa_compare_side_add_agg(s, k, &a, &err), 0);
	spaa_aggregate_release(&a);
	spaa_profile_release(&p);
}

START_TEST(test_pair_dsos)
{
	static const char base[] = ONE_EVENT(DSO(1, "/bin/old") DSO(2, "/lib/x"),
		FRAME(1, "a", 1) FRAME(2, "b", 1) FRAME(3, "c", 1) FRAME(4, "d", 1)
		FRAME(5, "f", 2),
		STACK("s1", "2,1", "cycles", 1, 10, "") STACK("s2", "4,3", "cycles", 1, 5, "")
		STACK("s3", "5", "cycles", 1, 1, ""));
	static const char target[] = ONE_EVENT(DSO(1, "/bin/new") DSO(2, "/lib/y"),
		FRAME(1, "a", 1) FRAME(2, "b", 1) FRAME(3, "c", 1) FRAME(4, "e", 1)
		FRAME(5, "g", 2),
		STACK("t1", "2,1", "cycles", 1, 20, "") STACK("t2", "4,3", "cycles", 1, 7, "")
		STACK("t3", "5", "cycles", 1, 2, ""));
	struct spaa_compare_keys k;
	struct spaa_compare_side b, t;
	struct spaa_compare_dsos d;
	struct spaa_error err;
	uint32_t a_old, a_new, matched = 0;

	for (int apply = 0; apply < 2; apply++) {
		spaa_compare_keys_init(&k, NULL, 0);
		spaa_compare_side_init(&b, true);
		spaa_compare_side_init(&t, false);
		side_of(&b, &k, "old.spaa", base);
		side_of(&t, &k, "new.spaa", target);
		a_old = 1;      /* the baseline's first function */
		ck_assert_str_eq(spaa_compare_function_dso(&k, a_old), "/bin/old");
		ck_assert_int_eq(spaa_compare_pair_dsos(&k, &b, &t, apply, &d, &err), 0);
		ck_assert_uint_eq(d.npairs, 1);
		ck_assert_str_eq(d.pairs[0].from, "/bin/old");
		ck_assert_str_eq(d.pairs[0].to, "/bin/new");
		ck_assert_uint_eq(d.pairs[0].common, 3);
		ck_assert_uint_eq(d.pairs[0].nfrom, 4);
		ck_assert_uint_eq(d.pairs[0].nto, 4);
		ck_assert_uint_eq(d.nbase, 1);
		ck_assert_str_eq(d.only_base[0], "/lib/x");
		ck_assert_uint_eq(d.ntarget, 1);
		ck_assert_str_eq(d.only_target[0], "/lib/y");
		/* a of /bin/new: the target's, which the baseline's joins */
		a_new = 0;
		for (uint32_t key = 1; key < spaa_compare_nfunctions(&k); key++)
			if (!strcmp(spaa_compare_function_name(&k, key), "a") &&
			    !strcmp(spaa_compare_function_dso(&k, key), "/bin/new"))
				a_new = key;
		ck_assert_uint_ne(a_new, 0);
		ck_assert_uint_eq(spaa_compare_get(&t.fn_total, a_new), 20);
		ck_assert_uint_eq(spaa_compare_get(&b.fn_total, a_new), apply ? 10 : 0);
		ck_assert_uint_eq(spaa_compare_get(&b.fn_total, a_old), apply ? 0 : 10);
		ck_assert_uint_eq(spaa_compare_get(&b.fn_self, a_new), 0);     /* a is no leaf */
		/* a<-b is one path of both sides once paired; c<-d, c<-e are not */
		matched = 0;
		for (uint32_t p = 1; p < spaa_compare_npaths(&k); p++)
			matched += spaa_compare_get(&b.path, p) && spaa_compare_get(&t.path, p);
		ck_assert_uint_eq(matched, apply ? 1 : 0);
		ck_assert_uint_eq(b.total, 16);
		spaa_compare_dsos_release(&d);
		spaa_compare_side_release(&b);
		spaa_compare_side_release(&t);
		spaa_compare_keys_release(&k);
	}
}
END_TEST

Suite *compare_suite(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tcase_create("base");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_base_every_event);
	tcase_add_test(tc, test_base_filtered);
	tcase_add_test(tc, test_base_unselectable);
	tcase_add_test(tc, test_compute);
	tcase_add_test(tc, test_pair_dsos);
	suite_add_tcase(s, tc);
	return s;
}
