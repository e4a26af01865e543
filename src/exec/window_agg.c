/*
 * window_agg.c - aggregates over window frames for WindowExec (window.c),
 * driven through the same sqe_agg_binding callbacks (init / update /
 * combine / finalize / destroy) HashAggregateExec uses, so every aggregate
 * func/ registers, DISTINCT forms included, works over a frame unchanged.
 *
 * Input: one partition, the frame [fs[i], fe[i]) of each of its rows
 * (window_frame.c), the argument and FILTER columns by sorted position.
 * Output: one finalized value per row. Rows are visited in order and each
 * row's value comes from the cheapest of:
 *
 *   same frame as the previous row   copy the previous value (a whole-
 *                                    partition frame finalizes once; peers
 *                                    under the default RANGE frame share it)
 *   empty frame                      a fresh state, finalized (NULL, count 0)
 *   same start, end moved forward    feed only the new rows into the running
 *                                    state and finalize again: running sums
 *                                    (UNBOUNDED PRECEDING .. CURRENT ROW /
 *                                    n FOLLOWING) cost O(1) per row
 *   anything else (sliding frames)   a segment tree when the state owns no
 *                                    memory (destroy == NULL, so a state is
 *                                    plain bytes that may be copied) and the
 *                                    frame is wider than WIN_RECOMPUTE_MAX:
 *                                    leaves are one-row states, inner nodes
 *                                    combine their children, a frame is
 *                                    O(log n) combines of copies, in row
 *                                    order; otherwise recompute: a fresh
 *                                    state fed the whole frame, O(width)
 *
 * A frame that only shrinks from the start towards a fixed end (CURRENT ROW
 * .. UNBOUNDED FOLLOWING) is run backwards as a growing frame first, so
 * DISTINCT and varchar min/max (which cannot use the tree) stay linear there.
 *
 * finalize must not consume the state: a running state is finalized after
 * every step (true of every func/ aggregate). Rows are fed with update in
 * runs of one 2048-row chunk: one state pointer repeated per row, the
 * selection listing the rows whose FILTER is TRUE (a constant argument is a
 * one-row vector, so its selection is all zeros).
 */
#include "exec/exec_int.h"

#define WIN_RECOMPUTE_MAX 64

typedef struct win_agg {
    sqe_win_agg_scratch *s;
    const sqe_agg_binding *ab;
    const sqe_win_col *arg, *filter;
    const sqe_win_part *p;
    const uint32_t *fs, *fe;
    sqe_vector *const *res;
    size_t stride;
    uint8_t *cur, *tmp, *left, *right; /* states in s->tmp */
    bool have_cur;                     /* cur holds rows [cs, ce) */
    uint32_t cs, ce;
    bool tree_built;
    sqe_error *err;
} win_agg;

void sqe_win_agg_scratch_free(sqe_win_agg_scratch *s) {
    sqe_free(s->tree);
    sqe_free(s->tmp);
    sqe_free(s->states);
    sqe_free(s->sel);
    memset(s, 0, sizeof *s);
}

static void win_agg_reserve(sqe_win_agg_scratch *s, uint8_t **buf, size_t *cap, size_t need) {
    if (need <= *cap) return;
    sqe_free(*buf);
    *buf = sqe_malloc(need);
    s->bytes += need - *cap;
    *cap = need;
}

static inline uint8_t *win_agg_node(const win_agg *w, size_t i) {
    return w->s->tree + i * w->stride;
}

static inline sqe_vector *win_agg_out(const win_agg *w, uint32_t i, uint32_t *row) {
    size_t pos = w->p->start + i;
    *row = (uint32_t)(pos & (SQE_BATCH_ROWS - 1));
    return w->res[pos >> SQE_ROWSTORE_SHIFT];
}

static inline bool win_agg_passes(const sqe_win_col *filter, size_t pos) {
    uint32_t r;
    const sqe_vector *v = sqe_win_col_at(filter, pos, &r);
    return v->type.id != SQE_T_NULL && !sqe_vector_is_null(v, r) && SQE_VEC_DATA(v, uint8_t)[r];
}

/* Feeds rows [a, b) of the partition into `one`, or (one == NULL) each row
 * into its own leaf of the tree. */
static bool win_agg_feed(win_agg *w, void *one, uint32_t a, uint32_t b) {
    sqe_win_agg_scratch *s = w->s;
    size_t pos = w->p->start + a, end = w->p->start + b;
    bool const_arg = w->arg && w->arg->is_const;
    while (pos < end) {
        size_t stop = SQE_MIN(end, (pos | (SQE_BATCH_ROWS - 1)) + 1);
        const sqe_vector *argv = NULL;
        uint32_t ar;
        if (w->arg) argv = sqe_win_col_at(w->arg, pos, &ar);
        uint32_t m = 0;
        for (size_t q = pos; q < stop; q++) {
            if (w->filter && !win_agg_passes(w->filter, q)) continue;
            s->sel[m] = const_arg ? 0 : (uint16_t)(q & (SQE_BATCH_ROWS - 1));
            s->states[m] = one ? one : win_agg_node(w, w->p->n + (q - w->p->start));
            m++;
        }
        if (m && !w->ab->update(w->ab, s->states, argv, s->sel, m, w->err)) return false;
        pos = stop;
    }
    return true;
}

static bool win_agg_finalize(win_agg *w, void *state, uint32_t i) {
    uint32_t row;
    sqe_vector *out = win_agg_out(w, i, &row);
    return w->ab->finalize(w->ab, state, out, row, w->err);
}

/* Row i gets row j's value (same frame). */
static void win_agg_copy(win_agg *w, uint32_t i, uint32_t j) {
    uint32_t ri, rj;
    sqe_vector *dst = win_agg_out(w, i, &ri);
    const sqe_vector *src = win_agg_out(w, j, &rj);
    sqe_vector_copy_row(dst, ri, src, rj);
}

static bool win_agg_empty(win_agg *w, uint32_t i) {
    w->ab->init(w->ab, w->tmp);
    bool ok = win_agg_finalize(w, w->tmp, i);
    if (w->ab->destroy) w->ab->destroy(w->ab, w->tmp);
    return ok;
}

/* cur := a fresh state over rows [a, b). */
static bool win_agg_restart(win_agg *w, uint32_t a, uint32_t b) {
    if (w->have_cur && w->ab->destroy) w->ab->destroy(w->ab, w->cur);
    w->ab->init(w->ab, w->cur);
    w->have_cur = true;
    w->cs = a;
    w->ce = b;
    return win_agg_feed(w, w->cur, a, b);
}

/* ------------------------------------------------------- segment tree */

static bool win_agg_tree_ok(const win_agg *w) {
    return !w->ab->destroy && w->ab->combine;
}

/* Leaves n..2n-1 are the rows; node k combines 2k and 2k+1 (in order). */
static bool win_agg_tree_build(win_agg *w) {
    size_t n = w->p->n;
    win_agg_reserve(w->s, &w->s->tree, &w->s->tree_cap, 2 * n * w->stride);
    for (size_t i = 0; i < n; i++) w->ab->init(w->ab, win_agg_node(w, n + i));
    if (!win_agg_feed(w, NULL, 0, (uint32_t)n)) return false;
    for (size_t k = n - 1; k >= 1; k--) {
        memcpy(win_agg_node(w, k), win_agg_node(w, 2 * k), w->stride);
        memcpy(w->tmp, win_agg_node(w, 2 * k + 1), w->stride);
        if (!w->ab->combine(w->ab, win_agg_node(w, k), w->tmp, w->err)) return false;
    }
    w->tree_built = true;
    return true;
}

/* Finalizes rows [a, b) combined from the tree into row i. */
static bool win_agg_tree_query(win_agg *w, uint32_t a, uint32_t b, uint32_t i) {
    const sqe_agg_binding *ab = w->ab;
    size_t n = w->p->n, l = a + n, r = b + n;
    ab->init(ab, w->left);
    ab->init(ab, w->right);
    for (; l < r; l >>= 1, r >>= 1) {
        if (l & 1) {
            memcpy(w->tmp, win_agg_node(w, l++), w->stride);
            if (!ab->combine(ab, w->left, w->tmp, w->err)) return false;
        }
        if (r & 1) {
            memcpy(w->tmp, win_agg_node(w, --r), w->stride);
            if (!ab->combine(ab, w->tmp, w->right, w->err)) return false;
            memcpy(w->right, w->tmp, w->stride);
        }
    }
    if (!ab->combine(ab, w->left, w->right, w->err)) return false;
    return win_agg_finalize(w, w->left, i);
}

/* ------------------------------------------------------------- drivers */

/* Row i with frame [a, b), a < b, not the previous row's frame. */
static bool win_agg_row(win_agg *w, uint32_t i, uint32_t a, uint32_t b) {
    if (w->have_cur && a == w->cs && b >= w->ce) {
        if (!win_agg_feed(w, w->cur, w->ce, b)) return false;
        w->ce = b;
        return win_agg_finalize(w, w->cur, i);
    }
    if (win_agg_tree_ok(w) && (w->tree_built || b - a > WIN_RECOMPUTE_MAX)) {
        if (!w->tree_built && !win_agg_tree_build(w)) return false;
        return win_agg_tree_query(w, a, b, i);
    }
    if (!win_agg_restart(w, a, b)) return false;
    return win_agg_finalize(w, w->cur, i);
}

static bool win_agg_forward(win_agg *w) {
    uint32_t pa = 0, pb = 0;
    for (uint32_t i = 0; i < w->p->n; i++) {
        uint32_t a = w->fs[i], b = w->fe[i];
        if (a >= b) a = b = 0;
        if (i > 0 && a == pa && b == pb)
            win_agg_copy(w, i, i - 1);
        else if (!(a == b ? win_agg_empty(w, i) : win_agg_row(w, i, a, b)))
            return false;
        pa = a;
        pb = b;
    }
    return true;
}

/* Frames ending at one fixed row and starting later and later (CURRENT
 * ROW .. UNBOUNDED FOLLOWING): seen from the last row they only grow. */
static bool win_agg_shrinking(const win_agg *w) {
    uint32_t n = w->p->n;
    if (n < 2 || w->fs[0] == w->fs[n - 1]) return false;
    for (uint32_t i = 1; i < n; i++)
        if (w->fe[i] != w->fe[0] || w->fs[i] < w->fs[i - 1]) return false;
    return true;
}

static bool win_agg_backward(win_agg *w) {
    uint32_t n = w->p->n, b = w->fe[0];
    for (uint32_t i = n; i-- > 0;) {
        uint32_t a = w->fs[i];
        bool ok;
        if (i + 1 < n && a == w->fs[i + 1]) {
            win_agg_copy(w, i, i + 1);
            continue;
        }
        if (a >= b) {
            ok = win_agg_empty(w, i);
        } else if (!w->have_cur) {
            ok = win_agg_restart(w, a, b) && win_agg_finalize(w, w->cur, i);
        } else {
            ok = win_agg_feed(w, w->cur, a, w->cs) && win_agg_finalize(w, w->cur, i);
            w->cs = a;
        }
        if (!ok) return false;
    }
    return true;
}

bool sqe_win_agg_eval(sqe_win_agg_scratch *s, const sqe_agg_binding *ab, const sqe_win_col *arg,
                      const sqe_win_col *filter, const sqe_win_part *p, const uint32_t *fs,
                      const uint32_t *fe, sqe_vector *const *res, sqe_error *err) {
    if (p->n == 0) return true;
    if (!s->states) {
        s->states = sqe_malloc(SQE_BATCH_ROWS * sizeof *s->states);
        s->sel = sqe_malloc(SQE_BATCH_ROWS * sizeof *s->sel);
        s->bytes += SQE_BATCH_ROWS * (sizeof *s->states + sizeof *s->sel);
    }
    win_agg w;
    memset(&w, 0, sizeof w);
    w.s = s;
    w.ab = ab;
    w.arg = ab->star ? NULL : arg;
    w.filter = filter;
    w.p = p;
    w.fs = fs;
    w.fe = fe;
    w.res = res;
    w.err = err;
    w.stride = (ab->state_size + 15) & ~(size_t)15;
    if (w.stride == 0) w.stride = 16;
    win_agg_reserve(s, &s->tmp, &s->tmp_cap, 4 * w.stride);
    w.cur = s->tmp;
    w.tmp = s->tmp + w.stride;
    w.left = s->tmp + 2 * w.stride;
    w.right = s->tmp + 3 * w.stride;
    bool ok = win_agg_shrinking(&w) ? win_agg_backward(&w) : win_agg_forward(&w);
    if (w.have_cur && ab->destroy) ab->destroy(ab, w.cur);
    return ok;
}
