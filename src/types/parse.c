/*
 * parse.c - text to BOOLEAN, BIGINT and DOUBLE: the parsers on the CSV/text
 * reader's hot path, also used by casts from VARCHAR.
 *
 * Inputs are (pointer, length) slices that are NOT NUL-terminated, so
 * nothing here may call strtol/strtod on the input directly. Surrounding
 * whitespace is rejected; callers trim when SQL semantics ask for it.
 *
 * sqe_parse_double validates the grammar itself, then computes plain
 * decimals exactly when the significand is below 2^53 and the decimal
 * exponent within +-22 (both operands are exact doubles, so one IEEE
 * multiplication or division rounds correctly: the "Clinger fast path").
 * Anything else is copied to a NUL-terminated buffer and handed to strtod,
 * which rounds correctly. This assumes the process runs in the C locale
 * for LC_NUMERIC (sqe never calls setlocale).
 */
#include "types/types_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static inline bool is_digit(char c) {
    return (unsigned)(c - '0') < 10;
}

static inline char lower(char c) {
    return c >= 'A' && c <= 'Z' ? (char)(c + 32) : c;
}

static bool ieq(const char *p, size_t n, const char *word) {
    size_t i = 0;
    for (; i < n && word[i]; i++)
        if (lower(p[i]) != word[i]) return false;
    return i == n && word[i] == '\0';
}

bool sqe_parse_bool(const char *p, size_t n, bool *out) {
    if (ieq(p, n, "true")) {
        *out = true;
        return true;
    }
    if (ieq(p, n, "false")) {
        *out = false;
        return true;
    }
    return false;
}

bool sqe_parse_int64(const char *p, size_t n, int64_t *out) {
    size_t i = 0;
    bool neg = false;
    if (n > 0 && (p[0] == '+' || p[0] == '-')) {
        neg = p[0] == '-';
        i = 1;
    }
    if (i == n) return false;
    const uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    uint64_t acc = 0;
    /* Up to 18 digits cannot overflow: no check needed inside the loop. */
    size_t safe_end = i + 18 < n ? i + 18 : n;
    for (; i < safe_end; i++) {
        unsigned d = (unsigned)(p[i] - '0');
        if (d > 9) return false;
        acc = acc * 10 + d;
    }
    for (; i < n; i++) {
        unsigned d = (unsigned)(p[i] - '0');
        if (d > 9) return false;
        if (acc > (limit - d) / 10) return false;
        acc = acc * 10 + d;
    }
    *out = neg ? (int64_t)(0 - acc) : (int64_t)acc;
    return true;
}

static const double k_exact_pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                         1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                         1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Correctly rounded conversion of an already validated literal. */
static double slow_strtod(const char *p, size_t n) {
    char stack[64];
    char *buf = n < sizeof stack ? stack : sqe_malloc(n + 1);
    memcpy(buf, p, n);
    buf[n] = '\0';
    double d = strtod(buf, NULL);
    if (buf != stack) sqe_free(buf);
    return d;
}

bool sqe_parse_double(const char *p, size_t n, double *out) {
    size_t i = 0;
    bool neg = false;
    if (n > 0 && (p[0] == '+' || p[0] == '-')) {
        neg = p[0] == '-';
        i = 1;
    }
    if (i == n) return false;
    if (!is_digit(p[i]) && p[i] != '.') {
        /* NaN, Inf, Infinity in any case (Java spells them NaN/Infinity) */
        if (ieq(p + i, n - i, "nan")) {
            *out = NAN;
            return true;
        }
        if (ieq(p + i, n - i, "inf") || ieq(p + i, n - i, "infinity")) {
            *out = neg ? -INFINITY : INFINITY;
            return true;
        }
        return false;
    }

    uint64_t mant = 0;
    int n_sig = 0, dexp = 0, n_digits = 0;
    bool truncated = false;
    for (; i < n && is_digit(p[i]); i++, n_digits++) {
        int d = p[i] - '0';
        if (mant == 0 && d == 0) continue; /* leading zero */
        if (n_sig < 19) {
            mant = mant * 10 + (uint64_t)d;
            n_sig++;
        } else {
            dexp++;
            truncated |= d != 0;
        }
    }
    if (i < n && p[i] == '.') {
        for (i++; i < n && is_digit(p[i]); i++, n_digits++) {
            int d = p[i] - '0';
            if (mant == 0 && d == 0) {
                dexp--;
            } else if (n_sig < 19) {
                mant = mant * 10 + (uint64_t)d;
                n_sig++;
                dexp--;
            } else {
                truncated |= d != 0;
            }
        }
    }
    if (n_digits == 0) return false;
    if (i < n && (p[i] == 'e' || p[i] == 'E')) {
        i++;
        bool eneg = false;
        if (i < n && (p[i] == '+' || p[i] == '-')) eneg = p[i++] == '-';
        if (i == n || !is_digit(p[i])) return false;
        int e = 0;
        for (; i < n && is_digit(p[i]); i++)
            if (e < 100000) e = e * 10 + (p[i] - '0');
        dexp += eneg ? -e : e;
    }
    if (i != n) return false;

    double v;
    if (mant == 0) {
        v = 0.0;
    } else if (!truncated && mant < (1ULL << 53) && dexp >= -22 && dexp <= 22) {
        v = (double)mant;
        v = dexp < 0 ? v / k_exact_pow10[-dexp] : v * k_exact_pow10[dexp];
    } else {
        *out = slow_strtod(p, n);
        return true;
    }
    *out = neg ? -v : v;
    return true;
}
