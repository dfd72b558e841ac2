/*
 * check_util - the growing string buffer every text builder shares, and
 * the word-at-a-time byte classes of the JSON scanners.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

START_TEST(test_sbuf_builds_and_detaches)
{
	struct spaa_sbuf sb = { 0 };
	char big[5000];
	char *s;

	/* nothing added: detach still gives an empty, owned string */
	s = spaa_sbuf_detach(&sb);
	ck_assert_str_eq(s, "");
	free(s);

	spaa_sbuf_adds(&sb, "ab");
	spaa_sbuf_add(&sb, "cdef", 2);
	spaa_sbuf_printf(&sb, "-%d-%s", 42, "x");
	ck_assert_str_eq(sb.s, "abcd-42-x");
	ck_assert_uint_eq(sb.len, 9);

	/* past the first growth, through printf's measured path */
	memset(big, 'q', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	spaa_sbuf_printf(&sb, "%s!", big);
	ck_assert_uint_eq(sb.len, 9 + 4999 + 1);
	ck_assert_int_eq(sb.s[9], 'q');
	ck_assert_int_eq(sb.s[sb.len - 1], '!');
	ck_assert_int_eq(sb.s[sb.len], '\0');

	s = spaa_sbuf_detach(&sb);
	ck_assert_ptr_null(sb.s);
	ck_assert_uint_eq(sb.len, 0);
	ck_assert_uint_eq(strlen(s), 9 + 4999 + 1);
	free(s);
}
END_TEST

/*
 * Every byte value at every place of a word, the other bytes digits or
 * every other value: the first flagged byte is the first one the byte
 * test refuses.
 */
START_TEST(test_swar_first_flag_is_exact)
{
	static const unsigned char fillers[] = { '0', '9', 'a', 0x00, 0x2f, 0x3a, 0xff };

	for (size_t f = 0; f < sizeof(fillers); f++)
		for (int at = 0; at < 8; at++)
			for (int b = 0; b < 256; b++) {
				unsigned char bytes[8];
				uint64_t w, m;
				size_t want = 8;

				memset(bytes, '5', sizeof(bytes));
				bytes[at] = (unsigned char)b;
				for (int j = at + 1; j < 8; j++)
					bytes[j] = fillers[f];
				for (int j = 0; j < 8 && want == 8; j++)
					if (bytes[j] < '0' || bytes[j] > '9')
						want = (size_t)j;
				memcpy(&w, bytes, sizeof(w));
				m = spaa_swar_nondigit(w);
				ck_assert_uint_eq(m ? spaa_swar_first(m) : 8, want);

				want = 8;
				for (int j = 0; j < 8 && want == 8; j++)
					if (bytes[j] == '"' || bytes[j] == '\\' || bytes[j] < 0x20 ||
					    bytes[j] > 0x7f)
						want = (size_t)j;
				m = spaa_swar_special(w);
				ck_assert_uint_eq(m ? spaa_swar_first(m) : 8, want);
			}
}
END_TEST

Suite *util_suite(void)
{
	Suite *s = suite_create("util");
	TCase *tc = tcase_create("sbuf");

	tcase_add_test(tc, test_sbuf_builds_and_detaches);
	tcase_add_test(tc, test_swar_first_flag_is_exact);
	suite_add_tcase(s, tc);
	return s;
}
