/*
 * limit.c - LimitExec: LIMIT n OFFSET m without ORDER BY.
 *
 * Skips the first `offset` live rows, then passes rows on until `limit` rows
 * went out, narrowing the child batch's selection in place (sel_buf; the
 * rewrite reads sel[i + skip] before writing sel_buf[i]). Once the limit is
 * reached it reports eof without pulling the child again, so a scan below
 * stops reading files.
 */
#include "exec/exec_int.h"

typedef struct limit_op {
    sqe_op base;
    uint64_t to_skip;
    uint64_t left; /* rows still to emit (UINT64_MAX without LIMIT) */
} limit_op;

static bool limit_open(sqe_op *op, sqe_error *err) {
    limit_op *l = (limit_op *)op;
    l->to_skip = op->plan->u.limit.offset;
    l->left = op->plan->u.limit.has_limit ? op->plan->u.limit.limit : UINT64_MAX;
    if (l->left == 0) return true; /* never pulls: no need to open the child */
    return sqe_op_open(sqe_op_child(op), err);
}

static bool limit_next(sqe_op *op, sqe_batch **out, bool *eof, sqe_error *err) {
    limit_op *l = (limit_op *)op;
    for (;;) {
        if (l->left == 0) {
            *eof = true;
            return true;
        }
        sqe_batch *b = NULL;
        if (!sqe_op_next(sqe_op_child(op), &b, eof, err)) return false;
        if (*eof) return true;
        uint32_t live = sqe_batch_live(b);
        uint32_t skip = (uint32_t)SQE_MIN(l->to_skip, (uint64_t)live);
        l->to_skip -= skip;
        uint32_t take = (uint32_t)SQE_MIN((uint64_t)(live - skip), l->left);
        if (take == 0) continue;
        if (skip > 0 || take < live) {
            if (b->sel) {
                for (uint32_t i = 0; i < take; i++) b->sel_buf[i] = b->sel[skip + i];
            } else {
                for (uint32_t i = 0; i < take; i++) b->sel_buf[i] = (uint16_t)(skip + i);
            }
            b->sel = b->sel_buf;
            b->n_sel = take;
        }
        l->left -= take;
        *out = b;
        return true;
    }
}

static void limit_close(sqe_op *op) {
    SQE_UNUSED(op);
}

static const sqe_op_vtable limit_vtable = {"LimitExec", limit_open, limit_next, limit_close};

sqe_op *sqe_exec_limit_new(sqe_exec_ctx *ctx, const sqe_plan *p) {
    limit_op *l = sqe_calloc(1, sizeof *l);
    l->base.vt = &limit_vtable;
    l->base.plan = p;
    l->base.ctx = ctx;
    return &l->base;
}
