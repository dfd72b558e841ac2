#include <stdlib.h>
#include <string.h>

#include "model/hashslot.h"
#include "model/strtab.h"
#include "model/util.h"

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
	free(t->hashes);
	memset(t, 0, sizeof(*t));
}

void spaa_strtab_clear(struct spaa_strtab *t)
{
	for (size_t i = 0; i < t->nchunks; i++)
		free(t->chunks[i]);
	t->nchunks = 0;
	t->chunk_used = 0;
	t->nr = 0;
	if (t->slots)
		memset(t->slots, 0xff, (t->mask + 1) * sizeof(*t->slots));
	spaa_strtab_intern(t, "", 0);
}

/* n slots (a power of two, more than twice the entries) */
static void strtab_rehash(struct spaa_strtab *t, size_t n)
{
	free(t->slots);
	t->slots = spaa_hashslot_new(n);
	t->mask = n - 1;
	for (uint32_t i = 0; i < t->nr; i++) {
		uint64_t h = spaa_strtab_hash(t, i);
		size_t s = h & t->mask;

		while (t->slots[s] != SPAA_HASHSLOT_EMPTY)
			s = (s + 1) & t->mask;
		t->slots[s] = spaa_hashslot_of(h, i);
	}
}

static size_t strtab_probe(const struct spaa_strtab *t, const void *s,
			   size_t len, uint64_t h)
{
	size_t i = h & t->mask;

	while (t->slots[i] != SPAA_HASHSLOT_EMPTY) {
		uint32_t k = spaa_hashslot_index(t->slots[i]);

		if (spaa_hashslot_has(t->slots[i], h) && t->lens[k] == len &&
		    !memcmp(t->strs[k], s, len))
			break;
		i = (i + 1) & t->mask;
	}
	return i;
}

uint32_t spaa_strtab_find(const struct spaa_strtab *t, const void *s,
			  size_t len)
{
	return spaa_strtab_find_hashed(t, s, len, spaa_hash_bytes(s, len));
}

uint32_t spaa_strtab_find_hashed(const struct spaa_strtab *t, const void *s, size_t len,
				 uint64_t h)
{
	if (!t->slots)
		return SPAA_NONE;
	return spaa_hashslot_index(t->slots[strtab_probe(t, s, len, h)]);
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
	uint32_t same = 0, n = a.n < b.n ? a.n : b.n;

	/*
	 * The same ids make the same text: call paths of a profile share
	 * their roots, so the bytes are compared from the first id that
	 * differs, the cursors just past the shared names.  (Different ids
	 * may still have the same name: from there, byte by byte.)
	 */
	while (same < n && !memcmp(a.seq + same * sizeof(uint32_t),
				   b.seq + same * sizeof(uint32_t), sizeof(uint32_t)))
		same++;
	if (same == a.n && same == b.n)
		return 0;
	if (same) {
		a.k = b.k = same - 1;   /* at the end of the last shared name */
	} else {
		if (a.n)
			cursor_name(&a, name, ctx);
		if (b.n)
			cursor_name(&b, name, ctx);
	}
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
	return spaa_strtab_intern_hashed(t, s, len, spaa_hash_bytes(s, len));
}

void spaa_strtab_keep_hashes(struct spaa_strtab *t)
{
	if (t->hashes)
		return;
	t->hashes = spaa_xmalloc((t->alloc ? t->alloc : 1) * sizeof(*t->hashes));
	for (uint32_t i = 0; i < t->nr; i++)
		t->hashes[i] = spaa_hash_bytes(t->strs[i], t->lens[i]);
}

uint32_t spaa_strtab_intern_hashed(struct spaa_strtab *t, const void *s, size_t len,
				   uint64_t h)
{
	size_t slot;

	if (len >= UINT32_MAX)
		abort();        /* callers bound lengths long before this */
	if (!t->slots || (size_t)t->nr * 2 >= t->mask + 1)
		strtab_rehash(t, t->slots ? (t->mask + 1) * 2 : 256);
	slot = strtab_probe(t, s, len, h);
	if (t->slots[slot] != SPAA_HASHSLOT_EMPTY)
		return spaa_hashslot_index(t->slots[slot]);
	if (t->nr >= t->alloc) {
		/*
		 * Only when strs grew: a realloc to the same size is free in
		 * glibc but a copy under ASan and valgrind, which made
		 * interning quadratic there (100,000 names: minutes).
		 */
		SPAA_ALLOC_GROW(t->strs, (size_t)t->nr + 1, t->alloc);
		t->lens = spaa_xrealloc(t->lens, t->alloc * sizeof(*t->lens));
		if (t->hashes)
			t->hashes = spaa_xrealloc(t->hashes, t->alloc * sizeof(*t->hashes));
	}
	t->strs[t->nr] = strtab_store(t, s, len);
	t->lens[t->nr] = (uint32_t)len;
	if (t->hashes)
		t->hashes[t->nr] = h;
	t->slots[slot] = spaa_hashslot_of(h, t->nr);
	return t->nr++;
}

void spaa_strtab_reserve(struct spaa_strtab *t, size_t n)
{
	size_t slots = t->slots ? t->mask + 1 : 256;

	while (n * 2 >= slots)
		slots *= 2;
	if (!t->slots || slots != t->mask + 1)
		strtab_rehash(t, slots);
	if (n > t->alloc) {
		t->strs = spaa_xrealloc(t->strs, n * sizeof(*t->strs));
		t->lens = spaa_xrealloc(t->lens, n * sizeof(*t->lens));
		if (t->hashes)
			t->hashes = spaa_xrealloc(t->hashes, n * sizeof(*t->hashes));
		t->alloc = n;
	}
}
