/*
 * keys.c - normalized key slots: typed vector values turned into 16-byte
 * slots that hash, compare for equality and order without looking at the
 * type again (see sqe_key_slot in exec_int.h).
 *
 * Where it sits: the hash aggregate loads its group keys and hashes them
 * column by column; sort and top-N load their ORDER BY keys; IN lists load
 * the tested value. Loading is one loop per column with the type switch
 * outside the loop; hashing, equality and ordering are inline in
 * exec_int.h.
 *
 * Invariant: two slots of the same class are sqe_key_eq iff the SQL values
 * are equal for GROUP BY / DISTINCT / IN (NaN equals NaN, -0.0 equals 0.0),
 * and equal slots have equal sqe_key_hash.
 */
#include "exec/exec_int.h"

#include <stddef.h>

sqe_key_class sqe_key_class_of(sqe_type t) {
    switch (t.id) {
    case SQE_T_REAL:
    case SQE_T_DOUBLE:
        return SQE_KEY_F64;
    case SQE_T_DECIMAL:
        return SQE_KEY_I128;
    case SQE_T_VARCHAR:
    case SQE_T_VARBINARY:
        return SQE_KEY_STR;
    default:
        return SQE_KEY_I64;
    }
}

static inline int64_t norm_double_bits(double d) {
    if (d == 0) d = 0.0;
    if (d != d) d = NAN;
    int64_t bits;
    memcpy(&bits, &d, 8);
    return bits;
}

#define LOAD_INT(T)                                                                                \
    do {                                                                                           \
        const T *d_ = (const T *)v->data;                                                          \
        if (sel)                                                                                   \
            for (uint32_t i = 0; i < n; i++) slots[i].i = d_[sel[i]];                              \
        else                                                                                       \
            for (uint32_t i = 0; i < n; i++) slots[i].i = d_[i];                                   \
    } while (0)

void sqe_key_load(const sqe_vector *v, const uint16_t *sel, uint32_t n, sqe_key_slot *slots,
                  uint8_t *nulls) {
    if (v->type.id == SQE_T_NULL) {
        memset(slots, 0, (size_t)n * sizeof *slots);
        memset(nulls, 1, n);
        return;
    }
    switch (v->type.id) {
    case SQE_T_BOOLEAN:
        LOAD_INT(uint8_t);
        break;
    case SQE_T_TINYINT:
        LOAD_INT(int8_t);
        break;
    case SQE_T_SMALLINT:
        LOAD_INT(int16_t);
        break;
    case SQE_T_INTEGER:
    case SQE_T_DATE:
        LOAD_INT(int32_t);
        break;
    case SQE_T_BIGINT:
    case SQE_T_TIMESTAMP:
    case SQE_T_INTERVAL_DS:
    case SQE_T_INTERVAL_YM:
    case SQE_T_TIME:
    case SQE_T_TIMESTAMP_TZ:
        LOAD_INT(int64_t);
        break;
    case SQE_T_REAL: {
        const float *d = v->data;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t r = sel ? sel[i] : i;
            slots[i].i = norm_double_bits((double)d[r]);
        }
        break;
    }
    case SQE_T_DOUBLE: {
        const double *d = v->data;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t r = sel ? sel[i] : i;
            slots[i].i = norm_double_bits(d[r]);
        }
        break;
    }
    case SQE_T_DECIMAL: {
        const sqe_i128 *d = v->data;
        for (uint32_t i = 0; i < n; i++) slots[i].x = d[sel ? sel[i] : i];
        break;
    }
    case SQE_T_VARCHAR:
    case SQE_T_VARBINARY: {
        /* Zero the bytes after an inline string: masks per length for the
         * two 8-byte words of the view (len + prefix, then inline bytes). */
        static const uint64_t m0[SQE_STRING_INLINE + 1] = {
            0x00000000ffffffffULL, 0x000000ffffffffffULL, 0x0000ffffffffffffULL,
            0x00ffffffffffffffULL, 0xffffffffffffffffULL, 0xffffffffffffffffULL,
            0xffffffffffffffffULL, 0xffffffffffffffffULL, 0xffffffffffffffffULL,
            0xffffffffffffffffULL, 0xffffffffffffffffULL, 0xffffffffffffffffULL,
            0xffffffffffffffffULL};
        static const uint64_t m1[SQE_STRING_INLINE + 1] = {
            0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
            0x0000000000000000ULL, 0x0000000000000000ULL, 0x00000000000000ffULL,
            0x000000000000ffffULL, 0x0000000000ffffffULL, 0x00000000ffffffffULL,
            0x000000ffffffffffULL, 0x0000ffffffffffffULL, 0x00ffffffffffffffULL,
            0xffffffffffffffffULL};
        const sqe_string *d = v->data;
        for (uint32_t i = 0; i < n; i++) {
            const sqe_string *s = &d[sel ? sel[i] : i];
            sqe_key_slot *k = &slots[i];
            memcpy(k, s, sizeof *k);
            uint32_t len = s->len;
            if (len <= SQE_STRING_INLINE) {
                k->w[0] &= m0[len];
                k->w[1] &= m1[len];
            }
        }
        break;
    }
    default:
        memset(slots, 0, (size_t)n * sizeof *slots);
        break;
    }
    if (v->has_nulls) {
        for (uint32_t i = 0; i < n; i++) {
            uint32_t r = sel ? sel[i] : i;
            uint8_t isnull = !((v->validity[r >> 6] >> (r & 63)) & 1);
            nulls[i] = isnull;
            if (isnull) slots[i].w[0] = slots[i].w[1] = 0;
        }
    } else {
        memset(nulls, 0, n);
    }
}

#define STORE_INT(T)                                                                               \
    do {                                                                                           \
        T *d_ = (T *)out->data + dst_row;                                                          \
        for (uint32_t i = 0; i < n; i++) d_[i] = (T)slots[i].i;                                    \
    } while (0)

void sqe_key_store(sqe_vector *out, uint32_t dst_row, const sqe_key_slot *slots,
                   const uint8_t *nulls, uint32_t n) {
    switch (out->type.id) {
    case SQE_T_NULL:
        break;
    case SQE_T_BOOLEAN:
        STORE_INT(uint8_t);
        break;
    case SQE_T_TINYINT:
        STORE_INT(int8_t);
        break;
    case SQE_T_SMALLINT:
        STORE_INT(int16_t);
        break;
    case SQE_T_INTEGER:
    case SQE_T_DATE:
        STORE_INT(int32_t);
        break;
    case SQE_T_BIGINT:
    case SQE_T_TIMESTAMP:
    case SQE_T_INTERVAL_DS:
    case SQE_T_INTERVAL_YM:
    case SQE_T_TIME:
    case SQE_T_TIMESTAMP_TZ:
        STORE_INT(int64_t);
        break;
    case SQE_T_REAL:
    case SQE_T_DOUBLE:
        for (uint32_t i = 0; i < n; i++) {
            double d;
            memcpy(&d, &slots[i].i, 8);
            if (out->type.id == SQE_T_REAL)
                SQE_VEC_DATA(out, float)[dst_row + i] = (float)d;
            else
                SQE_VEC_DATA(out, double)[dst_row + i] = d;
        }
        break;
    case SQE_T_DECIMAL:
        for (uint32_t i = 0; i < n; i++) SQE_VEC_DATA(out, sqe_i128)[dst_row + i] = slots[i].x;
        break;
    case SQE_T_VARCHAR:
    case SQE_T_VARBINARY:
        for (uint32_t i = 0; i < n; i++) SQE_VEC_DATA(out, sqe_string)[dst_row + i] = slots[i].s;
        break;
    default:
        break;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (out->type.id == SQE_T_NULL || (nulls && nulls[i]))
            sqe_vector_set_null(out, dst_row + i);
        else
            sqe_vector_set_valid(out, dst_row + i);
    }
}
