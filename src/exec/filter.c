/*
 * filter.c - FilterExec: keeps the rows where the predicate is TRUE.
 *
 * No rows move: the operator evaluates the predicate on the child batch's
 * live rows and writes the surviving row indexes into that batch's own
 * sel_buf (sqe_expr_filter reads sel[i] before writing out_sel[k], k <= i,
 * so filtering in place over a selection that already is sel_buf is safe),
 * then hands the same batch on. Batches left with no live rows are skipped.
 * The predicate's state counts against the query's memory limit
 * (sqe_exec_expr_state_new), string results built inside it included.
 */
#include "exec/exec_int.h"

typedef struct filter_op {
    sqe_op base;
    sqe_expr_state *pred;
} filter_op;

static bool filter_open(sqe_op *op, sqe_error *err) {
    filter_op *f = (filter_op *)op;
    if (!sqe_op_open(sqe_op_child(op), err)) return false;
    f->pred = sqe_exec_expr_state_new(op, op->plan->u.filter.pred, err);
    return f->pred != NULL;
}

static bool filter_next(sqe_op *op, sqe_batch **out, bool *eof, sqe_error *err) {
    filter_op *f = (filter_op *)op;
    for (;;) {
        sqe_batch *b = NULL;
        if (!sqe_op_next(sqe_op_child(op), &b, eof, err)) return false;
        if (*eof) return true;
        uint32_t n = sqe_batch_live(b), k = 0;
        if (!sqe_expr_filter(f->pred, b, b->sel, n, b->sel_buf, &k, err)) return false;
        if (k == 0) continue;
        if (k < b->n_rows || b->sel) {
            b->sel = b->sel_buf;
            b->n_sel = k;
        }
        *out = b;
        return true;
    }
}

static void filter_close(sqe_op *op) {
    filter_op *f = (filter_op *)op;
    sqe_expr_state_free(f->pred);
    f->pred = NULL;
}

static const sqe_op_vtable filter_vtable = {"FilterExec", filter_open, filter_next, filter_close};

sqe_op *sqe_exec_filter_new(sqe_exec_ctx *ctx, const sqe_plan *p) {
    filter_op *f = sqe_calloc(1, sizeof *f);
    f->base.vt = &filter_vtable;
    f->base.plan = p;
    f->base.ctx = ctx;
    return &f->base;
}
