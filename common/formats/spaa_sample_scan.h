/*
 * spaa_sample_scan - the SPAA sample records of the common shape, read
 * straight from the line without a JSON tree: a flat object of the keys
 * type, timestamp, stack_id, event, pid, tid, cpu and period (in any
 * order), plain ASCII strings, numbers.  Anything else (escapes,
 * non-ASCII, null, nesting, another key, a repeated key, a value the
 * reader would reject) is not scanned, and the reader's general path
 * reads the line.  Needs nothing but the line, so the input's decoding
 * thread can run it ahead of the reader (spaa_reader.c, input.h).
 *
 * struct spaa_sample_scan is a value: its offsets are into the line it was
 * scanned from, and id_text is borrowed from that line.
 */
#ifndef SPAA_SPAA_SAMPLE_SCAN_H
#define SPAA_SPAA_SAMPLE_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A sample record of the common shape, as far as the line alone tells:
 * what sample_scan finds, for commit_sample to check against the file
 * (its time unit, its events) and add.  Offsets are into the line.
 */
struct spaa_sample_scan {
	int64_t pid, tid, cpu;          /* SPAA_NO_ID when absent */
	uint64_t period;
	/* the timestamp's digits before and after the dot (when ts_digits) */
	uint64_t ts_int, ts_frac;
	uint32_t ts_off, ts_len, id_off, id_len, ev_off, ev_len;
	/* the scanner's number for the id text, or SPAA_NONE (see scanner) */
	uint32_t prov;
	const char *id_text;    /* the scanner's, from its scan to its batch */
	uint8_t ts_nint, ts_nfrac;
	bool ts_neg, ts_digits, has_period, has_event;
};

/*
 * Reads a line of the common shape into *sc: false for anything else,
 * and for what the reader's general path would reject.
 */
bool spaa_sample_scan_line(const char *line, size_t len,
			   struct spaa_sample_scan *sc);

/*
 * The timestamp of sc in line, scaled by 10^exp10 (the header's time
 * unit to ns) as spaa_json_get_scaled scales it: at once when its digits
 * fit 64 bits after scaling and it has no more decimals than exp10
 * keeps, else through spaa_json_get_scaled.  Returns 0 or -1.
 */
int spaa_sample_scan_time(const struct spaa_sample_scan *sc, const char *line,
			  int exp10, int64_t *out);

#endif
