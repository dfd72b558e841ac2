#include <stdlib.h>
#include <string.h>

#include "model/map.h"
#include "model/util.h"

/*
 * Tables are open addressing with linear probing over a slot array; the
 * keys themselves live in insertion order.  Load is kept under 1/2 so
 * probes stay short.  A slot holds the dense index in its low 32 bits
 * and the high 32 bits of the key's hash above them, so a probe that
 * meets another key is almost always told apart by the slot alone,
 * without touching (and comparing) that key: profiles look up every
 * sample's stack and fold key, and those keys are scattered in memory.
 */

#define SLOT_EMPTY UINT64_MAX

static uint64_t hash_key(const void *key, size_t n)
{
	return spaa_hash_bytes(key, n);
}

static uint64_t slot_of(uint64_t hash, uint32_t index)
{
	return (hash & 0xffffffff00000000ULL) | index;
}

static uint32_t slot_index(uint64_t slot)
{
	return (uint32_t)slot;
}

static bool slot_has(uint64_t slot, uint64_t hash)
{
	return (slot ^ hash) >> 32 == 0;
}

/* A slot array of n (a power of two) empty slots. */
static uint64_t *slots_new(size_t n)
{
	uint64_t *slots = spaa_xmalloc(n * sizeof(*slots));

	memset(slots, 0xff, n * sizeof(*slots));
	return slots;
}

void spaa_map_init(struct spaa_map *m, size_t keysize)
{
	memset(m, 0, sizeof(*m));
	m->keysize = keysize;
}

void spaa_map_release(struct spaa_map *m)
{
	free(m->keys);
	free(m->slots);
	spaa_map_init(m, m->keysize);
}

static void map_rehash(struct spaa_map *m)
{
	size_t n = m->slots ? (m->mask + 1) * 2 : 64;

	free(m->slots);
	m->slots = slots_new(n);
	m->mask = n - 1;
	for (uint32_t i = 0; i < m->nr; i++) {
		uint64_t h = hash_key(spaa_map_key(m, i), m->keysize);
		size_t s = h & m->mask;

		while (m->slots[s] != SLOT_EMPTY)
			s = (s + 1) & m->mask;
		m->slots[s] = slot_of(h, i);
	}
}

static size_t map_probe(const struct spaa_map *m, const void *key, uint64_t h)
{
	size_t s = h & m->mask;

	while (m->slots[s] != SLOT_EMPTY &&
	       !(slot_has(m->slots[s], h) &&
		 !memcmp(spaa_map_key(m, slot_index(m->slots[s])), key, m->keysize)))
		s = (s + 1) & m->mask;
	return s;
}

uint32_t spaa_map_find(const struct spaa_map *m, const void *key)
{
	if (!m->slots)
		return SPAA_NONE;
	return slot_index(m->slots[map_probe(m, key, hash_key(key, m->keysize))]);
}

uint32_t spaa_map_intern(struct spaa_map *m, const void *key, bool *created)
{
	uint64_t h = hash_key(key, m->keysize);
	size_t s;

	if (!m->slots || (size_t)m->nr * 2 >= m->mask + 1)
		map_rehash(m);
	s = map_probe(m, key, h);
	if (m->slots[s] != SLOT_EMPTY) {
		if (created)
			*created = false;
		return slot_index(m->slots[s]);
	}
	SPAA_ALLOC_GROW(m->keys, ((size_t)m->nr + 1) * m->keysize, m->alloc);
	memcpy(m->keys + (size_t)m->nr * m->keysize, key, m->keysize);
	m->slots[s] = slot_of(h, m->nr);
	if (created)
		*created = true;
	return m->nr++;
}

void spaa_strtab_init(struct spaa_strtab *t)
{
	memset(t, 0, sizeof(*t));
	t->chunk_size = 64 * 1024;
	spaa_strtab_intern(t, "", 0);
}

void spaa_strtab_release(struct spaa_strtab *t)
{
	for (size_t i = 0; i < t->nchunks; i++)
		free(t->chunks[i]);
	free(t->chunks);
	free(t->strs);
	free(t->lens);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

static void strtab_rehash(struct spaa_strtab *t)
{
	size_t n = t->slots ? (t->mask + 1) * 2 : 256;

	free(t->slots);
	t->slots = slots_new(n);
	t->mask = n - 1;
	for (uint32_t i = 0; i < t->nr; i++) {
		uint64_t h = hash_key(t->strs[i], t->lens[i]);
		size_t s = h & t->mask;

		while (t->slots[s] != SLOT_EMPTY)
			s = (s + 1) & t->mask;
		t->slots[s] = slot_of(h, i);
	}
}

static size_t strtab_probe(const struct spaa_strtab *t, const void *s,
			   size_t len, uint64_t h)
{
	size_t i = h & t->mask;

	while (t->slots[i] != SLOT_EMPTY) {
		uint32_t k = slot_index(t->slots[i]);

		if (slot_has(t->slots[i], h) && t->lens[k] == len &&
		    !memcmp(t->strs[k], s, len))
			break;
		i = (i + 1) & t->mask;
	}
	return i;
}

uint32_t spaa_strtab_find(const struct spaa_strtab *t, const void *s,
			  size_t len)
{
	if (!t->slots)
		return SPAA_NONE;
	return slot_index(t->slots[strtab_probe(t, s, len, hash_key(s, len))]);
}

/* Copies s into the chunk arena; big strings get a chunk of their own. */
static char *strtab_store(struct spaa_strtab *t, const void *s, size_t len)
{
	char *dst;

	if (!t->nchunks || t->chunk_used + len + 1 > t->chunk_size) {
		size_t size = len + 1 > t->chunk_size ? len + 1 : t->chunk_size;

		SPAA_ALLOC_GROW(t->chunks, t->nchunks + 1, t->chunks_alloc);
		t->chunks[t->nchunks++] = spaa_xmalloc(size);
		if (size > t->chunk_size) {
			/* keep filling the previous, regular chunk */
			char *big = t->chunks[t->nchunks - 1];

			if (t->nchunks > 1) {
				t->chunks[t->nchunks - 1] = t->chunks[t->nchunks - 2];
				t->chunks[t->nchunks - 2] = big;
			} else {
				t->chunk_used = t->chunk_size;
			}
			memcpy(big, s, len);
			big[len] = '\0';
			return big;
		}
		t->chunk_used = 0;
	}
	dst = t->chunks[t->nchunks - 1] + t->chunk_used;
	memcpy(dst, s, len);
	dst[len] = '\0';
	t->chunk_used += len + 1;
	return dst;
}

char *spaa_strtab_join(const struct spaa_strtab *t, uint32_t i,
		       const char *(*name)(const void *ctx, uint32_t id),
		       const void *ctx, char sep)
{
	/* the ids are stored unaligned among strings: copy each one out */
	const char *seq = t->strs[i];
	uint32_t n = t->lens[i] / sizeof(uint32_t), id;
	size_t len = 1, at = 0;
	char *s;

	for (uint32_t k = 0; k < n; k++) {
		memcpy(&id, seq + k * sizeof(id), sizeof(id));
		len += strlen(name(ctx, id)) + 1;
	}
	s = spaa_xmalloc(len);
	for (uint32_t k = 0; k < n; k++) {
		const char *str;
		size_t l;

		memcpy(&id, seq + k * sizeof(id), sizeof(id));
		str = name(ctx, id);
		l = strlen(str);
		memcpy(s + at, str, l);
		at += l;
		if (k + 1 < n)
			s[at++] = sep;
	}
	s[at] = '\0';
	return s;
}

/* A reader of the joined text of an id-array entry, one byte at a time. */
struct join_cursor {
	const char *seq;        /* the ids, unaligned */
	uint32_t n, k;          /* ids, the current one */
	const char *s;          /* rest of the current name; NULL at the end */
};

static void cursor_name(struct join_cursor *c,
			const char *(*name)(const void *ctx, uint32_t id),
			const void *ctx)
{
	uint32_t id;

	memcpy(&id, c->seq + c->k * sizeof(id), sizeof(id));
	c->s = name(ctx, id);
}

/* The next byte of the joined text, 0 past its end (names hold no NUL). */
static unsigned char cursor_next(struct join_cursor *c,
				 const char *(*name)(const void *ctx, uint32_t id),
				 const void *ctx, char sep)
{
	if (!c->s)
		return 0;
	if (*c->s)
		return (unsigned char)*c->s++;
	if (++c->k >= c->n) {
		c->s = NULL;
		return 0;
	}
	cursor_name(c, name, ctx);
	return (unsigned char)sep;
}

int spaa_strtab_join_cmp(const struct spaa_strtab *t, uint32_t i, uint32_t j,
			 const char *(*name)(const void *ctx, uint32_t id),
			 const void *ctx, char sep)
{
	struct join_cursor a = { t->strs[i], t->lens[i] / sizeof(uint32_t), 0, "" };
	struct join_cursor b = { t->strs[j], t->lens[j] / sizeof(uint32_t), 0, "" };

	if (a.n)
		cursor_name(&a, name, ctx);
	if (b.n)
		cursor_name(&b, name, ctx);
	for (;;) {
		unsigned char x = cursor_next(&a, name, ctx, sep);
		unsigned char y = cursor_next(&b, name, ctx, sep);

		if (x != y)
			return x < y ? -1 : 1;
		if (!x)
			return 0;
	}
}

uint32_t spaa_strtab_intern(struct spaa_strtab *t, const void *s, size_t len)
{
	uint64_t h;
	size_t slot;

	if (len >= UINT32_MAX)
		abort();        /* callers bound lengths long before this */
	h = hash_key(s, len);
	if (!t->slots || (size_t)t->nr * 2 >= t->mask + 1)
		strtab_rehash(t);
	slot = strtab_probe(t, s, len, h);
	if (t->slots[slot] != SLOT_EMPTY)
		return slot_index(t->slots[slot]);
	SPAA_ALLOC_GROW(t->strs, (size_t)t->nr + 1, t->alloc);
	t->lens = spaa_xrealloc(t->lens, t->alloc * sizeof(*t->lens));
	t->strs[t->nr] = strtab_store(t, s, len);
	t->lens[t->nr] = (uint32_t)len;
	t->slots[slot] = slot_of(h, t->nr);
	return t->nr++;
}
