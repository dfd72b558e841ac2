#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/calltree.h"
#include "formats/v8_heap.h"
#include "io/json.h"
#include "io/jsonstream.h"
#include "model/util.h"

/* A trace node of a snapshot, kept until the strings (last) are read. */
struct tnode {
	uint32_t parent;        /* index into tnodes, or SPAA_NONE */
	uint32_t fi;            /* function info index */
	uint64_t count, size;
};

struct heap {
	struct spaa_profile *p;
	const struct spaa_load_opts *o;
	struct spaa_input *in;
	struct spaa_jsonstream *js;
	struct spaa_json_parser *jp;
	const char *path;
	uint32_t file, event;
	struct spaa_calltree t;

	/* the snapshot's meta: positions of the fields used, -1 when absent */
	bool have_meta;
	int fi_fields, fi_name, fi_script, fi_line, fi_col;
	int tn_fields, tn_fi, tn_count, tn_size, tn_children;
	int sm_fields, sm_ts;

	int64_t *fis;           /* trace_function_infos, flat */
	size_t nfis, fis_alloc;
	struct tnode *tn;
	size_t ntn, tn_alloc;
	struct spaa_map want;   /* string index (uint32) -> slot in kept */
	uint32_t *kept;         /* profile string index of each wanted string */
	bool strings_read;
	bool has_samples;
	int64_t ts_first, ts_last;

	/* sampling profile: samples per V8 node id, node by id */
	struct spaa_map ids;    /* node id (int64) -> slot in id_node */
	uint32_t *id_node;      /* tree node of each id */
	size_t id_alloc;
	struct spaa_map sample_ids;     /* node id (int64) -> slot in nsamples */
	uint64_t *nsamples;
	size_t nsamples_alloc;
	uint64_t *self_size;    /* by tree node */
	size_t self_alloc;
};

static const char *const metrics[2] = { "alloc_bytes", "alloc_count" };
static const char *const units[2] = { "bytes", NULL };

__attribute__((format(printf, 3, 4)))
static int fail(struct heap *h, struct spaa_error *err, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return spaa_jsonstream_fail(h->js, err, "%s", msg);
}

static int next(struct heap *h, struct spaa_jsonstream_token *t, struct spaa_error *err)
{
	return spaa_jsonstream_next(h->js, t, err);
}

static int skip_value(struct heap *h, struct spaa_error *err)
{
	struct spaa_jsonstream_token t;

	if (next(h, &t, err))
		return -1;
	if (t.type == SPAA_JSONSTREAM_OBJECT || t.type == SPAA_JSONSTREAM_ARRAY)
		return spaa_jsonstream_skip(h->js, err);
	return 0;
}

static int token_i64(struct heap *h, const struct spaa_jsonstream_token *t,
		     const char *what, int64_t *out, struct spaa_error *err)
{
	struct spaa_json_value v = spaa_jsonstream_number(t);

	if (t->type != SPAA_JSONSTREAM_NUMBER || spaa_json_get_i64(&v, out))
		return fail(h, err, "%s must hold integers", what);
	return 0;
}

static int read_i64(struct heap *h, const char *what, int64_t *out, struct spaa_error *err)
{
	struct spaa_jsonstream_token t;

	return next(h, &t, err) || token_i64(h, &t, what, out, err);
}

/* Captures and parses the next value (a small object). */
static const struct spaa_json_value *parse_value(struct heap *h, const char *what,
						 struct spaa_error *err)
{
	const struct spaa_json_value *v;
	int r = spaa_jsonstream_parse(h->js, h->jp, what, &v, err);

	if (r < 0)
		return NULL;
	if (r) {
		fail(h, err, "%s is missing", what);
		return NULL;
	}
	return v;
}

/* The frame of a function named name[0..len) in script (either may be empty). */
static uint32_t frame(struct heap *h, const char *name, size_t len, const char *script,
		      int64_t line, int64_t col)
{
	char *src = NULL;
	uint32_t f;

	if (*script && line > 0) {
		size_t n = strlen(script) + 48;

		src = spaa_xmalloc(n);
		snprintf(src, n, "%s:%" PRId64 ":%" PRId64, script, line, col > 0 ? col : 1);
	}
	if (!len) {
		name = "(anonymous)";
		len = strlen(name);
	}
	f = spaa_calltree_frame(h->p, name, len, *script ? script : "(program)", src,
				SPAA_FRAME_USER);
	free(src);
	return f;
}

static bool is_root(const struct spaa_profile *p, uint32_t frame)
{
	const struct spaa_function *fn = &p->functions[p->frames[frame].fn];

	return !strcmp(spaa_profile_str(p, fn->name), "(root)") &&
	       !strcmp(spaa_profile_str(p, p->dsos[fn->dso].name), "(program)");
}

/* "(root)" is no function: its children are the roots. */
static void drop_root(struct heap *h)
{
	struct spaa_calltree *t = &h->t;

	for (uint32_t n = 0; n < t->nnodes; n++) {
		uint32_t up = t->parent[n];

		if (up != SPAA_NONE && t->parent[up] == SPAA_NONE && is_root(h->p, t->frame[up]))
			t->parent[n] = SPAA_NONE;
	}
}

/* ---- heap snapshots and timelines ---------------------------------------- */

static int field(const struct spaa_json_value *meta, const char *list, const char *name,
		 int *nfields)
{
	const struct spaa_json_value *a = spaa_json_get(meta, list);
	int i = 0;

	*nfields = 0;
	if (!a || a->type != SPAA_JSON_ARRAY)
		return -1;
	*nfields = (int)a->len;
	for (const struct spaa_json_value *v = a->child; v; v = v->next, i++)
		if (v->type == SPAA_JSON_STRING && !strcmp(v->str, name))
			return i;
	return -1;
}

static int read_meta(struct heap *h, struct spaa_error *err)
{
	const struct spaa_json_value *s = parse_value(h, "\"snapshot\"", err), *meta;
	int n;

	if (!s)
		return -1;
	meta = spaa_json_get(s, "meta");
	h->fi_name = field(meta, "trace_function_info_fields", "name", &h->fi_fields);
	h->fi_script = field(meta, "trace_function_info_fields", "script_name", &n);
	h->fi_line = field(meta, "trace_function_info_fields", "line", &n);
	h->fi_col = field(meta, "trace_function_info_fields", "column", &n);
	h->tn_fi = field(meta, "trace_node_fields", "function_info_index", &h->tn_fields);
	h->tn_count = field(meta, "trace_node_fields", "count", &n);
	h->tn_size = field(meta, "trace_node_fields", "size", &n);
	h->tn_children = field(meta, "trace_node_fields", "children", &n);
	h->sm_ts = field(meta, "sample_fields", "timestamp_us", &h->sm_fields);
	if (h->fi_name < 0 || h->fi_script < 0 || h->tn_fi < 0 || h->tn_count < 0 ||
	    h->tn_size < 0 || h->tn_children != h->tn_fields - 1)
		return fail(h, err, "the snapshot's meta does not describe an allocation trace V8 writes (trace_function_info_fields with name and script_name; trace_node_fields with function_info_index, count, size and children last)");
	h->have_meta = true;
	return 0;
}

static int need_meta(struct heap *h, const char *key, struct spaa_error *err)
{
	if (!h->have_meta)
		return fail(h, err, "\"%s\" before the \"snapshot\" meta that describes it", key);
	return 0;
}

static int read_function_infos(struct heap *h, struct spaa_error *err)
{
	struct spaa_jsonstream_token t;

	if (need_meta(h, "trace_function_infos", err) || next(h, &t, err))
		return -1;
	if (t.type != SPAA_JSONSTREAM_ARRAY)
		return fail(h, err, "\"trace_function_infos\" must be an array");
	for (;;) {
		int64_t x;

		if (next(h, &t, err))
			return -1;
		if (t.type == SPAA_JSONSTREAM_ARRAY_END)
			break;
		if (token_i64(h, &t, "\"trace_function_infos\"", &x, err))
			return -1;
		SPAA_ALLOC_GROW(h->fis, h->nfis + 1, h->fis_alloc);
		h->fis[h->nfis++] = x;
	}
	if (h->nfis % (size_t)h->fi_fields)
		return fail(h, err, "\"trace_function_infos\" holds %zu numbers, not a multiple of its %d fields",
			    h->nfis, h->fi_fields);
	return 0;
}

/*
 * trace_tree: [id, function_info_index, count, size, [children...], ...]
 * nested as deep as the calls; read with a stack of parents.
 */
static int read_trace_tree(struct heap *h, struct spaa_error *err)
{
	struct spaa_jsonstream_token t;
	uint32_t *parents = NULL;
	size_t depth = 0, alloc = 0;
	int64_t vals[16];
	int k = 0, ret = -1;

	if (need_meta(h, "trace_tree", err) || next(h, &t, err))
		return -1;
	if (t.type != SPAA_JSONSTREAM_ARRAY)
		return fail(h, err, "\"trace_tree\" must be an array");
	if (h->tn_fields > 16)
		return fail(h, err, "trace nodes of %d fields", h->tn_fields);
	for (;;) {
		if (next(h, &t, err))
			goto out;
		if (t.type == SPAA_JSONSTREAM_ARRAY_END) {
			if (k) {
				fail(h, err, "a trace node with %d of its %d fields", k, h->tn_fields);
				goto out;
			}
			if (!depth)
				break;
			depth--;
			continue;
		}
		if (t.type == SPAA_JSONSTREAM_ARRAY) {
			struct tnode n;

			if (k != h->tn_children) {
				fail(h, err, "a trace node's children where field %d belongs", k);
				goto out;
			}
			if (vals[h->tn_count] < 0 || vals[h->tn_size] < 0) {
				fail(h, err, "a trace node with a negative count or size");
				goto out;
			}
			if (vals[h->tn_fi] < 0 ||
			    (uint64_t)vals[h->tn_fi] >= h->nfis / (size_t)h->fi_fields) {
				fail(h, err, "a trace node names function info %" PRId64 " of %zu",
				     vals[h->tn_fi], h->nfis / (size_t)h->fi_fields);
				goto out;
			}
			n.parent = depth ? parents[depth - 1] : SPAA_NONE;
			n.fi = (uint32_t)vals[h->tn_fi];
			n.count = (uint64_t)vals[h->tn_count];
			n.size = (uint64_t)vals[h->tn_size];
			SPAA_ALLOC_GROW(h->tn, h->ntn + 1, h->tn_alloc);
			h->tn[h->ntn] = n;
			SPAA_ALLOC_GROW(parents, depth + 1, alloc);
			parents[depth++] = (uint32_t)h->ntn++;
			k = 0;
			continue;
		}
		if (token_i64(h, &t, "\"trace_tree\"", &vals[k], err))
			goto out;
		if (++k > h->tn_children) {
			fail(h, err, "a trace node without its children array");
			goto out;
		}
	}
	ret = 0;
out:
	free(parents);
	return ret;
}

static int read_samples(struct heap *h, struct spaa_error *err)
{
	struct spaa_jsonstream_token t;
	size_t i = 0;

	if (need_meta(h, "samples", err) || next(h, &t, err))
		return -1;
	if (t.type != SPAA_JSONSTREAM_ARRAY)
		return fail(h, err, "\"samples\" must be an array");
	for (;; i++) {
		int64_t x;

		if (next(h, &t, err))
			return -1;
		if (t.type == SPAA_JSONSTREAM_ARRAY_END)
			return 0;
		if (token_i64(h, &t, "\"samples\"", &x, err))
			return -1;
		if (h->sm_ts < 0 || (int)(i % (size_t)h->sm_fields) != h->sm_ts)
			continue;
		if (x < 0 || x > INT64_MAX / 1000)
			return fail(h, err, "a sample time of %" PRId64 " µs", x);
		if (!h->has_samples || x < h->ts_first)
			h->ts_first = x;
		if (!h->has_samples || x > h->ts_last)
			h->ts_last = x;
		h->has_samples = true;
	}
}

/* Only the strings the function infos name are kept. */
static int read_strings(struct heap *h, struct spaa_error *err)
{
	struct spaa_jsonstream_token t;
	uint32_t i = 0;

	if (h->kept)
		return fail(h, err, "\"strings\" appears twice");
	if (!h->nfis && h->ntn)
		return fail(h, err, "\"strings\" before \"trace_function_infos\"");
	for (size_t f = 0; f < h->nfis; f += (size_t)h->fi_fields) {
		int pos[2] = { h->fi_name, h->fi_script };

		for (int j = 0; j < 2; j++) {
			int64_t s = h->fis[f + (size_t)pos[j]];
			uint32_t key;
			bool created;

			if (s < 0 || s > UINT32_MAX - 1)
				return fail(h, err, "function info %zu names string %" PRId64,
					    f / (size_t)h->fi_fields, s);
			key = (uint32_t)s;
			spaa_map_intern(&h->want, &key, &created);
		}
	}
	h->kept = spaa_xcalloc((size_t)h->want.nr + 1, sizeof(uint32_t));
	if (next(h, &t, err))
		return -1;
	if (t.type != SPAA_JSONSTREAM_ARRAY)
		return fail(h, err, "\"strings\" must be an array");
	for (;; i++) {
		uint32_t slot;

		if (next(h, &t, err))
			return -1;
		if (t.type == SPAA_JSONSTREAM_ARRAY_END)
			break;
		if (t.type != SPAA_JSONSTREAM_STRING)
			return fail(h, err, "\"strings\" must hold strings");
		slot = spaa_map_find(&h->want, &i);
		if (slot != SPAA_NONE)
			h->kept[slot] = spaa_strtab_intern(&h->p->strings, t.str, t.len) + 1;
	}
	h->strings_read = true;
	return 0;
}

/* The profile string (index + 1) of snapshot string s, 0 when missing. */
static const char *string_of(struct heap *h, int64_t s)
{
	uint32_t key = (uint32_t)s, slot = spaa_map_find(&h->want, &key);

	return slot == SPAA_NONE || !h->kept[slot] ? NULL :
	       spaa_profile_str(h->p, h->kept[slot] - 1);
}

static int build_trace(struct heap *h, struct spaa_error *err)
{
	size_t nf = h->nfis / (size_t)h->fi_fields;
	uint32_t *frame_of = spaa_xmalloc((nf + 1) * sizeof(uint32_t));
	int ret = -1;

	for (size_t f = 0; f < nf; f++)
		frame_of[f] = SPAA_NONE;
	for (size_t i = 0; i < h->ntn; i++) {
		const struct tnode *n = &h->tn[i];
		uint32_t node;

		if (frame_of[n->fi] == SPAA_NONE) {
			const int64_t *fi = h->fis + (size_t)n->fi * (size_t)h->fi_fields;
			const char *name = string_of(h, fi[h->fi_name]);
			const char *script = string_of(h, fi[h->fi_script]);

			if (!name || !script) {
				spaa_error_at(err, SPAA_E_INVALID, h->path, 0,
					      "function info %" PRIu32 " names a string past the end of \"strings\"",
					      n->fi);
				goto out;
			}
			frame_of[n->fi] = frame(h, name, strlen(name), script,
						h->fi_line >= 0 ? fi[h->fi_line] : 0,
						h->fi_col >= 0 ? fi[h->fi_col] : 0);
		}
		node = spaa_calltree_node(&h->t, n->parent, frame_of[n->fi]);
		if (spaa_calltree_add(&h->t, node, (const uint64_t[]){ n->size, n->count }, err))
			goto out;
	}
	ret = 0;
out:
	free(frame_of);
	return ret;
}

static int read_snapshot(struct heap *h, struct spaa_error *err)
{
	struct spaa_jsonstream_token t;

	if (next(h, &t, err))
		return -1;
	if (t.type != SPAA_JSONSTREAM_OBJECT)
		return fail(h, err, "a heap snapshot must be a JSON object");
	for (;;) {
		int r;

		if (next(h, &t, err))
			return -1;
		if (t.type == SPAA_JSONSTREAM_OBJECT_END)
			break;
		if (!strcmp(t.str, "snapshot"))
			r = read_meta(h, err);
		else if (!strcmp(t.str, "trace_function_infos"))
			r = read_function_infos(h, err);
		else if (!strcmp(t.str, "trace_tree"))
			r = read_trace_tree(h, err);
		else if (!strcmp(t.str, "samples"))
			r = read_samples(h, err);
		else if (!strcmp(t.str, "strings"))
			r = read_strings(h, err);
		else
			r = skip_value(h, err);   /* nodes, edges, locations: the heap graph */
		if (r)
			return -1;
	}
	if (next(h, &t, err))
		return -1;
	if (!h->ntn)
		return spaa_error_at(err, SPAA_E_NO_DATA, h->path, 0,
				     "the heap snapshot has no allocation trace: take it with allocation tracking (node --track-heap-objects, DevTools \"Allocation instrumentation on timeline\")");
	if (!h->strings_read)
		return spaa_error_at(err, SPAA_E_INVALID, h->path, 0,
				     "the heap snapshot has no \"strings\"");
	return build_trace(h, err);
}

/* ---- sampling heap profiles ------------------------------------------------ */

struct open_node {
	uint32_t node;
	bool in_children, has_frame, has_id;
};

static int heap_node_key(struct heap *h, struct open_node *top, const char *key,
			 struct spaa_error *err)
{
	struct spaa_jsonstream_token t;

	if (!strcmp(key, "callFrame")) {
		const struct spaa_json_value *cf = parse_value(h, "a callFrame", err), *fn, *url;
		int64_t line = -1, col = -1;

		if (!cf)
			return -1;
		fn = spaa_json_get(cf, "functionName");
		url = spaa_json_get(cf, "url");
		if (cf->type != SPAA_JSON_OBJECT || !fn || fn->type != SPAA_JSON_STRING ||
		    (url && url->type != SPAA_JSON_STRING))
			return fail(h, err, "a callFrame needs a string functionName");
		(void)spaa_json_get_i64(spaa_json_get(cf, "lineNumber"), &line);
		(void)spaa_json_get_i64(spaa_json_get(cf, "columnNumber"), &col);
		h->t.frame[top->node] = frame(h, fn->str, fn->len, url ? url->str : "",
					      line >= 0 ? line + 1 : 0, col >= 0 ? col + 1 : 0);
		top->has_frame = true;
		return 0;
	}
	if (!strcmp(key, "selfSize")) {
		int64_t v;

		if (read_i64(h, "\"selfSize\"", &v, err))
			return -1;
		if (v < 0)
			return fail(h, err, "a negative selfSize");
		h->self_size[top->node] = (uint64_t)v;
		return 0;
	}
	if (!strcmp(key, "id")) {
		int64_t id;
		bool created;
		uint32_t slot;

		if (read_i64(h, "\"id\"", &id, err))
			return -1;
		slot = spaa_map_intern(&h->ids, &id, &created);
		if (!created || top->has_id)
			return fail(h, err, "node id %" PRId64 " is given twice", id);
		SPAA_ALLOC_GROW(h->id_node, (size_t)slot + 1, h->id_alloc);
		h->id_node[slot] = top->node;
		top->has_id = true;
		return 0;
	}
	if (!strcmp(key, "children")) {
		if (next(h, &t, err))
			return -1;
		if (t.type != SPAA_JSONSTREAM_ARRAY)
			return fail(h, err, "\"children\" must be an array");
		top->in_children = true;
		return 0;
	}
	return skip_value(h, err);
}

/* The tree under "head", nested as deep as the calls: a stack of open nodes. */
static int read_head(struct heap *h, struct spaa_error *err)
{
	struct spaa_jsonstream_token t;
	struct open_node *stack = NULL;
	size_t depth = 0, alloc = 0;
	int ret = -1;

	if (h->t.nnodes)
		return fail(h, err, "\"head\" is given twice");
	if (next(h, &t, err))
		return -1;
	for (;;) {
		struct open_node *top = depth ? &stack[depth - 1] : NULL;

		if (t.type == SPAA_JSONSTREAM_OBJECT && (!top || top->in_children)) {
			uint32_t n = spaa_calltree_node(&h->t, top ? top->node : SPAA_NONE, SPAA_NONE);

			SPAA_ALLOC_GROW(h->self_size, (size_t)n + 1, h->self_alloc);
			h->self_size[n] = 0;
			SPAA_ALLOC_GROW(stack, depth + 1, alloc);
			stack[depth++] = (struct open_node){ .node = n };
		} else if (top && top->in_children && t.type == SPAA_JSONSTREAM_ARRAY_END) {
			top->in_children = false;
		} else if (top && t.type == SPAA_JSONSTREAM_KEY) {
			char *key = spaa_xstrdup(t.str);
			int r = heap_node_key(h, top, key, err);

			free(key);
			if (r)
				goto out;
		} else if (top && t.type == SPAA_JSONSTREAM_OBJECT_END) {
			if (!top->has_frame || !top->has_id) {
				fail(h, err, "a node needs a \"callFrame\" and an \"id\"");
				goto out;
			}
			if (!--depth)
				break;
		} else {
			fail(h, err, "\"head\" must be a node object with \"children\" nodes");
			goto out;
		}
		if (next(h, &t, err))
			goto out;
	}
	ret = 0;
out:
	free(stack);
	return ret;
}

static int read_heap_samples(struct heap *h, struct spaa_error *err)
{
	struct spaa_jsonstream_token t;

	if (next(h, &t, err))
		return -1;
	if (t.type != SPAA_JSONSTREAM_ARRAY)
		return fail(h, err, "\"samples\" must be an array");
	for (;;) {
		const struct spaa_json_value *s;
		int64_t id;
		bool created;
		uint32_t slot;
		int r = spaa_jsonstream_parse(h->js, h->jp, "a sample", &s, err);

		if (r)
			return r < 0 ? -1 : 0;
		if (spaa_json_get_i64(spaa_json_get(s, "nodeId"), &id))
			return fail(h, err, "a sample needs an integer \"nodeId\"");
		slot = spaa_map_intern(&h->sample_ids, &id, &created);
		SPAA_ALLOC_GROW(h->nsamples, (size_t)slot + 1, h->nsamples_alloc);
		if (created)
			h->nsamples[slot] = 0;
		h->nsamples[slot]++;
	}
}

static int read_heapprofile(struct heap *h, struct spaa_error *err)
{
	struct spaa_jsonstream_token t;
	uint64_t lost = 0;

	spaa_map_init(&h->ids, sizeof(int64_t));
	spaa_map_init(&h->sample_ids, sizeof(int64_t));
	if (next(h, &t, err))
		return -1;
	if (t.type != SPAA_JSONSTREAM_OBJECT)
		return fail(h, err, "a heap profile must be a JSON object");
	for (;;) {
		int r;

		if (next(h, &t, err))
			return -1;
		if (t.type == SPAA_JSONSTREAM_OBJECT_END)
			break;
		if (!strcmp(t.str, "head"))
			r = read_head(h, err);
		else if (!strcmp(t.str, "samples"))
			r = read_heap_samples(h, err);
		else
			r = skip_value(h, err);
		if (r)
			return -1;
	}
	if (next(h, &t, err))
		return -1;
	if (!h->t.nnodes)
		return spaa_error_at(err, SPAA_E_INVALID, h->path, 0, "the heap profile has no \"head\"");
	for (uint32_t s = 0; s < h->sample_ids.nr; s++) {
		const int64_t *id = spaa_map_key(&h->sample_ids, s);
		uint32_t slot = spaa_map_find(&h->ids, id), n;

		/* V8 lists samples of nodes its tree leaves out: real files have them */
		if (slot == SPAA_NONE) {
			lost += h->nsamples[s];
			continue;
		}
		n = h->id_node[slot];
		if (spaa_calltree_add(&h->t, n, (const uint64_t[]){ 0, h->nsamples[s] }, err))
			return -1;
	}
	if (lost)
		spaa_warn(&h->o->warn, h->path, 0,
			  "%" PRIu64 " samples name nodes that are not in the tree (V8 leaves them out); they are not counted",
			  lost);
	for (uint32_t n = 0; n < h->t.nnodes; n++)
		if (spaa_calltree_add(&h->t, n, (const uint64_t[]){ h->self_size[n], 0 }, err))
			return -1;
	return 0;
}

/* ---- the whole file --------------------------------------------------------- */

static int make_event(struct heap *h, bool timeline, struct spaa_error *err)
{
	struct spaa_profile *p = h->p;
	struct spaa_event e = {
		.name = spaa_strtab_intern(&p->strings, "allocation", 10),
		.kind = SPAA_EV_ALLOCATION, .mode = SPAA_MODE_EVENT,
		.primary_metric = spaa_strtab_intern(&p->strings, "alloc_bytes", 11),
		.tracks_frees = 0, .has_timestamps = timeline,
	};

	if (spaa_profile_use_event(p, &e, h->path, &h->event, err))
		return -1;
	h->t.event = h->event;
	return 0;
}

int spaa_v8_heap_read(struct spaa_profile *p, struct spaa_input *in,
		      enum spaa_v8_kind kind, const struct spaa_load_opts *opts,
		      uint64_t bytes_base, uint64_t bytes_total, struct spaa_error *err)
{
	struct heap h = {
		.p = p, .o = opts, .in = in, .path = spaa_input_name(in),
	};
	struct spaa_file *f;
	int ret = -1;

	h.file = spaa_profile_add_file(p, h.path, kind == SPAA_V8_HEAPPROFILE ?
				       "chrome-heapprofile" : "chrome-heapsnapshot");
	spaa_calltree_init(&h.t, p, h.path, h.file, 0, metrics, units, 2);
	spaa_map_init(&h.want, sizeof(uint32_t));
	/* the trace tree nests two levels a call */
	h.js = spaa_jsonstream_new(in, opts->max_depth < UINT32_MAX / 2 - 8 ?
				   2 * opts->max_depth + 8 : UINT32_MAX, opts->max_line);
	h.jp = spaa_json_parser_new();
	if (opts->on_progress)
		opts->on_progress(opts->progress_data, bytes_base, bytes_total);
	if (kind == SPAA_V8_HEAPPROFILE ? read_heapprofile(&h, err) : read_snapshot(&h, err))
		goto out;
	if (make_event(&h, h.has_samples, err))
		goto out;
	drop_root(&h);
	if (spaa_calltree_finish(&h.t, opts->max_depth, err))
		goto out;
	if (h.has_samples) {
		f = &p->files[h.file];
		f->has_time_range = true;
		f->time_start = h.ts_first * 1000;
		f->time_end = h.ts_last * 1000;
		spaa_profile_cover_time(p, f->time_start, f->time_end);
	}
	if (opts->on_progress)
		opts->on_progress(opts->progress_data, bytes_base + spaa_input_bytes_read(in),
				  bytes_total);
	ret = 0;
out:
	spaa_calltree_release(&h.t);
	spaa_map_release(&h.want);
	spaa_map_release(&h.ids);
	spaa_map_release(&h.sample_ids);
	free(h.kept);
	free(h.fis);
	free(h.tn);
	free(h.nsamples);
	free(h.self_size);
	free(h.id_node);
	spaa_json_parser_free(h.jp);
	spaa_jsonstream_free(h.js);
	return ret;
}
