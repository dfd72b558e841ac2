#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "formats/folded.h"
#include "model/sbuf.h"
#include "model/util.h"

void spaa_folded_parser_init(struct spaa_folded_parser *fp)
{
	memset(fp, 0, sizeof(*fp));
}

void spaa_folded_parser_release(struct spaa_folded_parser *fp)
{
	free(fp->frames);
	memset(fp, 0, sizeof(*fp));
}

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

int spaa_folded_parse(struct spaa_folded_parser *fp, const char *line, size_t len,
		 const char *file, unsigned long lineno, uint32_t *nframes,
		 uint64_t *count, struct spaa_error *err)
{
	static const struct { const char *s; enum spaa_folded_annot a; } annots[] = {
		{ "_[k]", SPAA_FOLDED_KERNEL }, { "_[i]", SPAA_FOLDED_INLINED },
		{ "_[j]", SPAA_FOLDED_JIT },
	};
	size_t end = len, cstart, start = 0;
	uint32_t n = 0;
	uint64_t c = 0;

	while (end && blank(line[end - 1]))
		end--;
	while (start < end && blank(line[start]))
		start++;
	if (start == end || line[start] == '#')
		return 0;
	cstart = end;
	while (cstart > start && !blank(line[cstart - 1]))
		cstart--;
	if (cstart == start)
		return spaa_error_at(err, SPAA_E_PARSE, file, lineno,
				     "folded line has no count (expected 'a;b;c COUNT')");
	for (size_t i = cstart; i < end; i++) {
		unsigned d = (unsigned)(line[i] - '0');

		if (line[i] < '0' || line[i] > '9' || c > (UINT64_MAX - d) / 10)
			return spaa_error_at(err, SPAA_E_PARSE, file, lineno,
					     "folded count '%.*s' is not a non-negative integer below 2^64",
					     (int)(end - cstart > 40 ? 40 : end - cstart),
					     line + cstart);
		c = c * 10 + d;
	}
	end = cstart;
	while (end > start && blank(line[end - 1]))
		end--;
	for (size_t i = start; i <= end; i++) {
		size_t flen;

		if (i < end && line[i] != ';')
			continue;
		flen = i - start;
		if (!flen)
			return spaa_error_at(err, SPAA_E_PARSE, file, lineno,
					     "folded line has an empty frame name (frame %u)",
					     n + 1);
		SPAA_ALLOC_GROW(fp->frames, (size_t)n + 1, fp->alloc);
		fp->frames[n] = (struct spaa_folded_frame){ line + start, flen, SPAA_FOLDED_PLAIN };
		for (size_t a = 0; a < sizeof(annots) / sizeof(annots[0]); a++) {
			if (flen > 4 && !memcmp(line + i - 4, annots[a].s, 4)) {
				fp->frames[n].len -= 4;
				fp->frames[n].annot = annots[a].a;
			}
		}
		n++;
		start = i + 1;
	}
	*nframes = n;
	*count = c;
	return 1;
}

void spaa_folded_table_init(struct spaa_folded_table *t)
{
	memset(t, 0, sizeof(*t));
	spaa_strtab_init(&t->paths);
}

void spaa_folded_table_release(struct spaa_folded_table *t)
{
	spaa_strtab_release(&t->paths);
	free(t->values);
	free(t->buf);
	memset(t, 0, sizeof(*t));
}

void spaa_folded_table_begin(struct spaa_folded_table *t)
{
	t->len = 0;
}

#define UNKNOWN_NAME "[unknown]"

void spaa_folded_table_push(struct spaa_folded_table *t, const char *name, size_t len)
{
	bool changed = false;

	if (!len) {
		name = UNKNOWN_NAME;
		len = strlen(UNKNOWN_NAME);
		t->empty++;
	}
	SPAA_ALLOC_GROW(t->buf, t->len + len + 1, t->buf_alloc);
	if (t->len)
		t->buf[t->len++] = ';';
	for (size_t i = 0; i < len; i++) {
		char c = name[i];
		bool control = ((unsigned char)c < 0x20 && c != '\t') || c == 0x7f;

		changed |= c == ';' || control;
		t->buf[t->len++] = c == ';' ? ':' : control ? ' ' : c;
	}
	t->changed += changed;
}

int spaa_folded_table_add(struct spaa_folded_table *t, uint64_t value,
		     struct spaa_error *err)
{
	uint32_t i = spaa_strtab_intern(&t->paths, t->buf ? t->buf : "", t->len);
	uint64_t sum;

	SPAA_ALLOC_GROW(t->values, (size_t)i + 1, t->alloc);
	while (t->nvalues <= i)
		t->values[t->nvalues++] = 0;
	/* through a temporary: the sum is left unchanged on overflow */
	if (spaa_add_u64(t->values[i], value, &sum))
		return spaa_error_set(err, SPAA_E_LIMIT, "a folded stack's value overflows 64 bits");
	t->values[i] = sum;
	return 0;
}

/* qsort has no context argument; set just before the call */
static const struct spaa_strtab *sort_tab;

static int by_path(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint32_t lx = spaa_strtab_len(sort_tab, x), ly = spaa_strtab_len(sort_tab, y);
	int c = memcmp(spaa_strtab_get(sort_tab, x), spaa_strtab_get(sort_tab, y),
		       lx < ly ? lx : ly);

	return c ? c : (lx > ly) - (lx < ly);
}

int spaa_folded_table_write(const struct spaa_folded_table *t, struct spaa_output *out,
			    const struct spaa_warn_sink *warn, const char *file,
			    struct spaa_error *err)
{
	uint32_t n = 0, *order = spaa_xmalloc(((size_t)t->paths.nr + 1) * sizeof(*order));
	int ret = -1;

	/* index 0 is the strtab's empty string: a real path is never empty */
	for (uint32_t i = 1; i < t->paths.nr; i++)
		order[n++] = i;
	sort_tab = &t->paths;
	qsort(order, n, sizeof(*order), by_path);
	for (uint32_t k = 0; k < n; k++) {
		uint32_t i = order[k];

		if (spaa_output_write(out, spaa_strtab_get(&t->paths, i),
				      spaa_strtab_len(&t->paths, i), err) ||
		    spaa_output_printf(out, err, " %llu\n",
				       (unsigned long long)t->values[i]))
			goto out;
	}
	if (t->changed)
		spaa_warn(warn, file, 0, "%" PRIu64 " frame names changed in folded output, which cannot hold them: ';' written as ':', line breaks and other control characters as ' '",
			  t->changed);
	if (t->empty)
		spaa_warn(warn, file, 0, "%" PRIu64 " frames without a name written as '" UNKNOWN_NAME "' in folded output",
			  t->empty);
	ret = 0;
out:
	free(order);
	return ret;
}

/* ---- into a SPAA writer, out of a profile ------------------------------- */

int spaa_folded_convert(struct spaa_input *in, struct spaa_writer *w,
			uint32_t max_depth, struct spaa_error *err)
{
	struct spaa_folded_parser fp;
	uint32_t *fbuf = NULL, ev, dso_user, dso_kernel;
	size_t fbuf_alloc = 0;
	char *line, *name = NULL;
	size_t len, name_alloc = 0;
	uint64_t lines = 0;
	int got, ret = -1;

	spaa_folded_parser_init(&fp);
	ev = spaa_writer_add_event(w, "folded", SPAA_EV_SOFTWARE);
	dso_user = spaa_writer_add_dso(w, "[unknown]", false);
	dso_kernel = spaa_writer_add_dso(w, "[kernel.kallsyms]", true);
	while ((got = spaa_input_getline(in, &line, &len, err)) > 0) {
		struct spaa_writer_sample ws = {
			.event = ev, .pid = SPAA_NO_ID, .tid = SPAA_NO_ID,
			.cpu = SPAA_NO_ID,
		};
		uint32_t n;
		int r = spaa_folded_parse(&fp, line, len, spaa_input_name(in),
				     spaa_input_lineno(in), &n, &ws.count, err);

		if (r < 0)
			goto out;
		/* a blank line or comment: the blank lines after it at once */
		if (!r)
			spaa_input_skip_blank(in);
		if (!r || !ws.count)
			continue;
		if (n > max_depth) {
			spaa_error_at(err, SPAA_E_LIMIT, spaa_input_name(in),
				      spaa_input_lineno(in),
				      "a stack has %u frames, more than the limit of %u (SPAA_MAX_DEPTH)",
				      n, max_depth);
			goto out;
		}
		SPAA_ALLOC_GROW(fbuf, n, fbuf_alloc);
		for (uint32_t i = 0; i < n; i++) {
			const struct spaa_folded_frame *f = &fp.frames[n - 1 - i];
			struct spaa_writer_frame wf = {
				.func_resolved = true, .inline_depth = -1,
				.kind = f->annot == SPAA_FOLDED_KERNEL ? SPAA_FRAME_KERNEL :
					SPAA_FRAME_USER,
				.dso = f->annot == SPAA_FOLDED_KERNEL ? dso_kernel : dso_user,
				.inlined = f->annot == SPAA_FOLDED_INLINED,
			};

			SPAA_ALLOC_GROW(name, f->len + 1, name_alloc);
			memcpy(name, f->name, f->len);
			name[f->len] = '\0';
			wf.func = name;
			fbuf[i] = spaa_writer_add_frame(w, &wf);
		}
		if (spaa_writer_add_sample(w, &ws, fbuf, n, err))
			goto out;
		lines++;
	}
	if (got < 0)
		goto out;
	if (!lines) {
		spaa_error_at(err, SPAA_E_NO_DATA, spaa_input_name(in), 0,
			      "no folded stacks in the input: only blank lines, '#' comments and stacks of count 0");
		goto out;
	}
	ret = 0;
out:
	spaa_folded_parser_release(&fp);
	free(fbuf);
	free(name);
	return ret;
}

/* Folded stacks hold one event: the others' stack records, by name. */
static void note_other_events(const struct spaa_profile *p, uint32_t ev,
			      const struct spaa_warn_sink *warn)
{
	uint64_t *n = spaa_xcalloc((size_t)p->nevents + 1, sizeof(*n)), records = 0;
	struct spaa_sbuf names = { 0 };

	for (uint32_t i = 0; i < p->nrecords; i++)
		if (!p->records[i].absorbed && p->records[i].event != ev)
			n[p->records[i].event]++;
	for (uint32_t e = 0; e < p->nevents; e++) {
		if (!n[e])
			continue;
		records += n[e];
		spaa_sbuf_printf(&names, "%s'%s'", names.len ? ", " : "",
				 spaa_profile_str(p, p->events[e].name));
	}
	if (records)
		spaa_warn(warn, p->nfiles ? spaa_profile_str(p, p->files[0].path) : "-", 0,
			  "folded output holds one event, '%s': left out %" PRIu64 " stack records of %s (pick another with --event NAME)",
			  spaa_profile_str(p, p->events[ev].name), records, names.s);
	free(names.s);
	free(n);
}

/* "'a', 'b'": the events of p, for an --event it does not have. */
static void event_names(const struct spaa_profile *p, struct spaa_sbuf *names)
{
	for (uint32_t e = 0; e < p->nevents; e++)
		spaa_sbuf_printf(names, "%s'%s'", e ? ", " : "",
				 spaa_profile_str(p, p->events[e].name));
}

/* The metrics the stack records of event ev weigh, each once (16 at most). */
static void metric_names(const struct spaa_profile *p, uint32_t ev, struct spaa_sbuf *names)
{
	uint32_t seen[16], n = 0;

	for (uint32_t i = 0; i < p->nrecords && n < 16; i++) {
		const struct spaa_record *r = &p->records[i];

		for (uint32_t w = 0; w < r->nweights && r->event == ev && n < 16; w++) {
			uint32_t m = p->weight_pool[r->weights + w].metric, k = 0;

			while (k < n && seen[k] != m)
				k++;
			if (k < n)
				continue;
			seen[n++] = m;
			spaa_sbuf_printf(names, "%s'%s'", names->len ? ", " : "",
					 spaa_profile_str(p, m));
		}
	}
}

int spaa_folded_write_profile(const struct spaa_profile *p, const char *event,
			       const char *metric_name, struct spaa_output *out,
			       const struct spaa_warn_sink *warn, struct spaa_error *err)
{
	struct spaa_folded_table t;
	struct spaa_sbuf names = { 0 };
	uint32_t ev = 0, metric;
	bool any = false;
	int ret = -1;

	spaa_folded_table_init(&t);
	if (event && (ev = spaa_profile_find_event(p, event)) == SPAA_NONE) {
		event_names(p, &names);
		spaa_error_set(err, SPAA_E_USAGE, "no event '%s' in the input (it has %s)", event,
			       names.len ? names.s : "none");
		goto out;
	}
	if (!p->nevents)
		goto done;
	metric = p->events[ev].primary_metric;
	if (metric_name && (metric = spaa_strtab_find(&p->strings, metric_name,
						    strlen(metric_name))) == SPAA_NONE)
		metric = 0;     /* named nowhere: no record has it */
	for (uint32_t i = 0; i < p->nrecords; i++) {
		const struct spaa_record *r = &p->records[i];
		const uint32_t *fr = spaa_profile_record_frames(p, r);
		uint64_t v;

		if (r->absorbed || r->event != ev || !metric ||
		    !spaa_profile_weights_get(p, r->weights, r->nweights, metric, &v))
			continue;
		any = true;
		if (!v)
			continue;       /* a 0 line says nothing to a flame graph */
		spaa_folded_table_begin(&t);
		for (uint32_t f = r->nframes; f-- > 0;) {
			const char *name = spaa_profile_str(p, p->functions[p->frames[fr[f]].fn].name);

			spaa_folded_table_push(&t, name, strlen(name));
		}
		if (spaa_folded_table_add(&t, v, err))
			goto out;
	}
	if (metric_name && !any) {
		metric_names(p, ev, &names);
		spaa_error_set(err, SPAA_E_USAGE, "no stack record of event '%s' has a weight '%s' (they have %s)",
			       spaa_profile_str(p, p->events[ev].name), metric_name,
			       names.len ? names.s : "none");
		goto out;
	}
done:
	ret = spaa_folded_table_write(&t, out, warn, p->nfiles ? spaa_profile_str(p, p->files[0].path) : "-", err);
	if (!ret)
		note_other_events(p, ev, warn);
out:
	spaa_folded_table_release(&t);
	free(names.s);
	return ret;
}
