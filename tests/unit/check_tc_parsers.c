/*
 * check_tc_parsers - Trace Compass's parser list (formats/tc_parsers.h):
 * definitions found whatever the attribute order, quotes and white space,
 * ours put in and taken out with every other byte kept, a second merge
 * changing nothing, and files that are not such a list refused with
 * their line.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/tc_parsers.h"

Suite *tc_parsers_suite(void);

#define OURS "<Definition category=\"spaa-tools\" name=\"SPAA profile\"><X/></Definition>"

/* Three definitions as users' files hold them: other orders, quotes, spaces. */
static const char theirs[] =
	"<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
	"<!-- mine -->\n"
	"<CustomTxtTraceDefinitionList>\n"
	"<Definition name='Log &amp; more' category=\"Mine\">\n"
	"<InputLine><RegEx>a &lt; b</RegEx><![CDATA[<not a tag>]]></InputLine>\n"
	"</Definition>\n"
	"  <Definition\n\tcategory = \"spaa-tools\"  name=\"SPAA profile\" ><Old/></Definition>\n"
	"<Definition category=\"Other\" name=\"SPAA profile\"/>\n"
	"</CustomTxtTraceDefinitionList>\n";

static char *merge(const char *text, const char *def)
{
	struct spaa_tc_list l;
	struct spaa_error err;
	struct spaa_sbuf out = { 0 };

	ck_assert_int_eq(spaa_tc_list_parse(text, strlen(text), "f", &l, &err), 0);
	spaa_tc_list_merge(text, strlen(text), &l, "spaa-tools", "SPAA profile",
			   def, def ? strlen(def) : 0, &out);
	spaa_tc_list_release(&l);
	spaa_sbuf_add(&out, "", 1);
	return out.s;
}

START_TEST(test_definitions_found)
{
	struct spaa_tc_list l;
	struct spaa_error err;

	ck_assert_int_eq(spaa_tc_list_parse(theirs, strlen(theirs), "f", &l, &err), 0);
	ck_assert_uint_eq(l.nr, 3);
	ck_assert_str_eq(l.defs[0].category, "Mine");
	ck_assert_str_eq(l.defs[0].name, "Log & more");
	ck_assert_str_eq(l.defs[1].category, "spaa-tools");
	ck_assert(!strncmp(theirs + l.defs[1].begin, "<Definition\n", 12));
	ck_assert(!strncmp(theirs + l.defs[1].end - 13, "</Definition>", 13));
	ck_assert_str_eq(l.defs[2].category, "Other");
	ck_assert_int_eq(spaa_tc_list_find(&l, "spaa-tools", "SPAA profile"), 1);
	ck_assert_int_eq(spaa_tc_list_find(&l, "spaa-tools", "nope"), -1);
	spaa_tc_list_release(&l);
}
END_TEST

START_TEST(test_merge_keeps_the_rest)
{
	char *once = merge(theirs, OURS), *twice = merge(once, OURS), *removed;
	const char *want =
		"<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<!-- mine -->\n"
		"<CustomTxtTraceDefinitionList>\n"
		"<Definition name='Log &amp; more' category=\"Mine\">\n"
		"<InputLine><RegEx>a &lt; b</RegEx><![CDATA[<not a tag>]]></InputLine>\n"
		"</Definition>\n"
		"<Definition category=\"Other\" name=\"SPAA profile\"/>\n"
		OURS "\n"
		"</CustomTxtTraceDefinitionList>\n";

	/* the old one of ours replaced, at the end; the others byte for byte */
	ck_assert_str_eq(once, want);
	ck_assert_str_eq(twice, once);
	removed = merge(once, NULL);
	ck_assert_str_eq(removed,
		"<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<!-- mine -->\n"
		"<CustomTxtTraceDefinitionList>\n"
		"<Definition name='Log &amp; more' category=\"Mine\">\n"
		"<InputLine><RegEx>a &lt; b</RegEx><![CDATA[<not a tag>]]></InputLine>\n"
		"</Definition>\n"
		"<Definition category=\"Other\" name=\"SPAA profile\"/>\n"
		"</CustomTxtTraceDefinitionList>\n");
	free(once);
	free(twice);
	free(removed);
}
END_TEST

START_TEST(test_new_and_empty_lists)
{
	struct spaa_tc_list l;
	struct spaa_sbuf out = { 0 };
	char *a, *b;

	memset(&l, 0, sizeof(l));
	spaa_tc_list_merge(NULL, 0, &l, "spaa-tools", "SPAA profile", OURS, strlen(OURS), &out);
	spaa_sbuf_add(&out, "", 1);
	ck_assert_str_eq(out.s, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
			 "<CustomTxtTraceDefinitionList>\n" OURS "\n</CustomTxtTraceDefinitionList>\n");
	a = merge(out.s, OURS);
	ck_assert_str_eq(a, out.s);
	free(a);
	free(out.s);
	a = merge("<CustomTxtTraceDefinitionList />", OURS);
	ck_assert_str_eq(a, "<CustomTxtTraceDefinitionList >\n" OURS "\n</CustomTxtTraceDefinitionList>");
	b = merge(a, NULL);
	ck_assert_str_eq(b, "<CustomTxtTraceDefinitionList >\n</CustomTxtTraceDefinitionList>");
	free(a);
	free(b);
}
END_TEST

START_TEST(test_not_a_list)
{
	static const struct {
		const char *text, *says;
		unsigned long line;
	} cases[] = {
		{ "", "no root element", 1 },
		{ "hello", "text before the root", 1 },
		{ "<Other/>", "root element is not", 1 },
		{ "<!DOCTYPE x [<!ENTITY a 'b'>]><CustomTxtTraceDefinitionList/>", "DOCTYPE", 1 },
		{ "<CustomTxtTraceDefinitionList>\n<Definition category=\"a\" name=\"b\">", "not closed", 2 },
		{ "<CustomTxtTraceDefinitionList>\n<a></b></CustomTxtTraceDefinitionList>", "does not match", 2 },
		{ "<CustomTxtTraceDefinitionList>\n<Definition name=\"b\"/></CustomTxtTraceDefinitionList>", "without a category", 2 },
		{ "<CustomTxtTraceDefinitionList>\n<Definition category=a name=\"b\"/>", "without quotes", 2 },
		{ "<CustomTxtTraceDefinitionList>\n<Definition category=\"&foo;\" name=\"b\"/>", "entity", 2 },
		{ "<CustomTxtTraceDefinitionList>\n<Definition category=\"a\" category=\"a\" name=\"b\"/>", "twice", 2 },
		{ "<CustomTxtTraceDefinitionList>\n<Definition category=\"a\"name=\"b\"/>", "name=\"value\"", 2 },
		{ "<CustomTxtTraceDefinitionList/>\n<CustomTxtTraceDefinitionList/>", "more after", 2 },
		{ "<CustomTxtTraceDefinitionList>\n<!-- open", "comment that does not end", 2 },
		{ "<CustomTxtTraceDefinitionList>\n<a x=\"1", "does not end", 2 },
	};
	struct spaa_tc_list l;
	struct spaa_error err;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_int_eq(spaa_tc_list_parse(cases[i].text, strlen(cases[i].text), "f",
						    &l, &err), -1);
		ck_assert_msg(strstr(err.msg, cases[i].says), "%s: %s", cases[i].text, err.msg);
		ck_assert_str_eq(err.code, SPAA_E_PARSE);
		ck_assert_msg(err.line == cases[i].line, "%s: line %lu", cases[i].text, err.line);
		spaa_tc_list_release(&l);
	}
}
END_TEST

START_TEST(test_deep_and_numeric)
{
	static const char numeric[] =
		"<CustomTxtTraceDefinitionList><Definition category=\"&#97;&#x62;\" name=\"n\"/>"
		"</CustomTxtTraceDefinitionList>";
	char text[4096];
	size_t n = (size_t)snprintf(text, sizeof(text), "%s",
				    "<CustomTxtTraceDefinitionList><Definition category=\"a\" name=\"n\">");
	struct spaa_tc_list l;
	struct spaa_error err;

	/* nesting past the bound is refused, not followed */
	for (int i = 0; i < 100; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "<a>");
	ck_assert_int_eq(spaa_tc_list_parse(text, n, "f", &l, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "too deep"));
	spaa_tc_list_release(&l);
	ck_assert_int_eq(spaa_tc_list_parse(numeric, strlen(numeric), "f", &l, &err), 0);
	ck_assert_str_eq(l.defs[0].category, "ab");
	spaa_tc_list_release(&l);
}
END_TEST

Suite *tc_parsers_suite(void)
{
	Suite *s = suite_create("tc_parsers");
	TCase *tc = tcase_create("tc_parsers");

	tcase_add_test(tc, test_definitions_found);
	tcase_add_test(tc, test_merge_keeps_the_rest);
	tcase_add_test(tc, test_new_and_empty_lists);
	tcase_add_test(tc, test_not_a_list);
	tcase_add_test(tc, test_deep_and_numeric);
	suite_add_tcase(s, tc);
	return s;
}
