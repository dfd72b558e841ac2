/*
 * svg - the shared pieces of every picture; the rules are in svg.h.
 */
#include <math.h>
#include <string.h>

#include "model/util.h"
#include "report/svg.h"

/* ---- text ---------------------------------------------------------------- */

/*
 * The length of the character at s[0..n) (> 0) and its code point, U+FFFD
 * for an invalid sequence (its maximal subpart, util.h) and for the two
 * code points XML 1.0 excludes that UTF-8 allows, U+FFFE and U+FFFF.
 */
static size_t xml_char(const char *s, size_t n, uint32_t *cp)
{
	int k = spaa_utf8_seq((const unsigned char *)s, n, cp);

	if (k < 0 || *cp == 0xFFFE || *cp == 0xFFFF)
		*cp = 0xFFFD;
	return k < 0 ? (size_t)-k : (size_t)k;
}

size_t spaa_svg_chars(const char *s, size_t n)
{
	size_t chars = 0;
	uint32_t cp;

	for (size_t i = 0; i < n; chars++)
		i += xml_char(s + i, n - i, &cp);
	return chars;
}

void spaa_svg_text(struct spaa_sbuf *sb, const char *s, size_t n, size_t max)
{
	for (size_t i = 0, chars = 0; i < n && chars < max; chars++) {
		uint32_t cp;
		size_t k = xml_char(s + i, n - i, &cp);

		switch (cp) {
		case '&': spaa_sbuf_adds(sb, "&amp;"); break;
		case '<': spaa_sbuf_adds(sb, "&lt;"); break;
		case '>': spaa_sbuf_adds(sb, "&gt;"); break;
		case '"': spaa_sbuf_adds(sb, "&quot;"); break;
		case '\'': spaa_sbuf_adds(sb, "&apos;"); break;
		case 0xFFFD: spaa_sbuf_adds(sb, "\xEF\xBF\xBD"); break;
		default:
			/* XML 1.0 allows no C0 control but tab/LF/CR: all become blanks */
			if (cp < 0x20 || cp == 0x7F)
				spaa_sbuf_adds(sb, " ");
			else
				spaa_sbuf_add(sb, s + i, k);
		}
		i += k;
	}
}

void spaa_svg_text_str(struct spaa_sbuf *sb, const char *s)
{
	spaa_svg_text(sb, s, strlen(s), SIZE_MAX);
}

void spaa_svg_fit(struct spaa_sbuf *sb, const char *s, size_t n, double room,
		  double char_w)
{
	long k;

	if ((double)spaa_svg_chars(s, n) * char_w <= room) {
		spaa_svg_text(sb, s, n, SIZE_MAX);
		return;
	}
	k = (long)floor(room / char_w) - 2;
	if (k < 1)
		return;
	spaa_svg_text(sb, s, n, (size_t)k);
	spaa_sbuf_adds(sb, "..");
}

/* ---- values -------------------------------------------------------------- */

/* v with 3 significant digits at most, then the unit ("12.3 ms"). */
static void scaled(struct spaa_sbuf *sb, double v, const char *const *units,
		   const double *steps, size_t nunits, const char *suffix)
{
	double a = fabs(v);
	size_t u = 0;

	while (u + 1 < nunits && a >= steps[u + 1] * 0.9995)
		u++;
	a = v / steps[u];
	spaa_sbuf_printf(sb, "%.*f %s%s", fabs(a) < 9.995 ? 2 : fabs(a) < 99.95 ? 1 : 0,
			 a, units[u], suffix);
}

void spaa_svg_human(struct spaa_sbuf *sb, const struct spaa_metrics_sem *sem,
		    double v)
{
	static const char *const time_u[] = { "ns", "us", "ms", "s" };
	static const double time_s[] = { 1, 1e3, 1e6, 1e9 };
	static const char *const size_u[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	static const double size_s[] = { 1, 1024.0, 1048576.0, 1073741824.0,
					 1099511627776.0 };
	static const char *const si_u[] = { "", "k", "M", "G", "T" };
	static const double si_s[] = { 1, 1e3, 1e6, 1e9, 1e12 };

	if (sem && sem->cls == SPAA_METRICS_DURATION) {
		if (fabs(v) < 999.5)
			spaa_sbuf_printf(sb, "%.0f ns", v);
		else
			scaled(sb, v, time_u, time_s, 4, "");
	} else if (sem && sem->cls == SPAA_METRICS_SIZE) {
		if (fabs(v) < 1023.5)
			spaa_sbuf_printf(sb, "%.0f B", v);
		else
			scaled(sb, v, size_u, size_s, 5, "");
	} else {
		const char *unit = sem && sem->cls == SPAA_METRICS_NUMBER ? sem->unit : "";

		if (fabs(v) < 9999.5)
			spaa_sbuf_printf(sb, "%.0f%s%s", v, *unit ? " " : "", unit);
		else
			scaled(sb, v, si_u, si_s, 5, unit);
	}
}

void spaa_svg_signed_human(struct spaa_sbuf *sb,
			   const struct spaa_metrics_sem *sem, double v)
{
	spaa_sbuf_adds(sb, v > 0 ? "+" : v < 0 ? "-" : "");
	spaa_svg_human(sb, sem, fabs(v));
}

double spaa_svg_step(double span, unsigned max_ticks)
{
	static const double mult[] = { 1, 2, 5 };

	if (!(span > 0) || !max_ticks)
		return 1;
	/* a few dozen rounds at most: 10^20 passes any 64-bit weight */
	for (double p = 1;; p *= 10)
		for (size_t i = 0; i < 3; i++)
			if (span / (mult[i] * p) <= max_ticks)
				return mult[i] * p;
}

/* ---- colours ------------------------------------------------------------- */

static unsigned char channel(double p, double q, double t)
{
	double v;

	t -= floor(t);
	if (t < 1.0 / 6)
		v = p + (q - p) * 6 * t;
	else if (t < 0.5)
		v = q;
	else if (t < 2.0 / 3)
		v = p + (q - p) * (2.0 / 3 - t) * 6;
	else
		v = p;
	return (unsigned char)lround(v * 255);
}

struct spaa_svg_rgb spaa_svg_hsl(double h, double s, double l)
{
	double q = l < 0.5 ? l * (1 + s) : l + s - l * s, p = 2 * l - q;

	h /= 360;
	return (struct spaa_svg_rgb){ channel(p, q, h + 1.0 / 3), channel(p, q, h),
				      channel(p, q, h - 1.0 / 3) };
}

double spaa_svg_name_hue(const char *name, size_t n)
{
	return (double)(spaa_hash_bytes(name, n) % 360);
}

struct spaa_svg_rgb spaa_svg_hue_colour(double hue, const char *name, size_t n)
{
	/* one of four lightness steps, from other bits than the hue's */
	return spaa_svg_hsl(hue, 0.55,
			    0.55 + (double)((spaa_hash_bytes(name, n) >> 32) % 4) * 0.06);
}

struct spaa_svg_rgb spaa_svg_name_colour(const char *name, size_t n)
{
	return spaa_svg_hue_colour(spaa_svg_name_hue(name, n), name, n);
}

void spaa_svg_colour(struct spaa_sbuf *sb, struct spaa_svg_rgb c)
{
	spaa_sbuf_printf(sb, "#%02x%02x%02x", c.r, c.g, c.b);
}

/* ---- document ------------------------------------------------------------ */

void spaa_svg_begin(struct spaa_sbuf *sb, unsigned width, unsigned height,
		    const char *title, const char *style)
{
	spaa_sbuf_printf(sb, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
			 "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" "
			 "width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\">\n<title>",
			 width, height, width, height);
	spaa_svg_text_str(sb, title);
	spaa_sbuf_adds(sb, "</title>\n<style>\n"
		       "text { font-family: monospace; font-size: 11px; fill: #000; }\n"
		       "#title { font-size: 17px; }\n"
		       "#what, #note { fill: #555; }\n"
		       ".button { fill: #1a4f9c; cursor: pointer; }\n");
	spaa_sbuf_adds(sb, style ? style : "");
	spaa_sbuf_printf(sb, "</style>\n"
			 "<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" fill=\"#f6f6f0\"/>\n",
			 width, height);
}

void spaa_svg_header(struct spaa_sbuf *sb, unsigned width, const char *title,
		     const char *what, const char *note)
{
	double usable = width - 20.0;

	spaa_sbuf_printf(sb, "<text id=\"title\" x=\"%u\" y=\"24\" text-anchor=\"middle\">",
			 width / 2);
	/* the buttons take about 100 px on each side of the title */
	spaa_svg_fit(sb, title, strlen(title), usable - 200, SPAA_SVG_TITLE_CHAR_W);
	spaa_sbuf_printf(sb, "</text>\n<text id=\"what\" x=\"%u\" y=\"42\" text-anchor=\"middle\">",
			 width / 2);
	if (what)
		spaa_svg_fit(sb, what, strlen(what), usable, SPAA_SVG_CHAR_W);
	spaa_sbuf_printf(sb, "</text>\n<text id=\"note\" x=\"%u\" y=\"58\" text-anchor=\"middle\">",
			 width / 2);
	if (note)
		spaa_svg_fit(sb, note, strlen(note), usable, SPAA_SVG_CHAR_W);
	spaa_sbuf_adds(sb, "</text>\n");
}

int spaa_svg_path_check(const char *path, bool others_given, const char *others,
			struct spaa_error *err)
{
	if (others_given && !path)
		return spaa_error_set(err, SPAA_E_USAGE, "%s need '--svg FILE'", others);
	if (path && (!*path || !strcmp(path, "-")))
		return spaa_error_set(err, SPAA_E_USAGE,
				      "'--svg' needs a file name: standard output carries the results");
	return 0;
}

int spaa_svg_flush(struct spaa_sbuf *sb, struct spaa_output *out,
		   struct spaa_error *err)
{
	int ret = spaa_output_write(out, sb->s, sb->len, err);

	sb->len = 0;
	return ret;
}
