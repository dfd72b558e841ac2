/*
 * spaa_scan_lex - the pieces of JSON the record scans (spaa_sample_scan.h,
 * spaa_stack_scan.h) read straight from a line: whitespace, strings of
 * plain ASCII without escapes, numbers in the strict grammar with their
 * digits read in the same pass.  Private to those two; each returns NULL
 * (or false) for anything it does not take, and the scan then declines
 * the line.
 */
#ifndef SPAA_SPAA_SCAN_LEX_H
#define SPAA_SPAA_SCAN_LEX_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "io/json.h"
#include "model/util.h"

static inline const char *lex_ws(const char *c, const char *end)
{
	if (c < end && (unsigned char)*c > ' ')
		return c;       /* the common case: no whitespace */
	while (c < end && (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\n'))
		c++;
	return c;
}

/* ASCII from 0x20 but '"' and '\\': a string byte the fast path takes. */
static inline bool lex_plain_byte(char c)
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
#define LEX_SWAR_DIGITS 1
#else
#define LEX_SWAR_DIGITS 0
#endif

static inline uint64_t lex_word(const char *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
	return w;
}

/*
 * Where a value is in the line: cheaper to fill than a spaa_json_value
 * (eight a line), which the rare value the fast conversions cannot take
 * gets made of (lex_as_json).
 */
struct lex_field {
	const char *str;        /* NULL: the key is absent */
	uint32_t len;
	bool string;            /* else a number */
};

static inline struct spaa_json_value lex_as_json(const struct lex_field *f)
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
static inline const char *lex_string(const char *c, const char *end, struct lex_field *v)
{
	const char *s = ++c;
	uint64_t m = 0;

	while (!m && end - c >= 8) {
		m = spaa_swar_special(lex_word(c));
		c += m ? spaa_swar_first(m) : 8;
	}
	while (c < end && lex_plain_byte(*c))
		c++;
	if (c == end || *c != '"')
		return NULL;
	*v = (struct lex_field){ .str = s, .len = (uint32_t)(c - s), .string = true };
	return c + 1;
}

static inline bool lex_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * The digits of a number as lex_number reads them, up to 18 before and
 * 18 after the dot (19: more, and ip or fp is not the value of them).
 */
struct lex_num {
	uint64_t ip, fp;
	uint8_t nint, nfrac;
	bool neg, exp;
};

/* Appends the digits at *pc to *v, counting them in *n up to 19. */
static inline const char *lex_digits(const char *c, const char *end, uint64_t *v,
			       uint8_t *n)
{
	static const uint64_t pow10[] = {
		1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
	};
	size_t k = 8;

	while (LEX_SWAR_DIGITS && k == 8 && end - c >= 8 && *n + 8 <= 18) {
		uint64_t w = lex_word(c), t, m = spaa_swar_nondigit(w);

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
	for (; c < end && lex_digit(*c); c++)
		if (*n < 19 && ++*n < 19)
			*v = *v * 10 + (uint64_t)(*c - '0');
	return c;
}

/*
 * A number in the strict JSON grammar starting at c, its digits read in
 * the same pass; NULL if not one.
 */
static inline const char *lex_number(const char *c, const char *end,
			       struct lex_field *v, struct lex_num *n)
{
	const char *s = c;

	*n = (struct lex_num){ .neg = c < end && *c == '-' };
	c += n->neg;
	if (c == end || !lex_digit(*c))
		return NULL;
	if (*c == '0')
		n->nint = 1, c++;
	else
		c = lex_digits(c, end, &n->ip, &n->nint);
	if (c < end && *c == '.') {
		if (++c == end || !lex_digit(*c))
			return NULL;
		c = lex_digits(c, end, &n->fp, &n->nfrac);
	}
	if (c < end && (*c == 'e' || *c == 'E')) {
		n->exp = true;
		if (++c < end && (*c == '+' || *c == '-'))
			c++;
		if (c == end || !lex_digit(*c))
			return NULL;
		while (c < end && lex_digit(*c))
			c++;
	}
	*v = (struct lex_field){ .str = s, .len = (uint32_t)(c - s), .string = false };
	return c;
}

/* A plain integer of at most 18 digits: what cannot overflow 64 bits. */
static inline bool lex_int(const struct lex_num *n)
{
	return !n->exp && !n->nfrac && n->nint <= 18;
}

#endif
