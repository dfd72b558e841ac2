/*
 * pathlist - the profiles a command-line path names: a file, "-"
 * (standard input) or a directory of profiles, sorted by name so that
 * runs are deterministic.
 *
 * A directory of 20,000 reports is a list of 20,000 paths, and a load
 * keeps the list to its end: the list must not be what grows with the
 * files.  A directory's name is kept once, for the run of its paths;
 * the names, in list order, are front- and back-coded against the one
 * before (a byte of prefix, a byte of suffix they share, the bytes
 * between): names of reports differ in a few bytes in the middle (a
 * pid, a date, a counter), so a path costs a few bytes and its kind.
 * Every SPAA_PATHLIST_RESTART-th name is whole, so spaa_pathlist_path
 * decodes at most that many names to put a path together.
 *
 * Ownership: a zeroed struct spaa_pathlist is an empty list; it owns its
 * arrays and text.  spaa_pathlist_release frees them and zeroes the
 * list, so it may be released twice.
 */
#ifndef SPAA_PATHLIST_H
#define SPAA_PATHLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/error.h"
#include "model/sbuf.h"

/* What a path is, by name (and for SPX by its sibling and content). */
enum spaa_pathlist_kind {
	/*
	 * a profile the loader tells by content, which must be one: in a
	 * directory *.spaa, *.ndjson, *.pb, *.pprof, *.perf,
	 * *.perf-script[.txt], *.folded, *.perf.data, *.cpuprofile,
	 * *.heapprofile, *.heapsnapshot, *.heaptimeline (each also .gz,
	 * .zst) and perf.data; any named file
	 */
	SPAA_PATHLIST_SPAA,
	SPAA_PATHLIST_SPX,      /* SPX metadata *.json with a sibling *.txt.gz */
	SPAA_PATHLIST_OTHER,
	/*
	 * any other regular file of a directory (a DTrace *.txt, a trace
	 * *.json, a README): the loader reads it when its content is a
	 * profile and skips it, saying so, when not
	 */
	SPAA_PATHLIST_MAYBE,
};

/* A name coded whole every this many paths. */
#define SPAA_PATHLIST_RESTART 16

struct spaa_pathlist {
	/*
	 * Owned: NUL-terminated strings, "" at offset 0, then directory
	 * names (with their '/').
	 */
	char *text;
	size_t text_len, text_alloc;
	/*
	 * Owned: the paths' directories, a run of paths each: from path
	 * first on, until the next run, the directory at offset dir of text
	 * (0: none, the path given whole).
	 */
	struct spaa_pathlist_run {
		size_t first;
		uint32_t dir;
	} *runs;
	size_t nruns, runs_alloc;
	/*
	 * Owned: the names (or paths given whole), in list order, each
	 * as a byte of the prefix it shares with the one before, a byte
	 * of the suffix it shares with it (the prefix and the suffix do
	 * not overlap in either name) and the bytes between with a NUL;
	 * the first of every SPAA_PATHLIST_RESTART shares nothing, and
	 * restart holds its offset (by index / SPAA_PATHLIST_RESTART).
	 */
	unsigned char *names;
	size_t names_len, names_alloc;
	uint32_t *restart;
	size_t restart_alloc;
	unsigned char *kinds;   /* by path: enum spaa_pathlist_kind */
	size_t nr, alloc;
	/*
	 * Directory entries named like a profile that are not regular files
	 * (a dangling symbolic link, a link loop, a FIFO, a directory):
	 * skipped, and said so by the caller (a warning, a finding).
	 */
	struct spaa_pathlist_skip {
		char *path;     /* owned */
		const char *why;        /* static: "a FIFO", ... */
	} *skipped;
	size_t nskipped, skipped_alloc;
};

/*
 * Expands path into the profiles it names, appending to list.  A file (or
 * "-") is appended as is with kind SPAA_PATHLIST_SPAA, so content decides,
 * except an SPX report named by either of its files: KEY.json when
 * KEY.txt.gz exists beside it and the file starts with '{', or KEY.txt.gz
 * when KEY.json exists beside it or its text starts with "[events]";
 * either is appended as KEY.json with kind SPAA_PATHLIST_SPX.  A
 * directory contributes its regular files but dot files and the event
 * files of its SPX reports (not recursive), sorted by name, each of the
 * kind above; a directory with none, or only SPX event files without
 * their metadata, is an error (SPAA_E_NO_PROFILE).
 * Errors: SPAA_E_NOT_FOUND, SPAA_E_IO, SPAA_E_NO_PROFILE, SPAA_E_LIMIT
 * (the names of the list pass 4 GiB).
 */
int spaa_pathlist_expand(const char *path, struct spaa_pathlist *list,
			 struct spaa_error *err);

/*
 * Path i of list (i < list->nr), put together in buf (the caller's, see
 * sbuf.h): the string returned is buf->s, valid until buf changes.
 */
const char *spaa_pathlist_path(const struct spaa_pathlist *list, size_t i,
			       struct spaa_sbuf *buf);

/*
 * Total size in bytes of the files in list (0 for stdin).  big may be
 * NULL, else list->nr entries set to whether each path is a regular
 * file of at least min bytes (an SPX report counts its two files).
 */
uint64_t spaa_pathlist_size(const struct spaa_pathlist *list, uint64_t min, bool *big);

void spaa_pathlist_release(struct spaa_pathlist *list);

#endif
