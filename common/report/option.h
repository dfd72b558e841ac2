/*
 * option - command lines from option tables: one parser and one --help
 * writer for every program of the suite (the analyses through
 * analysis.h, spaa-convert and spaa-validate directly), so their option
 * names, usage errors and help read alike.
 *
 * An option table is an array of struct spaa_option ending with a NULL
 * name.  Each option writes to a field of a struct the caller owns, by
 * offset: a table describes the struct's fields, and option values live
 * in that struct, never in globals.  Several tables (struct
 * spaa_option_set) are parsed together, each into its own struct, and
 * listed under its own heading in --help.
 *
 * Syntax: "--name value" and "--name=value" alike (the next argument is
 * the value whatever it looks like: "--begin -5"); "-x value" for an
 * option with a short name; names match exactly (no prefixes); "--" ends
 * the options; "-" is a positional argument (standard input).
 *
 * Errors are SPAA_E_USAGE with one of these messages:
 *   "unknown option '--foo'"             (also "-x"; "--foo=1" too)
 *   "unknown option '--limt' (did you mean '--limit'?)"  (a name one or
 *                                        two edits away from one, or the
 *                                        start of only one; "-limit"
 *                                        too, as pprof writes options)
 *   "unknown option '--children': perf report's --children is the
 *    Total column"                       (a SPAA_OPTION_HINT: the name
 *                                        another tool gives something)
 *   "option '--metadata' takes no value" (a flag given "=value")
 *   "option '--limit' needs a value"     (last argument)
 *   "invalid value 'x' for '--begin'"    (a value that does not parse)
 *   "invalid value 'x' for '--to' (spaa, folded or svg)"   (a choice)
 */
#ifndef SPAA_OPTION_H
#define SPAA_OPTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/error.h"

enum spaa_option_kind {
	SPAA_OPTION_FLAG,       /* bool, set to true; takes no value */
	SPAA_OPTION_STRING,     /* const char *, pointing into argv */
	/*
	 * uint64_t, decimal, at least 1: 0 stays the field's "not given"
	 * (the default), so it is never a value the user can give.
	 */
	SPAA_OPTION_U64,
	SPAA_OPTION_I64,        /* int64_t, decimal, may be negative */
	SPAA_OPTION_LIST,       /* struct spaa_option_list: repeatable string */
	/*
	 * int: the index of the value in choices; an entry "alias=value"
	 * (after the values) takes alias for value, the index of value
	 */
	SPAA_OPTION_CHOICE,
	SPAA_OPTION_CUSTOM,     /* parse() does it */
	/*
	 * Not an option: a name other tools use (perf report's --children)
	 * and, in help, what it is here; giving it is a usage error saying
	 * so.  Left out of --help and of "did you mean".
	 */
	SPAA_OPTION_HINT,
};

struct spaa_option {
	const char *name;       /* long name without "--"; NULL ends a table */
	char short_name;        /* 'o' for "-o", or 0 */
	enum spaa_option_kind kind;
	size_t offset;          /* of the field in the set's struct */
	const char *argname;    /* in --help, e.g. "NAME"; NULL for flags */
	const char *help;       /* one line, lowercase, no full stop */
	/*
	 * SPAA_OPTION_CHOICE: the values, NULL-terminated; SPAA_OPTION_CUSTOM:
	 * NULL, or one string saying which values parse, added to the
	 * message of one that does not: "invalid value 'x' for '--begin'
	 * (FORMS)".
	 */
	const char *const *choices;
	/*
	 * SPAA_OPTION_CUSTOM: stores value into the set's struct (base);
	 * returns 0, or -1 for a value that does not parse (the parser then
	 * reports "invalid value").  May set more than one field.
	 */
	int (*parse)(void *base, const char *value);
};

/*
 * A repeatable option's values, in the order given.  Zero-initialize it;
 * items (owned; the strings point into argv) is freed by
 * spaa_option_list_release, which leaves an empty list.
 */
struct spaa_option_list {
	const char **items;
	size_t nr, alloc;
};

void spaa_option_list_release(struct spaa_option_list *l);

/* One table and the struct it writes to. */
struct spaa_option_set {
	const char *heading;    /* "LAMI options", ...; NULL: the --help block goes on */
	const struct spaa_option *options;
	void *base;             /* weak: the struct the offsets point into */
};

/* The positional arguments, in order (items owned, strings in argv). */
struct spaa_option_args {
	const char **items;
	size_t nr, alloc;
};

void spaa_option_args_release(struct spaa_option_args *a);

/*
 * -h/--help and --version, for the programs that are not analyses
 * (spaa-convert, spaa-validate: analysis.h has its own): a set of
 * spaa_option_program_options with a struct spaa_option_program.
 */
struct spaa_option_program {
	bool help, version;
	uint64_t threads;       /* --threads N; 0: not given */
};

extern const struct spaa_option spaa_option_program_options[];

/*
 * --threads N, in every program that reads profiles (the analyses'
 * shared options, spaa_option_program_options): the field is a uint64_t
 * for spaa_load_opts.threads, 0 when not given.
 */
#define SPAA_OPTION_THREADS(type, field) \
	{ "threads", 0, SPAA_OPTION_U64, offsetof(type, field), "N", \
	  "read profiles with N threads (default: SPAA_THREADS, else the cores the program may use)", \
	  NULL, NULL }

/*
 * Parses argv[1..argc) with the tables of sets[0..nsets).  A field is
 * written only when its option is given, so the caller sets defaults
 * before.  A name found in two tables is the first table's.  On failure
 * the fields already written keep their values (main reports a usage
 * error in the --format given before it) and args is released.
 * LIST fields are the caller's to release, after a failure too.
 */
int spaa_option_parse(int argc, char **argv, const struct spaa_option_set *sets,
		      size_t nsets, struct spaa_option_args *args,
		      struct spaa_error *err);

/*
 * Writes the --help text: "usage: PROG [OPTIONS] SYNOPSIS", the
 * description (may be NULL), each set's heading and options one per line
 * ("  -o, --output OUT  help", the help texts in one column; the first
 * set needs a heading), the footer
 * (may be NULL) and a closing "See PROG(1).", blocks separated by blank
 * lines.
 */
void spaa_option_help(FILE *out, const char *prog, const char *synopsis,
		      const char *description,
		      const struct spaa_option_set *sets, size_t nsets,
		      const char *footer);

#endif
