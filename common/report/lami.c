#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "io/jsonw.h"
#include "io/ordered.h"
#include "model/util.h"
#include "report/lami.h"

/* ---- 1. metadata ------------------------------------------------------ */

static const char *const class_names[] = {
	[SPAA_LAMI_MIXED] = "mixed",
	[SPAA_LAMI_STRING] = "string",
	[SPAA_LAMI_INT] = "int",
	[SPAA_LAMI_NUMBER] = "number",
	[SPAA_LAMI_BOOL] = "bool",
	[SPAA_LAMI_RATIO] = "ratio",
	[SPAA_LAMI_TIMESTAMP] = "timestamp",
	[SPAA_LAMI_TIME_RANGE] = "time-range",
	[SPAA_LAMI_DURATION] = "duration",
	[SPAA_LAMI_SIZE] = "size",
	[SPAA_LAMI_BITRATE] = "bitrate",
	[SPAA_LAMI_PROCESS] = "process",
	[SPAA_LAMI_PATH] = "path",
	[SPAA_LAMI_CPU] = "cpu",
};

const char *spaa_lami_class_name(enum spaa_lami_class c)
{
	assert((size_t)c < sizeof(class_names) / sizeof(class_names[0]));
	return class_names[c];
}

#ifndef NDEBUG
/* v0.1 defines "unit" for these column classes only. */
static bool unit_allowed(enum spaa_lami_class c)
{
	return c == SPAA_LAMI_STRING || c == SPAA_LAMI_INT || c == SPAA_LAMI_NUMBER ||
	       c == SPAA_LAMI_BOOL;
}
#endif

static void write_column(struct spaa_jsonw *jw, const char *title,
			 enum spaa_lami_class cls, const char *unit)
{
	assert((!unit || unit_allowed(cls)) && "unit on a column class without units");
	spaa_jsonw_object_begin(jw);
	if (title)
		spaa_jsonw_kv_string(jw, "title", title);
	/* written even for mixed: explicit beats TC's default */
	spaa_jsonw_kv_string(jw, "class", spaa_lami_class_name(cls));
	if (unit)
		spaa_jsonw_kv_string(jw, "unit", unit);
	spaa_jsonw_object_end(jw);
}

static void write_strings(struct spaa_jsonw *jw, const char *key,
			  const char *const *v)
{
	if (!v)
		return;
	spaa_jsonw_key(jw, key);
	spaa_jsonw_array_begin(jw);
	for (; *v; v++)
		spaa_jsonw_string(jw, *v);
	spaa_jsonw_array_end(jw);
}

static void write_out(FILE *out, const struct spaa_jsonw *jw)
{
	fwrite(jw->buf, 1, jw->len, out);
	fputc('\n', out);
}

void spaa_lami_metadata_write(FILE *out, const struct spaa_lami_meta *m)
{
	struct spaa_jsonw jw;
	size_t i, j;

	assert(m->title && m->nclasses > 0);
	spaa_jsonw_init(&jw);
	spaa_jsonw_object_begin(&jw);
	spaa_jsonw_key(&jw, "mi-version");
	spaa_jsonw_object_begin(&jw);
	spaa_jsonw_kv_i64(&jw, "major", 0);
	spaa_jsonw_kv_i64(&jw, "minor", 1);
	spaa_jsonw_object_end(&jw);
	spaa_jsonw_key(&jw, "version");
	spaa_jsonw_object_begin(&jw);
	spaa_jsonw_kv_i64(&jw, "major", m->version_major);
	spaa_jsonw_kv_i64(&jw, "minor", m->version_minor);
	spaa_jsonw_kv_i64(&jw, "patch", m->version_patch);
	if (m->version_extra)
		spaa_jsonw_kv_string(&jw, "extra", m->version_extra);
	spaa_jsonw_object_end(&jw);
	spaa_jsonw_kv_string(&jw, "title", m->title);
	if (m->description)
		spaa_jsonw_kv_string(&jw, "description", m->description);
	write_strings(&jw, "authors", m->authors);
	if (m->url)
		spaa_jsonw_kv_string(&jw, "url", m->url);
	write_strings(&jw, "tags", m->tags);

	spaa_jsonw_key(&jw, "table-classes");
	spaa_jsonw_object_begin(&jw);
	for (i = 0; i < m->nclasses; i++) {
		const struct spaa_lami_table_class *tc = &m->classes[i];

		/* TC rejects the whole metadata on a duplicate key */
		for (j = 0; j < i; j++)
			assert(strcmp(m->classes[j].name, tc->name) &&
			       "duplicate table class name");
		assert(tc->title && "TC requires a table class title");
		spaa_jsonw_key(&jw, tc->name);
		spaa_jsonw_object_begin(&jw);
		spaa_jsonw_kv_string(&jw, "title", tc->title);
		spaa_jsonw_key(&jw, "column-descriptions");
		spaa_jsonw_array_begin(&jw);
		for (j = 0; j < tc->ncolumns; j++)
			write_column(&jw, tc->columns[j].title,
				     tc->columns[j].cls, tc->columns[j].unit);
		spaa_jsonw_array_end(&jw);
		spaa_jsonw_object_end(&jw);
	}
	spaa_jsonw_object_end(&jw);
	spaa_jsonw_object_end(&jw);
	write_out(out, &jw);
	spaa_jsonw_release(&jw);
}

/* ---- 2. results ------------------------------------------------------- */

/*
 * One cell: 32 bytes.  Strings point into the table's string blocks, so
 * a table of a million cells costs a handful of allocations.
 */
struct spaa_lami_cell {
	enum spaa_lami_cell_kind kind;
	/* spaa_lami_cell_u64: 1 past INT64_MAX, 2 past UINT64_MAX; 3 past int64 (signed) */
	unsigned char big;
	union {
		int64_t i;              /* int, timestamp, duration, size, cpu */
		uint64_t u;             /* int, duration, size with big */
		double d;               /* number, ratio */
		bool b;
		const char *str;        /* string, path: in the table's blocks */
		struct {
			int64_t begin, end;
		} range;
		struct {
			const char *name;       /* NULL: absent */
			int64_t pid, tid;
		} proc;
	} u;
};

struct spaa_lami_column_override {
	bool kept;              /* spaa_lami_table_keep_column */
	bool set;
	enum spaa_lami_class cls;
	char *unit;             /* owned, may be NULL */
};

struct spaa_lami_table {
	const struct spaa_lami_table_class *cls;     /* weak */
	int64_t begin, end;
	char *title;                            /* owned; NULL: the class' */
	struct spaa_lami_column_override *cols;      /* owned; NULL until set_column */
	struct spaa_lami_cell *cells;                /* owned; row-major */
	size_t ncells, cells_alloc;
	size_t nrows;                           /* complete rows */
	bool in_row;
	bool record;                            /* spaa_lami_table_set_record */
	bool keep_empty;                        /* written even without rows */
	bool big;                               /* a cell past int64 (spaa_lami_cell_u64) */
	/*
	 * A piece of another table being filled (spaa_lami_table_fill): its
	 * cells are that table's, which it may not grow; its cols borrowed.
	 */
	bool part;
	/*
	 * The cells' strings, NUL-terminated, in blocks that never move
	 * (str_add): owned, each owned.
	 */
	char **blocks;
	size_t nblocks, blocks_alloc;
	size_t block_size;              /* of the last block */
	char *free_at;                  /* where the next string goes */
	size_t free_left;               /* bytes from free_at */
	/*
	 * A part (spaa_lami_table_fill) has no blocks: it takes slices of
	 * its owner's, under owner_lock.
	 */
	struct spaa_lami_table *owner;
	pthread_mutex_t *owner_lock;
};

struct spaa_lami_table *spaa_lami_table_new(const struct spaa_lami_table_class *cls,
				  int64_t begin, int64_t end)
{
	struct spaa_lami_table *t = spaa_xcalloc(1, sizeof(*t));

	assert(cls && cls->title);
	assert(begin <= end && "a time range ends after it begins");
	t->cls = cls;
	t->begin = begin;
	t->end = end;
	return t;
}

void spaa_lami_table_free(struct spaa_lami_table *t)
{
	size_t i;

	if (!t)
		return;
	if (t->cols)
		for (i = 0; i < t->cls->ncolumns; i++)
			free(t->cols[i].unit);
	free(t->cols);
	free(t->title);
	free(t->cells);
	for (i = 0; i < t->nblocks; i++)
		free(t->blocks[i]);
	free(t->blocks);
	free(t);
}

void spaa_lami_table_set_title(struct spaa_lami_table *t, const char *fmt, ...)
{
	char buf[256];
	va_list ap, ap2;
	int n;

	va_start(ap, fmt);
	va_copy(ap2, ap);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	assert(n >= 0);
	free(t->title);
	t->title = spaa_xmalloc((size_t)n + 1);
	if ((size_t)n < sizeof(buf))
		memcpy(t->title, buf, (size_t)n + 1);
	else
		vsnprintf(t->title, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	va_end(ap);
}

static enum spaa_lami_class column_class(const struct spaa_lami_table *t, size_t col)
{
	if (t->cols && t->cols[col].set)
		return t->cols[col].cls;
	return t->cls->columns[col].cls;
}

#ifndef NDEBUG
/* R9 of lami_check.py: what each column class may hold. */
static bool cell_fits(enum spaa_lami_class col, enum spaa_lami_cell_kind k)
{
	/* the column class each kind of cell belongs to */
	static const enum spaa_lami_class cell_class[] = {
		[SPAA_LAMI_CELL_EMPTY] = SPAA_LAMI_MIXED,
		[SPAA_LAMI_CELL_UNKNOWN] = SPAA_LAMI_MIXED,
		[SPAA_LAMI_CELL_STRING] = SPAA_LAMI_STRING,
		[SPAA_LAMI_CELL_INT] = SPAA_LAMI_INT,
		[SPAA_LAMI_CELL_NUMBER] = SPAA_LAMI_NUMBER,
		[SPAA_LAMI_CELL_BOOL] = SPAA_LAMI_BOOL,
		[SPAA_LAMI_CELL_RATIO] = SPAA_LAMI_RATIO,
		[SPAA_LAMI_CELL_TIMESTAMP] = SPAA_LAMI_TIMESTAMP,
		[SPAA_LAMI_CELL_TIME_RANGE] = SPAA_LAMI_TIME_RANGE,
		[SPAA_LAMI_CELL_DURATION] = SPAA_LAMI_DURATION,
		[SPAA_LAMI_CELL_SIZE] = SPAA_LAMI_SIZE,
		[SPAA_LAMI_CELL_PROCESS] = SPAA_LAMI_PROCESS,
		[SPAA_LAMI_CELL_PATH] = SPAA_LAMI_PATH,
		[SPAA_LAMI_CELL_CPU] = SPAA_LAMI_CPU,
	};

	if (k == SPAA_LAMI_CELL_EMPTY || k == SPAA_LAMI_CELL_UNKNOWN || col == SPAA_LAMI_MIXED)
		return true;
	if (col == SPAA_LAMI_NUMBER)
		return k == SPAA_LAMI_CELL_NUMBER || k == SPAA_LAMI_CELL_INT;
	return cell_class[k] == col;
}
#endif

void spaa_lami_table_set_column(struct spaa_lami_table *t, size_t col,
			   enum spaa_lami_class cls, const char *unit)
{
	size_t ncol = t->cls->ncolumns;

	assert(col < ncol);
	assert((t->cls->columns[col].cls == SPAA_LAMI_MIXED ||
		t->cls->columns[col].cls == cls) &&
	       "only mixed columns are decided per run");
	assert((!unit || unit_allowed(cls) ||
		(cls == SPAA_LAMI_RATIO && !strcmp(unit, "pp"))) &&
	       "unit on a column class without units");
	if (!t->cols)
		t->cols = spaa_xcalloc(ncol, sizeof(*t->cols));
	free(t->cols[col].unit);
	t->cols[col].set = true;
	t->cols[col].cls = cls;
	t->cols[col].unit = unit ? spaa_xstrdup(unit) : NULL;
#ifndef NDEBUG
	/* cells added before the class was decided must fit it too */
	for (size_t i = col; i < t->ncells; i += ncol)
		assert(cell_fits(cls, t->cells[i].kind) &&
		       "cell class does not fit its column");
#endif
}

void spaa_lami_table_keep_column(struct spaa_lami_table *t, size_t col)
{
	assert(col < t->cls->ncolumns);
	if (!t->cols)
		t->cols = spaa_xcalloc(t->cls->ncolumns, sizeof(*t->cols));
	t->cols[col].kept = true;
}

bool spaa_lami_table_column_kept(const struct spaa_lami_table *t, size_t col)
{
	return t->cols && t->cols[col].kept;
}

void spaa_lami_table_keep_empty(struct spaa_lami_table *t)
{
	t->keep_empty = true;
}

size_t spaa_lami_table_rows(const struct spaa_lami_table *t)
{
	return t->nrows;
}

void spaa_lami_table_set_record(struct spaa_lami_table *t)
{
	t->record = true;
}

bool spaa_lami_table_is_record(const struct spaa_lami_table *t)
{
	return t->record;
}

void spaa_lami_row_begin(struct spaa_lami_table *t)
{
	assert(!t->in_row && "spaa_lami_row_begin twice");
	t->in_row = true;
}

void spaa_lami_row_end(struct spaa_lami_table *t)
{
	assert(t->in_row && "spaa_lami_row_end without spaa_lami_row_begin");
	assert(t->ncells == (t->nrows + 1) * t->cls->ncolumns &&
	       "a row needs exactly one cell per column");
	t->in_row = false;
	t->nrows++;
}

/*
 * Big arrays of a table (every call path of a profile: 50,000 rows, 5 MB
 * of cells and 15 MB of strings) are allocated on a 2 MiB boundary in
 * whole 2 MiB, so that they fill huge pages (util.c advises them): a
 * page fault each 2 MiB rather than each 4 KiB, which on a virtual
 * machine costs ~14 us (40 ms on make bench's profile).  A block that
 * malloc maps keeps 4 KiB pages in its first 2 MiB, where malloc wrote
 * its header, and realloc keeps them in what it moves.
 */
#define HUGE_PAGE ((size_t)2 << 20)

/* *bytes rounded up to huge pages, on a huge page boundary when that big. */
static void *big_alloc(size_t *bytes)
{
	if (*bytes < HUGE_PAGE)
		return spaa_xmalloc(*bytes);
	*bytes = (*bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	return spaa_xaligned_alloc(HUGE_PAGE, *bytes);
}

/*
 * Gives the whole pages in [p, p + n), the unused end of a block of
 * block bytes, back to the system when the block is on huge pages: a
 * table ends anywhere in its last huge page of cells and of strings,
 * and the rest of that page would stay resident (~4 MB at spaa-diff's
 * peak).  Memory given back reads as zeros if it is written again.
 */
static void pages_release(char *p, size_t n, size_t block)
{
#ifdef MADV_DONTNEED
	uintptr_t a = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
	uintptr_t e = ((uintptr_t)p + n) & ~(uintptr_t)4095;

	if (block >= HUGE_PAGE && a < e)
		(void)madvise((void *)a, e - a, MADV_DONTNEED);
#else
	(void)p, (void)n, (void)block;
#endif
}

/* Room for n cells in all. */
static void cells_reserve(struct spaa_lami_table *t, size_t n)
{
	size_t bytes = n * sizeof(*t->cells);
	struct spaa_lami_cell *cells;

	if (n <= t->cells_alloc)
		return;
	cells = big_alloc(&bytes);
	if (t->ncells)
		memcpy(cells, t->cells, t->ncells * sizeof(*cells));
	free(t->cells);
	t->cells = cells;
	t->cells_alloc = bytes / sizeof(*cells);
}

/* Room for one more cell: the array doubles. */
static void cells_grow(struct spaa_lami_table *t)
{
	/* a part's cells are its table's: more rows than asked would overwrite the next piece's */
	if (t->part)
		abort();
	cells_reserve(t, t->cells_alloc ? t->cells_alloc * 2 : 16);
}

static struct spaa_lami_cell *cell_add(struct spaa_lami_table *t, enum spaa_lami_cell_kind k)
{
	size_t col = t->ncells - t->nrows * t->cls->ncolumns;
	struct spaa_lami_cell *c;

	assert(t->in_row && "a cell outside spaa_lami_row_begin/spaa_lami_row_end");
	assert(col < t->cls->ncolumns && "more cells than columns");
	assert(cell_fits(column_class(t, col), k) &&
	       "cell class does not fit its column");
	(void)col;      /* only checked */
	if (t->ncells == t->cells_alloc)
		cells_grow(t);
	c = &t->cells[t->ncells++];
	memset(c, 0, sizeof(*c));
	c->kind = k;
	return c;
}

/* Blocks of strings double from 4 KiB to 1 MiB, then are 4 MiB each (big_alloc). */
#define STR_BLOCK_MIN ((size_t)4 << 10)
#define STR_BLOCK_DOUBLED ((size_t)1 << 20)
#define STR_BLOCK_BIG ((size_t)4 << 20)

/* A new block of at least n bytes; the last one's rest is left unused. */
static void str_block(struct spaa_lami_table *t, size_t n)
{
	size_t size = !t->nblocks ? STR_BLOCK_MIN :
		      t->block_size < STR_BLOCK_DOUBLED ? t->block_size * 2 : STR_BLOCK_BIG;

	if (size < n)
		size = n;
	SPAA_ALLOC_GROW(t->blocks, t->nblocks + 1, t->blocks_alloc);
	t->blocks[t->nblocks++] = big_alloc(&size);
	t->block_size = size;
	t->free_at = t->blocks[t->nblocks - 1];
	t->free_left = size;
}

/*
 * A part's strings go to slices of this size of its owner's blocks, so
 * that the strings of a table filled by threads fill blocks as those of
 * one filled by one thread do (huge pages past the first MiBs), for one
 * lock a slice.
 */
#define STR_SLICE ((size_t)64 << 10)

/* Room for at least n bytes from t->free_at on. */
static void str_room(struct spaa_lami_table *t, size_t n)
{
	struct spaa_lami_table *o = t->owner;
	size_t want = n > STR_SLICE ? n : STR_SLICE;

	if (!o) {
		str_block(t, n);
		return;
	}
	pthread_mutex_lock(t->owner_lock);
	if (o->free_left < want)
		str_block(o, want);
	t->free_at = o->free_at;
	t->free_left = want;
	o->free_at += want;
	o->free_left -= want;
	pthread_mutex_unlock(t->owner_lock);
}

/* Room for n bytes and their NUL (written) in t's blocks, valid as long as t. */
static char *str_alloc(struct spaa_lami_table *t, size_t n)
{
	char *d;

	if (t->free_left < n + 1)
		str_room(t, n + 1);
	d = t->free_at;
	d[n] = '\0';
	t->free_at += n + 1;
	t->free_left -= n + 1;
	return d;
}

/* A copy of s[0..n) and a NUL in t's blocks. */
static const char *str_add_len(struct spaa_lami_table *t, const char *s, size_t n)
{
	return memcpy(str_alloc(t, n), s, n);
}

static const char *str_add(struct spaa_lami_table *t, const char *s)
{
	return str_add_len(t, s, strlen(s));
}

/* Pieces of rows spaa_lami_table_fill hands out: ~300 kB of call paths. */
#define SPAA_LAMI_FILL_ROWS 1024
#define SPAA_LAMI_FILL_SLOTS 2

struct fill_job {
	struct spaa_lami_table *t;
	struct spaa_lami_table *parts;  /* owned, one a slot */
	pthread_mutex_t lock;           /* t's blocks, which parts slice */
	size_t first, n;                /* t's rows before; rows to fill */
	void (*fill)(void *ctx, struct spaa_lami_table *part, size_t lo, size_t hi);
	void *ctx;
};

/* Piece piece of rows, into t's cells, with strings in the slot's part. */
static void fill_make(void *ctx, size_t piece, unsigned slot)
{
	struct fill_job *j = ctx;
	struct spaa_lami_table *part = &j->parts[slot];
	size_t ncol = j->t->cls->ncolumns, lo = piece * SPAA_LAMI_FILL_ROWS;
	size_t hi = lo + SPAA_LAMI_FILL_ROWS < j->n ? lo + SPAA_LAMI_FILL_ROWS : j->n;

	part->cells = j->t->cells + (j->first + lo) * ncol;
	part->cells_alloc = (hi - lo) * ncol;
	part->ncells = part->nrows = 0;
	j->fill(j->ctx, part, lo, hi);
	assert(part->nrows == hi - lo && !part->in_row && "fill adds the rows of its piece");
}

/* On the caller's thread, in row order: the piece's rows become t's. */
static void fill_use(void *ctx, size_t piece, unsigned slot)
{
	struct fill_job *j = ctx;
	struct spaa_lami_table *part = &j->parts[slot];

	(void)piece;
	j->t->ncells += part->ncells;
	j->t->nrows += part->nrows;
	j->t->big |= part->big;
}

void spaa_lami_table_fill(struct spaa_lami_table *t, size_t n, unsigned threads,
			  void (*fill)(void *ctx, struct spaa_lami_table *part,
				       size_t lo, size_t hi),
			  void *ctx)
{
	struct fill_job j = { .t = t, .first = t->nrows, .n = n, .fill = fill, .ctx = ctx };
	struct spaa_ordered_job job = {
		.npieces = (n + SPAA_LAMI_FILL_ROWS - 1) / SPAA_LAMI_FILL_ROWS,
		.threads = threads ? threads : 1, .make = fill_make, .use = fill_use, .ctx = &j,
	};

	assert(!t->in_row && "spaa_lami_table_fill inside a row");
	if (job.threads > job.npieces)
		job.threads = job.npieces ? (unsigned)job.npieces : 1;
	job.slots = SPAA_LAMI_FILL_SLOTS * job.threads;
	cells_reserve(t, (t->nrows + n) * t->cls->ncolumns);
	j.parts = spaa_xcalloc(job.slots, sizeof(*j.parts));
	pthread_mutex_init(&j.lock, NULL);
	for (unsigned s = 0; s < job.slots; s++) {
		j.parts[s].cls = t->cls;
		j.parts[s].cols = t->cols;
		j.parts[s].begin = t->begin;
		j.parts[s].end = t->end;
		j.parts[s].part = true;
		j.parts[s].owner = t;
		j.parts[s].owner_lock = &j.lock;
	}
	spaa_ordered_run(&job);
	pthread_mutex_destroy(&j.lock);
	free(j.parts);
}

void spaa_lami_cell_string(struct spaa_lami_table *t, const char *s)
{
	if (!s) {
		spaa_lami_cell_empty(t);
		return;
	}
	cell_add(t, SPAA_LAMI_CELL_STRING)->u.str = str_add(t, s);
}

char *spaa_lami_cell_string_room(struct spaa_lami_table *t, size_t n)
{
	char *d = str_alloc(t, n);

	cell_add(t, SPAA_LAMI_CELL_STRING)->u.str = d;
	return d;
}

void spaa_lami_cell_int(struct spaa_lami_table *t, int64_t v)
{
	cell_add(t, SPAA_LAMI_CELL_INT)->u.i = v;
}

void spaa_lami_cell_number(struct spaa_lami_table *t, double v)
{
	cell_add(t, SPAA_LAMI_CELL_NUMBER)->u.d = v;
}

void spaa_lami_cell_bool(struct spaa_lami_table *t, bool v)
{
	cell_add(t, SPAA_LAMI_CELL_BOOL)->u.b = v;
}

void spaa_lami_cell_ratio(struct spaa_lami_table *t, double v)
{
	cell_add(t, SPAA_LAMI_CELL_RATIO)->u.d = v;
}

void spaa_lami_cell_timestamp(struct spaa_lami_table *t, int64_t ns)
{
	cell_add(t, SPAA_LAMI_CELL_TIMESTAMP)->u.i = ns;
}

void spaa_lami_cell_time_range(struct spaa_lami_table *t, int64_t begin, int64_t end)
{
	struct spaa_lami_cell *c = cell_add(t, SPAA_LAMI_CELL_TIME_RANGE);

	c->u.range.begin = begin;
	c->u.range.end = end;
}

void spaa_lami_cell_duration(struct spaa_lami_table *t, int64_t ns)
{
	cell_add(t, SPAA_LAMI_CELL_DURATION)->u.i = ns;
}

void spaa_lami_cell_size(struct spaa_lami_table *t, int64_t bytes)
{
	cell_add(t, SPAA_LAMI_CELL_SIZE)->u.i = bytes;
}

void spaa_lami_cell_u64(struct spaa_lami_table *t, enum spaa_lami_cell_kind k,
			uint64_t v)
{
	struct spaa_lami_cell *c;

	assert((k == SPAA_LAMI_CELL_INT || k == SPAA_LAMI_CELL_DURATION ||
		k == SPAA_LAMI_CELL_SIZE) && "an integer cell");
	c = cell_add(t, k);
	c->u.u = v;
	c->big = v > INT64_MAX;
	t->big |= c->big;
}

void spaa_lami_cell_past_u64(struct spaa_lami_table *t, enum spaa_lami_cell_kind k)
{
	spaa_lami_cell_u64(t, k, UINT64_MAX);
	t->cells[t->ncells - 1].big = 2;
}

void spaa_lami_cell_past_i64(struct spaa_lami_table *t, enum spaa_lami_cell_kind k)
{
	spaa_lami_cell_u64(t, k, UINT64_MAX);
	t->cells[t->ncells - 1].big = 3;
}

void spaa_lami_cell_process(struct spaa_lami_table *t, const char *name, int64_t pid,
		       int64_t tid)
{
	struct spaa_lami_cell *c = cell_add(t, SPAA_LAMI_CELL_PROCESS);

	c->u.proc.name = name ? str_add(t, name) : NULL;
	c->u.proc.pid = pid;
	c->u.proc.tid = tid;
}

void spaa_lami_cell_path(struct spaa_lami_table *t, const char *path)
{
	if (!path) {
		spaa_lami_cell_empty(t);
		return;
	}
	cell_add(t, SPAA_LAMI_CELL_PATH)->u.str = str_add(t, path);
}

void spaa_lami_cell_cpu(struct spaa_lami_table *t, int64_t id)
{
	cell_add(t, SPAA_LAMI_CELL_CPU)->u.i = id;
}

void spaa_lami_cell_unknown(struct spaa_lami_table *t)
{
	cell_add(t, SPAA_LAMI_CELL_UNKNOWN);
}

void spaa_lami_cell_empty(struct spaa_lami_table *t)
{
	cell_add(t, SPAA_LAMI_CELL_EMPTY);
}

void spaa_lami_results_init(struct spaa_lami_results *r)
{
	memset(r, 0, sizeof(*r));
}

void spaa_lami_results_add(struct spaa_lami_results *r, struct spaa_lami_table *t)
{
	if (!t)
		return;
	assert(!t->in_row && "table added in the middle of a row");
	if (!t->nrows && !t->keep_empty) {
		/* v0.1 wants at least one row per table */
		spaa_lami_table_free(t);
		return;
	}
	/* a result's table is complete: its unused ends are never read */
	if (t->cells)
		pages_release((char *)(t->cells + t->ncells),
			      (t->cells_alloc - t->ncells) * sizeof(*t->cells),
			      t->cells_alloc * sizeof(*t->cells));
	if (t->nblocks)
		pages_release(t->free_at, t->free_left, t->block_size);
	SPAA_ALLOC_GROW(r->tables, r->nr + 1, r->alloc);
	r->tables[r->nr++] = t;
}

void spaa_lami_results_release(struct spaa_lami_results *r)
{
	size_t i;

	for (i = 0; i < r->nr; i++)
		spaa_lami_table_free(r->tables[i]);
	free(r->tables);
	spaa_lami_results_init(r);
}

/* Significant digits of numbers and ratios: enough, without 0.1+0.2 noise. */
#define SPAA_LAMI_DOUBLE_PRECISION 15

#define SPAA_LAMI_WRITE_CHUNK ((size_t)64 << 10)

static void write_unknown(struct spaa_jsonw *jw)
{
	spaa_jsonw_object_begin(jw);
	spaa_jsonw_kv_string(jw, "class", "unknown");
	spaa_jsonw_object_end(jw);
}

static void write_value_object(struct spaa_jsonw *jw, const char *cls, int64_t v)
{
	spaa_jsonw_object_begin(jw);
	spaa_jsonw_kv_string(jw, "class", cls);
	spaa_jsonw_kv_i64(jw, "value", v);
	spaa_jsonw_object_end(jw);
}

static void write_time_range(struct spaa_jsonw *jw, int64_t begin, int64_t end)
{
	spaa_jsonw_object_begin(jw);
	spaa_jsonw_kv_string(jw, "class", "time-range");
	spaa_jsonw_kv_i64(jw, "begin", begin);
	spaa_jsonw_kv_i64(jw, "end", end);
	spaa_jsonw_object_end(jw);
}

/*
 * Values TC or the spec would reject are written as unknown objects:
 * non-finite numbers (jsonw would write null, which means empty), a
 * time range ending before it begins, a CPU id TC would read into a
 * 32-bit int and wrap.  spaa_lami_table_cell reports them the same way.
 */
static bool written_unknown(const struct spaa_lami_cell *c)
{
	switch (c->kind) {
	case SPAA_LAMI_CELL_UNKNOWN:
		return true;
	case SPAA_LAMI_CELL_NUMBER:
	case SPAA_LAMI_CELL_RATIO:
		return !isfinite(c->u.d);
	case SPAA_LAMI_CELL_TIME_RANGE:
		return c->u.range.end < c->u.range.begin;
	case SPAA_LAMI_CELL_CPU:
		return c->u.i < INT32_MIN || c->u.i > INT32_MAX;
	default:
		return false;
	}
}

static void write_cell(struct spaa_jsonw *jw, const struct spaa_lami_cell *c)
{
	if (written_unknown(c)) {
		write_unknown(jw);
		return;
	}
	switch (c->kind) {
	case SPAA_LAMI_CELL_EMPTY:
	case SPAA_LAMI_CELL_UNKNOWN:
		spaa_jsonw_null(jw);
		break;
	case SPAA_LAMI_CELL_STRING:
		spaa_jsonw_string(jw, c->u.str);
		break;
	case SPAA_LAMI_CELL_INT:
		spaa_jsonw_i64(jw, c->u.i);
		break;
	case SPAA_LAMI_CELL_NUMBER:
		spaa_jsonw_double(jw, SPAA_LAMI_DOUBLE_PRECISION, c->u.d);
		break;
	case SPAA_LAMI_CELL_BOOL:
		spaa_jsonw_bool(jw, c->u.b);
		break;
	case SPAA_LAMI_CELL_RATIO:
		spaa_jsonw_object_begin(jw);
		spaa_jsonw_kv_string(jw, "class", "ratio");
		spaa_jsonw_kv_double(jw, "value", SPAA_LAMI_DOUBLE_PRECISION, c->u.d);
		spaa_jsonw_object_end(jw);
		break;
	case SPAA_LAMI_CELL_TIMESTAMP:
		write_value_object(jw, "timestamp", c->u.i);
		break;
	case SPAA_LAMI_CELL_DURATION:
		write_value_object(jw, "duration", c->u.i);
		break;
	case SPAA_LAMI_CELL_SIZE:
		write_value_object(jw, "size", c->u.i);
		break;
	case SPAA_LAMI_CELL_TIME_RANGE:
		write_time_range(jw, c->u.range.begin, c->u.range.end);
		break;
	case SPAA_LAMI_CELL_PROCESS:
		/* absent members are omitted: TC fails on a null pid */
		spaa_jsonw_object_begin(jw);
		spaa_jsonw_kv_string(jw, "class", "process");
		if (c->u.proc.name)
			spaa_jsonw_kv_string(jw, "name", c->u.proc.name);
		if (c->u.proc.pid != SPAA_LAMI_NO_ID)
			spaa_jsonw_kv_i64(jw, "pid", c->u.proc.pid);
		if (c->u.proc.tid != SPAA_LAMI_NO_ID)
			spaa_jsonw_kv_i64(jw, "tid", c->u.proc.tid);
		spaa_jsonw_object_end(jw);
		break;
	case SPAA_LAMI_CELL_PATH:
		spaa_jsonw_object_begin(jw);
		spaa_jsonw_kv_string(jw, "class", "path");
		spaa_jsonw_kv_string(jw, "path", c->u.str);
		spaa_jsonw_object_end(jw);
		break;
	case SPAA_LAMI_CELL_CPU:
		spaa_jsonw_object_begin(jw);
		spaa_jsonw_kv_string(jw, "class", "cpu");
		spaa_jsonw_kv_i64(jw, "id", c->u.i);
		spaa_jsonw_object_end(jw);
		break;
	}
}

const char *spaa_lami_table_title(const struct spaa_lami_table *t)
{
	return t->title ? t->title : t->cls->title;
}

void spaa_lami_table_range(const struct spaa_lami_table *t, int64_t *begin, int64_t *end)
{
	*begin = t->begin;
	*end = t->end;
}

const struct spaa_lami_table_class *spaa_lami_table_class_of(const struct spaa_lami_table *t)
{
	return t->cls;
}

void spaa_lami_table_column(const struct spaa_lami_table *t, size_t col,
		       enum spaa_lami_class *cls, const char **unit)
{
	assert(col < t->cls->ncolumns);
	*cls = column_class(t, col);
	*unit = t->cols && t->cols[col].set ? t->cols[col].unit
					    : t->cls->columns[col].unit;
}

void spaa_lami_table_cell(const struct spaa_lami_table *t, size_t row, size_t col,
		     struct spaa_lami_cell_view *v)
{
	const struct spaa_lami_cell *c;

	assert(row < t->nrows && col < t->cls->ncolumns);
	c = &t->cells[row * t->cls->ncolumns + col];
	memset(v, 0, sizeof(*v));
	v->kind = written_unknown(c) ? SPAA_LAMI_CELL_UNKNOWN : c->kind;
	v->pid = v->tid = SPAA_LAMI_NO_ID;
	switch (v->kind) {
	case SPAA_LAMI_CELL_STRING:
	case SPAA_LAMI_CELL_PATH:
		v->str = c->u.str;
		break;
	case SPAA_LAMI_CELL_INT:
	case SPAA_LAMI_CELL_TIMESTAMP:
	case SPAA_LAMI_CELL_DURATION:
	case SPAA_LAMI_CELL_SIZE:
	case SPAA_LAMI_CELL_CPU:
		v->i = c->big ? INT64_MAX : c->u.i;
		v->big = c->big;
		v->u = c->u.u;
		break;
	case SPAA_LAMI_CELL_NUMBER:
	case SPAA_LAMI_CELL_RATIO:
		v->d = c->u.d;
		break;
	case SPAA_LAMI_CELL_BOOL:
		v->b = c->u.b;
		break;
	case SPAA_LAMI_CELL_TIME_RANGE:
		v->i = c->u.range.begin;
		v->end = c->u.range.end;
		break;
	case SPAA_LAMI_CELL_PROCESS:
		v->str = c->u.proc.name;
		v->pid = c->u.proc.pid;
		v->tid = c->u.proc.tid;
		break;
	case SPAA_LAMI_CELL_EMPTY:
	case SPAA_LAMI_CELL_UNKNOWN:
		break;
	}
}

/* What names row r of t in a message: its first string, path or process. */
static void row_name(const struct spaa_lami_table *t, size_t r, char *buf,
		     size_t size)
{
	const struct spaa_lami_cell *row = &t->cells[r * t->cls->ncolumns];

	snprintf(buf, size, "row %zu", r + 1);
	for (size_t i = 0; i < t->cls->ncolumns; i++) {
		const struct spaa_lami_cell *c = &row[i];

		if (c->kind == SPAA_LAMI_CELL_STRING || c->kind == SPAA_LAMI_CELL_PATH) {
			snprintf(buf, size, "row %zu ('%s')", r + 1, c->u.str);
			return;
		}
		if (c->kind == SPAA_LAMI_CELL_PROCESS) {
			char tid[32] = "";

			if (c->u.proc.tid != SPAA_LAMI_NO_ID)
				snprintf(tid, sizeof(tid), "/%" PRId64, c->u.proc.tid);
			snprintf(buf, size, "row %zu ('%s' %" PRId64 "%s)", r + 1,
				 c->u.proc.name ? c->u.proc.name : "",
				 c->u.proc.pid, tid);
			return;
		}
	}
}

int spaa_lami_results_overflow(const struct spaa_lami_results *r, bool lami,
			       struct spaa_error *err)
{
	for (size_t k = 0; k < r->nr; k++) {
		const struct spaa_lami_table *t = r->tables[k];
		size_t ncol = t->cls->ncolumns;

		/* the cells of a table without big ones need no look (every stack's) */
		for (size_t i = 0; t->big && i < t->nrows * ncol; i++) {
			const struct spaa_lami_cell *c = &t->cells[i];
			const char *col = t->cls->columns[i % ncol].title;
			char row[300];

			if (!c->big || (!lami && c->big < 2))
				continue;
			row_name(t, i / ncol, row, sizeof(row));
			if (c->big >= 2)
				return spaa_error_set(err, SPAA_E_OVERFLOW,
						      "table '%s', %s, column '%s': the value is past %s",
						      spaa_lami_table_title(t), row, col ? col : "",
						      c->big == 2 ? "2^64 - 1" : "the 64-bit range (-2^63 to 2^63 - 1)");
			return spaa_error_set(err, SPAA_E_OVERFLOW,
					      "table '%s', %s, column '%s': %" PRIu64 "%s is past 2^63 - 1, the largest integer Trace Compass reads (a Java long); --format text or csv shows it exactly",
					      spaa_lami_table_title(t), row, col ? col : "", c->u.u,
					      c->kind == SPAA_LAMI_CELL_DURATION ? " ns" :
					      c->kind == SPAA_LAMI_CELL_SIZE ? " bytes" : "");
		}
	}
	return 0;
}

/*
 * The table's "class": always a reference to a class of the metadata,
 * its name or {"inherit", "title"} for a title of this run.  Trace
 * Compass makes an inline class a "Dynamic Table" without the declared
 * class' charts, so the class a mixed column got for this run (text and
 * CSV use it) is not written: a mixed column holds any cell.
 */
static void write_table_class(struct spaa_jsonw *jw, const struct spaa_lami_table *t)
{
	if (!t->title) {
		spaa_jsonw_string(jw, t->cls->name);
		return;
	}
	spaa_jsonw_object_begin(jw);
	spaa_jsonw_kv_string(jw, "inherit", t->cls->name);
	spaa_jsonw_kv_string(jw, "title", t->title);
	spaa_jsonw_object_end(jw);
}

static void write_row(struct spaa_jsonw *jw, const struct spaa_lami_table *t, size_t r)
{
	size_t ncol = t->cls->ncolumns;

	spaa_jsonw_array_begin(jw);
	for (size_t i = 0; i < ncol; i++)
		write_cell(jw, &t->cells[r * ncol + i]);
	spaa_jsonw_array_end(jw);
}

/*
 * With several threads, a table's rows are written in pieces of this
 * many rows (~200 kB of call paths), each piece by a thread, the pieces
 * going out in row order (ordered.h): up to two pieces a thread wait.
 */
#define SPAA_LAMI_PIECE_ROWS 512
#define SPAA_LAMI_PIECE_SLOTS 2

struct rows_job {
	FILE *out;
	const struct spaa_lami_table *t;
	struct spaa_jsonw *jw;          /* owned, one a slot */
};

static void rows_make(void *ctx, size_t piece, unsigned slot)
{
	struct rows_job *j = ctx;
	size_t r = piece * SPAA_LAMI_PIECE_ROWS, end = r + SPAA_LAMI_PIECE_ROWS;

	/* the rows as the one writer of the table writes them, commas too */
	spaa_jsonw_array_inside(&j->jw[slot], piece == 0);
	for (; r < end && r < j->t->nrows; r++)
		write_row(&j->jw[slot], j->t, r);
}

static void rows_use(void *ctx, size_t piece, unsigned slot)
{
	struct rows_job *j = ctx;

	(void)piece;
	fwrite(j->jw[slot].buf, 1, j->jw[slot].len, j->out);
}

/* The rows of t, inside its "data" array, written by threads. */
static void write_rows_threads(FILE *out, const struct spaa_lami_table *t,
			       unsigned threads)
{
	struct rows_job j = { out, t, NULL };
	struct spaa_ordered_job job = {
		.npieces = (t->nrows + SPAA_LAMI_PIECE_ROWS - 1) / SPAA_LAMI_PIECE_ROWS,
		.threads = threads, .slots = SPAA_LAMI_PIECE_SLOTS * threads,
		.make = rows_make, .use = rows_use, .ctx = &j,
	};

	j.jw = spaa_xmalloc(job.slots * sizeof(*j.jw));
	for (unsigned s = 0; s < job.slots; s++)
		spaa_jsonw_init(&j.jw[s]);
	spaa_ordered_run(&job);
	for (unsigned s = 0; s < job.slots; s++)
		spaa_jsonw_release(&j.jw[s]);
	free(j.jw);
}

/*
 * Writes t to out.  Rows go out in chunks, so the text of a big table
 * (every stack of a profile) is never held in memory as a whole; with
 * several threads, a big table's chunks are written by all of them.
 */
static void write_table(FILE *out, struct spaa_jsonw *jw, const struct spaa_lami_table *t,
			unsigned threads)
{
	spaa_jsonw_object_begin(jw);
	spaa_jsonw_key(jw, "time-range");
	write_time_range(jw, t->begin, t->end);
	spaa_jsonw_key(jw, "class");
	write_table_class(jw, t);
	spaa_jsonw_key(jw, "data");
	spaa_jsonw_array_begin(jw);
	if (threads > 1 && t->nrows >= 2 * SPAA_LAMI_PIECE_ROWS) {
		fwrite(jw->buf, 1, jw->len, out);
		spaa_jsonw_clear_text(jw);
		write_rows_threads(out, t, threads);
	} else {
		for (size_t r = 0; r < t->nrows; r++) {
			write_row(jw, t, r);
			if (jw->len >= SPAA_LAMI_WRITE_CHUNK) {
				fwrite(jw->buf, 1, jw->len, out);
				spaa_jsonw_clear_text(jw);
			}
		}
	}
	spaa_jsonw_array_end(jw);
	spaa_jsonw_object_end(jw);
}

void spaa_lami_results_write(FILE *out, const struct spaa_lami_results *r)
{
	spaa_lami_results_write_threads(out, r, 1);
}

void spaa_lami_results_write_threads(FILE *out, const struct spaa_lami_results *r,
				     unsigned threads)
{
	struct spaa_jsonw jw;
	size_t i;

	assert(r->nr > 0 && "v0.1 wants at least one table");
	spaa_jsonw_init(&jw);
	/*
	 * "{" alone on the first line: TC finds the JSON by matching its
	 * first line against a Java regex whose "." stops at U+2028 and
	 * friends.  Tables are written a chunk of rows at a time.
	 */
	fputs("{\n\"results\":[", out);
	for (i = 0; i < r->nr; i++) {
		spaa_jsonw_reset(&jw);
		if (i)
			fputc(',', out);
		write_table(out, &jw, r->tables[i], threads);
		fwrite(jw.buf, 1, jw.len, out);
	}
	fputs("]}\n", out);
	spaa_jsonw_release(&jw);
}

void spaa_lami_error_write(FILE *out, const char *code, const char *msg)
{
	struct spaa_jsonw jw;

	spaa_jsonw_init(&jw);
	spaa_jsonw_object_begin(&jw);
	if (code)
		spaa_jsonw_kv_string(&jw, "error-code", code);
	spaa_jsonw_kv_string(&jw, "error-message", msg ? msg : "");
	spaa_jsonw_object_end(&jw);
	write_out(out, &jw);
	spaa_jsonw_release(&jw);
}

/* ---- progress --------------------------------------------------------- */

#define PROGRESS_STAR_STEP (UINT64_C(64) << 20)
#define PROGRESS_MAX_STARS 100

void spaa_lami_progress_init(struct spaa_lami_progress *p, FILE *out)
{
	p->out = out;
	p->last = -1;
	p->last_done = 0;
	p->lines = 0;
}

/* floor(100 * done / total) in [0, 100], without overflow. */
static unsigned progress_hundredths(uint64_t done, uint64_t total)
{
	uint64_t h;

	if (done >= total)
		return 100;
	if (total <= UINT64_MAX / 100)
		return (unsigned)(done * 100 / total);
	h = done / (total / 100);
	return h > 99 ? 99 : (unsigned)h;
}

/*
 * A message may hold a file name: a newline in it would start a line TC
 * reads as progress or JSON, and invalid UTF-8 makes the whole stdout
 * invalid.  Control bytes become spaces, invalid bytes U+FFFD.
 */
static void progress_line(struct spaa_lami_progress *p, const char *value,
			  const char *msg)
{
	const unsigned char *s = (const unsigned char *)msg;
	const unsigned char *end = s ? s + strlen(msg) : NULL;

	fputs(value, p->out);
	if (s && *s) {
		fputc(' ', p->out);
		while (s < end) {
			uint32_t cp;
			int n = spaa_utf8_seq(s, (size_t)(end - s), &cp);

			if (n < 0) {
				/* one U+FFFD per maximal invalid subpart, as util.h says */
				fputs("\xef\xbf\xbd", p->out);
				n = -n;
			} else if (cp < 0x20 || cp == 0x7f) {
				fputc(' ', p->out);
			} else {
				fwrite(s, 1, (size_t)n, p->out);
			}
			s += n;
		}
	}
	fputc('\n', p->out);
	fflush(p->out);
	p->lines++;
}

void spaa_lami_progress_update(struct spaa_lami_progress *p, uint64_t done,
			  uint64_t total, const char *msg)
{
	bool star_mode = p->lines > 0 && p->last < 0;
	char value[16];
	unsigned h;

	if (!p->out)
		return;
	/* TC wants either "*" or numbers in a run, never both */
	if (star_mode || (!total && !p->lines)) {
		if (p->lines >= PROGRESS_MAX_STARS)
			return;
		if (p->lines && (done < p->last_done ||
				 done - p->last_done < PROGRESS_STAR_STEP))
			return;
		p->last_done = done;
		progress_line(p, "*", msg);
		return;
	}
	if (!total)
		return;         /* numeric so far: nothing to say without a total */
	h = progress_hundredths(done, total);
	if (p->last >= 0 && h <= (unsigned)lround(p->last * 100))
		return;
	p->last = h / 100.0;
	snprintf(value, sizeof(value), "%u.%02u", h / 100, h % 100);
	progress_line(p, value, msg);
}
