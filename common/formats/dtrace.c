#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/calltree.h"
#include "formats/dtrace.h"
#include "model/sbuf.h"
#include "model/util.h"

#define UNKNOWN_DSO "[unknown]"

/* A line of the block being read: offset into the arena, its number. */
struct line {
	size_t off, len;
	unsigned long no;
};

struct frame_key {
	uint32_t name, dso;
	uint32_t kernel, resolved;
};

/*
 * What the keys before a stack say: the process and thread ids and the
 * text of the other keys (execname, probefunc...).  One call tree each.
 */
struct tree_key {
	uint32_t comm, pad;
	int64_t pid, tid;
};

/* What a column of the keys is (from "# keys:", else from its text). */
enum key_role { KEY_TEXT, KEY_PID, KEY_TID };

struct dt {
	struct spaa_profile *p;
	const struct spaa_load_opts *o;
	struct spaa_input *in;
	const char *path;
	uint32_t file, event;
	bool have_event;

	/* header lines */
	char *event_name, *metric;
	double freq;
	bool has_freq;

	struct spaa_sbuf arena;
	struct line *lines;
	size_t nlines, lines_alloc;

	struct spaa_map frames; /* frame_key -> index in frame_of */
	uint32_t *frame_of;
	size_t frame_alloc;
	struct spaa_map tree_map;       /* tree_key -> index in trees */
	struct spaa_calltree *trees;
	size_t trees_alloc;
	enum key_role *key_roles;       /* of "# keys:"; NULL: told by the text */
	size_t nkey_roles;

	uint64_t entries, skipped;
	unsigned long first_skipped;
};

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static void trim(const char **s, size_t *n)
{
	while (*n && blank(**s))
		(*s)++, (*n)--;
	while (*n && blank((*s)[*n - 1]))
		(*n)--;
}

static size_t indent(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

static bool all_digits(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

static bool is_hex_addr(const char *s, size_t n)
{
	if (n < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return false;
	for (size_t i = 2; i < n; i++)
		if (!strchr("0123456789abcdefABCDEF", s[i]) || !s[i])
			return false;
	return true;
}

/* A value line: an integer alone, perhaps negative (sum() can be). */
static bool value_line(const char *s, size_t n)
{
	trim(&s, &n);
	if (n && *s == '-')
		s++, n--;
	return all_digits(s, n);
}

static bool contains(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle);

	for (size_t i = 0; i + k <= n; i++)
		if (!memcmp(s + i, needle, k))
			return true;
	return false;
}

static bool starts(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && !memcmp(s, prefix, k);
}

/* ---- sniffing ------------------------------------------------------------- */

bool spaa_dtrace_sniff(const char *data, size_t len, bool whole)
{
	const char *end = data + len, *nl;
	bool in_block = false, framey = false;

	for (; data < end; data = nl + 1) {
		size_t n;

		nl = memchr(data, '\n', (size_t)(end - data));
		if (!nl && !whole)
			return false;   /* decide on whole lines only */
		if (!nl)
			nl = end;
		n = (size_t)(nl - data);
		if (n && data[n - 1] == '\r')
			n--;
		if (!in_block) {
			const char *s = data;
			size_t k = n;

			trim(&s, &k);
			if (!k)
				continue;
			if (starts(data, n, "dtrace: ") || starts(data, n, "# event:") ||
			    starts(data, n, "# frequency:") || starts(data, n, "# metric:") ||
			    starts(data, n, "# keys:") ||
			    (starts(data, n, "CPU ") && contains(data, n, "FUNCTION:NAME")))
				return true;
			if (!indent(data, n))
				return false;
			in_block = true;
		}
		if (indent(data, n) == n)
			return false;   /* the first block ended without a value */
		/* before any frame, digits are a key (@[pid, ustack()]) */
		if (value_line(data, n) && framey)
			return true;
		{
			const char *s = data;
			size_t k = n;

			trim(&s, &k);
			framey |= memchr(s, '`', k) || is_hex_addr(s, k);
		}
	}
	return false;
}

/* ---- header lines --------------------------------------------------------- */

/* "profile-997", "profile-5ms", "tick-100hz" ... -> Hz, else 0. */
static double rate_of(const char *probe)
{
	static const struct {
		const char *unit;
		double per_second;      /* 1 / the unit in seconds; 0: the number is Hz */
	} units[] = {
		{ "hz", 0 }, { "", 0 }, { "ns", 1e9 }, { "nsec", 1e9 }, { "us", 1e6 },
		{ "usec", 1e6 }, { "ms", 1e3 }, { "msec", 1e3 }, { "s", 1 }, { "sec", 1 },
	};
	const char *s = strstr(probe, "profile-");
	char *e;
	double n;

	if (!s)
		return 0;
	s += 8;
	if (*s < '0' || *s > '9')
		return 0;
	n = strtod(s, &e);
	if (!(n > 0) || !isfinite(n))
		return 0;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(e, units[i].unit))
			return units[i].per_second ? units[i].per_second / n : n;
	return 0;
}

static void set_str(char **dst, const char *s, size_t n)
{
	free(*dst);
	*dst = spaa_xstrndup(s, n);
}

/*
 * "# keys: execname, pid, ustack()": what each column of the keys is, as
 * the D program's key list says (the text holds only values).  Stack
 * keys print as the stack, not as a column.  Returns 1.
 */
static int key_roles(struct dt *d, const char *s, size_t n)
{
	size_t alloc = 0;

	free(d->key_roles);
	d->key_roles = NULL;
	d->nkey_roles = 0;
	for (size_t i = 0, j; i < n; i = j) {
		for (; i < n && (blank(s[i]) || s[i] == ','); i++)
			;
		for (j = i; j < n && !blank(s[j]) && s[j] != ','; j++)
			;
		if (j == i || contains(s + i, j - i, "stack("))
			continue;
		SPAA_ALLOC_GROW(d->key_roles, d->nkey_roles + 1, alloc);
		d->key_roles[d->nkey_roles++] =
			j - i == 3 && !memcmp(s + i, "pid", 3) ? KEY_PID :
			j - i == 3 && !memcmp(s + i, "tid", 3) ? KEY_TID : KEY_TEXT;
	}
	/* "# keys:" naming no column still says: no pid, no tid */
	if (!d->key_roles)
		d->key_roles = spaa_xcalloc(1, sizeof(*d->key_roles));
	return 1;
}

/* A header line; returns 1 when it was one, 0 when not, -1 on a bad value. */
static int header(struct dt *d, const char *s, size_t n, unsigned long no,
		  struct spaa_error *err)
{
	static const char desc[] = "dtrace: description '";
	const char *v;
	size_t k;

	if (starts(s, n, desc)) {
		const char *q = memchr(s + sizeof(desc) - 1, '\'', n - (sizeof(desc) - 1));

		if (!q)
			return 1;
		v = s + sizeof(desc) - 1;
		k = (size_t)(q - v);
		trim(&v, &k);
		if (!d->event_name && k)
			set_str(&d->event_name, v, k);
		return 1;
	}
	if (!starts(s, n, "# "))
		return 0;
	v = memchr(s, ':', n);
	if (!v)
		return 0;
	k = n - (size_t)(v + 1 - s);
	v++;
	trim(&v, &k);
	if (starts(s, n, "# event:")) {
		if (!k)
			return spaa_error_at(err, SPAA_E_INVALID, d->path, no, "an empty event name");
		set_str(&d->event_name, v, k);
		/* a later "# event" wins over dtrace's description */
		return 1;
	}
	if (starts(s, n, "# metric:")) {
		if (!k)
			return spaa_error_at(err, SPAA_E_INVALID, d->path, no, "an empty metric name");
		set_str(&d->metric, v, k);
		return 1;
	}
	if (starts(s, n, "# keys:"))
		return key_roles(d, v, k);
	if (starts(s, n, "# frequency:")) {
		char buf[64], *e;

		if (k >= sizeof(buf))
			k = sizeof(buf) - 1;
		memcpy(buf, v, k);
		buf[k] = '\0';
		d->freq = strtod(buf, &e);
		if (!k || *e || !(d->freq >= 0) || !isfinite(d->freq) || d->freq > 1e12)
			return spaa_error_at(err, SPAA_E_INVALID, d->path, no,
					     "frequency '%s' is not a number of Hz (0 for none)", buf);
		d->has_freq = true;
		return 1;
	}
	return 0;
}

/* ---- entries ---------------------------------------------------------------- */

static int make_event(struct dt *d, struct spaa_error *err)
{
	struct spaa_profile *p = d->p;
	const char *name = d->event_name ? d->event_name : "dtrace";
	double hz = d->has_freq ? d->freq : rate_of(name);
	const char *metric = hz > 0 ? "samples" : d->metric ? d->metric : "count";
	struct spaa_event e = {
		.name = spaa_strtab_intern(&p->strings, name, strlen(name)),
		.kind = hz > 0 ? SPAA_EV_TIMER : SPAA_EV_PROBE,
		.mode = hz > 0 ? SPAA_MODE_FREQUENCY : SPAA_MODE_EVENT,
		.primary_metric = spaa_strtab_intern(&p->strings, metric, strlen(metric)),
		.frequency_hz = hz, .tracks_frees = -1, .has_timestamps = -1,
	};

	if (spaa_profile_use_event(p, &e, d->path, &d->event, err))
		return -1;
	d->have_event = true;
	return 0;
}

static struct spaa_calltree *tree_of(struct dt *d, const struct tree_key *k)
{
	struct spaa_profile *p = d->p;
	const struct spaa_event *ev = &p->events[d->event];
	const char *metric = spaa_profile_str(p, ev->primary_metric);
	struct spaa_calltree *t;
	bool created;
	uint32_t i = spaa_map_intern(&d->tree_map, k, &created);

	if (!created)
		return &d->trees[i];
	SPAA_ALLOC_GROW(d->trees, (size_t)i + 1, d->trees_alloc);
	t = &d->trees[i];
	spaa_calltree_init(t, p, d->path, d->file, d->event, &metric,
			   (const char *const[]){ NULL }, 1);
	t->comm = k->comm;
	t->pid = k->pid;
	t->tid = k->tid;
	return t;
}

static bool kernel_module(const char *s, size_t n)
{
	static const char *const names[] = { "kernel", "genunix", "unix", "mach_kernel" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (n == strlen(names[i]) && !memcmp(s, names[i], n))
			return true;
	return n > 3 && !memcmp(s + n - 3, ".ko", 3);
}

/* The frame of one stack line. */
static uint32_t frame_of(struct dt *d, const char *s, size_t n, bool kernel)
{
	struct spaa_profile *p = d->p;
	const char *tick = memchr(s, '`', n), *name = s;
	size_t name_len = n;
	struct frame_key k;
	struct spaa_frame f = { .inline_depth = -1 };
	bool created;
	uint32_t i;

	memset(&k, 0, sizeof(k));
	k.resolved = !is_hex_addr(s, n);
	if (tick) {
		k.dso = spaa_strtab_intern(&p->strings, s, (size_t)(tick - s));
		name = tick + 1;
		name_len = n - (size_t)(name - s);
	} else {
		k.dso = spaa_strtab_intern(&p->strings, UNKNOWN_DSO, strlen(UNKNOWN_DSO));
	}
	/* "+0x1a4": the offset of the call site, not part of the function */
	for (size_t j = name_len; k.resolved && j-- > 0;) {
		if (name[j] == '+') {
			if (is_hex_addr(name + j + 1, name_len - j - 1))
				name_len = j;
			break;
		}
	}
	if (!name_len) {
		name = s;
		name_len = n;
	}
	k.name = spaa_strtab_intern(&p->strings, name, name_len);
	k.kernel = kernel;
	i = spaa_map_intern(&d->frames, &k, &created);
	if (created) {
		f.fn = spaa_profile_intern_function(p, k.name,
						    spaa_profile_intern_dso(p, k.dso, 0, kernel));
		f.kind = kernel ? SPAA_FRAME_KERNEL : SPAA_FRAME_USER;
		f.func_resolved = k.resolved;
		if (!k.resolved)
			f.ip = k.name;
		SPAA_ALLOC_GROW(p->frames, (size_t)p->nframes + 1, p->frames_alloc);
		SPAA_ALLOC_GROW(d->frame_of, (size_t)i + 1, d->frame_alloc);
		d->frame_of[i] = p->nframes;
		p->frames[p->nframes++] = f;
	}
	return d->frame_of[i];
}

static const char *line_at(const struct dt *d, size_t i, size_t *n)
{
	*n = d->lines[i].len;
	return d->arena.s + d->lines[i].off;
}

static void skip(struct dt *d, unsigned long no)
{
	if (!d->skipped++)
		d->first_skipped = no;
}

/*
 * The key columns of lines [0, nkeys) (one space apart, a line after
 * another): the roles "# keys:" gives, else a column of digits is the
 * pid, a second one the tid (@[pid, ustack()], @[execname, pid, tid,
 * ustack()]: what D programs key stacks by); the other columns, one space
 * apart, are the command name (execname, probefunc...).
 */
static void read_keys(struct dt *d, size_t nkeys, struct tree_key *k,
		      struct spaa_sbuf *comm)
{
	size_t col = 0, n, j;
	const char *s;

	memset(k, 0, sizeof(*k));
	k->pid = k->tid = SPAA_NO_ID;
	for (size_t i = 0; i < nkeys; i++) {
		s = line_at(d, i, &n);
		for (size_t w = 0; w < n; w = j) {
			enum key_role role;
			int64_t *id;
			uint64_t v;
			char buf[24];

			for (; w < n && blank(s[w]); w++)
				;
			for (j = w; j < n && !blank(s[j]); j++)
				;
			if (j == w)
				break;
			if (d->key_roles)
				role = col < d->nkey_roles ? d->key_roles[col] : KEY_TEXT;
			else
				role = !all_digits(s + w, j - w) ? KEY_TEXT :
				       k->pid == SPAA_NO_ID ? KEY_PID :
				       k->tid == SPAA_NO_ID ? KEY_TID : KEY_TEXT;
			col++;
			id = role == KEY_PID ? &k->pid : role == KEY_TID ? &k->tid : NULL;
			if (id && all_digits(s + w, j - w) && j - w < sizeof(buf) &&
			    (memcpy(buf, s + w, j - w), buf[j - w] = '\0',
			     !spaa_parse_u64(buf, &v)) && v <= INT64_MAX) {
				*id = (int64_t)v;
				continue;
			}
			if (comm->len)
				spaa_sbuf_add(comm, " ", 1);
			spaa_sbuf_add(comm, s + w, j - w);
		}
	}
	if (comm->len)
		k->comm = spaa_strtab_intern(&d->p->strings, comm->s, comm->len);
}

/* A block ending with its value line: keys, frames (leaf first), value. */
static int entry(struct dt *d, struct spaa_error *err)
{
	size_t last = d->nlines - 1, nkeys = 0, ind, n;
	const char *s = line_at(d, last, &n);
	struct spaa_sbuf comm = { 0 };
	struct tree_key key;
	struct spaa_calltree *t;
	uint32_t node = SPAA_NONE, depth;
	bool kernel = false;
	uint64_t value;
	int ret = -1;

	trim(&s, &n);
	if (*s == '-')
		return spaa_error_at(err, SPAA_E_INVALID, d->path, d->lines[last].no,
				     "a negative value (%.*s): weights cannot be negative",
				     (int)(n > 64 ? 64 : n), s);
	{
		char buf[32];

		if (n >= sizeof(buf) || (memcpy(buf, s, n), buf[n] = '\0', spaa_parse_u64(buf, &value)))
			return spaa_error_at(err, SPAA_E_LIMIT, d->path, d->lines[last].no,
					     "the value %.*s does not fit 64 bits",
					     (int)(n > 64 ? 64 : n), s);
	}
	/* keys: the lines less indented than the stack's last (root) frame */
	s = line_at(d, last - 1, &n);
	ind = indent(s, n);
	while (nkeys < last) {
		s = line_at(d, nkeys, &n);
		if (indent(s, n) >= ind)
			break;
		nkeys++;
	}
	read_keys(d, nkeys, &key, &comm);
	depth = (uint32_t)(last - nkeys);
	if (d->o->max_depth && depth > d->o->max_depth) {
		spaa_error_at(err, SPAA_E_LIMIT, d->path, d->lines[nkeys].no,
			      "a stack of %" PRIu32 " frames is deeper than %" PRIu32 " (SPAA_MAX_DEPTH)",
			      depth, d->o->max_depth);
		goto out;
	}
	if (!d->have_event && make_event(d, err))
		goto out;
	t = tree_of(d, &key);
	for (size_t i = nkeys; i < last; i++) {
		const char *m;

		s = line_at(d, i, &n);
		trim(&s, &n);
		m = memchr(s, '`', n);
		kernel |= m && kernel_module(s, (size_t)(m - s));
	}
	/* root first into the tree */
	for (size_t i = last; i-- > nkeys;) {
		s = line_at(d, i, &n);
		trim(&s, &n);
		node = spaa_calltree_child(t, node, frame_of(d, s, n, kernel));
	}
	if (spaa_calltree_add(t, node, &value, err))
		goto out;
	d->entries++;
	ret = 0;
out:
	free(comm.s);
	return ret;
}

/* The block of lines since the last blank line. */
static int block(struct dt *d, struct spaa_error *err)
{
	size_t n;
	const char *s;
	bool is_entry;

	if (!d->nlines)
		return 0;
	s = line_at(d, d->nlines - 1, &n);
	is_entry = d->nlines >= 2 && value_line(s, n);
	if (is_entry) {
		/* a stack has at least one frame line at the stack's indentation */
		s = line_at(d, d->nlines - 2, &n);
		is_entry = indent(s, n) > 0 && !value_line(s, n);
	}
	if (is_entry) {
		if (entry(d, err))
			return -1;
	} else {
		for (size_t i = 0; i < d->nlines; i++) {
			int r;

			s = line_at(d, i, &n);
			r = d->have_event ? 0 : header(d, s, n, d->lines[i].no, err);
			if (r < 0)
				return -1;
			if (!r)
				skip(d, d->lines[i].no);
		}
	}
	d->nlines = 0;
	d->arena.len = 0;
	return 0;
}

static int read_lines(struct dt *d, struct spaa_error *err)
{
	char *line;
	size_t len;
	int r;

	while ((r = spaa_input_getline(d->in, &line, &len, err)) > 0) {
		const char *s = line;
		size_t n = len;
		unsigned long no = spaa_input_lineno(d->in);

		trim(&s, &n);
		if (!n) {
			if (block(d, err))
				return -1;
			continue;
		}
		if (d->o->max_depth && d->nlines > (size_t)d->o->max_depth + 64)
			return spaa_error_at(err, SPAA_E_LIMIT, d->path, no,
					     "an entry of more than %" PRIu32 " lines (SPAA_MAX_DEPTH)",
					     d->o->max_depth);
		SPAA_ALLOC_GROW(d->lines, d->nlines + 1, d->lines_alloc);
		d->lines[d->nlines++] = (struct line){ d->arena.len, len, no };
		spaa_sbuf_add(&d->arena, line, len);
		if ((no & 4095) == 0 && d->o->on_progress)
			d->o->on_progress(d->o->progress_data, spaa_input_bytes_read(d->in), 0);
	}
	if (r < 0)
		return -1;
	return block(d, err);
}

int spaa_dtrace_read(struct spaa_profile *p, struct spaa_input *in,
		     const struct spaa_load_opts *opts, uint64_t bytes_base,
		     uint64_t bytes_total, struct spaa_error *err)
{
	struct dt d = {
		.p = p, .o = opts, .in = in, .path = spaa_input_name(in),
	};
	int ret = -1;

	d.file = spaa_profile_add_file(p, d.path, "dtrace");
	spaa_map_init(&d.frames, sizeof(struct frame_key));
	spaa_map_init(&d.tree_map, sizeof(struct tree_key));
	if (opts->on_progress)
		opts->on_progress(opts->progress_data, bytes_base, bytes_total);
	if (read_lines(&d, err))
		goto out;
	if (!d.entries) {
		spaa_error_at(err, SPAA_E_NO_DATA, d.path, 0,
			      "no aggregation with a stack (@[ustack()], @[stack()], @[jstack()], ...) in the DTrace output");
		goto out;
	}
	for (uint32_t i = 0; i < d.tree_map.nr; i++)
		if (spaa_calltree_finish(&d.trees[i], opts->max_depth, err))
			goto out;
	if (d.skipped)
		spaa_warn(&opts->warn, d.path, d.first_skipped,
			  "%" PRIu64 " lines that are not part of an aggregation entry were skipped (dtrace's messages)",
			  d.skipped);
	if (opts->on_progress)
		opts->on_progress(opts->progress_data, bytes_base + spaa_input_bytes_read(in),
				  bytes_total);
	ret = 0;
out:
	for (uint32_t i = 0; i < d.tree_map.nr; i++)
		spaa_calltree_release(&d.trees[i]);
	free(d.trees);
	spaa_map_release(&d.tree_map);
	free(d.key_roles);
	free(d.lines);
	free(d.arena.s);
	free(d.frame_of);
	free(d.event_name);
	free(d.metric);
	spaa_map_release(&d.frames);
	return ret;
}
