/*
 * window_bind.c - window function calls of a select list (and ORDER BY)
 * become WINDOW nodes between the query's input (or its aggregation) and
 * the final projection.
 *
 *   sqe_plan_windows
 *     win_collect        every f(...) OVER (...) in the roots, in order
 *     win_bind_call      arguments, PARTITION BY, ORDER BY, frame and the
 *                        function (ranking / value / aggregate) bound in the
 *                        clause's context (post-aggregation when grouped)
 *     one WINDOW node per distinct (PARTITION BY, ORDER BY), stacked: each
 *     appends its function columns to the right, so every index below
 *     stays valid; the win_map tells the binder which column a call is
 *
 * Defaults follow Trino: without a frame clause the frame is RANGE
 * UNBOUNDED PRECEDING .. CURRENT ROW when there is an ORDER BY, else the
 * whole partition; ORDER BY keys sort NULLS LAST.
 */
#include "plan_int.h"

#include <stdio.h>
#include <string.h>

typedef SQE_ARRAY(const sqe_ast_expr *) win_ast_list;

static void win_collect(sqe_arena *a, const sqe_ast_expr *e, win_ast_list *out);

static void win_collect_list(sqe_arena *a, sqe_ast_expr **xs, int n, win_ast_list *out) {
    for (int i = 0; i < n; i++) win_collect(a, xs[i], out);
}

static void win_collect(sqe_arena *a, const sqe_ast_expr *e, win_ast_list *out) {
    if (!e) return;
    switch (e->kind) {
    case SQE_AST_FUNCTION:
        if (e->u.func.over) {
            SQE_ARRAY_PUSH(a, *out, e);
            return;
        }
        win_collect_list(a, e->u.func.args, e->u.func.n_args, out);
        return;
    case SQE_AST_UNARY:
        win_collect(a, e->u.unary.arg, out);
        return;
    case SQE_AST_BINARY:
        win_collect(a, e->u.binary.left, out);
        win_collect(a, e->u.binary.right, out);
        return;
    case SQE_AST_CASE:
        win_collect(a, e->u.case_.operand, out);
        for (int i = 0; i < e->u.case_.n_whens; i++) {
            win_collect(a, e->u.case_.whens[i].cond, out);
            win_collect(a, e->u.case_.whens[i].result, out);
        }
        win_collect(a, e->u.case_.else_, out);
        return;
    case SQE_AST_CAST:
        win_collect(a, e->u.cast.arg, out);
        return;
    case SQE_AST_IN_LIST:
        win_collect(a, e->u.in_list.arg, out);
        win_collect_list(a, e->u.in_list.items, e->u.in_list.n_items, out);
        return;
    case SQE_AST_BETWEEN:
        win_collect(a, e->u.between.arg, out);
        win_collect(a, e->u.between.low, out);
        win_collect(a, e->u.between.high, out);
        return;
    case SQE_AST_LIKE:
        win_collect(a, e->u.like.arg, out);
        win_collect(a, e->u.like.pattern, out);
        return;
    case SQE_AST_IS_NULL:
        win_collect(a, e->u.is_null.arg, out);
        return;
    case SQE_AST_IS_DISTINCT:
        win_collect(a, e->u.is_distinct.left, out);
        win_collect(a, e->u.is_distinct.right, out);
        return;
    default:
        return;
    }
}

bool sqe_plan_has_windows(sqe_arena *a, const sqe_ast_expr *e) {
    win_ast_list l = {0};
    win_collect(a, e, &l);
    return l.len > 0;
}

static const struct {
    const char *name;
    sqe_window_kind kind;
    int min_args, max_args;
} k_window_funcs[] = {
    {"row_number", SQE_WIN_ROW_NUMBER, 0, 0},
    {"rank", SQE_WIN_RANK, 0, 0},
    {"dense_rank", SQE_WIN_DENSE_RANK, 0, 0},
    {"percent_rank", SQE_WIN_PERCENT_RANK, 0, 0},
    {"cume_dist", SQE_WIN_CUME_DIST, 0, 0},
    {"ntile", SQE_WIN_NTILE, 1, 1},
    {"lag", SQE_WIN_LAG, 1, 3},
    {"lead", SQE_WIN_LEAD, 1, 3},
    {"first_value", SQE_WIN_FIRST_VALUE, 1, 1},
    {"last_value", SQE_WIN_LAST_VALUE, 1, 1},
    {"nth_value", SQE_WIN_NTH_VALUE, 2, 2},
};

static sqe_expr *win_bind_bigint(bind_ctx *cx, const sqe_ast_expr *e, const char *what,
                                 sqe_error *err) {
    sqe_expr *b = sqe_bind_expr(cx, e, err);
    if (!b) return NULL;
    if (!sqe_type_is_integer(b->type) && b->type.id != SQE_T_NULL) {
        char tb[64];
        return sqe_bind_error(err, SQE_ERR_TYPE_MISMATCH, e->pos, "%s must be an integer, got %s",
                              what, sqe_type_sql_name(b->type, tb, sizeof tb)),
               NULL;
    }
    return sqe_bind_coerce(cx, b, sqe_type_make(SQE_T_BIGINT), err);
}

/* The function part of a window call: kind, arguments, result type. */
static bool win_bind_func(bind_ctx *cx, const sqe_ast_expr *e, sqe_window_func *f, sqe_error *err) {
    char name[64];
    snprintf(name, sizeof name, "%s", e->u.func.name.parts[e->u.func.name.n_parts - 1].name);
    sqe_str_lower(name);
    int n = e->u.func.n_args;
    for (size_t i = 0; i < sizeof k_window_funcs / sizeof k_window_funcs[0]; i++) {
        if (strcmp(name, k_window_funcs[i].name) != 0) continue;
        if (n < k_window_funcs[i].min_args || n > k_window_funcs[i].max_args || e->u.func.star)
            return sqe_bind_error(err, SQE_ERR_TYPE_MISMATCH, e->pos,
                                  "window function %s takes %d to %d arguments, got %d", name,
                                  k_window_funcs[i].min_args, k_window_funcs[i].max_args, n);
        if (e->u.func.filter)
            return sqe_bind_error(err, SQE_ERR_USAGE, e->pos,
                                  "FILTER is only allowed for aggregate window functions");
        f->kind = k_window_funcs[i].kind;
        f->n_args = n;
        f->args = sqe_arena_alloc(cx->arena, sizeof(sqe_expr *) * (size_t)(n ? n : 1));
        bool value_fn = f->kind >= SQE_WIN_LAG;
        if (e->u.func.ignore_nulls && !value_fn)
            return sqe_bind_error(err, SQE_ERR_USAGE, e->pos, "IGNORE NULLS is not allowed for %s",
                                  name);
        f->ignore_nulls = e->u.func.ignore_nulls;
        for (int a = 0; a < n; a++) {
            bool count_arg = (f->kind == SQE_WIN_NTILE && a == 0) ||
                             ((f->kind == SQE_WIN_LAG || f->kind == SQE_WIN_LEAD) && a == 1) ||
                             (f->kind == SQE_WIN_NTH_VALUE && a == 1);
            f->args[a] = count_arg ? win_bind_bigint(cx, e->u.func.args[a], name, err)
                                   : sqe_bind_expr(cx, e->u.func.args[a], err);
            if (!f->args[a]) return false;
        }
        if (f->kind <= SQE_WIN_DENSE_RANK || f->kind == SQE_WIN_NTILE)
            f->type = sqe_type_make(SQE_T_BIGINT);
        else if (f->kind == SQE_WIN_PERCENT_RANK || f->kind == SQE_WIN_CUME_DIST)
            f->type = sqe_type_make(SQE_T_DOUBLE);
        else
            f->type = f->args[0]->type;
        if ((f->kind == SQE_WIN_LAG || f->kind == SQE_WIN_LEAD) && n == 3) {
            sqe_type t;
            if (!sqe_type_common(f->args[0]->type, f->args[2]->type, &t))
                return sqe_bind_error(err, SQE_ERR_TYPE_MISMATCH, e->pos,
                                      "%s default value has the wrong type", name);
            f->type = t;
            if (!(f->args[0] = sqe_bind_coerce(cx, f->args[0], t, err)) ||
                !(f->args[2] = sqe_bind_coerce(cx, f->args[2], t, err)))
                return false;
        }
        if (f->type.id == SQE_T_NULL) f->type = sqe_type_make(SQE_T_BOOLEAN);
        return true;
    }
    /* An aggregate over the frame. */
    if (e->u.func.ignore_nulls)
        return sqe_bind_error(err, SQE_ERR_USAGE, e->pos, "IGNORE NULLS is not allowed for %s",
                              name);
    if (n > 1)
        return sqe_bind_error(err, SQE_ERR_TYPE_MISMATCH, e->pos,
                              "aggregate function %s takes one argument, got %d", name, n);
    sqe_expr *arg = NULL;
    if (!e->u.func.star) {
        if (n == 0)
            return sqe_bind_error(err, SQE_ERR_NOT_FOUND, e->pos,
                                  "function %s() is not a window or aggregate function", name);
        if (!(arg = sqe_bind_expr(cx, e->u.func.args[0], err))) return false;
    }
    sqe_type at = arg ? arg->type : sqe_type_make(SQE_T_NULL);
    sqe_error ferr;
    if (!sqe_func_bind_aggregate(cx->arena, name, e->u.func.distinct, e->u.func.star, arg ? 1 : 0,
                                 &at, &f->agg, &ferr))
        return sqe_bind_error(err, ferr.cls, e->pos, "%s", ferr.msg);
    if (arg && !(arg = sqe_bind_coerce(cx, arg, f->agg.arg_type, err))) return false;
    f->kind = SQE_WIN_AGGREGATE;
    f->type = f->agg.ret;
    f->n_args = arg ? 1 : 0;
    f->args = sqe_arena_alloc(cx->arena, sizeof(sqe_expr *));
    f->args[0] = arg;
    if (e->u.func.filter) {
        sqe_expr *c = sqe_bind_expr(cx, e->u.func.filter, err);
        if (!c) return false;
        if (c->type.id != SQE_T_BOOLEAN)
            return sqe_bind_error(err, SQE_ERR_TYPE_MISMATCH, e->u.func.filter->pos,
                                  "FILTER condition must be boolean");
        f->filter = c;
    }
    return true;
}

static bool win_bind_edge(bind_ctx *cx, const sqe_ast_frame_bound *b, sqe_frame_type ft,
                          sqe_type order_type, sqe_frame_edge *out, sqe_error *err) {
    out->kind = b->kind;
    if (!b->offset) return true;
    sqe_expr *o = sqe_bind_expr(cx, b->offset, err);
    if (!o) return false;
    sqe_type want = ft == SQE_FRAME_T_RANGE ? order_type : sqe_type_make(SQE_T_BIGINT);
    if (ft != SQE_FRAME_T_RANGE && !sqe_type_is_integer(o->type))
        return sqe_bind_error(err, SQE_ERR_TYPE_MISMATCH, b->offset->pos,
                              "window frame offset must be an integer");
    if (ft == SQE_FRAME_T_RANGE && !sqe_type_is_numeric(order_type))
        return sqe_bind_error(err, SQE_ERR_NOT_SUPPORTED, b->offset->pos,
                              "RANGE with an offset needs a numeric ORDER BY key");
    if (ft == SQE_FRAME_T_RANGE) {
        sqe_type t;
        if (sqe_type_common(o->type, order_type, &t)) want = t;
    }
    return (out->offset = sqe_bind_coerce(cx, o, want, err)) != NULL;
}

/* The frame of one call (plan.h defaults). */
static bool win_bind_frame(bind_ctx *cx, const sqe_ast_window *w, const sqe_expr *first_order,
                           sqe_window_func *f, sqe_error *err) {
    if (w->unit == SQE_FRAME_DEFAULT) {
        f->frame = w->n_order ? SQE_FRAME_T_RANGE : SQE_FRAME_T_ROWS;
        f->start.kind = SQE_BOUND_UNBOUNDED_PRECEDING;
        f->end.kind = w->n_order ? SQE_BOUND_CURRENT_ROW : SQE_BOUND_UNBOUNDED_FOLLOWING;
        return true;
    }
    f->frame = w->unit == SQE_FRAME_ROWS    ? SQE_FRAME_T_ROWS
               : w->unit == SQE_FRAME_RANGE ? SQE_FRAME_T_RANGE
                                            : SQE_FRAME_T_GROUPS;
    bool has_offset = w->start.offset || w->end.offset;
    if (f->frame == SQE_FRAME_T_RANGE && has_offset && w->n_order != 1)
        return sqe_bind_error(err, SQE_ERR_USAGE, w->pos,
                              "Window frame of type RANGE PRECEDING or FOLLOWING requires a "
                              "single sort item in ORDER BY");
    if (f->frame == SQE_FRAME_T_GROUPS && w->n_order == 0)
        return sqe_bind_error(err, SQE_ERR_USAGE, w->pos,
                              "Window frame of type GROUPS requires ORDER BY");
    sqe_type ot = first_order ? first_order->type : sqe_type_make(SQE_T_BIGINT);
    return win_bind_edge(cx, &w->start, f->frame, ot, &f->start, err) &&
           win_bind_edge(cx, &w->end, f->frame, ot, &f->end, err);
}

/* A spec's identity: its PARTITION BY and ORDER BY as text. */
static char *win_spec_key(sqe_arena *a, const sqe_ast_window *w) {
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    for (int i = 0; i < w->n_partition; i++)
        sqe_strbuf_printf(&sb, "P%s|", sqe_sql_expr_to_string(a, w->partition[i]));
    for (int i = 0; i < w->n_order; i++)
        sqe_strbuf_printf(&sb, "O%s %d %d|", sqe_sql_expr_to_string(a, w->order[i].expr),
                          w->order[i].desc, w->order[i].nulls);
    char *k = sqe_arena_strdup(a, sb.data ? sb.data : "");
    sqe_strbuf_free(&sb);
    return k;
}

/* A WINDOW node over cur for the spec of calls[0], with every call of the
 * same spec among calls[first..n) (done[] marks them). */
static sqe_plan *win_node(bind_ctx *cx, sqe_plan *cur, const sqe_ast_expr **calls, int n, int first,
                          bool *done, win_map *map, sqe_error *err) {
    sqe_arena *A = cx->arena;
    const sqe_ast_window *w = calls[first]->u.func.over;
    char *key = win_spec_key(A, w);
    /* A subquery in the spec or an argument stacks a join on the input
     * (cx->subq->cur): the node goes over whatever that input ends up as. */
    sqe_plan *in = cur;
    subq_ctx sq = {cx->subq ? cx->subq->pl : NULL, &in};
    bind_ctx wcx = *cx;
    if (cx->subq) wcx.subq = &sq;
    cx = &wcx;
    sqe_plan *p = sqe_plan_unary_new(A, SQE_PLAN_WINDOW, NULL, 0);
    p->u.window.n_partition = w->n_partition;
    p->u.window.partition = sqe_arena_alloc(A, sizeof(sqe_expr *) * (size_t)(w->n_partition + 1));
    for (int i = 0; i < w->n_partition; i++)
        if (!(p->u.window.partition[i] = sqe_bind_expr(cx, w->partition[i], err))) return NULL;
    p->u.window.n_order = w->n_order;
    p->u.window.order = sqe_arena_alloc(A, sizeof(sqe_expr *) * (size_t)(w->n_order + 1));
    p->u.window.order_keys = sqe_arena_alloc(A, sizeof(sqe_sort_key) * (size_t)(w->n_order + 1));
    for (int i = 0; i < w->n_order; i++) {
        if (!(p->u.window.order[i] = sqe_bind_expr(cx, w->order[i].expr, err))) return NULL;
        p->u.window.order_keys[i] = (sqe_sort_key){i, w->order[i].desc, w->order[i].nulls == 1};
    }
    SQE_ARRAY(sqe_window_func) funcs = {0};
    for (int c = first; c < n; c++) {
        if (done[c] || strcmp(win_spec_key(A, calls[c]->u.func.over), key) != 0) continue;
        sqe_window_func f;
        memset(&f, 0, sizeof f);
        if (!win_bind_func(cx, calls[c], &f, err)) return NULL;
        if (!win_bind_frame(cx, calls[c]->u.func.over, w->n_order ? p->u.window.order[0] : NULL, &f,
                            err))
            return NULL;
        done[c] = true;
        map->asts[map->n] = calls[c];
        map->cols[map->n] = cur->n_out + (int)funcs.len;
        map->types[map->n] = f.type;
        map->n++;
        SQE_ARRAY_PUSH(A, funcs, f);
    }
    p->u.window.n_funcs = (int)funcs.len;
    p->u.window.funcs = funcs.items;
    if (in != cur) /* joins added columns after cur's: the calls' columns move right */
        for (int i = map->n - (int)funcs.len; i < map->n; i++)
            map->cols[i] += in->n_out - cur->n_out;
    cur = in;
    p->n_children = 1;
    p->children = sqe_arena_alloc(A, sizeof(sqe_plan *));
    p->children[0] = cur;
    int nout = cur->n_out + (int)funcs.len;
    p->n_out = nout;
    p->out_types = sqe_arena_alloc(A, sizeof(sqe_type) * (size_t)nout);
    p->out_names = sqe_arena_alloc(A, sizeof(char *) * (size_t)nout);
    memcpy(p->out_types, cur->out_types, sizeof(sqe_type) * (size_t)cur->n_out);
    memcpy(p->out_names, cur->out_names, sizeof(char *) * (size_t)cur->n_out);
    for (size_t i = 0; i < funcs.len; i++) {
        p->out_types[cur->n_out + i] = funcs.items[i].type;
        p->out_names[cur->n_out + i] = sqe_arena_sprintf(A, "_win%zu", i);
    }
    return p;
}

sqe_plan *sqe_plan_windows(bind_ctx *cx, sqe_plan *cur, const sqe_ast_expr *const *roots,
                           int n_roots, win_map *map, sqe_error *err) {
    sqe_arena *A = cx->arena;
    win_ast_list calls = {0};
    for (int i = 0; i < n_roots; i++) win_collect(A, roots[i], &calls);
    memset(map, 0, sizeof *map);
    if (!calls.len) return cur;
    int n = (int)calls.len;
    map->asts = sqe_arena_alloc(A, sizeof(sqe_ast_expr *) * (size_t)n);
    map->cols = sqe_arena_alloc(A, sizeof(int) * (size_t)n);
    map->types = sqe_arena_alloc(A, sizeof(sqe_type) * (size_t)n);
    bool *done = sqe_arena_alloc(A, (size_t)n);
    bind_ctx wcx = *cx;
    wcx.win = NULL; /* a window call inside a window call is an error */
    wcx.clause = "a window specification";
    for (int c = 0; c < n; c++) {
        if (done[c]) continue;
        if (!(cur = win_node(&wcx, cur, calls.items, n, c, done, map, err))) return NULL;
    }
    return cur;
}
