#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/jsonw.h"
#include "model/util.h"

/*
 * An initialized writer points at this empty string and owns nothing
 * (alloc 0), like git's strbuf_slopbuf: init cannot fail and releasing an
 * unused writer frees nothing.  It is never written to, because every
 * append grows the buffer first.
 */
static char jsonw_slopbuf[1];

void jsonw_init(struct jsonw *jw)
{
	memset(jw, 0, sizeof(*jw));
	jw->buf = jsonw_slopbuf;
}

void jsonw_release(struct jsonw *jw)
{
	if (jw->alloc)
		free(jw->buf);
	jsonw_init(jw);
}

void jsonw_reset(struct jsonw *jw)
{
	jw->len = 0;
	if (jw->alloc)
		jw->buf[0] = '\0';
	jw->depth = 0;
	jw->want_value = false;
}

void jsonw_clear_text(struct jsonw *jw)
{
	jw->len = 0;
	if (jw->alloc)
		jw->buf[0] = '\0';
}

static void jsonw_grow(struct jsonw *jw, size_t extra)
{
	size_t need;

	if (__builtin_add_overflow(jw->len, extra + 1, &need))
		need = SIZE_MAX;        /* spaa_xrealloc aborts on it */
	if (need <= jw->alloc)
		return;
	if (!jw->alloc)
		jw->buf = NULL;         /* never realloc the slop buffer */
	SPAA_ALLOC_GROW(jw->buf, need, jw->alloc);
}

static void jsonw_add(struct jsonw *jw, const char *s, size_t n)
{
	jsonw_grow(jw, n);
	memcpy(jw->buf + jw->len, s, n);
	jw->len += n;
	jw->buf[jw->len] = '\0';
}

static void jsonw_addc(struct jsonw *jw, char c)
{
	jsonw_add(jw, &c, 1);
}

static void jsonw_adds(struct jsonw *jw, const char *s)
{
	jsonw_add(jw, s, strlen(s));
}

/*
 * Called before every value: writes the comma inside arrays and checks
 * that a value inside an object follows its key.  A top-level value must
 * be the only one: a JSON text holds a single value.
 */
static void jsonw_before_value(struct jsonw *jw)
{
	int d = jw->depth - 1;

	if (d < 0) {
		assert(jw->len == 0 && "one top-level value per JSON text");
		return;
	}
	if (jw->in_object[d]) {
		assert(jw->want_value && "a value in an object needs a key");
		jw->want_value = false;
		return;
	}
	if (!jw->first[d])
		jsonw_addc(jw, ',');
	jw->first[d] = false;
}

static void jsonw_open(struct jsonw *jw, char c, bool object)
{
	jsonw_before_value(jw);
	assert(jw->depth < JSONW_MAX_DEPTH);
	jw->first[jw->depth] = true;
	jw->in_object[jw->depth] = object;
	jw->depth++;
	jsonw_addc(jw, c);
}

static void jsonw_close(struct jsonw *jw, char c, bool object)
{
	assert(jw->depth > 0 && "unbalanced end");
	assert(jw->in_object[jw->depth - 1] == object && "mismatched end");
	assert(!jw->want_value && "key without a value");
	(void)object;   /* only checked */
	jw->depth--;
	jsonw_addc(jw, c);
}

void jsonw_object_begin(struct jsonw *jw)
{
	jsonw_open(jw, '{', true);
}

void jsonw_object_end(struct jsonw *jw)
{
	jsonw_close(jw, '}', true);
}

void jsonw_array_begin(struct jsonw *jw)
{
	jsonw_open(jw, '[', false);
}

void jsonw_array_end(struct jsonw *jw)
{
	jsonw_close(jw, ']', false);
}

static void jsonw_add_u(struct jsonw *jw, uint32_t u)
{
	char tmp[16];

	snprintf(tmp, sizeof(tmp), "\\u%04" PRIx32, u);
	jsonw_add(jw, tmp, 6);
}

static void jsonw_add_escaped(struct jsonw *jw, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, run = 0;  /* s[run..i) is copied as is */

	jsonw_grow(jw, len + 2);
	jsonw_addc(jw, '"');
	while (i < len) {
		uint32_t cp = 0;
		int n;
		const char *esc = NULL;

		/* printable ASCII is most of any text: 8 bytes at a time */
		if (len - i >= 8) {
			uint64_t w, m;

			memcpy(&w, s + i, 8);
			m = spaa_swar_special(w);
			if (!m) {
				i += 8;
				continue;
			}
			i += spaa_swar_first(m);
		}
		if (s[i] >= 0x20 && s[i] < 0x80 && s[i] != '"' && s[i] != '\\') {
			i++;
			continue;
		}
		n = spaa_utf8_seq(s + i, len - i, &cp);
		if (n > 1 && !jw->ascii_only && cp != 0x85 &&
		    cp != 0x2028 && cp != 0x2029) {
			i += n;
			continue;
		}
		jsonw_add(jw, str + run, i - run);
		switch (n > 0 ? cp : 0xfffd) {
		case '"': esc = "\\\""; break;
		case '\\': esc = "\\\\"; break;
		case '\b': esc = "\\b"; break;
		case '\f': esc = "\\f"; break;
		case '\n': esc = "\\n"; break;
		case '\r': esc = "\\r"; break;
		case '\t': esc = "\\t"; break;
		}
		if (esc) {
			jsonw_adds(jw, esc);
		} else if (n < 0) {
			if (jw->ascii_only)
				jsonw_add_u(jw, 0xfffd);
			else
				jsonw_adds(jw, "\xef\xbf\xbd");
			n = -n;
		} else if (cp > 0xffff) {
			/* \u escapes are UTF-16 code units */
			jsonw_add_u(jw, 0xd800 + ((cp - 0x10000) >> 10));
			jsonw_add_u(jw, 0xdc00 + ((cp - 0x10000) & 0x3ff));
		} else {
			jsonw_add_u(jw, cp);
		}
		i += n;
		run = i;
	}
	jsonw_add(jw, str + run, i - run);
	jsonw_addc(jw, '"');
}

void jsonw_key(struct jsonw *jw, const char *key)
{
	int d = jw->depth - 1;

	assert(d >= 0 && jw->in_object[d] && "a key outside an object");
	assert(!jw->want_value && "two keys in a row");
	if (!jw->first[d])
		jsonw_addc(jw, ',');
	jw->first[d] = false;
	jsonw_add_escaped(jw, key, strlen(key));
	jsonw_addc(jw, ':');
	jw->want_value = true;
}

void jsonw_string(struct jsonw *jw, const char *s)
{
	jsonw_string_len(jw, s, strlen(s));
}

void jsonw_string_len(struct jsonw *jw, const char *s, size_t len)
{
	jsonw_before_value(jw);
	jsonw_add_escaped(jw, s, len);
}

void jsonw_i64(struct jsonw *jw, int64_t v)
{
	char tmp[24];
	int n = snprintf(tmp, sizeof(tmp), "%" PRId64, v);

	jsonw_before_value(jw);
	jsonw_add(jw, tmp, (size_t)n);
}

void jsonw_u64(struct jsonw *jw, uint64_t v)
{
	char tmp[24];
	int n = snprintf(tmp, sizeof(tmp), "%" PRIu64, v);

	jsonw_before_value(jw);
	jsonw_add(jw, tmp, (size_t)n);
}

void jsonw_double(struct jsonw *jw, int precision, double v)
{
	char tmp[40];
	size_t n;

	assert(precision >= 1 && precision <= 17);
	if (!isfinite(v)) {
		jsonw_null(jw);
		return;
	}
	n = spaa_format_double(tmp, sizeof(tmp), 'g', precision, v);
	jsonw_before_value(jw);
	jsonw_add(jw, tmp, n);
}

void jsonw_bool(struct jsonw *jw, bool v)
{
	jsonw_before_value(jw);
	jsonw_adds(jw, v ? "true" : "false");
}

void jsonw_null(struct jsonw *jw)
{
	jsonw_before_value(jw);
	jsonw_adds(jw, "null");
}

void jsonw_kv_string(struct jsonw *jw, const char *key, const char *s)
{
	jsonw_key(jw, key);
	jsonw_string(jw, s);
}

void jsonw_kv_i64(struct jsonw *jw, const char *key, int64_t v)
{
	jsonw_key(jw, key);
	jsonw_i64(jw, v);
}

void jsonw_kv_u64(struct jsonw *jw, const char *key, uint64_t v)
{
	jsonw_key(jw, key);
	jsonw_u64(jw, v);
}

void jsonw_kv_double(struct jsonw *jw, const char *key, int precision,
		     double v)
{
	jsonw_key(jw, key);
	jsonw_double(jw, precision, v);
}

void jsonw_kv_bool(struct jsonw *jw, const char *key, bool v)
{
	jsonw_key(jw, key);
	jsonw_bool(jw, v);
}
