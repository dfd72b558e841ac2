/*
 * repeats - the content earlier files of one load put in the model, found
 * by content, so that a later file stores what it repeats only once.
 *
 * A directory of reports of one program (one SPX report per request, one
 * profile per host and hour) repeats the same frames, stacks and contexts
 * in every file.  Stored per file, the model (frames, stacks, stack
 * records and their pools) grows with the number of files; with this
 * index it grows with what differs: a later file binds its ids to equal
 * frames and stacks of earlier files, and its stack records are merged
 * into equal records of earlier files, weights summed.  Every sum an
 * analysis makes over records is the same either way; only the number
 * of records and stacks differs (spaa-validate and spaa-convert, which
 * report or copy those, load without it).
 *
 * Only content of earlier files is found: spaa_repeats_index runs between
 * files, so a file's own repeats (two frame records alike) stay as the
 * reader made them, and a load of one file never builds the index at
 * all; a stack record that repeats one of its own file the SPAA reader
 * adds to it itself (spaa_reader_records.c, merge_repeat).
 *
 * Equal means: frames with every field equal; stacks of the same type
 * and frames; records of the same stack, event, pid, tid, cpu, comm,
 * exclusive frame, absorption, and metrics and units in the same order,
 * whose logical frames are their stack's (a record joined with a related
 * kernel stack is never merged).
 *
 * Ownership: a struct spaa_repeats owns its tables and scratch;
 * spaa_repeats_init makes an empty index, spaa_repeats_release frees it
 * and leaves it empty (a zeroed struct may be released).  The profile is
 * borrowed by each call.
 */
#ifndef SPAA_REPEATS_H
#define SPAA_REPEATS_H

#include <stddef.h>
#include <stdint.h>

#include "model/map.h"
#include "model/profile.h"
#include "model/strtab.h"

struct spaa_repeats {
	struct spaa_map frames;         /* frame fields -> frame_of */
	uint32_t *frame_of;
	size_t frame_of_alloc;
	struct spaa_strtab stacks;      /* (type, frames) -> stack_of */
	uint32_t *stack_of;
	size_t stack_of_alloc;
	/*
	 * Records by key, the key not copied: a slot (hashslot.h) holds
	 * the index of a record, and a probe compares with that record in
	 * the model (a directory of reports of distinct processes has a
	 * record per process and call path, and a copy of each key was
	 * twice the record).  record_mask + 1 slots, or none.
	 */
	uint64_t *record_slots;
	size_t record_mask;
	uint32_t nrecord_keys;
	/* model entries indexed so far: [0, n) of each array */
	uint32_t nframes, nstacks, nrecords;
	unsigned char *key, *key2;      /* scratch for variable keys */
	size_t key_alloc, key2_alloc;
};

void spaa_repeats_init(struct spaa_repeats *r);
void spaa_repeats_release(struct spaa_repeats *r);

/* Indexes the frames, defined stacks and records p gained since the last call. */
void spaa_repeats_index(struct spaa_repeats *r, const struct spaa_profile *p);

/* An indexed frame equal to f, or SPAA_NONE. */
uint32_t spaa_repeats_frame(struct spaa_repeats *r, const struct spaa_frame *f);

/* An indexed stack of this type and frames (n, leaf first), or SPAA_NONE. */
uint32_t spaa_repeats_stack(struct spaa_repeats *r, enum spaa_stack_type type,
			    const uint32_t *frames, uint32_t n);

/*
 * Merges the records from record_base on (the file just read) into equal
 * indexed records, adding their weights, and closes the gaps they leave:
 * in p->records (the stacks' record lists are relinked, order kept) and
 * in the weight pool from weight_base on, which must hold only the
 * weights of those records and of the window entries from
 * window_entry_base on.  A record whose sums would overflow 64 bits stays
 * apart.  Returns the number of records merged.
 */
uint32_t spaa_repeats_merge_records(struct spaa_repeats *r, struct spaa_profile *p,
				    uint32_t record_base, uint32_t window_entry_base,
				    uint32_t weight_base);

#endif
