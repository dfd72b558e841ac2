/*
 * timechart - weight over time as stacked bars, standalone SVG: one bar
 * per time bin, cut into bands, one per named series (a function, an
 * allocation site), the heaviest series at the bottom, the series
 * beyond the top ones merged into one grey "other" band on top.  Spans
 * (phases) are drawn as boundaries with a label above the bars.  A bin
 * without weight is a gap.
 *
 *     tc = spaa_timechart_new(t0, bin_width, nbins);
 *     spaa_timechart_add(tc, bin, name, len, weight);      any order
 *     spaa_timechart_span(tc, first, last, label);         time order
 *     spaa_timechart_write(tc, &opts, out, err);
 *
 * Geometry (px; W the width, H the plot height, n the bins, M the
 * largest bin total):
 *   plot     x from L = 80 to W - 20, y from T = 96 down to B = T + H
 *   bin i    x = L + i (W - 100) / n, width (W - 100) / n
 *   band     height w H / M, stacked from B up in the series order:
 *            total weight descending, then name bytewise; "other" last
 *   span     boundary at the x of its first bin (all spans but the
 *            first) from T - 16 to B; label at that x + 3, y T - 4,
 *            fitted to the span's width
 *   axes     time ticks every spaa_svg_step(n width, (W - 100) / 100) ns
 *            from t0, labelled in human units; weight ticks every
 *            spaa_svg_step(M scale, 5) with light grid lines
 *   legend   from B + 48, rows of 16 px, three columns
 * Coordinates are written with two decimals.
 *
 * Line (spaa_timechart_line, when values were set): a polyline through
 * (x of each bin's middle, B - v H / M), M then the larger of the largest
 * bin total and the largest line value; each bin's hover text adds the
 * line's value after opts.line_label.
 *
 * Ranking (spaa_timechart_rank, when rows were added): under the legend,
 * a title at y Y = B + 48 + legend rows x 16 + 24, then one row of 18 px
 * per call, in call order (at most SPAA_TIMECHART_RANK_MAX): the name at
 * x 10 fitted to 250 px; a bar from x 270, 12 px high, of length
 * value / V x R (R = W - 530, at least 50; V the largest value) in the
 * series' colour (grey when the name is not a drawn series); the inner
 * value (live bytes) as a dark bar of inner / V x R over its start, half
 * as high; after
 * the bar the value (and "inner_label inner") in human units and the
 * mark, red.  Each row's <title> holds the exact values.
 *
 * Hover: each bin is a <g> whose <title> gives its time range (from t0
 * and in the profile's clock), its weight and its three heaviest series,
 * so any viewer shows it; with scripts, the line at the bottom shows it
 * too, a click on a legend entry (or "Search", Ctrl-F or "/" with a
 * regular expression over the series names) highlights series, Escape
 * resets.
 *
 * Bounds: at most SPAA_SVG_MAX_SHAPES bands: the series drawn are the
 * top opts.top (default 10), fewer when n x (series + 1) would pass the
 * bound; n itself may be at most SPAA_SVG_MAX_SHAPES / 2.  The note
 * under the title says how many series "other" merges and their share.
 *
 * Colours: spaa_svg_name_colour of the series name (svg.h): the same
 * function has the same colour in every chart and run, unless a heavier
 * series of the same chart has a hue within 24 degrees: its hue then turns
 * by the golden angle (137.5 degrees) until it is that far from all of
 * them, so the same top series always get the same colours.
 *
 * Ownership: spaa_timechart_new hands the caller a chart freed by
 * spaa_timechart_free (NULL accepted); names and labels are copied;
 * options and their strings are borrowed for the call.
 */
#ifndef SPAA_TIMECHART_H
#define SPAA_TIMECHART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/output.h"
#include "model/error.h"
#include "model/metrics.h"
#include "report/option.h"

struct spaa_timechart_opts {
	const char *title;      /* NULL: "Weight over time" */
	const char *what;       /* line under the title, e.g. the event */
	unsigned width;         /* px; 0: 1200; 300 to 100000 */
	unsigned height;        /* plot px; 0: 300; 100 to 10000 */
	unsigned top;           /* series drawn; 0: 10 */
	const char *other;      /* NULL: "other" */
	const struct spaa_metrics_sem *sem;     /* how weights read; NULL: counts */
	const char *rank_title;  /* above the ranking; NULL: "Ranking" */
	const char *inner_label; /* what an inner value is; NULL: "inner" */
	const char *line_label;  /* what the line is, in hover texts; NULL: "line" */
	/* said in the plot when no bin has weight (a chart of a ranking alone) */
	const char *empty;      /* NULL: "nothing over time" */
};

#define SPAA_TIMECHART_RANK_MAX 50u

#define SPAA_TIMECHART_WIDTH_DEFAULT 1200u
#define SPAA_TIMECHART_HEIGHT_DEFAULT 300u
#define SPAA_TIMECHART_TOP_DEFAULT 10u

/*
 * The command-line options of a program that draws a time chart (--svg
 * FILE, --svg-title, --svg-width), as given: a field of type struct
 * spaa_timechart_args in the program's options struct, filled by the
 * entries SPAA_TIMECHART_OPTIONS(struct, field, help) makes (help: what
 * --svg draws).
 */
struct spaa_timechart_args {
	const char *path;       /* NULL: no chart */
	const char *title;      /* NULL: the program's default */
	uint64_t width;         /* 0: the default */
};

#define SPAA_TIMECHART_OPTIONS(type, field, help) \
	{ "svg", 0, SPAA_OPTION_STRING, offsetof(type, field.path), "FILE", \
	  help, NULL, NULL }, \
	{ "svg-title", 0, SPAA_OPTION_STRING, offsetof(type, field.title), "TEXT", \
	  "title of the picture (default: named after the input)", NULL, NULL }, \
	{ "svg-width", 0, SPAA_OPTION_U64, offsetof(type, field.width), "PX", \
	  "width of the picture in pixels (default: 1200)", NULL, NULL }

/*
 * Checks a and sets o's title and width from it.  SPAA_E_USAGE:
 * "'--svg-title' and '--svg-width' need '--svg FILE'", "'--svg' needs a
 * file name: standard output carries the results", "'--svg-width' must
 * be from 300 to 100000 pixels".
 */
int spaa_timechart_args_apply(const struct spaa_timechart_args *a,
			      struct spaa_timechart_opts *o,
			      struct spaa_error *err);

struct spaa_timechart;

/*
 * A chart of nbins bins of width ns from t0 (bin i covers
 * [t0 + i width, t0 + (i + 1) width - 1]), owned by the caller.
 */
struct spaa_timechart *spaa_timechart_new(int64_t t0, int64_t width,
					  uint32_t nbins);
void spaa_timechart_free(struct spaa_timechart *tc);    /* accepts NULL */

/*
 * Adds weight to series name (len bytes) in bin (< nbins).  Returns 0,
 * or -1 with SPAA_E_LIMIT when a sum would overflow 64 bits.
 */
int spaa_timechart_add(struct spaa_timechart *tc, uint32_t bin,
		       const char *name, size_t len, uint64_t weight,
		       struct spaa_error *err);

/*
 * Adds a row to the ranking: name (copied), value, an inner value when
 * has_inner, a mark (copied; NULL: none).  Rows past
 * SPAA_TIMECHART_RANK_MAX are counted, not drawn, and the ranking's
 * title says so.
 */
void spaa_timechart_rank(struct spaa_timechart *tc, const char *name,
			 uint64_t value, bool has_inner, uint64_t inner,
			 const char *mark);

/* Sets the line's value at bin (< nbins); bins never set are 0. */
void spaa_timechart_line(struct spaa_timechart *tc, uint32_t bin, uint64_t value);

/* Marks bins first..last (inclusive, after the previous span) as a span. */
void spaa_timechart_span(struct spaa_timechart *tc, uint32_t first,
			 uint32_t last, const char *label);

/*
 * Writes the SVG document.  Fails with SPAA_E_NO_DATA when no bin has
 * weight and there is no ranking (with one, the plot says opts.empty), SPAA_E_LIMIT for more than SPAA_SVG_MAX_SHAPES / 2 bins,
 * SPAA_E_USAGE for a width or height out of bounds, SPAA_E_IO from out.
 */
int spaa_timechart_write(const struct spaa_timechart *tc,
			 const struct spaa_timechart_opts *opts,
			 struct spaa_output *out, struct spaa_error *err);

/* spaa_timechart_write into a new file at path (replaced only on success). */
int spaa_timechart_write_file(const struct spaa_timechart *tc,
			      const struct spaa_timechart_opts *opts,
			      const char *path, struct spaa_error *err);

#endif
