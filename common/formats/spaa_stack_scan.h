/*
 * spaa_stack_scan - the SPAA stack records of the common shape, read
 * straight from the line without a JSON tree, as spaa_sample_scan.h
 * reads samples: an object of the keys type, id, frames, stack_type,
 * context, weights and exclusive (in any order, each at most once), a
 * stack_type the reader knows, the context
 * of event, pid, tid, cpu and comm, weights of metric, unit and value,
 * plain ASCII strings, integer frame ids and values of up to 18 digits.
 * Anything else (labels, related_stacks, an unknown key, a
 * repeated key, null, an escape, more frames or weights than the bounds
 * below) is not scanned, and the reader's general path reads the line.
 *
 * The scan only reads the line; what the record means (its frames known,
 * its event declared, its metrics) the reader checks as it commits it,
 * in the general path's order and with its messages
 * (spaa_reader_commit_stack).
 */
#ifndef SPAA_SPAA_STACK_SCAN_H
#define SPAA_SPAA_STACK_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/profile.h"

/* Frames and weights (each list) a scanned record has at most. */
#define SPAA_STACK_SCAN_FRAMES 256
#define SPAA_STACK_SCAN_WEIGHTS 8

/* A string of the line: its bytes between the quotes; off 0 when absent. */
struct spaa_stack_scan_text {
	uint32_t off, len;
};

struct spaa_stack_scan_weight {
	uint64_t value;
	struct spaa_stack_scan_text metric, unit;
};

struct spaa_stack_scan {
	/* a string's bytes, or a number's text, as the general path interns it */
	struct spaa_stack_scan_text id;
	struct spaa_stack_scan_text event, comm;
	int64_t pid, tid, cpu;          /* SPAA_NO_ID when absent */
	uint64_t excl_frame;
	uint32_t nframes;
	enum spaa_stack_type type;      /* SPAA_STACK_UNIFIED when absent */
	uint8_t nweights, nexcl;
	bool has_excl;
	struct spaa_stack_scan_weight weights[SPAA_STACK_SCAN_WEIGHTS];
	struct spaa_stack_scan_weight excl[SPAA_STACK_SCAN_WEIGHTS];
	/* the ids as written: room for SPAA_STACK_SCAN_FRAMES, the caller's */
	uint64_t *frames;
};

/*
 * Reads a line of the common shape into *st, whose frames the caller has
 * set: false for anything else.
 */
bool spaa_stack_scan_line(const char *line, size_t len, struct spaa_stack_scan *st);

#endif
