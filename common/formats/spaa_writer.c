#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/folded.h"
#include "formats/spaa_writer.h"
#include "io/jsonw.h"
#include "io/output.h"
#include "model/sbuf.h"
#include "model/util.h"

struct wevent {
	uint32_t name;
	enum spaa_event_kind kind;
	bool any_period, same_period;
	uint64_t period;        /* the first one seen */
};

struct wdso_key {
	uint32_t name;
	uint32_t is_kernel;
};

/* zeroed before filling: map keys are compared with memcmp */
struct wframe_key {
	uint64_t ip;
	uint32_t func, dso, symoff, srcline;
	int32_t inline_depth;
	uint8_t has_ip, func_resolved, inlined, kind;
};

struct wctx_key {
	int64_t pid, tid;
	uint32_t stack, event, comm, pad;
};

struct wthread_key {
	int64_t pid, tid;
};

struct wctx {
	uint64_t samples, period;
};

struct spaa_writer {
	struct spaa_writer_opts o;
	struct spaa_strtab strings;
	struct wevent *events;
	uint32_t nevents;
	size_t events_alloc;
	struct spaa_map dsos;           /* wdso_key */
	struct spaa_map frames;         /* wframe_key */
	struct spaa_strtab stacks;      /* frame index arrays; 0 = the empty one */
	uint64_t *stack_hash;           /* by stack index */
	uint32_t nhashed;
	size_t stack_hash_alloc;
	struct spaa_map hashes;         /* u64 -> stack (collision check) */
	uint32_t *hash_stack;
	size_t hash_stack_alloc;
	struct spaa_map ctxs;           /* wctx_key */
	struct wctx *ctx;
	size_t ctx_alloc;
	struct spaa_map threads;        /* wthread_key */
	uint32_t *thread_comm;
	size_t thread_comm_alloc;
	bool has_time;
	int64_t tmin, tmax;
	FILE *spool;                    /* owned: sample records, NDJSON */
	struct spaa_jsonw jw;
};

struct spaa_writer *spaa_writer_new(const struct spaa_writer_opts *o)
{
	struct spaa_writer *w = spaa_xcalloc(1, sizeof(*w));

	w->o = *o;
	spaa_strtab_init(&w->strings);
	spaa_strtab_init(&w->stacks);
	spaa_map_init(&w->dsos, sizeof(struct wdso_key));
	spaa_map_init(&w->frames, sizeof(struct wframe_key));
	spaa_map_init(&w->hashes, sizeof(uint64_t));
	spaa_map_init(&w->ctxs, sizeof(struct wctx_key));
	spaa_map_init(&w->threads, sizeof(struct wthread_key));
	spaa_jsonw_init(&w->jw);
	return w;
}

void spaa_writer_free(struct spaa_writer *w)
{
	if (!w)
		return;
	spaa_strtab_release(&w->strings);
	spaa_strtab_release(&w->stacks);
	spaa_map_release(&w->dsos);
	spaa_map_release(&w->frames);
	spaa_map_release(&w->hashes);
	spaa_map_release(&w->ctxs);
	spaa_map_release(&w->threads);
	free(w->events);
	free(w->stack_hash);
	free(w->hash_stack);
	free(w->ctx);
	free(w->thread_comm);
	if (w->spool)
		fclose(w->spool);
	spaa_jsonw_release(&w->jw);
	free(w);
}

static uint32_t intern(struct spaa_writer *w, const char *s)
{
	return s ? spaa_strtab_intern(&w->strings, s, strlen(s)) : 0;
}

static const char *S(const struct spaa_writer *w, uint32_t i)
{
	return spaa_strtab_get(&w->strings, i);
}

uint32_t spaa_writer_add_event(struct spaa_writer *w, const char *name,
			   enum spaa_event_kind kind)
{
	uint32_t n = intern(w, name);

	for (uint32_t i = 0; i < w->nevents; i++)
		if (w->events[i].name == n)
			return i;
	SPAA_ALLOC_GROW(w->events, (size_t)w->nevents + 1, w->events_alloc);
	w->events[w->nevents] = (struct wevent){ .name = n, .kind = kind,
						 .same_period = true };
	return w->nevents++;
}

uint32_t spaa_writer_add_dso(struct spaa_writer *w, const char *name, bool is_kernel)
{
	struct wdso_key k = { intern(w, name), is_kernel };
	bool created;

	return spaa_map_intern(&w->dsos, &k, &created);
}

uint32_t spaa_writer_add_frame(struct spaa_writer *w, const struct spaa_writer_frame *f)
{
	struct wframe_key k;
	bool created;

	memset(&k, 0, sizeof(k));
	k.func = intern(w, f->func);
	k.dso = f->dso;
	k.has_ip = f->has_ip;
	k.ip = f->has_ip ? f->ip : 0;
	k.symoff = intern(w, f->symoff);
	k.srcline = intern(w, f->srcline);
	k.func_resolved = f->func_resolved;
	k.inlined = f->inlined;
	k.inline_depth = f->inline_depth;
	k.kind = (uint8_t)f->kind;
	return spaa_map_intern(&w->frames, &k, &created);
}

static const struct wframe_key *frame_key(const struct spaa_writer *w, uint32_t i)
{
	return spaa_map_key(&w->frames, i);
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

uint64_t spaa_writer_stack_hash(uint64_t h, const char *func, const char *dso,
			       const char *ip, const char *symoff,
			       const char *srcline)
{
	const char *const part[5] = { func, dso, ip, symoff, srcline };

	for (int i = 0; i < 5; i++) {
		if (part[i])
			h = fnv(h, part[i], strlen(part[i]));
		h = fnv(h, i < 4 ? "\x1f" : "\x1e", 1);
	}
	return h;
}

/* The documented content hash of spaa_writer.h. */
static uint64_t stack_hash(const struct spaa_writer *w, const uint32_t *fr,
			   uint32_t n)
{
	uint64_t h = SPAA_WRITER_STACK_HASH_INIT;

	for (uint32_t i = 0; i < n; i++) {
		const struct wframe_key *k = frame_key(w, fr[i]);
		const struct wdso_key *d = spaa_map_key(&w->dsos, k->dso);
		char ip[24] = "";

		if (k->has_ip)
			snprintf(ip, sizeof(ip), "0x%" PRIx64, k->ip);
		h = spaa_writer_stack_hash(h, S(w, k->func), S(w, d->name), ip,
					  S(w, k->symoff), S(w, k->srcline));
	}
	return h;
}

static void stack_id(const struct spaa_writer *w, uint32_t s, char buf[24])
{
	snprintf(buf, 24, "0x%016" PRIx64, w->stack_hash[s]);
}

static int spool_sample(struct spaa_writer *w, const struct spaa_writer_sample *s,
			uint32_t stack, struct spaa_error *err)
{
	struct spaa_jsonw *jw = &w->jw;
	char id[24];

	if (!w->spool && !(w->spool = spaa_output_spool(err)))
		return -1;
	stack_id(w, stack, id);
	spaa_jsonw_reset(jw);
	spaa_jsonw_object_begin(jw);
	spaa_jsonw_kv_string(jw, "type", "sample");
	spaa_jsonw_kv_i64(jw, "timestamp", s->time);
	if (s->pid != SPAA_NO_ID)
		spaa_jsonw_kv_i64(jw, "pid", s->pid);
	if (s->tid != SPAA_NO_ID)
		spaa_jsonw_kv_i64(jw, "tid", s->tid);
	if (s->cpu != SPAA_NO_ID)
		spaa_jsonw_kv_i64(jw, "cpu", s->cpu);
	spaa_jsonw_kv_string(jw, "event", S(w, w->events[s->event].name));
	if (s->has_period)
		spaa_jsonw_kv_u64(jw, "period", s->period);
	spaa_jsonw_kv_string(jw, "stack_id", id);
	spaa_jsonw_object_end(jw);
	if (fwrite(jw->buf, 1, jw->len, w->spool) != jw->len ||
	    putc('\n', w->spool) == EOF)
		return spaa_error_set(err, SPAA_E_IO, "cannot write the sample spool: %s",
				      strerror(errno));
	return 0;
}

int spaa_writer_add_sample(struct spaa_writer *w, const struct spaa_writer_sample *s,
		    const uint32_t *frames, uint32_t n, struct spaa_error *err)
{
	struct wevent *ev = &w->events[s->event];
	struct wctx_key ck;
	struct wctx *c;
	uint32_t st, ci;
	bool created;

	if (!n)
		return spaa_error_set(err, SPAA_E_INTERNAL, "a sample without frames");
	st = spaa_strtab_intern(&w->stacks, frames, (size_t)n * sizeof(*frames));
	if (st >= w->nhashed) {
		uint64_t h = stack_hash(w, frames, n);
		uint32_t hi;

		SPAA_ALLOC_GROW(w->stack_hash, (size_t)st + 1, w->stack_hash_alloc);
		while (w->nhashed < st)         /* index 0: the strtab's empty string */
			w->stack_hash[w->nhashed++] = 0;
		w->stack_hash[w->nhashed++] = h;
		hi = spaa_map_intern(&w->hashes, &h, &created);
		SPAA_ALLOC_GROW(w->hash_stack, (size_t)hi + 1, w->hash_stack_alloc);
		if (created)
			w->hash_stack[hi] = st;
		else if (w->hash_stack[hi] != st)
			return spaa_error_set(err, SPAA_E_INTERNAL,
					      "two different stacks hash to 0x%016" PRIx64, h);
	}

	memset(&ck, 0, sizeof(ck));
	ck.stack = st;
	ck.event = s->event;
	ck.pid = s->pid;
	ck.tid = s->tid;
	ck.comm = s->comm ? intern(w, s->comm) : 0;
	ci = spaa_map_intern(&w->ctxs, &ck, &created);
	SPAA_ALLOC_GROW(w->ctx, (size_t)ci + 1, w->ctx_alloc);
	c = &w->ctx[ci];
	if (created)
		*c = (struct wctx){ 0 };
	if (spaa_add_u64(c->samples, s->count, &c->samples) ||
	    (s->has_period && spaa_add_u64(c->period, s->period, &c->period)))
		return spaa_error_set(err, SPAA_E_LIMIT,
				      "the weight of a stack of event '%s' overflows 64 bits",
				      S(w, ev->name));
	if (s->has_period) {
		if (!ev->any_period)
			ev->period = s->period;
		else if (ev->period != s->period)
			ev->same_period = false;
		ev->any_period = true;
	}
	if (s->pid != SPAA_NO_ID && s->tid != SPAA_NO_ID) {
		struct wthread_key tk;
		uint32_t ti;

		memset(&tk, 0, sizeof(tk));
		tk.pid = s->pid;
		tk.tid = s->tid;
		ti = spaa_map_intern(&w->threads, &tk, &created);
		SPAA_ALLOC_GROW(w->thread_comm, (size_t)ti + 1, w->thread_comm_alloc);
		if (created || ck.comm)
			w->thread_comm[ti] = ck.comm;
	}
	if (s->has_time) {
		if (!w->has_time || s->time < w->tmin)
			w->tmin = s->time;
		if (!w->has_time || s->time > w->tmax)
			w->tmax = s->time;
		w->has_time = true;
		if (w->o.samples && spool_sample(w, s, st, err))
			return -1;
	}
	return 0;
}

uint32_t spaa_writer_nrecords(const struct spaa_writer *w)
{
	return w->ctxs.nr;
}

uint32_t spaa_writer_nstacks(const struct spaa_writer *w)
{
	return w->stacks.nr ? w->stacks.nr - 1 : 0;
}

static int emit(struct spaa_writer *w, struct spaa_output *out,
		struct spaa_error *err)
{
	struct spaa_jsonw *jw = &w->jw;

	spaa_jsonw_object_end(jw);
	if (spaa_output_write(out, jw->buf, jw->len, err) ||
	    spaa_output_write(out, "\n", 1, err))
		return -1;
	return 0;
}

static void begin(struct spaa_writer *w, const char *type)
{
	spaa_jsonw_reset(&w->jw);
	spaa_jsonw_object_begin(&w->jw);
	spaa_jsonw_kv_string(&w->jw, "type", type);
}

static const char *primary(const struct wevent *ev)
{
	return ev->any_period ? "period" : "samples";
}

static int write_header(struct spaa_writer *w, struct spaa_output *out,
			struct spaa_error *err)
{
	static const char *const kinds[] = {
		"hardware", "software", "allocation", "deallocation", "timer", "probe",
	};
	struct spaa_jsonw *jw = &w->jw;

	begin(w, "header");
	spaa_jsonw_kv_string(jw, "format", "spaa");
	spaa_jsonw_kv_string(jw, "version", "1.0");
	spaa_jsonw_kv_string(jw, "source_tool", w->o.source_tool);
	spaa_jsonw_kv_string(jw, "frame_order", "leaf_to_root");
	spaa_jsonw_kv_string(jw, "stack_id_mode", "content_addressable");
	spaa_jsonw_key(jw, "events");
	spaa_jsonw_array_begin(jw);
	for (uint32_t i = 0; i < w->nevents; i++) {
		const struct wevent *ev = &w->events[i];

		spaa_jsonw_object_begin(jw);
		spaa_jsonw_kv_string(jw, "name", S(w, ev->name));
		spaa_jsonw_kv_string(jw, "kind", kinds[ev->kind]);
		spaa_jsonw_key(jw, "sampling");
		spaa_jsonw_object_begin(jw);
		spaa_jsonw_kv_string(jw, "mode", !ev->any_period ? "event" :
				ev->same_period ? "period" : "frequency");
		spaa_jsonw_kv_string(jw, "primary_metric", primary(ev));
		if (ev->any_period && ev->same_period)
			spaa_jsonw_kv_u64(jw, "sample_period", ev->period);
		spaa_jsonw_object_end(jw);
		spaa_jsonw_object_end(jw);
	}
	spaa_jsonw_array_end(jw);
	if (w->has_time) {
		spaa_jsonw_key(jw, "time_range");
		spaa_jsonw_object_begin(jw);
		spaa_jsonw_kv_i64(jw, "start", w->tmin);
		spaa_jsonw_kv_i64(jw, "end", w->tmax);
		spaa_jsonw_kv_string(jw, "unit", "nanoseconds");
		spaa_jsonw_object_end(jw);
	}
	spaa_jsonw_key(jw, "source");
	spaa_jsonw_object_begin(jw);
	spaa_jsonw_kv_string(jw, "tool", w->o.source_tool);
	spaa_jsonw_kv_string(jw, "x_converter", "spaa-convert");
	spaa_jsonw_object_end(jw);
	return emit(w, out, err);
}

static void weights(struct spaa_writer *w, const struct wevent *ev,
		    const struct wctx *c)
{
	struct spaa_jsonw *jw = &w->jw;

	spaa_jsonw_array_begin(jw);
	spaa_jsonw_object_begin(jw);
	spaa_jsonw_kv_string(jw, "metric", "samples");
	spaa_jsonw_kv_u64(jw, "value", c->samples);
	spaa_jsonw_object_end(jw);
	if (ev->any_period) {
		spaa_jsonw_object_begin(jw);
		spaa_jsonw_kv_string(jw, "metric", "period");
		spaa_jsonw_kv_u64(jw, "value", c->period);
		spaa_jsonw_object_end(jw);
	}
	spaa_jsonw_array_end(jw);
}

int spaa_writer_write_spaa(struct spaa_writer *w, struct spaa_output *out,
			   struct spaa_error *err)
{
	static const char *const fkinds[] = { "user", "kernel", "unknown" };
	struct spaa_jsonw *jw = &w->jw;
	char id[24], buf[1 << 16];
	size_t n;

	if (write_header(w, out, err))
		return -1;
	for (uint32_t i = 0; i < w->dsos.nr; i++) {
		const struct wdso_key *d = spaa_map_key(&w->dsos, i);

		begin(w, "dso");
		spaa_jsonw_kv_u64(jw, "id", (uint64_t)i + 1);
		spaa_jsonw_kv_string(jw, "name", S(w, d->name));
		spaa_jsonw_kv_bool(jw, "is_kernel", d->is_kernel);
		if (emit(w, out, err))
			return -1;
	}
	for (uint32_t i = 0; i < w->frames.nr; i++) {
		const struct wframe_key *k = frame_key(w, i);

		begin(w, "frame");
		spaa_jsonw_kv_u64(jw, "id", (uint64_t)i + 1);
		spaa_jsonw_kv_string(jw, "func", S(w, k->func));
		if (!k->func_resolved)
			spaa_jsonw_kv_bool(jw, "func_resolved", false);
		spaa_jsonw_kv_u64(jw, "dso", (uint64_t)k->dso + 1);
		if (k->has_ip) {
			char ip[24];

			snprintf(ip, sizeof(ip), "0x%" PRIx64, k->ip);
			spaa_jsonw_kv_string(jw, "ip", ip);
		}
		if (k->symoff)
			spaa_jsonw_kv_string(jw, "symoff", S(w, k->symoff));
		if (k->srcline)
			spaa_jsonw_kv_string(jw, "srcline", S(w, k->srcline));
		if (k->inlined)
			spaa_jsonw_kv_bool(jw, "inlined", true);
		if (k->inline_depth >= 0)
			spaa_jsonw_kv_i64(jw, "inline_depth", k->inline_depth);
		spaa_jsonw_kv_string(jw, "kind", fkinds[k->kind]);
		if (emit(w, out, err))
			return -1;
	}
	for (uint32_t i = 0; i < w->threads.nr; i++) {
		const struct wthread_key *t = spaa_map_key(&w->threads, i);

		begin(w, "thread");
		spaa_jsonw_kv_i64(jw, "pid", t->pid);
		spaa_jsonw_kv_i64(jw, "tid", t->tid);
		if (w->thread_comm[i])
			spaa_jsonw_kv_string(jw, "comm", S(w, w->thread_comm[i]));
		if (emit(w, out, err))
			return -1;
	}
	for (uint32_t i = 0; i < w->ctxs.nr; i++) {
		const struct wctx_key *k = spaa_map_key(&w->ctxs, i);
		const struct wevent *ev = &w->events[k->event];
		const uint32_t *fr = (const uint32_t *)spaa_strtab_get(&w->stacks, k->stack);
		uint32_t nf = spaa_strtab_len(&w->stacks, k->stack) / sizeof(uint32_t);
		uint32_t leaf;

		memcpy(&leaf, fr, sizeof(leaf));  /* strtab bytes may be unaligned */
		stack_id(w, k->stack, id);
		begin(w, "stack");
		spaa_jsonw_kv_string(jw, "id", id);
		spaa_jsonw_key(jw, "frames");
		spaa_jsonw_array_begin(jw);
		for (uint32_t f = 0; f < nf; f++) {
			uint32_t x;

			memcpy(&x, (const char *)fr + f * sizeof(x), sizeof(x));
			spaa_jsonw_u64(jw, (uint64_t)x + 1);
		}
		spaa_jsonw_array_end(jw);
		spaa_jsonw_key(jw, "context");
		spaa_jsonw_object_begin(jw);
		spaa_jsonw_kv_string(jw, "event", S(w, ev->name));
		if (k->pid != SPAA_NO_ID)
			spaa_jsonw_kv_i64(jw, "pid", k->pid);
		if (k->tid != SPAA_NO_ID)
			spaa_jsonw_kv_i64(jw, "tid", k->tid);
		if (k->comm)
			spaa_jsonw_kv_string(jw, "comm", S(w, k->comm));
		spaa_jsonw_object_end(jw);
		spaa_jsonw_key(jw, "weights");
		weights(w, ev, &w->ctx[i]);
		spaa_jsonw_key(jw, "exclusive");
		spaa_jsonw_object_begin(jw);
		spaa_jsonw_kv_u64(jw, "frame", (uint64_t)leaf + 1);
		spaa_jsonw_key(jw, "weights");
		weights(w, ev, &w->ctx[i]);
		spaa_jsonw_object_end(jw);
		if (emit(w, out, err))
			return -1;
	}
	if (!w->spool)
		return 0;
	if (fflush(w->spool) || fseek(w->spool, 0, SEEK_SET))
		return spaa_error_set(err, SPAA_E_IO, "cannot read the sample spool back: %s",
				      strerror(errno));
	while ((n = fread(buf, 1, sizeof(buf), w->spool)) > 0)
		if (spaa_output_write(out, buf, n, err))
			return -1;
	if (ferror(w->spool))
		return spaa_error_set(err, SPAA_E_IO, "cannot read the sample spool back");
	return 0;
}

int spaa_writer_write_folded(struct spaa_writer *w, const char *event,
			     const char *metric, struct spaa_output *out,
			     const struct spaa_warn_sink *warn, const char *file,
			     struct spaa_error *err)
{
	struct spaa_folded_table t;
	struct spaa_sbuf names = { 0 };
	uint64_t others = 0;
	bool *seen = NULL;
	uint32_t ev = 0;
	bool period;
	int ret = -1;

	if (!w->nevents)
		return 0;
	if (event) {
		for (ev = 0; ev < w->nevents; ev++)
			if (!strcmp(S(w, w->events[ev].name), event))
				break;
		if (ev == w->nevents) {
			for (uint32_t e = 0; e < w->nevents; e++)
				spaa_sbuf_printf(&names, "%s'%s'", e ? ", " : "", S(w, w->events[e].name));
			spaa_error_set(err, SPAA_E_USAGE, "no event '%s' in the input (it has %s)",
				       event, names.s);
			free(names.s);
			return -1;
		}
	}
	if (!metric)
		metric = primary(&w->events[ev]);
	period = !strcmp(metric, "period");
	if (!period && strcmp(metric, "samples"))
		return spaa_error_set(err, SPAA_E_USAGE,
				      "metric '%s' is not 'samples' or 'period'", metric);
	if (period && !w->events[ev].any_period)
		return spaa_error_set(err, SPAA_E_USAGE, "event '%s' has no periods",
				      S(w, w->events[ev].name));
	spaa_folded_table_init(&t);
	for (uint32_t i = 0; i < w->ctxs.nr; i++) {
		const struct wctx_key *k = spaa_map_key(&w->ctxs, i);
		const char *fr = spaa_strtab_get(&w->stacks, k->stack);
		uint32_t nf = spaa_strtab_len(&w->stacks, k->stack) / sizeof(uint32_t);

		if (k->event != ev) {
			if (!seen)
				seen = spaa_xcalloc(w->nevents, sizeof(*seen));
			if (!seen[k->event])
				spaa_sbuf_printf(&names, "%s'%s'", names.len ? ", " : "",
						 S(w, w->events[k->event].name));
			seen[k->event] = true;
			others++;
			continue;
		}
		spaa_folded_table_begin(&t);
		for (uint32_t f = nf; f-- > 0;) {
			uint32_t x;
			const char *name;

			memcpy(&x, fr + f * sizeof(x), sizeof(x));
			name = S(w, frame_key(w, x)->func);
			spaa_folded_table_push(&t, name, strlen(name));
		}
		if (spaa_folded_table_add(&t, period ? w->ctx[i].period : w->ctx[i].samples, err))
			goto out;
	}
	ret = spaa_folded_table_write(&t, out, warn, file, err);
	/* folded stacks hold one event */
	if (!ret && others)
		spaa_warn(warn, file, 0, "folded output holds one event, '%s': left out %" PRIu64 " stacks of %s (pick another with --event NAME)",
			  S(w, w->events[ev].name), others, names.s);
out:
	free(seen);
	free(names.s);
	spaa_folded_table_release(&t);
	return ret;
}
