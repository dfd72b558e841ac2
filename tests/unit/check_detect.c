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

#define FORMATS "; the tools read " SPAA_DETECT_FORMATS

/* What content of no format read here is said to be (line 0: binary, none). */
static const struct explain_case {
	const char *data;
	size_t len;             /* 0: strlen(data) */
	unsigned long line;
	const char *msg;        /* NULL: left to a reader (0)... */
	enum spaa_detect_format reader;         /* ...this one */
} explain_cases[] = {
	{ "\177ELF\2\1\1", 7, 0, "not a profile: it looks like an ELF executable, library or core file; profile the program with 'perf record -g' and give the perf.data it writes", SPAA_DETECT_UNKNOWN },
	{ "PERFFILE\0\0\0\0", 12, 0, "not a profile: it looks like a perf.data file of version 1 ('PERFFILE'), which the tools do not read; give what 'perf script -F +pid,+period' prints for it", SPAA_DETECT_UNKNOWN },
	{ "2ELIFREP\0\0\0\0", 12, 0, "not a profile: it looks like a perf.data file of the other byte order; run 'perf script -F +pid,+period' where it was recorded and give what it prints", SPAA_DETECT_UNKNOWN },
	{ "BZh91AY&SY", 0, 0, "not a profile: it looks like bzip2-compressed data; the tools undo gzip and zstd only: decompress it first ('bzip2 -dc FILE | PROGRAM -')", SPAA_DETECT_UNKNOWN },
	{ "PK\3\4\24\0", 6, 0, "not a profile: it looks like a ZIP archive; extract the profile first ('unzip FILE')", SPAA_DETECT_UNKNOWN },
	{ "%PDF-1.4\n", 0, 0, "not a profile: it looks like a PDF document" FORMATS, SPAA_DETECT_UNKNOWN },
	{ "\1\2\3\4 some text", 0, 0, "not a profile: it looks like binary data" FORMATS, SPAA_DETECT_UNKNOWN },
	{ "\n<!DOCTYPE html>\n<html></html>\n", 0, 2, "not a profile: it looks like an HTML page (a report or a flame graph?); give the profile it was made from", SPAA_DETECT_UNKNOWN },
	{ "<?xml version=\"1.0\"?>\n<svg width=\"1\">\n", 0, 1, "not a profile: it looks like an SVG picture (a flame graph?); give the profile it was drawn from", SPAA_DETECT_UNKNOWN },
	{ "<?xml version=\"1.0\"?>\n<a/>\n", 0, 1, "not a profile: it looks like XML or HTML" FORMATS, SPAA_DETECT_UNKNOWN },
	{ "[{\"ph\":\"X\"}]\n", 0, 1, "not a profile: it looks like a JSON array" FORMATS, SPAA_DETECT_UNKNOWN },
	{ "# Overhead  Command  Symbol\n#\n    45.00%  app  [.] main\n", 0, 3, "not a profile: it looks like the text 'perf report' prints, without stacks; give perf.data, or what 'perf script' prints", SPAA_DETECT_UNKNOWN },
	{ "File: app\nType: cpu\n", 0, 1, "not a profile: it looks like the text pprof prints, without stacks; give the pprof profile itself (the .pb.gz file)", SPAA_DETECT_UNKNOWN },
	{ "function,self\nmain,3\n", 0, 1, "not a profile: it looks like comma-separated values" FORMATS, SPAA_DETECT_UNKNOWN },
	{ "\xef\xbb\xbf{\"type\":\"header\"}\n", 0, 1, "not a profile: it looks like SPAA behind a UTF-8 byte order mark, which SPAA does not allow; remove those three bytes ('sed -i \"1s/^\\xEF\\xBB\\xBF//\" FILE')", SPAA_DETECT_UNKNOWN },
	{ "  \nHello world\n", 0, 2, "not a profile: the line is not an SPAA record, a perf script sample header or folded stacks ('a;b;c COUNT')" FORMATS, SPAA_DETECT_UNKNOWN },
	{ "\n \n# only a comment\n", 0, 0, "the input is empty: only blank lines and '#' comments", SPAA_DETECT_UNKNOWN },
	/* folded stacks gone wrong: the folded reader says what is wrong */
	{ "main;work three\n", 0, 0, NULL, SPAA_DETECT_FOLDED },
	/* a JSON string: the SPAA reader */
	{ "\"header\"\n", 0, 0, NULL, SPAA_DETECT_SPAA },
	/* no bytes: each reader calls it empty */
	{ "", 0, 0, NULL, SPAA_DETECT_SPAA },
};

START_TEST(test_explain)
{
	const struct explain_case *c = &explain_cases[_i];
	size_t n = c->len ? c->len : strlen(c->data);
	const char *path = testutil_write("in", c->data, n);
	enum spaa_detect_format fmt;
	struct spaa_error err;
	struct spaa_input *in;
	char *line;
	size_t len;

	spaa_error_init(&err);
	ck_assert_int_eq(spaa_input_open(&in, path, NULL, &err), 0);
	if (!c->msg) {
		ck_assert_int_eq(spaa_detect_explain(in, &fmt, &err), 0);
		ck_assert_int_eq(fmt, c->reader);
		/* nothing consumed */
		if (n)
			ck_assert_int_eq(spaa_input_getline(in, &line, &len, &err), 1);
	} else {
		ck_assert_int_eq(spaa_detect_explain(in, &fmt, &err), -1);
		ck_assert_str_eq(err.code, c->line || strncmp(c->msg, "the input is empty", 18) ?
				 SPAA_E_PARSE : SPAA_E_NO_DATA);
		ck_assert_str_eq(err.file, path);
		ck_assert_uint_eq(err.line, c->line);
		ck_assert_str_eq(err.msg, c->msg);
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
	tcase_add_loop_test(tc, test_explain, 0,
			    (int)(sizeof(explain_cases) / sizeof(explain_cases[0])));
	suite_add_tcase(s, tc);
	return s;
}
