/*
 * check_ordered - pieces made by 1, 2, 3 and 8 threads are used once
 * each, in order, from the slot they were made in, never more of them
 * waiting than there are slots; the text they make is the same for any
 * number of threads.
 */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/ordered.h"
#include "model/util.h"

Suite *ordered_suite(void);

enum { MAX_SLOTS = 16 };

struct text_job {
	char slot[MAX_SLOTS][32];       /* the piece each slot holds, as text */
	char out[4096];                 /* what use wrote */
	size_t len;                     /* of out */
	size_t used;                    /* pieces used */
	unsigned slots;
	int bad;                        /* a piece used out of order or from another slot */
	pthread_mutex_t lock;
	unsigned waiting, most;         /* pieces made and not used; the most at once */
};

static void text_make(void *ctx, size_t piece, unsigned slot)
{
	struct text_job *j = ctx;

	if (slot >= j->slots)
		j->bad = 1;     /* never read concurrently: checked after the run */
	snprintf(j->slot[slot % MAX_SLOTS], sizeof(j->slot[0]), "%s%zu",
		 piece ? "," : "", piece);
	pthread_mutex_lock(&j->lock);
	if (++j->waiting > j->most)
		j->most = j->waiting;
	pthread_mutex_unlock(&j->lock);
}

static void text_use(void *ctx, size_t piece, unsigned slot)
{
	struct text_job *j = ctx;
	char expect[32];

	snprintf(expect, sizeof(expect), "%s%zu", piece ? "," : "", piece);
	if (piece != j->used++ || strcmp(j->slot[slot % MAX_SLOTS], expect))
		j->bad = 1;
	j->len += (size_t)snprintf(j->out + j->len, sizeof(j->out) - j->len, "%s",
				   j->slot[slot % MAX_SLOTS]);
	pthread_mutex_lock(&j->lock);
	j->waiting--;
	pthread_mutex_unlock(&j->lock);
}

static const struct {
	size_t npieces;
	unsigned threads, slots;
	const char *out;
} text_cases[] = {
	{ 0, 1, 1, "" },
	{ 0, 3, 6, "" },
	{ 1, 3, 6, "0" },
	{ 2, 2, 2, "0,1" },
	{ 7, 1, 1, "0,1,2,3,4,5,6" },
	{ 7, 2, 4, "0,1,2,3,4,5,6" },
	{ 7, 3, 3, "0,1,2,3,4,5,6" },
	{ 7, 3, 1, "0,1,2,3,4,5,6" },        /* slots raised to threads */
	{ 12, 8, 16, "0,1,2,3,4,5,6,7,8,9,10,11" },
	{ 12, 0, 0, "0,1,2,3,4,5,6,7,8,9,10,11" },   /* 0 threads: the caller's */
};

START_TEST(test_ordered_text)
{
	struct text_job j = { .slots = 1 };
	unsigned threads = text_cases[_i].threads;
	struct spaa_ordered_job job = {
		.npieces = text_cases[_i].npieces, .threads = threads,
		.slots = text_cases[_i].slots, .make = text_make, .use = text_use, .ctx = &j,
	};

	/* the slots the run may use: at least one a thread */
	j.slots = threads > 1 ? (job.slots > threads ? job.slots : threads) : 1;
	pthread_mutex_init(&j.lock, NULL);
	spaa_ordered_run(&job);
	pthread_mutex_destroy(&j.lock);
	ck_assert_str_eq(j.out, text_cases[_i].out);
	ck_assert_uint_eq(j.used, text_cases[_i].npieces);
	ck_assert_int_eq(j.bad, 0);
	ck_assert_uint_le(j.most, j.slots);
	ck_assert_uint_eq(j.waiting, 0);
}
END_TEST

/* Many small pieces on 3 threads, slots at their least: sums in order. */
struct sum_job {
	unsigned long slot[3];
	unsigned long total, weighted;
	size_t used;
};

static void sum_make(void *ctx, size_t piece, unsigned slot)
{
	struct sum_job *j = ctx;
	unsigned long s = 0;

	for (size_t k = 0; k <= piece % 97; k++)
		s += piece * 1000 + k;
	j->slot[slot] = s;
}

static void sum_use(void *ctx, size_t piece, unsigned slot)
{
	struct sum_job *j = ctx;

	j->total += j->slot[slot];
	j->weighted += (unsigned long)(++j->used) * (piece + 1);
}

START_TEST(test_ordered_many)
{
	enum { N = 20000 };
	struct sum_job j = { { 0 }, 0, 0, 0 };
	struct spaa_ordered_job job = {
		.npieces = N, .threads = 3, .slots = 3, .make = sum_make, .use = sum_use, .ctx = &j,
	};
	unsigned long total = 0, weighted = 0;

	for (size_t p = 0; p < N; p++) {
		for (size_t k = 0; k <= p % 97; k++)
			total += p * 1000 + k;
		/* piece p used p + 1-th: (p + 1)^2 */
		weighted += (unsigned long)(p + 1) * (p + 1);
	}
	spaa_ordered_run(&job);
	ck_assert_uint_eq(j.used, N);
	ck_assert_uint_eq(j.total, total);
	ck_assert_uint_eq(j.weighted, weighted);
}
END_TEST

Suite *ordered_suite(void)
{
	Suite *s = suite_create("ordered");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_ordered_text, 0,
			    sizeof(text_cases) / sizeof(text_cases[0]));
	tcase_add_test(tc, test_ordered_many);
	suite_add_tcase(s, tc);
	return s;
}
