/*
 * fuzz - what the fuzz targets in tests/fuzz/ share.
 *
 * Each target fuzz_NAME.c defines LLVMFuzzerTestOneInput.  It is built
 * twice: with libFuzzer (make fuzz, clang -fsanitize=fuzzer) and with
 * replay.c, a main() that runs the target once per file named on its
 * command line, so that make check replays the seeds and every crash
 * ever found (tests/fuzz/README.md) with the ordinary compiler, and make
 * asan with the sanitizers.
 *
 * The readers take paths, not buffers, so an input is written to a file
 * in a directory private to the process first.
 */
#ifndef SPAA_FUZZ_H
#define SPAA_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Writes data to NAME in the process' scratch directory (created on
 * first use, removed at exit) and returns its path (weak: static storage,
 * one per name slot: valid until the next call with the same name).
 * Aborts on failure: a harness that cannot write its input is broken.
 */
const char *fuzz_write(const char *name, const void *data, size_t size);

/*
 * Calls fn on each line of data (without its '\n'; lineno from 1), each in
 * its own exact-size NUL-terminated buffer so that reading past it is
 * caught, until fn returns non-zero; returns that value, else 0.
 */
int fuzz_each_line(const uint8_t *data, size_t size,
		   int (*fn)(void *ctx, const char *line, size_t len,
			     unsigned long lineno),
		   void *ctx);

/* A FILE open on /dev/null, for writers whose output is not checked. */
FILE *fuzz_devnull(void);

#endif
