/*
 * check_sbuf - the growing string buffer every text builder shares.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "model/sbuf.h"

Suite *sbuf_suite(void);

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

Suite *sbuf_suite(void)
{
	Suite *s = suite_create("sbuf");
	TCase *tc = tcase_create("sbuf");

	tcase_add_test(tc, test_sbuf_builds_and_detaches);
	suite_add_tcase(s, tc);
	return s;
}
