/*
 * check_lami - the LAMI module: metadata, results in all three class forms with every cell class,
 * error objects and progress lines, against exact strings.  cJSON reads
 * the outputs back as an independent check that they are valid JSON.
 */
#include <check.h>
#include <cJSON.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/util.h"
#include "report/lami.h"
#include "testutil.h"

Suite *lami_suite(void);

/* ---- capturing a FILE ------------------------------------------------- */

/* ---- 1. metadata ------------------------------------------------------ */

static const struct spaa_lami_column fn_cols[] = {
	{ "Function", SPAA_LAMI_STRING, NULL },
	{ "Samples", SPAA_LAMI_INT, "samples" },
	{ "Self", SPAA_LAMI_RATIO, NULL },
	{ "Weight", SPAA_LAMI_MIXED, NULL },
};

static const struct spaa_lami_column all_cols[] = {
	{ "String", SPAA_LAMI_STRING, NULL },
	{ "Int", SPAA_LAMI_INT, NULL },
	{ "Number", SPAA_LAMI_NUMBER, "cycles" },
	{ "Bool", SPAA_LAMI_BOOL, NULL },
	{ "Ratio", SPAA_LAMI_RATIO, NULL },
	{ "Timestamp", SPAA_LAMI_TIMESTAMP, NULL },
	{ "Range", SPAA_LAMI_TIME_RANGE, NULL },
	{ "Duration", SPAA_LAMI_DURATION, NULL },
	{ "Size", SPAA_LAMI_SIZE, NULL },
	{ "Process", SPAA_LAMI_PROCESS, NULL },
	{ "Path", SPAA_LAMI_PATH, NULL },
	{ "CPU", SPAA_LAMI_CPU, NULL },
	{ "Anything", SPAA_LAMI_MIXED, NULL },
};

static const struct spaa_lami_column two_mixed_cols[] = {
	{ "A", SPAA_LAMI_MIXED, NULL },
	{ NULL, SPAA_LAMI_MIXED, NULL },
	{ "C", SPAA_LAMI_BITRATE, NULL },
};

static const struct spaa_lami_table_class classes[] = {
	{ "functions", "Functions", fn_cols, 4 },
	{ "all", "Every \"cell\" class", all_cols, 13 },
	{ "two-mixed", "Two mixed", two_mixed_cols, 3 },
	{ "empty", "No columns", NULL, 0 },
};

static const char *const authors[] = { "Ada", "Grace H\xc3\xb6pper", NULL };
static const char *const tags[] = { "profile", "lami", NULL };

START_TEST(test_class_names)
{
	static const char *const names[] = {
		"mixed", "string", "int", "number", "bool", "ratio",
		"timestamp", "time-range", "duration", "size", "bitrate",
		"process", "path", "cpu",
	};
	int i;

	for (i = SPAA_LAMI_MIXED; i <= SPAA_LAMI_CPU; i++)
		ck_assert_str_eq(spaa_lami_class_name((enum spaa_lami_class)i), names[i]);
}
END_TEST

START_TEST(test_metadata_full)
{
	const struct spaa_lami_meta m = {
		.title = "Hot spots",
		.description = "Where the \"time\" goes",
		.url = "https://example.org/spaa",
		.authors = authors,
		.tags = tags,
		.version_major = 1,
		.version_minor = 2,
		.version_patch = 3,
		.version_extra = "dev",
		.classes = classes,
		.nclasses = 4,
	};
	struct testutil_capture c;

	testutil_capture_open(&c);
	spaa_lami_metadata_write(c.f, &m);
	ck_assert_str_eq(testutil_capture_close(&c),
		"{\"mi-version\":{\"major\":0,\"minor\":1},"
		"\"version\":{\"major\":1,\"minor\":2,\"patch\":3,\"extra\":\"dev\"},"
		"\"title\":\"Hot spots\","
		"\"description\":\"Where the \\\"time\\\" goes\","
		"\"authors\":[\"Ada\",\"Grace H\xc3\xb6pper\"],"
		"\"url\":\"https://example.org/spaa\","
		"\"tags\":[\"profile\",\"lami\"],"
		"\"table-classes\":{"
		"\"functions\":{\"title\":\"Functions\",\"column-descriptions\":["
		"{\"title\":\"Function\",\"class\":\"string\"},"
		"{\"title\":\"Samples\",\"class\":\"int\",\"unit\":\"samples\"},"
		"{\"title\":\"Self\",\"class\":\"ratio\"},"
		"{\"title\":\"Weight\",\"class\":\"mixed\"}]},"
		"\"all\":{\"title\":\"Every \\\"cell\\\" class\",\"column-descriptions\":["
		"{\"title\":\"String\",\"class\":\"string\"},"
		"{\"title\":\"Int\",\"class\":\"int\"},"
		"{\"title\":\"Number\",\"class\":\"number\",\"unit\":\"cycles\"},"
		"{\"title\":\"Bool\",\"class\":\"bool\"},"
		"{\"title\":\"Ratio\",\"class\":\"ratio\"},"
		"{\"title\":\"Timestamp\",\"class\":\"timestamp\"},"
		"{\"title\":\"Range\",\"class\":\"time-range\"},"
		"{\"title\":\"Duration\",\"class\":\"duration\"},"
		"{\"title\":\"Size\",\"class\":\"size\"},"
		"{\"title\":\"Process\",\"class\":\"process\"},"
		"{\"title\":\"Path\",\"class\":\"path\"},"
		"{\"title\":\"CPU\",\"class\":\"cpu\"},"
		"{\"title\":\"Anything\",\"class\":\"mixed\"}]},"
		"\"two-mixed\":{\"title\":\"Two mixed\",\"column-descriptions\":["
		"{\"title\":\"A\",\"class\":\"mixed\"},"
		"{\"class\":\"mixed\"},"
		"{\"title\":\"C\",\"class\":\"bitrate\"}]},"
		"\"empty\":{\"title\":\"No columns\",\"column-descriptions\":[]}"
		"}}\n");
	testutil_capture_free(&c);
}
END_TEST

START_TEST(test_metadata_minimal)
{
	/* optional members absent: omitted, never null */
	const struct spaa_lami_meta m = {
		.title = "T",
		.classes = classes,
		.nclasses = 1,
	};
	struct testutil_capture c;
	cJSON *j;

	testutil_capture_open(&c);
	spaa_lami_metadata_write(c.f, &m);
	ck_assert_str_eq(testutil_capture_close(&c),
		"{\"mi-version\":{\"major\":0,\"minor\":1},"
		"\"version\":{\"major\":0,\"minor\":0,\"patch\":0},"
		"\"title\":\"T\","
		"\"table-classes\":{"
		"\"functions\":{\"title\":\"Functions\",\"column-descriptions\":["
		"{\"title\":\"Function\",\"class\":\"string\"},"
		"{\"title\":\"Samples\",\"class\":\"int\",\"unit\":\"samples\"},"
		"{\"title\":\"Self\",\"class\":\"ratio\"},"
		"{\"title\":\"Weight\",\"class\":\"mixed\"}]}}}\n");
	j = cJSON_Parse(c.buf);
	ck_assert_ptr_nonnull(j);
	ck_assert_str_eq(cJSON_GetObjectItem(j, "title")->valuestring, "T");
	cJSON_Delete(j);
	testutil_capture_free(&c);
}
END_TEST

/* ---- 2. results ------------------------------------------------------- */

#define TR(b, e) "{\"class\":\"time-range\",\"begin\":" #b ",\"end\":" #e "}"

static struct spaa_lami_table *functions_table(void)
{
	struct spaa_lami_table *t = spaa_lami_table_new(&classes[0], 100, 200);

	spaa_lami_row_begin(t);
	spaa_lami_cell_string(t, "main");
	spaa_lami_cell_int(t, 42);
	spaa_lami_cell_ratio(t, 0.25);
	spaa_lami_cell_int(t, 7);
	spaa_lami_row_end(t);
	spaa_lami_row_begin(t);
	/* made in place: the table puts the NUL after the bytes written */
	memcpy(spaa_lami_cell_string_room(t, 4), "f\"oo", 4);
	spaa_lami_cell_int(t, 0);
	spaa_lami_cell_ratio(t, 1.0 / 3);
	spaa_lami_cell_empty(t);
	spaa_lami_row_end(t);
	return t;
}

#define FUNCTIONS_DATA \
	"\"data\":[[\"main\",42,{\"class\":\"ratio\",\"value\":0.25},7]," \
	"[\"f\\\"oo\",0,{\"class\":\"ratio\",\"value\":0.333333333333333},null]]"

static char *write_results(struct spaa_lami_results *r)
{
	struct testutil_capture c;

	testutil_capture_open(&c);
	spaa_lami_results_write(c.f, r);
	testutil_capture_close(&c);
	return c.buf;
}

/* Parses with cJSON and returns results[i]; *root must be deleted. */
static cJSON *parse_table(const char *text, size_t i, cJSON **root)
{
	cJSON *results;

	*root = cJSON_Parse(text);
	ck_assert_msg(*root != NULL, "cJSON cannot parse: %s", text);
	results = cJSON_GetObjectItem(*root, "results");
	ck_assert(cJSON_IsArray(results));
	ck_assert_ptr_nonnull(cJSON_GetArrayItem(results, (int)i));
	return cJSON_GetArrayItem(results, (int)i);
}

START_TEST(test_results_class_name)
{
	struct spaa_lami_results r;
	cJSON *root, *t;
	char *out;

	spaa_lami_results_init(&r);
	spaa_lami_results_add(&r, functions_table());
	out = write_results(&r);
	ck_assert_str_eq(out,
		"{\n\"results\":[{\"time-range\":" TR(100, 200) ","
		"\"class\":\"functions\"," FUNCTIONS_DATA "}]}\n");
	t = parse_table(out, 0, &root);
	ck_assert_str_eq(cJSON_GetObjectItem(t, "class")->valuestring,
			 "functions");
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(t, "data")), 2);
	cJSON_Delete(root);
	free(out);
	spaa_lami_results_release(&r);
	spaa_lami_results_release(&r);
}
END_TEST

START_TEST(test_results_inherit)
{
	struct spaa_lami_results r;
	struct spaa_lami_table *t;
	char *out;

	spaa_lami_results_init(&r);
	t = functions_table();
	spaa_lami_table_set_title(t, "Functions (%s: %d)", "old title", 1);
	spaa_lami_table_set_title(t, "Functions (whole profile: no samples to "
			     "restrict to %s)", "--begin/--end");
	spaa_lami_results_add(&r, t);
	out = write_results(&r);
	ck_assert_str_eq(out,
		"{\n\"results\":[{\"time-range\":" TR(100, 200) ","
		"\"class\":{\"inherit\":\"functions\",\"title\":\"Functions "
		"(whole profile: no samples to restrict to --begin/--end)\"},"
		FUNCTIONS_DATA "}]}\n");
	free(out);
	spaa_lami_results_release(&r);
}
END_TEST

START_TEST(test_results_dynamic)
{
	struct spaa_lami_results r;
	struct spaa_lami_table *t;
	enum spaa_lami_class cls;
	const char *unit;
	char *out;

	spaa_lami_results_init(&r);

	/* the mixed column gets a class: the results still name the class */
	t = spaa_lami_table_new(&classes[0], -5, 5);
	spaa_lami_table_set_column(t, 3, SPAA_LAMI_DURATION, NULL);
	spaa_lami_row_begin(t);
	spaa_lami_cell_string(t, "main");
	spaa_lami_cell_int(t, 1);
	spaa_lami_cell_ratio(t, 1);
	spaa_lami_cell_duration(t, 1500);
	spaa_lami_row_end(t);
	spaa_lami_results_add(&r, t);

	/* title and column both overridden; a unit, set twice */
	t = spaa_lami_table_new(&classes[0], 0, 0);
	spaa_lami_row_begin(t);
	spaa_lami_cell_string(t, "f");
	spaa_lami_cell_int(t, 2);
	spaa_lami_cell_unknown(t);
	spaa_lami_cell_number(t, 2.5);
	spaa_lami_row_end(t);
	spaa_lami_table_set_column(t, 3, SPAA_LAMI_NUMBER, "bytes");
	spaa_lami_table_set_column(t, 3, SPAA_LAMI_NUMBER, "cycles");
	spaa_lami_table_set_title(t, "Functions by cycles");
	spaa_lami_results_add(&r, t);

	/* only one of two mixed columns decided: the other stays mixed */
	t = spaa_lami_table_new(&classes[2], 1, 2);
	spaa_lami_table_set_column(t, 1, SPAA_LAMI_INT, NULL);
	spaa_lami_row_begin(t);
	spaa_lami_cell_bool(t, true);
	spaa_lami_cell_int(t, 3);
	spaa_lami_cell_empty(t);
	spaa_lami_row_end(t);
	spaa_lami_results_add(&r, t);

	/* what text and CSV read: the class of this run */
	spaa_lami_table_column(r.tables[1], 3, &cls, &unit);
	ck_assert_int_eq(cls, SPAA_LAMI_NUMBER);
	ck_assert_str_eq(unit, "cycles");
	spaa_lami_table_column(r.tables[2], 0, &cls, &unit);
	ck_assert_int_eq(cls, SPAA_LAMI_MIXED);

	/* never an inline class: Trace Compass would make it a "Dynamic Table" */
	out = write_results(&r);
	ck_assert_str_eq(out,
		"{\n\"results\":["
		"{\"time-range\":" TR(-5, 5) ","
		"\"class\":\"functions\","
		"\"data\":[[\"main\",1,{\"class\":\"ratio\",\"value\":1},"
		"{\"class\":\"duration\",\"value\":1500}]]},"
		"{\"time-range\":" TR(0, 0) ","
		"\"class\":{\"inherit\":\"functions\",\"title\":\"Functions by cycles\"},"
		"\"data\":[[\"f\",2,{\"class\":\"unknown\"},2.5]]},"
		"{\"time-range\":" TR(1, 2) ","
		"\"class\":\"two-mixed\","
		"\"data\":[[true,3,null]]}"
		"]}\n");
	free(out);
	spaa_lami_results_release(&r);
}
END_TEST

START_TEST(test_results_overflow)
{
	struct spaa_lami_results r;
	struct spaa_lami_table *t;
	struct spaa_lami_cell_view v;
	struct spaa_error err;

	spaa_lami_results_init(&r);
	t = spaa_lami_table_new(&classes[0], 0, 0);
	spaa_lami_table_set_column(t, 3, SPAA_LAMI_DURATION, NULL);
	spaa_lami_row_begin(t);
	spaa_lami_cell_string(t, "main");
	spaa_lami_cell_u64(t, SPAA_LAMI_CELL_INT, INT64_MAX);  /* still a long */
	spaa_lami_cell_ratio(t, 1);
	spaa_lami_cell_u64(t, SPAA_LAMI_CELL_DURATION, UINT64_C(18000000000000000000));
	spaa_lami_row_end(t);
	spaa_lami_results_add(&r, t);

	spaa_lami_table_cell(t, 0, 1, &v);
	ck_assert(!v.big);
	ck_assert_int_eq(v.i, INT64_MAX);
	/* kept exactly for text and CSV, never clamped */
	spaa_lami_table_cell(t, 0, 3, &v);
	ck_assert_int_eq(v.big, 1);
	ck_assert(v.u == UINT64_C(18000000000000000000));
	spaa_error_init(&err);
	ck_assert_int_eq(spaa_lami_results_overflow(&r, false, &err), 0);
	ck_assert_int_eq(spaa_lami_results_overflow(&r, true, &err), -1);
	ck_assert_str_eq(err.code, "overflow");
	ck_assert_str_eq(err.msg, "table 'Functions', row 1 ('main'), column 'Weight': "
			 "18000000000000000000 ns is past 2^63 - 1, the largest integer "
			 "Trace Compass reads (a Java long); --format text or csv shows it exactly");

	/* past 2^64: no format holds it */
	t = spaa_lami_table_new(&classes[0], 0, 0);
	spaa_lami_row_begin(t);
	spaa_lami_cell_string(t, "f");
	spaa_lami_cell_int(t, 1);
	spaa_lami_cell_ratio(t, 1);
	spaa_lami_cell_past_u64(t, SPAA_LAMI_CELL_SIZE);
	spaa_lami_row_end(t);
	spaa_lami_results_add(&r, t);
	spaa_error_init(&err);
	ck_assert_int_eq(spaa_lami_results_overflow(&r, false, &err), -1);
	ck_assert_str_eq(err.msg, "table 'Functions', row 1 ('f'), column 'Weight': "
			 "the value is past 2^64 - 1");
	spaa_lami_results_release(&r);
}
END_TEST

START_TEST(test_results_keep_empty)
{
	struct spaa_lami_results r;
	struct spaa_lami_table *t;
	char *out;

	spaa_lami_results_init(&r);
	/* left out without rows... */
	spaa_lami_results_add(&r, spaa_lami_table_new(&classes[0], 1, 2));
	ck_assert_uint_eq(r.nr, 0);
	/* ...unless kept: a window without samples */
	t = spaa_lami_table_new(&classes[0], 3, 4);
	spaa_lami_table_set_title(t, "Functions (no samples)");
	spaa_lami_table_keep_empty(t);
	spaa_lami_results_add(&r, t);
	ck_assert_uint_eq(r.nr, 1);
	out = write_results(&r);
	ck_assert_str_eq(out,
		"{\n\"results\":["
		"{\"time-range\":" TR(3, 4) ","
		"\"class\":{\"inherit\":\"functions\",\"title\":\"Functions (no samples)\"},"
		"\"data\":[]}"
		"]}\n");
	free(out);
	spaa_lami_results_release(&r);
}
END_TEST

START_TEST(test_results_every_cell)
{
	struct spaa_lami_results r;
	struct spaa_lami_table *t;
	cJSON *root, *data, *row;
	char *out;

	spaa_lami_results_init(&r);
	t = spaa_lami_table_new(&classes[1], INT64_MIN, INT64_MAX);
	ck_assert_uint_eq(spaa_lami_table_rows(t), 0);

	spaa_lami_row_begin(t);
	spaa_lami_cell_string(t, "s");
	spaa_lami_cell_int(t, -5);
	spaa_lami_cell_number(t, 2.5);
	spaa_lami_cell_bool(t, true);
	spaa_lami_cell_ratio(t, 0.5);
	spaa_lami_cell_timestamp(t, 1444334398154194201);
	spaa_lami_cell_time_range(t, 1, 2);
	spaa_lami_cell_duration(t, 5562);
	spaa_lami_cell_size(t, 4096);
	spaa_lami_cell_process(t, "python", 1548, 1549);
	spaa_lami_cell_path(t, "/usr/lib/libc.so.6");
	spaa_lami_cell_cpu(t, 3);
	spaa_lami_cell_number(t, 1e20);
	spaa_lami_row_end(t);

	/* absent, unknown and out-of-range values */
	spaa_lami_row_begin(t);
	spaa_lami_cell_empty(t);
	spaa_lami_cell_unknown(t);
	spaa_lami_cell_number(t, NAN);
	spaa_lami_cell_bool(t, false);
	spaa_lami_cell_ratio(t, INFINITY);
	spaa_lami_cell_timestamp(t, INT64_MIN);
	spaa_lami_cell_time_range(t, 5, 4);
	spaa_lami_cell_duration(t, 0);
	spaa_lami_cell_size(t, INT64_MAX);
	spaa_lami_cell_process(t, NULL, SPAA_LAMI_NO_ID, SPAA_LAMI_NO_ID);
	spaa_lami_cell_path(t, NULL);
	spaa_lami_cell_cpu(t, INT64_C(1) << 40);
	spaa_lami_cell_string(t, NULL);
	spaa_lami_row_end(t);

	/* partial processes, integers where numbers go, odd strings */
	spaa_lami_row_begin(t);
	spaa_lami_cell_string(t, "\xc3\xa9\xe2\x80\xa8\xf0\x9f\x98\x80\xff");
	spaa_lami_cell_int(t, INT64_MIN);
	spaa_lami_cell_int(t, 3);
	spaa_lami_cell_bool(t, true);
	spaa_lami_cell_ratio(t, 1.5);
	spaa_lami_cell_timestamp(t, 0);
	spaa_lami_cell_time_range(t, -3, -3);
	spaa_lami_cell_duration(t, -1);
	spaa_lami_cell_size(t, 0);
	spaa_lami_cell_process(t, "bash", 1, SPAA_LAMI_NO_ID);
	spaa_lami_cell_path(t, "a \"quoted\"\npath");
	spaa_lami_cell_cpu(t, -1);
	spaa_lami_cell_process(t, NULL, SPAA_LAMI_NO_ID, 7);
	spaa_lami_row_end(t);

	spaa_lami_row_begin(t);
	spaa_lami_cell_unknown(t);
	spaa_lami_cell_empty(t);
	spaa_lami_cell_number(t, -INFINITY);
	spaa_lami_cell_empty(t);
	spaa_lami_cell_ratio(t, NAN);
	spaa_lami_cell_unknown(t);
	spaa_lami_cell_time_range(t, INT64_MIN, INT64_MAX);
	spaa_lami_cell_unknown(t);
	spaa_lami_cell_unknown(t);
	spaa_lami_cell_process(t, "", 0, 0);
	spaa_lami_cell_path(t, "");
	spaa_lami_cell_cpu(t, INT32_MAX);
	spaa_lami_cell_ratio(t, 0.1 + 0.2);
	spaa_lami_row_end(t);
	ck_assert_uint_eq(spaa_lami_table_rows(t), 4);
	spaa_lami_results_add(&r, t);

	out = write_results(&r);
	ck_assert_str_eq(out,
		"{\n\"results\":[{\"time-range\":"
		TR(-9223372036854775808, 9223372036854775807) ","
		"\"class\":\"all\",\"data\":["
		"[\"s\",-5,2.5,true,{\"class\":\"ratio\",\"value\":0.5},"
		"{\"class\":\"timestamp\",\"value\":1444334398154194201},"
		TR(1, 2) ","
		"{\"class\":\"duration\",\"value\":5562},"
		"{\"class\":\"size\",\"value\":4096},"
		"{\"class\":\"process\",\"name\":\"python\",\"pid\":1548,\"tid\":1549},"
		"{\"class\":\"path\",\"path\":\"/usr/lib/libc.so.6\"},"
		"{\"class\":\"cpu\",\"id\":3},"
		"1e+20],"
		"[null,{\"class\":\"unknown\"},{\"class\":\"unknown\"},false,"
		"{\"class\":\"unknown\"},"
		"{\"class\":\"timestamp\",\"value\":-9223372036854775808},"
		"{\"class\":\"unknown\"},"
		"{\"class\":\"duration\",\"value\":0},"
		"{\"class\":\"size\",\"value\":9223372036854775807},"
		"{\"class\":\"process\"},null,{\"class\":\"unknown\"},null],"
		"[\"\xc3\xa9\\u2028\xf0\x9f\x98\x80\xef\xbf\xbd\","
		"-9223372036854775808,3,true,{\"class\":\"ratio\",\"value\":1.5},"
		"{\"class\":\"timestamp\",\"value\":0},"
		TR(-3, -3) ","
		"{\"class\":\"duration\",\"value\":-1},"
		"{\"class\":\"size\",\"value\":0},"
		"{\"class\":\"process\",\"name\":\"bash\",\"pid\":1},"
		"{\"class\":\"path\",\"path\":\"a \\\"quoted\\\"\\npath\"},"
		"{\"class\":\"cpu\",\"id\":-1},"
		"{\"class\":\"process\",\"tid\":7}],"
		"[{\"class\":\"unknown\"},null,{\"class\":\"unknown\"},null,"
		"{\"class\":\"unknown\"},{\"class\":\"unknown\"},"
		TR(-9223372036854775808, 9223372036854775807) ","
		"{\"class\":\"unknown\"},{\"class\":\"unknown\"},"
		"{\"class\":\"process\",\"name\":\"\",\"pid\":0,\"tid\":0},"
		"{\"class\":\"path\",\"path\":\"\"},"
		"{\"class\":\"cpu\",\"id\":2147483647},"
		"{\"class\":\"ratio\",\"value\":0.3}]"
		"]}]}\n");

	/* the independent reading */
	data = cJSON_GetObjectItem(parse_table(out, 0, &root), "data");
	ck_assert_int_eq(cJSON_GetArraySize(data), 4);
	row = cJSON_GetArrayItem(data, 0);
	ck_assert_int_eq(cJSON_GetArraySize(row), 13);
	ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(row, 9),
					     "name")->valuestring, "python");
	ck_assert(cJSON_GetObjectItem(cJSON_GetArrayItem(row, 5),
				      "value")->valuedouble == 1444334398154194201.0);
	row = cJSON_GetArrayItem(data, 2);
	ck_assert_str_eq(cJSON_GetArrayItem(row, 0)->valuestring,
			 "\xc3\xa9\xe2\x80\xa8\xf0\x9f\x98\x80\xef\xbf\xbd");
	ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(row, 10),
					     "path")->valuestring,
			 "a \"quoted\"\npath");
	ck_assert(cJSON_IsNull(cJSON_GetArrayItem(cJSON_GetArrayItem(data, 1),
						  0)));
	cJSON_Delete(root);
	free(out);
	spaa_lami_results_release(&r);
}
END_TEST

START_TEST(test_results_shape)
{
	struct spaa_lami_results r;
	struct spaa_lami_table *t;
	const char *p;
	size_t lines = 0;
	cJSON *root;
	char *out;

	spaa_lami_results_init(&r);
	spaa_lami_results_add(&r, NULL);
	/* without rows: freed, not kept (valgrind checks the freeing) */
	t = spaa_lami_table_new(&classes[0], 0, 1);
	spaa_lami_table_set_title(t, "dropped");
	spaa_lami_table_set_column(t, 3, SPAA_LAMI_SIZE, NULL);
	spaa_lami_results_add(&r, t);
	ck_assert_uint_eq(r.nr, 0);
	spaa_lami_results_add(&r, functions_table());
	spaa_lami_results_add(&r, spaa_lami_table_new(&classes[1], 0, 1));
	/* a table without columns still has rows (of no cells) */
	t = spaa_lami_table_new(&classes[3], 0, 1);
	spaa_lami_row_begin(t);
	spaa_lami_row_end(t);
	spaa_lami_results_add(&r, t);
	spaa_lami_results_add(&r, functions_table());
	ck_assert_uint_eq(r.nr, 3);

	out = write_results(&r);
	ck_assert_str_eq(out,
		"{\n\"results\":["
		"{\"time-range\":" TR(100, 200) ",\"class\":\"functions\","
		FUNCTIONS_DATA "},"
		"{\"time-range\":" TR(0, 1) ",\"class\":\"empty\",\"data\":[[]]},"
		"{\"time-range\":" TR(100, 200) ",\"class\":\"functions\","
		FUNCTIONS_DATA "}]}\n");
	/* "{" alone on the first line, everything else on the second */
	for (p = out; *p; p++)
		lines += *p == '\n';
	ck_assert_uint_eq(lines, 2);
	ck_assert(!strncmp(out, "{\n", 2));
	parse_table(out, 2, &root);
	cJSON_Delete(root);
	free(out);
	spaa_lami_results_release(&r);
}
END_TEST

START_TEST(test_results_large)
{
	enum { ROWS = 5000 };
	struct spaa_lami_results r;
	struct spaa_lami_table *t;
	cJSON *root, *data;
	char name[32], *out;
	int i;

	spaa_lami_results_init(&r);
	t = spaa_lami_table_new(&classes[0], 0, 1);
	for (i = 0; i < ROWS; i++) {
		snprintf(name, sizeof(name), "fn_%d", i);
		spaa_lami_row_begin(t);
		spaa_lami_cell_string(t, name);
		spaa_lami_cell_int(t, i);
		spaa_lami_cell_ratio(t, i / (double)ROWS);
		spaa_lami_cell_process(t, name, i, i + 1);
		spaa_lami_row_end(t);
	}
	spaa_lami_results_add(&r, t);
	out = write_results(&r);
	data = cJSON_GetObjectItem(parse_table(out, 0, &root), "data");
	ck_assert_int_eq(cJSON_GetArraySize(data), ROWS);
	ck_assert_str_eq(cJSON_GetArrayItem(cJSON_GetArrayItem(data, ROWS - 1),
					    0)->valuestring, "fn_4999");
	ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(
		cJSON_GetArrayItem(data, 1234), 3), "name")->valuestring,
		"fn_1234");
	cJSON_Delete(root);
	free(out);
	spaa_lami_results_release(&r);
}
END_TEST

/*
 * The name of row i of test_results_strings: lengths from 0 to 300
 * bytes, and in one row 5 MiB, more than a block of strings holds.
 */
static char *strings_name(int i)
{
	size_t n = i == 777 ? (size_t)5 << 20 : (size_t)(i * 7919 % 301);
	char *s = spaa_xmalloc(n + 1);

	for (size_t k = 0; k < n; k++)
		s[k] = (char)('a' + (i + k) % 26);
	s[n] = '\0';
	return s;
}

/*
 * A table of 70,000 rows (9 MB of cells, ~10 MB of strings, past the
 * sizes where cells and strings go to huge pages): every cell reads back
 * as it was given, strings and absent process names included.
 */
START_TEST(test_results_strings)
{
	enum { ROWS = 70000 };
	struct spaa_lami_table *t = spaa_lami_table_new(&classes[0], 0, 1);
	struct spaa_lami_cell_view v;

	for (int i = 0; i < ROWS; i++) {
		char *name = strings_name(i);

		spaa_lami_row_begin(t);
		spaa_lami_cell_string(t, name);
		spaa_lami_cell_int(t, i);
		spaa_lami_cell_ratio(t, 0.5);
		spaa_lami_cell_process(t, i % 2 ? NULL : name, i, SPAA_LAMI_NO_ID);
		spaa_lami_row_end(t);
		free(name);
	}
	ck_assert_uint_eq(spaa_lami_table_rows(t), ROWS);
	for (int i = 0; i < ROWS; i++) {
		char *name = strings_name(i);

		spaa_lami_table_cell(t, (size_t)i, 0, &v);
		ck_assert_int_eq(v.kind, SPAA_LAMI_CELL_STRING);
		ck_assert_msg(!strcmp(v.str, name), "row %d", i);
		spaa_lami_table_cell(t, (size_t)i, 1, &v);
		ck_assert_int_eq(v.i, i);
		spaa_lami_table_cell(t, (size_t)i, 3, &v);
		ck_assert_int_eq(v.pid, i);
		if (i % 2)
			ck_assert_ptr_null(v.str);
		else
			ck_assert_msg(!strcmp(v.str, name), "row %d", i);
		free(name);
	}
	spaa_lami_table_free(t);
}
END_TEST

/*
 * Row i of the filled tables: names of 0 to 500 bytes with a quote to
 * escape, ratios of 15 digits, and every 1000th row a cell past int64
 * (which the overflow check must find in a filled table too).
 */
static void fill_row(struct spaa_lami_table *t, size_t i)
{
	char name[600];
	size_t n = i < 10 ? i : i * 37 % 500;
	int k = snprintf(name, sizeof(name), "f\"%zu;", i);

	memset(name + k, 'a' + (int)(i % 26), n);
	name[(size_t)k + n] = '\0';
	spaa_lami_row_begin(t);
	spaa_lami_cell_string(t, name);
	spaa_lami_cell_int(t, (int64_t)i);
	spaa_lami_cell_ratio(t, (double)i / 7);
	if (i % 1000 == 999)
		spaa_lami_cell_u64(t, SPAA_LAMI_CELL_INT, (uint64_t)INT64_MAX + i);
	else if (i % 3)
		spaa_lami_cell_int(t, -(int64_t)i);
	else
		spaa_lami_cell_empty(t);
	spaa_lami_row_end(t);
}

/* What fill_rows is told: the row its rows start at; it counts its calls. */
struct fill_ctx {
	size_t first, calls;
};

static void fill_rows(void *ctx, struct spaa_lami_table *part, size_t lo, size_t hi)
{
	struct fill_ctx *f = ctx;

	__atomic_add_fetch(&f->calls, 1, __ATOMIC_RELAXED);
	for (size_t i = lo; i < hi; i++)
		fill_row(part, f->first + i);
}

static char *write_results_threads(struct spaa_lami_results *r, unsigned threads)
{
	struct testutil_capture c;

	testutil_capture_open(&c);
	spaa_lami_results_write_threads(c.f, r, threads);
	testutil_capture_close(&c);
	return c.buf;
}

/* A small table filled and written with 1, 2 and 3 threads: exact text. */
START_TEST(test_results_fill_small)
{
	unsigned threads = (unsigned)_i + 1;
	struct spaa_lami_results r;
	struct spaa_lami_table *t = spaa_lami_table_new(&classes[0], 0, 1);
	struct fill_ctx fc = { 0, 0 };
	char *out;

	spaa_lami_table_fill(t, 3, threads, fill_rows, &fc);
	ck_assert_uint_eq(fc.calls, 1);
	ck_assert_uint_eq(spaa_lami_table_rows(t), 3);
	spaa_lami_results_init(&r);
	spaa_lami_results_add(&r, t);
	out = write_results_threads(&r, threads);
	ck_assert_str_eq(out,
		"{\n\"results\":[{\"time-range\":" TR(0, 1) ",\"class\":\"functions\","
		"\"data\":[[\"f\\\"0;\",0,{\"class\":\"ratio\",\"value\":0},null],"
		"[\"f\\\"1;b\",1,{\"class\":\"ratio\",\"value\":0.142857142857143},-1],"
		"[\"f\\\"2;cc\",2,{\"class\":\"ratio\",\"value\":0.285714285714286},-2]]}]}\n");
	free(out);
	spaa_lami_results_release(&r);
}
END_TEST

/*
 * 5,000 rows, filled by 1, 2 and 3 threads in pieces, after 2 rows
 * added one by one, and written by as many threads: the same bytes as
 * the table built row by row and written by one thread, and the same
 * overflow error, naming the same row.
 */
START_TEST(test_results_fill_threads)
{
	enum { ROWS = 5000, BEFORE = 2 };
	unsigned threads = (unsigned)_i + 1;
	struct spaa_lami_results one, many;
	struct spaa_lami_table *t = spaa_lami_table_new(&classes[0], 5, 9);
	struct spaa_lami_table *f = spaa_lami_table_new(&classes[0], 5, 9);
	struct spaa_error e1, e2;
	struct fill_ctx fc = { BEFORE, 0 };
	char *a, *b, *c;

	for (size_t i = 0; i < BEFORE + ROWS; i++)
		fill_row(t, i);
	for (size_t i = 0; i < BEFORE; i++)
		fill_row(f, i);
	spaa_lami_table_fill(f, ROWS, threads, fill_rows, &fc);
	ck_assert_uint_ge(fc.calls, 2);         /* in pieces */
	ck_assert_uint_eq(spaa_lami_table_rows(f), BEFORE + ROWS);
	spaa_lami_results_init(&one);
	spaa_lami_results_init(&many);
	spaa_lami_results_add(&one, t);
	spaa_lami_results_add(&many, f);
	a = write_results(&one);
	b = write_results_threads(&many, threads);
	c = write_results_threads(&one, threads);
	ck_assert_uint_gt(strlen(a), 1000000);
	ck_assert(!strcmp(a, b));
	ck_assert(!strcmp(a, c));
	ck_assert(!strncmp(a, "{\n\"results\":[{\"time-range\":" TR(5, 9) ",\"class\":\"functions\","
			   "\"data\":[[\"f\\\"0;\",0,", 80));
	spaa_error_init(&e1);
	spaa_error_init(&e2);
	ck_assert_int_eq(spaa_lami_results_overflow(&one, true, &e1), -1);
	ck_assert_int_eq(spaa_lami_results_overflow(&many, true, &e2), -1);
	ck_assert_str_eq(e1.msg, e2.msg);
	ck_assert_ptr_nonnull(strstr(e2.msg, "row 1000 ('f\"999;"));
	free(a);
	free(b);
	free(c);
	spaa_lami_results_release(&one);
	spaa_lami_results_release(&many);
}
END_TEST

/* ---- error objects ---------------------------------------------------- */

static const struct {
	const char *code, *msg, *expect;
} error_cases[] = {
	{ SPAA_E_USAGE, "unknown option '--foo'",
	  "{\"error-code\":\"usage\",\"error-message\":\"unknown option '--foo'\"}\n" },
	{ SPAA_E_IO, "cannot open \"x\"\nsecond\tline\\",
	  "{\"error-code\":\"io-error\",\"error-message\":"
	  "\"cannot open \\\"x\\\"\\nsecond\\tline\\\\\"}\n" },
	{ SPAA_E_PARSE, "bad \xff name \xe2\x80\xa8 caf\xc3\xa9",
	  "{\"error-code\":\"parse-error\",\"error-message\":"
	  "\"bad \xef\xbf\xbd name \\u2028 caf\xc3\xa9\"}\n" },
	{ SPAA_E_INVALID, "a.spaa:12: unknown frame id 42 in 'stack' record",
	  "{\"error-code\":\"invalid-profile\",\"error-message\":"
	  "\"a.spaa:12: unknown frame id 42 in 'stack' record\"}\n" },
	{ NULL, "no code", "{\"error-message\":\"no code\"}\n" },
	{ SPAA_E_NO_DATA, "", "{\"error-code\":\"no-data\",\"error-message\":\"\"}\n" },
};

START_TEST(test_error_write)
{
	struct testutil_capture c;
	cJSON *j;

	testutil_capture_open(&c);
	spaa_lami_error_write(c.f, error_cases[_i].code, error_cases[_i].msg);
	ck_assert_str_eq(testutil_capture_close(&c), error_cases[_i].expect);
	j = cJSON_Parse(c.buf);
	ck_assert_ptr_nonnull(j);
	ck_assert(cJSON_IsString(cJSON_GetObjectItem(j, "error-message")));
	if (!strchr(error_cases[_i].msg, '\xff'))
		ck_assert_str_eq(cJSON_GetObjectItem(j, "error-message")->valuestring,
				 error_cases[_i].msg);
	cJSON_Delete(j);
	testutil_capture_free(&c);
}
END_TEST

/* ---- progress --------------------------------------------------------- */

/* Checks lines "VALUE MESSAGE": returns their count, values in vals. */
static size_t progress_lines(const char *out, double *vals, size_t max)
{
	size_t n = 0;

	while (*out) {
		const char *nl = strchr(out, '\n');
		char *end;

		ck_assert_ptr_nonnull(nl);
		ck_assert_uint_lt(n, max);
		ck_assert_msg(out[0] >= '0' && out[0] <= '9', "bad line '%.*s'",
			      (int)(nl - out), out);
		vals[n] = strtod(out, &end);
		ck_assert_msg(end - out == 4 && (*end == ' ' || *end == '\n'),
			      "bad value in '%.*s'", (int)(nl - out), out);
		ck_assert(vals[n] >= 0 && vals[n] <= 1);
		if (n)
			ck_assert_msg(vals[n] > vals[n - 1], "%g after %g",
				      vals[n], vals[n - 1]);
		n++;
		out = nl + 1;
	}
	return n;
}

START_TEST(test_progress_basic)
{
	struct spaa_lami_progress p;
	struct testutil_capture c;

	testutil_capture_open(&c);
	spaa_lami_progress_init(&p, c.f);
	spaa_lami_progress_update(&p, 0, 1000, "reading foo.spaa");
	/* flushed: the memstream's size is updated only by a flush */
	ck_assert_uint_eq(c.len, strlen("0.00 reading foo.spaa\n"));
	spaa_lami_progress_update(&p, 5, 1000, "no change");
	spaa_lami_progress_update(&p, 420, 1000, "reading foo.spaa");
	ck_assert_uint_eq(c.len, 2 * strlen("0.00 reading foo.spaa\n"));
	spaa_lami_progress_update(&p, 419, 1000, "backwards");
	spaa_lami_progress_update(&p, 429, 1000, "same hundredth");
	spaa_lami_progress_update(&p, 430, 1000, NULL);
	spaa_lami_progress_update(&p, 999, 1000, "");
	spaa_lami_progress_update(&p, 1000, 1000, "done");
	spaa_lami_progress_update(&p, 2000, 1000, "past the end");
	spaa_lami_progress_update(&p, 1000, 0, "unknown total: ignored now");
	ck_assert_str_eq(testutil_capture_close(&c),
		"0.00 reading foo.spaa\n"
		"0.42 reading foo.spaa\n"
		"0.43\n"
		"0.99\n"
		"1.00 done\n");
	ck_assert_uint_eq(p.lines, 5);
	testutil_capture_free(&c);
}
END_TEST

START_TEST(test_progress_many_updates)
{
	static const uint64_t totals[] = {
		1000, 7, 100, 101, 99999, UINT64_MAX / 100 + 1, UINT64_MAX,
	};
	double vals[128];
	size_t k, n;

	for (k = 0; k < sizeof(totals) / sizeof(totals[0]); k++) {
		uint64_t total = totals[k], x = 12345;
		struct spaa_lami_progress p;
		struct testutil_capture c;
		int i;

		testutil_capture_open(&c);
		spaa_lami_progress_init(&p, c.f);
		/* 1000 monotone updates, then 1000 at random, then the end */
		for (i = 0; i <= 1000; i++)
			spaa_lami_progress_update(&p, total / 1000 * (uint64_t)i +
					     (uint64_t)i * (total % 1000) / 1000,
					     total, "m");
		for (i = 0; i < 1000; i++) {
			x = x * 6364136223846793005u + 1442695040888963407u;
			spaa_lami_progress_update(&p, total == UINT64_MAX ? x :
					     x % (total + 1), total, "r");
		}
		spaa_lami_progress_update(&p, total, total, "end");
		n = progress_lines(testutil_capture_close(&c), vals, 128);
		ck_assert_msg(n <= 101, "total %llu: %zu lines",
			      (unsigned long long)total, n);
		ck_assert_uint_eq(n, p.lines);
		ck_assert(vals[0] == 0);
		ck_assert(vals[n - 1] == 1);
		if (total >= 100)
			ck_assert_uint_eq(n, 101);
		testutil_capture_free(&c);
	}
}
END_TEST

START_TEST(test_progress_star)
{
	struct spaa_lami_progress p;
	struct testutil_capture c;
	const char *s;
	uint64_t done;
	size_t n = 0;

	testutil_capture_open(&c);
	spaa_lami_progress_init(&p, c.f);
	spaa_lami_progress_update(&p, 0, 0, "reading -");
	ck_assert_uint_eq(c.len, strlen("* reading -\n"));
	spaa_lami_progress_update(&p, 1 << 20, 0, "too soon");
	/* a total appearing later must not mix numbers into "*" */
	spaa_lami_progress_update(&p, 1 << 20, 1 << 21, "still a star");
	ck_assert_uint_eq(p.lines, 1);
	for (done = 0; done <= (UINT64_C(20) << 30); done += 1 << 20)
		spaa_lami_progress_update(&p, done, 0, "x");
	spaa_lami_progress_update(&p, UINT64_MAX, 0, "end");
	s = testutil_capture_close(&c);
	ck_assert(!strncmp(s, "* reading -\n* x\n", 16));
	for (; *s; s = strchr(s, '\n') + 1) {
		ck_assert(!strncmp(s, "* ", 2));
		n++;
	}
	ck_assert_uint_eq(n, 100);
	ck_assert_uint_eq(p.lines, 100);
	testutil_capture_free(&c);
}
END_TEST

START_TEST(test_progress_star_spacing)
{
	struct spaa_lami_progress p;
	struct testutil_capture c;

	testutil_capture_open(&c);
	spaa_lami_progress_init(&p, c.f);
	spaa_lami_progress_update(&p, 10, 0, NULL);
	spaa_lami_progress_update(&p, (UINT64_C(64) << 20) + 9, 0, "no");
	spaa_lami_progress_update(&p, (UINT64_C(64) << 20) + 10, 0, "yes");
	spaa_lami_progress_update(&p, 5, 0, "going back: no");
	ck_assert_str_eq(testutil_capture_close(&c), "*\n* yes\n");
	testutil_capture_free(&c);
}
END_TEST

START_TEST(test_progress_message)
{
	struct spaa_lami_progress p;
	struct testutil_capture c;

	testutil_capture_open(&c);
	spaa_lami_progress_init(&p, c.f);
	spaa_lami_progress_update(&p, 1, 2,
			     "a\nb\rc\td \xff\xe2\x82 caf\xc3\xa9 {\xe2\x80\xa8");
	/* \xff and the truncated \xe2\x82: one U+FFFD each, as jsonw.h writes them */
	ck_assert_str_eq(testutil_capture_close(&c),
		"0.50 a b c d \xef\xbf\xbd\xef\xbf\xbd caf\xc3\xa9 "
		"{\xe2\x80\xa8\n");
	testutil_capture_free(&c);
}
END_TEST

START_TEST(test_progress_disabled)
{
	struct spaa_lami_progress p;
	int i;

	spaa_lami_progress_init(&p, NULL);
	for (i = 0; i <= 10; i++)
		spaa_lami_progress_update(&p, (uint64_t)i, 10, "x");
	spaa_lami_progress_update(&p, 0, 0, "x");
	ck_assert_uint_eq(p.lines, 0);
}
END_TEST

#ifndef NDEBUG
/* ---- misuse caught by assert() (fork mode only) ----------------------- */

START_TEST(test_die_short_row)
{
	struct spaa_lami_table *t = spaa_lami_table_new(&classes[0], 0, 1);

	spaa_lami_row_begin(t);
	spaa_lami_cell_string(t, "x");
	spaa_lami_row_end(t);
}
END_TEST

START_TEST(test_die_long_row)
{
	struct spaa_lami_table *t = spaa_lami_table_new(&classes[2], 0, 1);

	spaa_lami_row_begin(t);
	spaa_lami_cell_empty(t);
	spaa_lami_cell_empty(t);
	spaa_lami_cell_empty(t);
	spaa_lami_cell_empty(t);
}
END_TEST

START_TEST(test_die_cell_class)
{
	struct spaa_lami_table *t = spaa_lami_table_new(&classes[0], 0, 1);

	spaa_lami_row_begin(t);
	spaa_lami_cell_duration(t, 5);       /* in a string column */
}
END_TEST

START_TEST(test_die_cell_outside_row)
{
	struct spaa_lami_table *t = spaa_lami_table_new(&classes[0], 0, 1);

	spaa_lami_cell_string(t, "x");
}
END_TEST

START_TEST(test_die_set_column_after_cells)
{
	struct spaa_lami_table *t = spaa_lami_table_new(&classes[0], 0, 1);

	spaa_lami_row_begin(t);
	spaa_lami_cell_string(t, "x");
	spaa_lami_cell_int(t, 1);
	spaa_lami_cell_ratio(t, 1);
	spaa_lami_cell_string(t, "a string");
	spaa_lami_row_end(t);
	spaa_lami_table_set_column(t, 3, SPAA_LAMI_DURATION, NULL);
}
END_TEST

START_TEST(test_die_set_column_not_mixed)
{
	struct spaa_lami_table *t = spaa_lami_table_new(&classes[0], 0, 1);

	spaa_lami_table_set_column(t, 1, SPAA_LAMI_NUMBER, NULL);
}
END_TEST

START_TEST(test_die_no_tables)
{
	struct spaa_lami_results r;

	spaa_lami_results_init(&r);
	spaa_lami_results_write(stdout, &r);
}
END_TEST

#endif

Suite *lami_suite(void)
{
	Suite *s = suite_create("lami");
	TCase *tc;
	const char *fork = getenv("CK_FORK");

	tc = tcase_create("metadata");
	tcase_add_test(tc, test_class_names);
	tcase_add_test(tc, test_metadata_full);
	tcase_add_test(tc, test_metadata_minimal);
	suite_add_tcase(s, tc);

	tc = tcase_create("results");
	tcase_add_test(tc, test_results_class_name);
	tcase_add_test(tc, test_results_inherit);
	tcase_add_test(tc, test_results_dynamic);
	tcase_add_test(tc, test_results_keep_empty);
	tcase_add_test(tc, test_results_overflow);
	tcase_add_test(tc, test_results_every_cell);
	tcase_add_test(tc, test_results_shape);
	tcase_add_test(tc, test_results_large);
	tcase_add_test(tc, test_results_strings);
	tcase_add_loop_test(tc, test_results_fill_small, 0, 3);
	tcase_add_loop_test(tc, test_results_fill_threads, 0, 3);
	tcase_add_loop_test(tc, test_error_write, 0,
			    sizeof(error_cases) / sizeof(error_cases[0]));
	suite_add_tcase(s, tc);

	tc = tcase_create("progress");
	tcase_add_test(tc, test_progress_basic);
	tcase_add_test(tc, test_progress_many_updates);
	tcase_add_test(tc, test_progress_star);
	tcase_add_test(tc, test_progress_star_spacing);
	tcase_add_test(tc, test_progress_message);
	tcase_add_test(tc, test_progress_disabled);
	suite_add_tcase(s, tc);

#ifndef NDEBUG
	/* an abort would take a no-fork runner (valgrind runs) down with it */
	if (!fork || strcmp(fork, "no")) {
		tc = tcase_create("misuse");
		tcase_add_test_raise_signal(tc, test_die_short_row, SIGABRT);
		tcase_add_test_raise_signal(tc, test_die_long_row, SIGABRT);
		tcase_add_test_raise_signal(tc, test_die_cell_class, SIGABRT);
		tcase_add_test_raise_signal(tc, test_die_cell_outside_row,
					    SIGABRT);
		tcase_add_test_raise_signal(tc, test_die_set_column_after_cells,
					    SIGABRT);
		tcase_add_test_raise_signal(tc, test_die_set_column_not_mixed,
					    SIGABRT);
		tcase_add_test_raise_signal(tc, test_die_no_tables, SIGABRT);
		suite_add_tcase(s, tc);
	}
#else
	(void)fork;
#endif
	return s;
}
