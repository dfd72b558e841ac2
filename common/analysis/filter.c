#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/filter.h"
#include "model/error.h"
#include "model/map.h"
#include "model/units.h"
#include "model/util.h"

void spaa_filter_release(struct spaa_filter *f)
{
	if (f->has_focus)
		regfree(&f->focus);
	if (f->has_ignore)
		regfree(&f->ignore);
	f->has_focus = f->has_ignore = false;
}

static int set_regex(regex_t *re, bool *has, const char *pattern)
{
	regex_t next;

	if (regcomp(&next, pattern, REG_EXTENDED | REG_NOSUB))
		return -1;
	if (*has)
		regfree(re);
	*re = next;
	*has = true;
	return 0;
}

int spaa_filter_set_focus(struct spaa_filter *f, const char *re)
{
	if (set_regex(&f->focus, &f->has_focus, re))
		return -1;
	f->focus_pattern = re;
	return 0;
}

int spaa_filter_set_ignore(struct spaa_filter *f, const char *re)
{
	if (set_regex(&f->ignore, &f->has_ignore, re))
		return -1;
	f->ignore_pattern = re;
	return 0;
}

bool spaa_filter_context(const struct spaa_filter *f, const struct spaa_profile *p,
			 int64_t pid, int64_t tid, uint32_t comm)
{
	if (!spaa_filter_thread(f, pid, tid))
		return false;
	if (!f->comm)
		return true;
	if (!comm) {
		uint32_t t = spaa_profile_find_thread(p, pid, tid);

		comm = t == SPAA_NONE ? 0 : p->threads[t].comm;
	}
	return comm && !strcmp(spaa_profile_str(p, comm), f->comm);
}

const char *spaa_filter_describe(const struct spaa_filter *f, char *buf, size_t size)
{
	size_t at = 0;

	buf[0] = '\0';
#define SAY(...) \
	do { \
		if (at < size) \
			at += (size_t)snprintf(buf + at, size - at, "%s", at ? ", " : ""); \
		if (at < size) \
			at += (size_t)snprintf(buf + at, size - at, __VA_ARGS__); \
	} while (0)
	if (f->pid != SPAA_NO_ID)
		SAY("process %" PRId64, f->pid);
	if (f->tid != SPAA_NO_ID)
		SAY("thread %" PRId64, f->tid);
	if (f->comm)
		SAY("command '%s'", f->comm);
	if (f->has_focus)
		SAY("stacks through '%s'", f->focus_pattern);
	if (f->has_ignore)
		SAY("no stacks through '%s'", f->ignore_pattern);
#undef SAY
	return buf;
}

/* memo bits of a function: matched yet, and what */
enum { MATCHED = 1, FOCUS = 2, IGNORE = 4 };

/* The memo bits of function fn, matched once. */
static uint8_t matches(const struct spaa_filter *f, const struct spaa_profile *p,
		       uint32_t fn, uint8_t *memo)
{
	if (!memo[fn]) {
		const char *name = spaa_profile_str(p, p->functions[fn].name);

		memo[fn] = MATCHED |
			   (f->has_focus && !regexec(&f->focus, name, 0, NULL, 0) ? FOCUS : 0) |
			   (f->has_ignore && !regexec(&f->ignore, name, 0, NULL, 0) ? IGNORE : 0);
	}
	return memo[fn];
}

bool spaa_filter_stack(const struct spaa_filter *f, const struct spaa_profile *p,
		       const uint32_t *frames, uint32_t n, uint8_t *memo)
{
	bool focused = !f->has_focus;

	for (uint32_t i = 0; i < n; i++) {
		uint8_t m = matches(f, p, p->frames[frames[i]].fn, memo);

		if (m & IGNORE)
			return false;
		focused |= (m & FOCUS) != 0;
	}
	return focused;
}

bool spaa_filter_functions(const struct spaa_filter *f, const struct spaa_profile *p,
			   const uint32_t *fns, uint32_t n, uint8_t *memo)
{
	bool focused = !f->has_focus;

	for (uint32_t i = 0; i < n; i++) {
		uint8_t m = matches(f, p, fns[i], memo);

		if (m & IGNORE)
			return false;
		focused |= (m & FOCUS) != 0;
	}
	return focused;
}

bool spaa_filter_percent(double limit, double part, double whole)
{
	return fabs(part) * 100 >= limit * fabs(whole);
}

bool spaa_filter_keeps_records(const struct spaa_filter *f, const struct spaa_profile *p)
{
	uint8_t *memo = NULL;
	bool kept = !p->nrecords;

	if (f->pid == SPAA_NO_ID && f->tid == SPAA_NO_ID && !f->comm &&
	    !spaa_filter_has_stacks(f))
		return true;
	if (spaa_filter_has_stacks(f))
		memo = spaa_xcalloc((size_t)spaa_profile_nfunctions(p) + 1, 1);
	for (uint32_t i = 0; i < p->nrecords && !kept; i++) {
		const struct spaa_record *r = &p->records[i];

		kept = !r->absorbed && spaa_filter_context(f, p, r->pid, r->tid, r->comm) &&
		       (!memo || spaa_filter_stack(f, p, spaa_profile_record_frames(p, r),
						   r->nframes, memo));
	}
	free(memo);
	return kept;
}

void spaa_filter_init(struct spaa_filter *f)
{
	*f = (struct spaa_filter){
		.begin = INT64_MIN, .end = INT64_MAX,
		.pid = SPAA_NO_ID, .tid = SPAA_NO_ID,
	};
}

int spaa_filter_parse_time(const char *s, int64_t *ns, bool *from_start)
{
	bool neg = *s == '-';
	const char *num = s + (neg || *s == '+');
	int64_t v;

	*from_start = *s == '+';
	/* one sign at most, then a number */
	if (*num < '0' || *num > '9')
		return -1;
	/* Trace Compass' integer nanoseconds, exactly as ever (INT64_MIN too) */
	if (!*from_start && !spaa_parse_i64(s, ns))
		return 0;
	if (spaa_parse_i64(num, &v) && spaa_units_parse_duration(num, &v))
		return -1;
	*ns = neg ? -v : v;
	return 0;
}

static int set_time(const char *s, int64_t *at, bool *from_start, int64_t *offset)
{
	int64_t ns;
	bool rel;

	if (spaa_filter_parse_time(s, &ns, &rel))
		return -1;
	*from_start = rel;
	if (rel)
		*offset = ns;
	else
		*at = ns;
	return 0;
}

int spaa_filter_set_begin(struct spaa_filter *f, const char *s)
{
	f->has_begin = true;
	return set_time(s, &f->begin, &f->begin_from_start, &f->begin_offset);
}

int spaa_filter_set_end(struct spaa_filter *f, const char *s)
{
	f->has_end = true;
	return set_time(s, &f->end, &f->end_from_start, &f->end_offset);
}

bool spaa_filter_inverted(const struct spaa_filter *f)
{
	if (!f->has_begin || !f->has_end || f->begin_from_start != f->end_from_start)
		return false;
	return f->begin_from_start ? f->begin_offset > f->end_offset : f->begin > f->end;
}

/* start + offset, offset >= 0, saturating */
static int64_t after(int64_t start, int64_t offset)
{
	return start > INT64_MAX - offset ? INT64_MAX : start + offset;
}

void spaa_filter_start(void *filter, int64_t start)
{
	struct spaa_filter *f = filter;

	if (f->begin_from_start)
		f->begin = after(start, f->begin_offset);
	if (f->end_from_start)
		f->end = after(start, f->end_offset);
}

void spaa_filter_range(const struct spaa_filter *f, const struct spaa_profile *p,
		       int64_t *begin, int64_t *end)
{
	*begin = p->has_time ? p->time_start : 0;
	*end = p->has_time ? p->time_end : 0;
	if (f->has_begin)
		*begin = f->begin;
	if (f->has_end)
		*end = f->end;
	if (*end < *begin)
		*end = *begin;
}

/*
 * The (pid, tid) pairs of p: its thread records and the contexts of its
 * stack records (not every producer writes thread records), each once.
 */
static void threads_of(const struct spaa_profile *p, struct spaa_map *seen)
{
	int64_t k[2];
	bool created;

	for (uint32_t i = 0; i < spaa_profile_nthreads(p); i++) {
		k[0] = p->threads[i].pid;
		k[1] = p->threads[i].tid;
		spaa_map_intern(seen, k, &created);
	}
	for (uint32_t i = 0; i < p->nrecords; i++) {
		if (p->records[i].pid == SPAA_NO_ID && p->records[i].tid == SPAA_NO_ID)
			continue;
		k[0] = p->records[i].pid;
		k[1] = p->records[i].tid;
		spaa_map_intern(seen, k, &created);
	}
}

/* At most this many of what the profile has are named. */
enum { LIST_SHOWN = 8 };

/* A list "a, b, ..." of at most LIST_SHOWN items, the rest counted. */
struct list {
	char text[512];
	size_t len;
	uint32_t n;
};

static void list_add(struct list *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void list_add(struct list *l, const char *fmt, ...)
{
	va_list ap;

	if (l->n++ >= LIST_SHOWN || l->len >= sizeof(l->text) - 2)
		return;
	if (l->n > 1)
		l->len += (size_t)snprintf(l->text + l->len, sizeof(l->text) - l->len, ", ");
	if (l->len >= sizeof(l->text))
		return;
	va_start(ap, fmt);
	l->len += (size_t)vsnprintf(l->text + l->len, sizeof(l->text) - l->len, fmt, ap);
	va_end(ap);
}

static const char *list_more(const struct list *l)
{
	return l->n > LIST_SHOWN ? ", ..." : "";
}

/* "--pid 1 --tid 2 --comm 'x'": the context options given */
static void context_options(const struct spaa_filter *f, bool with_comm, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	if (f->pid != SPAA_NO_ID)
		len += (size_t)snprintf(buf + len, size - len, " --pid %" PRId64, f->pid);
	if (f->tid != SPAA_NO_ID && len < size)
		len += (size_t)snprintf(buf + len, size - len, " --tid %" PRId64, f->tid);
	if (with_comm && f->comm && len < size)
		snprintf(buf + len, size - len, " --comm '%s'", f->comm);
}

/* a pid or tid as listed: '?' when the record has none */
static const char *id_text(int64_t id, char *buf, size_t size)
{
	if (id == SPAA_NO_ID)
		return "?";
	snprintf(buf, size, "%" PRId64, id);
	return buf;
}

/* --pid/--tid that no thread of p passes: the threads p has */
static int explain_threads(const struct spaa_filter *f, const struct spaa_profile *p,
			   struct spaa_error *err)
{
	struct spaa_map seen;
	struct list l = { .len = 0 };
	char which[96], pid[24], tid[24];

	if (f->pid == SPAA_NO_ID && f->tid == SPAA_NO_ID)
		return 0;
	spaa_map_init(&seen, 2 * sizeof(int64_t));
	threads_of(p, &seen);
	for (uint32_t i = 0; i < seen.nr; i++) {
		const int64_t *k = spaa_map_key(&seen, i);

		if (spaa_filter_thread(f, k[0], k[1])) {
			/* the thread is there: the emptiness is not its doing */
			spaa_map_release(&seen);
			return 0;
		}
		list_add(&l, "%s/%s", id_text(k[0], pid, sizeof(pid)), id_text(k[1], tid, sizeof(tid)));
	}
	spaa_map_release(&seen);
	context_options(f, false, which, sizeof(which));
	if (!l.n)
		return spaa_error_set(err, SPAA_E_NO_DATA,
				      "%s selects nothing: the profile names no process or thread",
				      which + 1);
	return spaa_error_set(err, SPAA_E_NO_DATA,
			      "%s selects nothing: the profile has %s %s%s (pid/tid)", which + 1,
			      l.n == 1 ? "thread" : "threads", l.text, list_more(&l));
}

/* A command name of a thread that passes --pid/--tid, once. */
static bool add_comm(const struct spaa_filter *f, const struct spaa_profile *p,
		     int64_t pid, int64_t tid, uint32_t comm, struct spaa_map *seen,
		     struct list *l)
{
	bool created;

	if (!spaa_filter_thread(f, pid, tid) || !comm)
		return false;
	if (!strcmp(spaa_profile_str(p, comm), f->comm))
		return true;
	spaa_map_intern(seen, &comm, &created);
	if (created)
		list_add(l, "'%s'", spaa_profile_str(p, comm));
	return false;
}

/* --comm that no thread passing --pid/--tid runs: the commands they run */
static int explain_comm(const struct spaa_filter *f, const struct spaa_profile *p,
			struct spaa_error *err)
{
	struct spaa_map seen;
	struct list l = { .len = 0 };
	char which[600];
	bool found = false;

	if (!f->comm)
		return 0;
	spaa_map_init(&seen, sizeof(uint32_t));
	for (uint32_t i = 0; i < spaa_profile_nthreads(p) && !found; i++)
		found = add_comm(f, p, p->threads[i].pid, p->threads[i].tid,
				 p->threads[i].comm, &seen, &l);
	for (uint32_t i = 0; i < p->nrecords && !found; i++)
		found = add_comm(f, p, p->records[i].pid, p->records[i].tid,
				 p->records[i].comm, &seen, &l);
	spaa_map_release(&seen);
	if (found)
		return 0;
	context_options(f, true, which, sizeof(which));
	if (!l.n)
		return spaa_error_set(err, SPAA_E_NO_DATA,
				      "%s selects nothing: the profile names no command%s", which + 1,
				      f->pid != SPAA_NO_ID || f->tid != SPAA_NO_ID ?
				      " for that process or thread" : "");
	return spaa_error_set(err, SPAA_E_NO_DATA, "%s selects nothing: %s %s%s", which + 1,
			      f->pid != SPAA_NO_ID || f->tid != SPAA_NO_ID ?
			      "that process or thread runs" : "the profile's commands are",
			      l.text, list_more(&l));
}

/*
 * --focus that matches no function of p; else, without a time range
 * (whose titles say what the window holds), the stack options that
 * leave nothing, with how many functions each matches.
 */
static int explain_stacks(const struct spaa_filter *f, const struct spaa_profile *p,
			  struct spaa_error *err)
{
	uint32_t n = spaa_profile_nfunctions(p), focused = 0, ignored = 0;
	char which[1024];
	size_t len;

	if (!spaa_filter_has_stacks(f))
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		const char *name = spaa_profile_str(p, p->functions[i].name);

		focused += f->has_focus && !regexec(&f->focus, name, 0, NULL, 0);
		ignored += f->has_ignore && !regexec(&f->ignore, name, 0, NULL, 0);
	}
	if (f->has_focus && !focused)
		return spaa_error_set(err, SPAA_E_NO_DATA,
				      "--focus '%s' selects nothing: it matches none of the profile's %"
				      PRIu32 " functions", f->focus_pattern, n);
	if (spaa_filter_has_range(f))
		return 0;
	context_options(f, true, which, sizeof(which));
	len = strlen(which);
	if (f->has_focus && len < sizeof(which))
		len += (size_t)snprintf(which + len, sizeof(which) - len, " --focus '%s'",
					f->focus_pattern);
	if (f->has_ignore && len < sizeof(which))
		snprintf(which + len, sizeof(which) - len, " --ignore '%s'", f->ignore_pattern);
	if (!f->has_focus)
		return spaa_error_set(err, SPAA_E_NO_DATA,
				      "%s selects nothing: every stack selected passes through one of the %"
				      PRIu32 " functions (of %" PRIu32 ") that --ignore matches",
				      which + 1, ignored, n);
	if (!f->has_ignore)
		return spaa_error_set(err, SPAA_E_NO_DATA,
				      "%s selects nothing: %" PRIu32 " of the profile's %" PRIu32
				      " functions match --focus, and no stack selected passes through them",
				      which + 1, focused, n);
	return spaa_error_set(err, SPAA_E_NO_DATA,
			      "%s selects nothing: of the profile's %" PRIu32 " functions %" PRIu32
			      " match --focus and %" PRIu32 " --ignore, and no stack selected passes through the first and none of the second",
			      which + 1, n, focused, ignored);
}

int spaa_filter_explain_empty(const struct spaa_filter *f, const struct spaa_profile *p,
			      struct spaa_error *err)
{
	if (explain_threads(f, p, err) || explain_comm(f, p, err) || explain_stacks(f, p, err))
		return -1;
	return 0;
}

int spaa_filter_shift(struct spaa_filter *f, int64_t offset, const char *from,
		      struct spaa_error *err)
{
	int64_t begin = f->begin, end = f->end;

	/* a time from the profile's start is in its clock already */
	if ((f->has_begin && !f->begin_from_start &&
	     __builtin_sub_overflow(f->begin, offset, &begin)) ||
	    (f->has_end && !f->end_from_start &&
	     __builtin_sub_overflow(f->end, offset, &end)))
		return spaa_error_set(err, SPAA_E_USAGE,
				      "'--begin'/'--end' less the clock offset of %" PRId64
				      " ns (%s) pass 64 bits", offset, from);
	f->begin = begin;
	f->end = end;
	f->clock_offset = offset;
	snprintf(f->clock_from, sizeof(f->clock_from), "%s", from);
	return 0;
}

int spaa_filter_check_overlap(const struct spaa_filter *f,
			      const struct spaa_profile *p, struct spaa_error *err)
{
	if (!f->clock_from[0] || !p->has_time ||
	    (f->end >= p->time_start && f->begin <= p->time_end))
		return 0;
	return spaa_error_set(err, SPAA_E_NO_DATA,
			      "the selection and the profile do not overlap: --begin/--end are %"
			      PRId64 " to %" PRId64 " ns in the profile's clock (%" PRId64
			      " ns less: the offset %s), and the profile covers %" PRId64
			      " to %" PRId64 " ns (is it of this trace, recorded with 'perf record -k mono'? else give '--clock-offset')",
			      f->begin, f->end, f->clock_offset, f->clock_from,
			      p->time_start, p->time_end);
}
