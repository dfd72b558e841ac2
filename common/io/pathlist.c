/* qsort_r */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "io/input.h"
#include "io/pathlist.h"
#include "model/util.h"

static int has_suffix(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len > n && !memcmp(s + len - n, suffix, n);
}

/*
 * A profile by name: SPAA, and the other formats the loader reads (told
 * from the content once listed), each also compressed.
 */
static int is_spaa_name(const char *name)
{
	static const char *const suffixes[] = {
		".spaa", ".ndjson", ".pb", ".pprof", ".perf", ".perf-script",
		".perf-script.txt", ".folded", ".perf.data", ".cpuprofile",
		".heapprofile", ".heapsnapshot", ".heaptimeline",
	};
	static const char *const comp[] = { "", ".gz", ".zst" };
	size_t len = strlen(name);

	if (!strcmp(name, "perf.data"))
		return 1;
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
		for (size_t j = 0; j < 3; j++) {
			char s[64];

			snprintf(s, sizeof(s), "%s%s", suffixes[i], comp[j]);
			if (has_suffix(name, len, s))
				return 1;
		}
	return 0;
}

/* dir + "/" + name[0..name_len) + suffix, without doubling a '/'. */
static char *path_join(const char *dir, const char *name, size_t name_len,
		       const char *suffix)
{
	size_t dl = strlen(dir), sl = strlen(suffix);
	int sep = dl && dir[dl - 1] != '/';
	char *p = spaa_xmalloc(dl + (size_t)sep + name_len + sl + 1);

	memcpy(p, dir, dl);
	if (sep)
		p[dl] = '/';
	memcpy(p + dl + sep, name, name_len);
	memcpy(p + dl + sep + name_len, suffix, sl + 1);
	return p;
}

/*
 * 1 if path is a regular file, 0 if it is something else or vanished
 * (a dangling symlink is not a profile), -1 on any other stat error.
 */
static int is_regular(const char *path, struct spaa_error *err)
{
	struct stat st;

	if (stat(path, &st)) {
		if (errno == ENOENT || errno == ENOTDIR || errno == ELOOP)
			return 0;
		return spaa_error_path(err, path, errno);
	}
	return S_ISREG(st.st_mode) ? 1 : 0;
}

/*
 * s[0..len) and a NUL appended to list's text: its offset in *off, or -1
 * with err when the text would pass what a uint32_t offset reaches.
 */
static int text_add(struct spaa_pathlist *list, const char *s, size_t len,
		    uint32_t *off, struct spaa_error *err)
{
	if (!list->text_len) {
		SPAA_ALLOC_GROW(list->text, 1, list->text_alloc);
		list->text[list->text_len++] = '\0';
	}
	if (len >= UINT32_MAX - list->text_len)
		return spaa_error_set(err, SPAA_E_LIMIT,
				      "the names of the files to read pass 4 GiB");
	SPAA_ALLOC_GROW(list->text, list->text_len + len + 1, list->text_alloc);
	memcpy(list->text + list->text_len, s, len);
	list->text[list->text_len + len] = '\0';
	*off = (uint32_t)list->text_len;
	list->text_len += len + 1;
	return 0;
}

/*
 * Puts name i of list after the first base bytes of buf (its
 * directory), decoding from the whole name before it.
 */
static void name_decode(const struct spaa_pathlist *list, size_t i, struct spaa_sbuf *buf,
			size_t base)
{
	size_t k = i - i % SPAA_PATHLIST_RESTART;
	const unsigned char *p = list->names + list->restart[k / SPAA_PATHLIST_RESTART];

	for (; k <= i; k++) {
		size_t lcp = p[0], lcs = p[1], mid = strlen((const char *)p + 2);
		char tail[UINT8_MAX];

		/* the suffix shared is the end of the name before, kept aside */
		memcpy(tail, buf->s + buf->len - lcs, lcs);
		buf->len = base + lcp;
		spaa_sbuf_add(buf, (const char *)p + 2, mid);
		spaa_sbuf_add(buf, tail, lcs);
		p += 2 + mid + 1;
	}
}

/* Appends path name[0..len) of directory dir (an offset into text) and kind. */
static int pathlist_append(struct spaa_pathlist *list, uint32_t dir, const char *name,
			   size_t len, enum spaa_pathlist_kind kind, struct spaa_error *err)
{
	struct spaa_sbuf prev = { 0 };
	size_t lcp = 0, lcs = 0;

	if (list->nr % SPAA_PATHLIST_RESTART) {
		spaa_sbuf_add(&prev, "", 0);
		name_decode(list, list->nr - 1, &prev, 0);
		while (lcp < UINT8_MAX && lcp < len && lcp < prev.len && name[lcp] == prev.s[lcp])
			lcp++;
		while (lcs < UINT8_MAX && lcp + lcs < len && lcp + lcs < prev.len &&
		       name[len - 1 - lcs] == prev.s[prev.len - 1 - lcs])
			lcs++;
		free(prev.s);
	}
	if (list->names_len + len + 3 > UINT32_MAX)
		return spaa_error_set(err, SPAA_E_LIMIT,
				      "the names of the files to read pass 4 GiB");
	if (!(list->nr % SPAA_PATHLIST_RESTART)) {
		SPAA_ALLOC_GROW(list->restart, list->nr / SPAA_PATHLIST_RESTART + 1,
				list->restart_alloc);
		list->restart[list->nr / SPAA_PATHLIST_RESTART] = (uint32_t)list->names_len;
	}
	if (!list->nruns || list->runs[list->nruns - 1].dir != dir) {
		SPAA_ALLOC_GROW(list->runs, list->nruns + 1, list->runs_alloc);
		list->runs[list->nruns].first = list->nr;
		list->runs[list->nruns++].dir = dir;
	}
	SPAA_ALLOC_GROW(list->names, list->names_len + 3 + len - lcp - lcs, list->names_alloc);
	list->names[list->names_len++] = (unsigned char)lcp;
	list->names[list->names_len++] = (unsigned char)lcs;
	memcpy(list->names + list->names_len, name + lcp, len - lcp - lcs);
	list->names_len += len - lcp - lcs;
	list->names[list->names_len++] = '\0';
	SPAA_ALLOC_GROW(list->kinds, list->nr + 1, list->alloc);
	list->kinds[list->nr++] = (unsigned char)kind;
	return 0;
}

/* A path given whole (not found in a directory) appended. */
static int append_path(struct spaa_pathlist *list, const char *path,
		       enum spaa_pathlist_kind kind, struct spaa_error *err)
{
	return pathlist_append(list, 0, path, strlen(path), kind, err);
}

const char *spaa_pathlist_path(const struct spaa_pathlist *list, size_t i,
			       struct spaa_sbuf *buf)
{
	size_t lo = 0, hi = list->nruns;

	/* the last run that starts at or before i */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (list->runs[mid].first <= i)
			lo = mid;
		else
			hi = mid;
	}
	buf->len = 0;
	spaa_sbuf_adds(buf, list->text ? list->text + list->runs[lo].dir : "");
	name_decode(list, i, buf, buf->len);
	return buf->s;
}

static int skip_cmp(const void *a, const void *b)
{
	const struct spaa_pathlist_skip *x = a, *y = b;

	return strcmp(x->path, y->path);
}

/*
 * Why path, named like a profile, is not a regular file to read: the
 * entries a directory skips are said, never dropped in silence.
 */
static void note_skipped(struct spaa_pathlist *list, char *path)
{
	struct stat st;
	const char *why;

	if (!stat(path, &st))
		why = S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO" :
		      S_ISSOCK(st.st_mode) ? "a socket" : "not a regular file";
	else
		why = errno == ELOOP ? "a symbolic link loop" :
		      !lstat(path, &st) && S_ISLNK(st.st_mode) ? "a dangling symbolic link" :
		      "gone while the directory was read";
	SPAA_ALLOC_GROW(list->skipped, list->nskipped + 1, list->skipped_alloc);
	list->skipped[list->nskipped].path = path;
	list->skipped[list->nskipped].why = why;
	list->nskipped++;
}

/*
 * Classifies the entry name of directory dir, whose path is path.
 * Returns 1 with *kind for a file to read, 0 to skip it (a profile's
 * name that is not a regular file is noted in list), -1 on error.
 */
static int classify_entry(struct spaa_pathlist *list, const char *dir, const char *name,
			  const char *path, enum spaa_pathlist_kind *kind,
			  struct spaa_error *err)
{
	size_t len = strlen(name);
	char *sibling;
	int r;

	if (is_spaa_name(name)) {
		*kind = SPAA_PATHLIST_SPAA;
	} else if (has_suffix(name, len, ".json") || has_suffix(name, len, ".txt.gz")) {
		/* SPX writes NAME.json (metadata) beside NAME.txt.gz (events) */
		bool meta = has_suffix(name, len, ".json");

		sibling = path_join(dir, name, len - (meta ? 5 : 7), meta ? ".txt.gz" : ".json");
		r = is_regular(sibling, err);
		free(sibling);
		if (r < 0)
			return r;
		if (r && !meta)
			return 0;       /* read with its report's metadata */
		*kind = r ? SPAA_PATHLIST_SPX : SPAA_PATHLIST_MAYBE;
	} else {
		*kind = SPAA_PATHLIST_MAYBE;
	}
	r = is_regular(path, err);
	/* only a profile's name is worth a word when it is not a file */
	if (r == 0 && *kind != SPAA_PATHLIST_MAYBE)
		note_skipped(list, spaa_xstrdup(path));
	return r;
}

/* Orders (name offset << 8 | kind) entries by the names in the text ctx. */
static int entry_cmp(const void *a, const void *b, void *ctx)
{
	const char *text = ctx;

	return strcmp(text + (*(const uint64_t *)a >> 8), text + (*(const uint64_t *)b >> 8));
}

/*
 * Appends the files of directory path, sorted by name; on error the
 * list is left as it was (but for the entries noted as skipped).
 */
static int expand_dir(const char *path, struct spaa_pathlist *list,
		      struct spaa_error *err)
{
	size_t first = list->nr, text_before = list->text_len, names_before = list->names_len;
	size_t runs_before = list->nruns, prefix, nr = 0, order_alloc = 0, norphans = 0;
	size_t skipped_before = list->nskipped, dl = strlen(path);
	struct spaa_sbuf full = { 0 };
	/* the names in readdir order, then sorted: (offset in found << 8 | kind) */
	struct spaa_sbuf found = { 0 };
	uint64_t *order = NULL;
	uint32_t dir = 0;
	char text[256];
	struct dirent *de;
	DIR *d;

	d = opendir(path);
	if (!d)
		return spaa_error_path(err, path, errno);
	/* the directory's name once, with the '/' its paths need */
	spaa_sbuf_adds(&full, path);
	if (dl && path[dl - 1] != '/')
		spaa_sbuf_adds(&full, "/");
	prefix = full.len;
	if (text_add(list, full.s, full.len, &dir, err))
		goto fail;
	for (;;) {
		enum spaa_pathlist_kind kind;
		int r;

		errno = 0;
		de = readdir(d);
		if (!de) {
			if (errno) {
				spaa_error_at(err, SPAA_E_IO, path, 0,
					      "cannot read directory: %s",
					      spaa_error_strerror(errno, text,
							 sizeof(text)));
				goto fail;
			}
			break;
		}
		/* dot files: ".", "..", editor and VCS droppings */
		if (de->d_name[0] == '.')
			continue;
		full.len = prefix;
		spaa_sbuf_adds(&full, de->d_name);
		r = classify_entry(list, path, de->d_name, full.s, &kind, err);
		if (r < 0)
			goto fail;
		if (!r)
			continue;
		/* an SPX event file without its metadata: what a killed PHP process leaves */
		norphans += kind == SPAA_PATHLIST_MAYBE &&
			    has_suffix(de->d_name, strlen(de->d_name), ".txt.gz");
		SPAA_ALLOC_GROW(order, nr + 1, order_alloc);
		order[nr++] = (uint64_t)found.len << 8 | kind;
		spaa_sbuf_add(&found, de->d_name, strlen(de->d_name) + 1);
	}
	closedir(d);
	d = NULL;

	if (nr && nr == norphans) {
		spaa_error_at(err, SPAA_E_NO_PROFILE, path, 0,
			      "no profiles in directory: %zu SPX event file(s) *.txt.gz without the metadata *.json beside them (unfinished reports: SPX writes the .json last)",
			      norphans);
		goto fail;
	}
	if (!nr) {
		spaa_error_at(err, SPAA_E_NO_PROFILE, path, 0,
			      "no profiles in directory: no files in it");
		goto fail;
	}
	/* readdir order depends on the file system; runs must not */
	qsort_r(order, nr, sizeof(*order), entry_cmp, found.s);
	for (size_t i = 0; i < nr; i++) {
		const char *name = found.s + (order[i] >> 8);

		if (pathlist_append(list, dir, name, strlen(name),
				    (enum spaa_pathlist_kind)(order[i] & 0xff), err))
			goto fail;
	}
	if (list->nskipped > skipped_before)     /* never NULL + 0 */
		qsort(list->skipped + skipped_before, list->nskipped - skipped_before,
		      sizeof(*list->skipped), skip_cmp);
	free(order);
	free(found.s);
	free(full.s);
	return 0;
fail:
	if (d)
		closedir(d);
	list->nr = first;
	list->text_len = text_before;
	list->names_len = names_before;
	list->nruns = runs_before;
	free(order);
	free(found.s);
	free(full.s);
	return -1;
}

/* path with suffix replaced by other, or NULL when path lacks suffix */
static char *swap_suffix(const char *path, const char *suffix,
			 const char *other)
{
	size_t len = strlen(path);

	if (!has_suffix(path, len, suffix))
		return NULL;
	return path_join("", path, len - strlen(suffix), other);
}

/* Whether the first byte of path after blanks is '{' (JSON metadata). */
static int starts_with_brace(const char *path)
{
	char buf[256];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	for (ssize_t i = 0; i < n; i++)
		if (!isspace((unsigned char)buf[i]))
			return buf[i] == '{';
	return 0;
}

/* Whether path's (decompressed) text starts with the line "[events]". */
static int starts_with_events(const char *path)
{
	struct spaa_input *in;
	char *line;
	size_t len;
	int r;

	if (spaa_input_open(&in, path, NULL, NULL))
		return 0;
	r = spaa_input_getline(in, &line, &len, NULL) > 0 &&
		!strcmp(line, "[events]");
	spaa_input_close(in);
	return r;
}

/*
 * A file named on the command line is an SPX report (by name plus
 * content) when it is KEY.json, KEY.txt.gz exists beside it and the
 * file starts with '{'; or when it is KEY.txt.gz and KEY.json exists
 * beside it or its text starts with "[events]" (a report without its
 * metadata: the SPX reader says so).  *json is then the KEY.json path
 * (owned by the caller).  Anything else is left to content: SPAA.
 */
static enum spaa_pathlist_kind file_kind(const char *path, char **json)
{
	char *other;
	int r;

	if ((other = swap_suffix(path, ".json", ".txt.gz"))) {
		r = is_regular(other, NULL) > 0 && starts_with_brace(path);
		free(other);
		if (r) {
			*json = spaa_xstrdup(path);
			return SPAA_PATHLIST_SPX;
		}
	} else if ((other = swap_suffix(path, ".txt.gz", ".json"))) {
		if (is_regular(other, NULL) > 0 || starts_with_events(path)) {
			*json = other;
			return SPAA_PATHLIST_SPX;
		}
		free(other);
	}
	return SPAA_PATHLIST_SPAA;
}

int spaa_pathlist_expand(const char *path, struct spaa_pathlist *list,
		      struct spaa_error *err)
{
	struct stat st;
	char *json = NULL;

	if (!strcmp(path, "-"))
		return append_path(list, path, SPAA_PATHLIST_SPAA, err);
	if (stat(path, &st))
		return spaa_error_path(err, path, errno);
	if (S_ISDIR(st.st_mode))
		return expand_dir(path, list, err);
	if (file_kind(path, &json) == SPAA_PATHLIST_SPX) {
		int r = append_path(list, json, SPAA_PATHLIST_SPX, err);

		free(json);
		return r;
	}
	return append_path(list, path, SPAA_PATHLIST_SPAA, err);
}

uint64_t spaa_pathlist_size(const struct spaa_pathlist *list, uint64_t min, bool *big)
{
	struct spaa_sbuf buf = { 0 };
	uint64_t total = 0;

	for (size_t i = 0; i < list->nr; i++) {
		const char *path = spaa_pathlist_path(list, i, &buf);
		uint64_t size = 0;
		struct stat st;
		char *events;

		if (list->kinds[i] == SPAA_PATHLIST_SPX &&
		    (events = swap_suffix(path, ".json", ".txt.gz"))) {
			/* an SPX report is read from both of its files */
			if (!stat(events, &st) && S_ISREG(st.st_mode) && st.st_size >= 0)
				size = (uint64_t)st.st_size;
			free(events);
		}
		if (strcmp(path, "-") && !stat(path, &st) && S_ISREG(st.st_mode) &&
		    st.st_size >= 0 && spaa_add_u64(size, (uint64_t)st.st_size, &size))
			size = UINT64_MAX;
		if (big)
			big[i] = size && size >= min;
		if (total != UINT64_MAX && spaa_add_u64(total, size, &total))
			total = UINT64_MAX;
	}
	free(buf.s);
	return total;
}

void spaa_pathlist_release(struct spaa_pathlist *list)
{
	for (size_t i = 0; i < list->nskipped; i++)
		free(list->skipped[i].path);
	free(list->text);
	free(list->runs);
	free(list->names);
	free(list->restart);
	free(list->kinds);
	free(list->skipped);
	memset(list, 0, sizeof(*list));
}
