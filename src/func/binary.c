/*
 * binary.c - VARBINARY functions: to_hex / from_hex, to_utf8 / from_utf8,
 * to_base64 / from_base64 (+ the URL-safe variants), length, and the
 * hashes md5, sha1, sha256, sha512 (OpenSSL's libcrypto, EVP_Digest),
 * xxhash64 (written here from the XXH64 specification, seed 0, the
 * 8-byte result big-endian as Trino returns it) and crc32 (zlib).
 *
 * As in Trino the hashes take and return VARBINARY: md5(to_utf8('abc')),
 * and to_hex(md5(...)) for the familiar hex text. VARCHAR does not
 * convert to VARBINARY implicitly (Trino neither), so md5('abc') is a
 * type error listing md5(varbinary).
 *
 * Decoding (from_hex, from_base64*) fails with INVALID_ARGUMENT naming the
 * function and the value. from_utf8 replaces each invalid byte sequence by
 * U+FFFD, or by the given replacement string / code point.
 */
#include "func/func_int.h"

#include <openssl/evp.h>
#include <zlib.h>

#define BIN_RESULT_MAX ((size_t)1 << 28)

/* Stores a built result, refusing oversized ones. */
static bool bin_set(sqe_vector *out, uint32_t row, const void *p, size_t n, const char *fn,
                    sqe_error *err) {
    if (n > BIN_RESULT_MAX)
        return sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED, "%s result exceeds %zu bytes", fn,
                             BIN_RESULT_MAX);
    if (!sqe_vector_set_string(out, row, p, n)) return sqe_func_mem_error(out, fn, err);
    return true;
}

static const char bin_hex_digits[] = "0123456789ABCDEF";

static int bin_hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* ------------------------------------------------------------------ hex */

static bool hex_encode(const char *p, size_t n, sqe_strbuf *sb, const char *fn, sqe_error *err) {
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        sqe_strbuf_putc(sb, bin_hex_digits[c >> 4]);
        sqe_strbuf_putc(sb, bin_hex_digits[c & 15]);
    }
    return true;
}

static bool hex_decode(const char *p, size_t n, sqe_strbuf *sb, const char *fn, sqe_error *err) {
    if (n % 2)
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                             "%s: invalid input length %zu (hex needs an even number of digits)",
                             fn, n);
    for (size_t i = 0; i < n; i += 2) {
        int hi = bin_hexval(p[i]), lo = bin_hexval(p[i + 1]);
        if (hi < 0 || lo < 0)
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "%s: invalid hex digit in '%.*s' at offset %zu", fn,
                                 (int)SQE_MIN(n, 100), p, hi < 0 ? i : i + 1);
        sqe_strbuf_putc(sb, (char)(hi << 4 | lo));
    }
    return true;
}

/* --------------------------------------------------------------- base64 */

static const char b64_std[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const char b64_url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

static void b64_encode(const char *p, size_t n, sqe_strbuf *sb, const char *alpha) {
    const unsigned char *s = (const unsigned char *)p;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)s[i] << 16;
        if (i + 1 < n) v |= (uint32_t)s[i + 1] << 8;
        if (i + 2 < n) v |= s[i + 2];
        sqe_strbuf_putc(sb, alpha[v >> 18 & 63]);
        sqe_strbuf_putc(sb, alpha[v >> 12 & 63]);
        sqe_strbuf_putc(sb, i + 1 < n ? alpha[v >> 6 & 63] : '=');
        sqe_strbuf_putc(sb, i + 2 < n ? alpha[v & 63] : '=');
    }
}

static bool b64_std_enc(const char *p, size_t n, sqe_strbuf *sb, const char *fn, sqe_error *e) {
    b64_encode(p, n, sb, b64_std);
    return true;
}
static bool b64_url_enc(const char *p, size_t n, sqe_strbuf *sb, const char *fn, sqe_error *e) {
    b64_encode(p, n, sb, b64_url);
    return true;
}

static bool b64_decode(const char *p, size_t n, sqe_strbuf *sb, const char *alpha, const char *fn,
                       sqe_error *err) {
    uint32_t acc = 0;
    int bits = 0;
    size_t pad = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '=') {
            pad++;
            continue;
        }
        const char *hit = p[i] ? memchr(alpha, p[i], 64) : NULL;
        if (!hit || pad)
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "%s: invalid base64 character at offset %zu in '%.*s'", fn, i,
                                 (int)SQE_MIN(n, 100), p);
        acc = acc << 6 | (uint32_t)(hit - alpha);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            sqe_strbuf_putc(sb, (char)(acc >> bits & 0xFF));
        }
    }
    if (pad > 2 || bits >= 6)
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT, "%s: truncated base64 input '%.*s'", fn,
                             (int)SQE_MIN(n, 100), p);
    return true;
}

static bool b64_std_dec(const char *p, size_t n, sqe_strbuf *sb, const char *fn, sqe_error *e) {
    return b64_decode(p, n, sb, b64_std, fn, e);
}
static bool b64_url_dec(const char *p, size_t n, sqe_strbuf *sb, const char *fn, sqe_error *e) {
    return b64_decode(p, n, sb, b64_url, fn, e);
}

/* ----------------------------------------------------------------- utf8 */

static bool same_bytes(const char *p, size_t n, sqe_strbuf *sb, const char *fn, sqe_error *e) {
    sqe_strbuf_append(sb, p, n);
    return true;
}

/* Length of the valid UTF-8 sequence at p (0 when invalid). */
static int utf8_valid_len(const unsigned char *p, size_t n) {
    int l = p[0] < 0x80   ? 1
            : p[0] < 0xC2 ? 0
            : p[0] < 0xE0 ? 2
            : p[0] < 0xF0 ? 3
            : p[0] < 0xF5 ? 4
                          : 0;
    if (l == 0 || (size_t)l > n) return 0;
    for (int i = 1; i < l; i++)
        if ((p[i] & 0xC0) != 0x80) return 0;
    if (l == 3 && ((p[0] == 0xE0 && p[1] < 0xA0) || (p[0] == 0xED && p[1] >= 0xA0))) return 0;
    if (l == 4 && ((p[0] == 0xF0 && p[1] < 0x90) || (p[0] == 0xF4 && p[1] >= 0x90))) return 0;
    return l;
}

/* from_utf8: invalid sequences become `rep`. */
static void utf8_fix(const char *p, size_t n, sqe_strbuf *sb, const char *rep, size_t rn) {
    const unsigned char *s = (const unsigned char *)p;
    for (size_t i = 0; i < n;) {
        int l = utf8_valid_len(s + i, n - i);
        if (l) {
            sqe_strbuf_append(sb, p + i, (size_t)l);
            i += (size_t)l;
            continue;
        }
        sqe_strbuf_append(sb, rep, rn);
        i++;
        while (i < n && (s[i] & 0xC0) == 0x80 && !utf8_valid_len(s + i, n - i)) i++;
    }
}

/* ------------------------------------------------- one-argument kernels */

bool sqe_func_codec_kernel(const sqe_func_binding *b, sqe_vector *const *args, const uint16_t *sel,
                           uint32_t n, sqe_vector *out, sqe_func_str_codec codec, sqe_error *err) {
    bool nulls = sqe_func_propagate_nulls(args, 1, sel, n, out);
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    bool ok = true;
    SQE_FOR_ROWS(sel, n, row, {
        if (!ok) break;
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t len;
        const char *p = sqe_func_str(args[0], row, &len);
        sqe_strbuf_clear(&sb);
        ok = codec(p, len, &sb, b->name, err) &&
             bin_set(out, row, sb.data ? sb.data : "", sb.len, b->name, err);
    });
    sqe_strbuf_free(&sb);
    return ok;
}

static SQE_KERNEL(to_hex_kernel) {
    return sqe_func_codec_kernel(b, args, sel, n, out, hex_encode, err);
}
static SQE_KERNEL(from_hex_kernel) {
    return sqe_func_codec_kernel(b, args, sel, n, out, hex_decode, err);
}
static SQE_KERNEL(to_b64_kernel) {
    return sqe_func_codec_kernel(b, args, sel, n, out, b64_std_enc, err);
}
static SQE_KERNEL(from_b64_kernel) {
    return sqe_func_codec_kernel(b, args, sel, n, out, b64_std_dec, err);
}
static SQE_KERNEL(to_b64url_kernel) {
    return sqe_func_codec_kernel(b, args, sel, n, out, b64_url_enc, err);
}
static SQE_KERNEL(from_b64url_kernel) {
    return sqe_func_codec_kernel(b, args, sel, n, out, b64_url_dec, err);
}
static SQE_KERNEL(same_kernel) {
    return sqe_func_codec_kernel(b, args, sel, n, out, same_bytes, err);
}

/* UTF-8 of code point c into out (4 bytes); its length. */
static uint32_t bin_encode_cp(uint32_t c, char *out) {
    if (c < 0x80) {
        out[0] = (char)c;
        return 1;
    }
    if (c < 0x800) {
        out[0] = (char)(0xC0 | c >> 6);
        out[1] = (char)(0x80 | (c & 63));
        return 2;
    }
    if (c < 0x10000) {
        out[0] = (char)(0xE0 | c >> 12);
        out[1] = (char)(0x80 | (c >> 6 & 63));
        out[2] = (char)(0x80 | (c & 63));
        return 3;
    }
    out[0] = (char)(0xF0 | c >> 18);
    out[1] = (char)(0x80 | (c >> 12 & 63));
    out[2] = (char)(0x80 | (c >> 6 & 63));
    out[3] = (char)(0x80 | (c & 63));
    return 4;
}

/* from_utf8(b [, replace]): replace is a string or a code point. */
static SQE_KERNEL(from_utf8_kernel) {
    bool nulls = sqe_func_propagate_nulls(args, b->n_args, sel, n, out);
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    bool ok = true;
    SQE_FOR_ROWS(sel, n, row, {
        if (!ok) break;
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t len, rn = 3;
        const char *p = sqe_func_str(args[0], row, &len);
        const char *rep = "\xEF\xBF\xBD";
        char cpbuf[4];
        if (b->n_args > 1 && args[1]->type.id == SQE_T_BIGINT) {
            int64_t cp = SQE_VEC_DATA(args[1], int64_t)[row];
            if (cp < 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                ok = sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                   "from_utf8: invalid replacement code point %lld", (long long)cp);
                break;
            }
            rn = bin_encode_cp((uint32_t)cp, cpbuf);
            rep = cpbuf;
        } else if (b->n_args > 1) {
            rep = sqe_func_str(args[1], row, &rn);
        }
        sqe_strbuf_clear(&sb);
        utf8_fix(p, len, &sb, rep, rn);
        ok = bin_set(out, row, sb.data ? sb.data : "", sb.len, b->name, err);
    });
    sqe_strbuf_free(&sb);
    return ok;
}

static SQE_KERNEL(bin_length_kernel) {
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    sqe_func_propagate_nulls(args, 1, sel, n, out);
    const sqe_string *s = SQE_VEC_DATA(args[0], sqe_string);
    SQE_FOR_ROWS(sel, n, row, { o[row] = s[row].len; });
    return true;
}

/* --------------------------------------------------------------- hashes */

static bool digest_kernel(const sqe_func_binding *b, sqe_vector *const *args, const uint16_t *sel,
                          uint32_t n, sqe_vector *out, const EVP_MD *md, sqe_error *err) {
    bool nulls = sqe_func_propagate_nulls(args, 1, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t len;
        const char *p = sqe_func_str(args[0], row, &len);
        unsigned char h[EVP_MAX_MD_SIZE];
        unsigned int hl = 0;
        if (!EVP_Digest(p, len, h, &hl, md, NULL))
            return sqe_error_set(err, SQE_ERR_INTERNAL, "%s: OpenSSL digest failed", b->name);
        if (!bin_set(out, row, h, hl, b->name, err)) return false;
    });
    return true;
}

static SQE_KERNEL(md5_kernel) {
    return digest_kernel(b, args, sel, n, out, EVP_md5(), err);
}
static SQE_KERNEL(sha1_kernel) {
    return digest_kernel(b, args, sel, n, out, EVP_sha1(), err);
}
static SQE_KERNEL(sha256_kernel) {
    return digest_kernel(b, args, sel, n, out, EVP_sha256(), err);
}
static SQE_KERNEL(sha512_kernel) {
    return digest_kernel(b, args, sel, n, out, EVP_sha512(), err);
}

/* XXH64 (seed 0), from the xxHash specification. */
#define XP1 11400714785074694791ULL
#define XP2 14029467366897019727ULL
#define XP3 1609587929392839161ULL
#define XP4 9650029242287828579ULL
#define XP5 2870177450012600261ULL

static inline uint64_t xx_rotl(uint64_t x, int r) {
    return (x << r) | (x >> (64 - r));
}
static inline uint64_t xx_read64(const unsigned char *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v; /* little-endian host (x86-64, arm64) */
}
static inline uint32_t xx_read32(const unsigned char *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}
static inline uint64_t xx_round(uint64_t acc, uint64_t lane) {
    return xx_rotl(acc + lane * XP2, 31) * XP1;
}
static inline uint64_t xx_merge(uint64_t acc, uint64_t v) {
    return (acc ^ xx_round(0, v)) * XP1 + XP4;
}

static uint64_t xxh64(const unsigned char *p, size_t n) {
    const unsigned char *end = p + n;
    uint64_t h;
    if (n >= 32) {
        uint64_t v1 = XP1 + XP2, v2 = XP2, v3 = 0, v4 = 0 - XP1;
        for (; end - p >= 32; p += 32) {
            v1 = xx_round(v1, xx_read64(p));
            v2 = xx_round(v2, xx_read64(p + 8));
            v3 = xx_round(v3, xx_read64(p + 16));
            v4 = xx_round(v4, xx_read64(p + 24));
        }
        h = xx_rotl(v1, 1) + xx_rotl(v2, 7) + xx_rotl(v3, 12) + xx_rotl(v4, 18);
        h = xx_merge(xx_merge(xx_merge(xx_merge(h, v1), v2), v3), v4);
    } else {
        h = XP5;
    }
    h += n;
    for (; end - p >= 8; p += 8) h = xx_rotl(h ^ xx_round(0, xx_read64(p)), 27) * XP1 + XP4;
    if (end - p >= 4) {
        h = xx_rotl(h ^ (uint64_t)xx_read32(p) * XP1, 23) * XP2 + XP3;
        p += 4;
    }
    for (; p < end; p++) h = xx_rotl(h ^ *p * XP5, 11) * XP1;
    h ^= h >> 33;
    h *= XP2;
    h ^= h >> 29;
    h *= XP3;
    h ^= h >> 32;
    return h;
}

static SQE_KERNEL(xxhash64_kernel) {
    bool nulls = sqe_func_propagate_nulls(args, 1, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t len;
        const char *p = sqe_func_str(args[0], row, &len);
        uint64_t h = xxh64((const unsigned char *)p, len);
        unsigned char be[8];
        for (int i = 0; i < 8; i++) be[i] = (unsigned char)(h >> (56 - 8 * i));
        if (!bin_set(out, row, be, 8, b->name, err)) return false;
    });
    return true;
}

static SQE_KERNEL(crc32_kernel) {
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    bool nulls = sqe_func_propagate_nulls(args, 1, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t len;
        const char *p = sqe_func_str(args[0], row, &len);
        o[row] = (int64_t)crc32(0L, (const Bytef *)p, len);
    });
    return true;
}

#define VB SQE_T_VARBINARY
#define V SQE_T_VARCHAR

static const sqe_func_sig k_sigs[] = {
    {"to_hex", 1, false, {VB}, V, to_hex_kernel, NULL},
    {"from_hex", 1, false, {V}, VB, from_hex_kernel, NULL},
    {"to_utf8", 1, false, {V}, VB, same_kernel, NULL},
    {"from_utf8", 1, false, {VB}, V, from_utf8_kernel, NULL},
    {"from_utf8", 2, false, {VB, SQE_T_BIGINT}, V, from_utf8_kernel, NULL},
    {"from_utf8", 2, false, {VB, V}, V, from_utf8_kernel, NULL},
    {"to_base64", 1, false, {VB}, V, to_b64_kernel, NULL},
    {"from_base64", 1, false, {V}, VB, from_b64_kernel, NULL},
    {"to_base64url", 1, false, {VB}, V, to_b64url_kernel, NULL},
    {"from_base64url", 1, false, {V}, VB, from_b64url_kernel, NULL},
    {"length", 1, false, {VB}, SQE_T_BIGINT, bin_length_kernel, NULL},
    {"md5", 1, false, {VB}, VB, md5_kernel, NULL},
    {"sha1", 1, false, {VB}, VB, sha1_kernel, NULL},
    {"sha256", 1, false, {VB}, VB, sha256_kernel, NULL},
    {"sha512", 1, false, {VB}, VB, sha512_kernel, NULL},
    {"xxhash64", 1, false, {VB}, VB, xxhash64_kernel, NULL},
    {"crc32", 1, false, {VB}, SQE_T_BIGINT, crc32_kernel, NULL},
};

SQE_FUNC_TABLE(sqe_func_binary_table, k_sigs);
