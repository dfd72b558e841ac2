/*
 * textout - results for people and spreadsheets (--format text, csv) and
 * the progress bar drawn on a terminal.
 *
 * Both formats render the struct spaa_lami_results an analysis built, so an
 * analysis never knows which format is asked for; the rows are the same
 * (--limit included), only the rendering differs.
 *
 * text: per table its title, a header line, a rule of dashes and the rows
 * as aligned columns, two spaces apart; tables separated by a blank line.
 * Numeric classes are right-aligned, the others left-aligned and the last
 * column is not padded (no trailing blanks).  Cells in human units:
 *   duration   3 significant digits, ns/µs/ms/s  1477477476 -> "1.48 s"
 *   size       3 significant digits, B/KiB/MiB/GiB/TiB/PiB/EiB
 *                                                4718592 -> "4.5 MiB"
 *   ratio      percent, one decimal              0.3721 -> "37.2 %"
 *   number     up to 3 significant digits with k/M/G/T/P/E above 1000;
 *              unit "ns" or "bytes" as a signed duration or size
 *   int        exact; timestamp seconds with 9 decimals "100.000000001";
 *   time-range "[BEGIN, END]" as timestamps; process "name (pid/tid)";
 *   cpu        the id; bool "yes"/"no"; empty ""; unknown "?".
 * Rounding is half away from zero: on the exact decimal value for
 * durations and sizes (integer arithmetic: 1005000 ns -> "1.01 ms"), on
 * the double for ratios (0.3125 -> "31.3 %"); other numbers are rounded
 * by printf.  When rounding carries into the next unit the next unit is
 * used (999500000 ns -> "1 s").  Trailing zeros after the decimal point
 * are dropped, except in percentages ("4.5 MiB", "1 s", "50.0 %").
 * Strings: control characters become spaces and invalid UTF-8 U+FFFD;
 * widths count terminal cells (spaa_utf8_cells: a CJK character two, a
 * combining mark none).  A
 * count or number column of one unit says it once in its header
 * ("Self (page-faults)"), not in every cell.
 *
 * Width: the text fits a line of a given width (0: never cut, --wide).
 * Columns that say nothing are always left out: a "?" or blank in every
 * row, one path in every row (one DSO).  When the rest is too wide: paths show
 * their file names ("libc.so.6"); names longer than half the line are
 * cut to it; then columns of less value go, the rightmost first: counts,
 * then numbers after a table's first weight and first share (never a
 * column the table keeps, spaa_lami_table_keep_column), then
 * paths; then time ranges become their beginning and length
 * ("559.105939000 +50 ms"); then the widest names are cut, down to 8
 * cells, and if that is not enough, names go too, the rightmost first.
 * A name is cut where it says least: a call path keeps its root and the
 * frames nearest its leaf ("main;…;parse;leaf"), a path (a DSO, or a
 * function name that is a script's path or a URL) its last directories
 * ("…/lib/libc.so.6"), a C++ name loses template arguments and then
 * parameters ("std::map<…>::find(…)"), then its end; a process name is
 * cut before its ids ("…/run.php (1/2)").  When a path column goes,
 * names of the first column that it told apart (one name in two DSOs)
 * say the path's file name: "[unknown] in libc.so.6".  A record
 * (spaa_lami_table_set_record: one row about the whole run) too wide for
 * the line is written as "  Column  value" lines.
 *
 * csv: per table a record "NAME,TITLE" (class name, title), a header
 * record, the data records; tables separated by an empty line; "\n" line
 * ends; RFC 4180 quoting (a field holding ',', '"', CR or LF is quoted,
 * quotes doubled).  Values are raw, as in the LAMI object, the unit in the
 * header: durations and timestamps integer ns ("Self (ns)"), sizes bytes
 * ("(bytes)"), ratios fractions ("(fraction)"), numbers with 15
 * significant digits and their unit if any ("Delta (ns)").  A time-range
 * column is two fields ("T begin (ns)", "T end (ns)"), a process column
 * three ("T name", "T pid", "T tid").  Empty and unknown cells are empty
 * fields; bools true/false; invalid UTF-8 becomes U+FFFD, as in the JSON.
 *
 * A struct spaa_textout_bar owns nothing; its stream is borrowed.
 */
#ifndef SPAA_TEXTOUT_H
#define SPAA_TEXTOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/lami.h"

/* Text line widths: COLUMNS and --width outside [MIN, MAX] are refused. */
#define SPAA_TEXTOUT_MIN_WIDTH 20
#define SPAA_TEXTOUT_MAX_WIDTH 100000
#define SPAA_TEXTOUT_DEFAULT_WIDTH 100

/* Big enough for any unit string below. */
#define SPAA_TEXTOUT_UNIT_BUF 48

/*
 * The human forms of the text format (see above), written into buf
 * (SPAA_TEXTOUT_UNIT_BUF bytes suffice).  Each returns buf.  Negative
 * durations and sizes get a '-' sign; spaa_textout_number's unit may be NULL.
 */
char *spaa_textout_duration(int64_t ns, char *buf, size_t size);
char *spaa_textout_size(int64_t bytes, char *buf, size_t size);
char *spaa_textout_ratio(double v, char *buf, size_t size);
char *spaa_textout_number(double v, const char *unit, char *buf, size_t size);
char *spaa_textout_timestamp(int64_t ns, char *buf, size_t size);

/*
 * A cell as the text format shows it (unit: its column's, may be NULL),
 * never cut, with the unit of a count or number ("4M cycles": the text
 * tables say it in their header instead); malloc'ed, the caller frees it.
 */
char *spaa_textout_cell(const struct spaa_lami_cell_view *v, const char *unit);

enum spaa_textout_form {
	SPAA_TEXTOUT_TEXT,      /* aligned tables */
	SPAA_TEXTOUT_CSV,
};

/*
 * Writes every table of r as text fitted to width cells (0: never
 * cut) or as CSV (width unused).
 */
void spaa_textout_write(FILE *out, const struct spaa_lami_results *r,
			enum spaa_textout_form form, size_t width);

/*
 * The width text fits when --width is not given: COLUMNS when it is a
 * number in range, else the width of the terminal on fd, else 100.
 */
size_t spaa_textout_width(int fd);

/*
 * A one-line progress bar with percentage and throughput (MB/s, 10^6
 * bytes), redrawn in place with "\r" and ANSI erase-line when the
 * percentage changes or 0.1 s passed; with an unknown total (stdin) the
 * bytes read and the throughput.  spaa_textout_bar_clear erases it, before
 * anything else is written to the terminal; a later update draws again.
 */
struct spaa_textout_bar {
	FILE *out;              /* weak; NULL = disabled */
	double start, last;     /* monotonic seconds: first update (-1: none), last draw */
	int last_pct;           /* -1 before the first draw */
	bool drawn;             /* a bar is on the screen */
};

/*
 * Whether a bar belongs on fd: a terminal (isatty), TERM set and not
 * "dumb", and CI unset or empty (CI logs keep every "\r" frame).
 */
bool spaa_textout_bar_wanted(int fd);
void spaa_textout_bar_init(struct spaa_textout_bar *b, FILE *out);
void spaa_textout_bar_update(struct spaa_textout_bar *b, uint64_t done, uint64_t total);
void spaa_textout_bar_clear(struct spaa_textout_bar *b);

#endif
