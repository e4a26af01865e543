/*
 * codec.c - block decompression (sqe_codec_decompress): one compressed unit
 * whose uncompressed size is known in advance, as a Parquet page is. The
 * stream half of codec.h (sqe_byte_stream, sqe_codec_name,
 * sqe_codec_for_path) lives in byte_stream.c.
 *
 * Contract: the output is exactly dst_len bytes. Every codec decodes into
 * the caller's buffer with the buffer's size as the limit, so a bomb stops
 * at dst_len; output that would be larger is INVALID_DATA "... more than N
 * bytes" (or the exact size when the format states it up front: snappy's
 * length preamble, zstd frame content sizes), output that is smaller says
 * how many bytes came out. Errors start with `what` and name the codec:
 *   "<what>: snappy data decompresses to 1200 bytes, the page header says 1000"
 *   "<what>: gzip data is truncated"
 *   "<what>: zstd: Unknown frame descriptor"
 *
 * Codecs:
 *   NONE        a copy, sizes must match;
 *   SNAPPY      one raw snappy block (snappy-c.h), preamble checked first;
 *   GZIP        zlib inflate, gzip or zlib header auto-detected (as Arrow
 *               does for Parquet files from old writers), any number of
 *               members back to back;
 *   DEFLATE     zlib streams back to back;
 *   ZSTD        frames back to back (skippable frames too); their declared
 *               content sizes are summed and checked before decoding;
 *   LZ4_RAW     one LZ4 block;
 *   LZ4_HADOOP  Hadoop's framing [BE32 uncompressed][BE32 compressed][block]
 *               repeated; when the input does not parse exactly as that, one
 *               raw LZ4 block (some writers used Parquet's LZ4 id for it);
 *   LZ4_FRAME   LZ4 frames (lz4 CLI), or Hadoop framing without the magic;
 *   BROTLI      one brotli stream (its window is at most 16 MiB);
 *   BZIP2       bzip2 streams back to back;
 *   LZO         NOT_SUPPORTED.
 * Libraries work with `int`/`unsigned` sizes; larger buffers are refused
 * (Parquet pages are at most SQE_PQ_MAX_PAGE = 1 GiB anyway) or fed in
 * pieces. Every library context is created and freed within the call: no
 * state is shared between threads.
 */
#include "format/codec.h"

#include <brotli/decode.h>
#include <bzlib.h>
#include <limits.h>
#include <lz4.h>
#include <lz4frame.h>
#include <snappy-c.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

static bool codec_fail(sqe_error *err, const char *what, const char *fmt, ...) SQE_PRINTF(3, 4);

static bool codec_fail(sqe_error *err, const char *what, const char *fmt, ...) {
    char msg[SQE_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return sqe_error_set(err, SQE_ERR_INVALID_DATA, "%s: %s", what, msg);
}

static bool codec_size_mismatch(sqe_error *err, const char *what, const char *codec, size_t got,
                                size_t want) {
    return codec_fail(err, what, "%s data decompresses to %zu bytes, the page header says %zu",
                      codec, got, want);
}

static bool codec_too_large(sqe_error *err, const char *what, const char *codec, size_t want) {
    return codec_fail(err, what,
                      "%s data decompresses to more than %zu bytes, the page header says %zu",
                      codec, want, want);
}

/* ---------------------------------------------------------------- zlib */

/* Inflates zlib/gzip members back to back (window_bits picks the header
 * kind) into dst. Input and output are fed in pieces of at most UINT_MAX. */
static bool codec_inflate(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
                          int window_bits, const char *name, const char *what, sqe_error *err) {
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (inflateInit2(&zs, window_bits) != Z_OK)
        return sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED, "%s: cannot start %s decoder", what,
                             name);
    size_t in_pos = 0, out_pos = 0;
    bool ok = false;
    uint8_t spill[64];
    for (;;) {
        size_t in_n = src_len - in_pos, out_n = dst_len - out_pos;
        zs.next_in = (Bytef *)(uintptr_t)(src + in_pos);
        zs.avail_in = (uInt)(in_n > UINT_MAX ? UINT_MAX : in_n);
        /* With dst full, inflate into a spill buffer: any byte there means
         * the data is larger than the caller said. */
        zs.next_out = out_n ? dst + out_pos : spill;
        zs.avail_out = (uInt)(out_n ? (out_n > UINT_MAX ? UINT_MAX : out_n) : sizeof spill);
        uInt in0 = zs.avail_in, out0 = zs.avail_out;
        int rc = inflate(&zs, Z_NO_FLUSH);
        in_pos += in0 - zs.avail_in;
        size_t produced = out0 - zs.avail_out;
        if (!out_n && produced) {
            codec_too_large(err, what, name, dst_len);
            goto out;
        }
        out_pos += produced;
        if (rc == Z_STREAM_END) {
            if (in_pos == src_len) break;
            if (inflateReset(&zs) != Z_OK) {
                codec_fail(err, what, "%s: cannot reset decoder", name);
                goto out;
            }
            continue;
        }
        if (rc == Z_NEED_DICT || rc == Z_DATA_ERROR) {
            codec_fail(err, what, "%s: %s at compressed byte %zu", name,
                       zs.msg ? zs.msg : "invalid data", in_pos);
            goto out;
        }
        if (rc == Z_MEM_ERROR) {
            sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED, "%s: out of memory in %s decoder", what,
                          name);
            goto out;
        }
        /* Z_OK or Z_BUF_ERROR: go on while the call made progress; a call
         * that consumed and produced nothing means the input ran out. */
        if (in0 == zs.avail_in && produced == 0) {
            codec_fail(err, what, "%s data is truncated (%zu bytes decoded)", name, out_pos);
            goto out;
        }
    }
    if (out_pos != dst_len) {
        codec_size_mismatch(err, what, name, out_pos, dst_len);
        goto out;
    }
    ok = true;
out:
    inflateEnd(&zs);
    return ok;
}

/* -------------------------------------------------------------- snappy */

static bool codec_snappy(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
                         const char *what, sqe_error *err) {
    size_t ulen;
    if (snappy_uncompressed_length((const char *)src, src_len, &ulen) != SNAPPY_OK)
        return codec_fail(err, what, "snappy data has no valid length preamble");
    if (ulen != dst_len) return codec_size_mismatch(err, what, "snappy", ulen, dst_len);
    size_t out = dst_len;
    if (snappy_uncompress((const char *)src, src_len, (char *)dst, &out) != SNAPPY_OK)
        return codec_fail(err, what, "snappy data is corrupt or truncated");
    if (out != dst_len) return codec_size_mismatch(err, what, "snappy", out, dst_len);
    return true;
}

/* ---------------------------------------------------------------- zstd */

static bool codec_zstd(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
                       const char *what, sqe_error *err) {
    /* Sum of the frames' declared content sizes (skippable frames count 0).
     * A frame that does not parse or omits its size stops the check; the
     * decoder below then reports the precise reason or the size. */
    unsigned long long declared = 0;
    bool known = true;
    for (size_t off = 0; off < src_len && known;) {
        size_t fsz = ZSTD_findFrameCompressedSize(src + off, src_len - off);
        unsigned long long cs = ZSTD_getFrameContentSize(src + off, src_len - off);
        if (ZSTD_isError(fsz) || fsz == 0 || cs == ZSTD_CONTENTSIZE_ERROR ||
            cs == ZSTD_CONTENTSIZE_UNKNOWN) {
            known = false;
            break;
        }
        declared += cs;
        if (declared > (unsigned long long)dst_len) break; /* already too large */
        off += fsz;
    }
    if (known && declared != (unsigned long long)dst_len) {
        if (declared > (unsigned long long)dst_len)
            return codec_fail(err, what,
                              "zstd frames declare %s%llu bytes, the page header says %zu",
                              "at least ", declared, dst_len);
        return codec_size_mismatch(err, what, "zstd", (size_t)declared, dst_len);
    }
    ZSTD_DCtx *dctx = ZSTD_createDCtx();
    if (!dctx)
        return sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED, "%s: cannot start zstd decoder",
                             what);
    size_t rc = ZSTD_decompressDCtx(dctx, dst, dst_len, src, src_len);
    ZSTD_freeDCtx(dctx);
    if (ZSTD_isError(rc)) {
        if (ZSTD_getErrorCode(rc) == ZSTD_error_dstSize_tooSmall)
            return codec_too_large(err, what, "zstd", dst_len);
        return codec_fail(err, what, "zstd: %s", ZSTD_getErrorName(rc));
    }
    if (rc != dst_len) return codec_size_mismatch(err, what, "zstd", rc, dst_len);
    return true;
}

/* ----------------------------------------------------------------- lz4 */

static bool codec_lz4_raw(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
                          const char *what, sqe_error *err) {
    if (src_len > LZ4_MAX_INPUT_SIZE || dst_len > INT_MAX)
        return codec_fail(err, what, "lz4 block of %zu bytes (to %zu) exceeds LZ4's limits",
                          src_len, dst_len);
    int n = LZ4_decompress_safe((const char *)src, (char *)dst, (int)src_len, (int)dst_len);
    if (n < 0)
        return codec_fail(err, what,
                          "lz4 data is corrupt, truncated or decompresses to more than %zu bytes",
                          dst_len);
    if ((size_t)n != dst_len) return codec_size_mismatch(err, what, "lz4", (size_t)n, dst_len);
    return true;
}

static uint32_t codec_be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Hadoop's Lz4Codec framing: [BE32 uncompressed][BE32 compressed][block]...
 * True with *out_len set when the whole input parses as that framing and
 * every block decodes to its stated size within dst. */
static bool codec_lz4_hadoop_try(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
                                 size_t *out_len) {
    size_t in = 0, out = 0;
    if (src_len < 8) return false;
    while (src_len - in >= 8) {
        uint32_t ulen = codec_be32(src + in), clen = codec_be32(src + in + 4);
        in += 8;
        if (clen > src_len - in || ulen > dst_len - out || clen > LZ4_MAX_INPUT_SIZE ||
            ulen > INT_MAX)
            return false;
        int n =
            LZ4_decompress_safe((const char *)src + in, (char *)dst + out, (int)clen, (int)ulen);
        if (n < 0 || (uint32_t)n != ulen) return false;
        in += clen;
        out += ulen;
    }
    if (in != src_len) return false;
    *out_len = out;
    return true;
}

static bool codec_lz4_hadoop(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
                             const char *what, sqe_error *err) {
    size_t out;
    if (codec_lz4_hadoop_try(src, src_len, dst, dst_len, &out)) {
        if (out != dst_len) return codec_size_mismatch(err, what, "lz4 (Hadoop)", out, dst_len);
        return true;
    }
    return codec_lz4_raw(src, src_len, dst, dst_len, what, err);
}

/* LZ4 frames back to back (the lz4 CLI's format), or Hadoop framing. */
static bool codec_lz4_frame(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
                            const char *what, sqe_error *err) {
    if (src_len < 4 || (src[0] != 0x04 || src[1] != 0x22 || src[2] != 0x4D || src[3] != 0x18)) {
        size_t out;
        if (!codec_lz4_hadoop_try(src, src_len, dst, dst_len, &out))
            return codec_fail(err, what,
                              "lz4 data is neither LZ4 frames nor Hadoop-framed LZ4 blocks (or "
                              "decompresses to more than %zu bytes)",
                              dst_len);
        if (out != dst_len) return codec_size_mismatch(err, what, "lz4 (Hadoop)", out, dst_len);
        return true;
    }
    LZ4F_dctx *dctx;
    if (LZ4F_isError(LZ4F_createDecompressionContext(&dctx, LZ4F_VERSION)))
        return sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED, "%s: cannot start lz4 decoder", what);
    size_t in = 0, out = 0, hint = 1;
    bool ok = false;
    uint8_t spill[64];
    while (in < src_len) {
        size_t in_n = src_len - in, out_n = dst_len - out;
        uint8_t *o = out_n ? dst + out : spill;
        size_t o_n = out_n ? out_n : sizeof spill;
        hint = LZ4F_decompress(dctx, o, &o_n, src + in, &in_n, NULL);
        if (LZ4F_isError(hint)) {
            codec_fail(err, what, "lz4: %s", LZ4F_getErrorName(hint));
            goto out;
        }
        if (!out_n && o_n) {
            codec_too_large(err, what, "lz4", dst_len);
            goto out;
        }
        in += in_n;
        out += o_n;
        if (in_n == 0 && o_n == 0) break; /* no progress: output full, see below */
    }
    if (hint != 0) {
        codec_fail(err, what, "lz4 data is truncated (%zu bytes decoded)", out);
        goto out;
    }
    if (out != dst_len) {
        codec_size_mismatch(err, what, "lz4", out, dst_len);
        goto out;
    }
    ok = true;
out:
    LZ4F_freeDecompressionContext(dctx);
    return ok;
}

/* -------------------------------------------------------------- brotli */

static bool codec_brotli(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
                         const char *what, sqe_error *err) {
    BrotliDecoderState *st = BrotliDecoderCreateInstance(NULL, NULL, NULL);
    if (!st)
        return sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED, "%s: cannot start brotli decoder",
                             what);
    const uint8_t *in = src;
    size_t in_n = src_len, out_n = dst_len;
    uint8_t *o = dst;
    bool ok = false;
    BrotliDecoderResult r = BrotliDecoderDecompressStream(st, &in_n, &in, &out_n, &o, NULL);
    size_t produced = dst_len - out_n;
    if (r == BROTLI_DECODER_RESULT_ERROR) {
        codec_fail(err, what, "brotli: %s",
                   BrotliDecoderErrorString(BrotliDecoderGetErrorCode(st)));
    } else if (r == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT) {
        codec_too_large(err, what, "brotli", dst_len);
    } else if (r == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT) {
        codec_fail(err, what, "brotli data is truncated (%zu bytes decoded)", produced);
    } else if (in_n != 0) {
        codec_fail(err, what, "brotli data has %zu bytes after the end of the stream", in_n);
    } else if (produced != dst_len) {
        codec_size_mismatch(err, what, "brotli", produced, dst_len);
    } else {
        ok = true;
    }
    BrotliDecoderDestroyInstance(st);
    return ok;
}

/* --------------------------------------------------------------- bzip2 */

static bool codec_bzip2(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
                        const char *what, sqe_error *err) {
    bz_stream bz;
    size_t in = 0, out = 0;
    uint8_t spill[64];
    for (;;) { /* one stream per iteration */
        memset(&bz, 0, sizeof bz);
        if (BZ2_bzDecompressInit(&bz, 0, 0) != BZ_OK)
            return sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED, "%s: cannot start bzip2 decoder",
                                 what);
        int rc;
        do {
            size_t in_n = src_len - in, out_n = dst_len - out;
            bz.next_in = (char *)(uintptr_t)(src + in);
            bz.avail_in = (unsigned)(in_n > UINT_MAX ? UINT_MAX : in_n);
            bz.next_out = out_n ? (char *)dst + out : (char *)spill;
            bz.avail_out = (unsigned)(out_n ? (out_n > UINT_MAX ? UINT_MAX : out_n) : sizeof spill);
            unsigned in0 = bz.avail_in, out0 = bz.avail_out;
            rc = BZ2_bzDecompress(&bz);
            size_t produced = out0 - bz.avail_out;
            in += in0 - bz.avail_in;
            if (rc != BZ_OK && rc != BZ_STREAM_END) {
                BZ2_bzDecompressEnd(&bz);
                return codec_fail(err, what, "bzip2 data is corrupt (error %d at byte %zu)", rc,
                                  in);
            }
            if (!out_n && produced) {
                BZ2_bzDecompressEnd(&bz);
                return codec_too_large(err, what, "bzip2", dst_len);
            }
            out += produced;
            if (rc == BZ_OK && in0 == bz.avail_in && produced == 0) {
                BZ2_bzDecompressEnd(&bz);
                return codec_fail(err, what, "bzip2 data is truncated (%zu bytes decoded)", out);
            }
        } while (rc != BZ_STREAM_END);
        BZ2_bzDecompressEnd(&bz);
        if (in == src_len) break;
    }
    if (out != dst_len) return codec_size_mismatch(err, what, "bzip2", out, dst_len);
    return true;
}

/* ------------------------------------------------------------ dispatch */

bool sqe_codec_decompress(sqe_codec c, const void *src_v, size_t src_len, void *dst_v,
                          size_t dst_len, const char *what, sqe_error *err) {
    const uint8_t *src = src_v;
    uint8_t *dst = dst_v;
    if (!what) what = "compressed data";
    if (c == SQE_CODEC_LZO)
        return sqe_error_set(err, SQE_ERR_NOT_SUPPORTED, "%s: LZO compression is not supported",
                             what);
    if (src_len == 0 && dst_len == 0 && (unsigned)c < SQE_CODEC__COUNT) return true;
    switch (c) {
    case SQE_CODEC_NONE:
        if (src_len != dst_len)
            return codec_fail(err, what, "uncompressed data is %zu bytes, the page header says %zu",
                              src_len, dst_len);
        if (dst_len) memcpy(dst, src, dst_len);
        return true;
    case SQE_CODEC_SNAPPY:
        return codec_snappy(src, src_len, dst, dst_len, what, err);
    case SQE_CODEC_GZIP:
        return codec_inflate(src, src_len, dst, dst_len, 15 + 32, "gzip", what, err);
    case SQE_CODEC_DEFLATE:
        return codec_inflate(src, src_len, dst, dst_len, 15, "deflate", what, err);
    case SQE_CODEC_ZSTD:
        return codec_zstd(src, src_len, dst, dst_len, what, err);
    case SQE_CODEC_LZ4_RAW:
        return codec_lz4_raw(src, src_len, dst, dst_len, what, err);
    case SQE_CODEC_LZ4_HADOOP:
        return codec_lz4_hadoop(src, src_len, dst, dst_len, what, err);
    case SQE_CODEC_LZ4_FRAME:
        return codec_lz4_frame(src, src_len, dst, dst_len, what, err);
    case SQE_CODEC_BROTLI:
        return codec_brotli(src, src_len, dst, dst_len, what, err);
    case SQE_CODEC_BZIP2:
        return codec_bzip2(src, src_len, dst, dst_len, what, err);
    default:
        return sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                             "%s: compression codec %d is not supported", what, (int)c);
    }
}
