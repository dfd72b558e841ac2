/*
 * idcache - short id texts with a number (a string index of the model, or
 * the scanner's own numbering), inline in the slots of an open-addressing
 * table: the SPAA reader's fast path finds a sample's stack id with one
 * memory access, where the string table needs several (slot, pointer,
 * length, bytes), each a cache miss in a profile of many stacks.  The
 * reader keeps in it exactly what spaa_strtab_intern returns for each
 * text, so the model is the same with or without it.
 *
 * Texts longer than SPAA_IDCACHE_TEXT bytes, or empty, are not cached.
 * Ownership: a zeroed struct spaa_idcache is an empty cache; it owns its
 * slots, freed by spaa_idcache_release (which zeroes it again).
 */
#ifndef SPAA_IDCACHE_H
#define SPAA_IDCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define SPAA_IDCACHE_TEXT 27

/*
 * The text zero-padded and its length fill the first 28 bytes, compared
 * and hashed as words (id_key): no byte loop, no memcmp call.
 */
struct spaa_idcache_slot {
	char text[SPAA_IDCACHE_TEXT];
	uint8_t len;
	uint32_t str;           /* string index; 0 = empty slot */
};

/* The first 28 bytes of a slot as words, the last one's top half zero. */
struct spaa_idcache_key {
	uint64_t w[4];
};

_Static_assert(offsetof(struct spaa_idcache_slot, str) == 28 && sizeof(struct spaa_idcache_slot) == 32,
	       "an id slot is its 28 bytes of key and a string index");

struct spaa_idcache {
	struct spaa_idcache_slot *slots;  /* owned */
	size_t mask, nr;
};

static inline struct spaa_idcache_key spaa_idcache_key_of(const struct spaa_idcache_slot *e)
{
	struct spaa_idcache_key k = { { 0, 0, 0, 0 } };

	memcpy(k.w, e, offsetof(struct spaa_idcache_slot, str));
	return k;
}

static inline bool spaa_idcache_key_eq(const struct spaa_idcache_key *a, const struct spaa_idcache_key *b)
{
	return !((a->w[0] ^ b->w[0]) | (a->w[1] ^ b->w[1]) |
		 (a->w[2] ^ b->w[2]) | (a->w[3] ^ b->w[3]));
}

/* Every word multiplied by its own odd constant, then mixed once. */
static inline uint64_t spaa_idcache_key_hash(const struct spaa_idcache_key *k)
{
	uint64_t h = k->w[0] * 0x9e3779b97f4a7c15ULL ^ k->w[1] * 0xc2b2ae3d27d4eb4fULL ^
		     k->w[2] * 0x165667b19e3779f9ULL ^ k->w[3] * 0xd6e8feb86659fd93ULL;

	h ^= h >> 32;
	h *= 0xff51afd7ed558ccdULL;
	return h ^ h >> 29;
}

/* The slot of id text s (0 < len <= SPAA_IDCACHE_TEXT) to look up; its hash. */
static inline uint64_t spaa_idcache_slot_of(const char *s, size_t len, struct spaa_idcache_slot *e)
{
	struct spaa_idcache_key k;

	/* zero-padded, so slots compare whole, in a few word compares */
	memset(e, 0, sizeof(*e));
	memcpy(e->text, s, len);
	e->len = (uint8_t)len;
	k = spaa_idcache_key_of(e);
	return spaa_idcache_key_hash(&k);
}

/* The string index cached for slot e of hash h, or 0. */
static inline uint32_t spaa_idcache_lookup(const struct spaa_idcache *c, const struct spaa_idcache_slot *e,
				uint64_t h)
{
	struct spaa_idcache_key k = spaa_idcache_key_of(e);

	for (size_t i = h & c->mask; c->slots && c->slots[i].str; i = (i + 1) & c->mask) {
		struct spaa_idcache_key ki = spaa_idcache_key_of(&c->slots[i]);

		if (spaa_idcache_key_eq(&ki, &k))
			return c->slots[i].str;
	}
	return 0;
}

/* Adds slot e (from spaa_idcache_slot_of, its number set) of hash h. */
void spaa_idcache_add(struct spaa_idcache *c, uint64_t h,
		      const struct spaa_idcache_slot *e);
void spaa_idcache_release(struct spaa_idcache *c);

#endif
