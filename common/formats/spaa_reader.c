#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/idcache.h"
#include "formats/spaa_reader.h"
#include "formats/spaa_reader_impl.h"
#include "formats/spaa_sample_scan.h"
#include "io/json.h"
#include "model/util.h"
#include "model/warn.h"

void spaa_reader_warn(struct spaa_reader *r, const char *key, const char *fmt, ...)
{
	struct spaa_reader_warn_kind *w = NULL;
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
		if (r->nwarns == SPAA_READER_WARN_KINDS)
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

/* The kind of warning of a blank line (kinds are told by pointer). */
static const char blank_kind[] = "blank";

/* n more warnings of a kind counted already (none when it was not kept). */
static void warn_more(struct spaa_reader *r, const char *key, unsigned long n)
{
	for (int i = 0; i < r->nwarns; i++)
		if (r->warns[i].key == key)
			r->warns[i].count += n;
}

static void flush_warnings(struct spaa_reader *r)
{
	for (int i = 0; i < r->nwarns; i++) {
		struct spaa_reader_warn_kind *w = &r->warns[i];

		if (w->count > 1)
			spaa_warn(&r->o->warn, r->path, w->line,
				  "%s (and %lu more like it)", w->msg,
				  w->count - 1);
		else
			spaa_warn(&r->o->warn, r->path, w->line, "%s", w->msg);
	}
	r->nwarns = 0;
}

int spaa_reader_bad(struct spaa_reader *r, struct spaa_error *err, const char *fmt, ...)
{
	char msg[sizeof(err->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return spaa_error_at(err, SPAA_E_INVALID, r->path, r->line, "%s", msg);
}

uint32_t spaa_reader_max_events(const struct spaa_load_opts *o)
{
	return o->max_events ? o->max_events : SPAA_LOAD_MAX_EVENTS_DEFAULT;
}

static uint32_t max_strings(const struct spaa_load_opts *o)
{
	return o->max_strings ? o->max_strings : SPAA_LOAD_MAX_STRINGS_DEFAULT;
}

/* Interns a string of the file, within the bound on distinct strings. */
int spaa_reader_intern(struct spaa_reader *r, const char *str, size_t len, uint32_t *out,
		  struct spaa_error *err)
{
	uint32_t max = max_strings(r->o);
	unsigned slot = 0;

	/*
	 * A string found in names was interned before: interning it again
	 * changes nothing, not even the limit's error (a validating load
	 * reads on past it, and says it again at each intern).
	 */
	if (len && len <= SPAA_READER_NAME_TEXT) {
		slot = (unsigned)(len * 7 + (unsigned char)str[0] * 3 +
				  (unsigned char)str[len - 1]) % SPAA_READER_NAME_CACHE;
		if (r->names[slot].len == len && !memcmp(r->names[slot].text, str, len) &&
		    r->p->strings.nr <= max) {
			*out = r->names[slot].id;
			return 0;
		}
	}
	*out = spaa_strtab_intern(&r->p->strings, str, len);
	if (r->p->strings.nr > max)
		return spaa_error_at(err, SPAA_E_LIMIT, r->path, r->line,
				     "more than %u distinct strings (names, ids): the limit (SPAA_MAX_STRINGS)",
				     max);
	if (len && len <= SPAA_READER_NAME_TEXT) {
		r->names[slot].id = *out;
		r->names[slot].len = (uint8_t)len;
		memcpy(r->names[slot].text, str, len);
	}
	return 0;
}

/*
 * The string index of id text s, as intern gives it, through the id
 * cache: for the sample fast path when the scanner has not numbered the
 * id (see scanner).  Records of the general path intern their ids
 * directly, so the cache holds only what samples need.
 */
static int intern_id(struct spaa_reader *r, const char *s, size_t len, uint32_t *out,
		     struct spaa_error *err)
{
	struct spaa_idcache_key k;
	uint64_t h;

	if (!len || len > SPAA_IDCACHE_TEXT)
		return spaa_reader_intern(r, s, len, out, err);
	k = spaa_idcache_key(s, len);
	h = spaa_idcache_hash(&k);
	if ((*out = spaa_idcache_lookup(&r->ids, &k, h)))
		return 0;
	if (spaa_reader_intern(r, s, len, out, err))
		return -1;
	spaa_idcache_add(&r->ids, h, &k, *out);
	return 0;
}

/* ---- per-file id maps ---------------------------------------------------- */

uint32_t spaa_reader_lookup(const struct spaa_map *m, const uint32_t *values,
		       const void *key)
{
	uint32_t i = spaa_map_find(m, key);

	return i == SPAA_NONE ? SPAA_NONE : values[i];
}

/* Returns false if key was already bound. */
bool spaa_reader_bind(struct spaa_map *m, uint32_t **values, size_t *alloc,
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

bool spaa_reader_bind_frame(struct spaa_reader *r, uint64_t id, uint32_t frame)
{
	if (!spaa_reader_bind(&r->frame_ids, &r->frame_of, &r->frame_of_alloc, &id, frame))
		return false;
	if (id < SPAA_READER_FRAME_DIRECT) {
		size_t old = r->frame_direct_alloc;

		SPAA_ALLOC_GROW(r->frame_direct, (size_t)id + 1, r->frame_direct_alloc);
		for (size_t i = old; i < r->frame_direct_alloc; i++)
			r->frame_direct[i] = SPAA_NONE;
		r->frame_direct[id] = frame;
	}
	return true;
}

/* The frame bound to id in this file, or SPAA_NONE. */
uint32_t spaa_reader_frame_lookup(const struct spaa_reader *r, uint64_t id)
{
	if (id < SPAA_READER_FRAME_DIRECT)
		return id < r->frame_direct_alloc ? r->frame_direct[id] : SPAA_NONE;
	return spaa_reader_lookup(&r->frame_ids, r->frame_of, &id);
}

void spaa_reader_tid_cache_clear(struct spaa_reader *r)
{
	for (size_t i = 0; i < SPAA_READER_TID_CACHE; i++)
		r->tid_cache[i].tid = SPAA_NO_ID;
}

/* The thread bound to tid in this file, or SPAA_NONE. */
static uint32_t tid_lookup(struct spaa_reader *r, int64_t tid)
{
	size_t i = (uint64_t)tid % SPAA_READER_TID_CACHE;

	if (r->tid_cache[i].tid != tid) {
		r->tid_cache[i].tid = tid;
		r->tid_cache[i].thread = spaa_reader_lookup(&r->tids, r->thread_of, &tid);
	}
	return r->tid_cache[i].thread;
}

uint32_t *spaa_reader_stack_slot(struct spaa_reader *r, uint32_t id)
{
	if (id >= r->stack_of_alloc) {
		size_t old = r->stack_of_alloc;

		SPAA_ALLOC_GROW(r->stack_of, (size_t)id + 1, r->stack_of_alloc);
		for (size_t i = old; i < r->stack_of_alloc; i++)
			r->stack_of[i] = SPAA_NONE;
	}
	return &r->stack_of[id];
}

uint32_t spaa_reader_stack_ref(struct spaa_reader *r, uint32_t id, uint8_t how)
{
	struct spaa_profile *p = r->p;
	uint32_t s = *spaa_reader_stack_slot(r, id);

	if (s != SPAA_NONE && s < r->stack_base)
		return s;       /* an earlier file's stack: defined, nothing to note */
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
	if (how == SPAA_READER_REF_NEEDED && !(r->ref[s - r->stack_base] & SPAA_READER_REF_NEEDED) &&
	    !p->stacks[s].defined)
		p->stacks[s].line = r->line;    /* report the first hard reference */
	r->ref[s - r->stack_base] |= how;
	return s;
}

/* The event a record names, or the only one when it names none. */
static uint32_t find_event(const struct spaa_reader *r, const struct spaa_json_value *name)
{
	uint32_t ev;

	if (!name)
		return r->nevents == 1 ? r->events[0] : SPAA_NONE;
	/*
	 * Every sample names its event: among a few, comparing the names
	 * costs less than the three hash lookups below (a third of the
	 * reader's time per sample once).
	 */
	if (r->nevents <= SPAA_READER_EVENTS_SCAN) {
		for (uint32_t i = 0; i < r->nevents; i++) {
			ev = r->p->events[r->events[i]].name;
			if (spaa_strtab_len(&r->p->strings, ev) == name->len &&
			    !memcmp(spaa_profile_str(r->p, ev), name->str, name->len))
				return r->events[i];
		}
		return SPAA_NONE;
	}
	ev = spaa_profile_find_event_str(r->p, spaa_strtab_find(&r->p->strings, name->str,
								 name->len));
	return ev != SPAA_NONE && spaa_map_find(&r->file_events, &ev) != SPAA_NONE ?
	       ev : SPAA_NONE;
}

int spaa_reader_record_event(struct spaa_reader *r, const struct spaa_json_value *name,
			const char *rtype, uint32_t *out, struct spaa_error *err)
{
	*out = find_event(r, name);
	if (*out != SPAA_NONE)
		return 0;
	if (!name)
		return spaa_reader_bad(r, err, "'%s' record names no event and the header declares %u",
			   rtype, r->nevents);
	return spaa_reader_bad(r, err, "'%s' record names event '%.*s', which the header does not declare",
		   rtype, (int)name->len, name->str);
}

/* Fills in the pid of a thread known only by tid (spec 3.4). */
void spaa_reader_thread_pid(struct spaa_reader *r, int64_t tid, int64_t *pid, uint32_t *comm)
{
	uint32_t t;

	if (tid == SPAA_NO_ID)
		return;
	t = tid_lookup(r, tid);
	if (t == SPAA_NONE)
		return;
	if (*pid == SPAA_NO_ID)
		*pid = r->p->threads[t].pid;
	if (comm && !*comm) {
		*comm = r->p->threads[t].comm;
		if (!*comm && r->o->stats)
			r->o->stats->unnamed_threads++;
	}
}

/* spaa_profile_add_total of a sample period, its total found once per event. */
static int period_total(struct spaa_reader *r, uint32_t event, uint64_t period)
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
static int add_sample(struct spaa_reader *r, struct spaa_sample *s, uint32_t id,
		      struct spaa_error *err)
{
	struct spaa_profile *p = r->p;

	if (s->has_period && period_total(r, s->event, s->period))
		return spaa_error_at(err, SPAA_E_LIMIT, r->path, r->line,
				     "the total of sample periods of event '%s' overflows 64 bits",
				     spaa_profile_str(p, p->events[s->event].name));
	spaa_reader_thread_pid(r, s->tid, &s->pid, NULL);
	if (id != SPAA_NONE)
		s->stack = spaa_reader_stack_ref(r, id, SPAA_READER_REF_NEEDED);

	p->nsamples++;
	p->events[s->event].nsamples++;
	p->files[r->file].nsamples++;
	spaa_profile_cover_time(p, s->time, s->time);
	if (spaa_load_sample(r->o, p, s, err)) {
		r->callback_failed = true;
		return -1;
	}
	return 0;
}

static int read_sample(struct spaa_reader *r, const struct spaa_json_value *v,
		       struct spaa_error *err)
{
	const struct spaa_json_value *ts, *sid, *ev, *per;
	struct spaa_sample s = { .file = r->file, .line = r->line };
	const char *rt = "sample";
	uint32_t id = 0;
	int ret;

	if (spaa_reader_field(r, v, rt, "timestamp", SPAA_JSON_NUMBER, true, &ts, err) < 0 ||
	    spaa_reader_time_value(r, ts, rt, "timestamp", r->time_exp10, &s.time, err))
		return -1;
	sid = spaa_json_get(v, "stack_id");
	if (!sid || sid->type == SPAA_JSON_NULL)
		return spaa_reader_bad(r, err, "'sample' record has no 'stack_id'");
	if (spaa_reader_stack_id_text(r, sid, rt, "stack_id", &id, err) ||
	    spaa_reader_field(r, v, rt, "event", SPAA_JSON_STRING, false, &ev, err) < 0 ||
	    spaa_reader_record_event(r, ev, rt, &s.event, err) ||
	    spaa_reader_opt_i64(r, v, rt, "pid", &s.pid, err) ||
	    spaa_reader_opt_i64(r, v, rt, "tid", &s.tid, err) ||
	    spaa_reader_opt_i64(r, v, rt, "cpu", &s.cpu, err))
		return -1;
	if ((ret = spaa_reader_field(r, v, rt, "period", SPAA_JSON_NUMBER, false, &per, err)) < 0 ||
	    (ret && spaa_reader_u64_value(r, per, rt, "period", &s.period, err)))
		return -1;
	s.has_period = ret;
	/*
	 * Extension (spec 4.3 asks custom keys to carry an x_ prefix): the
	 * metric the period measures, e.g. "wt" for converted SPX slices, so
	 * --begin/--end weigh such samples by their own time.
	 */
	if (spaa_reader_str_field(r, v, rt, "x_period_metric", false, &s.period_metric, err))
		return -1;
	if (r->o->stats)
		r->o->stats->general++;
	return add_sample(r, &s, id, err);
}

/* ---- the fast path for sample records ------------------------------------ */

/*
 * Most of a large profile is sample records of one shape: a flat object
 * of a few keys, plain ASCII strings, numbers.  spaa_sample_scan.h reads
 * exactly those straight from the line, without building a JSON tree,
 * and hands anything else back to the general path (read_sample), which
 * then parses the line from scratch.  So the fast path never reports an
 * error of its own: it commits only records the general path accepts,
 * through the same add_sample, and errors keep their code, file, line and
 * message.  The scan, which needs only the line, is mostly done ahead, a
 * block of lines at a time, by the input's scanner (see scanner);
 * commit_sample does the rest in line order.
 * tests/unit/check_spaa_sample_scan.c proves all paths build the same
 * model.
 */

/*
 * Adds a sample that sample_scan read from line.  Returns 1 when done, 0
 * when the general path must read the line (a timestamp out of range,
 * an unknown event: nothing was changed), -1 with err set when interning
 * or add_sample failed.
 */
static int commit_sample(struct spaa_reader *r, const char *line,
			 const struct spaa_sample_scan *sc, struct spaa_error *err)
{
	struct spaa_sample s = {
		.file = r->file, .line = r->line, .pid = sc->pid, .tid = sc->tid,
		.cpu = sc->cpu, .period = sc->period, .has_period = sc->has_period,
	};
	struct spaa_json_value ev = {
		.type = SPAA_JSON_STRING, .str = line + sc->ev_off, .len = sc->ev_len,
	};
	uint32_t id = SPAA_NONE;

	if (spaa_sample_scan_time(sc, line, r->time_exp10, &s.time))
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
		 spaa_reader_intern(r, line + sc->id_off, sc->id_len, &id, err) :
		 intern_id(r, line + sc->id_off, sc->id_len, &id, err))
		return -1;
	if (add_sample(r, &s, id, err))
		return -1;
	if (id != SPAA_NONE)
		spaa_reader_prov_bind(r, sc->prov, s.stack);
	return 1;
}

void spaa_reader_prov_bind(struct spaa_reader *r, uint32_t prov, uint32_t stack)
{
	size_t old = r->prov_stack_alloc;

	if (prov == SPAA_NONE)
		return;
	SPAA_ALLOC_GROW(r->prov_stack, (size_t)prov + 1, r->prov_stack_alloc);
	for (size_t i = old; i < r->prov_stack_alloc; i++)
		r->prov_stack[i] = SPAA_NONE;
	r->prov_stack[prov] = stack;
}

/*
 * The scanner (spaa_input_set_scanner) runs sample_scan on the decoding
 * thread (and on the scanning threads of --threads beyond two), or on
 * the reader's a block at a time (one thread), ahead of the reader's
 * lines, and numbers the stack id texts in order
 * of first sight: the reader then maps a number to its stack with one
 * array access (prov_stack), where looking the text up is a hash probe
 * and a cache miss per sample.  Its table is its own, and the threads
 * that scan take turns with it (input.c); they touch nothing of the
 * reader's.
 *
 * The other records a thread other than the reader's reads ahead too,
 * into the arena of a parser of the block's own, until the reader comes
 * to them: stack records of the common shape with stack_scan, the rest
 * (frames, unusual stacks, ...) parsed into JSON trees.  A block the
 * reader scans itself gets neither: it scans or parses those lines as it
 * reads them, for less than what a block ahead would cost it.  The
 * reader then reads the record from the scan or the tree, in line order,
 * as if it had read the line itself (a line that does not parse is left
 * to the reader, whose error names it).  So what the model gets, and in
 * which order, does not depend on which thread read what.
 */
struct scanner {
	struct spaa_idcache ids;    /* id text -> number + 1 */
	uint32_t nr, max;       /* max: the reader's bound on strings */
	bool trees;             /* parse the other records ahead too */
	struct spaa_json_pool *pool;    /* weak, may be NULL: where blocks' parsers come from */
};

/* What the scanner makes of a line: a sample record, or a tree (below). */
struct scanned {
	struct spaa_sample_scan sample;
	/*
	 * Not NULL: the line's JSON (weak: in the block's parser); sample
	 * then has only the id of a stack record (stack_id_of), or none.
	 */
	const struct spaa_json_value *tree;
	/*
	 * Not NULL: the line's stack record of the common shape (weak: in
	 * the block's parser); sample then has its id.
	 */
	const struct spaa_stack_scan *stack;
	/*
	 * With a tree: its first repeated key (spaa_json_repeated_key), or
	 * NULL; found on the scanning thread, which has the tree in its
	 * cache, so that the reader does not walk it for that.
	 */
	const struct spaa_json_value *dup;
	/*
	 * No sample of the common shape, no stack scan and no tree: the
	 * reader reads the line itself, without trying the sample scan
	 * again.
	 */
	bool declined;
};

/*
 * Bytes of trees one block's parser holds at most (a tree takes about
 * ten times its line): past it, the reader parses the block's other
 * lines itself, so the trees take at most 1 MiB a block (4 MiB with two
 * threads).
 */
#define SCAN_TREE_BUDGET ((size_t)1 << 20)      /* stack scans count in it */

/*
 * The id of the stack record v, or nothing (id_len 0), for the batch to
 * number with the samples: the reader binds the number to the stack it
 * reads (spaa_reader_prov_bind), and a sample naming that stack finds it
 * by its number at once.  Its first sample would otherwise look its id
 * text up in the string table, several cache misses for each stack.
 * Only the reader decides what v is: a number it does not bind is never
 * used.
 */
static void stack_id_of(const struct spaa_json_value *v, struct spaa_sample_scan *sc)
{
	const struct spaa_json_value *type = spaa_json_get(v, "type");
	const struct spaa_json_value *id = spaa_json_get(v, "id");

	sc->prov = SPAA_NONE;
	sc->id_len = 0;
	if (type && type->type == SPAA_JSON_STRING && type->len == 5 &&
	    !memcmp(type->str, "stack", 5) && id &&
	    (id->type == SPAA_JSON_STRING || id->type == SPAA_JSON_NUMBER)) {
		sc->id_text = id->str;
		sc->id_len = (uint32_t)(id->len <= UINT32_MAX ? id->len : 0);
	}
}

/*
 * The id of a stack record that gets no tree (the reader scans its
 * block itself, or the block's trees are full), where the line starts
 * as writers start one: {"type":"stack","id":"..." with a plain string.
 * Numbered like stack_id_of's, so that the reader's first sample of each
 * stack is spared the string table there too; any other line gets none.
 */
static void stack_id_of_line(const char *line, size_t len, struct spaa_sample_scan *sc)
{
	static const char head[] = "{\"type\":\"stack\",\"id\":\"";
	const char *s = line + sizeof(head) - 1, *end = line + len, *q = s;

	sc->prov = SPAA_NONE;
	sc->id_len = 0;
	if (len < sizeof(head) || memcmp(line, head, sizeof(head) - 1))
		return;
	while (q < end && *q != '"' && *q != '\\' && (unsigned char)*q >= 0x20)
		q++;
	if (q < end && *q == '"') {
		sc->id_text = s;
		sc->id_len = (uint32_t)(q - s);
	}
}

static int scanner_scan(void *ctx, void *block, const char *line, size_t len, void *rec)
{
	struct scanned *sc = rec;
	struct spaa_stack_scan st;
	uint64_t frames[SPAA_STACK_SCAN_FRAMES];
	struct spaa_json_error je;

	(void)ctx;

	sc->tree = NULL;
	sc->stack = NULL;
	sc->declined = false;
	if (spaa_sample_scan_line(line, len, &sc->sample)) {
		sc->sample.id_text = line + sc->sample.id_off;
		return 1;
	}
	/* a block the reader scans itself has none: it scans stacks as it reads them */
	st.frames = frames;
	if (block && spaa_json_parser_used(block) <= SCAN_TREE_BUDGET &&
	    spaa_stack_scan_line(line, len, &st)) {
		struct spaa_stack_scan *keep =
			spaa_json_parser_alloc(block, sizeof(st) + st.nframes * sizeof(*frames));

		*keep = st;
		keep->frames = (uint64_t *)(keep + 1);
		memcpy(keep->frames, frames, st.nframes * sizeof(*frames));
		sc->stack = keep;
		sc->sample.prov = SPAA_NONE;    /* numbered by the batch, if at all */
		sc->sample.id_text = line + st.id.off;
		sc->sample.id_len = st.id.len;
		return 1;
	}
	if (block && len && line[0] == '{' &&
	    spaa_json_parser_used(block) <= SCAN_TREE_BUDGET)
		sc->tree = spaa_json_parse_more(block, line, len, &je);
	if (sc->tree) {
		sc->dup = spaa_json_repeated_key(sc->tree);
		stack_id_of(sc->tree, &sc->sample);
	} else {
		sc->declined = true;
		stack_id_of_line(line, len, &sc->sample);
	}
	return 1;
}

static void *scanner_block_new(void *ctx)
{
	const struct scanner *t = ctx;

	return t->pool ? spaa_json_pool_take(t->pool) : spaa_json_parser_new();
}

static void scanner_block_reset(void *ctx, void *block)
{
	(void)ctx;
	spaa_json_parser_rewind(block);
}

static void scanner_block_free(void *ctx, void *block)
{
	const struct scanner *t = ctx;

	if (t->pool)
		spaa_json_pool_give(t->pool, block);
	else
		spaa_json_parser_free(block);
}

/* The number of the id of sc (key k, hash h), a new one on first sight. */
static void scanner_number(struct scanner *t, struct spaa_sample_scan *sc,
			   const struct spaa_idcache_key *k, uint64_t h)
{
	uint32_t n = spaa_idcache_lookup(&t->ids, k, h);

	if (!n) {
		/* a number per string the reader may intern, at most */
		if (t->nr >= t->max)
			return;
		n = ++t->nr;
		spaa_idcache_add(&t->ids, h, k, n);
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
	struct { struct spaa_idcache_key k; uint64_t h; } ring[SCAN_AHEAD];

	for (size_t i = 0; i < n + SCAN_AHEAD; i++) {
		struct spaa_sample_scan *sc;

		if (i >= SCAN_AHEAD) {
			sc = &((struct scanned *)(void *)(recs + (i - SCAN_AHEAD) * stride))->sample;
			if (sc->id_len && sc->id_len <= SPAA_IDCACHE_TEXT)
				scanner_number(t, sc, &ring[i % SCAN_AHEAD].k,
					       ring[i % SCAN_AHEAD].h);
		}
		if (i >= n)
			continue;
		sc = &((struct scanned *)(void *)(recs + i * stride))->sample;
		if (sc->id_len && sc->id_len <= SPAA_IDCACHE_TEXT) {
			uint64_t h;

			ring[i % SCAN_AHEAD].k = spaa_idcache_key(sc->id_text, sc->id_len);
			h = ring[i % SCAN_AHEAD].h = spaa_idcache_hash(&ring[i % SCAN_AHEAD].k);
			if (t->ids.slots)
				__builtin_prefetch(&t->ids.slots[h & t->ids.mask]);
		}
	}
}

static void scanner_free(void *ctx)
{
	struct scanner *t = ctx;

	if (t)
		spaa_idcache_release(&t->ids);
	free(t);
}

/* Sets the scanner on in, unless opts turn it off. */
static void set_scanner(struct spaa_input *in, const struct spaa_load_opts *opts)
{
	struct scanner *t;

	if (opts->no_fast_path || opts->no_scanner)
		return;
	t = spaa_xcalloc(1, sizeof(*t));
	t->max = max_strings(opts);
	/* on_line may change the line: the tree must be of what it leaves */
	t->trees = !opts->on_line;
	t->pool = opts->tree_pool;
	spaa_input_set_scanner(in, &(struct spaa_input_scanner){
		.scan = scanner_scan, .batch = scanner_batch,
		.block_new = t->trees ? scanner_block_new : NULL,
		.block_reset = scanner_block_reset, .block_free = scanner_block_free,
		.ctx = t, .free_ctx = scanner_free, .rec_size = sizeof(struct scanned),
	});
}

/*
 * Tells on_sample_soon of the stack of the scanned record SPAA_READER_SOON_FAR
 * ahead, and again, near, of the one told SPAA_READER_SOON_RING records ago;
 * fetches the prov_stack slot of the one twice as far (a miss per sample
 * otherwise: the blocks streaming through the cache evict it).
 */
static void sample_soon(struct spaa_reader *r)
{
	const struct scanned *ahead = spaa_input_scanned_ahead(r->in, SPAA_READER_SOON_FAR);
	const struct scanned *further = spaa_input_scanned_ahead(r->in, 2 * SPAA_READER_SOON_FAR);
	const struct spaa_sample_scan *far = ahead ? &ahead->sample : NULL;
	uint32_t *near = &r->soon[r->soon_at++ % SPAA_READER_SOON_RING];
	uint32_t stack = SPAA_NONE;

	/* the stack of that one is looked up here: its slot fetched first */
	if (further && further->sample.prov < r->prov_stack_alloc)
		__builtin_prefetch(&r->prov_stack[further->sample.prov]);
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
 * -1 with err set when add_sample failed.  pre: the scanner's record of
 * the line, or NULL.
 */
static int fast_sample(struct spaa_reader *r, const char *line, size_t len,
		       const struct spaa_sample_scan *pre, struct spaa_error *err)
{
	struct spaa_sample_scan sc;
	int ret;

	if (pre) {
		if (r->o->on_sample_soon)
			sample_soon(r);
		ret = commit_sample(r, line, pre, err);
		if (ret > 0 && r->o->stats)
			r->o->stats->scanned++;
		return ret;
	}
	if (!spaa_sample_scan_line(line, len, &sc))
		return 0;
	ret = commit_sample(r, line, &sc, err);
	if (ret > 0 && r->o->stats)
		r->o->stats->fast++;
	return ret;
}

/*
 * The stack records' fast path (spaa_stack_scan.h): 1 when line was a
 * stack record of the common shape and is now read, 0 when the general
 * path must read it (nothing was changed), -1 with err set as the
 * general path would have set it.  st: the scanner's scan of the line,
 * or NULL.
 */
static int fast_stack(struct spaa_reader *r, const char *line, size_t len,
		      const struct spaa_stack_scan *st, struct spaa_error *err)
{
	if (st) {
		if (r->o->stats)
			r->o->stats->stacks_scanned++;
	} else {
		r->stack_scan.frames = r->stack_frames;
		if (!spaa_stack_scan_line(line, len, &r->stack_scan))
			return 0;
		st = &r->stack_scan;
		if (r->o->stats)
			r->o->stats->stacks_fast++;
	}
	return spaa_reader_commit_stack(r, line, st, err) ? -1 : 1;
}

static int read_record(struct spaa_reader *r, const struct spaa_json_value *v,
		       struct spaa_error *err)
{
	const struct spaa_json_value *type;

	if (v->type != SPAA_JSON_OBJECT)
		return spaa_reader_bad(r, err, "record is a JSON %s, not an object",
			   spaa_json_type_name(v->type));
	type = spaa_json_get(v, "type");
	if (!type)
		return spaa_reader_bad(r, err, "record has no 'type'");
	if (type->type != SPAA_JSON_STRING)
		return spaa_reader_bad(r, err, "'type' must be a string, not %s",
			   spaa_json_type_name(type->type));
	if (strlen(type->str) != type->len)
		return spaa_reader_bad(r, err, "'type' contains a NUL character");
	if (!r->seen_header && strcmp(type->str, "header")) {
		/* validating: one finding, not one per record before a header */
		if (r->header_missing)
			return 0;
		r->header_missing = r->o->findings.fn != NULL;
		return spaa_reader_bad(r, err, "the header is not the first record (found a '%s' record)",
			   type->str);
	}
	switch (type->str[0]) {
	case 'h':
		if (!strcmp(type->str, "header"))
			return spaa_reader_read_header(r, v, err);
		break;
	case 'd':
		if (!strcmp(type->str, "dso"))
			return spaa_reader_read_dso(r, v, err);
		break;
	case 'f':
		if (!strcmp(type->str, "frame"))
			return spaa_reader_read_frame(r, v, err);
		break;
	case 't':
		if (!strcmp(type->str, "thread"))
			return spaa_reader_read_thread(r, v, err);
		break;
	case 's':
		if (!strcmp(type->str, "stack"))
			return spaa_reader_read_stack(r, v, err);
		if (!strcmp(type->str, "sample"))
			return read_sample(r, v, err);
		break;
	case 'w':
		if (!strcmp(type->str, "window"))
			return spaa_reader_read_window(r, v, err);
		break;
	}
	spaa_reader_warn(r, "type", "skipped a record of unknown type '%s'", type->str);
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
static void join_related(struct spaa_reader *r)
{
	struct spaa_profile *p = r->p;

	for (size_t i = 0; i < r->nrelated; i++) {
		struct spaa_reader_related *ref = &r->related[i];
		struct spaa_record *rec = &p->records[ref->record];
		const struct spaa_stack *own = &p->stacks[rec->stack];
		const struct spaa_stack *k = &p->stacks[ref->stack];
		uint32_t off, n;

		if (!k->defined) {
			spaa_reader_warn(r, "related", "related stack '%s' is never defined",
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
		/* newest first: stop at the records of earlier files */
		for (uint32_t kr = k->first_record; kr != SPAA_NONE && kr >= r->record_base;
		     kr = p->records[kr].next_same_stack) {
			struct spaa_record *x = &p->records[kr];

			if (x->event == rec->event && x->pid == rec->pid &&
			    x->tid == rec->tid)
				x->absorbed = true;
		}
	}
}

/* Validating mode: hands the error of a skipped record to the sink. */
static void report_finding(struct spaa_reader *r, struct spaa_error *err)
{
	r->o->findings.fn(r->o->findings.data, err);
	r->nfindings++;
	spaa_error_init(err);
}

/*
 * After a record failed with err: true when reading may go on (validating
 * mode, and an error about the record itself, not the input or a caller).
 */
static bool skip_bad_record(struct spaa_reader *r, struct spaa_error *err)
{
	if (!r->o->findings.fn || r->callback_failed)
		return false;
	if (strcmp(err->code, SPAA_E_INVALID) && strcmp(err->code, SPAA_E_PARSE) &&
	    strcmp(err->code, SPAA_E_LIMIT))
		return false;
	report_finding(r, err);
	return true;
}

static int reader_finish(struct spaa_reader *r, struct spaa_error *err)
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
		if (!(r->ref[s - r->stack_base] & SPAA_READER_REF_NEEDED) || p->stacks[s].defined)
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
	if (r->rep)
		spaa_repeats_merge_records(r->rep, p, r->record_base,
					   r->window_entry_base, r->weight_base);
	return 0;
}

static void reader_release(struct spaa_reader *r)
{
	spaa_json_parser_free(r->jp);
	free(r->events);
	spaa_map_release(&r->file_events);
	spaa_map_release(&r->same_ctx);
	free(r->same_record);
	spaa_map_release(&r->dso_ids);
	free(r->dso_of);
	spaa_map_release(&r->frame_ids);
	free(r->frame_of);
	free(r->frame_direct);
	free(r->stack_of);
	free(r->shared_line);
	spaa_idcache_release(&r->ids);
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
		     const struct spaa_load_opts *opts, struct spaa_repeats *rep,
		     uint64_t bytes_base, uint64_t bytes_total, struct spaa_error *err)
{
	struct spaa_reader r = {
		.p = p, .o = opts, .in = in, .path = spaa_input_name(in), .rep = rep,
		.bytes_base = bytes_base, .bytes_total = bytes_total,
		.time_exp10 = 9, .record_prov = SPAA_NONE,
	};
	struct spaa_json_error je;
	char *line;
	size_t len;
	int ret = -1, got;

	spaa_map_init(&r.dso_ids, sizeof(uint64_t));
	spaa_map_init(&r.frame_ids, sizeof(uint64_t));
	spaa_map_init(&r.tids, sizeof(int64_t));
	spaa_reader_tid_cache_clear(&r);
	for (size_t i = 0; i < SPAA_READER_SOON_RING; i++)
		r.soon[i] = SPAA_NONE;
	spaa_map_init(&r.window_ids, sizeof(uint32_t));
	spaa_map_init(&r.file_events, sizeof(uint32_t));
	spaa_map_init(&r.same_ctx, sizeof(struct spaa_reader_ctx_key));
	r.jp = spaa_json_parser_new();
	r.stack_base = p->nstacks;
	r.record_base = p->nrecords;
	r.weight_base = p->nweight_pool;
	r.window_entry_base = p->nwindow_entries;
	r.period_metric = spaa_strtab_intern(&p->strings, " sample periods", 15);
	r.file = spaa_profile_add_file(p, r.path, NULL);

	set_scanner(in, opts);
	if (opts->on_progress)
		opts->on_progress(opts->progress_data, bytes_base, bytes_total);
	while ((got = spaa_input_getline(in, &line, &len, err)) > 0) {
		const struct spaa_json_value *v, *dup = NULL;
		bool dup_known = false;

		r.line = spaa_input_lineno(in);
		r.record_prov = SPAA_NONE;
		if ((r.line & 4095) == 0 && opts->on_progress)
			opts->on_progress(opts->progress_data, bytes_base + spaa_input_bytes_read(in),
					  bytes_total);
		if (opts->on_line && opts->on_line(opts->data, line, len, err))
			goto out;
		/* a record starts with '{': only look further when not */
		if (line[0] != '{' && strspn(line, " \t\r") == len) {
			if (!r.seen_header && !r.header_missing) {
				spaa_reader_bad(&r, err, "the header is not the first record (the line is blank)");
				r.header_missing = opts->findings.fn != NULL;
				if (skip_bad_record(&r, err))
					continue;
				goto out;
			}
			spaa_reader_warn(&r, blank_kind, "skipped a blank line");
			/* the run of blank lines it starts, at once, where they are only counted */
			if (!opts->on_line && !opts->unfold_warnings)
				warn_more(&r, blank_kind, spaa_input_skip_blank(in));
			continue;
		}
		v = NULL;
		if (r.seen_header && !opts->no_fast_path) {
			const struct scanned *pre = spaa_input_scanned(in);
			int fast = 0;

			if (pre && pre->tree) {
				v = pre->tree;
				dup = pre->dup;
				dup_known = true;
				r.record_prov = pre->sample.prov;
				if (opts->stats)
					opts->stats->parsed_ahead++;
			} else if (pre && pre->stack) {
				r.record_prov = pre->sample.prov;
				fast = fast_stack(&r, line, len, pre->stack, err);
			} else if (!pre || !pre->declined) {
				fast = fast_sample(&r, line, len, pre ? &pre->sample : NULL, err);
			} else {
				r.record_prov = pre->sample.prov;
			}
			if (!fast && !v)
				fast = fast_stack(&r, line, len, NULL, err);
			if (fast > 0)
				continue;
			if (fast < 0) {
				if (skip_bad_record(&r, err))
					continue;
				goto out;
			}
		}
		if (!v && !(v = spaa_json_parse(r.jp, line, len, &je))) {
			spaa_error_at(err, SPAA_E_PARSE, r.path, r.line,
				      "invalid JSON at byte %zu: %s", je.offset + 1, je.msg);
			if (skip_bad_record(&r, err))
				continue;
			goto out;
		}
		if (dup_known ? dup != NULL : (dup = spaa_json_repeated_key(v)) != NULL)
			spaa_reader_warn(&r, "repeated-key", "key '%s' appears twice in one object; the first one counts",
					 dup->key);
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
