#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "model/sbuf.h"
#include "model/util.h"
#include "report/textout.h"

/* ---- human units ---------------------------------------------------- */

struct unit_step {
	const char *name;
	uint64_t scale;
};

static const struct unit_step time_units[] = {
	{ "ns", 1 }, { "\xc2\xb5s", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
};

static const struct unit_step size_units[] = {
	{ "B", 1 }, { "KiB", UINT64_C(1) << 10 }, { "MiB", UINT64_C(1) << 20 },
	{ "GiB", UINT64_C(1) << 30 }, { "TiB", UINT64_C(1) << 40 },
	{ "PiB", UINT64_C(1) << 50 }, { "EiB", UINT64_C(1) << 60 },
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Removes trailing zeros after a decimal point, and the point itself. */
static void strip_zeros(char *s)
{
	char *end;

	if (!strchr(s, '.'))
		return;
	end = s + strlen(s);
	while (end[-1] == '0')
		*--end = '\0';
	if (end[-1] == '.')
		end[-1] = '\0';
}

/*
 * mag in the largest unit it reaches, with 3 significant digits, rounded
 * half up in exact integer arithmetic (a double would turn 1.005 into
 * 1.00499...).  The smallest unit is exact.
 */
static char *scaled(uint64_t mag, bool neg, const struct unit_step *u,
		    size_t nu, char *buf, size_t size)
{
	static const unsigned pow10[] = { 1, 10, 100 };
	unsigned __int128 q = 0;
	size_t k = 0;
	int d = 0;
	char num[48];

	while (k + 1 < nu && mag >= u[k + 1].scale)
		k++;
	if (!k) {
		snprintf(buf, size, "%s%" PRIu64 " %s", neg ? "-" : "", mag, u[0].name);
		return buf;
	}
	for (;;) {
		uint64_t ip = mag / u[k].scale;

		d = ip < 10 ? 2 : ip < 100 ? 1 : 0;
		for (;;) {
			q = ((unsigned __int128)mag * pow10[d] + u[k].scale / 2) /
			    u[k].scale;
			/* 9.995 rounds to 10.00: one digit too many */
			if (q < 1000 || !d)
				break;
			d--;
		}
		/* 999.95 ms is "1 s", 1000 KiB "0.98 MiB" */
		if (q < 1000 || k + 1 == nu)
			break;
		k++;
	}
	snprintf(num, sizeof(num), "%" PRIu64 ".%0*u", (uint64_t)(q / pow10[d]),
		 d, (unsigned)(q % pow10[d]));
	if (!d)
		*strchr(num, '.') = '\0';
	strip_zeros(num);
	snprintf(buf, size, "%s%s %s", neg ? "-" : "", num, u[k].name);
	return buf;
}

static uint64_t magnitude(int64_t v)
{
	return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

char *spaa_textout_duration(int64_t ns, char *buf, size_t size)
{
	return scaled(magnitude(ns), ns < 0, time_units, NELEM(time_units),
		      buf, size);
}

char *spaa_textout_size(int64_t bytes, char *buf, size_t size)
{
	return scaled(magnitude(bytes), bytes < 0, size_units, NELEM(size_units),
		      buf, size);
}

/* v as a percentage with one decimal, without the sign of the unit. */
static char *percent(double v, char *buf, size_t size)
{
	double tenths = round(v * 1000);        /* ties away from zero: 31.25 -> 31.3 */
	uint64_t mag;

	if (fabs(tenths) >= 1e18) {
		spaa_format_double(buf, size, 'f', 1, v * 100);
	} else {
		mag = (uint64_t)fabs(tenths);
		/* a tiny negative share is no reason for a sign: "0.0 %" */
		snprintf(buf, size, "%s%" PRIu64 ".%" PRIu64,
			 tenths < 0 ? "-" : "", mag / 10, mag % 10);
	}
	return buf;
}

char *spaa_textout_ratio(double v, char *buf, size_t size)
{
	char num[SPAA_TEXTOUT_UNIT_BUF];

	snprintf(buf, size, "%s %%", percent(v, num, sizeof(num)));
	return buf;
}

char *spaa_textout_number(double v, const char *unit, char *buf, size_t size)
{
	static const char *const prefixes[] = { "", "k", "M", "G", "T", "P", "E" };
	double mag = fabs(v), x;
	char num[SPAA_TEXTOUT_UNIT_BUF];
	size_t k = 0;
	int d;

	/* signed deltas of durations and sizes (spaa-diff, --net) */
	if (unit && mag < 9e18 && !strcmp(unit, "ns"))
		return spaa_textout_duration(llround(v), buf, size);
	if (unit && mag < 9e18 && !strcmp(unit, "bytes"))
		return spaa_textout_size(llround(v), buf, size);
	if (mag < 1000 && mag == floor(mag)) {
		spaa_format_double(num, sizeof(num), 'f', 0, mag);
	} else if (mag < 1) {
		spaa_format_double(num, sizeof(num), 'g', 3, mag);
	} else {
		while (k + 1 < NELEM(prefixes) && mag >= pow(1000, (double)(k + 1)))
			k++;
		for (;;) {
			x = mag / pow(1000, (double)k);
			d = x < 10 ? 2 : x < 100 ? 1 : 0;
			spaa_format_double(num, sizeof(num), 'f', d, x);
			/* rounding reached the next prefix: 999.7 -> "1k" */
			if (strtod(num, NULL) < 1000 || k + 1 == NELEM(prefixes))
				break;
			k++;
		}
		strip_zeros(num);
	}
	snprintf(buf, size, "%s%s%s%s%s", v < 0 && strcmp(num, "0") ? "-" : "",
		 num, prefixes[k], unit ? " " : "", unit ? unit : "");
	return buf;
}

char *spaa_textout_timestamp(int64_t ns, char *buf, size_t size)
{
	uint64_t mag = magnitude(ns);

	snprintf(buf, size, "%s%" PRIu64 ".%09" PRIu64, ns < 0 ? "-" : "",
		 mag / 1000000000, mag % 1000000000);
	return buf;
}

/* ---- strings ---------------------------------------------------------- */

/*
 * Appends s with invalid UTF-8 replaced by U+FFFD (one per maximal
 * subpart, as the JSON writer does) and, for text, control characters by
 * spaces, which would break the alignment.  Returns the code points
 * appended.
 */
static size_t add_clean(struct spaa_sbuf *b, const char *str, bool text)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len = strlen(str), i = 0, cps = 0;

	while (i < len) {
		uint32_t cp = 0;
		int n = spaa_utf8_seq(s + i, len - i, &cp);

		if (n < 0)
			spaa_sbuf_adds(b, "\xef\xbf\xbd");
		else if (text && (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0)))
			spaa_sbuf_adds(b, " ");
		else
			spaa_sbuf_add(b, str + i, (size_t)n);
		i += (size_t)(n < 0 ? -n : n);
		cps++;
	}
	return cps;
}

/* Cells of the code point at s (valid UTF-8), its length in *len. */
static size_t next_cells(const char *s, size_t *len)
{
	uint32_t cp = 0;
	int n = spaa_utf8_seq((const unsigned char *)s, strlen(s), &cp);

	*len = n < 0 ? (size_t)-n : (size_t)n;
	return n < 0 ? 1 : (size_t)spaa_utf8_cp_cells(cp);
}

/*
 * Byte offset of the end of the longest prefix of s that takes at most
 * n cells; zero-width marks stay with the character before them.
 */
static size_t cells_offset(const char *s, size_t n)
{
	size_t i = 0, len, w;

	while (s[i] && (w = next_cells(s + i, &len)) <= n) {
		n -= w;
		i += len;
	}
	return i;
}

/* The cells s takes on a terminal: a CJK character two, a combining mark none. */
static size_t width_of(const char *s)
{
	return spaa_utf8_cells(s, strlen(s));
}

/* A text cell from a string: cleaned, never cut (the table cuts). */
static char *text_string(const char *s)
{
	struct spaa_sbuf b = { 0 };

	add_clean(&b, s, true);
	return b.s ? spaa_sbuf_detach(&b) : spaa_xstrdup("");
}

/* ---- cutting names ---------------------------------------------------- */

#define ELLIPSIS "\xe2\x80\xa6"

/* A name is cut to no fewer cells than this while a table fits. */
#define MIN_NAME 8

static char *joined(const char *a, size_t alen, const char *b, const char *c)
{
	struct spaa_sbuf s = { 0 };

	spaa_sbuf_add(&s, a, alen);
	spaa_sbuf_adds(&s, b);
	spaa_sbuf_adds(&s, c);
	return spaa_sbuf_detach(&s);
}

/* The longest start of s within max - 1 cells and "…" (max >= 1). */
static char *cut_end(const char *s, size_t max)
{
	if (width_of(s) <= max)
		return spaa_xstrdup(s);
	return joined(s, cells_offset(s, max ? max - 1 : 0), ELLIPSIS, "");
}

static char *cut_path(const char *s, size_t max);

/*
 * A process "name (pid/tid)" keeps its ids: "a_lo… (1/2)", and a name
 * that is a path its file name: "…/run.php (1/2)".
 */
static char *cut_process(const char *s, size_t max)
{
	const char *ids = strrchr(s, '(');
	size_t n = ids ? width_of(ids) : 0;
	char *name, *out;

	if (!ids || ids == s || ids[-1] != ' ' || n + 3 > max)
		return cut_end(s, max);
	name = spaa_xstrndup(s, (size_t)(ids - s - 1));
	out = strchr(name, '/') ? cut_path(name, max - n - 1) : cut_end(name, max - n - 1);
	free(name);
	name = joined(out, strlen(out), " ", ids);
	free(out);
	return name;
}

/* A path keeps its last directories and file name: "…/lib/libc.so.6". */
static char *cut_path(const char *s, size_t max)
{
	const char *p, *base = strrchr(s, '/');

	if (width_of(s) <= max)
		return spaa_xstrdup(s);
	for (p = strchr(s + 1, '/'); p; p = strchr(p + 1, '/'))
		if (width_of(p) + 1 <= max)
			return joined(ELLIPSIS, strlen(ELLIPSIS), p, "");
	return cut_end(base ? base + 1 : s, max);
}

static char *cut_name(const char *s, size_t max);

/*
 * The leftmost ';' at or after from whose tail (from it to the end) has
 * at most budget cells, NULL if none; tail is width_of(from).  One
 * pass: a call path can be thousands of frames deep.
 */
static const char *short_tail(const char *from, size_t tail, size_t budget)
{
	size_t len;

	for (const char *p = from; *p; p += len) {
		if (*p == ';' && tail <= budget)
			return p;
		tail -= next_cells(p, &len);
	}
	return NULL;
}

/*
 * A call path root;...;leaf keeps its root and the frames nearest the
 * leaf ("main;…;parse;leaf"), else those frames alone ("…;parse;leaf"),
 * else its root and its leaf cut as a name ("main;…;std::map<…>::find").
 */
static char *cut_call_path(const char *s, size_t max)
{
	const char *first = strchr(s, ';'), *last = strrchr(s, ';'), *p;
	size_t root = (size_t)(first - s), after = width_of(first);
	size_t root_cp = width_of(s) - after;
	char *leaf, *out;

	if (root_cp + 2 <= max &&
	    (p = short_tail(first + 1, after - 1, max - root_cp - 2)))
		return joined(s, root + 1, ELLIPSIS, p);
	if (max >= 1 && (p = short_tail(first, after, max - 1)))
		return joined(ELLIPSIS, strlen(ELLIPSIS), p, "");
	if (root_cp + 3 + MIN_NAME <= max) {
		size_t keep = first == last ? 1 : 3;  /* "root;" or "root;…;" */

		leaf = cut_name(last + 1, max - root_cp - keep);
		out = joined(s, root + 1, first == last ? "" : ELLIPSIS ";", leaf);
	} else if (max >= 2 + MIN_NAME) {
		leaf = cut_name(last + 1, max - 2);
		out = joined(ELLIPSIS ";", strlen(ELLIPSIS ";"), leaf, "");
	} else {
		return cut_name(last + 1, max);
	}
	free(leaf);
	return out;
}

/*
 * s with the first bracketed group (open ... close, balanced) at or
 * after byte *from whose content is longer than one code point reduced to
 * open "…" close; NULL when there is none.  *from moves past it.
 */
static char *collapse_group(const char *s, char open, char close, size_t *from)
{
	const char *o = strchr(s + *from, open), *c;
	int depth;

	for (; o; o = strchr(o + 1, open)) {
		depth = 0;
		for (c = o; *c; c++) {
			depth += *c == open;
			depth -= *c == close;
			if (!depth)
				break;
		}
		if (!*c)
			return NULL;    /* unbalanced: operator< and the like */
		/* "<>", "<x>" or "<…>": nothing to gain */
		if (c - o - 1 <= (ptrdiff_t)strlen(ELLIPSIS)) {
			size_t len = 0;

			if (c == o + 1 || (next_cells(o + 1, &len), len >= (size_t)(c - o - 1)))
				continue;
		}
		*from = (size_t)(o - s) + 1 + strlen(ELLIPSIS) + 1;
		return joined(s, (size_t)(o - s + 1), ELLIPSIS, c);
	}
	return NULL;
}

/*
 * A function name is cut where it is least useful: C++ template
 * arguments first ("std::map<…>::find"), then parameter lists
 * ("f(…)"), left to right, then its end; a name that is a path keeps
 * its end ("…/scripts/run.php").
 */
static char *cut_name(const char *s, size_t max)
{
	static const char brackets[][2] = { { '<', '>' }, { '(', ')' } };
	char *cur, *next, *out;

	if (strchr(s, ';'))
		return cut_call_path(s, max);
	/* a script's path or a URL (PHP, JavaScript frames) */
	if ((s[0] == '/' || strstr(s, "://")) && strchr(s + 1, '/'))
		return cut_path(s, max);
	cur = spaa_xstrdup(s);
	for (size_t b = 0; b < 2 && width_of(cur) > max; b++) {
		size_t from = 0;

		while (width_of(cur) > max &&
		       (next = collapse_group(cur, brackets[b][0], brackets[b][1], &from))) {
			free(cur);
			cur = next;
		}
	}
	out = cut_end(cur, max);
	free(cur);
	return out;
}

/* ---- text ------------------------------------------------------------- */

static bool right_aligned(enum spaa_lami_class c)
{
	switch (c) {
	case SPAA_LAMI_INT:
	case SPAA_LAMI_NUMBER:
	case SPAA_LAMI_RATIO:
	case SPAA_LAMI_TIMESTAMP:
	case SPAA_LAMI_DURATION:
	case SPAA_LAMI_SIZE:
	case SPAA_LAMI_BITRATE:
	case SPAA_LAMI_CPU:
		return true;
	default:
		return false;
	}
}

static char *process_text(const struct spaa_lami_cell_view *v)
{
	struct spaa_sbuf b = { 0 };
	char ids[64] = "";

	if (v->pid != SPAA_LAMI_NO_ID && v->tid != SPAA_LAMI_NO_ID)
		snprintf(ids, sizeof(ids), "%" PRId64 "/%" PRId64, v->pid, v->tid);
	else if (v->pid != SPAA_LAMI_NO_ID)
		snprintf(ids, sizeof(ids), "%" PRId64, v->pid);
	else if (v->tid != SPAA_LAMI_NO_ID)
		snprintf(ids, sizeof(ids), "?/%" PRId64, v->tid);
	if (!v->str)
		return spaa_xstrdup(ids);
	add_clean(&b, v->str, true);
	if (*ids) {
		spaa_sbuf_adds(&b, " (");
		spaa_sbuf_adds(&b, ids);
		spaa_sbuf_adds(&b, ")");
	}
	return spaa_sbuf_detach(&b);
}

/*
 * Whether a column's unit goes once into its header ("Self (cycles)")
 * rather than into every cell: counts and numbers of one unit.  Signed
 * durations and sizes (unit "ns", "bytes") are written in human units.
 */
static bool unit_in_header(enum spaa_lami_class cls, const char *unit)
{
	if (cls == SPAA_LAMI_RATIO)     /* share deltas in percentage points */
		return unit && !strcmp(unit, "pp");
	return unit && (cls == SPAA_LAMI_INT || cls == SPAA_LAMI_NUMBER) &&
	       strcmp(unit, "ns") && strcmp(unit, "bytes");
}

/* The text of a cell, without the unit of its column; the caller frees it. */
static char *text_cell(const struct spaa_lami_cell_view *v, const char *unit)
{
	char buf[2 * SPAA_TEXTOUT_UNIT_BUF + 8], a[SPAA_TEXTOUT_UNIT_BUF], b[SPAA_TEXTOUT_UNIT_BUF];

	switch (v->kind) {
	case SPAA_LAMI_CELL_EMPTY:
		return spaa_xstrdup("");
	case SPAA_LAMI_CELL_UNKNOWN:
		return spaa_xstrdup("?");
	case SPAA_LAMI_CELL_STRING:
	case SPAA_LAMI_CELL_PATH:
		return text_string(v->str);
	case SPAA_LAMI_CELL_PROCESS:
		return process_text(v);
	case SPAA_LAMI_CELL_INT:
		if (v->big) {   /* past int64, exact */
			snprintf(buf, sizeof(buf), "%" PRIu64, v->u);
			break;
		}
		/* fall through */
	case SPAA_LAMI_CELL_CPU:
		snprintf(buf, sizeof(buf), "%" PRId64, v->i);
		break;
	case SPAA_LAMI_CELL_NUMBER:
		if (unit && (!strcmp(unit, "ns") || !strcmp(unit, "bytes")))
			return spaa_xstrdup(spaa_textout_number(v->d, unit, buf, sizeof(buf)));
		spaa_textout_number(v->d, NULL, buf, sizeof(buf));
		break;
	case SPAA_LAMI_CELL_BOOL:
		return spaa_xstrdup(v->b ? "yes" : "no");
	case SPAA_LAMI_CELL_RATIO:
		if (unit_in_header(SPAA_LAMI_RATIO, unit))
			percent(v->d, buf, sizeof(buf));
		else
			spaa_textout_ratio(v->d, buf, sizeof(buf));
		break;
	case SPAA_LAMI_CELL_TIMESTAMP:
		spaa_textout_timestamp(v->i, buf, sizeof(buf));
		break;
	case SPAA_LAMI_CELL_TIME_RANGE:
		snprintf(buf, sizeof(buf), "[%s, %s]",
			 spaa_textout_timestamp(v->i, a, sizeof(a)),
			 spaa_textout_timestamp(v->end, b, sizeof(b)));
		break;
	case SPAA_LAMI_CELL_DURATION:
	case SPAA_LAMI_CELL_SIZE:
		if (v->big)     /* past int64: exact, in the base unit */
			snprintf(buf, sizeof(buf), "%" PRIu64 " %s", v->u,
				 v->kind == SPAA_LAMI_CELL_SIZE ? "B" : "ns");
		else if (v->kind == SPAA_LAMI_CELL_SIZE)
			spaa_textout_size(v->i, buf, sizeof(buf));
		else
			spaa_textout_duration(v->i, buf, sizeof(buf));
		break;
	}
	return spaa_xstrdup(buf);
}

char *spaa_textout_cell(const struct spaa_lami_cell_view *v, const char *unit)
{
	char *s = text_cell(v, unit), *with;
	enum spaa_lami_class cls = v->kind == SPAA_LAMI_CELL_INT ? SPAA_LAMI_INT :
				   v->kind == SPAA_LAMI_CELL_NUMBER ? SPAA_LAMI_NUMBER :
				   v->kind == SPAA_LAMI_CELL_RATIO ? SPAA_LAMI_RATIO :
				   SPAA_LAMI_STRING;   /* no unit in its header */

	if (!unit_in_header(cls, unit))
		return s;
	with = joined(s, strlen(s), " ", unit);
	free(s);
	return with;
}

/* One column of a text table. */
struct text_col {
	char *head;             /* owned: the title, with the column's unit */
	char **cells;           /* owned: nrows cleaned, uncut texts */
	enum spaa_lami_class cls;
	bool right;
	bool shown;
	bool base_names;        /* paths shown as their file names */
	bool kept;              /* never dropped (spaa_lami_table_keep_column) */
	char **ranges;          /* owned, time ranges only: "BEGIN +DURATION" */
	char **apart;           /* owned, the first column only: " in libc.so.6" or NULL */
	bool short_ranges;      /* time ranges shown as ranges[] */
	size_t width;           /* cells, once fitted */
};

static bool is_name(const struct text_col *c)
{
	return c->cls == SPAA_LAMI_STRING || c->cls == SPAA_LAMI_PATH ||
	       c->cls == SPAA_LAMI_PROCESS || c->cls == SPAA_LAMI_MIXED;
}

static const char *base_name(const char *s)
{
	const char *slash = strrchr(s, '/');

	return slash && slash[1] ? slash + 1 : s;
}

/* Row r's cell before it is cut: the file name of a path, the short form of a range. */
static const char *uncut(const struct text_col *c, size_t r)
{
	if (c->short_ranges)
		return c->ranges[r];
	return c->base_names ? base_name(c->cells[r]) : c->cells[r];
}

static size_t natural_width(const struct text_col *c, size_t nrows)
{
	size_t w = width_of(c->head), r, x;

	for (r = 0; r < nrows; r++) {
		x = width_of(uncut(c, r)) + (c->apart && c->apart[r] ? width_of(c->apart[r]) : 0);
		if (x > w)
			w = x;
	}
	return w;
}

static size_t line_width(const struct text_col *c, size_t ncol)
{
	size_t w = 0, n = 0;

	for (size_t i = 0; i < ncol; i++)
		if (c[i].shown) {
			w += c[i].width;
			n++;
		}
	return n ? w + 2 * (n - 1) : 0;
}

static char *fitted_cell(const struct text_col *c, const char *cell, size_t w,
			 size_t limit);

/*
 * Row r's cell as shown in a column of width w (limit 0: never cut); a
 * name told apart keeps its DSO whole while the name keeps MIN_NAME
 * cells ("parse_ar… in libc.so.6"), else both are cut as one name.
 */
static char *fitted(const struct text_col *c, size_t r, size_t w, size_t limit)
{
	const char *suffix = c->apart ? c->apart[r] : NULL;
	size_t sw = suffix ? width_of(suffix) : 0;
	char *name, *out;

	if (!suffix)
		return fitted_cell(c, uncut(c, r), w, limit);
	if (limit && w < sw + MIN_NAME) {
		name = joined(uncut(c, r), strlen(uncut(c, r)), suffix, "");
		out = fitted_cell(c, name, w, limit);
		free(name);
		return out;
	}
	name = fitted_cell(c, uncut(c, r), limit ? w - sw : 0, limit);
	out = joined(name, strlen(name), suffix, "");
	free(name);
	return out;
}

static char *fitted_cell(const struct text_col *c, const char *cell, size_t w,
			 size_t limit)
{
	if (!limit || width_of(cell) <= w)
		return spaa_xstrdup(cell);
	switch (c->cls) {
	case SPAA_LAMI_PATH:
		return cut_path(cell, w);
	case SPAA_LAMI_PROCESS:
		return cut_process(cell, w);
	default:
		return cut_name(cell, w);
	}
}

/*
 * Columns that say nothing are left out: every cell unknown or empty
 * ("?" in each row), or one path repeated in every row (one DSO for
 * everything).  The first column and the last one shown stay.
 */
static void hide_uninformative(struct text_col *c, size_t ncol, size_t nrows)
{
	size_t shown = ncol;

	for (size_t i = 1; i < ncol && shown > 1 && nrows; i++) {
		bool blank = true, same = nrows > 1 && c[i].cls == SPAA_LAMI_PATH;

		for (size_t r = 0; r < nrows; r++) {
			blank = blank && (!*c[i].cells[r] || !strcmp(c[i].cells[r], "?"));
			same = same && !strcmp(c[i].cells[r], c[i].cells[0]);
		}
		if (blank || same) {
			c[i].shown = false;
			shown--;
		}
	}
}

static int by_cell(const void *a, const void *b, const void *ctx)
{
	const struct text_col *c = ctx;

	return strcmp(c->cells[*(const size_t *)a], c->cells[*(const size_t *)b]);
}

/*
 * Before path column i goes: rows whose name (the first column) repeats
 * with different paths, as "[unknown]" in two DSOs, would look alike, so
 * their names say the path's file name (" in libc.so.6").  Sorted, not
 * compared pairwise: a table may have thousands of rows.
 */
static void tell_apart(struct text_col *c, size_t i, size_t nrows)
{
	size_t *order, r, end, k;
	bool differ;

	if (!is_name(&c[0]) || c[0].apart || nrows < 2)
		return;
	order = spaa_xcalloc(nrows, sizeof(*order));
	for (r = 0; r < nrows; r++)
		order[r] = r;
	spaa_sort(order, nrows, sizeof(*order), by_cell, &c[0]);
	c[0].apart = spaa_xcalloc(nrows + 1, sizeof(*c[0].apart));
	for (r = 0; r < nrows; r = end) {
		differ = false;
		for (end = r + 1; end < nrows &&
		     !strcmp(c[0].cells[order[end]], c[0].cells[order[r]]); end++)
			differ = differ || strcmp(c[i].cells[order[end]], c[i].cells[order[r]]);
		for (k = r; differ && k < end; k++) {
			const char *path = c[i].cells[order[k]];

			if (*path && strcmp(path, "?"))
				c[0].apart[order[k]] = joined(" in ", 4, base_name(path), "");
		}
	}
	free(order);
}

/*
 * Whether column i may go when a table is too wide, in the order they
 * go: counts, then the numbers after the first weight and the first
 * share, then paths, then (when even cut names are too wide) names;
 * never the first column, times, the first weight and share, or a column
 * the table keeps.
 */
static bool droppable(const struct text_col *c, size_t i, int pass)
{
	bool first_of_kind = true;

	if (!i || !c[i].shown || c[i].kept)
		return false;
	switch (pass) {
	case 0:
		return c[i].cls == SPAA_LAMI_INT;
	case 1:
		if (!right_aligned(c[i].cls) || c[i].cls == SPAA_LAMI_TIMESTAMP ||
		    c[i].cls == SPAA_LAMI_CPU)
			return false;
		for (size_t j = 0; j < i; j++)
			if (right_aligned(c[j].cls) &&
			    (c[j].cls == SPAA_LAMI_RATIO) == (c[i].cls == SPAA_LAMI_RATIO))
				first_of_kind = false;
		return !first_of_kind;
	case 2:
		return c[i].cls == SPAA_LAMI_PATH;
	default:
		return is_name(&c[i]);
	}
}

/*
 * Fits the shown columns into limit cells: paths become file
 * names; low-value columns go (droppable) while the line is too wide
 * with names cut to half of it (one long name is no reason to lose a
 * column); then time ranges become their beginning and length; then the
 * widest names are cut, down to MIN_NAME.  Names cut
 * where they say least may end up narrower than their column: the
 * column shrinks to them, and the columns dropped last come back while
 * they fit.
 */
static void fit(struct text_col *c, size_t ncol, size_t nrows, size_t limit)
{
	size_t i, cap = limit / 2 > MIN_NAME ? limit / 2 : MIN_NAME;
	size_t *dropped = spaa_xcalloc(ncol + 1, sizeof(*dropped)), ndropped = 0;

	for (i = 0; i < ncol; i++)
		c[i].width = natural_width(&c[i], nrows);
	if (line_width(c, ncol) <= limit)
		goto out;
	for (i = 0; i < ncol; i++) {
		if (c[i].cls == SPAA_LAMI_PATH)
			c[i].base_names = true;
		c[i].width = natural_width(&c[i], nrows);
		if (is_name(&c[i]) && c[i].width > cap && width_of(c[i].head) <= cap)
			c[i].width = cap;
	}
	for (int pass = 0; pass < 4; pass++) {
		/* before names are cut: time ranges as beginning and length */
		for (i = 0; pass == 3 && i < ncol; i++)
			if (c[i].ranges && line_width(c, ncol) > limit) {
				c[i].short_ranges = true;
				c[i].width = natural_width(&c[i], nrows);
			}
		/* the last resort: names as narrow as they get, some still go */
		for (i = 0; pass == 3 && i < ncol; i++)
			if (is_name(&c[i]) && c[i].width > MIN_NAME)
				c[i].width = width_of(c[i].head) > MIN_NAME ?
					     width_of(c[i].head) : MIN_NAME;
		for (i = ncol; i-- > 0 && line_width(c, ncol) > limit;)
			if (droppable(c, i, pass)) {
				if (c[i].cls == SPAA_LAMI_PATH) {
					tell_apart(c, i, nrows);
					c[0].width = natural_width(&c[0], nrows);
					if (c[0].width > cap && width_of(c[0].head) <= cap)
						c[0].width = cap;
				}
				c[i].shown = false;
				dropped[ndropped++] = i;
			}
	}
	for (i = 0; i < ncol; i++)
		c[i].width = natural_width(&c[i], nrows);
	while (line_width(c, ncol) > limit) {
		size_t widest = ncol;

		for (i = 0; i < ncol; i++)
			if (c[i].shown && is_name(&c[i]) && c[i].width > MIN_NAME &&
			    c[i].width > width_of(c[i].head) &&
			    (widest == ncol || c[i].width > c[widest].width))
				widest = i;
		if (widest == ncol)
			break;
		c[widest].width--;
	}
	for (i = 0; i < ncol; i++) {
		size_t w = width_of(c[i].head);

		if (!c[i].shown || !is_name(&c[i]))
			continue;
		for (size_t r = 0; r < nrows; r++) {
			char *cell = fitted(&c[i], r, c[i].width, limit);

			if (width_of(cell) > w)
				w = width_of(cell);
			free(cell);
		}
		c[i].width = w;
	}
	while (ndropped--) {
		i = dropped[ndropped];
		if (c[i].cls == SPAA_LAMI_PATH && c[0].apart)
			continue;       /* the names say it now */
		c[i].shown = true;
		if (line_width(c, ncol) > limit) {
			c[i].shown = false;
			break;
		}
	}
out:
	free(dropped);
}

/*
 * Text in lines of at most limit cells (0: one line), broken at
 * spaces, continued with an indent of two; a word longer than a line
 * is a line of its own, never cut.
 */
static void text_wrapped(FILE *out, const char *s, size_t limit)
{
	size_t indent = 0;

	while (limit && width_of(s) + indent > limit) {
		const char *brk = NULL, *p;
		size_t n = indent, len;

		for (p = s; *p && n <= limit; p += len) {
			if (*p == ' ')
				brk = p;
			n += next_cells(p, &len);
		}
		if (!brk)
			brk = strchr(s, ' ');
		if (!brk)
			break;
		fprintf(out, "%*s%.*s\n", (int)indent, "", (int)(brk - s), s);
		s = brk + 1;
		indent = 2;
	}
	fprintf(out, "%*s%s\n", (int)indent, "", s);
}

/* One line of cells, without trailing blanks. */
static void text_line(FILE *out, const struct text_col *c, size_t ncol,
		      char *const *cells)
{
	struct spaa_sbuf b = { 0 };
	bool first = true;

	for (size_t i = 0; i < ncol; i++) {
		size_t w;

		if (!c[i].shown)
			continue;
		w = width_of(cells[i]);
		if (!first)
			spaa_sbuf_adds(&b, "  ");
		first = false;
		for (; c[i].right && w < c[i].width; w++)
			spaa_sbuf_adds(&b, " ");
		spaa_sbuf_adds(&b, cells[i]);
		for (; !c[i].right && w < c[i].width; w++)
			spaa_sbuf_adds(&b, " ");
	}
	while (b.len && b.s[b.len - 1] == ' ')
		b.s[--b.len] = '\0';
	fprintf(out, "%s\n", b.s ? b.s : "");
	free(b.s);
}

/* A record too wide for the line: "  Column  value" lines. */
static void text_vertical(FILE *out, struct text_col *c, size_t ncol,
			  size_t limit)
{
	size_t hw = 0, i;

	for (i = 0; i < ncol; i++)
		if (c[i].shown && width_of(c[i].head) > hw)
			hw = width_of(c[i].head);
	for (i = 0; i < ncol; i++) {
		size_t w = limit > hw + 4 + MIN_NAME ? limit - hw - 4 : MIN_NAME;
		char *v;

		if (!c[i].shown)
			continue;
		v = fitted(&c[i], 0, w, limit);
		fprintf(out, "  %s", c[i].head);
		for (size_t k = width_of(c[i].head); k < hw + 2; k++)
			fputc(' ', out);
		fprintf(out, "%s\n", v);
		free(v);
	}
}

/*
 * A time range as its beginning and length, "100.000000000 +50 ms": a
 * third shorter than "[100.000000000, 100.050000000]" and what a
 * person reads first; cell (the long form) when v is no range.
 */
static char *short_range(const struct spaa_lami_cell_view *v, const char *cell)
{
	char a[SPAA_TEXTOUT_UNIT_BUF], b[SPAA_TEXTOUT_UNIT_BUF];
	struct spaa_sbuf s = { 0 };

	if (v->kind != SPAA_LAMI_CELL_TIME_RANGE || v->end < v->i ||
	    (v->i < 0 && v->end > INT64_MAX + v->i))
		return spaa_xstrdup(cell);
	spaa_sbuf_adds(&s, spaa_textout_timestamp(v->i, a, sizeof(a)));
	spaa_sbuf_adds(&s, " +");
	spaa_sbuf_adds(&s, spaa_textout_duration(v->end - v->i, b, sizeof(b)));
	return spaa_sbuf_detach(&s);
}

static void write_text_table(FILE *out, const struct spaa_lami_table *t,
			     size_t limit)
{
	const struct spaa_lami_table_class *tc = spaa_lami_table_class_of(t);
	size_t ncol = tc->ncolumns, nrows = spaa_lami_table_rows(t), r, i;
	struct text_col *c = spaa_xcalloc(ncol, sizeof(*c));
	char **line = spaa_xcalloc(ncol, sizeof(*line));
	struct spaa_sbuf title = { 0 };
	struct spaa_lami_cell_view v;
	const char *unit;

	for (i = 0; i < ncol; i++) {
		struct spaa_sbuf head = { 0 };

		spaa_lami_table_column(t, i, &c[i].cls, &unit);
		c[i].right = right_aligned(c[i].cls);
		c[i].shown = true;
		c[i].kept = spaa_lami_table_column_kept(t, i);
		add_clean(&head, tc->columns[i].title ? tc->columns[i].title : "", true);
		if (unit_in_header(c[i].cls, unit)) {
			spaa_sbuf_adds(&head, " (");
			add_clean(&head, unit, true);
			spaa_sbuf_adds(&head, ")");
		}
		c[i].head = head.s ? spaa_sbuf_detach(&head) : spaa_xstrdup("");
		c[i].cells = spaa_xcalloc(nrows + 1, sizeof(*c[i].cells));
		if (c[i].cls == SPAA_LAMI_TIME_RANGE)
			c[i].ranges = spaa_xcalloc(nrows + 1, sizeof(*c[i].ranges));
		for (r = 0; r < nrows; r++) {
			spaa_lami_table_cell(t, r, i, &v);
			c[i].cells[r] = text_cell(&v, unit);
			if (c[i].ranges)
				c[i].ranges[r] = short_range(&v, c[i].cells[r]);
		}
	}
	hide_uninformative(c, ncol, nrows);

	add_clean(&title, spaa_lami_table_title(t), true);
	text_wrapped(out, title.s ? title.s : "", limit);
	for (i = 0; i < ncol; i++)
		c[i].width = natural_width(&c[i], nrows);
	if (limit && nrows == 1 && spaa_lami_table_is_record(t) &&
	    line_width(c, ncol) > limit) {
		text_vertical(out, c, ncol, limit);
		goto out;
	}
	if (limit)
		fit(c, ncol, nrows, limit);
	for (i = 0; i < ncol; i++)
		line[i] = c[i].head;
	text_line(out, c, ncol, line);
	{
		bool first = true;

		for (i = 0; i < ncol; i++) {
			if (!c[i].shown)
				continue;
			fputs(first ? "" : "  ", out);
			first = false;
			for (size_t w = 0; w < c[i].width; w++)
				fputc('-', out);
		}
		fputc('\n', out);
	}
	for (r = 0; r < nrows; r++) {
		for (i = 0; i < ncol; i++)
			line[i] = c[i].shown ? fitted(&c[i], r, c[i].width, limit) : NULL;
		text_line(out, c, ncol, line);
		for (i = 0; i < ncol; i++)
			free(line[i]);
	}
out:
	for (i = 0; i < ncol; i++) {
		for (r = 0; r < nrows; r++) {
			free(c[i].cells[r]);
			if (c[i].ranges)
				free(c[i].ranges[r]);
		}
		if (c[i].apart)
			for (r = 0; r < nrows; r++)
				free(c[i].apart[r]);
		free(c[i].cells);
		free(c[i].ranges);
		free(c[i].apart);
		free(c[i].head);
	}
	free(c);
	free(line);
	free(title.s);
}

/* ---- csv -------------------------------------------------------------- */

/* One RFC 4180 field, after a comma unless first. */
static void csv_field(FILE *out, bool first, const char *s)
{
	struct spaa_sbuf b = { 0 };
	const char *p;

	if (!first)
		fputc(',', out);
	add_clean(&b, s, false);
	s = b.s ? b.s : "";
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
	} else {
		fputc('"', out);
		for (p = s; *p; p++) {
			if (*p == '"')
				fputc('"', out);
			fputc(*p, out);
		}
		fputc('"', out);
	}
	free(b.s);
}

static void csv_i64(FILE *out, bool first, int64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	csv_field(out, first, buf);
}

/* Fields a column takes: time ranges and processes are split. */
static int csv_width(enum spaa_lami_class c)
{
	return c == SPAA_LAMI_TIME_RANGE ? 2 : c == SPAA_LAMI_PROCESS ? 3 : 1;
}

static const char *csv_unit(enum spaa_lami_class c, const char *unit)
{
	switch (c) {
	case SPAA_LAMI_DURATION:
	case SPAA_LAMI_TIMESTAMP:
		return "ns";
	case SPAA_LAMI_SIZE:
		return "bytes";
	case SPAA_LAMI_RATIO:
		return "fraction";
	case SPAA_LAMI_BITRATE:
		return "bit/s";
	default:
		return unit;
	}
}

static void csv_header(FILE *out, bool first, const char *title,
		       const char *part, const char *unit)
{
	struct spaa_sbuf b = { 0 };

	spaa_sbuf_adds(&b, title ? title : "");
	if (part) {
		spaa_sbuf_adds(&b, " ");
		spaa_sbuf_adds(&b, part);
	}
	if (unit) {
		spaa_sbuf_adds(&b, " (");
		spaa_sbuf_adds(&b, unit);
		spaa_sbuf_adds(&b, ")");
	}
	csv_field(out, first, b.s);
	free(b.s);
}

/* The fields of one cell in a column of class cls (see csv_width). */
static void csv_cell(FILE *out, bool first, const struct spaa_lami_cell_view *v,
		     enum spaa_lami_class cls)
{
	char buf[2 * SPAA_TEXTOUT_UNIT_BUF + 8];
	char *text;
	int i, n = csv_width(cls);

	if (v->kind == SPAA_LAMI_CELL_EMPTY || v->kind == SPAA_LAMI_CELL_UNKNOWN) {
		for (i = 0; i < n; i++)
			csv_field(out, first && !i, "");
		return;
	}
	if (n == 2) {
		csv_i64(out, first, v->i);
		csv_i64(out, false, v->end);
		return;
	}
	if (n == 3) {
		csv_field(out, first, v->str ? v->str : "");
		if (v->pid != SPAA_LAMI_NO_ID)
			csv_i64(out, false, v->pid);
		else
			csv_field(out, false, "");
		if (v->tid != SPAA_LAMI_NO_ID)
			csv_i64(out, false, v->tid);
		else
			csv_field(out, false, "");
		return;
	}
	switch (v->kind) {
	case SPAA_LAMI_CELL_STRING:
	case SPAA_LAMI_CELL_PATH:
		csv_field(out, first, v->str);
		return;
	case SPAA_LAMI_CELL_INT:
	case SPAA_LAMI_CELL_TIMESTAMP:
	case SPAA_LAMI_CELL_DURATION:
	case SPAA_LAMI_CELL_SIZE:
	case SPAA_LAMI_CELL_CPU:
		if (v->big) {   /* past int64, exact */
			snprintf(buf, sizeof(buf), "%" PRIu64, v->u);
			csv_field(out, first, buf);
		} else {
			csv_i64(out, first, v->i);
		}
		return;
	case SPAA_LAMI_CELL_NUMBER:
	case SPAA_LAMI_CELL_RATIO:
		/* the JSON's 15 significant digits: the same value, read back */
		spaa_format_double(buf, sizeof(buf), 'g', 15, v->d);
		csv_field(out, first, buf);
		return;
	case SPAA_LAMI_CELL_BOOL:
		csv_field(out, first, v->b ? "true" : "false");
		return;
	default:
		/* a time range or process in a mixed column: one field */
		text = spaa_textout_cell(v, NULL);
		csv_field(out, first, text);
		free(text);
		return;
	}
}

static void write_csv_table(FILE *out, const struct spaa_lami_table *t)
{
	const struct spaa_lami_table_class *tc = spaa_lami_table_class_of(t);
	size_t ncol = tc->ncolumns, nrows = spaa_lami_table_rows(t), r, i;
	enum spaa_lami_class *cls = spaa_xcalloc(ncol, sizeof(*cls));
	struct spaa_lami_cell_view v;
	const char *unit, *title;

	csv_field(out, true, tc->name);
	csv_field(out, false, spaa_lami_table_title(t));
	fputc('\n', out);
	for (i = 0; i < ncol; i++) {
		spaa_lami_table_column(t, i, &cls[i], &unit);
		title = tc->columns[i].title;
		if (cls[i] == SPAA_LAMI_TIME_RANGE) {
			csv_header(out, !i, title, "begin", "ns");
			csv_header(out, false, title, "end", "ns");
		} else if (cls[i] == SPAA_LAMI_PROCESS) {
			csv_header(out, !i, title, "name", NULL);
			csv_header(out, false, title, "pid", NULL);
			csv_header(out, false, title, "tid", NULL);
		} else {
			csv_header(out, !i, title, NULL, csv_unit(cls[i], unit));
		}
	}
	fputc('\n', out);
	for (r = 0; r < nrows; r++) {
		for (i = 0; i < ncol; i++) {
			spaa_lami_table_cell(t, r, i, &v);
			csv_cell(out, !i, &v, cls[i]);
		}
		fputc('\n', out);
	}
	free(cls);
}

void spaa_textout_write(FILE *out, const struct spaa_lami_results *r,
			enum spaa_textout_form form, size_t width)
{
	size_t i;

	for (i = 0; i < r->nr; i++) {
		if (i)
			fputc('\n', out);
		if (form == SPAA_TEXTOUT_CSV)
			write_csv_table(out, r->tables[i]);
		else
			write_text_table(out, r->tables[i], width);
	}
}

size_t spaa_textout_width(int fd)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;
	uint64_t w;

	if (env && !spaa_parse_u64(env, &w) && w >= SPAA_TEXTOUT_MIN_WIDTH &&
	    w <= SPAA_TEXTOUT_MAX_WIDTH)
		return (size_t)w;
	if (isatty(fd) && !ioctl(fd, TIOCGWINSZ, &ws) &&
	    ws.ws_col >= SPAA_TEXTOUT_MIN_WIDTH)
		return ws.ws_col;
	return SPAA_TEXTOUT_DEFAULT_WIDTH;
}

/* ---- progress bar ----------------------------------------------------- */

#define BAR_WIDTH 30
#define BAR_INTERVAL 0.1        /* seconds between redraws of one percentage */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

bool spaa_textout_bar_wanted(int fd)
{
	const char *term = getenv("TERM"), *ci = getenv("CI");

	return isatty(fd) && term && *term && strcmp(term, "dumb") &&
	       !(ci && *ci);
}

void spaa_textout_bar_init(struct spaa_textout_bar *b, FILE *out)
{
	b->out = out;
	b->start = -1;
	b->last = 0;
	b->last_pct = -1;
	b->drawn = false;
}

void spaa_textout_bar_update(struct spaa_textout_bar *b, uint64_t done, uint64_t total)
{
	double t, rate;
	char mbs[32], mb[32];
	int pct = -2, i, fill;

	if (!b->out)
		return;
	t = now();
	if (b->start < 0)
		b->start = t;
	if (total)
		pct = done >= total ? 100 : (int)((double)done * 100 / (double)total);
	if (b->drawn && pct == b->last_pct && t - b->last < BAR_INTERVAL)
		return;
	rate = t > b->start ? (double)done / 1e6 / (t - b->start) : 0;
	spaa_format_double(mbs, sizeof(mbs), 'f', 1, rate);
	/* erase first: the previous line may have been longer */
	fputs("\r\033[K", b->out);
	if (total) {
		fill = pct * BAR_WIDTH / 100;
		fputc('[', b->out);
		for (i = 0; i < BAR_WIDTH; i++)
			fputc(i < fill ? '#' : '-', b->out);
		fprintf(b->out, "] %3d %%  %s MB/s", pct, mbs);
	} else {
		spaa_format_double(mb, sizeof(mb), 'f', 1, (double)done / 1e6);
		fprintf(b->out, "%s MB read  %s MB/s", mb, mbs);
	}
	fflush(b->out);
	b->last = t;
	b->last_pct = pct;
	b->drawn = true;
}

void spaa_textout_bar_clear(struct spaa_textout_bar *b)
{
	if (!b->out || !b->drawn)
		return;
	fputs("\r\033[K", b->out);
	fflush(b->out);
	b->drawn = false;
}
