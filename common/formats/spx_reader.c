#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/spx_reader.h"
#include "io/input.h"
#include "io/json.h"
#include "io/spares.h"
#include "model/util.h"
#include "model/warn.h"

/*
 * The replay keeps a trie of call paths: node n is the path of its
 * parent plus function node_fn[n].  Frames, names and records are filled
 * in at the end, when [functions] has been read.  The samples of the
 * replay are held until then (at most SPAA_SPX_READER_HELD of them), so that a
 * path an earlier report of the load had gets that report's stack and
 * records (repeats.h) instead of a stack of its own.  Past that,
 * the nodes get their stack indices at once (stack_base + n: a stack of
 * their own each) and the samples stream.
 */

/*
 * The held samples' array at 4,096 samples, 128 KiB, a mapping of its
 * own (common/report/main.c): a report of a few thousand slices maps it,
 * faults it in and unmaps it (one unmap a report was most of the system
 * time of a directory of 2,000 reports), so it goes from report to
 * report through the load's spares (io/spares.h).
 */
#define SPX_HELD_KEPT 4096

#define ROOT UINT32_MAX         /* the parent of root calls */

struct trie_key {
	uint32_t parent, fn;
};

struct open_call {
	uint32_t node;
	unsigned long line;     /* of the entry event */
};

/* A sample held until the stacks are known: the slice on top of node. */
struct held {
	int64_t time;
	uint64_t period;
	unsigned long line;
	uint32_t node;
};

struct spx {
	struct spaa_profile *p;
	const struct spaa_load_opts *o;
	struct spaa_repeats *rep;       /* weak, may be NULL */
	const char *json_path;
	char *txt_path;         /* owned */
	uint32_t file;
	unsigned long line;     /* current line of txt_path */
	uint64_t bytes_base, bytes_total, json_bytes;

	/* from the metadata */
	uint32_t nm;            /* metric columns */
	uint32_t *metric;       /* string index of each column's name */
	uint32_t wt_col;
	int alloc_col[4];       /* zmab, zmac, zmfb, zmfc columns, or -1 */
	int64_t exec_ns;
	int64_t pid, tid;
	uint32_t comm;
	uint32_t event, alloc_event;    /* SPAA_NONE when absent */
	uint32_t dso;

	/* the trie */
	struct spaa_map trie;
	uint32_t *node_parent, *node_fn, *node_depth;
	unsigned long *node_line;
	size_t node_alloc;
	int64_t *excl;          /* nm per node */
	size_t excl_alloc;
	uint64_t *node_calls;   /* entries of each node's path */
	uint32_t nnodes, stack_base;
	/*
	 * The stack of each node: stack_base + n once streaming, else set
	 * at the end.
	 */
	uint32_t *stack_of;
	bool streaming;
	uint64_t pool_frames;   /* sum of the nodes' depths */
	uint32_t max_fn;        /* largest function index used */
	unsigned long max_fn_line;

	/* the replay */
	struct open_call *stack;
	size_t depth, stack_alloc;
	int64_t *prev, *cur;    /* values of the previous and current event */
	bool have_prev;
	unsigned long nevents;
	unsigned long wt_back, wt_back_line;
	struct held *held;      /* samples until the stacks are known */
	size_t nheld, held_alloc;

	/* [functions] */
	uint32_t *fn_frame;     /* frame of each function index */
	size_t nfn, fn_alloc;

	uint32_t *fbuf;         /* scratch */
	size_t fbuf_alloc;
	struct spaa_weight *wbuf;
	size_t wbuf_alloc;
};

static int bad(struct spx *s, struct spaa_error *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* An error in the event file at the current line. */
static int bad(struct spx *s, struct spaa_error *err, const char *fmt, ...)
{
	char msg[sizeof(err->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return spaa_error_at(err, SPAA_E_INVALID, s->txt_path, s->line, "%s", msg);
}

static int meta_bad(struct spx *s, struct spaa_error *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int meta_bad(struct spx *s, struct spaa_error *err, const char *fmt, ...)
{
	char msg[sizeof(err->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return spaa_error_at(err, SPAA_E_INVALID, s->json_path, 0, "%s", msg);
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_digit(char c)
{
	return (unsigned)(c - '0') <= 9;
}

/*
 * The value at c, read as spaa_spx_reader_parse_value reads a token, up
 * to a space or end: the byte after it, or NULL (*out unchanged) when it
 * is not such a number.  One pass over the bytes: an event line is
 * mostly its values.
 */
static const char *parse_token(const char *c, const char *end, int64_t *out)
{
	const char *first, *safe;
	uint64_t v = 0;
	bool neg = false, digits, up = false;

	if (c < end && *c == '-') {
		neg = true;
		c++;
	}
	/* 19 digits stay below 10^19 < 2^64: only the 20th can overflow */
	first = c;
	safe = end - c < 19 ? end : c + 19;
	for (; c < safe && is_digit(*c); c++)
		v = v * 10 + (unsigned)(*c - '0');
	for (; c < end && is_digit(*c); c++) {
		unsigned d = (unsigned)(*c - '0');

		if (v > (UINT64_MAX - d) / 10)
			return NULL;
		v = v * 10 + d;
	}
	digits = c > first;
	if (c < end && *c == '.') {
		c++;
		/* the first fraction digit alone decides: >= .5 rounds away */
		if (c < end && *c >= '5' && *c <= '9')
			up = true;
		for (; c < end && is_digit(*c); c++)
			digits = true;
	}
	if (!digits || (c < end && !is_space(*c)))
		return NULL;
	if (up && spaa_add_u64(v, 1, &v))
		return NULL;
	if (neg ? v > (uint64_t)INT64_MAX + 1 : v > (uint64_t)INT64_MAX)
		return NULL;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return c;
}

int spaa_spx_reader_parse_value(const char *s, size_t len, int64_t *out)
{
	int64_t v;

	if (parse_token(s, s + len, &v) != s + len)
		return -1;
	*out = v;
	return 0;
}

/* ---- metadata -------------------------------------------------------------- */

/*
 * SPX escapes only \\ \" \/ \b \f \n \r \t and writes other control
 * bytes raw inside strings, which strict JSON forbids.  They are escaped
 * here, inside strings only, so that the strict parser reads the rest
 * with all its checks.  Returns a malloc'ed copy the caller owns.
 */
static char *escape_controls(const char *s, size_t n, size_t *outlen)
{
	static const char hex[] = "0123456789abcdef";
	char *out = spaa_xmalloc(n * 6 + 1);
	bool in_str = false, esc = false;
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (in_str) {
			if (esc) {
				esc = false;
			} else if (c == '\\') {
				esc = true;
			} else if (c == '"') {
				in_str = false;
			} else if (c < 0x20) {
				memcpy(out + o, "\\u00", 4);
				out[o + 4] = hex[c >> 4];
				out[o + 5] = hex[c & 15];
				o += 6;
				continue;
			}
		} else if (c == '"') {
			in_str = true;
		}
		out[o++] = (char)c;
	}
	out[o] = '\0';
	*outlen = o;
	return out;
}

/* Reads the whole metadata file into a malloc'ed, NUL-terminated buffer. */
static int slurp(struct spx *s, char **text, size_t *len, struct spaa_error *err)
{
	struct spaa_input_opts io;
	struct spaa_input *in;
	char *buf = NULL, *line;
	size_t n = 0, alloc = 0, l;
	int got;

	spaa_load_input_opts(s->o, &io);
	if (spaa_input_open(&in, s->json_path, &io, err)) {
		if (!strcmp(err->code, SPAA_E_NOT_FOUND))
			spaa_error_at(err, SPAA_E_INVALID, s->txt_path, 0,
				      "no SPX metadata file '%s' beside it: an unfinished report (SPX writes it last)",
				      s->json_path);
		return -1;
	}
	while ((got = spaa_input_getline(in, &line, &l, err)) > 0) {
		if (n + l + 1 > SPAA_SPX_READER_MAX_META) {
			spaa_error_at(err, SPAA_E_LIMIT, s->json_path, spaa_input_lineno(in),
				      "SPX metadata is larger than %zu bytes", SPAA_SPX_READER_MAX_META);
			got = -1;
			break;
		}
		SPAA_ALLOC_GROW(buf, n + l + 2, alloc);
		memcpy(buf + n, line, l);
		n += l;
		buf[n++] = '\n';
	}
	s->json_bytes = spaa_input_bytes_read(in);
	spaa_input_close(in);
	if (got < 0) {
		free(buf);
		return -1;
	}
	SPAA_ALLOC_GROW(buf, n + 1, alloc);
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

/* An optional integer member; false when absent, null or not an integer. */
static bool meta_i64(const struct spaa_json_value *root, const char *key, int64_t *out)
{
	const struct spaa_json_value *v = spaa_json_get(root, key);

	return v && v->type == SPAA_JSON_NUMBER && !spaa_json_get_i64(v, out);
}

static const char *meta_str(const struct spaa_json_value *root, const char *key,
			    size_t *len)
{
	const struct spaa_json_value *v = spaa_json_get(root, key);

	if (!v || v->type != SPAA_JSON_STRING)
		return NULL;
	*len = v->len;
	return v->str;
}

/* The event named name, created with e when new. */
static int spx_event(struct spx *s, const char *name, struct spaa_event e,
		     uint32_t *out, struct spaa_error *err)
{
	struct spaa_profile *p = s->p;
	uint32_t i = spaa_profile_find_event(p, name);

	if (i == SPAA_NONE) {
		e.name = spaa_strtab_intern(&p->strings, name, strlen(name));
		e.file = s->file;
		i = spaa_profile_add_event(p, &e);
	} else if (p->events[i].primary_metric != e.primary_metric) {
		return meta_bad(s, err, "event '%s' has primary metric '%s' in %s, not '%s'",
				name, spaa_profile_str(p, p->events[i].primary_metric),
				p->files[p->events[i].file].path,
				spaa_profile_str(p, e.primary_metric));
	}
	*out = i;
	return 0;
}

static int read_metrics(struct spx *s, const struct spaa_json_value *root,
			struct spaa_error *err)
{
	static const char *const alloc_names[4] = { "zmab", "zmac", "zmfb", "zmfc" };
	struct spaa_profile *p = s->p;
	const struct spaa_json_value *em = spaa_json_get(root, "enabled_metrics");
	bool has_wt = false;
	uint32_t j = 0;

	if (!em || em->type == SPAA_JSON_NULL)
		return meta_bad(s, err, "SPX metadata has no 'enabled_metrics': the metric columns are unknown");
	if (em->type != SPAA_JSON_ARRAY)
		return meta_bad(s, err, "'enabled_metrics' must be an array, not %s",
				spaa_json_type_name(em->type));
	if (!em->len)
		return meta_bad(s, err, "'enabled_metrics' is empty");
	if (em->len > 1024)
		return meta_bad(s, err, "'enabled_metrics' lists %zu metrics, more than 1024", em->len);
	s->metric = spaa_xcalloc(em->len, sizeof(*s->metric));
	for (int i = 0; i < 4; i++)
		s->alloc_col[i] = -1;
	for (const struct spaa_json_value *v = em->child; v; v = v->next, j++) {
		if (v->type != SPAA_JSON_STRING || !v->len || memchr(v->str, '\0', v->len))
			return meta_bad(s, err, "'enabled_metrics' entry %u is not a metric name", j + 1);
		s->metric[j] = spaa_strtab_intern(&p->strings, v->str, v->len);
		for (uint32_t k = 0; k < j; k++)
			if (s->metric[k] == s->metric[j])
				return meta_bad(s, err, "metric '%s' appears twice in 'enabled_metrics'",
						v->str);
		if (!strcmp(v->str, "wt")) {
			has_wt = true;
			s->wt_col = j;
		}
		for (int k = 0; k < 4; k++)
			if (!strcmp(v->str, alloc_names[k]))
				s->alloc_col[k] = (int)j;
	}
	s->nm = j;
	if (!has_wt)
		return meta_bad(s, err, "'enabled_metrics' lacks 'wt' (wall time), which every SPX full report has");
	return 0;
}

static int read_meta(struct spx *s, struct spaa_error *err)
{
	struct spaa_profile *p = s->p;
	struct spaa_json_parser *jp = spaa_json_parser_new();
	char *raw = NULL, *text = NULL, comm[512];
	const struct spaa_json_value *root;
	struct spaa_json_error je;
	size_t len, n1, n2;
	const char *a, *b;
	int64_t v;
	int ret = -1;

	if (slurp(s, &raw, &len, err))
		goto out;
	text = escape_controls(raw, len, &len);
	root = spaa_json_parse(jp, text, len, &je);
	if (!root) {
		unsigned long line = 1;

		for (size_t i = 0; i < je.offset && i < len; i++)
			line += text[i] == '\n';
		spaa_error_at(err, SPAA_E_PARSE, s->json_path, line,
			      "SPX metadata is not JSON: %s", je.msg);
		goto out;
	}
	if (root->type != SPAA_JSON_OBJECT) {
		meta_bad(s, err, "SPX metadata must be a JSON object, not %s",
			 spaa_json_type_name(root->type));
		goto out;
	}
	if (read_metrics(s, root, err))
		goto out;

	if (!meta_i64(root, "exec_ts", &v) || v < 0 || v > INT64_MAX / 1000000000) {
		spaa_warn(&s->o->warn, s->json_path, 0,
			  "no valid 'exec_ts' in the SPX metadata: times start at 0");
		v = 0;
	}
	s->exec_ns = v * 1000000000;
	if (!meta_i64(root, "process_pid", &s->pid) || s->pid == SPAA_NO_ID)
		s->pid = SPAA_NO_ID;
	if (!meta_i64(root, "process_tid", &s->tid) || s->tid == SPAA_NO_ID)
		s->tid = s->pid;

	/* what the process ran: the command line, or the HTTP request */
	if (meta_i64(root, "cli", &v) && !v &&
	    (a = meta_str(root, "http_method", &n1)) &&
	    (b = meta_str(root, "http_request_uri", &n2)))
		snprintf(comm, sizeof(comm), "%.*s %.*s", (int)(n1 > 100 ? 100 : n1), a,
			 (int)(n2 > 400 ? 400 : n2), b);
	else if ((a = meta_str(root, "cli_command_line", &n1)))
		snprintf(comm, sizeof(comm), "%.*s", (int)(n1 > 500 ? 500 : n1), a);
	else
		snprintf(comm, sizeof(comm), "php");
	/* a "\u0000" would cut the name short; that is all it does */
	s->comm = spaa_strtab_intern(&p->strings, comm, strlen(comm));
	/* declared as SPAA thread records declare theirs, so every table names it */
	if (s->pid != SPAA_NO_ID) {
		uint32_t t = spaa_profile_intern_thread(p, s->pid, s->tid);

		p->threads[t].comm = s->comm;
	}

	if (spx_event(s, "spx", (struct spaa_event){
			.kind = SPAA_EV_TIMER, .mode = SPAA_MODE_EVENT,
			.primary_metric = spaa_strtab_intern(&p->strings, "wt", 2),
			.tracks_frees = -1, .has_timestamps = -1,
		}, &s->event, err))
		goto out;
	s->alloc_event = SPAA_NONE;
	if (s->alloc_col[0] >= 0 &&
	    spx_event(s, "spx-alloc", (struct spaa_event){
			.kind = SPAA_EV_ALLOCATION, .mode = SPAA_MODE_EVENT,
			.primary_metric = spaa_strtab_intern(&p->strings, "alloc_bytes", 11),
			.tracks_frees = s->alloc_col[2] >= 0 || s->alloc_col[3] >= 0,
			.has_timestamps = 0,
		}, &s->alloc_event, err))
		goto out;
	s->dso = spaa_profile_intern_dso(p, spaa_strtab_intern(&p->strings, "php", 3),
					 0, false);
	ret = 0;
out:
	spaa_json_parser_free(jp);
	free(raw);
	free(text);
	return ret;
}

/* ---- the replay ---------------------------------------------------------- */

/*
 * Node n's own stack, a placeholder until the end; in node order, so
 * that it is stack_base + n while streaming.
 */
static void own_stack(struct spx *s, uint32_t n)
{
	struct spaa_profile *p = s->p;

	SPAA_ALLOC_GROW(p->stacks, (size_t)p->nstacks + 1, p->stacks_alloc);
	s->stack_of[n] = p->nstacks;
	p->stacks[p->nstacks++] = (struct spaa_stack){
		.file = s->file, .line = s->node_line[n], .first_record = SPAA_NONE,
	};
}

/* The sample of h, its stack known, to the load. */
static int emit(struct spx *s, const struct held *h, struct spaa_error *err)
{
	struct spaa_profile *p = s->p;
	struct spaa_sample smp;

	memset(&smp, 0, sizeof(smp));
	smp.time = h->time;
	smp.event = s->event;
	smp.stack = s->stack_of[h->node];
	smp.pid = s->pid;
	smp.tid = s->tid;
	smp.cpu = SPAA_NO_ID;
	smp.has_period = true;
	smp.period = h->period;
	smp.period_metric = s->metric[s->wt_col];
	smp.file = s->file;
	smp.line = h->line;
	p->nsamples++;
	p->events[s->event].nsamples++;
	p->files[s->file].nsamples++;
	spaa_profile_cover_time(p, smp.time, smp.time);
	return spaa_load_sample(s->o, p, &smp, err);
}

/* Too many samples to hold: every node gets its own stack, samples stream. */
static int stream(struct spx *s, struct spaa_error *err)
{
	s->streaming = true;
	for (uint32_t n = 0; n < s->nnodes; n++)
		own_stack(s, n);
	for (size_t i = 0; i < s->nheld; i++)
		if (emit(s, &s->held[i], err))
			return -1;
	s->nheld = 0;
	return 0;
}

/* The node of function fn called from parent, created on first sight. */
static int child(struct spx *s, uint32_t parent, uint32_t fn, uint32_t *out,
		 struct spaa_error *err)
{
	struct trie_key k = { parent, fn };
	bool created;
	uint32_t n = spaa_map_intern(&s->trie, &k, &created);

	if (created) {
		uint32_t depth = parent == ROOT ? 1 : s->node_depth[parent] + 1;
		if (n >= s->node_alloc) {
			SPAA_ALLOC_GROW(s->node_parent, (size_t)n + 1, s->node_alloc);
			s->node_fn = spaa_xrealloc(s->node_fn, s->node_alloc * sizeof(uint32_t));
			s->node_depth = spaa_xrealloc(s->node_depth, s->node_alloc * sizeof(uint32_t));
			s->node_line = spaa_xrealloc(s->node_line,
						     s->node_alloc * sizeof(unsigned long));
			s->node_calls = spaa_xrealloc(s->node_calls,
						      s->node_alloc * sizeof(uint64_t));
			s->stack_of = spaa_xrealloc(s->stack_of, s->node_alloc * sizeof(uint32_t));
		}
		SPAA_ALLOC_GROW(s->excl, ((size_t)n + 1) * s->nm, s->excl_alloc);
		memset(s->excl + (size_t)n * s->nm, 0, s->nm * sizeof(int64_t));
		s->node_parent[n] = parent;
		s->node_fn[n] = fn;
		s->node_depth[n] = depth;
		s->node_line[n] = s->line;
		s->node_calls[n] = 0;
		s->nnodes = n + 1;
		s->pool_frames += depth;
		if (s->pool_frames > SPAA_SPX_READER_MAX_FRAMES)
			return spaa_error_at(err, SPAA_E_LIMIT, s->txt_path, s->line,
					     "the call paths hold more than %" PRIu64 " frames in all",
					     SPAA_SPX_READER_MAX_FRAMES);
		if (!n || fn > s->max_fn) {
			s->max_fn = fn;
			s->max_fn_line = s->line;
		}
		if (s->streaming)
			own_stack(s, n);
	}
	*out = n;
	return 0;
}

/* The slice from the previous event to this one, on the path on top. */
static int slice(struct spx *s, struct spaa_error *err)
{
	struct spaa_profile *p = s->p;
	uint32_t top;
	int64_t *ex, dwt;
	struct held h;

	if (!s->depth)
		return 0;       /* between root calls: no path to charge */
	top = s->stack[s->depth - 1].node;
	ex = s->excl + (size_t)top * s->nm;
	for (uint32_t m = 0; m < s->nm; m++) {
		int64_t d;

		if (__builtin_sub_overflow(s->cur[m], s->prev[m], &d) ||
		    __builtin_add_overflow(ex[m], d, &ex[m]))
			return spaa_error_at(err, SPAA_E_LIMIT, s->txt_path, s->line,
					     "the sum of '%s' overflows 64 bits",
					     spaa_profile_str(p, s->metric[m]));
	}
	dwt = s->cur[s->wt_col] - s->prev[s->wt_col];    /* checked above */
	if (dwt < 0) {
		if (!s->wt_back++)
			s->wt_back_line = s->line;
		dwt = 0;
	}
	if (__builtin_add_overflow(s->exec_ns, s->prev[s->wt_col], &h.time))
		return spaa_error_at(err, SPAA_E_LIMIT, s->txt_path, s->line,
				     "exec_ts plus wall time overflows 64-bit nanoseconds");
	h.period = (uint64_t)dwt;
	h.line = s->line;
	h.node = top;
	if (!s->streaming && s->nheld == SPAA_SPX_READER_HELD && stream(s, err))
		return -1;
	if (s->streaming)
		return emit(s, &h, err);
	SPAA_ALLOC_GROW(s->held, s->nheld + 1, s->held_alloc);
	s->held[s->nheld++] = h;
	return 0;
}

/* "IDX FLAG V1 .. VN": one entry or exit. */
static int event_line(struct spx *s, const char *line, size_t len,
		      struct spaa_error *err)
{
	const char *c = line, *end = line + len;
	uint64_t idx = 0;
	uint32_t nv = 0;
	bool entry;

	if (c == end || !is_digit(*c))
		return bad(s, err, "an event line must start with a function index");
	for (; c < end && is_digit(*c); c++) {
		idx = idx * 10 + (uint64_t)(*c - '0');
		if (idx >= UINT32_MAX)
			return bad(s, err, "function index is too large");
	}
	if (c == end || !is_space(*c))
		return bad(s, err, "the function index must be followed by a space");
	while (c < end && is_space(*c))
		c++;
	if (c == end || (*c != '0' && *c != '1') || (c + 1 < end && !is_space(c[1])))
		return bad(s, err, "the start flag must be 1 (entry) or 0 (exit)");
	entry = *c == '1';
	c++;
	for (;;) {
		const char *tok;

		while (c < end && is_space(*c))
			c++;
		if (c == end)
			break;
		tok = c;
		if (nv < s->nm && (c = parse_token(tok, end, &s->cur[nv])) == NULL) {
			for (c = tok; c < end && !is_space(*c); c++)
				;
			return bad(s, err, "value '%.*s' of '%s' is not a decimal number that fits in 64 bits",
				   (int)(c - tok > 40 ? 40 : c - tok), tok,
				   spaa_profile_str(s->p, s->metric[nv]));
		}
		while (c < end && !is_space(*c))
			c++;    /* a value past the metrics: counted, not read */
		nv++;
	}
	if (nv != s->nm)
		return bad(s, err, "the event line has %u values, but 'enabled_metrics' lists %u metrics",
			   nv, s->nm);

	if (s->have_prev && slice(s, err))
		return -1;
	if (entry) {
		uint32_t node = 0;

		if (s->depth >= s->o->max_depth)
			return spaa_error_at(err, SPAA_E_LIMIT, s->txt_path, s->line,
					     "calls nest deeper than the limit of %u (SPAA_MAX_DEPTH)",
					     s->o->max_depth);
		if (child(s, s->depth ? s->stack[s->depth - 1].node : ROOT,
			  (uint32_t)idx, &node, err))
			return -1;
		SPAA_ALLOC_GROW(s->stack, s->depth + 1, s->stack_alloc);
		s->stack[s->depth++] = (struct open_call){ node, s->line };
		s->node_calls[node]++;  /* fewer entries than lines: never wraps */
	} else {
		const struct open_call *top;

		if (!s->depth)
			return bad(s, err, "exit of function %" PRIu64 " without a matching entry",
				   idx);
		top = &s->stack[s->depth - 1];
		if (s->node_fn[top->node] != idx)
			return bad(s, err, "exit of function %" PRIu64 " while function %u is the open call (entered on line %lu)",
				   idx, s->node_fn[top->node], top->line);
		s->depth--;
	}
	memcpy(s->prev, s->cur, s->nm * sizeof(int64_t));
	s->have_prev = true;
	s->nevents++;
	return 0;
}

/* ---- the end: names, stacks, records --------------------------------------- */

static void add_function(struct spx *s, const char *name, size_t len)
{
	struct spaa_profile *p = s->p;
	struct spaa_frame f = {
		.kind = SPAA_FRAME_USER, .func_resolved = true, .inline_depth = -1,
	};

	uint32_t fi;

	f.fn = spaa_profile_intern_function(p, spaa_strtab_intern(&p->strings, name, len),
					    s->dso);
	SPAA_ALLOC_GROW(s->fn_frame, s->nfn + 1, s->fn_alloc);
	/* an earlier report's frame of the function, else a frame of its own */
	fi = s->rep ? spaa_repeats_frame(s->rep, &f) : SPAA_NONE;
	if (fi == SPAA_NONE) {
		SPAA_ALLOC_GROW(p->frames, (size_t)p->nframes + 1, p->frames_alloc);
		fi = p->nframes++;
		p->frames[fi] = f;
	}
	s->fn_frame[s->nfn++] = fi;
}

static uint64_t pos(int64_t v)
{
	return v > 0 ? (uint64_t)v : 0;
}

static uint64_t neg(int64_t v)
{
	/* magnitude of INT64_MIN too, without overflowing */
	return v < 0 ? (uint64_t)0 - (uint64_t)v : 0;
}

static int add_record(struct spx *s, uint32_t node, uint32_t event,
		      uint32_t nw, struct spaa_error *err)
{
	struct spaa_profile *p = s->p;
	struct spaa_stack *st = &p->stacks[s->stack_of[node]];
	struct spaa_record rec = {
		.stack = s->stack_of[node], .frames = st->frames,
		.nframes = st->nframes, .event = event, .pid = s->pid,
		.tid = s->tid, .cpu = SPAA_NO_ID, .comm = s->comm,
		.excl_frame = p->frame_pool[st->frames],
		.nweights = nw, .nexcl = nw,
	};
	uint32_t i;

	for (uint32_t w = 0; w < nw; w++)
		if (spaa_profile_add_total(p, event, s->wbuf[w].metric, s->wbuf[w].value))
			return spaa_error_at(err, SPAA_E_LIMIT, s->txt_path, 0,
					     "the total of '%s' overflows 64 bits",
					     spaa_profile_str(p, s->wbuf[w].metric));
	/* the weights are exclusive already: both lists share one copy */
	rec.weights = rec.excl = spaa_profile_add_weights(p, s->wbuf, nw);
	i = p->nrecords++;
	SPAA_ALLOC_GROW(p->records, p->nrecords, p->records_alloc);
	rec.next_same_stack = st->first_record;
	st->first_record = i;
	p->records[i] = rec;
	return 0;
}

static int finish(struct spx *s, struct spaa_error *err)
{
	static const char *const alloc_metrics[4] = {
		"alloc_bytes", "alloc_count", "free_bytes", "free_count",
	};
	struct spaa_profile *p = s->p;
	struct spaa_file *f = &p->files[s->file];
	uint32_t *neg_metric = spaa_xcalloc(s->nm, sizeof(uint32_t));
	uint32_t alloc_metric[4], calls = spaa_strtab_intern(&p->strings, "calls", 5);
	uint32_t record_base, weight_base;
	int ret = -1;

	if (s->depth)
		spaa_warn(&s->o->warn, s->txt_path, s->stack[s->depth - 1].line,
			  "%zu calls are still open at the end of [events] (the report was not finalized); they end at the last event",
			  s->depth);
	if (s->wt_back)
		spaa_warn(&s->o->warn, s->txt_path, s->wt_back_line,
			  "wall time goes back %lu times; those slices count as 0",
			  s->wt_back);
	if (s->nnodes && s->max_fn >= s->nfn) {
		s->line = s->max_fn_line;
		bad(s, err, "function index %u is out of range: [functions] names %zu functions",
		    s->max_fn, s->nfn);
		goto out;
	}

	/* a metric gets its "-" twin when some path's change is negative */
	for (uint32_t m = 0; m < s->nm; m++) {
		for (uint32_t n = 0; n < s->nnodes && !neg_metric[m]; n++) {
			if (s->excl[(size_t)n * s->nm + m] < 0) {
				const char *name = spaa_profile_str(p, s->metric[m]);
				size_t l = strlen(name);
				char *twin = spaa_xmalloc(l + 2);

				memcpy(twin, name, l);
				twin[l] = '-';
				twin[l + 1] = '\0';
				neg_metric[m] = spaa_strtab_intern(&p->strings, twin, l + 1);
				free(twin);
			}
		}
	}
	for (int k = 0; k < 4; k++)
		alloc_metric[k] = spaa_strtab_intern(&p->strings, alloc_metrics[k],
						     strlen(alloc_metrics[k]));
	SPAA_ALLOC_GROW(s->wbuf, 2 * (size_t)s->nm + 5, s->wbuf_alloc);

	for (uint32_t n = 0; n < s->nnodes; n++) {
		uint32_t d = s->node_depth[n], at = 0, id_str;
		struct spaa_stack *st;
		char id[16];

		/* leaf first: the node, then its ancestors; no recursion */
		SPAA_ALLOC_GROW(s->fbuf, d, s->fbuf_alloc);
		for (uint32_t x = n; x != ROOT; x = s->node_parent[x])
			s->fbuf[at++] = s->fn_frame[s->node_fn[x]];
		/*
		 * Its id even when the stack is an earlier report's: then the
		 * strings a report adds do not depend on what came before it,
		 * as grafting a report read alone needs (graft.h).
		 */
		snprintf(id, sizeof(id), "%" PRIu32, n);
		id_str = spaa_strtab_intern(&p->strings, id, strlen(id));
		if (!s->streaming) {
			uint32_t shared = s->rep ? spaa_repeats_stack(s->rep, SPAA_STACK_UNIFIED,
								      s->fbuf, at) : SPAA_NONE;

			if (shared != SPAA_NONE) {
				s->stack_of[n] = shared;
				continue;
			}
			own_stack(s, n);
		}
		st = &p->stacks[s->stack_of[n]];
		st->frames = spaa_profile_add_frames(p, s->fbuf, at);
		st->nframes = at;
		st->type = SPAA_STACK_UNIFIED;
		st->defined = true;
		st->id = id_str;
	}
	for (size_t i = 0; i < s->nheld; i++)
		if (emit(s, &s->held[i], err))
			goto out;
	record_base = p->nrecords;
	weight_base = p->nweight_pool;
	for (uint32_t n = 0; n < s->nnodes; n++) {
		const int64_t *ex = s->excl + (size_t)n * s->nm;
		uint32_t nw = 0;
		bool any = false;

		for (uint32_t m = 0; m < s->nm; m++) {
			s->wbuf[nw++] = (struct spaa_weight){ s->metric[m], 0, pos(ex[m]) };
			if (neg_metric[m])
				s->wbuf[nw++] = (struct spaa_weight){ neg_metric[m], 0, neg(ex[m]) };
		}
		s->wbuf[nw++] = (struct spaa_weight){ calls, 0, s->node_calls[n] };
		if (add_record(s, n, s->event, nw, err))
			goto out;
		if (s->alloc_event == SPAA_NONE)
			continue;
		nw = 0;
		for (int k = 0; k < 4; k++) {
			if (s->alloc_col[k] < 0)
				continue;
			/* SPX's allocation counters only grow */
			s->wbuf[nw] = (struct spaa_weight){
				alloc_metric[k], 0, pos(ex[s->alloc_col[k]]),
			};
			any |= s->wbuf[nw++].value != 0;
		}
		if (any && add_record(s, n, s->alloc_event, nw, err))
			goto out;
	}
	/* a process an earlier report was too (links, copies): one record a path */
	if (s->rep)
		spaa_repeats_merge_records(s->rep, p, record_base, p->nwindow_entries,
					   weight_base);

	f->has_time_range = true;
	f->time_start = s->exec_ns;
	f->time_end = s->exec_ns;
	if (s->have_prev && s->prev[s->wt_col] > 0 &&
	    __builtin_add_overflow(s->exec_ns, s->prev[s->wt_col], &f->time_end)) {
		spaa_error_at(err, SPAA_E_LIMIT, s->txt_path, 0,
			      "exec_ts plus wall time overflows 64-bit nanoseconds");
		goto out;
	}
	spaa_profile_cover_time(p, f->time_start, f->time_end);
	ret = 0;
out:
	free(neg_metric);
	return ret;
}

/* KEY.json -> KEY.txt.gz (any other name: NAME.txt.gz) */
static char *txt_path_of(const char *json_path)
{
	size_t l = strlen(json_path);
	char *t;

	if (l > 5 && !strcmp(json_path + l - 5, ".json"))
		l -= 5;
	t = spaa_xmalloc(l + sizeof(".txt.gz"));
	memcpy(t, json_path, l);
	memcpy(t + l, ".txt.gz", sizeof(".txt.gz"));
	return t;
}

static int read_events(struct spx *s, struct spaa_error *err)
{
	enum { START, EVENTS, FUNCTIONS } state = START;
	struct spaa_input_opts io;
	const struct spaa_load_opts *o = s->o;
	struct spaa_input *in;
	char *line;
	size_t len;
	int got, ret = -1;

	spaa_load_input_opts(s->o, &io);
	if (spaa_input_open(&in, s->txt_path, &io, err))
		return -1;
	s->prev = spaa_xcalloc(s->nm, sizeof(int64_t));
	s->cur = spaa_xcalloc(s->nm, sizeof(int64_t));
	while ((got = spaa_input_getline(in, &line, &len, err)) > 0) {
		s->line = spaa_input_lineno(in);
		if ((s->line & 16383) == 0 && o->on_progress)
			o->on_progress(o->progress_data, s->bytes_base + s->json_bytes +
				       spaa_input_bytes_read(in), s->bytes_total);
		switch (state) {
		case START:
			if (strcmp(line, "[events]")) {
				bad(s, err, "not an SPX event file: the first line is not '[events]'");
				goto out;
			}
			state = EVENTS;
			break;
		case EVENTS:
			if (line[0] == '[') {
				if (strcmp(line, "[functions]")) {
					bad(s, err, "unknown section '%.*s' in an SPX event file",
					    (int)(len > 40 ? 40 : len), line);
					goto out;
				}
				state = FUNCTIONS;
				break;
			}
			if (event_line(s, line, len, err))
				goto out;
			break;
		case FUNCTIONS:
			/* the whole line: names hold spaces */
			add_function(s, line, len);
			if (s->p->strings.nr > o->max_strings) {
				spaa_error_at(err, SPAA_E_LIMIT, s->txt_path, s->line,
					      "more than %u distinct strings (names): the limit (SPAA_MAX_STRINGS)",
					      o->max_strings);
				goto out;
			}
			break;
		}
	}
	if (got < 0) {
		/* a truncated stream: say where the text stopped */
		if (!err->line)
			err->line = spaa_input_lineno(in) + 1;
		goto out;
	}
	s->line = spaa_input_lineno(in);
	if (state == START) {
		bad(s, err, "empty SPX event file: no '[events]' line");
		goto out;
	}
	if (state == EVENTS) {
		bad(s, err, "no [functions] section after [events]: an unfinished SPX report");
		goto out;
	}
	ret = finish(s, err);
out:
	s->json_bytes += spaa_input_bytes_read(in);
	spaa_input_close(in);
	return ret;
}

int spaa_spx_reader_read(struct spaa_profile *p, const char *json_path,
		    const struct spaa_load_opts *opts, struct spaa_repeats *rep,
		    uint64_t bytes_base, uint64_t bytes_total, uint64_t *bytes_read,
		    struct spaa_error *err)
{
	struct spx s = {
		.p = p, .o = opts, .rep = rep, .json_path = json_path,
		.bytes_base = bytes_base, .bytes_total = bytes_total,
	};
	int ret = -1;

	s.txt_path = txt_path_of(json_path);
	s.held = spaa_spares_take_buf(opts->spares, SPX_HELD_KEPT * sizeof(*s.held));
	if (s.held)
		s.held_alloc = SPX_HELD_KEPT;
	spaa_map_init(&s.trie, sizeof(struct trie_key));
	s.stack_base = p->nstacks;
	s.file = spaa_profile_add_file(p, json_path, "spx");

	if (opts->on_progress)
		opts->on_progress(opts->progress_data, bytes_base, bytes_total);
	if (read_meta(&s, err) || read_events(&s, err))
		goto out;
	if (opts->on_progress)
		opts->on_progress(opts->progress_data, bytes_base + s.json_bytes,
				  bytes_total);
	ret = 0;
out:
	*bytes_read = s.json_bytes;
	free(s.txt_path);
	free(s.metric);
	spaa_map_release(&s.trie);
	free(s.node_parent);
	free(s.node_fn);
	free(s.node_depth);
	free(s.node_line);
	free(s.node_calls);
	free(s.stack_of);
	if (s.held_alloc == SPX_HELD_KEPT)
		spaa_spares_put_buf(opts->spares, s.held, SPX_HELD_KEPT * sizeof(*s.held));
	else
		free(s.held);
	free(s.excl);
	free(s.stack);
	free(s.prev);
	free(s.cur);
	free(s.fn_frame);
	free(s.fbuf);
	free(s.wbuf);
	return ret;
}
