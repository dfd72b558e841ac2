#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "model/util.h"

static void *oom(size_t n)
{
	fprintf(stderr, "fatal: out of memory allocating %zu bytes\n", n);
	abort();
}

/*
 * Blocks of 2 MiB and more (a model's pools and arrays, a fold's groups,
 * a table's cells and strings) are asked to be backed by huge pages.
 * They are mappings of their own (main.c's M_MMAP_THRESHOLD), and each
 * 4 KiB page of a fresh mapping costs a page fault on first touch: on a
 * virtual machine several microseconds, on make bench's profile 12 % of
 * spaa-hotspots' CPU time.  A huge page is one fault for 512 of them; a
 * block holds at most one partly used huge page more than before.  The
 * whole pages of the mapping around p are advised (a mapped chunk starts
 * 16 bytes into its mapping, and a mapping's first page holds its start);
 * where the kernel has no huge pages, or p lies in the heap, the advice
 * is harmless and ignored.
 */
#define HUGE_BLOCK ((size_t)2 << 20)

static void *advise_huge(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	if (p && n >= HUGE_BLOCK) {
		uintptr_t a = (uintptr_t)p & ~(uintptr_t)4095;
		uintptr_t e = ((uintptr_t)p + n + 4095) & ~(uintptr_t)4095;

		(void)madvise((void *)a, e - a, MADV_HUGEPAGE);
	}
#else
	(void)n;
#endif
	return p;
}

void *spaa_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	return p ? advise_huge(p, n) : oom(n);
}

void *spaa_xaligned_alloc(size_t align, size_t n)
{
	void *p = NULL;

	if (posix_memalign(&p, align, n ? n : 1))
		return oom(n);
	return advise_huge(p, n);
}

void *spaa_xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	return p ? advise_huge(p, nmemb * size) : oom(nmemb * size);
}

void *spaa_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	return q ? advise_huge(q, n) : oom(n);
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

struct cp_range {
	uint32_t lo, hi;
};

/* General categories Mn, Me and the zero-width Cf characters, by block. */
static const struct cp_range zero_width[] = {
	{ 0x0300, 0x036f }, { 0x0483, 0x0489 }, { 0x0591, 0x05bd }, { 0x05bf, 0x05bf },
	{ 0x05c1, 0x05c2 }, { 0x05c4, 0x05c5 }, { 0x05c7, 0x05c7 }, { 0x0610, 0x061a },
	{ 0x064b, 0x065f }, { 0x0670, 0x0670 }, { 0x06d6, 0x06dc }, { 0x06df, 0x06e4 },
	{ 0x06e7, 0x06e8 }, { 0x06ea, 0x06ed }, { 0x0711, 0x0711 }, { 0x0730, 0x074a },
	{ 0x07a6, 0x07b0 }, { 0x0900, 0x0902 }, { 0x093a, 0x093a }, { 0x093c, 0x093c },
	{ 0x0941, 0x0948 }, { 0x094d, 0x094d }, { 0x0951, 0x0957 }, { 0x0e31, 0x0e31 },
	{ 0x0e34, 0x0e3a }, { 0x0e47, 0x0e4e }, { 0x1ab0, 0x1aff }, { 0x1dc0, 0x1dff },
	{ 0x200b, 0x200f }, { 0x202a, 0x202e }, { 0x2060, 0x2064 }, { 0x20d0, 0x20ff },
	{ 0x302a, 0x302d }, { 0x3099, 0x309a }, { 0xfe00, 0xfe0f }, { 0xfe20, 0xfe2f },
	{ 0xfeff, 0xfeff }, { 0x1d167, 0x1d169 }, { 0x1d17b, 0x1d182 },
	{ 0xe0001, 0xe0001 }, { 0xe0020, 0xe007f }, { 0xe0100, 0xe01ef },
};

/* East Asian Width W and F (Unicode 15), zero-width ones above excepted. */
static const struct cp_range wide[] = {
	{ 0x1100, 0x115f }, { 0x231a, 0x231b }, { 0x2329, 0x232a }, { 0x23e9, 0x23ec },
	{ 0x23f0, 0x23f0 }, { 0x23f3, 0x23f3 }, { 0x25fd, 0x25fe }, { 0x2614, 0x2615 },
	{ 0x2648, 0x2653 }, { 0x267f, 0x267f }, { 0x2693, 0x2693 }, { 0x26a1, 0x26a1 },
	{ 0x26aa, 0x26ab }, { 0x26bd, 0x26be }, { 0x26c4, 0x26c5 }, { 0x26ce, 0x26ce },
	{ 0x26d4, 0x26d4 }, { 0x26ea, 0x26ea }, { 0x26f2, 0x26f3 }, { 0x26f5, 0x26f5 },
	{ 0x26fa, 0x26fa }, { 0x26fd, 0x26fd }, { 0x2705, 0x2705 }, { 0x270a, 0x270b },
	{ 0x2728, 0x2728 }, { 0x274c, 0x274c }, { 0x274e, 0x274e }, { 0x2753, 0x2755 },
	{ 0x2757, 0x2757 }, { 0x2795, 0x2797 }, { 0x27b0, 0x27b0 }, { 0x27bf, 0x27bf },
	{ 0x2b1b, 0x2b1c }, { 0x2b50, 0x2b50 }, { 0x2b55, 0x2b55 }, { 0x2e80, 0x303e },
	{ 0x3041, 0x33ff }, { 0x3400, 0x4dbf }, { 0x4e00, 0x9fff }, { 0xa000, 0xa4cf },
	{ 0xa960, 0xa97f }, { 0xac00, 0xd7a3 }, { 0xf900, 0xfaff }, { 0xfe10, 0xfe19 },
	{ 0xfe30, 0xfe6f }, { 0xff00, 0xff60 }, { 0xffe0, 0xffe6 }, { 0x16fe0, 0x16fe4 },
	{ 0x17000, 0x18cff }, { 0x1b000, 0x1b2ff }, { 0x1f004, 0x1f004 }, { 0x1f0cf, 0x1f0cf },
	{ 0x1f18e, 0x1f18e }, { 0x1f191, 0x1f19a }, { 0x1f200, 0x1f202 }, { 0x1f210, 0x1f23b },
	{ 0x1f240, 0x1f248 }, { 0x1f250, 0x1f251 }, { 0x1f300, 0x1f320 }, { 0x1f32d, 0x1f335 },
	{ 0x1f337, 0x1f37c }, { 0x1f37e, 0x1f393 }, { 0x1f3a0, 0x1f3ca }, { 0x1f3cf, 0x1f3d3 },
	{ 0x1f3e0, 0x1f3f0 }, { 0x1f3f4, 0x1f3f4 }, { 0x1f3f8, 0x1f43e }, { 0x1f440, 0x1f440 },
	{ 0x1f442, 0x1f4fc }, { 0x1f4ff, 0x1f53d }, { 0x1f54b, 0x1f54e }, { 0x1f550, 0x1f567 },
	{ 0x1f57a, 0x1f57a }, { 0x1f595, 0x1f596 }, { 0x1f5a4, 0x1f5a4 }, { 0x1f5fb, 0x1f64f },
	{ 0x1f680, 0x1f6c5 }, { 0x1f6cc, 0x1f6cc }, { 0x1f6d0, 0x1f6d2 }, { 0x1f6d5, 0x1f6d7 },
	{ 0x1f6eb, 0x1f6ec }, { 0x1f6f4, 0x1f6fc }, { 0x1f7e0, 0x1f7eb }, { 0x1f90c, 0x1f93a },
	{ 0x1f93c, 0x1f945 }, { 0x1f947, 0x1f9ff }, { 0x1fa70, 0x1faff }, { 0x20000, 0x2fffd },
	{ 0x30000, 0x3fffd },
};

static bool in_ranges(uint32_t cp, const struct cp_range *r, size_t n)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cp < r[mid].lo)
			hi = mid;
		else if (cp > r[mid].hi)
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

int spaa_utf8_cp_cells(uint32_t cp)
{
	if (cp < 0x300)
		return 1;
	if (in_ranges(cp, zero_width, sizeof(zero_width) / sizeof(zero_width[0])))
		return 0;
	return in_ranges(cp, wide, sizeof(wide) / sizeof(wide[0])) ? 2 : 1;
}

size_t spaa_utf8_cells(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, cells = 0;

	while (i < n) {
		uint32_t cp = 0;
		int len = spaa_utf8_seq(s + i, n - i, &cp);

		if (len < 0) {
			cells++;
			i += (size_t)-len;
		} else {
			cells += (size_t)spaa_utf8_cp_cells(cp);
			i += (size_t)len;
		}
	}
	return cells;
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

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 u128;

/*
 * "%.*g" of v into tmp (at least 32 bytes) without printf, for the
 * values a table's ratios and numbers are: finite, |v| below 10^precision
 * and at least about 10^(precision - 33), precision 1 to 17.  Returns the
 * length, or 0 when v is not such a value (printf then writes it).
 *
 * printf's conversion is exact: the P significant digits are those of the
 * decimal value of the double, rounded half to even.  So is this one:
 * v = m * 2^q exactly, and v * 10^s = m * 5^s * 2^(q + s), an integer
 * times a power of two, with m * 5^s below 2^128 for s <= 32.  A table of
 * every stack writes two ratios a row: printf's big-number conversion was
 * 4,600 instructions a value, most of the cost of writing the results.
 */
static size_t format_g_exact(char *tmp, int precision, double v)
{
	static const uint64_t pow10[] = {
		1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
		1000000000, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
		10000000000000ULL, 100000000000000ULL, 1000000000000000ULL,
		10000000000000000ULL, 100000000000000000ULL,
	};
	char digits[20], *o = tmp;
	double a = fabs(v), f;
	uint64_t m, n = 0;
	int e2, e10, s, t, nd, last;
	bool up;

	if (precision < 1 || precision > 17 || !isfinite(v))
		return 0;
	if (a == 0) {
		if (signbit(v))
			*o++ = '-';
		*o++ = '0';
		return (size_t)(o - tmp);
	}
	f = frexp(a, &e2);                      /* a = f * 2^e2, f in [0.5, 1) */
	m = (uint64_t)ldexp(f, 53);             /* exact: 53 bits */
	e10 = (int)floor(log10(a));             /* may be off by one: fixed below */
	for (int tries = 0; ; tries++) {
		u128 x = m, rem = 0, half = 0;

		s = precision - 1 - e10;
		if (s < 0 || s > 32 || tries > 2)
			return 0;
		for (int i = 0; i < s; i++)
			x *= 5;
		t = e2 - 53 + s;
		if (t >= 0) {
			if (t >= 64 || x >> (127 - t))
				return 0;
			x <<= t;
		} else if (t > -128) {
			rem = x & (((u128)1 << -t) - 1);
			half = (u128)1 << (-t - 1);
			x >>= -t;
		} else {
			return 0;
		}
		/* x is floor(a * 10^s): P digits, or e10 was off by one */
		if (x < pow10[precision - 1]) {
			e10--;
			continue;
		}
		if (x >= pow10[precision]) {
			e10++;
			continue;
		}
		n = (uint64_t)x;
		up = rem > half || (rem == half && half && (n & 1));
		break;
	}
	if (up && ++n == pow10[precision]) {
		n = pow10[precision - 1];
		e10++;
	}
	for (nd = precision; nd > 0; nd--, n /= 10)
		digits[nd - 1] = (char)('0' + n % 10);
	/* %g drops trailing zeros, and the point when nothing follows it */
	for (last = precision; last > 1 && digits[last - 1] == '0'; last--)
		;
	if (signbit(v))
		*o++ = '-';
	if (e10 < -4 || e10 >= precision) {
		int x = e10 < 0 ? -e10 : e10;

		*o++ = digits[0];
		if (last > 1) {
			*o++ = '.';
			memcpy(o, digits + 1, (size_t)last - 1);
			o += last - 1;
		}
		*o++ = 'e';
		*o++ = e10 < 0 ? '-' : '+';
		if (x >= 100)
			*o++ = (char)('0' + x / 100);
		*o++ = (char)('0' + x / 10 % 10);
		*o++ = (char)('0' + x % 10);
	} else if (e10 >= 0) {
		memcpy(o, digits, (size_t)e10 + 1);
		o += e10 + 1;
		if (last > e10 + 1) {
			*o++ = '.';
			memcpy(o, digits + e10 + 1, (size_t)(last - e10 - 1));
			o += last - e10 - 1;
		}
	} else {
		*o++ = '0';
		*o++ = '.';
		for (int i = 0; i < -e10 - 1; i++)
			*o++ = '0';
		memcpy(o, digits, (size_t)last);
		o += last;
	}
	return (size_t)(o - tmp);
}
#else
static size_t format_g_exact(char *tmp, int precision, double v)
{
	(void)tmp, (void)precision, (void)v;
	return 0;
}
#endif

size_t spaa_format_double(char *buf, size_t size, char conv, int precision,
			  double v)
{
	char tmp[400], *p, *q;
	size_t n;

	if (conv == 'g' && (n = format_g_exact(tmp, precision, v)) > 0) {
		if (!size)
			return 0;
		if (n >= size)
			n = size - 1;
		memcpy(buf, tmp, n);
		buf[n] = '\0';
		return n;
	}
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
