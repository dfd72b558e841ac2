/*
 * aggregate - the sums every analysis is made of.
 *
 * An occurrence is one weighted stack in one context: a stack record, or
 * a group of sample records folded together.  spaa_aggregate_add adds it to:
 *   - per function: self weight (to the function of the self frame),
 *     total weight (to every function on the stack, once per stack even
 *     when it recurses), self samples;
 *   - per DSO: self weight;
 *   - per call path: the folded root-to-leaf sequence of function names,
 *     as flame graphs fold them, so stacks that differ only in addresses
 *     (perf), call-tree nodes (V8) or the DSO of a same-named function
 *     ([unknown]) are one path; with path_by_function set, the sequence
 *     of functions (name and DSO) instead, for matching stacks by content
 *     across profiles (compare.h);
 *   - per thread (pid, tid): weight, and self weight per function to name
 *     each thread's hottest function;
 *   - per CPU: weight, when the context says which CPU.
 * Sums are unsigned 64-bit; an overflow is an error, never a wrap.
 *
 * Samples are folded before aggregation (fold.h): grouped by stack,
 * event, thread and CPU, counted over the whole run and within a time
 * range.  Their weight is then, by metric:
 *   samples / count   the number of samples in range;
 *   period            the sum of the samples' periods (when every sample
 *                     in range has one); or the metric a sample names in
 *                     its period_metric (SPX slices: "wt"), which then
 *                     takes the place of "period" for those samples;
 *   anything else     the matching stack record's weight times the share
 *                     of that record's samples that fall in range.
 * So a range covering the whole run gives exactly the stack records' sums.
 *
 * Ownership: an aggregate owns its arrays and maps and borrows its profile,
 * which must outlive it.  spaa_aggregate_release frees and zeroes it; a
 * zeroed aggregate may be released (so may a released one).  An
 * occurrence borrows its frames from the profile.
 */
#ifndef SPAA_AGGREGATE_H
#define SPAA_AGGREGATE_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/callgraph.h"
#include "analysis/filter.h"
#include "analysis/fold.h"
#include "analysis/rank.h"
#include "formats/load.h"
#include "model/error.h"
#include "model/map.h"
#include "model/profile.h"
#include "model/strtab.h"

struct spaa_aggregate_occurrence {
	const uint32_t *frames; /* weak; leaf first */
	uint32_t nframes;
	uint32_t self_frame;    /* frame receiving the self weight */
	uint64_t weight, self;
	bool has_samples;
	uint64_t samples;
	int64_t pid, tid, cpu;  /* SPAA_NO_ID when unknown */
	uint32_t comm;
};

struct spaa_aggregate {
	const struct spaa_profile *p;   /* weak */
	uint64_t total;
	uint64_t occurrences;
	bool samples_known;     /* every occurrence carried a sample count */
	bool cpus_known;        /* some occurrence carried a CPU */
	uint64_t *fn_self, *fn_total, *fn_samples;      /* by function */
	uint32_t *fn_mark;      /* recursion guard: generation per function */
	uint32_t gen;
	uint8_t *fn_select;     /* spaa_filter_stack's memo, once a filter has stacks */
	/*
	 * Weak, may be NULL; set before the first add: every occurrence
	 * added with its weight also goes to these callers and callees.
	 */
	struct spaa_callgraph *edges;
	uint64_t *dso_self;     /* by DSO */
	/*
	 * Set between spaa_aggregate_init and the first add: paths are sequences
	 * of function indices (uint32_t, root first) rather than of name
	 * string indices.  spaa_aggregate_path_name prints names either way.
	 */
	bool path_by_function;
	/*
	 * Set between adds: spaa_aggregate_add interns the occurrence's keys (path,
	 * thread, thread-function, CPU) and adds no weight or samples.  Two
	 * aggregates fed the same occurrences in the same order, each with
	 * the weight of only some of them, then give every path, thread and
	 * CPU the same index (what --net of spaa-hotspots subtracts).
	 */
	bool keys_only;
	/*
	 * Set between spaa_aggregate_init and the first add: only the total and
	 * the per-CPU sums are kept (a CPU table of samples needs no more,
	 * and paths and threads are most of the work).
	 */
	bool cpus_only;
	/*
	 * Set before spaa_aggregate_add_records (0 or 1: the calling thread
	 * alone): the threads it may use.  With two or more, and at least
	 * split_min records (0: SPAA_AGGREGATE_SPLIT_MIN), the paths are
	 * added on the calling thread while another thread adds the rest,
	 * each over the records in order, so every index and sum is the one
	 * pass's, and so is an overflow's error.  A filter of stacks and
	 * cpus_only take one pass.
	 */
	unsigned workers;
	uint32_t split_min;
	struct spaa_strtab paths;       /* function-name sequences, root first */
	uint64_t *path_weight;
	size_t path_alloc;
	struct spaa_map threads;        /* (pid, tid) */
	uint64_t *thread_weight;
	uint32_t *thread_comm;
	size_t thread_alloc;
	struct spaa_map thread_fn;      /* (thread, function) */
	uint64_t *thread_fn_self;
	size_t thread_fn_alloc;
	struct spaa_map cpus;           /* cpu number */
	uint64_t *cpu_weight;
	size_t cpu_alloc;
	uint32_t *seq;                  /* scratch */
	size_t seq_alloc;
};

/*
 * The fewest records spaa_aggregate_add_records adds on two threads:
 * starting one costs about as much as adding a few hundred records.
 */
#define SPAA_AGGREGATE_SPLIT_MIN 8192

/* p must be fully loaded and outlive the aggregate. */
void spaa_aggregate_init(struct spaa_aggregate *a, const struct spaa_profile *p);
void spaa_aggregate_release(struct spaa_aggregate *a);

int spaa_aggregate_add(struct spaa_aggregate *a, const struct spaa_aggregate_occurrence *o,
		 struct spaa_error *err);

/*
 * The occurrence of stack record rec for metric: false when the record
 * lacks the metric.  Self comes from the exclusive weights when they have
 * the metric, else the whole weight goes to the logical leaf.
 */
bool spaa_aggregate_record_occurrence(const struct spaa_profile *p, uint32_t rec,
			    uint32_t metric, struct spaa_aggregate_occurrence *o);

/*
 * Adds every record of event, skipping absorbed ones and those of the
 * processes, threads, commands and stacks filter leaves out (filter
 * NULL: none; its time range does not apply to records), on two
 * threads when a->workers allows.
 */
int spaa_aggregate_add_records(struct spaa_aggregate *a, uint32_t event,
			       uint32_t metric, const struct spaa_filter *filter,
			       struct spaa_error *err);

/*
 * Adds the samples of event that f counted in its range, filtered like
 * spaa_aggregate_add_records (the thread's command name for --comm).
 */
int spaa_aggregate_add_fold(struct spaa_aggregate *a, const struct spaa_fold *f,
			    uint32_t event, uint32_t metric,
			    const struct spaa_filter *filter, struct spaa_error *err);

/*
 * Writes the folded path of a path index as "root;...;leaf" function
 * names (leaf_first: "leaf;...;root") into a malloc'ed string the caller
 * owns.
 */
char *spaa_aggregate_path_name(const struct spaa_aggregate *a, uint32_t path);
char *spaa_aggregate_path_name_leaf_first(const struct spaa_aggregate *a, uint32_t path);
/*
 * The same name without a string of its own, for a table that has room
 * for it (a call path a row): its length in bytes, then the name written
 * to d, which has that many (no NUL is written).
 */
size_t spaa_aggregate_path_name_len(const struct spaa_aggregate *a, uint32_t path);
void spaa_aggregate_path_name_to(const struct spaa_aggregate *a, uint32_t path,
				 bool leaf_first, char *d);

/* spaa_rank_sort_joined of the aggregate's folded call paths. */
void spaa_aggregate_rank_paths(const struct spaa_aggregate *a, struct spaa_rank *r, size_t n);

#endif
