/*
 * analyze.c - ANALYZE TABLE t COMPUTE STATISTICS [FOR COLUMNS ...] and
 * Trino's ANALYZE t (SPEC §8.1): computes the statistics with one query
 * through the ordinary planner and executor, and hands them to hive/ to
 * store in the manifest's sqe.statistics slot (hive/stats.c).
 *
 * The query, for a table partitioned by k1..kn and columns c1..cm:
 *
 *   SELECT k1, .., kn, grouping(k1),
 *          count(*), count(c1), min(c1), max(c1), approx_distinct(c1), ...
 *   FROM root.db.t
 *   GROUP BY GROUPING SETS ((k1, .., kn), ())
 *
 * so one scan yields a row per partition and the whole-table row (the one
 * where grouping(k1) is 1); an unpartitioned table has no GROUP BY. The
 * partition keys are columns like any other here (FOR COLUMNS may name
 * one). min/max are computed only for orderable scalar types (numbers,
 * strings, dates, timestamps, booleans) and kept as the text sqe renders
 * them; approx_distinct gives the distinct estimate (func/aggregate.c
 * computes it exactly today, so estimates are exact; memory is that of a
 * DISTINCT aggregate and counts against the query's memory limit like any
 * query). Text and JSON files are decoded once; Parquet is read like any
 * scan (footers' row counts are not used yet).
 *
 * Errors, all before anything is scanned: a missing table (NOT_FOUND from
 * the catalog), a view (NOT_SUPPORTED), a FOR COLUMNS name that is neither
 * a column nor a partition key (NOT_FOUND naming it and the table). The
 * write is a compare-and-swap of the manifest (hive_manifest_update), so a
 * concurrent ALTER/MSCK is never overwritten.
 */
#include "engine/engine_int.h"
#include "exec/exec.h"
#include "hive/hive.h"
#include "plan/plan.h"
#include "sql/sql.h"

#include <string.h>

typedef struct an_col {
    const char *name;
    sqe_type type;
    bool ordered; /* min/max/approx_distinct computed */
} an_col;

static bool an_orderable(sqe_type t) {
    switch (t.id) {
    case SQE_T_BOOLEAN:
    case SQE_T_TINYINT:
    case SQE_T_SMALLINT:
    case SQE_T_INTEGER:
    case SQE_T_BIGINT:
    case SQE_T_REAL:
    case SQE_T_DOUBLE:
    case SQE_T_DECIMAL:
    case SQE_T_VARCHAR:
    case SQE_T_DATE:
    case SQE_T_TIMESTAMP:
        return true;
    default:
        return false;
    }
}

static void an_quote(sqe_strbuf *sb, const char *name) {
    sqe_strbuf_putc(sb, '"');
    for (const char *c = name; *c; c++) {
        if (*c == '"') sqe_strbuf_putc(sb, '"');
        sqe_strbuf_putc(sb, *c);
    }
    sqe_strbuf_putc(sb, '"');
}

/* The columns to analyze: FOR COLUMNS' names, else every column and key. */
static bool an_columns(sqe_arena *a, const sqe_hive_table *t, const sqe_ast_stmt *st, an_col **out,
                       int *n_out, sqe_error *err) {
    int n_all = t->n_cols + t->n_part_keys;
    an_col *cols = sqe_arena_alloc(a, sizeof *cols * (size_t)(n_all + 1));
    int n = 0;
    for (int i = 0; i < n_all; i++) {
        const sqe_hive_column *c = i < t->n_cols ? &t->cols[i] : &t->part_keys[i - t->n_cols];
        bool named = st->u.analyze.n_cols == 0;
        for (int j = 0; j < st->u.analyze.n_cols && !named; j++)
            named = sqe_str_ieq(st->u.analyze.cols[j].name, c->name);
        if (named) cols[n++] = (an_col){c->name, c->type, an_orderable(c->type)};
    }
    for (int j = 0; j < st->u.analyze.n_cols; j++) {
        bool found = false;
        for (int i = 0; i < n && !found; i++)
            found = sqe_str_ieq(st->u.analyze.cols[j].name, cols[i].name);
        if (!found)
            return sqe_error_set(err, SQE_ERR_NOT_FOUND,
                                 "ANALYZE: column '%s' does not exist in table '%s.%s.%s' (FOR "
                                 "COLUMNS names columns or partition keys of the table)",
                                 st->u.analyze.cols[j].name, t->root, t->database, t->name);
    }
    *out = cols;
    *n_out = n;
    return true;
}

static char *an_sql(sqe_arena *a, const sqe_hive_table *t, const an_col *cols, int n) {
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    sqe_strbuf_puts(&sb, "SELECT ");
    for (int k = 0; k < t->n_part_keys; k++) {
        an_quote(&sb, t->part_keys[k].name);
        sqe_strbuf_puts(&sb, ", ");
    }
    if (t->n_part_keys > 0) {
        sqe_strbuf_puts(&sb, "grouping(");
        an_quote(&sb, t->part_keys[0].name);
        sqe_strbuf_puts(&sb, "), ");
    }
    sqe_strbuf_puts(&sb, "count(*)");
    for (int i = 0; i < n; i++) {
        const char *fns[] = {"count", "min", "max", "approx_distinct"};
        for (int f = 0; f < 4; f++) {
            sqe_strbuf_puts(&sb, ", ");
            if (f > 0 && !cols[i].ordered) {
                sqe_strbuf_puts(&sb, "NULL");
                continue;
            }
            sqe_strbuf_printf(&sb, "%s(", fns[f]);
            an_quote(&sb, cols[i].name);
            sqe_strbuf_putc(&sb, ')');
        }
    }
    sqe_strbuf_puts(&sb, " FROM ");
    an_quote(&sb, t->root);
    sqe_strbuf_putc(&sb, '.');
    an_quote(&sb, t->database);
    sqe_strbuf_putc(&sb, '.');
    an_quote(&sb, t->name);
    if (t->n_part_keys > 0) {
        sqe_strbuf_puts(&sb, " GROUP BY GROUPING SETS ((");
        for (int k = 0; k < t->n_part_keys; k++) {
            if (k) sqe_strbuf_puts(&sb, ", ");
            an_quote(&sb, t->part_keys[k].name);
        }
        sqe_strbuf_puts(&sb, "), ())");
    }
    char *sql = sqe_arena_strdup(a, sb.data);
    sqe_strbuf_free(&sb);
    return sql;
}

/* Value (row, col) of a result batch as arena text, NULL for NULL. */
static const char *an_text(sqe_arena *a, const sqe_batch *b, uint32_t r, int c) {
    sqe_value v;
    sqe_vector_get_value(b->cols[c], r, &v);
    if (v.is_null || v.type.id == SQE_T_NULL) return NULL;
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    sqe_value_format(&v, &sb);
    char *s = sqe_arena_strdup(a, sb.data ? sb.data : "");
    sqe_strbuf_free(&sb);
    return s;
}

static uint64_t an_count(const sqe_batch *b, uint32_t r, int c) {
    sqe_value v;
    sqe_vector_get_value(b->cols[c], r, &v);
    return v.is_null || v.v.i < 0 ? 0 : (uint64_t)v.v.i;
}

/* One result row's column statistics, from result column `at` on. */
static sqe_hive_col_stats *an_row_cols(sqe_arena *a, const sqe_batch *b, uint32_t r, int at,
                                       const an_col *cols, int n, uint64_t rows) {
    sqe_hive_col_stats *cs = sqe_arena_alloc(a, sizeof *cs * (size_t)(n + 1));
    for (int i = 0; i < n; i++, at += 4) {
        cs[i].name = cols[i].name;
        uint64_t nonnull = an_count(b, r, at);
        cs[i].nulls = rows > nonnull ? rows - nonnull : 0;
        cs[i].min = cols[i].ordered ? an_text(a, b, r, at + 1) : NULL;
        cs[i].max = cols[i].ordered ? an_text(a, b, r, at + 2) : NULL;
        cs[i].has_distinct = cols[i].ordered;
        cs[i].distinct = cols[i].ordered ? an_count(b, r, at + 3) : 0;
    }
    return cs;
}

static void an_collect(sqe_arena *a, const sqe_hive_table *t, const sqe_resultset *rs,
                       const an_col *cols, int n, sqe_hive_stats *out) {
    int nk = t->n_part_keys, at = nk > 0 ? nk + 1 : 0;
    SQE_ARRAY(sqe_hive_stats_part) parts = {0};
    for (size_t bi = 0; bi < rs->batches.len; bi++) {
        const sqe_batch *b = rs->batches.items[bi];
        for (uint32_t r = 0; r < b->n_rows; r++) {
            uint64_t rows = an_count(b, r, at);
            const sqe_hive_col_stats *cs = an_row_cols(a, b, r, at + 1, cols, n, rows);
            if (nk == 0 || an_count(b, r, nk) != 0) { /* the whole table */
                out->rows = rows;
                out->cols = cs;
                continue;
            }
            const char **vals = sqe_arena_alloc(a, sizeof *vals * (size_t)nk);
            for (int k = 0; k < nk; k++) vals[k] = an_text(a, b, r, k);
            sqe_hive_stats_part p = {vals, rows, cs};
            SQE_ARRAY_PUSH(a, parts, p);
        }
    }
    out->n_cols = n;
    out->n_parts = parts.len;
    out->parts = parts.items;
}

bool sqe_engine_analyze(sqe_hive_catalog *cat, const sqe_ast_stmt *st, const sqe_exec_options *eo,
                        sqe_strbuf *notices, sqe_error *err) {
    const sqe_qname *qn = &st->u.analyze.name;
    const char *parts[3];
    int np = qn->n_parts < 3 ? qn->n_parts : 3;
    for (int i = 0; i < np; i++) parts[i] = qn->parts[qn->n_parts - np + i].name;
    sqe_hive_table *t = sqe_hive_resolve_table(cat, np, parts, err);
    if (!t) return false;
    sqe_arena *a = sqe_arena_new(0);
    sqe_resultset *rs = NULL;
    sqe_plan *plan = NULL;
    bool ok = false;
    an_col *cols = NULL;
    int n = 0;
    if (t->is_view) {
        sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                      "ANALYZE: '%s.%s.%s' is a view; statistics are computed for tables only",
                      t->root, t->database, t->name);
        goto out;
    }
    if (!an_columns(a, t, st, &cols, &n, err)) goto out;
    sqe_ast_stmt *q = sqe_sql_parse(a, an_sql(a, t, cols, n), err);
    if (!q || q->kind != SQE_STMT_SELECT) goto out;
    if (!(plan = sqe_plan_query(a, cat, q->u.query, err))) goto out;
    if (!sqe_exec_run(plan, eo, &rs, err)) goto out;
    sqe_hive_stats stats;
    memset(&stats, 0, sizeof stats);
    stats.merge = st->u.analyze.n_cols > 0;
    an_collect(a, t, rs, cols, n, &stats);
    bool dropped = false;
    if (!sqe_hive_store_statistics(cat, t, &stats, &dropped, err)) goto out;
    if (dropped)
        sqe_strbuf_printf(notices,
                          "ANALYZE: per-partition statistics of '%s.%s.%s' (%zu partitions) do "
                          "not fit manifest_max_bytes; only table statistics were stored\n",
                          t->root, t->database, t->name, stats.n_parts);
    ok = true;
out:
    sqe_resultset_free(rs);
    if (plan) sqe_plan_release(plan);
    sqe_arena_free(a);
    sqe_hive_table_free(t);
    return ok;
}
