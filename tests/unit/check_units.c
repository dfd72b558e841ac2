/*
 * check_units - durations and decimals from the command line: exact
 * nanoseconds for every unit and fraction, strict rejection of anything
 * else, and the writer that puts durations back into titles.
 */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "model/units.h"

Suite *units_suite(void);

static const struct {
	const char *text;
	int64_t ns;
} good_durations[] = {
	{ "10ms", 10000000 }, { "2s", 2000000000 }, { "500us", 500000 },
	{ "7ns", 7 }, { "0s", 0 }, { "1.5s", 1500000000 },
	{ "0.001s", 1000000 }, { "2.048ms", 2048000 }, { "1.000000001s", 1000000001 },
	{ "1.5000us", 1500 },          /* trailing zeros within the ns are fine */
	{ "9223372036854775807ns", INT64_MAX },
	{ "9223372036.854775807s", INT64_MAX },
	{ "3\xc2\xb5s", 3000 },          /* micro sign U+00B5 */
	{ "2.5\xce\xbcs", 2500 },        /* Greek mu U+03BC */
};

static const char *const bad_durations[] = {
	"", "10", "ms", "10 ms", " 10ms", "10ms ", "-1s", "+1s", "1e3ns", "1.s",
	".5s", "1.5ns", "0.0000000001s", "10m", "10MS", "1,5s", "10msx",
	"9223372036854775808ns", "9223372037s", "99999999999999999999s",
	"3\xc2\xb5", "3\xb5s", "3\xc2\xb5ss", "3\xce\xbc",        /* broken mu */
};

START_TEST(test_duration_good)
{
	int64_t ns = -1;

	ck_assert_int_eq(spaa_units_parse_duration(good_durations[_i].text, &ns), 0);
	ck_assert_int_eq(ns, good_durations[_i].ns);
}
END_TEST

START_TEST(test_duration_bad)
{
	int64_t ns = 42;

	ck_assert_int_eq(spaa_units_parse_duration(bad_durations[_i], &ns), -1);
	ck_assert_int_eq(ns, 42);       /* untouched on failure */
}
END_TEST

START_TEST(test_decimal)
{
	double v = -1;

	ck_assert_int_eq(spaa_units_parse_decimal("0.05", &v), 0);
	ck_assert(v == 0.05);
	ck_assert_int_eq(spaa_units_parse_decimal("1", &v), 0);
	ck_assert(v == 1.0);
	ck_assert_int_eq(spaa_units_parse_decimal("0", &v), 0);
	ck_assert(v == 0.0);
	v = 7;
	ck_assert_int_eq(spaa_units_parse_decimal("-0.5", &v), -1);
	ck_assert_int_eq(spaa_units_parse_decimal("1e3", &v), -1);
	ck_assert_int_eq(spaa_units_parse_decimal("nan", &v), -1);
	ck_assert_int_eq(spaa_units_parse_decimal("inf", &v), -1);
	ck_assert_int_eq(spaa_units_parse_decimal(".5", &v), -1);
	ck_assert_int_eq(spaa_units_parse_decimal("5.", &v), -1);
	ck_assert_int_eq(spaa_units_parse_decimal("", &v), -1);
	ck_assert_int_eq(spaa_units_parse_decimal("0x10", &v), -1);
	ck_assert(v == 7);
}
END_TEST

START_TEST(test_format)
{
	static const struct {
		int64_t ns;
		const char *text;
	} cases[] = {
		{ 100000000, "100ms" }, { 1500000000, "1.5s" }, { 2048000, "2.048ms" },
		{ 999, "999ns" }, { 0, "0ns" }, { 1000, "1us" }, { 1000000001, "1.000000001s" },
		{ 60000000000, "60s" },
	};
	char buf[32];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_str_eq(spaa_units_format_duration(cases[i].ns, buf, sizeof(buf)),
				 cases[i].text);
		/* what is written parses back to the same value */
		if (cases[i].ns) {
			int64_t ns;

			ck_assert_int_eq(spaa_units_parse_duration(buf, &ns), 0);
			ck_assert_int_eq(ns, cases[i].ns);
		}
	}
}
END_TEST

Suite *units_suite(void)
{
	Suite *s = suite_create("units");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_duration_good, 0,
			    sizeof(good_durations) / sizeof(good_durations[0]));
	tcase_add_loop_test(tc, test_duration_bad, 0,
			    sizeof(bad_durations) / sizeof(bad_durations[0]));
	tcase_add_test(tc, test_decimal);
	tcase_add_test(tc, test_format);
	suite_add_tcase(s, tc);
	return s;
}
