/*
 * jsonw - a JSON writer in the manner of git's json-writer: begin/append/
 * end calls into a growing buffer, keys in the order written, no parsing.
 *
 * Output is compact (no spaces or newlines) and always valid UTF-8 JSON:
 *   - '"', '\\' and control bytes are escaped (\b \f \n \r \t, others
 *     \u00xx); hex digits are lowercase;
 *   - U+2028, U+2029 and U+0085 are always escaped as \uXXXX, because
 *     Trace Compass finds the JSON with a Java regex whose "." stops at
 *     them;
 *   - with ascii_only set, every non-ASCII code point is escaped as \uXXXX
 *     (surrogate pairs above U+FFFF);
 *   - bytes that are not valid UTF-8 (overlong forms, surrogates, past
 *     U+10FFFF, truncated sequences) are written as U+FFFD, one per
 *     maximal invalid subsequence as Unicode recommends, so a bad
 *     function name can never make the output unparseable.
 * Doubles are written in the C locale with an explicit precision; NaN and
 * infinities are written as null, never as a bare word.
 *
 * The writer tracks nesting itself and inserts commas; misuse (a value
 * where a key is needed, unbalanced end) is a programming error caught by
 * assert().
 */
#ifndef SPAA_JSONW_H
#define SPAA_JSONW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SPAA_JSONW_MAX_DEPTH 32

/*
 * A writer holds one JSON text: a single top-level value (asserted).
 * Set ascii_only after spaa_jsonw_init.
 */
struct spaa_jsonw {
	char *buf;              /* owned, NUL-terminated; "" after init */
	size_t len, alloc;
	bool ascii_only;
	int depth;
	bool first[SPAA_JSONW_MAX_DEPTH];    /* no element written yet at this level */
	bool in_object[SPAA_JSONW_MAX_DEPTH];
	bool want_value;        /* a key was written, its value comes next */
};

void spaa_jsonw_init(struct spaa_jsonw *jw);
/*
 * Empties the text written so far but keeps the nesting state, so a
 * caller that has written the text out can go on with the same document.
 */
void spaa_jsonw_clear_text(struct spaa_jsonw *jw);
/* Frees the buffer and reinitializes (ascii_only too). */
void spaa_jsonw_release(struct spaa_jsonw *jw);
/* Empties the buffer for reuse, keeping its memory and ascii_only. */
void spaa_jsonw_reset(struct spaa_jsonw *jw);

/*
 * Empties jw and starts it inside an array whose "[" another writer
 * wrote (and whose "]" it writes): the values that follow are that
 * array's elements, a comma before each unless first is set and it is
 * the first.  So rows of one array can be written by several writers,
 * in pieces, and the pieces concatenated in order make the text one
 * writer makes.  jw's ascii_only is kept.
 */
void spaa_jsonw_array_inside(struct spaa_jsonw *jw, bool first);

void spaa_jsonw_object_begin(struct spaa_jsonw *jw);
void spaa_jsonw_object_end(struct spaa_jsonw *jw);
void spaa_jsonw_array_begin(struct spaa_jsonw *jw);
void spaa_jsonw_array_end(struct spaa_jsonw *jw);

/* Inside an object: the next member's name; a value call must follow. */
void spaa_jsonw_key(struct spaa_jsonw *jw, const char *key);

void spaa_jsonw_string(struct spaa_jsonw *jw, const char *s);
void spaa_jsonw_string_len(struct spaa_jsonw *jw, const char *s, size_t len);
void spaa_jsonw_i64(struct spaa_jsonw *jw, int64_t v);
void spaa_jsonw_u64(struct spaa_jsonw *jw, uint64_t v);
/* %.*g with precision significant digits (1..17); NaN/inf become null. */
void spaa_jsonw_double(struct spaa_jsonw *jw, int precision, double v);
void spaa_jsonw_bool(struct spaa_jsonw *jw, bool v);
void spaa_jsonw_null(struct spaa_jsonw *jw);
/*
 * A value that is already JSON text (json[0..len), written by a jsonw):
 * copied as it is.  With ascii_only the text must be ASCII.
 */
void spaa_jsonw_raw(struct spaa_jsonw *jw, const char *json, size_t len);

/* Shorthands for a key followed by a value. */
void spaa_jsonw_kv_string(struct spaa_jsonw *jw, const char *key, const char *s);
void spaa_jsonw_kv_i64(struct spaa_jsonw *jw, const char *key, int64_t v);
void spaa_jsonw_kv_u64(struct spaa_jsonw *jw, const char *key, uint64_t v);
void spaa_jsonw_kv_double(struct spaa_jsonw *jw, const char *key, int precision, double v);
void spaa_jsonw_kv_bool(struct spaa_jsonw *jw, const char *key, bool v);

#endif
