#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/json.h"
#include "formats/spaa_reader.h"
#include "model/util.h"
#include "model/warn.h"

/*
 * The reader keeps, per file, maps from the file's own ids (dso, frame,
 * stack, tid) to model indices; the model itself is shared by all files
 * of a load.  Records are validated as they stream by; the few checks
 * that need the whole file (references to stacks defined later, related
 * stacks) run in reader_finish.
 */

#define MAX_WARN_KINDS 16

/* Repeated warnings of one kind are folded into one line with a count. */
struct warn_kind {
	const char *key;        /* a string literal naming the kind */
	unsigned long count, line;
	char msg[256];          /* the first occurrence */
};

/*
 * Short id texts with their string index, inline in the slots of an
 * open-addressing table: the fast path finds a sample's stack id with one
 * memory access, where the string table needs several (slot, pointer,
 * length, bytes), each a cache miss in a profile of many stacks.  An
 * entry always holds what spaa_strtab_intern returns for its text, so
 * the model is the same with or without it.
 */
#define ID_CACHE_TEXT 27

/*
 * The text zero-padded and its length fill the first 28 bytes, compared
 * and hashed as words (id_key): no byte loop, no memcmp call.
 */
struct id_slot {
	char text[ID_CACHE_TEXT];
	uint8_t len;
	uint32_t str;           /* string index; 0 = empty slot */
};

/* The first 28 bytes of a slot as words, the last one's top half zero. */
struct id_key {
	uint64_t w[4];
};

_Static_assert(offsetof(struct id_slot, str) == 28 && sizeof(struct id_slot) == 32,
	       "an id slot is its 28 bytes of key and a string index");

struct id_cache {
	struct id_slot *slots;  /* owned */
	size_t mask, nr;
};

#define TID_CACHE 64

/*
 * How many scanned records ahead on_sample_soon is told of a stack:
 * far enough for memory to arrive by then, near enough for what it
 * fetched to still be in cache.
 */
#define SAMPLE_SOON_NEAR 8
#define SAMPLE_SOON_FAR 16
#define SAMPLE_SOON_RING (SAMPLE_SOON_FAR - SAMPLE_SOON_NEAR)

struct related_ref {
	uint32_t record, stack;
};

/* per-file reference state of the stacks created by this file */
enum { REF_NEEDED = 1, REF_RELATED = 2 };

struct reader {
	struct spaa_profile *p;
	const struct spaa_load_opts *o;
	struct spaa_input *in;
	const char *path;
	uint32_t file;
	unsigned long line;
	struct spaa_json_parser *jp;
	uint64_t bytes_base, bytes_total;

	bool seen_header;
	unsigned long header_line;
	bool root_to_leaf;
	int time_exp10;         /* decimal scale from the header's time unit to ns */
	uint32_t *events;       /* this file's events, as global indices */
	uint32_t nevents;

	struct spaa_map dso_ids;        /* u64 id -> dense, see dso_of */
	uint32_t *dso_of;
	size_t dso_of_alloc;
	struct spaa_map frame_ids;
	uint32_t *frame_of;
	size_t frame_of_alloc;
	/*
	 * The frames of ids below FRAME_DIRECT too, by id (SPAA_NONE:
	 * unbound): every frame of every stack record is looked up, and
	 * producers number frames from 0 or 1 up.
	 */
	uint32_t *frame_direct;
	size_t frame_direct_alloc;
	/*
	 * Stack by the string index of its id text (SPAA_NONE: not seen in
	 * this file): an array, not a map, because every sample looks it up.
	 */
	uint32_t *stack_of;
	size_t stack_of_alloc;
	struct id_cache ids;            /* the fast path's id text -> string */
	uint32_t *prov_stack;           /* scanner's id number -> stack, or SPAA_NONE */
	size_t prov_stack_alloc;
	/* stacks told far ahead, to be told near (sample_soon) */
	uint32_t soon[SAMPLE_SOON_RING];
	unsigned soon_at;
	uint32_t stack_base;            /* first stack index of this file */
	uint32_t record_base;           /* first record index of this file */
	uint32_t period_metric;         /* a name that is no metric: sample periods */
	uint8_t *ref;                   /* REF_* by stack - stack_base */
	size_t ref_alloc;
	struct spaa_map tids;           /* tid -> dense, see thread_of */
	/*
	 * The last lookups of tids by tid % TID_CACHE (every sample looks
	 * its thread up); emptied whenever a thread record rebinds a tid.
	 */
	struct { int64_t tid; uint32_t thread; } tid_cache[TID_CACHE];
	/* index in p->totals of the sample periods of each event, or SPAA_NONE */
	uint32_t *period_total;
	size_t period_total_alloc;
	uint32_t *thread_of;
	size_t thread_of_alloc;

	struct related_ref *related;
	size_t nrelated, related_alloc;

	uint32_t *fbuf;                 /* scratch: frames of the current stack */
	size_t fbuf_alloc;
	struct spaa_weight *wbuf;       /* scratch: weights */
	size_t wbuf_alloc;

	struct spaa_map window_ids;     /* id text (string index) of windows */

	struct warn_kind warns[MAX_WARN_KINDS];
	int nwarns;

	/* validating mode (opts->findings.fn set) */
	unsigned long nfindings;        /* records reported and skipped */
	bool header_missing;            /* reported; skip records until a header */
	bool callback_failed;           /* on_sample's error: never skipped */
};

static const char *const known_tools[] = {
	"perf", "dtrace", "chrome-cpuprofile", "chrome-heapsnapshot",
	"chrome-heaptimeline", "spx", "spaa-convert", "spaa-tools",
	"heaptrack", "pprof", "jemalloc", "tcmalloc", "bpftrace", "ebpf",
	"async-profiler", "py-spy", "folded", NULL,
};

static const char *const known_context[] = {
	"event", "pid", "tid", "cpu", "comm", "probe", "execname", "uid",
	"zonename", "trace_fields", NULL,
};

static bool in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

static void warn(struct reader *r, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void warn(struct reader *r, const char *key, const char *fmt, ...)
{
	struct warn_kind *w = NULL;
	va_list ap;

	if (r->o->unfold_warnings) {
		char msg[256];

		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		spaa_warn(&r->o->warn, r->path, r->line, "%s", msg);
		return;
	}
	for (int i = 0; i < r->nwarns; i++)
		if (r->warns[i].key == key)
			w = &r->warns[i];
	if (!w) {
		if (r->nwarns == MAX_WARN_KINDS)
			return;
		w = &r->warns[r->nwarns++];
		w->key = key;
		w->line = r->line;
		va_start(ap, fmt);
		vsnprintf(w->msg, sizeof(w->msg), fmt, ap);
		va_end(ap);
	}
	w->count++;
}

static void flush_warnings(struct reader *r)
{
	for (int i = 0; i < r->nwarns; i++) {
		struct warn_kind *w = &r->warns[i];

		if (w->count > 1)
			spaa_warn(&r->o->warn, r->path, w->line,
				  "%s (and %lu more like it)", w->msg,
				  w->count - 1);
		else
			spaa_warn(&r->o->warn, r->path, w->line, "%s", w->msg);
	}
	r->nwarns = 0;
}

static int bad(struct reader *r, struct spaa_error *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(struct reader *r, struct spaa_error *err, const char *fmt, ...)
{
	char msg[sizeof(err->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return spaa_error_at(err, SPAA_E_INVALID, r->path, r->line, "%s", msg);
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
static int field(struct reader *r, const struct spaa_json_value *obj,
		 const char *rtype, const char *key, enum spaa_json_type want,
		 bool required, const struct spaa_json_value **out,
		 struct spaa_error *err)
{
	const struct spaa_json_value *v = spaa_json_get(obj, key);
	enum spaa_json_type t;

	*out = NULL;
	if (!v || v->type == SPAA_JSON_NULL) {
		if (required)
			return bad(r, err, "'%s' record has no '%s'", rtype, key);
		return 0;
	}
	t = v->type == SPAA_JSON_FALSE ? SPAA_JSON_TRUE : v->type;
	/* names and enums are compared as C strings: a "\u0000" would cut them */
	if (t == SPAA_JSON_STRING && want == SPAA_JSON_STRING && strlen(v->str) != v->len)
		return bad(r, err, "'%s' in '%s' record contains a NUL character",
			   key, rtype);
	if (t != want)
		return bad(r, err, "'%s' in '%s' record must be %s, not %s", key,
			   rtype, want == SPAA_JSON_TRUE ? "a boolean" :
			   want == SPAA_JSON_NUMBER ? "a number" :
			   want == SPAA_JSON_STRING ? "a string" :
			   want == SPAA_JSON_ARRAY ? "an array" : "an object",
			   spaa_json_type_name(v->type));
	*out = v;
	return 1;
}

static int u64_value(struct reader *r, const struct spaa_json_value *v,
		     const char *rtype, const char *key, uint64_t *out,
		     struct spaa_error *err)
{
	char buf[64];

	if (v->type != SPAA_JSON_NUMBER || spaa_json_get_u64(v, out))
		return bad(r, err, "'%s' in '%s' record must be a non-negative integer below 2^64, not %s",
			   key, rtype, show(v, buf, sizeof(buf)));
	return 0;
}

static int i64_value(struct reader *r, const struct spaa_json_value *v,
		     const char *rtype, const char *key, int64_t *out,
		     struct spaa_error *err)
{
	char buf[64];

	if (v->type != SPAA_JSON_NUMBER || spaa_json_get_i64(v, out))
		return bad(r, err, "'%s' in '%s' record must be a 64-bit integer, not %s",
			   key, rtype, show(v, buf, sizeof(buf)));
	return 0;
}

/* Optional signed id field (pid, tid, cpu): SPAA_NO_ID when absent. */
static int opt_i64(struct reader *r, const struct spaa_json_value *obj,
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
		return bad(r, err, "'%s' in '%s' record is out of range", key, rtype);
	return 0;
}

static int opt_bool(struct reader *r, const struct spaa_json_value *obj,
		    const char *rtype, const char *key, bool dflt, bool *out,
		    struct spaa_error *err)
{
	const struct spaa_json_value *v;
	int ret = field(r, obj, rtype, key, SPAA_JSON_TRUE, false, &v, err);

	if (ret < 0)
		return -1;
	*out = ret ? v->type == SPAA_JSON_TRUE : dflt;
	return 0;
}

static uint32_t max_strings(const struct spaa_load_opts *o)
{
	return o->max_strings ? o->max_strings : SPAA_LOAD_MAX_STRINGS_DEFAULT;
}

/* Interns a string of the file, within the bound on distinct strings. */
static int intern(struct reader *r, const char *str, size_t len, uint32_t *out,
		  struct spaa_error *err)
{
	uint32_t max = max_strings(r->o);

	*out = spaa_strtab_intern(&r->p->strings, str, len);
	if (r->p->strings.nr > max)
		return spaa_error_at(err, SPAA_E_LIMIT, r->path, r->line,
				     "more than %u distinct strings (names, ids): the limit (SPAA_MAX_STRINGS)",
				     max);
	return 0;
}

/* Interned string member; 0 when absent and optional. */
static int str_field(struct reader *r, const struct spaa_json_value *obj,
		     const char *rtype, const char *key, bool required,
		     uint32_t *out, struct spaa_error *err)
{
	const struct spaa_json_value *v;
	int ret = field(r, obj, rtype, key, SPAA_JSON_STRING, required, &v, err);

	if (ret < 0)
		return -1;
	*out = 0;
	return ret ? intern(r, v->str, v->len, out, err) : 0;
}

/* Index of s in names[], or -1 with an error naming the allowed values. */
static int enum_value(struct reader *r, const struct spaa_json_value *v,
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
	return bad(r, err, "'%s' in '%s' record is %s, not one of %s", key, rtype,
		   show(v, buf, sizeof(buf)), allowed);
}

static int enum_field(struct reader *r, const struct spaa_json_value *obj,
		      const char *rtype, const char *key, bool required,
		      const char *const *names, int dflt, int *out,
		      struct spaa_error *err)
{
	const struct spaa_json_value *v;
	int ret = field(r, obj, rtype, key, SPAA_JSON_STRING, required, &v, err);

	if (ret < 0)
		return -1;
	if (!ret) {
		*out = dflt;
		return 0;
	}
	*out = enum_value(r, v, rtype, key, names, err);
	return *out < 0 ? -1 : 0;
}

static struct id_key id_key_of(const struct id_slot *e)
{
	struct id_key k = { { 0, 0, 0, 0 } };

	memcpy(k.w, e, offsetof(struct id_slot, str));
	return k;
}

static bool id_key_eq(const struct id_key *a, const struct id_key *b)
{
	return !((a->w[0] ^ b->w[0]) | (a->w[1] ^ b->w[1]) |
		 (a->w[2] ^ b->w[2]) | (a->w[3] ^ b->w[3]));
}

/* Every word multiplied by its own odd constant, then mixed once. */
static uint64_t id_key_hash(const struct id_key *k)
{
	uint64_t h = k->w[0] * 0x9e3779b97f4a7c15ULL ^ k->w[1] * 0xc2b2ae3d27d4eb4fULL ^
		     k->w[2] * 0x165667b19e3779f9ULL ^ k->w[3] * 0xd6e8feb86659fd93ULL;

	h ^= h >> 32;
	h *= 0xff51afd7ed558ccdULL;
	return h ^ h >> 29;
}

static void id_cache_put(struct id_cache *c, uint64_t h, const struct id_slot *e)
{
	size_t i = h & c->mask;

	while (c->slots[i].str)
		i = (i + 1) & c->mask;
	c->slots[i] = *e;
	c->nr++;
}

static void id_cache_grow(struct id_cache *c)
{
	struct id_cache old = *c;
	size_t n = old.slots ? (old.mask + 1) * 2 : 1024;

	c->slots = spaa_xcalloc(n, sizeof(*c->slots));
	c->mask = n - 1;
	c->nr = 0;
	for (size_t i = 0; old.slots && i <= old.mask; i++)
		if (old.slots[i].str) {
			struct id_key k = id_key_of(&old.slots[i]);

			id_cache_put(c, id_key_hash(&k), &old.slots[i]);
		}
	free(old.slots);
}

/* The slot of id text s (0 < len <= ID_CACHE_TEXT) to look up; its hash. */
static uint64_t id_slot_of(const char *s, size_t len, struct id_slot *e)
{
	struct id_key k;

	/* zero-padded, so slots compare whole, in a few word compares */
	memset(e, 0, sizeof(*e));
	memcpy(e->text, s, len);
	e->len = (uint8_t)len;
	k = id_key_of(e);
	return id_key_hash(&k);
}

/* The string index cached for slot e of hash h, or 0. */
static uint32_t id_cache_lookup(const struct id_cache *c, const struct id_slot *e,
				uint64_t h)
{
	struct id_key k = id_key_of(e);

	for (size_t i = h & c->mask; c->slots && c->slots[i].str; i = (i + 1) & c->mask) {
		struct id_key ki = id_key_of(&c->slots[i]);

		if (id_key_eq(&ki, &k))
			return c->slots[i].str;
	}
	return 0;
}

static void id_cache_add(struct id_cache *c, uint64_t h, const struct id_slot *e)
{
	if (!c->slots || (c->nr + 1) * 2 > c->mask + 1)
		id_cache_grow(c);
	id_cache_put(c, h, e);
}

/*
 * The string index of id text s, as intern gives it, through the id
 * cache: for the sample fast path when the scanner has not numbered the
 * id (see scanner).  Records of the general path intern their ids
 * directly, so the cache holds only what samples need.
 */
static int intern_id(struct reader *r, const char *s, size_t len, uint32_t *out,
		     struct spaa_error *err)
{
	struct id_slot e;
	uint64_t h;

	if (!len || len > ID_CACHE_TEXT)
		return intern(r, s, len, out, err);
	h = id_slot_of(s, len, &e);
	if ((*out = id_cache_lookup(&r->ids, &e, h)))
		return 0;
	if (intern(r, s, len, &e.str, err))
		return -1;
	id_cache_add(&r->ids, h, &e);
	*out = e.str;
	return 0;
}

/* A stack id: a string, or a number kept as its digits. */
static int stack_id_text(struct reader *r, const struct spaa_json_value *v,
			 const char *rtype, const char *key, uint32_t *out,
			 struct spaa_error *err)
{
	if (v->type != SPAA_JSON_STRING && v->type != SPAA_JSON_NUMBER)
		return bad(r, err, "'%s' in '%s' record must be a string or a number, not %s",
			   key, rtype, spaa_json_type_name(v->type));
	return intern(r, v->str, v->len, out, err);
}

/* Time value in the file's unit (exp10 digits below ns) to ns, exactly. */
static int time_value(struct reader *r, const struct spaa_json_value *v,
		      const char *rtype, const char *key, int exp10,
		      int64_t *out, struct spaa_error *err)
{
	char buf[64];

	if (v->type != SPAA_JSON_NUMBER || spaa_json_get_scaled(v, exp10, out))
		return bad(r, err, "'%s' in '%s' record must be a time that fits in 64-bit nanoseconds, not %s",
			   key, rtype, show(v, buf, sizeof(buf)));
	return 0;
}

static int time_unit(struct reader *r, const struct spaa_json_value *v,
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

/* ---- per-file id maps ---------------------------------------------------- */

static uint32_t lookup(const struct spaa_map *m, const uint32_t *values,
		       const void *key)
{
	uint32_t i = spaa_map_find(m, key);

	return i == SPAA_NONE ? SPAA_NONE : values[i];
}

/* Returns false if key was already bound. */
static bool bind(struct spaa_map *m, uint32_t **values, size_t *alloc,
		 const void *key, uint32_t value)
{
	bool created;
	uint32_t i = spaa_map_intern(m, key, &created);

	if (!created)
		return false;
	SPAA_ALLOC_GROW(*values, (size_t)i + 1, *alloc);
	(*values)[i] = value;
	return true;
}

#define FRAME_DIRECT ((uint64_t)1 << 20)

static bool bind_frame(struct reader *r, uint64_t id, uint32_t frame)
{
	if (!bind(&r->frame_ids, &r->frame_of, &r->frame_of_alloc, &id, frame))
		return false;
	if (id < FRAME_DIRECT) {
		size_t old = r->frame_direct_alloc;

		SPAA_ALLOC_GROW(r->frame_direct, (size_t)id + 1, r->frame_direct_alloc);
		for (size_t i = old; i < r->frame_direct_alloc; i++)
			r->frame_direct[i] = SPAA_NONE;
		r->frame_direct[id] = frame;
	}
	return true;
}

/* The frame bound to id in this file, or SPAA_NONE. */
static uint32_t frame_lookup(const struct reader *r, uint64_t id)
{
	if (id < FRAME_DIRECT)
		return id < r->frame_direct_alloc ? r->frame_direct[id] : SPAA_NONE;
	return lookup(&r->frame_ids, r->frame_of, &id);
}

static void tid_cache_clear(struct reader *r)
{
	for (size_t i = 0; i < TID_CACHE; i++)
		r->tid_cache[i].tid = SPAA_NO_ID;
}

/* The thread bound to tid in this file, or SPAA_NONE. */
static uint32_t tid_lookup(struct reader *r, int64_t tid)
{
	size_t i = (uint64_t)tid % TID_CACHE;

	if (r->tid_cache[i].tid != tid) {
		r->tid_cache[i].tid = tid;
		r->tid_cache[i].thread = lookup(&r->tids, r->thread_of, &tid);
	}
	return r->tid_cache[i].thread;
}

/* The stack named by id text, creating a placeholder on first sight. */
static uint32_t stack_ref(struct reader *r, uint32_t id, uint8_t how)
{
	struct spaa_profile *p = r->p;
	uint32_t s;

	if (id >= r->stack_of_alloc) {
		size_t old = r->stack_of_alloc;

		SPAA_ALLOC_GROW(r->stack_of, (size_t)id + 1, r->stack_of_alloc);
		for (size_t i = old; i < r->stack_of_alloc; i++)
			r->stack_of[i] = SPAA_NONE;
	}
	s = r->stack_of[id];
	if (s == SPAA_NONE) {
		s = p->nstacks++;
		SPAA_ALLOC_GROW(p->stacks, p->nstacks, p->stacks_alloc);
		p->stacks[s] = (struct spaa_stack){
			.id = id, .file = r->file, .line = r->line,
			.first_record = SPAA_NONE, .frames = 0, .nframes = 0,
		};
		r->stack_of[id] = s;
		SPAA_ALLOC_GROW(r->ref, (size_t)(s - r->stack_base) + 1, r->ref_alloc);
		r->ref[s - r->stack_base] = 0;
	}
	/* the stack itself only when needed: every sample comes here */
	if (how == REF_NEEDED && !(r->ref[s - r->stack_base] & REF_NEEDED) &&
	    !p->stacks[s].defined)
		p->stacks[s].line = r->line;    /* report the first hard reference */
	r->ref[s - r->stack_base] |= how;
	return s;
}

/* ---- records ----------------------------------------------------------- */

static int read_event(struct reader *r, const struct spaa_json_value *ev,
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
		return bad(r, err, "events in 'header' record must be objects, not %s",
			   spaa_json_type_name(ev->type));
	if (str_field(r, ev, rt, "name", true, &e.name, err) ||
	    enum_field(r, ev, rt, "kind", true, kinds, 0, &kind, err) ||
	    field(r, ev, rt, "sampling", SPAA_JSON_OBJECT, true, &sampling, err) < 0 ||
	    enum_field(r, sampling, rt, "mode", true, modes, 0, &mode, err) ||
	    str_field(r, sampling, rt, "primary_metric", true, &e.primary_metric, err))
		return -1;
	e.kind = kind;
	e.mode = mode;
	if ((ret = field(r, sampling, rt, "frequency_hz", SPAA_JSON_NUMBER, false, &v, err)) < 0)
		return -1;
	if (ret && (spaa_json_get_double(v, &e.frequency_hz) || !(e.frequency_hz > 0)))
		return bad(r, err, "'frequency_hz' of event '%s' must be a positive number",
			   spaa_profile_str(p, e.name));
	if ((ret = field(r, sampling, rt, "sample_period", SPAA_JSON_NUMBER, false, &v, err)) < 0 ||
	    (ret && u64_value(r, v, rt, "sample_period", &e.sample_period, err)))
		return -1;
	if ((ret = field(r, ev, rt, "allocation_tracking", SPAA_JSON_OBJECT, false, &v, err)) < 0)
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

	for (uint32_t i = 0; i < r->nevents; i++)
		if (p->events[r->events[i]].name == e.name)
			return bad(r, err, "event '%s' is declared twice in the header",
				   spaa_profile_str(p, e.name));
	idx = spaa_profile_find_event(p, spaa_profile_str(p, e.name));
	if (idx == SPAA_NONE) {
		idx = p->nevents++;
		SPAA_ALLOC_GROW(p->events, p->nevents, p->events_alloc);
		p->events[idx] = e;
	} else if (p->events[idx].primary_metric != e.primary_metric) {
		return bad(r, err, "event '%s' has primary metric '%s' here but '%s' in an earlier file",
			   spaa_profile_str(p, e.name), spaa_profile_str(p, e.primary_metric),
			   spaa_profile_str(p, p->events[idx].primary_metric));
	}
	r->events = spaa_xrealloc(r->events, (r->nevents + 1) * sizeof(*r->events));
	r->events[r->nevents++] = idx;
	return 0;
}

static int read_header(struct reader *r, const struct spaa_json_value *v,
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
		return bad(r, err, "second 'header' record (the first is on line %lu)",
			   r->header_line);
	r->seen_header = true;
	r->header_line = r->line;

	if (field(r, v, rt, "format", SPAA_JSON_STRING, true, &fmt, err) < 0)
		return -1;
	if (fmt->len != 4 || memcmp(fmt->str, "spaa", 4))
		return bad(r, err, "not a SPAA file: 'format' is '%s', not 'spaa'", fmt->str);
	if (field(r, v, rt, "version", SPAA_JSON_STRING, false, &ver, err) < 0)
		return -1;
	if (!ver)
		warn(r, "no-version", "'header' record has no 'version'; assuming 1.0");
	else if (strncmp(ver->str, "1.", 2) && strcmp(ver->str, "1"))
		warn(r, "version", "SPAA version '%s' is not 1.x; reading it as 1.0",
		     ver->str);
	if (str_field(r, v, rt, "source_tool", false, &f->source_tool, err))
		return -1;
	if (!f->source_tool)
		warn(r, "no-tool", "'header' record has no 'source_tool'");
	else if (!in_list(known_tools, spaa_profile_str(p, f->source_tool)))
		warn(r, "tool", "unknown source_tool '%s'", spaa_profile_str(p, f->source_tool));
	if (enum_field(r, v, rt, "frame_order", true, orders, 0, &order, err) ||
	    enum_field(r, v, rt, "stack_id_mode", true, modes, 0, &mode, err))
		return -1;
	r->root_to_leaf = f->root_to_leaf = order == 1;
	f->content_addressable = mode == 0;

	if (field(r, v, rt, "events", SPAA_JSON_ARRAY, true, &events, err) < 0)
		return -1;
	if (!events->len)
		return bad(r, err, "'header' record declares no events");
	for (const struct spaa_json_value *e = events->child; e; e = e->next)
		if (read_event(r, e, err))
			return -1;

	r->time_exp10 = 9;      /* samples are in seconds unless told otherwise */
	if (field(r, v, rt, "time_range", SPAA_JSON_OBJECT, false, &tr, err) < 0)
		return -1;
	if (tr) {
		const struct spaa_json_value *start, *end, *unit;

		if (field(r, tr, rt, "start", SPAA_JSON_NUMBER, true, &start, err) < 0 ||
		    field(r, tr, rt, "end", SPAA_JSON_NUMBER, true, &end, err) < 0 ||
		    field(r, tr, rt, "unit", SPAA_JSON_STRING, true, &unit, err) < 0 ||
		    time_unit(r, unit, rt, &r->time_exp10, err) ||
		    time_value(r, start, rt, "start", r->time_exp10, &f->time_start, err) ||
		    time_value(r, end, rt, "end", r->time_exp10, &f->time_end, err))
			return -1;
		if (f->time_end < f->time_start)
			return bad(r, err, "'time_range' ends before it starts");
		f->has_time_range = true;
		spaa_profile_cover_time(p, f->time_start, f->time_end);
	}
	return 0;
}

static int read_dso(struct reader *r, const struct spaa_json_value *v,
		    struct spaa_error *err)
{
	const struct spaa_json_value *idv;
	uint32_t name, build_id;
	uint64_t id;
	bool is_kernel;

	if (field(r, v, "dso", "id", SPAA_JSON_NUMBER, true, &idv, err) < 0 ||
	    u64_value(r, idv, "dso", "id", &id, err) ||
	    str_field(r, v, "dso", "name", true, &name, err) ||
	    str_field(r, v, "dso", "build_id", false, &build_id, err) ||
	    opt_bool(r, v, "dso", "is_kernel", false, &is_kernel, err))
		return -1;
	if (!bind(&r->dso_ids, &r->dso_of, &r->dso_of_alloc, &id,
		  spaa_profile_intern_dso(r->p, name, build_id, is_kernel)))
		return bad(r, err, "duplicate dso id %" PRIu64, id);
	return 0;
}

static int read_frame(struct reader *r, const struct spaa_json_value *v,
		      struct spaa_error *err)
{
	static const char *const kinds[] = { "user", "kernel", "unknown", NULL };
	struct spaa_profile *p = r->p;
	const struct spaa_json_value *idv, *dsov, *depth;
	struct spaa_frame f = { .inline_depth = -1 };
	uint64_t id, dso_id;
	uint32_t func, dso;
	int kind, ret;

	if (field(r, v, "frame", "id", SPAA_JSON_NUMBER, true, &idv, err) < 0 ||
	    u64_value(r, idv, "frame", "id", &id, err) ||
	    str_field(r, v, "frame", "func", true, &func, err) ||
	    field(r, v, "frame", "dso", SPAA_JSON_NUMBER, true, &dsov, err) < 0 ||
	    u64_value(r, dsov, "frame", "dso", &dso_id, err))
		return -1;
	dso = lookup(&r->dso_ids, r->dso_of, &dso_id);
	if (dso == SPAA_NONE)
		return bad(r, err, "frame %" PRIu64 " references unknown dso id %" PRIu64,
			   id, dso_id);
	if (str_field(r, v, "frame", "ip", false, &f.ip, err) ||
	    str_field(r, v, "frame", "srcline", false, &f.srcline, err) ||
	    opt_bool(r, v, "frame", "func_resolved", true, &f.func_resolved, err) ||
	    opt_bool(r, v, "frame", "inlined", false, &f.inlined, err) ||
	    enum_field(r, v, "frame", "kind", false, kinds,
		       p->dsos[dso].is_kernel ? SPAA_FRAME_KERNEL : SPAA_FRAME_USER,
		       &kind, err))
		return -1;
	f.kind = kind;
	if ((ret = field(r, v, "frame", "inline_depth", SPAA_JSON_NUMBER, false, &depth, err)) < 0)
		return -1;
	if (ret) {
		uint64_t d;

		if (u64_value(r, depth, "frame", "inline_depth", &d, err))
			return -1;
		if (d > 10000)
			return bad(r, err, "'inline_depth' %" PRIu64 " is absurd", d);
		f.inline_depth = (int)d;
	}
	f.fn = spaa_profile_intern_function(p, func, dso);

	if (!bind_frame(r, id, p->nframes))
		return bad(r, err, "duplicate frame id %" PRIu64, id);
	SPAA_ALLOC_GROW(p->frames, (size_t)p->nframes + 1, p->frames_alloc);
	p->frames[p->nframes++] = f;
	return 0;
}

static int read_thread(struct reader *r, const struct spaa_json_value *v,
		       struct spaa_error *err)
{
	struct spaa_profile *p = r->p;
	const struct spaa_json_value *pv, *tv;
	int64_t pid, tid;
	uint32_t comm, t;

	if (field(r, v, "thread", "pid", SPAA_JSON_NUMBER, true, &pv, err) < 0 ||
	    i64_value(r, pv, "thread", "pid", &pid, err) ||
	    field(r, v, "thread", "tid", SPAA_JSON_NUMBER, true, &tv, err) < 0 ||
	    i64_value(r, tv, "thread", "tid", &tid, err) ||
	    str_field(r, v, "thread", "comm", false, &comm, err))
		return -1;
	t = spaa_profile_intern_thread(p, pid, tid);
	tid_cache_clear(r);
	if (comm)
		p->threads[t].comm = comm;
	/* tid alone identifies a thread within a file (spec 3.4): last wins */
	if (!bind(&r->tids, &r->thread_of, &r->thread_of_alloc, &tid, t)) {
		uint32_t *old = &r->thread_of[spaa_map_find(&r->tids, &tid)];

		if (p->threads[*old].pid != pid)
			warn(r, "thread-tid", "thread %" PRId64 " is declared again with another pid (%" PRId64 ", was %" PRId64 "); the last one is used",
			     tid, pid, p->threads[*old].pid);
		*old = t;
	}
	return 0;
}

/* The event a record names, or the only one when it names none. */
static uint32_t find_event(const struct reader *r, const struct spaa_json_value *name)
{
	if (!name)
		return r->nevents == 1 ? r->events[0] : SPAA_NONE;
	for (uint32_t i = 0; i < r->nevents; i++) {
		uint32_t ev = r->p->events[r->events[i]].name;

		if (spaa_strtab_len(&r->p->strings, ev) == name->len &&
		    !memcmp(spaa_profile_str(r->p, ev), name->str, name->len))
			return r->events[i];
	}
	return SPAA_NONE;
}

static int record_event(struct reader *r, const struct spaa_json_value *name,
			const char *rtype, uint32_t *out, struct spaa_error *err)
{
	*out = find_event(r, name);
	if (*out != SPAA_NONE)
		return 0;
	if (!name)
		return bad(r, err, "'%s' record names no event and the header declares %u",
			   rtype, r->nevents);
	return bad(r, err, "'%s' record names event '%s', which the header does not declare",
		   rtype, name->str);
}

/* Fills in the pid of a thread known only by tid (spec 3.4). */
static void thread_pid(struct reader *r, int64_t tid, int64_t *pid, uint32_t *comm)
{
	uint32_t t;

	if (tid == SPAA_NO_ID)
		return;
	t = tid_lookup(r, tid);
	if (t == SPAA_NONE)
		return;
	if (*pid == SPAA_NO_ID)
		*pid = r->p->threads[t].pid;
	if (comm && !*comm)
		*comm = r->p->threads[t].comm;
}

/* Parses a weights array into r->wbuf; returns the count or -1. */
static int read_weights(struct reader *r, const struct spaa_json_value *arr,
			const char *rtype, struct spaa_error *err)
{
	uint32_t n = 0;

	SPAA_ALLOC_GROW(r->wbuf, arr->len, r->wbuf_alloc);
	for (const struct spaa_json_value *w = arr->child; w; w = w->next) {
		const struct spaa_json_value *val;
		struct spaa_weight x;

		if (w->type != SPAA_JSON_OBJECT)
			return bad(r, err, "weights in '%s' record must be objects, not %s",
				   rtype, spaa_json_type_name(w->type));
		if (str_field(r, w, rtype, "metric", true, &x.metric, err) ||
		    str_field(r, w, rtype, "unit", false, &x.unit, err) ||
		    field(r, w, rtype, "value", SPAA_JSON_NUMBER, true, &val, err) < 0 ||
		    u64_value(r, val, rtype, "value", &x.value, err))
			return -1;
		for (uint32_t i = 0; i < n; i++)
			if (r->wbuf[i].metric == x.metric)
				return bad(r, err, "metric '%s' appears twice in the weights of a '%s' record",
					   spaa_profile_str(r->p, x.metric), rtype);
		r->wbuf[n++] = x;
	}
	return (int)n;
}

/*
 * The frame order check of spec 7: inlined frames sharing an address are
 * written deepest first in leaf-to-root order, so a depth that grows
 * toward the leaf means the frames were written in the other order.
 */
static int check_inline_order(struct reader *r, const uint32_t *fr, uint32_t n,
			      struct spaa_error *err)
{
	const struct spaa_frame *frames = r->p->frames;

	for (uint32_t i = 0; i + 1 < n; i++) {
		const struct spaa_frame *a = &frames[fr[i]], *b = &frames[fr[i + 1]];

		if (a->inline_depth >= 0 && b->inline_depth >= 0 && a->ip &&
		    a->ip == b->ip &&
		    r->p->functions[a->fn].dso == r->p->functions[b->fn].dso &&
		    a->inline_depth < b->inline_depth)
			return bad(r, err, "frame order does not match the header's '%s': inline depth grows toward the leaf",
				   r->root_to_leaf ? "root_to_leaf" : "leaf_to_root");
	}
	return 0;
}

static int read_context(struct reader *r, const struct spaa_json_value *ctx,
			struct spaa_record *rec, struct spaa_error *err)
{
	const struct spaa_json_value *ev = NULL;
	const char *rt = "stack";

	if (ctx) {
		if (field(r, ctx, rt, "event", SPAA_JSON_STRING, false, &ev, err) < 0 ||
		    opt_i64(r, ctx, rt, "pid", &rec->pid, err) ||
		    opt_i64(r, ctx, rt, "tid", &rec->tid, err) ||
		    opt_i64(r, ctx, rt, "cpu", &rec->cpu, err) ||
		    str_field(r, ctx, rt, "comm", false, &rec->comm, err))
			return -1;
		for (const struct spaa_json_value *m = ctx->child; m; m = m->next)
			if (!in_list(known_context, m->key) && strncmp(m->key, "x_", 2))
				warn(r, "context-key", "unknown context key '%s' (kept, not used)",
				     m->key);
	}
	if (record_event(r, ev, rt, &rec->event, err))
		return -1;
	thread_pid(r, rec->tid, &rec->pid, &rec->comm);
	return 0;
}

static int add_record(struct reader *r, struct spaa_record *rec)
{
	struct spaa_profile *p = r->p;
	struct spaa_stack *s = &p->stacks[rec->stack];
	uint32_t i = p->nrecords++;

	SPAA_ALLOC_GROW(p->records, p->nrecords, p->records_alloc);
	rec->next_same_stack = s->first_record;
	s->first_record = i;
	p->records[i] = *rec;
	return 0;
}

static int read_stack(struct reader *r, const struct spaa_json_value *v,
		      struct spaa_error *err)
{
	static const char *const types[] = { "unified", "user", "kernel", NULL };
	struct spaa_profile *p = r->p;
	const struct spaa_json_value *idv, *fr, *ctx, *weights, *excl, *rel;
	struct spaa_record rec = {
		.pid = SPAA_NO_ID, .tid = SPAA_NO_ID, .cpu = SPAA_NO_ID,
		.excl_frame = SPAA_NONE,
	};
	const char *rt = "stack";
	struct spaa_stack *s;
	uint32_t id = 0, n = 0, si;
	uint64_t primary;
	int type, nw;

	idv = spaa_json_get(v, "id");
	if (!idv || idv->type == SPAA_JSON_NULL)
		return bad(r, err, "'stack' record has no 'id'");
	if (stack_id_text(r, idv, rt, "id", &id, err) ||
	    field(r, v, rt, "frames", SPAA_JSON_ARRAY, true, &fr, err) < 0)
		return -1;
	if (!fr->len)
		return bad(r, err, "stack '%s' has no frames", spaa_profile_str(p, id));
	if (fr->len > r->o->max_depth)
		return spaa_error_at(err, SPAA_E_LIMIT, r->path, r->line,
				     "stack '%s' has %zu frames, more than the limit of %u (SPAA_MAX_DEPTH)",
				     spaa_profile_str(p, id), fr->len, r->o->max_depth);
	SPAA_ALLOC_GROW(r->fbuf, fr->len, r->fbuf_alloc);
	for (const struct spaa_json_value *f = fr->child; f; f = f->next) {
		uint64_t fid;

		if (u64_value(r, f, rt, "frames", &fid, err))
			return -1;
		r->fbuf[n] = frame_lookup(r, fid);
		if (r->fbuf[n] == SPAA_NONE)
			return bad(r, err, "stack '%s' references unknown frame id %" PRIu64,
				   spaa_profile_str(p, id), fid);
		n++;
	}
	if (r->root_to_leaf) {
		for (uint32_t i = 0; i < n / 2; i++) {
			uint32_t t = r->fbuf[i];

			r->fbuf[i] = r->fbuf[n - 1 - i];
			r->fbuf[n - 1 - i] = t;
		}
	}
	if (check_inline_order(r, r->fbuf, n, err) ||
	    enum_field(r, v, rt, "stack_type", false, types, 0, &type, err) ||
	    field(r, v, rt, "context", SPAA_JSON_OBJECT, false, &ctx, err) < 0 ||
	    read_context(r, ctx, &rec, err))
		return -1;

	/* weights, with the event's primary metric */
	if (field(r, v, rt, "weights", SPAA_JSON_ARRAY, true, &weights, err) < 0 ||
	    (nw = read_weights(r, weights, rt, err)) < 0)
		return -1;
	rec.weights = spaa_profile_add_weights(p, r->wbuf, (uint32_t)nw);
	rec.nweights = (uint32_t)nw;
	if (!spaa_profile_weights_get(p, rec.weights, rec.nweights,
			      p->events[rec.event].primary_metric, &primary))
		return bad(r, err, "stack '%s' lacks the primary metric '%s' of event '%s' in its weights",
			   spaa_profile_str(p, id), spaa_profile_str(p, p->events[rec.event].primary_metric),
			   spaa_profile_str(p, p->events[rec.event].name));
	for (uint32_t i = 0; i < rec.nweights; i++)
		if (spaa_profile_add_total(p, rec.event, r->wbuf[i].metric, r->wbuf[i].value))
			return spaa_error_at(err, SPAA_E_LIMIT, r->path, r->line,
					     "the total of '%s' over event '%s' overflows 64 bits",
					     spaa_profile_str(p, r->wbuf[i].metric),
					     spaa_profile_str(p, p->events[rec.event].name));
	if (!primary)
		warn(r, "zero", "stack '%s' has a zero '%s' weight",
		     spaa_profile_str(p, id), spaa_profile_str(p, p->events[rec.event].primary_metric));

	/* exclusive: attributed to the logical leaf */
	if (field(r, v, rt, "exclusive", SPAA_JSON_OBJECT, false, &excl, err) < 0)
		return -1;
	if (excl) {
		const struct spaa_json_value *xf, *xw;
		uint64_t fid;
		uint32_t frame;

		if (field(r, excl, rt, "frame", SPAA_JSON_NUMBER, true, &xf, err) < 0 ||
		    u64_value(r, xf, rt, "exclusive.frame", &fid, err) ||
		    field(r, excl, rt, "weights", SPAA_JSON_ARRAY, true, &xw, err) < 0 ||
		    (nw = read_weights(r, xw, rt, err)) < 0)
			return -1;
		frame = frame_lookup(r, fid);
		if (frame == SPAA_NONE)
			return bad(r, err, "exclusive frame %" PRIu64 " of stack '%s' is not a known frame",
				   fid, spaa_profile_str(p, id));
		if (frame != r->fbuf[0]) {
			if (n > 1 && frame == r->fbuf[n - 1] &&
			    p->frames[frame].fn != p->frames[r->fbuf[0]].fn)
				return bad(r, err, "frame order does not match the header's '%s': the exclusive frame %" PRIu64 " of stack '%s' is at the root end",
					   r->root_to_leaf ? "root_to_leaf" : "leaf_to_root",
					   fid, spaa_profile_str(p, id));
			return bad(r, err, "exclusive frame %" PRIu64 " of stack '%s' is not its leaf frame",
				   fid, spaa_profile_str(p, id));
		}
		rec.excl_frame = frame;
		rec.excl = spaa_profile_add_weights(p, r->wbuf, (uint32_t)nw);
		rec.nexcl = (uint32_t)nw;
	}

	/* the stack itself: new, a placeholder now defined, or a repeat */
	si = stack_ref(r, id, 0);
	s = &p->stacks[si];
	if (s->defined) {
		if (s->nframes != n || s->type != (enum spaa_stack_type)type ||
		    memcmp(p->frame_pool + s->frames, r->fbuf, n * sizeof(*r->fbuf)))
			return bad(r, err, "stack id '%s' is reused with different frames (first defined on line %lu)",
				   spaa_profile_str(p, id), s->line);
	} else {
		s->frames = spaa_profile_add_frames(p, r->fbuf, n);
		s->nframes = n;
		s->type = type;
		s->defined = true;
		s->line = r->line;
	}
	rec.stack = si;
	rec.frames = s->frames;
	rec.nframes = s->nframes;

	if (field(r, v, rt, "related_stacks", SPAA_JSON_ARRAY, false, &rel, err) < 0)
		return -1;
	for (const struct spaa_json_value *x = rel ? rel->child : NULL; x; x = x->next) {
		uint32_t rid = 0;

		if (stack_id_text(r, x, rt, "related_stacks", &rid, err))
			return -1;
		SPAA_ALLOC_GROW(r->related, r->nrelated + 1, r->related_alloc);
		r->related[r->nrelated++] = (struct related_ref){
			p->nrecords, stack_ref(r, rid, REF_RELATED),
		};
		p->stacks[si].related = true;
	}
	return add_record(r, &rec);
}

/* spaa_profile_add_total of a sample period, its total found once per event. */
static int period_total(struct reader *r, uint32_t event, uint64_t period)
{
	struct spaa_profile *p = r->p;

	if (event >= r->period_total_alloc) {
		size_t old = r->period_total_alloc;

		SPAA_ALLOC_GROW(r->period_total, (size_t)event + 1, r->period_total_alloc);
		for (size_t i = old; i < r->period_total_alloc; i++)
			r->period_total[i] = SPAA_NONE;
	}
	if (r->period_total[event] == SPAA_NONE) {
		if (spaa_profile_add_total(p, event, r->period_metric, 0))
			return -1;
		r->period_total[event] = spaa_map_find(&p->totals,
						       (uint32_t[2]){ event, r->period_metric });
	}
	return spaa_add_u64(p->total_values[r->period_total[event]], period,
			    &p->total_values[r->period_total[event]]);
}

/*
 * What both sample paths share once a record's fields are known to be
 * valid: the period total, the thread's pid, the stack reference, the
 * counters and the analysis' callback.  id is the string index of the
 * stack id text, or SPAA_NONE when s->stack is known already (a stack
 * referenced before needs no new reference).
 */
static int add_sample(struct reader *r, struct spaa_sample *s, uint32_t id,
		      struct spaa_error *err)
{
	struct spaa_profile *p = r->p;

	if (s->has_period && period_total(r, s->event, s->period))
		return spaa_error_at(err, SPAA_E_LIMIT, r->path, r->line,
				     "the total of sample periods of event '%s' overflows 64 bits",
				     spaa_profile_str(p, p->events[s->event].name));
	thread_pid(r, s->tid, &s->pid, NULL);
	if (id != SPAA_NONE)
		s->stack = stack_ref(r, id, REF_NEEDED);

	p->nsamples++;
	p->events[s->event].nsamples++;
	p->files[r->file].nsamples++;
	spaa_profile_cover_time(p, s->time, s->time);
	if (r->o->on_sample && r->o->on_sample(r->o->data, p, s, err)) {
		r->callback_failed = true;
		return -1;
	}
	return 0;
}

static int read_sample(struct reader *r, const struct spaa_json_value *v,
		       struct spaa_error *err)
{
	const struct spaa_json_value *ts, *sid, *ev, *per;
	struct spaa_sample s = { .file = r->file, .line = r->line };
	const char *rt = "sample";
	uint32_t id = 0;
	int ret;

	if (field(r, v, rt, "timestamp", SPAA_JSON_NUMBER, true, &ts, err) < 0 ||
	    time_value(r, ts, rt, "timestamp", r->time_exp10, &s.time, err))
		return -1;
	sid = spaa_json_get(v, "stack_id");
	if (!sid || sid->type == SPAA_JSON_NULL)
		return bad(r, err, "'sample' record has no 'stack_id'");
	if (stack_id_text(r, sid, rt, "stack_id", &id, err) ||
	    field(r, v, rt, "event", SPAA_JSON_STRING, false, &ev, err) < 0 ||
	    record_event(r, ev, rt, &s.event, err) ||
	    opt_i64(r, v, rt, "pid", &s.pid, err) ||
	    opt_i64(r, v, rt, "tid", &s.tid, err) ||
	    opt_i64(r, v, rt, "cpu", &s.cpu, err))
		return -1;
	if ((ret = field(r, v, rt, "period", SPAA_JSON_NUMBER, false, &per, err)) < 0 ||
	    (ret && u64_value(r, per, rt, "period", &s.period, err)))
		return -1;
	s.has_period = ret;
	/*
	 * Extension (spec 4.3 asks custom keys to carry an x_ prefix): the
	 * metric the period measures, e.g. "wt" for converted SPX slices, so
	 * --begin/--end weigh such samples by their own time.
	 */
	if (str_field(r, v, rt, "x_period_metric", false, &s.period_metric, err))
		return -1;
	return add_sample(r, &s, id, err);
}

/* ---- the fast path for sample records ------------------------------------ */

/*
 * Most of a large profile is sample records of one shape: a flat object
 * of the keys below, plain ASCII strings, numbers.  fast_sample reads
 * exactly those straight from the line, without building a JSON tree,
 * and hands anything else (escapes, non-ASCII, null, nesting, another
 * key, a repeated key, a value that would be an error) back to the
 * general path, which then parses the line from scratch.  So the fast
 * path never reports an error of its own: it commits only records the
 * general path accepts, through the same add_sample, and errors keep
 * their code, file, line and message.  What needs only the line
 * (sample_scan) is mostly done ahead, a block of lines at a time, by the
 * input's scanner (see scanner); commit_sample does the rest in line
 * order.  tests/unit/check_fastpath.c proves all paths build the same
 * model.
 */
enum { FK_TYPE, FK_TIMESTAMP, FK_STACK_ID, FK_EVENT, FK_PID, FK_TID, FK_CPU,
       FK_PERIOD, FK_NKEYS };

static bool key_is(const char *c, size_t room, const char *lit, size_t n)
{
	return room >= n && !memcmp(c, lit, n);
}

/*
 * The key whose opening quote is at c[-1]: *pc moves past its closing
 * quote.  -1 for any key but these.  Compared as literals, closing quote
 * included, not byte by byte: a key equal to one of them up to there is
 * that key (an escape would show as a backslash).
 */
static int fast_key(const char **pc, const char *end)
{
	/* each with its closing quote; literal lengths compile to a few loads */
#define KEY_IS(lit) key_is(c, room, lit "\"", sizeof(lit))
	static const uint8_t len[FK_NKEYS] = {
		[FK_TYPE] = 5, [FK_TIMESTAMP] = 10, [FK_STACK_ID] = 9,
		[FK_EVENT] = 6, [FK_PID] = 4, [FK_TID] = 4, [FK_CPU] = 4,
		[FK_PERIOD] = 7,
	};
	const char *c = *pc;
	size_t room = (size_t)(end - c);
	int k = -1;

	if (!room)
		return -1;
	switch (*c) {
	case 't':
		k = KEY_IS("type") ? FK_TYPE : KEY_IS("timestamp") ? FK_TIMESTAMP :
		    KEY_IS("tid") ? FK_TID : -1;
		break;
	case 'p':
		k = KEY_IS("pid") ? FK_PID : KEY_IS("period") ? FK_PERIOD : -1;
		break;
	case 'c':
		k = KEY_IS("cpu") ? FK_CPU : -1;
		break;
	case 'e':
		k = KEY_IS("event") ? FK_EVENT : -1;
		break;
	case 's':
		k = KEY_IS("stack_id") ? FK_STACK_ID : -1;
		break;
	}
#undef KEY_IS
	if (k >= 0)
		*pc = c + len[k];
	return k;
}

static const char *skip_ws(const char *c, const char *end)
{
	if (c < end && (unsigned char)*c > ' ')
		return c;       /* the common case: no whitespace */
	while (c < end && (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\n'))
		c++;
	return c;
}

/* ASCII from 0x20 but '"' and '\\': a string byte the fast path takes. */
static bool plain_byte(char c)
{
	return (unsigned char)c >= 0x20 && (unsigned char)c < 0x80 && c != '"' && c != '\\';
}

/*
 * Runs of digits and of plain string bytes are measured eight bytes at a
 * time where the line has eight more (util.h), with word arithmetic
 * instead of a branch per byte: a sample line is mostly such runs, and
 * the branch that ends each one is the one a byte loop mispredicts.
 * Digits are also converted eight at a time, which needs the first byte
 * of a word to be its lowest: on other machines the byte loop does it.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FAST_DIGITS 1
#else
#define FAST_DIGITS 0
#endif

static uint64_t load_word(const char *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
	return w;
}

/*
 * A string without escapes or bytes outside printable ASCII, whose
 * opening quote is at *c; NULL for anything else.  Returns the byte
 * after the closing quote.
 */
static const char *fast_string(const char *c, const char *end,
			       struct spaa_json_value *v)
{
	const char *s = ++c;
	uint64_t m = 0;

	while (!m && end - c >= 8) {
		m = spaa_swar_special(load_word(c));
		c += m ? spaa_swar_first(m) : 8;
	}
	while (c < end && plain_byte(*c))
		c++;
	if (c == end || *c != '"')
		return NULL;
	*v = (struct spaa_json_value){ .type = SPAA_JSON_STRING, .str = s, .len = (size_t)(c - s) };
	return c + 1;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * The digits of a number as fast_number reads them, up to 18 before and
 * 18 after the dot (19: more, and ip or fp is not the value of them).
 */
struct fast_num {
	uint64_t ip, fp;
	uint8_t nint, nfrac;
	bool neg, exp;
};

/* Appends the digits at *pc to *v, counting them in *n up to 19. */
static const char *fast_digits(const char *c, const char *end, uint64_t *v,
			       uint8_t *n)
{
	static const uint64_t pow10[] = {
		1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
	};
	size_t k = 8;

	while (FAST_DIGITS && k == 8 && end - c >= 8 && *n + 8 <= 18) {
		uint64_t w = load_word(c), t, m = spaa_swar_nondigit(w);

		k = m ? spaa_swar_first(m) : 8;
		if (!k)
			break;
		/*
		 * The k digits as 0..9 in the top k bytes, zeros below
		 * (leading zeros), then summed pairwise: 8 digits by three
		 * multiplications.
		 */
		t = (w - SPAA_ONES * '0') << (8 * (8 - k));
		t = t * 10 + (t >> 8);
		t = ((t & 0x000000ff000000ffULL) * (100 + (1000000ULL << 32)) +
		     ((t >> 16) & 0x000000ff000000ffULL) * (1 + (10000ULL << 32))) >> 32;
		*v = *v * pow10[k] + t;
		*n = (uint8_t)(*n + k);
		c += k;
	}
	for (; c < end && is_digit(*c); c++)
		if (*n < 19 && ++*n < 19)
			*v = *v * 10 + (uint64_t)(*c - '0');
	return c;
}

/*
 * A number in the strict JSON grammar starting at c, its digits read in
 * the same pass; NULL if not one.
 */
static const char *fast_number(const char *c, const char *end,
			       struct spaa_json_value *v, struct fast_num *n)
{
	const char *s = c;

	*n = (struct fast_num){ .neg = c < end && *c == '-' };
	c += n->neg;
	if (c == end || !is_digit(*c))
		return NULL;
	if (*c == '0')
		n->nint = 1, c++;
	else
		c = fast_digits(c, end, &n->ip, &n->nint);
	if (c < end && *c == '.') {
		if (++c == end || !is_digit(*c))
			return NULL;
		c = fast_digits(c, end, &n->fp, &n->nfrac);
	}
	if (c < end && (*c == 'e' || *c == 'E')) {
		n->exp = true;
		if (++c < end && (*c == '+' || *c == '-'))
			c++;
		if (c == end || !is_digit(*c))
			return NULL;
		while (c < end && is_digit(*c))
			c++;
	}
	*v = (struct spaa_json_value){ .type = SPAA_JSON_NUMBER, .str = s, .len = (size_t)(c - s) };
	return c;
}

/* A plain integer of at most 18 digits: what cannot overflow 64 bits. */
static bool fast_int(const struct fast_num *n)
{
	return !n->exp && !n->nfrac && n->nint <= 18;
}

/*
 * An optional id (pid, tid, cpu) as opt_i64 accepts it; -1 if not.
 * Anything but a plain integer goes to the exact conversion of json.h.
 */
static int fast_id(const struct spaa_json_value *v, const struct fast_num *n,
		   int64_t *out)
{
	*out = SPAA_NO_ID;
	if (!v->str)
		return 0;
	if (v->type != SPAA_JSON_NUMBER)
		return -1;
	if (fast_int(n))
		*out = n->neg ? -(int64_t)n->ip : (int64_t)n->ip;
	else if (spaa_json_get_i64(v, out))
		return -1;
	return *out == SPAA_NO_ID ? -1 : 0;
}

/* The period as read_sample reads it; -1 if it would be rejected. */
static int fast_period(const struct spaa_json_value *v, const struct fast_num *n,
		       uint64_t *out)
{
	*out = 0;
	if (!v->str)
		return 0;
	if (v->type != SPAA_JSON_NUMBER)
		return -1;
	if (fast_int(n) && !n->neg) {
		*out = n->ip;
		return 0;
	}
	return spaa_json_get_u64(v, out);
}

/*
 * A sample record of the common shape, as far as the line alone tells:
 * what sample_scan finds, for commit_sample to check against the file
 * (its time unit, its events) and add.  Offsets are into the line.
 */
struct sample_scan {
	int64_t pid, tid, cpu;          /* SPAA_NO_ID when absent */
	uint64_t period;
	/* the timestamp's digits before and after the dot (when ts_digits) */
	uint64_t ts_int, ts_frac;
	uint32_t ts_off, ts_len, id_off, id_len, ev_off, ev_len;
	/* the scanner's number for the id text, or SPAA_NONE (see scanner) */
	uint32_t prov;
	const char *id_text;    /* the scanner's, from its scan to its batch */
	uint8_t ts_nint, ts_nfrac;
	bool ts_neg, ts_digits, has_period, has_event;
};

/*
 * spaa_json_get_scaled of the timestamp, at once when its digits fit 64 bits
 * after scaling by exp10 and it has no more decimals than exp10 keeps.
 */
static int sample_time(const struct sample_scan *sc, const char *line, int exp10,
		       int64_t *out)
{
	static const uint64_t pow10[] = {
		1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
		1000000000, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
		10000000000000ULL, 100000000000000ULL, 1000000000000000ULL,
		10000000000000000ULL, 100000000000000000ULL, 1000000000000000000ULL,
	};
	struct spaa_json_value v = {
		.type = SPAA_JSON_NUMBER, .str = line + sc->ts_off, .len = sc->ts_len,
	};

	if (sc->ts_digits && sc->ts_nfrac <= exp10 && sc->ts_nint + exp10 <= 18) {
		uint64_t t = sc->ts_int * pow10[exp10] + sc->ts_frac * pow10[exp10 - sc->ts_nfrac];

		*out = sc->ts_neg ? -(int64_t)t : (int64_t)t;
		return 0;
	}
	return spaa_json_get_scaled(&v, exp10, out);
}

/*
 * Reads a line of the common shape into *sc, needing nothing but the
 * line (so that the decoding thread can do it, see scanner): false for
 * anything else, and for what read_sample would reject.
 */
static bool sample_scan(const char *line, size_t len, struct sample_scan *sc)
{
	struct spaa_json_value f[FK_NKEYS];
	struct fast_num num[FK_NKEYS];
	unsigned seen = 0;
	const char *c = line, *end = line + len;
	const struct fast_num *ts = &num[FK_TIMESTAMP];

	/* offsets into the line are 32-bit; SPAA_MAX_LINE may allow more */
	if (len > UINT32_MAX)
		return false;
	c = skip_ws(c, end);
	if (c == end || *c++ != '{')
		return false;
	for (;;) {
		int k;

		c = skip_ws(c, end);
		if (c == end || *c++ != '"')
			return false;
		k = fast_key(&c, end);
		if (k < 0 || (seen & 1u << k))
			return false;
		seen |= 1u << k;
		c = skip_ws(c, end);
		if (c == end || *c++ != ':')
			return false;
		c = skip_ws(c, end);
		if (c == end)
			return false;
		c = *c == '"' ? fast_string(c, end, &f[k]) : fast_number(c, end, &f[k], &num[k]);
		if (!c)
			return false;
		c = skip_ws(c, end);
		if (c == end)
			return false;
		if (*c == '}')
			break;
		if (*c++ != ',')
			return false;
	}
	if (skip_ws(c + 1, end) != end)
		return false;
	for (int k = 0; k < FK_NKEYS; k++)
		if (!(seen & 1u << k))
			f[k] = (struct spaa_json_value){ .str = NULL };

	/* every check of read_sample that needs only the line */
	if (f[FK_TYPE].type != SPAA_JSON_STRING || f[FK_TYPE].len != 6 ||
	    memcmp(f[FK_TYPE].str, "sample", 6) ||
	    f[FK_TIMESTAMP].type != SPAA_JSON_NUMBER || !f[FK_STACK_ID].str ||
	    (f[FK_EVENT].str && f[FK_EVENT].type != SPAA_JSON_STRING) ||
	    fast_id(&f[FK_PID], &num[FK_PID], &sc->pid) ||
	    fast_id(&f[FK_TID], &num[FK_TID], &sc->tid) ||
	    fast_id(&f[FK_CPU], &num[FK_CPU], &sc->cpu) ||
	    fast_period(&f[FK_PERIOD], &num[FK_PERIOD], &sc->period))
		return false;
	sc->has_period = f[FK_PERIOD].str != NULL;
	sc->has_event = f[FK_EVENT].str != NULL;
	sc->ts_off = (uint32_t)(f[FK_TIMESTAMP].str - line);
	sc->ts_len = (uint32_t)f[FK_TIMESTAMP].len;
	sc->id_off = (uint32_t)(f[FK_STACK_ID].str - line);
	sc->id_len = (uint32_t)f[FK_STACK_ID].len;
	sc->ev_off = sc->has_event ? (uint32_t)(f[FK_EVENT].str - line) : 0;
	sc->ev_len = sc->has_event ? (uint32_t)f[FK_EVENT].len : 0;
	sc->prov = SPAA_NONE;
	sc->ts_int = ts->ip;
	sc->ts_frac = ts->fp;
	sc->ts_nint = ts->nint;
	sc->ts_nfrac = ts->nfrac;
	sc->ts_neg = ts->neg;
	sc->ts_digits = !ts->exp && ts->nint <= 18 && ts->nfrac <= 18;
	return true;
}

/*
 * Adds a sample that sample_scan read from line.  Returns 1 when done, 0
 * when the general path must read the line (a timestamp out of range,
 * an unknown event: nothing was changed), -1 with err set when interning
 * or add_sample failed.
 */
static int commit_sample(struct reader *r, const char *line,
			 const struct sample_scan *sc, struct spaa_error *err)
{
	struct spaa_sample s = {
		.file = r->file, .line = r->line, .pid = sc->pid, .tid = sc->tid,
		.cpu = sc->cpu, .period = sc->period, .has_period = sc->has_period,
	};
	struct spaa_json_value ev = {
		.type = SPAA_JSON_STRING, .str = line + sc->ev_off, .len = sc->ev_len,
	};
	uint32_t id = SPAA_NONE;

	if (sample_time(sc, line, r->time_exp10, &s.time))
		return 0;
	s.event = find_event(r, sc->has_event ? &ev : NULL);
	if (s.event == SPAA_NONE)
		return 0;
	/*
	 * A numbered id is looked up in prov_stack from now on: the id
	 * cache is for those the scanner did not number.
	 */
	if (sc->prov < r->prov_stack_alloc && r->prov_stack[sc->prov] != SPAA_NONE)
		s.stack = r->prov_stack[sc->prov];
	else if (sc->prov != SPAA_NONE ?
		 intern(r, line + sc->id_off, sc->id_len, &id, err) :
		 intern_id(r, line + sc->id_off, sc->id_len, &id, err))
		return -1;
	if (add_sample(r, &s, id, err))
		return -1;
	if (id != SPAA_NONE && sc->prov != SPAA_NONE) {
		size_t old = r->prov_stack_alloc;

		SPAA_ALLOC_GROW(r->prov_stack, (size_t)sc->prov + 1, r->prov_stack_alloc);
		for (size_t i = old; i < r->prov_stack_alloc; i++)
			r->prov_stack[i] = SPAA_NONE;
		r->prov_stack[sc->prov] = s.stack;
	}
	return 1;
}

/*
 * The scanner (spaa_input_set_scanner) runs sample_scan on the decoding
 * thread, ahead of the reader, and numbers the stack id texts in order
 * of first sight: the reader then maps a number to its stack with one
 * array access (prov_stack), where looking the text up is a hash probe
 * and a cache miss per sample.  Its table is its own, and the threads
 * that scan take turns with it (input.c); they touch nothing of the
 * reader's.
 */
struct scanner {
	struct id_cache ids;    /* id text -> number + 1 */
	uint32_t nr, max;       /* max: the reader's bound on strings */
};

static int scanner_scan(void *ctx, const char *line, size_t len, void *rec)
{
	struct sample_scan *sc = rec;

	(void)ctx;
	if (!sample_scan(line, len, sc))
		return 0;
	sc->id_text = line + sc->id_off;
	return 1;
}

/* The number of the id of sc (slot e, hash h), a new one on first sight. */
static void scanner_number(struct scanner *t, struct sample_scan *sc,
			   struct id_slot *e, uint64_t h)
{
	uint32_t n = id_cache_lookup(&t->ids, e, h);

	if (!n) {
		/* a number per string the reader may intern, at most */
		if (t->nr >= t->max)
			return;
		e->str = n = ++t->nr;
		id_cache_add(&t->ids, h, e);
	}
	sc->prov = n - 1;
}

/*
 * Numbers the ids of a block's samples in order, each slot prefetched
 * SCAN_AHEAD samples before it is looked up (the table is larger than
 * the cache, and a lookup is little work beside its miss); the keys
 * wait in a ring meanwhile.
 */
#define SCAN_AHEAD 8

static void scanner_batch(void *ctx, void *first, size_t n, size_t stride)
{
	struct scanner *t = ctx;
	char *recs = first;
	struct { struct id_slot e; uint64_t h; } ring[SCAN_AHEAD];

	for (size_t i = 0; i < n + SCAN_AHEAD; i++) {
		struct sample_scan *sc;

		if (i >= SCAN_AHEAD) {
			sc = (struct sample_scan *)(void *)(recs + (i - SCAN_AHEAD) * stride);
			if (sc->id_len && sc->id_len <= ID_CACHE_TEXT)
				scanner_number(t, sc, &ring[i % SCAN_AHEAD].e,
					       ring[i % SCAN_AHEAD].h);
		}
		if (i >= n)
			continue;
		sc = (struct sample_scan *)(void *)(recs + i * stride);
		if (sc->id_len && sc->id_len <= ID_CACHE_TEXT) {
			uint64_t h = id_slot_of(sc->id_text, sc->id_len, &ring[i % SCAN_AHEAD].e);

			ring[i % SCAN_AHEAD].h = h;
			if (t->ids.slots)
				__builtin_prefetch(&t->ids.slots[h & t->ids.mask]);
		}
	}
}

static void scanner_free(void *ctx)
{
	struct scanner *t = ctx;

	if (t)
		free(t->ids.slots);
	free(t);
}

/*
 * Tells on_sample_soon of the stack of the scanned record SAMPLE_SOON_FAR
 * ahead, and again, near, of the one told SAMPLE_SOON_RING records ago.
 */
static void sample_soon(struct reader *r)
{
	const struct sample_scan *far = spaa_input_scanned_ahead(r->in, SAMPLE_SOON_FAR);
	uint32_t *near = &r->soon[r->soon_at++ % SAMPLE_SOON_RING];
	uint32_t stack = SPAA_NONE;

	if (far && far->prov < r->prov_stack_alloc)
		stack = r->prov_stack[far->prov];
	if (stack != SPAA_NONE)
		r->o->on_sample_soon(r->o->data, stack, false);
	if (*near != SPAA_NONE)
		r->o->on_sample_soon(r->o->data, *near, true);
	*near = stack;
}

/*
 * Returns 1 when the line was a sample record of the common shape and is
 * now read, 0 when the general path must read it (nothing was changed),
 * -1 with err set when add_sample failed.
 */
static int fast_sample(struct reader *r, const char *line, size_t len,
		       struct spaa_error *err)
{
	const struct sample_scan *pre = spaa_input_scanned(r->in);
	struct sample_scan sc;

	if (pre) {
		if (r->o->on_sample_soon)
			sample_soon(r);
		return commit_sample(r, line, pre, err);
	}
	if (!sample_scan(line, len, &sc))
		return 0;
	return commit_sample(r, line, &sc, err);
}

static int read_window(struct reader *r, const struct spaa_json_value *v,
		       struct spaa_error *err)
{
	struct spaa_profile *p = r->p;
	const struct spaa_json_value *idv, *start, *end, *unit, *by;
	struct spaa_window w = { .file = r->file };
	const char *rt = "window";
	int exp10 = r->time_exp10;

	idv = spaa_json_get(v, "id");
	if (idv && idv->type != SPAA_JSON_NULL && stack_id_text(r, idv, rt, "id", &w.id, err))
		return -1;
	if (field(r, v, rt, "start", SPAA_JSON_NUMBER, true, &start, err) < 0 ||
	    field(r, v, rt, "end", SPAA_JSON_NUMBER, true, &end, err) < 0 ||
	    field(r, v, rt, "unit", SPAA_JSON_STRING, false, &unit, err) < 0 ||
	    (unit && time_unit(r, unit, rt, &exp10, err)) ||
	    time_value(r, start, rt, "start", exp10, &w.start, err) ||
	    time_value(r, end, rt, "end", exp10, &w.end, err) ||
	    field(r, v, rt, "by_stack", SPAA_JSON_ARRAY, false, &by, err) < 0)
		return -1;
	if (w.end < w.start)
		return bad(r, err, "window ends before it starts");
	if (w.id) {
		bool created;

		spaa_map_intern(&r->window_ids, &w.id, &created);
		if (!created)
			warn(r, "window-id", "window id '%s' is used by an earlier window too",
			     spaa_profile_str(p, w.id));
	}
	w.entries = p->nwindow_entries;
	for (const struct spaa_json_value *e = by ? by->child : NULL; e; e = e->next) {
		const struct spaa_json_value *sid, *ws;
		struct spaa_window_entry we;
		uint32_t id = 0;
		int nw;

		if (e->type != SPAA_JSON_OBJECT)
			return bad(r, err, "'by_stack' entries must be objects, not %s",
				   spaa_json_type_name(e->type));
		sid = spaa_json_get(e, "stack_id");
		if (!sid || sid->type == SPAA_JSON_NULL)
			return bad(r, err, "'by_stack' entry of 'window' record has no 'stack_id'");
		if (stack_id_text(r, sid, rt, "stack_id", &id, err) ||
		    field(r, e, rt, "weights", SPAA_JSON_ARRAY, true, &ws, err) < 0 ||
		    (nw = read_weights(r, ws, rt, err)) < 0)
			return -1;
		we.stack = stack_ref(r, id, REF_NEEDED);
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

static int read_record(struct reader *r, const struct spaa_json_value *v,
		       struct spaa_error *err)
{
	const struct spaa_json_value *type;

	if (v->type != SPAA_JSON_OBJECT)
		return bad(r, err, "record is a JSON %s, not an object",
			   spaa_json_type_name(v->type));
	type = spaa_json_get(v, "type");
	if (!type)
		return bad(r, err, "record has no 'type'");
	if (type->type != SPAA_JSON_STRING)
		return bad(r, err, "'type' must be a string, not %s",
			   spaa_json_type_name(type->type));
	if (strlen(type->str) != type->len)
		return bad(r, err, "'type' contains a NUL character");
	if (!r->seen_header && strcmp(type->str, "header")) {
		/* validating: one finding, not one per record before a header */
		if (r->header_missing)
			return 0;
		r->header_missing = r->o->findings.fn != NULL;
		return bad(r, err, "the header is not the first record (found a '%s' record)",
			   type->str);
	}
	switch (type->str[0]) {
	case 'h':
		if (!strcmp(type->str, "header"))
			return read_header(r, v, err);
		break;
	case 'd':
		if (!strcmp(type->str, "dso"))
			return read_dso(r, v, err);
		break;
	case 'f':
		if (!strcmp(type->str, "frame"))
			return read_frame(r, v, err);
		break;
	case 't':
		if (!strcmp(type->str, "thread"))
			return read_thread(r, v, err);
		break;
	case 's':
		if (!strcmp(type->str, "stack"))
			return read_stack(r, v, err);
		if (!strcmp(type->str, "sample"))
			return read_sample(r, v, err);
		break;
	case 'w':
		if (!strcmp(type->str, "window"))
			return read_window(r, v, err);
		break;
	}
	warn(r, "type", "skipped a record of unknown type '%s'", type->str);
	r->p->files[r->file].ignored++;
	return 0;
}

/* ---- end of file -------------------------------------------------------- */

/*
 * Related stacks (spec 4.2): a user stack and the kernel stack captured
 * with it are one logical stack, kernel frames on top.  The user record
 * gets the joined frames; the kernel records of the same context are
 * absorbed so their weight, the same samples, is not counted twice.
 */
static void join_related(struct reader *r)
{
	struct spaa_profile *p = r->p;

	for (size_t i = 0; i < r->nrelated; i++) {
		struct related_ref *ref = &r->related[i];
		struct spaa_record *rec = &p->records[ref->record];
		const struct spaa_stack *own = &p->stacks[rec->stack];
		const struct spaa_stack *k = &p->stacks[ref->stack];
		uint32_t off, n;

		if (!k->defined) {
			warn(r, "related", "related stack '%s' is never defined",
			     spaa_profile_str(p, k->id));
			continue;
		}
		/* joined from the user side only; kernel->user links are the same pairs */
		if (own->type == SPAA_STACK_KERNEL || k->type != SPAA_STACK_KERNEL)
			continue;
		n = rec->nframes + k->nframes;
		SPAA_ALLOC_GROW(r->fbuf, n, r->fbuf_alloc);
		memcpy(r->fbuf, p->frame_pool + k->frames, k->nframes * sizeof(uint32_t));
		memcpy(r->fbuf + k->nframes, p->frame_pool + rec->frames,
		       rec->nframes * sizeof(uint32_t));
		off = spaa_profile_add_frames(p, r->fbuf, n);
		rec = &p->records[ref->record];
		rec->frames = off;
		rec->nframes = n;
		rec->excl_frame = SPAA_NONE;    /* the logical leaf is now the kernel's */
		for (uint32_t kr = k->first_record; kr != SPAA_NONE;
		     kr = p->records[kr].next_same_stack) {
			struct spaa_record *x = &p->records[kr];

			if (x->event == rec->event && x->pid == rec->pid &&
			    x->tid == rec->tid)
				x->absorbed = true;
		}
	}
}

/* Validating mode: hands the error of a skipped record to the sink. */
static void report_finding(struct reader *r, struct spaa_error *err)
{
	r->o->findings.fn(r->o->findings.data, err);
	r->nfindings++;
	spaa_error_init(err);
}

/*
 * After a record failed with err: true when reading may go on (validating
 * mode, and an error about the record itself, not the input or a caller).
 */
static bool skip_bad_record(struct reader *r, struct spaa_error *err)
{
	if (!r->o->findings.fn || r->callback_failed)
		return false;
	if (strcmp(err->code, SPAA_E_INVALID) && strcmp(err->code, SPAA_E_PARSE) &&
	    strcmp(err->code, SPAA_E_LIMIT))
		return false;
	report_finding(r, err);
	return true;
}

static int reader_finish(struct reader *r, struct spaa_error *err)
{
	struct spaa_profile *p = r->p;

	if (!r->seen_header) {
		spaa_error_at(err, SPAA_E_INVALID, r->path, 0, "%s",
			      r->header_missing || r->line ? "no SPAA header record in the file" :
			      "empty file: no SPAA header record");
		if (!r->o->findings.fn)
			return -1;
		report_finding(r, err);
	}
	for (uint32_t s = r->stack_base; s < p->nstacks; s++) {
		if (!(r->ref[s - r->stack_base] & REF_NEEDED) || p->stacks[s].defined)
			continue;
		spaa_error_at(err, SPAA_E_INVALID, r->path, p->stacks[s].line,
			      "stack '%s' is referenced but never defined",
			      spaa_profile_str(p, p->stacks[s].id));
		if (!r->o->findings.fn)
			return -1;
		report_finding(r, err);
	}
	join_related(r);
	/* thread records may name a comm only after a stack used the thread */
	for (uint32_t i = r->record_base; i < p->nrecords; i++) {
		struct spaa_record *rec = &p->records[i];
		uint32_t t;

		if (rec->comm || rec->pid == SPAA_NO_ID || rec->tid == SPAA_NO_ID)
			continue;
		t = spaa_profile_find_thread(p, rec->pid, rec->tid);
		if (t != SPAA_NONE)
			rec->comm = p->threads[t].comm;
	}
	return 0;
}

static void reader_release(struct reader *r)
{
	spaa_json_parser_free(r->jp);
	free(r->events);
	spaa_map_release(&r->dso_ids);
	free(r->dso_of);
	spaa_map_release(&r->frame_ids);
	free(r->frame_of);
	free(r->frame_direct);
	free(r->stack_of);
	free(r->ids.slots);
	free(r->period_total);
	free(r->ref);
	spaa_map_release(&r->tids);
	free(r->thread_of);
	spaa_map_release(&r->window_ids);
	free(r->related);
	free(r->fbuf);
	free(r->wbuf);
	free(r->prov_stack);
}

int spaa_reader_read(struct spaa_profile *p, struct spaa_input *in,
		     const struct spaa_load_opts *opts, uint64_t bytes_base,
		     uint64_t bytes_total, struct spaa_error *err)
{
	struct reader r = {
		.p = p, .o = opts, .in = in, .path = spaa_input_name(in),
		.bytes_base = bytes_base, .bytes_total = bytes_total,
		.time_exp10 = 9,
	};
	struct spaa_json_error je;
	char *line;
	size_t len;
	int ret = -1, got;

	spaa_map_init(&r.dso_ids, sizeof(uint64_t));
	spaa_map_init(&r.frame_ids, sizeof(uint64_t));
	spaa_map_init(&r.tids, sizeof(int64_t));
	tid_cache_clear(&r);
	for (size_t i = 0; i < SAMPLE_SOON_RING; i++)
		r.soon[i] = SPAA_NONE;
	spaa_map_init(&r.window_ids, sizeof(uint32_t));
	r.jp = spaa_json_parser_new();
	r.stack_base = p->nstacks;
	r.record_base = p->nrecords;
	r.period_metric = spaa_strtab_intern(&p->strings, " sample periods", 15);
	r.file = p->nfiles++;
	SPAA_ALLOC_GROW(p->files, p->nfiles, p->files_alloc);
	memset(&p->files[r.file], 0, sizeof(p->files[r.file]));
	p->files[r.file].path = spaa_strtab_intern(&p->strings, r.path, strlen(r.path));

	if (!opts->no_fast_path && !opts->no_scanner) {
		struct scanner *t = spaa_xcalloc(1, sizeof(*t));

		t->max = max_strings(opts);
		spaa_input_set_scanner(in, &(struct spaa_input_scanner){
			.scan = scanner_scan, .batch = scanner_batch, .ctx = t,
			.free_ctx = scanner_free, .rec_size = sizeof(struct sample_scan),
		});
	}
	if (opts->on_progress)
		opts->on_progress(opts->progress_data, bytes_base, bytes_total);
	while ((got = spaa_input_getline(in, &line, &len, err)) > 0) {
		const struct spaa_json_value *v;

		r.line = spaa_input_lineno(in);
		if ((r.line & 4095) == 0 && opts->on_progress)
			opts->on_progress(opts->progress_data, bytes_base + spaa_input_bytes_read(in),
					  bytes_total);
		if (opts->on_line && opts->on_line(opts->data, line, len, err))
			goto out;
		/* a record starts with '{': only look further when not */
		if (line[0] != '{' && strspn(line, " \t\r") == len) {
			if (!r.seen_header && !r.header_missing) {
				bad(&r, err, "the header is not the first record (the line is blank)");
				r.header_missing = opts->findings.fn != NULL;
				if (skip_bad_record(&r, err))
					continue;
				goto out;
			}
			warn(&r, "blank", "skipped a blank line");
			continue;
		}
		if (r.seen_header && !opts->no_fast_path) {
			int fast = fast_sample(&r, line, len, err);

			if (fast > 0)
				continue;
			if (fast < 0) {
				if (skip_bad_record(&r, err))
					continue;
				goto out;
			}
		}
		v = spaa_json_parse(r.jp, line, len, &je);
		if (!v) {
			spaa_error_at(err, SPAA_E_PARSE, r.path, r.line,
				      "invalid JSON at byte %zu: %s", je.offset + 1, je.msg);
			if (skip_bad_record(&r, err))
				continue;
			goto out;
		}
		if (read_record(&r, v, err)) {
			if (skip_bad_record(&r, err))
				continue;
			goto out;
		}
	}
	if (got < 0)
		goto out;
	if (reader_finish(&r, err))
		goto out;
	if (r.nfindings) {
		spaa_error_at(err, SPAA_E_INVALID, r.path, 0,
			      "%lu invalid record%s", r.nfindings,
			      r.nfindings == 1 ? "" : "s");
		goto out;
	}
	if (opts->on_progress)
		opts->on_progress(opts->progress_data, bytes_base + spaa_input_bytes_read(in),
				  bytes_total);
	ret = 0;
out:
	flush_warnings(&r);
	reader_release(&r);
	return ret;
}
