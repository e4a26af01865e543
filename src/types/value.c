/*
 * value.c - 16-byte string views, scalar values (sqe_value), their ordering,
 * and their text form as the CLI prints it.
 *
 * String views: `len`, then 12 bytes that hold either the whole string
 * (len <= 12, starting at `prefix` and running on into `u.inlined`) or the
 * first 4 bytes plus a pointer to all the bytes. Builders here zero the
 * unused inline bytes, but comparisons never rely on that: they look at
 * `len` bytes only.
 *
 * Text form (sqe_value_format) follows Trino's CLI, which prints doubles the
 * way Java's Double.toString does: the shortest digits that read back to the
 * same double, plain notation for 1e-3 <= |x| < 1e7 ("100.0", "0.001") and
 * computerized scientific otherwise ("1.0E7", "1.5E-4"). We find the shortest
 * digits by printing with 15, 16, then 17 significant digits and keeping the
 * first that round-trips through strtod (for REAL: 6..9 digits, strtof).
 * With 15 digits a round-trip hit is always the shortest form, because
 * 15-digit decimals are spaced wider than normal doubles are (subnormals
 * start the search at 2 digits, the fewest Java prints).
 */
#include "types/types_int.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(sqe_string) == 16, "sqe_string is a 16-byte view");
_Static_assert(offsetof(sqe_string, prefix) == 4, "prefix follows len");
_Static_assert(offsetof(sqe_string, u) == offsetof(sqe_string, prefix) + 4,
               "inline bytes must continue the prefix contiguously");

/* ------------------------------------------------------------ strings */

sqe_string sqe_string_ref(const char *p, uint32_t len) {
    sqe_string s;
    memset(&s, 0, sizeof s);
    s.len = len;
    if (len <= SQE_STRING_INLINE) {
        if (len) memcpy((char *)&s + offsetof(sqe_string, prefix), p, len);
    } else {
        memcpy(s.prefix, p, 4);
        s.u.ptr = p;
    }
    return s;
}

bool sqe_string_eq(const sqe_string *a, const sqe_string *b) {
    if (a->len != b->len) return false;
    uint32_t n = a->len;
    if (memcmp(a->prefix, b->prefix, n < 4 ? n : 4) != 0) return false;
    if (n <= 4) return true;
    return memcmp(sqe_string_data(a) + 4, sqe_string_data(b) + 4, n - 4) == 0;
}

int sqe_string_cmp(const sqe_string *a, const sqe_string *b) {
    uint32_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->prefix, b->prefix, n < 4 ? n : 4);
    if (c == 0 && n > 4) c = memcmp(sqe_string_data(a) + 4, sqe_string_data(b) + 4, n - 4);
    if (c != 0) return c < 0 ? -1 : 1;
    return a->len < b->len ? -1 : a->len > b->len ? 1 : 0;
}

uint64_t sqe_string_hash(const sqe_string *s) {
    return sqe_hash_bytes(sqe_string_data(s), s->len, 0);
}

/* ------------------------------------------------------- constructors */

sqe_value sqe_value_null(sqe_type t) {
    sqe_value v;
    memset(&v, 0, sizeof v);
    v.type = t;
    v.is_null = true;
    return v;
}

sqe_value sqe_value_bool(bool b) {
    sqe_value v;
    memset(&v, 0, sizeof v);
    v.type = sqe_type_make(SQE_T_BOOLEAN);
    v.v.b = b;
    return v;
}

sqe_value sqe_value_int(sqe_type_id id, int64_t i) {
    sqe_value v;
    memset(&v, 0, sizeof v);
    v.type = sqe_type_make(id);
    if (id == SQE_T_BOOLEAN)
        v.v.b = i != 0;
    else
        v.v.i = i;
    return v;
}

sqe_value sqe_value_double(double d) {
    sqe_value v;
    memset(&v, 0, sizeof v);
    v.type = sqe_type_make(SQE_T_DOUBLE);
    v.v.d = d;
    return v;
}

sqe_value sqe_value_decimal(sqe_i128 unscaled, int precision, int scale) {
    sqe_value v;
    memset(&v, 0, sizeof v);
    v.type = sqe_type_decimal(precision, scale);
    v.v.dec = unscaled;
    return v;
}

sqe_value sqe_value_string(const char *p, uint32_t len) {
    sqe_value v;
    memset(&v, 0, sizeof v);
    v.type = sqe_type_make(SQE_T_VARCHAR);
    v.v.s.ptr = p;
    v.v.s.len = len;
    return v;
}

/* ----------------------------------------------------------- ordering */

/* NaN sorts above every other value and equal to itself (Trino's order). */
static int cmp_double(double a, double b) {
    bool an = isnan(a), bn = isnan(b);
    if (an || bn) return an && bn ? 0 : an ? 1 : -1;
    return a < b ? -1 : a > b ? 1 : 0;
}

static int cmp_decimal(sqe_i128 a, int sa, sqe_i128 b, int sb) {
    if (sa != sb) {
        /* Bring both to the larger scale; an overflow means that side's
         * magnitude exceeds anything the other can hold. */
        sqe_i128 *lo = sa < sb ? &a : &b;
        sqe_i128 r;
        if (!sqe_decimal_rescale(*lo, SQE_MIN(sa, sb), SQE_MAX(sa, sb), &r)) {
            int sign = *lo < 0 ? -1 : 1;
            return sa < sb ? sign : -sign;
        }
        *lo = r;
    }
    return a < b ? -1 : a > b ? 1 : 0;
}

int sqe_value_cmp(const sqe_value *a, const sqe_value *b) {
    switch (a->type.id) {
    case SQE_T_BOOLEAN:
        return (int)a->v.b - (int)b->v.b;
    case SQE_T_TINYINT:
    case SQE_T_SMALLINT:
    case SQE_T_INTEGER:
    case SQE_T_BIGINT:
    case SQE_T_DATE:
    case SQE_T_TIMESTAMP:
    case SQE_T_INTERVAL_DS:
    case SQE_T_INTERVAL_YM:
    case SQE_T_TIME:
        return a->v.i < b->v.i ? -1 : a->v.i > b->v.i ? 1 : 0;
    case SQE_T_TIMESTAMP_TZ: { /* the instant only, as Trino */
        int64_t x = sqe_tstz_millis(a->v.i), y = sqe_tstz_millis(b->v.i);
        return x < y ? -1 : x > y ? 1 : 0;
    }
    case SQE_T_REAL:
        return cmp_double(a->v.f, b->v.f);
    case SQE_T_DOUBLE:
        return cmp_double(a->v.d, b->v.d);
    case SQE_T_DECIMAL:
        return cmp_decimal(a->v.dec, a->type.scale, b->v.dec, b->type.scale);
    case SQE_T_VARCHAR:
    case SQE_T_VARBINARY: {
        uint32_t n = SQE_MIN(a->v.s.len, b->v.s.len);
        int c = n ? memcmp(a->v.s.ptr, b->v.s.ptr, n) : 0;
        if (c != 0) return c < 0 ? -1 : 1;
        return a->v.s.len < b->v.s.len ? -1 : a->v.s.len > b->v.s.len ? 1 : 0;
    }
    default:
        return 0;
    }
}

/* ------------------------------------------------- Java-style doubles */

/* Lays out the significant digits `dig` (n >= 1, no trailing zeros except a
 * lone "0") with decimal exponent e (value = d.ddd x 10^e) as Java does. */
static size_t java_layout(bool neg, const char *dig, int n, int e, char *buf, size_t buf_len) {
    char tmp[64];
    size_t k = 0;
    if (neg) tmp[k++] = '-';
    if (e >= -3 && e < 7) {
        if (e >= 0) {
            for (int i = 0; i <= e; i++) tmp[k++] = i < n ? dig[i] : '0';
            tmp[k++] = '.';
            if (n > e + 1)
                for (int i = e + 1; i < n; i++) tmp[k++] = dig[i];
            else
                tmp[k++] = '0';
        } else {
            tmp[k++] = '0';
            tmp[k++] = '.';
            for (int i = 0; i < -e - 1; i++) tmp[k++] = '0';
            for (int i = 0; i < n; i++) tmp[k++] = dig[i];
        }
    } else {
        tmp[k++] = dig[0];
        tmp[k++] = '.';
        if (n > 1)
            for (int i = 1; i < n; i++) tmp[k++] = dig[i];
        else
            tmp[k++] = '0';
        k += (size_t)snprintf(tmp + k, sizeof tmp - k, "E%d", e);
    }
    size_t out = SQE_MIN(k, buf_len ? buf_len - 1 : 0);
    if (buf_len) {
        memcpy(buf, tmp, out);
        buf[out] = '\0';
    }
    return out;
}

/* Splits "%.Ne" output ("-1.2345e+07") into digits and exponent. */
static size_t java_from_e(const char *s, char *buf, size_t buf_len) {
    bool neg = *s == '-';
    if (neg) s++;
    char dig[40];
    int n = 0;
    for (; *s && *s != 'e'; s++)
        if (*s != '.') dig[n++] = *s;
    int e = *s == 'e' ? atoi(s + 1) : 0;
    while (n > 1 && dig[n - 1] == '0') n--;
    return java_layout(neg, dig, n, e, buf, buf_len);
}

static size_t special_text(double d, char *buf, size_t buf_len, bool *done) {
    const char *s = NULL;
    *done = true;
    if (isnan(d))
        s = "NaN";
    else if (isinf(d))
        s = d < 0 ? "-Infinity" : "Infinity";
    else if (d == 0)
        s = signbit(d) ? "-0.0" : "0.0";
    if (!s) {
        *done = false;
        return 0;
    }
    int n = snprintf(buf, buf_len, "%s", s);
    return (size_t)n < buf_len ? (size_t)n : (buf_len ? buf_len - 1 : 0);
}

/* The shortest form of d when it has at most 15 significant digits and a
 * magnitude in [1e-3, 1e15): the smallest k such that m = d * 10^k rounds
 * to an integer with m / 10^k == d. Both m (< 2^53) and 10^k (k <= 18) are
 * exact doubles, so IEEE division rounds m / 10^k correctly: the decimal
 * m x 10^-k reads back as d. It is also what the %.14e search below would
 * find (d lies within half an ulp of that decimal, far from a 15-digit
 * rounding boundary), without snprintf's multi-precision arithmetic. Most
 * data (prices, measurements) takes this path. False: use the search. */
static bool short_decimal(double d, char *dig, int *n_dig, int *exp10) {
    static const double k_p10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8, 1e9,
                                   1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18};
    double a = fabs(d);
    if (!(a >= 1e-3 && a < 1e15)) return false;
    for (int k = 0; k <= 18; k++) {
        double scaled = a * k_p10[k];
        if (scaled >= 1e15) return false; /* 16+ digits: the search decides */
        double m = nearbyint(scaled);
        if (m == 0 || m / k_p10[k] != a) continue;
        uint64_t u = (uint64_t)m;
        char rev[24];
        int n = 0;
        while (u) rev[n++] = (char)('0' + u % 10), u /= 10;
        int len = n, skip = 0;
        while (len > 1 && rev[skip] == '0') skip++, len--; /* trailing zeros of m */
        for (int i = 0; i < len; i++) dig[i] = rev[n - 1 - i];
        *n_dig = len;
        *exp10 = n - 1 - k;
        return true;
    }
    return false;
}

size_t sqe_types_format_double(double d, char *buf, size_t buf_len) {
    bool done;
    size_t n = special_text(d, buf, buf_len, &done);
    if (done) return n;
    char dig[24];
    int n_dig, e;
    if (short_decimal(d, dig, &n_dig, &e)) return java_layout(d < 0, dig, n_dig, e, buf, buf_len);
    char tmp[48];
    /* Subnormals carry fewer bits: their shortest form may be much shorter. */
    for (int digits = fabs(d) < DBL_MIN ? 2 : 15; digits <= 17; digits++) {
        snprintf(tmp, sizeof tmp, "%.*e", digits - 1, d);
        if (digits == 17 || strtod(tmp, NULL) == d) break;
    }
    return java_from_e(tmp, buf, buf_len);
}

size_t sqe_types_format_real(float f, char *buf, size_t buf_len) {
    bool done;
    size_t n = special_text(f, buf, buf_len, &done);
    if (done) return n;
    char tmp[48];
    for (int digits = fabsf(f) < FLT_MIN ? 2 : 6; digits <= 9; digits++) {
        snprintf(tmp, sizeof tmp, "%.*e", digits - 1, (double)f);
        if (digits == 9 || strtof(tmp, NULL) == f) break;
    }
    return java_from_e(tmp, buf, buf_len);
}

/* ------------------------------------------------------------- format */

void sqe_value_format(const sqe_value *v, sqe_strbuf *sb) {
    char buf[96];
    if (v->is_null || v->type.id == SQE_T_NULL) {
        sqe_strbuf_puts(sb, "NULL");
        return;
    }
    switch (v->type.id) {
    case SQE_T_BOOLEAN:
        sqe_strbuf_puts(sb, v->v.b ? "true" : "false");
        return;
    case SQE_T_TINYINT:
    case SQE_T_SMALLINT:
    case SQE_T_INTEGER:
    case SQE_T_BIGINT:
        sqe_strbuf_printf(sb, "%lld", (long long)v->v.i);
        return;
    case SQE_T_REAL:
        sqe_strbuf_append(sb, buf, sqe_types_format_real(v->v.f, buf, sizeof buf));
        return;
    case SQE_T_DOUBLE:
        sqe_strbuf_append(sb, buf, sqe_types_format_double(v->v.d, buf, sizeof buf));
        return;
    case SQE_T_DECIMAL:
        sqe_strbuf_append(sb, buf, sqe_decimal_format(v->v.dec, v->type.scale, buf, sizeof buf));
        return;
    case SQE_T_VARCHAR:
        if (v->v.s.len) sqe_strbuf_append(sb, v->v.s.ptr, v->v.s.len);
        return;
    case SQE_T_VARBINARY: /* as the Trino CLI: hex bytes separated by spaces */
        for (uint32_t i = 0; i < v->v.s.len; i++) {
            static const char hx[] = "0123456789abcdef";
            unsigned char c = (unsigned char)v->v.s.ptr[i];
            if (i) sqe_strbuf_putc(sb, ' ');
            sqe_strbuf_putc(sb, hx[c >> 4]);
            sqe_strbuf_putc(sb, hx[c & 15]);
        }
        return;
    case SQE_T_DATE:
        sqe_strbuf_append(sb, buf, sqe_date_format((int32_t)v->v.i, buf, sizeof buf));
        return;
    case SQE_T_TIMESTAMP:
        sqe_strbuf_append(
            sb, buf,
            sqe_timestamp_format_p(v->v.i, sqe_timestamp_precision(v->type), buf, sizeof buf));
        return;
    case SQE_T_TIMESTAMP_TZ:
        sqe_strbuf_append(sb, buf, sqe_tstz_format(v->v.i, buf, sizeof buf));
        return;
    case SQE_T_TIME:
        sqe_strbuf_append(sb, buf,
                          sqe_time_format(v->v.i, sqe_time_precision(v->type), buf, sizeof buf));
        return;
    case SQE_T_INTERVAL_DS:
    case SQE_T_INTERVAL_YM:
        sqe_strbuf_append(sb, buf,
                          sqe_interval_format((sqe_type_id)v->type.id, v->v.i, buf, sizeof buf));
        return;
    default:
        sqe_strbuf_puts(sb, "NULL");
        return;
    }
}
