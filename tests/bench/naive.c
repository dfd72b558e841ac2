/*
 * naive.c - the benchmark's "naive approach": getline, then
 * cJSON_ParseWithLength and cJSON_Delete on every line, counting the stack
 * records.  A reference figure for make bench, not part of make check.
 *
 * usage: naive [FILE]   (plain NDJSON; default or - : standard input)
 * Prints "STACKS LINES".
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	FILE *f = stdin;
	if (argc > 2) {
		fprintf(stderr, "usage: naive [FILE]\n");
		return 2;
	}
	if (argc == 2 && strcmp(argv[1], "-") != 0) {
		f = fopen(argv[1], "r");
		if (!f) {
			perror(argv[1]);
			return 1;
		}
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned long long lines = 0, stacks = 0, bad = 0;
	while ((len = getline(&line, &cap, f)) > 0) {
		lines++;
		cJSON *j = cJSON_ParseWithLength(line, (size_t)len);
		if (!j) {
			bad++;
			continue;
		}
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(j, "type");
		if (cJSON_IsString(t) && strcmp(t->valuestring, "stack") == 0)
			stacks++;
		cJSON_Delete(j);
	}
	free(line);
	if (f != stdin)
		fclose(f);
	printf("%llu %llu\n", stacks, lines);
	if (bad)
		fprintf(stderr, "naive: %llu lines did not parse\n", bad);
	return bad ? 1 : 0;
}
