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

/* "a, b or c" of the choices, for the message of a bad value. */
static void list_choices(const char *const *c, char *buf, size_t size)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; c[i] && at < size; i++)
		at += (size_t)snprintf(buf + at, size - at, "%s%s",
				       !i ? "" : c[i + 1] ? ", " : " or ", c[i]);
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
		for (int i = 0; o->choices[i]; i++)
			if (!strcmp(o->choices[i], value)) {
				*(int *)dest = i;
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
	}
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
			o = arg[2] ? NULL : find(sets, nsets, NULL, 0, arg[1], &base);
			name = o ? o->name : NULL;
			eq = NULL;
			len = 0;
		} else {
			name = arg + 2;
			eq = strchr(name, '=');
			len = eq ? (size_t)(eq - name) : strlen(name);
			o = find(sets, nsets, name, len, 0, &base);
		}
		if (!o) {
			/* the name alone, without "=value" */
			spaa_error_set(err, SPAA_E_USAGE, "unknown option '%.*s'",
				       (int)(arg[1] == '-' ? len + 2 : strlen(arg)), arg);
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
			int w = help_name(name, sizeof(name), o);

			if (w > width)
				width = w;
		}
	fprintf(out, "usage: %s [OPTIONS]%s%s\n", prog, synopsis ? " " : "",
		synopsis ? synopsis : "");
	if (description)
		fprintf(out, "\n%s\n", description);
	for (size_t i = 0; i < nsets; i++) {
		if (!sets[i].options->name)
			continue;
		/* a set without heading goes on with the block before it */
		if (sets[i].heading)
			fprintf(out, "\n%s:\n", sets[i].heading);
		for (const struct spaa_option *o = sets[i].options; o->name; o++) {
			int n = help_name(name, sizeof(name), o);

			fprintf(out, "  %s%*s%s\n", name, width + 2 - n, "", o->help);
		}
	}
	if (footer)
		fprintf(out, "\n%s\n", footer);
	fprintf(out, "\nSee %s(1).\n", prog);
}
