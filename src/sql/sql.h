/*
 * sql.h - layer 2: lexer, AST and recursive-descent parser for queries
 * (Trino/Athena dialect) and Hive DDL. One AST for everything.
 *
 * All AST nodes are allocated in the arena passed to the parser and die with
 * it (the statement arena). Identifiers are stored as written (`ident.name`)
 * with `quoted` set when back-quoted or double-quoted; the binder and the hive
 * layer fold unquoted (and, for Hive names, quoted too) to lower case.
 * String literals hold their value with '' already collapsed to ' and no
 * other escape processing (the hive layer interprets DDL delimiter escapes
 * like '\001' itself). Every node records the line:column where it starts.
 */
#ifndef SQE_SQL_H
#define SQE_SQL_H

#include "types/types.h"

typedef struct sqe_pos {
    int line, col; /* 1-based */
} sqe_pos;

typedef struct sqe_ident {
    char *name;
    bool quoted;
    sqe_pos pos;
} sqe_ident;

/* A dotted name: a, a.b, a.b.c. A back-quoted single part containing a dot
 * (`db.tbl`) is split into parts by the parser (SPEC §3.1) with quoted set. */
typedef struct sqe_qname {
    int n_parts;
    sqe_ident *parts;
    sqe_pos pos;
} sqe_qname;

/* --------------------------------------------------------- expressions */

typedef enum sqe_ast_expr_kind {
    SQE_AST_LITERAL,     /* lit */
    SQE_AST_COLUMN,      /* column: qualified name a / t.a / db.t.a */
    SQE_AST_STAR,        /* star: * or t.* (qualifier may be NULL) */
    SQE_AST_UNARY,       /* unary */
    SQE_AST_BINARY,      /* binary */
    SQE_AST_FUNCTION,    /* func */
    SQE_AST_CASE,        /* case_ */
    SQE_AST_CAST,        /* cast */
    SQE_AST_IN_LIST,     /* in_list */
    SQE_AST_BETWEEN,     /* between */
    SQE_AST_LIKE,        /* like */
    SQE_AST_IS_NULL,     /* is_null */
    SQE_AST_IS_DISTINCT, /* is_distinct: a IS [NOT] DISTINCT FROM b */
    SQE_AST_SUBQUERY,    /* subquery: scalar subquery (planner may reject) */
    SQE_AST_EXISTS,      /* subquery */
    SQE_AST_IN_SUBQUERY, /* in_subquery */
} sqe_ast_expr_kind;

typedef enum sqe_literal_kind {
    SQE_LIT_NULL,
    SQE_LIT_BOOL,     /* b */
    SQE_LIT_INTEGER,  /* text: digits, fits or not in int64 (binder decides) */
    SQE_LIT_DECIMAL,  /* text: "1.50" (no exponent) -> DECIMAL, as Trino */
    SQE_LIT_DOUBLE,   /* text: "1e3", "1.5E-2" -> DOUBLE */
    SQE_LIT_STRING,   /* text (value, quotes removed) */
    SQE_LIT_TYPED,    /* DATE '...', TIMESTAMP '...', DECIMAL '...', etc: type_name + text */
    SQE_LIT_INTERVAL, /* INTERVAL '3' DAY: text + unit (in type_name) */
} sqe_literal_kind;

typedef enum sqe_binop {
    SQE_OP_ADD,
    SQE_OP_SUB,
    SQE_OP_MUL,
    SQE_OP_DIV,
    SQE_OP_MOD,
    SQE_OP_EQ,
    SQE_OP_NE,
    SQE_OP_LT,
    SQE_OP_LE,
    SQE_OP_GT,
    SQE_OP_GE,
    SQE_OP_AND,
    SQE_OP_OR,
    SQE_OP_CONCAT,
} sqe_binop;

typedef enum sqe_unop { SQE_OP_NEG, SQE_OP_PLUS, SQE_OP_NOT } sqe_unop;

typedef struct sqe_ast_type {
    char *name;   /* as written, lower-cased: "int", "varchar", "decimal", "array" ... */
    int n_params; /* 0..2 numeric parameters: varchar(10), decimal(10,2) */
    int params[2];
    char *text; /* the whole type as written, e.g. "array<struct<a:int>>" (for errors / complex
                   types) */
    sqe_pos pos;
} sqe_ast_type;

typedef struct sqe_ast_expr sqe_ast_expr;
typedef struct sqe_ast_query sqe_ast_query;

typedef struct sqe_ast_when {
    sqe_ast_expr *cond;
    sqe_ast_expr *result;
} sqe_ast_when;

struct sqe_ast_expr {
    sqe_ast_expr_kind kind;
    sqe_pos pos;
    union {
        struct {
            sqe_literal_kind kind;
            bool b;
            char *text;
            char *type_name; /* SQE_LIT_TYPED: lower-case "date", "timestamp", "decimal"...;
                                INTERVAL: unit */
        } lit;
        sqe_qname column;
        struct {
            sqe_qname *qualifier; /* NULL for bare * */
        } star;
        struct {
            sqe_unop op;
            sqe_ast_expr *arg;
        } unary;
        struct {
            sqe_binop op;
            sqe_ast_expr *left, *right;
        } binary;
        struct {
            sqe_qname name; /* function name (usually 1 part) */
            int n_args;
            sqe_ast_expr **args;
            bool distinct;               /* count(DISTINCT x) */
            bool star;                   /* count(*) */
            sqe_ast_expr *filter;        /* agg(x) FILTER (WHERE cond), NULL if none */
            bool ignore_nulls;           /* lag(x) IGNORE NULLS (RESPECT NULLS: false) */
            struct sqe_ast_window *over; /* f(...) OVER (...), NULL if not a window call */
        } func;
        struct {
            sqe_ast_expr *operand; /* CASE x WHEN ... (NULL for searched CASE) */
            int n_whens;
            sqe_ast_when *whens;
            sqe_ast_expr *else_; /* may be NULL */
        } case_;
        struct {
            sqe_ast_expr *arg;
            sqe_ast_type type;
            bool try_; /* TRY_CAST */
        } cast;
        struct {
            sqe_ast_expr *arg;
            int n_items;
            sqe_ast_expr **items;
            bool negated;
        } in_list;
        struct {
            sqe_ast_expr *arg, *low, *high;
            bool negated;
        } between;
        struct {
            sqe_ast_expr *arg, *pattern, *escape; /* escape may be NULL */
            bool negated, ilike;
        } like;
        struct {
            sqe_ast_expr *arg;
            bool negated; /* IS NOT NULL */
        } is_null;
        struct {
            sqe_ast_expr *left, *right;
            bool negated; /* IS NOT DISTINCT FROM */
        } is_distinct;
        struct {
            sqe_ast_query *query;
        } subquery;
        struct {
            sqe_ast_expr *arg;
            sqe_ast_query *query;
            bool negated;
        } in_subquery;
    } u;
};

/* ------------------------------------------------------------- queries */

typedef struct sqe_ast_select_item {
    sqe_ast_expr *expr;
    sqe_ident *alias; /* NULL if none */
} sqe_ast_select_item;

typedef enum sqe_ast_from_kind {
    SQE_FROM_TABLE,
    SQE_FROM_SUBQUERY,
    SQE_FROM_JOIN,
    SQE_FROM_FUNCTION /* table function: read_csv('path', delim => ',') */
} sqe_ast_from_kind;

/* One argument of a table function: positional (name NULL) or named
 * (`name => value`, also DuckDB's `name = value` and `name := value`). The
 * value is an expression or a map literal `{'k': 'v', ...}` (n_pairs > 0,
 * value NULL), as DuckDB writes `columns = {'id': 'BIGINT'}`. */
typedef struct sqe_ast_func_arg {
    sqe_pos pos;
    sqe_ident *name;
    sqe_ast_expr *value;
    int n_pairs;
    sqe_ast_expr **keys, **vals;
} sqe_ast_func_arg;
typedef enum sqe_join_kind {
    SQE_JOIN_INNER,
    SQE_JOIN_LEFT,
    SQE_JOIN_RIGHT,
    SQE_JOIN_FULL,
    SQE_JOIN_CROSS
} sqe_join_kind;

typedef struct sqe_ast_from sqe_ast_from;
struct sqe_ast_from {
    sqe_ast_from_kind kind;
    sqe_pos pos;
    sqe_ident *alias; /* table/subquery alias, NULL if none */
    int n_alias_cols; /* AS t(a, b, ...): column aliases, 0 if none */
    sqe_ident *alias_cols;
    union {
        sqe_qname table;
        sqe_ast_query *subquery;
        struct {
            sqe_join_kind kind;
            sqe_ast_from *left, *right;
            sqe_ast_expr *on; /* NULL for CROSS / USING */
            int n_using;
            sqe_ident *using_cols;
        } join;
        struct {
            sqe_qname name;
            int n_args;
            sqe_ast_func_arg *args;
        } func;
    } u;
};

/* A window specification: OVER (PARTITION BY ... ORDER BY ... frame). A
 * reference to a named window (WINDOW w AS (...)) is resolved by the parser:
 * the function gets a copy of the named spec (merged with its own ORDER BY /
 * frame when it writes OVER (w ORDER BY ...)). */
typedef enum sqe_frame_unit {
    SQE_FRAME_DEFAULT = 0,
    SQE_FRAME_ROWS,
    SQE_FRAME_RANGE,
    SQE_FRAME_GROUPS
} sqe_frame_unit;
typedef enum sqe_frame_bound_kind {
    SQE_BOUND_UNBOUNDED_PRECEDING,
    SQE_BOUND_PRECEDING, /* offset PRECEDING */
    SQE_BOUND_CURRENT_ROW,
    SQE_BOUND_FOLLOWING, /* offset FOLLOWING */
    SQE_BOUND_UNBOUNDED_FOLLOWING,
} sqe_frame_bound_kind;

typedef struct sqe_ast_frame_bound {
    sqe_frame_bound_kind kind;
    sqe_ast_expr *offset; /* PRECEDING / FOLLOWING only */
} sqe_ast_frame_bound;

typedef struct sqe_ast_window {
    sqe_pos pos;
    int n_partition;
    sqe_ast_expr **partition;
    int n_order;
    struct sqe_ast_order_item *order;
    sqe_frame_unit unit;            /* SQE_FRAME_DEFAULT: no frame clause written */
    sqe_ast_frame_bound start, end; /* "ROWS x" alone: end = CURRENT ROW */
} sqe_ast_window;

typedef struct sqe_ast_order_item {
    sqe_ast_expr *expr;
    bool desc;
    int nulls; /* 0 = default (NULLS LAST in both directions), 1 = NULLS FIRST, 2 = NULLS LAST */
} sqe_ast_order_item;

/* WITH name [(c1, c2, ...)] AS (query) */
typedef struct sqe_ast_cte {
    sqe_ident name;
    int n_cols; /* 0: no column list */
    sqe_ident *cols;
    sqe_ast_query *query;
} sqe_ast_cte;

typedef enum sqe_set_op {
    SQE_SET_NONE = 0,
    SQE_SET_UNION,
    SQE_SET_INTERSECT,
    SQE_SET_EXCEPT,
} sqe_set_op;

typedef enum sqe_query_kind {
    SQE_QUERY_SELECT = 0, /* a SELECT body: items, from, where, group by, having */
    SQE_QUERY_SET,        /* set_left <set_op> [ALL] set_right */
    SQE_QUERY_VALUES,     /* VALUES (..), (..) */
} sqe_query_kind;

/* A query expression. Every kind may carry WITH (ctes), ORDER BY, LIMIT and
 * OFFSET, which apply to the whole of it: for SQE_QUERY_SET the ORDER BY
 * names output columns of the set operation. Set operations form a tree with
 * SQL precedence (INTERSECT binds tighter than UNION and EXCEPT, which
 * associate to the left); parentheses make their own subtree.
 *
 * GROUP BY: group_by lists the distinct grouping expressions (deduplicated by
 * their rendered text). When the query uses GROUPING SETS, ROLLUP or CUBE
 * (possibly several, combined as a cross product, and mixed with plain
 * expressions, as Trino does), n_grouping_sets > 0 and grouping_sets[i] is an
 * array of grouping_set_len[i] indexes into group_by (the empty set () has
 * length 0). Without them n_grouping_sets == 0 and every group_by expression
 * is a key. */
struct sqe_ast_query {
    sqe_pos pos;
    sqe_query_kind kind;
    int n_ctes;
    sqe_ast_cte *ctes;
    /* SQE_QUERY_SELECT */
    bool distinct;
    int n_items;
    sqe_ast_select_item *items;
    sqe_ast_from *from; /* NULL: SELECT without FROM */
    sqe_ast_expr *where;
    int n_group_by;
    sqe_ast_expr **group_by;
    int n_grouping_sets;
    int *grouping_set_len;
    int **grouping_sets;
    sqe_ast_expr *having;
    /* SQE_QUERY_SET */
    sqe_set_op set_op;
    bool set_all; /* UNION ALL / INTERSECT ALL / EXCEPT ALL */
    sqe_ast_query *set_left, *set_right;
    /* SQE_QUERY_VALUES: n_values_rows rows of n_values_cols expressions
     * (every row has the same count; the parser checks) */
    int n_values_rows, n_values_cols;
    sqe_ast_expr ***values_rows;
    /* every kind */
    int n_order_by;
    sqe_ast_order_item *order_by;
    sqe_ast_expr *limit;  /* NULL: none (LIMIT ALL also NULL) */
    sqe_ast_expr *offset; /* NULL: none */
};

/* --------------------------------------------------------- DDL */

typedef struct sqe_ast_kv {
    char *key, *value;
    sqe_pos pos;
} sqe_ast_kv;

typedef struct sqe_ast_column_def {
    sqe_ident name;
    sqe_ast_type type;
    char *comment; /* NULL if none */
} sqe_ast_column_def;

typedef enum sqe_row_format_kind {
    SQE_ROW_FORMAT_NONE = 0,
    SQE_ROW_FORMAT_DELIMITED,
    SQE_ROW_FORMAT_SERDE,
} sqe_row_format_kind;

typedef struct sqe_ast_create_table {
    bool external, temporary, if_not_exists, or_replace;
    sqe_qname name;
    int n_columns;
    sqe_ast_column_def *columns;
    bool has_column_list; /* false for CTAS without a list, or LIKE */
    char *comment;
    int n_partition_cols;
    sqe_ast_column_def *partition_cols; /* PARTITIONED BY (col type, ...) */
    int n_partition_names;              /* PARTITIONED BY (col, ...) without types (CTAS form) */
    sqe_ident *partition_names;
    /* CLUSTERED BY (..) [SORTED BY (..)] INTO n BUCKETS */
    bool clustered;
    sqe_pos clustered_pos;
    /* SKEWED BY (...) ON (...) [STORED AS DIRECTORIES] */
    bool skewed;
    sqe_pos skewed_pos;
    /* ROW FORMAT */
    sqe_row_format_kind row_format;
    sqe_pos row_format_pos;
    /* DELIMITED parts, raw literal text (NULL if absent) */
    char *fields_terminated, *escaped_by, *collection_terminated, *map_keys_terminated,
        *lines_terminated, *null_defined_as;
    /* SERDE */
    char *serde_class;
    int n_serde_props;
    sqe_ast_kv *serde_props;
    /* STORED AS <ident> | STORED AS INPUTFORMAT 'x' OUTPUTFORMAT 'y' | STORED BY 'class' */
    char *stored_as; /* identifier as written (e.g. "PARQUET", "csv") */
    sqe_pos stored_as_pos;
    char *input_format, *output_format;
    char *stored_by; /* storage handler class */
    sqe_pos stored_by_pos;
    int n_stored_by_props; /* WITH SERDEPROPERTIES after STORED BY */
    sqe_ast_kv *stored_by_props;
    char *location; /* NULL if absent */
    int n_tblprops;
    sqe_ast_kv *tblprops;
    sqe_ast_query *as_select; /* CREATE TABLE ... AS SELECT */
    sqe_qname *like;          /* CREATE ... TABLE t LIKE src */
} sqe_ast_create_table;

/* PARTITION (k = v, ...) [LOCATION 'url'] of ALTER TABLE ADD/DROP
 * PARTITION. kvs[i].key is the key as written (unquoted words keep their
 * case; the hive layer folds), kvs[i].value the literal's raw text (a DDL
 * string with its escapes not yet decoded, or a number as written, with a
 * leading '-' when negative), kvs[i].pos where the value starts. */
typedef struct sqe_ast_part_spec {
    int n_kvs;
    sqe_ast_kv *kvs;
    char *location; /* raw DDL string; NULL if absent (ADD only) */
    sqe_pos pos;    /* of the PARTITION keyword */
} sqe_ast_part_spec;

/* ----------------------------------------------------------- statements */

typedef enum sqe_stmt_kind {
    SQE_STMT_SELECT,            /* query */
    SQE_STMT_EXPLAIN,           /* explain */
    SQE_STMT_ATTACH,            /* attach */
    SQE_STMT_DETACH,            /* detach */
    SQE_STMT_CREATE_DATABASE,   /* create_database */
    SQE_STMT_DROP_DATABASE,     /* drop_database */
    SQE_STMT_CREATE_TABLE,      /* create_table (any CREATE [EXTERNAL] TABLE form) */
    SQE_STMT_DROP_TABLE,        /* drop_table */
    SQE_STMT_SHOW_CREATE_TABLE, /* target */
    SQE_STMT_SHOW_TABLES,       /* show */
    SQE_STMT_SHOW_DATABASES,    /* show */
    SQE_STMT_SHOW_COLUMNS,      /* target */
    SQE_STMT_SHOW_PARTITIONS,   /* target */
    SQE_STMT_DESCRIBE,          /* target */
    SQE_STMT_USE,               /* use */
    SQE_STMT_CREATE_SECRET,     /* create_secret */
    SQE_STMT_DROP_SECRET,       /* drop_secret */
    SQE_STMT_SHOW_SECRETS,      /* (no fields) */
    SQE_STMT_SHOW_FUNCTIONS,    /* show (like only) */
    SQE_STMT_UNSUPPORTED,       /* unsupported: a recognised statement sqe does not implement */
    SQE_STMT_MSCK_REPAIR,       /* msck */
    SQE_STMT_ALTER_PARTITIONS,  /* alter_partitions: ALTER TABLE t ADD|DROP PARTITION */
    SQE_STMT_SET_TIME_ZONE,     /* set_time_zone */
    SQE_STMT_ANALYZE,           /* analyze (ANALYZE [TABLE] t [COMPUTE STATISTICS [FOR COLUMNS]]) */
    SQE_STMT_SHOW_STATS,        /* target (SHOW STATS FOR t) */
} sqe_stmt_kind;

typedef struct sqe_ast_stmt {
    sqe_stmt_kind kind;
    sqe_pos pos;
    const char *text; /* the statement's own source text (arena copy, trimmed, no trailing ;) */
    union {
        sqe_ast_query *query;
        struct {
            struct sqe_ast_stmt *stmt;
            bool analyze;
        } explain;
        struct {
            char *url;
            sqe_ident name;
            char *type; /* TYPE value as written (NULL if no options) */
            sqe_pos type_pos;
            bool if_not_exists;
            int n_options; /* other (key value) options, for errors */
            sqe_ast_kv *options;
        } attach;
        struct {
            sqe_ident name;
            bool if_exists;
        } detach;
        struct {
            sqe_qname name;
            bool if_not_exists;
            bool schema_keyword; /* written as SCHEMA */
            char *comment;
            char *location; /* LOCATION given (rejected by hive) */
            int n_props;    /* WITH DBPROPERTIES ('k'='v', ...) */
            sqe_ast_kv *props;
        } create_database;
        struct {
            sqe_qname name;
            bool if_exists, cascade;
        } drop_database;
        sqe_ast_create_table create_table;
        struct {
            sqe_qname name;
            bool if_exists, purge;
            bool view; /* DROP VIEW */
        } drop_table;
        struct {
            sqe_qname name; /* SHOW CREATE TABLE / DESCRIBE / SHOW COLUMNS / SHOW PARTITIONS */
            bool extended;  /* DESCRIBE EXTENDED/FORMATTED */
            /* SHOW PARTITIONS t WHERE cond: the condition and its source
             * text (NULL when absent) */
            sqe_ast_expr *where;
            const char *where_text;
        } target;
        struct {
            sqe_qname *from; /* FROM/IN qualifier; NULL if none */
            char *like;      /* LIKE 'pattern'; NULL if none */
        } show;
        struct {
            sqe_qname name;
        } use;
        struct {
            char *what; /* e.g. "INSERT", "MSCK REPAIR TABLE", "ALTER TABLE" */
        } unsupported;
        struct {
            sqe_qname name;
            int n_cols; /* FOR COLUMNS c, ...: the columns named; 0: every column */
            sqe_ident *cols;
        } analyze;
        struct {
            sqe_ident name;
            bool or_replace, if_not_exists, persistent;
            int n_options;       /* in the order written */
            sqe_ast_kv *options; /* key lower-case; value as written (may be a secret) */
        } create_secret;
        struct {
            sqe_ident name;
            bool if_exists;
        } drop_secret;
        struct {
            sqe_qname name;
            bool add, drop; /* ADD PARTITIONS (default): add only; DROP: drop only; SYNC: both */
        } msck;
        struct {
            sqe_qname name;
            bool drop;    /* DROP PARTITION (else ADD) */
            bool if_flag; /* ADD IF NOT EXISTS / DROP IF EXISTS */
            int n_specs;  /* >= 1 */
            sqe_ast_part_spec *specs;
        } alter_partitions;
        struct {
            /* SET TIME ZONE expr (a varchar zone name or an INTERVAL DAY TO
             * SECOND offset, evaluated by the engine); NULL: SET TIME ZONE LOCAL */
            sqe_ast_expr *zone;
        } set_time_zone;
    } u;
} sqe_ast_stmt;

/* Parses exactly one statement (an optional trailing ';' is allowed).
 * On a syntax error fills err (SQE_ERR_SYNTAX) with
 * "syntax error at line L:C: expected X, found 'tok'" and returns NULL. */
sqe_ast_stmt *sqe_sql_parse(sqe_arena *arena, const char *sql, sqe_error *err);

/* Splits a script into statements at ';' outside quotes, identifiers and
 * comments. Calls cb(text, len, line_of_first_char, ctx) for each non-empty
 * statement (whitespace/comment-only pieces are skipped; text excludes ';').
 * Returns false if cb returns false (stops early). Unterminated quotes end
 * at end of input (the parser then reports them). */
typedef bool (*sqe_sql_stmt_cb)(const char *text, size_t len, int line, void *ctx);
bool sqe_sql_split(const char *script, sqe_sql_stmt_cb cb, void *ctx);
/* The same for a script of `len` bytes: a NUL byte inside is one more byte
 * (it ends up inside a statement, where sqe_sql_check_text rejects it). A
 * UTF-8 byte order mark between statements is skipped. */
bool sqe_sql_split_n(const char *script, size_t len, sqe_sql_stmt_cb cb, void *ctx);
/* Checks the bytes of one statement before it is lexed: a NUL byte is a
 * SYNTAX error naming its line:column (counted from the statement's start,
 * as the parser's errors are). Returns false after filling err. */
bool sqe_sql_check_text(const char *text, size_t len, sqe_error *err);

/* True when `text` holds at least one complete statement ending in ';'
 * (outside quotes/comments) - the REPL uses it to know when to run. */
bool sqe_sql_is_complete(const char *text);

/* Renders an expression back to SQL text (for column names of unaliased
 * select items, EXPLAIN, errors): "sum(amount)", "(a + 1)". Arena-allocated. */
char *sqe_sql_expr_to_string(sqe_arena *arena, const sqe_ast_expr *e);

/* Quotes an identifier for output if needed (double quotes, Trino style). */
const char *sqe_sql_binop_name(sqe_binop op); /* "+", "=", "AND", "||"... */

#endif
