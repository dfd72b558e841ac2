/*
 * check_pathlist - what a command-line path names: files as given,
 * directories as their files sorted by name (profile names, SPX reports,
 * the others for the loader to tell by content), SPX reports by either
 * of their files, and the errors of paths that name nothing.
 */
#include <check.h>
#include <stdlib.h>
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
	struct spaa_sbuf path = { 0 };
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
		/* r.txt.gz is read with r.json; the dot file is never read */
		static const struct {
			const char *name;
			enum spaa_pathlist_kind kind;
		} want[] = {
			{ "a.spaa", SPAA_PATHLIST_SPAA },
			{ "b.spaa.zst", SPAA_PATHLIST_SPAA },
			{ "c.txt", SPAA_PATHLIST_MAYBE },
			{ "d.ndjson.gz", SPAA_PATHLIST_SPAA },
			{ "lone.json", SPAA_PATHLIST_MAYBE },
			{ "r.json", SPAA_PATHLIST_SPX },
			{ "x.spaa.bak", SPAA_PATHLIST_MAYBE },
		};

		ck_assert_uint_eq(list.nr, sizeof(want) / sizeof(want[0]));
		for (i = 0; i < list.nr; i++) {
			ck_assert_str_eq(spaa_pathlist_path(&list, i, &path),
					 testutil_path(want[i].name));
			ck_assert_int_eq(list.kinds[i], want[i].kind);
		}
		/* only profile names that are no files are said skipped */
		ck_assert_uint_eq(list.nskipped, 2);
		/* the SPX report r counts both of its files (r.json, r.txt.gz) */
		ck_assert_uint_eq(spaa_pathlist_size(&list, 0, NULL), 8 * 3);
		spaa_pathlist_release(&list);
		ck_assert_uint_eq(list.nr, 0);
		ck_assert_ptr_null(list.text);
	}
	free(path.s);
}
END_TEST

/* Files and "-" are taken as given; lists accumulate across calls. */
START_TEST(test_expand_files)
{
	struct spaa_pathlist list = { 0 };
	struct spaa_sbuf path = { 0 };
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
	ck_assert_uint_eq(list.nr, 44);
	ck_assert_str_eq(spaa_pathlist_path(&list, 0, &path), odd);
	ck_assert_str_eq(spaa_pathlist_path(&list, 1, &path), "-");
	/* the directory: odd.name, which content decides, then p.spaa */
	ck_assert_str_eq(spaa_pathlist_path(&list, 2, &path), odd);
	ck_assert_str_eq(spaa_pathlist_path(&list, 3, &path), testutil_path("p.spaa"));
	ck_assert_int_eq(list.kinds[0], SPAA_PATHLIST_SPAA);
	ck_assert_int_eq(list.kinds[1], SPAA_PATHLIST_SPAA);
	ck_assert_int_eq(list.kinds[2], SPAA_PATHLIST_MAYBE);
	ck_assert_int_eq(list.kinds[3], SPAA_PATHLIST_SPAA);
	ck_assert_uint_eq(spaa_pathlist_size(&list, 0, NULL), 10 + 0 + 10 + 3 + 40 * 10);
	/* which files are big (a decoding thread's): 10 bytes and more; not stdin */
	{
		bool big[44];

		memset(big, 1, sizeof(big));
		ck_assert_uint_eq(spaa_pathlist_size(&list, 10, big), 423);
		ck_assert(big[0] && !big[1] && big[2] && !big[3] && big[4] && big[43]);
		ck_assert_uint_eq(spaa_pathlist_size(&list, 11, big), 423);
		for (i = 0; i < 44; i++)
			ck_assert(!big[i]);
	}
	spaa_pathlist_release(&list);
	free(path.s);
}
END_TEST

static const struct expand_error_case {
	const char *name;       /* inside the scratch dir; NULL = the dir itself */
	const char *code;
	const char *msg;
} expand_error_cases[] = {
	{ "empty", SPAA_E_NO_PROFILE, "no profiles in directory: no files in it" },
	{ "orphan", SPAA_E_NO_PROFILE,
	  "no profiles in directory: 1 SPX event file(s) *.txt.gz without the metadata *.json beside them (unfinished reports: SPX writes the .json last)" },
	{ "missing", SPAA_E_NOT_FOUND, "no such file or directory" },
	{ "missing/deeper.spaa", SPAA_E_NOT_FOUND, "no such file or directory" },
};

START_TEST(test_expand_errors)
{
	const struct expand_error_case *c = &expand_error_cases[_i];
	struct spaa_pathlist list = { 0 };
	struct spaa_sbuf buf = { 0 };
	struct spaa_error err;
	const char *path, *first = testutil_write("first.spaa", "{}\n", 3);

	spaa_error_init(&err);
	/* a path listed before: what the failed expansion leaves alone */
	ck_assert_int_eq(spaa_pathlist_expand(first, &list, &err), 0);
	/* a directory of no files but a dot file and a subdirectory */
	ck_assert_int_eq(mkdir(testutil_path("empty"), 0755), 0);
	testutil_write("empty/.notes.txt", "x", 1);
	ck_assert_int_eq(mkdir(testutil_path("empty/sub"), 0755), 0);
	/* what a killed SPX run leaves: events without metadata */
	ck_assert_int_eq(mkdir(testutil_path("orphan"), 0755), 0);
	testutil_write("orphan/spx-1.txt.gz", "x", 1);
	path = testutil_path(c->name);  /* testutil_path's buffer is reused */
	ck_assert_int_eq(spaa_pathlist_expand(path, &list, &err), -1);
	ck_assert_str_eq(err.code, c->code);
	ck_assert_str_eq(err.msg, c->msg);
	ck_assert_str_eq(err.file, path);
	ck_assert_uint_eq(list.nr, 1);
	ck_assert_str_eq(spaa_pathlist_path(&list, 0, &buf), testutil_path("first.spaa"));
	spaa_pathlist_release(&list);
	free(buf.s);
}
END_TEST

/* qsort's order of two names: strcmp's, the directory's order. */
static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Makes the directories of testutil path rel (ending in a file name). */
static void make_dirs(const char *rel)
{
	char buf[2048];

	for (const char *p = strchr(rel, '/'); p; p = strchr(p + 1, '/')) {
		snprintf(buf, sizeof(buf), "%.*s", (int)(p - rel), rel);
		mkdir(testutil_path(buf), 0755);
	}
}

/*
 * Names coded against the one before (pathlist.h): every path comes
 * back whole, whichever is asked first, across restarts, a second
 * directory and paths given whole; names that are the prefix of the
 * one before or share a prefix and a suffix that would overlap; paths
 * given whole that share more than a byte can say (over 255 bytes of
 * prefix, then of suffix).
 */
#define CODED_N 53
START_TEST(test_names_coded)
{
	static const char *const odd[] = {
		"ab.spaa", "aba.spaa", "abab.spaa", "b.spaa", "ba.spaa", "bb.spaa",
		"x.spaa", "xx.spaa", "xxx.spaa", "xxxx.spaa",
	};
	char *names[CODED_N], *want[CODED_N + 5];
	struct spaa_pathlist list = { 0 };
	struct spaa_sbuf path = { 0 };
	struct spaa_error err;
	char longer[256], sub[2048], deep[512];
	size_t i, n = 0, m;

	spaa_error_init(&err);
	for (i = 0; i < sizeof(odd) / sizeof(odd[0]); i++)
		names[n++] = strdup(odd[i]);
	for (i = 0; n < CODED_N - 3; i++) {
		char name[64];

		snprintf(name, sizeof(name), "p%06zu-one.spaa.zst", i * 7 % 1000);
		names[n++] = strdup(name);
	}
	/* 240 bytes alike at each end, different in the middle */
	memset(longer, 'L', 240);
	memcpy(longer + 240, "1.spaa", 7);
	names[n++] = strdup(longer);
	longer[240] = '2';
	names[n++] = strdup(longer);
	memset(longer, 'L', 240);
	memcpy(longer + 120, "mid", 3);
	names[n++] = strdup(longer);
	ck_assert_int_eq(mkdir(testutil_path("d"), 0755), 0);
	for (i = 0; i < n; i++) {
		snprintf(sub, sizeof(sub), "d/%s", names[i]);
		testutil_write(sub, "{}\n", 3);
	}
	qsort(names, n, sizeof(*names), name_cmp);
	for (i = 0; i < n; i++) {
		snprintf(sub, sizeof(sub), "%s/d/%s", testutil_tmpdir(), names[i]);
		want[i] = strdup(sub);
	}
	/* given whole: 400 bytes of directories alike, then at their start */
	memset(deep, 'D', 200);
	deep[200] = '/';
	memset(deep + 201, 'E', 200);
	deep[401] = '\0';
	m = n;
	for (i = 0; i < 3; i++) {
		snprintf(sub, sizeof(sub), "%s/%s/x%zu.spaa", i == 2 ? "g" : "f", deep, i % 2);
		make_dirs(sub);
		want[m++] = strdup(testutil_write(sub, "{}\n", 3));
	}
	want[m++] = strdup("-");
	snprintf(sub, sizeof(sub), "%s/d", testutil_tmpdir());
	ck_assert_int_eq(spaa_pathlist_expand(sub, &list, &err), 0);
	for (i = n; i < m; i++)
		ck_assert_int_eq(spaa_pathlist_expand(want[i], &list, &err), 0);
	ck_assert_uint_eq(list.nr, m);
	/* backwards (each from its restart), then in order */
	for (i = m; i-- > 0;)
		ck_assert_str_eq(spaa_pathlist_path(&list, i, &path), want[i]);
	for (i = 0; i < m; i++)
		ck_assert_str_eq(spaa_pathlist_path(&list, i, &path), want[i]);
	/*
	 * The directory's first 48 names cost what differs from the name
	 * before, not their length: 1,604 bytes whole, 645 coded
	 * (one long name whole, 120 bytes of another; whole names at 16
	 * and 32; a few bytes each else).
	 */
	ck_assert_uint_lt(list.restart[3], 800);
	spaa_pathlist_release(&list);
	for (i = 0; i < n; i++)
		free(names[i]);
	for (i = 0; i < m; i++)
		free(want[i]);
	free(path.s);
}
END_TEST

Suite *pathlist_suite(void)
{
	Suite *s = suite_create("pathlist");
	TCase *tc = tcase_create("expand");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_expand_mixed);
	tcase_add_test(tc, test_expand_files);
	tcase_add_test(tc, test_names_coded);
	tcase_add_loop_test(tc, test_expand_errors, 0,
			    (int)(sizeof(expand_error_cases) /
				  sizeof(expand_error_cases[0])));
	suite_add_tcase(s, tc);
	return s;
}
