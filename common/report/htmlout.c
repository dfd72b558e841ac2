/*
 * htmlout - the page; what it holds is in htmlout.h.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model/sbuf.h"
#include "model/util.h"
#include "report/htmlout.h"
#include "report/svg.h"
#include "report/textout.h"

static const char style[] =
	"body { font-family: sans-serif; margin: 1.5em; color: #222; background: #fbfbf8; }\n"
	"header h1 { font-size: 1.4em; margin: 0 0 0.3em; }\n"
	"header p { margin: 0.1em 0; color: #555; }\n"
	"h2 { font-size: 1.05em; margin: 1.6em 0 0.4em; }\n"
	"table { border-collapse: collapse; font-size: 0.85em; }\n"
	"th, td { padding: 0.15em 0.6em; border-bottom: 1px solid #ddd; text-align: left; }\n"
	"td.n { text-align: right; font-variant-numeric: tabular-nums; }\n"
	"th { cursor: pointer; background: #eee; position: sticky; top: 0; }\n"
	"th.asc::after { content: \" \\25B2\"; } th.desc::after { content: \" \\25BC\"; }\n"
	"input.filter { margin: 0 0 0.4em; padding: 0.2em; width: 20em; }\n"
	".picture { overflow-x: auto; margin: 1em 0; }\n";

/* Sorting and filtering; each table works alone. */
static const char script[] =
	"<script>\n"
	"(function () {\n"
	"\"use strict\";\n"
	"function key(td) {\n"
	"  var v = td.getAttribute(\"data-v\");\n"
	"  return v === null ? null : parseFloat(v);\n"
	"}\n"
	"function sortBy(table, col, th) {\n"
	"  var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);\n"
	"  var desc = !th.classList.contains(\"desc\");\n"
	"  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (c) {\n"
	"    c.classList.remove(\"asc\", \"desc\");\n"
	"  });\n"
	"  th.classList.add(desc ? \"desc\" : \"asc\");\n"
	"  rows = rows.map(function (r, i) { return [r, i]; });\n"
	"  rows.sort(function (a, b) {\n"
	"    var x = a[0].cells[col], y = b[0].cells[col], kx = key(x), ky = key(y), c;\n"
	"    if (kx !== null && ky !== null && !isNaN(kx) && !isNaN(ky)) c = kx - ky;\n"
	"    else if (kx !== null && !isNaN(kx)) c = 1;\n"
	"    else if (ky !== null && !isNaN(ky)) c = -1;\n"
	/* code point order: the same in every locale */
	"    else c = x.textContent < y.textContent ? -1 : x.textContent > y.textContent ? 1 : 0;\n"
	"    return (desc ? -c : c) || a[1] - b[1];\n"
	"  });\n"
	"  rows.forEach(function (r) { body.appendChild(r[0]); });\n"
	"}\n"
	"Array.prototype.forEach.call(document.querySelectorAll(\"section.results\"), function (s) {\n"
	"  var table = s.querySelector(\"table\"), filter = s.querySelector(\"input.filter\");\n"
	"  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {\n"
	"    th.addEventListener(\"click\", function () { sortBy(table, col, th); });\n"
	"  });\n"
	"  filter.addEventListener(\"input\", function () {\n"
	"    var q = filter.value.toLowerCase();\n"
	"    Array.prototype.forEach.call(table.tBodies[0].rows, function (r) {\n"
	"      r.style.display = r.textContent.toLowerCase().indexOf(q) < 0 ? \"none\" : \"\";\n"
	"    });\n"
	"  });\n"
	"});\n"
	"})();\n"
	"</script>\n";

static void text(FILE *out, const char *s)
{
	struct spaa_sbuf sb = { 0 };

	spaa_svg_text_str(&sb, s);
	fputs(sb.s ? sb.s : "", out);
	free(sb.s);
}

/* The exact value of a numeric cell, for data-v and the title; 0: none. */
static int exact(const struct spaa_lami_cell_view *v, const char *unit,
		 char key[64], char shown[192])
{
	const size_t size = 64, ssize = 192;

	switch (v->kind) {
	case SPAA_LAMI_CELL_INT:
	case SPAA_LAMI_CELL_CPU:
		snprintf(key, size, "%" PRId64, v->i);
		snprintf(shown, ssize, "%" PRId64 "%s%s", v->i, unit ? " " : "", unit ? unit : "");
		return 1;
	case SPAA_LAMI_CELL_DURATION:
	case SPAA_LAMI_CELL_TIMESTAMP:
	case SPAA_LAMI_CELL_TIME_RANGE:
		snprintf(key, size, "%" PRId64, v->i);
		if (v->kind == SPAA_LAMI_CELL_TIME_RANGE)
			snprintf(shown, ssize, "%" PRId64 " to %" PRId64 " ns", v->i, v->end);
		else
			snprintf(shown, ssize, "%" PRId64 " ns", v->i);
		return 1;
	case SPAA_LAMI_CELL_SIZE:
		snprintf(key, size, "%" PRId64, v->i);
		snprintf(shown, ssize, "%" PRId64 " bytes", v->i);
		return 1;
	case SPAA_LAMI_CELL_NUMBER:
	case SPAA_LAMI_CELL_RATIO:
		snprintf(key, size, "%.17g", v->d);
		snprintf(shown, ssize, "%.17g%s%s", v->d, unit ? " " : "", unit ? unit : "");
		return 1;
	default:
		return 0;
	}
}

static void table(FILE *out, const struct spaa_lami_table *t)
{
	const struct spaa_lami_table_class *c = spaa_lami_table_class_of(t);
	size_t nrows = spaa_lami_table_rows(t);
	const char **unit = spaa_xcalloc(c->ncolumns + 1, sizeof(*unit));

	fprintf(out, "<section class=\"results\" data-class=\"%s\">\n<h2>", c->name);
	text(out, spaa_lami_table_title(t));
	fprintf(out, "</h2>\n<input class=\"filter\" type=\"search\" placeholder=\"filter rows\" "
		"aria-label=\"filter rows\">\n<table>\n<thead><tr>");
	for (size_t col = 0; col < c->ncolumns; col++) {
		enum spaa_lami_class cls;

		spaa_lami_table_column(t, col, &cls, &unit[col]);
		fputs("<th>", out);
		text(out, c->columns[col].title);
		fputs("</th>", out);
	}
	fputs("</tr></thead>\n<tbody>\n", out);
	for (size_t r = 0; r < nrows; r++) {
		fputs("<tr>", out);
		for (size_t col = 0; col < c->ncolumns; col++) {
			struct spaa_lami_cell_view v;
			char key[64], shown[192];
			char *s;

			spaa_lami_table_cell(t, r, col, &v);
			s = spaa_textout_cell(&v, unit[col]);
			if (exact(&v, unit[col], key, shown)) {
				fprintf(out, "<td class=\"n\" data-v=\"%s\" title=\"", key);
				text(out, shown);
				fputs("\">", out);
			} else {
				fputs("<td>", out);
			}
			text(out, s);
			fputs("</td>", out);
			free(s);
		}
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n</section>\n", out);
	free(unit);
}

void spaa_htmlout_write(FILE *out, const struct spaa_lami_results *r,
			const struct spaa_htmlout_page *page)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>", out);
	text(out, page->title);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<header>\n<h1>", style);
	text(out, page->title);
	fputs("</h1>\n<p id=\"source\">", out);
	for (size_t i = 0; i < page->nsources; i++) {
		fputs(i ? ", " : "", out);
		text(out, page->sources[i]);
	}
	fputs("</p>\n", out);
	if (r->nr) {
		int64_t b, e;
		char bs[64], es[64];

		spaa_lami_table_range(r->tables[0], &b, &e);
		fprintf(out, "<p id=\"range\" title=\"%" PRId64 " to %" PRId64 " ns\">time range %s s to %s s</p>\n",
			b, e, spaa_textout_timestamp(b, bs, sizeof(bs)),
			spaa_textout_timestamp(e, es, sizeof(es)));
	}
	fputs("</header>\n", out);
	if (page->picture) {
		const char *svg = page->picture;
		const char *end = svg + page->picture_len;
		const char *root = strstr(svg, "<svg");

		/* the document's root element, without its XML declaration */
		fputs("<div class=\"picture\">\n", out);
		if (root)
			fwrite(root, 1, (size_t)(end - root), out);
		fputs("</div>\n", out);
	}
	for (size_t i = 0; i < r->nr; i++)
		table(out, r->tables[i]);
	fputs(script, out);
	fputs("</body>\n</html>\n", out);
}
