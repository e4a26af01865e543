/*
 * plan_node.c - plan node construction and the generic walk over plan
 * trees (release of the hive tables scans hold, numbering, EXPLAIN helpers
 * build on it). Every node is in the statement arena; a node's children
 * array is too.
 */
#include "plan_int.h"

sqe_plan *sqe_plan_node_new(sqe_arena *a, sqe_plan_kind kind, int n_children, sqe_plan **children,
                            int n_out) {
    sqe_plan *p = sqe_arena_alloc(a, sizeof *p);
    p->kind = kind;
    p->n_children = n_children;
    p->children = sqe_arena_alloc(a, sizeof(sqe_plan *) * (size_t)(n_children ? n_children : 1));
    for (int i = 0; i < n_children; i++) p->children[i] = children[i];
    p->n_out = n_out;
    p->out_types = sqe_arena_alloc(a, sizeof(sqe_type) * (size_t)(n_out ? n_out : 1));
    p->out_names = sqe_arena_alloc(a, sizeof(char *) * (size_t)(n_out ? n_out : 1));
    p->est_rows = -1;
    return p;
}

sqe_plan *sqe_plan_unary_new(sqe_arena *a, sqe_plan_kind kind, sqe_plan *child, int n_out) {
    return sqe_plan_node_new(a, kind, child ? 1 : 0, &child, n_out);
}

void sqe_plan_walk(sqe_plan *p, void (*fn)(sqe_plan *node, void *ctx), void *ctx) {
    if (!p) return;
    fn(p, ctx);
    for (int i = 0; i < p->n_children; i++) sqe_plan_walk(p->children[i], fn, ctx);
}

static void plan_release_node(sqe_plan *p, void *ctx) {
    SQE_UNUSED(ctx);
    if (p->kind == SQE_PLAN_SCAN && p->u.scan.table) {
        sqe_hive_table_free(p->u.scan.table);
        p->u.scan.table = NULL;
    }
}

void sqe_plan_release(sqe_plan *p) {
    sqe_plan_walk(p, plan_release_node, NULL);
}
