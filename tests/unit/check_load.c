/*
 * check_load - paths into one profile (formats/load.h): several files and
 * directories merge by name, SPAA and SPX are told by content and name,
 * every sample reaches on_sample with its file and line, progress grows
 * to the total of the files' sizes, and the bounds come from the
 * environment with clear usage errors.
 */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "formats/load.h"
#include "testutil.h"

Suite *load_suite(void);

static void setup(void)
{
	testutil_tmpdir_setup("check_load");
}

static void teardown(void)
{
	testutil_tmpdir_teardown();
}

#define EV(n) "{\"name\":\"" n "\",\"kind\":\"software\",\"sampling\":" \
	"{\"mode\":\"event\",\"primary_metric\":\"samples\"}}"
#define HEADER(ev) "{\"type\":\"header\",\"format\":\"spaa\",\"version\":\"1.0\"," \
	"\"source_tool\":\"perf\",\"frame_order\":\"leaf_to_root\"," \
	"\"stack_id_mode\":\"content_addressable\",\"events\":[" ev "]}\n"
#define BODY "{\"type\":\"dso\",\"id\":1,\"name\":\"/bin/a\",\"is_kernel\":false}\n" \
	"{\"type\":\"frame\",\"id\":1,\"func\":\"main\",\"dso\":1}\n" \
	"{\"type\":\"stack\",\"id\":\"s\",\"frames\":[1],\"weights\":[{\"metric\":\"samples\",\"value\":2}]}\n" \
	"{\"type\":\"sample\",\"timestamp\":1,\"stack_id\":\"s\"}\n" \
	"{\"type\":\"sample\",\"timestamp\":2,\"stack_id\":\"s\"}\n"

static const char file_a[] = HEADER(EV("faults")) BODY;
static const char file_b[] = HEADER(EV("switches")) BODY;

struct seen {
	uint64_t samples, last_done, total;
	unsigned long lines[8];
	uint32_t files[8];
	int progress_calls;
	bool went_back;
};

static int on_sample(void *data, const struct spaa_profile *p,
		     const struct spaa_sample *s, struct spaa_error *err)
{
	struct seen *seen = data;

	(void)p;
	(void)err;
	if (seen->samples < 8) {
		seen->lines[seen->samples] = s->line;
		seen->files[seen->samples] = s->file;
	}
	seen->samples++;
	return 0;
}

static void on_progress(void *data, uint64_t done, uint64_t total)
{
	struct seen *seen = data;

	seen->went_back |= done < seen->last_done;
	seen->last_done = done;
	seen->total = total;
	seen->progress_calls++;
}

START_TEST(test_files_and_directories_merge)
{
	const char *a = testutil_write("a.spaa", file_a, strlen(file_a));
	const char *paths[2];
	struct seen seen = { 0 };
	struct spaa_load_opts o = {
		.on_sample = on_sample, .data = &seen,
		.on_progress = on_progress, .progress_data = &seen,
	};
	struct spaa_profile p;
	struct spaa_error err;
	char dir[512];

	/* a directory with b.spaa and a file that is no profile */
	snprintf(dir, sizeof(dir), "%s", testutil_path("d"));
	ck_assert_int_eq(mkdir(dir, 0755), 0);
	testutil_write("d/b.spaa", file_b, strlen(file_b));
	testutil_write("d/notes.txt", "hello\n", 6);
	paths[0] = a;
	paths[1] = dir;
	spaa_profile_init(&p);
	spaa_error_init(&err);
	ck_assert_msg(!spaa_load(&p, paths, 2, &o, &err), "%s", err.msg);
	ck_assert_uint_eq(p.nfiles, 2);
	ck_assert_uint_eq(p.nevents, 2);
	/* one function: the same (name, DSO) in both files */
	ck_assert_uint_eq(spaa_profile_nfunctions(&p), 1);
	ck_assert_uint_eq(p.nsamples, 4);
	ck_assert_uint_eq(seen.samples, 4);
	ck_assert(seen.lines[0] == 5 && seen.lines[1] == 6 && seen.lines[3] == 6);
	ck_assert(seen.files[0] == 0 && seen.files[2] == 1);
	/* progress: never back, ending at the sum of the files' sizes */
	ck_assert(seen.progress_calls > 0 && !seen.went_back);
	ck_assert_uint_eq(seen.total, strlen(file_a) + strlen(file_b) + 6);
	ck_assert_uint_eq(seen.last_done, seen.total);
	spaa_profile_release(&p);
}
END_TEST

START_TEST(test_spx_by_content)
{
	/* either file of an SPX report names it */
	const char *paths[] = { "tests/data/spx/basic.txt.gz" };
	struct spaa_load_opts o = { 0 };
	struct spaa_profile p;
	struct spaa_error err;

	spaa_profile_init(&p);
	spaa_error_init(&err);
	ck_assert_msg(!spaa_load(&p, paths, 1, &o, &err), "%s", err.msg);
	ck_assert_uint_eq(p.nfiles, 1);
	ck_assert_uint_eq(spaa_profile_find_event(&p, "spx"), 0);
	ck_assert_str_eq(spaa_profile_str(&p, p.files[0].source_tool), "spx");
	spaa_profile_release(&p);
}
END_TEST

START_TEST(test_errors)
{
	const char *missing[] = { testutil_path("nothing.spaa") };
	const char *empty_dir[] = { testutil_tmpdir() };
	struct spaa_load_opts o = { 0 };
	struct spaa_profile p;
	struct spaa_error err;

	spaa_profile_init(&p);
	spaa_error_init(&err);
	ck_assert_int_eq(spaa_load(&p, missing, 1, &o, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_NOT_FOUND);
	ck_assert_str_eq(err.file, missing[0]);
	ck_assert_int_eq(spaa_load(&p, empty_dir, 1, &o, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_NO_PROFILE);
	spaa_profile_release(&p);
}
END_TEST

/*
 * The next file of a directory is opened while one is read: an error
 * still names the file it is in, and the files after it are not read.
 */
START_TEST(test_directory_stops_at_the_bad_file)
{
	const char *paths[] = { testutil_path("d") };
	struct seen seen = { 0 };
	struct spaa_load_opts o = { .on_sample = on_sample, .data = &seen };
	struct spaa_profile p;
	struct spaa_error err;

	ck_assert_int_eq(mkdir(paths[0], 0755), 0);
	testutil_write("d/a.spaa", file_a, strlen(file_a));
	testutil_write("d/b.spaa", HEADER(EV("faults")) "{\"type\":\"dso\"}\n",
		       strlen(HEADER(EV("faults")) "{\"type\":\"dso\"}\n"));
	testutil_write("d/c.spaa", file_b, strlen(file_b));
	spaa_profile_init(&p);
	spaa_error_init(&err);
	ck_assert_int_eq(spaa_load(&p, paths, 1, &o, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_INVALID);
	ck_assert_str_eq(err.file, testutil_path("d/b.spaa"));
	ck_assert_uint_eq(err.line, 2);
	ck_assert_uint_eq(seen.samples, 2);
	ck_assert_uint_eq(p.nfiles, 2);
	spaa_profile_release(&p);
}
END_TEST

START_TEST(test_limits_env)
{
	struct spaa_load_opts o = { .max_depth = 7 };
	struct spaa_error err;

	spaa_error_init(&err);
	unsetenv("SPAA_MAX_DEPTH");
	setenv("SPAA_MAX_LINE", "", 1);
	setenv("SPAA_MAX_STRINGS", "1000", 1);
	ck_assert_int_eq(spaa_load_limits_env(&o, &err), 0);
	ck_assert_uint_eq(o.max_depth, 7);      /* unset: as it was */
	ck_assert_uint_eq(o.max_line, 0);       /* empty: as it was */
	ck_assert_uint_eq(o.max_strings, 1000);
	setenv("SPAA_MAX_DEPTH", "0", 1);
	ck_assert_int_eq(spaa_load_limits_env(&o, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_USAGE);
	ck_assert_str_eq(err.msg, "invalid value '0' for SPAA_MAX_DEPTH: expected an integer from 1 to 4294967295");
	setenv("SPAA_MAX_DEPTH", "12x", 1);
	ck_assert_int_eq(spaa_load_limits_env(&o, &err), -1);
	unsetenv("SPAA_MAX_DEPTH");
	unsetenv("SPAA_MAX_LINE");
	unsetenv("SPAA_MAX_STRINGS");
}
END_TEST

Suite *load_suite(void)
{
	Suite *s = suite_create("load");
	TCase *tc = tcase_create("load");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_files_and_directories_merge);
	tcase_add_test(tc, test_spx_by_content);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_directory_stops_at_the_bad_file);
	tcase_add_test(tc, test_limits_env);
	suite_add_tcase(s, tc);
	return s;
}
