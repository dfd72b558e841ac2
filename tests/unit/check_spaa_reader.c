/*
 * check_reader - the SPAA 1.0 reader through spaa_load: every rejection of
 * spec section 7 and of spaa_reader.h with its exact error code, line and
 * cause; accepted inputs against model contents worked out by hand; and
 * the SHOULD-warn rules through a warning sink.
 *
 * Profiles are written as arrays of lines into a mkdtemp directory.  To
 * keep the tables readable, records are written with ' for " (no test
 * needs a literal ' in a record).
 */
#include <check.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#include "formats/load.h"
#include "model/util.h"
#include "testutil.h"

Suite *spaa_reader_suite(void);

/* ---- files --------------------------------------------------------------- */

static void setup(void)
{
	testutil_tmpdir_setup("check_reader");
}

static void teardown(void)
{
	testutil_tmpdir_teardown();
}

/* The text of lines (NULL-terminated), one per line, ' turned into ". */
static char *profile_text(const char *const *lines, size_t *len)
{
	size_t n = 0, at = 0;
	char *s;

	for (size_t i = 0; lines[i]; i++)
		n += strlen(lines[i]) + 1;
	s = spaa_xmalloc(n + 1);
	for (size_t i = 0; lines[i]; i++) {
		for (const char *c = lines[i]; *c; c++)
			s[at++] = *c == '\'' ? '"' : *c;
		s[at++] = '\n';
	}
	s[at] = '\0';
	*len = at;
	return s;
}

static const char *write_profile(const char *name, const char *const *lines)
{
	size_t len;
	char *text = profile_text(lines, &len);
	const char *path = testutil_write(name, text, len);

	free(text);
	return path;
}

/* ---- loading ------------------------------------------------------------- */

#define MAXWARN 32

struct warns {
	int n;
	char *file[MAXWARN];
	unsigned long line[MAXWARN];
	char *msg[MAXWARN];
};

static void warn_fn(void *data, const char *file, unsigned long line,
		    const char *msg)
{
	struct warns *w = data;

	ck_assert_int_lt(w->n, MAXWARN);
	w->file[w->n] = spaa_xstrdup(file);
	w->line[w->n] = line;
	w->msg[w->n] = spaa_xstrdup(msg);
	w->n++;
}

static void warns_release(struct warns *w)
{
	for (int i = 0; i < w->n; i++) {
		free(w->file[i]);
		free(w->msg[i]);
	}
	memset(w, 0, sizeof(*w));
}

/* Samples as the on_sample callback saw them. */
#define MAXSAMPLES 16

struct samples {
	int n;
	struct spaa_sample s[MAXSAMPLES];
	bool defined[MAXSAMPLES];       /* was the stack defined at the time */
	int stop_at;                    /* fail on this sample (1-based), 0 never */
};

static int on_sample(void *data, const struct spaa_profile *p,
		     const struct spaa_sample *s, struct spaa_error *err)
{
	struct samples *ss = data;

	ck_assert_int_lt(ss->n, MAXSAMPLES);
	ck_assert_uint_lt(s->stack, p->nstacks);
	ss->s[ss->n] = *s;
	ss->defined[ss->n] = p->stacks[s->stack].defined;
	ss->n++;
	if (ss->n == ss->stop_at)
		return spaa_error_set(err, SPAA_E_INTERNAL, "stopped at %d",
				      ss->n);
	return 0;
}

/* Loads path into p (initialized here); w and ss may be NULL. */
static int load(struct spaa_profile *p, const char *path, struct warns *w,
		struct samples *ss, uint32_t max_depth, struct spaa_error *err)
{
	struct spaa_load_opts o;

	memset(&o, 0, sizeof(o));
	if (w) {
		o.warn.fn = warn_fn;
		o.warn.data = w;
	}
	if (ss) {
		o.on_sample = on_sample;
		o.data = ss;
	}
	o.max_depth = max_depth;
	spaa_profile_init(p);
	spaa_error_init(err);
	return spaa_load(p, &path, 1, &o, err);
}

/* Loads lines, which must be accepted, without warnings. */
static void load_ok(struct spaa_profile *p, const char *const *lines)
{
	const char *path = write_profile("ok.spaa", lines);
	struct spaa_error err;
	struct warns w = { 0 };

	ck_assert_msg(!load(p, path, &w, NULL, 0, &err), "%s: %lu: %s",
		      err.code, err.line, err.msg);
	ck_assert_msg(w.n == 0, "unexpected warning: %s", w.n ? w.msg[0] : "");
	warns_release(&w);
}

static const char *fn_name(const struct spaa_profile *p, uint32_t frame)
{
	return spaa_profile_str(p, p->functions[p->frames[frame].fn].name);
}

static void put_weights(FILE *f, const struct spaa_profile *p, uint32_t off,
			uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		const struct spaa_weight *w = &p->weight_pool[off + i];

		fprintf(f, "%s%s=%" PRIu64, i ? "," : "", spaa_profile_str(p, w->metric),
			w->value);
		if (w->unit)
			fprintf(f, "/%s", spaa_profile_str(p, w->unit));
	}
}

static void put_id(FILE *f, const char *name, int64_t v)
{
	if (v == SPAA_NO_ID)
		fprintf(f, " %s=-", name);
	else
		fprintf(f, " %s=%" PRId64, name, v);
}

/*
 * One line per stack record: "STACK EVENT pid= tid= cpu= comm= [leaf,...,
 * root] WEIGHTS [excl FUNC: WEIGHTS] [absorbed]".  The caller frees it.
 */
static char *summary(const struct spaa_profile *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	for (uint32_t i = 0; i < p->nrecords; i++) {
		const struct spaa_record *r = &p->records[i];
		const uint32_t *fr = spaa_profile_record_frames(p, r);

		fprintf(f, "%s %s", spaa_profile_str(p, p->stacks[r->stack].id),
			spaa_profile_str(p, p->events[r->event].name));
		put_id(f, "pid", r->pid);
		put_id(f, "tid", r->tid);
		put_id(f, "cpu", r->cpu);
		fprintf(f, " comm=%s [", spaa_profile_str(p, r->comm));
		for (uint32_t k = 0; k < r->nframes; k++)
			fprintf(f, "%s%s", k ? "," : "", fn_name(p, fr[k]));
		fputs("] ", f);
		put_weights(f, p, r->weights, r->nweights);
		if (r->excl_frame != SPAA_NONE) {
			fprintf(f, " excl %s:", fn_name(p, r->excl_frame));
			put_weights(f, p, r->excl, r->nexcl);
		}
		if (r->absorbed)
			fputs(" absorbed", f);
		fputc('\n', f);
	}
	fclose(f);
	return buf;
}

/* ---- building blocks of profiles ----------------------------------------- */

#define HEAD(rest) "{'type':'header','format':'spaa','version':'1.0'," \
	"'source_tool':'perf'," rest "}"
#define EV_CYCLES "{'name':'cycles','kind':'hardware','sampling':" \
	"{'mode':'period','primary_metric':'period'}}"
#define EV_INSNS "{'name':'instructions','kind':'hardware','sampling':" \
	"{'mode':'period','primary_metric':'period'}}"
#define ORDER_LR "'frame_order':'leaf_to_root'"
#define ORDER_RL "'frame_order':'root_to_leaf'"
#define MODE_CA "'stack_id_mode':'content_addressable'"
/* one event "cycles" (primary metric "period"), leaf to root */
#define H1 HEAD(ORDER_LR "," MODE_CA ",'events':[" EV_CYCLES "]")
#define H1R HEAD(ORDER_RL "," MODE_CA ",'events':[" EV_CYCLES "]")
/* events "cycles" and "instructions" */
#define H2 HEAD(ORDER_LR "," MODE_CA ",'events':[" EV_CYCLES "," EV_INSNS "]")
/* H1 with a time range in unit u */
#define H1T(u) HEAD(ORDER_LR "," MODE_CA ",'events':[" EV_CYCLES "]," \
	"'time_range':{'start':0,'end':100,'unit':'" u "'}")

#define D1 "{'type':'dso','id':1,'name':'/bin/app','is_kernel':false}"
#define F1 "{'type':'frame','id':1,'func':'main','dso':1,'kind':'user'}"
#define F2 "{'type':'frame','id':2,'func':'work','dso':1}"
#define F3 "{'type':'frame','id':3,'func':'leaf','dso':1}"
#define F4 "{'type':'frame','id':4,'func':'deeper','dso':1}"
#define STK(id, frames, rest) \
	"{'type':'stack','id':'" id "','frames':[" frames "]," rest "}"
#define W(v) "'weights':[{'metric':'period','value':" v "}]"
#define W10 W("10")
#define EXCL(frame, v) "'exclusive':{'frame':" frame ",'weights':" \
	"[{'metric':'period','value':" v "}]}"
#define SMP(ts, sid) "{'type':'sample','timestamp':" ts ",'stack_id':'" sid "'}"
/* inlined frames 10..12 at one address, depth 2 (leaf) to 0 */
#define FI10 "{'type':'frame','id':10,'func':'check_bounds','dso':1," \
	"'ip':'0x200','inlined':true,'inline_depth':2}"
#define FI11 "{'type':'frame','id':11,'func':'validate','dso':1," \
	"'ip':'0x200','inlined':true,'inline_depth':1}"
#define FI12 "{'type':'frame','id':12,'func':'parse_file','dso':1," \
	"'ip':'0x200','inlined':false,'inline_depth':0}"

/* ---- rejections ---------------------------------------------------------- */

#define MAXLINES 12

static const struct bad_case {
	const char *lines[MAXLINES];
	const char *code;
	unsigned long line;
	const char *msg;                /* a substring of err.msg */
} bad_cases[] = {
	/* header not first, by a record or by a blank line */
	{ { D1, H1 }, SPAA_E_INVALID, 1,
	  "the header is not the first record (found a 'dso' record)" },
	{ { "", H1 }, SPAA_E_INVALID, 1,
	  "the header is not the first record (the line is blank)" },
	{ { " \t ", H1 }, SPAA_E_INVALID, 1,
	  "the header is not the first record (the line is blank)" },
	{ { "{'type':'comment'}", H1 }, SPAA_E_INVALID, 1,
	  "the header is not the first record (found a 'comment' record)" },
	/* a second header */
	{ { H1, D1, H1 }, SPAA_E_INVALID, 3,
	  "second 'header' record (the first is on line 1)" },
	/* frame naming an unknown DSO, or one defined only later */
	{ { H1, D1, "{'type':'frame','id':1,'func':'main','dso':7}" },
	  SPAA_E_INVALID, 3, "frame 1 references unknown dso id 7" },
	{ { H1, F1, D1 }, SPAA_E_INVALID, 2,
	  "frame 1 references unknown dso id 1" },
	/* stack naming an unknown frame */
	{ { H1, D1, F1, F2, STK("s1", "2,9", W10) }, SPAA_E_INVALID, 5,
	  "stack 's1' references unknown frame id 9" },
	/* primary metric missing */
	{ { H1, D1, F1,
	    STK("s1", "1", "'weights':[{'metric':'samples','value':3}]") },
	  SPAA_E_INVALID, 4,
	  "stack 's1' lacks the primary metric 'period' of event 'cycles'" },
	{ { H1, D1, F1, STK("s1", "1", "'weights':[]") }, SPAA_E_INVALID, 4,
	  "lacks the primary metric 'period'" },
	/* case 10: frame order: the exclusive frame is at the root end */
	{ { H1, D1, F1, F2, F3, STK("s1", "3,2,1", W10 "," EXCL("1", "10")) },
	  SPAA_E_INVALID, 6,
	  "frame order does not match the header's 'leaf_to_root': the "
	  "exclusive frame 1 of stack 's1' is at the root end" },
	/* root_to_leaf declared, written leaf first: leaf 3 is the root end */
	{ { H1R, D1, F1, F2, F3, STK("s1", "3,2,1", W10 "," EXCL("3", "10")) },
	  SPAA_E_INVALID, 6,
	  "frame order does not match the header's 'root_to_leaf': the "
	  "exclusive frame 3 of stack 's1' is at the root end" },
	/* frame order: inline depth grows toward the leaf */
	{ { H1, D1, F1, FI10, FI11, FI12, STK("s1", "12,11,10,1", W10) },
	  SPAA_E_INVALID, 7,
	  "frame order does not match the header's 'leaf_to_root': inline "
	  "depth grows toward the leaf" },
	{ { H1R, D1, F1, FI10, FI11, FI12, STK("s1", "10,11,12,1", W10) },
	  SPAA_E_INVALID, 7,
	  "frame order does not match the header's 'root_to_leaf': inline "
	  "depth grows toward the leaf" },
	/* exclusive frame that is not the leaf */
	{ { H1, D1, F1, F2, F3, STK("s1", "3,2,1", W10 "," EXCL("2", "10")) },
	  SPAA_E_INVALID, 6, "exclusive frame 2 of stack 's1' is not its leaf frame" },
	{ { H1, D1, F1, F2, F3, STK("s1", "3,2,1", W10 "," EXCL("9", "10")) },
	  SPAA_E_INVALID, 6,
	  "exclusive frame 9 of stack 's1' is not a known frame" },
	/* stack id reused with different frames: the error names line 5 */
	{ { H1, D1, F1, F2, STK("s1", "2,1", W10), STK("s1", "1", W10) },
	  SPAA_E_INVALID, 6,
	  "stack id 's1' is reused with different frames (first defined on line 5)" },
	{ { H1, D1, F1, F2, STK("s1", "2,1", W10), STK("s1", "1,2", W10) },
	  SPAA_E_INVALID, 6,
	  "stack id 's1' is reused with different frames (first defined on line 5)" },
	{ { H1, D1, F1, F2, STK("s1", "2,1", W10), "{'type':'comment'}",
	    STK("s1", "2,1", W10 ",'stack_type':'user'") },
	  SPAA_E_INVALID, 7,
	  "stack id 's1' is reused with different frames (first defined on line 5)" },
	/* a sample naming a stack never defined: the first such sample */
	{ { H1, D1, F1, STK("s1", "1", W10), SMP("1.0", "zz"), SMP("2.0", "s1"),
	    SMP("3.0", "zz") },
	  SPAA_E_INVALID, 5, "stack 'zz' is referenced but never defined" },
	/* case 20: a related_stacks mention is no definition nor a hard reference */
	{ { H1, D1, F1, STK("s1", "1", W10 ",'related_stacks':['zz']"),
	    SMP("1.0", "zz") },
	  SPAA_E_INVALID, 5, "stack 'zz' is referenced but never defined" },
	/* a window naming a stack never defined */
	{ { H1, D1, F1, STK("s1", "1", W10),
	    "{'type':'window','id':'w1','start':1,'end':2,'by_stack':["
	    "{'stack_id':'s1'," W("1") "},{'stack_id':'zz'," W("2") "}]}" },
	  SPAA_E_INVALID, 5, "stack 'zz' is referenced but never defined" },
	/* enum values outside the spec */
	{ { HEAD("'frame_order':'leaf_first'," MODE_CA ",'events':[" EV_CYCLES "]") },
	  SPAA_E_INVALID, 1,
	  "'frame_order' in 'header' record is 'leaf_first', not one of "
	  "'leaf_to_root', 'root_to_leaf'" },
	{ { HEAD("'frame_order':'Leaf_To_Root'," MODE_CA ",'events':[" EV_CYCLES "]") },
	  SPAA_E_INVALID, 1,
	  "'frame_order' in 'header' record is 'Leaf_To_Root', not one of" },
	{ { HEAD(ORDER_LR ",'stack_id_mode':'hash','events':[" EV_CYCLES "]") },
	  SPAA_E_INVALID, 1,
	  "'stack_id_mode' in 'header' record is 'hash', not one of "
	  "'content_addressable', 'local'" },
	{ { HEAD(ORDER_LR "," MODE_CA ",'events':[{'name':'c','kind':'cpu',"
		 "'sampling':{'mode':'period','primary_metric':'period'}}]") },
	  SPAA_E_INVALID, 1,
	  "'kind' in 'header' record is 'cpu', not one of 'hardware', "
	  "'software', 'allocation', 'deallocation', 'timer', 'probe'" },
	{ { HEAD(ORDER_LR "," MODE_CA ",'events':[{'name':'c','kind':'timer',"
		 "'sampling':{'mode':'random','primary_metric':'samples'}}]") },
	  SPAA_E_INVALID, 1,
	  "'mode' in 'header' record is 'random', not one of 'period', "
	  "'frequency', 'event'" },
	{ { H1, D1, "{'type':'frame','id':1,'func':'main','dso':1,'kind':'jit'}" },
	  SPAA_E_INVALID, 3,
	  "'kind' in 'frame' record is 'jit', not one of 'user', 'kernel', 'unknown'" },
	{ { H1, D1, F1, STK("s1", "1", W10 ",'stack_type':'mixed'") },
	  SPAA_E_INVALID, 4,
	  "'stack_type' in 'stack' record is 'mixed', not one of 'unified', "
	  "'user', 'kernel'" },
	{ { H1T("minutes") }, SPAA_E_INVALID, 1,
	  "'unit' in 'header' record is 'minutes', not one of 'seconds'" },
	/* case 30: missing required fields: header */
	{ { HEAD(ORDER_LR "," MODE_CA) }, SPAA_E_INVALID, 1,
	  "'header' record has no 'events'" },
	{ { HEAD(MODE_CA ",'events':[" EV_CYCLES "]") }, SPAA_E_INVALID, 1,
	  "'header' record has no 'frame_order'" },
	{ { HEAD(ORDER_LR ",'events':[" EV_CYCLES "]") }, SPAA_E_INVALID, 1,
	  "'header' record has no 'stack_id_mode'" },
	{ { "{'type':'header','version':'1.0'," ORDER_LR "," MODE_CA
	    ",'events':[" EV_CYCLES "]}" },
	  SPAA_E_INVALID, 1, "'header' record has no 'format'" },
	{ { HEAD(ORDER_LR "," MODE_CA ",'events':[{'kind':'hardware',"
		 "'sampling':{'mode':'period','primary_metric':'period'}}]") },
	  SPAA_E_INVALID, 1, "'header' record has no 'name'" },
	{ { HEAD(ORDER_LR "," MODE_CA ",'events':[{'name':'c',"
		 "'sampling':{'mode':'period','primary_metric':'period'}}]") },
	  SPAA_E_INVALID, 1, "'header' record has no 'kind'" },
	{ { HEAD(ORDER_LR "," MODE_CA ",'events':[{'name':'c','kind':'hardware'}]") },
	  SPAA_E_INVALID, 1, "'header' record has no 'sampling'" },
	{ { HEAD(ORDER_LR "," MODE_CA ",'events':[{'name':'c','kind':'hardware',"
		 "'sampling':{'primary_metric':'period'}}]") },
	  SPAA_E_INVALID, 1, "'header' record has no 'mode'" },
	{ { HEAD(ORDER_LR "," MODE_CA ",'events':[{'name':'c','kind':'hardware',"
		 "'sampling':{'mode':'period'}}]") },
	  SPAA_E_INVALID, 1, "'header' record has no 'primary_metric'" },
	/* dso, frame, thread */
	{ { H1, "{'type':'dso','name':'/bin/app'}" }, SPAA_E_INVALID, 2,
	  "'dso' record has no 'id'" },
	/* case 40 */
	{ { H1, "{'type':'dso','id':1}" }, SPAA_E_INVALID, 2,
	  "'dso' record has no 'name'" },
	{ { H1, "{'type':'dso','id':1,'name':null}" }, SPAA_E_INVALID, 2,
	  "'dso' record has no 'name'" },
	{ { H1, D1, "{'type':'frame','func':'main','dso':1}" }, SPAA_E_INVALID, 3,
	  "'frame' record has no 'id'" },
	{ { H1, D1, "{'type':'frame','id':1,'dso':1}" }, SPAA_E_INVALID, 3,
	  "'frame' record has no 'func'" },
	{ { H1, D1, "{'type':'frame','id':1,'func':'main'}" }, SPAA_E_INVALID, 3,
	  "'frame' record has no 'dso'" },
	{ { H1, "{'type':'thread','tid':5,'comm':'x'}" }, SPAA_E_INVALID, 2,
	  "'thread' record has no 'pid'" },
	{ { H1, "{'type':'thread','pid':5}" }, SPAA_E_INVALID, 2,
	  "'thread' record has no 'tid'" },
	/* stack, weight */
	{ { H1, D1, F1, "{'type':'stack','frames':[1]," W10 "}" },
	  SPAA_E_INVALID, 4, "'stack' record has no 'id'" },
	{ { H1, D1, F1, "{'type':'stack','id':'s1'," W10 "}" },
	  SPAA_E_INVALID, 4, "'stack' record has no 'frames'" },
	{ { H1, D1, F1, "{'type':'stack','id':'s1','frames':[1]}" },
	  SPAA_E_INVALID, 4, "'stack' record has no 'weights'" },
	/* case 50 */
	{ { H1, D1, F1, STK("s1", "1", "'weights':[{'value':1}]") },
	  SPAA_E_INVALID, 4, "'stack' record has no 'metric'" },
	{ { H1, D1, F1, STK("s1", "1", "'weights':[{'metric':'period'}]") },
	  SPAA_E_INVALID, 4, "'stack' record has no 'value'" },
	{ { H1, D1, F1, STK("s1", "1", W10 ",'exclusive':{" W10 "}") },
	  SPAA_E_INVALID, 4, "'stack' record has no 'frame'" },
	{ { H1, D1, F1, STK("s1", "1", W10 ",'exclusive':{'frame':1}") },
	  SPAA_E_INVALID, 4, "'stack' record has no 'weights'" },
	/* sample, window */
	{ { H1, "{'type':'sample','stack_id':'s1'}" }, SPAA_E_INVALID, 2,
	  "'sample' record has no 'timestamp'" },
	{ { H1, "{'type':'sample','timestamp':1.5}" }, SPAA_E_INVALID, 2,
	  "'sample' record has no 'stack_id'" },
	{ { H1, "{'type':'window','end':2}" }, SPAA_E_INVALID, 2,
	  "'window' record has no 'start'" },
	{ { H1, "{'type':'window','start':1,'by_stack':[]}" }, SPAA_E_INVALID, 2,
	  "'window' record has no 'end'" },
	{ { H1, "{'type':'window','start':1,'end':2,'by_stack':[{" W10 "}]}" },
	  SPAA_E_INVALID, 2,
	  "'by_stack' entry of 'window' record has no 'stack_id'" },
	/* wrong JSON types */
	{ { H1, "[1,2]" }, SPAA_E_INVALID, 2, "record is a JSON array, not an object" },
	/* case 60 */
	{ { "'header'" }, SPAA_E_INVALID, 1, "record is a JSON string, not an object" },
	{ { H1, "{'id':1}" }, SPAA_E_INVALID, 2, "record has no 'type'" },
	{ { H1, "{'type':7}" }, SPAA_E_INVALID, 2, "'type' must be a string, not number" },
	{ { HEAD(ORDER_LR "," MODE_CA ",'events':{}") }, SPAA_E_INVALID, 1,
	  "'events' in 'header' record must be an array, not object" },
	{ { HEAD(ORDER_LR "," MODE_CA ",'events':['cycles']") }, SPAA_E_INVALID, 1,
	  "events in 'header' record must be objects, not string" },
	{ { HEAD("'frame_order':1," MODE_CA ",'events':[" EV_CYCLES "]") },
	  SPAA_E_INVALID, 1,
	  "'frame_order' in 'header' record must be a string, not number" },
	{ { "{'type':'header','format':true}" }, SPAA_E_INVALID, 1,
	  "'format' in 'header' record must be a string, not boolean" },
	{ { H1, "{'type':'dso','id':'1','name':'x'}" }, SPAA_E_INVALID, 2,
	  "'id' in 'dso' record must be a number, not string" },
	{ { H1, "{'type':'dso','id':1,'name':'x','is_kernel':'yes'}" },
	  SPAA_E_INVALID, 2, "'is_kernel' in 'dso' record must be a boolean, not string" },
	{ { H1, D1, "{'type':'frame','id':1,'func':42,'dso':1}" }, SPAA_E_INVALID, 3,
	  "'func' in 'frame' record must be a string, not number" },
	/* case 70 */
	{ { H1, D1, "{'type':'frame','id':-1,'func':'f','dso':1}" }, SPAA_E_INVALID, 3,
	  "'id' in 'frame' record must be a non-negative integer below 2^64, not -1" },
	{ { H1, "{'type':'thread','pid':'1','tid':1}" }, SPAA_E_INVALID, 2,
	  "'pid' in 'thread' record must be a number, not string" },
	{ { H1, "{'type':'thread','pid':1.5,'tid':1}" }, SPAA_E_INVALID, 2,
	  "'pid' in 'thread' record must be a 64-bit integer, not 1.5" },
	{ { H1, D1, F1, "{'type':'stack','id':true,'frames':[1]," W10 "}" },
	  SPAA_E_INVALID, 4,
	  "'id' in 'stack' record must be a string or a number, not boolean" },
	{ { H1, D1, F1, "{'type':'stack','id':'s1','frames':{'0':1}," W10 "}" },
	  SPAA_E_INVALID, 4, "'frames' in 'stack' record must be an array, not object" },
	{ { H1, D1, F1, STK("s1", "'1'", W10) }, SPAA_E_INVALID, 4,
	  "'frames' in 'stack' record must be a non-negative integer below 2^64, not '1'" },
	{ { H1, D1, F1, STK("s1", "1", "'weights':{'period':10}") }, SPAA_E_INVALID, 4,
	  "'weights' in 'stack' record must be an array, not object" },
	{ { H1, D1, F1, STK("s1", "1", "'weights':[10]") }, SPAA_E_INVALID, 4,
	  "weights in 'stack' record must be objects, not number" },
	{ { H1, D1, F1, STK("s1", "1", "'weights':[{'metric':1,'value':1}]") },
	  SPAA_E_INVALID, 4, "'metric' in 'stack' record must be a string, not number" },
	{ { H1, D1, F1, STK("s1", "1", W("'10'")) }, SPAA_E_INVALID, 4,
	  "'value' in 'stack' record must be a number, not string" },
	/* case 80 */
	{ { H1, D1, F1, STK("s1", "1", W10 ",'context':[]") }, SPAA_E_INVALID, 4,
	  "'context' in 'stack' record must be an object, not array" },
	{ { H1, D1, F1, STK("s1", "1", W10 ",'context':{'event':1}") },
	  SPAA_E_INVALID, 4, "'event' in 'stack' record must be a string, not number" },
	{ { H1, D1, F1, STK("s1", "1", W10 ",'context':{'tid':'7'}") },
	  SPAA_E_INVALID, 4, "'tid' in 'stack' record must be a 64-bit integer, not '7'" },
	{ { H1, D1, F1, STK("s1", "1", W10 ",'context':{'pid':-9223372036854775808}") },
	  SPAA_E_INVALID, 4, "'pid' in 'stack' record is out of range" },
	{ { H1, "{'type':'sample','timestamp':'1.5','stack_id':'s1'}" },
	  SPAA_E_INVALID, 2, "'timestamp' in 'sample' record must be a number, not string" },
	{ { H1, "{'type':'sample','timestamp':1,'stack_id':[1]}" }, SPAA_E_INVALID, 2,
	  "'stack_id' in 'sample' record must be a string or a number, not array" },
	{ { H1, D1, F1, STK("s1", "1", W10 ",'related_stacks':'s2'") },
	  SPAA_E_INVALID, 4,
	  "'related_stacks' in 'stack' record must be an array, not string" },
	/* weights that are not non-negative integers below 2^64 */
	{ { H1, D1, F1, STK("s1", "1", W("-1")) }, SPAA_E_INVALID, 4,
	  "'value' in 'stack' record must be a non-negative integer below 2^64, not -1" },
	{ { H1, D1, F1, STK("s1", "1", W("1.5")) }, SPAA_E_INVALID, 4,
	  "'value' in 'stack' record must be a non-negative integer below 2^64, not 1.5" },
	{ { H1, D1, F1, STK("s1", "1", W("10.0")) }, SPAA_E_INVALID, 4,
	  "must be a non-negative integer below 2^64, not 10.0" },
	/* case 90 */
	{ { H1, D1, F1, STK("s1", "1", W("1e3")) }, SPAA_E_INVALID, 4,
	  "must be a non-negative integer below 2^64, not 1e3" },
	/* 2^64 = 18446744073709551616 */
	{ { H1, D1, F1, STK("s1", "1", W("18446744073709551616")) },
	  SPAA_E_INVALID, 4,
	  "must be a non-negative integer below 2^64, not 18446744073709551616" },
	{ { H1, D1, F1, STK("s1", "1", W10 "," EXCL("1", "-3")) }, SPAA_E_INVALID, 4,
	  "'value' in 'stack' record must be a non-negative integer below 2^64, not -3" },
	{ { H1, "{'type':'sample','timestamp':1,'stack_id':'s1','period':-5}" },
	  SPAA_E_INVALID, 2,
	  "'period' in 'sample' record must be a non-negative integer below 2^64, not -5" },
	{ { H1, D1, F1, "{'type':'window','start':1,'end':2,'by_stack':"
	    "[{'stack_id':'s1'," W("0.5") "}]}" },
	  SPAA_E_INVALID, 4,
	  "'value' in 'window' record must be a non-negative integer below 2^64, not 0.5" },
	/* events not declared, or not named when two are */
	{ { H1, D1, F1, STK("s1", "1", W10 ",'context':{'event':'instructions'}") },
	  SPAA_E_INVALID, 4,
	  "'stack' record names event 'instructions', which the header does not declare" },
	{ { H1, "{'type':'sample','timestamp':1,'stack_id':'s1','event':'cpu-clock'}" },
	  SPAA_E_INVALID, 2,
	  "'sample' record names event 'cpu-clock', which the header does not declare" },
	{ { H2, D1, F1, STK("s1", "1", W10) }, SPAA_E_INVALID, 4,
	  "'stack' record names no event and the header declares 2" },
	{ { H2, D1, F1, STK("s1", "1", W10 ",'context':{'tid':1}") }, SPAA_E_INVALID, 4,
	  "'stack' record names no event and the header declares 2" },
	{ { H2, "{'type':'sample','timestamp':1,'stack_id':'s1'}" }, SPAA_E_INVALID, 2,
	  "'sample' record names no event and the header declares 2" },
	/* case 100: duplicate ids and events */
	{ { H1, D1, "{'type':'dso','id':1,'name':'/lib/other.so'}" }, SPAA_E_INVALID, 3,
	  "duplicate dso id 1" },
	{ { H1, D1, F1, F2, "{'type':'frame','id':1,'func':'other','dso':1}" },
	  SPAA_E_INVALID, 5, "duplicate frame id 1" },
	{ { HEAD(ORDER_LR "," MODE_CA ",'events':[" EV_CYCLES "," EV_INSNS ","
		 EV_CYCLES "]") },
	  SPAA_E_INVALID, 1, "event 'cycles' is declared twice in the header" },
	/* not a SPAA header */
	{ { "{'type':'header','format':'pprof','version':'1.0'," ORDER_LR "," MODE_CA
	    ",'events':[" EV_CYCLES "]}" },
	  SPAA_E_INVALID, 1, "not a SPAA file: 'format' is 'pprof', not 'spaa'" },
	/* empty file: line 0, the whole file */
	{ { NULL }, SPAA_E_INVALID, 0, "empty file: no SPAA header record" },
	/* invalid JSON and UTF-8 */
	/* 21 bytes, then the end: byte 22 */
	{ { H1, D1, "{'type':'dso','id':2," }, SPAA_E_PARSE, 3,
	  "invalid JSON at byte 22: unexpected end of input" },
	/* 'n' starts null; 'o' (byte 2) does not continue it */
	{ { H1, "not json" }, SPAA_E_PARSE, 2,
	  "invalid JSON at byte 2: unexpected character 'o'" },
	/* D1 is 57 bytes, a space, then 'x' at byte 59 */
	{ { H1, D1 " x" }, SPAA_E_PARSE, 2,
	  "invalid JSON at byte 59: trailing characters after JSON value" },
	/* the '}' after the comma is byte 18 */
	{ { "{'type':'header',}" }, SPAA_E_PARSE, 1,
	  "invalid JSON at byte 18: unexpected character '}'" },
	{ { H1, "{'type':'dso','id':2,'name':'/lib/\xff.so'}" }, SPAA_E_PARSE, 2,
	  "invalid UTF-8" },
	/* case 110: an overlong '/' and a UTF-16 surrogate written as UTF-8 */
	{ { H1, D1, "{'type':'frame','id':1,'func':'a\xc0\xaf','dso':1}" },
	  SPAA_E_PARSE, 3, "invalid UTF-8" },
	{ { H1, D1, "{'type':'frame','id':1,'func':'a\xed\xa0\x80','dso':1}" },
	  SPAA_E_PARSE, 3, "invalid UTF-8" },
	/* 2^63 + 2^63 = 2^64 overflows: named on the second stack's line */
	{ { H1, D1, F1, STK("s1", "1", W("9223372036854775808")),
	    STK("s2", "1", W("9223372036854775808")) },
	  SPAA_E_LIMIT, 5, "the total of 'period' over event 'cycles' overflows 64 bits" },
	/* (2^64 - 1) + 0 fits; + 1 does not */
	{ { H1, D1, F1, STK("s1", "1", W("18446744073709551615")),
	    STK("s2", "1", W("0")), "{'type':'comment'}",
	    STK("s3", "1", W("1")) },
	  SPAA_E_LIMIT, 7, "the total of 'period' over event 'cycles' overflows 64 bits" },
	{ { H1, D1, F1, STK("s1", "1", W10),
	    "{'type':'sample','timestamp':1,'stack_id':'s1','period':9223372036854775808}",
	    "{'type':'sample','timestamp':2,'stack_id':'s1','period':9223372036854775808}" },
	  SPAA_E_LIMIT, 6,
	  "the total of sample periods of event 'cycles' overflows 64 bits" },
	/* a NUL inside a string does not make it the value before the NUL */
	{ { HEAD("'frame_order':'leaf_to_root\\u0000x'," MODE_CA ",'events':["
		 EV_CYCLES "]") },
	  SPAA_E_INVALID, 1, "'frame_order' in 'header' record contains a NUL character" },
	{ { "{'type':'header','format':'spaa\\u0000','version':'1.0'," ORDER_LR
	    "," MODE_CA ",'events':[" EV_CYCLES "]}" },
	  SPAA_E_INVALID, 1, "'format' in 'header' record contains a NUL character" },
	{ { H1, D1, F1, STK("s1", "1", W10 ",'context':{'event':'cycles\\u0000x'}") },
	  SPAA_E_INVALID, 4, "contains a NUL character" },
	/* the other rejections of spaa_reader.h */
	{ { HEAD(ORDER_LR "," MODE_CA ",'events':[]") }, SPAA_E_INVALID, 1,
	  "'header' record declares no events" },
	{ { H1, D1, F1, STK("s1", "", W10) }, SPAA_E_INVALID, 4,
	  "stack 's1' has no frames" },
	/* case 120 */
	{ { H1, D1, F1, STK("s1", "1", "'weights':[{'metric':'period','value':1},"
			  "{'metric':'period','value':2}]") },
	  SPAA_E_INVALID, 4,
	  "metric 'period' appears twice in the weights of a 'stack' record" },
	{ { HEAD(ORDER_LR "," MODE_CA ",'events':[" EV_CYCLES "],"
		 "'time_range':{'start':5,'end':4,'unit':'s'}") },
	  SPAA_E_INVALID, 1, "'time_range' ends before it starts" },
	{ { HEAD(ORDER_LR "," MODE_CA ",'events':[" EV_CYCLES "],"
		 "'time_range':{'start':5,'unit':'s'}") },
	  SPAA_E_INVALID, 1, "'header' record has no 'end'" },
	{ { H1, "{'type':'window','start':2,'end':1}" }, SPAA_E_INVALID, 2,
	  "window ends before it starts" },
	{ { HEAD(ORDER_LR "," MODE_CA ",'events':[{'name':'p','kind':'timer',"
		 "'sampling':{'mode':'frequency','primary_metric':'samples',"
		 "'frequency_hz':0}}]") },
	  SPAA_E_INVALID, 1, "'frequency_hz' of event 'p' must be a positive number" },
	/* 2^63 ns is past int64: 9223372036.854775808 s */
	{ { H1, "{'type':'sample','timestamp':9223372036.854775808,'stack_id':'s1'}" },
	  SPAA_E_INVALID, 2,
	  "'timestamp' in 'sample' record must be a time that fits in 64-bit nanoseconds" },
	{ { H1, D1, "{'type':'frame','id':1,'func':'f','dso':1,'inline_depth':10001}" },
	  SPAA_E_INVALID, 3, "'inline_depth' 10001 is absurd" },
};

START_TEST(test_reject)
{
	const struct bad_case *c = &bad_cases[_i];
	const char *path = write_profile("bad.spaa", c->lines);
	struct spaa_profile p;
	struct spaa_error err;

	ck_assert_msg(load(&p, path, NULL, NULL, 0, &err) == -1,
		      "case %d: accepted", _i);
	ck_assert_msg(!strcmp(err.code, c->code), "case %d: code '%s', want '%s' (%s)",
		      _i, err.code, c->code, err.msg);
	ck_assert_msg(err.line == c->line, "case %d: line %lu, want %lu (%s)", _i,
		      err.line, c->line, err.msg);
	ck_assert_msg(strstr(err.msg, c->msg), "case %d: message '%s' lacks '%s'",
		      _i, err.msg, c->msg);
	ck_assert_str_eq(err.file, path);
	spaa_profile_release(&p);
}
END_TEST

/* Stacks deeper than the bound (max_depth 3): 4 frames fail, 3 load. */
START_TEST(test_depth_limit)
{
	static const char *const deep[] = {
		H1, D1, F1, F2, F3, F4, STK("s1", "4,3,2,1", W10), NULL,
	};
	static const char *const lines[] = {
		H1, D1, F1, F2, F3, STK("s1", "3,2,1", W10), NULL,
	};
	const char *path = write_profile("deep.spaa", deep);
	struct spaa_profile p;
	struct spaa_error err;

	ck_assert_int_eq(load(&p, path, NULL, NULL, 3, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_LIMIT);
	ck_assert_uint_eq(err.line, 7);
	ck_assert_str_eq(err.msg, "stack 's1' has 4 frames, more than the limit of 3 (SPAA_MAX_DEPTH)");
	ck_assert_str_eq(err.file, path);
	spaa_profile_release(&p);

	/* the bound is inclusive */
	path = write_profile("ok.spaa", lines);
	ck_assert_int_eq(load(&p, path, NULL, NULL, 3, &err), 0);
	ck_assert_uint_eq(p.stacks[0].nframes, 3);
	spaa_profile_release(&p);
	/* 0 means the default, 65536 */
	path = write_profile("deep.spaa", deep);
	ck_assert_int_eq(load(&p, path, NULL, NULL, 0, &err), 0);
	spaa_profile_release(&p);
}
END_TEST

/* SPAA_MAX_STRINGS: the count of a load that fits, minus one, fails. */
START_TEST(test_strings_limit)
{
	static const char *const lines[] = {
		H1, D1, F1, F2, STK("s1", "2,1", W10), NULL,
	};
	const char *path = write_profile("strings.spaa", lines);
	struct spaa_load_opts o = { 0 };
	struct spaa_profile p;
	struct spaa_error err;
	uint32_t n;

	ck_assert_int_eq(load(&p, path, NULL, NULL, 0, &err), 0);
	n = p.strings.nr;
	spaa_profile_release(&p);

	o.max_strings = n;
	spaa_profile_init(&p);
	spaa_error_init(&err);
	ck_assert_int_eq(spaa_load(&p, &path, 1, &o, &err), 0);
	spaa_profile_release(&p);

	/* the last new string is the stack id 's1', on line 5 */
	o.max_strings = n - 1;
	spaa_profile_init(&p);
	spaa_error_init(&err);
	ck_assert_int_eq(spaa_load(&p, &path, 1, &o, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_LIMIT);
	ck_assert_str_eq(err.file, path);
	ck_assert_uint_eq(err.line, 5);
	spaa_profile_release(&p);
}
END_TEST

/* The bounds from the environment; a bad value names its variable. */
static const struct {
	const char *line, *depth, *strings;     /* NULL: unset */
	int ret;
	size_t max_line;
	uint32_t max_depth, max_strings;
	const char *msg;
} env_cases[] = {
	{ NULL, NULL, NULL, 0, 11, 12, 13, NULL },
	{ "", "", "", 0, 11, 12, 13, NULL },
	{ "100", "7", "99", 0, 100, 7, 99, NULL },
	{ NULL, "4294967295", "4294967294", 0, 11, 4294967295u, 4294967294u, NULL },
	{ "0", NULL, NULL, -1, 0, 0, 0,
	  "invalid value '0' for SPAA_MAX_LINE: expected an integer from 1 to " },
	{ NULL, "-1", NULL, -1, 0, 0, 0,
	  "invalid value '-1' for SPAA_MAX_DEPTH: expected an integer from 1 to 4294967295" },
	{ NULL, "4294967296", NULL, -1, 0, 0, 0,
	  "invalid value '4294967296' for SPAA_MAX_DEPTH: expected an integer from 1 to 4294967295" },
	{ NULL, NULL, "4294967295", -1, 0, 0, 0,
	  "invalid value '4294967295' for SPAA_MAX_STRINGS: expected an integer from 1 to 4294967294" },
	{ NULL, NULL, "1e6", -1, 0, 0, 0,
	  "invalid value '1e6' for SPAA_MAX_STRINGS: expected an integer from 1 to 4294967294" },
};

static void set_env(const char *name, const char *v)
{
	if (v)
		ck_assert_int_eq(setenv(name, v, 1), 0);
	else
		ck_assert_int_eq(unsetenv(name), 0);
}

START_TEST(test_limits_env)
{
	struct spaa_load_opts o = { .max_line = 11, .max_depth = 12, .max_strings = 13 };
	struct spaa_error err;
	int ret;

	set_env("SPAA_MAX_LINE", env_cases[_i].line);
	set_env("SPAA_MAX_DEPTH", env_cases[_i].depth);
	set_env("SPAA_MAX_STRINGS", env_cases[_i].strings);
	spaa_error_init(&err);
	ret = spaa_load_limits_env(&o, &err);
	/* CK_FORK=no runs every test in one process: leave nothing set */
	set_env("SPAA_MAX_LINE", NULL);
	set_env("SPAA_MAX_DEPTH", NULL);
	set_env("SPAA_MAX_STRINGS", NULL);
	ck_assert_int_eq(ret, env_cases[_i].ret);
	if (ret) {
		ck_assert_str_eq(err.code, SPAA_E_USAGE);
		ck_assert_msg(!strncmp(err.msg, env_cases[_i].msg, strlen(env_cases[_i].msg)),
			      "case %d: %s", _i, err.msg);
		return;
	}
	ck_assert_uint_eq(o.max_line, env_cases[_i].max_line);
	ck_assert_uint_eq(o.max_depth, env_cases[_i].max_depth);
	ck_assert_uint_eq(o.max_strings, env_cases[_i].max_strings);
}
END_TEST

/* A callback error stops the load with that error. */
START_TEST(test_sample_callback_error)
{
	static const char *const lines[] = {
		H1, D1, F1, STK("s1", "1", W10), SMP("1", "s1"), SMP("2", "s1"),
		SMP("3", "s1"), NULL,
	};
	const char *path = write_profile("ok.spaa", lines);
	struct samples ss = { .stop_at = 2 };
	struct spaa_profile p;
	struct spaa_error err;

	ck_assert_int_eq(load(&p, path, NULL, &ss, 0, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_INTERNAL);
	ck_assert_str_eq(err.msg, "stopped at 2");
	ck_assert_int_eq(ss.n, 2);
	spaa_profile_release(&p);
}
END_TEST

/* ---- accepted inputs ----------------------------------------------------- */

/* Leaf-first frame indices of stack s. */
static void assert_frames(const struct spaa_profile *p, uint32_t s,
			  const uint32_t *want, uint32_t n)
{
	ck_assert_uint_eq(p->stacks[s].nframes, n);
	for (uint32_t i = 0; i < n; i++)
		ck_assert_uint_eq(p->frame_pool[p->stacks[s].frames + i], want[i]);
}

START_TEST(test_frame_orders)
{
	static const char *const leaf_first[] = {
		H1, D1, F1, F2, F3,
		STK("s1", "3,2,1", W10 "," EXCL("3", "4")), NULL,
	};
	static const char *const root_first[] = {
		H1R, D1, F1, F2, F3,
		STK("s1", "1,2,3", W10 "," EXCL("3", "4")), NULL,
	};
	/* frames 1, 2, 3 are model frames 0, 1, 2: leaf 'leaf' = 2 first */
	static const uint32_t want[] = { 2, 1, 0 };
	static const char *const *files[] = { leaf_first, root_first };

	for (int i = 0; i < 2; i++) {
		struct spaa_profile p;
		char *s;

		load_ok(&p, files[i]);
		ck_assert(p.files[0].root_to_leaf == (i == 1));
		ck_assert_uint_eq(p.nstacks, 1);
		assert_frames(&p, 0, want, 3);
		ck_assert_uint_eq(p.records[0].frames, p.stacks[0].frames);
		ck_assert_uint_eq(p.records[0].nframes, 3);
		ck_assert_uint_eq(p.records[0].excl_frame, 2);
		s = summary(&p);
		ck_assert_str_eq(s, "s1 cycles pid=- tid=- cpu=- comm= "
				 "[leaf,work,main] period=10 excl leaf:period=4\n");
		free(s);
		spaa_profile_release(&p);
	}
}
END_TEST

/* Inline frames written deepest first leaf to root are accepted. */
START_TEST(test_inline_order_ok)
{
	static const char *const lines[] = {
		H1, D1, F1, FI10, FI11, FI12,
		STK("s1", "10,11,12,1", W10 "," EXCL("10", "10")), NULL,
	};
	static const char *const rl[] = {
		H1R, D1, F1, FI10, FI11, FI12,
		STK("s1", "1,12,11,10", W10 "," EXCL("10", "10")), NULL,
	};
	/* model frames: 1 -> 0, 10 -> 1, 11 -> 2, 12 -> 3 */
	static const uint32_t want[] = { 1, 2, 3, 0 };
	struct spaa_profile p;

	load_ok(&p, lines);
	assert_frames(&p, 0, want, 4);
	ck_assert_int_eq(p.frames[1].inline_depth, 2);
	ck_assert(p.frames[1].inlined && !p.frames[3].inlined);
	ck_assert_int_eq(p.frames[0].inline_depth, -1);
	ck_assert_str_eq(spaa_profile_str(&p, p.frames[1].ip), "0x200");
	spaa_profile_release(&p);
	load_ok(&p, rl);
	assert_frames(&p, 0, want, 4);
	spaa_profile_release(&p);
}
END_TEST

START_TEST(test_content_addressable_contexts)
{
	static const char *const lines[] = {
		H1, D1, F1, F2,
		STK("s1", "2,1", W10 ",'context':{'pid':5,'tid':10,'cpu':0}"),
		STK("s1", "2,1", W("20") ",'context':{'pid':5,'tid':11,'cpu':3}"),
		NULL,
	};
	struct spaa_profile p;
	char *s;

	load_ok(&p, lines);
	ck_assert_uint_eq(p.nstacks, 1);
	ck_assert_uint_eq(p.nrecords, 2);
	ck_assert_uint_eq(p.records[0].stack, 0);
	ck_assert_uint_eq(p.records[1].stack, 0);
	ck_assert_uint_eq(p.stacks[0].line, 5);
	/* the record chain of the stack: 1 -> 0 -> none */
	ck_assert_uint_eq(p.stacks[0].first_record, 1);
	ck_assert_uint_eq(p.records[1].next_same_stack, 0);
	ck_assert_uint_eq(p.records[0].next_same_stack, SPAA_NONE);
	/* the frames are stored once */
	ck_assert_uint_eq(p.nframe_pool, 2);
	/* 10 + 20 */
	ck_assert_uint_eq(spaa_profile_total(&p, 0,
		spaa_strtab_find(&p.strings, "period", 6)), 30);
	s = summary(&p);
	ck_assert_str_eq(s,
		"s1 cycles pid=5 tid=10 cpu=0 comm= [work,main] period=10\n"
		"s1 cycles pid=5 tid=11 cpu=3 comm= [work,main] period=20\n");
	free(s);
	spaa_profile_release(&p);
}
END_TEST

/* Loads path into p (spaa_profile_init), with repeats folded or not. */
static void load_folded(struct spaa_profile *p, const char *path, bool fold)
{
	struct spaa_load_opts o = { .fold_repeats = fold };
	struct spaa_error err;

	spaa_profile_init(p);
	spaa_error_init(&err);
	ck_assert_msg(!spaa_load(p, &path, 1, &o, &err), "%s", err.msg);
}

/*
 * With fold_repeats (the analyses), a stack record repeating one of the
 * same file (stack, context, metrics in order) is added to it; without
 * (spaa-validate, spaa-convert), every record stays.  Sums by hand.
 */
START_TEST(test_repeated_records_merged)
{
	static const char *const lines[] = {
		H2, D1, F1, F2,
		STK("s1", "2,1", W10 ",'context':{'event':'cycles','tid':1}," EXCL("2", "4")),
		STK("s1", "2,1", W("20") ",'context':{'event':'cycles','tid':2}"),
		STK("s1", "2,1", W("30") ",'context':{'event':'cycles','tid':1}," EXCL("2", "5")),
		STK("s1", "2,1", W("40") ",'context':{'tid':1,'event':'instructions'}"),
		/* the same context, another comm: apart */
		STK("s1", "2,1", W("50") ",'context':{'event':'cycles','tid':2,'comm':'x'}"),
		/* the same context, another metric: apart */
		STK("s1", "2,1", "'weights':[{'metric':'period','value':1},{'metric':'samples','value':1}],'context':{'event':'cycles','tid':2}"),
		STK("s1", "2,1", W("60") ",'context':{'event':'cycles','tid':2}"),
		STK("s2", "1", W("7") ",'context':{'event':'cycles'}"),
		STK("s2", "1", W("8") ",'context':{'event':'cycles'}"),
		NULL,
	};
	const char *path = write_profile("repeats.spaa", lines);
	struct spaa_profile p;
	char *s;

	load_folded(&p, path, true);
	s = summary(&p);
	ck_assert_str_eq(s,
		"s1 cycles pid=- tid=1 cpu=- comm= [work,main] period=40 excl work:period=9\n"
		"s1 cycles pid=- tid=2 cpu=- comm= [work,main] period=80\n"
		"s1 instructions pid=- tid=1 cpu=- comm= [work,main] period=40\n"
		"s1 cycles pid=- tid=2 cpu=- comm=x [work,main] period=50\n"
		"s1 cycles pid=- tid=2 cpu=- comm= [work,main] period=1,samples=1\n"
		"s2 cycles pid=- tid=- cpu=- comm= [main] period=15\n");
	free(s);
	/* the merged records' weights are not kept: 8 weights, not 12 */
	ck_assert_uint_eq(p.nweight_pool, 8);
	/* totals count every record: 10 + 20 + 30 + 50 + 1 + 60 + 7 + 8 */
	ck_assert_uint_eq(spaa_profile_total(&p, 0, spaa_strtab_find(&p.strings, "period", 6)), 186);
	spaa_profile_release(&p);

	load_folded(&p, path, false);
	ck_assert_uint_eq(p.nrecords, 9);
	spaa_profile_release(&p);
}
END_TEST

/*
 * The map that finds a record's twin is only made once a stack has a
 * second record in the file: the twins of records made before it, and
 * after it, are found; a record with related stacks (an empty list too)
 * is never one.  Sums by hand.
 */
START_TEST(test_repeated_records_interleaved)
{
	static const char *const lines[] = {
		H2, D1, F1, F2,
		STK("s1", "2,1", W("1") ",'context':{'event':'cycles','tid':1}"),
		STK("s2", "1", W("2") ",'context':{'event':'cycles'}"),
		STK("s3", "2", W("4") ",'related_stacks':[],'context':{'event':'cycles'}"),
		/* s1's second: the map is made of the three above, but s3's */
		STK("s1", "2,1", W("8") ",'context':{'event':'cycles','tid':1}"),
		STK("s3", "2", W("16") ",'context':{'event':'cycles'}"),
		STK("s2", "1", W("32") ",'context':{'event':'cycles'}"),
		STK("s3", "2", W("64") ",'context':{'event':'cycles'}"),
		STK("s1", "2,1", W("128") ",'context':{'event':'cycles','tid':2}"),
		NULL,
	};
	const char *path = write_profile("interleaved.spaa", lines);
	struct spaa_profile p;
	char *s;

	load_folded(&p, path, true);
	s = summary(&p);
	ck_assert_str_eq(s,
		"s1 cycles pid=- tid=1 cpu=- comm= [work,main] period=9\n"
		"s2 cycles pid=- tid=- cpu=- comm= [main] period=34\n"
		"s3 cycles pid=- tid=- cpu=- comm= [work] period=4\n"
		"s3 cycles pid=- tid=- cpu=- comm= [work] period=80\n"
		"s1 cycles pid=- tid=2 cpu=- comm= [work,main] period=128\n");
	free(s);
	spaa_profile_release(&p);
}
END_TEST

START_TEST(test_numeric_ids)
{
	/* 12345678901234567890 < 2^64 - 1 = 18446744073709551615 */
	static const char *const lines[] = {
		H1, D1, F1, F2,
		"{'type':'stack','id':12345678901234567890,'frames':[2,1]," W10 "}",
		"{'type':'stack','id':7,'frames':[1]," W("3") "}",
		"{'type':'sample','timestamp':1,'stack_id':12345678901234567890}",
		"{'type':'sample','timestamp':2,'stack_id':7}",
		"{'type':'window','start':1,'end':2,'by_stack':[{'stack_id':7,"
		W("3") "}]}",
		NULL,
	};
	const char *path = write_profile("ok.spaa", lines);
	struct samples ss = { 0 };
	struct spaa_profile p;
	struct spaa_error err;

	ck_assert_int_eq(load(&p, path, NULL, &ss, 0, &err), 0);
	ck_assert_uint_eq(p.nstacks, 2);
	ck_assert_str_eq(spaa_profile_str(&p, p.stacks[0].id), "12345678901234567890");
	ck_assert_str_eq(spaa_profile_str(&p, p.stacks[1].id), "7");
	ck_assert_int_eq(ss.n, 2);
	ck_assert_uint_eq(ss.s[0].stack, 0);
	ck_assert_uint_eq(ss.s[1].stack, 1);
	ck_assert_uint_eq(p.window_entries[0].stack, 1);
	spaa_profile_release(&p);
}
END_TEST

/*
 * Frame ids on both sides of the reader's direct table (below 2^20) and
 * at the top of the 64-bit range, defined out of order.
 */
START_TEST(test_frame_ids_large_and_small)
{
	static const char *const lines[] = {
		H1, D1,
		"{'type':'frame','id':18446744073709551615,'func':'top','dso':1}",
		"{'type':'frame','id':1048576,'func':'above','dso':1}",
		"{'type':'frame','id':1048575,'func':'below','dso':1}",
		"{'type':'frame','id':0,'func':'zero','dso':1}",
		STK("s1", "0,1048575,1048576,18446744073709551615", W10
		    "," EXCL("0", "4")),
		NULL,
	};
	static const char *const unknown_below[] = {
		H1, D1, "{'type':'frame','id':1048576,'func':'above','dso':1}",
		STK("s1", "1048575", W10), NULL,
	};
	static const char *const unknown_above[] = {
		H1, D1, "{'type':'frame','id':1048575,'func':'below','dso':1}",
		STK("s1", "1048576", W10), NULL,
	};
	static const char *const duplicate_above[] = {
		H1, D1, "{'type':'frame','id':1048576,'func':'above','dso':1}",
		"{'type':'frame','id':1048576,'func':'again','dso':1}", NULL,
	};
	/* model frames in order of definition: top 0, above 1, below 2, zero 3 */
	static const uint32_t want[] = { 3, 2, 1, 0 };
	struct spaa_profile p;
	struct spaa_error err;

	load_ok(&p, lines);
	assert_frames(&p, 0, want, 4);
	ck_assert_uint_eq(p.records[0].excl_frame, 3);
	spaa_profile_release(&p);

	ck_assert_int_eq(load(&p, write_profile("b.spaa", unknown_below), NULL, NULL, 0, &err), -1);
	ck_assert_str_eq(err.msg, "stack 's1' references unknown frame id 1048575");
	spaa_profile_release(&p);
	ck_assert_int_eq(load(&p, write_profile("a.spaa", unknown_above), NULL, NULL, 0, &err), -1);
	ck_assert_str_eq(err.msg, "stack 's1' references unknown frame id 1048576");
	spaa_profile_release(&p);
	ck_assert_int_eq(load(&p, write_profile("d.spaa", duplicate_above), NULL, NULL, 0, &err), -1);
	ck_assert_str_eq(err.msg, "duplicate frame id 1048576");
	spaa_profile_release(&p);
}
END_TEST

START_TEST(test_samples_before_stacks)
{
	static const char *const lines[] = {
		H1, D1, F1, F2,
		"{'type':'sample','timestamp':1.5,'pid':3,'tid':7,'cpu':2,"
		"'period':100,'stack_id':'s1','event':'cycles'}",
		SMP("2.25", "s2"),
		STK("s2", "1", W10),
		STK("s1", "2,1", W10),
		SMP("3", "s1"),
		NULL,
	};
	const char *path = write_profile("ok.spaa", lines);
	struct samples ss = { 0 };
	struct spaa_profile p;
	struct spaa_error err;

	ck_assert_int_eq(load(&p, path, NULL, &ss, 0, &err), 0);
	ck_assert_int_eq(ss.n, 3);
	/* placeholders in order of first mention: s1 = 0, s2 = 1 */
	ck_assert_uint_eq(ss.s[0].stack, 0);
	ck_assert_uint_eq(ss.s[1].stack, 1);
	ck_assert_uint_eq(ss.s[2].stack, 0);
	ck_assert(!ss.defined[0] && !ss.defined[1] && ss.defined[2]);
	ck_assert(p.stacks[0].defined && p.stacks[1].defined);
	ck_assert_str_eq(spaa_profile_str(&p, p.stacks[0].id), "s1");
	ck_assert_uint_eq(p.stacks[0].line, 8);
	ck_assert_uint_eq(p.stacks[1].line, 7);
	ck_assert_uint_eq(p.stacks[0].first_record, 1);
	ck_assert_uint_eq(p.records[1].stack, 0);
	/* 1.5 s, 2.25 s, 3 s in ns */
	ck_assert_int_eq(ss.s[0].time, 1500000000);
	ck_assert_int_eq(ss.s[1].time, 2250000000);
	ck_assert_int_eq(ss.s[2].time, 3000000000);
	ck_assert_uint_eq(ss.s[0].line, 5);
	ck_assert_uint_eq(ss.s[1].line, 6);
	ck_assert_uint_eq(ss.s[0].file, 0);
	ck_assert_uint_eq(ss.s[0].event, 0);
	ck_assert(ss.s[0].has_period && ss.s[0].period == 100);
	ck_assert(!ss.s[1].has_period);
	ck_assert_int_eq(ss.s[0].pid, 3);
	ck_assert_int_eq(ss.s[0].tid, 7);
	ck_assert_int_eq(ss.s[0].cpu, 2);
	ck_assert_int_eq(ss.s[1].pid, SPAA_NO_ID);
	ck_assert_int_eq(ss.s[1].cpu, SPAA_NO_ID);
	ck_assert_uint_eq(p.nsamples, 3);
	ck_assert_uint_eq(p.files[0].nsamples, 3);
	/* the time span is the samples' */
	ck_assert(p.has_time);
	ck_assert_int_eq(p.time_start, 1500000000);
	ck_assert_int_eq(p.time_end, 3000000000);
	spaa_profile_release(&p);
}
END_TEST

static const struct {
	const char *unit;               /* NULL: no time_range (seconds) */
	const char *start, *end, *ts;
	int64_t want_start, want_end, want_ts;
} time_cases[] = {
	{ "seconds", "1700000000", "1700000001.5", "1700000000.123456789",
	  1700000000000000000, 1700000001500000000, 1700000000123456789 },
	{ "milliseconds", "1700000000000", "1700000001500",
	  "1700000000123.456789",
	  1700000000000000000, 1700000001500000000, 1700000000123456789 },
	{ "microseconds", "1700000000000000", "1700000001500000",
	  "1700000000123456.789",
	  1700000000000000000, 1700000001500000000, 1700000000123456789 },
	{ "nanoseconds", "1700000000000000000", "1700000001500000000",
	  "1700000000123456789",
	  1700000000000000000, 1700000001500000000, 1700000000123456789 },
	/* short names; 2.5 us = 2500 ns; 0.0000025 ms = 2.5 ns -> 3 (half up) */
	{ "s", "0", "10", "2.5", 0, 10000000000, 2500000000 },
	{ "ms", "0", "10", "2.5", 0, 10000000, 2500000 },
	{ "us", "0", "10", "2.5", 0, 10000, 2500 },
	{ "ns", "0", "10", "2.5", 0, 10, 3 },
	{ "ms", "0", "10", "0.0000025", 0, 10000000, 3 },
	/* exponents and negative times: 1.7e9 s, -1.5 s */
	{ "seconds", "-2", "1.7e9", "-1.5",
	  -2000000000, 1700000000000000000, -1500000000 },
	{ "seconds", "0", "1", "1E-9", 0, 1000000000, 1 },
	/* no time_range: samples are in seconds */
	{ NULL, NULL, NULL, "2.5", 0, 0, 2500000000 },
};

/*
 * A sample's event is found by comparing names among a header's few
 * events and through a map beyond SPAA_READER_EVENTS_SCAN (4): both ways
 * give each name its own event, an event named like another's prefix
 * included, and refuse a name the header lacks.
 */
#define EV(name) "{'name':'" name "','kind':'hardware','sampling':" \
	"{'mode':'period','primary_metric':'period'}}"
#define SMP_EV(ts, ev) "{'type':'sample','timestamp':" ts ",'stack_id':'s1','event':'" ev "'}"

START_TEST(test_events_by_name)
{
	static const char *const few[] = {
		HEAD(ORDER_LR "," MODE_CA ",'events':[" EV("ab") "," EV("a") "]"),
		D1, F1, STK("s1", "1", W10 ",'context':{'event':'a'}"),
		SMP_EV("1", "a"), SMP_EV("2", "ab"), NULL,
	};
	static const char *const many[] = {
		HEAD(ORDER_LR "," MODE_CA ",'events':[" EV("e0") "," EV("e1") ","
		     EV("e2") "," EV("e3") "," EV("e4") "," EV("e") "]"),
		D1, F1, STK("s1", "1", W10 ",'context':{'event':'e4'}"),
		SMP_EV("1", "e4"), SMP_EV("2", "e"), SMP_EV("3", "e0"), NULL,
	};
	static const char *const unknown[2][7] = {
		{ HEAD(ORDER_LR "," MODE_CA ",'events':[" EV("ab") "," EV("a") "]"),
		  SMP_EV("1", "b"), NULL },
		{ HEAD(ORDER_LR "," MODE_CA ",'events':[" EV("e0") "," EV("e1") ","
		       EV("e2") "," EV("e3") "," EV("e4") "]"),
		  SMP_EV("1", "e5"), NULL },
	};
	struct samples ss = { 0 };
	struct spaa_profile p;
	struct spaa_error err;

	ck_assert_int_eq(load(&p, write_profile("few.spaa", few), NULL, &ss, 0, &err), 0);
	ck_assert_int_eq(ss.n, 2);
	ck_assert_str_eq(spaa_profile_str(&p, p.events[ss.s[0].event].name), "a");
	ck_assert_str_eq(spaa_profile_str(&p, p.events[ss.s[1].event].name), "ab");
	spaa_profile_release(&p);

	memset(&ss, 0, sizeof(ss));
	ck_assert_int_eq(load(&p, write_profile("many.spaa", many), NULL, &ss, 0, &err), 0);
	ck_assert_int_eq(ss.n, 3);
	ck_assert_str_eq(spaa_profile_str(&p, p.events[ss.s[0].event].name), "e4");
	ck_assert_str_eq(spaa_profile_str(&p, p.events[ss.s[1].event].name), "e");
	ck_assert_str_eq(spaa_profile_str(&p, p.events[ss.s[2].event].name), "e0");
	spaa_profile_release(&p);

	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(load(&p, write_profile("unknown.spaa", unknown[i]), NULL,
				      NULL, 0, &err), -1);
		ck_assert_str_eq(err.code, SPAA_E_INVALID);
		ck_assert_uint_eq(err.line, 2);
		ck_assert_msg(strstr(err.msg, i ? "names event 'e5', which the header does not declare"
					       : "names event 'b', which the header does not declare"),
			      "%s", err.msg);
		spaa_profile_release(&p);
	}
}
END_TEST

START_TEST(test_time_units)
{
	char header[1024], sample[256];
	const char *lines[] = { header, D1, F1, STK("s1", "1", W10), sample, NULL };
	const char *path;
	struct samples ss = { 0 };
	struct spaa_profile p;
	struct spaa_error err;
	size_t at;

	at = (size_t)snprintf(header, sizeof(header), "%s", H1);
	if (time_cases[_i].unit)
		snprintf(header + at - 1, sizeof(header) - at + 1,
			 ",'time_range':{'start':%s,'end':%s,'unit':'%s'}}",
			 time_cases[_i].start, time_cases[_i].end,
			 time_cases[_i].unit);
	snprintf(sample, sizeof(sample),
		 "{'type':'sample','timestamp':%s,'stack_id':'s1'}",
		 time_cases[_i].ts);
	path = write_profile("time.spaa", lines);
	ck_assert_msg(!load(&p, path, NULL, &ss, 0, &err), "case %d: %s", _i,
		      err.msg);
	ck_assert_int_eq(ss.n, 1);
	ck_assert_msg(ss.s[0].time == time_cases[_i].want_ts,
		      "case %d: %" PRId64 ", want %" PRId64, _i, ss.s[0].time,
		      time_cases[_i].want_ts);
	ck_assert(p.files[0].has_time_range == (time_cases[_i].unit != NULL));
	if (time_cases[_i].unit) {
		ck_assert_int_eq(p.files[0].time_start, time_cases[_i].want_start);
		ck_assert_int_eq(p.files[0].time_end, time_cases[_i].want_end);
		/* every sample time here is inside its range */
		ck_assert_int_eq(p.time_start, time_cases[_i].want_start);
		ck_assert_int_eq(p.time_end, time_cases[_i].want_end);
	} else {
		ck_assert_int_eq(p.time_start, time_cases[_i].want_ts);
		ck_assert_int_eq(p.time_end, time_cases[_i].want_ts);
	}
	spaa_profile_release(&p);
}
END_TEST

START_TEST(test_thread_dictionary)
{
	static const char *const lines[] = {
		H1, D1, F1,
		"{'type':'thread','pid':100,'tid':101,'comm':'worker'}",
		"{'type':'thread','pid':100,'tid':100,'comm':'app'}",
		STK("s1", "1", W("1") ",'context':{'tid':101}"),
		STK("s1", "1", W("2") ",'context':{'tid':101,'comm':'renamed'}"),
		STK("s1", "1", W("3") ",'context':{'tid':999}"),
		STK("s1", "1", W("4") ",'context':{'pid':100,'tid':100}"),
		/* a thread named only after a stack used it */
		STK("s1", "1", W("5") ",'context':{'pid':200,'tid':201}"),
		"{'type':'thread','pid':200,'tid':201,'comm':'late'}",
		SMP("1", "s1"),
		"{'type':'sample','timestamp':2,'stack_id':'s1','tid':101}",
		NULL,
	};
	const char *path = write_profile("ok.spaa", lines);
	struct samples ss = { 0 };
	struct spaa_profile p;
	struct spaa_error err;
	char *s;

	ck_assert_int_eq(load(&p, path, NULL, &ss, 0, &err), 0);
	s = summary(&p);
	ck_assert_str_eq(s,
		"s1 cycles pid=100 tid=101 cpu=- comm=worker [main] period=1\n"
		"s1 cycles pid=100 tid=101 cpu=- comm=renamed [main] period=2\n"
		"s1 cycles pid=- tid=999 cpu=- comm= [main] period=3\n"
		"s1 cycles pid=100 tid=100 cpu=- comm=app [main] period=4\n"
		"s1 cycles pid=200 tid=201 cpu=- comm=late [main] period=5\n");
	free(s);
	ck_assert_uint_eq(spaa_profile_nthreads(&p), 3);
	/* samples get the pid of their tid too */
	ck_assert_int_eq(ss.s[0].pid, SPAA_NO_ID);
	ck_assert_int_eq(ss.s[1].pid, 100);
	ck_assert_int_eq(ss.s[1].tid, 101);
	spaa_profile_release(&p);
}
END_TEST

START_TEST(test_related_stacks)
{
	static const char *const lines[] = {
		"{'type':'header','format':'spaa','version':'1.0','source_tool':"
		"'dtrace','frame_order':'leaf_to_root','stack_id_mode':"
		"'content_addressable','events':[{'name':'profile-1000','kind':"
		"'timer','sampling':{'mode':'frequency','primary_metric':'samples',"
		"'frequency_hz':1000}}]}",
		"{'type':'dso','id':1,'name':'app'}",
		"{'type':'dso','id':3,'name':'kernel','is_kernel':true}",
		"{'type':'frame','id':1,'func':'main','dso':1}",
		"{'type':'frame','id':2,'func':'read_wrapper','dso':1}",
		"{'type':'frame','id':10,'func':'sys_read','dso':3}",
		"{'type':'frame','id':11,'func':'vfs_read','dso':3}",
		"{'type':'stack','id':'u1','frames':[2,1],'stack_type':'user',"
		"'context':{'tid':5},'weights':[{'metric':'samples','value':4}],"
		"'exclusive':{'frame':2,'weights':[{'metric':'samples','value':4}]},"
		"'related_stacks':['k1']}",
		"{'type':'stack','id':'k1','frames':[11,10],'stack_type':'kernel',"
		"'context':{'tid':5},'weights':[{'metric':'samples','value':4}],"
		"'related_stacks':['u1']}",
		/* the same kernel stack in another thread: not absorbed */
		"{'type':'stack','id':'k1','frames':[11,10],'stack_type':'kernel',"
		"'context':{'tid':6},'weights':[{'metric':'samples','value':2}]}",
		"{'type':'stack','id':'u2','frames':[1],'stack_type':'user',"
		"'weights':[{'metric':'samples','value':6}]}",
		NULL,
	};
	struct spaa_profile p;
	char *s;

	load_ok(&p, lines);
	s = summary(&p);
	/* kernel frames on top of user frames, leaf first; no exclusive left */
	ck_assert_str_eq(s,
		"u1 profile-1000 pid=- tid=5 cpu=- comm= "
		"[vfs_read,sys_read,read_wrapper,main] samples=4\n"
		"k1 profile-1000 pid=- tid=5 cpu=- comm= [vfs_read,sys_read] "
		"samples=4 absorbed\n"
		"k1 profile-1000 pid=- tid=6 cpu=- comm= [vfs_read,sys_read] "
		"samples=2\n"
		"u2 profile-1000 pid=- tid=- cpu=- comm= [main] samples=6\n");
	free(s);
	ck_assert_uint_eq(p.records[0].excl_frame, SPAA_NONE);
	/* the stack itself keeps its own frames */
	ck_assert_uint_eq(p.stacks[0].nframes, 2);
	ck_assert_int_eq(p.stacks[0].type, SPAA_STACK_USER);
	ck_assert_int_eq(p.stacks[1].type, SPAA_STACK_KERNEL);
	/* totals count every record as read: 4 + 4 + 2 + 6 */
	ck_assert_uint_eq(spaa_profile_total(&p, 0,
		spaa_strtab_find(&p.strings, "samples", 7)), 16);
	/* frames default to the DSO's kind */
	ck_assert_int_eq(p.frames[2].kind, SPAA_FRAME_KERNEL);
	ck_assert_int_eq(p.frames[0].kind, SPAA_FRAME_USER);
	spaa_profile_release(&p);
}
END_TEST

START_TEST(test_windows)
{
	static const char *const lines[] = {
		H1T("milliseconds"), D1, F1, F2,
		/* before the stacks it names */
		"{'type':'window','id':'w1','start':10,'end':20,'by_stack':["
		"{'stack_id':'s1'," W("5") "},"
		"{'stack_id':'s2','weights':[{'metric':'period','value':7},"
		"{'metric':'samples','value':1}]}]}",
		STK("s1", "1", W10),
		STK("s2", "2,1", W10),
		"{'type':'window','id':'w2','start':1,'end':1.5,'unit':'seconds',"
		"'by_stack':[]}",
		"{'type':'window','start':5,'end':5,'unit':'us'}",
		NULL,
	};
	struct spaa_profile p;
	uint32_t period, samples;
	uint64_t v;

	load_ok(&p, lines);
	period = spaa_strtab_find(&p.strings, "period", 6);
	samples = spaa_strtab_find(&p.strings, "samples", 7);
	ck_assert_uint_eq(p.nwindows, 3);
	ck_assert_uint_eq(p.nwindow_entries, 2);
	/* 10 ms, 20 ms in ns */
	ck_assert_str_eq(spaa_profile_str(&p, p.windows[0].id), "w1");
	ck_assert_int_eq(p.windows[0].start, 10000000);
	ck_assert_int_eq(p.windows[0].end, 20000000);
	ck_assert_uint_eq(p.windows[0].entries, 0);
	ck_assert_uint_eq(p.windows[0].nentries, 2);
	ck_assert_uint_eq(p.window_entries[0].stack, 0);
	ck_assert_uint_eq(p.window_entries[1].stack, 1);
	ck_assert_uint_eq(p.window_entries[0].nweights, 1);
	ck_assert(spaa_profile_weights_get(&p, p.window_entries[0].weights, 1, period, &v));
	ck_assert_uint_eq(v, 5);
	ck_assert_uint_eq(p.window_entries[1].nweights, 2);
	ck_assert(spaa_profile_weights_get(&p, p.window_entries[1].weights, 2, period, &v));
	ck_assert_uint_eq(v, 7);
	ck_assert(spaa_profile_weights_get(&p, p.window_entries[1].weights, 2, samples, &v));
	ck_assert_uint_eq(v, 1);
	/* 1 s, 1.5 s */
	ck_assert_str_eq(spaa_profile_str(&p, p.windows[1].id), "w2");
	ck_assert_int_eq(p.windows[1].start, 1000000000);
	ck_assert_int_eq(p.windows[1].end, 1500000000);
	ck_assert_uint_eq(p.windows[1].nentries, 0);
	/* 5 us, no id */
	ck_assert_uint_eq(p.windows[2].id, 0);
	ck_assert_int_eq(p.windows[2].start, 5000);
	ck_assert_int_eq(p.windows[2].end, 5000);
	ck_assert_uint_eq(p.windows[2].nentries, 0);
	ck_assert_uint_eq(p.windows[2].file, 0);
	/* the span covers the header's [0, 100 ms] and the windows: to 1.5 s */
	ck_assert_int_eq(p.time_start, 0);
	ck_assert_int_eq(p.time_end, 1500000000);
	spaa_profile_release(&p);
}
END_TEST

/*
 * Empty weight lists where they are allowed, as the very first weights of
 * the file (the weight pool is still empty then).
 */
START_TEST(test_empty_weight_lists)
{
	static const char *const lines[] = {
		H1, D1, F1,
		"{'type':'window','start':1,'end':2,'by_stack':[{'stack_id':'s1',"
		"'weights':[]}]}",
		STK("s1", "1", W10 ",'exclusive':{'frame':1,'weights':[]}"),
		NULL,
	};
	struct spaa_profile p;
	char *s;

	load_ok(&p, lines);
	ck_assert_uint_eq(p.nwindow_entries, 1);
	ck_assert_uint_eq(p.window_entries[0].nweights, 0);
	ck_assert_uint_eq(p.window_entries[0].stack, 0);
	ck_assert_uint_eq(p.records[0].nexcl, 0);
	s = summary(&p);
	ck_assert_str_eq(s, "s1 cycles pid=- tid=- cpu=- comm= [main] period=10 "
			 "excl main:\n");
	free(s);
	spaa_profile_release(&p);
}
END_TEST

/* Keys in any order: real producers do not write 'type' first. */
START_TEST(test_key_order)
{
	static const char *const lines[] = {
		"{'events':[" EV_CYCLES "],'stack_id_mode':'local',"
		"'frame_order':'root_to_leaf','source_tool':'perf',"
		"'version':'1.0','format':'spaa','type':'header'}",
		"{'name':'/bin/app','id':1,'type':'dso'}",
		"{'dso':1,'func':'main','id':1,'type':'frame'}",
		"{'dso':1,'func':'work','id':2,'type':'frame'}",
		"{'weights':[{'value':5,'metric':'period'}],'frames':[1,2],"
		"'context':{'cpu':4,'event':'cycles'},'id':'x','type':'stack'}",
		"{'stack_id':'x','timestamp':1,'type':'sample'}",
		NULL,
	};
	struct spaa_profile p;
	char *s;

	load_ok(&p, lines);
	s = summary(&p);
	ck_assert_str_eq(s, "x cycles pid=- tid=- cpu=4 comm= [work,main] period=5\n");
	free(s);
	ck_assert(!p.files[0].content_addressable);
	ck_assert_uint_eq(p.nsamples, 1);
	spaa_profile_release(&p);
}
END_TEST

START_TEST(test_unknown_record_type)
{
	static const char *const lines[] = {
		H1, D1, "{'type':'comment','text':'hello'}", F1,
		"{'type':'x_vendor','id':1}", STK("s1", "1", W10), NULL,
	};
	const char *path = write_profile("ok.spaa", lines);
	struct warns w = { 0 };
	struct spaa_profile p;
	struct spaa_error err;

	ck_assert_int_eq(load(&p, path, &w, NULL, 0, &err), 0);
	ck_assert_uint_eq(p.files[0].ignored, 2);
	ck_assert_uint_eq(p.nrecords, 1);
	ck_assert_uint_eq(p.nframes, 1);
	ck_assert_int_eq(w.n, 1);
	ck_assert_uint_eq(w.line[0], 3);
	ck_assert_str_eq(w.msg[0], "skipped a record of unknown type 'comment' "
			 "(and 1 more like it)");
	warns_release(&w);
	spaa_profile_release(&p);
}
END_TEST

START_TEST(test_blank_lines_after_header)
{
	static const char *const lines[] = {
		H1, "", D1, " \t", F1, STK("s1", "1", W10), "", NULL,
	};
	const char *path = write_profile("ok.spaa", lines);
	struct warns w = { 0 };
	struct spaa_profile p;
	struct spaa_error err;

	ck_assert_int_eq(load(&p, path, &w, NULL, 0, &err), 0);
	ck_assert_uint_eq(p.nrecords, 1);
	ck_assert_uint_eq(p.files[0].ignored, 0);
	ck_assert_int_eq(w.n, 1);
	ck_assert_uint_eq(w.line[0], 2);
	ck_assert_str_eq(w.msg[0], "skipped a blank line (and 2 more like it)");
	warns_release(&w);
	spaa_profile_release(&p);
}
END_TEST

/*
 * Runs of blank lines are skipped at once (spaa_input_skip_blank): the
 * same count, on the right kind of warning when another kind came in
 * between, and the lines after them keep their numbers.
 */
START_TEST(test_blank_runs)
{
	static const char *const lines[] = {
		H1, "", "{'type':'comment'}", "", " \t", "\r", D1, "", "", F1,
		STK("s1", "1", W10), "", "", NULL,
	};
	static const char *const bad[] = { H1, "", "", " ", D1, "", "", "{'type':", NULL };
	const char *path = write_profile("ok.spaa", lines);
	struct warns w = { 0 };
	struct spaa_profile p;
	struct spaa_error err;

	ck_assert_int_eq(load(&p, path, &w, NULL, 0, &err), 0);
	ck_assert_uint_eq(p.nrecords, 1);
	ck_assert_int_eq(w.n, 2);
	ck_assert_uint_eq(w.line[0], 2);
	ck_assert_str_eq(w.msg[0], "skipped a blank line (and 7 more like it)");
	ck_assert_uint_eq(w.line[1], 3);
	ck_assert_str_eq(w.msg[1], "skipped a record of unknown type 'comment'");
	warns_release(&w);
	spaa_profile_release(&p);
	path = write_profile("bad.spaa", bad);
	ck_assert_int_eq(load(&p, path, NULL, NULL, 0, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_PARSE);
	ck_assert_uint_eq(err.line, 8);
	spaa_profile_release(&p);
}
END_TEST

START_TEST(test_directory)
{
	static const char *const a[] = {
		H1, D1, F1, F2, STK("s1", "2,1", W10), NULL,
	};
	/* the same DSO and main; 'other' is new; its own ids and events */
	static const char *const b[] = {
		H2, D1, F1, "{'type':'frame','id':5,'func':'other','dso':1}",
		STK("s1", "5,1", W("5") ",'context':{'event':'cycles'}"),
		STK("s2", "1", W("7") ",'context':{'event':'instructions'}"),
		NULL,
	};
	char dir[1024], want[1100];
	const char *path;
	struct spaa_profile p;
	struct spaa_error err;
	uint32_t period;
	char *s;

	snprintf(dir, sizeof(dir), "%s", testutil_path("d"));
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	write_profile("d/b.spaa", b);
	write_profile("d/a.spaa", a);
	testutil_write("d/notes.txt", "not a profile\n", 14);
	path = dir;
	ck_assert_int_eq(load(&p, path, NULL, NULL, 0, &err), 0);
	ck_assert_uint_eq(p.nfiles, 2);
	snprintf(want, sizeof(want), "%s/a.spaa", dir);
	ck_assert_str_eq(p.files[0].path, want);
	snprintf(want, sizeof(want), "%s/b.spaa", dir);
	ck_assert_str_eq(p.files[1].path, want);
	/* cycles merged by name: cycles, instructions */
	ck_assert_uint_eq(p.nevents, 2);
	ck_assert_str_eq(spaa_profile_str(&p, p.events[0].name), "cycles");
	ck_assert_str_eq(spaa_profile_str(&p, p.events[1].name), "instructions");
	ck_assert_uint_eq(spaa_profile_ndsos(&p), 1);
	/* 2 frames per file, 3 functions: main, work, other */
	ck_assert_uint_eq(p.nframes, 4);
	ck_assert_uint_eq(spaa_profile_nfunctions(&p), 3);
	/* ids are per file: a's s1 and b's s1 are two stacks */
	ck_assert_uint_eq(p.nstacks, 3);
	ck_assert_uint_eq(p.stacks[1].file, 1);
	s = summary(&p);
	ck_assert_str_eq(s,
		"s1 cycles pid=- tid=- cpu=- comm= [work,main] period=10\n"
		"s1 cycles pid=- tid=- cpu=- comm= [other,main] period=5\n"
		"s2 instructions pid=- tid=- cpu=- comm= [main] period=7\n");
	free(s);
	period = spaa_strtab_find(&p.strings, "period", 6);
	/* 10 + 5 */
	ck_assert_uint_eq(spaa_profile_total(&p, 0, period), 15);
	ck_assert_uint_eq(spaa_profile_total(&p, 1, period), 7);
	spaa_profile_release(&p);
}
END_TEST

/* An error in the second file of a directory names that file. */
START_TEST(test_directory_error)
{
	static const char *const a[] = { H1, NULL };
	static const char *const b[] = {
		HEAD(ORDER_LR "," MODE_CA ",'events':[{'name':'cycles','kind':"
		     "'hardware','sampling':{'mode':'period','primary_metric':"
		     "'samples'}}]"),
		NULL,
	};
	char dir[1024], want[1100], msg[1300];
	struct spaa_profile p;
	struct spaa_error err;

	snprintf(dir, sizeof(dir), "%s", testutil_path("d"));
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	write_profile("d/a.spaa", a);
	write_profile("d/b.spaa", b);
	ck_assert_int_eq(load(&p, dir, NULL, NULL, 0, &err), -1);
	snprintf(want, sizeof(want), "%s/b.spaa", dir);
	ck_assert_str_eq(err.file, want);
	ck_assert_str_eq(err.code, SPAA_E_INVALID);
	ck_assert_uint_eq(err.line, 1);
	/* the conflict names both files */
	snprintf(msg, sizeof(msg), "event 'cycles' is hardware with primary metric "
		 "'samples' here but hardware with primary metric 'period' in %s/a.spaa",
		 dir);
	ck_assert_str_eq(err.msg, msg);
	spaa_profile_release(&p);
}
END_TEST

/*
 * Two files of a directory that declare one event with different kinds
 * (the same primary metric): an error naming both, not hardware periods
 * summed with allocated bytes.
 */
START_TEST(test_directory_kind_conflict)
{
	static const char *const a[] = { H1, NULL };
	static const char *const b[] = {
		HEAD(ORDER_LR "," MODE_CA ",'events':[{'name':'cycles','kind':"
		     "'allocation','sampling':{'mode':'period','primary_metric':"
		     "'period'}}]"),
		NULL,
	};
	char dir[1024], msg[1300];
	struct spaa_profile p;
	struct spaa_error err;

	snprintf(dir, sizeof(dir), "%s", testutil_path("k"));
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	write_profile("k/a.spaa", a);
	write_profile("k/b.spaa", b);
	ck_assert_int_eq(load(&p, dir, NULL, NULL, 0, &err), -1);
	ck_assert_str_eq(err.code, SPAA_E_INVALID);
	ck_assert_uint_eq(err.line, 1);
	snprintf(msg, sizeof(msg), "event 'cycles' is allocation with primary metric "
		 "'period' here but hardware with primary metric 'period' in %s/a.spaa",
		 dir);
	ck_assert_str_eq(err.msg, msg);
	spaa_profile_release(&p);
}
END_TEST

static void gzip_bytes(const void *data, size_t len, unsigned char **out,
		       size_t *outlen)
{
	z_stream zs;
	uLong bound;

	memset(&zs, 0, sizeof(zs));
	ck_assert_int_eq(deflateInit2(&zs, 6, Z_DEFLATED, 31, 8,
				      Z_DEFAULT_STRATEGY), Z_OK);
	bound = deflateBound(&zs, (uLong)len) + 32;
	*out = spaa_xmalloc(bound);
	zs.next_in = (unsigned char *)(uintptr_t)data;
	zs.avail_in = (uInt)len;
	zs.next_out = *out;
	zs.avail_out = (uInt)bound;
	ck_assert_int_eq(deflate(&zs, Z_FINISH), Z_STREAM_END);
	*outlen = bound - zs.avail_out;
	deflateEnd(&zs);
}

static void zstd_bytes(const void *data, size_t len, unsigned char **out,
		       size_t *outlen)
{
	size_t bound = ZSTD_compressBound(len);

	*out = spaa_xmalloc(bound);
	*outlen = ZSTD_compress(*out, bound, data, len, 3);
	ck_assert(!ZSTD_isError(*outlen));
}

START_TEST(test_compressed)
{
	static const char *const lines[] = {
		H1, D1, F1, F2, F3,
		"{'type':'thread','pid':1,'tid':2,'comm':'t'}",
		STK("s1", "3,2,1", W10 ",'context':{'tid':2,'cpu':1}," EXCL("3", "6")),
		STK("s2", "2,1", "'weights':[{'metric':'period','value':20,"
		    "'unit':'events'},{'metric':'samples','value':2}]"),
		NULL,
	};
	static const char *const want =
		"s1 cycles pid=1 tid=2 cpu=1 comm=t [leaf,work,main] period=10 "
		"excl leaf:period=6\n"
		"s2 cycles pid=- tid=- cpu=- comm= [work,main] "
		"period=20/events,samples=2\n";
	size_t len, zlen;
	char *text = profile_text(lines, &len);
	unsigned char *z;
	const char *paths[3];
	struct spaa_profile p;
	struct spaa_error err;

	paths[0] = spaa_xstrdup(testutil_write("plain.spaa", text, len));
	gzip_bytes(text, len, &z, &zlen);
	ck_assert(z[0] == 0x1f && z[1] == 0x8b);
	paths[1] = spaa_xstrdup(testutil_write("gz.spaa.gz", z, zlen));
	free(z);
	zstd_bytes(text, len, &z, &zlen);
	ck_assert(z[0] == 0x28 && z[1] == 0xb5);
	paths[2] = spaa_xstrdup(testutil_write("zst.spaa.zst", z, zlen));
	free(z);
	free(text);

	for (int i = 0; i < 3; i++) {
		char *s;

		ck_assert_msg(!load(&p, paths[i], NULL, NULL, 0, &err),
			      "%s: %s", paths[i], err.msg);
		s = summary(&p);
		ck_assert_str_eq(s, want);
		ck_assert_uint_eq(p.nframes, 3);
		ck_assert_uint_eq(p.nstacks, 2);
		free(s);
		spaa_profile_release(&p);
		free((char *)paths[i]);
	}
}
END_TEST

/* ---- warnings ------------------------------------------------------------ */

static const struct {
	const char *lines[MAXLINES];
	int nwarn;                      /* warnings expected (0 or 1) */
	unsigned long line;
	const char *msg;                /* the exact message */
} warn_cases[] = {
	/* a clean file warns about nothing */
	{ { H1, D1, F1, STK("s1", "1", W10 ",'context':{'x_vendor':1,'pid':1}") },
	  0, 0, NULL },
	{ { "{'type':'header','format':'spaa','source_tool':'perf'," ORDER_LR
	    "," MODE_CA ",'events':[" EV_CYCLES "]}" },
	  1, 1, "'header' record has no 'version'; assuming 1.0" },
	{ { "{'type':'header','format':'spaa','version':'1.0','source_tool':"
	    "'myprof'," ORDER_LR "," MODE_CA ",'events':[" EV_CYCLES "]}" },
	  1, 1, "unknown source_tool 'myprof'" },
	{ { H1, D1, F1, STK("s1", "1", W10 ",'context':{'foo':1,'tid':1}") },
	  1, 4, "unknown context key 'foo' (kept, not used)" },
	{ { H1, D1, F1, STK("s1", "1", W("0")) },
	  1, 4, "stack 's1' has a zero 'period' weight" },
	/* 5 */
	{ { H1, "{'type':'comment'}" },
	  1, 2, "skipped a record of unknown type 'comment'" },
	{ { H1, "{'type':'comment'}", "{'type':'comment'}", "{'type':'comment'}",
	    "{'type':'comment'}", "{'type':'comment'}" },
	  1, 2, "skipped a record of unknown type 'comment' (and 4 more like it)" },
	{ { H1, D1, F1, STK("s1", "1", W10 ",'related_stacks':['zz']") },
	  1, 4, "related stack 'zz' is never defined" },
	/* a zero that is not the primary metric is no warning */
	{ { H1, D1, F1, STK("s1", "1", "'weights':[{'metric':'period','value':1},"
			  "{'metric':'samples','value':0}]") },
	  0, 0, NULL },
};

START_TEST(test_warnings)
{
	const char *path = write_profile("warn.spaa", warn_cases[_i].lines);
	struct warns w = { 0 };
	struct spaa_profile p;
	struct spaa_error err;

	ck_assert_msg(!load(&p, path, &w, NULL, 0, &err), "case %d: %s", _i,
		      err.msg);
	ck_assert_msg(w.n == warn_cases[_i].nwarn, "case %d: %d warnings (%s)",
		      _i, w.n, w.n ? w.msg[0] : "");
	if (w.n) {
		ck_assert_str_eq(w.msg[0], warn_cases[_i].msg);
		ck_assert_uint_eq(w.line[0], warn_cases[_i].line);
		ck_assert_str_eq(w.file[0], path);
	}
	warns_release(&w);
	spaa_profile_release(&p);
}
END_TEST

/* Several kinds: one message each, in order of first occurrence. */
START_TEST(test_warning_kinds)
{
	static const char *const lines[] = {
		"{'type':'header','format':'spaa','version':'1.0','source_tool':"
		"'myprof'," ORDER_LR "," MODE_CA ",'events':[" EV_CYCLES "]}",
		D1, "{'type':'comment'}", F1,
		STK("s1", "1", W("0") ",'context':{'foo':1,'bar':2}"),
		STK("s2", "1", W("0")),
		"{'type':'comment'}",
		NULL,
	};
	const char *path = write_profile("warn.spaa", lines);
	struct warns w = { 0 };
	struct spaa_profile p;
	struct spaa_error err;

	ck_assert_int_eq(load(&p, path, &w, NULL, 0, &err), 0);
	ck_assert_int_eq(w.n, 4);
	ck_assert_str_eq(w.msg[0], "unknown source_tool 'myprof'");
	ck_assert_uint_eq(w.line[0], 1);
	ck_assert_str_eq(w.msg[1], "skipped a record of unknown type 'comment' "
			 "(and 1 more like it)");
	ck_assert_uint_eq(w.line[1], 3);
	ck_assert_str_eq(w.msg[2], "unknown context key 'foo' (kept, not used) "
			 "(and 1 more like it)");
	ck_assert_uint_eq(w.line[2], 5);
	ck_assert_str_eq(w.msg[3], "stack 's1' has a zero 'period' weight "
			 "(and 1 more like it)");
	ck_assert_uint_eq(w.line[3], 5);
	warns_release(&w);
	spaa_profile_release(&p);
}
END_TEST

/* Warnings seen before an error are still delivered. */
START_TEST(test_warnings_before_error)
{
	static const char *const lines[] = {
		H1, "{'type':'comment'}", "{'type':'dso'}", NULL,
	};
	const char *path = write_profile("warn.spaa", lines);
	struct warns w = { 0 };
	struct spaa_profile p;
	struct spaa_error err;

	ck_assert_int_eq(load(&p, path, &w, NULL, 0, &err), -1);
	ck_assert_uint_eq(err.line, 3);
	ck_assert_int_eq(w.n, 1);
	ck_assert_str_eq(w.msg[0], "skipped a record of unknown type 'comment'");
	warns_release(&w);
	spaa_profile_release(&p);
}
END_TEST

/*
 * A key repeated in a record: the first one counts and a warning names
 * the key and the line, the same with and without the sample fast path
 * (which leaves such lines to the general parser).
 */
START_TEST(test_repeated_key)
{
	static const char *const lines[] = {
		H1, D1, F1,
		STK("s", "1", "'context':{'event':'cycles'}," W("10") ",'weights':[]"),
		"{'type':'sample','timestamp':1,'stack_id':'s','period':5,'period':7}",
		NULL,
	};
	const char *path = write_profile("repeated.spaa", lines);

	for (int fast = 0; fast < 2; fast++) {
		struct spaa_load_opts o = { 0 };
		struct samples ss = { 0 };
		struct warns w = { 0 };
		struct spaa_profile p;
		struct spaa_error err;
		uint64_t v = 0;

		o.warn = (struct spaa_warn_sink){ warn_fn, &w };
		o.on_sample = on_sample;
		o.data = &ss;
		o.no_fast_path = !fast;
		spaa_profile_init(&p);
		spaa_error_init(&err);
		ck_assert_msg(!spaa_load(&p, &path, 1, &o, &err), "%s", err.msg);
		ck_assert_int_eq(ss.n, 1);
		ck_assert(ss.s[0].has_period);
		ck_assert_uint_eq(ss.s[0].period, 5);
		ck_assert_uint_eq(p.nrecords, 1);
		ck_assert(spaa_profile_weights_get(&p, p.records[0].weights,
						   p.records[0].nweights,
						   spaa_strtab_find(&p.strings, "period", 6), &v));
		ck_assert_uint_eq(v, 10);
		ck_assert_int_eq(w.n, 1);
		ck_assert_uint_eq(w.line[0], 4);
		ck_assert_str_eq(w.msg[0], "key 'weights' appears twice in one object; the first one counts (and 1 more like it)");
		warns_release(&w);
		spaa_profile_release(&p);
	}
}
END_TEST

Suite *spaa_reader_suite(void)
{
	Suite *s = suite_create("spaa_reader");
	TCase *tc;

	tc = tcase_create("reject");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_reject, 0,
			    sizeof(bad_cases) / sizeof(bad_cases[0]));
	tcase_add_test(tc, test_depth_limit);
	tcase_add_test(tc, test_strings_limit);
	tcase_add_loop_test(tc, test_limits_env, 0,
			    sizeof(env_cases) / sizeof(env_cases[0]));
	tcase_add_test(tc, test_sample_callback_error);
	tcase_add_test(tc, test_directory_error);
	tcase_add_test(tc, test_directory_kind_conflict);
	suite_add_tcase(s, tc);

	tc = tcase_create("accept");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_frame_orders);
	tcase_add_test(tc, test_inline_order_ok);
	tcase_add_test(tc, test_content_addressable_contexts);
	tcase_add_test(tc, test_numeric_ids);
	tcase_add_test(tc, test_frame_ids_large_and_small);
	tcase_add_test(tc, test_samples_before_stacks);
	tcase_add_loop_test(tc, test_time_units, 0,
			    sizeof(time_cases) / sizeof(time_cases[0]));
	tcase_add_test(tc, test_thread_dictionary);
	tcase_add_test(tc, test_related_stacks);
	tcase_add_test(tc, test_windows);
	tcase_add_test(tc, test_empty_weight_lists);
	tcase_add_test(tc, test_key_order);
	tcase_add_test(tc, test_unknown_record_type);
	tcase_add_test(tc, test_blank_lines_after_header);
	tcase_add_test(tc, test_blank_runs);
	tcase_add_test(tc, test_directory);
	tcase_add_test(tc, test_compressed);
	suite_add_tcase(s, tc);

	tc = tcase_create("warn");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_warnings, 0,
			    sizeof(warn_cases) / sizeof(warn_cases[0]));
	tcase_add_test(tc, test_warning_kinds);
	tcase_add_test(tc, test_warnings_before_error);
	tcase_add_test(tc, test_repeated_key);
	tcase_add_test(tc, test_events_by_name);
	tcase_add_test(tc, test_repeated_records_merged);
	tcase_add_test(tc, test_repeated_records_interleaved);
	suite_add_tcase(s, tc);
	return s;
}
