#include <stdlib.h>
#include <string.h>

#include "formats/graft.h"
#include "model/util.h"

/* q's index of each of its entries in p, by kind */
struct graft {
	uint32_t *str, *event, *dso, *fn, *frame, *stack;
	uint32_t *fbuf;
	uint32_t *known;        /* the earlier stacks q's are */
	struct spaa_weight *wbuf;
	size_t wbuf_alloc;
};

static uint32_t qfind(const struct spaa_profile *p, const struct spaa_profile *q, uint32_t s)
{
	return spaa_strtab_find_hashed(&p->strings, spaa_profile_str(q, s),
				       spaa_strtab_len(&q->strings, s),
				       spaa_strtab_hash(&q->strings, s));
}

/* Frame i of q with p's names (SPAA_NONE where p has none yet). */
static struct spaa_frame mapped_frame(const struct graft *g, const struct spaa_profile *q,
				      uint32_t i)
{
	struct spaa_frame f = q->frames[i];

	f.fn = g->fn[f.fn];
	f.srcline = g->str[f.srcline];
	f.ip = g->str[f.ip];
	return f;
}

/* Whether q, with nsamples samples given, is of the shape grafting takes (graft.h). */
static bool common_shape(const struct spaa_profile *q, size_t nsamples)
{
	if (q->nfiles != 1 || q->nsamples != nsamples || q->nwindows || q->files[0].ignored)
		return false;
	for (uint32_t i = 0; i < q->nstacks; i++)
		if (!q->stacks[i].defined || q->stacks[i].related)
			return false;
	return true;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * What of q p holds already, found without changing p: each of q's
 * strings, DSOs, functions, frames (those an earlier file has: rep) and
 * stacks (likewise) in g, SPAA_NONE where p has none yet.  Then whether
 * reading q's file into p would read it as q was read and say nothing
 * more: the bound on strings kept, every event declared as in p, every
 * total below 2^64, and no two of q's stacks taken for one earlier
 * stack (reading would have added their records of one context
 * together, q has them apart).
 */
static bool find_known(struct graft *g, const struct spaa_profile *p,
		       const struct spaa_profile *q, uint32_t max_strings,
		       struct spaa_repeats *rep)
{
	uint64_t nstr = p->strings.nr;
	uint32_t nknown = 0;

	for (uint32_t i = 0; i < q->strings.nr; i++) {
		g->str[i] = qfind(p, q, i);
		nstr += g->str[i] == SPAA_NONE;
	}
	if (nstr > max_strings)
		return false;
	for (uint32_t i = 0; i < q->nevents; i++) {
		const struct spaa_event *e = &q->events[i];
		uint32_t pe = spaa_profile_find_event_str(p, g->str[e->name]);

		if (pe != SPAA_NONE && (p->events[pe].kind != e->kind ||
					g->str[e->primary_metric] != p->events[pe].primary_metric))
			return false;
		g->event[i] = pe;
	}
	for (uint32_t i = 0; i < q->totals.nr; i++) {
		const uint32_t *k = spaa_map_key(&q->totals, i);
		uint32_t key[2] = { g->event[k[0]], g->str[k[1]] }, t;
		uint64_t sum;

		if (key[0] != SPAA_NONE && key[1] != SPAA_NONE &&
		    (t = spaa_map_find(&p->totals, key)) != SPAA_NONE &&
		    spaa_add_u64(p->total_values[t], q->total_values[i], &sum))
			return false;
	}
	for (uint32_t i = 0; i < spaa_profile_ndsos(q); i++) {
		const struct spaa_dso *d = &q->dsos[i];

		g->dso[i] = g->str[d->name] == SPAA_NONE || g->str[d->build_id] == SPAA_NONE ?
			    SPAA_NONE : spaa_profile_find_dso(p, g->str[d->name],
							      g->str[d->build_id], d->is_kernel);
	}
	for (uint32_t i = 0; i < spaa_profile_nfunctions(q); i++) {
		const struct spaa_function *f = &q->functions[i];

		g->fn[i] = g->str[f->name] == SPAA_NONE || g->dso[f->dso] == SPAA_NONE ?
			   SPAA_NONE : spaa_profile_find_function(p, g->str[f->name], g->dso[f->dso]);
	}
	for (uint32_t i = 0; i < q->nframes; i++) {
		struct spaa_frame f = mapped_frame(g, q, i);

		g->frame[i] = SPAA_NONE;
		if (rep && f.fn != SPAA_NONE && f.srcline != SPAA_NONE && f.ip != SPAA_NONE)
			g->frame[i] = spaa_repeats_frame(rep, &f);
	}
	for (uint32_t i = 0; i < q->nstacks; i++) {
		const struct spaa_stack *s = &q->stacks[i];
		uint32_t k = 0;

		g->stack[i] = SPAA_NONE;
		for (; rep && k < s->nframes; k++)
			if ((g->fbuf[k] = g->frame[q->frame_pool[s->frames + k]]) == SPAA_NONE)
				break;
		if (!rep || k < s->nframes)
			continue;
		g->stack[i] = spaa_repeats_stack(rep, s->type, g->fbuf, s->nframes);
		if (g->stack[i] != SPAA_NONE)
			g->known[nknown++] = g->stack[i];
	}
	qsort(g->known, nknown, sizeof(*g->known), cmp_u32);
	for (uint32_t i = 1; i < nknown; i++)
		if (g->known[i] == g->known[i - 1])
			return false;
	return true;
}

/* q's weights at off (n of them), their names p's, added to p's pool. */
static uint32_t graft_weights(struct graft *g, struct spaa_profile *p,
			      const struct spaa_profile *q, uint32_t off, uint32_t n)
{
	SPAA_ALLOC_GROW(g->wbuf, n, g->wbuf_alloc);
	for (uint32_t i = 0; i < n; i++) {
		g->wbuf[i] = q->weight_pool[off + i];
		g->wbuf[i].metric = g->str[g->wbuf[i].metric];
		g->wbuf[i].unit = g->str[g->wbuf[i].unit];
	}
	return spaa_profile_add_weights(p, g->wbuf, n);
}

/*
 * The dictionaries, in q's order, which is the order reading the file
 * meets them in: each entry p lacks lands where reading would have put
 * it (g: what find_known found).
 */
static void graft_names(struct graft *g, struct spaa_profile *p,
			const struct spaa_profile *q, uint32_t file)
{
	for (uint32_t i = 0; i < q->strings.nr; i++)
		if (g->str[i] == SPAA_NONE)
			g->str[i] = spaa_strtab_intern_hashed(&p->strings, spaa_profile_str(q, i),
							      spaa_strtab_len(&q->strings, i),
							      spaa_strtab_hash(&q->strings, i));
	for (uint32_t i = 0; i < q->nevents; i++) {
		struct spaa_event e = q->events[i];

		if (g->event[i] != SPAA_NONE)
			continue;
		e.name = g->str[e.name];
		e.primary_metric = g->str[e.primary_metric];
		e.file = file;
		e.nsamples = 0;         /* counted as they are given */
		g->event[i] = spaa_profile_add_event(p, &e);
	}
	for (uint32_t i = 0; i < spaa_profile_ndsos(q); i++)
		if (g->dso[i] == SPAA_NONE)
			g->dso[i] = spaa_profile_intern_dso(p, g->str[q->dsos[i].name],
							    g->str[q->dsos[i].build_id],
							    q->dsos[i].is_kernel);
	for (uint32_t i = 0; i < spaa_profile_nfunctions(q); i++)
		if (g->fn[i] == SPAA_NONE)
			g->fn[i] = spaa_profile_intern_function(p, g->str[q->functions[i].name],
								g->dso[q->functions[i].dso]);
	/* each frame record: a repeat of an earlier file's frame, or new */
	for (uint32_t i = 0; i < q->nframes; i++) {
		if (g->frame[i] != SPAA_NONE)
			continue;
		SPAA_ALLOC_GROW(p->frames, (size_t)p->nframes + 1, p->frames_alloc);
		g->frame[i] = p->nframes;
		p->frames[p->nframes++] = mapped_frame(g, q, i);
	}
	/* a thread record names its thread's comm: the last one counts */
	for (uint32_t i = 0; i < spaa_profile_nthreads(q); i++) {
		const struct spaa_thread *t = &q->threads[i];
		uint32_t pt = spaa_profile_intern_thread(p, t->pid, t->tid);

		if (t->comm)
			p->threads[pt].comm = g->str[t->comm];
	}
}

/* Each stack: one of an earlier file with the same frames, or new. */
static void graft_stacks(struct graft *g, struct spaa_profile *p,
			 const struct spaa_profile *q, uint32_t file)
{
	for (uint32_t i = 0; i < q->nstacks; i++) {
		const struct spaa_stack *s = &q->stacks[i];

		if (g->stack[i] != SPAA_NONE)
			continue;
		for (uint32_t k = 0; k < s->nframes; k++)
			g->fbuf[k] = g->frame[q->frame_pool[s->frames + k]];
		SPAA_ALLOC_GROW(p->stacks, (size_t)p->nstacks + 1, p->stacks_alloc);
		g->stack[i] = p->nstacks;
		p->stacks[p->nstacks++] = (struct spaa_stack){
			.id = g->str[s->id],
			.frames = spaa_profile_add_frames(p, g->fbuf, s->nframes),
			.nframes = s->nframes, .type = s->type, .defined = true,
			.file = file, .line = s->line, .first_record = SPAA_NONE,
		};
	}
}

/* smp to the load, as reading them into p gives them (spx_reader.c: emit). */
static int graft_samples(const struct graft *g, struct spaa_profile *p,
			 const struct spaa_graft_samples *smp, uint32_t file,
			 const struct spaa_load_opts *o, struct spaa_error *err)
{
	struct spaa_sample s = smp->like;

	smp->before(smp->data);
	s.event = g->event[s.event];
	s.period_metric = g->str[s.period_metric];
	s.file = file;
	for (size_t i = 0; i < smp->n; i++) {
		s.time = smp->v[i].time;
		s.period = smp->v[i].period;
		s.stack = g->stack[smp->v[i].stack];
		s.line = smp->v[i].line;
		p->nsamples++;
		p->events[s.event].nsamples++;
		p->files[file].nsamples++;
		spaa_profile_cover_time(p, s.time, s.time);
		if (spaa_load_sample(o, p, &s, err))
			return -1;
	}
	return 0;
}

static void graft_records(struct graft *g, struct spaa_profile *p,
			  const struct spaa_profile *q)
{
	for (uint32_t i = 0; i < q->nrecords; i++) {
		struct spaa_record r = q->records[i];
		struct spaa_stack *s = &p->stacks[g->stack[r.stack]];

		r.stack = g->stack[r.stack];
		r.frames = s->frames;
		r.nframes = s->nframes;
		r.event = g->event[r.event];
		r.comm = g->str[r.comm];
		r.labels = g->str[r.labels];
		r.weights = graft_weights(g, p, q, r.weights, r.nweights);
		/*
		 * no exclusive object: no weights added, as reading adds none;
		 * one list for both in q (SPX: its weights are exclusive), one in p
		 */
		if (r.excl_frame != SPAA_NONE) {
			r.excl = r.excl == q->records[i].weights && r.nexcl == r.nweights ?
				 r.weights : graft_weights(g, p, q, r.excl, r.nexcl);
			r.excl_frame = g->frame[r.excl_frame];
		}
		/* a thread the file left unnamed may be named by an earlier one */
		if (!r.comm && r.pid != SPAA_NO_ID && r.tid != SPAA_NO_ID) {
			uint32_t t = spaa_profile_find_thread(p, r.pid, r.tid);

			if (t != SPAA_NONE)
				r.comm = p->threads[t].comm;
		}
		r.next_same_stack = s->first_record;
		s->first_record = p->nrecords;
		SPAA_ALLOC_GROW(p->records, (size_t)p->nrecords + 1, p->records_alloc);
		p->records[p->nrecords++] = r;
	}
	for (uint32_t i = 0; i < q->totals.nr; i++) {
		const uint32_t *k = spaa_map_key(&q->totals, i);

		/* no overflow: find_known */
		(void)spaa_profile_add_total(p, g->event[k[0]], g->str[k[1]], q->total_values[i]);
	}
}

int spaa_graft(struct spaa_profile *p, const struct spaa_profile *q,
	       struct spaa_repeats *rep, uint32_t max_strings,
	       const struct spaa_graft_samples *smp, const struct spaa_load_opts *o,
	       struct spaa_error *err)
{
	const struct spaa_file *qf = &q->files[0];
	struct graft g = { 0 };
	uint32_t record_base = p->nrecords, weight_base = p->nweight_pool;
	uint32_t maxframes = 0, file;
	struct spaa_file *f;
	int ret = 0;

	if (!common_shape(q, smp ? smp->n : 0))
		return 0;
	for (uint32_t i = 0; i < q->nstacks; i++)
		if (q->stacks[i].nframes > maxframes)
			maxframes = q->stacks[i].nframes;
	g.str = spaa_xcalloc((size_t)q->strings.nr + 1, sizeof(*g.str));
	g.event = spaa_xcalloc((size_t)q->nevents + 1, sizeof(*g.event));
	g.dso = spaa_xcalloc((size_t)spaa_profile_ndsos(q) + 1, sizeof(*g.dso));
	g.fn = spaa_xcalloc((size_t)spaa_profile_nfunctions(q) + 1, sizeof(*g.fn));
	g.frame = spaa_xcalloc((size_t)q->nframes + 1, sizeof(*g.frame));
	g.stack = spaa_xcalloc((size_t)q->nstacks + 1, sizeof(*g.stack));
	g.known = spaa_xcalloc((size_t)q->nstacks + 1, sizeof(*g.known));
	g.fbuf = spaa_xcalloc((size_t)maxframes + 1, sizeof(*g.fbuf));
	if (!find_known(&g, p, q, max_strings, rep))
		goto out;

	file = spaa_profile_add_file(p, qf->path, NULL);
	graft_names(&g, p, q, file);
	f = &p->files[file];
	f->source_tool = g.str[qf->source_tool];
	f->root_to_leaf = qf->root_to_leaf;
	f->content_addressable = qf->content_addressable;
	graft_stacks(&g, p, q, file);
	ret = -1;
	if (smp && graft_samples(&g, p, smp, file, o, err))
		goto out;
	graft_records(&g, p, q);
	if (rep)
		spaa_repeats_merge_records(rep, p, record_base, p->nwindow_entries, weight_base);
	/* after the samples, as SPX reading sets it: what they were given with */
	f->has_time_range = qf->has_time_range;
	f->time_start = qf->time_start;
	f->time_end = qf->time_end;
	if (qf->has_time_range)
		spaa_profile_cover_time(p, qf->time_start, qf->time_end);
	ret = 1;
out:
	free(g.str);
	free(g.event);
	free(g.dso);
	free(g.fn);
	free(g.frame);
	free(g.stack);
	free(g.known);
	free(g.fbuf);
	free(g.wbuf);
	return ret;
}
