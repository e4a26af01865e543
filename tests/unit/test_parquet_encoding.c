/*
 * test_parquet_encoding.c - Parquet value encodings (format/parquet_encoding.c):
 * hand-encoded buffers from the examples of parquet-format's Encodings.md,
 * round trips through small encoders written here (RLE/bit-packed hybrid,
 * DELTA_BINARY_PACKED), every truncation of an encoded buffer (each copied
 * into an exact-size allocation so ASan sees any read past the end), the
 * error paths, and the RLE decode speed.
 */
#include "format/codec.h"
#include "format/parquet.h"
#include "unit.h"

#include <stdlib.h>
#include <time.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* ------------------------------------------------------------ encoders */

typedef struct wbuf {
    uint8_t *p;
    size_t len, cap;
} wbuf;

static void w_byte(wbuf *w, uint8_t b) {
    if (w->len == w->cap) {
        w->cap = w->cap ? 2 * w->cap : 256;
        w->p = realloc(w->p, w->cap);
    }
    w->p[w->len++] = b;
}

static void w_uleb(wbuf *w, uint64_t v) {
    do {
        uint8_t b = v & 0x7F;
        v >>= 7;
        w_byte(w, b | (v ? 0x80 : 0));
    } while (v);
}

static void w_zigzag(wbuf *w, int64_t v) {
    w_uleb(w, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

/* Packs n values (n a multiple of 8) of width bw, LSB first. */
static void w_pack(wbuf *w, const uint64_t *v, size_t n, int bw) {
    unsigned __int128 acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        acc |= (unsigned __int128)v[i] << bits;
        bits += bw;
        while (bits >= 8) {
            w_byte(w, (uint8_t)acc);
            acc >>= 8;
            bits -= 8;
        }
    }
    if (bits) w_byte(w, (uint8_t)acc);
}

static int dbp_max_width; /* widest miniblock dbp_encode wrote */

static int bits_needed(uint64_t v) {
    int b = 0;
    while (v) b++, v >>= 1;
    return b;
}

/* RLE/bit-packed hybrid of v[0, n) at width bw: runs of 8 or more equal
 * values become RLE runs (a short last run too, at random), the rest
 * bit-packed runs; only the last packed run is padded. */
static void rle_encode(wbuf *w, const uint32_t *v, size_t n, int bw) {
    size_t i = 0;
    while (i < n) {
        size_t j = i + 1;
        while (j < n && v[j] == v[i]) j++;
        if (j - i >= 8 || (j == n && rnd() % 2)) {
            w_uleb(w, (uint64_t)(j - i) << 1);
            for (int b = 0; b < (bw + 7) / 8; b++) w_byte(w, (uint8_t)(v[i] >> (8 * b)));
            i = j;
            continue;
        }
        size_t k = j; /* extend over the following short runs */
        while (k < n) {
            size_t r = k + 1;
            while (r < n && v[r] == v[k]) r++;
            if (r - k >= 8) break;
            k = r;
        }
        size_t m = (k - i + 7) / 8 * 8;
        uint64_t *tmp = malloc(m * sizeof *tmp);
        for (size_t t = 0; t < m; t++) tmp[t] = i + t < n ? v[i + t] : 0;
        w_uleb(w, (uint64_t)(m / 8) << 1 | 1);
        w_pack(w, tmp, m, bw);
        free(tmp);
        i = i + m < n ? i + m : n;
    }
}

/* DELTA_BINARY_PACKED of v[0, n): deltas wrap in 32 bits when !is64. */
static void dbp_encode(wbuf *w, const int64_t *v, size_t n, uint32_t block, uint32_t n_mb,
                       bool is64) {
    w_uleb(w, block);
    w_uleb(w, n_mb);
    w_uleb(w, n);
    w_zigzag(w, n ? v[0] : 0);
    uint32_t per = block / n_mb;
    for (size_t start = 1; start < n; start += block) {
        size_t cnt = n - start < block ? n - start : block;
        int64_t d[block], min = INT64_MAX;
        for (size_t i = 0; i < cnt; i++) {
            uint64_t diff = (uint64_t)v[start + i] - (uint64_t)v[start + i - 1];
            d[i] = is64 ? (int64_t)diff : (int64_t)(int32_t)(uint32_t)diff;
            if (d[i] < min) min = d[i];
        }
        w_zigzag(w, min);
        uint64_t rel[block];
        for (size_t i = 0; i < block; i++) {
            rel[i] = i < cnt ? (uint64_t)d[i] - (uint64_t)min : 0;
            if (!is64) rel[i] &= 0xFFFFFFFFu;
        }
        size_t used = (cnt + per - 1) / per;
        int widths[n_mb];
        for (uint32_t m = 0; m < n_mb; m++) {
            uint64_t mx = 0;
            for (size_t i = 0; i < per && m * per + i < cnt; i++)
                if (rel[m * per + i] > mx) mx = rel[m * per + i];
            widths[m] = m < used ? bits_needed(mx) : 0x5A; /* unused: arbitrary */
            if (m < used && widths[m] > dbp_max_width) dbp_max_width = widths[m];
            w_byte(w, (uint8_t)widths[m]);
        }
        for (uint32_t m = 0; m < used; m++) w_pack(w, rel + (size_t)m * per, per, widths[m]);
    }
}

/* Copies buf[0, n) into an exact-size allocation (ASan catches overreads). */
static uint8_t *exact(const uint8_t *buf, size_t n) {
    uint8_t *c = malloc(n ? n : 1);
    if (n) memcpy(c, buf, n);
    return c;
}

/* --------------------------------------------------------- RLE hybrid */

static void test_rle_spec_examples(void) {
    /* Encodings.md: 0..7 at width 3 bit-packed are 10001000 11000110 11111010 */
    const uint8_t packed[] = {0x03, 0x88, 0xC6, 0xFA};
    sqe_pq_rle d;
    sqe_error err;
    uint32_t out[8];
    CHECK(sqe_pq_rle_init(&d, packed, sizeof packed, 3, &err));
    CHECK(sqe_pq_rle_get(&d, out, 8, &err));
    for (uint32_t i = 0; i < 8; i++) CHECK(out[i] == i);
    /* RLE run of 100 fives at width 3, then a run of 300 x 0x1234 at width 13 */
    const uint8_t rle[] = {0xC8, 0x01, 0x05};
    uint32_t many[100];
    CHECK(sqe_pq_rle_init(&d, rle, sizeof rle, 3, &err));
    CHECK(sqe_pq_rle_get(&d, many, 100, &err));
    CHECK(many[0] == 5 && many[99] == 5);
    CHECK(!sqe_pq_rle_get(&d, many, 1, &err));
    CHECK(err.cls == SQE_ERR_INVALID_DATA);
    CHECK_CONTAINS(err.msg, "ends with 1 values still to decode");
    const uint8_t rle13[] = {0xD8, 0x04, 0x34, 0x12};
    uint32_t big[300];
    CHECK(sqe_pq_rle_init(&d, rle13, sizeof rle13, 13, &err));
    CHECK(sqe_pq_rle_get(&d, big, 300, &err));
    CHECK(big[0] == 0x1234 && big[299] == 0x1234);
}

static void test_rle_width0_and_32(void) {
    sqe_pq_rle d;
    sqe_error err;
    uint32_t out[40];
    /* width 0: an RLE run has no value bytes, a packed run no data */
    const uint8_t w0[] = {0x14, 0x05}; /* 10 zeros, then 2 groups (16 values) */
    CHECK(sqe_pq_rle_init(&d, w0, sizeof w0, 0, &err));
    memset(out, 0xFF, sizeof out);
    CHECK(sqe_pq_rle_get(&d, out, 26, &err));
    for (int i = 0; i < 26; i++) CHECK(out[i] == 0);
    CHECK(!sqe_pq_rle_get(&d, out, 1, &err));
    /* width 32 */
    uint32_t v[40];
    for (int i = 0; i < 40; i++) v[i] = i % 3 ? 0xFFFFFFFFu - (uint32_t)i : (uint32_t)i * 77777777u;
    wbuf w = {0};
    rle_encode(&w, v, 40, 32);
    uint8_t *c = exact(w.p, w.len);
    CHECK(sqe_pq_rle_init(&d, c, w.len, 32, &err));
    CHECK(sqe_pq_rle_get(&d, out, 40, &err));
    CHECK(memcmp(out, v, sizeof v) == 0);
    free(c);
    free(w.p);
    CHECK(!sqe_pq_rle_init(&d, w0, sizeof w0, 33, &err));
    CHECK_CONTAINS(err.msg, "bit width 33");
    CHECK(!sqe_pq_rle_init(&d, w0, sizeof w0, -1, &err));
}

/* Random values at every width, encoded, decoded in random chunk sizes. */
static void test_rle_round_trip(void) {
    enum { N = 3000 };
    static uint32_t v[N], out[N];
    sqe_error err;
    for (int bw = 0; bw <= 32; bw++) {
        uint64_t mask = bw == 32 ? 0xFFFFFFFFu : (((uint64_t)1 << bw) - 1);
        for (int trial = 0; trial < 4; trial++) {
            size_t n = 1 + rnd() % N;
            for (size_t i = 0; i < n; i++) {
                if (i > 0 && rnd() % (trial + 2) == 0)
                    v[i] = v[i - 1];
                else
                    v[i] = (uint32_t)(rnd() & mask);
            }
            wbuf w = {0};
            rle_encode(&w, v, n, bw);
            uint8_t *c = exact(w.p, w.len);
            sqe_pq_rle d;
            CHECK(sqe_pq_rle_init(&d, c, w.len, bw, &err));
            bool ok = true;
            for (size_t i = 0; i < n && ok;) {
                uint32_t k = (uint32_t)(1 + rnd() % (trial == 0 ? 7 : 700));
                if (k > n - i) k = (uint32_t)(n - i);
                ok = sqe_pq_rle_get(&d, out + i, k, &err);
                i += k;
            }
            CHECK(ok);
            if (!ok) fprintf(stderr, "  width %d n %zu: %s\n", bw, n, err.msg);
            CHECK(memcmp(out, v, n * sizeof *v) == 0);
            free(c);
            free(w.p);
        }
    }
}

/* Every prefix of an encoding either fails or (when only padding was cut)
 * yields the right values; never a read past the end. */
static void test_rle_truncated(void) {
    enum { N = 203 };
    uint32_t v[N], out[N];
    sqe_error err;
    for (int bw = 1; bw <= 32; bw += 5) {
        uint32_t mask = bw == 32 ? 0xFFFFFFFFu : (1u << bw) - 1;
        for (int i = 0; i < N; i++) v[i] = (uint32_t)(i < 50 ? 3 : rnd()) & mask;
        wbuf w = {0};
        rle_encode(&w, v, N, bw);
        for (size_t cut = 0; cut < w.len; cut++) {
            uint8_t *c = exact(w.p, cut);
            sqe_pq_rle d;
            CHECK(sqe_pq_rle_init(&d, c, cut, bw, &err));
            if (sqe_pq_rle_get(&d, out, N, &err))
                CHECK(memcmp(out, v, sizeof v) == 0);
            else
                CHECK(err.cls == SQE_ERR_INVALID_DATA);
            free(c);
        }
        free(w.p);
    }
}

static void test_rle_errors(void) {
    sqe_pq_rle d;
    sqe_error err;
    uint32_t out[16];
    const uint8_t zero_rle[] = {0x00, 0x01};
    CHECK(sqe_pq_rle_init(&d, zero_rle, 2, 1, &err));
    CHECK(!sqe_pq_rle_get(&d, out, 1, &err));
    CHECK_CONTAINS(err.msg, "run of length 0");
    const uint8_t zero_packed[] = {0x01, 0x01};
    CHECK(sqe_pq_rle_init(&d, zero_packed, 2, 1, &err));
    CHECK(!sqe_pq_rle_get(&d, out, 1, &err));
    CHECK_CONTAINS(err.msg, "bit-packed run of 0 groups");
    const uint8_t too_big[] = {0x04, 0x09}; /* value 9 at width 3 */
    CHECK(sqe_pq_rle_init(&d, too_big, 2, 3, &err));
    CHECK(!sqe_pq_rle_get(&d, out, 1, &err));
    CHECK_CONTAINS(err.msg, "value 9 does not fit in bit width 3");
    const uint8_t long_header[] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x00};
    CHECK(sqe_pq_rle_init(&d, long_header, sizeof long_header, 3, &err));
    CHECK(!sqe_pq_rle_get(&d, out, 1, &err));
    CHECK_CONTAINS(err.msg, "run header is truncated or longer than 32 bits");
    const uint8_t cut_header[] = {0x80};
    CHECK(sqe_pq_rle_init(&d, cut_header, 1, 3, &err));
    CHECK(!sqe_pq_rle_get(&d, out, 1, &err));
    const uint8_t cut_value[] = {0x04, 0x01}; /* width 9 needs 2 value bytes */
    CHECK(sqe_pq_rle_init(&d, cut_value, 2, 9, &err));
    CHECK(!sqe_pq_rle_get(&d, out, 1, &err));
    CHECK_CONTAINS(err.msg, "RLE run value is truncated");
    /* a packed run declaring 2^27 groups with 3 data bytes: cut to 8 values at width 3 */
    const uint8_t huge_packed[] = {0x81, 0x80, 0x80, 0x80, 0x01, 0x88, 0xC6, 0xFA};
    CHECK(sqe_pq_rle_init(&d, huge_packed, sizeof huge_packed, 3, &err));
    CHECK(sqe_pq_rle_get(&d, out, 8, &err));
    CHECK(out[7] == 7);
    CHECK(!sqe_pq_rle_get(&d, out, 1, &err));
    const uint8_t packed_cut_short[] = {0x03, 0x88}; /* 8 values at width 9: 1 byte present */
    CHECK(sqe_pq_rle_init(&d, packed_cut_short, 2, 9, &err));
    CHECK(!sqe_pq_rle_get(&d, out, 1, &err));
    CHECK_CONTAINS(err.msg, "truncated to 1 bytes");
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts); /* CPU time: robust on a busy machine */
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Speed of bit-packed decoding at a few widths (printed, not checked). */
static void test_rle_speed(void) {
    enum { N = 1 << 20 };
    uint32_t *out = malloc(N * sizeof *out);
    uint64_t *v = malloc(N * sizeof *v);
    const int widths[] = {1, 3, 8, 12, 20, 32};
    for (size_t wi = 0; wi < sizeof widths / sizeof *widths; wi++) {
        int bw = widths[wi];
        for (size_t i = 0; i < N; i++) v[i] = rnd() & (bw == 32 ? 0xFFFFFFFFu : ((1u << bw) - 1));
        wbuf w = {0};
        /* one packed run per 64K values (runs are at most 2^31 values) */
        for (size_t i = 0; i < N; i += 65536) {
            w_uleb(&w, (65536 / 8) << 1 | 1);
            w_pack(&w, v + i, 65536, bw);
        }
        sqe_error err;
        int reps = 20;
        for (uint32_t call = 1023; call <= 1024; call++) { /* odd and aligned call sizes */
            double t0 = now_s();
            bool ok = true;
            for (int r = 0; r < reps; r++) {
                sqe_pq_rle d;
                ok &= sqe_pq_rle_init(&d, w.p, w.len, bw, &err);
                for (uint32_t i = 0; i < N; i += call)
                    ok &= sqe_pq_rle_get(&d, out + i, N - i < call ? N - i : call, &err);
            }
            double dt = now_s() - t0;
            CHECK(ok);
            CHECK(out[N - 1] == (uint32_t)v[N - 1] && out[N / 3] == (uint32_t)v[N / 3]);
            fprintf(stderr, "  rle bit-packed width %2d, calls of %u: %.0f M values/s\n", bw, call,
                    (double)N * reps / dt / 1e6);
        }
        free(w.p);
    }
    free(v);
    free(out);
}

/* Speed of DELTA_BINARY_PACKED (printed, not checked). */
static void test_dbp_speed(void) {
    enum { N = 1 << 20 };
    int64_t *v = malloc(N * sizeof *v), *out = malloc(N * sizeof *out);
    v[0] = 1000;
    for (size_t i = 1; i < N; i++) v[i] = v[i - 1] + (int64_t)(rnd() % 1000);
    wbuf w = {0};
    dbp_encode(&w, v, N, 128, 4, true);
    sqe_error err;
    int reps = 10;
    bool ok = true;
    double t0 = now_s();
    for (int r = 0; r < reps; r++)
        ok &= sqe_pq_decode_values(SQE_PQ_INT64, 0, SQE_PQ_DELTA_BINARY_PACKED, w.p, w.len, N, out,
                                   NULL, NULL, &err);
    double dt = now_s() - t0;
    CHECK(ok && memcmp(out, v, N * sizeof *v) == 0);
    fprintf(stderr, "  DELTA_BINARY_PACKED INT64 (10-bit deltas): %.0f M values/s\n",
            (double)N * reps / dt / 1e6);
    free(w.p);
    free(v);
    free(out);
}

/* -------------------------------------------------------------- PLAIN */

static void test_plain(void) {
    sqe_error err;
    uint8_t buf[64];
    for (int i = 0; i < 64; i++) buf[i] = (uint8_t)(i * 7 + 1);
    int32_t i32[4];
    CHECK(sqe_pq_decode_values(SQE_PQ_INT32, 0, SQE_PQ_PLAIN, buf, 16, 4, i32, NULL, NULL, &err));
    CHECK(memcmp(i32, buf, 16) == 0);
    uint8_t i96[24], flba[15];
    CHECK(sqe_pq_decode_values(SQE_PQ_INT96, 0, SQE_PQ_PLAIN, buf, 24, 2, i96, NULL, NULL, &err));
    CHECK(memcmp(i96, buf, 24) == 0);
    CHECK(sqe_pq_decode_values(SQE_PQ_FIXED_LEN_BYTE_ARRAY, 5, SQE_PQ_PLAIN, buf, 15, 3, flba, NULL,
                               NULL, &err));
    CHECK(memcmp(flba, buf, 15) == 0);
    double d[2];
    CHECK(!sqe_pq_decode_values(SQE_PQ_DOUBLE, 0, SQE_PQ_PLAIN, buf, 15, 2, d, NULL, NULL, &err));
    CHECK(err.cls == SQE_ERR_INVALID_DATA);
    CHECK_CONTAINS(err.msg, "PLAIN: 2 values of 8 bytes need 16 bytes, the page has 15");
    CHECK(!sqe_pq_decode_values(SQE_PQ_FIXED_LEN_BYTE_ARRAY, 0, SQE_PQ_PLAIN, buf, 15, 3, flba,
                                NULL, NULL, &err));
    CHECK_CONTAINS(err.msg, "type length 0");
    /* BOOLEAN: bits LSB first */
    const uint8_t bits[] = {0x2D, 0x01}; /* 1,0,1,1,0,1,0,0, 1 */
    uint8_t b[9];
    CHECK(sqe_pq_decode_values(SQE_PQ_BOOLEAN, 0, SQE_PQ_PLAIN, bits, 2, 9, b, NULL, NULL, &err));
    const uint8_t want[] = {1, 0, 1, 1, 0, 1, 0, 0, 1};
    CHECK(memcmp(b, want, 9) == 0);
    CHECK(!sqe_pq_decode_values(SQE_PQ_BOOLEAN, 0, SQE_PQ_PLAIN, bits, 1, 9, b, NULL, NULL, &err));
    /* BYTE_ARRAY: 4-byte length then bytes */
    const uint8_t ba[] = {3, 0, 0, 0, 'a', 'b', 'c', 0, 0, 0, 0, 2, 0, 0, 0, 'x', 'y'};
    sqe_pq_bytes v[3];
    CHECK(sqe_pq_decode_values(SQE_PQ_BYTE_ARRAY, 0, SQE_PQ_PLAIN, ba, sizeof ba, 3, NULL, v, NULL,
                               &err));
    CHECK(v[0].len == 3 && memcmp(v[0].ptr, "abc", 3) == 0);
    CHECK(v[1].len == 0);
    CHECK(v[2].len == 2 && memcmp(v[2].ptr, "xy", 2) == 0);
    for (size_t cut = 0; cut < sizeof ba; cut++) {
        uint8_t *c = exact(ba, cut);
        CHECK(!sqe_pq_decode_values(SQE_PQ_BYTE_ARRAY, 0, SQE_PQ_PLAIN, c, cut, 3, NULL, v, NULL,
                                    &err));
        CHECK(err.cls == SQE_ERR_INVALID_DATA);
        free(c);
    }
    const uint8_t huge[] = {0xFF, 0xFF, 0xFF, 0xFF, 'a'};
    CHECK(
        !sqe_pq_decode_values(SQE_PQ_BYTE_ARRAY, 0, SQE_PQ_PLAIN, huge, 5, 1, NULL, v, NULL, &err));
    CHECK_CONTAINS(err.msg, "has length 4294967295, only 1 bytes remain");
    /* n == 0 needs no data at all */
    CHECK(sqe_pq_decode_values(SQE_PQ_INT64, 0, SQE_PQ_PLAIN, NULL, 0, 0, NULL, NULL, NULL, &err));
    CHECK(sqe_pq_decode_values(SQE_PQ_INT64, 0, SQE_PQ_DELTA_BINARY_PACKED, NULL, 0, 0, NULL, NULL,
                               NULL, &err));
    CHECK(!sqe_pq_decode_values(SQE_PQ_INT64, 0, SQE_PQ_PLAIN, NULL, 0, 1, d, NULL, NULL, &err));
}

static void test_rle_boolean(void) {
    sqe_error err;
    uint8_t out[20];
    /* length 4: RLE run of 12 ones, then 1 group packed 0b10100101 */
    const uint8_t page[] = {4, 0, 0, 0, 0x18, 0x01, 0x03, 0xA5};
    CHECK(sqe_pq_decode_values(SQE_PQ_BOOLEAN, 0, SQE_PQ_RLE, page, sizeof page, 20, out, NULL,
                               NULL, &err));
    for (int i = 0; i < 12; i++) CHECK(out[i] == 1);
    const uint8_t want[] = {1, 0, 1, 0, 0, 1, 0, 1};
    CHECK(memcmp(out + 12, want, 8) == 0);
    CHECK(!sqe_pq_decode_values(SQE_PQ_BOOLEAN, 0, SQE_PQ_RLE, page, sizeof page, 21, out, NULL,
                                NULL, &err));
    CHECK_CONTAINS(err.msg, "RLE: BOOLEAN: RLE/bit-packed hybrid: the data ends");
    const uint8_t bad_len[] = {9, 0, 0, 0, 0x18, 0x01};
    CHECK(!sqe_pq_decode_values(SQE_PQ_BOOLEAN, 0, SQE_PQ_RLE, bad_len, sizeof bad_len, 1, out,
                                NULL, NULL, &err));
    CHECK_CONTAINS(err.msg, "RLE: BOOLEAN length 9 exceeds the 2 bytes that follow it");
    CHECK(!sqe_pq_decode_values(SQE_PQ_BOOLEAN, 0, SQE_PQ_RLE, page, 3, 1, out, NULL, NULL, &err));
    CHECK_CONTAINS(err.msg, "lack their 4-byte length");
    int32_t i32[1];
    CHECK(!sqe_pq_decode_values(SQE_PQ_INT32, 0, SQE_PQ_RLE, page, sizeof page, 1, i32, NULL, NULL,
                                &err));
    CHECK(err.cls == SQE_ERR_NOT_SUPPORTED);
    CHECK_CONTAINS(err.msg, "encoding RLE is not supported for Parquet type INT32");
}

/* ------------------------------------------------ DELTA_BINARY_PACKED */

static void test_dbp_spec_examples(void) {
    sqe_error err;
    int32_t out[8];
    /* Example 1 with a valid block size (128 values, 4 miniblocks): 1..5 */
    const uint8_t ex1[] = {0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00};
    CHECK(sqe_pq_decode_values(SQE_PQ_INT32, 0, SQE_PQ_DELTA_BINARY_PACKED, ex1, sizeof ex1, 5, out,
                               NULL, NULL, &err));
    for (int i = 0; i < 5; i++) CHECK(out[i] == i + 1);
    /* Example 2: 7, 5, 3, 1, 2, 3, 4, 5 (min delta -2, width 2) */
    wbuf w = {0};
    const int64_t v[] = {7, 5, 3, 1, 2, 3, 4, 5};
    dbp_encode(&w, v, 8, 128, 4, false);
    CHECK(w.p[5] == 0x03 /* zigzag(-2) */ && w.p[6] == 2);
    CHECK(sqe_pq_decode_values(SQE_PQ_INT32, 0, SQE_PQ_DELTA_BINARY_PACKED, w.p, w.len, 8, out,
                               NULL, NULL, &err));
    for (int i = 0; i < 8; i++) CHECK(out[i] == v[i]);
    /* a single value: header only */
    const uint8_t one[] = {0x80, 0x01, 0x04, 0x01, 0x53};
    CHECK(sqe_pq_decode_values(SQE_PQ_INT32, 0, SQE_PQ_DELTA_BINARY_PACKED, one, sizeof one, 1, out,
                               NULL, NULL, &err));
    CHECK(out[0] == -42);
    free(w.p);
}

static void dbp_round_trip(const int64_t *v, size_t n, uint32_t block, uint32_t n_mb, bool is64) {
    wbuf w = {0};
    sqe_error err;
    dbp_encode(&w, v, n, block, n_mb, is64);
    uint8_t *c = exact(w.p, w.len);
    int64_t *o64 = malloc((n + 1) * 8);
    int32_t *o32 = malloc((n + 1) * 4);
    bool ok = sqe_pq_decode_values(is64 ? SQE_PQ_INT64 : SQE_PQ_INT32, 0,
                                   SQE_PQ_DELTA_BINARY_PACKED, c, w.len, (uint32_t)n,
                                   is64 ? (void *)o64 : (void *)o32, NULL, NULL, &err);
    CHECK(ok);
    if (!ok) fprintf(stderr, "  %s\n", err.msg);
    size_t bad = 0;
    for (size_t i = 0; ok && i < n; i++) bad += is64 ? o64[i] != v[i] : o32[i] != (int32_t)v[i];
    CHECK(bad == 0);
    /* asking for more values than the page holds */
    CHECK(!sqe_pq_decode_values(is64 ? SQE_PQ_INT64 : SQE_PQ_INT32, 0, SQE_PQ_DELTA_BINARY_PACKED,
                                c, w.len, (uint32_t)n + 1, is64 ? (void *)o64 : (void *)o32, NULL,
                                NULL, &err));
    free(c);
    free(o64);
    free(o32);
    free(w.p);
}

static void test_dbp_round_trip(void) {
    enum { N = 5000 };
    static int64_t v[N];
    /* sorted, random, extremes (INT32/INT64 overflow in deltas), constant */
    for (int kind = 0; kind < 5; kind++) {
        for (size_t i = 0; i < N; i++) {
            switch (kind) {
            case 0:
                v[i] = (int64_t)i * 3 + (int64_t)(rnd() % 5);
                break;
            case 1:
                v[i] = (int64_t)rnd();
                break;
            case 2:
                v[i] = i % 2 ? INT64_MAX : INT64_MIN;
                break;
            case 3:
                v[i] = 42;
                break;
            default:
                v[i] = (int64_t)(rnd() % 1000) - 500;
                break;
            }
        }
        for (size_t n = 0; n < 300; n += 1 + n / 2) {
            dbp_round_trip(v, n, 128, 4, true);
            dbp_round_trip(v, n, 128, 4, false);
        }
        dbp_round_trip(v, N, 128, 4, true);
        dbp_round_trip(v, N, 256, 8, false);
        dbp_round_trip(v, N, 1024, 1, true);
        dbp_round_trip(v, N, 128, 1, false);
    }
    /* INT32 deltas that overflow 32 bits: INT32_MIN, INT32_MAX alternating
     * (deltas wrap to +-1), and 0, INT32_MIN, -1 repeating (deltas
     * INT32_MIN, INT32_MAX, 1: relative deltas need all 32 bits) */
    for (size_t i = 0; i < 1000; i++) v[i] = i % 2 ? INT32_MAX : INT32_MIN;
    dbp_round_trip(v, 1000, 128, 4, false);
    for (size_t i = 0; i < 1000; i++) v[i] = i % 3 == 0 ? 0 : i % 3 == 1 ? INT32_MIN : -1;
    dbp_max_width = 0;
    dbp_round_trip(v, 1000, 128, 4, false);
    CHECK(dbp_max_width == 32);
}

static void test_dbp_truncated_and_bad(void) {
    sqe_error err;
    enum { N = 300 };
    int64_t v[N], out[N];
    for (int i = 0; i < N; i++) v[i] = (int64_t)(rnd() % 100000);
    wbuf w = {0};
    dbp_encode(&w, v, N, 128, 4, true);
    for (size_t cut = 0; cut < w.len; cut++) {
        uint8_t *c = exact(w.p, cut);
        bool ok = sqe_pq_decode_values(SQE_PQ_INT64, 0, SQE_PQ_DELTA_BINARY_PACKED, c, cut, N, out,
                                       NULL, NULL, &err);
        CHECK(!ok);
        CHECK(err.cls == SQE_ERR_INVALID_DATA);
        free(c);
    }
    free(w.p);
    const struct {
        uint8_t b[12];
        size_t len;
        const char *msg;
    } bad[] = {
        {{0x64, 0x04, 0x05, 0x02}, 4, "block size 100 is not a positive multiple of 128"},
        {{0x00, 0x04, 0x05, 0x02}, 4, "block size 0"},
        {{0x80, 0x01, 0x03, 0x05, 0x02}, 5, "3 miniblocks do not divide a block of 128"},
        {{0x80, 0x01, 0x08, 0x05, 0x02}, 5, "8 miniblocks do not divide"},
        {{0x80, 0x01, 0x00, 0x05, 0x02}, 5, "0 miniblocks"},
        {{0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 65, 0, 0, 0}, 10, "miniblock bit width 65"},
        {{0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 8, 0, 0, 0, 1}, 11, "needs 32 bytes, 1 left"},
        {{0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0, 0}, 8, "bit widths are cut off"},
        {{0x80, 0x01, 0x04, 0x05, 0x02}, 5, "min delta is truncated"},
        {{0x80, 0x01, 0x04, 0x02, 0x02}, 5, "the page holds 2 values, 5 expected"},
        {{0x80, 0x01, 0x04}, 3, "header is truncated"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        CHECK(!sqe_pq_decode_values(SQE_PQ_INT64, 0, SQE_PQ_DELTA_BINARY_PACKED, bad[i].b,
                                    bad[i].len, 5, out, NULL, NULL, &err));
        CHECK(err.cls == SQE_ERR_INVALID_DATA);
        CHECK_CONTAINS(err.msg, bad[i].msg);
    }
    /* unused miniblock widths may hold anything (here 200) */
    const uint8_t any_width[] = {0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0x00, 200, 200, 200};
    CHECK(sqe_pq_decode_values(SQE_PQ_INT64, 0, SQE_PQ_DELTA_BINARY_PACKED, any_width,
                               sizeof any_width, 5, out, NULL, NULL, &err));
    CHECK(out[4] == 5);
    /* width 64 for INT64: deltas spanning the whole range */
    const int64_t ext[] = {0, INT64_MIN, INT64_MAX, -1, 1, INT64_MIN};
    dbp_round_trip(ext, 6, 128, 4, true);
    /* a huge declared count with 0-bit miniblocks is decoded only as far as asked */
    const uint8_t lots[] = {0x80, 0x80, 0x80, 0x80, 0x08, 0x01, 0xFF,
                            0xFF, 0xFF, 0xFF, 0x0F, 0x00, 0x02, 0x00};
    CHECK(sqe_pq_decode_values(SQE_PQ_INT64, 0, SQE_PQ_DELTA_BINARY_PACKED, lots, sizeof lots, 5,
                               out, NULL, NULL, &err));
    CHECK(out[0] == 0 && out[4] == 4);
    sqe_pq_bytes bv[5];
    /* ...and as lengths, skipping the rest needs more blocks than there are */
    CHECK(!sqe_pq_decode_values(SQE_PQ_BYTE_ARRAY, 0, SQE_PQ_DELTA_LENGTH_BYTE_ARRAY, lots,
                                sizeof lots, 2, NULL, bv, NULL, &err));
    CHECK_CONTAINS(err.msg, "DELTA_LENGTH_BYTE_ARRAY lengths: DELTA_BINARY_PACKED:");
    CHECK(!sqe_pq_decode_values(SQE_PQ_BOOLEAN, 0, SQE_PQ_DELTA_BINARY_PACKED, lots, sizeof lots, 1,
                                out, NULL, NULL, &err));
    CHECK(err.cls == SQE_ERR_NOT_SUPPORTED);
}

/* ------------------------------------------------- byte array deltas */

static void w_strings_dlba(wbuf *w, const char *const *s, size_t n) {
    int64_t lens[n];
    for (size_t i = 0; i < n; i++) lens[i] = (int64_t)strlen(s[i]);
    dbp_encode(w, lens, n, 128, 4, false);
    for (size_t i = 0; i < n; i++)
        for (const char *c = s[i]; *c; c++) w_byte(w, (uint8_t)*c);
}

static void test_delta_length_byte_array(void) {
    sqe_error err;
    const char *const s[] = {"Hello", "World", "Foobar", "ABCDEF"};
    wbuf w = {0};
    w_strings_dlba(&w, s, 4);
    sqe_pq_bytes v[4];
    CHECK(sqe_pq_decode_values(SQE_PQ_BYTE_ARRAY, 0, SQE_PQ_DELTA_LENGTH_BYTE_ARRAY, w.p, w.len, 4,
                               NULL, v, NULL, &err));
    for (int i = 0; i < 4; i++)
        CHECK(v[i].len == strlen(s[i]) && memcmp(v[i].ptr, s[i], v[i].len) == 0);
    /* the first three of four */
    CHECK(sqe_pq_decode_values(SQE_PQ_BYTE_ARRAY, 0, SQE_PQ_DELTA_LENGTH_BYTE_ARRAY, w.p, w.len, 3,
                               NULL, v, NULL, &err));
    CHECK(v[2].len == 6 && memcmp(v[2].ptr, "Foobar", 6) == 0);
    for (size_t cut = 0; cut < w.len; cut++) {
        uint8_t *c = exact(w.p, cut);
        CHECK(!sqe_pq_decode_values(SQE_PQ_BYTE_ARRAY, 0, SQE_PQ_DELTA_LENGTH_BYTE_ARRAY, c, cut, 4,
                                    NULL, v, NULL, &err));
        free(c);
    }
    /* FLBA(6) rejects the 5-byte values */
    CHECK(!sqe_pq_decode_values(SQE_PQ_FIXED_LEN_BYTE_ARRAY, 6, SQE_PQ_DELTA_LENGTH_BYTE_ARRAY, w.p,
                                w.len, 4, NULL, v, NULL, &err));
    CHECK_CONTAINS(err.msg, "FIXED_LEN_BYTE_ARRAY(6) value 1 has 5 bytes");
    free(w.p);
    /* a negative length */
    wbuf neg = {0};
    const int64_t nl[] = {3, -1};
    dbp_encode(&neg, nl, 2, 128, 4, false);
    w_byte(&neg, 'a');
    CHECK(!sqe_pq_decode_values(SQE_PQ_BYTE_ARRAY, 0, SQE_PQ_DELTA_LENGTH_BYTE_ARRAY, neg.p,
                                neg.len, 2, NULL, v, NULL, &err));
    CHECK_CONTAINS(err.msg, "value 2 has length -1");
    free(neg.p);
}

/* DELTA_BYTE_ARRAY of strings s (prefixes computed against the previous). */
static void w_strings_dba(wbuf *w, const char *const *s, size_t n) {
    int64_t pre[n];
    const char *suf[n];
    for (size_t i = 0; i < n; i++) {
        size_t p = 0;
        if (i > 0)
            while (s[i][p] && s[i][p] == s[i - 1][p]) p++;
        pre[i] = (int64_t)p;
        suf[i] = s[i] + p;
    }
    dbp_encode(w, pre, n, 128, 4, false);
    w_strings_dlba(w, suf, n);
}

static void test_delta_byte_array(void) {
    sqe_error err;
    sqe_arena *a = sqe_arena_new(4096);
    const char *const s[] = {"axis", "axle", "babble", "babyhood", "baby", "baby", "", "z"};
    wbuf w = {0};
    w_strings_dba(&w, s, 8);
    sqe_pq_bytes v[8];
    CHECK(sqe_pq_decode_values(SQE_PQ_BYTE_ARRAY, 0, SQE_PQ_DELTA_BYTE_ARRAY, w.p, w.len, 8, NULL,
                               v, a, &err));
    for (int i = 0; i < 8; i++)
        CHECK(v[i].len == strlen(s[i]) && (v[i].len == 0 || memcmp(v[i].ptr, s[i], v[i].len) == 0));
    for (size_t cut = 0; cut < w.len; cut++) {
        uint8_t *c = exact(w.p, cut);
        CHECK(!sqe_pq_decode_values(SQE_PQ_BYTE_ARRAY, 0, SQE_PQ_DELTA_BYTE_ARRAY, c, cut, 8, NULL,
                                    v, a, &err));
        free(c);
    }
    CHECK(!sqe_pq_decode_values(SQE_PQ_BYTE_ARRAY, 0, SQE_PQ_DELTA_BYTE_ARRAY, w.p, w.len, 8, NULL,
                                v, NULL, &err));
    free(w.p);
    /* FLBA(4): all values 4 bytes */
    const char *const f[] = {"abcd", "abce", "abde", "zzzz"};
    wbuf wf = {0};
    w_strings_dba(&wf, f, 4);
    CHECK(sqe_pq_decode_values(SQE_PQ_FIXED_LEN_BYTE_ARRAY, 4, SQE_PQ_DELTA_BYTE_ARRAY, wf.p,
                               wf.len, 4, NULL, v, a, &err));
    CHECK(memcmp(v[2].ptr, "abde", 4) == 0 && memcmp(v[3].ptr, "zzzz", 4) == 0);
    CHECK(!sqe_pq_decode_values(SQE_PQ_FIXED_LEN_BYTE_ARRAY, 3, SQE_PQ_DELTA_BYTE_ARRAY, wf.p,
                                wf.len, 4, NULL, v, a, &err));
    CHECK_CONTAINS(err.msg, "FIXED_LEN_BYTE_ARRAY(3) value 1 has 4 bytes");
    free(wf.p);
    /* prefix longer than the previous value */
    wbuf wb = {0};
    const int64_t pre[] = {0, 3};
    dbp_encode(&wb, pre, 2, 128, 4, false);
    const char *const suf[] = {"ab", "c"};
    w_strings_dlba(&wb, suf, 2);
    CHECK(!sqe_pq_decode_values(SQE_PQ_BYTE_ARRAY, 0, SQE_PQ_DELTA_BYTE_ARRAY, wb.p, wb.len, 2,
                                NULL, v, a, &err));
    CHECK_CONTAINS(err.msg,
                   "value 2 has prefix length 3, longer than the previous value (2 bytes)");
    free(wb.p);
    sqe_arena_free(a);
}

/* A few KB of prefix lengths asking for more than SQE_PQ_MAX_PAGE bytes. */
static void test_delta_byte_array_bomb(void) {
    enum { N = 16385, L = 65536 };
    sqe_error err;
    sqe_arena *a = sqe_arena_new(4096);
    int64_t *pre = malloc(N * sizeof *pre), *suf = malloc(N * sizeof *suf);
    for (int i = 0; i < N; i++) {
        pre[i] = i ? L : 0;
        suf[i] = i ? 1 : L;
    }
    wbuf w = {0};
    dbp_encode(&w, pre, N, 128, 4, false);
    dbp_encode(&w, suf, N, 128, 4, false);
    size_t enc = w.len;
    for (int i = 0; i < L + N - 1; i++) w_byte(&w, 'x');
    sqe_pq_bytes *v = malloc(N * sizeof *v);
    CHECK(!sqe_pq_decode_values(SQE_PQ_BYTE_ARRAY, 0, SQE_PQ_DELTA_BYTE_ARRAY, w.p, w.len, N, NULL,
                                v, a, &err));
    CHECK_CONTAINS(err.msg, "values expand to more than 1073741824 bytes");
    CHECK(sqe_arena_used(a) < (size_t)1 << 20);
    CHECK(enc < 4096);
    /* the same values without suffixes share memory: no expansion at all */
    for (int i = 1; i < N; i++) suf[i] = 0;
    wbuf w2 = {0};
    dbp_encode(&w2, pre, N, 128, 4, false);
    dbp_encode(&w2, suf, N, 128, 4, false);
    for (int i = 0; i < L; i++) w_byte(&w2, 'y');
    CHECK(sqe_pq_decode_values(SQE_PQ_BYTE_ARRAY, 0, SQE_PQ_DELTA_BYTE_ARRAY, w2.p, w2.len, N, NULL,
                               v, a, &err));
    CHECK(v[N - 1].len == L && v[N - 1].ptr == v[0].ptr);
    free(w.p);
    free(w2.p);
    free(v);
    free(pre);
    free(suf);
    sqe_arena_free(a);
}

/* -------------------------------------------------- BYTE_STREAM_SPLIT */

static void test_byte_stream_split(void) {
    sqe_error err;
    /* Encodings.md: AA BB CC DD, 00 11 22 33, A3 B4 C5 D6 */
    const uint8_t enc[] = {0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6};
    const uint8_t dec[] = {0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11, 0x22, 0x33, 0xA3, 0xB4, 0xC5, 0xD6};
    uint8_t out[48];
    CHECK(sqe_pq_decode_values(SQE_PQ_FLOAT, 0, SQE_PQ_BYTE_STREAM_SPLIT, enc, 12, 3, out, NULL,
                               NULL, &err));
    CHECK(memcmp(out, dec, 12) == 0);
    CHECK(sqe_pq_decode_values(SQE_PQ_INT32, 0, SQE_PQ_BYTE_STREAM_SPLIT, enc, 12, 3, out, NULL,
                               NULL, &err));
    CHECK(memcmp(out, dec, 12) == 0);
    /* FLBA(3): 4 values */
    CHECK(sqe_pq_decode_values(SQE_PQ_FIXED_LEN_BYTE_ARRAY, 3, SQE_PQ_BYTE_STREAM_SPLIT, enc, 12, 4,
                               out, NULL, NULL, &err));
    CHECK(out[0] == 0xAA && out[1] == 0x11 && out[2] == 0xC5 && out[3] == 0x00);
    /* DOUBLE / INT64: round trip of a transposition */
    uint8_t src[40], e8[40];
    for (int i = 0; i < 40; i++) src[i] = (uint8_t)rnd();
    for (int i = 0; i < 5; i++)
        for (int k = 0; k < 8; k++) e8[k * 5 + i] = src[i * 8 + k];
    CHECK(sqe_pq_decode_values(SQE_PQ_DOUBLE, 0, SQE_PQ_BYTE_STREAM_SPLIT, e8, 40, 5, out, NULL,
                               NULL, &err) &&
          memcmp(out, src, 40) == 0);
    CHECK(sqe_pq_decode_values(SQE_PQ_INT64, 0, SQE_PQ_BYTE_STREAM_SPLIT, e8, 40, 5, out, NULL,
                               NULL, &err) &&
          memcmp(out, src, 40) == 0);
    CHECK(!sqe_pq_decode_values(SQE_PQ_FLOAT, 0, SQE_PQ_BYTE_STREAM_SPLIT, enc, 11, 2, out, NULL,
                                NULL, &err));
    CHECK_CONTAINS(err.msg, "BYTE_STREAM_SPLIT: 11 bytes are not 2 values of 4 bytes");
    CHECK(!sqe_pq_decode_values(SQE_PQ_FLOAT, 0, SQE_PQ_BYTE_STREAM_SPLIT, enc, 12, 4, out, NULL,
                                NULL, &err));
    CHECK(!sqe_pq_decode_values(SQE_PQ_BYTE_ARRAY, 0, SQE_PQ_BYTE_STREAM_SPLIT, enc, 12, 1, out,
                                NULL, NULL, &err));
    CHECK(err.cls == SQE_ERR_NOT_SUPPORTED);
}

/* ------------------------------------------------------------- misc */

static void test_names_and_widths(void) {
    char buf[32];
    CHECK_STR(sqe_pq_encoding_name(SQE_PQ_RLE_DICTIONARY, buf, sizeof buf), "RLE_DICTIONARY");
    CHECK_STR(sqe_pq_encoding_name(SQE_PQ_DELTA_BYTE_ARRAY, buf, sizeof buf), "DELTA_BYTE_ARRAY");
    CHECK_STR(sqe_pq_encoding_name(42, buf, sizeof buf), "encoding 42");
    CHECK(sqe_pq_value_width(SQE_PQ_BOOLEAN, 0) == 1);
    CHECK(sqe_pq_value_width(SQE_PQ_INT96, 0) == 12);
    CHECK(sqe_pq_value_width(SQE_PQ_FIXED_LEN_BYTE_ARRAY, 16) == 16);
    CHECK(sqe_pq_value_width(SQE_PQ_BYTE_ARRAY, 0) == 0);
    CHECK(sqe_pq_value_width(SQE_PQ_DOUBLE, 0) == 8);
    sqe_error err;
    uint8_t b[4] = {0};
    int32_t o;
    CHECK(!sqe_pq_decode_values(SQE_PQ_INT32, 0, SQE_PQ_RLE_DICTIONARY, b, 4, 1, &o, NULL, NULL,
                                &err));
    CHECK(err.cls == SQE_ERR_NOT_SUPPORTED);
    CHECK_CONTAINS(err.msg, "encoding RLE_DICTIONARY is not supported for Parquet type INT32");
    CHECK(!sqe_pq_decode_values(SQE_PQ_INT96, 0, SQE_PQ_DELTA_BINARY_PACKED, b, 4, 1, &o, NULL,
                                NULL, &err));
    CHECK(!sqe_pq_decode_values(9, 0, SQE_PQ_PLAIN, b, 4, 1, &o, NULL, NULL, &err));
    CHECK_CONTAINS(err.msg, "unknown Parquet physical type 9");
}

/* ------------------------------------------ real files (parquet-testing) */

/* Enough of the thrift compact protocol to walk the page headers of an
 * uncompressed column chunk: field ids and i32 values of PageHeader and of
 * its data_page_header (8 for v2, 5 for v1); everything else skipped. */
typedef struct tpage {
    int32_t f[16];  /* PageHeader i32 fields by id */
    int32_t dp[16]; /* DataPageHeader(V2) i32 fields by id */
} tpage;

static bool t_uleb(const uint8_t **p, const uint8_t *end, uint64_t *v) {
    *v = 0;
    for (int s = 0; s < 64 && *p < end; s += 7) {
        uint8_t b = *(*p)++;
        *v |= (uint64_t)(b & 0x7F) << s;
        if (!(b & 0x80)) return true;
    }
    return false;
}

static bool t_struct(const uint8_t **p, const uint8_t *end, int32_t *ints, int sub_id, int32_t *sub,
                     int depth);

static bool t_skip(const uint8_t **p, const uint8_t *end, int t, int depth) {
    uint64_t v;
    switch (t) {
    case 1:
    case 2:
        return true;
    case 3:
        return ++*p <= end;
    case 4:
    case 5:
    case 6:
        return t_uleb(p, end, &v);
    case 7:
        return (*p += 8) <= end;
    case 8:
        return t_uleb(p, end, &v) && v <= (uint64_t)(end - *p) && (*p += v, true);
    case 9:
    case 10: {
        if (*p >= end) return false;
        uint8_t b = *(*p)++;
        uint64_t n = b >> 4;
        if (n == 15 && !t_uleb(p, end, &n)) return false;
        for (uint64_t i = 0; i < n; i++)
            if (!t_skip(p, end, b & 15, depth)) return false;
        return true;
    }
    case 12:
        return depth < 8 && t_struct(p, end, NULL, -1, NULL, depth + 1);
    default:
        return false;
    }
}

static bool t_struct(const uint8_t **p, const uint8_t *end, int32_t *ints, int sub_id, int32_t *sub,
                     int depth) {
    int fid = 0;
    while (*p < end) {
        uint8_t b = *(*p)++;
        if (b == 0) return true;
        int t = b & 15;
        uint64_t v;
        if (b >> 4)
            fid += b >> 4;
        else if (!t_uleb(p, end, &v))
            return false;
        else
            fid = (int)((v >> 1) ^ (~(v & 1) + 1));
        if (t == 5 && ints && fid > 0 && fid < 16) {
            if (!t_uleb(p, end, &v)) return false;
            ints[fid] = (int32_t)((v >> 1) ^ (~(v & 1) + 1));
        } else if (t == 12 && fid == sub_id) {
            if (!t_struct(p, end, sub, -1, NULL, depth + 1)) return false;
        } else if (!t_skip(p, end, t, depth)) {
            return false;
        }
    }
    return false;
}

static uint8_t *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(*len);
    if (fread(b, 1, *len, f) != *len) *len = 0;
    fclose(f);
    return b;
}

/* The values section of the uncompressed v2 data page at *pos; advances *pos. */
static bool next_v2_page(const uint8_t *file, size_t len, size_t *pos, const uint8_t **values,
                         size_t *values_len, int32_t *n_values, int *encoding) {
    const uint8_t *p = file + *pos;
    tpage h;
    memset(&h, 0, sizeof h);
    if (!t_struct(&p, file + len, h.f, 8, h.dp, 0) || h.f[1] != 3 || h.f[2] != h.f[3]) return false;
    size_t hdr = (size_t)(p - file);
    size_t levels = (size_t)h.dp[5] + (size_t)h.dp[6];
    if (h.f[3] < 0 || (size_t)h.f[3] > len - hdr || levels > (size_t)h.f[3]) return false;
    *values = p + levels;
    *values_len = (size_t)h.f[3] - levels;
    *n_values = h.dp[1] - h.dp[2];
    *encoding = h.dp[4];
    *pos = hdr + (size_t)h.f[3];
    return true;
}

#define PQ_TESTING "/work/shared/parquet-testing/"

/* parquet-mr's DELTA_BINARY_PACKED: 65 INT64 columns with miniblock bit
 * widths 0..64 and one INT32 column, 200 rows, against the expected CSV. */
static void test_real_delta_binary_packed(void) {
    size_t len, csv_len;
    uint8_t *file = read_file(PQ_TESTING "delta_binary_packed.parquet", &len);
    uint8_t *csv = read_file(PQ_TESTING "delta_binary_packed_expect.csv", &csv_len);
    if (!file || !csv) {
        fprintf(stderr, "  (parquet-testing files not found: test skipped)\n");
        free(file);
        free(csv);
        return;
    }
    enum { COLS = 66, ROWS = 200 };
    static int64_t want[COLS][ROWS];
    char *text = malloc(csv_len + 1);
    memcpy(text, csv, csv_len);
    text[csv_len] = 0;
    char *line = strchr(text, '\n') + 1;
    for (int r = 0; r < ROWS; r++) {
        char *q = line;
        for (int c = 0; c < COLS; c++) {
            want[c][r] = strtoll(q, &q, 10);
            q++;
        }
        line = q;
    }
    size_t pos = 4;
    int cols_ok = 0;
    for (int c = 0; c < COLS; c++) {
        const uint8_t *v;
        size_t vlen;
        int32_t n;
        int enc;
        if (!next_v2_page(file, len, &pos, &v, &vlen, &n, &enc)) break;
        CHECK(n == ROWS && enc == SQE_PQ_DELTA_BINARY_PACKED);
        uint8_t *page = exact(v, vlen);
        sqe_error err;
        int64_t got64[ROWS];
        int32_t got32[ROWS];
        bool is64 = c < 65;
        bool ok = sqe_pq_decode_values(is64 ? SQE_PQ_INT64 : SQE_PQ_INT32, 0,
                                       SQE_PQ_DELTA_BINARY_PACKED, page, vlen, ROWS,
                                       is64 ? (void *)got64 : (void *)got32, NULL, NULL, &err);
        CHECK(ok);
        if (!ok) fprintf(stderr, "  column %d: %s\n", c, err.msg);
        int bad = 0;
        for (int r = 0; ok && r < ROWS; r++) bad += (is64 ? got64[r] : got32[r]) != want[c][r];
        CHECK(bad == 0);
        cols_ok += ok && bad == 0;
        free(page);
    }
    CHECK(cols_ok == COLS);
    free(text);
    free(file);
    free(csv);
}

/* parquet-mr's DELTA_BYTE_ARRAY: 9 optional string columns, 1000 rows. */
static void test_real_delta_byte_array(void) {
    size_t len, csv_len;
    uint8_t *file = read_file(PQ_TESTING "delta_byte_array.parquet", &len);
    uint8_t *csv = read_file(PQ_TESTING "delta_byte_array_expect.csv", &csv_len);
    if (!file || !csv) {
        fprintf(stderr, "  (parquet-testing files not found: test skipped)\n");
        free(file);
        free(csv);
        return;
    }
    enum { COLS = 9, ROWS = 1000 };
    /* non-null values per column, in row order: "a","b",,"c" (no commas inside) */
    static const char *want[COLS][ROWS];
    static uint32_t want_len[COLS][ROWS];
    int n_want[COLS] = {0};
    char *text = malloc(csv_len + 1);
    memcpy(text, csv, csv_len);
    text[csv_len] = 0;
    char *q = strchr(text, '\n') + 1;
    for (int r = 0; r < ROWS; r++) {
        for (int c = 0; c < COLS; c++) {
            if (*q == '"') {
                char *e = strchr(q + 1, '"');
                want[c][n_want[c]] = q + 1;
                want_len[c][n_want[c]++] = (uint32_t)(e - q - 1);
                q = e + 1;
            }
            q++; /* ',' or '\n' */
        }
    }
    sqe_arena *a = sqe_arena_new(1 << 16);
    size_t pos = 4;
    int cols_ok = 0;
    for (int c = 0; c < COLS; c++) {
        const uint8_t *v;
        size_t vlen;
        int32_t n;
        int enc;
        if (!next_v2_page(file, len, &pos, &v, &vlen, &n, &enc)) break;
        CHECK(n == n_want[c] && enc == SQE_PQ_DELTA_BYTE_ARRAY);
        uint8_t *page = exact(v, vlen);
        sqe_error err;
        sqe_pq_bytes got[ROWS];
        bool ok =
            n == n_want[c] && sqe_pq_decode_values(SQE_PQ_BYTE_ARRAY, 0, SQE_PQ_DELTA_BYTE_ARRAY,
                                                   page, vlen, (uint32_t)n, NULL, got, a, &err);
        CHECK(ok);
        int bad = 0;
        for (int r = 0; ok && r < n; r++)
            bad += got[r].len != want_len[c][r] || memcmp(got[r].ptr, want[c][r], got[r].len);
        CHECK(bad == 0);
        cols_ok += ok && bad == 0;
        free(page);
    }
    CHECK(cols_ok == COLS);
    sqe_arena_free(a);
    free(text);
    free(file);
    free(csv);
}

/* parquet-mr 1.10's DELTA_LENGTH_BYTE_ARRAY page, zstd-compressed (data page
 * v2: levels stored plainly, values compressed): 1000 strings
 * "apple_banana_mango" + i*i (as Arrow's tests expect). */
static void test_real_delta_length_byte_array(void) {
    size_t len;
    uint8_t *file = read_file(PQ_TESTING "delta_length_byte_array.parquet", &len);
    if (!file) {
        fprintf(stderr, "  (parquet-testing files not found: test skipped)\n");
        return;
    }
    const uint8_t *p = file + 4;
    tpage h;
    memset(&h, 0, sizeof h);
    CHECK(t_struct(&p, file + len, h.f, 8, h.dp, 0));
    CHECK(h.f[1] == 3 && h.dp[4] == SQE_PQ_DELTA_LENGTH_BYTE_ARRAY && h.dp[1] == 1000);
    size_t levels = (size_t)h.dp[5] + (size_t)h.dp[6];
    size_t clen = (size_t)h.f[3] - levels, ulen = (size_t)h.f[2] - levels;
    uint8_t *vals = malloc(ulen);
    sqe_error err;
    bool ok = (size_t)(file + len - p) >= levels + clen &&
              sqe_codec_decompress(SQE_CODEC_ZSTD, p + levels, clen, vals, ulen, "page", &err);
    CHECK(ok);
    sqe_pq_bytes v[1000];
    ok = ok && sqe_pq_decode_values(SQE_PQ_BYTE_ARRAY, 0, SQE_PQ_DELTA_LENGTH_BYTE_ARRAY, vals,
                                    ulen, 1000, NULL, v, NULL, &err);
    CHECK(ok);
    int bad = 0;
    for (int i = 0; ok && i < 1000; i++) {
        char want[64];
        int n = snprintf(want, sizeof want, "apple_banana_mango%d", i * i);
        bad += v[i].len != (uint32_t)n || memcmp(v[i].ptr, want, (size_t)n) != 0;
    }
    CHECK(ok && bad == 0);
    free(vals);
    free(file);
}

int main(void) {
    RUN(test_rle_spec_examples);
    RUN(test_rle_width0_and_32);
    RUN(test_rle_round_trip);
    RUN(test_rle_truncated);
    RUN(test_rle_errors);
    RUN(test_rle_speed);
    RUN(test_plain);
    RUN(test_rle_boolean);
    RUN(test_dbp_spec_examples);
    RUN(test_dbp_round_trip);
    RUN(test_dbp_truncated_and_bad);
    RUN(test_dbp_speed);
    RUN(test_delta_length_byte_array);
    RUN(test_delta_byte_array);
    RUN(test_delta_byte_array_bomb);
    RUN(test_byte_stream_split);
    RUN(test_names_and_widths);
    RUN(test_real_delta_binary_packed);
    RUN(test_real_delta_byte_array);
    RUN(test_real_delta_length_byte_array);
    return unit_report();
}
