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

/*
 * Non-ASCII names align by code points; a name too long for the line
 * (60) is cut at its end, the numbers kept.
 */
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

	spaa_textout_write(testutil_capture_open(&c), &r, SPAA_TEXTOUT_TEXT, 60);
	/* 43 + 2 + 7 + 2 + 6 = 60 */
	ck_assert_str_eq(testutil_capture_close(&c),
		"Self time (\xc3\xa9t\xc3\xa9)\n"
		"Function                                        Self   Share\n"
		"-------------------------------------------  -------  ------\n"
		"main                                          1.48 s  37.2 %\n"
		"caf\xc3\xa9\xe2\x86\x92\xce\xbb                                       4.72 \xc2\xb5s   5.0 %\n"
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaabb\xe2\x80\xa6        ?\n"
		"x y                                             0 ns   0.0 %\n");
	testutil_capture_free(&c);

	/* width 0 (--wide): never cut */
	spaa_textout_write(testutil_capture_open(&c), &r, SPAA_TEXTOUT_TEXT, 0);
	ck_assert_ptr_nonnull(strstr(testutil_capture_close(&c), longname));
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
	spaa_textout_write(testutil_capture_open(&c), &r, SPAA_TEXTOUT_TEXT, 0);
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

/* Share deltas (spaa-diff): ratios shown in percentage points, "pp" once. */
START_TEST(test_text_points)
{
	static const struct spaa_lami_column cols[] = {
		{ "Name", SPAA_LAMI_STRING, NULL }, { "Share delta", SPAA_LAMI_RATIO, NULL },
	};
	static const struct spaa_lami_table_class cls = { "pp", "Points", cols, 2 };
	struct spaa_lami_table *t = spaa_lami_table_new(&cls, 0, 10);
	struct spaa_lami_cell_view v;
	struct spaa_lami_results r;
	struct testutil_capture c;
	char *s;

	spaa_lami_table_set_column(t, 1, SPAA_LAMI_RATIO, "pp");
	spaa_lami_row_begin(t);
	spaa_lami_cell_string(t, "compute");
	spaa_lami_cell_ratio(t, 15.0 / 88);     /* 5/11 -> 10/16 */
	spaa_lami_row_end(t);
	spaa_lami_row_begin(t);
	spaa_lami_cell_string(t, "memcpy");
	spaa_lami_cell_ratio(t, -15.0 / 176);
	spaa_lami_row_end(t);
	spaa_lami_table_cell(t, 1, 1, &v);
	s = spaa_textout_cell(&v, "pp");
	ck_assert_str_eq(s, "-8.5 pp");
	free(s);
	spaa_lami_results_init(&r);
	spaa_lami_results_add(&r, t);
	spaa_textout_write(testutil_capture_open(&c), &r, SPAA_TEXTOUT_TEXT, 0);
	ck_assert_str_eq(testutil_capture_close(&c),
		"Points\n"
		"Name     Share delta (pp)\n"
		"-------  ----------------\n"
		"compute              17.0\n"
		"memcpy               -8.5\n");
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

	spaa_textout_write(testutil_capture_open(&c), &r, SPAA_TEXTOUT_CSV, 40);
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


/* ---- fitting a width ---------------------------------------------------- */

static const struct spaa_lami_column name_cols[] = {
	{ "Name", SPAA_LAMI_STRING, NULL },
};
static const struct spaa_lami_column path_cols[] = {
	{ "Path", SPAA_LAMI_PATH, NULL },
};
static const struct spaa_lami_column who_cols[] = {
	{ "Who", SPAA_LAMI_PROCESS, NULL },
};

static const struct spaa_lami_table_class name_class = { "n", "N", name_cols, 1 };
static const struct spaa_lami_table_class path_class = { "p", "P", path_cols, 1 };
static const struct spaa_lami_table_class who_class = { "w", "W", who_cols, 1 };

static const struct spaa_lami_column fn_cols[] = {
	{ "Function", SPAA_LAMI_STRING, NULL },
	{ "DSO", SPAA_LAMI_PATH, NULL },
	{ "Self", SPAA_LAMI_NUMBER, "cycles" },
	{ "Self share", SPAA_LAMI_RATIO, NULL },
	{ "Total", SPAA_LAMI_NUMBER, "cycles" },
	{ "Total share", SPAA_LAMI_RATIO, NULL },
	{ "Samples", SPAA_LAMI_INT, NULL },
	{ "Calls", SPAA_LAMI_INT, NULL },
};

static const struct spaa_lami_table_class fn_class = { "f", "Functions", fn_cols, 8 };

static void fn_results(struct spaa_lami_results *r, const char *dso2, size_t nrows)
{
	struct spaa_lami_table *t = spaa_lami_table_new(&fn_class, 0, 10);
	static const char *const names[] = { "main", "parse_arguments" };

	for (size_t i = 0; i < nrows; i++) {
		spaa_lami_row_begin(t);
		spaa_lami_cell_string(t, names[i]);
		spaa_lami_cell_path(t, i ? dso2 : "/usr/bin/prog");
		spaa_lami_cell_number(t, 3000.0 / (double)(i + 1));
		spaa_lami_cell_ratio(t, 0.75 / (double)(i + 1));
		spaa_lami_cell_number(t, 4000);
		spaa_lami_cell_ratio(t, 1);
		spaa_lami_cell_int(t, 30 / (int64_t)(i + 1));
		spaa_lami_cell_unknown(t);
		spaa_lami_row_end(t);
	}
	spaa_lami_results_init(r);
	spaa_lami_results_add(r, t);
}

/*
 * A column of "?" goes, and so does one path in every row; units are
 * said once in the header; too wide, paths become file names, then
 * counts go, then the second weight and share; a record too wide is
 * written vertically.
 */
START_TEST(test_text_fit)
{
	struct spaa_lami_results r;
	struct testutil_capture c;

	fn_results(&r, "/usr/lib/x86_64-linux-gnu/libc.so.6", 2);
	spaa_textout_write(testutil_capture_open(&c), &r, SPAA_TEXTOUT_TEXT, 0);
	ck_assert_str_eq(testutil_capture_close(&c),
		"Functions\n"
		"Function         DSO                                  Self (cycles)  Self share  Total (cycles)  Total share  Samples\n"
		"---------------  -----------------------------------  -------------  ----------  --------------  -----------  -------\n"
		"main             /usr/bin/prog                                   3k      75.0 %              4k      100.0 %       30\n"
		"parse_arguments  /usr/lib/x86_64-linux-gnu/libc.so.6           1.5k      37.5 %              4k      100.0 %       15\n");
	testutil_capture_free(&c);
	/* 15 + 9 + 13 + 10 + 14 + 11 + 7 + 2 * 6 = 91: file names suffice */
	spaa_textout_write(testutil_capture_open(&c), &r, SPAA_TEXTOUT_TEXT, 91);
	ck_assert_str_eq(testutil_capture_close(&c),
		"Functions\n"
		"Function         DSO        Self (cycles)  Self share  Total (cycles)  Total share  Samples\n"
		"---------------  ---------  -------------  ----------  --------------  -----------  -------\n"
		"main             prog                  3k      75.0 %              4k      100.0 %       30\n"
		"parse_arguments  libc.so.6           1.5k      37.5 %              4k      100.0 %       15\n");
	testutil_capture_free(&c);
	/* 90: Samples goes; 60: Total share and Total go too */
	spaa_textout_write(testutil_capture_open(&c), &r, SPAA_TEXTOUT_TEXT, 60);
	ck_assert_str_eq(testutil_capture_close(&c),
		"Functions\n"
		"Function         DSO        Self (cycles)  Self share\n"
		"---------------  ---------  -------------  ----------\n"
		"main             prog                  3k      75.0 %\n"
		"parse_arguments  libc.so.6           1.5k      37.5 %\n");
	testutil_capture_free(&c);
	/* 40: the DSO goes, then the names are cut: 13 + 2 + 13 + 2 + 10 */
	spaa_textout_write(testutil_capture_open(&c), &r, SPAA_TEXTOUT_TEXT, 40);
	ck_assert_str_eq(testutil_capture_close(&c),
		"Functions\n"
		"Function       Self (cycles)  Self share\n"
		"-------------  -------------  ----------\n"
		"main                      3k      75.0 %\n"
		"parse_argume\xe2\x80\xa6           1.5k      37.5 %\n");
	testutil_capture_free(&c);
	/* a kept column (Samples, the last) stays; Total and Total share go */
	spaa_lami_table_keep_column(r.tables[0], 6);
	spaa_textout_write(testutil_capture_open(&c), &r, SPAA_TEXTOUT_TEXT, 60);
	ck_assert_str_eq(testutil_capture_close(&c),
		"Functions\n"
		"Function         Self (cycles)  Self share  Samples\n"
		"---------------  -------------  ----------  -------\n"
		"main                        3k      75.0 %       30\n"
		"parse_arguments           1.5k      37.5 %       15\n");
	testutil_capture_free(&c);
	spaa_lami_results_release(&r);

	fn_results(&r, "/usr/bin/prog", 2);
	spaa_textout_write(testutil_capture_open(&c), &r, SPAA_TEXTOUT_TEXT, 0);
	ck_assert_str_eq(testutil_capture_close(&c),
		"Functions\n"
		"Function         Self (cycles)  Self share  Total (cycles)  Total share  Samples\n"
		"---------------  -------------  ----------  --------------  -----------  -------\n"
		"main                        3k      75.0 %              4k      100.0 %       30\n"
		"parse_arguments           1.5k      37.5 %              4k      100.0 %       15\n");
	testutil_capture_free(&c);
	spaa_lami_results_release(&r);

	/* one ranked row is a table still; a record is written as lines */
	fn_results(&r, NULL, 1);
	spaa_textout_write(testutil_capture_open(&c), &r, SPAA_TEXTOUT_TEXT, 40);
	ck_assert_str_eq(testutil_capture_close(&c),
		"Functions\n"
		"Function  Self (cycles)  Self share\n"
		"--------  -------------  ----------\n"
		"main                 3k      75.0 %\n");
	testutil_capture_free(&c);
	spaa_lami_table_set_record(r.tables[0]);
	spaa_textout_write(testutil_capture_open(&c), &r, SPAA_TEXTOUT_TEXT, 40);
	ck_assert_str_eq(testutil_capture_close(&c),
		"Functions\n"
		"  Function        main\n"
		"  DSO             /usr/bin/prog\n"
		"  Self (cycles)   3k\n"
		"  Self share      75.0 %\n"
		"  Total (cycles)  4k\n"
		"  Total share     100.0 %\n"
		"  Samples         30\n");
	testutil_capture_free(&c);
	spaa_lami_results_release(&r);
}
END_TEST

/*
 * Narrowed, the DSO column goes; names it told apart ("[unknown]" in two
 * DSOs) then say their DSO; at 120 columns it stays and they do not.
 */
START_TEST(test_text_apart)
{
	static const struct {
		const char *name, *dso;
		double self;
	} rows[] = {
		{ "[unknown]", "/usr/lib/x86_64-linux-gnu/libc.so.6", 3000 },
		{ "[unknown]", "/usr/bin/python3.11", 1500 },
		{ "parse_arguments_and_options", "/usr/bin/python3.11", 1000 },
		{ "main", "/usr/bin/python3.11", 500 },
	};
	struct spaa_lami_table *t = spaa_lami_table_new(&fn_class, 0, 10);
	struct spaa_lami_results r;
	struct testutil_capture c;
	const char *out;

	for (size_t i = 0; i < 4; i++) {
		spaa_lami_row_begin(t);
		spaa_lami_cell_string(t, rows[i].name);
		spaa_lami_cell_path(t, rows[i].dso);
		spaa_lami_cell_number(t, rows[i].self);
		spaa_lami_cell_ratio(t, rows[i].self / 6000);
		spaa_lami_cell_number(t, 6000);
		spaa_lami_cell_ratio(t, 1);
		spaa_lami_cell_int(t, 1);
		spaa_lami_cell_unknown(t);
		spaa_lami_row_end(t);
	}
	spaa_lami_results_init(&r);
	spaa_lami_results_add(&r, t);
	/* 27 + 10 + 13 + 10 + 14 + 11 + 7 + 12 = 104: Samples, Total share, Total, DSO go */
	spaa_textout_write(testutil_capture_open(&c), &r, SPAA_TEXTOUT_TEXT, 60);
	ck_assert_str_eq(testutil_capture_close(&c),
		"Functions\n"
		"Function                     Self (cycles)  Self share\n"
		"---------------------------  -------------  ----------\n"
		"[unknown] in libc.so.6                  3k      50.0 %\n"
		"[unknown] in python3.11               1.5k      25.0 %\n"
		"parse_arguments_and_options             1k      16.7 %\n"
		"main                                   500       8.3 %\n");
	testutil_capture_free(&c);
	spaa_textout_write(testutil_capture_open(&c), &r, SPAA_TEXTOUT_TEXT, 120);
	out = testutil_capture_close(&c);
	ck_assert_ptr_null(strstr(out, " in "));
	ck_assert_ptr_nonnull(strstr(out, "\n[unknown]                    python3.11 "));
	testutil_capture_free(&c);
	spaa_lami_results_release(&r);
}
END_TEST

/* One name in a one-column table of width w: where it is cut. */
static const struct {
	const struct spaa_lami_table_class *cls;
	const char *in;
	size_t width;
	const char *want;
} cuts[] = {
	{ &name_class, "short", 8, "short" },
	/* templates, then parameters, then the end */
	{ &name_class, "std::map<int, std::vector<int> >::find(int const&) const", 30,
	  "std::map<\xe2\x80\xa6>::find(\xe2\x80\xa6) const" },
	{ &name_class, "std::map<int, std::vector<int> >::find(int const&) const", 40,
	  "std::map<\xe2\x80\xa6>::find(int const&) const" },
	{ &name_class, "a<bc>::c<d>::e", 13, "a<\xe2\x80\xa6>::c<d>::e" },
	{ &name_class, "a<b>::c<d>::e", 12, "a<b>::c<d>:\xe2\x80\xa6" },
	{ &name_class, "operator<(x, y)", 12, "operator<(\xe2\x80\xa6)" },
	{ &name_class, "hash_phase.constprop.0", 12, "hash_phase.\xe2\x80\xa6" },
	/* call paths: root and the frames nearest the leaf */
	{ &name_class, "main;a;b;c;parse;leaf", 18, "main;\xe2\x80\xa6;parse;leaf" },
	{ &name_class, "main;a;b;c;parse;leaf", 16, "main;\xe2\x80\xa6;leaf" },
	{ &name_class, "a_long_root;b;leaf", 10, "\xe2\x80\xa6;b;leaf" },
	/* code points, not bytes: 19 wide, "parse;leaf" fits 18 behind "main;…" */
	{ &name_class, "main;\xc3\xa9;\xc3\xbc;parse;leaf", 18, "main;\xe2\x80\xa6;parse;leaf" },
	{ &name_class, "main;\xc3\xa9;\xc3\xbc;parse;leaf", 14, "main;\xe2\x80\xa6;leaf" },
	{ &name_class, "main;std::vector<int, std::allocator<int> >::push_back(int const&)", 33,
	  "main;std::vector<\xe2\x80\xa6>::push_back(\xe2\x80\xa6)" },
	{ &name_class, "main;run;std::vector<int>::push_back(int const&)", 35,
	  "main;\xe2\x80\xa6;std::vector<\xe2\x80\xa6>::push_back(\xe2\x80\xa6)" },
	{ &name_class, "root;a_very_long_leaf_name", 10, "\xe2\x80\xa6;a_very_\xe2\x80\xa6" },
	/* paths: the file name, then its beginning */
	{ &path_class, "/usr/lib/x86_64-linux-gnu/libc.so.6", 20, "libc.so.6" },
	{ &path_class, "/lib/a_very_long_library_name.so", 12, "a_very_long\xe2\x80\xa6" },
	/* names that are paths (PHP scripts, JavaScript URLs): their end */
	{ &name_class, "/tmp/spxwork/scripts/dir with spaces/naming.php", 30,
	  "\xe2\x80\xa6/dir with spaces/naming.php" },
	{ &name_class, "file:///tmp/spaa-work/src/jsserver.js", 20,
	  "\xe2\x80\xa6/src/jsserver.js" },
	/* cells, not code points: a CJK character takes two, a combining mark none */
	{ &name_class, "\xc3\x89" "dition\\Sp\xc3\xa9" "cial\\\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e::lire", 20,
	  "\xc3\x89" "dition\\Sp\xc3\xa9" "cial\\\xe6\x97\xa5\xe2\x80\xa6" },
	{ &name_class, "abcdefgh\xcc\x81" "ijk", 9, "abcdefgh\xcc\x81\xe2\x80\xa6" },
	/* processes: both ends, a path its file name */
	{ &who_class, "a_long_thread_name", 10, "a_l\xe2\x80\xa6 (1/2)" },
	{ &who_class, "scripts/dir with spaces/naming.php", 22, "\xe2\x80\xa6/naming.php (1/2)" },
};

/* Line n (from 0) of s, without its newline. */
static const char *line_of(const char *s, int n, char *buf, size_t size)
{
	const char *end;

	while (n-- > 0 && s)
		s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL;
	ck_assert_ptr_nonnull(s);
	end = strchr(s, '\n');
	ck_assert_ptr_nonnull(end);
	snprintf(buf, size, "%.*s", (int)(end - s), s);
	return buf;
}

START_TEST(test_text_cut)
{
	const struct spaa_lami_table_class *cls = cuts[_i].cls;
	struct spaa_lami_table *t = spaa_lami_table_new(cls, 0, 10);
	struct spaa_lami_results r;
	struct testutil_capture c;
	char got[256];

	spaa_lami_row_begin(t);
	if (cls == &name_class)
		spaa_lami_cell_string(t, cuts[_i].in);
	else if (cls == &path_class)
		spaa_lami_cell_path(t, cuts[_i].in);
	else
		spaa_lami_cell_process(t, cuts[_i].in, 1, 2);
	spaa_lami_row_end(t);
	/* a second row: a one-row table too wide would be written vertically */
	spaa_lami_row_begin(t);
	if (cls == &name_class)
		spaa_lami_cell_string(t, "x");
	else if (cls == &path_class)
		spaa_lami_cell_path(t, "/y");
	else
		spaa_lami_cell_process(t, "z", 1, 3);
	spaa_lami_row_end(t);
	spaa_lami_results_init(&r);
	spaa_lami_results_add(&r, t);
	spaa_textout_write(testutil_capture_open(&c), &r, SPAA_TEXTOUT_TEXT,
			   cuts[_i].width);
	ck_assert_str_eq(line_of(testutil_capture_close(&c), 3, got, sizeof(got)),
			 cuts[_i].want);
	testutil_capture_free(&c);
	spaa_lami_results_release(&r);
}
END_TEST

static int starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static const struct spaa_lami_column cjk_cols[] = {
	{ "Name", SPAA_LAMI_STRING, NULL },
	{ "N", SPAA_LAMI_INT, NULL },
};

static const struct spaa_lami_table_class cjk_class = { "c", "C", cjk_cols, 2 };

/* Columns line up on a terminal: a CJK character takes two cells. */
START_TEST(test_text_cells)
{
	struct spaa_lami_table *t = spaa_lami_table_new(&cjk_class, 0, 10);
	struct spaa_lami_results r;
	struct testutil_capture c;

	spaa_lami_row_begin(t);
	spaa_lami_cell_string(t, "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e");     /* 6 cells */
	spaa_lami_cell_int(t, 1);
	spaa_lami_row_end(t);
	spaa_lami_row_begin(t);
	spaa_lami_cell_string(t, "me\xcc\x81" "thode");                        /* 7 cells */
	spaa_lami_cell_int(t, 22);
	spaa_lami_row_end(t);
	spaa_lami_results_init(&r);
	spaa_lami_results_add(&r, t);
	spaa_textout_write(testutil_capture_open(&c), &r, SPAA_TEXTOUT_TEXT, 0);
	ck_assert_str_eq(testutil_capture_close(&c),
		"C\n"
		"Name      N\n"
		"-------  --\n"
		"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e    1\n"
		"me\xcc\x81" "thode  22\n");
	testutil_capture_free(&c);
	spaa_lami_results_release(&r);
}
END_TEST

static const struct spaa_lami_column range_cols[] = {
	{ "Time range", SPAA_LAMI_TIME_RANGE, NULL },
	{ "Top function", SPAA_LAMI_STRING, NULL },
	{ "Share", SPAA_LAMI_RATIO, NULL },
};

static const struct spaa_lami_table_class range_class = { "r", "R", range_cols, 3 };

/*
 * Too wide, a time range is its beginning and length: 44 + 2 + 29 + 2 +
 * 6 = 83 columns, at 60 the range takes 28 and the path its file name
 * and last directory (the cut at 22 leaves 18): 28 + 2 + 18 + 2 + 6 = 56.
 */
START_TEST(test_text_time_range)
{
	struct spaa_lami_table *t = spaa_lami_table_new(&range_class, 0, 10);
	struct spaa_lami_results r;
	struct testutil_capture c;

	spaa_lami_row_begin(t);
	spaa_lami_cell_time_range(t, INT64_C(1795312445000000000), INT64_C(1795312445000199999));
	spaa_lami_cell_string(t, "/tmp/spxwork/scripts/tiny.php");
	spaa_lami_cell_ratio(t, 0.85);
	spaa_lami_row_end(t);
	spaa_lami_results_init(&r);
	spaa_lami_results_add(&r, t);
	spaa_textout_write(testutil_capture_open(&c), &r, SPAA_TEXTOUT_TEXT, 100);
	ck_assert_str_eq(testutil_capture_close(&c),
		"R\n"
		"Time range                                    Top function                    Share\n"
		"--------------------------------------------  -----------------------------  ------\n"
		"[1795312445.000000000, 1795312445.000199999]  /tmp/spxwork/scripts/tiny.php  85.0 %\n");
	testutil_capture_free(&c);
	spaa_textout_write(testutil_capture_open(&c), &r, SPAA_TEXTOUT_TEXT, 60);
	ck_assert_str_eq(testutil_capture_close(&c),
		"R\n"
		"Time range                    Top function         Share\n"
		"----------------------------  ------------------  ------\n"
		"1795312445.000000000 +200 \xc2\xb5s  \xe2\x80\xa6/scripts/tiny.php  85.0 %\n");
	testutil_capture_free(&c);
	spaa_lami_results_release(&r);
}
END_TEST

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
	tcase_add_test(tc, test_text_points);
	tcase_add_test(tc, test_csv_every_class);
	tcase_add_test(tc, test_text_fit);
	tcase_add_loop_test(tc, test_text_cut, 0, sizeof(cuts) / sizeof(cuts[0]));
	tcase_add_test(tc, test_text_cells);
	tcase_add_test(tc, test_text_apart);
	tcase_add_test(tc, test_text_time_range);
	tcase_add_test(tc, test_bar);
	suite_add_tcase(s, tc);
	return s;
}
