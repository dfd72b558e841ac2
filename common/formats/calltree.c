#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/calltree.h"
#include "model/util.h"

struct child_key {
	uint32_t parent, frame;
};

void spaa_calltree_init(struct spaa_calltree *t, struct spaa_profile *p,
			const char *path, uint32_t file, uint32_t event,
			const char *const *metrics, const char *const *units,
			uint32_t nmetrics)
{
	memset(t, 0, sizeof(*t));
	t->p = p;
	t->path = path;
	t->file = file;
	t->event = event;
	t->pid = t->tid = SPAA_NO_ID;
	t->nmetrics = nmetrics;
	for (uint32_t m = 0; m < nmetrics; m++) {
		t->metric[m] = spaa_strtab_intern(&p->strings, metrics[m], strlen(metrics[m]));
		t->unit[m] = units[m] ? spaa_strtab_intern(&p->strings, units[m],
							   strlen(units[m])) : 0;
	}
	spaa_map_init(&t->children, sizeof(struct child_key));
}

void spaa_calltree_release(struct spaa_calltree *t)
{
	free(t->parent);
	free(t->frame);
	free(t->stack);
	free(t->w);
	spaa_map_release(&t->children);
	memset(t, 0, sizeof(*t));
}

uint32_t spaa_calltree_frame(struct spaa_profile *p, const char *name, size_t len,
			     const char *dso_name, const char *srcline,
			     enum spaa_frame_kind kind)
{
	struct spaa_frame f = {
		.kind = kind, .func_resolved = true, .inline_depth = -1,
	};
	uint32_t dso = spaa_profile_intern_dso(p, spaa_strtab_intern(&p->strings, dso_name,
								     strlen(dso_name)),
					       0, kind == SPAA_FRAME_KERNEL);

	f.fn = spaa_profile_intern_function(p, spaa_strtab_intern(&p->strings, name, len), dso);
	if (srcline)
		f.srcline = spaa_strtab_intern(&p->strings, srcline, strlen(srcline));
	SPAA_ALLOC_GROW(p->frames, (size_t)p->nframes + 1, p->frames_alloc);
	p->frames[p->nframes] = f;
	return p->nframes++;
}

uint32_t spaa_calltree_node(struct spaa_calltree *t, uint32_t parent, uint32_t frame)
{
	uint32_t n = t->nnodes;

	if (n >= t->alloc) {
		SPAA_ALLOC_GROW(t->parent, (size_t)n + 1, t->alloc);
		t->frame = spaa_xrealloc(t->frame, t->alloc * sizeof(uint32_t));
		t->stack = spaa_xrealloc(t->stack, t->alloc * sizeof(uint32_t));
		t->w = spaa_xrealloc(t->w, t->alloc * SPAA_CALLTREE_MAX_METRICS * sizeof(uint64_t));
	}
	t->parent[n] = parent;
	t->frame[n] = frame;
	t->stack[n] = SPAA_NONE;
	memset(t->w + (size_t)n * SPAA_CALLTREE_MAX_METRICS, 0,
	       SPAA_CALLTREE_MAX_METRICS * sizeof(uint64_t));
	return t->nnodes++;
}

uint32_t spaa_calltree_child(struct spaa_calltree *t, uint32_t parent, uint32_t frame)
{
	struct child_key k;
	bool created;
	uint32_t i;

	memset(&k, 0, sizeof(k));
	k.parent = parent;
	k.frame = frame;
	i = spaa_map_intern(&t->children, &k, &created);
	if (created)
		spaa_calltree_node(t, parent, frame);
	return i;
}

bool spaa_calltree_set_parent(struct spaa_calltree *t, uint32_t node, uint32_t parent)
{
	if (t->parent[node] != SPAA_NONE)
		return false;
	t->parent[node] = parent;
	return true;
}

int spaa_calltree_add(struct spaa_calltree *t, uint32_t node, const uint64_t *w,
		      struct spaa_error *err)
{
	uint64_t *nw = t->w + (size_t)node * SPAA_CALLTREE_MAX_METRICS;

	for (uint32_t m = 0; m < t->nmetrics; m++)
		if (spaa_add_u64(nw[m], w[m], &nw[m]))
			return spaa_error_at(err, SPAA_E_LIMIT, t->path, 0,
					     "the weight '%s' of a call path overflows 64 bits",
					     spaa_profile_str(t->p, t->metric[m]));
	return 0;
}

uint32_t spaa_calltree_stack(struct spaa_calltree *t, uint32_t node)
{
	struct spaa_profile *p = t->p;

	if (t->stack[node] == SPAA_NONE) {
		t->stack[node] = p->nstacks;
		SPAA_ALLOC_GROW(p->stacks, (size_t)p->nstacks + 1, p->stacks_alloc);
		p->stacks[p->nstacks++] = (struct spaa_stack){
			.file = t->file, .first_record = SPAA_NONE,
		};
	}
	return t->stack[node];
}

/*
 * Depth of every node (a root is 1), without recursion: walk up to a node
 * whose depth is known, then fill in on the way back.  A node met twice
 * on one walk is on a cycle.
 */
static int depths(struct spaa_calltree *t, uint32_t *depth, uint32_t *path,
		  uint32_t max_depth, struct spaa_error *err)
{
	const uint32_t VISITING = UINT32_MAX;

	for (uint32_t n = 0; n < t->nnodes; n++) {
		uint32_t len = 0, x = n, d;

		while (x != SPAA_NONE && !depth[x]) {
			depth[x] = VISITING;
			path[len++] = x;
			x = t->parent[x];
		}
		if (x != SPAA_NONE && depth[x] == VISITING)
			return spaa_error_at(err, SPAA_E_INVALID, t->path, 0,
					     "the call tree has a cycle (a node is its own ancestor)");
		d = x == SPAA_NONE ? 0 : depth[x];
		while (len) {
			x = path[--len];
			if (d >= max_depth)
				return spaa_error_at(err, SPAA_E_LIMIT, t->path, 0,
						     "a call path is deeper than %" PRIu32 " frames (SPAA_MAX_DEPTH)",
						     max_depth);
			depth[x] = ++d;
		}
	}
	return 0;
}

static bool has_weight(const struct spaa_calltree *t, uint32_t n)
{
	const uint64_t *w = t->w + (size_t)n * SPAA_CALLTREE_MAX_METRICS;

	for (uint32_t m = 0; m < t->nmetrics; m++)
		if (w[m])
			return true;
	return false;
}

int spaa_calltree_finish(struct spaa_calltree *t, uint32_t max_depth,
			 struct spaa_error *err)
{
	struct spaa_profile *p = t->p;
	uint32_t *depth = spaa_xcalloc((size_t)t->nnodes + 1, sizeof(uint32_t));
	uint32_t *buf = spaa_xmalloc(((size_t)t->nnodes + 1) * sizeof(uint32_t));
	struct spaa_weight wb[SPAA_CALLTREE_MAX_METRICS];
	uint64_t nframes = 0;
	int ret = -1;

	if (depths(t, depth, buf, max_depth ? max_depth : UINT32_MAX, err))
		goto out;
	for (uint32_t n = 0; n < t->nnodes; n++) {
		const uint64_t *w = t->w + (size_t)n * SPAA_CALLTREE_MAX_METRICS;
		struct spaa_stack *st;
		struct spaa_record rec;
		uint32_t at = 0, s, r;
		char id[16];

		if (t->stack[n] == SPAA_NONE && !has_weight(t, n))
			continue;
		nframes += depth[n];
		if (nframes > SPAA_CALLTREE_MAX_FRAMES) {
			spaa_error_at(err, SPAA_E_LIMIT, t->path, 0,
				      "the call paths hold more than %" PRIu64 " frames in all",
				      SPAA_CALLTREE_MAX_FRAMES);
			goto out;
		}
		s = spaa_calltree_stack(t, n);
		for (uint32_t x = n; x != SPAA_NONE; x = t->parent[x])
			buf[at++] = t->frame[x];
		st = &p->stacks[s];
		st->frames = spaa_profile_add_frames(p, buf, at);
		st->nframes = at;
		st->type = SPAA_STACK_UNIFIED;
		st->defined = true;
		snprintf(id, sizeof(id), "%" PRIu32, s);
		st->id = spaa_strtab_intern(&p->strings, id, strlen(id));

		for (uint32_t m = 0; m < t->nmetrics; m++) {
			wb[m] = (struct spaa_weight){ t->metric[m], t->unit[m], w[m] };
			if (spaa_profile_add_total(p, t->event, t->metric[m], w[m])) {
				spaa_error_at(err, SPAA_E_LIMIT, t->path, 0,
					      "the total of '%s' overflows 64 bits",
					      spaa_profile_str(p, t->metric[m]));
				goto out;
			}
		}
		memset(&rec, 0, sizeof(rec));
		rec.stack = s;
		rec.frames = st->frames;
		rec.nframes = at;
		rec.event = t->event;
		rec.pid = t->pid;
		rec.tid = t->tid;
		rec.cpu = SPAA_NO_ID;
		rec.comm = t->comm;
		rec.excl_frame = t->frame[n];
		/* the weights are self weights already: both lists share one copy */
		rec.weights = rec.excl = spaa_profile_add_weights(p, wb, t->nmetrics);
		rec.nweights = rec.nexcl = t->nmetrics;
		r = p->nrecords++;
		SPAA_ALLOC_GROW(p->records, p->nrecords, p->records_alloc);
		rec.next_same_stack = st->first_record;
		p->stacks[s].first_record = r;
		p->records[r] = rec;
	}
	ret = 0;
out:
	free(depth);
	free(buf);
	return ret;
}
