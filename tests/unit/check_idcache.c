/*
 * check_idcache - short id texts with their numbers (formats/idcache.h):
 * a key is the text zero-padded to 27 bytes and its length, whatever
 * loads build it; every text added is found with its number across many
 * growths; texts that differ in one byte, only past a prefix or in
 * length are apart; a text never added is not found.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "formats/idcache.h"

Suite *idcache_suite(void);

#define MANY 20000u

static uint64_t key(struct spaa_idcache_key *k, const char *text)
{
	*k = spaa_idcache_key(text, strlen(text));
	return spaa_idcache_hash(k);
}

/*
 * The key of every length from 1 to 27, each text at an odd place in a
 * larger buffer whose other bytes are not zero: the words are the text's
 * bytes in order, zero-padded, with the length in byte 27 (built here a
 * byte at a time), and no byte outside the text counts.
 */
START_TEST(test_key_bytes)
{
	char buf[64];

	for (size_t len = 1; len <= SPAA_IDCACHE_TEXT; len++) {
		const char *s = buf + 3;
		unsigned char want[32] = { 0 };
		struct spaa_idcache_key k;

		memset(buf, 'X', sizeof(buf));
		for (size_t i = 0; i < len; i++)
			buf[3 + i] = (char)('a' + (i * 7 + len) % 26);
		for (size_t i = 0; i < len; i++)
			want[i] = (unsigned char)s[i];
		want[27] = (unsigned char)len;
		k = spaa_idcache_key(s, len);
		for (int w = 0; w < 4; w++) {
			uint64_t x = 0;

			for (int b = 7; b >= 0; b--)
				x = x << 8 | want[w * 8 + b];
			ck_assert_msg(k.w[w] == x, "length %zu, word %d: %016llx, not %016llx",
				      len, w, (unsigned long long)k.w[w], (unsigned long long)x);
		}
	}
}
END_TEST

START_TEST(test_idcache)
{
	struct spaa_idcache c = { 0 };
	struct spaa_idcache_key k;
	char text[SPAA_IDCACHE_TEXT + 1];
	uint32_t n = 0;
	uint64_t h;

	/* an empty cache finds nothing */
	h = key(&k, "a");
	ck_assert_uint_eq(spaa_idcache_lookup(&c, &k, h), 0);
	for (uint32_t i = 0; i < MANY; i++) {
		snprintf(text, sizeof(text), "0x%024x", i);     /* 26 bytes */
		h = key(&k, text);
		spaa_idcache_add(&c, h, &k, i + 1);
	}
	ck_assert_uint_eq(c.nr, MANY);
	for (uint32_t i = 0; i < MANY; i++) {
		snprintf(text, sizeof(text), "0x%024x", i);
		h = key(&k, text);
		ck_assert_uint_eq(spaa_idcache_lookup(&c, &k, h), i + 1);
	}
	/* a prefix, a longer text, the longest text cached: not there */
	h = key(&k, "0x00000000000000000000000");
	ck_assert_uint_eq(spaa_idcache_lookup(&c, &k, h), 0);
	h = key(&k, "0x0000000000000000000000001");
	ck_assert_uint_eq(spaa_idcache_lookup(&c, &k, h), 0);
	spaa_idcache_release(&c);
	ck_assert_ptr_null(c.slots);

	/*
	 * Texts of every length, and each with one byte changed at every
	 * place: all apart.
	 */
	for (size_t len = 1; len <= SPAA_IDCACHE_TEXT; len++) {
		memset(text, 'q', len);
		text[len] = '\0';
		h = key(&k, text);
		ck_assert_uint_eq(spaa_idcache_lookup(&c, &k, h), 0);
		spaa_idcache_add(&c, h, &k, ++n);
		for (size_t at = 0; at < len; at++) {
			text[at] = 'r';
			h = key(&k, text);
			ck_assert_uint_eq(spaa_idcache_lookup(&c, &k, h), 0);
			spaa_idcache_add(&c, h, &k, ++n);
			text[at] = 'q';
		}
	}
	n = 0;
	for (size_t len = 1; len <= SPAA_IDCACHE_TEXT; len++) {
		memset(text, 'q', len);
		text[len] = '\0';
		h = key(&k, text);
		ck_assert_uint_eq(spaa_idcache_lookup(&c, &k, h), ++n);
		for (size_t at = 0; at < len; at++) {
			text[at] = 'r';
			h = key(&k, text);
			ck_assert_uint_eq(spaa_idcache_lookup(&c, &k, h), ++n);
			text[at] = 'q';
		}
	}
	ck_assert_uint_eq(c.nr, n);
	spaa_idcache_release(&c);
	spaa_idcache_release(&c);
}
END_TEST

Suite *idcache_suite(void)
{
	Suite *s = suite_create("idcache");
	TCase *tc = tcase_create("idcache");

	tcase_add_test(tc, test_key_bytes);
	tcase_add_test(tc, test_idcache);
	suite_add_tcase(s, tc);
	return s;
}
