/*
 * check_profile - the model (model/profile.h): interning merges what is
 * the same (DSOs by name, build id and kernel flag; functions by name
 * and DSO; threads by pid and tid), the pools hand out offsets, totals
 * refuse to overflow, the time span grows, releasing the stacks keeps
 * the names, and the kernel DSO names perf uses are told apart.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/load.h"
#include "model/profile.h"
#include "testutil.h"

Suite *profile_suite(void);

static void setup(void)
{
	testutil_tmpdir_setup("check_profile");
}

static void teardown(void)
{
	testutil_tmpdir_teardown();
}

static uint32_t s(struct spaa_profile *p, const char *str)
{
	return spaa_strtab_intern(&p->strings, str, strlen(str));
}

START_TEST(test_interning)
{
	struct spaa_profile p;
	uint32_t d1, d2, d3, f1, f2;

	spaa_profile_init(&p);
	d1 = spaa_profile_intern_dso(&p, s(&p, "/bin/a"), 0, false);
	ck_assert_uint_eq(spaa_profile_intern_dso(&p, s(&p, "/bin/a"), 0, false), d1);
	d2 = spaa_profile_intern_dso(&p, s(&p, "/bin/a"), s(&p, "abcd"), false);
	d3 = spaa_profile_intern_dso(&p, s(&p, "/bin/a"), 0, true);
	ck_assert(d1 != d2 && d2 != d3 && d1 != d3);
	ck_assert_uint_eq(spaa_profile_ndsos(&p), 3);
	f1 = spaa_profile_intern_function(&p, s(&p, "main"), d1);
	f2 = spaa_profile_intern_function(&p, s(&p, "main"), d2);
	ck_assert(f1 != f2);
	ck_assert_uint_eq(spaa_profile_intern_function(&p, s(&p, "main"), d1), f1);
	ck_assert_uint_eq(spaa_profile_nfunctions(&p), 2);
	ck_assert_uint_eq(spaa_profile_intern_thread(&p, 1, 2),
			  spaa_profile_intern_thread(&p, 1, 2));
	ck_assert_uint_eq(spaa_profile_find_thread(&p, 1, 2), 0);
	ck_assert_uint_eq(spaa_profile_find_thread(&p, 2, 1), SPAA_NONE);
	ck_assert_uint_eq(spaa_profile_nthreads(&p), 1);
	ck_assert_str_eq(spaa_profile_str(&p, p.functions[f2].name), "main");
	spaa_profile_release(&p);
	spaa_profile_release(&p);       /* harmless twice */
}
END_TEST

START_TEST(test_pools_and_totals)
{
	static const uint32_t frames[] = { 4, 5, 6 };
	struct spaa_weight w[2] = { { 0, 0, 7 }, { 0, 0, 9 } };
	struct spaa_profile p;
	uint64_t v;

	spaa_profile_init(&p);
	ck_assert_uint_eq(spaa_profile_add_frames(&p, frames, 3), 0);
	ck_assert_uint_eq(spaa_profile_add_frames(&p, frames, 2), 3);
	ck_assert_uint_eq(p.frame_pool[4], 5);
	w[0].metric = s(&p, "period");
	w[1].metric = s(&p, "samples");
	w[1].unit = s(&p, "count");
	ck_assert_uint_eq(spaa_profile_add_weights(&p, w, 2), 0);
	ck_assert(spaa_profile_weights_get(&p, 0, 2, s(&p, "samples"), &v) && v == 9);
	ck_assert(!spaa_profile_weights_get(&p, 0, 2, s(&p, "cycles"), &v));
	ck_assert_uint_eq(spaa_profile_weights_unit(&p, 0, 2, s(&p, "samples")),
			  s(&p, "count"));
	ck_assert_uint_eq(spaa_profile_weights_unit(&p, 0, 2, s(&p, "period")), 0);

	ck_assert_int_eq(spaa_profile_add_total(&p, 0, w[0].metric, UINT64_MAX - 1), 0);
	ck_assert_int_eq(spaa_profile_add_total(&p, 0, w[0].metric, 1), 0);
	/* one more overflows: refused, the total left as it was */
	ck_assert_int_eq(spaa_profile_add_total(&p, 0, w[0].metric, 1), -1);
	ck_assert_uint_eq(spaa_profile_total(&p, 0, w[0].metric), UINT64_MAX);
	ck_assert_uint_eq(spaa_profile_total(&p, 1, w[0].metric), 0);

	ck_assert(!p.has_time);
	spaa_profile_cover_time(&p, 50, 60);
	spaa_profile_cover_time(&p, 40, 45);
	spaa_profile_cover_time(&p, 55, 70);
	ck_assert(p.has_time && p.time_start == 40 && p.time_end == 70);
	spaa_profile_release(&p);
}
END_TEST

static const char two_stacks[] =
	TESTUTIL_HEADER("{'name':'cycles','kind':'hardware','sampling':{'mode':'period','primary_metric':'period'}},"
			"{'name':'faults','kind':'software','sampling':{'mode':'period','primary_metric':'period'}}")
	"{'type':'dso','id':1,'name':'/bin/app','is_kernel':false}\n"
	"{'type':'frame','id':1,'func':'main','dso':1}\n"
	"{'type':'frame','id':2,'func':'work','dso':1}\n"
	"{'type':'stack','id':'s1','frames':[2,1],'context':{'event':'cycles'},'weights':[{'metric':'period','value':3}]}\n"
	"{'type':'stack','id':'s2','frames':[1],'context':{'event':'cycles'},'weights':[{'metric':'period','value':4}]}\n";

START_TEST(test_release_stacks_keeps_names)
{
	struct spaa_profile p;

	testutil_load_quoted(&p, "two.spaa", two_stacks);
	ck_assert_uint_eq(spaa_profile_find_event(&p, "faults"), 1);
	ck_assert_uint_eq(spaa_profile_find_event(&p, "branches"), SPAA_NONE);
	ck_assert_uint_eq(p.nstacks, 2);
	ck_assert_uint_eq(p.nrecords, 2);
	spaa_profile_release_stacks(&p);
	ck_assert_uint_eq(p.nstacks, 0);
	ck_assert_uint_eq(p.nrecords, 0);
	ck_assert_uint_eq(p.nframe_pool, 0);
	ck_assert_uint_eq(spaa_profile_nfunctions(&p), 2);
	ck_assert_str_eq(spaa_profile_str(&p, p.functions[1].name), "work");
	ck_assert_uint_eq(spaa_profile_total(&p, 0, testutil_str(&p, "period")), 7);
	spaa_profile_release(&p);
}
END_TEST

/*
 * A cleared model reads a file into what a new one does: every entry,
 * in the same order (the models of ahead.h are cleared and reused).
 */
START_TEST(test_clear_is_new)
{
	struct spaa_profile p;
	struct spaa_sbuf first = { 0 }, again = { 0 };
	struct spaa_load_opts o = { 0 };        /* as testutil_load's */
	struct spaa_error err;
	const char *path;

	testutil_load_quoted(&p, "two.spaa", two_stacks);
	path = testutil_path("two.spaa");
	testutil_dump_model(&first, &p);
	for (int i = 0; i < 2; i++) {
		spaa_profile_clear(&p);
		ck_assert_uint_eq(p.strings.nr, 1);
		ck_assert_uint_eq(spaa_profile_ndsos(&p) + spaa_profile_nfunctions(&p) +
				  spaa_profile_nthreads(&p) + p.nfiles + p.nevents + p.nstacks +
				  p.nrecords + p.nframe_pool + p.nweight_pool + p.totals.nr, 0);
		spaa_error_init(&err);
		ck_assert_msg(!spaa_load(&p, &path, 1, &o, &err), "%s", err.msg);
		free(again.s);
		again = (struct spaa_sbuf){ 0 };
		testutil_dump_model(&again, &p);
		ck_assert_str_eq(again.s, first.s);
	}
	free(first.s);
	free(again.s);
	spaa_profile_release(&p);
}
END_TEST

START_TEST(test_kernel_dso)
{
	static const char *const kernel[] = {
		"[kernel.kallsyms]", "[kernel.vmlinux]", "/proc/kallsyms", "[nvidia.ko]",
	};
	static const char *const user[] = {
		"", "/bin/app", "[vdso]", "[unknown]", "kernel", "[x.ko", "libko]",
	};

	for (size_t i = 0; i < sizeof(kernel) / sizeof(kernel[0]); i++)
		ck_assert_msg(spaa_profile_kernel_dso(kernel[i]), "%s", kernel[i]);
	for (size_t i = 0; i < sizeof(user) / sizeof(user[0]); i++)
		ck_assert_msg(!spaa_profile_kernel_dso(user[i]), "%s", user[i]);
	ck_assert(!spaa_profile_kernel_dso(NULL));
}
END_TEST

Suite *profile_suite(void)
{
	Suite *s = suite_create("profile");
	TCase *tc = tcase_create("profile");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_interning);
	tcase_add_test(tc, test_pools_and_totals);
	tcase_add_test(tc, test_release_stacks_keeps_names);
	tcase_add_test(tc, test_kernel_dso);
	tcase_add_test(tc, test_clear_is_new);
	suite_add_tcase(s, tc);
	return s;
}
