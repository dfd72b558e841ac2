#include <check.h>
#include <string.h>

#include "formats/detect.h"
#include "testutil.h"

static void setup(void)
{
	testutil_tmpdir_setup("check_detect");
}

static void teardown(void)
{
	testutil_tmpdir_teardown();
}

static const struct detect_case {
	const char *text;
	enum spaa_detect_format want;
} detect_cases[] = {
	{ "{\"type\":\"header\"}\n", SPAA_DETECT_SPAA },
	{ "\n  \t{\"type\":\"header\"}\n", SPAA_DETECT_SPAA },
	{ "# comment\nmain;work 3\n", SPAA_DETECT_FOLDED },
	{ "main;work with blanks 3\r\n", SPAA_DETECT_FOLDED },
	{ "main 0", SPAA_DETECT_FOLDED },
	{ "app 100/101 [000]    10.000000100:       1000 cycles: \n"
	  "\t 1234 work+0x4 (/usr/bin/app)\n", SPAA_DETECT_PERF },
	{ "kworker/0:1 7 [001] 1.5: 1 cpu-clock:\n", SPAA_DETECT_PERF },
	/* neither: the loader gives it to the SPAA reader, convert to folded */
	{ "main;work three\n", SPAA_DETECT_UNKNOWN },
	{ "\xef\xbb\xbf{\"type\":\"header\"}\n", SPAA_DETECT_UNKNOWN },
	{ "3\n", SPAA_DETECT_UNKNOWN },
	/* a '\n', a length, then no ValueType: text, not pprof */
	{ "\n\nHello world\n", SPAA_DETECT_UNKNOWN },
	{ "\n\n\tmain;work 3\n", SPAA_DETECT_FOLDED },
	{ "", SPAA_DETECT_EMPTY },
	{ "\n\n# only a comment\n", SPAA_DETECT_EMPTY },
};

/*
 * perf.data by its magic; pprof by content: the hand-made profile (plain), the same gzip'd, Go's
 * own (time_nanos before sample_type), a damaged one; text that starts
 * with '\n' and protobuf-like bytes is not pprof.
 */
static const struct pprof_case {
	const char *path;
	enum spaa_detect_format want;
} pprof_cases[] = {
	{ "tests/data/pprof/synthetic.pb", SPAA_DETECT_PPROF },
	{ "tests/data/pprof/synthetic_last.pb.gz", SPAA_DETECT_PPROF },
	{ "tests/data/pprof/go_cpu.pb.gz", SPAA_DETECT_PPROF },
	{ "tests/data/bad/pprof_truncated.pb", SPAA_DETECT_PPROF },
	{ "tests/data/bad/pprof_wire_type.pb", SPAA_DETECT_PPROF },
	{ "tests/data/perf/busy.perf.data", SPAA_DETECT_PERF_DATA },
	{ "tests/data/convert_small.folded", SPAA_DETECT_FOLDED },
	{ "tests/data/basic.spaa.gz", SPAA_DETECT_SPAA },
};

START_TEST(test_detect_pprof)
{
	const struct pprof_case *c = &pprof_cases[_i];
	enum spaa_detect_format fmt = (enum spaa_detect_format)-1;
	struct spaa_error err;
	struct spaa_input *in;

	spaa_error_init(&err);
	ck_assert_int_eq(spaa_input_open(&in, c->path, NULL, &err), 0);
	ck_assert_int_eq(spaa_detect(in, &fmt, &err), 0);
	ck_assert_msg(fmt == c->want, "%s: got %d, want %d", c->path, fmt, c->want);
	spaa_input_close(in);
}
END_TEST

START_TEST(test_detect)
{
	const struct detect_case *c = &detect_cases[_i];
	const char *path = testutil_write("in", c->text, strlen(c->text));
	enum spaa_detect_format fmt = (enum spaa_detect_format)-1;
	struct spaa_error err;
	struct spaa_input *in;
	char *line;
	size_t len;

	spaa_error_init(&err);
	ck_assert_int_eq(spaa_input_open(&in, path, NULL, &err), 0);
	ck_assert_int_eq(spaa_detect(in, &fmt, &err), 0);
	ck_assert_int_eq(fmt, c->want);
	/* nothing consumed: the reader starts at line 1 */
	if (*c->text) {
		ck_assert_int_eq(spaa_input_getline(in, &line, &len, &err), 1);
		ck_assert_uint_eq(spaa_input_lineno(in), 1);
		ck_assert(!strncmp(line, c->text, len));
	}
	spaa_input_close(in);
}
END_TEST

Suite *detect_suite(void)
{
	Suite *s = suite_create("detect");
	TCase *tc = tcase_create("content");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_detect, 0,
			    (int)(sizeof(detect_cases) / sizeof(detect_cases[0])));
	tcase_add_loop_test(tc, test_detect_pprof, 0,
			    (int)(sizeof(pprof_cases) / sizeof(pprof_cases[0])));
	suite_add_tcase(s, tc);
	return s;
}
