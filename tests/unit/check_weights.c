/*
 * check_weights - which weights an analysis reads (analysis/weights.h):
 * the event and metric asked for, with the errors that list what the
 * profile has; the twin "M-" of a split metric and net arithmetic; what
 * an analysis of one event leaves out.  The profile below has two
 * events; the expected values are read off its records by hand.
 */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "analysis/weights.h"
#include "formats/load.h"
#include "testutil.h"

Suite *weights_suite(void);

static void setup(void)
{
	testutil_tmpdir_setup("check_weights");
}

static void teardown(void)
{
	testutil_tmpdir_teardown();
}

#define EV(n, kind) "{\"name\":\"" n "\",\"kind\":\"" kind "\",\"sampling\":" \
	"{\"mode\":\"period\",\"primary_metric\":\"period\"}}"
#define STACK(id, ev, w) "{\"type\":\"stack\",\"id\":\"" id "\",\"frames\":[1]," \
	"\"context\":{\"event\":\"" ev "\"},\"weights\":[" w "]}\n"
#define W(m, v) "{\"metric\":\"" m "\",\"value\":" #v "}"
#define SAMPLE(ev) "{\"type\":\"sample\",\"timestamp\":1,\"stack_id\":\"a\"," \
	"\"event\":\"" ev "\"}\n"

/*
 * cycles: stacks a, b and 1 sample; instructions: stack c and 2 samples.
 * Metrics: cycles has period, zm and zm-; instructions period and ct.
 */
static const char profile[] =
	"{\"type\":\"header\",\"format\":\"spaa\",\"version\":\"1.0\","
	"\"source_tool\":\"perf\",\"frame_order\":\"leaf_to_root\","
	"\"stack_id_mode\":\"content_addressable\",\"events\":["
	EV("cycles", "hardware") "," EV("instructions", "software") "]}\n"
	"{\"type\":\"dso\",\"id\":1,\"name\":\"/bin/app\",\"is_kernel\":false}\n"
	"{\"type\":\"frame\",\"id\":1,\"func\":\"main\",\"dso\":1}\n"
	STACK("a", "cycles", W("period", 5) "," W("zm", 3))
	STACK("b", "cycles", W("period", 5) "," W("zm-", 2))
	STACK("c", "instructions", W("period", 5) "," W("ct", 1))
	SAMPLE("cycles") SAMPLE("instructions") SAMPLE("instructions");

static void load(struct spaa_profile *p)
{
	testutil_load(p, "two.spaa", profile);
	ck_assert_uint_eq(p->nevents, 2);
}

#define str testutil_str

START_TEST(test_left_out)
{
	struct spaa_weights_left_out cycles = { 0 }, insns = { 0 }, twice = { 0 };
	struct spaa_profile p;

	load(&p);
	spaa_weights_left_out_event(&cycles, &p, 0);
	ck_assert_uint_eq(cycles.records, 1);
	ck_assert_uint_eq(cycles.samples, 2);
	ck_assert_str_eq(cycles.events, "'instructions'");
	spaa_weights_left_out_event(&insns, &p, 1);
	ck_assert_uint_eq(insns.records, 2);
	ck_assert_uint_eq(insns.samples, 1);
	/* counts add up over calls (spaa-diff: both profiles) */
	spaa_weights_left_out_event(&twice, &p, 0);
	spaa_weights_left_out_event(&twice, &p, 1);
	ck_assert_uint_eq(twice.records, 3);
	ck_assert_uint_eq(twice.samples, 3);
	ck_assert_str_eq(twice.events, "'instructions', 'cycles'");
	/* once per event however often it is left out */
	spaa_weights_left_out_event(&twice, &p, 0);
	ck_assert_str_eq(twice.events, "'instructions', 'cycles'");
	spaa_profile_release(&p);
}
END_TEST

static const struct {
	const char *event, *metric;
	int rc;
	uint32_t want_event;
	const char *want_metric;        /* or the error's code and message */
	const char *code, *msg;
} select_cases[] = {
	{ NULL, NULL, 0, 0, "period", NULL, NULL },
	{ "instructions", NULL, 0, 1, "period", NULL, NULL },
	{ "instructions", "ct", 0, 1, "ct", NULL, NULL },
	{ "cycles", "zm-", 0, 0, "zm-", NULL, NULL },
	{ "branches", NULL, -1, 0, NULL, SPAA_E_USAGE,
	  "no event 'branches' in the profile (it has 'cycles', 'instructions')" },
	/* a metric of the other event only, and one named nowhere */
	{ "cycles", "ct", -1, 0, NULL, SPAA_E_USAGE,
	  "event 'cycles' has no metric 'ct' (it has 'period', 'zm', 'zm-')" },
	{ NULL, "bogus", -1, 0, NULL, SPAA_E_USAGE,
	  "event 'cycles' has no metric 'bogus' (it has 'period', 'zm', 'zm-')" },
};

START_TEST(test_select)
{
	struct spaa_profile p;
	struct spaa_error err;
	uint32_t ev = 99, m = 99;

	load(&p);
	spaa_error_init(&err);
	ck_assert_int_eq(spaa_weights_select(&p, select_cases[_i].event,
					     select_cases[_i].metric, &ev, &m, &err),
			 select_cases[_i].rc);
	if (select_cases[_i].rc) {
		ck_assert_str_eq(err.code, select_cases[_i].code);
		ck_assert_str_eq(err.msg, select_cases[_i].msg);
		ck_assert_str_eq(err.file, "");
	} else {
		ck_assert_uint_eq(ev, select_cases[_i].want_event);
		ck_assert_uint_eq(m, str(&p, select_cases[_i].want_metric));
	}
	spaa_profile_release(&p);
}
END_TEST

START_TEST(test_select_no_events)
{
	struct spaa_profile p;
	struct spaa_error err;
	uint32_t ev, m;

	spaa_profile_init(&p);
	spaa_error_init(&err);
	ck_assert_int_eq(spaa_weights_select(&p, NULL, NULL, &ev, &m, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_NO_DATA);
	ck_assert_str_eq(err.msg, "the profile declares no events");
	spaa_profile_release(&p);
}
END_TEST

START_TEST(test_twin_and_net)
{
	struct spaa_profile p;

	load(&p);
	ck_assert_uint_eq(spaa_weights_twin(&p, 0, str(&p, "zm")), str(&p, "zm-"));
	/* "zm-" exists, but not under instructions; "period-" nowhere */
	ck_assert_uint_eq(spaa_weights_twin(&p, 1, str(&p, "zm")), SPAA_NONE);
	ck_assert_uint_eq(spaa_weights_twin(&p, 0, str(&p, "period")), SPAA_NONE);
	spaa_profile_release(&p);

	ck_assert_int_eq(spaa_weights_net(5, 3), 2);
	ck_assert_int_eq(spaa_weights_net(3, 5), -2);
	ck_assert_int_eq(spaa_weights_net(UINT64_MAX, 0), INT64_MAX);
	ck_assert_int_eq(spaa_weights_net(0, UINT64_MAX), INT64_MIN);
	ck_assert_int_eq(spaa_weights_net(0, (uint64_t)1 << 63), INT64_MIN);
	/* keys order as the values do, negatives first */
	ck_assert(spaa_weights_net_key(-2) < spaa_weights_net_key(-1));
	ck_assert(spaa_weights_net_key(-1) < spaa_weights_net_key(0));
	ck_assert(spaa_weights_net_key(0) < spaa_weights_net_key(1));
	ck_assert(spaa_weights_net_key(INT64_MIN) < spaa_weights_net_key(INT64_MAX));
}
END_TEST

START_TEST(test_names)
{
	struct spaa_profile p;
	char buf[64];

	load(&p);
	ck_assert_str_eq(spaa_weights_event_list(&p, SPAA_WEIGHTS_ANY_KIND, buf,
						 sizeof(buf)),
			 "'cycles', 'instructions'");
	ck_assert_str_eq(spaa_weights_event_list(&p, SPAA_EV_SOFTWARE, buf,
						 sizeof(buf)), "'instructions'");
	ck_assert_str_eq(spaa_weights_event_list(&p, SPAA_EV_ALLOCATION, buf,
						 sizeof(buf)), "");
	spaa_profile_release(&p);
	ck_assert_int_eq(spaa_weights_describe(buf, sizeof(buf), "cycles", true,
					       "period"), 39);
	ck_assert_str_eq(buf, "event 'cycles', primary metric 'period'");
	spaa_weights_describe(buf, sizeof(buf), "e", false, "zm");
	ck_assert_str_eq(buf, "event 'e', metric 'zm'");
}
END_TEST

Suite *weights_suite(void)
{
	Suite *s = suite_create("weights");
	TCase *tc = tcase_create("weights");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_left_out);
	tcase_add_loop_test(tc, test_select, 0,
			    sizeof(select_cases) / sizeof(select_cases[0]));
	tcase_add_test(tc, test_select_no_events);
	tcase_add_test(tc, test_twin_and_net);
	tcase_add_test(tc, test_names);
	suite_add_tcase(s, tc);
	return s;
}
