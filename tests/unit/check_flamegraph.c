/*
 * check_flamegraph - kinds from DSO names, the trie's sums and overflow,
 * and the XML text of hostile names (invalid UTF-8, markup, controls).
 * Layout and colours are checked end to end by tests/cli_flamegraph.py.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/util.h"
#include "report/flamegraph.h"
#include "testutil.h"

Suite *flamegraph_suite(void);

static void setup(void)
{
	testutil_tmpdir_setup("check_flamegraph");
}

static void teardown(void)
{
	testutil_tmpdir_teardown();
}

START_TEST(test_classify)
{
	static const struct {
		const char *dso;
		bool kernel;
		enum spaa_flamegraph_kind kind;
	} cases[] = {
		{ NULL, false, SPAA_FLAMEGRAPH_USER },
		{ "", false, SPAA_FLAMEGRAPH_USER },
		{ "[unknown]", false, SPAA_FLAMEGRAPH_USER },
		{ "/usr/bin/app", false, SPAA_FLAMEGRAPH_USER },
		{ "/usr/bin/app", true, SPAA_FLAMEGRAPH_KERNEL },
		{ "[kernel.kallsyms]", false, SPAA_FLAMEGRAPH_KERNEL },
		{ "[nf_tables.ko]", false, SPAA_FLAMEGRAPH_KERNEL },
		{ "/proc/kallsyms", false, SPAA_FLAMEGRAPH_KERNEL },
		{ "/lib/x86_64-linux-gnu/libc.so.6", false, SPAA_FLAMEGRAPH_LIBRARY },
		{ "/usr/lib/libz.so", false, SPAA_FLAMEGRAPH_LIBRARY },
		{ "libsystem_c.dylib", false, SPAA_FLAMEGRAPH_LIBRARY },
		{ "KERNEL32.DLL", false, SPAA_FLAMEGRAPH_LIBRARY },
		{ "/tmp/perf-4242.map", false, SPAA_FLAMEGRAPH_JIT },
		{ "[JIT] tid 7", false, SPAA_FLAMEGRAPH_JIT },
		{ "/home/u/.debug/jit/jitted-123-4.so", false, SPAA_FLAMEGRAPH_JIT },
		{ "//anon", false, SPAA_FLAMEGRAPH_JIT },
		{ "php", false, SPAA_FLAMEGRAPH_INTERPRETED },
		{ "node:internal/streams/writable", false, SPAA_FLAMEGRAPH_INTERPRETED },
		{ "file:///srv/app.js", false, SPAA_FLAMEGRAPH_INTERPRETED },
		{ "/srv/tool.py", false, SPAA_FLAMEGRAPH_INTERPRETED },
		{ "/usr/bin/php8.2", false, SPAA_FLAMEGRAPH_USER },  /* the interpreter's own C */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ck_assert_msg(spaa_flamegraph_classify(cases[i].dso, cases[i].kernel) == cases[i].kind,
			      "%s", cases[i].dso ? cases[i].dso : "(null)");
}
END_TEST

/* The document fg writes with opts, as a malloc'ed string. */
static char *render(const struct spaa_flamegraph *fg, const struct spaa_flamegraph_opts *o,
		    int *ret, struct spaa_error *err)
{
	const char *path = testutil_path("out.svg");
	struct spaa_output *out;
	char *buf = NULL;
	size_t n = 0, alloc = 0, got;
	FILE *f;

	spaa_error_init(err);
	ck_assert_int_eq(spaa_output_open(&out, path, SPAA_INPUT_COMP_NONE, 0, err), 0);
	*ret = spaa_flamegraph_write(fg, o, out, err);
	if (*ret) {
		spaa_output_abort(out);
		return NULL;
	}
	ck_assert_int_eq(spaa_output_close(out, err), 0);
	f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	do {
		SPAA_ALLOC_GROW(buf, n + 65537, alloc);
		got = fread(buf + n, 1, 65536, f);
		n += got;
	} while (got);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void push(struct spaa_flamegraph *fg, const char *name)
{
	spaa_flamegraph_push(fg, name, strlen(name), "/usr/bin/app", SPAA_FLAMEGRAPH_USER);
}

START_TEST(test_sums_and_limits)
{
	struct spaa_flamegraph *fg = spaa_flamegraph_new();
	struct spaa_flamegraph_opts o = { .title = "t" };
	struct spaa_error err;
	char *doc;
	int ret;

	doc = render(fg, &o, &ret, &err);
	ck_assert_ptr_null(doc);
	ck_assert_str_eq(err.code, SPAA_E_NO_DATA);
	spaa_flamegraph_begin(fg);
	push(fg, "main");
	push(fg, "a");
	ck_assert_int_eq(spaa_flamegraph_add(fg, 5, 0, &err), 0);
	spaa_flamegraph_begin(fg);
	push(fg, "main");
	ck_assert_int_eq(spaa_flamegraph_add(fg, 2, 0, &err), 0);
	ck_assert_uint_eq(spaa_flamegraph_total(fg), 7);
	ck_assert_int_eq(spaa_flamegraph_add(fg, UINT64_MAX, 0, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_LIMIT);
	ck_assert_uint_eq(spaa_flamegraph_total(fg), 7);     /* left unchanged */
	o.width = 99;
	doc = render(fg, &o, &ret, &err);
	ck_assert_ptr_null(doc);
	ck_assert_str_eq(err.code, SPAA_E_USAGE);
	o.width = 0;
	doc = render(fg, &o, &ret, &err);
	ck_assert_int_eq(ret, 0);
	/* main merged: 7 of 7 (1180 px), a 5 of 7 (842.86 px); self 2 */
	ck_assert_ptr_nonnull(strstr(doc, "<title>main\n/usr/bin/app (native)\n"
				     "total 7 (100.00 %), self 2 (28.57 %)</title>"
				     "<rect x=\"10.00\" y=\"88\" width=\"1180.00\""));
	ck_assert_ptr_nonnull(strstr(doc, "width=\"842.86\""));
	free(doc);
	spaa_flamegraph_free(fg);
	spaa_flamegraph_free(NULL);
}
END_TEST

START_TEST(test_hostile_names)
{
	struct spaa_flamegraph *fg = spaa_flamegraph_new();
	struct spaa_flamegraph_opts o = { .title = "<t&\"'>\xff" };
	struct spaa_error err;
	/*
	 * markup, invalid UTF-8 (stray byte, overlong, surrogate: one U+FFFD
	 * per maximal subpart), U+FFFF (valid UTF-8, not XML), controls,
	 * valid UTF-8 that must survive, and a cut sequence (one U+FFFD)
	 */
	static const char name[] = "a<b>&\"'\x80\xc0\xaf\xed\xa0\x80\xef\xbf\xbf\x01\x1f\x7f"
				   "caf\xc3\xa9 \xf0\x9f\x94\xa5\xe2\x82";
	char *doc;
	int ret;

	spaa_flamegraph_begin(fg);
	spaa_flamegraph_push(fg, name, sizeof(name) - 1, "/lib/x<y>.so", SPAA_FLAMEGRAPH_LIBRARY);
	ck_assert_int_eq(spaa_flamegraph_add(fg, 1, 0, &err), 0);
	doc = render(fg, &o, &ret, &err);
	ck_assert_int_eq(ret, 0);
	ck_assert_ptr_nonnull(strstr(doc, "<title>&lt;t&amp;&quot;&apos;&gt;\xef\xbf\xbd</title>"));
	ck_assert_ptr_nonnull(strstr(doc,
		"<title>a&lt;b&gt;&amp;&quot;&apos;"
		"\xef\xbf\xbd" "\xef\xbf\xbd\xef\xbf\xbd" "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
		"\xef\xbf\xbd" "   caf\xc3\xa9 \xf0\x9f\x94\xa5"
		"\xef\xbf\xbd\n/lib/x&lt;y&gt;.so (library)\n"));
	for (const char *p = doc; *p; p++)
		ck_assert_msg((unsigned char)*p >= 0x20 || *p == '\n', "control byte %d", *p);
	free(doc);
	spaa_flamegraph_free(fg);
}
END_TEST

START_TEST(test_frames_bound)
{
	/*
	 * 100001 leaves of weight 1 under the root, no minimum width: 100002
	 * frames, past the bound; at 0.1 px (the first width tried) each
	 * leaf, 1180 / 100001 px wide, is left out.
	 */
	struct spaa_flamegraph *fg = spaa_flamegraph_new();
	struct spaa_flamegraph_opts o = { 0 };
	struct spaa_error err;
	char *doc, name[16];
	int ret;

	for (int i = 0; i < 100001; i++) {
		spaa_flamegraph_begin(fg);
		snprintf(name, sizeof(name), "f%d", i);
		push(fg, name);
		ck_assert_int_eq(spaa_flamegraph_add(fg, 1, 0, &err), 0);
	}
	doc = render(fg, &o, &ret, &err);
	ck_assert_int_eq(ret, 0);
	ck_assert_ptr_nonnull(strstr(doc, ">100001 frames narrower than 0.1 px (100.00 %) not "
				     "drawn; at most 100000 frames in a view<"));
	ck_assert_ptr_null(strstr(doc, "<title>f0\n"));
	free(doc);
	spaa_flamegraph_free(fg);
}
END_TEST

START_TEST(test_deep_stack)
{
	struct spaa_flamegraph *fg = spaa_flamegraph_new();
	struct spaa_flamegraph_opts o = { 0 };
	struct spaa_error err;
	char *doc, name[16];
	int ret;

	/* deeper than any C recursion over the tree would survive comfortably */
	spaa_flamegraph_begin(fg);
	for (int i = 0; i < 20000; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		push(fg, name);
	}
	ck_assert_int_eq(spaa_flamegraph_add(fg, 3, 0, &err), 0);
	doc = render(fg, &o, &ret, &err);
	ck_assert_int_eq(ret, 0);
	/* the leaf is on top, the root 20000 levels below it */
	ck_assert_ptr_nonnull(strstr(doc, "<title>f19999\n"));
	ck_assert_ptr_nonnull(strstr(doc, "height=\"320116\""));
	free(doc);
	spaa_flamegraph_free(fg);
}
END_TEST

Suite *flamegraph_suite(void)
{
	Suite *s = suite_create("flamegraph");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_classify);
	tcase_add_test(tc, test_sums_and_limits);
	tcase_add_test(tc, test_hostile_names);
	tcase_add_test(tc, test_deep_stack);
	tcase_add_test(tc, test_frames_bound);
	suite_add_tcase(s, tc);
	return s;
}
