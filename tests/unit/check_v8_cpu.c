/*
 * Unit tests for common/formats/v8_cpu.c: format sniffing, and the model
 * of a small hand-made .cpuprofile whose every number is worked out in
 * the comments (the root left out, samples weighed by their own delta,
 * a negative delta counted 0, sample times and the file's time range).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "formats/load.h"
#include "formats/v8_cpu.h"
#include "model/profile.h"
#include "model/util.h"
#include "testutil.h"

Suite *v8_cpu_suite(void);

static void setup(void)
{
	testutil_tmpdir_setup("check_v8_cpu");
}

static void teardown(void)
{
	testutil_tmpdir_teardown();
}

START_TEST(test_sniff)
{
	static const struct {
		const char *text;
		enum spaa_v8_kind kind;
	} cases[] = {
		{ "{\"nodes\":[", SPAA_V8_CPUPROFILE },
		{ "\n { \"startTime\" : 1", SPAA_V8_CPUPROFILE },
		{ "{\"traceEvents\":[", SPAA_V8_TRACE },
		{ "{\"metadata\":{},\"traceEvents\":[", SPAA_V8_TRACE },
		{ "[{\"pid\":1", SPAA_V8_TRACE },
		{ "[ \n{", SPAA_V8_TRACE },
		{ "{\"snapshot\":{", SPAA_V8_HEAPSNAPSHOT },
		{ "{\"head\":{", SPAA_V8_HEAPPROFILE },
		{ "{\"type\":\"header\"", SPAA_V8_NONE },
		{ "{\"events\":[],\"format\":\"spaa\"", SPAA_V8_NONE },
		{ "{\"nodes\"", SPAA_V8_NONE },         /* no ':' seen yet */
		{ "{\"samples\"   ", SPAA_V8_NONE },    /* nor here: whitespace to the end */
		{ "[1,2]", SPAA_V8_NONE },
		{ "main;f 3", SPAA_V8_NONE },
		{ "", SPAA_V8_NONE },
	};

	/* each in a buffer of its exact size: ASan sees a byte read past it */
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len = strlen(cases[i].text);
		char *b = spaa_xmalloc(len + !len);

		memcpy(b, cases[i].text, len);
		ck_assert_msg(spaa_v8_sniff(b, len) == cases[i].kind, "%s", cases[i].text);
		free(b);
	}
}
END_TEST

struct seen {
	int64_t time[8];
	uint64_t period[8];
	uint32_t stack[8];
	int n;
};

static int on_sample(void *data, const struct spaa_profile *p,
		     const struct spaa_sample *s, struct spaa_error *err)
{
	struct seen *seen = data;

	(void)err;
	ck_assert_int_lt(seen->n, 8);
	ck_assert_str_eq(spaa_profile_str(p, s->period_metric), "time_us");
	ck_assert(s->pid == SPAA_NO_ID && s->tid == SPAA_NO_ID);
	seen->time[seen->n] = s->time;
	seen->period[seen->n] = s->period;
	seen->stack[seen->n++] = s->stack;
	return 0;
}

/* The record of the stack whose leaf is function name. */
static const struct spaa_record *record_of(const struct spaa_profile *p, const char *name)
{
	for (uint32_t r = 0; r < p->nrecords; r++) {
		const struct spaa_record *rec = &p->records[r];
		uint32_t fn = p->frames[spaa_profile_record_frames(p, rec)[0]].fn;

		if (!strcmp(spaa_profile_str(p, p->functions[fn].name), name))
			return rec;
	}
	return NULL;
}

START_TEST(test_model)
{
	/*
	 * (root) 1 -> main 2 -> work 3; (root) -> (garbage collector) 4.
	 * Node 3's children come before node 3 itself is read.
	 * samples 3 3 4 2 3, deltas 100 50 -20 30 40 from startTime 1000 µs:
	 * times 1100 1150 1130 1160 1200 µs; time_us 100+50+40 = 190 on
	 * work (3 samples), 0 on GC (the negative delta), 30 on main.
	 */
	static const char text[] =
		"{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\",\"url\":\"\",\"lineNumber\":-1},\"children\":[2,4]},"
		"{\"id\":2,\"callFrame\":{\"functionName\":\"main\",\"url\":\"file:///a.js\",\"lineNumber\":4,\"columnNumber\":0},\"children\":[3]},"
		"{\"id\":4,\"callFrame\":{\"functionName\":\"(garbage collector)\",\"url\":\"\",\"lineNumber\":-1}},"
		"{\"id\":3,\"callFrame\":{\"functionName\":\"\",\"url\":\"file:///a.js\",\"lineNumber\":9,\"columnNumber\":2}}],"
		"\"startTime\":1000,\"endTime\":1300,\"samples\":[3,3,4,2,3],\"timeDeltas\":[100,50,-20,30,40]}";
	static const int64_t times[5] = { 1100000, 1150000, 1130000, 1160000, 1200000 };
	static const uint64_t periods[5] = { 100, 50, 0, 30, 40 };
	const char *path = testutil_write("a.cpuprofile", text, sizeof(text) - 1);
	struct seen seen = { .n = 0 };
	struct spaa_load_opts o = { .on_sample = on_sample, .data = &seen };
	struct spaa_profile p;
	struct spaa_error err;
	const struct spaa_record *r;
	uint64_t v;

	spaa_error_init(&err);
	spaa_profile_init(&p);
	ck_assert_msg(!spaa_load(&p, &path, 1, &o, &err), "%s", err.msg);
	ck_assert_int_eq(seen.n, 5);
	for (int i = 0; i < 5; i++) {
		ck_assert_int_eq(seen.time[i], times[i]);
		ck_assert_uint_eq(seen.period[i], periods[i]);
	}
	ck_assert_uint_eq(seen.stack[0], seen.stack[1]);
	ck_assert_uint_eq(p.nrecords, 3);
	ck_assert(p.files[0].has_time_range);
	ck_assert_int_eq(p.files[0].time_start, 1000000);
	ck_assert_int_eq(p.files[0].time_end, 1300000);
	/* 5 samples in 300 µs */
	ck_assert(p.events[0].frequency_hz == 16666.0);

	r = record_of(&p, "(anonymous)");
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->nframes, 2);       /* work, main: no (root) */
	ck_assert_uint_eq(r->stack, seen.stack[0]);
	ck_assert(spaa_profile_weights_get(&p, r->weights, r->nweights, testutil_str(&p, "samples"), &v));
	ck_assert_uint_eq(v, 3);
	ck_assert(spaa_profile_weights_get(&p, r->weights, r->nweights, testutil_str(&p, "time_us"), &v));
	ck_assert_uint_eq(v, 190);
	ck_assert_str_eq(spaa_profile_str(&p, p.frames[spaa_profile_record_frames(&p, r)[0]].srcline),
			 "file:///a.js:10:3");
	r = record_of(&p, "(garbage collector)");
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->nframes, 1);
	ck_assert_str_eq(spaa_profile_str(&p, p.dsos[p.functions[p.frames[spaa_profile_record_frames(&p, r)[0]].fn].dso].name),
			 "(program)");
	ck_assert(spaa_profile_weights_get(&p, r->weights, r->nweights, testutil_str(&p, "time_us"), &v));
	ck_assert_uint_eq(v, 0);
	r = record_of(&p, "main");
	ck_assert(spaa_profile_weights_get(&p, r->weights, r->nweights, testutil_str(&p, "time_us"), &v));
	ck_assert_uint_eq(v, 30);
	ck_assert_uint_eq(spaa_profile_total(&p, 0, testutil_str(&p, "time_us")), 220);
	spaa_profile_release(&p);
}
END_TEST

Suite *v8_cpu_suite(void)
{
	Suite *s = suite_create("v8_cpu");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_sniff);
	tcase_add_test(tc, test_model);
	suite_add_tcase(s, tc);
	return s;
}
