/*
 * check_map - spaa_map (fixed-size keys) must hand out dense indices in
 * insertion order and keep finding every key across rehashes.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/map.h"
#include "model/util.h"

Suite *map_suite(void);

/* ---- spaa_map ------------------------------------------------------------ */

/*
 * 100000 keys: far past the first table of 64 slots, so the map rehashes
 * about 12 times (64 -> 262144 slots at load < 1/2).  Keys are scattered
 * 64-bit values so that neighbours do not hash to neighbours by accident.
 */
#define MANY 100000u

static uint64_t many_key(uint32_t i)
{
	/* odd multiplier: a bijection on 64 bits, so keys are distinct */
	return (uint64_t)i * 0x9e3779b97f4a7c15ull + 12345;
}

START_TEST(test_map_dense_many)
{
	struct spaa_map m;
	bool created;

	spaa_map_init(&m, sizeof(uint64_t));
	ck_assert_uint_eq(m.nr, 0);
	for (uint32_t i = 0; i < MANY; i++) {
		uint64_t k = many_key(i);

		created = false;
		ck_assert_uint_eq(spaa_map_intern(&m, &k, &created), i);
		ck_assert(created);
		ck_assert_uint_eq(m.nr, i + 1);
	}
	/* every key is found at its insertion index after all the rehashes */
	for (uint32_t i = 0; i < MANY; i++) {
		uint64_t k = many_key(i), stored;

		ck_assert_uint_eq(spaa_map_find(&m, &k), i);
		memcpy(&stored, spaa_map_key(&m, i), sizeof(stored));
		ck_assert(stored == k);
	}
	/* interning again creates nothing and returns the same index */
	for (uint32_t i = 0; i < MANY; i += 997) {
		uint64_t k = many_key(i);

		created = true;
		ck_assert_uint_eq(spaa_map_intern(&m, &k, &created), i);
		ck_assert(!created);
	}
	ck_assert_uint_eq(m.nr, MANY);
	/* keys never inserted: many_key(MANY..MANY+999) are distinct from all */
	for (uint32_t i = MANY; i < MANY + 1000; i++) {
		uint64_t k = many_key(i);

		ck_assert_uint_eq(spaa_map_find(&m, &k), SPAA_NONE);
	}
	/* load factor stays under 1/2 */
	ck_assert_uint_ge(m.mask + 1, 2 * (size_t)MANY);
	spaa_map_release(&m);
	ck_assert_uint_eq(m.nr, 0);
	ck_assert_uint_eq(m.keysize, sizeof(uint64_t));
}
END_TEST

/* Key i of size n: i in little-endian in the first bytes, a fill after. */
static void sized_key(unsigned char *k, size_t n, uint32_t i)
{
	memset(k, 0xa5, n);
	for (size_t b = 0; b < n && b < 4; b++)
		k[b] = (unsigned char)(i >> (8 * b));
}

static const struct {
	size_t keysize;
	uint32_t nkeys;         /* distinct keys the size allows, at most 5000 */
} size_cases[] = {
	{ 1, 256 },             /* every byte value */
	{ 2, 5000 },
	{ 3, 5000 },
	{ 4, 5000 },
	{ 7, 5000 },
	{ 8, 5000 },
	{ 12, 5000 },
	{ 16, 5000 },
	{ 33, 5000 },
	{ 256, 2000 },
};

START_TEST(test_map_key_sizes)
{
	size_t n = size_cases[_i].keysize;
	uint32_t nkeys = size_cases[_i].nkeys;
	unsigned char *k = spaa_xmalloc(n);
	struct spaa_map m;
	bool created;

	spaa_map_init(&m, n);
	for (uint32_t i = 0; i < nkeys; i++) {
		sized_key(k, n, i);
		ck_assert_uint_eq(spaa_map_intern(&m, k, &created), i);
		ck_assert_msg(created, "keysize %zu key %u", n, i);
	}
	for (uint32_t i = 0; i < nkeys; i++) {
		sized_key(k, n, i);
		ck_assert_uint_eq(spaa_map_find(&m, k), i);
		ck_assert(!memcmp(spaa_map_key(&m, i), k, n));
		ck_assert_uint_eq(spaa_map_intern(&m, k, &created), i);
		ck_assert(!created);
	}
	/* a key differing only in its last byte is another key */
	if (n > 4) {
		sized_key(k, n, 0);
		k[n - 1] ^= 1;
		ck_assert_uint_eq(spaa_map_find(&m, k), SPAA_NONE);
		ck_assert_uint_eq(spaa_map_intern(&m, k, NULL), nkeys);
		ck_assert_uint_eq(spaa_map_find(&m, k), nkeys);
	}
	spaa_map_release(&m);
	free(k);
}
END_TEST

START_TEST(test_map_empty)
{
	struct spaa_map m;
	uint32_t k = 0;

	spaa_map_init(&m, sizeof(k));
	ck_assert_uint_eq(spaa_map_find(&m, &k), SPAA_NONE);
	spaa_map_release(&m);
	spaa_map_release(&m);   /* harmless twice */
	/* usable again after release; created may be NULL */
	ck_assert_uint_eq(spaa_map_intern(&m, &k, NULL), 0);
	k = 7;
	ck_assert_uint_eq(spaa_map_intern(&m, &k, NULL), 1);
	k = 0;
	ck_assert_uint_eq(spaa_map_intern(&m, &k, NULL), 0);
	ck_assert_uint_eq(m.nr, 2);
	spaa_map_release(&m);
}
END_TEST

/* Cleared, a map hands out indices from 0 again and finds none of the old keys. */
START_TEST(test_map_clear)
{
	struct spaa_map m;
	uint64_t k;
	bool created;

	spaa_map_init(&m, sizeof(k));
	spaa_map_clear(&m);     /* an empty map too */
	for (int round = 0; round < 3; round++) {
		for (k = 0; k < 1000; k++) {
			uint64_t key = k * 3 + (uint64_t)round;

			ck_assert_uint_eq(spaa_map_intern(&m, &key, &created), k);
			ck_assert(created);
		}
		for (k = 0; k < 1000; k++) {
			uint64_t key = k * 3 + (uint64_t)round;

			ck_assert_uint_eq(spaa_map_find(&m, &key), k);
		}
		spaa_map_clear(&m);
		ck_assert_uint_eq(m.nr, 0);
		k = (uint64_t)round;
		ck_assert_uint_eq(spaa_map_find(&m, &k), SPAA_NONE);
	}
	spaa_map_release(&m);
}
END_TEST

Suite *map_suite(void)
{
	Suite *s = suite_create("map");
	TCase *tc = tcase_create("map");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_map_dense_many);
	tcase_add_loop_test(tc, test_map_key_sizes, 0,
			    sizeof(size_cases) / sizeof(size_cases[0]));
	tcase_add_test(tc, test_map_empty);
	tcase_add_test(tc, test_map_clear);
	suite_add_tcase(s, tc);
	return s;
}
