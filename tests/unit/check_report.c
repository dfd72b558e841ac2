/*
 * report: what an analysis of one event leaves out (the note main writes
 * at the end of a run).  The profile below has two events; the expected
 * counts are read off its records by hand.
 */
#include <check.h>
#include <string.h>

#include "formats/load.h"
#include "report/report.h"
#include "testutil.h"

static void setup(void)
{
	testutil_tmpdir_setup("check_report");
}

static void teardown(void)
{
	testutil_tmpdir_teardown();
}

#define EV(n) "{\"name\":\"" n "\",\"kind\":\"hardware\",\"sampling\":" \
	"{\"mode\":\"period\",\"primary_metric\":\"period\"}}"
#define STACK(id, ev) "{\"type\":\"stack\",\"id\":\"" id "\",\"frames\":[1]," \
	"\"context\":{\"event\":\"" ev "\"},\"weights\":[{\"metric\":\"period\",\"value\":5}]}\n"
#define SAMPLE(ev) "{\"type\":\"sample\",\"timestamp\":1,\"stack_id\":\"a\"," \
	"\"event\":\"" ev "\"}\n"

/* cycles: stacks a, b and 1 sample; instructions: stack c and 2 samples */
static const char profile[] =
	"{\"type\":\"header\",\"format\":\"spaa\",\"version\":\"1.0\","
	"\"source_tool\":\"perf\",\"frame_order\":\"leaf_to_root\","
	"\"stack_id_mode\":\"content_addressable\",\"events\":["
	EV("cycles") "," EV("instructions") "]}\n"
	"{\"type\":\"dso\",\"id\":1,\"name\":\"/bin/app\",\"is_kernel\":false}\n"
	"{\"type\":\"frame\",\"id\":1,\"func\":\"main\",\"dso\":1}\n"
	STACK("a", "cycles") STACK("b", "cycles") STACK("c", "instructions")
	SAMPLE("cycles") SAMPLE("instructions") SAMPLE("instructions");

START_TEST(test_left_out)
{
	const char *path = testutil_write("two.spaa", profile, strlen(profile));
	struct spaa_load_opts o = { 0 };
	struct spaa_left_out cycles = { 0 }, insns = { 0 }, twice = { 0 };
	struct spaa_profile p;
	struct spaa_error err;

	spaa_profile_init(&p);
	spaa_error_init(&err);
	ck_assert_msg(!spaa_load(&p, &path, 1, &o, &err), "%s", err.msg);
	ck_assert_uint_eq(p.nevents, 2);
	spaa_report_left_out_event(&cycles, &p, 0);
	ck_assert_uint_eq(cycles.records, 1);
	ck_assert_uint_eq(cycles.samples, 2);
	spaa_report_left_out_event(&insns, &p, 1);
	ck_assert_uint_eq(insns.records, 2);
	ck_assert_uint_eq(insns.samples, 1);
	/* counts add up over calls (spaa-diff: both profiles) */
	spaa_report_left_out_event(&twice, &p, 0);
	spaa_report_left_out_event(&twice, &p, 1);
	ck_assert_uint_eq(twice.records, 3);
	ck_assert_uint_eq(twice.samples, 3);
	spaa_profile_release(&p);
}
END_TEST

Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("left_out");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_left_out);
	suite_add_tcase(s, tc);
	return s;
}
