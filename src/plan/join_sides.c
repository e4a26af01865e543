/*
 * join_sides.c - chooses which input of each join is the build side, from
 * size estimates.
 *
 * A hash join builds a table of its right input (children[1]) and streams
 * its left input through it, so the smaller input belongs on the right.
 * After the plan is built, every INNER, LEFT, RIGHT or FULL join whose
 * left input is estimated at less than half its right input is mirrored:
 * the inputs swap, LEFT and RIGHT trade places, keys swap sides, the
 * residual is remapped, and the node becomes a projection over the mirrored
 * join that restores the original column order, so nothing above changes.
 * Joins from subqueries (SEMI, ANTI, MARK, single-match) keep their shape:
 * their sides mean different things.
 *
 * Estimates are sizes in bytes, not rows. A table with statistics (the
 * sqe.statistics slot ANALYZE writes, SPEC §8.2) is sized from its row
 * count times the width of the scanned columns, without any listing;
 * statistics only move the build side and join order, never answers, so
 * stale ones cost speed at worst. Otherwise a scan's is the bytes of the
 * files it would read, known from a listing of at most
 * SQE_PLAN_EST_MAX_PARTITIONS surviving partitions (extrapolated to the
 * rest); filters, aggregates and limits scale it by fixed factors. They
 * are computed only for inputs of joins, so a query without joins lists
 * nothing at plan time. Without any estimate the written order stands
 * (Trino's behaviour without statistics).
 */
#include "plan_int.h"

#include <string.h>

#define SQE_PLAN_EST_MAX_PARTITIONS 32
#define SQE_PLAN_EST_UNKNOWN (-1.0)

/* Bytes of the scanned columns of `rows` rows, as a scan of the table
 * would hold them in memory: fixed-width types their width, strings and
 * nested types a 16-byte view plus 8 bytes of text. */
static double js_stats_bytes(const sqe_plan *p, const sqe_hive_table *t) {
    double width = 0;
    for (int i = 0; i < p->u.scan.n_cols; i++) {
        int c = p->u.scan.cols[i];
        sqe_type ty = c < t->n_cols ? t->cols[c].type : t->part_keys[c - t->n_cols].type;
        size_t w = sqe_type_width(ty);
        width += ty.id == SQE_T_VARCHAR || ty.id == SQE_T_VARBINARY || w == 0 || w > 16 ? 24.0
                                                                                        : (double)w;
    }
    if (width < 1) width = 1; /* count(*): rows still cost */
    return (double)t->stat_rows * width;
}

static double js_scan_bytes(sqe_plan *p) {
    if (p->est_rows >= 0) return p->est_rows;
    const sqe_hive_table *t = p->u.scan.table;
    if (t && t->has_stats) { /* ANALYZE's row count: no listing at plan time */
        double bytes = js_stats_bytes(p, t);
        if (p->u.scan.filter) bytes *= 0.25;
        if (p->u.scan.partition_filter) bytes *= 0.5;
        p->est_rows = bytes;
        return bytes;
    }
    sqe_error err;
    sqe_error_clear(&err);
    sqe_store *store = t ? sqe_hive_table_store(t, &err) : NULL;
    if (!store) return SQE_PLAN_EST_UNKNOWN;
    sqe_arena *a = sqe_arena_new(0);
    sqe_hive_partition *parts = NULL;
    size_t n_parts = 0;
    double bytes = SQE_PLAN_EST_UNKNOWN;
    if (sqe_hive_list_partitions(store, t, p->u.scan.prune, a, &parts, &n_parts, &err)) {
        size_t sample =
            n_parts < SQE_PLAN_EST_MAX_PARTITIONS ? n_parts : SQE_PLAN_EST_MAX_PARTITIONS;
        double sum = 0;
        bool ok = true;
        for (size_t i = 0; i < sample && ok; i++) {
            sqe_hive_file *files = NULL;
            size_t n_files = 0;
            ok = sqe_hive_partition_files(store, &parts[i], a, &files, &n_files, &err);
            for (size_t f = 0; ok && f < n_files; f++) sum += (double)files[f].size;
        }
        if (ok) bytes = sample ? sum * (double)n_parts / (double)sample : 0;
    }
    sqe_arena_free(a);
    sqe_store_free(store);
    if (bytes >= 0 && p->u.scan.filter) bytes *= 0.25;
    if (bytes >= 0 && p->u.scan.partition_filter) bytes *= 0.5;
    p->est_rows = bytes;
    return bytes;
}

double sqe_plan_estimate(sqe_plan *p) {
    double c = p->n_children ? sqe_plan_estimate(p->children[0]) : 0;
    switch (p->kind) {
    case SQE_PLAN_SCAN:
        return js_scan_bytes(p);
    case SQE_PLAN_VALUES:
        return 32.0 * p->u.values.n_rows;
    case SQE_PLAN_FILTER:
        return c < 0 ? c : c * 0.25;
    case SQE_PLAN_AGGREGATE:
        if (p->u.aggregate.n_groups == 0) return 64;
        return c < 0 ? c : c * 0.1;
    case SQE_PLAN_LIMIT:
        if (p->u.limit.has_limit && (c < 0 || 100.0 * (double)p->u.limit.limit < c))
            return 100.0 * (double)p->u.limit.limit;
        return c;
    case SQE_PLAN_TOPN:
        if (c < 0 || 100.0 * (double)p->u.sort.limit < c) return 100.0 * (double)p->u.sort.limit;
        return c;
    case SQE_PLAN_SINGLE_ROW:
        return 64;
    case SQE_PLAN_HASH_JOIN:
    case SQE_PLAN_NL_JOIN: {
        double r = sqe_plan_estimate(p->children[1]);
        if (c < 0 || r < 0) return SQE_PLAN_EST_UNKNOWN;
        return c > r ? c : r;
    }
    case SQE_PLAN_UNION_ALL: {
        double sum = 0;
        for (int i = 0; i < p->n_children; i++) {
            double x = i ? sqe_plan_estimate(p->children[i]) : c;
            if (x < 0) return SQE_PLAN_EST_UNKNOWN;
            sum += x;
        }
        return sum;
    }
    default:
        return c;
    }
}

static sqe_join_type js_mirror_type(sqe_join_type t) {
    return t == SQE_JT_LEFT ? SQE_JT_RIGHT : t == SQE_JT_RIGHT ? SQE_JT_LEFT : t;
}

/* Turns join p into PROJECT(mirrored join) with the same output. */
static void js_mirror(sqe_arena *a, sqe_plan *p) {
    sqe_plan *l = p->children[0], *r = p->children[1];
    int nl = l->n_out, nr = r->n_out, n = nl + nr;
    sqe_plan *kids[2] = {r, l};
    sqe_plan *j = sqe_plan_node_new(a, p->kind, 2, kids, n);
    for (int i = 0; i < nr; i++) {
        j->out_types[i] = p->out_types[nl + i];
        j->out_names[i] = p->out_names[nl + i];
    }
    for (int i = 0; i < nl; i++) {
        j->out_types[nr + i] = p->out_types[i];
        j->out_names[nr + i] = p->out_names[i];
    }
    j->u.join = p->u.join;
    j->u.join.type = js_mirror_type(p->u.join.type);
    j->u.join.left_keys = p->u.join.right_keys;
    j->u.join.right_keys = p->u.join.left_keys;
    int *map = sqe_arena_alloc(a, sizeof(int) * (size_t)n);
    for (int i = 0; i < nl; i++) map[i] = nr + i;
    for (int i = 0; i < nr; i++) map[nl + i] = i;
    if (p->u.join.residual) j->u.join.residual = sqe_plan_expr_remap(a, p->u.join.residual, map);
    j->est_rows = p->est_rows;
    sqe_expr **ex = sqe_arena_alloc(a, sizeof(sqe_expr *) * (size_t)n);
    for (int i = 0; i < n; i++)
        ex[i] = sqe_expr_column(a, map[i], p->out_types[i], p->out_names[i]);
    p->kind = SQE_PLAN_PROJECT;
    p->children = sqe_arena_alloc(a, sizeof(sqe_plan *));
    p->children[0] = j;
    p->n_children = 1;
    memset(&p->u, 0, sizeof p->u);
    p->u.project.exprs = ex;
}

static void js_visit(sqe_arena *a, sqe_plan *p) {
    for (int i = 0; i < p->n_children; i++) js_visit(a, p->children[i]);
    if (p->kind != SQE_PLAN_HASH_JOIN && p->kind != SQE_PLAN_NL_JOIN) return;
    sqe_join_type t = p->u.join.type;
    if (t == SQE_JT_SEMI || t == SQE_JT_ANTI || t == SQE_JT_MARK || p->u.join.single_match ||
        p->u.join.null_aware)
        return;
    double l = sqe_plan_estimate(p->children[0]), r = sqe_plan_estimate(p->children[1]);
    if (l < 0 || r < 0 || l * 2 >= r) return;
    js_mirror(a, p);
}

void sqe_plan_choose_build_sides(sqe_arena *a, sqe_plan *root) {
    js_visit(a, root);
}
