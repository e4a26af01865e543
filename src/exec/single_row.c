/*
 * single_row.c - SingleRowExec: the value of an uncorrelated scalar
 * subquery, `(SELECT x FROM ...)`, as exactly one row.
 *
 * Where it sits: under the join or projection that uses the subquery's
 * value (planned as one input of that node). On its first `next` it drains
 * its child completely:
 *   - one row in all:   that row (copied into the operator's own batch, so
 *                        it survives the child's later batches);
 *   - no row:           one row of NULLs (a scalar subquery over nothing is
 *                        NULL);
 *   - a second row:     fails at once with INVALID_ARGUMENT "Scalar
 *                        sub-query has returned multiple rows" (Trino's
 *                        text; Trino's error code is SUBQUERY_MULTIPLE_ROWS,
 *                        a user error). The child is not read further.
 * The child is freed with its subtree as soon as it is drained, so the
 * subquery's readers and hash tables do not live as long as the query.
 * The second `next` reports the end.
 */
#include "exec/exec_int.h"

typedef struct single_row_op {
    sqe_op base;
    sqe_batch *out; /* one row, owned vectors (string bytes in their heaps) */
    bool done;
} single_row_op;

static bool single_row_open(sqe_op *op, sqe_error *err) {
    single_row_op *s = (single_row_op *)op;
    s->out = sqe_batch_new(op->plan->n_out, op->plan->out_types);
    s->done = false;
    return sqe_op_open(sqe_op_child(op), err);
}

/* Pulls the whole child into s->out; *n_rows = 0 or 1 (a second row fails). */
static bool single_row_drain(single_row_op *s, uint32_t *n_rows, sqe_error *err) {
    sqe_op *child = sqe_op_child(&s->base);
    *n_rows = 0;
    for (;;) {
        sqe_batch *b = NULL;
        bool eof = false;
        if (!sqe_op_next(child, &b, &eof, err)) return false;
        if (eof) return true;
        uint32_t live = sqe_batch_live(b);
        if (live == 0) continue;
        if (*n_rows + live > 1)
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "Scalar sub-query has returned multiple rows");
        uint32_t row = sqe_batch_row(b, 0);
        for (int c = 0; c < s->out->n_cols; c++)
            sqe_vector_copy_row(s->out->cols[c], 0, b->cols[c], row);
        *n_rows = 1;
    }
}

static bool single_row_next(sqe_op *op, sqe_batch **out, bool *eof, sqe_error *err) {
    single_row_op *s = (single_row_op *)op;
    if (s->done) {
        *eof = true;
        return true;
    }
    sqe_batch_reset(s->out);
    uint32_t n = 0;
    if (!single_row_drain(s, &n, err)) return false;
    if (n == 0)
        for (int c = 0; c < s->out->n_cols; c++) sqe_vector_set_null(s->out->cols[c], 0);
    sqe_op_free(op->children[0]);
    op->children[0] = NULL;
    s->out->n_rows = 1;
    s->done = true;
    *eof = false;
    *out = s->out;
    return true;
}

static void single_row_close(sqe_op *op) {
    single_row_op *s = (single_row_op *)op;
    sqe_batch_free(s->out);
    s->out = NULL;
}

static const sqe_op_vtable single_row_vtable = {"SingleRowExec", single_row_open, single_row_next,
                                                single_row_close};

sqe_op *sqe_exec_single_row_new(sqe_exec_ctx *ctx, const sqe_plan *p) {
    single_row_op *s = sqe_calloc(1, sizeof *s);
    s->base.vt = &single_row_vtable;
    s->base.plan = p;
    s->base.ctx = ctx;
    return &s->base;
}
