/*
 * check_util - the word-at-a-time byte classes of the JSON scanners, the
 * sort with a context, the terminal cells of UTF-8 text, and doubles
 * written as printf writes them.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/util.h"

/*
 * Every byte value at every place of a word, the other bytes digits or
 * every other value: the first flagged byte is the first one the byte
 * test refuses.
 */
START_TEST(test_swar_first_flag_is_exact)
{
	static const unsigned char fillers[] = { '0', '9', 'a', 0x00, 0x2f, 0x3a, 0xff };

	for (size_t f = 0; f < sizeof(fillers); f++)
		for (int at = 0; at < 8; at++)
			for (int b = 0; b < 256; b++) {
				unsigned char bytes[8];
				uint64_t w, m;
				size_t want = 8;

				memset(bytes, '5', sizeof(bytes));
				bytes[at] = (unsigned char)b;
				for (int j = at + 1; j < 8; j++)
					bytes[j] = fillers[f];
				for (int j = 0; j < 8 && want == 8; j++)
					if (bytes[j] < '0' || bytes[j] > '9')
						want = (size_t)j;
				memcpy(&w, bytes, sizeof(w));
				m = spaa_swar_nondigit(w);
				ck_assert_uint_eq(m ? spaa_swar_first(m) : 8, want);

				want = 8;
				for (int j = 0; j < 8 && want == 8; j++)
					if (bytes[j] == '"' || bytes[j] == '\\' || bytes[j] < 0x20 ||
					    bytes[j] > 0x7f)
						want = (size_t)j;
				m = spaa_swar_special(w);
				ck_assert_uint_eq(m ? spaa_swar_first(m) : 8, want);
			}
}
END_TEST

struct item {
	int key;
	char tag;
};

/* By key, ascending or (ctx: a nonzero int) descending; tags never compared. */
static int by_key(const void *a, const void *b, const void *ctx)
{
	int x = ((const struct item *)a)->key, y = ((const struct item *)b)->key;
	int c = x < y ? -1 : x > y;

	return *(const int *)ctx ? -c : c;
}

START_TEST(test_sort_stable_with_context)
{
	/* 11 items: runs of 1, 2, 4, 8 merged, and a last run left over */
	static const struct item in[] = {
		{ 3, 'a' }, { 1, 'b' }, { 3, 'c' }, { 2, 'd' }, { 1, 'e' },
		{ 5, 'f' }, { 3, 'g' }, { 0, 'h' }, { 2, 'i' }, { 5, 'j' },
		{ 1, 'k' },
	};
	enum { N = sizeof(in) / sizeof(in[0]) };
	/* equal keys keep the order they came in */
	static const char up[] = "hbekdiacgfj", down[] = "fjacgdibekh";
	struct item r[N];
	char got[N + 1];
	int desc;

	for (desc = 0; desc < 2; desc++) {
		memcpy(r, in, sizeof(in));
		spaa_sort(r, N, sizeof(r[0]), by_key, &desc);
		for (int i = 0; i < N; i++)
			got[i] = r[i].tag;
		got[N] = '\0';
		ck_assert_str_eq(got, desc ? down : up);
	}
	/* nothing and one item: left as they are */
	desc = 0;
	spaa_sort(r, 0, sizeof(r[0]), by_key, &desc);
	memcpy(r, in, sizeof(in[0]));
	spaa_sort(r, 1, sizeof(r[0]), by_key, &desc);
	ck_assert_int_eq(r[0].key, 3);
	ck_assert_int_eq(r[0].tag, 'a');
}
END_TEST

/* The cells a terminal (xterm, VTE) gives each string. */
static const struct {
	const char *s;
	size_t cells;
} cells[] = {
	{ "", 0 },
	{ "abc", 3 },
	{ "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 6 },         /* 日本語 */
	{ "\xea\xb0\x80", 2 },                                  /* U+AC00 Hangul */
	{ "\xef\xbc\xa1", 2 },                                  /* U+FF21 fullwidth A */
	{ "\xf0\x9f\x98\x80", 2 },                              /* U+1F600 emoji */
	{ "\xf0\xa0\x80\x80", 2 },                              /* U+20000 CJK ext. B */
	{ "e\xcc\x81", 1 },                                      /* e + combining acute */
	{ "a\xe2\x80\x8d" "b", 2 },                              /* zero width joiner */
	{ "\xe2\x80\xa6", 1 },                                  /* … */
	{ "\xc3\xa9t\xc3\xa9", 3 },
	{ "\xff" "a\xe6\x97", 3 },                               /* invalid: one each */
};

START_TEST(test_utf8_cells)
{
	ck_assert_uint_eq(spaa_utf8_cells(cells[_i].s, strlen(cells[_i].s)), cells[_i].cells);
}
END_TEST


/*
 * spaa_format_double's "%.*g" against the C library's (the test runs in
 * the C locale), at every precision: values at and beside powers of ten
 * and of two (where the exponent or the rounding turns), halfway cases
 * (rounded to even), ratios of integers as tables write them, random
 * doubles of every magnitude (some outside what the own conversion takes),
 * and a buffer too small.
 */
static void format_like_printf(double v, int precision)
{
	char want[400], got[400];
	size_t n;

	snprintf(want, sizeof(want), "%.*g", precision, v);
	n = spaa_format_double(got, sizeof(got), 'g', precision, v);
	ck_assert_msg(!strcmp(got, want), "%%.%dg of %a: '%s', printf '%s'",
		      precision, v, got, want);
	ck_assert_uint_eq(n, strlen(want));
}

static uint64_t next_random(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

START_TEST(test_format_double_like_printf)
{
	static const double fixed[] = {
		0.0, -0.0, 1, -1, 0.5, 1.5, 2.5, 0.25, 0.125, 0.375, 0.1, 0.2, 0.3,
		1.0 / 3, 2.0 / 3, -2.0 / 3, 1e-4, 1e-5, 9.5e-5, 0.00015, 123456789012345.0,
		999999999999999.4, 999999999999999.5, 99999999999999.95, 0.999999999999999,
		0.9999999999999999, 0.99999999999999994, 12345.678901234567, 1e15, 1e16,
		1e17, 1e20, 1e300, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
		0.0235666535087915, 0.0292060252706109, 3.0517578125e-05,
	};
	char small[6];
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	for (int p = 1; p <= 17; p++) {
		for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
			format_like_printf(fixed[i], p);
		for (int e = -22; e <= 20; e++) {
			double t = pow(10, e);

			format_like_printf(t, p);
			format_like_printf(nextafter(t, 0), p);
			format_like_printf(nextafter(t, INFINITY), p);
			/* 5 in the first digit dropped: ties and their neighbours */
			for (int d = 1; d <= 9; d++) {
				format_like_printf((d + 0.5) * t, p);
				format_like_printf(-(d + 0.5) * t, p);
			}
		}
		for (int e = -80; e <= 60; e++) {
			format_like_printf(ldexp(1, e), p);
			format_like_printf(ldexp(3, e), p);
			format_like_printf(ldexp(0x1fffffffffffffULL, e - 53), p);
		}
	}
	for (int i = 0; i < 40000; i++) {
		uint64_t a = next_random(&x) >> (next_random(&x) % 64);
		uint64_t b = next_random(&x) >> (next_random(&x) % 64);
		uint64_t bits = next_random(&x);
		double r, d;
		int p = i % 17 + 1;

		if (!b)
			continue;
		r = a <= b ? (double)a / (double)b : (double)b / (double)a;
		format_like_printf(r, p);
		format_like_printf(r, 15);
		memcpy(&d, &bits, sizeof(d));
		if (isfinite(d))
			format_like_printf(d, p);
		/* magnitudes where the own conversion works, 1e-25 to 1e20 */
		d = ldexp((double)(bits >> 11) / 9007199254740992.0, (int)(bits % 150) - 84);
		format_like_printf(d, p);
		format_like_printf(d, 15);
	}
	/* truncated as snprintf truncates "0.0235666535087915" */
	ck_assert_uint_eq(spaa_format_double(small, sizeof(small), 'g', 15, 0.0235666535087915), 5);
	ck_assert_str_eq(small, "0.023");
	ck_assert_uint_eq(spaa_format_double(small, 0, 'g', 15, 0.5), 0);
}
END_TEST

Suite *util_suite(void)
{
	Suite *s = suite_create("util");
	TCase *tc = tcase_create("swar");

	tcase_add_test(tc, test_swar_first_flag_is_exact);
	suite_add_tcase(s, tc);
	tc = tcase_create("sort");
	tcase_add_test(tc, test_sort_stable_with_context);
	suite_add_tcase(s, tc);
	tc = tcase_create("utf8");
	tcase_add_loop_test(tc, test_utf8_cells, 0, sizeof(cells) / sizeof(cells[0]));
	suite_add_tcase(s, tc);
	tc = tcase_create("format");
	tcase_add_test(tc, test_format_double_like_printf);
	suite_add_tcase(s, tc);
	return s;
}
