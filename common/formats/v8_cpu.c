#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/calltree.h"
#include "formats/v8_cpu.h"
#include "io/json.h"
#include "io/jsonstream.h"
#include "model/sbuf.h"
#include "model/util.h"

/* ---- sniffing ------------------------------------------------------------- */

static const char *skip_ws(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n'))
		s++;
	return s;
}

enum spaa_v8_kind spaa_v8_sniff(const char *data, size_t len)
{
	static const struct {
		const char *key;
		enum spaa_v8_kind kind;
	} keys[] = {
		{ "\"nodes\"", SPAA_V8_CPUPROFILE }, { "\"startTime\"", SPAA_V8_CPUPROFILE },
		{ "\"endTime\"", SPAA_V8_CPUPROFILE }, { "\"samples\"", SPAA_V8_CPUPROFILE },
		{ "\"timeDeltas\"", SPAA_V8_CPUPROFILE },
		{ "\"traceEvents\"", SPAA_V8_TRACE }, { "\"metadata\"", SPAA_V8_TRACE },
		{ "\"snapshot\"", SPAA_V8_HEAPSNAPSHOT }, { "\"head\"", SPAA_V8_HEAPPROFILE },
	};
	const char *end = data + len, *s = skip_ws(data, end);

	if (s < end && *s == '[')
		return (s = skip_ws(s + 1, end)) < end && *s == '{' ? SPAA_V8_TRACE :
			SPAA_V8_NONE;
	if (s == end || *s != '{')
		return SPAA_V8_NONE;
	s = skip_ws(s + 1, end);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		size_t n = strlen(keys[i].key);
		const char *colon;

		if ((size_t)(end - s) <= n || memcmp(s, keys[i].key, n))
			continue;
		/* the key may end the buffer: whitespace to its end, no colon */
		colon = skip_ws(s + n, end);
		if (colon < end && *colon == ':')
			return keys[i].kind;
	}
	return SPAA_V8_NONE;
}

/* ---- one profile: its nodes by V8 id, its call tree ---------------------- */

struct prof {
	struct spaa_calltree t;
	struct spaa_map ids;    /* V8 node id (int64) -> tree node */
	int64_t *parent_id;     /* by tree node: parent's V8 id, or INT64_MIN */
	size_t parent_alloc;
	uint32_t root;          /* the "(root)" node, or SPAA_NONE */
	uint64_t *hits;         /* by tree node: hitCount */
	size_t hits_alloc;
	struct edge {
		int64_t parent, child;
	} *edges;               /* from "children" lists, linked at the end */
	size_t nedges, edges_alloc;
	/* the profile's clock, µs */
	bool has_start;
	int64_t start, end, now;
	uint64_t nsamples;
	/* a trace's: pid, V8 profile id */
	int64_t pid;
	char *id;
};

struct v8 {
	struct spaa_profile *p;
	const struct spaa_load_opts *o;
	struct spaa_input *in;
	struct spaa_jsonstream *js;
	struct spaa_json_parser *jp;
	const char *path;
	uint32_t file, event;
	uint32_t time_metric;
	struct prof **profs;
	size_t nprofs, profs_alloc;
	/* thread names of a trace: (pid, tid) -> name */
	struct spaa_map tnames;
	uint32_t *tname;
	size_t tname_alloc;
	uint64_t bytes_base, bytes_total;
	/* the document is read: errors are about the whole file, no position */
	bool ended;
	uint64_t sample_no;     /* 1-based index of the sample replayed */
};

static const char *const metrics[2] = { "samples", "time_us" };
static const char *const units[2] = { NULL, "microseconds" };

static struct prof *prof_new(struct v8 *v)
{
	struct prof *pr = spaa_xcalloc(1, sizeof(*pr));

	spaa_calltree_init(&pr->t, v->p, v->path, v->file, v->event, metrics, units, 2);
	spaa_map_init(&pr->ids, sizeof(int64_t));
	pr->root = SPAA_NONE;
	pr->pid = SPAA_NO_ID;
	SPAA_ALLOC_GROW(v->profs, v->nprofs + 1, v->profs_alloc);
	v->profs[v->nprofs++] = pr;
	return pr;
}

static void prof_free(struct prof *pr)
{
	spaa_calltree_release(&pr->t);
	spaa_map_release(&pr->ids);
	free(pr->parent_id);
	free(pr->hits);
	free(pr->edges);
	free(pr->id);
	free(pr);
}

static int fail(struct v8 *v, struct spaa_error *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct v8 *v, struct spaa_error *err, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (v->ended)
		return spaa_error_at(err, SPAA_E_INVALID, v->path, 0, "%s", msg);
	return spaa_jsonstream_fail(v->js, err, "%s", msg);
}

static const struct spaa_json_value *get(const struct spaa_json_value *o,
					 const char *key, enum spaa_json_type type)
{
	const struct spaa_json_value *m = spaa_json_get(o, key);

	return m && m->type == type ? m : NULL;
}

static bool get_i64(const struct spaa_json_value *o, const char *key, int64_t *out)
{
	const struct spaa_json_value *m = get(o, key, SPAA_JSON_NUMBER);

	return m && !spaa_json_get_i64(m, out);
}

static uint32_t node_of(const struct prof *pr, int64_t id)
{
	return spaa_map_find(&pr->ids, &id);
}

/*
 * One call-tree node: {"id", "callFrame": {functionName, url,
 * lineNumber, columnNumber}, "children": [ids] (a .cpuprofile) or
 * "parent": id (a trace chunk), "hitCount"}.
 */
static int add_node(struct v8 *v, struct prof *pr, const struct spaa_json_value *n,
		    struct spaa_error *err)
{
	const struct spaa_json_value *cf = get(n, "callFrame", SPAA_JSON_OBJECT);
	const struct spaa_json_value *fn, *url, *kids;
	struct spaa_sbuf src = { 0 };
	int64_t id, line, col, parent = INT64_MIN, hits = 0;
	uint32_t node, frame;
	bool created;
	const char *name, *dso;
	size_t name_len;

	if (!n || n->type != SPAA_JSON_OBJECT || !get_i64(n, "id", &id) || !cf)
		return fail(v, err, "a profile node needs an integer \"id\" and a \"callFrame\" object");
	fn = get(cf, "functionName", SPAA_JSON_STRING);
	url = get(cf, "url", SPAA_JSON_STRING);
	name = fn && fn->len ? fn->str : "(anonymous)";
	name_len = fn && fn->len ? fn->len : strlen(name);
	dso = url && url->len ? url->str : "(program)";
	if (spaa_json_get(n, "parent") && !get_i64(n, "parent", &parent))
		return fail(v, err, "node %" PRId64 ": \"parent\" is not an integer", id);
	if (spaa_json_get(n, "hitCount") && (!get_i64(n, "hitCount", &hits) || hits < 0))
		return fail(v, err, "node %" PRId64 ": \"hitCount\" is not a count", id);
	/* made after the checks above, which return without freeing it */
	if (url && url->len && get_i64(cf, "lineNumber", &line) && line >= 0) {
		if (!get_i64(cf, "columnNumber", &col) || col < 0)
			col = -1;
		spaa_sbuf_printf(&src, "%s:%" PRId64 ":%" PRId64, url->str, line + 1, col + 1);
	}

	node = spaa_map_intern(&pr->ids, &id, &created);
	if (!created) {
		free(src.s);
		return fail(v, err, "node id %" PRId64 " is defined twice", id);
	}
	frame = spaa_calltree_frame(v->p, name, name_len, dso, src.s, SPAA_FRAME_USER);
	free(src.s);
	spaa_calltree_node(&pr->t, SPAA_NONE, frame);
	if (!strcmp(name, "(root)") && !(url && url->len) && parent == INT64_MIN &&
	    pr->root == SPAA_NONE)
		pr->root = node;
	SPAA_ALLOC_GROW(pr->parent_id, (size_t)node + 1, pr->parent_alloc);
	SPAA_ALLOC_GROW(pr->hits, (size_t)node + 1, pr->hits_alloc);
	pr->hits[node] = (uint64_t)hits;
	pr->parent_id[node] = parent;
	/* children may name nodes not read yet: linked at the end */
	kids = spaa_json_get(n, "children");
	if (kids && kids->type != SPAA_JSON_ARRAY)
		return fail(v, err, "node %" PRId64 ": \"children\" is not an array", id);
	for (const struct spaa_json_value *k = kids ? kids->child : NULL; k; k = k->next) {
		int64_t kid;

		if (k->type != SPAA_JSON_NUMBER || spaa_json_get_i64(k, &kid))
			return fail(v, err, "node %" PRId64 ": a child id is not an integer", id);
		SPAA_ALLOC_GROW(pr->edges, pr->nedges + 1, pr->edges_alloc);
		pr->edges[pr->nedges].parent = id;
		pr->edges[pr->nedges++].child = kid;
	}
	return 0;
}

/* Links each node to its parent (by "children" or "parent"), then the tree. */
static int link_nodes(struct v8 *v, struct prof *pr, struct spaa_error *err)
{
	for (size_t i = 0; i < pr->nedges; i++) {
		uint32_t kn = node_of(pr, pr->edges[i].child);

		if (kn == SPAA_NONE || node_of(pr, pr->edges[i].parent) == SPAA_NONE)
			return fail(v, err, "node %" PRId64 " names child %" PRId64 ", which is not a node",
				    pr->edges[i].parent, pr->edges[i].child);
		if (pr->parent_id[kn] != INT64_MIN)
			return fail(v, err, "node %" PRId64 " has two parents", pr->edges[i].child);
		pr->parent_id[kn] = pr->edges[i].parent;
	}
	for (uint32_t n = 0; n < pr->t.nnodes; n++) {
		uint32_t parent;

		if (pr->parent_id[n] == INT64_MIN)
			continue;
		parent = node_of(pr, pr->parent_id[n]);
		if (parent == SPAA_NONE)
			return fail(v, err, "node %" PRId64 " has parent %" PRId64 ", which is not a node",
				    *(const int64_t *)spaa_map_key(&pr->ids, n), pr->parent_id[n]);
		/* "(root)" is no function: its children are the roots */
		if (parent != pr->root)
			spaa_calltree_set_parent(&pr->t, n, parent);
	}
	return 0;
}

/* One sample of node id, delta µs after the one before. */
static int add_sample(struct v8 *v, struct prof *pr, int64_t id, int64_t delta,
		      struct spaa_error *err)
{
	struct spaa_profile *p = v->p;
	uint32_t node = node_of(pr, id);
	uint64_t w[2] = { 1, delta > 0 ? (uint64_t)delta : 0 };
	struct spaa_sample s;

	if (node == SPAA_NONE && v->sample_no)
		return fail(v, err, "sample %" PRIu64 " names node %" PRId64 ", which is not a node",
			    v->sample_no, id);
	if (node == SPAA_NONE)
		return fail(v, err, "a sample names node %" PRId64 ", which is not a node", id);
	if (__builtin_add_overflow(pr->now, delta, &pr->now) ||
	    pr->now > INT64_MAX / 1000 || pr->now < INT64_MIN / 1000)
		return fail(v, err, "the sample time overflows 64-bit nanoseconds");
	if (spaa_calltree_add(&pr->t, node, w, err))
		return -1;
	/* the profile's start, before its first sample: what +T counts from */
	if (!pr->nsamples && pr->start >= INT64_MIN / 1000 && pr->start <= INT64_MAX / 1000)
		spaa_profile_cover_time(p, pr->start * 1000, pr->start * 1000);
	pr->nsamples++;
	memset(&s, 0, sizeof(s));
	s.time = pr->now * 1000;
	s.event = v->event;
	s.stack = spaa_calltree_stack(&pr->t, node);
	s.pid = pr->pid;
	s.tid = pr->t.tid;
	s.cpu = SPAA_NO_ID;
	s.has_period = true;
	s.period = w[1];
	s.period_metric = v->time_metric;
	s.file = v->file;
	s.line = spaa_jsonstream_line(v->js);
	p->nsamples++;
	p->events[v->event].nsamples++;
	p->files[v->file].nsamples++;
	spaa_profile_cover_time(p, s.time, s.time);
	if (spaa_load_sample(v->o, p, &s, err))
		return -1;
	return 0;
}

static int finish_prof(struct v8 *v, struct prof *pr, struct spaa_error *err)
{
	if (link_nodes(v, pr, err))
		return -1;
	if (!pr->nsamples) {
		/* hitCount alone: counts without times */
		for (uint32_t n = 0; n < pr->t.nnodes; n++) {
			uint64_t w[2] = { pr->hits[n], 0 };

			if (spaa_calltree_add(&pr->t, n, w, err))
				return -1;
			pr->nsamples += pr->hits[n];
		}
		pr->t.nmetrics = 1;
	}
	return spaa_calltree_finish(&pr->t, v->o->max_depth, err);
}

/* ---- .cpuprofile ----------------------------------------------------------- */

static int next(struct v8 *v, struct spaa_jsonstream_token *t, struct spaa_error *err)
{
	return spaa_jsonstream_next(v->js, t, err);
}

/* Skips the value whose first token is t. */
static int skip_value(struct v8 *v, const struct spaa_jsonstream_token *t,
		      struct spaa_error *err)
{
	if (t->type == SPAA_JSONSTREAM_OBJECT || t->type == SPAA_JSONSTREAM_ARRAY)
		return spaa_jsonstream_skip(v->js, err);
	return 0;
}

static int read_int(struct v8 *v, const char *what, int64_t *out, struct spaa_error *err)
{
	struct spaa_jsonstream_token t;
	struct spaa_json_value n;

	if (next(v, &t, err))
		return -1;
	n = spaa_jsonstream_number(&t);
	if (t.type != SPAA_JSONSTREAM_NUMBER || spaa_json_get_i64(&n, out))
		return fail(v, err, "\"%s\" must be an integer", what);
	return 0;
}

static int read_nodes(struct v8 *v, struct prof *pr, struct spaa_error *err)
{
	struct spaa_jsonstream_token t;

	if (next(v, &t, err))
		return -1;
	if (t.type != SPAA_JSONSTREAM_ARRAY)
		return fail(v, err, "\"nodes\" must be an array");
	for (;;) {
		const struct spaa_json_value *n;
		int r = spaa_jsonstream_parse(v->js, v->jp, "a node", &n, err);

		if (r)
			return r < 0 ? -1 : 0;
		if (add_node(v, pr, n, err))
			return -1;
	}
}

/* An array of integers spooled to a temporary file; *count of them. */
static int spool_array(struct v8 *v, const char *what, FILE **f, uint64_t *count,
		       struct spaa_error *err)
{
	struct spaa_jsonstream_token t;

	if (*f)
		return fail(v, err, "\"%s\" is given twice", what);
	if (next(v, &t, err))
		return -1;
	if (t.type != SPAA_JSONSTREAM_ARRAY)
		return fail(v, err, "\"%s\" must be an array", what);
	*f = tmpfile();
	if (!*f)
		return spaa_error_at(err, SPAA_E_IO, v->path, 0,
				     "cannot create a temporary file: %s", strerror(errno));
	for (;;) {
		struct spaa_json_value n;
		int64_t x;

		if (next(v, &t, err))
			return -1;
		if (t.type == SPAA_JSONSTREAM_ARRAY_END)
			break;
		n = spaa_jsonstream_number(&t);
		if (t.type != SPAA_JSONSTREAM_NUMBER || spaa_json_get_i64(&n, &x))
			return fail(v, err, "\"%s\" must hold integers only", what);
		if (fwrite(&x, sizeof(x), 1, *f) != 1)
			return spaa_error_at(err, SPAA_E_IO, v->path, 0,
					     "cannot write a temporary file: %s", strerror(errno));
		(*count)++;
	}
	if (fflush(*f) || fseek(*f, 0, SEEK_SET))
		return spaa_error_at(err, SPAA_E_IO, v->path, 0,
				     "cannot write a temporary file: %s", strerror(errno));
	return 0;
}

static int replay(struct v8 *v, struct prof *pr, FILE *samples, FILE *deltas,
		  uint64_t n, struct spaa_error *err)
{
	for (uint64_t i = 0; i < n; i++) {
		int64_t id, d;

		if (fread(&id, sizeof(id), 1, samples) != 1 ||
		    fread(&d, sizeof(d), 1, deltas) != 1)
			return spaa_error_at(err, SPAA_E_IO, v->path, 0,
					     "cannot read a temporary file back");
		v->sample_no = i + 1;
		if (add_sample(v, pr, id, d, err))
			return -1;
		if ((i & 0xfffff) == 0xfffff && v->o->on_progress)
			v->o->on_progress(v->o->progress_data,
					  v->bytes_base + spaa_input_bytes_read(v->in),
					  v->bytes_total);
	}
	return 0;
}

static int read_cpuprofile(struct v8 *v, struct spaa_error *err)
{
	struct prof *pr = prof_new(v);
	struct spaa_jsonstream_token t;
	FILE *samples = NULL, *deltas = NULL;
	uint64_t nsamples = 0, ndeltas = 0;
	bool has_end = false;
	int ret = -1;

	if (next(v, &t, err))
		goto out;
	if (t.type != SPAA_JSONSTREAM_OBJECT) {
		fail(v, err, "a CPU profile must be a JSON object");
		goto out;
	}
	for (;;) {
		if (next(v, &t, err))
			goto out;
		if (t.type == SPAA_JSONSTREAM_OBJECT_END)
			break;
		if (!strcmp(t.str, "nodes")) {
			if (read_nodes(v, pr, err))
				goto out;
		} else if (!strcmp(t.str, "startTime")) {
			if (read_int(v, "startTime", &pr->start, err))
				goto out;
			pr->has_start = true;
		} else if (!strcmp(t.str, "endTime")) {
			if (read_int(v, "endTime", &pr->end, err))
				goto out;
			has_end = true;
		} else if (!strcmp(t.str, "samples")) {
			if (spool_array(v, "samples", &samples, &nsamples, err))
				goto out;
		} else if (!strcmp(t.str, "timeDeltas")) {
			if (spool_array(v, "timeDeltas", &deltas, &ndeltas, err))
				goto out;
		} else if (next(v, &t, err) || skip_value(v, &t, err)) {
			goto out;
		}
	}
	if (next(v, &t, err))
		goto out;
	v->ended = true;
	if (!pr->t.nnodes) {
		fail(v, err, "the CPU profile has no \"nodes\"");
		goto out;
	}
	if (samples && !deltas) {
		fail(v, err, "the CPU profile has \"samples\" but no \"timeDeltas\"");
		goto out;
	}
	if (!samples && deltas) {
		fail(v, err, "the CPU profile has \"timeDeltas\" but no \"samples\"");
		goto out;
	}
	if (nsamples != ndeltas) {
		fail(v, err, "\"samples\" has %" PRIu64 " entries but \"timeDeltas\" %" PRIu64,
		     nsamples, ndeltas);
		goto out;
	}
	pr->now = pr->start;
	if (samples && replay(v, pr, samples, deltas, nsamples, err))
		goto out;
	if (!has_end)
		pr->end = pr->now;
	ret = 0;
out:
	if (samples)
		fclose(samples);
	if (deltas)
		fclose(deltas);
	return ret;
}

/* ---- trace files ------------------------------------------------------------ */

struct tname_key {
	int64_t pid, tid;
};

/* The profile of (pid, id) in a trace, made on first sight. */
static struct prof *trace_prof(struct v8 *v, int64_t pid, const char *id)
{
	struct prof *pr;

	for (size_t i = 0; i < v->nprofs; i++)
		if (v->profs[i]->pid == pid && !strcmp(v->profs[i]->id, id))
			return v->profs[i];
	pr = prof_new(v);
	pr->pid = pid;
	pr->id = spaa_xstrdup(id);
	return pr;
}

/* A trace event's "id": "0x1" (or a number, kept as written). */
static const char *event_id(const struct spaa_json_value *e, char *buf, size_t size)
{
	const struct spaa_json_value *id = spaa_json_get(e, "id");

	if (id && id->type == SPAA_JSON_STRING)
		return id->str;
	if (id && id->type == SPAA_JSON_NUMBER) {
		snprintf(buf, size, "%.*s", (int)(id->len < size - 1 ? id->len : size - 1), id->str);
		return buf;
	}
	return "";
}

static int trace_chunk(struct v8 *v, const struct spaa_json_value *e, int64_t pid,
		       struct spaa_error *err)
{
	const struct spaa_json_value *args = get(e, "args", SPAA_JSON_OBJECT);
	const struct spaa_json_value *data = get(args, "data", SPAA_JSON_OBJECT);
	const struct spaa_json_value *cp = get(data, "cpuProfile", SPAA_JSON_OBJECT);
	const struct spaa_json_value *nodes = get(cp, "nodes", SPAA_JSON_ARRAY);
	const struct spaa_json_value *smp = get(cp, "samples", SPAA_JSON_ARRAY);
	const struct spaa_json_value *dl = get(data, "timeDeltas", SPAA_JSON_ARRAY);
	char buf[64];
	struct prof *pr = trace_prof(v, pid, event_id(e, buf, sizeof(buf)));
	int64_t tid, end;

	if (pr->t.tid == SPAA_NO_ID && get_i64(e, "tid", &tid))
		pr->t.tid = tid;
	if (!pr->has_start) {
		/* no Profile event before it: the chunk's own time */
		if (!get_i64(e, "ts", &pr->start))
			pr->start = 0;
		pr->has_start = true;
		pr->now = pr->start;
	}
	/* the last chunk of a profile may hold only its endTime */
	if (get_i64(data, "endTime", &end))
		pr->end = end;
	for (const struct spaa_json_value *n = nodes ? nodes->child : NULL; n; n = n->next)
		if (add_node(v, pr, n, err))
			return -1;
	if ((smp ? smp->len : 0) != (dl ? dl->len : 0))
		return fail(v, err, "a ProfileChunk has %zu samples but %zu timeDeltas",
			    smp ? smp->len : 0, dl ? dl->len : 0);
	for (const struct spaa_json_value *s = smp ? smp->child : NULL, *d = dl ? dl->child : NULL;
	     s && d; s = s->next, d = d->next) {
		int64_t id, delta;

		if (s->type != SPAA_JSON_NUMBER || spaa_json_get_i64(s, &id) ||
		    d->type != SPAA_JSON_NUMBER || spaa_json_get_i64(d, &delta))
			return fail(v, err, "ProfileChunk samples and timeDeltas must be integers");
		if (add_sample(v, pr, id, delta, err))
			return -1;
	}
	return 0;
}

static int trace_event(struct v8 *v, const struct spaa_json_value *e,
		       struct spaa_error *err)
{
	const struct spaa_json_value *name = get(e, "name", SPAA_JSON_STRING);
	const struct spaa_json_value *args = get(e, "args", SPAA_JSON_OBJECT);
	int64_t pid = SPAA_NO_ID, tid, start;
	char buf[64];

	if (!e || e->type != SPAA_JSON_OBJECT)
		return fail(v, err, "a trace event must be an object");
	if (!name)
		return 0;
	(void)get_i64(e, "pid", &pid);
	if (!strcmp(name->str, "thread_name") && get_i64(e, "tid", &tid)) {
		const struct spaa_json_value *tn = get(args, "name", SPAA_JSON_STRING);
		struct tname_key k;
		bool created;
		uint32_t i;

		if (!tn)
			return 0;
		memset(&k, 0, sizeof(k));
		k.pid = pid;
		k.tid = tid;
		i = spaa_map_intern(&v->tnames, &k, &created);
		SPAA_ALLOC_GROW(v->tname, (size_t)i + 1, v->tname_alloc);
		v->tname[i] = spaa_strtab_intern(&v->p->strings, tn->str, tn->len);
		return 0;
	}
	if (!strcmp(name->str, "Profile")) {
		struct prof *pr = trace_prof(v, pid, event_id(e, buf, sizeof(buf)));

		if (get_i64(e, "tid", &tid))
			pr->t.tid = tid;
		if (!get_i64(get(args, "data", SPAA_JSON_OBJECT), "startTime", &start) &&
		    !get_i64(e, "ts", &start))
			start = 0;
		if (!pr->has_start) {
			pr->start = pr->now = start;
			pr->has_start = true;
		}
		return 0;
	}
	if (!strcmp(name->str, "ProfileChunk"))
		return trace_chunk(v, e, pid, err);
	return 0;
}

static int read_trace(struct v8 *v, struct spaa_error *err)
{
	struct spaa_jsonstream_token t;
	bool top_array;

	if (next(v, &t, err))
		return -1;
	top_array = t.type == SPAA_JSONSTREAM_ARRAY;
	if (!top_array && t.type != SPAA_JSONSTREAM_OBJECT)
		return fail(v, err, "a trace must be a JSON object or array");
	for (;;) {
		if (!top_array) {
			if (next(v, &t, err))
				return -1;
			if (t.type == SPAA_JSONSTREAM_OBJECT_END)
				break;
			if (strcmp(t.str, "traceEvents")) {
				if (next(v, &t, err) || skip_value(v, &t, err))
					return -1;
				continue;
			}
			if (next(v, &t, err))
				return -1;
			if (t.type != SPAA_JSONSTREAM_ARRAY)
				return fail(v, err, "\"traceEvents\" must be an array");
		}
		for (;;) {
			const struct spaa_json_value *e;
			int r = spaa_jsonstream_parse(v->js, v->jp, "a trace event", &e, err);

			if (r < 0)
				return -1;
			if (r)
				break;
			if (trace_event(v, e, err))
				return -1;
		}
		if (top_array)
			break;
	}
	if (next(v, &t, err))
		return -1;
	v->ended = true;
	return 0;
}

/* ---- the whole file --------------------------------------------------------- */

static int make_event(struct v8 *v, struct spaa_error *err)
{
	struct spaa_profile *p = v->p;
	struct spaa_event e = {
		.name = spaa_strtab_intern(&p->strings, "cpu-profile", 11),
		.kind = SPAA_EV_TIMER, .mode = SPAA_MODE_FREQUENCY,
		.primary_metric = spaa_strtab_intern(&p->strings, "samples", 7),
		.tracks_frees = -1, .has_timestamps = -1,
	};

	if (spaa_profile_use_event(p, &e, v->path, &v->event, err))
		return -1;
	v->time_metric = spaa_strtab_intern(&p->strings, "time_us", 7);
	return 0;
}

/* Threads, times and the sampling frequency, once every profile is read. */
static int finish(struct v8 *v, struct spaa_error *err)
{
	struct spaa_profile *p = v->p;
	struct spaa_file *f = &p->files[v->file];
	uint64_t n = 0;
	int64_t span = 0;

	if (!v->nprofs)
		return spaa_error_at(err, SPAA_E_NO_DATA, v->path, 0,
				     "the trace holds no CPU profile (no ProfileChunk event)");
	for (size_t i = 0; i < v->nprofs; i++) {
		struct prof *pr = v->profs[i];
		struct tname_key k;
		uint32_t tn;

		if (pr->pid != SPAA_NO_ID && pr->t.tid != SPAA_NO_ID) {
			uint32_t th = spaa_profile_intern_thread(p, pr->pid, pr->t.tid);

			memset(&k, 0, sizeof(k));
			k.pid = pr->pid;
			k.tid = pr->t.tid;
			tn = spaa_map_find(&v->tnames, &k);
			if (tn != SPAA_NONE)
				pr->t.comm = p->threads[th].comm = v->tname[tn];
		}
		pr->t.pid = pr->pid;
		if (finish_prof(v, pr, err))
			return -1;
		if (pr->start < INT64_MIN / 1000 || pr->start > INT64_MAX / 1000 ||
		    pr->end < INT64_MIN / 1000 || pr->end > INT64_MAX / 1000)
			return spaa_error_at(err, SPAA_E_LIMIT, v->path, 0,
					     "the profile's start or end time overflows 64-bit nanoseconds");
		if (pr->end < pr->now)
			pr->end = pr->now;
		if (!f->has_time_range || pr->start * 1000 < f->time_start)
			f->time_start = pr->start * 1000;
		if (!f->has_time_range || pr->end * 1000 > f->time_end)
			f->time_end = pr->end * 1000;
		f->has_time_range = true;
		n += pr->nsamples;
		span += pr->end - pr->start;
	}
	if (span > 0 && !p->events[v->event].frequency_hz)
		p->events[v->event].frequency_hz = floor((double)n * 1e6 / (double)span);
	spaa_profile_cover_time(p, f->time_start, f->time_end);
	return 0;
}

int spaa_v8_cpu_read(struct spaa_profile *p, struct spaa_input *in,
		     enum spaa_v8_kind kind, const struct spaa_load_opts *opts,
		     uint64_t bytes_base, uint64_t bytes_total, struct spaa_error *err)
{
	struct v8 v = {
		.p = p, .o = opts, .in = in, .path = spaa_input_name(in),
		.bytes_base = bytes_base, .bytes_total = bytes_total,
	};
	int ret = -1;

	v.file = spaa_profile_add_file(p, v.path, "chrome-cpuprofile");
	spaa_map_init(&v.tnames, sizeof(struct tname_key));
	v.js = spaa_jsonstream_new(in, 0, opts->max_line);
	v.jp = spaa_json_parser_new();
	if (opts->on_progress)
		opts->on_progress(opts->progress_data, bytes_base, bytes_total);
	if (make_event(&v, err) ||
	    (kind == SPAA_V8_TRACE ? read_trace(&v, err) : read_cpuprofile(&v, err)) ||
	    finish(&v, err))
		goto out;
	if (opts->on_progress)
		opts->on_progress(opts->progress_data, bytes_base + spaa_input_bytes_read(in),
				  bytes_total);
	ret = 0;
out:
	for (size_t i = 0; i < v.nprofs; i++)
		prof_free(v.profs[i]);
	free(v.profs);
	free(v.tname);
	spaa_map_release(&v.tnames);
	spaa_json_parser_free(v.jp);
	spaa_jsonstream_free(v.js);
	return ret;
}
