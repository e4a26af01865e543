/*
 * compare.c - the comparison operators = <> < <= > >= and
 * is_distinct_from, for every type.
 *
 * Both arguments are coerced to their common type (sqe_type_compare_common: integer
 * widening, integer -> decimal, numeric -> double, date -> timestamp,
 * varchar kinds -> varchar; NULL with NULL compares as varchar), so one
 * kernel per (operator, physical representation) suffices: the bind
 * callback picks it once, and the kernel is a plain loop over the selected
 * rows with no per-row dispatch and no sqe_value. Decimals with the common
 * scale compare as 128-bit integers. Strings compare bytewise (Trino's
 * varchar order); when the common type is CHAR(n) (a CHAR on either side,
 * see sqe_type_compare_common) they compare PAD SPACE, trailing spaces ignored; equality checks
 * length and the 4-byte prefix before touching the bytes. REAL/DOUBLE use IEEE comparisons (NaN is
 * unequal to everything, as Trino's operators).
 *
 * Numeric kernels compute every selected row, NULL or not (NULL slots hold
 * harmless garbage and the validity bits say NULL); string kernels skip NULL
 * rows because a garbage view could point anywhere.
 *
 * is_distinct_from never returns NULL: NULL vs NULL is false, NULL vs value
 * true, otherwise "not equal" with NaN equal to NaN (as DISTINCT groups).
 */
#include "func/func_int.h"

#include <math.h>

enum { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP__COUNT };

#define NUM_CMP(FN, T, OP)                                                                         \
    static SQE_KERNEL(FN) {                                                                        \
        const T *x = SQE_VEC_DATA(args[0], T), *y = SQE_VEC_DATA(args[1], T);                      \
        uint8_t *o = SQE_VEC_DATA(out, uint8_t);                                                   \
        sqe_func_propagate_nulls(args, 2, sel, n, out);                                            \
        SQE_FOR_ROWS(sel, n, row, o[row] = (uint8_t)(x[row] OP y[row]););                          \
        return true;                                                                               \
    }

#define NUM_CMP_FAMILY(SUFFIX, T)                                                                  \
    NUM_CMP(eq_##SUFFIX, T, ==)                                                                    \
    NUM_CMP(ne_##SUFFIX, T, !=)                                                                    \
    NUM_CMP(lt_##SUFFIX, T, <)                                                                     \
    NUM_CMP(le_##SUFFIX, T, <=)                                                                    \
    NUM_CMP(gt_##SUFFIX, T, >)                                                                     \
    NUM_CMP(ge_##SUFFIX, T, >=)

NUM_CMP_FAMILY(u8, uint8_t)
NUM_CMP_FAMILY(i8, int8_t)
NUM_CMP_FAMILY(i16, int16_t)
NUM_CMP_FAMILY(i32, int32_t)
NUM_CMP_FAMILY(i64, int64_t)
NUM_CMP_FAMILY(f32, float)
NUM_CMP_FAMILY(f64, double)
NUM_CMP_FAMILY(i128, sqe_i128)

/* TIMESTAMP WITH TIME ZONE compares instants (the zone key is ignored). */
#define TZ_CMP(FN, OP)                                                                             \
    static SQE_KERNEL(FN) {                                                                        \
        const int64_t *x = SQE_VEC_DATA(args[0], int64_t), *y = SQE_VEC_DATA(args[1], int64_t);    \
        uint8_t *o = SQE_VEC_DATA(out, uint8_t);                                                   \
        sqe_func_propagate_nulls(args, 2, sel, n, out);                                            \
        SQE_FOR_ROWS(sel, n, row,                                                                  \
                     o[row] = (uint8_t)(sqe_tstz_millis(x[row]) OP sqe_tstz_millis(y[row])););     \
        return true;                                                                               \
    }
TZ_CMP(eq_tz, ==)
TZ_CMP(ne_tz, !=)
TZ_CMP(lt_tz, <)
TZ_CMP(le_tz, <=)
TZ_CMP(gt_tz, >)
TZ_CMP(ge_tz, >=)

/* Equality of two views without sqe_string_cmp's three-way work. */
static inline bool str_eq(const sqe_string *a, const sqe_string *b) {
    if (a->len != b->len) return false;
    uint32_t n = a->len;
    if (n <= SQE_STRING_INLINE) return memcmp(a->prefix, b->prefix, n) == 0;
    if (memcmp(a->prefix, b->prefix, 4) != 0) return false;
    return memcmp(a->u.ptr, b->u.ptr, n) == 0;
}

#define STR_CMP(FN, EXPR)                                                                          \
    static SQE_KERNEL(FN) {                                                                        \
        const sqe_string *x = SQE_VEC_DATA(args[0], sqe_string);                                   \
        const sqe_string *y = SQE_VEC_DATA(args[1], sqe_string);                                   \
        uint8_t *o = SQE_VEC_DATA(out, uint8_t);                                                   \
        bool nulls = sqe_func_propagate_nulls(args, 2, sel, n, out);                               \
        SQE_FOR_ROWS(sel, n, row, {                                                                \
            if (nulls && !sqe_func_row_valid(out, row)) continue;                                  \
            const sqe_string *a = &x[row], *c = &y[row];                                           \
            o[row] = (uint8_t)(EXPR);                                                              \
        });                                                                                        \
        return true;                                                                               \
    }

/* CHAR(n) (issue 7 item 15): PAD SPACE comparison as Trino's CHAR, the
 * shorter value compared as if padded with spaces to the longer one's
 * length, so trailing spaces never matter ('ab' = 'ab '; 'ab' > 'ab\t'). */
static int char_cmp(const sqe_string *a, const sqe_string *b) {
    const char *pa = sqe_string_data(a), *pb = sqe_string_data(b);
    uint32_t la = a->len, lb = b->len, m = la < lb ? la : lb;
    int r = m ? memcmp(pa, pb, m) : 0;
    if (r) return r;
    const char *tail = la > lb ? pa : pb;
    for (uint32_t i = m, end = la > lb ? la : lb; i < end; i++) {
        if (tail[i] != ' ') {
            int t = (uint8_t)tail[i] < ' ' ? -1 : 1;
            return la > lb ? t : -t;
        }
    }
    return 0;
}

STR_CMP(eq_str, str_eq(a, c))
STR_CMP(ne_str, !str_eq(a, c))
STR_CMP(lt_str, sqe_string_cmp(a, c) < 0)
STR_CMP(le_str, sqe_string_cmp(a, c) <= 0)
STR_CMP(gt_str, sqe_string_cmp(a, c) > 0)
STR_CMP(ge_str, sqe_string_cmp(a, c) >= 0)
STR_CMP(eq_chr, char_cmp(a, c) == 0)
STR_CMP(ne_chr, char_cmp(a, c) != 0)
STR_CMP(lt_chr, char_cmp(a, c) < 0)
STR_CMP(le_chr, char_cmp(a, c) <= 0)
STR_CMP(gt_chr, char_cmp(a, c) > 0)
STR_CMP(ge_chr, char_cmp(a, c) >= 0)

#define KROW(SUFFIX)                                                                               \
    { eq_##SUFFIX, ne_##SUFFIX, lt_##SUFFIX, le_##SUFFIX, gt_##SUFFIX, ge_##SUFFIX }

static const sqe_scalar_kernel k_u8[] = KROW(u8), k_i8[] = KROW(i8), k_i16[] = KROW(i16),
                               k_i32[] = KROW(i32), k_i64[] = KROW(i64), k_f32[] = KROW(f32),
                               k_f64[] = KROW(f64), k_i128[] = KROW(i128), k_str[] = KROW(str),
                               k_chr[] = KROW(chr), k_tz[] = KROW(tz);

static const sqe_scalar_kernel *kernels_for(sqe_type_id id) {
    switch (id) {
    case SQE_T_BOOLEAN:
        return k_u8;
    case SQE_T_TINYINT:
        return k_i8;
    case SQE_T_SMALLINT:
        return k_i16;
    case SQE_T_INTEGER:
    case SQE_T_DATE:
        return k_i32;
    case SQE_T_BIGINT:
    case SQE_T_TIMESTAMP:
    case SQE_T_INTERVAL_DS:
    case SQE_T_INTERVAL_YM:
    case SQE_T_TIME:
        return k_i64;
    case SQE_T_TIMESTAMP_TZ:
        return k_tz;
    case SQE_T_REAL:
        return k_f32;
    case SQE_T_DOUBLE:
        return k_f64;
    case SQE_T_DECIMAL:
        return k_i128;
    case SQE_T_VARCHAR:
    case SQE_T_VARBINARY:
        return k_str;
    default:
        return NULL;
    }
}

static int op_of(const char *name) {
    static const char *const k_names[OP__COUNT] = {"=", "<>", "<", "<=", ">", ">="};
    for (int i = 0; i < OP__COUNT; i++)
        if (strcmp(name, k_names[i]) == 0) return i;
    if (strcmp(name, "!=") == 0) return OP_NE;
    return -1;
}

static bool bind_cmp(const sqe_func_sig *sig, sqe_arena *arena, sqe_func_binding *b,
                     const sqe_value *const *const_args, sqe_error *err) {
    const sqe_scalar_kernel *ks = kernels_for((sqe_type_id)b->arg_types[0].id);
    if (b->arg_types[0].id == SQE_T_VARCHAR && b->arg_types[0].str_kind == SQE_STRKIND_CHAR)
        ks = k_chr;
    int op = op_of(sig->name);
    if (!ks || op < 0) {
        char tn[48];
        return sqe_error_set(err, SQE_ERR_TYPE_MISMATCH, "cannot apply operator %s to %s",
                             sig->name, sqe_func_type_name(b->arg_types[0], tn, sizeof tn));
    }
    b->kernel = ks[op];
    return true;
}

/* ---------------------------------------------------- is_distinct_from */

/* Row is distinct given validity va/vb and "values differ" neq. */
#define DISTINCT(FN, T, NEQ)                                                                       \
    static SQE_KERNEL(FN) {                                                                        \
        const T *x = SQE_VEC_DATA(args[0], T), *y = SQE_VEC_DATA(args[1], T);                      \
        uint8_t *o = SQE_VEC_DATA(out, uint8_t);                                                   \
        const sqe_vector *va = args[0], *vb = args[1];                                             \
        sqe_func_set_all_valid(out, sel, n);                                                       \
        SQE_FOR_ROWS(sel, n, row, {                                                                \
            bool an = !sqe_func_row_valid(va, row), bn = !sqe_func_row_valid(vb, row);             \
            if (an || bn) {                                                                        \
                o[row] = an != bn;                                                                 \
                continue;                                                                          \
            }                                                                                      \
            const T *a = &x[row], *c = &y[row];                                                    \
            o[row] = (uint8_t)(NEQ);                                                               \
        });                                                                                        \
        return true;                                                                               \
    }

DISTINCT(dist_u8, uint8_t, *a != *c)
DISTINCT(dist_i8, int8_t, *a != *c)
DISTINCT(dist_i16, int16_t, *a != *c)
DISTINCT(dist_i32, int32_t, *a != *c)
DISTINCT(dist_i64, int64_t, *a != *c)
DISTINCT(dist_tz, int64_t, sqe_tstz_millis(*a) != sqe_tstz_millis(*c))
DISTINCT(dist_f32, float, !(*a == *c || (isnan(*a) && isnan(*c))))
DISTINCT(dist_f64, double, !(*a == *c || (isnan(*a) && isnan(*c))))
DISTINCT(dist_i128, sqe_i128, *a != *c)
DISTINCT(dist_str, sqe_string, !str_eq(a, c))
DISTINCT(dist_chr, sqe_string, char_cmp(a, c) != 0)

static bool bind_distinct(const sqe_func_sig *sig, sqe_arena *arena, sqe_func_binding *b,
                          const sqe_value *const *const_args, sqe_error *err) {
    switch (b->arg_types[0].id) {
    case SQE_T_BOOLEAN:
        b->kernel = dist_u8;
        break;
    case SQE_T_TINYINT:
        b->kernel = dist_i8;
        break;
    case SQE_T_SMALLINT:
        b->kernel = dist_i16;
        break;
    case SQE_T_INTEGER:
    case SQE_T_DATE:
        b->kernel = dist_i32;
        break;
    case SQE_T_BIGINT:
    case SQE_T_TIMESTAMP:
    case SQE_T_INTERVAL_DS:
    case SQE_T_INTERVAL_YM:
    case SQE_T_TIME:
        b->kernel = dist_i64;
        break;
    case SQE_T_TIMESTAMP_TZ:
        b->kernel = dist_tz;
        break;
    case SQE_T_REAL:
        b->kernel = dist_f32;
        break;
    case SQE_T_DOUBLE:
        b->kernel = dist_f64;
        break;
    case SQE_T_DECIMAL:
        b->kernel = dist_i128;
        break;
    case SQE_T_VARCHAR:
    case SQE_T_VARBINARY:
        b->kernel =
            b->arg_types[0].str_kind == SQE_STRKIND_CHAR && b->arg_types[0].id == SQE_T_VARCHAR
                ? dist_chr
                : dist_str;
        break;
    default: {
        char tn[48];
        return sqe_error_set(err, SQE_ERR_TYPE_MISMATCH, "cannot apply IS DISTINCT FROM to %s",
                             sqe_func_type_name(b->arg_types[0], tn, sizeof tn));
    }
    }
    return true;
}

#define CMP_SIG(NAME)                                                                              \
    { NAME, 2, false, {SQE_FP_ANY, SQE_FP_ANY}, SQE_T_BOOLEAN, NULL, bind_cmp }

static const sqe_func_sig k_sigs[] = {
    CMP_SIG("="),
    CMP_SIG("<>"),
    CMP_SIG("!="),
    CMP_SIG("<"),
    CMP_SIG("<="),
    CMP_SIG(">"),
    CMP_SIG(">="),
    {"is_distinct_from", 2, false, {SQE_FP_ANY, SQE_FP_ANY}, SQE_T_BOOLEAN, NULL, bind_distinct},
};

SQE_FUNC_TABLE(sqe_func_compare_table, k_sigs);
