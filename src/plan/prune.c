/*
 * prune.c - projection pushdown over the whole plan tree: every node
 * outputs only the columns some ancestor reads, so a scan decodes only the
 * columns the query needs, also below joins, windows and subqueries.
 *
 *   prune(node, needed[]) -> map[] (old output column -> new, or -1)
 *
 * runs top-down: a node works out which columns of each child its kept
 * outputs and its own expressions read, prunes the child with that, then
 * rewrites its expressions through the child's map and narrows its own
 * output. The root keeps every column.
 *
 * Nodes whose inputs must keep one shape (UNION ALL children share a
 * schema, INTERSECT/EXCEPT compare whole rows, GROUP_ID's projection)
 * ask their children for every column, which leaves those subtrees as
 * they are. Expressions are copied when rewritten, never changed in place
 * (trees may share nodes).
 */
#include "plan_int.h"

#include <string.h>

typedef struct pr_need {
    bool *used;
    int n;
} pr_need;

static void pr_note(int *col, void *ctx) {
    pr_need *u = ctx;
    if (*col >= 0 && *col < u->n) u->used[*col] = true;
}

static void pr_use(sqe_expr *e, bool *used, int n) {
    pr_need u = {used, n};
    sqe_expr_visit_cols(e, pr_note, &u);
}

static bool *pr_bools(sqe_arena *a, int n) {
    return sqe_arena_alloc(a, (size_t)(n ? n : 1));
}

static int *pr_identity(sqe_arena *a, int n) {
    int *m = sqe_arena_alloc(a, sizeof(int) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) m[i] = i;
    return m;
}

static sqe_expr *pr_map(sqe_arena *a, sqe_expr *e, const int *map) {
    return e ? sqe_plan_expr_remap(a, e, map) : NULL;
}

static int *pr_prune(sqe_arena *a, sqe_plan *p, const bool *needed);

/* Prunes child i of p keeping every column. */
static void pr_keep_all(sqe_arena *a, sqe_plan *c) {
    bool *all = pr_bools(a, c->n_out);
    memset(all, 1, (size_t)c->n_out);
    pr_prune(a, c, all);
}

/* Narrows p's output schema to the kept columns (keep[i]); returns the map. */
static int *pr_narrow(sqe_arena *a, sqe_plan *p, const bool *keep) {
    int *map = sqe_arena_alloc(a, sizeof(int) * (size_t)(p->n_out ? p->n_out : 1));
    int n = 0;
    for (int i = 0; i < p->n_out; i++) {
        map[i] = keep[i] ? n : -1;
        if (keep[i]) {
            p->out_types[n] = p->out_types[i];
            p->out_names[n] = p->out_names[i];
            n++;
        }
    }
    p->n_out = n;
    return map;
}

static int *pr_scan(sqe_arena *a, sqe_plan *p, const bool *needed) {
    bool *keep = pr_bools(a, p->n_out);
    memcpy(keep, needed, (size_t)p->n_out);
    pr_use(p->u.scan.filter, keep, p->n_out);
    int *cols = sqe_arena_alloc(a, sizeof(int) * (size_t)(p->n_out ? p->n_out : 1));
    int n = 0;
    for (int i = 0; i < p->n_out; i++)
        if (keep[i]) cols[n++] = p->u.scan.cols[i];
    int *map = pr_narrow(a, p, keep);
    p->u.scan.cols = cols;
    p->u.scan.n_cols = n;
    p->u.scan.filter = pr_map(a, p->u.scan.filter, map);
    return map;
}

static int *pr_project(sqe_arena *a, sqe_plan *p, const bool *needed) {
    sqe_plan *c = p->children[0];
    bool *cu = pr_bools(a, c->n_out);
    for (int i = 0; i < p->n_out; i++)
        if (needed[i]) pr_use(p->u.project.exprs[i], cu, c->n_out);
    int *cm = pr_prune(a, c, cu);
    int n = 0;
    for (int i = 0; i < p->n_out; i++)
        if (needed[i]) p->u.project.exprs[n++] = pr_map(a, p->u.project.exprs[i], cm);
    return pr_narrow(a, p, needed);
}

static int *pr_aggregate(sqe_arena *a, sqe_plan *p) {
    sqe_plan *c = p->children[0];
    bool *cu = pr_bools(a, c->n_out);
    for (int g = 0; g < p->u.aggregate.n_groups; g++)
        pr_use(p->u.aggregate.groups[g], cu, c->n_out);
    for (int i = 0; i < p->u.aggregate.n_aggs; i++) {
        if (p->u.aggregate.agg_args) pr_use(p->u.aggregate.agg_args[i], cu, c->n_out);
        if (p->u.aggregate.agg_filters) pr_use(p->u.aggregate.agg_filters[i], cu, c->n_out);
    }
    int *cm = pr_prune(a, c, cu);
    for (int g = 0; g < p->u.aggregate.n_groups; g++)
        p->u.aggregate.groups[g] = pr_map(a, p->u.aggregate.groups[g], cm);
    for (int i = 0; i < p->u.aggregate.n_aggs; i++) {
        if (p->u.aggregate.agg_args)
            p->u.aggregate.agg_args[i] = pr_map(a, p->u.aggregate.agg_args[i], cm);
        if (p->u.aggregate.agg_filters)
            p->u.aggregate.agg_filters[i] = pr_map(a, p->u.aggregate.agg_filters[i], cm);
    }
    return pr_identity(a, p->n_out);
}

/* FILTER, SORT, TOPN, LIMIT, SINGLE_ROW: the child's columns pass through. */
static int *pr_passthrough(sqe_arena *a, sqe_plan *p, const bool *needed) {
    sqe_plan *c = p->children[0];
    bool *cu = pr_bools(a, c->n_out);
    memcpy(cu, needed, (size_t)c->n_out);
    if (p->kind == SQE_PLAN_SINGLE_ROW) memset(cu, 1, (size_t)c->n_out);
    if (p->kind == SQE_PLAN_FILTER) pr_use(p->u.filter.pred, cu, c->n_out);
    if (p->kind == SQE_PLAN_SORT || p->kind == SQE_PLAN_TOPN)
        for (int k = 0; k < p->u.sort.n_keys; k++) cu[p->u.sort.keys[k].col] = true;
    int *cm = pr_prune(a, c, cu);
    if (p->kind == SQE_PLAN_FILTER) p->u.filter.pred = pr_map(a, p->u.filter.pred, cm);
    if (p->kind == SQE_PLAN_SORT || p->kind == SQE_PLAN_TOPN) {
        sqe_sort_key *keys =
            sqe_arena_alloc(a, sizeof(sqe_sort_key) * (size_t)(p->u.sort.n_keys + 1));
        for (int k = 0; k < p->u.sort.n_keys; k++) {
            keys[k] = p->u.sort.keys[k];
            keys[k].col = cm[keys[k].col];
        }
        p->u.sort.keys = keys;
    }
    bool *keep = pr_bools(a, p->n_out);
    for (int i = 0; i < p->n_out; i++) keep[i] = cm[i] >= 0;
    pr_narrow(a, p, keep);
    return cm;
}

static int *pr_join(sqe_arena *a, sqe_plan *p, const bool *needed) {
    sqe_plan *l = p->children[0], *r = p->children[1];
    int nl = l->n_out, nr = r->n_out;
    sqe_join_type t = p->u.join.type;
    bool both = t != SQE_JT_SEMI && t != SQE_JT_ANTI && t != SQE_JT_MARK;
    bool *lu = pr_bools(a, nl), *ru = pr_bools(a, nr), *cat = pr_bools(a, nl + nr);
    for (int i = 0; i < nl; i++) lu[i] = needed[i];
    for (int j = 0; both && j < nr; j++) ru[j] = needed[nl + j];
    for (int k = 0; k < p->u.join.n_keys; k++) {
        pr_use(p->u.join.left_keys[k], lu, nl);
        pr_use(p->u.join.right_keys[k], ru, nr);
    }
    pr_use(p->u.join.residual, cat, nl + nr);
    for (int i = 0; i < nl; i++) lu[i] |= cat[i];
    for (int j = 0; j < nr; j++) ru[j] |= cat[nl + j];
    int *lm = pr_prune(a, l, lu), *rm = pr_prune(a, r, ru);
    int nl2 = l->n_out;
    int *cm = sqe_arena_alloc(a, sizeof(int) * (size_t)(nl + nr));
    for (int i = 0; i < nl; i++) cm[i] = lm[i];
    for (int j = 0; j < nr; j++) cm[nl + j] = rm[j] < 0 ? -1 : nl2 + rm[j];
    for (int k = 0; k < p->u.join.n_keys; k++) {
        p->u.join.left_keys[k] = pr_map(a, p->u.join.left_keys[k], lm);
        p->u.join.right_keys[k] = pr_map(a, p->u.join.right_keys[k], rm);
    }
    p->u.join.residual = pr_map(a, p->u.join.residual, cm);
    /* New output: left's columns, then right's (or the mark). */
    int n_old = p->n_out;
    sqe_type *ot = p->out_types;
    const char **on = p->out_names;
    int n_new = nl2 + (both ? r->n_out : (t == SQE_JT_MARK ? 1 : 0));
    p->out_types = sqe_arena_alloc(a, sizeof(sqe_type) * (size_t)(n_new ? n_new : 1));
    p->out_names = sqe_arena_alloc(a, sizeof(char *) * (size_t)(n_new ? n_new : 1));
    int *map = sqe_arena_alloc(a, sizeof(int) * (size_t)(n_old ? n_old : 1));
    for (int i = 0; i < n_old; i++) {
        int m = i < nl ? lm[i] : (both ? (rm[i - nl] < 0 ? -1 : nl2 + rm[i - nl]) : nl2);
        map[i] = m;
        if (m >= 0) {
            p->out_types[m] = ot[i];
            p->out_names[m] = on[i];
        }
    }
    p->n_out = n_new;
    return map;
}

static int *pr_window(sqe_arena *a, sqe_plan *p, const bool *needed) {
    sqe_plan *c = p->children[0];
    int nc = c->n_out;
    bool *cu = pr_bools(a, nc);
    memcpy(cu, needed, (size_t)nc);
    for (int i = 0; i < p->u.window.n_partition; i++) pr_use(p->u.window.partition[i], cu, nc);
    for (int i = 0; i < p->u.window.n_order; i++) pr_use(p->u.window.order[i], cu, nc);
    for (int f = 0; f < p->u.window.n_funcs; f++) {
        sqe_window_func *wf = &p->u.window.funcs[f];
        for (int i = 0; i < wf->n_args; i++) pr_use(wf->args[i], cu, nc);
        pr_use(wf->filter, cu, nc);
        pr_use(wf->start.offset, cu, nc);
        pr_use(wf->end.offset, cu, nc);
    }
    int *cm = pr_prune(a, c, cu);
    for (int i = 0; i < p->u.window.n_partition; i++)
        p->u.window.partition[i] = pr_map(a, p->u.window.partition[i], cm);
    for (int i = 0; i < p->u.window.n_order; i++)
        p->u.window.order[i] = pr_map(a, p->u.window.order[i], cm);
    for (int f = 0; f < p->u.window.n_funcs; f++) {
        sqe_window_func *wf = &p->u.window.funcs[f];
        for (int i = 0; i < wf->n_args; i++) wf->args[i] = pr_map(a, wf->args[i], cm);
        wf->filter = pr_map(a, wf->filter, cm);
        wf->start.offset = pr_map(a, wf->start.offset, cm);
        wf->end.offset = pr_map(a, wf->end.offset, cm);
    }
    bool *keep = pr_bools(a, p->n_out);
    for (int i = 0; i < p->n_out; i++) keep[i] = i < nc ? cm[i] >= 0 : true;
    return pr_narrow(a, p, keep);
}

static int *pr_prune(sqe_arena *a, sqe_plan *p, const bool *needed) {
    switch (p->kind) {
    case SQE_PLAN_SCAN:
        return pr_scan(a, p, needed);
    case SQE_PLAN_PROJECT:
        return pr_project(a, p, needed);
    case SQE_PLAN_AGGREGATE:
        return pr_aggregate(a, p);
    case SQE_PLAN_FILTER:
    case SQE_PLAN_SORT:
    case SQE_PLAN_TOPN:
    case SQE_PLAN_LIMIT:
    case SQE_PLAN_SINGLE_ROW:
        return pr_passthrough(a, p, needed);
    case SQE_PLAN_HASH_JOIN:
    case SQE_PLAN_NL_JOIN:
        return pr_join(a, p, needed);
    case SQE_PLAN_WINDOW:
        return pr_window(a, p, needed);
    default:
        for (int i = 0; i < p->n_children; i++) pr_keep_all(a, p->children[i]);
        return pr_identity(a, p->n_out);
    }
}

void sqe_plan_prune_columns(sqe_arena *a, sqe_plan *root) {
    pr_keep_all(a, root);
}
