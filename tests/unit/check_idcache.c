/*
 * check_idcache - short id texts with their numbers (formats/idcache.h):
 * every text added is found with its number across many growths, texts
 * that differ only past a prefix or in length are apart, and a text
 * never added is not found.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "formats/idcache.h"

Suite *idcache_suite(void);

#define MANY 20000u

static uint64_t slot(struct spaa_idcache_slot *e, const char *text)
{
	return spaa_idcache_slot_of(text, strlen(text), e);
}

START_TEST(test_idcache)
{
	struct spaa_idcache c = { 0 };
	struct spaa_idcache_slot e;
	char text[SPAA_IDCACHE_TEXT + 1];
	uint64_t h;

	/* an empty cache finds nothing */
	h = slot(&e, "a");
	ck_assert_uint_eq(spaa_idcache_lookup(&c, &e, h), 0);
	for (uint32_t i = 0; i < MANY; i++) {
		snprintf(text, sizeof(text), "0x%024x", i);     /* 26 bytes */
		h = slot(&e, text);
		e.str = i + 1;
		spaa_idcache_add(&c, h, &e);
	}
	ck_assert_uint_eq(c.nr, MANY);
	for (uint32_t i = 0; i < MANY; i++) {
		snprintf(text, sizeof(text), "0x%024x", i);
		h = slot(&e, text);
		ck_assert_uint_eq(spaa_idcache_lookup(&c, &e, h), i + 1);
	}
	/* a prefix, a longer text, the longest text cached: not there */
	h = slot(&e, "0x00000000000000000000000");
	ck_assert_uint_eq(spaa_idcache_lookup(&c, &e, h), 0);
	h = slot(&e, "0x0000000000000000000000001");
	ck_assert_uint_eq(spaa_idcache_lookup(&c, &e, h), 0);
	spaa_idcache_release(&c);
	ck_assert_ptr_null(c.slots);
	spaa_idcache_release(&c);
}
END_TEST

Suite *idcache_suite(void)
{
	Suite *s = suite_create("idcache");
	TCase *tc = tcase_create("idcache");

	tcase_add_test(tc, test_idcache);
	suite_add_tcase(s, tc);
	return s;
}
