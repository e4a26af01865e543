/*
 * math_more.c - the rest of Trino's math functions: truncate(x, n),
 * width_bucket, random / rand, bitwise_*, from_base / to_base.
 *
 * truncate(x, n) on DOUBLE works on the shortest decimal text of x (Java's
 * BigDecimal.valueOf, which Trino uses), so truncate(0.29, 2) is 0.29 and
 * not 0.28 as scaling by 100 in binary would give; on DECIMAL it zeroes
 * the digits beyond n and keeps the type.
 *
 * random() is a per-expression-state splitmix64 generator seeded from the
 * clock, the state's address and a process counter; the binding is marked
 * nondeterministic so the binder never folds it (or anything above it) to
 * one constant. random(n) / random(m, n) draw integers in [0, n) / [m, n)
 * without modulo bias; an empty range is an error naming the bounds.
 *
 * Shifts follow Trino: bitwise_left_shift and bitwise_right_shift (logical)
 * give 0 for a shift of 64 or more, bitwise_right_shift_arithmetic gives
 * the sign; a negative shift is an error.
 */
#include "func/func_int.h"

#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* ------------------------------------------------------ truncate(x, n) */

/* Shortest decimal text of d that reads back as d. */
static void mx_shortest(double d, char *buf, size_t n) {
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, n, "%.*e", prec - 1, d);
        if (strtod(buf, NULL) == d) return;
    }
}

static double mx_trunc_digits(double x, int64_t n) {
    if (!isfinite(x)) return x;
    if (n > 308) return x;
    if (n < -308) return 0.0 * x;
    char buf[64];
    mx_shortest(x, buf, sizeof buf);
    /* buf: [-]d.ddddde[+-]XX; keep the digits whose power of ten is >= -n */
    char *e = strchr(buf, 'e');
    int exp10 = atoi(e + 1);
    char digits[32];
    int nd = 0;
    for (char *p = buf; p < e; p++)
        if (*p >= '0' && *p <= '9') digits[nd++] = *p;
    int keep = exp10 + 1 + (int)n; /* digits before the cut */
    if (keep <= 0) return x < 0 ? -0.0 : 0.0;
    if (keep >= nd) return x;
    char out[64];
    snprintf(out, sizeof out, "%s0.%.*se%d", x < 0 ? "-" : "", keep, digits, exp10 + 1);
    return strtod(out, NULL);
}

static SQE_KERNEL(trunc2_f64) {
    const double *x = SQE_VEC_DATA(args[0], double);
    const int64_t *d = SQE_VEC_DATA(args[1], int64_t);
    double *o = SQE_VEC_DATA(out, double);
    bool nulls = sqe_func_propagate_nulls(args, 2, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        o[row] = mx_trunc_digits(x[row], d[row]);
    });
    return true;
}

static SQE_KERNEL(trunc2_dec) {
    const sqe_i128 *x = SQE_VEC_DATA(args[0], sqe_i128);
    const int64_t *d = SQE_VEC_DATA(args[1], int64_t);
    sqe_i128 *o = SQE_VEC_DATA(out, sqe_i128);
    int scale = b->arg_types[0].scale, prec = b->arg_types[0].precision;
    bool nulls = sqe_func_propagate_nulls(args, 2, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        int64_t drop = (int64_t)scale - d[row]; /* digits to zero */
        if (drop <= 0) {
            o[row] = x[row];
        } else if (drop >= prec) {
            o[row] = 0;
        } else {
            sqe_i128 p = sqe_pow10_i128[drop];
            o[row] = x[row] / p * p; /* C division truncates toward zero */
        }
    });
    return true;
}

/* --------------------------------------------------------- width_bucket */

static bool mx_bucket(double x, double b1, double b2, int64_t count, int64_t *res, sqe_error *err) {
    if (count <= 0)
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                             "width_bucket: bucketCount must be greater than 0, got %lld",
                             (long long)count);
    if (isnan(x))
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                             "width_bucket: operand must not be NaN");
    if (!isfinite(b1) || !isfinite(b2))
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT, "width_bucket: bounds must be finite");
    if (b1 == b2)
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                             "width_bucket: bounds cannot equal each other (%g)", b1);
    double lo = b1 < b2 ? b1 : b2, hi = b1 < b2 ? b2 : b1;
    int64_t r;
    if (x < lo) {
        r = 0;
    } else if (x >= hi) {
        if (count == INT64_MAX)
            return sqe_error_set(err, SQE_ERR_OUT_OF_RANGE, "width_bucket: bucket count overflow");
        r = count + 1;
    } else {
        r = (int64_t)((double)count * (x - lo) / (hi - lo) + 1);
    }
    if (b1 > b2) r = count - r + 1;
    *res = r;
    return true;
}

static SQE_KERNEL(width_bucket_kernel) {
    const double *x = SQE_VEC_DATA(args[0], double), *lo = SQE_VEC_DATA(args[1], double),
                 *hi = SQE_VEC_DATA(args[2], double);
    const int64_t *c = SQE_VEC_DATA(args[3], int64_t);
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    bool nulls = sqe_func_propagate_nulls(args, 4, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        if (!mx_bucket(x[row], lo[row], hi[row], c[row], &o[row], err)) return false;
    });
    return true;
}

/* --------------------------------------------------------------- random */

typedef struct mx_rng {
    uint64_t s;
} mx_rng;

static atomic_uint_fast64_t mx_seed_counter;

static void *mx_rng_new(const sqe_func_binding *b) {
    mx_rng *r = sqe_malloc(sizeof *r);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    r->s = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ (uint64_t)(uintptr_t)r ^
           (atomic_fetch_add(&mx_seed_counter, 1) * 0x9E3779B97F4A7C15ULL);
    return r;
}

static void mx_rng_free(void *p) {
    sqe_free(p);
}

static inline uint64_t mx_next(mx_rng *r) {
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Uniform in [0, range) without modulo bias (range > 0). */
static uint64_t mx_below(mx_rng *r, uint64_t range) {
    uint64_t limit = UINT64_MAX - UINT64_MAX % range;
    uint64_t v;
    do v = mx_next(r);
    while (v >= limit);
    return v % range;
}

static bool mx_random_impl(const sqe_func_binding *b, mx_rng *r, sqe_vector *const *args,
                           const uint16_t *sel, uint32_t n, sqe_vector *out, sqe_error *err) {
    if (b->n_args == 0) {
        double *o = SQE_VEC_DATA(out, double);
        sqe_func_set_all_valid(out, sel, n);
        SQE_FOR_ROWS(sel, n, row, { o[row] = (double)(mx_next(r) >> 11) * 0x1.0p-53; });
        return true;
    }
    bool two = b->n_args == 2;
    const int64_t *lo = two ? SQE_VEC_DATA(args[0], int64_t) : NULL;
    const int64_t *hi = SQE_VEC_DATA(args[two ? 1 : 0], int64_t);
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    bool nulls = sqe_func_propagate_nulls(args, b->n_args, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        int64_t l = lo ? lo[row] : 0, h = hi[row];
        if (h <= l)
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "%s: upper bound must be greater than lower bound (%lld, %lld)",
                                 b->name, (long long)l, (long long)h);
        o[row] = (int64_t)((uint64_t)l + mx_below(r, (uint64_t)h - (uint64_t)l));
    });
    return true;
}

static SQE_KERNEL(random_kernel) {
    mx_rng *r = b->state ? b->state : mx_rng_new(b);
    bool ok = mx_random_impl(b, r, args, sel, n, out, err);
    if (!b->state) mx_rng_free(r);
    return ok;
}

static bool bind_random(const sqe_func_sig *sig, sqe_arena *arena, sqe_func_binding *b,
                        const sqe_value *const *const_args, sqe_error *err) {
    b->state_new = mx_rng_new;
    b->state_free = mx_rng_free;
    b->nondeterministic = true;
    return true;
}

/* -------------------------------------------------------------- bitwise */

#define BITOP(NAME, EXPR)                                                                          \
    static SQE_KERNEL(NAME) {                                                                      \
        const int64_t *x = SQE_VEC_DATA(args[0], int64_t);                                         \
        const int64_t *y = b->n_args > 1 ? SQE_VEC_DATA(args[1], int64_t) : x;                     \
        int64_t *o = SQE_VEC_DATA(out, int64_t);                                                   \
        sqe_func_propagate_nulls(args, b->n_args, sel, n, out);                                    \
        SQE_FOR_ROWS(sel, n, row, {                                                                \
            uint64_t a = (uint64_t)x[row], c = (uint64_t)y[row];                                   \
            (void)c;                                                                               \
            o[row] = (int64_t)(EXPR);                                                              \
        });                                                                                        \
        return true;                                                                               \
    }

BITOP(bit_and, a &c)
BITOP(bit_or, a | c)
BITOP(bit_xor, a ^ c)
BITOP(bit_not, ~a)

typedef enum { SH_LEFT, SH_RIGHT, SH_ARITH } mx_shift;

static bool shift_kernel(const sqe_func_binding *b, sqe_vector *const *args, const uint16_t *sel,
                         uint32_t n, sqe_vector *out, mx_shift kind, sqe_error *err) {
    const int64_t *x = SQE_VEC_DATA(args[0], int64_t), *s = SQE_VEC_DATA(args[1], int64_t);
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    bool nulls = sqe_func_propagate_nulls(args, 2, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        int64_t k = s[row];
        if (k < 0)
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "%s: shift must not be negative, got %lld", b->name, (long long)k);
        uint64_t v = (uint64_t)x[row];
        if (kind == SH_ARITH)
            o[row] = k >= 64 ? (x[row] < 0 ? -1 : 0) : x[row] >> k;
        else if (k >= 64)
            o[row] = 0;
        else
            o[row] = (int64_t)(kind == SH_LEFT ? v << k : v >> k);
    });
    return true;
}

static SQE_KERNEL(shl_kernel) {
    return shift_kernel(b, args, sel, n, out, SH_LEFT, err);
}
static SQE_KERNEL(shr_kernel) {
    return shift_kernel(b, args, sel, n, out, SH_RIGHT, err);
}
static SQE_KERNEL(sar_kernel) {
    return shift_kernel(b, args, sel, n, out, SH_ARITH, err);
}

/* ---------------------------------------------------- from_base / to_base */

static bool mx_radix_ok(const char *fn, int64_t radix, sqe_error *err) {
    if (radix < 2 || radix > 36)
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                             "%s: radix must be between 2 and 36, got %lld", fn, (long long)radix);
    return true;
}

static SQE_KERNEL(from_base_kernel) {
    const int64_t *rx = SQE_VEC_DATA(args[1], int64_t);
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    bool nulls = sqe_func_propagate_nulls(args, 2, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        if (!mx_radix_ok(b->name, rx[row], err)) return false;
        uint32_t len;
        const char *p = sqe_func_str(args[0], row, &len);
        char buf[72];
        char *end = NULL;
        bool ok = len > 0 && len < sizeof buf && p[0] != ' ' && p[0] != '+';
        if (ok) {
            memcpy(buf, p, len);
            buf[len] = '\0';
            errno = 0;
            long long v = strtoll(buf, &end, (int)rx[row]);
            ok = errno == 0 && end == buf + len;
            o[row] = v;
        }
        if (!ok)
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "from_base: not a valid base-%lld number: '%.*s'",
                                 (long long)rx[row], (int)SQE_MIN(len, 100), p);
    });
    return true;
}

static SQE_KERNEL(to_base_kernel) {
    const int64_t *x = SQE_VEC_DATA(args[0], int64_t), *rx = SQE_VEC_DATA(args[1], int64_t);
    bool nulls = sqe_func_propagate_nulls(args, 2, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        if (!mx_radix_ok(b->name, rx[row], err)) return false;
        char buf[72];
        int k = 72;
        uint64_t v = x[row] < 0 ? 0 - (uint64_t)x[row] : (uint64_t)x[row];
        do {
            buf[--k] = "0123456789abcdefghijklmnopqrstuvwxyz"[v % (uint64_t)rx[row]];
            v /= (uint64_t)rx[row];
        } while (v);
        if (x[row] < 0) buf[--k] = '-';
        if (!sqe_vector_set_string(out, row, buf + k, (size_t)(72 - k)))
            return sqe_func_mem_error(out, b->name, err);
    });
    return true;
}

#define I SQE_T_BIGINT
#define D SQE_T_DOUBLE

static const sqe_func_sig k_sigs[] = {
    {"truncate", 2, false, {SQE_T_DECIMAL, I}, SQE_FR_ARG0, trunc2_dec, NULL},
    {"truncate", 2, false, {D, I}, D, trunc2_f64, NULL},
    {"width_bucket", 4, false, {D, D, D, I}, I, width_bucket_kernel, NULL},
    {"random", 0, false, {0}, D, random_kernel, bind_random},
    {"rand", 0, false, {0}, D, random_kernel, bind_random},
    {"random", 1, false, {I}, I, random_kernel, bind_random},
    {"rand", 1, false, {I}, I, random_kernel, bind_random},
    {"random", 2, false, {I, I}, I, random_kernel, bind_random},
    {"rand", 2, false, {I, I}, I, random_kernel, bind_random},
    {"bitwise_and", 2, false, {I, I}, I, bit_and, NULL},
    {"bitwise_or", 2, false, {I, I}, I, bit_or, NULL},
    {"bitwise_xor", 2, false, {I, I}, I, bit_xor, NULL},
    {"bitwise_not", 1, false, {I}, I, bit_not, NULL},
    {"bitwise_left_shift", 2, false, {I, I}, I, shl_kernel, NULL},
    {"bitwise_right_shift", 2, false, {I, I}, I, shr_kernel, NULL},
    {"bitwise_right_shift_arithmetic", 2, false, {I, I}, I, sar_kernel, NULL},
    {"from_base", 2, false, {SQE_T_VARCHAR, I}, I, from_base_kernel, NULL},
    {"to_base", 2, false, {I, I}, SQE_T_VARCHAR, to_base_kernel, NULL},
};

SQE_FUNC_TABLE(sqe_func_math_more_table, k_sigs);
