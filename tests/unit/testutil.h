/*
 * testutil - what the unit tests share: a scratch directory per test, and
 * a FILE whose output is captured in memory.
 *
 * A suite registers testutil_setup/teardown-style fixtures of its own
 * that call these; each test then writes its inputs under the directory
 * and never leaves anything behind.  Paths are returned in one of four
 * rotating static buffers, so up to four may be held at once.
 */
#ifndef SPAA_TESTUTIL_H
#define SPAA_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/filter.h"
#include "model/profile.h"
#include "model/sbuf.h"

/*
 * Filters (analysis/filter.h) for calls that take one: samples in
 * [b, e], and the records of (pid, tid) (SPAA_NO_ID: any).
 */
#define TESTUTIL_RANGE(b, e) (&(struct spaa_filter){ \
	.has_begin = true, .has_end = true, .begin = (b), .end = (e), \
	.pid = SPAA_NO_ID, .tid = SPAA_NO_ID })
#define TESTUTIL_THREAD(p, t) (&(struct spaa_filter){ \
	.begin = INT64_MIN, .end = INT64_MAX, .pid = (p), .tid = (t) })

/* Creates $TMPDIR/PREFIX.XXXXXX (TMPDIR defaults to /tmp); asserts. */
void testutil_tmpdir_setup(const char *prefix);
/* Removes it with everything inside (made writable first). */
void testutil_tmpdir_teardown(void);
/* The directory itself. */
const char *testutil_tmpdir(void);
/* Path of name inside it. */
const char *testutil_path(const char *name);
/* Writes len bytes of data to name inside it (asserts); returns the path. */
const char *testutil_write(const char *name, const void *data, size_t len);

/*
 * Writes text to name inside the directory and loads it into p
 * (initialized here; the caller releases it); asserts that it loads.
 */
void testutil_load(struct spaa_profile *p, const char *name, const char *text);

/* The same, every ' of text read as " (JSON that reads well in C). */
void testutil_load_quoted(struct spaa_profile *p, const char *name,
			  const char *text);

/* A SPAA header of frame order leaf_to_root and the events given as JSON. */
#define TESTUTIL_HEADER(events) \
	"{'type':'header','format':'spaa','version':'1.0','source_tool':'perf'," \
	"'frame_order':'leaf_to_root','stack_id_mode':'content_addressable'," \
	"'events':[" events "]}\n"

/*
 * Everything of p as text, appended to t: every entry of every array in
 * index order, so two models print alike only when they are alike.
 */
void testutil_dump_model(struct spaa_sbuf *t, const struct spaa_profile *p);

/* The string index of s in p (SPAA_NONE when absent). */
uint32_t testutil_str(const struct spaa_profile *p, const char *s);

/* What a writer under test wrote, through open_memstream. */
struct testutil_capture {
	FILE *f;
	char *buf;              /* owned; valid after close, until free */
	size_t len;
};

/* Opens c->f (asserts) and returns it. */
FILE *testutil_capture_open(struct testutil_capture *c);
/* Closes the stream and returns the text; it stays until _free. */
const char *testutil_capture_close(struct testutil_capture *c);
void testutil_capture_free(struct testutil_capture *c);

#endif
