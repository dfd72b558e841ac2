/*
 * check_perf_script - the perf script parser on the line shapes perf
 * prints: -F lists with pid/tid and cpu, the default tid-only line, comms
 * with spaces and colons, samples without a call graph, tracepoint
 * arguments, (inlined) frames, srclines, demangled names with parentheses,
 * and lines that must be rejected with their line number.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/perf_script.h"
#include "model/util.h"

Suite *perf_script_suite(void);

#define MAXS 8

/* What the callback saw, copied (the parser's strings are weak). */
struct seen {
	int n;
	char comm[MAXS][64], event[MAXS][64];
	int64_t pid[MAXS], tid[MAXS], cpu[MAXS], time[MAXS];
	uint64_t period[MAXS];
	bool has_period[MAXS];
	uint32_t nframes[MAXS];
	char sym[MAXS][4][64], dso[MAXS][4][64], symoff[MAXS][4][16], src[MAXS][4][32];
	uint64_t ip[MAXS][4];
	bool inl[MAXS][4];
};

static int on_sample(void *data, const struct spaa_perf_script_sample *s, struct spaa_error *err)
{
	struct seen *x = data;
	int i = x->n++;

	(void)err;
	ck_assert_int_lt(i, MAXS);
	snprintf(x->comm[i], 64, "%s", s->comm);
	snprintf(x->event[i], 64, "%s", s->event);
	x->pid[i] = s->pid;
	x->tid[i] = s->tid;
	x->cpu[i] = s->cpu;
	x->time[i] = s->has_time ? s->time : -1;
	x->period[i] = s->period;
	x->has_period[i] = s->has_period;
	x->nframes[i] = s->nframes;
	for (uint32_t f = 0; f < s->nframes && f < 4; f++) {
		snprintf(x->sym[i][f], 64, "%s", s->frames[f].sym);
		snprintf(x->dso[i][f], 64, "%s", s->frames[f].dso ? s->frames[f].dso : "(none)");
		snprintf(x->symoff[i][f], 16, "%s", s->frames[f].symoff ? s->frames[f].symoff : "");
		snprintf(x->src[i][f], 32, "%s", s->frames[f].srcline ? s->frames[f].srcline : "");
		x->ip[i][f] = s->frames[f].ip;
		x->inl[i][f] = s->frames[f].inlined;
	}
	return 0;
}

/* Feeds text (lines split at \n); returns 0 or -1 with err. */
static int feed(const char *text, struct seen *x, struct spaa_error *err)
{
	struct spaa_perf_script *ps = spaa_perf_script_new("t.perf", on_sample, x);
	unsigned long ln = 0;
	int ret = 0;

	memset(x, 0, sizeof(*x));
	spaa_error_init(err);
	while (*text && !ret) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);

		ret = spaa_perf_script_line(ps, text, len, ++ln, err);
		text += len + (nl ? 1 : 0);
	}
	if (!ret)
		ret = spaa_perf_script_finish(ps, err);
	spaa_perf_script_free(ps);
	return ret;
}

START_TEST(test_full_fields)
{
	struct seen x;
	struct spaa_error err;

	ck_assert_int_eq(feed("cwork-w2  7752/7756  [003]  1246.501877:    1001001 cpu-clock:ppp: \n"
			      "\tffffffff8161f2b6 __alloc_pages+0x176 ([kernel.kallsyms])\n"
			      "\t            16d6 fill_random.constprop.0+0x56 (/tmp/cwork)\n"
			      "\n", &x, &err), 0);
	ck_assert_int_eq(x.n, 1);
	ck_assert_str_eq(x.comm[0], "cwork-w2");
	ck_assert_int_eq(x.pid[0], 7752);
	ck_assert_int_eq(x.tid[0], 7756);
	ck_assert_int_eq(x.cpu[0], 3);
	ck_assert_int_eq(x.time[0], 1246501877000);      /* 1246.501877 s in ns */
	ck_assert(x.has_period[0]);
	ck_assert_uint_eq(x.period[0], 1001001);
	ck_assert_str_eq(x.event[0], "cpu-clock:ppp");
	ck_assert_uint_eq(x.nframes[0], 2);
	ck_assert_uint_eq(x.ip[0][0], 0xffffffff8161f2b6ull);
	ck_assert_str_eq(x.sym[0][0], "__alloc_pages");
	ck_assert_str_eq(x.symoff[0][0], "0x176");
	ck_assert_str_eq(x.dso[0][0], "[kernel.kallsyms]");
	ck_assert_str_eq(x.sym[0][1], "fill_random.constprop.0");
	ck_assert_str_eq(x.dso[0][1], "/tmp/cwork");
}
END_TEST

START_TEST(test_default_fields_and_odd_comms)
{
	struct seen x;
	struct spaa_error err;

	/* tid only, no cpu, no period; comms with a space and a colon */
	ck_assert_int_eq(feed("V8 DefaultWorke  4511   100.000000001: cycles: \n"
			      "\t    1234 f+0x1 (/bin/x)\n"
			      "kworker/0:1    12 [000]  100.5: sched:sched_switch: prev_comm=a prev_pid=1\n"
			      "\tffffffff81000000 __schedule+0x0 ([kernel.kallsyms])\n", &x, &err), 0);
	ck_assert_int_eq(x.n, 2);
	ck_assert_str_eq(x.comm[0], "V8 DefaultWorke");
	ck_assert(x.pid[0] == SPAA_PERF_SCRIPT_NO_ID);
	ck_assert_int_eq(x.tid[0], 4511);
	ck_assert(x.cpu[0] == SPAA_PERF_SCRIPT_NO_ID);
	ck_assert(!x.has_period[0]);
	ck_assert_int_eq(x.time[0], 100000000001);
	ck_assert_str_eq(x.comm[1], "kworker/0:1");
	ck_assert_int_eq(x.tid[1], 12);
	ck_assert_int_eq(x.time[1], 100500000000);
	ck_assert_str_eq(x.event[1], "sched:sched_switch");
	ck_assert_uint_eq(x.nframes[1], 1);      /* arguments are not a frame */
}
END_TEST

START_TEST(test_frames)
{
	struct seen x;
	struct spaa_error err;

	ck_assert_int_eq(feed("a 1/2 [0] 1.0: 5 cycles:  ffffffff81000010 do_x+0x10 ([kernel.kallsyms])\n"
			      "a 1/2 [0] 2.0: 5 cycles: \n"
			      "\t16d6 mix64+0x56 (inlined)\n"
			      "\t16d6 fill+0x56 (/bin/a)\n"
			      "  a.c:12\n"
			      "\t1764 std::vector<int>::push_back(int const&)+0x4 (/bin/a)\n"
			      "\t7f00 [unknown] ([unknown])\n", &x, &err), 0);
	ck_assert_int_eq(x.n, 2);
	ck_assert_uint_eq(x.nframes[0], 1);     /* the frame on the sample line */
	ck_assert_str_eq(x.sym[0][0], "do_x");
	ck_assert_uint_eq(x.nframes[1], 4);
	ck_assert(x.inl[1][0]);
	ck_assert_str_eq(x.dso[1][0], "inlined");
	ck_assert(!x.inl[1][1]);
	ck_assert_str_eq(x.src[1][1], "a.c:12");
	ck_assert_str_eq(x.sym[1][2], "std::vector<int>::push_back(int const&)");
	ck_assert_str_eq(x.symoff[1][2], "0x4");
	ck_assert_str_eq(x.sym[1][3], "[unknown]");
	ck_assert_str_eq(x.dso[1][3], "[unknown]");
	ck_assert_uint_eq(x.ip[1][3], 0x7f00);
}
END_TEST

START_TEST(test_rejects)
{
	struct seen x;
	struct spaa_error err;

	ck_assert_int_eq(feed("a 1/2 [0] 1.0: 5 cycles: \n\t12 f (/x)\nnot perf at all\n", &x, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_PARSE);
	ck_assert_uint_eq(err.line, 3);
	ck_assert_str_eq(err.file, "t.perf");
	ck_assert_int_eq(feed("\t12 f (/x)\n", &x, &err), -1);
	ck_assert_uint_eq(err.line, 1);
	ck_assert(spaa_perf_script_sniff("sort 23311/23311 [000]   579.273752:    2004008 cpu-clock:ppp: ", 63));
	ck_assert(!spaa_perf_script_sniff("main;work 3", 11));
	ck_assert(!spaa_perf_script_sniff("{\"type\":\"header\"}", 17));
}
END_TEST

Suite *perf_script_suite(void)
{
	Suite *s = suite_create("perf_script");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_full_fields);
	tcase_add_test(tc, test_default_fields_and_odd_comms);
	tcase_add_test(tc, test_frames);
	tcase_add_test(tc, test_rejects);
	suite_add_tcase(s, tc);
	return s;
}
