/*
 * gen.c - deterministic generator of a realistic SPAA CPU profile for the
 * benchmark (make bench).  Not part of make check.
 *
 * usage: gen [-s SEED] [-k STACKS] [-m] SAMPLES > FILE.spaa
 *
 * STACKS defaults to min(50000, SAMPLES / 30); -k keeps the stacks of a
 * smaller profile when SAMPLES grows (the memory growth check).
 *
 * The profile looks like `perf record -F 999 -a` of a 16-thread program on
 * 2 CPUs converted by spaa-convert: ~5000 frames over 20 DSOs (one of them
 * the kernel), up to 50 000 unique stacks of depth 3-30 sharing their root
 * side as call trees do, each on one of 16 threads, then SAMPLES
 * time-stamped sample records, each on the thread of its stack.  A stack's
 * samples and period weights are exactly the sums over the samples that
 * reference it, its exclusive weight is on its leaf, and the header's
 * time_range covers the samples.  Which stacks are hot drifts over four
 * phases, so spaa-phases has something to find.
 *
 * -m (mixed): a second event, "cycles" (every fourth sample), so stack
 * records come per stack and event; a window record after every
 * WINDOW samples (the first 8 stacks sampled in it, with their counts);
 * every fifth sample record with its keys in another order, and one in
 * a hundred with an escape in its event name (which the reader's fast
 * path leaves to the JSON parser); every fifth stack record with its
 * keys sorted and a stack_type, as the SPAA reference converters write
 * them, and one in a hundred with an escape in its comm: the fast paths
 * measured on more than one shape.
 *
 * Two passes over the same random sequence (the stacks' totals first, then
 * the sample records) keep memory independent of SAMPLES.  The same seed
 * and SAMPLES always give the same bytes.
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_DSOS 20
#define N_FRAMES 5000
#define N_THREADS 16
#define N_CPUS 2
#define MAX_STACKS 50000
#define MIN_DEPTH 3
#define MAX_DEPTH 30
#define FANOUT 6
#define N_PHASES 4
#define PID 41000
#define START_NS 1000000000000ull /* 1000 s */
#define HZ 999
#define WINDOW 20000
#define WINDOW_STACKS 8

static const char *const ev_names[2] = { "cpu-clock:ppp", "cycles" };

/* splitmix64: small, fast, deterministic everywhere. */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t rng_below(uint64_t *s, uint32_t n)
{
	return (uint32_t)(rng_next(s) % n);
}

static double rng_unit(uint64_t *s)
{
	return (double)(rng_next(s) >> 11) / 9007199254740992.0;
}

static uint64_t fnv1a(const void *p, size_t n, uint64_t h)
{
	const unsigned char *b = p;
	while (n--) {
		h ^= *b++;
		h *= 0x100000001b3ull;
	}
	return h;
}

struct stack {
	uint16_t depth;
	uint8_t thread;
	uint16_t frames[MAX_DEPTH]; /* leaf first */
	uint64_t id;
	uint64_t samples, period;
	uint64_t ev_samples[2], ev_period[2];   /* -m: per event */
};

static const char *const dso_names[N_DSOS] = {
	"[kernel.kallsyms]", "/usr/bin/benchd", "/usr/lib/x86_64-linux-gnu/libc.so.6",
	"/usr/lib/x86_64-linux-gnu/libm.so.6", "/usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30",
	"/usr/lib/x86_64-linux-gnu/libz.so.1.2.13", "/usr/lib/x86_64-linux-gnu/libzstd.so.1.5.4",
	"/usr/lib/x86_64-linux-gnu/libssl.so.3", "/usr/lib/x86_64-linux-gnu/libcrypto.so.3",
	"/usr/lib/x86_64-linux-gnu/libsqlite3.so.0.8.6", "/usr/lib/x86_64-linux-gnu/libcjson.so.1.7.15",
	"/usr/lib/x86_64-linux-gnu/libpthread.so.0", "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
	"/usr/lib/x86_64-linux-gnu/libgcc_s.so.1", "/usr/lib/x86_64-linux-gnu/libpcre2-8.so.0.11.2",
	"/usr/lib/x86_64-linux-gnu/liblzma.so.5.4.1", "/usr/lib/x86_64-linux-gnu/libcurl.so.4.8.0",
	"/usr/lib/x86_64-linux-gnu/libxml2.so.2.9.14", "/opt/bench/lib/libplugin.so", "[unknown]",
};

static const char *const stems[] = {
	"parse", "hash", "lookup", "insert", "compress", "decode", "encode", "read",
	"write", "flush", "sort", "merge", "scan", "match", "alloc", "free",
	"copy", "update", "render", "emit", "handle", "dispatch", "poll", "wait",
	"commit", "verify", "digest", "resolve", "load", "store",
};
static const char *const nouns[] = {
	"request", "buffer", "table", "node", "entry", "block", "page", "record",
	"frame", "token", "header", "chunk", "index", "cache", "queue", "event",
};

static struct stack *stacks;
static uint32_t n_stacks;
static uint32_t callee[N_FRAMES][FANOUT];
static uint32_t *rank_to_stack; /* a permutation: popularity rank -> stack */
static double *zipf_cdf;

/* frame ids are 1..N_FRAMES; frame f (0-based) lives in dso dso_of(f). */
static unsigned dso_of(uint32_t f)
{
	if (f < 600)
		return 0; /* kernel */
	if (f < 2600)
		return 1; /* the program */
	return 2 + (f - 2600) % (N_DSOS - 2);
}

static void make_frames(uint64_t *rng)
{
	/* user frames call user frames of higher index (towards the leaf),
	 * and now and then the kernel (a syscall, a page fault). */
	for (uint32_t f = 0; f < N_FRAMES; f++)
		for (int k = 0; k < FANOUT; k++) {
			if (f < 600) { /* kernel calls kernel */
				uint32_t c = f + 1 + rng_below(rng, 40);
				callee[f][k] = c < 600 ? c : 60 + rng_below(rng, 540);
			}
			else if (k == 0)
				callee[f][k] = rng_below(rng, 60); /* syscall entry */
			else
				callee[f][k] = 600 + (f - 600 + 1 + rng_below(rng, 300)) %
					(N_FRAMES - 600);
		}
}

static int stack_cmp_frames(const struct stack *a, const struct stack *b)
{
	return a->depth == b->depth &&
	       !memcmp(a->frames, b->frames, a->depth * sizeof a->frames[0]);
}

static void make_stacks(uint64_t *rng, uint32_t want)
{
	size_t cap = 1;
	while (cap < 4 * (size_t)want)
		cap <<= 1;
	uint32_t *set = calloc(cap, sizeof *set); /* index + 1, 0 = empty */
	stacks = calloc(want, sizeof *stacks);
	if (!set || !stacks) {
		perror("gen");
		exit(1);
	}
	uint32_t roots[4] = {600, 601, 602, 603}; /* _start, start_thread, ... */
	while (n_stacks < want) {
		struct stack *s = &stacks[n_stacks];
		uint16_t path[MAX_DEPTH];
		/* depth: 3..30, most between 8 and 20 */
		int d = MIN_DEPTH + (int)((rng_below(rng, 28) + rng_below(rng, 28)) / 2);
		if (d > MAX_DEPTH)
			d = MAX_DEPTH;
		uint32_t f = roots[rng_below(rng, 4)];
		path[0] = (uint16_t)f;
		for (int i = 1; i < d; i++) {
			/* the early levels are few (main loops), deeper ones fan out */
			int k = i < 4 ? 1 + (int)rng_below(rng, 2) :
				(int)rng_below(rng, FANOUT);
			if (f >= 600 && k == 0 && i < d - 3)
				k = 1; /* into the kernel only near the leaf */
			f = callee[f][k];
			path[i] = (uint16_t)f;
		}
		s->depth = (uint16_t)d;
		for (int i = 0; i < d; i++)
			s->frames[i] = path[d - 1 - i];
		uint64_t h = fnv1a(s->frames, d * sizeof s->frames[0],
				   0xcbf29ce484222325ull);
		size_t j = h & (cap - 1);
		int dup = 0;
		while (set[j]) {
			if (stack_cmp_frames(&stacks[set[j] - 1], s)) {
				dup = 1;
				break;
			}
			j = (j + 1) & (cap - 1);
		}
		if (dup)
			continue;
		set[j] = n_stacks + 1;
		s->thread = (uint8_t)rng_below(rng, N_THREADS);
		s->id = fnv1a(&s->thread, 1, h);
		n_stacks++;
	}
	free(set);
}

static void make_popularity(uint64_t *rng)
{
	rank_to_stack = malloc(n_stacks * sizeof *rank_to_stack);
	zipf_cdf = malloc(n_stacks * sizeof *zipf_cdf);
	if (!rank_to_stack || !zipf_cdf) {
		perror("gen");
		exit(1);
	}
	for (uint32_t i = 0; i < n_stacks; i++)
		rank_to_stack[i] = i;
	for (uint32_t i = n_stacks - 1; i > 0; i--) {
		uint32_t j = rng_below(rng, i + 1), t = rank_to_stack[i];
		rank_to_stack[i] = rank_to_stack[j];
		rank_to_stack[j] = t;
	}
	double sum = 0;
	for (uint32_t i = 0; i < n_stacks; i++)
		zipf_cdf[i] = sum += 1.0 / pow(i + 1.0, 1.05);
	for (uint32_t i = 0; i < n_stacks; i++)
		zipf_cdf[i] /= sum;
}

struct sample {
	uint64_t ns;
	uint32_t stack;
	uint32_t period;
	unsigned cpu;
};

/* The i-th sample of n, advancing *rng and *ns. */
static struct sample next_sample(uint64_t *rng, uint64_t *ns, uint64_t i,
				 uint64_t n)
{
	struct sample s;
	uint32_t r;
	if (rng_below(rng, 100) < 30) { /* background: every stack is seen */
		r = rng_below(rng, n_stacks);
	} else { /* a Zipf-popular stack; the hot set moves per phase */
		double u = rng_unit(rng);
		uint32_t lo = 0, hi = n_stacks - 1;
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;
			if (zipf_cdf[mid] < u)
				lo = mid + 1;
			else
				hi = mid;
		}
		unsigned phase = (unsigned)(i * N_PHASES / n);
		r = (lo + phase * (n_stacks / N_PHASES + 7)) % n_stacks;
	}
	s.stack = rank_to_stack[r];
	s.cpu = (unsigned)(i % N_CPUS);
	/* two CPUs at 999 Hz: a sample every ~500 us, with jitter */
	*ns += 1000000000ull / HZ / N_CPUS - 20000 + rng_below(rng, 40001);
	s.ns = *ns;
	s.period = 1001001 - 500 + rng_below(rng, 1001);
	return s;
}

/* -m: the event of the i-th sample. */
static unsigned event_of(int mixed, uint64_t i)
{
	return mixed && i % 4 == 3;
}

/* The sample record of s (the i-th), in the common shape or (-m) others. */
/* The i-th stack record: stack s of event e, with its weights. */
static void print_stack(int mixed, uint32_t i, const struct stack *s, unsigned e,
			uint64_t samples, uint64_t period)
{
	char frames[1024], ctx[128], weights[192], excl[128];
	const char *comm = s->thread == 0 ? "benchd" : "benchd-w";
	int n = 0;

	if (mixed && i % 100 == 7)
		comm = s->thread == 0 ? "bench\\u0064" : "benchd\\u002dw";
	for (unsigned k = 0; k < s->depth; k++)
		n += snprintf(frames + n, sizeof(frames) - (size_t)n, "%s%u", k ? "," : "",
			      s->frames[k] + 1u);
	snprintf(ctx, sizeof(ctx), "{\"event\":\"%s\",\"pid\":%d,\"tid\":%u,\"comm\":\"%s%u\"}",
		 ev_names[e], PID, PID + s->thread, comm, (unsigned)s->thread);
	snprintf(weights, sizeof(weights), "[{\"metric\":\"samples\",\"value\":%" PRIu64 "},"
		 "{\"metric\":\"period\",\"value\":%" PRIu64 ",\"unit\":\"events\"}]",
		 samples, period);
	snprintf(excl, sizeof(excl), "{\"frame\":%u,\"weights\":[{\"metric\":\"period\","
		 "\"value\":%" PRIu64 ",\"unit\":\"events\"}]}", s->frames[0] + 1u, period);
	if (mixed && i % 5 == 2)
		printf("{\"context\":%s,\"exclusive\":%s,\"frames\":[%s],\"id\":\"0x%016" PRIx64
		       "\",\"stack_type\":\"unified\",\"type\":\"stack\",\"weights\":%s}\n",
		       ctx, excl, frames, s->id, weights);
	else
		printf("{\"type\":\"stack\",\"id\":\"0x%016" PRIx64 "\",\"frames\":[%s],"
		       "\"context\":%s,\"weights\":%s,\"exclusive\":%s}\n",
		       s->id, frames, ctx, weights, excl);
}

static void print_sample(int mixed, uint64_t i, const struct sample *s)
{
	const struct stack *st = &stacks[s->stack];
	unsigned ev = event_of(mixed, i);
	const char *evname = mixed && i % 100 == 6 ? "cpu\\u002dclock:ppp" : ev_names[ev];

	if (ev)
		evname = ev_names[1];
	if (mixed && i % 5 == 1) {
		printf("{\"stack_id\":\"0x%016" PRIx64 "\",\"event\":\"%s\",\"period\":%u,"
		       "\"cpu\":%u,\"tid\":%u,\"pid\":%d,\"timestamp\":%" PRIu64 ".%09" PRIu64
		       ",\"type\":\"sample\"}\n", st->id, evname, s->period, s->cpu,
		       PID + st->thread, PID, s->ns / 1000000000u, s->ns % 1000000000u);
		return;
	}
	printf("{\"type\":\"sample\",\"timestamp\":%" PRIu64 ".%09" PRIu64
	       ",\"pid\":%d,\"tid\":%u,\"cpu\":%u,\"event\":\"%s\","
	       "\"period\":%u,\"stack_id\":\"0x%016" PRIx64 "\"}\n",
	       s->ns / 1000000000u, s->ns % 1000000000u, PID,
	       PID + st->thread, s->cpu, evname, s->period, st->id);
}

/* -m: the stacks sampled in the current window, with their counts. */
struct window {
	uint64_t start, end, id;
	uint32_t stack[WINDOW_STACKS];
	uint64_t count[WINDOW_STACKS];
	unsigned n;
};

static void window_add(struct window *w, const struct sample *s)
{
	unsigned k;

	if (!w->n && !w->count[0])
		w->start = s->ns;
	w->end = s->ns;
	for (k = 0; k < w->n && w->stack[k] != s->stack; k++)
		;
	if (k == w->n) {
		if (w->n == WINDOW_STACKS)
			return;
		w->stack[w->n++] = s->stack;
	}
	w->count[k]++;
}

static void window_print(struct window *w)
{
	printf("{\"type\":\"window\",\"id\":\"w%" PRIu64 "\",\"start\":%" PRIu64
	       ".%09" PRIu64 ",\"end\":%" PRIu64 ".%09" PRIu64 ",\"by_stack\":[",
	       w->id, w->start / 1000000000u, w->start % 1000000000u,
	       w->end / 1000000000u, w->end % 1000000000u);
	for (unsigned k = 0; k < w->n; k++)
		printf("%s{\"stack_id\":\"0x%016" PRIx64 "\",\"weights\":[{\"metric\":"
		       "\"samples\",\"value\":%" PRIu64 "}]}", k ? "," : "",
		       stacks[w->stack[k]].id, w->count[k]);
	printf("]}\n");
	*w = (struct window){ .id = w->id + 1 };
}

int main(int argc, char **argv)
{
	uint64_t seed = 20260101, k_opt = 0;
	int a = 1, mixed = 0;
	if (a < argc && !strcmp(argv[a], "-m")) {
		mixed = 1;
		a++;
	}
	while (a + 1 < argc && (!strcmp(argv[a], "-s") || !strcmp(argv[a], "-k"))) {
		uint64_t v = strtoull(argv[a + 1], NULL, 0);
		if (argv[a][1] == 's')
			seed = v;
		else
			k_opt = v;
		a += 2;
		if (a < argc && !strcmp(argv[a], "-m")) {
			mixed = 1;
			a++;
		}
	}
	if (a + 1 != argc) {
		fprintf(stderr, "usage: gen [-s SEED] [-k STACKS] [-m] SAMPLES > FILE.spaa\n");
		return 2;
	}
	uint64_t n = strtoull(argv[a], NULL, 10);
	if (n == 0) {
		fprintf(stderr, "gen: SAMPLES must be a positive number\n");
		return 2;
	}
	uint64_t want = n / 30 < MAX_STACKS ? n / 30 : MAX_STACKS;
	if (k_opt)
		want = k_opt < MAX_STACKS ? k_opt : MAX_STACKS;
	if (want < 1)
		want = 1;

	uint64_t rng = seed;
	make_frames(&rng);
	make_stacks(&rng, (uint32_t)want);
	make_popularity(&rng);

	/* pass 1: the stacks' totals and the time range */
	uint64_t rng_samples = rng, r = rng, ns = START_NS;
	for (uint64_t i = 0; i < n; i++) {
		struct sample s = next_sample(&r, &ns, i, n);
		stacks[s.stack].samples++;
		stacks[s.stack].period += s.period;
		stacks[s.stack].ev_samples[event_of(mixed, i)]++;
		stacks[s.stack].ev_period[event_of(mixed, i)] += s.period;
	}
	uint64_t end_ns = ns;

	static char buf[1 << 20];
	setvbuf(stdout, buf, _IOFBF, sizeof buf);
	printf("{\"type\":\"header\",\"format\":\"spaa\",\"version\":\"1.0\","
	       "\"source_tool\":\"perf\",\"frame_order\":\"leaf_to_root\","
	       "\"events\":[{\"name\":\"cpu-clock:ppp\",\"kind\":\"software\","
	       "\"sampling\":{\"mode\":\"frequency\",\"primary_metric\":\"period\","
	       "\"frequency_hz\":%d}}%s],"
	       "\"time_range\":{\"start\":%" PRIu64 ".%09" PRIu64 ",\"end\":%" PRIu64
	       ".%09" PRIu64 ",\"unit\":\"seconds\"},"
	       "\"stack_id_mode\":\"content_addressable\"}\n",
	       HZ, mixed ? ",{\"name\":\"cycles\",\"kind\":\"hardware\",\"sampling\":"
	       "{\"mode\":\"period\",\"primary_metric\":\"period\"}}" : "",
	       (uint64_t)START_NS / 1000000000u, (uint64_t)START_NS % 1000000000u,
	       end_ns / 1000000000u, end_ns % 1000000000u);
	for (unsigned d = 0; d < N_DSOS; d++)
		printf("{\"type\":\"dso\",\"id\":%u,\"name\":\"%s\",\"is_kernel\":%s}\n",
		       d + 1, dso_names[d], d == 0 ? "true" : "false");
	uint64_t frng = seed ^ 0x5eed;
	for (uint32_t f = 0; f < N_FRAMES; f++) {
		unsigned d = dso_of(f);
		char name[96];
		if (f == 600)
			strcpy(name, "_start");
		else if (f == 601)
			strcpy(name, "start_thread");
		else if (f == 602)
			strcpy(name, "__libc_start_main");
		else if (f == 603)
			strcpy(name, "clone3");
		else if (d == 0)
			snprintf(name, sizeof name, "%s_%s_%u",
				 f < 60 ? "__x64_sys" : "do",
				 stems[rng_below(&frng, 30)], f);
		else
			snprintf(name, sizeof name, "%s_%s%s%u",
				 stems[rng_below(&frng, 30)], nouns[rng_below(&frng, 16)],
				 d == 4 ? "_impl" : "", f);
		uint64_t ip = (d == 0 ? 0xffffffff81000000ull : 0x1000ull) +
			      (uint64_t)f * 0x1f3 + rng_below(&frng, 0x100);
		printf("{\"type\":\"frame\",\"id\":%u,\"func\":\"%s\",\"dso\":%u,"
		       "\"ip\":\"0x%" PRIx64 "\",\"symoff\":\"0x%x\",\"kind\":\"%s\"}\n",
		       f + 1, name, d + 1, ip, rng_below(&frng, 0x400),
		       d == 0 ? "kernel" : "user");
	}
	for (unsigned t = 0; t < N_THREADS; t++)
		printf("{\"type\":\"thread\",\"pid\":%d,\"tid\":%u,\"comm\":\"%s%u\"}\n",
		       PID, PID + t, t == 0 ? "benchd" : "benchd-w", t);
	for (uint32_t i = 0, nrec = 0; i < n_stacks; i++) {
		const struct stack *s = &stacks[i];
		for (unsigned e = 0; e < 2; e++) {
			uint64_t samples = mixed ? s->ev_samples[e] : e ? 0 : s->samples;
			uint64_t period = mixed ? s->ev_period[e] : s->period;

			if (!samples)
				continue;
			print_stack(mixed, nrec++, s, e, samples, period);
		}
	}

	/* pass 2: the same random sequence, written out */
	r = rng_samples;
	ns = START_NS;
	struct window w = { .id = 1 };
	for (uint64_t i = 0; i < n; i++) {
		struct sample s = next_sample(&r, &ns, i, n);
		print_sample(mixed, i, &s);
		if (mixed) {
			window_add(&w, &s);
			if ((i + 1) % WINDOW == 0 || i + 1 == n)
				window_print(&w);
		}
	}
	if (fflush(stdout) || ferror(stdout)) {
		perror("gen: write");
		return 1;
	}
	free(stacks);
	free(rank_to_stack);
	free(zipf_cdf);
	return 0;
}
