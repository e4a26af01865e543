/*
 * test_sql.c - unit tests for src/sql/: lexer, parser (queries, Hive/Athena
 * DDL, catalog statements), rendering, statement splitting, and every
 * syntax error message with its line:column.
 */
#include "sql/sql.h"
#include "sql/sql_int.h"
#include "unit.h"

static sqe_arena *A;
static sqe_error E;

/* Parses sql; on failure prints the error (so a failing CHECK shows why). */
static sqe_ast_stmt *parse(const char *sql) {
    sqe_error_clear(&E);
    sqe_ast_stmt *st = sqe_sql_parse(A, sql, &E);
    if (!st) fprintf(stderr, "  parse failed: %s\n  sql: %s\n", E.msg, sql);
    return st;
}

/* Parses sql expecting failure; returns the message ("(parsed)" if it did). */
static const char *perr(const char *sql) {
    sqe_error_clear(&E);
    sqe_ast_stmt *st = sqe_sql_parse(A, sql, &E);
    return st ? "(parsed)" : E.msg;
}

/* Renders the first select item of "SELECT <expr>". */
static const char *ex(const char *expr) {
    char buf[2048];
    snprintf(buf, sizeof buf, "SELECT %s", expr);
    sqe_ast_stmt *st = parse(buf);
    if (!st || st->kind != SQE_STMT_SELECT) return "(error)";
    return sqe_sql_expr_to_string(A, st->u.query->items[0].expr);
}

static sqe_ast_query *q_of(const char *sql) {
    sqe_ast_stmt *st = parse(sql);
    return st && st->kind == SQE_STMT_SELECT ? st->u.query : NULL;
}

static sqe_ast_create_table *ct_of(const char *sql) {
    sqe_ast_stmt *st = parse(sql);
    return st && st->kind == SQE_STMT_CREATE_TABLE ? &st->u.create_table : NULL;
}

static const char *qname_str(const sqe_qname *q) {
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    for (int i = 0; i < q->n_parts; i++) {
        if (i) sqe_strbuf_putc(&sb, '|');
        sqe_strbuf_puts(&sb, q->parts[i].name);
    }
    char *s = sqe_arena_strdup(A, sb.data ? sb.data : "");
    sqe_strbuf_free(&sb);
    return s;
}

/* Checks that sql fails with class cls and exactly msg. */
static void check_err(const char *sql, sqe_error_class cls, const char *msg) {
    const char *got = perr(sql);
    CHECK_STR(got, msg);
    if (strcmp(got, "(parsed)") != 0) CHECK(E.cls == cls);
}
#define SYN(sql, msg) check_err((sql), SQE_ERR_SYNTAX, (msg))
#define NSUP(sql, msg) check_err((sql), SQE_ERR_NOT_SUPPORTED, (msg))

/* ------------------------------------------------------------- lexer */

static void test_lexer_tokens(void) {
    int n;
    sqe_token *t = sqe_sql_lex(
        A,
        "SELECT a1, \"Mixed \"\"Q\"\"\", `b``q`, 'it''s' <> != <= >= || 1 .5 5. 1.5 1e3 1.5E-2 ;",
        SQE_LEX_TRINO, &n);
    CHECK(n == 21);
    CHECK(t[0].kind == SQE_TK_IDENT && strcmp(t[0].text, "SELECT") == 0);
    CHECK(t[1].kind == SQE_TK_IDENT && strcmp(t[1].text, "a1") == 0);
    CHECK(t[3].kind == SQE_TK_QIDENT);
    CHECK_STR(t[3].text, "Mixed \"Q\"");
    CHECK(t[5].kind == SQE_TK_BQIDENT);
    CHECK_STR(t[5].text, "b`q");
    CHECK(t[7].kind == SQE_TK_STRING);
    CHECK_STR(t[7].text, "it's");
    CHECK(t[8].kind == SQE_TK_NE && t[9].kind == SQE_TK_NE && t[10].kind == SQE_TK_LE);
    CHECK(t[11].kind == SQE_TK_GE && t[12].kind == SQE_TK_CONCAT);
    CHECK(t[13].kind == SQE_TK_INTEGER && t[14].kind == SQE_TK_DECIMAL &&
          t[15].kind == SQE_TK_DECIMAL);
    CHECK(t[16].kind == SQE_TK_DECIMAL && t[17].kind == SQE_TK_DOUBLE &&
          t[18].kind == SQE_TK_DOUBLE);
    CHECK_STR(t[18].text, "1.5E-2");
    CHECK(t[19].kind == SQE_TK_SEMI && t[20].kind == SQE_TK_EOF);
}

static void test_lexer_positions_and_comments(void) {
    int n;
    sqe_token *t =
        sqe_sql_lex(A, "-- c1\n  /* multi\nline */ x  -- tail\n\t\"é\" y", SQE_LEX_TRINO, &n);
    CHECK(n == 4);
    CHECK(t[0].pos.line == 3 && t[0].pos.col == 9);
    CHECK(t[1].pos.line == 4 && t[1].pos.col == 2);
    CHECK(t[2].pos.line == 4 && t[2].pos.col == 6); /* é counts as one column */
    CHECK(t[3].kind == SQE_TK_EOF);
}

static void test_lexer_strings_raw(void) {
    int n;
    /* no backslash processing in either dialect: the two chars \ and t stay */
    sqe_token *t = sqe_sql_lex(A, "'\\t' '\\\\' 'a\\'", SQE_LEX_TRINO, &n);
    CHECK(n == 4);
    CHECK_STR(t[0].text, "\\t");
    CHECK_STR(t[1].text, "\\\\");
    CHECK_STR(t[2].text, "a\\"); /* Trino: a backslash before ' does not escape it */
    /* Hive dialect: a backslash keeps the next char from ending the string */
    t = sqe_sql_lex(A, "'\\'' \"a\\\"b\" '\\t'", SQE_LEX_HIVE, &n);
    CHECK(n == 4);
    CHECK_STR(t[0].text, "\\'");
    CHECK(t[1].kind == SQE_TK_QIDENT);
    CHECK_STR(t[1].text, "a\\\"b");
    CHECK_STR(t[2].text, "\\t");
    /* Hive: a word may start with a digit; numbers with exponents stay numbers */
    t = sqe_sql_lex(A, "1st_col 1e3 10", SQE_LEX_HIVE, &n);
    CHECK(t[0].kind == SQE_TK_IDENT && t[1].kind == SQE_TK_DOUBLE && t[2].kind == SQE_TK_INTEGER);
}

static void test_lexer_nested_types(void) {
    int n;
    sqe_token *t = sqe_sql_lex(A, "map<string,array<int>>", SQE_LEX_HIVE, &n);
    CHECK(n == 10);
    CHECK(t[7].kind == SQE_TK_GT && t[8].kind == SQE_TK_GT);
}

static void test_lex_mode_detection(void) {
    CHECK(sqe_sql_lex_mode_for("create external table t") == SQE_LEX_HIVE);
    CHECK(sqe_sql_lex_mode_for("  -- x\n CREATE OR REPLACE TEMPORARY TABLE t") == SQE_LEX_HIVE);
    CHECK(sqe_sql_lex_mode_for("ALTER TABLE t ADD") == SQE_LEX_HIVE);
    CHECK(sqe_sql_lex_mode_for("EXPLAIN CREATE TABLE t") == SQE_LEX_HIVE);
    CHECK(sqe_sql_lex_mode_for("CREATE VIEW v") == SQE_LEX_TRINO);
    CHECK(sqe_sql_lex_mode_for("SELECT 1") == SQE_LEX_TRINO);
    CHECK(sqe_sql_lex_mode_for("") == SQE_LEX_TRINO);
}

/* -------------------------------------------------------- expressions */

static void test_precedence(void) {
    CHECK_STR(ex("a OR b AND c"), "(a OR (b AND c))");
    CHECK_STR(ex("a AND b OR c"), "((a AND b) OR c)");
    CHECK_STR(ex("NOT a = b"), "(NOT (a = b))");
    CHECK_STR(ex("NOT a AND b"), "((NOT a) AND b)");
    CHECK_STR(ex("-x * y"), "(-x * y)");
    CHECK_STR(ex("a || b = c"), "((a || b) = c)");
    CHECK_STR(ex("a + b * c - d / e % f"), "((a + (b * c)) - ((d / e) % f))");
    CHECK_STR(ex("a || b + c"), "(a || (b + c))");
    CHECK_STR(ex("(a + b) * c"), "((a + b) * c)");
    CHECK_STR(ex("a - -b"), "(a - -b)");
    CHECK_STR(ex("- -5"), "- -5");
    CHECK_STR(ex("+a"), "+a");
    CHECK_STR(ex("a < b AND c >= d OR e <> f AND g != h"),
              "(((a < b) AND (c >= d)) OR ((e <> f) AND (g <> h)))");
    CHECK_STR(ex("a <= b"), "(a <= b)");
    CHECK_STR(ex("a > b"), "(a > b)");
    CHECK_STR(ex("x BETWEEN 1 AND 2 AND y"), "((x BETWEEN 1 AND 2) AND y)");
    CHECK_STR(ex("x NOT BETWEEN a + 1 AND b || c"), "(x NOT BETWEEN (a + 1) AND (b || c))");
    CHECK_STR(ex("NOT x IN (1, 2)"), "(NOT (x IN (1, 2)))");
    CHECK_STR(ex("a = b IS NULL"), "((a = b) IS NULL)");
}

static void test_predicates(void) {
    CHECK_STR(ex("x IN (1, 2, 3)"), "(x IN (1, 2, 3))");
    CHECK_STR(ex("x NOT IN ('a')"), "(x NOT IN ('a'))");
    CHECK_STR(ex("x IN (SELECT y FROM t)"), "(x IN (SELECT ...))");
    CHECK_STR(ex("x NOT IN (SELECT y FROM t)"), "(x NOT IN (SELECT ...))");
    CHECK_STR(ex("s LIKE 'a%'"), "(s LIKE 'a%')");
    CHECK_STR(ex("s NOT LIKE 'a!%' ESCAPE '!'"), "(s NOT LIKE 'a!%' ESCAPE '!')");
    CHECK_STR(ex("s ILIKE 'A%'"), "(s ILIKE 'A%')");
    CHECK_STR(ex("s NOT ILIKE 'A%'"), "(s NOT ILIKE 'A%')");
    CHECK_STR(ex("x IS NULL"), "(x IS NULL)");
    CHECK_STR(ex("x IS NOT NULL"), "(x IS NOT NULL)");
    CHECK_STR(ex("a IS DISTINCT FROM b"), "(a IS DISTINCT FROM b)");
    CHECK_STR(ex("a IS NOT DISTINCT FROM b"), "(a IS NOT DISTINCT FROM b)");
    CHECK_STR(ex("EXISTS (SELECT 1)"), "EXISTS (SELECT ...)");
    CHECK_STR(ex("NOT EXISTS (SELECT 1)"), "(NOT EXISTS (SELECT ...))");
    CHECK_STR(ex("(SELECT max(x) FROM t)"), "(SELECT ...)");

    sqe_ast_query *q = q_of("SELECT 1 WHERE x NOT IN (SELECT y FROM t) AND s LIKE 'p' ESCAPE 'e'");
    CHECK(q && q->where->kind == SQE_AST_BINARY);
    if (q) {
        sqe_ast_expr *l = q->where->u.binary.left, *r = q->where->u.binary.right;
        CHECK(l->kind == SQE_AST_IN_SUBQUERY && l->u.in_subquery.negated &&
              l->u.in_subquery.query->from);
        CHECK(r->kind == SQE_AST_LIKE && r->u.like.escape && !r->u.like.negated &&
              !r->u.like.ilike);
    }
}

static void test_literals(void) {
    sqe_ast_query *q =
        q_of("SELECT NULL, TRUE, false, 42, 1.50, .5, 5., 1e3, 'it''s', DATE '2024-01-31', "
             "TIMESTAMP '2024-01-31 10:00:00', DECIMAL '1.25', REAL '1.5', bigint '7', "
             "INTERVAL '3' DAY, INTERVAL -'2' hours, INTERVAL '1-2' YEAR TO MONTH, time '10:00'");
    CHECK(q && q->n_items == 18);
    if (!q) return;
    sqe_ast_expr **it = sqe_arena_alloc(A, sizeof *it * 18);
    for (int i = 0; i < 18; i++) it[i] = q->items[i].expr;
    CHECK(it[0]->u.lit.kind == SQE_LIT_NULL);
    CHECK(it[1]->u.lit.kind == SQE_LIT_BOOL && it[1]->u.lit.b);
    CHECK(it[2]->u.lit.kind == SQE_LIT_BOOL && !it[2]->u.lit.b);
    CHECK(it[3]->u.lit.kind == SQE_LIT_INTEGER);
    CHECK_STR(it[3]->u.lit.text, "42");
    CHECK(it[4]->u.lit.kind == SQE_LIT_DECIMAL);
    CHECK_STR(it[4]->u.lit.text, "1.50");
    CHECK(it[5]->u.lit.kind == SQE_LIT_DECIMAL && it[6]->u.lit.kind == SQE_LIT_DECIMAL);
    CHECK(it[7]->u.lit.kind == SQE_LIT_DOUBLE);
    CHECK(it[8]->u.lit.kind == SQE_LIT_STRING);
    CHECK_STR(it[8]->u.lit.text, "it's");
    CHECK(it[9]->u.lit.kind == SQE_LIT_TYPED);
    CHECK_STR(it[9]->u.lit.type_name, "date");
    CHECK_STR(it[9]->u.lit.text, "2024-01-31");
    CHECK_STR(it[10]->u.lit.type_name, "timestamp");
    CHECK_STR(it[11]->u.lit.type_name, "decimal");
    CHECK_STR(it[12]->u.lit.type_name, "real");
    CHECK_STR(it[13]->u.lit.type_name, "bigint");
    CHECK(it[14]->u.lit.kind == SQE_LIT_INTERVAL);
    CHECK_STR(it[14]->u.lit.type_name, "day");
    CHECK_STR(it[14]->u.lit.text, "3");
    CHECK_STR(it[15]->u.lit.text, "-2");
    CHECK_STR(it[15]->u.lit.type_name, "hour");
    CHECK_STR(it[16]->u.lit.type_name, "year to month");
    CHECK_STR(it[17]->u.lit.type_name, "time");
    CHECK_STR(sqe_sql_expr_to_string(A, it[0]), "NULL");
    CHECK_STR(sqe_sql_expr_to_string(A, it[1]), "true");
    CHECK_STR(sqe_sql_expr_to_string(A, it[8]), "'it''s'");
    CHECK_STR(sqe_sql_expr_to_string(A, it[9]), "DATE '2024-01-31'");
    CHECK_STR(sqe_sql_expr_to_string(A, it[15]), "INTERVAL '-2' HOUR");
    CHECK(it[9]->pos.line == 1 && it[9]->pos.col == 59);
}

static void test_functions_and_names(void) {
    CHECK_STR(ex("count(*)"), "count(*)");
    CHECK_STR(ex("COUNT(DISTINCT x)"), "count(DISTINCT x)");
    CHECK_STR(ex("Sum(Amount)"), "sum(amount)");
    CHECK_STR(ex("f()"), "f()");
    CHECK_STR(ex("coalesce(a, b, 0)"), "coalesce(a, b, 0)");
    CHECK_STR(ex("left(s, 3)"), "left(s, 3)");
    CHECK_STR(ex("right(s, 3)"), "right(s, 3)");
    CHECK_STR(ex("year(d) + month(d) + day(d)"), "((year(d) + month(d)) + day(d))");
    CHECK_STR(ex("if(a, 1, 2)"), "if(a, 1, 2)");
    CHECK_STR(ex("replace(s, 'a', 'b')"), "replace(s, 'a', 'b')");
    CHECK_STR(ex("date(x)"), "date(x)");
    CHECK_STR(ex("date"), "date");
    CHECK_STR(ex("t.date"), "t.date");
    CHECK_STR(ex("db.t.Col"), "db.t.col");
    CHECK_STR(ex("\"Weird Name\""), "Weird Name");
    CHECK_STR(ex("`bq`"), "bq");
    CHECK_STR(ex("CAST(x AS decimal(10, 2))"), "CAST(x AS decimal(10,2))");
    CHECK_STR(ex("TRY_CAST(x AS VARCHAR(5))"), "TRY_CAST(x AS varchar(5))");
    CHECK_STR(ex("CAST(x AS double precision)"), "CAST(x AS double precision)");
    CHECK_STR(ex("CAST(x AS array(integer))"), "CAST(x AS array(integer))");
    CHECK_STR(ex("CAST(x AS row(a integer, b varchar))"), "CAST(x AS row(a integer,b varchar))");
    CHECK_STR(ex("CAST(x AS timestamp(3) with time zone)"),
              "CAST(x AS timestamp(3) with time zone)");
    CHECK_STR(ex("CASE WHEN a > 1 THEN 'x' WHEN b THEN 'y' ELSE 'z' END"),
              "CASE WHEN (a > 1) THEN 'x' WHEN b THEN 'y' ELSE 'z' END");
    CHECK_STR(ex("CASE status WHEN 'A' THEN 1 END"), "CASE status WHEN 'A' THEN 1 END");
    CHECK_STR(ex("extract(YEAR FROM d)"), "year(d)");
    CHECK_STR(ex("EXTRACT(dow FROM d)"), "day_of_week(d)");
    CHECK_STR(ex("position('a' IN s)"), "strpos(s, 'a')");
    CHECK_STR(ex("substring(s FROM 2 FOR 3)"), "substring(s, 2, 3)");
    CHECK_STR(ex("substr(s, 2)"), "substr(s, 2)");
    CHECK_STR(ex("trim(BOTH 'x' FROM s)"), "trim(s, 'x')");
    CHECK_STR(ex("trim(leading FROM s)"), "ltrim(s)");
    CHECK_STR(ex("TRIM(TRAILING 'ab' || c FROM s)"), "rtrim(s, ('ab' || c))");
    CHECK_STR(ex("trim(' ' FROM s)"), "trim(s, ' ')");
    CHECK_STR(ex("trim(FROM s)"), "trim(s)");
    CHECK_STR(ex("trim(s)"), "trim(s)");
    CHECK_STR(ex("trim(s, 'x')"), "trim(s, 'x')");
    CHECK_STR(ex("trim(leading)"), "trim(leading)");
    /* a leading-dot decimal right after a keyword (SELECT .5) */
    CHECK(strcmp(ex(".5"), "(error)") != 0);
    CHECK_STR(ex("t.a5"), "t.a5");
    CHECK_STR(ex("current_date"), "current_date()");
    CHECK_STR(ex("CURRENT_TIMESTAMP"), "current_timestamp()");

    sqe_ast_query *q = q_of("SELECT CAST(a AS DECIMAL(12,3)), TRY_CAST(b AS array<int>), count(*), "
                            "count(DISTINCT c)");
    CHECK(q && q->n_items == 4);
    if (!q) return;
    sqe_ast_expr *c = q->items[0].expr;
    CHECK(c->kind == SQE_AST_CAST && !c->u.cast.try_);
    CHECK_STR(c->u.cast.type.name, "decimal");
    CHECK(c->u.cast.type.n_params == 2 && c->u.cast.type.params[0] == 12 &&
          c->u.cast.type.params[1] == 3);
    c = q->items[1].expr;
    CHECK(c->u.cast.try_);
    CHECK_STR(c->u.cast.type.name, "array");
    CHECK_STR(c->u.cast.type.text, "array<int>");
    CHECK(q->items[2].expr->u.func.star && q->items[2].expr->u.func.n_args == 0);
    CHECK(q->items[3].expr->u.func.distinct && q->items[3].expr->u.func.n_args == 1);
}

static void test_nonreserved_words_as_names(void) {
    sqe_ast_query *q =
        q_of("SELECT date, year, location, comment, format, type, data, first, last, tables, "
             "partition, status, name, value, key, dt, note, segment, country, interval, "
             "offset, limit FROM tables");
    CHECK(q && q->n_items == 22);
    if (q) CHECK_STR(q->from->u.table.parts[0].name, "tables");
    q = q_of("SELECT status AS status, name location FROM data AS comment WHERE dt = '2024-01-01' "
             "AND year > 2000");
    CHECK(q && q->items[1].alias);
    if (q) {
        CHECK_STR(q->items[1].alias->name, "location");
        CHECK_STR(q->from->alias->name, "comment");
    }
    q = q_of("SELECT x \"Quoted Alias\", y `bq` FROM t");
    CHECK(q && q->items[0].alias && q->items[0].alias->quoted);
    if (q) CHECK_STR(q->items[0].alias->name, "Quoted Alias");
}

/* ------------------------------------------------------------- queries */

static void test_select_clauses(void) {
    sqe_ast_stmt *st =
        parse("SELECT DISTINCT a, t.*, *, b + 1 AS c FROM sales t WHERE x > 1 GROUP BY a, 2 "
              "HAVING count(*) > 1 ORDER BY a DESC NULLS FIRST, b ASC, c NULLS LAST "
              "LIMIT 10 OFFSET 5;");
    CHECK(st && st->kind == SQE_STMT_SELECT);
    if (!st) return;
    sqe_ast_query *q = st->u.query;
    CHECK_STR(
        st->text,
        "SELECT DISTINCT a, t.*, *, b + 1 AS c FROM sales t WHERE x > 1 GROUP BY a, 2 "
        "HAVING count(*) > 1 ORDER BY a DESC NULLS FIRST, b ASC, c NULLS LAST LIMIT 10 OFFSET 5");
    CHECK(q->distinct && q->n_items == 4);
    CHECK(q->items[1].expr->kind == SQE_AST_STAR && q->items[1].expr->u.star.qualifier);
    CHECK_STR(sqe_sql_expr_to_string(A, q->items[1].expr), "t.*");
    CHECK(q->items[2].expr->kind == SQE_AST_STAR && !q->items[2].expr->u.star.qualifier);
    CHECK_STR(q->items[3].alias->name, "c");
    CHECK(q->from->kind == SQE_FROM_TABLE);
    CHECK_STR(q->from->alias->name, "t");
    CHECK(q->where && q->n_group_by == 2 && q->having);
    CHECK(q->n_order_by == 3);
    CHECK(q->order_by[0].desc && q->order_by[0].nulls == 1);
    CHECK(!q->order_by[1].desc && q->order_by[1].nulls == 0);
    CHECK(q->order_by[2].nulls == 2);
    CHECK_STR(q->limit->u.lit.text, "10");
    CHECK_STR(q->offset->u.lit.text, "5");
    CHECK(q->pos.line == 1 && q->pos.col == 1);

    q = q_of("SELECT ALL a FROM t OFFSET 3 ROWS LIMIT ALL");
    CHECK(q && !q->distinct && !q->limit && q->offset);
    q = q_of("SELECT a FROM t ORDER BY a OFFSET 2 ROW FETCH FIRST 7 ROWS ONLY");
    CHECK(q && q->limit && q->offset);
    if (q) CHECK_STR(q->limit->u.lit.text, "7");
    q = q_of("SELECT a FROM t FETCH NEXT ROW ONLY");
    CHECK(q && q->limit);
    if (q) CHECK_STR(q->limit->u.lit.text, "1");
    q = q_of("SELECT 1");
    CHECK(q && !q->from && !q->where && !q->limit);
    q = q_of("SELECT db.t.* FROM db.t");
    CHECK(q && q->items[0].expr->u.star.qualifier->n_parts == 2);
}

static void test_from_and_joins(void) {
    sqe_ast_query *q =
        q_of("SELECT * FROM a JOIN b ON a.id = b.id LEFT OUTER JOIN c USING (id, k) "
             "RIGHT JOIN d ON true FULL JOIN e ON 1 = 1 CROSS JOIN f INNER JOIN g ON x");
    CHECK(q != NULL);
    if (!q) return;
    sqe_ast_from *f = q->from; /* left-deep: ((((((a J b) L c) R d) F e) X f) I g) */
    CHECK(f->kind == SQE_FROM_JOIN && f->u.join.kind == SQE_JOIN_INNER && f->u.join.on);
    f = f->u.join.left;
    CHECK(f->u.join.kind == SQE_JOIN_CROSS && !f->u.join.on);
    f = f->u.join.left;
    CHECK(f->u.join.kind == SQE_JOIN_FULL);
    f = f->u.join.left;
    CHECK(f->u.join.kind == SQE_JOIN_RIGHT);
    f = f->u.join.left;
    CHECK(f->u.join.kind == SQE_JOIN_LEFT && !f->u.join.on && f->u.join.n_using == 2);
    CHECK_STR(f->u.join.using_cols[1].name, "k");
    f = f->u.join.left;
    CHECK(f->u.join.kind == SQE_JOIN_INNER && f->u.join.on);
    CHECK(f->u.join.left->kind == SQE_FROM_TABLE && f->u.join.right->kind == SQE_FROM_TABLE);

    q = q_of("SELECT * FROM a x, b AS y, root.db.c");
    CHECK(q && q->from->kind == SQE_FROM_JOIN && q->from->u.join.kind == SQE_JOIN_CROSS);
    if (q) {
        CHECK(q->from->u.join.right->u.table.n_parts == 3);
        CHECK_STR(q->from->u.join.left->u.join.right->alias->name, "y");
    }

    q = q_of("SELECT s.x FROM (SELECT x FROM t) s JOIN (SELECT y FROM u) AS v ON s.x = v.y");
    CHECK(q && q->from->u.join.left->kind == SQE_FROM_SUBQUERY);
    if (q) {
        CHECK_STR(q->from->u.join.left->alias->name, "s");
        CHECK_STR(q->from->u.join.right->alias->name, "v");
    }
    q = q_of("SELECT * FROM (SELECT 1)");
    CHECK(q && q->from->kind == SQE_FROM_SUBQUERY && !q->from->alias);
    q = q_of("SELECT * FROM (a JOIN b ON a.k = b.k) LEFT JOIN c ON c.k = a.k");
    CHECK(q && q->from->u.join.left->kind == SQE_FROM_JOIN);
    q = q_of("SELECT * FROM ((SELECT 1) UNION (SELECT 2)) u");
    CHECK(q && q->from->kind == SQE_FROM_SUBQUERY && q->from->u.subquery->set_op == SQE_SET_UNION);
    q = q_of("SELECT * FROM ((SELECT 1 AS k) a JOIN b ON a.k = b.k)");
    CHECK(q && q->from->kind == SQE_FROM_JOIN && q->from->u.join.left->kind == SQE_FROM_SUBQUERY);
    q = q_of("SELECT * FROM (t) x");
    CHECK(q && q->from->kind == SQE_FROM_TABLE && q->from->alias);

    /* back-quoted `db.tbl` in a table position splits; in a column it does not */
    q = q_of("SELECT `a.b` FROM `mydb.cloudfront_logs`");
    CHECK(q && q->from->u.table.n_parts == 2);
    if (q) {
        CHECK_STR(qname_str(&q->from->u.table), "mydb|cloudfront_logs");
        CHECK(q->from->u.table.parts[1].quoted && q->from->u.table.parts[1].pos.col == 25);
        CHECK(q->items[0].expr->u.column.n_parts == 1);
    }
    q = q_of("SELECT 1 FROM \"a.b\"");
    CHECK(q && q->from->u.table.n_parts == 1);
}

static void test_set_ops_and_parens(void) {
    /* ((((1 UNION ALL 2) UNION (3 INTERSECT 4)) EXCEPT 5) UNION 6) ORDER BY 1 LIMIT 2 */
    sqe_ast_query *q =
        q_of("SELECT 1 UNION ALL SELECT 2 UNION SELECT 3 INTERSECT SELECT 4 EXCEPT SELECT 5 "
             "UNION DISTINCT SELECT 6 ORDER BY 1 LIMIT 2");
    CHECK(q != NULL);
    if (!q) return;
    CHECK(q->kind == SQE_QUERY_SET && q->set_op == SQE_SET_UNION && !q->set_all);
    CHECK(q->n_order_by == 1 && q->limit && !q->set_right->limit);
    sqe_ast_query *l = q->set_left; /* ... EXCEPT 5 */
    CHECK(l->kind == SQE_QUERY_SET && l->set_op == SQE_SET_EXCEPT);
    sqe_ast_query *u = l->set_left; /* (1 UNION ALL 2) UNION (3 INTERSECT 4) */
    CHECK(u->set_op == SQE_SET_UNION && u->set_right->set_op == SQE_SET_INTERSECT);
    CHECK(u->set_left->set_op == SQE_SET_UNION && u->set_left->set_all);

    sqe_ast_stmt *st = parse("(SELECT a FROM t) ORDER BY a LIMIT 1");
    CHECK(st && st->kind == SQE_STMT_SELECT && st->u.query->limit && st->u.query->n_order_by == 1);
    st = parse("((SELECT a FROM t LIMIT 3))");
    CHECK(st && st->u.query->limit);
    q = q_of("(SELECT 1) UNION (SELECT 2)");
    CHECK(q && q->set_op == SQE_SET_UNION && q->set_left && q->set_right);
}

/* ------------------------------------ WITH, VALUES, windows, GROUP BY */

static void test_with(void) {
    sqe_ast_query *q = q_of("WITH a AS (SELECT 1 AS x), b (x, y) AS (SELECT 1, 2)\n"
                            "SELECT * FROM a, b");
    CHECK(q && q->kind == SQE_QUERY_SELECT && q->n_ctes == 2);
    if (!q) return;
    CHECK(q->pos.line == 1 && q->pos.col == 1); /* the query starts at WITH */
    CHECK_STR(q->ctes[0].name.name, "a");
    CHECK(q->ctes[0].name.pos.col == 6 && q->ctes[0].n_cols == 0);
    CHECK(q->ctes[0].query && q->ctes[0].query->n_items == 1);
    CHECK(q->ctes[0].query->pos.col == 12);
    CHECK_STR(q->ctes[1].name.name, "b");
    CHECK(q->ctes[1].n_cols == 2);
    CHECK_STR(q->ctes[1].cols[1].name, "y");
    CHECK(q->ctes[1].cols[1].pos.col == 34);
    CHECK(q->from && q->from->kind == SQE_FROM_JOIN);

    /* WITH belongs to the whole query expression, with its ORDER BY */
    q = q_of("WITH a AS (SELECT 1) SELECT * FROM a UNION SELECT 2 ORDER BY 1 LIMIT 3");
    CHECK(q && q->kind == SQE_QUERY_SET && q->n_ctes == 1 && q->n_order_by == 1 && q->limit);
    CHECK(q && q->set_left->n_ctes == 0 && q->set_right->n_ctes == 0);
    /* inside subqueries, CTE bodies, parenthesized queries, CTAS, EXPLAIN */
    q = q_of("SELECT * FROM (WITH a AS (SELECT 1) SELECT * FROM a) x");
    CHECK(q && q->n_ctes == 0 && q->from->u.subquery->n_ctes == 1);
    q = q_of("SELECT (WITH a AS (SELECT 1 x) SELECT x FROM a), 1 IN (WITH b AS (SELECT 1) "
             "SELECT * FROM b), EXISTS (WITH c AS (SELECT 1) SELECT 1)");
    CHECK(q && q->items[0].expr->kind == SQE_AST_SUBQUERY &&
          q->items[0].expr->u.subquery.query->n_ctes == 1);
    CHECK(q && q->items[1].expr->kind == SQE_AST_IN_SUBQUERY &&
          q->items[1].expr->u.in_subquery.query->n_ctes == 1);
    CHECK(q && q->items[2].expr->u.subquery.query->n_ctes == 1);
    q = q_of("WITH a AS (WITH b AS (SELECT 1) SELECT * FROM b) SELECT * FROM a");
    CHECK(q && q->n_ctes == 1 && q->ctes[0].query->n_ctes == 1);
    q = q_of("(WITH a AS (SELECT 1) SELECT * FROM a) UNION ALL SELECT 2");
    CHECK(q && q->kind == SQE_QUERY_SET && q->n_ctes == 0 && q->set_left->n_ctes == 1);
    if (q) CHECK(q->set_left->pos.col == 2);
    /* WITH before a parenthesized query with its own WITH: one list, outer first */
    q = q_of("WITH a AS (SELECT 1) (WITH b AS (SELECT * FROM a) SELECT * FROM a, b) LIMIT 1");
    CHECK(q && q->n_ctes == 2 && q->limit);
    if (q && q->n_ctes == 2) {
        CHECK_STR(q->ctes[0].name.name, "a");
        CHECK_STR(q->ctes[1].name.name, "b");
    }
    sqe_ast_create_table *ct = ct_of("CREATE TABLE t AS WITH a AS (SELECT 1) SELECT * FROM a");
    CHECK(ct && ct->as_select && ct->as_select->n_ctes == 1);
    sqe_ast_stmt *st = parse("EXPLAIN WITH a AS (SELECT 1) SELECT * FROM a");
    CHECK(st && st->kind == SQE_STMT_EXPLAIN && st->u.explain.stmt->u.query->n_ctes == 1);
    /* RECURSIVE is a keyword only before a name */
    q = q_of("WITH recursive AS (SELECT 1) SELECT * FROM recursive");
    CHECK(q && q->n_ctes == 1);
    if (q) CHECK_STR(q->ctes[0].name.name, "recursive");
    /* names compare as the binder sees them: a, A and "a" are one name, "A" another */
    q = q_of("WITH a AS (SELECT 1), \"A\" AS (SELECT 2) SELECT 1");
    CHECK(q && q->n_ctes == 2 && q->ctes[1].name.quoted);

    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    sqe_strbuf_puts(&sb, "WITH c0 AS (SELECT 1)");
    for (int i = 1; i < 40; i++) sqe_strbuf_printf(&sb, ", c%d AS (SELECT * FROM c%d)", i, i - 1);
    sqe_strbuf_puts(&sb, " SELECT * FROM c39");
    q = q_of(sb.data);
    CHECK(q && q->n_ctes == 40);
    sqe_strbuf_clear(&sb);
    sqe_strbuf_puts(&sb, "WITH c0 AS (SELECT 1)");
    for (int i = 1; i < 40; i++) sqe_strbuf_printf(&sb, ", c%d AS (SELECT 1)", i);
    sqe_strbuf_puts(&sb, ", C7 AS (SELECT 1) SELECT 1");
    CHECK_CONTAINS(perr(sb.data), "WITH query name 'C7' specified more than once");
    sqe_strbuf_free(&sb);

    NSUP("WITH RECURSIVE t (n) AS (SELECT 1) SELECT * FROM t", "WITH RECURSIVE is not supported");
    SYN("WITH a AS (SELECT 1), A AS (SELECT 2) SELECT 1",
        "syntax error at line 1:23: WITH query name 'A' specified more than once");
    SYN("WITH a AS (SELECT 1), \"a\" AS (SELECT 2) SELECT 1",
        "syntax error at line 1:23: WITH query name 'a' specified more than once");
    SYN("WITH a (x, X) AS (SELECT 1, 2) SELECT 1",
        "syntax error at line 1:12: column name 'X' specified more than once");
    SYN("WITH SELECT 1", "syntax error at line 1:6: expected query name, found 'SELECT'");
    SYN("WITH a SELECT 1", "syntax error at line 1:8: expected AS, found 'SELECT'");
    SYN("WITH a AS SELECT 1", "syntax error at line 1:11: expected '(', found 'SELECT'");
    SYN("WITH a AS (SELECT 1 SELECT 1", "syntax error at line 1:21: expected ')', found 'SELECT'");
    SYN("WITH a () AS (SELECT 1) SELECT 1",
        "syntax error at line 1:9: expected column name, found ')'");
    SYN("WITH a AS (SELECT 1)", "syntax error at line 1:21: expected SELECT, found end of input");
    SYN("WITH a AS (SELECT 1) , SELECT 1",
        "syntax error at line 1:24: expected query name, found 'SELECT'");
    NSUP("WITH a AS (SELECT 1) (WITH a AS (SELECT 2) SELECT * FROM a)",
         "WITH query name 'a' is defined again in the WITH of the parenthesized query it "
         "prefixes; shadowing a WITH query this way is not supported");
}

static void test_values(void) {
    sqe_ast_query *q = q_of("VALUES (1, 'a'), (2, 'b')");
    CHECK(q && q->kind == SQE_QUERY_VALUES);
    if (!q) return;
    CHECK(q->n_values_rows == 2 && q->n_values_cols == 2);
    CHECK(q->pos.line == 1 && q->pos.col == 1);
    CHECK(q->values_rows[1][1]->kind == SQE_AST_LITERAL && q->values_rows[1][1]->pos.col == 22);
    CHECK_STR(q->values_rows[1][1]->u.lit.text, "b");
    CHECK(q->n_items == 0 && !q->from);

    /* single-column rows need no parentheses; "(x) + 1" is an expression */
    q = q_of("VALUES 1, 2, -3");
    CHECK(q && q->n_values_rows == 3 && q->n_values_cols == 1);
    if (q) CHECK_STR(sqe_sql_expr_to_string(A, q->values_rows[2][0]), "-3");
    q = q_of("VALUES (1) + 2, (3)");
    CHECK(q && q->n_values_rows == 2 && q->n_values_cols == 1);
    if (q) CHECK_STR(sqe_sql_expr_to_string(A, q->values_rows[0][0]), "(1 + 2)");
    q = q_of("VALUES ((SELECT 1), 2), (3, 4)");
    CHECK(q && q->n_values_cols == 2 && q->values_rows[0][0]->kind == SQE_AST_SUBQUERY);
    q = q_of("VALUES (SELECT 1)");
    CHECK(q && q->n_values_cols == 1 && q->values_rows[0][0]->kind == SQE_AST_SUBQUERY);
    q = q_of("VALUES 1 ORDER BY 1 LIMIT 1");
    CHECK(q && q->kind == SQE_QUERY_VALUES && q->n_order_by == 1 && q->limit);
    q = q_of("VALUES x");
    CHECK(q && q->kind == SQE_QUERY_VALUES && q->values_rows[0][0]->kind == SQE_AST_COLUMN);

    /* in set operations */
    q = q_of("SELECT 1 UNION ALL VALUES 2, 3 ORDER BY 1");
    CHECK(q && q->kind == SQE_QUERY_SET && q->set_right->kind == SQE_QUERY_VALUES);
    CHECK(q && q->set_right->n_values_rows == 2 && q->n_order_by == 1);
    q = q_of("VALUES 1 INTERSECT VALUES 2 UNION (VALUES 3)");
    CHECK(q && q->set_op == SQE_SET_UNION && q->set_left->set_op == SQE_SET_INTERSECT);
    CHECK(q && q->set_right->kind == SQE_QUERY_VALUES);
    /* in FROM, with column aliases; as a subquery; in WITH and CTAS */
    q = q_of("SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS t (x, y)");
    CHECK(q && q->from->kind == SQE_FROM_SUBQUERY);
    if (q) {
        CHECK(q->from->u.subquery->kind == SQE_QUERY_VALUES);
        CHECK_STR(q->from->alias->name, "t");
        CHECK(q->from->n_alias_cols == 2);
        CHECK_STR(q->from->alias_cols[1].name, "y");
        CHECK(q->from->alias_cols[1].pos.col == 52);
    }
    q = q_of("SELECT 1 IN (VALUES 1, 2), (VALUES 3), EXISTS (VALUES 4)");
    CHECK(q && q->items[0].expr->kind == SQE_AST_IN_SUBQUERY);
    CHECK(q && q->items[1].expr->kind == SQE_AST_SUBQUERY &&
          q->items[1].expr->u.subquery.query->kind == SQE_QUERY_VALUES);
    CHECK(q && q->items[2].expr->kind == SQE_AST_EXISTS);
    q = q_of("WITH a (x) AS (VALUES 1) SELECT * FROM a");
    CHECK(q && q->ctes[0].query->kind == SQE_QUERY_VALUES);
    sqe_ast_create_table *ct = ct_of("CREATE TABLE t AS VALUES (1)");
    CHECK(ct && ct->as_select && ct->as_select->kind == SQE_QUERY_VALUES);
    /* `values` alone is still a name */
    q = q_of("SELECT values FROM values");
    CHECK(q && q->items[0].expr->kind == SQE_AST_COLUMN && q->from->kind == SQE_FROM_TABLE);
    q = q_of("SELECT * FROM (values) v");
    CHECK(q && q->from->kind == SQE_FROM_TABLE && q->from->alias);
    q = q_of("SELECT (values), x IN (values) FROM t");
    CHECK(q && q->items[0].expr->kind == SQE_AST_COLUMN &&
          q->items[1].expr->kind == SQE_AST_IN_LIST);

    SYN("VALUES (1, 2), (3)",
        "syntax error at line 1:16: VALUES row 2 has 1 column, but row 1 has 2");
    SYN("VALUES 1, 2, (3, 4)",
        "syntax error at line 1:14: VALUES row 3 has 2 columns, but row 1 has 1");
    SYN("VALUES", "syntax error at line 1:7: expected expression, found end of input");
    SYN("VALUES ()", "syntax error at line 1:9: expected expression, found ')'");
    SYN("VALUES (1 2)", "syntax error at line 1:11: expected ',' or ')', found '2'");
    SYN("VALUES (1, 2", "syntax error at line 1:13: expected ',' or ')', found end of input");
    SYN("VALUES 1,", "syntax error at line 1:10: expected expression, found end of input");
}

static void test_from_alias_lists(void) {
    sqe_ast_query *q = q_of("SELECT * FROM tbl AS t (a, b) JOIN u x (c) ON a = c");
    CHECK(q && q->from->kind == SQE_FROM_JOIN);
    if (!q) return;
    const sqe_ast_from *l = q->from->u.join.left, *r = q->from->u.join.right;
    CHECK(l->kind == SQE_FROM_TABLE && l->n_alias_cols == 2);
    CHECK_STR(l->alias_cols[0].name, "a");
    CHECK(l->alias_cols[0].pos.col == 25);
    CHECK(r->n_alias_cols == 1);
    CHECK_STR(r->alias_cols[0].name, "c");
    q = q_of("SELECT * FROM (SELECT 1, 2) AS s (a, \"B\")");
    CHECK(q && q->from->kind == SQE_FROM_SUBQUERY && q->from->n_alias_cols == 2);
    CHECK(q && q->from->alias_cols[1].quoted);
    q = q_of("SELECT * FROM t");
    CHECK(q && q->from->n_alias_cols == 0 && !q->from->alias_cols);

    SYN("SELECT * FROM t AS x (a, A)",
        "syntax error at line 1:26: column name 'A' specified more than once");
    SYN("SELECT * FROM t AS x ()", "syntax error at line 1:23: expected column name, found ')'");
    SYN("SELECT * FROM t AS x (a b)", "syntax error at line 1:25: expected ',' or ')', found 'b'");
    SYN("SELECT * FROM t AS x (a",
        "syntax error at line 1:24: expected ',' or ')', found end of input");
}

static const char *window_str(const char *sql) {
    sqe_ast_query *q = q_of(sql);
    if (!q || !q->n_items) return "(error)";
    return sqe_sql_expr_to_string(A, q->items[0].expr);
}

static void test_windows(void) {
    sqe_ast_query *q =
        q_of("SELECT row_number() OVER (PARTITION BY a, b ORDER BY c DESC NULLS FIRST, d "
             "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM t");
    CHECK(q != NULL);
    if (!q) return;
    const sqe_ast_expr *e = q->items[0].expr;
    const sqe_ast_window *w = e->u.func.over;
    CHECK(e->kind == SQE_AST_FUNCTION && w && !e->u.func.filter && !e->u.func.ignore_nulls);
    if (!w) return;
    CHECK(w->pos.line == 1 && w->pos.col == 21);
    CHECK(w->n_partition == 2 && w->n_order == 2);
    CHECK(w->order[0].desc && w->order[0].nulls == 1 && !w->order[1].desc);
    CHECK(w->unit == SQE_FRAME_ROWS);
    CHECK(w->start.kind == SQE_BOUND_UNBOUNDED_PRECEDING && !w->start.offset);
    CHECK(w->end.kind == SQE_BOUND_CURRENT_ROW);
    CHECK_STR(sqe_sql_expr_to_string(A, e),
              "row_number() OVER (PARTITION BY a, b ORDER BY c DESC NULLS FIRST, d ROWS BETWEEN "
              "UNBOUNDED PRECEDING AND CURRENT ROW)");

    q = q_of("SELECT count(*) OVER () FROM t");
    CHECK(q && q->items[0].expr->u.func.star && q->items[0].expr->u.func.over);
    if (q) {
        w = q->items[0].expr->u.func.over;
        CHECK(w->n_partition == 0 && w->n_order == 0 && w->unit == SQE_FRAME_DEFAULT);
    }
    CHECK_STR(window_str("SELECT count(*) OVER ()"), "count(*) OVER ()");
    /* shorthand frames: "ROWS x" is BETWEEN x AND CURRENT ROW */
    q = q_of("SELECT sum(x) OVER (ORDER BY t ROWS 3 PRECEDING)");
    w = q ? q->items[0].expr->u.func.over : NULL;
    CHECK(w && w->unit == SQE_FRAME_ROWS && w->start.kind == SQE_BOUND_PRECEDING &&
          w->start.offset && w->end.kind == SQE_BOUND_CURRENT_ROW && !w->end.offset);
    CHECK_STR(window_str("SELECT sum(x) OVER (ROWS UNBOUNDED PRECEDING)"),
              "sum(x) OVER (ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)");
    CHECK_STR(window_str("SELECT sum(x) OVER (RANGE CURRENT ROW)"),
              "sum(x) OVER (RANGE BETWEEN CURRENT ROW AND CURRENT ROW)");
    CHECK_STR(window_str("SELECT sum(x) OVER (ORDER BY y GROUPS BETWEEN 1 FOLLOWING AND "
                         "UNBOUNDED FOLLOWING)"),
              "sum(x) OVER (ORDER BY y GROUPS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING)");
    CHECK_STR(window_str("SELECT sum(x) OVER (ORDER BY d RANGE BETWEEN INTERVAL '1' DAY "
                         "PRECEDING AND n + 1 FOLLOWING)"),
              "sum(x) OVER (ORDER BY d RANGE BETWEEN INTERVAL '1' DAY PRECEDING AND (n + 1) "
              "FOLLOWING)");
    CHECK_STR(window_str("SELECT avg(x) OVER (PARTITION BY p ROWS BETWEEN CURRENT ROW AND 2 "
                         "FOLLOWING)"),
              "avg(x) OVER (PARTITION BY p ROWS BETWEEN CURRENT ROW AND 2 FOLLOWING)");
    /* IGNORE NULLS / RESPECT NULLS, FILTER */
    q = q_of("SELECT lag(x, 1) IGNORE NULLS OVER (ORDER BY t), lead(x) RESPECT NULLS OVER w "
             "FROM t WINDOW w AS (ORDER BY t)");
    CHECK(q && q->items[0].expr->u.func.ignore_nulls && q->items[0].expr->u.func.over);
    CHECK(q && !q->items[1].expr->u.func.ignore_nulls && q->items[1].expr->u.func.over);
    CHECK_STR(window_str("SELECT lag(x, 1) IGNORE NULLS OVER (ORDER BY t)"),
              "lag(x, 1) IGNORE NULLS OVER (ORDER BY t)");
    /* the words stay usable as aliases and names */
    q = q_of("SELECT count(*) over, f(x) filter, lag(x) ignore, rows, range, groups, preceding, "
             "following, unbounded, current, respect, nulls FROM t");
    CHECK(q && q->n_items == 12 && !q->items[0].expr->u.func.over);
    if (q) {
        CHECK_STR(q->items[0].alias->name, "over");
        CHECK_STR(q->items[1].alias->name, "filter");
        CHECK_STR(q->items[2].alias->name, "ignore");
    }
    q = q_of("SELECT sum(x) OVER (ROWS unbounded + 1 PRECEDING), sum(x) OVER (rows)"
             " FROM t WINDOW rows AS ()");
    CHECK(q && q->items[0].expr->u.func.over->start.offset);

    SYN("SELECT lag(x) IGNORE NULLS FROM t",
        "syntax error at line 1:28: expected OVER, found 'FROM'");
    SYN("SELECT lag(x) IGNORE NULLS OVER",
        "syntax error at line 1:32: expected window name or '(', found end of input");
    SYN("SELECT sum(x) OVER (", "syntax error at line 1:21: expected PARTITION BY, ORDER BY, "
                                "ROWS, RANGE, GROUPS or ')', found end of input");
    SYN("SELECT sum(x) OVER (PARTITION BY a x)",
        "syntax error at line 1:36: expected ',', ORDER BY, ROWS, RANGE, GROUPS or ')', found 'x'");
    SYN("SELECT sum(x) OVER (ORDER BY a x)",
        "syntax error at line 1:32: expected ',', ROWS, RANGE, GROUPS or ')', found 'x'");
    SYN("SELECT sum(x) OVER (ROWS 1 PRECEDING x)",
        "syntax error at line 1:38: expected ')', found 'x'");
    SYN("SELECT sum(x) OVER (ROWS 1)",
        "syntax error at line 1:27: expected PRECEDING or FOLLOWING, found ')'");
    SYN("SELECT sum(x) OVER (ROWS BETWEEN 1 PRECEDING)",
        "syntax error at line 1:45: expected AND, found ')'");
    SYN("SELECT sum(x) OVER (ROWS UNBOUNDED)",
        "syntax error at line 1:35: expected PRECEDING or FOLLOWING, found ')'");
    SYN("SELECT sum(x) OVER (PARTITION a)", "syntax error at line 1:31: expected BY, found 'a'");
    /* impossible frames, as Trino words them */
    SYN("SELECT sum(x) OVER (ROWS UNBOUNDED FOLLOWING)",
        "syntax error at line 1:26: window frame start cannot be UNBOUNDED FOLLOWING");
    SYN("SELECT sum(x) OVER (ROWS BETWEEN CURRENT ROW AND UNBOUNDED PRECEDING)",
        "syntax error at line 1:50: window frame end cannot be UNBOUNDED PRECEDING");
    SYN("SELECT sum(x) OVER (ROWS BETWEEN CURRENT ROW AND 1 PRECEDING)",
        "syntax error at line 1:50: window frame starting from CURRENT ROW cannot end with "
        "PRECEDING");
    SYN("SELECT sum(x) OVER (ROWS BETWEEN 1 FOLLOWING AND 1 PRECEDING)",
        "syntax error at line 1:50: window frame starting from FOLLOWING cannot end with "
        "PRECEDING");
    SYN("SELECT sum(x) OVER (ROWS 1 FOLLOWING)",
        "syntax error at line 1:26: window frame starting from FOLLOWING cannot end with CURRENT "
        "ROW");
}

static void test_named_windows(void) {
    sqe_ast_query *q =
        q_of("SELECT rank() OVER w, sum(x) OVER (w ROWS UNBOUNDED PRECEDING), avg(x) OVER w2, "
             "min(x) OVER (w3 ORDER BY c) FROM t "
             "WINDOW w AS (PARTITION BY a ORDER BY b), w2 AS (w ROWS 2 PRECEDING), w3 AS "
             "(PARTITION BY d) "
             "ORDER BY max(x) OVER W");
    CHECK(q != NULL);
    if (!q) return;
    const sqe_ast_window *w = q->items[0].expr->u.func.over;
    CHECK(w && w->n_partition == 1 && w->n_order == 1 && w->unit == SQE_FRAME_DEFAULT);
    if (w) CHECK(w->pos.col == 15); /* the call's OVER */
    w = q->items[1].expr->u.func.over;
    CHECK(w && w->n_partition == 1 && w->n_order == 1 && w->unit == SQE_FRAME_ROWS);
    w = q->items[2].expr->u.func.over; /* w2 builds on w */
    CHECK(w && w->n_partition == 1 && w->n_order == 1 && w->unit == SQE_FRAME_ROWS &&
          w->start.kind == SQE_BOUND_PRECEDING);
    w = q->items[3].expr->u.func.over;
    CHECK(w && w->n_partition == 1 && w->n_order == 1);
    if (w) CHECK_STR(sqe_sql_expr_to_string(A, w->partition[0]), "d");
    CHECK_STR(sqe_sql_expr_to_string(A, q->items[3].expr),
              "min(x) OVER (PARTITION BY d ORDER BY c)");
    CHECK(q->n_order_by == 1 && q->order_by[0].expr->u.func.over);
    CHECK_STR(sqe_sql_expr_to_string(A, q->order_by[0].expr),
              "max(x) OVER (PARTITION BY a ORDER BY b)");
    /* OVER w copies a window with a frame; OVER (w) may not */
    q = q_of("SELECT sum(x) OVER w FROM t WINDOW w AS (ORDER BY a ROWS 1 PRECEDING)");
    CHECK(q && q->items[0].expr->u.func.over->unit == SQE_FRAME_ROWS);
    /* a window call inside a definition sees the definitions before it */
    q = q_of("SELECT 1 FROM t WINDOW w1 AS (), w2 AS (ORDER BY rank() OVER w1)");
    CHECK(q && q->n_items == 1);
    /* FILTER with OVER; a named window used in GROUP BY is resolved before deduplication */
    q = q_of("SELECT sum(x) FILTER (WHERE y > 0) OVER (PARTITION BY z) FROM t");
    CHECK(q && q->items[0].expr->u.func.filter && q->items[0].expr->u.func.over);
    q = q_of("SELECT 1 FROM t GROUP BY f() OVER w, f() WINDOW w AS ()");
    CHECK(q && q->n_group_by == 2);

    /* many windows, each building on the one before */
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    sqe_strbuf_puts(
        &sb, "SELECT rank() OVER W39, rank() OVER (w20) FROM t WINDOW w0 AS (PARTITION BY a)");
    for (int i = 1; i < 40; i++) sqe_strbuf_printf(&sb, ", w%d AS (w%d)", i, i - 1);
    q = q_of(sb.data);
    CHECK(q && q->items[0].expr->u.func.over->n_partition == 1 &&
          q->items[1].expr->u.func.over->n_partition == 1);
    sqe_strbuf_puts(&sb, ", w17 AS ()");
    CHECK_CONTAINS(perr(sb.data), "WINDOW name 'w17' specified more than once");
    sqe_strbuf_free(&sb);

    SYN("SELECT rank() OVER w FROM t", "syntax error at line 1:20: window 'w' is not defined");
    SYN("SELECT rank() OVER (w ORDER BY a) FROM t",
        "syntax error at line 1:21: window 'w' is not defined");
    SYN("SELECT 1 FROM t WINDOW w2 AS (w1 ORDER BY a), w1 AS (PARTITION BY b)",
        "syntax error at line 1:31: window 'w1' is not defined");
    SYN("SELECT 1 FROM t WINDOW w AS (ORDER BY rank() OVER w)",
        "syntax error at line 1:51: window 'w' is not defined");
    SYN("SELECT 1 FROM t WINDOW w1 AS (ORDER BY a), w2 AS (w1 PARTITION BY b)",
        "syntax error at line 1:54: a window specification that references window 'w1' cannot "
        "specify PARTITION BY");
    SYN("SELECT 1 FROM t WINDOW w1 AS (ORDER BY a), w2 AS (w1 ORDER BY b)",
        "syntax error at line 1:54: cannot specify ORDER BY: the referenced window 'w1' has its "
        "own ORDER BY");
    SYN("SELECT 1 FROM t WINDOW w1 AS (RANGE CURRENT ROW), w2 AS (w1 ORDER BY b)",
        "syntax error at line 1:58: cannot reference window 'w1' in a window specification: it "
        "has a frame (ROWS, RANGE or GROUPS)");
    SYN("SELECT rank() OVER (w PARTITION BY b) FROM t WINDOW w AS (ORDER BY a)",
        "syntax error at line 1:23: a window specification that references window 'w' cannot "
        "specify PARTITION BY");
    SYN("SELECT 1 FROM t WINDOW w AS (), W AS ()",
        "syntax error at line 1:33: WINDOW name 'W' specified more than once");
    SYN("SELECT 1 FROM t WINDOW w (ORDER BY a)",
        "syntax error at line 1:26: expected AS, found '('");
    SYN("SELECT 1 FROM t WINDOW w AS ORDER BY a",
        "syntax error at line 1:29: expected '(', found 'ORDER'");
    /* windows belong to one SELECT body */
    SYN("SELECT (SELECT rank() OVER w FROM u) FROM t WINDOW w AS ()",
        "syntax error at line 1:28: window 'w' is not defined");
    SYN("SELECT a FROM t WINDOW w AS () UNION SELECT 1 ORDER BY rank() OVER w",
        "syntax error at line 1:68: window 'w' is not defined");
    SYN("VALUES (rank() OVER w)", "syntax error at line 1:21: window 'w' is not defined");
    SYN("SELECT (VALUES rank() OVER w) FROM t WINDOW w AS ()",
        "syntax error at line 1:28: window 'w' is not defined");
}

static void test_filter(void) {
    sqe_ast_query *q = q_of("SELECT count(*) FILTER (WHERE x > 1), count(DISTINCT y) "
                            "FILTER (WHERE y IS NOT NULL) AS n FROM t");
    CHECK(q && q->n_items == 2);
    if (!q) return;
    const sqe_ast_expr *e = q->items[0].expr;
    CHECK(e->u.func.star && e->u.func.filter && !e->u.func.over);
    CHECK(e->u.func.filter->kind == SQE_AST_BINARY && e->u.func.filter->pos.col == 33);
    CHECK_STR(sqe_sql_expr_to_string(A, e), "count(*) FILTER (WHERE (x > 1))");
    CHECK(q->items[1].expr->u.func.distinct && q->items[1].expr->u.func.filter);
    CHECK_STR(q->items[1].alias->name, "n");
    CHECK_STR(ex("sum(x) FILTER (WHERE y) OVER (PARTITION BY z)"),
              "sum(x) FILTER (WHERE y) OVER (PARTITION BY z)");
    SYN("SELECT count(*) FILTER (x > 1)", "syntax error at line 1:25: expected WHERE, found 'x'");
    SYN("SELECT count(*) FILTER (WHERE x",
        "syntax error at line 1:32: expected ')', found end of input");
}

/* "[k1|k2|...] {0,1}{0}..." : group_by rendered, then the grouping sets */
static const char *groups_str(const char *sql) {
    sqe_ast_query *q = q_of(sql);
    if (!q) return "(error)";
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    sqe_strbuf_putc(&sb, '[');
    for (int i = 0; i < q->n_group_by; i++) {
        if (i) sqe_strbuf_putc(&sb, '|');
        sqe_strbuf_puts(&sb, sqe_sql_expr_to_string(A, q->group_by[i]));
    }
    sqe_strbuf_putc(&sb, ']');
    for (int i = 0; i < q->n_grouping_sets; i++) {
        sqe_strbuf_puts(&sb, i ? "{" : " {");
        for (int j = 0; j < q->grouping_set_len[i]; j++)
            sqe_strbuf_printf(&sb, j ? ",%d" : "%d", q->grouping_sets[i][j]);
        sqe_strbuf_putc(&sb, '}');
    }
    char *s = sqe_arena_strdup(A, sb.data);
    sqe_strbuf_free(&sb);
    return s;
}

static void test_grouping_sets(void) {
    /* plain GROUP BY: distinct keys, no sets */
    CHECK_STR(groups_str("SELECT 1 FROM t GROUP BY a, b, a"), "[a|b]");
    CHECK_STR(groups_str("SELECT 1 FROM t GROUP BY (a, b), c"), "[a|b|c]");
    CHECK_STR(groups_str("SELECT 1 FROM t GROUP BY (a) + 1, 2"), "[(a + 1)|2]");
    CHECK_STR(groups_str("SELECT 1 FROM t GROUP BY ALL a"), "[a]");
    CHECK_STR(groups_str("SELECT 1 FROM t GROUP BY DISTINCT a"), "[a]");
    /* deduplication: a, A and "a" are one name; "A", "a.b" and a.b are others */
    CHECK_STR(groups_str("SELECT 1 FROM t GROUP BY a, A, \"a\", \"A\", t.a, \"a.b\", a.b"),
              "[a|A|t.a|a.b|a.b]");
    CHECK_STR(groups_str("SELECT 1 FROM t GROUP BY (SELECT 1), (SELECT 1), lower(x), LOWER(x)"),
              "[(SELECT ...)|(SELECT ...)|lower(x)]");
    /* words that only look like the constructs */
    CHECK_STR(groups_str("SELECT 1 FROM t GROUP BY rollup, cube + 1, grouping, sets"),
              "[rollup|(cube + 1)|grouping|sets]");
    CHECK_STR(groups_str("SELECT 1 FROM t GROUP BY rollup(a) + 1"), "[(rollup(a) + 1)]");
    sqe_ast_query *q = q_of("SELECT a, grouping(a, b) FROM t GROUP BY a, b");
    CHECK(q && q->items[1].expr->kind == SQE_AST_FUNCTION && q->n_grouping_sets == 0);

    /* sets: cross product of the elements, each combination a union */
    CHECK_STR(groups_str("SELECT 1 FROM t GROUP BY a, ROLLUP (b, c)"), "[a|b|c] {0,1,2}{0,1}{0}");
    CHECK_STR(groups_str("SELECT 1 FROM t GROUP BY CUBE (a, b)"), "[a|b] {0,1}{0}{1}{}");
    CHECK_STR(groups_str("SELECT 1 FROM t GROUP BY GROUPING SETS ((a, b), (a), (), b)"),
              "[a|b] {0,1}{0}{}{1}");
    CHECK_STR(groups_str("SELECT 1 FROM t GROUP BY ()"), "[] {}");
    CHECK_STR(groups_str("SELECT 1 FROM t GROUP BY a, ()"), "[a] {0}");
    CHECK_STR(groups_str("SELECT 1 FROM t GROUP BY ROLLUP ((a, b), c)"), "[a|b|c] {0,1,2}{0,1}{}");
    CHECK_STR(groups_str("SELECT 1 FROM t GROUP BY ROLLUP (a), CUBE (b)"), "[a|b] {0,1}{0}{1}{}");
    CHECK_STR(groups_str("SELECT 1 FROM t GROUP BY ROLLUP (), CUBE ()"), "[] {}");
    CHECK_STR(groups_str("SELECT 1 FROM t GROUP BY GROUPING SETS (a, b), GROUPING SETS (c, d)"),
              "[a|b|c|d] {0,2}{0,3}{1,2}{1,3}");
    /* duplicates stay, unless DISTINCT (sets compare as sets) */
    CHECK_STR(groups_str("SELECT 1 FROM t GROUP BY a, ROLLUP (a, b)"), "[a|b] {0,1}{0}{0}");
    CHECK_STR(groups_str("SELECT 1 FROM t GROUP BY DISTINCT a, ROLLUP (a, b)"), "[a|b] {0,1}{0}");
    CHECK_STR(groups_str("SELECT 1 FROM t GROUP BY ROLLUP (a, b), ROLLUP (a, c)"),
              "[a|b|c] {0,1,2}{0,1}{0,1}{0,2}{0}{0}{0,2}{0}{}");
    CHECK_STR(groups_str("SELECT 1 FROM t GROUP BY DISTINCT ROLLUP (a, b), ROLLUP (a, c)"),
              "[a|b|c] {0,1,2}{0,1}{0,2}{0}{}");
    CHECK_STR(groups_str("SELECT 1 FROM t GROUP BY DISTINCT GROUPING SETS ((a, b), (b, a))"),
              "[a|b] {0,1}");
    CHECK_STR(groups_str("SELECT 1 FROM t GROUP BY GROUPING SETS ((a, b), (b, a))"),
              "[a|b] {0,1}{1,0}");
    /* the largest CUBE, and the limit on sets */
    q = q_of("SELECT 1 FROM t GROUP BY CUBE (a, b, c, d, e, f, g, h, i, j, k, l)");
    CHECK(q && q->n_grouping_sets == 4096 && q->grouping_set_len[0] == 12 &&
          q->grouping_set_len[4095] == 0);
    SYN("SELECT 1 FROM t GROUP BY CUBE (a, b, c, d, e, f, g, h, i, j, k, l, m)",
        "syntax error at line 1:26: CUBE of 13 elements would make 2^13 grouping sets; at most 12 "
        "elements are allowed");
    SYN("SELECT 1 FROM t GROUP BY x, CUBE (a, b, c, d, e, f, g, h, i, j, k, l), ROLLUP (m)",
        "syntax error at line 1:26: GROUP BY makes more than 4096 grouping sets");
    SYN("SELECT 1 FROM t GROUP BY GROUPING SETS (ROLLUP (a))",
        "syntax error at line 1:41: ROLLUP cannot be nested inside GROUPING SETS");
    SYN("SELECT 1 FROM t GROUP BY CUBE (GROUPING SETS (a))",
        "syntax error at line 1:32: GROUPING SETS cannot be nested inside CUBE");
    SYN("SELECT 1 FROM t GROUP BY GROUPING SETS ()",
        "syntax error at line 1:41: expected expression, found ')'");
    SYN("SELECT 1 FROM t GROUP BY GROUPING SETS (a b)",
        "syntax error at line 1:43: expected ',' or ')', found 'b'");
    SYN("SELECT 1 FROM t GROUP BY ROLLUP (a, (b, c)", /* never closed: a set list */
        "syntax error at line 1:43: expected ',' or ')', found end of input");
    SYN("SELECT 1 FROM t GROUP BY (a, b",
        "syntax error at line 1:31: expected ',' or ')', found end of input");
    SYN("SELECT 1 FROM t GROUP BY",
        "syntax error at line 1:25: expected expression, found end of input");
    NSUP("SELECT a, count(*) FROM t GROUP BY ALL",
         "GROUP BY ALL (grouping by every select item that is not an aggregate) is not "
         "supported; list the grouping expressions");
}

static void test_render_round_trip(void) {
    /* rendered windows, FILTER and IGNORE NULLS parse back to the same text */
    static const char *const exprs[] = {
        "sum(x) FILTER (WHERE y > 1 AND z) OVER (PARTITION BY a, b + 1 ORDER BY c DESC NULLS "
        "LAST RANGE BETWEEN 2 PRECEDING AND UNBOUNDED FOLLOWING)",
        "lag(x, 2, 0) IGNORE NULLS OVER (ORDER BY t ROWS 5 PRECEDING)",
        "count(*) OVER ()",
        "first_value(x) RESPECT NULLS OVER (GROUPS CURRENT ROW)",
        "rank() OVER (ORDER BY CASE WHEN a THEN 1 END NULLS FIRST)",
    };
    for (size_t i = 0; i < SQE_ARRAY_LEN(exprs); i++) {
        const char *once = ex(exprs[i]);
        const char *twice = ex(once);
        CHECK_STR(twice, once);
    }
}

/* ---------------------------------------------------------- statements */

static void test_explain_use_describe_show(void) {
    sqe_ast_stmt *st = parse("EXPLAIN SELECT 1");
    CHECK(st && st->kind == SQE_STMT_EXPLAIN && !st->u.explain.analyze);
    if (st) {
        CHECK(st->u.explain.stmt->kind == SQE_STMT_SELECT);
        CHECK_STR(st->u.explain.stmt->text, "SELECT 1");
    }
    st = parse("explain analyze select * from t;");
    CHECK(st && st->u.explain.analyze);
    if (st) CHECK_STR(st->text, "explain analyze select * from t");

    st = parse("SELECT 1;;");
    CHECK(st != NULL);
    if (st) CHECK_STR(st->text, "SELECT 1");
    st = parse("USE root.db");
    CHECK(st && st->kind == SQE_STMT_USE && st->u.use.name.n_parts == 2);
    st = parse("DESCRIBE root.db.t");
    CHECK(st && st->kind == SQE_STMT_DESCRIBE && !st->u.target.extended &&
          st->u.target.name.n_parts == 3);
    st = parse("DESC EXTENDED t");
    CHECK(st && st->kind == SQE_STMT_DESCRIBE && st->u.target.extended);
    st = parse("describe formatted `db.t`");
    CHECK(st && st->u.target.extended && st->u.target.name.n_parts == 2);
    st = parse("DESCRIBE TABLE db.t");
    CHECK(st && st->kind == SQE_STMT_DESCRIBE && st->u.target.name.n_parts == 2);
    st = parse("DESCRIBE extended");
    CHECK(st && !st->u.target.extended);
    if (st) CHECK_STR(st->u.target.name.parts[0].name, "extended");

    st = parse("SHOW CREATE TABLE `mydb.t`");
    CHECK(st && st->kind == SQE_STMT_SHOW_CREATE_TABLE && st->u.target.name.n_parts == 2);
    st = parse("SHOWDDL db.t");
    CHECK(st && st->kind == SQE_STMT_SHOW_CREATE_TABLE);
    st = parse("SHOW TABLES");
    CHECK(st && st->kind == SQE_STMT_SHOW_TABLES && !st->u.show.from && !st->u.show.like);
    st = parse("SHOW TABLES FROM root.db LIKE 'sa%'");
    CHECK(st && st->u.show.from && st->u.show.from->n_parts == 2);
    if (st) CHECK_STR(st->u.show.like, "sa%");
    st = parse("show tables in db");
    CHECK(st && st->u.show.from);
    st = parse("SHOW DATABASES");
    CHECK(st && st->kind == SQE_STMT_SHOW_DATABASES);
    st = parse("SHOW SCHEMAS FROM root LIKE 'x'");
    CHECK(st && st->kind == SQE_STMT_SHOW_DATABASES && st->u.show.from && st->u.show.like);
    st = parse("SHOW COLUMNS FROM db.t");
    CHECK(st && st->kind == SQE_STMT_SHOW_COLUMNS && st->u.target.name.n_parts == 2);
    st = parse("SHOW COLUMNS IN t FROM db");
    CHECK(st && st->kind == SQE_STMT_SHOW_COLUMNS);
    if (st) CHECK_STR(qname_str(&st->u.target.name), "db|t");
    st = parse("SHOW PARTITIONS db.t");
    CHECK(st && st->kind == SQE_STMT_SHOW_PARTITIONS && st->u.target.name.n_parts == 2);
    st = parse("SHOW FUNCTIONS");
    CHECK(st && st->kind == SQE_STMT_SHOW_FUNCTIONS && !st->u.show.like);
    st = parse("SHOW FUNCTIONS LIKE 'a%'");
    CHECK(st && st->kind == SQE_STMT_SHOW_FUNCTIONS && st->u.show.like);
    if (st) CHECK_STR(st->u.show.like, "a%");
    st = parse("SHOW GRANTS");
    CHECK(st && st->kind == SQE_STMT_UNSUPPORTED);
    if (st) CHECK_STR(st->u.unsupported.what, "SHOW GRANTS");
    st = parse("SHOW CREATE VIEW v");
    CHECK(st && st->kind == SQE_STMT_UNSUPPORTED);
    if (st) CHECK_STR(st->u.unsupported.what, "SHOW CREATE VIEW");
}

static void test_attach_detach(void) {
    sqe_ast_stmt *st = parse("ATTACH 's3://bucket/warehouse/' AS lake (TYPE hive_external)");
    CHECK(st && st->kind == SQE_STMT_ATTACH);
    if (!st) return;
    CHECK_STR(st->u.attach.url, "s3://bucket/warehouse/");
    CHECK_STR(st->u.attach.name.name, "lake");
    CHECK_STR(st->u.attach.type, "hive_external");
    CHECK(st->u.attach.type_pos.col == 47 && !st->u.attach.if_not_exists &&
          st->u.attach.n_options == 0);

    st = parse("ATTACH DATABASE IF NOT EXISTS '/data/wh' AS w (TYPE 'hive', READ_ONLY, region "
               "'eu-west-1')");
    CHECK(st && st->u.attach.if_not_exists);
    if (st) {
        CHECK_STR(st->u.attach.type, "hive");
        CHECK(st->u.attach.n_options == 2);
        CHECK_STR(st->u.attach.options[0].key, "READ_ONLY");
        CHECK_STR(st->u.attach.options[0].value, "true");
        CHECK_STR(st->u.attach.options[1].value, "eu-west-1");
    }
    st = parse("ATTACH 'file:///tmp/x' AS x");
    CHECK(st && !st->u.attach.type);

    st = parse("DETACH lake");
    CHECK(st && st->kind == SQE_STMT_DETACH && !st->u.detach.if_exists);
    if (st) CHECK_STR(st->u.detach.name.name, "lake");
    st = parse("DETACH DATABASE IF EXISTS lake");
    CHECK(st && st->u.detach.if_exists);
    if (st) CHECK_STR(st->u.detach.name.name, "lake");
}

static void test_database_statements(void) {
    sqe_ast_stmt *st = parse("CREATE DATABASE IF NOT EXISTS lake.sales COMMENT 'Sales data' "
                             "WITH DBPROPERTIES ('owner'='bi')");
    CHECK(st && st->kind == SQE_STMT_CREATE_DATABASE);
    if (st) {
        CHECK(st->u.create_database.if_not_exists && !st->u.create_database.schema_keyword);
        CHECK_STR(qname_str(&st->u.create_database.name), "lake|sales");
        CHECK_STR(st->u.create_database.comment, "Sales data");
        CHECK(!st->u.create_database.location && st->u.create_database.n_props == 1);
    }
    st = parse("create schema s location 's3://b/s/'");
    CHECK(st && st->u.create_database.schema_keyword);
    if (st) CHECK_STR(st->u.create_database.location, "s3://b/s/");

    st = parse("DROP DATABASE lake.sales");
    CHECK(st && st->kind == SQE_STMT_DROP_DATABASE && !st->u.drop_database.if_exists &&
          !st->u.drop_database.cascade);
    st = parse("DROP SCHEMA IF EXISTS s CASCADE");
    CHECK(st && st->u.drop_database.if_exists && st->u.drop_database.cascade);
    st = parse("DROP SCHEMA s RESTRICT");
    CHECK(st && !st->u.drop_database.cascade);

    st = parse("DROP TABLE IF EXISTS `db.t` PURGE");
    CHECK(st && st->kind == SQE_STMT_DROP_TABLE && st->u.drop_table.if_exists &&
          st->u.drop_table.purge && !st->u.drop_table.view && st->u.drop_table.name.n_parts == 2);
    st = parse("DROP TABLE t");
    CHECK(st && !st->u.drop_table.if_exists && !st->u.drop_table.purge);
    st = parse("DROP VIEW IF EXISTS root.db.v");
    CHECK(st && st->kind == SQE_STMT_DROP_TABLE && st->u.drop_table.view &&
          st->u.drop_table.name.n_parts == 3);
}

static void test_secret_statements(void) {
    sqe_ast_stmt *st = parse("CREATE OR REPLACE TEMPORARY SECRET IF NOT EXISTS s (TYPE s3, "
                             "KEY_ID 'AK', Secret 'sk', USE_SSL false);");
    CHECK(st && st->kind == SQE_STMT_CREATE_SECRET);
    if (st && st->kind == SQE_STMT_CREATE_SECRET) {
        CHECK(st->u.create_secret.or_replace && st->u.create_secret.if_not_exists &&
              !st->u.create_secret.persistent);
        CHECK_STR(st->u.create_secret.name.name, "s");
        CHECK(st->u.create_secret.n_options == 4);
        CHECK_STR(st->u.create_secret.options[0].key, "type");
        CHECK_STR(st->u.create_secret.options[0].value, "s3");
        CHECK_STR(st->u.create_secret.options[2].key, "secret");
        CHECK_STR(st->u.create_secret.options[2].value, "sk");
        CHECK_STR(st->u.create_secret.options[3].value, "false");
    }
    st = parse("CREATE PERSISTENT SECRET p (TYPE S3)");
    CHECK(st && st->kind == SQE_STMT_CREATE_SECRET && st->u.create_secret.persistent);
    st = parse("DROP SECRET IF EXISTS s");
    CHECK(st && st->kind == SQE_STMT_DROP_SECRET && st->u.drop_secret.if_exists);
    st = parse("DROP PERSISTENT SECRET s");
    CHECK(st && st->kind == SQE_STMT_DROP_SECRET && !st->u.drop_secret.if_exists);
    st = parse("SHOW SECRETS");
    CHECK(st && st->kind == SQE_STMT_SHOW_SECRETS);
    /* Syntax errors never quote the token: it may be a key. */
    const char *bad[] = {"CREATE SECRET s (TYPE S3, KEY_ID 'AK' 'hush-123')",
                         "CREATE SECRET s (TYPE S3) 'hush-123'",
                         "CREATE SECRET s ('hush-123')",
                         "CREATE SECRET s 'hush-123'",
                         "CREATE SECRET s (SECRET = 'hush-123')",
                         "CREATE SECRET s (SECRET hush-123)",
                         "CREATE SECRET s (SECRET 'hush-123'"};
    for (size_t i = 0; i < SQE_ARRAY_LEN(bad); i++) {
        sqe_arena *a = sqe_arena_new(0);
        sqe_error err;
        sqe_error_clear(&err);
        CHECK(sqe_sql_parse(a, bad[i], &err) == NULL);
        CHECK(err.cls == SQE_ERR_SYNTAX);
        CHECK(strstr(err.msg, "hush") == NULL);
        sqe_arena_free(a);
    }
}

static void check_unsupported(const char *sql, const char *what) {
    sqe_ast_stmt *st = parse(sql);
    CHECK(st && st->kind == SQE_STMT_UNSUPPORTED);
    if (st && st->kind == SQE_STMT_UNSUPPORTED) CHECK_STR(st->u.unsupported.what, what);
}

/* ANALYZE (Hive's and Trino's forms) and SHOW STATS FOR (SPEC §8). */
static void test_analyze(void) {
    sqe_ast_stmt *st = parse("ANALYZE TABLE db.t COMPUTE STATISTICS");
    CHECK(st && st->kind == SQE_STMT_ANALYZE);
    if (st && st->kind == SQE_STMT_ANALYZE) {
        CHECK(st->u.analyze.name.n_parts == 2);
        CHECK(st->u.analyze.n_cols == 0);
    }
    st = parse("analyze t");
    CHECK(st && st->kind == SQE_STMT_ANALYZE && st->u.analyze.n_cols == 0);
    st = parse("ANALYZE TABLE t COMPUTE STATISTICS FOR COLUMNS a, \"B\"");
    CHECK(st && st->kind == SQE_STMT_ANALYZE && st->u.analyze.n_cols == 2);
    if (st && st->kind == SQE_STMT_ANALYZE && st->u.analyze.n_cols == 2) {
        CHECK_STR(st->u.analyze.cols[0].name, "a");
        CHECK_STR(st->u.analyze.cols[1].name, "B");
    }
    st = parse("ANALYZE TABLE t COMPUTE STATISTICS FOR COLUMNS");
    CHECK(st && st->kind == SQE_STMT_ANALYZE && st->u.analyze.n_cols == 0);
    st = parse("SHOW STATS FOR r.d.t");
    CHECK(st && st->kind == SQE_STMT_SHOW_STATS && st->u.target.name.n_parts == 3);
    CHECK(parse("ANALYZE TABLE t") == NULL);         /* COMPUTE STATISTICS expected */
    CHECK(parse("ANALYZE TABLE t COMPUTE") == NULL); /* STATISTICS expected */
    CHECK(parse("ANALYZE TABLE t COMPUTE STATISTICS FOR a") == NULL); /* COLUMNS expected */
    CHECK(parse("ANALYZE TABLE t COMPUTE STATISTICS FOR COLUMNS a,") == NULL);
}

static void test_unsupported_statements(void) {
    check_unsupported("INSERT INTO t VALUES (1, 'a;b')", "INSERT");
    check_unsupported("INSERT OVERWRITE TABLE t SELECT * FROM u", "INSERT OVERWRITE");
    check_unsupported("UPDATE t SET a = 1", "UPDATE");
    check_unsupported("UPDATE STATISTICS FOR TABLE t", "UPDATE STATISTICS");
    check_unsupported("DELETE FROM t WHERE a = 1", "DELETE");
    check_unsupported("MERGE INTO t USING u ON t.a = u.a WHEN MATCHED THEN DELETE", "MERGE");
    sqe_ast_stmt *ms = parse("MSCK REPAIR TABLE db.t");
    CHECK(ms && ms->kind == SQE_STMT_MSCK_REPAIR);
    ms = parse("ALTER TABLE t ADD PARTITION (dt='2024-01-01') LOCATION 's3://b/x/'");
    CHECK(ms && ms->kind == SQE_STMT_ALTER_PARTITIONS);
    check_unsupported("ALTER TABLE t RENAME TO u", "ALTER TABLE ... RENAME TO");
    check_unsupported("ALTER TABLE t PARTITION (dt='x') SET LOCATION 's3://b/'",
                      "ALTER TABLE ... PARTITION");
    check_unsupported("ALTER TABLE t DROP PARTITION (dt='x') PURGE",
                      "ALTER TABLE DROP PARTITION ... PURGE (sqe never deletes data; drop without "
                      "PURGE)");
    check_unsupported("ALTER VIEW v AS SELECT 1", "ALTER VIEW");
    check_unsupported("ANALYZE TABLE t COMPUTE STATISTICS NOSCAN",
                      "ANALYZE ... COMPUTE STATISTICS NOSCAN");
    check_unsupported("ANALYZE t WITH (partitions = ARRAY[ARRAY['1']])",
                      "ANALYZE ... WITH (properties)");
    check_unsupported("SHOW STATS FOR (SELECT 1)", "SHOW STATS FOR (query)");
    check_unsupported("CREATE VIEW v AS SELECT 1", "CREATE VIEW");
    check_unsupported("CREATE OR REPLACE VIEW v AS SELECT 1", "CREATE OR REPLACE VIEW");
    check_unsupported("GRANT SELECT ON t TO alice", "GRANT");
    check_unsupported("REVOKE SELECT ON t FROM alice", "REVOKE");
    check_unsupported("CALL system.refresh_catalog_cache(table => 'r.d.t')", "CALL");
    check_unsupported("SET SESSION x = 1", "SET");
    check_unsupported("REPLACE INTO t VALUES (1)", "REPLACE INTO");
    check_unsupported("TRUNCATE TABLE t", "TRUNCATE");
    sqe_ast_stmt *st = parse("insert into t values (1);");
    CHECK(st != NULL);
    if (st) CHECK_STR(st->text, "insert into t values (1)");
}

/* MSCK REPAIR TABLE and ALTER TABLE ADD/DROP PARTITION (parse_ddl.c). */
static void test_partition_statements(void) {
    sqe_ast_stmt *st = parse("MSCK REPAIR TABLE db.t");
    CHECK(st && st->kind == SQE_STMT_MSCK_REPAIR);
    if (st) CHECK(st->u.msck.name.n_parts == 2 && st->u.msck.add && !st->u.msck.drop);
    st = parse("msck repair table t sync partitions");
    CHECK(st && st->kind == SQE_STMT_MSCK_REPAIR && st->u.msck.add && st->u.msck.drop);
    st = parse("MSCK REPAIR TABLE t DROP PARTITIONS");
    CHECK(st && !st->u.msck.add && st->u.msck.drop);
    st = parse("ALTER TABLE t ADD IF NOT EXISTS PARTITION (dt='2024-01-01', n = -5) LOCATION "
               "'s3://b/x/' PARTITION (dt=\"2024-01-02\", n=1.5)");
    CHECK(st && st->kind == SQE_STMT_ALTER_PARTITIONS);
    if (st && st->kind == SQE_STMT_ALTER_PARTITIONS) {
        CHECK(!st->u.alter_partitions.drop && st->u.alter_partitions.if_flag);
        CHECK(st->u.alter_partitions.n_specs == 2);
        const sqe_ast_part_spec *p0 = &st->u.alter_partitions.specs[0];
        CHECK(p0->n_kvs == 2);
        CHECK_STR(p0->kvs[0].key, "dt");
        CHECK_STR(p0->kvs[0].value, "2024-01-01");
        CHECK_STR(p0->kvs[1].value, "-5");
        CHECK_STR(p0->location, "s3://b/x/");
        CHECK_STR(st->u.alter_partitions.specs[1].kvs[0].value, "2024-01-02");
        CHECK_STR(st->u.alter_partitions.specs[1].kvs[1].value, "1.5");
        CHECK(st->u.alter_partitions.specs[1].location == NULL);
    }
    st = parse("ALTER TABLE t DROP IF EXISTS PARTITION (a='1'), PARTITION (a='2')");
    CHECK(st && st->kind == SQE_STMT_ALTER_PARTITIONS && st->u.alter_partitions.drop &&
          st->u.alter_partitions.if_flag && st->u.alter_partitions.n_specs == 2);
    CHECK_CONTAINS(perr("ALTER TABLE t DROP PARTITION (a='1') LOCATION 'x'"), "expected");
    CHECK_CONTAINS(perr("ALTER TABLE t ADD PARTITION (a)"), "expected '='");
    CHECK_CONTAINS(perr("ALTER TABLE t ADD PARTITION (a=b)"), "partition value");
    CHECK_CONTAINS(perr("ALTER TABLE t ADD PARTITION ()"), "partition key name");
    CHECK_CONTAINS(perr("MSCK REPAIR t"), "expected TABLE");
}

/* ---------------------------------------------------------- CREATE TABLE */

static void test_create_table_basic(void) {
    sqe_ast_create_table *ct =
        ct_of("CREATE EXTERNAL TABLE IF NOT EXISTS lake.sales.orders (\n"
              "  id BIGINT COMMENT 'order id',\n"
              "  `date` DATE,\n"
              "  amount DECIMAL(10,2),\n"
              "  note VARCHAR(200),\n"
              "  tags array<string>,\n"
              "  attrs map<string,array<int>>,\n"
              "  info STRUCT<a:INT, b:string, `c d`:decimal(5,1)>,\n"
              "  u uniontype<int,string>,\n"
              "  score double precision\n"
              ")\n"
              "COMMENT 'orders table'\n"
              "PARTITIONED BY (dt string COMMENT 'day', country varchar(2))\n"
              "ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' ESCAPED BY '\\\\' COLLECTION ITEMS "
              "TERMINATED BY '|'\n"
              "  MAP KEYS TERMINATED BY ':' LINES TERMINATED BY '\\n' NULL DEFINED AS ''\n"
              "STORED AS TEXTFILE\n"
              "LOCATION 's3://bucket/orders/'\n"
              "TBLPROPERTIES ('skip.header.line.count'='1', 'classification'='csv');");
    CHECK(ct != NULL);
    if (!ct) return;
    CHECK(ct->external && !ct->temporary && ct->if_not_exists && !ct->or_replace);
    CHECK_STR(qname_str(&ct->name), "lake|sales|orders");
    CHECK(ct->has_column_list && ct->n_columns == 9);
    CHECK_STR(ct->columns[0].name.name, "id");
    CHECK_STR(ct->columns[0].type.name, "bigint");
    CHECK_STR(ct->columns[0].comment, "order id");
    CHECK_STR(ct->columns[1].name.name, "date");
    CHECK(ct->columns[1].name.quoted && !ct->columns[1].comment);
    CHECK_STR(ct->columns[2].type.name, "decimal");
    CHECK(ct->columns[2].type.n_params == 2 && ct->columns[2].type.params[0] == 10);
    CHECK_STR(ct->columns[2].type.text, "decimal(10,2)");
    CHECK(ct->columns[3].type.n_params == 1 && ct->columns[3].type.params[0] == 200);
    CHECK_STR(ct->columns[4].type.name, "array");
    CHECK_STR(ct->columns[4].type.text, "array<string>");
    CHECK_STR(ct->columns[5].type.name, "map");
    CHECK_STR(ct->columns[5].type.text, "map<string,array<int>>");
    CHECK_STR(ct->columns[6].type.name, "struct");
    CHECK_STR(ct->columns[6].type.text, "struct<a:int,b:string,`c d`:decimal(5,1)>");
    CHECK_STR(ct->columns[7].type.text, "uniontype<int,string>");
    CHECK_STR(ct->columns[8].type.name, "double");
    CHECK_STR(ct->columns[8].type.text, "double precision");
    CHECK(ct->columns[4].type.pos.line == 6 && ct->columns[4].type.pos.col == 8);
    CHECK_STR(ct->comment, "orders table");
    CHECK(ct->n_partition_cols == 2 && ct->n_partition_names == 0);
    CHECK_STR(ct->partition_cols[0].comment, "day");
    CHECK_STR(ct->partition_cols[1].type.text, "varchar(2)");
    CHECK(ct->row_format == SQE_ROW_FORMAT_DELIMITED && ct->row_format_pos.line == 14);
    CHECK_STR(ct->fields_terminated, ",");
    CHECK_STR(ct->escaped_by, "\\\\");
    CHECK_STR(ct->collection_terminated, "|");
    CHECK_STR(ct->map_keys_terminated, ":");
    CHECK_STR(ct->lines_terminated, "\\n");
    CHECK_STR(ct->null_defined_as, "");
    CHECK_STR(ct->stored_as, "TEXTFILE");
    CHECK(ct->stored_as_pos.line == 16 && ct->stored_as_pos.col == 1);
    CHECK_STR(ct->location, "s3://bucket/orders/");
    CHECK(ct->n_tblprops == 2);
    CHECK_STR(ct->tblprops[0].key, "skip.header.line.count");
    CHECK_STR(ct->tblprops[0].value, "1");
    CHECK(!ct->clustered && !ct->skewed && !ct->stored_by && !ct->as_select && !ct->like);
}

static void test_create_table_cloudfront(void) {
    /* AWS's published CloudFront standard-log DDL */
    sqe_ast_stmt *st = parse(
        "CREATE EXTERNAL TABLE IF NOT EXISTS cloudfront_standard_logs (\n"
        "  `date` DATE,\n  time STRING,\n  x_edge_location STRING,\n  sc_bytes BIGINT,\n"
        "  c_ip STRING,\n  cs_method STRING,\n  cs_host STRING,\n  cs_uri_stem STRING,\n"
        "  sc_status INT,\n  cs_referrer STRING,\n  cs_user_agent STRING,\n  cs_uri_query STRING,\n"
        "  cs_cookie STRING,\n  x_edge_result_type STRING,\n  x_edge_request_id STRING,\n"
        "  x_host_header STRING,\n  cs_protocol STRING,\n  cs_bytes BIGINT,\n  time_taken FLOAT,\n"
        "  x_forwarded_for STRING,\n  ssl_protocol STRING,\n  ssl_cipher STRING,\n"
        "  x_edge_response_result_type STRING,\n  cs_protocol_version STRING,\n  fle_status "
        "STRING,\n"
        "  fle_encrypted_fields INT,\n  c_port INT,\n  time_to_first_byte FLOAT,\n"
        "  x_edge_detailed_result_type STRING,\n  sc_content_type STRING,\n  sc_content_len "
        "BIGINT,\n"
        "  sc_range_start BIGINT,\n  sc_range_end BIGINT\n)\n"
        "ROW FORMAT DELIMITED \n"
        "FIELDS TERMINATED BY '\\t'\n"
        "LOCATION 's3://amzn-s3-demo-bucket/'\n"
        "TBLPROPERTIES ( 'skip.header.line.count'='2' )");
    CHECK(st && st->kind == SQE_STMT_CREATE_TABLE);
    if (!st) return;
    sqe_ast_create_table *ct = &st->u.create_table;
    CHECK(ct->n_columns == 33);
    CHECK_STR(ct->columns[1].name.name, "time");
    CHECK_STR(ct->columns[18].type.name, "float");
    CHECK_STR(ct->fields_terminated, "\\t"); /* backslash, t: the hive layer decodes it */
    CHECK(!ct->stored_as && !ct->input_format);
    CHECK(ct->n_tblprops == 1);
    CHECK_STR(ct->tblprops[0].value, "2");
    CHECK(st->text[strlen(st->text) - 1] == ')');
}

static void test_create_table_alb_regex(void) {
    /* AWS's ALB access-log DDL: RegexSerDe whose regex holds \" and \\s, and
     * double-quoted TBLPROPERTIES for partition projection */
    const char *sql =
        "CREATE EXTERNAL TABLE IF NOT EXISTS alb_access_logs (\n"
        "  type string, time string, elb string, client_ip string, client_port int,\n"
        "  target_ip string, target_port int, request_processing_time double,\n"
        "  elb_status_code int, target_status_code string, received_bytes bigint,\n"
        "  request_verb string, request_url string, user_agent string, conn_trace_id string\n"
        ")\n"
        "PARTITIONED BY\n(\n day STRING\n)\n"
        "ROW FORMAT SERDE 'org.apache.hadoop.hive.serde2.RegexSerDe'\n"
        "WITH SERDEPROPERTIES (\n"
        "'serialization.format' = '1',\n"
        "'input.regex' =\n"
        "'([^ ]*) ([^ ]*) ([^ ]*):([0-9]*) \\\"([^ ]*) (.*) (- |[^ ]*)\\\" \\\"([^\\\"]*)\\\" "
        "([A-Z0-9-_]+) \\\"([^\\s]+?)\\\" ?([^ ]*)? ?( .*)?'\n"
        ")\n"
        "LOCATION "
        "'s3://amzn-s3-demo-bucket/AWSLogs/<ACCOUNT-NUMBER>/elasticloadbalancing/<REGION>/'\n"
        "TBLPROPERTIES\n(\n"
        " \"projection.enabled\" = \"true\",\n"
        " \"projection.day.type\" = \"date\",\n"
        " \"projection.day.range\" = \"2022/01/01,NOW\",\n"
        " \"projection.day.format\" = \"yyyy/MM/dd\",\n"
        " \"storage.location.template\" = \"s3://amzn-s3-demo-bucket/AWSLogs/${day}\"\n"
        ")";
    sqe_ast_create_table *ct = ct_of(sql);
    CHECK(ct != NULL);
    if (!ct) return;
    CHECK(ct->n_columns == 15);
    CHECK_STR(ct->columns[0].name.name, "type");
    CHECK(ct->n_partition_cols == 1);
    CHECK_STR(ct->partition_cols[0].name.name, "day");
    CHECK(ct->row_format == SQE_ROW_FORMAT_SERDE);
    CHECK_STR(ct->serde_class, "org.apache.hadoop.hive.serde2.RegexSerDe");
    CHECK(ct->n_serde_props == 2);
    CHECK_STR(ct->serde_props[1].key, "input.regex");
    CHECK_STR(ct->serde_props[1].value,
              "([^ ]*) ([^ ]*) ([^ ]*):([0-9]*) \\\"([^ ]*) (.*) (- |[^ ]*)\\\" \\\"([^\\\"]*)\\\" "
              "([A-Z0-9-_]+) \\\"([^\\s]+?)\\\" ?([^ ]*)? ?( .*)?");
    CHECK(ct->n_tblprops == 5);
    CHECK_STR(ct->tblprops[0].key, "projection.enabled");
    CHECK_STR(ct->tblprops[4].value, "s3://amzn-s3-demo-bucket/AWSLogs/${day}");
    CHECK(ct->tblprops[1].pos.line == 21 && ct->tblprops[1].pos.col == 2);

    /* a regex holding \' (Hive escape) lexes as one string in DDL */
    ct = ct_of("CREATE EXTERNAL TABLE t (a string) ROW FORMAT SERDE "
               "'org.apache.hadoop.hive.serde2.RegexSerDe' "
               "WITH SERDEPROPERTIES ('input.regex'='(\\'[^\\']*\\')') LOCATION '/x'");
    CHECK(ct != NULL);
    if (ct) CHECK_STR(ct->serde_props[0].value, "(\\'[^\\']*\\')");
}

static void test_create_table_show_create_output(void) {
    /* Athena's SHOW CREATE TABLE output, back-quoted db.table name included */
    sqe_ast_stmt *st = parse("CREATE EXTERNAL TABLE `sampledb.sales`(\n"
                             "  `id` bigint, \n"
                             "  `name` string, \n"
                             "  `amount` decimal(10,2))\n"
                             "PARTITIONED BY ( \n"
                             "  `dt` string)\n"
                             "ROW FORMAT SERDE \n"
                             "  'org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe' \n"
                             "WITH SERDEPROPERTIES ( \n"
                             "  'field.delim'=',', \n"
                             "  'serialization.format'=',') \n"
                             "STORED AS INPUTFORMAT \n"
                             "  'org.apache.hadoop.mapred.TextInputFormat' \n"
                             "OUTPUTFORMAT \n"
                             "  'org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat'\n"
                             "LOCATION\n"
                             "  's3://bucket/sales'\n"
                             "TBLPROPERTIES (\n"
                             "  'skip.header.line.count'='1', \n"
                             "  'transient_lastDdlTime'='1700000000')");
    CHECK(st && st->kind == SQE_STMT_CREATE_TABLE);
    if (!st) return;
    sqe_ast_create_table *ct = &st->u.create_table;
    CHECK_STR(qname_str(&ct->name), "sampledb|sales");
    CHECK(ct->name.parts[0].quoted && ct->name.parts[1].quoted);
    CHECK(ct->n_columns == 3 && ct->columns[0].name.quoted);
    CHECK(ct->n_partition_cols == 1);
    CHECK_STR(ct->serde_class, "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe");
    CHECK(ct->n_serde_props == 2);
    CHECK_STR(ct->serde_props[0].value, ",");
    CHECK(!ct->stored_as);
    CHECK_STR(ct->input_format, "org.apache.hadoop.mapred.TextInputFormat");
    CHECK_STR(ct->output_format, "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat");
    CHECK_STR(ct->location, "s3://bucket/sales");
    CHECK(ct->n_tblprops == 2);
}

static void test_create_table_more_aws(void) {
    /* VPC flow logs (AWS docs): `end` is reserved, `date` partition, delimiter ' ' */
    sqe_ast_create_table *ct = ct_of(
        "CREATE EXTERNAL TABLE IF NOT EXISTS `vpc_flow_logs` (\n"
        "  version int,\n  account_id string,\n  interface_id string,\n  srcaddr string,\n"
        "  dstaddr string,\n  srcport int,\n  dstport int,\n  protocol bigint,\n  packets bigint,\n"
        "  bytes bigint,\n  start bigint,\n  `end` bigint,\n  action string,\n  log_status "
        "string\n)\n"
        "PARTITIONED BY (`date` date)\n"
        "ROW FORMAT DELIMITED\n"
        "FIELDS TERMINATED BY ' '\n"
        "LOCATION "
        "'s3://amzn-s3-demo-bucket/prefix/AWSLogs/{account_id}/vpcflowlogs/{region_code}/'\n"
        "TBLPROPERTIES (\"skip.header.line.count\"=\"1\");");
    CHECK(ct && ct->n_columns == 14 && ct->n_partition_cols == 1);
    if (ct) {
        CHECK_STR(ct->columns[11].name.name, "end");
        CHECK_STR(ct->fields_terminated, " ");
        CHECK_STR(ct->tblprops[0].key, "skip.header.line.count");
    }
    /* JSON (AWS docs): a struct type spread over lines, lower-case serde keyword */
    ct = ct_of("CREATE EXTERNAL TABLE impressions (\n"
               "    requestbegintime string,\n    adid string,\n    number string,\n"
               "    timers struct\n                <\n                 modellookup:string, \n"
               "                 requestime:string\n                >,\n    threadid string\n"
               ")   PARTITIONED BY (dt string)\n"
               "ROW FORMAT  serde 'org.apache.hive.hcatalog.data.JsonSerDe'\n"
               "LOCATION 's3://DOC-EXAMPLE-BUCKET/impressions';");
    CHECK(ct && ct->n_columns == 5);
    if (ct) {
        CHECK_STR(ct->columns[3].type.text, "struct<modellookup:string,requestime:string>");
        CHECK_STR(ct->serde_class, "org.apache.hive.hcatalog.data.JsonSerDe");
    }
    /* Hive's own SHOW CREATE TABLE output for an ORC table (not EXTERNAL) */
    ct = ct_of("CREATE TABLE `default`.`t`(\n  `a` int)\n"
               "ROW FORMAT SERDE \n  'org.apache.hadoop.hive.ql.io.orc.OrcSerde' \n"
               "STORED AS INPUTFORMAT \n  'org.apache.hadoop.hive.ql.io.orc.OrcInputFormat' \n"
               "OUTPUTFORMAT \n  'org.apache.hadoop.hive.ql.io.orc.OrcOutputFormat'\n"
               "LOCATION\n  'hdfs://nn:8020/warehouse/t'\n"
               "TBLPROPERTIES (\n  'bucketing_version'='2', \n  'transient_lastDdlTime'='1')");
    CHECK(ct && !ct->external && ct->name.n_parts == 2);
    if (ct) CHECK_STR(ct->input_format, "org.apache.hadoop.hive.ql.io.orc.OrcInputFormat");
    /* OpenCSVSerde with quote/escape characters (AWS docs) */
    ct = ct_of("CREATE EXTERNAL TABLE flight_delays_csv (yr INT, quarter INT, origin STRING)\n"
               "PARTITIONED BY (year STRING)\n"
               "ROW FORMAT SERDE 'org.apache.hadoop.hive.serde2.OpenCSVSerde'\n"
               "WITH SERDEPROPERTIES ('separatorChar' = ',', 'quoteChar' = '\\\"', 'escapeChar' = "
               "'\\\\')\n"
               "LOCATION 's3://athena-examples-myregion/flight/csv/'\n"
               "TBLPROPERTIES ('skip.header.line.count'='1')");
    CHECK(ct && ct->n_serde_props == 3);
    if (ct) {
        CHECK_STR(ct->serde_props[1].value, "\\\"");
        CHECK_STR(ct->serde_props[2].value, "\\\\");
    }
}

static void test_create_table_recorded_not_judged(void) {
    /* the parser records what the hive layer rejects by name */
    sqe_ast_create_table *ct = ct_of("CREATE TEMPORARY TABLE t (a int)");
    CHECK(ct && ct->temporary && !ct->external && !ct->location);
    ct = ct_of("CREATE OR REPLACE TABLE t (a int) STORED AS CSV");
    CHECK(ct && ct->or_replace);
    if (ct) CHECK_STR(ct->stored_as, "CSV");
    ct = ct_of("CREATE EXTERNAL TABLE t (a int, b string) CLUSTERED BY (a) SORTED BY (a DESC, b) "
               "INTO 32 BUCKETS "
               "SKEWED BY (b) ON (('x'), ('y')) STORED AS DIRECTORIES STORED AS ORC LOCATION '/x'");
    CHECK(ct && ct->clustered && ct->skewed);
    if (ct) {
        CHECK(ct->clustered_pos.col == 43);
        CHECK(ct->skewed_pos.col == 98);
        CHECK_STR(ct->stored_as, "ORC");
    }
    ct = ct_of("CREATE EXTERNAL TABLE t (k string, v string) STORED BY "
               "'org.apache.hadoop.hive.hbase.HBaseStorageHandler' WITH SERDEPROPERTIES "
               "('hbase.columns.mapping'=':key,cf:v') TBLPROPERTIES ('hbase.table.name'='x')");
    CHECK(ct && ct->stored_by && ct->n_stored_by_props == 1 && ct->stored_by_pos.col == 46);
    if (ct) CHECK_STR(ct->stored_by, "org.apache.hadoop.hive.hbase.HBaseStorageHandler");
    ct = ct_of(
        "CREATE TABLE ctas PARTITIONED BY (dt, country) STORED AS PARQUET LOCATION 's3://b/c/' "
        "AS SELECT a, dt, country FROM src WHERE a > 0");
    CHECK(ct && !ct->has_column_list && ct->as_select && ct->n_partition_names == 2 &&
          ct->n_partition_cols == 0);
    if (ct) {
        CHECK_STR(ct->partition_names[1].name, "country");
        CHECK(ct->as_select->n_items == 3 && ct->as_select->where);
    }
    ct = ct_of("CREATE EXTERNAL TABLE t2 LIKE db.t1 LOCATION 's3://b/t2/'");
    CHECK(ct && ct->like && !ct->has_column_list && ct->like->n_parts == 2);
    ct = ct_of(
        "CREATE EXTERNAL TABLE t (j string) ROW FORMAT SERDE 'org.openx.data.jsonserde.JsonSerDe' "
        "LOCATION 's3://b/j/'");
    CHECK(ct && ct->row_format == SQE_ROW_FORMAT_SERDE && ct->n_serde_props == 0);
    ct = ct_of(
        "create external table t (a int) row format delimited stored as textfile location '/x'");
    CHECK(ct && ct->row_format == SQE_ROW_FORMAT_DELIMITED && !ct->fields_terminated);
    /* reserved words are fine as DDL column names; keyword-named columns too */
    ct = ct_of("CREATE EXTERNAL TABLE t (from string, select int, location string, comment string) "
               "LOCATION '/x'");
    CHECK(ct && ct->n_columns == 4);
    /* Hive's "double-quoted" strings in DDL, clauses in a different order */
    ct = ct_of("CREATE EXTERNAL TABLE t (a int) LOCATION \"/x\" STORED AS PARQUET COMMENT \"c\"");
    CHECK(ct != NULL);
    if (ct) {
        CHECK_STR(ct->location, "/x");
        CHECK_STR(ct->comment, "c");
    }
}

/* -------------------------------------------------------------- errors */

static void test_lexical_errors(void) {
    SYN("SELECT 'abc", "syntax error at line 1:8: unterminated string literal");
    SYN("SELECT a,\n  \"abc", "syntax error at line 2:3: unterminated quoted identifier");
    SYN("SELECT `abc", "syntax error at line 1:8: unterminated quoted identifier");
    SYN("SELECT 1 /* never closed", "syntax error at line 1:10: unterminated comment");
    SYN("SELECT a # b", "syntax error at line 1:10: unexpected character '#'");
    SYN("SELECT a | b", "syntax error at line 1:10: unexpected character '|'");
    SYN("SELECT a ! b", "syntax error at line 1:10: unexpected character '!'");
    SYN("SELECT \x01", "syntax error at line 1:8: unexpected character '\\x01'");
    SYN("SELECT 1abc",
        "syntax error at line 1:8: identifiers must not start with a digit; surround the "
        "identifier with double quotes");
    /* errors come out in source order: the parse error before the lexical one */
    SYN("SELECT FROM 'abc", "syntax error at line 1:8: expected expression, found 'FROM'");
    SYN("CREATE EXTERNAL TABLE t (a string) LOCATION 'abc\\'",
        "syntax error at line 1:45: unterminated string literal");
}

static void test_syntax_errors(void) {
    SYN("", "syntax error at line 1:1: expected statement, found end of input");
    SYN("  -- only a comment\n",
        "syntax error at line 2:1: expected statement, found end of input");
    SYN("foo bar", "syntax error at line 1:1: expected statement, found 'foo'");
    SYN("42", "syntax error at line 1:1: expected statement, found '42'");
    SYN("SELECT", "syntax error at line 1:7: expected expression, found end of input");
    SYN("SELECT a FROM t x y", "syntax error at line 1:19: expected end of input, found 'y'");
    SYN("SELECT 1; SELECT 2", "syntax error at line 1:11: expected end of input, found 'SELECT'");
    SYN("SELECT a,\nFROM t", "syntax error at line 2:1: expected expression, found 'FROM'");
    SYN("SELECT * FROM", "syntax error at line 1:14: expected table name, found end of input");
    SYN("SELECT * FROM t WHERE",
        "syntax error at line 1:22: expected expression, found end of input");
    SYN("SELECT (a + b", "syntax error at line 1:14: expected ')', found end of input");
    SYN("SELECT f(a b)", "syntax error at line 1:12: expected ',' or ')', found 'b'");
    SYN("SELECT \"\" FROM t", "syntax error at line 1:8: zero-length quoted identifier");
    SYN("SELECT * FROM a.b.c.d",
        "syntax error at line 1:15: table name 'a.b.c.d' has too many parts (at "
        "most root.database.table)");
    SYN("SELECT * FROM `db.`",
        "syntax error at line 1:15: empty name part in quoted table name `db.`");
    SYN("SELECT * FROM a.", "syntax error at line 1:17: expected table name, found end of input");
    SYN("SELECT * FROM t ORDER a", "syntax error at line 1:23: expected BY, found 'a'");
    SYN("SELECT * FROM t GROUP a", "syntax error at line 1:23: expected BY, found 'a'");
    SYN("SELECT * FROM t ORDER BY a NULLS",
        "syntax error at line 1:33: expected FIRST or LAST, found end of "
        "input");
    SYN("SELECT * FROM t LIMIT x", "syntax error at line 1:23: expected integer or ALL, found 'x'");
    SYN("SELECT * FROM t OFFSET x", "syntax error at line 1:24: expected integer, found 'x'");
    SYN("SELECT * FROM t FETCH 5", "syntax error at line 1:23: expected FIRST or NEXT, found '5'");
    SYN("SELECT * FROM t FETCH FIRST 5",
        "syntax error at line 1:30: expected ROW or ROWS, found end of input");
    SYN("SELECT * FROM t FETCH FIRST 5 ROWS WITH TIES",
        "syntax error at line 1:36: expected ONLY, found 'WITH'");
    SYN("SELECT * FROM t LIMIT 1 LIMIT 2",
        "syntax error at line 1:25: expected end of input, found 'LIMIT'");
    SYN("SELECT * FROM a JOIN b",
        "syntax error at line 1:23: expected ON or USING, found end of input");
    SYN("SELECT * FROM a LEFT b", "syntax error at line 1:22: expected JOIN, found 'b'");
    SYN("SELECT * FROM a JOIN b USING a", "syntax error at line 1:30: expected '(', found 'a'");
    SYN("SELECT * FROM a JOIN b USING (x",
        "syntax error at line 1:32: expected ',' or ')', found end of input");
    SYN("SELECT * FROM (SELECT 1", "syntax error at line 1:24: expected ')', found end of input");
    SYN("SELECT x IS 5",
        "syntax error at line 1:13: expected NULL, NOT NULL or DISTINCT FROM, found '5'");
    SYN("SELECT x IS NOT 5",
        "syntax error at line 1:17: expected NULL or DISTINCT FROM, found '5'");
    SYN("SELECT x IS DISTINCT y", "syntax error at line 1:22: expected FROM, found 'y'");
    SYN("SELECT x NOT 5",
        "syntax error at line 1:14: expected BETWEEN, IN, LIKE or ILIKE, found '5'");
    SYN("SELECT x BETWEEN 1 OR 2", "syntax error at line 1:20: expected AND, found 'OR'");
    SYN("SELECT x IN 1", "syntax error at line 1:13: expected '(', found '1'");
    SYN("SELECT x IN (1, 2", "syntax error at line 1:18: expected ',' or ')', found end of input");
    SYN("SELECT CASE END", "syntax error at line 1:13: expected expression, found 'END'");
    SYN("SELECT CASE x END", "syntax error at line 1:15: expected WHEN, found 'END'");
    SYN("SELECT CASE WHEN a 1 END", "syntax error at line 1:20: expected THEN, found '1'");
    SYN("SELECT CASE WHEN a THEN 1",
        "syntax error at line 1:26: expected WHEN, ELSE or END, found end of "
        "input");
    SYN("SELECT CASE WHEN a THEN 1 ELSE 2",
        "syntax error at line 1:33: expected END, found end of input");
    SYN("SELECT CAST(x)", "syntax error at line 1:14: expected AS, found ')'");
    SYN("SELECT CAST(x AS)", "syntax error at line 1:17: expected type name, found ')'");
    SYN("SELECT CAST(x AS int", "syntax error at line 1:21: expected ')', found end of input");
    SYN("SELECT CAST(x AS decimal(a))",
        "syntax error at line 1:26: expected type parameter (an integer), "
        "found 'a'");
    SYN("SELECT CAST(x AS decimal(10,2,1))", "syntax error at line 1:30: expected ')', found ','");
    SYN("SELECT CAST(x AS varchar(99999999999))",
        "syntax error at line 1:26: type parameter 99999999999 is "
        "too large");
    SYN("SELECT CAST(x AS array<int)",
        "syntax error at line 1:28: expected '>', found end of input");
    SYN("SELECT EXISTS (1)", "syntax error at line 1:16: expected SELECT, found '1'");
    SYN("SELECT EXISTS 1", "syntax error at line 1:15: expected '(', found '1'");
    SYN("SELECT INTERVAL '1' fortnight",
        "syntax error at line 1:21: expected interval unit (YEAR, MONTH, DAY, "
        "HOUR, MINUTE or SECOND), found 'fortnight'");
    CHECK_STR(ex("interval - x"), "(interval - x)"); /* no string after INTERVAL: a column */
    SYN("SELECT extract(fortnight FROM d)",
        "syntax error at line 1:16: expected date/time field (YEAR, MONTH, "
        "DAY, HOUR, ...), found 'fortnight'");
    SYN("SELECT extract(year d)", "syntax error at line 1:21: expected FROM, found 'd'");
    SYN("SELECT AS", "syntax error at line 1:8: expected expression, found 'AS'");
    SYN("SELECT a AS FROM", "syntax error at line 1:13: expected alias, found 'FROM'");
    SYN("SELECT a FROM t AS", "syntax error at line 1:19: expected alias, found end of input");
    SYN("SELECT 'this string token is much longer than forty bytes' x y",
        "syntax error at line 1:62: expected end of input, found 'y'");
    SYN("SELECT 1 'this string token is much longer than forty bytes, really'",
        "syntax error at line 1:10: expected end of input, found ''this string token is much "
        "longer than "
        "f...'");
    SYN("SELECT 1 'two\nlines'",
        "syntax error at line 1:10: expected end of input, found ''two...'");
    SYN("SELECT a FROM t UNION", "syntax error at line 1:22: expected SELECT, found end of input");
    SYN("EXPLAIN", "syntax error at line 1:8: expected statement, found end of input");
    SYN("(SELECT 1", "syntax error at line 1:10: expected ')', found end of input");
}

static void test_ddl_errors(void) {
    SYN("CREATE",
        "syntax error at line 1:7: expected TABLE, DATABASE, SCHEMA or VIEW, found end of input");
    SYN("CREATE EXTERNAL VIEW v", "syntax error at line 1:17: expected TABLE, found 'VIEW'");
    SYN("CREATE OR TABLE t", "syntax error at line 1:11: expected REPLACE, found 'TABLE'");
    SYN("CREATE OR REPLACE DATABASE d",
        "syntax error at line 1:19: expected TABLE, DATABASE, SCHEMA or VIEW, "
        "found 'DATABASE'");
    SYN("CREATE EXTERNAL TABLE",
        "syntax error at line 1:22: expected table name, found end of input");
    SYN("CREATE EXTERNAL TABLE t ()", "syntax error at line 1:26: expected column name, found ')'");
    SYN("CREATE EXTERNAL TABLE t (a)", "syntax error at line 1:27: expected type name, found ')'");
    SYN("CREATE EXTERNAL TABLE t (a int b int)",
        "syntax error at line 1:32: expected ',' or ')', found 'b'");
    SYN("CREATE EXTERNAL TABLE t (a int COMMENT 5)",
        "syntax error at line 1:40: expected comment (a string "
        "literal), found '5'");
    SYN("CREATE EXTERNAL TABLE t (a map<string,int) LOCATION 'x'",
        "syntax error at line 1:56: expected '>', found end of input");
    SYN("CREATE EXTERNAL TABLE t (a int) LOCATION 'x' LOCATION 'y'",
        "syntax error at line 1:46: duplicate LOCATION clause");
    SYN("CREATE EXTERNAL TABLE t (a int) COMMENT 'x' COMMENT 'y'",
        "syntax error at line 1:45: duplicate COMMENT "
        "clause");
    SYN("CREATE EXTERNAL TABLE t (a int) STORED AS ORC STORED AS PARQUET",
        "syntax error at line 1:47: duplicate STORED clause");
    SYN("CREATE EXTERNAL TABLE t (a int) ROW FORMAT SERDE 'x' ROW FORMAT DELIMITED",
        "syntax error at line 1:54: duplicate ROW FORMAT clause");
    SYN("CREATE EXTERNAL TABLE t (a int) TBLPROPERTIES ('a'='b') TBLPROPERTIES ('c'='d')",
        "syntax error at line 1:57: duplicate TBLPROPERTIES clause");
    SYN("CREATE EXTERNAL TABLE t (a int) PARTITIONED BY (b int) PARTITIONED BY (c int)",
        "syntax error at line 1:56: duplicate PARTITIONED BY clause");
    SYN("CREATE EXTERNAL TABLE t (a int) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' FIELDS "
        "TERMINATED BY ';'",
        "syntax error at line 1:79: duplicate FIELDS TERMINATED BY clause");
    SYN("CREATE EXTERNAL TABLE t (a int) ROW FORMAT JSON",
        "syntax error at line 1:44: expected DELIMITED or "
        "SERDE, found 'JSON'");
    SYN("CREATE EXTERNAL TABLE t (a int) ROW DELIMITED",
        "syntax error at line 1:37: expected FORMAT, found "
        "'DELIMITED'");
    SYN("CREATE EXTERNAL TABLE t (a int) ROW FORMAT DELIMITED FIELDS BY ','",
        "syntax error at line 1:61: expected TERMINATED, found 'BY'");
    SYN("CREATE EXTERNAL TABLE t (a int) ROW FORMAT DELIMITED FIELDS TERMINATED BY x",
        "syntax error at line 1:75: expected delimiter (a string literal), found 'x'");
    SYN("CREATE EXTERNAL TABLE t (a int) ROW FORMAT DELIMITED COLLECTION TERMINATED BY ','",
        "syntax error at line 1:65: expected ITEMS, found 'TERMINATED'");
    SYN("CREATE EXTERNAL TABLE t (a int) ROW FORMAT DELIMITED NULL AS ''",
        "syntax error at line 1:59: expected DEFINED, found 'AS'");
    SYN("CREATE EXTERNAL TABLE t (a int) ROW FORMAT SERDE x",
        "syntax error at line 1:50: expected SerDe class "
        "name (a string literal), found 'x'");
    SYN("CREATE EXTERNAL TABLE t (a int) STORED PARQUET",
        "syntax error at line 1:40: expected AS, found "
        "'PARQUET'");
    SYN("CREATE EXTERNAL TABLE t (a int) STORED AS INPUTFORMAT 'a' 'b'",
        "syntax error at line 1:59: expected OUTPUTFORMAT, found ''b''");
    SYN("CREATE EXTERNAL TABLE t (a int) STORED AS 'orc'",
        "syntax error at line 1:43: expected file format, "
        "found ''orc''");
    SYN("CREATE EXTERNAL TABLE t (a int) LOCATION s3",
        "syntax error at line 1:42: expected location (a string "
        "literal), found 's3'");
    SYN("CREATE EXTERNAL TABLE t (a int) TBLPROPERTIES 'a'='b'",
        "syntax error at line 1:47: expected '(', "
        "found ''a''");
    SYN("CREATE EXTERNAL TABLE t (a int) TBLPROPERTIES ()",
        "syntax error at line 1:48: expected property name "
        "(a string literal), found ')'");
    SYN("CREATE EXTERNAL TABLE t (a int) TBLPROPERTIES ('a' 'b')",
        "syntax error at line 1:52: expected '=', "
        "found ''b''");
    SYN("CREATE EXTERNAL TABLE t (a int) TBLPROPERTIES ('a'=1)",
        "syntax error at line 1:52: expected property "
        "value (a string literal), found '1'");
    SYN("CREATE EXTERNAL TABLE t (a int) TBLPROPERTIES ('a'='b'",
        "syntax error at line 1:55: expected ',' or "
        "')', found end of input");
    SYN("CREATE EXTERNAL TABLE t (a int) PARTITIONED BY (dt, x string)",
        "syntax error at line 1:55: expected ',' or ')', found 'string'"); /* names only, as for dt
                                                                            */
    SYN("CREATE EXTERNAL TABLE t (a int) PARTITIONED (dt string)",
        "syntax error at line 1:45: expected BY, "
        "found '('");
    SYN("CREATE EXTERNAL TABLE t (a int) CLUSTERED BY (a) 4 BUCKETS",
        "syntax error at line 1:50: expected "
        "INTO, found '4'");
    SYN("CREATE EXTERNAL TABLE t (a int) CLUSTERED BY (a) INTO x BUCKETS",
        "syntax error at line 1:55: expected number of buckets, found 'x'");
    SYN("CREATE EXTERNAL TABLE t (a int) CLUSTERED BY (a) INTO 4",
        "syntax error at line 1:56: expected "
        "BUCKETS, found end of input");
    SYN("CREATE EXTERNAL TABLE t (a int) SKEWED BY (a) ON (('x')",
        "syntax error at line 1:56: expected ')', "
        "found end of input");
    SYN("CREATE EXTERNAL TABLE t (a int) SKEWED BY (a) (1)",
        "syntax error at line 1:47: expected ON, found "
        "'('");
    SYN("CREATE EXTERNAL TABLE t (a int) CLUSTERED BY a INTO 2 BUCKETS",
        "syntax error at line 1:46: expected '(', found 'a'");
    SYN("CREATE EXTERNAL TABLE t (a int) CLUSTERED BY (a,) INTO 2 BUCKETS",
        "syntax error at line 1:49: expected column name, found ')'");
    SYN("CREATE TABLE t AS", "syntax error at line 1:18: expected SELECT, found end of input");
    SYN("CREATE TABLE t (a int) LOCATION 'x' bogus",
        "syntax error at line 1:37: expected end of input, found "
        "'bogus'");
    SYN("CREATE DATABASE", "syntax error at line 1:16: expected database name, found end of input");
    SYN("CREATE DATABASE d COMMENT 'a' COMMENT 'b'",
        "syntax error at line 1:31: duplicate COMMENT clause");
    SYN("CREATE DATABASE d LOCATION 'a' LOCATION 'b'",
        "syntax error at line 1:32: duplicate LOCATION clause");
    SYN("CREATE DATABASE d WITH DBPROPERTIES ('a'='b') WITH DBPROPERTIES ('c'='d')",
        "syntax error at line 1:47: duplicate WITH DBPROPERTIES clause");
    SYN("DROP",
        "syntax error at line 1:5: expected TABLE, VIEW, DATABASE or SCHEMA, found end of input");
    SYN("DROP TABLE", "syntax error at line 1:11: expected table name, found end of input");
    SYN("DROP TABLE t CASCADE",
        "syntax error at line 1:14: expected end of input, found 'CASCADE'");
    SYN("DROP VIEW v PURGE", "syntax error at line 1:13: expected end of input, found 'PURGE'");
    SYN("DROP DATABASE", "syntax error at line 1:14: expected database name, found end of input");
    SYN("SHOW", "syntax error at line 1:5: expected TABLES, DATABASES, SCHEMAS, COLUMNS, "
                "PARTITIONS, FUNCTIONS or CREATE "
                "TABLE, found end of input");
    SYN("SHOW CREATE", "syntax error at line 1:12: expected TABLE, found end of input");
    SYN("SHOW COLUMNS t", "syntax error at line 1:14: expected FROM or IN, found 't'");
    SYN("SHOW TABLES FROM",
        "syntax error at line 1:17: expected database name, found end of input");
    SYN("SHOW DATABASES LIKE x",
        "syntax error at line 1:21: expected pattern (a string literal), found 'x'");
    SYN("SHOW PARTITIONS", "syntax error at line 1:16: expected table name, found end of input");
    SYN("DESCRIBE", "syntax error at line 1:9: expected table name, found end of input");
    SYN("USE", "syntax error at line 1:4: expected database name, found end of input");
    SYN("ATTACH lake", "syntax error at line 1:8: expected URL (a string literal), found 'lake'");
    SYN("ATTACH 's3://b/' lake", "syntax error at line 1:18: expected AS, found 'lake'");
    SYN("ATTACH 's3://b/' AS",
        "syntax error at line 1:20: expected database name, found end of input");
    SYN("ATTACH 's3://b/' AS l (TYPE)",
        "syntax error at line 1:28: expected database type, found ')'");
    SYN("ATTACH 's3://b/' AS l (k (v))",
        "syntax error at line 1:26: expected option value, found '('");
    SYN("ATTACH 's3://b/' AS l ('k' 1)",
        "syntax error at line 1:24: expected option name, found ''k''");
    SYN("ATTACH 's3://b/' AS l (TYPE x",
        "syntax error at line 1:30: expected ',' or ')', found end of input");
    SYN("DETACH", "syntax error at line 1:7: expected database name, found end of input");
    SYN("ALTER 5", "syntax error at line 1:7: expected TABLE, found '5'");
}

static void test_table_functions(void) {
    sqe_ast_query *q = q_of("SELECT * FROM read_csv('x.csv', a => 1, b = 'y', c := true, "
                            "columns => {'k': 'INT', 'v': 'VARCHAR'}) AS t");
    CHECK(q && q->from && q->from->kind == SQE_FROM_FUNCTION);
    if (q && q->from && q->from->kind == SQE_FROM_FUNCTION) {
        const sqe_ast_from *f = q->from;
        CHECK_STR(qname_str(&f->u.func.name), "read_csv");
        CHECK(f->u.func.n_args == 5);
        CHECK(f->u.func.args[0].name == NULL && f->u.func.args[0].value != NULL);
        CHECK_STR(f->u.func.args[1].name->name, "a");
        CHECK_STR(f->u.func.args[2].name->name, "b");
        CHECK_STR(f->u.func.args[3].name->name, "c");
        CHECK_STR(f->u.func.args[4].name->name, "columns");
        CHECK(f->u.func.args[4].n_pairs == 2 && f->u.func.args[4].value == NULL);
        CHECK_STR(f->alias->name, "t");
    }
    q = q_of("SELECT * FROM read_parquet()");
    CHECK(q && q->from->kind == SQE_FROM_FUNCTION && q->from->u.func.n_args == 0);
    SYN("SELECT * FROM read_csv('x', m => {})",
        "syntax error at line 1:29: empty map {} as a table function argument");
    SYN("SELECT * FROM read_csv('x', m => {'a' 'b'})",
        "syntax error at line 1:39: expected ':', found ''b''");
    SYN("SELECT * FROM read_csv('x' y)", "syntax error at line 1:28: expected ')', found 'y'");
}

static void test_not_supported_errors(void) {
    NSUP("SELECT * FROM a NATURAL JOIN b", "NATURAL JOIN is not supported");
    NSUP("(SELECT a FROM t ORDER BY a) ORDER BY a",
         "ORDER BY on a parenthesized query that has its own ORDER BY is not supported");
    NSUP("(SELECT a FROM t LIMIT 1) LIMIT 2",
         "LIMIT on a parenthesized query that has its own LIMIT is not supported");
    NSUP("(SELECT a FROM t OFFSET 1) OFFSET 2",
         "OFFSET on a parenthesized query that has its own OFFSET is not supported");
    NSUP("CREATE TABLE t (a int) WITH (format = 'PARQUET')",
         "CREATE TABLE ... WITH (...) table properties are not supported; use STORED AS, LOCATION "
         "and "
         "TBLPROPERTIES");
    /* Athena's CTAS form parses as AS SELECT, so hive/ rejects it as CTAS by name */
    const sqe_ast_create_table *ctas =
        ct_of("CREATE TABLE t WITH (format = 'PARQUET') AS SELECT 1");
    CHECK(ctas != NULL && ctas->as_select != NULL);
}

static void test_limits(void) {
    /* deep nesting fails cleanly instead of exhausting the stack */
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    sqe_strbuf_puts(&sb, "SELECT ");
    for (int i = 0; i < 300; i++) sqe_strbuf_putc(&sb, '(');
    sqe_strbuf_puts(&sb, "1");
    for (int i = 0; i < 300; i++) sqe_strbuf_putc(&sb, ')');
    CHECK_CONTAINS(perr(sb.data), "statement nested too deeply (more than 200 levels)");
    CHECK(E.cls == SQE_ERR_SYNTAX);
    sqe_strbuf_clear(&sb);
    sqe_strbuf_puts(&sb, "SELECT ");
    for (int i = 0; i < 300; i++) sqe_strbuf_puts(&sb, "NOT ");
    sqe_strbuf_puts(&sb, "a");
    CHECK_CONTAINS(perr(sb.data), "nested too deeply");
    sqe_strbuf_clear(&sb);
    sqe_strbuf_puts(&sb, "SELECT 1");
    for (int i = 0; i < 10001; i++) sqe_strbuf_puts(&sb, "+1");
    CHECK_CONTAINS(perr(sb.data),
                   "expression too large (more than 10000 operators in one expression)");
    /* the count is per outermost expression: a wide select list parses */
    sqe_strbuf_clear(&sb);
    sqe_strbuf_puts(&sb, "SELECT a+0");
    for (int i = 1; i < 60000; i++) sqe_strbuf_printf(&sb, ", a+%d", i);
    CHECK(parse(sb.data) != NULL);
    /* ... but operators of a subquery count in the expression around it */
    sqe_strbuf_clear(&sb);
    sqe_strbuf_puts(&sb, "SELECT 1 + (SELECT 1");
    for (int i = 0; i < 6000; i++) sqe_strbuf_puts(&sb, "+1");
    sqe_strbuf_puts(&sb, ") + (SELECT 1");
    for (int i = 0; i < 6000; i++) sqe_strbuf_puts(&sb, "+1");
    sqe_strbuf_puts(&sb, ")");
    CHECK_CONTAINS(perr(sb.data), "more than 10000 operators in one expression");
    /* joins count per statement */
    sqe_strbuf_clear(&sb);
    sqe_strbuf_puts(&sb, "SELECT 1 FROM t0");
    for (int i = 1; i <= 10001; i++) sqe_strbuf_puts(&sb, " CROSS JOIN t");
    CHECK_CONTAINS(perr(sb.data), "statement too large (more than 10000 joins and set operations)");
    /* and the statement's operators in all are bounded (generously) */
    sqe_strbuf_clear(&sb);
    sqe_strbuf_puts(&sb, "SELECT 1");
    for (int i = 0; i < 101; i++) {
        sqe_strbuf_puts(&sb, ", 1");
        for (int k = 0; k < 9999; k++) sqe_strbuf_puts(&sb, "+1");
    }
    CHECK_CONTAINS(perr(sb.data), "statement too large (more than 1000000 operators)");
    sqe_strbuf_clear(&sb);
    sqe_strbuf_puts(&sb, "SELECT 1");
    for (int i = 0; i < 9000; i++) sqe_strbuf_puts(&sb, " OR a");
    CHECK(parse(sb.data) != NULL);
    /* the new recursive constructs hit the same depth limit */
    static const char *const nests[][3] = {
        {"", "WITH a AS (", ") SELECT 1"},
        {"SELECT ", "f() OVER (ORDER BY ", ")"},
        {"SELECT ", "f() OVER (PARTITION BY a ROWS ", " PRECEDING)"},
        {"SELECT ", "f() FILTER (WHERE ", ")"},
        {"SELECT 1 FROM t GROUP BY ", "ROLLUP ((", "))"},
        {"", "VALUES (", ")"},
        {"SELECT * FROM ", "(VALUES (1)) UNION (", ")"},
        {"SELECT * FROM ", "(VALUES 1) AS v (x) JOIN (", ") ON 1 = 1"},
    };
    for (size_t n = 0; n < SQE_ARRAY_LEN(nests); n++) {
        sqe_strbuf_clear(&sb);
        sqe_strbuf_puts(&sb, nests[n][0]);
        for (int i = 0; i < 300; i++) sqe_strbuf_puts(&sb, nests[n][1]);
        sqe_strbuf_puts(&sb, n == 0 || n == 6 ? "SELECT 1" : n == 7 ? "t" : "1");
        for (int i = 0; i < 300; i++) sqe_strbuf_puts(&sb, nests[n][2]);
        CHECK_CONTAINS(perr(sb.data), "nested too deeply");
    }
    sqe_strbuf_free(&sb);
}

/* -------------------------------------------------------------- split */

typedef struct split_ctx {
    int n;
    char texts[8][128];
    int lines[8];
} split_ctx;

static bool collect(const char *text, size_t len, int line, void *ctx_) {
    split_ctx *ctx = ctx_;
    if (ctx->n < 8) {
        snprintf(ctx->texts[ctx->n], sizeof ctx->texts[0], "%.*s", (int)len, text);
        ctx->lines[ctx->n] = line;
    }
    ctx->n++;
    return ctx->n < 5;
}

static void test_split(void) {
    split_ctx c = {0};
    CHECK(sqe_sql_split(
        "SELECT 1;\n-- comment; here\nSELECT ';' AS \"a;b\", `c;d` /* ; */ ;  ;\n\n"
        "CREATE EXTERNAL TABLE t (a string) ROW FORMAT DELIMITED FIELDS TERMINATED BY '\\'' "
        "LOCATION 'x';\n  SELECT 'tail'",
        collect, &c));
    CHECK(c.n == 4);
    CHECK_STR(c.texts[0], "SELECT 1");
    CHECK(c.lines[0] == 1);
    CHECK_STR(c.texts[1], "SELECT ';' AS \"a;b\", `c;d` /* ; */");
    CHECK(c.lines[1] == 3);
    CHECK_STR(c.texts[2],
              "CREATE EXTERNAL TABLE t (a string) ROW FORMAT DELIMITED FIELDS TERMINATED BY '\\'' "
              "LOCATION 'x'");
    CHECK(c.lines[2] == 5);
    CHECK_STR(c.texts[3], "SELECT 'tail'");
    CHECK(c.lines[3] == 6);

    /* the callback can stop the split */
    split_ctx c2 = {0};
    CHECK(!sqe_sql_split("a;b;c;d;e;f;g", collect, &c2));
    CHECK(c2.n == 5);

    /* whitespace- and comment-only input gives nothing; an unterminated quote runs to the end */
    split_ctx c3 = {0};
    CHECK(sqe_sql_split("  -- x\n /* y */ ; ", collect, &c3));
    CHECK(c3.n == 0);
    CHECK(sqe_sql_split("SELECT 'a;b", collect, &c3));
    CHECK(c3.n == 1);
    CHECK_STR(c3.texts[0], "SELECT 'a;b");

    /* a split piece parses on its own */
    CHECK(parse(c.texts[2]) != NULL);

    /* regression: a backslash-newline inside a Hive-dialect string counts one line, not two */
    split_ctx c4 = {0};
    CHECK(
        sqe_sql_split("CREATE TABLE t (a int) ROW FORMAT DELIMITED FIELDS TERMINATED BY 'a\\\nb';\n"
                      "SELECT 1",
                      collect, &c4));
    CHECK(c4.n == 2);
    CHECK(c4.lines[0] == 1);
    CHECK(c4.lines[1] == 3);
}

static void test_is_complete(void) {
    CHECK(sqe_sql_is_complete("SELECT 1;"));
    CHECK(sqe_sql_is_complete("SELECT 1;\nSELECT"));
    CHECK(!sqe_sql_is_complete("SELECT 1"));
    CHECK(!sqe_sql_is_complete("SELECT ';'"));
    CHECK(!sqe_sql_is_complete("SELECT \"a;\""));
    CHECK(!sqe_sql_is_complete("SELECT `a;`"));
    CHECK(!sqe_sql_is_complete("SELECT 1 -- ;"));
    CHECK(sqe_sql_is_complete("SELECT 1 -- ;\n;"));
    CHECK(!sqe_sql_is_complete("SELECT 1 /* ; */"));
    CHECK(!sqe_sql_is_complete("SELECT 'it''s;"));
    CHECK(sqe_sql_is_complete("SELECT 'it''s';"));
    CHECK(!sqe_sql_is_complete(
        "CREATE EXTERNAL TABLE t (a string) ROW FORMAT DELIMITED FIELDS TERMINATED "
        "BY '\\';'"));
    CHECK(sqe_sql_is_complete("SELECT 'a\\';"));
    CHECK(!sqe_sql_is_complete(""));
}

/* Regression (issue 7, item 4): a NUL byte silently ended a script
 * (`SELECT 1;\nSELECT 2; -- \0\nSELECT 3;` never ran SELECT 3). Scripts
 * are split by length; a NUL byte stays inside a statement, where
 * sqe_sql_check_text names its line:column. A BOM before a statement is
 * skipped. */
typedef struct bytes_ctx {
    int n;
    char texts[8][64];
    size_t lens[8];
    int lines[8];
} bytes_ctx;

static bool collect_bytes(const char *text, size_t len, int line, void *ctx_) {
    bytes_ctx *c = ctx_;
    if (c->n < 8 && len <= sizeof c->texts[0]) {
        memcpy(c->texts[c->n], text, len);
        c->lens[c->n] = len;
        c->lines[c->n] = line;
    }
    c->n++;
    return true;
}

static void test_split_nul_and_bom(void) {
    static const char script[] = "SELECT 1;\nSELECT 2; -- \0\nSELECT 3;\nSELECT 'a\0b';\n";
    bytes_ctx c = {0};
    CHECK(sqe_sql_split_n(script, sizeof script - 1, collect_bytes, &c));
    CHECK(c.n == 4);
    CHECK(c.lens[0] == 8 && memcmp(c.texts[0], "SELECT 1", 8) == 0);
    CHECK(c.lens[1] == 8 && memcmp(c.texts[1], "SELECT 2", 8) == 0);
    /* the comment holding the NUL starts the third statement */
    CHECK(c.lines[2] == 2);
    CHECK(c.lens[2] == 13 && memcmp(c.texts[2], "-- \0\nSELECT 3", 13) == 0);
    CHECK(c.lines[3] == 4);
    CHECK(c.lens[3] == 12 && memcmp(c.texts[3], "SELECT 'a\0b'", 12) == 0);
    /* the NUL-terminated entry point still stops at the first NUL */
    split_ctx c2 = {0};
    CHECK(sqe_sql_split(script, collect, &c2));
    CHECK(c2.n == 2);

    sqe_error err;
    CHECK(sqe_sql_check_text("SELECT 1", 8, &err));
    CHECK(!sqe_sql_check_text("-- \0\nSELECT 3", 13, &err));
    CHECK(err.cls == SQE_ERR_SYNTAX);
    CHECK_CONTAINS(err.msg, "syntax error at line 1:4: NUL byte (\\0) in the SQL text");
    CHECK(!sqe_sql_check_text("SELECT\n  'K\xC3\xB6ln\0'", 16, &err));
    CHECK_CONTAINS(err.msg, "at line 2:8:"); /* characters, not bytes */

    /* byte order marks: at the start, and between statements */
    split_ctx c3 = {0};
    CHECK(sqe_sql_split("\xEF\xBB\xBFSELECT 1;\xEF\xBB\xBF SELECT 2", collect, &c3));
    CHECK(c3.n == 2);
    CHECK_STR(c3.texts[0], "SELECT 1");
    CHECK_STR(c3.texts[1], "SELECT 2");
    CHECK(sqe_sql_is_complete("\xEF\xBB\xBFSELECT 1;"));
    sqe_ast_stmt *st = parse("\xEF\xBB\xBFSELECT 1");
    CHECK(st != NULL);
    if (st) CHECK(st->pos.line == 1 && st->pos.col == 1);
    CHECK(sqe_sql_lex_mode_for("\xEF\xBB\xBF CREATE EXTERNAL TABLE t") == SQE_LEX_HIVE);
    /* a BOM inside a statement is not skipped (and shows escaped) */
    sqe_error_clear(&err);
    CHECK(sqe_sql_parse(A, "\xEF\xBB\xBF\xEF\xBB\xBFSELECT 1", &err) == NULL);
    CHECK_CONTAINS(err.msg, "found '\\ufeffSELECT'");
}

/* ---------------------------------------------------------- positions */

static void test_positions_and_text(void) {
    sqe_ast_stmt *st = parse("\n  SELECT a,\n         sum(b) FROM t -- trailing\n  ;  ");
    CHECK(st != NULL);
    if (!st) return;
    CHECK(st->pos.line == 2 && st->pos.col == 3);
    CHECK_STR(st->text, "SELECT a,\n         sum(b) FROM t");
    sqe_ast_expr *e = st->u.query->items[1].expr;
    CHECK(e->pos.line == 3 && e->pos.col == 10);
    CHECK(e->u.func.args[0]->pos.col == 14);
    CHECK(st->u.query->from->pos.line == 3 && st->u.query->from->pos.col == 22);
    CHECK_STR(sqe_sql_binop_name(SQE_OP_AND), "AND");
    CHECK_STR(sqe_sql_binop_name(SQE_OP_CONCAT), "||");
    CHECK_STR(sqe_sql_binop_name(SQE_OP_NE), "<>");
    CHECK_STR(sqe_sql_binop_name(SQE_OP_MOD), "%");
}

/* SET TIME ZONE: LOCAL (no expression) or any expression; the engine
 * evaluates it. Other SET statements stay unsupported. */
static void test_set_time_zone(void) {
    sqe_ast_stmt *st = parse("SET TIME ZONE LOCAL;");
    CHECK(st && st->kind == SQE_STMT_SET_TIME_ZONE && !st->u.set_time_zone.zone);
    st = parse("set time zone 'America/New_York'");
    CHECK(st && st->kind == SQE_STMT_SET_TIME_ZONE && st->u.set_time_zone.zone);
    if (st && st->u.set_time_zone.zone)
        CHECK_STR(sqe_sql_expr_to_string(A, st->u.set_time_zone.zone), "'America/New_York'");
    st = parse("SET TIME ZONE INTERVAL -'08:00' HOUR TO MINUTE");
    CHECK(st && st->kind == SQE_STMT_SET_TIME_ZONE && st->u.set_time_zone.zone &&
          st->u.set_time_zone.zone->kind != SQE_AST_COLUMN);
    st = parse("SET TIME ZONE concat_ws('/', 'America', 'Los_Angeles')");
    CHECK(st && st->kind == SQE_STMT_SET_TIME_ZONE &&
          st->u.set_time_zone.zone->kind == SQE_AST_FUNCTION);
    CHECK(strstr(perr("SET TIME ZONE"), "expected expression") != NULL);
    CHECK(strstr(perr("SET TIME ZONE 'UTC' 'x'"), "syntax error") != NULL);
}

/* SQL/JSON clauses become expressions over the plain functions. */
static void test_sql_json_clauses(void) {
    CHECK_STR(ex("json_value(j, 'lax $.a')"), "json_value(j, 'lax $.a')");
    CHECK_STR(ex("json_exists(j, 'lax $.a' UNKNOWN ON ERROR)"),
              "json_exists(j, 'lax $.a', 'unknown')");
    const char *v = ex("json_value(j, 'lax $.a' RETURNING bigint DEFAULT 0 ON EMPTY)");
    CHECK(strstr(v, "CASE WHEN json_exists(j, 'lax $.a', 'unknown')") != NULL);
    CHECK(strstr(v, "TRY_CAST(json_value(j, 'lax $.a') AS bigint)") != NULL);
    CHECK(strstr(ex("json_query(j, 'lax $.a' WITH ARRAY WRAPPER)"), "'['") != NULL);
    CHECK(strstr(perr("SELECT json_value(j, 'lax $.a' PASSING 1 AS x)"),
                 "json_value: PASSING is not supported yet") != NULL);
    CHECK(strstr(perr("SELECT json_value(j, 'lax $.a' ERROR ON EMPTY)"),
                 "ERROR ON EMPTY is not supported yet") != NULL);
    CHECK(strstr(perr("SELECT json_query(j, 'lax $.a' WITH ARRAY)"), "expected WRAPPER") != NULL);
}

int main(void) {
    A = sqe_arena_new(0);
    RUN(test_lexer_tokens);
    RUN(test_set_time_zone);
    RUN(test_sql_json_clauses);
    RUN(test_lexer_positions_and_comments);
    RUN(test_lexer_strings_raw);
    RUN(test_lexer_nested_types);
    RUN(test_lex_mode_detection);
    RUN(test_precedence);
    RUN(test_predicates);
    RUN(test_literals);
    RUN(test_functions_and_names);
    RUN(test_nonreserved_words_as_names);
    RUN(test_select_clauses);
    RUN(test_from_and_joins);
    RUN(test_set_ops_and_parens);
    RUN(test_with);
    RUN(test_values);
    RUN(test_from_alias_lists);
    RUN(test_windows);
    RUN(test_named_windows);
    RUN(test_filter);
    RUN(test_grouping_sets);
    RUN(test_render_round_trip);
    RUN(test_explain_use_describe_show);
    RUN(test_attach_detach);
    RUN(test_database_statements);
    RUN(test_unsupported_statements);
    RUN(test_partition_statements);
    RUN(test_analyze);
    RUN(test_secret_statements);
    RUN(test_create_table_basic);
    RUN(test_create_table_cloudfront);
    RUN(test_create_table_alb_regex);
    RUN(test_create_table_show_create_output);
    RUN(test_create_table_more_aws);
    RUN(test_create_table_recorded_not_judged);
    RUN(test_lexical_errors);
    RUN(test_syntax_errors);
    RUN(test_ddl_errors);
    RUN(test_table_functions);
    RUN(test_not_supported_errors);
    RUN(test_limits);
    RUN(test_split);
    RUN(test_is_complete);
    RUN(test_split_nul_and_bom);
    RUN(test_positions_and_text);
    sqe_arena_free(A);
    return unit_report();
}
