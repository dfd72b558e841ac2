/*
 * Unit tests for common/io/json.c.
 *
 * Every parse goes through parse_exact(), which copies the text into a
 * heap block of exactly len bytes with no terminator, so a read past
 * text + len is caught by ASan or valgrind instead of hitting a NUL.
 * Valid documents are checked through a canonical dump of the tree;
 * cJSON serves as the independent second parser for realistic lines
 * and for mutated lines.
 */
#include <check.h>
#include <cJSON.h>
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/json.h"
#include "model/sbuf.h"
#include "model/util.h"

Suite *json_suite(void);

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------------ */
/* helpers */

struct parsed {
	struct spaa_json_parser *p;
	char *buf;              /* exact-size copy of the text */
	const struct spaa_json_value *v;
	struct spaa_json_error e;
};

static const struct spaa_json_value *parse_exact(struct parsed *pz,
					    const char *text, size_t len)
{
	if (!pz->p)
		pz->p = spaa_json_parser_new();
	free(pz->buf);
	pz->buf = spaa_xmalloc(len);
	memcpy(pz->buf, text, len);
	memset(&pz->e, 0, sizeof(pz->e));
	pz->v = spaa_json_parse(pz->p, pz->buf, len, &pz->e);
	return pz->v;
}

static void parsed_done(struct parsed *pz)
{
	spaa_json_parser_free(pz->p);
	free(pz->buf);
	memset(pz, 0, sizeof(*pz));
}

static void sb_addc(struct spaa_sbuf *sb, char c)
{
	spaa_sbuf_add(sb, &c, 1);
}

static void dump_string(struct spaa_sbuf *sb, const char *s, size_t n)
{
	size_t i;
	char hex[8];

	sb_addc(sb, '"');
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\') {
			sb_addc(sb, '\\');
			sb_addc(sb, (char)c);
		} else if (c < 0x20) {
			snprintf(hex, sizeof(hex), "\\u%04x", c);
			spaa_sbuf_add(sb, hex, 6);
		} else {
			sb_addc(sb, (char)c);
		}
	}
	sb_addc(sb, '"');
}

/*
 * Canonical compact form of a tree; also checks the invariants every
 * value must satisfy (container counts, NUL terminators, keys only in
 * objects).
 */
static void dump(struct spaa_sbuf *sb, const struct spaa_json_value *v, int in_object)
{
	const struct spaa_json_value *c;
	size_t n = 0;

	if (in_object) {
		ck_assert_ptr_nonnull(v->key);
		ck_assert_int_eq(v->key[v->key_len], '\0');
		dump_string(sb, v->key, v->key_len);
		sb_addc(sb, ':');
	} else {
		ck_assert_ptr_null(v->key);
		ck_assert_uint_eq(v->key_len, 0);
	}
	switch (v->type) {
	case SPAA_JSON_NULL:
		spaa_sbuf_add(sb, "null", 4);
		break;
	case SPAA_JSON_TRUE:
		spaa_sbuf_add(sb, "true", 4);
		break;
	case SPAA_JSON_FALSE:
		spaa_sbuf_add(sb, "false", 5);
		break;
	case SPAA_JSON_NUMBER:
		ck_assert_uint_gt(v->len, 0);
		spaa_sbuf_add(sb, v->str, v->len);
		break;
	case SPAA_JSON_STRING:
		ck_assert_int_eq(v->str[v->len], '\0');
		dump_string(sb, v->str, v->len);
		break;
	case SPAA_JSON_ARRAY:
	case SPAA_JSON_OBJECT:
		sb_addc(sb, v->type == SPAA_JSON_ARRAY ? '[' : '{');
		for (c = v->child; c; c = c->next) {
			if (n++)
				sb_addc(sb, ',');
			dump(sb, c, v->type == SPAA_JSON_OBJECT);
		}
		ck_assert_uint_eq(n, v->len);
		sb_addc(sb, v->type == SPAA_JSON_ARRAY ? ']' : '}');
		break;
	default:
		ck_abort_msg("bad type %d", (int)v->type);
	}
}

/* Parses text (which must be valid) and returns the number value. */
static const struct spaa_json_value *parse_number_text(struct parsed *pz,
						  const char *text)
{
	const struct spaa_json_value *v = parse_exact(pz, text, strlen(text));

	ck_assert_msg(v, "'%s' did not parse: %s", text, pz->e.msg);
	ck_assert_int_eq(v->type, SPAA_JSON_NUMBER);
	return v;
}

/* ------------------------------------------------------------------ */
/* valid documents */

static const struct {
	const char *in;
	const char *dump;
} valid_cases[] = {
	{ "null", "null" },
	{ "true", "true" },
	{ "false", "false" },
	{ " 0 ", "0" },
	{ "-0", "-0" },
	{ "1.5e+10", "1.5e+10" },
	{ "-1E-2", "-1E-2" },
	{ "0.0", "0.0" },
	{ "123456789012345678901234567890", "123456789012345678901234567890" },
	{ "\"\"", "\"\"" },
	{ "[]", "[]" },
	{ "{}", "{}" },
	{ " [ 1 , 2 ] ", "[1,2]" },
	{ "\t\r\n{\"a\" : \"b\"}\n", "{\"a\":\"b\"}" },
	{ "{\"a\":1,\"b\":[true,false,null],\"c\":{}}",
	  "{\"a\":1,\"b\":[true,false,null],\"c\":{}}" },
	{ "[[[]],[{}]]", "[[[]],[{}]]" },
	{ "{\"\":0}", "{\"\":0}" },
	{ "[1e5,0.25,-0.5e-0,1E+2]", "[1e5,0.25,-0.5e-0,1E+2]" },
	{ "{\"a\":1,\"a\":2}", "{\"a\":1,\"a\":2}" },
	{ "[\"\\u00e9\",\"x\\ty\"]", "[\"\xc3\xa9\",\"x\\u0009y\"]" },
	{ "{\"k\\\"ey\":\"v\"}", "{\"k\\\"ey\":\"v\"}" },
	{ "[ ]", "[]" },
	{ "{ }", "{}" },
	{ "[null , true ,false]", "[null,true,false]" },
	{ "\"\x7f\"", "\"\x7f\"" },
};

START_TEST(test_valid)
{
	struct parsed pz = { 0 };
	struct spaa_sbuf sb = { 0 };
	const char *in = valid_cases[_i].in;

	ck_assert_msg(parse_exact(&pz, in, strlen(in)),
		      "'%s' failed at %zu: %s", in, pz.e.offset, pz.e.msg);
	dump(&sb, pz.v, 0);
	ck_assert_str_eq(sb.s, valid_cases[_i].dump);
	free(sb.s);
	parsed_done(&pz);
}
END_TEST

/* ------------------------------------------------------------------ */
/* errors: message and offset */

#define E_EOI "unexpected end of input"
#define E_TRAIL "trailing characters after JSON value"
#define E_NUM "invalid number"
#define E_UNTERM "unterminated string"
#define E_ESC "invalid escape"
#define E_UESC "invalid \\u escape"
#define E_LONE "lone surrogate in \\u escape"
#define E_CTRL "control character in string"
#define E_UTF8 "invalid UTF-8 in string"

static const struct {
	const char *in;
	size_t len;             /* 0: strlen(in) */
	size_t offset;
	const char *msg;
} error_cases[] = {
	/* empty */
	{ "", 0, 0, "empty input" },
	{ "   ", 0, 3, "empty input" },
	{ "\n\t\r ", 0, 4, "empty input" },
	/* structure */
	{ "x", 0, 0, "unexpected character 'x'" },
	{ "[1,]", 0, 3, "unexpected character ']'" },
	{ "[,1]", 0, 1, "unexpected character ','" },
	{ "{,}", 0, 1, "unexpected character ','" },
	{ "{\"a\"}", 0, 4, "unexpected character '}'" },
	{ "{\"a\" 1}", 0, 5, "unexpected character '1'" },
	{ "{1:2}", 0, 1, "unexpected character '1'" },
	{ "{'a':2}", 0, 1, "unexpected character '''" },
	{ "[1 2]", 0, 3, "unexpected character '2'" },
	{ "{\"a\":1,}", 0, 7, "unexpected character '}'" },
	{ "{\"a\":1 \"b\":2}", 0, 7, "unexpected character '\"'" },
	{ "[1}", 0, 2, "unexpected character '}'" },
	{ "{\"a\":1]", 0, 6, "unexpected character ']'" },
	{ "[}", 0, 1, "unexpected character '}'" },
	{ "{]", 0, 1, "unexpected character ']'" },
	{ "[1,,2]", 0, 3, "unexpected character ','" },
	{ "[", 0, 1, E_EOI },
	{ "[ ", 0, 2, E_EOI },
	{ "[1", 0, 2, E_EOI },
	{ "[1,", 0, 3, E_EOI },
	{ "[1, ", 0, 4, E_EOI },
	{ "{", 0, 1, E_EOI },
	{ "{\"a\"", 0, 4, E_EOI },
	{ "{\"a\" ", 0, 5, E_EOI },
	{ "{\"a\":", 0, 5, E_EOI },
	{ "{\"a\":1", 0, 6, E_EOI },
	{ "{\"a\":1,", 0, 7, E_EOI },
	{ "[[[]]", 0, 5, E_EOI },
	/* literals */
	{ "tru", 0, 3, E_EOI },
	{ "nul", 0, 3, E_EOI },
	{ "fals", 0, 4, E_EOI },
	{ "[t", 0, 2, E_EOI },
	{ "trux", 0, 3, "unexpected character 'x'" },
	{ "True", 0, 0, "unexpected character 'T'" },
	{ "nan", 0, 1, "unexpected character 'a'" },
	{ "NaN", 0, 0, "unexpected character 'N'" },
	{ "Infinity", 0, 0, "unexpected character 'I'" },
	{ "[fals e]", 0, 5, "unexpected character ' '" },
	{ "truefalse", 0, 4, E_TRAIL },
	{ "[truex]", 0, 5, "unexpected character 'x'" },
	/* numbers */
	{ "+1", 0, 0, "unexpected character '+'" },
	{ ".5", 0, 0, "unexpected character '.'" },
	{ "01", 0, 0, E_NUM },
	{ "-01", 0, 0, E_NUM },
	{ "00", 0, 0, E_NUM },
	{ "-", 0, 0, E_NUM },
	{ "- 1", 0, 0, E_NUM },
	{ "-a", 0, 0, E_NUM },
	{ "1.", 0, 0, E_NUM },
	{ "1.e5", 0, 0, E_NUM },
	{ "1e", 0, 0, E_NUM },
	{ "1e+", 0, 0, E_NUM },
	{ "1E-x", 0, 0, E_NUM },
	{ "[1.]", 0, 1, E_NUM },
	{ "{\"a\":-}", 0, 5, E_NUM },
	{ "0x10", 0, 1, E_TRAIL },
	{ "1x", 0, 1, E_TRAIL },
	{ "1.5.3", 0, 3, E_TRAIL },
	{ "[1x]", 0, 2, "unexpected character 'x'" },
	{ "[-1.5e3e]", 0, 7, "unexpected character 'e'" },
	/* trailing */
	{ "1 2", 0, 2, E_TRAIL },
	{ "{} x", 0, 3, E_TRAIL },
	{ "[]]", 0, 2, E_TRAIL },
	{ "\"a\"\"b\"", 0, 3, E_TRAIL },
	{ "null\n\n,", 0, 6, E_TRAIL },
	/* bytes outside strings */
	{ "\xc3\xa9", 0, 0, "unexpected byte 0xc3" },
	{ "[\x01]", 0, 1, "unexpected byte 0x01" },
	{ "\0", 1, 0, "unexpected byte 0x00" },
	{ "[1]\0", 4, 3, E_TRAIL },
	{ "\v1", 0, 0, "unexpected byte 0x0b" },
	{ "\f1", 0, 0, "unexpected byte 0x0c" },
	{ "\xc2\xa0" "1", 0, 0, "unexpected byte 0xc2" },
	{ "\xef\xbb\xbf{}", 0, 0, "unexpected byte 0xef" },
	/* unterminated strings: offset of the opening quote */
	{ "\"abc", 0, 0, E_UNTERM },
	{ "[\"abc", 0, 1, E_UNTERM },
	{ "{\"ab", 0, 1, E_UNTERM },
	{ "\"0123456789abcdefghij", 0, 0, E_UNTERM },
	{ "\"abc\\", 0, 0, E_UNTERM },
	{ "\"abc\\\"", 0, 0, E_UNTERM },
	{ "\"\\u12", 0, 0, E_UNTERM },
	{ "\"\\ud800", 0, 0, E_UNTERM },
	{ "\"\\ud800\\", 0, 0, E_UNTERM },
	{ "\"\\ud800\\u", 0, 0, E_UNTERM },
	{ "\"\\ud800\\udc", 0, 0, E_UNTERM },
	/* escapes: offset of the backslash */
	{ "\"\\x\"", 0, 1, E_ESC },
	{ "\"ab\\'\"", 0, 3, E_ESC },
	{ "\"\\U0041\"", 0, 1, E_ESC },
	{ "\"\\0\"", 0, 1, E_ESC },
	{ "\"0123456789abcdef\\q\"", 0, 17, E_ESC },
	{ "\"\\u12g4\"", 0, 1, E_UESC },
	{ "\"\\u-123\"", 0, 1, E_UESC },
	{ "\"\\u12\"", 0, 1, E_UESC },
	{ "\"\\ud800\\uzzzz\"", 0, 7, E_UESC },
	{ "\"\\ud800\"", 0, 1, E_LONE },
	{ "\"\\udc00\"", 0, 1, E_LONE },
	{ "\"\\udfff\\ud800\"", 0, 1, E_LONE },
	{ "\"\\ud800\\u0041\"", 0, 1, E_LONE },
	{ "\"\\ud800\\ud800\"", 0, 1, E_LONE },
	{ "\"\\ud800\\n\"", 0, 1, E_LONE },
	{ "\"a\\ud800x\"", 0, 2, E_LONE },
	{ "{\"\\ud83d\":1}", 0, 2, E_LONE },
	/* raw control bytes */
	{ "\"a\tb\"", 0, 2, E_CTRL },
	{ "\"\x01\"", 0, 1, E_CTRL },
	{ "\"\x1f\"", 0, 1, E_CTRL },
	{ "\"a\nb\"", 0, 2, E_CTRL },
	{ "\"\0\"", 3, 1, E_CTRL },
	{ "\"0123456789abcdef\x01\"", 0, 17, E_CTRL },
	{ "{\"a\rb\":1}", 0, 3, E_CTRL },
	/* the same inside a full 8-byte window of the fast scan */
	{ "\"abcdefgh\x01ijklmnop\"", 0, 9, E_CTRL },
	{ "\"abcdefgh\x1fijklmnop\"", 0, 9, E_CTRL },
	{ "\"abcdefghijk\tmnopqrstuvwxyz\"", 0, 12, E_CTRL },
	{ "\"abcdefgh\\qijklmnop\"", 0, 9, E_ESC },
	{ "\"abcdefgh\xffijklmnop\"", 0, 9, E_UTF8 },
	{ "\"abcdefg\xc0\x80ijklmnop\"", 0, 8, E_UTF8 },
	/* UTF-8: offset of the first byte of the bad sequence */
	{ "\"\xc0\x80\"", 0, 1, E_UTF8 },               /* overlong NUL */
	{ "\"\xc1\xbf\"", 0, 1, E_UTF8 },               /* overlong */
	{ "\"\xe0\x9f\xbf\"", 0, 1, E_UTF8 },           /* overlong 3 */
	{ "\"\xf0\x8f\xbf\xbf\"", 0, 1, E_UTF8 },       /* overlong 4 */
	{ "\"\xed\xa0\x80\"", 0, 1, E_UTF8 },           /* U+D800 */
	{ "\"\xed\xbf\xbf\"", 0, 1, E_UTF8 },           /* U+DFFF */
	{ "\"\xf4\x90\x80\x80\"", 0, 1, E_UTF8 },       /* U+110000 */
	{ "\"\xf5\x80\x80\x80\"", 0, 1, E_UTF8 },
	{ "\"\xff\"", 0, 1, E_UTF8 },
	{ "\"\x80\"", 0, 1, E_UTF8 },                   /* lone continuation */
	{ "\"\xbf\"", 0, 1, E_UTF8 },
	{ "\"\xc3\x28\"", 0, 1, E_UTF8 },               /* bad continuation */
	{ "\"\xe2\x82\"", 0, 1, E_UTF8 },               /* truncated by quote */
	{ "\"\xf0\x9f\x98\"", 0, 1, E_UTF8 },
	{ "\"\xe2\x82\xac\xe2\x28\xac\"", 0, 4, E_UTF8 },
	{ "\"ab\xe2\x82", 0, 3, E_UTF8 },               /* truncated by end */
	{ "\"ab\xc3", 0, 3, E_UTF8 },
	{ "\"01234567\xc0\x80\"", 0, 9, E_UTF8 },
	{ "\"0123456789abcdefghijklmn\xed\xa0\x80\"", 0, 25, E_UTF8 },
	{ "{\"k\xff\":1}", 0, 3, E_UTF8 },
	/* the first error in text order wins */
	{ "\"\\x\xff\"", 0, 1, E_ESC },
	{ "\"\xff\\x\"", 0, 1, E_UTF8 },
};

START_TEST(test_error)
{
	struct parsed pz = { 0 };
	const char *in = error_cases[_i].in;
	size_t len = error_cases[_i].len ? error_cases[_i].len : strlen(in);

	ck_assert_msg(!parse_exact(&pz, in, len), "case %d parsed", _i);
	ck_assert_msg(!strcmp(pz.e.msg, error_cases[_i].msg),
		      "case %d: msg '%s', want '%s'", _i, pz.e.msg,
		      error_cases[_i].msg);
	ck_assert_msg(pz.e.offset == error_cases[_i].offset,
		      "case %d ('%s'): offset %zu, want %zu", _i, pz.e.msg,
		      pz.e.offset, error_cases[_i].offset);
	parsed_done(&pz);
}
END_TEST

/* A NULL error pointer is tolerated. */
START_TEST(test_error_null_e)
{
	struct spaa_json_parser *p = spaa_json_parser_new();

	ck_assert_ptr_null(spaa_json_parse(p, "[", 1, NULL));
	ck_assert_ptr_null(spaa_json_parse(p, NULL, 0, NULL));
	ck_assert_ptr_nonnull(spaa_json_parse(p, "[]", 2, NULL));
	spaa_json_parser_free(p);
	spaa_json_parser_free(NULL);
}
END_TEST

/* ------------------------------------------------------------------ */
/* string contents */

static const struct {
	const char *in;
	const char *out;
	size_t out_len;
} string_cases[] = {
	{ "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\/\b\f\n\r\t", 8 },
	{ "\"\\u0041\"", "A", 1 },
	{ "\"\\u00e9\"", "\xc3\xa9", 2 },
	{ "\"\\u00E9\"", "\xc3\xa9", 2 },
	{ "\"\\u20ac\"", "\xe2\x82\xac", 3 },
	{ "\"\\uffff\"", "\xef\xbf\xbf", 3 },
	{ "\"\\ud7ff\\ue000\"", "\xed\x9f\xbf\xee\x80\x80", 6 },
	{ "\"\\ud83d\\ude00\"", "\xf0\x9f\x98\x80", 4 },
	{ "\"\\uD834\\uDD1E\"", "\xf0\x9d\x84\x9e", 4 },
	{ "\"\\ud800\\udc00\"", "\xf0\x90\x80\x80", 4 },
	{ "\"\\udbff\\udfff\"", "\xf4\x8f\xbf\xbf", 4 },
	{ "\"\\u0000\"", "\0", 1 },
	{ "\"a\\u0000b\"", "a\0b", 3 },
	{ "\"\\u007f\\u0080\\u07ff\\u0800\"",
	  "\x7f\xc2\x80\xdf\xbf\xe0\xa0\x80", 8 },
	{ "\"h\xc3\xa9llo \xe2\x9c\x93 \xf0\x9f\x98\x80\"",
	  "h\xc3\xa9llo \xe2\x9c\x93 \xf0\x9f\x98\x80", 15 },
	{ "\"abcdefghijklmnopqrstuvwxyz0123456789\\n\"",
	  "abcdefghijklmnopqrstuvwxyz0123456789\n", 37 },
	{ "\"\\\\u0041\"", "\\u0041", 6 },
	{ "\"\\\\\\\\\"", "\\\\", 2 },
	{ "\"x\\\"y\\\"z\"", "x\"y\"z", 5 },
	{ "\"\xc2\x80\xdf\xbf\"", "\xc2\x80\xdf\xbf", 4 },
	{ "\"\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xef\xbf\xbf\"",
	  "\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xef\xbf\xbf", 12 },
	{ "\"\xf0\x90\x80\x80\xf4\x8f\xbf\xbf\"",
	  "\xf0\x90\x80\x80\xf4\x8f\xbf\xbf", 8 },
	{ "\"std::vector<int>::operator[](unsigned long) \xe2\x80\x94 ok\"",
	  "std::vector<int>::operator[](unsigned long) \xe2\x80\x94 ok", 50 },
	{ "\"/usr/lib/x86_64-linux-gnu/libc.so.6\"",
	  "/usr/lib/x86_64-linux-gnu/libc.so.6", 35 },
};

START_TEST(test_string)
{
	struct parsed pz = { 0 };
	const char *in = string_cases[_i].in;
	const struct spaa_json_value *v = parse_exact(&pz, in, strlen(in));

	ck_assert_msg(v, "case %d: %s at %zu", _i, pz.e.msg, pz.e.offset);
	ck_assert_int_eq(v->type, SPAA_JSON_STRING);
	ck_assert_uint_eq(v->len, string_cases[_i].out_len);
	ck_assert_mem_eq(v->str, string_cases[_i].out, v->len);
	ck_assert_int_eq(v->str[v->len], '\0');

	/* the same string as a key */
	{
		size_t n = strlen(in);
		char *obj = spaa_xmalloc(n + 5);
		const struct spaa_json_value *m;

		obj[0] = '{';
		memcpy(obj + 1, in, n);
		memcpy(obj + 1 + n, ":1}", 3);
		v = parse_exact(&pz, obj, n + 4);
		free(obj);
		ck_assert_ptr_nonnull(v);
		m = v->child;
		ck_assert_uint_eq(m->key_len, string_cases[_i].out_len);
		ck_assert_mem_eq(m->key, string_cases[_i].out, m->key_len);
		ck_assert_int_eq(m->key[m->key_len], '\0');
	}
	parsed_done(&pz);
}
END_TEST

/* ------------------------------------------------------------------ */
/* spaa_json_utf8_valid */

static const struct {
	const char *s;
	size_t len;             /* 0: strlen(s) */
	int ok;
} utf8_cases[] = {
	{ "", 0, 1 },
	{ "plain ascii, longer than eight bytes", 0, 1 },
	{ "\0\x01\x1f\x7f", 4, 1 },     /* encoding only: controls are fine */
	{ "\xc2\x80", 0, 1 },
	{ "\xdf\xbf", 0, 1 },
	{ "\xe0\xa0\x80", 0, 1 },
	{ "\xed\x9f\xbf", 0, 1 },       /* U+D7FF */
	{ "\xee\x80\x80", 0, 1 },       /* U+E000 */
	{ "\xef\xbf\xbf", 0, 1 },
	{ "\xf0\x90\x80\x80", 0, 1 },
	{ "\xf0\x9f\x98\x80", 0, 1 },
	{ "\xf4\x8f\xbf\xbf", 0, 1 },   /* U+10FFFF */
	{ "abcdefgh\xe2\x82\xac" "abcdefgh", 0, 1 },
	{ "\xc0\x80", 0, 0 },
	{ "\xc1\xbf", 0, 0 },
	{ "\xe0\x9f\xbf", 0, 0 },
	{ "\xed\xa0\x80", 0, 0 },       /* U+D800 */
	{ "\xed\xbf\xbf", 0, 0 },       /* U+DFFF */
	{ "\xf0\x8f\xbf\xbf", 0, 0 },
	{ "\xf4\x90\x80\x80", 0, 0 },   /* U+110000 */
	{ "\xf5\x80\x80\x80", 0, 0 },
	{ "\xf8\x88\x80\x80\x80", 0, 0 },
	{ "\xfe", 0, 0 },
	{ "\xff", 0, 0 },
	{ "\x80", 0, 0 },
	{ "\xe2\x82", 0, 0 },           /* truncated */
	{ "\xf0\x9f\x98", 0, 0 },
	{ "\xc3", 0, 0 },
	{ "\xe2\x28\xa1", 0, 0 },
	{ "abcdefghijklmnop\xc3", 0, 0 },
	{ "abcdefghijklmnop\xe2\x82\xac", 0, 1 },
	/* a valid sequence cut short by len */
	{ "\xe2\x82\xac", 2, 0 },
};

START_TEST(test_utf8_valid)
{
	const char *s = utf8_cases[_i].s;
	size_t len = utf8_cases[_i].len ? utf8_cases[_i].len : strlen(s);
	char *copy = spaa_xmalloc(len);
	int want = utf8_cases[_i].ok ? 0 : -1;

	memcpy(copy, s, len);
	ck_assert_msg(spaa_json_utf8_valid(copy, len) == want, "case %d", _i);
	free(copy);
}
END_TEST

/* The parser and spaa_json_utf8_valid agree on every 1..2-byte lead pair. */
START_TEST(test_utf8_agree)
{
	struct parsed pz = { 0 };
	unsigned int a, b;
	char doc[6] = { '"', 0, 0, '\x80', '\x80', '"' };

	for (a = 0x80; a < 0x100; a++) {
		for (b = 0; b < 0x100; b++) {
			const struct spaa_json_value *v;
			int valid;
			size_t n;

			doc[1] = (char)a;
			doc[2] = (char)b;
			/* lead + b + continuation bytes as far as needed */
			n = a >= 0xf0 ? 4 : a >= 0xe0 ? 3 : 2;
			valid = spaa_json_utf8_valid(doc + 1, n) == 0;
			doc[1 + n] = '"';
			v = parse_exact(&pz, doc, n + 2);
			ck_assert_msg(!!v == valid, "%02x %02x", a, b);
			doc[3] = doc[4] = '\x80';
		}
	}
	parsed_done(&pz);
}
END_TEST

/* ------------------------------------------------------------------ */
/* number conversions */

static const struct {
	const char *in;
	int rc;
	uint64_t val;
} u64_cases[] = {
	{ "0", 0, 0 },
	{ "-0", 0, 0 },                 /* documented choice: -0 is 0 */
	{ "1", 0, 1 },
	{ "4004004", 0, 4004004 },
	{ "9223372036854775808", 0, 9223372036854775808ULL },
	{ "18446744073709551615", 0, UINT64_MAX },
	{ "18446744073709551616", -1, 0 },
	{ "99999999999999999999", -1, 0 },
	{ "100000000000000000000000", -1, 0 },
	{ "-1", -1, 0 },
	{ "-18446744073709551615", -1, 0 },
	{ "1.0", -1, 0 },
	{ "0.0", -1, 0 },
	{ "1e3", -1, 0 },
	{ "1E0", -1, 0 },
	{ "-0.0", -1, 0 },
};

START_TEST(test_u64)
{
	struct parsed pz = { 0 };
	const struct spaa_json_value *v = parse_number_text(&pz, u64_cases[_i].in);
	uint64_t out = 0xdeadbeef;

	ck_assert_int_eq(spaa_json_get_u64(v, &out), u64_cases[_i].rc);
	if (!u64_cases[_i].rc)
		ck_assert_uint_eq(out, u64_cases[_i].val);
	else
		ck_assert_uint_eq(out, 0xdeadbeef);
	parsed_done(&pz);
}
END_TEST

static const struct {
	const char *in;
	int rc;
	int64_t val;
} i64_cases[] = {
	{ "0", 0, 0 },
	{ "-0", 0, 0 },
	{ "-1", 0, -1 },
	{ "23076", 0, 23076 },
	{ "9223372036854775807", 0, INT64_MAX },
	{ "9223372036854775808", -1, 0 },
	{ "-9223372036854775808", 0, INT64_MIN },
	{ "-9223372036854775809", -1, 0 },
	{ "18446744073709551615", -1, 0 },
	{ "-18446744073709551616", -1, 0 },
	{ "0.5", -1, 0 },
	{ "-1e2", -1, 0 },
	{ "1E+2", -1, 0 },
};

START_TEST(test_i64)
{
	struct parsed pz = { 0 };
	const struct spaa_json_value *v = parse_number_text(&pz, i64_cases[_i].in);
	int64_t out = 12345;

	ck_assert_int_eq(spaa_json_get_i64(v, &out), i64_cases[_i].rc);
	if (!i64_cases[_i].rc)
		ck_assert_int_eq(out, i64_cases[_i].val);
	else
		ck_assert_int_eq(out, 12345);
	parsed_done(&pz);
}
END_TEST

static const struct {
	const char *in;
	int rc;
	double val;
} double_cases[] = {
	{ "0", 0, 0.0 },
	{ "1.5", 0, 1.5 },
	{ "-2.25", 0, -2.25 },
	{ "0.1", 0, 0.1 },
	{ "1e3", 0, 1000.0 },
	{ "1E-3", 0, 0.001 },
	{ "4004004", 0, 4004004.0 },
	{ "18446744073709551615", 0, 18446744073709551615.0 },
	{ "123456789012345678901234567890", 0, 1.2345678901234568e29 },
	{ "1.7976931348623157e308", 0, DBL_MAX },
	{ "2.2250738585072014e-308", 0, DBL_MIN },
	{ "4.9406564584124654e-324", 0, 4.9406564584124654e-324 },
	{ "1e-400", 0, 0.0 },           /* underflow to zero is a value */
	{ "1e400", -1, 0 },
	{ "-1e400", -1, 0 },
	{ "1.8e308", -1, 0 },
};

START_TEST(test_double)
{
	struct parsed pz = { 0 };
	const struct spaa_json_value *v =
		parse_number_text(&pz, double_cases[_i].in);
	double out = 42.0;

	ck_assert_int_eq(spaa_json_get_double(v, &out), double_cases[_i].rc);
	if (!double_cases[_i].rc)
		ck_assert_msg(out == double_cases[_i].val, "%s -> %.17g",
			      double_cases[_i].in, out);
	else
		ck_assert_msg(out == 42.0, "partial result");
	parsed_done(&pz);
}
END_TEST

START_TEST(test_double_edges)
{
	struct parsed pz = { 0 };
	const struct spaa_json_value *v;
	char buf[600];
	double d = 0;

	v = parse_number_text(&pz, "-0");
	ck_assert_int_eq(spaa_json_get_double(v, &d), 0);
	ck_assert(d == 0.0 && signbit(d));

	/* 512 characters is the longest accepted text, 513 is refused */
	memset(buf, '1', sizeof(buf));
	buf[0] = '0';
	buf[1] = '.';
	buf[512] = '\0';
	v = parse_number_text(&pz, buf);
	ck_assert_uint_eq(v->len, 512);
	ck_assert_int_eq(spaa_json_get_double(v, &d), 0);
	ck_assert(fabs(d - 1.0 / 9.0) < 1e-15);
	buf[512] = '1';
	buf[513] = '\0';
	v = parse_number_text(&pz, buf);
	ck_assert_int_eq(spaa_json_get_double(v, &d), -1);

	/* the number ends at len even though a digit follows in memory */
	memcpy(buf, "2.5123", 6);
	v = spaa_json_parse(pz.p, buf, 3, &pz.e);
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(spaa_json_get_double(v, &d), 0);
	ck_assert(d == 2.5);
	parsed_done(&pz);
}
END_TEST

/*
 * A tool may call setlocale(LC_ALL, "") and run under a locale whose
 * decimal point is ','; the conversion must not care.  Skipped when no
 * such locale is installed.
 */
START_TEST(test_double_locale)
{
	static const char *const names[] = {
		"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8",
		"nl_NL.UTF-8", "ru_RU.UTF-8",
	};
	struct parsed pz = { 0 };
	const struct spaa_json_value *v;
	char *old = spaa_xstrdup(setlocale(LC_NUMERIC, NULL));
	size_t i;
	double d = 0;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (setlocale(LC_NUMERIC, names[i]))
			break;
	if (i < ARRAY_SIZE(names)) {
		v = parse_number_text(&pz, "1.5");
		ck_assert_int_eq(spaa_json_get_double(v, &d), 0);
		ck_assert(d == 1.5);
		setlocale(LC_NUMERIC, old);
	}
	free(old);
	parsed_done(&pz);
}
END_TEST

static const struct {
	const char *in;
	int exp10;
	int rc;
	int64_t val;
} scaled_cases[] = {
	{ "1700000000.123456789", 9, 0, 1700000000123456789LL },
	{ "562.214439", 9, 0, 562214439000LL },
	{ "2.5", 0, 0, 3 },
	{ "-2.5", 0, 0, -3 },
	{ "2.4999", 0, 0, 2 },
	{ "-2.4999", 0, 0, -2 },
	{ "0.5", 0, 0, 1 },
	{ "-0.5", 0, 0, -1 },
	{ "0.49", 0, 0, 0 },
	{ "-0.4", 0, 0, 0 },
	{ "1.5e-3", 9, 0, 1500000 },
	{ "1.5e-3", 0, 0, 0 },
	{ "1.5e-3", 3, 0, 2 },
	{ "-1.5e-3", 3, 0, -2 },
	{ "1.4999e-3", 3, 0, 1 },
	{ "0.0015", 3, 0, 2 },
	{ "0.0000000005", 9, 0, 1 },
	{ "0.0000000004999", 9, 0, 0 },
	{ "5e-1", 0, 0, 1 },
	{ "4e-1", 0, 0, 0 },
	{ "5e-2", 1, 0, 1 },
	{ "5e-3", 1, 0, 0 },
	{ "1E2", 0, 0, 100 },
	{ "1e+2", 1, 0, 1000 },
	{ "100e-2", 0, 0, 1 },
	{ "0.0000000001e10", 0, 0, 1 },
	{ "12345678901234567890e-10", 0, 0, 1234567890 },
	{ "1.0000000000000000000000000000001", 0, 0, 1 },
	{ "1.0000000000000000000000000000001", 18, 0, 1000000000000000000LL },
	{ "0", 9, 0, 0 },
	{ "-0", 9, 0, 0 },
	{ "-0.0", 0, 0, 0 },
	{ "0e400", 0, 0, 0 },
	{ "0.000e99999999999999999999", 18, 0, 0 },
	{ "1e-400", 9, 0, 0 },
	{ "-1e-99999999999999999999999", 18, 0, 0 },
	{ "1e400", 0, -1, 0 },
	{ "1e99999999999999999999999", 0, -1, 0 },
	{ "-1e400", 0, -1, 0 },
	{ "123", 18, -1, 0 },
	{ "9", 18, 0, 9000000000000000000LL },
	{ "10", 18, -1, 0 },
	{ "9223372036854775807", 0, 0, INT64_MAX },
	{ "9223372036854775808", 0, -1, 0 },
	{ "-9223372036854775808", 0, 0, INT64_MIN },
	{ "-9223372036854775809", 0, -1, 0 },
	{ "9.223372036854775807", 18, 0, INT64_MAX },
	{ "9.223372036854775808", 18, -1, 0 },
	{ "-9.223372036854775808", 18, 0, INT64_MIN },
	{ "9223372036854775807.4", 0, 0, INT64_MAX },
	{ "9223372036854775807.5", 0, -1, 0 },
	{ "-9223372036854775808.4", 0, 0, INT64_MIN },
	{ "-9223372036854775808.5", 0, -1, 0 },
	{ "18446744073709551615", 0, -1, 0 },
	{ "99999999999999999999", 0, -1, 0 },
	{ "922337203685477580.74", 1, 0, INT64_MAX },
	{ "922337203685477580.75", 1, -1, 0 },
	{ "4004004", 0, 0, 4004004 },
	{ "1", -1, -1, 0 },
	{ "1", 19, -1, 0 },
};

START_TEST(test_scaled)
{
	struct parsed pz = { 0 };
	const struct spaa_json_value *v =
		parse_number_text(&pz, scaled_cases[_i].in);
	int64_t out = 777;

	ck_assert_msg(spaa_json_get_scaled(v, scaled_cases[_i].exp10, &out) ==
		      scaled_cases[_i].rc, "case %d: %s e%d", _i,
		      scaled_cases[_i].in, scaled_cases[_i].exp10);
	if (!scaled_cases[_i].rc)
		ck_assert_msg(out == scaled_cases[_i].val,
			      "case %d: %s e%d -> %lld", _i,
			      scaled_cases[_i].in, scaled_cases[_i].exp10,
			      (long long)out);
	else
		ck_assert_int_eq(out, 777);
	parsed_done(&pz);
}
END_TEST

/* Long mantissas: only the digits up to the rounding digit matter. */
START_TEST(test_scaled_long)
{
	struct parsed pz = { 0 };
	const struct spaa_json_value *v;
	char *buf = spaa_xmalloc(3000);
	int64_t out = 0;

	/* "1" + 1000 zeros + "e-1000" is exactly 1 */
	buf[0] = '1';
	memset(buf + 1, '0', 1000);
	memcpy(buf + 1001, "e-1000", 7);
	v = parse_number_text(&pz, buf);
	ck_assert_int_eq(spaa_json_get_scaled(v, 0, &out), 0);
	ck_assert_int_eq(out, 1);
	ck_assert_int_eq(spaa_json_get_scaled(v, 18, &out), 0);
	ck_assert_int_eq(out, 1000000000000000000LL);

	/* "0." + 1500 zeros + "5e1501" is 5 */
	memcpy(buf, "0.", 2);
	memset(buf + 2, '0', 1500);
	memcpy(buf + 1502, "5e1501", 7);
	v = parse_number_text(&pz, buf);
	ck_assert_int_eq(spaa_json_get_scaled(v, 0, &out), 0);
	ck_assert_int_eq(out, 5);
	ck_assert_int_eq(spaa_json_get_scaled(v, 2, &out), 0);
	ck_assert_int_eq(out, 500);
	free(buf);
	parsed_done(&pz);
}
END_TEST

/* spaa_json_get_scaled agrees with exact integer scaling for many values. */
START_TEST(test_scaled_vs_integer)
{
	struct parsed pz = { 0 };
	uint64_t x = 88172645463325252ULL;
	char buf[64];
	int i, k;

	for (i = 0; i < 2000; i++) {
		int64_t ns, want, got = 0;
		int64_t sec, frac;
		const struct spaa_json_value *v;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		ns = (int64_t)(x % 4000000000000000000ULL);
		if (i & 1)
			ns = -ns;
		sec = ns / 1000000000;
		frac = ns % 1000000000;
		snprintf(buf, sizeof(buf), "%s%lld.%09lld", ns < 0 ? "-" : "",
			 (long long)(sec < 0 ? -sec : sec),
			 (long long)(frac < 0 ? -frac : frac));
		v = parse_number_text(&pz, buf);
		ck_assert_int_eq(spaa_json_get_scaled(v, 9, &got), 0);
		ck_assert_int_eq(got, ns);
		/* at coarser scales: round half away from zero by hand */
		for (k = 0; k <= 9; k += 3) {
			int64_t div = 1, q, r;
			int j;

			for (j = 0; j < 9 - k; j++)
				div *= 10;
			q = ns / div;
			r = ns % div;
			if (r < 0)
				r = -r;
			want = q + (2 * r >= div ? (ns < 0 ? -1 : 1) : 0);
			ck_assert_int_eq(spaa_json_get_scaled(v, k, &got), 0);
			ck_assert_msg(got == want, "%s e%d: %lld want %lld",
				      buf, k, (long long)got, (long long)want);
		}
	}
	parsed_done(&pz);
}
END_TEST

/* Conversions refuse anything that is not a number, and NULL. */
START_TEST(test_conv_not_number)
{
	static const char *const docs[] = {
		"\"1\"", "null", "true", "false", "[1]", "{\"a\":1}",
	};
	struct parsed pz = { 0 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(docs); i++) {
		const struct spaa_json_value *v = parse_exact(&pz, docs[i],
							 strlen(docs[i]));
		uint64_t u = 5;
		int64_t s = 5;
		double d = 5;

		ck_assert_ptr_nonnull(v);
		ck_assert_int_eq(spaa_json_get_u64(v, &u), -1);
		ck_assert_int_eq(spaa_json_get_i64(v, &s), -1);
		ck_assert_int_eq(spaa_json_get_double(v, &d), -1);
		ck_assert_int_eq(spaa_json_get_scaled(v, 3, &s), -1);
		ck_assert(u == 5 && s == 5 && d == 5);
	}
	{
		uint64_t u;
		int64_t s;
		double d;

		ck_assert_int_eq(spaa_json_get_u64(NULL, &u), -1);
		ck_assert_int_eq(spaa_json_get_i64(NULL, &s), -1);
		ck_assert_int_eq(spaa_json_get_double(NULL, &d), -1);
		ck_assert_int_eq(spaa_json_get_scaled(NULL, 0, &s), -1);
	}
	parsed_done(&pz);
}
END_TEST

/* ------------------------------------------------------------------ */
/* nesting */

static char *nested(int depth, int objects, size_t *len)
{
	size_t per = objects ? 5 : 1;   /* {"a": or [ */
	char *s = spaa_xmalloc((size_t)depth * (per + 1) + 1);
	size_t n = 0;
	int i;

	for (i = 0; i < depth; i++) {
		if (objects) {
			memcpy(s + n, "{\"a\":", 5);
			n += 5;
		} else {
			s[n++] = '[';
		}
	}
	s[n++] = '1';
	for (i = 0; i < depth; i++)
		s[n++] = objects ? '}' : ']';
	*len = n;
	return s;
}

START_TEST(test_nesting)
{
	int objects = _i;
	struct parsed pz = { 0 };
	size_t len;
	char *s;
	const struct spaa_json_value *v;
	int d = 0;

	s = nested(SPAA_JSON_MAX_DEPTH, objects, &len);
	v = parse_exact(&pz, s, len);
	ck_assert_msg(v, "%s", pz.e.msg);
	while (v->type != SPAA_JSON_NUMBER) {
		ck_assert_uint_eq(v->len, 1);
		v = v->child;
		d++;
	}
	ck_assert_int_eq(d, SPAA_JSON_MAX_DEPTH);
	free(s);

	s = nested(SPAA_JSON_MAX_DEPTH + 1, objects, &len);
	ck_assert_ptr_null(parse_exact(&pz, s, len));
	ck_assert_str_eq(pz.e.msg, "nesting deeper than 64");
	ck_assert_uint_eq(pz.e.offset, SPAA_JSON_MAX_DEPTH * (objects ? 5 : 1));
	free(s);

	/* far deeper than any C stack would survive under recursion */
	s = nested(1000000, objects, &len);
	ck_assert_ptr_null(parse_exact(&pz, s, len));
	ck_assert_uint_eq(pz.e.offset, SPAA_JSON_MAX_DEPTH * (objects ? 5 : 1));
	free(s);
	parsed_done(&pz);
}
END_TEST

/* Closing and reopening keeps depth bounded, not cumulative. */
START_TEST(test_nesting_siblings)
{
	struct parsed pz = { 0 };
	struct spaa_sbuf sb = { 0 };
	int i, j;

	sb_addc(&sb, '[');
	for (i = 0; i < 100; i++) {
		if (i)
			sb_addc(&sb, ',');
		for (j = 0; j < SPAA_JSON_MAX_DEPTH - 1; j++)
			sb_addc(&sb, '[');
		for (j = 0; j < SPAA_JSON_MAX_DEPTH - 1; j++)
			sb_addc(&sb, ']');
	}
	sb_addc(&sb, ']');
	ck_assert_ptr_nonnull(parse_exact(&pz, sb.s, sb.len));
	ck_assert_uint_eq(pz.v->len, 100);
	free(sb.s);
	parsed_done(&pz);
}
END_TEST

/* ------------------------------------------------------------------ */
/* text that is not NUL-terminated */

START_TEST(test_not_terminated)
{
	struct spaa_json_parser *p = spaa_json_parser_new();
	struct spaa_json_error e;
	const struct spaa_json_value *v;
	uint64_t u = 0;
	static const char buf[] = "[1,2]garbage\"123456\"truex";

	v = spaa_json_parse(p, buf, 5, &e);
	ck_assert_ptr_nonnull(v);
	ck_assert_uint_eq(v->len, 2);

	/* "123" followed in memory by more digits */
	v = spaa_json_parse(p, buf + 13, 3, &e);
	ck_assert_ptr_nonnull(v);
	ck_assert_uint_eq(v->len, 3);
	ck_assert_int_eq(spaa_json_get_u64(v, &u), 0);
	ck_assert_uint_eq(u, 123);

	/* a string whose closing quote lies past len */
	v = spaa_json_parse(p, buf + 12, 5, &e);
	ck_assert_ptr_null(v);
	ck_assert_str_eq(e.msg, E_UNTERM);
	ck_assert_uint_eq(e.offset, 0);

	/* "tru" + 'e' past len */
	v = spaa_json_parse(p, buf + 20, 3, &e);
	ck_assert_ptr_null(v);
	ck_assert_str_eq(e.msg, E_EOI);
	ck_assert_uint_eq(e.offset, 3);

	/* "true" with 'x' past len */
	v = spaa_json_parse(p, buf + 20, 4, &e);
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(v->type, SPAA_JSON_TRUE);
	spaa_json_parser_free(p);
}
END_TEST

static const char *const prefix_docs[] = {
	"{\"context\":{\"comm\":\"cwork-w2\",\"pid\":23076},\"frames\":[104,99,10]}",
	"[\"\\ud83d\\ude00\",\"\\u00e9\\n\",\"h\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"]",
	"{\"a\" : [ true , false , null , -1.5e-3 ] }",
	"\"0123456789abcdef0123456789abcdef\\\"\"",
};

/* Every proper prefix of a container or string document fails cleanly. */
START_TEST(test_prefixes)
{
	struct parsed pz = { 0 };
	const char *doc = prefix_docs[_i];
	size_t len = strlen(doc), n;

	ck_assert_ptr_nonnull(parse_exact(&pz, doc, len));
	for (n = 0; n < len; n++) {
		ck_assert_msg(!parse_exact(&pz, doc, n), "prefix %zu ok", n);
		ck_assert_uint_le(pz.e.offset, n);
		ck_assert_uint_gt(strlen(pz.e.msg), 0);
	}
	parsed_done(&pz);
}
END_TEST

/* ------------------------------------------------------------------ */
/* spaa_json_get, tree shape, type names */

START_TEST(test_get)
{
	struct parsed pz = { 0 };
	const struct spaa_json_value *v, *m;
	static const char doc[] =
		"{\"a\":1,\"b\":\"x\",\"a\":2,\"\":3,\"a\\u0000b\":4,\"ab\":5}";
	uint64_t u = 0;

	v = parse_exact(&pz, doc, strlen(doc));
	ck_assert_ptr_nonnull(v);
	ck_assert_uint_eq(v->len, 6);

	m = spaa_json_get(v, "a");
	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_eq(m, v->child);
	ck_assert_int_eq(spaa_json_get_u64(m, &u), 0);
	ck_assert_uint_eq(u, 1);        /* the first of the duplicates */

	m = spaa_json_get(v, "");
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(spaa_json_get_u64(m, &u), 0);
	ck_assert_uint_eq(u, 3);

	/* "a\0b" must not match "a" (checked above) nor "ab" */
	m = spaa_json_get(v, "ab");
	ck_assert_int_eq(spaa_json_get_u64(m, &u), 0);
	ck_assert_uint_eq(u, 5);

	ck_assert_ptr_null(spaa_json_get(v, "c"));
	ck_assert_ptr_null(spaa_json_get(v, "A"));
	ck_assert_ptr_null(spaa_json_get(v, "a "));
	ck_assert_ptr_null(spaa_json_get(spaa_json_get(v, "missing"), "a"));

	/* not an object */
	ck_assert_ptr_null(spaa_json_get(spaa_json_get(v, "b"), "x"));
	ck_assert_ptr_null(spaa_json_get(NULL, "a"));
	v = parse_exact(&pz, "[{\"a\":1}]", 9);
	ck_assert_ptr_null(spaa_json_get(v, "a"));
	ck_assert_ptr_nonnull(spaa_json_get(v->child, "a"));
	v = parse_exact(&pz, "\"a\"", 3);
	ck_assert_ptr_null(spaa_json_get(v, "a"));
	parsed_done(&pz);
}
END_TEST

START_TEST(test_tree_shape)
{
	struct parsed pz = { 0 };
	const struct spaa_json_value *v, *c;
	static const char doc[] = "{\"x\":[1,\"s\",[],{}],\"y\":null}";

	v = parse_exact(&pz, doc, strlen(doc));
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(v->type, SPAA_JSON_OBJECT);
	ck_assert_ptr_null(v->str);
	ck_assert_ptr_null(v->key);
	ck_assert_ptr_null(v->next);
	ck_assert_uint_eq(v->len, 2);

	c = v->child;
	ck_assert_str_eq(c->key, "x");
	ck_assert_uint_eq(c->key_len, 1);
	ck_assert_int_eq(c->type, SPAA_JSON_ARRAY);
	ck_assert_uint_eq(c->len, 4);
	ck_assert_int_eq(c->child->type, SPAA_JSON_NUMBER);
	ck_assert_ptr_eq(c->child->str, pz.buf + 6);    /* raw text */
	ck_assert_uint_eq(c->child->len, 1);
	ck_assert_ptr_null(c->child->key);
	ck_assert_int_eq(c->child->next->type, SPAA_JSON_STRING);
	ck_assert_int_eq(c->child->next->next->type, SPAA_JSON_ARRAY);
	ck_assert_ptr_null(c->child->next->next->child);
	ck_assert_uint_eq(c->child->next->next->len, 0);
	ck_assert_int_eq(c->child->next->next->next->type, SPAA_JSON_OBJECT);
	ck_assert_ptr_null(c->child->next->next->next->next);

	c = c->next;
	ck_assert_str_eq(c->key, "y");
	ck_assert_int_eq(c->type, SPAA_JSON_NULL);
	ck_assert_ptr_null(c->str);
	ck_assert_ptr_null(c->next);
	parsed_done(&pz);
}
END_TEST

START_TEST(test_type_names)
{
	ck_assert_str_eq(spaa_json_type_name(SPAA_JSON_NULL), "null");
	ck_assert_str_eq(spaa_json_type_name(SPAA_JSON_FALSE), "boolean");
	ck_assert_str_eq(spaa_json_type_name(SPAA_JSON_TRUE), "boolean");
	ck_assert_str_eq(spaa_json_type_name(SPAA_JSON_NUMBER), "number");
	ck_assert_str_eq(spaa_json_type_name(SPAA_JSON_STRING), "string");
	ck_assert_str_eq(spaa_json_type_name(SPAA_JSON_ARRAY), "array");
	ck_assert_str_eq(spaa_json_type_name(SPAA_JSON_OBJECT), "object");
}
END_TEST

/* ------------------------------------------------------------------ */
/* arena reuse */

static char *big_string_doc(size_t n, char fill, size_t *len)
{
	char *s = spaa_xmalloc(n + 12);

	memcpy(s, "[\"", 2);
	memset(s + 2, fill, n);
	memcpy(s + 2 + n, "\",\"\\n\"]", 7);
	*len = n + 9;
	return s;
}

/*
 * spaa_json_parse_more keeps the trees of earlier lines (the reader's
 * scanning threads hold a block's trees until the reader comes to them),
 * across chunks, until a rewind; the arena's use counts them.
 */
START_TEST(test_parse_more_keeps_trees)
{
	enum { LINES = 3000 };
	struct spaa_json_parser *p = spaa_json_parser_new();
	const struct spaa_json_value *trees[LINES];
	static char lines[LINES][64];
	struct spaa_json_error e;
	size_t used = 0;

	ck_assert_uint_eq(spaa_json_parser_used(p), 0);
	for (int i = 0; i < LINES; i++) {
		int n = snprintf(lines[i], sizeof(lines[i]),
				 "{\"id\":\"s%d\",\"frames\":[%d,%d]}", i, i, 2 * i);

		trees[i] = spaa_json_parse_more(p, lines[i], (size_t)n, &e);
		ck_assert_ptr_nonnull(trees[i]);
		ck_assert_uint_gt(spaa_json_parser_used(p), used);
		used = spaa_json_parser_used(p);
		/* a line that fails leaves the trees before it */
		ck_assert_ptr_null(spaa_json_parse_more(p, "{\"x\":", 5, &e));
	}
	/* 5 values a line (the object, the id, the array, 2 numbers) */
	ck_assert_uint_ge(used, LINES * 5 * sizeof(struct spaa_json_value));
	for (int i = 0; i < LINES; i++) {
		char id[16];
		uint64_t f;

		snprintf(id, sizeof(id), "s%d", i);
		ck_assert_str_eq(spaa_json_get(trees[i], "id")->str, id);
		ck_assert_int_eq(spaa_json_get_u64(spaa_json_get(trees[i], "frames")->child->next,
						   &f), 0);
		ck_assert_uint_eq(f, 2 * (uint64_t)i);
	}
	spaa_json_parser_rewind(p);
	ck_assert_uint_eq(spaa_json_parser_used(p), 0);
	ck_assert_ptr_nonnull(spaa_json_parse_more(p, lines[0], strlen(lines[0]), &e));
	ck_assert_uint_lt(spaa_json_parser_used(p), used);
	spaa_json_parser_free(p);
}
END_TEST

START_TEST(test_arena_reuse)
{
	struct parsed pz = { 0 };
	static const char small[] =
		"{\"type\":\"frame\",\"id\":104,\"func\":\"main\",\"module\":\"a.out\"}";
	static const size_t sizes[] = { 1 << 20, 10, 3 << 20, 100000, 1 << 20 };
	struct spaa_sbuf sb = { 0 };
	size_t i, k, len;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		char fill = (char)('a' + i);
		char *doc = big_string_doc(sizes[i], fill, &len);
		const struct spaa_json_value *v = parse_exact(&pz, doc, len);

		ck_assert_ptr_nonnull(v);
		ck_assert_uint_eq(v->child->len, sizes[i]);
		ck_assert_int_eq(v->child->str[0], fill);
		ck_assert_int_eq(v->child->str[sizes[i] - 1], fill);
		ck_assert_int_eq(v->child->str[sizes[i]], '\0');
		ck_assert_str_eq(v->child->next->str, "\n");
		free(doc);

		for (k = 0; k < 100; k++) {
			v = parse_exact(&pz, small, strlen(small));
			ck_assert_ptr_nonnull(v);
		}
		sb.len = 0;
		dump(&sb, v, 0);
		ck_assert_str_eq(sb.s, small);
		/* an error leaves the parser usable */
		ck_assert_ptr_null(parse_exact(&pz, "[\"x", 3));
	}

	/* many values in one line (about 6 MB of arena) span many chunks */
	sb.len = 0;
	sb_addc(&sb, '[');
	for (i = 0; i < 50000; i++)
		spaa_sbuf_add(&sb, i ? ",{\"k\":\"v\"}" : "{\"k\":\"v\"}", i ? 10 : 9);
	sb_addc(&sb, ']');
	ck_assert_ptr_nonnull(parse_exact(&pz, sb.s, sb.len));
	ck_assert_uint_eq(pz.v->len, 50000);
	{
		const struct spaa_json_value *c;

		for (i = 0, c = pz.v->child; c; c = c->next, i++)
			ck_assert_str_eq(spaa_json_get(c, "k")->str, "v");
		ck_assert_uint_eq(i, 50000);
	}
	free(sb.s);
	parsed_done(&pz);
}
END_TEST

/* ------------------------------------------------------------------ */
/* cross-check against cJSON */

static const char *const spaa_lines[] = {
	"{\"context\":{\"comm\":\"cwork-w2\",\"event\":\"cpu-clock:ppp\",\"pid\":23076,\"tid\":23080},\"exclusive\":{\"frame\":104,\"weights\":[{\"metric\":\"period\",\"unit\":\"events\",\"value\":4004004}]},\"frames\":[104,99,10],\"id\":\"0x463a9e1765743e92\",\"stack_type\":\"unified\",\"type\":\"stack\",\"weights\":[{\"metric\":\"samples\",\"value\":4},{\"metric\":\"period\",\"unit\":\"events\",\"value\":4004004}]}",
	"{\"type\":\"header\",\"format\":\"spaa\",\"version\":\"1.0\",\"source_tool\":\"perf\",\"frame_order\":\"leaf_to_root\",\"events\":[{\"name\":\"cpu-clock:ppp\",\"sampling\":{\"mode\":\"frequency\",\"primary_metric\":\"period\",\"frequency_hz\":4000}}],\"time_range\":{\"start\":1700000000.123456789,\"end\":1700000010.5,\"unit\":\"seconds\"}}",
	"{\"type\":\"dso\",\"id\":1,\"name\":\"/usr/lib/x86_64-linux-gnu/libc.so.6\",\"build_id\":\"4b4b0a5c1a7e3f0d9a4c\",\"is_kernel\":false}",
	"{\"type\":\"frame\",\"id\":104,\"func\":\"std::vector<int, std::allocator<int> >::_M_realloc_insert<int const&>\",\"dso\":1,\"ip\":\"0x7f3a2b1c4d5e\",\"symoff\":\"0x1e\",\"srcline\":\"/usr/include/c++/12/bits/vector.tcc:512\",\"inlined\":false,\"kind\":\"user\"}",
	"{\"type\":\"frame\",\"id\":99,\"func\":\"[unknown]\",\"dso\":null,\"ip\":\"0xffffffff8a2b3c4d\",\"kind\":\"kernel\"}",
	"{\"type\":\"thread\",\"pid\":23076,\"tid\":23080,\"comm\":\"cwork-w2\",\"start_time\":562.214439,\"end_time\":572.9}",
	"{\"type\":\"sample\",\"time\":562.214439,\"cpu\":3,\"pid\":23076,\"tid\":23080,\"stack\":\"0x463a9e1765743e92\",\"weights\":[{\"metric\":\"period\",\"value\":1001001}]}",
	"{\"type\":\"frame\",\"id\":7,\"func\":\"r\xc3\xa9sum\xc3\xa9_\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e_\xf0\x9f\x94\xa5\",\"kind\":\"user\"}",
	"{\"type\":\"frame\",\"id\":8,\"func\":\"say \\\"hi\\\"\\n\\tand\\\\leave\\/now\",\"kind\":\"user\"}",
	"{\"type\":\"frame\",\"id\":9,\"func\":\"\\u00e9\\u20ac\\ud83d\\ude00\\u0001\\u001f\\u007f\",\"kind\":\"user\"}",
	"{\"type\":\"stack\",\"id\":\"0x1\",\"frames\":[],\"weights\":[{\"metric\":\"samples\",\"value\":0}]}",
	"{\"type\":\"stack\",\"id\":\"0x2\",\"frames\":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32],\"weights\":[{\"metric\":\"samples\",\"value\":18446744073709551615}]}",
	"{\"type\":\"stack\",\"id\":\"0x3\",\"weights\":[{\"metric\":\"wall\",\"unit\":\"seconds\",\"value\":1.5e-3},{\"metric\":\"bytes\",\"value\":-9223372036854775808},{\"metric\":\"ratio\",\"value\":0.1},{\"metric\":\"tiny\",\"value\":4.9e-324},{\"metric\":\"big\",\"value\":1.7976931348623157E+308}]}",
	"  {\"type\" : \"marker\" , \"time\" : 1.0 , \"label\" : \"gc start\" }\r\n",
	"{\"a\":{\"b\":{\"c\":{\"d\":{\"e\":[[[[[[{\"f\":[]}]]]]]]}}}}}",
	"{\"dup\":1,\"dup\":\"two\",\"dup\":[3]}",
	"[null,true,false,0,-0,0.0,-0.0,1E400000000000000000000000000000000,1e-99999]",
	"{\"\":\"\",\"empty_obj\":{},\"empty_arr\":[],\"nested_empty\":[[],{},[{}]]}",
	"{\"type\":\"frame\",\"id\":10,\"func\":\"\xef\xbf\xbd\xef\xbb\xbf\xe2\x80\xa8\xe2\x80\xa9\xc2\x85\",\"kind\":\"user\"}",
	"\"just a string \\u0041\\u00DF\\u6771\\uD800\\uDC00\"",
	"12345678901234567890.12345678901234567890e-5",
};

/*
 * Compares our tree with cJSON's.  Numbers compare as doubles; a number
 * that overflows spaa_json_get_double must be infinite in cJSON.  cJSON keeps
 * C strings, so a string with "\u0000" is compared up to the NUL.
 */
static void compare_cjson(const struct spaa_json_value *v, const cJSON *c,
			  const char *where)
{
	const struct spaa_json_value *m;
	const cJSON *cc;
	double d;
	size_t n;

	switch (v->type) {
	case SPAA_JSON_NULL:
		ck_assert_msg(cJSON_IsNull(c), "%s: null", where);
		break;
	case SPAA_JSON_TRUE:
		ck_assert_msg(cJSON_IsTrue(c), "%s: true", where);
		break;
	case SPAA_JSON_FALSE:
		ck_assert_msg(cJSON_IsFalse(c), "%s: false", where);
		break;
	case SPAA_JSON_NUMBER:
		ck_assert_msg(cJSON_IsNumber(c), "%s: number", where);
		if (spaa_json_get_double(v, &d))
			ck_assert_msg(isinf(c->valuedouble), "%s: inf", where);
		else
			ck_assert_msg(d == c->valuedouble, "%s: %.17g vs %.17g",
				      where, d, c->valuedouble);
		break;
	case SPAA_JSON_STRING:
		ck_assert_msg(cJSON_IsString(c), "%s: string", where);
		n = strlen(v->str);     /* stops at an escaped NUL */
		ck_assert_uint_eq(strlen(c->valuestring), n);
		ck_assert_mem_eq(v->str, c->valuestring, n);
		break;
	case SPAA_JSON_ARRAY:
	case SPAA_JSON_OBJECT:
		ck_assert_msg(v->type == SPAA_JSON_ARRAY ? cJSON_IsArray(c) :
			      cJSON_IsObject(c), "%s: container", where);
		ck_assert_int_eq((int)v->len, cJSON_GetArraySize(c));
		for (m = v->child, cc = c->child; m && cc;
		     m = m->next, cc = cc->next) {
			if (v->type == SPAA_JSON_OBJECT) {
				n = strlen(m->key);
				ck_assert_uint_eq(strlen(cc->string), n);
				ck_assert_mem_eq(m->key, cc->string, n);
			}
			compare_cjson(m, cc, where);
		}
		ck_assert_msg(!m && !cc, "%s: lengths", where);
		break;
	}
}

START_TEST(test_cjson_lines)
{
	struct parsed pz = { 0 };
	const char *line = spaa_lines[_i];
	size_t len = strlen(line);
	cJSON *c;

	ck_assert_msg(parse_exact(&pz, line, len), "line %d: %s at %zu", _i,
		      pz.e.msg, pz.e.offset);
	c = cJSON_ParseWithLength(pz.buf, len);
	ck_assert_ptr_nonnull(c);
	compare_cjson(pz.v, c, line);
	cJSON_Delete(c);
	parsed_done(&pz);
}
END_TEST

/*
 * Mutation fuzzing against cJSON.  cJSON is more lenient (any byte up to
 * 0x20 is whitespace, trailing text is ignored, UTF-8 is not checked), so
 * the property is one-way: whatever we accept, cJSON accepts with the
 * same tree.  Rejections must carry an offset inside the text.
 */
static uint64_t rng_state;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

START_TEST(test_cjson_fuzz)
{
	static const char alphabet[] =
		"{}[],:\" \\u0aAdDfF.-+eE1239tnl\t\n\x01\x7f\x80\xbf\xc3\xe2"
		"\xed\xf0\xf4\xff";
	struct parsed pz = { 0 };
	char buf[1024];
	int iter, accepted = 0;

	rng_state = 0x9e3779b97f4a7c15ULL;
	for (iter = 0; iter < 8000; iter++) {
		const char *src = spaa_lines[rng() % ARRAY_SIZE(spaa_lines)];
		size_t len = strlen(src), k, nmut = 1 + rng() % 3;
		cJSON *c;

		if (len > sizeof(buf) - 8)
			len = sizeof(buf) - 8;
		memcpy(buf, src, len);
		for (k = 0; k < nmut && len > 0; k++) {
			size_t at = rng() % len;
			char ch = alphabet[rng() % (sizeof(alphabet) - 1)];

			switch (rng() % 4) {
			case 0:         /* replace */
				buf[at] = ch;
				break;
			case 1:         /* insert */
				memmove(buf + at + 1, buf + at, len - at);
				buf[at] = ch;
				len++;
				break;
			case 2:         /* delete */
				memmove(buf + at, buf + at + 1, len - at - 1);
				len--;
				break;
			default:        /* truncate */
				len = at;
				break;
			}
		}
		if (!parse_exact(&pz, buf, len)) {
			ck_assert_uint_le(pz.e.offset, len);
			ck_assert_uint_gt(strlen(pz.e.msg), 0);
			continue;
		}
		accepted++;
		c = cJSON_ParseWithLength(pz.buf, len);
		ck_assert_msg(c, "cJSON rejects '%.*s'", (int)len, buf);
		compare_cjson(pz.v, c, "fuzz");
		cJSON_Delete(c);
	}
	/* the mutations must leave enough valid documents to mean something */
	ck_assert_int_gt(accepted, 1000);
	parsed_done(&pz);
}
END_TEST

/* ------------------------------------------------------------------ */

/*
 * Repeated keys: found in any object of the tree, small (pairwise) or
 * large (sorted); keys compared by their bytes, "\u0000" included.
 */
START_TEST(test_repeated_key)
{
	static const struct { const char *text, *key; } cases[] = {
		{ "{\"a\":1,\"b\":2}", NULL },
		{ "{\"a\":1,\"b\":2,\"a\":3}", "a" },
		{ "[1,{\"x\":{\"k\":1,\"k\":2}}]", "k" },
		{ "{\"a\":{\"b\":1},\"b\":{\"a\":1}}", NULL },  /* in other objects */
		{ "{\"a\\u0000\":1,\"a\":2}", NULL },           /* other bytes */
		{ "{\"ab\":1,\"a\":2}", NULL },
		{ "[]", NULL }, { "7", NULL },
		/* same length, first and last byte: one filter bit, other keys */
		{ "{\"axb\":1,\"ayb\":2,\"azb\":3}", NULL },
		/* the first key (in order) with an equal one before it */
		{ "{\"a\":1,\"b\":2,\"b\":3,\"a\":4}", "b" },
		{ "{\"k0\":0,\"k1\":1,\"k2\":2,\"k3\":3,\"k4\":4,\"k5\":5,\"k6\":6,"
		  "\"k7\":7,\"k8\":8,\"k9\":9,\"ka\":10,\"kb\":11,\"kc\":12,\"kd\":13,"
		  "\"ke\":14,\"k0\":15}", "k0" },          /* 16 members: pairwise */
	};
	struct parsed pz = { 0 };
	struct spaa_sbuf big = { 0 };
	const struct spaa_json_value *r;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		ck_assert_ptr_nonnull(parse_exact(&pz, cases[i].text, strlen(cases[i].text)));
		r = spaa_json_repeated_key(pz.v);
		if (!cases[i].key)
			ck_assert_msg(!r, "%s: found '%s'", cases[i].text, r->key);
		else
			ck_assert_msg(r && !strcmp(r->key, cases[i].key), "%s", cases[i].text);
	}
	/* 1000 members (sorted, not pairwise): none repeated, then k7 again */
	spaa_sbuf_adds(&big, "{");
	for (int k = 0; k < 1000; k++)
		spaa_sbuf_printf(&big, "%s\"k%d\":%d", k ? "," : "", k, k);
	spaa_sbuf_adds(&big, "}");
	ck_assert_ptr_nonnull(parse_exact(&pz, big.s, big.len));
	ck_assert_ptr_null(spaa_json_repeated_key(pz.v));
	big.s[big.len - 1] = ',';
	spaa_sbuf_adds(&big, "\"k7\":0}");
	ck_assert_ptr_nonnull(parse_exact(&pz, big.s, big.len));
	r = spaa_json_repeated_key(pz.v);
	ck_assert(r && !strcmp(r->key, "k7"));
	/* spaa_json_get: the first one counts */
	ck_assert_ptr_nonnull(parse_exact(&pz, "{\"p\":5,\"p\":7}", 13));
	ck_assert_uint_eq(spaa_json_get(pz.v, "p")->str[0], '5');
	free(big.s);
	parsed_done(&pz);
}
END_TEST

Suite *json_suite(void)
{
	Suite *s = suite_create("json");
	TCase *tc;

	tc = tcase_create("parse");
	tcase_add_loop_test(tc, test_valid, 0, (int)ARRAY_SIZE(valid_cases));
	tcase_add_loop_test(tc, test_error, 0, (int)ARRAY_SIZE(error_cases));
	tcase_add_test(tc, test_error_null_e);
	tcase_add_loop_test(tc, test_string, 0, (int)ARRAY_SIZE(string_cases));
	tcase_add_loop_test(tc, test_nesting, 0, 2);
	tcase_add_test(tc, test_nesting_siblings);
	tcase_add_test(tc, test_not_terminated);
	tcase_add_loop_test(tc, test_prefixes, 0, (int)ARRAY_SIZE(prefix_docs));
	tcase_add_test(tc, test_get);
	tcase_add_test(tc, test_repeated_key);
	tcase_add_test(tc, test_tree_shape);
	tcase_add_test(tc, test_type_names);
	tcase_add_test(tc, test_arena_reuse);
	tcase_add_test(tc, test_parse_more_keeps_trees);
	tcase_set_timeout(tc, 60);      /* generous for valgrind */
	suite_add_tcase(s, tc);

	tc = tcase_create("utf8");
	tcase_add_loop_test(tc, test_utf8_valid, 0,
			    (int)ARRAY_SIZE(utf8_cases));
	tcase_add_test(tc, test_utf8_agree);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);

	tc = tcase_create("numbers");
	tcase_add_loop_test(tc, test_u64, 0, (int)ARRAY_SIZE(u64_cases));
	tcase_add_loop_test(tc, test_i64, 0, (int)ARRAY_SIZE(i64_cases));
	tcase_add_loop_test(tc, test_double, 0, (int)ARRAY_SIZE(double_cases));
	tcase_add_test(tc, test_double_edges);
	tcase_add_test(tc, test_double_locale);
	tcase_add_loop_test(tc, test_scaled, 0, (int)ARRAY_SIZE(scaled_cases));
	tcase_add_test(tc, test_scaled_long);
	tcase_add_test(tc, test_scaled_vs_integer);
	tcase_add_test(tc, test_conv_not_number);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);

	tc = tcase_create("cjson");
	tcase_add_loop_test(tc, test_cjson_lines, 0,
			    (int)ARRAY_SIZE(spaa_lines));
	tcase_add_test(tc, test_cjson_fuzz);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);

	return s;
}
