/*
 * check_ctf_clock - the clock offset of CTF metadata (formats/ctf_clock.h):
 * the three directories of tests/data/ctf/ (a real LTTng trace, and
 * hand-made text and big-endian packets; README.md there computes each
 * offset by hand), the same text as little-endian packets and cut short,
 * what is not CTF, and hostile clocks.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "formats/ctf_clock.h"

Suite *ctf_clock_suite(void);

/* The hand-made metadata: 1700000000 s plus 250000 cycles of 1 MHz. */
#define HAND_OFFSET_NS INT64_C(1700000000250000000)

/* Packets of text as CTF 1.8 writes them, little-endian, size bytes each. */
static size_t packetize(const char *text, size_t size, unsigned char *out,
			size_t room)
{
	size_t n = strlen(text), at = 0, used = 0;

	while (at < n) {
		size_t k = n - at < size - 37 ? n - at : size - 37;
		uint32_t content = (uint32_t)(37 + k) * 8, packet = (uint32_t)size * 8;
		uint32_t words[] = { 0x75D11D57u };

		ck_assert(used + size <= room);
		memset(out + used, 0, size);
		memcpy(out + used, words, 4);   /* the tests run little-endian */
		memcpy(out + used + 24, &content, 4);
		memcpy(out + used + 28, &packet, 4);
		out[used + 35] = 1;
		out[used + 36] = 8;
		memcpy(out + used + 37, text + at, k);
		at += k;
		used += size;
	}
	return used;
}

START_TEST(test_real_lttng_trace)
{
	struct spaa_ctf_clock c;
	struct spaa_error err;

	ck_assert_int_eq(spaa_ctf_clock_read("tests/data/ctf/lttng-ust", &c, &err), 1);
	ck_assert_uint_eq(c.nclocks, 1);
	ck_assert_str_eq(c.name, "monotonic");
	ck_assert(c.freq == 1000000000 && c.offset_s == 0);
	ck_assert(c.offset == INT64_C(1795619264217453613));
	ck_assert(c.offset_ns == INT64_C(1795619264217453613));
}
END_TEST

START_TEST(test_hand_made_forms)
{
	static const char *const dirs[] = {
		"tests/data/ctf/text", "tests/data/ctf/packets-be",
	};
	struct spaa_ctf_clock c;
	struct spaa_error err;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		ck_assert_int_eq(spaa_ctf_clock_read(dirs[i], &c, &err), 1);
		/* the clocks in comments and strings are not read */
		ck_assert_uint_eq(c.nclocks, 1);
		ck_assert_str_eq(c.name, "monotonic");
		ck_assert(c.freq == 1000000 && c.offset_s == 1700000000 && c.offset == 250000);
		ck_assert(c.offset_ns == HAND_OFFSET_NS);
	}
}
END_TEST

START_TEST(test_packets_every_size)
{
	static const char text[] =
		"/* CTF 1.8 */\nclock {\n\tname = monotonic;\n\tfreq = 0x3B9ACA00;\n"
		"\toffset_s = 12;\n\toffset = 345ULL;\n};\n";
	unsigned char buf[8192];
	struct spaa_ctf_clock c;
	struct spaa_error err;

	/* every packet size cuts the text at other places */
	for (size_t size = 40; size < 120; size++) {
		size_t n = packetize(text, size, buf, sizeof(buf));

		ck_assert_int_eq(spaa_ctf_clock_parse(buf, n, "m", &c, &err), 1);
		ck_assert_str_eq(c.name, "monotonic");
		ck_assert(c.offset_ns == INT64_C(12000000345));
		/* cut inside the first packet's content: an error, never a clock */
		ck_assert_int_eq(spaa_ctf_clock_parse(buf, 39, "m", &c, &err), -1);
		ck_assert_str_eq(err.code, SPAA_E_INVALID);
		ck_assert_uint_eq(c.nclocks, 0);
	}
}
END_TEST

START_TEST(test_offsets)
{
	static const struct {
		const char *clock;
		int64_t ns;
	} cases[] = {
		{ "freq = 1000000000; offset = 5;", 5 },
		{ "offset_s = 3;", 3000000000 },                /* freq defaults to 1 GHz */
		{ "freq = 3; offset_s = 1; offset = 2;", 1666666666 },
		{ "freq = 100; offset_s = -2; offset = 50;", -1500000000 },
		{ "freq = 010; offset = 4;", 500000000 },       /* octal 8 Hz */
		{ "", 0 },
	};
	char text[512];
	struct spaa_ctf_clock c;
	struct spaa_error err;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text), "/* CTF 1.8 */ clock { %s };", cases[i].clock);
		ck_assert_int_eq(spaa_ctf_clock_parse(text, strlen(text), "m", &c, &err), 1);
		ck_assert_msg(c.offset_ns == cases[i].ns, "%s: %lld", cases[i].clock,
			      (long long)c.offset_ns);
	}
}
END_TEST

START_TEST(test_several_and_no_clocks)
{
	static const char two[] = "/* CTF 1.8 */ clock { name = a; offset = 1; };\n"
				  "clock { name = \"b\"; offset = 2; };";
	static const char none[] = "/* CTF 1.8 */ trace { major = 1; };";
	struct spaa_ctf_clock c;
	struct spaa_error err;

	ck_assert_int_eq(spaa_ctf_clock_parse(two, strlen(two), "m", &c, &err), 1);
	ck_assert_uint_eq(c.nclocks, 2);
	ck_assert_str_eq(c.name, "a");
	ck_assert_int_eq(spaa_ctf_clock_parse(none, strlen(none), "m", &c, &err), 1);
	ck_assert_uint_eq(c.nclocks, 0);
}
END_TEST

START_TEST(test_not_ctf)
{
	struct spaa_ctf_clock c;
	struct spaa_error err;

	/* no metadata file, a file where a directory goes, other text */
	ck_assert_int_eq(spaa_ctf_clock_read("tests/data", &c, &err), 0);
	ck_assert_int_eq(spaa_ctf_clock_read("tests/data/basic.spaa", &c, &err), 0);
	ck_assert_int_eq(spaa_ctf_clock_parse("clock { offset = 1; };", 22, "m", &c, &err), 0);
	ck_assert_int_eq(spaa_ctf_clock_parse("", 0, "m", &c, &err), 0);
	/* CTF 2 is said, not taken for "no trace" */
	ck_assert_int_eq(spaa_ctf_clock_parse("\x1e{\"type\":\"preamble\"}", 20, "m", &c, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "CTF 2"));
}
END_TEST

START_TEST(test_hostile_clocks)
{
	static const struct {
		const char *text, *says;
		unsigned long line;
	} cases[] = {
		{ "clock { freq = 0; };", "'freq' is not a positive integer", 1 },
		{ "clock {\n freq = -5; };", "'freq' is not a positive integer", 2 },
		{ "clock { offset = 99999999999999999999; };", "'offset' is not an integer", 1 },
		{ "clock { offset_s = \"1\"; };", "'offset_s' is not an integer", 1 },
		{ "clock { offset = 0x; };", "'offset' is not an integer", 1 },
		{ "clock { offset_s = 9223372036854775807; };", "past 64 bits", 1 },
		{ "clock { freq = 1; offset = 9223372036854775807; };", "past 64 bits", 1 },
		{ "clock { offset = 1;\n", "ends inside clock block", 2 },
		{ "\n};", "unbalanced '}'", 2 },
	};
	char text[512];
	struct spaa_ctf_clock c;
	struct spaa_error err;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text), "/* CTF 1.8 */%s", cases[i].text);
		ck_assert_int_eq(spaa_ctf_clock_parse(text, strlen(text), "m", &c, &err), -1);
		ck_assert_msg(strstr(err.msg, cases[i].says), "%s: %s", cases[i].text, err.msg);
		ck_assert_str_eq(err.file, "m");
		ck_assert_uint_eq(err.line, cases[i].line);
		ck_assert_uint_eq(c.nclocks, 0);
	}
}
END_TEST

START_TEST(test_hostile_packets)
{
	unsigned char buf[512];
	struct spaa_ctf_clock c;
	struct spaa_error err;
	size_t n = packetize("/* CTF 1.8 */ clock { offset = 1; };", 100, buf, sizeof(buf));
	uint32_t bad;

	ck_assert_uint_eq(n, 100);
	/* content larger than the packet */
	bad = 101 * 8;
	memcpy(buf + 24, &bad, 4);
	ck_assert_int_eq(spaa_ctf_clock_parse(buf, n, "m", &c, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "content size 808 and packet size 800"));
	/* content smaller than the header */
	bad = 36 * 8;
	memcpy(buf + 24, &bad, 4);
	ck_assert_int_eq(spaa_ctf_clock_parse(buf, n, "m", &c, &err), -1);
	/* compressed */
	n = packetize("/* CTF 1.8 */ clock { offset = 1; };", 100, buf, sizeof(buf));
	buf[32] = 1;
	ck_assert_int_eq(spaa_ctf_clock_parse(buf, n, "m", &c, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "compressed"));
	/* a second packet without the magic */
	n = packetize("/* CTF 1.8 */ clock { offset = 1; };", 40, buf, sizeof(buf));
	buf[40] ^= 1;
	ck_assert_int_eq(spaa_ctf_clock_parse(buf, n, "m", &c, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "packet at byte 40 has no CTF magic"));
	/* a header cut short */
	n = packetize("/* CTF 1.8 */ clock { offset = 1; };", 40, buf, sizeof(buf));
	ck_assert_int_eq(spaa_ctf_clock_parse(buf, n - 20, "m", &c, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "ends inside a packet"));
}
END_TEST

Suite *ctf_clock_suite(void)
{
	Suite *s = suite_create("ctf_clock");
	TCase *tc = tcase_create("ctf_clock");

	tcase_add_test(tc, test_real_lttng_trace);
	tcase_add_test(tc, test_hand_made_forms);
	tcase_add_test(tc, test_packets_every_size);
	tcase_add_test(tc, test_offsets);
	tcase_add_test(tc, test_several_and_no_clocks);
	tcase_add_test(tc, test_not_ctf);
	tcase_add_test(tc, test_hostile_clocks);
	tcase_add_test(tc, test_hostile_packets);
	suite_add_tcase(s, tc);
	return s;
}
