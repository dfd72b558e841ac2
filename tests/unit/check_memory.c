/*
 * check_memory - allocation accounting (memory.h): the default allocator
 * patterns, --skip / --no-skip, site stacks, frees matched by stack
 * content, native versus derived live, samples in a time range, and
 * what the tables and spaa-allocs' load use (memory records seen while
 * loading, paths ranked by name without making names).
 * The profiles are tests/data/allocs_*.spaa; the expected numbers are
 * worked out in tests/data/README-allocs.md.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/memory.h"
#include "formats/load.h"
#include "model/util.h"
#include "testutil.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* What spaa_memory_time adds up, for the test below. */
struct over_time {
	struct spaa_memory_time mt;
	const struct spaa_filter *f;
	char got[512];
	size_t len;
	const struct spaa_profile *p;
};

static int time_sample(void *data, const struct spaa_profile *p,
		       const struct spaa_sample *s, struct spaa_error *err)
{
	struct over_time *o = data;

	return spaa_memory_time_add(&o->mt, p, o->f, s, err);
}

/* "bin:site=bytes " in the order of the cells (each bin's cells summed by the test) */
static int time_cell(void *data, uint32_t bin, uint32_t site, uint64_t bytes,
		     struct spaa_error *err)
{
	struct over_time *o = data;

	(void)err;
	o->len += (size_t)snprintf(o->got + o->len, sizeof(o->got) - o->len, "%u:%s=%llu ",
				   bin, spaa_profile_str(o->p, o->p->functions[site].name),
				   (unsigned long long)bytes);
	return 0;
}

/*
 * allocs_frees.spaa, 1000 to 2000 ns: malloc samples 1000 A1 100,
 * 1100 A1 200, 1200 A2 200, 1300 A2 200, 1500 A1 300, 1900 A1 400,
 * 1950 A2 200; A1's site is handle_request, A2's make_buffer; free
 * samples 1400 400, 1600 200, 1700 50, 2000 100.  At most 20 bins: 100
 * ns wide (the round width past 1000 / 20), 11 of them up to the free at
 * 2000; at most 4: 500 ns, 3 of them.  Live: what was allocated minus
 * freed by the end of each bin.
 */
START_TEST(test_memory_time)
{
	static const struct {
		uint32_t bins;
		const char *want;
		uint64_t live[12];      /* then 0 */
	} cases[] = {
		{ 20, "0:handle_request=100 1:handle_request=200 2:make_buffer=200 "
		      "3:make_buffer=200 5:handle_request=300 9:handle_request=400 "
		      "9:make_buffer=200 ",
		  { 100, 300, 500, 700, 300, 600, 400, 350, 350, 950, 850 } },
		{ 4, "0:handle_request=300 0:make_buffer=400 1:handle_request=700 "
		     "1:make_buffer=200 ", { 300, 950, 850 } },
	};
	const char *path = "tests/data/allocs_frees.spaa";

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct spaa_load_opts lo = { 0 };
		struct spaa_memory_skip skip;
		uint64_t live[12] = { 0 };
		size_t nlive;
		struct spaa_profile p;
		struct over_time o = { .f = TESTUTIL_RANGE(INT64_MIN, INT64_MAX), .p = &p };
		struct spaa_error err;

		spaa_error_init(&err);
		spaa_profile_init(&p);
		spaa_memory_time_init(&o.mt, cases[c].bins);
		lo.on_sample = time_sample;
		lo.data = &o;
		ck_assert_msg(!spaa_load(&p, &path, 1, &lo, &err), "%s", err.msg);
		ck_assert_int_eq(spaa_memory_skip_init(&skip, true, NULL, 0, &err), 0);
		ck_assert_int_eq(spaa_memory_time_sites(&o.mt, &p, &skip, time_cell, &o, &err), 0);
		/* the cells come in the grid's order: compare them sorted */
		{
			char *words[32], *save = NULL, sorted[512] = "";
			size_t n = 0, len = 0;

			for (char *w = strtok_r(o.got, " ", &save); w && n < 32;
			     w = strtok_r(NULL, " ", &save))
				words[n++] = w;
			qsort(words, n, sizeof(*words), cmp_str);
			for (size_t i = 0; i < n; i++)
				len += (size_t)snprintf(sorted + len, sizeof(sorted) - len, "%s ",
							words[i]);
			ck_assert_str_eq(sorted, cases[c].want);
		}
		ck_assert_uint_eq(o.mt.grid.width, cases[c].bins == 20 ? 100 : 500);
		nlive = spaa_timegrid_nbins(&o.mt.grid);
		ck_assert_uint_eq(nlive, cases[c].bins == 20 ? 11 : 3);
		spaa_memory_time_live(&o.mt, live);
		ck_assert_mem_eq(live, cases[c].live, sizeof(live));
		spaa_memory_time_release(&o.mt);
		spaa_memory_skip_release(&skip);
		spaa_profile_release(&p);
	}
}
END_TEST

Suite *memory_suite(void);

/* ---- allocator frames ------------------------------------------------- */

START_TEST(test_default_skip)
{
	static const char *const allocators[] = {
		"malloc", "calloc", "realloc", "free", "posix_memalign",
		"aligned_alloc", "strdup", "malloc@plt", "__libc_malloc",
		"_int_free", "operator new(unsigned long)", "operator delete[](void*)",
		"operator new", "_Znwm", "_Znam", "_ZnwmRKSt9nothrow_t", "_ZdlPv",
		"_ZdaPvm", "je_malloc", "je_free", "mallocx", "tc_malloc",
		"tcmalloc::allocate_full_cpp_throw_oom", "__rust_alloc", NULL,
	};
	static const char *const sites[] = {
		"main", "mallocator_init", "free_list_pop", "my_malloc",
		"xmalloc", "new_operator", "operator newline", "_ZN3foo3barEv",
		"realloc_buffer", "make_je_thing", "", NULL,
	};
	struct spaa_memory_skip s;
	struct spaa_error err;

	spaa_error_init(&err);
	ck_assert_int_eq(spaa_memory_skip_init(&s, true, NULL, 0, &err), 0);
	for (const char *const *a = allocators; *a; a++)
		ck_assert_msg(spaa_memory_skip_match(&s, *a), "'%s' should be skipped", *a);
	for (const char *const *n = sites; *n; n++)
		ck_assert_msg(!spaa_memory_skip_match(&s, *n), "'%s' should be a site", *n);
	spaa_memory_skip_release(&s);
}
END_TEST

START_TEST(test_skip_options)
{
	const char *extra[] = { "^xmalloc$", "pool_" };
	struct spaa_memory_skip s;
	struct spaa_error err;

	spaa_error_init(&err);
	/* extending: defaults and the extra ones (unanchored as written) */
	ck_assert_int_eq(spaa_memory_skip_init(&s, true, extra, 2, &err), 0);
	ck_assert(spaa_memory_skip_match(&s, "xmalloc"));
	ck_assert(spaa_memory_skip_match(&s, "my_pool_get"));
	ck_assert(spaa_memory_skip_match(&s, "malloc"));
	ck_assert(!spaa_memory_skip_match(&s, "xmalloc2"));
	spaa_memory_skip_release(&s);
	/* replacing: --no-skip --skip */
	ck_assert_int_eq(spaa_memory_skip_init(&s, false, extra, 1, &err), 0);
	ck_assert(spaa_memory_skip_match(&s, "xmalloc"));
	ck_assert(!spaa_memory_skip_match(&s, "malloc"));
	spaa_memory_skip_release(&s);
	/* --no-skip alone: nothing is an allocator */
	ck_assert_int_eq(spaa_memory_skip_init(&s, false, NULL, 0, &err), 0);
	ck_assert(!spaa_memory_skip_match(&s, "malloc"));
	spaa_memory_skip_release(&s);
}
END_TEST

START_TEST(test_skip_bad_regex)
{
	const char *extra[] = { "ok", "(" };
	struct spaa_memory_skip s;
	struct spaa_error err;

	spaa_error_init(&err);
	ck_assert_int_eq(spaa_memory_skip_init(&s, true, extra, 2, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_USAGE);
	ck_assert_ptr_nonnull(strstr(err.msg, "'('"));
	ck_assert_ptr_null(s.res);
}
END_TEST

/* ---- accounting -------------------------------------------------------- */

struct loaded {
	struct spaa_profile p;
	struct spaa_fold fold;
	struct spaa_memory_skip skip;
	struct spaa_memory h;
};

static int fold_sample(void *data, const struct spaa_profile *p,
		       const struct spaa_sample *s, struct spaa_error *err)
{
	(void)p;
	return spaa_fold_add(data, s, err);
}

static void load(struct loaded *l, const char *path, bool ranged,
		 int64_t begin, int64_t end)
{
	struct spaa_load_opts lo = { 0 };
	struct spaa_error err;

	spaa_error_init(&err);
	spaa_profile_init(&l->p);
	spaa_fold_init(&l->fold, TESTUTIL_RANGE(begin, end));
	lo.on_sample = fold_sample;
	lo.data = &l->fold;
	ck_assert_msg(!spaa_load(&l->p, &path, 1, &lo, &err), "%s", err.msg);
	ck_assert_int_eq(spaa_memory_skip_init(&l->skip, true, NULL, 0, &err), 0);
	ck_assert_msg(!spaa_memory_build(&l->h, &l->p, &l->skip,
				       ranged ? &l->fold : NULL, NULL, &err), "%s", err.msg);
}

static void unload(struct loaded *l)
{
	spaa_memory_release(&l->h);
	spaa_memory_skip_release(&l->skip);
	spaa_fold_release(&l->fold);
	spaa_profile_release(&l->p);
}

/* The group whose path, "root;...;site", is name in pid. */
static const struct spaa_memory_group *group(const struct spaa_memory *h,
					   int64_t pid, const char *name)
{
	for (uint32_t g = 0; g < h->ngroups; g++) {
		char *n = spaa_memory_path_name(h, h->groups[g].path);
		bool same = !strcmp(n, name) && h->groups[g].pid == pid;

		free(n);
		if (same)
			return &h->groups[g];
	}
	ck_abort_msg("no group '%s' in pid %lld", name, (long long)pid);
	return NULL;
}

#define ALL_KNOWN ((1u << SPAA_MEMORY_NMETRICS) - 1)
#define NO_PEAK (ALL_KNOWN & ~SPAA_MEMORY_BIT(SPAA_MEMORY_PEAK_BYTES))

static void expect(const struct spaa_memory_group *g, unsigned known,
		   uint64_t ab, uint64_t ac, uint64_t fb, uint64_t fc,
		   uint64_t lb, uint64_t lc, uint64_t pk)
{
	const uint64_t want[] = { ab, ac, fb, fc, lb, lc, pk };

	ck_assert_uint_eq(g->known, known);
	for (int m = 0; m < SPAA_MEMORY_NMETRICS; m++)
		if (known & SPAA_MEMORY_BIT(m))
			ck_assert_msg(g->v[m] == want[m], "%s: %llu, want %llu",
				      spaa_memory_metric_name(m),
				      (unsigned long long)g->v[m],
				      (unsigned long long)want[m]);
}

START_TEST(test_sites_native)
{
	struct loaded l;

	load(&l, "tests/data/allocs_sites.spaa", false, 0, 0);
	ck_assert_uint_eq(l.h.ngroups, 5);
	/* S1 (malloc) + S2 (je_malloc <- _Znwm): both parse <- main */
	expect(group(&l.h, 100, "main;parse"), ALL_KNOWN,
	       4000, 13, 3400, 7, 600, 6, 2800);
	expect(group(&l.h, 100, "main;load_config"), ALL_KNOWN, 500, 5, 0, 0, 500, 5, 500);
	expect(group(&l.h, 200, "main;load_config"), ALL_KNOWN,
	       2048, 2, 1024, 1, 1024, 1, 2048);
	/* free_list_pop is not "free": anchored patterns */
	expect(group(&l.h, 200, "main;free_list_pop"), ALL_KNOWN, 64, 1, 0, 0, 64, 1, 64);
	/* nothing but malloc: the leaf is the site */
	expect(group(&l.h, 200, "malloc"), ALL_KNOWN, 16, 1, 16, 1, 0, 0, 16);
	ck_assert_uint_eq(l.h.derived, 0);
	ck_assert_uint_eq(l.h.unknown, 0);
	unload(&l);
}
END_TEST

START_TEST(test_frees_by_stack)
{
	struct loaded l;
	unsigned live = SPAA_MEMORY_BIT(SPAA_MEMORY_LIVE_BYTES) |
			SPAA_MEMORY_BIT(SPAA_MEMORY_LIVE_COUNT);

	load(&l, "tests/data/allocs_frees.spaa", false, 0, 0);
	ck_assert_uint_eq(l.h.ngroups, 3);
	ck_assert(l.h.frees_known);
	/* D1 (free <- handle_request@0x250 <- main) meets A1 (malloc <-
	 * handle_request@0x210 <- main): other stack id, other frame ids */
	expect(group(&l.h, 300, "main;handle_request"), NO_PEAK,
	       1000, 4, 700, 3, 300, 1, 0);
	expect(group(&l.h, 300, "main;make_buffer"), NO_PEAK, 600, 3, 0, 0, 600, 3, 0);
	/* frees of memory the profile never saw allocated */
	expect(group(&l.h, 300, "main;cleanup"), NO_PEAK, 0, 0, 50, 1, 0, 0, 0);
	ck_assert_uint_eq(l.h.derived, live);
	ck_assert_uint_eq(l.h.native & live, 0);
	ck_assert_uint_eq(l.h.unknown, SPAA_MEMORY_BIT(SPAA_MEMORY_PEAK_BYTES));
	unload(&l);
}
END_TEST

START_TEST(test_fold_range)
{
	struct loaded l;

	/* A1: 2 of 4 samples in range, periods 100 + 200; A2: 2 of 3, 200 + 200;
	 * D1: 1 of 3 (400); D2: none */
	load(&l, "tests/data/allocs_frees.spaa", true, 1000, 1499);
	ck_assert(l.h.ranged);
	ck_assert_uint_eq(l.h.ngroups, 2);
	/* counts: 4 * 2/4 = 2 and 3 * 1/3 = 1; live max(0, 300 - 400) = 0 */
	expect(group(&l.h, 300, "main;handle_request"), NO_PEAK, 300, 2, 400, 1, 0, 1, 0);
	expect(group(&l.h, 300, "main;make_buffer"), NO_PEAK, 400, 2, 0, 0, 400, 2, 0);
	unload(&l);
}
END_TEST

START_TEST(test_fold_whole_range)
{
	struct loaded all, rec;

	load(&all, "tests/data/allocs_frees.spaa", true, INT64_MIN, INT64_MAX);
	load(&rec, "tests/data/allocs_frees.spaa", false, 0, 0);
	ck_assert_uint_eq(all.h.ngroups, rec.h.ngroups);
	for (uint32_t g = 0; g < rec.h.ngroups; g++) {
		char *name = spaa_memory_path_name(&rec.h, rec.h.groups[g].path);
		const struct spaa_memory_group *a = group(&all.h, rec.h.groups[g].pid, name);

		ck_assert_uint_eq(a->known, rec.h.groups[g].known);
		ck_assert_mem_eq(a->v, rec.h.groups[g].v, sizeof(a->v));
		free(name);
	}
	unload(&all);
	unload(&rec);
}
END_TEST

START_TEST(test_no_frees_tracked)
{
	struct loaded l;
	uint64_t total = 0;
	unsigned unknown = SPAA_MEMORY_BIT(SPAA_MEMORY_FREE_BYTES) |
			   SPAA_MEMORY_BIT(SPAA_MEMORY_FREE_COUNT) |
			   SPAA_MEMORY_BIT(SPAA_MEMORY_LIVE_BYTES) |
			   SPAA_MEMORY_BIT(SPAA_MEMORY_LIVE_COUNT) |
			   SPAA_MEMORY_BIT(SPAA_MEMORY_PEAK_BYTES);

	/* V8 heap timeline: alloc_bytes and alloc_count only, tracks_frees false */
	load(&l, "tests/data/allocs_v8_heaptimeline.spaa.gz", false, 0, 0);
	ck_assert(!l.h.frees_known);
	ck_assert_uint_eq(l.h.unknown, unknown);
	ck_assert_uint_eq(l.h.derived, 0);
	for (uint32_t g = 0; g < l.h.ngroups; g++)
		total += l.h.groups[g].v[SPAA_MEMORY_ALLOC_BYTES];
	/* tests/allocs_reference.py sums the same file to 129190144 */
	ck_assert_uint_eq(total, 129190144);
	unload(&l);
}
END_TEST

/* ---- what the tables need ---------------------------------------------- */

static void setup(void)
{
	testutil_tmpdir_setup("check_heap");
}

static void teardown(void)
{
	testutil_tmpdir_teardown();
}

/* What spaa_memory_has_records said at each sample of a load. */
struct seen_at_samples {
	uint32_t seen;
	char said[8];           /* 'y' / 'n' per sample */
	size_t n;
};

static int note_records(void *data, const struct spaa_profile *p,
			const struct spaa_sample *s, struct spaa_error *err)
{
	struct seen_at_samples *w = data;

	(void)s;
	(void)err;
	ck_assert_uint_lt(w->n, sizeof(w->said) - 1);
	w->said[w->n++] = spaa_memory_has_records(p, &w->seen) ? 'y' : 'n';
	return 0;
}

START_TEST(test_has_records)
{
	/* a CPU record, then samples around the first malloc record */
	static const char text[] =
		"{\"type\":\"header\",\"format\":\"spaa\",\"version\":\"1.0\","
		"\"source_tool\":\"t\",\"frame_order\":\"leaf_to_root\",\"events\":["
		"{\"name\":\"cycles\",\"kind\":\"hardware\",\"sampling\":{\"mode\":\"period\","
		"\"primary_metric\":\"period\"}},"
		"{\"name\":\"malloc\",\"kind\":\"allocation\",\"sampling\":{\"mode\":\"event\","
		"\"primary_metric\":\"alloc_bytes\"}}],\"stack_id_mode\":\"local\"}\n"
		"{\"type\":\"dso\",\"id\":1,\"name\":\"a.out\"}\n"
		"{\"type\":\"frame\",\"id\":1,\"func\":\"main\",\"dso\":1}\n"
		"{\"type\":\"stack\",\"id\":\"C\",\"frames\":[1],\"context\":{\"event\":\"cycles\"},"
		"\"weights\":[{\"metric\":\"period\",\"value\":5}]}\n"
		"{\"type\":\"sample\",\"timestamp\":1,\"event\":\"malloc\",\"period\":8,\"stack_id\":\"M\"}\n"
		"{\"type\":\"stack\",\"id\":\"M\",\"frames\":[1],\"context\":{\"event\":\"malloc\"},"
		"\"weights\":[{\"metric\":\"alloc_bytes\",\"value\":8}]}\n"
		"{\"type\":\"sample\",\"timestamp\":2,\"event\":\"malloc\",\"period\":8,\"stack_id\":\"M\"}\n"
		"{\"type\":\"stack\",\"id\":\"N\",\"frames\":[1],\"context\":{\"event\":\"malloc\"},"
		"\"weights\":[{\"metric\":\"alloc_bytes\",\"value\":8}]}\n"
		"{\"type\":\"sample\",\"timestamp\":3,\"event\":\"malloc\",\"period\":8,\"stack_id\":\"N\"}\n";
	const char *path = testutil_write("records.spaa", text, sizeof(text) - 1);
	struct seen_at_samples w = { 0 };
	struct spaa_load_opts lo = { 0 };
	struct spaa_profile p;
	struct spaa_error err;
	uint32_t seen = 0;

	spaa_error_init(&err);
	spaa_profile_init(&p);
	lo.on_sample = note_records;
	lo.data = &w;
	ck_assert_msg(!spaa_load(&p, &path, 1, &lo, &err), "%s", err.msg);
	ck_assert_str_eq(w.said, "nyy");
	/* the CPU record was looked at once; the malloc record stops the scan */
	ck_assert_uint_eq(w.seen, 1);
	ck_assert_uint_eq(p.nrecords, 3);
	ck_assert(spaa_memory_has_records(&p, &seen));
	ck_assert_uint_eq(seen, 1);
	spaa_profile_release(&p);

	/* a CPU profile has none; every record is looked at */
	path = "tests/data/basic.spaa";
	spaa_profile_init(&p);
	lo = (struct spaa_load_opts){ 0 };
	ck_assert_msg(!spaa_load(&p, &path, 1, &lo, &err), "%s", err.msg);
	seen = 0;
	ck_assert(p.nrecords > 0);
	ck_assert(!spaa_memory_has_records(&p, &seen));
	ck_assert_uint_eq(seen, p.nrecords);
	spaa_profile_release(&p);
}
END_TEST

/* The path index named name in h, or abort. */
static uint32_t path_named(const struct spaa_memory *h, const char *name)
{
	for (uint32_t g = 0; g < h->ngroups; g++) {
		char *n = spaa_memory_path_name(h, h->groups[g].path);
		bool same = !strcmp(n, name);

		free(n);
		if (same)
			return h->groups[g].path;
	}
	ck_abort_msg("no path '%s'", name);
	return 0;
}

START_TEST(test_rank_paths)
{
	/*
	 * Root first, "malloc" sorts after every "main;..."; were the names
	 * made site first, it would come before "parse;main".
	 */
	static const char *const names[] = {
		"malloc", "main;parse", "main;load_config", "main;free_list_pop",
	};
	static const char *const sorted[] = {      /* parse twice */
		"main;free_list_pop", "main;load_config", "main;parse", "malloc",
	};
	struct spaa_rank r[5];
	struct loaded l;

	load(&l, "tests/data/allocs_sites.spaa", false, 0, 0);
	/* equal keys: names ascending, whatever the order given */
	for (int i = 0; i < 4; i++)
		r[i] = (struct spaa_rank){ 7, 7, NULL, 0, path_named(&l.h, names[i]) };
	/* the same path again: before its twin by tie */
	r[4] = (struct spaa_rank){ 7, 7, NULL, -1, path_named(&l.h, "main;parse") };
	spaa_memory_rank_paths(&l.h, r, 5);
	for (int i = 0; i < 5; i++)
		ck_assert_uint_eq(r[i].idx, path_named(&l.h, sorted[i < 3 ? i : i - 1]));
	ck_assert_int_eq(r[2].tie, -1);
	ck_assert_int_eq(r[3].tie, 0);
	/* keys before names: key descending, then key2 descending */
	r[4].key = 8;           /* malloc */
	r[0].key2 = 6;          /* main;free_list_pop */
	spaa_memory_rank_paths(&l.h, r, 5);
	ck_assert_uint_eq(r[0].idx, path_named(&l.h, "malloc"));
	ck_assert_uint_eq(r[4].idx, path_named(&l.h, "main;free_list_pop"));
	unload(&l);
}
END_TEST

Suite *memory_suite(void)
{
	Suite *s = suite_create("memory");
	TCase *tc = tcase_create("skip");

	tcase_add_test(tc, test_default_skip);
	tcase_add_test(tc, test_skip_options);
	tcase_add_test(tc, test_skip_bad_regex);
	suite_add_tcase(s, tc);
	tc = tcase_create("accounting");
	tcase_add_test(tc, test_sites_native);
	tcase_add_test(tc, test_frees_by_stack);
	tcase_add_test(tc, test_fold_range);
	tcase_add_test(tc, test_fold_whole_range);
	tcase_add_test(tc, test_no_frees_tracked);
	suite_add_tcase(s, tc);
	tc = tcase_create("tables");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_has_records);
	tcase_add_test(tc, test_rank_paths);
	tcase_add_test(tc, test_memory_time);
	suite_add_tcase(s, tc);
	return s;
}
