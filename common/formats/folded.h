/*
 * folded - "folded stacks", the one-line-per-stack text of Brendan Gregg's
 * stackcollapse-*.pl and of many profilers:
 *
 *     main;parse;lex 42
 *
 * frames root first, separated by ';', then blanks and an integer count.
 * Frame names may contain blanks; the count is the last blank-separated
 * token.  stackcollapse-perf.pl --all annotates frames with a suffix:
 * "_[k]" kernel, "_[i]" inlined, "_[j]" JIT; the parser strips these and
 * reports them.
 *
 * Parsing is usable on its own (one line at a time, no profile model);
 * spaa_folded_table collects path -> value sums for writing folded output.
 */
#ifndef SPAA_FOLDED_H
#define SPAA_FOLDED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/spaa_writer.h"
#include "io/input.h"
#include "io/output.h"
#include "model/error.h"
#include "model/map.h"
#include "model/profile.h"
#include "model/strtab.h"
#include "model/warn.h"

enum spaa_folded_annot { SPAA_FOLDED_PLAIN, SPAA_FOLDED_KERNEL, SPAA_FOLDED_INLINED, SPAA_FOLDED_JIT };

struct spaa_folded_frame {
	const char *name;       /* weak: points into the parsed line */
	size_t len;
	enum spaa_folded_annot annot;
};

struct spaa_folded_parser {
	struct spaa_folded_frame *frames;    /* owned; root first after a parse */
	size_t alloc;
};

void spaa_folded_parser_init(struct spaa_folded_parser *fp);
void spaa_folded_parser_release(struct spaa_folded_parser *fp);

/*
 * Parses line[0..len) (the caller's buffer; frame names point into it).
 * Returns 1 with *nframes and *count set, 0 for a blank or '#' comment
 * line, -1 with SPAA_E_PARSE naming file and lineno: no count, a count
 * that is not a non-negative integer below 2^64, or an empty frame name.
 */
int spaa_folded_parse(struct spaa_folded_parser *fp, const char *line, size_t len,
		 const char *file, unsigned long lineno, uint32_t *nframes,
		 uint64_t *count, struct spaa_error *err);

/*
 * Sums of values per folded path, written sorted by path (as
 * `stackcollapse | sort` does), so output is deterministic.
 */
struct spaa_folded_table {
	struct spaa_strtab paths;
	uint64_t *values;       /* owned, by path index */
	size_t nvalues, alloc;
	char *buf;              /* owned: path being built */
	size_t len, buf_alloc;
	/* names pushed that folded stacks cannot hold as they are */
	uint64_t changed, empty;
};

void spaa_folded_table_init(struct spaa_folded_table *t);
void spaa_folded_table_release(struct spaa_folded_table *t);

/*
 * Builds a path frame by frame, root first: spaa_folded_table_begin, then
 * spaa_folded_table_push per frame, then spaa_folded_table_add.  A name
 * is written as it is, tabs included (the parser reads them back), but
 * for what would break the format: ';' becomes ':', line breaks and the
 * other control bytes ' ', and an empty name "[unknown]" (perf's name
 * for a frame without one); changed and empty count those names.
 * Returns 0, or -1 with SPAA_E_LIMIT if the sum overflows 64 bits.
 */
void spaa_folded_table_begin(struct spaa_folded_table *t);
void spaa_folded_table_push(struct spaa_folded_table *t, const char *name, size_t len);
int spaa_folded_table_add(struct spaa_folded_table *t, uint64_t value,
		     struct spaa_error *err);

/*
 * Writes "path value\n" lines sorted by path (bytewise); 0 or -1.  Then
 * a warning on warn (may be NULL) naming file, when names were changed.
 */
int spaa_folded_table_write(const struct spaa_folded_table *t, struct spaa_output *out,
			    const struct spaa_warn_sink *warn, const char *file,
			    struct spaa_error *err);

/*
 * Reads folded stacks from in into w: one sample of event "folded" per
 * line, weighing its count (lines of count 0 are skipped), frames of
 * DSO "[unknown]", kernel frames ("_[k]") of "[kernel.kallsyms]",
 * inlined ones ("_[i]") marked so.  Errors: those of the input and the
 * parser, SPAA_E_LIMIT for a stack deeper than max_depth,
 * SPAA_E_NO_DATA when no line holds a stack.
 */
int spaa_folded_convert(struct spaa_input *in, struct spaa_writer *w,
			uint32_t max_depth, struct spaa_error *err);

/*
 * Writes the folded stacks of one event of a loaded profile (NULL: the
 * first) weighed by metric_name (NULL: the event's primary metric): one
 * line per stack record but those absorbed into a logical stack, records
 * of weight 0 left out, lines sorted as spaa_folded_table_write sorts
 * them.  Folded stacks hold one event: the stack records of the others
 * are named in a warning on warn (may be NULL), as are changed names.
 * Errors: SPAA_E_USAGE for an event the profile lacks or a metric no
 * record of the event has; those of out.
 */
int spaa_folded_write_profile(const struct spaa_profile *p, const char *event,
			      const char *metric_name, struct spaa_output *out,
			      const struct spaa_warn_sink *warn, struct spaa_error *err);

#endif
