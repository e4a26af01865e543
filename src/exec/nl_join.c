/*
 * nl_join.c - NestedLoopJoinExec: joins without equality keys (n_keys ==
 * 0): cross joins (no residual) and joins on any other condition (the
 * residual), for every join type: INNER, LEFT, RIGHT, FULL, SEMI and ANTI
 * (EXISTS / NOT EXISTS with a non-equi correlation), MARK (EXISTS as a
 * value: TRUE or FALSE, never NULL), and the scalar-subquery single-match
 * check.
 *
 * Where it sits: children[1] is materialized once per query into the same
 * shared table a hash join uses (join_table.c), just without indexes; the
 * first pipeline copy to open builds it, every copy of children[0]'s
 * pipeline then pairs its probe rows with all of it. The probe driver in
 * join_table.c does the rest: output batches, per-type extra rows, and the
 * RIGHT/FULL rows no copy matched (emitted once, by the last copy to
 * finish probing).
 *
 * Vectorization: candidates are generated probe row by probe row (each
 * with its own cursor into the build rows) into a buffer of up to 2048
 * pairs, so the residual is evaluated once per 2048 pairs whatever the
 * shapes: one probe row against 2048 build rows, or 2048 probe rows
 * against a one-row build side. SEMI/ANTI/MARK stop a probe row at its
 * first accepted pair; with a residual they take build rows in passes of
 * doubling size (join_table.c), so EXISTS over a large build side whose
 * first rows match costs a few evaluations per probe row, not 2048.
 * Without a residual they need no pairs at all (a row matches iff the
 * build side is non-empty).
 *
 * Cost is |probe| x |build| residual evaluations: the planner uses this
 * operator only when there is no equality to hash on.
 */
#include "exec/join_table.h"

typedef struct nlj_op {
    sqe_join_op j;
    uint32_t *cj; /* per live probe row: next build row */
} nlj_op;

static bool nlj_start(sqe_join_op *j, sqe_error *err) {
    SQE_UNUSED(err);
    nlj_op *n = (nlj_op *)j;
    memset(n->cj, 0, j->n_in * sizeof *n->cj);
    return true;
}

static bool nlj_fill_row(sqe_join_op *j, uint32_t i, uint32_t *budget) {
    nlj_op *n = (nlj_op *)j;
    size_t n_build = j->t->n_rows;
    if (j->direct) {
        j->hits[i] = n_build > 0;
        return false;
    }
    size_t take = SQE_MIN((size_t)(SQE_BATCH_ROWS - j->n_pairs), n_build - n->cj[i]);
    take = SQE_MIN(take, (size_t)*budget);
    uint32_t first = n->cj[i];
    for (uint32_t r = 0; r < (uint32_t)take; r++) {
        j->pi[j->n_pairs + r] = (uint16_t)i;
        j->pb[j->n_pairs + r] = first + r;
    }
    j->n_pairs += (uint32_t)take;
    n->cj[i] += (uint32_t)take;
    *budget -= (uint32_t)take;
    return n->cj[i] < n_build;
}

static const sqe_join_probe_vt nlj_vt = {nlj_start, nlj_fill_row, NULL, NULL};

static bool nlj_open(sqe_op *op, sqe_error *err) {
    const sqe_plan *p = op->plan;
    if (p->u.join.n_keys != 0 || p->u.join.null_aware)
        return sqe_error_set(err, SQE_ERR_INTERNAL,
                             "NestedLoopJoinExec with join keys or null_aware (a HashJoinExec's)");
    nlj_op *n = (nlj_op *)op;
    n->cj = sqe_calloc(SQE_BATCH_ROWS, sizeof *n->cj);
    return sqe_join_open(&n->j, &nlj_vt, err);
}

static bool nlj_next(sqe_op *op, sqe_batch **out, bool *eof, sqe_error *err) {
    return sqe_join_next((sqe_join_op *)op, out, eof, err);
}

static void nlj_close(sqe_op *op) {
    nlj_op *n = (nlj_op *)op;
    sqe_join_close(&n->j);
    sqe_free(n->cj);
    n->cj = NULL;
}

static const sqe_op_vtable nlj_vtable = {"NestedLoopJoinExec", nlj_open, nlj_next, nlj_close};

sqe_op *sqe_exec_nl_join_new(sqe_exec_ctx *ctx, const sqe_plan *p) {
    nlj_op *n = sqe_calloc(1, sizeof *n);
    n->j.base.vt = &nlj_vtable;
    n->j.base.plan = p;
    n->j.base.ctx = ctx;
    return &n->j.base;
}
