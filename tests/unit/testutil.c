#include <check.h>
#include <dirent.h>
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
