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
static char spaa_jsonw_slopbuf[1];

void spaa_jsonw_init(struct spaa_jsonw *jw)
{
	memset(jw, 0, sizeof(*jw));
	jw->buf = spaa_jsonw_slopbuf;
}

void spaa_jsonw_release(struct spaa_jsonw *jw)
{
	if (jw->alloc)
		free(jw->buf);
	spaa_jsonw_init(jw);
}

void spaa_jsonw_reset(struct spaa_jsonw *jw)
{
	jw->len = 0;
	if (jw->alloc)
		jw->buf[0] = '\0';
	jw->depth = 0;
	jw->want_value = false;
}

void spaa_jsonw_clear_text(struct spaa_jsonw *jw)
{
	jw->len = 0;
	if (jw->alloc)
		jw->buf[0] = '\0';
}

static void spaa_jsonw_grow(struct spaa_jsonw *jw, size_t extra)
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

static void spaa_jsonw_add(struct spaa_jsonw *jw, const char *s, size_t n)
{
	spaa_jsonw_grow(jw, n);
	memcpy(jw->buf + jw->len, s, n);
	jw->len += n;
	jw->buf[jw->len] = '\0';
}

static void spaa_jsonw_addc(struct spaa_jsonw *jw, char c)
{
	spaa_jsonw_add(jw, &c, 1);
}

static void spaa_jsonw_adds(struct spaa_jsonw *jw, const char *s)
{
	spaa_jsonw_add(jw, s, strlen(s));
}

/*
 * Called before every value: writes the comma inside arrays and checks
 * that a value inside an object follows its key.  A top-level value must
 * be the only one: a JSON text holds a single value.
 */
static void spaa_jsonw_before_value(struct spaa_jsonw *jw)
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
		spaa_jsonw_addc(jw, ',');
	jw->first[d] = false;
}

static void spaa_jsonw_open(struct spaa_jsonw *jw, char c, bool object)
{
	spaa_jsonw_before_value(jw);
	assert(jw->depth < SPAA_JSONW_MAX_DEPTH);
	jw->first[jw->depth] = true;
	jw->in_object[jw->depth] = object;
	jw->depth++;
	spaa_jsonw_addc(jw, c);
}

static void spaa_jsonw_close(struct spaa_jsonw *jw, char c, bool object)
{
	assert(jw->depth > 0 && "unbalanced end");
	assert(jw->in_object[jw->depth - 1] == object && "mismatched end");
	assert(!jw->want_value && "key without a value");
	(void)object;   /* only checked */
	jw->depth--;
	spaa_jsonw_addc(jw, c);
}

void spaa_jsonw_array_inside(struct spaa_jsonw *jw, bool first)
{
	spaa_jsonw_reset(jw);
	jw->depth = 1;
	jw->first[0] = first;
	jw->in_object[0] = false;
}

void spaa_jsonw_object_begin(struct spaa_jsonw *jw)
{
	spaa_jsonw_open(jw, '{', true);
}

void spaa_jsonw_object_end(struct spaa_jsonw *jw)
{
	spaa_jsonw_close(jw, '}', true);
}

void spaa_jsonw_array_begin(struct spaa_jsonw *jw)
{
	spaa_jsonw_open(jw, '[', false);
}

void spaa_jsonw_array_end(struct spaa_jsonw *jw)
{
	spaa_jsonw_close(jw, ']', false);
}

static void spaa_jsonw_add_u(struct spaa_jsonw *jw, uint32_t u)
{
	char tmp[16];

	snprintf(tmp, sizeof(tmp), "\\u%04" PRIx32, u);
	spaa_jsonw_add(jw, tmp, 6);
}

static void spaa_jsonw_add_escaped(struct spaa_jsonw *jw, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, run = 0;  /* s[run..i) is copied as is */

	spaa_jsonw_grow(jw, len + 2);
	spaa_jsonw_addc(jw, '"');
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
		spaa_jsonw_add(jw, str + run, i - run);
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
			spaa_jsonw_adds(jw, esc);
		} else if (n < 0) {
			if (jw->ascii_only)
				spaa_jsonw_add_u(jw, 0xfffd);
			else
				spaa_jsonw_adds(jw, "\xef\xbf\xbd");
			n = -n;
		} else if (cp > 0xffff) {
			/* \u escapes are UTF-16 code units */
			spaa_jsonw_add_u(jw, 0xd800 + ((cp - 0x10000) >> 10));
			spaa_jsonw_add_u(jw, 0xdc00 + ((cp - 0x10000) & 0x3ff));
		} else {
			spaa_jsonw_add_u(jw, cp);
		}
		i += n;
		run = i;
	}
	spaa_jsonw_add(jw, str + run, i - run);
	spaa_jsonw_addc(jw, '"');
}

void spaa_jsonw_key(struct spaa_jsonw *jw, const char *key)
{
	int d = jw->depth - 1;

	assert(d >= 0 && jw->in_object[d] && "a key outside an object");
	assert(!jw->want_value && "two keys in a row");
	if (!jw->first[d])
		spaa_jsonw_addc(jw, ',');
	jw->first[d] = false;
	spaa_jsonw_add_escaped(jw, key, strlen(key));
	spaa_jsonw_addc(jw, ':');
	jw->want_value = true;
}

void spaa_jsonw_string(struct spaa_jsonw *jw, const char *s)
{
	spaa_jsonw_string_len(jw, s, strlen(s));
}

void spaa_jsonw_string_len(struct spaa_jsonw *jw, const char *s, size_t len)
{
	spaa_jsonw_before_value(jw);
	spaa_jsonw_add_escaped(jw, s, len);
}

/*
 * v in decimal at the end of buf[24]; returns where it starts.  Not
 * snprintf: a writer of SPAA prints several integers a record, and
 * snprintf's setup was a fifth of a pprof conversion (make bench).
 */
static char *u64_text(char buf[24], uint64_t v)
{
	char *s = buf + 24;

	do
		*--s = (char)('0' + v % 10);
	while (v /= 10);
	return s;
}

void spaa_jsonw_i64(struct spaa_jsonw *jw, int64_t v)
{
	char tmp[24], *s = u64_text(tmp, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);

	if (v < 0)
		*--s = '-';
	spaa_jsonw_before_value(jw);
	spaa_jsonw_add(jw, s, (size_t)(tmp + sizeof(tmp) - s));
}

void spaa_jsonw_raw(struct spaa_jsonw *jw, const char *json, size_t len)
{
	spaa_jsonw_before_value(jw);
	spaa_jsonw_add(jw, json, len);
}

void spaa_jsonw_u64(struct spaa_jsonw *jw, uint64_t v)
{
	char tmp[24], *s = u64_text(tmp, v);

	spaa_jsonw_before_value(jw);
	spaa_jsonw_add(jw, s, (size_t)(tmp + sizeof(tmp) - s));
}

void spaa_jsonw_double(struct spaa_jsonw *jw, int precision, double v)
{
	char tmp[40];
	size_t n;

	assert(precision >= 1 && precision <= 17);
	if (!isfinite(v)) {
		spaa_jsonw_null(jw);
		return;
	}
	n = spaa_format_double(tmp, sizeof(tmp), 'g', precision, v);
	spaa_jsonw_before_value(jw);
	spaa_jsonw_add(jw, tmp, n);
}

void spaa_jsonw_bool(struct spaa_jsonw *jw, bool v)
{
	spaa_jsonw_before_value(jw);
	spaa_jsonw_adds(jw, v ? "true" : "false");
}

void spaa_jsonw_null(struct spaa_jsonw *jw)
{
	spaa_jsonw_before_value(jw);
	spaa_jsonw_adds(jw, "null");
}

void spaa_jsonw_kv_string(struct spaa_jsonw *jw, const char *key, const char *s)
{
	spaa_jsonw_key(jw, key);
	spaa_jsonw_string(jw, s);
}

void spaa_jsonw_kv_i64(struct spaa_jsonw *jw, const char *key, int64_t v)
{
	spaa_jsonw_key(jw, key);
	spaa_jsonw_i64(jw, v);
}

void spaa_jsonw_kv_u64(struct spaa_jsonw *jw, const char *key, uint64_t v)
{
	spaa_jsonw_key(jw, key);
	spaa_jsonw_u64(jw, v);
}

void spaa_jsonw_kv_double(struct spaa_jsonw *jw, const char *key, int precision,
		     double v)
{
	spaa_jsonw_key(jw, key);
	spaa_jsonw_double(jw, precision, v);
}

void spaa_jsonw_kv_bool(struct spaa_jsonw *jw, const char *key, bool v)
{
	spaa_jsonw_key(jw, key);
	spaa_jsonw_bool(jw, v);
}
