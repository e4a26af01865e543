/*
 * parser.c - the parser's entry point (sqe_sql_parse), its shared helpers
 * (token access, error messages, identifiers, qualified names, strings,
 * property lists, type names) and the statement dispatch.
 *
 * Recursive descent over the token array from lexer.c. The grammar is split
 * by role: parse_query.c (SELECT, set operations, FROM, ORDER BY/LIMIT),
 * parse_expr.c (expressions by precedence), parse_ddl.c (CREATE TABLE and
 * the catalog statements). Every parse function returns NULL/false on the
 * first error, having filled p->err; nothing is retried except one bounded
 * look-ahead trial in FROM (parse_query.c).
 *
 * Keywords: only the words in `reserved_words` below can never be unquoted
 * identifiers; every other keyword (DATE, YEAR, LOCATION, COMMENT, FORMAT,
 * TABLES, PARTITION, ...) is recognised by position, so it stays usable as a
 * column, alias or table name. LEFT and RIGHT are reserved but still parse as
 * function names when followed by '('.
 *
 * Error messages: "syntax error at line L:C: expected <what>, found '<tok>'"
 * (or "found end of input"), class SQE_ERR_SYNTAX. Features recognised but
 * not supported (WITH RECURSIVE, NATURAL JOIN, ...) fail with
 * SQE_ERR_NOT_SUPPORTED.
 */
#include "sql_int.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ tokens */

sqe_token *sqe_p_peek(sqe_parser *p, int ahead) {
    int i = p->cur + ahead;
    if (i >= p->n_toks) i = p->n_toks - 1;
    return &p->toks[i];
}

sqe_token *sqe_p_next(sqe_parser *p) {
    sqe_token *t = &p->toks[p->cur];
    if (p->cur < p->n_toks - 1) p->cur++;
    return t;
}

bool sqe_p_tok_is(const sqe_token *t, const char *kw) {
    return t->kind == SQE_TK_IDENT && sqe_str_ieq(t->text, kw);
}

bool sqe_p_is(sqe_parser *p, int ahead, const char *kw) {
    return sqe_p_tok_is(sqe_p_peek(p, ahead), kw);
}

bool sqe_p_accept(sqe_parser *p, const char *kw) {
    if (!sqe_p_is(p, 0, kw)) return false;
    sqe_p_next(p);
    return true;
}

bool sqe_p_accept_tok(sqe_parser *p, sqe_tok_kind k) {
    if (sqe_p_peek(p, 0)->kind != k) return false;
    sqe_p_next(p);
    return true;
}

bool sqe_p_expect(sqe_parser *p, const char *kw) {
    if (sqe_p_accept(p, kw)) return true;
    return sqe_p_error_expected(p, kw);
}

bool sqe_p_expect_tok(sqe_parser *p, sqe_tok_kind k, const char *what) {
    if (sqe_p_accept_tok(p, k)) return true;
    return sqe_p_error_expected(p, what);
}

/* ------------------------------------------------------------ errors */

/* 'tok' as written in the source, cut at a newline or after 40 bytes. */
static void describe_token(const sqe_parser *p, const sqe_token *t, char *buf, size_t cap) {
    if (t->kind == SQE_TK_EOF) {
        snprintf(buf, cap, "end of input");
        return;
    }
    const char *s = p->src + t->off;
    size_t n = t->len, max = 40;
    bool cut = false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\n' || s[i] == '\r') {
            n = i;
            cut = true;
            break;
        }
    }
    if (n > max) {
        n = max;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) n--; /* whole UTF-8 chars */
        cut = true;
    }
    snprintf(buf, cap, "'%.*s%s'", (int)n, s, cut ? "..." : "");
}

bool sqe_p_error_expected(sqe_parser *p, const char *what) {
    sqe_token *t = sqe_p_peek(p, 0);
    if (t->kind == SQE_TK_ERROR) return sqe_error_set(p->err, SQE_ERR_SYNTAX, "%s", t->text);
    char found[96];
    describe_token(p, t, found, sizeof found);
    return sqe_error_set(p->err, SQE_ERR_SYNTAX,
                         "syntax error at line %d:%d: expected %s, found %s", t->pos.line,
                         t->pos.col, what, found);
}

bool sqe_p_error_at(sqe_parser *p, sqe_pos pos, const char *fmt, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return sqe_error_set(p->err, SQE_ERR_SYNTAX, "syntax error at line %d:%d: %s", pos.line,
                         pos.col, msg);
}

bool sqe_p_not_supported(sqe_parser *p, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    sqe_error_setv(p->err, SQE_ERR_NOT_SUPPORTED, fmt, ap);
    va_end(ap);
    return false;
}

bool sqe_p_count_op(sqe_parser *p, sqe_pos pos) {
    if (++p->n_ops > SQE_SQL_MAX_OPS)
        return sqe_p_error_at(p, pos,
                              "expression too large (more than %d operators in one expression)",
                              SQE_SQL_MAX_OPS);
    if (++p->n_all_ops > SQE_SQL_MAX_STMT_OPS)
        return sqe_p_error_at(p, pos, "statement too large (more than %d operators)",
                              SQE_SQL_MAX_STMT_OPS);
    return true;
}

bool sqe_p_count_rel_op(sqe_parser *p, sqe_pos pos) {
    if (++p->n_rel_ops > SQE_SQL_MAX_OPS)
        return sqe_p_error_at(p, pos, "statement too large (more than %d joins and set operations)",
                              SQE_SQL_MAX_OPS);
    return true;
}

bool sqe_p_enter(sqe_parser *p) {
    if (p->depth >= SQE_SQL_MAX_DEPTH)
        return sqe_p_error_at(p, sqe_p_peek(p, 0)->pos,
                              "statement nested too deeply (more than %d levels)",
                              SQE_SQL_MAX_DEPTH);
    p->depth++;
    return true;
}

/* ------------------------------------------------------- identifiers */

static const char *const reserved_words[] = {
    "all",     "and",   "as",     "between", "by",        "case",  "cast",  "cross", "distinct",
    "else",    "end",   "escape", "except",  "exists",    "false", "from",  "full",  "group",
    "having",  "ilike", "in",     "inner",   "intersect", "is",    "join",  "left",  "like",
    "natural", "not",   "null",   "on",      "or",        "order", "outer", "right", "select",
    "then",    "true",  "union",  "using",   "when",      "where", "with",
};

bool sqe_sql_is_reserved(const char *word) {
    for (size_t i = 0; i < SQE_ARRAY_LEN(reserved_words); i++)
        if (sqe_str_ieq(word, reserved_words[i])) return true;
    return false;
}

bool sqe_p_tok_is_ident(const sqe_token *t) {
    if (t->kind == SQE_TK_QIDENT || t->kind == SQE_TK_BQIDENT) return true;
    return t->kind == SQE_TK_IDENT && !sqe_sql_is_reserved(t->text);
}

/* Non-reserved words that start a clause after a select item or a FROM
 * item, so they are not taken as an alias without AS. */
static const char *const alias_stop_words[] = {"limit", "offset", "fetch", "window"};

bool sqe_p_parse_opt_alias(sqe_parser *p, sqe_ident **out) {
    *out = NULL;
    bool as = sqe_p_accept(p, "as");
    sqe_token *t = sqe_p_peek(p, 0);
    if (!as) {
        if (!sqe_p_tok_is_ident(t)) return true;
        for (size_t i = 0; i < SQE_ARRAY_LEN(alias_stop_words); i++)
            if (sqe_p_tok_is(t, alias_stop_words[i])) return true;
    }
    sqe_ident *id = sqe_arena_alloc(p->arena, sizeof *id);
    if (!sqe_p_parse_ident(p, id, "alias")) return false;
    *out = id;
    return true;
}

static bool ident_from_token(sqe_parser *p, sqe_token *t, sqe_ident *out) {
    bool quoted = t->kind != SQE_TK_IDENT;
    if (quoted && !t->text[0]) return sqe_p_error_at(p, t->pos, "zero-length quoted identifier");
    out->name = t->text;
    out->quoted = quoted;
    out->pos = t->pos;
    sqe_p_next(p);
    return true;
}

bool sqe_p_parse_ident(sqe_parser *p, sqe_ident *out, const char *what) {
    sqe_token *t = sqe_p_peek(p, 0);
    if (!sqe_p_tok_is_ident(t)) return sqe_p_error_expected(p, what);
    return ident_from_token(p, t, out);
}

/* Like sqe_p_parse_ident but also takes reserved words (DDL column names,
 * where nothing else can stand). */
bool sqe_p_parse_any_ident(sqe_parser *p, sqe_ident *out, const char *what) {
    sqe_token *t = sqe_p_peek(p, 0);
    if (t->kind != SQE_TK_IDENT && t->kind != SQE_TK_QIDENT && t->kind != SQE_TK_BQIDENT)
        return sqe_p_error_expected(p, what);
    return ident_from_token(p, t, out);
}

/* Pushes id, splitting a back-quoted name on dots when split is set
 * (`db.tbl` is database and table, SPEC 3.1). An empty piece (`db.`) is
 * an error. */
static bool push_part(sqe_parser *p, void *arr_, sqe_ident id, bool split, bool bq) {
    SQE_ARRAY(sqe_ident) *arr = arr_;
    if (!split || !bq || !strchr(id.name, '.')) {
        SQE_ARRAY_PUSH(p->arena, *arr, id);
        return true;
    }
    const char *s = id.name;
    int col = id.pos.col + 1; /* past the opening back quote */
    for (;;) {
        const char *dot = strchr(s, '.');
        size_t n = dot ? (size_t)(dot - s) : strlen(s);
        if (n == 0)
            return sqe_p_error_at(p, id.pos, "empty name part in quoted table name `%s`", id.name);
        sqe_ident part = {sqe_arena_strndup(p->arena, s, n), true, {id.pos.line, col}};
        SQE_ARRAY_PUSH(p->arena, *arr, part);
        if (!dot) return true;
        col += (int)n + 1;
        s = dot + 1;
    }
}

bool sqe_p_parse_qname(sqe_parser *p, sqe_qname *out, bool table_name, const char *what) {
    SQE_ARRAY(sqe_ident) parts = {0};
    sqe_ident id;
    sqe_pos pos = sqe_p_peek(p, 0)->pos;
    bool bq = sqe_p_peek(p, 0)->kind == SQE_TK_BQIDENT;
    if (!sqe_p_parse_ident(p, &id, what) || !push_part(p, &parts, id, table_name, bq)) return false;
    while (sqe_p_peek(p, 0)->kind == SQE_TK_DOT && sqe_p_tok_is_ident(sqe_p_peek(p, 1))) {
        sqe_p_next(p);
        bq = sqe_p_peek(p, 0)->kind == SQE_TK_BQIDENT;
        if (!sqe_p_parse_ident(p, &id, what) || !push_part(p, &parts, id, table_name, bq))
            return false;
    }
    if (table_name && sqe_p_peek(p, 0)->kind == SQE_TK_DOT)
        return sqe_p_next(p), sqe_p_error_expected(p, what);
    out->n_parts = (int)parts.len;
    out->parts = parts.items;
    out->pos = pos;
    if (table_name && parts.len > 3) {
        sqe_strbuf sb;
        sqe_strbuf_init(&sb);
        for (size_t i = 0; i < parts.len; i++) {
            if (i) sqe_strbuf_putc(&sb, '.');
            sqe_strbuf_puts(&sb, parts.items[i].name);
        }
        sqe_p_error_at(p, pos, "table name '%s' has too many parts (at most root.database.table)",
                       sb.data);
        sqe_strbuf_free(&sb);
        return false;
    }
    return true;
}

char *sqe_p_parse_string(sqe_parser *p, bool ddl, const char *what) {
    sqe_token *t = sqe_p_peek(p, 0);
    if (t->kind == SQE_TK_STRING || (ddl && t->kind == SQE_TK_QIDENT)) {
        sqe_p_next(p);
        return t->text;
    }
    sqe_p_error_expected(p, what);
    return NULL;
}

bool sqe_p_parse_kv_list(sqe_parser *p, int *n_out, sqe_ast_kv **out) {
    SQE_ARRAY(sqe_ast_kv) kvs = {0};
    if (!sqe_p_expect_tok(p, SQE_TK_LPAREN, "'('")) return false;
    do {
        sqe_ast_kv kv = {0};
        kv.pos = sqe_p_peek(p, 0)->pos;
        if (!(kv.key = sqe_p_parse_string(p, true, "property name (a string literal)")))
            return false;
        if (!sqe_p_expect_tok(p, SQE_TK_EQ, "'='")) return false;
        if (!(kv.value = sqe_p_parse_string(p, true, "property value (a string literal)")))
            return false;
        SQE_ARRAY_PUSH(p->arena, kvs, kv);
    } while (sqe_p_accept_tok(p, SQE_TK_COMMA));
    if (!sqe_p_expect_tok(p, SQE_TK_RPAREN, "',' or ')'")) return false;
    *n_out = (int)kvs.len;
    *out = kvs.items;
    return true;
}

bool sqe_p_ident_eq(const sqe_ident *a, const sqe_ident *b) {
    if (!a->quoted && !b->quoted) return sqe_str_ieq(a->name, b->name);
    if (a->quoted && b->quoted) return strcmp(a->name, b->name) == 0;
    /* one quoted: equal when the unquoted one folds to the quoted spelling */
    const sqe_ident *q = a->quoted ? a : b, *u = a->quoted ? b : a;
    size_t n = strlen(u->name);
    if (strlen(q->name) != n) return false;
    for (size_t i = 0; i < n; i++)
        if (q->name[i] != (char)tolower((unsigned char)u->name[i])) return false;
    return true;
}

char *sqe_p_ident_key(sqe_parser *p, const sqe_ident *id) {
    char *k = sqe_arena_strdup(p->arena, id->name);
    return id->quoted ? k : sqe_str_lower(k);
}

bool sqe_p_parse_column_aliases(sqe_parser *p, int *n_out, sqe_ident **out) {
    SQE_ARRAY(sqe_ident) cols = {0};
    sqe_strmap *seen = sqe_strmap_new();
    bool ok = sqe_p_expect_tok(p, SQE_TK_LPAREN, "'('");
    while (ok) {
        sqe_ident id;
        if (!(ok = sqe_p_parse_ident(p, &id, "column name"))) break;
        if (sqe_strmap_put(seen, sqe_p_ident_key(p, &id), &cols)) {
            ok = sqe_p_error_at(p, id.pos, "column name '%s' specified more than once", id.name);
            break;
        }
        SQE_ARRAY_PUSH(p->arena, cols, id);
        if (!sqe_p_accept_tok(p, SQE_TK_COMMA)) {
            ok = sqe_p_expect_tok(p, SQE_TK_RPAREN, "',' or ')'");
            break;
        }
    }
    sqe_strmap_free(seen);
    *n_out = (int)cols.len;
    *out = cols.items;
    return ok;
}

/* ---------------------------------------------------------- look-ahead */

bool sqe_p_ends_element(sqe_parser *p, int ahead) {
    static const char *const clause_words[] = {"having", "window", "order",     "limit", "offset",
                                               "fetch",  "union",  "intersect", "except"};
    const sqe_token *t = sqe_p_peek(p, ahead);
    switch (t->kind) {
    case SQE_TK_COMMA:
    case SQE_TK_RPAREN:
    case SQE_TK_SEMI:
    case SQE_TK_EOF:
    case SQE_TK_ERROR:
        return true;
    default:
        break;
    }
    for (size_t i = 0; i < SQE_ARRAY_LEN(clause_words); i++)
        if (sqe_p_tok_is(t, clause_words[i])) return true;
    return false;
}

/* Matches every '(' with its ')' in one pass over the tokens, the first time
 * it is needed, so each look-ahead is O(1). */
static void match_parens(sqe_parser *p) {
    int n = p->n_toks;
    p->paren_match = sqe_arena_alloc(p->arena, sizeof(int) * (size_t)n);
    int *stack = sqe_malloc(sizeof(int) * (size_t)n), depth = 0;
    for (int i = 0; i < n; i++) {
        p->paren_match[i] = -1;
        if (p->toks[i].kind == SQE_TK_LPAREN)
            stack[depth++] = i;
        else if (p->toks[i].kind == SQE_TK_RPAREN && depth > 0)
            p->paren_match[stack[--depth]] = i;
    }
    sqe_free(stack);
}

bool sqe_p_paren_is_element(sqe_parser *p, int ahead) {
    if (sqe_p_peek(p, ahead)->kind != SQE_TK_LPAREN) return false;
    if (!p->paren_match) match_parens(p);
    int close = p->paren_match[p->cur + ahead];
    return close < 0 || sqe_p_ends_element(p, close + 1 - p->cur);
}

/* ------------------------------------------------------------- types */

static bool is_word_tok(const sqe_token *t) {
    return t->kind == SQE_TK_IDENT || t->kind == SQE_TK_QIDENT || t->kind == SQE_TK_BQIDENT ||
           t->kind == SQE_TK_INTEGER;
}

/* Captures a balanced group open..close (the open token is next) as
 * normalised text: words lower-cased, quoted names in back quotes, no
 * spaces except between two words. */
static bool capture_group(sqe_parser *p, sqe_strbuf *sb, sqe_tok_kind open, sqe_tok_kind close,
                          const char *close_what) {
    int depth = 0;
    const sqe_token *prev = NULL;
    do {
        sqe_token *t = sqe_p_peek(p, 0);
        if (t->kind == SQE_TK_EOF || t->kind == SQE_TK_ERROR || t->kind == SQE_TK_SEMI) {
            sqe_p_error_expected(p, close_what);
            return false;
        }
        if (t->kind == open)
            depth++;
        else if (t->kind == close)
            depth--;
        if (prev && is_word_tok(prev) && is_word_tok(t)) sqe_strbuf_putc(sb, ' ');
        if (t->kind == SQE_TK_IDENT) {
            char *w = sqe_arena_strdup(p->arena, t->text);
            sqe_strbuf_puts(sb, sqe_str_lower(w));
        } else if (t->kind == SQE_TK_QIDENT || t->kind == SQE_TK_BQIDENT) {
            sqe_strbuf_printf(sb, "`%s`", t->text);
        } else {
            sqe_strbuf_append(sb, p->src + t->off, t->len);
        }
        prev = t;
        sqe_p_next(p);
    } while (depth > 0);
    return true;
}

static bool parse_type_param(sqe_parser *p, int *out) {
    sqe_token *t = sqe_p_peek(p, 0);
    if (t->kind != SQE_TK_INTEGER) return sqe_p_error_expected(p, "type parameter (an integer)");
    errno = 0;
    long v = strtol(t->text, NULL, 10);
    if (errno || v > INT_MAX)
        return sqe_p_error_at(p, t->pos, "type parameter %s is too large", t->text);
    *out = (int)v;
    sqe_p_next(p);
    return true;
}

bool sqe_p_parse_type(sqe_parser *p, sqe_ast_type *out) {
    sqe_token *t = sqe_p_peek(p, 0);
    if (t->kind != SQE_TK_IDENT) return sqe_p_error_expected(p, "type name");
    memset(out, 0, sizeof *out);
    out->pos = t->pos;
    char *name = sqe_str_lower(sqe_arena_strdup(p->arena, t->text));
    sqe_p_next(p);
    out->name = name;
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    sqe_strbuf_puts(&sb, name);
    bool ok = true;
    bool complex_angle = strcmp(name, "array") == 0 || strcmp(name, "map") == 0 ||
                         strcmp(name, "struct") == 0 || strcmp(name, "uniontype") == 0 ||
                         strcmp(name, "row") == 0;
    bool complex_paren =
        strcmp(name, "array") == 0 || strcmp(name, "map") == 0 || strcmp(name, "row") == 0;
    if (complex_angle && sqe_p_peek(p, 0)->kind == SQE_TK_LT) {
        ok = capture_group(p, &sb, SQE_TK_LT, SQE_TK_GT, "'>'");
    } else if (complex_paren && sqe_p_peek(p, 0)->kind == SQE_TK_LPAREN) {
        ok = capture_group(p, &sb, SQE_TK_LPAREN, SQE_TK_RPAREN, "')'");
    } else {
        if (strcmp(name, "double") == 0 && sqe_p_accept(p, "precision"))
            sqe_strbuf_puts(&sb, " precision");
        if (sqe_p_accept_tok(p, SQE_TK_LPAREN)) {
            ok = parse_type_param(p, &out->params[0]);
            out->n_params = 1;
            if (ok && sqe_p_accept_tok(p, SQE_TK_COMMA)) {
                ok = parse_type_param(p, &out->params[1]);
                out->n_params = 2;
            }
            ok =
                ok && sqe_p_expect_tok(p, SQE_TK_RPAREN, out->n_params == 1 ? "',' or ')'" : "')'");
            if (ok && out->n_params == 1) sqe_strbuf_printf(&sb, "(%d)", out->params[0]);
            if (ok && out->n_params == 2)
                sqe_strbuf_printf(&sb, "(%d,%d)", out->params[0], out->params[1]);
        }
        if (ok && (strcmp(name, "timestamp") == 0 || strcmp(name, "time") == 0) &&
            (sqe_p_is(p, 0, "with") || sqe_p_is(p, 0, "without")) && sqe_p_is(p, 1, "time") &&
            sqe_p_is(p, 2, "zone")) {
            bool with = sqe_p_is(p, 0, "with");
            p->cur += 3;
            sqe_strbuf_puts(&sb, with ? " with time zone" : " without time zone");
            if (with) out->name = sqe_arena_sprintf(p->arena, "%s with time zone", name);
        }
    }
    if (strcmp(name, "interval") == 0) {
        /* INTERVAL DAY TO SECOND / YEAR TO MONTH: the words follow; types/ checks them. */
        static const char *const k_words[] = {"year",   "month",  "day", "hour",
                                              "minute", "second", "to"};
        for (bool more = true; more;) {
            more = false;
            for (size_t i = 0; i < SQE_ARRAY_LEN(k_words) && !more; i++) {
                if (sqe_p_accept(p, k_words[i])) {
                    sqe_strbuf_printf(&sb, " %s", k_words[i]);
                    more = true;
                }
            }
        }
        out->name = sqe_arena_strndup(p->arena, sb.data, sb.len);
    }
    if (ok) out->text = sqe_arena_strndup(p->arena, sb.data, sb.len);
    sqe_strbuf_free(&sb);
    return ok;
}

/* -------------------------------------------------------- statements */

static sqe_ast_stmt *parse_statement(sqe_parser *p);

/* Records a recognised statement sqe does not run: skips to the end of the
 * statement and names it. */
bool sqe_p_unsupported(sqe_parser *p, sqe_ast_stmt *st, const char *what) {
    for (;;) {
        sqe_tok_kind k = sqe_p_peek(p, 0)->kind;
        if (k == SQE_TK_EOF || k == SQE_TK_SEMI || k == SQE_TK_ERROR) break;
        sqe_p_next(p);
    }
    st->kind = SQE_STMT_UNSUPPORTED;
    st->u.unsupported.what = sqe_arena_strdup(p->arena, what);
    return true;
}

static sqe_ast_stmt *unsupported(sqe_parser *p, sqe_ast_stmt *st, const char *what) {
    sqe_p_unsupported(p, st, what);
    return st;
}

char *sqe_p_upper_word(sqe_parser *p, const sqe_token *t) {
    char *w = sqe_arena_strdup(p->arena, t->text);
    for (char *c = w; *c; c++) *c = (char)toupper((unsigned char)*c);
    return w;
}

/* Statements whose first word alone names them. */
static const char *const unsupported_words[] = {
    "delete",   "merge",   "grant",   "revoke",     "call",   "set",      "reset",
    "truncate", "prepare", "execute", "deallocate", "commit", "rollback", "refresh",
};

/* SET TIME ZONE LOCAL | SET TIME ZONE expression (Trino): the expression is
 * a zone name ('America/New_York', '+05:30') or an INTERVAL DAY TO SECOND
 * offset (INTERVAL '+05:30' HOUR TO MINUTE); the engine evaluates it. */
static sqe_ast_stmt *parse_set_time_zone(sqe_parser *p, sqe_ast_stmt *st) {
    for (int i = 0; i < 3; i++) sqe_p_next(p);
    st->kind = SQE_STMT_SET_TIME_ZONE;
    if (sqe_p_accept(p, "local")) {
        st->u.set_time_zone.zone = NULL;
        return st;
    }
    st->u.set_time_zone.zone = sqe_p_parse_expr(p);
    return st->u.set_time_zone.zone ? st : NULL;
}

static sqe_ast_stmt *parse_statement_body(sqe_parser *p, sqe_ast_stmt *st) {
    sqe_token *t = sqe_p_peek(p, 0);
    if (sqe_p_starts_query(p, 0) || sqe_p_is(p, 0, "values")) {
        st->kind = SQE_STMT_SELECT;
        return (st->u.query = sqe_p_parse_query(p)) ? st : NULL;
    }
    if (t->kind != SQE_TK_IDENT) return sqe_p_error_expected(p, "statement"), NULL;

    if (sqe_p_accept(p, "explain")) {
        st->kind = SQE_STMT_EXPLAIN;
        st->u.explain.analyze = sqe_p_accept(p, "analyze");
        if (!sqe_p_enter(p)) return NULL;
        st->u.explain.stmt = parse_statement(p);
        sqe_p_leave(p);
        return st->u.explain.stmt ? st : NULL;
    }
    if (sqe_p_tok_is(t, "create")) {
        const char *what = NULL;
        if (!sqe_p_parse_create(p, st, &what)) return NULL;
        return what ? unsupported(p, st, what) : st;
    }
    if (sqe_p_tok_is(t, "insert")) {
        bool overwrite = sqe_p_is(p, 1, "overwrite");
        return unsupported(p, st, overwrite ? "INSERT OVERWRITE" : "INSERT");
    }
    if (sqe_p_tok_is(t, "update"))
        return unsupported(p, st, sqe_p_is(p, 1, "statistics") ? "UPDATE STATISTICS" : "UPDATE");
    if (sqe_p_tok_is(t, "analyze")) return sqe_p_parse_analyze(p, st) ? st : NULL;
    if (sqe_p_tok_is(t, "msck")) return sqe_p_parse_msck(p, st) ? st : NULL;
    if (sqe_p_tok_is(t, "replace") && sqe_p_is(p, 1, "into"))
        return unsupported(p, st, "REPLACE INTO");
    if (sqe_p_tok_is(t, "load") && sqe_p_is(p, 1, "data")) return unsupported(p, st, "LOAD DATA");
    if (sqe_p_tok_is(t, "comment") && sqe_p_is(p, 1, "on")) return unsupported(p, st, "COMMENT ON");
    if (sqe_p_tok_is(t, "start") && sqe_p_is(p, 1, "transaction"))
        return unsupported(p, st, "START TRANSACTION");
    if (sqe_p_tok_is(t, "alter") && sqe_p_is(p, 1, "table"))
        return sqe_p_parse_alter_table(p, st) ? st : NULL;
    if (sqe_p_tok_is(t, "alter")) {
        sqe_token *t1 = sqe_p_peek(p, 1);
        if (t1->kind != SQE_TK_IDENT) {
            sqe_p_next(p);
            return sqe_p_error_expected(p, "TABLE"), NULL;
        }
        return unsupported(p, st, sqe_arena_sprintf(p->arena, "ALTER %s", sqe_p_upper_word(p, t1)));
    }
    if (sqe_p_tok_is(t, "set") && sqe_p_is(p, 1, "time") && sqe_p_is(p, 2, "zone"))
        return parse_set_time_zone(p, st);
    for (size_t i = 0; i < SQE_ARRAY_LEN(unsupported_words); i++)
        if (sqe_p_tok_is(t, unsupported_words[i]))
            return unsupported(p, st, sqe_p_upper_word(p, t));

    if (!sqe_p_parse_catalog_stmt(p, st)) return NULL;
    return st;
}

static sqe_ast_stmt *parse_statement(sqe_parser *p) {
    sqe_ast_stmt *st = sqe_arena_alloc(p->arena, sizeof *st);
    int first = p->cur;
    st->pos = sqe_p_peek(p, 0)->pos;
    if (!parse_statement_body(p, st)) return NULL;
    /* text: first token through the last one consumed */
    if (p->cur > first) {
        const sqe_token *a = &p->toks[first], *b = &p->toks[p->cur - 1];
        st->text = sqe_arena_strndup(p->arena, p->src + a->off, b->off + b->len - a->off);
    } else {
        st->text = "";
    }
    return st;
}

sqe_ast_stmt *sqe_sql_parse(sqe_arena *arena, const char *sql, sqe_error *err) {
    sqe_parser p = {0};
    p.arena = arena;
    p.src = sql ? sql : "";
    p.err = err;
    p.toks = sqe_sql_lex_heap(arena, p.src, sqe_sql_lex_mode_for(p.src), &p.n_toks);
    sqe_ast_stmt *st = parse_statement(&p);
    if (st) {
        while (sqe_p_accept_tok(&p, SQE_TK_SEMI)) { /* any number of trailing ; */
        }
        if (sqe_p_peek(&p, 0)->kind != SQE_TK_EOF) {
            sqe_p_error_expected(&p, "end of input");
            st = NULL;
        }
    }
    sqe_free(p.toks); /* the AST keeps no token (texts live in arena) */
    return st;
}
