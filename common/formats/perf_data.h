/*
 * perf_data - a perf.data file (what `perf record` writes) read through
 * `perf script`, whose text the perf script reader takes.
 *
 * perf.data is perf's own binary format, and only perf resolves its
 * symbols (build-id cache, kallsyms, debug files), so perf is run: as
 * `perf script --force -i PATH -F +pid,+period` (the default fields, which leave
 * out what the recording lacks, plus the pid and the period the reader
 * needs), found on PATH and started with posix_spawnp, no shell.  Its
 * output is read from a pipe as it comes (nothing is held whole); its
 * standard error goes to a temporary file, and its first line becomes the
 * error when perf fails.  Without perf the error says to install it or to
 * pass `perf script` text instead.
 */
#ifndef SPAA_PERF_DATA_H
#define SPAA_PERF_DATA_H

#include <stdbool.h>
#include <stddef.h>

#include "io/input.h"
#include "model/error.h"

/* Whether data[0..len), an input's first decoded bytes, starts a perf.data file. */
bool spaa_perf_data_sniff(const char *data, size_t len);

struct spaa_perf_data;

/*
 * Starts perf on path (a regular, uncompressed file: perf reads it
 * itself).  On success *pd (the caller's, spaa_perf_data_close) runs
 * perf and *in (owned by *pd) reads its output, named path in messages.
 * Errors: SPAA_E_IO (perf not installed, no pipe or temporary file),
 * SPAA_E_INVALID (a compressed file or standard input).  compressed: the
 * input named path was compressed.
 */
int spaa_perf_data_open(struct spaa_perf_data **pd, struct spaa_input **in,
			const char *path, bool compressed,
			const struct spaa_input_opts *io, struct spaa_error *err);

/*
 * Closes the input and waits for perf, stopping it first when the reading
 * failed (failed set).  Returns -1 with SPAA_E_IO naming path, perf's
 * first line of standard error as the cause, when perf exited with a
 * non-zero status (its failure explains the reading's: it replaces err),
 * or died of a signal it was not sent here; else 0.  Frees pd; accepts
 * NULL.
 */
int spaa_perf_data_close(struct spaa_perf_data *pd, bool failed,
			 struct spaa_error *err);

#endif
