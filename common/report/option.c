#include <stdlib.h>
#include <string.h>

#include "model/util.h"
#include "report/option.h"

const struct spaa_option spaa_option_program_options[] = {
	{ "help", 'h', SPAA_OPTION_FLAG, offsetof(struct spaa_option_program, help),
	  NULL, "show this help and exit", NULL, NULL },
	{ "version", 0, SPAA_OPTION_FLAG,
	  offsetof(struct spaa_option_program, version), NULL,
	  "show the version and exit", NULL, NULL },
	SPAA_OPTION_THREADS(struct spaa_option_program, threads),
	{ NULL, 0, 0, 0, NULL, NULL, NULL, NULL },
};

void spaa_option_list_release(struct spaa_option_list *l)
{
	free(l->items);
	memset(l, 0, sizeof(*l));
}

void spaa_option_args_release(struct spaa_option_args *a)
{
	free(a->items);
	memset(a, 0, sizeof(*a));
}

/* The option named s[0..len) (long) or short_name (when len is 0). */
static const struct spaa_option *find(const struct spaa_option_set *sets,
				      size_t nsets, const char *s, size_t len,
				      char short_name, void **base)
{
	for (size_t i = 0; i < nsets; i++)
		for (const struct spaa_option *o = sets[i].options; o->name; o++)
			if (len ? strlen(o->name) == len && !memcmp(o->name, s, len) :
			    o->short_name && o->short_name == short_name) {
				*base = sets[i].base;
				return o;
			}
	return NULL;
}

#define NAME_MAX_SUGGEST 64

/*
 * Edits (insertions, deletions, substitutions, swaps of neighbours)
 * between a[0..n) and b: what a typo costs.  Names past
 * NAME_MAX_SUGGEST bytes are never close.
 */
static size_t edits(const char *a, size_t n, const char *b)
{
	size_t m = strlen(b), d[3][NAME_MAX_SUGGEST + 1];

	if (n > NAME_MAX_SUGGEST || m > NAME_MAX_SUGGEST)
		return SIZE_MAX;
	for (size_t j = 0; j <= m; j++)
		d[0][j] = j;
	/* rows i-2, i-1, i kept in d[(i+1)%3], d[(i+2)%3], d[i%3] */
	for (size_t i = 1; i <= n; i++) {
		size_t *cur = d[i % 3], *up = d[(i + 2) % 3], *up2 = d[(i + 1) % 3];

		cur[0] = i;
		for (size_t j = 1; j <= m; j++) {
			size_t v = up[j - 1] + (a[i - 1] != b[j - 1]);

			if (up[j] + 1 < v)
				v = up[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && up2[j - 2] + 1 < v)
				v = up2[j - 2] + 1;
			cur[j] = v;
		}
	}
	return d[n % 3][m];
}

/*
 * The option a mistyped name s[0..len) most likely meant: the only one
 * it starts, else the nearest within two edits (one for short names),
 * none when two are as near.
 */
static const char *suggest(const struct spaa_option_set *sets, size_t nsets,
			   const char *s, size_t len)
{
	const char *best = NULL, *prefix = NULL;
	size_t best_d = len <= 4 ? 2 : 3, nprefix = 0;
	bool tie = false;

	for (size_t i = 0; i < nsets; i++)
		for (const struct spaa_option *o = sets[i].options; o->name; o++) {
			size_t d;

			if (o->kind == SPAA_OPTION_HINT)
				continue;
			if (len >= 2 && !strncmp(o->name, s, len)) {
				prefix = o->name;
				nprefix++;
			}
			d = edits(s, len, o->name);
			if (d < best_d) {
				best = o->name;
				best_d = d;
				tie = false;
			} else if (d == best_d && best) {
				tie = true;
			}
		}
	if (nprefix == 1)
		return prefix;
	return tie ? NULL : best;
}

/* The usage error of an unknown option arg, naming it without "=value". */
static int unknown(const struct spaa_option_set *sets, size_t nsets,
		   const char *arg, struct spaa_error *err)
{
	const char *name = arg + 1 + (arg[1] == '-');
	size_t len = strcspn(name, "=");
	size_t shown = arg[1] == '-' ? len + 2 : strlen(arg);
	const char *near = len >= 2 ? suggest(sets, nsets, name, len) : NULL;

	if (near)
		return spaa_error_set(err, SPAA_E_USAGE,
				      "unknown option '%.*s' (did you mean '--%s'?)",
				      (int)shown, arg, near);
	return spaa_error_set(err, SPAA_E_USAGE, "unknown option '%.*s'",
			      (int)shown, arg);
}

/*
 * "a, b or c (a)" of the choices, for the message of a bad value: an
 * alias "c=a" reads "c (a)".
 */
static void list_choices(const char *const *c, char *buf, size_t size)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; c[i] && at < size; i++) {
		const char *eq = strchr(c[i], '=');

		at += (size_t)snprintf(buf + at, size - at, "%s%.*s",
				       !i ? "" : c[i + 1] ? ", " : " or ",
				       eq ? (int)(eq - c[i]) : (int)strlen(c[i]), c[i]);
		if (eq && at < size)
			at += (size_t)snprintf(buf + at, size - at, " (%s)", eq + 1);
	}
}

/*
 * The index value stands for among choices, an alias "value=target"
 * standing for target's; -1 when none.
 */
static int choice_index(const char *const *c, const char *value)
{
	size_t n = strlen(value);

	for (int i = 0; c[i]; i++) {
		const char *eq = strchr(c[i], '=');

		if (!eq && !strcmp(c[i], value))
			return i;
		if (eq && (size_t)(eq - c[i]) == n && !strncmp(c[i], value, n))
			return choice_index(c, eq + 1);
	}
	return -1;
}

static int set(const struct spaa_option *o, void *base, const char *value,
	       struct spaa_error *err)
{
	void *dest = (char *)base + o->offset;
	struct spaa_option_list *l;
	char list[256];

	switch (o->kind) {
	case SPAA_OPTION_FLAG:
		*(bool *)dest = true;
		return 0;
	case SPAA_OPTION_STRING:
		*(const char **)dest = value;
		return 0;
	case SPAA_OPTION_U64:
		if (spaa_parse_u64(value, dest))
			break;
		if (!*(uint64_t *)dest)
			return spaa_error_set(err, SPAA_E_USAGE,
					      "invalid value '0' for '--%s' (a positive integer)",
					      o->name);
		return 0;
	case SPAA_OPTION_I64:
		if (spaa_parse_i64(value, dest))
			break;
		return 0;
	case SPAA_OPTION_LIST:
		l = dest;
		SPAA_ALLOC_GROW(l->items, l->nr + 1, l->alloc);
		l->items[l->nr++] = value;
		return 0;
	case SPAA_OPTION_CHOICE:
		if (choice_index(o->choices, value) >= 0) {
			*(int *)dest = choice_index(o->choices, value);
			return 0;
		}
		list_choices(o->choices, list, sizeof(list));
		return spaa_error_set(err, SPAA_E_USAGE,
				      "invalid value '%s' for '--%s' (%s)",
				      value, o->name, list);
	case SPAA_OPTION_CUSTOM:
		if (o->parse(base, value))
			break;
		return 0;
	case SPAA_OPTION_HINT:
		break;
	}
	if (o->kind == SPAA_OPTION_CUSTOM && o->choices)
		return spaa_error_set(err, SPAA_E_USAGE,
				      "invalid value '%s' for '--%s' (%s)",
				      value, o->name, o->choices[0]);
	return spaa_error_set(err, SPAA_E_USAGE, "invalid value '%s' for '--%s'",
			      value, o->name);
}

int spaa_option_parse(int argc, char **argv, const struct spaa_option_set *sets,
		      size_t nsets, struct spaa_option_args *args,
		      struct spaa_error *err)
{
	bool options_done = false;

	memset(args, 0, sizeof(*args));
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *name, *eq, *value = NULL;
		const struct spaa_option *o;
		void *base = NULL;
		size_t len;

		if (options_done || arg[0] != '-' || !arg[1]) {
			/* includes "-", stdin */
			SPAA_ALLOC_GROW(args->items, args->nr + 1, args->alloc);
			args->items[args->nr++] = arg;
			continue;
		}
		if (!strcmp(arg, "--")) {
			options_done = true;
			continue;
		}
		if (arg[1] != '-') {
			/* "-peek", "-nodefraction=0.01": pprof's long names have one dash */
			len = strcspn(arg + 1, "=");
			o = arg[2] ? find(sets, nsets, arg + 1, len, 0, &base)
				   : find(sets, nsets, NULL, 0, arg[1], &base);
			/* only hints match those */
			if (o && arg[2] && o->kind != SPAA_OPTION_HINT)
				o = NULL;
			name = o ? o->name : NULL;
			eq = NULL;
		} else {
			name = arg + 2;
			eq = strchr(name, '=');
			len = eq ? (size_t)(eq - name) : strlen(name);
			o = find(sets, nsets, name, len, 0, &base);
		}
		if (!o) {
			unknown(sets, nsets, arg, err);
			goto fail;
		}
		if (o->kind == SPAA_OPTION_HINT) {
			spaa_error_set(err, SPAA_E_USAGE, "unknown option '%.*s': %s",
				       (int)(arg[1] == '-' ? len + 2 : arg[2] ? len + 1 : 2),
				       arg, o->help);
			goto fail;
		}
		if (o->kind == SPAA_OPTION_FLAG) {
			if (eq) {
				spaa_error_set(err, SPAA_E_USAGE,
					       "option '--%s' takes no value", o->name);
				goto fail;
			}
		} else if (eq) {
			value = eq + 1;
		} else if (i + 1 < argc) {
			/* whatever it looks like, so that "--begin -5" works */
			value = argv[++i];
		} else {
			spaa_error_set(err, SPAA_E_USAGE,
				       "option '--%s' needs a value", o->name);
			goto fail;
		}
		if (set(o, base, value, err))
			goto fail;
	}
	return 0;
fail:
	spaa_option_args_release(args);
	return -1;
}

/* "-o, --output OUT", or "--limit N" */
static int help_name(char *buf, size_t size, const struct spaa_option *o)
{
	bool arg = o->kind != SPAA_OPTION_FLAG && o->argname;
	char short_name[8] = "";

	if (o->short_name)
		snprintf(short_name, sizeof(short_name), "-%c, ", o->short_name);
	return snprintf(buf, size, "%s--%s%s%s", short_name, o->name,
			arg ? " " : "", arg ? o->argname : "");
}

void spaa_option_help(FILE *out, const char *prog, const char *synopsis,
		      const char *description,
		      const struct spaa_option_set *sets, size_t nsets,
		      const char *footer)
{
	char name[256];
	int width = 0;

	for (size_t i = 0; i < nsets; i++)
		for (const struct spaa_option *o = sets[i].options; o->name; o++) {
			int w = o->kind == SPAA_OPTION_HINT ? 0 :
				help_name(name, sizeof(name), o);

			if (w > width)
				width = w;
		}
	fprintf(out, "usage: %s [OPTIONS]%s%s\n", prog, synopsis ? " " : "",
		synopsis ? synopsis : "");
	if (description)
		fprintf(out, "\n%s\n", description);
	for (size_t i = 0; i < nsets; i++) {
		if (!sets[i].options->name ||
		    sets[i].options->kind == SPAA_OPTION_HINT)
			continue;
		/* a set without heading goes on with the block before it */
		if (sets[i].heading)
			fprintf(out, "\n%s:\n", sets[i].heading);
		for (const struct spaa_option *o = sets[i].options; o->name; o++) {
			int n;

			if (o->kind == SPAA_OPTION_HINT)
				continue;
			n = help_name(name, sizeof(name), o);

			fprintf(out, "  %s%*s%s\n", name, width + 2 - n, "", o->help);
		}
	}
	if (footer)
		fprintf(out, "\n%s\n", footer);
	fprintf(out, "\nSee %s(1).\n", prog);
}
