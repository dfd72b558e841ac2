#include <stdlib.h>
#include <string.h>

#include "formats/idcache.h"
#include "model/util.h"

static void idcache_put(struct spaa_idcache *c, uint64_t h, const struct spaa_idcache_slot *e)
{
	size_t i = h & c->mask;

	while (c->slots[i].str)
		i = (i + 1) & c->mask;
	c->slots[i] = *e;
	c->nr++;
}

static void idcache_grow(struct spaa_idcache *c)
{
	struct spaa_idcache old = *c;
	size_t n = old.slots ? (old.mask + 1) * 2 : 1024;

	/*
	 * Zeroed by a store, not by calloc: calloc's fresh pages stay
	 * unmapped, the scanner's look-ups (reads) would map the shared
	 * zero page there, and the first slot added to each would then
	 * fault again and flush the other thread's TLB (an interprocessor
	 * interrupt a page: 1.4 % of make bench's CPU samples).
	 */
	c->slots = spaa_xmalloc(n * sizeof(*c->slots));
	memset(c->slots, 0, n * sizeof(*c->slots));
	c->mask = n - 1;
	c->nr = 0;
	for (size_t i = 0; old.slots && i <= old.mask; i++)
		if (old.slots[i].str) {
			const struct spaa_idcache_slot *e = &old.slots[i];
			struct spaa_idcache_key k = { { e->w[0], e->w[1], e->w[2], e->w3 } };

			idcache_put(c, spaa_idcache_hash(&k), e);
		}
	free(old.slots);
}

void spaa_idcache_add(struct spaa_idcache *c, uint64_t h,
		      const struct spaa_idcache_key *k, uint32_t str)
{
	struct spaa_idcache_slot e = {
		{ k->w[0], k->w[1], k->w[2] }, (uint32_t)k->w[3], str,
	};

	if (!c->slots || (c->nr + 1) * 2 > c->mask + 1)
		idcache_grow(c);
	idcache_put(c, h, &e);
}

void spaa_idcache_release(struct spaa_idcache *c)
{
	free(c->slots);
	memset(c, 0, sizeof(*c));
}
