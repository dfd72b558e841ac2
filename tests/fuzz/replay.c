/*
 * Runs a fuzz target once on each file named on the command line (or on
 * each file of a named directory), the way libFuzzer replays a corpus,
 * without libFuzzer: make check builds every target with this main().
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t n = 0, alloc = 0, got;

	if (!f) {
		fprintf(stderr, "replay: cannot open '%s'\n", path);
		return -1;
	}
	do {
		if (n == alloc) {
			alloc = alloc ? 2 * alloc : 65536;
			if (!(buf = realloc(buf, alloc)))
				abort();
		}
		got = fread(buf + n, 1, alloc - n, f);
		n += got;
	} while (got);
	fclose(f);
	/* an exact-size copy, so that reading past the end is caught */
	{
		unsigned char *exact = malloc(n ? n : 1);

		if (!exact)
			abort();
		memcpy(exact, buf, n);
		free(buf);
		LLVMFuzzerTestOneInput(exact, n);
		free(exact);
	}
	return 0;
}

static int run_dir(const char *path)
{
	struct dirent **ents;
	int n = scandir(path, &ents, NULL, alphasort), ret = 0;

	if (n < 0) {
		fprintf(stderr, "replay: cannot list '%s'\n", path);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char sub[4096];

		if (ents[i]->d_name[0] != '.') {
			snprintf(sub, sizeof(sub), "%s/%s", path, ents[i]->d_name);
			ret |= run_file(sub);
		}
		free(ents[i]);
	}
	free(ents);
	return ret;
}

int main(int argc, char **argv)
{
	int ret = 0, runs = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;

		if (!stat(argv[i], &st) && S_ISDIR(st.st_mode))
			ret |= run_dir(argv[i]);
		else
			ret |= run_file(argv[i]);
		runs++;
	}
	return ret || !runs;
}
