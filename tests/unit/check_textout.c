/*
 * check_textout - the human and CSV renderings of result tables: unit
 * strings computed by hand (rounding half up on the decimal value, unit
 * changes at the rounding boundary), a text table and a CSV block with
 * every cell class, UTF-8 alignment and the "…" cut, and the progress
 * bar's drawing and erasing.  The expected tables were laid out by an
 * independent Python script (str.ljust/rjust over code points) from the
 * hand-written cell texts.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/lami.h"
#include "report/textout.h"
#include "testutil.h"

Suite *textout_suite(void);

static const struct {
	int64_t v;
	const char *text;
} durations[] = {
	{ 0, "0 ns" }, { 999, "999 ns" }, { 1000, "1 \xc2\xb5s" },
	{ 1234, "1.23 \xc2\xb5s" }, { 1235, "1.24 \xc2\xb5s" },
	/* 1.005 ms: half up on the decimal value, not on a double's 1.00499.. */
	{ 1005000, "1.01 ms" },
	{ 9995000, "10 ms" },           /* 9.995 -> 10.0: one digit fewer */
	{ 12345678, "12.3 ms" }, { 123456789, "123 ms" },
	{ 999499999, "999 ms" },        /* 999.499999 ms rounds down */
	{ 999500000, "1 s" },           /* 999.5 ms rounds to 1000 ms = 1 s */
	{ 999950000, "1 s" },
	{ 1477477476, "1.48 s" }, { 1500500499, "1.5 s" },
	{ 3600000000000, "3600 s" },    /* no unit above seconds */
	{ -1590000000, "-1.59 s" },
	{ INT64_MIN, "-9223372037 s" }, /* 9223372036.854775808 s */
};

static const struct {
	int64_t v;
	const char *text;
} sizes[] = {
	{ 0, "0 B" }, { 1023, "1023 B" }, { 1024, "1 KiB" }, { 1536, "1.5 KiB" },
	{ 1600, "1.56 KiB" },           /* 1.5625 */
	{ 4718592, "4.5 MiB" },
	{ 1024000, "0.98 MiB" },        /* 1000 KiB = 0.9765625 MiB */
	{ 1023999, "0.98 MiB" },        /* 999.999 KiB rounds to 1000 KiB */
	{ 1073741824, "1 GiB" }, { -300, "-300 B" },
	{ INT64_MAX, "8 EiB" },         /* 7.99999999999999999913 EiB */
};

START_TEST(test_duration)
{
	char buf[SPAA_TEXTOUT_UNIT_BUF];

	ck_assert_str_eq(spaa_textout_duration(durations[_i].v, buf, sizeof(buf)),
			 durations[_i].text);
}
END_TEST

START_TEST(test_size)
{
	char buf[SPAA_TEXTOUT_UNIT_BUF];

	ck_assert_str_eq(spaa_textout_size(sizes[_i].v, buf, sizeof(buf)),
			 sizes[_i].text);
}
END_TEST

START_TEST(test_ratio_number_timestamp)
{
	char buf[SPAA_TEXTOUT_UNIT_BUF];

	ck_assert_str_eq(spaa_textout_ratio(0.3721, buf, sizeof(buf)), "37.2 %");
	ck_assert_str_eq(spaa_textout_ratio(1, buf, sizeof(buf)), "100.0 %");
	ck_assert_str_eq(spaa_textout_ratio(0, buf, sizeof(buf)), "0.0 %");
	ck_assert_str_eq(spaa_textout_ratio(-0.0001, buf, sizeof(buf)), "0.0 %");
	ck_assert_str_eq(spaa_textout_ratio(-0.243, buf, sizeof(buf)), "-24.3 %");
	ck_assert_str_eq(spaa_textout_ratio(1.17559555259027, buf, sizeof(buf)),
			 "117.6 %");
	/* exact binary ties round away from zero, not to even */
	ck_assert_str_eq(spaa_textout_ratio(-0.3125, buf, sizeof(buf)), "-31.3 %");
	ck_assert_str_eq(spaa_textout_ratio(0.0625, buf, sizeof(buf)), "6.3 %");
	ck_assert_str_eq(spaa_textout_ratio(-0.00004, buf, sizeof(buf)), "0.0 %");

	ck_assert_str_eq(spaa_textout_number(42, NULL, buf, sizeof(buf)), "42");
	ck_assert_str_eq(spaa_textout_number(-3, "count", buf, sizeof(buf)), "-3 count");
	ck_assert_str_eq(spaa_textout_number(12.345, NULL, buf, sizeof(buf)), "12.3");
	ck_assert_str_eq(spaa_textout_number(0.0123, NULL, buf, sizeof(buf)), "0.0123");
	ck_assert_str_eq(spaa_textout_number(1234567890, "cycles", buf, sizeof(buf)),
			 "1.23G cycles");
	ck_assert_str_eq(spaa_textout_number(999.7, NULL, buf, sizeof(buf)), "1k");
	ck_assert_str_eq(spaa_textout_number(-25000, NULL, buf, sizeof(buf)), "-25k");
	/* spaa-diff's signed deltas in ns and bytes read as durations, sizes */
	ck_assert_str_eq(spaa_textout_number(1584286257.67601, "ns", buf, sizeof(buf)),
			 "1.58 s");
	ck_assert_str_eq(spaa_textout_number(-2500.5, "ns", buf, sizeof(buf)),
			 "-2.5 \xc2\xb5s");     /* -2501 ns */
	ck_assert_str_eq(spaa_textout_number(-200, "bytes", buf, sizeof(buf)), "-200 B");

	ck_assert_str_eq(spaa_textout_timestamp(100000000001, buf, sizeof(buf)),
			 "100.000000001");
	ck_assert_str_eq(spaa_textout_timestamp(-5, buf, sizeof(buf)), "-0.000000005");
	ck_assert_str_eq(spaa_textout_timestamp(0, buf, sizeof(buf)), "0.000000000");
}
END_TEST

static const struct spaa_lami_column self_cols[] = {
	{ "Function", SPAA_LAMI_STRING, NULL },
	{ "Self", SPAA_LAMI_DURATION, NULL },
	{ "Share", SPAA_LAMI_RATIO, NULL },
};

static const struct spaa_lami_table_class self_class = {
	"self", "Self time", self_cols, 3,
};

/* Non-ASCII names align by code points; long ones are cut around "…". */
START_TEST(test_text_alignment)
{
	struct spaa_lami_results r;
	struct spaa_lami_table *t = spaa_lami_table_new(&self_class, 0, 10);
	struct testutil_capture c;
	char longname[81];

	memset(longname, 'a', 40);
	memset(longname + 40, 'b', 40);
	longname[80] = '\0';
	spaa_lami_table_set_title(t, "Self time (\xc3\xa9t\xc3\xa9)");
	spaa_lami_row_begin(t);
	spaa_lami_cell_string(t, "main");
	spaa_lami_cell_duration(t, 1477477476);
	spaa_lami_cell_ratio(t, 0.3721);
	spaa_lami_row_end(t);
	spaa_lami_row_begin(t);
	spaa_lami_cell_string(t, "caf\xc3\xa9\xe2\x86\x92\xce\xbb");
	spaa_lami_cell_duration(t, 4718);
	spaa_lami_cell_ratio(t, 0.05);
	spaa_lami_row_end(t);
	spaa_lami_row_begin(t);
	spaa_lami_cell_string(t, longname);
	spaa_lami_cell_unknown(t);
	spaa_lami_cell_empty(t);
	spaa_lami_row_end(t);
	spaa_lami_row_begin(t);
	spaa_lami_cell_string(t, "x\ny");
	spaa_lami_cell_duration(t, 0);
	spaa_lami_cell_ratio(t, 0);
	spaa_lami_row_end(t);
	spaa_lami_results_init(&r);
	spaa_lami_results_add(&r, t);

	spaa_textout_write(testutil_capture_open(&c), &r, SPAA_TEXTOUT_TEXT);
	ck_assert_str_eq(testutil_capture_close(&c),
		"Self time (\xc3\xa9t\xc3\xa9)\n"
		"Function                                                         Self   Share\n"
		"------------------------------------------------------------  -------  ------\n"
		"main                                                           1.48 s  37.2 %\n"
		"caf\xc3\xa9\xe2\x86\x92\xce\xbb                                                        4.72 \xc2\xb5s   5.0 %\n"
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\xe2\x80\xa6" "bbbbbbbbbbbbbbbbbbbbbbbbbbbbb        ?\n"
		"x y                                                              0 ns   0.0 %\n");
	testutil_capture_free(&c);
	spaa_lami_results_release(&r);
}
END_TEST

static const struct spaa_lami_column every_cols[] = {
	{ "Name", SPAA_LAMI_STRING, NULL }, { "N", SPAA_LAMI_INT, NULL },
	{ "Flag", SPAA_LAMI_BOOL, NULL }, { "Share", SPAA_LAMI_RATIO, NULL },
	{ "At", SPAA_LAMI_TIMESTAMP, NULL }, { "Span", SPAA_LAMI_TIME_RANGE, NULL },
	{ "Took", SPAA_LAMI_DURATION, NULL }, { "Mem", SPAA_LAMI_SIZE, NULL },
	{ "Who", SPAA_LAMI_PROCESS, NULL }, { "File", SPAA_LAMI_PATH, NULL },
	{ "CPU", SPAA_LAMI_CPU, NULL }, { "Delta", SPAA_LAMI_NUMBER, "ns" },
};

static const struct spaa_lami_table_class every_class = {
	"all", "Every class", every_cols, 12,
};

static void every_class_results(struct spaa_lami_results *r)
{
	struct spaa_lami_table *t = spaa_lami_table_new(&every_class, 0, 10);

	spaa_lami_row_begin(t);
	spaa_lami_cell_string(t, "a,b \"q\"");
	spaa_lami_cell_int(t, 7);
	spaa_lami_cell_bool(t, true);
	spaa_lami_cell_ratio(t, 0.5);
	spaa_lami_cell_timestamp(t, 1500000000);
	spaa_lami_cell_time_range(t, 1000000000, 2000000000);
	spaa_lami_cell_duration(t, 1500);
	spaa_lami_cell_size(t, 2048);
	spaa_lami_cell_process(t, "srv", 10, 11);
	spaa_lami_cell_path(t, "/bin/x");
	spaa_lami_cell_cpu(t, 3);
	spaa_lami_cell_number(t, -2500.5);
	spaa_lami_row_end(t);
	/* empty, unknown, and values the JSON writes as unknown */
	spaa_lami_row_begin(t);
	spaa_lami_cell_string(t, NULL);
	spaa_lami_cell_unknown(t);
	spaa_lami_cell_bool(t, false);
	spaa_lami_cell_ratio(t, NAN);
	spaa_lami_cell_timestamp(t, -5);
	spaa_lami_cell_time_range(t, 5, 3);
	spaa_lami_cell_duration(t, 0);
	spaa_lami_cell_size(t, -1);
	spaa_lami_cell_process(t, NULL, 10, SPAA_LAMI_NO_ID);
	spaa_lami_cell_path(t, "bad\xff");
	spaa_lami_cell_cpu(t, INT64_C(1) << 40);
	spaa_lami_cell_number(t, 0.1);
	spaa_lami_row_end(t);
	spaa_lami_results_init(r);
	spaa_lami_results_add(r, t);
}

START_TEST(test_text_every_class)
{
	struct spaa_lami_results r;
	struct testutil_capture c;

	every_class_results(&r);
	spaa_textout_write(testutil_capture_open(&c), &r, SPAA_TEXTOUT_TEXT);
	ck_assert_str_eq(testutil_capture_close(&c),
		"Every class\n"
		"Name     N  Flag   Share            At  Span                          Took    Mem  Who          File    CPU    Delta\n"
		"-------  -  ----  ------  ------------  --------------------------  ------  -----  -----------  ------  ---  -------\n"
		"a,b \"q\"  7  yes   50.0 %   1.500000000  [1.000000000, 2.000000000]  1.5 \xc2\xb5s  2 KiB  srv (10/11)  /bin/x    3  -2.5 \xc2\xb5s\n"
		"         ?  no         ?  -0.000000005  ?                             0 ns   -1 B  10           bad\xef\xbf\xbd      ?     0 ns\n");
	testutil_capture_free(&c);
	spaa_lami_results_release(&r);
}
END_TEST

START_TEST(test_csv_every_class)
{
	struct spaa_lami_results r;
	struct testutil_capture c;
	struct spaa_lami_table *t;

	every_class_results(&r);
	/* a second table: blocks are separated by one empty line */
	t = spaa_lami_table_new(&self_class, 0, 10);
	spaa_lami_row_begin(t);
	spaa_lami_cell_string(t, "line\r\nbreak");
	spaa_lami_cell_duration(t, 1477477476);
	spaa_lami_cell_ratio(t, 0.341113935752253);
	spaa_lami_row_end(t);
	spaa_lami_results_add(&r, t);

	spaa_textout_write(testutil_capture_open(&c), &r, SPAA_TEXTOUT_CSV);
	ck_assert_str_eq(testutil_capture_close(&c),
		"all,Every class\n"
		"Name,N,Flag,Share (fraction),At (ns),Span begin (ns),Span end (ns),"
		"Took (ns),Mem (bytes),Who name,Who pid,Who tid,File,CPU,Delta (ns)\n"
		"\"a,b \"\"q\"\"\",7,true,0.5,1500000000,1000000000,2000000000,"
		"1500,2048,srv,10,11,/bin/x,3,-2500.5\n"
		",,false,,-5,,,0,-1,,10,,bad\xef\xbf\xbd,,0.1\n"
		"\n"
		"self,Self time\n"
		"Function,Self (ns),Share (fraction)\n"
		"\"line\r\nbreak\",1477477476,0.341113935752253\n");
	testutil_capture_free(&c);
	spaa_lami_results_release(&r);
}
END_TEST

static int starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

START_TEST(test_bar)
{
	struct spaa_textout_bar b;
	struct testutil_capture c;
	const char *out;

	spaa_textout_bar_init(&b, testutil_capture_open(&c));
	spaa_textout_bar_update(&b, 0, 200);
	spaa_textout_bar_update(&b, 100, 200);
	spaa_textout_bar_clear(&b);
	spaa_textout_bar_clear(&b);          /* nothing on screen: writes nothing */
	out = testutil_capture_close(&c);
	ck_assert_msg(starts_with(out, "\r\033[K[------------------------------]   0 %  "),
		      "%s", out);
	ck_assert_ptr_nonnull(strstr(out, "\r\033[K[###############---------------]  50 %  "));
	ck_assert_ptr_nonnull(strstr(out, " MB/s"));
	/* erased at the end, once */
	ck_assert_str_eq(out + strlen(out) - 4, "\r\033[K");
	ck_assert_ptr_null(strstr(strstr(out, "50 %"), "\r\033[K\r\033[K"));
	testutil_capture_free(&c);

	/* unknown total (stdin): bytes and throughput */
	spaa_textout_bar_init(&b, testutil_capture_open(&c));
	spaa_textout_bar_update(&b, 2500000, 0);
	out = testutil_capture_close(&c);
	ck_assert_msg(starts_with(out, "\r\033[K2.5 MB read  "), "%s", out);
	testutil_capture_free(&c);

	/* disabled */
	spaa_textout_bar_init(&b, NULL);
	spaa_textout_bar_update(&b, 1, 2);
	spaa_textout_bar_clear(&b);
}
END_TEST

Suite *textout_suite(void)
{
	Suite *s = suite_create("textout");
	TCase *tc = tcase_create("units");

	tcase_add_loop_test(tc, test_duration, 0,
			    sizeof(durations) / sizeof(durations[0]));
	tcase_add_loop_test(tc, test_size, 0, sizeof(sizes) / sizeof(sizes[0]));
	tcase_add_test(tc, test_ratio_number_timestamp);
	suite_add_tcase(s, tc);
	tc = tcase_create("tables");
	tcase_add_test(tc, test_text_alignment);
	tcase_add_test(tc, test_text_every_class);
	tcase_add_test(tc, test_csv_every_class);
	tcase_add_test(tc, test_bar);
	suite_add_tcase(s, tc);
	return s;
}
