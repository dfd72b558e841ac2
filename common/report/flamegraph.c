/*
 * flamegraph - the call-tree trie, its layout and the SVG writer.
 * The rules (layout, colours, what a differential graph shows) are in
 * flamegraph.h; this file says why where it is not obvious.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "analysis/weights.h"
#include "model/map.h"
#include "model/sbuf.h"
#include "model/units.h"
#include "model/util.h"
#include "report/flamegraph.h"
#include "report/svg.h"

#define PAD 10          /* px left and right of the frames */
#define FRAME_H 16      /* px per depth level */
#define TOP 72          /* px above the frames: title, what, notes */
#define BOTTOM 28       /* px below: details and matched share */
#define CHAR_W 6.7      /* SPAA_SVG_CHAR_W, spelled out for the script */
#define STR_(x) #x
#define STR(x) STR_(x)  /* the script shares the numbers above */

struct flame_key {
	uint32_t parent, name;
};

struct flame_node {
	uint32_t name, dso;     /* string indices (dso 0: unknown) */
	uint32_t parent;        /* SPAA_NONE for the root */
	uint32_t depth;
	enum spaa_flamegraph_kind kind;
	uint64_t weight, base;  /* totals: target, baseline */
};

struct spaa_flamegraph {
	struct spaa_strtab strs;
	struct spaa_map index;          /* flame_key -> node, dense */
	struct flame_node *nodes;       /* owned, by index */
	size_t alloc;
	uint32_t cur;
};

static uint32_t node_intern(struct spaa_flamegraph *fg, uint32_t parent, uint32_t name,
			    uint32_t dso, enum spaa_flamegraph_kind kind)
{
	struct flame_key k;
	bool created;
	uint32_t i;

	memset(&k, 0, sizeof(k));
	k.parent = parent;
	k.name = name;
	i = spaa_map_intern(&fg->index, &k, &created);
	if (created) {
		SPAA_ALLOC_GROW(fg->nodes, (size_t)i + 1, fg->alloc);
		fg->nodes[i] = (struct flame_node){
			.name = name, .dso = dso, .parent = parent,
			.depth = parent == SPAA_NONE ? 0 : fg->nodes[parent].depth + 1,
			.kind = kind,
		};
	}
	return i;
}

struct spaa_flamegraph *spaa_flamegraph_new(void)
{
	struct spaa_flamegraph *fg = spaa_xcalloc(1, sizeof(*fg));

	spaa_strtab_init(&fg->strs);
	spaa_map_init(&fg->index, sizeof(struct flame_key));
	node_intern(fg, SPAA_NONE, spaa_strtab_intern(&fg->strs, "all", 3), 0,
		    SPAA_FLAMEGRAPH_USER);
	return fg;
}

void spaa_flamegraph_free(struct spaa_flamegraph *fg)
{
	if (!fg)
		return;
	spaa_strtab_release(&fg->strs);
	spaa_map_release(&fg->index);
	free(fg->nodes);
	free(fg);
}

void spaa_flamegraph_begin(struct spaa_flamegraph *fg)
{
	fg->cur = 0;
}

void spaa_flamegraph_push(struct spaa_flamegraph *fg, const char *name, size_t len,
		     const char *dso, enum spaa_flamegraph_kind kind)
{
	uint32_t n = spaa_strtab_intern(&fg->strs, name, len);
	uint32_t d = dso && *dso ? spaa_strtab_intern(&fg->strs, dso, strlen(dso)) : 0;

	fg->cur = node_intern(fg, fg->cur, n, d, kind);
}

int spaa_flamegraph_add(struct spaa_flamegraph *fg, uint64_t weight, uint64_t baseline,
		   struct spaa_error *err)
{
	struct flame_node *root = &fg->nodes[0];
	uint64_t w, b;

	/* every frame's total is part of the root's: checking it suffices */
	if (spaa_add_u64(root->weight, weight, &w) ||
	    spaa_add_u64(root->base, baseline, &b))
		return spaa_error_set(err, SPAA_E_LIMIT,
				      "flame graph total weight overflows 64 bits");
	for (uint32_t i = fg->cur; i != 0; i = fg->nodes[i].parent) {
		fg->nodes[i].weight += weight;
		fg->nodes[i].base += baseline;
	}
	root->weight = w;
	root->base = b;
	return 0;
}

int spaa_flamegraph_add_paths(struct spaa_flamegraph *fg,
			      const struct spaa_aggregate *a, bool inverted,
			      struct spaa_error *err)
{
	const struct spaa_profile *p = a->p;
	uint32_t *fn_of = spaa_xmalloc(((size_t)p->strings.nr + 1) * sizeof(*fn_of));
	int ret = -1;

	/* the first function of each name: its DSO colours the frame */
	for (uint32_t i = 0; i < p->strings.nr; i++)
		fn_of[i] = SPAA_NONE;
	for (uint32_t f = spaa_profile_nfunctions(p); f-- > 0;)
		fn_of[p->functions[f].name] = f;
	for (uint32_t k = 0; k < a->paths.nr; k++) {
		const char *seq = spaa_strtab_get(&a->paths, k);
		uint32_t n = spaa_strtab_len(&a->paths, k) / sizeof(uint32_t);

		if (k >= a->path_alloc || !a->path_weight[k])
			continue;
		spaa_flamegraph_begin(fg);
		for (uint32_t i = 0; i < n; i++) {
			uint32_t name, fn;
			const struct spaa_dso *dso;
			const char *s, *d;

			memcpy(&name, seq + (size_t)(inverted ? n - 1 - i : i) * sizeof(name),
			       sizeof(name));
			fn = fn_of[name];
			dso = fn == SPAA_NONE ? NULL : &p->dsos[p->functions[fn].dso];
			s = spaa_profile_str(p, name);
			d = dso ? spaa_profile_str(p, dso->name) : NULL;
			spaa_flamegraph_push(fg, s, strlen(s), d,
					     spaa_flamegraph_classify(d, dso && dso->is_kernel));
		}
		if (spaa_flamegraph_add(fg, a->path_weight[k], 0, err))
			goto out;
	}
	ret = 0;
out:
	free(fn_of);
	return ret;
}

uint64_t spaa_flamegraph_total(const struct spaa_flamegraph *fg)
{
	return fg->nodes[0].weight;
}

/* ---- classification ----------------------------------------------------- */

static bool ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && !memcmp(s + n - k, suffix, k);
}

enum spaa_flamegraph_kind spaa_flamegraph_classify(const char *dso, bool kernel)
{
	static const char *const script_ext[] = {
		".js", ".mjs", ".py", ".php", ".rb", ".pl", ".lua", NULL,
	};
	const char *base;
	size_t n;

	if (kernel)
		return SPAA_FLAMEGRAPH_KERNEL;
	if (!dso || !*dso)
		return SPAA_FLAMEGRAPH_USER;
	n = strlen(dso);
	if (spaa_profile_kernel_dso(dso))
		return SPAA_FLAMEGRAPH_KERNEL;
	base = strrchr(dso, '/');
	base = base ? base + 1 : dso;
	if ((!strncmp(base, "perf-", 5) && ends_with(dso, n, ".map")) ||
	    !strncmp(dso, "[JIT]", 5) || strstr(dso, "jitted-") ||
	    !strcmp(dso, "//anon") || !strncmp(dso, "[anon", 5))
		return SPAA_FLAMEGRAPH_JIT;
	/* "php": the pseudo-DSO of SPX reports; "node:": Node.js built-ins */
	if (strstr(dso, "://") || !strncmp(dso, "node:", 5) || !strcmp(dso, "php"))
		return SPAA_FLAMEGRAPH_INTERPRETED;
	for (const char *const *s = script_ext; *s; s++)
		if (ends_with(dso, n, *s))
			return SPAA_FLAMEGRAPH_INTERPRETED;
	if (strstr(base, ".so") || ends_with(dso, n, ".dylib") ||
	    ends_with(dso, n, ".dll") || ends_with(dso, n, ".DLL"))
		return SPAA_FLAMEGRAPH_LIBRARY;
	return SPAA_FLAMEGRAPH_USER;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* ---- colours ------------------------------------------------------------ */

static struct spaa_svg_rgb kind_colour(const struct spaa_flamegraph *fg, const struct flame_node *n)
{
	static const struct { double h0, span, s; } band[] = {
		[SPAA_FLAMEGRAPH_USER] = { 0, 14, 0.75 },
		[SPAA_FLAMEGRAPH_KERNEL] = { 24, 14, 0.85 },
		[SPAA_FLAMEGRAPH_LIBRARY] = { 48, 12, 0.80 },
		[SPAA_FLAMEGRAPH_JIT] = { 92, 40, 0.55 },
		[SPAA_FLAMEGRAPH_INTERPRETED] = { 172, 28, 0.55 },
	};
	uint32_t hue_of = n->dso ? n->dso : n->name;
	uint64_t hh = spaa_hash_bytes(spaa_strtab_get(&fg->strs, hue_of),
				      spaa_strtab_len(&fg->strs, hue_of));
	uint64_t hl = spaa_hash_bytes(spaa_strtab_get(&fg->strs, n->name),
				      spaa_strtab_len(&fg->strs, n->name));

	return spaa_svg_hsl(band[n->kind].h0 + (double)(hh % 1000) / 1000 * band[n->kind].span,
		   band[n->kind].s, 0.58 + (double)(hl % 9) * 0.015);
}

/*
 * Differential: red grew, blue shrank, paler for smaller changes; never
 * so dark that the black label cannot be read (hence 60 at full strength
 * and a blue that leans to sky blue).
 */
static struct spaa_svg_rgb delta_colour(double delta, double max)
{
	unsigned char c = (unsigned char)lround(220 - 160 * (max > 0 ? fabs(delta) / max : 0));

	if (delta > 0)
		return (struct spaa_svg_rgb){ 255, c, c };
	if (delta < 0)
		return (struct spaa_svg_rgb){ c, (unsigned char)((c + 255) / 2), 255 };
	return (struct spaa_svg_rgb){ 224, 224, 224 };
}

/* ---- layout ------------------------------------------------------------- */

static const char *const kind_names[] = {
	[SPAA_FLAMEGRAPH_USER] = "native", [SPAA_FLAMEGRAPH_KERNEL] = "kernel",
	[SPAA_FLAMEGRAPH_LIBRARY] = "library", [SPAA_FLAMEGRAPH_JIT] = "JIT",
	[SPAA_FLAMEGRAPH_INTERPRETED] = "interpreted",
};

struct child {
	const char *name;
	uint32_t parent, node;
};

static int child_cmp(const void *a, const void *b)
{
	const struct child *x = a, *y = b;
	int c;

	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	c = strcmp(x->name, y->name);
	return c ? c : (x->node > y->node) - (x->node < y->node);
}

/* Everything spaa_flamegraph_write computes before writing, by node. */
struct layout {
	uint32_t n;
	struct child *kids;     /* sorted by (parent, name) */
	uint32_t *first;        /* kids[first[i] .. first[i + 1]) are i's */
	uint64_t *x;            /* in weight units */
	uint64_t *child_sum;    /* weight of the children */
	uint64_t *gone;         /* baseline of the children absent from the target */
	bool *drawn;
	uint32_t max_depth;
	uint64_t dropped, dropped_weight;       /* narrower than min_width */
	uint64_t gone_paths, gone_weight;       /* baseline only */
	double max_delta;
};

static void layout_release(struct layout *l)
{
	free(l->kids);
	free(l->first);
	free(l->x);
	free(l->child_sum);
	free(l->gone);
	free(l->drawn);
}

static double px(uint64_t w, uint64_t total, double usable)
{
	return (double)w * usable / (double)total;
}

static void layout(const struct spaa_flamegraph *fg, const struct spaa_flamegraph_opts *o,
		   double usable, struct layout *l)
{
	const struct flame_node *nd = fg->nodes;
	uint64_t total = nd[0].weight;

	l->n = fg->index.nr;
	l->kids = spaa_xmalloc((size_t)l->n * sizeof(*l->kids));
	l->first = spaa_xcalloc((size_t)l->n + 1, sizeof(*l->first));
	l->x = spaa_xcalloc(l->n, sizeof(*l->x));
	l->child_sum = spaa_xcalloc(l->n, sizeof(*l->child_sum));
	l->gone = spaa_xcalloc(l->n, sizeof(*l->gone));
	l->drawn = spaa_xcalloc(l->n, sizeof(*l->drawn));
	for (uint32_t i = 1; i < l->n; i++)
		l->kids[i - 1] = (struct child){
			spaa_strtab_get(&fg->strs, nd[i].name), nd[i].parent, i,
		};
	qsort(l->kids, l->n - 1, sizeof(*l->kids), child_cmp);
	for (uint32_t k = 0; k + 1 < l->n; k++)
		l->first[l->kids[k].parent + 1]++;
	for (uint32_t i = 0; i < l->n; i++)
		l->first[i + 1] += l->first[i];

	/* a parent's index is below its children's: one pass in index order */
	l->drawn[0] = true;
	for (uint32_t p = 0; p < l->n; p++) {
		uint64_t at = l->x[p];

		for (uint32_t k = l->first[p]; k < l->first[p + 1]; k++) {
			uint32_t c = l->kids[k].node;

			l->x[c] = at;
			at += nd[c].weight;
			l->child_sum[p] += nd[c].weight;
			if (!nd[c].weight) {
				/* only the first frame of a path the target lacks */
				if (nd[p].weight) {
					l->gone[p] += nd[c].base;
					l->gone_paths++;
					l->gone_weight += nd[c].base;
				}
				continue;
			}
			l->drawn[c] = l->drawn[p] && px(nd[c].weight, total, usable) >= o->min_width;
			if (l->drawn[p] && !l->drawn[c]) {
				l->dropped++;
				l->dropped_weight += nd[c].weight;
			}
			if (l->drawn[c] && nd[c].depth > l->max_depth)
				l->max_depth = nd[c].depth;
		}
	}
	if (o->cmp)
		for (uint32_t i = 1; i < l->n; i++) {
			struct spaa_compare_delta d;

			if (!l->drawn[i])
				continue;
			spaa_compare_compute(o->cmp, nd[i].base, nd[i].weight, &d);
			if (fabs(d.delta) > l->max_delta)
				l->max_delta = fabs(d.delta);
		}
}

/* ---- writing ------------------------------------------------------------ */

/* The embedded script: zoom, search, details; see flamegraph.h. */
static const char script[] =
	"<script type=\"text/ecmascript\"><![CDATA[\n"
	"(function () {\n"
	"\"use strict\";\n"
	/* inlined in a page, the document is the page: find our own root */
	"var svg = document.getElementById(\"frames\").ownerSVGElement || document.documentElement;\n"
	"var PAD = " STR(PAD) ", FULL = +svg.getAttribute(\"width\") - 2 * PAD;\n"
	"var FRAME_H = " STR(FRAME_H) ", CHAR_W = " STR(CHAR_W) ";\n"
	"var EPS = 0.02, HIGHLIGHT = \"rgb(230,0,230)\";\n"
	"var details = document.getElementById(\"details\");\n"
	"var matched = document.getElementById(\"matched\");\n"
	"var unzoom = document.getElementById(\"unzoom\");\n"
	"var searchBtn = document.getElementById(\"search\");\n"
	"var invert = document.getElementById(\"invert\");\n"
	"var re = null;\n"
	/* one view per group of frames: the flame graph, the inverted one */
	"function view(id) {\n"
	"  var group = document.getElementById(id), frames = [];\n"
	"  if (!group) return null;\n"
	"  var gs = group.getElementsByTagName(\"g\");\n"
	"  for (var i = 0; i < gs.length; i++) {\n"
	"    var g = gs[i], r = g.getElementsByTagName(\"rect\")[0];\n"
	"    var lines = g.getElementsByTagName(\"title\")[0].textContent.split(\"\\n\");\n"
	"    frames.push({ g: g, r: r, t: g.getElementsByTagName(\"text\")[0],\n"
	"      x: +r.getAttribute(\"x\"), w: +r.getAttribute(\"width\"),\n"
	"      y: +r.getAttribute(\"y\"), fill: r.getAttribute(\"fill\"),\n"
	"      name: lines[0], info: lines.join(\"  |  \") });\n"
	"  }\n"
	"  frames.forEach(function (f) {\n"
	"    f.depth = Math.round(Math.abs(frames[0].y - f.y) / FRAME_H);\n"
	"    f.g.addEventListener(\"mouseover\", function () { details.textContent = f.info; });\n"
	"    f.g.addEventListener(\"mouseout\", function () { details.textContent = \" \"; });\n"
	"    f.g.addEventListener(\"click\", function () { zoom(f); });\n"
	"  });\n"
	"  return { group: group, frames: frames };\n"
	"}\n"
	"var views = [view(\"frames\"), view(\"inverted\")], shown = 0;\n"
	"var frames = views[0].frames, root = frames[0];\n"
	"function toggle() {\n"
	"  zoom(root);\n"
	"  search(null);\n"
	"  views[shown].group.setAttribute(\"display\", \"none\");\n"
	"  shown = 1 - shown;\n"
	"  views[shown].group.removeAttribute(\"display\");\n"
	"  frames = views[shown].frames;\n"
	"  root = frames[0];\n"
	"  invert.textContent = shown ? \"Flame graph\" : \"Inverted (callers)\";\n"
	"}\n"
	"if (invert && views[1]) invert.addEventListener(\"click\", toggle);\n"
	/* the same truncation as the C writer's label() */
	"function label(f, w) {\n"
	"  var c = Array.from(f.name), room = w - 6;\n"
	"  if (c.length * CHAR_W <= room) return f.name;\n"
	"  var k = Math.floor(room / CHAR_W) - 2;\n"
	"  return k < 1 ? \"\" : c.slice(0, k).join(\"\") + \"..\";\n"
	"}\n"
	"function zoom(z) {\n"
	"  var s = FULL / z.w;\n"
	"  frames.forEach(function (f) {\n"
	"    var x = PAD, w = FULL, dim = false;\n"
	"    if (f.depth >= z.depth && f.x >= z.x - EPS && f.x + f.w <= z.x + z.w + EPS) {\n"
	"      x = PAD + (f.x - z.x) * s; w = f.w * s;\n"
	"    } else if (f.depth < z.depth && f.x <= z.x + EPS && f.x + f.w >= z.x + z.w - EPS) {\n"
	"      dim = true;\n"
	"    } else {\n"
	"      f.g.setAttribute(\"display\", \"none\");\n"
	"      return;\n"
	"    }\n"
	"    f.g.removeAttribute(\"display\");\n"
	"    f.g.setAttribute(\"opacity\", dim ? \"0.5\" : \"1\");\n"
	"    f.r.setAttribute(\"x\", x.toFixed(2));\n"
	"    f.r.setAttribute(\"width\", w.toFixed(2));\n"
	"    f.t.setAttribute(\"x\", (x + 3).toFixed(2));\n"
	"    f.t.textContent = label(f, w);\n"
	"  });\n"
	"  unzoom.setAttribute(\"display\", z === root ? \"none\" : \"inline\");\n"
	"}\n"
	"function search(term) {\n"
	"  re = null;\n"
	"  if (term) {\n"
	"    try { re = new RegExp(term); }\n"
	"    catch (e) { alert(\"not a regular expression: \" + term); }\n"
	"  }\n"
	"  var spans = [];\n"
	"  frames.forEach(function (f) {\n"
	"    var m = re !== null && re.test(f.name);\n"
	"    f.r.setAttribute(\"fill\", m ? HIGHLIGHT : f.fill);\n"
	"    if (m) spans.push([f.x, f.x + f.w]);\n"
	"  });\n"
	"  if (re === null) {\n"
	"    matched.textContent = \" \";\n"
	"    searchBtn.textContent = \"Search\";\n"
	"    return;\n"
	"  }\n"
	/* nested matches (a recursive function) cover the same width once */
	"  spans.sort(function (a, b) { return a[0] - b[0]; });\n"
	"  var sum = 0, end = -Infinity;\n"
	"  spans.forEach(function (v) {\n"
	"    if (v[1] > end) { sum += v[1] - Math.max(v[0], end); end = v[1]; }\n"
	"  });\n"
	"  matched.textContent = \"Matched: \" + (100 * sum / root.w).toFixed(2) +\n"
	"    \" % (\" + spans.length + \" frames)\";\n"
	"  searchBtn.textContent = \"Reset search\";\n"
	"}\n"
	"function ask() {\n"
	"  var t = prompt(\"Search for frames whose name matches (regular expression):\", \"\");\n"
	"  if (t) search(t);\n"
	"}\n"
	"searchBtn.addEventListener(\"click\", function () { if (re) search(null); else ask(); });\n"
	"unzoom.addEventListener(\"click\", function () { zoom(root); });\n"
	"document.addEventListener(\"keydown\", function (e) {\n"
	"  if ((e.ctrlKey && e.key === \"f\") || e.key === \"/\") { e.preventDefault(); ask(); }\n"
	"  else if (e.key === \"Escape\") { zoom(root); search(null); }\n"
	"});\n"
	"})();\n"
	"]]></script>\n";

/* The hover text: name, where the code is, then the numbers. */
static void frame_title(struct spaa_sbuf *sb, const struct spaa_flamegraph *fg,
			const struct spaa_flamegraph_opts *o, const struct layout *l,
			uint32_t i)
{
	const struct flame_node *n = &fg->nodes[i];
	uint64_t total = fg->nodes[0].weight;
	double scale = o->sem ? o->sem->scale : 1;

	spaa_svg_text_str(sb, spaa_strtab_get(&fg->strs, n->name));
	if (i) {
		spaa_sbuf_adds(sb, "\n");
		spaa_svg_text_str(sb, n->dso ? spaa_strtab_get(&fg->strs, n->dso) : "unknown DSO");
		spaa_sbuf_printf(sb, " (%s)", kind_names[n->kind]);
	}
	spaa_sbuf_adds(sb, "\n");
	if (o->cmp) {
		struct spaa_compare_delta d;

		spaa_compare_compute(o->cmp, n->base, n->weight, &d);
		spaa_sbuf_adds(sb, "target ");
		spaa_svg_human(sb, o->sem, d.target);
		spaa_sbuf_printf(sb, " (%.2f %%), baseline ", 100 * d.tshare);
		spaa_svg_human(sb, o->sem, d.base);
		spaa_sbuf_printf(sb, " (%.2f %%)\nraw delta ", 100 * d.bshare);
		spaa_svg_signed_human(sb, o->sem, d.raw);
		if (o->cmp->mode != SPAA_COMPARE_NONE) {
			spaa_sbuf_adds(sb, ", normalized delta ");
			spaa_svg_signed_human(sb, o->sem, d.normalized);
		}
		if (isfinite(d.relative))
			spaa_sbuf_printf(sb, " (%+.1f %%)", 100 * d.relative);
		else
			spaa_sbuf_adds(sb, " (new)");
		spaa_sbuf_printf(sb, ", share %+.2f points", 100 * d.share_delta);
		if (l->gone[i]) {
			spaa_compare_compute(o->cmp, l->gone[i], 0, &d);
			spaa_sbuf_adds(sb, "\ngone below, baseline ");
			spaa_svg_human(sb, o->sem, d.base);
			spaa_sbuf_printf(sb, " (%.2f %%)", 100 * d.bshare);
		}
	} else {
		spaa_sbuf_adds(sb, "total ");
		spaa_svg_human(sb, o->sem, (double)n->weight * scale);
		spaa_sbuf_printf(sb, " (%.2f %%), self ", pct(n->weight, total));
		spaa_svg_human(sb, o->sem, (double)(n->weight - l->child_sum[i]) * scale);
		spaa_sbuf_printf(sb, " (%.2f %%)", pct(n->weight - l->child_sum[i], total));
	}
}

/*
 * Frame i at depth d is drawn at y = top + (deepest - d) FRAME_H, or in an
 * icicle (deepest 0) at top + d FRAME_H.
 */
static void frame(struct spaa_sbuf *sb, const struct spaa_flamegraph *fg,
		  const struct spaa_flamegraph_opts *o, const struct layout *l,
		  uint32_t i, double usable, unsigned top, uint32_t deepest)
{
	const struct flame_node *n = &fg->nodes[i];
	uint64_t total = fg->nodes[0].weight;
	double x = PAD + px(l->x[i], total, usable), w = px(n->weight, total, usable);
	unsigned y = top + (deepest ? deepest - n->depth : n->depth) * FRAME_H;
	struct spaa_svg_rgb c;

	if (o->cmp) {
		struct spaa_compare_delta d;

		spaa_compare_compute(o->cmp, n->base, n->weight, &d);
		c = delta_colour(d.delta, l->max_delta);
	} else {
		c = i ? kind_colour(fg, n) : (struct spaa_svg_rgb){ 200, 200, 200 };
	}
	spaa_sbuf_adds(sb, "<g><title>");
	frame_title(sb, fg, o, l, i);
	spaa_sbuf_printf(sb, "</title><rect x=\"%.2f\" y=\"%u\" width=\"%.2f\" height=\"%u\" "
		  "fill=\"#%02x%02x%02x\" rx=\"2\"/><text x=\"%.2f\" y=\"%.1f\">",
		  x, y, w, FRAME_H - 1, c.r, c.g, c.b, x + 3, y + 11.5);
	/* the same room as label() of the script */
	spaa_svg_fit(sb, spaa_strtab_get(&fg->strs, n->name),
		     spaa_strtab_len(&fg->strs, n->name), w - 6, CHAR_W);
	spaa_sbuf_adds(sb, "</text></g>\n");
}

/* The line under the title (plain text): the caller's words, the totals. */
static void what_line(struct spaa_sbuf *sb, const struct spaa_flamegraph *fg,
		      const struct spaa_flamegraph_opts *o)
{
	if (o->what && !o->cmp) {
		spaa_sbuf_adds(sb, o->what);
		spaa_sbuf_adds(sb, "; ");
	}
	if (o->cmp) {
		/* the totals first: the what of a comparison is long */
		spaa_sbuf_adds(sb, "target total ");
		spaa_svg_human(sb, o->sem, (double)o->cmp->ttotal * o->cmp->tsem.scale);
		spaa_sbuf_adds(sb, ", baseline total ");
		spaa_svg_human(sb, o->sem, (double)o->cmp->btotal * o->cmp->bsem.scale);
		spaa_sbuf_adds(sb, "; red grew, blue shrank");
		if (o->what) {
			spaa_sbuf_adds(sb, "; ");
			spaa_sbuf_adds(sb, o->what);
		}
	} else {
		spaa_sbuf_adds(sb, "total ");
		spaa_svg_human(sb, o->sem, (double)fg->nodes[0].weight * (o->sem ? o->sem->scale : 1));
	}
}

/* What the picture leaves out, said under the title (plain text). */
static void note_line(struct spaa_sbuf *sb, const struct spaa_flamegraph *fg,
		      const struct spaa_flamegraph_opts *o, const struct layout *l)
{
	if (l->dropped)
		spaa_sbuf_printf(sb, "%" PRIu64 " frame%s narrower than %g px (%.2f %%) not drawn",
			  l->dropped, l->dropped == 1 ? "" : "s", o->min_width,
			  pct(l->dropped_weight, fg->nodes[0].weight));
	if (o->cmp && l->gone_paths)
		spaa_sbuf_printf(sb, "%s%" PRIu64 " call path%s only in the baseline (%.2f %% of it): "
			  "no width here, see \"gone below\" in their callers",
			  l->dropped ? "; " : "", l->gone_paths,
			  l->gone_paths == 1 ? "" : "s", pct(l->gone_weight, fg->nodes[0].base));
}

/* Frames of l drawn (the root included). */
static uint64_t drawn_frames(const struct layout *l)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < l->n; i++)
		n += l->drawn[i];
	return n;
}

/*
 * Lays fg out, raising o->min_width (x 2 at a time) until at most
 * SPAA_FLAMEGRAPH_MAX_FRAMES frames are drawn (or no frame but the root
 * could be); the note then says the width used.
 */
static void layout_bounded(const struct spaa_flamegraph *fg, struct spaa_flamegraph_opts *o,
			   double usable, struct layout *l)
{
	layout(fg, o, usable, l);
	while (drawn_frames(l) > SPAA_FLAMEGRAPH_MAX_FRAMES && o->min_width < usable) {
		layout_release(l);
		memset(l, 0, sizeof(*l));
		o->min_width = o->min_width > 0 ? o->min_width * 2 : 0.1;
		layout(fg, o, usable, l);
	}
}

/* One view of frames, depth first, siblings in name order (no recursion). */
static int frames_group(struct spaa_sbuf *sb, const struct spaa_flamegraph *fg,
			const struct spaa_flamegraph_opts *o, const struct layout *l,
			double usable, unsigned top, uint32_t deepest,
			struct spaa_output *out, struct spaa_error *err)
{
	uint32_t *todo = spaa_xmalloc((size_t)l->n * sizeof(*todo));
	size_t ntodo = 0;
	int ret = -1;

	todo[ntodo++] = 0;
	while (ntodo) {
		uint32_t i = todo[--ntodo];

		frame(sb, fg, o, l, i, usable, top, deepest);
		for (uint32_t k = l->first[i + 1]; k-- > l->first[i];)
			if (l->drawn[l->kids[k].node])
				todo[ntodo++] = l->kids[k].node;
		if (sb->len >= 1 << 16 && spaa_svg_flush(sb, out, err))
			goto out;
	}
	ret = 0;
out:
	free(todo);
	return ret;
}

int spaa_flamegraph_write(const struct spaa_flamegraph *fg,
		     const struct spaa_flamegraph_opts *opts,
		     struct spaa_output *out, struct spaa_error *err)
{
	struct spaa_flamegraph_opts o = *opts, io;
	struct layout l = { 0 }, il = { 0 };
	struct spaa_sbuf sb = { 0 }, what = { 0 }, note = { 0 };
	const struct spaa_flamegraph *inv = o.cmp ? NULL : o.inverted;
	unsigned height, top = inv ? TOP + FRAME_H : TOP;
	uint32_t deepest;
	double usable;
	int ret = -1;

	if (!o.width)
		o.width = SPAA_FLAMEGRAPH_WIDTH_DEFAULT;
	if (!o.title)
		o.title = o.cmp ? "Differential flame graph" : "Flame graph";
	if (o.cmp && !o.sem)
		o.sem = &o.cmp->tsem;
	if (o.width < 100 || o.width > 1000000)
		return spaa_error_set(err, SPAA_E_USAGE,
				      "flame graph width %u px is not between 100 and 1000000",
				      o.width);
	if (!(o.min_width >= 0))
		return spaa_error_set(err, SPAA_E_USAGE,
				      "flame graph minimum frame width must be >= 0 px");
	if (!fg->nodes[0].weight)
		return spaa_error_set(err, SPAA_E_NO_DATA,
				      "nothing to draw: the total weight is 0");
	usable = o.width - 2 * PAD;
	io = o;
	layout_bounded(fg, &o, usable, &l);
	deepest = l.max_depth;
	if (inv) {
		layout_bounded(inv, &io, usable, &il);
		if (il.max_depth > deepest)
			deepest = il.max_depth;
	}
	height = top + (deepest + 1) * FRAME_H + BOTTOM;

	spaa_svg_begin(&sb, o.width, height, o.title,
		       "#frames g, #inverted g { cursor: pointer; }\n"
		       "#frames text, #inverted text { pointer-events: none; }\n"
		       "#frames g:hover rect, #inverted g:hover rect { stroke: #000; stroke-width: 0.5; }\n");
	what_line(&what, fg, &o);
	note_line(&note, fg, &o, &l);
	if (o.min_width != opts->min_width || io.min_width != opts->min_width)
		spaa_sbuf_printf(&note, "%sat most %u frames in a view", note.len ? "; " : "",
				 SPAA_FLAMEGRAPH_MAX_FRAMES);
	if (inv && il.dropped) {
		spaa_sbuf_adds(&note, note.len ? "; inverted: " : "inverted: ");
		note_line(&note, inv, &io, &il);
	}
	spaa_svg_header(&sb, o.width, o.title, what.s, note.s);
	spaa_sbuf_printf(&sb, "<text id=\"unzoom\" class=\"button\" x=\"%d\" y=\"24\" display=\"none\">Reset zoom</text>\n"
		  "<text id=\"search\" class=\"button\" x=\"%u\" y=\"24\" text-anchor=\"end\">Search</text>\n"
		  "<text id=\"details\" x=\"%d\" y=\"%u\"> </text>\n"
		  "<text id=\"matched\" x=\"%u\" y=\"%u\" text-anchor=\"end\"> </text>\n",
		  PAD, o.width - PAD, PAD, height - 10, o.width - PAD, height - 10);
	if (inv)
		spaa_sbuf_printf(&sb, "<text id=\"invert\" class=\"button\" x=\"%d\" y=\"%u\">"
				 "Inverted (callers)</text>\n", PAD, TOP + 4);
	spaa_sbuf_adds(&sb, "<g id=\"frames\">\n");
	if (frames_group(&sb, fg, &o, &l, usable, top, deepest, out, err))
		goto out;
	spaa_sbuf_adds(&sb, "</g>\n");
	if (inv) {
		spaa_sbuf_adds(&sb, "<g id=\"inverted\" display=\"none\">\n");
		if (frames_group(&sb, inv, &io, &il, usable, top, 0, out, err))
			goto out;
		spaa_sbuf_adds(&sb, "</g>\n");
	}
	spaa_sbuf_adds(&sb, script);
	spaa_sbuf_adds(&sb, "</svg>\n");
	if (spaa_svg_flush(&sb, out, err))
		goto out;
	ret = 0;
out:
	free(sb.s);
	free(what.s);
	free(note.s);
	layout_release(&l);
	layout_release(&il);
	return ret;
}

int spaa_flamegraph_write_profile(const struct spaa_profile *p,
				  const char *event, const char *metric_name,
				  const struct spaa_flamegraph_opts *opts,
				  struct spaa_output *out, struct spaa_error *err)
{
	struct spaa_flamegraph *fg = spaa_flamegraph_new();
	struct spaa_flamegraph_opts o = *opts;
	struct spaa_metrics_sem sem;
	uint32_t ev, metric;
	char what[1024];
	int ret = -1;

	if (spaa_weights_select(p, event, metric_name, &ev, &metric, err))
		goto out;
	spaa_metrics_semantics(p, ev, metric, spaa_metrics_unit(p, ev, metric), &sem);
	for (uint32_t i = 0; i < p->nrecords; i++) {
		const struct spaa_record *r = &p->records[i];
		const uint32_t *fr = spaa_profile_record_frames(p, r);
		uint64_t v;

		if (r->absorbed || r->event != ev ||
		    !spaa_profile_weights_get(p, r->weights, r->nweights, metric, &v) || !v)
			continue;
		spaa_flamegraph_begin(fg);
		for (uint32_t f = r->nframes; f-- > 0;) {
			const struct spaa_frame *frame = &p->frames[fr[f]];
			const struct spaa_function *fn = &p->functions[frame->fn];
			const struct spaa_dso *dso = &p->dsos[fn->dso];
			const char *name = spaa_profile_str(p, fn->name);

			spaa_flamegraph_push(fg, name, strlen(name), spaa_profile_str(p, dso->name),
					spaa_flamegraph_classify(spaa_profile_str(p, dso->name),
							    dso->is_kernel ||
							    frame->kind == SPAA_FRAME_KERNEL));
		}
		if (spaa_flamegraph_add(fg, v, 0, err))
			goto out;
	}
	spaa_weights_describe(what, sizeof(what), spaa_profile_str(p, p->events[ev].name),
			      metric == p->events[ev].primary_metric,
			      spaa_profile_str(p, metric));
	o.what = what;
	o.sem = &sem;
	ret = spaa_flamegraph_write(fg, &o, out, err);
out:
	spaa_flamegraph_free(fg);
	return ret;
}

int spaa_flamegraph_args_apply(const struct spaa_flamegraph_args *a,
			       struct spaa_flamegraph_opts *o,
			       struct spaa_error *err)
{
	o->title = a->title;
	o->width = SPAA_FLAMEGRAPH_WIDTH_DEFAULT;
	o->min_width = SPAA_FLAMEGRAPH_MIN_WIDTH_DEFAULT;
	if (a->width && (a->width < SPAA_FLAMEGRAPH_WIDTH_MIN ||
			 a->width > SPAA_FLAMEGRAPH_WIDTH_MAX))
		return spaa_error_set(err, SPAA_E_USAGE,
				      "'--svg-width' must be from 100 to 100000 pixels");
	if (a->width)
		o->width = (unsigned)a->width;
	if (a->min_width && spaa_units_parse_decimal(a->min_width, &o->min_width))
		return spaa_error_set(err, SPAA_E_USAGE,
				      "'--svg-min-width' must be a non-negative number of pixels, not '%s'",
				      a->min_width);
	return 0;
}

int spaa_flamegraph_args_check(const char *path,
			       const struct spaa_flamegraph_args *a,
			       struct spaa_flamegraph_opts *o,
			       struct spaa_error *err)
{
	if (spaa_svg_path_check(path, spaa_flamegraph_args_given(a),
				"'--svg-title', '--svg-width' and '--svg-min-width'", err))
		return -1;
	return spaa_flamegraph_args_apply(a, o, err);
}

int spaa_flamegraph_write_file(const struct spaa_flamegraph *fg,
			       const struct spaa_flamegraph_opts *opts,
			       const char *path, struct spaa_error *err)
{
	struct spaa_output *out = NULL;

	if (spaa_output_open(&out, path, SPAA_INPUT_COMP_NONE, 0, err))
		return -1;
	if (spaa_flamegraph_write(fg, opts, out, err)) {
		spaa_output_abort(out);
		return -1;
	}
	return spaa_output_close(out, err);
}
