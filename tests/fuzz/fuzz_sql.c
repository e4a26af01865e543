/*
 * fuzz_sql.c - the SQL front end on arbitrary bytes.
 *
 * The input (NUL-terminated copy; bytes after an embedded NUL are simply
 * not seen) goes through sqe_sql_is_complete, sqe_sql_split (each piece is
 * parsed too, as the script runner does; each must be a slice of the input
 * reported with the line it starts on) and sqe_sql_parse of the whole
 * text. Every expression of every parsed statement is rendered with
 * sqe_sql_expr_to_string, walking queries (WITH lists, set operation trees,
 * VALUES rows, grouping sets), joins, subqueries, calls' FILTER and OVER
 * specs, EXPLAIN and CTAS bodies, and the AST's contract (sql.h) is checked
 * on the way: VALUES rows all as wide as the first, grouping-set indexes
 * inside group_by, a frame's offset present exactly for PRECEDING and
 * FOLLOWING bounds, IGNORE NULLS only with OVER, set operation nodes with
 * both operands. Errors are expected; crashes, sanitizer reports, leaks and
 * hangs are bugs.
 */
#include "fuzz_common.h"
#include "sql/sql.h"

static void walk_query(sqe_arena *a, const sqe_ast_query *q, int depth);
static void walk_expr(sqe_arena *a, const sqe_ast_expr *e, int depth);

static void check_bound(const sqe_ast_frame_bound *b) {
    bool offset = b->kind == SQE_BOUND_PRECEDING || b->kind == SQE_BOUND_FOLLOWING;
    if (b->kind < SQE_BOUND_UNBOUNDED_PRECEDING || b->kind > SQE_BOUND_UNBOUNDED_FOLLOWING)
        fuzz_fail("frame bound kind out of range", NULL);
    if (offset != (b->offset != NULL))
        fuzz_fail("frame bound offset present for a bound without one, or missing", NULL);
}

static void walk_window(sqe_arena *a, const sqe_ast_window *w, int depth) {
    if (w->n_partition < 0 || w->n_order < 0) fuzz_fail("window with a negative count", NULL);
    for (int i = 0; i < w->n_partition; i++) walk_expr(a, w->partition[i], depth + 1);
    for (int i = 0; i < w->n_order; i++) walk_expr(a, w->order[i].expr, depth + 1);
    if (w->unit == SQE_FRAME_DEFAULT) return;
    if (w->unit > SQE_FRAME_GROUPS) fuzz_fail("window frame unit out of range", NULL);
    check_bound(&w->start);
    check_bound(&w->end);
    if (w->start.kind == SQE_BOUND_UNBOUNDED_FOLLOWING ||
        w->end.kind == SQE_BOUND_UNBOUNDED_PRECEDING)
        fuzz_fail("window frame the parser should have rejected", NULL);
    walk_expr(a, w->start.offset, depth + 1);
    walk_expr(a, w->end.offset, depth + 1);
}

static void walk_expr(sqe_arena *a, const sqe_ast_expr *e, int depth) {
    if (!e || depth > 400) return;
    char *s = sqe_sql_expr_to_string(a, e);
    if (!s) fuzz_fail("sqe_sql_expr_to_string returned NULL", NULL);
    switch (e->kind) {
    case SQE_AST_UNARY:
        walk_expr(a, e->u.unary.arg, depth + 1);
        break;
    case SQE_AST_BINARY:
        walk_expr(a, e->u.binary.left, depth + 1);
        walk_expr(a, e->u.binary.right, depth + 1);
        break;
    case SQE_AST_FUNCTION:
        for (int i = 0; i < e->u.func.n_args; i++) walk_expr(a, e->u.func.args[i], depth + 1);
        walk_expr(a, e->u.func.filter, depth + 1);
        if (e->u.func.ignore_nulls && !e->u.func.over) fuzz_fail("IGNORE NULLS without OVER", NULL);
        if (e->u.func.over) walk_window(a, e->u.func.over, depth + 1);
        break;
    case SQE_AST_CASE:
        walk_expr(a, e->u.case_.operand, depth + 1);
        for (int i = 0; i < e->u.case_.n_whens; i++) {
            walk_expr(a, e->u.case_.whens[i].cond, depth + 1);
            walk_expr(a, e->u.case_.whens[i].result, depth + 1);
        }
        walk_expr(a, e->u.case_.else_, depth + 1);
        break;
    case SQE_AST_CAST:
        walk_expr(a, e->u.cast.arg, depth + 1);
        break;
    case SQE_AST_IN_LIST:
        walk_expr(a, e->u.in_list.arg, depth + 1);
        for (int i = 0; i < e->u.in_list.n_items; i++)
            walk_expr(a, e->u.in_list.items[i], depth + 1);
        break;
    case SQE_AST_BETWEEN:
        walk_expr(a, e->u.between.arg, depth + 1);
        walk_expr(a, e->u.between.low, depth + 1);
        walk_expr(a, e->u.between.high, depth + 1);
        break;
    case SQE_AST_LIKE:
        walk_expr(a, e->u.like.arg, depth + 1);
        walk_expr(a, e->u.like.pattern, depth + 1);
        walk_expr(a, e->u.like.escape, depth + 1);
        break;
    case SQE_AST_IS_NULL:
        walk_expr(a, e->u.is_null.arg, depth + 1);
        break;
    case SQE_AST_IS_DISTINCT:
        walk_expr(a, e->u.is_distinct.left, depth + 1);
        walk_expr(a, e->u.is_distinct.right, depth + 1);
        break;
    case SQE_AST_SUBQUERY:
    case SQE_AST_EXISTS:
        walk_query(a, e->u.subquery.query, depth + 1);
        break;
    case SQE_AST_IN_SUBQUERY:
        walk_expr(a, e->u.in_subquery.arg, depth + 1);
        walk_query(a, e->u.in_subquery.query, depth + 1);
        break;
    default:
        break;
    }
}

static void walk_from(sqe_arena *a, const sqe_ast_from *f, int depth) {
    if (!f || depth > 400) return;
    if (f->n_alias_cols && (!f->alias || !f->alias_cols))
        fuzz_fail("column alias list without an alias", NULL);
    switch (f->kind) {
    case SQE_FROM_SUBQUERY:
        walk_query(a, f->u.subquery, depth + 1);
        break;
    case SQE_FROM_JOIN:
        walk_from(a, f->u.join.left, depth + 1);
        walk_from(a, f->u.join.right, depth + 1);
        walk_expr(a, f->u.join.on, depth + 1);
        break;
    default:
        break;
    }
}

static void check_query(const sqe_ast_query *q) {
    if (q->kind == SQE_QUERY_SET && (!q->set_left || !q->set_right || q->set_op == SQE_SET_NONE))
        fuzz_fail("set operation node without both operands", NULL);
    if (q->kind == SQE_QUERY_VALUES && (q->n_values_rows < 1 || q->n_values_cols < 1))
        fuzz_fail("VALUES without rows or columns", NULL);
    for (int i = 0; i < q->n_ctes; i++)
        if (!q->ctes[i].name.name || !q->ctes[i].query)
            fuzz_fail("WITH query without a name or body", NULL);
    if (q->n_grouping_sets < 0 || q->n_grouping_sets > 4096)
        fuzz_fail("grouping set count out of range", NULL);
    for (int i = 0; i < q->n_grouping_sets; i++)
        for (int j = 0; j < q->grouping_set_len[i]; j++)
            if (q->grouping_sets[i][j] < 0 || q->grouping_sets[i][j] >= q->n_group_by)
                fuzz_fail("grouping set index outside group_by", NULL);
}

static void walk_query(sqe_arena *a, const sqe_ast_query *q, int depth) {
    if (!q || depth > 400) return;
    check_query(q);
    for (int i = 0; i < q->n_ctes; i++) walk_query(a, q->ctes[i].query, depth + 1);
    for (int i = 0; i < q->n_items; i++) walk_expr(a, q->items[i].expr, depth + 1);
    walk_from(a, q->from, depth + 1);
    walk_expr(a, q->where, depth + 1);
    for (int i = 0; i < q->n_group_by; i++) walk_expr(a, q->group_by[i], depth + 1);
    walk_expr(a, q->having, depth + 1);
    for (int r = 0; r < q->n_values_rows; r++)
        for (int i = 0; i < q->n_values_cols; i++) {
            if (!q->values_rows[r][i]) fuzz_fail("VALUES row narrower than the first", NULL);
            walk_expr(a, q->values_rows[r][i], depth + 1);
        }
    walk_query(a, q->set_left, depth + 1);
    walk_query(a, q->set_right, depth + 1);
    for (int i = 0; i < q->n_order_by; i++) walk_expr(a, q->order_by[i].expr, depth + 1);
    walk_expr(a, q->limit, depth + 1);
    walk_expr(a, q->offset, depth + 1);
}

static void walk_stmt(sqe_arena *a, const sqe_ast_stmt *st) {
    for (int depth = 0; st && depth < 50; depth++) {
        if (!st->text) fuzz_fail("parsed statement without text", NULL);
        switch (st->kind) {
        case SQE_STMT_SELECT:
            walk_query(a, st->u.query, 0);
            return;
        case SQE_STMT_CREATE_TABLE:
            walk_query(a, st->u.create_table.as_select, 0);
            return;
        case SQE_STMT_EXPLAIN:
            st = st->u.explain.stmt;
            break;
        default:
            return;
        }
    }
}

static void parse_one(const char *sql) {
    sqe_arena *a = sqe_arena_new(0);
    sqe_error err;
    sqe_error_clear(&err);
    sqe_ast_stmt *st = sqe_sql_parse(a, sql, &err);
    if (st) {
        walk_stmt(a, st);
    } else if (err.cls == SQE_OK || !err.msg[0]) {
        fuzz_fail("sqe_sql_parse failed without an error message", sql);
    }
    sqe_arena_free(a);
}

typedef struct split_ctx {
    const char *script;
    int n;
} split_ctx;

/* Each piece is a slice of the script, reported with the line it starts on. */
static bool on_stmt(const char *text, size_t len, int line, void *ctx) {
    split_ctx *c = ctx;
    const size_t script_len = strlen(c->script);
    if (text < c->script || text + len > c->script + script_len)
        fuzz_fail("sqe_sql_split reported text outside the script", c->script);
    int expect = 1;
    for (const char *p = c->script; p < text; p++) expect += *p == '\n';
    if (line != expect) {
        char *detail = sqe_asprintf("statement at byte %zu reported on line %d, starts on line %d",
                                    (size_t)(text - c->script), line, expect);
        fuzz_fail("sqe_sql_split reports a wrong line", detail);
    }
    if (++c->n > 64) return false; /* a long script: the rest adds nothing */
    char *s = sqe_strndup(text, len);
    parse_one(s);
    sqe_free(s);
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 64 * 1024) return 0;
    char *sql = fuzz_cstr(data, size);
    (void)sqe_sql_is_complete(sql);
    split_ctx c = {sql, 0};
    (void)sqe_sql_split(sql, on_stmt, &c);
    parse_one(sql);
    sqe_free(sql);
    return 0;
}
