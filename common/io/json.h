/*
 * json - a small, strict JSON parser for one NDJSON line at a time.
 *
 * Why not cJSON for records: profiles carry 64-bit ids and nanosecond
 * timestamps written as decimal seconds, and cJSON turns every number into
 * a double, losing both.  This parser keeps the raw text of each number
 * and converts it exactly on request.  It also allocates from an arena
 * that is reset per line, so a record costs no malloc once warmed up.
 *
 * Strictness: RFC 8259 JSON only (no comments, no trailing commas, no NaN,
 * no leading zeros, no raw control bytes in strings); the text must be
 * valid UTF-8 (overlong forms, surrogates and code points past U+10FFFF
 * are rejected); nesting deeper than SPAA_JSON_MAX_DEPTH is an error; only
 * whitespace may follow the value.  Duplicate keys are kept; spaa_json_get
 * returns the first one (the rule of SPAA records: the first occurrence
 * of a key counts, spaa_json_repeated_key finds the others).
 */
#ifndef SPAA_JSON_H
#define SPAA_JSON_H

#include <stddef.h>
#include <stdint.h>

#define SPAA_JSON_MAX_DEPTH 64

enum spaa_json_type {
	SPAA_JSON_NULL,
	SPAA_JSON_FALSE,
	SPAA_JSON_TRUE,
	SPAA_JSON_NUMBER,
	SPAA_JSON_STRING,
	SPAA_JSON_ARRAY,
	SPAA_JSON_OBJECT,
};

struct spaa_json_value {
	enum spaa_json_type type;
	/*
	 * SPAA_JSON_STRING: the unescaped bytes, NUL-terminated (the string may
	 * also contain "\u0000", so use len).  SPAA_JSON_NUMBER: the raw text as
	 * written, NOT NUL-terminated.  Others: NULL.  Weak: owned by the
	 * parser, valid until its next spaa_json_parse or spaa_json_parser_free.
	 */
	const char *str;
	size_t len;             /* bytes of str; element count for containers */
	const char *key;        /* member name inside an object (NUL-terminated), else NULL */
	size_t key_len;
	struct spaa_json_value *child;  /* first element/member of a container */
	struct spaa_json_value *next;   /* next sibling */
};

struct spaa_json_error {
	size_t offset;          /* byte offset of the problem in the text */
	char msg[128];          /* e.g. "unterminated string", "invalid UTF-8" */
};

struct spaa_json_parser;

/* Returns a new parser; free with spaa_json_parser_free (accepts NULL). */
struct spaa_json_parser *spaa_json_parser_new(void);
void spaa_json_parser_free(struct spaa_json_parser *p);

/*
 * Parses text[0..len) (text need not be NUL-terminated).  Returns the root
 * value (weak: owned by p, valid until the next call) or NULL with *e set.
 * Reuses p's arena, so memory stays at the size of the largest line.
 */
const struct spaa_json_value *spaa_json_parse(struct spaa_json_parser *p, const char *text,
				    size_t len, struct spaa_json_error *e);

/*
 * Like spaa_json_parse, but the trees of earlier calls stay valid: the
 * arena is not rewound, so one parser holds the trees of many lines (the
 * SPAA reader's scanning threads parse a block of lines ahead of the
 * reader) until spaa_json_parser_rewind.  Numbers still point into text,
 * which must outlive the tree.
 */
const struct spaa_json_value *spaa_json_parse_more(struct spaa_json_parser *p,
						   const char *text, size_t len,
						   struct spaa_json_error *e);

/*
 * n bytes of p's arena, aligned for any scalar and valid as the trees of
 * spaa_json_parse_more are: for what a caller reads from a line without
 * a tree (the SPAA reader's scanning threads, spaa_stack_scan.h).
 */
void *spaa_json_parser_alloc(struct spaa_json_parser *p, size_t n);

/* Forgets every tree of p (their memory is reused, not freed). */
void spaa_json_parser_rewind(struct spaa_json_parser *p);

/* Bytes of p's arena in use by its trees since the last rewind. */
size_t spaa_json_parser_used(const struct spaa_json_parser *p);

/*
 * Parsers kept between uses by threads that parse ahead, one file after
 * another: a parser given back keeps its arena, so the next file's trees
 * do not map it again (big chunks are mmap'ed, and a directory of small
 * files would map and unmap them for each).  Take and give may be called
 * from any thread.  The pool owns the parsers given back (at most a few;
 * more are freed); a parser taken is the taker's until given back.
 * spaa_json_pool_free frees the pool and what it holds (accepts NULL).
 */
struct spaa_json_pool;

struct spaa_json_pool *spaa_json_pool_new(void);
void spaa_json_pool_free(struct spaa_json_pool *pool);

/* A parser with no tree, from the pool or new. */
struct spaa_json_parser *spaa_json_pool_take(struct spaa_json_pool *pool);

/* Gives p back (rewound), or frees it when the pool is full. */
void spaa_json_pool_give(struct spaa_json_pool *pool, struct spaa_json_parser *p);

/* First member named key of an object, or NULL (also NULL if v is not an object). */
const struct spaa_json_value *spaa_json_get(const struct spaa_json_value *obj, const char *key);

/*
 * A member of an object in v (v itself or any value inside it) whose name
 * another member of the same object has, or NULL.  n log n in
 * the members of the largest object, linear in the rest.
 */
const struct spaa_json_value *spaa_json_repeated_key(const struct spaa_json_value *v);

/* Type name for messages: "null", "boolean", "number", "string", "array", "object". */
const char *spaa_json_type_name(enum spaa_json_type t);

/*
 * Exact number conversions.  Each returns 0 on success and -1 when v is
 * not a number or the value does not fit, with no partial result:
 *
 * spaa_json_get_u64: an integer literal in [0, 2^64).  "1.0", "1e3", "-1" fail.
 * spaa_json_get_i64: an integer literal in [-2^63, 2^63).
 * spaa_json_get_double: any number; fails if it overflows to infinity (1e400).
 * spaa_json_get_scaled: the value times 10^exp10 (0 <= exp10 <= 18), rounded
 *   half away from zero to an int64, computed exactly from the decimal
 *   text (so 1700000000.123456789 s with exp10 = 9 is 1700000000123456789
 *   ns exactly); fails when the result is outside int64.
 */
int spaa_json_get_u64(const struct spaa_json_value *v, uint64_t *out);
int spaa_json_get_i64(const struct spaa_json_value *v, int64_t *out);
int spaa_json_get_double(const struct spaa_json_value *v, double *out);
int spaa_json_get_scaled(const struct spaa_json_value *v, int exp10, int64_t *out);

/* Returns 0 if s[0..len) is valid UTF-8 (same rules as the parser), else -1. */
int spaa_json_utf8_valid(const char *s, size_t len);

#endif
