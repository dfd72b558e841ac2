#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/util.h"

static void *oom(size_t n)
{
	fprintf(stderr, "fatal: out of memory allocating %zu bytes\n", n);
	abort();
}

void *spaa_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	return p ? p : oom(n);
}

void *spaa_xaligned_alloc(size_t align, size_t n)
{
	void *p = NULL;

	if (posix_memalign(&p, align, n ? n : 1))
		return oom(n);
	return p;
}

void *spaa_xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	return p ? p : oom(nmemb * size);
}

void *spaa_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	return q ? q : oom(n);
}

char *spaa_xstrndup(const char *s, size_t n)
{
	char *d = spaa_xmalloc(n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

char *spaa_xstrdup(const char *s)
{
	return spaa_xstrndup(s, strlen(s));
}

int spaa_parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (uint64_t)(*s - '0'), &v))
			return -1;
	}
	*out = v;
	return 0;
}

int spaa_parse_i64(const char *s, int64_t *out)
{
	uint64_t v;
	int neg = *s == '-';

	if (spaa_parse_u64(s + neg, &v))
		return -1;
	if (neg ? v > (uint64_t)INT64_MAX + 1 : v > (uint64_t)INT64_MAX)
		return -1;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 0;
}

/*
 * Word-at-a-time multiply-xorshift hash: hashing is on the per-record path
 * (every frame id, every stack id), so it must not go byte by byte.
 */
static uint64_t mix64(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

uint64_t spaa_hash_bytes(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ (n * 0x100000001b3ULL);
	uint64_t w;

	for (; n >= 8; b += 8, n -= 8) {
		memcpy(&w, b, 8);
		h = (h ^ mix64(w)) * 0x9e3779b97f4a7c15ULL;
	}
	w = 0;
	memcpy(&w, b, n);
	h ^= mix64(w ^ n);
	return mix64(h);
}

/* Unicode chapter 3, "U+FFFD Substitution of Maximal Subparts". */
int spaa_utf8_seq(const unsigned char *s, size_t n, uint32_t *cp)
{
	unsigned char b = s[0], lo = 0x80, hi = 0xbf;
	int need, i;
	uint32_t c;

	if (b < 0x80) {
		*cp = b;
		return 1;
	}
	if (b >= 0xc2 && b <= 0xdf) {
		need = 1;
		c = b & 0x1f;
	} else if (b >= 0xe0 && b <= 0xef) {
		need = 2;
		c = b & 0x0f;
		if (b == 0xe0)
			lo = 0xa0;      /* overlong */
		else if (b == 0xed)
			hi = 0x9f;      /* surrogates */
	} else if (b >= 0xf0 && b <= 0xf4) {
		need = 3;
		c = b & 0x07;
		if (b == 0xf0)
			lo = 0x90;      /* overlong */
		else if (b == 0xf4)
			hi = 0x8f;      /* above U+10FFFF */
	} else {
		return -1;      /* continuation byte, C0, C1, F5..FF */
	}
	for (i = 1; i <= need; i++) {
		if ((size_t)i >= n || s[i] < lo || s[i] > hi)
			return -i;
		c = (c << 6) | (s[i] & 0x3f);
		lo = 0x80;
		hi = 0xbf;
	}
	*cp = c;
	return need + 1;
}

size_t spaa_format_double(char *buf, size_t size, char conv, int precision,
			  double v)
{
	char tmp[400], *p, *q;
	size_t n;

	snprintf(tmp, sizeof(tmp), conv == 'f' ? "%.*f" : "%.*g", precision, v);
	/*
	 * printf honours LC_NUMERIC, whose decimal point may be "," or even a
	 * multibyte character.  Its output is otherwise only digits, signs
	 * and 'e', so whatever else appears is the decimal point: turn it
	 * into "." without touching the process' locale.
	 */
	for (p = q = tmp; *p; ) {
		if (strchr("0123456789+-e", *p)) {
			*q++ = *p++;
			continue;
		}
		*q++ = '.';
		while (*p && !strchr("0123456789+-e", *p))
			p++;
	}
	*q = '\0';
	n = (size_t)(q - tmp);
	if (size)
		snprintf(buf, size, "%s", tmp);
	return n < size ? n : (size ? size - 1 : 0);
}

void spaa_sort(void *base, size_t n, size_t size,
	       int (*cmp)(const void *a, const void *b, const void *ctx),
	       const void *ctx)
{
	char *r = base, *tmp = spaa_xmalloc((n + 1) * size);

	/* bottom up: runs of w sorted elements merged pairwise into tmp */
	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n;
			size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, k = lo;

			/* the right run's element goes first only when smaller */
			while (i < mid && j < hi)
				memcpy(tmp + k++ * size,
				       cmp(r + j * size, r + i * size, ctx) < 0 ?
				       r + j++ * size : r + i++ * size, size);
			memcpy(tmp + k * size, r + i * size, (mid - i) * size);
			k += mid - i;
			memcpy(tmp + k * size, r + j * size, (hi - j) * size);
		}
		memcpy(r, tmp, n * size);
	}
	free(tmp);
}

char *spaa_clean_controls(char *s)
{
	unsigned char *r = (unsigned char *)s, *w = r;

	for (; *r; r++) {
		if (*r < 0x20 || *r == 0x7f) {
			*w++ = '?';
		} else if (*r == 0xc2 && r[1] >= 0x80 && r[1] < 0xa0) {
			*w++ = '?';
			r++;
		} else {
			*w++ = *r;
		}
	}
	*w = 0;
	return s;
}
