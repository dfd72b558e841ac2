/*
 * check_jsonw - the JSON writer against exact expected strings, in the
 * manner of git's t0019-json-writer.
 */
#include <check.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/jsonw.h"
#include "model/util.h"

Suite *jsonw_suite(void);

START_TEST(test_empty_containers)
{
	struct spaa_jsonw jw;

	spaa_jsonw_init(&jw);
	ck_assert_str_eq(jw.buf, "");
	ck_assert_uint_eq(jw.len, 0);
	spaa_jsonw_object_begin(&jw);
	spaa_jsonw_object_end(&jw);
	ck_assert_str_eq(jw.buf, "{}");
	spaa_jsonw_reset(&jw);
	spaa_jsonw_array_begin(&jw);
	spaa_jsonw_array_end(&jw);
	ck_assert_str_eq(jw.buf, "[]");
	ck_assert_uint_eq(jw.len, 2);
	spaa_jsonw_release(&jw);
	ck_assert_str_eq(jw.buf, "");
	spaa_jsonw_release(&jw);     /* releasing twice is harmless */
}
END_TEST

START_TEST(test_nested)
{
	struct spaa_jsonw jw;

	spaa_jsonw_init(&jw);
	spaa_jsonw_object_begin(&jw);
	spaa_jsonw_key(&jw, "a");
	spaa_jsonw_array_begin(&jw);
	spaa_jsonw_i64(&jw, 1);
	spaa_jsonw_i64(&jw, 2);
	spaa_jsonw_object_begin(&jw);
	spaa_jsonw_key(&jw, "b");
	spaa_jsonw_null(&jw);
	spaa_jsonw_object_end(&jw);
	spaa_jsonw_array_begin(&jw);
	spaa_jsonw_array_end(&jw);
	spaa_jsonw_object_begin(&jw);
	spaa_jsonw_object_end(&jw);
	spaa_jsonw_array_end(&jw);
	spaa_jsonw_kv_bool(&jw, "c", true);
	spaa_jsonw_kv_bool(&jw, "d", false);
	spaa_jsonw_key(&jw, "e");
	spaa_jsonw_object_begin(&jw);
	spaa_jsonw_key(&jw, "f");
	spaa_jsonw_array_begin(&jw);
	spaa_jsonw_string(&jw, "g");
	spaa_jsonw_array_end(&jw);
	spaa_jsonw_object_end(&jw);
	spaa_jsonw_object_end(&jw);
	ck_assert_str_eq(jw.buf,
		"{\"a\":[1,2,{\"b\":null},[],{}],\"c\":true,\"d\":false,"
		"\"e\":{\"f\":[\"g\"]}}");
	ck_assert_uint_eq(jw.len, strlen(jw.buf));
	spaa_jsonw_release(&jw);
}
END_TEST

START_TEST(test_max_depth)
{
	struct spaa_jsonw jw;
	char expect[2 * SPAA_JSONW_MAX_DEPTH + 1];
	int i;

	spaa_jsonw_init(&jw);
	for (i = 0; i < SPAA_JSONW_MAX_DEPTH; i++) {
		spaa_jsonw_array_begin(&jw);
		expect[i] = '[';
		expect[2 * SPAA_JSONW_MAX_DEPTH - 1 - i] = ']';
	}
	expect[2 * SPAA_JSONW_MAX_DEPTH] = '\0';
	for (i = 0; i < SPAA_JSONW_MAX_DEPTH; i++)
		spaa_jsonw_array_end(&jw);
	ck_assert_str_eq(jw.buf, expect);
	spaa_jsonw_release(&jw);
}
END_TEST

START_TEST(test_scalars)
{
	static const struct {
		int kind;       /* 0 i64, 1 u64, 2 bool, 3 null */
		int64_t i;
		uint64_t u;
		const char *expect;
	} cases[] = {
		{ 0, 0, 0, "0" },
		{ 0, -1, 0, "-1" },
		{ 0, INT64_MAX, 0, "9223372036854775807" },
		{ 0, INT64_MIN, 0, "-9223372036854775808" },
		{ 1, 0, 0, "0" },
		{ 1, 0, UINT64_MAX, "18446744073709551615" },
		{ 2, 1, 0, "true" },
		{ 2, 0, 0, "false" },
		{ 3, 0, 0, "null" },
	};
	struct spaa_jsonw jw;
	size_t i;

	spaa_jsonw_init(&jw);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		spaa_jsonw_reset(&jw);
		switch (cases[i].kind) {
		case 0: spaa_jsonw_i64(&jw, cases[i].i); break;
		case 1: spaa_jsonw_u64(&jw, cases[i].u); break;
		case 2: spaa_jsonw_bool(&jw, cases[i].i != 0); break;
		default: spaa_jsonw_null(&jw); break;
		}
		ck_assert_msg(!strcmp(jw.buf, cases[i].expect),
			      "case %zu: got '%s', want '%s'", i, jw.buf,
			      cases[i].expect);
	}
	spaa_jsonw_release(&jw);
}
END_TEST

/* Strings: input bytes, expected output in default and ASCII-only mode. */
static const struct {
	const char *in;
	size_t len;             /* 0: strlen(in) */
	const char *out;
	const char *ascii;      /* NULL: same as out */
} string_cases[] = {
	{ "", 0, "\"\"", NULL },
	{ "plain / text", 0, "\"plain / text\"", NULL },
	{ "a\"b", 0, "\"a\\\"b\"", NULL },
	{ "back\\slash", 0, "\"back\\\\slash\"", NULL },
	{ "\b\f\n\r\t", 0, "\"\\b\\f\\n\\r\\t\"", NULL },
	{ "\x01\x1f\x0b", 0, "\"\\u0001\\u001f\\u000b\"", NULL },
	{ "a\0b", 3, "\"a\\u0000b\"", NULL },
	{ "del\x7f", 0, "\"del\x7f\"", NULL },
	/* valid UTF-8 passes through unless ascii_only */
	{ "caf\xc3\xa9", 0, "\"caf\xc3\xa9\"", "\"caf\\u00e9\"" },
	{ "\xe2\x82\xac", 0, "\"\xe2\x82\xac\"", "\"\\u20ac\"" },
	{ "\xef\xbf\xbf", 0, "\"\xef\xbf\xbf\"", "\"\\uffff\"" },
	{ "\xf0\x9f\x98\x80", 0, "\"\xf0\x9f\x98\x80\"", "\"\\ud83d\\ude00\"" },
	{ "\xf4\x8f\xbf\xbf", 0, "\"\xf4\x8f\xbf\xbf\"", "\"\\udbff\\udfff\"" },
	{ "\xf0\x90\x80\x80", 0, "\"\xf0\x90\x80\x80\"", "\"\\ud800\\udc00\"" },
	/* Java line terminators: always escaped */
	{ "a\xe2\x80\xa8" "b", 0, "\"a\\u2028b\"", NULL },
	{ "\xe2\x80\xa9", 0, "\"\\u2029\"", NULL },
	{ "x\xc2\x85y", 0, "\"x\\u0085y\"", NULL },
	{ "\xc2\x84\xe2\x80\xaa", 0, "\"\xc2\x84\xe2\x80\xaa\"",
	  "\"\\u0084\\u202a\"" },
	/* invalid UTF-8: one U+FFFD per maximal subpart (as Python) */
	{ "\x80", 0, "\"\xef\xbf\xbd\"", "\"\\ufffd\"" },
	{ "\xc3", 0, "\"\xef\xbf\xbd\"", "\"\\ufffd\"" },
	{ "\xe2\x82" "A", 0, "\"\xef\xbf\xbd" "A\"", "\"\\ufffdA\"" },
	{ "\xe2\x82\xe2\x82\xac", 0, "\"\xef\xbf\xbd\xe2\x82\xac\"",
	  "\"\\ufffd\\u20ac\"" },
	{ "\xc0\x80", 0, "\"\xef\xbf\xbd\xef\xbf\xbd\"",
	  "\"\\ufffd\\ufffd\"" },
	{ "\xed\xa0\x80", 0, "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"",
	  "\"\\ufffd\\ufffd\\ufffd\"" },
	{ "\xe0\x80\x80", 0, "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"",
	  "\"\\ufffd\\ufffd\\ufffd\"" },
	{ "\xf4\x90\x80\x80", 0,
	  "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"",
	  "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },
	{ "\xf0\x9f\x98" "x", 0, "\"\xef\xbf\xbdx\"", "\"\\ufffdx\"" },
	{ "\xff\xfe", 0, "\"\xef\xbf\xbd\xef\xbf\xbd\"",
	  "\"\\ufffd\\ufffd\"" },
	{ "\xf8\x88\x80\x80\x80", 0,
	  "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"",
	  "\"\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\"" },
	{ "a\xf0\x9f\x98\x80\xf0\x9f", 0, "\"a\xf0\x9f\x98\x80\xef\xbf\xbd\"",
	  "\"a\\ud83d\\ude00\\ufffd\"" },
	/* a truncated sequence must not read past len */
	{ "\xe2\x82\xac", 2, "\"\xef\xbf\xbd\"", "\"\\ufffd\"" },
	{ "\"\xff\n", 0, "\"\\\"\xef\xbf\xbd\\n\"", "\"\\\"\\ufffd\\n\"" },
	/* long strings, read 8 bytes at a time: a special byte at every offset */
	{ "01234567\"9", 0, "\"01234567\\\"9\"", NULL },
	{ "0123456\\89abcdef", 0, "\"0123456\\\\89abcdef\"", NULL },
	{ "0123456789abcde\n", 0, "\"0123456789abcde\\n\"", NULL },
	{ "0123456789abcdef\x7f" "0123456789", 0,
	  "\"0123456789abcdef\x7f" "0123456789\"", NULL },
	{ "0123456\xc3\xa9" "89abcdef", 0, "\"0123456\xc3\xa9" "89abcdef\"",
	  "\"0123456\\u00e989abcdef\"" },
	{ "01234567\xe2\x80\xa8" "abcdefgh", 0, "\"01234567\\u2028abcdefgh\"", NULL },
	{ "0123456789abcdef\xe2\x82\xac", 18, "\"0123456789abcdef\xef\xbf\xbd\"",
	  "\"0123456789abcdef\\ufffd\"" },
	{ "0123456789abcdefXYZ", 17, "\"0123456789abcdefX\"", NULL },
};

START_TEST(test_string_escapes)
{
	struct spaa_jsonw jw;
	int ascii;

	spaa_jsonw_init(&jw);
	for (ascii = 0; ascii < 2; ascii++) {
		const char *want;
		size_t len;

		jw.ascii_only = ascii;
		spaa_jsonw_reset(&jw);
		len = string_cases[_i].len ? string_cases[_i].len
					   : strlen(string_cases[_i].in);
		spaa_jsonw_string_len(&jw, string_cases[_i].in, len);
		want = ascii && string_cases[_i].ascii ? string_cases[_i].ascii
						       : string_cases[_i].out;
		ck_assert_msg(!strcmp(jw.buf, want),
			      "case %d ascii=%d: got '%s', want '%s'", _i,
			      ascii, jw.buf, want);
		ck_assert_uint_eq(jw.len, strlen(want));
	}
	spaa_jsonw_release(&jw);
}
END_TEST

START_TEST(test_keys_escaped)
{
	struct spaa_jsonw jw;

	spaa_jsonw_init(&jw);
	spaa_jsonw_object_begin(&jw);
	spaa_jsonw_kv_string(&jw, "a\"b\n", "v\xe2\x80\xa8");
	spaa_jsonw_kv_string(&jw, "\xff", "");
	spaa_jsonw_object_end(&jw);
	ck_assert_str_eq(jw.buf,
		"{\"a\\\"b\\n\":\"v\\u2028\",\"\xef\xbf\xbd\":\"\"}");
	spaa_jsonw_release(&jw);
}
END_TEST

static const struct {
	int precision;
	double v;
	const char *expect;
} double_cases[] = {
	{ 15, 0.1, "0.1" },
	{ 15, 0.30000000000000004, "0.3" },
	{ 17, 0.1, "0.10000000000000001" },
	{ 15, 42.0, "42" },
	{ 15, -0.0, "-0" },
	{ 15, 1e20, "1e+20" },
	{ 15, -2.5e-7, "-2.5e-07" },
	{ 15, 1.0 / 3, "0.333333333333333" },
	{ 3, 3.14159, "3.14" },
	{ 1, 0.25, "0.2" },
	{ 15, 123456789012345678.0, "1.23456789012346e+17" },
	{ 15, 1e-320, "9.99988867182683e-321" },
	{ 17, 1.7976931348623157e308, "1.7976931348623157e+308" },
	{ 15, NAN, "null" },
	{ 15, INFINITY, "null" },
	{ 15, -INFINITY, "null" },
};

START_TEST(test_doubles)
{
	struct spaa_jsonw jw;

	spaa_jsonw_init(&jw);
	spaa_jsonw_double(&jw, double_cases[_i].precision, double_cases[_i].v);
	ck_assert_msg(!strcmp(jw.buf, double_cases[_i].expect),
		      "case %d: got '%s', want '%s'", _i, jw.buf,
		      double_cases[_i].expect);
	spaa_jsonw_release(&jw);
}
END_TEST

/*
 * A decimal comma (de_DE) or a two-byte decimal point (ps_AF, U+066B)
 * must still come out as ".".  Skipped where the locales are missing
 * (try LOCPATH= with localedef-built ones).
 */
START_TEST(test_doubles_locale)
{
	static const char *const locales[] = {
		"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "ps_AF.UTF-8",
	};
	struct spaa_jsonw jw;
	size_t i;

	spaa_jsonw_init(&jw);
	for (i = 0; i < sizeof(locales) / sizeof(locales[0]); i++) {
		if (!setlocale(LC_NUMERIC, locales[i]))
			continue;
		spaa_jsonw_reset(&jw);
		spaa_jsonw_array_begin(&jw);
		spaa_jsonw_double(&jw, 15, 0.5);
		spaa_jsonw_double(&jw, 15, -1234.25);
		spaa_jsonw_double(&jw, 15, 2.5e-7);
		spaa_jsonw_array_end(&jw);
		setlocale(LC_NUMERIC, "C");
		ck_assert_msg(!strcmp(jw.buf, "[0.5,-1234.25,2.5e-07]"),
			      "%s: got '%s'", locales[i], jw.buf);
	}
	setlocale(LC_NUMERIC, "C");
	spaa_jsonw_release(&jw);
}
END_TEST

START_TEST(test_kv_shorthands)
{
	struct spaa_jsonw jw;

	spaa_jsonw_init(&jw);
	spaa_jsonw_object_begin(&jw);
	spaa_jsonw_kv_string(&jw, "s", "x");
	spaa_jsonw_kv_i64(&jw, "i", -1);
	spaa_jsonw_kv_u64(&jw, "u", 18446744073709551615u);
	spaa_jsonw_kv_double(&jw, "d", 15, 1.5);
	spaa_jsonw_kv_double(&jw, "n", 15, NAN);
	spaa_jsonw_kv_bool(&jw, "b", true);
	spaa_jsonw_object_end(&jw);
	ck_assert_str_eq(jw.buf,
		"{\"s\":\"x\",\"i\":-1,\"u\":18446744073709551615,"
		"\"d\":1.5,\"n\":null,\"b\":true}");
	spaa_jsonw_release(&jw);
}
END_TEST

START_TEST(test_reset_reuse)
{
	struct spaa_jsonw jw;
	char *buf;

	spaa_jsonw_init(&jw);
	jw.ascii_only = true;
	spaa_jsonw_object_begin(&jw);
	spaa_jsonw_kv_string(&jw, "k", "\xc3\xa9");
	spaa_jsonw_object_end(&jw);
	ck_assert_str_eq(jw.buf, "{\"k\":\"\\u00e9\"}");
	buf = jw.buf;
	spaa_jsonw_reset(&jw);
	ck_assert_str_eq(jw.buf, "");
	ck_assert_ptr_eq(jw.buf, buf);  /* memory kept */
	ck_assert(jw.ascii_only);       /* mode kept */
	spaa_jsonw_array_begin(&jw);
	spaa_jsonw_string(&jw, "\xc3\xa9");
	spaa_jsonw_array_end(&jw);
	ck_assert_str_eq(jw.buf, "[\"\\u00e9\"]");
	spaa_jsonw_release(&jw);
	ck_assert(!jw.ascii_only);
	spaa_jsonw_string(&jw, "after release");
	ck_assert_str_eq(jw.buf, "\"after release\"");
	spaa_jsonw_release(&jw);
}
END_TEST

START_TEST(test_growth)
{
	enum { N = 100000 };
	struct spaa_jsonw jw;
	char *s = spaa_xmalloc(N + 1);
	size_t i;

	for (i = 0; i < N; i++)
		s[i] = i % 10 == 9 ? '\n' : 'a';
	s[N] = '\0';
	spaa_jsonw_init(&jw);
	spaa_jsonw_array_begin(&jw);
	for (i = 0; i < 3; i++)
		spaa_jsonw_string(&jw, s);
	spaa_jsonw_array_end(&jw);
	/* 3 strings of N + N/10 bytes, 6 quotes, 2 commas, 2 brackets */
	ck_assert_uint_eq(jw.len, 3 * (N + N / 10) + 10);
	ck_assert_uint_eq(strlen(jw.buf), jw.len);
	ck_assert_int_eq(jw.buf[0], '[');
	ck_assert_int_eq(jw.buf[jw.len - 1], ']');
	spaa_jsonw_release(&jw);
	free(s);
}
END_TEST

#ifndef NDEBUG
/* Misuse is caught by assert() (fork mode only, as the test aborts). */
START_TEST(test_die_value_without_key)
{
	struct spaa_jsonw jw;

	spaa_jsonw_init(&jw);
	spaa_jsonw_object_begin(&jw);
	spaa_jsonw_i64(&jw, 1);
}
END_TEST

START_TEST(test_die_unbalanced)
{
	struct spaa_jsonw jw;

	spaa_jsonw_init(&jw);
	spaa_jsonw_array_begin(&jw);
	spaa_jsonw_object_end(&jw);
}
END_TEST

START_TEST(test_die_two_top_level_values)
{
	struct spaa_jsonw jw;

	spaa_jsonw_init(&jw);
	spaa_jsonw_i64(&jw, 1);
	spaa_jsonw_i64(&jw, 2);
}
END_TEST

START_TEST(test_die_key_without_value)
{
	struct spaa_jsonw jw;

	spaa_jsonw_init(&jw);
	spaa_jsonw_object_begin(&jw);
	spaa_jsonw_key(&jw, "k");
	spaa_jsonw_object_end(&jw);
}
END_TEST

#endif

/*
 * An array written in pieces (spaa_jsonw_array_inside), each piece by a
 * writer of its own, concatenated between "[" and "]": exactly the text
 * one writer makes, for pieces of one, two and three elements and an
 * empty piece.
 */
START_TEST(test_array_inside)
{
	struct spaa_jsonw one, piece;
	struct spaa_jsonw *w;
	char text[256] = "[";
	size_t len = 1;
	int split[] = { 0, 1, 1, 3, 6 };        /* piece k: elements split[k]..split[k+1] */

	spaa_jsonw_init(&one);
	spaa_jsonw_init(&piece);
	spaa_jsonw_array_begin(&one);
	for (int k = 0; k < 4; k++) {
		spaa_jsonw_array_inside(&piece, k == 0);
		for (w = &one; w; w = w == &one ? &piece : NULL)
			for (int e = split[k]; e < split[k + 1]; e++) {
				spaa_jsonw_array_begin(w);
				spaa_jsonw_i64(w, e);
				spaa_jsonw_string(w, e % 2 ? "a\"b" : "");
				spaa_jsonw_array_end(w);
			}
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%s", piece.buf);
	}
	spaa_jsonw_array_end(&one);
	snprintf(text + len, sizeof(text) - len, "]");
	ck_assert_str_eq(one.buf, "[[0,\"\"],[1,\"a\\\"b\"],[2,\"\"],[3,\"a\\\"b\"],"
			 "[4,\"\"],[5,\"a\\\"b\"]]");
	ck_assert_str_eq(text, one.buf);
	/* a piece that does not start the array starts with a comma */
	spaa_jsonw_array_inside(&piece, false);
	spaa_jsonw_null(&piece);
	ck_assert_str_eq(piece.buf, ",null");
	spaa_jsonw_release(&piece);
	spaa_jsonw_release(&one);
}
END_TEST

Suite *jsonw_suite(void)
{
	Suite *s = suite_create("jsonw");
	TCase *tc = tcase_create("core");
	const char *fork = getenv("CK_FORK");

	tcase_add_test(tc, test_empty_containers);
	tcase_add_test(tc, test_nested);
	tcase_add_test(tc, test_max_depth);
	tcase_add_test(tc, test_scalars);
	tcase_add_loop_test(tc, test_string_escapes, 0,
			    sizeof(string_cases) / sizeof(string_cases[0]));
	tcase_add_test(tc, test_keys_escaped);
	tcase_add_loop_test(tc, test_doubles, 0,
			    sizeof(double_cases) / sizeof(double_cases[0]));
	tcase_add_test(tc, test_doubles_locale);
	tcase_add_test(tc, test_kv_shorthands);
	tcase_add_test(tc, test_reset_reuse);
	tcase_add_test(tc, test_growth);
	tcase_add_test(tc, test_array_inside);
	suite_add_tcase(s, tc);

#ifndef NDEBUG
	/* an abort would take a no-fork runner (valgrind runs) down with it */
	if (!fork || strcmp(fork, "no")) {
		TCase *die = tcase_create("misuse");

		tcase_add_test_raise_signal(die, test_die_value_without_key,
					    SIGABRT);
		tcase_add_test_raise_signal(die, test_die_unbalanced, SIGABRT);
		tcase_add_test_raise_signal(die, test_die_two_top_level_values,
					    SIGABRT);
		tcase_add_test_raise_signal(die, test_die_key_without_value,
					    SIGABRT);
		suite_add_tcase(s, die);
	}
#else
	(void)fork;
#endif
	return s;
}
