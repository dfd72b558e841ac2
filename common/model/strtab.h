/*
 * strtab - a table of interned byte strings: function names, and folded
 * stack paths stored as arrays of function indices.
 *
 * Like map.h, it hands out dense indices in insertion order and never
 * removes an entry.  Each string is stored once, NUL terminated, in
 * chunks that never move, so returned pointers stay valid until
 * spaa_strtab_release.  Index 0 is always the empty string, so 0 can
 * mean "absent".
 *
 * Ownership: the table owns every string and its chunks.  spaa_strtab_init
 * allocates (it interns ""); spaa_strtab_release frees everything and
 * zeroes the struct, so a zeroed or released table may be released again.
 */
#ifndef SPAA_STRTAB_H
#define SPAA_STRTAB_H

#include <stddef.h>
#include <stdint.h>

#include "model/util.h"

struct spaa_strtab {
	char **chunks;          /* owned, each owned */
	size_t nchunks, chunks_alloc;
	size_t chunk_used, chunk_size;
	const char **strs;      /* weak pointers into chunks, by index */
	uint32_t *lens;
	uint32_t nr;
	size_t alloc;
	uint64_t *slots;        /* owned; see hashslot.h */
	size_t mask;
	/* owned, NULL unless kept (spaa_strtab_keep_hashes): each string's hash */
	uint64_t *hashes;
};

void spaa_strtab_init(struct spaa_strtab *t);
void spaa_strtab_release(struct spaa_strtab *t);
/*
 * Empties t as spaa_strtab_init leaves it, keeping its index arrays and
 * hash slots for the strings interned next (a table filled again and
 * again, file after file, allocates and rehashes once).
 */
void spaa_strtab_clear(struct spaa_strtab *t);

uint32_t spaa_strtab_intern(struct spaa_strtab *t, const void *s, size_t len);
/* The same, h being spaa_hash_bytes(s, len) (spaa_strtab_hash of another table). */
uint32_t spaa_strtab_intern_hashed(struct spaa_strtab *t, const void *s, size_t len,
				   uint64_t h);
/*
 * From now on t keeps the hash of each string it holds (8 bytes a
 * string), so that another table finds them without hashing them again
 * (formats/graft.h: a file's model added to a load's).
 */
void spaa_strtab_keep_hashes(struct spaa_strtab *t);
/*
 * Makes room for n entries in all (a hint: more may still be interned)
 * so that interning up to n rehashes nothing: a table grown from empty
 * rehashes every string it holds at each doubling, and reads them again
 * to do it.
 */
void spaa_strtab_reserve(struct spaa_strtab *t, size_t n);

/* Index of s, or SPAA_NONE. */
uint32_t spaa_strtab_find(const struct spaa_strtab *t, const void *s, size_t len);
/* The same, h being spaa_hash_bytes(s, len). */
uint32_t spaa_strtab_find_hashed(const struct spaa_strtab *t, const void *s, size_t len,
				 uint64_t h);

/* Borrowed, NUL-terminated, valid until release. */
static inline const char *spaa_strtab_get(const struct spaa_strtab *t, uint32_t i)
{
	return t->strs[i];
}

static inline uint32_t spaa_strtab_len(const struct spaa_strtab *t, uint32_t i)
{
	return t->lens[i];
}

/* spaa_hash_bytes of string i: kept, or computed. */
static inline uint64_t spaa_strtab_hash(const struct spaa_strtab *t, uint32_t i)
{
	return t->hashes ? t->hashes[i] : spaa_hash_bytes(t->strs[i], t->lens[i]);
}

/*
 * For an entry that holds an array of uint32_t ids (a folded call path):
 * name(ctx, id) of each id, joined with sep, in a malloc'ed string the
 * caller owns.
 */
char *spaa_strtab_join(const struct spaa_strtab *t, uint32_t i,
		       const char *(*name)(const void *ctx, uint32_t id),
		       const void *ctx, char sep);

/*
 * strcmp of the texts spaa_strtab_join would make of entries i and j
 * (names must hold no NUL), without making them.
 */
int spaa_strtab_join_cmp(const struct spaa_strtab *t, uint32_t i, uint32_t j,
			 const char *(*name)(const void *ctx, uint32_t id),
			 const void *ctx, char sep);

#endif
