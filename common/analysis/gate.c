/*
 * gate - --fail-if conditions: parsing and judging; the rules are in
 * gate.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/gate.h"
#include "model/units.h"
#include "model/util.h"

#define NOISE_SIGMAS 3.0

static int bad(struct spaa_error *err, const char *text, const char *why)
{
	return spaa_error_set(err, SPAA_E_USAGE,
			      "invalid '--fail-if' condition '%s': %s", text, why);
}

/* "share+>2pp" or "total->10%" (without NAME:) into c. */
static int parse_test(struct spaa_gate_cond *c, const char *s, struct spaa_error *err)
{
	static const char expected[] =
		"expected [NAME:]share+>Npp or total+>N% (+ grew, - shrank)";
	const char *unit;
	char num[64];
	size_t len;

	if (!strncmp(s, "share", 5)) {
		c->kind = SPAA_GATE_SHARE;
		unit = "pp";
	} else if (!strncmp(s, "total", 5)) {
		c->kind = SPAA_GATE_TOTAL;
		unit = "%";
	} else {
		return bad(err, c->text, expected);
	}
	s += 5;
	if ((s[0] != '+' && s[0] != '-') || s[1] != '>')
		return bad(err, c->text, expected);
	c->sign = s[0] == '+' ? 1 : -1;
	s += 2;
	len = strlen(s);
	if (len <= strlen(unit) || strcmp(s + len - strlen(unit), unit) ||
	    len - strlen(unit) >= sizeof(num))
		return bad(err, c->text, expected);
	memcpy(num, s, len - strlen(unit));
	num[len - strlen(unit)] = '\0';
	if (spaa_units_parse_decimal(num, &c->threshold))
		return bad(err, c->text, expected);
	c->threshold /= 100;
	return 0;
}

static int parse_one(struct spaa_gate_cond *c, const char *text, struct spaa_error *err)
{
	/* the test after the last ':', so that names may hold colons (C++) */
	const char *colon = strrchr(text, ':');
	char *name;
	int rc;

	c->text = text;
	if (parse_test(c, colon ? colon + 1 : text, err))
		return -1;
	if (!colon)
		return 0;
	if (c->kind != SPAA_GATE_SHARE)
		return bad(err, text, "NAME: goes with share");
	name = spaa_xmalloc((size_t)(colon - text) + 1);
	memcpy(name, text, (size_t)(colon - text));
	name[colon - text] = '\0';
	rc = regcomp(&c->name, name, REG_EXTENDED | REG_NOSUB);
	free(name);
	if (rc) {
		char msg[256];

		regerror(rc, &c->name, msg, sizeof(msg));
		return bad(err, text, msg);
	}
	c->has_name = true;
	return 0;
}

int spaa_gate_parse(struct spaa_gate *g, const char *const *texts, size_t n,
		    struct spaa_error *err)
{
	g->conds = spaa_xcalloc(n + 1, sizeof(*g->conds));
	g->n = 0;
	for (size_t i = 0; i < n; i++) {
		if (parse_one(&g->conds[i], texts[i], err))
			return -1;
		g->n++;
	}
	return 0;
}

void spaa_gate_release(struct spaa_gate *g)
{
	for (size_t i = 0; i < g->n; i++)
		if (g->conds[i].has_name)
			regfree(&g->conds[i].name);
	free(g->conds);
	g->conds = NULL;
	g->n = 0;
}

double spaa_gate_share_noise(double bshare, uint64_t nb, double tshare, uint64_t nt)
{
	if (!nb || !nt)
		return 0;
	return NOISE_SIGMAS * sqrt(bshare * (1 - bshare) / (double)nb +
				   tshare * (1 - tshare) / (double)nt);
}

double spaa_gate_total_noise(uint64_t nb, uint64_t nt)
{
	if (!nb || !nt)
		return 0;
	return NOISE_SIGMAS * sqrt(1 / (double)nb + 1 / (double)nt);
}

enum spaa_gate_verdict spaa_gate_judge(const struct spaa_gate_cond *c,
				       double change, double noise)
{
	if (!(c->sign * change > c->threshold))
		return SPAA_GATE_HELD;
	return fabs(change) <= noise ? SPAA_GATE_NOISE : SPAA_GATE_TRIPPED;
}

bool spaa_gate_applies(const struct spaa_gate_cond *c, const char *name)
{
	return c->kind == SPAA_GATE_SHARE &&
	       (!c->has_name || !regexec(&c->name, name, 0, NULL, 0));
}
