/*
 * jsonstream - one JSON document read token by token from an input.
 *
 * Why beside json.h: a V8 profile or heap snapshot is one JSON document
 * of any size, often on a single line, while json.h parses one bounded
 * line into a tree.  This reads the document in chunks and hands out one
 * token at a time (an array of a million samples costs nothing), and can
 * capture one value's text whole, so that small objects (a V8 call-tree
 * node, a trace event) are parsed into a tree by json.h and looked up by
 * key in any order.
 *
 * Strictness is json.h's: RFC 8259 grammar (commas, colons, nesting
 * checked as tokens go by), number syntax, strings valid UTF-8 without raw
 * control bytes, only whitespace after the document.  Nesting depth is
 * bounded by max_depth (V8 heap snapshots nest the allocation tree: depth
 * grows with the call depth).  A string, number or captured value longer
 * than max_token bytes is SPAA_E_LIMIT.
 *
 * Errors name the input, the line (1-based, counted from LFs; V8 writes
 * its documents on one line or a few) and the byte offset.
 *
 * Ownership: the stream is the caller's (spaa_jsonstream_free); it
 * borrows the input, which must outlive it.  Token strings and captured
 * text are weak: valid until the next call on the stream.
 */
#ifndef SPAA_JSONSTREAM_H
#define SPAA_JSONSTREAM_H

#include <stddef.h>
#include <stdint.h>

#include "io/input.h"
#include "io/json.h"
#include "model/error.h"

enum spaa_jsonstream_type {
	SPAA_JSONSTREAM_END,            /* the document is over */
	SPAA_JSONSTREAM_OBJECT,         /* '{' */
	SPAA_JSONSTREAM_OBJECT_END,     /* '}' */
	SPAA_JSONSTREAM_ARRAY,          /* '[' */
	SPAA_JSONSTREAM_ARRAY_END,      /* ']' */
	SPAA_JSONSTREAM_KEY,            /* a member name (str, unescaped) */
	SPAA_JSONSTREAM_STRING,         /* str unescaped, NUL-terminated */
	SPAA_JSONSTREAM_NUMBER,         /* str: the text as written */
	SPAA_JSONSTREAM_LITERAL,        /* true, false or null (str) */
};

struct spaa_jsonstream_token {
	enum spaa_jsonstream_type type;
	const char *str;
	size_t len;
};

struct spaa_jsonstream;

/* A stream over in; 0 for max_depth / max_token picks 4096 / 64 MiB. */
struct spaa_jsonstream *spaa_jsonstream_new(struct spaa_input *in,
					    uint32_t max_depth, size_t max_token);
void spaa_jsonstream_free(struct spaa_jsonstream *js);   /* accepts NULL */

/*
 * The next token into *t.  Returns 0 (SPAA_JSONSTREAM_END once the
 * document and the whitespace after it are read), or -1 with err
 * (SPAA_E_PARSE for bad JSON, or the input's error).
 */
int spaa_jsonstream_next(struct spaa_jsonstream *js,
			 struct spaa_jsonstream_token *t, struct spaa_error *err);

/*
 * Skips the rest of the container whose opening token was just read
 * (checking its syntax, keeping nothing).  Returns 0 or -1.
 */
int spaa_jsonstream_skip(struct spaa_jsonstream *js, struct spaa_error *err);

/*
 * Reads the next value whole (where a value may come) and returns its
 * text in *text / *len (weak), for spaa_json_parse.  Or the end of the
 * enclosing container: returns 1 and consumes it.  Returns 0 with a
 * value, -1 with err.
 */
int spaa_jsonstream_capture(struct spaa_jsonstream *js, const char **text,
			    size_t *len, struct spaa_error *err);

/*
 * spaa_jsonstream_capture, then the value parsed by jp into *value (owned
 * by jp, valid until its next parse): how a reader takes the elements of
 * a huge array one small tree at a time.  Returns 1 at the end of the
 * enclosing container, 0 with *value, -1 with err; a value that does not
 * parse is an error "WHAT: cause" at the stream's position.
 */
int spaa_jsonstream_parse(struct spaa_jsonstream *js, struct spaa_json_parser *jp,
			  const char *what, const struct spaa_json_value **value,
			  struct spaa_error *err);

/*
 * Fills err with SPAA_E_INVALID and a message at the stream's position
 * ("at byte N" after the cause); returns -1.
 */
int spaa_jsonstream_fail(struct spaa_jsonstream *js, struct spaa_error *err,
			 const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The line the stream is on (1-based), and bytes read so far. */
unsigned long spaa_jsonstream_line(const struct spaa_jsonstream *js);
uint64_t spaa_jsonstream_offset(const struct spaa_jsonstream *js);

/*
 * A number token as a json.h value, for its exact conversions
 * (spaa_json_get_i64 ...).
 */
struct spaa_json_value spaa_jsonstream_number(const struct spaa_jsonstream_token *t);

#endif
