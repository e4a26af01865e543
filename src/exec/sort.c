/*
 * sort.c - SortExec: ORDER BY without LIMIT.
 *
 * Materializes the whole input in a row store (rowstore.c: owned vectors,
 * string bytes copied), sorts the row addresses with a stable merge sort on
 * normalized key slots (each key: a column of the child's output, ASC/DESC,
 * NULLS FIRST/LAST), then emits batches of SQE_BATCH_ROWS rows gathered in
 * sorted order.
 *
 * As a sink (exec_int.h) every pipeline copy fills its own row store and
 * merge adopts its chunks into the global one, so a scan below runs on all
 * workers. Each row also stores its order tag (hidden last column) and the
 * tag is the last sort key, so rows that tie on every ORDER BY key come out
 * in input order, the same with one thread or many.
 */
#include "exec/exec_int.h"

typedef struct sort_op {
    sqe_op base;
    sqe_type *types;    /* n_out + 1: the output columns, then the tag */
    sqe_sort_key *keys; /* n_keys + 1: ORDER BY, then the tag */
    sqe_rowstore rows;
    size_t tracked;
    bool built;
    uint32_t *idx;
    size_t pos;
    sqe_batch *out;
} sort_op;

typedef struct sort_local {
    sqe_rowstore rows;
    size_t tracked;
} sort_local;

static void *sort_local_new(sqe_op *op) {
    sort_local *l = sqe_calloc(1, sizeof *l);
    sqe_rowstore_init(&l->rows, op->plan->n_out + 1, ((sort_op *)op)->types, true);
    return l;
}

static void sort_local_free(sqe_op *op, void *l_) {
    sort_local *l = l_;
    if (!l) return;
    sqe_exec_mem_track(op->ctx, &l->tracked, 0, "SortExec", NULL);
    sqe_rowstore_free(&l->rows);
    sqe_free(l);
}

static bool sort_consume(sqe_op *op, void *l_, sqe_batch *b, uint64_t tag_base, sqe_error *err) {
    sort_local *l = l_;
    uint32_t n = sqe_batch_live(b);
    if (n == 0) return true;
    sqe_rowstore_append(&l->rows, b, b->sel, n, tag_base);
    return sqe_exec_mem_track(op->ctx, &l->tracked, l->rows.bytes, "SortExec", err);
}

static bool sort_merge(sqe_op *op_, void *l_, sqe_error *err) {
    sort_op *op = (sort_op *)op_;
    sort_local *l = l_;
    sqe_rowstore_adopt(&op->rows, &l->rows);
    sort_local_free(op_, l);
    return sqe_exec_mem_track(op_->ctx, &op->tracked, op->rows.bytes, "SortExec", err);
}

static const sqe_sink_vtable sort_sink = {sort_local_new, sort_consume, sort_merge,
                                          sort_local_free};

static bool sort_open(sqe_op *op_, sqe_error *err) {
    SQE_UNUSED(err);
    sort_op *op = (sort_op *)op_;
    const sqe_plan *p = op_->plan;
    op->types = sqe_calloc((size_t)p->n_out + 1, sizeof *op->types);
    for (int i = 0; i < p->n_out; i++) op->types[i] = p->out_types[i];
    op->types[p->n_out] = sqe_type_make(SQE_T_BIGINT);
    op->keys = sqe_calloc((size_t)p->u.sort.n_keys + 1, sizeof *op->keys);
    for (int k = 0; k < p->u.sort.n_keys; k++) op->keys[k] = p->u.sort.keys[k];
    op->keys[p->u.sort.n_keys] = (sqe_sort_key){p->n_out, false, false};
    sqe_rowstore_init(&op->rows, p->n_out + 1, op->types, true);
    op->out = sqe_batch_new(p->n_out, p->out_types);
    return true;
}

static bool sort_next(sqe_op *op_, sqe_batch **out, bool *eof, sqe_error *err) {
    sort_op *op = (sort_op *)op_;
    const sqe_plan *p = op_->plan;
    if (!op->built) {
        if (!sqe_exec_drain(op_, 0, &sort_sink, err)) return false;
        op->built = true;
        size_t n = op->rows.n_rows;
        op->idx = sqe_malloc((n > 0 ? n : 1) * sizeof *op->idx);
        if (!sqe_exec_mem_track(op_->ctx, &op->tracked,
                                op->rows.bytes + n * 3 * sizeof(uint32_t) +
                                    n * p->u.sort.n_keys * (sizeof(sqe_key_slot) + 1),
                                "SortExec", err))
            return false;
        sqe_rowstore_indexes(&op->rows, op->idx);
        sqe_rowstore_sort(&op->rows, op->keys, p->u.sort.n_keys + 1, op->idx, n);
    }
    if (op->pos >= op->rows.n_rows) {
        *eof = true;
        return true;
    }
    uint32_t m = (uint32_t)SQE_MIN((size_t)SQE_BATCH_ROWS, op->rows.n_rows - op->pos);
    sqe_batch_reset(op->out);
    sqe_rowstore_gather(&op->rows, op->idx + op->pos, m, op->out);
    op->pos += m;
    *eof = false;
    *out = op->out;
    return true;
}

static void sort_close(sqe_op *op_) {
    sort_op *op = (sort_op *)op_;
    sqe_exec_mem_track(op_->ctx, &op->tracked, 0, "SortExec", NULL);
    sqe_rowstore_free(&op->rows);
    sqe_free(op->idx);
    op->idx = NULL;
    sqe_batch_free(op->out);
    op->out = NULL;
    sqe_free(op->types);
    op->types = NULL;
    sqe_free(op->keys);
    op->keys = NULL;
}

static const sqe_op_vtable sort_vtable = {"SortExec", sort_open, sort_next, sort_close};

sqe_op *sqe_exec_sort_new(sqe_exec_ctx *ctx, const sqe_plan *p) {
    sort_op *op = sqe_calloc(1, sizeof *op);
    op->base.vt = &sort_vtable;
    op->base.plan = p;
    op->base.ctx = ctx;
    return &op->base;
}
