/*
 * ctf_clock - the clock of a CTF 1.8 trace directory (what LTTng
 * writes), read for the offset Trace Compass applies to it.
 *
 * Trace Compass shows a CTF trace in the time of its clock plus the
 * clock's offset: for LTTng, CLOCK_MONOTONIC plus the wall-clock time of
 * its zero, so the --begin/--end it sends are wall-clock nanoseconds.  A
 * perf profile recorded beside it counts CLOCK_MONOTONIC (perf record
 * -k mono), so subtracting the offset maps a selection in the trace onto
 * the profile's samples.
 *
 * The offset is offset_s * 10^9 + offset * 10^9 / freq ns (the division
 * truncated toward zero): Trace Compass adds offset_s * freq + offset
 * cycles to an event's cycles and scales the sum by 10^9 / freq
 * (CTFTrace, CTFClock), through a double, so for clocks of other
 * frequencies than 1 GHz its times may differ from these by a
 * nanosecond.  It applies an offset only when the trace declares exactly
 * one clock, and so does the caller (nclocks).
 *
 * The metadata file is read as a stream in both forms CTF 1.8 allows:
 * plain TSDL text (opening with the comment "CTF 1.8"), and packets (magic 0x75D11D57 in the
 * trace's byte order, a 37-byte header, then content_size bits of text
 * and padding up to packet_size bits), which LTTng writes.  Only the
 * top-level "clock { ... };" blocks are looked at; comments and strings
 * elsewhere are skipped, so the memory used does not grow with the file.
 *
 * A struct spaa_ctf_clock owns nothing.
 */
#ifndef SPAA_CTF_CLOCK_H
#define SPAA_CTF_CLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "model/error.h"

struct spaa_ctf_clock {
	unsigned nclocks;       /* clock blocks in the metadata */
	/* the first clock block (zero when nclocks is 0): */
	char name[64];          /* its name; "" if none, cut at 63 bytes */
	uint64_t freq;          /* Hz; 10^9 when not given (CTF's default) */
	int64_t offset_s;       /* seconds, as written; 0 when not given */
	int64_t offset;         /* cycles, as written; 0 when not given */
	int64_t offset_ns;      /* what Trace Compass adds, in ns (above) */
};

/*
 * Reads DIR/metadata.  Returns 1 when it is CTF 1.8 metadata (c filled;
 * nclocks may be 0), 0 when dir has no file named metadata or that file
 * is not CTF (c zeroed), -1 on a read error, broken packets, CTF 2 (JSON)
 * metadata, or a clock whose values cannot be read or whose offset does
 * not fit in 64 bits (err names DIR/metadata, and the line of the
 * metadata text for errors in the text).
 */
int spaa_ctf_clock_read(const char *dir, struct spaa_ctf_clock *c,
			struct spaa_error *err);

/*
 * The same on the n bytes of a metadata file held in memory, named file
 * in errors (the unit tests' way in).
 */
int spaa_ctf_clock_parse(const void *data, size_t n, const char *file,
			 struct spaa_ctf_clock *c, struct spaa_error *err);

#endif
