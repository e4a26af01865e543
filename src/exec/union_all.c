/*
 * union_all.c - UnionAllExec: UNION ALL, the concatenation of n_children
 * inputs of the same schema (the planner casts every input to the union's
 * column types, so batches pass through unchanged).
 *
 * Where it sits: a streaming operator with any number of children. It
 * pulls children[0] until its end, then children[1], and so on, and hands
 * each child batch on as it is, selection included (no rows move). The
 * union's DISTINCT form is planned as an aggregate above this node.
 *
 * Lazy children. A child is opened only when the union reaches it, and a
 * finished child is freed at once with its whole subtree (sqe_op_free: its
 * readers, buffers and expression states), so at most one input holds
 * resources at a time, and a LIMIT above that is satisfied by the first
 * inputs stops before a later input is ever opened (no partition listing,
 * no file). op->children[i] is NULL once child i is freed; sqe_op_free of
 * the union skips NULL children.
 *
 * Parallelism: none of its own. A union is not a scan pipeline
 * (sqe_exec_pipeline_scan), so a blocking operator above it drains it on
 * one thread; each child's own blocking operators still run their scans in
 * parallel.
 */
#include "exec/exec_int.h"

typedef struct union_all_op {
    sqe_op base;
    int cur;     /* the child being read; n_children at the end */
    bool opened; /* children[cur] is open */
} union_all_op;

static bool union_all_open(sqe_op *op, sqe_error *err) {
    SQE_UNUSED(err);
    union_all_op *u = (union_all_op *)op;
    u->cur = 0;
    u->opened = false;
    return true;
}

static bool union_all_next(sqe_op *op, sqe_batch **out, bool *eof, sqe_error *err) {
    union_all_op *u = (union_all_op *)op;
    while (u->cur < op->n_children) {
        sqe_op *child = op->children[u->cur];
        if (!u->opened) {
            if (!sqe_op_open(child, err)) return false;
            u->opened = true;
        }
        sqe_batch *b = NULL;
        bool child_eof = false;
        if (!sqe_op_next(child, &b, &child_eof, err)) return false;
        if (!child_eof) {
            *eof = false;
            *out = b;
            return true;
        }
        /* Finished: release the whole input now, not at the query's end. */
        sqe_op_free(child);
        op->children[u->cur] = NULL;
        u->opened = false;
        u->cur++;
    }
    *eof = true;
    return true;
}

static void union_all_close(sqe_op *op) {
    SQE_UNUSED(op); /* children are freed by sqe_op_free (or already, when finished) */
}

static const sqe_op_vtable union_all_vtable = {"UnionAllExec", union_all_open, union_all_next,
                                               union_all_close};

sqe_op *sqe_exec_union_all_new(sqe_exec_ctx *ctx, const sqe_plan *p) {
    union_all_op *u = sqe_calloc(1, sizeof *u);
    u->base.vt = &union_all_vtable;
    u->base.plan = p;
    u->base.ctx = ctx;
    return &u->base;
}
