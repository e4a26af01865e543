/*
 * values.c - ValuesExec: constant rows (SELECT without FROM, VALUES lists).
 *
 * The binder has already cast every value to its column's type; this
 * operator writes them into an owned batch, up to SQE_BATCH_ROWS rows per
 * call.
 */
#include "exec/exec_int.h"

typedef struct values_op {
    sqe_op base;
    sqe_batch *out;
    int next_row;
} values_op;

static bool values_open(sqe_op *op, sqe_error *err) {
    SQE_UNUSED(err);
    values_op *v = (values_op *)op;
    v->out = sqe_batch_new(op->plan->n_out, op->plan->out_types);
    v->next_row = 0;
    return true;
}

static bool values_next(sqe_op *op, sqe_batch **out, bool *eof, sqe_error *err) {
    SQE_UNUSED(err);
    values_op *v = (values_op *)op;
    const sqe_plan *p = op->plan;
    if (v->next_row >= p->u.values.n_rows) {
        *eof = true;
        return true;
    }
    sqe_batch *b = v->out;
    sqe_batch_reset(b);
    uint32_t n = (uint32_t)SQE_MIN(p->u.values.n_rows - v->next_row, SQE_BATCH_ROWS);
    for (uint32_t r = 0; r < n; r++) {
        const sqe_value *row = p->u.values.rows[v->next_row + (int)r];
        for (int c = 0; c < p->n_out; c++) {
            const sqe_value *val = &row[c];
            if (val->is_null || val->type.id == SQE_T_NULL) {
                sqe_vector_set_null(b->cols[c], r);
            } else {
                sqe_value tv = *val;
                tv.type = b->cols[c]->type;
                sqe_vector_set_value(b->cols[c], r, &tv);
            }
        }
    }
    b->n_rows = n;
    v->next_row += (int)n;
    *eof = false;
    *out = b;
    return true;
}

static void values_close(sqe_op *op) {
    values_op *v = (values_op *)op;
    sqe_batch_free(v->out);
    v->out = NULL;
}

static const sqe_op_vtable values_vtable = {"ValuesExec", values_open, values_next, values_close};

sqe_op *sqe_exec_values_new(sqe_exec_ctx *ctx, const sqe_plan *p) {
    values_op *v = sqe_calloc(1, sizeof *v);
    v->base.vt = &values_vtable;
    v->base.plan = p;
    v->base.ctx = ctx;
    return &v->base;
}
