/*
 * interval.c - the operators on INTERVAL DAY TO SECOND (int64 millis) and
 * INTERVAL YEAR TO MONTH (int64 months within int32), as Trino defines
 * them:
 *
 *   interval + interval, interval - interval, -interval   (same kind)
 *   date + interval, interval + date, date - interval     -> date
 *   timestamp + interval, interval + timestamp, timestamp - interval -> timestamp
 *   timestamp - timestamp                                 -> interval day to second
 *   the same for TIMESTAMP WITH TIME ZONE and TIME (wrapping at midnight)
 *   interval * bigint|double, bigint|double * interval, interval / double
 *
 * Comparisons and IS DISTINCT FROM live in compare.c (int64 kernels), CAST
 * to varchar in types/ (sqe_value_format).
 *
 * Semantics: a day-to-second interval added to a DATE must be whole days,
 * else INVALID_ARGUMENT "Cannot add hour, minutes or seconds to a date"
 * (Trino's text). Months added to a date or timestamp clamp the day of month
 * (Jan 31 + 1 month = Feb 28/29), like date_add. timestamp - timestamp is
 * the difference in milliseconds truncated toward zero (sub-millisecond
 * digits are dropped, as Trino's interval has millisecond precision).
 * `date - date` resolves through the implicit date -> timestamp coercion to
 * timestamp - timestamp (whole days as an interval), as in Trino. Products
 * and quotients with a double truncate toward zero (Java's (long) cast);
 * dividing by zero is DIVISION_BY_ZERO, a NaN or out-of-range result is
 * OUT_OF_RANGE. Every result is range checked (int64 millis or micros,
 * int32 months, int32 days) and an overflow names both operands, e.g.
 * "timestamp out of range: 2020-01-01 00:00:00.000 + 106751991167
 * 07:12:55.807".
 */
#include "func/func_int.h"

#include <math.h>
#include <string.h>

#define IV_MS_PER_DAY 86400000LL

/* OUT_OF_RANGE "<what> out of range: a op b" with both operands as text. */
static bool iv_range(sqe_error *err, const char *what, sqe_type_id ta, int64_t a, const char *op,
                     sqe_type_id tb, int64_t b) {
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    sqe_value va = sqe_value_int(ta, a), vb = sqe_value_int(tb, b);
    sqe_value_format(&va, &sb);
    sqe_strbuf_printf(&sb, " %s ", op);
    sqe_value_format(&vb, &sb);
    sqe_error_set(err, SQE_ERR_OUT_OF_RANGE, "%s out of range: %s", what, sb.data);
    sqe_strbuf_free(&sb);
    return false;
}

#define DS SQE_T_INTERVAL_DS
#define YM SQE_T_INTERVAL_YM

/* ------------------------------------------------------- interval, interval */

static bool iv_ds_add(int64_t a, int64_t b, int64_t *o, sqe_error *err) {
    if (__builtin_add_overflow(a, b, o)) return iv_range(err, "interval", DS, a, "+", DS, b);
    return true;
}
static bool iv_ds_sub(int64_t a, int64_t b, int64_t *o, sqe_error *err) {
    if (__builtin_sub_overflow(a, b, o)) return iv_range(err, "interval", DS, a, "-", DS, b);
    return true;
}
static bool iv_ym_fit(int64_t r, int64_t a, const char *op, int64_t b, int64_t *o, sqe_error *err) {
    if (r < INT32_MIN || r > INT32_MAX) return iv_range(err, "interval", YM, a, op, YM, b);
    *o = r;
    return true;
}
static bool iv_ym_add(int64_t a, int64_t b, int64_t *o, sqe_error *err) {
    return iv_ym_fit(a + b, a, "+", b, o, err); /* both within int32: no int64 overflow */
}
static bool iv_ym_sub(int64_t a, int64_t b, int64_t *o, sqe_error *err) {
    return iv_ym_fit(a - b, a, "-", b, o, err);
}

/* ------------------------------------------------------------ with dates */

static bool iv_date_ds(int32_t d, int64_t ms, int sign, int32_t *o, sqe_error *err) {
    if (ms % IV_MS_PER_DAY != 0)
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                             "Cannot add hour, minutes or seconds to a date");
    int64_t r = (int64_t)d + sign * (ms / IV_MS_PER_DAY);
    if (r < INT32_MIN || r > INT32_MAX)
        return iv_range(err, "date", SQE_T_DATE, d, sign > 0 ? "+" : "-", DS, ms);
    *o = (int32_t)r;
    return true;
}
static bool iv_date_add_ds(int32_t d, int64_t ms, int32_t *o, sqe_error *err) {
    return iv_date_ds(d, ms, 1, o, err);
}
static bool iv_ds_add_date(int64_t ms, int32_t d, int32_t *o, sqe_error *err) {
    return iv_date_ds(d, ms, 1, o, err);
}
static bool iv_date_sub_ds(int32_t d, int64_t ms, int32_t *o, sqe_error *err) {
    return iv_date_ds(d, ms, -1, o, err);
}

static bool iv_date_ym(int32_t d, int64_t m, int sign, int32_t *o, sqe_error *err) {
    int64_t r;
    if (!sqe_func_add_months(d, sign * m, &r) || r < INT32_MIN || r > INT32_MAX)
        return iv_range(err, "date", SQE_T_DATE, d, sign > 0 ? "+" : "-", YM, m);
    *o = (int32_t)r;
    return true;
}
static bool iv_date_add_ym(int32_t d, int64_t m, int32_t *o, sqe_error *err) {
    return iv_date_ym(d, m, 1, o, err);
}
static bool iv_ym_add_date(int64_t m, int32_t d, int32_t *o, sqe_error *err) {
    return iv_date_ym(d, m, 1, o, err);
}
static bool iv_date_sub_ym(int32_t d, int64_t m, int32_t *o, sqe_error *err) {
    return iv_date_ym(d, m, -1, o, err);
}

/* ------------------------------------------------------- with timestamps */

static bool iv_ts_ds(int64_t us, int64_t ms, int sign, int64_t *o, sqe_error *err) {
    int64_t d;
    if (__builtin_mul_overflow(ms, (int64_t)sign * 1000, &d) || __builtin_add_overflow(us, d, o))
        return iv_range(err, "timestamp", SQE_T_TIMESTAMP, us, sign > 0 ? "+" : "-", DS, ms);
    return true;
}
static bool iv_ts_add_ds(int64_t us, int64_t ms, int64_t *o, sqe_error *err) {
    return iv_ts_ds(us, ms, 1, o, err);
}
static bool iv_ds_add_ts(int64_t ms, int64_t us, int64_t *o, sqe_error *err) {
    return iv_ts_ds(us, ms, 1, o, err);
}
static bool iv_ts_sub_ds(int64_t us, int64_t ms, int64_t *o, sqe_error *err) {
    return iv_ts_ds(us, ms, -1, o, err);
}

static bool iv_ts_ym(int64_t us, int64_t m, int sign, int64_t *o, sqe_error *err) {
    int64_t days = sqe_floor_div(us, SQE_MICROS_PER_DAY), tod = us - days * SQE_MICROS_PER_DAY, nd;
    if (!sqe_func_add_months(days, sign * m, &nd) ||
        __builtin_mul_overflow(nd, SQE_MICROS_PER_DAY, o) || __builtin_add_overflow(*o, tod, o))
        return iv_range(err, "timestamp", SQE_T_TIMESTAMP, us, sign > 0 ? "+" : "-", YM, m);
    return true;
}
static bool iv_ts_add_ym(int64_t us, int64_t m, int64_t *o, sqe_error *err) {
    return iv_ts_ym(us, m, 1, o, err);
}
static bool iv_ym_add_ts(int64_t m, int64_t us, int64_t *o, sqe_error *err) {
    return iv_ts_ym(us, m, 1, o, err);
}
static bool iv_ts_sub_ym(int64_t us, int64_t m, int64_t *o, sqe_error *err) {
    return iv_ts_ym(us, m, -1, o, err);
}

/* TIMESTAMP WITH TIME ZONE: day-to-second intervals move the instant,
 * months move the wall time in the value's zone (Joda's zoned chronology). */
static bool iv_tz_ds(int64_t v, int64_t ms, int sign, int64_t *o, sqe_error *err) {
    int64_t r;
    if (__builtin_add_overflow(sqe_tstz_millis(v), sign * ms, &r) || r <= -SQE_TSTZ_MAX_MILLIS ||
        r >= SQE_TSTZ_MAX_MILLIS)
        return sqe_error_set(err, SQE_ERR_OUT_OF_RANGE, "timestamp with time zone out of range");
    *o = sqe_tstz_pack(r, sqe_tstz_key(v));
    return true;
}
static bool iv_tz_ym(int64_t v, int64_t m, int sign, int64_t *o, sqe_error *err) {
    int64_t local;
    if (!iv_ts_ym(sqe_tstz_local_micros(v), m, sign, &local, err)) return false;
    if (!sqe_tstz_from_local(local, sqe_tstz_key(v), o))
        return sqe_error_set(err, SQE_ERR_OUT_OF_RANGE, "timestamp with time zone out of range");
    return true;
}
static bool iv_tz_add_ds(int64_t v, int64_t ms, int64_t *o, sqe_error *err) {
    return iv_tz_ds(v, ms, 1, o, err);
}
static bool iv_ds_add_tz(int64_t ms, int64_t v, int64_t *o, sqe_error *err) {
    return iv_tz_ds(v, ms, 1, o, err);
}
static bool iv_tz_sub_ds(int64_t v, int64_t ms, int64_t *o, sqe_error *err) {
    return iv_tz_ds(v, ms, -1, o, err);
}
static bool iv_tz_add_ym(int64_t v, int64_t m, int64_t *o, sqe_error *err) {
    return iv_tz_ym(v, m, 1, o, err);
}
static bool iv_ym_add_tz(int64_t m, int64_t v, int64_t *o, sqe_error *err) {
    return iv_tz_ym(v, m, 1, o, err);
}
static bool iv_tz_sub_ym(int64_t v, int64_t m, int64_t *o, sqe_error *err) {
    return iv_tz_ym(v, m, -1, o, err);
}
static bool iv_tz_sub_tz(int64_t a, int64_t b, int64_t *o, sqe_error *err) {
    *o = sqe_tstz_millis(a) - sqe_tstz_millis(b); /* both within 2^50: no overflow */
    return true;
}

/* TIME +/- day-to-second interval wraps around midnight (Trino). */
static bool iv_time_ds(int64_t t, int64_t ms, int sign, int64_t *o) {
    int64_t d = sqe_floor_mod(ms, IV_MS_PER_DAY) * 1000 * sign;
    *o = sqe_floor_mod(t + d, SQE_MICROS_PER_DAY);
    return true;
}
static bool iv_time_add_ds(int64_t t, int64_t ms, int64_t *o, sqe_error *err) {
    return iv_time_ds(t, ms, 1, o);
}
static bool iv_ds_add_time(int64_t ms, int64_t t, int64_t *o, sqe_error *err) {
    return iv_time_ds(t, ms, 1, o);
}
static bool iv_time_sub_ds(int64_t t, int64_t ms, int64_t *o, sqe_error *err) {
    return iv_time_ds(t, ms, -1, o);
}

static bool iv_ts_sub_ts(int64_t a, int64_t b, int64_t *o, sqe_error *err) {
    (void)err;
    *o = (int64_t)(((__int128)a - b) / 1000); /* |a - b| / 1000 always fits */
    return true;
}

/* ---------------------------------------------------------- with numbers */

static bool iv_scale_checked(double r, sqe_type_id t, int64_t *o, sqe_error *err, int64_t a,
                             double k, const char *op) {
    double lo = t == YM ? (double)INT32_MIN : -9223372036854775808.0;
    double hi = t == YM ? (double)INT32_MAX + 1.0 : 9223372036854775808.0;
    if (!(r > lo - 1.0 && r < hi)) {
        sqe_value va = sqe_value_int(t, a);
        sqe_strbuf sb;
        sqe_strbuf_init(&sb);
        sqe_value_format(&va, &sb);
        sqe_error_set(err, SQE_ERR_OUT_OF_RANGE, "interval out of range: %s %s %g", sb.data, op, k);
        sqe_strbuf_free(&sb);
        return false;
    }
    *o = (int64_t)r; /* truncates toward zero, as Java's (long) cast */
    return true;
}
static bool iv_ds_mul_i(int64_t a, int64_t k, int64_t *o, sqe_error *err) {
    if (__builtin_mul_overflow(a, k, o))
        return iv_range(err, "interval", DS, a, "*", SQE_T_BIGINT, k);
    return true;
}
static bool iv_i_mul_ds(int64_t k, int64_t a, int64_t *o, sqe_error *err) {
    return iv_ds_mul_i(a, k, o, err);
}
static bool iv_ym_mul_i(int64_t a, int64_t k, int64_t *o, sqe_error *err) {
    int64_t r;
    if (__builtin_mul_overflow(a, k, &r) || r < INT32_MIN || r > INT32_MAX)
        return iv_range(err, "interval", YM, a, "*", SQE_T_BIGINT, k);
    *o = r;
    return true;
}
static bool iv_i_mul_ym(int64_t k, int64_t a, int64_t *o, sqe_error *err) {
    return iv_ym_mul_i(a, k, o, err);
}
static bool iv_ds_mul_d(int64_t a, double k, int64_t *o, sqe_error *err) {
    return iv_scale_checked((double)a * k, DS, o, err, a, k, "*");
}
static bool iv_d_mul_ds(double k, int64_t a, int64_t *o, sqe_error *err) {
    return iv_ds_mul_d(a, k, o, err);
}
static bool iv_ym_mul_d(int64_t a, double k, int64_t *o, sqe_error *err) {
    return iv_scale_checked((double)a * k, YM, o, err, a, k, "*");
}
static bool iv_d_mul_ym(double k, int64_t a, int64_t *o, sqe_error *err) {
    return iv_ym_mul_d(a, k, o, err);
}
static bool iv_ds_div_d(int64_t a, double k, int64_t *o, sqe_error *err) {
    if (k == 0) return sqe_error_set(err, SQE_ERR_DIVISION_BY_ZERO, "division by zero");
    return iv_scale_checked((double)a / k, DS, o, err, a, k, "/");
}
static bool iv_ym_div_d(int64_t a, double k, int64_t *o, sqe_error *err) {
    if (k == 0) return sqe_error_set(err, SQE_ERR_DIVISION_BY_ZERO, "division by zero");
    return iv_scale_checked((double)a / k, YM, o, err, a, k, "/");
}

static SQE_KERNEL(iv_neg) {
    const int64_t *x = SQE_VEC_DATA(args[0], int64_t);
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    bool nulls = sqe_func_propagate_nulls(args, 1, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        if (x[row] == INT64_MIN) return iv_range(err, "interval", DS, 0, "-", DS, x[row]);
        o[row] = -x[row]; /* months stay within int32 (INT32_MIN is refused at creation) */
    });
    return true;
}

/* Fields of an interval (Trino's DateTimeFunctions): day = millis / day,
 * hour/minute/second/millisecond the remainder within the next unit up,
 * year = months / 12, month = months % 12 (Java's truncating / and %, so
 * a negative interval gives negative fields); to_milliseconds the millis. */
typedef enum {
    IVF_DAY,
    IVF_HOUR,
    IVF_MINUTE,
    IVF_SECOND,
    IVF_MILLI,
    IVF_YEAR,
    IVF_MONTH,
    IVF_MS
} iv_field_id;

static int64_t iv_field_value(int64_t v, iv_field_id f) {
    switch (f) {
    case IVF_DAY:
        return v / IV_MS_PER_DAY;
    case IVF_HOUR:
        return v % IV_MS_PER_DAY / 3600000;
    case IVF_MINUTE:
        return v % 3600000 / 60000;
    case IVF_SECOND:
        return v % 60000 / 1000;
    case IVF_MILLI:
        return v % 1000;
    case IVF_YEAR:
        return v / 12;
    case IVF_MONTH:
        return v % 12;
    default:
        return v;
    }
}

static const struct {
    const char *name;
    iv_field_id f;
} k_iv_fields[] = {{"day", IVF_DAY},       {"day_of_month", IVF_DAY}, {"hour", IVF_HOUR},
                   {"minute", IVF_MINUTE}, {"second", IVF_SECOND},    {"millisecond", IVF_MILLI},
                   {"year", IVF_YEAR},     {"month", IVF_MONTH},      {"to_milliseconds", IVF_MS}};

static bool iv_bind_field(const sqe_func_sig *sig, sqe_arena *arena, sqe_func_binding *b,
                          const sqe_value *const *const_args, sqe_error *err) {
    for (size_t i = 0; i < SQE_ARRAY_LEN(k_iv_fields); i++) {
        if (strcmp(k_iv_fields[i].name, sig->name) == 0) {
            b->data = (void *)(intptr_t)k_iv_fields[i].f;
            return true;
        }
    }
    return sqe_error_set(err, SQE_ERR_INTERNAL, "no interval field %s", sig->name);
}

static SQE_KERNEL(iv_field) {
    iv_field_id f = (iv_field_id)(intptr_t)b->data;
    const int64_t *x = SQE_VEC_DATA(args[0], int64_t);
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    sqe_func_propagate_nulls(args, 1, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, o[row] = iv_field_value(x[row], f););
    return true;
}

/* timestamp(p) +/- interval is timestamp(max(3, p)) (Trino); plain stays plain. */
static bool iv_bind_ts(const sqe_func_sig *sig, sqe_arena *arena, sqe_func_binding *b,
                       const sqe_value *const *const_args, sqe_error *err) {
    sqe_type t = b->arg_types[b->arg_types[0].id == b->ret.id ? 0 : 1];
    if (t.id == SQE_T_TIME) {
        int tp = sqe_time_precision(t);
        b->ret = sqe_type_time(tp < 3 ? 3 : tp);
        return true;
    }
    int p = sqe_timestamp_precision(t);
    b->ret = p < 0 ? t : sqe_type_timestamp(p < 3 ? 3 : p);
    return true;
}

/* ----------------------------------------------------------- kernels */

#define IV_BIN(NAME, TA, TB, TO, FN)                                                               \
    static SQE_KERNEL(NAME) {                                                                      \
        const TA *x = SQE_VEC_DATA(args[0], TA);                                                   \
        const TB *y = SQE_VEC_DATA(args[1], TB);                                                   \
        TO *o = SQE_VEC_DATA(out, TO);                                                             \
        bool nulls = sqe_func_propagate_nulls(args, 2, sel, n, out);                               \
        SQE_FOR_ROWS(sel, n, row, {                                                                \
            if (nulls && !sqe_func_row_valid(out, row)) continue;                                  \
            if (!FN(x[row], y[row], &o[row], err)) return false;                                   \
        });                                                                                        \
        return true;                                                                               \
    }

IV_BIN(k_ds_add, int64_t, int64_t, int64_t, iv_ds_add)
IV_BIN(k_ds_sub, int64_t, int64_t, int64_t, iv_ds_sub)
IV_BIN(k_ym_add, int64_t, int64_t, int64_t, iv_ym_add)
IV_BIN(k_ym_sub, int64_t, int64_t, int64_t, iv_ym_sub)
IV_BIN(k_date_add_ds, int32_t, int64_t, int32_t, iv_date_add_ds)
IV_BIN(k_ds_add_date, int64_t, int32_t, int32_t, iv_ds_add_date)
IV_BIN(k_date_sub_ds, int32_t, int64_t, int32_t, iv_date_sub_ds)
IV_BIN(k_date_add_ym, int32_t, int64_t, int32_t, iv_date_add_ym)
IV_BIN(k_ym_add_date, int64_t, int32_t, int32_t, iv_ym_add_date)
IV_BIN(k_date_sub_ym, int32_t, int64_t, int32_t, iv_date_sub_ym)
IV_BIN(k_ts_add_ds, int64_t, int64_t, int64_t, iv_ts_add_ds)
IV_BIN(k_ds_add_ts, int64_t, int64_t, int64_t, iv_ds_add_ts)
IV_BIN(k_ts_sub_ds, int64_t, int64_t, int64_t, iv_ts_sub_ds)
IV_BIN(k_ts_add_ym, int64_t, int64_t, int64_t, iv_ts_add_ym)
IV_BIN(k_ym_add_ts, int64_t, int64_t, int64_t, iv_ym_add_ts)
IV_BIN(k_ts_sub_ym, int64_t, int64_t, int64_t, iv_ts_sub_ym)
IV_BIN(k_ts_sub_ts, int64_t, int64_t, int64_t, iv_ts_sub_ts)
IV_BIN(k_tz_add_ds, int64_t, int64_t, int64_t, iv_tz_add_ds)
IV_BIN(k_ds_add_tz, int64_t, int64_t, int64_t, iv_ds_add_tz)
IV_BIN(k_tz_sub_ds, int64_t, int64_t, int64_t, iv_tz_sub_ds)
IV_BIN(k_tz_add_ym, int64_t, int64_t, int64_t, iv_tz_add_ym)
IV_BIN(k_ym_add_tz, int64_t, int64_t, int64_t, iv_ym_add_tz)
IV_BIN(k_tz_sub_ym, int64_t, int64_t, int64_t, iv_tz_sub_ym)
IV_BIN(k_tz_sub_tz, int64_t, int64_t, int64_t, iv_tz_sub_tz)
IV_BIN(k_time_add_ds, int64_t, int64_t, int64_t, iv_time_add_ds)
IV_BIN(k_ds_add_time, int64_t, int64_t, int64_t, iv_ds_add_time)
IV_BIN(k_time_sub_ds, int64_t, int64_t, int64_t, iv_time_sub_ds)
IV_BIN(k_ds_mul_i, int64_t, int64_t, int64_t, iv_ds_mul_i)
IV_BIN(k_i_mul_ds, int64_t, int64_t, int64_t, iv_i_mul_ds)
IV_BIN(k_ym_mul_i, int64_t, int64_t, int64_t, iv_ym_mul_i)
IV_BIN(k_i_mul_ym, int64_t, int64_t, int64_t, iv_i_mul_ym)
IV_BIN(k_ds_mul_d, int64_t, double, int64_t, iv_ds_mul_d)
IV_BIN(k_d_mul_ds, double, int64_t, int64_t, iv_d_mul_ds)
IV_BIN(k_ym_mul_d, int64_t, double, int64_t, iv_ym_mul_d)
IV_BIN(k_d_mul_ym, double, int64_t, int64_t, iv_d_mul_ym)
IV_BIN(k_ds_div_d, int64_t, double, int64_t, iv_ds_div_d)
IV_BIN(k_ym_div_d, int64_t, double, int64_t, iv_ym_div_d)

/* --------------------------------------------------------------- table */

#define DT SQE_T_DATE
#define TS SQE_T_TIMESTAMP
#define BI SQE_T_BIGINT
#define DB SQE_T_DOUBLE
#define TM SQE_T_TIME
#define TZ SQE_T_TIMESTAMP_TZ
#define OP2(NAME, A, B, R, K)                                                                      \
    { NAME, 2, false, {A, B}, R, K, R == TS || R == TM ? iv_bind_ts : NULL }

/* Same-kind interval pairs first, so `interval + NULL` picks them. */
static const sqe_func_sig k_sigs[] = {
    OP2("+", DS, DS, DS, k_ds_add),
    OP2("+", YM, YM, YM, k_ym_add),
    OP2("-", DS, DS, DS, k_ds_sub),
    OP2("-", YM, YM, YM, k_ym_sub),
    {"-", 1, false, {DS}, DS, iv_neg, NULL},
    {"-", 1, false, {YM}, YM, iv_neg, NULL},
    OP2("+", DT, DS, DT, k_date_add_ds),
    OP2("+", DS, DT, DT, k_ds_add_date),
    OP2("-", DT, DS, DT, k_date_sub_ds),
    OP2("+", DT, YM, DT, k_date_add_ym),
    OP2("+", YM, DT, DT, k_ym_add_date),
    OP2("-", DT, YM, DT, k_date_sub_ym),
    OP2("+", TS, DS, TS, k_ts_add_ds),
    OP2("+", DS, TS, TS, k_ds_add_ts),
    OP2("-", TS, DS, TS, k_ts_sub_ds),
    OP2("+", TS, YM, TS, k_ts_add_ym),
    OP2("+", YM, TS, TS, k_ym_add_ts),
    OP2("-", TS, YM, TS, k_ts_sub_ym),
    OP2("-", TS, TS, DS, k_ts_sub_ts),
    OP2("+", TZ, DS, TZ, k_tz_add_ds),
    OP2("+", DS, TZ, TZ, k_ds_add_tz),
    OP2("-", TZ, DS, TZ, k_tz_sub_ds),
    OP2("+", TZ, YM, TZ, k_tz_add_ym),
    OP2("+", YM, TZ, TZ, k_ym_add_tz),
    OP2("-", TZ, YM, TZ, k_tz_sub_ym),
    OP2("-", TZ, TZ, DS, k_tz_sub_tz),
    OP2("+", TM, DS, TM, k_time_add_ds),
    OP2("+", DS, TM, TM, k_ds_add_time),
    OP2("-", TM, DS, TM, k_time_sub_ds),
    OP2("-", TM, TM, DS, k_ts_sub_ts),
    OP2("*", DS, BI, DS, k_ds_mul_i),
    OP2("*", BI, DS, DS, k_i_mul_ds),
    OP2("*", YM, BI, YM, k_ym_mul_i),
    OP2("*", BI, YM, YM, k_i_mul_ym),
    OP2("*", DS, DB, DS, k_ds_mul_d),
    OP2("*", DB, DS, DS, k_d_mul_ds),
    OP2("*", YM, DB, YM, k_ym_mul_d),
    OP2("*", DB, YM, YM, k_d_mul_ym),
    OP2("/", DS, DB, DS, k_ds_div_d),
    OP2("/", YM, DB, YM, k_ym_div_d),
    {"day", 1, false, {DS}, BI, iv_field, iv_bind_field},
    {"day_of_month", 1, false, {DS}, BI, iv_field, iv_bind_field},
    {"hour", 1, false, {DS}, BI, iv_field, iv_bind_field},
    {"minute", 1, false, {DS}, BI, iv_field, iv_bind_field},
    {"second", 1, false, {DS}, BI, iv_field, iv_bind_field},
    {"millisecond", 1, false, {DS}, BI, iv_field, iv_bind_field},
    {"to_milliseconds", 1, false, {DS}, BI, iv_field, iv_bind_field},
    {"year", 1, false, {YM}, BI, iv_field, iv_bind_field},
    {"month", 1, false, {YM}, BI, iv_field, iv_bind_field},
};

SQE_FUNC_TABLE(sqe_func_interval_table, k_sigs);
