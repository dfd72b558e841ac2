/*
 * The command line of an analysis (report/analysis.h, report/option.h):
 * the bytes are the arguments, separated by NUL bytes, after argv[0]; the
 * analysis takes the shared options and one option of each kind of its
 * own.  After a successful parse the help text is written too.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "report/analysis.h"

#define MAX_ARGS 64

static const char *const choices[] = { "a", "b", NULL };

struct own {
	bool flag;
	const char *str;
	uint64_t u;
	int64_t i;
	struct spaa_option_list list;
	int choice;
};

#define AT(field) offsetof(struct own, field)

static const struct spaa_option own_options[] = {
	{ "flag", 'f', SPAA_OPTION_FLAG, AT(flag), NULL, "a flag", NULL, NULL },
	{ "str", 0, SPAA_OPTION_STRING, AT(str), "S", "a string", NULL, NULL },
	{ "u64", 0, SPAA_OPTION_U64, AT(u), "N", "a count", NULL, NULL },
	{ "i64", 0, SPAA_OPTION_I64, AT(i), "N", "a signed number", NULL, NULL },
	{ "list", 0, SPAA_OPTION_LIST, AT(list), "X", "repeatable", NULL, NULL },
	{ "choice", 0, SPAA_OPTION_CHOICE, AT(choice), "a|b", "a choice",
	  choices, NULL },
	{ NULL, 0, 0, 0, NULL, NULL, NULL, NULL },
};

static const struct spaa_analysis fuzzed = {
	.name = "fuzz", .synopsis = "PATH",
	.options = own_options, .options_size = sizeof(struct own),
	.flags = SPAA_ANALYSIS_EVENT | SPAA_ANALYSIS_THREADS,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char prog[] = "fuzz";
	char *copy = malloc(size + 1), *argv[MAX_ARGS + 2];
	struct own own = { 0 };
	struct spaa_analysis_opts o;
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
	if (!spaa_analysis_parse(&fuzzed, argc, argv, &o, &own, &err))
		spaa_analysis_help(fuzz_devnull(), &fuzzed, "fuzz");
	spaa_analysis_opts_release(&o);
	spaa_analysis_options_release(&fuzzed, &own);
	free(copy);
	return 0;
}
