/*
 * parse_ddl.c - Hive/Athena DDL and the catalog statements: CREATE TABLE
 * (the full Athena/Hive grammar of SPEC 3.1), CREATE/DROP DATABASE|SCHEMA,
 * DROP TABLE|VIEW, SHOW ..., DESCRIBE, USE, ATTACH, DETACH.
 *
 * The parser records, it does not judge: TEMPORARY, a missing EXTERNAL or
 * LOCATION, CLUSTERED BY, SKEWED BY, STORED BY, AS SELECT and unknown STORED
 * AS names all parse into sqe_ast_create_table, and the hive layer rejects
 * them by name. Only grammar is enforced here, plus "each clause at most
 * once". The clauses of CREATE TABLE are accepted in any order (Hive fixes
 * the order; accepting more orders changes no meaning).
 *
 * Strings in DDL may be 'single' or "double" quoted, as Hive reads them
 * (AWS's published DDL uses both); see sql_int.h for how backslashes are
 * lexed in these statements.
 */
#include "sql_int.h"

#include <string.h>

#define DDL_STRING(p, what) sqe_p_parse_string((p), true, (what))

static bool accept_if_not_exists(sqe_parser *p) {
    if (!(sqe_p_is(p, 0, "if") && sqe_p_is(p, 1, "not") && sqe_p_is(p, 2, "exists"))) return false;
    p->cur += 3;
    return true;
}

static bool accept_if_exists(sqe_parser *p) {
    if (!(sqe_p_is(p, 0, "if") && sqe_p_is(p, 1, "exists"))) return false;
    p->cur += 2;
    return true;
}

static bool dup_clause(sqe_parser *p, unsigned *seen, unsigned bit, const sqe_token *t,
                       const char *name) {
    if (*seen & bit) return sqe_p_error_at(p, t->pos, "duplicate %s clause", name);
    *seen |= bit;
    return true;
}

/* col type [COMMENT 'c'] */
static bool parse_column_def(sqe_parser *p, sqe_ast_column_def *c) {
    if (!sqe_p_parse_any_ident(p, &c->name, "column name")) return false;
    if (!sqe_p_parse_type(p, &c->type)) return false;
    if (sqe_p_accept(p, "comment") && !(c->comment = DDL_STRING(p, "comment (a string literal)")))
        return false;
    return true;
}

static bool parse_column_list(sqe_parser *p, int *n_out, sqe_ast_column_def **out) {
    SQE_ARRAY(sqe_ast_column_def) cols = {0};
    if (!sqe_p_expect_tok(p, SQE_TK_LPAREN, "'('")) return false;
    do {
        sqe_ast_column_def c = {0};
        if (!parse_column_def(p, &c)) return false;
        SQE_ARRAY_PUSH(p->arena, cols, c);
    } while (sqe_p_accept_tok(p, SQE_TK_COMMA));
    if (!sqe_p_expect_tok(p, SQE_TK_RPAREN, "',' or ')'")) return false;
    *n_out = (int)cols.len;
    *out = cols.items;
    return true;
}

/* PARTITIONED BY (col type [COMMENT 'c'], ...) or (col, ...); BY is next. */
static bool parse_partitioned_by(sqe_parser *p, sqe_ast_create_table *ct) {
    if (!sqe_p_expect(p, "BY") || !sqe_p_expect_tok(p, SQE_TK_LPAREN, "'('")) return false;
    sqe_tok_kind k1 = sqe_p_peek(p, 1)->kind;
    if (k1 == SQE_TK_COMMA || k1 == SQE_TK_RPAREN) {
        SQE_ARRAY(sqe_ident) names = {0};
        do {
            sqe_ident id;
            if (!sqe_p_parse_any_ident(p, &id, "partition column name")) return false;
            SQE_ARRAY_PUSH(p->arena, names, id);
        } while (sqe_p_accept_tok(p, SQE_TK_COMMA));
        if (!sqe_p_expect_tok(p, SQE_TK_RPAREN, "',' or ')'")) return false;
        ct->n_partition_names = (int)names.len;
        ct->partition_names = names.items;
        return true;
    }
    p->cur--; /* back onto '(' */
    return parse_column_list(p, &ct->n_partition_cols, &ct->partition_cols);
}

/* (a, b, ...) of column names; contents are not kept. */
static bool parse_name_list(sqe_parser *p, bool with_order) {
    if (!sqe_p_expect_tok(p, SQE_TK_LPAREN, "'('")) return false;
    do {
        sqe_ident id;
        if (!sqe_p_parse_any_ident(p, &id, "column name")) return false;
        if (with_order && !sqe_p_accept(p, "asc")) sqe_p_accept(p, "desc");
    } while (sqe_p_accept_tok(p, SQE_TK_COMMA));
    return sqe_p_expect_tok(p, SQE_TK_RPAREN, "',' or ')'");
}

/* Skips a balanced ( ... ) group. */
static bool skip_group(sqe_parser *p) {
    if (!sqe_p_expect_tok(p, SQE_TK_LPAREN, "'('")) return false;
    int depth = 1;
    while (depth > 0) {
        sqe_tok_kind k = sqe_p_peek(p, 0)->kind;
        if (k == SQE_TK_EOF || k == SQE_TK_ERROR || k == SQE_TK_SEMI)
            return sqe_p_error_expected(p, "')'");
        if (k == SQE_TK_LPAREN) depth++;
        if (k == SQE_TK_RPAREN) depth--;
        sqe_p_next(p);
    }
    return true;
}

/* xxx TERMINATED BY 'c' (the words before TERMINATED are consumed). */
static bool parse_terminated(sqe_parser *p, char **out) {
    if (!sqe_p_expect(p, "TERMINATED") || !sqe_p_expect(p, "BY")) return false;
    return (*out = DDL_STRING(p, "delimiter (a string literal)")) != NULL;
}

static bool parse_row_format(sqe_parser *p, sqe_ast_create_table *ct) {
    if (!sqe_p_expect(p, "FORMAT")) return false;
    if (sqe_p_accept(p, "serde")) {
        ct->row_format = SQE_ROW_FORMAT_SERDE;
        if (!(ct->serde_class = DDL_STRING(p, "SerDe class name (a string literal)"))) return false;
        if (sqe_p_is(p, 0, "with") && sqe_p_is(p, 1, "serdeproperties")) {
            p->cur += 2;
            if (!sqe_p_parse_kv_list(p, &ct->n_serde_props, &ct->serde_props)) return false;
        }
        return true;
    }
    if (!sqe_p_accept(p, "delimited")) return sqe_p_error_expected(p, "DELIMITED or SERDE");
    ct->row_format = SQE_ROW_FORMAT_DELIMITED;
    unsigned seen = 0;
    for (;;) {
        sqe_token *t = sqe_p_peek(p, 0);
        if (sqe_p_accept(p, "fields")) {
            if (!dup_clause(p, &seen, 1, t, "FIELDS TERMINATED BY") ||
                !parse_terminated(p, &ct->fields_terminated))
                return false;
            if (sqe_p_accept(p, "escaped")) {
                if (!sqe_p_expect(p, "BY")) return false;
                if (!(ct->escaped_by = DDL_STRING(p, "escape character (a string literal)")))
                    return false;
            }
        } else if (sqe_p_accept(p, "collection")) {
            if (!dup_clause(p, &seen, 2, t, "COLLECTION ITEMS TERMINATED BY") ||
                !sqe_p_expect(p, "ITEMS") || !parse_terminated(p, &ct->collection_terminated))
                return false;
        } else if (sqe_p_accept(p, "map")) {
            if (!dup_clause(p, &seen, 4, t, "MAP KEYS TERMINATED BY") || !sqe_p_expect(p, "KEYS") ||
                !parse_terminated(p, &ct->map_keys_terminated))
                return false;
        } else if (sqe_p_accept(p, "lines")) {
            if (!dup_clause(p, &seen, 8, t, "LINES TERMINATED BY") ||
                !parse_terminated(p, &ct->lines_terminated))
                return false;
        } else if (sqe_p_accept(p, "null")) {
            if (!dup_clause(p, &seen, 16, t, "NULL DEFINED AS") || !sqe_p_expect(p, "DEFINED") ||
                !sqe_p_expect(p, "AS"))
                return false;
            if (!(ct->null_defined_as = DDL_STRING(p, "null marker (a string literal)")))
                return false;
        } else {
            return true;
        }
    }
}

static bool parse_stored(sqe_parser *p, sqe_ast_create_table *ct, const sqe_token *kw) {
    if (sqe_p_accept(p, "by")) {
        ct->stored_by_pos = kw->pos;
        if (!(ct->stored_by = DDL_STRING(p, "storage handler class (a string literal)")))
            return false;
        if (sqe_p_is(p, 0, "with") && sqe_p_is(p, 1, "serdeproperties")) {
            p->cur += 2;
            if (!sqe_p_parse_kv_list(p, &ct->n_stored_by_props, &ct->stored_by_props)) return false;
        }
        return true;
    }
    if (!sqe_p_expect(p, "AS")) return false;
    ct->stored_as_pos = kw->pos;
    sqe_token *t = sqe_p_peek(p, 0);
    if (sqe_p_tok_is(t, "inputformat")) {
        sqe_p_next(p);
        if (!(ct->input_format = DDL_STRING(p, "input format class (a string literal)")))
            return false;
        if (!sqe_p_expect(p, "OUTPUTFORMAT")) return false;
        return (ct->output_format = DDL_STRING(p, "output format class (a string literal)")) !=
               NULL;
    }
    /* STORED AS LOCATION '...' lost its format: say so here rather than
     * take the clause word as a format name and fail at its argument. */
    sqe_tok_kind k1 = sqe_p_peek(p, 1)->kind;
    if (((sqe_p_tok_is(t, "location") || sqe_p_tok_is(t, "comment")) && k1 == SQE_TK_STRING) ||
        (sqe_p_tok_is(t, "tblproperties") && k1 == SQE_TK_LPAREN) ||
        (sqe_p_tok_is(t, "row") && sqe_p_is(p, 1, "format")) ||
        (sqe_p_tok_is(t, "partitioned") && sqe_p_is(p, 1, "by")))
        return sqe_p_error_expected(p, "file format");
    sqe_ident id;
    if (!sqe_p_parse_any_ident(p, &id, "file format")) return false;
    ct->stored_as = id.name;
    return true;
}

enum {
    CL_COMMENT = 1 << 0,
    CL_PARTITIONED = 1 << 1,
    CL_CLUSTERED = 1 << 2,
    CL_SKEWED = 1 << 3,
    CL_ROW_FORMAT = 1 << 4,
    CL_STORED = 1 << 5,
    CL_LOCATION = 1 << 6,
    CL_TBLPROPERTIES = 1 << 7,
    CL_LIKE = 1 << 8,
};

/* TABLE is next. */
static bool parse_create_table(sqe_parser *p, sqe_ast_stmt *st, bool or_replace, bool temporary,
                               bool external) {
    sqe_ast_create_table *ct = &st->u.create_table;
    st->kind = SQE_STMT_CREATE_TABLE;
    ct->or_replace = or_replace;
    ct->temporary = temporary;
    ct->external = external;
    sqe_p_next(p); /* TABLE */
    ct->if_not_exists = accept_if_not_exists(p);
    if (!sqe_p_parse_qname(p, &ct->name, true, "table name")) return false;
    if (sqe_p_peek(p, 0)->kind == SQE_TK_LPAREN) {
        ct->has_column_list = true;
        if (!parse_column_list(p, &ct->n_columns, &ct->columns)) return false;
    }
    unsigned seen = 0;
    for (;;) {
        sqe_token *t = sqe_p_peek(p, 0);
        if (sqe_p_accept(p, "comment")) {
            if (!dup_clause(p, &seen, CL_COMMENT, t, "COMMENT")) return false;
            if (!(ct->comment = DDL_STRING(p, "comment (a string literal)"))) return false;
        } else if (sqe_p_accept(p, "partitioned")) {
            if (!dup_clause(p, &seen, CL_PARTITIONED, t, "PARTITIONED BY") ||
                !parse_partitioned_by(p, ct))
                return false;
        } else if (sqe_p_accept(p, "clustered")) {
            if (!dup_clause(p, &seen, CL_CLUSTERED, t, "CLUSTERED BY")) return false;
            ct->clustered = true;
            ct->clustered_pos = t->pos;
            if (!sqe_p_expect(p, "BY") || !parse_name_list(p, false)) return false;
            if (sqe_p_accept(p, "sorted") && (!sqe_p_expect(p, "BY") || !parse_name_list(p, true)))
                return false;
            if (!sqe_p_expect(p, "INTO")) return false;
            if (!sqe_p_expect_tok(p, SQE_TK_INTEGER, "number of buckets")) return false;
            if (!sqe_p_expect(p, "BUCKETS")) return false;
        } else if (sqe_p_accept(p, "skewed")) {
            if (!dup_clause(p, &seen, CL_SKEWED, t, "SKEWED BY")) return false;
            ct->skewed = true;
            ct->skewed_pos = t->pos;
            if (!sqe_p_expect(p, "BY") || !parse_name_list(p, false) || !sqe_p_expect(p, "ON") ||
                !skip_group(p))
                return false;
            if (sqe_p_is(p, 0, "stored") && sqe_p_is(p, 1, "as") && sqe_p_is(p, 2, "directories"))
                p->cur += 3;
        } else if (sqe_p_accept(p, "row")) {
            if (!dup_clause(p, &seen, CL_ROW_FORMAT, t, "ROW FORMAT")) return false;
            ct->row_format_pos = t->pos;
            if (!parse_row_format(p, ct)) return false;
        } else if (sqe_p_accept(p, "stored")) {
            if (!dup_clause(p, &seen, CL_STORED, t, "STORED")) return false;
            if (!parse_stored(p, ct, t)) return false;
        } else if (sqe_p_accept(p, "location")) {
            if (!dup_clause(p, &seen, CL_LOCATION, t, "LOCATION")) return false;
            if (!(ct->location = DDL_STRING(p, "location (a string literal)"))) return false;
        } else if (sqe_p_accept(p, "tblproperties")) {
            if (!dup_clause(p, &seen, CL_TBLPROPERTIES, t, "TBLPROPERTIES")) return false;
            if (!sqe_p_parse_kv_list(p, &ct->n_tblprops, &ct->tblprops)) return false;
        } else if (sqe_p_accept(p, "like")) {
            if (!dup_clause(p, &seen, CL_LIKE, t, "LIKE")) return false;
            ct->like = sqe_arena_alloc(p->arena, sizeof *ct->like);
            if (!sqe_p_parse_qname(p, ct->like, true, "table name")) return false;
        } else if (sqe_p_is(p, 0, "with") && sqe_p_peek(p, 1)->kind == SQE_TK_LPAREN) {
            /* Athena's CTAS is CREATE TABLE t WITH (...) AS SELECT: record
             * it as AS SELECT so hive/ rejects it as CTAS, by name. */
            int save = p->cur;
            p->cur++;
            if (skip_group(p) && sqe_p_is(p, 0, "as") && sqe_p_starts_query(p, 1)) {
                p->cur++;
                return (ct->as_select = sqe_p_parse_query(p)) != NULL;
            }
            p->cur = save;
            return sqe_p_not_supported(p, "CREATE TABLE ... WITH (...) table properties are not "
                                          "supported; use STORED AS, LOCATION and TBLPROPERTIES");
        } else if (sqe_p_accept(p, "as")) {
            if (!sqe_p_starts_query(p, 0)) return sqe_p_error_expected(p, "SELECT");
            return (ct->as_select = sqe_p_parse_query(p)) != NULL;
        } else {
            return true;
        }
    }
}

/* CREATE DATABASE|SCHEMA; the word is next. */
static bool parse_create_database(sqe_parser *p, sqe_ast_stmt *st) {
    st->kind = SQE_STMT_CREATE_DATABASE;
    st->u.create_database.schema_keyword = sqe_p_is(p, 0, "schema");
    sqe_p_next(p);
    st->u.create_database.if_not_exists = accept_if_not_exists(p);
    if (!sqe_p_parse_qname(p, &st->u.create_database.name, false, "database name")) return false;
    unsigned seen = 0;
    for (;;) {
        sqe_token *t = sqe_p_peek(p, 0);
        if (sqe_p_accept(p, "comment")) {
            if (!dup_clause(p, &seen, 1, t, "COMMENT")) return false;
            if (!(st->u.create_database.comment = DDL_STRING(p, "comment (a string literal)")))
                return false;
        } else if (sqe_p_accept(p, "location")) {
            if (!dup_clause(p, &seen, 2, t, "LOCATION")) return false;
            if (!(st->u.create_database.location = DDL_STRING(p, "location (a string literal)")))
                return false;
        } else if (sqe_p_is(p, 0, "with") && sqe_p_is(p, 1, "dbproperties")) {
            if (!dup_clause(p, &seen, 4, t, "WITH DBPROPERTIES")) return false;
            p->cur += 2;
            if (!sqe_p_parse_kv_list(p, &st->u.create_database.n_props,
                                     &st->u.create_database.props))
                return false;
        } else {
            return true;
        }
    }
}

bool sqe_p_parse_create(sqe_parser *p, sqe_ast_stmt *st, const char **what) {
    sqe_p_next(p); /* CREATE */
    bool or_replace = false, temporary = false, external;
    if (sqe_p_accept(p, "or")) {
        if (!sqe_p_expect(p, "REPLACE")) return false;
        or_replace = true;
    }
    temporary = sqe_p_accept(p, "temporary") || sqe_p_accept(p, "temp");
    external = sqe_p_accept(p, "external");
    if (sqe_p_is(p, 0, "table")) return parse_create_table(p, st, or_replace, temporary, external);
    if (!external) {
        if (sqe_p_is(p, 0, "view")) {
            *what = or_replace ? "CREATE OR REPLACE VIEW" : "CREATE VIEW";
            return true;
        }
        if (sqe_p_is(p, 0, "materialized")) {
            *what = "CREATE MATERIALIZED VIEW";
            return true;
        }
        if (sqe_p_is(p, 0, "secret") || (sqe_p_is(p, 0, "persistent") && sqe_p_is(p, 1, "secret")))
            return sqe_p_parse_create_secret(p, st, or_replace, temporary);
        if (sqe_p_is(p, 0, "function") || sqe_p_is(p, 0, "role")) {
            *what = sqe_arena_sprintf(p->arena, "CREATE %s", sqe_p_upper_word(p, sqe_p_peek(p, 0)));
            return true;
        }
        if (!or_replace && !temporary && (sqe_p_is(p, 0, "database") || sqe_p_is(p, 0, "schema")))
            return parse_create_database(p, st);
    }
    return sqe_p_error_expected(p, external ? "TABLE" : "TABLE, DATABASE, SCHEMA or VIEW");
}

/* ------------------------------------------------- catalog statements */

static bool parse_drop(sqe_parser *p, sqe_ast_stmt *st) {
    sqe_p_next(p); /* DROP */
    sqe_token *t = sqe_p_peek(p, 0);
    if (sqe_p_tok_is(t, "database") || sqe_p_tok_is(t, "schema")) {
        sqe_p_next(p);
        st->kind = SQE_STMT_DROP_DATABASE;
        st->u.drop_database.if_exists = accept_if_exists(p);
        if (!sqe_p_parse_qname(p, &st->u.drop_database.name, false, "database name")) return false;
        if (sqe_p_accept(p, "cascade"))
            st->u.drop_database.cascade = true;
        else
            sqe_p_accept(p, "restrict");
        return true;
    }
    if (sqe_p_tok_is(t, "table") || sqe_p_tok_is(t, "view")) {
        sqe_p_next(p);
        st->kind = SQE_STMT_DROP_TABLE;
        st->u.drop_table.view = sqe_p_tok_is(t, "view");
        st->u.drop_table.if_exists = accept_if_exists(p);
        if (!sqe_p_parse_qname(p, &st->u.drop_table.name, true,
                               st->u.drop_table.view ? "view name" : "table name"))
            return false;
        if (!st->u.drop_table.view) st->u.drop_table.purge = sqe_p_accept(p, "purge");
        return true;
    }
    if (sqe_p_tok_is(t, "materialized")) return sqe_p_unsupported(p, st, "DROP MATERIALIZED VIEW");
    if (sqe_p_tok_is(t, "secret") ||
        ((sqe_p_tok_is(t, "temporary") || sqe_p_tok_is(t, "persistent")) &&
         sqe_p_is(p, 1, "secret")))
        return sqe_p_parse_drop_secret(p, st);
    if (sqe_p_tok_is(t, "function") || sqe_p_tok_is(t, "role"))
        return sqe_p_unsupported(p, st,
                                 sqe_arena_sprintf(p->arena, "DROP %s", sqe_p_upper_word(p, t)));
    return sqe_p_error_expected(p, "TABLE, VIEW, DATABASE or SCHEMA");
}

/* [FROM|IN qname] [LIKE 'pattern']; with bare_pattern also [FROM|IN qname]
 * 'pattern', the form Hive and Athena document for SHOW TABLES
 * (SHOW TABLES IN db '*logs*'). */
static bool parse_show_filter(sqe_parser *p, sqe_ast_stmt *st, const char *what,
                              bool bare_pattern) {
    if (sqe_p_accept(p, "from") || sqe_p_accept(p, "in")) {
        st->u.show.from = sqe_arena_alloc(p->arena, sizeof(sqe_qname));
        if (!sqe_p_parse_qname(p, st->u.show.from, false, what)) return false;
    }
    if ((sqe_p_accept(p, "like") || (bare_pattern && sqe_p_peek(p, 0)->kind == SQE_TK_STRING)) &&
        !(st->u.show.like = sqe_p_parse_string(p, false, "pattern (a string literal)")))
        return false;
    return true;
}

static bool parse_show(sqe_parser *p, sqe_ast_stmt *st) {
    sqe_p_next(p); /* SHOW */
    sqe_token *t = sqe_p_peek(p, 0);
    if (sqe_p_tok_is(t, "create")) {
        sqe_p_next(p);
        if (sqe_p_accept(p, "table")) {
            st->kind = SQE_STMT_SHOW_CREATE_TABLE;
            return sqe_p_parse_qname(p, &st->u.target.name, true, "table name");
        }
        sqe_token *t1 = sqe_p_peek(p, 0);
        if (t1->kind != SQE_TK_IDENT) return sqe_p_error_expected(p, "TABLE");
        return sqe_p_unsupported(
            p, st, sqe_arena_sprintf(p->arena, "SHOW CREATE %s", sqe_p_upper_word(p, t1)));
    }
    if (sqe_p_accept(p, "tables")) {
        st->kind = SQE_STMT_SHOW_TABLES;
        return parse_show_filter(p, st, "database name", true);
    }
    if (sqe_p_accept(p, "databases") || sqe_p_accept(p, "schemas")) {
        st->kind = SQE_STMT_SHOW_DATABASES;
        return parse_show_filter(p, st, "root name", false);
    }
    if (sqe_p_accept(p, "columns")) {
        st->kind = SQE_STMT_SHOW_COLUMNS;
        if (!sqe_p_accept(p, "from") && !sqe_p_accept(p, "in"))
            return sqe_p_error_expected(p, "FROM or IN");
        if (!sqe_p_parse_qname(p, &st->u.target.name, true, "table name")) return false;
        if (sqe_p_accept(p, "from") || sqe_p_accept(p, "in")) {
            /* Hive: SHOW COLUMNS FROM t FROM db -> db.t */
            sqe_qname db;
            if (!sqe_p_parse_qname(p, &db, false, "database name")) return false;
            sqe_qname *n = &st->u.target.name;
            sqe_ident *parts =
                sqe_arena_alloc(p->arena, sizeof *parts * (size_t)(db.n_parts + n->n_parts));
            memcpy(parts, db.parts, sizeof *parts * (size_t)db.n_parts);
            memcpy(parts + db.n_parts, n->parts, sizeof *parts * (size_t)n->n_parts);
            n->parts = parts;
            n->n_parts += db.n_parts;
        }
        return true;
    }
    if (sqe_p_accept(p, "secrets")) {
        st->kind = SQE_STMT_SHOW_SECRETS;
        return true;
    }
    if (sqe_p_accept(p, "functions")) {
        st->kind = SQE_STMT_SHOW_FUNCTIONS;
        if (sqe_p_accept(p, "like") &&
            !(st->u.show.like = sqe_p_parse_string(p, false, "pattern (a string literal)")))
            return false;
        return true;
    }
    if (sqe_p_is(p, 0, "stats") && sqe_p_is(p, 1, "for")) { /* Trino */
        sqe_p_next(p);
        sqe_p_next(p);
        if (sqe_p_peek(p, 0)->kind == SQE_TK_LPAREN)
            return sqe_p_unsupported(p, st, "SHOW STATS FOR (query)");
        st->kind = SQE_STMT_SHOW_STATS;
        return sqe_p_parse_qname(p, &st->u.target.name, true, "table name");
    }
    if (sqe_p_accept(p, "partitions")) {
        st->kind = SQE_STMT_SHOW_PARTITIONS;
        if (!sqe_p_accept(p, "from")) sqe_p_accept(p, "in");
        if (!sqe_p_parse_qname(p, &st->u.target.name, true, "table name")) return false;
        if (!sqe_p_accept(p, "where")) return true;
        int first = p->cur;
        if (!(st->u.target.where = sqe_p_parse_expr(p))) return false;
        const sqe_token *a = &p->toks[first], *b = &p->toks[p->cur - 1];
        st->u.target.where_text =
            sqe_arena_strndup(p->arena, p->src + a->off, b->off + b->len - a->off);
        return true;
    }
    if (t->kind == SQE_TK_IDENT) {
        return sqe_p_unsupported(p, st,
                                 sqe_arena_sprintf(p->arena, "SHOW %s", sqe_p_upper_word(p, t)));
    }
    return sqe_p_error_expected(
        p, "TABLES, DATABASES, SCHEMAS, COLUMNS, PARTITIONS, FUNCTIONS or CREATE TABLE");
}

/* ATTACH [DATABASE] [IF NOT EXISTS] 'url' AS name [(TYPE x [, key value ...])] */
static bool parse_attach(sqe_parser *p, sqe_ast_stmt *st) {
    sqe_p_next(p); /* ATTACH */
    st->kind = SQE_STMT_ATTACH;
    if (sqe_p_peek(p, 1)->kind == SQE_TK_STRING || sqe_p_is(p, 1, "if"))
        sqe_p_accept(p, "database");
    st->u.attach.if_not_exists = accept_if_not_exists(p);
    if (!(st->u.attach.url = sqe_p_parse_string(p, false, "URL (a string literal)"))) return false;
    if (!sqe_p_expect(p, "AS")) return false;
    if (!sqe_p_parse_ident(p, &st->u.attach.name, "database name")) return false;
    if (!sqe_p_accept_tok(p, SQE_TK_LPAREN)) return true;
    SQE_ARRAY(sqe_ast_kv) opts = {0};
    do {
        sqe_token *k = sqe_p_peek(p, 0);
        if (k->kind != SQE_TK_IDENT && k->kind != SQE_TK_QIDENT)
            return sqe_p_error_expected(p, "option name");
        sqe_p_next(p);
        sqe_p_accept_tok(p, SQE_TK_EQ);
        sqe_token *v = sqe_p_peek(p, 0);
        bool is_type = k->kind == SQE_TK_IDENT && sqe_str_ieq(k->text, "type");
        char *value;
        if (v->kind == SQE_TK_IDENT || v->kind == SQE_TK_QIDENT || v->kind == SQE_TK_STRING ||
            v->kind == SQE_TK_INTEGER || v->kind == SQE_TK_DECIMAL) {
            value = v->text;
            sqe_p_next(p);
        } else if (!is_type && (v->kind == SQE_TK_COMMA || v->kind == SQE_TK_RPAREN)) {
            value = "true"; /* a bare flag, as DuckDB reads it */
        } else {
            return sqe_p_error_expected(p, is_type ? "database type" : "option value");
        }
        if (is_type) {
            st->u.attach.type = value;
            st->u.attach.type_pos = v->pos;
        } else {
            sqe_ast_kv kv = {k->text, value, k->pos};
            SQE_ARRAY_PUSH(p->arena, opts, kv);
        }
    } while (sqe_p_accept_tok(p, SQE_TK_COMMA));
    if (!sqe_p_expect_tok(p, SQE_TK_RPAREN, "',' or ')'")) return false;
    st->u.attach.n_options = (int)opts.len;
    st->u.attach.options = opts.items;
    return true;
}

bool sqe_p_parse_catalog_stmt(sqe_parser *p, sqe_ast_stmt *st) {
    sqe_token *t = sqe_p_peek(p, 0);
    if (sqe_p_tok_is(t, "drop")) return parse_drop(p, st);
    if (sqe_p_tok_is(t, "show")) return parse_show(p, st);
    if (sqe_p_tok_is(t, "attach")) return parse_attach(p, st);
    if (sqe_p_accept(p, "showddl")) {
        st->kind = SQE_STMT_SHOW_CREATE_TABLE;
        return sqe_p_parse_qname(p, &st->u.target.name, true, "table name");
    }
    if (sqe_p_accept(p, "describe") || sqe_p_accept(p, "desc")) {
        /* Hive's DESCRIBE DATABASE|SCHEMA [EXTENDED] db and DESCRIBE
         * FUNCTION f: named, not a syntax error at the name. */
        sqe_token *w = sqe_p_peek(p, 0);
        if ((sqe_p_tok_is(w, "database") || sqe_p_tok_is(w, "schema") ||
             sqe_p_tok_is(w, "function")) &&
            sqe_p_tok_is_ident(sqe_p_peek(p, 1)))
            return sqe_p_unsupported(
                p, st, sqe_arena_sprintf(p->arena, "DESCRIBE %s", sqe_p_upper_word(p, w)));
        st->kind = SQE_STMT_DESCRIBE;
        if ((sqe_p_is(p, 0, "extended") || sqe_p_is(p, 0, "formatted")) &&
            sqe_p_tok_is_ident(sqe_p_peek(p, 1))) {
            sqe_p_next(p);
            st->u.target.extended = true;
        }
        if (sqe_p_is(p, 0, "table") && sqe_p_tok_is_ident(sqe_p_peek(p, 1))) sqe_p_next(p);
        return sqe_p_parse_qname(p, &st->u.target.name, true, "table name");
    }
    if (sqe_p_accept(p, "use")) {
        st->kind = SQE_STMT_USE;
        return sqe_p_parse_qname(p, &st->u.use.name, false, "database name");
    }
    if (sqe_p_accept(p, "detach")) {
        st->kind = SQE_STMT_DETACH;
        if (sqe_p_tok_is_ident(sqe_p_peek(p, 1))) sqe_p_accept(p, "database");
        st->u.detach.if_exists = accept_if_exists(p);
        return sqe_p_parse_ident(p, &st->u.detach.name, "database name");
    }
    return sqe_p_error_expected(p, "statement");
}

/* ------------------------------------------------ partition statements
 *
 * MSCK REPAIR TABLE t [ADD | DROP | SYNC PARTITIONS]
 * ALTER TABLE t ADD [IF NOT EXISTS] PARTITION (k = v, ...) [LOCATION 'u']
 *                   [[,] PARTITION (...) [LOCATION 'u']] ...
 * ALTER TABLE t DROP [IF EXISTS] PARTITION (k = v, ...) [, PARTITION (...)]
 * Hive separates ADD's partitions with blanks and DROP's with commas; both
 * separators are accepted in both (no other meaning is possible). Values
 * are string or number literals, recorded raw: the hive layer decodes and
 * type-checks them against the key types. Every other ALTER TABLE form is
 * recorded as UNSUPPORTED naming its leading words. */

bool sqe_p_parse_msck(sqe_parser *p, sqe_ast_stmt *st) {
    sqe_p_next(p); /* MSCK */
    if (!sqe_p_expect(p, "REPAIR") || !sqe_p_expect(p, "TABLE")) return false;
    st->kind = SQE_STMT_MSCK_REPAIR;
    if (!sqe_p_parse_qname(p, &st->u.msck.name, true, "table name")) return false;
    st->u.msck.add = true;
    if (sqe_p_accept(p, "drop")) {
        st->u.msck.add = false;
        st->u.msck.drop = true;
    } else if (sqe_p_accept(p, "sync")) {
        st->u.msck.drop = true;
    } else if (!sqe_p_accept(p, "add")) {
        return true;
    }
    return sqe_p_expect(p, "PARTITIONS");
}

/* One partition value: 'string', "string", 123, -4.5 (raw text). */
static bool parse_part_value(sqe_parser *p, sqe_ast_kv *kv) {
    sqe_token *v = sqe_p_peek(p, 0);
    kv->pos = v->pos;
    bool neg = v->kind == SQE_TK_MINUS;
    if (neg) v = sqe_p_peek(p, 1);
    if (!neg && (v->kind == SQE_TK_STRING || v->kind == SQE_TK_QIDENT)) {
        kv->value = DDL_STRING(p, "partition value (a literal)");
        return kv->value != NULL;
    }
    if (v->kind != SQE_TK_INTEGER && v->kind != SQE_TK_DECIMAL && v->kind != SQE_TK_DOUBLE)
        return sqe_p_error_expected(p, "partition value (a string or number literal)");
    if (neg) sqe_p_next(p);
    sqe_p_next(p);
    kv->value = neg ? sqe_arena_sprintf(p->arena, "-%s", v->text) : v->text;
    return true;
}

/* PARTITION (k = v, ...) [LOCATION 'u'] */
static bool parse_part_spec(sqe_parser *p, sqe_ast_part_spec *ps, bool allow_location) {
    ps->pos = sqe_p_peek(p, 0)->pos;
    if (!sqe_p_expect(p, "PARTITION") || !sqe_p_expect_tok(p, SQE_TK_LPAREN, "'('")) return false;
    SQE_ARRAY(sqe_ast_kv) kvs = {0};
    do {
        sqe_ident k;
        sqe_ast_kv kv = {0};
        if (!sqe_p_parse_any_ident(p, &k, "partition key name")) return false;
        kv.key = k.name;
        if (!sqe_p_expect_tok(p, SQE_TK_EQ, "'='") || !parse_part_value(p, &kv)) return false;
        SQE_ARRAY_PUSH(p->arena, kvs, kv);
    } while (sqe_p_accept_tok(p, SQE_TK_COMMA));
    if (!sqe_p_expect_tok(p, SQE_TK_RPAREN, "',' or ')'")) return false;
    ps->n_kvs = (int)kvs.len;
    ps->kvs = kvs.items;
    if (allow_location && sqe_p_accept(p, "location") &&
        !(ps->location = DDL_STRING(p, "LOCATION (a string literal)")))
        return false;
    return true;
}

static bool parse_alter_partitions(sqe_parser *p, sqe_ast_stmt *st, bool drop) {
    st->kind = SQE_STMT_ALTER_PARTITIONS;
    st->u.alter_partitions.drop = drop;
    st->u.alter_partitions.if_flag = drop ? accept_if_exists(p) : accept_if_not_exists(p);
    SQE_ARRAY(sqe_ast_part_spec) specs = {0};
    do {
        sqe_ast_part_spec ps = {0};
        if (!parse_part_spec(p, &ps, !drop)) return false;
        SQE_ARRAY_PUSH(p->arena, specs, ps);
        sqe_p_accept_tok(p, SQE_TK_COMMA);
    } while (sqe_p_is(p, 0, "partition"));
    st->u.alter_partitions.n_specs = (int)specs.len;
    st->u.alter_partitions.specs = specs.items;
    if (drop && sqe_p_is(p, 0, "purge"))
        return sqe_p_unsupported(p, st,
                                 "ALTER TABLE DROP PARTITION ... PURGE (sqe never deletes "
                                 "data; drop without PURGE)");
    return true;
}

bool sqe_p_parse_alter_table(sqe_parser *p, sqe_ast_stmt *st) {
    p->cur += 2; /* ALTER TABLE */
    sqe_qname name;
    if (!sqe_p_parse_qname(p, &name, true, "table name")) return false;
    sqe_token *w = sqe_p_peek(p, 0);
    if ((sqe_p_tok_is(w, "add") || sqe_p_tok_is(w, "drop")) &&
        (sqe_p_is(p, 1, "partition") || sqe_p_is(p, 1, "if"))) {
        sqe_p_next(p);
        st->u.alter_partitions.name = name;
        return parse_alter_partitions(p, st, sqe_p_tok_is(w, "drop"));
    }
    if (w->kind != SQE_TK_IDENT) return sqe_p_error_expected(p, "ADD PARTITION or DROP PARTITION");
    sqe_token *w1 = sqe_p_peek(p, 1);
    const char *what =
        w1->kind == SQE_TK_IDENT
            ? sqe_arena_sprintf(p->arena, "ALTER TABLE ... %s %s", sqe_p_upper_word(p, w),
                                sqe_p_upper_word(p, w1))
            : sqe_arena_sprintf(p->arena, "ALTER TABLE ... %s", sqe_p_upper_word(p, w));
    return sqe_p_unsupported(p, st, what);
}
