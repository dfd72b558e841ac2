#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/spaa_reader_impl.h"
#include "io/jsonw.h"
#include "model/util.h"

static const char *const known_tools[] = {
	"perf", "dtrace", "chrome-cpuprofile", "chrome-heapsnapshot",
	"chrome-heaptimeline", "chrome-heapprofile", "spx", "spaa-convert", "spaa-tools",
	"heaptrack", "pprof", "jemalloc", "tcmalloc", "bpftrace", "ebpf",
	"async-profiler", "py-spy", "folded", NULL,
};

static const char *const known_context[] = {
	"event", "pid", "tid", "cpu", "comm", "probe", "execname", "uid",
	"zonename", "trace_fields",
	"labels",       /* pprof's sample labels (formats/pprof.h), kept */
	NULL,
};

static bool in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

/* ---- typed field access ------------------------------------------------ */

/* A short, printable rendering of a value for messages. */
static const char *show(const struct spaa_json_value *v, char *buf, size_t size)
{
	if (v->type == SPAA_JSON_NUMBER)
		snprintf(buf, size, "%.*s", (int)(v->len > 40 ? 40 : v->len), v->str);
	else if (v->type == SPAA_JSON_STRING)
		snprintf(buf, size, "'%.*s'", (int)(v->len > 40 ? 40 : v->len), v->str);
	else
		snprintf(buf, size, "%s", spaa_json_type_name(v->type));
	return buf;
}

/*
 * Fetches member key of obj and checks its JSON type (SPAA_JSON_TRUE stands for
 * "a boolean").  Returns 1 if present, 0 if absent (or null) and not
 * required, -1 with err set otherwise.
 */
int spaa_reader_field(struct spaa_reader *r, const struct spaa_json_value *obj,
		 const char *rtype, const char *key, enum spaa_json_type want,
		 bool required, const struct spaa_json_value **out,
		 struct spaa_error *err)
{
	const struct spaa_json_value *v = spaa_json_get(obj, key);
	enum spaa_json_type t;

	*out = NULL;
	if (!v || v->type == SPAA_JSON_NULL) {
		if (required)
			return spaa_reader_bad(r, err, "'%s' record has no '%s'", rtype, key);
		return 0;
	}
	t = v->type == SPAA_JSON_FALSE ? SPAA_JSON_TRUE : v->type;
	/* names and enums are compared as C strings: a "\u0000" would cut them */
	if (t == SPAA_JSON_STRING && want == SPAA_JSON_STRING && strlen(v->str) != v->len)
		return spaa_reader_bad(r, err, "'%s' in '%s' record contains a NUL character",
			   key, rtype);
	if (t != want)
		return spaa_reader_bad(r, err, "'%s' in '%s' record must be %s, not %s", key,
			   rtype, want == SPAA_JSON_TRUE ? "a boolean" :
			   want == SPAA_JSON_NUMBER ? "a number" :
			   want == SPAA_JSON_STRING ? "a string" :
			   want == SPAA_JSON_ARRAY ? "an array" : "an object",
			   spaa_json_type_name(v->type));
	*out = v;
	return 1;
}

int spaa_reader_u64_value(struct spaa_reader *r, const struct spaa_json_value *v,
		     const char *rtype, const char *key, uint64_t *out,
		     struct spaa_error *err)
{
	char buf[64];

	if (v->type != SPAA_JSON_NUMBER || spaa_json_get_u64(v, out))
		return spaa_reader_bad(r, err, "'%s' in '%s' record must be a non-negative integer below 2^64, not %s",
			   key, rtype, show(v, buf, sizeof(buf)));
	return 0;
}

static int i64_value(struct spaa_reader *r, const struct spaa_json_value *v,
		     const char *rtype, const char *key, int64_t *out,
		     struct spaa_error *err)
{
	char buf[64];

	if (v->type != SPAA_JSON_NUMBER || spaa_json_get_i64(v, out))
		return spaa_reader_bad(r, err, "'%s' in '%s' record must be a 64-bit integer, not %s",
			   key, rtype, show(v, buf, sizeof(buf)));
	return 0;
}

/* Optional signed id field (pid, tid, cpu): SPAA_NO_ID when absent. */
int spaa_reader_opt_i64(struct spaa_reader *r, const struct spaa_json_value *obj,
		   const char *rtype, const char *key, int64_t *out,
		   struct spaa_error *err)
{
	const struct spaa_json_value *v = spaa_json_get(obj, key);

	*out = SPAA_NO_ID;
	if (!v || v->type == SPAA_JSON_NULL)
		return 0;
	if (i64_value(r, v, rtype, key, out, err))
		return -1;
	if (*out == SPAA_NO_ID)
		return spaa_reader_bad(r, err, "'%s' in '%s' record is out of range", key, rtype);
	return 0;
}

static int opt_bool(struct spaa_reader *r, const struct spaa_json_value *obj,
		    const char *rtype, const char *key, bool dflt, bool *out,
		    struct spaa_error *err)
{
	const struct spaa_json_value *v;
	int ret = spaa_reader_field(r, obj, rtype, key, SPAA_JSON_TRUE, false, &v, err);

	if (ret < 0)
		return -1;
	*out = ret ? v->type == SPAA_JSON_TRUE : dflt;
	return 0;
}

/* Interned string member; 0 when absent and optional. */
int spaa_reader_str_field(struct spaa_reader *r, const struct spaa_json_value *obj,
		     const char *rtype, const char *key, bool required,
		     uint32_t *out, struct spaa_error *err)
{
	const struct spaa_json_value *v;
	int ret = spaa_reader_field(r, obj, rtype, key, SPAA_JSON_STRING, required, &v, err);

	if (ret < 0)
		return -1;
	*out = 0;
	return ret ? spaa_reader_intern(r, v->str, v->len, out, err) : 0;
}

/* Index of s in names[], or -1 with an error naming the allowed values. */
static int enum_value(struct spaa_reader *r, const struct spaa_json_value *v,
		      const char *rtype, const char *key,
		      const char *const *names, struct spaa_error *err)
{
	char allowed[256] = "";
	char buf[64];

	for (int i = 0; names[i]; i++) {
		/* by length too: "\u0000" may hide inside a JSON string */
		if (v->len == strlen(names[i]) && !memcmp(v->str, names[i], v->len))
			return i;
		snprintf(allowed + strlen(allowed), sizeof(allowed) - strlen(allowed),
			 "%s'%s'", i ? ", " : "", names[i]);
	}
	return spaa_reader_bad(r, err, "'%s' in '%s' record is %s, not one of %s", key, rtype,
		   show(v, buf, sizeof(buf)), allowed);
}

static int enum_field(struct spaa_reader *r, const struct spaa_json_value *obj,
		      const char *rtype, const char *key, bool required,
		      const char *const *names, int dflt, int *out,
		      struct spaa_error *err)
{
	const struct spaa_json_value *v;
	int ret = spaa_reader_field(r, obj, rtype, key, SPAA_JSON_STRING, required, &v, err);

	if (ret < 0)
		return -1;
	if (!ret) {
		*out = dflt;
		return 0;
	}
	*out = enum_value(r, v, rtype, key, names, err);
	return *out < 0 ? -1 : 0;
}

/* A stack id: a string, or a number kept as its digits. */
int spaa_reader_stack_id_text(struct spaa_reader *r, const struct spaa_json_value *v,
			 const char *rtype, const char *key, uint32_t *out,
			 struct spaa_error *err)
{
	if (v->type != SPAA_JSON_STRING && v->type != SPAA_JSON_NUMBER)
		return spaa_reader_bad(r, err, "'%s' in '%s' record must be a string or a number, not %s",
			   key, rtype, spaa_json_type_name(v->type));
	return spaa_reader_intern(r, v->str, v->len, out, err);
}

/* Time value in the file's unit (exp10 digits below ns) to ns, exactly. */
int spaa_reader_time_value(struct spaa_reader *r, const struct spaa_json_value *v,
		      const char *rtype, const char *key, int exp10,
		      int64_t *out, struct spaa_error *err)
{
	char buf[64];

	if (v->type != SPAA_JSON_NUMBER || spaa_json_get_scaled(v, exp10, out))
		return spaa_reader_bad(r, err, "'%s' in '%s' record must be a time that fits in 64-bit nanoseconds, not %s",
			   key, rtype, show(v, buf, sizeof(buf)));
	return 0;
}

static int time_unit(struct spaa_reader *r, const struct spaa_json_value *v,
		     const char *rtype, int *exp10, struct spaa_error *err)
{
	static const char *const names[] = {
		"seconds", "s", "milliseconds", "ms", "microseconds", "us",
		"nanoseconds", "ns", NULL,
	};
	static const int scale[] = { 9, 9, 6, 6, 3, 3, 0, 0 };
	int i = enum_value(r, v, rtype, "unit", names, err);

	if (i < 0)
		return -1;
	*exp10 = scale[i];
	return 0;
}

/* ---- records ----------------------------------------------------------- */

static int read_event(struct spaa_reader *r, const struct spaa_json_value *ev,
		      struct spaa_error *err)
{
	static const char *const kinds[] = {
		"hardware", "software", "allocation", "deallocation", "timer",
		"probe", NULL,
	};
	static const char *const modes[] = { "period", "frequency", "event", NULL };
	struct spaa_profile *p = r->p;
	const struct spaa_json_value *sampling, *v;
	struct spaa_event e = { .tracks_frees = -1, .has_timestamps = -1 };
	const char *rt = "header";
	int kind, mode;
	uint32_t idx;
	int ret;

	if (ev->type != SPAA_JSON_OBJECT)
		return spaa_reader_bad(r, err, "events in 'header' record must be objects, not %s",
			   spaa_json_type_name(ev->type));
	if (spaa_reader_str_field(r, ev, rt, "name", true, &e.name, err) ||
	    enum_field(r, ev, rt, "kind", true, kinds, 0, &kind, err) ||
	    spaa_reader_field(r, ev, rt, "sampling", SPAA_JSON_OBJECT, true, &sampling, err) < 0 ||
	    enum_field(r, sampling, rt, "mode", true, modes, 0, &mode, err) ||
	    spaa_reader_str_field(r, sampling, rt, "primary_metric", true, &e.primary_metric, err))
		return -1;
	e.kind = kind;
	e.mode = mode;
	if ((ret = spaa_reader_field(r, sampling, rt, "frequency_hz", SPAA_JSON_NUMBER, false, &v, err)) < 0)
		return -1;
	if (ret && (spaa_json_get_double(v, &e.frequency_hz) || !(e.frequency_hz > 0)))
		return spaa_reader_bad(r, err, "'frequency_hz' of event '%s' must be a positive number",
			   spaa_profile_str(p, e.name));
	if ((ret = spaa_reader_field(r, sampling, rt, "sample_period", SPAA_JSON_NUMBER, false, &v, err)) < 0 ||
	    (ret && spaa_reader_u64_value(r, v, rt, "sample_period", &e.sample_period, err)))
		return -1;
	if ((ret = spaa_reader_field(r, ev, rt, "allocation_tracking", SPAA_JSON_OBJECT, false, &v, err)) < 0)
		return -1;
	if (ret) {
		bool b;

		if (spaa_json_get(v, "tracks_frees")) {
			if (opt_bool(r, v, rt, "tracks_frees", false, &b, err))
				return -1;
			e.tracks_frees = b;
		}
		if (spaa_json_get(v, "has_timestamps")) {
			if (opt_bool(r, v, rt, "has_timestamps", false, &b, err))
				return -1;
			e.has_timestamps = b;
		}
	}

	idx = spaa_profile_find_event_str(p, e.name);
	if (idx != SPAA_NONE && spaa_map_find(&r->file_events, &idx) != SPAA_NONE)
		return spaa_reader_bad(r, err, "event '%s' is declared twice in the header",
				       spaa_profile_str(p, e.name));
	if (r->nevents >= spaa_reader_max_events(r->o))
		return spaa_error_at(err, SPAA_E_LIMIT, r->path, r->line,
				     "more than %u events in the header: the limit (SPAA_MAX_EVENTS)",
				     spaa_reader_max_events(r->o));
	if (idx == SPAA_NONE) {
		e.file = r->file;
		idx = spaa_profile_add_event(p, &e);
	} else if (p->events[idx].primary_metric != e.primary_metric ||
		   p->events[idx].kind != e.kind) {
		/* one name, two meanings: the files cannot be read as one profile */
		return spaa_reader_bad(r, err, "event '%s' is %s with primary metric '%s' here but %s with primary metric '%s' in %s",
			   spaa_profile_str(p, e.name), kinds[e.kind],
			   spaa_profile_str(p, e.primary_metric), kinds[p->events[idx].kind],
			   spaa_profile_str(p, p->events[idx].primary_metric),
			   p->files[p->events[idx].file].path);
	}
	spaa_map_intern(&r->file_events, &idx, NULL);
	SPAA_ALLOC_GROW(r->events, (size_t)r->nevents + 1, r->events_alloc);
	r->events[r->nevents++] = idx;
	return 0;
}

int spaa_reader_read_header(struct spaa_reader *r, const struct spaa_json_value *v,
		       struct spaa_error *err)
{
	static const char *const orders[] = { "leaf_to_root", "root_to_leaf", NULL };
	static const char *const modes[] = { "content_addressable", "local", NULL };
	struct spaa_profile *p = r->p;
	struct spaa_file *f = &p->files[r->file];
	const struct spaa_json_value *fmt, *ver, *events, *tr;
	const char *rt = "header";
	int order, mode;

	if (r->seen_header)
		return spaa_reader_bad(r, err, "second 'header' record (the first is on line %lu)",
			   r->header_line);
	r->seen_header = true;
	r->header_line = r->line;

	if (spaa_reader_field(r, v, rt, "format", SPAA_JSON_STRING, true, &fmt, err) < 0)
		return -1;
	if (fmt->len != 4 || memcmp(fmt->str, "spaa", 4))
		return spaa_reader_bad(r, err, "not a SPAA file: 'format' is '%s', not 'spaa'", fmt->str);
	if (spaa_reader_field(r, v, rt, "version", SPAA_JSON_STRING, false, &ver, err) < 0)
		return -1;
	if (!ver)
		spaa_reader_warn(r, "no-version", "'header' record has no 'version'; assuming 1.0");
	else if (strncmp(ver->str, "1.", 2) && strcmp(ver->str, "1"))
		spaa_reader_warn(r, "version", "SPAA version '%s' is not 1.x; reading it as 1.0",
		     ver->str);
	if (spaa_reader_str_field(r, v, rt, "source_tool", false, &f->source_tool, err))
		return -1;
	if (!f->source_tool)
		spaa_reader_warn(r, "no-tool", "'header' record has no 'source_tool'");
	else if (!in_list(known_tools, spaa_profile_str(p, f->source_tool)))
		spaa_reader_warn(r, "tool", "unknown source_tool '%s'", spaa_profile_str(p, f->source_tool));
	if (enum_field(r, v, rt, "frame_order", true, orders, 0, &order, err) ||
	    enum_field(r, v, rt, "stack_id_mode", true, modes, 0, &mode, err))
		return -1;
	r->root_to_leaf = f->root_to_leaf = order == 1;
	f->content_addressable = mode == 0;

	if (spaa_reader_field(r, v, rt, "events", SPAA_JSON_ARRAY, true, &events, err) < 0)
		return -1;
	if (!events->len)
		return spaa_reader_bad(r, err, "'header' record declares no events");
	for (const struct spaa_json_value *e = events->child; e; e = e->next)
		if (read_event(r, e, err))
			return -1;

	r->time_exp10 = 9;      /* samples are in seconds unless told otherwise */
	if (spaa_reader_field(r, v, rt, "time_range", SPAA_JSON_OBJECT, false, &tr, err) < 0)
		return -1;
	if (tr) {
		const struct spaa_json_value *start, *end, *unit;

		if (spaa_reader_field(r, tr, rt, "start", SPAA_JSON_NUMBER, true, &start, err) < 0 ||
		    spaa_reader_field(r, tr, rt, "end", SPAA_JSON_NUMBER, true, &end, err) < 0 ||
		    spaa_reader_field(r, tr, rt, "unit", SPAA_JSON_STRING, true, &unit, err) < 0 ||
		    time_unit(r, unit, rt, &r->time_exp10, err) ||
		    spaa_reader_time_value(r, start, rt, "start", r->time_exp10, &f->time_start, err) ||
		    spaa_reader_time_value(r, end, rt, "end", r->time_exp10, &f->time_end, err))
			return -1;
		if (f->time_end < f->time_start)
			return spaa_reader_bad(r, err, "'time_range' ends before it starts");
		f->has_time_range = true;
		spaa_profile_cover_time(p, f->time_start, f->time_end);
	}
	return 0;
}

int spaa_reader_read_dso(struct spaa_reader *r, const struct spaa_json_value *v,
		    struct spaa_error *err)
{
	const struct spaa_json_value *idv;
	uint32_t name, build_id;
	uint64_t id;
	bool is_kernel;

	if (spaa_reader_field(r, v, "dso", "id", SPAA_JSON_NUMBER, true, &idv, err) < 0 ||
	    spaa_reader_u64_value(r, idv, "dso", "id", &id, err) ||
	    spaa_reader_str_field(r, v, "dso", "name", true, &name, err) ||
	    spaa_reader_str_field(r, v, "dso", "build_id", false, &build_id, err) ||
	    opt_bool(r, v, "dso", "is_kernel", false, &is_kernel, err))
		return -1;
	if (!spaa_reader_bind(&r->dso_ids, &r->dso_of, &r->dso_of_alloc, &id,
		  spaa_profile_intern_dso(r->p, name, build_id, is_kernel)))
		return spaa_reader_bad(r, err, "duplicate dso id %" PRIu64, id);
	return 0;
}

int spaa_reader_read_frame(struct spaa_reader *r, const struct spaa_json_value *v,
		      struct spaa_error *err)
{
	static const char *const kinds[] = { "user", "kernel", "unknown", NULL };
	struct spaa_profile *p = r->p;
	const struct spaa_json_value *idv, *dsov, *depth;
	struct spaa_frame f = { .inline_depth = -1 };
	uint64_t id, dso_id;
	uint32_t func, dso, fi;
	int kind, ret;

	if (spaa_reader_field(r, v, "frame", "id", SPAA_JSON_NUMBER, true, &idv, err) < 0 ||
	    spaa_reader_u64_value(r, idv, "frame", "id", &id, err) ||
	    spaa_reader_str_field(r, v, "frame", "func", true, &func, err) ||
	    spaa_reader_field(r, v, "frame", "dso", SPAA_JSON_NUMBER, true, &dsov, err) < 0 ||
	    spaa_reader_u64_value(r, dsov, "frame", "dso", &dso_id, err))
		return -1;
	dso = spaa_reader_lookup(&r->dso_ids, r->dso_of, &dso_id);
	if (dso == SPAA_NONE)
		return spaa_reader_bad(r, err, "frame %" PRIu64 " references unknown dso id %" PRIu64,
			   id, dso_id);
	if (spaa_reader_str_field(r, v, "frame", "ip", false, &f.ip, err) ||
	    spaa_reader_str_field(r, v, "frame", "srcline", false, &f.srcline, err) ||
	    opt_bool(r, v, "frame", "func_resolved", true, &f.func_resolved, err) ||
	    opt_bool(r, v, "frame", "inlined", false, &f.inlined, err) ||
	    enum_field(r, v, "frame", "kind", false, kinds,
		       p->dsos[dso].is_kernel ? SPAA_FRAME_KERNEL : SPAA_FRAME_USER,
		       &kind, err))
		return -1;
	f.kind = kind;
	if ((ret = spaa_reader_field(r, v, "frame", "inline_depth", SPAA_JSON_NUMBER, false, &depth, err)) < 0)
		return -1;
	if (ret) {
		uint64_t d;

		if (spaa_reader_u64_value(r, depth, "frame", "inline_depth", &d, err))
			return -1;
		if (d > 10000)
			return spaa_reader_bad(r, err, "'inline_depth' %" PRIu64 " is absurd", d);
		f.inline_depth = (int)d;
	}
	f.fn = spaa_profile_intern_function(p, func, dso);

	fi = r->rep ? spaa_repeats_frame(r->rep, &f) : SPAA_NONE;
	if (!spaa_reader_bind_frame(r, id, fi != SPAA_NONE ? fi : p->nframes))
		return spaa_reader_bad(r, err, "duplicate frame id %" PRIu64, id);
	if (fi != SPAA_NONE)
		return 0;
	SPAA_ALLOC_GROW(p->frames, (size_t)p->nframes + 1, p->frames_alloc);
	p->frames[p->nframes++] = f;
	return 0;
}

int spaa_reader_read_thread(struct spaa_reader *r, const struct spaa_json_value *v,
		       struct spaa_error *err)
{
	struct spaa_profile *p = r->p;
	const struct spaa_json_value *pv, *tv;
	int64_t pid, tid;
	uint32_t comm, t;

	if (spaa_reader_field(r, v, "thread", "pid", SPAA_JSON_NUMBER, true, &pv, err) < 0 ||
	    i64_value(r, pv, "thread", "pid", &pid, err) ||
	    spaa_reader_field(r, v, "thread", "tid", SPAA_JSON_NUMBER, true, &tv, err) < 0 ||
	    i64_value(r, tv, "thread", "tid", &tid, err) ||
	    spaa_reader_str_field(r, v, "thread", "comm", false, &comm, err))
		return -1;
	t = spaa_profile_intern_thread(p, pid, tid);
	spaa_reader_tid_cache_clear(r);
	if (comm)
		p->threads[t].comm = comm;
	/* tid alone identifies a thread within a file (spec 3.4): last wins */
	if (!spaa_reader_bind(&r->tids, &r->thread_of, &r->thread_of_alloc, &tid, t)) {
		uint32_t *old = &r->thread_of[spaa_map_find(&r->tids, &tid)];

		if (p->threads[*old].pid != pid)
			spaa_reader_warn(r, "thread-tid", "thread %" PRId64 " is declared again with another pid (%" PRId64 ", was %" PRId64 "); the last one is used",
			     tid, pid, p->threads[*old].pid);
		*old = t;
	}
	return 0;
}

/* Appends x to the n weights in r->wbuf, unless its metric is there. */
static int weight_push(struct spaa_reader *r, const char *rtype, uint32_t n,
		       const struct spaa_weight *x, struct spaa_error *err)
{
	for (uint32_t i = 0; i < n; i++)
		if (r->wbuf[i].metric == x->metric)
			return spaa_reader_bad(r, err, "metric '%s' appears twice in the weights of a '%s' record",
					       spaa_profile_str(r->p, x->metric), rtype);
	r->wbuf[n] = *x;
	return 0;
}

/* Parses a weights array into r->wbuf; returns the count or -1. */
static int read_weights(struct spaa_reader *r, const struct spaa_json_value *arr,
			const char *rtype, struct spaa_error *err)
{
	uint32_t n = 0;

	SPAA_ALLOC_GROW(r->wbuf, arr->len, r->wbuf_alloc);
	for (const struct spaa_json_value *w = arr->child; w; w = w->next) {
		const struct spaa_json_value *val;
		struct spaa_weight x;

		if (w->type != SPAA_JSON_OBJECT)
			return spaa_reader_bad(r, err, "weights in '%s' record must be objects, not %s",
				   rtype, spaa_json_type_name(w->type));
		if (spaa_reader_str_field(r, w, rtype, "metric", true, &x.metric, err) ||
		    spaa_reader_str_field(r, w, rtype, "unit", false, &x.unit, err) ||
		    spaa_reader_field(r, w, rtype, "value", SPAA_JSON_NUMBER, true, &val, err) < 0 ||
		    spaa_reader_u64_value(r, val, rtype, "value", &x.value, err) ||
		    weight_push(r, rtype, n++, &x, err))
			return -1;
	}
	return (int)n;
}

/*
 * The frame order check of spec 7: inlined frames sharing an address are
 * written deepest first in leaf-to-root order, so a depth that grows
 * toward the leaf means the frames were written in the other order.
 * Not after a physical frame (depth 0): there the next frame may begin
 * the same group again, a recursive call from the same address (pprof
 * and perf stacks of recursive code with inlined calls).
 */
static int check_inline_order(struct spaa_reader *r, const uint32_t *fr, uint32_t n,
			      struct spaa_error *err)
{
	const struct spaa_frame *frames = r->p->frames;

	for (uint32_t i = 0; i + 1 < n; i++) {
		const struct spaa_frame *a = &frames[fr[i]], *b = &frames[fr[i + 1]];

		if (a->inline_depth >= 0 && b->inline_depth >= 0 && a->ip &&
		    a->ip == b->ip &&
		    r->p->functions[a->fn].dso == r->p->functions[b->fn].dso &&
		    a->inline_depth > 0 && a->inline_depth < b->inline_depth)
			return spaa_reader_bad(r, err, "frame order does not match the header's '%s': inline depth grows toward the leaf",
				   r->root_to_leaf ? "root_to_leaf" : "leaf_to_root");
	}
	return 0;
}

struct label {
	const struct spaa_json_value *v;
	size_t pos;
};

static int label_cmp(const void *a, const void *b)
{
	const struct label *x = a, *y = b;
	int c = strcmp(x->v->key, y->v->key);

	return c ? c : x->pos < y->pos ? -1 : x->pos > y->pos;
}

/*
 * context.labels (pprof's sample labels, formats/pprof.h): an object of
 * strings and integers, kept as one string, its JSON text with the keys
 * sorted (a key given twice: the first value) and only ASCII, so that
 * records of the same labels are the same context however they were
 * written, and any writer can copy the text as it is.
 */
static int read_labels(struct spaa_reader *r, const struct spaa_json_value *ctx,
		       struct spaa_record *rec, struct spaa_error *err)
{
	const struct spaa_json_value *l;
	struct label *m = NULL;
	struct spaa_jsonw jw;
	size_t n = 0;
	int ret = spaa_reader_field(r, ctx, "stack", "labels", SPAA_JSON_OBJECT, false, &l, err);

	if (ret <= 0 || !l->len)
		return ret;
	m = spaa_xcalloc(l->len, sizeof(*m));
	for (const struct spaa_json_value *c = l->child; c; c = c->next, n++) {
		int64_t x;
		char buf[64];

		if (c->type != SPAA_JSON_STRING &&
		    (c->type != SPAA_JSON_NUMBER || spaa_json_get_i64(c, &x))) {
			free(m);
			return spaa_reader_bad(r, err, "label '%s' in 'stack' record must be a string or a 64-bit integer, not %s",
					       c->key, show(c, buf, sizeof(buf)));
		}
		m[n] = (struct label){ c, n };
	}
	qsort(m, n, sizeof(*m), label_cmp);
	spaa_jsonw_init(&jw);
	jw.ascii_only = true;
	spaa_jsonw_object_begin(&jw);
	for (size_t i = 0; i < n; i++) {
		int64_t x;

		if (i && !strcmp(m[i].v->key, m[i - 1].v->key))
			continue;
		spaa_jsonw_key(&jw, m[i].v->key);
		if (m[i].v->type == SPAA_JSON_STRING)
			spaa_jsonw_string_len(&jw, m[i].v->str, m[i].v->len);
		else
			spaa_jsonw_i64(&jw, (spaa_json_get_i64(m[i].v, &x), x));
	}
	spaa_jsonw_object_end(&jw);
	ret = spaa_reader_intern(r, jw.buf, jw.len, &rec->labels, err);
	spaa_jsonw_release(&jw);
	free(m);
	return ret;
}

static int read_context(struct spaa_reader *r, const struct spaa_json_value *ctx,
			struct spaa_record *rec, struct spaa_error *err)
{
	const struct spaa_json_value *ev = NULL;
	const char *rt = "stack";

	if (ctx) {
		if (spaa_reader_field(r, ctx, rt, "event", SPAA_JSON_STRING, false, &ev, err) < 0 ||
		    spaa_reader_opt_i64(r, ctx, rt, "pid", &rec->pid, err) ||
		    spaa_reader_opt_i64(r, ctx, rt, "tid", &rec->tid, err) ||
		    spaa_reader_opt_i64(r, ctx, rt, "cpu", &rec->cpu, err) ||
		    spaa_reader_str_field(r, ctx, rt, "comm", false, &rec->comm, err) ||
		    read_labels(r, ctx, rec, err))
			return -1;
		for (const struct spaa_json_value *m = ctx->child; m; m = m->next)
			if (!in_list(known_context, m->key) && strncmp(m->key, "x_", 2))
				spaa_reader_warn(r, "context-key", "unknown context key '%s' (kept, not used)",
				     m->key);
	}
	if (spaa_reader_record_event(r, ev, rt, &rec->event, err))
		return -1;
	spaa_reader_thread_pid(r, rec->tid, &rec->pid, &rec->comm);
	return 0;
}

static void add_record(struct spaa_reader *r, struct spaa_record *rec)
{
	struct spaa_profile *p = r->p;
	struct spaa_stack *s = &p->stacks[rec->stack];
	uint32_t i = p->nrecords++;

	SPAA_ALLOC_GROW(p->records, p->nrecords, p->records_alloc);
	rec->next_same_stack = s->first_record;
	s->first_record = i;
	p->records[i] = *rec;
}

/*
 * The frames of stack id, n of them, into r->fbuf: frames_begin, then
 * frame_put of each in the order written, then frames_end, which turns
 * them leaf first.
 */
static int frames_begin(struct spaa_reader *r, size_t n, uint32_t id,
			struct spaa_error *err)
{
	if (!n)
		return spaa_reader_bad(r, err, "stack '%s' has no frames", spaa_profile_str(r->p, id));
	if (n > r->o->max_depth)
		return spaa_error_at(err, SPAA_E_LIMIT, r->path, r->line,
				     "stack '%s' has %zu frames, more than the limit of %u (SPAA_MAX_DEPTH)",
				     spaa_profile_str(r->p, id), n, r->o->max_depth);
	SPAA_ALLOC_GROW(r->fbuf, n, r->fbuf_alloc);
	return 0;
}

static int frame_put(struct spaa_reader *r, uint64_t fid, uint32_t id, uint32_t i,
		     struct spaa_error *err)
{
	r->fbuf[i] = spaa_reader_frame_lookup(r, fid);
	if (r->fbuf[i] == SPAA_NONE)
		return spaa_reader_bad(r, err, "stack '%s' references unknown frame id %" PRIu64,
				       spaa_profile_str(r->p, id), fid);
	return 0;
}

static int frames_end(struct spaa_reader *r, uint32_t n, struct spaa_error *err)
{
	if (r->root_to_leaf) {
		for (uint32_t i = 0; i < n / 2; i++) {
			uint32_t t = r->fbuf[i];

			r->fbuf[i] = r->fbuf[n - 1 - i];
			r->fbuf[n - 1 - i] = t;
		}
	}
	return check_inline_order(r, r->fbuf, n, err);
}

static int read_frames(struct spaa_reader *r, const struct spaa_json_value *fr,
		       uint32_t id, uint32_t *n, struct spaa_error *err)
{
	if (frames_begin(r, fr->len, id, err))
		return -1;
	*n = 0;
	for (const struct spaa_json_value *f = fr->child; f; f = f->next, ++*n) {
		uint64_t fid;

		if (spaa_reader_u64_value(r, f, "stack", "frames", &fid, err) ||
		    frame_put(r, fid, id, *n, err))
			return -1;
	}
	return frames_end(r, *n, err);
}

/* The nw weights in r->wbuf of stack id, with its event's primary metric, into rec. */
static int stack_weights(struct spaa_reader *r, uint32_t id, int nw,
			 struct spaa_record *rec, struct spaa_error *err)
{
	struct spaa_profile *p = r->p;
	uint32_t primary_metric = p->events[rec->event].primary_metric;
	uint64_t primary;

	rec->weights = spaa_profile_add_weights(p, r->wbuf, (uint32_t)nw);
	rec->nweights = (uint32_t)nw;
	if (!spaa_profile_weights_get(p, rec->weights, rec->nweights, primary_metric, &primary))
		return spaa_reader_bad(r, err, "stack '%s' lacks the primary metric '%s' of event '%s' in its weights",
				       spaa_profile_str(p, id), spaa_profile_str(p, primary_metric),
				       spaa_profile_str(p, p->events[rec->event].name));
	for (uint32_t i = 0; i < rec->nweights; i++)
		if (spaa_profile_add_total(p, rec->event, r->wbuf[i].metric, r->wbuf[i].value))
			return spaa_error_at(err, SPAA_E_LIMIT, r->path, r->line,
					     "the total of '%s' over event '%s' overflows 64 bits",
					     spaa_profile_str(p, r->wbuf[i].metric),
					     spaa_profile_str(p, p->events[rec->event].name));
	if (!primary)
		spaa_reader_warn(r, "zero", "stack '%s' has a zero '%s' weight",
				 spaa_profile_str(p, id), spaa_profile_str(p, primary_metric));
	return 0;
}

static int read_stack_weights(struct spaa_reader *r, const struct spaa_json_value *v,
			      uint32_t id, struct spaa_record *rec,
			      struct spaa_error *err)
{
	const struct spaa_json_value *weights;
	int nw;

	if (spaa_reader_field(r, v, "stack", "weights", SPAA_JSON_ARRAY, true, &weights, err) < 0 ||
	    (nw = read_weights(r, weights, "stack", err)) < 0)
		return -1;
	return stack_weights(r, id, nw, rec, err);
}

/*
 * The exclusive weights of stack id (n frames in r->fbuf) on frame fid,
 * its leaf: the nw weights in r->wbuf.
 */
static int stack_exclusive(struct spaa_reader *r, uint32_t id, uint32_t n,
			   uint64_t fid, int nw, struct spaa_record *rec,
			   struct spaa_error *err)
{
	struct spaa_profile *p = r->p;
	uint32_t frame = spaa_reader_frame_lookup(r, fid);

	if (frame == SPAA_NONE)
		return spaa_reader_bad(r, err, "exclusive frame %" PRIu64 " of stack '%s' is not a known frame",
				       fid, spaa_profile_str(p, id));
	if (frame != r->fbuf[0]) {
		if (n > 1 && frame == r->fbuf[n - 1] &&
		    p->frames[frame].fn != p->frames[r->fbuf[0]].fn)
			return spaa_reader_bad(r, err, "frame order does not match the header's '%s': the exclusive frame %" PRIu64 " of stack '%s' is at the root end",
					       r->root_to_leaf ? "root_to_leaf" : "leaf_to_root",
					       fid, spaa_profile_str(p, id));
		return spaa_reader_bad(r, err, "exclusive frame %" PRIu64 " of stack '%s' is not its leaf frame",
				       fid, spaa_profile_str(p, id));
	}
	/* a part larger than its whole would print a self share over 100 % */
	for (int i = 0; i < nw; i++) {
		uint64_t whole;

		if (spaa_profile_weights_get(p, rec->weights, rec->nweights, r->wbuf[i].metric,
					     &whole) && r->wbuf[i].value > whole) {
			spaa_reader_warn(r, "exclusive", "the exclusive '%s' weight %" PRIu64 " of stack '%s' is larger than its weight %" PRIu64 " (taken as %" PRIu64 ")",
					 spaa_profile_str(p, r->wbuf[i].metric), r->wbuf[i].value,
					 spaa_profile_str(p, id), whole, whole);
			r->wbuf[i].value = whole;
		}
	}
	rec->excl_frame = frame;
	rec->excl = spaa_profile_add_weights(p, r->wbuf, (uint32_t)nw);
	rec->nexcl = (uint32_t)nw;
	return 0;
}

static int read_exclusive(struct spaa_reader *r, const struct spaa_json_value *v,
			  uint32_t id, uint32_t n, struct spaa_record *rec,
			  struct spaa_error *err)
{
	const struct spaa_json_value *excl, *xf, *xw;
	const char *rt = "stack";
	uint64_t fid;
	int nw;

	if (spaa_reader_field(r, v, rt, "exclusive", SPAA_JSON_OBJECT, false, &excl, err) < 0)
		return -1;
	if (!excl)
		return 0;
	if (spaa_reader_field(r, excl, rt, "frame", SPAA_JSON_NUMBER, true, &xf, err) < 0 ||
	    spaa_reader_u64_value(r, xf, rt, "exclusive.frame", &fid, err) ||
	    spaa_reader_field(r, excl, rt, "weights", SPAA_JSON_ARRAY, true, &xw, err) < 0 ||
	    (nw = read_weights(r, xw, rt, err)) < 0)
		return -1;
	return stack_exclusive(r, id, n, fid, nw, rec, err);
}

/*
 * An earlier file's stack equal to the n frames in r->fbuf, which id,
 * not yet seen in this file, is then bound to; or SPAA_NONE.
 */
static uint32_t shared_stack(struct spaa_reader *r, uint32_t id,
			     enum spaa_stack_type type, uint32_t n)
{
	uint32_t s;

	if (!r->rep || (id < r->stack_of_alloc && r->stack_of[id] != SPAA_NONE))
		return SPAA_NONE;
	s = spaa_repeats_stack(r->rep, type, r->fbuf, n);
	if (s == SPAA_NONE)
		return SPAA_NONE;
	*spaa_reader_stack_slot(r, id) = s;
	SPAA_ALLOC_GROW(r->shared_line, (size_t)id + 1, r->shared_line_alloc);
	r->shared_line[id] = r->line;
	return s;
}

/* Weights a and b (n each) name the same metrics and units in the same order. */
static bool same_metrics(const struct spaa_weight *a, const struct spaa_weight *b, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (a[i].metric != b[i].metric || a[i].unit != b[i].unit)
			return false;
	return true;
}

static uint32_t metrics_hash(const struct spaa_weight *w, uint32_t n)
{
	uint64_t h = n;

	for (uint32_t i = 0; i < n; i++)
		h = (h ^ ((uint64_t)w[i].metric << 32 | w[i].unit)) * 0x9e3779b97f4a7c15ULL;
	return (uint32_t)(h >> 32);
}

/* Whether weights w added to into (n each) stay below 2^64. */
static bool sums_fit(const struct spaa_weight *into, const struct spaa_weight *w, uint32_t n)
{
	uint64_t sum;

	for (uint32_t i = 0; i < n; i++)
		if (spaa_add_u64(into[i].value, w[i].value, &sum))
			return false;
	return true;
}

static void add_values(struct spaa_weight *into, const struct spaa_weight *w, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		into[i].value += w[i].value;
}

/* The same_ctx key of rec: its stack, context and metrics. */
static void ctx_key(const struct spaa_profile *p, const struct spaa_record *rec,
		    struct spaa_reader_ctx_key *k)
{
	const struct spaa_weight *pool = p->weight_pool;

	memset(k, 0, sizeof(*k));
	k->stack = rec->stack;
	k->event = rec->event;
	k->comm = rec->comm;
	k->labels = rec->labels;
	k->excl_frame = rec->excl_frame;
	k->nweights = rec->nweights;
	k->nexcl = rec->nexcl;
	k->metrics = metrics_hash(pool + rec->weights, rec->nweights) ^
		     metrics_hash(pool + rec->excl, rec->nexcl) * 3;
	k->pid = rec->pid;
	k->tid = rec->tid;
	k->cpu = rec->cpu;
}

/*
 * Enters the records of this file so far in same_ctx, as merge_repeat
 * would have: until a stack has two records in the file (or a record
 * has related stacks, which merge_repeat never sees) no record has a
 * twin, and each one merge_repeat saw is the first of its key.  So the
 * map is only made when it can find something: a profile of one record
 * a stack, make bench's, never makes it, and saves a hash probe and a
 * cache miss per record (2 to 3 % of spaa-hotspots' time there).  A
 * record of a stack related now is left out: none of its stack's is
 * looked up again.
 */
static void same_ctx_make(struct spaa_reader *r)
{
	struct spaa_profile *p = r->p;

	if (r->same_ctx_made)
		return;
	r->same_ctx_made = true;
	for (uint32_t j = r->record_base; j < p->nrecords; j++) {
		struct spaa_reader_ctx_key k;
		bool created;
		uint32_t i;

		if (p->stacks[p->records[j].stack].related)
			continue;
		ctx_key(p, &p->records[j], &k);
		i = spaa_map_intern(&r->same_ctx, &k, &created);
		if (!created)
			continue;
		SPAA_ALLOC_GROW(r->same_record, (size_t)i + 1, r->same_record_alloc);
		r->same_record[i] = j;
	}
}

/*
 * With fold_repeats (the analyses' loads), a stack record that repeats
 * an earlier record of this file (same stack, context, exclusive frame,
 * metrics and units in the same order) is added to it, as repeats.h
 * does across files: a file of the same records written many times
 * then needs the memory of one.  Records of stacks with related stacks
 * stay apart (they are joined at the end of the file).  Returns true
 * when rec, whose weights are the last of the pool, was added to its
 * twin.
 */
static bool merge_repeat(struct spaa_reader *r, const struct spaa_record *rec)
{
	struct spaa_profile *p = r->p;
	struct spaa_weight *pool = p->weight_pool;
	uint32_t first = p->stacks[rec->stack].first_record;
	struct spaa_reader_ctx_key k;
	struct spaa_record *twin;
	bool created;
	uint32_t i;

	if (!r->o->fold_repeats || p->stacks[rec->stack].related)
		return false;
	/* the first record of its stack in this file: a twin of none */
	if (!r->same_ctx_made && (first == SPAA_NONE || first < r->record_base))
		return false;
	same_ctx_make(r);
	ctx_key(p, rec, &k);
	i = spaa_map_intern(&r->same_ctx, &k, &created);
	if (created) {
		SPAA_ALLOC_GROW(r->same_record, (size_t)i + 1, r->same_record_alloc);
		r->same_record[i] = p->nrecords;        /* rec, once added */
		return false;
	}
	twin = &p->records[r->same_record[i]];
	/* a hash collision; the event totals keep sums below 2^64 */
	if (!same_metrics(pool + twin->weights, pool + rec->weights, rec->nweights) ||
	    !same_metrics(pool + twin->excl, pool + rec->excl, rec->nexcl) ||
	    !sums_fit(pool + twin->weights, pool + rec->weights, rec->nweights) ||
	    !sums_fit(pool + twin->excl, pool + rec->excl, rec->nexcl))
		return false;
	add_values(pool + twin->weights, pool + rec->weights, rec->nweights);
	add_values(pool + twin->excl, pool + rec->excl, rec->nexcl);
	return true;
}

/*
 * The stack of a record read up to its frames (n in r->fbuf), weights and
 * context: new, a placeholder now defined, or a repeat; its index into
 * *si, and its frames into rec.
 */
static int stack_define(struct spaa_reader *r, uint32_t id, int type, uint32_t n,
			struct spaa_record *rec, uint32_t *si, struct spaa_error *err)
{
	struct spaa_profile *p = r->p;
	struct spaa_stack *s;

	*si = shared_stack(r, id, (enum spaa_stack_type)type, n);
	if (*si == SPAA_NONE)
		*si = spaa_reader_stack_ref(r, id, 0);
	s = &p->stacks[*si];
	if (s->defined) {
		if (s->nframes != n || s->type != (enum spaa_stack_type)type ||
		    memcmp(p->frame_pool + s->frames, r->fbuf, n * sizeof(*r->fbuf)))
			return spaa_reader_bad(r, err, "stack id '%s' is reused with different frames (first defined on line %lu)",
					       spaa_profile_str(p, id),
					       *si < r->stack_base ? r->shared_line[id] : s->line);
	} else {
		s->frames = spaa_profile_add_frames(p, r->fbuf, n);
		s->nframes = n;
		s->type = type;
		s->defined = true;
		s->line = r->line;
	}
	rec->stack = *si;
	rec->frames = s->frames;
	rec->nframes = s->nframes;
	return 0;
}

/*
 * Adds rec, of stack si, to the model, or to its twin (merge_repeat):
 * then the weights it added to the pool, past pool_before, are dropped.
 */
static void record_commit(struct spaa_reader *r, struct spaa_record *rec, bool related,
			  uint32_t pool_before)
{
	/* merge_repeat never sees it: entered in no map, nor later in one */
	if (related && r->o->fold_repeats)
		same_ctx_make(r);
	if (!related && merge_repeat(r, rec))
		r->p->nweight_pool = pool_before;
	else
		add_record(r, rec);
	spaa_reader_prov_bind(r, r->record_prov, rec->stack);
}

int spaa_reader_read_stack(struct spaa_reader *r, const struct spaa_json_value *v,
			   struct spaa_error *err)
{
	static const char *const types[] = { "unified", "user", "kernel", NULL };
	struct spaa_profile *p = r->p;
	const struct spaa_json_value *idv, *fr, *ctx, *rel;
	struct spaa_record rec = {
		.pid = SPAA_NO_ID, .tid = SPAA_NO_ID, .cpu = SPAA_NO_ID,
		.excl_frame = SPAA_NONE,
	};
	const char *rt = "stack";
	uint32_t id = 0, n = 0, si;
	uint32_t pool_before = p->nweight_pool;
	int type;

	if (r->o->stats)
		r->o->stats->stacks_general++;
	idv = spaa_json_get(v, "id");
	if (!idv || idv->type == SPAA_JSON_NULL)
		return spaa_reader_bad(r, err, "'stack' record has no 'id'");
	if (spaa_reader_stack_id_text(r, idv, rt, "id", &id, err) ||
	    spaa_reader_field(r, v, rt, "frames", SPAA_JSON_ARRAY, true, &fr, err) < 0 ||
	    read_frames(r, fr, id, &n, err) ||
	    enum_field(r, v, rt, "stack_type", false, types, 0, &type, err) ||
	    spaa_reader_field(r, v, rt, "context", SPAA_JSON_OBJECT, false, &ctx, err) < 0 ||
	    read_context(r, ctx, &rec, err) ||
	    read_stack_weights(r, v, id, &rec, err) ||
	    read_exclusive(r, v, id, n, &rec, err) ||
	    stack_define(r, id, type, n, &rec, &si, err) ||
	    spaa_reader_field(r, v, rt, "related_stacks", SPAA_JSON_ARRAY, false, &rel, err) < 0)
		return -1;
	for (const struct spaa_json_value *x = rel ? rel->child : NULL; x; x = x->next) {
		uint32_t rid = 0;

		if (spaa_reader_stack_id_text(r, x, rt, "related_stacks", &rid, err))
			return -1;
		SPAA_ALLOC_GROW(r->related, r->nrelated + 1, r->related_alloc);
		r->related[r->nrelated++] = (struct spaa_reader_related){
			p->nrecords, spaa_reader_stack_ref(r, rid, SPAA_READER_REF_RELATED),
		};
		p->stacks[si].related = true;
	}
	record_commit(r, &rec, rel != NULL, pool_before);
	return 0;
}

/* The n weights w scanned from line into r->wbuf, as read_weights reads them. */
static int scanned_weights(struct spaa_reader *r, const char *line,
			   const struct spaa_stack_scan_weight *w, uint32_t n,
			   struct spaa_error *err)
{
	SPAA_ALLOC_GROW(r->wbuf, n, r->wbuf_alloc);
	for (uint32_t i = 0; i < n; i++) {
		struct spaa_weight x = { .value = w[i].value };

		if (spaa_reader_intern(r, line + w[i].metric.off, w[i].metric.len, &x.metric, err) ||
		    (w[i].unit.off &&
		     spaa_reader_intern(r, line + w[i].unit.off, w[i].unit.len, &x.unit, err)) ||
		    weight_push(r, "stack", i, &x, err))
			return -1;
	}
	return (int)n;
}

/*
 * A stack record that spaa_stack_scan read from line, checked and added
 * as spaa_reader_read_stack would read the line: the same steps in the
 * same order (the scan has taken only what passes the checks of JSON
 * types), so that an error, and what a validating load keeps of the
 * record before it, are the general path's.
 */
int spaa_reader_commit_stack(struct spaa_reader *r, const char *line,
			     const struct spaa_stack_scan *st, struct spaa_error *err)
{
	struct spaa_profile *p = r->p;
	struct spaa_record rec = {
		.pid = st->pid, .tid = st->tid, .cpu = st->cpu, .excl_frame = SPAA_NONE,
	};
	struct spaa_json_value ev = {
		.type = SPAA_JSON_STRING, .str = line + st->event.off, .len = st->event.len,
	};
	uint32_t pool_before = p->nweight_pool, n = st->nframes, id, si;
	int nw;

	if (spaa_reader_intern(r, line + st->id.off, st->id.len, &id, err) ||
	    frames_begin(r, n, id, err))
		return -1;
	for (uint32_t i = 0; i < n; i++)
		if (frame_put(r, st->frames[i], id, i, err))
			return -1;
	if (frames_end(r, n, err) ||
	    (st->comm.off && spaa_reader_intern(r, line + st->comm.off, st->comm.len, &rec.comm, err)) ||
	    spaa_reader_record_event(r, st->event.off ? &ev : NULL, "stack", &rec.event, err))
		return -1;
	spaa_reader_thread_pid(r, rec.tid, &rec.pid, &rec.comm);
	if ((nw = scanned_weights(r, line, st->weights, st->nweights, err)) < 0 ||
	    stack_weights(r, id, nw, &rec, err) ||
	    (st->has_excl &&
	     ((nw = scanned_weights(r, line, st->excl, st->nexcl, err)) < 0 ||
	      stack_exclusive(r, id, n, st->excl_frame, nw, &rec, err))) ||
	    stack_define(r, id, (int)st->type, n, &rec, &si, err))
		return -1;
	record_commit(r, &rec, false, pool_before);
	return 0;
}

int spaa_reader_read_window(struct spaa_reader *r, const struct spaa_json_value *v,
		       struct spaa_error *err)
{
	struct spaa_profile *p = r->p;
	const struct spaa_json_value *idv, *start, *end, *unit, *by;
	struct spaa_window w = { .file = r->file };
	const char *rt = "window";
	int exp10 = r->time_exp10;

	idv = spaa_json_get(v, "id");
	if (idv && idv->type != SPAA_JSON_NULL && spaa_reader_stack_id_text(r, idv, rt, "id", &w.id, err))
		return -1;
	if (spaa_reader_field(r, v, rt, "start", SPAA_JSON_NUMBER, true, &start, err) < 0 ||
	    spaa_reader_field(r, v, rt, "end", SPAA_JSON_NUMBER, true, &end, err) < 0 ||
	    spaa_reader_field(r, v, rt, "unit", SPAA_JSON_STRING, false, &unit, err) < 0 ||
	    (unit && time_unit(r, unit, rt, &exp10, err)) ||
	    spaa_reader_time_value(r, start, rt, "start", exp10, &w.start, err) ||
	    spaa_reader_time_value(r, end, rt, "end", exp10, &w.end, err) ||
	    spaa_reader_field(r, v, rt, "by_stack", SPAA_JSON_ARRAY, false, &by, err) < 0)
		return -1;
	if (w.end < w.start)
		return spaa_reader_bad(r, err, "window ends before it starts");
	if (w.id) {
		bool created;

		spaa_map_intern(&r->window_ids, &w.id, &created);
		if (!created)
			spaa_reader_warn(r, "window-id", "window id '%s' is used by an earlier window too",
			     spaa_profile_str(p, w.id));
	}
	w.entries = p->nwindow_entries;
	for (const struct spaa_json_value *e = by ? by->child : NULL; e; e = e->next) {
		const struct spaa_json_value *sid, *ws;
		struct spaa_window_entry we;
		uint32_t id = 0;
		int nw;

		if (e->type != SPAA_JSON_OBJECT)
			return spaa_reader_bad(r, err, "'by_stack' entries must be objects, not %s",
				   spaa_json_type_name(e->type));
		sid = spaa_json_get(e, "stack_id");
		if (!sid || sid->type == SPAA_JSON_NULL)
			return spaa_reader_bad(r, err, "'by_stack' entry of 'window' record has no 'stack_id'");
		if (spaa_reader_stack_id_text(r, sid, rt, "stack_id", &id, err) ||
		    spaa_reader_field(r, e, rt, "weights", SPAA_JSON_ARRAY, true, &ws, err) < 0 ||
		    (nw = read_weights(r, ws, rt, err)) < 0)
			return -1;
		we.stack = spaa_reader_stack_ref(r, id, SPAA_READER_REF_NEEDED);
		we.weights = spaa_profile_add_weights(p, r->wbuf, (uint32_t)nw);
		we.nweights = (uint32_t)nw;
		SPAA_ALLOC_GROW(p->window_entries, (size_t)p->nwindow_entries + 1,
				p->window_entries_alloc);
		p->window_entries[p->nwindow_entries++] = we;
	}
	w.nentries = p->nwindow_entries - w.entries;
	SPAA_ALLOC_GROW(p->windows, (size_t)p->nwindows + 1, p->windows_alloc);
	p->windows[p->nwindows++] = w;
	spaa_profile_cover_time(p, w.start, w.end);
	return 0;
}
