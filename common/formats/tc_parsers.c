#include <stdlib.h>
#include <string.h>

#include "formats/tc_parsers.h"
#include "model/util.h"

/* Deeper than any definition Trace Compass writes (5 levels). */
#define MAX_DEPTH 64

struct scan {
	const char *s;
	size_t n, at;
	const char *file;
	struct spaa_error *err;
};

static unsigned long line_at(const struct scan *sc, size_t at)
{
	unsigned long line = 1;

	for (size_t i = 0; i < at && i < sc->n; i++)
		line += sc->s[i] == '\n';
	return line;
}

static int fail(struct scan *sc, size_t at, const char *what)
{
	return spaa_error_at(sc->err, SPAA_E_PARSE, sc->file, line_at(sc, at),
			     "not a Trace Compass parser list: %s", what);
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.' ||
	       c == ':' || (unsigned char)c >= 0x80;
}

static bool starts(const struct scan *sc, const char *lit)
{
	size_t k = strlen(lit);

	return sc->n - sc->at >= k && !memcmp(sc->s + sc->at, lit, k);
}

/* Skips past the first end after at; -1 if the text ends first. */
static int skip_past(struct scan *sc, const char *end, const char *what)
{
	size_t k = strlen(end), from = sc->at;

	for (; sc->at + k <= sc->n; sc->at++)
		if (!memcmp(sc->s + sc->at, end, k)) {
			sc->at += k;
			return 0;
		}
	return fail(sc, from, what);
}

static void skip_space(struct scan *sc)
{
	while (sc->at < sc->n && is_space(sc->s[sc->at]))
		sc->at++;
}

/* A name at sc->at: its length (0: none). */
static size_t name_len(const struct scan *sc)
{
	size_t k = 0;

	while (sc->at + k < sc->n && is_name_char(sc->s[sc->at + k]))
		k++;
	return k;
}

/* An attribute value's raw text [b, e) with its entity references decoded. */
static char *decode(struct scan *sc, size_t b, size_t e)
{
	static const struct { const char *ref; char c; } named[] = {
		{ "amp;", '&' }, { "lt;", '<' }, { "gt;", '>' },
		{ "quot;", '"' }, { "apos;", '\'' },
	};
	struct spaa_sbuf out = { 0 };

	while (b < e) {
		size_t i, semi;
		unsigned long v = 0;
		bool ok = false;

		if (sc->s[b] != '&') {
			spaa_sbuf_add(&out, sc->s + b++, 1);
			continue;
		}
		for (semi = b + 1; semi < e && sc->s[semi] != ';'; semi++)
			;
		for (i = 0; i < sizeof(named) / sizeof(named[0]) && !ok; i++)
			if (semi - b == strlen(named[i].ref) &&
			    !memcmp(sc->s + b + 1, named[i].ref, semi - b)) {
				spaa_sbuf_add(&out, &named[i].c, 1);
				ok = true;
			}
		if (!ok && semi < e && sc->s[b + 1] == '#' && semi - b > 2 && semi - b < 10) {
			bool hex = sc->s[b + 2] == 'x';

			ok = !hex || semi - b > 3;
			for (i = b + 2 + hex; i < semi && ok; i++) {
				char c = sc->s[i];
				unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0') :
					     hex && c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10) :
					     hex && c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 99;

				ok = d < (hex ? 16u : 10u);
				v = v * (hex ? 16 : 10) + d;
			}
			/* names are compared, not shown: ASCII is all ours use */
			ok = ok && v > 0 && v < 0x80;
			if (ok) {
				char c = (char)v;

				spaa_sbuf_add(&out, &c, 1);
			}
		}
		if (!ok) {
			free(out.s);
			fail(sc, b, "an entity reference that is not read");
			return NULL;
		}
		b = semi + 1;
	}
	spaa_sbuf_add(&out, "", 0);
	return out.s ? spaa_sbuf_detach(&out) : spaa_xstrdup("");
}

/*
 * A start tag from its name on (sc->at after '<'): its name [*nb, *nb +
 * *nl), its category and name attributes when want_attrs (owned, may
 * stay NULL), whether it closes itself.
 */
static int start_tag(struct scan *sc, size_t *nb, size_t *nl, bool want_attrs,
		     char **category, char **name, bool *empty)
{
	*nb = sc->at;
	*nl = name_len(sc);
	if (!*nl)
		return fail(sc, sc->at, "a tag without a name");
	sc->at += *nl;
	for (;;) {
		size_t an, al, vb;
		char q, **slot = NULL;
		bool spaced = sc->at < sc->n && is_space(sc->s[sc->at]);

		skip_space(sc);
		if (sc->at >= sc->n)
			return fail(sc, *nb, "a tag that does not end");
		if (sc->s[sc->at] == '>' || starts(sc, "/>")) {
			*empty = sc->s[sc->at] == '/';
			sc->at += *empty ? 2 : 1;
			return 0;
		}
		an = sc->at;
		al = name_len(sc);
		if (!al || !spaced)
			return fail(sc, sc->at, "an attribute that is not name=\"value\"");
		sc->at += al;
		skip_space(sc);
		if (sc->at >= sc->n || sc->s[sc->at] != '=')
			return fail(sc, an, "an attribute without a value");
		sc->at++;
		skip_space(sc);
		if (sc->at >= sc->n || (sc->s[sc->at] != '"' && sc->s[sc->at] != '\''))
			return fail(sc, an, "an attribute value without quotes");
		q = sc->s[sc->at++];
		vb = sc->at;
		while (sc->at < sc->n && sc->s[sc->at] != q && sc->s[sc->at] != '<')
			sc->at++;
		if (sc->at >= sc->n || sc->s[sc->at] != q)
			return fail(sc, vb, "an attribute value that does not end");
		if (want_attrs && al == 8 && !memcmp(sc->s + an, "category", 8))
			slot = category;
		else if (want_attrs && al == 4 && !memcmp(sc->s + an, "name", 4))
			slot = name;
		if (slot) {
			if (*slot)
				return fail(sc, an, "an attribute given twice");
			*slot = decode(sc, vb, sc->at);
			if (!*slot)
				return -1;
		}
		sc->at++;
	}
}

/* Comments, processing instructions and (in content) CDATA at sc->at. */
static int skip_other(struct scan *sc, bool content, bool *skipped)
{
	*skipped = true;
	if (starts(sc, "<!--"))
		return skip_past(sc, "-->", "a comment that does not end");
	if (starts(sc, "<?"))
		return skip_past(sc, "?>", "a processing instruction that does not end");
	if (content && starts(sc, "<![CDATA["))
		return skip_past(sc, "]]>", "a CDATA section that does not end");
	if (starts(sc, "<!"))
		return fail(sc, sc->at, "a DOCTYPE or declaration, which is not read");
	*skipped = false;
	return 0;
}

static void add_def(struct spaa_tc_list *l, char *category, char *name,
		    size_t space, size_t begin, size_t end)
{
	SPAA_ALLOC_GROW(l->defs, l->nr + 1, l->alloc);
	l->defs[l->nr++] = (struct spaa_tc_definition){
		category, name, space, begin, end,
	};
}

/* The root's content, after its start tag, through its end tag. */
static int content(struct scan *sc, struct spaa_tc_list *l, size_t root_nb,
		   size_t root_nl)
{
	size_t stack[MAX_DEPTH][2], depth = 1, last_solid = sc->at;
	size_t def_space = 0, def_begin = 0;
	char *category = NULL, *name = NULL;
	bool skipped;

	stack[0][0] = root_nb;
	stack[0][1] = root_nl;
	while (depth) {
		size_t lt = sc->at, nb, nl;
		bool empty;

		while (sc->at < sc->n && sc->s[sc->at] != '<')
			if (!is_space(sc->s[sc->at++]))
				last_solid = sc->at;
		if (sc->at >= sc->n)
			goto cut;
		lt = sc->at;
		if (skip_other(sc, true, &skipped))
			goto fail;
		if (skipped) {
			last_solid = sc->at;
			continue;
		}
		if (starts(sc, "</")) {
			sc->at += 2;
			nl = name_len(sc);
			nb = stack[depth - 1][0];
			if (nl != stack[depth - 1][1] || memcmp(sc->s + sc->at, sc->s + nb, nl)) {
				fail(sc, lt, "an end tag that does not match its start tag");
				goto fail;
			}
			sc->at += nl;
			skip_space(sc);
			if (sc->at >= sc->n || sc->s[sc->at] != '>') {
				fail(sc, lt, "an end tag that does not end");
				goto fail;
			}
			sc->at++;
			if (--depth == 1 && def_begin) {
				add_def(l, category, name, def_space, def_begin, sc->at);
				category = name = NULL;
				def_begin = 0;
			}
			if (depth == 0)
				l->insert = last_solid;
			last_solid = sc->at;
			continue;
		}
		sc->at++;
		if (start_tag(sc, &nb, &nl, depth == 1, &category, &name, &empty))
			goto fail;
		if (depth == 1 && nl == 10 && !memcmp(sc->s + nb, "Definition", 10)) {
			if (!category || !name) {
				fail(sc, lt, "a Definition without a category and a name");
				goto fail;
			}
			if (empty) {
				add_def(l, category, name, last_solid, lt, sc->at);
				category = name = NULL;
			} else {
				def_space = last_solid;
				def_begin = lt;
			}
		} else if (depth == 1) {
			SPAA_FREE_AND_NULL(category);
			SPAA_FREE_AND_NULL(name);
		}
		last_solid = sc->at;
		if (empty)
			continue;
		if (depth == MAX_DEPTH) {
			fail(sc, lt, "elements nested too deep");
			goto fail;
		}
		stack[depth][0] = nb;
		stack[depth][1] = nl;
		depth++;
	}
	return 0;
cut:
	fail(sc, stack[depth - 1][0], "an element that is not closed");
fail:
	free(category);
	free(name);
	return -1;
}

int spaa_tc_list_parse(const char *text, size_t n, const char *file,
		       struct spaa_tc_list *l, struct spaa_error *err)
{
	struct scan sc = { text, n, 0, file, err };
	char *category = NULL, *name = NULL;
	size_t nb, nl;
	bool skipped, empty;

	memset(l, 0, sizeof(*l));
	if (starts(&sc, "\xef\xbb\xbf"))
		sc.at = 3;
	for (;;) {
		skip_space(&sc);
		if (sc.at >= n)
			return fail(&sc, sc.at, "no root element");
		if (skip_other(&sc, false, &skipped))
			return -1;
		if (!skipped)
			break;
	}
	if (sc.s[sc.at] != '<')
		return fail(&sc, sc.at, "text before the root element");
	sc.at++;
	if (start_tag(&sc, &nb, &nl, false, &category, &name, &empty))
		return -1;
	if (nl != strlen(SPAA_TC_PARSERS_ROOT) || memcmp(text + nb, SPAA_TC_PARSERS_ROOT, nl))
		return fail(&sc, nb, "the root element is not <" SPAA_TC_PARSERS_ROOT ">");
	if (empty) {
		l->self_closed = true;
		l->insert = sc.at - 2;
	} else if (content(&sc, l, nb, nl)) {
		return -1;
	}
	for (;;) {
		skip_space(&sc);
		if (sc.at >= n)
			return 0;
		if (skip_other(&sc, false, &skipped))
			return -1;
		if (!skipped)
			return fail(&sc, sc.at, "more after the root element");
	}
}

void spaa_tc_list_release(struct spaa_tc_list *l)
{
	for (size_t i = 0; i < l->nr; i++) {
		free(l->defs[i].category);
		free(l->defs[i].name);
	}
	free(l->defs);
	memset(l, 0, sizeof(*l));
}

long spaa_tc_list_find(const struct spaa_tc_list *l, const char *category,
		       const char *name)
{
	for (size_t i = 0; i < l->nr; i++)
		if (!strcmp(l->defs[i].category, category) && !strcmp(l->defs[i].name, name))
			return (long)i;
	return -1;
}

void spaa_tc_list_merge(const char *text, size_t n, const struct spaa_tc_list *l,
			const char *category, const char *name,
			const char *def, size_t deflen, struct spaa_sbuf *out)
{
	size_t at = 0;

	if (!text) {
		spaa_sbuf_adds(out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
			       "<" SPAA_TC_PARSERS_ROOT ">\n");
		if (def) {
			spaa_sbuf_add(out, def, deflen);
			spaa_sbuf_adds(out, "\n");
		}
		spaa_sbuf_adds(out, "</" SPAA_TC_PARSERS_ROOT ">\n");
		return;
	}
	for (size_t i = 0; i < l->nr; i++) {
		const struct spaa_tc_definition *d = &l->defs[i];

		if (strcmp(d->category, category) || strcmp(d->name, name))
			continue;
		spaa_sbuf_add(out, text + at, d->space - at);
		at = d->end;
	}
	/* a definition ends before the insertion point */
	spaa_sbuf_add(out, text + at, l->insert - at);
	at = l->insert;
	if (def && l->self_closed) {
		spaa_sbuf_adds(out, ">\n");
		spaa_sbuf_add(out, def, deflen);
		spaa_sbuf_adds(out, "\n</" SPAA_TC_PARSERS_ROOT ">");
		at += 2;
	} else if (def) {
		spaa_sbuf_adds(out, "\n");
		spaa_sbuf_add(out, def, deflen);
	}
	spaa_sbuf_add(out, text + at, n - at);
}
