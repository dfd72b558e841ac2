/*
 * The SPAA reader behind decompression: the bytes are a plain SPAA
 * profile that the harness compresses (zstd when the first byte is odd,
 * else gzip) before loading, so the fuzzer mutates records while the
 * reader sees them come out of the decompressor in odd-sized pieces.
 * Corrupt compressed streams are fuzz_spaa's job (its seeds include
 * compressed files).
 */
#include <stdlib.h>
#include <zlib.h>
#include <zstd.h>

#include "fuzz.h"
#include "report/analysis.h"

static void *compress_gzip(const uint8_t *data, size_t size, size_t *outlen)
{
	z_stream z = { 0 };
	size_t cap = size + size / 100 + 64;
	unsigned char *out = malloc(cap);

	if (!out || deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8,
				 Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	z.next_in = (unsigned char *)data;
	z.avail_in = (uInt)size;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		abort();
	*outlen = z.total_out;
	deflateEnd(&z);
	return out;
}

static void *compress_zstd(const uint8_t *data, size_t size, size_t *outlen)
{
	size_t cap = ZSTD_compressBound(size);
	void *out = malloc(cap);

	if (!out)
		abort();
	*outlen = ZSTD_compress(out, cap, data, size, 1);
	if (ZSTD_isError(*outlen))
		abort();
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct spaa_load_opts lo = { 0 };
	struct spaa_profile p;
	struct spaa_error err;
	const char *path;
	size_t n;
	void *z;

	if (size > (1u << 20))
		return 0;
	z = size && (data[0] & 1) ? compress_zstd(data, size, &n) :
		compress_gzip(data, size, &n);
	path = fuzz_write("in.spaa.z", z, n);
	free(z);
	spaa_error_init(&err);
	spaa_profile_init(&p);
	spaa_load(&p, &path, 1, &lo, &err);
	spaa_profile_release(&p);
	return 0;
}
