/*
 * timechart - the sums per (bin, series), their order and the SVG
 * writer.  The rules (geometry, order, bounds) are in timechart.h.
 */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "model/map.h"
#include "model/sbuf.h"
#include "model/strtab.h"
#include "model/units.h"
#include "model/util.h"
#include "report/svg.h"
#include "report/timechart.h"

#define LEFT 80         /* px left of the plot: weight labels */
#define RIGHT 20        /* px right of it */
#define PLOT_TOP 96     /* header, then the span labels */
#define LEGEND 48       /* px from the plot's bottom to the legend */
#define ROW 16          /* px per legend row */
#define COLUMNS 3       /* of the legend */
#define TOP_LISTED 3    /* series a bin's hover text names */

struct cell_key {
	uint32_t bin, name;
};

struct span {
	uint32_t first, last;
	char *label;    /* owned */
};

struct rank_row {
	char *name, *mark;      /* owned; mark may be NULL */
	uint64_t value, inner;
	bool has_inner;
};

struct spaa_timechart {
	int64_t t0, width;
	uint32_t nbins;
	struct spaa_strtab names;
	struct spaa_map cells;          /* cell_key -> index of w */
	uint64_t *w;                    /* owned, by cell */
	size_t walloc;
	uint64_t *bin_total;            /* owned, nbins */
	uint64_t total;
	struct span *spans;             /* owned */
	size_t nspans, spans_alloc;
	uint64_t *line;                 /* owned, nbins; NULL: no line */
	struct rank_row *ranks;         /* owned, at most SPAA_TIMECHART_RANK_MAX */
	size_t nranks, ranks_alloc, ranks_left_out;
};

struct spaa_timechart *spaa_timechart_new(int64_t t0, int64_t width,
					  uint32_t nbins)
{
	struct spaa_timechart *tc = spaa_xcalloc(1, sizeof(*tc));

	tc->t0 = t0;
	tc->width = width;
	tc->nbins = nbins;
	spaa_strtab_init(&tc->names);
	spaa_map_init(&tc->cells, sizeof(struct cell_key));
	tc->bin_total = spaa_xcalloc((size_t)nbins + 1, sizeof(*tc->bin_total));
	return tc;
}

void spaa_timechart_free(struct spaa_timechart *tc)
{
	if (!tc)
		return;
	spaa_strtab_release(&tc->names);
	spaa_map_release(&tc->cells);
	free(tc->w);
	free(tc->bin_total);
	for (size_t i = 0; i < tc->nspans; i++)
		free(tc->spans[i].label);
	free(tc->spans);
	for (size_t i = 0; i < tc->nranks; i++) {
		free(tc->ranks[i].name);
		free(tc->ranks[i].mark);
	}
	free(tc->ranks);
	free(tc->line);
	free(tc);
}

int spaa_timechart_add(struct spaa_timechart *tc, uint32_t bin,
		       const char *name, size_t len, uint64_t weight,
		       struct spaa_error *err)
{
	struct cell_key k;
	bool created;
	uint32_t i;
	uint64_t total;

	/* every sum is part of the total: checking it suffices */
	if (spaa_add_u64(tc->total, weight, &total))
		return spaa_error_set(err, SPAA_E_LIMIT,
				      "time chart total weight overflows 64 bits");
	memset(&k, 0, sizeof(k));
	k.bin = bin;
	k.name = spaa_strtab_intern(&tc->names, name, len);
	i = spaa_map_intern(&tc->cells, &k, &created);
	if (created) {
		SPAA_ALLOC_GROW(tc->w, (size_t)i + 1, tc->walloc);
		tc->w[i] = 0;
	}
	tc->w[i] += weight;
	tc->bin_total[bin] += weight;
	tc->total = total;
	return 0;
}

void spaa_timechart_span(struct spaa_timechart *tc, uint32_t first,
			 uint32_t last, const char *label)
{
	SPAA_ALLOC_GROW(tc->spans, tc->nspans + 1, tc->spans_alloc);
	tc->spans[tc->nspans++] = (struct span){ first, last, spaa_xstrdup(label) };
}

void spaa_timechart_line(struct spaa_timechart *tc, uint32_t bin, uint64_t value)
{
	if (!tc->line)
		tc->line = spaa_xcalloc((size_t)tc->nbins + 1, sizeof(*tc->line));
	tc->line[bin] = value;
}

void spaa_timechart_rank(struct spaa_timechart *tc, const char *name,
			 uint64_t value, bool has_inner, uint64_t inner,
			 const char *mark)
{
	if (tc->nranks == SPAA_TIMECHART_RANK_MAX) {
		tc->ranks_left_out++;
		return;
	}
	SPAA_ALLOC_GROW(tc->ranks, tc->nranks + 1, tc->ranks_alloc);
	tc->ranks[tc->nranks++] = (struct rank_row){
		spaa_xstrdup(name), mark ? spaa_xstrdup(mark) : NULL, value, inner, has_inner,
	};
}

/* ---- order ------------------------------------------------------------- */

/* What spaa_timechart_write computes before writing. */
struct plan {
	const struct spaa_timechart *tc;
	uint64_t *series_total;         /* by name */
	uint32_t *order;                /* names with weight, in series order */
	uint32_t nnamed;
	uint32_t *rank;                 /* by name: place in order, or drawn (other) */
	uint32_t drawn;                 /* series drawn by name */
	bool other;                     /* a band for the rest */
	uint64_t other_total;
	uint32_t *by_bin;               /* cells by bin, then heaviest first */
	uint32_t *bin_first;            /* by_bin[bin_first[b] .. bin_first[b + 1]) */
	uint64_t max_bin;               /* the plot's top: a bin total or line value */
	bool capped;                    /* fewer series than asked, for the bound */
	struct spaa_svg_rgb *colour;    /* by rank, drawn series */
};

/* A series or a cell with what orders it: weight, then name bytewise. */
struct ranked {
	uint64_t w;
	const char *name;
	uint32_t len, bin, idx;
};

static int ranked_cmp(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	int c;

	if (x->bin != y->bin)
		return x->bin < y->bin ? -1 : 1;
	if (x->w != y->w)
		return x->w > y->w ? -1 : 1;
	c = memcmp(x->name, y->name, x->len < y->len ? x->len : y->len);
	return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* idx of r[0..n) sorted, into out */
static void sort_ranked(struct ranked *r, uint32_t n, uint32_t *out)
{
	qsort(r, n, sizeof(*r), ranked_cmp);
	for (uint32_t i = 0; i < n; i++)
		out[i] = r[i].idx;
}

static void plan_release(struct plan *pl)
{
	free(pl->series_total);
	free(pl->order);
	free(pl->rank);
	free(pl->by_bin);
	free(pl->bin_first);
	free(pl->colour);
}

/*
 * Each drawn series' colour: its name's hue (svg.h), turned by the golden
 * angle while a heavier series of the picture has a hue within MIN_HUE
 * degrees, so that neighbours in the legend stay apart.
 */
#define MIN_HUE 24.0
#define GOLDEN 137.508

static void colours(struct plan *pl)
{
	double *hue = spaa_xmalloc(((size_t)pl->drawn + 1) * sizeof(*hue));

	pl->colour = spaa_xmalloc(((size_t)pl->drawn + 1) * sizeof(*pl->colour));
	for (uint32_t r = 0; r < pl->drawn; r++) {
		uint32_t n = pl->order[r];
		double h = spaa_svg_name_hue(spaa_strtab_get(&pl->tc->names, n),
					     spaa_strtab_len(&pl->tc->names, n));

		for (int tries = 0; tries < 16; tries++) {
			bool close = false;

			for (uint32_t q = 0; q < r && !close; q++) {
				double d = fabs(hue[q] - h);

				close = (d > 180 ? 360 - d : d) < MIN_HUE;
			}
			if (!close)
				break;
			h = fmod(h + GOLDEN, 360);
		}
		hue[r] = h;
		pl->colour[r] = spaa_svg_hue_colour(h, spaa_strtab_get(&pl->tc->names, n),
						    spaa_strtab_len(&pl->tc->names, n));
	}
	free(hue);
}

static void plan(const struct spaa_timechart *tc, unsigned top, struct plan *pl)
{
	uint32_t nnames = tc->names.nr, ncells = tc->cells.nr;
	struct ranked *r;

	pl->tc = tc;
	pl->series_total = spaa_xcalloc((size_t)nnames + 1, sizeof(*pl->series_total));
	pl->order = spaa_xmalloc(((size_t)nnames + 1) * sizeof(*pl->order));
	pl->rank = spaa_xmalloc(((size_t)nnames + 1) * sizeof(*pl->rank));
	pl->by_bin = spaa_xmalloc(((size_t)ncells + 1) * sizeof(*pl->by_bin));
	pl->bin_first = spaa_xcalloc((size_t)tc->nbins + 1, sizeof(*pl->bin_first));
	for (uint32_t i = 0; i < ncells; i++) {
		const struct cell_key *k = spaa_map_key(&tc->cells, i);

		pl->series_total[k->name] += tc->w[i];
		pl->bin_first[k->bin + 1]++;
	}
	for (uint32_t b = 0; b < tc->nbins; b++) {
		pl->bin_first[b + 1] += pl->bin_first[b];
		if (tc->bin_total[b] > pl->max_bin)
			pl->max_bin = tc->bin_total[b];
		if (tc->line && tc->line[b] > pl->max_bin)
			pl->max_bin = tc->line[b];
	}
	r = spaa_xmalloc(((size_t)(ncells > nnames ? ncells : nnames) + 1) * sizeof(*r));
	for (uint32_t n = 0; n < nnames; n++)
		if (pl->series_total[n])
			r[pl->nnamed++] = (struct ranked){
				pl->series_total[n], spaa_strtab_get(&tc->names, n),
				spaa_strtab_len(&tc->names, n), 0, n,
			};
	sort_ranked(r, pl->nnamed, pl->order);
	for (uint32_t i = 0; i < ncells; i++) {
		const struct cell_key *k = spaa_map_key(&tc->cells, i);

		r[i] = (struct ranked){
			tc->w[i], spaa_strtab_get(&tc->names, k->name),
			spaa_strtab_len(&tc->names, k->name), k->bin, i,
		};
	}
	sort_ranked(r, ncells, pl->by_bin);
	free(r);

	pl->drawn = top < pl->nnamed ? top : pl->nnamed;
	/* the other band counts as a series too */
	if ((uint64_t)tc->nbins * (pl->drawn + 1) > SPAA_SVG_MAX_SHAPES) {
		pl->drawn = SPAA_SVG_MAX_SHAPES / tc->nbins - 1;
		pl->capped = true;
	}
	pl->other = pl->drawn < pl->nnamed;
	for (uint32_t n = 0; n < nnames; n++)
		pl->rank[n] = pl->drawn;
	colours(pl);
	for (uint32_t i = 0; i < pl->nnamed; i++) {
		if (i < pl->drawn)
			pl->rank[pl->order[i]] = i;
		else
			pl->other_total += pl->series_total[pl->order[i]];
	}
}

/* ---- writing ------------------------------------------------------------ */

/* The script: hover details, highlight by legend click or search. */
static const char script[] =
	"<script type=\"text/ecmascript\"><![CDATA[\n"
	"(function () {\n"
	"\"use strict\";\n"
	"var details = document.getElementById(\"details\");\n"
	"var matched = document.getElementById(\"matched\");\n"
	"var searchBtn = document.getElementById(\"search\");\n"
	"var bins = document.getElementById(\"bins\").getElementsByTagName(\"g\");\n"
	"var bands = document.getElementById(\"bins\").getElementsByTagName(\"rect\");\n"
	"var keys = document.getElementById(\"legend\").getElementsByTagName(\"g\");\n"
	"var chosen = null;\n"
	"Array.prototype.forEach.call(bins, function (g) {\n"
	"  var t = g.getElementsByTagName(\"title\")[0].textContent.split(\"\\n\").join(\"  |  \");\n"
	"  g.addEventListener(\"mouseover\", function () { details.textContent = t; });\n"
	"  g.addEventListener(\"mouseout\", function () { details.textContent = \" \"; });\n"
	"});\n"
	/* sel: null (all) or the set of series indices to show */
	"function show(sel) {\n"
	"  chosen = sel;\n"
	"  Array.prototype.forEach.call(bands, function (r) {\n"
	"    r.setAttribute(\"opacity\", !sel || sel[r.getAttribute(\"data-s\")] ? \"1\" : \"0.2\");\n"
	"  });\n"
	"  var n = 0;\n"
	"  Array.prototype.forEach.call(keys, function (k) {\n"
	"    var on = !sel || sel[k.getAttribute(\"data-s\")];\n"
	"    k.setAttribute(\"opacity\", on ? \"1\" : \"0.4\");\n"
	"    n += on ? 1 : 0;\n"
	"  });\n"
	"  matched.textContent = sel ? \"Highlighted: \" + n + \" series\" : \" \";\n"
	"  searchBtn.textContent = sel ? \"Reset search\" : \"Search\";\n"
	"}\n"
	"Array.prototype.forEach.call(keys, function (k) {\n"
	"  k.addEventListener(\"click\", function () {\n"
	"    var s = k.getAttribute(\"data-s\"), sel = {};\n"
	"    sel[s] = true;\n"
	"    show(chosen && chosen[s] && Object.keys(chosen).length === 1 ? null : sel);\n"
	"  });\n"
	"});\n"
	"function search(term) {\n"
	"  var re;\n"
	"  try { re = new RegExp(term); }\n"
	"  catch (e) { alert(\"not a regular expression: \" + term); return; }\n"
	"  var sel = {};\n"
	"  Array.prototype.forEach.call(keys, function (k) {\n"
	"    if (re.test(k.getAttribute(\"data-name\"))) sel[k.getAttribute(\"data-s\")] = true;\n"
	"  });\n"
	"  show(sel);\n"
	"}\n"
	"function ask() {\n"
	"  var t = prompt(\"Highlight the series whose name matches (regular expression):\", \"\");\n"
	"  if (t) search(t);\n"
	"}\n"
	"searchBtn.addEventListener(\"click\", function () { if (chosen) show(null); else ask(); });\n"
	"document.addEventListener(\"keydown\", function (e) {\n"
	"  if ((e.ctrlKey && e.key === \"f\") || e.key === \"/\") { e.preventDefault(); ask(); }\n"
	"  else if (e.key === \"Escape\") show(null);\n"
	"});\n"
	"})();\n"
	"]]></script>\n";

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static double scale_of(const struct spaa_timechart_opts *o)
{
	return o->sem ? o->sem->scale : 1;
}

static const struct spaa_metrics_sem duration = { .cls = SPAA_METRICS_DURATION, .scale = 1 };

/* A bin's hover text: its range, weight and heaviest series. */
static void bin_title(struct spaa_sbuf *sb, const struct plan *pl,
		      const struct spaa_timechart_opts *o, uint32_t b)
{
	const struct spaa_timechart *tc = pl->tc;
	int64_t start = tc->t0 + (int64_t)b * tc->width;

	spaa_sbuf_adds(sb, "from ");
	spaa_svg_human(sb, &duration, (double)b * (double)tc->width);
	spaa_sbuf_adds(sb, " to ");
	spaa_svg_human(sb, &duration, (double)(b + 1) * (double)tc->width);
	spaa_sbuf_printf(sb, " (%" PRId64 " to %" PRId64 " ns)\nweight ", start,
			 start + tc->width - 1);
	spaa_svg_human(sb, o->sem, (double)tc->bin_total[b] * scale_of(o));
	if (tc->line) {
		spaa_sbuf_printf(sb, "\n%s ", o->line_label);
		spaa_svg_human(sb, o->sem, (double)tc->line[b] * scale_of(o));
	}
	for (uint32_t c = pl->bin_first[b]; c < pl->bin_first[b + 1] &&
	     c < pl->bin_first[b] + TOP_LISTED; c++) {
		uint32_t cell = pl->by_bin[c];
		const struct cell_key *k = spaa_map_key(&tc->cells, cell);

		spaa_sbuf_adds(sb, "\n");
		spaa_svg_text(sb, spaa_strtab_get(&tc->names, k->name),
			      spaa_strtab_len(&tc->names, k->name), SIZE_MAX);
		spaa_sbuf_adds(sb, " ");
		spaa_svg_human(sb, o->sem, (double)tc->w[cell] * scale_of(o));
		spaa_sbuf_printf(sb, " (%.1f %%)", pct(tc->w[cell], tc->bin_total[b]));
	}
}

static struct spaa_svg_rgb series_colour(const struct plan *pl, uint32_t r)
{
	if (r == pl->drawn)
		return (struct spaa_svg_rgb){ 190, 190, 190 };
	return pl->colour[r];
}


static void bars(struct spaa_sbuf *sb, const struct plan *pl,
		 const struct spaa_timechart_opts *o, uint32_t b, uint64_t *band)
{
	const struct spaa_timechart *tc = pl->tc;
	double pw = o->width - LEFT - RIGHT, bottom = PLOT_TOP + o->height;
	double x = LEFT + (double)b * pw / tc->nbins, w = pw / tc->nbins;
	double y = bottom;

	memset(band, 0, ((size_t)pl->drawn + 1) * sizeof(*band));
	for (uint32_t c = pl->bin_first[b]; c < pl->bin_first[b + 1]; c++) {
		uint32_t cell = pl->by_bin[c];

		band[pl->rank[((const struct cell_key *)spaa_map_key(&tc->cells, cell))->name]] +=
			tc->w[cell];
	}
	spaa_sbuf_adds(sb, "<g><title>");
	bin_title(sb, pl, o, b);
	spaa_sbuf_adds(sb, "</title>");
	for (uint32_t r = 0; r <= pl->drawn; r++) {
		double h = (double)band[r] * o->height / (double)pl->max_bin;

		if (!band[r])
			continue;
		y -= h;
		spaa_sbuf_printf(sb, "<rect data-s=\"%u\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
				 "height=\"%.2f\" fill=\"", r, x, y, w, h);
		spaa_svg_colour(sb, series_colour(pl, r));
		spaa_sbuf_adds(sb, "\"/>");
	}
	spaa_sbuf_adds(sb, "</g>\n");
}

static void spans(struct spaa_sbuf *sb, const struct spaa_timechart *tc,
		  const struct spaa_timechart_opts *o)
{
	double pw = o->width - LEFT - RIGHT;

	spaa_sbuf_adds(sb, "<g id=\"spans\">\n");
	for (size_t i = 0; i < tc->nspans; i++) {
		const struct span *s = &tc->spans[i];
		double x = LEFT + (double)s->first * pw / tc->nbins;
		double w = (double)(s->last + 1 - s->first) * pw / tc->nbins;

		if (i)
			spaa_sbuf_printf(sb, "<line x1=\"%.2f\" y1=\"%u\" x2=\"%.2f\" y2=\"%u\" "
					 "stroke=\"#333\" stroke-dasharray=\"4,3\"/>\n",
					 x, PLOT_TOP - 16, x, PLOT_TOP + o->height);
		spaa_sbuf_printf(sb, "<text x=\"%.2f\" y=\"%u\"><title>", x + 3, PLOT_TOP - 4);
		spaa_svg_text_str(sb, s->label);
		spaa_sbuf_adds(sb, "</title>");
		spaa_svg_fit(sb, s->label, strlen(s->label), w - 6, SPAA_SVG_CHAR_W);
		spaa_sbuf_adds(sb, "</text>\n");
	}
	spaa_sbuf_adds(sb, "</g>\n");
}

static void axes(struct spaa_sbuf *sb, const struct plan *pl,
		 const struct spaa_timechart_opts *o)
{
	const struct spaa_timechart *tc = pl->tc;
	double pw = o->width - LEFT - RIGHT;
	unsigned bottom = PLOT_TOP + o->height;
	double span = (double)tc->nbins * (double)tc->width;
	double step = spaa_svg_step(span, (unsigned)(pw / 100));
	double top = (double)pl->max_bin * scale_of(o);
	double wstep = spaa_svg_step(top, 5);
	char buf[64];

	spaa_sbuf_adds(sb, "<g id=\"axes\">\n");
	for (unsigned k = 1; k * wstep <= top; k++) {
		double v = k * wstep, y = bottom - v / top * o->height;

		spaa_sbuf_printf(sb, "<line x1=\"%u\" y1=\"%.2f\" x2=\"%u\" y2=\"%.2f\" "
				 "stroke=\"#ddd\"/>\n<text x=\"%u\" y=\"%.2f\" "
				 "text-anchor=\"end\">", LEFT, y, o->width - RIGHT, y,
				 LEFT - 4, y + 4);
		spaa_svg_human(sb, o->sem, v);
		spaa_sbuf_adds(sb, "</text>\n");
	}
	spaa_sbuf_printf(sb, "<line x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\" stroke=\"#000\"/>\n"
			 "<line x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\" stroke=\"#000\"/>\n",
			 LEFT, bottom, o->width - RIGHT, bottom,
			 LEFT, PLOT_TOP, LEFT, bottom);
	for (unsigned k = 0; k * step <= span; k++) {
		double t = k * step, x = LEFT + t / span * pw;

		spaa_sbuf_printf(sb, "<line x1=\"%.2f\" y1=\"%u\" x2=\"%.2f\" y2=\"%u\" "
				 "stroke=\"#000\"/>\n<text x=\"%.2f\" y=\"%u\" "
				 "text-anchor=\"middle\">%s</text>\n", x, bottom, x,
				 bottom + 4, x, bottom + 16,
				 k ? spaa_units_format_duration((int64_t)t, buf, sizeof(buf)) : "0");
	}
	spaa_sbuf_printf(sb, "<text x=\"%u\" y=\"%u\" text-anchor=\"end\">time from %"
			 PRId64 " ns (the profile's clock)</text>\n</g>\n",
			 o->width - RIGHT, bottom + 32, tc->t0);
}

static void legend(struct spaa_sbuf *sb, const struct plan *pl,
		   const struct spaa_timechart_opts *o)
{
	const struct spaa_strtab *names = &pl->tc->names;
	double col = (o->width - 20.0) / COLUMNS;
	unsigned y0 = PLOT_TOP + o->height + LEGEND;

	spaa_sbuf_adds(sb, "<g id=\"legend\">\n");
	for (uint32_t r = 0; r < pl->drawn + pl->other; r++) {
		double x = 10 + (double)(r % COLUMNS) * col;
		unsigned y = y0 + r / COLUMNS * ROW;
		const char *name = r < pl->drawn ? spaa_strtab_get(names, pl->order[r]) : o->other;
		size_t len = r < pl->drawn ? spaa_strtab_len(names, pl->order[r]) : strlen(name);
		uint64_t w = r < pl->drawn ? pl->series_total[pl->order[r]] : pl->other_total;

		spaa_sbuf_printf(sb, "<g data-s=\"%u\" data-name=\"", r);
		spaa_svg_text(sb, name, len, SIZE_MAX);
		spaa_sbuf_adds(sb, "\" cursor=\"pointer\"><title>");
		spaa_svg_text(sb, name, len, SIZE_MAX);
		spaa_sbuf_adds(sb, "\n");
		spaa_svg_human(sb, o->sem, (double)w * scale_of(o));
		spaa_sbuf_printf(sb, " (%.2f %%)</title><rect x=\"%.2f\" y=\"%u\" width=\"10\" "
				 "height=\"10\" fill=\"", pct(w, pl->tc->total), x, y - 9);
		spaa_svg_colour(sb, series_colour(pl, r));
		spaa_sbuf_printf(sb, "\"/><text x=\"%.2f\" y=\"%u\">", x + 14, y);
		spaa_svg_fit(sb, name, len, col - 20, SPAA_SVG_CHAR_W);
		spaa_sbuf_adds(sb, "</text></g>\n");
	}
	spaa_sbuf_adds(sb, "</g>\n");
}

static void line(struct spaa_sbuf *sb, const struct plan *pl,
		 const struct spaa_timechart_opts *o)
{
	const struct spaa_timechart *tc = pl->tc;
	double pw = o->width - LEFT - RIGHT, bottom = PLOT_TOP + o->height;

	spaa_sbuf_adds(sb, "<polyline id=\"line\" fill=\"none\" stroke=\"#222\" "
		       "stroke-width=\"1.5\" points=\"");
	for (uint32_t b = 0; b < tc->nbins; b++)
		spaa_sbuf_printf(sb, "%s%.2f,%.2f", b ? " " : "",
				 LEFT + (b + 0.5) * pw / tc->nbins,
				 bottom - (double)tc->line[b] * o->height / (double)pl->max_bin);
	spaa_sbuf_adds(sb, "\"/>\n");
}

#define RANK_ROW 18     /* px per ranking row */
#define RANK_BAR 270    /* x where the bars start */
#define RANK_ROOM 260   /* px right of the longest bar: its label */

/* The colour of a ranking row: its series' when drawn, else grey. */
static struct spaa_svg_rgb rank_colour(const struct plan *pl, const char *name)
{
	const struct spaa_strtab *names = &pl->tc->names;
	size_t len = strlen(name);

	for (uint32_t r = 0; r < pl->drawn; r++)
		if (spaa_strtab_len(names, pl->order[r]) == len &&
		    !memcmp(spaa_strtab_get(names, pl->order[r]), name, len))
			return pl->colour[r];
	return (struct spaa_svg_rgb){ 190, 190, 190 };
}

static void ranking(struct spaa_sbuf *sb, const struct plan *pl,
		    const struct spaa_timechart_opts *o, unsigned y0)
{
	const struct spaa_timechart *tc = pl->tc;
	/* a narrow picture keeps short bars, their labels running past its edge */
	double room = o->width >= RANK_BAR + RANK_ROOM + 50 ? o->width - RANK_BAR - RANK_ROOM : 50;
	uint64_t top = 0;

	for (size_t i = 0; i < tc->nranks; i++)
		if (tc->ranks[i].value > top)
			top = tc->ranks[i].value;
	spaa_sbuf_printf(sb, "<g id=\"ranking\">\n<text x=\"10\" y=\"%u\" font-weight=\"bold\">", y0);
	spaa_svg_text_str(sb, o->rank_title);
	if (tc->ranks_left_out)
		spaa_sbuf_printf(sb, " (the first %u; %zu more not drawn)",
				 SPAA_TIMECHART_RANK_MAX, tc->ranks_left_out);
	spaa_sbuf_adds(sb, "</text>\n");
	for (size_t i = 0; i < tc->nranks; i++) {
		const struct rank_row *r = &tc->ranks[i];
		unsigned y = y0 + (unsigned)(i + 1) * RANK_ROW;
		double w = top ? (double)r->value / (double)top * room : 0;

		spaa_sbuf_adds(sb, "<g><title>");
		spaa_svg_text_str(sb, r->name);
		spaa_sbuf_printf(sb, "\n%" PRIu64, r->value);
		if (r->has_inner)
			spaa_sbuf_printf(sb, ", %s %" PRIu64, o->inner_label, r->inner);
		if (r->mark) {
			spaa_sbuf_adds(sb, "\n");
			spaa_svg_text_str(sb, r->mark);
		}
		spaa_sbuf_printf(sb, "</title><text x=\"10\" y=\"%u\">", y);
		spaa_svg_fit(sb, r->name, strlen(r->name), RANK_BAR - 20, SPAA_SVG_CHAR_W);
		spaa_sbuf_printf(sb, "</text><rect class=\"value\" x=\"%u\" y=\"%u\" width=\"%.2f\" "
				 "height=\"12\" fill=\"", RANK_BAR, y - 10, w);
		spaa_svg_colour(sb, rank_colour(pl, r->name));
		spaa_sbuf_adds(sb, "\"/>");
		if (r->has_inner)
			spaa_sbuf_printf(sb, "<rect class=\"inner\" x=\"%u\" y=\"%u\" width=\"%.2f\" "
					 "height=\"6\" fill=\"#333\"/>", RANK_BAR, y - 7,
					 top ? (double)r->inner / (double)top * room : 0);
		spaa_sbuf_printf(sb, "<text x=\"%.2f\" y=\"%u\">", RANK_BAR + w + 6, y);
		spaa_svg_human(sb, o->sem, (double)r->value * scale_of(o));
		if (r->has_inner) {
			spaa_sbuf_printf(sb, " (%s ", o->inner_label);
			spaa_svg_human(sb, o->sem, (double)r->inner * scale_of(o));
			spaa_sbuf_adds(sb, ")");
		}
		if (r->mark) {
			spaa_sbuf_adds(sb, " <tspan class=\"mark\" fill=\"#c00000\" font-weight=\"bold\">");
			spaa_svg_text_str(sb, r->mark);
			spaa_sbuf_adds(sb, "</tspan>");
		}
		spaa_sbuf_adds(sb, "</text></g>\n");
	}
	spaa_sbuf_adds(sb, "</g>\n");
}

/* What "other" merges, said under the title. */
static void note_line(struct spaa_sbuf *sb, const struct plan *pl,
		      const struct spaa_timechart_opts *o)
{
	uint32_t rest = pl->nnamed - pl->drawn;

	if (!pl->other)
		return;
	spaa_sbuf_printf(sb, "%" PRIu32 " series beyond the top %" PRIu32 " drawn as '%s' "
			 "(%.2f %% of the weight)", rest, pl->drawn, o->other,
			 pct(pl->other_total, pl->tc->total));
	if (pl->capped)
		spaa_sbuf_printf(sb, "; at most %u bands in a picture", SPAA_SVG_MAX_SHAPES);
}

int spaa_timechart_write(const struct spaa_timechart *tc,
			 const struct spaa_timechart_opts *opts,
			 struct spaa_output *out, struct spaa_error *err)
{
	struct spaa_timechart_opts o = *opts;
	struct plan pl = { 0 };
	struct spaa_sbuf sb = { 0 }, note = { 0 };
	uint64_t *band = NULL;
	unsigned height, rows;
	int ret = -1;

	if (!o.width)
		o.width = SPAA_TIMECHART_WIDTH_DEFAULT;
	if (!o.height)
		o.height = SPAA_TIMECHART_HEIGHT_DEFAULT;
	if (!o.top)
		o.top = SPAA_TIMECHART_TOP_DEFAULT;
	if (!o.title)
		o.title = "Weight over time";
	if (!o.other)
		o.other = "other";
	if (!o.rank_title)
		o.rank_title = "Ranking";
	if (!o.inner_label)
		o.inner_label = "inner";
	if (!o.empty)
		o.empty = "nothing over time";
	if (!o.line_label)
		o.line_label = "line";
	if (o.width < 300 || o.width > 100000 || o.height < 100 || o.height > 10000)
		return spaa_error_set(err, SPAA_E_USAGE,
				      "time chart of %u x %u px is out of bounds (300 to 100000 wide, 100 to 10000 high)",
				      o.width, o.height);
	if (tc->nbins > SPAA_SVG_MAX_SHAPES / 2)
		return spaa_error_set(err, SPAA_E_LIMIT,
				      "a time chart draws at most %u bins, not %" PRIu32,
				      SPAA_SVG_MAX_SHAPES / 2, tc->nbins);
	if (!tc->total && !tc->nranks)
		return spaa_error_set(err, SPAA_E_NO_DATA,
				      "nothing to draw: the total weight is 0");
	plan(tc, o.top, &pl);
	rows = (pl.drawn + pl.other + COLUMNS - 1) / COLUMNS;
	height = PLOT_TOP + o.height + LEGEND + rows * ROW + 24;
	if (tc->nranks)
		height += 24 + (unsigned)(tc->nranks + 1) * RANK_ROW;

	spaa_svg_begin(&sb, o.width, height, o.title,
		       "#bins rect { shape-rendering: crispEdges; }\n"
		       "#bins g:hover rect { stroke: #000; stroke-width: 0.5; }\n");
	note_line(&note, &pl, &o);
	spaa_svg_header(&sb, o.width, o.title, o.what, note.s);
	spaa_sbuf_printf(&sb, "<text id=\"search\" class=\"button\" x=\"%u\" y=\"24\" "
			 "text-anchor=\"end\">Search</text>\n"
			 "<text id=\"details\" x=\"10\" y=\"%u\"> </text>\n"
			 "<text id=\"matched\" x=\"%u\" y=\"%u\" text-anchor=\"end\"> </text>\n",
			 o.width - 10, height - 10, o.width - 10, height - 10);
	if (tc->total) {
		axes(&sb, &pl, &o);
		spans(&sb, tc, &o);
	} else {
		spaa_sbuf_printf(&sb, "<text id=\"empty\" x=\"%u\" y=\"%u\" text-anchor=\"middle\">",
				 o.width / 2, PLOT_TOP + o.height / 2);
		spaa_svg_text_str(&sb, o.empty);
		spaa_sbuf_adds(&sb, "</text>\n");
	}
	legend(&sb, &pl, &o);
	if (tc->nranks)
		ranking(&sb, &pl, &o, PLOT_TOP + o.height + LEGEND + rows * ROW + 24);
	spaa_sbuf_adds(&sb, "<g id=\"bins\">\n");
	band = spaa_xmalloc(((size_t)pl.drawn + 1) * sizeof(*band));
	for (uint32_t b = 0; b < tc->nbins; b++) {
		if (tc->bin_total[b])
			bars(&sb, &pl, &o, b, band);
		if (sb.len >= 1 << 16 && spaa_svg_flush(&sb, out, err))
			goto out;
	}
	spaa_sbuf_adds(&sb, "</g>\n");
	if (tc->line && tc->total)
		line(&sb, &pl, &o);
	spaa_sbuf_adds(&sb, script);
	spaa_sbuf_adds(&sb, "</svg>\n");
	if (spaa_svg_flush(&sb, out, err))
		goto out;
	ret = 0;
out:
	free(band);
	free(sb.s);
	free(note.s);
	plan_release(&pl);
	return ret;
}

int spaa_timechart_write_file(const struct spaa_timechart *tc,
			      const struct spaa_timechart_opts *opts,
			      const char *path, struct spaa_error *err)
{
	struct spaa_output *out = NULL;

	if (spaa_output_open(&out, path, SPAA_INPUT_COMP_NONE, 0, err))
		return -1;
	if (spaa_timechart_write(tc, opts, out, err)) {
		spaa_output_abort(out);
		return -1;
	}
	return spaa_output_close(out, err);
}

int spaa_timechart_args_apply(const struct spaa_timechart_args *a,
			      struct spaa_timechart_opts *o,
			      struct spaa_error *err)
{
	if (spaa_svg_path_check(a->path, a->title || a->width,
				"'--svg-title' and '--svg-width'", err))
		return -1;
	if (a->width && (a->width < 300 || a->width > 100000))
		return spaa_error_set(err, SPAA_E_USAGE,
				      "'--svg-width' must be from 300 to 100000 pixels");
	o->title = a->title;
	o->width = (unsigned)a->width;
	return 0;
}
