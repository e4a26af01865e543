/*
 * aggregate.c - aggregate functions: count(*), count, sum, avg, min, max,
 * count_if, bool_and/every, bool_or, arbitrary/any_value, approx_distinct
 * (computed exactly), stddev/stddev_samp/stddev_pop, variance/var_samp/
 * var_pop, and the DISTINCT form of each.
 *
 * Protocol (func.h): the aggregation operator owns one state of
 * `state_size` bytes per group, calls init once, update for every batch
 * (states[i] is the group of the i-th selected row), combine to merge the
 * partial states of parallel workers, finalize to write the result, and
 * destroy to free what a state owns. Update loops are one pass over the
 * selected rows per physical type, without sqe_value or per-row dispatch.
 *
 * States:
 *   count            int64 n
 *   sum/avg integers sqe_i128 sum + int64 n (no overflow while folding;
 *                    sum checks the bigint range at finalize)
 *   sum/avg decimal  a signed 192-bit sum (int64 hi, u128 lo) + n: it never
 *                    overflows while folding (2^63 * 2^128 is far beyond any
 *                    count of 38-digit values), so only the final sum must
 *                    fit 38 digits (OUT_OF_RANGE) and avg is exact even when
 *                    the sum does not fit (Trino keeps an overflow count)
 *   sum/avg floating double sum + n
 *   min/max fixed    the value (16-byte union) + has flag
 *   min/max varchar  a malloc'd copy (ptr, len, cap) + has flag; destroy
 *                    frees it, combine moves the better one into dst
 *   stddev/variance  Welford (n, mean, m2), merged with Chan's formula
 *   DISTINCT         a pointer to a per-state hash set (below)
 *
 * DISTINCT. Each state owns an open-addressing (linear probing) hash set
 * of the distinct values it has seen. Types of up to 8 bytes are stored as
 * normalised 64-bit keys directly in the slot array (8 bytes a slot; 0
 * marks an empty slot and the value 0 is a flag beside the table; floating
 * values fold -0.0 into 0.0 and all NaNs into one). Decimals and strings use
 * 16-byte slots of (64-bit hash, where): an index into an array of 128-bit
 * values, or an offset into a byte buffer of length-prefixed copies.
 * Probing compares the full value (after the hash for wide keys), so
 * collisions never merge different values. Tables double at 3/4 load.
 * update first gathers (set, key, hash) for the batch, then inserts while
 * prefetching the slot a row a few places ahead will probe: with many
 * groups the sets outgrow the cache and each probe would otherwise stall.
 * combine inserts the smaller set into the larger and frees it, after
 * growing the larger one to hold both: the smaller is walked in slot (hash)
 * order, and without that room the inserts pile into one ever-longer
 * cluster (see distinct_combine). finalize
 * runs the plain aggregate over the values (fed through a stack vector in
 * chunks); count(DISTINCT) is just the set size. min/max/bool_and/bool_or/
 * arbitrary ignore DISTINCT (same result).
 *
 * Memory: states that own heap memory (DISTINCT sets, string min/max
 * copies) report it through mem_delta, so the operator can count it against
 * the query's memory limit: each state remembers the bytes it last
 * reported and returns the difference.
 *
 * Empty input: count/count_if/approx_distinct give 0, the others NULL.
 */
#include "func/func_int.h"

#include <math.h>

/* ------------------------------------------------------ shared helpers */

/* Runs the statements for every selected, non-NULL row of arg, with `i`
 * (index into states) and `v` (the value) bound. */
#define AGG_FOR(arg, sel, n, T, ...)                                                               \
    do {                                                                                           \
        const T *x_ = SQE_VEC_DATA(arg, T);                                                        \
        bool hn_ = (arg)->has_nulls;                                                               \
        for (uint32_t i = 0; i < (n); i++) {                                                       \
            uint32_t row_ = (sel) ? (sel)[i] : i;                                                  \
            if (hn_ && !sqe_func_row_valid(arg, row_)) continue;                                   \
            T v = x_[row_];                                                                        \
            __VA_ARGS__                                                                            \
        }                                                                                          \
    } while (0)

/* Expands BODY_MACRO(T) for the physical type of an integer-like type id. */
#define SWITCH_INT_TYPES(id, M)                                                                    \
    switch (id) {                                                                                  \
    case SQE_T_BOOLEAN:                                                                            \
        M(uint8_t);                                                                                \
        break;                                                                                     \
    case SQE_T_TINYINT:                                                                            \
        M(int8_t);                                                                                 \
        break;                                                                                     \
    case SQE_T_SMALLINT:                                                                           \
        M(int16_t);                                                                                \
        break;                                                                                     \
    case SQE_T_INTEGER:                                                                            \
    case SQE_T_DATE:                                                                               \
        M(int32_t);                                                                                \
        break;                                                                                     \
    case SQE_T_BIGINT:                                                                             \
    case SQE_T_TIMESTAMP:                                                                          \
    case SQE_T_INTERVAL_DS:                                                                        \
    case SQE_T_INTERVAL_YM:                                                                        \
    case SQE_T_TIME:                                                                               \
    case SQE_T_TIMESTAMP_TZ:                                                                       \
        M(int64_t);                                                                                \
        break;                                                                                     \
    default:                                                                                       \
        break;                                                                                     \
    }

static void set_null(sqe_vector *out, uint32_t row) {
    sqe_vector_set_null(out, row);
}

/* ---------------------------------------------------------------- count */

typedef struct count_state {
    int64_t n;
} count_state;

static void count_init(const sqe_agg_binding *b, void *s) {
    ((count_state *)s)->n = 0;
}

static bool count_update(const sqe_agg_binding *b, void *const *states, const sqe_vector *arg,
                         const uint16_t *sel, uint32_t n, sqe_error *err) {
    if (!arg || !arg->has_nulls) {
        for (uint32_t i = 0; i < n; i++) ((count_state *)states[i])->n++;
        return true;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = sel ? sel[i] : i;
        ((count_state *)states[i])->n += sqe_func_row_valid(arg, row);
    }
    return true;
}

static bool count_if_update(const sqe_agg_binding *b, void *const *states, const sqe_vector *arg,
                            const uint16_t *sel, uint32_t n, sqe_error *err) {
    AGG_FOR(arg, sel, n, uint8_t, ((count_state *)states[i])->n += v != 0;);
    return true;
}

static bool count_combine(const sqe_agg_binding *b, void *dst, void *src, sqe_error *err) {
    ((count_state *)dst)->n += ((count_state *)src)->n;
    return true;
}

static bool count_finalize(const sqe_agg_binding *b, void *s, sqe_vector *out, uint32_t row,
                           sqe_error *err) {
    SQE_VEC_DATA(out, int64_t)[row] = ((count_state *)s)->n;
    sqe_vector_set_valid(out, row);
    return true;
}

/* ------------------------------------------------------- sum / avg exact */

typedef struct isum_state {
    sqe_i128 sum;
    int64_t n;
} isum_state;

static void isum_init(const sqe_agg_binding *b, void *s) {
    isum_state *st = s;
    st->sum = 0;
    st->n = 0;
}

#define ISUM_BODY(T)                                                                               \
    AGG_FOR(arg, sel, n, T, {                                                                      \
        isum_state *st = states[i];                                                                \
        st->sum += v;                                                                              \
        st->n++;                                                                                   \
    })

static bool isum_update(const sqe_agg_binding *b, void *const *states, const sqe_vector *arg,
                        const uint16_t *sel, uint32_t n, sqe_error *err) {
    SWITCH_INT_TYPES(arg->type.id, ISUM_BODY);
    return true;
}

static bool dec_sum_overflow(sqe_error *err, const char *fn) {
    return sqe_error_set(err, SQE_ERR_OUT_OF_RANGE,
                         "decimal overflow in %s(): the result exceeds 38 digits", fn);
}

/* Decimal sum: value = hi * 2^128 + lo (two's complement over 192 bits). */
typedef unsigned __int128 dsum_u128;
typedef struct dsum_state {
    dsum_u128 lo;
    int64_t hi;
    int64_t n;
} dsum_state;

static void dsum_init(const sqe_agg_binding *b, void *s) {
    dsum_state *st = s;
    st->lo = 0;
    st->hi = 0;
    st->n = 0;
}

static inline void dsum_add(dsum_state *st, dsum_u128 lo, int64_t hi) {
    dsum_u128 r = st->lo + lo;
    st->hi += hi + (r < st->lo);
    st->lo = r;
}

static bool dsum_update(const sqe_agg_binding *b, void *const *states, const sqe_vector *arg,
                        const uint16_t *sel, uint32_t n, sqe_error *err) {
    AGG_FOR(arg, sel, n, sqe_i128, {
        dsum_state *st = states[i];
        dsum_add(st, (dsum_u128)v, v < 0 ? -1 : 0);
        st->n++;
    });
    return true;
}

static bool dsum_combine(const sqe_agg_binding *b, void *dst, void *src, sqe_error *err) {
    dsum_state *d = dst, *s = src;
    dsum_add(d, s->lo, s->hi);
    d->n += s->n;
    return true;
}

/* The sum as an sqe_i128 when it fits 127 bits. */
static bool dsum_value(const dsum_state *st, sqe_i128 *out) {
    bool neg_lo = (st->lo >> 127) != 0;
    if (!((st->hi == 0 && !neg_lo) || (st->hi == -1 && neg_lo))) return false;
    *out = (sqe_i128)st->lo;
    return true;
}

/* round_half_up(sum / n) for n > 0; false when it does not fit 127 bits. */
static bool dsum_avg(const dsum_state *st, sqe_i128 *out) {
    bool neg = st->hi < 0;
    /* |sum| as 192 bits: limbs[0] most significant */
    dsum_u128 lo = st->lo;
    uint64_t hi = (uint64_t)st->hi;
    if (neg) {
        lo = ~lo + 1;
        hi = ~hi + (lo == 0);
    }
    uint64_t limbs[3] = {hi, (uint64_t)(lo >> 64), (uint64_t)lo}, q[3];
    uint64_t d = (uint64_t)st->n;
    dsum_u128 r = 0;
    for (int i = 0; i < 3; i++) {
        dsum_u128 cur = (r << 64) | limbs[i];
        q[i] = (uint64_t)(cur / d);
        r = cur % d;
    }
    if (q[0] != 0) return false;
    dsum_u128 qv = ((dsum_u128)q[1] << 64) | q[2];
    if (r * 2 >= d) qv++;
    if (qv >> 127) return false;
    *out = neg ? -(sqe_i128)qv : (sqe_i128)qv;
    return true;
}

static bool isum_combine(const sqe_agg_binding *b, void *dst, void *src, sqe_error *err) {
    isum_state *d = dst, *s = src;
    d->n += s->n;
    if (__builtin_add_overflow(d->sum, s->sum, &d->sum)) return dec_sum_overflow(err, b->name);
    return true;
}

static bool sum_int_finalize(const sqe_agg_binding *b, void *s, sqe_vector *out, uint32_t row,
                             sqe_error *err) {
    isum_state *st = s;
    if (st->n == 0) {
        set_null(out, row);
        return true;
    }
    if (st->sum > INT64_MAX || st->sum < INT64_MIN)
        return sqe_error_set(err, SQE_ERR_OUT_OF_RANGE, "bigint overflow in sum()");
    SQE_VEC_DATA(out, int64_t)[row] = (int64_t)st->sum;
    sqe_vector_set_valid(out, row);
    return true;
}

static bool sum_dec_finalize(const sqe_agg_binding *b, void *s, sqe_vector *out, uint32_t row,
                             sqe_error *err) {
    dsum_state *st = s;
    if (st->n == 0) {
        set_null(out, row);
        return true;
    }
    sqe_i128 sum;
    if (!dsum_value(st, &sum) || !sqe_decimal_fits(sum, SQE_DECIMAL_MAX_PRECISION))
        return dec_sum_overflow(err, "sum");
    SQE_VEC_DATA(out, sqe_i128)[row] = sum;
    sqe_vector_set_valid(out, row);
    return true;
}

/* sum/avg of an interval (issue 8): an interval of the same kind; the sum
 * must fit (int32 months for year-to-month), the average is rounded half
 * away from zero. */
static bool iv_sum_avg_finalize(const sqe_agg_binding *b, void *s, sqe_vector *out, uint32_t row,
                                sqe_error *err) {
    isum_state *st = s;
    if (st->n == 0) {
        set_null(out, row);
        return true;
    }
    bool ym = b->ret.id == SQE_T_INTERVAL_YM, avg = strcmp(b->name, "avg") == 0;
    __int128 v = st->sum;
    if (avg) v = (v < 0 ? v - st->n / 2 : v + st->n / 2) / st->n;
    if (v > (ym ? INT32_MAX : INT64_MAX) || v < (ym ? INT32_MIN : INT64_MIN))
        return sqe_error_set(err, SQE_ERR_OUT_OF_RANGE, "interval overflow in %s()", b->name);
    SQE_VEC_DATA(out, int64_t)[row] = (int64_t)v;
    sqe_vector_set_valid(out, row);
    return true;
}

static bool avg_int_finalize(const sqe_agg_binding *b, void *s, sqe_vector *out, uint32_t row,
                             sqe_error *err) {
    isum_state *st = s;
    if (st->n == 0) {
        set_null(out, row);
        return true;
    }
    SQE_VEC_DATA(out, double)[row] = (double)st->sum / (double)st->n;
    sqe_vector_set_valid(out, row);
    return true;
}

static bool avg_dec_finalize(const sqe_agg_binding *b, void *s, sqe_vector *out, uint32_t row,
                             sqe_error *err) {
    dsum_state *st = s;
    if (st->n == 0) {
        set_null(out, row);
        return true;
    }
    sqe_i128 avg;
    /* |avg| <= max |value| < 10^38: this only fails on corrupt states */
    if (!dsum_avg(st, &avg) || !sqe_decimal_fits(avg, SQE_DECIMAL_MAX_PRECISION))
        return dec_sum_overflow(err, "avg");
    SQE_VEC_DATA(out, sqe_i128)[row] = avg;
    sqe_vector_set_valid(out, row);
    return true;
}

/* ---------------------------------------------------- sum / avg floating */

typedef struct fsum_state {
    double sum;
    int64_t n;
} fsum_state;

static void fsum_init(const sqe_agg_binding *b, void *s) {
    fsum_state *st = s;
    st->sum = 0;
    st->n = 0;
}

static bool fsum_update(const sqe_agg_binding *b, void *const *states, const sqe_vector *arg,
                        const uint16_t *sel, uint32_t n, sqe_error *err) {
    if (arg->type.id == SQE_T_REAL)
        AGG_FOR(arg, sel, n, float, {
            fsum_state *st = states[i];
            st->sum += v;
            st->n++;
        });
    else
        AGG_FOR(arg, sel, n, double, {
            fsum_state *st = states[i];
            st->sum += v;
            st->n++;
        });
    return true;
}

static bool fsum_combine(const sqe_agg_binding *b, void *dst, void *src, sqe_error *err) {
    fsum_state *d = dst, *s = src;
    d->sum += s->sum;
    d->n += s->n;
    return true;
}

/* sum and avg of REAL/DOUBLE: the result type of the binding decides. */
static bool fsum_finalize_impl(void *s, sqe_vector *out, uint32_t row, bool avg) {
    fsum_state *st = s;
    if (st->n == 0) {
        set_null(out, row);
        return true;
    }
    double v = avg ? st->sum / (double)st->n : st->sum;
    if (out->type.id == SQE_T_REAL)
        SQE_VEC_DATA(out, float)[row] = (float)v;
    else
        SQE_VEC_DATA(out, double)[row] = v;
    sqe_vector_set_valid(out, row);
    return true;
}

static bool fsum_finalize(const sqe_agg_binding *b, void *s, sqe_vector *out, uint32_t row,
                          sqe_error *err) {
    return fsum_finalize_impl(s, out, row, false);
}

static bool favg_finalize(const sqe_agg_binding *b, void *s, sqe_vector *out, uint32_t row,
                          sqe_error *err) {
    return fsum_finalize_impl(s, out, row, true);
}

/* ------------------------------------------------------- stddev/variance */

typedef struct var_state {
    int64_t n;
    double mean, m2;
} var_state;

typedef enum { VAR_SAMP, VAR_POP, STDDEV_SAMP, STDDEV_POP } var_kind;

static void var_init(const sqe_agg_binding *b, void *s) {
    memset(s, 0, sizeof(var_state));
}

static bool var_update(const sqe_agg_binding *b, void *const *states, const sqe_vector *arg,
                       const uint16_t *sel, uint32_t n, sqe_error *err) {
    AGG_FOR(arg, sel, n, double, {
        var_state *st = states[i];
        st->n++;
        double delta = v - st->mean;
        st->mean += delta / (double)st->n;
        st->m2 += delta * (v - st->mean);
    });
    return true;
}

static bool var_combine(const sqe_agg_binding *b, void *dst, void *src, sqe_error *err) {
    var_state *d = dst, *s = src;
    if (s->n == 0) return true;
    if (d->n == 0) {
        *d = *s;
        return true;
    }
    int64_t n = d->n + s->n;
    double delta = s->mean - d->mean;
    d->m2 += s->m2 + delta * delta * (double)d->n * (double)s->n / (double)n;
    d->mean += delta * (double)s->n / (double)n;
    d->n = n;
    return true;
}

static bool var_finalize(const sqe_agg_binding *b, void *s, sqe_vector *out, uint32_t row,
                         sqe_error *err) {
    var_state *st = s;
    var_kind k = (var_kind)(intptr_t)b->data;
    bool samp = k == VAR_SAMP || k == STDDEV_SAMP;
    if (st->n == 0 || (samp && st->n < 2)) {
        set_null(out, row);
        return true;
    }
    double v = st->m2 / (double)(samp ? st->n - 1 : st->n);
    if (v < 0) v = 0;
    if (k == STDDEV_SAMP || k == STDDEV_POP) v = sqrt(v);
    SQE_VEC_DATA(out, double)[row] = v;
    sqe_vector_set_valid(out, row);
    return true;
}

/* ----------------------------------------------------- bool_and/bool_or */

typedef struct bool_state {
    uint8_t has, v;
} bool_state;

static void bool_and_init(const sqe_agg_binding *b, void *s) {
    bool_state *st = s;
    st->has = 0;
    st->v = 1;
}

static void bool_or_init(const sqe_agg_binding *b, void *s) {
    bool_state *st = s;
    st->has = 0;
    st->v = 0;
}

static bool bool_and_update(const sqe_agg_binding *b, void *const *states, const sqe_vector *arg,
                            const uint16_t *sel, uint32_t n, sqe_error *err) {
    AGG_FOR(arg, sel, n, uint8_t, {
        bool_state *st = states[i];
        st->has = 1;
        st->v &= v != 0;
    });
    return true;
}

static bool bool_or_update(const sqe_agg_binding *b, void *const *states, const sqe_vector *arg,
                           const uint16_t *sel, uint32_t n, sqe_error *err) {
    AGG_FOR(arg, sel, n, uint8_t, {
        bool_state *st = states[i];
        st->has = 1;
        st->v |= v != 0;
    });
    return true;
}

static bool bool_and_combine(const sqe_agg_binding *b, void *dst, void *src, sqe_error *err) {
    bool_state *d = dst, *s = src;
    if (s->has) {
        d->v = (uint8_t)((d->has ? d->v : 1) & s->v);
        d->has = 1;
    }
    return true;
}

static bool bool_or_combine(const sqe_agg_binding *b, void *dst, void *src, sqe_error *err) {
    bool_state *d = dst, *s = src;
    if (s->has) {
        d->v = (uint8_t)((d->has ? d->v : 0) | s->v);
        d->has = 1;
    }
    return true;
}

static bool bool_finalize(const sqe_agg_binding *b, void *s, sqe_vector *out, uint32_t row,
                          sqe_error *err) {
    bool_state *st = s;
    if (!st->has) {
        set_null(out, row);
        return true;
    }
    SQE_VEC_DATA(out, uint8_t)[row] = st->v;
    sqe_vector_set_valid(out, row);
    return true;
}

/* ------------------------------------------- min / max / arbitrary fixed */

typedef enum { MM_MIN, MM_MAX, MM_FIRST } minmax_mode;

typedef struct mm_state {
    union {
        uint8_t u8;
        int8_t i8;
        int16_t i16;
        int32_t i32;
        int64_t i64;
        float f32;
        double f64;
        sqe_i128 i128;
    } v;
    bool has;
} mm_state;

static void mm_init(const sqe_agg_binding *b, void *s) {
    memset(s, 0, sizeof(mm_state));
}

#define MM_LOOP(T, FIELD, BETTER)                                                                  \
    AGG_FOR(arg, sel, n, T, {                                                                      \
        mm_state *st = states[i];                                                                  \
        if (!st->has || (BETTER)) {                                                                \
            st->v.FIELD = v;                                                                       \
            st->has = true;                                                                        \
        }                                                                                          \
    })

#define MM_MODES(T, FIELD)                                                                         \
    do {                                                                                           \
        if (mode == MM_MIN)                                                                        \
            MM_LOOP(T, FIELD, v < st->v.FIELD);                                                    \
        else if (mode == MM_MAX)                                                                   \
            MM_LOOP(T, FIELD, v > st->v.FIELD);                                                    \
        else                                                                                       \
            MM_LOOP(T, FIELD, false);                                                              \
    } while (0)

/* REAL/DOUBLE: a NaN never replaces a number and a number always replaces a
 * NaN, so min/max ignore NaN unless every value is NaN (Trino), whatever the
 * input order. */
#define MM_MODES_FLOAT(T, FIELD)                                                                   \
    do {                                                                                           \
        if (mode == MM_MIN)                                                                        \
            MM_LOOP(T, FIELD, v < st->v.FIELD || (isnan(st->v.FIELD) && !isnan(v)));               \
        else if (mode == MM_MAX)                                                                   \
            MM_LOOP(T, FIELD, v > st->v.FIELD || (isnan(st->v.FIELD) && !isnan(v)));               \
        else                                                                                       \
            MM_LOOP(T, FIELD, false);                                                              \
    } while (0)

static bool mm_update(const sqe_agg_binding *b, void *const *states, const sqe_vector *arg,
                      const uint16_t *sel, uint32_t n, sqe_error *err) {
    minmax_mode mode = (minmax_mode)(intptr_t)b->data;
    switch (arg->type.id) {
    case SQE_T_BOOLEAN:
        MM_MODES(uint8_t, u8);
        break;
    case SQE_T_TINYINT:
        MM_MODES(int8_t, i8);
        break;
    case SQE_T_SMALLINT:
        MM_MODES(int16_t, i16);
        break;
    case SQE_T_INTEGER:
    case SQE_T_DATE:
        MM_MODES(int32_t, i32);
        break;
    case SQE_T_BIGINT:
    case SQE_T_TIMESTAMP:
    case SQE_T_INTERVAL_DS:
    case SQE_T_INTERVAL_YM:
    case SQE_T_TIME:
    case SQE_T_TIMESTAMP_TZ:
        MM_MODES(int64_t, i64);
        break;
    case SQE_T_REAL:
        MM_MODES_FLOAT(float, f32);
        break;
    case SQE_T_DOUBLE:
        MM_MODES_FLOAT(double, f64);
        break;
    case SQE_T_DECIMAL:
        MM_MODES(sqe_i128, i128);
        break;
    default:
        return sqe_error_set(err, SQE_ERR_INTERNAL, "%s: unsupported state type", b->name);
    }
    return true;
}

/* Whether src's value should replace dst's. */
static bool mm_better(sqe_type_id id, minmax_mode mode, const mm_state *s, const mm_state *d) {
    int c;
    switch (id) {
    case SQE_T_BOOLEAN:
        c = (s->v.u8 > d->v.u8) - (s->v.u8 < d->v.u8);
        break;
    case SQE_T_TINYINT:
        c = (s->v.i8 > d->v.i8) - (s->v.i8 < d->v.i8);
        break;
    case SQE_T_SMALLINT:
        c = (s->v.i16 > d->v.i16) - (s->v.i16 < d->v.i16);
        break;
    case SQE_T_INTEGER:
    case SQE_T_DATE:
        c = (s->v.i32 > d->v.i32) - (s->v.i32 < d->v.i32);
        break;
    case SQE_T_BIGINT:
    case SQE_T_TIMESTAMP:
    case SQE_T_INTERVAL_DS:
    case SQE_T_INTERVAL_YM:
    case SQE_T_TIME:
    case SQE_T_TIMESTAMP_TZ:
        c = (s->v.i64 > d->v.i64) - (s->v.i64 < d->v.i64);
        break;
    case SQE_T_REAL:
        if (isnan(s->v.f32) || isnan(d->v.f32))
            return mode != MM_FIRST && isnan(d->v.f32) && !isnan(s->v.f32);
        c = (s->v.f32 > d->v.f32) - (s->v.f32 < d->v.f32);
        break;
    case SQE_T_DOUBLE:
        if (isnan(s->v.f64) || isnan(d->v.f64))
            return mode != MM_FIRST && isnan(d->v.f64) && !isnan(s->v.f64);
        c = (s->v.f64 > d->v.f64) - (s->v.f64 < d->v.f64);
        break;
    default:
        c = (s->v.i128 > d->v.i128) - (s->v.i128 < d->v.i128);
        break;
    }
    return mode == MM_MIN ? c < 0 : mode == MM_MAX ? c > 0 : false;
}

static bool mm_combine(const sqe_agg_binding *b, void *dst, void *src, sqe_error *err) {
    mm_state *d = dst, *s = src;
    if (s->has &&
        (!d->has || mm_better((sqe_type_id)b->arg_type.id, (minmax_mode)(intptr_t)b->data, s, d)))
        *d = *s;
    return true;
}

static bool mm_finalize(const sqe_agg_binding *b, void *s, sqe_vector *out, uint32_t row,
                        sqe_error *err) {
    mm_state *st = s;
    if (!st->has) {
        set_null(out, row);
        return true;
    }
    size_t w = sqe_type_width(out->type);
    memcpy((char *)out->data + (size_t)row * w, &st->v, w);
    sqe_vector_set_valid(out, row);
    return true;
}

/* ---------------------------------------- min / max / arbitrary strings */

typedef struct smm_state {
    char *p; /* malloc'd copy, owned by the state */
    uint32_t len, cap;
    bool has;
    uint32_t reported; /* cap as last reported by mem_delta (stays with the state) */
} smm_state;

static void smm_init(const sqe_agg_binding *b, void *s) {
    memset(s, 0, sizeof(smm_state));
}

static int bytes_cmp(const char *a, size_t an, const char *b, size_t bn) {
    size_t n = SQE_MIN(an, bn);
    int c = n ? memcmp(a, b, n) : 0;
    if (c) return c;
    return (an > bn) - (an < bn);
}

static void smm_store(smm_state *st, const char *p, uint32_t len) {
    if (len > st->cap) {
        uint32_t cap = SQE_MAX(len, 16u);
        sqe_free(st->p);
        st->p = sqe_malloc(cap);
        st->cap = cap;
    }
    if (len) memcpy(st->p, p, len);
    st->len = len;
    st->has = true;
}

static bool smm_update(const sqe_agg_binding *b, void *const *states, const sqe_vector *arg,
                       const uint16_t *sel, uint32_t n, sqe_error *err) {
    minmax_mode mode = (minmax_mode)(intptr_t)b->data;
    AGG_FOR(arg, sel, n, sqe_string, {
        smm_state *st = states[i];
        const char *p = sqe_string_data(&x_[row_]);
        if (!st->has) {
            smm_store(st, p, v.len);
            continue;
        }
        if (mode == MM_FIRST) continue;
        int c = bytes_cmp(p, v.len, st->p, st->len);
        if (mode == MM_MIN ? c < 0 : c > 0) smm_store(st, p, v.len);
    });
    return true;
}

static bool smm_combine(const sqe_agg_binding *b, void *dst, void *src, sqe_error *err) {
    smm_state *d = dst, *s = src;
    minmax_mode mode = (minmax_mode)(intptr_t)b->data;
    bool take = false;
    if (s->has) {
        if (!d->has) {
            take = true;
        } else if (mode != MM_FIRST) {
            int c = bytes_cmp(s->p, s->len, d->p, d->len);
            take = mode == MM_MIN ? c < 0 : c > 0;
        }
    }
    uint32_t d_reported = d->reported, s_reported = s->reported;
    if (take) {
        smm_state tmp = *d;
        *d = *s;
        *s = tmp;
    }
    sqe_free(s->p);
    memset(s, 0, sizeof *s);
    d->reported = d_reported;
    s->reported = s_reported;
    return true;
}

static bool smm_finalize(const sqe_agg_binding *b, void *s, sqe_vector *out, uint32_t row,
                         sqe_error *err) {
    smm_state *st = s;
    if (!st->has) {
        set_null(out, row);
        return true;
    }
    if (!sqe_vector_set_string(out, row, st->p ? st->p : "", st->len))
        return sqe_func_mem_error(out, b->name, err);
    sqe_vector_set_valid(out, row);
    return true;
}

static void smm_destroy(const sqe_agg_binding *b, void *s) {
    smm_state *st = s;
    sqe_free(st->p);
    memset(st, 0, sizeof *st);
}

static int64_t smm_mem_delta(const sqe_agg_binding *b, void *s) {
    smm_state *st = s;
    int64_t d = (int64_t)st->cap - (int64_t)st->reported;
    st->reported = st->cap;
    return d;
}

/* ----------------------------------------------------- distinct hash set */

typedef enum { DK_FIXED, DK_WIDE, DK_STR } dset_kind;

/* WIDE/STR slot: the value's hash (0 = empty) and where the value is. */
typedef struct dslot {
    uint64_t hash;
    uint64_t key; /* index into wide (WIDE), offset into bytes (STR) */
} dslot;

/* Owned by one distinct_state; everything malloc'd. */
typedef struct dset {
    size_t cap, size; /* slots (a power of two); distinct values (including a FIXED zero) */
    bool has_zero;    /* FIXED: the value with key 0 was seen (0 marks empty slots) */
    uint64_t *keys;   /* FIXED: cap normalised 64-bit values, 0 = empty */
    dslot *slots;     /* WIDE/STR: cap slots */
    sqe_i128 *wide;   /* WIDE: values in insertion order */
    size_t wide_len, wide_cap;
    char *bytes; /* STR: [uint32 len][bytes] ... */
    size_t bytes_len, bytes_cap;
} dset;

typedef struct distinct_state {
    dset *set;
    size_t reported; /* dset_bytes(set) as last reported by mem_delta */
} distinct_state;

typedef struct distinct_data {
    sqe_agg_binding base; /* the plain aggregate run at finalize */
    dset_kind kind;
} distinct_data;

#define DSET_INITIAL_CAP 16

static inline uint64_t nonzero(uint64_t h) {
    return h ? h : 0x9e3779b97f4a7c15ULL;
}

static dset *dset_new(dset_kind kind) {
    dset *s = sqe_calloc(1, sizeof *s);
    s->cap = DSET_INITIAL_CAP;
    if (kind == DK_FIXED)
        s->keys = sqe_calloc(s->cap, sizeof *s->keys);
    else
        s->slots = sqe_calloc(s->cap, sizeof *s->slots);
    return s;
}

/* Heap bytes held by s (slots, values, the struct). */
static size_t dset_bytes(const dset *s) {
    if (!s) return 0;
    return sizeof *s + s->cap * (s->keys ? sizeof *s->keys : sizeof *s->slots) +
           s->wide_cap * sizeof *s->wide + s->bytes_cap;
}

static void dset_free(dset *s) {
    if (!s) return;
    sqe_free(s->keys);
    sqe_free(s->slots);
    sqe_free(s->wide);
    sqe_free(s->bytes);
    sqe_free(s);
}

/* Used slots (the FIXED zero lives outside the table). */
static inline size_t dset_used(const dset *s) {
    return s->size - (s->has_zero ? 1u : 0u);
}

/* Rebuilds the slot array with ncap slots (a power of two >= cap). */
static void dset_rehash(dset *s, size_t ncap) {
    size_t mask = ncap - 1;
    if (s->keys) {
        uint64_t *nk = sqe_calloc(ncap, sizeof *nk);
        for (size_t i = 0; i < s->cap; i++) {
            uint64_t k = s->keys[i];
            if (!k) continue;
            size_t j = sqe_hash_u64(k) & mask, probes = 0;
            while (nk[j]) {
                j = (j + 1) & mask;
                SQE_PROBE_STEP(probes, ncap);
            }
            nk[j] = k;
        }
        sqe_free(s->keys);
        s->keys = nk;
    } else {
        dslot *ns = sqe_calloc(ncap, sizeof *ns);
        for (size_t i = 0; i < s->cap; i++) {
            if (!s->slots[i].hash) continue;
            size_t j = s->slots[i].hash & mask, probes = 0;
            while (ns[j].hash) {
                j = (j + 1) & mask;
                SQE_PROBE_STEP(probes, ncap);
            }
            ns[j] = s->slots[i];
        }
        sqe_free(s->slots);
        s->slots = ns;
    }
    s->cap = ncap;
}

/* Makes room for n used slots at most 3/4 full, so that n values (not
 * counting the FIXED zero) fit without growing again. */
static void dset_reserve_n(dset *s, size_t n) {
    size_t cap = s->cap;
    while (n * 4 > cap * 3) cap *= 2;
    if (cap != s->cap) dset_rehash(s, cap);
}

/* Makes room for one more used slot: doubles at 3/4 load. */
static inline void dset_reserve(dset *s) {
    if (SQE_UNLIKELY((dset_used(s) + 1) * 4 > s->cap * 3)) dset_rehash(s, s->cap * 2);
}

static inline void dset_insert_fixed(dset *s, uint64_t key, uint64_t h) {
    if (SQE_UNLIKELY(key == 0)) {
        if (!s->has_zero) {
            s->has_zero = true;
            s->size++;
        }
        return;
    }
    dset_reserve(s);
    size_t mask = s->cap - 1, j = h & mask, probes = 0;
    for (;;) {
        uint64_t k = s->keys[j];
        if (k == key) return;
        if (!k) break;
        j = (j + 1) & mask;
        SQE_PROBE_STEP(probes, s->cap);
    }
    s->keys[j] = key;
    s->size++;
}

static void dset_insert_wide(dset *s, uint64_t h, sqe_i128 v) {
    dset_reserve(s);
    size_t mask = s->cap - 1, j = h & mask, probes = 0;
    while (s->slots[j].hash) {
        if (s->slots[j].hash == h && s->wide[s->slots[j].key] == v) return;
        j = (j + 1) & mask;
        SQE_PROBE_STEP(probes, s->cap);
    }
    if (s->wide_len == s->wide_cap) {
        s->wide_cap = s->wide_cap ? s->wide_cap * 2 : 16;
        s->wide = sqe_realloc(s->wide, s->wide_cap * sizeof *s->wide);
    }
    s->wide[s->wide_len] = v;
    s->slots[j].hash = h;
    s->slots[j].key = s->wide_len++;
    s->size++;
}

static inline const char *dset_str(const dset *s, uint64_t off, uint32_t *len) {
    memcpy(len, s->bytes + off, sizeof *len);
    return s->bytes + off + sizeof *len;
}

static void dset_insert_str(dset *s, uint64_t h, const char *p, uint32_t len) {
    dset_reserve(s);
    size_t mask = s->cap - 1, j = h & mask, probes = 0;
    while (s->slots[j].hash) {
        if (s->slots[j].hash == h) {
            uint32_t l;
            const char *q = dset_str(s, s->slots[j].key, &l);
            if (l == len && memcmp(q, p, len) == 0) return;
        }
        j = (j + 1) & mask;
        SQE_PROBE_STEP(probes, s->cap);
    }
    size_t need = s->bytes_len + sizeof len + len;
    if (need > s->bytes_cap) {
        size_t cap = s->bytes_cap ? s->bytes_cap * 2 : 256;
        while (cap < need) cap *= 2;
        s->bytes = sqe_realloc(s->bytes, cap);
        s->bytes_cap = cap;
    }
    uint64_t off = s->bytes_len;
    memcpy(s->bytes + off, &len, sizeof len);
    if (len) memcpy(s->bytes + off + sizeof len, p, len);
    s->bytes_len = need;
    s->slots[j].hash = h;
    s->slots[j].key = off;
    s->size++;
}

/* Normalised 64-bit keys: integers sign-extended, floating values with
 * -0.0 folded into 0.0 and every NaN into one. */
static inline uint64_t key_of_double(double d) {
    if (d == 0) d = 0;
    if (isnan(d)) d = NAN;
    uint64_t k;
    memcpy(&k, &d, sizeof k);
    return k;
}

static inline uint64_t key_of_float(float f) {
    if (f == 0) f = 0;
    if (isnan(f)) f = NAN;
    uint32_t k;
    memcpy(&k, &f, sizeof k);
    return k;
}

static inline uint64_t str_hash(const char *p, uint32_t len) {
    return nonzero(sqe_hash_bytes(p, len, 0));
}
static inline uint64_t wide_hash(sqe_i128 v) {
    return nonzero(
        sqe_hash_u64((uint64_t)v ^ sqe_hash_u64((uint64_t)((unsigned __int128)v >> 64))));
}

static inline dset *state_set(void *state, dset_kind kind) {
    distinct_state *st = state;
    if (SQE_UNLIKELY(!st->set)) st->set = dset_new(kind);
    return st->set;
}

/* How far ahead the insert loops prefetch the slot a later row probes:
 * with many groups the sets do not fit in cache, and a probe is a miss. */
#define DSET_PREFETCH 16

#define GATHER_FIXED(T, KEY)                                                                       \
    AGG_FOR(arg, sel, n, T, {                                                                      \
        sets[m] = state_set(states[i], DK_FIXED);                                                  \
        keys[m] = (KEY);                                                                           \
        hashes[m] = sqe_hash_u64(keys[m]);                                                         \
        m++;                                                                                       \
    })
#define GATHER_INT(T) GATHER_FIXED(T, (uint64_t)(int64_t)v)

static bool distinct_update(const sqe_agg_binding *b, void *const *states, const sqe_vector *arg,
                            const uint16_t *sel, uint32_t n, sqe_error *err) {
    dset *sets[SQE_BATCH_ROWS];
    uint64_t keys[SQE_BATCH_ROWS], hashes[SQE_BATCH_ROWS];
    uint32_t m = 0;
    switch (arg->type.id) {
    case SQE_T_VARCHAR:
    case SQE_T_VARBINARY: {
        const char *ptrs[SQE_BATCH_ROWS];
        AGG_FOR(arg, sel, n, sqe_string, {
            sets[m] = state_set(states[i], DK_STR);
            ptrs[m] = sqe_string_data(&x_[row_]);
            keys[m] = v.len;
            hashes[m] = str_hash(ptrs[m], v.len);
            m++;
        });
        for (uint32_t k = 0; k < m; k++) {
            if (k + DSET_PREFETCH < m) {
                const dset *p = sets[k + DSET_PREFETCH];
                __builtin_prefetch(&p->slots[hashes[k + DSET_PREFETCH] & (p->cap - 1)]);
            }
            dset_insert_str(sets[k], hashes[k], ptrs[k], (uint32_t)keys[k]);
        }
        return true;
    }
    case SQE_T_DECIMAL:
        AGG_FOR(arg, sel, n, sqe_i128,
                dset_insert_wide(state_set(states[i], DK_WIDE), wide_hash(v), v););
        return true;
    case SQE_T_REAL:
        GATHER_FIXED(float, key_of_float(v));
        break;
    case SQE_T_DOUBLE:
        GATHER_FIXED(double, key_of_double(v));
        break;
    default:
        SWITCH_INT_TYPES(arg->type.id, GATHER_INT);
        break;
    }
    for (uint32_t k = 0; k < m; k++) {
        if (k + DSET_PREFETCH < m) {
            const dset *p = sets[k + DSET_PREFETCH];
            __builtin_prefetch(&p->keys[hashes[k + DSET_PREFETCH] & (p->cap - 1)]);
        }
        dset_insert_fixed(sets[k], keys[k], hashes[k]);
    }
    return true;
}

/* Bytes a slot array grows to (and allocates while the old one still
 * exists) to hold `used` used slots at most 3/4 full; 0 when it holds them
 * already. */
static size_t dset_slots_need(const dset *s, size_t used, size_t slot_w) {
    size_t cap = s ? s->cap : DSET_INITIAL_CAP;
    size_t ncap = cap;
    while (used * 4 > ncap * 3) ncap *= 2;
    return ncap == cap && s ? 0 : ncap * slot_w;
}

/* The bound of distinct_grow_need for one set: `add` more values whose
 * bytes (STR/WIDE) total at most add_bytes. */
static size_t dset_need(const dset *s, dset_kind kind, size_t add, size_t add_bytes) {
    size_t slot_w = kind == DK_FIXED ? sizeof(uint64_t) : sizeof(dslot);
    size_t need = (s ? 0 : sizeof *s) + dset_slots_need(s, (s ? dset_used(s) : 0) + add, slot_w);
    size_t len = s ? (kind == DK_WIDE ? s->wide_len * sizeof(sqe_i128) : s->bytes_len) : 0;
    size_t cap = s ? (kind == DK_WIDE ? s->wide_cap * sizeof(sqe_i128) : s->bytes_cap) : 0;
    if (kind != DK_FIXED && len + add_bytes > cap) {
        size_t ncap = cap ? cap : 256;
        while (ncap < len + add_bytes) ncap *= 2;
        need += ncap; /* realloc: the new array while the old one exists */
    }
    return need;
}

static size_t distinct_grow_need(const sqe_agg_binding *b, const void *state, const void *other,
                                 const sqe_vector *arg, const uint16_t *sel, uint32_t n) {
    const distinct_data *dd = b->data;
    const dset *s = ((const distinct_state *)state)->set;
    if (other) {
        const dset *o = ((const distinct_state *)other)->set;
        if (!o) return 0;
        size_t o_bytes = dd->kind == DK_WIDE ? o->wide_len * sizeof(sqe_i128) : o->bytes_len;
        /* combine inserts the smaller set into the larger: either way the
         * larger one grows to hold both */
        const dset *big = !s || o->size > s->size ? o : s;
        return dset_need(big, dd->kind, s ? SQE_MIN(s->size, o->size) : 0, s ? o_bytes : 0);
    }
    /* n values of 16 bytes (WIDE), or the rows' strings with their
     * length prefixes (STR) */
    size_t add_bytes = dd->kind == DK_WIDE ? (size_t)n * sizeof(sqe_i128) : 0;
    if (dd->kind == DK_STR && arg) {
        const sqe_string *str = arg->data;
        for (uint32_t i = 0; i < n; i++) add_bytes += sizeof(uint32_t) + str[sel ? sel[i] : i].len;
    }
    return dset_need(s, dd->kind, n, add_bytes);
}

static void distinct_init(const sqe_agg_binding *b, void *s) {
    distinct_state *st = s;
    st->set = NULL;
    st->reported = 0;
}

static int64_t distinct_mem_delta(const sqe_agg_binding *b, void *s) {
    distinct_state *st = s;
    size_t now = dset_bytes(st->set);
    int64_t d = (int64_t)now - (int64_t)st->reported;
    st->reported = now;
    return d;
}

static void distinct_destroy(const sqe_agg_binding *b, void *s) {
    distinct_state *st = s;
    dset_free(st->set);
    st->set = NULL;
}

static bool distinct_combine(const sqe_agg_binding *b, void *dst, void *src, sqe_error *err) {
    distinct_state *d = dst, *s = src;
    if (!s->set) return true;
    if (!d->set || d->set->size < s->set->size) {
        /* Insert the smaller set into the larger one. */
        dset *t = d->set;
        d->set = s->set;
        s->set = t;
        if (!s->set) return true;
    }
    const distinct_data *dd = b->data;
    dset *from = s->set, *to = d->set;
    /* The walk below visits `from` in slot order, that is in hash order, and
     * `to` places values by the same hash bits: a stretch of `from`'s slots
     * lands on one stretch of `to`'s (on each of its cap(to) / cap(from)
     * copies). Growing `to` by 3/4 load as usual lets that stretch hold
     * more values than slots before the load check fires, the inserts
     * then pile into one cluster that every later insert walks, and the
     * merge goes quadratic (issue 11: two sets passing 2^22 values together
     * with two threads). Room for both sets up front keeps every stretch at
     * most 3/4 full. */
    dset_reserve_n(to, SQE_MAX(dset_used(to) + dset_used(from), from->cap * 3 / 4));
    if (dd->kind == DK_FIXED) {
        if (from->has_zero) dset_insert_fixed(to, 0, 0);
        for (size_t i = 0; i < from->cap; i++)
            if (from->keys[i]) dset_insert_fixed(to, from->keys[i], sqe_hash_u64(from->keys[i]));
    } else {
        for (size_t i = 0; i < from->cap; i++) {
            const dslot *sl = &from->slots[i];
            if (!sl->hash) continue;
            if (dd->kind == DK_WIDE) {
                dset_insert_wide(to, sl->hash, from->wide[sl->key]);
            } else {
                uint32_t len;
                const char *p = dset_str(from, sl->key, &len);
                dset_insert_str(to, sl->hash, p, len);
            }
        }
    }
    dset_free(from);
    s->set = NULL;
    return true;
}

/* Writes FIXED key k as a value of v's type at row r. */
static void put_fixed(uint64_t k, sqe_vector *v, uint32_t r) {
    switch (v->type.id) {
    case SQE_T_BOOLEAN:
        SQE_VEC_DATA(v, uint8_t)[r] = (uint8_t)k;
        break;
    case SQE_T_TINYINT:
        SQE_VEC_DATA(v, int8_t)[r] = (int8_t)(int64_t)k;
        break;
    case SQE_T_SMALLINT:
        SQE_VEC_DATA(v, int16_t)[r] = (int16_t)(int64_t)k;
        break;
    case SQE_T_INTEGER:
    case SQE_T_DATE:
        SQE_VEC_DATA(v, int32_t)[r] = (int32_t)(int64_t)k;
        break;
    case SQE_T_REAL: {
        uint32_t bits = (uint32_t)k;
        memcpy(&SQE_VEC_DATA(v, float)[r], &bits, sizeof bits);
        break;
    }
    default:
        SQE_VEC_DATA(v, int64_t)[r] = (int64_t)k;
        break; /* bigint, timestamp, double bits */
    }
}

#define DISTINCT_CHUNK 256

/* Feeds the set's values to the plain aggregate in chunks of a stack vector. */
typedef struct feed {
    const sqe_agg_binding *base;
    void *states[DISTINCT_CHUNK];
    sqe_vector chunk;
    uint32_t k;
    sqe_error *err;
} feed;

static bool feed_flush(feed *f) {
    bool ok = f->k == 0 || f->base->update(f->base, f->states, &f->chunk, NULL, f->k, f->err);
    f->k = 0;
    return ok;
}

static bool distinct_finalize(const sqe_agg_binding *b, void *state, sqe_vector *out, uint32_t row,
                              sqe_error *err) {
    const distinct_data *dd = b->data;
    const sqe_agg_binding *base = &dd->base;
    dset *s = ((distinct_state *)state)->set;
    if (base->update == count_update) {
        SQE_VEC_DATA(out, int64_t)[row] = s ? (int64_t)s->size : 0;
        sqe_vector_set_valid(out, row);
        return true;
    }
    _Alignas(16) unsigned char base_state[64];
    if (base->state_size > sizeof base_state)
        return sqe_error_set(err, SQE_ERR_INTERNAL, "%s(DISTINCT): state too large", b->name);
    base->init(base, base_state);
    bool ok = true;
    if (s && s->size) {
        _Alignas(16) unsigned char data[DISTINCT_CHUNK * 16];
        feed f;
        memset(&f.chunk, 0, sizeof f.chunk);
        f.base = base;
        f.chunk.type = b->arg_type;
        f.chunk.data = data;
        f.k = 0;
        f.err = err;
        for (uint32_t i = 0; i < DISTINCT_CHUNK; i++) f.states[i] = base_state;
        if (dd->kind == DK_FIXED && s->has_zero) put_fixed(0, &f.chunk, f.k++);
        for (size_t i = 0; i < s->cap && ok; i++) {
            if (dd->kind == DK_FIXED) {
                if (!s->keys[i]) continue;
                put_fixed(s->keys[i], &f.chunk, f.k++);
            } else {
                const dslot *sl = &s->slots[i];
                if (!sl->hash) continue;
                if (dd->kind == DK_WIDE) {
                    SQE_VEC_DATA(&f.chunk, sqe_i128)[f.k++] = s->wide[sl->key];
                } else {
                    uint32_t len;
                    const char *p = dset_str(s, sl->key, &len);
                    SQE_VEC_DATA(&f.chunk, sqe_string)[f.k++] = sqe_string_ref(p, len);
                }
            }
            if (f.k == DISTINCT_CHUNK) ok = feed_flush(&f);
        }
        if (ok) ok = feed_flush(&f);
    }
    if (ok) ok = base->finalize(base, base_state, out, row, err);
    if (base->destroy) base->destroy(base, base_state);
    return ok;
}

/* --------------------------------------------------------------- binding */

static const char *const k_agg_names[] = {
    "count",    "sum",         "avg",        "min",       "max",       "count_if",
    "bool_and", "bool_or",     "every",      "arbitrary", "any_value", "approx_distinct",
    "stddev",   "stddev_samp", "stddev_pop", "variance",  "var_samp",  "var_pop",
};

bool sqe_func_is_aggregate(const char *name) {
    for (size_t i = 0; i < SQE_ARRAY_LEN(k_agg_names); i++)
        if (sqe_str_ieq(name, k_agg_names[i])) return true;
    return false;
}

static bool agg_mismatch(const char *name, sqe_type t, const char *expected, sqe_error *err) {
    char tn[48];
    return sqe_error_set(err, SQE_ERR_TYPE_MISMATCH,
                         "unexpected parameters (%s) for function %s; expected: %s",
                         sqe_func_type_name(t, tn, sizeof tn), name, expected);
}

static bool is_fixed_orderable(sqe_type_id id) {
    return id == SQE_T_BOOLEAN || (id >= SQE_T_TINYINT && id <= SQE_T_DECIMAL) ||
           id == SQE_T_DATE || id == SQE_T_TIMESTAMP || id == SQE_T_INTERVAL_DS ||
           id == SQE_T_INTERVAL_YM || id == SQE_T_TIME || id == SQE_T_TIMESTAMP_TZ;
}

static bool bind_minmax(sqe_agg_binding *out, sqe_type t, minmax_mode mode, const char *name,
                        sqe_error *err) {
    out->arg_type = t;
    out->ret = t;
    out->data = (void *)(intptr_t)mode;
    if (t.id == SQE_T_VARCHAR || t.id == SQE_T_VARBINARY) {
        out->state_size = sizeof(smm_state);
        out->init = smm_init;
        out->update = smm_update;
        out->combine = smm_combine;
        out->finalize = smm_finalize;
        out->destroy = smm_destroy;
        out->mem_delta = smm_mem_delta;
        return true;
    }
    if (!is_fixed_orderable((sqe_type_id)t.id))
        return agg_mismatch(name, t,
                            "a comparable type (number, boolean, varchar, date, timestamp)", err);
    out->state_size = sizeof(mm_state);
    out->init = mm_init;
    out->update = mm_update;
    out->combine = mm_combine;
    out->finalize = mm_finalize;
    out->destroy = NULL;
    out->mem_delta = NULL;
    return true;
}

/* Binds the plain (non-DISTINCT) aggregate `name` over type t. */
static bool bind_plain(const char *name, sqe_type t, sqe_agg_binding *out, sqe_error *err) {
    out->arg_type = t;
    out->destroy = NULL;
    out->mem_delta = NULL;
    if (strcmp(name, "count") == 0 || strcmp(name, "approx_distinct") == 0) {
        out->ret = sqe_type_make(SQE_T_BIGINT);
        out->state_size = sizeof(count_state);
        out->init = count_init;
        out->update = count_update;
        out->combine = count_combine;
        out->finalize = count_finalize;
        return true;
    }
    if (strcmp(name, "count_if") == 0) {
        if (t.id != SQE_T_BOOLEAN) return agg_mismatch(name, t, "count_if(boolean)", err);
        out->ret = sqe_type_make(SQE_T_BIGINT);
        out->state_size = sizeof(count_state);
        out->init = count_init;
        out->update = count_if_update;
        out->combine = count_combine;
        out->finalize = count_finalize;
        return true;
    }
    bool is_sum = strcmp(name, "sum") == 0, is_avg = strcmp(name, "avg") == 0;
    if (is_sum || is_avg) {
        if (sqe_type_is_interval(t)) {
            out->ret = t;
            out->state_size = sizeof(isum_state);
            out->init = isum_init;
            out->update = isum_update;
            out->combine = isum_combine;
            out->finalize = iv_sum_avg_finalize;
            return true;
        }
        if (sqe_type_is_integer(t)) {
            out->ret = sqe_type_make(is_sum ? SQE_T_BIGINT : SQE_T_DOUBLE);
            out->state_size = sizeof(isum_state);
            out->init = isum_init;
            out->update = isum_update;
            out->combine = isum_combine;
            out->finalize = is_sum ? sum_int_finalize : avg_int_finalize;
            return true;
        }
        if (t.id == SQE_T_DECIMAL) {
            out->ret = is_sum ? sqe_type_decimal(SQE_DECIMAL_MAX_PRECISION, t.scale) : t;
            out->state_size = sizeof(dsum_state);
            out->init = dsum_init;
            out->update = dsum_update;
            out->combine = dsum_combine;
            out->finalize = is_sum ? sum_dec_finalize : avg_dec_finalize;
            return true;
        }
        if (t.id == SQE_T_REAL || t.id == SQE_T_DOUBLE) {
            out->ret = t;
            out->state_size = sizeof(fsum_state);
            out->init = fsum_init;
            out->update = fsum_update;
            out->combine = fsum_combine;
            out->finalize = is_sum ? fsum_finalize : favg_finalize;
            return true;
        }
        return agg_mismatch(name, t,
                            is_sum ? "sum(bigint), sum(decimal(p,s)), sum(real), sum(double)"
                                   : "avg(bigint), avg(decimal(p,s)), avg(real), avg(double)",
                            err);
    }
    if (strcmp(name, "min") == 0) return bind_minmax(out, t, MM_MIN, name, err);
    if (strcmp(name, "max") == 0) return bind_minmax(out, t, MM_MAX, name, err);
    if (strcmp(name, "arbitrary") == 0 || strcmp(name, "any_value") == 0)
        return bind_minmax(out, t, MM_FIRST, name, err);
    bool is_and = strcmp(name, "bool_and") == 0 || strcmp(name, "every") == 0;
    if (is_and || strcmp(name, "bool_or") == 0) {
        if (t.id != SQE_T_BOOLEAN) return agg_mismatch(name, t, "(boolean)", err);
        out->ret = t;
        out->state_size = sizeof(bool_state);
        out->init = is_and ? bool_and_init : bool_or_init;
        out->update = is_and ? bool_and_update : bool_or_update;
        out->combine = is_and ? bool_and_combine : bool_or_combine;
        out->finalize = bool_finalize;
        return true;
    }
    static const struct {
        const char *name;
        var_kind kind;
    } k_var[] = {{"stddev", STDDEV_SAMP}, {"stddev_samp", STDDEV_SAMP}, {"stddev_pop", STDDEV_POP},
                 {"variance", VAR_SAMP},  {"var_samp", VAR_SAMP},       {"var_pop", VAR_POP}};
    for (size_t i = 0; i < SQE_ARRAY_LEN(k_var); i++) {
        if (strcmp(name, k_var[i].name) != 0) continue;
        if (t.id != SQE_T_DOUBLE) return agg_mismatch(name, t, "(double)", err);
        out->ret = t;
        out->state_size = sizeof(var_state);
        out->init = var_init;
        out->update = var_update;
        out->combine = var_combine;
        out->finalize = var_finalize;
        out->data = (void *)(intptr_t)k_var[i].kind;
        return true;
    }
    return sqe_error_set(err, SQE_ERR_NOT_FOUND, "aggregate function '%s' not registered", name);
}

/* The exact argument type an aggregate wants for an argument of type t
 * (the binder casts to it). */
static sqe_type wanted_arg_type(const char *name, sqe_type t) {
    bool numeric_double = strncmp(name, "stddev", 6) == 0 || strncmp(name, "var", 3) == 0;
    if (numeric_double)
        return sqe_type_is_numeric(t) || t.id == SQE_T_NULL ? sqe_type_make(SQE_T_DOUBLE) : t;
    if (t.id != SQE_T_NULL) return t;
    if (strcmp(name, "sum") == 0) return sqe_type_make(SQE_T_BIGINT);
    if (strcmp(name, "avg") == 0) return sqe_type_make(SQE_T_DOUBLE);
    return sqe_type_make(SQE_T_BOOLEAN);
}

bool sqe_func_bind_aggregate(sqe_arena *arena, const char *name_in, bool distinct, bool star,
                             int n_args, const sqe_type *arg_types, sqe_agg_binding *out,
                             sqe_error *err) {
    char name[32];
    size_t len = strlen(name_in);
    if (len >= sizeof name || !sqe_func_is_aggregate(name_in))
        return sqe_error_set(err, SQE_ERR_NOT_FOUND, "aggregate function '%s' not registered",
                             name_in);
    memcpy(name, name_in, len + 1);
    sqe_str_lower(name);
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < SQE_ARRAY_LEN(k_agg_names); i++)
        if (strcmp(name, k_agg_names[i]) == 0) out->name = k_agg_names[i];
    out->distinct = distinct;
    out->star = star;
    if (star) {
        if (strcmp(name, "count") != 0 || distinct || n_args != 0)
            return sqe_error_set(err, SQE_ERR_SYNTAX, "only count(*) accepts '*'");
        bind_plain("count", sqe_type_make(SQE_T_NULL), out, err);
        out->star = true;
        return true;
    }
    if (n_args != 1)
        return sqe_error_set(err, SQE_ERR_TYPE_MISMATCH,
                             "function %s takes exactly one argument, got %d", name, n_args);
    sqe_type t = wanted_arg_type(name, arg_types[0]);
    if (!bind_plain(name, t, out, err)) return false;
    out->name = out->name ? out->name : "aggregate";
    bool distinct_matters = strcmp(name, "count") == 0 || strcmp(name, "sum") == 0 ||
                            strcmp(name, "avg") == 0 || strcmp(name, "count_if") == 0 ||
                            strncmp(name, "stddev", 6) == 0 || strncmp(name, "var", 3) == 0 ||
                            strcmp(name, "approx_distinct") == 0;
    if (strcmp(name, "approx_distinct") == 0) distinct = true; /* computed exactly */
    if (!distinct || !distinct_matters) return true;

    distinct_data *dd = sqe_arena_alloc(arena, sizeof *dd);
    dd->base = *out;
    switch (t.id) {
    case SQE_T_DECIMAL:
        dd->kind = DK_WIDE;
        break;
    case SQE_T_VARCHAR:
    case SQE_T_VARBINARY:
        dd->kind = DK_STR;
        break;
    default:
        if (!is_fixed_orderable((sqe_type_id)t.id)) {
            char tn[48];
            return sqe_error_set(err, SQE_ERR_TYPE_MISMATCH, "%s(DISTINCT) does not accept %s",
                                 name, sqe_func_type_name(t, tn, sizeof tn));
        }
        dd->kind = DK_FIXED;
        break;
    }
    out->distinct = true;
    out->state_size = sizeof(distinct_state);
    out->init = distinct_init;
    out->update = distinct_update;
    out->combine = distinct_combine;
    out->finalize = distinct_finalize;
    out->destroy = distinct_destroy;
    out->mem_delta = distinct_mem_delta;
    out->grow_need = distinct_grow_need;
    out->data = dd;
    return true;
}
