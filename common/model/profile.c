#include <stdlib.h>
#include <string.h>

#include "model/profile.h"
#include "model/util.h"

struct dso_key {
	uint32_t name, build_id, is_kernel;
};

struct fn_key {
	uint32_t name, dso;
};

struct thread_key {
	int64_t pid, tid;
};

void spaa_profile_init(struct spaa_profile *p)
{
	memset(p, 0, sizeof(*p));
	spaa_strtab_init(&p->strings);
	spaa_map_init(&p->event_map, sizeof(uint32_t));
	spaa_map_init(&p->dso_map, sizeof(struct dso_key));
	spaa_map_init(&p->fn_map, sizeof(struct fn_key));
	spaa_map_init(&p->thread_map, sizeof(struct thread_key));
	spaa_map_init(&p->totals, 2 * sizeof(uint32_t));
}

void spaa_profile_release(struct spaa_profile *p)
{
	spaa_strtab_release(&p->strings);
	spaa_map_release(&p->event_map);
	spaa_map_release(&p->dso_map);
	spaa_map_release(&p->fn_map);
	spaa_map_release(&p->thread_map);
	spaa_map_release(&p->totals);
	free(p->total_values);
	for (uint32_t i = 0; i < p->nfiles; i++)
		free(p->files[i].path);
	free(p->files);
	free(p->events);
	free(p->dsos);
	free(p->functions);
	free(p->frames);
	free(p->threads);
	spaa_profile_release_stacks(p);
	memset(p, 0, sizeof(*p));
}

void spaa_profile_clear(struct spaa_profile *p)
{
	spaa_strtab_clear(&p->strings);
	for (uint32_t i = 0; i < p->nfiles; i++)
		free(p->files[i].path);
	p->nfiles = p->nevents = p->nframes = 0;
	p->nstacks = p->nrecords = p->nwindows = p->nwindow_entries = 0;
	p->nframe_pool = p->nweight_pool = 0;
	spaa_map_clear(&p->event_map);
	spaa_map_clear(&p->dso_map);
	spaa_map_clear(&p->fn_map);
	spaa_map_clear(&p->thread_map);
	spaa_map_clear(&p->totals);
	p->has_time = false;
	p->time_start = p->time_end = 0;
	p->nsamples = 0;
}

void spaa_profile_release_stacks(struct spaa_profile *p)
{
	free(p->stacks);
	free(p->records);
	free(p->windows);
	free(p->window_entries);
	free(p->frame_pool);
	free(p->weight_pool);
	p->stacks = NULL;
	p->records = NULL;
	p->windows = NULL;
	p->window_entries = NULL;
	p->frame_pool = NULL;
	p->weight_pool = NULL;
	p->nstacks = p->nrecords = p->nwindows = p->nwindow_entries = 0;
	p->nframe_pool = p->nweight_pool = 0;
	p->stacks_alloc = p->records_alloc = p->windows_alloc = 0;
	p->window_entries_alloc = p->frame_pool_alloc = p->weight_pool_alloc = 0;
}

uint32_t spaa_profile_find_event_str(const struct spaa_profile *p, uint32_t name)
{
	return name == SPAA_NONE ? SPAA_NONE : spaa_map_find(&p->event_map, &name);
}

uint32_t spaa_profile_find_event(const struct spaa_profile *p, const char *name)
{
	return spaa_profile_find_event_str(p, spaa_strtab_find(&p->strings, name,
								strlen(name)));
}

uint32_t spaa_profile_add_event(struct spaa_profile *p, const struct spaa_event *e)
{
	/* the map's dense indices are the event indices */
	uint32_t i = spaa_map_intern(&p->event_map, &e->name, NULL);

	SPAA_ALLOC_GROW(p->events, (size_t)i + 1, p->events_alloc);
	p->events[i] = *e;
	p->nevents = i + 1;
	return i;
}

int spaa_profile_use_event(struct spaa_profile *p, const struct spaa_event *e,
			   const char *path, uint32_t *out, struct spaa_error *err)
{
	uint32_t i = spaa_profile_find_event_str(p, e->name);

	if (i == SPAA_NONE)
		i = spaa_profile_add_event(p, e);
	else if (p->events[i].primary_metric != e->primary_metric)
		return spaa_error_at(err, SPAA_E_INVALID, path, 0,
				     "event '%s' has primary metric '%s' in an earlier file, not '%s'",
				     spaa_profile_str(p, e->name),
				     spaa_profile_str(p, p->events[i].primary_metric),
				     spaa_profile_str(p, e->primary_metric));
	*out = i;
	return 0;
}

uint32_t spaa_profile_add_file(struct spaa_profile *p, const char *path,
			       const char *source_tool)
{
	uint32_t i = p->nfiles++;
	struct spaa_file *f;

	SPAA_ALLOC_GROW(p->files, p->nfiles, p->files_alloc);
	f = &p->files[i];
	memset(f, 0, sizeof(*f));
	f->path = spaa_xstrdup(path);
	f->count = 1;
	if (source_tool)
		f->source_tool = spaa_strtab_intern(&p->strings, source_tool,
						    strlen(source_tool));
	return i;
}

void spaa_profile_fold_last_file(struct spaa_profile *p, uint32_t into)
{
	struct spaa_file *last = &p->files[p->nfiles - 1];

	p->files[into].count += last->count;
	free(last->path);
	p->nfiles--;
}

uint64_t spaa_profile_files_read(const struct spaa_profile *p)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < p->nfiles; i++)
		n += p->files[i].count;
	return n;
}

uint32_t spaa_profile_intern_dso(struct spaa_profile *p, uint32_t name,
				 uint32_t build_id, bool is_kernel)
{
	struct dso_key k = { name, build_id, is_kernel };
	bool created;
	uint32_t i = spaa_map_intern(&p->dso_map, &k, &created);

	if (created) {
		SPAA_ALLOC_GROW(p->dsos, (size_t)i + 1, p->dsos_alloc);
		p->dsos[i] = (struct spaa_dso){ name, build_id, is_kernel };
	}
	return i;
}

uint32_t spaa_profile_find_dso(const struct spaa_profile *p, uint32_t name,
			       uint32_t build_id, bool is_kernel)
{
	struct dso_key k = { name, build_id, is_kernel };

	return spaa_map_find(&p->dso_map, &k);
}

uint32_t spaa_profile_find_function(const struct spaa_profile *p, uint32_t name,
				    uint32_t dso)
{
	struct fn_key k = { name, dso };

	return spaa_map_find(&p->fn_map, &k);
}

uint32_t spaa_profile_intern_function(struct spaa_profile *p, uint32_t name,
				      uint32_t dso)
{
	struct fn_key k = { name, dso };
	bool created;
	uint32_t i = spaa_map_intern(&p->fn_map, &k, &created);

	if (created) {
		SPAA_ALLOC_GROW(p->functions, (size_t)i + 1, p->functions_alloc);
		p->functions[i] = (struct spaa_function){ name, dso };
	}
	return i;
}

uint32_t spaa_profile_intern_thread(struct spaa_profile *p, int64_t pid,
				    int64_t tid)
{
	struct thread_key k;
	bool created;
	uint32_t i;

	memset(&k, 0, sizeof(k));
	k.pid = pid;
	k.tid = tid;
	i = spaa_map_intern(&p->thread_map, &k, &created);
	if (created) {
		SPAA_ALLOC_GROW(p->threads, (size_t)i + 1, p->threads_alloc);
		p->threads[i] = (struct spaa_thread){ pid, tid, 0 };
	}
	return i;
}

uint32_t spaa_profile_find_thread(const struct spaa_profile *p, int64_t pid,
				  int64_t tid)
{
	struct thread_key k;
	uint32_t i;

	memset(&k, 0, sizeof(k));
	k.pid = pid;
	k.tid = tid;
	i = spaa_map_find(&p->thread_map, &k);
	return i == SPAA_NONE ? SPAA_NONE : i;
}

uint32_t spaa_profile_add_frames(struct spaa_profile *p, const uint32_t *frames,
				 uint32_t n)
{
	uint32_t off = p->nframe_pool;

	SPAA_ALLOC_GROW(p->frame_pool, (size_t)off + n, p->frame_pool_alloc);
	/* n == 0 may come with NULL arrays, which memcpy must never get */
	if (n)
		memcpy(p->frame_pool + off, frames, (size_t)n * sizeof(*frames));
	p->nframe_pool += n;
	return off;
}

uint32_t spaa_profile_add_weights(struct spaa_profile *p,
				  const struct spaa_weight *w, uint32_t n)
{
	uint32_t off = p->nweight_pool;

	SPAA_ALLOC_GROW(p->weight_pool, (size_t)off + n, p->weight_pool_alloc);
	/* "weights": [] is n == 0 with NULL arrays: see add_frames */
	if (n)
		memcpy(p->weight_pool + off, w, (size_t)n * sizeof(*w));
	p->nweight_pool += n;
	return off;
}

bool spaa_profile_weights_get(const struct spaa_profile *p, uint32_t off, uint32_t n,
		      uint32_t metric, uint64_t *value)
{
	for (uint32_t i = 0; i < n; i++) {
		if (p->weight_pool[off + i].metric == metric) {
			*value = p->weight_pool[off + i].value;
			return true;
		}
	}
	return false;
}

uint32_t spaa_profile_weights_unit(const struct spaa_profile *p, uint32_t off,
			   uint32_t n, uint32_t metric)
{
	for (uint32_t i = 0; i < n; i++)
		if (p->weight_pool[off + i].metric == metric)
			return p->weight_pool[off + i].unit;
	return 0;
}

int spaa_profile_add_total(struct spaa_profile *p, uint32_t event,
			   uint32_t metric, uint64_t value)
{
	uint32_t key[2] = { event, metric };
	bool created;
	uint32_t i = spaa_map_intern(&p->totals, key, &created);

	if (created) {
		SPAA_ALLOC_GROW(p->total_values, (size_t)i + 1, p->totals_alloc);
		p->total_values[i] = 0;
	}
	return spaa_add_u64(p->total_values[i], value, &p->total_values[i]);
}

uint64_t spaa_profile_total(const struct spaa_profile *p, uint32_t event,
			    uint32_t metric)
{
	uint32_t key[2] = { event, metric };
	uint32_t i = spaa_map_find(&p->totals, key);

	return i == SPAA_NONE ? 0 : p->total_values[i];
}

void spaa_profile_cover_time(struct spaa_profile *p, int64_t start, int64_t end)
{
	if (!p->has_time) {
		p->has_time = true;
		p->time_start = start;
		p->time_end = end;
		return;
	}
	if (start < p->time_start)
		p->time_start = start;
	if (end > p->time_end)
		p->time_end = end;
}

bool spaa_profile_kernel_dso(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	return n && (!strncmp(name, "[kernel", 7) || strstr(name, "kallsyms") ||
		     (name[0] == '[' && n > 4 && !strcmp(name + n - 4, ".ko]")));
}
