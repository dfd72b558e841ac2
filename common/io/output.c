#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#include "io/output.h"
#include "model/util.h"

#define OUT_BUF (128u << 10)

struct spaa_output {
	FILE *fp;               /* owned unless stdout */
	char *path;             /* owned; final name, NULL for stdout */
	char *tmp;              /* owned; temporary name, NULL for stdout */
	enum spaa_input_comp comp;
	z_stream zs;
	bool zs_live;
	ZSTD_CCtx *zc;
	unsigned char *cbuf;    /* owned; compressed bytes on their way out */
	char *fmt;              /* owned; printf scratch */
	size_t fmt_alloc;
};

static int io_error(struct spaa_output *o, struct spaa_error *err)
{
	return spaa_error_at(err, SPAA_E_IO, o->path ? o->path : "-", 0,
			     "cannot write the output: %s", strerror(errno));
}

static int put(struct spaa_output *o, const void *buf, size_t len,
	       struct spaa_error *err)
{
	if (len && fwrite(buf, 1, len, o->fp) != len)
		return io_error(o, err);
	return 0;
}

int spaa_output_comp_parse(const char *name)
{
	if (!strcmp(name, "none"))
		return SPAA_INPUT_COMP_NONE;
	if (!strcmp(name, "gzip") || !strcmp(name, "gz"))
		return SPAA_INPUT_COMP_GZIP;
	if (!strcmp(name, "zstd") || !strcmp(name, "zst"))
		return SPAA_INPUT_COMP_ZSTD;
	return -1;
}

int spaa_output_open(struct spaa_output **out, const char *path,
		     enum spaa_input_comp comp, int level,
		     struct spaa_error *err)
{
	struct spaa_output *o = spaa_xcalloc(1, sizeof(*o));

	o->comp = comp;
	if (!strcmp(path, "-")) {
		o->fp = stdout;
	} else {
		size_t n = strlen(path) + 16;
		int fd;

		o->path = spaa_xstrdup(path);
		o->tmp = spaa_xmalloc(n);
		snprintf(o->tmp, n, "%s.tmpXXXXXX", path);
		fd = mkstemp(o->tmp);
		if (fd < 0) {
			spaa_error_at(err, SPAA_E_IO, path, 0, "cannot create the output: %s",
				      strerror(errno));
			SPAA_FREE_AND_NULL(o->tmp);
			goto fail;
		}
		{
			/* mkstemp makes it 0600; a plain output file follows the umask */
			mode_t mask = umask(0);

			umask(mask);
			if (fchmod(fd, 0666 & ~mask)) {
				close(fd);
				io_error(o, err);
				goto fail;
			}
		}
		o->fp = fdopen(fd, "wb");
		if (!o->fp) {
			close(fd);
			io_error(o, err);
			goto fail;
		}
	}
	if (comp != SPAA_INPUT_COMP_NONE)
		o->cbuf = spaa_xmalloc(OUT_BUF);
	if (comp == SPAA_INPUT_COMP_GZIP) {
		/* 15 + 16: gzip framing, which input.c recognises by magic */
		if (deflateInit2(&o->zs, level ? level : Z_DEFAULT_COMPRESSION,
				 Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
			spaa_error_set(err, SPAA_E_INTERNAL, "cannot set up gzip compression");
			goto fail;
		}
		o->zs_live = true;
	} else if (comp == SPAA_INPUT_COMP_ZSTD) {
		o->zc = ZSTD_createCCtx();
		if (!o->zc || ZSTD_isError(ZSTD_CCtx_setParameter(o->zc, ZSTD_c_compressionLevel,
								   level ? level : 3))) {
			spaa_error_set(err, SPAA_E_INTERNAL, "cannot set up zstd compression");
			goto fail;
		}
	}
	*out = o;
	return 0;
fail:
	spaa_output_abort(o);
	return -1;
}

/* Feeds len bytes (or, with finish, the end of stream) to the compressor. */
static int out_compress(struct spaa_output *o, const void *buf, size_t len,
		    bool finish, struct spaa_error *err)
{
	if (o->comp == SPAA_INPUT_COMP_GZIP) {
		int ret;

		o->zs.next_in = (Bytef *)(uintptr_t)buf;
		o->zs.avail_in = (uInt)len;
		do {
			o->zs.next_out = o->cbuf;
			o->zs.avail_out = OUT_BUF;
			ret = deflate(&o->zs, finish ? Z_FINISH : Z_NO_FLUSH);
			if (ret == Z_STREAM_ERROR)
				return spaa_error_set(err, SPAA_E_INTERNAL, "gzip compression failed");
			if (put(o, o->cbuf, OUT_BUF - o->zs.avail_out, err))
				return -1;
		} while (o->zs.avail_out == 0 || (finish && ret != Z_STREAM_END));
		return 0;
	}
	{
		ZSTD_inBuffer in = { buf, len, 0 };
		size_t left;

		do {
			ZSTD_outBuffer zout = { o->cbuf, OUT_BUF, 0 };

			left = ZSTD_compressStream2(o->zc, &zout, &in,
						    finish ? ZSTD_e_end : ZSTD_e_continue);
			if (ZSTD_isError(left))
				return spaa_error_set(err, SPAA_E_INTERNAL, "zstd compression failed: %s",
						      ZSTD_getErrorName(left));
			if (put(o, o->cbuf, zout.pos, err))
				return -1;
		} while (finish ? left != 0 : in.pos < in.size);
	}
	return 0;
}

int spaa_output_write(struct spaa_output *o, const void *buf, size_t len,
		      struct spaa_error *err)
{
	/* zlib counts in uInt: feed huge buffers in slices */
	while (o->comp == SPAA_INPUT_COMP_GZIP && len > (1u << 30)) {
		if (out_compress(o, buf, 1u << 30, false, err))
			return -1;
		buf = (const char *)buf + (1u << 30);
		len -= 1u << 30;
	}
	if (o->comp == SPAA_INPUT_COMP_NONE)
		return put(o, buf, len, err);
	return out_compress(o, buf, len, false, err);
}

int spaa_output_printf(struct spaa_output *o, struct spaa_error *err,
		       const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->fmt, o->fmt_alloc, fmt, ap);
	va_end(ap);
	if (n < 0)
		return spaa_error_set(err, SPAA_E_INTERNAL, "formatting failed");
	if ((size_t)n >= o->fmt_alloc) {
		SPAA_ALLOC_GROW(o->fmt, (size_t)n + 1, o->fmt_alloc);
		va_start(ap, fmt);
		vsnprintf(o->fmt, o->fmt_alloc, fmt, ap);
		va_end(ap);
	}
	return spaa_output_write(o, o->fmt, (size_t)n, err);
}

int spaa_output_close(struct spaa_output *o, struct spaa_error *err)
{
	int ret = 0;

	if (o->comp != SPAA_INPUT_COMP_NONE && out_compress(o, "", 0, true, err))
		ret = -1;
	if (!ret && fflush(o->fp))
		ret = io_error(o, err);
	if (o->fp != stdout) {
		if (fclose(o->fp) && !ret)
			ret = io_error(o, err);
		o->fp = NULL;
		if (!ret && rename(o->tmp, o->path))
			ret = io_error(o, err);
		if (!ret)
			SPAA_FREE_AND_NULL(o->tmp);
	}
	spaa_output_abort(o);
	return ret;
}

void spaa_output_abort(struct spaa_output *o)
{
	if (!o)
		return;
	if (o->fp && o->fp != stdout)
		fclose(o->fp);
	if (o->tmp)
		unlink(o->tmp);
	if (o->zs_live)
		deflateEnd(&o->zs);
	ZSTD_freeCCtx(o->zc);
	free(o->cbuf);
	free(o->fmt);
	free(o->path);
	free(o->tmp);
	free(o);
}
