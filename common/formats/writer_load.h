/*
 * writer_load - a profile built by a converter into a spaa_writer (perf
 * script text, folded stacks) loaded into the profile model, so that
 * every analysis reads these formats as it reads SPAA.
 *
 * The writer's SPAA, sample records included, goes to a temporary file
 * (in $TMPDIR, else /tmp) that the SPAA reader reads back and that is
 * removed at once: one reader of the model, whose rules every format
 * then meets, and memory bounded as the writer's (unique stacks and
 * contexts; the samples are on disk).  The file, the warnings and the
 * errors of that read carry the input's name, never the temporary one's.
 */
#ifndef SPAA_WRITER_LOAD_H
#define SPAA_WRITER_LOAD_H

#include "formats/load.h"
#include "formats/spaa_writer.h"
#include "io/output.h"

/*
 * Writes SPAA to out for spaa_writer_load_spaa: 0, or -1 with err.
 */
typedef int (*spaa_writer_load_fn)(void *ctx, struct spaa_output *out,
				   struct spaa_error *err);

/*
 * Reads the SPAA that write writes (a converter writing SPAA itself, as
 * the pprof reader does) into p as one file named name, like
 * spaa_writer_load.
 */
int spaa_writer_load_spaa(struct spaa_profile *p, spaa_writer_load_fn write,
			  void *ctx, const char *name,
			  const struct spaa_load_opts *opts, struct spaa_repeats *rep,
			  struct spaa_error *err);

/*
 * Reads what w holds into p as one file named name.  opts as for
 * spaa_load (on_line is not called; on_progress is the caller's), rep
 * (may be NULL) as for spaa_reader_read.
 * Errors: SPAA_E_IO for the temporary file, those of the reader (without
 * a line: it would be the temporary file's).  w is the caller's.
 */
int spaa_writer_load(struct spaa_profile *p, struct spaa_writer *w,
		     const char *name, const struct spaa_load_opts *opts,
		     struct spaa_repeats *rep, struct spaa_error *err);

#endif
