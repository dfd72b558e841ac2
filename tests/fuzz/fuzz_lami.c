/*
 * The LAMI option parser: the bytes are the arguments, separated by NUL
 * bytes, after argv[0]; the extra table has one option of each kind.
 * After a successful parse the help text is written too.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "report/lami.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bool flag = false;
	const char *str = NULL;
	uint64_t u = 0;
	int64_t i = 0;
	struct spaa_lami_strlist list = { 0 };
	const struct spaa_lami_option extra[] = {
		{ "flag", SPAA_LAMI_OPT_BOOL, &flag, NULL, "a flag" },
		{ "str", SPAA_LAMI_OPT_STRING, &str, "S", "a string" },
		{ "u64", SPAA_LAMI_OPT_U64, &u, "N", "a count" },
		{ "i64", SPAA_LAMI_OPT_I64, &i, "N", "a signed number" },
		{ "list", SPAA_LAMI_OPT_LIST, &list, "X", "repeatable" },
		{ NULL, 0, NULL, NULL, NULL },
	};
	static char prog[] = "fuzz";
	char *copy = malloc(size + 1), *argv[MAX_ARGS + 2];
	struct spaa_lami_opts o;
	struct spaa_error err;
	int argc = 1;

	if (!copy)
		abort();
	memcpy(copy, data, size);
	copy[size] = '\0';
	argv[0] = prog;
	for (size_t at = 0; at < size && argc <= MAX_ARGS; argc++) {
		argv[argc] = copy + at;
		at += strlen(copy + at) + 1;
	}
	argv[argc] = NULL;
	spaa_error_init(&err);
	if (!spaa_lami_parse_args(argc, argv, &o, extra, &err)) {
		spaa_lami_help_write(fuzz_devnull(), "fuzz", "PATH", NULL, extra);
		spaa_lami_opts_release(&o);
	}
	spaa_lami_strlist_release(&list);
	free(copy);
	return 0;
}
