/*
 * parquet_encoding.c - Parquet value encodings: pure functions from the bytes
 * of a (decompressed) page section to values, as parquet-format's
 * Encodings.md defines them.
 *
 * Where it sits: parquet_reader.c splits a data page into levels and values,
 * decodes levels and dictionary indexes with the RLE/bit-packed hybrid
 * decoder (sqe_pq_rle) and everything else with sqe_pq_decode_values, then
 * converts the physical values into the declared column types. Nothing here
 * knows about files, columns or vectors; errors say what is wrong with the
 * bytes and where (byte offsets are relative to the start of the section
 * passed in), and the reader prefixes the file, column and page.
 *
 * Encodings:
 *   RLE/bit-packed hybrid  runs of "varint header, then a repeated value
 *                          (header even) or header/2 groups of 8 bit-packed
 *                          values (header odd)", bit widths 0..32.
 *   PLAIN                  little-endian values back to back; BOOLEAN as
 *                          bits LSB first; BYTE_ARRAY as 4-byte length then
 *                          bytes.
 *   RLE (BOOLEAN)          4-byte length, then the hybrid with width 1.
 *   DELTA_BINARY_PACKED    header (block size, miniblocks per block, value
 *                          count, first value), then blocks of (zigzag min
 *                          delta, one bit-width byte per miniblock,
 *                          bit-packed miniblocks). All arithmetic is done on
 *                          uint64_t so overflow wraps (as the spec asks)
 *                          and INT32 keeps the low 32 bits.
 *   DELTA_LENGTH_BYTE_ARRAY  lengths as DELTA_BINARY_PACKED, then the bytes.
 *   DELTA_BYTE_ARRAY       prefix lengths (DELTA_BINARY_PACKED), then the
 *                          suffixes as DELTA_LENGTH_BYTE_ARRAY; values are
 *                          rebuilt in the scratch arena.
 *   BYTE_STREAM_SPLIT      K byte streams of N bytes, N = section length / K.
 *
 * Invariants that keep hostile pages harmless:
 *   - every count and length is checked against the bytes that remain
 *     before it is used; all size arithmetic is in uint64_t, where products
 *     of a uint32 count and a width cannot overflow;
 *   - work is bounded by the caller's n or by the input length: a
 *     bit-packed run longer than its data is cut to the values whose bits
 *     are present (as Arrow does; some writers truncate the last run), a
 *     delta stream's values beyond n are skipped a miniblock at a time
 *     (each costs at least one width byte), and zero-length runs are
 *     rejected;
 *   - DELTA_BYTE_ARRAY copies only values with a non-empty suffix (a value
 *     without one points into its predecessor) and refuses a page whose
 *     values would take more than SQE_PQ_MAX_PAGE bytes, so a few bytes of
 *     prefix lengths cannot ask for terabytes;
 *   - bit unpacking loads 8 bytes at a time only when 8 bytes past the
 *     group are inside the buffer, and otherwise copies the tail into a
 *     zero-padded local buffer first.
 *
 * The host must be little-endian (checked at compile time): fixed-width
 * values are copied as they are in the file.
 */
#include "format/parquet.h"

#include <stdio.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "parquet_encoding.c assumes a little-endian host"
#endif

#define PQ_INLINE static inline __attribute__((always_inline))

/* --------------------------------------------------------------- bytes */

PQ_INLINE uint64_t pq_load64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

PQ_INLINE uint32_t pq_load32(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* Reads an unsigned LEB128 varint of at most 64 bits from [*pp, end). */
static bool pq_uleb(const uint8_t **pp, const uint8_t *end, uint64_t *out) {
    const uint8_t *p = *pp;
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (p >= end) return false;
        uint8_t b = *p++;
        if (shift == 63 && (b & 0x7E)) return false; /* more than 64 bits */
        v |= (uint64_t)(b & 0x7F) << shift;
        if (!(b & 0x80)) {
            *pp = p;
            *out = v;
            return true;
        }
    }
    return false;
}

static inline int64_t pq_unzigzag(uint64_t v) {
    return (int64_t)((v >> 1) ^ (~(v & 1) + 1));
}

/* ------------------------------------------------------- bit unpacking */

/* Unpacks 32 values of width W (1..32) starting at bit 0 of in. At least
 * 4 * W + 8 bytes must be readable at in (callers pad short tails). */
PQ_INLINE void pq_unpack32_w(const uint8_t *in, uint32_t *out, const int W) {
    const uint64_t mask = W == 32 ? 0xFFFFFFFFu : (((uint64_t)1 << W) - 1);
    for (int g = 0; g < 4; g++) {
        const uint8_t *q = in + g * W; /* 8 values of W bits are W bytes */
        for (int j = 0; j < 8; j++) {
            const int bit = j * W;
            out[g * 8 + j] = (uint32_t)((pq_load64(q + (bit >> 3)) >> (bit & 7)) & mask);
        }
    }
}

#define PQ_UNPACK_CASE(w)                                                                          \
    case w:                                                                                        \
        pq_unpack32_w(in, out, w);                                                                 \
        return;

/* pq_unpack32_w with the width as a run-time value: one specialised loop per
 * width, so every shift and mask is a constant. */
static void pq_unpack32(const uint8_t *in, uint32_t *out, int bw) {
    switch (bw) {
    case 0:
        memset(out, 0, 32 * sizeof *out);
        return;
        PQ_UNPACK_CASE(1)
        PQ_UNPACK_CASE(2)
        PQ_UNPACK_CASE(3)
        PQ_UNPACK_CASE(4)
        PQ_UNPACK_CASE(5)
        PQ_UNPACK_CASE(6)
        PQ_UNPACK_CASE(7)
        PQ_UNPACK_CASE(8)
        PQ_UNPACK_CASE(9)
        PQ_UNPACK_CASE(10)
        PQ_UNPACK_CASE(11)
        PQ_UNPACK_CASE(12)
        PQ_UNPACK_CASE(13)
        PQ_UNPACK_CASE(14)
        PQ_UNPACK_CASE(15)
        PQ_UNPACK_CASE(16)
        PQ_UNPACK_CASE(17)
        PQ_UNPACK_CASE(18)
        PQ_UNPACK_CASE(19)
        PQ_UNPACK_CASE(20)
        PQ_UNPACK_CASE(21)
        PQ_UNPACK_CASE(22)
        PQ_UNPACK_CASE(23)
        PQ_UNPACK_CASE(24)
        PQ_UNPACK_CASE(25)
        PQ_UNPACK_CASE(26)
        PQ_UNPACK_CASE(27)
        PQ_UNPACK_CASE(28)
        PQ_UNPACK_CASE(29)
        PQ_UNPACK_CASE(30)
        PQ_UNPACK_CASE(31)
        PQ_UNPACK_CASE(32)
    default:
        return;
    }
}

/* One value of width bw (0..64) at bit offset `bit` of in[0, len), reading
 * only bytes inside the buffer (the caller has checked bit + bw <= 8 * len):
 * one 8-byte load when 8 bytes remain and the value fits in it, else byte
 * by byte. */
static uint64_t pq_unpack_one(const uint8_t *in, size_t len, uint64_t bit, int bw) {
    if (bw == 0) return 0;
    size_t first = (size_t)(bit >> 3), last = (size_t)((bit + (uint64_t)bw - 1) >> 3);
    unsigned shift = (unsigned)(bit & 7);
    uint64_t mask = bw == 64 ? ~(uint64_t)0 : (((uint64_t)1 << bw) - 1);
    if (len - first >= 8 && shift + (unsigned)bw <= 64)
        return (pq_load64(in + first) >> shift) & mask;
    unsigned __int128 acc = 0;
    for (size_t i = last + 1; i-- > first;) acc = (acc << 8) | in[i];
    return (uint64_t)(acc >> shift) & mask;
}

/* Unpacks 32 values of width bw (0..64) from in[0, 4*bw), which lies inside
 * a buffer ending at end. */
static void pq_unpack32_u64(const uint8_t *in, const uint8_t *end, int bw, uint64_t *out) {
    size_t bytes = (size_t)4 * (size_t)bw;
    if (bw <= 32) {
        uint32_t tmp[32];
        if ((size_t)(end - in) >= bytes + 8) {
            pq_unpack32(in, tmp, bw);
        } else {
            uint8_t pad[4 * 32 + 8] = {0};
            memcpy(pad, in, bytes);
            pq_unpack32(pad, tmp, bw);
        }
        for (int i = 0; i < 32; i++) out[i] = tmp[i];
        return;
    }
    for (int i = 0; i < 32; i++) out[i] = pq_unpack_one(in, bytes, (uint64_t)i * bw, bw);
}

/* ----------------------------------------------- RLE / bit-packed hybrid */

bool sqe_pq_rle_init(sqe_pq_rle *d, const uint8_t *p, size_t len, int bit_width, sqe_error *err) {
    memset(d, 0, sizeof *d);
    if (bit_width < 0 || bit_width > 32)
        return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                             "RLE/bit-packed hybrid: bit width %d is outside 0..32", bit_width);
    d->p = p;
    d->end = p + len;
    d->bit_width = bit_width;
    return true;
}

/* Reads the next run header at d->p. */
static bool pq_rle_next_run(sqe_pq_rle *d, uint32_t wanted, sqe_error *err) {
    uint64_t h;
    const uint8_t *start = d->p;
    if (d->p >= d->end)
        return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                             "RLE/bit-packed hybrid: the data ends with %u values still to decode",
                             wanted);
    if (!pq_uleb(&d->p, d->end, &h) || h > UINT32_MAX)
        return sqe_error_set(
            err, SQE_ERR_INVALID_DATA,
            "RLE/bit-packed hybrid: run header is truncated or longer than 32 bits");
    int bw = d->bit_width;
    size_t avail = (size_t)(d->end - d->p);
    if (h & 1) {
        uint64_t groups = h >> 1;
        if (groups == 0 || groups > (uint64_t)INT32_MAX / 8)
            return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                                 "RLE/bit-packed hybrid: bit-packed run of %llu groups of 8 values",
                                 (unsigned long long)groups);
        uint64_t values = groups * 8;
        if (bw > 0 && groups * (uint64_t)bw > avail) {
            /* A run cut short by the end of the data: keep the values whose
             * bits are all present; nothing can follow it. */
            values = (uint64_t)avail * 8 / (uint64_t)bw;
            if (values == 0)
                return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                                     "RLE/bit-packed hybrid: bit-packed run of %llu values at "
                                     "width %d is truncated to %zu bytes",
                                     (unsigned long long)(groups * 8), bw, avail);
            d->end = d->p + (values * (uint64_t)bw + 7) / 8;
        }
        d->packed_left = (uint32_t)values;
        d->packed_pos = 0;
        return true;
    }
    uint64_t count = h >> 1;
    int nbytes = (bw + 7) / 8;
    if (count == 0)
        return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                             "RLE/bit-packed hybrid: run of length 0 (header byte 0x%02x)", *start);
    if ((size_t)nbytes > avail)
        return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                             "RLE/bit-packed hybrid: RLE run value is truncated (%d bytes needed, "
                             "%zu left)",
                             nbytes, avail);
    uint32_t v = 0;
    for (int i = 0; i < nbytes; i++) v |= (uint32_t)d->p[i] << (8 * i);
    if (bw < 32 && (v >> bw) != 0)
        return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                             "RLE/bit-packed hybrid: RLE run value %u does not fit in bit width %d",
                             v, bw);
    d->p += nbytes;
    d->rle_left = (uint32_t)count;
    d->rle_value = v;
    return true;
}

/* Takes k (<= packed_left) values from the current bit-packed run. */
static void pq_rle_take_packed(sqe_pq_rle *d, uint32_t *out, uint32_t k) {
    const int bw = d->bit_width;
    uint32_t i = 0;
    if (bw == 0) {
        memset(out, 0, (size_t)k * sizeof *out);
        i = k;
    }
    while (i < k) {
        /* Fast path: byte-aligned position, 32 values with 8 bytes to spare
         * (re-entered as soon as single values bring the position back to a
         * byte boundary, so odd call sizes do not lose it). */
        if (d->packed_pos == 0 && k - i >= 32 && (size_t)(d->end - d->p) >= (size_t)4 * bw + 8) {
            pq_unpack32(d->p, out + i, bw);
            d->p += 4 * bw;
            i += 32;
            continue;
        }
        out[i++] = (uint32_t)pq_unpack_one(d->p, (size_t)(d->end - d->p), d->packed_pos, bw);
        d->packed_pos += (uint32_t)bw;
        d->p += d->packed_pos >> 3;
        d->packed_pos &= 7;
    }
    d->packed_left -= k;
    if (d->packed_left == 0 && d->packed_pos != 0) { /* padding bits of a cut run */
        d->p++;
        d->packed_pos = 0;
    }
}

bool sqe_pq_rle_get(sqe_pq_rle *d, uint32_t *out, uint32_t n, sqe_error *err) {
    while (n > 0) {
        if (d->rle_left > 0) {
            uint32_t k = n < d->rle_left ? n : d->rle_left;
            uint32_t v = d->rle_value;
            for (uint32_t i = 0; i < k; i++) out[i] = v;
            d->rle_left -= k;
            out += k;
            n -= k;
        } else if (d->packed_left > 0) {
            uint32_t k = n < d->packed_left ? n : d->packed_left;
            pq_rle_take_packed(d, out, k);
            out += k;
            n -= k;
        } else if (!pq_rle_next_run(d, n, err)) {
            return false;
        }
    }
    return true;
}

/* ------------------------------------------------------------- helpers */

size_t sqe_pq_value_width(int physical, int32_t type_length) {
    switch (physical) {
    case SQE_PQ_BOOLEAN:
        return 1;
    case SQE_PQ_INT32:
    case SQE_PQ_FLOAT:
        return 4;
    case SQE_PQ_INT64:
    case SQE_PQ_DOUBLE:
        return 8;
    case SQE_PQ_INT96:
        return 12;
    case SQE_PQ_FIXED_LEN_BYTE_ARRAY:
        return type_length > 0 ? (size_t)type_length : 0;
    default:
        return 0;
    }
}

const char *sqe_pq_encoding_name(int encoding, char *buf, size_t buf_len) {
    switch (encoding) {
    case SQE_PQ_PLAIN:
        return "PLAIN";
    case SQE_PQ_PLAIN_DICTIONARY:
        return "PLAIN_DICTIONARY";
    case SQE_PQ_RLE:
        return "RLE";
    case SQE_PQ_BIT_PACKED:
        return "BIT_PACKED";
    case SQE_PQ_DELTA_BINARY_PACKED:
        return "DELTA_BINARY_PACKED";
    case SQE_PQ_DELTA_LENGTH_BYTE_ARRAY:
        return "DELTA_LENGTH_BYTE_ARRAY";
    case SQE_PQ_DELTA_BYTE_ARRAY:
        return "DELTA_BYTE_ARRAY";
    case SQE_PQ_RLE_DICTIONARY:
        return "RLE_DICTIONARY";
    case SQE_PQ_BYTE_STREAM_SPLIT:
        return "BYTE_STREAM_SPLIT";
    case 10:
        return "ALP";
    default:
        snprintf(buf, buf_len, "encoding %d", encoding);
        return buf;
    }
}

static const char *pq_physical_name(int physical) {
    static const char *const names[] = {"BOOLEAN", "INT32",  "INT64",      "INT96",
                                        "FLOAT",   "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
    return physical >= 0 && physical < 8 ? names[physical] : "unknown physical type";
}

static bool pq_not_supported(int physical, int encoding, sqe_error *err) {
    char buf[32];
    return sqe_error_set(
        err, SQE_ERR_NOT_SUPPORTED, "encoding %s is not supported for Parquet type %s",
        sqe_pq_encoding_name(encoding, buf, sizeof buf), pq_physical_name(physical));
}

/* --------------------------------------------------------------- PLAIN */

static bool pq_plain_fixed(const uint8_t *p, size_t len, uint32_t n, size_t width, void *out,
                           sqe_error *err) {
    uint64_t need = (uint64_t)n * width;
    if (need > len)
        return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                             "PLAIN: %u values of %zu bytes need %llu bytes, the page has %zu", n,
                             width, (unsigned long long)need, len);
    memcpy(out, p, (size_t)need);
    return true;
}

static bool pq_plain_boolean(const uint8_t *p, size_t len, uint32_t n, uint8_t *out,
                             sqe_error *err) {
    uint64_t need = ((uint64_t)n + 7) / 8;
    if (need > len)
        return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                             "PLAIN: %u BOOLEAN values need %llu bytes, the page has %zu", n,
                             (unsigned long long)need, len);
    uint32_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint8_t b = p[i >> 3];
        for (int j = 0; j < 8; j++) out[i + j] = (b >> j) & 1;
    }
    for (; i < n; i++) out[i] = (p[i >> 3] >> (i & 7)) & 1;
    return true;
}

static bool pq_plain_byte_array(const uint8_t *p, size_t len, uint32_t n, sqe_pq_bytes *out,
                                sqe_error *err) {
    size_t pos = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (len - pos < 4)
            return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                                 "PLAIN: BYTE_ARRAY value %u of %u: length at byte %zu is cut off "
                                 "by the end of the page (%zu bytes)",
                                 i + 1, n, pos, len);
        uint32_t l = pq_load32(p + pos);
        pos += 4;
        if (l > len - pos)
            return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                                 "PLAIN: BYTE_ARRAY value %u of %u at byte %zu has length %u, "
                                 "only %zu bytes remain",
                                 i + 1, n, pos - 4, l, len - pos);
        out[i].ptr = p + pos;
        out[i].len = l;
        pos += l;
    }
    return true;
}

/* ------------------------------------------------------- RLE (BOOLEAN) */

static bool pq_rle_boolean(const uint8_t *p, size_t len, uint32_t n, uint8_t *out, sqe_error *err) {
    if (len < 4)
        return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                             "RLE: BOOLEAN values lack their 4-byte length (%zu bytes)", len);
    uint32_t l = pq_load32(p);
    if (l > len - 4)
        return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                             "RLE: BOOLEAN length %u exceeds the %zu bytes that follow it", l,
                             len - 4);
    sqe_pq_rle d;
    if (!sqe_pq_rle_init(&d, p + 4, l, 1, err)) return false;
    uint32_t tmp[256];
    for (uint32_t i = 0; i < n;) {
        uint32_t k = n - i < 256 ? n - i : 256;
        if (!sqe_pq_rle_get(&d, tmp, k, err)) return sqe_error_prefix(err, "RLE: BOOLEAN: ");
        for (uint32_t j = 0; j < k; j++) out[i + j] = (uint8_t)tmp[j];
        i += k;
    }
    return true;
}

/* ------------------------------------------------- DELTA_BINARY_PACKED */

/* A DELTA_BINARY_PACKED stream being decoded. Values are produced in order;
 * `left` counts those not yet produced, `buf` holds unpacked deltas of the
 * current miniblock (entries past the stream's count are padding). */
typedef struct pq_dbp {
    const uint8_t *base, *p, *end; /* p: after the current miniblock's bytes */
    uint64_t total, left;
    uint32_t block_size, n_mb, per_mb;
    bool first_pending;
    uint64_t first, last;      /* wrapping arithmetic */
    uint64_t min_delta;        /* of the current block, as uint64_t */
    const uint8_t *widths;     /* bit widths of the current block, NULL before the first */
    uint32_t mb;               /* next miniblock of the block */
    const uint8_t *mb_data;    /* unpacked-yet bytes of the current miniblock */
    int mb_width;              /* its bit width */
    uint32_t mb_left;          /* values of it not unpacked yet */
    uint32_t buf_pos, buf_len; /* deltas in buf */
    uint64_t buf[32];
} pq_dbp;

static bool pq_dbp_bad(const pq_dbp *d, const char *what, sqe_error *err) {
    return sqe_error_set(err, SQE_ERR_INVALID_DATA, "DELTA_BINARY_PACKED: %s at byte %zu", what,
                         (size_t)(d->p - d->base));
}

static bool pq_dbp_init(pq_dbp *d, const uint8_t *p, size_t len, sqe_error *err) {
    memset(d, 0, sizeof *d);
    d->base = d->p = p;
    d->end = p + len;
    uint64_t bs, nmb, total, first;
    if (!pq_uleb(&d->p, d->end, &bs) || !pq_uleb(&d->p, d->end, &nmb) ||
        !pq_uleb(&d->p, d->end, &total) || !pq_uleb(&d->p, d->end, &first))
        return pq_dbp_bad(d, "header is truncated or has a varint over 64 bits", err);
    if (bs == 0 || bs % 128 != 0 || bs > ((uint64_t)1 << 31))
        return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                             "DELTA_BINARY_PACKED: block size %llu is not a positive multiple of "
                             "128 (at most 2^31)",
                             (unsigned long long)bs);
    if (nmb == 0 || bs % nmb != 0 || (bs / nmb) % 32 != 0)
        return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                             "DELTA_BINARY_PACKED: %llu miniblocks do not divide a block of %llu "
                             "values into multiples of 32",
                             (unsigned long long)nmb, (unsigned long long)bs);
    d->block_size = (uint32_t)bs;
    d->n_mb = (uint32_t)nmb;
    d->per_mb = (uint32_t)(bs / nmb);
    d->total = d->left = total;
    d->first = (uint64_t)pq_unzigzag(first);
    d->first_pending = total > 0;
    return true;
}

/* Moves to the next miniblock (reading a block header when a block ends). */
static bool pq_dbp_next_miniblock(pq_dbp *d, sqe_error *err) {
    if (d->widths == NULL || d->mb == d->n_mb) {
        uint64_t md;
        if (!pq_uleb(&d->p, d->end, &md))
            return pq_dbp_bad(d, "block's min delta is truncated or over 64 bits", err);
        if ((size_t)(d->end - d->p) < d->n_mb)
            return pq_dbp_bad(d, "block's miniblock bit widths are cut off", err);
        d->min_delta = (uint64_t)pq_unzigzag(md);
        d->widths = d->p;
        d->p += d->n_mb;
        d->mb = 0;
    }
    int w = d->widths[d->mb];
    if (w > 64) {
        char msg[64];
        snprintf(msg, sizeof msg, "miniblock bit width %d (more than 64)", w);
        return pq_dbp_bad(d, msg, err);
    }
    uint64_t bytes = (uint64_t)d->per_mb * (uint64_t)w / 8;
    if (bytes > (uint64_t)(d->end - d->p)) {
        char msg[128];
        snprintf(msg, sizeof msg,
                 "miniblock of %u values at bit width %d needs %llu bytes, %zu left", d->per_mb, w,
                 (unsigned long long)bytes, (size_t)(d->end - d->p));
        return pq_dbp_bad(d, msg, err);
    }
    d->mb_data = d->p;
    d->mb_width = w;
    d->mb_left = d->per_mb;
    d->p += bytes;
    d->mb++;
    return true;
}

/* Produces the next k (<= d->left) values into out (uint64_t, wrapping). */
static bool pq_dbp_get(pq_dbp *d, uint64_t *out, uint32_t k, sqe_error *err) {
    uint32_t i = 0;
    if (k > 0 && d->first_pending) {
        out[i++] = d->last = d->first;
        d->first_pending = false;
        d->left--;
    }
    while (i < k) {
        if (d->buf_pos == d->buf_len) {
            if (d->mb_left == 0 && !pq_dbp_next_miniblock(d, err)) return false;
            pq_unpack32_u64(d->mb_data, d->end, d->mb_width, d->buf);
            d->mb_data += 4 * d->mb_width;
            d->mb_left -= 32;
            d->buf_pos = 0;
            d->buf_len = 32;
        }
        uint32_t m = d->buf_len - d->buf_pos;
        if (m > k - i) m = k - i;
        uint64_t last = d->last, md = d->min_delta;
        const uint64_t *b = d->buf + d->buf_pos;
        for (uint32_t j = 0; j < m; j++) out[i + j] = last = last + md + b[j];
        d->last = last;
        d->buf_pos += m;
        d->left -= m;
        i += m;
    }
    return true;
}

/* Skips the values not produced yet, leaving d->p at the end of the stream. */
static bool pq_dbp_finish(pq_dbp *d, sqe_error *err) {
    if (d->first_pending) {
        d->first_pending = false;
        d->left--;
    }
    uint64_t m = d->buf_len - d->buf_pos;
    if (m > d->left) m = d->left;
    d->left -= m;
    d->buf_pos = d->buf_len;
    while (d->left > 0) {
        if (d->mb_left == 0 && !pq_dbp_next_miniblock(d, err)) return false;
        m = d->mb_left < d->left ? d->mb_left : d->left;
        d->mb_left -= (uint32_t)m;
        d->left -= m;
    }
    return true;
}

static bool pq_dbp_count_check(const pq_dbp *d, uint32_t n, const char *what, sqe_error *err) {
    if (d->total < n)
        return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                             "%s: the page holds %llu values, %u expected", what,
                             (unsigned long long)d->total, n);
    return true;
}

static bool pq_delta_binary(const uint8_t *p, size_t len, uint32_t n, bool is64, void *out,
                            sqe_error *err) {
    pq_dbp d;
    if (!pq_dbp_init(&d, p, len, err)) return false;
    if (!pq_dbp_count_check(&d, n, "DELTA_BINARY_PACKED", err)) return false;
    uint64_t tmp[256];
    for (uint32_t i = 0; i < n;) {
        uint32_t k = n - i < 256 ? n - i : 256;
        if (is64) {
            if (!pq_dbp_get(&d, (uint64_t *)out + i, k, err)) return false;
        } else {
            if (!pq_dbp_get(&d, tmp, k, err)) return false;
            uint32_t *o = (uint32_t *)out + i;
            for (uint32_t j = 0; j < k; j++) o[j] = (uint32_t)tmp[j];
        }
        i += k;
    }
    return true;
}

/* Decodes n lengths of a delta-encoded length stream (INT32 values that
 * must be non-negative) into lens[0], lens[stride], ... (stride in bytes,
 * so the lengths may be fields of a struct array), skips the rest of the
 * stream, and sets *data to the first byte after it. */
static bool pq_delta_lengths(const uint8_t *p, size_t len, uint32_t n, const char *what,
                             uint32_t *lens, size_t stride, const uint8_t **data, sqe_error *err) {
    pq_dbp d;
    if (!pq_dbp_init(&d, p, len, err) || !pq_dbp_count_check(&d, n, "DELTA_BINARY_PACKED", err))
        return sqe_error_prefix(err, "%s lengths: ", what);
    uint64_t tmp[256];
    for (uint32_t i = 0; i < n;) {
        uint32_t k = n - i < 256 ? n - i : 256;
        if (!pq_dbp_get(&d, tmp, k, err)) return sqe_error_prefix(err, "%s lengths: ", what);
        for (uint32_t j = 0; j < k; j++) {
            int32_t l = (int32_t)(uint32_t)tmp[j];
            if (l < 0)
                return sqe_error_set(err, SQE_ERR_INVALID_DATA, "%s: value %u has length %d", what,
                                     i + j + 1, l);
            *(uint32_t *)(void *)((char *)lens + (size_t)(i + j) * stride) = (uint32_t)l;
        }
        i += k;
    }
    if (!pq_dbp_finish(&d, err)) return sqe_error_prefix(err, "%s lengths: ", what);
    *data = d.p;
    return true;
}

/* --------------------------------------------------- byte array deltas */

static bool pq_check_flba(int physical, int32_t type_length, const sqe_pq_bytes *out, uint32_t n,
                          const char *what, sqe_error *err) {
    if (physical != SQE_PQ_FIXED_LEN_BYTE_ARRAY) return true;
    for (uint32_t i = 0; i < n; i++)
        if (out[i].len != (uint32_t)type_length)
            return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                                 "%s: FIXED_LEN_BYTE_ARRAY(%d) value %u has %u bytes", what,
                                 type_length, i + 1, out[i].len);
    return true;
}

/* DELTA_LENGTH_BYTE_ARRAY from [p, p+len): lengths land in out[i].len first,
 * then the pointers into the data; *after gets the end of the data used. */
static bool pq_delta_length_ba(const uint8_t *p, size_t len, uint32_t n, const char *what,
                               sqe_pq_bytes *out, const uint8_t **after, sqe_error *err) {
    const uint8_t *data, *end = p + len;
    if (!pq_delta_lengths(p, len, n, what, &out[0].len, sizeof *out, &data, err)) return false;
    for (uint32_t i = 0; i < n; i++) {
        if (out[i].len > (size_t)(end - data))
            return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                                 "%s: value %u of %u has length %u, only %zu bytes remain at byte "
                                 "%zu",
                                 what, i + 1, n, out[i].len, (size_t)(end - data),
                                 (size_t)(data - p));
        out[i].ptr = data;
        data += out[i].len;
    }
    *after = data;
    return true;
}

/* DELTA_BYTE_ARRAY: prefix lengths, then suffixes as DELTA_LENGTH_BYTE_ARRAY.
 * Value i = first prefix[i] bytes of value i-1, then suffix i. */
static bool pq_delta_ba(const uint8_t *p, size_t len, uint32_t n, sqe_pq_bytes *out,
                        sqe_arena *scratch, sqe_error *err) {
    static const char what[] = "DELTA_BYTE_ARRAY";
    if (!scratch)
        return sqe_error_set(err, SQE_ERR_INTERNAL, "DELTA_BYTE_ARRAY needs a scratch arena");
    uint32_t *prefix = sqe_arena_alloc(scratch, (size_t)n * sizeof *prefix);
    const uint8_t *suffixes, *after;
    if (!pq_delta_lengths(p, len, n, "DELTA_BYTE_ARRAY prefix", prefix, sizeof *prefix, &suffixes,
                          err))
        return false;
    if (!pq_delta_length_ba(suffixes, (size_t)(p + len - suffixes), n, "DELTA_BYTE_ARRAY suffix",
                            out, &after, err))
        return false;
    /* Bytes to copy: values with a suffix are rebuilt; the others point
     * into their predecessor. Checked against the previous length first. */
    uint64_t total = 0, prev_len = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (prefix[i] > prev_len)
            return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                                 "%s: value %u has prefix length %u, longer than the previous "
                                 "value (%llu bytes)",
                                 what, i + 1, prefix[i], (unsigned long long)prev_len);
        prev_len = (uint64_t)prefix[i] + out[i].len;
        if (out[i].len > 0) total += prev_len;
        if (total > SQE_PQ_MAX_PAGE || prev_len > SQE_PQ_MAX_PAGE)
            return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                                 "%s: values expand to more than %u bytes (value %u)", what,
                                 (unsigned)SQE_PQ_MAX_PAGE, i + 1);
    }
    uint8_t *mem = total ? sqe_arena_alloc(scratch, (size_t)total) : NULL;
    const uint8_t *prev = NULL;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t pl = prefix[i], sl = out[i].len;
        if (sl == 0) {
            out[i].ptr = pl ? prev : out[i].ptr;
            out[i].len = pl;
        } else {
            if (pl) memcpy(mem, prev, pl);
            memcpy(mem + pl, out[i].ptr, sl);
            out[i].ptr = mem;
            out[i].len = pl + sl;
            mem += pl + sl;
        }
        prev = out[i].ptr;
    }
    return true;
}

/* ---------------------------------------------------- BYTE_STREAM_SPLIT */

static bool pq_byte_stream_split(const uint8_t *p, size_t len, uint32_t n, size_t k, uint8_t *out,
                                 sqe_error *err) {
    if (len % k != 0 || len / k < n)
        return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                             "BYTE_STREAM_SPLIT: %zu bytes are not %u values of %zu bytes", len, n,
                             k);
    size_t stride = len / k;
    if (k == 4) {
        for (uint32_t i = 0; i < n; i++) {
            out[4 * i] = p[i];
            out[4 * i + 1] = p[stride + i];
            out[4 * i + 2] = p[2 * stride + i];
            out[4 * i + 3] = p[3 * stride + i];
        }
        return true;
    }
    for (size_t s = 0; s < k; s++) {
        const uint8_t *in = p + s * stride;
        for (uint32_t i = 0; i < n; i++) out[(size_t)i * k + s] = in[i];
    }
    return true;
}

/* ------------------------------------------------------------ dispatch */

bool sqe_pq_decode_values(int physical, int32_t type_length, int encoding, const uint8_t *p,
                          size_t len, uint32_t n, void *out_fixed, sqe_pq_bytes *out_bytes,
                          sqe_arena *scratch, sqe_error *err) {
    size_t width = sqe_pq_value_width(physical, type_length);
    if (physical < SQE_PQ_BOOLEAN || physical > SQE_PQ_FIXED_LEN_BYTE_ARRAY)
        return sqe_error_set(err, SQE_ERR_INVALID_DATA, "unknown Parquet physical type %d",
                             physical);
    if (physical == SQE_PQ_FIXED_LEN_BYTE_ARRAY && type_length <= 0)
        return sqe_error_set(err, SQE_ERR_INVALID_DATA, "FIXED_LEN_BYTE_ARRAY with type length %d",
                             type_length);
    if (n == 0) return true;
    if (p == NULL) len = 0;
    const uint8_t empty = 0;
    if (p == NULL) p = &empty;
    switch (encoding) {
    case SQE_PQ_PLAIN:
        if (physical == SQE_PQ_BOOLEAN) return pq_plain_boolean(p, len, n, out_fixed, err);
        if (physical == SQE_PQ_BYTE_ARRAY) return pq_plain_byte_array(p, len, n, out_bytes, err);
        return pq_plain_fixed(p, len, n, width, out_fixed, err);
    case SQE_PQ_RLE:
        if (physical != SQE_PQ_BOOLEAN) break;
        return pq_rle_boolean(p, len, n, out_fixed, err);
    case SQE_PQ_DELTA_BINARY_PACKED:
        if (physical != SQE_PQ_INT32 && physical != SQE_PQ_INT64) break;
        return pq_delta_binary(p, len, n, physical == SQE_PQ_INT64, out_fixed, err);
    case SQE_PQ_DELTA_LENGTH_BYTE_ARRAY: {
        if (physical != SQE_PQ_BYTE_ARRAY && physical != SQE_PQ_FIXED_LEN_BYTE_ARRAY) break;
        const uint8_t *after;
        return pq_delta_length_ba(p, len, n, "DELTA_LENGTH_BYTE_ARRAY", out_bytes, &after, err) &&
               pq_check_flba(physical, type_length, out_bytes, n, "DELTA_LENGTH_BYTE_ARRAY", err);
    }
    case SQE_PQ_DELTA_BYTE_ARRAY:
        if (physical != SQE_PQ_BYTE_ARRAY && physical != SQE_PQ_FIXED_LEN_BYTE_ARRAY) break;
        return pq_delta_ba(p, len, n, out_bytes, scratch, err) &&
               pq_check_flba(physical, type_length, out_bytes, n, "DELTA_BYTE_ARRAY", err);
    case SQE_PQ_BYTE_STREAM_SPLIT:
        if (physical == SQE_PQ_BOOLEAN || physical == SQE_PQ_INT96 || physical == SQE_PQ_BYTE_ARRAY)
            break;
        return pq_byte_stream_split(p, len, n, width, out_fixed, err);
    default:
        break;
    }
    return pq_not_supported(physical, encoding, err);
}
