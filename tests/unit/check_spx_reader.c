/*
 * check_spx - the SPX reader (spx_reader.h) through spaa_load: value
 * parsing, the model of tests/data/spx/basic (numbers worked out in
 * tests/data/README-spx.md), the samples' period_metric in sample
 * folding, path recognition, deep recursion, unbalanced streams, and
 * every must-fail input with its error code and line.
 */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/aggregate.h"
#include "formats/load.h"
#include "formats/spx_reader.h"
#include "io/input.h"
#include "io/pathlist.h"
#include "model/util.h"
#include "model/warn.h"
#include "testutil.h"

Suite *spx_reader_suite(void);

#define T0 INT64_C(1700000000000000000)        /* exec_ts of the hand-made pairs */

START_TEST(parse_values)
{
	static const struct { const char *s; int ok; int64_t v; } cases[] = {
		{ "0", 1, 0 }, { "155069", 1, 155069 }, { "-551.9999", 1, -552 },
		{ "-.9999", 1, -1 }, { "-3.9999", 1, -4 }, { ".5", 1, 1 },
		{ "-0.5", 1, -1 }, { "0.4999", 1, 0 }, { "7.", 1, 7 }, { "-0", 1, 0 },
		{ "9223372036854775807", 1, INT64_MAX },
		{ "-9223372036854775808", 1, INT64_MIN },
		{ "9223372036854775808", 0, 0 }, { "9223372036854775807.5", 0, 0 },
		{ "99999999999999999999", 0, 0 }, { "18446744073709551616", 0, 0 },
		{ "18446744073709551615", 0, 0 }, { "-9223372036854775809", 0, 0 },
		/* more than 19 digits, all but the last zeros */
		{ "00000000000000000000000000007", 1, 7 },
		{ "-0000000000000000000009223372036854775808.5", 0, 0 },
		{ "-0000000000000000000009223372036854775807.5", 1, INT64_MIN },
		{ "", 0, 0 }, { "-", 0, 0 }, { ".", 0, 0 }, { "-.", 0, 0 },
		{ "1a", 0, 0 }, { "1.2.3", 0, 0 }, { "+1", 0, 0 }, { "1e3", 0, 0 },
		{ "--1", 0, 0 }, { " 1", 0, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t v = 12345;
		int r = spaa_spx_reader_parse_value(cases[i].s, strlen(cases[i].s), &v);

		ck_assert_msg((r == 0) == cases[i].ok, "'%s' gave %d", cases[i].s, r);
		if (cases[i].ok)
			ck_assert_msg(v == cases[i].v, "'%s' gave %" PRId64, cases[i].s, v);
	}
}
END_TEST

struct warns {
	int n;
	char last[512];
};

static void on_warn(void *data, const char *file, unsigned long line, const char *msg)
{
	struct warns *w = data;

	w->n++;
	snprintf(w->last, sizeof(w->last), "%s:%lu: %s", file, line, msg);
}

static int fold_sample(void *data, const struct spaa_profile *p,
		       const struct spaa_sample *s, struct spaa_error *err)
{
	(void)p;
	return spaa_fold_add(data, s, err);
}

static int load(struct spaa_profile *p, const char *path, struct warns *w,
		struct spaa_fold *fold, struct spaa_error *err)
{
	struct spaa_load_opts o = { 0 };

	if (w)
		o.warn = (struct spaa_warn_sink){ on_warn, w };
	if (fold) {
		o.on_sample = fold_sample;
		o.data = fold;
	}
	spaa_profile_init(p);
	spaa_error_init(err);
	return spaa_load(p, &path, 1, &o, err);
}

static uint32_t str(const struct spaa_profile *p, const char *s)
{
	return spaa_strtab_find(&p->strings, s, strlen(s));
}

/* The record of event ev whose path, root first, is "a;b;c". */
static const struct spaa_record *record_of(const struct spaa_profile *p,
					   uint32_t ev, const char *path)
{
	for (uint32_t i = 0; i < p->nrecords; i++) {
		const struct spaa_record *r = &p->records[i];
		char buf[256] = "";
		size_t at = 0;

		if (r->event != ev)
			continue;
		for (uint32_t k = r->nframes; k-- > 0;) {
			const struct spaa_frame *f = &p->frames[p->frame_pool[r->frames + k]];

			at += (size_t)snprintf(buf + at, sizeof(buf) - at, "%s%s",
					       k + 1 == r->nframes ? "" : ";",
					       spaa_profile_str(p, p->functions[f->fn].name));
		}
		if (!strcmp(buf, path))
			return r;
	}
	return NULL;
}

static uint64_t weight(const struct spaa_profile *p, const struct spaa_record *r,
		       const char *metric, bool excl)
{
	uint64_t v = UINT64_MAX;

	ck_assert_msg(spaa_profile_weights_get(p, excl ? r->excl : r->weights,
				       excl ? r->nexcl : r->nweights, str(p, metric), &v),
		      "no '%s'", metric);
	return v;
}

START_TEST(basic_model)
{
	/* tests/data/README-spx.md, "basic": exclusive per path */
	static const struct { const char *path; uint64_t wt, zm, zm_neg; } want[] = {
		{ "main", 40, 230, 0 }, { "main;a", 20, 10, 0 },
		{ "main;a;b", 10, 0, 20 }, { "main;b", 30, 0, 221 },
	};
	struct spaa_profile p;
	struct spaa_error err;
	uint32_t ev;

	ck_assert_int_eq(load(&p, "tests/data/spx/basic.json", NULL, NULL, &err), 0);
	ck_assert_int_eq(p.nevents, 1);
	ev = spaa_profile_find_event(&p, "spx");
	ck_assert_uint_eq(ev, 0);
	ck_assert_str_eq(spaa_profile_str(&p, p.events[ev].primary_metric), "wt");
	ck_assert_int_eq(p.nstacks, 4);
	ck_assert_int_eq(p.nrecords, 4);
	ck_assert_int_eq(spaa_profile_nfunctions(&p), 3);
	for (size_t i = 0; i < 4; i++) {
		const struct spaa_record *r = record_of(&p, ev, want[i].path);

		ck_assert_msg(r != NULL, "no record for %s", want[i].path);
		ck_assert_uint_eq(weight(&p, r, "wt", false), want[i].wt);
		ck_assert_uint_eq(weight(&p, r, "wt", true), want[i].wt);
		ck_assert_uint_eq(weight(&p, r, "zm", false), want[i].zm);
		ck_assert_uint_eq(weight(&p, r, "zm-", false), want[i].zm_neg);
		ck_assert_int_eq(r->pid, 4242);
		ck_assert_int_eq(r->tid, 4242);
		ck_assert_str_eq(spaa_profile_str(&p, r->comm), "app.php");
		ck_assert_uint_eq(r->excl_frame, p.frame_pool[r->frames]);
	}
	/* no wt- twin: wall time never goes down */
	ck_assert_uint_eq(str(&p, "wt-"), SPAA_NONE);
	ck_assert_uint_eq(spaa_profile_total(&p, ev, str(&p, "wt")), 100);
	ck_assert(p.has_time);
	ck_assert_int_eq(p.time_start, T0);
	ck_assert_int_eq(p.time_end, T0 + 100);
	/* seven slices, each with an open call */
	ck_assert_uint_eq(p.nsamples, 7);
	spaa_profile_release(&p);
}
END_TEST

/*
 * Slices carry period_metric "wt": folding [T0, T0 + 14] takes the
 * slices at 0 (main, 10 ns) and 10 (main;a, 5 ns) by their periods, 15.
 * Shared out by sample counts instead, it would be 40/3 + 20/2 = 23.
 */
START_TEST(fold_by_period_metric)
{
	struct spaa_profile p;
	struct spaa_fold fold;
	struct spaa_error err;
	struct spaa_aggregate a;

	spaa_fold_init(&fold, TESTUTIL_RANGE(T0, T0 + 14));
	ck_assert_int_eq(load(&p, "tests/data/spx/basic.json", NULL, &fold, &err), 0);
	ck_assert_uint_eq(fold.in_samples, 2);
	spaa_aggregate_init(&a, &p);
	ck_assert_int_eq(spaa_aggregate_add_fold(&a, &fold, 0, str(&p, "wt"), NULL, &err), 0);
	ck_assert_uint_eq(a.total, 15);
	spaa_aggregate_release(&a);

	/* the whole run gives exactly the records' sums, for every metric */
	spaa_fold_release(&fold);
	spaa_profile_release(&p);
	spaa_fold_init(&fold, NULL);
	ck_assert_int_eq(load(&p, "tests/data/spx/basic.json", NULL, &fold, &err), 0);
	spaa_aggregate_init(&a, &p);
	ck_assert_int_eq(spaa_aggregate_add_fold(&a, &fold, 0, str(&p, "wt"), NULL, &err), 0);
	ck_assert_uint_eq(a.total, 100);
	spaa_aggregate_release(&a);
	spaa_aggregate_init(&a, &p);
	ck_assert_int_eq(spaa_aggregate_add_fold(&a, &fold, 0, str(&p, "zm-"), NULL, &err), 0);
	ck_assert_uint_eq(a.total, 241);
	spaa_aggregate_release(&a);
	spaa_fold_release(&fold);
	spaa_profile_release(&p);
}
END_TEST

/* A sample naming no period_metric still folds "period" as before. */
START_TEST(fold_period_metric_default)
{
	struct spaa_fold f;
	struct spaa_error err;
	struct spaa_sample s = {
		.time = 5, .stack = 0, .event = 0, .pid = 1, .tid = 1,
		.cpu = SPAA_NO_ID, .has_period = true, .period = 7,
	};

	spaa_fold_init(&f, TESTUTIL_RANGE(0, 10));
	ck_assert_int_eq(spaa_fold_add(&f, &s, &err), 0);
	s.period_metric = 3;    /* another key: period of metric 3 */
	ck_assert_int_eq(spaa_fold_add(&f, &s, &err), 0);
	ck_assert_uint_eq(f.nkeys, 2);
	ck_assert_uint_eq(f.groups[0].in_period, 7);
	ck_assert_uint_eq(f.groups[1].in_period, 7);
	spaa_fold_release(&f);
}
END_TEST

START_TEST(recursion_and_alloc_event)
{
	struct spaa_profile p;
	struct spaa_error err;
	uint32_t ev, al;
	const struct spaa_record *r;

	ck_assert_int_eq(load(&p, "tests/data/spx/recursion.txt.gz", NULL, NULL, &err), 0);
	ev = spaa_profile_find_event(&p, "spx");
	al = spaa_profile_find_event(&p, "spx-alloc");
	ck_assert_uint_ne(al, SPAA_NONE);
	ck_assert_int_eq(p.events[al].kind, SPAA_EV_ALLOCATION);
	ck_assert_str_eq(spaa_profile_str(&p, p.events[al].primary_metric), "alloc_bytes");
	r = record_of(&p, ev, "/app/r.php;f;f;f");
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(weight(&p, r, "wt", false), 8);
	ck_assert_uint_eq(weight(&p, r, "ct", false), 0);
	ck_assert_uint_eq(weight(&p, r, "ct-", false), 1);
	ck_assert_uint_eq(weight(&p, r, "zm-", false), 64);
	ck_assert_ptr_null(record_of(&p, al, "/app/r.php;f;f;f"));
	r = record_of(&p, al, "/app/r.php");
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(weight(&p, r, "alloc_bytes", false), 64);
	ck_assert_uint_eq(weight(&p, r, "alloc_count", false), 1);
	ck_assert_str_eq(spaa_profile_str(&p, r->comm), "r.php 3");
	spaa_profile_release(&p);
}
END_TEST

START_TEST(unbalanced_warns)
{
	struct spaa_profile p;
	struct spaa_error err;
	struct warns w = { 0 };

	ck_assert_int_eq(load(&p, "tests/data/spx/unbalanced.json", &w, NULL, &err), 0);
	ck_assert_int_eq(w.n, 1);
	ck_assert_msg(strstr(w.last, "unbalanced.txt.gz:5: 2 calls are still open"), "%s", w.last);
	ck_assert_uint_eq(spaa_profile_total(&p, 0, str(&p, "wt")), 20);
	spaa_profile_release(&p);
}
END_TEST

START_TEST(paths_recognised)
{
	struct spaa_pathlist l = { 0 };
	struct spaa_sbuf b = { 0 };
	struct spaa_error err;

	ck_assert_int_eq(spaa_pathlist_expand("tests/data/spx/basic.txt.gz", &l, &err), 0);
	ck_assert_int_eq(spaa_pathlist_expand("tests/data/spx/basic.json", &l, &err), 0);
	ck_assert_int_eq(spaa_pathlist_expand("tests/data/spx", &l, &err), 0);
	ck_assert_int_eq(spaa_pathlist_expand("tests/data/basic.spaa", &l, &err), 0);
	ck_assert_uint_eq(l.nr, 2 + 4 + 1);
	ck_assert_str_eq(spaa_pathlist_path(&l, 0, &b), "tests/data/spx/basic.json");
	ck_assert_int_eq(l.kinds[0], SPAA_PATHLIST_SPX);
	ck_assert_int_eq(l.kinds[1], SPAA_PATHLIST_SPX);
	ck_assert_str_eq(spaa_pathlist_path(&l, 2, &b), "tests/data/spx/basic.json");
	ck_assert_str_eq(spaa_pathlist_path(&l, 5, &b), "tests/data/spx/unbalanced.json");
	ck_assert_int_eq(l.kinds[6], SPAA_PATHLIST_SPAA);
	spaa_pathlist_release(&l);
	free(b.s);
}
END_TEST

/* 5000 nested calls of one function: no recursion in C, every frame kept. */
START_TEST(deep_recursion)
{
	char dir[] = "/tmp/check_spx.XXXXXX", json[64], txt[64];
	struct spaa_profile p;
	struct spaa_error err;
	const int n = 5000;
	uint32_t deepest = 0;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(json, sizeof(json), "%s/r.json", dir);
	snprintf(txt, sizeof(txt), "%s/r.txt.gz", dir);
	f = fopen(json, "w");
	ck_assert_ptr_nonnull(f);
	fputs("{\"exec_ts\": 1, \"process_pid\": 9, \"enabled_metrics\": [\"wt\",\"zm\"]}\n", f);
	fclose(f);
	/* plain text under the .txt.gz name: input sniffs, it does not trust names */
	f = fopen(txt, "w");
	ck_assert_ptr_nonnull(f);
	fputs("[events]\n", f);
	for (int i = 0; i < n; i++)
		fprintf(f, "0 1 %d 0\n", i);
	for (int i = 0; i < n; i++)
		fprintf(f, "0 0 %d 0\n", n + i);
	fputs("[functions]\ndive\n", f);
	fclose(f);
	ck_assert_int_eq(load(&p, json, NULL, NULL, &err), 0);
	ck_assert_int_eq(p.nstacks, n);
	for (uint32_t s = 0; s < p.nstacks; s++)
		if (p.stacks[s].nframes > deepest)
			deepest = p.stacks[s].nframes;
	ck_assert_uint_eq(deepest, (uint32_t)n);
	/* 2n - 1 slices of 1 ns */
	ck_assert_uint_eq(spaa_profile_total(&p, 0, str(&p, "wt")), 2 * n - 1);
	spaa_profile_release(&p);
	unlink(json);
	unlink(txt);
	rmdir(dir);
}
END_TEST

START_TEST(must_fail)
{
	static const struct {
		const char *dir, *code;
		unsigned long line;
		const char *file, *text;
	} cases[] = {
		{ "spx_exit_without_entry", SPAA_E_INVALID, 2, "report.txt.gz", "without a matching entry" },
		{ "spx_exit_mismatch", SPAA_E_INVALID, 4, "report.txt.gz", "entered on line 3" },
		{ "spx_index_out_of_range", SPAA_E_INVALID, 3, "report.txt.gz", "function index 3 is out of range" },
		{ "spx_wrong_metric_count", SPAA_E_INVALID, 3, "report.txt.gz", "has 3 values" },
		{ "spx_bad_value", SPAA_E_INVALID, 3, "report.txt.gz", "'1.2.3'" },
		{ "spx_no_functions", SPAA_E_INVALID, 3, "report.txt.gz", "no [functions] section" },
		{ "spx_not_events", SPAA_E_INVALID, 1, "report.txt.gz", "'[events]'" },
		{ "spx_no_enabled_metrics", SPAA_E_INVALID, 0, "report.json", "no 'enabled_metrics'" },
		{ "spx_no_wt", SPAA_E_INVALID, 0, "report.json", "lacks 'wt'" },
		{ "spx_truncated", SPAA_E_DECOMPRESS, 1953, "report.txt.gz", "truncated gzip" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct spaa_profile p;
		struct spaa_error err;
		char path[128], file[160];

		snprintf(path, sizeof(path), "tests/data/bad/%s", cases[i].dir);
		snprintf(file, sizeof(file), "%s/%s", path, cases[i].file);
		ck_assert_int_eq(load(&p, path, NULL, NULL, &err), -1);
		ck_assert_msg(!strcmp(err.code, cases[i].code), "%s: %s", path, err.code);
		ck_assert_msg(err.line == cases[i].line, "%s: line %lu", path, err.line);
		ck_assert_str_eq(err.file, file);
		ck_assert_msg(strstr(err.msg, cases[i].text), "%s: %s", path, err.msg);
		spaa_profile_release(&p);
	}
}
END_TEST

Suite *spx_reader_suite(void)
{
	Suite *s = suite_create("spx_reader");
	TCase *tc = tcase_create("reader");

	tcase_add_test(tc, parse_values);
	tcase_add_test(tc, basic_model);
	tcase_add_test(tc, fold_by_period_metric);
	tcase_add_test(tc, fold_period_metric_default);
	tcase_add_test(tc, recursion_and_alloc_event);
	tcase_add_test(tc, unbalanced_warns);
	tcase_add_test(tc, paths_recognised);
	tcase_add_test(tc, deep_recursion);
	tcase_add_test(tc, must_fail);
	suite_add_tcase(s, tc);
	return s;
}
