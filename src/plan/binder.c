/*
 * binder.c - AST expressions to typed, bound sqe_expr trees.
 *
 * Resolves column names against a scope (case-insensitive, qualified by
 * table alias/name or db.table), literals to typed constants, functions
 * through the registry (inserting CASTs for implicit coercions), and
 * rewrites sugar into the executor's small set of node kinds: BETWEEN ->
 * AND of comparisons, LIKE -> like(), IS DISTINCT FROM -> is_distinct_from(),
 * simple CASE -> searched CASE, if/nullif -> CASE. Constant subtrees of
 * CALL/CAST are folded when folding succeeds (a failure is left for run
 * time, so `CASE WHEN false THEN 1/0 END` does not fail at plan time). An
 * explicit CAST of a constant that cannot succeed is a plan-time error with
 * its position, except where it may never run (cx->lazy: CASE branches,
 * later COALESCE/IF arguments, the right side of AND/OR); a pair of types
 * with no cast at all is always a plan-time error, for TRY_CAST too.
 *
 * Above an aggregate (cx->agg), an aggregate call binds to its output
 * column, an expression equal to a GROUP BY key binds to that key's column,
 * and any other column reference is an error naming it.
 */
#include "plan_int.h"

#include <stdio.h>
#include <string.h>

bool sqe_bind_error(sqe_error *err, sqe_error_class cls, sqe_pos pos, const char *fmt, ...) {
    char msg[SQE_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (pos.line > 0) return sqe_error_set(err, cls, "%s at line %d:%d", msg, pos.line, pos.col);
    return sqe_error_set(err, cls, "%s", msg);
}

static const char *k_aggregates[] = {"count", "sum", "avg", "min", "max"};

static bool is_agg_name(const char *name) {
    for (size_t i = 0; i < SQE_ARRAY_LEN(k_aggregates); i++)
        if (sqe_str_ieq(name, k_aggregates[i])) return true;
    return sqe_func_is_aggregate(name);
}

bool sqe_bind_is_aggregate_call(const sqe_ast_expr *e) {
    return e->kind == SQE_AST_FUNCTION && e->u.func.name.n_parts == 1 &&
           is_agg_name(e->u.func.name.parts[0].name);
}

/* The first aggregate call in e (pre-order), or NULL. */
static const sqe_ast_expr *first_agg(const sqe_ast_expr *e);

static const sqe_ast_expr *first_agg_of(sqe_ast_expr **xs, int n) {
    for (int i = 0; i < n; i++) {
        const sqe_ast_expr *a = xs[i] ? first_agg(xs[i]) : NULL;
        if (a) return a;
    }
    return NULL;
}

static const sqe_ast_expr *first_agg2(const sqe_ast_expr *a, const sqe_ast_expr *b) {
    const sqe_ast_expr *r = first_agg(a);
    return r ? r : first_agg(b);
}

static const sqe_ast_expr *first_agg(const sqe_ast_expr *e) {
    if (!e) return NULL;
    switch (e->kind) {
    case SQE_AST_FUNCTION:
        if (e->u.func.over) {
            const sqe_ast_window *w = e->u.func.over;
            const sqe_ast_expr *r = first_agg_of(e->u.func.args, e->u.func.n_args);
            if (!r) r = first_agg_of(w->partition, w->n_partition);
            for (int i = 0; i < w->n_order && !r; i++) r = first_agg(w->order[i].expr);
            return r;
        }
        if (sqe_bind_is_aggregate_call(e)) return e;
        return first_agg_of(e->u.func.args, e->u.func.n_args);
    case SQE_AST_UNARY:
        return first_agg(e->u.unary.arg);
    case SQE_AST_BINARY:
        return first_agg2(e->u.binary.left, e->u.binary.right);
    case SQE_AST_CASE: {
        const sqe_ast_expr *r = first_agg(e->u.case_.operand);
        for (int i = 0; i < e->u.case_.n_whens && !r; i++)
            r = first_agg2(e->u.case_.whens[i].cond, e->u.case_.whens[i].result);
        return r ? r : first_agg(e->u.case_.else_);
    }
    case SQE_AST_CAST:
        return first_agg(e->u.cast.arg);
    case SQE_AST_IN_LIST: {
        const sqe_ast_expr *r = first_agg(e->u.in_list.arg);
        return r ? r : first_agg_of(e->u.in_list.items, e->u.in_list.n_items);
    }
    case SQE_AST_BETWEEN: {
        const sqe_ast_expr *r = first_agg2(e->u.between.arg, e->u.between.low);
        return r ? r : first_agg(e->u.between.high);
    }
    case SQE_AST_LIKE: {
        const sqe_ast_expr *r = first_agg2(e->u.like.arg, e->u.like.pattern);
        return r ? r : first_agg(e->u.like.escape);
    }
    case SQE_AST_IS_NULL:
        return first_agg(e->u.is_null.arg);
    case SQE_AST_IS_DISTINCT:
        return first_agg2(e->u.is_distinct.left, e->u.is_distinct.right);
    default:
        return NULL;
    }
}

static bool contains_agg(const sqe_ast_expr *e) {
    return first_agg(e) != NULL;
}

const sqe_ast_expr *sqe_bind_first_aggregate(const sqe_ast_expr *e) {
    return first_agg(e);
}

bool sqe_bind_contains_aggregate(const sqe_ast_expr *e) {
    return contains_agg(e);
}

/* ------------------------------------------------------------ literals */

/* Precision of a numeric literal as Trino types it: its digits without the
 * leading zeros of the integer part (0.25 is decimal(2,2), 007 has 1). */

/* TIMESTAMP 'x' literal precision: the fractional digits written (Trino),
 * at most 12; digits after the time's '.' ('2020-01-01 00:00:00.50' is 2). */
static int timestamp_literal_precision(const char *t) {
    const char *colon = strchr(t, ':');
    const char *dot = colon ? strchr(colon, '.') : NULL;
    if (!dot) return 0;
    int n = 0;
    while (dot[1 + n] >= '0' && dot[1 + n] <= '9') n++;
    return n > SQE_TIMESTAMP_MAX_PRECISION ? SQE_TIMESTAMP_MAX_PRECISION : n;
}

static int count_digits(const char *s) {
    int n = 0;
    bool leading = true;
    for (; *s; s++) {
        if (*s == '.') leading = false;
        if (*s < '0' || *s > '9') continue;
        if (leading && *s == '0') continue;
        leading = false;
        n++;
    }
    return n;
}

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* X'48 65': hex digits, whitespace ignored (Trino), into a VARBINARY. */
static bool bind_binary_literal(sqe_arena *a, const sqe_ast_expr *e, sqe_value *out,
                                sqe_error *err) {
    const char *t = e->u.lit.text;
    size_t n = strlen(t), k = 0;
    char *bytes = sqe_arena_alloc(a, n / 2 + 1);
    int hi = -1;
    for (size_t i = 0; i < n; i++) {
        if (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r') continue;
        int d = hex_digit(t[i]);
        if (d < 0)
            return sqe_bind_error(err, SQE_ERR_SYNTAX, e->pos,
                                  "binary literal can only contain hexadecimal digits: X'%s'", t);
        if (hi < 0) {
            hi = d;
        } else {
            bytes[k++] = (char)(hi << 4 | d);
            hi = -1;
        }
    }
    if (hi >= 0)
        return sqe_bind_error(err, SQE_ERR_SYNTAX, e->pos,
                              "binary literal must contain an even number of digits: X'%s'", t);
    *out = sqe_value_string(bytes, (uint32_t)k);
    out->type = sqe_type_make(SQE_T_VARBINARY);
    return true;
}

bool sqe_bind_literal(sqe_arena *a, const sqe_ast_expr *e, sqe_value *out, sqe_error *err) {
    const char *t = e->u.lit.text;
    switch (e->u.lit.kind) {
    case SQE_LIT_NULL:
        *out = sqe_value_null(sqe_type_make(SQE_T_NULL));
        return true;
    case SQE_LIT_BOOL:
        *out = sqe_value_bool(e->u.lit.b);
        return true;
    case SQE_LIT_INTEGER: {
        int64_t v;
        if (sqe_parse_int64(t, strlen(t), &v)) {
            *out =
                sqe_value_int(v >= INT32_MIN && v <= INT32_MAX ? SQE_T_INTEGER : SQE_T_BIGINT, v);
            return true;
        }
        int digits = count_digits(t);
        sqe_i128 d;
        if (digits <= SQE_DECIMAL_MAX_PRECISION && sqe_parse_decimal(t, strlen(t), digits, 0, &d)) {
            *out = sqe_value_decimal(d, digits, 0);
            return true;
        }
        return sqe_bind_error(err, SQE_ERR_OUT_OF_RANGE, e->pos, "integer literal %s is too large",
                              t);
    }
    case SQE_LIT_DECIMAL: {
        const char *dot = strchr(t, '.');
        int scale = dot ? (int)strlen(dot + 1) : 0;
        int digits = count_digits(t);
        if (digits < 1) digits = 1;
        if (digits > SQE_DECIMAL_MAX_PRECISION) {
            double d;
            if (!sqe_parse_double(t, strlen(t), &d))
                return sqe_bind_error(err, SQE_ERR_SYNTAX, e->pos, "invalid number '%s'", t);
            *out = sqe_value_double(d);
            return true;
        }
        sqe_i128 v;
        if (!sqe_parse_decimal(t, strlen(t), digits, scale, &v))
            return sqe_bind_error(err, SQE_ERR_SYNTAX, e->pos, "invalid decimal literal '%s'", t);
        *out = sqe_value_decimal(v, digits, scale);
        return true;
    }
    case SQE_LIT_DOUBLE: {
        double d;
        if (!sqe_parse_double(t, strlen(t), &d))
            return sqe_bind_error(err, SQE_ERR_SYNTAX, e->pos, "invalid number '%s'", t);
        *out = sqe_value_double(d);
        return true;
    }
    case SQE_LIT_STRING:
        *out = sqe_value_string(t, (uint32_t)strlen(t));
        return true;
    case SQE_LIT_TYPED: {
        sqe_type ty;
        sqe_error terr;
        if (sqe_str_ieq(e->u.lit.type_name, "decimal")) {
            /* DECIMAL '1.56' is typed by its digits (Trino): decimal(3,2). */
            const char *b = t;
            while (*b == ' ') b++;
            size_t len = strlen(b);
            while (len && b[len - 1] == ' ') len--;
            char *txt = sqe_arena_alloc(a, len + 1);
            memcpy(txt, b, len);
            const char *dot = strchr(txt, '.');
            int scale = dot ? (int)strlen(dot + 1) : 0;
            int digits = count_digits(txt);
            if (digits < scale) digits = scale;
            if (digits < 1) digits = 1;
            sqe_i128 v;
            if (digits > SQE_DECIMAL_MAX_PRECISION ||
                !sqe_parse_decimal(txt, len, digits, scale, &v))
                return sqe_bind_error(err, SQE_ERR_INVALID_ARGUMENT, e->pos,
                                      "invalid decimal literal '%s'", t);
            *out = sqe_value_decimal(v, digits, scale);
            return true;
        }
        if (strcmp(e->u.lit.type_name, "x") == 0) return bind_binary_literal(a, e, out, err);
        if (!sqe_type_parse_sql(e->u.lit.type_name, &ty, &terr))
            return sqe_bind_error(err, terr.cls, e->pos, "%s", terr.msg);
        if (ty.id == SQE_T_TIMESTAMP) ty = sqe_type_timestamp(timestamp_literal_precision(t));
        if (ty.id == SQE_T_TIME) ty = sqe_type_time(timestamp_literal_precision(t));
        sqe_value s = sqe_value_string(t, (uint32_t)strlen(t));
        sqe_error cerr;
        /* TIMESTAMP '2020-01-01 00:00 UTC': a zone makes it a timestamp with time zone. */
        if (ty.id == SQE_T_TIMESTAMP && !sqe_value_cast(&s, ty, false, a, out, &cerr) &&
            sqe_value_cast(&s, sqe_type_make(SQE_T_TIMESTAMP_TZ), false, a, out, &cerr))
            return true;
        if (!sqe_value_cast(&s, ty, false, a, out, &cerr)) {
            char tb[64];
            return sqe_bind_error(err, SQE_ERR_INVALID_ARGUMENT, e->pos, "invalid %s literal '%s'",
                                  ty.id == SQE_T_TIMESTAMP ? "timestamp"
                                  : ty.id == SQE_T_TIME    ? "time"
                                                           : sqe_type_sql_name(ty, tb, sizeof tb),
                                  t);
        }
        return true;
    }
    case SQE_LIT_INTERVAL: {
        sqe_error ierr;
        if (!sqe_interval_parse(t, e->u.lit.type_name, false, out, &ierr))
            return sqe_bind_error(err, ierr.cls, e->pos, "%s", ierr.msg);
        return true;
    }
    }
    return sqe_error_set(err, SQE_ERR_INTERNAL, "unknown literal kind");
}

/* ----------------------------------------------------------- helpers */

static sqe_expr **args_array(sqe_arena *a, int n) {
    return n ? sqe_arena_alloc(a, sizeof(sqe_expr *) * (size_t)n) : NULL;
}

sqe_expr *sqe_bind_and(sqe_arena *a, sqe_expr *l, sqe_expr *r) {
    if (!l) return r;
    if (!r) return l;
    sqe_expr **args = args_array(a, 2);
    args[0] = l;
    args[1] = r;
    return sqe_expr_new(a, SQE_EXPR_AND, sqe_type_make(SQE_T_BOOLEAN), 2, args);
}

static bool try_fold(bind_ctx *cx, sqe_expr **pe) {
    sqe_expr *e = *pe;
    if (e->kind == SQE_EXPR_CONST || e->kind == SQE_EXPR_COLUMN) return true;
    if (!sqe_expr_is_const(e)) return true;
    sqe_value v;
    sqe_error ferr;
    if (!sqe_expr_eval_const(e, cx->arena, &v, &ferr)) return true; /* leave to run time */
    v.type = e->type;
    sqe_expr *c = sqe_expr_const(cx->arena, &v);
    c->type = e->type;
    *pe = c;
    return true;
}

static bool is_char_type(sqe_type t) {
    return t.id == SQE_T_VARCHAR && t.str_kind == SQE_STRKIND_CHAR;
}

/* Characters of a non-NULL string constant. */
static uint32_t const_chars(const sqe_expr *x) {
    uint32_t n = 0;
    const char *p = x->value.v.s.ptr;
    for (uint32_t i = 0; i < x->value.v.s.len; i++) n += ((uint8_t)p[i] & 0xC0) != 0x80;
    return n;
}

sqe_expr *sqe_bind_coerce(bind_ctx *cx, sqe_expr *e, sqe_type to, sqe_error *err) {
    if (sqe_type_equal(e->type, to)) return e;
    if (e->type.id == to.id && to.id == SQE_T_VARCHAR) {
        /* Varchar kinds read alike, except into CHAR(n) from a bounded
         * string that is not CHAR(n): the common type of CHAR(n) with
         * char(m)/varchar(m), m <= n, so the cast pads the value to n
         * characters (the canonical CHAR form) and cuts nothing. An
         * unbounded string meets CHAR only in a comparison
         * (sqe_type_compare_common), which ignores trailing spaces and must
         * see the whole value: left as it is. */
        bool is_const = e->kind == SQE_EXPR_CONST && !e->value.is_null;
        bool bounded = is_const || (e->type.str_kind != SQE_STRKIND_STRING && e->type.length > 0);
        uint32_t len = is_const ? const_chars(e) : e->type.length;
        if (!is_char_type(to) || !bounded || len > to.length) return e;
    }
    if (e->kind == SQE_EXPR_CONST && e->value.is_null) {
        sqe_value v = sqe_value_null(to);
        return sqe_expr_const(cx->arena, &v);
    }
    sqe_expr *c = sqe_expr_cast(cx->arena, e, to, false);
    c->zone = cx->stmt ? cx->stmt->zone : 0;
    try_fold(cx, &c);
    return c;
}

sqe_expr *sqe_bind_call(bind_ctx *cx, const char *name, int n, sqe_expr **args, sqe_pos pos,
                        sqe_error *err) {
    sqe_type *types = sqe_arena_alloc(cx->arena, sizeof(sqe_type) * (size_t)(n ? n : 1));
    const sqe_value **consts =
        sqe_arena_alloc(cx->arena, sizeof(sqe_value *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        types[i] = args[i]->type;
        consts[i] = args[i]->kind == SQE_EXPR_CONST ? &args[i]->value : NULL;
    }
    sqe_func_binding fb;
    sqe_error ferr;
    if (!sqe_func_bind_scalar(cx->arena, name, n, types, consts, &fb, &ferr)) {
        sqe_bind_error(err, ferr.cls, pos, "%s", ferr.msg);
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        args[i] = sqe_bind_coerce(cx, args[i], fb.arg_types[i], err);
        if (!args[i]) return NULL;
    }
    if (cx->stmt) sqe_func_fix_statement(&fb, cx->stmt);
    sqe_expr *e = sqe_expr_new(cx->arena, SQE_EXPR_CALL, fb.ret, n, args);
    e->fn = fb;
    try_fold(cx, &e);
    return e;
}

static sqe_expr *bind_binary_call(bind_ctx *cx, const char *op, sqe_expr *l, sqe_expr *r,
                                  sqe_pos pos, sqe_error *err) {
    sqe_expr **args = args_array(cx->arena, 2);
    args[0] = l;
    args[1] = r;
    return sqe_bind_call(cx, op, 2, args, pos, err);
}

static sqe_expr *make_not(bind_ctx *cx, sqe_expr *e) {
    sqe_expr **args = args_array(cx->arena, 1);
    args[0] = e;
    sqe_expr *n = sqe_expr_new(cx->arena, SQE_EXPR_NOT, sqe_type_make(SQE_T_BOOLEAN), 1, args);
    try_fold(cx, &n);
    return n;
}

static sqe_expr *require_bool(bind_ctx *cx, sqe_expr *e, const char *what, sqe_pos pos,
                              sqe_error *err) {
    if (e->type.id == SQE_T_BOOLEAN) return e;
    if (e->type.id == SQE_T_NULL) return sqe_bind_coerce(cx, e, sqe_type_make(SQE_T_BOOLEAN), err);
    char tb[64];
    sqe_bind_error(err, SQE_ERR_TYPE_MISMATCH, pos, "%s must be boolean, got %s", what,
                   sqe_type_sql_name(e->type, tb, sizeof tb));
    return NULL;
}

/* The type xs[i] takes part in unify with: a string constant next to a CHAR
 * counts as varchar(its length in characters), as Trino types a literal
 * 'abc' varchar(3), so COALESCE(char(3) column, 'hello') is char(5). */
static sqe_type unify_type(const sqe_expr *x, bool any_char) {
    if (!any_char || x->kind != SQE_EXPR_CONST || x->value.is_null || x->type.id != SQE_T_VARCHAR ||
        x->type.str_kind != SQE_STRKIND_STRING)
        return x->type;
    sqe_type t = x->type;
    t.str_kind = SQE_STRKIND_VARCHAR;
    t.length = const_chars(x);
    if (t.length == 0) t.length = 1; /* '' : varchar(0) would read as unbounded */
    return t;
}

/* Common type of a list of expressions, coerced in place: values of one
 * column (COALESCE, IF, CASE results: sqe_type_common) or, with `compare`,
 * operands of one comparison (IN: sqe_type_compare_common). */
static bool unify(bind_ctx *cx, sqe_expr **xs, int n, bool compare, sqe_type *out, const char *what,
                  sqe_pos pos, sqe_error *err) {
    sqe_type t = sqe_type_make(SQE_T_NULL);
    bool any_char = false;
    for (int i = 0; i < n; i++) any_char |= is_char_type(xs[i]->type);
    for (int i = 0; i < n; i++) {
        sqe_type c, xt = compare ? xs[i]->type : unify_type(xs[i], any_char);
        if (!(compare ? sqe_type_compare_common(t, xt, &c) : sqe_type_common(t, xt, &c))) {
            char a[64], b[64];
            return sqe_bind_error(
                err, SQE_ERR_TYPE_MISMATCH, pos, "%s: cannot combine types %s and %s", what,
                sqe_type_sql_name(t, a, sizeof a), sqe_type_sql_name(xs[i]->type, b, sizeof b));
        }
        t = c;
    }
    for (int i = 0; i < n; i++) {
        xs[i] = sqe_bind_coerce(cx, xs[i], t, err);
        if (!xs[i]) return false;
    }
    *out = t;
    return true;
}

/* -------------------------------------------------------------- columns */

static const char *fold(bind_ctx *cx, const sqe_ident *id) {
    return sqe_str_lower(sqe_arena_strdup(cx->arena, id->name));
}

static sqe_expr *bind_column(bind_ctx *cx, const sqe_ast_expr *e, sqe_error *err);

/* A correlated reference to a grouped query: a subquery in its HAVING,
 * select list or ORDER BY sees the aggregate's output, so the name must
 * be one of the GROUP BY keys and binds to that key's output column. */
static sqe_expr *bind_outer_grouped(bind_ctx *o, const sqe_ast_expr *e, const char *full,
                                    sqe_error *err) {
    agg_ctx *ag = o->agg;
    bind_ctx src = *o;
    src.agg = NULL;
    src.scope = ag->source;
    src.subq = NULL;
    src.win = NULL;
    sqe_expr *b = bind_column(&src, e, err);
    if (!b) return NULL;
    int n_keys = ag->gid_col >= 0 ? ag->gid_col : ag->n_groups;
    for (int g = 0; g < n_keys; g++)
        if (sqe_expr_equal(b, ag->groups[g]))
            return sqe_expr_column(o->arena, g, ag->groups[g]->type, b->name);
    if (b->kind == SQE_EXPR_OUTER_COL) return b; /* the grouped query's own outer reference */
    sqe_bind_error(err, SQE_ERR_USAGE, e->pos,
                   "subquery uses '%s', which must be an aggregate expression or appear in GROUP "
                   "BY clause of the enclosing query",
                   full);
    return NULL;
}

/* A name the subquery's own FROM does not have: a correlated reference to
 * the enclosing query's scope, as an OUTER_COL the planner rewrites into a
 * join condition. In a grouped enclosing query it names a GROUP BY key
 * (an output column of the aggregate the subquery's join is stacked on). */
static sqe_expr *bind_outer_column(bind_ctx *cx, const sqe_ast_expr *e, const char *full,
                                   sqe_error *err) {
    bind_ctx *o = (bind_ctx *)cx->outer;
    sqe_expr *c;
    if (o->agg) {
        c = bind_outer_grouped(o, e, full, err);
    } else if (o->scope) {
        c = bind_column(o, e, err);
    } else {
        sqe_bind_error(err, SQE_ERR_NOT_FOUND, e->pos, "column '%s' cannot be resolved", full);
        return NULL;
    }
    if (!c) return NULL;
    if (c->kind == SQE_EXPR_OUTER_COL) { /* the enclosing query's own outer reference */
        if (SQE_OUTER_LEVEL(c) >= 1) {
            sqe_bind_error(err, SQE_ERR_NOT_SUPPORTED, e->pos,
                           "column '%s': correlation across more than two query levels is not "
                           "supported",
                           full);
            return NULL;
        }
        SQE_OUTER_LEVEL(c) = 1; /* two levels up (subquery.c decorrelates it) */
        return c;
    }
    c->kind = SQE_EXPR_OUTER_COL;
    SQE_OUTER_LEVEL(c) = 0;
    return c;
}

static sqe_expr *bind_column(bind_ctx *cx, const sqe_ast_expr *e, sqe_error *err) {
    const sqe_qname *q = &e->u.column;
    char *full = sqe_arena_strdup(cx->arena, "");
    for (int i = 0; i < q->n_parts; i++)
        full = sqe_arena_sprintf(cx->arena, "%s%s%s", full, i ? "." : "", q->parts[i].name);
    if ((!cx->scope || cx->scope->n == 0) && !cx->outer) {
        sqe_bind_error(err, SQE_ERR_NOT_FOUND, e->pos,
                       "column '%s' cannot be resolved (no FROM clause)", full);
        return NULL;
    }
    if (q->n_parts > 4) {
        sqe_bind_error(err, SQE_ERR_SYNTAX, e->pos, "column reference '%s' has too many parts",
                       full);
        return NULL;
    }
    /* [[[root.]db.]table.]column */
    int np = q->n_parts;
    const char *col = fold(cx, &q->parts[np - 1]);
    const char *tbl = np >= 2 ? fold(cx, &q->parts[np - 2]) : NULL;
    const char *db = np >= 3 ? fold(cx, &q->parts[np - 3]) : NULL;
    const char *root = np >= 4 ? q->parts[0].name : NULL;
    const scope_col *hit = NULL;
    for (int i = 0; cx->scope && i < cx->scope->n; i++) {
        const scope_col *c = &cx->scope->cols[i];
        if (strcmp(c->name, col) != 0) continue;
        if (c->qualified_only && !tbl) continue;
        if (tbl && (!c->qualifier || strcmp(c->qualifier, tbl) != 0)) continue;
        if (db && (!c->database || strcmp(c->database, db) != 0)) continue;
        if (root && (!c->root || !sqe_str_ieq(c->root, root))) continue;
        if (hit) {
            sqe_bind_error(err, SQE_ERR_USAGE, e->pos, "column reference '%s' is ambiguous", full);
            return NULL;
        }
        hit = c;
    }
    if (!hit && cx->outer) return bind_outer_column(cx, e, full, err);
    if (!hit) {
        /* A near miss helps more than the bare fact. */
        const char *best = NULL;
        for (int i = 0; i < cx->scope->n && !best; i++)
            if (sqe_str_ieqn(cx->scope->cols[i].name, col, 3) && strlen(col) >= 3)
                best = cx->scope->cols[i].name;
        if (best)
            sqe_bind_error(err, SQE_ERR_NOT_FOUND, e->pos,
                           "column '%s' cannot be resolved (did you mean '%s'?)", full, best);
        else
            sqe_bind_error(err, SQE_ERR_NOT_FOUND, e->pos, "column '%s' cannot be resolved", full);
        return NULL;
    }
    return sqe_expr_column(cx->arena, hit->index, hit->type, hit->name);
}

/* ------------------------------------------------------------- aggregates */

static char *agg_key(bind_ctx *cx, const sqe_ast_expr *e) {
    const char *k = sqe_sql_expr_to_string(cx->arena, e);
    if (e->kind == SQE_AST_FUNCTION && e->u.func.filter && !strstr(k, "FILTER"))
        return sqe_arena_sprintf(cx->arena, "%s FILTER (WHERE %s)", k,
                                 sqe_sql_expr_to_string(cx->arena, e->u.func.filter));
    return sqe_arena_sprintf(cx->arena, "%s", k);
}

sqe_expr *sqe_bind_agg_filter(bind_ctx *cx, const scope *source, const sqe_ast_expr *e,
                              sqe_agg_binding *ab, sqe_expr *arg, sqe_error *err) {
    bind_ctx sub = *cx;
    sub.agg = NULL;
    sub.collecting = false;
    sub.scope = source;
    sub.win = NULL;
    sub.clause = "FILTER";
    if (contains_agg(e->u.func.filter))
        return sqe_bind_error(err, SQE_ERR_USAGE, e->u.func.filter->pos,
                              "aggregate functions are not allowed in FILTER"),
               NULL;
    sqe_expr *c = sqe_bind_expr(&sub, e->u.func.filter, err);
    if (!c) return NULL;
    if (c->type.id == SQE_T_NULL) c = sqe_bind_coerce(&sub, c, sqe_type_make(SQE_T_BOOLEAN), err);
    if (c->type.id != SQE_T_BOOLEAN) {
        char tb[64];
        return sqe_bind_error(err, SQE_ERR_TYPE_MISMATCH, e->u.func.filter->pos,
                              "FILTER condition must be boolean, got %s",
                              sqe_type_sql_name(c->type, tb, sizeof tb)),
               NULL;
    }
    /* agg(x) FILTER (WHERE c) == agg(CASE WHEN c THEN x END): every
     * aggregate here ignores NULL inputs; count(*) counts a non-NULL 1. */
    if (!arg) {
        sqe_value one = sqe_value_int(SQE_T_INTEGER, 1);
        arg = sqe_expr_const(cx->arena, &one);
        ab->star = false;
    }
    sqe_expr **args = sqe_arena_alloc(cx->arena, sizeof(sqe_expr *) * 2);
    args[0] = c;
    args[1] = arg;
    return sqe_expr_new(cx->arena, SQE_EXPR_CASE, arg->type, 2, args);
}

static int find_agg(const agg_ctx *ag, const char *key) {
    for (int i = 0; i < ag->n_aggs; i++)
        if (strcmp(ag->agg_keys[i], key) == 0) return i;
    return -1;
}

static bool add_agg(bind_ctx *cx, const sqe_ast_expr *e, sqe_error *err) {
    if (e->u.func.ignore_nulls)
        return sqe_bind_error(err, SQE_ERR_USAGE, e->pos,
                              "IGNORE NULLS is only allowed for lag, lead, first_value, "
                              "last_value and nth_value");
    agg_ctx *ag = cx->agg;
    char *key = agg_key(cx, e);
    if (find_agg(ag, key) >= 0) return true;
    const char *name = e->u.func.name.parts[0].name;
    if (e->u.func.n_args > 1)
        return sqe_bind_error(err, SQE_ERR_TYPE_MISMATCH, e->pos,
                              "aggregate function %s takes one argument, got %d", name,
                              e->u.func.n_args);
    sqe_expr *arg = NULL;
    if (!e->u.func.star) {
        if (e->u.func.n_args == 0)
            return sqe_bind_error(err, SQE_ERR_TYPE_MISMATCH, e->pos,
                                  "aggregate function %s requires an argument", name);
        if (contains_agg(e->u.func.args[0]))
            return sqe_bind_error(err, SQE_ERR_USAGE, e->pos,
                                  "aggregate function calls cannot be nested");
        bind_ctx sub = *cx;
        sub.agg = NULL;
        sub.collecting = false;
        sub.scope = ag->source;
        arg = sqe_bind_expr(&sub, e->u.func.args[0], err);
        if (!arg) return false;
    }
    sqe_agg_binding ab;
    sqe_type at = arg ? arg->type : sqe_type_make(SQE_T_NULL);
    sqe_error ferr;
    char lname[64];
    snprintf(lname, sizeof lname, "%s", name);
    sqe_str_lower(lname);
    if (!sqe_func_bind_aggregate(cx->arena, lname, e->u.func.distinct, e->u.func.star, arg ? 1 : 0,
                                 &at, &ab, &ferr))
        return sqe_bind_error(err, ferr.cls, e->pos, "%s", ferr.msg);
    if (arg) {
        arg = sqe_bind_coerce(cx, arg, ab.arg_type, err);
        if (!arg) return false;
    }
    if (e->u.func.filter && !(arg = sqe_bind_agg_filter(cx, ag->source, e, &ab, arg, err)))
        return false;
    if (ag->n_aggs == ag->cap_aggs) {
        int nc = ag->cap_aggs ? ag->cap_aggs * 2 : 8;
        ag->aggs =
            sqe_arena_realloc(cx->arena, ag->aggs, sizeof(sqe_agg_binding) * (size_t)ag->cap_aggs,
                              sizeof(sqe_agg_binding) * (size_t)nc);
        ag->agg_args =
            sqe_arena_realloc(cx->arena, ag->agg_args, sizeof(sqe_expr *) * (size_t)ag->cap_aggs,
                              sizeof(sqe_expr *) * (size_t)nc);
        ag->agg_keys =
            sqe_arena_realloc(cx->arena, ag->agg_keys, sizeof(char *) * (size_t)ag->cap_aggs,
                              sizeof(char *) * (size_t)nc);
        ag->cap_aggs = nc;
    }
    ag->aggs[ag->n_aggs] = ab;
    ag->agg_args[ag->n_aggs] = arg;
    ag->agg_keys[ag->n_aggs] = key;
    ag->n_aggs++;
    return true;
}

/* An aggregate call in a subquery's WHERE that may belong to this grouped
 * query (its argument reads only this query's columns): collected too, so
 * the subquery can read its output (bind_outer_aggregate). Never fails:
 * one that does not bind here is the subquery's own (and an error there). */
static void collect_trial(bind_ctx *cx, const sqe_ast_expr *e) {
    if (e->u.func.star || e->u.func.n_args != 1) return;
    bind_ctx sub = *cx;
    sub.agg = NULL;
    sub.collecting = sub.collect_trial = false;
    sub.scope = cx->agg->source;
    sub.outer = NULL;
    sub.subq = NULL;
    sub.win = NULL;
    sqe_error terr;
    if (sqe_bind_expr(&sub, e->u.func.args[0], &terr)) add_agg(cx, e, &terr);
}

static bool collect(bind_ctx *cx, const sqe_ast_expr *e, sqe_error *err);

/* The WHERE of a subquery met while collecting (one level deep). */
static bool collect_subquery(bind_ctx *cx, const sqe_ast_query *q, sqe_error *err) {
    if (cx->collect_trial || q->kind != SQE_QUERY_SELECT || !q->where) return true;
    bind_ctx sub = *cx;
    sub.collect_trial = true;
    return collect(&sub, q->where, err);
}

static bool collect(bind_ctx *cx, const sqe_ast_expr *e, sqe_error *err) {
    if (!e) return true;
    if (e->kind == SQE_AST_SUBQUERY || e->kind == SQE_AST_EXISTS)
        return collect_subquery(cx, e->u.subquery.query, err);
    if (e->kind == SQE_AST_IN_SUBQUERY)
        return collect(cx, e->u.in_subquery.arg, err) &&
               collect_subquery(cx, e->u.in_subquery.query, err);
    if (cx->collect_trial && sqe_bind_is_aggregate_call(e)) {
        collect_trial(cx, e);
        return true;
    }
    if (e->kind == SQE_AST_FUNCTION && e->u.func.over) {
        const sqe_ast_window *w = e->u.func.over;
        for (int i = 0; i < e->u.func.n_args; i++)
            if (!collect(cx, e->u.func.args[i], err)) return false;
        for (int i = 0; i < w->n_partition; i++)
            if (!collect(cx, w->partition[i], err)) return false;
        for (int i = 0; i < w->n_order; i++)
            if (!collect(cx, w->order[i].expr, err)) return false;
        return collect(cx, e->u.func.filter, err);
    }
    if (sqe_bind_is_aggregate_call(e)) return add_agg(cx, e, err);
    switch (e->kind) {
    case SQE_AST_FUNCTION:
        for (int i = 0; i < e->u.func.n_args; i++)
            if (!collect(cx, e->u.func.args[i], err)) return false;
        return true;
    case SQE_AST_UNARY:
        return collect(cx, e->u.unary.arg, err);
    case SQE_AST_BINARY:
        return collect(cx, e->u.binary.left, err) && collect(cx, e->u.binary.right, err);
    case SQE_AST_CASE:
        if (!collect(cx, e->u.case_.operand, err) || !collect(cx, e->u.case_.else_, err))
            return false;
        for (int i = 0; i < e->u.case_.n_whens; i++)
            if (!collect(cx, e->u.case_.whens[i].cond, err) ||
                !collect(cx, e->u.case_.whens[i].result, err))
                return false;
        return true;
    case SQE_AST_CAST:
        return collect(cx, e->u.cast.arg, err);
    case SQE_AST_IN_LIST:
        if (!collect(cx, e->u.in_list.arg, err)) return false;
        for (int i = 0; i < e->u.in_list.n_items; i++)
            if (!collect(cx, e->u.in_list.items[i], err)) return false;
        return true;
    case SQE_AST_BETWEEN:
        return collect(cx, e->u.between.arg, err) && collect(cx, e->u.between.low, err) &&
               collect(cx, e->u.between.high, err);
    case SQE_AST_LIKE:
        return collect(cx, e->u.like.arg, err) && collect(cx, e->u.like.pattern, err) &&
               collect(cx, e->u.like.escape, err);
    case SQE_AST_IS_NULL:
        return collect(cx, e->u.is_null.arg, err);
    case SQE_AST_IS_DISTINCT:
        return collect(cx, e->u.is_distinct.left, err) && collect(cx, e->u.is_distinct.right, err);
    default:
        return true;
    }
}

bool sqe_bind_collect_aggs(bind_ctx *cx, const sqe_ast_expr *e, sqe_error *err) {
    return collect(cx, e, err);
}

/* Post-aggregation: is e an aggregate call or a GROUP BY key? */
static sqe_expr *bigint_const(sqe_arena *a, int64_t v) {
    sqe_value x = sqe_value_int(SQE_T_BIGINT, v);
    return sqe_expr_const(a, &x);
}

static sqe_expr *bind_arith(bind_ctx *cx, const char *op, sqe_expr *l, sqe_expr *r, sqe_pos pos,
                            sqe_error *err) {
    sqe_expr **args = args_array(cx->arena, 2);
    args[0] = l;
    args[1] = r;
    return sqe_bind_call(cx, op, 2, args, pos, err);
}

/* grouping(a, b, ...): bit i (from the left) is 1 when argument i is not
 * in the row's grouping set, read from the group id column. */
static sqe_expr *bind_grouping(bind_ctx *cx, const sqe_ast_expr *e, sqe_error *err) {
    agg_ctx *ag = cx->agg;
    int m = e->u.func.n_args;
    if (m == 0 || m > 62)
        return sqe_bind_error(err, SQE_ERR_TYPE_MISMATCH, e->pos,
                              "grouping() takes 1 to 62 arguments, got %d", m),
               NULL;
    int n_keys = ag->gid_col >= 0 ? ag->gid_col : ag->n_groups;
    sqe_expr *res = bigint_const(cx->arena, 0);
    for (int i = 0; i < m; i++) {
        bind_ctx sub = *cx;
        sub.agg = NULL;
        sub.scope = ag->source;
        sub.subq = NULL;
        sub.win = NULL;
        sqe_expr *b = sqe_bind_expr(&sub, e->u.func.args[i], err);
        if (!b) return NULL;
        int k = -1;
        for (int g = 0; g < n_keys && k < 0; g++)
            if (sqe_expr_equal(b, ag->groups[g])) k = g;
        if (k < 0)
            return sqe_bind_error(err, SQE_ERR_USAGE, e->u.func.args[i]->pos,
                                  "arguments of grouping() must be GROUP BY expressions"),
                   NULL;
        if (ag->gid_col < 0) continue; /* plain GROUP BY: every key is in the set */
        sqe_expr *gid =
            sqe_expr_column(cx->arena, ag->gid_col, sqe_type_make(SQE_T_BIGINT), "_groupid");
        sqe_expr *bit = bind_arith(
            cx, "/", gid, bigint_const(cx->arena, (int64_t)1 << (n_keys - 1 - k)), e->pos, err);
        if (bit) bit = bind_arith(cx, "%", bit, bigint_const(cx->arena, 2), e->pos, err);
        if (bit)
            bit = bind_arith(cx, "*", bit, bigint_const(cx->arena, (int64_t)1 << (m - 1 - i)),
                             e->pos, err);
        if (bit) res = bind_arith(cx, "+", res, bit, e->pos, err);
        if (!bit || !res) return NULL;
    }
    return res;
}

static sqe_expr *bind_post_agg(bind_ctx *cx, const sqe_ast_expr *e, bool *handled, sqe_error *err) {
    agg_ctx *ag = cx->agg;
    *handled = false;
    if (e->kind == SQE_AST_FUNCTION && e->u.func.name.n_parts == 1 && !e->u.func.over &&
        sqe_str_ieq(e->u.func.name.parts[0].name, "grouping")) {
        *handled = true;
        return bind_grouping(cx, e, err);
    }
    if (sqe_bind_is_aggregate_call(e)) {
        int i = find_agg(ag, agg_key(cx, e));
        if (i < 0) {
            sqe_bind_error(err, SQE_ERR_INTERNAL, e->pos, "aggregate not collected");
            return NULL;
        }
        *handled = true;
        const sqe_agg_binding *b = &ag->aggs[i];
        return sqe_expr_column(cx->arena, ag->n_groups + i, b->ret, ag->agg_keys[i]);
    }
    if (!contains_agg(e) && e->kind != SQE_AST_LITERAL) {
        bind_ctx sub = *cx;
        sub.agg = NULL;
        sub.scope = ag->source;
        sub.subq = NULL; /* a trial: must not stack joins */
        sub.win = NULL;
        sqe_error serr;
        sqe_expr *b = sqe_bind_expr(&sub, e, &serr);
        if (b && b->kind == SQE_EXPR_OUTER_COL) {
            *handled = true; /* the enclosing query's column: one value per group */
            return b;
        }
        if (b) {
            for (int g = 0; g < ag->n_groups; g++) {
                if (sqe_expr_equal(b, ag->groups[g])) {
                    *handled = true;
                    return sqe_expr_column(cx->arena, g, ag->groups[g]->type,
                                           sqe_sql_expr_to_string(cx->arena, ag->group_asts[g]));
                }
            }
            if (e->kind == SQE_AST_COLUMN) {
                *handled = true;
                sqe_bind_error(err, SQE_ERR_USAGE, e->pos,
                               "column '%s' must appear in the GROUP BY clause or be used in an "
                               "aggregate function",
                               sqe_sql_expr_to_string(cx->arena, e));
                return NULL;
            }
        } else if (e->kind == SQE_AST_COLUMN) {
            *handled = true;
            if (err) *err = serr; /* already names the column and its position */
            return NULL;
        }
    }
    return NULL;
}

/* ------------------------------------------------------------- the binder */

static sqe_expr *bind(bind_ctx *cx, const sqe_ast_expr *e, sqe_error *err);

/* An aggregate call in a subquery (where the subquery does not aggregate)
 * whose argument reads none of the subquery's own columns belongs to the
 * enclosing grouped query (SQL: an aggregate is of the innermost query
 * whose columns it reads): an OUTER_COL of that query's aggregate output,
 * collected there by collect_trial. NULL when it is not one. */
static sqe_expr *bind_outer_aggregate(bind_ctx *cx, const sqe_ast_expr *e) {
    const bind_ctx *o = cx->outer;
    if (!o || !o->agg || cx->collecting || e->u.func.star || e->u.func.n_args != 1) return NULL;
    bind_ctx in = *cx;
    in.outer = NULL;
    in.subq = NULL;
    in.win = NULL;
    sqe_error terr;
    if (bind(&in, e->u.func.args[0], &terr)) return NULL; /* reads the subquery's columns */
    int i = find_agg(o->agg, agg_key(cx, e));
    if (i < 0) return NULL;
    sqe_expr *c =
        sqe_expr_column(cx->arena, o->agg->n_groups + i, o->agg->aggs[i].ret, o->agg->agg_keys[i]);
    c->kind = SQE_EXPR_OUTER_COL;
    SQE_OUTER_LEVEL(c) = 0;
    return c;
}

static sqe_expr *bind_function(bind_ctx *cx, const sqe_ast_expr *e, sqe_error *err) {
    const sqe_qname *qn = &e->u.func.name;
    if (qn->n_parts != 1) {
        sqe_bind_error(err, SQE_ERR_NOT_FOUND, e->pos, "function '%s.%s' not registered",
                       qn->parts[0].name, qn->parts[qn->n_parts - 1].name);
        return NULL;
    }
    char *name = sqe_str_lower(sqe_arena_strdup(cx->arena, qn->parts[0].name));
    if (sqe_bind_is_aggregate_call(e)) {
        sqe_expr *oa = bind_outer_aggregate(cx, e);
        if (oa) return oa;
        if (cx->collecting) {
            sqe_bind_error(err, SQE_ERR_INTERNAL, e->pos, "unexpected aggregate");
            return NULL;
        }
        sqe_bind_error(err, SQE_ERR_USAGE, e->pos, "aggregate function %s is not allowed in %s",
                       name, cx->clause ? cx->clause : "this context");
        return NULL;
    }
    if (e->u.func.distinct) {
        sqe_bind_error(err, SQE_ERR_USAGE, e->pos,
                       "DISTINCT is only allowed in aggregate functions, not %s()", name);
        return NULL;
    }
    int n = e->u.func.n_args;
    sqe_expr **args = args_array(cx->arena, n);
    bool lazy_rest = strcmp(name, "coalesce") == 0 || strcmp(name, "if") == 0;
    bool is_try = strcmp(name, "try") == 0; /* its argument's errors may never surface */
    for (int i = 0; i < n; i++) {
        bool lazy = (lazy_rest && i > 0) || is_try;
        cx->lazy += lazy;
        args[i] = bind(cx, e->u.func.args[i], err);
        cx->lazy -= lazy;
        if (!args[i]) return NULL;
    }

    if (is_try) {
        if (n != 1) {
            sqe_bind_error(err, SQE_ERR_TYPE_MISMATCH, e->pos, "try requires 1 argument, got %d",
                           n);
            return NULL;
        }
        return sqe_expr_new(cx->arena, SQE_EXPR_TRY, args[0]->type, 1, args);
    }

    if (strcmp(name, "coalesce") == 0) {
        if (n < 1) {
            sqe_bind_error(err, SQE_ERR_TYPE_MISMATCH, e->pos,
                           "coalesce requires at least one argument");
            return NULL;
        }
        sqe_type t;
        if (!unify(cx, args, n, false, &t, "coalesce", e->pos, err)) return NULL;
        if (n == 1) return args[0];
        return sqe_expr_new(cx->arena, SQE_EXPR_COALESCE, t, n, args);
    }
    if (strcmp(name, "if") == 0) {
        if (n != 2 && n != 3) {
            sqe_bind_error(err, SQE_ERR_TYPE_MISMATCH, e->pos,
                           "if requires 2 or 3 arguments, got %d", n);
            return NULL;
        }
        sqe_expr *cond = require_bool(cx, args[0], "if() condition", e->pos, err);
        if (!cond) return NULL;
        sqe_expr **res = args + 1;
        sqe_type t;
        if (!unify(cx, res, n - 1, false, &t, "if", e->pos, err)) return NULL;
        sqe_expr **cargs = args_array(cx->arena, n);
        cargs[0] = cond;
        cargs[1] = res[0];
        if (n == 3) cargs[2] = res[1];
        sqe_expr *c = sqe_expr_new(cx->arena, SQE_EXPR_CASE, t, n, cargs);
        c->has_else = n == 3;
        return c;
    }
    if (strcmp(name, "nullif") == 0) {
        if (n != 2) {
            sqe_bind_error(err, SQE_ERR_TYPE_MISMATCH, e->pos,
                           "nullif requires 2 arguments, got %d", n);
            return NULL;
        }
        sqe_expr *eq = bind_binary_call(cx, "=", args[0], args[1], e->pos, err);
        if (!eq) return NULL;
        sqe_expr **cargs = args_array(cx->arena, 3);
        sqe_value nv = sqe_value_null(args[0]->type);
        cargs[0] = eq;
        cargs[1] = sqe_expr_const(cx->arena, &nv);
        cargs[2] = args[0];
        sqe_expr *c = sqe_expr_new(cx->arena, SQE_EXPR_CASE, args[0]->type, 3, cargs);
        c->has_else = true;
        return c;
    }
    return sqe_bind_call(cx, name, n, args, e->pos, err);
}

static sqe_expr *bind_case(bind_ctx *cx, const sqe_ast_expr *e, sqe_error *err) {
    int nw = e->u.case_.n_whens;
    bool has_else = e->u.case_.else_ != NULL;
    sqe_expr *operand = NULL;
    if (e->u.case_.operand && !(operand = bind(cx, e->u.case_.operand, err))) return NULL;
    sqe_expr **results = args_array(cx->arena, nw + 1);
    sqe_expr **conds = args_array(cx->arena, nw);
    /* Only the operand and the first condition run for every row. */
    bool ok = true;
    int lazy0 = cx->lazy;
    for (int i = 0; i < nw && ok; i++) {
        const sqe_ast_when *w = &e->u.case_.whens[i];
        sqe_expr *c = bind(cx, w->cond, err);
        cx->lazy = lazy0 + 1;
        if (c && operand) c = bind_binary_call(cx, "=", operand, c, w->cond->pos, err);
        if (c) c = conds[i] = require_bool(cx, c, "CASE WHEN condition", w->cond->pos, err);
        ok = c && (results[i] = bind(cx, w->result, err)) != NULL;
    }
    int nr = nw;
    if (ok && has_else) ok = (results[nr++] = bind(cx, e->u.case_.else_, err)) != NULL;
    cx->lazy = lazy0;
    if (!ok) return NULL;
    sqe_type t;
    if (!unify(cx, results, nr, false, &t, "CASE", e->pos, err)) return NULL;
    int n = nw * 2 + (has_else ? 1 : 0);
    sqe_expr **args = args_array(cx->arena, n);
    for (int i = 0; i < nw; i++) {
        args[2 * i] = conds[i];
        args[2 * i + 1] = results[i];
    }
    if (has_else) args[n - 1] = results[nw];
    sqe_expr *c = sqe_expr_new(cx->arena, SQE_EXPR_CASE, t, n, args);
    c->has_else = has_else;
    return c;
}

static sqe_expr *bind_in(bind_ctx *cx, const sqe_ast_expr *e, sqe_error *err) {
    sqe_expr *arg = bind(cx, e->u.in_list.arg, err);
    if (!arg) return NULL;
    int n = e->u.in_list.n_items;
    sqe_expr **items = args_array(cx->arena, n + 1);
    bool all_const = true;
    for (int i = 0; i < n; i++) {
        if (!(items[i] = bind(cx, e->u.in_list.items[i], err))) return NULL;
        if (items[i]->kind != SQE_EXPR_CONST) all_const = false;
    }
    /* Unify arg with every item. */
    items[n] = arg;
    sqe_type t;
    if (!unify(cx, items, n + 1, true, &t, "IN list", e->pos, err)) return NULL;
    arg = items[n];
    for (int i = 0; i < n; i++)
        if (items[i]->kind != SQE_EXPR_CONST) all_const = false;
    sqe_expr *res;
    if (all_const) {
        bool pad_space = t.id == SQE_T_VARCHAR && t.str_kind == SQE_STRKIND_CHAR;
        if (pad_space) { /* CHAR: trailing spaces do not count; the set holds trimmed values */
            sqe_expr **targs = args_array(cx->arena, 1);
            targs[0] = arg;
            if (!(arg = sqe_bind_call(cx, "rtrim", 1, targs, e->pos, err))) return NULL;
            for (int i = 0; i < n; i++) {
                sqe_value *v = &items[i]->value;
                if (!v->is_null)
                    while (v->v.s.len && v->v.s.ptr[v->v.s.len - 1] == ' ') v->v.s.len--;
            }
        }
        sqe_expr **args = args_array(cx->arena, 1);
        args[0] = arg;
        res = sqe_expr_new(cx->arena, SQE_EXPR_IN, sqe_type_make(SQE_T_BOOLEAN), 1, args);
        res->n_in = n;
        res->in_values = sqe_arena_alloc(cx->arena, sizeof(sqe_value) * (size_t)n);
        for (int i = 0; i < n; i++) res->in_values[i] = items[i]->value;
        res->negated = e->u.in_list.negated;
        return res;
    }
    res = NULL;
    for (int i = 0; i < n; i++) {
        sqe_expr *eq = bind_binary_call(cx, "=", arg, items[i], e->pos, err);
        if (!eq) return NULL;
        if (!res) {
            res = eq;
        } else {
            sqe_expr **args = args_array(cx->arena, 2);
            args[0] = res;
            args[1] = eq;
            res = sqe_expr_new(cx->arena, SQE_EXPR_OR, sqe_type_make(SQE_T_BOOLEAN), 2, args);
        }
    }
    return e->u.in_list.negated ? make_not(cx, res) : res;
}

/* Deepest expression the binder (and the recursive passes after it:
 * equality, remapping, evaluation, EXPLAIN) accepts. A level costs a few KB
 * of stack; the parser allows far longer operator chains. */
#define SQE_BIND_MAX_DEPTH 1000
static _Thread_local int g_bind_depth;

static sqe_expr *bind_node(bind_ctx *cx, const sqe_ast_expr *e, sqe_error *err);

static sqe_expr *bind(bind_ctx *cx, const sqe_ast_expr *e, sqe_error *err) {
    if (g_bind_depth >= SQE_BIND_MAX_DEPTH) {
        sqe_bind_error(err, SQE_ERR_RESOURCE_EXHAUSTED, e->pos,
                       "expression is nested too deeply (more than %d levels); split it up",
                       SQE_BIND_MAX_DEPTH);
        return NULL;
    }
    g_bind_depth++;
    sqe_expr *r = bind_node(cx, e, err);
    g_bind_depth--;
    return r;
}

static sqe_expr *bind_node(bind_ctx *cx, const sqe_ast_expr *e, sqe_error *err) {
    if (e->kind == SQE_AST_FUNCTION && e->u.func.over) {
        for (int i = 0; cx->win && i < cx->win->n; i++)
            if (cx->win->asts[i] == e)
                return sqe_expr_column(cx->arena, cx->win->cols[i], cx->win->types[i], "_win");
        sqe_bind_error(err, SQE_ERR_USAGE, e->pos, "window functions are not allowed in %s",
                       cx->clause ? cx->clause : "this clause");
        return NULL;
    }
    if (cx->agg) {
        bool handled;
        sqe_expr *r = bind_post_agg(cx, e, &handled, err);
        if (handled) return r;
    }
    switch (e->kind) {
    case SQE_AST_LITERAL: {
        sqe_value v;
        if (!sqe_bind_literal(cx->arena, e, &v, err)) return NULL;
        return sqe_expr_const(cx->arena, &v);
    }
    case SQE_AST_COLUMN:
        return bind_column(cx, e, err);
    case SQE_AST_STAR:
        sqe_bind_error(err, SQE_ERR_USAGE, e->pos,
                       "'*' is only allowed in the select list and in count(*)");
        return NULL;
    case SQE_AST_UNARY: {
        sqe_expr *a = bind(cx, e->u.unary.arg, err);
        if (!a) return NULL;
        if (e->u.unary.op == SQE_OP_PLUS) {
            if (!sqe_type_is_numeric(a->type) && a->type.id != SQE_T_NULL) {
                char tb[64];
                sqe_bind_error(err, SQE_ERR_TYPE_MISMATCH, e->pos, "unary + needs a number, got %s",
                               sqe_type_sql_name(a->type, tb, sizeof tb));
                return NULL;
            }
            return a;
        }
        if (e->u.unary.op == SQE_OP_NOT) {
            if (!(a = require_bool(cx, a, "NOT operand", e->pos, err))) return NULL;
            return make_not(cx, a);
        }
        sqe_expr **args = args_array(cx->arena, 1);
        args[0] = a;
        return sqe_bind_call(cx, "-", 1, args, e->pos, err);
    }
    case SQE_AST_BINARY: {
        sqe_binop op = e->u.binary.op;
        sqe_expr *l = bind(cx, e->u.binary.left, err);
        if (!l) return NULL;
        bool lazy_right = op == SQE_OP_AND || op == SQE_OP_OR;
        cx->lazy += lazy_right;
        sqe_expr *r = bind(cx, e->u.binary.right, err);
        cx->lazy -= lazy_right;
        if (!r) return NULL;
        if (op == SQE_OP_AND || op == SQE_OP_OR) {
            const char *w = op == SQE_OP_AND ? "AND operand" : "OR operand";
            if (!(l = require_bool(cx, l, w, e->u.binary.left->pos, err))) return NULL;
            if (!(r = require_bool(cx, r, w, e->u.binary.right->pos, err))) return NULL;
            sqe_expr **args = args_array(cx->arena, 2);
            args[0] = l;
            args[1] = r;
            return sqe_expr_new(cx->arena, op == SQE_OP_AND ? SQE_EXPR_AND : SQE_EXPR_OR,
                                sqe_type_make(SQE_T_BOOLEAN), 2, args);
        }
        return bind_binary_call(cx, sqe_sql_binop_name(op), l, r, e->pos, err);
    }
    case SQE_AST_FUNCTION:
        if (e->u.func.filter && !sqe_bind_is_aggregate_call(e)) {
            sqe_bind_error(err, SQE_ERR_USAGE, e->pos,
                           "FILTER is only allowed for aggregate functions");
            return NULL;
        }
        if (e->u.func.ignore_nulls) {
            sqe_bind_error(err, SQE_ERR_USAGE, e->pos,
                           "IGNORE NULLS is only allowed for window functions");
            return NULL;
        }
        return bind_function(cx, e, err);
    case SQE_AST_CASE:
        return bind_case(cx, e, err);
    case SQE_AST_CAST: {
        sqe_expr *a = bind(cx, e->u.cast.arg, err);
        if (!a) return NULL;
        const sqe_ast_type *at = &e->u.cast.type;
        if (at->name && (!strcmp(at->name, "array") || !strcmp(at->name, "map") ||
                         !strcmp(at->name, "row") || !strcmp(at->name, "struct"))) {
            sqe_bind_error(err, SQE_ERR_NOT_SUPPORTED, at->pos, "type %s is not supported yet",
                           at->text ? at->text : at->name);
            return NULL;
        }
        sqe_type t;
        sqe_error terr;
        if (!sqe_type_parse_sql(at->text ? at->text : at->name, &t, &terr)) {
            sqe_bind_error(err, terr.cls, at->pos, "%s", terr.msg);
            return NULL;
        }
        if (sqe_type_equal(a->type, t)) return a;
        if (!sqe_type_can_cast(a->type, t)) {
            /* Impossible pairs fail up front, for TRY_CAST too (Trino). */
            char fb[64], tb[64];
            sqe_bind_error(err, SQE_ERR_TYPE_MISMATCH, e->pos, "cannot cast %s to %s",
                           sqe_type_sql_name(a->type, fb, sizeof fb),
                           sqe_type_sql_name(t, tb, sizeof tb));
            return NULL;
        }
        if (a->kind == SQE_EXPR_CONST && a->value.is_null) {
            sqe_value nv = sqe_value_null(t);
            return sqe_expr_const(cx->arena, &nv);
        }
        sqe_expr *c = sqe_expr_cast(cx->arena, a, t, e->u.cast.try_);
        c->zone = cx->stmt ? cx->stmt->zone : 0;
        if (e->u.cast.try_ || cx->lazy)
            try_fold(cx, &c);
        else if (a->kind == SQE_EXPR_CONST) {
            /* A constant that cannot be cast is a plan-time error (with its
             * position) unless it sits where it may never be evaluated. */
            sqe_value v;
            sqe_error cerr;
            if (!sqe_expr_eval_const(c, cx->arena, &v, &cerr)) {
                sqe_bind_error(err, cerr.cls, e->pos, "%s", cerr.msg);
                return NULL;
            }
            v.type = t;
            c = sqe_expr_const(cx->arena, &v);
        }
        return c;
    }
    case SQE_AST_IN_LIST:
        return bind_in(cx, e, err);
    case SQE_AST_BETWEEN: {
        sqe_expr *a = bind(cx, e->u.between.arg, err);
        sqe_expr *lo = a ? bind(cx, e->u.between.low, err) : NULL;
        sqe_expr *hi = lo ? bind(cx, e->u.between.high, err) : NULL;
        if (!hi) return NULL;
        sqe_expr *ge = bind_binary_call(cx, ">=", a, lo, e->pos, err);
        sqe_expr *le = ge ? bind_binary_call(cx, "<=", a, hi, e->pos, err) : NULL;
        if (!le) return NULL;
        sqe_expr *res = sqe_bind_and(cx->arena, ge, le);
        return e->u.between.negated ? make_not(cx, res) : res;
    }
    case SQE_AST_LIKE: {
        int n = e->u.like.escape ? 3 : 2;
        sqe_expr **args = args_array(cx->arena, n);
        if (!(args[0] = bind(cx, e->u.like.arg, err))) return NULL;
        if (!(args[1] = bind(cx, e->u.like.pattern, err))) return NULL;
        if (n == 3 && !(args[2] = bind(cx, e->u.like.escape, err))) return NULL;
        sqe_expr *res = sqe_bind_call(cx, e->u.like.ilike ? "ilike" : "like", n, args, e->pos, err);
        if (!res) return NULL;
        return e->u.like.negated ? make_not(cx, res) : res;
    }
    case SQE_AST_IS_NULL: {
        sqe_expr *a = bind(cx, e->u.is_null.arg, err);
        if (!a) return NULL;
        sqe_expr **args = args_array(cx->arena, 1);
        args[0] = a;
        sqe_expr *r =
            sqe_expr_new(cx->arena, SQE_EXPR_IS_NULL, sqe_type_make(SQE_T_BOOLEAN), 1, args);
        r->negated = e->u.is_null.negated;
        try_fold(cx, &r);
        return r;
    }
    case SQE_AST_IS_DISTINCT: {
        sqe_expr *l = bind(cx, e->u.is_distinct.left, err);
        sqe_expr *r = l ? bind(cx, e->u.is_distinct.right, err) : NULL;
        if (!r) return NULL;
        sqe_expr *res = bind_binary_call(cx, "is_distinct_from", l, r, e->pos, err);
        if (!res) return NULL;
        return e->u.is_distinct.negated ? make_not(cx, res) : res;
    }
    case SQE_AST_SUBQUERY:
    case SQE_AST_EXISTS:
    case SQE_AST_IN_SUBQUERY:
        if (!cx->subq) {
            sqe_bind_error(err, SQE_ERR_NOT_SUPPORTED, e->pos, "subqueries are not supported in %s",
                           cx->clause ? cx->clause : "this clause");
            return NULL;
        }
        return sqe_plan_subquery(cx, e, err);
    }
    sqe_error_set(err, SQE_ERR_INTERNAL, "unknown expression kind %d", (int)e->kind);
    return NULL;
}

sqe_expr *sqe_bind_expr(bind_ctx *cx, const sqe_ast_expr *e, sqe_error *err) {
    return bind(cx, e, err);
}

/* ------------------------------------------------------------- utilities */

bool sqe_expr_equal(const sqe_expr *a, const sqe_expr *b) {
    if (a == b) return true;
    if (!a || !b || a->kind != b->kind || !sqe_type_equal(a->type, b->type) ||
        a->n_args != b->n_args)
        return false;
    switch (a->kind) {
    case SQE_EXPR_COLUMN:
        return a->col == b->col;
    case SQE_EXPR_OUTER_COL:
        return a->col == b->col && SQE_OUTER_LEVEL(a) == SQE_OUTER_LEVEL(b);
    case SQE_EXPR_CONST:
        if (a->value.is_null || b->value.is_null) return a->value.is_null == b->value.is_null;
        return a->value.type.id == b->value.type.id && sqe_value_cmp(&a->value, &b->value) == 0;
    case SQE_EXPR_CALL:
        if (strcmp(a->fn.name, b->fn.name) != 0) return false;
        break;
    case SQE_EXPR_CAST:
        if (a->try_ != b->try_) return false;
        break;
    case SQE_EXPR_IS_NULL:
    case SQE_EXPR_IN:
        if (a->negated != b->negated || a->n_in != b->n_in) return false;
        for (int i = 0; i < a->n_in; i++)
            if (a->in_values[i].is_null != b->in_values[i].is_null ||
                (!a->in_values[i].is_null &&
                 sqe_value_cmp(&a->in_values[i], &b->in_values[i]) != 0))
                return false;
        break;
    case SQE_EXPR_CASE:
        if (a->has_else != b->has_else) return false;
        break;
    default:
        break;
    }
    for (int i = 0; i < a->n_args; i++)
        if (!sqe_expr_equal(a->args[i], b->args[i])) return false;
    return true;
}

void sqe_expr_visit_cols(sqe_expr *e, void (*fn)(int *col, void *ctx), void *ctx) {
    if (!e) return;
    if (e->kind == SQE_EXPR_COLUMN) fn(&e->col, ctx);
    for (int i = 0; i < e->n_args; i++) sqe_expr_visit_cols(e->args[i], fn, ctx);
}
