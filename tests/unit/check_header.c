/*
 * check_header - the text header: lines wrapped at blanks with continuation
 * lines indented, a word no line holds cut at its start, no-break blanks
 * inside values, control characters replaced, totals past int64 exact,
 * the formats of a directory's files each once.  Expected texts written
 * by hand.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/profile.h"
#include "report/header.h"
#include "report/table.h"

Suite *header_suite(void);

static char *written(const struct spaa_header *h, size_t width)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	spaa_header_write(f, h, width);
	fclose(f);
	return buf;
}

START_TEST(test_wrap)
{
	struct spaa_header h = { 0 };
	char *out;

	spaa_header_add(&h, "Weighed", "event '%s', primary metric '%s'", "cpu-clock", "period");
	/* 53 columns: fits 53 exactly, not 52 */
	out = written(&h, 53);
	ck_assert_str_eq(out, "# Weighed: event 'cpu-clock', primary metric 'period'\n\n");
	free(out);
	out = written(&h, 52);
	ck_assert_str_eq(out, "# Weighed: event 'cpu-clock', primary metric\n#   'period'\n\n");
	free(out);
	out = written(&h, 0);
	ck_assert_str_eq(out, "# Weighed: event 'cpu-clock', primary metric 'period'\n\n");
	free(out);
	spaa_header_release(&h);
	/* nothing to say: nothing written, not even the empty line */
	out = written(&h, 80);
	ck_assert_str_eq(out, "");
	free(out);
}
END_TEST

START_TEST(test_cut_and_clean)
{
	struct spaa_header h = { 0 };
	char *out;

	/* the path does not fit a line: its last 18 columns stay, after "…" */
	spaa_header_add(&h, "Profile", "%s (SPAA)", "/very/long/directory/name/x\x1b]0;t\x07.spaa");
	out = written(&h, 30);
	ck_assert_str_eq(out, "# Profile: \xe2\x80\xa6/name/x?]0;t?.spaa\n#   (SPAA)\n\n");
	free(out);
	spaa_header_release(&h);
}
END_TEST

/* Widths in terminal cells: a CJK character takes two. */
START_TEST(test_cells)
{
	struct spaa_header h = { 0 };
	char *out;

	/* "# Profile: " 11 + 8 CJK characters (16 cells) = 27 */
	spaa_header_add(&h, "Profile", "%s (SPAA)",
			"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe6\x97\xa5"
			"\xe6\x9c\xac\xe8\xaa\x9e\xe6\x97\xa5\xe6\x9c\xac");
	out = written(&h, 27);
	ck_assert_str_eq(out, "# Profile: \xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe6\x97\xa5"
			 "\xe6\x9c\xac\xe8\xaa\x9e\xe6\x97\xa5\xe6\x9c\xac\n#   (SPAA)\n\n");
	free(out);
	/*
	 * 16 columns: the path goes to a line of its own, where 12 are left
	 * after "#   ": "…" and the last 5 characters (10 cells)
	 */
	out = written(&h, 16);
	ck_assert_str_eq(out, "# Profile:\n#   \xe2\x80\xa6\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e"
			 "\xe6\x97\xa5\xe6\x9c\xac\n#   (SPAA)\n\n");
	free(out);
	spaa_header_release(&h);
}
END_TEST

/* Table titles under a header: what the header says goes. */
START_TEST(test_short_title)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "Functions (event 'cpu', primary metric 'period')", "Functions" },
		{ "Phases (event 'cpu', primary metric 'period'; bins of 50ms)",
		  "Phases (bins of 50ms)" },
		{ "Deltas (event 'cpu', primary metric 'period', raw (default); DSO a paired with b (2 of 2; see x))",
		  "Deltas (event 'cpu', primary metric 'period', raw (default))" },
		{ "Sites (sorted by allocated; event 'cpu', primary metric 'period')",
		  "Sites (sorted by allocated)" },
		{ "No parenthesis", "No parenthesis" },
		{ "Unbalanced x)", "Unbalanced x)" },
		{ "(event 'cpu', primary metric 'period')", "(event 'cpu', primary metric 'period')" },
	};
	struct spaa_header h = { 0 };
	char *out;

	out = spaa_header_short_title(&h, cases[0].in);
	ck_assert_str_eq(out, cases[0].in);         /* no header: unchanged */
	free(out);
	spaa_header_add(&h, "Weighed", "event 'cpu', primary metric 'period'");
	spaa_header_add(&h, "DSOs", "DSO a paired with b (2 of 2; see x)");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		out = spaa_header_short_title(&h, cases[i].in);
		ck_assert_str_eq(out, cases[i].want);
		free(out);
	}
	spaa_header_release(&h);
}
END_TEST

/* A profile of one event with two files of different formats. */
static void two_files(struct spaa_profile *p)
{
	spaa_profile_init(p);
	spaa_profile_add_file(p, "a.spaa", "perf");
	p->files[0].format = "SPAA";
	spaa_profile_add_file(p, "b.json", "spx");
	p->files[1].format = "SPX report";
	spaa_profile_add_file(p, "c.spaa", "perf");
	p->files[2].format = "SPAA";
	p->has_time = true;
	p->time_start = 1500000000;
	p->time_end = 4000000000;
}

START_TEST(test_profile_and_total)
{
	struct spaa_profile p;
	struct spaa_table t;
	struct spaa_lami_results r;
	struct spaa_header h = { 0 };
	uint64_t big = UINT64_MAX, small = 1536;
	char *out;

	two_files(&p);
	spaa_lami_results_init(&r);
	spaa_table_init(&t, &r, 0);
	t.begin = 2000000000;
	t.end = 4000000000;
	snprintf(t.what, sizeof(t.what), "event 'e', metric 'm'; whole profile");
	t.sem = (struct spaa_metrics_sem){ .cls = SPAA_METRICS_SIZE, .scale = 1 };
	spaa_header_profile(&h, "Profile", &p, "dir", &t);
	spaa_header_weights(&h, &t, &small, 3, "samples");
	spaa_header_weights(&h, &t, &big, 1, "calls");
	t.sem.cls = SPAA_METRICS_DURATION;
	spaa_header_weights(&h, &t, &big, SPAA_HEADER_NO_SAMPLES, "samples");
	out = written(&h, 0);
	ck_assert_str_eq(out,
			 "# Profile: dir (3 files: SPAA from perf, SPX report)\n"
			 "# Time: 1.500000000 to 4.000000000 s (2.5 s); selected 2.000000000 to 4.000000000 s (2 s)\n"
			 "# Weighed: event 'e', metric 'm'\n"
			 "# Total: 1.5 KiB in 3 samples\n"
			 "# Weighed: event 'e', metric 'm'\n"
			 "# Total: 18446744073709551615 bytes in 1 calls\n"
			 "# Weighed: event 'e', metric 'm'\n"
			 "# Total: 18446744073709551615 ns\n\n");
	free(out);
	spaa_header_release(&h);
	/* a wrapped total keeps its unit: "1.5 KiB" whole */
	t.sem.cls = SPAA_METRICS_SIZE;
	spaa_header_weights(&h, &t, &small, 3, "samples");
	out = written(&h, 16);
	ck_assert_str_eq(out, "# Weighed: event\n#   'e', metric\n#   'm'\n# Total: 1.5 KiB\n#   in 3 samples\n\n");
	free(out);
	spaa_header_release(&h);
	spaa_lami_results_release(&r);
	spaa_profile_release(&p);
}
END_TEST

Suite *header_suite(void)
{
	Suite *s = suite_create("header");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_wrap);
	tcase_add_test(tc, test_cut_and_clean);
	tcase_add_test(tc, test_cells);
	tcase_add_test(tc, test_short_title);
	tcase_add_test(tc, test_profile_and_total);
	suite_add_tcase(s, tc);
	return s;
}
