/*
 * project.c - ProjectExec: computes one expression per output column.
 *
 * The output batch owns no vectors: a column reference passes the child's
 * vector through, any other expression's result is its state's scratch
 * vector. Row count and selection are the child's (the output's sel points
 * at the child batch's selection, which stays valid until the next call).
 * Expressions are evaluated only on live rows.
 *
 * Memory: the states count against the query's memory limit
 * (sqe_exec_expr_state_new), so the output vectors and the strings functions
 * build in them do too. A select list whose states would take more than an
 * eighth of the limit (64 MiB without one) makes lazy states, whose vectors
 * grow with the rows evaluated (60,000 constants over one row). A select list too wide for the
 * limit fails at open
 * ("... in ProjectExec") after creating only the states that fit; a
 * function whose results would pass it fails the batch naming the function.
 */
#include "exec/exec_int.h"

typedef struct project_op {
    sqe_op base;
    int n;
    sqe_expr_state **states;
    sqe_batch *out;
} project_op;

/* Whether the select list is too wide to hold full batches for: its
 * states' full vectors would take more than an eighth of the memory limit
 * (64 MiB without one). Then they grow with the rows evaluated instead. */
static bool project_lazy(const sqe_op *op) {
    size_t full = 0, cap = op->ctx->memory_limit ? op->ctx->memory_limit / 8 : (size_t)64 << 20;
    for (int i = 0; i < op->plan->n_out && full <= cap; i++)
        full += sqe_expr_state_full_bytes(op->plan->u.project.exprs[i]);
    return full > cap;
}

static bool project_open(sqe_op *op, sqe_error *err) {
    project_op *p = (project_op *)op;
    if (!sqe_op_open(sqe_op_child(op), err)) return false;
    p->n = op->plan->n_out;
    p->states = sqe_calloc((size_t)(p->n > 0 ? p->n : 1), sizeof *p->states);
    bool lazy = project_lazy(op);
    for (int i = 0; i < p->n; i++)
        if (!(p->states[i] =
                  sqe_exec_expr_state_new_sized(op, op->plan->u.project.exprs[i], lazy, err)))
            return false;
    p->out = sqe_batch_new_empty(p->n);
    return true;
}

static bool project_next(sqe_op *op, sqe_batch **out, bool *eof, sqe_error *err) {
    project_op *p = (project_op *)op;
    sqe_batch *b = NULL;
    if (!sqe_op_next(sqe_op_child(op), &b, eof, err)) return false;
    if (*eof) return true;
    uint32_t n = sqe_batch_live(b);
    for (int i = 0; i < p->n; i++) {
        sqe_vector *v = sqe_expr_eval(p->states[i], b, b->sel, n, err);
        if (!v) return false;
        p->out->cols[i] = v;
    }
    p->out->n_rows = b->n_rows;
    p->out->sel = b->sel;
    p->out->n_sel = b->n_sel;
    *out = p->out;
    return true;
}

static void project_close(sqe_op *op) {
    project_op *p = (project_op *)op;
    if (p->states)
        for (int i = 0; i < p->n; i++) sqe_expr_state_free(p->states[i]);
    sqe_free(p->states);
    p->states = NULL;
    sqe_batch_free(p->out); /* owns no vectors */
    p->out = NULL;
}

static const sqe_op_vtable project_vtable = {"ProjectExec", project_open, project_next,
                                             project_close};

sqe_op *sqe_exec_project_new(sqe_exec_ctx *ctx, const sqe_plan *p) {
    project_op *o = sqe_calloc(1, sizeof *o);
    o->base.vt = &project_vtable;
    o->base.plan = p;
    o->base.ctx = ctx;
    return &o->base;
}
