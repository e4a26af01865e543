/*
 * relation.c - query expressions and FROM items: everything that produces
 * a relation other than a SELECT body's own clauses (planner.c).
 *
 *   sqe_plan_query_expr   WITH entries become visible, then by kind:
 *     SELECT              sqe_plan_select (planner.c)
 *     SET                 both sides, column counts and types unified, then
 *                         UNION ALL -> UNION_ALL (nested ones flattened),
 *                         UNION -> AGGREGATE(all columns) over UNION_ALL,
 *                         INTERSECT / EXCEPT [ALL] -> SET_OP
 *     VALUES              constant rows, each column coerced to one type
 *     ORDER BY / LIMIT    over the output columns (SET and VALUES; a SELECT
 *                         plans its own, with its select-list rules)
 *   sqe_plan_from
 *     table               a WITH entry (re-planned per reference: CTEs are
 *                         inlined, as Trino does) or a catalog table
 *     subquery            sqe_plan_query_expr
 *     join                both sides; ON bound over the concatenated scopes;
 *                         USING adds a projection with the merged columns
 *   sqe_plan_add_filter   conjuncts pushed down: into scans (partition
 *                         pruning), to the side of an inner join they read,
 *                         or made join keys when they compare the two sides
 *
 * Joins. A join node outputs its left input's columns, then its right
 * input's, so a predicate over the left side keeps its column indexes and
 * one over the right side is shifted by the left side's width. An inner or
 * cross join starts as a nested loop with no keys; every equality between
 * an expression of the left side and one of the right side that reaches it
 * (from ON or from WHERE) becomes a hash key, and the node becomes a hash
 * join. The right input is the build side (Trino's default without
 * statistics: the query's written order).
 *
 * Names (Trino): a set operation takes its column names from its left
 * side; VALUES columns are _col0, _col1, ...; an alias list renames.
 */
#include "plan_int.h"

#include <string.h>

#define SQE_PLAN_MAX_QUERY_DEPTH 200

static char *rel_lower(sqe_arena *a, const char *s) {
    return sqe_str_lower(sqe_arena_strdup(a, s));
}

/* ---------------------------------------------------------- projection */

/* A PROJECT over p whose column i is exprs[i] named names[i]. */
static sqe_plan *rel_project(sqe_arena *a, sqe_plan *p, int n, sqe_expr **exprs,
                             const char **names) {
    sqe_plan *pr = sqe_plan_unary_new(a, SQE_PLAN_PROJECT, p, n);
    pr->u.project.exprs = sqe_arena_alloc(a, sizeof(sqe_expr *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        pr->u.project.exprs[i] = exprs[i];
        pr->out_types[i] = exprs[i]->type;
        pr->out_names[i] = names[i];
    }
    return pr;
}

/* p with its columns cast to types[] (p itself when nothing changes). */
static sqe_plan *rel_cast_columns(bind_ctx *cx, sqe_plan *p, const sqe_type *types,
                                  sqe_error *err) {
    bool same = true;
    for (int i = 0; i < p->n_out; i++) same &= sqe_type_equal(p->out_types[i], types[i]);
    if (same) return p;
    sqe_expr **ex = sqe_arena_alloc(cx->arena, sizeof(sqe_expr *) * (size_t)p->n_out);
    for (int i = 0; i < p->n_out; i++) {
        ex[i] = sqe_expr_column(cx->arena, i, p->out_types[i], p->out_names[i]);
        if (!(ex[i] = sqe_bind_coerce(cx, ex[i], types[i], err))) return NULL;
    }
    return rel_project(cx->arena, p, p->n_out, ex, p->out_names);
}

/* ------------------------------------------------------ set operations */

static const char *rel_set_name(const sqe_ast_query *q) {
    switch (q->set_op) {
    case SQE_SET_UNION:
        return "UNION";
    case SQE_SET_INTERSECT:
        return "INTERSECT";
    case SQE_SET_EXCEPT:
        return "EXCEPT";
    default:
        return "?";
    }
}

/* Unifies the column types of l and r (casting either side). */
static bool rel_unify_sides(planner *pl, const sqe_ast_query *q, sqe_plan **l, sqe_plan **r,
                            sqe_error *err) {
    sqe_arena *A = pl->arena;
    if ((*l)->n_out != (*r)->n_out)
        return sqe_bind_error(err, SQE_ERR_TYPE_MISMATCH, q->pos,
                              "%s query has different number of fields: %d, %d", rel_set_name(q),
                              (*l)->n_out, (*r)->n_out);
    int n = (*l)->n_out;
    sqe_type *types = sqe_arena_alloc(A, sizeof(sqe_type) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        if (!sqe_type_common((*l)->out_types[i], (*r)->out_types[i], &types[i])) {
            char a[64], b[64];
            return sqe_bind_error(err, SQE_ERR_TYPE_MISMATCH, q->pos,
                                  "column %d in %s query has incompatible types: %s, %s", i + 1,
                                  rel_set_name(q),
                                  sqe_type_sql_name((*l)->out_types[i], a, sizeof a),
                                  sqe_type_sql_name((*r)->out_types[i], b, sizeof b));
        }
        if (types[i].id == SQE_T_NULL) types[i] = sqe_type_make(SQE_T_BOOLEAN); /* Trino: unknown */
    }
    bind_ctx cx = {.arena = A, .cat = pl->cat, .stmt = &pl->stmt, .clause = rel_set_name(q)};
    if (!(*l = rel_cast_columns(&cx, *l, types, err))) return false;
    if (!(*r = rel_cast_columns(&cx, *r, types, err))) return false;
    return true;
}

/* DISTINCT over all columns of p. */
static sqe_plan *rel_distinct(sqe_arena *a, sqe_plan *p) {
    sqe_plan *d = sqe_plan_same_schema(a, SQE_PLAN_AGGREGATE, p);
    d->u.aggregate.n_groups = p->n_out;
    d->u.aggregate.groups =
        sqe_arena_alloc(a, sizeof(sqe_expr *) * (size_t)(p->n_out ? p->n_out : 1));
    for (int i = 0; i < p->n_out; i++)
        d->u.aggregate.groups[i] = sqe_expr_column(a, i, p->out_types[i], p->out_names[i]);
    return d;
}

static sqe_plan *rel_plan_set(planner *pl, const sqe_ast_query *q, sqe_error *err) {
    sqe_arena *A = pl->arena;
    sqe_plan *l = sqe_plan_query_expr(pl, q->set_left, err);
    if (!l) return NULL;
    sqe_plan *r = sqe_plan_query_expr(pl, q->set_right, err);
    if (!r || !rel_unify_sides(pl, q, &l, &r, err)) return NULL;
    if (q->set_op == SQE_SET_UNION) {
        /* Flatten UNION ALL chains into one node. */
        SQE_ARRAY(sqe_plan *) kids = {0};
        sqe_plan *sides[2] = {l, r};
        for (int s = 0; s < 2; s++) {
            sqe_plan *x = sides[s];
            if (x->kind == SQE_PLAN_UNION_ALL)
                for (int i = 0; i < x->n_children; i++) SQE_ARRAY_PUSH(A, kids, x->children[i]);
            else
                SQE_ARRAY_PUSH(A, kids, x);
        }
        sqe_plan *u = sqe_plan_node_new(A, SQE_PLAN_UNION_ALL, (int)kids.len, kids.items, l->n_out);
        memcpy(u->out_types, l->out_types, sizeof(sqe_type) * (size_t)l->n_out);
        memcpy(u->out_names, l->out_names, sizeof(char *) * (size_t)l->n_out);
        return q->set_all ? u : rel_distinct(A, u);
    }
    sqe_plan *kids[2] = {l, r};
    sqe_plan *s = sqe_plan_node_new(A, SQE_PLAN_SET_OP, 2, kids, l->n_out);
    memcpy(s->out_types, l->out_types, sizeof(sqe_type) * (size_t)l->n_out);
    memcpy(s->out_names, l->out_names, sizeof(char *) * (size_t)l->n_out);
    s->u.set_op.op = q->set_op;
    s->u.set_op.all = q->set_all;
    return s;
}

/* --------------------------------------------------------------- VALUES */

static sqe_plan *rel_plan_values(planner *pl, const sqe_ast_query *q, sqe_error *err) {
    sqe_arena *A = pl->arena;
    int nr = q->n_values_rows, nc = q->n_values_cols;
    bind_ctx cx = {.arena = A, .cat = pl->cat, .stmt = &pl->stmt, .clause = "VALUES"};
    sqe_expr ***rows = sqe_arena_alloc(A, sizeof(sqe_expr **) * (size_t)(nr ? nr : 1));
    sqe_type *types = sqe_arena_alloc(A, sizeof(sqe_type) * (size_t)(nc ? nc : 1));
    for (int c = 0; c < nc; c++) types[c] = sqe_type_make(SQE_T_NULL);
    for (int r = 0; r < nr; r++) {
        rows[r] = sqe_arena_alloc(A, sizeof(sqe_expr *) * (size_t)(nc ? nc : 1));
        for (int c = 0; c < nc; c++) {
            const sqe_ast_expr *e = q->values_rows[r][c];
            if (sqe_bind_contains_aggregate(e))
                return sqe_bind_error(err, SQE_ERR_USAGE, e->pos,
                                      "aggregate functions are not allowed in VALUES"),
                       NULL;
            if (!(rows[r][c] = sqe_bind_expr(&cx, e, err))) return NULL;
            sqe_type t;
            if (!sqe_type_common(types[c], rows[r][c]->type, &t)) {
                char a[64], b[64];
                sqe_bind_error(err, SQE_ERR_TYPE_MISMATCH, e->pos,
                               "VALUES column %d mixes types %s and %s", c + 1,
                               sqe_type_sql_name(types[c], a, sizeof a),
                               sqe_type_sql_name(rows[r][c]->type, b, sizeof b));
                return NULL;
            }
            types[c] = t;
        }
    }
    sqe_plan *p = sqe_plan_unary_new(A, SQE_PLAN_VALUES, NULL, nc);
    p->u.values.n_rows = nr;
    p->u.values.rows = sqe_arena_alloc(A, sizeof(sqe_value *) * (size_t)(nr ? nr : 1));
    for (int c = 0; c < nc; c++) {
        if (types[c].id == SQE_T_NULL) types[c] = sqe_type_make(SQE_T_BOOLEAN);
        p->out_types[c] = types[c];
        p->out_names[c] = sqe_arena_sprintf(A, "_col%d", c);
    }
    for (int r = 0; r < nr; r++) {
        p->u.values.rows[r] = sqe_arena_alloc(A, sizeof(sqe_value) * (size_t)(nc ? nc : 1));
        for (int c = 0; c < nc; c++) {
            sqe_expr *e = sqe_bind_coerce(&cx, rows[r][c], types[c], err);
            if (!e) return NULL;
            sqe_value *v = &p->u.values.rows[r][c];
            if (!sqe_expr_eval_const(e, A, v, err)) return NULL;
            v->type = types[c];
        }
    }
    return p;
}

/* ------------------------------------------- ORDER BY / LIMIT of a query */

/* ORDER BY (ordinals or expressions over the output columns), then
 * LIMIT/OFFSET, over the output of a set operation or VALUES. Keys that
 * are not output columns are computed by a projection and dropped after. */
static sqe_plan *rel_order_limit(planner *pl, const sqe_ast_query *q, sqe_plan *p, sqe_error *err) {
    sqe_arena *A = pl->arena;
    int n_vis = p->n_out;
    uint64_t limit = 0, offset = 0;
    bool has_limit = false;
    if (q->limit) {
        if (!sqe_plan_const_count(pl, q->limit, "LIMIT", &limit, err)) return NULL;
        has_limit = true;
    }
    if (q->offset && !sqe_plan_const_count(pl, q->offset, "OFFSET", &offset, err)) return NULL;
    if (q->n_order_by) {
        scope sc = sqe_plan_scope_of(A, p, NULL, NULL, NULL);
        bind_ctx cx = {
            .arena = A, .cat = pl->cat, .stmt = &pl->stmt, .scope = &sc, .clause = "ORDER BY"};
        SQE_ARRAY(sqe_expr *) extra = {0};
        sqe_sort_key *keys = sqe_arena_alloc(A, sizeof(sqe_sort_key) * (size_t)q->n_order_by);
        for (int k = 0; k < q->n_order_by; k++) {
            const sqe_ast_order_item *oi = &q->order_by[k];
            const sqe_ast_expr *e = oi->expr;
            int col = -1;
            if (e->kind == SQE_AST_LITERAL && e->u.lit.kind == SQE_LIT_INTEGER) {
                int64_t v;
                if (!sqe_parse_int64(e->u.lit.text, strlen(e->u.lit.text), &v) || v < 1 ||
                    v > n_vis)
                    return sqe_bind_error(err, SQE_ERR_INVALID_ARGUMENT, e->pos,
                                          "ORDER BY position %s is not in the select list (1..%d)",
                                          e->u.lit.text, n_vis),
                           NULL;
                col = (int)v - 1;
            } else {
                sqe_expr *b = sqe_bind_expr(&cx, e, err);
                if (!b) return NULL;
                if (b->kind == SQE_EXPR_COLUMN) {
                    col = b->col;
                } else {
                    col = n_vis + (int)extra.len;
                    SQE_ARRAY_PUSH(A, extra, b);
                }
            }
            keys[k] = (sqe_sort_key){col, oi->desc, oi->nulls == 1};
        }
        if (extra.len) {
            int n = n_vis + (int)extra.len;
            sqe_expr **ex = sqe_arena_alloc(A, sizeof(sqe_expr *) * (size_t)n);
            const char **names = sqe_arena_alloc(A, sizeof(char *) * (size_t)n);
            for (int i = 0; i < n_vis; i++) {
                ex[i] = sqe_expr_column(A, i, p->out_types[i], p->out_names[i]);
                names[i] = p->out_names[i];
            }
            for (size_t i = 0; i < extra.len; i++) {
                ex[n_vis + i] = extra.items[i];
                names[n_vis + i] = sqe_arena_sprintf(A, "_order%zu", i);
            }
            p = rel_project(A, p, n, ex, names);
        }
        sqe_plan *s = sqe_plan_same_schema(A, has_limit ? SQE_PLAN_TOPN : SQE_PLAN_SORT, p);
        s->u.sort.n_keys = q->n_order_by;
        s->u.sort.keys = keys;
        s->u.sort.limit = limit;
        s->u.sort.offset = offset;
        p = s;
        if (!has_limit && offset) {
            sqe_plan *l = sqe_plan_same_schema(A, SQE_PLAN_LIMIT, p);
            l->u.limit.offset = offset;
            p = l;
        }
        if (p->n_out > n_vis) {
            sqe_expr **ex = sqe_arena_alloc(A, sizeof(sqe_expr *) * (size_t)n_vis);
            for (int i = 0; i < n_vis; i++)
                ex[i] = sqe_expr_column(A, i, p->out_types[i], p->out_names[i]);
            p = rel_project(A, p, n_vis, ex, p->out_names);
        }
        return p;
    }
    if (has_limit || offset) {
        sqe_plan *l = sqe_plan_same_schema(A, SQE_PLAN_LIMIT, p);
        l->u.limit.has_limit = has_limit;
        l->u.limit.limit = limit;
        l->u.limit.offset = offset;
        p = l;
    }
    return p;
}

/* ---------------------------------------------------- query expressions */

sqe_plan *sqe_plan_query_expr(planner *pl, const sqe_ast_query *q, sqe_error *err) {
    if (pl->depth >= SQE_PLAN_MAX_QUERY_DEPTH)
        return sqe_bind_error(err, SQE_ERR_RESOURCE_EXHAUSTED, q->pos,
                              "queries are nested too deeply (more than %d levels)",
                              SQE_PLAN_MAX_QUERY_DEPTH),
               NULL;
    pl->depth++;
    cte_def *saved = pl->ctes;
    for (int i = 0; i < q->n_ctes; i++) {
        cte_def *d = sqe_arena_alloc(pl->arena, sizeof *d);
        d->cte = &q->ctes[i];
        d->prev = pl->ctes;
        pl->ctes = d;
    }
    sqe_plan *p = NULL;
    switch (q->kind) {
    case SQE_QUERY_SELECT:
        p = sqe_plan_select(pl, q, err);
        break;
    case SQE_QUERY_SET:
        p = rel_plan_set(pl, q, err);
        break;
    case SQE_QUERY_VALUES:
        p = rel_plan_values(pl, q, err);
        break;
    }
    if (p && q->kind != SQE_QUERY_SELECT) p = rel_order_limit(pl, q, p, err);
    pl->ctes = saved;
    pl->depth--;
    return p;
}

/* ----------------------------------------------------------- FROM items */

/* Renames the scope's columns after an alias list AS t(a, b, ...). */
static bool rel_alias_columns(sqe_arena *a, const sqe_ast_from *f, scope *sc, sqe_error *err) {
    if (!f->n_alias_cols) return true;
    if (f->n_alias_cols != sc->n)
        return sqe_bind_error(err, SQE_ERR_USAGE, f->pos,
                              "column alias list has %d entries but '%s' has %d columns available",
                              f->n_alias_cols, f->alias ? f->alias->name : "?", sc->n);
    for (int i = 0; i < sc->n; i++) sc->cols[i].name = rel_lower(a, f->alias_cols[i].name);
    return true;
}

static const sqe_ast_cte *rel_find_cte(planner *pl, const sqe_ast_from *f, cte_def **def) {
    if (f->u.table.n_parts != 1) return NULL;
    const char *name = f->u.table.parts[0].name;
    for (cte_def *d = pl->ctes; d; d = d->prev)
        if (sqe_str_ieq(d->cte->name.name, name)) {
            *def = d;
            return d->cte;
        }
    return NULL;
}

static sqe_plan *rel_plan_cte(planner *pl, const sqe_ast_from *f, cte_def *def, scope *out,
                              sqe_error *err) {
    const sqe_ast_cte *cte = def->cte;
    cte_def *saved = pl->ctes;
    pl->ctes = def->prev; /* the entries visible where it was defined */
    sqe_plan *p = sqe_plan_query_expr(pl, cte->query, err);
    pl->ctes = saved;
    if (!p) return NULL;
    const char *qual = rel_lower(pl->arena, f->alias ? f->alias->name : cte->name.name);
    *out = sqe_plan_scope_of(pl->arena, p, qual, NULL, NULL);
    if (cte->n_cols) {
        if (cte->n_cols != p->n_out)
            return sqe_bind_error(err, SQE_ERR_USAGE, cte->name.pos,
                                  "WITH query '%s' has %d column names but %d columns",
                                  cte->name.name, cte->n_cols, p->n_out),
                   NULL;
        for (int i = 0; i < p->n_out; i++)
            out->cols[i].name = rel_lower(pl->arena, cte->cols[i].name);
    }
    return p;
}

static sqe_plan *rel_plan_join(planner *pl, const sqe_ast_from *f, scope *out, sqe_error *err);
static sqe_plan *rel_add_on(planner *pl, sqe_plan *j, sqe_expr *cond, sqe_error *err);

sqe_plan *sqe_plan_from(planner *pl, const sqe_ast_from *f, scope *out_scope, sqe_error *err) {
    sqe_plan *p = NULL;
    switch (f->kind) {
    case SQE_FROM_TABLE: {
        cte_def *def = NULL;
        if (rel_find_cte(pl, f, &def))
            p = rel_plan_cte(pl, f, def, out_scope, err);
        else
            p = sqe_plan_table(pl, f, out_scope, err);
        break;
    }
    case SQE_FROM_SUBQUERY:
        p = sqe_plan_query_expr(pl, f->u.subquery, err);
        if (p)
            *out_scope = sqe_plan_scope_of(
                pl->arena, p, f->alias ? rel_lower(pl->arena, f->alias->name) : NULL, NULL, NULL);
        break;
    case SQE_FROM_JOIN:
        p = rel_plan_join(pl, f, out_scope, err);
        break;
    case SQE_FROM_FUNCTION:
        p = sqe_plan_table_function(pl, f, out_scope, err);
        break;
    }
    if (p && !rel_alias_columns(pl->arena, f, out_scope, err)) return NULL;
    return p;
}

/* ---------------------------------------------------------------- joins */

static sqe_join_type rel_join_type(sqe_join_kind k) {
    switch (k) {
    case SQE_JOIN_LEFT:
        return SQE_JT_LEFT;
    case SQE_JOIN_RIGHT:
        return SQE_JT_RIGHT;
    case SQE_JOIN_FULL:
        return SQE_JT_FULL;
    default:
        return SQE_JT_INNER;
    }
}

static sqe_plan *rel_join_node(sqe_arena *a, sqe_join_type type, sqe_plan *l, sqe_plan *r) {
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
    j->u.join.type = type;
    return j;
}

static scope rel_concat_scopes(sqe_arena *a, const scope *l, const scope *r, int l_width) {
    scope s = {l->n + r->n, sqe_arena_alloc(a, sizeof(scope_col) * (size_t)(l->n + r->n + 1))};
    for (int i = 0; i < l->n; i++) s.cols[i] = l->cols[i];
    for (int i = 0; i < r->n; i++) {
        s.cols[l->n + i] = r->cols[i];
        s.cols[l->n + i].index += l_width;
    }
    return s;
}

/* The unique scope column named `name` reachable without a qualifier. */
static const scope_col *rel_using_col(const scope *sc, const char *name, const sqe_ident *id,
                                      const char *side, sqe_error *err) {
    const scope_col *hit = NULL;
    for (int i = 0; i < sc->n; i++) {
        if (sc->cols[i].qualified_only || strcmp(sc->cols[i].name, name) != 0) continue;
        if (hit) {
            sqe_bind_error(err, SQE_ERR_USAGE, id->pos,
                           "column '%s' in USING is ambiguous on the %s side", id->name, side);
            return NULL;
        }
        hit = &sc->cols[i];
    }
    if (!hit)
        sqe_bind_error(err, SQE_ERR_NOT_FOUND, id->pos,
                       "column '%s' in USING cannot be resolved on the %s side", id->name, side);
    return hit;
}

/* JOIN ... USING (c, ...): equality conditions, then a projection whose
 * first columns are the merged USING columns (COALESCE for FULL, the right
 * side's for RIGHT), followed by every column of both sides, which stay
 * reachable through their qualifiers. */
static sqe_plan *rel_join_using(planner *pl, const sqe_ast_from *f, sqe_plan *j, const scope *ls,
                                const scope *rs, scope *out, sqe_error *err) {
    sqe_arena *A = pl->arena;
    int nu = f->u.join.n_using, nl = j->children[0]->n_out, nw = j->n_out;
    bind_ctx cx = {.arena = A, .cat = pl->cat, .stmt = &pl->stmt, .clause = "USING"};
    sqe_expr **merged = sqe_arena_alloc(A, sizeof(sqe_expr *) * (size_t)nu);
    const char **mnames = sqe_arena_alloc(A, sizeof(char *) * (size_t)nu);
    sqe_expr *cond = NULL;
    for (int u = 0; u < nu; u++) {
        const sqe_ident *id = &f->u.join.using_cols[u];
        const char *name = rel_lower(A, id->name);
        const scope_col *lc = rel_using_col(ls, name, id, "left", err);
        const scope_col *rc = lc ? rel_using_col(rs, name, id, "right", err) : NULL;
        if (!rc) return NULL;
        sqe_expr *le = sqe_expr_column(A, lc->index, lc->type, name);
        sqe_expr *re = sqe_expr_column(A, nl + rc->index, rc->type, name);
        sqe_type t;
        if (!sqe_type_compare_common(le->type, re->type, &t)) {
            char a[64], b[64];
            return sqe_bind_error(err, SQE_ERR_TYPE_MISMATCH, id->pos,
                                  "USING column '%s' has types %s and %s that cannot be compared",
                                  id->name, sqe_type_sql_name(le->type, a, sizeof a),
                                  sqe_type_sql_name(re->type, b, sizeof b)),
                   NULL;
        }
        if (!(le = sqe_bind_coerce(&cx, le, t, err)) || !(re = sqe_bind_coerce(&cx, re, t, err)))
            return NULL;
        sqe_expr **args = sqe_arena_alloc(A, sizeof(sqe_expr *) * 2);
        args[0] = le;
        args[1] = re;
        sqe_expr *eq = sqe_bind_call(&cx, "=", 2, args, id->pos, err);
        if (!eq) return NULL;
        cond = sqe_bind_and(A, cond, eq);
        if (j->u.join.type == SQE_JT_FULL) {
            sqe_expr **cargs = sqe_arena_alloc(A, sizeof(sqe_expr *) * 2);
            cargs[0] = le;
            cargs[1] = re;
            merged[u] = sqe_expr_new(A, SQE_EXPR_COALESCE, t, 2, cargs);
        } else {
            merged[u] = j->u.join.type == SQE_JT_RIGHT ? re : le;
        }
        mnames[u] = name;
    }
    sqe_plan *jj = rel_add_on(pl, j, cond, err);
    if (!jj) return NULL;
    int n = nu + nw;
    sqe_expr **ex = sqe_arena_alloc(A, sizeof(sqe_expr *) * (size_t)n);
    const char **names = sqe_arena_alloc(A, sizeof(char *) * (size_t)n);
    for (int u = 0; u < nu; u++) {
        ex[u] = merged[u];
        names[u] = mnames[u];
    }
    for (int i = 0; i < nw; i++) {
        ex[nu + i] = sqe_expr_column(A, i, jj->out_types[i], jj->out_names[i]);
        names[nu + i] = jj->out_names[i];
    }
    sqe_plan *p = rel_project(A, jj, n, ex, names);
    scope both = rel_concat_scopes(A, ls, rs, nl);
    out->n = n;
    out->cols = sqe_arena_alloc(A, sizeof(scope_col) * (size_t)n);
    for (int u = 0; u < nu; u++)
        out->cols[u] = (scope_col){.name = mnames[u], .type = merged[u]->type, .index = u};
    for (int i = 0; i < both.n; i++) {
        scope_col c = both.cols[i];
        c.index += nu;
        for (int u = 0; u < nu; u++) c.qualified_only |= strcmp(c.name, mnames[u]) == 0;
        out->cols[nu + i] = c;
    }
    return p;
}

static sqe_plan *rel_plan_join(planner *pl, const sqe_ast_from *f, scope *out, sqe_error *err) {
    sqe_arena *A = pl->arena;
    scope ls = {0, NULL}, rs = {0, NULL};
    sqe_plan *l = sqe_plan_from(pl, f->u.join.left, &ls, err);
    if (!l) return NULL;
    sqe_plan *r = sqe_plan_from(pl, f->u.join.right, &rs, err);
    if (!r) return NULL;
    sqe_plan *j = rel_join_node(A, rel_join_type(f->u.join.kind), l, r);
    if (f->u.join.n_using) return rel_join_using(pl, f, j, &ls, &rs, out, err);
    *out = rel_concat_scopes(A, &ls, &rs, l->n_out);
    if (!f->u.join.on) return j;
    const sqe_ast_expr *on = f->u.join.on;
    const sqe_ast_expr *agg = sqe_bind_first_aggregate(on);
    if (agg)
        return sqe_bind_error(err, SQE_ERR_USAGE, agg->pos,
                              "aggregate functions are not allowed in JOIN ... ON"),
               NULL;
    bind_ctx cx = {
        .arena = A, .cat = pl->cat, .stmt = &pl->stmt, .scope = out, .clause = "JOIN ... ON"};
    sqe_expr *c = sqe_bind_expr(&cx, on, err);
    if (!c) return NULL;
    if (c->type.id == SQE_T_NULL) c = sqe_bind_coerce(&cx, c, sqe_type_make(SQE_T_BOOLEAN), err);
    if (c->type.id != SQE_T_BOOLEAN) {
        char tb[64];
        return sqe_bind_error(err, SQE_ERR_TYPE_MISMATCH, on->pos,
                              "JOIN ON condition must be boolean, got %s",
                              sqe_type_sql_name(c->type, tb, sizeof tb)),
               NULL;
    }
    return rel_add_on(pl, j, c, err);
}

/* ---------------------------------------------------- filter placement */

typedef struct rel_refs {
    int split; /* columns < split are "left" */
    bool left, right;
} rel_refs;

static void rel_note_ref(int *col, void *ctx) {
    rel_refs *r = ctx;
    if (*col < r->split)
        r->left = true;
    else
        r->right = true;
}

static rel_refs rel_refs_of(sqe_expr *e, int split) {
    rel_refs r = {split, false, false};
    sqe_expr_visit_cols(e, rel_note_ref, &r);
    return r;
}

bool sqe_plan_join_append_key(planner *pl, sqe_plan *j, sqe_expr *le, sqe_expr *re) {
    sqe_type t;
    if (!sqe_type_compare_common(le->type, re->type, &t)) return false;
    bind_ctx cx = {.arena = pl->arena, .cat = pl->cat, .stmt = &pl->stmt};
    if (!(le = sqe_bind_coerce(&cx, le, t, NULL)) || !(re = sqe_bind_coerce(&cx, re, t, NULL)))
        return false;
    if (t.id == SQE_T_VARCHAR && t.str_kind == SQE_STRKIND_CHAR) {
        /* CHAR keys match ignoring trailing spaces (values keep their bytes) */
        sqe_expr **la = sqe_arena_alloc(pl->arena, sizeof(sqe_expr *));
        sqe_expr **ra = sqe_arena_alloc(pl->arena, sizeof(sqe_expr *));
        la[0] = le;
        ra[0] = re;
        sqe_pos pos = {0, 0};
        if (!(le = sqe_bind_call(&cx, "rtrim", 1, la, pos, NULL)) ||
            !(re = sqe_bind_call(&cx, "rtrim", 1, ra, pos, NULL)))
            return false;
    }
    int n = j->u.join.n_keys;
    sqe_expr **lk = sqe_arena_alloc(pl->arena, sizeof(sqe_expr *) * (size_t)(n + 1));
    sqe_expr **rk = sqe_arena_alloc(pl->arena, sizeof(sqe_expr *) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        lk[i] = j->u.join.left_keys[i];
        rk[i] = j->u.join.right_keys[i];
    }
    lk[n] = le;
    rk[n] = re;
    j->u.join.left_keys = lk;
    j->u.join.right_keys = rk;
    j->u.join.n_keys = n + 1;
    j->kind = SQE_PLAN_HASH_JOIN;
    return true;
}

/* l = r with l over the left side and r over the right (either order):
 * adds a hash key to join j. */
static bool rel_try_key(planner *pl, sqe_plan *j, sqe_expr *c) {
    if (c->kind != SQE_EXPR_CALL || c->n_args != 2 || strcmp(c->fn.name, "=") != 0) return false;
    int nl = j->children[0]->n_out;
    rel_refs a = rel_refs_of(c->args[0], nl), b = rel_refs_of(c->args[1], nl);
    sqe_expr *le, *re;
    if (a.left && !a.right && b.right && !b.left) {
        le = c->args[0];
        re = c->args[1];
    } else if (b.left && !b.right && a.right && !a.left) {
        le = c->args[1];
        re = c->args[0];
    } else {
        return false;
    }
    return sqe_plan_join_append_key(pl, j, le, sqe_plan_expr_shift(pl->arena, re, -nl));
}

static sqe_plan *rel_filter_above(sqe_arena *a, sqe_plan *p, sqe_expr *c) {
    if (p->kind == SQE_PLAN_FILTER) {
        p->u.filter.pred = sqe_bind_and(a, p->u.filter.pred, c);
        return p;
    }
    sqe_plan *f = sqe_plan_same_schema(a, SQE_PLAN_FILTER, p);
    f->u.filter.pred = c;
    return f;
}

static sqe_plan *rel_place(planner *pl, sqe_plan *p, sqe_expr *c, sqe_error *err);

/* A conjunct reaching a join: to one side, a key, the residual, or above. */
bool sqe_plan_join_add_cond(planner *pl, sqe_plan *j, sqe_expr *c) {
    if (rel_try_key(pl, j, c)) return true;
    j->u.join.residual = sqe_bind_and(pl->arena, j->u.join.residual, c);
    return false;
}

static sqe_plan *rel_place_join(planner *pl, sqe_plan *j, sqe_expr *c, sqe_error *err) {
    sqe_join_type t = j->u.join.type;
    int nl = j->children[0]->n_out;
    rel_refs r = rel_refs_of(c, nl);
    bool inner = t == SQE_JT_INNER;
    bool left_kept = t == SQE_JT_INNER || t == SQE_JT_LEFT || t == SQE_JT_SEMI ||
                     t == SQE_JT_ANTI || t == SQE_JT_MARK;
    if (r.left && !r.right && left_kept) {
        if (!(j->children[0] = rel_place(pl, j->children[0], c, err))) return NULL;
        return j;
    }
    if (r.right && !r.left && (inner || t == SQE_JT_RIGHT)) {
        sqe_expr *rc = sqe_plan_expr_shift(pl->arena, c, -nl);
        if (!(j->children[1] = rel_place(pl, j->children[1], rc, err))) return NULL;
        return j;
    }
    if (inner && r.left && r.right) {
        if (!rel_try_key(pl, j, c))
            j->u.join.residual = sqe_bind_and(pl->arena, j->u.join.residual, c);
        return j;
    }
    return rel_filter_above(pl->arena, j, c);
}

static sqe_plan *rel_place(planner *pl, sqe_plan *p, sqe_expr *c, sqe_error *err) {
    if (c->kind == SQE_EXPR_CONST && !c->value.is_null && c->value.type.id == SQE_T_BOOLEAN &&
        c->value.v.b)
        return p; /* TRUE */
    switch (p->kind) {
    case SQE_PLAN_SCAN:
        if (!sqe_plan_push_filter_into_scan(pl->arena, p, c, err)) return NULL;
        return p;
    case SQE_PLAN_HASH_JOIN:
    case SQE_PLAN_NL_JOIN:
        return rel_place_join(pl, p, c, err);
    default:
        return rel_filter_above(pl->arena, p, c);
    }
}

/* Placement of ON conditions of outer joins: a conjunct over the
 * non-preserved side may go below it, one over both sides is a key or the
 * residual (never a filter above, which would drop preserved rows). */
static sqe_plan *rel_place_on(planner *pl, sqe_plan *j, sqe_expr *c, sqe_error *err) {
    sqe_join_type t = j->u.join.type;
    int nl = j->children[0]->n_out;
    rel_refs r = rel_refs_of(c, nl);
    if (r.right && !r.left && t == SQE_JT_LEFT) {
        sqe_expr *rc = sqe_plan_expr_shift(pl->arena, c, -nl);
        if (!(j->children[1] = rel_place(pl, j->children[1], rc, err))) return NULL;
        return j;
    }
    if (r.left && !r.right && t == SQE_JT_RIGHT) {
        if (!(j->children[0] = rel_place(pl, j->children[0], c, err))) return NULL;
        return j;
    }
    if (!(r.left && r.right && rel_try_key(pl, j, c)))
        j->u.join.residual = sqe_bind_and(pl->arena, j->u.join.residual, c);
    return j;
}

sqe_plan *sqe_plan_add_filter(planner *pl, sqe_plan *p, sqe_expr *pred, sqe_error *err) {
    sqe_expr_list conj = {0};
    sqe_plan_conjuncts(pl->arena, pred, &conj);
    for (size_t i = 0; i < conj.len && p; i++) p = rel_place(pl, p, conj.items[i], err);
    return p;
}

/* The ON condition of join j (inner: placed like WHERE; outer: see
 * rel_place_on). */
static sqe_plan *rel_add_on(planner *pl, sqe_plan *j, sqe_expr *cond, sqe_error *err) {
    if (j->u.join.type == SQE_JT_INNER) return sqe_plan_add_filter(pl, j, cond, err);
    sqe_expr_list conj = {0};
    sqe_plan_conjuncts(pl->arena, cond, &conj);
    for (size_t i = 0; i < conj.len && j; i++) j = rel_place_on(pl, j, conj.items[i], err);
    return j;
}
