/*
 * check_svg - the pieces every picture shares: XML text, fitting,
 * human units, round steps, colours.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "report/svg.h"

Suite *svg_suite(void);

static char *text(const char *s, size_t n, size_t max)
{
	struct spaa_sbuf sb = { 0 };

	spaa_svg_text(&sb, s, n, max);
	return spaa_sbuf_detach(&sb);
}

START_TEST(test_svg_text_is_always_xml)
{
	static const struct { const char *in; size_t n; const char *out; } cases[] = {
		{ "a<b&c\"d'e>", 10, "a&lt;b&amp;c&quot;d&apos;e&gt;" },
		{ "t\x01\x1f\x7fz", 5, "t   z" },
		/* invalid bytes: U+FFFD each (maximal subparts) */
		{ "x\xff\xc3", 3, "x\xEF\xBF\xBD\xEF\xBF\xBD" },
		/* U+FFFE and U+FFFF are UTF-8 but not XML */
		{ "\xEF\xBF\xBE\xEF\xBF\xBF", 6, "\xEF\xBF\xBD\xEF\xBF\xBD" },
		{ "caf\xC3\xA9", 5, "caf\xC3\xA9" },
		{ "nul\0x", 5, "nul x" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = text(cases[i].in, cases[i].n, SIZE_MAX);

		ck_assert_msg(!strcmp(got, cases[i].out), "case %zu: %s", i, got);
		free(got);
	}
	/* max counts characters, not bytes */
	{
		char *got = text("\xC3\xA9\xC3\xA9<", 5, 2);

		ck_assert_str_eq(got, "\xC3\xA9\xC3\xA9");
		free(got);
	}
	ck_assert_uint_eq(spaa_svg_chars("\xC3\xA9x\xff", 4), 3);
}
END_TEST

START_TEST(test_svg_fit)
{
	struct spaa_sbuf sb = { 0 };

	/* 5 characters of 10 px fit in 50 px, not in 49: 4 - 2 and ".." */
	spaa_svg_fit(&sb, "hello", 5, 50, 10);
	ck_assert_str_eq(sb.s, "hello");
	sb.len = 0;
	spaa_svg_fit(&sb, "hello", 5, 49, 10);
	ck_assert_str_eq(sb.s, "he..");
	sb.len = 0;
	sb.s[0] = '\0';
	spaa_svg_fit(&sb, "hello", 5, 29, 10);
	ck_assert_str_eq(sb.s, "");
	free(sb.s);
}
END_TEST

START_TEST(test_svg_human)
{
	static const struct spaa_metrics_sem dur = { .cls = SPAA_METRICS_DURATION, .scale = 1 };
	static const struct spaa_metrics_sem size = { .cls = SPAA_METRICS_SIZE, .scale = 1 };
	static const struct spaa_metrics_sem num = { .cls = SPAA_METRICS_NUMBER, .scale = 1,
						     .unit = "J" };
	static const struct {
		const struct spaa_metrics_sem *sem;
		double v;
		const char *out;
	} cases[] = {
		{ &dur, 812, "812 ns" }, { &dur, 12345678, "12.3 ms" },
		{ &dur, 1e9, "1.00 s" }, { &dur, 999.6, "1.00 us" },
		{ &size, 1023, "1023 B" }, { &size, 4718592, "4.50 MiB" },
		{ NULL, 1234, "1234" }, { NULL, 12345, "12.3 k" },
		{ &num, 5, "5 J" }, { &num, 2.5e6, "2.50 MJ" },
	};
	struct spaa_sbuf sb = { 0 };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sb.len = 0;
		spaa_svg_human(&sb, cases[i].sem, cases[i].v);
		ck_assert_msg(!strcmp(sb.s, cases[i].out), "case %zu: %s", i, sb.s);
	}
	sb.len = 0;
	spaa_svg_signed_human(&sb, &dur, -1500);
	ck_assert_str_eq(sb.s, "-1.50 us");
	free(sb.s);
}
END_TEST

START_TEST(test_svg_step)
{
	/* the smallest of 1, 2, 5 x 10^k with span / step <= ticks */
	ck_assert(spaa_svg_step(8e9, 11) == 1e9);
	ck_assert(spaa_svg_step(8e9, 7) == 2e9);
	ck_assert(spaa_svg_step(5e8, 5) == 1e8);
	ck_assert(spaa_svg_step(3, 5) == 1);
	ck_assert(spaa_svg_step(0.5, 5) == 1);
	ck_assert(spaa_svg_step(0, 5) == 1);
	ck_assert(spaa_svg_step(26, 5) == 10);
	ck_assert(spaa_svg_step(1e19, 4) == 5e18);
}
END_TEST

START_TEST(test_svg_colours)
{
	struct spaa_svg_rgb a = spaa_svg_name_colour("main", 4);
	struct spaa_svg_rgb b = spaa_svg_name_colour("main", 4);
	struct spaa_svg_rgb red = spaa_svg_hsl(0, 1, 0.5), green = spaa_svg_hsl(120, 1, 0.5);
	struct spaa_sbuf sb = { 0 };

	ck_assert(a.r == b.r && a.g == b.g && a.b == b.b);
	ck_assert(red.r == 255 && red.g == 0 && red.b == 0);
	ck_assert(green.r == 0 && green.g == 255 && green.b == 0);
	spaa_svg_colour(&sb, (struct spaa_svg_rgb){ 1, 171, 255 });
	ck_assert_str_eq(sb.s, "#01abff");
	free(sb.s);
}
END_TEST

Suite *svg_suite(void)
{
	Suite *s = suite_create("svg");
	TCase *tc = tcase_create("svg");

	tcase_add_test(tc, test_svg_text_is_always_xml);
	tcase_add_test(tc, test_svg_fit);
	tcase_add_test(tc, test_svg_human);
	tcase_add_test(tc, test_svg_step);
	tcase_add_test(tc, test_svg_colours);
	suite_add_tcase(s, tc);
	return s;
}
