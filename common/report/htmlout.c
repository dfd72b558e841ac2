/*
 * htmlout - the page; what it holds is in htmlout.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
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
	"h2.analysis { font-size: 1.3em; border-top: 2px solid #ccc; padding-top: 0.6em; }\n"
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

static void table(FILE *out, const struct spaa_lami_table *t, size_t max_rows)
{
	const struct spaa_lami_table_class *c = spaa_lami_table_class_of(t);
	size_t all = spaa_lami_table_rows(t);
	size_t nrows = max_rows && max_rows < all ? max_rows : all;
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
	fputs("</tbody>\n</table>\n", out);
	if (nrows < all)
		fprintf(out, "<p class=\"more\">the first %zu of %zu rows</p>\n", nrows, all);
	fputs("</section>\n", out);
	free(unit);
}

void spaa_htmlout_begin(FILE *out, const struct spaa_htmlout_page *page,
			const struct spaa_lami_results *r)
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
	if (r && r->nr) {
		int64_t b, e;
		char bs[64], es[64];

		spaa_lami_table_range(r->tables[0], &b, &e);
		fprintf(out, "<p id=\"range\" title=\"%" PRId64 " to %" PRId64 " ns\">time range %s s to %s s</p>\n",
			b, e, spaa_textout_timestamp(b, bs, sizeof(bs)),
			spaa_textout_timestamp(e, es, sizeof(es)));
	}
	fputs("</header>\n", out);
}

/* The document's root element, without its XML declaration. */
static const char *svg_root(const char *svg, size_t len, size_t *rest)
{
	const char *root = strstr(svg, "<svg");

	*rest = root ? len - (size_t)(root - svg) : 0;
	return root;
}

void spaa_htmlout_picture(FILE *out, const char *svg, size_t len)
{
	size_t n;
	const char *root = svg_root(svg, len, &n);

	fputs("<div class=\"picture\">\n", out);
	if (root)
		fwrite(root, 1, n, out);
	fputs("</div>\n", out);
}

/* The value of attribute name of the root element, as a whole number; 0: none. */
static unsigned root_size(const char *root, const char *name)
{
	const char *end = strchr(root, '>');
	char key[32];
	const char *at;

	snprintf(key, sizeof(key), " %s=\"", name);
	at = strstr(root, key);
	if (!at || !end || at > end)
		return 0;
	return (unsigned)strtoul(at + strlen(key), NULL, 10);
}

void spaa_htmlout_picture_framed(FILE *out, const char *svg, size_t len)
{
	size_t n;
	const char *root = svg_root(svg, len, &n);
	struct spaa_sbuf sb = { 0 };
	unsigned w, h;

	if (!root)
		return;
	w = root_size(root, "width");
	h = root_size(root, "height");
	/*
	 * srcdoc is an attribute: the document's own entities are escaped
	 * once more, so "&amp;" inside arrives as "&amp;" again.
	 */
	for (const char *c = root; c < root + n; c++) {
		if (*c == '&')
			spaa_sbuf_adds(&sb, "&amp;");
		else if (*c == '"')
			spaa_sbuf_adds(&sb, "&quot;");
		else
			spaa_sbuf_add(&sb, c, 1);
	}
	fprintf(out, "<div class=\"picture\">\n<iframe sandbox=\"allow-scripts\" "
		"width=\"%u\" height=\"%u\" title=\"picture\" srcdoc=\"<!DOCTYPE html>"
		"&lt;style&gt;body{margin:0}&lt;/style&gt;", w ? w + 4 : 1200, h ? h + 4 : 600);
	if (sb.s)
		fwrite(sb.s, 1, sb.len, out);
	fputs("\"></iframe>\n</div>\n", out);
	free(sb.s);
}

void spaa_htmlout_tables(FILE *out, const struct spaa_lami_results *r,
			 size_t max_rows)
{
	for (size_t i = 0; i < r->nr; i++)
		table(out, r->tables[i], max_rows);
}

void spaa_htmlout_end(FILE *out)
{
	fputs(script, out);
	fputs("</body>\n</html>\n", out);
}

void spaa_htmlout_write(FILE *out, const struct spaa_lami_results *r,
			const struct spaa_htmlout_page *page)
{
	spaa_htmlout_begin(out, page, r);
	if (page->picture)
		spaa_htmlout_picture(out, page->picture, page->picture_len);
	spaa_htmlout_tables(out, r, 0);
	spaa_htmlout_end(out);
}

int spaa_htmlout_read_picture(const char *path, struct spaa_sbuf *svg,
			      struct spaa_error *err)
{
	char buf[65536];
	size_t n;
	FILE *f = fopen(path, "rb");

	if (!f)
		return spaa_error_at(err, SPAA_E_IO, path, 0, "cannot read the picture back: %s",
				     strerror(errno));
	while ((n = fread(buf, 1, sizeof(buf), f)))
		spaa_sbuf_add(svg, buf, n);
	fclose(f);
	return 0;
}
