/*
 * text.c - more of Trino's string functions: concat_ws, strpos with an
 * instance, chr, codepoint, translate, levenshtein_distance,
 * hamming_distance, normalize, soundex, luhn_check and format.
 *
 * Everything counts UTF-8 code points, as string.c does (a stray byte is
 * one character). Results are built with sqe_vector_set_string or in a
 * small per-call buffer and copied; every length is checked before it is
 * used, and distances refuse inputs whose work would be unbounded.
 *
 * normalize uses ICU's normalizers (Debian's libicu, the library the
 * issue names for time zones too): the UTF-8 value goes through UTF-16
 * (invalid bytes become U+FFFD) and back. ASCII input is returned as it is
 * (every form leaves it unchanged) without calling ICU.
 *
 * format(fmt, args...) implements a subset of Java's Formatter: %s %S %d
 * %x %X %o %f %e %E %g %b %% %n with the flags - 0 + space and width /
 * precision. Arguments arrive as text (the registry casts them to
 * varchar); %d/%x/%o need an integer, %f/%e/%g a number, else the error
 * names the argument. Argument indexes (%1$s), the ',' and '(' flags and
 * date/time conversions fail with NOT_SUPPORTED.
 */
#include "func/func_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>

#define TX_RESULT_MAX ((size_t)1 << 28)
#define TX_DISTANCE_MAX_CELLS 100000000ULL /* levenshtein work bound */

/* ----------------------------------------------------------- concat_ws */

/* concat_ws(sep, s...): NULL when sep is NULL; NULL strings are skipped. */
static SQE_KERNEL(concat_ws_kernel) {
    int na = b->n_args;
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    bool ok = true;
    SQE_FOR_ROWS(sel, n, row, {
        if (!ok) break;
        if (!sqe_func_row_valid(args[0], row)) {
            sqe_vector_set_null(out, row);
            continue;
        }
        uint32_t slen;
        const char *sep = sqe_func_str(args[0], row, &slen);
        sqe_strbuf_clear(&sb);
        bool first = true;
        for (int a = 1; a < na; a++) {
            if (args[a]->type.id == SQE_T_NULL || !sqe_func_row_valid(args[a], row)) continue;
            uint32_t len;
            const char *p = sqe_func_str(args[a], row, &len);
            if (!first) sqe_strbuf_append(&sb, sep, slen);
            sqe_strbuf_append(&sb, p, len);
            first = false;
            if (sb.len > TX_RESULT_MAX) {
                ok = sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED,
                                   "concat_ws result exceeds %zu bytes", TX_RESULT_MAX);
                break;
            }
        }
        if (!ok) break;
        sqe_vector_set_valid(out, row);
        if (!sqe_vector_set_string(out, row, sb.data ? sb.data : "", sb.len))
            ok = sqe_func_mem_error(out, b->name, err);
    });
    sqe_strbuf_free(&sb);
    return ok;
}

/* ------------------------------------------------------- strpos(instance) */

/* Byte offset of the instance-th occurrence of f in p (overlapping, from
 * the end when instance < 0), or -1. */
static int64_t tx_find_instance(const char *p, size_t len, const char *f, size_t flen,
                                int64_t instance) {
    if (flen > len) return -1;
    if (instance > 0) {
        size_t at = 0;
        for (;;) {
            const char *h = at + flen <= len ? memmem(p + at, len - at, f, flen) : NULL;
            if (!h) return -1;
            if (--instance == 0) return h - p;
            at = (size_t)(h - p) + 1;
        }
    }
    for (size_t i = len - flen + 1; i-- > 0;) {
        if (memcmp(p + i, f, flen) == 0 && ++instance == 0) return (int64_t)i;
    }
    return -1;
}

static SQE_KERNEL(strpos3_kernel) {
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    const int64_t *iv = SQE_VEC_DATA(args[2], int64_t);
    bool nulls = sqe_func_propagate_nulls(args, 3, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        if (iv[row] == 0)
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "strpos: 'instance' must be a positive or negative number, got 0");
        uint32_t len, flen;
        const char *p = sqe_func_str(args[0], row, &len);
        const char *f = sqe_func_str(args[1], row, &flen);
        if (flen == 0) {
            o[row] = 1;
            continue;
        }
        int64_t at = tx_find_instance(p, len, f, flen, iv[row]);
        o[row] = at < 0 ? 0 : (int64_t)sqe_utf8_count(p, (size_t)at) + 1;
    });
    return true;
}

/* --------------------------------------------------- chr / codepoint */

/* UTF-8 encoding of cp into buf (4 bytes); its length. */
static int tx_encode(uint32_t cp, char *buf) {
    if (cp < 0x80) {
        buf[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        buf[0] = (char)(0xC0 | (cp >> 6));
        buf[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        buf[0] = (char)(0xE0 | (cp >> 12));
        buf[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        buf[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    buf[0] = (char)(0xF0 | (cp >> 18));
    buf[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    buf[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    buf[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

static SQE_KERNEL(chr_kernel) {
    const int64_t *v = SQE_VEC_DATA(args[0], int64_t);
    bool nulls = sqe_func_propagate_nulls(args, 1, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        int64_t cp = v[row];
        if (cp < 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "chr: not a valid Unicode code point: %lld", (long long)cp);
        char buf[4];
        int l = tx_encode((uint32_t)cp, buf);
        if (!sqe_vector_set_string(out, row, buf, (size_t)l))
            return sqe_func_mem_error(out, b->name, err);
    });
    return true;
}

static SQE_KERNEL(codepoint_kernel) {
    int32_t *o = SQE_VEC_DATA(out, int32_t);
    bool nulls = sqe_func_propagate_nulls(args, 1, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t len;
        const char *p = sqe_func_str(args[0], row, &len);
        int l = 0;
        uint32_t cp = len ? sqe_utf8_decode(p, len, &l) : 0;
        if (len == 0 || (uint32_t)l != len)
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "codepoint: argument must be exactly one character, got '%.*s'",
                                 (int)SQE_MIN(len, 100), p);
        o[row] = (int32_t)cp;
    });
    return true;
}

/* ------------------------------------------------------------ translate */

/* Appends the translation of code point c (len bytes at s). */
static void tx_translate_char(sqe_strbuf *sb, const char *s, int len, const char *from, size_t flen,
                              const char *to, size_t tlen) {
    size_t k = 0, i = 0;
    while (i < flen) {
        int l = sqe_utf8_len((unsigned char)from[i]);
        if ((size_t)l > flen - i) l = (int)(flen - i);
        if (l == len && memcmp(from + i, s, (size_t)len) == 0) {
            size_t off = sqe_utf8_offset(to, tlen, k);
            if (off < tlen) {
                size_t tl = SQE_MIN((size_t)sqe_utf8_len((unsigned char)to[off]), tlen - off);
                sqe_strbuf_append(sb, to + off, tl);
            }
            return; /* first occurrence in `from` wins; past `to`: deleted */
        }
        i += (size_t)l;
        k++;
    }
    sqe_strbuf_append(sb, s, (size_t)len);
}

static SQE_KERNEL(translate_kernel) {
    bool nulls = sqe_func_propagate_nulls(args, 3, sel, n, out);
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    bool ok = true;
    SQE_FOR_ROWS(sel, n, row, {
        if (!ok) break;
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t len, flen, tlen;
        const char *p = sqe_func_str(args[0], row, &len);
        const char *f = sqe_func_str(args[1], row, &flen);
        const char *t = sqe_func_str(args[2], row, &tlen);
        sqe_strbuf_clear(&sb);
        for (size_t i = 0; i < len;) {
            int l = (int)SQE_MIN((size_t)sqe_utf8_len((unsigned char)p[i]), len - i);
            tx_translate_char(&sb, p + i, l, f, flen, t, tlen);
            i += (size_t)l;
        }
        if (!sqe_vector_set_string(out, row, sb.data ? sb.data : "", sb.len))
            ok = sqe_func_mem_error(out, b->name, err);
    });
    sqe_strbuf_free(&sb);
    return ok;
}

/* ------------------------------------------------------------ distances */

/* Decodes p into code points (malloc'd); *n gets the count. */
static uint32_t *tx_codepoints(const char *p, size_t len, size_t *n) {
    uint32_t *cps = sqe_malloc((len + 1) * sizeof *cps);
    size_t k = 0;
    for (size_t i = 0; i < len;) {
        int l;
        cps[k++] = sqe_utf8_decode(p + i, len - i, &l);
        i += (size_t)l;
    }
    *n = k;
    return cps;
}

static int64_t tx_levenshtein(const uint32_t *a, size_t na, const uint32_t *b, size_t nb) {
    int64_t *row = sqe_malloc((nb + 1) * sizeof *row);
    for (size_t j = 0; j <= nb; j++) row[j] = (int64_t)j;
    for (size_t i = 1; i <= na; i++) {
        int64_t diag = row[0];
        row[0] = (int64_t)i;
        for (size_t j = 1; j <= nb; j++) {
            int64_t up = row[j];
            int64_t v = SQE_MIN(SQE_MIN(up + 1, row[j - 1] + 1), diag + (a[i - 1] != b[j - 1]));
            row[j] = v;
            diag = up;
        }
    }
    int64_t d = row[nb];
    sqe_free(row);
    return d;
}

static bool distance_kernel(const sqe_func_binding *b, sqe_vector *const *args, const uint16_t *sel,
                            uint32_t n, sqe_vector *out, bool hamming, sqe_error *err) {
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    bool nulls = sqe_func_propagate_nulls(args, 2, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t la, lb;
        const char *pa = sqe_func_str(args[0], row, &la);
        const char *pb = sqe_func_str(args[1], row, &lb);
        size_t na, nb;
        uint32_t *a = tx_codepoints(pa, la, &na), *c = tx_codepoints(pb, lb, &nb);
        bool bad = hamming ? na != nb : (unsigned long long)na * nb > TX_DISTANCE_MAX_CELLS;
        if (!bad) {
            int64_t d = 0;
            if (hamming)
                for (size_t i = 0; i < na; i++) d += a[i] != c[i];
            else
                d = tx_levenshtein(a, na, c, nb);
            o[row] = d;
        }
        sqe_free(a);
        sqe_free(c);
        if (bad && hamming)
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "hamming_distance: the input strings must have the same length "
                                 "(%zu and %zu characters)",
                                 na, nb);
        if (bad)
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "levenshtein_distance: inputs of %zu and %zu characters are too "
                                 "large (their product must be at most %llu)",
                                 na, nb, TX_DISTANCE_MAX_CELLS);
    });
    return true;
}

static SQE_KERNEL(levenshtein_kernel) {
    return distance_kernel(b, args, sel, n, out, false, err);
}
static SQE_KERNEL(hamming_kernel) {
    return distance_kernel(b, args, sel, n, out, true, err);
}

/* ------------------------------------------------------------ normalize */

static const UNormalizer2 *tx_normalizer(const char *f, size_t n, UErrorCode *ec) {
    if (n == 3 && sqe_str_ieqn(f, "NFC", 3)) return unorm2_getNFCInstance(ec);
    if (n == 3 && sqe_str_ieqn(f, "NFD", 3)) return unorm2_getNFDInstance(ec);
    if (n == 4 && sqe_str_ieqn(f, "NFKC", 4)) return unorm2_getNFKCInstance(ec);
    if (n == 4 && sqe_str_ieqn(f, "NFKD", 4)) return unorm2_getNFKDInstance(ec);
    return NULL;
}

static bool tx_ascii(const char *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)p[i] >= 0x80) return false;
    return true;
}

/* Normalizes p[0..n) (UTF-8) into sb through ICU's UTF-16 API. */
static bool tx_normalize(const UNormalizer2 *nz, const char *p, size_t n, sqe_strbuf *sb,
                         sqe_error *err) {
    UErrorCode ec = U_ZERO_ERROR;
    if (n > (size_t)INT32_MAX / 4)
        return sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED, "normalize: value too long");
    int32_t cap16 = (int32_t)n + 1, cap_out = (int32_t)n * 4 + 16;
    UChar *in16 = sqe_malloc(sizeof(UChar) * (size_t)cap16);
    UChar *out16 = sqe_malloc(sizeof(UChar) * (size_t)cap_out);
    int32_t len16 = 0, out_len = 0, len8 = 0;
    u_strFromUTF8WithSub(in16, cap16, &len16, p, (int32_t)n, 0xFFFD, NULL, &ec);
    if (U_SUCCESS(ec)) out_len = unorm2_normalize(nz, in16, len16, out16, cap_out, &ec);
    if (ec == U_BUFFER_OVERFLOW_ERROR) { /* NFKD of some characters expands 18-fold */
        ec = U_ZERO_ERROR;
        cap_out = out_len + 1;
        out16 = sqe_realloc(out16, sizeof(UChar) * (size_t)cap_out);
        out_len = unorm2_normalize(nz, in16, len16, out16, cap_out, &ec);
    }
    if (U_SUCCESS(ec)) {
        char *o = sqe_malloc((size_t)out_len * 3 + 1);
        u_strToUTF8(o, out_len * 3 + 1, &len8, out16, out_len, &ec);
        if (U_SUCCESS(ec)) sqe_strbuf_append(sb, o, (size_t)len8);
        sqe_free(o);
    }
    sqe_free(in16);
    sqe_free(out16);
    if (U_FAILURE(ec))
        return sqe_error_set(err, SQE_ERR_INTERNAL, "normalize: ICU failed: %s", u_errorName(ec));
    return true;
}

static SQE_KERNEL(normalize_kernel) {
    bool nulls = sqe_func_propagate_nulls(args, b->n_args, sel, n, out);
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    bool ok = true;
    SQE_FOR_ROWS(sel, n, row, {
        if (!ok) break;
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t len, flen = 3;
        const char *p = sqe_func_str(args[0], row, &len);
        const char *f = b->n_args > 1 ? sqe_func_str(args[1], row, &flen) : "NFC";
        UErrorCode ec = U_ZERO_ERROR;
        const UNormalizer2 *nz = tx_normalizer(f, flen, &ec);
        if (!nz || U_FAILURE(ec)) {
            ok = sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                               "normalize: unknown form '%.*s'; use NFC, NFD, NFKC or NFKD",
                               (int)SQE_MIN(flen, 50), f);
            break;
        }
        sqe_strbuf_clear(&sb);
        if (tx_ascii(p, len)) /* every form leaves ASCII alone */
            sqe_strbuf_append(&sb, p, len);
        else if (!(ok = tx_normalize(nz, p, len, &sb, err)))
            break;
        if (!sqe_vector_set_string(out, row, sb.data ? sb.data : "", sb.len))
            ok = sqe_func_mem_error(out, b->name, err);
    });
    sqe_strbuf_free(&sb);
    return ok;
}

/* -------------------------------------------------------------- soundex */

/* American Soundex (Apache Commons' rules, which Trino uses): letters only,
 * H and W are skipped, vowels separate equal codes; 4 characters padded
 * with '0'; '' when there is no letter. */
static size_t tx_soundex(const char *p, size_t len, char out[4]) {
    static const char codes[] = "01230120022455012623010202";
    size_t k = 0;
    char last = 0;
    for (size_t i = 0; i < len && k < 4; i++) {
        char c = p[i];
        if (c >= 'a' && c <= 'z') c = (char)(c - 32);
        if (c < 'A' || c > 'Z') continue;
        char code = codes[c - 'A'];
        if (k == 0) {
            out[k++] = c;
            last = code;
            continue;
        }
        if (c == 'H' || c == 'W') continue;
        if (code != '0' && code != last) out[k++] = code;
        last = code;
    }
    if (k == 0) return 0;
    while (k < 4) out[k++] = '0';
    return 4;
}

static SQE_KERNEL(soundex_kernel) {
    bool nulls = sqe_func_propagate_nulls(args, 1, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t len;
        const char *p = sqe_func_str(args[0], row, &len);
        char s[4];
        size_t k = tx_soundex(p, len, s);
        if (!sqe_vector_set_string(out, row, s, k)) return sqe_func_mem_error(out, b->name, err);
    });
    return true;
}

/* ----------------------------------------------------------- luhn_check */

static SQE_KERNEL(luhn_kernel) {
    uint8_t *o = SQE_VEC_DATA(out, uint8_t);
    bool nulls = sqe_func_propagate_nulls(args, 1, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t len;
        const char *p = sqe_func_str(args[0], row, &len);
        int sum = 0;
        bool dbl = false;
        for (uint32_t i = len; i-- > 0;) {
            if (p[i] < '0' || p[i] > '9')
                return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                     "luhn_check: '%.*s' is not a string of digits",
                                     (int)SQE_MIN(len, 100), p);
            int d = (p[i] - '0') * (dbl ? 2 : 1);
            sum += d > 9 ? d - 9 : d;
            dbl = !dbl;
        }
        o[row] = len > 0 && sum % 10 == 0;
    });
    return true;
}

/* --------------------------------------------------------------- format */

typedef struct fmt_arg {
    const char *p;
    uint32_t len;
    bool null;
} fmt_arg;

static bool fmt_error(sqe_error *err, sqe_error_class cls, const char *f, size_t fl,
                      const char *why) {
    return sqe_error_set(err, cls, "format: %s in format '%.*s'", why, (int)SQE_MIN(fl, 200), f);
}

/* Formats one numeric conversion of arg into sb with the C spec. */
static bool fmt_number(sqe_strbuf *sb, const char *spec, char conv, const fmt_arg *a,
                       sqe_error *err) {
    char text[64];
    if (a->len >= sizeof text) goto bad;
    memcpy(text, a->p, a->len);
    text[a->len] = '\0';
    if (conv == 'd' || conv == 'x' || conv == 'X' || conv == 'o') {
        int64_t v;
        if (!sqe_parse_int64(text, a->len, &v)) goto bad;
        if (conv == 'd')
            sqe_strbuf_printf(sb, spec, (long long)v);
        else
            sqe_strbuf_printf(sb, spec, (unsigned long long)v);
        return true;
    }
    double d;
    if (!sqe_parse_double(text, a->len, &d)) goto bad;
    sqe_strbuf_printf(sb, spec, d);
    return true;
bad:
    return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT, "format: %%%c needs a number, got '%.*s'",
                         conv, (int)SQE_MIN(a->len, 100), a->p);
}

/* Parses one %... at f[*i] (f[*i] == '%') and appends it. */
static bool fmt_one(sqe_strbuf *sb, const char *f, size_t fl, size_t *i, const fmt_arg *args,
                    int n_args, int *next, sqe_error *err) {
    char spec[40];
    size_t k = 0, j = *i + 1;
    spec[k++] = '%';
    while (j < fl && strchr("-0+ ", f[j]) && k < 8) spec[k++] = f[j++];
    if (j < fl && (f[j] == ',' || f[j] == '(' || f[j] == '#'))
        return fmt_error(err, SQE_ERR_NOT_SUPPORTED, f, fl,
                         "flags ',', '(' and '#' are not supported");
    while (j < fl && f[j] >= '0' && f[j] <= '9' && k < 20) spec[k++] = f[j++];
    if (j < fl && f[j] == '$')
        return fmt_error(err, SQE_ERR_NOT_SUPPORTED, f, fl,
                         "argument indexes (%1$s) are not supported");
    if (j < fl && f[j] == '.') {
        spec[k++] = f[j++];
        while (j < fl && f[j] >= '0' && f[j] <= '9' && k < 30) spec[k++] = f[j++];
    }
    if (j >= fl)
        return fmt_error(err, SQE_ERR_INVALID_ARGUMENT, f, fl, "incomplete conversion at the end");
    char conv = f[j];
    *i = j;
    if (conv == '%' || conv == 'n') {
        sqe_strbuf_putc(sb, conv == '%' ? '%' : '\n');
        return true;
    }
    if (!strchr("sSdxXofeEgb", conv) && conv && strchr("BhHcCaAGtT", conv))
        return fmt_error(err, SQE_ERR_NOT_SUPPORTED, f, fl, "unsupported conversion");
    if (!strchr("sSdxXofeEgb", conv) || !conv)
        return fmt_error(err, SQE_ERR_INVALID_ARGUMENT, f, fl, "unknown conversion");
    if (*next >= n_args)
        return fmt_error(err, SQE_ERR_INVALID_ARGUMENT, f, fl, "too few arguments");
    const fmt_arg *a = &args[(*next)++];
    if (conv == 's' || conv == 'S' || conv == 'b' || a->null) {
        const char *t = a->null ? (conv == 'b' ? "false" : "null") : a->p;
        size_t tl = a->null ? strlen(t) : a->len;
        char *tmp = sqe_strndup(t, tl);
        if (conv == 'S')
            for (char *c = tmp; *c; c++) *c = (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c);
        spec[k++] = 's';
        spec[k] = '\0';
        sqe_strbuf_printf(sb, spec, conv == 'b' && !a->null ? "true" : tmp);
        sqe_free(tmp);
        return true;
    }
    if (conv == 'd' || conv == 'x' || conv == 'X' || conv == 'o') spec[k++] = 'l', spec[k++] = 'l';
    spec[k++] = conv;
    spec[k] = '\0';
    return fmt_number(sb, spec, conv, a, err);
}

static SQE_KERNEL(format_kernel) {
    int na = b->n_args - 1;
    fmt_arg fa[64];
    if (na > 64)
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT, "format: more than 64 arguments");
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    bool ok = true;
    SQE_FOR_ROWS(sel, n, row, {
        if (!ok) break;
        if (!sqe_func_row_valid(args[0], row)) {
            sqe_vector_set_null(out, row);
            continue;
        }
        for (int a = 0; a < na; a++) {
            fa[a].null =
                args[a + 1]->type.id == SQE_T_NULL || !sqe_func_row_valid(args[a + 1], row);
            fa[a].p = fa[a].null ? "" : sqe_func_str(args[a + 1], row, &fa[a].len);
            if (fa[a].null) fa[a].len = 0;
        }
        uint32_t fl;
        const char *f = sqe_func_str(args[0], row, &fl);
        sqe_strbuf_clear(&sb);
        int next = 0;
        for (size_t i = 0; i < fl && ok; i++) {
            if (f[i] != '%')
                sqe_strbuf_putc(&sb, f[i]);
            else
                ok = fmt_one(&sb, f, fl, &i, fa, na, &next, err);
            if (ok && sb.len > TX_RESULT_MAX)
                ok = sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED, "format result too large");
        }
        if (!ok) break;
        sqe_vector_set_valid(out, row);
        if (!sqe_vector_set_string(out, row, sb.data ? sb.data : "", sb.len))
            ok = sqe_func_mem_error(out, b->name, err);
    });
    sqe_strbuf_free(&sb);
    return ok;
}

/* --------------------------------------------------------------- table */

#define V SQE_T_VARCHAR
#define I SQE_T_BIGINT

static const sqe_func_sig k_sigs[] = {
    {"concat_ws", 2, true, {V, SQE_FP_TOSTR}, V, concat_ws_kernel, NULL},
    {"strpos", 3, false, {V, V, I}, I, strpos3_kernel, NULL},
    {"chr", 1, false, {I}, V, chr_kernel, NULL},
    {"codepoint", 1, false, {V}, SQE_T_INTEGER, codepoint_kernel, NULL},
    {"translate", 3, false, {V, V, V}, V, translate_kernel, NULL},
    {"levenshtein_distance", 2, false, {V, V}, I, levenshtein_kernel, NULL},
    {"hamming_distance", 2, false, {V, V}, I, hamming_kernel, NULL},
    {"normalize", 1, false, {V}, V, normalize_kernel, NULL},
    {"normalize", 2, false, {V, V}, V, normalize_kernel, NULL},
    {"soundex", 1, false, {V}, V, soundex_kernel, NULL},
    {"luhn_check", 1, false, {V}, SQE_T_BOOLEAN, luhn_kernel, NULL},
    {"format", 1, false, {V}, V, format_kernel, NULL},
    {"format", 2, true, {V, SQE_FP_TOSTR}, V, format_kernel, NULL},
};

SQE_FUNC_TABLE(sqe_func_text_table, k_sigs);
