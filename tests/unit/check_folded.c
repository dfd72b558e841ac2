/*
 * check_folded - folded stack lines in (counts, annotations, names with
 * blanks, rejects with line numbers) and folded tables out (sums, sorting,
 * separators inside names).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/folded.h"
#include "model/util.h"

Suite *folded_suite(void);

static int parse(struct spaa_folded_parser *fp, const char *s, uint32_t *n,
		 uint64_t *c, struct spaa_error *err)
{
	spaa_error_init(err);
	return spaa_folded_parse(fp, s, strlen(s), "f.folded", 7, n, c, err);
}

START_TEST(test_parse)
{
	struct spaa_folded_parser fp;
	struct spaa_error err;
	uint32_t n;
	uint64_t c;

	spaa_folded_parser_init(&fp);
	ck_assert_int_eq(parse(&fp, "main;do work;sys_read_[k] 18446744073709551615\r", &n, &c, &err), 1);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(c, UINT64_MAX);
	ck_assert_int_eq(fp.frames[1].len, 7);
	ck_assert(!memcmp(fp.frames[1].name, "do work", 7));
	ck_assert_int_eq(fp.frames[2].len, 8);
	ck_assert_int_eq(fp.frames[2].annot, SPAA_FOLDED_KERNEL);
	ck_assert_int_eq(parse(&fp, "a_[i];b_[j] 1", &n, &c, &err), 1);
	ck_assert_int_eq(fp.frames[0].annot, SPAA_FOLDED_INLINED);
	ck_assert_int_eq(fp.frames[1].annot, SPAA_FOLDED_JIT);
	ck_assert_int_eq(parse(&fp, "   ", &n, &c, &err), 0);
	ck_assert_int_eq(parse(&fp, "# comment", &n, &c, &err), 0);
	ck_assert_int_eq(parse(&fp, "a;b", &n, &c, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_PARSE);
	ck_assert_uint_eq(err.line, 7);
	ck_assert_int_eq(parse(&fp, "a;b 1.5", &n, &c, &err), -1);
	ck_assert_int_eq(parse(&fp, "a;b 18446744073709551616", &n, &c, &err), -1);
	ck_assert_int_eq(parse(&fp, "a;;b 1", &n, &c, &err), -1);
	spaa_folded_parser_release(&fp);
}
END_TEST

START_TEST(test_table)
{
	struct spaa_folded_table t;
	struct spaa_output *out;
	struct spaa_error err;
	char path[] = "/tmp/check_foldedXXXXXX", buf[256];
	FILE *f;
	size_t n;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	spaa_folded_table_init(&t);
	spaa_folded_table_begin(&t);
	spaa_folded_table_push(&t, "main", 4);
	spaa_folded_table_push(&t, "b;c\n", 4);
	ck_assert_int_eq(spaa_folded_table_add(&t, 2, &err), 0);
	spaa_folded_table_begin(&t);
	spaa_folded_table_push(&t, "main", 4);
	ck_assert_int_eq(spaa_folded_table_add(&t, 5, &err), 0);
	spaa_folded_table_begin(&t);
	spaa_folded_table_push(&t, "main", 4);
	spaa_folded_table_push(&t, "b:c ", 4);
	ck_assert_int_eq(spaa_folded_table_add(&t, 3, &err), 0);
	ck_assert_int_eq(spaa_folded_table_add(&t, UINT64_MAX, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_LIMIT);
	ck_assert_int_eq(spaa_output_open(&out, path, SPAA_INPUT_COMP_NONE, 0, &err), 0);
	ck_assert_int_eq(spaa_folded_table_write(&t, out, NULL, NULL, &err), 0);
	ck_assert_int_eq(spaa_output_close(out, &err), 0);
	f = fopen(path, "r");
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	unlink(path);
	/* "b;c\n" and "b:c " fold to the same path: 2 + 3 */
	ck_assert_str_eq(buf, "main 5\nmain;b:c  5\n");
	spaa_folded_table_release(&t);
}
END_TEST

Suite *folded_suite(void)
{
	Suite *s = suite_create("folded");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_table);
	suite_add_tcase(s, tc);
	return s;
}
