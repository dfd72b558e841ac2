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
 * An id text as four words: its bytes zero-padded to 27, then its
 * length (byte 27; the top half of w[3] is zero).  Hashed and compared
 * as words: no byte loop, no memcmp call.
 */
struct spaa_idcache_key {
	uint64_t w[4];
};

/* A key's first 28 bytes and a string index, in 32 bytes. */
struct spaa_idcache_slot {
	uint64_t w[3];
	uint32_t w3;            /* the key's w[3] */
	uint32_t str;           /* string index; 0 = empty slot */
};

_Static_assert(sizeof(struct spaa_idcache_slot) == 32, "an id slot is 32 bytes");

struct spaa_idcache {
	struct spaa_idcache_slot *slots;  /* owned */
	size_t mask, nr;
};

static inline uint64_t spaa_idcache_load(const char *p, size_t n)
{
	uint64_t w = 0;

	memcpy(&w, p, n);
	return w;
}

/*
 * The key of id text s (0 < len <= SPAA_IDCACHE_TEXT), from loads of the
 * text alone: a key written to memory a few bytes at a time and read
 * back as words stalls each of those reads until the writes have gone
 * (store forwarding fails), which made half of the scanner's numbering
 * time.  The last partial word is a load that ends with the text,
 * shifted; on a big-endian machine, bytes then go one at a time.
 */
static inline struct spaa_idcache_key spaa_idcache_key(const char *s, size_t len)
{
	struct spaa_idcache_key k = { { 0, 0, 0, 0 } };
	size_t i = 0;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (len >= 8) {
		for (; i + 8 <= len; i += 8)
			k.w[i / 8] = spaa_idcache_load(s + i, 8);
		if (i < len)
			k.w[i / 8] = spaa_idcache_load(s + len - 8, 8) >> (8 * (8 - (len - i)));
	} else if (len >= 4) {
		k.w[0] = spaa_idcache_load(s, 4) |
			 spaa_idcache_load(s + len - 4, 4) << (8 * (len - 4));
	} else {
		k.w[0] = (uint64_t)(unsigned char)s[0] |
			 (uint64_t)(unsigned char)s[len / 2] << (8 * (len / 2)) |
			 (uint64_t)(unsigned char)s[len - 1] << (8 * (len - 1));
	}
#else
	for (; i < len; i++)
		k.w[i / 8] |= (uint64_t)(unsigned char)s[i] << (8 * (i % 8));
#endif
	k.w[3] |= (uint64_t)len << 24;
	return k;
}

/* Every word multiplied by its own odd constant, then mixed once. */
static inline uint64_t spaa_idcache_hash(const struct spaa_idcache_key *k)
{
	uint64_t h = k->w[0] * 0x9e3779b97f4a7c15ULL ^ k->w[1] * 0xc2b2ae3d27d4eb4fULL ^
		     k->w[2] * 0x165667b19e3779f9ULL ^ k->w[3] * 0xd6e8feb86659fd93ULL;

	h ^= h >> 32;
	h *= 0xff51afd7ed558ccdULL;
	return h ^ h >> 29;
}

static inline bool spaa_idcache_slot_is(const struct spaa_idcache_slot *e,
					const struct spaa_idcache_key *k)
{
	return !((e->w[0] ^ k->w[0]) | (e->w[1] ^ k->w[1]) | (e->w[2] ^ k->w[2]) |
		 (e->w3 ^ k->w[3]));
}

/* The string index cached for key k of hash h, or 0. */
static inline uint32_t spaa_idcache_lookup(const struct spaa_idcache *c,
					   const struct spaa_idcache_key *k, uint64_t h)
{
	for (size_t i = h & c->mask; c->slots && c->slots[i].str; i = (i + 1) & c->mask)
		if (spaa_idcache_slot_is(&c->slots[i], k))
			return c->slots[i].str;
	return 0;
}

/* Adds key k of hash h with string index str (> 0), not there yet. */
void spaa_idcache_add(struct spaa_idcache *c, uint64_t h,
		      const struct spaa_idcache_key *k, uint32_t str);
void spaa_idcache_release(struct spaa_idcache *c);

#endif
