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

#define JSONW_MAX_DEPTH 32

/*
 * A writer holds one JSON text: a single top-level value (asserted).
 * Set ascii_only after jsonw_init.
 */
struct jsonw {
	char *buf;              /* owned, NUL-terminated; "" after init */
	size_t len, alloc;
	bool ascii_only;
	int depth;
	bool first[JSONW_MAX_DEPTH];    /* no element written yet at this level */
	bool in_object[JSONW_MAX_DEPTH];
	bool want_value;        /* a key was written, its value comes next */
};

void jsonw_init(struct jsonw *jw);
/*
 * Empties the text written so far but keeps the nesting state, so a
 * caller that has written the text out can go on with the same document.
 */
void jsonw_clear_text(struct jsonw *jw);
/* Frees the buffer and reinitializes (ascii_only too). */
void jsonw_release(struct jsonw *jw);
/* Empties the buffer for reuse, keeping its memory and ascii_only. */
void jsonw_reset(struct jsonw *jw);

void jsonw_object_begin(struct jsonw *jw);
void jsonw_object_end(struct jsonw *jw);
void jsonw_array_begin(struct jsonw *jw);
void jsonw_array_end(struct jsonw *jw);

/* Inside an object: the next member's name; a value call must follow. */
void jsonw_key(struct jsonw *jw, const char *key);

void jsonw_string(struct jsonw *jw, const char *s);
void jsonw_string_len(struct jsonw *jw, const char *s, size_t len);
void jsonw_i64(struct jsonw *jw, int64_t v);
void jsonw_u64(struct jsonw *jw, uint64_t v);
/* %.*g with precision significant digits (1..17); NaN/inf become null. */
void jsonw_double(struct jsonw *jw, int precision, double v);
void jsonw_bool(struct jsonw *jw, bool v);
void jsonw_null(struct jsonw *jw);

/* Shorthands for a key followed by a value. */
void jsonw_kv_string(struct jsonw *jw, const char *key, const char *s);
void jsonw_kv_i64(struct jsonw *jw, const char *key, int64_t v);
void jsonw_kv_u64(struct jsonw *jw, const char *key, uint64_t v);
void jsonw_kv_double(struct jsonw *jw, const char *key, int precision, double v);
void jsonw_kv_bool(struct jsonw *jw, const char *key, bool v);

#endif
