/*
 * topn.c - TopNExec: ORDER BY ... LIMIT n [OFFSET m].
 *
 * Keeps the K = n + m best rows seen so far. State (topn_state):
 *   best  a row store holding at most K rows in sorted order
 *   cand  a row store of candidate rows not yet ranked
 *   worst the key slots of best's last row, once best holds K rows
 * Every row carries its order tag (hidden last column, see sqe_sink_vtable)
 * and the tag is the last sort key, so ties on the ORDER BY keys go to the
 * earlier row, with one thread or many. An incoming row is a candidate only
 * when best is not yet full or the row sorts strictly before `worst`; most rows of a large input
 * are rejected by one key comparison without being copied. When cand reaches max(K, 2048) rows,
 * compact() appends it to best, sorts (stable merge sort), keeps the first K
 * rows in a fresh store and recomputes `worst`.
 *
 * As a sink, each pipeline copy keeps its own state; merge compacts a local
 * state and appends its best rows to the global candidates. Output skips the
 * first m rows of the final best.
 */
#include "exec/exec_int.h"

typedef struct topn_state {
    sqe_rowstore best, cand;
    bool have_worst;
    sqe_key_slot *worst;
    uint8_t *worst_null;
    size_t tracked;
    /* batch scratch */
    sqe_key_slot **tmp;
    uint8_t **tmpn;
    uint16_t *pass;
} topn_state;

typedef struct topn_op {
    sqe_op base;
    uint64_t k;
    int n_keys; /* ORDER BY keys + the tag key */
    sqe_sort_key *keys;
    sqe_type *types; /* n_out + 1 */
    sqe_key_class *kc;
    topn_state *global;
    bool built;
    uint32_t *idx;
    size_t pos, end;
    sqe_batch *out;
} topn_op;

static topn_state *state_new(topn_op *op) {
    const sqe_plan *p = op->base.plan;
    topn_state *s = sqe_calloc(1, sizeof *s);
    sqe_rowstore_init(&s->best, p->n_out + 1, op->types, true);
    sqe_rowstore_init(&s->cand, p->n_out + 1, op->types, true);
    int nk = op->n_keys > 0 ? op->n_keys : 1;
    s->worst = sqe_calloc((size_t)nk, sizeof *s->worst);
    s->worst_null = sqe_calloc((size_t)nk, 1);
    s->tmp = sqe_calloc((size_t)nk, sizeof *s->tmp);
    s->tmpn = sqe_calloc((size_t)nk, sizeof *s->tmpn);
    for (int k = 0; k < op->n_keys; k++) {
        s->tmp[k] = sqe_malloc(SQE_BATCH_ROWS * sizeof(sqe_key_slot));
        s->tmpn[k] = sqe_malloc(SQE_BATCH_ROWS);
    }
    s->pass = sqe_malloc(SQE_BATCH_ROWS * sizeof *s->pass);
    return s;
}

static void state_free(topn_op *op, topn_state *s) {
    if (!s) return;
    sqe_exec_mem_track(op->base.ctx, &s->tracked, 0, "TopNExec", NULL);
    sqe_rowstore_free(&s->best);
    sqe_rowstore_free(&s->cand);
    for (int k = 0; k < op->n_keys; k++) {
        sqe_free(s->tmp[k]);
        sqe_free(s->tmpn[k]);
    }
    sqe_free(s->tmp);
    sqe_free(s->tmpn);
    sqe_free(s->worst);
    sqe_free(s->worst_null);
    sqe_free(s->pass);
    sqe_free(s);
}

/* Ranks best + cand and keeps the first K rows in best. */
static void compact(topn_op *op, topn_state *s) {
    if (s->cand.n_rows == 0) return;
    sqe_rowstore_adopt(&s->best, &s->cand);
    size_t n = s->best.n_rows;
    uint32_t *idx = sqe_malloc(n * sizeof *idx);
    sqe_rowstore_indexes(&s->best, idx);
    sqe_rowstore_sort(&s->best, op->keys, op->n_keys, idx, n);
    size_t keep = (size_t)SQE_MIN((uint64_t)n, op->k);
    sqe_rowstore fresh;
    sqe_rowstore_init(&fresh, s->best.n_cols, s->best.types, true);
    sqe_rowstore_append_rows(&fresh, &s->best, idx, keep);
    sqe_free(idx);
    sqe_rowstore_free(&s->best);
    s->best = fresh;
    s->have_worst = keep > 0 && (uint64_t)keep == op->k;
    if (s->have_worst) {
        uint32_t last = (uint32_t)((s->best.chunks.len - 1) << SQE_ROWSTORE_SHIFT) |
                        (s->best.chunks.items[s->best.chunks.len - 1].n - 1);
        for (int k = 0; k < op->n_keys; k++) {
            uint32_t row;
            const sqe_vector *v = sqe_rowstore_col(&s->best, last, op->keys[k].col, &row);
            uint16_t r16 = (uint16_t)row;
            sqe_key_load(v, &r16, 1, &s->worst[k], &s->worst_null[k]);
        }
    }
}

static size_t compact_threshold(const topn_op *op) {
    return (size_t)SQE_MAX(op->k, (uint64_t)SQE_BATCH_ROWS);
}

static void *topn_local_new(sqe_op *op) {
    return state_new((topn_op *)op);
}
static void topn_local_free(sqe_op *op, void *l) {
    state_free((topn_op *)op, l);
}

static bool topn_consume(sqe_op *op_, void *l, sqe_batch *b, uint64_t tag_base, sqe_error *err) {
    topn_op *op = (topn_op *)op_;
    topn_state *s = l;
    uint32_t n = sqe_batch_live(b);
    if (n == 0) return true;
    if (!s->have_worst) {
        sqe_rowstore_append(&s->cand, b, b->sel, n, tag_base);
    } else {
        int nk = op->n_keys - 1; /* the last key is the tag */
        for (int k = 0; k < nk; k++)
            sqe_key_load(b->cols[op->keys[k].col], b->sel, n, s->tmp[k], s->tmpn[k]);
        for (uint32_t i = 0; i < n; i++) {
            s->tmp[nk][i].i = (int64_t)(tag_base + sqe_batch_row(b, i));
            s->tmpn[nk][i] = 0;
        }
        uint32_t np = 0;
        for (uint32_t i = 0; i < n; i++) {
            int c = 0;
            for (int k = 0; k < op->n_keys && c == 0; k++)
                c = sqe_key_cmp_sort(&op->keys[k], op->kc[k], &s->tmp[k][i], s->tmpn[k][i],
                                     &s->worst[k], s->worst_null[k]);
            if (c < 0) s->pass[np++] = (uint16_t)sqe_batch_row(b, i);
        }
        if (np) sqe_rowstore_append(&s->cand, b, s->pass, np, tag_base);
    }
    if (s->cand.n_rows >= compact_threshold(op)) compact(op, s);
    return sqe_exec_mem_track(op_->ctx, &s->tracked, s->best.bytes + s->cand.bytes, "TopNExec",
                              err);
}

static bool topn_merge(sqe_op *op_, void *l, sqe_error *err) {
    topn_op *op = (topn_op *)op_;
    topn_state *s = l;
    if (!op->global) {
        op->global = s;
        return true;
    }
    compact(op, s);
    sqe_rowstore_adopt(&op->global->cand, &s->best);
    state_free(op, s);
    topn_state *g = op->global;
    if (g->cand.n_rows >= compact_threshold(op)) compact(op, g);
    return sqe_exec_mem_track(op_->ctx, &g->tracked, g->best.bytes + g->cand.bytes, "TopNExec",
                              err);
}

static const sqe_sink_vtable topn_sink = {topn_local_new, topn_consume, topn_merge,
                                          topn_local_free};

static bool topn_open(sqe_op *op_, sqe_error *err) {
    SQE_UNUSED(err);
    topn_op *op = (topn_op *)op_;
    const sqe_plan *p = op_->plan;
    uint64_t lim = p->u.sort.limit, off = p->u.sort.offset;
    op->k = lim > UINT64_MAX - off ? UINT64_MAX : lim + off;
    op->types = sqe_calloc((size_t)p->n_out + 1, sizeof *op->types);
    for (int i = 0; i < p->n_out; i++) op->types[i] = p->out_types[i];
    op->types[p->n_out] = sqe_type_make(SQE_T_BIGINT);
    op->n_keys = p->u.sort.n_keys + 1;
    op->keys = sqe_calloc((size_t)op->n_keys, sizeof *op->keys);
    for (int k = 0; k < p->u.sort.n_keys; k++) op->keys[k] = p->u.sort.keys[k];
    op->keys[p->u.sort.n_keys] = (sqe_sort_key){p->n_out, false, false};
    op->kc = sqe_calloc((size_t)op->n_keys, sizeof *op->kc);
    for (int k = 0; k < op->n_keys; k++) op->kc[k] = sqe_key_class_of(op->types[op->keys[k].col]);
    op->out = sqe_batch_new(p->n_out, p->out_types);
    return true;
}

static bool topn_next(sqe_op *op_, sqe_batch **out, bool *eof, sqe_error *err) {
    topn_op *op = (topn_op *)op_;
    const sqe_plan *p = op_->plan;
    if (!op->built) {
        op->built = true;
        if (p->u.sort.limit == 0) {
            *eof = true;
            return true;
        }
        if (!sqe_exec_drain(op_, 0, &topn_sink, err)) return false;
        if (!op->global) {
            *eof = true;
            return true;
        }
        compact(op, op->global);
        size_t n = op->global->best.n_rows;
        op->idx = sqe_malloc((n > 0 ? n : 1) * sizeof *op->idx);
        sqe_rowstore_indexes(&op->global->best, op->idx);
        op->pos = (size_t)SQE_MIN((uint64_t)n, p->u.sort.offset);
        op->end = n;
    }
    if (op->pos >= op->end) {
        *eof = true;
        return true;
    }
    uint32_t m = (uint32_t)SQE_MIN((size_t)SQE_BATCH_ROWS, op->end - op->pos);
    sqe_batch_reset(op->out);
    sqe_rowstore_gather(&op->global->best, op->idx + op->pos, m, op->out);
    op->pos += m;
    *eof = false;
    *out = op->out;
    return true;
}

static void topn_close(sqe_op *op_) {
    topn_op *op = (topn_op *)op_;
    state_free(op, op->global);
    op->global = NULL;
    sqe_free(op->idx);
    op->idx = NULL;
    sqe_free(op->kc);
    op->kc = NULL;
    sqe_free(op->keys);
    op->keys = NULL;
    sqe_free(op->types);
    op->types = NULL;
    sqe_batch_free(op->out);
    op->out = NULL;
}

static const sqe_op_vtable topn_vtable = {"TopNExec", topn_open, topn_next, topn_close};

sqe_op *sqe_exec_topn_new(sqe_exec_ctx *ctx, const sqe_plan *p) {
    topn_op *op = sqe_calloc(1, sizeof *op);
    op->base.vt = &topn_vtable;
    op->base.plan = p;
    op->base.ctx = ctx;
    return &op->base;
}
