#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/jsonstream.h"
#include "model/sbuf.h"
#include "model/util.h"

/* What may come next where the grammar stands. */
enum want {
	W_VALUE,                /* a value (the document's, or after ':' / ',' in an array) */
	W_VALUE_OR_END,         /* after '[' */
	W_KEY,                  /* after ',' in an object */
	W_KEY_OR_END,           /* after '{' */
	W_COMMA_OR_END,         /* after a value inside a container */
	W_DONE,                 /* the document is read */
};

struct spaa_jsonstream {
	struct spaa_input *in;
	const char *p, *end;    /* the chunk being read */
	const char *chunk;      /* start of p's chunk */
	bool eof;
	uint64_t offset;        /* bytes consumed before p's chunk */
	unsigned long line;

	enum want want;
	char *stack;            /* '{' or '[' per open container */
	uint32_t depth, max_depth;
	size_t stack_alloc, max_token;

	struct spaa_sbuf tok;   /* token text (strings unescaped) */
	/*
	 * A capture keeps every byte consumed from cap_from (in the current
	 * chunk) on; the part in earlier chunks is already in cap.
	 */
	const char *cap_from;
	struct spaa_sbuf cap;
};

struct spaa_jsonstream *spaa_jsonstream_new(struct spaa_input *in,
					    uint32_t max_depth, size_t max_token)
{
	struct spaa_jsonstream *js = spaa_xcalloc(1, sizeof(*js));

	js->in = in;
	js->line = 1;
	js->want = W_VALUE;
	js->max_depth = max_depth ? max_depth : 4096;
	js->max_token = max_token ? max_token : (size_t)64 << 20;
	return js;
}

void spaa_jsonstream_free(struct spaa_jsonstream *js)
{
	if (!js)
		return;
	free(js->stack);
	free(js->tok.s);
	free(js->cap.s);
	free(js);
}

unsigned long spaa_jsonstream_line(const struct spaa_jsonstream *js)
{
	return js->line;
}

uint64_t spaa_jsonstream_offset(const struct spaa_jsonstream *js)
{
	return js->offset + (uint64_t)(js->p - js->chunk);
}

__attribute__((format(printf, 4, 0)))
static int vfail(struct spaa_jsonstream *js, struct spaa_error *err,
		 const char *code, const char *fmt, va_list ap)
{
	char msg[768];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	return spaa_error_at(err, code, spaa_input_name(js->in), js->line,
			     "%s (at byte %llu)", msg,
			     (unsigned long long)spaa_jsonstream_offset(js));
}

int spaa_jsonstream_fail(struct spaa_jsonstream *js, struct spaa_error *err,
			 const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vfail(js, err, SPAA_E_INVALID, fmt, ap);
	va_end(ap);
	return r;
}

__attribute__((format(printf, 4, 5)))
static int fail_code(struct spaa_jsonstream *js, struct spaa_error *err,
		     const char *code, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vfail(js, err, code, fmt, ap);
	va_end(ap);
	return r;
}

#define bad(js, err, ...) fail_code(js, err, SPAA_E_PARSE, __VA_ARGS__)

static int too_long(struct spaa_jsonstream *js, struct spaa_error *err)
{
	return fail_code(js, err, SPAA_E_LIMIT, "a JSON value is longer than %zu bytes (SPAA_MAX_LINE)",
			 js->max_token);
}

/* The next byte without consuming it: 0..255, -1 at the end, -2 on error. */
static int peek(struct spaa_jsonstream *js, struct spaa_error *err)
{
	while (js->p == js->end) {
		const char *data;
		size_t len;
		int r;

		if (js->eof)
			return -1;
		if (js->cap_from) {
			if (js->cap.len + (size_t)(js->p - js->cap_from) > js->max_token)
				return too_long(js, err), -2;
			spaa_sbuf_add(&js->cap, js->cap_from, (size_t)(js->p - js->cap_from));
		}
		js->offset += (uint64_t)(js->p - js->chunk);
		r = spaa_input_chunk(js->in, &data, &len, err);
		if (r < 0)
			return -2;
		if (!r) {
			js->eof = true;
			js->chunk = js->p = js->end = js->cap_from = NULL;
			return -1;
		}
		js->chunk = js->p = data;
		js->end = data + len;
		if (js->cap_from)
			js->cap_from = data;
	}
	return (unsigned char)*js->p;
}

/* Skips whitespace; returns the byte after it like peek. */
static int skip_ws(struct spaa_jsonstream *js, struct spaa_error *err)
{
	for (;;) {
		int c = peek(js, err);

		if (c == '\n')
			js->line++;
		else if (c != ' ' && c != '\t' && c != '\r')
			return c;
		js->p++;
	}
}

static int hex4(struct spaa_jsonstream *js, struct spaa_error *err, uint32_t *out)
{
	uint32_t v = 0;

	for (int i = 0; i < 4; i++) {
		int c = peek(js, err);

		if (c == -2)
			return -1;
		if (c >= '0' && c <= '9')
			v = v * 16 + (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v = v * 16 + (uint32_t)(c - 'A' + 10);
		else
			return bad(js, err, "invalid \\u escape in a string");
		js->p++;
	}
	*out = v;
	return 0;
}

static void add_utf8(struct spaa_sbuf *sb, uint32_t cp)
{
	char b[4];
	size_t n;

	if (cp < 0x80) {
		b[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6);
		b[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12);
		b[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | cp >> 18);
		b[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		b[2] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	spaa_sbuf_add(sb, b, n);
}

static int escape(struct spaa_jsonstream *js, struct spaa_error *err)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	int c = peek(js, err);
	const char *e;
	uint32_t cp, lo;

	if (c == -2)
		return -1;
	if (c < 0)
		return bad(js, err, "unterminated string");
	js->p++;
	if (c && c != 'u' && (e = strchr(from, c))) {
		spaa_sbuf_add(&js->tok, to + (e - from), 1);
		return 0;
	}
	if (c != 'u')
		return bad(js, err, "invalid escape in a string");
	if (hex4(js, err, &cp))
		return -1;
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return bad(js, err, "lone surrogate in a string");
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (peek(js, err) != '\\')
			return bad(js, err, "lone surrogate in a string");
		js->p++;
		if (peek(js, err) != 'u')
			return bad(js, err, "lone surrogate in a string");
		js->p++;
		if (hex4(js, err, &lo))
			return -1;
		if (lo < 0xdc00 || lo > 0xdfff)
			return bad(js, err, "lone surrogate in a string");
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	add_utf8(&js->tok, cp);
	return 0;
}

/* A string after its opening quote, unescaped into tok. */
static int string(struct spaa_jsonstream *js, struct spaa_error *err)
{
	js->tok.len = 0;
	spaa_sbuf_add(&js->tok, "", 0);
	for (;;) {
		const char *s;
		int c = peek(js, err);

		if (c == -2)
			return -1;
		if (c < 0)
			return bad(js, err, "unterminated string");
		for (s = js->p; s < js->end && *s != '"' && *s != '\\' &&
		     (unsigned char)*s >= 0x20; s++)
			;
		if (js->tok.len + (size_t)(s - js->p) > js->max_token)
			return too_long(js, err);
		spaa_sbuf_add(&js->tok, js->p, (size_t)(s - js->p));
		js->p = s;
		if (s == js->end)
			continue;
		js->p++;
		if (*s == '"')
			break;
		if (*s != '\\')
			return js->p--, bad(js, err, "raw control byte in a string");
		if (escape(js, err))
			return -1;
	}
	if (spaa_json_utf8_valid(js->tok.s, js->tok.len))
		return bad(js, err, "invalid UTF-8 in a string");
	return 0;
}

static bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/*
 * The number grammar as a state machine: 0 start, 1 after '-', 2 a
 * leading 0, 3 integer digits, 4 after '.', 5 fraction digits, 6 after
 * 'e', 7 after the exponent's sign, 8 exponent digits; -1 when c cannot
 * come next (the number ends before c).  2, 3, 5 and 8 may end it.
 */
static int number_step(int state, int c)
{
	switch (state) {
	case 0: return c == '-' ? 1 : c == '0' ? 2 : is_digit(c) ? 3 : -1;
	case 1: return c == '0' ? 2 : is_digit(c) ? 3 : -1;
	case 2: return c == '.' ? 4 : c == 'e' || c == 'E' ? 6 : -1;
	case 3: return is_digit(c) ? 3 : c == '.' ? 4 : c == 'e' || c == 'E' ? 6 : -1;
	case 4: return is_digit(c) ? 5 : -1;
	case 5: return is_digit(c) ? 5 : c == 'e' || c == 'E' ? 6 : -1;
	case 6: return c == '+' || c == '-' ? 7 : is_digit(c) ? 8 : -1;
	default: return is_digit(c) ? 8 : -1;
	}
}

static bool number_end(int state)
{
	return state == 2 || state == 3 || state == 5 || state == 8;
}

/*
 * A number, its syntax checked: str and len point into the chunk when the
 * number ends inside it (the common case, no copy), else into tok.
 */
static int number(struct spaa_jsonstream *js, const char **str, size_t *len,
		  struct spaa_error *err)
{
	const char *q = js->p;
	int c, state = 0, next;

	while (q < js->end && (next = number_step(state, (unsigned char)*q)) >= 0) {
		state = next;
		q++;
	}
	if (q < js->end) {
		if (!number_end(state) || q - js->p > 4096)
			return js->p = q, bad(js, err, "invalid number");
		*str = js->p;
		*len = (size_t)(q - js->p);
		js->p = q;
		return 0;
	}
	/* it runs to the end of the chunk: byte by byte across chunks */
	js->tok.len = 0;
	state = 0;
	for (;;) {
		c = peek(js, err);
		if (c == -2)
			return -1;
		if ((next = number_step(state, c)) < 0)
			break;
		if (js->tok.len >= 4096)
			return bad(js, err, "a number is longer than 4096 bytes");
		spaa_sbuf_add(&js->tok, js->p, 1);
		js->p++;
		state = next;
	}
	if (!number_end(state))
		return bad(js, err, "invalid number");
	*str = js->tok.s;
	*len = js->tok.len;
	return 0;
}

static int literal(struct spaa_jsonstream *js, struct spaa_error *err)
{
	static const char *const words[] = { "true", "false", "null" };
	int c = peek(js, err);

	for (size_t i = 0; i < 3; i++) {
		const char *w = words[i];

		if (c != w[0])
			continue;
		js->tok.len = 0;
		for (; *w; w++) {
			if (peek(js, err) != *w)
				return bad(js, err, "invalid literal");
			js->p++;
		}
		spaa_sbuf_adds(&js->tok, words[i]);
		return 0;
	}
	return bad(js, err, c < 0 ? "unexpected end of input" : "unexpected character");
}

/* After a value or a container's end: what the enclosing level wants. */
static void after_value(struct spaa_jsonstream *js)
{
	js->want = js->depth ? W_COMMA_OR_END : W_DONE;
}

static int open_container(struct spaa_jsonstream *js, char kind,
			  struct spaa_error *err)
{
	if (js->depth >= js->max_depth)
		return fail_code(js, err, SPAA_E_LIMIT, "JSON nesting deeper than %u",
				 js->max_depth);
	SPAA_ALLOC_GROW(js->stack, (size_t)js->depth + 1, js->stack_alloc);
	js->stack[js->depth++] = kind;
	js->want = kind == '{' ? W_KEY_OR_END : W_VALUE_OR_END;
	return 0;
}

static int value(struct spaa_jsonstream *js, int c, struct spaa_jsonstream_token *t,
		 struct spaa_error *err)
{
	t->str = NULL;
	t->len = 0;
	if (c == '{' || c == '[') {
		js->p++;
		t->type = c == '{' ? SPAA_JSONSTREAM_OBJECT : SPAA_JSONSTREAM_ARRAY;
		return open_container(js, (char)c, err);
	}
	if (c == '"') {
		js->p++;
		if (string(js, err))
			return -1;
		t->type = SPAA_JSONSTREAM_STRING;
	} else if (c == '-' || is_digit(c)) {
		if (number(js, &t->str, &t->len, err))
			return -1;
		t->type = SPAA_JSONSTREAM_NUMBER;
		after_value(js);
		return 0;
	} else {
		if (literal(js, err))
			return -1;
		t->type = SPAA_JSONSTREAM_LITERAL;
	}
	t->str = js->tok.s;
	t->len = js->tok.len;
	after_value(js);
	return 0;
}

static int close_container(struct spaa_jsonstream *js, int c,
			   struct spaa_jsonstream_token *t)
{
	js->p++;
	js->depth--;
	t->type = c == '}' ? SPAA_JSONSTREAM_OBJECT_END : SPAA_JSONSTREAM_ARRAY_END;
	t->str = NULL;
	t->len = 0;
	after_value(js);
	return 0;
}

int spaa_jsonstream_next(struct spaa_jsonstream *js,
			 struct spaa_jsonstream_token *t, struct spaa_error *err)
{
	int c = skip_ws(js, err);
	char top = js->depth ? js->stack[js->depth - 1] : 0;
	char close = top == '{' ? '}' : ']';

	if (c == -2)
		return -1;
	switch (js->want) {
	case W_DONE:
		if (c >= 0)
			return bad(js, err, "data after the JSON document");
		t->type = SPAA_JSONSTREAM_END;
		t->str = NULL;
		t->len = 0;
		return 0;
	case W_COMMA_OR_END:
		if (c == close)
			return close_container(js, c, t);
		if (c != ',')
			return bad(js, err, c < 0 ? "unexpected end of input" :
				   "expected ',' or '%c'", close);
		js->p++;
		js->want = top == '{' ? W_KEY : W_VALUE;
		return spaa_jsonstream_next(js, t, err);
	case W_KEY_OR_END:
	case W_VALUE_OR_END:
		if (c == close)
			return close_container(js, c, t);
		if (js->want == W_VALUE_OR_END)
			return value(js, c, t, err);
		/* fall through */
	case W_KEY:
		if (c != '"')
			return bad(js, err, c < 0 ? "unexpected end of input" :
				   "expected a member name");
		js->p++;
		if (string(js, err))
			return -1;
		c = skip_ws(js, err);
		if (c == -2)
			return -1;
		if (c != ':')
			return bad(js, err, "expected ':' after a member name");
		js->p++;
		js->want = W_VALUE;
		t->type = SPAA_JSONSTREAM_KEY;
		t->str = js->tok.s;
		t->len = js->tok.len;
		return 0;
	case W_VALUE:
		break;
	}
	if (c < 0)
		return bad(js, err, "unexpected end of input");
	return value(js, c, t, err);
}

int spaa_jsonstream_skip(struct spaa_jsonstream *js, struct spaa_error *err)
{
	uint32_t depth = js->depth;
	struct spaa_jsonstream_token t;

	while (js->depth >= depth)
		if (spaa_jsonstream_next(js, &t, err))
			return -1;
	return 0;
}

int spaa_jsonstream_capture(struct spaa_jsonstream *js, const char **text,
			    size_t *len, struct spaa_error *err)
{
	struct spaa_jsonstream_token t;
	int c = skip_ws(js, err), ret = -1;

	if (c == -2)
		return -1;
	/* a ',' before the value, or the container's end, is not captured */
	if (js->want == W_COMMA_OR_END || js->want == W_VALUE_OR_END ||
	    js->want == W_KEY_OR_END) {
		char close = js->stack[js->depth - 1] == '{' ? '}' : ']';

		if (c == close) {
			close_container(js, c, &t);
			return 1;
		}
		if (js->want == W_COMMA_OR_END) {
			if (c != ',')
				return bad(js, err, c < 0 ? "unexpected end of input" :
					   "expected ',' or '%c'", close);
			js->p++;
			js->want = js->stack[js->depth - 1] == '{' ? W_KEY : W_VALUE;
			c = skip_ws(js, err);
			if (c == -2)
				return -1;
		}
	}
	if (js->want != W_VALUE && js->want != W_VALUE_OR_END)
		return bad(js, err, "expected a member name");
	js->cap.len = 0;
	js->cap_from = js->p;
	if (spaa_jsonstream_next(js, &t, err))
		goto out;
	if ((t.type == SPAA_JSONSTREAM_OBJECT || t.type == SPAA_JSONSTREAM_ARRAY) &&
	    spaa_jsonstream_skip(js, err))
		goto out;
	if (js->cap_from) {
		size_t n = (size_t)(js->p - js->cap_from);

		if (js->cap.len + n > js->max_token) {
			too_long(js, err);
			goto out;
		}
		spaa_sbuf_add(&js->cap, js->cap_from, n);
	}
	spaa_sbuf_add(&js->cap, "", 0);
	*text = js->cap.s;
	*len = js->cap.len;
	ret = 0;
out:
	js->cap_from = NULL;
	return ret;
}

int spaa_jsonstream_parse(struct spaa_jsonstream *js, struct spaa_json_parser *jp,
			  const char *what, const struct spaa_json_value **value,
			  struct spaa_error *err)
{
	struct spaa_json_error je;
	const char *text;
	size_t len;
	int r = spaa_jsonstream_capture(js, &text, &len, err);

	if (r)
		return r;
	*value = spaa_json_parse(jp, text, len, &je);
	if (!*value)
		return spaa_jsonstream_fail(js, err, "%s: %s", what, je.msg);
	return 0;
}

struct spaa_json_value spaa_jsonstream_number(const struct spaa_jsonstream_token *t)
{
	struct spaa_json_value v = {
		.type = SPAA_JSON_NUMBER, .str = t->str, .len = t->len,
	};

	return v;
}
