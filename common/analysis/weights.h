/*
 * weights - which weights of a profile an analysis reads: the event and
 * metric asked for (--event, --metric), the twin of a metric that SPX
 * split in two (--net), and what the analysis leaves out of the other
 * events, so that nothing is dropped silently.
 *
 * struct spaa_weights_left_out holds two counts and the events' names:
 * zero-initialize it.
 */
#ifndef SPAA_WEIGHTS_H
#define SPAA_WEIGHTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/error.h"
#include "model/profile.h"

/*
 * Resolves event_name (NULL: the first event of the header) and
 * metric_name (NULL: the event's primary metric) to indices.  Errors:
 * SPAA_E_NO_DATA when the profile declares no events, SPAA_E_USAGE
 * listing what the profile does have; they name no file.
 */
int spaa_weights_select(const struct spaa_profile *p, const char *event_name,
			const char *metric_name, uint32_t *event,
			uint32_t *metric, struct spaa_error *err);

/*
 * "'a', 'b'": the names of p's events of kind (an enum spaa_event_kind,
 * or SPAA_WEIGHTS_ANY_KIND), for messages and titles, in buf ("" when
 * none).  Returns buf.
 */
#define SPAA_WEIGHTS_ANY_KIND (-1)
const char *spaa_weights_event_list(const struct spaa_profile *p, int kind,
				    char *buf, size_t size);

/*
 * "event 'E', primary metric 'M'" (or "metric 'M'" when it is not the
 * event's primary one) into buf: how every title says what it weighs.
 * Returns the length written, as snprintf.
 */
int spaa_weights_describe(char *buf, size_t size, const char *event,
			  bool primary, const char *metric);

/*
 * Net weights, for a metric M split in two non-negative metrics: M the
 * positive parts and its twin "M-" the magnitudes of the negative parts
 * (SPX, spx_reader.h), so net = M - (M-), signed.
 *
 * spaa_weights_twin: the string index of "M-" when event has it, else
 * SPAA_NONE.
 */
uint32_t spaa_weights_twin(const struct spaa_profile *p, uint32_t event,
			   uint32_t metric);

/* pos - neg, saturated to int64 (sums are below 2^63 in any real profile). */
int64_t spaa_weights_net(uint64_t pos, uint64_t neg);

/* A uint64 ordered as v is (for struct spaa_rank keys): v + 2^63. */
uint64_t spaa_weights_net_key(int64_t v);

/*
 * What an analysis leaves out because it looks at other events: stack
 * records (not absorbed into a related stack) and sample records of the
 * events it does not analyse.  main writes a note on stderr at the end
 * of a run when either is not 0.
 */
struct spaa_weights_left_out {
	uint64_t records, samples;
	/* "'a', 'b'": the events they belong to, each once (cut at "...") */
	char events[256];
};

/*
 * Adds to lo what p holds of the events for which analysed(p, event,
 * ctx) is false.  spaa_weights_left_out_event: every event but one.
 */
void spaa_weights_left_out(struct spaa_weights_left_out *lo,
			   const struct spaa_profile *p,
			   bool (*analysed)(const struct spaa_profile *p,
					    uint32_t event, const void *ctx),
			   const void *ctx);
void spaa_weights_left_out_event(struct spaa_weights_left_out *lo,
				 const struct spaa_profile *p, uint32_t event);

#endif
