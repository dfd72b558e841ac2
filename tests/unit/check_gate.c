/*
 * check_gate - --fail-if conditions: parsing, the noise bounds computed a
 * second way, verdicts.
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "analysis/gate.h"

Suite *gate_suite(void);

START_TEST(test_gate_parse)
{
	static const char *const texts[] = {
		"share+>2pp", "total+>10%", "hash_phase:share+>1.5pp", "a::b:share->0.25pp",
		"total->3%",
	};
	struct spaa_gate g;
	struct spaa_error err;

	spaa_error_init(&err);
	ck_assert_int_eq(spaa_gate_parse(&g, texts, 5, &err), 0);
	ck_assert_uint_eq(g.n, 5);
	ck_assert(g.conds[0].kind == SPAA_GATE_SHARE && g.conds[0].sign == 1 &&
		  fabs(g.conds[0].threshold - 0.02) < 1e-15 && !g.conds[0].has_name);
	ck_assert(g.conds[1].kind == SPAA_GATE_TOTAL && g.conds[1].sign == 1 &&
		  fabs(g.conds[1].threshold - 0.10) < 1e-15);
	ck_assert(g.conds[2].has_name && fabs(g.conds[2].threshold - 0.015) < 1e-15);
	ck_assert(spaa_gate_applies(&g.conds[2], "hash_phase.constprop.0"));
	ck_assert(!spaa_gate_applies(&g.conds[2], "hash"));
	ck_assert(!spaa_gate_applies(&g.conds[1], "hash_phase"));
	ck_assert(spaa_gate_applies(&g.conds[0], "anything"));
	/* the test follows the last colon: the name keeps its own */
	ck_assert(g.conds[3].sign == -1 && spaa_gate_applies(&g.conds[3], "ns::a::b"));
	ck_assert(!spaa_gate_applies(&g.conds[3], "a:b"));
	ck_assert(g.conds[4].kind == SPAA_GATE_TOTAL && g.conds[4].sign == -1);
	ck_assert_str_eq(g.conds[2].text, "hash_phase:share+>1.5pp");
	spaa_gate_release(&g);
	spaa_gate_release(&g);
}
END_TEST

START_TEST(test_gate_refusals)
{
	static const char *const bad[] = {
		"", "share", "share>2pp", "share+>2%", "total+>2pp", "share+>pp",
		"share+>-1pp", "share+>1e3pp", "x:total+>1%", "(:share+>1pp", "Share+>1pp",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct spaa_gate g;
		struct spaa_error err;

		spaa_error_init(&err);
		ck_assert_msg(spaa_gate_parse(&g, &bad[i], 1, &err) == -1, "%s", bad[i]);
		ck_assert_str_eq(err.code, SPAA_E_USAGE);
		ck_assert_ptr_nonnull(strstr(err.msg, "invalid '--fail-if' condition"));
		spaa_gate_release(&g);
	}
}
END_TEST

START_TEST(test_gate_noise)
{
	/*
	 * p = 0.5 of 100 samples on each side: variance 0.25 / 100 each, the
	 * delta's standard deviation sqrt(0.005) = 0.0707107, three of them
	 * 0.212132.  Totals of 100 and 400 samples: 3 sqrt(0.01 + 0.0025) =
	 * 3 x 0.111803 = 0.335410.
	 */
	ck_assert_double_eq_tol(spaa_gate_share_noise(0.5, 100, 0.5, 100), 0.2121320, 1e-6);
	ck_assert_double_eq_tol(spaa_gate_share_noise(0.1, 900, 0.0, 100), 0.03, 1e-12);
	ck_assert_double_eq_tol(spaa_gate_total_noise(100, 400), 0.3354102, 1e-6);
	/* no counts, no estimate */
	ck_assert(spaa_gate_share_noise(0.5, 0, 0.5, 100) == 0);
	ck_assert(spaa_gate_total_noise(100, 0) == 0);
}
END_TEST

START_TEST(test_gate_judge)
{
	static const char *const texts[] = { "share+>2pp", "share->2pp" };
	struct spaa_gate g;
	struct spaa_error err;

	spaa_error_init(&err);
	ck_assert_int_eq(spaa_gate_parse(&g, texts, 2, &err), 0);
	ck_assert(spaa_gate_judge(&g.conds[0], 0.02, 0) == SPAA_GATE_HELD);
	ck_assert(spaa_gate_judge(&g.conds[0], 0.021, 0.03) == SPAA_GATE_NOISE);
	ck_assert(spaa_gate_judge(&g.conds[0], 0.031, 0.03) == SPAA_GATE_TRIPPED);
	ck_assert(spaa_gate_judge(&g.conds[0], -0.5, 0) == SPAA_GATE_HELD);
	ck_assert(spaa_gate_judge(&g.conds[1], -0.5, 0.1) == SPAA_GATE_TRIPPED);
	ck_assert(spaa_gate_judge(&g.conds[1], 0.5, 0) == SPAA_GATE_HELD);
	ck_assert(spaa_gate_judge(&g.conds[0], NAN, 0) == SPAA_GATE_HELD);
	spaa_gate_release(&g);
}
END_TEST

Suite *gate_suite(void)
{
	Suite *s = suite_create("gate");
	TCase *tc = tcase_create("gate");

	tcase_add_test(tc, test_gate_parse);
	tcase_add_test(tc, test_gate_refusals);
	tcase_add_test(tc, test_gate_noise);
	tcase_add_test(tc, test_gate_judge);
	suite_add_tcase(s, tc);
	return s;
}
