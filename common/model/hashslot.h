/*
 * hashslot - the slot array that map.h and strtab.h probe: private to
 * the model layer (nothing outside common/model/ includes it).
 *
 * Tables are open addressing with linear probing over a slot array; the
 * keys themselves live in insertion order.  Load is kept under 1/2 so
 * probes stay short.  A slot holds the dense index in its low 32 bits
 * and the high 32 bits of the key's hash above them, so a probe that
 * meets another key is almost always told apart by the slot alone,
 * without touching (and comparing) that key: profiles look up every
 * sample's stack and fold key, and those keys are scattered in memory.
 */
#ifndef SPAA_HASHSLOT_H
#define SPAA_HASHSLOT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "model/util.h"

#define SPAA_HASHSLOT_EMPTY UINT64_MAX

static inline uint64_t spaa_hashslot_of(uint64_t hash, uint32_t index)
{
	return (hash & 0xffffffff00000000ULL) | index;
}

static inline uint32_t spaa_hashslot_index(uint64_t slot)
{
	return (uint32_t)slot;
}

/* Whether slot may hold the key of hash (its high 32 bits match). */
static inline bool spaa_hashslot_has(uint64_t slot, uint64_t hash)
{
	return (slot ^ hash) >> 32 == 0;
}

/* A slot array of n (a power of two) empty slots, malloc'ed. */
static inline uint64_t *spaa_hashslot_new(size_t n)
{
	uint64_t *slots = spaa_xmalloc(n * sizeof(*slots));

	memset(slots, 0xff, n * sizeof(*slots));
	return slots;
}

#endif
