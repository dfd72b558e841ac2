/*
 * lami - the LAMI protocol (doc/LAMI.md) as Trace Compass speaks it.
 *
 * Two parts (the options are analysis.h's):
 *   1. metadata, written from static table-class descriptions;
 *   2. result tables built cell by cell with typed cells, then written
 *      as one results object; error objects; progress lines.
 *
 * Writers take the FILE to write to; only main.c chooses stdout.
 *
 * Trace Compass rules this module enforces (doc/LAMI.md says why):
 *   - every table class and the metadata carry a title;
 *   - duration, size and timestamp values are integers, ratios fractions;
 *     NaN/inf numbers become the unknown object;
 *   - the results object starts with "{" alone on its first line, so a
 *     U+2028 in a function name cannot hide the JSON from TC;
 *   - a table without rows is never written, unless asked for
 *     (spaa_lami_table_keep_empty);
 *   - progress values are non-decreasing, at most ~100 lines per run,
 *     flushed one by one.
 *
 * Ownership: a table is the caller's from spaa_lami_table_new until
 * spaa_lami_results_add, which takes it; results own their tables, and
 * spaa_lami_results_release frees them (a zeroed or initialized struct may
 * be released).  Cell strings are copied.  The table classes and their
 * columns are borrowed: static storage.
 */
#ifndef SPAA_LAMI_H
#define SPAA_LAMI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/error.h"

/* ---- 1. metadata ------------------------------------------------------ */

/* LAMI v0.1 column / data object classes. */
enum spaa_lami_class {
	SPAA_LAMI_MIXED,
	SPAA_LAMI_STRING,
	SPAA_LAMI_INT,
	SPAA_LAMI_NUMBER,
	SPAA_LAMI_BOOL,
	SPAA_LAMI_RATIO,
	SPAA_LAMI_TIMESTAMP,
	SPAA_LAMI_TIME_RANGE,
	SPAA_LAMI_DURATION,
	SPAA_LAMI_SIZE,
	SPAA_LAMI_BITRATE,
	SPAA_LAMI_PROCESS,
	SPAA_LAMI_PATH,
	SPAA_LAMI_CPU,
};

/* "mixed", "string", "int", ... exactly as the spec spells them. */
const char *spaa_lami_class_name(enum spaa_lami_class c);

struct spaa_lami_column {
	const char *title;      /* may be NULL (TC then names it) */
	enum spaa_lami_class cls;    /* SPAA_LAMI_MIXED: decided per run (see spaa_lami_table_set_column) */
	const char *unit;       /* NULL; only for string/int/number/bool (asserted) */
};

struct spaa_lami_table_class {
	const char *name;       /* key in "table-classes", e.g. "functions"; unique */
	const char *title;      /* required (TC) */
	const struct spaa_lami_column *columns;
	size_t ncolumns;
};

struct spaa_lami_meta {
	const char *title;              /* required (TC) */
	const char *description;        /* may be NULL */
	const char *url;                /* may be NULL */
	const char *const *authors;     /* NULL-terminated, may be NULL */
	const char *const *tags;        /* NULL-terminated, may be NULL */
	int version_major, version_minor, version_patch;
	const char *version_extra;      /* may be NULL */
	const struct spaa_lami_table_class *classes;
	size_t nclasses;                /* at least 1 */
};

/*
 * Writes the metadata object (mi-version {0,1}) on one line and a
 * newline.  NULL optional members are omitted, never written as null;
 * version major/minor/patch are always written.
 */
void spaa_lami_metadata_write(FILE *out, const struct spaa_lami_meta *m);

/* ---- 2. results ------------------------------------------------------- */

/* Absent pid or tid of a process cell. */
#define SPAA_LAMI_NO_ID INT64_MIN

/* What a cell holds (the LAMI class of its value, or empty or unknown). */
enum spaa_lami_cell_kind {
	SPAA_LAMI_CELL_EMPTY,        /* JSON null */
	SPAA_LAMI_CELL_UNKNOWN,      /* {"class": "unknown"} */
	SPAA_LAMI_CELL_STRING,
	SPAA_LAMI_CELL_INT,
	SPAA_LAMI_CELL_NUMBER,
	SPAA_LAMI_CELL_BOOL,
	SPAA_LAMI_CELL_RATIO,
	SPAA_LAMI_CELL_TIMESTAMP,
	SPAA_LAMI_CELL_TIME_RANGE,
	SPAA_LAMI_CELL_DURATION,
	SPAA_LAMI_CELL_SIZE,
	SPAA_LAMI_CELL_PROCESS,
	SPAA_LAMI_CELL_PATH,
	SPAA_LAMI_CELL_CPU,
};

struct spaa_lami_table;

/*
 * Starts a table of class cls (weak: static storage) covering the time
 * range [begin, end] ns (begin <= end, asserted).  Owned by the caller
 * until spaa_lami_results_add.  spaa_lami_table_free accepts NULL.
 */
struct spaa_lami_table *spaa_lami_table_new(const struct spaa_lami_table_class *cls,
				  int64_t begin, int64_t end);
void spaa_lami_table_free(struct spaa_lami_table *t);

/*
 * Replaces the title for this result only (written as {"inherit": name,
 * "title": ...}), e.g. to say "(whole profile: no samples to restrict
 * to --begin/--end)".
 */
void spaa_lami_table_set_title(struct spaa_lami_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Gives a column declared SPAA_LAMI_MIXED in the metadata its class for this
 * run (e.g. duration, or number with unit "cycles"), for the readers of
 * the table (textout.h); the results object still refers to the
 * metadata's class, whose mixed column takes any cell.  unit may be
 * NULL; it is copied.  May come before or after the rows; the column's
 * cells must fit the class either way (asserted).  A ratio column (mixed
 * or declared so) may get the unit "pp" for text: differences of shares,
 * in percentage points.
 */
void spaa_lami_table_set_column(struct spaa_lami_table *t, size_t col,
			   enum spaa_lami_class cls, const char *unit);

size_t spaa_lami_table_rows(const struct spaa_lami_table *t);

/*
 * Marks t as one record about the whole run (a summary), not ranked
 * rows: text writes it as "column  value" lines when a line is too
 * narrow for it.  The LAMI output is the same.
 */
void spaa_lami_table_set_record(struct spaa_lami_table *t);
bool spaa_lami_table_is_record(const struct spaa_lami_table *t);

/*
 * Has t written even if it gets no rows, against v0.1's "at least one
 * row": for a --begin/--end window without samples, which Trace Compass
 * shows as empty tables whose titles say why, rather than as an error.
 */
void spaa_lami_table_keep_empty(struct spaa_lami_table *t);

/*
 * Column col is what the table is about (spaa-diff's raw delta): text
 * never drops it to fit a width, however narrow (textout.h).  The LAMI
 * output is the same.
 */
void spaa_lami_table_keep_column(struct spaa_lami_table *t, size_t col);
bool spaa_lami_table_column_kept(const struct spaa_lami_table *t, size_t col);

/*
 * A row is spaa_lami_row_begin, exactly one cell call per column, spaa_lami_row_end
 * (asserted).  Strings are copied.  Each cell must fit its column's
 * class (asserted, rule R9 of tools/lami_check.py): a mixed column takes
 * any cell, a number column number and int cells, other columns cells
 * of their own class; empty and unknown fit anywhere.
 *
 * Values that TC or the spec would reject become the unknown object:
 * non-finite numbers and ratios, a time range ending before it begins,
 * a CPU id outside 32 bits.  A NULL string or path is an empty cell.
 */
void spaa_lami_row_begin(struct spaa_lami_table *t);
void spaa_lami_row_end(struct spaa_lami_table *t);

/*
 * Adds n rows to t, made by fill: fill(ctx, part, lo, hi) adds rows lo
 * to hi - 1 of the n to part, as it would to t (spaa_lami_row_begin,
 * the cells, spaa_lami_row_end), for pieces [lo, hi) of [0, n) that
 * together cover it.  With threads > 1 that many threads (the caller's
 * included) fill pieces at once, so fill may only read what they share
 * (the cell calls on part are the exception); the rows are t's in the
 * order of [0, n) whatever the number of threads.  t's columns must be
 * set (spaa_lami_table_set_column) before.
 */
void spaa_lami_table_fill(struct spaa_lami_table *t, size_t n, unsigned threads,
			  void (*fill)(void *ctx, struct spaa_lami_table *part,
				       size_t lo, size_t hi),
			  void *ctx);

void spaa_lami_cell_string(struct spaa_lami_table *t, const char *s);
/*
 * A string cell of n bytes that the caller writes at the pointer returned
 * (n bytes, no NUL in them; the NUL after them is there), before the next
 * call on t: for a text made in place instead of in a string of its own.
 */
char *spaa_lami_cell_string_room(struct spaa_lami_table *t, size_t n);
void spaa_lami_cell_int(struct spaa_lami_table *t, int64_t v);
void spaa_lami_cell_number(struct spaa_lami_table *t, double v);     /* non-finite: unknown */
void spaa_lami_cell_bool(struct spaa_lami_table *t, bool v);
void spaa_lami_cell_ratio(struct spaa_lami_table *t, double v);      /* fraction; non-finite: unknown */
void spaa_lami_cell_timestamp(struct spaa_lami_table *t, int64_t ns);
void spaa_lami_cell_time_range(struct spaa_lami_table *t, int64_t begin, int64_t end);
void spaa_lami_cell_duration(struct spaa_lami_table *t, int64_t ns);
void spaa_lami_cell_size(struct spaa_lami_table *t, int64_t bytes);
/*
 * An int, duration or size cell (kind SPAA_LAMI_CELL_INT, _DURATION or
 * _SIZE, asserted) of an unsigned value, such as a sum of weights.  Up
 * to INT64_MAX it is an ordinary cell.  Past it, Trace Compass cannot
 * hold it (it reads integers as Java longs) and nothing may clamp or
 * wrap it: the cell keeps the exact value for text and CSV (the view's
 * big and u), and spaa_lami_results_overflow names it.  A value past
 * UINT64_MAX (a scaled weight) is spaa_lami_cell_past_u64: no format
 * holds it.
 */
void spaa_lami_cell_u64(struct spaa_lami_table *t, enum spaa_lami_cell_kind k,
			uint64_t v);
void spaa_lami_cell_past_u64(struct spaa_lami_table *t, enum spaa_lami_cell_kind k);
/* Such a cell of a signed value (a difference) past the range of int64. */
void spaa_lami_cell_past_i64(struct spaa_lami_table *t, enum spaa_lami_cell_kind k);
void spaa_lami_cell_process(struct spaa_lami_table *t, const char *name /* or NULL */,
		       int64_t pid, int64_t tid /* or SPAA_LAMI_NO_ID */);
void spaa_lami_cell_path(struct spaa_lami_table *t, const char *path);
void spaa_lami_cell_cpu(struct spaa_lami_table *t, int64_t id);
void spaa_lami_cell_unknown(struct spaa_lami_table *t);
void spaa_lami_cell_empty(struct spaa_lami_table *t);                /* JSON null */

struct spaa_lami_results {
	struct spaa_lami_table **tables;     /* owned */
	size_t nr, alloc;
};

void spaa_lami_results_init(struct spaa_lami_results *r);
/*
 * Takes ownership of t; a table without rows is freed, not kept, unless
 * spaa_lami_table_keep_empty was called on it.
 */
void spaa_lami_results_add(struct spaa_lami_results *r, struct spaa_lami_table *t);
void spaa_lami_results_release(struct spaa_lami_results *r);

/*
 * The first cell of r that the output cannot hold (lami: LAMI, where
 * integers stop at INT64_MAX; else text or CSV, which stop at
 * UINT64_MAX): -1 with SPAA_E_OVERFLOW naming the table, the row (its
 * number and first name-like cell) and the column, else 0.  Checked
 * before anything is written, so no number is clamped or wrapped.
 */
int spaa_lami_results_overflow(const struct spaa_lami_results *r, bool lami,
			       struct spaa_error *err);

/*
 * Writes {"results": [...]} with "{" alone on the first line, the rest
 * on the second, and a final newline.  r must hold at least one table
 * (asserted: with none, write a no-data error object instead).  A
 * table's "class" is its class name, or {"inherit": name, "title": T}
 * after spaa_lami_table_set_title: never an inline class, which Trace
 * Compass turns into a "Dynamic Table" without the class' charts.
 * Numbers and ratios carry 15 significant digits.
 */
void spaa_lami_results_write(FILE *out, const struct spaa_lami_results *r);
/*
 * The same bytes, the rows of big tables (a thousand rows and more)
 * written by threads threads, the caller's included, a piece of rows
 * each at a time (ordered.h); threads 1 or 0: by the caller alone.
 */
void spaa_lami_results_write_threads(FILE *out, const struct spaa_lami_results *r,
				     unsigned threads);

/*
 * Reading a table back, for writers of other formats (textout.h).
 * Cells come back as the JSON writer sees them: a number or ratio that is
 * not finite, a time range ending before it begins and a CPU id outside
 * 32 bits are SPAA_LAMI_CELL_UNKNOWN, as they are written as unknown objects.
 */

struct spaa_lami_cell_view {
	enum spaa_lami_cell_kind kind;
	int64_t i;              /* int, timestamp, duration, size, cpu; range begin */
	int64_t end;            /* time-range end */
	double d;               /* number, ratio */
	bool b;                 /* bool */
	const char *str;        /* weak: string, path, process name (NULL: none) */
	/*
	 * int, duration, size past INT64_MAX (spaa_lami_cell_u64): 1, the
	 * value in u (i is INT64_MAX); 2 past UINT64_MAX (u is UINT64_MAX);
	 * 3 a difference past int64 (spaa_lami_cell_past_i64)
	 */
	int big;
	uint64_t u;
	int64_t pid, tid;       /* process; SPAA_LAMI_NO_ID when absent */
};

/* The title written for t: its own (spaa_lami_table_set_title) or its class'. */
const char *spaa_lami_table_title(const struct spaa_lami_table *t);
/* The time range [*begin, *end] ns t covers. */
void spaa_lami_table_range(const struct spaa_lami_table *t, int64_t *begin, int64_t *end);
/* The class t was created with (weak: static storage). */
const struct spaa_lami_table_class *spaa_lami_table_class_of(const struct spaa_lami_table *t);
/*
 * Column col as written for this result: its class (SPAA_LAMI_MIXED only
 * when never set) and unit (weak, may be NULL).
 */
void spaa_lami_table_column(const struct spaa_lami_table *t, size_t col,
		       enum spaa_lami_class *cls, const char **unit);
/* Cell (row, col) of a complete row; v's strings live as long as t. */
void spaa_lami_table_cell(const struct spaa_lami_table *t, size_t row, size_t col,
		     struct spaa_lami_cell_view *v);

/*
 * Writes {"error-code": code, "error-message": msg} on one line and a
 * newline.  code may be NULL (omitted).
 */
void spaa_lami_error_write(FILE *out, const char *code, const char *msg);

/*
 * Progress lines "VALUE MESSAGE" for --output-progress.  VALUE is
 * done/total clamped to [0,1], rounded down to two decimals ("0.42"); a
 * line is written on the first call and then only when the value grew
 * by at least 0.01, so values never decrease and a run writes at most
 * 101 lines.  With total 0 (unknown size, e.g. stdin) VALUE is "*":
 * written on the first call and then once per 64 MiB of done, at most
 * 100 lines.  The first line fixes the mode, as TC must not see "*" and
 * numbers mixed: later calls of the other kind write nothing.  msg may
 * be NULL or "" (no message); control characters in it become spaces
 * and invalid UTF-8 U+FFFD.  Each line is flushed.  A disabled progress
 * (out == NULL) writes nothing.
 */
struct spaa_lami_progress {
	FILE *out;              /* weak; NULL = disabled */
	double last;            /* last value written, -1 before the first */
	uint64_t last_done;     /* done at the last "*" line */
	unsigned lines;         /* lines written */
};

void spaa_lami_progress_init(struct spaa_lami_progress *p, FILE *out);
void spaa_lami_progress_update(struct spaa_lami_progress *p, uint64_t done,
			  uint64_t total, const char *msg);

#endif
