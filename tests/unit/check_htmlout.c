/*
 * check_htmlout - the HTML page of results: escaping, human units with
 * the exact value beside them, the header, the inlined picture.
 */
#include <check.h>
#include <string.h>

#include "report/htmlout.h"
#include "testutil.h"

Suite *htmlout_suite(void);

static const struct spaa_lami_column cols[] = {
	{ "Function <name>", SPAA_LAMI_STRING, NULL },
	{ "Self", SPAA_LAMI_DURATION, NULL },
	{ "Share", SPAA_LAMI_RATIO, NULL },
};

static const struct spaa_lami_table_class cls = { "functions", "Functions", cols, 3 };

START_TEST(test_htmlout_page)
{
	static const char svg[] = "<?xml version=\"1.0\"?>\n<svg width=\"10\"><g id=\"frames\"/></svg>\n";
	const char *const sources[] = { "a&b.spaa", "c.spaa" };
	struct spaa_htmlout_page page = {
		.title = "SPAA <hotspots>", .sources = sources, .nsources = 2,
		.picture = svg, .picture_len = sizeof(svg) - 1,
	};
	struct spaa_lami_results r;
	struct spaa_lami_table *t = spaa_lami_table_new(&cls, 1000000000, 2000000001);
	struct testutil_capture c;
	const char *html;

	spaa_lami_results_init(&r);
	spaa_lami_row_begin(t);
	spaa_lami_cell_string(t, "a<b>&\"c'\x01");
	spaa_lami_cell_duration(t, 1477477476);
	spaa_lami_cell_ratio(t, 0.3721);
	spaa_lami_row_end(t);
	spaa_lami_results_add(&r, t);
	spaa_htmlout_write(testutil_capture_open(&c), &r, &page);
	html = testutil_capture_close(&c);

	ck_assert_ptr_nonnull(strstr(html, "<title>SPAA &lt;hotspots&gt;</title>"));
	ck_assert_ptr_nonnull(strstr(html, "<p id=\"source\">a&amp;b.spaa, c.spaa</p>"));
	ck_assert_ptr_nonnull(strstr(html, "<p id=\"range\" title=\"1000000000 to 2000000001 ns\">"
				     "time range 1.000000000 s to 2.000000001 s</p>"));
	ck_assert_ptr_nonnull(strstr(html, "<th>Function &lt;name&gt;</th>"));
	ck_assert_ptr_nonnull(strstr(html, "<td>a&lt;b&gt;&amp;&quot;c&apos; </td>"));
	ck_assert_ptr_nonnull(strstr(html, "<td class=\"n\" data-v=\"1477477476\" "
				     "title=\"1477477476 ns\">1.48 s</td>"));
	ck_assert_ptr_nonnull(strstr(html, "<td class=\"n\" data-v=\"0.37209999999999999\" "
				     "title=\"0.37209999999999999\">37.2 %</td>"));
	/* the picture's root element, without the XML declaration */
	ck_assert_ptr_nonnull(strstr(html, "<div class=\"picture\">\n<svg width=\"10\">"));
	ck_assert_ptr_null(strstr(html, "<?xml"));
	ck_assert_ptr_nonnull(strstr(html, "<section class=\"results\" data-class=\"functions\">"));
	ck_assert_ptr_null(strstr(html, "http"));
	testutil_capture_free(&c);
	spaa_lami_results_release(&r);
}
END_TEST

/*
 * A framed picture: the document is an attribute value, so its & and "
 * are escaped once more (and nothing else), the frame the document's
 * size plus its border; at most max_rows rows, the rest counted.
 */
START_TEST(test_htmlout_framed_and_cut)
{
	static const char svg[] = "<?xml version=\"1.0\"?>\n<svg width=\"300\" height=\"40\">"
		"<text>a &amp; &lt;b&gt; \"q\"</text></svg>\n";
	struct spaa_lami_results r;
	struct spaa_lami_table *t = spaa_lami_table_new(&cls, 0, 1);
	struct testutil_capture c;
	const char *html;

	spaa_lami_results_init(&r);
	for (int i = 0; i < 3; i++) {
		spaa_lami_row_begin(t);
		spaa_lami_cell_string(t, i == 2 ? "third" : "row");
		spaa_lami_cell_duration(t, i);
		spaa_lami_cell_ratio(t, 0);
		spaa_lami_row_end(t);
	}
	spaa_lami_results_add(&r, t);
	spaa_htmlout_picture_framed(testutil_capture_open(&c), svg, sizeof(svg) - 1);
	spaa_htmlout_tables(c.f, &r, 2);
	html = testutil_capture_close(&c);
	ck_assert_ptr_nonnull(strstr(html, "<iframe sandbox=\"allow-scripts\" width=\"304\" "
				     "height=\"44\" title=\"picture\" srcdoc=\"<!DOCTYPE html>"
				     "&lt;style&gt;body{margin:0}&lt;/style&gt;<svg width=&quot;300&quot; "
				     "height=&quot;40&quot;><text>a &amp;amp; &amp;lt;b&amp;gt; "
				     "&quot;q&quot;</text></svg>\n\"></iframe>"));
	ck_assert_ptr_null(strstr(html, "<?xml"));
	ck_assert_ptr_null(strstr(html, "third"));
	ck_assert_ptr_nonnull(strstr(html, "<p class=\"more\">the first 2 of 3 rows</p>"));
	testutil_capture_free(&c);
	spaa_lami_results_release(&r);
}
END_TEST

Suite *htmlout_suite(void)
{
	Suite *s = suite_create("htmlout");
	TCase *tc = tcase_create("htmlout");

	tcase_add_test(tc, test_htmlout_page);
	tcase_add_test(tc, test_htmlout_framed_and_cut);
	suite_add_tcase(s, tc);
	return s;
}
