/*
 * datetime.c - DATE and TIMESTAMP functions: field extraction (year,
 * quarter, month, week, day, day_of_week, day_of_year, hour, minute,
 * second, millisecond, year_of_week), current_date / now /
 * current_timestamp / localtimestamp, date_trunc, date_add, date_diff,
 * last_day_of_month, from_unixtime, to_unixtime.
 *
 * DATE is int32 days and TIMESTAMP int64 microseconds since the epoch, both
 * without a time zone (UTC arithmetic). Fields of a TIMESTAMP WITH TIME
 * ZONE are those of its wall time in its zone; fields of a TIME those of
 * its microseconds of the day. date_add/date_trunc keep the timestamp(p) of
 * their input (rounding what does not fit); the current-time functions
 * return timestamp(3) / time(3). Days and times of day are split with
 * floor division so instants before 1970 land on the right day.
 *
 * Semantics follow Trino (which follows Joda-Time): day_of_week is ISO
 * (Monday = 1); week is the ISO week (the week of the Thursday); date_add
 * with months clamps the day to the month's length (Jan 31 + 1 month = Feb
 * 28/29); date_diff counts whole units from the first argument to the
 * second: fixed-size units by truncating division, months/quarters/years by
 * Joda's field difference (a month is complete when the day-of-month and
 * time of day are reached again, with the end-of-month rule). Sub-day units
 * on a DATE are an error, as in Trino: "'hour' is not a valid DATE field".
 *
 * The current time functions read the wall clock once, at bind time, so
 * every row and batch of a statement sees the same instant; the binder
 * then calls sqe_func_fix_statement so that every call in the statement
 * shares the planner's one instant (`now() = current_timestamp` is true)
 * and sees it in the session time zone (b->zone): now()/current_timestamp
 * carry that zone, localtimestamp/localtime/current_date are the wall
 * time there. from_unixtime(x) is in the session zone and to_unixtime of a
 * plain timestamp reads it there (Trino's coercion to timestamp with time
 * zone). current_time (time with time zone in Trino) is NOT_SUPPORTED.
 */
#include "func/func_int.h"

#include <math.h>
#include <stdio.h>

typedef enum {
    U_MILLISECOND,
    U_SECOND,
    U_MINUTE,
    U_HOUR,
    U_DAY,
    U_WEEK,
    U_MONTH,
    U_QUARTER,
    U_YEAR,
    U__COUNT
} time_unit;

static const char *const k_unit_names[U__COUNT] = {
    "millisecond", "second", "minute", "hour", "day", "week", "month", "quarter", "year"};
static const int64_t k_unit_micros[U_MONTH] = {1000LL,
                                               SQE_MICROS_PER_SECOND,
                                               60 * SQE_MICROS_PER_SECOND,
                                               3600 * SQE_MICROS_PER_SECOND,
                                               SQE_MICROS_PER_DAY,
                                               7 * SQE_MICROS_PER_DAY};

/* ---------------------------------------------------------- calendar */

static bool is_leap(int64_t y) {
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int days_in_month(int64_t y, int m) {
    static const int k_days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && is_leap(y) ? 29 : k_days[m - 1];
}

static int iso_dow(int64_t days) {
    return (int)sqe_floor_mod(days + 3, 7) + 1;
}

/* ISO week number; *week_year gets the ISO week-numbering year. */
static int iso_week(int64_t days, int *week_year) {
    int64_t thursday = days - iso_dow(days) + 4;
    int y, m, d;
    sqe_date_to_ymd((int32_t)thursday, &y, &m, &d);
    if (week_year) *week_year = y;
    return (int)((thursday - sqe_date_from_ymd(y, 1, 1)) / 7) + 1;
}

typedef enum {
    F_YEAR,
    F_QUARTER,
    F_MONTH,
    F_WEEK,
    F_DAY,
    F_DOW,
    F_DOY,
    F_YOW,
    F_HOUR,
    F_MINUTE,
    F_SECOND,
    F_MILLISECOND,
} field_id;

static int64_t date_field(int64_t days, field_id f) {
    int y, m, d;
    switch (f) {
    case F_DOW:
        return iso_dow(days);
    case F_WEEK:
        return iso_week(days, NULL);
    case F_YOW: {
        int wy;
        iso_week(days, &wy);
        return wy;
    }
    default:
        break;
    }
    sqe_date_to_ymd((int32_t)days, &y, &m, &d);
    switch (f) {
    case F_YEAR:
        return y;
    case F_QUARTER:
        return (m - 1) / 3 + 1;
    case F_MONTH:
        return m;
    case F_DAY:
        return d;
    case F_DOY:
        return days - sqe_date_from_ymd(y, 1, 1) + 1;
    default:
        return 0;
    }
}

static int64_t timestamp_field(int64_t us, field_id f) {
    int64_t tod = sqe_floor_mod(us, SQE_MICROS_PER_DAY);
    switch (f) {
    case F_HOUR:
        return tod / (3600 * SQE_MICROS_PER_SECOND);
    case F_MINUTE:
        return tod / (60 * SQE_MICROS_PER_SECOND) % 60;
    case F_SECOND:
        return tod / SQE_MICROS_PER_SECOND % 60;
    case F_MILLISECOND:
        return tod / 1000 % 1000;
    default:
        return date_field(sqe_floor_div(us, SQE_MICROS_PER_DAY), f);
    }
}

/* ---------------------------------------------------- field extraction */

static SQE_KERNEL(extract_date) {
    field_id f = (field_id)(intptr_t)b->data;
    const int32_t *x = SQE_VEC_DATA(args[0], int32_t);
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    bool nulls = sqe_func_propagate_nulls(args, 1, sel, n, out);
    if (f == F_YEAR || f == F_MONTH || f == F_DAY) {
        SQE_FOR_ROWS(sel, n, row, {
            if (nulls && !sqe_func_row_valid(out, row)) continue;
            int y, m, d;
            sqe_date_to_ymd(x[row], &y, &m, &d);
            o[row] = f == F_YEAR ? y : f == F_MONTH ? m : d;
        });
        return true;
    }
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        o[row] = date_field(x[row], f);
    });
    return true;
}

static SQE_KERNEL(extract_ts) {
    field_id f = (field_id)(intptr_t)b->data;
    const int64_t *x = SQE_VEC_DATA(args[0], int64_t);
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    bool nulls = sqe_func_propagate_nulls(args, 1, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        o[row] = timestamp_field(x[row], f);
    });
    return true;
}

/* Fields of a TIMESTAMP WITH TIME ZONE: of its wall time in its zone. */
static SQE_KERNEL(extract_tstz) {
    field_id f = (field_id)(intptr_t)b->data;
    const int64_t *x = SQE_VEC_DATA(args[0], int64_t);
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    sqe_func_propagate_nulls(args, 1, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, o[row] = timestamp_field(sqe_tstz_local_micros(x[row]), f););
    return true;
}

static const struct {
    const char *name;
    field_id f;
} k_fields[] = {
    {"year", F_YEAR},
    {"quarter", F_QUARTER},
    {"month", F_MONTH},
    {"week", F_WEEK},
    {"week_of_year", F_WEEK},
    {"day", F_DAY},
    {"day_of_month", F_DAY},
    {"day_of_week", F_DOW},
    {"dow", F_DOW},
    {"day_of_year", F_DOY},
    {"doy", F_DOY},
    {"year_of_week", F_YOW},
    {"yow", F_YOW},
    {"hour", F_HOUR},
    {"minute", F_MINUTE},
    {"second", F_SECOND},
    {"millisecond", F_MILLISECOND},
};

static bool bind_extract(const sqe_func_sig *sig, sqe_arena *arena, sqe_func_binding *b,
                         const sqe_value *const *const_args, sqe_error *err) {
    for (size_t i = 0; i < SQE_ARRAY_LEN(k_fields); i++) {
        if (strcmp(k_fields[i].name, sig->name) == 0) {
            b->data = (void *)(intptr_t)k_fields[i].f;
            return true;
        }
    }
    return sqe_error_set(err, SQE_ERR_INTERNAL, "no field for %s", sig->name);
}

/* -------------------------------------------------------- current time */

static SQE_KERNEL(fill_i32) {
    int32_t v = (int32_t) * (const int64_t *)b->data;
    int32_t *o = SQE_VEC_DATA(out, int32_t);
    sqe_func_set_all_valid(out, sel, n);
    SQE_FOR_ROWS(sel, n, row, o[row] = v;);
    return true;
}

static SQE_KERNEL(fill_i64) {
    int64_t v = *(const int64_t *)b->data;
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    sqe_func_set_all_valid(out, sel, n);
    SQE_FOR_ROWS(sel, n, row, o[row] = v;);
    return true;
}

/* The value a current-time binding returns for the instant `us` (UTC,
 * whole milliseconds) in the session zone b->zone: now()/current_timestamp
 * the instant in that zone, localtimestamp/localtime/current_date its wall
 * time, time of day and date there. */
static int64_t clock_value(const sqe_func_binding *b, int64_t us) {
    int64_t ms = sqe_floor_div(us, 1000), local = us;
    if (b->ret.id == SQE_T_TIMESTAMP_TZ) return sqe_tstz_pack(ms, b->zone);
    if (b->zone) local = sqe_tstz_local_micros(sqe_tstz_pack(ms, b->zone));
    if (b->ret.id == SQE_T_DATE) return sqe_floor_div(local, SQE_MICROS_PER_DAY);
    if (b->ret.id == SQE_T_TIME) return sqe_floor_mod(local, SQE_MICROS_PER_DAY);
    return local;
}

static bool bind_now(const sqe_func_sig *sig, sqe_arena *arena, sqe_func_binding *b,
                     const sqe_value *const *const_args, sqe_error *err) {
    int64_t *v = sqe_arena_alloc(arena, sizeof *v);
    int64_t us = sqe_clock_wall_us();
    if (b->ret.id == SQE_T_TIMESTAMP) b->ret = sqe_type_timestamp(3); /* Trino: timestamp(3) */
    if (b->ret.id == SQE_T_TIME) b->ret = sqe_type_time(3);
    /* now() and current_timestamp are timestamp(3) with time zone (the session zone). */
    if (strcmp(sig->name, "now") == 0 || strcmp(sig->name, "current_timestamp") == 0)
        b->ret = sqe_type_make(SQE_T_TIMESTAMP_TZ);
    b->data = v;
    *v = clock_value(b, sqe_floor_div(us, 1000) * 1000);
    return true;
}

/* current_time is time(3) with time zone in Trino, a type sqe lacks. */
static bool bind_current_time(const sqe_func_sig *sig, sqe_arena *arena, sqe_func_binding *b,
                              const sqe_value *const *const_args, sqe_error *err) {
    return sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                         "current_time returns time with time zone, which is not supported yet "
                         "(localtime gives the time of day in the session zone)");
}

void sqe_func_fix_statement(sqe_func_binding *b, sqe_func_stmt *st) {
    b->zone = st->zone;
    if (b->kernel != fill_i32 && b->kernel != fill_i64) return;
    if (st->clock == INT64_MIN) st->clock = sqe_floor_div(sqe_clock_wall_us(), 1000) * 1000;
    *(int64_t *)b->data = clock_value(b, st->clock);
}

/* -------------------------------------------------------------- units */

static bool parse_unit(const char *p, size_t n, bool is_date, time_unit *out, sqe_error *err) {
    for (int u = 0; u < U__COUNT; u++) {
        if (strlen(k_unit_names[u]) == n && sqe_str_ieqn(p, k_unit_names[u], n)) {
            if (is_date && u < U_DAY)
                return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                     "'%.*s' is not a valid DATE field", (int)n, p);
            *out = (time_unit)u;
            return true;
        }
    }
    return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT, "'%.*s' is not a valid %s field",
                         (int)SQE_MIN(n, 100), p, is_date ? "DATE" : "Timestamp");
}

/* A constant unit (argument 0) parsed at bind time; b->data = unit + 1. */
static bool bind_unit(const sqe_func_sig *sig, sqe_arena *arena, sqe_func_binding *b,
                      const sqe_value *const *const_args, sqe_error *err) {
    if (b->ret.id == SQE_T_TIMESTAMP) b->ret = b->arg_types[b->n_args - 1]; /* same precision */
    if (!const_args || !const_args[0] || const_args[0]->is_null ||
        const_args[0]->type.id != SQE_T_VARCHAR)
        return true;
    bool is_date = b->arg_types[b->n_args - 1].id == SQE_T_DATE;
    time_unit u;
    if (!parse_unit(const_args[0]->v.s.ptr, const_args[0]->v.s.len, is_date, &u, err)) return false;
    b->data = (void *)(intptr_t)(u + 1);
    return true;
}

/* The unit for a row: the constant one, or argument 0 parsed. */
static bool row_unit(const sqe_func_binding *b, sqe_vector *const *args, uint32_t row, bool is_date,
                     time_unit *u, sqe_error *err) {
    if (b->data) {
        *u = (time_unit)((intptr_t)b->data - 1);
        return true;
    }
    uint32_t len;
    const char *p = sqe_func_str(args[0], row, &len);
    return parse_unit(p, len, is_date, u, err);
}

/* --------------------------------------------------------- date_trunc */

static int64_t trunc_days(int64_t days, time_unit u) {
    int y, m, d;
    switch (u) {
    case U_WEEK:
        return days - (iso_dow(days) - 1);
    case U_MONTH:
        sqe_date_to_ymd((int32_t)days, &y, &m, &d);
        return sqe_date_from_ymd(y, m, 1);
    case U_QUARTER:
        sqe_date_to_ymd((int32_t)days, &y, &m, &d);
        return sqe_date_from_ymd(y, (m - 1) / 3 * 3 + 1, 1);
    case U_YEAR:
        sqe_date_to_ymd((int32_t)days, &y, &m, &d);
        return sqe_date_from_ymd(y, 1, 1);
    default:
        return days;
    }
}

static SQE_KERNEL(trunc_date) {
    const int32_t *x = SQE_VEC_DATA(args[1], int32_t);
    int32_t *o = SQE_VEC_DATA(out, int32_t);
    bool nulls = sqe_func_propagate_nulls(args, 2, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        time_unit u;
        if (!row_unit(b, args, row, true, &u, err)) return false;
        o[row] = (int32_t)trunc_days(x[row], u);
    });
    return true;
}

/* Truncates microseconds to the unit; false on overflow. */
static bool trunc_micros(int64_t us, time_unit u, int64_t *out) {
    if (u < U_DAY)
        return !__builtin_mul_overflow(sqe_floor_div(us, k_unit_micros[u]), k_unit_micros[u], out);
    return !__builtin_mul_overflow(trunc_days(sqe_floor_div(us, SQE_MICROS_PER_DAY), u),
                                   SQE_MICROS_PER_DAY, out);
}

static SQE_KERNEL(trunc_ts) {
    const int64_t *x = SQE_VEC_DATA(args[1], int64_t);
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    bool tz = b->ret.id == SQE_T_TIMESTAMP_TZ; /* truncated on the wall time, same zone */
    bool nulls = sqe_func_propagate_nulls(args, 2, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        time_unit u;
        if (!row_unit(b, args, row, false, &u, err)) return false;
        int64_t us = tz ? sqe_tstz_local_micros(x[row]) : x[row], r;
        bool ok = trunc_micros(us, u, &r);
        if (ok && tz) ok = sqe_tstz_from_local(r, sqe_tstz_key(x[row]), &r);
        if (SQE_UNLIKELY(!ok))
            return sqe_error_set(err, SQE_ERR_OUT_OF_RANGE, "date_trunc result out of range");
        o[row] = r;
    });
    return true;
}

/* ----------------------------------------------------------- date_add */

#define MAX_YEAR 5000000 /* keeps every date inside int32 days */

/* Adds n months to a day number, clamping the day of month (func_int.h). */
bool sqe_func_add_months(int64_t days, int64_t n, int64_t *out) {
    int y, m, d;
    sqe_date_to_ymd((int32_t)days, &y, &m, &d);
    int64_t total;
    if (__builtin_add_overflow((int64_t)y * 12 + (m - 1), n, &total)) return false;
    int64_t ny = sqe_floor_div(total, 12);
    int nm = (int)sqe_floor_mod(total, 12) + 1;
    if (ny > MAX_YEAR || ny < -MAX_YEAR) return false;
    int nd = SQE_MIN(d, days_in_month(ny, nm));
    *out = sqe_date_from_ymd((int)ny, nm, nd);
    return true;
}

static bool add_overflow_error(sqe_error *err, const char *what) {
    return sqe_error_set(err, SQE_ERR_OUT_OF_RANGE, "%s out of range in date_add", what);
}

static SQE_KERNEL(add_date) {
    const int64_t *k = SQE_VEC_DATA(args[1], int64_t);
    const int32_t *x = SQE_VEC_DATA(args[2], int32_t);
    int32_t *o = SQE_VEC_DATA(out, int32_t);
    bool nulls = sqe_func_propagate_nulls(args, 3, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        time_unit u;
        if (!row_unit(b, args, row, true, &u, err)) return false;
        int64_t r, delta = k[row];
        bool ok;
        switch (u) {
        case U_DAY:
        case U_WEEK:
            ok = !__builtin_mul_overflow(delta, u == U_WEEK ? 7 : 1, &delta) &&
                 !__builtin_add_overflow((int64_t)x[row], delta, &r);
            break;
        default: {
            int64_t months;
            ok = !__builtin_mul_overflow(delta,
                                         u == U_MONTH     ? 1
                                         : u == U_QUARTER ? 3
                                                          : 12,
                                         &months) &&
                 sqe_func_add_months(x[row], months, &r);
            break;
        }
        }
        if (!ok || r < INT32_MIN || r > INT32_MAX) return add_overflow_error(err, "date");
        o[row] = (int32_t)r;
    });
    return true;
}

/* Adds k units to microseconds; false on overflow. */
static bool add_micros(int64_t us, time_unit u, int64_t k, int64_t *out) {
    int64_t r = 0, delta;
    bool ok;
    if (u < U_MONTH) {
        ok = !__builtin_mul_overflow(k, k_unit_micros[u], &delta) &&
             !__builtin_add_overflow(us, delta, &r);
    } else {
        int64_t months, days = sqe_floor_div(us, SQE_MICROS_PER_DAY), nd;
        int64_t tod = us - days * SQE_MICROS_PER_DAY;
        ok = !__builtin_mul_overflow(k,
                                     u == U_MONTH     ? 1
                                     : u == U_QUARTER ? 3
                                                      : 12,
                                     &months) &&
             sqe_func_add_months(days, months, &nd) &&
             !__builtin_mul_overflow(nd, SQE_MICROS_PER_DAY, &r) &&
             !__builtin_add_overflow(r, tod, &r);
    }
    *out = r;
    return ok;
}

/* Zoned values: units below a day move the instant, larger ones the wall
 * time in the value's zone (Joda's zoned chronology, as Trino). */
static bool add_tstz(int64_t v, time_unit u, int64_t k, int64_t *out) {
    uint16_t key = sqe_tstz_key(v);
    if (u < U_DAY) {
        int64_t r;
        if (!add_micros(sqe_tstz_millis(v) * 1000, u, k, &r)) return false;
        int64_t ms = sqe_floor_div(r, 1000);
        if (ms <= -SQE_TSTZ_MAX_MILLIS || ms >= SQE_TSTZ_MAX_MILLIS) return false;
        *out = sqe_tstz_pack(ms, key);
        return true;
    }
    int64_t local;
    return add_micros(sqe_tstz_local_micros(v), u, k, &local) &&
           sqe_tstz_from_local(local, key, out);
}

static SQE_KERNEL(add_ts) {
    int p = sqe_timestamp_precision(b->ret); /* results keep the input's digits, rounded */
    bool tz = b->ret.id == SQE_T_TIMESTAMP_TZ;
    const int64_t *k = SQE_VEC_DATA(args[1], int64_t);
    const int64_t *x = SQE_VEC_DATA(args[2], int64_t);
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    bool nulls = sqe_func_propagate_nulls(args, 3, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        time_unit u;
        if (!row_unit(b, args, row, false, &u, err)) return false;
        int64_t r;
        bool ok = tz ? add_tstz(x[row], u, k[row], &r)
                     : add_micros(x[row], u, k[row], &r) && sqe_timestamp_round(r, p, &r);
        if (!ok) return add_overflow_error(err, "timestamp");
        o[row] = r;
    });
    return true;
}

/* ---------------------------------------------------------- date_diff */

/* An instant split into a day number and microseconds into that day, so
 * DATE arguments (any int32 day) never overflow a microsecond count. */
typedef struct instant {
    int64_t days, tod;
} instant;

static instant instant_of_micros(int64_t us) {
    instant t;
    t.days = sqe_floor_div(us, SQE_MICROS_PER_DAY);
    t.tod = us - t.days * SQE_MICROS_PER_DAY;
    return t;
}

static bool instant_less(instant a, instant b) {
    return a.days < b.days || (a.days == b.days && a.tod < b.tod);
}

/* Joda's month difference from a to b. */
static int64_t months_between(instant a, instant b) {
    if (instant_less(b, a)) return -months_between(b, a);
    int ay, am, ad, by, bm, bd;
    sqe_date_to_ymd((int32_t)a.days, &ay, &am, &ad);
    sqe_date_to_ymd((int32_t)b.days, &by, &bm, &bd);
    int64_t diff = ((int64_t)by - ay) * 12 + bm - am;
    if (bd == days_in_month(by, bm) && ad > bd) ad = bd; /* end-of-month rule */
    /* Position inside the month: (day - 1, time of day), compared in order. */
    if (bd < ad || (bd == ad && b.tod < a.tod)) diff--;
    return diff;
}

/* Joda's year difference from a to b. */
static int64_t years_between(instant a, instant b) {
    if (instant_less(b, a)) return -years_between(b, a);
    int ay, am, ad, by, bm, bd;
    sqe_date_to_ymd((int32_t)a.days, &ay, &am, &ad);
    sqe_date_to_ymd((int32_t)b.days, &by, &bm, &bd);
    /* Position inside the year as (day of year - 1, time of day); Joda
     * evens out Feb 29 when exactly one of the two years is a leap year. */
    int64_t rem_a = a.days - sqe_date_from_ymd(ay, 1, 1),
            rem_b = b.days - sqe_date_from_ymd(by, 1, 1);
    const int64_t feb29 = 59;
    if (rem_a >= feb29) {
        if (is_leap(ay)) {
            if (!is_leap(by)) rem_a -= 1;
        } else if (is_leap(by)) {
            rem_b -= 1;
        }
    }
    int64_t diff = (int64_t)by - ay;
    if (rem_b < rem_a || (rem_b == rem_a && b.tod < a.tod)) diff--;
    return diff;
}

static bool diff_instants(time_unit u, instant a, instant b, int64_t *out) {
    switch (u) {
    case U_MONTH:
        *out = months_between(a, b);
        return true;
    case U_QUARTER:
        *out = months_between(a, b) / 3;
        return true;
    case U_YEAR:
        *out = years_between(a, b);
        return true;
    default: {
        int64_t da, db, d;
        if (__builtin_mul_overflow(a.days, SQE_MICROS_PER_DAY, &da) ||
            __builtin_add_overflow(da, a.tod, &da) ||
            __builtin_mul_overflow(b.days, SQE_MICROS_PER_DAY, &db) ||
            __builtin_add_overflow(db, b.tod, &db) || __builtin_sub_overflow(db, da, &d))
            return false;
        *out = d / k_unit_micros[u];
        return true;
    }
    }
}

static SQE_KERNEL(diff_date) {
    const int32_t *x = SQE_VEC_DATA(args[1], int32_t), *y = SQE_VEC_DATA(args[2], int32_t);
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    bool nulls = sqe_func_propagate_nulls(args, 3, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        time_unit u;
        if (!row_unit(b, args, row, true, &u, err)) return false;
        if (u == U_DAY) {
            o[row] = (int64_t)y[row] - x[row];
        } else if (u == U_WEEK) {
            o[row] = ((int64_t)y[row] - x[row]) / 7;
        } else {
            instant a = {x[row], 0}, c = {y[row], 0};
            diff_instants(u, a, c, &o[row]);
        }
    });
    return true;
}

/* Zoned values: units below a day count between instants, larger ones
 * between wall times in the first value's zone (Joda, as Trino). */
static SQE_KERNEL(diff_tstz) {
    const int64_t *x = SQE_VEC_DATA(args[1], int64_t), *y = SQE_VEC_DATA(args[2], int64_t);
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    bool nulls = sqe_func_propagate_nulls(args, 3, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        time_unit u;
        if (!row_unit(b, args, row, false, &u, err)) return false;
        int64_t a = sqe_tstz_millis(x[row]) * 1000, c = sqe_tstz_millis(y[row]) * 1000;
        if (u >= U_DAY) {
            uint16_t key = sqe_tstz_key(x[row]);
            a += (int64_t)sqe_tz_offset(key, sqe_floor_div(a, SQE_MICROS_PER_SECOND)) * 1000000;
            c += (int64_t)sqe_tz_offset(key, sqe_floor_div(c, SQE_MICROS_PER_SECOND)) * 1000000;
        }
        if (!diff_instants(u, instant_of_micros(a), instant_of_micros(c), &o[row]))
            return sqe_error_set(err, SQE_ERR_OUT_OF_RANGE, "date_diff result out of range");
    });
    return true;
}

static SQE_KERNEL(diff_ts) {
    const int64_t *x = SQE_VEC_DATA(args[1], int64_t), *y = SQE_VEC_DATA(args[2], int64_t);
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    bool nulls = sqe_func_propagate_nulls(args, 3, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        time_unit u;
        if (!row_unit(b, args, row, false, &u, err)) return false;
        if (!diff_instants(u, instant_of_micros(x[row]), instant_of_micros(y[row]), &o[row]))
            return sqe_error_set(err, SQE_ERR_OUT_OF_RANGE, "date_diff result out of range");
    });
    return true;
}

/* ------------------------------------------------------------ others */

static SQE_KERNEL(last_day_date) {
    const int32_t *x = SQE_VEC_DATA(args[0], int32_t);
    int32_t *o = SQE_VEC_DATA(out, int32_t);
    bool nulls = sqe_func_propagate_nulls(args, 1, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        int y, m, d;
        sqe_date_to_ymd(x[row], &y, &m, &d);
        o[row] = sqe_date_from_ymd(y, m, days_in_month(y, m));
    });
    return true;
}

static SQE_KERNEL(last_day_ts) {
    const int64_t *x = SQE_VEC_DATA(args[0], int64_t);
    int32_t *o = SQE_VEC_DATA(out, int32_t);
    bool nulls = sqe_func_propagate_nulls(args, 1, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        int y, m, d;
        sqe_date_to_ymd((int32_t)sqe_floor_div(x[row], SQE_MICROS_PER_DAY), &y, &m, &d);
        o[row] = sqe_date_from_ymd(y, m, days_in_month(y, m));
    });
    return true;
}

static SQE_KERNEL(from_unixtime_kernel) {
    const double *x = SQE_VEC_DATA(args[0], double);
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    bool nulls = sqe_func_propagate_nulls(args, 1, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        double ms = floor(x[row] * 1000 + 0.5); /* Trino: Math.round(unixtime * 1000) */
        if (!(ms > -(double)SQE_TSTZ_MAX_MILLIS && ms < (double)SQE_TSTZ_MAX_MILLIS))
            return sqe_error_set(err, SQE_ERR_OUT_OF_RANGE,
                                 "from_unixtime argument %g out of range", x[row]);
        o[row] = sqe_tstz_pack((int64_t)ms, b->zone); /* in the session zone */
    });
    return true;
}

/* to_unixtime(timestamp): the wall time read in the session zone (Trino
 * coerces it to timestamp with time zone), microseconds kept. */
static SQE_KERNEL(to_unixtime_kernel) {
    const int64_t *x = SQE_VEC_DATA(args[0], int64_t);
    double *o = SQE_VEC_DATA(out, double);
    sqe_func_propagate_nulls(args, 1, sel, n, out);
    if (b->zone == 0) {
        SQE_FOR_ROWS(sel, n, row, o[row] = (double)x[row] / 1e6;);
        return true;
    }
    SQE_FOR_ROWS(sel, n, row, {
        int64_t s = sqe_floor_div(x[row], SQE_MICROS_PER_SECOND);
        int64_t off = s - sqe_tz_local_to_utc(b->zone, s);
        o[row] = (double)(x[row] - off * SQE_MICROS_PER_SECOND) / 1e6;
    });
    return true;
}

/* --------------------------------------------------------------- table */

#define DT SQE_T_DATE
#define TS SQE_T_TIMESTAMP
#define V SQE_T_VARCHAR
#define BI SQE_T_BIGINT
#define FIELD_D(NAME)                                                                              \
    { NAME, 1, false, {DT}, BI, extract_date, bind_extract }
#define FIELD_T(NAME)                                                                              \
    { NAME, 1, false, {TS}, BI, extract_ts, bind_extract }
#define FIELD_TZ(NAME)                                                                             \
    { NAME, 1, false, {SQE_T_TIMESTAMP_TZ}, BI, extract_tstz, bind_extract }
#define FIELD_DT(NAME) FIELD_D(NAME), FIELD_T(NAME), FIELD_TZ(NAME)
/* TIME is microseconds of the day: the timestamp kernel reads the same fields. */
#define FIELD_TIME(NAME)                                                                           \
    { NAME, 1, false, {SQE_T_TIME}, BI, extract_ts, bind_extract }

static const sqe_func_sig k_sigs[] = {
    FIELD_DT("year"),
    FIELD_DT("quarter"),
    FIELD_DT("month"),
    FIELD_DT("week"),
    FIELD_DT("week_of_year"),
    FIELD_DT("day"),
    FIELD_DT("day_of_month"),
    FIELD_DT("day_of_week"),
    FIELD_DT("dow"),
    FIELD_DT("day_of_year"),
    FIELD_DT("doy"),
    FIELD_DT("year_of_week"),
    FIELD_DT("yow"),
    FIELD_T("hour"),
    FIELD_T("minute"),
    FIELD_T("second"),
    FIELD_T("millisecond"),
    FIELD_TZ("hour"),
    FIELD_TZ("minute"),
    FIELD_TZ("second"),
    FIELD_TZ("millisecond"),
    FIELD_TIME("hour"),
    FIELD_TIME("minute"),
    FIELD_TIME("second"),
    FIELD_TIME("millisecond"),
    {"localtime", 0, false, {0}, SQE_T_TIME, fill_i64, bind_now},
    {"current_time", 0, false, {0}, SQE_T_TIME, fill_i64, bind_current_time},

    {"current_date", 0, false, {0}, DT, fill_i32, bind_now},
    {"now", 0, false, {0}, TS, fill_i64, bind_now},
    {"current_timestamp", 0, false, {0}, TS, fill_i64, bind_now},
    {"localtimestamp", 0, false, {0}, TS, fill_i64, bind_now},

    {"date_trunc", 2, false, {V, DT}, DT, trunc_date, bind_unit},
    {"date_trunc", 2, false, {V, TS}, TS, trunc_ts, bind_unit},
    {"date_add", 3, false, {V, BI, DT}, DT, add_date, bind_unit},
    {"date_add", 3, false, {V, BI, TS}, TS, add_ts, bind_unit},
    {"date_diff", 3, false, {V, DT, DT}, BI, diff_date, bind_unit},
    {"date_diff", 3, false, {V, TS, TS}, BI, diff_ts, bind_unit},
    {"date_trunc", 2, false, {V, SQE_T_TIMESTAMP_TZ}, SQE_T_TIMESTAMP_TZ, trunc_ts, bind_unit},
    {"date_add", 3, false, {V, BI, SQE_T_TIMESTAMP_TZ}, SQE_T_TIMESTAMP_TZ, add_ts, bind_unit},
    {"date_diff", 3, false, {V, SQE_T_TIMESTAMP_TZ, SQE_T_TIMESTAMP_TZ}, BI, diff_tstz, bind_unit},

    {"last_day_of_month", 1, false, {DT}, DT, last_day_date, NULL},
    {"last_day_of_month", 1, false, {TS}, DT, last_day_ts, NULL},
    {"from_unixtime", 1, false, {SQE_T_DOUBLE}, SQE_T_TIMESTAMP_TZ, from_unixtime_kernel, NULL},
    {"to_unixtime", 1, false, {TS}, SQE_T_DOUBLE, to_unixtime_kernel, NULL},
};

SQE_FUNC_TABLE(sqe_func_datetime_table, k_sigs);
