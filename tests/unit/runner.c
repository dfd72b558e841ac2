/*
 * runner - main() of tests/unit/check_spaa: one Check runner over every
 * suite.
 *
 * Each tests/unit/check_MODULE.c exports "Suite *MODULE_suite(void)".  The
 * Makefile writes suites.inc from the check_*.c files present, one
 * "SUITE(MODULE)" line each, so adding a test file needs no edit here.
 *
 * Check's environment variables apply (srunner_run_all with CK_ENV):
 * CK_FORK=no runs the tests in this process (gdb, valgrind), CK_RUN_SUITE
 * and CK_RUN_CASE select a suite or a test case, CK_VERBOSITY is silent,
 * minimal, normal (default) or verbose, CK_DEFAULT_TIMEOUT is in seconds.
 * Check's own default timeout (4 s) is a timing assertion in disguise: a
 * sanitizer build on a loaded 2-core machine ran past it.  A test here is
 * wrong when it hangs, not when it is slow, so the default is 300 s unless
 * the environment says otherwise.
 * The exit status is 1 when any test failed.
 */
#include <stdlib.h>

#include <check.h>

#define SUITE(module) Suite *module##_suite(void);
#include "suites.inc"
#undef SUITE

int main(void)
{
	SRunner *sr;
	int failed;

	/* before the suites are built: tcase_create reads it */
	if (setenv("CK_DEFAULT_TIMEOUT", "300", 0) != 0)
		return EXIT_FAILURE;
	sr = srunner_create(NULL);

#define SUITE(module) srunner_add_suite(sr, module##_suite());
#include "suites.inc"
#undef SUITE

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
