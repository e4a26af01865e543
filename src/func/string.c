/*
 * string.c - VARCHAR functions: || and concat, lower/upper, length,
 * substr/substring, trim/ltrim/rtrim, replace, strpos, starts_with,
 * reverse, lpad/rpad, split_part, and LIKE / ILIKE.
 *
 * Positions and lengths count UTF-8 code points, as Trino does (a string
 * is treated as UTF-8 without validation: a stray byte counts as one
 * character). Results are built straight into the output vector: inline
 * (<= 12 bytes) in the view itself, longer ones in the vector's heap.
 *
 * LIKE. A constant pattern (and escape) is compiled at bind time into
 * b->data:
 *   - no '_': the pattern is literal segments separated by '%'. One
 *     segment gives EXACT ('abc'), PREFIX ('abc%'), SUFFIX ('%abc') or
 *     CONTAINS ('%abc%', memmem); more give SEGMENTS (anchored first/last
 *     segment, the middle ones found left to right with memmem, which is
 *     exact for '%'-only patterns); only '%' gives ANY.
 *   - with '_': GENERAL, an iterative matcher with one backtrack point
 *     whose '_' and '%' step over whole UTF-8 characters.
 * A pattern that is not constant runs GENERAL per row. ILIKE folds ASCII
 * case: the compiled segments are lower-cased once, each row into a
 * scratch buffer. An escape must be one ASCII character and may only be
 * followed by '%', '_' or itself; a bad constant pattern fails at bind
 * time, a bad per-row pattern when it is met.
 *
 * lower/upper map ASCII, Latin-1, Latin Extended-A and the paired letters
 * of Latin Extended-B, Greek (with tonos and the archaic pairs), Cyrillic
 * and the Cyrillic Supplement (every mapping there keeps the UTF-8
 * length); other characters are kept.
 */
#include "func/func_int.h"

#include <ctype.h>
#include <stdio.h>

/* memmem, with a one-byte needle through memchr (the common split/replace
 * case, and sanitizer runtimes check memmem's whole haystack per call,
 * which made a search loop over a long string quadratic). */
static inline const char *str_find(const char *h, size_t hn, const char *nd, size_t nn) {
    if (nn == 1) return memchr(h, nd[0], hn);
    return memmem(h, hn, nd, nn);
}

#define MAX_RESULT_BYTES ((size_t)1 << 28) /* one built string, e.g. lpad */

/* ------------------------------------------------------------- concat */

static SQE_KERNEL(concat_kernel) {
    int na = b->n_args;
    bool nulls = sqe_func_propagate_nulls(args, na, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        size_t total = 0;
        for (int a = 0; a < na; a++) total += SQE_VEC_DATA(args[a], sqe_string)[row].len;
        if (total > UINT32_MAX)
            return sqe_error_set(err, SQE_ERR_OUT_OF_RANGE, "concatenation result exceeds 4 GiB");
        char small[16];
        char *dst = sqe_func_str_begin(out, total, small), *w = dst;
        if (!dst) return sqe_func_mem_error(out, b->name, err);
        for (int a = 0; a < na; a++) {
            uint32_t len;
            const char *p = sqe_func_str(args[a], row, &len);
            if (len) memcpy(w, p, len);
            w += len;
        }
        sqe_func_str_finish(out, row, dst, total);
    });
    return true;
}

/* ------------------------------------------------------- lower / upper */

/* Blocks where upper and lower case alternate (Latin Extended-B, Greek
 * archaic letters, Cyrillic supplement): even upper, odd lower, except
 * the odd-upper runs listed in k_odd_upper. */
static const uint32_t k_even_upper[][2] = {
    {0x1DE, 0x1EF}, {0x1F8, 0x21F}, {0x222, 0x233}, {0x246, 0x24F},
    {0x3D8, 0x3EF}, {0x460, 0x481}, {0x48A, 0x4BF}, {0x4D0, 0x52F},
};
static const uint32_t k_odd_upper[][2] = {{0x1CD, 0x1DC}, {0x4C1, 0x4CE}};

static int case_pair_kind(uint32_t c) {
    for (size_t i = 0; i < SQE_ARRAY_LEN(k_even_upper); i++)
        if (c >= k_even_upper[i][0] && c <= k_even_upper[i][1]) return 1;
    for (size_t i = 0; i < SQE_ARRAY_LEN(k_odd_upper); i++)
        if (c >= k_odd_upper[i][0] && c <= k_odd_upper[i][1]) return 2;
    return 0;
}

static uint32_t cp_lower_pairs(uint32_t c) {
    if (c == 0x4C0) return 0x4CF;
    int k = case_pair_kind(c);
    if (k == 1) return c | 1;
    if (k == 2) return (c & 1) ? c + 1 : c;
    return c;
}

static uint32_t cp_upper_pairs(uint32_t c) {
    if (c == 0x4CF) return 0x4C0;
    int k = case_pair_kind(c);
    if (k == 1) return c & ~1u;
    if (k == 2) return (c & 1) ? c : c - 1;
    return c;
}

static uint32_t cp_lower(uint32_t c) {
    if (c < 0x80) return c >= 'A' && c <= 'Z' ? c + 32 : c;
    if (c >= 0xC0 && c <= 0xDE && c != 0xD7) return c + 32;
    if ((c >= 0x100 && c <= 0x12F) || (c >= 0x132 && c <= 0x137) || (c >= 0x14A && c <= 0x177))
        return c | 1;
    if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) return (c & 1) ? c + 1 : c;
    if (c == 0x178) return 0xFF;
    if (c >= 0x391 && c <= 0x3AB && c != 0x3A2) return c + 32;
    if (c == 0x386) return 0x3AC;
    if (c >= 0x388 && c <= 0x38A) return c + 37;
    if (c == 0x38C) return 0x3CC;
    if (c == 0x38E || c == 0x38F) return c + 63;
    if (c >= 0x410 && c <= 0x42F) return c + 32;
    if (c >= 0x400 && c <= 0x40F) return c + 80;
    return cp_lower_pairs(c);
}

static uint32_t cp_upper(uint32_t c) {
    if (c < 0x80) return c >= 'a' && c <= 'z' ? c - 32 : c;
    if (c >= 0xE0 && c <= 0xFE && c != 0xF7) return c - 32;
    if (c == 0xFF) return 0x178;
    if (c == 0xB5) return 0x39C;
    if ((c >= 0x100 && c <= 0x12F) || (c >= 0x132 && c <= 0x137) || (c >= 0x14A && c <= 0x177))
        return c & ~1u;
    if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) return (c & 1) ? c : c - 1;
    if (c >= 0x3B1 && c <= 0x3CB && c != 0x3C2) return c - 32;
    if (c == 0x3C2) return 0x3A3; /* final sigma */
    if (c == 0x3AC) return 0x386;
    if (c >= 0x3AD && c <= 0x3AF) return c - 37;
    if (c == 0x3CC) return 0x38C;
    if (c == 0x3CD || c == 0x3CE) return c - 63;
    if (c >= 0x430 && c <= 0x44F) return c - 32;
    if (c >= 0x450 && c <= 0x45F) return c - 80;
    return cp_upper_pairs(c);
}

/* Maps src[0..n) into dst (same length). */
static void map_case(const char *src, size_t n, char *dst, bool upper) {
    size_t i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)src[i];
        if (c < 0x80) {
            dst[i] = (char)(upper ? (c >= 'a' && c <= 'z' ? c - 32 : c)
                                  : (c >= 'A' && c <= 'Z' ? c + 32 : c));
            i++;
            continue;
        }
        int len;
        uint32_t cp = sqe_utf8_decode(src + i, n - i, &len);
        uint32_t m = upper ? cp_upper(cp) : cp_lower(cp);
        if (len == 2 && m != cp && m >= 0x80 && m < 0x800) {
            dst[i] = (char)(0xC0 | (m >> 6));
            dst[i + 1] = (char)(0x80 | (m & 0x3F));
        } else {
            memcpy(dst + i, src + i, (size_t)len);
        }
        i += (size_t)len;
    }
}

static bool case_kernel(const sqe_func_binding *b, sqe_vector *const *args, const uint16_t *sel,
                        uint32_t n, sqe_vector *out, bool upper, sqe_error *err) {
    bool nulls = sqe_func_propagate_nulls(args, 1, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t len;
        const char *p = sqe_func_str(args[0], row, &len);
        char small[16];
        char *dst = sqe_func_str_begin(out, len, small);
        if (!dst) return sqe_func_mem_error(out, b->name, err);
        map_case(p, len, dst, upper);
        sqe_func_str_finish(out, row, dst, len);
    });
    return true;
}

static SQE_KERNEL(lower_kernel) {
    return case_kernel(b, args, sel, n, out, false, err);
}
static SQE_KERNEL(upper_kernel) {
    return case_kernel(b, args, sel, n, out, true, err);
}

/* ------------------------------------------------------------- length */

static SQE_KERNEL(length_kernel) {
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    bool nulls = sqe_func_propagate_nulls(args, 1, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t len;
        const char *p = sqe_func_str(args[0], row, &len);
        o[row] = (int64_t)sqe_utf8_count(p, len);
    });
    return true;
}

/* ------------------------------------------------------------- substr */

/* Trino's substr on code points; the byte slice goes to off and len. */
static void substr_slice(const char *p, size_t n, int64_t start, int64_t count, size_t *off,
                         size_t *len) {
    *off = 0;
    *len = 0;
    if (start == 0 || count <= 0 || n == 0) return;
    if (start < 0) {
        int64_t total = (int64_t)sqe_utf8_count(p, n);
        start += total;
        if (start < 0) return;
    } else {
        start -= 1;
    }
    size_t from = sqe_utf8_offset(p, n, (size_t)start);
    if (from >= n) return;
    size_t to = from + sqe_utf8_offset(p + from, n - from, (size_t)SQE_MIN(count, (int64_t)n));
    *off = from;
    *len = to - from;
}

static SQE_KERNEL(substr_kernel) {
    const int64_t *st = SQE_VEC_DATA(args[1], int64_t);
    const int64_t *ln = b->n_args > 2 ? SQE_VEC_DATA(args[2], int64_t) : NULL;
    bool nulls = sqe_func_propagate_nulls(args, b->n_args, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t len;
        const char *p = sqe_func_str(args[0], row, &len);
        size_t off, cnt;
        substr_slice(p, len, st[row], ln ? ln[row] : INT64_MAX, &off, &cnt);
        if (!sqe_vector_set_string(out, row, p + off, cnt))
            return sqe_func_mem_error(out, b->name, err);
    });
    return true;
}

/* --------------------------------------------------------------- trim */

/* Java's Character.isWhitespace for ASCII (what Trino's trim removes). */
static inline bool is_ws(unsigned char c) {
    return c == ' ' || (c >= 9 && c <= 13) || (c >= 28 && c <= 31);
}

/* Whether the code point at p[0..n) is one of the code points of set. */
static bool in_set(const char *p, int len, const char *set, size_t set_len) {
    size_t i = 0;
    while (i < set_len) {
        int l = sqe_utf8_len((unsigned char)set[i]);
        if (l == len && i + (size_t)l <= set_len && memcmp(set + i, p, (size_t)len) == 0)
            return true;
        i += (size_t)l;
    }
    return false;
}

/* Length of the last UTF-8 character ending at p[n-1]. */
static size_t last_char_len(const char *p, size_t n) {
    size_t k = 1;
    while (k < n && k < 4 && ((unsigned char)p[n - k] & 0xC0) == 0x80) k++;
    return k;
}

static bool trim_kernel(const sqe_func_binding *b, sqe_vector *const *args, const uint16_t *sel,
                        uint32_t n, sqe_vector *out, bool left, bool right, sqe_error *err) {
    bool with_set = b->n_args > 1;
    bool nulls = sqe_func_propagate_nulls(args, b->n_args, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t len, set_len = 0;
        const char *p = sqe_func_str(args[0], row, &len);
        const char *set = with_set ? sqe_func_str(args[1], row, &set_len) : NULL;
        size_t s = 0, e = len;
        if (!with_set) {
            if (left)
                while (s < e && is_ws((unsigned char)p[s])) s++;
            if (right)
                while (e > s && is_ws((unsigned char)p[e - 1])) e--;
        } else {
            if (left)
                while (s < e) {
                    int l = sqe_utf8_len((unsigned char)p[s]);
                    if (s + (size_t)l > e || !in_set(p + s, l, set, set_len)) break;
                    s += (size_t)l;
                }
            if (right)
                while (e > s) {
                    size_t l = last_char_len(p + s, e - s);
                    if (!in_set(p + e - l, (int)l, set, set_len)) break;
                    e -= l;
                }
        }
        if (!sqe_vector_set_string(out, row, p + s, e - s))
            return sqe_func_mem_error(out, b->name, err);
    });
    return true;
}

static SQE_KERNEL(trim_both) {
    return trim_kernel(b, args, sel, n, out, true, true, err);
}
static SQE_KERNEL(trim_left) {
    return trim_kernel(b, args, sel, n, out, true, false, err);
}
static SQE_KERNEL(trim_right) {
    return trim_kernel(b, args, sel, n, out, false, true, err);
}

/* ------------------------------------------------------------ replace */

static SQE_KERNEL(replace_kernel) {
    bool nulls = sqe_func_propagate_nulls(args, b->n_args, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t len, flen, tlen = 0;
        const char *p = sqe_func_str(args[0], row, &len);
        const char *f = sqe_func_str(args[1], row, &flen);
        const char *t = b->n_args > 2 ? sqe_func_str(args[2], row, &tlen) : "";
        /* Count matches to size the result exactly. */
        size_t hits = 0;
        if (flen == 0) {
            hits = sqe_utf8_count(p, len) + 1; /* before every character and at the end */
        } else {
            for (const char *q = p, *end = p + len; q < end;) {
                const char *h = str_find(q, (size_t)(end - q), f, flen);
                if (!h) break;
                hits++;
                q = h + flen;
            }
        }
        if (hits == 0) {
            if (!sqe_vector_set_string(out, row, p, len))
                return sqe_func_mem_error(out, b->name, err);
            continue;
        }
        size_t total = flen == 0 ? len + hits * tlen : len - hits * flen + hits * tlen;
        if (total > MAX_RESULT_BYTES)
            return sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED,
                                 "replace result exceeds %zu bytes", MAX_RESULT_BYTES);
        char small[16];
        char *dst = sqe_func_str_begin(out, total, small), *w = dst;
        if (!dst) return sqe_func_mem_error(out, b->name, err);
        if (flen == 0) {
            for (size_t i = 0; i < len;) {
                memcpy(w, t, tlen);
                w += tlen;
                size_t l = SQE_MIN((size_t)sqe_utf8_len((unsigned char)p[i]), len - i);
                memcpy(w, p + i, l);
                w += l;
                i += l;
            }
            if (tlen) memcpy(w, t, tlen);
        } else {
            const char *q = p, *end = p + len;
            while (q < end) {
                const char *h = str_find(q, (size_t)(end - q), f, flen);
                size_t keep = h ? (size_t)(h - q) : (size_t)(end - q);
                memcpy(w, q, keep);
                w += keep;
                if (!h) break;
                if (tlen) memcpy(w, t, tlen);
                w += tlen;
                q = h + flen;
            }
        }
        sqe_func_str_finish(out, row, dst, total);
    });
    return true;
}

/* ------------------------------------------------ strpos / starts_with */

static SQE_KERNEL(strpos_kernel) {
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    bool nulls = sqe_func_propagate_nulls(args, 2, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t len, slen;
        const char *p = sqe_func_str(args[0], row, &len);
        const char *s = sqe_func_str(args[1], row, &slen);
        if (slen == 0) {
            o[row] = 1;
            continue;
        }
        const char *h = str_find(p, len, s, slen);
        o[row] = h ? (int64_t)sqe_utf8_count(p, (size_t)(h - p)) + 1 : 0;
    });
    return true;
}

static SQE_KERNEL(starts_with_kernel) {
    uint8_t *o = SQE_VEC_DATA(out, uint8_t);
    bool nulls = sqe_func_propagate_nulls(args, 2, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t len, plen;
        const char *p = sqe_func_str(args[0], row, &len);
        const char *q = sqe_func_str(args[1], row, &plen);
        o[row] = plen <= len && memcmp(p, q, plen) == 0;
    });
    return true;
}

/* ------------------------------------------------------------ reverse */

static SQE_KERNEL(reverse_kernel) {
    bool nulls = sqe_func_propagate_nulls(args, 1, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t len;
        const char *p = sqe_func_str(args[0], row, &len);
        char small[16];
        char *dst = sqe_func_str_begin(out, len, small);
        if (!dst) return sqe_func_mem_error(out, b->name, err);
        for (size_t i = 0; i < len;) {
            size_t l = SQE_MIN((size_t)sqe_utf8_len((unsigned char)p[i]), len - i);
            memcpy(dst + len - i - l, p + i, l);
            i += l;
        }
        sqe_func_str_finish(out, row, dst, len);
    });
    return true;
}

/* ---------------------------------------------------------- lpad/rpad */

/* Writes `times` copies of pad[0..plen) at w: one copy, then the written
 * prefix doubled (a 1 MB pad of one character is ~20 memcpy calls, not a
 * million). */
static void repeat_into(char *w, const char *pad, size_t plen, size_t times) {
    size_t total = plen * times, done = SQE_MIN(plen, total);
    if (done) memcpy(w, pad, done);
    while (done < total) {
        size_t step = SQE_MIN(done, total - done);
        memcpy(w + done, w, step);
        done += step;
    }
}

static bool pad_kernel(const sqe_func_binding *b, sqe_vector *const *args, const uint16_t *sel,
                       uint32_t n, sqe_vector *out, bool left, sqe_error *err) {
    const int64_t *sz = SQE_VEC_DATA(args[1], int64_t);
    bool nulls = sqe_func_propagate_nulls(args, 3, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        int64_t size = sz[row];
        if (size < 0 || size > INT32_MAX)
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "target length must be in the range [0..2147483647], got %lld",
                                 (long long)size);
        uint32_t len, plen;
        const char *p = sqe_func_str(args[0], row, &len);
        const char *pad = sqe_func_str(args[2], row, &plen);
        size_t have = sqe_utf8_count(p, len);
        if (have >= (size_t)size) {
            if (!sqe_vector_set_string(out, row, p, sqe_utf8_offset(p, len, (size_t)size)))
                return sqe_func_mem_error(out, b->name, err);
            continue;
        }
        if (plen == 0)
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT, "padding string must not be empty");
        size_t need = (size_t)size - have; /* characters of padding */
        size_t pad_chars = sqe_utf8_count(pad, plen);
        size_t full = need / pad_chars, rest = need % pad_chars;
        size_t rest_bytes = sqe_utf8_offset(pad, plen, rest);
        size_t total = len + full * plen + rest_bytes;
        if (total > MAX_RESULT_BYTES)
            return sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED, "padded result exceeds %zu bytes",
                                 MAX_RESULT_BYTES);
        char small[16];
        char *dst = sqe_func_str_begin(out, total, small), *w = dst;
        if (!dst) return sqe_func_mem_error(out, b->name, err);
        if (!left) {
            memcpy(w, p, len);
            w += len;
        }
        repeat_into(w, pad, plen, full);
        w += full * plen;
        memcpy(w, pad, rest_bytes);
        w += rest_bytes;
        if (left) memcpy(w, p, len);
        sqe_func_str_finish(out, row, dst, total);
    });
    return true;
}

static SQE_KERNEL(lpad_kernel) {
    return pad_kernel(b, args, sel, n, out, true, err);
}
static SQE_KERNEL(rpad_kernel) {
    return pad_kernel(b, args, sel, n, out, false, err);
}

/* --------------------------------------------------------- split_part */

static SQE_KERNEL(split_part_kernel) {
    const int64_t *ix = SQE_VEC_DATA(args[2], int64_t);
    bool nulls = sqe_func_propagate_nulls(args, 3, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        int64_t idx = ix[row];
        if (idx < 1)
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "split_part index must be greater than zero");
        uint32_t len, dlen;
        const char *p = sqe_func_str(args[0], row, &len);
        const char *d = sqe_func_str(args[1], row, &dlen);
        if (dlen == 0) {
            /* Each character is a part. */
            size_t off = sqe_utf8_offset(p, len, (size_t)SQE_MIN(idx - 1, (int64_t)len));
            if (off >= len) {
                sqe_vector_set_null(out, row);
                continue;
            }
            size_t l = SQE_MIN((size_t)sqe_utf8_len((unsigned char)p[off]), len - off);
            if (!sqe_vector_set_string(out, row, p + off, l))
                return sqe_func_mem_error(out, b->name, err);
            continue;
        }
        const char *q = p, *end = p + len;
        bool found = true;
        for (int64_t k = 1; k < idx; k++) {
            const char *h = str_find(q, (size_t)(end - q), d, dlen);
            if (!h) {
                found = false;
                break;
            }
            q = h + dlen;
        }
        if (!found) {
            sqe_vector_set_null(out, row);
            continue;
        }
        const char *h = str_find(q, (size_t)(end - q), d, dlen);
        if (!sqe_vector_set_string(out, row, q, h ? (size_t)(h - q) : (size_t)(end - q)))
            return sqe_func_mem_error(out, b->name, err);
    });
    return true;
}

/* --------------------------------------------------------------- LIKE */

typedef enum {
    LK_EXACT,
    LK_PREFIX,
    LK_SUFFIX,
    LK_CONTAINS,
    LK_SEGMENTS,
    LK_ANY,
    LK_GENERAL
} like_kind;

typedef struct like_seg {
    const char *p;
    size_t len;
} like_seg;

typedef struct like_pat {
    like_kind kind;
    bool ci;
    char escape;     /* 0 = none */
    const char *pat; /* GENERAL: the raw pattern (lower-cased for ILIKE) */
    size_t pat_len;
    bool anchored_start, anchored_end; /* SEGMENTS */
    int n_segs;
    like_seg *segs;
    size_t min_len; /* sum of segment lengths */
} like_pat;

static inline unsigned char fold_ascii(unsigned char c) {
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

/* Checks escape usage in a pattern. */
static bool like_validate(const char *p, size_t n, char escape, sqe_error *err) {
    if (!escape) return true;
    for (size_t i = 0; i < n; i++) {
        if (p[i] != escape) continue;
        if (i + 1 >= n || (p[i + 1] != '%' && p[i + 1] != '_' && p[i + 1] != escape))
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "escape character must be followed by '%%', '_' or the escape "
                                 "character in LIKE pattern '%.*s'",
                                 (int)SQE_MIN(n, 200), p);
        i++;
    }
    return true;
}

/* Escape argument text -> one ASCII character (0 for none). */
static bool like_escape_char(const char *p, size_t n, char *out, sqe_error *err) {
    if (n != 1 || (unsigned char)p[0] >= 0x80)
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                             "LIKE escape must be a single ASCII character, got '%.*s'",
                             (int)SQE_MIN(n, 200), p);
    *out = p[0];
    return true;
}

/* The general matcher ('%' and '_' over UTF-8 characters). The pattern is
 * already folded for ILIKE; the subject is folded byte by byte when ci. */
static bool like_general(const char *s, size_t n, const char *p, size_t m, char escape, bool ci) {
    size_t si = 0, pi = 0, star_p = (size_t)-1, star_s = 0;
    while (si < n) {
        if (pi < m) {
            unsigned char pc = (unsigned char)p[pi];
            unsigned char sc = ci ? fold_ascii((unsigned char)s[si]) : (unsigned char)s[si];
            if (escape && pc == (unsigned char)escape && pi + 1 < m) {
                if ((unsigned char)p[pi + 1] == sc) {
                    pi += 2;
                    si++;
                    continue;
                }
            } else if (pc == '%') {
                star_p = pi++;
                star_s = si;
                continue;
            } else if (pc == '_') {
                pi++;
                si = SQE_MIN(n, si + (size_t)sqe_utf8_len((unsigned char)s[si]));
                continue;
            } else if (pc == sc) {
                pi++;
                si++;
                continue;
            }
        }
        if (star_p != (size_t)-1) {
            pi = star_p + 1;
            star_s = SQE_MIN(n, star_s + (size_t)sqe_utf8_len((unsigned char)s[star_s]));
            si = star_s;
            continue;
        }
        return false;
    }
    while (pi < m && p[pi] == '%') pi++;
    return pi == m;
}

/* Compiles a validated pattern. Memory in arena. */
static like_pat *like_compile(sqe_arena *arena, const char *p, size_t n, char escape, bool ci) {
    like_pat *lp = sqe_arena_alloc(arena, sizeof *lp);
    lp->ci = ci;
    lp->escape = escape;
    char *folded = sqe_arena_alloc(arena, n + 1);
    for (size_t i = 0; i < n; i++) folded[i] = ci ? (char)fold_ascii((unsigned char)p[i]) : p[i];
    if (ci && escape) {
        /* Keep the escape character itself unfolded-equivalent. */
        for (size_t i = 0; i < n; i++)
            if (p[i] == escape) folded[i] = escape;
    }
    lp->pat = folded;
    lp->pat_len = n;
    for (size_t i = 0; i < n; i++) {
        if (escape && folded[i] == escape) {
            i++;
            continue;
        }
        if (folded[i] == '_') {
            lp->kind = LK_GENERAL;
            return lp;
        }
    }
    /* Literal segments between unescaped '%'. */
    char *lit = sqe_arena_alloc(arena, n + 1);
    lp->segs = sqe_arena_alloc(arena, sizeof(like_seg) * (n / 2 + 2));
    size_t w = 0, seg_start = 0;
    bool any_pct = false;
    lp->anchored_start = !(n > 0 && folded[0] == '%');
    lp->anchored_end = true;
    for (size_t i = 0; i < n; i++) {
        char c = folded[i];
        if (escape && c == escape) {
            lit[w++] = folded[++i];
            lp->anchored_end = true;
            continue;
        }
        if (c == '%') {
            any_pct = true;
            if (w > seg_start) {
                lp->segs[lp->n_segs].p = lit + seg_start;
                lp->segs[lp->n_segs].len = w - seg_start;
                lp->n_segs++;
            }
            seg_start = w;
            lp->anchored_end = false;
            continue;
        }
        lit[w++] = c;
        lp->anchored_end = true;
    }
    if (w > seg_start || !any_pct) {
        lp->segs[lp->n_segs].p = lit + seg_start;
        lp->segs[lp->n_segs].len = w - seg_start;
        lp->n_segs++;
    }
    lp->min_len = w;
    if (lp->n_segs == 0)
        lp->kind = LK_ANY;
    else if (!any_pct)
        lp->kind = LK_EXACT;
    else if (lp->n_segs == 1 && lp->anchored_start && !lp->anchored_end)
        lp->kind = LK_PREFIX;
    else if (lp->n_segs == 1 && !lp->anchored_start && lp->anchored_end)
        lp->kind = LK_SUFFIX;
    else if (lp->n_segs == 1 && !lp->anchored_start && !lp->anchored_end)
        lp->kind = LK_CONTAINS;
    else
        lp->kind = LK_SEGMENTS;
    return lp;
}

static bool like_segments(const like_pat *lp, const char *s, size_t n) {
    if (n < lp->min_len) return false;
    size_t pos = 0, end = n;
    int first = 0, last = lp->n_segs - 1;
    if (lp->anchored_start) {
        const like_seg *g = &lp->segs[0];
        if (memcmp(s, g->p, g->len) != 0) return false;
        pos = g->len;
        first = 1;
    }
    if (lp->anchored_end && last >= first) {
        const like_seg *g = &lp->segs[last];
        if (n - pos < g->len || memcmp(s + n - g->len, g->p, g->len) != 0) return false;
        end = n - g->len;
        last--;
    }
    for (int i = first; i <= last; i++) {
        const like_seg *g = &lp->segs[i];
        if (end - pos < g->len) return false;
        const char *h = str_find(s + pos, end - pos, g->p, g->len);
        if (!h) return false;
        pos = (size_t)(h - s) + g->len;
    }
    return true;
}

/* s is already folded for ILIKE. */
static inline bool like_match(const like_pat *lp, const char *s, size_t n) {
    const like_seg *g = lp->segs;
    switch (lp->kind) {
    case LK_ANY:
        return true;
    case LK_EXACT:
        return n == g->len && memcmp(s, g->p, n) == 0;
    case LK_PREFIX:
        return n >= g->len && memcmp(s, g->p, g->len) == 0;
    case LK_SUFFIX:
        return n >= g->len && memcmp(s + n - g->len, g->p, g->len) == 0;
    case LK_CONTAINS:
        return n >= g->len && str_find(s, n, g->p, g->len) != NULL;
    case LK_SEGMENTS:
        return like_segments(lp, s, n);
    default:
        return like_general(s, n, lp->pat, lp->pat_len, lp->escape, false);
    }
}

/* A scratch buffer for folding subjects (ILIKE). */
typedef struct fold_buf {
    char *p;
    size_t cap;
} fold_buf;

static const char *fold_into(fold_buf *fb, const char *s, size_t n) {
    if (n > fb->cap) {
        fb->cap = SQE_MAX(n, fb->cap * 2);
        fb->p = sqe_realloc(fb->p, fb->cap);
    }
    for (size_t i = 0; i < n; i++) fb->p[i] = (char)fold_ascii((unsigned char)s[i]);
    return fb->p;
}

static bool like_kernel_impl(const sqe_func_binding *b, sqe_vector *const *args,
                             const uint16_t *sel, uint32_t n, sqe_vector *out, bool ci,
                             sqe_error *err) {
    const like_pat *lp = b->data;
    uint8_t *o = SQE_VEC_DATA(out, uint8_t);
    const sqe_string *sv = SQE_VEC_DATA(args[0], sqe_string);
    bool nulls = sqe_func_propagate_nulls(args, b->n_args, sel, n, out);
    if (lp && !ci && lp->kind == LK_CONTAINS) {
        /* The hot case: col LIKE '%abc%'. */
        const char *needle = lp->segs[0].p;
        size_t nlen = lp->segs[0].len;
        SQE_FOR_ROWS(sel, n, row, {
            if (nulls && !sqe_func_row_valid(out, row)) continue;
            const sqe_string *s = &sv[row];
            o[row] = s->len >= nlen && str_find(sqe_string_data(s), s->len, needle, nlen) != NULL;
        });
        return true;
    }
    fold_buf fb = {NULL, 0};
    bool ok = true;
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        const sqe_string *s = &sv[row];
        const char *sp = sqe_string_data(s);
        size_t sn = s->len;
        if (ci) sp = fold_into(&fb, sp, sn);
        if (lp) {
            o[row] = like_match(lp, sp, sn);
            continue;
        }
        uint32_t plen;
        const char *pat = sqe_func_str(args[1], row, &plen);
        char escape = 0;
        if (b->n_args > 2) {
            uint32_t elen;
            const char *e = sqe_func_str(args[2], row, &elen);
            if (!like_escape_char(e, elen, &escape, err)) {
                ok = false;
                break;
            }
        }
        if (!like_validate(pat, plen, escape, err)) {
            ok = false;
            break;
        }
        if (ci) {
            /* Fold the pattern too (into a second region of the buffer). */
            char stackp[256];
            char *fp = plen <= sizeof stackp ? stackp : sqe_malloc(plen);
            for (size_t i = 0; i < plen; i++)
                fp[i] = pat[i] == escape ? escape : (char)fold_ascii((unsigned char)pat[i]);
            o[row] = like_general(sp, sn, fp, plen, escape, false);
            if (fp != stackp) sqe_free(fp);
        } else {
            o[row] = like_general(sp, sn, pat, plen, escape, false);
        }
    });
    sqe_free(fb.p);
    return ok;
}

static SQE_KERNEL(like_kernel) {
    return like_kernel_impl(b, args, sel, n, out, false, err);
}
static SQE_KERNEL(ilike_kernel) {
    return like_kernel_impl(b, args, sel, n, out, true, err);
}

static bool bind_like(const sqe_func_sig *sig, sqe_arena *arena, sqe_func_binding *b,
                      const sqe_value *const *const_args, sqe_error *err) {
    bool ci = strcmp(sig->name, "ilike") == 0;
    if (!const_args) return true;
    const sqe_value *pv = const_args[1];
    const sqe_value *ev = b->n_args > 2 ? const_args[2] : NULL;
    char escape = 0;
    if (ev && !ev->is_null && ev->type.id != SQE_T_NULL &&
        !like_escape_char(ev->v.s.ptr, ev->v.s.len, &escape, err))
        return false;
    if (!pv || pv->is_null || pv->type.id == SQE_T_NULL) return true;
    if (b->n_args > 2 && (!ev || ev->is_null)) return true; /* escape not constant, or NULL */
    if (!like_validate(pv->v.s.ptr, pv->v.s.len, escape, err)) return false;
    b->data = like_compile(arena, pv->v.s.ptr, pv->v.s.len, escape, ci);
    return true;
}

/* --------------------------------------------------------------- table */

#define V SQE_T_VARCHAR
#define I SQE_T_BIGINT

static const sqe_func_sig k_sigs[] = {
    {"||", 2, false, {SQE_FP_TOSTR, SQE_FP_TOSTR}, V, concat_kernel, NULL},
    {"concat", 1, true, {SQE_FP_TOSTR}, V, concat_kernel, NULL},
    {"lower", 1, false, {V}, V, lower_kernel, NULL},
    {"upper", 1, false, {V}, V, upper_kernel, NULL},
    {"length", 1, false, {V}, I, length_kernel, NULL},
    {"substr", 2, false, {V, I}, V, substr_kernel, NULL},
    {"substr", 3, false, {V, I, I}, V, substr_kernel, NULL},
    {"substring", 2, false, {V, I}, V, substr_kernel, NULL},
    {"substring", 3, false, {V, I, I}, V, substr_kernel, NULL},
    {"trim", 1, false, {V}, V, trim_both, NULL},
    {"trim", 2, false, {V, V}, V, trim_both, NULL},
    {"ltrim", 1, false, {V}, V, trim_left, NULL},
    {"ltrim", 2, false, {V, V}, V, trim_left, NULL},
    {"rtrim", 1, false, {V}, V, trim_right, NULL},
    {"rtrim", 2, false, {V, V}, V, trim_right, NULL},
    {"replace", 2, false, {V, V}, V, replace_kernel, NULL},
    {"replace", 3, false, {V, V, V}, V, replace_kernel, NULL},
    {"strpos", 2, false, {V, V}, I, strpos_kernel, NULL},
    {"starts_with", 2, false, {V, V}, SQE_T_BOOLEAN, starts_with_kernel, NULL},
    {"reverse", 1, false, {V}, V, reverse_kernel, NULL},
    {"lpad", 3, false, {V, I, V}, V, lpad_kernel, NULL},
    {"rpad", 3, false, {V, I, V}, V, rpad_kernel, NULL},
    {"split_part", 3, false, {V, V, I}, V, split_part_kernel, NULL},
    {"like", 2, false, {V, V}, SQE_T_BOOLEAN, like_kernel, bind_like},
    {"like", 3, false, {V, V, V}, SQE_T_BOOLEAN, like_kernel, bind_like},
    {"ilike", 2, false, {V, V}, SQE_T_BOOLEAN, ilike_kernel, bind_like},
    {"ilike", 3, false, {V, V, V}, SQE_T_BOOLEAN, ilike_kernel, bind_like},
};

SQE_FUNC_TABLE(sqe_func_string_table, k_sigs);
