/*
 * Unit tests for common/formats/dtrace.c: format sniffing, the event and
 * frequency told by header lines and probe names, and what a small entry
 * becomes (frames leaf first, offsets dropped, the key as comm).
 */
#include <check.h>
#include <string.h>

#include "formats/dtrace.h"
#include "formats/load.h"
#include "model/profile.h"
#include "model/util.h"
#include "testutil.h"

Suite *dtrace_suite(void);

static void setup(void)
{
	testutil_tmpdir_setup("check_dtrace");
}

static void teardown(void)
{
	testutil_tmpdir_teardown();
}

START_TEST(test_sniff)
{
	static const struct {
		const char *text;
		bool is;
	} cases[] = {
		{ "dtrace: description 'profile-997 ' matched 2 probes\n", true },
		{ "\n\n              libc.so.7`_read+0xa\n               5\n", true },
		{ "\n  bash\n              0x7ff01\n   12\n", true },
		{ "# event: x\n", true },
		{ "CPU     ID                    FUNCTION:NAME\n", true },
		{ "              main\n               5\n", false },    /* no ` or address */
		{ "              libc`f\n", false },                    /* no value yet */
		{ "main;f 3\n", false },
		{ "{\"type\":\"header\"}\n", false },
		{ "# a comment\n", false },
		{ "", false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ck_assert_msg(spaa_dtrace_sniff(cases[i].text, strlen(cases[i].text), false) == cases[i].is,
			      "%s", cases[i].text);
}
END_TEST

static void load(struct spaa_profile *p, const char *text)
{
	const char *path = testutil_write("d.txt", text, strlen(text));
	struct spaa_load_opts o = { .max_depth = 0 };
	struct spaa_error err;

	spaa_error_init(&err);
	spaa_profile_init(p);
	ck_assert_msg(!spaa_load(p, &path, 1, &o, &err), "%s", err.msg);
}

#define ENTRY "\n              libc.so.7`_read+0xa\n              app`main+0x10\n               5\n"

START_TEST(test_event_and_frequency)
{
	static const struct {
		const char *head;
		const char *event, *metric;
		double hz;
	} cases[] = {
		{ "dtrace: description 'profile-997 ' matched 2 probes\n", "profile-997", "samples", 997 },
		{ "dtrace: description 'profile-4ms ' matched 1 probe\n", "profile-4ms", "samples", 250 },
		{ "dtrace: description 'profile-199hz ' matched 1 probe\n", "profile-199hz", "samples", 199 },
		{ "dtrace: description 'tick-1s ' matched 1 probe\n", "tick-1s", "count", 0 },
		{ "dtrace: description 'profile-997 ' matched 2 probes\n# frequency: 0\n", "profile-997", "count", 0 },
		{ "# event: syscall::read:entry\n# metric: bytes\n", "syscall::read:entry", "bytes", 0 },
		{ "# event: e\n# frequency: 100\n", "e", "samples", 100 },
		{ "", "dtrace", "count", 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[512];
		struct spaa_profile p;
		const struct spaa_event *e;

		snprintf(text, sizeof(text), "%s%s", cases[i].head, ENTRY);
		load(&p, text);
		ck_assert_uint_eq(p.nevents, 1);
		e = &p.events[0];
		ck_assert_str_eq(spaa_profile_str(&p, e->name), cases[i].event);
		ck_assert_str_eq(spaa_profile_str(&p, e->primary_metric), cases[i].metric);
		ck_assert_msg(e->frequency_hz == cases[i].hz, "%s: %g", cases[i].head, e->frequency_hz);
		ck_assert_int_eq(e->kind, cases[i].hz > 0 ? SPAA_EV_TIMER : SPAA_EV_PROBE);
		ck_assert_uint_eq(spaa_profile_total(&p, 0, e->primary_metric), 5);
		spaa_profile_release(&p);
	}
}
END_TEST

START_TEST(test_entry)
{
	struct spaa_profile p;
	const struct spaa_record *r;
	const uint32_t *f;

	load(&p, "\n  postgres   \n              libc.so.7`_read+0xa\n              0x8011a6f3c\n"
		 "              postgres`main+0x2b9\n               17\n\n  postgres\n"
		 "              libc.so.7`_read+0xb\n              0x8011a6f3c\n"
		 "              postgres`main+0x2b9\n                3\n");
	/* the two entries differ in the leaf's offset only: one stack */
	ck_assert_uint_eq(p.nrecords, 1);
	r = &p.records[0];
	ck_assert_uint_eq(r->nframes, 3);
	f = spaa_profile_record_frames(&p, r);
	ck_assert_str_eq(spaa_profile_str(&p, p.functions[p.frames[f[0]].fn].name), "_read");
	ck_assert_str_eq(spaa_profile_str(&p, p.functions[p.frames[f[1]].fn].name), "0x8011a6f3c");
	ck_assert(!p.frames[f[1]].func_resolved);
	ck_assert_str_eq(spaa_profile_str(&p, p.dsos[p.functions[p.frames[f[1]].fn].dso].name),
			 "[unknown]");
	ck_assert_str_eq(spaa_profile_str(&p, p.functions[p.frames[f[2]].fn].name), "main");
	ck_assert_str_eq(spaa_profile_str(&p, r->comm), "postgres");
	ck_assert_uint_eq(spaa_profile_total(&p, 0, testutil_str(&p, "count")), 20);
	spaa_profile_release(&p);
}
END_TEST

Suite *dtrace_suite(void)
{
	Suite *s = suite_create("dtrace");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_sniff);
	tcase_add_test(tc, test_event_and_frequency);
	tcase_add_test(tc, test_entry);
	suite_add_tcase(s, tc);
	return s;
}
