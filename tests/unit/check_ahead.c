/*
 * check_ahead - small files read on other threads into models of their
 * own and grafted (formats/ahead.h, formats/graft.h) give the model, the
 * warnings, the samples, the progress and the errors of reading every
 * file in place, on one thread: the whole model printed
 * (testutil_dump_model) is compared for 1, 2, 3 and 8 threads, and with
 * every file that may be grafted grafted (graft_all).  Each file below
 * is written to take one path: grafted, or declined for one reason and
 * read again in place; the test counts the grafted ones.
 */
#include <check.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "formats/load.h"
#include "formats/spx_reader.h"
#include "model/sbuf.h"
#include "testutil.h"

Suite *ahead_suite(void);

static void setup(void)
{
	testutil_tmpdir_setup("check_ahead");
}

static void teardown(void)
{
	testutil_tmpdir_teardown();
}

#define CPU "{'name':'cpu-clock','kind':'software','sampling':{'mode':'period','primary_metric':'period'}}"
#define FAULTS "{'name':'faults','kind':'software','sampling':{'mode':'event','primary_metric':'samples'}}"
#define HDR(events, extra) "{'type':'header','format':'spaa','version':'1.0','source_tool':'perf'," \
	"'frame_order':'leaf_to_root','stack_id_mode':'content_addressable'" extra \
	",'events':[" events "]}\n"

#define DICT \
	"{'type':'dso','id':1,'name':'[kernel.kallsyms]','is_kernel':true}\n" \
	"{'type':'dso','id':2,'name':'/bin/app','is_kernel':false}\n" \
	"{'type':'frame','id':1,'func':'do_page_fault','dso':1,'ip':'0xff01'}\n" \
	"{'type':'frame','id':2,'func':'main','dso':2,'ip':'0x10','srcline':'app.c:3'}\n" \
	"{'type':'frame','id':3,'func':'work','dso':2,'ip':'0x20','inline_depth':0}\n" \
	"{'type':'thread','pid':7,'tid':7,'comm':'app'}\n" \
	"{'type':'thread','pid':7,'tid':8,'comm':'app-w'}\n"

/* stacks, one context twice (added together within the file) */
#define STACKS \
	"{'type':'stack','id':'a','frames':[3,2],'context':{'event':'cpu-clock','tid':7}," \
	"'weights':[{'metric':'period','unit':'ns','value':100},{'metric':'samples','value':1}]," \
	"'exclusive':{'frame':3,'weights':[{'metric':'period','unit':'ns','value':60}]}}\n" \
	"{'type':'stack','id':'b','frames':[1,3,2],'context':{'event':'cpu-clock','pid':7,'tid':8,'cpu':1}," \
	"'weights':[{'metric':'period','unit':'ns','value':250}]}\n" \
	"{'type':'stack','id':'a','frames':[3,2],'context':{'event':'cpu-clock','tid':8}," \
	"'weights':[{'metric':'period','unit':'ns','value':5}]}\n" \
	"{'type':'stack','id':'a','frames':[3,2],'context':{'event':'cpu-clock','tid':7}," \
	"'weights':[{'metric':'period','unit':'ns','value':7},{'metric':'samples','value':2}]," \
	"'exclusive':{'frame':3,'weights':[{'metric':'period','unit':'ns','value':1}]}}\n"

static const char base[] = HDR(CPU, "") DICT STACKS;

/*
 * New names, DSOs, a second event, labels, a time range in ms, a thread
 * named by an earlier file only (its records take that name at the end
 * of the file): grafted.
 */
static const char more[] = HDR(CPU "," FAULTS, ",'time_range':{'start':5,'end':9,'unit':'ms'}")
	"{'type':'dso','id':4,'name':'/bin/app','is_kernel':false}\n"
	"{'type':'dso','id':5,'name':'/lib/libc.so','build_id':'abc'}\n"
	"{'type':'frame','id':10,'func':'main','dso':4,'ip':'0x10','srcline':'app.c:3'}\n"
	"{'type':'frame','id':11,'func':'memcpy','dso':5}\n"
	"{'type':'frame','id':12,'func':'work','dso':4,'ip':'0x20','inline_depth':0}\n"
	"{'type':'frame','id':13,'func':'work','dso':4,'ip':'0x24','inlined':true}\n"
	"{'type':'stack','id':'c','frames':[11,12,10],'context':{'event':'faults','pid':9,'tid':9," \
	"'comm':'other','labels':{'b':'2','a':1}},'weights':[{'metric':'samples','value':3}]}\n"
	"{'type':'stack','id':'d','frames':[13,10],'context':{'event':'cpu-clock'}," \
	"'weights':[{'metric':'period','unit':'ns','value':9}]}\n"
	"{'type':'stack','id':'e','frames':[12,10],'context':{'event':'cpu-clock','pid':7,'tid':7}," \
	"'weights':[{'metric':'period','unit':'ns','value':4},{'metric':'samples','value':1}]," \
	"'exclusive':{'frame':12,'weights':[{'metric':'period','unit':'ns','value':4}]}}\n";

/* the same stacks written root first: grafted */
static const char rtl[] = "{'type':'header','format':'spaa','version':'1.0','source_tool':'perf',"
	"'frame_order':'root_to_leaf','stack_id_mode':'local','events':[" CPU "]}\n"
	DICT
	"{'type':'stack','id':1,'frames':[2,3],'context':{'event':'cpu-clock','pid':7,'tid':7}," \
	"'weights':[{'metric':'period','unit':'ns','value':11}]}\n";

/*
 * A thread named by an earlier file only: read in place, its first
 * record takes that name, and the second, which names it, is added to
 * the first; alone, the first has none yet.
 */
static const char unnamed[] = HDR(CPU, "")
	"{'type':'dso','id':2,'name':'/bin/app','is_kernel':false}\n"
	"{'type':'frame','id':2,'func':'main','dso':2,'ip':'0x10','srcline':'app.c:3'}\n"
	"{'type':'thread','pid':7,'tid':8}\n"
	"{'type':'stack','id':'m','frames':[2],'context':{'event':'cpu-clock','tid':8,'cpu':5}," \
	"'weights':[{'metric':'period','value':3}]}\n"
	"{'type':'stack','id':'m','frames':[2],'context':{'event':'cpu-clock','tid':8,'cpu':5,'comm':'app-w'}," \
	"'weights':[{'metric':'period','value':4}]}\n";

/* sample records: read in place */
static const char samples[] = HDR(CPU, "") DICT STACKS
	"{'type':'sample','timestamp':1.5,'stack_id':'a','tid':7,'period':3}\n"
	"{'type':'sample','timestamp':1.25,'stack_id':'b'}\n";

/*
 * Two ids of one earlier stack in a context no earlier file has: read
 * in place, the two records are added together; alone, they are of
 * two stacks.
 */
static const char twins[] = HDR(CPU, "") DICT
	"{'type':'stack','id':'x','frames':[3,2],'context':{'event':'cpu-clock','tid':8,'cpu':3}," \
	"'weights':[{'metric':'period','unit':'ns','value':2}]}\n"
	"{'type':'stack','id':'y','frames':[3,2],'context':{'event':'cpu-clock','tid':8,'cpu':3}," \
	"'weights':[{'metric':'period','unit':'ns','value':3}]}\n";

/* a warning: read in place, where it is said */
static const char warns[] = HDR(CPU, "") DICT STACKS "{'type':'comment','text':'hi'}\n";

/* a window record: read in place */
static const char windows[] = HDR(CPU, "") DICT STACKS
	"{'type':'window','start':1,'end':2,'by_stack':[{'stack_id':'a','weights':[{'metric':'period','value':1}]}]}\n";

/* related stacks: read in place */
static const char related[] = HDR(CPU, "") DICT
	"{'type':'stack','id':'k','stack_type':'kernel','frames':[1],'context':{'event':'cpu-clock','tid':7}," \
	"'weights':[{'metric':'period','value':4}],'related_stacks':['u']}\n"
	"{'type':'stack','id':'u','stack_type':'user','frames':[3,2],'context':{'event':'cpu-clock','tid':7}," \
	"'weights':[{'metric':'period','value':4}],'related_stacks':['k']}\n";

/* an event an earlier file declares otherwise: the error of reading it in place */
static const char clash[] = HDR("{'name':'cpu-clock','kind':'software','sampling':{'mode':'period','primary_metric':'samples'}}", "")
	DICT "{'type':'stack','id':'a','frames':[3,2],'weights':[{'metric':'samples','value':1}]}\n";

/* a total past 2^64 with the earlier files' */
static const char huge[] = HDR(CPU, "") DICT
	"{'type':'stack','id':'a','frames':[3,2],'context':{'event':'cpu-clock','tid':7}," \
	"'weights':[{'metric':'period','unit':'ns','value':18446744073709551000}]}\n";

/* not JSON on line 3 */
static const char broken[] = HDR(CPU, "") "{'type':'dso','id':1,'name':'/bin/a'}\n{'type':\n";

/*
 * Writes text, every ' read as ", to dir/name in the scratch directory
 * (dir made on first use).
 */
static void put(const char *name, const char *text)
{
	char *s = spaa_xstrdup(text), *dir = spaa_xstrdup(name);

	*strchr(dir, '/') = '\0';
	mkdir(testutil_path(dir), 0700);
	free(dir);
	for (char *c = s; *c; c++)
		if (*c == '\'')
			*c = '"';
	testutil_write(name, s, strlen(s));
	free(s);
}

static void on_warn(void *data, const char *file, unsigned long line, const char *msg)
{
	spaa_sbuf_printf(data, "warning %s:%lu: %s\n", file, line, msg);
}

/* The line of the samples the load's on_sample refuses (0: none). */
static unsigned long refuse_line;

static int on_sample(void *data, const struct spaa_profile *p,
		     const struct spaa_sample *s, struct spaa_error *err)
{
	if (refuse_line && s->line == refuse_line)
		return spaa_error_at(err, "refused", p->files[s->file].path, s->line,
				     "sample refused");
	spaa_sbuf_printf(data, "sample t=%" PRId64 " ev=%u st=%u pid=%" PRId64 " tid=%" PRId64
			 " file=%u line=%lu\n", s->time, s->event, s->stack, s->pid, s->tid,
			 s->file, s->line);
	return 0;
}

static void on_progress(void *data, uint64_t done, uint64_t total)
{
	spaa_sbuf_printf(data, "progress %" PRIu64 "/%" PRIu64 "\n", done, total);
}

/*
 * Everything a load of dir with threads threads gives, as text the
 * caller frees; *grafted the files grafted.
 */
static char *load_text(const char *dir, unsigned threads, bool all, uint32_t max_strings,
		       uint64_t *grafted)
{
	struct spaa_sbuf t = { 0 };
	struct spaa_load_stats stats = { 0 };
	struct spaa_profile p;
	struct spaa_error err;
	struct spaa_load_opts o = {
		.warn = { on_warn, &t }, .on_sample = on_sample, .data = &t,
		.on_progress = on_progress, .progress_data = &t,
		.fold_repeats = true, .threads = threads, .graft_all = all,
		.stats = &stats, .max_strings = max_strings,
	};
	int ret;

	spaa_profile_init(&p);
	spaa_error_init(&err);
	ret = spaa_load(&p, &dir, 1, &o, &err);
	spaa_sbuf_printf(&t, "ret %d %s %s:%lu: %s\n", ret, err.code, err.file, err.line, err.msg);
	testutil_dump_model(&t, &p);
	spaa_profile_release(&p);
	*grafted = stats.grafted;
	return t.s;
}

/* Fails, naming the first line where b differs from a, unless they are equal. */
static void same(const char *a, const char *b, const char *how, const char *dir)
{
	size_t i = 0, line = 1, start = 0;

	for (; a[i] && a[i] == b[i]; i++)
		if (a[i] == '\n')
			line++, start = i + 1;
	ck_assert_msg(!a[i] && !b[i], "%s differs from one thread on %s, line %zu: '%.80s' vs '%.80s'",
		      how, dir, line, a + start, b + start);
}

/*
 * Fails unless every thread count, and grafting every file, give what
 * one thread gives; returns the files grafted with graft_all.
 */
static uint64_t check_dir(const char *dir, uint32_t max_strings)
{
	static const unsigned counts[] = { 2, 3, 8 };
	uint64_t none, grafted;
	char *one = load_text(dir, 1, false, max_strings, &none);
	char *other;

	ck_assert_uint_eq(none, 0);
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		other = load_text(dir, counts[i], false, max_strings, &grafted);
		same(one, other, counts[i] == 2 ? "2 threads" : counts[i] == 3 ? "3 threads" :
		     "8 threads", dir);
		free(other);
	}
	other = load_text(dir, 2, true, max_strings, &grafted);
	same(one, other, "grafting every file", dir);
	free(other);
	free(one);
	return grafted;
}

START_TEST(test_every_kind_of_file)
{
	put("d/00-base.spaa", base);
	put("d/01-base.spaa", base);
	put("d/02-more.spaa", more);
	put("d/03-base.spaa", base);
	put("d/04-rtl.spaa", rtl);
	put("d/05-unnamed.spaa", unnamed);
	put("d/06-samples.spaa", samples);
	put("d/07-twins.spaa", twins);
	put("d/08-warns.spaa", warns);
	put("d/09-windows.spaa", windows);
	put("d/10-related.spaa", related);
	put("d/11-stacks.folded", "main;work 3\nmain 1\n");
	put("d/12-more.spaa", more);
	put("d/13-base.spaa", base);
	put("d/14-twins.spaa", twins);
	/* grafted: 00 (the first, onto an empty model), 01, 02, 03, 04, 12, 13 */
	ck_assert_uint_eq(check_dir(testutil_path("d"), 0), 7);
}
END_TEST

/* the first file of the twins: nothing earlier to take them for */
START_TEST(test_twins_first)
{
	put("t/0.spaa", twins);
	put("t/1.spaa", twins);
	put("t/2.spaa", base);
	ck_assert_uint_eq(check_dir(testutil_path("t"), 0), 2);
}
END_TEST

START_TEST(test_errors_where_reading_in_place_says)
{
	put("e1/0.spaa", base);
	put("e1/1.spaa", more);
	put("e1/2.spaa", clash);
	put("e1/3.spaa", base);
	ck_assert_uint_eq(check_dir(testutil_path("e1"), 0), 2);
	put("e2/0.spaa", base);
	put("e2/1.spaa", base);
	put("e2/2.spaa", huge);
	put("e2/3.spaa", base);
	ck_assert_uint_eq(check_dir(testutil_path("e2"), 0), 2);
	put("e3/0.spaa", base);
	put("e3/1.spaa", broken);
	put("e3/2.spaa", base);
	ck_assert_uint_eq(check_dir(testutil_path("e3"), 0), 1);
}
END_TEST

/*
 * The bound on strings: base holds 20 distinct strings with the model's
 * own two ("" and " sample periods"), more adds 10 (faults,
 * /lib/libc.so, abc, memcpy, 0x24, c, other, its labels, d, e); a bound
 * between makes more's reading fail where it does in place.
 */
START_TEST(test_bound_on_strings)
{
	put("s/0.spaa", base);
	put("s/1.spaa", base);
	put("s/2.spaa", more);
	ck_assert_uint_eq(check_dir(testutil_path("s"), 0), 3);
	ck_assert_uint_eq(check_dir(testutil_path("s"), 24), 2);
}
END_TEST

/*
 * The test profiles of every kind that load together (formats, frame
 * orders, samples, windows, related stacks, allocations, labels), twice
 * over: every other file repeats an earlier one.
 */
static const char *const test_data[] = {
	"alloc.spaa", "allocs_frees.spaa", "allocs_sites.spaa",
	"allocs_v8_heapsnapshot.spaa.gz", "allocs_v8_heaptimeline.spaa.gz", "basic.spaa",
	"basic.spaa.gz", "basic.spaa.zst", "basic_root_to_leaf.spaa", "diff_alloc_base.spaa",
	"diff_alloc_target.spaa", "diff_cwork_baseline.spaa.zst", "diff_cwork_hashslow.spaa.zst",
	"diff_doubled.spaa", "diff_doubled.spaa.gz", "diff_newgone.spaa", "diff_renamed.spaa",
	"diff_renumbered.spaa", "flame.spaa", "flame_base.spaa", "flame_target.spaa",
	"inline.spaa", "multi_event.spaa", "phases_abia.spaa", "phases_shifted.spaa",
	"phases_single.spaa", "phases_windows.spaa", "related.spaa", "samples.spaa",
	"text_utf8.spaa", "corpus/chrome_cpuprofile_jswork.spaa.zst",
	"corpus/chrome_cpuprofile_server.spaa.zst", "corpus/chrome_heapsnapshot_baseline.spaa.zst",
	"corpus/dtrace_freebsd_syscall_read.spaa.zst", "corpus/dtrace_macos_rg_profile.spaa.zst",
	"corpus/perf_cwork_dwarf_inline.spaa.zst", "corpus/perf_python_fp.spaa.gz",
	"corpus/perf_sort_mt.spaa.zst",
};

START_TEST(test_test_data_twice)
{
	size_t n = sizeof(test_data) / sizeof(test_data[0]);
	char cwd[4096], from[8192], name[256];
	uint64_t grafted;

	ck_assert_ptr_nonnull(getcwd(cwd, sizeof(cwd)));
	mkdir(testutil_path("data"), 0700);
	for (size_t i = 0; i < 2 * n; i++) {
		const char *f = test_data[i % n], *slash = strrchr(f, '/');

		snprintf(from, sizeof(from), "%s/tests/data/%s", cwd, f);
		snprintf(name, sizeof(name), "data/%03zu-%s", i, slash ? slash + 1 : f);
		ck_assert_int_eq(symlink(from, testutil_path(name)), 0);
	}
	grafted = check_dir(testutil_path("data"), 0);
	/* the files without sample or window records, related stacks or warnings */
	ck_assert_uint_ge(grafted, n);
}
END_TEST

/*
 * Links dir/NNN-KEY.json and dir/NNN-KEY.txt.gz to the SPX report KEY
 * (KEY.json, KEY.txt.gz) of tests/data.
 */
static void link_report(const char *dir, int n, const char *key)
{
	static const char *const ext[] = { ".json", ".txt.gz" };
	const char *file = strrchr(key, '/') + 1;
	char cwd[4096], from[8192], name[512];

	ck_assert_ptr_nonnull(getcwd(cwd, sizeof(cwd)));
	mkdir(testutil_path(dir), 0700);
	for (int e = 0; e < 2; e++) {
		snprintf(from, sizeof(from), "%s/tests/data/%s%s", cwd, key, ext[e]);
		snprintf(name, sizeof(name), "%s/%03d-%s%s", dir, n, file, ext[e]);
		ck_assert_int_eq(symlink(from, testutil_path(name)), 0);
	}
}

static const char *const spx_reports[] = {
	"spx/basic",
	"spx/names",
	"spx/recursion",
	"spx/unbalanced",
	"spx/corpus/01_tiny_default/spx-full-20261122_015405-vm-27608-1804289383",
	"spx/corpus/02_recursion_wt_ct_it/spx-full-20261122_015405-vm-27614-1804289383",
	"spx/corpus/04_oop_wt_ct_it/spx-full-20261122_015405-vm-27626-1804289383",
	"spx/corpus/05_closures_default/spx-full-20261122_015405-vm-27632-1804289383",
	"spx/corpus/06_memory_zm_alloc_free/spx-full-20261122_015405-vm-27638-1804289383",
	"spx/corpus/09_all_metrics_shuffled/spx-full-20261122_015406-vm-27656-1804289383",
	"spx/corpus/14_exceptions/spx-full-20261122_015408-vm-27687-1804289383",
	"spx/corpus/15_exit_in_function/spx-full-20261122_015408-vm-27693-1804289383",
	"spx/corpus/19_autostart_off_spans/spx-full-20261122_015409-vm-27717-1681692777",
	"spx/corpus/19_autostart_off_spans/spx-full-20261122_015409-vm-27717-1714636915",
	"spx/corpus/19_autostart_off_spans/spx-full-20261122_015409-vm-27717-1804289383",
	"spx/corpus/19_autostart_off_spans/spx-full-20261122_015409-vm-27717-846930886",
	"spx/corpus/20_naming_edge_cases/spx-full-20261122_015409-vm-27723-1804289383",
	"spx/corpus/25_zero_functions/spx-full-20261122_015410-vm-27761-1804289383",
	"spx/corpus/26_deep_recursion/spx-full-20261122_015410-vm-27767-1804289383",
	"spx/corpus/31_negative_values/spx-full-20261122_015413-vm-27800-1804289383",
};

/*
 * Every SPX report of tests/data twice over, after an SPAA file and
 * with one between: grafted with their samples, all but the two of
 * spx/unbalanced (a warning: calls left open at the end).
 */
START_TEST(test_spx_reports)
{
	size_t n = sizeof(spx_reports) / sizeof(spx_reports[0]);

	put("x/000-base.spaa", base);
	for (size_t i = 0; i < 2 * n; i++)
		link_report("x", (int)i + 1, spx_reports[i % n]);
	put("x/021-base.spaa", base);
	ck_assert_uint_eq(check_dir(testutil_path("x"), 0), 2 + 2 * n - 2);
}
END_TEST

/*
 * A report of two root calls, the second wrapping k calls of another
 * function: 2k + 2 slices, so samples.  Gzipped, as SPX writes it: under
 * 256 KiB on disk, so that it is read ahead (SPAA_AHEAD_FILE_MAX, ahead.h)
 * and read the same way whatever the threads.
 */
static void put_report(const char *dir, const char *key, int k)
{
	char name[256];
	struct spaa_sbuf t = { 0 };
	struct stat st;
	gzFile z;
	int ts = 0;

	snprintf(name, sizeof(name), "%s/%s.json", dir, key);
	put(name, "{'exec_ts': 1, 'process_pid': 9, 'enabled_metrics': ['wt', 'zm']}\n");
	spaa_sbuf_printf(&t, "[events]\n0 1 %d 0\n0 0 %d 0\n1 1 %d 0\n", ts, ts + 1, ts + 2);
	ts += 3;
	for (int i = 0; i < k; i++, ts += 2)
		spaa_sbuf_printf(&t, "2 1 %d 0\n2 0 %d 1\n", ts, ts + 1);
	spaa_sbuf_printf(&t, "1 0 %d 0\n[functions]\nfirst\nsecond\nthird\n", ts);
	snprintf(name, sizeof(name), "%s/%s.txt.gz", dir, key);
	z = gzopen(testutil_path(name), "wb9");
	ck_assert_ptr_nonnull(z);
	ck_assert_int_eq(gzwrite(z, t.s, (unsigned)t.len), (int)t.len);
	ck_assert_int_eq(gzclose(z), Z_OK);
	ck_assert_int_eq(stat(testutil_path(name), &st), 0);
	ck_assert_int_lt(st.st_size, 256 << 10);
	free(t.s);
}

/*
 * The samples a thread keeps for a graft are those the SPX reader holds
 * (SPAA_SPX_READER_HELD): a report of 65,536 is grafted, one of 65,538
 * streams its samples, which spaa_graft cannot give as reading did, and
 * is read in place.
 */
START_TEST(test_spx_held_samples)
{
	ck_assert_int_eq(SPAA_SPX_READER_HELD, 65536);
	put("h/0.spaa", base);
	put_report("h", "1-small", 3);
	put_report("h", "2-held", 32767);
	put_report("h", "3-streamed", 32768);
	put_report("h", "4-small", 3);
	ck_assert_uint_eq(check_dir(testutil_path("h"), 0), 4);
}
END_TEST

/*
 * A report whose fourth call path is the first's of an earlier report
 * (3 paths): reading it in place takes that path's stack, and its id
 * "3" is a string no earlier report has; the report read alone has it
 * too, so reading in place must intern it as well.
 */
START_TEST(test_spx_shared_path_new_id)
{
	static const char four[] = "[events]\n0 1 0 0\n0 0 1 0\n1 1 2 0\n1 0 3 0\n"
		"2 1 4 0\n2 0 5 0\n3 1 6 0\n3 0 7 0\n[functions]\nw\nx\ny\nfirst\n";

	put("i/0.spaa", base);
	put_report("i", "1-three-paths", 3);
	put("i/2-four.json", "{'exec_ts': 2, 'process_pid': 9, 'enabled_metrics': ['wt', 'zm']}\n");
	testutil_write("i/2-four.txt.gz", four, strlen(four));
	ck_assert_uint_eq(check_dir(testutil_path("i"), 0), 3);
}
END_TEST

/*
 * The load's on_sample failing: the error where reading in place gives
 * it, the files before it as they were read (only the third report has
 * a line 100).
 */
START_TEST(test_spx_sample_refused)
{
	uint64_t grafted;
	char *t;

	link_report("r", 0, spx_reports[1]);
	link_report("r", 1, spx_reports[2]);
	link_report("r", 2, spx_reports[6]);
	link_report("r", 3, spx_reports[1]);
	refuse_line = 100;
	t = load_text(testutil_path("r"), 1, false, 0, &grafted);
	ck_assert_msg(strstr(t, "-1804289383.json:100: sample refused\n"), "%.300s", strstr(t, "ret "));
	free(t);
	/* the first two grafted, the third failing */
	ck_assert_uint_eq(check_dir(testutil_path("r"), 0), 2);
	refuse_line = 0;
}
END_TEST

/* Reports that do not read: the error of reading them in place. */
START_TEST(test_spx_errors)
{
	link_report("b1", 0, spx_reports[1]);
	link_report("b1", 1, spx_reports[0]);
	link_report("b1", 2, "bad/spx_exit_mismatch/report");
	link_report("b1", 3, spx_reports[0]);
	ck_assert_uint_eq(check_dir(testutil_path("b1"), 0), 2);
	link_report("b2", 0, spx_reports[1]);
	link_report("b2", 1, "bad/spx_truncated/report");
	link_report("b2", 2, spx_reports[0]);
	ck_assert_uint_eq(check_dir(testutil_path("b2"), 0), 1);
}
END_TEST

Suite *ahead_suite(void)
{
	Suite *s = suite_create("ahead");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_every_kind_of_file);
	tcase_add_test(tc, test_twins_first);
	tcase_add_test(tc, test_errors_where_reading_in_place_says);
	tcase_add_test(tc, test_bound_on_strings);
	tcase_add_test(tc, test_test_data_twice);
	tcase_add_test(tc, test_spx_reports);
	tcase_add_test(tc, test_spx_held_samples);
	tcase_add_test(tc, test_spx_shared_path_new_id);
	tcase_add_test(tc, test_spx_sample_refused);
	tcase_add_test(tc, test_spx_errors);
	suite_add_tcase(s, tc);
	return s;
}
