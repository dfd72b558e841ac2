#include <string.h>

#include "formats/spaa_sample_scan.h"
#include "formats/spaa_scan_lex.h"
#include "io/json.h"
#include "model/util.h"

enum { FK_TYPE, FK_TIMESTAMP, FK_STACK_ID, FK_EVENT, FK_PID, FK_TID, FK_CPU,
       FK_PERIOD, FK_NKEYS };

static bool key_is(const char *c, size_t room, const char *lit, size_t n)
{
	return room >= n && !memcmp(c, lit, n);
}

/*
 * The key whose opening quote is at c[-1]: *pc moves past its closing
 * quote.  -1 for any key but these.  Compared as literals, closing quote
 * included, not byte by byte: a key equal to one of them up to there is
 * that key (an escape would show as a backslash).
 */
static int fast_key(const char **pc, const char *end)
{
	/* each with its closing quote; literal lengths compile to a few loads */
#define KEY_IS(lit) key_is(c, room, lit "\"", sizeof(lit))
	static const uint8_t len[FK_NKEYS] = {
		[FK_TYPE] = 5, [FK_TIMESTAMP] = 10, [FK_STACK_ID] = 9,
		[FK_EVENT] = 6, [FK_PID] = 4, [FK_TID] = 4, [FK_CPU] = 4,
		[FK_PERIOD] = 7,
	};
	const char *c = *pc;
	size_t room = (size_t)(end - c);
	int k = -1;

	if (!room)
		return -1;
	switch (*c) {
	case 't':
		k = KEY_IS("type") ? FK_TYPE : KEY_IS("timestamp") ? FK_TIMESTAMP :
		    KEY_IS("tid") ? FK_TID : -1;
		break;
	case 'p':
		k = KEY_IS("pid") ? FK_PID : KEY_IS("period") ? FK_PERIOD : -1;
		break;
	case 'c':
		k = KEY_IS("cpu") ? FK_CPU : -1;
		break;
	case 'e':
		k = KEY_IS("event") ? FK_EVENT : -1;
		break;
	case 's':
		k = KEY_IS("stack_id") ? FK_STACK_ID : -1;
		break;
	}
#undef KEY_IS
	if (k >= 0)
		*pc = c + len[k];
	return k;
}

/*
 * An optional id (pid, tid, cpu) as opt_i64 accepts it; -1 if not.
 * Anything but a plain integer goes to the exact conversion of json.h.
 */
static int fast_id(const struct lex_field *v, const struct lex_num *n,
		   int64_t *out)
{
	*out = SPAA_NO_ID;
	if (!v->str)
		return 0;
	if (v->string)
		return -1;
	if (lex_int(n)) {
		*out = n->neg ? -(int64_t)n->ip : (int64_t)n->ip;
	} else {
		struct spaa_json_value j = lex_as_json(v);

		if (spaa_json_get_i64(&j, out))
			return -1;
	}
	return *out == SPAA_NO_ID ? -1 : 0;
}

/* The period as read_sample reads it; -1 if it would be rejected. */
static int fast_period(const struct lex_field *v, const struct lex_num *n,
		       uint64_t *out)
{
	struct spaa_json_value j;

	*out = 0;
	if (!v->str)
		return 0;
	if (v->string)
		return -1;
	if (lex_int(n) && !n->neg) {
		*out = n->ip;
		return 0;
	}
	j = lex_as_json(v);
	return spaa_json_get_u64(&j, out);
}

/*
 * spaa_json_get_scaled of the timestamp, at once when its digits fit 64 bits
 * after scaling by exp10 and it has no more decimals than exp10 keeps.
 */
int spaa_sample_scan_time(const struct spaa_sample_scan *sc, const char *line, int exp10,
		       int64_t *out)
{
	static const uint64_t pow10[] = {
		1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
		1000000000, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
		10000000000000ULL, 100000000000000ULL, 1000000000000000ULL,
		10000000000000000ULL, 100000000000000000ULL, 1000000000000000000ULL,
	};
	struct spaa_json_value v = {
		.type = SPAA_JSON_NUMBER, .str = line + sc->ts_off, .len = sc->ts_len,
	};

	if (sc->ts_digits && sc->ts_nfrac <= exp10 && sc->ts_nint + exp10 <= 18) {
		uint64_t t = sc->ts_int * pow10[exp10] + sc->ts_frac * pow10[exp10 - sc->ts_nfrac];

		*out = sc->ts_neg ? -(int64_t)t : (int64_t)t;
		return 0;
	}
	return spaa_json_get_scaled(&v, exp10, out);
}

/*
 * Reads a line of the common shape into *sc, needing nothing but the
 * line (so that the decoding thread can do it, see scanner): false for
 * anything else, and for what read_sample would reject.
 */
bool spaa_sample_scan_line(const char *line, size_t len, struct spaa_sample_scan *sc)
{
	struct lex_field f[FK_NKEYS];
	struct lex_num num[FK_NKEYS];
	unsigned seen = 0;
	const char *c = line, *end = line + len;
	const struct lex_num *ts = &num[FK_TIMESTAMP];

	/* offsets into the line are 32-bit; SPAA_MAX_LINE may allow more */
	if (len > UINT32_MAX)
		return false;
	c = lex_ws(c, end);
	if (c == end || *c++ != '{')
		return false;
	for (;;) {
		int k;

		c = lex_ws(c, end);
		if (c == end || *c++ != '"')
			return false;
		k = fast_key(&c, end);
		if (k < 0 || (seen & 1u << k))
			return false;
		seen |= 1u << k;
		c = lex_ws(c, end);
		if (c == end || *c++ != ':')
			return false;
		c = lex_ws(c, end);
		if (c == end)
			return false;
		c = *c == '"' ? lex_string(c, end, &f[k]) : lex_number(c, end, &f[k], &num[k]);
		if (!c)
			return false;
		c = lex_ws(c, end);
		if (c == end)
			return false;
		if (*c == '}')
			break;
		if (*c++ != ',')
			return false;
	}
	if (lex_ws(c + 1, end) != end)
		return false;
	for (int k = 0; k < FK_NKEYS; k++)
		if (!(seen & 1u << k))
			f[k] = (struct lex_field){ .str = NULL };

	/* every check of read_sample that needs only the line */
	if (!f[FK_TYPE].string || f[FK_TYPE].len != 6 ||
	    memcmp(f[FK_TYPE].str, "sample", 6) ||
	    !f[FK_TIMESTAMP].str || f[FK_TIMESTAMP].string || !f[FK_STACK_ID].str ||
	    (f[FK_EVENT].str && !f[FK_EVENT].string) ||
	    fast_id(&f[FK_PID], &num[FK_PID], &sc->pid) ||
	    fast_id(&f[FK_TID], &num[FK_TID], &sc->tid) ||
	    fast_id(&f[FK_CPU], &num[FK_CPU], &sc->cpu) ||
	    fast_period(&f[FK_PERIOD], &num[FK_PERIOD], &sc->period))
		return false;
	sc->has_period = f[FK_PERIOD].str != NULL;
	sc->has_event = f[FK_EVENT].str != NULL;
	sc->ts_off = (uint32_t)(f[FK_TIMESTAMP].str - line);
	sc->ts_len = f[FK_TIMESTAMP].len;
	sc->id_off = (uint32_t)(f[FK_STACK_ID].str - line);
	sc->id_len = f[FK_STACK_ID].len;
	sc->ev_off = sc->has_event ? (uint32_t)(f[FK_EVENT].str - line) : 0;
	sc->ev_len = sc->has_event ? f[FK_EVENT].len : 0;
	sc->prov = SPAA_NONE;
	sc->ts_int = ts->ip;
	sc->ts_frac = ts->fp;
	sc->ts_nint = ts->nint;
	sc->ts_nfrac = ts->nfrac;
	sc->ts_neg = ts->neg;
	sc->ts_digits = !ts->exp && ts->nint <= 18 && ts->nfrac <= 18;
	return true;
}
