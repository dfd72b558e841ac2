/*
 * check_pathlist - what a command-line path names: files as given,
 * directories as their profiles sorted by name, SPX reports by either of
 * their files, and the errors of paths that name nothing.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/pathlist.h"
#include "model/util.h"
#include "testutil.h"

Suite *pathlist_suite(void);

static void setup(void)
{
	testutil_tmpdir_setup("check_pathlist");
}

static void teardown(void)
{
	testutil_tmpdir_teardown();
}

START_TEST(test_expand_mixed)
{
	static const char *const files[] = {
		"c.txt", "b.spaa.zst", "r.txt.gz", "lone.json", "r.json",
		"a.spaa", ".hidden.spaa", "d.ndjson.gz", "x.spaa.bak",
	};
	struct spaa_pathlist list = { 0 };
	struct spaa_error err;
	char dir[1024];
	size_t i;
	int slash;

	spaa_error_init(&err);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		testutil_write(files[i], "{}\n", 3);
	/* a directory with a profile's name is not a profile */
	ck_assert_int_eq(mkdir(testutil_path("sub.spaa"), 0755), 0);
	ck_assert_int_eq(symlink("nowhere", testutil_path("dangling.spaa")), 0);

	for (slash = 0; slash < 2; slash++) {
		snprintf(dir, sizeof(dir), "%s%s", testutil_tmpdir(), slash ? "/" : "");
		ck_assert_int_eq(spaa_pathlist_expand(dir, &list, &err), 0);
		ck_assert_uint_eq(list.nr, 4);
		ck_assert_str_eq(list.paths[0], testutil_path("a.spaa"));
		ck_assert_str_eq(list.paths[1], testutil_path("b.spaa.zst"));
		ck_assert_str_eq(list.paths[2], testutil_path("d.ndjson.gz"));
		ck_assert_str_eq(list.paths[3], testutil_path("r.json"));
		ck_assert_int_eq(list.kinds[0], SPAA_PATHLIST_SPAA);
		ck_assert_int_eq(list.kinds[1], SPAA_PATHLIST_SPAA);
		ck_assert_int_eq(list.kinds[2], SPAA_PATHLIST_SPAA);
		ck_assert_int_eq(list.kinds[3], SPAA_PATHLIST_SPX);
		/* the SPX report r counts both of its files (r.json, r.txt.gz) */
		ck_assert_uint_eq(spaa_pathlist_size(&list), 5 * 3);
		spaa_pathlist_release(&list);
		ck_assert_uint_eq(list.nr, 0);
		ck_assert_ptr_null(list.paths);
	}
}
END_TEST

/* Files and "-" are taken as given; lists accumulate across calls. */
START_TEST(test_expand_files)
{
	struct spaa_pathlist list = { 0 };
	struct spaa_error err;
	const char *odd = testutil_write("odd.name", "0123456789", 10);
	size_t i;

	spaa_error_init(&err);
	ck_assert_int_eq(spaa_pathlist_expand(odd, &list, &err), 0);
	ck_assert_int_eq(spaa_pathlist_expand("-", &list, &err), 0);
	testutil_write("p.spaa", "{}\n", 3);
	ck_assert_int_eq(spaa_pathlist_expand(testutil_tmpdir(), &list, &err), 0);
	/* many entries: the arrays grow */
	for (i = 0; i < 40; i++)
		ck_assert_int_eq(spaa_pathlist_expand(odd, &list, &err), 0);
	ck_assert_uint_eq(list.nr, 43);
	ck_assert_str_eq(list.paths[0], odd);
	ck_assert_str_eq(list.paths[1], "-");
	ck_assert_str_eq(list.paths[2], testutil_path("p.spaa"));
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(list.kinds[i], SPAA_PATHLIST_SPAA);
	ck_assert_uint_eq(spaa_pathlist_size(&list), 10 + 0 + 3 + 40 * 10);
	spaa_pathlist_release(&list);
}
END_TEST

static const struct expand_error_case {
	const char *name;       /* inside the scratch dir; NULL = the dir itself */
	const char *code;
	const char *msg;
} expand_error_cases[] = {
	{ NULL, SPAA_E_NO_PROFILE,
	  "no profiles in directory (looked for *.spaa, *.pb, *.perf, *.folded, perf.data and the other names of spaa-tools(7), and SPX reports)" },
	{ "missing", SPAA_E_NOT_FOUND, "no such file or directory" },
	{ "missing/deeper.spaa", SPAA_E_NOT_FOUND, "no such file or directory" },
};

START_TEST(test_expand_errors)
{
	const struct expand_error_case *c = &expand_error_cases[_i];
	struct spaa_pathlist list = { 0 };
	struct spaa_error err;
	const char *path = c->name ? testutil_path(c->name) : testutil_tmpdir();

	spaa_error_init(&err);
	/* not profiles: the directory still has none */
	testutil_write("notes.txt", "x", 1);
	testutil_write("lone.json", "{}", 2);
	ck_assert_int_eq(spaa_pathlist_expand(path, &list, &err), -1);
	ck_assert_str_eq(err.code, c->code);
	ck_assert_str_eq(err.msg, c->msg);
	ck_assert_str_eq(err.file, path);
	ck_assert_uint_eq(list.nr, 0);
	spaa_pathlist_release(&list);
}
END_TEST

Suite *pathlist_suite(void)
{
	Suite *s = suite_create("pathlist");
	TCase *tc = tcase_create("expand");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_expand_mixed);
	tcase_add_test(tc, test_expand_files);
	tcase_add_loop_test(tc, test_expand_errors, 0,
			    (int)(sizeof(expand_error_cases) /
				  sizeof(expand_error_cases[0])));
	suite_add_tcase(s, tc);
	return s;
}
