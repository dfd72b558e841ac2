#include <stdlib.h>
#include <string.h>

#include "model/hashslot.h"
#include "model/map.h"
#include "model/util.h"

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

void spaa_map_clear(struct spaa_map *m)
{
	m->nr = 0;
	if (m->slots)
		memset(m->slots, 0xff, (m->mask + 1) * sizeof(*m->slots));
}

static void map_rehash(struct spaa_map *m)
{
	size_t n = m->slots ? (m->mask + 1) * 2 : 64;

	free(m->slots);
	m->slots = spaa_hashslot_new(n);
	m->mask = n - 1;
	for (uint32_t i = 0; i < m->nr; i++) {
		uint64_t h = spaa_hash_bytes(spaa_map_key(m, i), m->keysize);
		size_t s = h & m->mask;

		while (m->slots[s] != SPAA_HASHSLOT_EMPTY)
			s = (s + 1) & m->mask;
		m->slots[s] = spaa_hashslot_of(h, i);
	}
}

static size_t map_probe(const struct spaa_map *m, const void *key, uint64_t h)
{
	size_t s = h & m->mask;

	while (m->slots[s] != SPAA_HASHSLOT_EMPTY &&
	       !(spaa_hashslot_has(m->slots[s], h) &&
		 !memcmp(spaa_map_key(m, spaa_hashslot_index(m->slots[s])), key, m->keysize)))
		s = (s + 1) & m->mask;
	return s;
}

uint32_t spaa_map_find(const struct spaa_map *m, const void *key)
{
	if (!m->slots)
		return SPAA_NONE;
	return spaa_hashslot_index(m->slots[map_probe(m, key, spaa_hash_bytes(key, m->keysize))]);
}

uint32_t spaa_map_intern(struct spaa_map *m, const void *key, bool *created)
{
	uint64_t h = spaa_hash_bytes(key, m->keysize);
	size_t s;

	if (!m->slots || (size_t)m->nr * 2 >= m->mask + 1)
		map_rehash(m);
	s = map_probe(m, key, h);
	if (m->slots[s] != SPAA_HASHSLOT_EMPTY) {
		if (created)
			*created = false;
		return spaa_hashslot_index(m->slots[s]);
	}
	SPAA_ALLOC_GROW(m->keys, ((size_t)m->nr + 1) * m->keysize, m->alloc);
	memcpy(m->keys + (size_t)m->nr * m->keysize, key, m->keysize);
	m->slots[s] = spaa_hashslot_of(h, m->nr);
	if (created)
		*created = true;
	return m->nr++;
}
