/*
 * map - a hash table of fixed-size binary keys (ids, (stack, thread,
 * cpu) tuples...), the table most of the model is built on; strtab.h is
 * its twin for strings.
 *
 * It hands out dense indices 0, 1, 2, ... in insertion order, so callers
 * keep their values in plain parallel arrays indexed by them, and
 * iterating "in order of first appearance" is free.  It never removes an
 * entry: profiles only grow while they are read.  Keys are compared with
 * memcmp, so callers must zero any padding in key structs (memset before
 * filling them).
 *
 * Ownership: a struct spaa_map owns its keys and slots.  spaa_map_init
 * makes an empty map (no allocation yet); spaa_map_release frees both
 * and leaves an empty map of the same key size, so releasing twice is
 * harmless.  A zeroed struct is not a valid map (its key size is 0) but
 * may be released.
 */
#ifndef SPAA_MAP_H
#define SPAA_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/util.h"

struct spaa_map {
	size_t keysize;
	unsigned char *keys;    /* owned; nr * keysize bytes, insertion order */
	uint32_t nr;
	size_t alloc;           /* bytes allocated for keys */
	uint64_t *slots;        /* owned; power of two (hashslot.h) */
	size_t mask;
};

void spaa_map_init(struct spaa_map *m, size_t keysize);
void spaa_map_release(struct spaa_map *m);

/* Empties m, keeping its arrays for the keys interned next. */
void spaa_map_clear(struct spaa_map *m);

/* Index of key, or SPAA_NONE. */
uint32_t spaa_map_find(const struct spaa_map *m, const void *key);

/* Index of key, inserting it (with the next index) when absent. */
uint32_t spaa_map_intern(struct spaa_map *m, const void *key, bool *created);

/* Borrowed pointer to the key of index i (moves when the map grows). */
static inline const void *spaa_map_key(const struct spaa_map *m, uint32_t i)
{
	return m->keys + (size_t)i * m->keysize;
}

#endif
