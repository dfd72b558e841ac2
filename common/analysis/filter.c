#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analysis/filter.h"
#include "model/error.h"
#include "model/map.h"

void spaa_filter_init(struct spaa_filter *f)
{
	*f = (struct spaa_filter){
		.begin = INT64_MIN, .end = INT64_MAX,
		.pid = SPAA_NO_ID, .tid = SPAA_NO_ID,
	};
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* v * 10 + d, false past limit */
static bool add_digit(uint64_t *v, char d, uint64_t limit)
{
	if (*v > (limit - (uint64_t)(d - '0')) / 10)
		return false;
	*v = *v * 10 + (uint64_t)(d - '0');
	return true;
}

int spaa_filter_parse_time(const char *s, int64_t *ns, bool *from_start)
{
	static const struct {
		const char *name;
		unsigned digits;        /* of ns in one unit: 10^digits */
	} units[] = {
		{ "s", 9 }, { "ms", 6 }, { "us", 3 }, { "\u00b5s", 3 }, { "ns", 0 },
	};
	bool neg = *s == '-';
	/* the magnitude of INT64_MIN is one past INT64_MAX */
	uint64_t limit = (uint64_t)INT64_MAX + neg, v = 0;
	const char *frac = NULL;
	size_t nfrac = 0;
	unsigned digits = 0;

	*from_start = *s == '+';
	s += neg || *from_start;
	if (!is_digit(*s))
		return -1;
	for (; is_digit(*s); s++)
		if (!add_digit(&v, *s, limit))
			return -1;
	if (*s == '.') {
		frac = ++s;
		while (is_digit(*s))
			s++;
		nfrac = (size_t)(s - frac);
		if (!nfrac)
			return -1;
	}
	if (*s) {
		size_t u = 0;

		while (u < sizeof(units) / sizeof(units[0]) && strcmp(s, units[u].name))
			u++;
		if (u == sizeof(units) / sizeof(units[0]))
			return -1;
		digits = units[u].digits;
	} else if (frac) {
		return -1;
	}
	for (unsigned i = 0; i < digits; i++) {
		char d = i < nfrac ? frac[i] : '0';

		if (!add_digit(&v, d, limit))
			return -1;
	}
	/* a fraction finer than 1 ns is fine only when it is zeros */
	for (size_t i = digits; i < nfrac; i++)
		if (frac[i] != '0')
			return -1;
	*ns = !neg ? (int64_t)v : v > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)v;
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

int spaa_filter_explain_empty(const struct spaa_filter *f, const struct spaa_profile *p,
			      struct spaa_error *err)
{
	struct spaa_map seen;
	char which[96], list[512];
	size_t len = 0;
	uint32_t n, shown = 0;

	if (f->pid == SPAA_NO_ID && f->tid == SPAA_NO_ID)
		return 0;
	spaa_map_init(&seen, 2 * sizeof(int64_t));
	threads_of(p, &seen);
	n = seen.nr;
	list[0] = '\0';
	for (uint32_t i = 0; i < n; i++) {
		const int64_t *k = spaa_map_key(&seen, i);

		if (spaa_filter_thread(f, k[0], k[1])) {
			/* the thread is there: the emptiness is not its doing */
			spaa_map_release(&seen);
			return 0;
		}
		if (shown < 8 && len < sizeof(list)) {
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%" PRId64 "/%" PRId64,
						shown ? ", " : "", k[0], k[1]);
			shown++;
		}
	}
	spaa_map_release(&seen);
	if (f->pid != SPAA_NO_ID && f->tid != SPAA_NO_ID)
		snprintf(which, sizeof(which), "--pid %" PRId64 " --tid %" PRId64, f->pid, f->tid);
	else if (f->pid != SPAA_NO_ID)
		snprintf(which, sizeof(which), "--pid %" PRId64, f->pid);
	else
		snprintf(which, sizeof(which), "--tid %" PRId64, f->tid);
	if (!n)
		return spaa_error_set(err, SPAA_E_NO_DATA,
				      "%s selects nothing: the profile names no process or thread", which);
	return spaa_error_set(err, SPAA_E_NO_DATA,
			      "%s selects nothing: the profile has %s %s%s (pid/tid)", which,
			      n == 1 ? "thread" : "threads", list, n > shown ? ", ..." : "");
}
