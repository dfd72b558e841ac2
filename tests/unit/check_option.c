/*
 * check_option - the option-table parser and --help writer of every
 * program (report/option.h): kinds the analyses' table does not show
 * (short names, choices, custom parsers), several sets, and exact help.
 */
#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/util.h"
#include "report/option.h"
#include "testutil.h"

Suite *option_suite(void);

static const char *const colours[] = { "red", "green", "blue", "sky=blue", NULL };

struct opts {
	const char *out;
	int colour;
	bool quiet;
	int64_t even;
	struct spaa_option_list tag;
};

/* An even number, or -1 (the parser says "invalid value"). */
static int parse_even(void *base, const char *value)
{
	struct opts *o = base;

	return spaa_parse_i64(value, &o->even) || o->even % 2 ? -1 : 0;
}

#define AT(field) offsetof(struct opts, field)

static const struct spaa_option table[] = {
	{ "output", 'o', SPAA_OPTION_STRING, AT(out), "OUT", "where to write",
	  NULL, NULL },
	{ "colour", 0, SPAA_OPTION_CHOICE, AT(colour), "red|green|blue",
	  "a colour", colours, NULL },
	{ "quiet", 'q', SPAA_OPTION_FLAG, AT(quiet), NULL, "say less", NULL, NULL },
	{ "even", 0, SPAA_OPTION_CUSTOM, 0, "N", "an even number", NULL, parse_even },
	{ "tag", 0, SPAA_OPTION_LIST, AT(tag), "T", "repeatable", NULL, NULL },
	{ "children", 'c', SPAA_OPTION_HINT, 0, NULL, "the Total column", NULL, NULL },
	{ NULL, 0, 0, 0, NULL, NULL, NULL, NULL },
};

static const struct {
	const char *argv[6];
	int rc;
	const char *want;       /* summary, or the error message */
} cases[] = {
	{ { "-o", "x", "a" }, 0, "out=x colour=0 args=a" },
	{ { "--output=y", "-q" }, 0, "out=y colour=0 quiet args=" },
	{ { "--colour", "blue", "--tag", "t1", "--tag=t2" }, 0,
	  "out= colour=2 tags=t1,t2 args=" },
	{ { "--even=-4", "--", "-q" }, 0, "out= colour=0 even=-4 args=-q" },
	{ { "--help" }, 0, "out= colour=0 help args=" },
	{ { "-h" }, 0, "out= colour=0 help args=" },
	{ { "--colour=Red" }, -1,
	  "invalid value 'Red' for '--colour' (red, green, blue or sky (blue))" },
	/* an alias stands for its value's index */
	{ { "--colour", "sky" }, 0, "out= colour=2 args=" },
	{ { "--colour", "sky=blue" }, -1,
	  "invalid value 'sky=blue' for '--colour' (red, green, blue or sky (blue))" },
	{ { "--even", "3" }, -1, "invalid value '3' for '--even'" },
	{ { "-oz" }, -1, "unknown option '-oz'" },
	{ { "-x" }, -1, "unknown option '-x'" },
	{ { "--quiet=1" }, -1, "option '--quiet' takes no value" },
	{ { "-q", "-o" }, -1, "option '--output' needs a value" },
	/* the start of one name, typos within reach, pprof's one dash */
	{ { "--ver" }, -1, "unknown option '--ver' (did you mean '--version'?)" },
	{ { "--outptu=x" }, -1, "unknown option '--outptu' (did you mean '--output'?)" },
	{ { "--colur" }, -1, "unknown option '--colur' (did you mean '--colour'?)" },
	{ { "--qiuet" }, -1, "unknown option '--qiuet' (did you mean '--quiet'?)" },
	{ { "-output" }, -1, "unknown option '-output' (did you mean '--output'?)" },
	{ { "--tg" }, -1, "unknown option '--tg' (did you mean '--tag'?)" },
	/* too far, or as near to two: no guess */
	{ { "--ouxxxt" }, -1, "unknown option '--ouxxxt'" },
	{ { "--te" }, -1, "unknown option '--te'" },
	{ { "--zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz" },
	  -1, "unknown option '--zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz'" },
	/* other tools' names say what they are here */
	{ { "--children" }, -1, "unknown option '--children': the Total column" },
	{ { "-children" }, -1, "unknown option '-children': the Total column" },
	{ { "-c" }, -1, "unknown option '-c': the Total column" },
	{ { "--children=1" }, -1, "unknown option '--children': the Total column" },
	{ { "--childre" }, -1, "unknown option '--childre'" },
};

START_TEST(test_parse)
{
	char *argv[8] = { (char *)"prog" };
	struct opts o = { 0 };
	struct spaa_option_program prog = { 0 };
	const struct spaa_option_set sets[] = {
		{ "Options", table, &o },
		{ NULL, spaa_option_program_options, &prog },
	};
	struct spaa_option_args args;
	struct spaa_error err;
	struct testutil_capture c;
	int argc = 1, rc;

	while (argc < 7 && cases[_i].argv[argc - 1]) {
		argv[argc] = (char *)cases[_i].argv[argc - 1];
		argc++;
	}
	spaa_error_init(&err);
	rc = spaa_option_parse(argc, argv, sets, 2, &args, &err);
	ck_assert_int_eq(rc, cases[_i].rc);
	if (rc) {
		ck_assert_str_eq(err.code, SPAA_E_USAGE);
		ck_assert_str_eq(err.msg, cases[_i].want);
		ck_assert_uint_eq(args.nr, 0);
	} else {
		testutil_capture_open(&c);
		fprintf(c.f, "out=%s colour=%d", o.out ? o.out : "", o.colour);
		if (o.quiet)
			fputs(" quiet", c.f);
		if (o.even)
			fprintf(c.f, " even=%lld", (long long)o.even);
		for (size_t i = 0; i < o.tag.nr; i++)
			fprintf(c.f, "%s%s", i ? "," : " tags=", o.tag.items[i]);
		if (prog.help)
			fputs(" help", c.f);
		fputs(" args=", c.f);
		for (size_t i = 0; i < args.nr; i++)
			fprintf(c.f, "%s%s", i ? "," : "", args.items[i]);
		ck_assert_str_eq(testutil_capture_close(&c), cases[_i].want);
		testutil_capture_free(&c);
	}
	spaa_option_args_release(&args);
	spaa_option_list_release(&o.tag);
}
END_TEST

START_TEST(test_help)
{
	struct opts o = { 0 };
	struct spaa_option_program prog = { 0 };
	const struct spaa_option_set sets[] = {
		{ "Options", table, &o },
		{ NULL, spaa_option_program_options, &prog },
	};
	struct testutil_capture c;

	/* help texts at 2 + 23 (the widest, --colour red|green|blue) + 2 */
	testutil_capture_open(&c);
	spaa_option_help(c.f, "prog", "IN", "Does things.", sets, 2, "Exit 0.");
	ck_assert_str_eq(testutil_capture_close(&c),
		"usage: prog [OPTIONS] IN\n"
		"\n"
		"Does things.\n"
		"\n"
		"Options:\n"
		"  -o, --output OUT         where to write\n"
		"  --colour red|green|blue  a colour\n"
		"  -q, --quiet              say less\n"
		"  --even N                 an even number\n"
		"  --tag T                  repeatable\n"
		"  -h, --help               show this help and exit\n"
		"  --version                show the version and exit\n"
		"  --threads N              read profiles with N threads (default: SPAA_THREADS, else the cores the program may use)\n"
		"\n"
		"Exit 0.\n"
		"\n"
		"See prog(1).\n");
	testutil_capture_free(&c);
}
END_TEST

Suite *option_suite(void)
{
	Suite *s = suite_create("option");
	TCase *tc = tcase_create("option");

	tcase_add_loop_test(tc, test_parse, 0, sizeof(cases) / sizeof(cases[0]));
	tcase_add_test(tc, test_help);
	suite_add_tcase(s, tc);
	return s;
}
