/*
 * show_partitions.c - SHOW PARTITIONS t WHERE cond.
 *
 * The hive layer lists partitions but cannot evaluate SQL, and the
 * condition may be any expression over the partition keys (Hive 4 allows
 * it; Trino's equivalent is SELECT * FROM "t$partitions" WHERE ...). So the
 * engine rewrites the statement into a query that the ordinary planner and
 * executor answer exactly:
 *
 *   SELECT "partition" FROM (VALUES
 *       (0, 'k=v/k2=v2', CAST('v' AS varchar), DATE '2024-01-01'), ...)
 *     AS sqe_partitions(sqe_ord, "partition", k, k2)
 *   WHERE (cond) ORDER BY sqe_ord
 *
 * The rows are SHOW PARTITIONS t's own rows, in its order (typed values,
 * NULLs last, then path), paired with the typed values of the same
 * partitions from sqe_hive_list_partitions (which both calls sort the same
 * way). Key columns carry the key's type, so `dt > DATE '2024-01-01'` or
 * `n IN (1, 2)` compare as they do in a SELECT; a reference to anything but
 * a key fails as an unknown column, naming it. The SQL grows with the
 * number of partitions (~60 bytes each), fine for the statement it is.
 */
#include "engine/engine_int.h"
#include "hive/hive.h"

#include <string.h>

/* Appends a typed partition value as a SQL literal of the key's type. */
static void sp_literal(sqe_strbuf *sb, const sqe_value *v, sqe_type t) {
    char tb[64];
    if (v->is_null) {
        sqe_strbuf_printf(sb, "CAST(NULL AS %s)", sqe_type_sql_name(t, tb, sizeof tb));
        return;
    }
    switch (t.id) {
    case SQE_T_INTEGER:
    case SQE_T_BIGINT:
        sqe_strbuf_printf(sb, "CAST(%lld AS %s)", (long long)v->v.i,
                          sqe_type_sql_name(t, tb, sizeof tb));
        return;
    case SQE_T_DATE: {
        int y, m, d;
        sqe_date_to_ymd((int32_t)v->v.i, &y, &m, &d);
        sqe_strbuf_printf(sb, "DATE '%04d-%02d-%02d'", y, m, d);
        return;
    }
    default:
        sqe_strbuf_puts(sb, "CAST('");
        for (uint32_t i = 0; i < v->v.s.len; i++) {
            char c = v->v.s.ptr[i];
            if (c == '\'') sqe_strbuf_putc(sb, '\'');
            sqe_strbuf_putc(sb, c);
        }
        sqe_strbuf_printf(sb, "' AS %s)", sqe_type_sql_name(t, tb, sizeof tb));
    }
}

/* Appends 'text' as a SQL string literal. */
static void sp_string(sqe_strbuf *sb, const char *s, uint32_t n) {
    sqe_strbuf_putc(sb, '\'');
    for (uint32_t i = 0; i < n; i++) {
        if (s[i] == '\'') sqe_strbuf_putc(sb, '\'');
        sqe_strbuf_putc(sb, s[i]);
    }
    sqe_strbuf_putc(sb, '\'');
}

static void sp_build(sqe_strbuf *sb, const sqe_hive_table *t, const sqe_hive_partition *ps,
                     size_t n, const sqe_resultset *rs, const char *cond) {
    sqe_strbuf_puts(sb, "SELECT \"partition\" FROM (VALUES ");
    for (size_t i = 0; i < n; i++) {
        const sqe_batch *b = rs->batches.items[i / SQE_BATCH_ROWS];
        sqe_value name;
        sqe_vector_get_value(b->cols[0], (uint32_t)(i % SQE_BATCH_ROWS), &name);
        sqe_strbuf_printf(sb, "%s(%zu, ", i ? ", " : "", i);
        sp_string(sb, name.v.s.ptr, name.v.s.len);
        for (int k = 0; k < t->n_part_keys; k++) {
            sqe_strbuf_puts(sb, ", ");
            sp_literal(sb, &ps[i].values[k], t->part_keys[k].type);
        }
        sqe_strbuf_putc(sb, ')');
    }
    sqe_strbuf_puts(sb, ") AS sqe_partitions(sqe_ord, \"partition\"");
    for (int k = 0; k < t->n_part_keys; k++)
        sqe_strbuf_printf(sb, ", \"%s\"", t->part_keys[k].name);
    sqe_strbuf_printf(sb, ") WHERE (%s) ORDER BY sqe_ord", cond);
}

char *sqe_engine_show_partitions_sql(sqe_hive_catalog *cat, const sqe_ast_stmt *st,
                                     sqe_error *err) {
    /* the rows SHOW PARTITIONS t gives (names as it prints them) */
    sqe_ast_stmt plain = *st;
    plain.u.target.where = NULL;
    plain.u.target.where_text = NULL;
    sqe_resultset *rs = NULL;
    const char *status;
    sqe_strbuf notices;
    sqe_strbuf_init(&notices);
    bool ok = sqe_hive_execute(cat, &plain, &rs, &status, &notices, err);
    sqe_strbuf_free(&notices);
    const sqe_qname *q = &st->u.target.name;
    const char *parts[3] = {NULL, NULL, NULL};
    for (int i = 0; i < q->n_parts && i < 3; i++) parts[i] = q->parts[i].name;
    sqe_hive_table *t = ok ? sqe_hive_resolve_table(cat, q->n_parts, parts, err) : NULL;
    sqe_store *store = t ? sqe_hive_table_store(t, err) : NULL;
    sqe_arena *a = sqe_arena_new(0);
    sqe_hive_partition *ps = NULL;
    size_t n = 0;
    char *sql = NULL;
    ok = store && sqe_hive_list_partitions(store, t, NULL, a, &ps, &n, err);
    if (ok && n != rs->n_rows)
        ok = sqe_error_set(err, SQE_ERR_INTERNAL,
                           "SHOW PARTITIONS ... WHERE: the partitions changed while listed; "
                           "re-run the statement");
    if (ok) {
        sqe_strbuf sb;
        sqe_strbuf_init(&sb);
        if (n == 0)
            sqe_strbuf_puts(&sb, "SELECT CAST(NULL AS varchar) AS \"partition\" WHERE false");
        else
            sp_build(&sb, t, ps, n, rs, st->u.target.where_text);
        sql = sqe_strbuf_detach(&sb);
    }
    sqe_arena_free(a);
    sqe_store_free(store);
    sqe_hive_table_free(t);
    sqe_resultset_free(rs);
    return sql;
}
