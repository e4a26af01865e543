/*
 * parse_expr.c - expressions, one function per precedence level, lowest
 * first:
 *
 *   expr       := or
 *   or         := and { OR and }
 *   and        := not { AND not }
 *   not        := NOT not | predicate
 *   predicate  := concat { cmp concat | IS [NOT] NULL | IS [NOT] DISTINCT FROM concat
 *                        | [NOT] BETWEEN concat AND concat | [NOT] IN ( query | expr, ... )
 *                        | [NOT] (LIKE|ILIKE) concat [ESCAPE concat] }
 *   concat     := additive { || additive }
 *   additive   := mult { (+|-) mult }
 *   mult       := unary { (*|/|%) unary }
 *   unary      := (+|-) unary | primary
 *   primary    := literal | typed literal (DATE 'x', DECIMAL 'x', ...) | INTERVAL ['+'|'-'] 'n'
 * unit [TO unit] | CASE ... END | CAST ( e AS type ) | TRY_CAST ( ... ) | EXISTS ( query ) | (
 * query ) | ( expr ) | EXTRACT ( field FROM e ) | CURRENT_DATE ... | name ( [DISTINCT|ALL] args | *
 * ) [FILTER ( WHERE e )] [IGNORE|RESPECT NULLS] [OVER ... (parse_window.c)] | column (a, t.a,
 * db.t.a)
 *
 * Function-call sugar is rewritten to ordinary calls here so the binder sees
 * one shape: EXTRACT(YEAR FROM x) -> year(x), position(a IN b) -> strpos(b, a),
 * normalize(s, NFKC) -> normalize(s, 'NFKC'),
 * substring(s FROM i [FOR n]) -> substring(s, i[, n]), trim([BOTH|LEADING|
 * TRAILING] [c] FROM s) -> trim|ltrim|rtrim(s[, c]), CURRENT_DATE ->
 * current_date(). Keywords used as function names (left, right, if, replace,
 * year, date...) parse as calls when followed by '('.
 */
#include "sql_int.h"

#include <string.h>

static sqe_ast_expr *parse_or(sqe_parser *p);
static sqe_ast_expr *parse_concat(sqe_parser *p);
static sqe_ast_expr *parse_unary(sqe_parser *p);

static sqe_ast_expr *new_expr(sqe_parser *p, sqe_ast_expr_kind kind, sqe_pos pos) {
    sqe_ast_expr *e = sqe_arena_alloc(p->arena, sizeof *e);
    e->kind = kind;
    e->pos = pos;
    return e;
}

static sqe_ast_expr *new_binary(sqe_parser *p, sqe_binop op, sqe_ast_expr *l, sqe_ast_expr *r,
                                sqe_pos pos) {
    if (!sqe_p_count_op(p, pos)) return NULL;
    sqe_ast_expr *e = new_expr(p, SQE_AST_BINARY, pos);
    e->u.binary.op = op;
    e->u.binary.left = l;
    e->u.binary.right = r;
    return e;
}

static sqe_ast_expr *new_unary(sqe_parser *p, sqe_unop op, sqe_ast_expr *arg, sqe_pos pos) {
    sqe_ast_expr *e = new_expr(p, SQE_AST_UNARY, pos);
    e->u.unary.op = op;
    e->u.unary.arg = arg;
    return e;
}

sqe_ast_expr *sqe_p_parse_expr(sqe_parser *p) {
    if (!sqe_p_enter(p)) return NULL;
    /* An outermost expression starts its own operator count (the bound on
     * its depth); nested ones, subqueries' included, add to it. */
    if (p->expr_nest++ == 0) p->n_ops = 0;
    sqe_ast_expr *e = parse_or(p);
    p->expr_nest--;
    sqe_p_leave(p);
    return e;
}

static sqe_ast_expr *parse_and(sqe_parser *p);
static sqe_ast_expr *parse_not(sqe_parser *p);

static sqe_ast_expr *parse_or(sqe_parser *p) {
    sqe_ast_expr *l = parse_and(p);
    while (l && sqe_p_is(p, 0, "or")) {
        sqe_pos pos = sqe_p_next(p)->pos;
        sqe_ast_expr *r = parse_and(p);
        l = r ? new_binary(p, SQE_OP_OR, l, r, pos) : NULL;
    }
    return l;
}

static sqe_ast_expr *parse_and(sqe_parser *p) {
    sqe_ast_expr *l = parse_not(p);
    while (l && sqe_p_is(p, 0, "and")) {
        sqe_pos pos = sqe_p_next(p)->pos;
        sqe_ast_expr *r = parse_not(p);
        l = r ? new_binary(p, SQE_OP_AND, l, r, pos) : NULL;
    }
    return l;
}

static sqe_ast_expr *parse_predicate(sqe_parser *p);

static sqe_ast_expr *parse_not(sqe_parser *p) {
    if (!sqe_p_is(p, 0, "not")) return parse_predicate(p);
    sqe_pos pos = sqe_p_next(p)->pos;
    if (!sqe_p_enter(p)) return NULL;
    sqe_ast_expr *arg = parse_not(p);
    sqe_p_leave(p);
    return arg ? new_unary(p, SQE_OP_NOT, arg, pos) : NULL;
}

static bool cmp_op(sqe_tok_kind k, sqe_binop *op) {
    switch (k) {
    case SQE_TK_EQ:
        *op = SQE_OP_EQ;
        return true;
    case SQE_TK_NE:
        *op = SQE_OP_NE;
        return true;
    case SQE_TK_LT:
        *op = SQE_OP_LT;
        return true;
    case SQE_TK_LE:
        *op = SQE_OP_LE;
        return true;
    case SQE_TK_GT:
        *op = SQE_OP_GT;
        return true;
    case SQE_TK_GE:
        *op = SQE_OP_GE;
        return true;
    default:
        return false;
    }
}

/* IN ( query ) or IN ( e, ... ); the IN is consumed. */
static sqe_ast_expr *parse_in(sqe_parser *p, sqe_ast_expr *arg, bool negated, sqe_pos pos) {
    if (!sqe_p_expect_tok(p, SQE_TK_LPAREN, "'('")) return NULL;
    if (sqe_p_is(p, 0, "select") || sqe_p_is(p, 0, "with") || sqe_p_starts_values(p, 0)) {
        sqe_ast_expr *e = new_expr(p, SQE_AST_IN_SUBQUERY, pos);
        e->u.in_subquery.arg = arg;
        e->u.in_subquery.negated = negated;
        if (!(e->u.in_subquery.query = sqe_p_parse_query(p))) return NULL;
        return sqe_p_expect_tok(p, SQE_TK_RPAREN, "')'") ? e : NULL;
    }
    SQE_ARRAY(sqe_ast_expr *) items = {0};
    do {
        sqe_ast_expr *it = sqe_p_parse_expr(p);
        if (!it) return NULL;
        SQE_ARRAY_PUSH(p->arena, items, it);
    } while (sqe_p_accept_tok(p, SQE_TK_COMMA));
    if (!sqe_p_expect_tok(p, SQE_TK_RPAREN, "',' or ')'")) return NULL;
    sqe_ast_expr *e = new_expr(p, SQE_AST_IN_LIST, pos);
    e->u.in_list.arg = arg;
    e->u.in_list.negated = negated;
    e->u.in_list.n_items = (int)items.len;
    e->u.in_list.items = items.items;
    return e;
}

static sqe_ast_expr *parse_predicate(sqe_parser *p) {
    sqe_ast_expr *l = parse_concat(p);
    while (l) {
        sqe_token *t = sqe_p_peek(p, 0);
        sqe_binop op;
        if (cmp_op(t->kind, &op)) {
            sqe_p_next(p);
            sqe_ast_expr *r = parse_concat(p);
            l = r ? new_binary(p, op, l, r, t->pos) : NULL;
            continue;
        }
        if (sqe_p_tok_is(t, "is")) {
            sqe_p_next(p);
            bool neg = sqe_p_accept(p, "not");
            if (sqe_p_accept(p, "null")) {
                sqe_ast_expr *e = new_expr(p, SQE_AST_IS_NULL, t->pos);
                e->u.is_null.arg = l;
                e->u.is_null.negated = neg;
                l = e;
            } else if (sqe_p_accept(p, "distinct")) {
                if (!sqe_p_expect(p, "FROM")) return NULL;
                sqe_ast_expr *r = parse_concat(p);
                if (!r) return NULL;
                sqe_ast_expr *e = new_expr(p, SQE_AST_IS_DISTINCT, t->pos);
                e->u.is_distinct.left = l;
                e->u.is_distinct.right = r;
                e->u.is_distinct.negated = neg;
                l = e;
            } else {
                return sqe_p_error_expected(p, neg ? "NULL or DISTINCT FROM"
                                                   : "NULL, NOT NULL or DISTINCT FROM"),
                       NULL;
            }
            continue;
        }
        bool neg = false;
        if (sqe_p_tok_is(t, "not")) {
            sqe_token *t1 = sqe_p_peek(p, 1);
            if (!sqe_p_tok_is(t1, "between") && !sqe_p_tok_is(t1, "in") &&
                !sqe_p_tok_is(t1, "like") && !sqe_p_tok_is(t1, "ilike")) {
                sqe_p_next(p);
                return sqe_p_error_expected(p, "BETWEEN, IN, LIKE or ILIKE"), NULL;
            }
            sqe_p_next(p);
            neg = true;
        }
        if (sqe_p_accept(p, "between")) {
            sqe_ast_expr *lo = parse_concat(p), *hi;
            if (!lo || !sqe_p_expect(p, "AND") || !(hi = parse_concat(p))) return NULL;
            sqe_ast_expr *e = new_expr(p, SQE_AST_BETWEEN, t->pos);
            e->u.between.arg = l;
            e->u.between.low = lo;
            e->u.between.high = hi;
            e->u.between.negated = neg;
            l = e;
        } else if (sqe_p_accept(p, "in")) {
            l = parse_in(p, l, neg, t->pos);
        } else if (sqe_p_is(p, 0, "like") || sqe_p_is(p, 0, "ilike")) {
            bool ilike = sqe_p_is(p, 0, "ilike");
            sqe_p_next(p);
            sqe_ast_expr *pat = parse_concat(p), *esc = NULL;
            if (!pat) return NULL;
            if (sqe_p_accept(p, "escape") && !(esc = parse_concat(p))) return NULL;
            sqe_ast_expr *e = new_expr(p, SQE_AST_LIKE, t->pos);
            e->u.like.arg = l;
            e->u.like.pattern = pat;
            e->u.like.escape = esc;
            e->u.like.negated = neg;
            e->u.like.ilike = ilike;
            l = e;
        } else {
            break;
        }
    }
    return l;
}

static sqe_ast_expr *parse_concat(sqe_parser *p);
static sqe_ast_expr *parse_additive(sqe_parser *p);
static sqe_ast_expr *parse_mult(sqe_parser *p);

static sqe_ast_expr *parse_concat(sqe_parser *p) {
    sqe_ast_expr *l = parse_additive(p);
    while (l && sqe_p_peek(p, 0)->kind == SQE_TK_CONCAT) {
        sqe_pos pos = sqe_p_next(p)->pos;
        sqe_ast_expr *r = parse_additive(p);
        l = r ? new_binary(p, SQE_OP_CONCAT, l, r, pos) : NULL;
    }
    return l;
}

static sqe_ast_expr *parse_additive(sqe_parser *p) {
    sqe_ast_expr *l = parse_mult(p);
    for (;;) {
        sqe_tok_kind k = sqe_p_peek(p, 0)->kind;
        if (!l || (k != SQE_TK_PLUS && k != SQE_TK_MINUS)) return l;
        sqe_pos pos = sqe_p_next(p)->pos;
        sqe_ast_expr *r = parse_mult(p);
        l = r ? new_binary(p, k == SQE_TK_PLUS ? SQE_OP_ADD : SQE_OP_SUB, l, r, pos) : NULL;
    }
}

static sqe_ast_expr *parse_mult(sqe_parser *p) {
    sqe_ast_expr *l = parse_unary(p);
    for (;;) {
        sqe_tok_kind k = sqe_p_peek(p, 0)->kind;
        if (!l || (k != SQE_TK_STAR && k != SQE_TK_SLASH && k != SQE_TK_PERCENT)) return l;
        sqe_pos pos = sqe_p_next(p)->pos;
        sqe_ast_expr *r = parse_unary(p);
        sqe_binop op = k == SQE_TK_STAR ? SQE_OP_MUL : k == SQE_TK_SLASH ? SQE_OP_DIV : SQE_OP_MOD;
        l = r ? new_binary(p, op, l, r, pos) : NULL;
    }
}

static sqe_ast_expr *parse_primary(sqe_parser *p);

static sqe_ast_expr *new_call(sqe_parser *p, const char *name, sqe_pos pos, int n_args,
                              sqe_ast_expr **args);

/* primary [AT TIME ZONE primary]... -> at_timezone(x, zone); binds tighter
 * than the arithmetic operators, as in Trino's grammar. */
static sqe_ast_expr *parse_at_time_zone(sqe_parser *p) {
    sqe_ast_expr *e = parse_primary(p);
    while (e && sqe_p_is(p, 0, "at") && sqe_p_is(p, 1, "time") && sqe_p_is(p, 2, "zone")) {
        sqe_pos pos = sqe_p_next(p)->pos;
        sqe_p_next(p);
        sqe_p_next(p);
        sqe_ast_expr **args = sqe_arena_alloc(p->arena, 2 * sizeof *args);
        args[0] = e;
        if (!(args[1] = parse_primary(p))) return NULL;
        e = new_call(p, "at_timezone", pos, 2, args);
    }
    return e;
}

static sqe_ast_expr *parse_unary(sqe_parser *p) {
    sqe_tok_kind k = sqe_p_peek(p, 0)->kind;
    if (k != SQE_TK_MINUS && k != SQE_TK_PLUS) return parse_at_time_zone(p);
    sqe_pos pos = sqe_p_next(p)->pos;
    if (!sqe_p_enter(p)) return NULL;
    sqe_ast_expr *arg = parse_unary(p);
    sqe_p_leave(p);
    return arg ? new_unary(p, k == SQE_TK_MINUS ? SQE_OP_NEG : SQE_OP_PLUS, arg, pos) : NULL;
}

/* ------------------------------------------------------------ primary */

static sqe_ast_expr *new_literal(sqe_parser *p, sqe_literal_kind kind, char *text, sqe_pos pos) {
    sqe_ast_expr *e = new_expr(p, SQE_AST_LITERAL, pos);
    e->u.lit.kind = kind;
    e->u.lit.text = text;
    return e;
}

/* Words that make DATE '2024-01-01'-style typed literals. */
static const char *const typed_literal_words[] = {
    "date",  "time",    "timestamp", "decimal", "numeric",  "real",      "double",
    "float", "bigint",  "integer",   "int",     "smallint", "tinyint",   "varchar",
    "char",  "boolean", "varbinary", "json",    "uuid",     "ipaddress",
};

static bool is_typed_literal_word(const sqe_token *t) {
    if (t->kind != SQE_TK_IDENT) return false;
    for (size_t i = 0; i < SQE_ARRAY_LEN(typed_literal_words); i++)
        if (sqe_str_ieq(t->text, typed_literal_words[i])) return true;
    return false;
}

static char *lower_dup(sqe_parser *p, const char *s) {
    return sqe_str_lower(sqe_arena_strdup(p->arena, s));
}

static const char *interval_unit(sqe_parser *p) {
    static const char *const units[][2] = {
        {"year", "year"},     {"years", "year"},     {"month", "month"},   {"months", "month"},
        {"day", "day"},       {"days", "day"},       {"hour", "hour"},     {"hours", "hour"},
        {"minute", "minute"}, {"minutes", "minute"}, {"second", "second"}, {"seconds", "second"},
    };
    sqe_token *t = sqe_p_peek(p, 0);
    for (size_t i = 0; i < SQE_ARRAY_LEN(units); i++) {
        if (sqe_p_tok_is(t, units[i][0])) {
            sqe_p_next(p);
            return units[i][1];
        }
    }
    sqe_p_error_expected(p, "interval unit (YEAR, MONTH, DAY, HOUR, MINUTE or SECOND)");
    return NULL;
}

/* INTERVAL [+|-] 'n' unit [TO unit]; INTERVAL is next. */
static sqe_ast_expr *parse_interval(sqe_parser *p) {
    sqe_pos pos = sqe_p_next(p)->pos;
    const char *sign = "";
    if (sqe_p_peek(p, 0)->kind == SQE_TK_MINUS) sign = "-";
    if (sqe_p_peek(p, 0)->kind == SQE_TK_MINUS || sqe_p_peek(p, 0)->kind == SQE_TK_PLUS)
        sqe_p_next(p);
    sqe_token *v = sqe_p_peek(p, 0);
    if (v->kind != SQE_TK_STRING && v->kind != SQE_TK_INTEGER)
        return sqe_p_error_expected(p, "interval value (a string literal)"), NULL;
    sqe_p_next(p);
    const char *unit = interval_unit(p);
    if (!unit) return NULL;
    if (sqe_p_accept(p, "to")) {
        const char *unit2 = interval_unit(p);
        if (!unit2) return NULL;
        unit = sqe_arena_sprintf(p->arena, "%s to %s", unit, unit2);
    }
    sqe_ast_expr *e =
        new_literal(p, SQE_LIT_INTERVAL, sqe_arena_sprintf(p->arena, "%s%s", sign, v->text), pos);
    e->u.lit.type_name = (char *)unit;
    return e;
}

static sqe_ast_expr *parse_case(sqe_parser *p) {
    sqe_ast_expr *e = new_expr(p, SQE_AST_CASE, sqe_p_next(p)->pos);
    if (!sqe_p_is(p, 0, "when") && !(e->u.case_.operand = sqe_p_parse_expr(p))) return NULL;
    SQE_ARRAY(sqe_ast_when) whens = {0};
    if (!sqe_p_is(p, 0, "when")) return sqe_p_error_expected(p, "WHEN"), NULL;
    while (sqe_p_accept(p, "when")) {
        sqe_ast_when w = {0};
        if (!(w.cond = sqe_p_parse_expr(p))) return NULL;
        if (!sqe_p_expect(p, "THEN")) return NULL;
        if (!(w.result = sqe_p_parse_expr(p))) return NULL;
        SQE_ARRAY_PUSH(p->arena, whens, w);
    }
    e->u.case_.n_whens = (int)whens.len;
    e->u.case_.whens = whens.items;
    if (sqe_p_accept(p, "else") && !(e->u.case_.else_ = sqe_p_parse_expr(p))) return NULL;
    if (!sqe_p_accept(p, "end"))
        return sqe_p_error_expected(p, e->u.case_.else_ ? "END" : "WHEN, ELSE or END"), NULL;
    return e;
}

static sqe_ast_expr *parse_cast(sqe_parser *p, bool try_) {
    sqe_ast_expr *e = new_expr(p, SQE_AST_CAST, sqe_p_next(p)->pos);
    e->u.cast.try_ = try_;
    if (!sqe_p_expect_tok(p, SQE_TK_LPAREN, "'('")) return NULL;
    if (!(e->u.cast.arg = sqe_p_parse_expr(p))) return NULL;
    if (!sqe_p_expect(p, "AS")) return NULL;
    if (!sqe_p_parse_type(p, &e->u.cast.type)) return NULL;
    return sqe_p_expect_tok(p, SQE_TK_RPAREN, "')'") ? e : NULL;
}

static sqe_ast_expr *new_call(sqe_parser *p, const char *name, sqe_pos pos, int n_args,
                              sqe_ast_expr **args) {
    sqe_ast_expr *e = new_expr(p, SQE_AST_FUNCTION, pos);
    e->u.func.name.n_parts = 1;
    e->u.func.name.parts = sqe_arena_alloc(p->arena, sizeof(sqe_ident));
    e->u.func.name.parts[0].name = sqe_arena_strdup(p->arena, name);
    e->u.func.name.parts[0].pos = pos;
    e->u.func.name.pos = pos;
    e->u.func.n_args = n_args;
    e->u.func.args = args;
    return e;
}

/* EXTRACT ( field FROM e ) -> field(e); EXTRACT is next. */
static sqe_ast_expr *parse_extract(sqe_parser *p) {
    static const char *const fields[][2] = {
        {"year", "year"},
        {"quarter", "quarter"},
        {"month", "month"},
        {"week", "week"},
        {"day", "day"},
        {"day_of_month", "day"},
        {"day_of_week", "day_of_week"},
        {"dow", "day_of_week"},
        {"day_of_year", "day_of_year"},
        {"doy", "day_of_year"},
        {"year_of_week", "year_of_week"},
        {"yow", "year_of_week"},
        {"hour", "hour"},
        {"minute", "minute"},
        {"second", "second"},
        {"timezone_hour", "timezone_hour"},
        {"timezone_minute", "timezone_minute"},
    };
    sqe_pos pos = sqe_p_next(p)->pos;
    sqe_p_next(p); /* ( */
    sqe_token *f = sqe_p_peek(p, 0);
    const char *fn = NULL;
    for (size_t i = 0; i < SQE_ARRAY_LEN(fields) && !fn; i++)
        if (sqe_p_tok_is(f, fields[i][0])) fn = fields[i][1];
    if (!fn) return sqe_p_error_expected(p, "date/time field (YEAR, MONTH, DAY, HOUR, ...)"), NULL;
    sqe_p_next(p);
    if (!sqe_p_expect(p, "FROM")) return NULL;
    sqe_ast_expr **args = sqe_arena_alloc(p->arena, sizeof *args);
    if (!(args[0] = sqe_p_parse_expr(p))) return NULL;
    if (!sqe_p_expect_tok(p, SQE_TK_RPAREN, "')'")) return NULL;
    return new_call(p, fn, pos, 1, args);
}

/* trim ( [BOTH|LEADING|TRAILING] [chars] FROM source ) -> trim|ltrim|rtrim
 * (source[, chars]); '(' has been read. *first gets the first expression
 * parsed when the call turns out to be the plain form trim(source[, chars])
 * (the caller goes on with its argument list); the result is then NULL. */
static sqe_ast_expr *parse_trim(sqe_parser *p, const sqe_qname *name, sqe_ast_expr **first,
                                bool *failed) {
    static const char *const specs[][2] = {
        {"both", "trim"}, {"leading", "ltrim"}, {"trailing", "rtrim"}};
    const char *fn = "trim";
    bool has_spec = false;
    *first = NULL;
    *failed = false;
    sqe_token *t1 = sqe_p_peek(p, 1);
    for (size_t i = 0; i < SQE_ARRAY_LEN(specs) && !has_spec; i++) {
        /* A specification word is followed by FROM or by the characters
         * (a column named `leading` is followed by ')' or an operator). */
        if (sqe_p_is(p, 0, specs[i][0]) &&
            (sqe_p_tok_is(t1, "from") || t1->kind == SQE_TK_STRING || t1->kind == SQE_TK_IDENT ||
             t1->kind == SQE_TK_QIDENT || t1->kind == SQE_TK_BQIDENT ||
             t1->kind == SQE_TK_LPAREN)) {
            fn = specs[i][1];
            has_spec = true;
            sqe_p_next(p);
        }
    }
    sqe_ast_expr **args = sqe_arena_alloc(p->arena, 2 * sizeof *args);
    int n = 1;
    if (!sqe_p_accept(p, "from")) {
        sqe_ast_expr *x = sqe_p_parse_expr(p); /* stops before FROM */
        if (!x) goto fail;
        if (!sqe_p_accept(p, "from")) {
            if (has_spec) {
                sqe_p_expect(p, "FROM");
                goto fail;
            }
            *first = x;
            return NULL;
        }
        args[1] = x;
        n = 2;
    }
    if (!(args[0] = sqe_p_parse_expr(p)) || !sqe_p_expect_tok(p, SQE_TK_RPAREN, "')'")) goto fail;
    return new_call(p, fn, name->pos, n, args);
fail:
    *failed = true;
    return NULL;
}

/* A lambda argument (x -> ...) is next: refused as NOT_SUPPORTED naming the
 * function, instead of a puzzling syntax error at '>'. */
static bool lambda_refused(sqe_parser *p, const char *fname) {
    sqe_token *a = sqe_p_peek(p, 0), *m = sqe_p_peek(p, 1), *g = sqe_p_peek(p, 2);
    if (!sqe_p_tok_is_ident(a) || m->kind != SQE_TK_MINUS || g->kind != SQE_TK_GT ||
        g->pos.line != m->pos.line || g->pos.col != m->pos.col + 1)
        return false;
    sqe_p_not_supported(p,
                        "lambda expressions (%s -> ...) are not supported yet, in %s() at line "
                        "%d:%d",
                        a->text, fname, a->pos.line, a->pos.col);
    return true;
}

/* normalize(s, NFD): the form is a keyword; it becomes the string 'NFD'. */
static void normalize_form(sqe_parser *p, sqe_ast_expr *a) {
    static const char *const forms[] = {"nfc", "nfd", "nfkc", "nfkd"};
    if (a->kind != SQE_AST_COLUMN || a->u.column.n_parts != 1 || a->u.column.parts[0].quoted)
        return;
    for (size_t i = 0; i < SQE_ARRAY_LEN(forms); i++) {
        if (!sqe_str_ieq(a->u.column.parts[0].name, forms[i])) continue;
        char *text = sqe_str_lower(sqe_arena_strdup(p->arena, forms[i]));
        for (char *c = text; *c; c++) *c = (char)(*c - 32);
        sqe_pos pos = a->pos;
        memset(a, 0, sizeof *a);
        a->kind = SQE_AST_LITERAL;
        a->pos = pos;
        a->u.lit.kind = SQE_LIT_STRING;
        a->u.lit.text = text;
        return;
    }
}

/* name ( ... ); the name is parsed, '(' is next. */
static sqe_ast_expr *parse_call_args(sqe_parser *p, sqe_qname *name) {
    sqe_ast_expr *e = new_expr(p, SQE_AST_FUNCTION, name->pos);
    e->u.func.name = *name;
    sqe_p_next(p); /* ( */
    const char *fname = name->n_parts == 1 ? name->parts[0].name : "";
    SQE_ARRAY(sqe_ast_expr *) args = {0};
    if (sqe_p_peek(p, 0)->kind == SQE_TK_STAR && sqe_p_peek(p, 1)->kind == SQE_TK_RPAREN) {
        sqe_p_next(p);
        e->u.func.star = true;
    } else if (sqe_p_peek(p, 0)->kind != SQE_TK_RPAREN) {
        if (sqe_p_accept(p, "distinct"))
            e->u.func.distinct = true;
        else
            sqe_p_accept(p, "all");
        bool position = sqe_str_ieq(fname, "position");
        bool substring = sqe_str_ieq(fname, "substring") || sqe_str_ieq(fname, "substr");
        sqe_ast_expr *a = NULL;
        if (sqe_str_ieq(fname, "trim") && !e->u.func.distinct) {
            bool failed;
            sqe_ast_expr *t = parse_trim(p, name, &a, &failed);
            if (t || failed) return t;
        } else {
            if (lambda_refused(p, fname)) return NULL;
            a = position ? parse_concat(p) : sqe_p_parse_expr(p);
        }
        if (!a) return NULL;
        SQE_ARRAY_PUSH(p->arena, args, a);
        if (position && sqe_p_accept(p, "in")) {
            /* position(a IN b) is strpos(b, a) */
            sqe_ast_expr *b = sqe_p_parse_expr(p);
            if (!b) return NULL;
            SQE_ARRAY_PUSH(p->arena, args, b);
            args.items[1] = a;
            args.items[0] = b;
            e->u.func.name.parts = sqe_arena_alloc(p->arena, sizeof(sqe_ident));
            e->u.func.name.parts[0] = name->parts[0];
            e->u.func.name.parts[0].name = "strpos";
        } else if (substring && sqe_p_accept(p, "from")) {
            sqe_ast_expr *b = sqe_p_parse_expr(p);
            if (!b) return NULL;
            SQE_ARRAY_PUSH(p->arena, args, b);
            if (sqe_p_accept(p, "for")) {
                sqe_ast_expr *c = sqe_p_parse_expr(p);
                if (!c) return NULL;
                SQE_ARRAY_PUSH(p->arena, args, c);
            }
        } else {
            bool sql_json = sqe_p_is_sql_json_fn(fname);
            /* json_value(j FORMAT JSON, ...): JSON text is the only input format */
            if (sql_json && sqe_p_accept(p, "format") && !sqe_p_expect(p, "JSON")) return NULL;
            while (sqe_p_accept_tok(p, SQE_TK_COMMA)) {
                if (lambda_refused(p, fname)) return NULL;
                sqe_ast_expr *x = sqe_p_parse_expr(p);
                if (!x) return NULL;
                SQE_ARRAY_PUSH(p->arena, args, x);
                sqe_tok_kind k = sqe_p_peek(p, 0)->kind;
                if (sql_json && args.len == 2 && k != SQE_TK_COMMA && k != SQE_TK_RPAREN) {
                    sqe_ast_expr *r =
                        sqe_p_parse_json_clauses(p, fname, e->pos, args.items[0], args.items[1]);
                    return r && sqe_p_expect_tok(p, SQE_TK_RPAREN, "')'") ? r : NULL;
                }
            }
        }
    }
    if (!sqe_p_expect_tok(p, SQE_TK_RPAREN, args.len ? "',' or ')'" : "')'")) return NULL;
    if (sqe_str_ieq(fname, "normalize") && args.len == 2) normalize_form(p, args.items[1]);
    e->u.func.n_args = (int)args.len;
    e->u.func.args = args.items;
    return e;
}

/* A call and what may follow it, in Trino's order:
 *   name ( ... ) [FILTER ( WHERE e )] [[IGNORE|RESPECT] NULLS OVER ...]
 * Each word counts only where nothing else could follow the call (an alias
 * named filter or over stays an alias): FILTER before '(', IGNORE/RESPECT
 * before NULLS, OVER before '(' or a window name. */
static sqe_ast_expr *parse_call(sqe_parser *p, sqe_qname *name) {
    sqe_ast_expr *e = parse_call_args(p, name);
    if (!e || e->kind != SQE_AST_FUNCTION) return e;
    if (sqe_p_is(p, 0, "filter") && sqe_p_peek(p, 1)->kind == SQE_TK_LPAREN) {
        sqe_p_next(p);
        sqe_p_next(p);
        if (!sqe_p_expect(p, "WHERE")) return NULL;
        if (!(e->u.func.filter = sqe_p_parse_expr(p))) return NULL;
        if (!sqe_p_expect_tok(p, SQE_TK_RPAREN, "')'")) return NULL;
    }
    if ((sqe_p_is(p, 0, "ignore") || sqe_p_is(p, 0, "respect")) && sqe_p_is(p, 1, "nulls")) {
        e->u.func.ignore_nulls = sqe_p_is(p, 0, "ignore");
        sqe_p_next(p);
        sqe_p_next(p);
        if (!sqe_p_is(p, 0, "over")) return sqe_p_error_expected(p, "OVER"), NULL;
        return sqe_p_parse_over(p, e) ? e : NULL;
    }
    if (sqe_p_is(p, 0, "over") &&
        (sqe_p_peek(p, 1)->kind == SQE_TK_LPAREN || sqe_p_tok_is_ident(sqe_p_peek(p, 1)))) {
        if (!sqe_p_parse_over(p, e)) return NULL;
    }
    return e;
}

static const char *const niladic_words[] = {
    "current_date",   "current_time", "current_timestamp", "localtime",
    "localtimestamp", "current_user", "current_catalog",   "current_schema",
};

static sqe_ast_expr *parse_primary(sqe_parser *p) {
    sqe_token *t = sqe_p_peek(p, 0);
    sqe_token *t1 = sqe_p_peek(p, 1);
    switch (t->kind) {
    case SQE_TK_INTEGER:
        sqe_p_next(p);
        return new_literal(p, SQE_LIT_INTEGER, t->text, t->pos);
    case SQE_TK_DECIMAL:
        sqe_p_next(p);
        return new_literal(p, SQE_LIT_DECIMAL, t->text, t->pos);
    case SQE_TK_DOUBLE:
        sqe_p_next(p);
        return new_literal(p, SQE_LIT_DOUBLE, t->text, t->pos);
    case SQE_TK_STRING:
        sqe_p_next(p);
        return new_literal(p, SQE_LIT_STRING, t->text, t->pos);
    case SQE_TK_LPAREN: {
        sqe_p_next(p);
        if (sqe_p_is(p, 0, "select") || sqe_p_is(p, 0, "with") || sqe_p_starts_values(p, 0)) {
            sqe_ast_expr *e = new_expr(p, SQE_AST_SUBQUERY, t->pos);
            if (!(e->u.subquery.query = sqe_p_parse_query(p))) return NULL;
            return sqe_p_expect_tok(p, SQE_TK_RPAREN, "')'") ? e : NULL;
        }
        sqe_ast_expr *e = sqe_p_parse_expr(p);
        if (!e || !sqe_p_expect_tok(p, SQE_TK_RPAREN, "')'")) return NULL;
        return e;
    }
    case SQE_TK_IDENT:
    case SQE_TK_QIDENT:
    case SQE_TK_BQIDENT:
        break;
    default:
        return sqe_p_error_expected(p, "expression"), NULL;
    }

    if (t->kind == SQE_TK_IDENT) {
        if (sqe_p_tok_is(t, "null")) {
            sqe_p_next(p);
            return new_literal(p, SQE_LIT_NULL, NULL, t->pos);
        }
        if (sqe_p_tok_is(t, "true") || sqe_p_tok_is(t, "false")) {
            sqe_p_next(p);
            sqe_ast_expr *e = new_literal(p, SQE_LIT_BOOL, NULL, t->pos);
            e->u.lit.b = sqe_p_tok_is(t, "true");
            return e;
        }
        if (sqe_p_tok_is(t, "case")) return parse_case(p);
        if (sqe_p_tok_is(t, "cast") && t1->kind == SQE_TK_LPAREN) return parse_cast(p, false);
        if (sqe_p_tok_is(t, "try_cast") && t1->kind == SQE_TK_LPAREN) return parse_cast(p, true);
        if (sqe_p_tok_is(t, "exists")) {
            sqe_ast_expr *e = new_expr(p, SQE_AST_EXISTS, sqe_p_next(p)->pos);
            if (!sqe_p_expect_tok(p, SQE_TK_LPAREN, "'('")) return NULL;
            if (!sqe_p_starts_query(p, 0)) return sqe_p_error_expected(p, "SELECT"), NULL;
            if (!(e->u.subquery.query = sqe_p_parse_query(p))) return NULL;
            return sqe_p_expect_tok(p, SQE_TK_RPAREN, "')'") ? e : NULL;
        }
        if (sqe_p_tok_is(t, "interval") &&
            (t1->kind == SQE_TK_STRING || t1->kind == SQE_TK_INTEGER ||
             ((t1->kind == SQE_TK_MINUS || t1->kind == SQE_TK_PLUS) &&
              sqe_p_peek(p, 2)->kind == SQE_TK_STRING)))
            return parse_interval(p);
        if (t1->kind == SQE_TK_STRING && sqe_p_tok_is(t, "x") && t1->pos.line == t->pos.line &&
            t1->pos.col == t->pos.col + 1) {
            /* X'0A FF': a VARBINARY literal (the binder decodes the hex) */
            sqe_p_next(p);
            sqe_p_next(p);
            sqe_ast_expr *e = new_literal(p, SQE_LIT_TYPED, t1->text, t->pos);
            e->u.lit.type_name = "x";
            return e;
        }
        if (t1->kind == SQE_TK_STRING && is_typed_literal_word(t)) {
            sqe_p_next(p);
            sqe_p_next(p);
            sqe_ast_expr *e = new_literal(p, SQE_LIT_TYPED, t1->text, t->pos);
            e->u.lit.type_name = lower_dup(p, t->text);
            return e;
        }
        if (sqe_p_tok_is(t, "extract") && t1->kind == SQE_TK_LPAREN) return parse_extract(p);
        if (t1->kind != SQE_TK_LPAREN) {
            for (size_t i = 0; i < SQE_ARRAY_LEN(niladic_words); i++) {
                if (sqe_p_tok_is(t, niladic_words[i])) {
                    sqe_p_next(p);
                    return new_call(p, niladic_words[i], t->pos, 0, NULL);
                }
            }
        }
        if (sqe_sql_is_reserved(t->text)) {
            if ((sqe_p_tok_is(t, "left") || sqe_p_tok_is(t, "right")) &&
                t1->kind == SQE_TK_LPAREN) {
                sqe_qname name = {1, sqe_arena_alloc(p->arena, sizeof(sqe_ident)), t->pos};
                name.parts[0].name = t->text;
                name.parts[0].pos = t->pos;
                sqe_p_next(p);
                return parse_call(p, &name);
            }
            return sqe_p_error_expected(p, "expression"), NULL;
        }
    }
    sqe_qname name;
    if (!sqe_p_parse_qname(p, &name, false, "identifier")) return NULL;
    if (sqe_p_peek(p, 0)->kind == SQE_TK_LPAREN) return parse_call(p, &name);
    sqe_ast_expr *e = new_expr(p, SQE_AST_COLUMN, name.pos);
    e->u.column = name;
    return e;
}
