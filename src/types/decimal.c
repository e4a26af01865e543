/*
 * decimal.c - fixed-point DECIMAL(p,s) arithmetic on 128-bit integers.
 *
 * A decimal value is its unscaled integer: DECIMAL(5,2) 123.45 is 12345. Any
 * precision up to 38 uses the same sqe_i128 representation (no short/long
 * split as in Trino), so every kernel handles one layout. |v| < 10^38 always
 * holds for a valid value; 10^38 < 2^127 leaves room for one carry.
 *
 * Rounding is half away from zero everywhere (Trino's HALF_UP on
 * BigDecimal), both when rescaling and when parsing text with more
 * fractional digits than the scale.
 *
 * Where it sits: casts (value.c/cast.c), the text and Parquet readers
 * (sqe_parse_decimal, sqe_decimal_rescale) and func/ arithmetic.
 */
#include "types/types_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define P19 ((sqe_i128)10000000000000000000ULL)

const sqe_i128 sqe_pow10_i128[39] = {
    1,
    10,
    100,
    1000,
    10000,
    100000,
    1000000,
    10000000,
    100000000,
    1000000000,
    10000000000LL,
    100000000000LL,
    1000000000000LL,
    10000000000000LL,
    100000000000000LL,
    1000000000000000LL,
    10000000000000000LL,
    100000000000000000LL,
    1000000000000000000LL,
    P19,
    P19 * 10,
    P19 * 100,
    P19 * 1000,
    P19 * 10000,
    P19 * 100000,
    P19 * 1000000,
    P19 * 10000000,
    P19 * 100000000,
    P19 * 1000000000,
    P19 * 10000000000LL,
    P19 * 100000000000LL,
    P19 * 1000000000000LL,
    P19 * 10000000000000LL,
    P19 * 100000000000000LL,
    P19 * 1000000000000000LL,
    P19 * 10000000000000000LL,
    P19 * 100000000000000000LL,
    P19 * 1000000000000000000LL,
    P19 *P19,
};

size_t sqe_types_format_i128(sqe_i128 v, char *buf, size_t buf_len) {
    char tmp[48];
    size_t n = 0;
    unsigned __int128 u = sqe_types_abs_i128(v);
    do {
        tmp[n++] = (char)('0' + (int)(u % 10));
        u /= 10;
    } while (u);
    if (v < 0) tmp[n++] = '-';
    size_t out = 0;
    while (n && out + 1 < buf_len) buf[out++] = tmp[--n];
    if (buf_len) buf[out] = '\0';
    return out;
}

size_t sqe_decimal_format(sqe_i128 unscaled, int scale, char *buf, size_t buf_len) {
    char digits[48];
    char tmp[96];
    size_t nd = 0, n = 0;
    unsigned __int128 u = sqe_types_abs_i128(unscaled);
    do {
        digits[nd++] = (char)('0' + (int)(u % 10));
        u /= 10;
    } while (u); /* digits[] holds the digits least significant first */
    if (scale < 0) scale = 0;
    while ((int)nd <= scale) digits[nd++] = '0'; /* at least one integral digit */
    if (unscaled < 0) tmp[n++] = '-';
    for (size_t i = nd; i-- > 0;) {
        tmp[n++] = digits[i];
        if ((int)i == scale && scale > 0) tmp[n++] = '.';
    }
    size_t out = SQE_MIN(n, buf_len ? buf_len - 1 : 0);
    if (buf_len) {
        memcpy(buf, tmp, out);
        buf[out] = '\0';
    }
    return out;
}

bool sqe_decimal_fits(sqe_i128 v, int precision) {
    if (precision >= SQE_DECIMAL_MAX_PRECISION) precision = SQE_DECIMAL_MAX_PRECISION;
    if (precision < 0) precision = 0;
    unsigned __int128 u = sqe_types_abs_i128(v);
    return u < (unsigned __int128)sqe_pow10_i128[precision];
}

bool sqe_decimal_rescale(sqe_i128 v, int from_scale, int to_scale, sqe_i128 *out) {
    int d = to_scale - from_scale;
    if (d == 0) {
        *out = v;
        return sqe_decimal_fits(v, SQE_DECIMAL_MAX_PRECISION);
    }
    if (d > 0) {
        if (d > SQE_DECIMAL_MAX_PRECISION) {
            *out = 0;
            return v == 0;
        }
        sqe_i128 r;
        if (__builtin_mul_overflow(v, sqe_pow10_i128[d], &r) ||
            !sqe_decimal_fits(r, SQE_DECIMAL_MAX_PRECISION))
            return false;
        *out = r;
        return true;
    }
    d = -d;
    if (d > SQE_DECIMAL_MAX_PRECISION) {
        *out = 0; /* |v| < 10^38 <= 10^d / 2: rounds to zero */
        return true;
    }
    sqe_i128 p = sqe_pow10_i128[d];
    sqe_i128 q = v / p, r = v % p;
    unsigned __int128 ar = sqe_types_abs_i128(r);
    if (ar * 2 >= (unsigned __int128)p) q += v < 0 ? -1 : 1;
    *out = q;
    return sqe_decimal_fits(q, SQE_DECIMAL_MAX_PRECISION);
}

double sqe_decimal_to_double(sqe_i128 v, int scale) {
    static const double k_pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    unsigned __int128 u = sqe_types_abs_i128(v);
    /* Both operands exact: one correctly rounded division. */
    if (u < ((unsigned __int128)1 << 53) && scale >= 0 && scale <= 22)
        return (double)v / k_pow10[scale];
    /* Otherwise let strtod round the exact decimal text correctly. */
    char buf[96];
    size_t n = sqe_types_format_i128(v, buf, sizeof buf);
    snprintf(buf + n, sizeof buf - n, "e-%d", scale);
    return strtod(buf, NULL);
}

/* ------------------------------------------------------------ parsing */

sqe_decimal_parse_status sqe_types_parse_decimal(const char *p, size_t n, int precision, int scale,
                                                 sqe_i128 *out) {
    size_t i = 0;
    bool neg = false;
    if (i < n && (p[i] == '+' || p[i] == '-')) neg = p[i++] == '-';
    size_t int_start = i;
    while (i < n && (unsigned)(p[i] - '0') < 10) i++;
    size_t int_len = i - int_start, frac_start = i, frac_len = 0;
    if (i < n && p[i] == '.') {
        frac_start = ++i;
        while (i < n && (unsigned)(p[i] - '0') < 10) i++;
        frac_len = i - frac_start;
    }
    if (int_len + frac_len == 0) return SQE_DECIMAL_PARSE_SYNTAX;
    long exp = 0;
    if (i < n && (p[i] == 'e' || p[i] == 'E')) {
        i++;
        bool eneg = false;
        if (i < n && (p[i] == '+' || p[i] == '-')) eneg = p[i++] == '-';
        size_t es = i;
        while (i < n && (unsigned)(p[i] - '0') < 10) {
            if (exp < 100000) exp = exp * 10 + (p[i] - '0');
            i++;
        }
        if (i == es) return SQE_DECIMAL_PARSE_SYNTAX;
        if (eneg) exp = -exp;
    }
    if (i != n) return SQE_DECIMAL_PARSE_SYNTAX;

    /* The digit string D = int digits ++ frac digits; value = D * 10^k / 10^scale
     * with k = exp - frac_len + scale. Keep the first n_digits + k digits. */
    size_t n_digits = int_len + frac_len;
#define DIGIT_AT(j) ((j) < int_len ? p[int_start + (j)] - '0' : p[frac_start + (j)-int_len] - '0')
    long k = exp - (long)frac_len + scale;
    long keep = (long)n_digits + (k < 0 ? k : 0);
    sqe_i128 acc = 0;
    const sqe_i128 limit = sqe_pow10_i128[SQE_DECIMAL_MAX_PRECISION];
    for (long j = 0; j < keep; j++) {
        int d = DIGIT_AT((size_t)j);
        if (acc > (limit - 1 - d) / 10) return SQE_DECIMAL_PARSE_OVERFLOW; /* >= 10^38 */
        acc = acc * 10 + d;
    }
    if (k > 0 && acc != 0) {
        if (k > SQE_DECIMAL_MAX_PRECISION) return SQE_DECIMAL_PARSE_OVERFLOW;
        if (__builtin_mul_overflow(acc, sqe_pow10_i128[k], &acc) || acc >= limit)
            return SQE_DECIMAL_PARSE_OVERFLOW;
    }
    if (k < 0 && keep >= 0 && (size_t)keep < n_digits && DIGIT_AT((size_t)keep) >= 5) acc += 1;
#undef DIGIT_AT
    if (!sqe_decimal_fits(acc, precision)) return SQE_DECIMAL_PARSE_OVERFLOW;
    *out = neg ? -acc : acc;
    return SQE_DECIMAL_PARSE_OK;
}

bool sqe_parse_decimal(const char *p, size_t n, int precision, int scale, sqe_i128 *out) {
    return sqe_types_parse_decimal(p, n, precision, scale, out) == SQE_DECIMAL_PARSE_OK;
}
