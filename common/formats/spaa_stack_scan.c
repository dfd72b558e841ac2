#include <string.h>

#include "formats/spaa_scan_lex.h"
#include "formats/spaa_stack_scan.h"
#include "model/util.h"

/* The keys of one kind of object, each with its length. */
struct key {
	const char *name;
	uint8_t len;
};

#define KEY(s) { s, sizeof(s) - 1 }

enum { SK_TYPE, SK_ID, SK_FRAMES, SK_STACK_TYPE, SK_CONTEXT, SK_WEIGHTS, SK_EXCLUSIVE };
static const struct key stack_keys[] = {
	KEY("type"), KEY("id"), KEY("frames"), KEY("stack_type"), KEY("context"),
	KEY("weights"), KEY("exclusive"), { NULL, 0 },
};

/* The names of enum spaa_stack_type, in its order. */
static const struct key stack_types[] = {
	KEY("unified"), KEY("user"), KEY("kernel"), { NULL, 0 },
};

enum { CK_EVENT, CK_PID, CK_TID, CK_CPU, CK_COMM };
static const struct key context_keys[] = {
	KEY("event"), KEY("pid"), KEY("tid"), KEY("cpu"), KEY("comm"), { NULL, 0 },
};

enum { WK_METRIC, WK_UNIT, WK_VALUE };
static const struct key weight_keys[] = {
	KEY("metric"), KEY("unit"), KEY("value"), { NULL, 0 },
};

enum { XK_FRAME, XK_WEIGHTS };
static const struct key exclusive_keys[] = {
	KEY("frame"), KEY("weights"), { NULL, 0 },
};

enum { MEMBER_END = -1, MEMBER_BAD = -2 };

/*
 * The next member of the object whose '{' is behind *pc: the index of
 * its key in keys, *pc then at its value; MEMBER_END past the closing
 * brace; MEMBER_BAD for anything else, a key not in keys and a key seen
 * before among them.  *seen (0 before the first member) has a bit per
 * key seen.
 */
static int member(const char **pc, const char *end, const struct key *keys,
		  unsigned *seen)
{
	const char *c = lex_ws(*pc, end);
	int k;

	if (c == end)
		return MEMBER_BAD;
	if (*c == '}') {
		*pc = c + 1;
		return MEMBER_END;
	}
	if (*seen) {
		if (*c++ != ',')
			return MEMBER_BAD;
		c = lex_ws(c, end);
	}
	if (c == end || *c++ != '"')
		return MEMBER_BAD;
	for (k = 0; keys[k].name; k++)
		if ((size_t)(end - c) > keys[k].len && c[keys[k].len] == '"' &&
		    !memcmp(c, keys[k].name, keys[k].len))
			break;
	if (!keys[k].name || (*seen & 1u << k))
		return MEMBER_BAD;
	*seen |= 1u << k;
	c = lex_ws(c + keys[k].len + 1, end);
	if (c == end || *c++ != ':')
		return MEMBER_BAD;
	c = lex_ws(c, end);
	*pc = c;
	return c == end ? MEMBER_BAD : k;
}

/* Moves past the '{' or '[' (open) at *pc. */
static bool expect(const char **pc, const char *end, char open)
{
	if (*pc == end || **pc != open)
		return false;
	++*pc;
	return true;
}

/* A plain string at *pc, as an offset into line. */
static bool text(const char **pc, const char *end, const char *line,
		 struct spaa_stack_scan_text *t)
{
	struct lex_field f;

	if (*pc == end || **pc != '"' || !(*pc = lex_string(*pc, end, &f)))
		return false;
	t->off = (uint32_t)(f.str - line);
	t->len = f.len;
	return true;
}

/* An integer of up to 18 digits at *pc; signed when sign. */
static bool integer(const char **pc, const char *end, bool sign, int64_t *out)
{
	struct lex_field f;
	struct lex_num n;

	if (!(*pc = lex_number(*pc, end, &f, &n)) || !lex_int(&n) || (n.neg && !sign))
		return false;
	*out = n.neg ? -(int64_t)n.ip : (int64_t)n.ip;
	return true;
}

static bool u64(const char **pc, const char *end, uint64_t *out)
{
	int64_t v;

	if (!integer(pc, end, false, &v))
		return false;
	*out = (uint64_t)v;
	return true;
}

/* The ',' or ']' after an array's element; *done at ']'. */
static bool element_end(const char **pc, const char *end, bool *done)
{
	const char *c = lex_ws(*pc, end);

	if (c == end || (*c != ',' && *c != ']'))
		return false;
	*done = *c == ']';
	*pc = lex_ws(c + 1, end);
	return true;
}

/* An array's '[' and whether it is empty (then past its ']'). */
static bool array_open(const char **pc, const char *end, bool *empty)
{
	if (!expect(pc, end, '['))
		return false;
	*pc = lex_ws(*pc, end);
	*empty = *pc < end && **pc == ']';
	*pc += *empty;
	return true;
}

static bool frames(const char **pc, const char *end, struct spaa_stack_scan *st)
{
	bool done;

	if (!array_open(pc, end, &done))
		return false;
	for (st->nframes = 0; !done; st->nframes++)
		if (st->nframes == SPAA_STACK_SCAN_FRAMES ||
		    !u64(pc, end, &st->frames[st->nframes]) ||
		    !element_end(pc, end, &done))
			return false;
	return true;
}

static bool weight(const char **pc, const char *end, const char *line,
		   struct spaa_stack_scan_weight *w)
{
	unsigned seen = 0;
	int k;

	if (!expect(pc, end, '{'))
		return false;
	w->unit.off = 0;
	while ((k = member(pc, end, weight_keys, &seen)) >= 0) {
		if (k == WK_VALUE ? !u64(pc, end, &w->value) :
		    !text(pc, end, line, k == WK_METRIC ? &w->metric : &w->unit))
			return false;
	}
	/* without them the general path has an error to give */
	return k == MEMBER_END && (seen & 1u << WK_METRIC) && (seen & 1u << WK_VALUE);
}

static bool weights(const char **pc, const char *end, const char *line,
		    struct spaa_stack_scan_weight *w, uint8_t *n)
{
	bool done;

	if (!array_open(pc, end, &done))
		return false;
	for (*n = 0; !done; ++*n) {
		if (*n == SPAA_STACK_SCAN_WEIGHTS || !weight(pc, end, line, &w[*n]) ||
		    !element_end(pc, end, &done))
			return false;
	}
	return true;
}

static bool context(const char **pc, const char *end, const char *line,
		    struct spaa_stack_scan *st)
{
	unsigned seen = 0;
	int k;

	if (!expect(pc, end, '{'))
		return false;
	while ((k = member(pc, end, context_keys, &seen)) >= 0) {
		bool ok;

		switch (k) {
		case CK_EVENT:
			ok = text(pc, end, line, &st->event);
			break;
		case CK_COMM:
			ok = text(pc, end, line, &st->comm);
			break;
		default:
			ok = integer(pc, end, true, k == CK_PID ? &st->pid :
				     k == CK_TID ? &st->tid : &st->cpu);
		}
		if (!ok)
			return false;
	}
	return k == MEMBER_END;
}

static bool exclusive(const char **pc, const char *end, const char *line,
		      struct spaa_stack_scan *st)
{
	unsigned seen = 0;
	int k;

	if (!expect(pc, end, '{'))
		return false;
	while ((k = member(pc, end, exclusive_keys, &seen)) >= 0) {
		if (k == XK_FRAME ? !u64(pc, end, &st->excl_frame) :
		    !weights(pc, end, line, st->excl, &st->nexcl))
			return false;
	}
	st->has_excl = true;
	return k == MEMBER_END && seen == (1u << XK_FRAME | 1u << XK_WEIGHTS);
}

/* A stack_type of stack_types; any other is the general path's error. */
static bool stack_type(const char **pc, const char *end, const char *line,
		       enum spaa_stack_type *type)
{
	struct spaa_stack_scan_text t;

	if (!text(pc, end, line, &t))
		return false;
	for (int i = 0; stack_types[i].name; i++)
		if (t.len == stack_types[i].len && !memcmp(line + t.off, stack_types[i].name, t.len)) {
			*type = (enum spaa_stack_type)i;
			return true;
		}
	return false;
}

/* The id: a plain string's bytes, or a number's text. */
static bool stack_id(const char **pc, const char *end, const char *line,
		     struct spaa_stack_scan_text *id)
{
	struct lex_field f;
	struct lex_num n;

	if (*pc < end && **pc == '"')
		return text(pc, end, line, id);
	if (!(*pc = lex_number(*pc, end, &f, &n)))
		return false;
	id->off = (uint32_t)(f.str - line);
	id->len = f.len;
	return true;
}

bool spaa_stack_scan_line(const char *line, size_t len, struct spaa_stack_scan *st)
{
	const char *c = line, *end = line + len;
	struct spaa_stack_scan_text type = { 0, 0 };
	unsigned seen = 0;
	int k;

	/* offsets into the line are 32-bit; SPAA_MAX_LINE may allow more */
	if (len > UINT32_MAX)
		return false;
	st->event.off = st->comm.off = 0;
	st->pid = st->tid = st->cpu = SPAA_NO_ID;
	st->type = SPAA_STACK_UNIFIED;
	st->nexcl = 0;
	st->has_excl = false;
	c = lex_ws(c, end);
	if (!expect(&c, end, '{'))
		return false;
	while ((k = member(&c, end, stack_keys, &seen)) >= 0) {
		bool ok = false;

		switch (k) {
		case SK_TYPE:
			ok = text(&c, end, line, &type);
			break;
		case SK_ID:
			ok = stack_id(&c, end, line, &st->id);
			break;
		case SK_FRAMES:
			ok = frames(&c, end, st);
			break;
		case SK_STACK_TYPE:
			ok = stack_type(&c, end, line, &st->type);
			break;
		case SK_CONTEXT:
			ok = context(&c, end, line, st);
			break;
		case SK_WEIGHTS:
			ok = weights(&c, end, line, st->weights, &st->nweights);
			break;
		case SK_EXCLUSIVE:
			ok = exclusive(&c, end, line, st);
			break;
		}
		if (!ok)
			return false;
	}
	return k == MEMBER_END && lex_ws(c, end) == end &&
	       (seen & 1u << SK_ID) && (seen & 1u << SK_FRAMES) &&
	       (seen & 1u << SK_WEIGHTS) && type.len == 5 &&
	       !memcmp(line + type.off, "stack", 5);
}
