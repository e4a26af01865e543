/*
 * byte_stream.c - sequential, incrementally decompressed reading of one
 * file (SPEC §4.5), and the codec names and file-name rules of codec.h.
 *
 * Where it sits: the text and JSON readers read a compressed file front to
 * back through an sqe_byte_stream instead of calling the store's get_range
 * themselves. The stream fetches the object in chunks of `chunk_size` bytes
 * (one input buffer, `in[in_pos, in_len)` not consumed yet) and decodes
 * straight into the caller's buffer where the library can (zlib, bzip2,
 * zstd, brotli, LZ4 frames); block framings (Hadoop's, snappy's) decode one
 * block into `blk[blk_pos, blk_len)` and copy out of it. Memory is one input
 * chunk, one block (capped by BS_MAX_BLOCK) and the library's window, never
 * the file.
 *
 * Multi-member input. gzip files made by `cat a.gz b.gz` (and by parallel
 * compressors) are several members; bzip2 likewise several streams, zstd and
 * LZ4 several frames. Each member's end resets the decoder and reading
 * continues while input remains, so every member is read. zlib streams
 * (.deflate) are treated the same way.
 *
 * Truncation. `open_member` is true from the first byte of a member until
 * its decoder reports the member's end; input ending while it is true is
 * "data is truncated". A store that returns fewer bytes than the listing's
 * size promised is "file is shorter than its listed size"; one that still
 * has a byte at the listed size when that is reached (the read reaching it
 * asks for one byte more when its buffer has room, else one 1-byte
 * get_range per file) is "longer than its listed size" (issue 7 item 2: a file
 * changed during a scan is an error naming it, never a partial answer).
 * Garbage is the
 * library's own complaint. All are INVALID_DATA prefixed "file 'F': ".
 *
 * Framings told apart by their first bytes:
 *   .lz4     LZ4 frame magic 04 22 4D 18 (or a skippable frame 5x 2A 4D 18)
 *            -> lz4frame; anything else -> Hadoop block framing;
 *   .snappy  chunk ff 06 00 00 "sNaPpY" -> snappy framing format (CRC-32C
 *            checked); anything else -> Hadoop block framing.
 * Hadoop's BlockCompressorStream writes blocks [4-byte BE raw length] then
 * [4-byte BE compressed length][compressed bytes] pieces until the raw
 * length is reached; each piece is one raw LZ4 or snappy block.
 *
 * Remote stores (sqe_readplan_defaults says max_in_flight > 0) read
 * through an sqe_seqread: the next chunks are fetched while this one is
 * decoded.
 *
 * Uncompressed streams (codec NONE) read straight into the caller's buffer
 * with get_range, no copy. A NONE stream over a name ending in .xz is
 * refused (NOT_SUPPORTED) rather than read as text.
 */
#include "format/codec.h"

#include <brotli/decode.h>
#include <bzlib.h>
#include <lz4.h>
#include <lz4frame.h>
#include <snappy-c.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>
#include <zstd.h>

/* A raw block of a block framing may not be larger (Hadoop writes 64-256
 * KiB blocks; snappy framing chunks are at most 64 KiB). */
#define BS_MAX_BLOCK ((uint32_t)64 << 20)

/* ------------------------------------------------------------ names */

const char *sqe_codec_name(sqe_codec c) {
    static const char *const names[SQE_CODEC__COUNT] = {
        [SQE_CODEC_NONE] = "none",       [SQE_CODEC_SNAPPY] = "snappy",
        [SQE_CODEC_GZIP] = "gzip",       [SQE_CODEC_ZSTD] = "zstd",
        [SQE_CODEC_LZ4_RAW] = "lz4_raw", [SQE_CODEC_LZ4_HADOOP] = "lz4",
        [SQE_CODEC_LZ4_FRAME] = "lz4",   [SQE_CODEC_BROTLI] = "brotli",
        [SQE_CODEC_BZIP2] = "bzip2",     [SQE_CODEC_DEFLATE] = "deflate",
        [SQE_CODEC_LZO] = "lzo",
    };
    return ((unsigned)c < SQE_CODEC__COUNT && names[c]) ? names[c] : "unknown";
}

sqe_codec sqe_codec_for_path(const char *path) {
    static const struct {
        const char *ext;
        sqe_codec codec;
    } k_ext[] = {
        {".gz", SQE_CODEC_GZIP},         {".bz2", SQE_CODEC_BZIP2},
        {".zst", SQE_CODEC_ZSTD},        {".zstd", SQE_CODEC_ZSTD},
        {".lz4", SQE_CODEC_LZ4_FRAME},   {".snappy", SQE_CODEC_SNAPPY},
        {".deflate", SQE_CODEC_DEFLATE}, {".br", SQE_CODEC_BROTLI},
        {".lzo", SQE_CODEC_LZO},
    };
    if (!path) return SQE_CODEC_NONE;
    size_t n = strlen(path);
    for (size_t i = 0; i < SQE_ARRAY_LEN(k_ext); i++) {
        size_t m = strlen(k_ext[i].ext);
        if (n > m && strcasecmp(path + n - m, k_ext[i].ext) == 0) return k_ext[i].codec;
    }
    return SQE_CODEC_NONE;
}

/* ------------------------------------------------------------ state */

typedef enum bs_framing {
    BS_FRAME_UNKNOWN = 0, /* .lz4/.snappy before the first bytes are seen */
    BS_FRAME_LIB,         /* a streaming library decodes (zlib, bz2, zstd, brotli, lz4f) */
    BS_FRAME_HADOOP,      /* Hadoop block framing (lz4 or snappy pieces) */
    BS_FRAME_SNAPPY,      /* snappy framing format */
} bs_framing;

struct sqe_byte_stream {
    sqe_store *store; /* borrowed */
    sqe_seqread *seq; /* remote store: input chunks read ahead (NULL: get_range) */
    char *path;
    uint64_t size; /* listed size; 0 = until a short read */
    uint64_t off;  /* next byte to fetch */
    uint64_t raw;  /* bytes fetched */
    sqe_codec codec;
    bs_framing framing;
    size_t chunk;
    bool in_eof;      /* no more bytes to fetch */
    bool done;        /* eof reported */
    bool open_member; /* inside a member/frame/block: eof now is truncation */

    uint8_t *in;
    size_t in_cap, in_pos, in_len;

    uint8_t *blk; /* block framings: decoded block */
    size_t blk_cap, blk_pos, blk_len;
    uint32_t hd_left; /* Hadoop: raw bytes of the current block still to decode */

    z_stream z;
    bool z_init;
    bz_stream bz;
    bool bz_init;
    ZSTD_DStream *zs;
    LZ4F_dctx *lz4;
    BrotliDecoderState *br;
};

static bool bs_fail(const sqe_byte_stream *s, sqe_error *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool bs_fail(const sqe_byte_stream *s, sqe_error *err, const char *fmt, ...) {
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return sqe_error_set(err, SQE_ERR_INVALID_DATA, "file '%s': %s: %s", s->path,
                         sqe_codec_name(s->codec), msg);
}

static bool bs_truncated(const sqe_byte_stream *s, sqe_error *err) {
    return bs_fail(s, err, "data is truncated (the file ends inside a compressed %s)",
                   s->codec == SQE_CODEC_GZIP ? "member" : "block or frame");
}

/* ------------------------------------------------------------ input */

static bool bs_longer(const sqe_byte_stream *s, sqe_error *err) {
    return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                         "file '%s'%s%s%s is longer than its listed size of %llu bytes (did it "
                         "grow or was it overwritten while being read?); run the query again",
                         s->path, s->codec ? " (" : "", s->codec ? sqe_codec_name(s->codec) : "",
                         s->codec ? ")" : "", (unsigned long long)s->size);
}

/* Fetches up to `want` bytes at s->off into dst (dst has room for want).
 * A read that ends at the listed size with room to spare asks for one byte
 * more: getting it means the file grew, not getting it replaces a separate
 * 1-byte read past the end. */
static bool bs_fetch(sqe_byte_stream *s, uint8_t *dst, size_t want, size_t *got, sqe_error *err) {
    *got = 0;
    if (s->in_eof) return true;
    bool probe = false; /* the extra byte rides on this read */
    if (s->size > 0) {
        uint64_t left = s->off < s->size ? s->size - s->off : 0;
        if (left < want) {
            want = (size_t)left;
            probe = true;
        }
    }
    if (want == 0) {
        s->in_eof = true;
        return true;
    }
    size_t n = 0, ask = want + probe;
    bool ok = s->seq ? sqe_seqread_read(s->seq, s->off, ask, dst, &n, err)
                     : s->store->vt->get_range(s->store, s->path, s->off, ask, dst, &n, err);
    if (!ok) return false;
    if (n > want) return bs_longer(s, err);
    s->off += n;
    s->raw += n;
    *got = n;
    if (n < want) {
        s->in_eof = true;
        if (s->size > 0)
            return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                                 "file '%s'%s%s%s is shorter than its listed size of %llu bytes: "
                                 "it ends at byte %llu (was it overwritten while being read?)",
                                 s->path, s->codec ? " (" : "",
                                 s->codec ? sqe_codec_name(s->codec) : "", s->codec ? ")" : "",
                                 (unsigned long long)s->size, (unsigned long long)s->off);
    }
    if (s->size > 0 && s->off >= s->size) {
        s->in_eof = true;
        if (probe) return true;
        /* one byte past the listed size: a file that grew (or was replaced
         * by a longer one) since it was listed is not read half-way */
        uint8_t extra;
        size_t m = 0;
        if (!s->store->vt->get_range(s->store, s->path, s->size, 1, &extra, &m, err)) return false;
        if (m > 0) return bs_longer(s, err);
    }
    return true;
}

/* Makes at least `need` unconsumed bytes available in in[in_pos, in_len)
 * (need <= BS_MAX_BLOCK + 8), or all that remain. False only on error. */
static bool bs_need(sqe_byte_stream *s, size_t need, sqe_error *err) {
    while (s->in_len - s->in_pos < need && !s->in_eof) {
        size_t keep = s->in_len - s->in_pos;
        if (s->in_pos > 0) {
            memmove(s->in, s->in + s->in_pos, keep);
            s->in_pos = 0;
            s->in_len = keep;
        }
        size_t want = SQE_MAX(s->chunk, need - keep);
        if (keep + want > s->in_cap) {
            s->in_cap = keep + want;
            s->in = sqe_realloc(s->in, s->in_cap);
        }
        size_t got;
        if (!bs_fetch(s, s->in + s->in_len, want, &got, err)) return false;
        s->in_len += got;
    }
    return true;
}

static inline size_t bs_avail(const sqe_byte_stream *s) {
    return s->in_len - s->in_pos;
}

static uint32_t be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* ------------------------------------------------------ streaming libs */

/* Each step decodes from in[in_pos..] into out[0, cap) and sets *n; it
 * updates open_member and may return with *n == 0 when it needs input. */

static bool step_zlib(sqe_byte_stream *s, uint8_t *out, size_t cap, size_t *n, sqe_error *err) {
    if (!s->open_member) {
        if (bs_avail(s) == 0) return true;
        if (inflateReset(&s->z) != Z_OK) return bs_fail(s, err, "cannot reset the decoder");
        s->open_member = true;
    }
    s->z.next_in = s->in + s->in_pos;
    s->z.avail_in = (uInt)SQE_MIN(bs_avail(s), (size_t)UINT32_MAX);
    s->z.next_out = out;
    s->z.avail_out = (uInt)SQE_MIN(cap, (size_t)UINT32_MAX);
    int rc = inflate(&s->z, Z_NO_FLUSH);
    s->in_pos = (size_t)(s->z.next_in - s->in);
    *n = (size_t)(s->z.next_out - out);
    if (rc == Z_STREAM_END) {
        s->open_member = false; /* another member may follow */
        return true;
    }
    if (rc == Z_OK || rc == Z_BUF_ERROR) return true;
    return bs_fail(s, err, "%s", s->z.msg ? s->z.msg : "invalid compressed data");
}

static bool step_bzip2(sqe_byte_stream *s, uint8_t *out, size_t cap, size_t *n, sqe_error *err) {
    if (!s->open_member) {
        if (bs_avail(s) == 0) return true;
        if (s->bz_init) BZ2_bzDecompressEnd(&s->bz);
        memset(&s->bz, 0, sizeof s->bz);
        s->bz_init = BZ2_bzDecompressInit(&s->bz, 0, 0) == BZ_OK;
        if (!s->bz_init) return bs_fail(s, err, "cannot start the decoder");
        s->open_member = true;
    }
    s->bz.next_in = (char *)(s->in + s->in_pos);
    s->bz.avail_in = (unsigned)SQE_MIN(bs_avail(s), (size_t)UINT32_MAX);
    s->bz.next_out = (char *)out;
    s->bz.avail_out = (unsigned)SQE_MIN(cap, (size_t)UINT32_MAX);
    int rc = BZ2_bzDecompress(&s->bz);
    s->in_pos = (size_t)((uint8_t *)s->bz.next_in - s->in);
    *n = (size_t)((uint8_t *)s->bz.next_out - out);
    if (rc == BZ_STREAM_END) {
        s->open_member = false;
        return true;
    }
    if (rc == BZ_OK) return true;
    return bs_fail(s, err, "invalid compressed data (libbz2 error %d)", rc);
}

static bool step_zstd(sqe_byte_stream *s, uint8_t *out, size_t cap, size_t *n, sqe_error *err) {
    if (bs_avail(s) == 0 && !s->open_member) return true; /* between frames: nothing to flush */
    s->open_member = true;
    ZSTD_inBuffer ib = {s->in + s->in_pos, bs_avail(s), 0};
    ZSTD_outBuffer ob = {out, cap, 0};
    size_t rc = ZSTD_decompressStream(s->zs, &ob, &ib);
    s->in_pos += ib.pos;
    *n = ob.pos;
    if (ZSTD_isError(rc)) return bs_fail(s, err, "%s", ZSTD_getErrorName(rc));
    /* rc == 0: a frame ended and was flushed; the next bytes start another */
    s->open_member = rc != 0;
    return true;
}

static bool step_brotli(sqe_byte_stream *s, uint8_t *out, size_t cap, size_t *n, sqe_error *err) {
    if (BrotliDecoderIsFinished(s->br)) {
        if (bs_avail(s) > 0) return bs_fail(s, err, "data after the end of the brotli stream");
        return true;
    }
    s->open_member = true;
    size_t avail_in = bs_avail(s), avail_out = cap;
    const uint8_t *next_in = s->in + s->in_pos;
    uint8_t *next_out = out;
    BrotliDecoderResult rc =
        BrotliDecoderDecompressStream(s->br, &avail_in, &next_in, &avail_out, &next_out, NULL);
    s->in_pos = (size_t)(next_in - s->in);
    *n = cap - avail_out;
    if (rc == BROTLI_DECODER_RESULT_ERROR)
        return bs_fail(s, err, "%s", BrotliDecoderErrorString(BrotliDecoderGetErrorCode(s->br)));
    if (rc == BROTLI_DECODER_RESULT_SUCCESS) {
        s->open_member = false;
        if (bs_avail(s) > 0) return bs_fail(s, err, "data after the end of the brotli stream");
    }
    return true;
}

static bool step_lz4f(sqe_byte_stream *s, uint8_t *out, size_t cap, size_t *n, sqe_error *err) {
    if (bs_avail(s) == 0 && !s->open_member) return true; /* between frames */
    s->open_member = true;
    size_t in_n = bs_avail(s), out_n = cap;
    size_t rc = LZ4F_decompress(s->lz4, out, &out_n, s->in + s->in_pos, &in_n, NULL);
    s->in_pos += in_n;
    *n = out_n;
    if (LZ4F_isError(rc)) return bs_fail(s, err, "%s", LZ4F_getErrorName(rc));
    s->open_member = rc != 0; /* 0: a frame ended; the context starts the next one itself */
    return true;
}

/* ------------------------------------------------------ block framings */

static void blk_reserve(sqe_byte_stream *s, size_t n) {
    if (n > s->blk_cap) {
        s->blk_cap = n;
        sqe_free(s->blk);
        s->blk = sqe_malloc(n);
    }
}

/* One piece of a Hadoop block: appends its raw bytes to blk. */
static bool hadoop_piece(sqe_byte_stream *s, sqe_error *err) {
    if (!bs_need(s, 4, err)) return false;
    if (bs_avail(s) < 4) return bs_truncated(s, err);
    uint32_t clen = be32(s->in + s->in_pos);
    if (clen == 0 || clen > BS_MAX_BLOCK)
        return bs_fail(s, err, "Hadoop block piece of %u compressed bytes is invalid", clen);
    if (!bs_need(s, 4 + (size_t)clen, err)) return false;
    if (bs_avail(s) < 4 + (size_t)clen) return bs_truncated(s, err);
    const char *src = (const char *)s->in + s->in_pos + 4;
    char *dst = (char *)s->blk + s->blk_len;
    size_t got;
    if (s->codec == SQE_CODEC_SNAPPY) {
        size_t ulen;
        if (snappy_uncompressed_length(src, clen, &ulen) != SNAPPY_OK || ulen > s->hd_left)
            return bs_fail(s, err, "Hadoop block piece does not fit its block (%u bytes left)",
                           s->hd_left);
        got = ulen;
        if (snappy_uncompress(src, clen, dst, &got) != SNAPPY_OK || got != ulen)
            return bs_fail(s, err, "invalid snappy block");
    } else {
        int r = LZ4_decompress_safe(src, dst, (int)clen, (int)s->hd_left);
        if (r <= 0) return bs_fail(s, err, "invalid LZ4 block in Hadoop framing");
        got = (size_t)r;
    }
    s->in_pos += 4 + (size_t)clen;
    s->blk_len += got;
    s->hd_left -= (uint32_t)got;
    return true;
}

/* Decodes the next whole Hadoop block into blk (blk_len 0 at end of input). */
static bool hadoop_block(sqe_byte_stream *s, sqe_error *err) {
    s->blk_pos = s->blk_len = 0;
    if (!bs_need(s, 4, err)) return false;
    if (bs_avail(s) == 0) return true;
    s->open_member = true;
    if (bs_avail(s) < 4) return bs_truncated(s, err);
    uint32_t raw = be32(s->in + s->in_pos);
    s->in_pos += 4;
    if (raw > BS_MAX_BLOCK)
        return bs_fail(s, err,
                       "Hadoop block of %u bytes is larger than the limit of %u (or the data is "
                       "not in Hadoop's block framing)",
                       raw, BS_MAX_BLOCK);
    blk_reserve(s, SQE_MAX(raw, 1));
    s->hd_left = raw;
    while (s->hd_left > 0)
        if (!hadoop_piece(s, err)) return false;
    s->open_member = false;
    return true;
}

static uint32_t crc32c(const uint8_t *p, size_t n) {
    static uint32_t table[256];
    static bool ready; /* benign race: every thread computes the same table */
    if (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE)) {
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
            __atomic_store_n(&table[i], c, __ATOMIC_RELAXED);
        }
        __atomic_store_n(&ready, true, __ATOMIC_RELEASE);
    }
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++)
        c = __atomic_load_n(&table[(c ^ p[i]) & 0xFF], __ATOMIC_RELAXED) ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

static uint32_t snappy_mask(uint32_t crc) {
    return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

/* Decodes the next data chunk of the snappy framing format into blk. */
static bool snappy_frame_chunk(sqe_byte_stream *s, sqe_error *err) {
    s->blk_pos = s->blk_len = 0;
    for (;;) {
        if (!bs_need(s, 4, err)) return false;
        if (bs_avail(s) == 0) return true;
        s->open_member = true;
        if (bs_avail(s) < 4) return bs_truncated(s, err);
        const uint8_t *h = s->in + s->in_pos;
        uint8_t type = h[0];
        uint32_t len = h[1] | (uint32_t)h[2] << 8 | (uint32_t)h[3] << 16;
        if (!bs_need(s, 4 + (size_t)len, err)) return false;
        if (bs_avail(s) < 4 + (size_t)len) return bs_truncated(s, err);
        const uint8_t *d = s->in + s->in_pos + 4;
        s->in_pos += 4 + (size_t)len;
        s->open_member = false;
        if (type == 0xff) {
            if (len != 6 || memcmp(d, "sNaPpY", 6) != 0)
                return bs_fail(s, err, "bad snappy stream identifier");
            continue;
        }
        if (type >= 0x80) continue; /* padding and skippable chunks */
        if (type > 0x01)
            return bs_fail(s, err, "reserved unskippable snappy chunk type 0x%02x", type);
        if (len < 4) return bs_fail(s, err, "snappy chunk of %u bytes has no checksum", len);
        const char *src = (const char *)d + 4;
        size_t slen = len - 4, ulen = slen;
        if (type == 0x00 &&
            (snappy_uncompressed_length(src, slen, &ulen) != SNAPPY_OK || ulen > 65536))
            return bs_fail(s, err, "invalid snappy chunk");
        blk_reserve(s, SQE_MAX(ulen, 1));
        if (type == 0x00) {
            size_t got = ulen;
            if (snappy_uncompress(src, slen, (char *)s->blk, &got) != SNAPPY_OK || got != ulen)
                return bs_fail(s, err, "invalid snappy chunk");
        } else {
            if (ulen > 65536) return bs_fail(s, err, "uncompressed snappy chunk over 64 KiB");
            memcpy(s->blk, src, ulen);
        }
        uint32_t want =
            (uint32_t)d[0] | (uint32_t)d[1] << 8 | (uint32_t)d[2] << 16 | (uint32_t)d[3] << 24;
        if (snappy_mask(crc32c(s->blk, ulen)) != want)
            return bs_fail(s, err, "snappy chunk checksum mismatch");
        s->blk_len = ulen;
        if (ulen > 0) return true;
    }
}

/* Decides LZ4 frame vs Hadoop framing (and snappy framing vs Hadoop) from
 * the first bytes. */
static bool bs_detect(sqe_byte_stream *s, sqe_error *err) {
    if (!bs_need(s, 10, err)) return false;
    const uint8_t *p = s->in + s->in_pos;
    size_t n = bs_avail(s);
    if (s->codec == SQE_CODEC_LZ4_FRAME) {
        bool frame = n >= 4 && p[1] == 0x22 && p[2] == 0x4D && p[3] == 0x18 && p[0] == 0x04;
        bool skippable =
            n >= 4 && (p[0] & 0xF0) == 0x50 && p[1] == 0x2A && p[2] == 0x4D && p[3] == 0x18;
        s->framing = (frame || skippable) ? BS_FRAME_LIB : BS_FRAME_HADOOP;
        if (s->framing == BS_FRAME_LIB &&
            LZ4F_isError(LZ4F_createDecompressionContext(&s->lz4, LZ4F_VERSION)))
            return bs_fail(s, err, "cannot start the decoder");
    } else {
        s->framing = (n >= 10 && memcmp(p, "\xff\x06\x00\x00sNaPpY", 10) == 0) ? BS_FRAME_SNAPPY
                                                                               : BS_FRAME_HADOOP;
    }
    return true;
}

/* ------------------------------------------------------------ API */

sqe_byte_stream *sqe_byte_stream_open(sqe_store *store, const char *path, uint64_t size,
                                      uint64_t start, sqe_codec codec, size_t chunk_size,
                                      sqe_error *err) {
    size_t plen = strlen(path);
    if (codec == SQE_CODEC_NONE && plen > 3 && strcasecmp(path + plen - 3, ".xz") == 0) {
        sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                      "cannot read '%s': xz-compressed files (.xz) are not supported; "
                      "recompress them with gzip, zstd, bzip2, lz4 or snappy",
                      path);
        return NULL;
    }
    if (codec == SQE_CODEC_LZO) {
        sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                      "cannot read '%s': LZO-compressed files (.lzo) are not supported; "
                      "recompress them with gzip, zstd, bzip2, lz4 or snappy",
                      path);
        return NULL;
    }
    if ((unsigned)codec >= SQE_CODEC__COUNT || codec == SQE_CODEC_LZ4_RAW ||
        codec == SQE_CODEC_LZ4_HADOOP || (codec != SQE_CODEC_NONE && start != 0)) {
        sqe_error_set(err, SQE_ERR_INTERNAL, "byte stream over '%s': codec %s from byte %llu", path,
                      sqe_codec_name(codec), (unsigned long long)start);
        return NULL;
    }
    sqe_byte_stream *s = sqe_calloc(1, sizeof *s);
    s->store = store;
    s->path = sqe_strdup(path);
    s->size = size;
    s->off = start;
    s->codec = codec;
    s->chunk = chunk_size ? chunk_size : 1;
    s->framing = BS_FRAME_LIB;
    sqe_readplan_opts io;
    sqe_readplan_defaults(store, &io);
    if (io.max_in_flight > 0) /* remote: the next chunks arrive while this one decodes */
        s->seq = sqe_seqread_new(store, path, size ? size + 1 : UINT64_MAX, &io); /* + probe */
    bool ok = true;
    switch (codec) {
    case SQE_CODEC_GZIP:
    case SQE_CODEC_DEFLATE:
        /* 15 + 16: gzip members only; 15: zlib streams only */
        ok = s->z_init = inflateInit2(&s->z, codec == SQE_CODEC_GZIP ? 15 + 16 : 15) == Z_OK;
        break;
    case SQE_CODEC_ZSTD:
        ok = (s->zs = ZSTD_createDStream()) != NULL && !ZSTD_isError(ZSTD_initDStream(s->zs));
        break;
    case SQE_CODEC_BROTLI:
        ok = (s->br = BrotliDecoderCreateInstance(NULL, NULL, NULL)) != NULL;
        break;
    case SQE_CODEC_LZ4_FRAME:
    case SQE_CODEC_SNAPPY:
        s->framing = BS_FRAME_UNKNOWN;
        break;
    default:
        break;
    }
    if (!ok) {
        sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED, "file '%s': cannot start the %s decoder",
                      path, sqe_codec_name(codec));
        sqe_byte_stream_close(s);
        return NULL;
    }
    return s;
}

static bool bs_step(sqe_byte_stream *s, uint8_t *out, size_t cap, size_t *n, sqe_error *err) {
    *n = 0;
    if (s->framing == BS_FRAME_HADOOP || s->framing == BS_FRAME_SNAPPY) {
        if (s->blk_pos == s->blk_len) {
            bool ok =
                s->framing == BS_FRAME_HADOOP ? hadoop_block(s, err) : snappy_frame_chunk(s, err);
            if (!ok) return false;
        }
        *n = SQE_MIN(cap, s->blk_len - s->blk_pos);
        if (*n) memcpy(out, s->blk + s->blk_pos, *n); /* blk is NULL before the first block */
        s->blk_pos += *n;
        return true;
    }
    switch (s->codec) {
    case SQE_CODEC_GZIP:
    case SQE_CODEC_DEFLATE:
        return step_zlib(s, out, cap, n, err);
    case SQE_CODEC_BZIP2:
        return step_bzip2(s, out, cap, n, err);
    case SQE_CODEC_ZSTD:
        return step_zstd(s, out, cap, n, err);
    case SQE_CODEC_BROTLI:
        return step_brotli(s, out, cap, n, err);
    case SQE_CODEC_LZ4_FRAME:
        return step_lz4f(s, out, cap, n, err);
    default:
        return sqe_error_set(err, SQE_ERR_INTERNAL, "byte stream: codec %s",
                             sqe_codec_name(s->codec));
    }
}

bool sqe_byte_stream_read(sqe_byte_stream *s, void *buf, size_t cap, size_t *n, bool *eof,
                          sqe_error *err) {
    *n = 0;
    *eof = false;
    if (s->done) {
        *eof = true;
        return true;
    }
    if (cap == 0) return true;
    if (s->codec == SQE_CODEC_NONE) {
        if (!bs_fetch(s, buf, SQE_MAX(cap, 1), n, err)) return false;
        if (*n == 0) s->done = *eof = true;
        return true;
    }
    if (s->framing == BS_FRAME_UNKNOWN && !bs_detect(s, err)) return false;
    /* Loop until some output appears or the input is exhausted: a step may
     * consume input (headers, a finished member) and produce nothing. */
    for (int idle = 0;;) {
        bool block = s->framing == BS_FRAME_HADOOP || s->framing == BS_FRAME_SNAPPY;
        if (!block && bs_avail(s) == 0 && !s->in_eof) {
            s->in_pos = s->in_len = 0;
            if (!bs_need(s, 1, err)) return false;
        }
        size_t before = s->in_pos;
        if (!bs_step(s, buf, cap, n, err)) return false;
        if (*n > 0) return true;
        if (bs_avail(s) == 0 && s->in_eof && (block || s->in_pos == before || !s->open_member)) {
            if (s->open_member) return bs_truncated(s, err);
            s->done = *eof = true;
            return true;
        }
        if (s->in_pos == before && bs_avail(s) > 0 && ++idle > 4)
            return bs_fail(s, err, "the decoder makes no progress (corrupt data)");
    }
}

uint64_t sqe_byte_stream_raw_bytes(const sqe_byte_stream *s) {
    return s ? s->raw : 0;
}

void sqe_byte_stream_close(sqe_byte_stream *s) {
    if (!s) return;
    if (s->z_init) inflateEnd(&s->z);
    if (s->bz_init) BZ2_bzDecompressEnd(&s->bz);
    if (s->zs) ZSTD_freeDStream(s->zs);
    if (s->lz4) LZ4F_freeDecompressionContext(s->lz4);
    if (s->br) BrotliDecoderDestroyInstance(s->br);
    sqe_seqread_free(s->seq);
    sqe_free(s->in);
    sqe_free(s->blk);
    sqe_free(s->path);
    sqe_free(s);
}
