/*
 * dtrace - DTrace aggregation text into the profile model: what
 * `dtrace -n '... { @[ustack()] = count(); }'` prints (also stack(),
 * jstack(), sum(), and keys before the stack such as
 * @[execname, ustack()]), with the lines dtrace writes around it on
 * stderr when both were saved together.  doc/DTRACE.md has the format.
 *
 * What is read: entries separated by blank lines, each a stack (frames
 * indented, leaf first: "module`function+0xoff", "module`function", a
 * bare address "0x7ff..." or any other symbol text) ending with the
 * aggregated value right-aligned on a line of its own; key lines printed
 * before the stack (less indented than its frames) name the entry's
 * process: a column of digits is the pid, a second one the tid, other
 * columns (execname, probefunc...) the command name (comm); a header
 * line "# keys: ..." names the columns when that guess is wrong.  Any other
 * block (dtrace's "description ... matched N probes" line, the
 * "CPU ID FUNCTION:NAME" table of an exit clause, drop notices) is
 * skipped and counted in one warning.
 *
 * The event: DTrace does not print what it aggregated, so it is told by
 * header lines, each optional, before the first entry:
 *   dtrace: description 'PROBE ...' matched N probes   (dtrace's own)
 *   # event: NAME          the event name (default: the first probe
 *                          description, else "dtrace")
 *   # frequency: HZ        samples per second; 0 = not sampling
 *                          (default: from "profile-N", N in Hz, or
 *                          "profile-Nms"/"us"/"ns"/"s"/"hz"; else 0)
 *   # metric: NAME         what the value counts when not sampling
 *                          (default "count"; e.g. "bytes" for a sum of
 *                          sizes, "ns" for a sum of times)
 *   # keys: K1, K2, ...    the D program's keys: a column named pid or
 *                          tid is that id, any other is text of the
 *                          command name, stack keys are no column
 *                          (default: told by the text, as above)
 * With a frequency the event is a timer sampled at that rate (metric
 * "samples", a duration to the analyses); without, a probe (mode event)
 * whose primary metric is the named one.
 *
 * Model mapping: a function is (symbol, module) with the offset dropped
 * (call sites of one function are one function); a bare address is an
 * unresolved function named by its address in DSO "[unknown]"; a symbol
 * without a module is a function of DSO "[unknown]".  A stack whose
 * modules include the kernel's ("kernel", "genunix", "unix",
 * "mach_kernel", or "NAME.ko") is a kernel stack: all its frames are
 * kernel frames.  Entries with the same frames and keys add up.  No
 * sample records (an aggregation has no times), no thread records.
 *
 * Memory: the call tree of the distinct stacks; lines are read one at a
 * time.  Rejected: no entry with a stack (SPAA_E_NO_DATA), a value that
 * is negative or past 64 bits, a bad header value, a stack deeper than
 * max_depth; each naming the file and line.
 */
#ifndef SPAA_DTRACE_H
#define SPAA_DTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/load.h"
#include "io/input.h"
#include "model/error.h"
#include "model/profile.h"

/*
 * Whether data[0..len) (the first bytes of an input) begins DTrace
 * output: a dtrace: line, a header line above, or a first block of
 * indented frames (one with '`' or a hex address) ending with a value.
 * whole: data is the whole input (its last line may lack an LF).
 */
bool spaa_dtrace_sniff(const char *data, size_t len, bool whole);

/* Reads the DTrace text of in into p as one file.  Returns 0 or -1. */
int spaa_dtrace_read(struct spaa_profile *p, struct spaa_input *in,
		     const struct spaa_load_opts *opts, uint64_t bytes_base,
		     uint64_t bytes_total, struct spaa_error *err);

#endif
