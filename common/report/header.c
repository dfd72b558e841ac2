#include <inttypes.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "model/metrics.h"
#include "model/sbuf.h"
#include "model/util.h"
#include "report/header.h"
#include "report/textout.h"

void spaa_header_add(struct spaa_header *h, const char *label, const char *fmt, ...)
{
	size_t lab = strlen(label) + 2;
	va_list ap;
	char *line;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	line = spaa_xmalloc(lab + (size_t)(n > 0 ? n : 0) + 1);
	snprintf(line, lab + 1, "%s: ", label);
	va_start(ap, fmt);
	vsnprintf(line + lab, (size_t)(n > 0 ? n : 0) + 1, fmt, ap);
	va_end(ap);
	SPAA_ALLOC_GROW(h->lines, h->nr + 1, h->alloc);
	/* names of the input may hold escape sequences: never to a terminal */
	h->lines[h->nr++] = spaa_clean_controls(line);
}

/* "SPAA from perf", "SPX report", "perf script": one file's format. */
static void add_format(struct spaa_sbuf *b, const struct spaa_profile *p,
		       const struct spaa_file *f)
{
	spaa_sbuf_adds(b, f->format ? f->format : "unknown format");
	/* a converter's name says little next to the format it read */
	if (f->source_tool && f->format && !strcmp(f->format, "SPAA"))
		spaa_sbuf_printf(b, " from %s", spaa_profile_str(p, f->source_tool));
}

static bool same_format(const struct spaa_file *a, const struct spaa_file *b)
{
	return a->format == b->format && a->source_tool == b->source_tool;
}

/*
 * "(SPAA from perf)", or for several files "(3 files: SPAA from perf,
 * SPX report)", each format once in the order met.  Quadratic in the
 * formats only: they are few whatever the files.
 */
static void add_formats(struct spaa_sbuf *b, const struct spaa_profile *p)
{
	uint32_t shown[8], nshown = 0;
	uint64_t nfiles = spaa_profile_files_read(p);

	if (nfiles != 1)
		spaa_sbuf_printf(b, "%" PRIu64 " files: ", nfiles);
	for (uint32_t i = 0; i < p->nfiles; i++) {
		uint32_t k = 0;

		while (k < nshown && !same_format(&p->files[shown[k]], &p->files[i]))
			k++;
		if (k < nshown)
			continue;
		if (nshown == sizeof(shown) / sizeof(shown[0])) {
			spaa_sbuf_adds(b, ", ...");
			break;
		}
		if (nshown)
			spaa_sbuf_adds(b, ", ");
		shown[nshown++] = i;
		add_format(b, p, &p->files[i]);
	}
}

/*
 * src into dst with its blanks made no-break (U+00A0, written as blanks
 * by put_word), so that a wrapped line keeps "24.4 ms" whole.
 */
static char *nobreak(char *dst, size_t size, const char *src)
{
	size_t n = 0;

	for (; *src && n + 3 < size; src++) {
		if (*src == ' ') {
			dst[n++] = (char)0xC2;
			dst[n++] = (char)0xA0;
		} else {
			dst[n++] = *src;
		}
	}
	dst[n] = '\0';
	return dst;
}

static void add_time(struct spaa_sbuf *b, int64_t begin, int64_t end)
{
	char t0[64], t1[64], d[64], nb[128];
	int64_t span;

	spaa_sbuf_printf(b, "%s to %s s", spaa_textout_timestamp(begin, t0, sizeof(t0)),
			 spaa_textout_timestamp(end, t1, sizeof(t1)));
	if (!spaa_time_span(begin, end, 0, &span))
		spaa_sbuf_printf(b, " (%s)", nobreak(nb, sizeof(nb), spaa_textout_duration(span, d, sizeof(d))));
}

void spaa_header_profile(struct spaa_header *h, const char *label,
			 const struct spaa_profile *p, const char *path,
			 const struct spaa_table *t)
{
	struct spaa_sbuf b = { 0 };

	add_formats(&b, p);
	spaa_header_add(h, label, "%s (%s)", path, b.s ? b.s : "");
	b.len = 0;
	if (p->has_time) {
		add_time(&b, p->time_start, p->time_end);
		if (t && (t->begin > p->time_start || t->end < p->time_end)) {
			spaa_sbuf_adds(&b, "; selected ");
			add_time(&b, t->begin, t->end);
		}
		spaa_header_add(h, "Time", "%s", b.s);
	}
	free(b.s);
}

/* total in the unit of sem: "5M cycles", "1.5 s", "2 MiB", "12". */
static char *format_total(const struct spaa_metrics_sem *sem, uint64_t total,
			  char *buf, size_t size)
{
	int64_t v = spaa_metrics_scaled(sem, total);
	bool big = (double)total * sem->scale >= 9e18;

	/* past int64 a duration or size is exact in its base unit, as in the tables */
	if (big && sem->scale == 1 && sem->cls != SPAA_METRICS_NUMBER) {
		snprintf(buf, size, "%" PRIu64 "%s", total, sem->cls == SPAA_METRICS_DURATION ?
			 " ns" : sem->cls == SPAA_METRICS_SIZE ? " bytes" : "");
		return buf;
	}
	if (big && sem->cls != SPAA_METRICS_INT)
		return spaa_textout_number((double)total * sem->scale,
					   sem->cls == SPAA_METRICS_DURATION ? "ns" :
					   sem->cls == SPAA_METRICS_SIZE ? "bytes" : sem->unit,
					   buf, size);
	switch (sem->cls) {
	case SPAA_METRICS_DURATION:
		return spaa_textout_duration(v, buf, size);
	case SPAA_METRICS_SIZE:
		return spaa_textout_size(v, buf, size);
	case SPAA_METRICS_INT:
		snprintf(buf, size, "%" PRIu64, total);
		return buf;
	default:
		return spaa_textout_number((double)total * sem->scale, sem->unit, buf, size);
	}
}

void spaa_header_weights(struct spaa_header *h, const struct spaa_table *t,
			 const uint64_t *total, uint64_t count, const char *of)
{
	/* what is weighed comes before the caveats, which follow "; " */
	size_t what = strcspn(t->what, ";");
	char buf[128], nb[256];

	spaa_header_add(h, "Weighed", "%.*s", (int)what, t->what);
	if (!total || t->net)
		return;
	nobreak(nb, sizeof(nb), format_total(&t->sem, *total, buf, sizeof(buf)));
	if (count == SPAA_HEADER_NO_SAMPLES)
		spaa_header_add(h, "Total", "%s", nb);
	else
		spaa_header_add(h, "Total", "%s in %" PRIu64 " %s", nb, count, of);
}

uint64_t spaa_header_samples(const struct spaa_profile *p, uint32_t event)
{
	uint32_t samples;

	if (p->nsamples)
		return p->events[event].nsamples;
	samples = spaa_strtab_find(&p->strings, "samples", strlen("samples"));
	if (samples != SPAA_NONE && spaa_profile_total(p, event, samples))
		return spaa_profile_total(p, event, samples);
	return SPAA_HEADER_NO_SAMPLES;
}

/* The cells s[0..n) takes on a terminal (a CJK character two). */
static size_t columns(const char *s, size_t n)
{
	return spaa_utf8_cells(s, n);
}

/* s[0..n), its no-break spaces as blanks. */
static void put_word(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i + 1 < n && (unsigned char)s[i] == 0xC2 && (unsigned char)s[i + 1] == 0xA0) {
			fputc(' ', out);
			i++;
		} else {
			fputc(s[i], out);
		}
	}
}

/* The end of s[0..n) that fits cols - 1 cells, after "…". */
static void put_tail(FILE *out, const char *s, size_t n, size_t cols)
{
	size_t i = 0, c = columns(s, n);
	uint32_t cp;

	while (i < n && c + 1 > cols) {
		int len = spaa_utf8_seq((const unsigned char *)s + i, n - i, &cp);

		c -= len < 0 ? 1 : (size_t)spaa_utf8_cp_cells(cp);
		i += (size_t)(len < 0 ? -len : len);
	}
	/* a combining mark belongs to the character cut off */
	while (i < n && spaa_utf8_seq((const unsigned char *)s + i, n - i, &cp) > 0 &&
	       !spaa_utf8_cp_cells(cp))
		i += (size_t)spaa_utf8_seq((const unsigned char *)s + i, n - i, &cp);
	fputs("\u2026", out);
	put_word(out, s + i, n - i);
}

static void write_line(FILE *out, const char *line, size_t width)
{
	size_t col = 2, len, cols;
	bool first = true;

	fputs("# ", out);
	for (const char *w = line + strspn(line, " "); *w; w += strspn(w, " ")) {
		len = strcspn(w, " ");
		cols = columns(w, len);
		/* a word no line holds is cut where it is, unless little room is left */
		if (!first && width && col + 1 + cols > width &&
		    (4 + cols <= width || col + 12 > width)) {
			fputs("\n#   ", out);
			col = 4;
			first = true;
		}
		if (!first) {
			fputc(' ', out);
			col++;
		}
		if (width && col + cols > width && width > col + 1) {
			put_tail(out, w, len, width - col);
			col = width;
		} else {
			put_word(out, w, len);
			col += cols;
		}
		first = false;
		w += len;
	}
	fputc('\n', out);
}

void spaa_header_write(FILE *out, const struct spaa_header *h, size_t width)
{
	if (!h->nr)
		return;
	for (size_t i = 0; i < h->nr; i++)
		write_line(out, h->lines[i], width);
	fputc('\n', out);
}

/* Whether a line of h (after its label) holds s[0..n). */
static bool header_says(const struct spaa_header *h, const char *s, size_t n)
{
	for (size_t i = 0; i < h->nr; i++) {
		const char *text = strstr(h->lines[i], ": ");

		for (text = text ? text + 2 : h->lines[i]; (text = strchr(text, *s)); text++)
			if (!strncmp(text, s, n))
				return true;
	}
	return false;
}

char *spaa_header_short_title(const struct spaa_header *h, const char *title)
{
	size_t len = strlen(title), open, from, i;
	struct spaa_sbuf out = { 0 };
	int depth = 0;
	bool kept = false;

	if (!h->nr || !len || title[len - 1] != ')')
		return spaa_xstrdup(title);
	for (open = len; open-- > 0;) {
		depth += title[open] == ')';
		depth -= title[open] == '(';
		if (!depth)
			break;
	}
	if (depth || !open || title[open - 1] != ' ')
		return spaa_xstrdup(title);
	spaa_sbuf_add(&out, title, open - 1);
	/* the parts at depth 0, each kept unless the header holds it */
	for (from = i = open + 1; i < len; i++) {
		depth += title[i] == '(';
		depth -= title[i] == ')';
		if ((depth || !(title[i] == ';' && title[i + 1] == ' ')) && i + 1 < len)
			continue;
		if (i > from && !header_says(h, title + from, i - from)) {
			spaa_sbuf_adds(&out, kept ? "; " : " (");
			spaa_sbuf_add(&out, title + from, i - from);
			kept = true;
		}
		from = i + 2;
	}
	if (kept)
		spaa_sbuf_adds(&out, ")");
	return spaa_sbuf_detach(&out);
}

void spaa_header_release(struct spaa_header *h)
{
	for (size_t i = 0; i < h->nr; i++)
		free(h->lines[i]);
	free(h->lines);
	memset(h, 0, sizeof(*h));
}
