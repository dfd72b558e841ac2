/*
 * check_repeats - what a file repeats of earlier files of a load is stored
 * once (model/repeats.h, spaa_load_opts.fold_repeats): copies of a file
 * give the model of one copy with every weight multiplied by the number
 * of copies; records of another context, joined records and sums past
 * 64 bits stay apart; a file's own repeats stay as they are; errors
 * still name the file and line of the file being read.  The file entries
 * of copies fold into one that counts them; SPX reports share frames,
 * call paths and (same process) records, their samples naming the
 * shared stacks, also when a report has too many samples to hold.
 */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "formats/load.h"
#include "model/repeats.h"
#include "testutil.h"

Suite *repeats_suite(void);

static void setup(void)
{
	testutil_tmpdir_setup("check_repeats");
}

static void teardown(void)
{
	testutil_tmpdir_teardown();
}

#define EV(n) "{'name':'" n "','kind':'software','sampling':{'mode':'event','primary_metric':'samples'}}"

/*
 * Two events, a thread, a window, and a sample before the stack it names
 * (a placeholder, which is never shared).
 */
static const char profile[] = TESTUTIL_HEADER(EV("faults") "," EV("switches"))
	"{'type':'dso','id':1,'name':'/bin/a','is_kernel':false}\n"
	"{'type':'frame','id':1,'func':'main','dso':1}\n"
	"{'type':'frame','id':2,'func':'work','dso':1}\n"
	"{'type':'thread','pid':7,'tid':8,'comm':'w'}\n"
	"{'type':'sample','timestamp':5,'stack_id':'late','tid':8,'event':'faults'}\n"
	"{'type':'stack','id':'s','frames':[2,1],'context':{'event':'faults','tid':8},"
	"'weights':[{'metric':'samples','value':3},{'metric':'bytes','unit':'B','value':40}],"
	"'exclusive':{'frame':2,'weights':[{'metric':'samples','value':2}]}}\n"
	"{'type':'stack','id':'s','frames':[2,1],'context':{'event':'switches','tid':8},"
	"'weights':[{'metric':'samples','value':5}]}\n"
	"{'type':'stack','id':'t','frames':[2],'context':{'event':'faults'},'weights':[{'metric':'samples','value':7}]}\n"
	"{'type':'stack','id':'late','frames':[1],'context':{'event':'faults'},'weights':[{'metric':'samples','value':11}]}\n"
	"{'type':'window','start':1,'end':9,'by_stack':[{'stack_id':'s','weights':[{'metric':'samples','value':1}]}]}\n";

/* Writes text (' read as ") to DIR/NAME. */
static void put(const char *dir, const char *name, const char *text)
{
	char path[256], *t = strdup(text);

	ck_assert_ptr_nonnull(t);
	for (char *c = t; *c; c++)
		if (*c == '\'')
			*c = '"';
	mkdir(testutil_path(dir), 0700);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	testutil_write(path, t, strlen(t));
	free(t);
}

/* Loads directory dir (fold: with fold_repeats); returns spaa_load's result. */
static int load_dir(struct spaa_profile *p, const char *dir, bool fold,
		    struct spaa_error *err)
{
	const char *path = testutil_path(dir);
	struct spaa_load_opts o = { .fold_repeats = fold };

	spaa_profile_init(p);
	spaa_error_init(err);
	return spaa_load(p, &path, 1, &o, err);
}

static void load_ok(struct spaa_profile *p, const char *dir, bool fold)
{
	struct spaa_error err;

	ck_assert_msg(!load_dir(p, dir, fold, &err), "%s", err.msg);
}

static uint64_t weight(const struct spaa_profile *p, uint32_t off, uint32_t n,
		       const char *metric)
{
	uint64_t v = 0;

	ck_assert(spaa_profile_weights_get(p, off, n, testutil_str(p, metric), &v));
	return v;
}

START_TEST(test_copies_fold_into_one)
{
	struct spaa_profile one, three, apart;

	put("one", "a.spaa", profile);
	for (int i = 0; i < 3; i++)
		put("three", i == 0 ? "a.spaa" : i == 1 ? "b.spaa" : "c.spaa", profile);
	load_ok(&one, "one", true);
	load_ok(&apart, "three", false);
	load_ok(&three, "three", true);

	ck_assert_uint_eq(one.nrecords, 4);
	ck_assert_uint_eq(apart.nrecords, 12);
	/* s, t and their records shared; 'late' was a placeholder in each copy */
	ck_assert_uint_eq(three.nrecords, 4 + 2);
	ck_assert_uint_eq(one.nframes, 2);
	ck_assert_uint_eq(three.nframes, 2);
	ck_assert_uint_eq(one.nstacks, 3);
	ck_assert_uint_eq(three.nstacks, 3 + 2);
	ck_assert_uint_eq(three.nfiles, 3);
	ck_assert_uint_eq(three.nsamples, 3);
	ck_assert_uint_eq(three.nwindows, 3);

	/* the shared records: 3 times the one file's, same order */
	for (uint32_t i = 0; i < 3; i++) {
		const struct spaa_record *a = &one.records[i], *b = &three.records[i];

		ck_assert_uint_eq(a->stack, b->stack);
		ck_assert_uint_eq(a->event, b->event);
		ck_assert_int_eq(a->tid, b->tid);
		ck_assert_uint_eq(b->nweights, a->nweights);
		ck_assert_uint_eq(weight(&three, b->weights, b->nweights, "samples"),
				  3 * weight(&one, a->weights, a->nweights, "samples"));
	}
	ck_assert_uint_eq(weight(&three, three.records[0].weights, 2, "bytes"), 120);
	ck_assert_uint_eq(weight(&three, three.records[0].excl, 1, "samples"), 6);
	/* 'late' of each file, in file order */
	for (uint32_t i = 3; i < 6; i++) {
		ck_assert_uint_eq(three.records[i].stack, i == 3 ? 0 : i - 1);
		ck_assert_uint_eq(weight(&three, three.records[i].weights, 1, "samples"), 11);
	}
	/* the window entries keep their weights after the pool is compacted */
	for (uint32_t w = 0; w < 3; w++) {
		const struct spaa_window_entry *e = &three.window_entries[three.windows[w].entries];

		ck_assert_uint_eq(e->stack, three.records[0].stack);
		ck_assert_uint_eq(weight(&three, e->weights, e->nweights, "samples"), 1);
	}
	/* nothing in the pool but what the kept records and windows hold */
	ck_assert_uint_eq(three.nweight_pool, one.nweight_pool + 2 * (1 + 1));
	for (uint32_t ev = 0; ev < 2; ev++)
		ck_assert_uint_eq(spaa_profile_total(&three, ev, testutil_str(&three, "samples")),
				  spaa_profile_total(&apart, ev, testutil_str(&apart, "samples")));
	/* each stack's records, newest first, are the kept ones */
	ck_assert_uint_eq(three.stacks[three.records[0].stack].first_record, 1);
	ck_assert_uint_eq(three.records[1].next_same_stack, 0);
	ck_assert_uint_eq(three.records[0].next_same_stack, SPAA_NONE);
	spaa_profile_release(&one);
	spaa_profile_release(&three);
	spaa_profile_release(&apart);
}
END_TEST

/*
 * The exclusive metric is not among the weights: a larger exclusive
 * weight of a metric the stack has is taken as the stack's.
 */
#define BODY(tid, excl) \
	"{'type':'dso','id':1,'name':'/bin/a','is_kernel':false}\n" \
	"{'type':'frame','id':1,'func':'main','dso':1}\n" \
	"{'type':'stack','id':'s','frames':[1],'context':{'tid':" tid "}," \
	"'weights':[{'metric':'samples','value':1}]," \
	"'exclusive':{'frame':1,'weights':[{'metric':'cost','value':" excl "}]}}\n"

START_TEST(test_what_stays_apart)
{
	struct spaa_profile p;

	/* another thread: one stack, two records */
	put("ctx", "a.spaa", TESTUTIL_HEADER(EV("faults")) BODY("1", "1"));
	put("ctx", "b.spaa", TESTUTIL_HEADER(EV("faults")) BODY("2", "1"));
	load_ok(&p, "ctx", true);
	ck_assert_uint_eq(p.nstacks, 1);
	ck_assert_uint_eq(p.nrecords, 2);
	ck_assert_int_eq(p.records[0].tid, 1);
	ck_assert_int_eq(p.records[1].tid, 2);
	spaa_profile_release(&p);

	/* 2^63 twice does not fit: both records kept whole */
	put("big", "a.spaa", TESTUTIL_HEADER(EV("faults")) BODY("1", "9223372036854775808"));
	put("big", "b.spaa", TESTUTIL_HEADER(EV("faults")) BODY("1", "9223372036854775808"));
	put("big", "c.spaa", TESTUTIL_HEADER(EV("faults")) BODY("1", "9223372036854775807"));
	load_ok(&p, "big", true);
	ck_assert_uint_eq(p.nrecords, 2);
	ck_assert_uint_eq(weight(&p, p.records[0].excl, 1, "cost"), UINT64_MAX);
	ck_assert_uint_eq(weight(&p, p.records[0].weights, 1, "samples"), 2);
	ck_assert_uint_eq(weight(&p, p.records[1].excl, 1, "cost"), 9223372036854775808u);
	ck_assert_uint_eq(weight(&p, p.records[1].weights, 1, "samples"), 1);
	spaa_profile_release(&p);
}
END_TEST

/*
 * More records than the index starts with room for (it grows, placing
 * each record again by its key as the model holds it, no copy kept):
 * files of a stack of 300 threads each, the last two repeating the
 * first; every thread keeps one record, its weight the sum of its files'.
 */
START_TEST(test_many_records)
{
	enum { THREADS = 300 };
	struct spaa_profile p;
	size_t cap = THREADS * 200 + 1024, len;
	char *text = malloc(cap);

	for (int f = 0; f < 4; f++) {
		len = (size_t)snprintf(text, cap, "%s", TESTUTIL_HEADER(EV("faults"))
				     "{'type':'dso','id':1,'name':'/bin/a','is_kernel':false}\n"
				     "{'type':'frame','id':1,'func':'main','dso':1}\n");
		/* files 0, 2 and 3 alike; file 1 of other threads */
		for (int t = 0; t < THREADS; t++)
			len += (size_t)snprintf(text + len, cap - len, "{'type':'stack','id':'s','frames':[1],"
				      "'context':{'tid':%d},'weights':[{'metric':'samples','value':%d}]}\n",
				      f == 1 ? 1000 + t : t, t + 1);
		put("many", f == 0 ? "a.spaa" : f == 1 ? "b.spaa" : f == 2 ? "c.spaa" : "d.spaa", text);
	}
	load_ok(&p, "many", true);
	ck_assert_uint_eq(p.nrecords, 2 * THREADS);
	for (uint32_t i = 0; i < p.nrecords; i++) {
		const struct spaa_record *r = &p.records[i];
		int64_t t = r->tid >= 1000 ? r->tid - 1000 : r->tid;

		ck_assert_uint_eq(weight(&p, r->weights, r->nweights, "samples"),
				  (uint64_t)(t + 1) * (r->tid >= 1000 ? 1 : 3));
	}
	spaa_profile_release(&p);
	free(text);
}
END_TEST

/*
 * tests/data/related.spaa in short: user stack u1 joined with kernel
 * stack k1 (defined first, so the second file shares it), u2 alone.
 */
static const char related[] = TESTUTIL_HEADER(EV("faults"))
	"{'type':'dso','id':1,'name':'app','is_kernel':false}\n"
	"{'type':'dso','id':3,'name':'kernel','is_kernel':true}\n"
	"{'type':'frame','id':1,'func':'main','dso':1}\n"
	"{'type':'frame','id':10,'func':'sys_read','dso':3,'kind':'kernel'}\n"
	"{'type':'stack','id':'k1','frames':[10],'stack_type':'kernel','weights':[{'metric':'samples','value':4}]}\n"
	"{'type':'stack','id':'u1','frames':[1],'stack_type':'user','weights':[{'metric':'samples','value':4}],'related_stacks':['k1']}\n"
	"{'type':'stack','id':'u2','frames':[1,1],'stack_type':'user','weights':[{'metric':'samples','value':6}]}\n";

START_TEST(test_related_stacks)
{
	struct spaa_profile p;
	uint64_t counted = 0;

	put("rel", "a.spaa", related);
	put("rel", "b.spaa", related);
	load_ok(&p, "rel", true);
	/* k1 absorbed (merged), u1 joined in each file (kept), u2 merged */
	ck_assert_uint_eq(p.nstacks, 3);
	ck_assert_uint_eq(p.nrecords, 4);
	ck_assert(p.records[0].absorbed);
	ck_assert_uint_eq(weight(&p, p.records[0].weights, 1, "samples"), 8);
	ck_assert_uint_eq(p.records[1].nframes, 2);
	ck_assert_uint_eq(p.records[3].nframes, 2);
	ck_assert_uint_eq(p.records[3].stack, p.records[1].stack);
	ck_assert_uint_eq(weight(&p, p.records[2].weights, 1, "samples"), 12);
	for (uint32_t i = 0; i < p.nrecords; i++)
		if (!p.records[i].absorbed)
			counted += weight(&p, p.records[i].weights, 1, "samples");
	ck_assert_uint_eq(counted, 2 * (4 + 6));
	spaa_profile_release(&p);
}
END_TEST

START_TEST(test_errors_name_the_file)
{
	struct spaa_profile p;
	struct spaa_error err;

	put("reuse", "a.spaa", TESTUTIL_HEADER(EV("faults")) BODY("1", "1"));
	put("reuse", "b.spaa", TESTUTIL_HEADER(EV("faults"))
	    "{'type':'dso','id':1,'name':'/bin/a','is_kernel':false}\n"
	    "{'type':'frame','id':1,'func':'main','dso':1}\n"
	    "{'type':'frame','id':2,'func':'other','dso':1}\n"
	    "{'type':'stack','id':'s','frames':[1],'weights':[{'metric':'samples','value':1}]}\n"
	    "{'type':'stack','id':'s','frames':[2],'weights':[{'metric':'samples','value':1}]}\n");
	ck_assert_int_eq(load_dir(&p, "reuse", true, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.file, "b.spaa"));
	ck_assert_uint_eq(err.line, 6);
	ck_assert_str_eq(err.msg, "stack id 's' is reused with different frames (first defined on line 5)");
	spaa_profile_release(&p);
}
END_TEST

/* Copies of a profile without windows or placeholders: one file entry. */
START_TEST(test_file_entries_fold)
{
	static const char plain[] = TESTUTIL_HEADER(EV("faults"))
		"{'type':'dso','id':1,'name':'/bin/a','is_kernel':false}\n"
		"{'type':'frame','id':1,'func':'main','dso':1}\n"
		"{'type':'stack','id':'s','frames':[1],'weights':[{'metric':'samples','value':3}]}\n"
		"{'type':'sample','timestamp':5,'stack_id':'s'}\n";
	struct spaa_profile p;
	char want[512];

	for (int i = 0; i < 3; i++)
		put("copies", i == 0 ? "a.spaa" : i == 1 ? "b.spaa" : "c.spaa", plain);
	/* a new stack: an entry of its own, the next copy folds into a's */
	put("copies", "b2.spaa", TESTUTIL_HEADER(EV("faults"))
	    "{'type':'dso','id':1,'name':'/bin/a','is_kernel':false}\n"
	    "{'type':'frame','id':1,'func':'other','dso':1}\n"
	    "{'type':'stack','id':'s','frames':[1],'weights':[{'metric':'samples','value':1}]}\n");
	/* another format (folded stacks): the first entry of its kind */
	put("copies", "d.folded", "main 4\n");
	put("copies", "e.folded", "main 4\n");
	load_ok(&p, "copies", true);
	ck_assert_uint_eq(p.nfiles, 3);
	ck_assert_uint_eq(spaa_profile_files_read(&p), 6);
	snprintf(want, sizeof(want), "%s", testutil_path("copies/a.spaa"));
	ck_assert_str_eq(p.files[0].path, want);
	ck_assert_uint_eq(p.files[0].count, 3);
	ck_assert_str_eq(p.files[0].format, "SPAA");
	snprintf(want, sizeof(want), "%s", testutil_path("copies/b2.spaa"));
	ck_assert_str_eq(p.files[1].path, want);
	ck_assert_uint_eq(p.files[1].count, 1);
	ck_assert_str_eq(p.files[2].format, "folded stacks");
	ck_assert_uint_eq(p.files[2].count, 2);
	ck_assert_uint_eq(p.nsamples, 3);
	spaa_profile_release(&p);
	/* without fold_repeats every file keeps its entry */
	load_ok(&p, "copies", false);
	ck_assert_uint_eq(p.nfiles, 6);
	ck_assert_uint_eq(spaa_profile_files_read(&p), 6);
	spaa_profile_release(&p);
}
END_TEST

/* The samples a load saw: how many, the largest stack index. */
struct seen {
	uint64_t n;
	uint32_t max_stack;
};

static int on_sample(void *data, const struct spaa_profile *p,
		     const struct spaa_sample *s, struct spaa_error *err)
{
	struct seen *seen = data;

	(void)p;
	(void)err;
	seen->n++;
	if (s->stack > seen->max_stack)
		seen->max_stack = s->stack;
	return 0;
}

static void load_seen(struct spaa_profile *p, const char *dir, bool fold, struct seen *seen)
{
	const char *path = testutil_path(dir);
	struct spaa_load_opts o = {
		.fold_repeats = fold, .on_sample = on_sample, .data = seen,
	};
	struct spaa_error err;

	memset(seen, 0, sizeof(*seen));
	spaa_profile_init(p);
	spaa_error_init(&err);
	ck_assert_msg(!spaa_load(p, &path, 1, &o, &err), "%s", err.msg);
}

/* The bytes of file path (a small test data file), malloc'ed, in *len. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = malloc(1 << 16);

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(buf);
	*len = fread(buf, 1, 1 << 16, f);
	fclose(f);
	return buf;
}

/* The wt of the record of pid whose stack is depth frames with leaf leaf. */
static uint64_t path_wt(const struct spaa_profile *p, const char *leaf, int64_t pid,
			uint32_t depth)
{
	for (uint32_t i = 0; i < p->nrecords; i++) {
		const struct spaa_record *r = &p->records[i];
		const struct spaa_frame *f = &p->frames[p->frame_pool[r->frames]];

		if (r->pid == pid && r->nframes == depth &&
		    !strcmp(spaa_profile_str(p, p->functions[f->fn].name), leaf))
			return weight(p, r->weights, r->nweights, "wt");
	}
	ck_abort_msg("no record of %s for pid %lld", leaf, (long long)pid);
	return 0;
}

/*
 * tests/data/spx/basic (main calls a, a calls b, main calls b; wt
 * exclusive by hand: main 40, main>a 20, main>a>b 10, main>b 30) three
 * times, the third as another process.
 */
START_TEST(test_spx_reports_share)
{
	size_t jl, tl;
	char *json = slurp("tests/data/spx/basic.json", &jl);
	char *txt = slurp("tests/data/spx/basic.txt.gz", &tl);
	char *other = strstr(json, "4242");
	struct spaa_profile p;
	struct seen seen;

	mkdir(testutil_path("spx"), 0700);
	testutil_write("spx/r1.json", json, jl);
	testutil_write("spx/r1.txt.gz", txt, tl);
	testutil_write("spx/r2.json", json, jl);
	testutil_write("spx/r2.txt.gz", txt, tl);
	ck_assert_ptr_nonnull(other);
	memcpy(other, "4343", 4);       /* process_pid */
	testutil_write("spx/r3.json", json, jl);
	testutil_write("spx/r3.txt.gz", txt, tl);

	load_seen(&p, "spx", true, &seen);
	ck_assert_uint_eq(p.nframes, 3);
	ck_assert_uint_eq(p.nstacks, 4);
	/* one record a path and process: r1 and r2 summed */
	ck_assert_uint_eq(p.nrecords, 8);
	ck_assert_uint_eq(path_wt(&p, "main", 4242, 1), 80);
	ck_assert_uint_eq(path_wt(&p, "a", 4242, 2), 40);
	ck_assert_uint_eq(path_wt(&p, "b", 4242, 3), 20);
	ck_assert_uint_eq(path_wt(&p, "b", 4242, 2), 60);
	ck_assert_uint_eq(path_wt(&p, "main", 4343, 1), 40);
	ck_assert_uint_eq(path_wt(&p, "b", 4343, 2), 30);
	ck_assert_uint_eq(spaa_profile_total(&p, 0, testutil_str(&p, "wt")), 300);
	/* 7 slices a report, each naming a shared stack */
	ck_assert_uint_eq(seen.n, 21);
	ck_assert_uint_lt(seen.max_stack, 4);
	ck_assert_uint_eq(p.nfiles, 1);
	ck_assert_uint_eq(p.files[0].count, 3);
	spaa_profile_release(&p);

	load_seen(&p, "spx", false, &seen);
	ck_assert_uint_eq(p.nstacks, 12);
	ck_assert_uint_eq(p.nrecords, 12);
	ck_assert_uint_eq(p.nfiles, 3);
	ck_assert_uint_eq(seen.n, 21);
	ck_assert_uint_eq(spaa_profile_total(&p, 0, testutil_str(&p, "wt")), 300);
	spaa_profile_release(&p);
	free(json);
	free(txt);
}
END_TEST

/*
 * A report of more slices than the reader holds (65,536): its samples
 * stream, its paths are stacks of its own; sums stay exact.  main calls
 * f n times, 1 ns each step: 2n + 1 slices, main n + 1 ns, f n ns.
 */
START_TEST(test_spx_many_slices_stream)
{
	static const char meta[] = "{\"exec_ts\": 1, \"process_pid\": 9, \"enabled_metrics\": [\"wt\"]}\n";
	const int n = 40000;
	struct spaa_profile p;
	struct seen seen;
	char name[64];

	mkdir(testutil_path("big"), 0700);
	for (int r = 0; r < 2; r++) {
		FILE *f;

		snprintf(name, sizeof(name), "big/r%d.json", r);
		testutil_write(name, meta, sizeof(meta) - 1);
		snprintf(name, sizeof(name), "big/r%d.txt.gz", r);
		/* plain text under the .txt.gz name: input sniffs */
		f = fopen(testutil_path(name), "w");
		ck_assert_ptr_nonnull(f);
		fputs("[events]\n0 1 0\n", f);
		for (int i = 0; i < n; i++)
			fprintf(f, "1 1 %d\n1 0 %d\n", 2 * i + 1, 2 * i + 2);
		fprintf(f, "0 0 %d\n[functions]\nmain\nf\n", 2 * n + 1);
		fclose(f);
	}
	load_seen(&p, "big", true, &seen);
	ck_assert_uint_eq(seen.n, 2 * (2 * (uint64_t)n + 1));
	/* the second report's paths are its own: no sharing past the hold */
	ck_assert_uint_eq(p.nstacks, 4);
	ck_assert_uint_eq(seen.max_stack, 3);
	ck_assert_uint_eq(p.nframes, 2);
	ck_assert_uint_eq(spaa_profile_total(&p, 0, testutil_str(&p, "wt")),
			  2 * (2 * (uint64_t)n + 1));
	ck_assert_uint_eq(path_wt(&p, "f", 9, 2), (uint64_t)n);
	ck_assert_uint_eq(path_wt(&p, "main", 9, 1), (uint64_t)n + 1);
	spaa_profile_release(&p);
}
END_TEST

Suite *repeats_suite(void)
{
	Suite *s = suite_create("repeats");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_copies_fold_into_one);
	tcase_add_test(tc, test_what_stays_apart);
	tcase_add_test(tc, test_many_records);
	tcase_add_test(tc, test_related_stacks);
	tcase_add_test(tc, test_errors_name_the_file);
	tcase_add_test(tc, test_file_entries_fold);
	tcase_add_test(tc, test_spx_reports_share);
	tcase_add_test(tc, test_spx_many_slices_stream);
	suite_add_tcase(s, tc);
	return s;
}
