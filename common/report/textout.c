#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
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

char *spaa_textout_ratio(double v, char *buf, size_t size)
{
	double tenths = round(v * 1000);        /* ties away from zero: 31.25 -> 31.3 */
	char num[SPAA_TEXTOUT_UNIT_BUF];
	uint64_t mag;

	if (fabs(tenths) >= 1e18) {
		spaa_format_double(num, sizeof(num), 'f', 1, v * 100);
	} else {
		mag = (uint64_t)fabs(tenths);
		/* a tiny negative share is no reason for a sign: "0.0 %" */
		snprintf(num, sizeof(num), "%s%" PRIu64 ".%" PRIu64,
			 tenths < 0 ? "-" : "", mag / 10, mag % 10);
	}
	snprintf(buf, size, "%s %%", num);
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

/* Byte offset of code point n of valid UTF-8 s. */
static size_t cp_offset(const char *s, size_t n)
{
	size_t i = 0;

	for (; s[i]; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80 && !n--)
			break;
	return i;
}

static size_t cp_count(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/*
 * A text cell from a string: cleaned, and cut in the middle when longer
 * than SPAA_TEXTOUT_MAX_WIDTH, so that a call path keeps its root and leaf.
 */
static char *text_string(const char *s)
{
	struct spaa_sbuf b = { 0 }, cut = { 0 };
	size_t cps = add_clean(&b, s, true), head, tail;
	char *str = spaa_sbuf_detach(&b);

	if (cps <= SPAA_TEXTOUT_MAX_WIDTH)
		return str;
	head = SPAA_TEXTOUT_MAX_WIDTH / 2;
	tail = SPAA_TEXTOUT_MAX_WIDTH - head - 1;
	spaa_sbuf_add(&cut, str, cp_offset(str, head));
	spaa_sbuf_adds(&cut, "\xe2\x80\xa6");
	spaa_sbuf_adds(&cut, str + cp_offset(str, cps - tail));
	free(str);
	return spaa_sbuf_detach(&cut);
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
	char ids[64] = "", *name;

	if (v->pid != SPAA_LAMI_NO_ID && v->tid != SPAA_LAMI_NO_ID)
		snprintf(ids, sizeof(ids), "%" PRId64 "/%" PRId64, v->pid, v->tid);
	else if (v->pid != SPAA_LAMI_NO_ID)
		snprintf(ids, sizeof(ids), "%" PRId64, v->pid);
	else if (v->tid != SPAA_LAMI_NO_ID)
		snprintf(ids, sizeof(ids), "?/%" PRId64, v->tid);
	if (!v->str)
		return spaa_xstrdup(ids);
	name = text_string(v->str);
	spaa_sbuf_adds(&b, name);
	if (*ids) {
		spaa_sbuf_adds(&b, " (");
		spaa_sbuf_adds(&b, ids);
		spaa_sbuf_adds(&b, ")");
	}
	free(name);
	return spaa_sbuf_detach(&b);
}

/* "NUM UNIT": a unit is an event name, of any length */
static char *with_unit(const char *num, const char *unit)
{
	struct spaa_sbuf b = { 0 };
	char *s;

	spaa_sbuf_adds(&b, num);
	if (unit) {
		spaa_sbuf_adds(&b, " ");
		spaa_sbuf_adds(&b, unit);
	}
	s = text_string(b.s);
	free(b.s);
	return s;
}

char *spaa_textout_cell(const struct spaa_lami_cell_view *v, const char *unit)
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
		snprintf(buf, sizeof(buf), "%" PRId64, v->i);
		return with_unit(buf, unit);
	case SPAA_LAMI_CELL_CPU:
		snprintf(buf, sizeof(buf), "%" PRId64, v->i);
		break;
	case SPAA_LAMI_CELL_NUMBER:
		if (unit && (!strcmp(unit, "ns") || !strcmp(unit, "bytes")))
			return spaa_xstrdup(spaa_textout_number(v->d, unit, buf, sizeof(buf)));
		return with_unit(spaa_textout_number(v->d, NULL, buf, sizeof(buf)), unit);
	case SPAA_LAMI_CELL_BOOL:
		return spaa_xstrdup(v->b ? "yes" : "no");
	case SPAA_LAMI_CELL_RATIO:
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
		spaa_textout_duration(v->i, buf, sizeof(buf));
		break;
	case SPAA_LAMI_CELL_SIZE:
		spaa_textout_size(v->i, buf, sizeof(buf));
		break;
	}
	return spaa_xstrdup(buf);
}

/* One line of cells, without trailing blanks. */
static void text_line(FILE *out, char *const *cells, const size_t *width,
		      const bool *right, size_t ncol)
{
	struct spaa_sbuf b = { 0 };
	size_t i, w;

	for (i = 0; i < ncol; i++) {
		w = cp_count(cells[i]);
		if (i)
			spaa_sbuf_adds(&b, "  ");
		for (; right[i] && w < width[i]; w++)
			spaa_sbuf_adds(&b, " ");
		spaa_sbuf_adds(&b, cells[i]);
		for (; !right[i] && w < width[i]; w++)
			spaa_sbuf_adds(&b, " ");
	}
	while (b.len && b.s[b.len - 1] == ' ')
		b.s[--b.len] = '\0';
	fprintf(out, "%s\n", b.s ? b.s : "");
	free(b.s);
}

static void write_text_table(FILE *out, const struct spaa_lami_table *t)
{
	const struct spaa_lami_table_class *tc = spaa_lami_table_class_of(t);
	size_t ncol = tc->ncolumns, nrows = spaa_lami_table_rows(t), r, i, w;
	char **cells = spaa_xcalloc((nrows + 1) * ncol, sizeof(*cells));
	size_t *width = spaa_xcalloc(ncol, sizeof(*width));
	bool *right = spaa_xcalloc(ncol, sizeof(*right));
	const char **unit = spaa_xcalloc(ncol, sizeof(*unit));
	struct spaa_sbuf title = { 0 };
	struct spaa_lami_cell_view v;
	enum spaa_lami_class cls;

	/* row 0 is the header: the cells of row r are at (r + 1) * ncol */
	for (i = 0; i < ncol; i++) {
		spaa_lami_table_column(t, i, &cls, &unit[i]);
		right[i] = right_aligned(cls);
		cells[i] = text_string(tc->columns[i].title ? tc->columns[i].title : "");
	}
	for (r = 0; r < nrows; r++)
		for (i = 0; i < ncol; i++) {
			spaa_lami_table_cell(t, r, i, &v);
			cells[(r + 1) * ncol + i] = spaa_textout_cell(&v, unit[i]);
		}
	for (r = 0; r <= nrows; r++)
		for (i = 0; i < ncol; i++) {
			w = cp_count(cells[r * ncol + i]);
			if (w > width[i])
				width[i] = w;
		}

	/* a title longer than a cell is a title still: never cut */
	add_clean(&title, spaa_lami_table_title(t), true);
	fprintf(out, "%s\n", title.s ? title.s : "");
	text_line(out, cells, width, right, ncol);
	for (i = 0; i < ncol; i++) {
		fputs(i ? "  " : "", out);
		for (w = 0; w < width[i]; w++)
			fputc('-', out);
	}
	fputc('\n', out);
	for (r = 1; r <= nrows; r++)
		text_line(out, cells + r * ncol, width, right, ncol);

	for (i = 0; i < (nrows + 1) * ncol; i++)
		free(cells[i]);
	free(cells);
	free(width);
	free(right);
	free(unit);
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
		csv_i64(out, first, v->i);
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
			enum spaa_textout_form form)
{
	size_t i;

	for (i = 0; i < r->nr; i++) {
		if (i)
			fputc('\n', out);
		if (form == SPAA_TEXTOUT_CSV)
			write_csv_table(out, r->tables[i]);
		else
			write_text_table(out, r->tables[i]);
	}
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
