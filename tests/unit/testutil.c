#include <check.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats/load.h"
#include "testutil.h"

static char tmpdir[256];

static void rm_rf(const char *path)
{
	char sub[1024];
	struct stat st;
	struct dirent *de;
	DIR *d;

	if (lstat(path, &st))
		return;
	if (!S_ISDIR(st.st_mode)) {
		unlink(path);
		return;
	}
	chmod(path, 0700);      /* a test may have made it unreadable */
	d = opendir(path);
	if (d) {
		while ((de = readdir(d))) {
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
			rm_rf(sub);
		}
		closedir(d);
	}
	rmdir(path);
}

void testutil_tmpdir_setup(const char *prefix)
{
	const char *base = getenv("TMPDIR");

	snprintf(tmpdir, sizeof(tmpdir), "%s/%s.XXXXXX",
		 base && *base ? base : "/tmp", prefix);
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

void testutil_tmpdir_teardown(void)
{
	rm_rf(tmpdir);
	tmpdir[0] = '\0';
}

const char *testutil_tmpdir(void)
{
	return tmpdir;
}

const char *testutil_path(const char *name)
{
	static char buf[4][1024];
	static int which;

	/* without a fixture's directory the file would land in '/' */
	ck_assert_msg(tmpdir[0], "testutil_path('%s') outside testutil_tmpdir_setup", name);
	which = (which + 1) % 4;
	snprintf(buf[which], sizeof(buf[which]), "%s/%s", tmpdir, name);
	return buf[which];
}

const char *testutil_write(const char *name, const void *data, size_t len)
{
	const char *path = testutil_path(name);
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	if (len)
		ck_assert_uint_eq(fwrite(data, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
	return path;
}

FILE *testutil_capture_open(struct testutil_capture *c)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	ck_assert_ptr_nonnull(c->f);
	return c->f;
}

const char *testutil_capture_close(struct testutil_capture *c)
{
	fclose(c->f);
	c->f = NULL;
	return c->buf;
}

void testutil_capture_free(struct testutil_capture *c)
{
	free(c->buf);
	c->buf = NULL;
}

void testutil_load(struct spaa_profile *p, const char *name, const char *text)
{
	const char *path = testutil_write(name, text, strlen(text));
	struct spaa_load_opts o = { 0 };
	struct spaa_error err;

	spaa_profile_init(p);
	spaa_error_init(&err);
	ck_assert_msg(!spaa_load(p, &path, 1, &o, &err), "%s: %s", name, err.msg);
}

void testutil_load_quoted(struct spaa_profile *p, const char *name,
			  const char *text)
{
	char *t = strdup(text);

	ck_assert_ptr_nonnull(t);
	for (char *c = t; *c; c++)
		if (*c == '\'')
			*c = '"';
	testutil_load(p, name, t);
	free(t);
}

uint32_t testutil_str(const struct spaa_profile *p, const char *s)
{
	return spaa_strtab_find(&p->strings, s, strlen(s));
}

void testutil_dump_model(struct spaa_sbuf *t, const struct spaa_profile *p)
{
	for (uint32_t i = 0; i < p->strings.nr; i++)
		spaa_sbuf_printf(t, "str %u %u '%s'\n", i, spaa_strtab_len(&p->strings, i),
		    spaa_profile_str(p, i));
	for (uint32_t i = 0; i < p->nfiles; i++) {
		const struct spaa_file *f = &p->files[i];

		spaa_sbuf_printf(t, "file '%s' %s %u %u %d %d %d %" PRId64 " %" PRId64 " %" PRIu64 " %" PRIu64 "\n",
		    f->path, f->format ? f->format : "-", f->count, f->source_tool, f->root_to_leaf, f->content_addressable,
		    f->has_time_range, f->time_start, f->time_end, f->nsamples,
		    f->ignored);
	}
	for (uint32_t i = 0; i < p->nevents; i++) {
		const struct spaa_event *e = &p->events[i];

		spaa_sbuf_printf(t, "event %u %d %d %u %g %" PRIu64 " %d %d %" PRIu64 "\n", e->name,
		    e->kind, e->mode, e->primary_metric, e->frequency_hz,
		    e->sample_period, e->tracks_frees, e->has_timestamps, e->nsamples);
	}
	for (uint32_t i = 0; i < spaa_profile_ndsos(p); i++)
		spaa_sbuf_printf(t, "dso %u %u %d\n", p->dsos[i].name, p->dsos[i].build_id,
		    p->dsos[i].is_kernel);
	for (uint32_t i = 0; i < spaa_profile_nfunctions(p); i++)
		spaa_sbuf_printf(t, "fn %u %u\n", p->functions[i].name, p->functions[i].dso);
	for (uint32_t i = 0; i < p->nframes; i++) {
		const struct spaa_frame *f = &p->frames[i];

		spaa_sbuf_printf(t, "frame %u %u %u %d %d %d %d\n", f->fn, f->srcline, f->ip,
		    f->kind, f->inlined, f->func_resolved, f->inline_depth);
	}
	for (uint32_t i = 0; i < spaa_profile_nthreads(p); i++)
		spaa_sbuf_printf(t, "thread %" PRId64 " %" PRId64 " %u\n", p->threads[i].pid,
		    p->threads[i].tid, p->threads[i].comm);
	for (uint32_t i = 0; i < p->nstacks; i++) {
		const struct spaa_stack *s = &p->stacks[i];

		spaa_sbuf_printf(t, "stack %u %u %u %d %d %d %u %lu %u\n", s->id, s->frames,
		    s->nframes, s->type, s->defined, s->related, s->file, s->line,
		    s->first_record);
	}
	for (uint32_t i = 0; i < p->nrecords; i++) {
		const struct spaa_record *r = &p->records[i];

		spaa_sbuf_printf(t, "record %u %u %u %u %" PRId64 " %" PRId64 " %" PRId64 " %u %u %u %u %u %u %u %d %u\n",
		    r->stack, r->frames, r->nframes, r->event, r->pid, r->tid,
		    r->cpu, r->comm, r->labels, r->weights, r->nweights, r->excl, r->nexcl,
		    r->excl_frame, r->absorbed, r->next_same_stack);
	}
	for (uint32_t i = 0; i < p->nwindows; i++) {
		const struct spaa_window *w = &p->windows[i];

		spaa_sbuf_printf(t, "window %u %" PRId64 " %" PRId64 " %u %u %u\n", w->id,
		    w->start, w->end, w->entries, w->nentries, w->file);
	}
	for (uint32_t i = 0; i < p->nwindow_entries; i++)
		spaa_sbuf_printf(t, "entry %u %u %u\n", p->window_entries[i].stack,
		    p->window_entries[i].weights, p->window_entries[i].nweights);
	for (uint32_t i = 0; i < p->nframe_pool; i++)
		spaa_sbuf_printf(t, "%u%c", p->frame_pool[i], i + 1 == p->nframe_pool ? '\n' : ' ');
	for (uint32_t i = 0; i < p->nweight_pool; i++)
		spaa_sbuf_printf(t, "w %u %u %" PRIu64 "\n", p->weight_pool[i].metric,
		    p->weight_pool[i].unit, p->weight_pool[i].value);
	for (uint32_t i = 0; i < p->totals.nr; i++) {
		const uint32_t *k = spaa_map_key(&p->totals, i);

		spaa_sbuf_printf(t, "total %u %u %" PRIu64 "\n", k[0], k[1], p->total_values[i]);
	}
	spaa_sbuf_printf(t, "time %d %" PRId64 " %" PRId64 " samples %" PRIu64 "\n", p->has_time,
	    p->time_start, p->time_end, p->nsamples);
}
