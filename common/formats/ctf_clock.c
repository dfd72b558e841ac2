#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "formats/ctf_clock.h"
#include "model/util.h"

#define PACKET_MAGIC 0x75D11D57u
/* magic, uuid[16], checksum, content_size, packet_size, 5 one-byte fields */
#define PACKET_HEADER 37

/* What a word of TSDL may hold that the clock block needs: names, numbers. */
#define WORD_MAX 128

enum lex {
	L_CODE, L_SLASH, L_LINE_COMMENT, L_BLOCK, L_BLOCK_STAR,
	L_STRING, L_STRING_ESC, L_CHAR, L_CHAR_ESC,
};

/* A statement "key = value;" inside a clock block, token by token. */
enum stmt { S_KEY, S_EQ, S_VALUE, S_END, S_SKIP };

struct tsdl {
	const char *file;
	struct spaa_error *err;
	unsigned long line;
	enum lex lex;
	char word[WORD_MAX];    /* the word or string being read */
	size_t wlen;
	bool in_word;
	unsigned depth;         /* of braces */
	bool after_clock;       /* the last token at depth 0 was "clock" */
	bool in_clock;          /* directly inside a top-level clock block */
	enum stmt stmt;
	char key[WORD_MAX];
	char value[WORD_MAX];   /* the value of the statement, when it ends */
	bool value_string, negative;
	struct spaa_ctf_clock cur;
	struct spaa_ctf_clock *out;
	int failed;
};

/* The packet layer: the bytes of the file, turned into TSDL text. */
struct packets {
	bool packetized, big_endian;
	uint64_t at;            /* bytes of the file consumed */
	unsigned char hdr[PACKET_HEADER];
	size_t nhdr;
	uint64_t content, padding;      /* bytes left of the current packet */
};

static bool is_word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* An error in the text: "... 'what' ..." at the current line. */
static int fail(struct tsdl *t, const char *before, const char *what,
		const char *after)
{
	if (!t->failed)
		spaa_error_at(t->err, SPAA_E_INVALID, t->file, t->line, "%s'%s'%s",
			      before, what, after);
	t->failed = -1;
	return -1;
}

/*
 * A TSDL integer literal: decimal, 0x hex or 0 octal, with an optional
 * u/l suffix.  Returns -1 if it is none or does not fit in 64 bits.
 */
static int parse_number(const char *s, uint64_t *out)
{
	unsigned base = 10;
	uint64_t v = 0;
	size_t n = strlen(s);

	while (n && strchr("uUlL", s[n - 1]))
		n--;
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		n -= 2;
	} else if (n > 1 && s[0] == '0') {
		base = 8;
		s++;
		n--;
	}
	if (!n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		unsigned d;

		if (s[i] >= '0' && s[i] <= '9')
			d = (unsigned)(s[i] - '0');
		else if (s[i] >= 'a' && s[i] <= 'f')
			d = (unsigned)(s[i] - 'a' + 10);
		else if (s[i] >= 'A' && s[i] <= 'F')
			d = (unsigned)(s[i] - 'A' + 10);
		else
			return -1;
		if (d >= base || __builtin_mul_overflow(v, base, &v) ||
		    __builtin_add_overflow(v, d, &v))
			return -1;
	}
	*out = v;
	return 0;
}

static int signed_value(struct tsdl *t, int64_t *out)
{
	uint64_t v;

	if (t->value_string || parse_number(t->value, &v) || v > INT64_MAX)
		return fail(t, "clock ", t->key, " is not an integer of 64 bits");
	*out = t->negative ? -(int64_t)v : (int64_t)v;
	return 0;
}

/* "key = value;" inside the clock block: the values the offset needs. */
static int assign(struct tsdl *t)
{
	uint64_t v;

	if (!strcmp(t->key, "name"))
		snprintf(t->cur.name, sizeof(t->cur.name), "%.*s",
			 (int)sizeof(t->cur.name) - 1, t->value);
	else if (!strcmp(t->key, "freq") &&
		 (t->value_string || t->negative || parse_number(t->value, &v) || !v))
		return fail(t, "clock ", t->key, " is not a positive integer");
	else if (!strcmp(t->key, "freq"))
		t->cur.freq = v;
	else if (!strcmp(t->key, "offset_s"))
		return signed_value(t, &t->cur.offset_s);
	else if (!strcmp(t->key, "offset"))
		return signed_value(t, &t->cur.offset);
	return 0;
}

/* The clock block ends: its offset in ns, as Trace Compass computes it. */
static int clock_end(struct tsdl *t)
{
	__int128 ns = (__int128)t->cur.offset_s * 1000000000 +
		      (__int128)t->cur.offset * 1000000000 / t->cur.freq;

	if (ns > INT64_MAX || ns < INT64_MIN)
		return fail(t, "clock ", t->cur.name,
			    " has an offset past 64 bits of nanoseconds");
	t->cur.offset_ns = (int64_t)ns;
	if (!t->out->nclocks++) {
		unsigned n = t->out->nclocks;

		*t->out = t->cur;
		t->out->nclocks = n;
	}
	return 0;
}

/* One token: a word or string (text in t->word), or a punctuation byte. */
static int token(struct tsdl *t, char punct, bool string)
{
	if (punct == '{') {
		t->in_clock = t->depth == 0 && t->after_clock;
		if (t->in_clock) {
			t->cur = (struct spaa_ctf_clock){ .freq = 1000000000 };
			t->stmt = S_KEY;
		}
		t->depth++;
		t->after_clock = false;
		return 0;
	}
	if (punct == '}') {
		if (!t->depth)
			return fail(t, "unbalanced ", "}", " in the metadata");
		t->depth--;
		if (t->in_clock && t->depth == 0) {
			t->in_clock = false;
			return clock_end(t);
		}
		return 0;
	}
	if (t->depth == 0) {
		t->after_clock = !punct && !string && !strcmp(t->word, "clock");
		return 0;
	}
	if (!t->in_clock || t->depth != 1)
		return 0;
	switch (t->stmt) {
	case S_KEY:
		if (punct == ';')
			return 0;
		t->stmt = punct || string ? S_SKIP : S_EQ;
		snprintf(t->key, sizeof(t->key), "%s", t->word);
		return 0;
	case S_EQ:
		t->stmt = punct == '=' ? S_VALUE : punct == ';' ? S_KEY : S_SKIP;
		t->negative = false;
		return 0;
	case S_VALUE:
		if (punct == '-' || punct == '+') {
			t->negative ^= punct == '-';
			return 0;
		}
		t->stmt = punct ? (punct == ';' ? S_KEY : S_SKIP) : S_END;
		memcpy(t->value, t->word, sizeof(t->value));
		t->value_string = string;
		return 0;
	case S_END:
		if (punct != ';') {
			/* an expression: not one of the values read here */
			t->stmt = S_SKIP;
			return 0;
		}
		t->stmt = S_KEY;
		return assign(t);
	case S_SKIP:
		if (punct == ';')
			t->stmt = S_KEY;
		return 0;
	}
	return 0;
}

static int word_end(struct tsdl *t)
{
	t->in_word = false;
	t->word[t->wlen] = '\0';
	return token(t, 0, false);
}

static void word_add(struct tsdl *t, char c)
{
	if (t->wlen < sizeof(t->word) - 1)
		t->word[t->wlen++] = c;
}

/* Feeds n bytes of TSDL text. */
static int tsdl_feed(struct tsdl *t, const char *s, size_t n)
{
	for (size_t i = 0; i < n && !t->failed; i++) {
		char c = s[i];

		if (c == '\n')
			t->line++;
		switch (t->lex) {
		case L_CODE:
			if (is_word_char(c)) {
				if (!t->in_word) {
					t->in_word = true;
					t->wlen = 0;
				}
				word_add(t, c);
				continue;
			}
			if (t->in_word && word_end(t))
				return -1;
			if (c == '/') {
				t->lex = L_SLASH;
			} else if (c == '"' || c == '\'') {
				t->lex = c == '"' ? L_STRING : L_CHAR;
				t->wlen = 0;
			} else if (c != ' ' && c != '\t' && c != '\n' && c != '\r' &&
				   c != '\f' && c != '\v') {
				t->wlen = 0;
				t->word[0] = '\0';
				if (token(t, c, false))
					return -1;
			}
			break;
		case L_SLASH:
			if (c == '/' || c == '*') {
				t->lex = c == '/' ? L_LINE_COMMENT : L_BLOCK;
				break;
			}
			t->lex = L_CODE;
			t->word[0] = '\0';
			if (token(t, '/', false))
				return -1;
			i--;    /* c again, as code */
			if (c == '\n')
				t->line--;
			break;
		case L_LINE_COMMENT:
			if (c == '\n')
				t->lex = L_CODE;
			break;
		case L_BLOCK:
			if (c == '*')
				t->lex = L_BLOCK_STAR;
			break;
		case L_BLOCK_STAR:
			t->lex = c == '/' ? L_CODE : c == '*' ? L_BLOCK_STAR : L_BLOCK;
			break;
		case L_STRING:
		case L_CHAR:
			if (c == '\\') {
				t->lex = t->lex == L_STRING ? L_STRING_ESC : L_CHAR_ESC;
			} else if (c == (t->lex == L_STRING ? '"' : '\'')) {
				bool str = t->lex == L_STRING;

				t->lex = L_CODE;
				t->word[t->wlen] = '\0';
				if (str && token(t, 0, true))
					return -1;
			} else {
				word_add(t, c);
			}
			break;
		case L_STRING_ESC:
		case L_CHAR_ESC:
			word_add(t, c);
			t->lex = t->lex == L_STRING_ESC ? L_STRING : L_CHAR;
			break;
		}
	}
	return t->failed;
}

static uint32_t u32_at(const unsigned char *b, bool big)
{
	return big ? (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
		     (uint32_t)b[2] << 8 | b[3]
		   : (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 |
		     (uint32_t)b[1] << 8 | b[0];
}

/* A packet header is complete: the sizes of its content and padding. */
static int packet_start(struct packets *pk, struct tsdl *t)
{
	uint32_t content = u32_at(pk->hdr + 24, pk->big_endian);
	uint32_t size = u32_at(pk->hdr + 28, pk->big_endian);
	uint64_t start = pk->at - PACKET_HEADER;

	if (u32_at(pk->hdr, pk->big_endian) != PACKET_MAGIC) {
		spaa_error_at(t->err, SPAA_E_INVALID, t->file, 0,
			      "metadata packet at byte %llu has no CTF magic number",
			      (unsigned long long)start);
		return -1;
	}
	if (content % 8 || size % 8 || content < PACKET_HEADER * 8 || size < content) {
		spaa_error_at(t->err, SPAA_E_INVALID, t->file, 0,
			      "metadata packet at byte %llu has content size %lu and packet size %lu bits",
			      (unsigned long long)start, (unsigned long)content,
			      (unsigned long)size);
		return -1;
	}
	if (pk->hdr[32] || pk->hdr[33] || pk->hdr[34]) {
		spaa_error_at(t->err, SPAA_E_INVALID, t->file, 0,
			      "metadata packet at byte %llu is compressed, encrypted or checksummed, which is not read",
			      (unsigned long long)start);
		return -1;
	}
	pk->content = content / 8 - PACKET_HEADER;
	pk->padding = (size - content) / 8;
	return 0;
}

/* Feeds n bytes of the file: packets are unwrapped, text goes through. */
static int packets_feed(struct packets *pk, struct tsdl *t,
			const unsigned char *b, size_t n)
{
	size_t i = 0;

	if (!pk->packetized) {
		pk->at += n;
		return tsdl_feed(t, (const char *)b, n);
	}
	while (i < n) {
		size_t k;

		if (pk->content) {
			k = n - i < pk->content ? n - i : (size_t)pk->content;
			if (tsdl_feed(t, (const char *)b + i, k))
				return -1;
		} else if (pk->padding) {
			k = n - i < pk->padding ? n - i : (size_t)pk->padding;
			pk->padding -= k;
			pk->at += k;
			i += k;
			continue;
		} else {
			k = PACKET_HEADER - pk->nhdr;
			if (k > n - i)
				k = n - i;
			memcpy(pk->hdr + pk->nhdr, b + i, k);
			pk->nhdr += k;
			pk->at += k;
			i += k;
			if (pk->nhdr == PACKET_HEADER) {
				pk->nhdr = 0;
				if (packet_start(pk, t))
					return -1;
			}
			continue;
		}
		pk->content -= k;
		pk->at += k;
		i += k;
	}
	return 0;
}

/*
 * The form of the metadata from its first bytes: 1 CTF 1.8 (pk set), 0
 * not CTF, -1 CTF 2.
 */
static int sniff(const unsigned char *b, size_t n, struct packets *pk)
{
	static const char text[] = "/* CTF 1.";

	memset(pk, 0, sizeof(*pk));
	if (n >= 4 && (u32_at(b, false) == PACKET_MAGIC || u32_at(b, true) == PACKET_MAGIC)) {
		pk->packetized = true;
		pk->big_endian = u32_at(b, true) == PACKET_MAGIC;
		return 1;
	}
	if (n >= sizeof(text) - 1 && !memcmp(b, text, sizeof(text) - 1))
		return 1;
	/* CTF 2: JSON text sequences, each record after a RS byte */
	return n && b[0] == 0x1e ? -1 : 0;
}

static void tsdl_init(struct tsdl *t, const char *file, struct spaa_ctf_clock *c,
		      struct spaa_error *err)
{
	memset(t, 0, sizeof(*t));
	t->file = file;
	t->err = err;
	t->line = 1;
	t->out = c;
}

/* Input ends: a packet or a block cut short is an error. */
static int finish(struct packets *pk, struct tsdl *t)
{
	if (t->in_word && word_end(t))
		return -1;
	if (pk->content || pk->nhdr) {
		spaa_error_at(t->err, SPAA_E_INVALID, t->file, 0,
			      "metadata ends inside a packet, at byte %llu",
			      (unsigned long long)pk->at);
		return -1;
	}
	if (t->in_clock)
		return fail(t, "metadata ends inside clock block ", t->cur.name, "");
	return 0;
}

static int ctf2(const char *file, struct spaa_error *err)
{
	return spaa_error_at(err, SPAA_E_INVALID, file, 0,
			     "CTF 2 metadata is not read: give the clock offset with '--clock-offset'");
}

int spaa_ctf_clock_parse(const void *data, size_t n, const char *file,
			 struct spaa_ctf_clock *c, struct spaa_error *err)
{
	struct packets pk;
	struct tsdl t;
	int form = sniff(data, n, &pk);

	memset(c, 0, sizeof(*c));
	if (form <= 0)
		return form ? ctf2(file, err) : 0;
	tsdl_init(&t, file, c, err);
	if (packets_feed(&pk, &t, data, n) || finish(&pk, &t)) {
		memset(c, 0, sizeof(*c));
		return -1;
	}
	return 1;
}

int spaa_ctf_clock_read(const char *dir, struct spaa_ctf_clock *c,
			struct spaa_error *err)
{
	unsigned char buf[65536];
	struct packets pk;
	struct tsdl t;
	char file[4096];
	ssize_t got;
	size_t have = 0;
	int fd, form, ret = -1;

	memset(c, 0, sizeof(*c));
	if ((size_t)snprintf(file, sizeof(file), "%s/metadata", dir) >= sizeof(file))
		return 0;
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR ? 0 : spaa_error_path(err, file, errno);
	/* enough bytes to tell the form */
	while (have < 16 && (got = read(fd, buf + have, sizeof(buf) - have)) != 0) {
		if (got < 0) {
			if (errno == EINTR)
				continue;
			spaa_error_path(err, file, errno);
			goto out;
		}
		have += (size_t)got;
	}
	form = sniff(buf, have, &pk);
	if (form <= 0) {
		ret = form ? ctf2(file, err) : 0;
		goto out;
	}
	tsdl_init(&t, file, c, err);
	for (;;) {
		if (packets_feed(&pk, &t, buf, have))
			goto out;
		got = read(fd, buf, sizeof(buf));
		if (got < 0 && errno == EINTR) {
			have = 0;
			continue;
		}
		if (got < 0) {
			spaa_error_path(err, file, errno);
			goto out;
		}
		if (!got)
			break;
		have = (size_t)got;
	}
	ret = finish(&pk, &t) ? -1 : 1;
out:
	close(fd);
	if (ret < 0)
		memset(c, 0, sizeof(*c));
	return ret;
}
