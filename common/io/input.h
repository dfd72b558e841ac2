/*
 * input - opening profiles and reading them line by line.
 *
 * A path is a regular file, a directory (every profile inside it), or "-"
 * for standard input.  Compression is recognised by magic bytes, never by
 * name: zstd (28 B5 2F FD, or a skippable frame 5x 2A 4D 18 as pzstd
 * writes first), gzip (1F 8B), anything else is plain text.
 * Decompression streams through a fixed buffer, so memory does not grow
 * with the file.  A compressed stream that ends early, holds corrupt data
 * or is followed by garbage is an error: short data is never passed on as
 * if it were the whole file.  Concatenated gzip members and zstd frames
 * (what `cat a.gz b.gz` makes) are read as one stream.
 *
 * Lines end at LF; a CR before the LF is dropped.  A final line without LF
 * is returned as a line.  A line longer than the configured maximum is an
 * error naming the line number (memory stays bounded on hostile input).
 */
#ifndef SPAA_INPUT_H
#define SPAA_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/error.h"

struct spaa_spares;

/* Default bound on one line, in bytes (spaa_input_opts.max_line). */
#define SPAA_INPUT_MAX_LINE_DEFAULT (64u << 20)
/* SPAA_MAX_ZSTD_WINDOW: bytes of a zstd window (see max_window) */
#define SPAA_INPUT_MAX_WINDOW_DEFAULT ((uint64_t)128 << 20)

enum spaa_input_comp {
	SPAA_INPUT_COMP_NONE,
	SPAA_INPUT_COMP_GZIP,
	SPAA_INPUT_COMP_ZSTD,
};

/*
 * A regular file of fewer bytes (compressed bytes when compressed) is
 * read and decoded inline, without the thread of spaa_input_open: for a
 * small file, starting the thread and mapping its blocks costs more than
 * the overlap saves.  Measured on single files (doc/PERFORMANCE.md,
 * "When a file gets a thread"): inline took 14 to 28 % less time than
 * with the thread from 300 KB to 900 KB, and 6 to 26 % more from 1.5
 * MB of zstd (12 MB decoded) on.
 */
#define SPAA_INPUT_THREAD_MIN_DEFAULT ((uint64_t)1 << 20)
/*
 * With the default, a file found not to be compressed is read inline
 * below this size: it has no decoding to overlap, and inline took 6 to
 * 8 % less wall time at 1.5 and 3 MB, 7 % more at 6 MB.
 */
#define SPAA_INPUT_THREAD_MIN_PLAIN ((uint64_t)4 << 20)
/*
 * With one thread (spaa_input_opts.threads 1), a regular file of this
 * many bytes or more (compressed bytes when compressed) that a scanner
 * is set on is still read in blocks, on the caller's thread: each block
 * is scanned whole before its lines are returned, so that the reader
 * can look ahead at the records to come and prefetch what they need.
 * On make bench's profiles that took 25 to 30 % less CPU time than
 * reading line by line; below some 6 MB it gained nothing, and on
 * files under 1 MB it cost up to 5 % (doc/PERFORMANCE.md, "One thread
 * in blocks").
 */
#define SPAA_INPUT_SYNC_MIN ((uint64_t)4 << 20)

struct spaa_input_opts {
	size_t max_line;        /* 0 = SPAA_INPUT_MAX_LINE_DEFAULT */
	/*
	 * Bytes of a zstd window (the decoder's buffer, which the frame
	 * chooses); a frame that needs more is SPAA_E_LIMIT.  0 =
	 * SPAA_INPUT_MAX_WINDOW_DEFAULT; values past zstd's maximum (2 GiB)
	 * mean that maximum.
	 */
	uint64_t max_window;
	/*
	 * 0 = SPAA_INPUT_THREAD_MIN_DEFAULT; 1: every regular file is read
	 * in blocks, with a thread unless threads is 1 (for tests)
	 */
	uint64_t thread_min;
	/*
	 * Threads the reading of one input may use, the caller's included:
	 * 1 keeps everything on the caller's thread (no decoding thread,
	 * whatever the size; SPAA_INPUT_SYNC_MIN says when it still reads
	 * in blocks); 2 (and 0, the default) is the caller and the
	 * decoding thread; each one more is a thread that runs the scanner
	 * (spaa_input_set_scanner) over decoded blocks.
	 */
	unsigned threads;
	/*
	 * Weak, may be NULL: where the input takes its buffers and zstd
	 * decoder from and leaves them at close, for the next input
	 * (spares.h; a load's files share one set).
	 */
	struct spaa_spares *spares;
};

struct spaa_input;

/*
 * Opens path ("-" = stdin, which is never closed by spaa_input_close) and
 * sniffs its compression.  On success *out is a new reader owned by the
 * caller (free with spaa_input_close).  Errors: SPAA_E_NOT_FOUND (no such
 * path), SPAA_E_IO (permission, a directory, read error), SPAA_E_INTERNAL
 * (the decompressor could not be set up).  opts may be NULL.
 */
int spaa_input_open(struct spaa_input **out, const char *path,
		    const struct spaa_input_opts *opts, struct spaa_error *err);

/*
 * Opens a reader of fd (a pipe: another program's output), named name in
 * messages; fd becomes the reader's and is closed by spaa_input_close.
 * Compression is sniffed as for a file; the reading stays on the
 * caller's thread.  Errors as spaa_input_open's for reading.
 */
int spaa_input_open_fd(struct spaa_input **out, int fd, const char *name,
		       const struct spaa_input_opts *opts, struct spaa_error *err);

/*
 * True when in is a regular file read in the caller's thread (smaller
 * than thread_min): reading it never blocks for long, and no decoding
 * thread will start.
 */
bool spaa_input_inline(const struct spaa_input *in);

/*
 * Asks the kernel to read the whole file into the page cache now, in
 * the background (posix_fadvise WILLNEED): called on the next file of a
 * directory while this one is parsed, so that its bytes are there when
 * its turn comes.  Does nothing on standard input or a pipe.
 */
void spaa_input_readahead(struct spaa_input *in);

/*
 * Reads the next line.  Returns 1 with *line (NUL-terminated, without the
 * line ending; weak: valid until the next call) and *len set; 0 at a clean
 * end of input; -1 on error (SPAA_E_IO, SPAA_E_DECOMPRESS, SPAA_E_LIMIT),
 * with err naming the file and line.  The line buffer may be modified by
 * the caller in place.  After 0 or -1, later calls return the same.
 */
int spaa_input_getline(struct spaa_input *in, char **line, size_t *len,
		       struct spaa_error *err);

/*
 * Skips the blank lines (only spaces, tabs and CRs before the LF) that
 * follow, as far as the bytes already decoded go, at the speed of a scan
 * for line feeds; they count as lines read (spaa_input_lineno).  Returns
 * how many; 0 when the next line is not blank or not decoded yet (the
 * next spaa_input_getline reads it, reporting any error and a blank
 * line past SPAA_MAX_LINE).  For readers that do the same with each
 * blank line, long runs of which would otherwise cost a call each.
 */
unsigned long spaa_input_skip_blank(struct spaa_input *in);

/*
 * Looks ahead without consuming anything: *data (weak: valid until the
 * next call on in) points at the decoded bytes not yet returned by
 * spaa_input_getline, at least want of them unless the input ends first
 * or the line buffer is full (a peek never grows it); *len says how many.
 * What a program uses to tell a format by content and then read the input
 * from its first line, stdin included.  Returns 0, or -1 like getline
 * (the error is then repeated by later calls).  A read or decompression
 * error met after whole lines is held back: the peek returns the data
 * before it, getline those lines, then the error naming the line after
 * them, as if nothing had been peeked.
 */
int spaa_input_peek(struct spaa_input *in, size_t want, const char **data,
		    size_t *len, struct spaa_error *err);

/*
 * Reads up to n decoded bytes into buf, as they are (no line structure:
 * for binary formats), after what peek and getline have left.  *got is n
 * unless the input ended.  Returns 0, or -1 like getline (SPAA_E_IO,
 * SPAA_E_DECOMPRESS) but naming no line: a binary input has none.
 */
int spaa_input_read(struct spaa_input *in, void *buf, size_t n, size_t *got,
		    struct spaa_error *err);

/*
 * Reads the next chunk of decoded bytes without copying them, for a
 * document that is not lines (V8's JSON on a single line of any
 * length).  Returns 1 with *data (weak: valid until the next call on in)
 * and *len (> 0), 0 at the end of input, -1 with err (the input's error,
 * with no line: see spaa_input_read).  Consumes what it returns.
 */
int spaa_input_chunk(struct spaa_input *in, const char **data, size_t *len,
		     struct spaa_error *err);

/*
 * A line scanner: work on a line that needs nothing but the line, done a
 * block of lines at a time, ahead of the reader by the decoding thread
 * of a regular file (see spaa_input_open) when that thread has time, or
 * by the reader when it comes to a block first (with one thread, by the
 * reader, a block before its lines: SPAA_INPUT_SYNC_MIN).  scan gets each line but
 * the empty ones, which hold no record (runs of them are passed over at
 * the speed of a scan for line feeds), without its line ending and not
 * NUL-terminated (the bytes stay where they are while the reader is on
 * the line), and returns nonzero
 * when it wrote a record of rec_size bytes to rec (8-byte aligned).
 * scan may run on both threads at once and must not change ctx; batch
 * calls (below) come one at a time, not in block order.  Neither touches
 * anything but ctx and its arguments.
 */
struct spaa_input_scanner {
	int (*scan)(void *ctx, void *block, const char *line, size_t len, void *rec);
	/*
	 * Optional: called after scan has run over the lines of a block
	 * with the n records it wrote, stride bytes apart, while the
	 * block's data is still there: for work better done in a batch,
	 * such as table lookups that can be prefetched.
	 */
	void (*batch)(void *ctx, void *first, size_t n, size_t stride);
	/*
	 * Optional: a state of the scanner's own for each block of lines
	 * (an arena its records point into, say), made by block_new when
	 * the block is first scanned by a thread other than the reader's
	 * and handed to scan as block (NULL without block_new, and when
	 * the reader scans the block itself: what the state saves the
	 * reader is worth making only on another core); block_reset comes
	 * before the block is scanned ahead again, when nothing of its last
	 * lines is needed any more;
	 * block_free at spaa_input_close.  What a record points to in it
	 * stays valid while the reader is on the record's line.  Like scan,
	 * they may run on several threads at once, each on its own block.
	 */
	void *(*block_new)(void *ctx);
	void (*block_reset)(void *ctx, void *block);
	void (*block_free)(void *ctx, void *block);
	void *ctx;
	void (*free_ctx)(void *ctx);    /* may be NULL */
	size_t rec_size;
};

/*
 * Has s run over the lines decoded from now on; ownership of s->ctx
 * passes to in (free_ctx at spaa_input_close, or at once when this
 * returns 0).  Returns 1, or 0 when nothing will be scanned: the input
 * is not read in blocks (standard input, a file under thread_min, or
 * with one thread under SPAA_INPUT_SYNC_MIN) or a scanner is set
 * already.  Set it before the first read: lines read before it and
 * lines split across blocks are not scanned (a record is a shortcut,
 * the line is always there).
 */
int spaa_input_set_scanner(struct spaa_input *in,
			   const struct spaa_input_scanner *s);

/*
 * The record fn wrote for the line last returned by spaa_input_getline,
 * or NULL.  Call it once per line, in order.  Weak: valid until the next
 * getline or peek.
 */
const void *spaa_input_scanned(struct spaa_input *in);

/*
 * The record of the k-th scanned line after the one spaa_input_scanned
 * returned last (k >= 1), if it is at hand, else NULL: for prefetching
 * what that line will need.  Weak, like spaa_input_scanned.
 */
const void *spaa_input_scanned_ahead(const struct spaa_input *in, size_t k);

/* Number of the line last returned (1-based), 0 before the first. */
unsigned long spaa_input_lineno(const struct spaa_input *in);

/* The path as given ("-" for stdin); weak. */
const char *spaa_input_name(const struct spaa_input *in);

enum spaa_input_comp spaa_input_compression(const struct spaa_input *in);

/*
 * Bytes consumed from the underlying file so far (compressed bytes for
 * compressed input) and the file's size (0 when unknown, e.g. a pipe).
 * Progress is bytes_read / size.
 */
uint64_t spaa_input_bytes_read(const struct spaa_input *in);
uint64_t spaa_input_size(const struct spaa_input *in);

/* Closes and frees in; accepts NULL. */
void spaa_input_close(struct spaa_input *in);

#endif
