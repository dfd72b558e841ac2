#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "io/input.h"
#include "io/output.h"
#include "io/spares.h"
#include "model/util.h"

/*
 * Reads and decompressor calls move 256 KiB at a time: few syscalls, and
 * the decoded chunk still sits in L2 while the line splitter walks it.
 */
#define INPUT_CHUNK ((size_t)256 << 10)

/*
 * A zstd frame names its own window size, which the decoder allocates:
 * the bound (SPAA_INPUT_MAX_WINDOW_DEFAULT, 128 MiB, what zstd itself
 * accepts without --memory) keeps a hostile frame from demanding
 * gigabytes; up to zstd's maximum (2 GiB, --long=31) where the caller
 * raises it.
 */
static int window_log(uint64_t max_window)
{
	ZSTD_bounds b = ZSTD_dParam_getBounds(ZSTD_d_windowLogMax);
	int log = 10;

	while (log < b.upperBound && ((uint64_t)1 << (log + 1)) <= max_window)
		log++;
	return log;
}

/* Keeps max_line + 2 (the buffer bound) from overflowing. */
#define INPUT_MAX_LINE_LIMIT (SIZE_MAX / 4)

/*
 * Where decoded bytes come from: the file and, for compressed input, the
 * decoder.  For a compressed regular file it is driven by a thread of its
 * own (see struct pipeline), so decompression on one core overlaps
 * parsing on another; otherwise by the reader, in its thread.  Either
 * way only one thread touches it at a time.
 */
struct source {
	const char *name;       /* weak: the input's */
	int fd;
	enum spaa_input_comp comp;
	uint64_t bytes_read;

	/*
	 * Compressed bytes read from fd, [raw_pos, raw_len) unconsumed.
	 * raw_eof: read() returned 0 (for plain input too).
	 */
	unsigned char *raw;     /* owned, raw_alloc bytes */
	size_t raw_pos, raw_len, raw_alloc;
	int raw_eof;

	z_stream zs;
	int zs_live;            /* inflateInit2 succeeded */
	int gz_between;         /* a gzip member ended; another may follow */
	ZSTD_DCtx *zd;
	size_t zret;            /* last ZSTD_decompressStream hint; 0 = frame done */
	uint64_t max_window;    /* bytes of a zstd window */
};

/*
 * The decoding thread hands over blocks of decoded bytes through a ring
 * of nblocks buffers: it fills the free ones, the reader copies from
 * the full ones into its line buffer.  A block also carries the file
 * position reached when it was decoded (progress follows what the reader
 * consumed) and, last, the end of the stream or the decoder's error.
 *
 * With a scanner set, the thread also scans full blocks, newest first,
 * whenever it has no free one to fill, and the reader scans the ones it
 * comes to first (waiting for one being scanned: the rest of a scan
 * takes less than a whole one), so the work is shared out by itself and
 * every block is scanned.  Their batches share the scanner's state, one
 * at a time (scan_lock).  With more threads (spaa_input_opts.threads
 * above 2) scanning threads join in, each taking the newest full block,
 * and the ring has room for a block per thread and two more.  Which
 * thread scans a block changes nothing: a record depends on its line
 * alone, and the reader takes the blocks in order.
 */
enum { BLOCK_FULL, BLOCK_SCANNING, BLOCK_SCANNED, BLOCK_TAKEN };
#define PIPE_BLOCKS_MIN 4
#define PIPE_BLOCKS_MAX 32
/*
 * 64 KiB, so that a block is read or decoded, scanned and its lines read
 * while it is still in a core's L2 cache (four of them take 256 KiB).
 * On the bench file, against 512 KiB blocks: 6 % less wall time from
 * zstd input, 2 to 4 % from plain, 5 MB less peak RSS; 32 KiB blocks
 * cost more than they saved (doc/PERFORMANCE.md, Comparing two builds).
 */
#define PIPE_BLOCK ((size_t)1 << 16)

struct pipe_block {
	char *data;             /* owned, PIPE_BLOCK bytes */
	size_t len, pos;        /* [pos, len) not yet copied out */
	uint64_t bytes_read;
	int end;                /* 1: the stream ended after this; -1: err */
	struct spaa_error err;
	int state;              /* BLOCK_*, under the lock */
	/*
	 * Line feeds before the block, set when the reader takes it (those
	 * before are all counted then), and in it (nlf): counted by the
	 * scan, which finds every one, or where nobody scans the block by
	 * the decoding thread (counted).
	 */
	uint64_t lineno, nlf;
	int counted;
	int partial;            /* it starts inside a line */
	/*
	 * The scanner's records of the lines that lie wholly in this
	 * block, in line order: entries of scan_stride bytes, a struct
	 * scan_head and then the record.
	 */
	unsigned char *scans;   /* owned */
	size_t nscans, scans_alloc;
	void *scan_block;       /* the scanner's state of this block (block_new) */
};

/*
 * What a block's scan entry says of its line: its number, and where its
 * LF lies in the block, so that the reader returns the line without
 * looking for the LF again (pipe_line): the thread that scanned the
 * block found it, and each search is a pass over the line's bytes.
 */
struct scan_head {
	uint64_t lineno;        /* in the block: its line feeds up to this line's */
	uint64_t lf;            /* offset of the line's LF in the block's data */
};

struct pipeline {
	pthread_t thread;
	pthread_t *scanners;    /* owned: the scanning threads */
	unsigned nscanners;
	pthread_mutex_t lock;
	pthread_mutex_t scan_lock;      /* the scanner's batch */
	pthread_cond_t changed;
	struct pipe_block *blocks;      /* owned, nblocks of them */
	unsigned nblocks;
	unsigned head, count;   /* blocks[head] is the next full one */
	int stop;               /* the reader closes early */
	int sync;               /* no thread: the reader fills each block */
	int ended;              /* the last block is decoded */
	/*
	 * The head block, all copied out, is kept until the next fill:
	 * until then the reader returns the lines it holds, and looks up
	 * their scanner records in it.
	 */
	int held;
	int reading;            /* the reader has the head block (see held) */
	size_t cursor;          /* the head block's next scanner record */

	uint64_t lineno;        /* line feeds before the next block the reader takes */
	int scan_partial;       /* the last block filled ended inside a line */
};

struct spaa_input {
	char *name;             /* owned: the path as given */
	struct spaa_spares *spares;     /* weak: spaa_input_opts.spares */
	int own_fd;             /* 0 for stdin, which the caller owns */
	struct source src;
	struct pipeline *pipe;  /* owned; NULL: the source is read inline */
	int want_pipe;          /* start pipe at the first read (a regular file) */
	int small;              /* a regular file below thread_min */
	size_t peeking;         /* bytes a peek wants (0: not in a peek) */
	unsigned threads;       /* spaa_input_opts.threads, 2 for 0 */
	/*
	 * The line scanner (spaa_input_set_scanner), its ctx owned; the
	 * decoding thread reads these under its lock.
	 */
	struct spaa_input_scanner scan;
	int scanning;
	size_t scan_stride;
	size_t max_line;
	uint64_t bytes_read, size;
	unsigned long lineno;

	/*
	 * Decoded data.  [pos, len) is not yet returned and holds no LF
	 * in its first `scanned` bytes; buf has cap + 1 bytes so that a
	 * final line without LF can be NUL-terminated in place.  Lines
	 * not returned from a block in place (pipe_line) are returned as
	 * pointers into buf; an unfinished line is moved
	 * to the front before the next fill, so buf only grows for lines
	 * longer than it (bounded by max_line).
	 */
	char *buf;
	size_t pos, len, cap, scanned;
	int eof;                /* no more decoded data will come */
	/*
	 * Lines are returned from the decoding thread's block where they
	 * lie wholly in it (pipe_line), and buf holds only a line split
	 * across blocks: set once getline has taken a line (a peek's or a
	 * read's bytes go through buf as before).
	 */
	int direct;

	/*
	 * The first error is repeated by later calls instead of going on.
	 * An error of a fill (fill_failed) comes after the whole lines
	 * decoded before it, which a peek may have left in the buffer, and
	 * names the line after them.
	 */
	int failed, fill_failed;
	struct spaa_error saved;
};

/*
 * Records an error on in, so later calls report it again, and returns -1.
 * Read and decompression errors name the line being read (lineno + 1):
 * every line before it came out whole.
 */
__attribute__((format(printf, 5, 6)))
static int input_fail(struct spaa_input *in, struct spaa_error *err,
		      const char *code, unsigned long line,
		      const char *fmt, ...)
{
	char msg[sizeof(in->saved.msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	spaa_error_at(&in->saved, code, in->name, line, "%s", msg);
	in->failed = 1;
	if (err)
		*err = in->saved;
	return -1;
}

/* An error of the source: only fills err (the reader records it). */
__attribute__((format(printf, 4, 5)))
static int source_fail(struct source *src, struct spaa_error *err,
		       const char *code, const char *fmt, ...)
{
	char msg[sizeof(err->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	spaa_error_at(err, code, src->name, 0, "%s", msg);
	return -1;
}

/*
 * One read(2), retried on EINTR.  Returns the byte count (0 at end of
 * file) or -1 with the error recorded.
 */
static ssize_t source_read(struct source *src, void *p, size_t n,
			   struct spaa_error *err)
{
	char text[256];
	ssize_t r;

	/* read() of more than SSIZE_MAX is implementation-defined */
	if (n > ((size_t)1 << 30))
		n = (size_t)1 << 30;
	for (;;) {
		r = read(src->fd, p, n);
		if (r >= 0)
			break;
		if (errno != EINTR)
			return source_fail(src, err, SPAA_E_IO, "read error: %s",
					   spaa_error_strerror(errno, text, sizeof(text)));
	}
	if (!r)
		src->raw_eof = 1;
	src->bytes_read += (uint64_t)r;
	return r;
}

/*
 * Reads the next compressed chunk.  Unconsumed bytes (at most one: see
 * fill_gzip) move to the front first.  Returns 0 or -1; at end of file
 * raw_eof is set and nothing is added.
 */
static int refill_raw(struct source *src, struct spaa_error *err)
{
	size_t keep = src->raw_len - src->raw_pos;
	ssize_t r;

	if (keep && src->raw_pos)
		memmove(src->raw, src->raw + src->raw_pos, keep);
	src->raw_pos = 0;
	src->raw_len = keep;
	r = source_read(src, src->raw + keep, INPUT_CHUNK - keep, err);
	if (r < 0)
		return -1;
	src->raw_len += (size_t)r;
	return 0;
}

/*
 * The fill functions decode into out[0..space), space > 0.  Each returns
 * the number of bytes written, 0 at the end of the stream, -1 on error.
 */

/* Plain input: read straight into the line buffer, no copy. */
static ssize_t fill_plain(struct source *src, char *out, size_t space,
			  struct spaa_error *err)
{
	if (src->raw_eof)
		return 0;
	return source_read(src, out, space, err);
}

static ssize_t fill_gzip(struct source *src, char *out, size_t space,
			 struct spaa_error *err)
{
	for (;;) {
		size_t out_space = space;
		size_t avail, produced;
		int ret;

		if (src->raw_pos == src->raw_len && !src->raw_eof &&
		    refill_raw(src, err))
			return -1;
		avail = src->raw_len - src->raw_pos;
		if (!avail) {
			if (src->gz_between)
				return 0;
			return source_fail(src, err, SPAA_E_DECOMPRESS,
					   "truncated gzip stream");
		}
		if (src->gz_between) {
			/*
			 * `cat a.gz b.gz` is a valid gzip file; anything
			 * else after a member is not, and silently
			 * ignoring it could hide a damaged file.
			 */
			if (avail < 2 && !src->raw_eof) {
				if (refill_raw(src, err))
					return -1;
				continue;
			}
			if (avail < 2 || src->raw[src->raw_pos] != 0x1f ||
			    src->raw[src->raw_pos + 1] != 0x8b)
				return source_fail(src, err, SPAA_E_DECOMPRESS,
						   "trailing garbage after gzip stream");
			if (inflateReset(&src->zs) != Z_OK)
				return source_fail(src, err, SPAA_E_INTERNAL,
						   "cannot reset zlib stream");
			src->gz_between = 0;
		}

		/* zlib counts in uInt */
		if (out_space > UINT_MAX)
			out_space = UINT_MAX;
		src->zs.next_in = src->raw + src->raw_pos;
		src->zs.avail_in = (uInt)avail;
		src->zs.next_out = (unsigned char *)out;
		src->zs.avail_out = (uInt)out_space;
		ret = inflate(&src->zs, Z_NO_FLUSH);
		src->raw_pos = src->raw_len - src->zs.avail_in;
		produced = out_space - src->zs.avail_out;
		if (ret == Z_STREAM_END) {
			src->gz_between = 1;
		} else if (ret != Z_OK &&
			   !(ret == Z_BUF_ERROR &&
			     (produced || src->zs.avail_in < avail))) {
			return source_fail(src, err, SPAA_E_DECOMPRESS,
					   "corrupt gzip data: %s",
					   src->zs.msg ? src->zs.msg : zError(ret));
		}
		if (produced)
			return (ssize_t)produced;
	}
}

static ssize_t fill_zstd(struct source *src, char *out, size_t space,
			 struct spaa_error *err)
{
	for (;;) {
		ZSTD_inBuffer zin;
		ZSTD_outBuffer zout;
		size_t ret;

		if (src->raw_pos == src->raw_len && !src->raw_eof &&
		    refill_raw(src, err))
			return -1;
		/*
		 * With no input left, a decoder that last said 0 is
		 * between frames; asking it again would return a hint
		 * for the next frame's header.
		 */
		if (src->raw_pos == src->raw_len && !src->zret)
			return 0;
		zin.src = src->raw;
		zin.size = src->raw_len;
		zin.pos = src->raw_pos;
		zout.dst = out;
		zout.size = space;
		zout.pos = 0;
		/*
		 * Called even with no input left: the decoder may still
		 * hold output that did not fit last time.
		 */
		ret = ZSTD_decompressStream(src->zd, &zout, &zin);
		if (ZSTD_isError(ret) &&
		    ZSTD_getErrorCode(ret) == ZSTD_error_frameParameter_windowTooLarge)
			return source_fail(src, err, SPAA_E_LIMIT,
					   "the zstd frame needs a window of more than %llu MiB, the limit (SPAA_MAX_ZSTD_WINDOW, in bytes, up to 2 GiB, raises it)",
					   (unsigned long long)((uint64_t)1 << window_log(src->max_window)) >> 20);
		if (ZSTD_isError(ret))
			return source_fail(src, err, SPAA_E_DECOMPRESS,
					   "corrupt zstd data: %s",
					   ZSTD_getErrorName(ret));
		src->raw_pos = zin.pos;
		src->zret = ret;
		if (zout.pos)
			return (ssize_t)zout.pos;
		/* nonzero: the frame wants input the file does not have */
		if (src->raw_pos == src->raw_len && src->raw_eof && src->zret)
			return source_fail(src, err, SPAA_E_DECOMPRESS,
					   "truncated zstd stream");
	}
}

static ssize_t source_fill(struct source *src, char *out, size_t space,
			   struct spaa_error *err)
{
	switch (src->comp) {
	case SPAA_INPUT_COMP_GZIP:
		return fill_gzip(src, out, space, err);
	case SPAA_INPUT_COMP_ZSTD:
		return fill_zstd(src, out, space, err);
	case SPAA_INPUT_COMP_NONE:
	default:
		return fill_plain(src, out, space, err);
	}
}

/* ---- the decoding thread ---- */

/*
 * The line feeds in [p, end): memchr across lines, a byte at a time
 * through a run of empty ones (a call each would cost more).
 */
static uint64_t count_lf(const char *p, const char *end)
{
	uint64_t n = 0;

	for (; p < end; p++, n++)
		if (*p != '\n' && !(p = memchr(p, '\n', (size_t)(end - p))))
			break;
	return n;
}

/*
 * Decodes the next block into b; count: nobody will scan it, so its
 * line feeds are counted here (see pipe_block).
 */
static void pipeline_fill_block(struct spaa_input *in, struct pipe_block *b, int count)
{
	struct pipeline *pl = in->pipe;
	ssize_t r = 1;

	/* a block at a time: few hand-overs, each worth the lock */
	b->len = b->pos = 0;
	while (b->len < PIPE_BLOCK / 2) {
		r = source_fill(&in->src, b->data + b->len, PIPE_BLOCK - b->len, &b->err);
		if (r <= 0)
			break;
		b->len += (size_t)r;
	}
	b->end = r < 0 ? -1 : r == 0 ? 1 : 0;
	b->bytes_read = in->src.bytes_read;
	b->nscans = 0;
	b->partial = pl->scan_partial;
	b->counted = count;
	if (count)
		b->nlf = count_lf(b->data, b->data + b->len);
	if (b->len)
		pl->scan_partial = b->data[b->len - 1] != '\n';
}

/*
 * Runs the scanner over the lines that lie wholly in block b (a line
 * that began in an earlier block is left to the reader), each record
 * with its line's number in the block, and counts the block's line
 * feeds; ahead: on a thread other than the reader's, the only one that
 * gets the scanner's block state (input.h).
 */
static void pipeline_scan(struct pipeline *pl, struct pipe_block *b,
			  const struct spaa_input_scanner *scan, size_t stride,
			  bool ahead)
{
	const char *p = b->data, *end = b->data + b->len;
	uint64_t lineno = 0;
	void *state = NULL;

	b->nscans = 0;
	if (ahead && scan->block_new && !b->scan_block)
		b->scan_block = scan->block_new(scan->ctx);
	else if (ahead && scan->block_reset && b->scan_block)
		scan->block_reset(scan->ctx, b->scan_block);
	if (ahead)
		state = b->scan_block;
	if (b->partial) {
		const char *nl = memchr(p, '\n', b->len);

		if (!nl)
			goto out;
		lineno++;
		p = nl + 1;
	}
	for (const char *nl; p < end; p = nl + 1) {
		size_t len;
		unsigned char *e;

		lineno++;
		if (*p == '\n') {
			nl = p;
			continue;
		}
		if (!(nl = memchr(p, '\n', (size_t)(end - p)))) {
			lineno--;       /* the next block ends this line */
			break;
		}
		len = (size_t)(nl - p);
		if (len && p[len - 1] == '\r')
			len--;
		SPAA_ALLOC_GROW(b->scans, (b->nscans + 1) * stride, b->scans_alloc);
		e = b->scans + b->nscans * stride;
		if (scan->scan(scan->ctx, state, p, len, e + sizeof(struct scan_head))) {
			struct scan_head h = { lineno, (uint64_t)(nl - b->data) };

			memcpy(e, &h, sizeof(h));
			b->nscans++;
		}
	}
	if (scan->batch && b->nscans) {
		pthread_mutex_lock(&pl->scan_lock);
		scan->batch(scan->ctx, b->scans + sizeof(struct scan_head), b->nscans, stride);
		pthread_mutex_unlock(&pl->scan_lock);
	}
out:
	b->nlf = lineno;
	b->counted = 1;
}

/*
 * The newest full block the reader has not taken, or NULL; under lock.
 * Newest: the reader comes to the oldest first, and a block it reaches
 * while it is being scanned costs it a wait.
 */
static struct pipe_block *pipeline_unscanned(struct pipeline *pl)
{
	for (unsigned i = pl->count; i-- > 0;) {
		struct pipe_block *b = &pl->blocks[(pl->head + i) % pl->nblocks];

		if (b->state == BLOCK_FULL)
			return b;
	}
	return NULL;
}

/* Scans block b, taken from the ring under the lock, which it holds. */
static void pipeline_scan_taken(struct spaa_input *in, struct pipe_block *b)
{
	struct pipeline *pl = in->pipe;
	struct spaa_input_scanner scan = in->scan;
	size_t stride = in->scan_stride;

	b->state = BLOCK_SCANNING;
	pthread_mutex_unlock(&pl->lock);
	pipeline_scan(pl, b, &scan, stride, true);
	pthread_mutex_lock(&pl->lock);
	b->state = BLOCK_SCANNED;
	pthread_cond_broadcast(&pl->changed);
}

/* The decoding thread: fills blocks in order, scans when the ring is full. */
static void *pipeline_run(void *arg)
{
	struct spaa_input *in = arg;
	struct pipeline *pl = in->pipe;
	unsigned tail = 0;

	pthread_mutex_lock(&pl->lock);
	while (!pl->stop) {
		struct pipe_block *b;

		if (!pl->ended && pl->count < pl->nblocks) {
			int count = !in->scanning;

			b = &pl->blocks[tail];
			pthread_mutex_unlock(&pl->lock);
			pipeline_fill_block(in, b, count);
			pthread_mutex_lock(&pl->lock);
			b->state = BLOCK_FULL;
			pl->ended = b->end != 0;
			tail = (tail + 1) % pl->nblocks;
			pl->count++;
			pthread_cond_broadcast(&pl->changed);
		} else if (in->scanning && (b = pipeline_unscanned(pl))) {
			pipeline_scan_taken(in, b);
		} else if (pl->ended) {
			break;
		} else {
			pthread_cond_wait(&pl->changed, &pl->lock);
		}
	}
	pthread_mutex_unlock(&pl->lock);
	return NULL;
}

/* A scanning thread: scans full blocks until the last one is decoded. */
static void *pipeline_scan_run(void *arg)
{
	struct spaa_input *in = arg;
	struct pipeline *pl = in->pipe;

	pthread_mutex_lock(&pl->lock);
	while (!pl->stop) {
		struct pipe_block *b;

		if (in->scanning && (b = pipeline_unscanned(pl)))
			pipeline_scan_taken(in, b);
		else if (pl->ended)
			break;
		else
			pthread_cond_wait(&pl->changed, &pl->lock);
	}
	pthread_mutex_unlock(&pl->lock);
	return NULL;
}

static void pipeline_free(struct pipeline *pl, const struct spaa_input_scanner *scan);

/*
 * Starts decoding in a thread, and with a scanner set and more than two
 * threads allowed (the caller's, the decoding one) scanning threads for
 * the rest; returns -1 (and reading stays inline) if the decoding thread
 * cannot start.  Fewer scanning threads than asked for is no error.
 */
static int pipeline_start(struct spaa_input *in)
{
	struct pipeline *pl = spaa_xcalloc(1, sizeof(*pl));
	unsigned want = in->scanning && in->threads > 2 ? in->threads - 2 : 0;

	pl->nblocks = PIPE_BLOCKS_MIN;
	if (want + 3 > pl->nblocks)
		pl->nblocks = want + 3 < PIPE_BLOCKS_MAX ? want + 3 : PIPE_BLOCKS_MAX;
	if (want > pl->nblocks - 3)
		want = pl->nblocks - 3;
	/* no thread: the reader fills, scans and reads one block at a time */
	pl->sync = in->threads < 2;
	if (pl->sync)
		pl->nblocks = 1;
	pl->blocks = spaa_xcalloc(pl->nblocks, sizeof(*pl->blocks));
	for (unsigned i = 0; i < pl->nblocks; i++)
		pl->blocks[i].data = spaa_xmalloc(PIPE_BLOCK);
	pthread_mutex_init(&pl->lock, NULL);
	pthread_mutex_init(&pl->scan_lock, NULL);
	pthread_cond_init(&pl->changed, NULL);
	/*
	 * Where the thread starts: after the lines returned so far (sniffing
	 * may have read a short one) and what is buffered.
	 */
	pl->lineno = in->lineno + count_lf(in->buf + in->pos, in->buf + in->len);
	pl->scan_partial = in->len > in->pos && in->buf[in->len - 1] != '\n';
	in->pipe = pl;
	if (pl->sync)
		return 0;
	if (spaa_output_thread_create(&pl->thread, pipeline_run, in)) {
		in->pipe = NULL;
		pipeline_free(pl, NULL);
		return -1;
	}
	pl->scanners = spaa_xcalloc(want + 1, sizeof(*pl->scanners));
	while (pl->nscanners < want &&
	       !spaa_output_thread_create(&pl->scanners[pl->nscanners],
					  pipeline_scan_run, in))
		pl->nscanners++;
	return 0;
}

/*
 * Stops and joins the threads (those started), frees pl and the states
 * scan made for its blocks (scan: NULL when none); accepts NULL.
 */
static void pipeline_free(struct pipeline *pl, const struct spaa_input_scanner *scan)
{
	if (!pl)
		return;
	pthread_mutex_lock(&pl->lock);
	pl->stop = 1;
	pthread_cond_broadcast(&pl->changed);
	pthread_mutex_unlock(&pl->lock);
	if (pl->scanners) {     /* set once the decoding thread runs */
		pthread_join(pl->thread, NULL);
		for (unsigned i = 0; i < pl->nscanners; i++)
			pthread_join(pl->scanners[i], NULL);
	}
	pthread_mutex_destroy(&pl->lock);
	pthread_mutex_destroy(&pl->scan_lock);
	pthread_cond_destroy(&pl->changed);
	for (unsigned i = 0; i < pl->nblocks; i++) {
		free(pl->blocks[i].data);
		free(pl->blocks[i].scans);
		if (pl->blocks[i].scan_block && scan && scan->block_free)
			scan->block_free(scan->ctx, pl->blocks[i].scan_block);
	}
	free(pl->blocks);
	free(pl->scanners);
	free(pl);
}

/* Copies decoded bytes from the next full block: like source_fill. */
static ssize_t pipeline_fill(struct spaa_input *in, char *out, size_t space,
			     struct spaa_error *err)
{
	struct pipeline *pl = in->pipe;
	struct pipe_block *b;
	size_t n;

	pthread_mutex_lock(&pl->lock);
	if (pl->held) {
		/* every line wholly in it has been returned: see input_fill */
		pl->held = 0;
		pl->reading = 0;
		pl->cursor = 0;
		pl->head = (pl->head + 1) % pl->nblocks;
		pl->count--;
		pthread_cond_broadcast(&pl->changed);
	}
	if (pl->sync && !pl->count) {
		/* no thread: fill and scan the one block here, in order */
		b = &pl->blocks[pl->head];
		pipeline_fill_block(in, b, !in->scanning);
		if (in->scanning)
			pipeline_scan(pl, b, &in->scan, in->scan_stride, false);
		b->state = BLOCK_SCANNED;
		pl->ended = b->end != 0;
		pl->count = 1;
	}
	while (!pl->count ||
	       (!pl->reading && pl->blocks[pl->head].state == BLOCK_SCANNING))
		pthread_cond_wait(&pl->changed, &pl->lock);
	b = &pl->blocks[pl->head];
	if (!pl->reading) {
		int scan = in->scanning && b->state == BLOCK_FULL;

		pl->reading = 1;
		b->state = BLOCK_TAKEN;
		pthread_mutex_unlock(&pl->lock);
		if (scan)
			pipeline_scan(pl, b, &in->scan, in->scan_stride, false);
		else if (!b->counted)   /* filled before the scanner was set */
			b->nlf = count_lf(b->data, b->data + b->len);
		b->lineno = pl->lineno;
		pl->lineno += b->nlf;
	} else {
		pthread_mutex_unlock(&pl->lock);
	}
	n = b->len - b->pos < space ? b->len - b->pos : space;
	if (in->direct) {
		/*
		 * Only what completes the unfinished line in buf: the lines
		 * after it are returned from the block itself (pipe_line).
		 */
		const char *nl = memchr(b->data + b->pos, '\n', n);

		if (nl)
			n = (size_t)(nl - (b->data + b->pos)) + 1;
	}
	memcpy(out, b->data + b->pos, n);
	b->pos += n;
	in->bytes_read = b->bytes_read;
	if (b->pos < b->len)
		return (ssize_t)n;
	if (b->end) {
		/* the last block stays: later calls see the end again */
		if (n)
			return (ssize_t)n;
		if (b->end < 0) {
			*err = b->err;
			return -1;
		}
		return 0;
	}
	pl->held = 1;
	return (ssize_t)n;
}

/*
 * Appends decoded data after [pos, len).  Returns the number of bytes
 * added, 0 at the end of the stream, -1 on error (recorded on in).
 */
static ssize_t input_fill(struct spaa_input *in, struct spaa_error *err)
{
	size_t pending = in->len - in->pos;
	struct spaa_error e;
	ssize_t r;

	/*
	 * Only an unfinished line is left (we fill when it has no LF), so
	 * this moves less than one line per chunk.
	 */
	if (in->pos) {
		if (pending)
			memmove(in->buf, in->buf + in->pos, pending);
		in->pos = 0;
		in->len = pending;
	}
	if (in->len == in->cap) {
		/*
		 * One line fills the buffer.  The caller has checked it is
		 * at most max_line + 1 bytes (with a CR), so growing to
		 * max_line + 2 always leaves room to see the next byte.
		 */
		size_t limit = in->max_line + 2;
		size_t ncap = in->cap <= limit / 2 ? in->cap * 2 : limit;

		in->buf = spaa_xrealloc(in->buf, ncap + 1);
		in->cap = ncap;
	}
	spaa_error_init(&e);
	if (in->want_pipe && !in->peeking) {
		/*
		 * Started at the first read rather than at open, and not by
		 * a peek (which reads what it wants inline), so that a
		 * scanner set in between sees every block but the peeked
		 * bytes: what tells the format is not a block.
		 */
		in->want_pipe = 0;
		/* one thread: blocks pay only for a scanner's look-ahead */
		if (in->threads > 1 || in->scanning)
			(void)pipeline_start(in);
	}
	if (in->pipe) {
		r = pipeline_fill(in, in->buf + in->len, in->cap - in->len, &e);
	} else {
		size_t space = in->cap - in->len;

		if (in->want_pipe && space > in->peeking)
			space = in->peeking;
		r = source_fill(&in->src, in->buf + in->len, space, &e);
		in->bytes_read = in->src.bytes_read;
	}
	if (r < 0) {
		/*
		 * Read and decompression errors name the line being read:
		 * every line before it came out whole (the decoding thread
		 * runs ahead, but its error is seen only after its data).
		 */
		if (!e.line && strcmp(e.code, SPAA_E_INTERNAL)) {
			e.line = in->lineno + 1;
			in->fill_failed = 1;
		}
		in->saved = e;
		in->failed = 1;
		if (err)
			*err = e;
		return -1;
	}
	in->len += (size_t)r;
	return r;
}

static int line_too_long(struct spaa_input *in, struct spaa_error *err)
{
	return input_fail(in, err, SPAA_E_LIMIT, in->lineno + 1,
			  "line %lu is longer than %zu bytes (SPAA_MAX_LINE)", in->lineno + 1,
			  in->max_line);
}

/* Whether the buffer still holds a whole line to return before the error. */
static int line_before_error(const struct spaa_input *in)
{
	return in->fill_failed &&
	       memchr(in->buf + in->pos, '\n', in->len - in->pos) != NULL;
}

/*
 * The LF of the line after the last one returned, where the scan of
 * head block b found it (from start, the line's first byte, on), or NULL
 * when the line has no scan entry (the scanner left it, or none is set).
 * Entries of lines returned before are passed, as spaa_input_scanned
 * passes them.
 */
static char *scanned_lf(struct spaa_input *in, struct pipeline *pl, struct pipe_block *b,
			const char *start)
{
	struct scan_head h;

	for (; pl->cursor < b->nscans; pl->cursor++) {
		memcpy(&h, b->scans + pl->cursor * in->scan_stride, sizeof(h));
		if (b->lineno + h.lineno > in->lineno)
			break;
	}
	if (pl->cursor >= b->nscans || b->lineno + h.lineno != in->lineno + 1 ||
	    h.lf < (uint64_t)(start - b->data) || h.lf >= b->len || b->data[h.lf] != '\n')
		return NULL;
	return b->data + h.lf;
}

/*
 * The next line from the head block of the decoding thread, in place,
 * when buf holds nothing and the block holds the whole line: returns 1
 * as getline does, 0 when the line must go through buf (no block taken,
 * or the rest of the block is the start of a line).  Every line but one
 * per block is returned so, without copying it out of the block, which
 * stays until the next fill, as do the scanner records of its lines.
 */
static int pipe_line(struct spaa_input *in, char **line, size_t *len,
		     struct spaa_error *err)
{
	struct pipeline *pl = in->pipe;
	struct pipe_block *b;
	char *start, *nl;
	size_t n;

	if (!pl || !pl->reading || pl->held || in->pos != in->len || in->failed)
		return 0;
	b = &pl->blocks[pl->head];
	start = b->data + b->pos;
	if (!(nl = scanned_lf(in, pl, b, start)) &&
	    !(nl = memchr(start, '\n', b->len - b->pos)))
		return 0;
	n = (size_t)(nl - start);
	b->pos += n + 1;
	if (b->pos == b->len && !b->end)
		pl->held = 1;   /* all returned: released by the next fill */
	if (n && start[n - 1] == '\r')
		n--;
	if (n > in->max_line)
		return line_too_long(in, err);
	start[n] = '\0';
	in->lineno++;
	*line = start;
	*len = n;
	return 1;
}

int spaa_input_getline(struct spaa_input *in, char **line, size_t *len,
		       struct spaa_error *err)
{
	int direct;

	in->direct = 1;
	if ((direct = pipe_line(in, line, len, err)))
		return direct;

	if (in->failed && !line_before_error(in)) {
		if (in->fill_failed)
			in->saved.line = in->lineno + 1;
		if (err)
			*err = in->saved;
		return -1;
	}
	for (;;) {
		char *start = in->buf + in->pos;
		size_t avail = in->len - in->pos;
		char *nl = memchr(start + in->scanned, '\n',
				  avail - in->scanned);
		size_t n;
		ssize_t r;

		if (nl) {
			n = (size_t)(nl - start);
			in->pos += n + 1;
			in->scanned = 0;
			if (n && start[n - 1] == '\r')
				n--;
			if (n > in->max_line)
				return line_too_long(in, err);
			start[n] = '\0';
			in->lineno++;
			*line = start;
			*len = n;
			return 1;
		}
		in->scanned = avail;
		/*
		 * Checked before reading more, so memory stays near
		 * max_line however long the hostile line is.  One byte of
		 * slack for a CR whose LF has not arrived yet.
		 */
		if (avail > in->max_line + (avail && start[avail - 1] == '\r'))
			return line_too_long(in, err);
		if (in->eof) {
			if (!avail)
				return 0;
			if (avail > in->max_line)
				return line_too_long(in, err);
			/* final line without LF; buf[len] is spare */
			start[avail] = '\0';
			in->pos = in->len;
			in->scanned = 0;
			in->lineno++;
			*line = start;
			*len = avail;
			return 1;
		}
		r = input_fill(in, err);
		if (r < 0)
			return -1;
		if (!r)
			in->eof = 1;
	}
}

/*
 * The blank lines at the start of [p, end) that end in it, none longer
 * than max_line (getline's to report): how many, *next after them.
 */
static unsigned long blank_run(const char *p, const char *end, size_t max_line,
			       const char **next)
{
	const char *line = p;
	unsigned long n = 0;

	while (p < end) {
		if (*p == '\n') {
			if ((size_t)(p - line) > max_line + 1)
				break;
			line = ++p;
			n++;
		} else if (*p == ' ' || *p == '\t' || *p == '\r') {
			p++;
		} else {
			break;
		}
	}
	*next = line;
	return n;
}

unsigned long spaa_input_skip_blank(struct spaa_input *in)
{
	struct pipeline *pl = in->pipe;
	const char *next;
	unsigned long n = blank_run(in->buf + in->pos, in->buf + in->len, in->max_line, &next);

	if (n) {
		in->pos = (size_t)(next - in->buf);
		in->scanned = 0;
		in->lineno += n;
	}
	/* buf empty: the lines getline returns from the head block (pipe_line) */
	if (in->pos == in->len && in->direct && pl && pl->reading && !pl->held && !in->failed) {
		struct pipe_block *b = &pl->blocks[pl->head];
		unsigned long m = blank_run(b->data + b->pos, b->data + b->len, in->max_line, &next);

		if (m) {
			b->pos = (size_t)(next - b->data);
			if (b->pos == b->len && !b->end)
				pl->held = 1;   /* all returned: released by the next fill */
			in->lineno += m;
			n += m;
		}
	}
	return n;
}

/* A buffer of size bytes: one a closed input left (spares.h), or new. */
static char *buf_new(struct spaa_input *in, size_t size)
{
	char *b = spaa_spares_take_buf(in->spares, size);

	return b ? b : spaa_xmalloc(size);
}

/*
 * Reads until the first 4 bytes are in (a pipe may deliver fewer per
 * read) or the input ends, then picks the decoder from the magic.
 */
static int input_sniff(struct spaa_input *in, struct spaa_error *err)
{
	static const unsigned char zstd_magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };
	const unsigned char *b = (const unsigned char *)in->buf;

	/*
	 * Only the magic: the rest is for the decoding thread, if any.  A
	 * small file, read inline, is read at once (one read(2), not two).
	 */
	while (in->len < 4 && !in->src.raw_eof) {
		struct spaa_error e;
		ssize_t r = source_read(&in->src, in->buf + in->len,
					in->small ? in->cap - in->len : 4 - in->len, &e);

		if (r < 0)
			return input_fail(in, err, e.code, in->lineno + 1, "%s", e.msg);
		in->len += (size_t)r;
		in->bytes_read = in->src.bytes_read;
	}
	/*
	 * A skippable frame (magic 0x184D2A5?, little-endian) may come
	 * first: pzstd starts every frame with one.
	 */
	if (in->len >= 4 && (!memcmp(b, zstd_magic, 4) ||
			     ((b[0] & 0xf0) == 0x50 && b[1] == 0x2a &&
			      b[2] == 0x4d && b[3] == 0x18)))
		in->src.comp = SPAA_INPUT_COMP_ZSTD;
	else if (in->len >= 2 && b[0] == 0x1f && b[1] == 0x8b)
		in->src.comp = SPAA_INPUT_COMP_GZIP;
	else
		return 0;

	/* What was read is compressed: it becomes the raw buffer. */
	in->src.raw = (unsigned char *)in->buf;
	in->src.raw_alloc = in->cap + 1;
	in->src.raw_len = in->len;
	in->src.raw_pos = 0;
	in->buf = buf_new(in, in->cap + 1);
	in->len = 0;

	if (in->src.comp == SPAA_INPUT_COMP_GZIP) {
		/* 15 + 16: gzip wrapper only; we know it is gzip */
		int ret = inflateInit2(&in->src.zs, 15 + 16);

		if (ret != Z_OK)
			return input_fail(in, err, SPAA_E_INTERNAL, 0,
					  "cannot initialise zlib: %s",
					  zError(ret));
		in->src.zs_live = 1;
	} else {
		size_t ret;

		in->src.zd = spaa_spares_take_zstd(in->spares);
		if (!in->src.zd)
			in->src.zd = ZSTD_createDCtx();
		if (!in->src.zd)
			return input_fail(in, err, SPAA_E_INTERNAL, 0,
					  "cannot create zstd context");
		ret = ZSTD_DCtx_setParameter(in->src.zd, ZSTD_d_windowLogMax,
					     window_log(in->src.max_window));
		if (ZSTD_isError(ret))
			return input_fail(in, err, SPAA_E_INTERNAL, 0,
					  "cannot configure zstd: %s",
					  ZSTD_getErrorName(ret));
		in->src.zret = 1;   /* a frame has started: its magic is here */
	}
	return 0;
}

static struct spaa_input *input_new(const char *name,
				    const struct spaa_input_opts *opts)
{
	struct spaa_input *in = spaa_xcalloc(1, sizeof(*in));

	in->spares = opts ? opts->spares : NULL;
	in->src.fd = -1;
	in->name = spaa_xstrdup(name);
	in->src.name = in->name;
	in->max_line = opts && opts->max_line ? opts->max_line
		: SPAA_INPUT_MAX_LINE_DEFAULT;
	if (in->max_line > INPUT_MAX_LINE_LIMIT)
		in->max_line = INPUT_MAX_LINE_LIMIT;
	in->src.max_window = opts && opts->max_window ? opts->max_window
		: SPAA_INPUT_MAX_WINDOW_DEFAULT;
	return in;
}

int spaa_input_open_fd(struct spaa_input **out, int fd, const char *name,
		       const struct spaa_input_opts *opts, struct spaa_error *err)
{
	struct spaa_input *in = input_new(name, opts);

	*out = NULL;
	in->src.fd = fd;
	in->own_fd = 1;
	in->cap = INPUT_CHUNK;
	in->buf = buf_new(in, in->cap + 1);
	if (input_sniff(in, err)) {
		spaa_input_close(in);
		return -1;
	}
	*out = in;
	return 0;
}

int spaa_input_open(struct spaa_input **out, const char *path,
		    const struct spaa_input_opts *opts, struct spaa_error *err)
{
	struct spaa_input *in;
	struct stat st;
	bool regular, small;

	*out = NULL;
	in = input_new(path, opts);
	if (!strcmp(path, "-")) {
		in->src.fd = STDIN_FILENO;
	} else {
		/*
		 * open(2) of a directory succeeds (fstat below tells it);
		 * when it fails, the error should still say what the path
		 * is, not how reading it failed.  No stat before: a
		 * directory of small files pays each system call a file.
		 */
		in->src.fd = open(path, O_RDONLY | O_CLOEXEC);
		if (in->src.fd < 0) {
			int e = errno;

			if (!stat(path, &st) && S_ISDIR(st.st_mode))
				spaa_error_at(err, SPAA_E_IO, path, 0, "is a directory");
			else
				spaa_error_path(err, path, e);
			goto fail;
		}
		in->own_fd = 1;
	}
	if (fstat(in->src.fd, &st)) {
		spaa_error_path(err, path, errno);
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		spaa_error_at(err, SPAA_E_IO, path, 0, "is a directory");
		goto fail;
	}
	regular = in->own_fd && S_ISREG(st.st_mode);
	small = regular && (uint64_t)st.st_size < (opts && opts->thread_min ? opts->thread_min
						  : SPAA_INPUT_THREAD_MIN_DEFAULT);
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		/* stdin may already be partly read: progress is from here */
		off_t at = in->own_fd ? 0 : lseek(in->src.fd, 0, SEEK_CUR);

		if (at < 0 || at > st.st_size)
			at = 0;
		in->size = (uint64_t)(st.st_size - at);
		/* a small file is read at once: nothing to say about the order */
		if (!small)
			(void)posix_fadvise(in->src.fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	}

	in->cap = INPUT_CHUNK;
	in->buf = buf_new(in, in->cap + 1);
	in->small = small;
	if (input_sniff(in, err))
		goto fail;
	/* a plain file has no decoding to overlap: inline for longer (input.h) */
	if (regular && !small && !(opts && opts->thread_min) &&
	    in->src.comp == SPAA_INPUT_COMP_NONE && (uint64_t)st.st_size < SPAA_INPUT_THREAD_MIN_PLAIN)
		in->small = 1;
	/*
	 * Decompression, and the read(2) calls of a plain file (their copy
	 * out of the page cache is a tenth of an analysis' time), get a
	 * thread of their own, except on stdin: a pipe may block in read(2)
	 * forever, and closing early would then wait for it, and except on
	 * a small file (input.h).  If the thread cannot start, reading stays
	 * inline.
	 */
	in->threads = opts && opts->threads ? opts->threads : 2;
	in->want_pipe = in->own_fd && S_ISREG(st.st_mode) && !in->small &&
		(in->threads > 1 || in->size >= SPAA_INPUT_SYNC_MIN ||
		 (opts && opts->thread_min == 1));
	*out = in;
	return 0;
fail:
	spaa_input_close(in);
	return -1;
}

int spaa_input_peek(struct spaa_input *in, size_t want, const char **data,
		    size_t *len, struct spaa_error *err)
{
	if (in->failed && !line_before_error(in)) {
		if (err)
			*err = in->saved;
		return -1;
	}
	/* input_fill moves [pos, len) to the front: nothing returned is lost */
	while (!in->failed && !in->eof && in->len - in->pos < want &&
	       (in->pos || in->len < in->cap)) {
		ssize_t r;

		in->peeking = want - (in->len - in->pos);
		r = input_fill(in, NULL);
		in->peeking = 0;

		if (r < 0 && !line_before_error(in)) {
			if (err)
				*err = in->saved;
			return -1;
		}
		if (r < 0)
			break;      /* getline returns those lines, then the error */
		if (!r)
			in->eof = 1;
	}
	*data = in->buf + in->pos;
	*len = in->len - in->pos;
	return 0;
}

int spaa_input_read(struct spaa_input *in, void *buf, size_t n, size_t *got,
		    struct spaa_error *err)
{
	char *out = buf;

	*got = 0;
	while (*got < n) {
		size_t avail = in->len - in->pos, k = n - *got;
		ssize_t r;

		if (avail) {
			if (k > avail)
				k = avail;
			memcpy(out + *got, in->buf + in->pos, k);
			in->pos += k;
			*got += k;
			in->scanned = 0;
			continue;
		}
		if (in->eof)
			break;
		r = in->failed ? -1 : input_fill(in, NULL);
		if (r < 0) {
			if (err) {
				*err = in->saved;
				err->line = 0;  /* a binary input has no lines */
			}
			return -1;
		}
		if (!r)
			in->eof = 1;
	}
	return 0;
}

int spaa_input_chunk(struct spaa_input *in, const char **data, size_t *len,
		     struct spaa_error *err)
{
	while (in->pos == in->len) {
		ssize_t r;

		if (in->eof)
			return 0;
		r = in->failed ? -1 : input_fill(in, NULL);
		if (r < 0) {
			if (err) {
				*err = in->saved;
				err->line = 0;  /* the reader knows where it is */
			}
			return -1;
		}
		if (!r)
			in->eof = 1;
	}
	*data = in->buf + in->pos;
	*len = in->len - in->pos;
	in->pos = in->len;
	in->scanned = 0;
	return 1;
}

int spaa_input_set_scanner(struct spaa_input *in,
			   const struct spaa_input_scanner *s)
{
	struct pipeline *pl = in->pipe;

	if ((!pl && !in->want_pipe) || in->scanning) {
		if (s->free_ctx)
			s->free_ctx(s->ctx);
		return 0;
	}
	if (pl)
		pthread_mutex_lock(&pl->lock);
	in->scan = *s;
	in->scanning = 1;
	in->scan_stride = sizeof(struct scan_head) + (s->rec_size + 7) / 8 * 8;
	if (pl)
		pthread_mutex_unlock(&pl->lock);
	return 1;
}

/*
 * The block whose records go with the lines getline returns now (the
 * head block), and its cursor; NULL if none.
 */
static const struct pipe_block *scan_block(const struct spaa_input *in, const size_t **cursor)
{
	const struct pipeline *pl = in->pipe;

	if (!pl || !in->scanning || !pl->reading)
		return NULL;
	*cursor = &pl->cursor;
	return &pl->blocks[pl->head];
}

/* Entry cursor + k of the current block, or NULL. */
static const unsigned char *scan_entry(const struct spaa_input *in, size_t k)
{
	const size_t *cursor;
	const struct pipe_block *b = scan_block(in, &cursor);

	if (!b || *cursor + k >= b->nscans)
		return NULL;
	return b->scans + (*cursor + k) * in->scan_stride;
}

const void *spaa_input_scanned(struct spaa_input *in)
{
	const unsigned char *e;
	uint64_t line;

	/* records are in line order and lines are read in order */
	while ((e = scan_entry(in, 0))) {
		memcpy(&line, e + offsetof(struct scan_head, lineno), sizeof(line));
		line += in->pipe->blocks[in->pipe->head].lineno;
		if (line > in->lineno)
			return NULL;
		in->pipe->cursor++;
		if (line == in->lineno)
			return e + sizeof(struct scan_head);
	}
	return NULL;
}

const void *spaa_input_scanned_ahead(const struct spaa_input *in, size_t k)
{
	const unsigned char *e = k ? scan_entry(in, k - 1) : NULL;

	return e ? e + sizeof(struct scan_head) : NULL;
}

unsigned long spaa_input_lineno(const struct spaa_input *in)
{
	return in->lineno;
}

const char *spaa_input_name(const struct spaa_input *in)
{
	return in->name;
}

enum spaa_input_comp spaa_input_compression(const struct spaa_input *in)
{
	return in->src.comp;
}

uint64_t spaa_input_bytes_read(const struct spaa_input *in)
{
	return in->bytes_read;
}

bool spaa_input_inline(const struct spaa_input *in)
{
	return in->small && in->size;
}

void spaa_input_readahead(struct spaa_input *in)
{
	if (in->own_fd && in->size)
		(void)posix_fadvise(in->src.fd, 0, 0, POSIX_FADV_WILLNEED);
}

uint64_t spaa_input_size(const struct spaa_input *in)
{
	return in->size;
}

void spaa_input_close(struct spaa_input *in)
{
	if (!in)
		return;
	pipeline_free(in->pipe, in->scanning ? &in->scan : NULL);
	if (in->scanning && in->scan.free_ctx)
		in->scan.free_ctx(in->scan.ctx);
	if (in->own_fd && in->src.fd >= 0)
		close(in->src.fd);
	if (in->src.zs_live)
		inflateEnd(&in->src.zs);
	spaa_spares_put_zstd(in->spares, in->src.zd);
	spaa_spares_put_buf(in->spares, in->src.raw, in->src.raw_alloc);
	/* a buffer grown for a long line is of no use to the next file */
	if (in->cap == INPUT_CHUNK)
		spaa_spares_put_buf(in->spares, in->buf, in->cap + 1);
	else
		free(in->buf);
	free(in->name);
	free(in);
}
