/*
 * join_order.c - greedy ordering of multi-way inner joins by estimated size.
 *
 * Users write joins in whatever order reads well ("FROM nation, customer,
 * orders WHERE ..."), and a left-deep plan in written order can build a
 * hash table of the biggest table or join two tables that share no
 * condition (a cross product) before the condition that links them
 * arrives. This pass rewrites every *region* of inner joins: a maximal
 * subtree of INNER hash or nested-loop joins (not outer, semi, anti or mark
 * joins, not the single-match joins of scalar subqueries), whose inputs are
 * the region's *leaves*.
 *
 * Within a region every condition is re-expressed over the region's
 * *global* column space (the leaves' columns side by side, in written
 * order): key pairs le = re and residual conjuncts, each with the set of
 * leaves it references. The new order is greedy: start with the largest
 * leaf (it streams as the probe side), then repeatedly join the smallest
 * leaf that some not yet placed condition connects to what is already
 * joined, or the smallest leaf when none is connected (the cross product
 * is unavoidable then). The result is a left-deep tree whose joins each
 * take every condition that has become fully covered: key pairs with one
 * side on each input become hash keys, the rest the residual. A projection
 * on top restores the region's written column order, so nothing above
 * changes.
 *
 * Estimates come from sqe_plan_estimate (join_sides.c: bytes of the files a
 * scan would read, scaled by fixed factors). A region is left as written
 * when it has fewer than three leaves, when any leaf has no estimate (as
 * Trino without statistics), when a key side references more than one leaf
 * (a key such as a.x + c.y = b.z could not be re-split), or when the greedy
 * order is the written one. join_sides.c then still picks each join's build
 * side.
 */
#include "plan_int.h"

#include <string.h>

#define JO_MAX_LEAVES 64

typedef struct jo_leaf {
    sqe_plan *plan;
    int base; /* first global column */
    double est;
} jo_leaf;

typedef struct jo_pred {
    sqe_expr *le, *re; /* key pair over global columns (re NULL: le is a residual conjunct) */
    uint64_t mask;     /* leaves referenced */
    bool placed;
} jo_pred;

typedef struct jo_region {
    sqe_arena *a;
    SQE_ARRAY(jo_leaf) leaves;
    SQE_ARRAY(jo_pred) preds;
    bool give_up;
} jo_region;

static bool jo_is_inner(const sqe_plan *p) {
    return (p->kind == SQE_PLAN_HASH_JOIN || p->kind == SQE_PLAN_NL_JOIN) &&
           p->u.join.type == SQE_JT_INNER && !p->u.join.single_match && !p->u.join.null_aware;
}

typedef struct jo_mask_ctx {
    const jo_region *r;
    uint64_t mask;
} jo_mask_ctx;

static void jo_note_col(int *col, void *ctx) {
    jo_mask_ctx *m = ctx;
    const jo_region *r = m->r;
    for (size_t i = r->leaves.len; i-- > 0;)
        if (*col >= r->leaves.items[i].base) {
            m->mask |= 1ULL << i;
            return;
        }
}

static uint64_t jo_mask(const jo_region *r, sqe_expr *e) {
    jo_mask_ctx m = {r, 0};
    sqe_expr_visit_cols(e, jo_note_col, &m);
    return m.mask;
}

static bool jo_single_leaf(uint64_t mask) {
    return mask != 0 && (mask & (mask - 1)) == 0;
}

static void jo_add_pred(jo_region *r, sqe_expr *le, sqe_expr *re) {
    jo_pred pr = {le, re, 0, false};
    SQE_ARRAY_PUSH(r->a, r->preds, pr);
}

/* Collects the leaves and conditions of the region rooted at inner join p,
 * whose first column is global column `base`. Masks are computed after
 * all leaves are known. */
static void jo_collect(jo_region *r, sqe_plan *p, int base) {
    if (!jo_is_inner(p)) {
        if (r->leaves.len >= JO_MAX_LEAVES) {
            r->give_up = true;
            return;
        }
        jo_leaf l = {p, base, sqe_plan_estimate(p)};
        SQE_ARRAY_PUSH(r->a, r->leaves, l);
        return;
    }
    int nl = p->children[0]->n_out;
    jo_collect(r, p->children[0], base);
    jo_collect(r, p->children[1], base + nl);
    for (int i = 0; i < p->u.join.n_keys; i++)
        jo_add_pred(r, sqe_plan_expr_shift(r->a, p->u.join.left_keys[i], base),
                    sqe_plan_expr_shift(r->a, p->u.join.right_keys[i], base + nl));
    if (p->u.join.residual) {
        sqe_expr_list conj = {0};
        sqe_plan_conjuncts(r->a, sqe_plan_expr_shift(r->a, p->u.join.residual, base), &conj);
        for (size_t i = 0; i < conj.len; i++) jo_add_pred(r, conj.items[i], NULL);
    }
}

/* The greedy order (indexes into leaves); false when it is the written one. */
static bool jo_greedy(const jo_region *r, int *order) {
    int n = (int)r->leaves.len;
    const jo_leaf *lv = r->leaves.items;
    int first = 0;
    for (int i = 1; i < n; i++)
        if (lv[i].est > lv[first].est) first = i;
    order[0] = first;
    uint64_t done = 1ULL << first;
    for (int k = 1; k < n; k++) {
        int best = -1;
        bool best_conn = false;
        for (int i = 0; i < n; i++) {
            if (done & (1ULL << i)) continue;
            bool conn = false;
            for (size_t q = 0; q < r->preds.len && !conn; q++) {
                uint64_t m = r->preds.items[q].mask;
                conn = (m & (1ULL << i)) && (m & done) && !(m & ~(done | (1ULL << i)));
            }
            if (best < 0 || (conn && !best_conn) ||
                (conn == best_conn && lv[i].est < lv[best].est)) {
                best = i;
                best_conn = conn;
            }
        }
        order[k] = best;
        done |= 1ULL << best;
    }
    for (int k = 0; k < n; k++)
        if (order[k] != k) return true;
    return false;
}

/* map[global] = column in the tree built so far (acc) followed by leaf
 * `next`; -1 for leaves not yet joined. */
static void jo_fill_map(const jo_region *r, const int *order, int n_done, int total, int *map) {
    for (int i = 0; i < total; i++) map[i] = -1;
    int pos = 0;
    for (int k = 0; k < n_done; k++) {
        const jo_leaf *l = &r->leaves.items[order[k]];
        for (int c = 0; c < l->plan->n_out; c++) map[l->base + c] = pos++;
    }
}

static sqe_plan *jo_join_node(sqe_arena *a, sqe_plan *l, sqe_plan *r) {
    sqe_plan *kids[2] = {l, r};
    sqe_plan *j = sqe_plan_node_new(a, SQE_PLAN_NL_JOIN, 2, kids, l->n_out + r->n_out);
    for (int i = 0; i < l->n_out; i++) {
        j->out_types[i] = l->out_types[i];
        j->out_names[i] = l->out_names[i];
    }
    for (int i = 0; i < r->n_out; i++) {
        j->out_types[l->n_out + i] = r->out_types[i];
        j->out_names[l->n_out + i] = r->out_names[i];
    }
    j->u.join.type = SQE_JT_INNER;
    return j;
}

/* Gives join j (acc + leaf bit `leaf`) every condition now covered. */
static void jo_place_preds(planner *pl, jo_region *r, sqe_plan *j, uint64_t acc, uint64_t leaf,
                           const int *map) {
    int nl = j->children[0]->n_out;
    for (size_t q = 0; q < r->preds.len; q++) {
        jo_pred *pr = &r->preds.items[q];
        if (pr->placed || (pr->mask & ~(acc | leaf))) continue;
        pr->placed = true;
        if (!pr->re) {
            sqe_plan_join_add_cond(pl, j, sqe_plan_expr_remap(pl->arena, pr->le, map));
            continue;
        }
        sqe_expr *le = sqe_plan_expr_remap(pl->arena, pr->le, map);
        sqe_expr *re = sqe_plan_expr_remap(pl->arena, pr->re, map);
        uint64_t lm = jo_mask(r, pr->le);
        if (lm & leaf) { /* the pair points the other way round */
            sqe_expr *t = le;
            le = re;
            re = t;
        }
        sqe_plan_join_append_key(pl, j, le, sqe_plan_expr_shift(pl->arena, re, -nl));
    }
}

/* Rewrites region root p (in place) as PROJECT(left-deep joins in `order`). */
static void jo_rebuild(planner *pl, jo_region *r, sqe_plan *p, const int *order) {
    sqe_arena *a = pl->arena;
    int n = (int)r->leaves.len, total = p->n_out;
    int *map = sqe_arena_alloc(a, sizeof(int) * (size_t)total);
    sqe_plan *acc = r->leaves.items[order[0]].plan;
    uint64_t acc_mask = 1ULL << order[0];
    for (int k = 1; k < n; k++) {
        const jo_leaf *l = &r->leaves.items[order[k]];
        sqe_plan *j = jo_join_node(a, acc, l->plan);
        jo_fill_map(r, order, k + 1, total, map);
        jo_place_preds(pl, r, j, acc_mask, 1ULL << order[k], map);
        acc = j;
        acc_mask |= 1ULL << order[k];
    }
    /* map now sends each global (written-order) column to its new position */
    sqe_expr **ex = sqe_arena_alloc(a, sizeof(sqe_expr *) * (size_t)(total + 1));
    for (int i = 0; i < total; i++)
        ex[i] = sqe_expr_column(a, map[i], p->out_types[i], p->out_names[i]);
    p->kind = SQE_PLAN_PROJECT;
    p->children = sqe_arena_alloc(a, sizeof(sqe_plan *));
    p->children[0] = acc;
    p->n_children = 1;
    memset(&p->u, 0, sizeof p->u);
    p->u.project.exprs = ex;
}

static void jo_region_at(planner *pl, sqe_plan *p) {
    jo_region r = {.a = pl->arena};
    jo_collect(&r, p, 0);
    if (r.give_up || r.leaves.len < 3) return;
    for (size_t i = 0; i < r.leaves.len; i++)
        if (r.leaves.items[i].est < 0) return;
    for (size_t q = 0; q < r.preds.len; q++) {
        jo_pred *pr = &r.preds.items[q];
        pr->mask = jo_mask(&r, pr->le);
        if (pr->re) {
            uint64_t lm = pr->mask, rm = jo_mask(&r, pr->re);
            if (!jo_single_leaf(lm) || !jo_single_leaf(rm)) return;
            pr->mask |= rm;
        }
    }
    int order[JO_MAX_LEAVES];
    if (jo_greedy(&r, order)) jo_rebuild(pl, &r, p, order);
}

static void jo_visit(planner *pl, sqe_plan *p);

/* Orders the joins below each leaf of the region at p first (a leaf keeps
 * its output columns, so the region's conditions stay valid), then the
 * region itself. */
static void jo_visit_region(planner *pl, sqe_plan *p) {
    if (!jo_is_inner(p)) {
        jo_visit(pl, p);
        return;
    }
    jo_visit_region(pl, p->children[0]);
    jo_visit_region(pl, p->children[1]);
}

static void jo_visit(planner *pl, sqe_plan *p) {
    if (jo_is_inner(p)) {
        jo_visit_region(pl, p);
        jo_region_at(pl, p);
        return;
    }
    for (int i = 0; i < p->n_children; i++) jo_visit(pl, p->children[i]);
}

void sqe_plan_order_joins(planner *pl, sqe_plan *root) {
    jo_visit(pl, root);
}
