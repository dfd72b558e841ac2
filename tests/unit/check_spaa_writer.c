/*
 * check_spaa_writer - SPAA built from a stream of samples
 * (formats/spaa_writer.h), written and read back by the reader: one
 * stack record per stack and context with its sums, the sampling mode
 * from the periods seen, the time range, the samples in order, stack ids
 * that are the content hash (computed here a second way), and folded
 * output.
 */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "formats/load.h"
#include "formats/spaa_writer.h"
#include "io/output.h"
#include "testutil.h"

Suite *spaa_writer_suite(void);

static void setup(void)
{
	testutil_tmpdir_setup("check_spaa_writer");
}

static void teardown(void)
{
	testutil_tmpdir_teardown();
}

/* FNV-1a 64 over the bytes of one frame, as spaa_writer.h describes it. */
static uint64_t fnv(uint64_t h, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static uint64_t frame_hash(uint64_t h, const char *func, const char *dso,
			   const char *ip, const char *srcline)
{
	char buf[256];
	int n = snprintf(buf, sizeof(buf), "%s\x1f%s\x1f%s\x1f\x1f%s\x1e", func,
			 dso, ip, srcline);

	return fnv(h, buf, (size_t)n);
}

/* work <- main, twice with period 100; main alone once; all of pid 1. */
static struct spaa_writer *build(uint32_t *frames)
{
	struct spaa_writer_opts wo = { .source_tool = "test", .samples = true };
	struct spaa_writer *w = spaa_writer_new(&wo);
	uint32_t ev = spaa_writer_add_event(w, "cycles", SPAA_EV_HARDWARE);
	uint32_t dso = spaa_writer_add_dso(w, "/bin/app", false);
	struct spaa_writer_frame main_f = {
		.func = "main", .dso = dso, .has_ip = true, .ip = 0x10,
		.func_resolved = true, .inline_depth = -1,
	}, work_f = {
		.func = "work", .dso = dso, .has_ip = true, .ip = 0x20,
		.srcline = "w.c:3", .func_resolved = true, .inline_depth = -1,
	};
	struct spaa_writer_sample s = {
		.event = ev, .pid = 1, .tid = 1, .cpu = SPAA_NO_ID, .comm = "app",
		.has_time = true, .count = 1, .has_period = true, .period = 100,
	};
	struct spaa_error err;

	spaa_error_init(&err);
	frames[0] = spaa_writer_add_frame(w, &work_f);
	frames[1] = spaa_writer_add_frame(w, &main_f);
	ck_assert_uint_eq(spaa_writer_add_frame(w, &main_f), frames[1]);
	s.time = 1000;
	ck_assert_int_eq(spaa_writer_add_sample(w, &s, frames, 2, &err), 0);
	s.time = 3000;
	ck_assert_int_eq(spaa_writer_add_sample(w, &s, frames + 1, 1, &err), 0);
	s.time = 2000;
	ck_assert_int_eq(spaa_writer_add_sample(w, &s, frames, 2, &err), 0);
	ck_assert_uint_eq(spaa_writer_nstacks(w), 2);
	ck_assert_uint_eq(spaa_writer_nrecords(w), 2);
	return w;
}

static int count_sample(void *data, const struct spaa_profile *p,
			const struct spaa_sample *s, struct spaa_error *err)
{
	int64_t *last = data;

	(void)p;
	(void)err;
	/* in input order */
	ck_assert_int_eq(s->time, last[0] == 0 ? 1000 : last[0] == 1000 ? 3000 : 2000);
	last[0] = s->time;
	last[1]++;
	return 0;
}

START_TEST(test_write_spaa)
{
	const char *path = testutil_path("w.spaa");
	uint32_t frames[2];
	struct spaa_writer *w = build(frames);
	struct spaa_output *out;
	struct spaa_error err;
	struct spaa_profile p;
	int64_t seen[2] = { 0, 0 };
	struct spaa_load_opts lo = { .on_sample = count_sample, .data = seen };
	uint64_t h, v;
	char id[32];
	uint32_t both = SPAA_NONE;

	spaa_error_init(&err);
	ck_assert_int_eq(spaa_output_open(&out, path, SPAA_INPUT_COMP_NONE, 0, &err), 0);
	ck_assert_int_eq(spaa_writer_write_spaa(w, out, &err), 0);
	ck_assert_int_eq(spaa_output_close(out, &err), 0);
	spaa_writer_free(w);
	spaa_writer_free(NULL);

	spaa_profile_init(&p);
	ck_assert_msg(!spaa_load(&p, &path, 1, &lo, &err), "%s", err.msg);
	ck_assert_int_eq(seen[1], 3);
	ck_assert_uint_eq(p.nevents, 1);
	ck_assert_int_eq(p.events[0].mode, SPAA_MODE_PERIOD);
	ck_assert_uint_eq(p.events[0].sample_period, 100);
	ck_assert_str_eq(spaa_profile_str(&p, p.events[0].primary_metric), "period");
	ck_assert(p.has_time && p.time_start == 1000 && p.time_end == 3000);
	ck_assert_uint_eq(p.nrecords, 2);
	/* the stack of both frames: 2 samples, their periods summed */
	h = frame_hash(frame_hash(SPAA_WRITER_STACK_HASH_INIT, "work", "/bin/app", "0x20", "w.c:3"),
		       "main", "/bin/app", "0x10", "");
	snprintf(id, sizeof(id), "0x%016" PRIx64, h);
	for (uint32_t r = 0; r < p.nrecords; r++)
		if (!strcmp(spaa_profile_str(&p, p.stacks[p.records[r].stack].id), id))
			both = r;
	ck_assert_msg(both != SPAA_NONE, "no stack of id %s", id);
	ck_assert_uint_eq(p.records[both].nframes, 2);
	ck_assert(spaa_profile_weights_get(&p, p.records[both].weights, p.records[both].nweights,
					   testutil_str(&p, "samples"), &v) && v == 2);
	ck_assert(spaa_profile_weights_get(&p, p.records[both].weights, p.records[both].nweights,
					   testutil_str(&p, "period"), &v) && v == 200);
	ck_assert_str_eq(spaa_profile_str(&p, p.records[both].comm), "app");
	spaa_profile_release(&p);
}
END_TEST

START_TEST(test_write_folded)
{
	const char *path = testutil_path("w.folded");
	uint32_t frames[2];
	struct spaa_writer *w = build(frames);
	struct spaa_output *out;
	struct spaa_error err;
	char buf[128] = "";
	FILE *f;

	spaa_error_init(&err);
	ck_assert_int_eq(spaa_output_open(&out, path, SPAA_INPUT_COMP_NONE, 0, &err), 0);
	ck_assert_int_eq(spaa_writer_write_folded(w, NULL, "period", out, NULL, NULL, &err), 0);
	ck_assert_int_eq(spaa_output_close(out, &err), 0);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fread(buf, 1, sizeof(buf) - 1, f), 23);
	fclose(f);
	ck_assert_str_eq(buf, "main 100\nmain;work 200\n");
	/* an event the writer never saw */
	ck_assert_int_eq(spaa_output_open(&out, path, SPAA_INPUT_COMP_NONE, 0, &err), 0);
	ck_assert_int_eq(spaa_writer_write_folded(w, "branches", NULL, out, NULL, NULL, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_USAGE);
	spaa_output_abort(out);
	spaa_writer_free(w);
}
END_TEST

Suite *spaa_writer_suite(void)
{
	Suite *s = suite_create("spaa_writer");
	TCase *tc = tcase_create("spaa_writer");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_write_spaa);
	tcase_add_test(tc, test_write_folded);
	suite_add_tcase(s, tc);
	return s;
}
