/*
 * window_frame.c - frame bounds for WindowExec (window.c): for every row of
 * a partition, the rows its aggregate or FIRST/LAST/NTH_VALUE reads.
 *
 * A frame is a half-open range [fs, fe) of partition-relative rows. An edge
 * that falls outside the partition is clamped to it, and a frame whose
 * start is at or after its end is empty (the function gives NULL, count 0).
 * This is the plain intersection Trino's RowsFraming / GroupsFraming /
 * RangeFraming compute incrementally; here every edge is computed on its
 * own (arithmetic for ROWS and GROUPS, a binary search for RANGE), so
 * offsets may differ from row to row at no extra cost.
 *
 *   ROWS    n PRECEDING / n FOLLOWING count rows from the current one.
 *   GROUPS  count peer groups (rows with equal ORDER BY keys) instead: a
 *           start edge lands on the first row of its group, an end edge
 *           after the last row of its group.
 *   RANGE   CURRENT ROW means the current row's peers. An offset edge
 *           compares ORDER BY values: n PRECEDING starts at the first row
 *           whose key is not before key - n in sort order (key + n when the
 *           key is DESC), n FOLLOWING ends after the last row not after
 *           key + n. A row with a NULL key treats every offset edge as
 *           CURRENT ROW (its frame is the NULL peer group, widened by
 *           UNBOUNDED edges). For a non-NULL row the NULL rows are never
 *           within an offset, but an edge that runs past the last non-NULL
 *           key stops at the NULLs' side, so "5 FOLLOWING AND UNBOUNDED
 *           FOLLOWING" past the largest key still sees trailing NULLs, as in
 *           Trino and PostgreSQL.
 *
 * Offsets are read per row (a constant is one row serving every position)
 * and must be non-negative and non-NULL: "Window frame offset value must not
 * be negative or null" (Trino checks this for every row before the window,
 * so it is checked here even for rows whose key is NULL). RANGE keys and
 * offsets are compared exactly, as 128-bit integers at their common decimal
 * scale, or as doubles when the key or an offset is REAL/DOUBLE; key +/-
 * offset saturates instead of overflowing. Comparisons use the sort's own
 * order (sqe_key_cmp_sort), so NaN sits where the sort put it.
 */
#include "exec/exec_int.h"

#define WIN_BAD_OFFSET "Window frame offset value must not be negative or null"

static bool win_bad_offset(sqe_error *err) {
    return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT, WIN_BAD_OFFSET);
}

static bool win_has_offset(sqe_frame_bound_kind k) {
    return k == SQE_BOUND_PRECEDING || k == SQE_BOUND_FOLLOWING;
}

/* A ROWS/GROUPS offset (an integer) at sorted position pos. */
static bool win_count_offset(const sqe_win_col *c, size_t pos, uint64_t *out, sqe_error *err) {
    uint32_t r;
    const sqe_vector *v = sqe_win_col_at(c, pos, &r);
    if (v->type.id == SQE_T_NULL || sqe_vector_is_null(v, r)) return win_bad_offset(err);
    int64_t x;
    switch (v->type.id) {
    case SQE_T_TINYINT:
        x = SQE_VEC_DATA(v, int8_t)[r];
        break;
    case SQE_T_SMALLINT:
        x = SQE_VEC_DATA(v, int16_t)[r];
        break;
    case SQE_T_INTEGER:
        x = SQE_VEC_DATA(v, int32_t)[r];
        break;
    case SQE_T_BIGINT:
        x = SQE_VEC_DATA(v, int64_t)[r];
        break;
    default:
        return sqe_error_set(err, SQE_ERR_INTERNAL, "window frame offset is not an integer");
    }
    if (x < 0) return win_bad_offset(err);
    *out = (uint64_t)x;
    return true;
}

/* ROWS: the first row of the frame (end = false) or one past its last row
 * (end = true), for row i of n. */
static uint32_t win_rows_edge(sqe_frame_bound_kind k, uint64_t off, uint32_t i, uint32_t n,
                              bool end) {
    uint32_t e = end ? 1 : 0;
    switch (k) {
    case SQE_BOUND_UNBOUNDED_PRECEDING:
        return 0;
    case SQE_BOUND_PRECEDING:
        return off > i ? 0 : (uint32_t)(i - off) + e;
    case SQE_BOUND_CURRENT_ROW:
        return i + e;
    case SQE_BOUND_FOLLOWING:
        return off >= (uint64_t)(n - i - e) ? n : (uint32_t)(i + off) + e;
    case SQE_BOUND_UNBOUNDED_FOLLOWING:
        break;
    }
    return n;
}

/* GROUPS (and RANGE without offsets, where only CURRENT ROW and UNBOUNDED
 * occur): as win_rows_edge in units of peer groups. */
static uint32_t win_groups_edge(sqe_frame_bound_kind k, uint64_t off, const sqe_win_part *p,
                                uint32_t i, bool end) {
    uint32_t g = p->grp[i], e = end ? 1 : 0;
    switch (k) {
    case SQE_BOUND_UNBOUNDED_PRECEDING:
        return 0;
    case SQE_BOUND_PRECEDING:
        return off > g ? 0 : p->gbeg[g - off + e];
    case SQE_BOUND_CURRENT_ROW:
        return p->gbeg[g + e];
    case SQE_BOUND_FOLLOWING:
        return off >= (uint64_t)(p->n_groups - g - e) ? p->n : p->gbeg[g + off + e];
    case SQE_BOUND_UNBOUNDED_FOLLOWING:
        break;
    }
    return p->n;
}

/* ---------------------------------------------------------------- RANGE */

typedef struct win_range {
    const sqe_win_frame_spec *spec;
    const sqe_win_part *p;
    sqe_key_slot *slots; /* per row: its key in comparison form (non-NULL rows) */
    uint32_t a, b;       /* the rows with a non-NULL key (contiguous: NULLs are peers) */
    bool dbl;            /* compare doubles, else 128-bit integers at `scale` */
    int scale;
    sqe_key_class kc;
} win_range;

static bool win_is_float(sqe_type t) {
    return t.id == SQE_T_REAL || t.id == SQE_T_DOUBLE;
}

/* Reads a number (integer, DATE, TIMESTAMP, DECIMAL, REAL, DOUBLE) into
 * comparison form: a normalized double's bits, or a 128-bit integer at
 * `scale`. False when the type is not a number or the value does not fit. */
static bool win_num(const sqe_vector *v, uint32_t r, bool dbl, int scale, sqe_key_slot *out) {
    sqe_i128 x = 0;
    double d = 0;
    int from = 0;
    bool is_f = false;
    switch (v->type.id) {
    case SQE_T_TINYINT:
        x = SQE_VEC_DATA(v, int8_t)[r];
        break;
    case SQE_T_SMALLINT:
        x = SQE_VEC_DATA(v, int16_t)[r];
        break;
    case SQE_T_INTEGER:
    case SQE_T_DATE:
        x = SQE_VEC_DATA(v, int32_t)[r];
        break;
    case SQE_T_BIGINT:
    case SQE_T_TIMESTAMP:
        x = SQE_VEC_DATA(v, int64_t)[r];
        break;
    case SQE_T_DECIMAL:
        x = SQE_VEC_DATA(v, sqe_i128)[r];
        from = v->type.scale;
        break;
    case SQE_T_REAL:
        d = SQE_VEC_DATA(v, float)[r];
        is_f = true;
        break;
    case SQE_T_DOUBLE:
        d = SQE_VEC_DATA(v, double)[r];
        is_f = true;
        break;
    default:
        return false;
    }
    memset(out, 0, sizeof *out);
    if (dbl) {
        if (!is_f) d = from ? sqe_decimal_to_double(x, from) : (double)x;
        if (d == 0) d = 0.0;
        if (isnan(d)) d = NAN;
        memcpy(&out->i, &d, sizeof d);
        return true;
    }
    if (is_f || (from != scale && !sqe_decimal_rescale(x, from, scale, &x))) return false;
    out->x = x;
    return true;
}

/* Picks the comparison form from the key's and the offsets' types. */
static bool win_range_mode(win_range *w, sqe_error *err) {
    const sqe_win_frame_spec *spec = w->spec;
    sqe_type kt = spec->key->chunks[0]->type;
    bool numeric = sqe_type_is_numeric(kt) || kt.id == SQE_T_DATE || kt.id == SQE_T_TIMESTAMP;
    if (!numeric)
        return sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                             "Window frame of type RANGE PRECEDING or FOLLOWING requires a "
                             "numeric, date or timestamp sort key");
    w->dbl = win_is_float(kt);
    w->scale = kt.id == SQE_T_DECIMAL ? kt.scale : 0;
    const sqe_win_col *offs[2] = {spec->start_off, spec->end_off};
    for (int k = 0; k < 2; k++) {
        if (!offs[k]) continue;
        sqe_type t = offs[k]->chunks[0]->type;
        if (win_is_float(t))
            w->dbl = true;
        else if (t.id == SQE_T_DECIMAL)
            w->scale = SQE_MAX(w->scale, (int)t.scale);
        else if (!sqe_type_is_integer(t) && t.id != SQE_T_NULL)
            return sqe_error_set(err, SQE_ERR_INTERNAL, "RANGE frame offset is not a number");
    }
    w->kc = w->dbl ? SQE_KEY_F64 : SQE_KEY_I128;
    return true;
}

/* Loads the partition's keys; finds the non-NULL rows [a, b). */
static bool win_range_load(win_range *w, sqe_error *err) {
    const sqe_win_part *p = w->p;
    uint32_t a = p->n, b = 0;
    for (uint32_t i = 0; i < p->n; i++) {
        uint32_t r;
        const sqe_vector *v = sqe_win_col_at(w->spec->key, p->start + i, &r);
        if (v->type.id == SQE_T_NULL || sqe_vector_is_null(v, r)) continue;
        if (!win_num(v, r, w->dbl, w->scale, &w->slots[i]))
            return sqe_error_set(err, SQE_ERR_OUT_OF_RANGE,
                                 "window frame sort key out of range for its offset's scale");
        if (i < a) a = i;
        b = i + 1;
    }
    w->a = a < b ? a : 0;
    w->b = a < b ? b : 0;
    return true;
}

/* The RANGE offset at sorted position pos, validated. */
static bool win_range_offset(const win_range *w, const sqe_win_col *c, size_t pos,
                             sqe_key_slot *out, sqe_error *err) {
    uint32_t r;
    const sqe_vector *v = sqe_win_col_at(c, pos, &r);
    if (v->type.id == SQE_T_NULL || sqe_vector_is_null(v, r)) return win_bad_offset(err);
    if (!win_num(v, r, w->dbl, w->scale, out))
        return sqe_error_set(err, SQE_ERR_OUT_OF_RANGE, "window frame offset out of range");
    if (w->dbl) {
        double d;
        memcpy(&d, &out->i, sizeof d);
        if (!(d >= 0)) return win_bad_offset(err); /* negative or NaN */
    } else if (out->x < 0) {
        return win_bad_offset(err);
    }
    return true;
}

/* key - off (sub) or key + off, saturating. */
static sqe_key_slot win_bound(const win_range *w, const sqe_key_slot *key, const sqe_key_slot *off,
                              bool sub) {
    sqe_key_slot r;
    memset(&r, 0, sizeof r);
    if (w->dbl) {
        double k, o;
        memcpy(&k, &key->i, sizeof k);
        memcpy(&o, &off->i, sizeof o);
        double v = sub ? k - o : k + o;
        if (v == 0) v = 0.0;
        if (isnan(v)) v = NAN;
        memcpy(&r.i, &v, sizeof v);
        return r;
    }
    const sqe_i128 max = (sqe_i128)(((unsigned __int128)1 << 127) - 1);
    sqe_i128 v;
    bool over = sub ? __builtin_sub_overflow(key->x, off->x, &v)
                    : __builtin_add_overflow(key->x, off->x, &v);
    if (over) v = sub ? -max - 1 : max;
    r.x = v;
    return r;
}

/* The first non-NULL row not before v in sort order (upper: after v), or
 * b when there is none. */
static uint32_t win_search(const win_range *w, const sqe_key_slot *v, bool upper) {
    uint32_t lo = w->a, hi = w->b;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int c = sqe_key_cmp_sort(&w->spec->key_order, w->kc, &w->slots[mid], false, v, false);
        if (c < 0 || (upper && c == 0))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static bool win_range_edge(const win_range *w, sqe_frame_bound_kind k, const sqe_win_col *off_col,
                           uint32_t i, bool end, uint32_t *out, sqe_error *err) {
    const sqe_win_part *p = w->p;
    if (!win_has_offset(k)) {
        *out = win_groups_edge(k, 0, p, i, end);
        return true;
    }
    sqe_key_slot off;
    if (!win_range_offset(w, off_col, p->start + i, &off, err)) return false;
    if (i < w->a || i >= w->b) { /* NULL key: the offset edge is CURRENT ROW */
        *out = win_groups_edge(SQE_BOUND_CURRENT_ROW, 0, p, i, end);
        return true;
    }
    bool sub = (k == SQE_BOUND_PRECEDING) != w->spec->key_order.desc;
    sqe_key_slot v = win_bound(w, &w->slots[i], &off, sub);
    *out = win_search(w, &v, end);
    return true;
}

static bool win_range_frames(const sqe_win_frame_spec *spec, const sqe_win_part *p, uint32_t *fs,
                             uint32_t *fe, sqe_key_slot *slots, sqe_error *err) {
    if (!spec->key)
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                             "Window frame of type RANGE PRECEDING or FOLLOWING requires a "
                             "single sort item in ORDER BY");
    win_range w;
    memset(&w, 0, sizeof w);
    w.spec = spec;
    w.p = p;
    w.slots = slots;
    if (!win_range_mode(&w, err) || !win_range_load(&w, err)) return false;
    const sqe_window_func *f = spec->f;
    for (uint32_t i = 0; i < p->n; i++) {
        if (!win_range_edge(&w, f->start.kind, spec->start_off, i, false, &fs[i], err) ||
            !win_range_edge(&w, f->end.kind, spec->end_off, i, true, &fe[i], err))
            return false;
    }
    return true;
}

/* -------------------------------------------------------------- entry */

bool sqe_win_frames(const sqe_win_frame_spec *spec, const sqe_win_part *p, uint32_t *fs,
                    uint32_t *fe, sqe_key_slot *slots, sqe_error *err) {
    const sqe_window_func *f = spec->f;
    sqe_frame_bound_kind sk = f->start.kind, ek = f->end.kind;
    bool s_off = win_has_offset(sk), e_off = win_has_offset(ek);
    if ((s_off && !spec->start_off) || (e_off && !spec->end_off))
        return sqe_error_set(err, SQE_ERR_INTERNAL, "window frame offset missing");
    if (f->frame == SQE_FRAME_T_RANGE && (s_off || e_off))
        return win_range_frames(spec, p, fs, fe, slots, err);
    for (uint32_t i = 0; i < p->n; i++) {
        uint64_t so = 0, eo = 0;
        if (s_off && !win_count_offset(spec->start_off, p->start + i, &so, err)) return false;
        if (e_off && !win_count_offset(spec->end_off, p->start + i, &eo, err)) return false;
        if (f->frame == SQE_FRAME_T_ROWS) {
            fs[i] = win_rows_edge(sk, so, i, p->n, false);
            fe[i] = win_rows_edge(ek, eo, i, p->n, true);
        } else {
            fs[i] = win_groups_edge(sk, so, p, i, false);
            fe[i] = win_groups_edge(ek, eo, p, i, true);
        }
    }
    return true;
}
