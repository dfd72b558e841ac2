/*
 * check_error - the one error struct (model/error.h) and where warnings
 * go (model/warn.h): what set/at fill, the "file:line: msg" text, the
 * errno texts in the message grammar, and the codes of path errors.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "model/error.h"
#include "model/warn.h"

Suite *error_suite(void);

START_TEST(test_set_and_at)
{
	struct spaa_error err;
	char buf[64];

	spaa_error_init(&err);
	ck_assert_str_eq(err.code, "");
	ck_assert_int_eq(spaa_error_set(&err, SPAA_E_USAGE, "bad %s %d", "x", 3), -1);
	ck_assert_str_eq(err.code, "usage");
	ck_assert_str_eq(err.msg, "bad x 3");
	ck_assert_str_eq(err.file, "");
	ck_assert_uint_eq(err.line, 0);
	spaa_error_format(&err, buf, sizeof(buf));
	ck_assert_str_eq(buf, "bad x 3");

	ck_assert_int_eq(spaa_error_at(&err, SPAA_E_PARSE, "a.spaa", 12, "oops"), -1);
	ck_assert_str_eq(err.code, "parse-error");
	spaa_error_format(&err, buf, sizeof(buf));
	ck_assert_str_eq(buf, "a.spaa:12: oops");
	spaa_error_at(&err, SPAA_E_IO, "a.spaa", 0, "gone");
	spaa_error_format(&err, buf, sizeof(buf));
	ck_assert_str_eq(buf, "a.spaa: gone");
	/* a short buffer gets the beginning, NUL-terminated */
	spaa_error_format(&err, buf, 5);
	ck_assert_str_eq(buf, "a.sp");
	/* a NULL err drops the error but still says -1 */
	ck_assert_int_eq(spaa_error_set(NULL, SPAA_E_USAGE, "x"), -1);
	ck_assert_int_eq(spaa_error_at(NULL, SPAA_E_USAGE, "f", 1, "x"), -1);
}
END_TEST

START_TEST(test_long_message_truncated)
{
	struct spaa_error err;
	char big[3000];

	memset(big, 'm', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	spaa_error_at(&err, SPAA_E_INVALID, big, 1, "%s", big);
	ck_assert_uint_eq(strlen(err.msg), sizeof(err.msg) - 1);
	ck_assert_uint_eq(strlen(err.file), sizeof(err.file) - 1);
}
END_TEST

START_TEST(test_errno)
{
	struct spaa_error err;
	char buf[128];

	ck_assert_str_eq(spaa_error_strerror(ENOENT, buf, sizeof(buf)),
			 "no such file or directory");
	ck_assert_str_eq(spaa_error_strerror(EACCES, buf, sizeof(buf)),
			 "permission denied");
	ck_assert_int_eq(spaa_error_path(&err, "p", ENOENT), -1);
	ck_assert_str_eq(err.code, SPAA_E_NOT_FOUND);
	ck_assert_str_eq(err.file, "p");
	ck_assert_str_eq(err.msg, "no such file or directory");
	spaa_error_path(&err, "p", ENOTDIR);
	ck_assert_str_eq(err.code, SPAA_E_NOT_FOUND);
	spaa_error_path(&err, "p", EACCES);
	ck_assert_str_eq(err.code, SPAA_E_IO);
	ck_assert_str_eq(err.msg, "permission denied");
}
END_TEST

struct seen {
	int calls;
	char file[32], msg[64];
	unsigned long line;
};

static void sink(void *data, const char *file, unsigned long line, const char *msg)
{
	struct seen *s = data;

	s->calls++;
	snprintf(s->file, sizeof(s->file), "%s", file);
	snprintf(s->msg, sizeof(s->msg), "%s", msg);
	s->line = line;
}

START_TEST(test_warn)
{
	struct seen seen = { 0 };
	struct spaa_warn_sink to = { sink, &seen }, none = { 0 };

	spaa_warn(&to, "f.spaa", 7, "%d things", 3);
	ck_assert_int_eq(seen.calls, 1);
	ck_assert_str_eq(seen.file, "f.spaa");
	ck_assert_uint_eq(seen.line, 7);
	ck_assert_str_eq(seen.msg, "3 things");
	/* no sink, or a sink without fn: dropped */
	spaa_warn(NULL, "f", 1, "x");
	spaa_warn(&none, "f", 1, "x");
	ck_assert_int_eq(seen.calls, 1);
}
END_TEST

Suite *error_suite(void)
{
	Suite *s = suite_create("error");
	TCase *tc = tcase_create("error");

	tcase_add_test(tc, test_set_and_at);
	tcase_add_test(tc, test_long_message_truncated);
	tcase_add_test(tc, test_errno);
	tcase_add_test(tc, test_warn);
	suite_add_tcase(s, tc);
	return s;
}
