/*
 * units - command-line quantities: durations ("10ms", "2s", "1.5s",
 * "500us") and plain non-negative decimals ("0.05"), parsed exactly, and
 * durations written back the same way for titles.
 *
 * Parsing is strict, like spaa_parse_u64: the whole string must match,
 * no sign, no spaces, no exponent, and a duration must carry its unit
 * (ns, us, ms, s), because a bare "10" is ambiguous between the units a
 * user may have in mind.
 */
#ifndef SPAA_UNITS_H
#define SPAA_UNITS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Parses DIGITS[.DIGITS]UNIT with UNIT one of ns, us (also µs, with
 * U+00B5 or U+03BC), ms, s into nanoseconds.  Returns -1 for anything else, for a value finer than a
 * nanosecond ("1.5ns") and for one beyond INT64_MAX ns.  "0s" is valid:
 * callers that need a positive duration check for 0 themselves.
 */
int spaa_units_parse_duration(const char *s, int64_t *ns);

/* Parses DIGITS[.DIGITS] into a finite double >= 0.  Returns 0 or -1. */
int spaa_units_parse_decimal(const char *s, double *out);

/*
 * Writes ns (>= 0) into buf in the largest unit that keeps it >= 1,
 * exactly, without trailing zeros: 100000000 -> "100ms", 1500000000 ->
 * "1.5s", 2048000 -> "2.048ms", 999 -> "999ns".  Truncates to size (at
 * least 32 bytes always suffice).  Returns buf.
 */
char *spaa_units_format_duration(int64_t ns, char *buf, size_t size);

#endif
