/*
 * util - allocation, checked arithmetic and small helpers used everywhere.
 *
 * Allocation failure is the one condition common/ does not report through
 * struct spaa_error: the spaa_x* allocators print one line on stderr and
 * abort(), because every caller would otherwise need an error path for a
 * condition nobody can recover from (git's xmalloc makes the same choice).
 * Blocks of 2 MiB and more are advised to use huge pages (MADV_HUGEPAGE:
 * fewer page faults; util.c says why).
 */
#ifndef SPAA_UTIL_H
#define SPAA_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "model/banned.h"

void *spaa_xmalloc(size_t n);
void *spaa_xcalloc(size_t nmemb, size_t size);
void *spaa_xrealloc(void *p, size_t n);
/* n bytes aligned on align (a power of two); freed with free(). */
void *spaa_xaligned_alloc(size_t align, size_t n);
/* Returns a malloc'ed copy of s; the caller owns it. */
char *spaa_xstrdup(const char *s);
char *spaa_xstrndup(const char *s, size_t n);

/* An absent index (into a model's arrays, a map or a strtab). */
#define SPAA_NONE UINT32_MAX
/* An absent pid, tid or CPU. */
#define SPAA_NO_ID INT64_MIN

#define SPAA_FREE_AND_NULL(p) do { free(p); (p) = NULL; } while (0)

/*
 * Grows array x (with *alloc slots) so that it holds at least nr elements;
 * amortized doubling.  x may be NULL with *alloc == 0.
 */
#define SPAA_ALLOC_GROW(x, nr, alloc) \
	do { \
		if ((size_t)(nr) > (alloc)) { \
			size_t spaa_new_ = (alloc) ? (alloc) * 2 : 16; \
			if (spaa_new_ < (size_t)(nr)) \
				spaa_new_ = (size_t)(nr); \
			(x) = spaa_xrealloc((x), spaa_new_ * sizeof(*(x))); \
			(alloc) = spaa_new_; \
		} \
	} while (0)

/*
 * Sorts n elements of size bytes at base by cmp, which gets ctx: qsort
 * with a context argument, which C11's qsort lacks.  A merge sort, so
 * stable; it allocates n elements of scratch.
 */
void spaa_sort(void *base, size_t n, size_t size,
	       int (*cmp)(const void *a, const void *b, const void *ctx),
	       const void *ctx);

/*
 * Returns 0 and stores a + b in *out, or -1 if the sum overflows, *out
 * then unchanged (a total that refuses a value keeps the sum it had).
 */
static inline int spaa_add_u64(uint64_t a, uint64_t b, uint64_t *out)
{
	uint64_t sum;

	if (__builtin_add_overflow(a, b, &sum))
		return -1;
	*out = sum;
	return 0;
}

/*
 * The duration from begin to end in ns (plus extra: 1 for an inclusive
 * end), or -1 when it does not fit int64 (times near both ends of the
 * range, 292 years apart).  Times are int64 ns; their differences are
 * not.
 */
static inline int spaa_time_span(int64_t begin, int64_t end, int64_t extra,
				 int64_t *out)
{
	int64_t d;

	if (__builtin_sub_overflow(end, begin, &d) ||
	    __builtin_add_overflow(d, extra, &d))
		return -1;
	*out = d;
	return 0;
}

/* v * num / den rounded to nearest, exact (128-bit intermediate). */
static inline uint64_t spaa_share_of(uint64_t v, uint64_t num, uint64_t den)
{
	if (num == den)
		return v;
	return (uint64_t)(((unsigned __int128)v * num + den / 2) / den);
}

/*
 * Parses a decimal integer that must fill the whole string (no sign for
 * the unsigned variant, optional '-' for the signed one).  Returns 0 or -1.
 */
int spaa_parse_u64(const char *s, uint64_t *out);
int spaa_parse_i64(const char *s, int64_t *out);

/*
 * Length of the valid UTF-8 sequence at s (1 to 4, n bytes available),
 * its code point in *cp; or, when it is not valid, minus the length of
 * its "maximal subpart": the longest prefix that could still have begun
 * a valid sequence (at least one byte).  Replacing each maximal subpart
 * by one U+FFFD is the practice Unicode recommends and what Python's
 * "replace" and WHATWG decoders do, so a bad byte never swallows the
 * valid characters after it.  Overlong forms, surrogates and code points
 * above U+10FFFF are invalid.
 */
int spaa_utf8_seq(const unsigned char *s, size_t n, uint32_t *cp);

/*
 * The cells a terminal gives code point cp: 2 for East Asian Wide and
 * Fullwidth characters (CJK, Hangul, kana, fullwidth forms, emoji), 0 for
 * combining marks and zero-width format characters (they join the
 * character before them), 1 for the rest.  What wcwidth() answers in a
 * UTF-8 locale, without depending on the locale the program runs in.
 */
int spaa_utf8_cp_cells(uint32_t cp);

/*
 * The cells of s[0..n) on a terminal (spaa_utf8_cp_cells of each code
 * point); an invalid sequence counts as the one cell of its U+FFFD.
 */
size_t spaa_utf8_cells(const char *s, size_t n);

/*
 * snprintf's "%.*f" (conv 'f') or "%.*g" (conv 'g') of a finite v, with
 * "." as decimal point whatever LC_NUMERIC says.  Returns the length
 * written (truncated to size - 1).
 */
size_t spaa_format_double(char *buf, size_t size, char conv, int precision,
			  double v);

/* A fast 64-bit hash for hash tables; never written to files. */
uint64_t spaa_hash_bytes(const void *p, size_t n);

/*
 * Replaces, in place, each control character of s (C0, DEL, and C1 as
 * UTF-8) by '?': a message quoting the input (a function name such as
 * "\u001b]0;...\u0007") must not reach a terminal as an escape
 * sequence.  Returns s.
 */
char *spaa_clean_controls(char *s);

#define SPAA_ONES ((uint64_t)0x0101010101010101ULL)
#define SPAA_HIGHS ((uint64_t)0x8080808080808080ULL)

/*
 * For 8 bytes in w (as memcpy loads them): the high bit of each byte
 * that is '"', '\\', below 0x20 or above 0x7f, the bytes a JSON string
 * cannot take or give as they are.  The subtraction tricks can flag false
 * positives, but only in bytes above a true hit, so the lowest flagged
 * byte is exact.
 */
static inline uint64_t spaa_swar_special(uint64_t w)
{
	uint64_t q = w ^ (SPAA_ONES * '"');
	uint64_t b = w ^ (SPAA_ONES * '\\');

	return (((q - SPAA_ONES) & ~q) | ((b - SPAA_ONES) & ~b) |
		((w - SPAA_ONES * 0x20) & ~w) | w) & SPAA_HIGHS;
}

/* The high bit of each byte of w that is not an ASCII digit (exact). */
static inline uint64_t spaa_swar_nondigit(uint64_t w)
{
	/* a digit: high nibble 3, and a low nibble that + 6 stays below 16 */
	uint64_t x = ((w & (SPAA_ONES * 0xf0)) ^ (SPAA_ONES * 0x30)) |
		     (((w & (SPAA_ONES * 0x0f)) + SPAA_ONES * 0x06) & (SPAA_ONES * 0xf0));

	/* nonzero bytes to their high bit; no carry crosses a byte */
	return (((x & ~SPAA_HIGHS) + ~SPAA_HIGHS) | x) & SPAA_HIGHS;
}

/* Index of the first flagged byte in a nonzero spaa_swar_*() mask. */
static inline size_t spaa_swar_first(uint64_t m)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return (size_t)__builtin_clzll(m) / 8;
#else
	return (size_t)__builtin_ctzll(m) / 8;
#endif
}

#endif
