/*
 * spaa_reader_impl - what the files of the SPAA reader share; private to
 * common/formats/spaa_reader*.c (the reader's interface is spaa_reader.h).
 *
 * spaa_reader.c drives a file: the line loop, sample records (and their
 * fast path), warnings, the checks that need the whole file.
 * spaa_reader_records.c reads the other records: header, dso, frame,
 * thread, stack, window, and the typed field access they all use.
 *
 * The reader keeps, per file, maps from the file's own ids (dso, frame,
 * stack, tid) to model indices; the model itself is shared by all files
 * of a load.  Records are validated as they stream by; the few checks
 * that need the whole file (references to stacks defined later, related
 * stacks) run at its end.
 *
 * Ownership: struct spaa_reader owns its maps, buffers and caches (freed at
 * the end of spaa_reader_read); it borrows the profile, the options and
 * the input.
 */
#ifndef SPAA_SPAA_READER_IMPL_H
#define SPAA_SPAA_READER_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/idcache.h"
#include "formats/load.h"
#include "formats/spaa_stack_scan.h"
#include "io/input.h"
#include "io/json.h"
#include "model/error.h"
#include "model/map.h"
#include "model/profile.h"
#include "model/repeats.h"


#define SPAA_READER_WARN_KINDS 16

/* Repeated warnings of one kind are folded into one line with a count. */
struct spaa_reader_warn_kind {
	const char *key;        /* a string literal naming the kind */
	unsigned long count, line;
	char msg[256];          /* the first occurrence */
};

#define SPAA_READER_TID_CACHE 64
/* spaa_reader.names: slots, and the longest string kept */
#define SPAA_READER_NAME_CACHE 64
#define SPAA_READER_NAME_TEXT 16

/* Up to this many events in a header, a record's event is found by name. */
#define SPAA_READER_EVENTS_SCAN 4

/*
 * How many scanned records ahead on_sample_soon is told of a stack:
 * far enough for memory to arrive by then, near enough for what it
 * fetched to still be in cache.
 */
#define SPAA_READER_SOON_NEAR 8
#define SPAA_READER_SOON_FAR 16
#define SPAA_READER_SOON_RING (SPAA_READER_SOON_FAR - SPAA_READER_SOON_NEAR)

/*
 * What makes two stack records of a file one (merge_repeat): all but the
 * weights' values, the metrics by a hash (memset: no padding).
 */
struct spaa_reader_ctx_key {
	uint32_t stack, event, comm, labels, excl_frame, nweights, nexcl, metrics;
	int64_t pid, tid, cpu;
};

struct spaa_reader_related {
	uint32_t record, stack;
};

/* per-file reference state of the stacks created by this file */
enum { SPAA_READER_REF_NEEDED = 1, SPAA_READER_REF_RELATED = 2 };

struct spaa_reader {
	struct spaa_profile *p;
	const struct spaa_load_opts *o;
	struct spaa_input *in;
	const char *path;
	uint32_t file;
	unsigned long line;
	struct spaa_json_parser *jp;
	uint64_t bytes_base, bytes_total;
	/* a stack record's scan by the reader (one the scanner did not scan) */
	struct spaa_stack_scan stack_scan;
	uint64_t stack_frames[SPAA_STACK_SCAN_FRAMES];

	bool seen_header;
	unsigned long header_line;
	bool root_to_leaf;
	int time_exp10;         /* decimal scale from the header's time unit to ns */
	uint32_t *events;       /* this file's events, as global indices */
	uint32_t nevents;
	size_t events_alloc;
	struct spaa_map file_events;    /* global index -> position in events */

	struct spaa_map dso_ids;        /* u64 id -> dense, see dso_of */
	uint32_t *dso_of;
	size_t dso_of_alloc;
	struct spaa_map frame_ids;
	uint32_t *frame_of;
	size_t frame_of_alloc;
	/*
	 * The frames of ids below SPAA_READER_FRAME_DIRECT too, by id (SPAA_NONE:
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
	/*
	 * Content of earlier files of the load (repeats.h), or NULL: frames
	 * and stacks defined here bind to equal ones found there, and the
	 * records merge into equal ones at the end of the file.
	 */
	struct spaa_repeats *rep;
	/* where an id bound to an earlier file's stack was defined here, by id */
	unsigned long *shared_line;
	size_t shared_line_alloc;
	struct spaa_idcache ids;            /* the fast path's id text -> string */
	/*
	 * Short strings interned lately, by their length and end bytes:
	 * every stack record names its metrics and units again ("samples",
	 * "period", "events"), each a hash and a probe of the string table
	 * otherwise.  len 0: an empty slot.
	 */
	struct {
		uint32_t id;
		uint8_t len;
		char text[SPAA_READER_NAME_TEXT];
	} names[SPAA_READER_NAME_CACHE];
	uint32_t *prov_stack;           /* scanner's id number -> stack, or SPAA_NONE */
	size_t prov_stack_alloc;
	/* the scanner's number for the id of the record read now, or SPAA_NONE */
	uint32_t record_prov;
	/* stacks told far ahead, to be told near (sample_soon) */
	uint32_t soon[SPAA_READER_SOON_RING];
	unsigned soon_at;
	uint32_t stack_base;            /* first stack index of this file */
	uint32_t record_base;           /* first record index of this file */
	uint32_t weight_base;           /* first weight_pool entry of this file */
	uint32_t window_entry_base;     /* first window entry of this file */
	uint32_t period_metric;         /* a name that is no metric: sample periods */
	uint8_t *ref;                   /* REF_* by stack - stack_base */
	size_t ref_alloc;
	struct spaa_map tids;           /* tid -> dense, see thread_of */
	/*
	 * The last lookups of tids by tid % SPAA_READER_TID_CACHE (every sample looks
	 * its thread up); emptied whenever a thread record rebinds a tid.
	 */
	struct { int64_t tid; uint32_t thread; } tid_cache[SPAA_READER_TID_CACHE];
	/* index in p->totals of the sample periods of each event, or SPAA_NONE */
	uint32_t *period_total;
	size_t period_total_alloc;
	uint32_t *thread_of;
	size_t thread_of_alloc;

	struct spaa_reader_related *related;
	size_t nrelated, related_alloc;

	uint32_t *fbuf;                 /* scratch: frames of the current stack */
	size_t fbuf_alloc;
	struct spaa_weight *wbuf;       /* scratch: weights */
	size_t wbuf_alloc;

	struct spaa_map window_ids;     /* id text (string index) of windows */
	/*
	 * fold_repeats: a record's stack, context and metrics -> this
	 * file's record of them (same_record), so that a stack record
	 * repeating one of the file's own is added to it, not stored again.
	 */
	struct spaa_map same_ctx;
	uint32_t *same_record;
	size_t same_record_alloc;
	bool same_ctx_made;     /* made only once a twin can be (same_ctx_make) */

	struct spaa_reader_warn_kind warns[SPAA_READER_WARN_KINDS];
	int nwarns;

	/* validating mode (opts->findings.fn set) */
	unsigned long nfindings;        /* records reported and skipped */
	bool header_missing;            /* reported; skip records until a header */
	bool callback_failed;           /* on_sample's error: never skipped */
};

#define SPAA_READER_FRAME_DIRECT ((uint64_t)1 << 20)

/* An invalid record: err names the file and line; returns -1. */
int spaa_reader_bad(struct spaa_reader *r, struct spaa_error *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Returns false if key was already bound. */
bool spaa_reader_bind(struct spaa_map *m, uint32_t **values, size_t *alloc,
		 const void *key, uint32_t value);

/* Binds a frame id of this file; false if it was bound already. */
bool spaa_reader_bind_frame(struct spaa_reader *r, uint64_t id, uint32_t frame);

/* The frame bound to id in this file, or SPAA_NONE. */
uint32_t spaa_reader_frame_lookup(const struct spaa_reader *r, uint64_t id);

/* The bound on one header's events (SPAA_MAX_EVENTS). */
uint32_t spaa_reader_max_events(const struct spaa_load_opts *o);

/* Interns a string of the file, within the bound on distinct strings. */
int spaa_reader_intern(struct spaa_reader *r, const char *str, size_t len, uint32_t *out,
		  struct spaa_error *err);

/* The value bound to key, or SPAA_NONE. */
uint32_t spaa_reader_lookup(const struct spaa_map *m, const uint32_t *values,
		       const void *key);

/* The event a record names (NULL: the first), or an error. */
int spaa_reader_record_event(struct spaa_reader *r, const struct spaa_json_value *name,
			const char *rtype, uint32_t *out, struct spaa_error *err);

/* The stack bound to id text in this file (SPAA_NONE: none yet), to set. */
uint32_t *spaa_reader_stack_slot(struct spaa_reader *r, uint32_t id);

/* The stack named by id text, creating a placeholder on first sight. */
uint32_t spaa_reader_stack_ref(struct spaa_reader *r, uint32_t id, uint8_t how);

/*
 * Binds the scanner's number prov (SPAA_NONE: nothing to do) to stack:
 * the samples whose id text it numbers then find their stack in
 * prov_stack, without looking the text up.
 */
void spaa_reader_prov_bind(struct spaa_reader *r, uint32_t prov, uint32_t stack);

/* Fills in the pid of a thread known only by tid (spec 3.4). */
void spaa_reader_thread_pid(struct spaa_reader *r, int64_t tid, int64_t *pid, uint32_t *comm);

/* Forgets the cached tid lookups (a thread record rebound a tid). */
void spaa_reader_tid_cache_clear(struct spaa_reader *r);

/* A warning of kind key (a string literal), folded with its repeats. */
void spaa_reader_warn(struct spaa_reader *r, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Fetches member key of obj and checks its JSON type (SPAA_JSON_TRUE stands for
 * "a boolean").  Returns 1 if present, 0 if absent (or null) and not
 * required, -1 with err set otherwise.
 */
int spaa_reader_field(struct spaa_reader *r, const struct spaa_json_value *obj,
		 const char *rtype, const char *key, enum spaa_json_type want,
		 bool required, const struct spaa_json_value **out,
		 struct spaa_error *err);

/* Optional signed id field (pid, tid, cpu): SPAA_NO_ID when absent. */
int spaa_reader_opt_i64(struct spaa_reader *r, const struct spaa_json_value *obj,
		   const char *rtype, const char *key, int64_t *out,
		   struct spaa_error *err);

/* The readers of each record type: 0, or -1 with err set. */
int spaa_reader_read_dso(struct spaa_reader *r, const struct spaa_json_value *v,
		    struct spaa_error *err);

int spaa_reader_read_frame(struct spaa_reader *r, const struct spaa_json_value *v,
		      struct spaa_error *err);

int spaa_reader_read_header(struct spaa_reader *r, const struct spaa_json_value *v,
		       struct spaa_error *err);

int spaa_reader_read_stack(struct spaa_reader *r, const struct spaa_json_value *v,
		      struct spaa_error *err);

/* A stack record that spaa_stack_scan read from line, as read_stack reads it. */
int spaa_reader_commit_stack(struct spaa_reader *r, const char *line,
			     const struct spaa_stack_scan *st, struct spaa_error *err);

int spaa_reader_read_thread(struct spaa_reader *r, const struct spaa_json_value *v,
		       struct spaa_error *err);

int spaa_reader_read_window(struct spaa_reader *r, const struct spaa_json_value *v,
		       struct spaa_error *err);

/* A stack id: a string, or a number kept as its digits. */
int spaa_reader_stack_id_text(struct spaa_reader *r, const struct spaa_json_value *v,
			 const char *rtype, const char *key, uint32_t *out,
			 struct spaa_error *err);

/* Interned string member; 0 when absent and optional. */
int spaa_reader_str_field(struct spaa_reader *r, const struct spaa_json_value *obj,
		     const char *rtype, const char *key, bool required,
		     uint32_t *out, struct spaa_error *err);

/* Time value in the file's unit (exp10 digits below ns) to ns, exactly. */
int spaa_reader_time_value(struct spaa_reader *r, const struct spaa_json_value *v,
		      const char *rtype, const char *key, int exp10,
		      int64_t *out, struct spaa_error *err);

/* A non-negative integer below 2^64, exactly. */
int spaa_reader_u64_value(struct spaa_reader *r, const struct spaa_json_value *v,
		     const char *rtype, const char *key, uint64_t *out,
		     struct spaa_error *err);

#endif
