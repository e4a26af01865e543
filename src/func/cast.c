/*
 * cast.c - vectorized CAST / TRY_CAST (sqe_func_cast_vector) and the
 * date(x) function.
 *
 * types/cast.c (sqe_value_cast) is the reference for what every conversion
 * means; this file only makes the common ones fast. Each fast path is a
 * loop over the selected rows specialised for one (from, to) pair:
 *   integer <-> integer (range checked), integer/real/decimal -> double,
 *   integer -> real, double/real/decimal -> integer (half away from zero),
 *   boolean -> integer, integer
 *   -> decimal, decimal -> decimal, varchar -> integer/double/decimal/date/
 *   timestamp (trimmed, sqe_parse_*), integer/boolean/double/real/decimal/
 *   date/timestamp -> varchar, varchar <-> varchar/varbinary, date <->
 *   timestamp, and same-type copies.
 * A row a fast path cannot convert (bad text, out of range, NaN) is handed
 * to sqe_value_cast, which produces exactly the reference error ("cannot
 * cast 'abc' to integer", "value 300 out of range for tinyint") or, under
 * TRY_CAST, NULL. Pairs without a fast path (bounded VARCHAR(n)/CHAR(n)
 * targets, boolean targets, ...) go through sqe_value_cast row by row.
 *
 * NULL input rows give NULL; rows outside the selection are not touched.
 */
#include "func/func_int.h"

#include <math.h>

typedef struct cast_ctx {
    const sqe_vector *in;
    sqe_vector *out;
    bool try_;
    uint16_t zone;    /* session time zone (to TIMESTAMP WITH TIME ZONE) */
    sqe_arena *arena; /* created on first slow row; freed at the end */
    uint32_t slow_rows;
    sqe_error *err;
} cast_ctx;

/* A string result the output's memory account refused. */
static bool cast_mem_error(cast_ctx *c) {
    return sqe_func_mem_error(c->out, "CAST", c->err);
}

/* Converts one row with the reference implementation. */
static bool slow_row(cast_ctx *c, uint32_t row) {
    sqe_value v, r;
    sqe_vector_get_value(c->in, row, &v);
    if (!c->arena) c->arena = sqe_arena_new(0);
    if (++c->slow_rows % 256 == 0) sqe_arena_reset(c->arena);
    if (!sqe_value_cast_zone(&v, c->out->type, c->try_, c->zone, c->arena, &r, c->err))
        return false;
    if (!sqe_vector_set_value(c->out, row, &r)) return cast_mem_error(c);
    return true;
}

/* Trims bytes <= 0x20 at both ends (Java String.trim, as types/cast.c). */
static inline void trim(const char **p, uint32_t *n) {
    while (*n && (unsigned char)**p <= ' ') {
        (*p)++;
        (*n)--;
    }
    while (*n && (unsigned char)(*p)[*n - 1] <= ' ') (*n)--;
}

/* Loop skeleton: V is the input value; OK decides the fast path, CONV the
 * output value. */
#define CAST_LOOP(TIN, TOUT, OK, CONV)                                                             \
    do {                                                                                           \
        const TIN *x_ = SQE_VEC_DATA(c->in, TIN);                                                  \
        TOUT *o_ = SQE_VEC_DATA(c->out, TOUT);                                                     \
        SQE_FOR_ROWS(sel, n, row, {                                                                \
            if (nulls && !sqe_func_row_valid(c->out, row)) continue;                               \
            TIN v = x_[row];                                                                       \
            if (SQE_LIKELY(OK))                                                                    \
                o_[row] = (TOUT)(CONV);                                                            \
            else if (!slow_row(c, row))                                                            \
                return false;                                                                      \
        });                                                                                        \
        return true;                                                                               \
    } while (0)

/* Parses trimmed varchar text straight into the output array with PARSE
 * (a sqe_parse_* function); a row it rejects takes the exact slow path. */
#define PARSE_LOOP(TOUT, PARSE)                                                                    \
    do {                                                                                           \
        const sqe_string *x_ = SQE_VEC_DATA(c->in, sqe_string);                                    \
        TOUT *o_ = SQE_VEC_DATA(c->out, TOUT);                                                     \
        SQE_FOR_ROWS(sel, n, row, {                                                                \
            if (nulls && !sqe_func_row_valid(c->out, row)) continue;                               \
            const char *p = sqe_string_data(&x_[row]);                                             \
            uint32_t len = x_[row].len;                                                            \
            trim(&p, &len);                                                                        \
            if (SQE_UNLIKELY(!PARSE(p, len, &o_[row])) && !slow_row(c, row)) return false;         \
        });                                                                                        \
        return true;                                                                               \
    } while (0)

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

/* ----------------------------------------------------- integer targets */

#define INT_FROM_INTS(TOUT)                                                                        \
    switch (c->in->type.id) {                                                                      \
    case SQE_T_TINYINT:                                                                            \
        CAST_LOOP(int8_t, TOUT, ((int64_t)v >= lo && (int64_t)v <= hi), v);                        \
    case SQE_T_SMALLINT:                                                                           \
        CAST_LOOP(int16_t, TOUT, ((int64_t)v >= lo && (int64_t)v <= hi), v);                       \
    case SQE_T_INTEGER:                                                                            \
        CAST_LOOP(int32_t, TOUT, ((int64_t)v >= lo && (int64_t)v <= hi), v);                       \
    case SQE_T_BIGINT:                                                                             \
        CAST_LOOP(int64_t, TOUT, ((int64_t)v >= lo && (int64_t)v <= hi), v);                       \
    case SQE_T_DOUBLE:                                                                             \
        CAST_LOOP(double, TOUT,                                                                    \
                  (isfinite(v) && round(v) >= (double)lo && round(v) < -(double)lo &&              \
                   (int64_t)round(v) >= lo && (int64_t)round(v) <= hi),                            \
                  (int64_t)round(v));                                                              \
    case SQE_T_REAL:                                                                               \
        CAST_LOOP(float, TOUT,                                                                     \
                  (isfinite(v) && round(v) >= (double)lo && round(v) < -(double)lo &&              \
                   (int64_t)round(v) >= lo && (int64_t)round(v) <= hi),                            \
                  (int64_t)round(v));                                                              \
    case SQE_T_BOOLEAN:                                                                            \
        CAST_LOOP(uint8_t, TOUT, true, v != 0);                                                    \
    case SQE_T_DECIMAL:                                                                            \
        CAST_LOOP(sqe_i128, TOUT, (sqe_decimal_rescale(v, scale, 0, &r) && r >= lo && r <= hi),    \
                  r);                                                                              \
    default:                                                                                       \
        break;                                                                                     \
    }

static bool to_integer(cast_ctx *c, const uint16_t *sel, uint32_t n, bool nulls) {
    int64_t lo, hi;
    int_range((sqe_type_id)c->out->type.id, &lo, &hi);
    int scale = c->in->type.scale;
    sqe_i128 r;
    switch (c->out->type.id) {
    case SQE_T_TINYINT:
        INT_FROM_INTS(int8_t);
        break;
    case SQE_T_SMALLINT:
        INT_FROM_INTS(int16_t);
        break;
    case SQE_T_INTEGER:
        INT_FROM_INTS(int32_t);
        break;
    case SQE_T_BIGINT:
        INT_FROM_INTS(int64_t);
        break;
    default:
        break;
    }
    if (c->in->type.id == SQE_T_VARCHAR) {
        const sqe_string *x = SQE_VEC_DATA(c->in, sqe_string);
        sqe_type_id to = (sqe_type_id)c->out->type.id;
        void *o = c->out->data;
        SQE_FOR_ROWS(sel, n, row, {
            if (nulls && !sqe_func_row_valid(c->out, row)) continue;
            const char *p = sqe_string_data(&x[row]);
            uint32_t len = x[row].len;
            int64_t v;
            trim(&p, &len);
            if (SQE_UNLIKELY(!sqe_parse_int64(p, len, &v) || v < lo || v > hi)) {
                if (!slow_row(c, row)) return false;
                continue;
            }
            switch (to) {
            case SQE_T_TINYINT:
                ((int8_t *)o)[row] = (int8_t)v;
                break;
            case SQE_T_SMALLINT:
                ((int16_t *)o)[row] = (int16_t)v;
                break;
            case SQE_T_INTEGER:
                ((int32_t *)o)[row] = (int32_t)v;
                break;
            default:
                ((int64_t *)o)[row] = v;
                break;
            }
        });
        return true;
    }
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(c->out, row)) continue;
        if (!slow_row(c, row)) return false;
    });
    return true;
}

/* ------------------------------------------------------ floating targets */

static bool to_double(cast_ctx *c, const uint16_t *sel, uint32_t n, bool nulls) {
    switch (c->in->type.id) {
    case SQE_T_TINYINT:
        CAST_LOOP(int8_t, double, true, v);
    case SQE_T_SMALLINT:
        CAST_LOOP(int16_t, double, true, v);
    case SQE_T_INTEGER:
        CAST_LOOP(int32_t, double, true, v);
    case SQE_T_BIGINT:
        CAST_LOOP(int64_t, double, true, v);
    case SQE_T_REAL:
        CAST_LOOP(float, double, true, v);
    case SQE_T_DECIMAL: {
        int scale = c->in->type.scale;
        CAST_LOOP(sqe_i128, double, true, sqe_decimal_to_double(v, scale));
    }
    case SQE_T_VARCHAR:
        PARSE_LOOP(double, sqe_parse_double);
    default:
        break;
    }
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(c->out, row)) continue;
        if (!slow_row(c, row)) return false;
    });
    return true;
}

static bool to_real(cast_ctx *c, const uint16_t *sel, uint32_t n, bool nulls) {
    switch (c->in->type.id) {
    case SQE_T_TINYINT:
        CAST_LOOP(int8_t, float, true, v);
    case SQE_T_SMALLINT:
        CAST_LOOP(int16_t, float, true, v);
    case SQE_T_INTEGER:
        CAST_LOOP(int32_t, float, true, v);
    case SQE_T_BIGINT:
        CAST_LOOP(int64_t, float, true, v);
    case SQE_T_DOUBLE:
        CAST_LOOP(double, float, (!isfinite(v) || fabs(v) <= 3.4028234663852886e38), v);
    default:
        break;
    }
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(c->out, row)) continue;
        if (!slow_row(c, row)) return false;
    });
    return true;
}

/* ------------------------------------------------------- decimal target */

static bool to_decimal(cast_ctx *c, const uint16_t *sel, uint32_t n, bool nulls) {
    int p = c->out->type.precision, s = c->out->type.scale;
    sqe_i128 m = sqe_pow10_i128[s];
    sqe_i128 r;
    switch (c->in->type.id) {
    case SQE_T_TINYINT:
        CAST_LOOP(int8_t, sqe_i128,
                  (!__builtin_mul_overflow((sqe_i128)v, m, &r) && sqe_decimal_fits(r, p)), r);
    case SQE_T_SMALLINT:
        CAST_LOOP(int16_t, sqe_i128,
                  (!__builtin_mul_overflow((sqe_i128)v, m, &r) && sqe_decimal_fits(r, p)), r);
    case SQE_T_INTEGER:
        CAST_LOOP(int32_t, sqe_i128,
                  (!__builtin_mul_overflow((sqe_i128)v, m, &r) && sqe_decimal_fits(r, p)), r);
    case SQE_T_BIGINT:
        CAST_LOOP(int64_t, sqe_i128,
                  (!__builtin_mul_overflow((sqe_i128)v, m, &r) && sqe_decimal_fits(r, p)), r);
    case SQE_T_DECIMAL: {
        int from = c->in->type.scale;
        CAST_LOOP(sqe_i128, sqe_i128,
                  (sqe_decimal_rescale(v, from, s, &r) && sqe_decimal_fits(r, p)), r);
    }
    case SQE_T_VARCHAR: {
        const sqe_string *x = SQE_VEC_DATA(c->in, sqe_string);
        sqe_i128 *o = SQE_VEC_DATA(c->out, sqe_i128);
        SQE_FOR_ROWS(sel, n, row, {
            if (nulls && !sqe_func_row_valid(c->out, row)) continue;
            const char *q = sqe_string_data(&x[row]);
            uint32_t len = x[row].len;
            trim(&q, &len);
            if (SQE_UNLIKELY(!sqe_parse_decimal(q, len, p, s, &o[row])) && !slow_row(c, row))
                return false;
        });
        return true;
    }
    default:
        break;
    }
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(c->out, row)) continue;
        if (!slow_row(c, row)) return false;
    });
    return true;
}

/* ---------------------------------------------------- date/time targets */

static bool to_date(cast_ctx *c, const uint16_t *sel, uint32_t n, bool nulls) {
    switch (c->in->type.id) {
    case SQE_T_TIMESTAMP:
        CAST_LOOP(int64_t, int32_t, true, sqe_floor_div(v, SQE_MICROS_PER_DAY));
    case SQE_T_VARCHAR:
        PARSE_LOOP(int32_t, sqe_parse_date);
    default:
        break;
    }
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(c->out, row)) continue;
        if (!slow_row(c, row)) return false;
    });
    return true;
}

static bool to_timestamp(cast_ctx *c, const uint16_t *sel, uint32_t n, bool nulls) {
    int64_t r;
    /* timestamp(p) targets round (sqe_value_cast); plain TIMESTAMP has fast paths. */
    switch (sqe_timestamp_precision(c->out->type) < 0 ? c->in->type.id : SQE_T_NULL) {
    case SQE_T_DATE:
        CAST_LOOP(int32_t, int64_t, !__builtin_mul_overflow((int64_t)v, SQE_MICROS_PER_DAY, &r), r);
    case SQE_T_VARCHAR:
        PARSE_LOOP(int64_t, sqe_parse_timestamp);
    default:
        break;
    }
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(c->out, row)) continue;
        if (!slow_row(c, row)) return false;
    });
    return true;
}

/* ------------------------------------------------------ varchar target */

/* Decimal text of v into buf (>= 21 bytes); returns the length. */
static size_t format_i64(int64_t v, char *buf) {
    char tmp[24];
    size_t n = 0;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    size_t k = 0;
    if (v < 0) buf[k++] = '-';
    while (n) buf[k++] = tmp[--n];
    return k;
}

static bool to_varchar(cast_ctx *c, const uint16_t *sel, uint32_t n, bool nulls) {
    sqe_vector *out = c->out;
    const sqe_vector *in = c->in;
    bool bounded = out->type.id == SQE_T_VARCHAR && out->type.str_kind != SQE_STRKIND_STRING &&
                   out->type.length > 0;
    char buf[128];
    if (!bounded) {
        switch (in->type.id) {
        case SQE_T_VARCHAR:
        case SQE_T_VARBINARY: {
            const sqe_string *x = SQE_VEC_DATA(in, sqe_string);
            sqe_string *o = SQE_VEC_DATA(out, sqe_string);
            SQE_FOR_ROWS(sel, n, row, {
                if (nulls && !sqe_func_row_valid(out, row)) continue;
                if (x[row].len <= SQE_STRING_INLINE)
                    o[row] = x[row];
                else if (!sqe_vector_set_string(out, row, x[row].u.ptr, x[row].len))
                    return cast_mem_error(c);
            });
            return true;
        }
        case SQE_T_TINYINT:
        case SQE_T_SMALLINT:
        case SQE_T_INTEGER:
        case SQE_T_BIGINT:
        case SQE_T_DATE:
        case SQE_T_TIMESTAMP:
        case SQE_T_BOOLEAN:
        case SQE_T_DECIMAL: {
            sqe_type_id id = (sqe_type_id)in->type.id;
            int scale = in->type.scale;
            SQE_FOR_ROWS(sel, n, row, {
                if (nulls && !sqe_func_row_valid(out, row)) continue;
                size_t len;
                switch (id) {
                case SQE_T_TINYINT:
                    len = format_i64(SQE_VEC_DATA(in, int8_t)[row], buf);
                    break;
                case SQE_T_SMALLINT:
                    len = format_i64(SQE_VEC_DATA(in, int16_t)[row], buf);
                    break;
                case SQE_T_INTEGER:
                    len = format_i64(SQE_VEC_DATA(in, int32_t)[row], buf);
                    break;
                case SQE_T_BIGINT:
                    len = format_i64(SQE_VEC_DATA(in, int64_t)[row], buf);
                    break;
                case SQE_T_DATE:
                    len = sqe_date_format(SQE_VEC_DATA(in, int32_t)[row], buf, sizeof buf);
                    break;
                case SQE_T_TIMESTAMP:
                    len =
                        sqe_timestamp_format_p(SQE_VEC_DATA(in, int64_t)[row],
                                               sqe_timestamp_precision(in->type), buf, sizeof buf);
                    break;
                case SQE_T_BOOLEAN:
                    len = SQE_VEC_DATA(in, uint8_t)[row] ? 4 : 5;
                    memcpy(buf, SQE_VEC_DATA(in, uint8_t)[row] ? "true" : "false", len);
                    break;
                default:
                    len =
                        sqe_decimal_format(SQE_VEC_DATA(in, sqe_i128)[row], scale, buf, sizeof buf);
                    break;
                }
                if (!sqe_vector_set_string(out, row, buf, len)) return cast_mem_error(c);
            });
            return true;
        }
        case SQE_T_REAL:
        case SQE_T_DOUBLE: {
            sqe_strbuf sb;
            sqe_strbuf_init(&sb);
            SQE_FOR_ROWS(sel, n, row, {
                if (nulls && !sqe_func_row_valid(out, row)) continue;
                sqe_value v;
                sqe_vector_get_value(in, row, &v);
                sqe_strbuf_clear(&sb);
                sqe_value_format(&v, &sb);
                if (!sqe_vector_set_string(out, row, sb.data, sb.len)) {
                    sqe_strbuf_free(&sb);
                    return cast_mem_error(c);
                }
            });
            sqe_strbuf_free(&sb);
            return true;
        }
        default:
            break;
        }
    }
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        if (!slow_row(c, row)) return false;
    });
    return true;
}

/* -------------------------------------------------------------- entry */

/* Same physical representation and no conversion: copy. */
static bool is_plain_copy(sqe_type from, sqe_type to) {
    if (from.id != to.id) return false;
    switch (to.id) {
    case SQE_T_DECIMAL:
        return from.scale == to.scale && from.precision <= to.precision;
    case SQE_T_VARCHAR:
    case SQE_T_VARBINARY:
        return false; /* string bytes must be copied: to_varchar */
    case SQE_T_TIMESTAMP: {
        /* Same or finer digits (plain TIMESTAMP is microseconds): nothing to round. */
        int pf = sqe_timestamp_precision(from), pt = sqe_timestamp_precision(to);
        return pt < 0 || pt >= 6 || (pf >= 0 && pf <= pt);
    }
    case SQE_T_TIME:
        return sqe_time_precision(to) >= SQE_MIN(sqe_time_precision(from), 6);
    default:
        return true;
    }
}

static bool cast_dispatch(cast_ctx *c, const uint16_t *sel, uint32_t n, bool nulls) {
    sqe_type from = c->in->type, to = c->out->type;
    if (is_plain_copy(from, to)) {
        size_t w = sqe_type_width(to);
        if (!sel) {
            memcpy(c->out->data, c->in->data, (size_t)n * w);
        } else {
            for (uint32_t i = 0; i < n; i++)
                memcpy((char *)c->out->data + (size_t)sel[i] * w,
                       (const char *)c->in->data + (size_t)sel[i] * w, w);
        }
        return true;
    }
    switch (to.id) {
    case SQE_T_TINYINT:
    case SQE_T_SMALLINT:
    case SQE_T_INTEGER:
    case SQE_T_BIGINT:
        return to_integer(c, sel, n, nulls);
    case SQE_T_DOUBLE:
        return to_double(c, sel, n, nulls);
    case SQE_T_REAL:
        return to_real(c, sel, n, nulls);
    case SQE_T_DECIMAL:
        return to_decimal(c, sel, n, nulls);
    case SQE_T_DATE:
        return to_date(c, sel, n, nulls);
    case SQE_T_TIMESTAMP:
        return to_timestamp(c, sel, n, nulls);
    case SQE_T_VARCHAR:
        return to_varchar(c, sel, n, nulls);
    case SQE_T_VARBINARY:
        if (from.id == SQE_T_VARCHAR || from.id == SQE_T_VARBINARY) {
            sqe_vector *out = c->out;
            const sqe_string *x = SQE_VEC_DATA(c->in, sqe_string);
            sqe_string *o = SQE_VEC_DATA(out, sqe_string);
            SQE_FOR_ROWS(sel, n, row, {
                if (nulls && !sqe_func_row_valid(out, row)) continue;
                if (x[row].len <= SQE_STRING_INLINE)
                    o[row] = x[row];
                else if (!sqe_vector_set_string(out, row, x[row].u.ptr, x[row].len))
                    return cast_mem_error(c);
            });
            return true;
        }
        break;
    default:
        break;
    }
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(c->out, row)) continue;
        if (!slow_row(c, row)) return false;
    });
    return true;
}

bool sqe_func_cast_vector(const sqe_vector *in, sqe_vector *out, bool try_, const uint16_t *sel,
                          uint32_t n, sqe_error *err) {
    return sqe_func_cast_vector_zone(in, out, try_, 0, sel, n, err);
}

bool sqe_func_cast_vector_zone(const sqe_vector *in, sqe_vector *out, bool try_, uint16_t zone,
                               const uint16_t *sel, uint32_t n, sqe_error *err) {
    if (in->type.id == SQE_T_NULL) {
        SQE_FOR_ROWS(sel, n, row, sqe_vector_set_null(out, row););
        return true;
    }
    if (out->type.id == SQE_T_NULL) {
        char a[48];
        return sqe_error_set(err, SQE_ERR_TYPE_MISMATCH, "cannot cast %s to unknown",
                             sqe_func_type_name(in->type, a, sizeof a));
    }
    sqe_vector *const args[1] = {(sqe_vector *)in};
    bool nulls = sqe_func_propagate_nulls(args, 1, sel, n, out);
    cast_ctx c = {in, out, try_, zone, NULL, 0, err};
    bool ok = cast_dispatch(&c, sel, n, nulls);
    if (c.arena) sqe_arena_free(c.arena);
    return ok;
}

/* ------------------------------------------------------------ date(x) */

static SQE_KERNEL(date_kernel) {
    return sqe_func_cast_vector(args[0], out, false, sel, n, err);
}

/* ---------------------------------------------------------- typeof(x) */

/* Trino's typeof: the SQL name of the argument's type, never NULL. The name
 * is fixed at bind time (b->data); an untyped NULL is "unknown". */
static SQE_KERNEL(typeof_kernel) {
    SQE_UNUSED(args);
    const char *name = b->data;
    size_t len = strlen(name);
    sqe_func_set_all_valid(out, sel, n);
    SQE_FOR_ROWS(sel, n, row, {
        if (!sqe_vector_set_string(out, row, name, len))
            return sqe_func_mem_error(out, b->name, err);
    });
    return true;
}

static bool typeof_bind(const sqe_func_sig *sig, sqe_arena *arena, sqe_func_binding *b,
                        const sqe_value *const *const_args, sqe_error *err) {
    SQE_UNUSED(sig);
    SQE_UNUSED(const_args);
    SQE_UNUSED(err);
    char buf[64];
    b->data = sqe_arena_strdup(
        arena, sqe_func_type_name(b->arg_types[0], buf, sizeof buf)); /* NULL: "unknown" */
    return true;
}

static const sqe_func_sig k_sigs[] = {
    {"typeof", 1, false, {SQE_FP_ASIS}, SQE_T_VARCHAR, typeof_kernel, typeof_bind},
    {"date", 1, false, {SQE_T_DATE}, SQE_T_DATE, date_kernel, NULL},
    {"date", 1, false, {SQE_T_TIMESTAMP}, SQE_T_DATE, date_kernel, NULL},
    {"date", 1, false, {SQE_T_VARCHAR}, SQE_T_DATE, date_kernel, NULL},
};

SQE_FUNC_TABLE(sqe_func_cast_table, k_sigs);
