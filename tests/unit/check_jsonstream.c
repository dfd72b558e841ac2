/*
 * Unit tests for common/io/jsonstream.c.
 *
 * The tree parser json.c is the second method: every document is read
 * both ways, and the stream's tokens must be a walk of json.c's tree
 * (same types, keys, strings, number texts in the same order), and a
 * document must be rejected by one exactly when the other rejects it.
 * Documents larger than the input's chunks check tokens split across
 * chunks; capture must hand back each value's exact text.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/input.h"
#include "io/json.h"
#include "io/jsonstream.h"
#include "model/sbuf.h"
#include "model/util.h"
#include "testutil.h"

Suite *jsonstream_suite(void);

static void setup(void)
{
	testutil_tmpdir_setup("check_jsonstream");
}

static void teardown(void)
{
	testutil_tmpdir_teardown();
}

/* The tokens of the tree v, as the stream would give them, into sb. */
static void walk(const struct spaa_json_value *v, struct spaa_sbuf *sb)
{
	switch (v->type) {
	case SPAA_JSON_OBJECT:
	case SPAA_JSON_ARRAY:
		spaa_sbuf_adds(sb, v->type == SPAA_JSON_OBJECT ? "{\n" : "[\n");
		for (const struct spaa_json_value *c = v->child; c; c = c->next) {
			if (c->key) {
				spaa_sbuf_adds(sb, "K");
				spaa_sbuf_add(sb, c->key, c->key_len);
				spaa_sbuf_adds(sb, "\n");
			}
			walk(c, sb);
		}
		spaa_sbuf_adds(sb, v->type == SPAA_JSON_OBJECT ? "}\n" : "]\n");
		break;
	case SPAA_JSON_STRING:
		spaa_sbuf_adds(sb, "S");
		spaa_sbuf_add(sb, v->str, v->len);
		spaa_sbuf_adds(sb, "\n");
		break;
	case SPAA_JSON_NUMBER:
		spaa_sbuf_adds(sb, "N");
		spaa_sbuf_add(sb, v->str, v->len);
		spaa_sbuf_adds(sb, "\n");
		break;
	default:
		spaa_sbuf_adds(sb, v->type == SPAA_JSON_NULL ? "Lnull\n" :
			       v->type == SPAA_JSON_TRUE ? "Ltrue\n" : "Lfalse\n");
	}
}

/* The stream's tokens of text (written to a file) into sb; 0 or -1. */
static int stream(const char *text, size_t len, struct spaa_sbuf *sb,
		  struct spaa_error *err)
{
	static const char *const open[] = { [SPAA_JSONSTREAM_OBJECT] = "{",
		[SPAA_JSONSTREAM_OBJECT_END] = "}", [SPAA_JSONSTREAM_ARRAY] = "[",
		[SPAA_JSONSTREAM_ARRAY_END] = "]", [SPAA_JSONSTREAM_KEY] = "K",
		[SPAA_JSONSTREAM_STRING] = "S", [SPAA_JSONSTREAM_NUMBER] = "N",
		[SPAA_JSONSTREAM_LITERAL] = "L" };
	const char *path = testutil_write("doc.json", text, len);
	struct spaa_input *in;
	struct spaa_jsonstream *js;
	struct spaa_jsonstream_token t;
	int ret = -1;

	ck_assert_int_eq(spaa_input_open(&in, path, NULL, err), 0);
	js = spaa_jsonstream_new(in, 0, 0);
	for (;;) {
		if (spaa_jsonstream_next(js, &t, err))
			goto out;
		if (t.type == SPAA_JSONSTREAM_END)
			break;
		spaa_sbuf_adds(sb, open[t.type]);
		if (t.str)
			spaa_sbuf_add(sb, t.str, t.len);
		spaa_sbuf_adds(sb, "\n");
	}
	ret = 0;
out:
	spaa_jsonstream_free(js);
	spaa_input_close(in);
	return ret;
}

/* Both readers agree on text: the same tokens, or both reject it. */
static void agree(const char *text, size_t len)
{
	struct spaa_json_parser *p = spaa_json_parser_new();
	struct spaa_json_error je;
	const struct spaa_json_value *v = spaa_json_parse(p, text, len, &je);
	struct spaa_sbuf a = { 0 }, b = { 0 };
	struct spaa_error err;
	int r;

	spaa_error_init(&err);
	if (v)
		walk(v, &a);
	r = stream(text, len, &b, &err);
	ck_assert_msg((v != NULL) == (r == 0), "%.*s: tree %s, stream %s", (int)len, text,
		      v ? "accepts" : je.msg, r ? err.msg : "accepts");
	if (v)
		ck_assert_str_eq(a.s, b.s);
	else
		ck_assert_str_ne(err.code, "");
	free(a.s);
	free(b.s);
	spaa_json_parser_free(p);
}

static const char *const docs[] = {
	"{}", "[]", "0", "-0.5e+10", "\"x\"", "true", "null", " [ 1 , 2 ] \n",
	"{\"a\":[1,{\"b\":null,\"c\":[true,false]}],\"d\":\"\\u00e9\\ud83d\\ude00\\n\\\"\"}",
	"{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"f\\/g\"}}],\"samples\":[1,1]}",
	"\"h\xc3\xa9llo\"", "[1e5,1E-5,0.0,-0,123456789012345678901234567890]",
	/* rejected by both */
	"", "[", "{", "[1,]", "{\"a\"}", "{\"a\":}", "{,}", "[1 2]", "01", "1.", "-",
	".5", "1e", "+1", "tru", "nul", "[\"a\nb\"]", "\"\\x\"", "\"\\ud800\"",
	"\"\\udc00x\"", "\"\xc3\"", "\"\xc0\xaf\"", "\"\xed\xa0\x80\"", "{} {}",
	"[1]]", "{\"a\":1,}", "[NaN]", "{'a':1}", "\"abc",
};

START_TEST(test_agrees_with_tree_parser)
{
	for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++)
		agree(docs[i], strlen(docs[i]));
	/* a NUL inside and after */
	agree("[1]\0", 4);
	agree("\"a\\u0000b\"", 10);
}
END_TEST

/* A document of many chunks: long strings and numbers across their edges. */
START_TEST(test_large_document)
{
	struct spaa_sbuf doc = { 0 };

	spaa_sbuf_adds(&doc, "{\"samples\":[");
	for (int i = 0; i < 200000; i++)
		spaa_sbuf_printf(&doc, "%s%d", i ? "," : "", i * 7919 - 5000);
	spaa_sbuf_adds(&doc, "],\"long\":\"");
	for (int i = 0; i < 100000; i++)
		spaa_sbuf_adds(&doc, i % 3 ? "ab\\n" : "\xc3\xa9");
	spaa_sbuf_adds(&doc, "\"}");
	agree(doc.s, doc.len);
	free(doc.s);
}
END_TEST

START_TEST(test_capture_and_skip)
{
	static const char text[] = "{\"skip\":{\"a\":[1,[2,{}]]},\"list\":[ {\"x\" : 1} ,[2, \"]\"],\"s\", 3 ],\"end\":true}";
	static const char *const want[] = { "{\"x\" : 1}", "[2, \"]\"]", "\"s\"", "3" };
	const char *path = testutil_write("cap.json", text, strlen(text));
	struct spaa_input *in;
	struct spaa_jsonstream *js;
	struct spaa_jsonstream_token t;
	struct spaa_error err;
	const char *cap;
	size_t len, n = 0;
	int r;

	spaa_error_init(&err);
	ck_assert_int_eq(spaa_input_open(&in, path, NULL, &err), 0);
	js = spaa_jsonstream_new(in, 0, 0);
	ck_assert_int_eq(spaa_jsonstream_next(js, &t, &err), 0);
	ck_assert_int_eq(spaa_jsonstream_next(js, &t, &err), 0);
	ck_assert_str_eq(t.str, "skip");
	ck_assert_int_eq(spaa_jsonstream_next(js, &t, &err), 0);
	ck_assert_int_eq(t.type, SPAA_JSONSTREAM_OBJECT);
	ck_assert_int_eq(spaa_jsonstream_skip(js, &err), 0);
	ck_assert_int_eq(spaa_jsonstream_next(js, &t, &err), 0);
	ck_assert_str_eq(t.str, "list");
	ck_assert_int_eq(spaa_jsonstream_next(js, &t, &err), 0);
	ck_assert_int_eq(t.type, SPAA_JSONSTREAM_ARRAY);
	while (!(r = spaa_jsonstream_capture(js, &cap, &len, &err))) {
		ck_assert_uint_lt(n, 4);
		ck_assert_uint_eq(len, strlen(want[n]));
		ck_assert_str_eq(cap, want[n]);
		n++;
	}
	ck_assert_int_eq(r, 1);
	ck_assert_uint_eq(n, 4);
	ck_assert_int_eq(spaa_jsonstream_next(js, &t, &err), 0);
	ck_assert_str_eq(t.str, "end");
	ck_assert_int_eq(spaa_jsonstream_next(js, &t, &err), 0);
	ck_assert_str_eq(t.str, "true");
	ck_assert_int_eq(spaa_jsonstream_next(js, &t, &err), 0);
	ck_assert_int_eq(t.type, SPAA_JSONSTREAM_OBJECT_END);
	ck_assert_int_eq(spaa_jsonstream_next(js, &t, &err), 0);
	ck_assert_int_eq(t.type, SPAA_JSONSTREAM_END);
	spaa_jsonstream_free(js);
	spaa_input_close(in);
}
END_TEST

START_TEST(test_limits_and_positions)
{
	const char *path = testutil_write("deep.json", "[[[[1]]]]", 9);
	struct spaa_input *in;
	struct spaa_jsonstream *js;
	struct spaa_jsonstream_token t;
	struct spaa_error err;
	const char *cap;
	size_t len;
	int r = 0;

	spaa_error_init(&err);
	ck_assert_int_eq(spaa_input_open(&in, path, NULL, &err), 0);
	js = spaa_jsonstream_new(in, 3, 0);
	for (int i = 0; i < 4 && !r; i++)
		r = spaa_jsonstream_next(js, &t, &err);
	ck_assert_int_eq(r, -1);
	ck_assert_str_eq(err.code, SPAA_E_LIMIT);
	spaa_jsonstream_free(js);
	spaa_input_close(in);

	path = testutil_write("long.json", "[\"abcdefgh\",\n[1,2,3,4,5]]", 26);
	ck_assert_int_eq(spaa_input_open(&in, path, NULL, &err), 0);
	js = spaa_jsonstream_new(in, 0, 6);
	ck_assert_int_eq(spaa_jsonstream_next(js, &t, &err), 0);
	ck_assert_int_eq(spaa_jsonstream_next(js, &t, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_LIMIT);
	spaa_jsonstream_free(js);
	spaa_input_close(in);

	/* the second line, past the string: captures are bounded too */
	ck_assert_int_eq(spaa_input_open(&in, path, NULL, &err), 0);
	js = spaa_jsonstream_new(in, 0, 9);
	ck_assert_int_eq(spaa_jsonstream_next(js, &t, &err), 0);
	ck_assert_int_eq(spaa_jsonstream_next(js, &t, &err), 0);
	ck_assert_int_eq(spaa_jsonstream_capture(js, &cap, &len, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_LIMIT);
	ck_assert_uint_eq(err.line, 2);
	spaa_jsonstream_free(js);
	spaa_input_close(in);
}
END_TEST

Suite *jsonstream_suite(void)
{
	Suite *s = suite_create("jsonstream");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_agrees_with_tree_parser);
	tcase_add_test(tc, test_large_document);
	tcase_add_test(tc, test_capture_and_skip);
	tcase_add_test(tc, test_limits_and_positions);
	suite_add_tcase(s, tc);
	return s;
}
