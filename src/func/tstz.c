/*
 * tstz.c - TIMESTAMP WITH TIME ZONE functions: at_timezone (and the AT TIME
 * ZONE operator the parser rewrites to it), with_timezone, from_unixtime
 * with a zone or an hours/minutes offset, to_unixtime, current_timezone,
 * timezone_hour, timezone_minute.
 *
 * Values are Trino's packing (types.h): UTC milliseconds * 4096 + zone key.
 * A plain TIMESTAMP converted to a zone is read as a wall time in the
 * session time zone (binding->zone, SET TIME ZONE; Trino's coercion to
 * timestamp with time zone): in a UTC session at_timezone(TIMESTAMP
 * '2022-11-01 09:08:07.321', 'America/Los_Angeles') is 02:08:07.321 there;
 * with_timezone keeps the wall time and finds its instant in the zone
 * (gaps move forward, overlaps take the earlier instant, as Joda-Time).
 * Zone names are resolved once at bind time when constant; an unknown zone
 * is INVALID_ARGUMENT "Time zone not supported: X".
 */
#include "func/func_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The zone key for a row: the constant one (b->data = key + 1) or parsed. */
static bool tz_row_key(const sqe_func_binding *b, const sqe_vector *zone, uint32_t row,
                       uint16_t *key, sqe_error *err) {
    if (b->data) {
        *key = (uint16_t)((intptr_t)b->data - 1);
        return true;
    }
    uint32_t len;
    const char *s = sqe_func_str(zone, row, &len);
    return sqe_tz_key(s, len, key, err);
}

static bool tz_bind_zone(const sqe_func_sig *sig, sqe_arena *arena, sqe_func_binding *b,
                         const sqe_value *const *const_args, sqe_error *err) {
    const sqe_value *z = const_args ? const_args[b->n_args - 1] : NULL;
    if (!z || z->is_null || z->type.id != SQE_T_VARCHAR) return true;
    uint16_t key;
    if (!sqe_tz_key(z->v.s.ptr, z->v.s.len, &key, err)) return false;
    b->data = (void *)(intptr_t)(key + 1);
    return true;
}

static bool tz_range(sqe_error *err, const char *fn) {
    return sqe_error_set(err, SQE_ERR_OUT_OF_RANGE, "%s result out of range", fn);
}

/* at_timezone(tstz | timestamp, zone): the same instant in another zone. */
static SQE_KERNEL(tz_at) {
    const int64_t *x = SQE_VEC_DATA(args[0], int64_t);
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    bool plain = b->arg_types[0].id == SQE_T_TIMESTAMP;
    bool nulls = sqe_func_propagate_nulls(args, 2, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint16_t key;
        if (!tz_row_key(b, args[1], row, &key, err)) return false;
        int64_t v = x[row];
        /* a plain timestamp is a wall time in the session zone (Trino's coercion) */
        if (plain && !sqe_tstz_from_local(x[row], b->zone, &v)) return tz_range(err, b->name);
        o[row] = sqe_tstz_pack(sqe_tstz_millis(v), key);
    });
    return true;
}

/* with_timezone(timestamp, zone): the wall time read in the zone. */
static SQE_KERNEL(tz_with) {
    const int64_t *x = SQE_VEC_DATA(args[0], int64_t);
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    bool nulls = sqe_func_propagate_nulls(args, 2, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint16_t key;
        if (!tz_row_key(b, args[1], row, &key, err)) return false;
        if (!sqe_tstz_from_local(x[row], key, &o[row])) return tz_range(err, b->name);
    });
    return true;
}

/* from_unixtime(seconds, zone): Math.round(seconds * 1000) in the zone. */
static SQE_KERNEL(tz_from_unixtime) {
    const double *x = SQE_VEC_DATA(args[0], double);
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    bool nulls = sqe_func_propagate_nulls(args, 2, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint16_t key;
        if (!tz_row_key(b, args[1], row, &key, err)) return false;
        double ms = floor(x[row] * 1000 + 0.5);
        if (!(ms > -(double)SQE_TSTZ_MAX_MILLIS && ms < (double)SQE_TSTZ_MAX_MILLIS))
            return tz_range(err, b->name);
        o[row] = sqe_tstz_pack((int64_t)ms, key);
    });
    return true;
}

/* from_unixtime(seconds, hours, minutes): a fixed offset zone. */
static SQE_KERNEL(tz_from_unixtime_hm) {
    const double *x = SQE_VEC_DATA(args[0], double);
    const int64_t *h = SQE_VEC_DATA(args[1], int64_t), *m = SQE_VEC_DATA(args[2], int64_t);
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    bool nulls = sqe_func_propagate_nulls(args, 3, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        int64_t total = h[row] * 60 + m[row];
        if (h[row] < -14 || h[row] > 14 || total < -840 || total > 840)
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "Invalid offset minutes %lld in from_unixtime", (long long)total);
        char zone[16];
        snprintf(zone, sizeof zone, "%c%02d:%02d", total < 0 ? '-' : '+', (int)(llabs(total) / 60),
                 (int)(llabs(total) % 60));
        uint16_t key;
        if (!sqe_tz_key(zone, strlen(zone), &key, err)) return false;
        double ms = floor(x[row] * 1000 + 0.5);
        if (!(ms > -(double)SQE_TSTZ_MAX_MILLIS && ms < (double)SQE_TSTZ_MAX_MILLIS))
            return tz_range(err, b->name);
        o[row] = sqe_tstz_pack((int64_t)ms, key);
    });
    return true;
}

static SQE_KERNEL(tz_to_unixtime) {
    const int64_t *x = SQE_VEC_DATA(args[0], int64_t);
    double *o = SQE_VEC_DATA(out, double);
    sqe_func_propagate_nulls(args, 1, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, o[row] = (double)sqe_tstz_millis(x[row]) / 1000.0;);
    return true;
}

/* timezone_hour / timezone_minute: the offset in force at the instant. */
static SQE_KERNEL(tz_offset_part) {
    const int64_t *x = SQE_VEC_DATA(args[0], int64_t);
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    bool minute = b->name[9] == 'm'; /* "timezone_minute" */
    sqe_func_propagate_nulls(args, 1, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        int64_t ms = sqe_tstz_millis(x[row]);
        int32_t off = sqe_tz_offset(sqe_tstz_key(x[row]), sqe_floor_div(ms, 1000)) / 60;
        o[row] = minute ? off % 60 : off / 60;
    });
    return true;
}

/* current_timezone(): the session zone's name ("UTC", "America/New_York",
 * "+05:30"). */
static SQE_KERNEL(tz_current) {
    char name[80];
    sqe_tz_key_name(b->zone, name, sizeof name);
    uint32_t len = (uint32_t)strlen(name);
    sqe_func_set_all_valid(out, sel, n);
    SQE_FOR_ROWS(sel, n, row, {
        if (!sqe_vector_set_string(out, row, name, len))
            return sqe_func_mem_error(out, b->name, err);
    });
    return true;
}

#define TZ SQE_T_TIMESTAMP_TZ
#define TS SQE_T_TIMESTAMP
#define V SQE_T_VARCHAR
#define BI SQE_T_BIGINT

static const sqe_func_sig k_sigs[] = {
    {"at_timezone", 2, false, {TZ, V}, TZ, tz_at, tz_bind_zone},
    {"at_timezone", 2, false, {TS, V}, TZ, tz_at, tz_bind_zone},
    {"with_timezone", 2, false, {TS, V}, TZ, tz_with, tz_bind_zone},
    {"from_unixtime", 2, false, {SQE_T_DOUBLE, V}, TZ, tz_from_unixtime, tz_bind_zone},
    {"from_unixtime", 3, false, {SQE_T_DOUBLE, BI, BI}, TZ, tz_from_unixtime_hm, NULL},
    {"to_unixtime", 1, false, {TZ}, SQE_T_DOUBLE, tz_to_unixtime, NULL},
    {"timezone_hour", 1, false, {TZ}, BI, tz_offset_part, NULL},
    {"timezone_minute", 1, false, {TZ}, BI, tz_offset_part, NULL},
    {"current_timezone", 0, false, {0}, V, tz_current, NULL},
};

SQE_FUNC_TABLE(sqe_func_tstz_table, k_sigs);
