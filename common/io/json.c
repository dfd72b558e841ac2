/*
 * json - strict NDJSON-line parser; see json.h for the contract.
 *
 * The parser is iterative: open containers live on a fixed stack of
 * SPAA_JSON_MAX_DEPTH frames inside struct spaa_json_parser, so hostile nesting
 * costs one error message, never the C stack.  Every value and every
 * unescaped string comes from an arena of chunks that is rewound, not
 * freed, by each spaa_json_parse, so a warmed-up parser never calls malloc.
 *
 * Error offsets point at the byte that made the text invalid: the bad
 * character, the first byte of a bad UTF-8 sequence, the backslash of a
 * bad escape, the '[' or '{' one level too deep, the first byte of the
 * trailing garbage, the first byte of a malformed number and the opening
 * quote of an unterminated string.  Running out of text anywhere else is
 * "unexpected end of input" at offset len; text that is empty or all
 * whitespace is "empty input", also at offset len.
 */
#include <locale.h>
#include <pthread.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/json.h"
#include "model/util.h"

/*
 * Large enough that a typical SPAA line (a few hundred bytes, a few dozen
 * values) fits in the first chunk many times over; longer lines add
 * chunks that double in size.
 */
#define SPAA_JSON_CHUNK_MIN ((size_t)32 * 1024)
#define SPAA_JSON_ALIGN ((size_t)8)

/* spaa_json_get_double copies the number to terminate it; longer is refused. */
#define SPAA_JSON_DOUBLE_MAX_TEXT 512

struct json_chunk {
	struct json_chunk *next;
	size_t size;                    /* bytes of data */
	unsigned char data[];
};

_Static_assert(offsetof(struct json_chunk, data) % SPAA_JSON_ALIGN == 0,
	       "chunk data must be aligned for struct spaa_json_value");

struct json_frame {
	struct spaa_json_value *v;           /* the open array or object */
	struct spaa_json_value **link;       /* where its next element goes */
};

struct spaa_json_parser {
	unsigned char *ptr, *lim;       /* free space in cur */
	struct json_chunk *head, *cur;
	struct json_frame stack[SPAA_JSON_MAX_DEPTH];
	struct spaa_json_parser *next_free;     /* in a pool */
};

#define JSON_POOL_MAX 8

struct spaa_json_pool {
	pthread_mutex_t lock;
	struct spaa_json_parser *free;  /* owned, next_free-linked */
	unsigned nfree;
};

struct spaa_json_parser *spaa_json_parser_new(void)
{
	return spaa_xcalloc(1, sizeof(struct spaa_json_parser));
}

void spaa_json_parser_free(struct spaa_json_parser *p)
{
	struct json_chunk *c, *next;

	if (!p)
		return;
	for (c = p->head; c; c = next) {
		next = c->next;
		free(c);
	}
	free(p);
}

static void arena_reset(struct spaa_json_parser *p)
{
	p->cur = p->head;
	if (p->cur) {
		p->ptr = p->cur->data;
		p->lim = p->cur->data + p->cur->size;
	} else {
		p->ptr = p->lim = NULL;
	}
}

/*
 * Moves to the next chunk that can hold n bytes.  A following chunk that
 * is too small (only possible for a request larger than every chunk seen
 * so far) is kept for later lines and a bigger one is put in front of it,
 * so the list only grows and reaches a fixed point at the largest line.
 */
static __attribute__((noinline)) void *arena_grow(struct spaa_json_parser *p,
						  size_t n)
{
	struct json_chunk *c = p->cur ? p->cur->next : p->head;

	if (!c || c->size < n) {
		size_t size = p->cur ? p->cur->size * 2 : SPAA_JSON_CHUNK_MIN;

		if (size < n)
			size = n;
		c = spaa_xmalloc(sizeof(*c) + size);
		c->size = size;
		if (p->cur) {
			c->next = p->cur->next;
			p->cur->next = c;
		} else {
			c->next = p->head;
			p->head = c;
		}
	}
	p->cur = c;
	p->ptr = c->data + n;
	p->lim = c->data + c->size;
	return c->data;
}

/* Keeps p->ptr aligned for struct spaa_json_value by rounding every request. */
static inline void *arena_alloc(struct spaa_json_parser *p, size_t n)
{
	void *r;

	n = (n + SPAA_JSON_ALIGN - 1) & ~(SPAA_JSON_ALIGN - 1);
	if ((size_t)(p->lim - p->ptr) < n)
		return arena_grow(p, n);
	r = p->ptr;
	p->ptr += n;
	return r;
}

static __attribute__((cold, format(printf, 3, 4)))
const struct spaa_json_value *json_fail(struct spaa_json_error *e, size_t offset,
				   const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return NULL;
	e->offset = offset;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return NULL;
}

static __attribute__((cold))
const struct spaa_json_value *fail_unexpected(struct spaa_json_error *e, size_t offset,
					 unsigned char c)
{
	if (c >= ' ' && c < 0x7f)
		return json_fail(e, offset, "unexpected character '%c'", c);
	return json_fail(e, offset, "unexpected byte 0x%02x", c);
}

static inline const unsigned char *skip_ws(const unsigned char *s,
					   const unsigned char *end)
{
	while (s < end && (*s == ' ' || *s == '\n' || *s == '\r' ||
			   *s == '\t'))
		s++;
	return s;
}

/*
 * Returns the length (2..4) of the valid UTF-8 sequence starting at the
 * non-ASCII byte s[0], or 0 if it is malformed or truncated by end.  The
 * ranges are those of RFC 3629 table 3-7: the tight second-byte ranges
 * after E0, ED, F0 and F4 exclude overlong forms, surrogates and code
 * points past U+10FFFF.
 */
static inline size_t utf8_seq(const unsigned char *s, const unsigned char *end)
{
	size_t avail = (size_t)(end - s);
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t n;

	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
	} else {
		return 0;
	}
	if (avail < n || s[1] < lo || s[1] > hi)
		return 0;
	if (n >= 3 && (s[2] & 0xc0) != 0x80)
		return 0;
	if (n == 4 && (s[3] & 0xc0) != 0x80)
		return 0;
	return n;
}

static inline int hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/*
 * Reads the 4 hex digits after "\u" at s (s points at the backslash).
 * Returns the code unit, -1 for a non-hex digit, -2 if end comes first.
 */
static int hex4(const unsigned char *s, const unsigned char *end)
{
	int u = 0, i;

	for (i = 2; i < 6; i++) {
		int h;

		if (s + i >= end)
			return -2;
		h = hexval(s[i]);
		if (h < 0)
			return -1;
		u = u << 4 | h;
	}
	return u;
}

/* Writes code point u as UTF-8 at d; returns the byte count. */
static inline size_t put_utf8(unsigned char *d, unsigned int u)
{
	if (u < 0x80) {
		d[0] = (unsigned char)u;
		return 1;
	}
	if (u < 0x800) {
		d[0] = (unsigned char)(0xc0 | u >> 6);
		d[1] = (unsigned char)(0x80 | (u & 0x3f));
		return 2;
	}
	if (u < 0x10000) {
		d[0] = (unsigned char)(0xe0 | u >> 12);
		d[1] = (unsigned char)(0x80 | (u >> 6 & 0x3f));
		d[2] = (unsigned char)(0x80 | (u & 0x3f));
		return 3;
	}
	d[0] = (unsigned char)(0xf0 | u >> 18);
	d[1] = (unsigned char)(0x80 | (u >> 12 & 0x3f));
	d[2] = (unsigned char)(0x80 | (u >> 6 & 0x3f));
	d[3] = (unsigned char)(0x80 | (u & 0x3f));
	return 4;
}

/*
 * Unescapes the already validated body [s, end) into d; returns the
 * length.  Validation happened in parse_string, so nothing can fail here.
 */
static size_t unescape(unsigned char *d, const unsigned char *s,
		       const unsigned char *end)
{
	unsigned char *d0 = d;
	unsigned int u, lo;

	while (s < end) {
		const unsigned char *bs = memchr(s, '\\', (size_t)(end - s));

		if (!bs)
			bs = end;
		memcpy(d, s, (size_t)(bs - s));
		d += bs - s;
		s = bs;
		if (s == end)
			break;
		switch (s[1]) {
		case 'b':
			*d++ = '\b';
			break;
		case 'f':
			*d++ = '\f';
			break;
		case 'n':
			*d++ = '\n';
			break;
		case 'r':
			*d++ = '\r';
			break;
		case 't':
			*d++ = '\t';
			break;
		case 'u':
			u = (unsigned int)hex4(s, end);
			if (u >= 0xd800 && u <= 0xdbff) {
				lo = (unsigned int)hex4(s + 6, end);
				u = 0x10000 + ((u - 0xd800) << 10) +
				    (lo - 0xdc00);
				s += 6;
			}
			d += put_utf8(d, u);
			s += 4;
			break;
		default:        /* '"', '\\', '/' stand for themselves */
			*d++ = s[1];
			break;
		}
		s += 2;
	}
	return (size_t)(d - d0);
}

/*
 * Parses the string whose opening quote is at *sp, leaving *sp after the
 * closing quote and the unescaped, NUL-terminated copy in *out and *out_len.
 * One pass finds the end and validates everything (so error offsets come
 * in text order); a second pass copies, by memcpy when nothing is escaped.
 */
static int parse_string(struct spaa_json_parser *p, const unsigned char *text,
			const unsigned char **sp, const unsigned char *end,
			const char **out, size_t *out_len, struct spaa_json_error *e)
{
	const unsigned char *q = *sp, *body = q + 1, *r = body;
	int escaped = 0;
	unsigned char *d;
	size_t n;
	int u, lo;

	for (;;) {
		unsigned char c;

		while (end - r >= 8) {
			uint64_t w, m;

			memcpy(&w, r, 8);
			m = spaa_swar_special(w);
			if (m) {
				r += spaa_swar_first(m);
				break;
			}
			r += 8;
		}
		if (r == end)
			goto unterminated;
		c = *r;
		if (c == '"')
			break;
		if (c == '\\') {
			escaped = 1;
			if (r + 1 == end)
				goto unterminated;
			switch (r[1]) {
			case '"': case '\\': case '/': case 'b':
			case 'f': case 'n': case 'r': case 't':
				r += 2;
				continue;
			case 'u':
				break;
			default:
				goto bad_escape;
			}
			u = hex4(r, end);
			if (u == -2)
				goto unterminated;
			if (u < 0)
				goto bad_u;
			if (u >= 0xdc00 && u <= 0xdfff)
				goto lone;
			if (u < 0xd800 || u > 0xdbff) {
				r += 6;
				continue;
			}
			/* a high surrogate must be followed by "\u" + low */
			if (r + 6 == end || (r[6] == '\\' && r + 7 == end))
				goto unterminated;
			if (r[6] != '\\' || r[7] != 'u')
				goto lone;
			lo = hex4(r + 6, end);
			if (lo == -2)
				goto unterminated;
			if (lo < 0) {
				r += 6;
				goto bad_u;
			}
			if (lo < 0xdc00 || lo > 0xdfff)
				goto lone;
			r += 12;
			continue;
		}
		if (c < 0x20) {
			json_fail(e, (size_t)(r - text),
				  "control character in string");
			return -1;
		}
		if (c < 0x80) {
			r++;
			continue;
		}
		n = utf8_seq(r, end);
		if (!n) {
			json_fail(e, (size_t)(r - text),
				  "invalid UTF-8 in string");
			return -1;
		}
		r += n;
	}

	n = (size_t)(r - body);
	d = arena_alloc(p, n + 1);
	if (escaped)
		n = unescape(d, body, r);
	else
		memcpy(d, body, n);
	d[n] = '\0';
	*out = (const char *)d;
	*out_len = n;
	*sp = r + 1;
	return 0;

unterminated:
	json_fail(e, (size_t)(q - text), "unterminated string");
	return -1;
bad_escape:
	json_fail(e, (size_t)(r - text), "invalid escape");
	return -1;
bad_u:
	json_fail(e, (size_t)(r - text), "invalid \\u escape");
	return -1;
lone:
	json_fail(e, (size_t)(r - text), "lone surrogate in \\u escape");
	return -1;
}

static inline int is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Scans an RFC 8259 number starting at s; returns the byte after it, or
 * NULL if the text there is not a number.  Whatever follows is judged by
 * the caller, so "1x" fails there as an unexpected character.
 */
static inline const unsigned char *scan_number(const unsigned char *s,
					       const unsigned char *end)
{
	if (*s == '-' && ++s == end)
		return NULL;
	if (*s == '0') {
		s++;
		/* a leading zero would otherwise end the number early */
		if (s < end && is_digit(*s))
			return NULL;
	} else if (is_digit(*s)) {
		while (++s < end && is_digit(*s))
			;
	} else {
		return NULL;
	}
	if (s < end && *s == '.') {
		if (++s == end || !is_digit(*s))
			return NULL;
		while (++s < end && is_digit(*s))
			;
	}
	if (s < end && (*s == 'e' || *s == 'E')) {
		if (++s < end && (*s == '+' || *s == '-'))
			s++;
		if (s == end || !is_digit(*s))
			return NULL;
		while (++s < end && is_digit(*s))
			;
	}
	return s;
}

/*
 * One loop over the text with an explicit stack of open containers, not
 * a recursive descent: nesting costs no C stack, whatever the input, and
 * the loop's state stays in registers.  That is why this function is
 * longer than the others: its cases share the state they would otherwise
 * pass around.
 */
struct spaa_json_pool *spaa_json_pool_new(void)
{
	struct spaa_json_pool *pool = spaa_xcalloc(1, sizeof(*pool));

	pthread_mutex_init(&pool->lock, NULL);
	return pool;
}

void spaa_json_pool_free(struct spaa_json_pool *pool)
{
	if (!pool)
		return;
	while (pool->free) {
		struct spaa_json_parser *p = pool->free;

		pool->free = p->next_free;
		spaa_json_parser_free(p);
	}
	pthread_mutex_destroy(&pool->lock);
	free(pool);
}

struct spaa_json_parser *spaa_json_pool_take(struct spaa_json_pool *pool)
{
	struct spaa_json_parser *p;

	pthread_mutex_lock(&pool->lock);
	p = pool->free;
	if (p) {
		pool->free = p->next_free;
		pool->nfree--;
	}
	pthread_mutex_unlock(&pool->lock);
	return p ? p : spaa_json_parser_new();
}

void spaa_json_pool_give(struct spaa_json_pool *pool, struct spaa_json_parser *p)
{
	arena_reset(p);
	pthread_mutex_lock(&pool->lock);
	if (pool->nfree < JSON_POOL_MAX) {
		p->next_free = pool->free;
		pool->free = p;
		pool->nfree++;
		p = NULL;
	}
	pthread_mutex_unlock(&pool->lock);
	spaa_json_parser_free(p);
}

void spaa_json_parser_rewind(struct spaa_json_parser *p)
{
	arena_reset(p);
}

void *spaa_json_parser_alloc(struct spaa_json_parser *p, size_t n)
{
	return arena_alloc(p, n);
}

size_t spaa_json_parser_used(const struct spaa_json_parser *p)
{
	size_t n = 0;

	if (!p->cur)
		return 0;
	for (const struct json_chunk *c = p->head; c != p->cur; c = c->next)
		n += c->size;
	return n + (size_t)(p->ptr - p->cur->data);
}

static const struct spaa_json_value *parse(struct spaa_json_parser *p, const char *text,
					   size_t len, struct spaa_json_error *e);

const struct spaa_json_value *spaa_json_parse(struct spaa_json_parser *p, const char *text,
				    size_t len, struct spaa_json_error *e)
{
	arena_reset(p);
	return parse(p, text, len, e);
}

const struct spaa_json_value *spaa_json_parse_more(struct spaa_json_parser *p,
						   const char *text, size_t len,
						   struct spaa_json_error *e)
{
	return parse(p, text, len, e);
}

static const struct spaa_json_value *parse(struct spaa_json_parser *p, const char *text,
					   size_t len, struct spaa_json_error *e)
{
	const unsigned char *const t0 = (const unsigned char *)text;
	const unsigned char *s, *end, *x;
	struct json_frame *top = NULL;
	struct spaa_json_value *root = NULL, *v, **link = &root;
	const char *key = NULL;
	size_t key_len = 0;
	int depth = 0;
	const char *lit;
	size_t lit_len, i;

	if (!len)       /* text may then be NULL, and NULL + 0 is undefined */
		return json_fail(e, 0, "empty input");
	end = t0 + len;
	s = skip_ws(t0, end);
	if (s == end)
		return json_fail(e, len, "empty input");

value:
	/* s < end, at the first byte of a value; link says where it goes */
	v = arena_alloc(p, sizeof(*v));
	v->str = NULL;
	v->len = 0;
	v->key = key;
	v->key_len = key_len;
	v->child = NULL;
	v->next = NULL;
	*link = v;
	key = NULL;
	key_len = 0;
	switch (*s) {
	case '{':
	case '[':
		if (depth == SPAA_JSON_MAX_DEPTH)
			return json_fail(e, (size_t)(s - t0),
					 "nesting deeper than %d",
					 SPAA_JSON_MAX_DEPTH);
		v->type = *s == '{' ? SPAA_JSON_OBJECT : SPAA_JSON_ARRAY;
		top = &p->stack[depth++];
		top->v = v;
		top->link = &v->child;
		s = skip_ws(s + 1, end);
		if (s == end)
			goto eof;
		if (*s == (v->type == SPAA_JSON_OBJECT ? '}' : ']')) {
			s++;
			goto close;
		}
		if (v->type == SPAA_JSON_OBJECT)
			goto member;
		link = top->link;
		goto value;
	case '"':
		v->type = SPAA_JSON_STRING;
		if (parse_string(p, t0, &s, end, &v->str, &v->len, e))
			return NULL;
		goto after;
	case '-': case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		x = scan_number(s, end);
		if (!x)
			return json_fail(e, (size_t)(s - t0), "invalid number");
		v->type = SPAA_JSON_NUMBER;
		v->str = (const char *)s;
		v->len = (size_t)(x - s);
		s = x;
		goto after;
	case 't':
		v->type = SPAA_JSON_TRUE;
		lit = "true";
		lit_len = 4;
		break;
	case 'f':
		v->type = SPAA_JSON_FALSE;
		lit = "false";
		lit_len = 5;
		break;
	case 'n':
		v->type = SPAA_JSON_NULL;
		lit = "null";
		lit_len = 4;
		break;
	default:
		return fail_unexpected(e, (size_t)(s - t0), *s);
	}
	/* the rest of a literal */
	for (i = 1; i < lit_len; i++) {
		if (s + i == end)
			goto eof;
		if (s[i] != (unsigned char)lit[i])
			return fail_unexpected(e, (size_t)(s + i - t0), s[i]);
	}
	s += lit_len;
	goto after;

member:
	/* s < end, where a member name must start */
	if (*s != '"')
		return fail_unexpected(e, (size_t)(s - t0), *s);
	if (parse_string(p, t0, &s, end, &key, &key_len, e))
		return NULL;
	s = skip_ws(s, end);
	if (s == end)
		goto eof;
	if (*s != ':')
		return fail_unexpected(e, (size_t)(s - t0), *s);
	s = skip_ws(s + 1, end);
	if (s == end)
		goto eof;
	link = top->link;
	goto value;

close:
	/* the container top->v is complete and becomes the value v */
	v = top->v;
	top = --depth ? &p->stack[depth - 1] : NULL;
after:
	/* v is complete; link it into its parent and look at what follows */
	if (!top) {
		s = skip_ws(s, end);
		if (s != end)
			return json_fail(e, (size_t)(s - t0), "%s",
				"trailing characters after JSON value");
		return root;
	}
	top->link = &v->next;
	top->v->len++;
	s = skip_ws(s, end);
	if (s == end)
		goto eof;
	if (*s == ',') {
		s = skip_ws(s + 1, end);
		if (s == end)
			goto eof;
		if (top->v->type == SPAA_JSON_OBJECT)
			goto member;
		link = top->link;
		goto value;
	}
	if (*s == (top->v->type == SPAA_JSON_OBJECT ? '}' : ']')) {
		s++;
		goto close;
	}
	return fail_unexpected(e, (size_t)(s - t0), *s);

eof:
	return json_fail(e, len, "unexpected end of input");
}

const struct spaa_json_value *spaa_json_get(const struct spaa_json_value *obj, const char *key)
{
	const struct spaa_json_value *m;
	size_t n;

	if (!obj || obj->type != SPAA_JSON_OBJECT)
		return NULL;
	n = strlen(key);
	for (m = obj->child; m; m = m->next) {
		if (m->key_len == n && !memcmp(m->key, key, n))
			return m;
	}
	return NULL;
}

static bool same_key(const struct spaa_json_value *a, const struct spaa_json_value *b)
{
	return a->key_len == b->key_len && !memcmp(a->key, b->key, a->key_len);
}

static int cmp_key(const void *x, const void *y)
{
	const struct spaa_json_value *a = *(const struct spaa_json_value *const *)x;
	const struct spaa_json_value *b = *(const struct spaa_json_value *const *)y;
	size_t n = a->key_len < b->key_len ? a->key_len : b->key_len;
	int c = memcmp(a->key, b->key, n);

	if (c)
		return c;
	return a->key_len < b->key_len ? -1 : a->key_len > b->key_len;
}

/* One of 64 bits for a key: equal keys share it. */
static uint64_t key_bit(const struct spaa_json_value *m)
{
	unsigned h = (unsigned)m->key_len * 31u;

	if (m->key_len)
		h += (unsigned char)m->key[0] * 7u + (unsigned char)m->key[m->key_len - 1];
	return (uint64_t)1 << (h & 63);
}

/*
 * Small objects (records) pairwise, but only for a key whose bit an
 * earlier key has (every record is checked, and most have no repeat);
 * large ones sorted, neighbours compared.
 */
static const struct spaa_json_value *object_repeat(const struct spaa_json_value *obj)
{
	const struct spaa_json_value **m, *found = NULL, *a, *b;
	size_t n = 0;

	if (obj->len <= 16) {
		uint64_t seen = 0;

		for (a = obj->child; a; a = a->next) {
			uint64_t bit = key_bit(a);

			for (b = obj->child; (seen & bit) && b != a; b = b->next)
				if (same_key(a, b))
					return a;
			seen |= bit;
		}
		return NULL;
	}
	m = spaa_xmalloc(obj->len * sizeof(*m));
	for (a = obj->child; a && n < obj->len; a = a->next)
		m[n++] = a;
	qsort(m, n, sizeof(*m), cmp_key);
	for (size_t i = 1; i < n && !found; i++)
		if (same_key(m[i - 1], m[i]))
			found = m[i];
	free(m);
	return found;
}

const struct spaa_json_value *spaa_json_repeated_key(const struct spaa_json_value *v)
{
	const struct spaa_json_value *c, *r;

	if (v->type != SPAA_JSON_OBJECT && v->type != SPAA_JSON_ARRAY)
		return NULL;
	if (v->type == SPAA_JSON_OBJECT && (r = object_repeat(v)))
		return r;
	/* nesting is bounded by SPAA_JSON_MAX_DEPTH: recursion is safe */
	for (c = v->child; c; c = c->next)
		if ((c->type == SPAA_JSON_OBJECT || c->type == SPAA_JSON_ARRAY) &&
		    (r = spaa_json_repeated_key(c)))
			return r;
	return NULL;
}

const char *spaa_json_type_name(enum spaa_json_type t)
{
	switch (t) {
	case SPAA_JSON_NULL:
		return "null";
	case SPAA_JSON_FALSE:
	case SPAA_JSON_TRUE:
		return "boolean";
	case SPAA_JSON_NUMBER:
		return "number";
	case SPAA_JSON_STRING:
		return "string";
	case SPAA_JSON_ARRAY:
		return "array";
	case SPAA_JSON_OBJECT:
		return "object";
	}
	return "unknown";
}

/*
 * Splits an integer literal into sign and magnitude.  "-0" is accepted as
 * 0 by both spaa_json_get_u64 and spaa_json_get_i64: it is a valid JSON integer and
 * its value, zero, is representable in both types.
 */
static int integer_literal(const struct spaa_json_value *v, int *neg, uint64_t *mag)
{
	const char *s, *end;
	uint64_t m = 0;

	if (!v || v->type != SPAA_JSON_NUMBER || !v->len)
		return -1;
	s = v->str;
	end = s + v->len;
	*neg = *s == '-';
	s += *neg;
	if (s == end)
		return -1;
	for (; s < end; s++) {
		if (!is_digit((unsigned char)*s))
			return -1;      /* '.', 'e' or 'E': not an integer */
		if (__builtin_mul_overflow(m, 10, &m) ||
		    __builtin_add_overflow(m, (uint64_t)(*s - '0'), &m))
			return -1;
	}
	*mag = m;
	return 0;
}

int spaa_json_get_u64(const struct spaa_json_value *v, uint64_t *out)
{
	uint64_t m;
	int neg;

	if (integer_literal(v, &neg, &m) || (neg && m))
		return -1;
	*out = m;
	return 0;
}

int spaa_json_get_i64(const struct spaa_json_value *v, int64_t *out)
{
	uint64_t m;
	int neg;

	if (integer_literal(v, &neg, &m))
		return -1;
	if (neg ? m > (uint64_t)INT64_MAX + 1 : m > (uint64_t)INT64_MAX)
		return -1;
	*out = neg ? (int64_t)(0 - m) : (int64_t)m;
	return 0;
}

int spaa_json_get_double(const struct spaa_json_value *v, double *out)
{
	char buf[SPAA_JSON_DOUBLE_MAX_TEXT + 1];
	locale_t c_loc, old;
	char *endp;
	double d;
	size_t i;

	if (!v || v->type != SPAA_JSON_NUMBER || !v->len ||
	    v->len > SPAA_JSON_DOUBLE_MAX_TEXT)
		return -1;
	/*
	 * Parser output is always a JSON number; the check keeps strtod's
	 * extras (hex, "inf", "nan") out should a caller build a value.
	 */
	for (i = 0; i < v->len; i++) {
		char ch = v->str[i];

		if (!is_digit((unsigned char)ch) && ch != '-' && ch != '+' &&
		    ch != '.' && ch != 'e' && ch != 'E')
			return -1;
		buf[i] = ch;
	}
	buf[v->len] = '\0';
	/*
	 * strtod follows LC_NUMERIC, which a tool may have set from the
	 * environment; switch this thread to "C" for the call.  glibc hands
	 * out a static object for "C", so this costs no allocation there.
	 */
	c_loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	if (c_loc == (locale_t)0)
		return -1;
	old = uselocale(c_loc);
	d = strtod(buf, &endp);
	uselocale(old);
	freelocale(c_loc);
	/* underflow to 0 or a subnormal is a fine answer, infinity is not */
	if (endp != buf + v->len || isinf(d) || isnan(d))
		return -1;
	*out = d;
	return 0;
}

/*
 * value * 10^exp10, exactly.  With the mantissa's significant digits
 * d1 d2 ... dn (leading zeros dropped) the value is 0.d1...dn * 10^P for
 * some P, so the result's magnitude is d1...dP (padded with zeros when
 * P > n) and d(P+1) alone decides rounding half away from zero.  P > 19
 * means at least 10^19 > INT64_MAX; P < 0 means below 0.1, i.e. 0.  With
 * P <= 19 the digits fit a uint64_t without overflow checks.
 */
int spaa_json_get_scaled(const struct spaa_json_value *v, int exp10, int64_t *out)
{
	const char *s, *end, *m, *mend, *dot = NULL, *first = NULL, *d;
	int64_t exp = 0, pos, k;
	uint64_t r = 0;
	int neg;

	if (!v || v->type != SPAA_JSON_NUMBER || !v->len || exp10 < 0 || exp10 > 18)
		return -1;
	s = v->str;
	end = s + v->len;
	neg = *s == '-';
	m = s + neg;
	/* mantissa: digits with at most one '.', neither first nor last */
	for (mend = m; mend < end && *mend != 'e' && *mend != 'E'; mend++) {
		if (*mend == '.') {
			if (dot)
				return -1;
			dot = mend;
		} else if (!is_digit((unsigned char)*mend)) {
			return -1;
		} else if (!first && *mend != '0') {
			first = mend;
		}
	}
	if (mend == m || dot == m || (dot && dot + 1 == mend))
		return -1;
	/* the exponent saturates: past 10^9 the answer is 0 or overflow */
	if (mend < end) {
		const char *x = mend + 1;
		int eneg = x < end && *x == '-';

		if (x < end && (*x == '-' || *x == '+'))
			x++;
		if (x == end)
			return -1;
		for (; x < end; x++) {
			if (!is_digit((unsigned char)*x))
				return -1;
			if (exp < 1000000000)
				exp = exp * 10 + (*x - '0');
		}
		if (eneg)
			exp = -exp;
	}
	if (!first) {
		*out = 0;
		return 0;
	}
	/*
	 * d1 sits at digit index first - m (minus one past the '.'); the
	 * integer part has (dot or mend) - m digits.  Every term is bounded
	 * (the text is in memory, exp is saturated), so int64 cannot overflow.
	 */
	pos = ((dot ? dot : mend) - m) - ((first - m) - (dot && first > dot)) +
	      exp + exp10;
	if (pos > 19)
		return -1;
	if (pos < 0) {
		*out = 0;
		return 0;
	}
	d = first;
	for (k = 0; k < pos; k++) {
		unsigned int digit = 0;

		if (d < mend) {
			if (*d == '.')
				d++;
			digit = (unsigned int)(*d++ - '0');
		}
		r = r * 10 + digit;
	}
	if (d < mend && *d == '.')
		d++;
	if (d < mend && *d >= '5')
		r++;
	if (neg ? r > (uint64_t)INT64_MAX + 1 : r > (uint64_t)INT64_MAX)
		return -1;
	*out = neg ? (int64_t)(0 - r) : (int64_t)r;
	return 0;
}

int spaa_json_utf8_valid(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + len;
	size_t n;

	while (s < end) {
		while (end - s >= 8) {
			uint64_t w;

			memcpy(&w, s, 8);
			if (w & SPAA_HIGHS)
				break;
			s += 8;
		}
		if (s == end)
			break;
		if (*s < 0x80) {
			s++;
			continue;
		}
		n = utf8_seq(s, end);
		if (!n)
			return -1;
		s += n;
	}
	return 0;
}
