/*
 * header - what text output says before the tables, as perf report's
 * header does: the profile read (its path, format, producer), the event
 * and metric weighed, their total and sample count, the time range, and
 * the events the run left out with the option that picks one.  For
 * people only: LAMI, CSV and HTML output never carry it.
 *
 *     # Profile: tests/data/multi_event.spaa (SPAA from perf)
 *     # Time: 100.000000000 to 101.000000000 s (1 s)
 *     # Weighed: event 'cycles', primary metric 'period'
 *     # Total: 5M cycles in 15 samples
 *     # Left out: 'page-faults': 2 stack records, 1 samples (pick one with --event NAME)
 *
 * A run fills a struct spaa_header (zero-initialized) as it learns; main
 * writes it.  The header owns its lines; spaa_header_release frees them.
 */
#ifndef SPAA_HEADER_H
#define SPAA_HEADER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/profile.h"
#include "report/table.h"

struct spaa_header {
	char **lines;           /* owned, each "Label: text" */
	size_t nr, alloc;
};

/* Sample count not known (a profile of weights only). */
#define SPAA_HEADER_NO_SAMPLES UINT64_MAX

/* Appends the line "LABEL: TEXT" (printf-style text). */
void spaa_header_add(struct spaa_header *h, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The profile p as loaded from path (as the user gave it): "LABEL: PATH
 * (FORMAT from TOOL)", with the number of files and their formats when
 * path held several; then "Time: BEGIN to END s (DURATION)" when p has
 * a time range, and the part selected when t's range (--begin/--end)
 * is narrower (t NULL: the whole profile is read).  label: "Profile", or "Baseline"/"Target".
 */
void spaa_header_profile(struct spaa_header *h, const char *label,
			 const struct spaa_profile *p, const char *path,
			 const struct spaa_table *t);

/*
 * "Weighed: event 'E', primary metric 'M'" (t->what before its caveats)
 * and, unless total is NULL, "Total: TOTAL in COUNT OF" ("in 12
 * samples", "in 7 calls"), *total in t's unit (t->sem); count
 * SPAA_HEADER_NO_SAMPLES leaves the count out.  No total for net
 * weights (t->net): theirs is no sum of what the tables show.
 */
void spaa_header_weights(struct spaa_header *h, const struct spaa_table *t,
			 const uint64_t *total, uint64_t count, const char *of);

/*
 * How many samples event's weights come from in the whole profile: its
 * sample records when the profile has any, else the total of its metric
 * "samples" when it has one, else SPAA_HEADER_NO_SAMPLES.
 */
uint64_t spaa_header_samples(const struct spaa_profile *p, uint32_t event);

/*
 * Writes "# " and each line, wrapped at blanks to width columns (0: never
 * wrapped) with continuation lines indented; a word longer than a line
 * keeps its end ("…/dir/file.spaa").  Then an empty line.  Nothing when h
 * is empty.
 */
void spaa_header_write(FILE *out, const struct spaa_header *h, size_t width);

/*
 * title without the parts of its closing parenthesis (separated by "; ")
 * that a line of h says already, so that text tables under a header
 * are not titled with it again: under "# Weighed: event 'E', primary
 * metric 'M'", "Phases (event 'E', primary metric 'M'; bins of 1ms)"
 * becomes "Phases (bins of 1ms)" and "Functions (event 'E', primary
 * metric 'M')" "Functions".  Malloc'ed; the caller frees it.
 */
char *spaa_header_short_title(const struct spaa_header *h, const char *title);

void spaa_header_release(struct spaa_header *h);

#endif
