/*
 * gate - conditions on a comparison that fail a CI job (spaa-diff
 * --fail-if): "this change made the program slower".
 *
 * A condition is written
 *
 *     [NAME:]share+>Npp    a function's self share grew by more than N
 *                          percentage points (share-> : shrank)
 *     total+>N%            the whole profile's weight grew by more than
 *                          N percent (total-> : shrank)
 *
 * N a decimal number.  NAME (everything before the last ':') is a POSIX
 * extended regex matched anywhere in the function name ("hash_phase"
 * matches "hash_phase.constprop.0"); without it, every function.
 * Several conditions hold when any does.
 *
 * Noise: a change within the sampling error of the two profiles never
 * trips a condition.  With Nb and Nt the samples of each side, a share p
 * estimated from N samples has the binomial variance p (1 - p) / N, so a
 * share delta is within noise when
 *
 *     |tshare - bshare| <= 3 sqrt(bshare (1 - bshare) / Nb + tshare (1 - tshare) / Nt)
 *
 * and a total, a Poisson count, when |ttotal / btotal - 1| <= 3 sqrt(1 / Nb
 * + 1 / Nt).  Three standard deviations: a change this large arises from
 * sampling alone about 3 times in 1000.  Without sample counts (stack
 * records without them) there is no estimate: the noise is 0.
 *
 * Ownership: a gate owns its conditions and their compiled regexes and
 * borrows the condition texts (argv); spaa_gate_release frees and zeroes
 * it, and a zeroed gate may be released.
 */
#ifndef SPAA_GATE_H
#define SPAA_GATE_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/error.h"

enum spaa_gate_kind {
	SPAA_GATE_SHARE,        /* a function's self share, in fractions */
	SPAA_GATE_TOTAL,        /* the profile's total, relative */
};

struct spaa_gate_cond {
	const char *text;       /* weak: as given */
	enum spaa_gate_kind kind;
	int sign;               /* +1: grew, -1: shrank */
	double threshold;       /* fraction: 2pp is 0.02, 10% is 0.10 */
	bool has_name;
	regex_t name;           /* owned when has_name */
};

struct spaa_gate {
	struct spaa_gate_cond *conds;   /* owned */
	size_t n;
};

/*
 * Parses the n condition texts into g (initialized here; release it
 * after a failure too).  SPAA_E_USAGE: "invalid '--fail-if' condition
 * 'x': expected [NAME:]share+>Npp or total+>N% (+ grew, - shrank)",
 * "... 'a:total+>1%': NAME: goes with share", an invalid regex.
 */
int spaa_gate_parse(struct spaa_gate *g, const char *const *texts, size_t n,
		    struct spaa_error *err);
void spaa_gate_release(struct spaa_gate *g);

/* The noise bounds above (0 when a count is 0). */
double spaa_gate_share_noise(double bshare, uint64_t nb, double tshare, uint64_t nt);
double spaa_gate_total_noise(uint64_t nb, uint64_t nt);

/*
 * What condition c makes of a change (share delta, or relative change of
 * the total) with its noise bound: SPAA_GATE_HELD (not past the
 * threshold in c's direction), SPAA_GATE_NOISE (past it, within noise) or
 * SPAA_GATE_TRIPPED.
 */
enum spaa_gate_verdict { SPAA_GATE_HELD, SPAA_GATE_NOISE, SPAA_GATE_TRIPPED };

enum spaa_gate_verdict spaa_gate_judge(const struct spaa_gate_cond *c,
				       double change, double noise);

/* Whether c is about function name (a share condition whose NAME matches). */
bool spaa_gate_applies(const struct spaa_gate_cond *c, const char *name);

#endif
