/*
 * htmlout - results as one self-contained HTML page (--format html), for
 * a person with a browser: no network access, no external script, style
 * or font.
 *
 * The page: a header with the analysis, the source path(s) and the time
 * range the results cover (of the first table), the picture the run drew
 * (an SVG document inlined, when there is one), then each table under its
 * title with a filter box.  Cells show the text format's human units
 * (textout.h); numeric cells carry their exact value in a title (shown on
 * hover, e.g. "1477477476 ns") and in data-v, which sorting reads.  A
 * click on a column header sorts the rows by it (again: the other way);
 * the filter hides the rows whose text does not contain what is typed
 * (case-insensitive).  Without scripts the tables are still all there.
 *
 * Text is escaped as svg.h's XML text (valid UTF-8, no control
 * characters, markup characters as entities), so any name is safe.
 *
 * Everything is borrowed for the call.
 */
#ifndef SPAA_HTMLOUT_H
#define SPAA_HTMLOUT_H

#include <stddef.h>
#include <stdio.h>

#include "model/error.h"
#include "model/sbuf.h"
#include "report/lami.h"

struct spaa_htmlout_page {
	const char *title;      /* the analysis: "SPAA hotspots" */
	const char *const *sources;     /* the input paths, as given */
	size_t nsources;
	const char *picture;    /* an SVG document, or NULL */
	size_t picture_len;
};

/* Writes the page of r to out (errors: the stream's, for the caller). */
void spaa_htmlout_write(FILE *out, const struct spaa_lami_results *r,
			const struct spaa_htmlout_page *page);

/*
 * The page in pieces, for a page of several results (spaa-report):
 * begin (the head and header, with the time range of r's first table
 * when r is not NULL; page->picture is not drawn here), then pictures,
 * tables and whatever the caller writes between them, then end (the
 * script).  spaa_htmlout_write is begin, picture, tables, end.
 *
 * spaa_htmlout_picture inlines the SVG document svg[0..len) in the page,
 * where its script runs as it does alone; spaa_htmlout_picture_framed
 * puts it in a sandboxed frame of its own (srcdoc, the document's size),
 * so that several pictures, whose elements have the same ids, live on
 * one page without finding each other's.  spaa_htmlout_tables shows at
 * most max_rows rows of each table (0: all), saying how many there are.
 */
void spaa_htmlout_begin(FILE *out, const struct spaa_htmlout_page *page,
			const struct spaa_lami_results *r);
void spaa_htmlout_picture(FILE *out, const char *svg, size_t len);
void spaa_htmlout_picture_framed(FILE *out, const char *svg, size_t len);
void spaa_htmlout_tables(FILE *out, const struct spaa_lami_results *r,
			 size_t max_rows);
void spaa_htmlout_end(FILE *out);

/*
 * Appends the picture an analysis drew at path (--svg) to svg, to be
 * inlined.  Errors: SPAA_E_IO ("cannot read the picture back").
 */
int spaa_htmlout_read_picture(const char *path, struct spaa_sbuf *svg,
			      struct spaa_error *err);

#endif
