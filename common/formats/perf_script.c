#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/perf_script.h"
#include "model/util.h"

/*
 * A sample spans several lines and the caller's line buffer is reused, so
 * its strings are copied into an arena that is reset per sample; frames
 * keep offsets into it because it may move while it grows.
 */
#define NO_STR SIZE_MAX

struct frame_ref {
	bool has_ip, inlined;
	uint64_t ip;
	size_t sym, symoff, dso, srcline;       /* arena offsets or NO_STR */
};

struct token {
	size_t start, len;
};

struct spaa_perf_script {
	char *path;             /* owned */
	spaa_perf_script_fn fn;
	void *data;
	uint64_t nsamples;

	bool in_sample;
	struct spaa_perf_script_sample cur; /* its strings are set at delivery */
	size_t comm, event;     /* arena offsets */
	char *arena;
	size_t used, alloc;
	struct frame_ref *refs;
	size_t nrefs, refs_alloc;
	struct spaa_perf_script_frame *frames;
	size_t frames_alloc;
	struct token *toks;
	size_t toks_alloc;
	struct token bad_time;  /* of the line parse_sample_line refused */
};

static size_t keep(struct spaa_perf_script *ps, const char *s, size_t len)
{
	size_t off = ps->used;

	SPAA_ALLOC_GROW(ps->arena, ps->used + len + 1, ps->alloc);
	memcpy(ps->arena + off, s, len);
	ps->arena[off + len] = '\0';
	ps->used += len + 1;
	return off;
}

static const char *str(const struct spaa_perf_script *ps, size_t off)
{
	return off == NO_STR ? NULL : ps->arena + off;
}

struct spaa_perf_script *spaa_perf_script_new(const char *path, spaa_perf_script_fn fn,
				    void *data)
{
	struct spaa_perf_script *ps = spaa_xcalloc(1, sizeof(*ps));

	ps->path = spaa_xstrdup(path);
	ps->fn = fn;
	ps->data = data;
	return ps;
}

void spaa_perf_script_free(struct spaa_perf_script *ps)
{
	if (!ps)
		return;
	free(ps->path);
	free(ps->arena);
	free(ps->refs);
	free(ps->frames);
	free(ps->toks);
	free(ps);
}

uint64_t spaa_perf_script_nsamples(const struct spaa_perf_script *ps)
{
	return ps->nsamples;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool all_of(const char *s, size_t n, const char *set)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!strchr(set, s[i]) || !s[i])
			return false;
	return true;
}

#define DIGITS "0123456789"
#define HEX "0123456789abcdefABCDEF"

static bool parse_u64(const char *s, size_t n, unsigned base, uint64_t *out)
{
	uint64_t v = 0;

	if (!n || n > 20)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned d;

		if (s[i] >= '0' && s[i] <= '9')
			d = (unsigned)(s[i] - '0');
		else if (base == 16 && s[i] >= 'a' && s[i] <= 'f')
			d = (unsigned)(s[i] - 'a' + 10);
		else if (base == 16 && s[i] >= 'A' && s[i] <= 'F')
			d = (unsigned)(s[i] - 'A' + 10);
		else
			return false;
		if (v > (UINT64_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	*out = v;
	return true;
}

/* "562.214439:" -> ns, exactly; digits past the ninth are dropped. */
static bool parse_time(const char *s, size_t n, int64_t *out)
{
	const char *dot = memchr(s, '.', n);
	uint64_t sec, frac = 0;
	size_t nfrac;

	if (n < 4 || s[n - 1] != ':' || !dot || dot == s)
		return false;
	nfrac = (size_t)(s + n - 1 - (dot + 1));
	if (!nfrac || !all_of(dot + 1, nfrac, DIGITS) ||
	    !parse_u64(s, (size_t)(dot - s), 10, &sec) ||
	    sec > (uint64_t)INT64_MAX / 1000000000u - 1)
		return false;
	for (size_t i = 0; i < 9; i++)
		frac = frac * 10 + (i < nfrac ? (uint64_t)(dot[1 + i] - '0') : 0);
	*out = (int64_t)(sec * 1000000000u + frac);
	return true;
}

/*
 * A token perf wrote as a time that parse_time cannot take: a number
 * with a point before the colon (exponent, sign, past 2^63 ns).  Read as
 * anything else it would become the event's name; it is an error.
 */
static bool looks_like_time(const char *s, size_t n)
{
	return n > 2 && s[n - 1] == ':' && memchr(s, '.', n - 1) &&
	       strchr(DIGITS "-+", s[0]) && all_of(s, n - 1, DIGITS ".eE+-");
}

/* "1234/5678" or "5678" */
static bool parse_pid_tid(const char *s, size_t n, int64_t *pid, int64_t *tid)
{
	const char *slash = memchr(s, '/', n);
	uint64_t a, b;

	if (!slash) {
		if (!parse_u64(s, n, 10, &b) || b > INT64_MAX)
			return false;
		*pid = SPAA_PERF_SCRIPT_NO_ID;
		*tid = (int64_t)b;
		return true;
	}
	if (!parse_u64(s, (size_t)(slash - s), 10, &a) ||
	    !parse_u64(slash + 1, (size_t)(s + n - slash - 1), 10, &b) ||
	    a > INT64_MAX || b > INT64_MAX)
		return false;
	*pid = (int64_t)a;
	*tid = (int64_t)b;
	return true;
}

/* "[003]" */
static bool parse_cpu(const char *s, size_t n, int64_t *cpu)
{
	uint64_t c;

	if (n < 3 || s[0] != '[' || s[n - 1] != ']' ||
	    !parse_u64(s + 1, n - 2, 10, &c) || c > INT32_MAX)
		return false;
	*cpu = (int64_t)c;
	return true;
}

static void trim(const char **s, size_t *n)
{
	while (*n && is_blank(**s)) {
		(*s)++;
		(*n)--;
	}
	while (*n && (is_blank((*s)[*n - 1]) || (*s)[*n - 1] == '\r'))
		(*n)--;
}

/*
 * "IP SYM[+OFF] [(DSO)]" -> a frame.  The DSO is the last parenthesised
 * group (matched from the end, since demangled names hold parentheses).
 * Returns false when s is not shaped like a frame.
 */
static bool parse_frame(struct spaa_perf_script *ps, const char *s, size_t n)
{
	struct frame_ref f = { .sym = NO_STR, .symoff = NO_STR, .dso = NO_STR,
			       .srcline = NO_STR };
	size_t iplen = 0, symlen;
	const char *sym;

	trim(&s, &n);
	while (iplen < n && !is_blank(s[iplen]))
		iplen++;
	if (!all_of(s, iplen, HEX) || !parse_u64(s, iplen, 16, &f.ip))
		return false;
	f.has_ip = true;
	sym = s + iplen;
	symlen = n - iplen;
	trim(&sym, &symlen);
	if (symlen && sym[symlen - 1] == ')') {
		size_t depth = 0, i = symlen;

		while (i-- > 0) {
			if (sym[i] == ')')
				depth++;
			else if (sym[i] == '(' && --depth == 0)
				break;
		}
		if (i == (size_t)-1)
			return false;
		f.dso = keep(ps, sym + i + 1, symlen - i - 2);
		f.inlined = !strcmp(str(ps, f.dso), "inlined");
		symlen = i;
		trim(&sym, &symlen);
	}
	if (!symlen) {
		sym = "[unknown]";
		symlen = 9;
	}
	/* SYM+0xOFF: the offset is split off, as perf report does */
	for (size_t i = symlen; i-- > 0;) {
		if (sym[i] != '+')
			continue;
		if (symlen - i > 3 && sym[i + 1] == '0' && sym[i + 2] == 'x' &&
		    all_of(sym + i + 3, symlen - i - 3, HEX) && i > 0) {
			f.symoff = keep(ps, sym + i + 1, symlen - i - 1);
			symlen = i;
		}
		break;
	}
	f.sym = keep(ps, sym, symlen);
	SPAA_ALLOC_GROW(ps->refs, ps->nrefs + 1, ps->refs_alloc);
	ps->refs[ps->nrefs++] = f;
	return true;
}

static size_t tokenize(struct spaa_perf_script *ps, const char *s, size_t n)
{
	size_t nt = 0, i = 0;

	while (i < n) {
		size_t start;

		while (i < n && is_blank(s[i]))
			i++;
		if (i == n)
			break;
		start = i;
		while (i < n && !is_blank(s[i]))
			i++;
		SPAA_ALLOC_GROW(ps->toks, nt + 1, ps->toks_alloc);
		ps->toks[nt++] = (struct token){ start, i - start };
	}
	return nt;
}

#define TOK(i) (s + ps->toks[i].start), ps->toks[i].len

static bool is_event_token(const char *s, size_t n)
{
	return n > 1 && s[n - 1] == ':';
}

/*
 * The sample line.  Returns 1 when it is one (its header fields go to
 * ps->cur and its strings to the arena), 0 when it is not, -1 when its
 * time is one perf could write but we cannot read (ps->bad_time is that
 * token).
 */
static int parse_sample_line(struct spaa_perf_script *ps, const char *s, size_t n)
{
	struct spaa_perf_script_sample *c = &ps->cur;
	size_t nt = tokenize(ps, s, n), t, r, comm_end = 0;
	int64_t ns;
	bool have_comm;
	long j;

	memset(c, 0, sizeof(*c));
	c->pid = c->tid = c->cpu = SPAA_PERF_SCRIPT_NO_ID;
	for (t = 0; t < nt; t++) {
		if (parse_time(TOK(t), &ns))
			break;
		if (looks_like_time(TOK(t))) {
			ps->bad_time = ps->toks[t];
			return -1;
		}
	}
	if (t < nt) {
		c->has_time = true;
		c->time = ns;
		r = t + 1;
		j = (long)t - 1;
		if (j >= 0 && parse_cpu(TOK(j), &c->cpu))
			j--;
		if (j >= 0 && parse_pid_tid(TOK(j), &c->pid, &c->tid))
			j--;
		have_comm = j >= 0;
		if (have_comm)
			comm_end = ps->toks[j].start + ps->toks[j].len;
	} else {
		/* no time: COMM? PID/TID [CPU] before the period and event */
		for (t = 0; t < nt; t++) {
			if (parse_pid_tid(TOK(t), &c->pid, &c->tid) && t + 1 < nt &&
			    (is_event_token(TOK(t + 1)) || all_of(TOK(t + 1), DIGITS) ||
			     ps->toks[t + 1].len > 2))
				break;
		}
		if (t == nt)
			return 0;
		have_comm = t > 0;
		if (have_comm)
			comm_end = ps->toks[t - 1].start + ps->toks[t - 1].len;
		r = t + 1;
		if (r < nt && parse_cpu(TOK(r), &c->cpu))
			r++;
	}
	if (r < nt && all_of(TOK(r), DIGITS) && r + 1 < nt &&
	    is_event_token(TOK(r + 1))) {
		if (!parse_u64(TOK(r), 10, &c->period))
			return 0;
		c->has_period = true;
		r++;
	}
	if (r >= nt || !is_event_token(TOK(r)))
		return 0;
	ps->used = 0;
	ps->nrefs = 0;
	ps->comm = have_comm ? keep(ps, s + ps->toks[0].start,
				    comm_end - ps->toks[0].start) : keep(ps, "", 0);
	ps->event = keep(ps, s + ps->toks[r].start, ps->toks[r].len - 1);
	/* the rest: one frame (no call graph), or tracepoint arguments */
	{
		size_t rest = ps->toks[r].start + ps->toks[r].len;

		parse_frame(ps, s + rest, n - rest);
	}
	return 1;
}

static int deliver(struct spaa_perf_script *ps, struct spaa_error *err)
{
	struct spaa_perf_script_sample *c = &ps->cur;

	if (!ps->in_sample)
		return 0;
	ps->in_sample = false;
	SPAA_ALLOC_GROW(ps->frames, ps->nrefs, ps->frames_alloc);
	for (size_t i = 0; i < ps->nrefs; i++) {
		const struct frame_ref *f = &ps->refs[i];

		ps->frames[i] = (struct spaa_perf_script_frame){
			.has_ip = f->has_ip, .ip = f->ip, .sym = str(ps, f->sym),
			.symoff = str(ps, f->symoff), .dso = str(ps, f->dso),
			.inlined = f->inlined, .srcline = str(ps, f->srcline),
		};
	}
	c->comm = str(ps, ps->comm);
	c->event = str(ps, ps->event);
	c->frames = ps->frames;
	c->nframes = (uint32_t)ps->nrefs;
	ps->nsamples++;
	return ps->fn ? ps->fn(ps->data, c, err) : 0;
}

int spaa_perf_script_line(struct spaa_perf_script *ps, const char *line, size_t len,
		     unsigned long lineno, struct spaa_error *err)
{
	const char *s = line;
	size_t n = len;

	trim(&s, &n);
	if (!n)
		return deliver(ps, err);
	if (s == line && *s == '#')
		return 0;
	if (s == line) {
		if (deliver(ps, err))
			return -1;
		switch (parse_sample_line(ps, line, len)) {
		case 0:
			return spaa_error_at(err, SPAA_E_PARSE, ps->path, lineno,
					     "not a perf script sample line (expected COMM PID/TID [CPU] TIME: PERIOD EVENT:)");
		case -1:
			return spaa_error_at(err, SPAA_E_PARSE, ps->path, lineno,
					     "cannot read the time '%.*s' (expected SECONDS.FRACTION, below 9223372035 s)",
					     (int)ps->bad_time.len - 1, line + ps->bad_time.start);
		}
		ps->cur.line = lineno;
		ps->in_sample = true;
		return 0;
	}
	if (!ps->in_sample)
		return spaa_error_at(err, SPAA_E_PARSE, ps->path, lineno,
				     "indented line outside a sample");
	if (parse_frame(ps, s, n))
		return 0;
	/* a srcline under the frame before it */
	if (ps->nrefs && ps->refs[ps->nrefs - 1].srcline == NO_STR) {
		static const char inl[] = " (inlined)";

		if (n > sizeof(inl) - 1 && !memcmp(s + n - (sizeof(inl) - 1), inl,
						   sizeof(inl) - 1))
			n -= sizeof(inl) - 1;
		ps->refs[ps->nrefs - 1].srcline = keep(ps, s, n);
	}
	return 0;
}

int spaa_perf_script_finish(struct spaa_perf_script *ps, struct spaa_error *err)
{
	return deliver(ps, err);
}

bool spaa_perf_script_sniff(const char *line, size_t len)
{
	struct spaa_perf_script *ps = spaa_perf_script_new("", NULL, NULL);
	/* a bad time is perf's: the parser then says what is wrong with it */
	bool ok = len && !is_blank(line[0]) && parse_sample_line(ps, line, len) != 0;

	spaa_perf_script_free(ps);
	return ok;
}

/* ---- into a SPAA writer -------------------------------------------------- */

struct perf_conv {
	struct spaa_writer *w;
	uint32_t *fbuf;
	size_t fbuf_alloc;
	char *last_event;       /* owned: cache of the last event's name */
	uint32_t last_ev;
	uint64_t dropped;       /* samples without any frame */
	const char *path;       /* weak */
	uint32_t max_depth;
};

/*
 * perf's event names: tracepoints "sys:name" are probes, the generic
 * hardware and software events by name, "cpu/.../" and raw "rNNN" are
 * hardware.  Modifiers (":ppp", ":u") are not part of the kind.
 */
static enum spaa_event_kind event_kind(const char *name)
{
	static const char *const sw[] = {
		"cpu-clock", "task-clock", "page-faults", "faults", "minor-faults",
		"major-faults", "context-switches", "cs", "cpu-migrations",
		"migrations", "alignment-faults", "emulation-faults", "dummy",
		"bpf-output", NULL,
	};
	size_t n = strcspn(name, ":");

	if (name[n] == ':' && n + 1 < strlen(name) &&
	    strspn(name + n + 1, "ukhIGHpPSDWe") != strlen(name + n + 1))
		return SPAA_EV_PROBE;   /* "sched:sched_switch", not "cycles:u" */
	for (const char *const *s = sw; *s; s++)
		if (strlen(*s) == n && !strncmp(name, *s, n))
			return SPAA_EV_SOFTWARE;
	return SPAA_EV_HARDWARE;
}

static int add_sample(void *data, const struct spaa_perf_script_sample *s,
		      struct spaa_error *err)
{
	struct perf_conv *pc = data;
	struct spaa_writer *w = pc->w;
	struct spaa_writer_sample ws = {
		.pid = s->pid == SPAA_PERF_SCRIPT_NO_ID ? SPAA_NO_ID : s->pid,
		.tid = s->tid == SPAA_PERF_SCRIPT_NO_ID ? SPAA_NO_ID : s->tid,
		.cpu = s->cpu == SPAA_PERF_SCRIPT_NO_ID ? SPAA_NO_ID : s->cpu,
		.comm = s->comm, .has_time = s->has_time, .time = s->time,
		.count = 1, .has_period = s->has_period, .period = s->period,
	};

	if (!s->nframes) {
		pc->dropped++;
		return 0;
	}
	if (s->nframes > pc->max_depth)
		return spaa_error_at(err, SPAA_E_LIMIT, pc->path, s->line,
				     "a sample has %u frames, more than the limit of %u (SPAA_MAX_DEPTH)",
				     s->nframes, pc->max_depth);
	if (!pc->last_event || strcmp(pc->last_event, s->event)) {
		free(pc->last_event);
		pc->last_event = spaa_xstrdup(s->event);
		pc->last_ev = spaa_writer_add_event(w, s->event, event_kind(s->event));
	}
	ws.event = pc->last_ev;
	SPAA_ALLOC_GROW(pc->fbuf, s->nframes, pc->fbuf_alloc);
	for (uint32_t i = 0; i < s->nframes; i++) {
		const struct spaa_perf_script_frame *f = &s->frames[i];
		struct spaa_writer_frame wf = {
			.func = f->sym, .has_ip = f->has_ip, .ip = f->ip,
			.symoff = f->symoff, .srcline = f->srcline,
			.func_resolved = true, .inline_depth = -1,
		};
		const char *dso = f->dso;
		char hex[24];
		uint32_t phys = i;

		/*
		 * Inlined frames (perf's "(inlined)" DSO) share the address of
		 * the physical frame after them, toward the root; they take its
		 * DSO and an inline depth counted from it.  When every frame at
		 * the address is marked inlined, the last is the function that
		 * holds the code, so it is the physical one.
		 */
		if (f->inlined) {
			while (phys + 1 < s->nframes && s->frames[phys].inlined &&
			       s->frames[phys + 1].has_ip == f->has_ip &&
			       s->frames[phys + 1].ip == f->ip)
				phys++;
			wf.inline_depth = (int)(phys - i);
			wf.inlined = wf.inline_depth > 0;
			dso = NULL;
			for (uint32_t j = phys; j < s->nframes && !dso; j++)
				if (!s->frames[j].inlined)
					dso = s->frames[j].dso;
		} else if (i > 0 && s->frames[i - 1].inlined && f->has_ip &&
			   s->frames[i - 1].ip == f->ip) {
			wf.inline_depth = 0;
		}
		if (!dso)
			dso = "[unknown]";
		if (!strcmp(f->sym, "[unknown]") && f->has_ip) {
			/* as perf report shows it: the raw address */
			snprintf(hex, sizeof(hex), "0x%" PRIx64, f->ip);
			wf.func = hex;
			wf.func_resolved = false;
		} else if (!strncmp(f->sym, "0x", 2)) {
			wf.func_resolved = false;
		}
		wf.kind = spaa_profile_kernel_dso(dso) || (f->has_ip && f->ip >= 0xffff800000000000ULL) ?
			  SPAA_FRAME_KERNEL : SPAA_FRAME_USER;
		wf.dso = spaa_writer_add_dso(w, dso, spaa_profile_kernel_dso(dso));
		pc->fbuf[i] = spaa_writer_add_frame(w, &wf);
	}
	return spaa_writer_add_sample(w, &ws, pc->fbuf, s->nframes, err);
}

int spaa_perf_script_convert(struct spaa_input *in, struct spaa_writer *w,
			     uint32_t max_depth, const struct spaa_warn_sink *warn,
			     struct spaa_error *err)
{
	struct perf_conv pc = {
		.w = w, .path = spaa_input_name(in), .max_depth = max_depth,
	};
	struct spaa_perf_script *ps = spaa_perf_script_new(spaa_input_name(in),
							   add_sample, &pc);
	char *line;
	size_t len;
	int got, ret = -1;

	while ((got = spaa_input_getline(in, &line, &len, err)) > 0)
		if (spaa_perf_script_line(ps, line, len, spaa_input_lineno(in), err))
			goto out;
	if (got < 0 || spaa_perf_script_finish(ps, err))
		goto out;
	if (!spaa_perf_script_nsamples(ps)) {
		spaa_error_at(err, SPAA_E_NO_DATA, spaa_input_name(in), 0,
			      "no perf samples in the input");
		goto out;
	}
	if (pc.dropped == spaa_perf_script_nsamples(ps)) {
		/* a SPAA file needs an event with a stack: there is nothing to write */
		spaa_error_at(err, SPAA_E_NO_DATA, spaa_input_name(in), 0,
			      "none of the %" PRIu64 " perf samples has a frame (record with -g, or keep ip,sym in perf script -F)",
			      pc.dropped);
		goto out;
	}
	if (pc.dropped)
		spaa_warn(warn, spaa_input_name(in), 0,
			  "%" PRIu64 " of %" PRIu64 " samples had no frame and were left out",
			  pc.dropped, spaa_perf_script_nsamples(ps));
	ret = 0;
out:
	spaa_perf_script_free(ps);
	free(pc.fbuf);
	free(pc.last_event);
	return ret;
}
