/*
 * check_profile_writer - a loaded model written out as SPAA
 * (formats/profile_writer.h) and read back: the same events, stack
 * records, weights and totals, the samples in load order, the declared
 * threads with their names; for an SPX report (only the model reads it)
 * and for a SPAA profile with related stacks (written unified, each
 * weight once).
 */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "formats/load.h"
#include "formats/profile_writer.h"
#include "io/output.h"
#include "testutil.h"

Suite *profile_writer_suite(void);

static void setup(void)
{
	testutil_tmpdir_setup("check_profile_writer");
}

static void teardown(void)
{
	testutil_tmpdir_teardown();
}

static void load(struct spaa_profile *p, const char *path,
		 struct spaa_profile_writer *w)
{
	struct spaa_load_opts o = { 0 };
	struct spaa_error err;

	if (w) {
		o.on_sample = spaa_profile_writer_on_sample;
		o.data = w;
	}
	spaa_profile_init(p);
	spaa_error_init(&err);
	ck_assert_msg(!spaa_load(p, &path, 1, &o, &err), "%s: %s", path, err.msg);
}

/* Writes path's model to a file and loads it back into again. */
static void round_trip(const char *path, struct spaa_profile *orig,
		       struct spaa_profile *again)
{
	const char *out_path = testutil_path("out.spaa");
	struct spaa_profile_writer *w = spaa_profile_writer_new();
	struct spaa_output *out;
	struct spaa_error err;

	load(orig, path, w);
	spaa_error_init(&err);
	ck_assert_int_eq(spaa_output_open(&out, out_path, SPAA_INPUT_COMP_NONE, 0, &err), 0);
	ck_assert_msg(!spaa_profile_writer_write(w, orig, "test", out, &err), "%s", err.msg);
	ck_assert_int_eq(spaa_output_close(out, &err), 0);
	spaa_profile_writer_free(w);
	spaa_profile_writer_free(NULL);
	load(again, out_path, NULL);
}

/* Every (event, metric) total of a is b's, by name. */
static void same_totals(const struct spaa_profile *a, const struct spaa_profile *b)
{
	for (uint32_t i = 0; i < a->totals.nr; i++) {
		const uint32_t *k = spaa_map_key(&a->totals, i);
		uint32_t ev = spaa_profile_find_event(b, spaa_profile_str(a, a->events[k[0]].name));
		uint32_t m = testutil_str(b, spaa_profile_str(a, k[1]));

		ck_assert_uint_ne(ev, SPAA_NONE);
		ck_assert_uint_eq(spaa_profile_total(b, ev, m), a->total_values[i]);
	}
}

static uint32_t live_records(const struct spaa_profile *p)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < p->nrecords; i++)
		n += !p->records[i].absorbed;
	return n;
}

START_TEST(test_spx)
{
	struct spaa_profile a, b;
	uint32_t t;

	round_trip("tests/data/spx/basic.json", &a, &b);
	ck_assert_uint_eq(b.nevents, a.nevents);
	ck_assert_uint_eq(b.nrecords, live_records(&a));
	ck_assert_uint_eq(b.nsamples, a.nsamples);
	ck_assert(b.nsamples > 0);
	same_totals(&a, &b);
	/* the report's process, declared with its name */
	ck_assert_uint_eq(spaa_profile_nthreads(&b), 1);
	t = spaa_profile_find_thread(&b, a.threads[0].pid, a.threads[0].tid);
	ck_assert_uint_ne(t, SPAA_NONE);
	ck_assert_str_eq(spaa_profile_str(&b, b.threads[t].comm),
			 spaa_profile_str(&a, a.threads[0].comm));
	ck_assert(b.time_start == a.time_start && b.time_end == a.time_end);
	spaa_profile_release(&a);
	spaa_profile_release(&b);
}
END_TEST

START_TEST(test_related_written_unified)
{
	struct spaa_profile a, b;

	round_trip("tests/data/related.spaa", &a, &b);
	ck_assert(live_records(&a) < a.nrecords);       /* the file has some */
	ck_assert_uint_eq(b.nrecords, live_records(&a));
	ck_assert_uint_eq(live_records(&b), b.nrecords);
	spaa_profile_release(&a);
	spaa_profile_release(&b);
}
END_TEST

Suite *profile_writer_suite(void)
{
	Suite *s = suite_create("profile_writer");
	TCase *tc = tcase_create("profile_writer");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_spx);
	tcase_add_test(tc, test_related_written_unified);
	suite_add_tcase(s, tc);
	return s;
}
