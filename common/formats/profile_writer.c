#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/profile_writer.h"
#include "formats/spaa_writer.h"
#include "io/jsonw.h"
#include "io/output.h"
#include "model/map.h"
#include "model/util.h"

/* one spooled sample; written and read back by this process only */
struct pw_sample {
	int64_t time, pid, tid, cpu;
	uint64_t period;
	uint32_t event, stack;
	uint32_t has_period, period_metric;
};

struct spaa_profile_writer {
	FILE *spool;                    /* owned; NULL until the first sample */
	struct spaa_jsonw jw;
};

/* The ids a write assigns, all 0-based (written + 1) unless noted. */
struct pw_ids {
	uint32_t *dso_out;              /* by profile DSO; SPAA_NONE = unused */
	uint32_t *dsos;                 /* written DSOs: profile index */
	uint32_t ndsos;
	uint32_t *frame_out;            /* by profile frame; SPAA_NONE = unassigned */
	struct spaa_map frames;         /* spaa_frame_key -> written frame */
	uint32_t *frames_of;            /* written frame -> a profile frame */
	size_t frames_of_alloc;
	struct spaa_strtab stacks;      /* written frame id sequences */
	uint64_t *hash;                 /* by strtab index */
	uint32_t nhashed;
	size_t hash_alloc;
	struct spaa_map hashes;         /* u64 -> first strtab index */
	uint32_t *hash_stack;
	size_t hash_stack_alloc;
	uint32_t *rec_stack;            /* by record: strtab index */
	uint32_t *stack_out;            /* by profile stack: strtab index or SPAA_NONE */
	uint32_t *seq;
	size_t seq_alloc;
};

struct spaa_profile_writer *spaa_profile_writer_new(void)
{
	struct spaa_profile_writer *w = spaa_xcalloc(1, sizeof(*w));

	spaa_jsonw_init(&w->jw);
	return w;
}

void spaa_profile_writer_free(struct spaa_profile_writer *w)
{
	if (!w)
		return;
	if (w->spool)
		fclose(w->spool);
	spaa_jsonw_release(&w->jw);
	free(w);
}

int spaa_profile_writer_on_sample(void *data, const struct spaa_profile *p,
			   const struct spaa_sample *s, struct spaa_error *err)
{
	struct spaa_profile_writer *w = data;
	struct pw_sample r;

	(void)p;
	memset(&r, 0, sizeof(r));
	r.time = s->time;
	r.pid = s->pid;
	r.tid = s->tid;
	r.cpu = s->cpu;
	r.period = s->period;
	r.has_period = s->has_period;
	r.period_metric = s->period_metric;
	r.event = s->event;
	r.stack = s->stack;
	if (!w->spool && !(w->spool = spaa_output_spool(err)))
		return -1;
	if (fwrite(&r, sizeof(r), 1, w->spool) != 1)
		return spaa_error_set(err, SPAA_E_IO, "cannot write the sample spool: %s",
				      strerror(errno));
	return 0;
}

static void ids_release(struct pw_ids *d)
{
	free(d->dso_out);
	free(d->dsos);
	free(d->frame_out);
	spaa_map_release(&d->frames);
	free(d->frames_of);
	spaa_strtab_release(&d->stacks);
	free(d->hash);
	spaa_map_release(&d->hashes);
	free(d->hash_stack);
	free(d->rec_stack);
	free(d->stack_out);
	free(d->seq);
}

static uint32_t frame_id(const struct spaa_profile *p, struct pw_ids *d,
			 uint32_t f)
{
	const struct spaa_frame *fr = &p->frames[f];
	struct spaa_frame_key k;
	uint32_t dso = p->functions[fr->fn].dso;
	bool created;
	uint32_t i;

	if (d->frame_out[f] != SPAA_NONE)
		return d->frame_out[f];
	k = spaa_frame_key(fr);
	i = spaa_map_intern(&d->frames, &k, &created);
	if (created) {
		SPAA_ALLOC_GROW(d->frames_of, (size_t)i + 1, d->frames_of_alloc);
		d->frames_of[i] = f;
		if (d->dso_out[dso] == SPAA_NONE) {
			d->dso_out[dso] = d->ndsos;
			d->dsos[d->ndsos++] = dso;
		}
	}
	return d->frame_out[f] = i;
}

/* The documented hash of a written frame sequence. */
static uint64_t seq_hash(const struct spaa_profile *p, const struct pw_ids *d,
			 const uint32_t *seq, uint32_t n)
{
	uint64_t h = SPAA_WRITER_STACK_HASH_INIT;

	for (uint32_t i = 0; i < n; i++) {
		const struct spaa_frame *f = &p->frames[d->frames_of[seq[i]]];
		const struct spaa_function *fn = &p->functions[f->fn];

		h = spaa_writer_stack_hash(h, spaa_profile_str(p, fn->name),
					  spaa_profile_str(p, p->dsos[fn->dso].name),
					  spaa_profile_str(p, f->ip), NULL, spaa_profile_str(p, f->srcline));
	}
	return h;
}

/* First pass: ids of everything the records use, stack ids by content. */
static int assign_ids(const struct spaa_profile *p, struct pw_ids *d,
		      struct spaa_error *err)
{
	uint32_t ndso = spaa_profile_ndsos(p);

	d->dso_out = spaa_xmalloc(((size_t)ndso + 1) * sizeof(uint32_t));
	d->dsos = spaa_xmalloc(((size_t)ndso + 1) * sizeof(uint32_t));
	memset(d->dso_out, 0xff, ((size_t)ndso + 1) * sizeof(uint32_t));
	d->frame_out = spaa_xmalloc(((size_t)p->nframes + 1) * sizeof(uint32_t));
	memset(d->frame_out, 0xff, ((size_t)p->nframes + 1) * sizeof(uint32_t));
	d->rec_stack = spaa_xmalloc(((size_t)p->nrecords + 1) * sizeof(uint32_t));
	d->stack_out = spaa_xmalloc(((size_t)p->nstacks + 1) * sizeof(uint32_t));
	memset(d->stack_out, 0xff, ((size_t)p->nstacks + 1) * sizeof(uint32_t));
	spaa_map_init(&d->frames, sizeof(struct spaa_frame_key));
	spaa_map_init(&d->hashes, sizeof(uint64_t));
	spaa_strtab_init(&d->stacks);

	for (uint32_t r = 0; r < p->nrecords; r++) {
		const struct spaa_record *rec = &p->records[r];
		const uint32_t *fr = spaa_profile_record_frames(p, rec);
		uint32_t st, hi;
		bool created;

		d->rec_stack[r] = SPAA_NONE;
		if (rec->absorbed || !rec->nframes)
			continue;
		SPAA_ALLOC_GROW(d->seq, rec->nframes, d->seq_alloc);
		for (uint32_t i = 0; i < rec->nframes; i++)
			d->seq[i] = frame_id(p, d, fr[i]);
		st = spaa_strtab_intern(&d->stacks, d->seq,
					(size_t)rec->nframes * sizeof(uint32_t));
		d->rec_stack[r] = st;
		if (d->stack_out[rec->stack] == SPAA_NONE)
			d->stack_out[rec->stack] = st;
		if (st < d->nhashed)
			continue;
		SPAA_ALLOC_GROW(d->hash, (size_t)st + 1, d->hash_alloc);
		while (d->nhashed < st)         /* index 0: the strtab's empty string */
			d->hash[d->nhashed++] = 0;
		d->hash[d->nhashed++] = seq_hash(p, d, d->seq, rec->nframes);
		hi = spaa_map_intern(&d->hashes, &d->hash[st], &created);
		SPAA_ALLOC_GROW(d->hash_stack, (size_t)hi + 1, d->hash_stack_alloc);
		if (created)
			d->hash_stack[hi] = st;
		else if (d->hash_stack[hi] != st)
			return spaa_error_set(err, SPAA_E_INTERNAL,
					      "two different stacks hash to 0x%016" PRIx64,
					      d->hash[st]);
	}
	return 0;
}

static void stack_id(const struct pw_ids *d, uint32_t st, char buf[24])
{
	snprintf(buf, 24, "0x%016" PRIx64, d->hash[st]);
}

static void jstr(struct spaa_jsonw *jw, const struct spaa_profile *p, uint32_t s)
{
	spaa_jsonw_string_len(jw, spaa_profile_str(p, s), spaa_strtab_len(&p->strings, s));
}

static void kv_str(struct spaa_jsonw *jw, const char *key,
		   const struct spaa_profile *p, uint32_t s)
{
	spaa_jsonw_key(jw, key);
	jstr(jw, p, s);
}

static void begin(struct spaa_jsonw *jw, const char *type)
{
	spaa_jsonw_reset(jw);
	spaa_jsonw_object_begin(jw);
	spaa_jsonw_kv_string(jw, "type", type);
}

static int emit(struct spaa_jsonw *jw, struct spaa_output *out, struct spaa_error *err)
{
	spaa_jsonw_object_end(jw);
	if (spaa_output_write(out, jw->buf, jw->len, err) ||
	    spaa_output_write(out, "\n", 1, err))
		return -1;
	return 0;
}

static int write_header(struct spaa_jsonw *jw, const struct spaa_profile *p,
			const char *source_tool, struct spaa_output *out,
			struct spaa_error *err)
{
	static const char *const kinds[] = {
		"hardware", "software", "allocation", "deallocation", "timer", "probe",
	};
	static const char *const modes[] = { "period", "frequency", "event" };

	begin(jw, "header");
	spaa_jsonw_kv_string(jw, "format", "spaa");
	spaa_jsonw_kv_string(jw, "version", "1.0");
	spaa_jsonw_kv_string(jw, "source_tool", source_tool);
	spaa_jsonw_kv_string(jw, "frame_order", "leaf_to_root");
	spaa_jsonw_kv_string(jw, "stack_id_mode", "content_addressable");
	spaa_jsonw_key(jw, "events");
	spaa_jsonw_array_begin(jw);
	for (uint32_t i = 0; i < p->nevents; i++) {
		const struct spaa_event *ev = &p->events[i];

		spaa_jsonw_object_begin(jw);
		kv_str(jw, "name", p, ev->name);
		spaa_jsonw_kv_string(jw, "kind", kinds[ev->kind]);
		spaa_jsonw_key(jw, "sampling");
		spaa_jsonw_object_begin(jw);
		spaa_jsonw_kv_string(jw, "mode", modes[ev->mode]);
		kv_str(jw, "primary_metric", p, ev->primary_metric);
		if (ev->frequency_hz > 0)
			spaa_jsonw_kv_double(jw, "frequency_hz", 17, ev->frequency_hz);
		if (ev->sample_period)
			spaa_jsonw_kv_u64(jw, "sample_period", ev->sample_period);
		spaa_jsonw_object_end(jw);
		if (ev->tracks_frees >= 0 || ev->has_timestamps >= 0) {
			spaa_jsonw_key(jw, "allocation_tracking");
			spaa_jsonw_object_begin(jw);
			if (ev->tracks_frees >= 0)
				spaa_jsonw_kv_bool(jw, "tracks_frees", ev->tracks_frees);
			if (ev->has_timestamps >= 0)
				spaa_jsonw_kv_bool(jw, "has_timestamps", ev->has_timestamps);
			spaa_jsonw_object_end(jw);
		}
		spaa_jsonw_object_end(jw);
	}
	spaa_jsonw_array_end(jw);
	if (p->has_time) {
		spaa_jsonw_key(jw, "time_range");
		spaa_jsonw_object_begin(jw);
		spaa_jsonw_kv_i64(jw, "start", p->time_start);
		spaa_jsonw_kv_i64(jw, "end", p->time_end);
		spaa_jsonw_kv_string(jw, "unit", "nanoseconds");
		spaa_jsonw_object_end(jw);
	}
	spaa_jsonw_key(jw, "source");
	spaa_jsonw_object_begin(jw);
	spaa_jsonw_kv_string(jw, "tool", source_tool);
	spaa_jsonw_kv_string(jw, "x_converter", "spaa-convert");
	spaa_jsonw_object_end(jw);
	return emit(jw, out, err);
}

static void weights(struct spaa_jsonw *jw, const struct spaa_profile *p,
		    uint32_t off, uint32_t n)
{
	spaa_jsonw_array_begin(jw);
	for (uint32_t i = 0; i < n; i++) {
		const struct spaa_weight *x = &p->weight_pool[off + i];

		spaa_jsonw_object_begin(jw);
		kv_str(jw, "metric", p, x->metric);
		spaa_jsonw_kv_u64(jw, "value", x->value);
		if (x->unit)
			kv_str(jw, "unit", p, x->unit);
		spaa_jsonw_object_end(jw);
	}
	spaa_jsonw_array_end(jw);
}

static int write_dicts(struct spaa_jsonw *jw, const struct spaa_profile *p,
		       const struct pw_ids *d, struct spaa_output *out,
		       struct spaa_error *err)
{
	static const char *const fkinds[] = { "user", "kernel", "unknown" };

	for (uint32_t i = 0; i < d->ndsos; i++) {
		const struct spaa_dso *x = &p->dsos[d->dsos[i]];

		begin(jw, "dso");
		spaa_jsonw_kv_u64(jw, "id", (uint64_t)i + 1);
		kv_str(jw, "name", p, x->name);
		if (x->build_id)
			kv_str(jw, "build_id", p, x->build_id);
		spaa_jsonw_kv_bool(jw, "is_kernel", x->is_kernel);
		if (emit(jw, out, err))
			return -1;
	}
	for (uint32_t i = 0; i < d->frames.nr; i++) {
		const struct spaa_frame *f = &p->frames[d->frames_of[i]];
		const struct spaa_function *fn = &p->functions[f->fn];

		begin(jw, "frame");
		spaa_jsonw_kv_u64(jw, "id", (uint64_t)i + 1);
		kv_str(jw, "func", p, fn->name);
		if (!f->func_resolved)
			spaa_jsonw_kv_bool(jw, "func_resolved", false);
		spaa_jsonw_kv_u64(jw, "dso", (uint64_t)d->dso_out[fn->dso] + 1);
		if (f->ip)
			kv_str(jw, "ip", p, f->ip);
		if (f->srcline)
			kv_str(jw, "srcline", p, f->srcline);
		if (f->inlined)
			spaa_jsonw_kv_bool(jw, "inlined", true);
		if (f->inline_depth >= 0)
			spaa_jsonw_kv_i64(jw, "inline_depth", f->inline_depth);
		spaa_jsonw_kv_string(jw, "kind", fkinds[f->kind]);
		if (emit(jw, out, err))
			return -1;
	}
	/*
	 * The model's threads, then those only stack records name (SPX
	 * gives each report's process in the records' context alone), with
	 * the comm of the first record.
	 */
	struct spaa_map seen;
	int ret = -1;

	spaa_map_init(&seen, 2 * sizeof(int64_t));
	for (uint32_t i = 0; i < spaa_profile_nthreads(p) + p->nrecords; i++) {
		bool thread = i < spaa_profile_nthreads(p);
		const struct spaa_thread *t = thread ? &p->threads[i] : NULL;
		const struct spaa_record *r = thread ? NULL :
			&p->records[i - spaa_profile_nthreads(p)];
		int64_t k[2] = { thread ? t->pid : r->pid, thread ? t->tid : r->tid };
		uint32_t comm = thread ? t->comm : r->comm;
		bool created;

		if (k[0] == SPAA_NO_ID || k[1] == SPAA_NO_ID || (r && r->absorbed))
			continue;
		spaa_map_intern(&seen, k, &created);
		if (!created)
			continue;
		begin(jw, "thread");
		spaa_jsonw_kv_i64(jw, "pid", k[0]);
		spaa_jsonw_kv_i64(jw, "tid", k[1]);
		if (comm)
			kv_str(jw, "comm", p, comm);
		if (emit(jw, out, err))
			goto out;
	}
	ret = 0;
out:
	spaa_map_release(&seen);
	return ret;
}

static int write_records(struct spaa_jsonw *jw, const struct spaa_profile *p,
			 const struct pw_ids *d, struct spaa_output *out,
			 struct spaa_error *err)
{
	char id[24];

	for (uint32_t r = 0; r < p->nrecords; r++) {
		const struct spaa_record *rec = &p->records[r];
		uint32_t st = d->rec_stack[r];
		const char *seq;
		uint32_t n, leaf;

		if (st == SPAA_NONE)
			continue;
		seq = spaa_strtab_get(&d->stacks, st);
		n = spaa_strtab_len(&d->stacks, st) / sizeof(uint32_t);
		stack_id(d, st, id);
		begin(jw, "stack");
		spaa_jsonw_kv_string(jw, "id", id);
		spaa_jsonw_key(jw, "frames");
		spaa_jsonw_array_begin(jw);
		for (uint32_t f = 0; f < n; f++) {
			uint32_t x;

			memcpy(&x, seq + f * sizeof(x), sizeof(x)); /* maybe unaligned */
			spaa_jsonw_u64(jw, (uint64_t)x + 1);
		}
		spaa_jsonw_array_end(jw);
		spaa_jsonw_key(jw, "context");
		spaa_jsonw_object_begin(jw);
		kv_str(jw, "event", p, p->events[rec->event].name);
		if (rec->pid != SPAA_NO_ID)
			spaa_jsonw_kv_i64(jw, "pid", rec->pid);
		if (rec->tid != SPAA_NO_ID)
			spaa_jsonw_kv_i64(jw, "tid", rec->tid);
		if (rec->cpu != SPAA_NO_ID)
			spaa_jsonw_kv_i64(jw, "cpu", rec->cpu);
		if (rec->comm)
			kv_str(jw, "comm", p, rec->comm);
		if (rec->labels) {
			spaa_jsonw_key(jw, "labels");
			spaa_jsonw_raw(jw, spaa_profile_str(p, rec->labels),
				       spaa_strtab_len(&p->strings, rec->labels));
		}
		spaa_jsonw_object_end(jw);
		spaa_jsonw_key(jw, "weights");
		weights(jw, p, rec->weights, rec->nweights);
		if (rec->nexcl) {
			/* exclusive weights belong to the logical leaf (spec 4) */
			memcpy(&leaf, seq, sizeof(leaf));
			spaa_jsonw_key(jw, "exclusive");
			spaa_jsonw_object_begin(jw);
			spaa_jsonw_kv_u64(jw, "frame", (uint64_t)leaf + 1);
			spaa_jsonw_key(jw, "weights");
			weights(jw, p, rec->excl, rec->nexcl);
			spaa_jsonw_object_end(jw);
		}
		if (emit(jw, out, err))
			return -1;
	}
	return 0;
}

static int write_samples(struct spaa_profile_writer *w, const struct spaa_profile *p,
			 const struct pw_ids *d, struct spaa_output *out,
			 struct spaa_error *err)
{
	struct spaa_jsonw *jw = &w->jw;
	struct pw_sample s;
	char id[24];

	if (!w->spool)
		return 0;
	if (fflush(w->spool) || fseek(w->spool, 0, SEEK_SET))
		return spaa_error_set(err, SPAA_E_IO, "cannot read the sample spool back: %s",
				      strerror(errno));
	while (fread(&s, sizeof(s), 1, w->spool) == 1) {
		if (s.stack >= p->nstacks || d->stack_out[s.stack] == SPAA_NONE)
			return spaa_error_set(err, SPAA_E_INTERNAL,
					      "a sample names a stack without any stack record");
		stack_id(d, d->stack_out[s.stack], id);
		begin(jw, "sample");
		spaa_jsonw_kv_i64(jw, "timestamp", s.time);
		if (s.pid != SPAA_NO_ID)
			spaa_jsonw_kv_i64(jw, "pid", s.pid);
		if (s.tid != SPAA_NO_ID)
			spaa_jsonw_kv_i64(jw, "tid", s.tid);
		if (s.cpu != SPAA_NO_ID)
			spaa_jsonw_kv_i64(jw, "cpu", s.cpu);
		kv_str(jw, "event", p, p->events[s.event].name);
		if (s.has_period)
			spaa_jsonw_kv_u64(jw, "period", s.period);
		/* SPX slices: the period is wall time, not a perf period */
		if (s.has_period && s.period_metric)
			kv_str(jw, "x_period_metric", p, s.period_metric);
		spaa_jsonw_kv_string(jw, "stack_id", id);
		if (emit(jw, out, err))
			return -1;
	}
	if (ferror(w->spool))
		return spaa_error_set(err, SPAA_E_IO, "cannot read the sample spool back");
	return 0;
}

int spaa_profile_writer_write(struct spaa_profile_writer *w, const struct spaa_profile *p,
		       const char *source_tool, struct spaa_output *out,
		       struct spaa_error *err)
{
	struct pw_ids d;
	int ret = -1;

	memset(&d, 0, sizeof(d));
	if (assign_ids(p, &d, err) ||
	    write_header(&w->jw, p, source_tool, out, err) ||
	    write_dicts(&w->jw, p, &d, out, err) ||
	    write_records(&w->jw, p, &d, out, err) ||
	    write_samples(w, p, &d, out, err))
		goto out;
	ret = 0;
out:
	ids_release(&d);
	return ret;
}
