/*
 * test_byte_stream.c - sqe_byte_stream (format/byte_stream.c) and the codec
 * names and file-name rules of format/codec.h.
 *
 * Fixtures are compressed here with each library's own compress API (zlib,
 * libbz2, libzstd, lz4frame and raw LZ4, snappy, brotli's encoder), written
 * to a mkdtemp folder and read back through the local store with several
 * input chunk sizes and read sizes. Every codec is also read truncated at
 * many prefix lengths (an error naming the file and codec, or for framings
 * without an end marker a prefix of the data ending on a block boundary),
 * with garbage appended or substituted, and with a listed size larger than
 * the file.
 */
#include "format/codec.h"
#include "unit.h"

#include <brotli/encode.h>
#include <bzlib.h>
#include <lz4.h>
#include <lz4frame.h>
#include <snappy-c.h>
#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

static char g_dir[64];
static sqe_store *g_store;

typedef struct buf {
    uint8_t *p;
    size_t len, cap;
} buf;

static void buf_put(buf *b, const void *p, size_t n) {
    if (n == 0) return;
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2 + 64;
        b->p = sqe_realloc(b->p, b->cap);
    }
    memcpy(b->p + b->len, p, n);
    b->len += n;
}

static void put_be32(buf *b, uint32_t v) {
    uint8_t x[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    buf_put(b, x, 4);
}

/* ------------------------------------------------------- compressors */

static void gzip_member(buf *out, const uint8_t *src, size_t n, int window_bits) {
    z_stream z;
    memset(&z, 0, sizeof z);
    deflateInit2(&z, 6, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY);
    size_t cap = deflateBound(&z, n) + 32;
    uint8_t *tmp = sqe_malloc(cap);
    z.next_in = (uint8_t *)src;
    z.avail_in = (uInt)n;
    z.next_out = tmp;
    z.avail_out = (uInt)cap;
    deflate(&z, Z_FINISH);
    buf_put(out, tmp, cap - z.avail_out);
    deflateEnd(&z);
    sqe_free(tmp);
}

static void bzip2_stream(buf *out, const uint8_t *src, size_t n) {
    unsigned cap = (unsigned)(n + n / 50 + 1024);
    char *tmp = sqe_malloc(cap);
    BZ2_bzBuffToBuffCompress(tmp, &cap, (char *)src, (unsigned)n, 9, 0, 0);
    buf_put(out, tmp, cap);
    sqe_free(tmp);
}

static void zstd_frame(buf *out, const uint8_t *src, size_t n) {
    size_t cap = ZSTD_compressBound(n);
    uint8_t *tmp = sqe_malloc(cap);
    size_t r = ZSTD_compress(tmp, cap, src, n, 3);
    buf_put(out, tmp, r);
    sqe_free(tmp);
}

static void lz4_frame(buf *out, const uint8_t *src, size_t n) {
    size_t cap = LZ4F_compressFrameBound(n, NULL);
    uint8_t *tmp = sqe_malloc(cap);
    size_t r = LZ4F_compressFrame(tmp, cap, src, n, NULL);
    buf_put(out, tmp, r);
    sqe_free(tmp);
}

/* Hadoop BlockCompressorStream: blocks of `block` raw bytes, each written as
 * pieces of `piece` raw bytes. */
static void hadoop_blocks(buf *out, const uint8_t *src, size_t n, size_t block, size_t piece,
                          bool snappy) {
    for (size_t off = 0; off < n; off += block) {
        size_t bl = SQE_MIN(block, n - off);
        put_be32(out, (uint32_t)bl);
        for (size_t p = 0; p < bl; p += piece) {
            size_t pl = SQE_MIN(piece, bl - p);
            size_t cap =
                snappy ? snappy_max_compressed_length(pl) : (size_t)LZ4_compressBound((int)pl);
            char *tmp = sqe_malloc(cap);
            size_t clen = cap;
            if (snappy)
                snappy_compress((const char *)src + off + p, pl, tmp, &clen);
            else
                clen = (size_t)LZ4_compress_default((const char *)src + off + p, tmp, (int)pl,
                                                    (int)cap);
            put_be32(out, (uint32_t)clen);
            buf_put(out, tmp, clen);
            sqe_free(tmp);
        }
    }
}

static uint32_t test_crc32c(const uint8_t *p, size_t n) {
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
    }
    return c ^ 0xFFFFFFFFu;
}

/* The snappy framing format: stream identifier, then compressed chunks of
 * up to 64 KiB (every third one stored uncompressed), a padding chunk. */
static void snappy_framed(buf *out, const uint8_t *src, size_t n) {
    buf_put(out, "\xff\x06\x00\x00sNaPpY", 10);
    int k = 0;
    for (size_t off = 0; off < n; off += 65536, k++) {
        size_t l = SQE_MIN((size_t)65536, n - off);
        uint32_t crc = test_crc32c(src + off, l);
        uint32_t masked = ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
        uint8_t m[4] = {(uint8_t)masked, (uint8_t)(masked >> 8), (uint8_t)(masked >> 16),
                        (uint8_t)(masked >> 24)};
        size_t cap = snappy_max_compressed_length(l);
        char *tmp = sqe_malloc(cap);
        size_t clen = cap;
        bool raw = k % 3 == 2;
        if (raw)
            memcpy(tmp, src + off, clen = l);
        else
            snappy_compress((const char *)src + off, l, tmp, &clen);
        uint32_t len = (uint32_t)clen + 4;
        uint8_t h[4] = {raw ? 0x01 : 0x00, (uint8_t)len, (uint8_t)(len >> 8), (uint8_t)(len >> 16)};
        buf_put(out, h, 4);
        buf_put(out, m, 4);
        buf_put(out, tmp, clen);
        sqe_free(tmp);
        if (k == 0) buf_put(out, "\xfe\x02\x00\x00\x00\x00", 6); /* padding */
    }
}

static void brotli_stream(buf *out, const uint8_t *src, size_t n) {
    size_t cap = BrotliEncoderMaxCompressedSize(n) + 64;
    uint8_t *tmp = sqe_malloc(cap);
    BrotliEncoderCompress(5, 22, BROTLI_MODE_TEXT, n, src, &cap, tmp);
    buf_put(out, tmp, cap);
    sqe_free(tmp);
}

/* The fixture for a codec; `multi` makes several members/frames/blocks. */
static void compress_as(const char *kind, const uint8_t *src, size_t n, bool multi, buf *out) {
    if (!strcmp(kind, "br")) multi = false; /* brotli streams do not concatenate */
    size_t half = multi ? n / 3 : n;
    const uint8_t *parts[2] = {src, src + half};
    size_t lens[2] = {half, n - half};
    int n_parts = multi ? 2 : 1;
    for (int i = 0; i < n_parts; i++) {
        if (!strcmp(kind, "gz"))
            gzip_member(out, parts[i], lens[i], 15 + 16);
        else if (!strcmp(kind, "deflate"))
            gzip_member(out, parts[i], lens[i], 15);
        else if (!strcmp(kind, "bz2"))
            bzip2_stream(out, parts[i], lens[i]);
        else if (!strcmp(kind, "zst"))
            zstd_frame(out, parts[i], lens[i]);
        else if (!strcmp(kind, "lz4"))
            lz4_frame(out, parts[i], lens[i]);
        else if (!strcmp(kind, "hlz4.lz4"))
            hadoop_blocks(out, parts[i], lens[i], 40000, 9000, false);
        else if (!strcmp(kind, "hsnappy.snappy"))
            hadoop_blocks(out, parts[i], lens[i], 40000, 9000, true);
        else if (!strcmp(kind, "fsnappy.snappy"))
            snappy_framed(out, parts[i], lens[i]);
        else if (!strcmp(kind, "br"))
            brotli_stream(out, parts[i], lens[i]);
    }
}

static const char *const k_kinds[] = {
    "gz", "deflate", "bz2", "zst", "lz4", "hlz4.lz4", "hsnappy.snappy", "fsnappy.snappy", "br"};

/* Text that compresses but not trivially: numbered lines with some noise. */
static uint8_t *make_text(size_t n) {
    uint8_t *p = sqe_malloc(n);
    uint32_t x = 12345;
    size_t i = 0;
    for (int line = 0; i < n; line++) {
        char tmp[64];
        x = x * 1103515245u + 12345u;
        int l = snprintf(tmp, sizeof tmp, "%d,%u,row-%d\n", line, x >> 16, line % 97);
        for (int k = 0; k < l && i < n; k++) p[i++] = (uint8_t)tmp[k];
    }
    return p;
}

/* ------------------------------------------------------------ reading */

static char *write_file(const char *name, const void *data, size_t len) {
    char *path = sqe_asprintf("%s/%s", g_dir, name);
    sqe_error err;
    if (!g_store->vt->put(g_store, path, data, len, &err))
        fprintf(stderr, "write %s: %s\n", path, err.msg);
    return path;
}

/* Reads the whole stream; returns false with err on failure. */
static bool read_all(const char *path, uint64_t size, sqe_codec c, size_t chunk, size_t cap,
                     buf *out, uint64_t *raw, sqe_error *err) {
    sqe_byte_stream *s = sqe_byte_stream_open(g_store, path, size, 0, c, chunk, err);
    if (!s) return false;
    uint8_t *tmp = sqe_malloc(cap);
    bool ok = true, eof = false;
    int zero_reads = 0;
    while (ok && !eof) {
        size_t n;
        ok = sqe_byte_stream_read(s, tmp, cap, &n, &eof, err);
        if (ok) buf_put(out, tmp, n);
        if (ok && !eof && n == 0 && ++zero_reads > 1000) {
            sqe_error_set(err, SQE_ERR_INTERNAL, "no progress");
            ok = false;
        }
        if (eof) CHECK(n == 0);
    }
    if (ok) { /* eof is sticky */
        size_t n = 1;
        CHECK(sqe_byte_stream_read(s, tmp, cap, &n, &eof, err) && eof && n == 0);
    }
    if (raw) *raw = sqe_byte_stream_raw_bytes(s);
    sqe_byte_stream_close(s);
    sqe_free(tmp);
    return ok;
}

static void test_codec_names(void) {
    CHECK(sqe_codec_for_path("/a/b.csv.gz") == SQE_CODEC_GZIP);
    CHECK(sqe_codec_for_path("/a/b.CSV.GZ") == SQE_CODEC_GZIP);
    CHECK(sqe_codec_for_path("x.bz2") == SQE_CODEC_BZIP2);
    CHECK(sqe_codec_for_path("x.zst") == SQE_CODEC_ZSTD);
    CHECK(sqe_codec_for_path("x.zstd") == SQE_CODEC_ZSTD);
    CHECK(sqe_codec_for_path("x.lz4") == SQE_CODEC_LZ4_FRAME);
    CHECK(sqe_codec_for_path("x.snappy") == SQE_CODEC_SNAPPY);
    CHECK(sqe_codec_for_path("x.deflate") == SQE_CODEC_DEFLATE);
    CHECK(sqe_codec_for_path("x.br") == SQE_CODEC_BROTLI);
    CHECK(sqe_codec_for_path("x.lzo") == SQE_CODEC_LZO);
    CHECK(sqe_codec_for_path("x.csv") == SQE_CODEC_NONE);
    CHECK(sqe_codec_for_path("gz") == SQE_CODEC_NONE);
    CHECK(sqe_codec_for_path(".gz") == SQE_CODEC_NONE); /* a name that is only the extension */
    CHECK(sqe_codec_for_path("part-0.snappy.txt") == SQE_CODEC_NONE);
    CHECK(sqe_codec_for_path(NULL) == SQE_CODEC_NONE);
    CHECK_STR(sqe_codec_name(SQE_CODEC_GZIP), "gzip");
    CHECK_STR(sqe_codec_name(SQE_CODEC_LZ4_FRAME), "lz4");
    CHECK_STR(sqe_codec_name(SQE_CODEC__COUNT), "unknown");
}

/* Every codec, single and multi-member, several chunk and read sizes. */
static void round_trips(size_t n, const size_t *chunks, int n_chunks) {
    uint8_t *text = make_text(n);
    for (size_t k = 0; k < SQE_ARRAY_LEN(k_kinds); k++) {
        for (int multi = 0; multi < 2; multi++) {
            buf z = {0};
            compress_as(k_kinds[k], text, n, multi, &z);
            char *name = sqe_asprintf("rt%d.%s", multi, k_kinds[k]);
            char *path = write_file(name, z.p, z.len);
            sqe_codec c = sqe_codec_for_path(path);
            static const size_t caps[] = {13, 65536, 1 << 20};
            for (int ci = 0; ci < n_chunks; ci++) {
                for (size_t ri = 0; ri < 3; ri++) {
                    buf out = {0};
                    sqe_error err;
                    uint64_t raw = 0;
                    bool ok = read_all(path, z.len, c, chunks[ci], caps[ri], &out, &raw, &err);
                    if (!ok)
                        fprintf(stderr, "  %s chunk %zu cap %zu: %s\n", name, chunks[ci], caps[ri],
                                err.msg);
                    CHECK(ok);
                    CHECK(out.len == n && memcmp(out.p, text, n) == 0);
                    CHECK(raw == z.len);
                    sqe_free(out.p);
                }
            }
            /* size 0 from the listing: read until a short read */
            buf out = {0};
            sqe_error err;
            CHECK(read_all(path, 0, c, 65536, 65536, &out, NULL, &err));
            CHECK(out.len == n);
            sqe_free(out.p);
            sqe_free(name);
            sqe_free(path);
            sqe_free(z.p);
        }
    }
    sqe_free(text);
}

static void test_round_trips(void) {
    static const size_t big[] = {4096, 1 << 20}, tiny[] = {1, 7};
    round_trips(300000, big, 2);
    round_trips(5000, tiny, 2); /* every byte its own get_range */
}

/* A prefix of every codec's fixture: an error naming the file and codec,
 * or (framings without an end marker: snappy, Hadoop blocks, several gzip
 * members) a prefix of the data. */
static void test_truncation(void) {
    size_t n = 150000; /* three snappy frame chunks, several Hadoop blocks */
    uint8_t *text = make_text(n);
    for (size_t k = 0; k < SQE_ARRAY_LEN(k_kinds); k++) {
        buf z = {0};
        compress_as(k_kinds[k], text, n, true, &z);
        bool blocks = strstr(k_kinds[k], "snappy") || strstr(k_kinds[k], "hlz4");
        char *name = sqe_asprintf("trunc.%s", k_kinds[k]);
        char *path = write_file(name, z.p, z.len);
        sqe_codec c = sqe_codec_for_path(path);
        int n_ok = 0, n_err = 0;
        size_t step = z.len / 80 + 1;
        for (size_t len = 1; len < z.len; len += (len < 40 || len > z.len - 40) ? 1 : step) {
            char *tpath = write_file(name, z.p, len); /* same name: the codec comes from it */
            buf out = {0};
            sqe_error err;
            bool ok = read_all(tpath, len, c, 4096, 65536, &out, NULL, &err);
            if (ok) {
                n_ok++;
                bool prefix = out.len < n && (out.len == 0 || memcmp(out.p, text, out.len) == 0);
                if (!prefix || !blocks)
                    fprintf(stderr, "  %s prefix %zu of %zu read without error (%zu bytes)\n", name,
                            len, z.len, out.len);
                CHECK(prefix);
                CHECK(blocks);
            } else {
                n_err++;
                CHECK(err.cls == SQE_ERR_INVALID_DATA);
                CHECK_CONTAINS(err.msg, tpath);
                CHECK_CONTAINS(err.msg, sqe_codec_name(c));
            }
            sqe_free(out.p);
            sqe_free(tpath);
        }
        CHECK(n_err > 0);
        /* the whole file still reads */
        sqe_free(write_file(name, z.p, z.len));
        buf out = {0};
        sqe_error err;
        CHECK(read_all(path, z.len, c, 4096, 65536, &out, NULL, &err) && out.len == n);
        sqe_free(out.p);
        sqe_free(name);
        sqe_free(path);
        sqe_free(z.p);
    }
    sqe_free(text);
}

static void expect_fail(const char *name, const void *data, size_t len, uint64_t size,
                        sqe_error_class cls, const char *part) {
    char *path = write_file(name, data, len);
    buf out = {0};
    sqe_error err;
    bool ok = read_all(path, size, sqe_codec_for_path(path), 4096, 65536, &out, NULL, &err);
    CHECK(!ok);
    if (!ok) {
        CHECK(err.cls == cls);
        CHECK_CONTAINS(err.msg, path);
        CHECK_CONTAINS(err.msg, part);
    }
    sqe_free(out.p);
    sqe_free(path);
}

static void test_errors(void) {
    const char *text = "a,1\nb,2\n";
    buf z = {0};
    gzip_member(&z, (const uint8_t *)text, strlen(text), 31);
    /* garbage after a complete member: read as the next member */
    buf g = {0};
    buf_put(&g, z.p, z.len);
    buf_put(&g, "garbage!", 8);
    expect_fail("garbage.csv.gz", g.p, g.len, g.len, SQE_ERR_INVALID_DATA, "gzip");
    /* not compressed at all */
    expect_fail("plain.csv.gz", text, strlen(text), strlen(text), SQE_ERR_INVALID_DATA, "gzip: ");
    expect_fail("plain.csv.bz2", text, strlen(text), strlen(text), SQE_ERR_INVALID_DATA, "bzip2: ");
    expect_fail("plain.csv.zst", text, strlen(text), strlen(text), SQE_ERR_INVALID_DATA, "zstd: ");
    expect_fail("plain.csv.br", text, strlen(text), strlen(text), SQE_ERR_INVALID_DATA, "brotli: ");
    expect_fail("plain.csv.deflate", text, strlen(text), strlen(text), SQE_ERR_INVALID_DATA,
                "deflate: ");
    expect_fail("plain.csv.lz4", text, strlen(text), strlen(text), SQE_ERR_INVALID_DATA, "lz4: ");
    expect_fail("plain.csv.snappy", text, strlen(text), strlen(text), SQE_ERR_INVALID_DATA,
                "snappy: ");
    /* a listed size larger than the file */
    expect_fail("short.csv.gz", z.p, z.len, z.len + 100, SQE_ERR_INVALID_DATA,
                "(gzip) is shorter than its listed size");
    expect_fail("short.csv", text, strlen(text), 100, SQE_ERR_INVALID_DATA,
                "shorter than its listed size");
    /* regression (issue 7 item 2): a file longer than its listed size (it
     * grew after the listing) was read up to the listed size, a partial
     * answer; now it fails naming the file */
    expect_fail("grown.csv.gz", z.p, z.len, z.len - 3, SQE_ERR_INVALID_DATA,
                "(gzip) is longer than its listed size of");
    expect_fail("grown.csv", text, strlen(text), 4, SQE_ERR_INVALID_DATA,
                "is longer than its listed size of 4 bytes (did it grow");
    /* a snappy framing chunk with a wrong checksum */
    buf s = {0};
    snappy_framed(&s, (const uint8_t *)text, strlen(text));
    s.p[14] ^= 1; /* first chunk's checksum */
    expect_fail("crc.snappy", s.p, s.len, s.len, SQE_ERR_INVALID_DATA, "checksum");
    /* a Hadoop block claiming 1 GiB */
    expect_fail("huge.snappy", "\x40\x00\x00\x00\x00\x00\x00\x01x", 9, 9, SQE_ERR_INVALID_DATA,
                "limit");
    /* brotli followed by more bytes */
    buf b = {0};
    brotli_stream(&b, (const uint8_t *)text, strlen(text));
    buf_put(&b, "x", 1);
    expect_fail("tail.br", b.p, b.len, b.len, SQE_ERR_INVALID_DATA, "after the end");
    /* LZO is refused at open */
    char *path = write_file("x.lzo", text, strlen(text));
    sqe_error err;
    CHECK(sqe_byte_stream_open(g_store, path, 8, 0, SQE_CODEC_LZO, 4096, &err) == NULL);
    CHECK(err.cls == SQE_ERR_NOT_SUPPORTED);
    CHECK_CONTAINS(err.msg, path);
    CHECK_CONTAINS(err.msg, ".lzo");
    sqe_free(path);
    sqe_free(z.p);
    sqe_free(g.p);
    sqe_free(s.p);
    sqe_free(b.p);
}

/* Codec NONE passes bytes through, also from an offset. */
static void test_plain(void) {
    const char *text = "0123456789abcdef";
    char *path = write_file("plain.txt", text, 16);
    buf out = {0};
    sqe_error err;
    CHECK(read_all(path, 16, SQE_CODEC_NONE, 3, 5, &out, NULL, &err));
    CHECK(out.len == 16 && memcmp(out.p, text, 16) == 0);
    sqe_free(out.p);
    sqe_byte_stream *s = sqe_byte_stream_open(g_store, path, 16, 10, SQE_CODEC_NONE, 4, &err);
    char b[32];
    size_t n;
    bool eof;
    CHECK(s && sqe_byte_stream_read(s, b, sizeof b, &n, &eof, &err) && n == 6 && !eof);
    CHECK(memcmp(b, "abcdef", 6) == 0);
    CHECK(sqe_byte_stream_read(s, b, sizeof b, &n, &eof, &err) && n == 0 && eof);
    CHECK(sqe_byte_stream_raw_bytes(s) == 6);
    sqe_byte_stream_close(s);
    /* a compressed stream cannot start mid-file */
    CHECK(sqe_byte_stream_open(g_store, path, 16, 3, SQE_CODEC_GZIP, 4, &err) == NULL);
    CHECK(err.cls == SQE_ERR_INTERNAL);
    sqe_free(path);
}

/* A bomb: 64 MiB of zeros in a small gzip file streams through a small
 * buffer (memory stays bounded by the read size). */
static void test_bomb(void) {
    size_t n = (size_t)64 << 20;
    uint8_t *zeros = sqe_calloc(1, n);
    buf z = {0};
    gzip_member(&z, zeros, n, 31);
    sqe_free(zeros);
    char *path = write_file("bomb.gz", z.p, z.len);
    sqe_error err;
    sqe_byte_stream *s = sqe_byte_stream_open(g_store, path, z.len, 0, SQE_CODEC_GZIP, 65536, &err);
    uint8_t tmp[65536];
    size_t total = 0, n_read;
    bool eof = false, ok = true;
    while (ok && !eof) {
        ok = sqe_byte_stream_read(s, tmp, sizeof tmp, &n_read, &eof, &err);
        total += n_read;
    }
    CHECK(ok && total == n);
    sqe_byte_stream_close(s);
    sqe_free(path);
    sqe_free(z.p);
}

int main(void) {
    strcpy(g_dir, "/tmp/sqe_bs_XXXXXX");
    if (!mkdtemp(g_dir)) return 2;
    g_store = sqe_io_local_new();
    RUN(test_codec_names);
    RUN(test_plain);
    RUN(test_round_trips);
    RUN(test_truncation);
    RUN(test_errors);
    RUN(test_bomb);
    sqe_store_free(g_store);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_dir);
    if (system(cmd) != 0) return 2;
    return unit_report();
}
