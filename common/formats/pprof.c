#include <inttypes.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/pprof.h"
#include "formats/pprof.pb-c.h"
#include "io/jsonw.h"
#include "model/profile.h"
#include "model/util.h"

/* ---- the wire walk ---------------------------------------------------------
 *
 * protobuf-c says only that a message failed to decode.  This walk over
 * the same schema says where and why, and is the content check of
 * spaa_pprof_sniff.  Unknown field numbers are allowed (protobuf's
 * forward compatibility), groups never (no pprof writer uses them).
 */

enum { WT_VARINT = 0, WT_I64 = 1, WT_LEN = 2, WT_I32 = 5 };
#define W(t) (1u << (t))

struct pb_msg;

struct pb_field {
	uint32_t num;
	unsigned wires;                 /* allowed wire types, W() bits */
	const struct pb_msg *sub;       /* a message field's schema */
};

struct pb_msg {
	const char *name;
	const struct pb_field *fields;
	size_t n;
};

#define MSG(var, name, ...) \
	static const struct pb_field var##_fields[] = { __VA_ARGS__ }; \
	static const struct pb_msg var = { name, var##_fields, \
		sizeof(var##_fields) / sizeof(var##_fields[0]) }

#define V W(WT_VARINT)
#define PACKED (W(WT_VARINT) | W(WT_LEN))   /* repeated scalars: either encoding */
MSG(pb_value_type, "ValueType", { 1, V, NULL }, { 2, V, NULL });
MSG(pb_label, "Label", { 1, V, NULL }, { 2, V, NULL }, { 3, V, NULL }, { 4, V, NULL });
MSG(pb_sample, "Sample", { 1, PACKED, NULL }, { 2, PACKED, NULL },
    { 3, W(WT_LEN), &pb_label });
MSG(pb_mapping, "Mapping", { 1, V, NULL }, { 2, V, NULL }, { 3, V, NULL },
    { 4, V, NULL }, { 5, V, NULL }, { 6, V, NULL }, { 7, V, NULL },
    { 8, V, NULL }, { 9, V, NULL }, { 10, V, NULL });
MSG(pb_line, "Line", { 1, V, NULL }, { 2, V, NULL }, { 3, V, NULL });
MSG(pb_location, "Location", { 1, V, NULL }, { 2, V, NULL }, { 3, V, NULL },
    { 4, W(WT_LEN), &pb_line }, { 5, V, NULL });
MSG(pb_function, "Function", { 1, V, NULL }, { 2, V, NULL }, { 3, V, NULL },
    { 4, V, NULL }, { 5, V, NULL });
MSG(pb_profile, "Profile", { 1, W(WT_LEN), &pb_value_type },
    { 2, W(WT_LEN), &pb_sample }, { 3, W(WT_LEN), &pb_mapping },
    { 4, W(WT_LEN), &pb_location }, { 5, W(WT_LEN), &pb_function },
    { 6, W(WT_LEN), NULL }, { 7, V, NULL }, { 8, V, NULL }, { 9, V, NULL },
    { 10, V, NULL }, { 11, W(WT_LEN), &pb_value_type }, { 12, V, NULL },
    { 13, PACKED, NULL }, { 14, V, NULL }, { 15, V, NULL });
#undef V
#undef PACKED

/* A varint at *p (before end); 0, or -1 when it is cut or longer than 10 bytes. */
static int varint(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	*v = 0;
	for (unsigned shift = 0; shift < 70; shift += 7) {
		if (*p == end)
			return -1;
		*v |= (uint64_t)(**p & 0x7f) << shift;
		if (!(*(*p)++ & 0x80))
			return 0;
	}
	return -1;
}

static const struct pb_field *pb_find(const struct pb_msg *m, uint32_t num)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->fields[i].num == num)
			return &m->fields[i];
	return NULL;
}

/*
 * Walks the message m in [p, end) (start: the input's first byte, for
 * offsets).  Returns 0, or -1 with why[] telling the first fault.  open:
 * the input was cut by the caller at end, so a field running past it is
 * not a fault (the walk stops there).  strict: unknown fields are faults
 * (a content check), at every depth.  seen (may be NULL): counts the
 * whole fields of m by number (16 slots).
 */
static int pb_walk(const struct pb_msg *m, const unsigned char *start,
		   const unsigned char *p, const unsigned char *end, bool open,
		   bool strict, unsigned depth, size_t *seen, char *why,
		   size_t whysize)
{
	while (p < end) {
		size_t at = (size_t)(p - start);
		const struct pb_field *f;
		uint64_t key, v;
		unsigned wire;

		if (varint(&p, end, &key)) {
			if (open)
				return 0;
			snprintf(why, whysize, "byte %zu: truncated field key in %s", at, m->name);
			return -1;
		}
		wire = (unsigned)(key & 7);
		if (key >> 3 == 0 || key >> 3 > UINT32_MAX) {
			snprintf(why, whysize, "byte %zu: invalid field number %" PRIu64 " in %s",
				 at, key >> 3, m->name);
			return -1;
		}
		f = pb_find(m, (uint32_t)(key >> 3));
		if (!f && strict) {
			snprintf(why, whysize, "byte %zu: unknown field %" PRIu64 " in %s",
				 at, key >> 3, m->name);
			return -1;
		}
		if (f && !(f->wires & W(wire))) {
			snprintf(why, whysize, "byte %zu: field %" PRIu32 " of %s has wire type %u, expected %u",
				 at, f->num, m->name, wire,
				 (f->wires & W(WT_LEN)) && !(f->wires & W(WT_VARINT)) ? WT_LEN : WT_VARINT);
			return -1;
		}
		switch (wire) {
		case WT_VARINT:
			if (varint(&p, end, &v))
				goto cut;
			break;
		case WT_I64:
		case WT_I32:
			if ((size_t)(end - p) < (wire == WT_I64 ? 8u : 4u))
				goto cut;
			p += wire == WT_I64 ? 8 : 4;
			break;
		case WT_LEN:
			if (varint(&p, end, &v))
				goto cut;
			if (v > (uint64_t)(end - p)) {
				if (open)
					return 0;
				snprintf(why, whysize, "byte %zu: field %" PRIu64 " of %s is %" PRIu64
					 " bytes long, but only %zu remain (truncated)",
					 at, key >> 3, m->name, v, (size_t)(end - p));
				return -1;
			}
			if (f && f->sub && depth < 4 &&
			    pb_walk(f->sub, start, p, p + v, false, strict, depth + 1,
				    NULL, why, whysize))
				return -1;
			p += v;
			break;
		default:
			snprintf(why, whysize, "byte %zu: field %" PRIu64 " of %s has wire type %u (not used by pprof)",
				 at, key >> 3, m->name, wire);
			return -1;
		}
		if (seen)
			seen[f->num & 15]++;
		continue;
cut:
		if (open)
			return 0;
		snprintf(why, whysize, "byte %zu: field %" PRIu64 " of %s is truncated",
			 at, key >> 3, m->name);
		return -1;
	}
	return 0;
}

bool spaa_pprof_sniff(const unsigned char *data, size_t len, bool complete)
{
	size_t seen[16] = { 0 };
	char why[8];

	/* a fault after a sample type: a damaged profile, the reader says where */
	(void)pb_walk(&pb_profile, data, data, data + len, !complete, true, 0,
		      seen, why, sizeof(why));
	return seen[1] > 0;
}

/* ---- reading ---------------------------------------------------------------- */

typedef Perftools__Profiles__Profile pb_profile_t;
typedef Perftools__Profiles__Location pb_location_t;

/* The whole decoded input, up to max bytes (+1 to see that there is more). */
static int read_all(struct spaa_input *in, size_t max, unsigned char **buf,
		    size_t *len, struct spaa_error *err)
{
	size_t cap = 64 << 10, got;

	*buf = NULL;
	*len = 0;
	for (;;) {
		if (cap > max + 1)
			cap = max + 1;
		*buf = spaa_xrealloc(*buf, cap);
		if (spaa_input_read(in, *buf + *len, cap - *len, &got, err))
			return -1;
		*len += got;
		if (*len > max)
			return spaa_error_at(err, SPAA_E_LIMIT, spaa_input_name(in), 0,
					     "the pprof profile is larger than %zu bytes decoded (SPAA_MAX_PPROF): a protobuf message is decoded whole",
					     max);
		if (*len < cap)
			return 0;
		cap *= 2;
	}
}

/* An id -> index table: sorted (id, index) pairs, looked up by bisection. */
struct id_index {
	uint64_t id;
	uint32_t index;
};

static int id_cmp(const void *a, const void *b)
{
	const struct id_index *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static uint32_t id_find(const struct id_index *t, size_t n, uint64_t id)
{
	size_t lo = 0, hi = n;

	/*
	 * Go and pprof number ids 1..n: then id's entry is at id - 1, and a
	 * profile of a million frames is not a million bisections.
	 */
	if (id && id <= n && t[id - 1].id == id)
		return t[id - 1].index;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t[mid].id == id)
			return t[mid].index;
		if (t[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return SPAA_NONE;
}

struct pprof {
	const pb_profile_t *pb;
	const char *name;               /* the input's, for messages */
	struct spaa_output *out;
	struct spaa_jsonw jw;
	struct id_index *maps, *locs, *fns;     /* owned */
	uint32_t unknown_dso;           /* dso id for locations without a mapping */
	uint32_t *loc_frame;            /* owned: first frame id of each location */
	uint32_t *loc_first_line;       /* owned: lines dropped from its leaf end (drop_frames) */
	uint32_t *loc_nframes;          /* owned: frames of each location (0: dropped) */
	bool *prune_beneath;            /* owned: drop_frames matched in the location */
	bool *prune_whole;              /* owned: ... in its root-most Line */
	const char **metrics;           /* owned array; names borrowed */
	uint32_t *frames;               /* owned: one stack */
	size_t frames_alloc;
	uint32_t max_depth;
};

static const char *str(const struct pprof *pp, int64_t i)
{
	return pp->pb->string_table[i];
}

/* Checks a string index; what names the record holding it. */
static int check_str(const struct pprof *pp, int64_t i, const char *what,
		     uint64_t id, struct spaa_error *err)
{
	if (i >= 0 && (uint64_t)i < pp->pb->n_string_table)
		return 0;
	return spaa_error_at(err, SPAA_E_INVALID, pp->name, 0,
			     "string index %" PRId64 " of %s %" PRIu64 " is out of range (%zu strings)",
			     i, what, id, pp->pb->n_string_table);
}

static int line_out(struct pprof *pp, struct spaa_error *err)
{
	int r = spaa_output_write(pp->out, pp->jw.buf, pp->jw.len, err) ||
		spaa_output_write(pp->out, "\n", 1, err);

	spaa_jsonw_reset(&pp->jw);
	return r ? -1 : 0;
}

/* Builds an id table of n records; a duplicate id is an error. */
static int index_ids(struct pprof *pp, struct id_index **t, size_t n,
		     uint64_t (*id_of)(const pb_profile_t *, size_t), const char *what,
		     struct spaa_error *err)
{
	*t = spaa_xcalloc(n ? n : 1, sizeof(**t));
	for (size_t i = 0; i < n; i++) {
		(*t)[i].id = id_of(pp->pb, i);
		(*t)[i].index = (uint32_t)i;
		if (!(*t)[i].id)
			return spaa_error_at(err, SPAA_E_INVALID, pp->name, 0,
					     "%s %zu has id 0 (ids start at 1)", what, i + 1);
	}
	qsort(*t, n, sizeof(**t), id_cmp);
	for (size_t i = 1; i < n; i++)
		if ((*t)[i].id == (*t)[i - 1].id)
			return spaa_error_at(err, SPAA_E_INVALID, pp->name, 0,
					     "two %ss have id %" PRIu64, what, (*t)[i].id);
	return 0;
}

static uint64_t mapping_id(const pb_profile_t *pb, size_t i) { return pb->mapping[i]->id; }
static uint64_t location_id(const pb_profile_t *pb, size_t i) { return pb->location[i]->id; }
static uint64_t function_id(const pb_profile_t *pb, size_t i) { return pb->function[i]->id; }

/* The metric a sample type becomes (Go's heap types: the spec's). */
static const char *metric_name(const char *type)
{
	static const char *const heap[][2] = {
		{ "alloc_space", "alloc_bytes" }, { "alloc_objects", "alloc_count" },
		{ "inuse_space", "live_bytes" }, { "inuse_objects", "live_count" },
	};

	for (size_t i = 0; i < sizeof(heap) / sizeof(heap[0]); i++)
		if (!strcmp(type, heap[i][0]))
			return heap[i][1];
	return type;
}

static bool time_unit(const char *u)
{
	return !strcmp(u, "nanoseconds") || !strcmp(u, "microseconds") ||
	       !strcmp(u, "milliseconds") || !strcmp(u, "seconds");
}

/* Sample types, period type, default type, time and string indices: the header. */
static int write_header(struct pprof *pp, struct spaa_error *err)
{
	const pb_profile_t *pb = pp->pb;
	struct spaa_jsonw *jw = &pp->jw;
	const char *kind = "software", *event = "pprof";
	size_t primary = pb->n_sample_type - 1;
	bool alloc = false;

	pp->metrics = spaa_xcalloc(pb->n_sample_type, sizeof(*pp->metrics));
	for (size_t i = 0; i < pb->n_sample_type; i++) {
		const Perftools__Profiles__ValueType *vt = pb->sample_type[i];

		if (check_str(pp, vt->type, "sample type", i + 1, err) ||
		    check_str(pp, vt->unit, "sample type", i + 1, err))
			return -1;
		if (!*str(pp, vt->type))
			return spaa_error_at(err, SPAA_E_INVALID, pp->name, 0,
					     "sample type %zu has no name", i + 1);
		pp->metrics[i] = metric_name(str(pp, vt->type));
		for (size_t j = 0; j < i; j++)
			if (!strcmp(pp->metrics[j], pp->metrics[i]))
				return spaa_error_at(err, SPAA_E_INVALID, pp->name, 0,
						     "two sample types are named '%s'", pp->metrics[i]);
		alloc |= pp->metrics[i] != str(pp, vt->type);
		if (time_unit(str(pp, vt->unit)))
			kind = "timer";
		if (pb->default_sample_type && vt->type == pb->default_sample_type)
			primary = i;
	}
	if (pb->default_sample_type &&
	    check_str(pp, pb->default_sample_type, "default sample type", 1, err))
		return -1;
	if (pb->period_type) {
		if (check_str(pp, pb->period_type->type, "period type", 1, err) ||
		    check_str(pp, pb->period_type->unit, "period type", 1, err))
			return -1;
		if (*str(pp, pb->period_type->type))
			event = str(pp, pb->period_type->type);
		if (time_unit(str(pp, pb->period_type->unit)))
			kind = "timer";
	}
	if (alloc)
		kind = "allocation";
	if (pb->period < 0)
		return spaa_error_at(err, SPAA_E_INVALID, pp->name, 0,
				     "negative period %" PRId64, pb->period);

	spaa_jsonw_object_begin(jw);
	spaa_jsonw_kv_string(jw, "type", "header");
	spaa_jsonw_kv_string(jw, "format", "spaa");
	spaa_jsonw_kv_string(jw, "version", "1.0");
	spaa_jsonw_kv_string(jw, "source_tool", "pprof");
	spaa_jsonw_kv_string(jw, "frame_order", "leaf_to_root");
	spaa_jsonw_kv_string(jw, "stack_id_mode", "content_addressable");
	spaa_jsonw_key(jw, "events");
	spaa_jsonw_array_begin(jw);
	spaa_jsonw_object_begin(jw);
	spaa_jsonw_kv_string(jw, "name", event);
	spaa_jsonw_kv_string(jw, "kind", kind);
	spaa_jsonw_key(jw, "sampling");
	spaa_jsonw_object_begin(jw);
	spaa_jsonw_kv_string(jw, "mode", pb->period ? "period" : "event");
	spaa_jsonw_kv_string(jw, "primary_metric", pp->metrics[primary]);
	if (pb->period)
		spaa_jsonw_kv_u64(jw, "sample_period", (uint64_t)pb->period);
	spaa_jsonw_object_end(jw);
	if (alloc) {
		/*
		 * In-use figures are native, frees are not recorded as
		 * such: "true" would have them derived as 0 (memory.h)
		 */
		spaa_jsonw_key(jw, "allocation_tracking");
		spaa_jsonw_object_begin(jw);
		spaa_jsonw_kv_bool(jw, "tracks_frees", false);
		spaa_jsonw_kv_bool(jw, "has_timestamps", false);
		spaa_jsonw_object_end(jw);
	}
	spaa_jsonw_object_end(jw);
	spaa_jsonw_array_end(jw);
	if (pb->time_nanos > 0 && pb->duration_nanos >= 0 &&
	    pb->duration_nanos <= INT64_MAX - pb->time_nanos) {
		spaa_jsonw_key(jw, "time_range");
		spaa_jsonw_object_begin(jw);
		spaa_jsonw_kv_i64(jw, "start", pb->time_nanos);
		spaa_jsonw_kv_i64(jw, "end", pb->time_nanos + pb->duration_nanos);
		spaa_jsonw_kv_string(jw, "unit", "nanoseconds");
		spaa_jsonw_object_end(jw);
	}
	spaa_jsonw_key(jw, "source");
	spaa_jsonw_object_begin(jw);
	spaa_jsonw_kv_string(jw, "tool", "pprof");
	spaa_jsonw_kv_string(jw, "x_converter", "spaa-tools");
	spaa_jsonw_object_end(jw);
	spaa_jsonw_object_end(jw);
	return line_out(pp, err);
}

/* Mappings are DSOs 1..n; n+1 is "[unknown]" for locations without one. */
static int write_dsos(struct pprof *pp, struct spaa_error *err)
{
	const pb_profile_t *pb = pp->pb;
	struct spaa_jsonw *jw = &pp->jw;

	for (size_t i = 0; i <= pb->n_mapping; i++) {
		const Perftools__Profiles__Mapping *m = i < pb->n_mapping ? pb->mapping[i] : NULL;
		const char *name = "[unknown]";

		if (m && (check_str(pp, m->filename, "mapping", m->id, err) ||
			  check_str(pp, m->build_id, "mapping", m->id, err)))
			return -1;
		if (m && *str(pp, m->filename))
			name = str(pp, m->filename);
		spaa_jsonw_object_begin(jw);
		spaa_jsonw_kv_string(jw, "type", "dso");
		spaa_jsonw_kv_u64(jw, "id", i + 1);
		spaa_jsonw_kv_string(jw, "name", name);
		if (m && *str(pp, m->build_id))
			spaa_jsonw_kv_string(jw, "build_id", str(pp, m->build_id));
		spaa_jsonw_kv_bool(jw, "is_kernel", spaa_profile_kernel_dso(name));
		spaa_jsonw_object_end(jw);
		if (line_out(pp, err))
			return -1;
	}
	pp->unknown_dso = (uint32_t)pb->n_mapping + 1;
	return 0;
}

/* The string indices of every function (drop_frames reads their names). */
static int check_functions(const struct pprof *pp, struct spaa_error *err)
{
	for (size_t i = 0; i < pp->pb->n_function; i++) {
		const Perftools__Profiles__Function *f = pp->pb->function[i];

		if (check_str(pp, f->name, "function", f->id, err) ||
		    check_str(pp, f->system_name, "function", f->id, err) ||
		    check_str(pp, f->filename, "function", f->id, err))
			return -1;
	}
	return 0;
}

/*
 * pprof's simplified function name (what drop_frames is matched
 * against): a leading '.' (PPC ELF v1) and the argument list from the
 * first '(' off, except the '(' of "(anonymous namespace)" and
 * "operator()".
 */
static char *simplified(const char *name)
{
	static const char *const reserved[] = { "(anonymous namespace)", "operator()" };
	const char *s = name + (*name == '.'), *p = s;

	while ((p = strchr(p, '('))) {
		size_t skip = 0;

		for (size_t i = 0; i < 2 && !skip; i++)
			if (!strncmp(p, reserved[i], strlen(reserved[i])))
				skip = strlen(reserved[i]);
		if (!skip)
			return spaa_xstrndup(s, (size_t)(p - s));
		p += skip;
	}
	return spaa_xstrdup(s);
}

static int compile(struct pprof *pp, int64_t s, const char *what, regex_t *re,
		   struct spaa_error *err)
{
	char *pat;
	int r;

	if (check_str(pp, s, what, 1, err))
		return -1;
	pat = spaa_xmalloc(strlen(str(pp, s)) + 5);
	snprintf(pat, strlen(str(pp, s)) + 5, "^(%s)$", str(pp, s));
	r = regcomp(re, pat, REG_EXTENDED | REG_NOSUB);
	free(pat);
	if (r)
		return spaa_error_at(err, SPAA_E_INVALID, pp->name, 0,
				     "%s '%.200s' is not a POSIX extended regular expression",
				     what, str(pp, s));
	return 0;
}

/*
 * drop_frames, as pprof's Prune: in each location, the root-most Line
 * whose function matches drop_frames (and not keep_frames) is dropped
 * with every Line on its leaf side; stacks are then cut below it.
 */
static int prune_locations(struct pprof *pp, struct spaa_error *err)
{
	const pb_profile_t *pb = pp->pb;
	regex_t drop, keep;
	bool has_keep = pb->keep_frames != 0;
	int ret = -1;

	if (!pb->drop_frames)
		return 0;
	if (check_str(pp, pb->drop_frames, "drop_frames", 1, err))
		return -1;
	if (!*str(pp, pb->drop_frames))
		return 0;
	if (compile(pp, pb->drop_frames, "drop_frames", &drop, err))
		return -1;
	if (has_keep && compile(pp, pb->keep_frames, "keep_frames", &keep, err)) {
		regfree(&drop);
		return -1;
	}
	for (size_t i = 0; i < pb->n_location; i++) {
		const pb_location_t *loc = pb->location[i];
		size_t j;

		for (j = loc->n_line; j-- > 0;) {
			uint32_t f = id_find(pp->fns, pb->n_function, loc->line[j]->function_id);
			const char *name = f == SPAA_NONE ? "" : str(pp, pb->function[f]->name);
			char *s;
			bool hit;

			if (!*name)
				continue;
			s = simplified(name);
			hit = !regexec(&drop, s, 0, NULL, 0) &&
			      !(has_keep && !regexec(&keep, s, 0, NULL, 0));
			free(s);
			if (hit)
				break;
		}
		/* matched at the root-most Line: stacks end below it, Lines stay */
		if (j != (size_t)-1) {
			pp->prune_beneath[i] = true;
			pp->prune_whole[i] = j + 1 == loc->n_line;
			if (!pp->prune_whole[i])
				pp->loc_first_line[i] = (uint32_t)j + 1;
		}
	}
	ret = 0;
	regfree(&drop);
	if (has_keep)
		regfree(&keep);
	return ret;
}

/* "file:line", owned by the caller. */
static char *srcline(const char *file, int64_t line)
{
	size_t n = strlen(file) + 24;
	char *s = spaa_xmalloc(n);

	snprintf(s, n, "%s:%" PRId64, file, line);
	return s;
}

/*
 * One frame record: a Line of loc (NULL: loc has no Lines, so its address
 * stands for the function), at inline_depth (-1: loc has one Line).
 */
static void write_frame(struct pprof *pp, uint32_t id, const pb_location_t *loc,
			uint32_t dso, bool kernel, const Perftools__Profiles__Line *line,
			int inline_depth)
{
	const pb_profile_t *pb = pp->pb;
	struct spaa_jsonw *jw = &pp->jw;
	char buf[32];

	spaa_jsonw_object_begin(jw);
	spaa_jsonw_kv_string(jw, "type", "frame");
	spaa_jsonw_kv_u64(jw, "id", id);
	if (line) {
		const Perftools__Profiles__Function *f =
			pb->function[id_find(pp->fns, pb->n_function, line->function_id)];

		spaa_jsonw_kv_string(jw, "func", str(pp, f->name));
		if (*str(pp, f->filename) && line->line > 0) {
			char *s = srcline(str(pp, f->filename), line->line);

			spaa_jsonw_kv_string(jw, "srcline", s);
			free(s);
		}
	} else {
		snprintf(buf, sizeof(buf), "0x%" PRIx64, loc->address);
		spaa_jsonw_kv_string(jw, "func", buf);
		spaa_jsonw_kv_bool(jw, "func_resolved", false);
	}
	spaa_jsonw_kv_u64(jw, "dso", dso);
	if (loc->address) {
		snprintf(buf, sizeof(buf), "0x%" PRIx64, loc->address);
		spaa_jsonw_kv_string(jw, "ip", buf);
	}
	if (inline_depth > 0)
		spaa_jsonw_kv_bool(jw, "inlined", true);
	if (inline_depth >= 0)
		spaa_jsonw_kv_i64(jw, "inline_depth", inline_depth);
	spaa_jsonw_kv_string(jw, "kind", kernel ? "kernel" : "user");
	spaa_jsonw_object_end(jw);
}

/*
 * Checks every location's mapping and functions, then writes its frames,
 * leaf first: Line 0 is the deepest inlined function, the last Line the
 * function the code physically belongs to.
 */
static int write_frames(struct pprof *pp, struct spaa_error *err)
{
	const pb_profile_t *pb = pp->pb;
	uint32_t next = 1;

	for (size_t i = 0; i < pb->n_location; i++) {
		const pb_location_t *loc = pb->location[i];
		uint32_t dso = pp->unknown_dso, m = SPAA_NONE;
		bool kernel = false;

		if (loc->mapping_id) {
			m = id_find(pp->maps, pb->n_mapping, loc->mapping_id);
			if (m == SPAA_NONE)
				return spaa_error_at(err, SPAA_E_INVALID, pp->name, 0,
						     "location %" PRIu64 " names mapping %" PRIu64 ", which is not in the profile",
						     loc->id, loc->mapping_id);
			dso = m + 1;
			kernel = spaa_profile_kernel_dso(str(pp, pb->mapping[m]->filename));
		}
		for (size_t j = 0; j < loc->n_line; j++)
			if (id_find(pp->fns, pb->n_function, loc->line[j]->function_id) == SPAA_NONE)
				return spaa_error_at(err, SPAA_E_INVALID, pp->name, 0,
						     "location %" PRIu64 " names function %" PRIu64 ", which is not in the profile",
						     loc->id, loc->line[j]->function_id);
		pp->loc_frame[i] = next;
		if (!loc->n_line) {
			pp->loc_nframes[i] = 1;
			write_frame(pp, next++, loc, dso, kernel, NULL, -1);
			if (line_out(pp, err))
				return -1;
			continue;
		}
		pp->loc_nframes[i] = (uint32_t)(loc->n_line - pp->loc_first_line[i]);
		for (size_t j = pp->loc_first_line[i]; j < loc->n_line; j++) {
			write_frame(pp, next++, loc, dso, kernel, loc->line[j],
				    loc->n_line == 1 ? -1 : (int)(loc->n_line - 1 - j));
			if (line_out(pp, err))
				return -1;
		}
	}
	return 0;
}

/*
 * The locations of a sample that pprof's Prune keeps: scanning from the
 * root, once a location that is not pruned has been seen, the first one
 * pruned whole ends the stack above it, the first one pruned inside
 * itself ends it at itself.  Returns the new leaf end.
 */
static size_t prune_start(const struct pprof *pp, const uint32_t *locs, size_t n)
{
	bool user = false;

	for (size_t i = n; i-- > 0;) {
		uint32_t l = locs[i];

		if (!pp->prune_beneath[l]) {
			user = true;
			continue;
		}
		if (!user)
			continue;
		return pp->prune_whole[l] ? i + 1 : i;
	}
	return 0;
}

static uint64_t fnv(uint64_t h, uint32_t v)
{
	for (int i = 0; i < 4; i++) {
		h ^= (v >> (8 * i)) & 0xff;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static void write_weights(struct spaa_jsonw *jw, const struct pprof *pp,
			  const int64_t *values)
{
	const pb_profile_t *pb = pp->pb;

	spaa_jsonw_array_begin(jw);
	for (size_t i = 0; i < pb->n_sample_type; i++) {
		spaa_jsonw_object_begin(jw);
		spaa_jsonw_kv_string(jw, "metric", pp->metrics[i]);
		spaa_jsonw_kv_u64(jw, "value", (uint64_t)values[i]);
		if (*str(pp, pb->sample_type[i]->unit))
			spaa_jsonw_kv_string(jw, "unit", str(pp, pb->sample_type[i]->unit));
		spaa_jsonw_object_end(jw);
	}
	spaa_jsonw_array_end(jw);
}

/* Labels: context "labels", and pid, tid from numeric labels of those names. */
static int write_context(struct pprof *pp, const Perftools__Profiles__Sample *s,
			 size_t k, struct spaa_error *err)
{
	struct spaa_jsonw *jw = &pp->jw;

	for (size_t i = 0; i < s->n_label; i++) {
		const Perftools__Profiles__Label *l = s->label[i];

		if (check_str(pp, l->key, "label of sample", k + 1, err) ||
		    check_str(pp, l->str, "label of sample", k + 1, err) ||
		    check_str(pp, l->num_unit, "label of sample", k + 1, err))
			return -1;
	}
	if (!s->n_label)
		return 0;
	spaa_jsonw_key(jw, "context");
	spaa_jsonw_object_begin(jw);
	for (size_t i = 0; i < s->n_label; i++) {
		const Perftools__Profiles__Label *l = s->label[i];
		const char *key = str(pp, l->key);

		if (!l->str && (!strcmp(key, "pid") || !strcmp(key, "tid")))
			spaa_jsonw_kv_i64(jw, key, l->num);
	}
	spaa_jsonw_key(jw, "labels");
	spaa_jsonw_object_begin(jw);
	for (size_t i = 0; i < s->n_label; i++) {
		const Perftools__Profiles__Label *l = s->label[i];
		size_t j;

		/* a key given twice: the first value (JSON keys are unique) */
		for (j = 0; j < i && s->label[j]->key != l->key; j++)
			;
		if (j < i)
			continue;
		if (l->str)
			spaa_jsonw_kv_string(jw, str(pp, l->key), str(pp, l->str));
		else
			spaa_jsonw_kv_i64(jw, str(pp, l->key), l->num);
	}
	spaa_jsonw_object_end(jw);
	spaa_jsonw_object_end(jw);
	return 0;
}

static int write_stacks(struct pprof *pp, const struct spaa_warn_sink *warn,
			struct spaa_error *err)
{
	const pb_profile_t *pb = pp->pb;
	struct spaa_jsonw *jw = &pp->jw;
	uint32_t *locs = NULL;
	size_t locs_alloc = 0, nempty = 0, nwritten = 0;
	int ret = -1;

	for (size_t k = 0; k < pb->n_sample; k++) {
		const Perftools__Profiles__Sample *s = pb->sample[k];
		size_t n = 0, top;
		uint64_t h = 0xcbf29ce484222325ULL;
		char id[24];

		if (s->n_value != pb->n_sample_type) {
			spaa_error_at(err, SPAA_E_INVALID, pp->name, 0,
				      "sample %zu has %zu values for %zu sample types",
				      k + 1, s->n_value, pb->n_sample_type);
			goto out;
		}
		for (size_t i = 0; i < s->n_value; i++)
			if (s->value[i] < 0) {
				spaa_error_at(err, SPAA_E_INVALID, pp->name, 0,
					      "sample %zu has a negative %s (%" PRId64 "): a difference of profiles cannot be read",
					      k + 1, pp->metrics[i], s->value[i]);
				goto out;
			}
		SPAA_ALLOC_GROW(locs, s->n_location_id, locs_alloc);
		for (size_t i = 0; i < s->n_location_id; i++) {
			locs[i] = id_find(pp->locs, pb->n_location, s->location_id[i]);
			if (locs[i] == SPAA_NONE) {
				spaa_error_at(err, SPAA_E_INVALID, pp->name, 0,
					      "sample %zu names location %" PRIu64 ", which is not in the profile",
					      k + 1, s->location_id[i]);
				goto out;
			}
		}
		top = prune_start(pp, locs, s->n_location_id);
		for (size_t i = top; i < s->n_location_id; i++) {
			uint32_t l = locs[i];

			if (pp->max_depth && n + pp->loc_nframes[l] > pp->max_depth) {
				spaa_error_at(err, SPAA_E_LIMIT, pp->name, 0,
					      "sample %zu has a stack deeper than %" PRIu32 " frames (SPAA_MAX_DEPTH)",
					      k + 1, pp->max_depth);
				goto out;
			}
			SPAA_ALLOC_GROW(pp->frames, n + pp->loc_nframes[l], pp->frames_alloc);
			for (uint32_t j = 0; j < pp->loc_nframes[l]; j++) {
				pp->frames[n++] = pp->loc_frame[l] + j;
				h = fnv(h, pp->loc_frame[l] + j);
			}
		}
		if (!n) {
			nempty++;
			continue;
		}
		snprintf(id, sizeof(id), "0x%016" PRIx64, h);
		spaa_jsonw_object_begin(jw);
		spaa_jsonw_kv_string(jw, "type", "stack");
		spaa_jsonw_kv_string(jw, "id", id);
		spaa_jsonw_key(jw, "frames");
		spaa_jsonw_array_begin(jw);
		for (size_t i = 0; i < n; i++)
			spaa_jsonw_u64(jw, pp->frames[i]);
		spaa_jsonw_array_end(jw);
		if (write_context(pp, s, k, err))
			goto out;
		spaa_jsonw_key(jw, "weights");
		write_weights(jw, pp, s->value);
		spaa_jsonw_key(jw, "exclusive");
		spaa_jsonw_object_begin(jw);
		spaa_jsonw_kv_u64(jw, "frame", pp->frames[0]);
		spaa_jsonw_key(jw, "weights");
		write_weights(jw, pp, s->value);
		spaa_jsonw_object_end(jw);
		spaa_jsonw_object_end(jw);
		if (line_out(pp, err))
			goto out;
		nwritten++;
	}
	if (nempty)
		spaa_warn(warn, pp->name, 0,
			  "%zu samples with an empty stack (no location, or all dropped by drop_frames) left out",
			  nempty);
	if (!nwritten) {
		spaa_error_at(err, SPAA_E_NO_DATA, pp->name, 0, "the pprof profile holds no sample with a stack");
		goto out;
	}
	ret = 0;
out:
	free(locs);
	return ret;
}

int spaa_pprof_convert(struct spaa_input *in, struct spaa_output *out,
		       const struct spaa_pprof_opts *o, struct spaa_error *err)
{
	struct pprof pp = { .name = spaa_input_name(in), .out = out, .max_depth = o->max_depth };
	unsigned char *buf = NULL;
	pb_profile_t *pb = NULL;
	size_t len, n;
	char why[256];
	int ret = -1;

	spaa_jsonw_init(&pp.jw);
	if (read_all(in, o->max_bytes ? o->max_bytes : SPAA_PPROF_MAX_BYTES_DEFAULT,
		     &buf, &len, err))
		goto out;
	if (pb_walk(&pb_profile, buf, buf, buf + len, false, false, 0, NULL, why,
		    sizeof(why))) {
		spaa_error_at(err, SPAA_E_PARSE, pp.name, 0, "malformed pprof profile: %s", why);
		goto out;
	}
	pb = perftools__profiles__profile__unpack(NULL, len, buf);
	if (!pb) {
		spaa_error_at(err, SPAA_E_PARSE, pp.name, 0,
			      "malformed pprof profile: protobuf-c cannot decode it");
		goto out;
	}
	free(buf);
	buf = NULL;
	pp.pb = pb;
	if (!pb->n_sample_type) {
		spaa_error_at(err, SPAA_E_NO_DATA, pp.name, 0, "the pprof profile has no sample type");
		goto out;
	}
	if (!pb->n_string_table || *pb->string_table[0]) {
		spaa_error_at(err, SPAA_E_INVALID, pp.name, 0,
			      "the string table does not start with the empty string");
		goto out;
	}
	if (index_ids(&pp, &pp.maps, pb->n_mapping, mapping_id, "mapping", err) ||
	    index_ids(&pp, &pp.locs, pb->n_location, location_id, "location", err) ||
	    index_ids(&pp, &pp.fns, pb->n_function, function_id, "function", err))
		goto out;
	n = pb->n_location ? pb->n_location : 1;
	pp.loc_frame = spaa_xcalloc(n, sizeof(*pp.loc_frame));
	pp.loc_first_line = spaa_xcalloc(n, sizeof(*pp.loc_first_line));
	pp.loc_nframes = spaa_xcalloc(n, sizeof(*pp.loc_nframes));
	pp.prune_beneath = spaa_xcalloc(n, sizeof(*pp.prune_beneath));
	pp.prune_whole = spaa_xcalloc(n, sizeof(*pp.prune_whole));
	if (write_header(&pp, err) || write_dsos(&pp, err) ||
	    check_functions(&pp, err) || prune_locations(&pp, err) ||
	    write_frames(&pp, err) ||
	    write_stacks(&pp, o->warn, err))
		goto out;
	ret = 0;
out:
	free(buf);
	if (pb)
		perftools__profiles__profile__free_unpacked(pb, NULL);
	spaa_jsonw_release(&pp.jw);
	free(pp.maps);
	free(pp.locs);
	free(pp.fns);
	free(pp.loc_frame);
	free(pp.loc_first_line);
	free(pp.loc_nframes);
	free(pp.prune_beneath);
	free(pp.prune_whole);
	free(pp.metrics);
	free(pp.frames);
	return ret;
}
