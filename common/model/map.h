/*
 * map - the two hash tables everything else is built on.
 *
 * Both hand out dense indices 0, 1, 2, ... in insertion order, so callers
 * keep their values in plain parallel arrays indexed by them, and iterating
 * "in order of first appearance" is free.  Neither ever removes an entry:
 * profiles only grow while they are read.
 *
 * spaa_map: fixed-size binary keys (ids, (stack, thread, cpu) tuples...).
 * Keys are compared with memcmp, so callers must zero any padding in key
 * structs (memset before filling them).
 *
 * spaa_strtab: variable-length byte strings (function names, folded stack
 * paths as arrays of function indices).  Each string is stored once, NUL
 * terminated, in chunks that never move, so returned pointers stay valid
 * until spaa_strtab_release.
 */
#ifndef SPAA_MAP_H
#define SPAA_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SPAA_NONE UINT32_MAX

struct spaa_map {
	size_t keysize;
	unsigned char *keys;    /* owned; nr * keysize bytes, insertion order */
	uint32_t nr;
	size_t alloc;           /* bytes allocated for keys */
	uint64_t *slots;        /* owned; power of two; see map.c */
	size_t mask;
};

void spaa_map_init(struct spaa_map *m, size_t keysize);
void spaa_map_release(struct spaa_map *m);

/* Index of key, or SPAA_NONE. */
uint32_t spaa_map_find(const struct spaa_map *m, const void *key);

/* Index of key, inserting it (with the next index) when absent. */
uint32_t spaa_map_intern(struct spaa_map *m, const void *key, bool *created);

/* Borrowed pointer to the key of index i (moves when the map grows). */
static inline const void *spaa_map_key(const struct spaa_map *m, uint32_t i)
{
	return m->keys + (size_t)i * m->keysize;
}

struct spaa_strtab {
	char **chunks;          /* owned, each owned */
	size_t nchunks, chunks_alloc;
	size_t chunk_used, chunk_size;
	const char **strs;      /* weak pointers into chunks, by index */
	uint32_t *lens;
	uint32_t nr;
	size_t alloc;
	uint64_t *slots;        /* owned; see map.c */
	size_t mask;
};

/* Index 0 is always the empty string, so 0 can mean "absent". */
void spaa_strtab_init(struct spaa_strtab *t);
void spaa_strtab_release(struct spaa_strtab *t);

uint32_t spaa_strtab_intern(struct spaa_strtab *t, const void *s, size_t len);
uint32_t spaa_strtab_find(const struct spaa_strtab *t, const void *s, size_t len);

/* Borrowed, NUL-terminated, valid until release. */
static inline const char *spaa_strtab_get(const struct spaa_strtab *t, uint32_t i)
{
	return t->strs[i];
}

static inline uint32_t spaa_strtab_len(const struct spaa_strtab *t, uint32_t i)
{
	return t->lens[i];
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
