/*
 * flamegraph - flame graphs as standalone interactive SVG.
 *
 * A flame graph draws a call tree: one box per call path prefix, the
 * root ("all") at the bottom, each frame's callees stacked on top of it,
 * the width of a box proportional to its total weight.  Stacks are fed in
 * one at a time, root first, and merged into a trie by function name
 * (as folded stacks merge them), so memory grows with the distinct call
 * path prefixes, never with the samples behind them.
 *
 *     spaa_flamegraph_begin(fg);
 *     for each frame, root first: spaa_flamegraph_push(fg, name, dso, kind);
 *     spaa_flamegraph_add(fg, weight, baseline, err);
 *
 * Layout (spaa_flamegraph_write): siblings sorted by name (bytewise), so the
 * same tree draws the same whatever the input order; x and width in px
 * are weight * (width - 20) / total, written with two decimals; depth d
 * sits 16 px above depth d - 1 (below it in the inverted view, which
 * starts 16 px lower, under its button).  Frames narrower than min_width
 * px (and everything above them) are left out and counted in a note
 * under the title; so are frames past SPAA_FLAMEGRAPH_MAX_FRAMES.
 * Nothing recurses: deep stacks cost heap, not C stack.
 *
 * Colours: a hue band per kind of code (below), a hue within the band
 * from a hash of the DSO name (of the function name when the DSO is
 * unknown), so one DSO keeps one colour across graphs, and a small
 * lightness step from the function name so neighbours stay apart.
 *
 * Differential graphs (opts.cmp set): the layout and widths are the
 * target's; each frame is coloured by the delta of its total weight
 * (spaa_compare_compute, so --normalize applies): red grew, blue shrank, the
 * intensity proportional to |delta| over the largest |delta| of any frame
 * but the root; grey unchanged.  Frames only in the baseline have no
 * width in the target and cannot be drawn: their baseline weight is
 * listed in their parent's hover text ("gone below") and their number
 * and weight in a note under the title, so nothing vanishes silently.
 *
 * The SVG embeds its own script (no network, no external file): hover
 * shows a frame's details at the bottom, click zooms into a frame (its
 * ancestors stay, dimmed, full width), "Reset zoom" and Escape go back,
 * "Search" (or Ctrl-F, or "/") takes a regular expression, highlights the
 * frames whose name matches and shows the share of the total they cover
 * (nested matches counted once).  Viewers without scripts (rsvg-convert,
 * image previews) show the full graph.
 *
 * Names and DSOs carry arbitrary bytes: they are written as valid UTF-8
 * XML text (invalid sequences become U+FFFD, control characters a blank,
 * markup characters entities), so the file is always well-formed.
 *
 * Ownership: spaa_flamegraph_new hands the caller a graph freed by
 * spaa_flamegraph_free (NULL accepted); names and DSOs pushed are copied.
 * Options and their strings are borrowed for the call.
 */
#ifndef SPAA_FLAMEGRAPH_H
#define SPAA_FLAMEGRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/compare.h"
#include "io/output.h"
#include "model/error.h"
#include "model/metrics.h"
#include "model/profile.h"
#include "report/option.h"
#include "report/svg.h"

struct spaa_aggregate;

/* What a frame's code is; each kind has its own hue band. */
enum spaa_flamegraph_kind {
	SPAA_FLAMEGRAPH_USER,        /* the program's own native code: red */
	SPAA_FLAMEGRAPH_KERNEL,      /* orange */
	SPAA_FLAMEGRAPH_LIBRARY,     /* native shared library (*.so*): yellow */
	SPAA_FLAMEGRAPH_JIT,         /* JIT-compiled (perf-PID.map, [JIT]): green */
	SPAA_FLAMEGRAPH_INTERPRETED, /* script code (php, *.js, *.py ...): aqua */
};

/*
 * The kind of a frame of DSO dso (NULL or "" when unknown) that the
 * profile marks as kernel code or not:
 *   kernel flag, "[kernel*", "*kallsyms*", "[*.ko]"      kernel
 *   "perf-*.map", "[JIT]*", "*jitted-*", "//anon", "[anon*"  JIT
 *   "php" (SPX), "node:*" (Node.js built-ins), URLs ("scheme://..."),
 *   names ending in .js, .mjs, .py, .php, .rb, .pl, .lua  interpreted
 *   ".so" in the base name, *.dylib, *.dll               library
 *   anything else, an unknown DSO included               user
 */
enum spaa_flamegraph_kind spaa_flamegraph_classify(const char *dso, bool kernel);

/* How to draw; zeroed fields take the defaults. */
struct spaa_flamegraph_opts {
	const char *title;      /* NULL: "Flame graph" */
	const char *what;       /* line under the title, e.g. the event */
	unsigned width;         /* px; 0: 1200; at least 100 */
	double min_width;       /* px; frames narrower are left out */
	const struct spaa_metrics_sem *sem;      /* how weights read; NULL: counts */
	const struct spaa_compare *cmp;     /* set: differential (baseline weights) */
	/*
	 * Set (not with cmp): also draw this graph, fed leaf first
	 * (spaa_flamegraph_add_paths), as an icicle behind an "Inverted
	 * (callers)" button: the root on top, each leaf function under it,
	 * their callers below.  Scripts show one view at a time.
	 */
	const struct spaa_flamegraph *inverted;
};

/*
 * The command-line options of every program that draws a flame graph
 * (--svg-title, --svg-width, --svg-min-width), as given: a field of type
 * struct spaa_flamegraph_args in the program's options struct, filled by
 * the option table entries SPAA_FLAMEGRAPH_OPTIONS(struct, field) make.
 */
struct spaa_flamegraph_args {
	const char *title;      /* NULL: the program's default */
	uint64_t width;         /* 0: the default */
	const char *min_width;  /* NULL: the default */
};

#define SPAA_FLAMEGRAPH_OPTIONS(type, field) \
	{ "svg-title", 0, SPAA_OPTION_STRING, offsetof(type, field.title), "TEXT", \
	  "title of the flame graph (default: named after the input)", NULL, NULL }, \
	{ "svg-width", 0, SPAA_OPTION_U64, offsetof(type, field.width), "PX", \
	  "width of the flame graph in pixels (default: 1200)", NULL, NULL }, \
	{ "svg-min-width", 0, SPAA_OPTION_STRING, offsetof(type, field.min_width), "PX", \
	  "leave out frames narrower than PX pixels, counted in a note (default: 0.1)", \
	  NULL, NULL }

/* Whether any of them was given. */
static inline bool spaa_flamegraph_args_given(const struct spaa_flamegraph_args *a)
{
	return a->title || a->width || a->min_width;
}

/*
 * Checks a and sets o's title, width and min_width from it (defaults
 * where not given).  SPAA_E_USAGE: "'--svg-width' must be from 100 to
 * 100000 pixels", "'--svg-min-width' must be a non-negative number of
 * pixels, not 'x'".
 */
int spaa_flamegraph_args_apply(const struct spaa_flamegraph_args *a,
			       struct spaa_flamegraph_opts *o,
			       struct spaa_error *err);

/*
 * The same for a program whose --svg FILE (path, NULL when not given)
 * draws a flame graph: also checks the path (spaa_svg_path_check).
 */
int spaa_flamegraph_args_check(const char *path,
			       const struct spaa_flamegraph_args *a,
			       struct spaa_flamegraph_opts *o,
			       struct spaa_error *err);

#define SPAA_FLAMEGRAPH_WIDTH_DEFAULT 1200u
/* widths the tools accept: narrower is unreadable, wider no screen shows */
#define SPAA_FLAMEGRAPH_WIDTH_MIN 100u
#define SPAA_FLAMEGRAPH_WIDTH_MAX 100000u
#define SPAA_FLAMEGRAPH_MIN_WIDTH_DEFAULT 0.1
/*
 * Frames one view draws at most: past it, min_width doubles until they
 * fit (or frames would have to be wider than the graph), and the note
 * says the width used.  Higher than svg.h's bound on bars: a deep stack
 * is one frame per level, and 100000 frames are about 25 MB of SVG.
 */
#define SPAA_FLAMEGRAPH_MAX_FRAMES 100000u

struct spaa_flamegraph;

/* A new, empty flame graph owned by the caller (spaa_flamegraph_free). */
struct spaa_flamegraph *spaa_flamegraph_new(void);
void spaa_flamegraph_free(struct spaa_flamegraph *fg);    /* accepts NULL */

/* Starts a stack at the root. */
void spaa_flamegraph_begin(struct spaa_flamegraph *fg);

/*
 * Descends to the child named name (len bytes) of the current frame,
 * creating it with dso (NULL: unknown) and kind when new; a function
 * name met again under the same parent keeps its first DSO and kind.
 */
void spaa_flamegraph_push(struct spaa_flamegraph *fg, const char *name, size_t len,
		     const char *dso, enum spaa_flamegraph_kind kind);

/*
 * Adds weight (target) and baseline (differential graphs; else 0) to the
 * current frame and every frame below it.  Returns 0, or -1 with
 * SPAA_E_LIMIT when the total would overflow 64 bits.
 */
int spaa_flamegraph_add(struct spaa_flamegraph *fg, uint64_t weight, uint64_t baseline,
		   struct spaa_error *err);

/*
 * Adds the call paths of a (aggregate.h, paths by name) to fg with their
 * weights, root first, or leaf first when inverted (the graph of the
 * callers of each leaf function).  A frame's DSO and kind are those of
 * the first function of a's profile with its name.  Errors: those of
 * spaa_flamegraph_add.
 */
int spaa_flamegraph_add_paths(struct spaa_flamegraph *fg,
			      const struct spaa_aggregate *a, bool inverted,
			      struct spaa_error *err);

/* Total weight added so far (the root's). */
uint64_t spaa_flamegraph_total(const struct spaa_flamegraph *fg);

/*
 * Writes the SVG document.  Fails with SPAA_E_NO_DATA when the total
 * weight is 0 (nothing to draw), SPAA_E_USAGE for a width below 100 or a
 * negative min_width, or SPAA_E_IO from out.
 */
int spaa_flamegraph_write(const struct spaa_flamegraph *fg,
		     const struct spaa_flamegraph_opts *opts,
		     struct spaa_output *out, struct spaa_error *err);

/* spaa_flamegraph_write into a new file at path (replaced only on success). */
int spaa_flamegraph_write_file(const struct spaa_flamegraph *fg,
			       const struct spaa_flamegraph_opts *opts,
			       const char *path, struct spaa_error *err);

/*
 * The flame graph of one event and metric of a loaded profile, selected
 * as the analyses select them (weights.h: NULL for the first event and
 * its primary metric), of every stack record but those absorbed into a
 * logical stack; opts' what and sem are set here.  Errors: those of
 * spaa_weights_select and spaa_flamegraph_write.
 */
int spaa_flamegraph_write_profile(const struct spaa_profile *p,
				  const char *event, const char *metric_name,
				  const struct spaa_flamegraph_opts *opts,
				  struct spaa_output *out, struct spaa_error *err);

#endif
