/*
 * parse_json.c - the SQL/JSON clauses Trino allows inside json_value,
 * json_query and json_exists, rewritten into plain expressions over the
 * registered two-argument functions (func/json_func.c):
 *
 *   json_value(j [FORMAT JSON], path [RETURNING type]
 *              [{NULL | DEFAULT e} ON EMPTY] [{NULL | DEFAULT e} ON ERROR])
 *   json_query(j [FORMAT JSON], path [RETURNING varchar [FORMAT JSON]]
 *              [WITHOUT [ARRAY] WRAPPER | WITH [CONDITIONAL | UNCONDITIONAL] [ARRAY] WRAPPER]
 *              [{KEEP | OMIT} QUOTES [ON SCALAR STRING]]
 *              [{NULL | EMPTY ARRAY | EMPTY OBJECT} ON EMPTY] [... ON ERROR])
 *   json_exists(j [FORMAT JSON], path [{TRUE | FALSE | UNKNOWN | ERROR} ON ERROR])
 *
 * The rewrite tells the three outcomes apart with
 * ex = json_exists(j, path, 'unknown'): TRUE an item was found, FALSE the
 * path found nothing (ON EMPTY), NULL the input is not JSON (ON ERROR):
 *
 *   json_value -> CASE WHEN ex THEN
 *                   CASE WHEN substr(json_query(j, p), 1, 1) IN ('{', '[') THEN <on error>
 *                        WHEN json_value(j, p) IS NULL THEN NULL     -- a JSON null
 *                        ELSE <json_value(j, p) converted> END
 *                 WHEN NOT ex THEN <on empty> ELSE <on error> END
 *   converted: CAST to the RETURNING type, TRY_CAST under NULL ON ERROR,
 *   COALESCE(TRY_CAST(..), e) under DEFAULT e ON ERROR (a value that does
 *   not convert is an error, as in Trino).
 *   json_query -> the same frame around json_query(j, p), wrapped in
 *   '[' || .. || ']' (always, or unless it is an array/object:
 *   CONDITIONAL), its quotes dropped under OMIT QUOTES.
 *   json_exists -> json_exists(j, p, 'true'|'false'|'unknown'|'error').
 *
 * The input and path expressions are repeated in the rewrite (evaluated
 * once per use). Without clauses the plain call is kept. NOT_SUPPORTED,
 * naming the clause: PASSING, ERROR ON EMPTY / ERROR ON ERROR in
 * json_value and json_query, and a json_query RETURNING type other than
 * varchar.
 */
#include "sql/sql_int.h"

#include <stdarg.h>
#include <string.h>

typedef enum { JB_NULL, JB_DEFAULT, JB_EMPTY_ARRAY, JB_EMPTY_OBJECT } jp_behavior_kind;

typedef struct jp_behavior {
    jp_behavior_kind kind;
    sqe_ast_expr *value; /* JB_DEFAULT */
} jp_behavior;

typedef struct jp_clauses {
    bool has_returning;
    sqe_ast_type returning;
    int wrapper; /* 0 none, 1 unconditional, 2 conditional */
    bool omit_quotes;
    jp_behavior on_empty, on_error;
    const char *exists_on_error; /* json_exists: "false" (default), "true", "unknown", "error" */
} jp_clauses;

/* ------------------------------------------------------------ builders */

static sqe_ast_expr *jp_expr(sqe_parser *p, sqe_ast_expr_kind kind, sqe_pos pos) {
    sqe_ast_expr *e = sqe_arena_alloc(p->arena, sizeof *e);
    e->kind = kind;
    e->pos = pos;
    return e;
}

static sqe_ast_expr *jp_string(sqe_parser *p, const char *s, sqe_pos pos) {
    sqe_ast_expr *e = jp_expr(p, SQE_AST_LITERAL, pos);
    e->u.lit.kind = SQE_LIT_STRING;
    e->u.lit.text = sqe_arena_strdup(p->arena, s);
    return e;
}

static sqe_ast_expr *jp_null(sqe_parser *p, sqe_pos pos) {
    sqe_ast_expr *e = jp_expr(p, SQE_AST_LITERAL, pos);
    e->u.lit.kind = SQE_LIT_NULL;
    return e;
}

static sqe_ast_expr *jp_call(sqe_parser *p, const char *name, sqe_pos pos, int n, ...) {
    sqe_ast_expr *e = jp_expr(p, SQE_AST_FUNCTION, pos);
    e->u.func.name.n_parts = 1;
    e->u.func.name.parts = sqe_arena_alloc(p->arena, sizeof(sqe_ident));
    e->u.func.name.parts[0].name = sqe_arena_strdup(p->arena, name);
    e->u.func.name.parts[0].pos = pos;
    e->u.func.name.pos = pos;
    e->u.func.n_args = n;
    e->u.func.args = sqe_arena_alloc(p->arena, sizeof(sqe_ast_expr *) * (size_t)(n ? n : 1));
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) e->u.func.args[i] = va_arg(ap, sqe_ast_expr *);
    va_end(ap);
    return e;
}

/* CASE WHEN c0 THEN r0 [WHEN c1 THEN r1] ELSE else_ END (c1 NULL: one WHEN). */
static sqe_ast_expr *jp_case(sqe_parser *p, sqe_pos pos, sqe_ast_expr *c0, sqe_ast_expr *r0,
                             sqe_ast_expr *c1, sqe_ast_expr *r1, sqe_ast_expr *else_) {
    sqe_ast_expr *e = jp_expr(p, SQE_AST_CASE, pos);
    e->u.case_.n_whens = c1 ? 2 : 1;
    e->u.case_.whens = sqe_arena_alloc(p->arena, sizeof(sqe_ast_when) * 2);
    e->u.case_.whens[0] = (sqe_ast_when){c0, r0};
    if (c1) e->u.case_.whens[1] = (sqe_ast_when){c1, r1};
    e->u.case_.else_ = else_;
    return e;
}

static sqe_ast_expr *jp_concat(sqe_parser *p, sqe_pos pos, sqe_ast_expr *l, sqe_ast_expr *r) {
    sqe_ast_expr *e = jp_expr(p, SQE_AST_BINARY, pos);
    e->u.binary.op = SQE_OP_CONCAT;
    e->u.binary.left = l;
    e->u.binary.right = r;
    return e;
}

/* substr(x, 1, 1) IN ('a'[, 'b']) */
static sqe_ast_expr *jp_first_char_in(sqe_parser *p, sqe_pos pos, sqe_ast_expr *x, const char *a,
                                      const char *b) {
    sqe_ast_expr *one = jp_expr(p, SQE_AST_LITERAL, pos);
    one->u.lit.kind = SQE_LIT_INTEGER;
    one->u.lit.text = "1";
    sqe_ast_expr *e = jp_expr(p, SQE_AST_IN_LIST, pos);
    e->u.in_list.arg = jp_call(p, "substr", pos, 3, x, one, one);
    e->u.in_list.n_items = b ? 2 : 1;
    e->u.in_list.items = sqe_arena_alloc(p->arena, sizeof(sqe_ast_expr *) * 2);
    e->u.in_list.items[0] = jp_string(p, a, pos);
    if (b) e->u.in_list.items[1] = jp_string(p, b, pos);
    return e;
}

/* ------------------------------------------------------------- clauses */

/* behaviour ON (EMPTY|ERROR): fills *out; *which gets 'm' (EMPTY) or 'r'
 * (ERROR). Returns 0 when no behaviour is next, -1 after an error. */
static int jp_behavior_clause(sqe_parser *p, const char *fn, bool query, jp_behavior *out,
                              char *which) {
    jp_behavior b = {JB_NULL, NULL};
    const char *word;
    if (sqe_p_is(p, 0, "null") && sqe_p_is(p, 1, "on")) {
        sqe_p_next(p);
    } else if (sqe_p_is(p, 0, "error") && sqe_p_is(p, 1, "on")) {
        word = sqe_p_is(p, 2, "empty") ? "ERROR ON EMPTY" : "ERROR ON ERROR";
        sqe_p_not_supported(p, "%s: %s is not supported yet (NULL%s are)", fn, word,
                            query ? ", EMPTY ARRAY and EMPTY OBJECT" : " and DEFAULT");
        return -1;
    } else if (!query && sqe_p_is(p, 0, "default")) {
        sqe_p_next(p);
        if (!(b.value = sqe_p_parse_expr(p))) return -1;
        b.kind = JB_DEFAULT;
    } else if (query && sqe_p_is(p, 0, "empty") &&
               (sqe_p_is(p, 1, "array") || sqe_p_is(p, 1, "object"))) {
        sqe_p_next(p);
        b.kind = sqe_p_accept(p, "array") ? JB_EMPTY_ARRAY : JB_EMPTY_OBJECT;
        if (b.kind == JB_EMPTY_OBJECT) sqe_p_next(p);
    } else {
        return 0;
    }
    if (!sqe_p_expect(p, "ON")) return -1;
    if (sqe_p_accept(p, "empty"))
        *which = 'm';
    else if (sqe_p_accept(p, "error"))
        *which = 'r';
    else
        return sqe_p_error_expected(p, "EMPTY or ERROR"), -1;
    *out = b;
    return 1;
}

/* json_query: [WITHOUT [ARRAY] WRAPPER | WITH [CONDITIONAL|UNCONDITIONAL] [ARRAY] WRAPPER]
 * [{KEEP|OMIT} QUOTES [ON SCALAR STRING]]. */
static bool jp_query_options(sqe_parser *p, jp_clauses *c) {
    if (sqe_p_accept(p, "without")) {
        sqe_p_accept(p, "array");
        if (!sqe_p_expect(p, "WRAPPER")) return false;
    } else if (sqe_p_accept(p, "with")) {
        c->wrapper = sqe_p_accept(p, "conditional") ? 2 : 1;
        if (c->wrapper == 1) sqe_p_accept(p, "unconditional");
        sqe_p_accept(p, "array");
        if (!sqe_p_expect(p, "WRAPPER")) return false;
    }
    if (sqe_p_is(p, 0, "keep") || sqe_p_is(p, 0, "omit")) {
        c->omit_quotes = sqe_p_is(p, 0, "omit");
        sqe_p_next(p);
        if (!sqe_p_expect(p, "QUOTES")) return false;
        if (sqe_p_accept(p, "on") && (!sqe_p_expect(p, "SCALAR") || !sqe_p_expect(p, "STRING")))
            return false;
        if (c->omit_quotes && c->wrapper)
            return sqe_p_not_supported(p, "json_query: OMIT QUOTES cannot be used with an ARRAY "
                                          "WRAPPER");
    }
    return true;
}

static bool jp_returning(sqe_parser *p, const char *fn, bool query, jp_clauses *c) {
    if (!sqe_p_accept(p, "returning")) return true;
    if (!sqe_p_parse_type(p, &c->returning)) return false;
    c->has_returning = true;
    if (query) {
        const char *n = c->returning.name;
        if (strcmp(n, "varchar") != 0 && strcmp(n, "string") != 0)
            return sqe_p_not_supported(p,
                                       "json_query: RETURNING %s is not supported yet "
                                       "(RETURNING varchar is)",
                                       c->returning.text ? c->returning.text : n);
        c->has_returning = false; /* json_query already returns varchar */
        if (sqe_p_accept(p, "format") && !sqe_p_expect(p, "JSON")) return false;
    }
    return true;
}

static bool jp_exists_clause(sqe_parser *p, jp_clauses *c) {
    static const char *const k_words[] = {"true", "false", "unknown", "error"};
    for (int i = 0; i < 4; i++) {
        if (!sqe_p_is(p, 0, k_words[i]) || !sqe_p_is(p, 1, "on")) continue;
        sqe_p_next(p);
        sqe_p_next(p);
        if (!sqe_p_expect(p, "ERROR")) return false;
        c->exists_on_error = k_words[i];
        return true;
    }
    return true;
}

/* Every clause after the path, in Trino's order. */
static bool jp_parse_clauses(sqe_parser *p, const char *fn, jp_clauses *c) {
    bool query = strcmp(fn, "json_query") == 0, exists = strcmp(fn, "json_exists") == 0;
    if (sqe_p_is(p, 0, "passing"))
        return sqe_p_not_supported(p, "%s: PASSING is not supported yet", fn);
    if (exists) return jp_exists_clause(p, c);
    if (!jp_returning(p, fn, query, c)) return false;
    if (query && !jp_query_options(p, c)) return false;
    bool seen_empty = false, seen_error = false;
    for (int k = 0; k < 2; k++) {
        jp_behavior b;
        char which = 0;
        sqe_pos at = sqe_p_peek(p, 0)->pos;
        int r = jp_behavior_clause(p, fn, query, &b, &which);
        if (r < 0) return false;
        if (r == 0) break;
        bool *seen = which == 'm' ? &seen_empty : &seen_error;
        if (*seen || (which == 'm' && seen_error))
            return sqe_p_error_at(p, at,
                                  "%s: ON %s given twice or after ON ERROR (write ON "
                                  "EMPTY first, then ON ERROR)",
                                  fn, which == 'm' ? "EMPTY" : "ERROR");
        *seen = true;
        *(which == 'm' ? &c->on_empty : &c->on_error) = b;
    }
    return true;
}

/* -------------------------------------------------------------- rewrite */

/* A behaviour's value; a DEFAULT is cast to the RETURNING type, so a
 * value of another type fails naming itself ("cannot cast 'x' to bigint"). */
static sqe_ast_expr *jp_behavior_expr(sqe_parser *p, const jp_clauses *c, const jp_behavior *b,
                                      sqe_pos pos) {
    switch (b->kind) {
    case JB_DEFAULT: {
        if (!c->has_returning) return b->value;
        sqe_ast_expr *cast = jp_expr(p, SQE_AST_CAST, pos);
        cast->u.cast.arg = b->value;
        cast->u.cast.type = c->returning;
        return cast;
    }
    case JB_EMPTY_ARRAY:
        return jp_string(p, "[]", pos);
    case JB_EMPTY_OBJECT:
        return jp_string(p, "{}", pos);
    default:
        return jp_null(p, pos);
    }
}

/* json_value's conversion of the scalar text v to the RETURNING type. */
static sqe_ast_expr *jp_convert(sqe_parser *p, const jp_clauses *c, sqe_ast_expr *v, sqe_pos pos) {
    if (!c->has_returning) return v;
    sqe_ast_expr *cast = jp_expr(p, SQE_AST_CAST, pos);
    cast->u.cast.arg = v;
    cast->u.cast.type = c->returning;
    cast->u.cast.try_ = true;
    if (c->on_error.kind != JB_DEFAULT) return cast;
    return jp_call(p, "coalesce", pos, 2, cast, jp_behavior_expr(p, c, &c->on_error, pos));
}

static sqe_ast_expr *jp_rewrite(sqe_parser *p, const char *fn, const jp_clauses *c, sqe_pos pos,
                                sqe_ast_expr *j, sqe_ast_expr *path) {
    if (strcmp(fn, "json_exists") == 0) {
        if (!c->exists_on_error) return jp_call(p, fn, pos, 2, j, path);
        return jp_call(p, fn, pos, 3, j, path, jp_string(p, c->exists_on_error, pos));
    }
    bool query = strcmp(fn, "json_query") == 0;
    bool plain_frame = c->on_empty.kind == JB_NULL && c->on_error.kind == JB_NULL;
    sqe_ast_expr *err = jp_behavior_expr(p, c, &c->on_error, pos);
    sqe_ast_expr *item;
    if (query) {
        sqe_ast_expr *q = jp_call(p, "json_query", pos, 2, j, path);
        item = q;
        if (c->wrapper) {
            sqe_ast_expr *w = jp_concat(p, pos, jp_string(p, "[", pos),
                                        jp_concat(p, pos, q, jp_string(p, "]", pos)));
            item = c->wrapper == 1
                       ? w
                       : jp_case(p, pos, jp_first_char_in(p, pos, q, "{", "["), q, NULL, NULL, w);
        } else if (c->omit_quotes) {
            item = jp_case(p, pos, jp_first_char_in(p, pos, q, "\"", NULL),
                           jp_call(p, "json_value", pos, 2, j, path), NULL, NULL, q);
        }
        if (plain_frame) return item;
    } else {
        if (plain_frame && !c->has_returning) return jp_call(p, fn, pos, 2, j, path);
        sqe_ast_expr *v = jp_call(p, "json_value", pos, 2, j, path);
        sqe_ast_expr *is_null = jp_expr(p, SQE_AST_IS_NULL, pos);
        is_null->u.is_null.arg = v;
        sqe_ast_expr *container =
            jp_first_char_in(p, pos, jp_call(p, "json_query", pos, 2, j, path), "{", "[");
        item = jp_case(p, pos, container, err, is_null, jp_null(p, pos), jp_convert(p, c, v, pos));
        if (plain_frame) return item;
    }
    sqe_ast_expr *ex = jp_call(p, "json_exists", pos, 3, j, path, jp_string(p, "unknown", pos));
    sqe_ast_expr *not_ex = jp_expr(p, SQE_AST_UNARY, pos);
    not_ex->u.unary.op = SQE_OP_NOT;
    not_ex->u.unary.arg = ex;
    return jp_case(p, pos, ex, item, not_ex, jp_behavior_expr(p, c, &c->on_empty, pos), err);
}

bool sqe_p_is_sql_json_fn(const char *fn) {
    return sqe_str_ieq(fn, "json_value") || sqe_str_ieq(fn, "json_query") ||
           sqe_str_ieq(fn, "json_exists");
}

sqe_ast_expr *sqe_p_parse_json_clauses(sqe_parser *p, const char *fn, sqe_pos pos,
                                       sqe_ast_expr *input, sqe_ast_expr *path) {
    jp_clauses c = {0};
    char lower[16];
    size_t n = strlen(fn);
    if (n >= sizeof lower) return NULL;
    for (size_t i = 0; i <= n; i++)
        lower[i] = (char)(fn[i] >= 'A' && fn[i] <= 'Z' ? fn[i] + 32 : fn[i]);
    if (!jp_parse_clauses(p, lower, &c)) return NULL;
    return jp_rewrite(p, lower, &c, pos, input, path);
}
