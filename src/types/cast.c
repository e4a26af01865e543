/*
 * cast.c - CAST and TRY_CAST of one scalar value, with Trino semantics.
 *
 * Used by constant folding, partition values and the per-row fallback of the
 * vectorized cast kernels in func/; those kernels must agree with this file,
 * which is the reference for what each conversion means:
 *
 *   to integer   from boolean 1/0; integers with a range check; REAL, DOUBLE
 *                and DECIMAL round half away from zero; NaN/Infinity fail;
 *                VARCHAR parses [+-]digits after trimming.
 *   to boolean   numbers: nonzero is true; VARCHAR: true/false/t/f/1/0.
 *   to REAL/DOUBLE  any number, boolean 1/0, VARCHAR as sqe_parse_double.
 *   to DECIMAL   integers exactly, DECIMAL rescaled half-up, REAL/DOUBLE via
 *                their shortest decimal text (as Java's BigDecimal.valueOf),
 *                VARCHAR parsed; too many integral digits -> OUT_OF_RANGE.
 *   to VARCHAR   sqe_value_format text, copied into the arena; VARCHAR(n)
 *                and CHAR(n) truncate to n code points, CHAR pads with spaces.
 *   to DATE      TIMESTAMP floors to its day; VARCHAR as sqe_parse_date.
 *   to TIMESTAMP DATE at midnight; VARCHAR as sqe_parse_timestamp.
 *
 * Errors: text that does not parse -> INVALID_DATA "cannot cast 'abc' to
 * integer"; a value that does not fit -> OUT_OF_RANGE "value 300 out of
 * range for tinyint"; a pair with no cast -> TYPE_MISMATCH. With try_ set,
 * any of these yields NULL instead.
 */
#include "types/types_int.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define MICROS_PER_DAY 86400000000LL
#define QUOTE_MAX 200 /* bytes of the offending text quoted in a message */
/* The midpoint between FLT_MAX and the next power of two: doubles at or
 * above it round to infinity as floats, doubles below it to a finite float. */
#define FLT_OVERFLOW_MID 3.4028235677973366e38

static const char *tname(sqe_type t, char *buf, size_t n) {
    return sqe_type_sql_name(t, buf, n);
}

static bool is_trim_byte(char c) {
    return (unsigned char)c <= ' ';
}

/* Java String.trim(): drops bytes <= 0x20 at both ends. */
static void trim(const char **p, size_t *n) {
    while (*n && is_trim_byte(**p)) {
        (*p)++;
        (*n)--;
    }
    while (*n && is_trim_byte((*p)[*n - 1])) (*n)--;
}

static bool fail_text(const sqe_value *in, sqe_type to, sqe_error *err) {
    char tn[48];
    int len = (int)SQE_MIN(in->v.s.len, QUOTE_MAX);
    return sqe_error_set(err, SQE_ERR_INVALID_DATA, "cannot cast '%.*s' to %s", len,
                         in->v.s.len ? in->v.s.ptr : "", tname(to, tn, sizeof tn));
}

/* OUT_OF_RANGE naming the input value as text. */
static bool fail_range(const sqe_value *in, sqe_type to, sqe_error *err) {
    char tn[48];
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    if (in->type.id == SQE_T_VARCHAR) {
        const char *p = in->v.s.ptr;
        size_t n = in->v.s.len;
        trim(&p, &n);
        sqe_strbuf_append(&sb, p, SQE_MIN(n, QUOTE_MAX));
    } else {
        sqe_value_format(in, &sb);
    }
    sqe_error_set(err, SQE_ERR_OUT_OF_RANGE, "value %s out of range for %s", sb.data ? sb.data : "",
                  tname(to, tn, sizeof tn));
    sqe_strbuf_free(&sb);
    return false;
}

static bool fail_mismatch(const sqe_value *in, sqe_type to, sqe_error *err) {
    char a[48], b[48];
    return sqe_error_set(err, SQE_ERR_TYPE_MISMATCH, "cannot cast %s to %s",
                         tname(in->type, a, sizeof a), tname(to, b, sizeof b));
}

static bool fail_nonfinite(const sqe_value *in, double d, sqe_type to, sqe_error *err) {
    char tn[48];
    if (isnan(d))
        return sqe_error_set(err, SQE_ERR_INVALID_DATA, "cannot cast NaN to %s",
                             tname(to, tn, sizeof tn));
    return fail_range(in, to, err);
}

/* ------------------------------------------------------------ integers */

static void int_range(sqe_type_id id, int64_t *lo, int64_t *hi) {
    switch (id) {
    case SQE_T_TINYINT:
        *lo = INT8_MIN;
        *hi = INT8_MAX;
        break;
    case SQE_T_SMALLINT:
        *lo = INT16_MIN;
        *hi = INT16_MAX;
        break;
    case SQE_T_INTEGER:
        *lo = INT32_MIN;
        *hi = INT32_MAX;
        break;
    default:
        *lo = INT64_MIN;
        *hi = INT64_MAX;
        break;
    }
}

/* Whether text is [+-]digits (a valid integer literal, maybe too large). */
static bool looks_integral(const char *p, size_t n) {
    size_t i = n && (p[0] == '+' || p[0] == '-') ? 1 : 0;
    if (i == n) return false;
    for (; i < n; i++)
        if ((unsigned)(p[i] - '0') > 9) return false;
    return true;
}

static bool cast_to_integer(const sqe_value *in, sqe_type to, sqe_value *out, sqe_error *err) {
    int64_t x, lo, hi;
    int_range((sqe_type_id)to.id, &lo, &hi);
    switch (in->type.id) {
    case SQE_T_BOOLEAN:
        x = in->v.b ? 1 : 0;
        break;
    case SQE_T_TINYINT:
    case SQE_T_SMALLINT:
    case SQE_T_INTEGER:
    case SQE_T_BIGINT:
        x = in->v.i;
        break;
    case SQE_T_REAL:
    case SQE_T_DOUBLE: {
        double d = in->type.id == SQE_T_REAL ? (double)in->v.f : in->v.d;
        if (!isfinite(d)) return fail_nonfinite(in, d, to, err);
        double r = round(d); /* half away from zero */
        if (r < -9223372036854775808.0 || r >= 9223372036854775808.0)
            return fail_range(in, to, err);
        x = (int64_t)r;
        if (x < lo || x > hi) {
            /* Name the rounded value that overflowed: "value 300 out of range for tinyint". */
            sqe_value rounded = sqe_value_int(SQE_T_BIGINT, x);
            return fail_range(&rounded, to, err);
        }
        break;
    }
    case SQE_T_DECIMAL: {
        sqe_i128 r;
        if (!sqe_decimal_rescale(in->v.dec, in->type.scale, 0, &r) || r < INT64_MIN ||
            r > INT64_MAX)
            return fail_range(in, to, err);
        x = (int64_t)r;
        break;
    }
    case SQE_T_VARCHAR: {
        const char *p = in->v.s.ptr;
        size_t n = in->v.s.len;
        trim(&p, &n);
        if (!sqe_parse_int64(p, n, &x))
            return looks_integral(p, n) ? fail_range(in, to, err) : fail_text(in, to, err);
        break;
    }
    default:
        return fail_mismatch(in, to, err);
    }
    if (x < lo || x > hi) return fail_range(in, to, err);
    *out = sqe_value_int((sqe_type_id)to.id, x);
    return true;
}

/* ------------------------------------------------------------- boolean */

static bool cast_to_boolean(const sqe_value *in, sqe_type to, sqe_value *out, sqe_error *err) {
    bool b;
    switch (in->type.id) {
    case SQE_T_BOOLEAN:
        b = in->v.b;
        break;
    case SQE_T_TINYINT:
    case SQE_T_SMALLINT:
    case SQE_T_INTEGER:
    case SQE_T_BIGINT:
        b = in->v.i != 0;
        break;
    case SQE_T_REAL:
        b = in->v.f != 0;
        break;
    case SQE_T_DOUBLE:
        b = in->v.d != 0;
        break;
    case SQE_T_DECIMAL:
        b = in->v.dec != 0;
        break;
    case SQE_T_VARCHAR: {
        const char *p = in->v.s.ptr;
        size_t n = in->v.s.len;
        trim(&p, &n);
        if (sqe_parse_bool(p, n, &b)) break;
        if (n == 1 && (p[0] == 't' || p[0] == 'T' || p[0] == '1')) {
            b = true;
            break;
        }
        if (n == 1 && (p[0] == 'f' || p[0] == 'F' || p[0] == '0')) {
            b = false;
            break;
        }
        return fail_text(in, to, err);
    }
    default:
        return fail_mismatch(in, to, err);
    }
    *out = sqe_value_bool(b);
    return true;
}

/* ------------------------------------------------------- real / double */

static bool cast_to_floating(const sqe_value *in, sqe_type to, sqe_value *out, sqe_error *err) {
    double d;
    switch (in->type.id) {
    case SQE_T_BOOLEAN:
        d = in->v.b ? 1 : 0;
        break;
    case SQE_T_TINYINT:
    case SQE_T_SMALLINT:
    case SQE_T_INTEGER:
    case SQE_T_BIGINT:
        d = (double)in->v.i;
        break;
    case SQE_T_REAL:
        d = in->v.f;
        break;
    case SQE_T_DOUBLE:
        d = in->v.d;
        break;
    case SQE_T_DECIMAL:
        d = sqe_decimal_to_double(in->v.dec, in->type.scale);
        break;
    case SQE_T_VARCHAR: {
        const char *p = in->v.s.ptr;
        size_t n = in->v.s.len;
        trim(&p, &n);
        if (!sqe_parse_double(p, n, &d)) return fail_text(in, to, err);
        if (to.id == SQE_T_REAL && isfinite(d) && fabs(d) >= FLT_OVERFLOW_MID)
            d = d < 0 ? -INFINITY : INFINITY; /* Float.parseFloat overflows to infinity */
        break;
    }
    default:
        return fail_mismatch(in, to, err);
    }
    if (to.id == SQE_T_DOUBLE) {
        *out = sqe_value_double(d);
        return true;
    }
    if (isfinite(d) && fabs(d) >= FLT_OVERFLOW_MID) return fail_range(in, to, err);
    if (isfinite(d) && fabs(d) > FLT_MAX) d = copysign(FLT_MAX, d); /* rounds down to FLT_MAX */
    *out = sqe_value_null(to);
    out->is_null = false;
    out->v.f = (float)d;
    return true;
}

/* ------------------------------------------------------------- decimal */

static bool cast_to_decimal(const sqe_value *in, sqe_type to, sqe_value *out, sqe_error *err) {
    sqe_i128 r = 0;
    switch (in->type.id) {
    case SQE_T_BOOLEAN:
    case SQE_T_TINYINT:
    case SQE_T_SMALLINT:
    case SQE_T_INTEGER:
    case SQE_T_BIGINT: {
        sqe_i128 x = in->type.id == SQE_T_BOOLEAN ? (in->v.b ? 1 : 0) : in->v.i;
        if (!sqe_decimal_rescale(x, 0, to.scale, &r) || !sqe_decimal_fits(r, to.precision))
            return fail_range(in, to, err);
        break;
    }
    case SQE_T_DECIMAL:
        if (!sqe_decimal_rescale(in->v.dec, in->type.scale, to.scale, &r) ||
            !sqe_decimal_fits(r, to.precision))
            return fail_range(in, to, err);
        break;
    case SQE_T_REAL:
    case SQE_T_DOUBLE: {
        double d = in->type.id == SQE_T_REAL ? (double)in->v.f : in->v.d;
        if (!isfinite(d)) return fail_nonfinite(in, d, to, err);
        char buf[48];
        size_t n = in->type.id == SQE_T_REAL ? sqe_types_format_real(in->v.f, buf, sizeof buf)
                                             : sqe_types_format_double(d, buf, sizeof buf);
        if (sqe_types_parse_decimal(buf, n, to.precision, to.scale, &r) != SQE_DECIMAL_PARSE_OK)
            return fail_range(in, to, err);
        break;
    }
    case SQE_T_VARCHAR: {
        const char *p = in->v.s.ptr;
        size_t n = in->v.s.len;
        trim(&p, &n);
        sqe_decimal_parse_status st = sqe_types_parse_decimal(p, n, to.precision, to.scale, &r);
        if (st == SQE_DECIMAL_PARSE_SYNTAX) return fail_text(in, to, err);
        if (st == SQE_DECIMAL_PARSE_OVERFLOW) return fail_range(in, to, err);
        break;
    }
    default:
        return fail_mismatch(in, to, err);
    }
    *out = sqe_value_decimal(r, to.precision, to.scale);
    return true;
}

/* ------------------------------------------------------------- varchar */

/* Byte length of the first `max_cp` UTF-8 code points of p[0..n); *n_cp gets
 * how many code points that is. Continuation bytes are not validated. */
static size_t utf8_prefix(const char *p, size_t n, size_t max_cp, size_t *n_cp) {
    size_t i = 0, cp = 0;
    while (i < n && cp < max_cp) {
        i++;
        while (i < n && ((unsigned char)p[i] & 0xC0) == 0x80) i++;
        cp++;
    }
    *n_cp = cp;
    return i;
}

static bool cast_to_varchar(const sqe_value *in, sqe_type to, sqe_arena *arena, sqe_value *out,
                            sqe_error *err) {
    const char *p;
    size_t n;
    if (in->type.id == SQE_T_VARCHAR || in->type.id == SQE_T_VARBINARY) {
        p = in->v.s.ptr;
        n = in->v.s.len;
    } else {
        if (!arena)
            return sqe_error_set(err, SQE_ERR_INTERNAL,
                                 "sqe_value_cast: cast to varchar needs an arena");
        sqe_strbuf sb;
        sqe_strbuf_init(&sb);
        sqe_value_format(in, &sb);
        n = sb.len;
        p = sqe_arena_strndup(arena, sb.data ? sb.data : "", n);
        sqe_strbuf_free(&sb);
    }
    if (to.str_kind != SQE_STRKIND_STRING && to.length > 0) {
        size_t n_cp;
        n = utf8_prefix(p, n, to.length, &n_cp);
        if (to.str_kind == SQE_STRKIND_CHAR && n_cp < to.length) {
            if (!arena)
                return sqe_error_set(err, SQE_ERR_INTERNAL,
                                     "sqe_value_cast: cast to char needs an arena");
            size_t pad = to.length - n_cp;
            char *q = sqe_arena_alloc(arena, n + pad + 1);
            if (n) memcpy(q, p, n);
            memset(q + n, ' ', pad);
            p = q;
            n += pad;
        }
    }
    *out = sqe_value_string(p, (uint32_t)n);
    out->type = to;
    return true;
}

static bool cast_to_varbinary(const sqe_value *in, sqe_type to, sqe_value *out, sqe_error *err) {
    if (in->type.id != SQE_T_VARCHAR && in->type.id != SQE_T_VARBINARY)
        return fail_mismatch(in, to, err);
    *out = sqe_value_string(in->v.s.ptr, in->v.s.len);
    out->type = to;
    return true;
}

/* ---------------------------------------------------------- date/time */

static bool cast_to_date(const sqe_value *in, sqe_type to, sqe_value *out, sqe_error *err) {
    int64_t days;
    switch (in->type.id) {
    case SQE_T_DATE:
        days = in->v.i;
        break;
    case SQE_T_TIMESTAMP:
    case SQE_T_TIMESTAMP_TZ: {
        int64_t us = in->type.id == SQE_T_TIMESTAMP ? in->v.i : sqe_tstz_local_micros(in->v.i);
        days = us / MICROS_PER_DAY;
        if (us % MICROS_PER_DAY < 0) days -= 1; /* floor */
        break;
    }
    case SQE_T_VARCHAR: {
        const char *p = in->v.s.ptr;
        size_t n = in->v.s.len;
        int32_t d32;
        trim(&p, &n);
        if (!sqe_parse_date(p, n, &d32)) return fail_text(in, to, err);
        days = d32;
        break;
    }
    default:
        return fail_mismatch(in, to, err);
    }
    *out = sqe_value_int(SQE_T_DATE, days);
    return true;
}

/* 1 when the text's fraction has more than 6 digits and the 7th is >= 5
 * (sqe_parse_timestamp truncates there; timestamp(p) rounds). */
static int64_t frac_round_up(const char *p, size_t n) {
    const char *dot = memchr(p, '.', n);
    if (!dot || (size_t)(dot - p) + 7 >= n) return 0;
    char c = dot[7];
    return c >= '5' && c <= '9' ? 1 : 0;
}

static bool cast_to_timestamp(const sqe_value *in, sqe_type to, sqe_value *out, sqe_error *err) {
    int64_t us;
    switch (in->type.id) {
    case SQE_T_TIMESTAMP_TZ: /* the wall time in the value's zone (Trino) */
        us = sqe_tstz_local_micros(in->v.i);
        break;
    case SQE_T_TIMESTAMP:
        us = in->v.i;
        break;
    case SQE_T_DATE:
        if (__builtin_mul_overflow(in->v.i, MICROS_PER_DAY, &us)) return fail_range(in, to, err);
        break;
    case SQE_T_VARCHAR: {
        const char *p = in->v.s.ptr;
        size_t n = in->v.s.len;
        trim(&p, &n);
        if (!sqe_parse_timestamp(p, n, &us)) return fail_text(in, to, err);
        if (sqe_timestamp_precision(to) >= 0) us += frac_round_up(p, n); /* Trino rounds */
        break;
    }
    default:
        return fail_mismatch(in, to, err);
    }
    if (!sqe_timestamp_round(us, sqe_timestamp_precision(to), &us)) return fail_range(in, to, err);
    *out = sqe_value_int(SQE_T_TIMESTAMP, us);
    out->type = to;
    return true;
}

/* TIME: text, the time of day of a TIMESTAMP, or another TIME; rounded
 * half up to the target's digits, wrapping at midnight (Trino). */
static bool cast_to_time(const sqe_value *in, sqe_type to, sqe_value *out, sqe_error *err) {
    int64_t us;
    switch (in->type.id) {
    case SQE_T_TIME:
        us = in->v.i;
        break;
    case SQE_T_TIMESTAMP:
        us = in->v.i % MICROS_PER_DAY;
        if (us < 0) us += MICROS_PER_DAY;
        break;
    case SQE_T_VARCHAR: {
        const char *p = in->v.s.ptr;
        size_t n = in->v.s.len;
        int digits;
        trim(&p, &n);
        if (!sqe_parse_time(p, n, &us, &digits)) return fail_text(in, to, err);
        us += frac_round_up(p, n);
        break;
    }
    default:
        return fail_mismatch(in, to, err);
    }
    if (!sqe_timestamp_round(us, sqe_time_precision(to), &us)) return fail_range(in, to, err);
    *out = sqe_value_int(SQE_T_TIME, us % MICROS_PER_DAY);
    out->type = to;
    return true;
}

/* "<timestamp>[ <zone>]": the zone after the last space when the whole text
 * is not a timestamp; none means the session zone `zone`. */
static bool parse_tstz_text(const char *p, size_t n, uint16_t zone, int64_t *out) {
    int64_t us;
    uint16_t key = zone;
    if (!sqe_parse_timestamp(p, n, &us)) {
        const char *sp = memrchr(p, ' ', n);
        sqe_error zerr;
        if (!sp || !sqe_parse_timestamp(p, (size_t)(sp - p), &us) ||
            !sqe_tz_key(sp + 1, n - (size_t)(sp - p) - 1, &key, &zerr))
            return false;
    }
    return sqe_tstz_from_local(us, key, out);
}

static bool cast_to_tstz(const sqe_value *in, sqe_type to, uint16_t zone, sqe_value *out,
                         sqe_error *err) {
    int64_t v;
    switch (in->type.id) {
    case SQE_T_TIMESTAMP_TZ:
        v = in->v.i;
        break;
    case SQE_T_TIMESTAMP: /* a wall time (a date: its midnight) in the session zone */
    case SQE_T_DATE: {
        int64_t us = in->v.i;
        if (in->type.id == SQE_T_DATE && __builtin_mul_overflow(in->v.i, MICROS_PER_DAY, &us))
            return fail_range(in, to, err);
        if (!sqe_tstz_from_local(us, zone, &v)) return fail_range(in, to, err);
        break;
    }
    case SQE_T_VARCHAR: {
        const char *p = in->v.s.ptr;
        size_t n = in->v.s.len;
        trim(&p, &n);
        if (!parse_tstz_text(p, n, zone, &v)) return fail_text(in, to, err);
        break;
    }
    default:
        return fail_mismatch(in, to, err);
    }
    *out = sqe_value_int(SQE_T_TIMESTAMP_TZ, v);
    return true;
}

/* ---------------------------------------------------------- dispatch */

static bool cast_impl(const sqe_value *in, sqe_type to, uint16_t zone, sqe_arena *arena,
                      sqe_value *out, sqe_error *err) {
    switch (to.id) {
    case SQE_T_BOOLEAN:
        return cast_to_boolean(in, to, out, err);
    case SQE_T_TINYINT:
    case SQE_T_SMALLINT:
    case SQE_T_INTEGER:
    case SQE_T_BIGINT:
        return cast_to_integer(in, to, out, err);
    case SQE_T_REAL:
    case SQE_T_DOUBLE:
        return cast_to_floating(in, to, out, err);
    case SQE_T_DECIMAL:
        return cast_to_decimal(in, to, out, err);
    case SQE_T_VARCHAR:
        return cast_to_varchar(in, to, arena, out, err);
    case SQE_T_VARBINARY:
        return cast_to_varbinary(in, to, out, err);
    case SQE_T_DATE:
        return cast_to_date(in, to, out, err);
    case SQE_T_TIMESTAMP:
        return cast_to_timestamp(in, to, out, err);
    case SQE_T_TIME:
        return cast_to_time(in, to, out, err);
    case SQE_T_TIMESTAMP_TZ:
        return cast_to_tstz(in, to, zone, out, err);
    case SQE_T_INTERVAL_DS:
    case SQE_T_INTERVAL_YM:
        if (in->type.id != to.id) return fail_mismatch(in, to, err);
        *out = *in;
        return true;
    default:
        return fail_mismatch(in, to, err);
    }
}

bool sqe_value_cast(const sqe_value *in, sqe_type to, bool try_, sqe_arena *arena, sqe_value *out,
                    sqe_error *err) {
    return sqe_value_cast_zone(in, to, try_, 0, arena, out, err);
}

bool sqe_value_cast_zone(const sqe_value *in, sqe_type to, bool try_, uint16_t zone,
                         sqe_arena *arena, sqe_value *out, sqe_error *err) {
    const sqe_value src = *in; /* out may alias in */
    if (src.is_null || src.type.id == SQE_T_NULL) {
        *out = sqe_value_null(to);
        return true;
    }
    if (!try_) return cast_impl(&src, to, zone, arena, out, err);
    sqe_error local;
    sqe_error_clear(&local);
    if (cast_impl(&src, to, zone, arena, out, &local)) return true;
    if (local.cls == SQE_ERR_INTERNAL) {
        if (err) *err = local;
        return false;
    }
    *out = sqe_value_null(to);
    return true;
}
