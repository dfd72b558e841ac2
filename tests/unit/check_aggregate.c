/*
 * check_aggregate - the sums of aggregate.h on small SPAA profiles loaded
 * through spaa_load: self and total per function (recursion counted
 * once), exclusive weights, per DSO, folded paths, threads and CPUs;
 * samples folded over a time range (fold.h) turned into weights.  Every
 * expected number is worked out by hand in the comments.
 */
#include <check.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/aggregate.h"
#include "formats/load.h"
#include "model/util.h"
#include "testutil.h"

Suite *aggregate_suite(void);

/* ---- loading a profile from lines ---------------------------------------- */

static void setup(void)
{
	testutil_tmpdir_setup("check_aggregate");
}

static void teardown(void)
{
	testutil_tmpdir_teardown();
}

struct samples {
	struct spaa_fold *folds[2];     /* each sample goes to both */
};

static int on_sample(void *data, const struct spaa_profile *p,
		     const struct spaa_sample *s, struct spaa_error *err)
{
	struct samples *ss = data;

	(void)p;
	for (int i = 0; i < 2; i++)
		if (ss->folds[i] && spaa_fold_add(ss->folds[i], s, err))
			return -1;
	return 0;
}

/*
 * Writes lines (' for ", one record each) and loads them into p,
 * folding samples into ss when given.
 */
static void load_lines(struct spaa_profile *p, const char *const *lines,
		       struct samples *ss)
{
	struct spaa_load_opts o;
	struct spaa_error err;
	char path[512];
	const char *paths[1] = { path };
	FILE *f;

	snprintf(path, sizeof(path), "%s/p.spaa", testutil_tmpdir());
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	for (size_t i = 0; lines[i]; i++) {
		for (const char *c = lines[i]; *c; c++)
			fputc(*c == '\'' ? '"' : *c, f);
		fputc('\n', f);
	}
	ck_assert_int_eq(fclose(f), 0);
	memset(&o, 0, sizeof(o));
	if (ss) {
		o.on_sample = on_sample;
		o.data = ss;
	}
	spaa_profile_init(p);
	spaa_error_init(&err);
	ck_assert_msg(!spaa_load(p, paths, 1, &o, &err), "%s:%lu: %s",
		      err.file, err.line, err.msg);
}

static uint32_t str(const struct spaa_profile *p, const char *s)
{
	uint32_t i = spaa_strtab_find(&p->strings, s, strlen(s));

	ck_assert_msg(i != SPAA_NONE, "'%s' is not in the profile", s);
	return i;
}

static uint32_t event(const struct spaa_profile *p, const char *name)
{
	uint32_t e = spaa_profile_find_event(p, name);

	ck_assert_uint_ne(e, SPAA_NONE);
	return e;
}

/*
 * Everything an aggregate holds, one fact per line, in index order (the
 * order of first appearance), zero entries left out.  Caller frees.
 */
static char *agg_summary(const struct spaa_aggregate *a)
{
	const struct spaa_profile *p = a->p;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	fprintf(f, "total=%" PRIu64 " occurrences=%" PRIu64 "%s%s\n", a->total,
		a->occurrences, a->samples_known ? " samples_known" : "",
		a->cpus_known ? " cpus_known" : "");
	for (uint32_t i = 0; i < spaa_profile_nfunctions(p); i++) {
		if (!a->fn_total[i] && !a->fn_self[i] && !a->fn_samples[i])
			continue;
		fprintf(f, "fn %s self=%" PRIu64 " total=%" PRIu64
			" samples=%" PRIu64 "\n",
			spaa_profile_str(p, p->functions[i].name), a->fn_self[i],
			a->fn_total[i], a->fn_samples[i]);
	}
	for (uint32_t i = 0; i < spaa_profile_ndsos(p); i++)
		if (a->dso_self[i])
			fprintf(f, "dso %s self=%" PRIu64 "\n",
				spaa_profile_str(p, p->dsos[i].name), a->dso_self[i]);
	/* path 0 is the string table's "" */
	for (uint32_t i = 1; i < a->paths.nr; i++) {
		char *name = spaa_aggregate_path_name(a, i);
		char *leaf = spaa_aggregate_path_name_leaf_first(a, i);
		size_t nlen = strlen(name);

		/* the same names, the other way round, of the length said */
		ck_assert_uint_eq(spaa_aggregate_path_name_len(a, i), nlen);
		ck_assert_uint_eq(strlen(leaf), nlen);
		for (size_t at = 0; at < nlen;) {
			size_t n = strcspn(name + at, ";"), end = nlen - at;

			ck_assert_int_eq(memcmp(leaf + end - n, name + at, n), 0);
			if (end > n)
				ck_assert_int_eq(leaf[end - n - 1], ';');
			at += n + 1;
		}
		fprintf(f, "path %s=%" PRIu64 "\n", name, a->path_weight[i]);
		free(name);
		free(leaf);
	}
	for (uint32_t i = 0; i < a->threads.nr; i++) {
		int64_t k[2];

		memcpy(k, spaa_map_key(&a->threads, i), sizeof(k));
		fprintf(f, "thread %" PRId64 "/%" PRId64 " comm=%s weight=%" PRIu64 "\n",
			k[0], k[1], spaa_profile_str(p, a->thread_comm[i]),
			a->thread_weight[i]);
	}
	for (uint32_t i = 0; i < a->thread_fn.nr; i++) {
		uint32_t k[2];
		int64_t t[2];

		memcpy(k, spaa_map_key(&a->thread_fn, i), sizeof(k));
		memcpy(t, spaa_map_key(&a->threads, k[0]), sizeof(t));
		fprintf(f, "thread_fn %" PRId64 "/%" PRId64 " %s self=%" PRIu64 "\n",
			t[0], t[1], spaa_profile_str(p, p->functions[k[1]].name),
			a->thread_fn_self[i]);
	}
	for (uint32_t i = 0; i < a->cpus.nr; i++) {
		int64_t c;

		memcpy(&c, spaa_map_key(&a->cpus, i), sizeof(c));
		fprintf(f, "cpu %" PRId64 " weight=%" PRIu64 "\n", c, a->cpu_weight[i]);
	}
	fclose(f);
	return buf;
}

/* ---- stack records ------------------------------------------------------- */

/*
 * Functions main, compute, fib (in /bin/app), memcpy (in libc, at two
 * addresses: frames 4 and 5), parse (in /bin/app).
 */
static const char *const agg_lines[] = {
	/* 1 */
	"{'type':'header','format':'spaa','version':'1.0','source_tool':'perf',"
	"'frame_order':'leaf_to_root','stack_id_mode':'content_addressable',"
	"'events':[{'name':'cycles','kind':'hardware','sampling':{'mode':"
	"'period','primary_metric':'period'}},{'name':'instructions','kind':"
	"'hardware','sampling':{'mode':'period','primary_metric':'period'}}]}",
	"{'type':'dso','id':1,'name':'/bin/app'}",
	"{'type':'dso','id':2,'name':'/lib/libc.so'}",
	"{'type':'frame','id':1,'func':'main','dso':1}",
	/* 5 */
	"{'type':'frame','id':2,'func':'compute','dso':1}",
	"{'type':'frame','id':3,'func':'fib','dso':1}",
	"{'type':'frame','id':4,'func':'memcpy','dso':2,'ip':'0x10'}",
	"{'type':'frame','id':5,'func':'memcpy','dso':2,'ip':'0x20'}",
	"{'type':'frame','id':6,'func':'parse','dso':1}",
	/* 10 */
	"{'type':'thread','pid':100,'tid':100,'comm':'app'}",
	"{'type':'thread','pid':100,'tid':101,'comm':'worker'}",
	/* a: main;compute;fib;fib;fib, no exclusive: self to the leaf */
	"{'type':'stack','id':'a','frames':[3,3,3,2,1],'context':{'event':"
	"'cycles','pid':100,'tid':100,'cpu':0},'weights':[{'metric':'period',"
	"'value':2},{'metric':'samples','value':2}]}",
	/* b: exclusive with the period: self 7 of 10 */
	"{'type':'stack','id':'b','frames':[4,2,1],'context':{'event':'cycles',"
	"'pid':100,'tid':101,'cpu':1},'weights':[{'metric':'period','value':10},"
	"{'metric':'samples','value':4}],'exclusive':{'frame':4,'weights':"
	"[{'metric':'period','value':7}]}}",
	/* c: exclusive without the period: for period, all 20 to the leaf */
	"{'type':'stack','id':'c','frames':[5,2,1],'context':{'event':'cycles',"
	"'pid':100,'tid':101,'cpu':1},'weights':[{'metric':'period','value':20},"
	"{'metric':'samples','value':5}],'exclusive':{'frame':5,'weights':"
	"[{'metric':'samples','value':5}]}}",
	/* 15: d: the pid comes from the thread dictionary; no cpu */
	"{'type':'stack','id':'d','frames':[6,1],'context':{'event':'cycles',"
	"'tid':100},'weights':[{'metric':'period','value':30},{'metric':"
	"'samples','value':1}]}",
	/* d again under the other event */
	"{'type':'stack','id':'d','frames':[6,1],'context':{'event':"
	"'instructions','tid':100},'weights':[{'metric':'period','value':1000},"
	"{'metric':'samples','value':9}]}",
	NULL,
};

static void agg_records(const struct spaa_profile *p, const char *ev,
			const char *metric, int64_t pid, int64_t tid,
			const char *want)
{
	struct spaa_aggregate a;
	struct spaa_error err;
	char *got;

	spaa_error_init(&err);
	spaa_aggregate_init(&a, p);
	ck_assert_int_eq(spaa_aggregate_add_records(&a, event(p, ev), str(p, metric),
					      TESTUTIL_THREAD(pid, tid), &err), 0);
	got = agg_summary(&a);
	ck_assert_str_eq(got, want);
	free(got);
	spaa_aggregate_release(&a);
}

START_TEST(test_records_period)
{
	struct spaa_profile p;

	load_lines(&p, agg_lines, NULL);
	/*
	 * cycles records a, b, c, d (period 2, 10, 20, 30):
	 *   total 2 + 10 + 20 + 30 = 62
	 *   main is on every stack: 62; compute on a b c: 2 + 10 + 20 = 32
	 *   fib three times on a, counted once: total 2, self 2 (leaf)
	 *   memcpy: total 10 + 20 = 30; self 7 (b's exclusive) + 20 (c's
	 *     exclusive has no period: the leaf takes all) = 27
	 *   parse: 30 / 30
	 *   self samples: fib 2, memcpy 4 + 5 = 9, parse 1
	 *   /bin/app self: 2 + 30 = 32; libc: 27
	 *   paths: b and c differ only in memcpy's address: 10 + 20 = 30
	 *   threads: 100/100: a + d = 32; 100/101: b + c = 30
	 *   cpus: 0: a = 2; 1: b + c = 30; d has none
	 */
	agg_records(&p, "cycles", "period", SPAA_NO_ID, SPAA_NO_ID,
		    "total=62 occurrences=4 samples_known cpus_known\n"
		    "fn main self=0 total=62 samples=0\n"
		    "fn compute self=0 total=32 samples=0\n"
		    "fn fib self=2 total=2 samples=2\n"
		    "fn memcpy self=27 total=30 samples=9\n"
		    "fn parse self=30 total=30 samples=1\n"
		    "dso /bin/app self=32\n"
		    "dso /lib/libc.so self=27\n"
		    "path main;compute;fib;fib;fib=2\n"
		    "path main;compute;memcpy=30\n"
		    "path main;parse=30\n"
		    "thread 100/100 comm=app weight=32\n"
		    "thread 100/101 comm=worker weight=30\n"
		    "thread_fn 100/100 fib self=2\n"
		    "thread_fn 100/101 memcpy self=27\n"
		    "thread_fn 100/100 parse self=30\n"
		    "cpu 0 weight=2\n"
		    "cpu 1 weight=30\n");
	spaa_profile_release(&p);
}
END_TEST

/* cpus_only: the total and the CPUs of test_records_period, nothing else. */
START_TEST(test_records_cpus_only)
{
	struct spaa_profile p;
	struct spaa_aggregate a;
	struct spaa_error err;
	char *got;

	load_lines(&p, agg_lines, NULL);
	spaa_error_init(&err);
	spaa_aggregate_init(&a, &p);
	a.cpus_only = true;
	ck_assert_int_eq(spaa_aggregate_add_records(&a, event(&p, "cycles"), str(&p, "period"),
					      NULL, &err), 0);
	got = agg_summary(&a);
	/* samples_known stays as init leaves it: only set by full adds */
	ck_assert_str_eq(got, "total=62 occurrences=4 samples_known cpus_known\n"
			 "cpu 0 weight=2\n"
			 "cpu 1 weight=30\n");
	free(got);
	spaa_aggregate_release(&a);
	spaa_profile_release(&p);
}
END_TEST

/*
 * spaa_profile_release_stacks after aggregating (what spaa-hotspots does
 * before its tables): the stacks and records are gone, the names the
 * aggregate shows are not, and it reads as before.
 */
START_TEST(test_release_stacks)
{
	struct spaa_profile p;
	struct spaa_aggregate a;
	struct spaa_error err;
	uint32_t nfn;
	char *before, *after;

	load_lines(&p, agg_lines, NULL);
	spaa_error_init(&err);
	spaa_aggregate_init(&a, &p);
	ck_assert_int_eq(spaa_aggregate_add_records(&a, event(&p, "cycles"),
					      str(&p, "period"), NULL, &err), 0);
	before = agg_summary(&a);
	nfn = spaa_profile_nfunctions(&p);
	ck_assert_uint_gt(p.nstacks, 0);
	ck_assert_uint_gt(p.nrecords, 0);
	spaa_profile_release_stacks(&p);
	ck_assert_uint_eq(p.nstacks, 0);
	ck_assert_uint_eq(p.nrecords, 0);
	ck_assert_uint_eq(p.nframe_pool, 0);
	ck_assert_uint_eq(p.nweight_pool, 0);
	ck_assert_ptr_null(p.records);
	ck_assert_uint_eq(spaa_profile_nfunctions(&p), nfn);
	after = agg_summary(&a);
	ck_assert_str_eq(after, before);
	spaa_profile_release_stacks(&p);        /* harmless twice */
	free(before);
	free(after);
	spaa_aggregate_release(&a);
	spaa_profile_release(&p);
}
END_TEST

START_TEST(test_records_samples)
{
	struct spaa_profile p;

	load_lines(&p, agg_lines, NULL);
	/*
	 * samples 2, 4, 5, 1: total 12
	 *   a: fib self 2; b: exclusive lacks samples: memcpy (leaf) 4;
	 *   c: exclusive has samples: memcpy 5; d: parse 1
	 *   main 12, compute 2 + 4 + 5 = 11, memcpy 9
	 *   /bin/app 2 + 1 = 3, libc 9
	 */
	agg_records(&p, "cycles", "samples", SPAA_NO_ID, SPAA_NO_ID,
		    "total=12 occurrences=4 samples_known cpus_known\n"
		    "fn main self=0 total=12 samples=0\n"
		    "fn compute self=0 total=11 samples=0\n"
		    "fn fib self=2 total=2 samples=2\n"
		    "fn memcpy self=9 total=9 samples=9\n"
		    "fn parse self=1 total=1 samples=1\n"
		    "dso /bin/app self=3\n"
		    "dso /lib/libc.so self=9\n"
		    "path main;compute;fib;fib;fib=2\n"
		    "path main;compute;memcpy=9\n"
		    "path main;parse=1\n"
		    "thread 100/100 comm=app weight=3\n"
		    "thread 100/101 comm=worker weight=9\n"
		    "thread_fn 100/100 fib self=2\n"
		    "thread_fn 100/101 memcpy self=9\n"
		    "thread_fn 100/100 parse self=1\n"
		    "cpu 0 weight=2\n"
		    "cpu 1 weight=9\n");
	spaa_profile_release(&p);
}
END_TEST

START_TEST(test_records_filters)
{
	struct spaa_profile p;

	load_lines(&p, agg_lines, NULL);
	/* thread 100/101: b + c = 30, memcpy self 7 + 20 */
	agg_records(&p, "cycles", "period", 100, 101,
		    "total=30 occurrences=2 samples_known cpus_known\n"
		    "fn main self=0 total=30 samples=0\n"
		    "fn compute self=0 total=30 samples=0\n"
		    "fn memcpy self=27 total=30 samples=9\n"
		    "dso /lib/libc.so self=27\n"
		    "path main;compute;memcpy=30\n"
		    "thread 100/101 comm=worker weight=30\n"
		    "thread_fn 100/101 memcpy self=27\n"
		    "cpu 1 weight=30\n");
	/* tid 100 of any process: a + d = 32 */
	agg_records(&p, "cycles", "period", SPAA_NO_ID, 100,
		    "total=32 occurrences=2 samples_known cpus_known\n"
		    "fn main self=0 total=32 samples=0\n"
		    "fn compute self=0 total=2 samples=0\n"
		    "fn fib self=2 total=2 samples=2\n"
		    "fn parse self=30 total=30 samples=1\n"
		    "dso /bin/app self=32\n"
		    "path main;compute;fib;fib;fib=2\n"
		    "path main;parse=30\n"
		    "thread 100/100 comm=app weight=32\n"
		    "thread_fn 100/100 fib self=2\n"
		    "thread_fn 100/100 parse self=30\n"
		    "cpu 0 weight=2\n");
	/* no such process */
	agg_records(&p, "cycles", "period", 999, SPAA_NO_ID,
		    "total=0 occurrences=0 samples_known\n");
	/* the other event: only d's second record, 1000 */
	agg_records(&p, "instructions", "period", SPAA_NO_ID, SPAA_NO_ID,
		    "total=1000 occurrences=1 samples_known\n"
		    "fn main self=0 total=1000 samples=0\n"
		    "fn parse self=1000 total=1000 samples=9\n"
		    "dso /bin/app self=1000\n"
		    "path main;parse=1000\n"
		    "thread 100/100 comm=app weight=1000\n"
		    "thread_fn 100/100 parse self=1000\n");
	/* a metric no record has (interning a string leaves the model be) */
	spaa_strtab_intern(&p.strings, "cache_misses", 12);
	agg_records(&p, "cycles", "cache_misses", SPAA_NO_ID, SPAA_NO_ID,
		    "total=0 occurrences=0 samples_known\n");
	spaa_profile_release(&p);
}
END_TEST

START_TEST(test_record_occurrence)
{
	struct spaa_profile p;
	struct spaa_aggregate_occurrence o;
	uint32_t period, samples;

	load_lines(&p, agg_lines, NULL);
	period = str(&p, "period");
	samples = str(&p, "samples");
	/* model frames: ids 1..6 are 0..5 */
	/* b (record 1): weight 10, self 7 to its exclusive frame 4 */
	ck_assert(spaa_aggregate_record_occurrence(&p, 1, period, &o));
	ck_assert_uint_eq(o.weight, 10);
	ck_assert_uint_eq(o.self, 7);
	ck_assert_uint_eq(o.self_frame, 3);
	ck_assert_uint_eq(o.nframes, 3);
	ck_assert_uint_eq(o.frames[0], 3);
	ck_assert_uint_eq(o.frames[1], 1);
	ck_assert_uint_eq(o.frames[2], 0);
	ck_assert(o.has_samples);
	ck_assert_uint_eq(o.samples, 4);
	ck_assert_int_eq(o.pid, 100);
	ck_assert_int_eq(o.tid, 101);
	ck_assert_int_eq(o.cpu, 1);
	ck_assert_str_eq(spaa_profile_str(&p, o.comm), "worker");
	/* c (record 2): period has no exclusive weight: all to the leaf */
	ck_assert(spaa_aggregate_record_occurrence(&p, 2, period, &o));
	ck_assert_uint_eq(o.weight, 20);
	ck_assert_uint_eq(o.self, 20);
	ck_assert_uint_eq(o.self_frame, 4);
	ck_assert(spaa_aggregate_record_occurrence(&p, 2, samples, &o));
	ck_assert_uint_eq(o.self, 5);
	ck_assert_uint_eq(o.self_frame, 4);
	/* d (record 3): pid from the thread dictionary, no cpu */
	ck_assert(spaa_aggregate_record_occurrence(&p, 3, period, &o));
	ck_assert_int_eq(o.pid, 100);
	ck_assert_int_eq(o.cpu, SPAA_NO_ID);
	ck_assert_uint_eq(o.self_frame, 5);
	/* absent metric */
	spaa_strtab_intern(&p.strings, "cache_misses", 12);
	ck_assert(!spaa_aggregate_record_occurrence(&p, 3, str(&p, "cache_misses"), &o));
	spaa_profile_release(&p);
}
END_TEST

/* Related user + kernel stacks count once, on the joined frames. */
START_TEST(test_records_related)
{
	static const char *const lines[] = {
		"{'type':'header','format':'spaa','version':'1.0','source_tool':"
		"'dtrace','frame_order':'leaf_to_root','stack_id_mode':"
		"'content_addressable','events':[{'name':'profile-997','kind':"
		"'timer','sampling':{'mode':'frequency','primary_metric':"
		"'samples','frequency_hz':997}}]}",
		"{'type':'dso','id':1,'name':'app'}",
		"{'type':'dso','id':2,'name':'unix','is_kernel':true}",
		"{'type':'frame','id':1,'func':'main','dso':1}",
		"{'type':'frame','id':2,'func':'read_wrapper','dso':1}",
		"{'type':'frame','id':3,'func':'sys_read','dso':2}",
		"{'type':'frame','id':4,'func':'vfs_read','dso':2}",
		"{'type':'stack','id':'u','frames':[2,1],'stack_type':'user',"
		"'related_stacks':['k'],'weights':[{'metric':'samples','value':4}],"
		"'exclusive':{'frame':2,'weights':[{'metric':'samples','value':4}]}}",
		"{'type':'stack','id':'k','frames':[4,3],'stack_type':'kernel',"
		"'related_stacks':['u'],'weights':[{'metric':'samples','value':4}]}",
		NULL,
	};
	struct spaa_profile p;

	load_lines(&p, lines, NULL);
	/*
	 * 4 samples once (the kernel record is absorbed), all self to the
	 * logical leaf vfs_read (the user exclusive no longer applies)
	 */
	agg_records(&p, "profile-997", "samples", SPAA_NO_ID, SPAA_NO_ID,
		    "total=4 occurrences=1 samples_known\n"
		    "fn main self=0 total=4 samples=0\n"
		    "fn read_wrapper self=0 total=4 samples=0\n"
		    "fn sys_read self=0 total=4 samples=0\n"
		    "fn vfs_read self=4 total=4 samples=4\n"
		    "dso unix self=4\n"
		    "path main;read_wrapper;sys_read;vfs_read=4\n");
	spaa_profile_release(&p);
}
END_TEST

/*
 * A function name in two DSOs is two functions (each with its own self
 * weight and DSO) but one call path, as flame graphs fold by name.
 */
START_TEST(test_paths_fold_by_name)
{
	static const char *const lines[] = {
		"{'type':'header','format':'spaa','version':'1.0','source_tool':"
		"'perf','frame_order':'leaf_to_root','stack_id_mode':'local',"
		"'events':[{'name':'cycles','kind':'hardware','sampling':{'mode':"
		"'period','primary_metric':'period'}}]}",
		"{'type':'dso','id':1,'name':'/bin/app'}",
		"{'type':'dso','id':2,'name':'/lib/a.so'}",
		"{'type':'dso','id':3,'name':'/lib/b.so'}",
		"{'type':'frame','id':1,'func':'main','dso':1}",
		"{'type':'frame','id':2,'func':'[unknown]','dso':2}",
		"{'type':'frame','id':3,'func':'[unknown]','dso':3}",
		"{'type':'stack','id':'x','frames':[2,1],'weights':[{'metric':"
		"'period','value':3}]}",
		"{'type':'stack','id':'y','frames':[3,1],'weights':[{'metric':"
		"'period','value':4}]}",
		NULL,
	};
	struct spaa_profile p;

	load_lines(&p, lines, NULL);
	/* [unknown]: 3 in a.so, 4 in b.so; one path main;[unknown] = 3 + 4 */
	agg_records(&p, "cycles", "period", SPAA_NO_ID, SPAA_NO_ID,
		    "total=7 occurrences=2\n"
		    "fn main self=0 total=7 samples=0\n"
		    "fn [unknown] self=3 total=3 samples=0\n"
		    "fn [unknown] self=4 total=4 samples=0\n"
		    "dso /lib/a.so self=3\n"
		    "dso /lib/b.so self=4\n"
		    "path main;[unknown]=7\n");
	spaa_profile_release(&p);
}
END_TEST

/* Sums that would pass 2^64 fail instead of wrapping. */
START_TEST(test_agg_overflow)
{
	struct spaa_profile p;
	struct spaa_aggregate a;
	struct spaa_aggregate_occurrence o;
	struct spaa_error err;

	load_lines(&p, agg_lines, NULL);
	spaa_aggregate_init(&a, &p);
	spaa_error_init(&err);
	ck_assert(spaa_aggregate_record_occurrence(&p, 0, str(&p, "period"), &o));
	o.weight = o.self = UINT64_MAX;
	ck_assert_int_eq(spaa_aggregate_add(&a, &o, &err), 0);
	ck_assert_uint_eq(a.total, UINT64_MAX);
	o.weight = o.self = 1;
	ck_assert_int_eq(spaa_aggregate_add(&a, &o, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_LIMIT);
	ck_assert_str_eq(err.msg, "a sum of weights overflows 64 bits");
	spaa_aggregate_release(&a);
	spaa_profile_release(&p);
}
END_TEST

/* ---- records summed on several threads ---------------------------------- */

/*
 * 97 stack records of two events over functions f0..f5 in /bin/app and
 * f2 again in /lib/x.so (one name, two functions: paths by name and by
 * function differ), recursion, exclusive weights on every 6th; threads
 * 1/1 and 1/2 from the dictionary, 1/3 from its records, named only by
 * the records from 60 on ('late'), 1/4 from record 70 on; CPUs 0 to 3,
 * none on every 5th, CPU 9 from record 80 on; record 50 without samples.
 * Keys new late, keys seen again, and first names coming late are
 * what sums on several threads must get right.
 */
static const char **split_lines(void)
{
	enum { NREC = 97 };
	const char **lines = spaa_xcalloc(NREC + 16, sizeof(*lines));
	size_t n = 0;
	char buf[1024];

	lines[n++] = spaa_xstrdup(
		"{'type':'header','format':'spaa','version':'1.0','source_tool':'perf',"
		"'frame_order':'leaf_to_root','stack_id_mode':'content_addressable',"
		"'events':[{'name':'cycles','kind':'hardware','sampling':{'mode':"
		"'period','primary_metric':'period'}},{'name':'instructions','kind':"
		"'hardware','sampling':{'mode':'period','primary_metric':'period'}}]}");
	lines[n++] = spaa_xstrdup("{'type':'dso','id':1,'name':'/bin/app'}");
	lines[n++] = spaa_xstrdup("{'type':'dso','id':2,'name':'/lib/x.so'}");
	for (int f = 0; f < 7; f++) {
		snprintf(buf, sizeof(buf), "{'type':'frame','id':%d,'func':'f%d','dso':%d}",
			 f + 1, f < 6 ? f : 2, f < 6 ? 1 : 2);
		lines[n++] = spaa_xstrdup(buf);
	}
	lines[n++] = spaa_xstrdup("{'type':'thread','pid':1,'tid':1,'comm':'main'}");
	lines[n++] = spaa_xstrdup("{'type':'thread','pid':1,'tid':2,'comm':'worker'}");
	for (unsigned i = 0; i < NREC; i++) {
		unsigned depth = 1 + i % 5, tid = i >= 70 && i % 2 ? 4 : 1 + i % 3;
		int at = snprintf(buf, sizeof(buf), "{'type':'stack','id':'s%u','frames':[", i);

		for (unsigned j = 0; j < depth; j++)
			at += snprintf(buf + at, sizeof(buf) - (size_t)at, "%s%u", j ? "," : "",
				       1 + (i * 7 + j * 3) % (i % 4 ? 7 : 3));
		at += snprintf(buf + at, sizeof(buf) - (size_t)at,
			       "],'context':{'event':'%s','pid':1,'tid':%u",
			       i % 7 == 3 ? "instructions" : "cycles", tid);
		if (tid == 3 && i >= 60)
			at += snprintf(buf + at, sizeof(buf) - (size_t)at, ",'comm':'late'");
		if (i % 5)
			at += snprintf(buf + at, sizeof(buf) - (size_t)at, ",'cpu':%u",
				       i >= 80 && i % 3 == 0 ? 9 : i % 4);
		at += snprintf(buf + at, sizeof(buf) - (size_t)at,
			       "},'weights':[{'metric':'period','value':%u}", i * 13 + 1);
		if (i != 50)
			at += snprintf(buf + at, sizeof(buf) - (size_t)at,
				       ",{'metric':'samples','value':%u}", i % 4 + 1);
		at += snprintf(buf + at, sizeof(buf) - (size_t)at, "]");
		if (i % 6 == 0)
			at += snprintf(buf + at, sizeof(buf) - (size_t)at,
				       ",'exclusive':{'frame':%u,'weights':[{'metric':'period',"
				       "'value':%u}]}", 1 + (i * 7) % (i % 4 ? 7 : 3), i * 5);
		snprintf(buf + at, sizeof(buf) - (size_t)at, "}");
		lines[n++] = spaa_xstrdup(buf);
	}
	return lines;
}

static void split_lines_free(const char **lines)
{
	for (size_t i = 0; lines[i]; i++)
		free((char *)lines[i]);
	free(lines);
}

/* How an aggregate is set up and fed, in one pass or split. */
struct split_case {
	const char *metric;
	const struct spaa_filter *filter;
	bool path_by_function, cpus_only;
	bool twice;     /* the other event first, then cycles as keys only */
};

/* The summary of c's aggregate on workers threads, however few the records. */
static char *split_summary(const struct spaa_profile *p, const struct split_case *c,
			   unsigned workers)
{
	struct spaa_aggregate a;
	struct spaa_error err;
	char *got;

	spaa_error_init(&err);
	spaa_aggregate_init(&a, p);
	a.workers = workers;
	a.split_min = 1;
	a.path_by_function = c->path_by_function;
	a.cpus_only = c->cpus_only;
	if (c->twice) {
		ck_assert_int_eq(spaa_aggregate_add_records(&a, event(p, "instructions"),
							    str(p, c->metric), c->filter,
							    &err), 0);
		a.keys_only = true;
	}
	ck_assert_int_eq(spaa_aggregate_add_records(&a, event(p, "cycles"), str(p, c->metric),
						    c->filter, &err), 0);
	ck_assert_str_eq(err.code, "");
	got = agg_summary(&a);
	spaa_aggregate_release(&a);
	return got;
}

/*
 * On 2, 3 and 8 threads (and 1), the records give what one pass gives:
 * every path, thread, thread-function and CPU at the same index (the
 * summary lists them in index order), the same sums and names.
 */
START_TEST(test_records_split)
{
	const char **lines = split_lines();
	struct spaa_filter focus;
	const struct split_case cases[] = {
		{ "period", NULL, false, false, false },
		{ "samples", NULL, false, false, false },
		{ "period", NULL, true, false, false },
		{ "period", NULL, false, true, false },
		{ "period", NULL, false, false, true },
		{ "period", TESTUTIL_THREAD(1, 3), false, false, false },
		{ "period", &focus, false, false, false },
	};
	const unsigned workers[] = { 1, 2, 3, 8 };
	struct spaa_profile p;

	load_lines(&p, lines, NULL);
	ck_assert_uint_eq(p.nrecords, 97);
	spaa_filter_init(&focus);
	ck_assert_int_eq(spaa_filter_set_focus(&focus, "^f[34]$"), 0);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		char *one = split_summary(&p, &cases[c], 0);

		/* the keys that come late are there */
		if (!cases[c].filter) {
			ck_assert_msg(strstr(one, "cpu 9 "), "case %zu:\n%s", c, one);
			ck_assert(cases[c].cpus_only || strstr(one, "thread 1/3 comm=late"));
			ck_assert(cases[c].cpus_only || strstr(one, "thread 1/4 "));
		}
		for (size_t w = 0; w < sizeof(workers) / sizeof(workers[0]); w++) {
			char *got = split_summary(&p, &cases[c], workers[w]);

			ck_assert_msg(!strcmp(got, one), "case %zu, %u threads:\n%s\nwant:\n%s",
				      c, workers[w], got, one);
			free(got);
		}
		free(one);
	}
	spaa_filter_release(&focus);
	spaa_profile_release(&p);
	split_lines_free(lines);
}
END_TEST

/*
 * Weights of 6e18 on four records: the sums pass 2^64 (about 1.8e19) at
 * the fourth, on the paths' thread (path main: a + c) and on the other
 * (total): the same error as one pass, whatever the threads.
 */
START_TEST(test_records_split_overflow)
{
	static const char *const lines[] = {
		"{'type':'header','format':'spaa','version':'1.0','source_tool':'perf',"
		"'frame_order':'leaf_to_root','stack_id_mode':'local','events':[{'name':"
		"'cycles','kind':'hardware','sampling':{'mode':'period','primary_metric':"
		"'period'}}]}",
		"{'type':'dso','id':1,'name':'/bin/app'}",
		"{'type':'frame','id':1,'func':'main','dso':1}",
		"{'type':'frame','id':2,'func':'work','dso':1}",
		"{'type':'stack','id':'a','frames':[1],'weights':[{'metric':'period','value':1}]}",
		"{'type':'stack','id':'b','frames':[2,1],'weights':[{'metric':'period','value':1}]}",
		"{'type':'stack','id':'c','frames':[1],'weights':[{'metric':'period','value':1}]}",
		"{'type':'stack','id':'d','frames':[2,1],'weights':[{'metric':'period','value':1}]}",
		NULL,
	};
	const unsigned workers[] = { 1, 2, 3, 4, 8 };
	struct spaa_profile p;

	load_lines(&p, lines, NULL);
	/* the loader refuses totals past 2^64: the weights are set after it */
	ck_assert_uint_eq(p.nrecords, 4);
	for (uint32_t i = 0; i < p.nrecords; i++) {
		ck_assert_uint_eq(p.records[i].nweights, 1);
		p.weight_pool[p.records[i].weights].value = 6000000000000000000u;
	}
	for (size_t w = 0; w < sizeof(workers) / sizeof(workers[0]); w++) {
		struct spaa_aggregate a;
		struct spaa_error err;

		spaa_error_init(&err);
		spaa_aggregate_init(&a, &p);
		a.workers = workers[w];
		a.split_min = 1;
		ck_assert_int_eq(spaa_aggregate_add_records(&a, event(&p, "cycles"),
							    str(&p, "period"), NULL, &err), -1);
		ck_assert_str_eq(err.code, SPAA_E_LIMIT);
		ck_assert_str_eq(err.msg, "a sum of weights overflows 64 bits");
		ck_assert_str_eq(err.file, "");
		ck_assert_uint_eq(err.line, 0);
		spaa_aggregate_release(&a);
	}
	/* three of them fit: 1.8e19 < 2^64, on any threads */
	for (size_t w = 0; w < sizeof(workers) / sizeof(workers[0]); w++) {
		struct spaa_aggregate a;
		struct spaa_error err;
		char *got;

		spaa_error_init(&err);
		spaa_aggregate_init(&a, &p);
		a.workers = workers[w];
		a.split_min = 1;
		p.records[3].event = SPAA_NONE;        /* d left out */
		ck_assert_int_eq(spaa_aggregate_add_records(&a, event(&p, "cycles"),
							    str(&p, "period"), NULL, &err), 0);
		got = agg_summary(&a);
		ck_assert_str_eq(got, "total=18000000000000000000 occurrences=3\n"
				 "fn main self=12000000000000000000 total=18000000000000000000 samples=0\n"
				 "fn work self=6000000000000000000 total=6000000000000000000 samples=0\n"
				 "dso /bin/app self=18000000000000000000\n"
				 "path main=12000000000000000000\n"
				 "path main;work=6000000000000000000\n");
		free(got);
		spaa_aggregate_release(&a);
	}
	spaa_profile_release(&p);
}
END_TEST

/* ---- sample folding ------------------------------------------------------ */

/* a sample record of process 1; period is "" or ",'period':N" */
#define SAMPLE(ts, tid, cpu, period, stack) \
	"{'type':'sample','timestamp':" ts ",'pid':1,'tid':" tid ",'cpu':" cpu \
	period ",'stack_id':'" stack "'}"

/*
 * Records A (main;work, tid 1), B (main, tid 1) and C (main;work, tid 2),
 * and their samples (times in seconds, cpu 0 unless said):
 *   A: 10.1 10.2 10.9, period 1000 each
 *   B: 10.5 on cpu 1, period 500
 *   C: 10.3 period 700, 10.4 without a period, 10.8 period 800
 */
static const char *const fold_lines[] = {
	"{'type':'header','format':'spaa','version':'1.0','source_tool':'perf',"
	"'frame_order':'leaf_to_root','stack_id_mode':'local','events':[{'name':"
	"'cpu-clock','kind':'software','sampling':{'mode':'period',"
	"'primary_metric':'period'}}],'time_range':{'start':10,'end':11,"
	"'unit':'seconds'}}",
	"{'type':'dso','id':1,'name':'/bin/app'}",
	"{'type':'frame','id':1,'func':'main','dso':1}",
	"{'type':'frame','id':2,'func':'work','dso':1}",
	"{'type':'stack','id':'A','frames':[2,1],'context':{'pid':1,'tid':1},"
	"'weights':[{'metric':'period','value':3000},{'metric':'samples',"
	"'value':3},{'metric':'cpu_time_ns','value':900}]}",
	"{'type':'stack','id':'B','frames':[1],'context':{'pid':1,'tid':1},"
	"'weights':[{'metric':'period','value':500},{'metric':'samples',"
	"'value':1},{'metric':'cpu_time_ns','value':100}]}",
	"{'type':'stack','id':'C','frames':[2,1],'context':{'pid':1,'tid':2},"
	"'weights':[{'metric':'period','value':1500},{'metric':'samples',"
	"'value':3},{'metric':'cpu_time_ns','value':1000}]}",
	SAMPLE("10.1", "1", "0", ",'period':1000", "A"),
	SAMPLE("10.2", "1", "0", ",'period':1000", "A"),
	SAMPLE("10.9", "1", "0", ",'period':1000", "A"),
	SAMPLE("10.5", "1", "1", ",'period':500", "B"),
	SAMPLE("10.3", "2", "0", ",'period':700", "C"),
	SAMPLE("10.4", "2", "0", "", "C"),
	SAMPLE("10.8", "2", "0", ",'period':800", "C"),
	NULL,
};

/* [10.0 s, 10.5 s], both ends included */
#define RANGE_BEGIN 10000000000ll
#define RANGE_END 10500000000ll

struct folded {
	struct spaa_profile p;
	struct spaa_fold range, all;
};

static void fold_load(struct folded *f)
{
	struct samples ss;

	spaa_fold_init(&f->range, TESTUTIL_RANGE(RANGE_BEGIN, RANGE_END));
	spaa_fold_init(&f->all, NULL);
	ss.folds[0] = &f->range;
	ss.folds[1] = &f->all;
	load_lines(&f->p, fold_lines, &ss);
}

static void fold_release(struct folded *f)
{
	spaa_fold_release(&f->range);
	spaa_fold_release(&f->all);
	spaa_profile_release(&f->p);
}

static void agg_fold(const struct folded *f, const struct spaa_fold *fold,
		     const char *metric, int64_t pid, int64_t tid,
		     const char *want)
{
	struct spaa_aggregate a;
	struct spaa_error err;
	char *got;

	spaa_error_init(&err);
	spaa_aggregate_init(&a, &f->p);
	ck_assert_int_eq(spaa_aggregate_add_fold(&a, fold, event(&f->p, "cpu-clock"),
					   str(&f->p, metric), TESTUTIL_THREAD(pid, tid), &err), 0);
	got = agg_summary(&a);
	ck_assert_str_eq(got, want);
	free(got);
	spaa_aggregate_release(&a);
}

START_TEST(test_fold_counts)
{
	struct folded f;

	fold_load(&f);
	/* in range: A 10.1 10.2; B 10.5 (the end is included); C 10.3 10.4 */
	ck_assert_uint_eq(f.range.in_samples, 5);
	ck_assert_uint_eq(f.all.in_samples, 7);
	/* three keys: (A, tid 1, cpu 0), (B, tid 1, cpu 1), (C, tid 2, cpu 0) */
	ck_assert_uint_eq(f.range.nkeys, 3);
	ck_assert_uint_eq(f.range.groups[0].count, 3);
	ck_assert_uint_eq(f.range.groups[0].in_count, 2);
	ck_assert_uint_eq(f.range.groups[0].in_period, 2000);
	ck_assert(f.range.all_period[0]);
	ck_assert_uint_eq(f.range.groups[2].count, 3);
	ck_assert_uint_eq(f.range.groups[2].in_count, 2);
	ck_assert_uint_eq(f.range.groups[2].in_period, 700);
	ck_assert(!f.range.all_period[2]);
	fold_release(&f);
}
END_TEST

START_TEST(test_fold_samples)
{
	struct folded f;

	fold_load(&f);
	/*
	 * samples in range: A 2, B 1, C 2 = 5; self: work (A, C) 2 + 2,
	 * main (B) 1; cpu 0: A 2 + C 2, cpu 1: B 1
	 */
	agg_fold(&f, &f.range, "samples", SPAA_NO_ID, SPAA_NO_ID,
		 "total=5 occurrences=3 samples_known cpus_known\n"
		 "fn main self=1 total=5 samples=1\n"
		 "fn work self=4 total=4 samples=4\n"
		 "dso /bin/app self=5\n"
		 "path main;work=4\n"
		 "path main=1\n"
		 "thread 1/1 comm= weight=3\n"
		 "thread 1/2 comm= weight=2\n"
		 "thread_fn 1/1 work self=2\n"
		 "thread_fn 1/1 main self=1\n"
		 "thread_fn 1/2 work self=2\n"
		 "cpu 0 weight=4\n"
		 "cpu 1 weight=1\n");
	fold_release(&f);
}
END_TEST

START_TEST(test_fold_period)
{
	struct folded f;

	fold_load(&f);
	/*
	 * A: every sample in range has a period: 1000 + 1000 = 2000
	 * B: 500
	 * C: 10.4 has none, so C's record is shared out: 1500 * 2/3 = 1000
	 * total 3500
	 */
	agg_fold(&f, &f.range, "period", SPAA_NO_ID, SPAA_NO_ID,
		 "total=3500 occurrences=3 samples_known cpus_known\n"
		 "fn main self=500 total=3500 samples=1\n"
		 "fn work self=3000 total=3000 samples=4\n"
		 "dso /bin/app self=3500\n"
		 "path main;work=3000\n"
		 "path main=500\n"
		 "thread 1/1 comm= weight=2500\n"
		 "thread 1/2 comm= weight=1000\n"
		 "thread_fn 1/1 work self=2000\n"
		 "thread_fn 1/1 main self=500\n"
		 "thread_fn 1/2 work self=1000\n"
		 "cpu 0 weight=3000\n"
		 "cpu 1 weight=500\n");
	fold_release(&f);
}
END_TEST

START_TEST(test_fold_other_metric)
{
	struct folded f;

	fold_load(&f);
	/*
	 * cpu_time_ns, the record's weight times the share of its samples
	 * in range:
	 *   A: 900 * 2/3 = 600
	 *   B: 100 * 1/1 = 100
	 *   C: 1000 * 2/3 = 666.67 -> 667 (rounded to nearest)
	 * total 1367
	 */
	agg_fold(&f, &f.range, "cpu_time_ns", SPAA_NO_ID, SPAA_NO_ID,
		 "total=1367 occurrences=3 samples_known cpus_known\n"
		 "fn main self=100 total=1367 samples=1\n"
		 "fn work self=1267 total=1267 samples=4\n"
		 "dso /bin/app self=1367\n"
		 "path main;work=1267\n"
		 "path main=100\n"
		 "thread 1/1 comm= weight=700\n"
		 "thread 1/2 comm= weight=667\n"
		 "thread_fn 1/1 work self=600\n"
		 "thread_fn 1/1 main self=100\n"
		 "thread_fn 1/2 work self=667\n"
		 "cpu 0 weight=1267\n"
		 "cpu 1 weight=100\n");
	/* only thread 2: C alone */
	agg_fold(&f, &f.range, "cpu_time_ns", SPAA_NO_ID, 2,
		 "total=667 occurrences=1 samples_known cpus_known\n"
		 "fn main self=0 total=667 samples=0\n"
		 "fn work self=667 total=667 samples=2\n"
		 "dso /bin/app self=667\n"
		 "path main;work=667\n"
		 "thread 1/2 comm= weight=667\n"
		 "thread_fn 1/2 work self=667\n"
		 "cpu 0 weight=667\n");
	/* a metric no record has: nothing to share out */
	spaa_strtab_intern(&f.p.strings, "cache_misses", 12);
	agg_fold(&f, &f.range, "cache_misses", SPAA_NO_ID, SPAA_NO_ID,
		 "total=0 occurrences=0 samples_known\n");
	fold_release(&f);
}
END_TEST

/*
 * Over the whole run the fold gives exactly the records' sums:
 *   samples: 3 + 1 + 3 = 7; period: A 3 x 1000 = 3000, B 500, C shared
 *   1500 * 3/3 = 1500, so 5000; cpu_time_ns: 900 + 100 + 1000 = 2000.
 */
START_TEST(test_fold_whole_range)
{
	static const struct {
		const char *metric;
		uint64_t total;
	} metrics[] = {
		{ "samples", 7 }, { "period", 5000 }, { "cpu_time_ns", 2000 },
	};
	struct folded f;

	fold_load(&f);
	for (size_t m = 0; m < sizeof(metrics) / sizeof(metrics[0]); m++) {
		struct spaa_aggregate from_records, from_fold;
		uint32_t ev = event(&f.p, "cpu-clock");
		uint32_t metric = str(&f.p, metrics[m].metric);
		struct spaa_error err;

		spaa_error_init(&err);
		spaa_aggregate_init(&from_records, &f.p);
		spaa_aggregate_init(&from_fold, &f.p);
		ck_assert_int_eq(spaa_aggregate_add_records(&from_records, ev, metric,
							    NULL, &err), 0);
		ck_assert_int_eq(spaa_aggregate_add_fold(&from_fold, &f.all, ev, metric,
						   NULL, &err), 0);
		ck_assert_uint_eq(from_records.total, metrics[m].total);
		ck_assert_uint_eq(from_fold.total, metrics[m].total);
		ck_assert_uint_eq(spaa_profile_total(&f.p, ev, metric),
				  metrics[m].total);
		for (uint32_t i = 0; i < spaa_profile_nfunctions(&f.p); i++) {
			ck_assert_uint_eq(from_fold.fn_self[i],
					  from_records.fn_self[i]);
			ck_assert_uint_eq(from_fold.fn_total[i],
					  from_records.fn_total[i]);
		}
		ck_assert_uint_eq(from_fold.paths.nr, from_records.paths.nr);
		for (uint32_t i = 1; i < from_fold.paths.nr; i++)
			ck_assert_uint_eq(from_fold.path_weight[i],
					  from_records.path_weight[i]);
		ck_assert_uint_eq(from_fold.threads.nr, from_records.threads.nr);
		for (uint32_t i = 0; i < from_fold.threads.nr; i++)
			ck_assert_uint_eq(from_fold.thread_weight[i],
					  from_records.thread_weight[i]);
		spaa_aggregate_release(&from_records);
		spaa_aggregate_release(&from_fold);
	}
	fold_release(&f);
}
END_TEST

Suite *aggregate_suite(void)
{
	Suite *s = suite_create("aggregate");
	TCase *tc;

	tc = tcase_create("records");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_records_period);
	tcase_add_test(tc, test_records_cpus_only);
	tcase_add_test(tc, test_release_stacks);
	tcase_add_test(tc, test_records_samples);
	tcase_add_test(tc, test_records_filters);
	tcase_add_test(tc, test_record_occurrence);
	tcase_add_test(tc, test_records_related);
	tcase_add_test(tc, test_paths_fold_by_name);
	tcase_add_test(tc, test_agg_overflow);
	tcase_add_test(tc, test_records_split);
	tcase_add_test(tc, test_records_split_overflow);
	suite_add_tcase(s, tc);

	tc = tcase_create("fold");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_fold_counts);
	tcase_add_test(tc, test_fold_samples);
	tcase_add_test(tc, test_fold_period);
	tcase_add_test(tc, test_fold_other_metric);
	tcase_add_test(tc, test_fold_whole_range);
	suite_add_tcase(s, tc);

	return s;
}
