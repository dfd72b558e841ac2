#include <string.h>

#include "formats/spaa_sample_scan.h"
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

static const char *skip_ws(const char *c, const char *end)
{
	if (c < end && (unsigned char)*c > ' ')
		return c;       /* the common case: no whitespace */
	while (c < end && (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\n'))
		c++;
	return c;
}

/* ASCII from 0x20 but '"' and '\\': a string byte the fast path takes. */
static bool plain_byte(char c)
{
	return (unsigned char)c >= 0x20 && (unsigned char)c < 0x80 && c != '"' && c != '\\';
}

/*
 * Runs of digits and of plain string bytes are measured eight bytes at a
 * time where the line has eight more (util.h), with word arithmetic
 * instead of a branch per byte: a sample line is mostly such runs, and
 * the branch that ends each one is the one a byte loop mispredicts.
 * Digits are also converted eight at a time, which needs the first byte
 * of a word to be its lowest: on other machines the byte loop does it.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FAST_DIGITS 1
#else
#define FAST_DIGITS 0
#endif

static uint64_t load_word(const char *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
	return w;
}

/*
 * Where a value is in the line: cheaper to fill than a spaa_json_value
 * (eight a line), which the rare value the fast conversions cannot take
 * gets made of (as_json).
 */
struct field {
	const char *str;        /* NULL: the key is absent */
	uint32_t len;
	bool string;            /* else a number */
};

static struct spaa_json_value as_json(const struct field *f)
{
	return (struct spaa_json_value){
		.type = f->string ? SPAA_JSON_STRING : SPAA_JSON_NUMBER,
		.str = f->str, .len = f->len,
	};
}

/*
 * A string without escapes or bytes outside printable ASCII, whose
 * opening quote is at *c; NULL for anything else.  Returns the byte
 * after the closing quote.
 */
static const char *fast_string(const char *c, const char *end, struct field *v)
{
	const char *s = ++c;
	uint64_t m = 0;

	while (!m && end - c >= 8) {
		m = spaa_swar_special(load_word(c));
		c += m ? spaa_swar_first(m) : 8;
	}
	while (c < end && plain_byte(*c))
		c++;
	if (c == end || *c != '"')
		return NULL;
	*v = (struct field){ .str = s, .len = (uint32_t)(c - s), .string = true };
	return c + 1;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * The digits of a number as fast_number reads them, up to 18 before and
 * 18 after the dot (19: more, and ip or fp is not the value of them).
 */
struct fast_num {
	uint64_t ip, fp;
	uint8_t nint, nfrac;
	bool neg, exp;
};

/* Appends the digits at *pc to *v, counting them in *n up to 19. */
static const char *fast_digits(const char *c, const char *end, uint64_t *v,
			       uint8_t *n)
{
	static const uint64_t pow10[] = {
		1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
	};
	size_t k = 8;

	while (FAST_DIGITS && k == 8 && end - c >= 8 && *n + 8 <= 18) {
		uint64_t w = load_word(c), t, m = spaa_swar_nondigit(w);

		k = m ? spaa_swar_first(m) : 8;
		if (!k)
			break;
		/*
		 * The k digits as 0..9 in the top k bytes, zeros below
		 * (leading zeros), then summed pairwise: 8 digits by three
		 * multiplications.
		 */
		t = (w - SPAA_ONES * '0') << (8 * (8 - k));
		t = t * 10 + (t >> 8);
		t = ((t & 0x000000ff000000ffULL) * (100 + (1000000ULL << 32)) +
		     ((t >> 16) & 0x000000ff000000ffULL) * (1 + (10000ULL << 32))) >> 32;
		*v = *v * pow10[k] + t;
		*n = (uint8_t)(*n + k);
		c += k;
	}
	for (; c < end && is_digit(*c); c++)
		if (*n < 19 && ++*n < 19)
			*v = *v * 10 + (uint64_t)(*c - '0');
	return c;
}

/*
 * A number in the strict JSON grammar starting at c, its digits read in
 * the same pass; NULL if not one.
 */
static const char *fast_number(const char *c, const char *end,
			       struct field *v, struct fast_num *n)
{
	const char *s = c;

	*n = (struct fast_num){ .neg = c < end && *c == '-' };
	c += n->neg;
	if (c == end || !is_digit(*c))
		return NULL;
	if (*c == '0')
		n->nint = 1, c++;
	else
		c = fast_digits(c, end, &n->ip, &n->nint);
	if (c < end && *c == '.') {
		if (++c == end || !is_digit(*c))
			return NULL;
		c = fast_digits(c, end, &n->fp, &n->nfrac);
	}
	if (c < end && (*c == 'e' || *c == 'E')) {
		n->exp = true;
		if (++c < end && (*c == '+' || *c == '-'))
			c++;
		if (c == end || !is_digit(*c))
			return NULL;
		while (c < end && is_digit(*c))
			c++;
	}
	*v = (struct field){ .str = s, .len = (uint32_t)(c - s), .string = false };
	return c;
}

/* A plain integer of at most 18 digits: what cannot overflow 64 bits. */
static bool fast_int(const struct fast_num *n)
{
	return !n->exp && !n->nfrac && n->nint <= 18;
}

/*
 * An optional id (pid, tid, cpu) as opt_i64 accepts it; -1 if not.
 * Anything but a plain integer goes to the exact conversion of json.h.
 */
static int fast_id(const struct field *v, const struct fast_num *n,
		   int64_t *out)
{
	*out = SPAA_NO_ID;
	if (!v->str)
		return 0;
	if (v->string)
		return -1;
	if (fast_int(n)) {
		*out = n->neg ? -(int64_t)n->ip : (int64_t)n->ip;
	} else {
		struct spaa_json_value j = as_json(v);

		if (spaa_json_get_i64(&j, out))
			return -1;
	}
	return *out == SPAA_NO_ID ? -1 : 0;
}

/* The period as read_sample reads it; -1 if it would be rejected. */
static int fast_period(const struct field *v, const struct fast_num *n,
		       uint64_t *out)
{
	struct spaa_json_value j;

	*out = 0;
	if (!v->str)
		return 0;
	if (v->string)
		return -1;
	if (fast_int(n) && !n->neg) {
		*out = n->ip;
		return 0;
	}
	j = as_json(v);
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
	struct field f[FK_NKEYS];
	struct fast_num num[FK_NKEYS];
	unsigned seen = 0;
	const char *c = line, *end = line + len;
	const struct fast_num *ts = &num[FK_TIMESTAMP];

	/* offsets into the line are 32-bit; SPAA_MAX_LINE may allow more */
	if (len > UINT32_MAX)
		return false;
	c = skip_ws(c, end);
	if (c == end || *c++ != '{')
		return false;
	for (;;) {
		int k;

		c = skip_ws(c, end);
		if (c == end || *c++ != '"')
			return false;
		k = fast_key(&c, end);
		if (k < 0 || (seen & 1u << k))
			return false;
		seen |= 1u << k;
		c = skip_ws(c, end);
		if (c == end || *c++ != ':')
			return false;
		c = skip_ws(c, end);
		if (c == end)
			return false;
		c = *c == '"' ? fast_string(c, end, &f[k]) : fast_number(c, end, &f[k], &num[k]);
		if (!c)
			return false;
		c = skip_ws(c, end);
		if (c == end)
			return false;
		if (*c == '}')
			break;
		if (*c++ != ',')
			return false;
	}
	if (skip_ws(c + 1, end) != end)
		return false;
	for (int k = 0; k < FK_NKEYS; k++)
		if (!(seen & 1u << k))
			f[k] = (struct field){ .str = NULL };

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
