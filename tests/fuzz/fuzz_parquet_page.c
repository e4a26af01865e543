/*
 * fuzz_parquet_page.c - what a Parquet reader does with the bytes of one
 * page: block decompression (sqe_codec_decompress) and the value encodings
 * (sqe_pq_decode_values, sqe_pq_rle), on arbitrary bytes.
 *
 * Input layout: byte 0 picks the mode.
 *   [0] bit 7 set: CODEC. codec = ([0] & 0x0F) % SQE_CODEC__COUNT,
 *       dst_len = [1] | [2] << 8, the rest is the compressed block.
 *       Checks: a success repeats with the same output (no hidden state);
 *       a NONE success copies the input; for every codec whose format pins
 *       the size (all but LZ4_HADOOP and LZ4_FRAME, whose raw/Hadoop
 *       fallbacks may legitimately fit other sizes) the same block with
 *       dst_len - 1 and dst_len + 1 fails.
 *   [0] bit 7 clear, bit 6 set: RLE HYBRID. bit width = [1] % 34 (33 must
 *       be refused by init), n = [2] | [3] << 8 (at most 4095), chunk size
 *       1 + [4] % 64, the rest is the data. Checks: decoding n values in one
 *       call and in chunks gives the same values, or both fail; every value
 *       fits in the bit width.
 *   otherwise: VALUES. physical = [0] & 7, encoding = k_encodings[[1] % 8],
 *       FLBA type length = 1 + [2] % 16, n = ([3] | [4] << 8) % 4096, the
 *       rest is the page section. Checks: BYTE_ARRAY values point into the
 *       input (or, for DELTA_BYTE_ARRAY, anywhere readable: ASan checks
 *       every byte is read); PLAIN fixed-width output is the input's
 *       prefix; BOOLEAN output is 0 or 1; when n values decode, the first
 *       n - 1 decode to the same values (no dependence on n).
 * Errors are the expected outcome for most inputs; crashes, sanitizer
 * reports, hangs and broken checks are bugs.
 */
#include "format/codec.h"
#include "format/parquet.h"
#include "fuzz_common.h"

static const int k_encodings[8] = {
    SQE_PQ_PLAIN,
    SQE_PQ_RLE,
    SQE_PQ_DELTA_BINARY_PACKED,
    SQE_PQ_DELTA_LENGTH_BYTE_ARRAY,
    SQE_PQ_DELTA_BYTE_ARRAY,
    SQE_PQ_BYTE_STREAM_SPLIT,
    SQE_PQ_RLE_DICTIONARY, /* not a values encoding: always NOT_SUPPORTED */
    SQE_PQ_PLAIN,
};

static const char *codec_label(sqe_codec c) {
    static char buf[32];
    snprintf(buf, sizeof buf, "codec %d", (int)c);
    return buf;
}

static void fuzz_codec(const uint8_t *data, size_t size) {
    if (size < 3) return;
    sqe_codec c = (sqe_codec)((data[0] & 0x0F) % SQE_CODEC__COUNT);
    size_t dst_len = (size_t)data[1] | (size_t)data[2] << 8;
    const uint8_t *src = data + 3;
    size_t src_len = size - 3;
    uint8_t *dst = malloc(dst_len + 2), *again = malloc(dst_len + 2);
    sqe_error err;
    bool ok = sqe_codec_decompress(c, src, src_len, dst, dst_len, "page", &err);
    if (!ok && err.msg[0] == 0) fuzz_fail("codec: failure without a message", NULL);
    if (ok) {
        if (!sqe_codec_decompress(c, src, src_len, again, dst_len, "page", &err) ||
            memcmp(dst, again, dst_len) != 0)
            fuzz_fail("codec: the same block decoded twice differs", codec_label(c));
        if (c == SQE_CODEC_NONE && (src_len != dst_len || memcmp(dst, src, dst_len) != 0))
            fuzz_fail("codec NONE: output is not the input", NULL);
        if (c != SQE_CODEC_LZ4_HADOOP && c != SQE_CODEC_LZ4_FRAME && src_len > 0) {
            if (dst_len > 0 && sqe_codec_decompress(c, src, src_len, again, dst_len - 1, "p", &err))
                fuzz_fail("codec: decodes to dst_len and to dst_len - 1", codec_label(c));
            if (sqe_codec_decompress(c, src, src_len, again, dst_len + 1, "p", &err))
                fuzz_fail("codec: decodes to dst_len and to dst_len + 1", codec_label(c));
        }
    }
    free(dst);
    free(again);
}

static void fuzz_rle(const uint8_t *data, size_t size) {
    if (size < 5) return;
    int bw = data[1] % 34;
    uint32_t n = ((uint32_t)data[2] | (uint32_t)data[3] << 8) % 4096;
    uint32_t chunk = 1 + data[4] % 64;
    const uint8_t *p = data + 5;
    size_t len = size - 5;
    sqe_error err;
    sqe_pq_rle a, b;
    bool init = sqe_pq_rle_init(&a, p, len, bw, &err);
    if (init != (bw <= 32)) fuzz_fail("rle: init accepts exactly widths 0..32", NULL);
    if (!init) return;
    sqe_pq_rle_init(&b, p, len, bw, &err);
    uint32_t *one = malloc((n + 1) * sizeof *one), *parts = malloc((n + 1) * sizeof *parts);
    bool ok1 = sqe_pq_rle_get(&a, one, n, &err);
    bool ok2 = true;
    for (uint32_t i = 0; i < n && ok2; i += chunk)
        ok2 = sqe_pq_rle_get(&b, parts + i, n - i < chunk ? n - i : chunk, &err);
    if (ok1 != ok2) fuzz_fail("rle: one call and chunked calls disagree on success", NULL);
    if (ok1) {
        if (memcmp(one, parts, (size_t)n * sizeof *one) != 0)
            fuzz_fail("rle: one call and chunked calls give different values", NULL);
        for (uint32_t i = 0; i < n; i++)
            if (bw < 32 && (one[i] >> bw) != 0) fuzz_fail("rle: value wider than the width", NULL);
    }
    free(one);
    free(parts);
}

static bool inside(const uint8_t *q, uint32_t l, const uint8_t *p, size_t len) {
    return l == 0 || (q >= p && (size_t)(q - p) <= len && l <= len - (size_t)(q - p));
}

static bool goes_to_bytes(int physical, int encoding) {
    return physical == SQE_PQ_BYTE_ARRAY ||
           (physical == SQE_PQ_FIXED_LEN_BYTE_ARRAY &&
            (encoding == SQE_PQ_DELTA_BYTE_ARRAY || encoding == SQE_PQ_DELTA_LENGTH_BYTE_ARRAY));
}

static void check_values(int physical, int encoding, const uint8_t *p, size_t len, uint32_t n,
                         size_t width, const uint8_t *fixed, const sqe_pq_bytes *bytes) {
    if (goes_to_bytes(physical, encoding)) {
        volatile uint8_t sink = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (encoding != SQE_PQ_DELTA_BYTE_ARRAY && !inside(bytes[i].ptr, bytes[i].len, p, len))
                fuzz_fail("values: BYTE_ARRAY value outside the page", NULL);
            for (uint32_t j = 0; j < bytes[i].len; j++) sink ^= bytes[i].ptr[j];
        }
        (void)sink;
        return;
    }
    if (encoding == SQE_PQ_PLAIN && physical != SQE_PQ_BOOLEAN &&
        memcmp(fixed, p, (size_t)n * width) != 0)
        fuzz_fail("values: PLAIN output is not the input", NULL);
    if (physical == SQE_PQ_BOOLEAN)
        for (uint32_t i = 0; i < n; i++)
            if (fixed[i] > 1) fuzz_fail("values: BOOLEAN other than 0/1", NULL);
}

static void fuzz_values(const uint8_t *data, size_t size) {
    if (size < 5) return;
    int physical = data[0] & 7;
    int encoding = k_encodings[data[1] % 8];
    int32_t type_length = 1 + data[2] % 16;
    uint32_t n = ((uint32_t)data[3] | (uint32_t)data[4] << 8) % 4096;
    const uint8_t *p = data + 5;
    size_t len = size - 5;
    size_t width = sqe_pq_value_width(physical, type_length);
    size_t fixed_size = (size_t)(n + 1) * (width ? width : 1);
    uint8_t *fixed = malloc(fixed_size), *fixed2 = malloc(fixed_size);
    sqe_pq_bytes *bytes = malloc((n + 1) * sizeof *bytes),
                 *bytes2 = malloc((n + 1) * sizeof *bytes);
    sqe_arena *scratch = sqe_arena_new(4096);
    sqe_error err;
    bool ok = sqe_pq_decode_values(physical, type_length, encoding, p, len, n, fixed, bytes,
                                   scratch, &err);
    if (!ok && err.msg[0] == 0) fuzz_fail("values: failure without a message", NULL);
    if (ok) {
        check_values(physical, encoding, p, len, n, width, fixed, bytes);
        if (n > 0) {
            if (!sqe_pq_decode_values(physical, type_length, encoding, p, len, n - 1, fixed2,
                                      bytes2, scratch, &err))
                fuzz_fail("values: n values decode but n - 1 do not", err.msg);
            bool is_bytes = goes_to_bytes(physical, encoding);
            if (!is_bytes && memcmp(fixed, fixed2, (size_t)(n - 1) * width) != 0)
                fuzz_fail("values: the first n - 1 values differ when decoding n - 1", NULL);
            for (uint32_t i = 0; is_bytes && i + 1 < n; i++)
                if (bytes[i].len != bytes2[i].len ||
                    (bytes[i].len && memcmp(bytes[i].ptr, bytes2[i].ptr, bytes[i].len) != 0))
                    fuzz_fail("values: byte array i differs when decoding n - 1", NULL);
        }
    }
    sqe_arena_free(scratch);
    free(fixed);
    free(fixed2);
    free(bytes);
    free(bytes2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    if (data[0] & 0x80)
        fuzz_codec(data, size);
    else if (data[0] & 0x40)
        fuzz_rle(data, size);
    else
        fuzz_values(data, size);
    return 0;
}
