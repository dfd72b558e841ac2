/*
 * check_table - what every analysis' tables share (report/table.h):
 * titles built from what is weighed and its caveats, weight columns in
 * the class of their metric (plain and net), --limit, the cells of
 * weights, shares, values and deltas, and the one rule that names a
 * process or thread.  Cells are read back through lami.h.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "report/table.h"
#include "testutil.h"

Suite *table_suite(void);

static void setup(void)
{
	testutil_tmpdir_setup("check_table");
}

static void teardown(void)
{
	testutil_tmpdir_teardown();
}

static const struct spaa_lami_column cols[] = {
	{ "Name", SPAA_LAMI_STRING, NULL },
	{ "Weight", SPAA_LAMI_MIXED, NULL },
	{ "Share", SPAA_LAMI_RATIO, NULL },
	{ "Other", SPAA_LAMI_MIXED, NULL },
};

static const struct spaa_lami_table_class cls = { "t", "Things", cols, 4 };

static const struct spaa_metrics_sem us = { SPAA_METRICS_DURATION, 1000.0, "" };

static void cell(const struct spaa_lami_table *t, size_t row, size_t col,
		 struct spaa_lami_cell_view *v)
{
	spaa_lami_table_cell(t, row, col, v);
}

START_TEST(test_titles_and_columns)
{
	struct spaa_lami_results r;
	struct spaa_table t;
	struct spaa_lami_table *lt;
	enum spaa_lami_class c;
	const char *unit;

	spaa_lami_results_init(&r);
	spaa_table_init(&t, &r, 3);
	t.sem = us;
	spaa_table_what_more(&t, "event 'e'");          /* first: no separator */
	spaa_table_what_more(&t, "metric 'm'");
	spaa_table_what_add(&t, "whole profile");
	lt = spaa_table_new(&t, &cls, NULL);
	ck_assert_str_eq(spaa_lami_table_title(lt),
			 "Things (event 'e', metric 'm'; whole profile)");
	spaa_lami_table_column(lt, 1, &c, &unit);
	ck_assert_int_eq(c, SPAA_LAMI_DURATION);
	spaa_lami_table_column(lt, 3, &c, &unit);
	ck_assert_int_eq(c, SPAA_LAMI_DURATION);
	spaa_lami_table_column(lt, 2, &c, &unit);
	ck_assert_int_eq(c, SPAA_LAMI_RATIO);
	spaa_lami_table_free(lt);

	t.net = true;
	lt = spaa_table_new(&t, &cls, "bins of %dms", 5);
	ck_assert_str_eq(spaa_lami_table_title(lt),
			 "Things (event 'e', metric 'm'; whole profile; bins of 5ms)");
	spaa_lami_table_column(lt, 1, &c, &unit);
	ck_assert_int_eq(c, SPAA_LAMI_NUMBER);
	ck_assert_str_eq(unit, "ns");
	/* share deltas: ratios, in percentage points for text */
	spaa_table_points_column(lt, 2);
	spaa_lami_table_column(lt, 2, &c, &unit);
	ck_assert_int_eq(c, SPAA_LAMI_RATIO);
	ck_assert_str_eq(unit, "pp");
	/* an empty table is dropped when added */
	spaa_table_add(&t, lt);
	ck_assert_uint_eq(r.nr, 0);
	ck_assert_uint_eq(spaa_table_rows(&t, 10), 3);
	ck_assert_uint_eq(spaa_table_rows(&t, 2), 2);
	spaa_lami_results_release(&r);
}
END_TEST

START_TEST(test_weight_cells)
{
	static const struct spaa_lami_column one[] = { { "W", SPAA_LAMI_MIXED, NULL } };
	static const struct spaa_lami_table_class c1 = { "w", "W", one, 1 };
	struct spaa_lami_table *lt = spaa_lami_table_new(&c1, 0, 0);
	struct spaa_lami_cell_view v;
	struct spaa_table t;

	spaa_table_init(&t, NULL, 10);
	t.sem = us;
	spaa_lami_row_begin(lt);
	spaa_table_weight(&t, lt, 3, 99);       /* not net: neg ignored, 3 us */
	spaa_lami_row_end(lt);
	t.net = true;
	spaa_lami_row_begin(lt);
	spaa_table_weight(&t, lt, 5, 8);        /* net -3 us, a number of ns */
	spaa_lami_row_end(lt);
	cell(lt, 0, 0, &v);
	ck_assert_int_eq(v.kind, SPAA_LAMI_CELL_DURATION);
	ck_assert_int_eq(v.i, 3000);
	cell(lt, 1, 0, &v);
	ck_assert_int_eq(v.kind, SPAA_LAMI_CELL_NUMBER);
	ck_assert(v.d == -3000.0);
	spaa_lami_table_free(lt);
}
END_TEST

START_TEST(test_share_value_delta_cells)
{
	static const struct spaa_lami_column mixed[] = {
		{ "A", SPAA_LAMI_MIXED, NULL }, { "B", SPAA_LAMI_MIXED, NULL },
		{ "C", SPAA_LAMI_MIXED, NULL }, { "D", SPAA_LAMI_MIXED, NULL },
		{ "E", SPAA_LAMI_MIXED, NULL }, { "F", SPAA_LAMI_MIXED, NULL },
		{ "G", SPAA_LAMI_MIXED, NULL }, { "H", SPAA_LAMI_MIXED, NULL },
	};
	static const struct spaa_lami_table_class c8 = { "m", "M", mixed, 8 };
	const struct spaa_metrics_sem count = { SPAA_METRICS_INT, 1, "" };
	const struct spaa_metrics_sem bytes = { SPAA_METRICS_SIZE, 1, "" };
	const struct spaa_metrics_sem ns = { SPAA_METRICS_DURATION, 1, "" };
	const struct spaa_metrics_sem cycles = { SPAA_METRICS_NUMBER, 1, "cycles" };
	struct spaa_lami_table *lt = spaa_lami_table_new(&c8, 0, 0);
	struct spaa_table t;
	struct spaa_lami_cell_view v;

	spaa_table_init(&t, NULL, 10);
	t.net = true;
	spaa_lami_row_begin(lt);
	spaa_table_share_cell(lt, 1, 0);                /* whole 0: unknown */
	spaa_table_share_cell(lt, 1, 4);
	spaa_table_share(&t, lt, 1, 0, 2, 5);           /* net whole -3: unknown */
	spaa_table_value_cell(lt, &bytes, 2.5);         /* half away from zero */
	spaa_table_delta_cell(lt, &count, -2.5);
	spaa_table_delta_cell(lt, &bytes, -0.0);        /* never "-0" */
	spaa_table_ratio_cell(lt, NAN);
	spaa_table_ratio_cell(lt, -0.0);
	spaa_lami_row_end(lt);
	cell(lt, 0, 0, &v);
	ck_assert_int_eq(v.kind, SPAA_LAMI_CELL_UNKNOWN);
	cell(lt, 0, 1, &v);
	ck_assert(v.kind == SPAA_LAMI_CELL_RATIO && v.d == 0.25);
	cell(lt, 0, 2, &v);
	ck_assert_int_eq(v.kind, SPAA_LAMI_CELL_UNKNOWN);
	cell(lt, 0, 3, &v);
	ck_assert(v.kind == SPAA_LAMI_CELL_SIZE && v.i == 3);
	cell(lt, 0, 4, &v);
	ck_assert(v.kind == SPAA_LAMI_CELL_INT && v.i == -3);
	cell(lt, 0, 5, &v);
	ck_assert(v.kind == SPAA_LAMI_CELL_SIZE && v.i == 0);
	cell(lt, 0, 6, &v);
	ck_assert_int_eq(v.kind, SPAA_LAMI_CELL_UNKNOWN);
	cell(lt, 0, 7, &v);
	ck_assert(v.kind == SPAA_LAMI_CELL_RATIO && v.d == 0 && !signbit(v.d));

	/* deltas in the weights' class, whole units: no fraction for TC */
	spaa_lami_row_begin(lt);
	spaa_table_delta_cell(lt, &ns, -1363636.36);
	spaa_table_delta_cell(lt, &cycles, 2.5);
	spaa_table_delta_cell(lt, &cycles, -0.4);
	for (int i = 3; i < 8; i++)
		spaa_lami_cell_unknown(lt);
	spaa_lami_row_end(lt);
	cell(lt, 1, 0, &v);
	ck_assert(v.kind == SPAA_LAMI_CELL_DURATION && v.i == -1363636);
	cell(lt, 1, 1, &v);
	ck_assert(v.kind == SPAA_LAMI_CELL_NUMBER && v.d == 3);
	cell(lt, 1, 2, &v);
	ck_assert(v.kind == SPAA_LAMI_CELL_NUMBER && v.d == 0 && !signbit(v.d));
	spaa_lami_table_free(lt);
}
END_TEST

/*
 * Counts past the 15 digits of a number cell are exact ints; a
 * difference past int64 is an overflow in every output, never a clamp.
 */
START_TEST(test_big_counts_and_deltas)
{
	static const struct spaa_lami_column two[] = {
		{ "Name", SPAA_LAMI_STRING, NULL }, { "W", SPAA_LAMI_NUMBER, "cycles" },
	};
	static const struct spaa_lami_column delta[] = {
		{ "Name", SPAA_LAMI_STRING, NULL }, { "D", SPAA_LAMI_MIXED, NULL },
	};
	static const struct spaa_lami_table_class c2 = { "b", "Big", two, 2 };
	static const struct spaa_lami_table_class cd = { "d", "Deltas", delta, 2 };
	const struct spaa_metrics_sem cycles = { SPAA_METRICS_NUMBER, 1, "cycles" };
	const struct spaa_metrics_sem ns = { SPAA_METRICS_DURATION, 1, "" };
	struct spaa_lami_results r;
	struct spaa_lami_table *lt = spaa_lami_table_new(&c2, 0, 0);
	struct spaa_lami_cell_view v;
	struct spaa_error err;

	spaa_lami_results_init(&r);
	spaa_lami_row_begin(lt);
	spaa_lami_cell_string(lt, "below");
	spaa_table_weight_cell(lt, &cycles, 999999999999999);
	spaa_lami_row_end(lt);
	spaa_lami_row_begin(lt);
	spaa_lami_cell_string(lt, "at");
	spaa_table_weight_cell(lt, &cycles, 1234567890123456789);
	spaa_lami_row_end(lt);
	cell(lt, 0, 1, &v);
	ck_assert(v.kind == SPAA_LAMI_CELL_NUMBER && v.d == 999999999999999.0);
	cell(lt, 1, 1, &v);
	ck_assert(v.kind == SPAA_LAMI_CELL_INT && v.i == 1234567890123456789 && !v.big);
	spaa_lami_results_add(&r, lt);
	ck_assert_int_eq(spaa_lami_results_overflow(&r, true, &err), 0);
	spaa_lami_results_release(&r);

	spaa_lami_results_init(&r);
	lt = spaa_lami_table_new(&cd, 0, 0);
	spaa_lami_row_begin(lt);
	spaa_lami_cell_string(lt, "up");
	spaa_table_delta_cell(lt, &ns, 18446744073709550000.0);
	spaa_lami_row_end(lt);
	spaa_lami_results_add(&r, lt);
	for (int lami = 0; lami < 2; lami++) {
		spaa_error_init(&err);
		ck_assert_int_eq(spaa_lami_results_overflow(&r, lami, &err), -1);
		ck_assert_str_eq(err.code, SPAA_E_OVERFLOW);
		ck_assert_str_eq(err.msg, "table 'Deltas', row 1 ('up'), column 'D': the value is past "
				 "the 64-bit range (-2^63 to 2^63 - 1)");
	}
	spaa_lami_results_release(&r);
	/* the ends of int64 themselves are cells */
	lt = spaa_lami_table_new(&cd, 0, 0);
	spaa_lami_row_begin(lt);
	spaa_lami_cell_string(lt, "low");
	spaa_table_delta_cell(lt, &ns, -9223372036854775808.0);
	spaa_lami_row_end(lt);
	cell(lt, 0, 1, &v);
	ck_assert(v.kind == SPAA_LAMI_CELL_DURATION && !v.big);
	spaa_lami_table_free(lt);
}
END_TEST

/* Threads 10/10 "daemon" and 10/11 "worker"; process 20 declares none. */
static const char threads_profile[] =
	TESTUTIL_HEADER("{'name':'e','kind':'software','sampling':{'mode':'event','primary_metric':'samples'}}")
	"{'type':'thread','pid':10,'tid':10,'comm':'daemon'}\n"
	"{'type':'thread','pid':10,'tid':11,'comm':'worker'}\n"
	"{'type':'thread','pid':20,'tid':21}\n";

START_TEST(test_process_names)
{
	static const struct spaa_lami_column pc[] = { { "P", SPAA_LAMI_PROCESS, NULL } };
	static const struct spaa_lami_table_class cp = { "p", "P", pc, 1 };
	static const struct {
		int64_t pid, tid;
		const char *comm;       /* given by the data, or NULL */
		const char *name;       /* the cell's, or NULL */
	} rows[] = {
		{ 10, 11, NULL, "worker" },     /* its own declared thread */
		{ 10, 12, NULL, "daemon" },     /* undeclared: its main thread's */
		{ 10, SPAA_NO_ID, NULL, "daemon" },     /* a process: its main thread */
		{ 10, 11, "given", "given" },   /* what the data says first */
		{ 20, 21, NULL, NULL },         /* declared without a name */
		{ 30, 30, NULL, NULL },
		{ SPAA_NO_ID, SPAA_NO_ID, NULL, NULL },
	};
	struct spaa_lami_table *lt = spaa_lami_table_new(&cp, 0, 0);
	struct spaa_lami_cell_view v;
	struct spaa_profile p;

	testutil_load_quoted(&p, "t.spaa", threads_profile);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint32_t comm = rows[i].comm ?
			spaa_strtab_intern(&p.strings, rows[i].comm, strlen(rows[i].comm)) : 0;

		spaa_lami_row_begin(lt);
		spaa_table_process_cell(lt, &p, rows[i].pid, rows[i].tid, comm);
		spaa_lami_row_end(lt);
	}
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		cell(lt, i, 0, &v);
		ck_assert_int_eq(v.kind, SPAA_LAMI_CELL_PROCESS);
		if (rows[i].name)
			ck_assert_str_eq(v.str, rows[i].name);
		else
			ck_assert_ptr_null(v.str);
		ck_assert_int_eq(v.pid, rows[i].pid == SPAA_NO_ID ? SPAA_LAMI_NO_ID : rows[i].pid);
		ck_assert_int_eq(v.tid, rows[i].tid == SPAA_NO_ID ? SPAA_LAMI_NO_ID : rows[i].tid);
	}
	spaa_lami_table_free(lt);
	spaa_profile_release(&p);
}
END_TEST

Suite *table_suite(void)
{
	Suite *s = suite_create("table");
	TCase *tc = tcase_create("table");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_titles_and_columns);
	tcase_add_test(tc, test_weight_cells);
	tcase_add_test(tc, test_share_value_delta_cells);
	tcase_add_test(tc, test_big_counts_and_deltas);
	tcase_add_test(tc, test_process_names);
	suite_add_tcase(s, tc);
	return s;
}
