/*
 * sql_int.h - private to src/sql/: tokens, the lexer, and the parser state
 * shared by parser.c, parse_query.c, parse_expr.c, parse_window.c,
 * parse_group.c and parse_ddl.c.
 *
 * The lexer turns the whole statement into an array of tokens up front (in
 * the statement arena). A lexical error does not stop the parse at once: the
 * lexer ends the array with an SQE_TK_ERROR token carrying the message, and
 * the parser reports it when it reaches that token. Errors therefore come out
 * in source order: `SELECT FROM 'abc` reports the missing expression, not the
 * unterminated string.
 *
 * Two lexing dialects (sqe_lex_mode):
 *  - SQE_LEX_TRINO (queries and everything else): a backslash is an ordinary
 *    character in '...' strings, as in Trino.
 *  - SQE_LEX_HIVE (CREATE ... TABLE and ALTER TABLE, detected from the
 *    statement's leading words): inside '...' and "..." a backslash takes the
 *    next character with it, so '\'' and "a\"b" do not end the string, as in
 *    Hive. Both characters are still stored raw (no escape processing: the
 *    hive layer interprets '\t', '\001', regex escapes itself). Identifiers
 *    may also start with a digit (`1st_col`), as Hive allows.
 */
#ifndef SQE_SQL_INT_H
#define SQE_SQL_INT_H

#include "sql/sql.h"

typedef enum sqe_tok_kind {
    SQE_TK_EOF = 0,
    SQE_TK_ERROR,   /* lexical error; text is the full error message */
    SQE_TK_IDENT,   /* unquoted word (keywords are words too) */
    SQE_TK_QIDENT,  /* "double quoted" ("" collapsed) */
    SQE_TK_BQIDENT, /* `back quoted` (`` collapsed) */
    SQE_TK_STRING,  /* '...' ('' collapsed, nothing else) */
    SQE_TK_INTEGER, /* 123 */
    SQE_TK_DECIMAL, /* 1.5 .5 5. */
    SQE_TK_DOUBLE,  /* 1e3 1.5E-2 */
    SQE_TK_PLUS,
    SQE_TK_MINUS,
    SQE_TK_STAR,
    SQE_TK_SLASH,
    SQE_TK_PERCENT,
    SQE_TK_EQ,
    SQE_TK_NE, /* <> or != */
    SQE_TK_LT,
    SQE_TK_LE,
    SQE_TK_GT,
    SQE_TK_GE,
    SQE_TK_CONCAT, /* || */
    SQE_TK_LPAREN,
    SQE_TK_RPAREN,
    SQE_TK_COMMA,
    SQE_TK_DOT,
    SQE_TK_SEMI,
    SQE_TK_COLON,
    SQE_TK_LBRACKET,
    SQE_TK_RBRACKET,
    SQE_TK_LBRACE, /* { (map literals in table function arguments) */
    SQE_TK_RBRACE,
    SQE_TK_ARROW, /* => (named arguments) */
} sqe_tok_kind;

typedef struct sqe_token {
    sqe_tok_kind kind;
    char *text;  /* NUL-terminated value: word, decoded quoted text, number, or error message */
    size_t off;  /* byte offset of the token in the source */
    size_t len;  /* byte length of the token in the source (quotes included) */
    sqe_pos pos; /* where it starts */
} sqe_token;

typedef enum sqe_lex_mode { SQE_LEX_TRINO = 0, SQE_LEX_HIVE } sqe_lex_mode;

/* Tokenizes src into an arena array that always ends with an EOF or ERROR
 * token. *n_out counts all tokens including that last one. Never fails. */
sqe_token *sqe_sql_lex(sqe_arena *arena, const char *src, sqe_lex_mode mode, int *n_out);
/* The same with the token array malloc'd (sqe_free it; token texts stay in
 * arena): the parser frees the array once the statement is parsed, so a
 * 60,000-item select list does not keep 10 MB of tokens while it runs. */
sqe_token *sqe_sql_lex_heap(sqe_arena *arena, const char *src, sqe_lex_mode mode, int *n_out);

/* Looks at the leading words of a statement (skipping blanks and comments)
 * and returns SQE_LEX_HIVE for CREATE [OR REPLACE] [TEMPORARY] [EXTERNAL]
 * TABLE and ALTER TABLE, SQE_LEX_TRINO otherwise. */
sqe_lex_mode sqe_sql_lex_mode_for(const char *src);

/* Skips blanks and comments from s; returns the first other byte (or the
 * end of an unterminated comment). Counts newlines into *line if non-NULL. */
const char *sqe_sql_skip_space(const char *s, int *line);

/* ------------------------------------------------------------ parser */

#define SQE_SQL_MAX_DEPTH 200
/* Binary operators in one outermost expression (a select item, a WHERE
 * condition...; subqueries inside it included), and joins plus set
 * operations per statement. Left-deep chains (a OR b OR c ..., t1 JOIN t2
 * JOIN t3 ...) are parsed by loops, but every later pass walks them
 * recursively, so these counts bound the trees' depth. A select list of
 * 60,000 short items is fine: the count starts again at every item. */
#define SQE_SQL_MAX_OPS 10000
/* Binary operators per statement in all: a generous bound on the size of
 * the trees one statement builds (its text already bounds them). */
#define SQE_SQL_MAX_STMT_OPS 1000000

/* Number of grouping sets one GROUP BY may make (Trino's limit), and the
 * most elements a CUBE may take (2^12 = 4096 sets). */
#define SQE_SQL_MAX_GROUPING_SETS 4096
#define SQE_SQL_MAX_CUBE_ELEMENTS 12

typedef struct sqe_p_window_scope sqe_p_window_scope;

typedef struct sqe_parser {
    sqe_arena *arena;
    const char *src;
    sqe_token *toks;
    int n_toks;
    int cur;       /* index of the next token */
    int depth;     /* recursion depth of expressions/queries */
    int n_ops;     /* binary operators in the current outermost expression */
    int n_rel_ops; /* joins + set operations in the statement */
    int n_all_ops; /* binary operators in the statement */
    int expr_nest; /* sqe_p_parse_expr calls in progress */
    bool in_trial; /* inside the one look-ahead trial of parse_query.c */
    sqe_error *err;
    int *paren_match; /* token index of the ')' matching each '(' (-1: none); built on first use */
    /* Named windows (parse_window.c): the scope of the SELECT body being
     * parsed (NULL where no WINDOW clause can be seen: VALUES rows, the
     * ORDER BY of a set operation), and the last SELECT body finished, whose
     * WINDOW clause the query's trailing ORDER BY may still use. */
    sqe_p_window_scope *win, *win_last;
} sqe_parser;

/* Token access. peek(p, 0) is the next token; past the end it stays on the
 * final EOF/ERROR token. */
sqe_token *sqe_p_peek(sqe_parser *p, int ahead);
sqe_token *sqe_p_next(sqe_parser *p);
/* True if the token is the unquoted word kw (case-insensitive). */
bool sqe_p_tok_is(const sqe_token *t, const char *kw);
/* peek(p, ahead) is the word kw. */
bool sqe_p_is(sqe_parser *p, int ahead, const char *kw);
/* Consumes the word kw if next; returns whether it did. */
bool sqe_p_accept(sqe_parser *p, const char *kw);
/* Consumes token kind k if next. */
bool sqe_p_accept_tok(sqe_parser *p, sqe_tok_kind k);
/* Consumes the word kw or fails with "expected KW". */
bool sqe_p_expect(sqe_parser *p, const char *kw);
/* Consumes token kind k or fails with "expected <what>". */
bool sqe_p_expect_tok(sqe_parser *p, sqe_tok_kind k, const char *what);

/* "syntax error at line L:C: expected <what>, found '<tok>'" at the next
 * token (or that token's lexical error). Always returns false. */
bool sqe_p_error_expected(sqe_parser *p, const char *what);
/* "syntax error at line L:C: <message>" at pos. Returns false. */
bool sqe_p_error_at(sqe_parser *p, sqe_pos pos, const char *fmt, ...) SQE_PRINTF(3, 4);

/* Words that can never be an unquoted identifier (SELECT, FROM, JOIN...). */
bool sqe_sql_is_reserved(const char *word);
/* True if t can be used as an identifier: a quoted identifier or an
 * unquoted non-reserved word. */
bool sqe_p_tok_is_ident(const sqe_token *t);

/* Identifier helpers. parse_ident accepts quoted identifiers and unquoted
 * non-reserved words; `what` names it in the error ("column name"). */
bool sqe_p_parse_ident(sqe_parser *p, sqe_ident *out, const char *what);
/* Also takes reserved words: DDL column names, where nothing else fits. */
bool sqe_p_parse_any_ident(sqe_parser *p, sqe_ident *out, const char *what);
/* [AS] alias: AS takes any identifier; without AS only a quoted identifier
 * or a non-reserved word that does not start a clause (LIMIT, OFFSET...). */
bool sqe_p_parse_opt_alias(sqe_parser *p, sqe_ident **out);
/* a.b.c (any number of parts). When table_name is set, back-quoted parts
 * holding dots are split (SPEC 3.1) and more than 3 parts is an error. */
bool sqe_p_parse_qname(sqe_parser *p, sqe_qname *out, bool table_name, const char *what);
/* Type name for CAST and column definitions. */
bool sqe_p_parse_type(sqe_parser *p, sqe_ast_type *out);
/* A string literal; in DDL (ddl=true) a "double quoted" token also counts
 * as a string, as Hive reads it. Returns the arena string or NULL. */
char *sqe_p_parse_string(sqe_parser *p, bool ddl, const char *what);
/* ('k'='v', ...) */
bool sqe_p_parse_kv_list(sqe_parser *p, int *n_out, sqe_ast_kv **out);
/* parse_ddl.c: MSCK REPAIR TABLE t [ADD|DROP|SYNC PARTITIONS] and ALTER
 * TABLE t ADD|DROP PARTITION ... (other ALTER TABLE forms: UNSUPPORTED
 * naming them). The current token is MSCK / ALTER. */
bool sqe_p_parse_msck(sqe_parser *p, sqe_ast_stmt *st);
bool sqe_p_parse_alter_table(sqe_parser *p, sqe_ast_stmt *st);

/* Counts one binary operator; fails past SQE_SQL_MAX_OPS in one outermost
 * expression or SQE_SQL_MAX_STMT_OPS in the statement. */
bool sqe_p_count_op(sqe_parser *p, sqe_pos pos);
/* Counts one join or set operation; fails past SQE_SQL_MAX_OPS in the
 * statement. */
bool sqe_p_count_rel_op(sqe_parser *p, sqe_pos pos);
/* Enters/leaves one nesting level; fails past SQE_SQL_MAX_DEPTH. */
bool sqe_p_enter(sqe_parser *p);
static inline void sqe_p_leave(sqe_parser *p) {
    p->depth--;
}

/* Identifier equality as the binder sees it: unquoted names fold to lower
 * case, quoted names compare as written. */
bool sqe_p_ident_eq(const sqe_ident *a, const sqe_ident *b);
/* The name as the binder sees it (arena copy, lower-cased if unquoted). */
char *sqe_p_ident_key(sqe_parser *p, const sqe_ident *id);
/* '(' name, ... ')' (the '(' is next): CTE and FROM column alias lists. A
 * name given twice is a syntax error naming it. */
bool sqe_p_parse_column_aliases(sqe_parser *p, int *n_out, sqe_ident **out);

/* Look-ahead over parentheses. sqe_p_ends_element: the token at peek(ahead)
 * ends an element of a GROUP BY or VALUES list: ',', ')', ';', end of input,
 * or a word that starts a later clause (HAVING, WINDOW, ORDER, LIMIT,
 * OFFSET, FETCH, UNION, INTERSECT, EXCEPT). sqe_p_paren_is_element:
 * peek(ahead) is '(' and the token after its matching ')' ends an element
 * (also true when the '(' is never closed, so the list parser reports it),
 * i.e. "(a, b)" is a whole element rather than the start of "(a) + b". */
bool sqe_p_ends_element(sqe_parser *p, int ahead);
bool sqe_p_paren_is_element(sqe_parser *p, int ahead);

/* Grammar entry points. */
sqe_ast_expr *sqe_p_parse_expr(sqe_parser *p);
sqe_ast_query *sqe_p_parse_query(sqe_parser *p);
/* True if the tokens at peek(ahead) start a query: SELECT, WITH or VALUES
 * (see sqe_p_starts_values), possibly after any number of '('. */
bool sqe_p_starts_query(sqe_parser *p, int ahead);
/* peek(ahead) is the word VALUES followed by something that starts a row
 * ('(', a literal, a sign, a keyword that starts an expression, a call), so
 * that `(values)` or `(values v)` in FROM still name a table `values`. */
bool sqe_p_starts_values(sqe_parser *p, int ahead);
/* order_item, ... (after ORDER BY): query ORDER BY and window ORDER BY. */
bool sqe_p_parse_order_items(sqe_parser *p, int *n_out, sqe_ast_order_item **out);

/* parse_window.c: named windows and OVER. A SELECT body opens a scope
 * before its select list and closes it after its WINDOW clause: OVER w
 * references seen before the WINDOW clause wait in the scope and are
 * resolved (the named spec copied into the call) when it closes; later ones
 * (the query's ORDER BY) resolve at once. sqe_p_window_scope_close restores
 * the enclosing scope; with ok it first resolves what waits and returns
 * whether that worked. */
sqe_p_window_scope *sqe_p_window_scope_open(sqe_parser *p, const sqe_ast_query *q);
bool sqe_p_window_scope_close(sqe_parser *p, sqe_p_window_scope *scope, bool ok);
/* The closed scope of SELECT body q if it is the last one finished, else
 * NULL: what the ORDER BY after q may use. */
sqe_p_window_scope *sqe_p_window_scope_of(sqe_parser *p, const sqe_ast_query *q);
/* WINDOW name AS (spec), ... ; WINDOW is next and a scope is open. */
bool sqe_p_parse_window_clause(sqe_parser *p);
/* OVER (spec) | OVER name, after a call; OVER is next. Fills call->u.func.over
 * (now, or when the scope closes for a named window). */
bool sqe_p_parse_over(sqe_parser *p, sqe_ast_expr *call);

/* parse_group.c: GROUP BY [ALL|DISTINCT] element, ... (GROUP BY has been
 * read). The elements are kept as parsed; sqe_p_finish_group_by fills
 * q->group_by and the grouping sets once the SELECT body's named windows are
 * resolved (deduplication renders the expressions). */
typedef struct sqe_p_group_by sqe_p_group_by;
sqe_p_group_by *sqe_p_parse_group_by(sqe_parser *p);
bool sqe_p_finish_group_by(sqe_parser *p, const sqe_p_group_by *g, sqe_ast_query *q);

/* render.c: an expression's canonical text, the key GROUP BY deduplicates
 * on. Like sqe_sql_expr_to_string but names that are not plain lower-case
 * words are double-quoted (so "a.b" and a.b differ) and every subquery is
 * distinct from every other. Arena-allocated. */
char *sqe_sql_expr_canonical(sqe_arena *arena, const sqe_ast_expr *e);
/* parse_ddl.c: CREATE ... (TABLE, DATABASE/SCHEMA, or a recognised but
 * unsupported kind, named in *unsupported_what), and the other catalog
 * statements (DROP, SHOW, DESCRIBE, USE, ATTACH, DETACH, SHOWDDL). */
bool sqe_p_parse_create(sqe_parser *p, sqe_ast_stmt *st, const char **unsupported_what);
bool sqe_p_parse_catalog_stmt(sqe_parser *p, sqe_ast_stmt *st);
/* parse_secret.c: CREATE SECRET (at SECRET or PERSISTENT), DROP SECRET (at
 * SECRET, TEMPORARY or PERSISTENT). */
bool sqe_p_parse_create_secret(sqe_parser *p, sqe_ast_stmt *st, bool or_replace, bool temporary);
bool sqe_p_parse_drop_secret(sqe_parser *p, sqe_ast_stmt *st);
/* parse_stats.c: ANALYZE (at ANALYZE): Hive's `ANALYZE TABLE t COMPUTE
 * STATISTICS [FOR COLUMNS [c, ...]]` and Trino's `ANALYZE t`. */
bool sqe_p_parse_analyze(sqe_parser *p, sqe_ast_stmt *st);

/* Makes st an SQE_STMT_UNSUPPORTED named `what` and skips to the end of
 * the statement. Returns true. */
bool sqe_p_unsupported(sqe_parser *p, sqe_ast_stmt *st, const char *what);
/* The token's word upper-cased (arena). */
char *sqe_p_upper_word(sqe_parser *p, const sqe_token *t);
/* parse_json.c: the SQL/JSON clauses of json_value / json_query /
 * json_exists (fn, any case) after their path argument, up to the closing
 * ')' (not consumed); returns the call rewritten over the plain functions,
 * or NULL after an error (NOT_SUPPORTED names a clause sqe lacks). */
sqe_ast_expr *sqe_p_parse_json_clauses(sqe_parser *p, const char *fn, sqe_pos pos,
                                       sqe_ast_expr *input, sqe_ast_expr *path);
/* fn is json_value, json_query or json_exists (any case). */
bool sqe_p_is_sql_json_fn(const char *fn);

/* NOT_SUPPORTED error (plain sentence, no position). Returns false. */
bool sqe_p_not_supported(sqe_parser *p, const char *fmt, ...) SQE_PRINTF(2, 3);

#endif
