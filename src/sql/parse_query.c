/*
 * parse_query.c - query expressions: WITH, set operations, VALUES, SELECT
 * bodies, FROM items and joins, ORDER BY / LIMIT / OFFSET / FETCH.
 *
 *   query      := [WITH name [(col, ...)] AS ( query ), ...]
 *                 set_expr [ORDER BY order_item, ...] (in any order, once each:)
 *                 [OFFSET n [ROW|ROWS]] [LIMIT n|ALL | FETCH FIRST|NEXT [n] ROW|ROWS ONLY]
 *   set_expr   := set_term { (UNION|EXCEPT) [ALL|DISTINCT] set_term }
 *   set_term   := query_prim { INTERSECT [ALL|DISTINCT] query_prim }
 *   query_prim := select_body | VALUES row, ... | '(' query ')'
 *   row        := '(' expr, ... ')' | expr
 *   select_body:= SELECT [DISTINCT|ALL] item, ... [FROM from, ...] [WHERE e]
 *                 [GROUP BY ...  (parse_group.c)] [HAVING e]
 *                 [WINDOW name AS (spec), ...  (parse_window.c)]
 *   from       := primary { [join] JOIN primary ON e | USING (c, ...) }
 *   primary    := table [[AS] alias [(col, ...)]]
 *               | '(' query ')' [[AS] alias [(col, ...)]] | '(' from ')'
 *
 * Set operations form a tree (SQE_QUERY_SET nodes): INTERSECT binds tighter
 * than UNION and EXCEPT, which associate to the left. WITH, and a trailing
 * ORDER BY / LIMIT, belong to the whole query expression (the top node). A
 * parenthesized query takes a following ORDER BY / LIMIT / OFFSET only if it
 * has none of its own, and a WITH in front of it joins its own WITH list.
 *
 * VALUES rows: `VALUES 1, 2` is two rows of one column, `VALUES (1, 'a')`
 * one row of two; "(...)" followed by more expression ("(1) + 2") is an
 * expression, not a row (sqe_p_paren_is_element decides by looking past the
 * matching ')').
 */
#include "sql_int.h"

#include <string.h>

static bool is_word(sqe_parser *p, int ahead, const char *kw) {
    return sqe_p_is(p, ahead, kw);
}

/* Reserved words that can start an expression (a VALUES row). */
static bool starts_expr_word(const sqe_token *t) {
    static const char *const words[] = {"null", "true", "false", "case", "cast", "exists", "not"};
    for (size_t i = 0; i < SQE_ARRAY_LEN(words); i++)
        if (sqe_p_tok_is(t, words[i])) return true;
    return false;
}

bool sqe_p_starts_values(sqe_parser *p, int ahead) {
    if (!is_word(p, ahead, "values")) return false;
    const sqe_token *t = sqe_p_peek(p, ahead + 1);
    switch (t->kind) {
    case SQE_TK_LPAREN:
    case SQE_TK_INTEGER:
    case SQE_TK_DECIMAL:
    case SQE_TK_DOUBLE:
    case SQE_TK_STRING:
    case SQE_TK_PLUS:
    case SQE_TK_MINUS:
        return true;
    case SQE_TK_IDENT: {
        sqe_tok_kind k2 = sqe_p_peek(p, ahead + 2)->kind;
        return starts_expr_word(t) || k2 == SQE_TK_STRING || k2 == SQE_TK_LPAREN;
    }
    default:
        return false;
    }
}

bool sqe_p_starts_query(sqe_parser *p, int ahead) {
    int i = ahead;
    while (sqe_p_peek(p, i)->kind == SQE_TK_LPAREN) {
        if (i - ahead > SQE_SQL_MAX_DEPTH) return false;
        i++;
    }
    return is_word(p, i, "select") || is_word(p, i, "with") || sqe_p_starts_values(p, i);
}

static sqe_ast_query *parse_select_body(sqe_parser *p);
static sqe_ast_query *parse_values(sqe_parser *p);
static sqe_ast_from *parse_from_list(sqe_parser *p);
static sqe_ast_from *parse_join_expr(sqe_parser *p);

static sqe_ast_query *parse_query_prim(sqe_parser *p) {
    if (sqe_p_peek(p, 0)->kind == SQE_TK_LPAREN) {
        sqe_p_next(p);
        sqe_ast_query *q = sqe_p_parse_query(p);
        if (!q || !sqe_p_expect_tok(p, SQE_TK_RPAREN, "')'")) return NULL;
        return q;
    }
    if (is_word(p, 0, "values")) return parse_values(p);
    return parse_select_body(p);
}

static sqe_ast_expr *parse_count(sqe_parser *p, const char *what) {
    sqe_token *t = sqe_p_peek(p, 0);
    if (t->kind != SQE_TK_INTEGER) return sqe_p_error_expected(p, what), NULL;
    sqe_p_next(p);
    sqe_ast_expr *e = sqe_arena_alloc(p->arena, sizeof *e);
    e->kind = SQE_AST_LITERAL;
    e->pos = t->pos;
    e->u.lit.kind = SQE_LIT_INTEGER;
    e->u.lit.text = t->text;
    return e;
}

bool sqe_p_parse_order_items(sqe_parser *p, int *n_out, sqe_ast_order_item **out) {
    SQE_ARRAY(sqe_ast_order_item) items = {0};
    do {
        sqe_ast_order_item it = {0};
        if (!(it.expr = sqe_p_parse_expr(p))) return false;
        if (sqe_p_accept(p, "desc"))
            it.desc = true;
        else
            sqe_p_accept(p, "asc");
        if (sqe_p_accept(p, "nulls")) {
            if (sqe_p_accept(p, "first"))
                it.nulls = 1;
            else if (sqe_p_accept(p, "last"))
                it.nulls = 2;
            else
                return sqe_p_error_expected(p, "FIRST or LAST");
        }
        SQE_ARRAY_PUSH(p->arena, items, it);
    } while (sqe_p_accept_tok(p, SQE_TK_COMMA));
    *n_out = (int)items.len;
    *out = items.items;
    return true;
}

/* ORDER BY / OFFSET / LIMIT / FETCH after a query expression. */
static bool parse_query_tail(sqe_parser *p, sqe_ast_query *q) {
    if (is_word(p, 0, "order")) {
        if (q->n_order_by)
            return sqe_p_not_supported(
                p, "ORDER BY on a parenthesized query that has its own ORDER BY is not supported");
        sqe_p_next(p);
        if (!sqe_p_expect(p, "BY") || !sqe_p_parse_order_items(p, &q->n_order_by, &q->order_by))
            return false;
    }
    bool have_limit = false, have_offset = false;
    for (;;) {
        if (!have_offset && is_word(p, 0, "offset")) {
            if (q->offset)
                return sqe_p_not_supported(
                    p, "OFFSET on a parenthesized query that has its own OFFSET is not supported");
            sqe_p_next(p);
            if (!(q->offset = parse_count(p, "integer"))) return false;
            if (!sqe_p_accept(p, "rows")) sqe_p_accept(p, "row");
            have_offset = true;
        } else if (!have_limit && (is_word(p, 0, "limit") || is_word(p, 0, "fetch"))) {
            if (q->limit)
                return sqe_p_not_supported(
                    p, "LIMIT on a parenthesized query that has its own LIMIT is not supported");
            if (sqe_p_accept(p, "limit")) {
                if (!sqe_p_accept(p, "all") && !(q->limit = parse_count(p, "integer or ALL")))
                    return false;
            } else {
                sqe_p_next(p); /* FETCH */
                if (!sqe_p_accept(p, "first") && !sqe_p_accept(p, "next"))
                    return sqe_p_error_expected(p, "FIRST or NEXT");
                if (sqe_p_peek(p, 0)->kind == SQE_TK_INTEGER) {
                    q->limit = parse_count(p, "integer");
                } else {
                    q->limit = sqe_arena_alloc(p->arena, sizeof *q->limit);
                    q->limit->kind = SQE_AST_LITERAL;
                    q->limit->pos = sqe_p_peek(p, 0)->pos;
                    q->limit->u.lit.kind = SQE_LIT_INTEGER;
                    q->limit->u.lit.text = "1";
                }
                if (!sqe_p_accept(p, "rows") && !sqe_p_accept(p, "row"))
                    return sqe_p_error_expected(p, "ROW or ROWS");
                if (!sqe_p_expect(p, "ONLY")) return false;
            }
            have_limit = true;
        } else {
            break;
        }
    }
    return true;
}

/* Accepts a set operator of the given precedence level: 1 = UNION/EXCEPT,
 * 2 = INTERSECT; sets *op and *all. */
static bool accept_set_op(sqe_parser *p, int level, sqe_set_op *op, bool *all) {
    if (level == 2 && sqe_p_accept(p, "intersect"))
        *op = SQE_SET_INTERSECT;
    else if (level == 1 && sqe_p_accept(p, "union"))
        *op = SQE_SET_UNION;
    else if (level == 1 && sqe_p_accept(p, "except"))
        *op = SQE_SET_EXCEPT;
    else
        return false;
    *all = sqe_p_accept(p, "all");
    if (!*all) sqe_p_accept(p, "distinct");
    return true;
}

/* level 2: query_prim { INTERSECT query_prim }; level 1: level-2 terms
 * joined by UNION / EXCEPT, left-associative. */
static sqe_ast_query *parse_set_expr(sqe_parser *p, int level) {
    sqe_ast_query *left = level == 2 ? parse_query_prim(p) : parse_set_expr(p, 2);
    if (!left) return NULL;
    for (;;) {
        sqe_pos pos = sqe_p_peek(p, 0)->pos;
        sqe_set_op op;
        bool all;
        if (!accept_set_op(p, level, &op, &all)) break;
        if (!sqe_p_count_rel_op(p, pos)) return NULL;
        sqe_ast_query *right = level == 2 ? parse_query_prim(p) : parse_set_expr(p, 2);
        if (!right) return NULL;
        sqe_ast_query *q = sqe_arena_alloc(p->arena, sizeof *q);
        q->pos = left->pos;
        q->kind = SQE_QUERY_SET;
        q->set_op = op;
        q->set_all = all;
        q->set_left = left;
        q->set_right = right;
        left = q;
    }
    return left;
}

/* WITH [RECURSIVE] name [(col, ...)] AS ( query ), ... ; WITH is next. */
static bool parse_with(sqe_parser *p, int *n_out, sqe_ast_cte **out) {
    sqe_p_next(p);
    /* RECURSIVE is a keyword when a name follows it: WITH recursive AS (...)
     * names a query `recursive`. */
    if (is_word(p, 0, "recursive") && sqe_p_tok_is_ident(sqe_p_peek(p, 1)))
        return sqe_p_not_supported(p, "WITH RECURSIVE is not supported");
    SQE_ARRAY(sqe_ast_cte) ctes = {0};
    sqe_strmap *names = sqe_strmap_new(); /* duplicate check */
    bool ok = false;
    do {
        sqe_ast_cte c = {0};
        if (!sqe_p_parse_ident(p, &c.name, "query name")) goto out;
        if (sqe_strmap_put(names, sqe_p_ident_key(p, &c.name), names)) {
            sqe_p_error_at(p, c.name.pos, "WITH query name '%s' specified more than once",
                           c.name.name);
            goto out;
        }
        if (sqe_p_peek(p, 0)->kind == SQE_TK_LPAREN &&
            !sqe_p_parse_column_aliases(p, &c.n_cols, &c.cols))
            goto out;
        if (!sqe_p_expect(p, "AS") || !sqe_p_expect_tok(p, SQE_TK_LPAREN, "'('")) goto out;
        if (!(c.query = sqe_p_parse_query(p))) goto out;
        if (!sqe_p_expect_tok(p, SQE_TK_RPAREN, "')'")) goto out;
        SQE_ARRAY_PUSH(p->arena, ctes, c);
    } while (sqe_p_accept_tok(p, SQE_TK_COMMA));
    *n_out = (int)ctes.len;
    *out = ctes.items;
    ok = true;
out:
    sqe_strmap_free(names);
    return ok;
}

/* Puts a WITH list on q. When q is a parenthesized query with its own WITH
 * ("WITH a AS (..) (WITH b AS (..) SELECT ..)"), the outer list goes first:
 * the inner queries see the outer ones and the body sees both, as nested. */
static bool attach_ctes(sqe_parser *p, sqe_ast_query *q, int n, sqe_ast_cte *ctes) {
    if (q->n_ctes) {
        for (int i = 0; i < n; i++)
            for (int j = 0; j < q->n_ctes; j++)
                if (sqe_p_ident_eq(&ctes[i].name, &q->ctes[j].name))
                    return sqe_p_not_supported(
                        p,
                        "WITH query name '%s' is defined again in the WITH of the parenthesized "
                        "query it prefixes; shadowing a WITH query this way is not supported",
                        q->ctes[j].name.name);
        sqe_ast_cte *all = sqe_arena_alloc(p->arena, sizeof *all * (size_t)(n + q->n_ctes));
        memcpy(all, ctes, sizeof *all * (size_t)n);
        memcpy(all + n, q->ctes, sizeof *all * (size_t)q->n_ctes);
        ctes = all;
        n += q->n_ctes;
    }
    q->n_ctes = n;
    q->ctes = ctes;
    return true;
}

sqe_ast_query *sqe_p_parse_query(sqe_parser *p) {
    if (!sqe_p_enter(p)) return NULL;
    sqe_p_window_scope *outer = p->win;
    sqe_ast_query *q = NULL;
    int n_ctes = 0;
    sqe_ast_cte *ctes = NULL;
    sqe_pos with_pos = sqe_p_peek(p, 0)->pos;
    if (is_word(p, 0, "with") && !parse_with(p, &n_ctes, &ctes)) goto fail;
    if (!(q = parse_set_expr(p, 1))) goto fail;
    /* the trailing ORDER BY of a lone SELECT body may use its named windows */
    p->win = sqe_p_window_scope_of(p, q);
    if (!parse_query_tail(p, q)) goto fail;
    if (n_ctes) {
        if (!attach_ctes(p, q, n_ctes, ctes)) goto fail;
        q->pos = with_pos;
    }
    p->win = outer;
    sqe_p_leave(p);
    return q;
fail:
    p->win = outer;
    sqe_p_leave(p);
    return NULL;
}

/* ------------------------------------------------------------ VALUES */

typedef SQE_ARRAY(sqe_ast_expr *) expr_list;

/* '(' SELECT|WITH|VALUES at peek(0): a scalar subquery, not a row or set. */
static bool at_subquery(sqe_parser *p) {
    return is_word(p, 1, "select") || is_word(p, 1, "with") || sqe_p_starts_values(p, 1);
}

/* One row: '(' e, ... ')' when the parentheses hold the whole row, else a
 * single expression (which may itself start with '('). */
static bool parse_values_row(sqe_parser *p, expr_list *row) {
    bool list = sqe_p_paren_is_element(p, 0) && !at_subquery(p);
    if (list) sqe_p_next(p);
    do {
        sqe_ast_expr *e = sqe_p_parse_expr(p);
        if (!e) return false;
        SQE_ARRAY_PUSH(p->arena, *row, e);
    } while (list && sqe_p_accept_tok(p, SQE_TK_COMMA));
    return !list || sqe_p_expect_tok(p, SQE_TK_RPAREN, "',' or ')'");
}

/* VALUES row, ... ; VALUES is next. Rows see no named windows. */
static sqe_ast_query *parse_values(sqe_parser *p) {
    sqe_ast_query *q = sqe_arena_alloc(p->arena, sizeof *q);
    q->kind = SQE_QUERY_VALUES;
    q->pos = sqe_p_next(p)->pos;
    sqe_p_window_scope *outer = p->win;
    p->win = NULL;
    SQE_ARRAY(sqe_ast_expr **) rows = {0};
    bool ok = true;
    do {
        sqe_pos pos = sqe_p_peek(p, 0)->pos;
        expr_list row = {0};
        if (!(ok = parse_values_row(p, &row))) break;
        if (rows.len && (int)row.len != q->n_values_cols) {
            ok = sqe_p_error_at(p, pos, "VALUES row %zu has %zu column%s, but row 1 has %d",
                                rows.len + 1, row.len, row.len == 1 ? "" : "s", q->n_values_cols);
            break;
        }
        q->n_values_cols = (int)row.len;
        SQE_ARRAY_PUSH(p->arena, rows, row.items);
    } while (sqe_p_accept_tok(p, SQE_TK_COMMA));
    p->win = outer;
    q->n_values_rows = (int)rows.len;
    q->values_rows = rows.items;
    return ok ? q : NULL;
}

/* ------------------------------------------------------- SELECT body */

/* a.b.* : idents separated by dots, then ". *" */
static bool at_qualified_star(sqe_parser *p) {
    int i = 0;
    while (sqe_p_tok_is_ident(sqe_p_peek(p, i)) && sqe_p_peek(p, i + 1)->kind == SQE_TK_DOT) {
        if (sqe_p_peek(p, i + 2)->kind == SQE_TK_STAR) return true;
        i += 2;
    }
    return false;
}

static bool parse_select_item(sqe_parser *p, sqe_ast_select_item *it) {
    sqe_token *t = sqe_p_peek(p, 0);
    if (t->kind == SQE_TK_STAR || at_qualified_star(p)) {
        sqe_ast_expr *e = sqe_arena_alloc(p->arena, sizeof *e);
        e->kind = SQE_AST_STAR;
        e->pos = t->pos;
        if (t->kind != SQE_TK_STAR) {
            e->u.star.qualifier = sqe_arena_alloc(p->arena, sizeof(sqe_qname));
            if (!sqe_p_parse_qname(p, e->u.star.qualifier, false, "identifier")) return false;
            sqe_p_next(p); /* . */
        }
        sqe_p_next(p); /* * */
        it->expr = e;
        return true;
    }
    if (!(it->expr = sqe_p_parse_expr(p))) return false;
    return sqe_p_parse_opt_alias(p, &it->alias);
}

static sqe_ast_query *parse_select_body(sqe_parser *p) {
    sqe_token *t = sqe_p_peek(p, 0);
    if (!sqe_p_tok_is(t, "select")) return sqe_p_error_expected(p, "SELECT"), NULL;
    sqe_p_next(p);
    sqe_ast_query *q = sqe_arena_alloc(p->arena, sizeof *q);
    q->pos = t->pos;
    sqe_p_window_scope *scope = sqe_p_window_scope_open(p, q);
    sqe_p_group_by *group = NULL;
    bool ok = false;
    if (sqe_p_accept(p, "distinct"))
        q->distinct = true;
    else
        sqe_p_accept(p, "all");
    SQE_ARRAY(sqe_ast_select_item) items = {0};
    do {
        sqe_ast_select_item it = {0};
        if (!parse_select_item(p, &it)) goto out;
        SQE_ARRAY_PUSH(p->arena, items, it);
    } while (sqe_p_accept_tok(p, SQE_TK_COMMA));
    q->n_items = (int)items.len;
    q->items = items.items;
    if (sqe_p_accept(p, "from") && !(q->from = parse_from_list(p))) goto out;
    if (sqe_p_accept(p, "where") && !(q->where = sqe_p_parse_expr(p))) goto out;
    if (is_word(p, 0, "group")) {
        sqe_p_next(p);
        if (!sqe_p_expect(p, "BY") || !(group = sqe_p_parse_group_by(p))) goto out;
    }
    if (sqe_p_accept(p, "having") && !(q->having = sqe_p_parse_expr(p))) goto out;
    if (is_word(p, 0, "window") && !sqe_p_parse_window_clause(p)) goto out;
    ok = true;
out:
    ok = sqe_p_window_scope_close(p, scope, ok);
    if (ok && group) ok = sqe_p_finish_group_by(p, group, q);
    return ok ? q : NULL;
}

/* ------------------------------------------------------------- FROM */

static sqe_ast_from *new_from(sqe_parser *p, sqe_ast_from_kind kind, sqe_pos pos) {
    if (kind == SQE_FROM_JOIN && !sqe_p_count_rel_op(p, pos)) return NULL;
    sqe_ast_from *f = sqe_arena_alloc(p->arena, sizeof *f);
    f->kind = kind;
    f->pos = pos;
    return f;
}

/* [AS] alias [(col, ...)] */
static bool parse_from_alias(sqe_parser *p, sqe_ast_from *f) {
    if (!sqe_p_parse_opt_alias(p, &f->alias)) return false;
    if (f->alias && sqe_p_peek(p, 0)->kind == SQE_TK_LPAREN)
        return sqe_p_parse_column_aliases(p, &f->n_alias_cols, &f->alias_cols);
    return true;
}

/* { 'k': v, ... } after the '{' */
static bool parse_func_map(sqe_parser *p, sqe_ast_func_arg *a) {
    SQE_ARRAY(sqe_ast_expr *) keys = {0}, vals = {0};
    if (!sqe_p_accept_tok(p, SQE_TK_RBRACE)) {
        do {
            sqe_ast_expr *k = sqe_p_parse_expr(p);
            if (!k || !sqe_p_expect_tok(p, SQE_TK_COLON, "':'")) return false;
            sqe_ast_expr *v = sqe_p_parse_expr(p);
            if (!v) return false;
            SQE_ARRAY_PUSH(p->arena, keys, k);
            SQE_ARRAY_PUSH(p->arena, vals, v);
        } while (sqe_p_accept_tok(p, SQE_TK_COMMA));
        if (!sqe_p_expect_tok(p, SQE_TK_RBRACE, "'}'")) return false;
    }
    if (keys.len == 0)
        return sqe_p_error_at(p, a->pos, "empty map {} as a table function argument");
    a->n_pairs = (int)keys.len;
    a->keys = keys.items;
    a->vals = vals.items;
    return true;
}

/* A named argument starts with `name =>`, `name :=` or (DuckDB) `name =`. */
static bool func_arg_is_named(sqe_parser *p) {
    if (!sqe_p_tok_is_ident(sqe_p_peek(p, 0))) return false;
    sqe_tok_kind k = sqe_p_peek(p, 1)->kind;
    return k == SQE_TK_ARROW || k == SQE_TK_EQ ||
           (k == SQE_TK_COLON && sqe_p_peek(p, 2)->kind == SQE_TK_EQ);
}

/* '(' [arg {, arg}] ')' of a table function in FROM. */
static bool parse_func_args(sqe_parser *p, sqe_ast_from *f) {
    SQE_ARRAY(sqe_ast_func_arg) args = {0};
    sqe_p_next(p); /* '(' */
    if (!sqe_p_accept_tok(p, SQE_TK_RPAREN)) {
        do {
            sqe_ast_func_arg a = {.pos = sqe_p_peek(p, 0)->pos};
            if (func_arg_is_named(p)) {
                a.name = sqe_arena_alloc(p->arena, sizeof *a.name);
                if (!sqe_p_parse_ident(p, a.name, "argument name")) return false;
                (void)sqe_p_accept_tok(p, SQE_TK_COLON); /* the ':' of := */
                sqe_p_next(p);                           /* => or = */
            }
            if (sqe_p_accept_tok(p, SQE_TK_LBRACE)) {
                if (!parse_func_map(p, &a)) return false;
            } else if (!(a.value = sqe_p_parse_expr(p))) {
                return false;
            }
            SQE_ARRAY_PUSH(p->arena, args, a);
        } while (sqe_p_accept_tok(p, SQE_TK_COMMA));
        if (!sqe_p_expect_tok(p, SQE_TK_RPAREN, "')'")) return false;
    }
    f->u.func.n_args = (int)args.len;
    f->u.func.args = args.items;
    return true;
}

/* '(' query ')' [alias [(cols)]] | '(' join ')' [alias if a single item]
 * | table [alias [(cols)]] */
static sqe_ast_from *parse_from_primary(sqe_parser *p) {
    sqe_token *t = sqe_p_peek(p, 0);
    if (t->kind == SQE_TK_LPAREN) {
        sqe_ast_from *f = NULL;
        if (sqe_p_starts_query(p, 1)) {
            /* '(' '(' ... SELECT is either a query, ((SELECT ..) UNION ..),
             * or a join, ((SELECT ..) x JOIN ..). Try the query first, once:
             * inside a trial no further trial is made, which keeps the work
             * quadratic in the nesting depth at worst. */
            bool direct = is_word(p, 1, "select") || is_word(p, 1, "with") ||
                          sqe_p_starts_values(p, 1) || p->in_trial;
            int save = p->cur, save_ops = p->n_ops, save_depth = p->depth;
            int save_rel = p->n_rel_ops, save_all = p->n_all_ops, save_nest = p->expr_nest;
            sqe_p_window_scope *save_win = p->win;
            sqe_error trial, *keep = p->err;
            if (!direct) {
                p->err = &trial;
                p->in_trial = true;
            }
            sqe_p_next(p);
            sqe_ast_query *q = sqe_p_parse_query(p);
            bool ok = q && sqe_p_expect_tok(p, SQE_TK_RPAREN, "')'");
            if (!direct) p->in_trial = false;
            p->err = keep;
            if (ok) {
                f = new_from(p, SQE_FROM_SUBQUERY, t->pos);
                f->u.subquery = q;
            } else if (direct) {
                return NULL;
            } else {
                p->cur = save;
                p->n_ops = save_ops;
                p->n_rel_ops = save_rel;
                p->n_all_ops = save_all;
                p->expr_nest = save_nest;
                p->depth = save_depth;
                p->win = save_win;
            }
        }
        if (!f) {
            sqe_p_next(p);
            if (!sqe_p_enter(p)) return NULL;
            f = parse_join_expr(p);
            sqe_p_leave(p);
            if (!f || !sqe_p_expect_tok(p, SQE_TK_RPAREN, "')'")) return NULL;
            if (f->kind == SQE_FROM_JOIN || f->alias) return f;
        }
        return parse_from_alias(p, f) ? f : NULL;
    }
    sqe_ast_from *f = new_from(p, SQE_FROM_TABLE, t->pos);
    if (!sqe_p_parse_qname(p, &f->u.table, true, "table name")) return NULL;
    if (sqe_p_peek(p, 0)->kind == SQE_TK_LPAREN) {
        sqe_qname name = f->u.table;
        f->kind = SQE_FROM_FUNCTION;
        f->u.func.name = name;
        if (!parse_func_args(p, f)) return NULL;
    }
    return parse_from_alias(p, f) ? f : NULL;
}

static bool parse_using(sqe_parser *p, sqe_ast_from *j) {
    SQE_ARRAY(sqe_ident) cols = {0};
    if (!sqe_p_expect_tok(p, SQE_TK_LPAREN, "'('")) return false;
    do {
        sqe_ident id;
        if (!sqe_p_parse_ident(p, &id, "column name")) return false;
        SQE_ARRAY_PUSH(p->arena, cols, id);
    } while (sqe_p_accept_tok(p, SQE_TK_COMMA));
    if (!sqe_p_expect_tok(p, SQE_TK_RPAREN, "',' or ')'")) return false;
    j->u.join.n_using = (int)cols.len;
    j->u.join.using_cols = cols.items;
    return true;
}

static sqe_ast_from *parse_join_expr(sqe_parser *p) {
    sqe_ast_from *left = parse_from_primary(p);
    if (!left) return NULL;
    for (;;) {
        sqe_token *t = sqe_p_peek(p, 0);
        sqe_join_kind kind;
        if (sqe_p_tok_is(t, "natural"))
            return sqe_p_not_supported(p, "NATURAL JOIN is not supported"), NULL;
        if (sqe_p_accept(p, "cross")) {
            kind = SQE_JOIN_CROSS;
        } else if (sqe_p_accept(p, "inner")) {
            kind = SQE_JOIN_INNER;
        } else if (sqe_p_is(p, 0, "join")) {
            kind = SQE_JOIN_INNER;
        } else if (sqe_p_accept(p, "left")) {
            kind = SQE_JOIN_LEFT;
            sqe_p_accept(p, "outer");
        } else if (sqe_p_accept(p, "right")) {
            kind = SQE_JOIN_RIGHT;
            sqe_p_accept(p, "outer");
        } else if (sqe_p_accept(p, "full")) {
            kind = SQE_JOIN_FULL;
            sqe_p_accept(p, "outer");
        } else {
            return left;
        }
        if (!sqe_p_expect(p, "JOIN")) return NULL;
        sqe_ast_from *right = parse_from_primary(p);
        if (!right) return NULL;
        sqe_ast_from *j = new_from(p, SQE_FROM_JOIN, t->pos);
        if (!j) return NULL;
        j->u.join.kind = kind;
        j->u.join.left = left;
        j->u.join.right = right;
        if (kind != SQE_JOIN_CROSS) {
            if (sqe_p_accept(p, "on")) {
                if (!(j->u.join.on = sqe_p_parse_expr(p))) return NULL;
            } else if (sqe_p_accept(p, "using")) {
                if (!parse_using(p, j)) return NULL;
            } else {
                return sqe_p_error_expected(p, "ON or USING"), NULL;
            }
        }
        left = j;
    }
}

static sqe_ast_from *parse_from_list(sqe_parser *p) {
    sqe_ast_from *left = parse_join_expr(p);
    if (!left) return NULL;
    while (sqe_p_peek(p, 0)->kind == SQE_TK_COMMA) {
        sqe_token *t = sqe_p_next(p);
        sqe_ast_from *right = parse_join_expr(p);
        if (!right) return NULL;
        sqe_ast_from *j = new_from(p, SQE_FROM_JOIN, t->pos);
        if (!j) return NULL;
        j->u.join.kind = SQE_JOIN_CROSS;
        j->u.join.left = left;
        j->u.join.right = right;
        left = j;
    }
    return left;
}
