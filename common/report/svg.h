/*
 * svg - what every picture of spaa-tools shares: text made safe for XML,
 * labels fitted to a width, values in human units, colours from names,
 * axes with round ticks, the document's head and its buffered writing.
 * The flame graphs (flamegraph.h) and the time charts (timechart.h) are
 * drawn with it, so they escape, round and colour alike.
 *
 * Text: names carry arbitrary bytes; spaa_svg_text writes valid UTF-8
 * XML that is safe in element content and in double-quoted attributes
 * (invalid sequences and U+FFFE/U+FFFF become U+FFFD, C0 controls and DEL
 * a blank, markup characters entities), so a document is well-formed
 * whatever the input.
 *
 * Numbers: coordinates are written with two decimals ("%.2f"), so the
 * same input gives the same bytes on every machine.
 *
 * Colours: spaa_svg_name_colour hashes the name alone (spaa_hash_bytes,
 * unseeded), so a function keeps its colour across pictures and runs.
 *
 * Bounds: a picture draws at most SPAA_SVG_MAX_SHAPES data shapes (bars,
 * bands, frames); each drawer says in a note what it merged to stay
 * under it.
 *
 * Everything appends to a struct spaa_sbuf the caller owns.
 */
#ifndef SPAA_SVG_H
#define SPAA_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/output.h"
#include "model/error.h"
#include "model/metrics.h"
#include "model/sbuf.h"

#define SPAA_SVG_MAX_SHAPES 20000u

/* Characters of the 11 px and 17 px monospace text every picture uses. */
#define SPAA_SVG_CHAR_W 6.7
#define SPAA_SVG_TITLE_CHAR_W 10.4

/* ---- text ---------------------------------------------------------------- */

/* Characters s[0..n) shows as (invalid sequences count as one each). */
size_t spaa_svg_chars(const char *s, size_t n);

/* Appends at most max characters of s[0..n) as XML text (above). */
void spaa_svg_text(struct spaa_sbuf *sb, const char *s, size_t n, size_t max);
void spaa_svg_text_str(struct spaa_sbuf *sb, const char *s);

/*
 * s[0..n) as XML text if it fits room px at char_w px per character,
 * else its first characters and "..", or nothing when not even one
 * character and the dots fit.
 */
void spaa_svg_fit(struct spaa_sbuf *sb, const char *s, size_t n, double room,
		  double char_w);

/* ---- values -------------------------------------------------------------- */

/*
 * v, in the class units of sem (ns, bytes, counts; NULL: counts), for
 * people: "812 ns", "12.3 ms", "4.50 MiB", "1234", "12.3 k", with three
 * significant digits past the first unit step.
 */
void spaa_svg_human(struct spaa_sbuf *sb, const struct spaa_metrics_sem *sem,
		    double v);
/* The same with a sign: "+1.20 ms", "-3 B", "0". */
void spaa_svg_signed_human(struct spaa_sbuf *sb,
			   const struct spaa_metrics_sem *sem, double v);

/*
 * The smallest round step (1, 2 or 5 times a power of ten, at least 1)
 * that cuts span into at most max_ticks steps; 1 for a span of 0.  span
 * and the result are in class units (ns, bytes, counts).
 */
double spaa_svg_step(double span, unsigned max_ticks);

/* ---- colours ------------------------------------------------------------- */

struct spaa_svg_rgb {
	unsigned char r, g, b;
};

/* h in degrees, s and l in [0, 1]. */
struct spaa_svg_rgb spaa_svg_hsl(double h, double s, double l);

/*
 * The colour of a name in charts: any hue, mid saturation and lightness
 * (black labels stay readable), from a hash of the name's bytes.
 */
struct spaa_svg_rgb spaa_svg_name_colour(const char *name, size_t n);
/* Its two parts: the hue in degrees, and a colour of a given hue. */
double spaa_svg_name_hue(const char *name, size_t n);
struct spaa_svg_rgb spaa_svg_hue_colour(double hue, const char *name, size_t n);

/* "#rrggbb" */
void spaa_svg_colour(struct spaa_sbuf *sb, struct spaa_svg_rgb c);

/* ---- document ------------------------------------------------------------ */

/*
 * The XML declaration, the <svg> root of width x height px and its
 * <title>, then style (the caller's rules, appended to the shared ones:
 * 11 px monospace text, #title 17 px, #what and #note grey, .button
 * blue) and a background rect.  The caller closes with "</svg>\n".
 */
void spaa_svg_begin(struct spaa_sbuf *sb, unsigned width, unsigned height,
		    const char *title, const char *style);

/*
 * The header lines every picture has, centred: the title (fitted to
 * width - 220 px, the buttons' room) at y 24, the what line at 42 and the
 * note at 58 (fitted to width - 20 px; NULL or "" writes an empty text).
 * Ids: title, what, note.
 */
void spaa_svg_header(struct spaa_sbuf *sb, unsigned width, const char *title,
		     const char *what, const char *note);

/*
 * The checks of a program's --svg FILE option: path NULL while others
 * (the names of the options that shape the picture, e.g. "'--svg-title'
 * and '--svg-width'") were given, or a path of "" or "-" (standard output
 * carries the results) are SPAA_E_USAGE.
 */
int spaa_svg_path_check(const char *path, bool others_given, const char *others,
			struct spaa_error *err);

/* Writes sb to out and empties it. */
int spaa_svg_flush(struct spaa_sbuf *sb, struct spaa_output *out,
		   struct spaa_error *err);

#endif
