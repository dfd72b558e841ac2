/*
 * check_strtab - spaa_strtab (byte strings) must hand out dense indices
 * in insertion order, keep finding every string across rehashes, and keep
 * every returned pointer valid and unchanged while more strings are
 * added, big ones included.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/strtab.h"
#include "model/util.h"

Suite *strtab_suite(void);

/* 6 is another "a": different ids may have the same name */
static const char *const join_names[] = { "a", "ab", "b", "", "a;b", "\xc3\xa9", "a" };

static const char *join_name(const void *ctx, uint32_t id)
{
	(void)ctx;
	return join_names[id];
}

static int sign(int v)
{
	return (v > 0) - (v < 0);
}

/*
 * spaa_strtab_join_cmp against strcmp of what spaa_strtab_join makes, on
 * every pair of a set of paths chosen for the hard cases: a name that is
 * a prefix of another ("a" and "ab"), a separator inside a name ("a;b"
 * against "a" then "b"), empty names and paths, bytes above 0x7f, paths
 * that share their first ids, different ids of the same name.
 */
START_TEST(test_strtab_join_cmp)
{
	static const uint32_t paths[][4] = {
		{ 0 }, { 1 }, { 0, 2 }, { 4 }, { 0, 1 }, { 1, 0 }, { 3, 0 },
		{ 0, 3 }, { 5 }, { 0, 5 }, { 2, 2, 2 }, { 0, 2, 3 },
		/* shared first ids, then ids that differ with or without their names */
		{ 6 }, { 6, 2 }, { 0, 6 }, { 0, 6, 1 }, { 0, 0, 1 }, { 0, 0, 1, 3 },
		{ 0, 0, 6, 2 }, { 0, 0, 0, 2 }, { 0, 0, 4 }, { 0, 0, 0 }, { 0, 2, 2, 2 },
	};
	static const uint32_t lens[] = {
		1, 1, 2, 1, 2, 2, 2, 2, 1, 2, 3, 3,
		1, 2, 2, 3, 3, 4, 4, 4, 3, 3, 4,
	};
	struct spaa_strtab t;
	uint32_t idx[sizeof(lens) / sizeof(lens[0]) + 1];
	size_t n = sizeof(lens) / sizeof(lens[0]);

	spaa_strtab_init(&t);
	for (size_t i = 0; i < n; i++)
		idx[i] = spaa_strtab_intern(&t, paths[i], lens[i] * sizeof(uint32_t));
	idx[n] = 0;     /* the empty path */
	for (size_t i = 0; i <= n; i++) {
		for (size_t j = 0; j <= n; j++) {
			char *a = spaa_strtab_join(&t, idx[i], join_name, NULL, ';');
			char *b = spaa_strtab_join(&t, idx[j], join_name, NULL, ';');

			ck_assert_msg(sign(spaa_strtab_join_cmp(&t, idx[i], idx[j], join_name,
								NULL, ';')) == sign(strcmp(a, b)),
				      "'%s' vs '%s'", a, b);
			free(a);
			free(b);
		}
	}
	spaa_strtab_release(&t);
}
END_TEST


/* ---- spaa_strtab --------------------------------------------------------- */

START_TEST(test_strtab_empty_string)
{
	struct spaa_strtab t;

	spaa_strtab_init(&t);
	ck_assert_uint_eq(t.nr, 1);
	ck_assert_str_eq(spaa_strtab_get(&t, 0), "");
	ck_assert_uint_eq(spaa_strtab_len(&t, 0), 0);
	ck_assert_uint_eq(spaa_strtab_intern(&t, "", 0), 0);
	/* the pointer does not matter for an empty string */
	ck_assert_uint_eq(spaa_strtab_intern(&t, "xyz", 0), 0);
	ck_assert_uint_eq(spaa_strtab_find(&t, "", 0), 0);
	ck_assert_uint_eq(spaa_strtab_find(&t, "a", 1), SPAA_NONE);
	ck_assert_uint_eq(t.nr, 1);
	spaa_strtab_release(&t);
}
END_TEST

START_TEST(test_strtab_equal_bytes)
{
	struct spaa_strtab t;
	char buf[8];

	spaa_strtab_init(&t);
	ck_assert_uint_eq(spaa_strtab_intern(&t, "main", 4), 1);
	ck_assert_uint_eq(spaa_strtab_intern(&t, "mainly", 6), 2);
	ck_assert_uint_eq(spaa_strtab_intern(&t, "mai", 3), 3);
	/* equal bytes from another buffer, and a prefix of a longer buffer */
	memcpy(buf, "main", 5);
	ck_assert_uint_eq(spaa_strtab_intern(&t, buf, 4), 1);
	ck_assert_uint_eq(spaa_strtab_intern(&t, "mainly", 4), 1);
	ck_assert_uint_eq(spaa_strtab_intern(&t, "mainly", 3), 3);
	ck_assert_uint_eq(spaa_strtab_find(&t, "mainly", 6), 2);
	ck_assert_uint_eq(spaa_strtab_find(&t, "mainl", 5), SPAA_NONE);
	ck_assert_uint_eq(t.nr, 4);
	ck_assert_str_eq(spaa_strtab_get(&t, 1), "main");
	ck_assert_str_eq(spaa_strtab_get(&t, 2), "mainly");
	ck_assert_str_eq(spaa_strtab_get(&t, 3), "mai");
	ck_assert_uint_eq(spaa_strtab_len(&t, 2), 6);
	/* stored copies, not the caller's buffer */
	ck_assert_ptr_ne(spaa_strtab_get(&t, 1), buf);
	spaa_strtab_release(&t);
}
END_TEST

START_TEST(test_strtab_embedded_nul)
{
	static const struct {
		const char *s;
		size_t len;
	} strs[] = {
		{ "a", 1 },
		{ "a\0", 2 },
		{ "a\0b", 3 },
		{ "a\0c", 3 },
		{ "\0", 1 },
		{ "\0\0", 2 },
		{ "b", 1 },
	};
	const size_t n = sizeof(strs) / sizeof(strs[0]);
	struct spaa_strtab t;

	spaa_strtab_init(&t);
	/* all distinct: indices 1..n in order */
	for (size_t i = 0; i < n; i++)
		ck_assert_uint_eq(spaa_strtab_intern(&t, strs[i].s, strs[i].len),
				  i + 1);
	for (size_t i = 0; i < n; i++) {
		const char *got = spaa_strtab_get(&t, (uint32_t)i + 1);

		ck_assert_uint_eq(spaa_strtab_intern(&t, strs[i].s, strs[i].len),
				  i + 1);
		ck_assert_uint_eq(spaa_strtab_find(&t, strs[i].s, strs[i].len),
				  i + 1);
		ck_assert_uint_eq(spaa_strtab_len(&t, (uint32_t)i + 1),
				  strs[i].len);
		ck_assert(!memcmp(got, strs[i].s, strs[i].len));
		ck_assert_int_eq(got[strs[i].len], '\0');
	}
	/* "\0" (len 1) is not the empty string (len 0) */
	ck_assert_uint_ne(spaa_strtab_find(&t, "\0", 1), 0);
	ck_assert_uint_eq(t.nr, n + 1);
	spaa_strtab_release(&t);
}
END_TEST

/* Small string i of the big test: "s<i>_<7i>", distinct for every i. */
static size_t small_string(char *buf, size_t size, uint32_t i)
{
	return (size_t)snprintf(buf, size, "s%u_%u", i, i * 7u);
}

/*
 * Big strings get a chunk of their own while small ones keep filling the
 * current chunk.  Interleave small strings with big ones (1 MiB + 1, and
 * exactly one chunk, and one byte short of a chunk so it just fits a new
 * chunk) and check at the end that every pointer handed out earlier still
 * holds its bytes.
 */
START_TEST(test_strtab_big_strings)
{
	enum { NSMALL = 60000 };
	struct spaa_strtab t;
	size_t big_lens[4];
	const char *big_ptrs[4];
	uint32_t big_idx[4];
	char **big = NULL;
	const char **ptrs = spaa_xmalloc(NSMALL * sizeof(*ptrs));
	uint32_t *idx = spaa_xmalloc(NSMALL * sizeof(*idx));
	char buf[64];
	uint32_t next = 1;      /* index 0 is "" */
	int nbig = 0;

	spaa_strtab_init(&t);
	big_lens[0] = (1u << 20) + 1;           /* bigger than any chunk */
	big_lens[1] = t.chunk_size;             /* needs chunk_size + 1 with NUL */
	big_lens[2] = t.chunk_size - 1;         /* fits a chunk exactly */
	big_lens[3] = 3 * t.chunk_size + 17;
	big = spaa_xcalloc(4, sizeof(*big));
	for (int b = 0; b < 4; b++) {
		big[b] = spaa_xmalloc(big_lens[b]);
		for (size_t j = 0; j < big_lens[b]; j++)
			big[b][j] = (char)('A' + (j * 31 + (size_t)b) % 26);
	}

	for (uint32_t i = 0; i < NSMALL; i++) {
		size_t len;

		/* a big string before the first small one and every 15000 */
		if (i % 15000 == 0 && nbig < 4) {
			big_idx[nbig] = spaa_strtab_intern(&t, big[nbig],
							   big_lens[nbig]);
			ck_assert_uint_eq(big_idx[nbig], next);
			next++;
			big_ptrs[nbig] = spaa_strtab_get(&t, big_idx[nbig]);
			nbig++;
		}
		len = small_string(buf, sizeof(buf), i);
		idx[i] = spaa_strtab_intern(&t, buf, len);
		ck_assert_uint_eq(idx[i], next);
		next++;
		ptrs[i] = spaa_strtab_get(&t, idx[i]);
	}
	ck_assert_int_eq(nbig, 4);
	/* NSMALL small + 4 big + "" */
	ck_assert_uint_eq(t.nr, NSMALL + 4 + 1);

	for (uint32_t i = 0; i < NSMALL; i++) {
		size_t len = small_string(buf, sizeof(buf), i);

		ck_assert_ptr_eq(spaa_strtab_get(&t, idx[i]), ptrs[i]);
		ck_assert_msg(!memcmp(ptrs[i], buf, len + 1),
			      "string %u changed: '%s', want '%s'", i, ptrs[i],
			      buf);
		ck_assert_uint_eq(spaa_strtab_len(&t, idx[i]), len);
		ck_assert_uint_eq(spaa_strtab_find(&t, buf, len), idx[i]);
	}
	for (int b = 0; b < 4; b++) {
		ck_assert_ptr_eq(spaa_strtab_get(&t, big_idx[b]), big_ptrs[b]);
		ck_assert(!memcmp(big_ptrs[b], big[b], big_lens[b]));
		ck_assert_int_eq(big_ptrs[b][big_lens[b]], '\0');
		ck_assert_uint_eq(spaa_strtab_len(&t, big_idx[b]), big_lens[b]);
		ck_assert_uint_eq(spaa_strtab_find(&t, big[b], big_lens[b]),
				  big_idx[b]);
		/* the same bytes one shorter are another string */
		ck_assert_uint_eq(spaa_strtab_find(&t, big[b], big_lens[b] - 1),
				  SPAA_NONE);
	}
	ck_assert_str_eq(spaa_strtab_get(&t, 0), "");

	spaa_strtab_release(&t);
	for (int b = 0; b < 4; b++)
		free(big[b]);
	free(big);
	free(ptrs);
	free(idx);
}
END_TEST

/* A big string as the very first string after "" (only one chunk yet). */
START_TEST(test_strtab_big_first)
{
	struct spaa_strtab t;
	size_t n = (1u << 20) + 1;
	char *s = spaa_xmalloc(n);
	const char *p1, *p2, *p3;

	memset(s, 'x', n);
	spaa_strtab_init(&t);
	ck_assert_uint_eq(spaa_strtab_intern(&t, s, n), 1);
	p1 = spaa_strtab_get(&t, 1);
	ck_assert_uint_eq(spaa_strtab_intern(&t, "after", 5), 2);
	p2 = spaa_strtab_get(&t, 2);
	ck_assert_uint_eq(spaa_strtab_intern(&t, s, n - 1), 3);
	p3 = spaa_strtab_get(&t, 3);
	ck_assert_uint_eq(spaa_strtab_intern(&t, "again", 5), 4);
	ck_assert_str_eq(spaa_strtab_get(&t, 0), "");
	ck_assert_str_eq(p2, "after");
	ck_assert_str_eq(spaa_strtab_get(&t, 4), "again");
	ck_assert_uint_eq(strlen(p1), n);
	ck_assert_uint_eq(strlen(p3), n - 1);
	ck_assert(!memcmp(p1, s, n) && !memcmp(p3, s, n - 1));
	spaa_strtab_release(&t);
	free(s);
}
END_TEST

/* far past the first table of 256 slots: many rehashes */
#define MANY 100000u

START_TEST(test_strtab_many)
{
	struct spaa_strtab t;
	char buf[32];

	spaa_strtab_init(&t);
	for (uint32_t i = 0; i < MANY; i++) {
		int len = snprintf(buf, sizeof(buf), "fn%u", i);

		ck_assert_uint_eq(spaa_strtab_intern(&t, buf, (size_t)len), i + 1);
	}
	for (uint32_t i = 0; i < MANY; i++) {
		int len = snprintf(buf, sizeof(buf), "fn%u", i);

		ck_assert_uint_eq(spaa_strtab_find(&t, buf, (size_t)len), i + 1);
		ck_assert_str_eq(spaa_strtab_get(&t, i + 1), buf);
	}
	ck_assert_uint_eq(spaa_strtab_find(&t, "fn100000", 8), SPAA_NONE);
	ck_assert_uint_eq(t.nr, MANY + 1);
	spaa_strtab_release(&t);
	spaa_strtab_release(&t);        /* harmless twice */
}
END_TEST

/*
 * spaa_strtab_reserve: room made for n entries, interning up to n moves
 * no slot table (no rehash), the entries already there stay, and a
 * reserve below what the table has changes nothing.
 */
START_TEST(test_strtab_reserve)
{
	struct spaa_strtab t;
	char buf[32];
	const uint64_t *slots;

	spaa_strtab_init(&t);
	ck_assert_uint_eq(spaa_strtab_intern(&t, "kept", 4), 1);
	spaa_strtab_reserve(&t, 5000);
	slots = t.slots;
	ck_assert_uint_ge(t.mask + 1, 2 * 5000);
	ck_assert_uint_ge(t.alloc, 5000);
	for (uint32_t i = 2; i < 5000; i++) {
		int len = snprintf(buf, sizeof(buf), "s%u", i);

		ck_assert_uint_eq(spaa_strtab_intern(&t, buf, (size_t)len), i);
	}
	ck_assert_ptr_eq(t.slots, slots);
	spaa_strtab_reserve(&t, 10);
	ck_assert_ptr_eq(t.slots, slots);
	ck_assert_uint_eq(spaa_strtab_find(&t, "kept", 4), 1);
	ck_assert_uint_eq(spaa_strtab_find(&t, "s4999", 5), 4999);
	ck_assert_str_eq(spaa_strtab_get(&t, 2), "s2");
	/* past the reserve it grows as ever */
	ck_assert_uint_eq(spaa_strtab_intern(&t, "more", 4), 5000);
	ck_assert_uint_eq(spaa_strtab_intern(&t, "more2", 5), 5001);
	ck_assert_uint_eq(spaa_strtab_find(&t, "s3000", 5), 3000);
	spaa_strtab_release(&t);
}
END_TEST

/*
 * Kept hashes (for another table to find a string without hashing it
 * again) are each string's spaa_hash_bytes, through growth, rehashes,
 * a reserve and a clear, and the hashed find and intern agree with the
 * plain ones.
 */
START_TEST(test_strtab_kept_hashes)
{
	struct spaa_strtab t, u;
	char buf[32];

	spaa_strtab_init(&t);
	spaa_strtab_init(&u);
	spaa_strtab_intern(&t, "before", 6);
	spaa_strtab_keep_hashes(&t);
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < 1000; i++) {
			int n = snprintf(buf, sizeof(buf), "name%d", i);

			ck_assert_uint_eq(spaa_strtab_intern(&t, buf, (size_t)n), (uint32_t)(i + 2 - round));
		}
		if (!round)
			spaa_strtab_reserve(&t, 5000);
		for (uint32_t i = 0; i < t.nr; i++) {
			const char *str = spaa_strtab_get(&t, i);
			uint32_t len = spaa_strtab_len(&t, i);
			uint64_t h = spaa_strtab_hash(&t, i);

			ck_assert_uint_eq(h, spaa_hash_bytes(str, len));
			ck_assert_uint_eq(spaa_strtab_find_hashed(&t, str, len, h), i);
			/* copied into u in order: the same indices */
			ck_assert_uint_eq(spaa_strtab_intern_hashed(&u, str, len, h), i);
			ck_assert_uint_eq(spaa_strtab_find(&u, str, len), i);
		}
		ck_assert_uint_eq(spaa_strtab_find_hashed(&t, "name1000", 8,
							  spaa_hash_bytes("name1000", 8)), SPAA_NONE);
		/* emptied, t keeps its hashes for what comes next */
		spaa_strtab_clear(&t);
		spaa_strtab_release(&u);
		spaa_strtab_init(&u);
		ck_assert_uint_eq(t.nr, 1);
		ck_assert_uint_eq(spaa_strtab_hash(&t, 0), spaa_hash_bytes("", 0));
		ck_assert_uint_eq(spaa_strtab_find(&t, "name5", 5), SPAA_NONE);
	}
	spaa_strtab_release(&t);
	spaa_strtab_release(&u);
}
END_TEST

Suite *strtab_suite(void)
{
	Suite *s = suite_create("strtab");
	TCase *tc = tcase_create("strtab");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_strtab_empty_string);
	tcase_add_test(tc, test_strtab_equal_bytes);
	tcase_add_test(tc, test_strtab_embedded_nul);
	tcase_add_test(tc, test_strtab_big_strings);
	tcase_add_test(tc, test_strtab_big_first);
	tcase_add_test(tc, test_strtab_many);
	tcase_add_test(tc, test_strtab_join_cmp);
	tcase_add_test(tc, test_strtab_reserve);
	tcase_add_test(tc, test_strtab_kept_hashes);
	suite_add_tcase(s, tc);
	return s;
}
