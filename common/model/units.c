#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/units.h"
#include "model/util.h"

static const struct {
	const char *name;
	int64_t ns;
	int digits;             /* decimal places a value in this unit may have */
} units[] = {
	{ "s", 1000000000, 9 }, { "ms", 1000000, 6 }, { "us", 1000, 3 }, { "ns", 1, 0 },
};

#define NUNITS (sizeof(units) / sizeof(units[0]))
#define US 2                    /* the index of "us" */

/*
 * The unit named s, or NUNITS.  Microseconds are also written as people
 * write them (and as the text tables show them): with the micro sign
 * U+00B5 or the Greek mu U+03BC, which look the same.
 */
static size_t unit_index(const char *s)
{
	size_t u;

	if (!strcmp(s, "\xc2\xb5s") || !strcmp(s, "\xce\xbcs"))
		return US;
	for (u = 0; u < NUNITS && strcmp(s, units[u].name); u++)
		;
	return u;
}

/* Digits at s, as far as they go; returns how many. */
static size_t digits(const char *s)
{
	size_t n = 0;

	while (s[n] >= '0' && s[n] <= '9')
		n++;
	return n;
}

int spaa_units_parse_duration(const char *s, int64_t *ns)
{
	size_t nint = digits(s), nfrac = 0;
	const char *frac = NULL, *unit;
	uint64_t v = 0;
	size_t u;

	if (!nint)
		return -1;
	unit = s + nint;
	if (*unit == '.') {
		frac = unit + 1;
		nfrac = digits(frac);
		if (!nfrac)
			return -1;
		unit = frac + nfrac;
	}
	u = unit_index(unit);
	if (u == NUNITS)
		return -1;
	/* the fraction must end within the nanosecond: trailing zeros are fine */
	while (nfrac > (size_t)units[u].digits && frac[nfrac - 1] == '0')
		nfrac--;
	if (nfrac > (size_t)units[u].digits)
		return -1;
	for (size_t i = 0; i < nint; i++)
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (uint64_t)(s[i] - '0'), &v))
			return -1;
	if (__builtin_mul_overflow(v, (uint64_t)units[u].ns, &v))
		return -1;
	/* each fraction digit i is worth unit / 10^(i+1) ns, an integer here */
	for (size_t i = 0, place = (size_t)units[u].ns / 10; i < nfrac; i++, place /= 10)
		if (__builtin_add_overflow(v, (uint64_t)(frac[i] - '0') * place, &v))
			return -1;
	if (v > (uint64_t)INT64_MAX)
		return -1;
	*ns = (int64_t)v;
	return 0;
}

int spaa_units_parse_decimal(const char *s, double *out)
{
	size_t nint = digits(s);
	char *end;
	double v;

	if (!nint)
		return -1;
	if (s[nint] == '.') {
		size_t nfrac = digits(s + nint + 1);

		if (!nfrac || s[nint + 1 + nfrac])
			return -1;
	} else if (s[nint]) {
		return -1;
	}
	/* the text is now plain digits, which strtod reads the same in any locale */
	v = strtod(s, &end);
	if (*end || !(v >= 0 && v <= 1e300))
		return -1;
	*out = v;
	return 0;
}

char *spaa_units_format_duration(int64_t ns, char *buf, size_t size)
{
	size_t u = 0;
	int64_t whole, rest;
	int at, places;
	char frac[16];

	if (ns < 0)
		ns = 0;
	while (u + 1 < NUNITS && ns < units[u].ns)
		u++;
	whole = ns / units[u].ns;
	rest = ns % units[u].ns;
	if (!rest) {
		snprintf(buf, size, "%lld%s", (long long)whole, units[u].name);
		return buf;
	}
	places = units[u].digits;
	at = snprintf(frac, sizeof(frac), "%0*lld", places, (long long)rest);
	while (at > 0 && frac[at - 1] == '0')
		frac[--at] = '\0';
	snprintf(buf, size, "%lld.%s%s", (long long)whole, frac, units[u].name);
	return buf;
}
