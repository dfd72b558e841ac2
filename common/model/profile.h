/*
 * profile - the in-memory model of one or more loaded profiles.
 *
 * What is kept: dictionaries (strings, DSOs, frames, functions, threads,
 * events), every distinct stack, every stack record (a stack in one
 * context: event, thread, cpu, with its weights) and window records.
 * What is not kept: sample records.  They stream past through the
 * reader's sample callback, so memory grows with unique stacks, never
 * with the number of samples.
 *
 * Indices, not pointers: everything refers to everything else by uint32_t
 * index into the arrays below (SPAA_NONE = absent), so arrays can grow
 * and the model is trivially freed.  Strings are indices into `strings`
 * (0 = absent / empty).
 *
 * Frames are stored leaf to root whatever the file's frame_order.  A
 * function is a (name, DSO) pair: perf writes one frame per address and
 * V8 one per call-tree node, so many frames share a function, and every
 * analysis aggregates by function.
 *
 * Several files (a directory) load into one profile: ids are per file
 * (the reader keeps the id maps), the model is shared; events merge by
 * name, DSOs by (name, build id), functions by (name, DSO), threads by
 * (pid, tid).
 *
 * Ownership: the profile owns everything it holds; every pointer it hands
 * out (spaa_profile_str, spaa_profile_record_frames) is borrowed and valid
 * until the next change of the profile or its release.  spaa_profile_init
 * makes an empty profile; spaa_profile_release frees everything and zeroes
 * it, so a zeroed or released profile may be released again.  The record
 * types below are values inside the profile's arrays, never freed alone.
 */
#ifndef SPAA_PROFILE_H
#define SPAA_PROFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/error.h"
#include "model/map.h"
#include "model/strtab.h"


enum spaa_event_kind {
	SPAA_EV_HARDWARE,
	SPAA_EV_SOFTWARE,
	SPAA_EV_ALLOCATION,
	SPAA_EV_DEALLOCATION,
	SPAA_EV_TIMER,
	SPAA_EV_PROBE,
};

enum spaa_sampling_mode {
	SPAA_MODE_PERIOD,
	SPAA_MODE_FREQUENCY,
	SPAA_MODE_EVENT,
};

enum spaa_frame_kind { SPAA_FRAME_USER, SPAA_FRAME_KERNEL, SPAA_FRAME_UNKNOWN };
enum spaa_stack_type { SPAA_STACK_UNIFIED, SPAA_STACK_USER, SPAA_STACK_KERNEL };

struct spaa_event {
	uint32_t name;
	enum spaa_event_kind kind;
	enum spaa_sampling_mode mode;
	uint32_t primary_metric;
	double frequency_hz;    /* 0 when not given */
	uint64_t sample_period; /* 0 when not given */
	int tracks_frees;       /* allocation_tracking.tracks_frees: 1, 0, -1 unknown */
	int has_timestamps;     /* allocation_tracking.has_timestamps: 1, 0, -1 */
	uint64_t nsamples;      /* sample records of this event, all files */
	uint32_t file;          /* the first file that declared it (messages) */
};

struct spaa_dso {
	uint32_t name;
	uint32_t build_id;      /* 0 when absent */
	bool is_kernel;
};

struct spaa_function {
	uint32_t name;
	uint32_t dso;           /* index into dsos */
};

struct spaa_frame {
	uint32_t fn;            /* index into functions */
	uint32_t srcline;       /* 0 when absent */
	uint32_t ip;            /* 0 when absent */
	enum spaa_frame_kind kind;
	bool inlined;
	bool func_resolved;
	int inline_depth;       /* -1 when absent */
};

/*
 * A frame's content as a map key (spaa_map compares keys with memcmp, so
 * it has no padding of unknown value): what makes two frames the same
 * frame, for readers of several files and for writers that renumber.
 */
struct spaa_frame_key {
	uint32_t fn, srcline, ip;
	int32_t inline_depth;
	uint8_t kind, inlined, func_resolved, pad;
};

static inline struct spaa_frame_key spaa_frame_key(const struct spaa_frame *f)
{
	return (struct spaa_frame_key){
		.fn = f->fn, .srcline = f->srcline, .ip = f->ip,
		.inline_depth = f->inline_depth, .kind = (uint8_t)f->kind,
		.inlined = f->inlined, .func_resolved = f->func_resolved,
	};
}

struct spaa_thread {
	int64_t pid, tid;
	uint32_t comm;          /* 0 when unknown */
};

struct spaa_stack {
	uint32_t id;            /* the id text as written (numbers as digits) */
	uint32_t frames;        /* offset of the first (leaf) frame in frame_pool */
	uint32_t nframes;
	enum spaa_stack_type type;
	bool defined;           /* a stack record was seen (not just a reference) */
	/*
	 * A record of it names related stacks (spec 4.2): its logical
	 * frames may get a kernel stack on top at the end of the file.
	 */
	bool related;
	uint32_t file;          /* index into files */
	unsigned long line;     /* where defined, or first referenced */
	uint32_t first_record;  /* first record of this stack, or SPAA_NONE */
};

struct spaa_weight {
	uint32_t metric;
	uint32_t unit;          /* 0 when absent */
	uint64_t value;
};

/*
 * One stack record.  With related stacks (spec 4.2) the user record's
 * `frames` is the logical stack: kernel frames on top of user frames;
 * the kernel records it absorbed are marked `absorbed` and must be
 * skipped, so that the weight is counted once.
 */
struct spaa_record {
	uint32_t stack;         /* index into stacks */
	uint32_t frames, nframes;       /* logical frames (frame_pool), leaf first */
	uint32_t event;         /* index into events */
	int64_t pid, tid, cpu;  /* SPAA_NO_ID when absent */
	uint32_t comm;          /* context.comm, else the thread's comm, else 0 */
	/*
	 * context.labels (pprof's sample labels) as one string: the JSON
	 * object, keys sorted, ASCII only (formats/spaa_reader_records.c);
	 * 0 when none.  Part of the context: records differing only in
	 * labels stay apart.
	 */
	uint32_t labels;
	uint32_t weights, nweights;     /* into weight_pool */
	uint32_t excl, nexcl;           /* exclusive weights, into weight_pool */
	uint32_t excl_frame;    /* frame index of exclusive.frame, or SPAA_NONE */
	bool absorbed;
	uint32_t next_same_stack;       /* next record of the same stack, or SPAA_NONE */
};

struct spaa_window_entry {
	uint32_t stack;
	uint32_t weights, nweights;     /* into weight_pool */
};

struct spaa_window {
	uint32_t id;
	int64_t start, end;     /* ns */
	uint32_t entries, nentries;     /* into window_entries */
	uint32_t file;
};

struct spaa_file {
	/*
	 * Owned by the profile: not interned, so that the paths of files
	 * folded away (spaa_profile_fold_last_file) leave nothing behind.
	 */
	char *path;
	uint32_t source_tool;
	/* the input's format ("SPAA", "perf script", ...: static, set by load.h), or NULL */
	const char *format;
	bool root_to_leaf;      /* frame_order as declared */
	bool content_addressable;
	bool has_time_range;
	int64_t time_start, time_end;   /* ns */
	uint64_t nsamples;      /* sample records read */
	uint64_t ignored;       /* records skipped (unknown types) */
	/*
	 * The files this entry stands for: 1, more once later files of the
	 * same format and source tool were folded into it.
	 */
	uint32_t count;
};

struct spaa_profile {
	struct spaa_strtab strings;

	struct spaa_file *files;
	uint32_t nfiles; size_t files_alloc;
	struct spaa_event *events;
	struct spaa_map event_map;      /* name (string index) -> event */
	uint32_t nevents; size_t events_alloc;
	struct spaa_dso *dsos;
	struct spaa_map dso_map;        /* (name, build_id, is_kernel) -> dso */
	size_t dsos_alloc;
	struct spaa_function *functions;
	struct spaa_map fn_map;         /* (name, dso) -> function */
	size_t functions_alloc;
	struct spaa_frame *frames;
	uint32_t nframes; size_t frames_alloc;
	struct spaa_thread *threads;
	struct spaa_map thread_map;     /* (pid, tid) -> thread */
	size_t threads_alloc;
	struct spaa_stack *stacks;
	uint32_t nstacks; size_t stacks_alloc;
	struct spaa_record *records;
	uint32_t nrecords; size_t records_alloc;
	struct spaa_window *windows;
	uint32_t nwindows; size_t windows_alloc;
	struct spaa_window_entry *window_entries;
	uint32_t nwindow_entries; size_t window_entries_alloc;

	uint32_t *frame_pool;           /* frame indices of stacks, leaf first */
	uint32_t nframe_pool; size_t frame_pool_alloc;
	struct spaa_weight *weight_pool;
	uint32_t nweight_pool; size_t weight_pool_alloc;

	/*
	 * Sum of each metric per event over all stack records as read
	 * (absorbed ones included), and of sample periods per event.  The
	 * reader fails on overflow here, naming the line, so that no later
	 * sum, always a part of one of these, can overflow.
	 */
	struct spaa_map totals;         /* (event, metric) */
	uint64_t *total_values;
	size_t totals_alloc;

	/* the whole time covered (header time ranges and sample times), ns */
	bool has_time;
	int64_t time_start, time_end;
	uint64_t nsamples;              /* sample records in all files */
};

void spaa_profile_init(struct spaa_profile *p);
void spaa_profile_release(struct spaa_profile *p);
/*
 * Empties p as spaa_profile_init leaves it, keeping its arrays and
 * tables for the next model (ahead.h reads file after file into one).
 */
void spaa_profile_clear(struct spaa_profile *p);
/*
 * Frees the stacks, stack records, windows and their frame and weight
 * pools (counts become 0), keeping the names: strings, files, events,
 * DSOs, functions, frames, threads and totals.  For an analysis whose
 * aggregates hold all it still needs: the tables it then builds do not
 * share the peak of memory with the stacks (in spaa-hotspots, a table of
 * 50,000 call paths with a model of 50,000 stacks).
 */
void spaa_profile_release_stacks(struct spaa_profile *p);

static inline const char *spaa_profile_str(const struct spaa_profile *p, uint32_t s)
{
	return spaa_strtab_get(&p->strings, s);
}

static inline uint32_t spaa_profile_ndsos(const struct spaa_profile *p)
{
	return p->dso_map.nr;
}

static inline uint32_t spaa_profile_nfunctions(const struct spaa_profile *p)
{
	return p->fn_map.nr;
}

static inline uint32_t spaa_profile_nthreads(const struct spaa_profile *p)
{
	return p->thread_map.nr;
}

/*
 * Whether a DSO name is the kernel's, as perf names it: "[kernel...]"
 * ([kernel.kallsyms], [kernel.vmlinux]), a name with "kallsyms", or a
 * module "[NAME.ko]".  For inputs that do not flag kernel DSOs.
 */
bool spaa_profile_kernel_dso(const char *name);

/*
 * Event index by name, or SPAA_NONE; constant time (a header may declare
 * many events, and every record names one).
 */
uint32_t spaa_profile_find_event(const struct spaa_profile *p, const char *name);
uint32_t spaa_profile_find_event_str(const struct spaa_profile *p, uint32_t name);

/* Appends e, whose name no event has yet; returns its index. */
uint32_t spaa_profile_add_event(struct spaa_profile *p, const struct spaa_event *e);

/*
 * The event of a reader that declares one event per file (V8, DTrace): the
 * index of the event named e->name in *out, added as *e when no earlier
 * file declared it.  An earlier file's event of that name with another
 * primary metric is an error naming path.
 */
int spaa_profile_use_event(struct spaa_profile *p, const struct spaa_event *e,
			   const char *path, uint32_t *out, struct spaa_error *err);

/*
 * Appends a zeroed entry (count 1) for the file path (copied), written
 * by source_tool (NULL: not known), and returns its index; p->files may
 * move.
 */
uint32_t spaa_profile_add_file(struct spaa_profile *p, const char *path,
			       const char *source_tool);

/*
 * Folds the last file entry into the earlier entry into, of the same
 * format and source tool: into counts it too (count), the last entry's
 * path is freed and nfiles shrinks by one.  For a load of many files
 * whose last file added nothing the model names by file index (no
 * stack, event or window: what it held repeated earlier files), so that
 * what stays of it is its number; its per-file figures (nsamples,
 * ignored, time range) are dropped.
 */
void spaa_profile_fold_last_file(struct spaa_profile *p, uint32_t into);

/* The files the entries stand for (the sum of their counts). */
uint64_t spaa_profile_files_read(const struct spaa_profile *p);

/* Interning helpers used by readers; each returns an index. */
uint32_t spaa_profile_intern_dso(struct spaa_profile *p, uint32_t name,
				 uint32_t build_id, bool is_kernel);
uint32_t spaa_profile_intern_function(struct spaa_profile *p, uint32_t name,
				      uint32_t dso);
uint32_t spaa_profile_intern_thread(struct spaa_profile *p, int64_t pid,
				    int64_t tid);
/* DSO index of (name, build_id, is_kernel), or SPAA_NONE. */
uint32_t spaa_profile_find_dso(const struct spaa_profile *p, uint32_t name,
			       uint32_t build_id, bool is_kernel);
/* Function index of (name, dso), or SPAA_NONE. */
uint32_t spaa_profile_find_function(const struct spaa_profile *p, uint32_t name,
				    uint32_t dso);
/* Thread index of (pid, tid), or SPAA_NONE. */
uint32_t spaa_profile_find_thread(const struct spaa_profile *p, int64_t pid,
				  int64_t tid);
/* Appends to the pools; return the offset of the first element. */
uint32_t spaa_profile_add_frames(struct spaa_profile *p, const uint32_t *frames,
				 uint32_t n);
uint32_t spaa_profile_add_weights(struct spaa_profile *p,
				  const struct spaa_weight *w, uint32_t n);

/* Borrowed pointer to the logical frames of r (leaf first). */
static inline const uint32_t *spaa_profile_record_frames(const struct spaa_profile *p,
						 const struct spaa_record *r)
{
	return p->frame_pool + r->frames;
}

/*
 * Looks up metric (a string index) among n weights at pool offset off.
 * Returns true and stores the value, or false when the metric is absent.
 */
bool spaa_profile_weights_get(const struct spaa_profile *p, uint32_t off, uint32_t n,
		      uint32_t metric, uint64_t *value);

/* The unit string index of metric in those weights (0 if none or absent). */
uint32_t spaa_profile_weights_unit(const struct spaa_profile *p, uint32_t off,
			   uint32_t n, uint32_t metric);

/*
 * Adds value to the total of metric under event; returns -1 if the total
 * would overflow 64 bits (it is then left unchanged).
 */
int spaa_profile_add_total(struct spaa_profile *p, uint32_t event,
			   uint32_t metric, uint64_t value);

/* The total of metric under event (0 if never seen). */
uint64_t spaa_profile_total(const struct spaa_profile *p, uint32_t event,
			    uint32_t metric);

/* Extends the profile's time span to include [start, end]. */
void spaa_profile_cover_time(struct spaa_profile *p, int64_t start, int64_t end);

#endif
