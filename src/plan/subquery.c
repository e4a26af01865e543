/*
 * subquery.c - subqueries in expressions, decorrelated into joins.
 *
 * A subquery found while a clause is bound becomes a join stacked on the
 * clause's input (*subq_ctx.cur): its left input is that input, so every
 * column the clause's scope names keeps its index, and the subquery's
 * value is one more column to the right.
 *
 *   (SELECT x ...)           uncorrelated: NL LEFT join with SINGLE_ROW(sub)
 *                            (0 rows -> NULL, 2 or more -> Trino's error)
 *                            correlated: LEFT join on the correlation
 *                            (single_match: a second match is that error);
 *                            an aggregate without GROUP BY is grouped by
 *                            the correlation columns, and count-like
 *                            results of empty groups become 0 (an item
 *                            over them is deferred and reads
 *                            COALESCE(count, 0), planner.c); when the
 *                            correlation is not only equalities, the outer
 *                            rows are numbered (row_number), LEFT joined
 *                            with the aggregate's input on the
 *                            correlation and regrouped per outer row
 *                            (count(*) counts a marker of the inner side)
 *   EXISTS (...)             MARK join (the mark column is the value);
 *                            a WHERE conjunct: SEMI / ANTI join
 *   x IN (SELECT y ...)      MARK join, null-aware on its last key (x = y),
 *                            correlation keys first; a WHERE conjunct:
 *                            SEMI / null-aware ANTI (NOT IN)
 *   EXISTS / IN over a correlated aggregate without GROUP BY: one row per
 *                            outer row, so EXISTS is TRUE (the plan is
 *                            dropped) and x IN (...) is x = the scalar
 *                            subquery's value
 *
 * Correlation (planner.c): the subquery's own SELECT binds names it does
 * not have against the enclosing scope as OUTER_COL; its WHERE conjuncts
 * that use them are taken out (corr_ctx.conds) and the inner columns they
 * read are appended to its output. Here those conjuncts are rewritten over
 * the join's columns (OUTER_COL i -> column i of the left input, column j
 * of the subquery -> left width + j) and become hash keys when they are
 * equalities between the two sides, or the join's residual. A grouped
 * enclosing query's clause input is its aggregate's output: there an outer
 * name is a GROUP BY key's column and an aggregate call whose argument
 * reads only the enclosing query is that query's aggregate (binder.c).
 * Select items reading the enclosing query are deferred (corr_ctx
 * .deferred: evaluated above the join over carried inner columns, NULL
 * where no row matched).
 *
 * Two query levels (A > B > C, C reading A: SQE_OUTER_LEVEL 1). C reading
 * only A is independent of B's rows: it is hoisted, joined to A's clause
 * input as a subquery of A, and B sees its value as an outer reference.
 * C reading A and B as a [NOT-less] EXISTS / IN conjunct of B's WHERE,
 * every correlation `C column = outer expression`, is pulled up: B's
 * input is INNER joined with C's distinct (IN value, correlation columns)
 * rows on the equalities to B, and the equalities to A become B's own
 * correlation (sq_pull_up). C whose correlation reads only B but whose
 * item reads A is joined to B as usual; its value, evaluated in B, reads
 * A through B's own outer references (sq_rewrite lowers the level).
 *
 * LIMIT/OFFSET under an equality correlation applies per outer row
 * (planner.c: row_number over the correlation columns, then a filter).
 *
 * HAVING conjuncts of a grouped subquery that read the enclosing query
 * are correlation conditions too, over carried aggregate outputs
 * (planner.c split_having_corr).
 *
 * Not supported (clear errors): correlation in set operations, under
 * LIMIT when not only equalities, in HAVING without GROUP BY or with
 * LIMIT, in GROUP BY or an aggregate's argument of the subquery; more than two query levels; C
 * reading A and B as NOT EXISTS / NOT IN, a scalar, a value or through a non-equality; an IN
 * subquery whose item reads the enclosing query; a non-equality correlation of an aggregate
 * subquery with HAVING or whose item reads an inner column outside an aggregate or the enclosing
 * query; EXISTS / IN over a correlated aggregate with HAVING.
 */
#include "plan_int.h"

#include <stdint.h>
#include <string.h>

static bool sq_has_outer(const sqe_expr *e) {
    if (!e) return false;
    if (e->kind == SQE_EXPR_OUTER_COL) return true;
    for (int i = 0; i < e->n_args; i++)
        if (sq_has_outer(e->args[i])) return true;
    return false;
}

bool sqe_expr_has_outer(const sqe_expr *e) {
    return sq_has_outer(e);
}

/* A correlated condition over the join's concatenated columns. */
static sqe_expr *sq_rewrite(sqe_arena *a, const sqe_expr *e, int n_left) {
    sqe_expr *c = sqe_arena_alloc(a, sizeof *c);
    *c = *e;
    if (e->n_args) {
        c->args = sqe_arena_alloc(a, sizeof(sqe_expr *) * (size_t)e->n_args);
        for (int i = 0; i < e->n_args; i++) c->args[i] = sq_rewrite(a, e->args[i], n_left);
    }
    if (e->kind == SQE_EXPR_OUTER_COL && SQE_OUTER_LEVEL(e) > 0)
        SQE_OUTER_LEVEL(c) = SQE_OUTER_LEVEL(e) - 1; /* still outer, one level closer */
    else if (e->kind == SQE_EXPR_OUTER_COL)
        c->kind = SQE_EXPR_COLUMN;
    else if (e->kind == SQE_EXPR_COLUMN)
        c->col += n_left;
    return c;
}

/* A join of *cur (left) and sub (right) with the given type; output
 * schema by type (plan.h). */
static sqe_plan *sq_join(sqe_arena *a, sqe_join_type type, sqe_plan *left, sqe_plan *sub) {
    int nl = left->n_out;
    int n = type == SQE_JT_MARK                            ? nl + 1
            : (type == SQE_JT_SEMI || type == SQE_JT_ANTI) ? nl
                                                           : nl + sub->n_out;
    sqe_plan *kids[2] = {left, sub};
    sqe_plan *j = sqe_plan_node_new(a, SQE_PLAN_NL_JOIN, 2, kids, n);
    for (int i = 0; i < nl; i++) {
        j->out_types[i] = left->out_types[i];
        j->out_names[i] = left->out_names[i];
    }
    if (type == SQE_JT_MARK) {
        j->out_types[nl] = sqe_type_make(SQE_T_BOOLEAN);
        j->out_names[nl] = "_mark";
    } else if (n > nl) {
        for (int i = 0; i < sub->n_out; i++) {
            j->out_types[nl + i] = sub->out_types[i];
            j->out_names[nl + i] = sub->out_names[i];
        }
    }
    j->u.join.type = type;
    return j;
}

typedef struct sq_plan {
    sqe_plan *p;
    corr_ctx cc;
    int n_visible;   /* the subquery's own columns */
    int levels;      /* bit k: its correlation or a deferred item reads level k */
    int cond_levels; /* the same for the correlation alone */
} sq_plan;

static void sq_note_levels(const sqe_expr *e, int *levels) {
    if (!e) return;
    if (e->kind == SQE_EXPR_OUTER_COL) *levels |= 1 << SQE_OUTER_LEVEL(e);
    for (int i = 0; i < e->n_args; i++) sq_note_levels(e->args[i], levels);
}

/* Plans the subquery with cx as its enclosing scope. */
static bool sq_plan_query(bind_ctx *cx, const sqe_ast_query *q, sq_plan *out, sqe_error *err) {
    planner *pl = cx->subq->pl;
    memset(out, 0, sizeof *out);
    out->cc.outer = cx;
    out->cc.n_visible = -1;
    if (q->kind == SQE_QUERY_SELECT) pl->corr = &out->cc;
    out->p = sqe_plan_query_expr(pl, q, err);
    pl->corr = NULL;
    if (!out->p) return false;
    out->n_visible = out->cc.n_visible >= 0 ? out->cc.n_visible : out->p->n_out;
    for (size_t i = 0; i < out->cc.conds.len; i++)
        sq_note_levels(out->cc.conds.items[i], &out->cond_levels);
    out->levels = out->cond_levels;
    for (int i = 0; out->cc.deferred && i < out->n_visible; i++)
        sq_note_levels(out->cc.deferred[i], &out->levels);
    return true;
}

/* Correlated conditions of a subquery into join j (over its columns). */
static void sq_add_corr(planner *pl, sqe_plan *j, const sq_plan *s, int n_left) {
    for (size_t i = 0; i < s->cc.conds.len; i++)
        sqe_plan_join_add_cond(pl, j, sq_rewrite(pl->arena, s->cc.conds.items[i], n_left));
}

static bool sq_is_count_like(const sqe_ast_expr *e) {
    if (e->kind != SQE_AST_FUNCTION || e->u.func.name.n_parts != 1) return false;
    const char *n = e->u.func.name.parts[0].name;
    return sqe_str_ieq(n, "count") || sqe_str_ieq(n, "count_if") ||
           sqe_str_ieq(n, "approx_distinct");
}

static bool sq_mentions_count(const sqe_ast_expr *e);

static bool sq_mentions_count_of(sqe_ast_expr **xs, int n) {
    for (int i = 0; i < n; i++)
        if (sq_mentions_count(xs[i])) return true;
    return false;
}

/* Does a count-like aggregate appear anywhere in e (not at its top)? */
static bool sq_mentions_count(const sqe_ast_expr *e) {
    if (!e) return false;
    switch (e->kind) {
    case SQE_AST_FUNCTION:
        return sq_is_count_like(e) || sq_mentions_count_of(e->u.func.args, e->u.func.n_args);
    case SQE_AST_UNARY:
        return sq_mentions_count(e->u.unary.arg);
    case SQE_AST_BINARY:
        return sq_mentions_count(e->u.binary.left) || sq_mentions_count(e->u.binary.right);
    case SQE_AST_CAST:
        return sq_mentions_count(e->u.cast.arg);
    case SQE_AST_CASE:
        return true; /* conservative */
    default:
        return false;
    }
}

/* ---------------------------------- aggregates over a non-equality correlation */

/* cur + row_number() OVER () as its last column: an id for each outer row. */
static sqe_plan *sq_row_ids(sqe_arena *A, sqe_plan *cur) {
    int nl = cur->n_out;
    sqe_plan *w = sqe_plan_unary_new(A, SQE_PLAN_WINDOW, cur, nl + 1);
    memcpy(w->out_types, cur->out_types, sizeof(sqe_type) * (size_t)nl);
    memcpy(w->out_names, cur->out_names, sizeof(char *) * (size_t)nl);
    w->out_types[nl] = sqe_type_make(SQE_T_BIGINT);
    w->out_names[nl] = "_rid";
    sqe_window_func *f = sqe_arena_alloc(A, sizeof *f);
    f->kind = SQE_WIN_ROW_NUMBER;
    f->type = w->out_types[nl];
    f->frame = SQE_FRAME_T_ROWS;
    f->start.kind = SQE_BOUND_UNBOUNDED_PRECEDING;
    f->end.kind = SQE_BOUND_UNBOUNDED_FOLLOWING;
    w->u.window.n_funcs = 1;
    w->u.window.funcs = f;
    return w;
}

/* in + a non-NULL INTEGER 1 as its last column (what count(*) counts). */
static sqe_plan *sq_with_marker(sqe_arena *A, sqe_plan *in) {
    int ni = in->n_out;
    sqe_plan *p = sqe_plan_unary_new(A, SQE_PLAN_PROJECT, in, ni + 1);
    p->u.project.exprs = sqe_arena_alloc(A, sizeof(sqe_expr *) * (size_t)(ni + 1));
    for (int i = 0; i < ni; i++) {
        p->u.project.exprs[i] = sqe_expr_column(A, i, in->out_types[i], in->out_names[i]);
        p->out_types[i] = in->out_types[i];
        p->out_names[i] = in->out_names[i];
    }
    sqe_value one = sqe_value_int(SQE_T_INTEGER, 1);
    p->u.project.exprs[ni] = sqe_expr_const(A, &one);
    p->out_types[ni] = one.type;
    p->out_names[ni] = "_m";
    return p;
}

/* A correlated condition over (outer ++ rid ++ in): OUTER_COL i -> i,
 * subquery output j -> n_left + in_col[j]. false when it reads a subquery
 * output that is not an input column. */
static bool sq_rewrite_in(sqe_arena *a, const sqe_expr *e, const int *in_col, int n_out, int n_left,
                          sqe_expr **out) {
    sqe_expr *c = sqe_arena_alloc(a, sizeof *c);
    *c = *e;
    if (e->n_args) {
        c->args = sqe_arena_alloc(a, sizeof(sqe_expr *) * (size_t)e->n_args);
        for (int i = 0; i < e->n_args; i++)
            if (!sq_rewrite_in(a, e->args[i], in_col, n_out, n_left, &c->args[i])) return false;
    }
    if (e->kind == SQE_EXPR_OUTER_COL) {
        c->kind = SQE_EXPR_COLUMN;
    } else if (e->kind == SQE_EXPR_COLUMN) {
        if (e->col < 0 || e->col >= n_out || in_col[e->col] < 0) return false;
        c->col = n_left + in_col[e->col];
    }
    *out = c;
    return true;
}

/* The input column behind each subquery output: output j (a correlation
 * column) = PROJECT item j = aggregate key k = input column c. */
static int *sq_in_cols(sqe_arena *A, const sqe_plan *proj, const sqe_plan *agg) {
    int *in_col = sqe_arena_alloc(A, sizeof(int) * (size_t)proj->n_out);
    for (int j = 0; j < proj->n_out; j++) {
        const sqe_expr *x = proj->u.project.exprs[j];
        in_col[j] = -1;
        if (x->kind != SQE_EXPR_COLUMN || x->col >= agg->u.aggregate.n_groups) continue;
        const sqe_expr *g = agg->u.aggregate.groups[x->col];
        if (g->kind == SQE_EXPR_COLUMN) in_col[j] = g->col;
    }
    return in_col;
}

/* The aggregate regrouped per outer row: keys rid and the outer columns,
 * the subquery's aggregates over the joined inner columns (count(*)
 * counting the marker). Output: rid, outer columns, aggregates. */
static sqe_plan *sq_regroup(sqe_arena *A, sqe_plan *j, const sqe_plan *agg, int nl, int ni) {
    int na = agg->u.aggregate.n_aggs, shift = nl + 1;
    sqe_plan *g = sqe_plan_unary_new(A, SQE_PLAN_AGGREGATE, j, 1 + nl + na);
    g->u.aggregate.n_groups = nl + 1;
    g->u.aggregate.groups = sqe_arena_alloc(A, sizeof(sqe_expr *) * (size_t)(nl + 1));
    for (int i = 0; i <= nl; i++) {
        int c = i == 0 ? nl : i - 1; /* rid first */
        g->u.aggregate.groups[i] = sqe_expr_column(A, c, j->out_types[c], j->out_names[c]);
        g->out_types[i] = j->out_types[c];
        g->out_names[i] = j->out_names[c];
    }
    g->u.aggregate.n_aggs = na;
    g->u.aggregate.aggs = sqe_arena_alloc(A, sizeof(sqe_agg_binding) * (size_t)na);
    g->u.aggregate.agg_args = sqe_arena_alloc(A, sizeof(sqe_expr *) * (size_t)na);
    g->u.aggregate.agg_filters = sqe_arena_alloc(A, sizeof(sqe_expr *) * (size_t)na);
    for (int k = 0; k < na; k++) {
        sqe_agg_binding b = agg->u.aggregate.aggs[k];
        const sqe_expr *arg = agg->u.aggregate.agg_args[k];
        const sqe_expr *flt = agg->u.aggregate.agg_filters ? agg->u.aggregate.agg_filters[k] : NULL;
        if (arg) {
            g->u.aggregate.agg_args[k] = sqe_plan_expr_shift(A, arg, shift);
        } else { /* count(*): the marker is NULL where no inner row matched */
            b.star = false;
            g->u.aggregate.agg_args[k] =
                sqe_expr_column(A, shift + ni, j->out_types[shift + ni], "_m");
        }
        g->u.aggregate.aggs[k] = b;
        g->u.aggregate.agg_filters[k] = flt ? sqe_plan_expr_shift(A, flt, shift) : NULL;
        g->out_types[1 + nl + k] = agg->out_types[agg->u.aggregate.n_groups + k];
        g->out_names[1 + nl + k] = agg->out_names[agg->u.aggregate.n_groups + k];
    }
    return g;
}

typedef struct sq_min_col {
    int min;
} sq_min_col;

static void sq_note_min_col(int *col, void *ctx) {
    sq_min_col *m = ctx;
    if (*col < m->min) m->min = *col;
}

/* (SELECT agg(...) FROM in WHERE <correlation with a non-equality>) per
 * outer row: cur + rid LEFT JOIN in ON correlation, regrouped by rid,
 * then the subquery's item over the regrouped aggregates. Replaces *cur
 * (outer columns keep their indexes; the value is column nl). NULL with
 * NOT_SUPPORTED when the subquery is not of that shape. */
static sqe_expr *sq_scalar_regroup(bind_ctx *cx, const sqe_ast_expr *e, const sq_plan *s,
                                   sqe_error *err) {
    planner *pl = cx->subq->pl;
    sqe_arena *A = pl->arena;
    sqe_plan **cur = cx->subq->cur;
    const sqe_plan *proj = s->p;
    const sqe_plan *agg = proj->kind == SQE_PLAN_PROJECT ? proj->children[0] : NULL;
    if (!agg || agg->kind != SQE_PLAN_AGGREGATE || agg->u.aggregate.n_default_groups ||
        s->cc.deferred)
        goto unsupported;
    int nl = (*cur)->n_out, ni = agg->children[0]->n_out;
    int *in_col = sq_in_cols(A, proj, agg);
    sqe_plan *j = sq_join(A, SQE_JT_LEFT, sq_row_ids(A, *cur), sq_with_marker(A, agg->children[0]));
    for (size_t i = 0; i < s->cc.conds.len; i++) {
        sqe_expr *c;
        if (!sq_rewrite_in(A, s->cc.conds.items[i], in_col, proj->n_out, nl + 1, &c))
            goto unsupported;
        sqe_plan_join_add_cond(pl, j, c);
    }
    sqe_plan *g = sq_regroup(A, j, agg, nl, ni);
    /* the item reads aggregates only (key k < n_groups is an inner value) */
    int ng = agg->u.aggregate.n_groups;
    int *map = sqe_arena_alloc(A, sizeof(int) * (size_t)(agg->n_out + 1));
    for (int k = 0; k < agg->n_out; k++) map[k] = k < ng ? -1 : 1 + nl + (k - ng);
    sq_min_col mc = {INT32_MAX};
    sqe_expr_visit_cols(proj->u.project.exprs[0], sq_note_min_col, &mc);
    if (mc.min < ng) goto unsupported;
    sqe_expr *item = sqe_plan_expr_remap(A, proj->u.project.exprs[0], map);
    sqe_plan *top = sqe_plan_unary_new(A, SQE_PLAN_PROJECT, g, nl + 1);
    top->u.project.exprs = sqe_arena_alloc(A, sizeof(sqe_expr *) * (size_t)(nl + 1));
    for (int i = 0; i < nl; i++) {
        top->u.project.exprs[i] =
            sqe_expr_column(A, 1 + i, g->out_types[1 + i], g->out_names[1 + i]);
        top->out_types[i] = g->out_types[1 + i];
        top->out_names[i] = g->out_names[1 + i];
    }
    top->u.project.exprs[nl] = item;
    top->out_types[nl] = item->type;
    top->out_names[nl] = proj->out_names[0];
    *cur = top;
    return sqe_expr_column(A, nl, item->type, proj->out_names[0]);
unsupported:
    return sqe_bind_error(err, SQE_ERR_NOT_SUPPORTED, e->pos,
                          "this correlated aggregate subquery is not supported: correlate "
                          "through equalities, or select aggregates of the subquery only"),
           NULL;
}

/* The value of a scalar subquery whose item reads the enclosing query
 * (planner.c defers it): the item over the join's columns, NULL where
 * the LEFT join found no row (the marker column is NULL there). val
 * itself when the item was not deferred. */
static sqe_expr *sq_deferred_value(sqe_arena *A, const sq_plan *s, sqe_expr *val, int nl) {
    if (!s->cc.deferred || !s->cc.deferred[0]) return val;
    sqe_expr *x = sq_rewrite(A, s->cc.deferred[0], nl);
    if (s->cc.marker < 0) return x;
    sqe_expr **na = sqe_arena_alloc(A, sizeof(sqe_expr *));
    na[0] = sqe_expr_column(A, nl + s->cc.marker, s->p->out_types[s->cc.marker], "_match");
    sqe_expr **args = sqe_arena_alloc(A, sizeof(sqe_expr *) * 2);
    args[0] = sqe_expr_new(A, SQE_EXPR_IS_NULL, sqe_type_make(SQE_T_BOOLEAN), 1, na);
    args[0]->negated = true;
    args[1] = x;
    return sqe_expr_new(A, SQE_EXPR_CASE, x->type, 2, args);
}

/* ------------------------------------------------ two query levels */

/* Copy of e with OUTER_COLs of `from` level moved to level `from` - 1 (0
 * becomes a plain COLUMN when to_column) and, with to_outer, COLUMNs
 * shifted by delta turned into OUTER_COLs of level 0. */
static sqe_expr *sq_relevel(sqe_arena *A, const sqe_expr *e, bool to_outer, int delta) {
    sqe_expr *c = sqe_arena_alloc(A, sizeof *c);
    *c = *e;
    if (e->n_args) {
        c->args = sqe_arena_alloc(A, sizeof(sqe_expr *) * (size_t)e->n_args);
        for (int i = 0; i < e->n_args; i++) c->args[i] = sq_relevel(A, e->args[i], to_outer, delta);
    }
    if (e->kind == SQE_EXPR_OUTER_COL && SQE_OUTER_LEVEL(e) > 0) {
        SQE_OUTER_LEVEL(c) = SQE_OUTER_LEVEL(e) - 1;
    } else if (to_outer && e->kind == SQE_EXPR_COLUMN) {
        c->kind = SQE_EXPR_OUTER_COL;
        c->col += delta;
        SQE_OUTER_LEVEL(c) = 0;
    }
    return c;
}

/* A subquery of a subquery (cx is the middle query's clause) that reads
 * only the outermost query is independent of the middle query's rows: it
 * is joined to the outermost query's input instead (hcx: that query's
 * clause context, whose cur the join stacks on), its level-1 references
 * become level 0, and the middle query sees its value as an outer
 * reference (sq_relevel to_outer). false when it reads the middle query
 * too, or the outermost clause cannot take joins. */
static bool sq_hoist(bind_ctx *cx, sq_plan *s, bind_ctx *hcx) {
    const bind_ctx *o = cx->outer;
    if (s->levels != 2 || !o || !o->subq) return false;
    *hcx = *o;
    sqe_arena *A = cx->arena;
    for (size_t i = 0; i < s->cc.conds.len; i++)
        s->cc.conds.items[i] = sq_relevel(A, s->cc.conds.items[i], false, 0);
    for (int i = 0; s->cc.deferred && i < s->n_visible; i++)
        if (s->cc.deferred[i]) s->cc.deferred[i] = sq_relevel(A, s->cc.deferred[i], false, 0);
    s->levels = s->cond_levels = 1;
    return true;
}

static bool sq_two_levels_error(const sqe_ast_expr *e, sqe_error *err) {
    return sqe_bind_error(err, SQE_ERR_NOT_SUPPORTED, e->pos,
                          "a subquery that references both its enclosing query and the query "
                          "around that is only supported as an EXISTS or IN conjunct of the "
                          "enclosing query's WHERE whose correlations are equalities of a "
                          "column (not as NOT EXISTS / NOT IN, a scalar subquery, or a value)");
}

/* ------------------------------------------------ scalar subqueries */

/* The join of a planned scalar subquery onto cx's input; the value. */
static sqe_expr *sq_scalar_join(bind_ctx *cx, const sqe_ast_expr *e, const sqe_ast_query *q,
                                sq_plan *s, sqe_error *err) {
    planner *pl = cx->subq->pl;
    sqe_arena *A = pl->arena;
    sqe_plan **cur = cx->subq->cur;
    int nl = (*cur)->n_out;
    sqe_expr *val = sqe_expr_column(A, nl, s->p->out_types[0], s->p->out_names[0]);
    if (!s->cc.conds.len) {
        sqe_plan *one = sqe_plan_same_schema(A, SQE_PLAN_SINGLE_ROW, s->p);
        *cur = sq_join(A, SQE_JT_LEFT, *cur, one);
        return sq_deferred_value(A, s, val, nl);
    }
    sqe_plan *j = sq_join(A, SQE_JT_LEFT, *cur, s->p);
    j->u.join.single_match = true;
    sq_add_corr(pl, j, s, nl);
    if (s->cc.global_agg) {
        if (j->u.join.residual) return sq_scalar_regroup(cx, e, s, err);
        const sqe_ast_expr *item = q->items[0].expr;
        if (s->cc.deferred && s->cc.deferred[0]) {
            /* counts read as COALESCE(count, 0) by the deferred item */
        } else if (sq_is_count_like(item)) {
            sqe_value zero = sqe_value_int(SQE_T_BIGINT, 0);
            sqe_expr **args = sqe_arena_alloc(A, sizeof(sqe_expr *) * 2);
            args[0] = val;
            args[1] = sqe_bind_coerce(cx, sqe_expr_const(A, &zero), val->type, err);
            if (!args[1]) return NULL;
            val = sqe_expr_new(A, SQE_EXPR_COALESCE, val->type, 2, args);
        } else if (sq_mentions_count(item)) {
            return sqe_bind_error(err, SQE_ERR_NOT_SUPPORTED, e->pos,
                                  "a correlated subquery computing an expression over count() is "
                                  "not supported; select count() alone"),
                   NULL;
        }
    }
    *cur = j;
    return sq_deferred_value(A, s, val, nl);
}

static sqe_expr *sq_scalar(bind_ctx *cx, const sqe_ast_expr *e, sqe_error *err) {
    sq_plan s;
    if (!sq_plan_query(cx, e->u.subquery.query, &s, err)) return NULL;
    if (s.n_visible != 1)
        return sqe_bind_error(err, SQE_ERR_NOT_SUPPORTED, e->pos,
                              "Multiple columns returned by subquery are not yet supported. "
                              "Found %d",
                              s.n_visible),
               NULL;
    const sqe_ast_query *q = e->u.subquery.query;
    bind_ctx hcx;
    if (sq_hoist(cx, &s, &hcx)) { /* reads only the query around cx's */
        sqe_expr *v = sq_scalar_join(&hcx, e, q, &s, err);
        return v ? sq_relevel(cx->arena, v, true, 0) : NULL;
    }
    if (s.cond_levels & 2) return sq_two_levels_error(e, err), NULL;
    /* level-1 references in the item only: the value, evaluated in cx's
     * query, reads them as its own outer references (sq_rewrite) */
    return sq_scalar_join(cx, e, q, &s, err);
}

/* ------------------------------------------------ EXISTS and IN */

static bool sq_in_type_error(const sqe_ast_expr *e, const sqe_expr *x, const sqe_expr *y,
                             sqe_error *err) {
    char a[64], b[64];
    return sqe_bind_error(err, SQE_ERR_TYPE_MISMATCH, e->pos,
                          "value and result of subquery must be of the same type for IN "
                          "expression: %s vs %s",
                          sqe_type_sql_name(x->type, a, sizeof a),
                          sqe_type_sql_name(y->type, b, sizeof b));
}

/* The join of a planned EXISTS / IN subquery onto cx's input (MARK, SEMI
 * or ANTI); x: the IN value bound over that input. */
static bool sq_exists_in_join(bind_ctx *cx, const sqe_ast_expr *e, sqe_join_type type, sqe_expr *x,
                              const sq_plan *s, sqe_error *err) {
    planner *pl = cx->subq->pl;
    sqe_arena *A = pl->arena;
    sqe_plan **cur = cx->subq->cur;
    int nl = (*cur)->n_out;
    sqe_plan *j = sq_join(A, type, *cur, s->p);
    sq_add_corr(pl, j, s, nl);
    if (x) {
        sqe_expr *y = sqe_expr_column(A, 0, s->p->out_types[0], s->p->out_names[0]);
        if (!sqe_plan_join_append_key(pl, j, x, y)) return sq_in_type_error(e, x, y, err);
        j->u.join.null_aware = type != SQE_JT_SEMI;
    }
    *cur = j;
    return true;
}

/* A subquery column, or one cast between integer types (the binder's
 * coercion to a common type): one value of it fixes the column's value. */
static bool sq_is_col(const sqe_expr *e) {
    if (e->kind == SQE_EXPR_CAST && !e->try_ && sqe_type_is_integer(e->type) &&
        sqe_type_is_integer(e->args[0]->type))
        e = e->args[0];
    return e->kind == SQE_EXPR_COLUMN;
}

/* Is c `inner column = outer expression` (either order), the outer side
 * reading only OUTER_COLs of `level` (and constants)? *inner: the column. */
static bool sq_col_equality(const sqe_expr *c, int level, const sqe_expr **inner) {
    if (c->kind != SQE_EXPR_CALL || c->n_args != 2 || strcmp(c->fn.name, "=") != 0) return false;
    for (int side = 0; side < 2; side++) {
        const sqe_expr *in = c->args[side], *out = c->args[1 - side];
        int lv = 0;
        sq_note_levels(out, &lv);
        sq_min_col mc = {INT32_MAX};
        sqe_expr_visit_cols((sqe_expr *)out, sq_note_min_col, &mc);
        if (sq_is_col(in) && lv == 1 << level && mc.min == INT32_MAX) {
            *inner = in;
            return true;
        }
    }
    return false;
}

typedef struct sq_used {
    bool *used;
} sq_used;

static void sq_note_used(int *col, void *ctx) {
    ((sq_used *)ctx)->used[*col] = true;
}

/* The subquery's rows made distinct on the columns pulled-up rows are
 * joined by: the IN value (column 0) and the columns its correlation
 * reads. map: output column -> column of the result (-1: not kept). */
static sqe_plan *sq_distinct_corr(sqe_arena *A, const sq_plan *s, bool is_in, int *map) {
    const sqe_plan *p = s->p;
    sq_used u = {sqe_arena_alloc(A, (size_t)p->n_out)};
    u.used[0] = is_in;
    for (size_t i = 0; i < s->cc.conds.len; i++)
        sqe_expr_visit_cols(s->cc.conds.items[i], sq_note_used, &u);
    int n = 0;
    for (int c = 0; c < p->n_out; c++) n += u.used[c];
    sqe_plan *d = sqe_plan_unary_new(A, SQE_PLAN_AGGREGATE, s->p, n);
    d->u.aggregate.n_groups = n;
    d->u.aggregate.groups = sqe_arena_alloc(A, sizeof(sqe_expr *) * (size_t)(n ? n : 1));
    for (int k = 0, c = 0; c < p->n_out; c++) {
        map[c] = -1;
        if (!u.used[c]) continue;
        d->u.aggregate.groups[k] = sqe_expr_column(A, c, p->out_types[c], p->out_names[c]);
        d->out_types[k] = p->out_types[c];
        d->out_names[k] = p->out_names[c];
        map[c] = k++;
    }
    return d;
}

/* `[b.k IN | EXISTS] (SELECT ... FROM c WHERE c.z = b.z AND c.y = a.y)` as
 * a WHERE conjunct of the middle query B, the subquery reading both B
 * (level 0) and the outermost query A (level 1), every correlation an
 * equality of a subquery column: B's input is INNER joined with the
 * distinct (IN value, correlation columns) rows of the subquery on the
 * level-0 equalities, and the level-1 ones become B's own correlation
 * (*cond: c.y = a.y over the joined columns). For one A row each B row
 * then appears once if some subquery row matches both, else not at all:
 * the semi join's rows. */
static bool sq_pull_up(bind_ctx *cx, const sqe_ast_expr *e, sqe_expr *x, const sq_plan *s,
                       sqe_expr **cond, sqe_error *err) {
    planner *pl = cx->subq->pl;
    sqe_arena *A = pl->arena;
    sqe_plan **cur = cx->subq->cur;
    for (size_t i = 0; i < s->cc.conds.len; i++) {
        const sqe_expr *c = s->cc.conds.items[i], *in;
        if (!sq_col_equality(c, 0, &in) && !sq_col_equality(c, 1, &in))
            return sq_two_levels_error(e, err);
    }
    if (x && sq_has_outer(x)) return sq_two_levels_error(e, err);
    int nl = (*cur)->n_out;
    int *map = sqe_arena_alloc(A, sizeof(int) * (size_t)s->p->n_out);
    sqe_plan *d = sq_distinct_corr(A, s, x != NULL, map);
    sqe_plan *j = sq_join(A, SQE_JT_INNER, *cur, d);
    *cond = NULL;
    for (size_t i = 0; i < s->cc.conds.len; i++) {
        const sqe_expr *c = s->cc.conds.items[i], *in;
        sqe_expr *r = sqe_plan_expr_remap(A, c, map);
        if (sq_col_equality(c, 0, &in)) {
            sqe_plan_join_add_cond(pl, j, sq_rewrite(A, r, nl));
        } else {
            r = sq_relevel(A, sqe_plan_expr_shift(A, r, nl), false, 0);
            *cond = *cond ? sqe_bind_and(A, *cond, r) : r;
        }
    }
    sqe_expr *y = x ? sqe_expr_column(A, 0, d->out_types[0], "_in") : NULL;
    if (x && !sqe_plan_join_append_key(pl, j, x, y)) return sq_in_type_error(e, x, y, err);
    *cur = j;
    return true;
}

/* The tables of a scan in a planned subquery that is dropped (its value
 * is known without it): released now, as the final plan will not own
 * them, and taken out of pl->tables so a later failure does not free them
 * twice. */
static void sq_release_scan(sqe_plan *p, void *ctx) {
    planner *pl = ctx;
    if (p->kind != SQE_PLAN_SCAN || !p->u.scan.table) return;
    for (size_t i = 0; i < pl->tables.len; i++)
        if (pl->tables.items[i] == p->u.scan.table) {
            pl->tables.items[i] = pl->tables.items[--pl->tables.len];
            break;
        }
    sqe_hive_table_free(p->u.scan.table);
    p->u.scan.table = NULL;
}

/* EXISTS / IN over an aggregate without GROUP BY correlated to cx's
 * query: the subquery has exactly one row for every outer row (count() of
 * no rows is 0), so EXISTS is TRUE and x IN (...) is x = the value of
 * that row (the scalar subquery's join). The result goes where
 * sq_exists_in's would (*value for MARK, else *cond); neg: NOT of it.
 * With HAVING the row may be missing: not supported. */
static bool sq_exists_in_agg(bind_ctx *cx, const sqe_ast_expr *e, const sqe_ast_query *q,
                             sqe_expr *x, sq_plan *s, bool neg, sqe_expr **out, sqe_error *err) {
    if (q->kind != SQE_QUERY_SELECT || q->having)
        return sqe_bind_error(err, SQE_ERR_NOT_SUPPORTED, e->pos,
                              "EXISTS or IN over a correlated aggregate subquery with HAVING is "
                              "not supported");
    sqe_expr *r;
    if (x) {
        sqe_expr *v = sq_scalar_join(cx, e, q, s, err);
        sqe_expr **args = sqe_arena_alloc(cx->arena, sizeof(sqe_expr *) * 2);
        args[0] = x;
        args[1] = v;
        if (!v || !(r = sqe_bind_call(cx, "=", 2, args, e->pos, err))) return false;
    } else {
        sqe_plan_walk(s->p, sq_release_scan, cx->subq->pl);
        sqe_value t = sqe_value_bool(true);
        r = sqe_expr_const(cx->arena, &t);
    }
    if (neg) {
        sqe_expr **args = sqe_arena_alloc(cx->arena, sizeof(sqe_expr *));
        args[0] = r;
        r = sqe_expr_new(cx->arena, SQE_EXPR_NOT, r->type, 1, args);
    }
    *out = r;
    return true;
}

/* [NOT] EXISTS / [NOT] IN (subquery) as a join of `type` on cx's input.
 * MARK: *value is the mark (negated for NOT IN). SEMI / ANTI (a WHERE
 * conjunct, cond != NULL): *cond is NULL, or a condition the caller adds
 * to the WHERE when the subquery read two levels up (hoisted: the mark
 * of the join on the outermost query's input; pulled up: sq_pull_up). */
static bool sq_exists_in(bind_ctx *cx, const sqe_ast_expr *e, sqe_join_type type, sqe_expr **value,
                         sqe_expr **cond, sqe_error *err) {
    sqe_arena *A = cx->arena;
    bool is_in = e->kind == SQE_AST_IN_SUBQUERY;
    sqe_expr *x = NULL;
    if (is_in && !(x = sqe_bind_expr(cx, e->u.in_subquery.arg, err))) return false;
    sq_plan s;
    const sqe_ast_query *q = is_in ? e->u.in_subquery.query : e->u.subquery.query;
    if (!sq_plan_query(cx, q, &s, err)) return false;
    if (is_in && s.n_visible != 1)
        return sqe_bind_error(err, SQE_ERR_TYPE_MISMATCH, e->pos,
                              "IN subquery must return one column, got %d", s.n_visible);
    bool neg = type == SQE_JT_ANTI || (type == SQE_JT_MARK && is_in && e->u.in_subquery.negated);
    if (s.cc.global_agg && s.cc.conds.len && !(s.levels & 2))
        return sq_exists_in_agg(cx, e, q, x, &s, neg, cond ? cond : value, err);
    if (is_in && s.cc.deferred)
        return sqe_bind_error(err, SQE_ERR_NOT_SUPPORTED, e->pos,
                              "an IN subquery whose select list references the enclosing query "
                              "is not supported");
    bind_ctx hcx, *jcx = cx;
    s.levels = s.cond_levels; /* EXISTS ignores its items; IN's is not deferred */
    if (s.levels & 2) {
        sq_min_col mc = {INT32_MAX};
        if (x) sqe_expr_visit_cols(x, sq_note_min_col, &mc);
        if (mc.min != INT32_MAX || !sq_hoist(cx, &s, &hcx)) { /* reads the middle query */
            if (type == SQE_JT_SEMI && cond) return sq_pull_up(cx, e, x, &s, cond, err);
            return sq_two_levels_error(e, err);
        }
        jcx = &hcx;
        if (x) x = sq_rewrite(A, x, 0);
        type = SQE_JT_MARK;
    }
    if (!sq_exists_in_join(jcx, e, type, x, &s, err)) return false;
    if (type != SQE_JT_MARK) return true;
    sqe_plan *j = *jcx->subq->cur;
    sqe_expr *mark = sqe_expr_column(A, j->n_out - 1, sqe_type_make(SQE_T_BOOLEAN), "_mark");
    if (jcx != cx) mark = sq_relevel(A, mark, true, 0);
    if (neg) {
        sqe_expr **args = sqe_arena_alloc(A, sizeof(sqe_expr *));
        args[0] = mark;
        mark = sqe_expr_new(A, SQE_EXPR_NOT, mark->type, 1, args);
    }
    if (cond)
        *cond = mark;
    else
        *value = mark;
    return true;
}

sqe_expr *sqe_plan_subquery(bind_ctx *cx, const sqe_ast_expr *e, sqe_error *err) {
    if (e->kind == SQE_AST_SUBQUERY) return sq_scalar(cx, e, err);
    sqe_expr *v = NULL;
    return sq_exists_in(cx, e, SQE_JT_MARK, &v, NULL, err) ? v : NULL;
}

bool sqe_plan_subquery_filter(bind_ctx *cx, const sqe_ast_expr *e, bool *handled, sqe_expr **cond,
                              sqe_error *err) {
    *handled = false;
    *cond = NULL;
    if (!cx->subq) return true;
    bool neg = false;
    while (e->kind == SQE_AST_UNARY && e->u.unary.op == SQE_OP_NOT) {
        neg = !neg;
        e = e->u.unary.arg;
    }
    if (e->kind != SQE_AST_EXISTS && e->kind != SQE_AST_IN_SUBQUERY) return true;
    if (e->kind == SQE_AST_IN_SUBQUERY && e->u.in_subquery.negated) neg = !neg;
    *handled = true;
    return sq_exists_in(cx, e, neg ? SQE_JT_ANTI : SQE_JT_SEMI, NULL, cond, err);
}
