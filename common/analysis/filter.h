/*
 * filter - which samples and stack records an analysis looks at: a time
 * range (--begin/--end), a process, thread or command (--pid, --tid,
 * --comm), and stacks through or not through some functions (--focus,
 * --ignore, as pprof's).  One object, built once by main from the
 * command line, so every analysis cuts the same way.
 *
 * A time range can only cut sample records (stack records carry no
 * time): with one, analyses fold the samples in range instead of reading
 * the stack records, and a profile without samples is shown whole, its
 * titles saying so.
 *
 * Times are written as Trace Compass sends them, integer nanoseconds of
 * the profile's clock, or as people write them (spaa_filter_parse_time),
 * and may count from the profile's start ("+1.5s").  The start is known
 * only once the profile is read, and samples are cut as they stream past,
 * so such times become absolute when the load hands over its first
 * sample, or at its end without samples (spaa_filter_start, a load_opts
 * on_start); every sample is cut by the same absolute range.
 *
 * A struct spaa_filter owns its compiled regexes (spaa_filter_release
 * frees them) and borrows its --comm name and patterns;
 * spaa_filter_init makes one that lets everything through.
 */
#ifndef SPAA_FILTER_H
#define SPAA_FILTER_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/load.h"
#include "model/profile.h"

/* What a title says when a time range was asked of a profile without samples. */
#define SPAA_FILTER_WHOLE_PROFILE \
	"whole profile: it has no sample records to restrict to --begin/--end"

/* The forms of a time, for the message of one that does not parse. */
#define SPAA_FILTER_TIME_FORMS \
	"integer nanoseconds; seconds with a fraction and a unit: 795.1s, " \
	"120ms, 3us (or 3\xc2\xb5s), 5ns; or either after '+', from the profile's start: +1.5s"

struct spaa_filter {
	bool has_begin, has_end;        /* a time range was asked for */
	/*
	 * Inclusive, ns; INT64_MIN / INT64_MAX when not given.  A time
	 * from the start (begin_from_start) is kept as its offset and
	 * counts here only once spaa_filter_start has made it absolute.
	 */
	int64_t begin, end;
	bool begin_from_start, end_from_start;
	int64_t begin_offset, end_offset;       /* ns after the start */
	int64_t pid, tid;       /* only this process / thread; SPAA_NO_ID: any */
	const char *comm;       /* only threads of this command name; NULL: any */
	/*
	 * Only stacks with a function whose name matches focus, and none
	 * whose name matches ignore (POSIX extended, anywhere in the name).
	 */
	bool has_focus, has_ignore;
	regex_t focus, ignore;
	const char *focus_pattern, *ignore_pattern;     /* as given (weak) */
	/*
	 * begin and end were given in another clock (a trace's, as Trace
	 * Compass shows it) and are clock_offset ns less here, in the
	 * profile's clock; clock_from says whence the offset ("given by
	 * '--clock-offset'", "of the clock 'monotonic' of DIR/metadata"), ""
	 * when they were not moved.
	 */
	int64_t clock_offset;
	char clock_from[512];
};

void spaa_filter_init(struct spaa_filter *f);
void spaa_filter_release(struct spaa_filter *f);

/*
 * Compiles the --focus (or --ignore) regex re into f, in place of one
 * given before; -1 when it does not compile.
 */
int spaa_filter_set_focus(struct spaa_filter *f, const char *re);
int spaa_filter_set_ignore(struct spaa_filter *f, const char *re);

/*
 * A time of --begin/--end into ns: "795" (integer nanoseconds, what
 * Trace Compass sends, negative too), or a duration of
 * spaa_units_parse_duration ("795.1s", "120ms", "3us", "3µs", "5ns"), negative
 * too; either after "+" for a time from the profile's start (*from_start
 * set).  Returns 0, or -1 for anything else, a fraction without a unit
 * included ("1.5": seconds or nanoseconds?), and a value past int64.
 */
int spaa_filter_parse_time(const char *s, int64_t *ns, bool *from_start);

/*
 * Sets the begin (or end) of f from a time as written; -1 when it does
 * not parse (SPAA_FILTER_TIME_FORMS says what does).
 */
int spaa_filter_set_begin(struct spaa_filter *f, const char *s);
int spaa_filter_set_end(struct spaa_filter *f, const char *s);

/*
 * Whether begin is after end where that can be told before the profile
 * is read (both absolute, or both from its start).
 */
bool spaa_filter_inverted(const struct spaa_filter *f);

/*
 * The times from the start of f made absolute, start being the time the
 * profile starts at (saturating at the ends of int64).  A load_opts
 * on_start callback (filter: the struct spaa_filter); called again for
 * another profile, they count from that one's start.
 */
void spaa_filter_start(void *filter, int64_t start);

/*
 * Moves a given absolute begin and end (not those from the start, which
 * are in the profile's clock already) onto the profile's clock: offset ns less
 * (offset: how far the clock they were given in is ahead), from saying
 * whence the offset.  -1 (SPAA_E_USAGE) when one would pass 64 bits.
 */
int spaa_filter_shift(struct spaa_filter *f, int64_t offset, const char *from,
		      struct spaa_error *err);

/*
 * A moved range (spaa_filter_shift) that does not overlap p's time at
 * all most likely means clocks that do not match, not a selection
 * between samples: -1 with SPAA_E_NO_DATA saying so, else 0.
 */
int spaa_filter_check_overlap(const struct spaa_filter *f,
			      const struct spaa_profile *p, struct spaa_error *err);

/* Whether a time range was asked for (--begin or --end). */
static inline bool spaa_filter_has_range(const struct spaa_filter *f)
{
	return f->has_begin || f->has_end;
}

static inline bool spaa_filter_time(const struct spaa_filter *f, int64_t t)
{
	return t >= f->begin && t <= f->end;
}

/* Whether a record or sample of (pid, tid) passes --pid/--tid. */
static inline bool spaa_filter_thread(const struct spaa_filter *f, int64_t pid,
				      int64_t tid)
{
	return (f->pid == SPAA_NO_ID || pid == f->pid) &&
	       (f->tid == SPAA_NO_ID || tid == f->tid);
}

/*
 * Whether a record or sample of (pid, tid) in p passes --pid, --tid and
 * --comm; comm is the record's own command name (string index), 0 for
 * the thread's (a sample's).
 */
bool spaa_filter_context(const struct spaa_filter *f, const struct spaa_profile *p,
			 int64_t pid, int64_t tid, uint32_t comm);

/*
 * What f selects besides time, for titles and messages: "process 7,
 * thread 8, command 'x', stacks through 'A', no stacks through 'B'"
 * (the parts given, in this order); "" when nothing.  Cut to size;
 * returns buf.
 */
const char *spaa_filter_describe(const struct spaa_filter *f, char *buf, size_t size);

/* Whether --focus or --ignore was given. */
static inline bool spaa_filter_has_stacks(const struct spaa_filter *f)
{
	return f->has_focus || f->has_ignore;
}

/*
 * Whether a stack of p (its n frames) passes --focus/--ignore.  memo, one
 * byte per function of p, zeroed by the caller before the first call and
 * kept between calls, keeps each function's matches, so each name is
 * matched once.
 */
bool spaa_filter_stack(const struct spaa_filter *f, const struct spaa_profile *p,
		       const uint32_t *frames, uint32_t n, uint8_t *memo);

/* The same for a sequence of n functions of p (indices), in any order. */
bool spaa_filter_functions(const struct spaa_filter *f, const struct spaa_profile *p,
			   const uint32_t *fns, uint32_t n, uint8_t *memo);

/*
 * --percent-limit: whether a row weighing part is at least limit % of
 * whole (magnitudes: net and delta weights may be negative).  Every row
 * passes limit 0.
 */
bool spaa_filter_percent(double limit, double part, double whole);

/*
 * Whether f's --pid/--tid/--comm/--focus/--ignore keep at least one
 * stack record of p, of any event (true when p has none: its samples
 * decide).  Linear in the records.
 */
bool spaa_filter_keeps_records(const struct spaa_filter *f, const struct spaa_profile *p);

/*
 * The time range results cover: the one asked for where given, else the
 * profile's own span, else [0, 0] for a profile without time.
 */
void spaa_filter_range(const struct spaa_filter *f, const struct spaa_profile *p,
		       int64_t *begin, int64_t *end);

/*
 * Why nothing passed f, for an analysis left with nothing: -1 with
 * SPAA_E_NO_DATA naming the options and what p has instead, when
 * --pid/--tid select no thread of p (its thread records and stack
 * records' contexts: "--tid 99 selects nothing: the profile has threads
 * 100/100, 100/101 (pid/tid)"), --comm no command of those threads (the
 * commands they run), --focus no function; or, without a time range,
 * when --focus/--ignore leave no stack (how many functions each
 * matches).  Else 0: nothing asked for, or an emptiness a time range
 * made (the tables' titles say what the window holds).  At most 8
 * threads or commands are named.  Linear in the records and functions.
 */
int spaa_filter_explain_empty(const struct spaa_filter *f, const struct spaa_profile *p,
			      struct spaa_error *err);

#endif
