/*
 * planner.c - SELECT AST to a tree of plan nodes.
 *
 *   plan_query
 *     plan_from        SCAN (all table columns) | subquery plan | VALUES
 *     WHERE            pushed into the scan (partition filter + row filter) or a FILTER
 *     aggregate?       collect aggregate calls, bind GROUP BY keys -> AGGREGATE
 *     HAVING           FILTER over the aggregate
 *     select list      PROJECT (visible items, then hidden ORDER BY keys)
 *     DISTINCT         AGGREGATE with every projected column as a key
 *     ORDER BY         SORT, or TOPN when a LIMIT follows
 *     LIMIT/OFFSET     LIMIT (without ORDER BY)
 *     hidden keys      final PROJECT dropping them
 *
 * Column names follow Trino: an alias, else the column's name for a bare
 * column reference, else _colN (N = position in the select list).
 *
 * ORDER BY sees the output columns first (Trino): an ordinal or a bare name
 * picks a select item; inside a larger expression a name of a select item
 * stands for that item's expression (subst_aliases), then the FROM columns.
 */
#include "plan_int.h"

#include <string.h>

#define new_node sqe_plan_unary_new

scope sqe_plan_scope_of(sqe_arena *a, const sqe_plan *p, const char *qualifier, const char *db,
                        const char *root) {
    scope s = {p->n_out, sqe_arena_alloc(a, sizeof(scope_col) * (size_t)(p->n_out ? p->n_out : 1))};
    for (int i = 0; i < p->n_out; i++) {
        s.cols[i].qualifier = qualifier;
        s.cols[i].database = db;
        s.cols[i].root = root;
        s.cols[i].name = p->out_names[i];
        s.cols[i].type = p->out_types[i];
        s.cols[i].index = i;
    }
    return s;
}

static char *lower_dup(sqe_arena *a, const char *s) {
    return sqe_str_lower(sqe_arena_strdup(a, s));
}

sqe_plan *sqe_plan_same_schema(sqe_arena *a, sqe_plan_kind kind, sqe_plan *child) {
    sqe_plan *p = sqe_plan_unary_new(a, kind, child, child->n_out);
    memcpy(p->out_types, child->out_types, sizeof(sqe_type) * (size_t)child->n_out);
    memcpy(p->out_names, child->out_names, sizeof(char *) * (size_t)child->n_out);
    return p;
}

sqe_plan *sqe_plan_table(planner *pl, const sqe_ast_from *f, scope *out_scope, sqe_error *err) {
    const sqe_qname *qn = &f->u.table;
    const char *parts[8];
    int n = qn->n_parts > 8 ? 8 : qn->n_parts;
    for (int i = 0; i < n; i++) parts[i] = qn->parts[i].name;
    if (sqe_plan_is_information_schema(n, parts)) {
        sqe_plan *p = sqe_plan_information_schema(pl->arena, pl->cat, n, parts, f->pos, err);
        if (!p) return NULL;
        const char *qual =
            f->alias ? lower_dup(pl->arena, f->alias->name) : lower_dup(pl->arena, parts[n - 1]);
        *out_scope =
            sqe_plan_scope_of(pl->arena, p, qual, f->alias ? NULL : "information_schema", NULL);
        return p;
    }
    sqe_hive_table *t = sqe_hive_resolve_table(pl->cat, n, parts, err);
    if (!t) return NULL;
    SQE_ARRAY_PUSH(NULL, pl->tables, t);
    if (!sqe_hive_check_readable(t, err)) return NULL;
    sqe_plan *p = sqe_plan_scan_node(
        pl, t, sqe_arena_sprintf(pl->arena, "%s.%s.%s", t->root, t->database, t->name));
    const char *qual = f->alias ? lower_dup(pl->arena, f->alias->name) : t->name;
    *out_scope = sqe_plan_scope_of(pl->arena, p, qual, f->alias ? NULL : t->database,
                                   f->alias ? NULL : t->root);
    return p;
}

sqe_plan *sqe_plan_scan_node(planner *pl, sqe_hive_table *t, char *display_name) {
    int n_all = t->n_cols + t->n_part_keys;
    sqe_plan *p = new_node(pl->arena, SQE_PLAN_SCAN, NULL, n_all);
    p->u.scan.table = t;
    p->u.scan.table_name = display_name;
    p->u.scan.n_cols = n_all;
    p->u.scan.cols = sqe_arena_alloc(pl->arena, sizeof(int) * (size_t)(n_all ? n_all : 1));
    for (int i = 0; i < n_all; i++) {
        const sqe_hive_column *c = i < t->n_cols ? &t->cols[i] : &t->part_keys[i - t->n_cols];
        p->u.scan.cols[i] = i;
        p->out_types[i] = c->type;
        p->out_names[i] = c->name;
    }
    return p;
}

bool sqe_plan_const_count(planner *pl, const sqe_ast_expr *e, const char *what, uint64_t *out,
                          sqe_error *err) {
    bind_ctx cx = {.arena = pl->arena, .cat = pl->cat, .stmt = &pl->stmt, .clause = what};
    sqe_expr *b = sqe_bind_expr(&cx, e, err);
    if (!b) return false;
    sqe_value v;
    if (!sqe_type_is_integer(b->type) || !sqe_expr_eval_const(b, pl->arena, &v, err) || v.is_null)
        return sqe_bind_error(err, SQE_ERR_TYPE_MISMATCH, e->pos, "%s must be a constant integer",
                              what);
    if (v.v.i < 0)
        return sqe_bind_error(err, SQE_ERR_INVALID_ARGUMENT, e->pos, "%s must not be negative",
                              what);
    *out = (uint64_t)v.v.i;
    return true;
}

bool sqe_plan_eval_constant(sqe_arena *arena, sqe_hive_catalog *cat, uint16_t zone,
                            const sqe_ast_expr *e, const char *what, sqe_value *out,
                            sqe_error *err) {
    planner pl = {.arena = arena, .cat = cat, .stmt = {.clock = INT64_MIN, .zone = zone}};
    bind_ctx cx = {.arena = arena, .cat = cat, .stmt = &pl.stmt, .clause = what};
    sqe_expr *b = sqe_bind_expr(&cx, e, err);
    if (!b) return false;
    if (!sqe_expr_is_const(b))
        return sqe_bind_error(err, SQE_ERR_INVALID_ARGUMENT, e->pos, "%s must be a constant", what);
    if (!sqe_expr_eval_const(b, arena, out, err)) return false;
    out->type = b->type;
    return true;
}

static bool is_ordinal(const sqe_ast_expr *e) {
    return e->kind == SQE_AST_LITERAL && e->u.lit.kind == SQE_LIT_INTEGER;
}

static int ordinal_of(const sqe_ast_expr *e, int n_items, sqe_error *err, const char *clause) {
    int64_t v;
    const char *t = e->u.lit.text;
    if (!sqe_parse_int64(t, strlen(t), &v) || v < 1 || v > n_items) {
        sqe_bind_error(err, SQE_ERR_INVALID_ARGUMENT, e->pos,
                       "%s position %s is not in the select list (1..%d)", clause, t, n_items);
        return -1;
    }
    return (int)v - 1;
}

/* Select items after '*' expansion: AST + output name. */
typedef struct item {
    const sqe_ast_expr *ast; /* NULL for expanded star columns */
    sqe_expr *bound;
    const char *name;
    const char *alias; /* explicit alias, lower-case */
    int star_col;      /* expanded '*': source column index */
    sqe_pos star_pos;  /* expanded '*': where the star is */
} item;

typedef SQE_ARRAY(item) item_list;

/* Can ORDER BY refer to item `it` by its name? An alias, a column
 * reference or a '*' column: yes; an unnamed expression (_colN): no. */
static bool item_is_named(const item *it) {
    return it->alias || !it->ast || it->ast->kind == SQE_AST_COLUMN;
}

/* The visible item ORDER BY's bare name `nm` refers to: -1 none, -2
 * ambiguous (two items of that name with different expressions). */
static int item_by_name(sqe_arena *a, const item *items, int n_visible, const char *nm) {
    int idx = -1;
    const char *text = NULL;
    for (int i = 0; i < n_visible; i++) {
        if (!sqe_str_ieq(items[i].name, nm) || !item_is_named(&items[i])) continue;
        const char *t = items[i].ast ? sqe_sql_expr_to_string(a, items[i].ast) : items[i].name;
        if (idx < 0) {
            idx = i;
            text = t;
        } else if (strcmp(text, t) != 0) {
            return -2;
        }
    }
    return idx;
}

/* ORDER BY expressions see the output columns first (Trino): a bare name
 * inside a larger ORDER BY expression that names a select item stands for
 * that item's expression (`SELECT a + 1 AS x ... ORDER BY x * 2`). Aggregate
 * arguments keep the FROM scope. Returns e itself when nothing changes. */
static sqe_ast_expr *subst_aliases(sqe_arena *a, sqe_ast_expr *e, const item *items, int n_visible,
                                   sqe_error *err, bool *failed);

static sqe_ast_expr *subst_child(sqe_arena *a, sqe_ast_expr **slot, sqe_ast_expr *parent,
                                 sqe_ast_expr **copy, const item *items, int n_visible,
                                 sqe_error *err, bool *failed) {
    if (!*slot || *failed) return *copy;
    sqe_ast_expr *n = subst_aliases(a, *slot, items, n_visible, err, failed);
    if (n == *slot) return *copy;
    if (!*copy) {
        *copy = sqe_arena_alloc(a, sizeof **copy);
        **copy = *parent;
    }
    /* slot is a field of parent: set the same field of the copy */
    *(sqe_ast_expr **)((char *)*copy + ((char *)slot - (char *)parent)) = n;
    return *copy;
}

static sqe_ast_expr *subst_aliases(sqe_arena *a, sqe_ast_expr *e, const item *items, int n_visible,
                                   sqe_error *err, bool *failed) {
    if (!e || *failed) return e;
    sqe_ast_expr *c = NULL;
    switch (e->kind) {
    case SQE_AST_COLUMN: {
        if (e->u.column.n_parts != 1) return e;
        int idx = item_by_name(a, items, n_visible, e->u.column.parts[0].name);
        if (idx == -2) {
            *failed = true;
            sqe_bind_error(err, SQE_ERR_USAGE, e->pos, "column reference '%s' is ambiguous",
                           e->u.column.parts[0].name);
            return e;
        }
        if (idx < 0 || !items[idx].ast) return e;
        return (sqe_ast_expr *)items[idx].ast;
    }
    case SQE_AST_FUNCTION: {
        if (sqe_bind_is_aggregate_call(e) || e->u.func.n_args == 0) return e;
        sqe_ast_expr **args = NULL;
        for (int i = 0; i < e->u.func.n_args && !*failed; i++) {
            sqe_ast_expr *n = subst_aliases(a, e->u.func.args[i], items, n_visible, err, failed);
            if (n == e->u.func.args[i]) continue;
            if (!args) {
                args = sqe_arena_alloc(a, sizeof(sqe_ast_expr *) * (size_t)e->u.func.n_args);
                memcpy(args, e->u.func.args, sizeof(sqe_ast_expr *) * (size_t)e->u.func.n_args);
            }
            args[i] = n;
        }
        if (!args) return e;
        c = sqe_arena_alloc(a, sizeof *c);
        *c = *e;
        c->u.func.args = args;
        return c;
    }
    case SQE_AST_IN_LIST: {
        subst_child(a, &e->u.in_list.arg, e, &c, items, n_visible, err, failed);
        sqe_ast_expr **xs = NULL;
        for (int i = 0; i < e->u.in_list.n_items && !*failed; i++) {
            sqe_ast_expr *n =
                subst_aliases(a, e->u.in_list.items[i], items, n_visible, err, failed);
            if (n == e->u.in_list.items[i]) continue;
            if (!xs) {
                xs = sqe_arena_alloc(a, sizeof(sqe_ast_expr *) * (size_t)e->u.in_list.n_items);
                memcpy(xs, e->u.in_list.items,
                       sizeof(sqe_ast_expr *) * (size_t)e->u.in_list.n_items);
            }
            xs[i] = n;
        }
        if (xs) {
            if (!c) {
                c = sqe_arena_alloc(a, sizeof *c);
                *c = *e;
            }
            c->u.in_list.items = xs;
        }
        return c ? c : e;
    }
    case SQE_AST_CASE: {
        subst_child(a, &e->u.case_.operand, e, &c, items, n_visible, err, failed);
        subst_child(a, &e->u.case_.else_, e, &c, items, n_visible, err, failed);
        sqe_ast_when *ws = NULL;
        for (int i = 0; i < e->u.case_.n_whens && !*failed; i++) {
            sqe_ast_expr *nc =
                subst_aliases(a, e->u.case_.whens[i].cond, items, n_visible, err, failed);
            sqe_ast_expr *nr =
                subst_aliases(a, e->u.case_.whens[i].result, items, n_visible, err, failed);
            if (nc == e->u.case_.whens[i].cond && nr == e->u.case_.whens[i].result) continue;
            if (!ws) {
                ws = sqe_arena_alloc(a, sizeof(sqe_ast_when) * (size_t)e->u.case_.n_whens);
                memcpy(ws, e->u.case_.whens, sizeof(sqe_ast_when) * (size_t)e->u.case_.n_whens);
            }
            ws[i].cond = nc;
            ws[i].result = nr;
        }
        if (ws) {
            if (!c) {
                c = sqe_arena_alloc(a, sizeof *c);
                *c = *e;
            }
            c->u.case_.whens = ws;
        }
        return c ? c : e;
    }
    case SQE_AST_UNARY:
        return subst_child(a, &e->u.unary.arg, e, &c, items, n_visible, err, failed) ? c : e;
    case SQE_AST_BINARY:
        subst_child(a, &e->u.binary.left, e, &c, items, n_visible, err, failed);
        subst_child(a, &e->u.binary.right, e, &c, items, n_visible, err, failed);
        return c ? c : e;
    case SQE_AST_CAST:
        return subst_child(a, &e->u.cast.arg, e, &c, items, n_visible, err, failed) ? c : e;
    case SQE_AST_BETWEEN:
        subst_child(a, &e->u.between.arg, e, &c, items, n_visible, err, failed);
        subst_child(a, &e->u.between.low, e, &c, items, n_visible, err, failed);
        subst_child(a, &e->u.between.high, e, &c, items, n_visible, err, failed);
        return c ? c : e;
    case SQE_AST_LIKE:
        subst_child(a, &e->u.like.arg, e, &c, items, n_visible, err, failed);
        subst_child(a, &e->u.like.pattern, e, &c, items, n_visible, err, failed);
        subst_child(a, &e->u.like.escape, e, &c, items, n_visible, err, failed);
        return c ? c : e;
    case SQE_AST_IS_NULL:
        return subst_child(a, &e->u.is_null.arg, e, &c, items, n_visible, err, failed) ? c : e;
    case SQE_AST_IS_DISTINCT:
        subst_child(a, &e->u.is_distinct.left, e, &c, items, n_visible, err, failed);
        subst_child(a, &e->u.is_distinct.right, e, &c, items, n_visible, err, failed);
        return c ? c : e;
    default:
        return e;
    }
}

static void prune_scan_columns(sqe_arena *a, sqe_plan *scan, sqe_plan *consumer);

typedef SQE_ARRAY(const sqe_ast_expr *) ast_list;

/* Appends the AND conjuncts of an AST to *out. */
static void ast_conjuncts(sqe_arena *a, const sqe_ast_expr *e, ast_list *out) {
    if (e->kind == SQE_AST_BINARY && e->u.binary.op == SQE_OP_AND) {
        ast_conjuncts(a, e->u.binary.left, out);
        ast_conjuncts(a, e->u.binary.right, out);
        return;
    }
    SQE_ARRAY_PUSH(a, *out, e);
}

/* WHERE: each conjunct in turn. [NOT] EXISTS / IN subqueries become semi
 * or anti joins on the input; in a correlated subquery, conjuncts that
 * reference the enclosing query go to cc->conds; the rest are placed by
 * sqe_plan_add_filter (into scans, below joins). */
static bool plan_where(planner *pl, const sqe_ast_query *q, bind_ctx *cx, sqe_plan **cur,
                       corr_ctx *cc, sqe_error *err) {
    /* (an aggregate of a grouped enclosing query may appear: binder.c) */
    const sqe_ast_expr *wa =
        cx->outer && cx->outer->agg ? NULL : sqe_bind_first_aggregate(q->where);
    if (wa)
        return sqe_bind_error(err, SQE_ERR_USAGE, wa->pos,
                              "aggregate functions are not allowed in WHERE");
    cx->clause = "WHERE";
    ast_list conj = {0};
    ast_conjuncts(pl->arena, q->where, &conj);
    for (size_t i = 0; i < conj.len; i++) {
        const sqe_ast_expr *c = conj.items[i];
        bool handled = false;
        sqe_expr *w = NULL;
        if (!sqe_plan_subquery_filter(cx, c, &handled, &w, err)) return false;
        if (handled && !w) continue;
        if (!w && !(w = sqe_bind_expr(cx, c, err))) return false;
        if (w->type.id == SQE_T_NULL) w = sqe_bind_coerce(cx, w, sqe_type_make(SQE_T_BOOLEAN), err);
        if (w->type.id != SQE_T_BOOLEAN) {
            char tb[64];
            return sqe_bind_error(err, SQE_ERR_TYPE_MISMATCH, c->pos,
                                  "WHERE clause must be boolean, got %s",
                                  sqe_type_sql_name(w->type, tb, sizeof tb));
        }
        if (cc && sqe_expr_has_outer(w)) {
            sqe_expr_list parts = {0};
            sqe_plan_conjuncts(pl->arena, w, &parts);
            for (size_t k = 0; k < parts.len; k++) {
                if (sqe_expr_has_outer(parts.items[k]))
                    SQE_ARRAY_PUSH(pl->arena, cc->conds, parts.items[k]);
                else if (!(*cur = sqe_plan_add_filter(pl, *cur, parts.items[k], err)))
                    return false;
            }
            continue;
        }
        if (!(*cur = sqe_plan_add_filter(pl, *cur, w, err))) return false;
    }
    return true;
}

typedef struct corr_use {
    bool any;
} corr_use;

static void note_inner_col(int *col, void *ctx) {
    (void)col;
    ((corr_use *)ctx)->any = true;
}

/* Is every correlated conjunct `inner = outer` (one side only inner
 * columns, the other only outer references)? */
static bool corr_all_equalities(const corr_ctx *cc) {
    for (size_t i = 0; i < cc->conds.len; i++) {
        const sqe_expr *c = cc->conds.items[i];
        if (c->kind != SQE_EXPR_CALL || c->n_args != 2 || strcmp(c->fn.name, "=") != 0)
            return false;
        bool o0 = sqe_expr_has_outer(c->args[0]), o1 = sqe_expr_has_outer(c->args[1]);
        if (o0 == o1) return false;
        corr_use u0 = {0}, u1 = {0};
        sqe_expr_visit_cols(c->args[0], note_inner_col, &u0);
        sqe_expr_visit_cols(c->args[1], note_inner_col, &u1);
        if ((o0 && u0.any) || (o1 && u1.any)) return false;
    }
    return true;
}

/* LIMIT/OFFSET of a subquery correlated by equalities, applied per outer
 * row: row_number() over the correlation columns (output columns
 * corr_first..corr_first + n_corr) in ORDER BY order, then
 * offset < rn <= offset + limit. The rn column is dropped again. */
static sqe_plan *limit_per_group(bind_ctx *cx, sqe_plan *cur, int corr_first, int n_corr,
                                 const sqe_ast_query *q, const sqe_sort_key *keys, uint64_t limit,
                                 uint64_t offset, bool has_limit, sqe_error *err) {
    sqe_arena *A = cx->arena;
    int n = cur->n_out;
    sqe_plan *w = new_node(A, SQE_PLAN_WINDOW, cur, n + 1);
    memcpy(w->out_types, cur->out_types, sizeof(sqe_type) * (size_t)n);
    memcpy(w->out_names, cur->out_names, sizeof(char *) * (size_t)n);
    w->out_types[n] = sqe_type_make(SQE_T_BIGINT);
    w->out_names[n] = "_rn";
    w->u.window.n_partition = n_corr;
    w->u.window.partition = sqe_arena_alloc(A, sizeof(sqe_expr *) * (size_t)n_corr);
    for (int i = 0; i < n_corr; i++) {
        int c = corr_first + i;
        w->u.window.partition[i] = sqe_expr_column(A, c, cur->out_types[c], cur->out_names[c]);
    }
    int no = q->n_order_by;
    w->u.window.n_order = no;
    w->u.window.order = sqe_arena_alloc(A, sizeof(sqe_expr *) * (size_t)(no + 1));
    w->u.window.order_keys = sqe_arena_alloc(A, sizeof(sqe_sort_key) * (size_t)(no + 1));
    for (int k = 0; k < no; k++) {
        int c = keys[k].col;
        w->u.window.order[k] = sqe_expr_column(A, c, cur->out_types[c], cur->out_names[c]);
        w->u.window.order_keys[k] = (sqe_sort_key){k, keys[k].desc, keys[k].nulls_first};
    }
    sqe_window_func *f = sqe_arena_alloc(A, sizeof *f);
    f->kind = SQE_WIN_ROW_NUMBER;
    f->type = w->out_types[n];
    w->u.window.n_funcs = 1;
    w->u.window.funcs = f;
    sqe_expr *rn = sqe_expr_column(A, n, w->out_types[n], "_rn");
    sqe_value lo = sqe_value_int(SQE_T_BIGINT, (int64_t)SQE_MIN(offset, (uint64_t)INT64_MAX));
    sqe_expr **a = sqe_arena_alloc(A, sizeof(sqe_expr *) * 2);
    a[0] = rn;
    a[1] = sqe_expr_const(A, &lo);
    sqe_expr *pred = sqe_bind_call(cx, ">", 2, a, q->pos, err);
    if (!pred) return NULL;
    if (has_limit) {
        uint64_t hi_u = limit > (uint64_t)INT64_MAX - offset ? (uint64_t)INT64_MAX : offset + limit;
        sqe_value hi = sqe_value_int(SQE_T_BIGINT, (int64_t)hi_u);
        sqe_expr **b = sqe_arena_alloc(A, sizeof(sqe_expr *) * 2);
        b[0] = rn;
        b[1] = sqe_expr_const(A, &hi);
        sqe_expr *le = sqe_bind_call(cx, "<=", 2, b, q->pos, err);
        if (!le) return NULL;
        pred = sqe_bind_and(A, pred, le);
    }
    sqe_plan *flt = sqe_plan_same_schema(A, SQE_PLAN_FILTER, w);
    flt->u.filter.pred = pred;
    sqe_plan *p = new_node(A, SQE_PLAN_PROJECT, flt, n);
    p->u.project.exprs = sqe_arena_alloc(A, sizeof(sqe_expr *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        p->u.project.exprs[i] = sqe_expr_column(A, i, cur->out_types[i], cur->out_names[i]);
        p->out_types[i] = cur->out_types[i];
        p->out_names[i] = cur->out_names[i];
    }
    return p;
}

/* Outer references (OUTER_COL) of a subquery outside its WHERE and select
 * list: in an aggregate's argument or filter, a GROUP BY key or a window
 * (HAVING binds them to NOT_SUPPORTED errors in binder.c). */
static bool check_outer_refs(const sqe_ast_query *q, const corr_ctx *cc, const agg_ctx *ag,
                             sqe_error *err) {
    if (!cc) return true;
    for (int i = 0; i < ag->n_groups; i++)
        if (sqe_expr_has_outer(ag->groups[i]))
            return sqe_bind_error(err, SQE_ERR_NOT_SUPPORTED, ag->group_asts[i]->pos,
                                  "a GROUP BY key of a subquery that references the enclosing "
                                  "query is not supported");
    for (int i = 0; i < ag->n_aggs; i++)
        if (sqe_expr_has_outer(ag->agg_args[i]))
            return sqe_bind_error(err, SQE_ERR_NOT_SUPPORTED, q->pos,
                                  "an aggregate of a subquery whose argument references the "
                                  "enclosing query is not supported (%s)",
                                  ag->agg_keys[i]);
    return true;
}

/* Is column col of the aggregate's output a count-like aggregate (0, not
 * NULL, over no rows)? */
static bool is_count_col(const agg_ctx *ag, int col) {
    if (!ag || col < ag->n_groups || col >= ag->n_groups + ag->n_aggs) return false;
    const char *n = ag->aggs[col - ag->n_groups].name;
    return n && (!strcmp(n, "count") || !strcmp(n, "count_if") || !strcmp(n, "approx_distinct"));
}

static bool reads_count(const agg_ctx *ag, const sqe_expr *e) {
    if (e->kind == SQE_EXPR_COLUMN) return is_count_col(ag, e->col);
    for (int i = 0; i < e->n_args; i++)
        if (reads_count(ag, e->args[i])) return true;
    return false;
}

/* A copy of a deferred item's expression over the subquery's output:
 * each inner column it reads becomes a carried output column (appended to
 * items once per column); OUTER_COLs stay. With counts (an aggregate
 * without GROUP BY whose group may be missing for an outer row), a
 * count-like aggregate's column is read as COALESCE(column, 0). */
static sqe_expr *carry_copy(sqe_arena *A, const sqe_expr *e, item_list *items, int first,
                            const agg_ctx *counts) {
    sqe_expr *c = sqe_arena_alloc(A, sizeof *c);
    *c = *e;
    if (e->n_args) {
        c->args = sqe_arena_alloc(A, sizeof(sqe_expr *) * (size_t)e->n_args);
        for (int i = 0; i < e->n_args; i++)
            c->args[i] = carry_copy(A, e->args[i], items, first, counts);
    }
    if (e->kind != SQE_EXPR_COLUMN) return c;
    c->col = -1;
    for (size_t k = (size_t)first; k < items->len && c->col < 0; k++) {
        const sqe_expr *b = items->items[k].bound;
        if (b->kind == SQE_EXPR_COLUMN && b->col == e->col) c->col = (int)k;
    }
    if (c->col < 0) {
        item it = {.star_col = -1,
                   .name = sqe_arena_sprintf(A, "_carry%d", e->col),
                   .bound = sqe_expr_column(A, e->col, e->type, e->name)};
        SQE_ARRAY_PUSH(A, *items, it);
        c->col = (int)items->len - 1;
    }
    if (!is_count_col(counts, e->col) || !sqe_type_is_integer(e->type)) return c;
    sqe_value zero = sqe_value_int(e->type.id, 0);
    sqe_expr **args = sqe_arena_alloc(A, sizeof(sqe_expr *) * 2);
    args[0] = c;
    args[1] = sqe_expr_const(A, &zero);
    return sqe_expr_new(A, SQE_EXPR_COALESCE, e->type, 2, args);
}

/* Select items of a correlated subquery that read the enclosing query
 * (`SELECT e.salary + d.budget FROM d WHERE d.id = e.dept`): such an item
 * cannot be evaluated below the join, so subquery.c evaluates it above:
 * the inner columns it reads are carried out as extra output columns, the
 * item outputs a NULL placeholder, and cc->deferred[i] is the item over
 * the subquery's output with its OUTER_COLs left for the join to rewrite.
 * A constant marker column (cc->marker) tells a matched row from a LEFT
 * join's padding; an aggregate without GROUP BY (global_agg) has a row
 * for every outer row and needs none. Items reading a count-like aggregate
 * of such a subquery are deferred too (counts: see carry_copy). */
static bool defer_outer_items(sqe_arena *A, const sqe_ast_query *q, corr_ctx *cc, item_list *items,
                              bool global_agg, const agg_ctx *counts, sqe_error *err) {
    cc->marker = -1;
    int nv = cc->n_visible, first = (int)items->len;
    bool any = false;
    bool *need = sqe_arena_alloc(A, (size_t)(nv ? nv : 1));
    for (int i = 0; i < nv; i++) {
        const sqe_expr *b = items->items[i].bound;
        need[i] = sqe_expr_has_outer(b) || (counts && reads_count(counts, b));
        any |= need[i];
    }
    if (!any) return true;
    if (q->distinct)
        return sqe_bind_error(err, SQE_ERR_NOT_SUPPORTED, q->pos,
                              "SELECT DISTINCT in a subquery whose select list references the "
                              "enclosing query is not supported");
    cc->deferred = sqe_arena_alloc(A, sizeof(sqe_expr *) * (size_t)nv);
    for (int i = 0; i < nv; i++) {
        sqe_expr *b = items->items[i].bound;
        if (!need[i]) continue;
        cc->deferred[i] = carry_copy(A, b, items, first, counts);
        sqe_value nul = sqe_value_null(b->type);
        items->items[i].bound = sqe_expr_const(A, &nul);
    }
    if (!global_agg) {
        sqe_value one = sqe_value_int(SQE_T_INTEGER, 1);
        item it = {.star_col = -1, .name = "_match", .bound = sqe_expr_const(A, &one)};
        SQE_ARRAY_PUSH(A, *items, it);
        cc->marker = (int)items->len - 1;
    }
    return true;
}

/* HAVING conjuncts of a subquery that read the enclosing query go to
 * *corr: they join the subquery's groups like WHERE correlations join its
 * rows (over carried aggregate outputs, after the select list). *h keeps
 * the rest (NULL: none). An aggregate without GROUP BY (its group may be
 * missing for an outer row, yet HAVING would see count() = 0) and
 * LIMIT/OFFSET (applied before the join) are not supported with it. */
static bool split_having_corr(sqe_arena *A, const sqe_ast_query *q, sqe_expr **h,
                              sqe_expr_list *corr, sqe_error *err) {
    if (q->n_group_by == 0 || q->n_grouping_sets || q->limit || q->offset)
        return sqe_bind_error(err, SQE_ERR_NOT_SUPPORTED, q->having->pos,
                              "HAVING of a subquery that references the enclosing query is only "
                              "supported with GROUP BY (no GROUPING SETS) and without "
                              "LIMIT/OFFSET");
    sqe_expr_list parts = {0};
    sqe_plan_conjuncts(A, *h, &parts);
    *h = NULL;
    for (size_t i = 0; i < parts.len; i++) {
        if (sqe_expr_has_outer(parts.items[i]))
            SQE_ARRAY_PUSH(A, *corr, parts.items[i]);
        else
            *h = *h ? sqe_bind_and(A, *h, parts.items[i]) : parts.items[i];
    }
    return true;
}

/* ORDER BY over a deferred item (a NULL placeholder below the join) or an
 * expression reading the enclosing query cannot order the subquery. */
static bool check_deferred_order(const sqe_ast_query *q, const corr_ctx *cc,
                                 const sqe_sort_key *keys, const item_list *items, sqe_error *err) {
    for (int k = 0; k < q->n_order_by; k++) {
        int c = keys[k].col;
        if ((c < cc->n_visible && cc->deferred[c]) || sqe_expr_has_outer(items->items[c].bound))
            return sqe_bind_error(err, SQE_ERR_NOT_SUPPORTED, q->order_by[k].expr->pos,
                                  "ORDER BY a value that references the enclosing query is not "
                                  "supported in a subquery");
    }
    return true;
}

typedef struct corr_cols {
    SQE_ARRAY(int) cols;
    sqe_arena *a;
} corr_cols;

static void note_corr_col(int *col, void *ctx) {
    corr_cols *cc = ctx;
    for (size_t i = 0; i < cc->cols.len; i++)
        if (cc->cols.items[i] == *col) return;
    SQE_ARRAY_PUSH(cc->a, cc->cols, *col);
}

/* GROUPING SETS / ROLLUP / CUBE: a projection adds the grouping key
 * values to the input, GROUP_ID emits each row once per set with the keys
 * outside the set NULL plus a group id, and the aggregate groups by the keys
 * and the id. ag->groups keeps the keys as bound over the input (the
 * select list matches against them) plus an unmatchable placeholder for
 * the id; *agg_groups gets the aggregate's own key columns. */
static sqe_plan *plan_group_id(sqe_arena *A, const sqe_ast_query *q, agg_ctx *ag, sqe_plan *cur,
                               sqe_expr ***agg_groups) {
    int n_in = cur->n_out, nk = ag->n_groups;
    sqe_plan *pr = new_node(A, SQE_PLAN_PROJECT, cur, n_in + nk);
    pr->u.project.exprs = sqe_arena_alloc(A, sizeof(sqe_expr *) * (size_t)(n_in + nk));
    for (int i = 0; i < n_in; i++) {
        pr->u.project.exprs[i] = sqe_expr_column(A, i, cur->out_types[i], cur->out_names[i]);
        pr->out_types[i] = cur->out_types[i];
        pr->out_names[i] = cur->out_names[i];
    }
    for (int k = 0; k < nk; k++) {
        pr->u.project.exprs[n_in + k] = ag->groups[k];
        pr->out_types[n_in + k] = ag->groups[k]->type;
        pr->out_names[n_in + k] = sqe_sql_expr_to_string(A, ag->group_asts[k]);
    }
    sqe_plan *g = new_node(A, SQE_PLAN_GROUP_ID, pr, n_in + nk + 1);
    g->u.group_id.n_pass = n_in;
    g->u.group_id.pass_cols = sqe_arena_alloc(A, sizeof(int) * (size_t)(n_in + 1));
    g->u.group_id.n_keys = nk;
    g->u.group_id.key_cols = sqe_arena_alloc(A, sizeof(int) * (size_t)(nk + 1));
    for (int i = 0; i < n_in + nk; i++) {
        g->out_types[i] = pr->out_types[i];
        g->out_names[i] = pr->out_names[i];
        if (i < n_in)
            g->u.group_id.pass_cols[i] = i;
        else
            g->u.group_id.key_cols[i - n_in] = i;
    }
    g->out_types[n_in + nk] = sqe_type_make(SQE_T_BIGINT);
    g->out_names[n_in + nk] = "_groupid";
    g->u.group_id.n_sets = q->n_grouping_sets;
    g->u.group_id.set_len = q->grouping_set_len;
    g->u.group_id.sets = q->grouping_sets;
    sqe_expr **groups = sqe_arena_alloc(A, sizeof(sqe_expr *) * (size_t)(nk + 1));
    for (int k = 0; k <= nk; k++)
        groups[k] = sqe_expr_column(A, n_in + k, g->out_types[n_in + k], g->out_names[n_in + k]);
    *agg_groups = groups;
    /* placeholder: a column no bound expression can reference */
    ag->groups[nk] = sqe_expr_column(A, -1, sqe_type_make(SQE_T_BIGINT), "_groupid");
    sqe_ast_expr *gid = sqe_arena_alloc(A, sizeof *gid);
    gid->kind = SQE_AST_COLUMN;
    gid->u.column.n_parts = 1;
    gid->u.column.parts = sqe_arena_alloc(A, sizeof(sqe_ident));
    gid->u.column.parts[0].name = "_groupid";
    ag->group_asts[nk] = gid;
    ag->gid_col = nk;
    ag->n_groups = nk + 1;
    return g;
}

/* The group ids of the empty grouping sets, computed as GROUP_ID does (all
 * key bits set, plus the repeat count of identical sets above bit 32). */
static void plan_default_groups(sqe_arena *A, const sqe_ast_query *q, int nk, sqe_plan *agg) {
    int n = 0;
    for (int s = 0; s < q->n_grouping_sets; s++) n += q->grouping_set_len[s] == 0;
    if (!n || nk > 62) return;
    int64_t *ids = sqe_arena_alloc(A, sizeof(int64_t) * (size_t)n);
    int64_t dup = 0;
    n = 0;
    for (int s = 0; s < q->n_grouping_sets; s++) {
        if (q->grouping_set_len[s] != 0) continue;
        ids[n] = (int64_t)(((uint64_t)1 << nk) - 1);
        if (nk <= 31) ids[n] |= dup << 32;
        dup++, n++;
    }
    agg->u.aggregate.n_default_groups = n;
    agg->u.aggregate.default_gids = ids;
}

sqe_plan *sqe_plan_select(planner *pl, const sqe_ast_query *q, sqe_error *err) {
    sqe_arena *A = pl->arena;
    corr_ctx *cc = pl->corr; /* only this query level sees the enclosing query */
    pl->corr = NULL;
    /* FROM */
    sqe_plan *src;
    scope sc = {0, NULL};
    if (q->from) {
        if (!(src = sqe_plan_from(pl, q->from, &sc, err))) return NULL;
    } else {
        src = new_node(A, SQE_PLAN_VALUES, NULL, 0);
        src->u.values.n_rows = 1;
        src->u.values.rows = sqe_arena_alloc(A, sizeof(sqe_value *));
        src->u.values.rows[0] = sqe_arena_alloc(A, sizeof(sqe_value));
    }
    sqe_plan *scan = src->kind == SQE_PLAN_SCAN ? src : NULL;
    sqe_plan *cur = src;
    subq_ctx sq = {pl, &cur};
    bind_ctx cx = {.arena = A,
                   .cat = pl->cat,
                   .stmt = &pl->stmt,
                   .scope = &sc,
                   .subq = &sq,
                   .outer = cc ? cc->outer : NULL};

    /* WHERE */
    if (q->where && !plan_where(pl, q, &cx, &cur, cc, err)) return NULL;
    /* Inner columns the correlated conjuncts read: extra outputs. */
    corr_cols ccols = {.a = A};
    if (cc) {
        for (size_t i = 0; i < cc->conds.len; i++)
            sqe_expr_visit_cols(cc->conds.items[i], note_corr_col, &ccols);
        if (ccols.cols.len && (q->limit || q->offset) && !corr_all_equalities(cc)) {
            sqe_bind_error(err, SQE_ERR_NOT_SUPPORTED, q->pos,
                           "LIMIT/OFFSET in a subquery correlated other than by equalities is "
                           "not supported");
            return NULL;
        }
    }
    int n_corr = (int)ccols.cols.len;

    /* Expand the select list. */
    item_list items = {0};
    for (int i = 0; i < q->n_items; i++) {
        const sqe_ast_select_item *si = &q->items[i];
        if (si->expr->kind == SQE_AST_STAR) {
            /* [[root.]db.]table.* */
            const char *qual = NULL, *qdb = NULL, *qroot = NULL, *qtext = NULL;
            if (si->expr->u.star.qualifier) {
                const sqe_qname *qq = si->expr->u.star.qualifier;
                int np = qq->n_parts;
                qtext = "";
                for (int k = 0; k < np; k++)
                    qtext = sqe_arena_sprintf(A, "%s%s%s", qtext, k ? "." : "", qq->parts[k].name);
                if (np > 3) {
                    sqe_bind_error(err, SQE_ERR_SYNTAX, si->expr->pos, "'%s.*' has too many parts",
                                   qtext);
                    return NULL;
                }
                qual = lower_dup(A, qq->parts[np - 1].name);
                if (np >= 2) qdb = lower_dup(A, qq->parts[np - 2].name);
                if (np >= 3) qroot = qq->parts[np - 3].name;
            }
            int added = 0;
            for (int c = 0; c < sc.n; c++) {
                if (!qual && sc.cols[c].qualified_only) continue;
                if (qual && (!sc.cols[c].qualifier || strcmp(sc.cols[c].qualifier, qual) != 0))
                    continue;
                if (qdb && (!sc.cols[c].database || strcmp(sc.cols[c].database, qdb) != 0))
                    continue;
                if (qroot && (!sc.cols[c].root || !sqe_str_ieq(sc.cols[c].root, qroot))) continue;
                item it = {.name = sc.cols[c].name, .star_col = c, .star_pos = si->expr->pos};
                SQE_ARRAY_PUSH(A, items, it);
                added++;
            }
            if (!added) {
                if (qual)
                    sqe_bind_error(err, SQE_ERR_NOT_FOUND, si->expr->pos,
                                   "table '%s' in '%s.*' cannot be resolved", qtext, qtext);
                else
                    sqe_bind_error(err, SQE_ERR_USAGE, si->expr->pos,
                                   "SELECT * requires a FROM clause");
                return NULL;
            }
            continue;
        }
        item it = {.ast = si->expr, .star_col = -1};
        if (si->alias) {
            it.alias = lower_dup(A, si->alias->name);
            it.name = it.alias;
        } else if (si->expr->kind == SQE_AST_COLUMN) {
            const sqe_qname *cn = &si->expr->u.column;
            it.name = lower_dup(A, cn->parts[cn->n_parts - 1].name);
        } else {
            it.name = sqe_arena_sprintf(A, "_col%zu", items.len);
        }
        SQE_ARRAY_PUSH(A, items, it);
    }

    /* ORDER BY expressions with output names resolved (see subst_aliases);
     * a bare name or an ordinal is matched to its item further down. */
    sqe_ast_expr **order_exprs =
        sqe_arena_alloc(A, sizeof(sqe_ast_expr *) * (size_t)(q->n_order_by + 1));
    for (int k = 0; k < q->n_order_by; k++) {
        sqe_ast_expr *oe = q->order_by[k].expr;
        bool failed = false;
        if (!is_ordinal(oe) && !(oe->kind == SQE_AST_COLUMN && oe->u.column.n_parts == 1))
            oe = subst_aliases(A, oe, items.items, (int)items.len, err, &failed);
        if (failed) return NULL;
        order_exprs[k] = oe;
    }

    /* Aggregation */
    bool has_agg = q->n_group_by > 0 || q->n_grouping_sets > 0 || q->having != NULL;
    for (size_t i = 0; i < items.len && !has_agg; i++)
        if (items.items[i].ast && sqe_bind_contains_aggregate(items.items[i].ast)) has_agg = true;
    for (int i = 0; i < q->n_order_by && !has_agg; i++)
        if (sqe_bind_contains_aggregate(order_exprs[i])) has_agg = true;

    agg_ctx ag = {.gid_col = -1};
    sqe_expr_list having_corr = {0}; /* HAVING conjuncts reading the enclosing query */
    sqe_plan *consumer = NULL;
    if (has_agg) {
        ag.source = &sc;
        ag.groups = sqe_arena_alloc(A, sizeof(sqe_expr *) * (size_t)(q->n_group_by + n_corr + 1));
        ag.group_asts =
            sqe_arena_alloc(A, sizeof(sqe_ast_expr *) * (size_t)(q->n_group_by + n_corr + 1));
        cx.clause = "GROUP BY";
        for (int g = 0; g < q->n_group_by; g++) {
            const sqe_ast_expr *ge = q->group_by[g];
            if (is_ordinal(ge)) {
                int k = ordinal_of(ge, (int)items.len, err, "GROUP BY");
                if (k < 0) return NULL;
                if (!items.items[k].ast) {
                    /* expanded star column */
                    int c = items.items[k].star_col;
                    ag.groups[g] =
                        sqe_expr_column(A, sc.cols[c].index, sc.cols[c].type, sc.cols[c].name);
                    sqe_ast_expr *col = sqe_arena_alloc(A, sizeof *col);
                    col->kind = SQE_AST_COLUMN;
                    col->u.column.n_parts = 1;
                    col->u.column.parts = sqe_arena_alloc(A, sizeof(sqe_ident));
                    col->u.column.parts[0].name = (char *)sc.cols[c].name;
                    ag.group_asts[g] = col;
                    continue;
                }
                ge = items.items[k].ast;
            }
            const sqe_ast_expr *ga = sqe_bind_first_aggregate(ge);
            if (ga) {
                sqe_bind_error(err, SQE_ERR_USAGE,
                               is_ordinal(q->group_by[g]) ? q->group_by[g]->pos : ga->pos,
                               "aggregate functions are not allowed in GROUP BY");
                return NULL;
            }
            sqe_error gerr;
            sqe_expr *b = sqe_bind_expr(&cx, ge, &gerr);
            if (!b && ge->kind == SQE_AST_COLUMN && ge->u.column.n_parts == 1) {
                /* GROUP BY an output alias (Hive/DuckDB allow it). */
                for (size_t k = 0; k < items.len; k++) {
                    if (items.items[k].alias && items.items[k].ast &&
                        sqe_str_ieq(items.items[k].alias, ge->u.column.parts[0].name) &&
                        !sqe_bind_contains_aggregate(items.items[k].ast)) {
                        ge = items.items[k].ast;
                        b = sqe_bind_expr(&cx, ge, &gerr);
                        break;
                    }
                }
            }
            if (!b) {
                if (err) *err = gerr;
                return NULL;
            }
            ag.groups[g] = b;
            ag.group_asts[g] = ge;
        }
        ag.n_groups = q->n_group_by;
        if (cc) cc->global_agg = q->n_group_by == 0;
        for (int i = 0; i < n_corr; i++) {
            /* correlation columns: extra keys (one group per outer value) */
            int c = ccols.cols.items[i];
            ag.groups[ag.n_groups] = sqe_expr_column(A, c, cur->out_types[c], cur->out_names[c]);
            sqe_ast_expr *col = sqe_arena_alloc(A, sizeof *col);
            col->kind = SQE_AST_COLUMN;
            col->u.column.n_parts = 1;
            col->u.column.parts = sqe_arena_alloc(A, sizeof(sqe_ident));
            col->u.column.parts[0].name = sqe_arena_sprintf(A, "_corr%d", i);
            ag.group_asts[ag.n_groups++] = col;
        }
        /* Collect aggregate calls. */
        bind_ctx ccx = cx;
        ccx.agg = &ag;
        ccx.collecting = true;
        for (size_t i = 0; i < items.len; i++)
            if (items.items[i].ast && !sqe_bind_collect_aggs(&ccx, items.items[i].ast, err))
                return NULL;
        if (q->having && !sqe_bind_collect_aggs(&ccx, q->having, err)) return NULL;
        for (int i = 0; i < q->n_order_by; i++)
            if (!sqe_bind_collect_aggs(&ccx, order_exprs[i], err)) return NULL;

        sqe_expr **agg_groups = ag.groups;
        /* GROUP BY () alone is a global aggregate: one row even for no input. */
        bool only_empty_set = q->n_grouping_sets == 1 && q->grouping_set_len[0] == 0;
        if (q->n_grouping_sets && !only_empty_set) {
            if (n_corr) {
                sqe_bind_error(err, SQE_ERR_NOT_SUPPORTED, q->pos,
                               "GROUPING SETS in a correlated subquery is not supported");
                return NULL;
            }
            cur = plan_group_id(A, q, &ag, cur, &agg_groups);
        }
        sqe_plan *agg = new_node(A, SQE_PLAN_AGGREGATE, cur, ag.n_groups + ag.n_aggs);
        agg->u.aggregate.n_groups = ag.n_groups;
        agg->u.aggregate.groups = agg_groups;
        if (ag.gid_col >= 0) plan_default_groups(A, q, ag.gid_col, agg);
        agg->u.aggregate.n_aggs = ag.n_aggs;
        agg->u.aggregate.aggs = ag.aggs;
        agg->u.aggregate.agg_args = ag.agg_args;
        for (int g = 0; g < ag.n_groups; g++) {
            agg->out_types[g] = ag.groups[g]->type;
            agg->out_names[g] = sqe_sql_expr_to_string(A, ag.group_asts[g]);
        }
        for (int i = 0; i < ag.n_aggs; i++) {
            agg->out_types[ag.n_groups + i] = ag.aggs[i].ret;
            agg->out_names[ag.n_groups + i] = ag.agg_keys[i];
        }
        consumer = agg;
        cur = agg;
        cx.agg = &ag;
        cx.scope = NULL;
        if (q->having) {
            cx.clause = "HAVING";
            sqe_expr *h = sqe_bind_expr(&cx, q->having, err);
            if (!h) return NULL;
            if (h->type.id != SQE_T_BOOLEAN) {
                char tb[64];
                sqe_bind_error(err, SQE_ERR_TYPE_MISMATCH, q->having->pos,
                               "HAVING clause must be boolean, got %s",
                               sqe_type_sql_name(h->type, tb, sizeof tb));
                return NULL;
            }
            if (sqe_expr_has_outer(h) && !split_having_corr(A, q, &h, &having_corr, err))
                return NULL;
            if (h) {
                sqe_plan *f = new_node(A, SQE_PLAN_FILTER, cur, cur->n_out);
                memcpy(f->out_types, cur->out_types, sizeof(sqe_type) * (size_t)cur->n_out);
                memcpy(f->out_names, cur->out_names, sizeof(char *) * (size_t)cur->n_out);
                f->u.filter.pred = h;
                cur = f;
            }
        }
    }

    /* Window functions: WINDOW nodes below the select list. */
    win_map wm;
    {
        size_t nr = items.len + (size_t)q->n_order_by;
        const sqe_ast_expr **roots = sqe_arena_alloc(A, sizeof(sqe_ast_expr *) * (nr + 1));
        size_t k = 0;
        for (size_t i = 0; i < items.len; i++)
            if (items.items[i].ast) roots[k++] = items.items[i].ast;
        for (int i = 0; i < q->n_order_by; i++) roots[k++] = order_exprs[i];
        cx.clause = "the select list";
        if (!(cur = sqe_plan_windows(&cx, cur, roots, (int)k, &wm, err))) return NULL;
        cx.win = &wm;
    }

    /* Select list */
    cx.clause = "the select list";
    for (size_t i = 0; i < items.len; i++) {
        item *it = &items.items[i];
        if (!it->ast) {
            if (has_agg) {
                /* SELECT * with GROUP BY: each column must be a key. */
                sqe_expr *c = sqe_expr_column(A, sc.cols[it->star_col].index,
                                              sc.cols[it->star_col].type, it->name);
                int found = -1;
                for (int g = 0; g < ag.n_groups; g++)
                    if (sqe_expr_equal(c, ag.groups[g])) found = g;
                if (found < 0) {
                    sqe_bind_error(err, SQE_ERR_USAGE, it->star_pos,
                                   "column '%s' must appear in the GROUP BY clause or be used in "
                                   "an aggregate function",
                                   it->name);
                    return NULL;
                }
                it->bound = sqe_expr_column(A, found, c->type, it->name);
            } else {
                it->bound = sqe_expr_column(A, sc.cols[it->star_col].index,
                                            sc.cols[it->star_col].type, it->name);
            }
            continue;
        }
        if (!(it->bound = sqe_bind_expr(&cx, it->ast, err))) return NULL;
    }
    if (!check_outer_refs(q, cc, &ag, err)) return NULL;
    if (cc) {
        /* Correlation columns follow the select list (kept by the final
         * projection); the conditions are rewritten over this output. */
        int n_map = 1;
        for (int i = 0; i < n_corr; i++)
            if (ccols.cols.items[i] + 1 > n_map) n_map = ccols.cols.items[i] + 1;
        int *map = sqe_arena_alloc(A, sizeof(int) * (size_t)n_map);
        for (int i = 0; i < n_map; i++) map[i] = -1;
        cc->n_visible = (int)items.len;
        for (int i = 0; i < n_corr; i++) {
            int c = ccols.cols.items[i];
            item it = {.star_col = -1, .name = sqe_arena_sprintf(A, "_corr%d", i)};
            sqe_type t = has_agg ? ag.groups[q->n_group_by + i]->type : cur->out_types[c];
            it.bound = sqe_expr_column(A, has_agg ? q->n_group_by + i : c, t, it.name);
            map[c] = (int)items.len;
            SQE_ARRAY_PUSH(A, items, it);
        }
        for (size_t i = 0; i < cc->conds.len; i++)
            cc->conds.items[i] = sqe_plan_expr_remap(A, cc->conds.items[i], map);
    }
    /* an aggregate without GROUP BY correlated by equalities: its group is
     * missing for an outer row without inner rows, where count() is 0 */
    bool global_agg = has_agg && q->n_group_by == 0 && !q->n_grouping_sets;
    bool counts = cc && global_agg && n_corr && corr_all_equalities(cc);
    if (cc && !defer_outer_items(A, q, cc, &items, global_agg, counts ? &ag : NULL, err))
        return NULL;
    for (size_t i = 0; i < having_corr.len; i++) /* over carried aggregate outputs */
        SQE_ARRAY_PUSH(A, cc->conds,
                       carry_copy(A, having_corr.items[i], &items, cc->n_visible, NULL));
    int n_visible = (int)items.len;

    /* ORDER BY keys: map to select items, adding hidden ones as needed. */
    sqe_sort_key *keys = sqe_arena_alloc(A, sizeof(sqe_sort_key) * (size_t)(q->n_order_by + 1));
    cx.clause = "ORDER BY";
    for (int k = 0; k < q->n_order_by; k++) {
        const sqe_ast_order_item *oi = &q->order_by[k];
        int idx = -1;
        if (is_ordinal(oi->expr)) {
            if ((idx = ordinal_of(oi->expr, n_visible, err, "ORDER BY")) < 0) return NULL;
        } else if (oi->expr->kind == SQE_AST_COLUMN && oi->expr->u.column.n_parts == 1) {
            const char *nm = oi->expr->u.column.parts[0].name;
            idx = item_by_name(A, items.items, n_visible, nm);
            if (idx == -2) {
                sqe_bind_error(err, SQE_ERR_USAGE, oi->expr->pos,
                               "column reference '%s' is ambiguous", nm);
                return NULL;
            }
        }
        if (idx < 0) {
            sqe_expr *b = sqe_bind_expr(&cx, order_exprs[k], err);
            if (!b) return NULL;
            for (size_t i = 0; i < items.len && idx < 0; i++)
                if (sqe_expr_equal(b, items.items[i].bound)) idx = (int)i;
            if (idx < 0) {
                if (q->distinct) {
                    sqe_bind_error(
                        err, SQE_ERR_USAGE, oi->expr->pos,
                        "for SELECT DISTINCT, ORDER BY expressions must appear in the select list");
                    return NULL;
                }
                item it = {.ast = order_exprs[k],
                           .bound = b,
                           .name = sqe_arena_sprintf(A, "_order%d", k),
                           .star_col = -1};
                SQE_ARRAY_PUSH(A, items, it);
                idx = (int)items.len - 1;
            }
        }
        keys[k].col = idx;
        keys[k].desc = oi->desc;
        keys[k].nulls_first = oi->nulls == 1; /* Trino: NULLS LAST unless asked */
    }

    if (cc && cc->deferred && !check_deferred_order(q, cc, keys, (item_list *)&items, err))
        return NULL;
    sqe_plan *proj = new_node(A, SQE_PLAN_PROJECT, cur, (int)items.len);
    proj->u.project.exprs = sqe_arena_alloc(A, sizeof(sqe_expr *) * (items.len ? items.len : 1));
    for (size_t i = 0; i < items.len; i++) {
        proj->u.project.exprs[i] = items.items[i].bound;
        proj->out_types[i] = items.items[i].bound->type;
        proj->out_names[i] = items.items[i].name;
    }
    if (!consumer) consumer = proj;
    cur = proj;
    if (scan && consumer && consumer->children[0] == scan) prune_scan_columns(A, scan, consumer);

    if (q->distinct) {
        sqe_plan *d = new_node(A, SQE_PLAN_AGGREGATE, cur, cur->n_out);
        d->u.aggregate.n_groups = cur->n_out;
        d->u.aggregate.groups =
            sqe_arena_alloc(A, sizeof(sqe_expr *) * (size_t)(cur->n_out ? cur->n_out : 1));
        for (int i = 0; i < cur->n_out; i++) {
            d->u.aggregate.groups[i] = sqe_expr_column(A, i, cur->out_types[i], cur->out_names[i]);
            d->out_types[i] = cur->out_types[i];
            d->out_names[i] = cur->out_names[i];
        }
        cur = d;
    }

    uint64_t limit = 0, offset = 0;
    bool has_limit = false;
    if (q->limit) {
        if (!sqe_plan_const_count(pl, q->limit, "LIMIT", &limit, err)) return NULL;
        has_limit = true;
    }
    if (q->offset && !sqe_plan_const_count(pl, q->offset, "OFFSET", &offset, err)) return NULL;

    if (n_corr && (has_limit || offset)) {
        /* per outer row: the first rows of each correlation group */
        cur = limit_per_group(&cx, cur, cc->n_visible, n_corr, q, keys, limit, offset, has_limit,
                              err);
        if (!cur) return NULL;
    } else if (q->n_order_by > 0) {
        sqe_plan *s = new_node(A, has_limit ? SQE_PLAN_TOPN : SQE_PLAN_SORT, cur, cur->n_out);
        memcpy(s->out_types, cur->out_types, sizeof(sqe_type) * (size_t)cur->n_out);
        memcpy(s->out_names, cur->out_names, sizeof(char *) * (size_t)cur->n_out);
        s->u.sort.n_keys = q->n_order_by;
        s->u.sort.keys = keys;
        s->u.sort.limit = limit;
        s->u.sort.offset = offset;
        cur = s;
        if (!has_limit && offset) {
            sqe_plan *l = new_node(A, SQE_PLAN_LIMIT, cur, cur->n_out);
            memcpy(l->out_types, cur->out_types, sizeof(sqe_type) * (size_t)cur->n_out);
            memcpy(l->out_names, cur->out_names, sizeof(char *) * (size_t)cur->n_out);
            l->u.limit.offset = offset;
            cur = l;
        }
    } else if (has_limit || offset) {
        sqe_plan *l = new_node(A, SQE_PLAN_LIMIT, cur, cur->n_out);
        memcpy(l->out_types, cur->out_types, sizeof(sqe_type) * (size_t)cur->n_out);
        memcpy(l->out_names, cur->out_names, sizeof(char *) * (size_t)cur->n_out);
        l->u.limit.has_limit = has_limit;
        l->u.limit.limit = limit;
        l->u.limit.offset = offset;
        cur = l;
    }

    if ((int)items.len > n_visible) {
        sqe_plan *fp = new_node(A, SQE_PLAN_PROJECT, cur, n_visible);
        fp->u.project.exprs =
            sqe_arena_alloc(A, sizeof(sqe_expr *) * (size_t)(n_visible ? n_visible : 1));
        for (int i = 0; i < n_visible; i++) {
            fp->u.project.exprs[i] = sqe_expr_column(A, i, cur->out_types[i], cur->out_names[i]);
            fp->out_types[i] = cur->out_types[i];
            fp->out_names[i] = cur->out_names[i];
        }
        cur = fp;
    }
    return cur;
}

/* ---------------------------------------------------- scan pushdown */

void sqe_plan_conjuncts(sqe_arena *a, sqe_expr *e, sqe_expr_list *out) {
    if (e->kind == SQE_EXPR_AND) {
        for (int i = 0; i < e->n_args; i++) sqe_plan_conjuncts(a, e->args[i], out);
        return;
    }
    SQE_ARRAY_PUSH(a, *out, e);
}

typedef struct col_use {
    int n_data;
    bool any_data, any_part;
    bool *used;
} col_use;

static void note_col(int *col, void *ctx) {
    col_use *u = ctx;
    if (*col < u->n_data)
        u->any_data = true;
    else
        u->any_part = true;
    if (u->used) u->used[*col] = true;
}

/* Deep copy with column indexes mapped through map[] (map[i] < 0: keep). */
sqe_expr *sqe_plan_expr_remap(sqe_arena *a, const sqe_expr *e, const int *map) {
    sqe_expr *c = sqe_arena_alloc(a, sizeof *c);
    *c = *e;
    if (e->n_args) {
        c->args = sqe_arena_alloc(a, sizeof(sqe_expr *) * (size_t)e->n_args);
        for (int i = 0; i < e->n_args; i++) c->args[i] = sqe_plan_expr_remap(a, e->args[i], map);
    }
    if (e->kind == SQE_EXPR_COLUMN && map[e->col] >= 0) c->col = map[e->col];
    return c;
}

sqe_expr *sqe_plan_expr_shift(sqe_arena *a, const sqe_expr *e, int delta) {
    sqe_expr *c = sqe_arena_alloc(a, sizeof *c);
    *c = *e;
    if (e->n_args) {
        c->args = sqe_arena_alloc(a, sizeof(sqe_expr *) * (size_t)e->n_args);
        for (int i = 0; i < e->n_args; i++) c->args[i] = sqe_plan_expr_shift(a, e->args[i], delta);
    }
    if (e->kind == SQE_EXPR_COLUMN) c->col += delta;
    return c;
}

/* Splits a WHERE predicate over scan columns into a partition filter (only
 * partition keys) and a row filter; derives listing pruning. */
bool sqe_plan_push_filter_into_scan(sqe_arena *a, sqe_plan *scan, sqe_expr *pred, sqe_error *err) {
    const sqe_hive_table *t = scan->u.scan.table;
    int nd = t->n_cols, n_all = nd + t->n_part_keys;
    sqe_expr_list conj = {0};
    sqe_plan_conjuncts(a, pred, &conj);
    int *to_key = sqe_arena_alloc(a, sizeof(int) * (size_t)(n_all ? n_all : 1));
    for (int i = 0; i < n_all; i++) to_key[i] = i < nd ? -1 : i - nd;
    for (size_t i = 0; i < conj.len; i++) {
        sqe_expr *c = conj.items[i];
        col_use u = {.n_data = nd};
        sqe_expr_visit_cols(c, note_col, &u);
        if (u.any_part && !u.any_data) {
            sqe_plan_add_part_pred(a, scan, c);
            scan->u.scan.partition_filter =
                sqe_bind_and(a, scan->u.scan.partition_filter, sqe_plan_expr_remap(a, c, to_key));
        } else if (c->kind == SQE_EXPR_CONST && !c->value.is_null && c->value.v.b) {
            /* WHERE true: nothing to do */
        } else {
            scan->u.scan.filter = sqe_bind_and(a, scan->u.scan.filter, c);
        }
    }
    SQE_UNUSED(err);
    return true;
}

static void collect_plan_exprs(sqe_plan *consumer, void (*fn)(int *, void *), void *ctx) {
    if (consumer->kind == SQE_PLAN_PROJECT) {
        for (int i = 0; i < consumer->n_out; i++)
            sqe_expr_visit_cols(consumer->u.project.exprs[i], fn, ctx);
    } else if (consumer->kind == SQE_PLAN_AGGREGATE) {
        for (int i = 0; i < consumer->u.aggregate.n_groups; i++)
            sqe_expr_visit_cols(consumer->u.aggregate.groups[i], fn, ctx);
        for (int i = 0; i < consumer->u.aggregate.n_aggs; i++)
            sqe_expr_visit_cols(consumer->u.aggregate.agg_args[i], fn, ctx);
    }
}

/* Projection pushdown: the scan reads only the columns its filter and its
 * consumer reference. Expressions are rewritten in place; the consumer's
 * trees are private to it (built by this planner for this query level). */
static void prune_scan_columns(sqe_arena *a, sqe_plan *scan, sqe_plan *consumer) {
    int n_all = scan->n_out;
    col_use u = {.n_data = n_all,
                 .used = sqe_arena_alloc(a, sizeof(bool) * (size_t)(n_all ? n_all : 1))};
    sqe_expr_visit_cols(scan->u.scan.filter, note_col, &u);
    collect_plan_exprs(consumer, note_col, &u);
    int *map = sqe_arena_alloc(a, sizeof(int) * (size_t)(n_all ? n_all : 1));
    int n = 0;
    for (int i = 0; i < n_all; i++) map[i] = u.used[i] ? n++ : -1;
    int *cols = sqe_arena_alloc(a, sizeof(int) * (size_t)(n ? n : 1));
    sqe_type *types = sqe_arena_alloc(a, sizeof(sqe_type) * (size_t)(n ? n : 1));
    const char **names = sqe_arena_alloc(a, sizeof(char *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n_all; i++) {
        if (map[i] < 0) continue;
        cols[map[i]] = scan->u.scan.cols[i];
        types[map[i]] = scan->out_types[i];
        names[map[i]] = scan->out_names[i];
    }
    /* Rewrite by copying (trees may share nodes, e.g. nullif). */
    if (scan->u.scan.filter) scan->u.scan.filter = sqe_plan_expr_remap(a, scan->u.scan.filter, map);
    if (consumer->kind == SQE_PLAN_PROJECT) {
        for (int i = 0; i < consumer->n_out; i++)
            consumer->u.project.exprs[i] =
                sqe_plan_expr_remap(a, consumer->u.project.exprs[i], map);
    } else {
        for (int i = 0; i < consumer->u.aggregate.n_groups; i++)
            consumer->u.aggregate.groups[i] =
                sqe_plan_expr_remap(a, consumer->u.aggregate.groups[i], map);
        for (int i = 0; i < consumer->u.aggregate.n_aggs; i++)
            if (consumer->u.aggregate.agg_args[i])
                consumer->u.aggregate.agg_args[i] =
                    sqe_plan_expr_remap(a, consumer->u.aggregate.agg_args[i], map);
    }
    scan->n_out = n;
    scan->u.scan.n_cols = n;
    scan->u.scan.cols = cols;
    scan->out_types = types;
    scan->out_names = names;
}

/* ------------------------------------------------------------- entry */

sqe_plan *sqe_plan_query(sqe_arena *arena, sqe_hive_catalog *cat, const sqe_ast_query *q,
                         sqe_error *err) {
    return sqe_plan_query_in_zone(arena, cat, 0, q, err);
}

sqe_plan *sqe_plan_query_in_zone(sqe_arena *arena, sqe_hive_catalog *cat, uint16_t zone,
                                 const sqe_ast_query *q, sqe_error *err) {
    planner pl = {.arena = arena, .cat = cat, .stmt = {.clock = INT64_MIN, .zone = zone}};
    sqe_plan *p = sqe_plan_query_expr(&pl, q, err);
    if (!p) {
        for (size_t i = 0; i < pl.tables.len; i++) sqe_hive_table_free(pl.tables.items[i]);
        SQE_ARRAY_FREE(pl.tables);
        return NULL;
    }
    /* Tables are owned by their scan nodes from here on. */
    SQE_ARRAY_FREE(pl.tables);
    sqe_plan_order_joins(&pl, p);
    sqe_plan_prune_columns(arena, p);
    sqe_plan_choose_build_sides(arena, p);
    sqe_plan_mark_lazy_scans(p);
    return p;
}
