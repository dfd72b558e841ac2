/*
 * spaa-tracecompass-setup - puts the analyses and the SPAA trace type
 * into a Trace Compass workspace, or takes them out (--remove).
 *
 * What it installs is what make install put beside it, in
 * BINDIR/../share/spaa-tools/tracecompass/: the analyses' descriptors
 * (*.properties), copied into the LAMI plugin's user-defined-configs
 * directory, and the Definition of tracecompass-parser.xml, merged into
 * the workspace's custom_txt_parsers.xml (formats/tc_parsers.h), where
 * the user's other definitions stay as they are.  Everything is read and
 * checked first, so a file that cannot be read changes nothing; files are
 * replaced through temporary files (io/output.h); a parser list about to
 * change is copied to custom_txt_parsers.xml.bak first.  A file already
 * as it should be is not written: a second run changes nothing.
 *
 * Exit status: 0 done (or nothing to do), 1 a file could not be read or
 * written, 2 usage.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats/tc_parsers.h"
#include "io/output.h"
#include "model/sbuf.h"
#include "model/util.h"
#include "report/option.h"
#include "report/version.h"

#define PROG "spaa-tracecompass-setup"

/* Trace Compass keeps these under WORKSPACE/.metadata/.plugins/. */
#define LAMI_DIR "org.eclipse.tracecompass.analysis.lami.core/user-defined-configs"
#define TMF_DIR "org.eclipse.tracecompass.tmf.core"
#define PARSERS "custom_txt_parsers.xml"
/* A parser list is a few kilobytes a definition: more is not one. */
#define MAX_FILE (16u << 20)

static const char description[] =
	"Installs the spaa-tools analyses into a Trace Compass workspace (their\n"
	"descriptors, in the LAMI plugin's user-defined-configs directory) and\n"
	"the trace type that opens a SPAA file as a trace (its definition,\n"
	"merged into the workspace's custom_txt_parsers.xml, the user's other\n"
	"parsers kept, the file saved as custom_txt_parsers.xml.bak before it\n"
	"changes).  Run it while Trace Compass is closed.  Running it again\n"
	"changes nothing; --remove takes out exactly what it put in.\n"
	"The workspace is --workspace DIR, else $TRACING_RCP_ROOT, else\n"
	"~/.tracecompass.";

struct options {
	const char *workspace;
	bool remove;
};

static const struct spaa_option options[] = {
	{ "workspace", 0, SPAA_OPTION_STRING, offsetof(struct options, workspace), "DIR",
	  "the Trace Compass workspace (default: $TRACING_RCP_ROOT, else ~/.tracecompass)",
	  NULL, NULL },
	{ "remove", 0, SPAA_OPTION_FLAG, offsetof(struct options, remove), NULL,
	  "take the analyses and the trace type out of the workspace", NULL, NULL },
	{ NULL, 0, 0, 0, NULL, NULL, NULL, NULL },
};

/* --help and --version (nothing is read that --threads could share out). */
static const struct spaa_option program_options[] = {
	{ "help", 'h', SPAA_OPTION_FLAG, offsetof(struct spaa_option_program, help),
	  NULL, "show this help and exit", NULL, NULL },
	{ "version", 0, SPAA_OPTION_FLAG, offsetof(struct spaa_option_program, version),
	  NULL, "show the version and exit", NULL, NULL },
	{ NULL, 0, 0, 0, NULL, NULL, NULL, NULL },
};

/* A file to write (content owned) or to remove (content NULL). */
struct change {
	char *path;
	char *content;
	size_t len;
};

struct plan {
	struct change *v;
	size_t nr, alloc;
};

static void plan_add(struct plan *p, char *path, char *content, size_t len)
{
	SPAA_ALLOC_GROW(p->v, p->nr + 1, p->alloc);
	p->v[p->nr++] = (struct change){ path, content, len };
}

static void plan_release(struct plan *p)
{
	for (size_t i = 0; i < p->nr; i++) {
		free(p->v[i].path);
		free(p->v[i].content);
	}
	free(p->v);
}

static char *join(const char *a, const char *b)
{
	struct spaa_sbuf sb = { 0 };

	spaa_sbuf_printf(&sb, "%s/%s", a, b);
	return spaa_sbuf_detach(&sb);
}

/*
 * The whole of a regular file into *buf (owned, NUL-terminated).  1 read,
 * 0 no such file (missing ok), -1 err.
 */
static int slurp(const char *path, bool missing_ok, struct spaa_sbuf *buf,
		 struct spaa_error *err)
{
	char chunk[65536];
	struct stat st;
	size_t got;
	FILE *f = fopen(path, "rb");

	buf->len = 0;
	if (!f) {
		if (missing_ok && errno == ENOENT)
			return 0;
		return spaa_error_path(err, path, errno);
	}
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		fclose(f);
		return spaa_error_at(err, SPAA_E_IO, path, 0, "not a regular file");
	}
	while ((got = fread(chunk, 1, sizeof(chunk), f))) {
		if (buf->len + got > MAX_FILE) {
			fclose(f);
			return spaa_error_at(err, SPAA_E_LIMIT, path, 0,
					     "larger than %u MiB", MAX_FILE >> 20);
		}
		spaa_sbuf_add(buf, chunk, got);
	}
	if (ferror(f)) {
		fclose(f);
		return spaa_error_path(err, path, EIO);
	}
	fclose(f);
	/* NUL-terminated, and never NULL, even when empty */
	spaa_sbuf_add(buf, "", 1);
	buf->len--;
	return 1;
}

/* Whether path holds exactly len bytes of content. */
static bool same(const char *path, const char *content, size_t len)
{
	struct spaa_sbuf old = { 0 };
	struct spaa_error ignored;
	bool eq = slurp(path, true, &old, &ignored) == 1 && old.len == len &&
		  !memcmp(old.s, content, len);

	free(old.s);
	return eq;
}

/* Where make install put the descriptors and the parser: beside bin/. */
static int data_dir(char *out, size_t size, struct spaa_error *err)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return spaa_error_set(err, SPAA_E_IO, "cannot tell where %s is installed", PROG);
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	*slash = '\0';
	snprintf(out, size, "%s/../share/spaa-tools/tracecompass", exe);
	if (access(out, R_OK | X_OK))
		return spaa_error_at(err, SPAA_E_NOT_FOUND, out, 0,
				     "no descriptors here: run the installed %s (make install puts them beside it)",
				     PROG);
	return 0;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The descriptors: one change per *.properties of data, into lami. */
static int plan_descriptors(const char *data, const char *lami, bool remove,
			    struct plan *p, struct spaa_error *err)
{
	struct spaa_sbuf content = { 0 };
	char **names = NULL;
	size_t nr = 0, alloc = 0;
	struct dirent *e;
	DIR *d = opendir(data);
	int ret = -1;

	if (!d)
		return spaa_error_path(err, data, errno);
	while ((e = readdir(d))) {
		size_t k = strlen(e->d_name);

		if (k > 11 && !strcmp(e->d_name + k - 11, ".properties")) {
			SPAA_ALLOC_GROW(names, nr + 1, alloc);
			names[nr++] = spaa_xstrdup(e->d_name);
		}
	}
	closedir(d);
	if (!nr) {
		spaa_error_at(err, SPAA_E_NOT_FOUND, data, 0, "no *.properties descriptors");
		goto out;
	}
	qsort(names, nr, sizeof(*names), compare_names);
	for (size_t i = 0; i < nr; i++) {
		char *src = join(data, names[i]), *dst = join(lami, names[i]);
		int r = remove ? 1 : slurp(src, false, &content, err);

		free(src);
		if (r < 0) {
			free(dst);
			goto out;
		}
		if (remove)
			plan_add(p, dst, NULL, 0);
		else
			plan_add(p, dst, spaa_xstrndup(content.s, content.len), content.len);
	}
	ret = 0;
out:
	for (size_t i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	free(content.s);
	return ret;
}

/*
 * The parser list: ours (the one Definition of data's parser file) put
 * into or taken out of the workspace's, with a backup when that changes.
 */
static int plan_parsers(const char *data, const char *tmf, bool remove,
			struct plan *p, struct spaa_error *err)
{
	struct spaa_sbuf ours = { 0 }, theirs = { 0 }, merged = { 0 };
	struct spaa_tc_list ol, tl;
	char *src = join(data, "tracecompass-parser.xml"), *dst = join(tmf, PARSERS);
	const struct spaa_tc_definition *d;
	size_t n;
	int have, ret = -1;

	memset(&tl, 0, sizeof(tl));
	if (slurp(src, false, &ours, err) < 0 ||
	    spaa_tc_list_parse(ours.s, ours.len, src, &ol, err))
		goto out;
	if (ol.nr != 1) {
		spaa_error_at(err, SPAA_E_INVALID, src, 0, "holds %zu definitions, not one", ol.nr);
		goto out;
	}
	d = &ol.defs[0];
	have = slurp(dst, true, &theirs, err);
	if (have < 0 || (have && spaa_tc_list_parse(theirs.s, theirs.len, dst, &tl, err)))
		goto out;
	if (remove && (!have || spaa_tc_list_find(&tl, d->category, d->name) < 0)) {
		ret = 0;        /* not there: nothing to undo */
		goto out;
	}
	spaa_tc_list_merge(have ? theirs.s : NULL, theirs.len, &tl, d->category, d->name,
			   remove ? NULL : ours.s + d->begin, d->end - d->begin, &merged);
	n = theirs.len;
	if (have && (merged.len != n || memcmp(merged.s, theirs.s, n)))
		plan_add(p, join(tmf, PARSERS ".bak"), spaa_sbuf_detach(&theirs), n);
	/* unchanged, it is said so and not written */
	n = merged.len;
	plan_add(p, dst, spaa_sbuf_detach(&merged), n);
	dst = NULL;
	ret = 0;
out:
	spaa_tc_list_release(&tl);
	spaa_tc_list_release(&ol);
	free(ours.s);
	free(theirs.s);
	free(merged.s);
	free(src);
	free(dst);
	return ret;
}

/* mkdir -p of the directory path is in. */
static int make_parent(const char *path, struct spaa_error *err)
{
	char *dir = spaa_xstrdup(path), *s;
	int ret = 0;

	for (s = dir + 1; *s && !ret; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(dir, 0777) && errno != EEXIST)
			ret = spaa_error_path(err, dir, errno);
		*s = '/';
	}
	free(dir);
	return ret;
}

static int apply(const struct change *c, struct spaa_error *err)
{
	struct spaa_output *out;

	if (!c->content) {
		if (unlink(c->path) == 0) {
			printf("removed %s\n", c->path);
			return 0;
		}
		return errno == ENOENT ? 0 : spaa_error_path(err, c->path, errno);
	}
	if (same(c->path, c->content, c->len)) {
		printf("unchanged %s\n", c->path);
		return 0;
	}
	if (make_parent(c->path, err) ||
	    spaa_output_open(&out, c->path, SPAA_INPUT_COMP_NONE, 0, err))
		return -1;
	if (spaa_output_write(out, c->content, c->len, err)) {
		spaa_output_abort(out);
		return -1;
	}
	if (spaa_output_close(out, err))
		return -1;
	printf("wrote %s\n", c->path);
	return 0;
}

static int fail(const struct spaa_error *err, int status)
{
	char msg[2200];

	spaa_error_format(err, msg, sizeof(msg));
	fprintf(stderr, PROG ": error: %s%s\n", spaa_clean_controls(msg),
		status == 2 ? " (see --help)" : "");
	return status;
}

int main(int argc, char **argv)
{
	struct options opt = { 0 };
	struct spaa_option_program prog = { 0 };
	const struct spaa_option_set sets[] = {
		{ "Options", options, &opt },
		{ NULL, program_options, &prog },
	};
	struct spaa_option_args args;
	struct spaa_error err;
	struct plan plan = { 0 };
	struct spaa_sbuf ws = { 0 };
	char data[PATH_MAX + 64], *lami = NULL, *tmf = NULL;
	const char *env = getenv("TRACING_RCP_ROOT"), *home = getenv("HOME");
	int status = 1;

	spaa_error_init(&err);
	if (spaa_option_parse(argc, argv, sets, 2, &args, &err))
		return fail(&err, 2);
	if (prog.help || prog.version) {
		if (prog.help)
			spaa_option_help(stdout, PROG, "", description, sets, 2,
					 "Exit status: 0 done, 1 a file could not be read or written, 2 usage.");
		else
			printf(PROG " (spaa-tools) %s\n", SPAA_VERSION);
		spaa_option_args_release(&args);
		return fflush(stdout) ? 1 : 0;
	}
	if (args.nr) {
		spaa_error_set(&err, SPAA_E_USAGE, "unexpected argument '%s'", args.items[0]);
		spaa_option_args_release(&args);
		return fail(&err, 2);
	}
	spaa_option_args_release(&args);
	if (opt.workspace && *opt.workspace)
		spaa_sbuf_adds(&ws, opt.workspace);
	else if (env && *env)
		spaa_sbuf_adds(&ws, env);
	else if (home && *home)
		spaa_sbuf_printf(&ws, "%s/.tracecompass", home);
	else {
		spaa_error_set(&err, SPAA_E_USAGE,
			       "no workspace: give --workspace DIR (HOME is not set)");
		return fail(&err, 2);
	}
	lami = join(ws.s, ".metadata/.plugins/" LAMI_DIR);
	tmf = join(ws.s, ".metadata/.plugins/" TMF_DIR);
	/* everything read and checked before anything is written */
	/* the parser list first: the one file of the user's that changes */
	if (data_dir(data, sizeof(data), &err) ||
	    plan_parsers(data, tmf, opt.remove, &plan, &err) ||
	    plan_descriptors(data, lami, opt.remove, &plan, &err)) {
		fail(&err, 1);
		goto out;
	}
	for (size_t i = 0; i < plan.nr; i++)
		if (apply(&plan.v[i], &err)) {
			fail(&err, 1);
			goto out;
		}
	status = 0;
out:
	plan_release(&plan);
	free(lami);
	free(tmf);
	free(ws.s);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, PROG ": error: cannot write the output\n");
		status = 1;
	}
	return status;
}
