/*
 * parse_query.c - queries: SELECT bodies, set operations, FROM items and
 * joins, ORDER BY / LIMIT / OFFSET / FETCH.
 *
 *   query      := set_term { (UNION|EXCEPT) [ALL|DISTINCT] set_term }
 *   set_term   := query_prim { INTERSECT [ALL|DISTINCT] query_prim }
 *                 [ORDER BY order_item, ...] (in any order, once each:)
 *                 [OFFSET n [ROW|ROWS]] [LIMIT n|ALL | FETCH FIRST|NEXT [n] ROW|ROWS ONLY]
 *   query_prim := select_body | '(' query ')'
 *   select_body:= SELECT [DISTINCT|ALL] item, ... [FROM from, ...] [WHERE e]
 *                 [GROUP BY e, ...] [HAVING e]
 *
 * Set operations form a tree (SQE_QUERY_SET nodes): INTERSECT binds tighter
 * than UNION and EXCEPT, which associate to the left. A trailing ORDER BY /
 * LIMIT belongs to the whole query expression (the top node). A
 * parenthesized query takes a following ORDER BY / LIMIT / OFFSET only if it
 * has none of its own.
 */
#include "sql_int.h"

#include <string.h>

static bool is_word(sqe_parser *p, int ahead, const char *kw) {
    return sqe_p_is(p, ahead, kw);
}

bool sqe_p_starts_query(sqe_parser *p, int ahead) {
    int i = ahead;
    while (sqe_p_peek(p, i)->kind == SQE_TK_LPAREN) {
        if (i - ahead > SQE_SQL_MAX_DEPTH) return false;
        i++;
    }
    return is_word(p, i, "select") || is_word(p, i, "with");
}

static sqe_ast_query *parse_select_body(sqe_parser *p);
static sqe_ast_from *parse_from_list(sqe_parser *p);
static sqe_ast_from *parse_join_expr(sqe_parser *p);

static sqe_ast_query *parse_query_prim(sqe_parser *p) {
    if (sqe_p_peek(p, 0)->kind == SQE_TK_LPAREN) {
        sqe_p_next(p);
        sqe_ast_query *q = sqe_p_parse_query(p);
        if (!q || !sqe_p_expect_tok(p, SQE_TK_RPAREN, "')'")) return NULL;
        return q;
    }
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

static bool parse_order_by(sqe_parser *p, sqe_ast_query *q) {
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
    q->n_order_by = (int)items.len;
    q->order_by = items.items;
    return true;
}

/* ORDER BY / OFFSET / LIMIT / FETCH after a query expression. */
static bool parse_query_tail(sqe_parser *p, sqe_ast_query *q) {
    if (is_word(p, 0, "order")) {
        if (q->n_order_by)
            return sqe_p_not_supported(
                p, "ORDER BY on a parenthesized query that has its own ORDER BY is not supported");
        sqe_p_next(p);
        if (!sqe_p_expect(p, "BY") || !parse_order_by(p, q)) return false;
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
        if (!sqe_p_count_op(p, pos)) return NULL;
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

sqe_ast_query *sqe_p_parse_query(sqe_parser *p) {
    if (is_word(p, 0, "with"))
        return sqe_p_not_supported(p, "WITH (common table expressions) is not supported yet"), NULL;
    if (!sqe_p_enter(p)) return NULL;
    sqe_ast_query *q = parse_set_expr(p, 1);
    if (!q || !parse_query_tail(p, q)) goto fail;
    sqe_p_leave(p);
    return q;
fail:
    sqe_p_leave(p);
    return NULL;
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

/* GROUP BY elements other than plain expressions are not supported; say so
 * by name rather than failing on the syntax. */
static bool check_grouping_element(sqe_parser *p) {
    sqe_token *t1 = sqe_p_peek(p, 1);
    if (is_word(p, 0, "grouping") && sqe_p_tok_is(t1, "sets"))
        return sqe_p_not_supported(p, "GROUPING SETS is not supported yet");
    if ((is_word(p, 0, "rollup") || is_word(p, 0, "cube")) && t1->kind == SQE_TK_LPAREN)
        return sqe_p_not_supported(p, "%s is not supported yet",
                                   is_word(p, 0, "rollup") ? "ROLLUP" : "CUBE");
    if (sqe_p_peek(p, 0)->kind == SQE_TK_LPAREN && t1->kind == SQE_TK_RPAREN)
        return sqe_p_not_supported(p, "the empty grouping set () is not supported yet");
    return true;
}

static bool parse_expr_list(sqe_parser *p, int *n_out, sqe_ast_expr ***out, bool grouping) {
    SQE_ARRAY(sqe_ast_expr *) xs = {0};
    do {
        if (grouping && !check_grouping_element(p)) return false;
        sqe_ast_expr *e = sqe_p_parse_expr(p);
        if (!e) return false;
        SQE_ARRAY_PUSH(p->arena, xs, e);
    } while (sqe_p_accept_tok(p, SQE_TK_COMMA));
    *n_out = (int)xs.len;
    *out = xs.items;
    return true;
}

static sqe_ast_query *parse_select_body(sqe_parser *p) {
    sqe_token *t = sqe_p_peek(p, 0);
    if (!sqe_p_tok_is(t, "select")) return sqe_p_error_expected(p, "SELECT"), NULL;
    sqe_p_next(p);
    sqe_ast_query *q = sqe_arena_alloc(p->arena, sizeof *q);
    q->pos = t->pos;
    if (sqe_p_accept(p, "distinct"))
        q->distinct = true;
    else
        sqe_p_accept(p, "all");
    SQE_ARRAY(sqe_ast_select_item) items = {0};
    do {
        sqe_ast_select_item it = {0};
        if (!parse_select_item(p, &it)) return NULL;
        SQE_ARRAY_PUSH(p->arena, items, it);
    } while (sqe_p_accept_tok(p, SQE_TK_COMMA));
    q->n_items = (int)items.len;
    q->items = items.items;
    if (sqe_p_accept(p, "from") && !(q->from = parse_from_list(p))) return NULL;
    if (sqe_p_accept(p, "where") && !(q->where = sqe_p_parse_expr(p))) return NULL;
    if (is_word(p, 0, "group")) {
        sqe_p_next(p);
        if (!sqe_p_expect(p, "BY")) return NULL;
        if (!sqe_p_accept(p, "all")) sqe_p_accept(p, "distinct");
        if (!parse_expr_list(p, &q->n_group_by, &q->group_by, true)) return NULL;
    }
    if (sqe_p_accept(p, "having") && !(q->having = sqe_p_parse_expr(p))) return NULL;
    if (is_word(p, 0, "window"))
        return sqe_p_not_supported(p, "window functions (WINDOW) are not supported yet"), NULL;
    return q;
}

/* ------------------------------------------------------------- FROM */

static sqe_ast_from *new_from(sqe_parser *p, sqe_ast_from_kind kind, sqe_pos pos) {
    if (kind == SQE_FROM_JOIN && !sqe_p_count_op(p, pos)) return NULL;
    sqe_ast_from *f = sqe_arena_alloc(p->arena, sizeof *f);
    f->kind = kind;
    f->pos = pos;
    return f;
}

static bool parse_from_alias(sqe_parser *p, sqe_ast_from *f) {
    if (!sqe_p_parse_opt_alias(p, &f->alias)) return false;
    if (f->alias && sqe_p_peek(p, 0)->kind == SQE_TK_LPAREN)
        return sqe_p_not_supported(
            p, "column alias lists (AS %s (a, b, ...)) are not supported yet", f->alias->name);
    return true;
}

/* '(' query ')' [alias] | '(' join ')' [alias if a single item] | table [alias] */
static sqe_ast_from *parse_from_primary(sqe_parser *p) {
    sqe_token *t = sqe_p_peek(p, 0);
    if (t->kind == SQE_TK_LPAREN) {
        sqe_ast_from *f = NULL;
        if (sqe_p_starts_query(p, 1)) {
            /* '(' '(' ... SELECT is either a query, ((SELECT ..) UNION ..),
             * or a join, ((SELECT ..) x JOIN ..). Try the query first, once:
             * inside a trial no further trial is made, which keeps the work
             * quadratic in the nesting depth at worst. */
            bool direct = is_word(p, 1, "select") || is_word(p, 1, "with") || p->in_trial;
            int save = p->cur, save_ops = p->n_ops;
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
        const sqe_qname *n = &f->u.table;
        return sqe_p_not_supported(p, "table function %s(...) is not supported yet",
                                   n->parts[n->n_parts - 1].name),
               NULL;
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
