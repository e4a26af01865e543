/*
 * math.c - numeric functions: abs, sign, round (1 and 2 arguments),
 * ceil/ceiling, floor, truncate, sqrt, cbrt, power/pow, exp, ln, log2,
 * log10, log(b, x), pi, e, nan, infinity, is_nan, is_finite, is_infinite,
 * greatest and least. (mod() lives with % in arith.c.)
 *
 * Result types follow Trino: abs/sign/round/ceil/floor on an integer type
 * return that type; on DOUBLE/REAL the same floating type; round(x) and
 * ceil/floor on decimal(p,s) return decimal(min(38, p - s + min(s, 1)), 0),
 * truncate(decimal(p,s)) decimal(max(1, p - s), 0),
 * round(x, d) on decimal(p,s) returns decimal(min(38, p + 1), s); sign on a
 * decimal returns decimal(1,0). The transcendental functions take and return
 * DOUBLE (the registry widens everything numeric to it) and follow IEEE
 * (sqrt(-1) is NaN, ln(0) is -Infinity), as Trino does.
 *
 * Rounding is half away from zero everywhere, including round(x, d) with a
 * negative d on integers (round(125, -1) = 130).
 */
#include "func/func_int.h"

#include <math.h>

static bool overflow(sqe_error *err, const char *fn, const char *type, long long v) {
    return sqe_error_set(err, SQE_ERR_OUT_OF_RANGE, "%s overflow: %s(%lld)", type, fn, v);
}

/* ---------------------------------------------------------------- abs */

#define INT_ABS(FN, T, TNAME, TMIN)                                                                \
    static SQE_KERNEL(FN) {                                                                        \
        const T *x = SQE_VEC_DATA(args[0], T);                                                     \
        T *o = SQE_VEC_DATA(out, T);                                                               \
        bool nulls = sqe_func_propagate_nulls(args, 1, sel, n, out);                               \
        SQE_FOR_ROWS(sel, n, row, {                                                                \
            T v = x[row];                                                                          \
            if (SQE_UNLIKELY(v == TMIN) && (!nulls || sqe_func_row_valid(out, row)))               \
                return overflow(err, "abs", TNAME, (long long)v);                                  \
            o[row] = v < 0 && v != TMIN ? (T)-v : v;                                               \
        });                                                                                        \
        return true;                                                                               \
    }

INT_ABS(abs_i8, int8_t, "tinyint", INT8_MIN)
INT_ABS(abs_i16, int16_t, "smallint", INT16_MIN)
INT_ABS(abs_i32, int32_t, "integer", INT32_MIN)
INT_ABS(abs_i64, int64_t, "bigint", INT64_MIN)

#define FLOAT_UNARY(FN, T, EXPR)                                                                   \
    static SQE_KERNEL(FN) {                                                                        \
        const T *x = SQE_VEC_DATA(args[0], T);                                                     \
        T *o = SQE_VEC_DATA(out, T);                                                               \
        sqe_func_propagate_nulls(args, 1, sel, n, out);                                            \
        SQE_FOR_ROWS(sel, n, row, {                                                                \
            T v = x[row];                                                                          \
            o[row] = (EXPR);                                                                       \
        });                                                                                        \
        return true;                                                                               \
    }

FLOAT_UNARY(abs_f64, double, fabs(v))
FLOAT_UNARY(abs_f32, float, fabsf(v))
FLOAT_UNARY(round_f64, double, round(v))
FLOAT_UNARY(round_f32, float, roundf(v))
FLOAT_UNARY(ceil_f64, double, ceil(v))
FLOAT_UNARY(ceil_f32, float, ceilf(v))
FLOAT_UNARY(floor_f64, double, floor(v))
FLOAT_UNARY(floor_f32, float, floorf(v))
FLOAT_UNARY(trunc_f64, double, trunc(v))
FLOAT_UNARY(sqrt_f64, double, sqrt(v))
/* glibc's cbrt is off by an ulp on exact cubes (cbrt(27) = 3.0000000000000004);
 * the long double one rounds to the correctly rounded double, as Java's. */
FLOAT_UNARY(cbrt_f64, double, (double)cbrtl((long double)v))
FLOAT_UNARY(exp_f64, double, exp(v))
FLOAT_UNARY(ln_f64, double, log(v))
FLOAT_UNARY(log2_f64, double, log2(v))
FLOAT_UNARY(log10_f64, double, log10(v))
FLOAT_UNARY(sign_f64, double, isnan(v) ? v : (double)((v > 0) - (v < 0)))
FLOAT_UNARY(sign_f32, float, isnan(v) ? v : (float)((v > 0) - (v < 0)))

#define FLOAT_PRED(FN, EXPR)                                                                       \
    static SQE_KERNEL(FN) {                                                                        \
        const double *x = SQE_VEC_DATA(args[0], double);                                           \
        uint8_t *o = SQE_VEC_DATA(out, uint8_t);                                                   \
        sqe_func_propagate_nulls(args, 1, sel, n, out);                                            \
        SQE_FOR_ROWS(sel, n, row, {                                                                \
            double v = x[row];                                                                     \
            o[row] = (uint8_t)(EXPR);                                                              \
        });                                                                                        \
        return true;                                                                               \
    }

FLOAT_PRED(is_nan_f64, isnan(v) != 0)
FLOAT_PRED(is_finite_f64, isfinite(v) != 0)
FLOAT_PRED(is_infinite_f64, isinf(v) != 0)

static SQE_KERNEL(abs_dec) {
    const sqe_i128 *x = SQE_VEC_DATA(args[0], sqe_i128);
    sqe_i128 *o = SQE_VEC_DATA(out, sqe_i128);
    sqe_func_propagate_nulls(args, 1, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        sqe_i128 v = x[row];
        o[row] = v < 0 ? (sqe_i128)((unsigned __int128)0 - (unsigned __int128)v) : v;
    });
    return true;
}

/* --------------------------------------------------------------- sign */

#define INT_SIGN(FN, T)                                                                            \
    static SQE_KERNEL(FN) {                                                                        \
        const T *x = SQE_VEC_DATA(args[0], T);                                                     \
        T *o = SQE_VEC_DATA(out, T);                                                               \
        sqe_func_propagate_nulls(args, 1, sel, n, out);                                            \
        SQE_FOR_ROWS(sel, n, row, o[row] = (T)((x[row] > 0) - (x[row] < 0)););                     \
        return true;                                                                               \
    }

INT_SIGN(sign_i8, int8_t)
INT_SIGN(sign_i16, int16_t)
INT_SIGN(sign_i32, int32_t)
INT_SIGN(sign_i64, int64_t)
INT_SIGN(sign_dec, sqe_i128)

static bool bind_sign_dec(const sqe_func_sig *sig, sqe_arena *arena, sqe_func_binding *b,
                          const sqe_value *const *const_args, sqe_error *err) {
    b->ret = sqe_type_decimal(1, 0);
    return true;
}

/* ------------------------------------------------- identity on integers */

static SQE_KERNEL(identity_kernel) {
    size_t w = sqe_type_width(out->type);
    sqe_func_propagate_nulls(args, 1, sel, n, out);
    if (!sel) {
        memcpy(out->data, args[0]->data, (size_t)n * w);
        return true;
    }
    for (uint32_t i = 0; i < n; i++)
        memcpy((char *)out->data + (size_t)sel[i] * w,
               (const char *)args[0]->data + (size_t)sel[i] * w, w);
    return true;
}

/* ------------------------------------------- decimal round / ceil / floor */

/* Rounds v (scale s) to `keep` fractional digits (keep < s), mode 0 half
 * away from zero, 1 ceiling, 2 floor, 3 toward zero; result still at scale s-(s-keep)
 * i.e. divided by 10^(s-keep). */
static sqe_i128 dec_drop_digits(sqe_i128 v, int drop, int mode) {
    if (drop <= 0) return v;
    if (drop > SQE_DECIMAL_MAX_PRECISION) {
        if (mode == 1) return v > 0 ? 1 : 0;
        if (mode == 2) return v < 0 ? -1 : 0;
        return 0;
    }
    sqe_i128 p = sqe_pow10_i128[drop];
    sqe_i128 q = v / p, r = v % p;
    switch (mode) {
    case 0:
        return sqe_func_div_round(v, p);
    case 1:
        return r > 0 ? q + 1 : q;
    case 2:
        return r < 0 ? q - 1 : q;
    default:
        return q;
    }
}

static bool dec_to_int_kernel(const sqe_func_binding *b, sqe_vector *const *args,
                              const uint16_t *sel, uint32_t n, sqe_vector *out, int mode) {
    const sqe_i128 *x = SQE_VEC_DATA(args[0], sqe_i128);
    sqe_i128 *o = SQE_VEC_DATA(out, sqe_i128);
    int drop = b->arg_types[0].scale;
    bool nulls = sqe_func_propagate_nulls(args, 1, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        o[row] = dec_drop_digits(x[row], drop, mode);
    });
    return true;
}

static SQE_KERNEL(round_dec) {
    return dec_to_int_kernel(b, args, sel, n, out, 0);
}
static SQE_KERNEL(ceil_dec) {
    return dec_to_int_kernel(b, args, sel, n, out, 1);
}
static SQE_KERNEL(floor_dec) {
    return dec_to_int_kernel(b, args, sel, n, out, 2);
}
static SQE_KERNEL(trunc_dec) {
    return dec_to_int_kernel(b, args, sel, n, out, 3);
}

/* truncate(decimal(p,s)) -> decimal(max(1, p - s), 0) (Trino) */
static bool bind_dec_trunc(const sqe_func_sig *sig, sqe_arena *arena, sqe_func_binding *b,
                           const sqe_value *const *const_args, sqe_error *err) {
    SQE_UNUSED(sig);
    SQE_UNUSED(arena);
    SQE_UNUSED(const_args);
    SQE_UNUSED(err);
    sqe_type t = b->arg_types[0];
    b->ret = sqe_type_decimal(SQE_MAX(1, t.precision - t.scale), 0);
    return true;
}

static bool bind_dec_integral(const sqe_func_sig *sig, sqe_arena *arena, sqe_func_binding *b,
                              const sqe_value *const *const_args, sqe_error *err) {
    sqe_type t = b->arg_types[0];
    int p = t.precision - t.scale + SQE_MIN(t.scale, 1);
    b->ret = sqe_type_decimal(SQE_MAX(1, SQE_MIN(p, SQE_DECIMAL_MAX_PRECISION)), 0);
    return true;
}

/* round(decimal(p,s), d) -> decimal(min(38, p+1), s) */
static SQE_KERNEL(round2_dec) {
    const sqe_i128 *x = SQE_VEC_DATA(args[0], sqe_i128);
    const int64_t *d = SQE_VEC_DATA(args[1], int64_t);
    sqe_i128 *o = SQE_VEC_DATA(out, sqe_i128);
    int s = b->arg_types[0].scale, rp = b->ret.precision;
    bool nulls = sqe_func_propagate_nulls(args, 2, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        int64_t digits = d[row];
        if (digits >= s) {
            o[row] = x[row];
            continue;
        }
        int64_t drop64 = (int64_t)s - digits;
        int drop =
            drop64 > SQE_DECIMAL_MAX_PRECISION + 1 ? SQE_DECIMAL_MAX_PRECISION + 1 : (int)drop64;
        sqe_i128 r = dec_drop_digits(x[row], drop, 0), scaled;
        if (r == 0) {
            o[row] = 0;
            continue;
        }
        if (drop > SQE_DECIMAL_MAX_PRECISION ||
            __builtin_mul_overflow(r, sqe_pow10_i128[drop], &scaled) ||
            !sqe_decimal_fits(scaled, rp))
            return sqe_error_set(err, SQE_ERR_OUT_OF_RANGE, "decimal overflow in round");
        o[row] = scaled;
    });
    return true;
}

static bool bind_round2_dec(const sqe_func_sig *sig, sqe_arena *arena, sqe_func_binding *b,
                            const sqe_value *const *const_args, sqe_error *err) {
    sqe_type t = b->arg_types[0];
    b->ret = sqe_type_decimal(SQE_MIN(t.precision + 1, SQE_DECIMAL_MAX_PRECISION), t.scale);
    return true;
}

/* round(integer, d): identity for d >= 0, else to a multiple of 10^-d. */
#define INT_ROUND2(FN, T, TNAME, TMIN, TMAX)                                                       \
    static SQE_KERNEL(FN) {                                                                        \
        const T *x = SQE_VEC_DATA(args[0], T);                                                     \
        const int64_t *d = SQE_VEC_DATA(args[1], int64_t);                                         \
        T *o = SQE_VEC_DATA(out, T);                                                               \
        bool nulls = sqe_func_propagate_nulls(args, 2, sel, n, out);                               \
        SQE_FOR_ROWS(sel, n, row, {                                                                \
            if (nulls && !sqe_func_row_valid(out, row)) continue;                                  \
            if (d[row] >= 0) {                                                                     \
                o[row] = x[row];                                                                   \
                continue;                                                                          \
            }                                                                                      \
            int drop = d[row] < -19 ? 20 : (int)-d[row];                                           \
            sqe_i128 r =                                                                           \
                dec_drop_digits(x[row], drop, 0) * (drop > 19 ? 0 : sqe_pow10_i128[drop]);         \
            if (r < TMIN || r > TMAX) return overflow(err, "round", TNAME, (long long)x[row]);     \
            o[row] = (T)r;                                                                         \
        });                                                                                        \
        return true;                                                                               \
    }

INT_ROUND2(round2_i8, int8_t, "tinyint", INT8_MIN, INT8_MAX)
INT_ROUND2(round2_i16, int16_t, "smallint", INT16_MIN, INT16_MAX)
INT_ROUND2(round2_i32, int32_t, "integer", INT32_MIN, INT32_MAX)
INT_ROUND2(round2_i64, int64_t, "bigint", INT64_MIN, INT64_MAX)

static double round_digits(double v, int64_t digits) {
    if (isnan(v) || isinf(v)) return v;
    if (digits > 300) return v;
    if (digits < -300) return copysign(0.0, v);
    double factor = pow(10.0, (double)digits);
    double scaled = v * factor;
    if (fabs(scaled) >= 4503599627370496.0 || isinf(scaled)) return v; /* already integral there */
    double r = round(scaled) / factor;
    return isfinite(r) ? r : v;
}

static SQE_KERNEL(round2_f64) {
    const double *x = SQE_VEC_DATA(args[0], double);
    const int64_t *d = SQE_VEC_DATA(args[1], int64_t);
    double *o = SQE_VEC_DATA(out, double);
    sqe_func_propagate_nulls(args, 2, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, o[row] = round_digits(x[row], d[row]););
    return true;
}

static SQE_KERNEL(round2_f32) {
    const float *x = SQE_VEC_DATA(args[0], float);
    const int64_t *d = SQE_VEC_DATA(args[1], int64_t);
    float *o = SQE_VEC_DATA(out, float);
    sqe_func_propagate_nulls(args, 2, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, o[row] = (float)round_digits(x[row], d[row]););
    return true;
}

/* ----------------------------------------------------- binary doubles */

static SQE_KERNEL(power_f64) {
    const double *x = SQE_VEC_DATA(args[0], double), *y = SQE_VEC_DATA(args[1], double);
    double *o = SQE_VEC_DATA(out, double);
    sqe_func_propagate_nulls(args, 2, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, o[row] = pow(x[row], y[row]););
    return true;
}

/* log(b, x) = ln(x) / ln(b) */
static SQE_KERNEL(log_base_f64) {
    const double *bs = SQE_VEC_DATA(args[0], double), *x = SQE_VEC_DATA(args[1], double);
    double *o = SQE_VEC_DATA(out, double);
    sqe_func_propagate_nulls(args, 2, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, o[row] = log(x[row]) / log(bs[row]););
    return true;
}

/* ---------------------------------------------------------- constants */

static SQE_KERNEL(const_kernel) {
    double v = *(const double *)b->data;
    double *o = SQE_VEC_DATA(out, double);
    sqe_func_set_all_valid(out, sel, n);
    SQE_FOR_ROWS(sel, n, row, o[row] = v;);
    return true;
}

static bool bind_const(const sqe_func_sig *sig, sqe_arena *arena, sqe_func_binding *b,
                       const sqe_value *const *const_args, sqe_error *err) {
    double *v = sqe_arena_alloc(arena, sizeof *v);
    if (strcmp(sig->name, "pi") == 0)
        *v = 3.14159265358979323846;
    else if (strcmp(sig->name, "e") == 0)
        *v = 2.71828182845904523536;
    else if (strcmp(sig->name, "nan") == 0)
        *v = NAN;
    else
        *v = INFINITY;
    b->data = v;
    return true;
}

/* --------------------------------------------------- greatest / least */

#define EXTREME(FN, T, BETTER)                                                                     \
    static SQE_KERNEL(FN) {                                                                        \
        int na = b->n_args;                                                                        \
        T *o = SQE_VEC_DATA(out, T);                                                               \
        bool nulls = sqe_func_propagate_nulls(args, na, sel, n, out);                              \
        SQE_FOR_ROWS(sel, n, row, {                                                                \
            if (nulls && !sqe_func_row_valid(out, row)) continue;                                  \
            const T *best = &SQE_VEC_DATA(args[0], T)[row];                                        \
            for (int a = 1; a < na; a++) {                                                         \
                const T *c = &SQE_VEC_DATA(args[a], T)[row];                                       \
                if (BETTER) best = c;                                                              \
            }                                                                                      \
            o[row] = *best;                                                                        \
        });                                                                                        \
        return true;                                                                               \
    }

#define EXTREME_PAIR(SUFFIX, T)                                                                    \
    EXTREME(greatest_##SUFFIX, T, *c > *best)                                                      \
    EXTREME(least_##SUFFIX, T, *c < *best)

EXTREME_PAIR(u8, uint8_t)
EXTREME_PAIR(i8, int8_t)
EXTREME_PAIR(i16, int16_t)
EXTREME_PAIR(i32, int32_t)
EXTREME_PAIR(i64, int64_t)
/* Floating point: NaN never wins over a number (Trino ranks it smallest for
 * greatest and largest for least), so the result is NaN only when every
 * argument is. */
#define EXTREME_PAIR_FLOAT(SUFFIX, T)                                                              \
    EXTREME(greatest_##SUFFIX, T, *c > *best || (isnan(*best) && !isnan(*c)))                      \
    EXTREME(least_##SUFFIX, T, *c < *best || (isnan(*best) && !isnan(*c)))

EXTREME_PAIR_FLOAT(f32, float)
EXTREME_PAIR_FLOAT(f64, double)
EXTREME_PAIR(i128, sqe_i128)

/* Strings: the result view is copied into out's heap. */
static bool extreme_str(const sqe_func_binding *b, sqe_vector *const *args, const uint16_t *sel,
                        uint32_t n, sqe_vector *out, int want, sqe_error *err) {
    int na = b->n_args;
    bool nulls = sqe_func_propagate_nulls(args, na, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        const sqe_string *best = &SQE_VEC_DATA(args[0], sqe_string)[row];
        for (int a = 1; a < na; a++) {
            const sqe_string *c = &SQE_VEC_DATA(args[a], sqe_string)[row];
            if (sqe_string_cmp(c, best) * want > 0) best = c;
        }
        if (!sqe_vector_set_string(out, row, sqe_string_data(best), best->len))
            return sqe_func_mem_error(out, b->name, err);
    });
    return true;
}

static SQE_KERNEL(greatest_str) {
    return extreme_str(b, args, sel, n, out, 1, err);
}
static SQE_KERNEL(least_str) {
    return extreme_str(b, args, sel, n, out, -1, err);
}

static bool bind_extreme(const sqe_func_sig *sig, sqe_arena *arena, sqe_func_binding *b,
                         const sqe_value *const *const_args, sqe_error *err) {
    bool g = strcmp(sig->name, "greatest") == 0;
    sqe_type t = b->arg_types[0];
    b->ret = t;
    switch (t.id) {
    case SQE_T_BOOLEAN:
        b->kernel = g ? greatest_u8 : least_u8;
        break;
    case SQE_T_TINYINT:
        b->kernel = g ? greatest_i8 : least_i8;
        break;
    case SQE_T_SMALLINT:
        b->kernel = g ? greatest_i16 : least_i16;
        break;
    case SQE_T_INTEGER:
    case SQE_T_DATE:
        b->kernel = g ? greatest_i32 : least_i32;
        break;
    case SQE_T_BIGINT:
    case SQE_T_TIMESTAMP:
        b->kernel = g ? greatest_i64 : least_i64;
        break;
    case SQE_T_REAL:
        b->kernel = g ? greatest_f32 : least_f32;
        break;
    case SQE_T_DOUBLE:
        b->kernel = g ? greatest_f64 : least_f64;
        break;
    case SQE_T_DECIMAL:
        b->kernel = g ? greatest_i128 : least_i128;
        break;
    case SQE_T_VARCHAR:
    case SQE_T_VARBINARY:
        b->kernel = g ? greatest_str : least_str;
        break;
    default: {
        char tn[48];
        return sqe_error_set(err, SQE_ERR_TYPE_MISMATCH, "%s does not accept %s", sig->name,
                             sqe_func_type_name(t, tn, sizeof tn));
    }
    }
    return true;
}

/* --------------------------------------------------------------- table */

#define D SQE_T_DOUBLE
#define F SQE_T_REAL
#define DEC SQE_T_DECIMAL
#define U1(NAME, ID, K)                                                                            \
    { NAME, 1, false, {ID}, SQE_FR_ARG0, K, NULL }
#define INT_IDENT(NAME)                                                                            \
    U1(NAME, SQE_T_TINYINT, identity_kernel), U1(NAME, SQE_T_SMALLINT, identity_kernel),           \
        U1(NAME, SQE_T_INTEGER, identity_kernel), U1(NAME, SQE_T_BIGINT, identity_kernel)
#define DBL1(NAME, K)                                                                              \
    { NAME, 1, false, {D}, D, K, NULL }
#define CONST0(NAME)                                                                               \
    { NAME, 0, false, {0}, D, const_kernel, bind_const }

static const sqe_func_sig k_sigs[] = {
    U1("abs", SQE_T_TINYINT, abs_i8),
    U1("abs", SQE_T_SMALLINT, abs_i16),
    U1("abs", SQE_T_INTEGER, abs_i32),
    U1("abs", SQE_T_BIGINT, abs_i64),
    U1("abs", DEC, abs_dec),
    U1("abs", F, abs_f32),
    U1("abs", D, abs_f64),

    U1("sign", SQE_T_TINYINT, sign_i8),
    U1("sign", SQE_T_SMALLINT, sign_i16),
    U1("sign", SQE_T_INTEGER, sign_i32),
    U1("sign", SQE_T_BIGINT, sign_i64),
    {"sign", 1, false, {DEC}, SQE_FR_BIND, sign_dec, bind_sign_dec},
    U1("sign", F, sign_f32),
    U1("sign", D, sign_f64),

    INT_IDENT("round"),
    {"round", 1, false, {DEC}, SQE_FR_BIND, round_dec, bind_dec_integral},
    U1("round", F, round_f32),
    U1("round", D, round_f64),
    {"round", 2, false, {SQE_T_TINYINT, SQE_T_BIGINT}, SQE_FR_ARG0, round2_i8, NULL},
    {"round", 2, false, {SQE_T_SMALLINT, SQE_T_BIGINT}, SQE_FR_ARG0, round2_i16, NULL},
    {"round", 2, false, {SQE_T_INTEGER, SQE_T_BIGINT}, SQE_FR_ARG0, round2_i32, NULL},
    {"round", 2, false, {SQE_T_BIGINT, SQE_T_BIGINT}, SQE_FR_ARG0, round2_i64, NULL},
    {"round", 2, false, {DEC, SQE_T_BIGINT}, SQE_FR_BIND, round2_dec, bind_round2_dec},
    {"round", 2, false, {F, SQE_T_BIGINT}, SQE_FR_ARG0, round2_f32, NULL},
    {"round", 2, false, {D, SQE_T_BIGINT}, SQE_FR_ARG0, round2_f64, NULL},

    INT_IDENT("ceil"),
    {"ceil", 1, false, {DEC}, SQE_FR_BIND, ceil_dec, bind_dec_integral},
    U1("ceil", F, ceil_f32),
    U1("ceil", D, ceil_f64),
    INT_IDENT("ceiling"),
    {"ceiling", 1, false, {DEC}, SQE_FR_BIND, ceil_dec, bind_dec_integral},
    U1("ceiling", F, ceil_f32),
    U1("ceiling", D, ceil_f64),
    INT_IDENT("floor"),
    {"floor", 1, false, {DEC}, SQE_FR_BIND, floor_dec, bind_dec_integral},
    U1("floor", F, floor_f32),
    U1("floor", D, floor_f64),
    {"truncate", 1, false, {DEC}, SQE_FR_BIND, trunc_dec, bind_dec_trunc},
    DBL1("truncate", trunc_f64),

    DBL1("sqrt", sqrt_f64),
    DBL1("cbrt", cbrt_f64),
    DBL1("exp", exp_f64),
    DBL1("ln", ln_f64),
    DBL1("log2", log2_f64),
    DBL1("log10", log10_f64),
    {"log", 2, false, {D, D}, D, log_base_f64, NULL},
    {"power", 2, false, {D, D}, D, power_f64, NULL},
    {"pow", 2, false, {D, D}, D, power_f64, NULL},
    {"is_nan", 1, false, {D}, SQE_T_BOOLEAN, is_nan_f64, NULL},
    {"is_finite", 1, false, {D}, SQE_T_BOOLEAN, is_finite_f64, NULL},
    {"is_infinite", 1, false, {D}, SQE_T_BOOLEAN, is_infinite_f64, NULL},
    CONST0("pi"),
    CONST0("e"),
    CONST0("nan"),
    CONST0("infinity"),

    {"greatest", 1, true, {SQE_FP_ANY}, SQE_FR_BIND, NULL, bind_extreme},
    {"least", 1, true, {SQE_FP_ANY}, SQE_FR_BIND, NULL, bind_extreme},
};

SQE_FUNC_TABLE(sqe_func_math_table, k_sigs);
