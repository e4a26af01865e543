/*
 * test_codec.c - block decompression (format/codec.c: sqe_codec_decompress).
 *
 * Each codec's data is made here with the library's own compressor (zlib,
 * zstd, snappy, lz4 block and frame, brotli encoder, bzip2), then decoded:
 * exactly the right size, one byte too small or too large a buffer, every
 * truncation of the compressed bytes (each in an exact-size allocation so
 * ASan sees any read past the end), concatenated members/frames, and
 * garbage. Also measures decode speed of a 1 MiB page per codec (printed).
 */
#include "format/codec.h"
#include "unit.h"

#include <brotli/encode.h>
#include <bzlib.h>
#include <lz4.h>
#include <lz4frame.h>
#include <snappy-c.h>
#include <stdlib.h>
#include <time.h>
#include <zlib.h>
#include <zstd.h>

static uint64_t rng_state = 0x243F6A8885A308D3ull;
static uint64_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Somewhat compressible text of n bytes. */
static uint8_t *make_text(size_t n) {
    uint8_t *t = malloc(n);
    static const char *const words[] = {"parquet ", "page ", "value ",  "12345 ",
                                        "\n",       "zstd ", "snappy ", "x"};
    for (size_t i = 0; i < n;) {
        const char *w = words[rnd() % 8];
        for (; *w && i < n; w++) t[i++] = (uint8_t)*w;
        if (rnd() % 5 == 0 && i < n) t[i++] = (uint8_t)('a' + rnd() % 26);
    }
    return t;
}

typedef struct blob {
    uint8_t *p;
    size_t len;
} blob;

static void blob_append(blob *b, const void *p, size_t n) {
    b->p = realloc(b->p, b->len + n + 1);
    memcpy(b->p + b->len, p, n);
    b->len += n;
}

/* ------------------------------------------------------- compressors */

static blob c_snappy(const uint8_t *in, size_t n) {
    blob b = {malloc(snappy_max_compressed_length(n)), snappy_max_compressed_length(n)};
    CHECK(snappy_compress((const char *)in, n, (char *)b.p, &b.len) == SNAPPY_OK);
    return b;
}

static blob c_zlib(const uint8_t *in, size_t n, int window_bits) {
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    CHECK(deflateInit2(&zs, 6, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY) == Z_OK);
    blob b = {malloc(deflateBound(&zs, n) + 32), 0};
    zs.next_in = (Bytef *)(uintptr_t)in;
    zs.avail_in = (uInt)n;
    zs.next_out = b.p;
    zs.avail_out = (uInt)deflateBound(&zs, n) + 32;
    CHECK(deflate(&zs, Z_FINISH) == Z_STREAM_END);
    b.len = zs.total_out;
    deflateEnd(&zs);
    return b;
}

static blob c_zstd(const uint8_t *in, size_t n, bool with_size) {
    size_t cap = ZSTD_compressBound(n);
    blob b = {malloc(cap), 0};
    ZSTD_CCtx *c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, with_size ? 1 : 0);
    b.len = ZSTD_compress2(c, b.p, cap, in, n);
    CHECK(!ZSTD_isError(b.len));
    ZSTD_freeCCtx(c);
    return b;
}

static blob c_lz4(const uint8_t *in, size_t n) {
    int cap = LZ4_compressBound((int)n);
    blob b = {malloc((size_t)cap), 0};
    int r = LZ4_compress_default((const char *)in, (char *)b.p, (int)n, cap);
    CHECK(r > 0);
    b.len = (size_t)r;
    return b;
}

static void put_be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8),
    p[3] = (uint8_t)v;
}

/* Hadoop Lz4Codec framing, one block per `chunk` input bytes. */
static blob c_lz4_hadoop(const uint8_t *in, size_t n, size_t chunk) {
    blob out = {NULL, 0};
    for (size_t off = 0; off < n; off += chunk) {
        size_t m = n - off < chunk ? n - off : chunk;
        blob c = c_lz4(in + off, m);
        uint8_t hdr[8];
        put_be32(hdr, (uint32_t)m);
        put_be32(hdr + 4, (uint32_t)c.len);
        blob_append(&out, hdr, 8);
        blob_append(&out, c.p, c.len);
        free(c.p);
    }
    return out;
}

static blob c_lz4_frame(const uint8_t *in, size_t n) {
    size_t cap = LZ4F_compressFrameBound(n, NULL);
    blob b = {malloc(cap), 0};
    b.len = LZ4F_compressFrame(b.p, cap, in, n, NULL);
    CHECK(!LZ4F_isError(b.len));
    return b;
}

static blob c_brotli(const uint8_t *in, size_t n) {
    size_t cap = BrotliEncoderMaxCompressedSize(n) + 16;
    blob b = {malloc(cap), cap};
    CHECK(BrotliEncoderCompress(5, 20, BROTLI_MODE_GENERIC, n, in, &b.len, b.p));
    return b;
}

static blob c_bzip2(const uint8_t *in, size_t n) {
    unsigned cap = (unsigned)(n + n / 100 + 700);
    blob b = {malloc(cap), 0};
    CHECK(BZ2_bzBuffToBuffCompress((char *)b.p, &cap, (char *)(uintptr_t)in, (unsigned)n, 1, 0,
                                   0) == BZ_OK);
    b.len = cap;
    return b;
}

/* ------------------------------------------------------------ checks */

/* The compressed blob decodes to `want` exactly, fails for a buffer one
 * byte smaller or larger, and fails for every truncation. */
static void check_codec(sqe_codec c, const char *name, blob comp, const uint8_t *want,
                        size_t want_len, bool all_prefixes) {
    sqe_error err;
    uint8_t *src = malloc(comp.len ? comp.len : 1), *dst = malloc(want_len + 2);
    memcpy(src, comp.p, comp.len);
    memset(dst, 0xEE, want_len + 2);
    bool ok = sqe_codec_decompress(c, src, comp.len, dst, want_len, "page", &err);
    CHECK(ok);
    if (!ok) fprintf(stderr, "  %s: %s\n", name, err.msg);
    CHECK(memcmp(dst, want, want_len) == 0);
    CHECK(dst[want_len] == 0xEE); /* nothing written past dst_len */
    if (want_len > 0) {
        CHECK(!sqe_codec_decompress(c, src, comp.len, dst, want_len - 1, "page", &err));
        CHECK(err.cls == SQE_ERR_INVALID_DATA);
        CHECK_CONTAINS(err.msg, "page: ");
        CHECK_CONTAINS(err.msg, "bytes");
    }
    CHECK(!sqe_codec_decompress(c, src, comp.len, dst, want_len + 1, "page", &err));
    CHECK(err.cls == SQE_ERR_INVALID_DATA);
    CHECK_CONTAINS(err.msg, "page: ");
    size_t step = all_prefixes ? 1 : 1 + comp.len / 97;
    for (size_t cut = want_len == 0; cut < comp.len; cut += step) {
        uint8_t *t = malloc(cut ? cut : 1);
        memcpy(t, comp.p, cut);
        bool tok = sqe_codec_decompress(c, t, cut, dst, want_len, "page", &err);
        CHECK(!tok);
        if (tok)
            fprintf(stderr, "  %s: a prefix of %zu/%zu bytes decoded\n", name, cut, comp.len);
        else
            CHECK(err.cls == SQE_ERR_INVALID_DATA);
        free(t);
    }
    free(src);
    free(dst);
}

static void check_message(sqe_codec c, blob comp, size_t dst_len, const char *part) {
    sqe_error err;
    uint8_t *dst = malloc(dst_len + 1);
    CHECK(
        !sqe_codec_decompress(c, comp.p, comp.len, dst, dst_len, "file 'f', page at byte 4", &err));
    CHECK_CONTAINS(err.msg, part);
    CHECK_CONTAINS(err.msg, "file 'f', page at byte 4: ");
    free(dst);
}

enum { TEXT = 3000 };

static void test_none(void) {
    uint8_t *t = make_text(TEXT);
    blob b = {t, TEXT};
    sqe_error err;
    uint8_t dst[TEXT + 1];
    CHECK(sqe_codec_decompress(SQE_CODEC_NONE, t, TEXT, dst, TEXT, "p", &err));
    CHECK(memcmp(dst, t, TEXT) == 0);
    check_message(SQE_CODEC_NONE, b, TEXT - 1,
                  "uncompressed data is 3000 bytes, the page header says 2999");
    CHECK(sqe_codec_decompress(SQE_CODEC_NONE, NULL, 0, NULL, 0, "p", &err));
    free(t);
}

static void test_snappy(void) {
    uint8_t *t = make_text(TEXT);
    blob b = c_snappy(t, TEXT);
    check_codec(SQE_CODEC_SNAPPY, "snappy", b, t, TEXT, true);
    check_message(SQE_CODEC_SNAPPY, b, 1000,
                  "snappy data decompresses to 3000 bytes, the page header says 1000");
    b.p[0] ^= 0x80; /* preamble varint now continues into the data */
    check_message(SQE_CODEC_SNAPPY, b, TEXT, "snappy");
    blob empty = c_snappy(t, 0);
    check_codec(SQE_CODEC_SNAPPY, "snappy empty", empty, t, 0, true);
    free(empty.p);
    free(b.p);
    free(t);
}

static void test_gzip_and_deflate(void) {
    uint8_t *t = make_text(TEXT);
    blob gz = c_zlib(t, TEXT, 15 + 16);
    check_codec(SQE_CODEC_GZIP, "gzip", gz, t, TEXT, true);
    check_message(SQE_CODEC_GZIP, gz, TEXT + 5,
                  "gzip data decompresses to 3000 bytes, the page header says 3005");
    blob gz_cut = {gz.p, gz.len - 4}; /* without the trailer's length field */
    check_message(SQE_CODEC_GZIP, gz_cut, TEXT, "gzip data is truncated (3000 bytes decoded)");
    check_message(SQE_CODEC_GZIP, gz, TEXT - 5,
                  "gzip data decompresses to more than 2995 bytes, the page header says 2995");
    /* a zlib stream under the GZIP codec (auto-detected) */
    blob zl = c_zlib(t, TEXT, 15);
    check_codec(SQE_CODEC_GZIP, "gzip(zlib)", zl, t, TEXT, false);
    check_codec(SQE_CODEC_DEFLATE, "deflate", zl, t, TEXT, true);
    check_message(SQE_CODEC_DEFLATE, gz, TEXT, "deflate: incorrect header check");
    /* two members back to back */
    blob g1 = c_zlib(t, 1000, 15 + 16), g2 = c_zlib(t + 1000, TEXT - 1000, 15 + 16), two = {0};
    blob_append(&two, g1.p, g1.len);
    blob_append(&two, g2.p, g2.len);
    check_codec(SQE_CODEC_GZIP, "gzip members", two, t, TEXT, false);
    /* garbage after a member */
    blob junk = {0};
    blob_append(&junk, g1.p, g1.len);
    blob_append(&junk, "junk", 4);
    check_message(SQE_CODEC_GZIP, junk, 1000, "gzip: incorrect header check");
    free(junk.p);
    free(two.p);
    free(g1.p);
    free(g2.p);
    free(zl.p);
    free(gz.p);
    free(t);
}

static void test_zstd(void) {
    uint8_t *t = make_text(TEXT);
    blob z = c_zstd(t, TEXT, true);
    check_codec(SQE_CODEC_ZSTD, "zstd", z, t, TEXT, true);
    check_message(SQE_CODEC_ZSTD, z, 2000,
                  "zstd frames declare at least 3000 bytes, the page header says 2000");
    check_message(SQE_CODEC_ZSTD, z, 4000,
                  "zstd data decompresses to 3000 bytes, the page header says 4000");
    blob nosize = c_zstd(t, TEXT, false);
    check_codec(SQE_CODEC_ZSTD, "zstd no size", nosize, t, TEXT, true);
    check_message(SQE_CODEC_ZSTD, nosize, 2000,
                  "zstd data decompresses to more than 2000 bytes, the page header says 2000");
    check_message(SQE_CODEC_ZSTD, nosize, 4000,
                  "zstd data decompresses to 3000 bytes, the page header says 4000");
    /* frames back to back, with a skippable frame between them */
    blob z1 = c_zstd(t, 1000, true), z2 = c_zstd(t + 1000, TEXT - 1000, false), all = {0};
    const uint8_t skip[] = {0x50, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, 'a', 'b', 'c'};
    blob_append(&all, z1.p, z1.len);
    blob_append(&all, skip, sizeof skip);
    blob_append(&all, z2.p, z2.len);
    check_codec(SQE_CODEC_ZSTD, "zstd frames", all, t, TEXT, false);
    blob bad = {(uint8_t *)"not zstd at all", 15};
    check_message(SQE_CODEC_ZSTD, bad, 10, "zstd: Unknown frame descriptor");
    free(all.p);
    free(z1.p);
    free(z2.p);
    free(nosize.p);
    free(z.p);
    free(t);
}

static void test_lz4(void) {
    uint8_t *t = make_text(TEXT);
    blob raw = c_lz4(t, TEXT);
    check_codec(SQE_CODEC_LZ4_RAW, "lz4 raw", raw, t, TEXT, true);
    check_message(SQE_CODEC_LZ4_RAW, raw, TEXT + 1,
                  "lz4 data decompresses to 3000 bytes, the page header says 3001");
    check_message(SQE_CODEC_LZ4_RAW, raw, TEXT - 1, "lz4 data is corrupt, truncated or");
    /* Parquet's legacy LZ4: Hadoop framing, one or several blocks */
    blob h1 = c_lz4_hadoop(t, TEXT, TEXT), h3 = c_lz4_hadoop(t, TEXT, 1024);
    check_codec(SQE_CODEC_LZ4_HADOOP, "lz4 hadoop", h1, t, TEXT, true);
    check_codec(SQE_CODEC_LZ4_HADOOP, "lz4 hadoop 3", h3, t, TEXT, true);
    check_message(SQE_CODEC_LZ4_HADOOP, h3, TEXT + 1,
                  "lz4 (Hadoop) data decompresses to 3000 bytes, the page header says 3001");
    /* ... or a raw block written under the same codec id */
    check_codec(SQE_CODEC_LZ4_HADOOP, "lz4 hadoop raw", raw, t, TEXT, true);
    /* LZ4 frames (the lz4 CLI's format), two back to back, and Hadoop framing */
    blob f = c_lz4_frame(t, TEXT);
    check_codec(SQE_CODEC_LZ4_FRAME, "lz4 frame", f, t, TEXT, true);
    blob f1 = c_lz4_frame(t, 1000), f2 = c_lz4_frame(t + 1000, TEXT - 1000), two = {0};
    blob_append(&two, f1.p, f1.len);
    blob_append(&two, f2.p, f2.len);
    check_codec(SQE_CODEC_LZ4_FRAME, "lz4 frames", two, t, TEXT, false);
    check_codec(SQE_CODEC_LZ4_FRAME, "lz4 frame hadoop", h3, t, TEXT, false);
    check_message(SQE_CODEC_LZ4_FRAME, raw, TEXT,
                  "lz4 data is neither LZ4 frames nor Hadoop-framed LZ4 blocks");
    check_message(SQE_CODEC_LZ4_FRAME, f, TEXT - 1,
                  "lz4 data decompresses to more than 2999 bytes, the page header says 2999");
    free(two.p);
    free(f1.p);
    free(f2.p);
    free(f.p);
    free(h1.p);
    free(h3.p);
    free(raw.p);
    free(t);
}

static void test_brotli_and_bzip2(void) {
    uint8_t *t = make_text(TEXT);
    blob br = c_brotli(t, TEXT);
    check_codec(SQE_CODEC_BROTLI, "brotli", br, t, TEXT, true);
    check_message(SQE_CODEC_BROTLI, br, TEXT - 1,
                  "brotli data decompresses to more than 2999 bytes, the page header says 2999");
    check_message(SQE_CODEC_BROTLI, br, TEXT + 1,
                  "brotli data decompresses to 3000 bytes, the page header says 3001");
    blob br_junk = {0};
    blob_append(&br_junk, br.p, br.len);
    blob_append(&br_junk, "zz", 2);
    check_message(SQE_CODEC_BROTLI, br_junk, TEXT,
                  "brotli data has 2 bytes after the end of the stream");
    blob bz = c_bzip2(t, TEXT);
    check_codec(SQE_CODEC_BZIP2, "bzip2", bz, t, TEXT, true);
    check_message(SQE_CODEC_BZIP2, bz, TEXT - 1,
                  "bzip2 data decompresses to more than 2999 bytes, the page header says 2999");
    blob b1 = c_bzip2(t, 1000), b2 = c_bzip2(t + 1000, TEXT - 1000), two = {0};
    blob_append(&two, b1.p, b1.len);
    blob_append(&two, b2.p, b2.len);
    check_codec(SQE_CODEC_BZIP2, "bzip2 streams", two, t, TEXT, false);
    free(two.p);
    free(b1.p);
    free(b2.p);
    free(bz.p);
    free(br_junk.p);
    free(br.p);
    free(t);
}

static void test_lzo_and_garbage(void) {
    sqe_error err;
    uint8_t src[512] = {0}, dst[4096];
    CHECK(!sqe_codec_decompress(SQE_CODEC_LZO, src, 10, dst, 10, "file 'x.parquet'", &err));
    CHECK(err.cls == SQE_ERR_NOT_SUPPORTED);
    CHECK_STR(err.msg, "file 'x.parquet': LZO compression is not supported");
    CHECK(!sqe_codec_decompress((sqe_codec)99, src, 10, dst, 10, "p", &err));
    CHECK(err.cls == SQE_ERR_NOT_SUPPORTED);
    /* random bytes: an error for every codec, never a crash */
    for (int trial = 0; trial < 200; trial++) {
        size_t n = 1 + rnd() % sizeof src;
        for (size_t i = 0; i < n; i++) src[i] = (uint8_t)rnd();
        for (int c = SQE_CODEC_SNAPPY; c < SQE_CODEC__COUNT; c++) {
            uint8_t *s = malloc(n);
            memcpy(s, src, n);
            bool ok =
                sqe_codec_decompress((sqe_codec)c, s, n, dst, 1 + rnd() % sizeof dst, "p", &err);
            CHECK(!ok);
            free(s);
        }
    }
    /* empty page: nothing in, nothing out */
    for (int c = SQE_CODEC_NONE; c < SQE_CODEC__COUNT; c++)
        if (c != SQE_CODEC_LZO) CHECK(sqe_codec_decompress((sqe_codec)c, "", 0, dst, 0, "p", &err));
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts); /* CPU time: robust on a busy machine */
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void test_speed(void) {
    enum { N = 1 << 20 };
    uint8_t *t = make_text(N), *dst = malloc(N);
    struct {
        sqe_codec c;
        const char *name;
        blob b;
    } cs[] = {
        {SQE_CODEC_SNAPPY, "snappy", c_snappy(t, N)}, {SQE_CODEC_GZIP, "gzip", c_zlib(t, N, 31)},
        {SQE_CODEC_ZSTD, "zstd", c_zstd(t, N, true)}, {SQE_CODEC_LZ4_RAW, "lz4", c_lz4(t, N)},
        {SQE_CODEC_BROTLI, "brotli", c_brotli(t, N)},
    };
    for (size_t i = 0; i < sizeof cs / sizeof *cs; i++) {
        sqe_error err;
        int reps = 10;
        bool ok = true;
        double t0 = now_s();
        for (int r = 0; r < reps; r++)
            ok &= sqe_codec_decompress(cs[i].c, cs[i].b.p, cs[i].b.len, dst, N, "p", &err);
        double dt = now_s() - t0;
        CHECK(ok && memcmp(dst, t, N) == 0);
        fprintf(stderr, "  %-6s 1 MiB page (ratio %.1f): %.0f MB/s out\n", cs[i].name,
                (double)N / cs[i].b.len, (double)N * reps / dt / 1e6);
        free(cs[i].b.p);
    }
    free(t);
    free(dst);
}

/* Pages of parquet-testing files at known offsets (found by walking their
 * page headers): Hadoop-framed LZ4 (Parquet codec LZ4) and LZ4_RAW, both
 * holding the int64 timestamps 1593604800 and 1593604801. */
static void test_real_files(void) {
    static const struct {
        const char *file;
        sqe_codec c;
        long off;
        size_t clen, ulen;
    } pages[] = {
        {"hadoop_lz4_compressed.parquet", SQE_CODEC_LZ4_HADOOP, 17, 26, 16}, /* dictionary page */
        {"lz4_raw_compressed.parquet", SQE_CODEC_LZ4_RAW, 65, 24, 32},       /* data page v1 */
    };
    for (size_t i = 0; i < sizeof pages / sizeof *pages; i++) {
        char path[256];
        snprintf(path, sizeof path, "/work/shared/parquet-testing/%s", pages[i].file);
        FILE *f = fopen(path, "rb");
        if (!f) {
            fprintf(stderr, "  (%s not found: skipped)\n", path);
            continue;
        }
        uint8_t src[64], dst[64];
        fseek(f, pages[i].off, SEEK_SET);
        CHECK(fread(src, 1, pages[i].clen, f) == pages[i].clen);
        fclose(f);
        sqe_error err;
        CHECK(sqe_codec_decompress(pages[i].c, src, pages[i].clen, dst, pages[i].ulen, "p", &err));
        int64_t v0, v1;
        memcpy(&v0, dst, 8);
        memcpy(&v1, dst + 8, 8);
        CHECK(v0 == 1593604800);
        CHECK(v1 == 1593604801 || v1 == 1593604800);
    }
}

int main(void) {
    RUN(test_none);
    RUN(test_snappy);
    RUN(test_gzip_and_deflate);
    RUN(test_zstd);
    RUN(test_lz4);
    RUN(test_brotli_and_bzip2);
    RUN(test_lzo_and_garbage);
    RUN(test_real_files);
    RUN(test_speed);
    return unit_report();
}
