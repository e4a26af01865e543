/*
 * lazy_scan.c - marks the scans that read partitions lazily, newest first
 * (SPEC §9.1).
 *
 * `SELECT * FROM snapshots LIMIT 10` on a table of 1,241 daily partitions
 * needs ten rows, and a user asking it expects recent ones. A scan whose
 * only consumer is a LIMIT (through FILTER and PROJECT nodes, which keep
 * rows in order and end when their input ends) and that has no partition
 * predicate (no partition filter, no prune: a predicate on keys says which
 * partitions the user wants, and SPEC §9.1 leaves those to ordinary
 * pruning) is marked `lazy`: the executor (exec/scan.c) then hands out the
 * partitions in descending order of their values (NULLs last), lists one
 * partition's files only when its turn comes, and never lists ahead to
 * decide on parallelism beyond the first partition. The LIMIT's done signal
 * stops it, so such a query lists and reads one partition when that
 * partition holds enough rows.
 *
 * The mark changes which rows a LIMIT without ORDER BY returns (any rows
 * are a correct answer), never whether a query succeeds: every partition
 * is still read when the limit is not met. Sorts, aggregates, joins and
 * windows between the LIMIT and the scan disqualify it (they read their
 * whole input anyway), as does ORDER BY (a TopN, not a LIMIT).
 */
#include "plan_int.h"

static void ls_visit(sqe_plan *p, void *ctx) {
    (void)ctx;
    if (p->kind != SQE_PLAN_LIMIT || !p->u.limit.has_limit) return;
    sqe_plan *c = p->n_children ? p->children[0] : NULL;
    while (c && (c->kind == SQE_PLAN_FILTER || c->kind == SQE_PLAN_PROJECT))
        c = c->n_children ? c->children[0] : NULL;
    if (!c || c->kind != SQE_PLAN_SCAN) return;
    const sqe_hive_table *t = c->u.scan.table;
    if (!t || t->n_part_keys == 0 || c->u.scan.partition_filter || c->u.scan.prune) return;
    c->u.scan.lazy = true;
}

void sqe_plan_mark_lazy_scans(sqe_plan *root) {
    sqe_plan_walk(root, ls_visit, NULL);
}
