/*
 * check_spaa_stack_scan - what the stack records' scan reads from a line,
 * known by hand, and what it declines.  That the reader then builds the
 * same model from a scanned line as the general path does from its tree
 * is check_spaa_sample_scan.c's differential test.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "formats/spaa_stack_scan.h"
#include "model/sbuf.h"
#include "model/util.h"

Suite *spaa_stack_scan_suite(void);

static uint64_t frames[SPAA_STACK_SCAN_FRAMES];

static bool scan(const char *line, struct spaa_stack_scan *st)
{
	st->frames = frames;
	return spaa_stack_scan_line(line, strlen(line), st);
}

/* The text t of line, as a C string in buf. */
static const char *text(const char *line, struct spaa_stack_scan_text t, char *buf)
{
	memcpy(buf, line + t.off, t.len);
	buf[t.len] = '\0';
	return buf;
}

START_TEST(test_reads_every_field)
{
	static const char line[] =
		" {\"weights\":[{\"value\":9,\"metric\":\"samples\"},"
		"{\"metric\":\"period\",\"unit\":\"ns\",\"value\":123456789012345678}],"
		"\"type\" : \"stack\",\"frames\":[ 40 ,0,18446744073],"
		"\"exclusive\":{\"weights\":[{\"metric\":\"period\",\"value\":7}],\"frame\":40},"
		"\"stack_type\":\"kernel\",\"id\":\"0x5e\",\"context\":{\"comm\":\"w 6\",\"tid\":-3,\"event\":\"cpu-clock\","
		"\"cpu\":0,\"pid\":41000}}\r\n";
	struct spaa_stack_scan st;
	char buf[64];

	ck_assert(scan(line, &st));
	ck_assert_str_eq(text(line, st.id, buf), "0x5e");
	ck_assert_int_eq(st.type, SPAA_STACK_KERNEL);
	ck_assert_uint_eq(st.nframes, 3);
	ck_assert_uint_eq(frames[0], 40);
	ck_assert_uint_eq(frames[1], 0);
	ck_assert_uint_eq(frames[2], 18446744073ULL);
	ck_assert_str_eq(text(line, st.event, buf), "cpu-clock");
	ck_assert_str_eq(text(line, st.comm, buf), "w 6");
	ck_assert_int_eq(st.pid, 41000);
	ck_assert_int_eq(st.tid, -3);
	ck_assert_int_eq(st.cpu, 0);
	ck_assert_uint_eq(st.nweights, 2);
	ck_assert_str_eq(text(line, st.weights[0].metric, buf), "samples");
	ck_assert_uint_eq(st.weights[0].unit.off, 0);
	ck_assert_uint_eq(st.weights[0].value, 9);
	ck_assert_str_eq(text(line, st.weights[1].metric, buf), "period");
	ck_assert_str_eq(text(line, st.weights[1].unit, buf), "ns");
	ck_assert_uint_eq(st.weights[1].value, 123456789012345678ULL);
	ck_assert(st.has_excl);
	ck_assert_uint_eq(st.excl_frame, 40);
	ck_assert_uint_eq(st.nexcl, 1);
	ck_assert_str_eq(text(line, st.excl[0].metric, buf), "period");
	ck_assert_uint_eq(st.excl[0].value, 7);
}
END_TEST

/* What a record leaves out is absent; a number id is its text. */
START_TEST(test_absent_fields)
{
	static const char line[] =
		"{\"type\":\"stack\",\"id\":1.50e2,\"frames\":[],\"weights\":[],\"context\":{}}";
	struct spaa_stack_scan st;
	char buf[64];

	ck_assert(scan(line, &st));
	ck_assert_str_eq(text(line, st.id, buf), "1.50e2");
	ck_assert_uint_eq(st.nframes, 0);
	ck_assert_uint_eq(st.nweights, 0);
	ck_assert_uint_eq(st.event.off, 0);
	ck_assert_uint_eq(st.comm.off, 0);
	ck_assert_int_eq(st.pid, SPAA_NO_ID);
	ck_assert_int_eq(st.tid, SPAA_NO_ID);
	ck_assert_int_eq(st.cpu, SPAA_NO_ID);
	ck_assert(!st.has_excl);
	ck_assert_uint_eq(st.nexcl, 0);
	ck_assert_int_eq(st.type, SPAA_STACK_UNIFIED);
}
END_TEST

/* Every line here is left to the general path. */
START_TEST(test_declines)
{
	static const char *const lines[] = {
		/* not a stack, or not all of one */
		"{\"type\":\"sample\",\"id\":\"a\",\"frames\":[1],\"weights\":[]}",
		"{\"id\":\"a\",\"frames\":[1],\"weights\":[]}",
		"{\"type\":\"stack\",\"frames\":[1],\"weights\":[]}",
		"{\"type\":\"stack\",\"id\":\"a\",\"weights\":[]}",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1]}",
		/* keys the scan does not take, or takes once */
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1],\"weights\":[],\"stack_type\":\"users\"}",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1],\"weights\":[],\"stack_type\":\"\"}",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1],\"weights\":[],\"stack_type\":1}",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1],\"weights\":[],\"related_stacks\":[]}",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1],\"weights\":[],\"x_note\":1}",
		"{\"type\":\"stack\",\"id\":\"a\",\"id\":\"b\",\"frames\":[1],\"weights\":[]}",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1],\"weights\":[],\"context\":{\"labels\":{}}}",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1],\"weights\":[],\"context\":{\"pid\":1,\"pid\":2}}",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1],\"weights\":[{\"metric\":\"m\",\"value\":1,\"x\":2}]}",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1],\"weights\":[{\"metric\":\"m\"}]}",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1],\"weights\":[{\"value\":1}]}",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1],\"weights\":[],\"exclusive\":{\"frame\":1}}",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1],\"weights\":[],\"exclusive\":{\"weights\":[]}}",
		/* null, escapes, bytes outside ASCII */
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1],\"weights\":[],\"context\":null}",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1],\"weights\":[],\"context\":{\"comm\":null}}",
		"{\"type\":\"stack\",\"id\":\"a\\u0062\",\"frames\":[1],\"weights\":[]}",
		"{\"type\":\"st\\u0061ck\",\"id\":\"a\",\"frames\":[1],\"weights\":[]}",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1],\"weights\":[],\"context\":{\"comm\":\"caf\xc3\xa9\"}}",
		/* numbers the scan does not convert */
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[-1],\"weights\":[]}",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1.0],\"weights\":[]}",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1e2],\"weights\":[]}",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1234567890123456789],\"weights\":[]}",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1],\"weights\":[{\"metric\":\"m\",\"value\":-0}]}",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1],\"weights\":[],\"context\":{\"pid\":1.5}}",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1],\"weights\":[],\"context\":{\"tid\":\"7\"}}",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1],\"weights\":[],\"context\":{\"event\":5}}",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[\"1\"],\"weights\":[]}",
		"{\"type\":\"stack\",\"id\":true,\"frames\":[1],\"weights\":[]}",
		/* broken JSON */
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[01],\"weights\":[]}",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1,],\"weights\":[]}",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[,1],\"weights\":[]}",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1],\"weights\":[],}",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1],\"weights\":[]}x",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1],\"weights\":[]",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1] \"weights\":[]}",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1],\"weights\":{}}",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":{},\"weights\":[]}",
		"{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1],\"weights\":[],\"context\":[]}",
		"[\"type\",\"stack\"]",
		"",
	};
	struct spaa_stack_scan st;

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		ck_assert_msg(!scan(lines[i], &st), "scanned: %s", lines[i]);
}
END_TEST

/* More frames or weights than the scan has room for: the general path's. */
START_TEST(test_bounds)
{
	struct spaa_stack_scan st;

	for (int n = SPAA_STACK_SCAN_FRAMES; n <= SPAA_STACK_SCAN_FRAMES + 1; n++) {
		struct spaa_sbuf b = { 0 };

		spaa_sbuf_adds(&b, "{\"type\":\"stack\",\"id\":\"a\",\"weights\":[],\"frames\":[");
		for (int i = 0; i < n; i++)
			spaa_sbuf_printf(&b, "%s%d", i ? "," : "", i);
		spaa_sbuf_adds(&b, "]}");
		ck_assert(scan(b.s, &st) == (n == SPAA_STACK_SCAN_FRAMES));
		if (n == SPAA_STACK_SCAN_FRAMES)
			ck_assert_uint_eq(frames[n - 1], (uint64_t)n - 1);
		free(b.s);
	}
	for (int n = SPAA_STACK_SCAN_WEIGHTS; n <= SPAA_STACK_SCAN_WEIGHTS + 1; n++) {
		struct spaa_sbuf b = { 0 };

		spaa_sbuf_adds(&b, "{\"type\":\"stack\",\"id\":\"a\",\"frames\":[1],\"weights\":[");
		for (int i = 0; i < n; i++)
			spaa_sbuf_printf(&b, "%s{\"metric\":\"m%d\",\"value\":%d}", i ? "," : "", i, i);
		spaa_sbuf_adds(&b, "]}");
		ck_assert(scan(b.s, &st) == (n == SPAA_STACK_SCAN_WEIGHTS));
		if (n == SPAA_STACK_SCAN_WEIGHTS)
			ck_assert_uint_eq(st.weights[n - 1].value, (uint64_t)n - 1);
		free(b.s);
	}
}
END_TEST

Suite *spaa_stack_scan_suite(void)
{
	Suite *s = suite_create("spaa_stack_scan");
	TCase *tc = tcase_create("scan");

	tcase_add_test(tc, test_reads_every_field);
	tcase_add_test(tc, test_absent_fields);
	tcase_add_test(tc, test_declines);
	tcase_add_test(tc, test_bounds);
	suite_add_tcase(s, tc);
	return s;
}
