/*
 * parse_stats.c - the statistics statement (SPEC §8):
 *
 *   ANALYZE TABLE t COMPUTE STATISTICS [FOR COLUMNS [c [, c ...]]]   (Hive, Athena)
 *   ANALYZE t                                                     (Trino)
 *
 * Both compute statistics for every column unless FOR COLUMNS names some
 * (FOR COLUMNS with no names is every column, as in Hive). What sqe does
 * not implement is named, never parsed as something else: Hive's
 * PARTITION (...) clause and NOSCAN, Trino's WITH (...) properties, and
 * COMPUTE STATISTICS without FOR COLUMNS is accepted as every column (Hive
 * would compute only the row count; a superset is harmless). SHOW STATS
 * FOR t is parsed with the other SHOW statements (parse_ddl.c).
 */
#include "sql_int.h"

static bool ps_columns(sqe_parser *p, sqe_ast_stmt *st) {
    SQE_ARRAY(sqe_ident) cols = {0};
    sqe_tok_kind k = sqe_p_peek(p, 0)->kind;
    if (k == SQE_TK_EOF || k == SQE_TK_SEMI) return true;
    do {
        sqe_ident id;
        if (!sqe_p_parse_ident(p, &id, "column name")) return false;
        SQE_ARRAY_PUSH(p->arena, cols, id);
    } while (sqe_p_accept_tok(p, SQE_TK_COMMA));
    st->u.analyze.n_cols = (int)cols.len;
    st->u.analyze.cols = cols.items;
    return true;
}

bool sqe_p_parse_analyze(sqe_parser *p, sqe_ast_stmt *st) {
    sqe_p_next(p); /* ANALYZE */
    st->kind = SQE_STMT_ANALYZE;
    bool hive = sqe_p_is(p, 0, "table") && sqe_p_tok_is_ident(sqe_p_peek(p, 1));
    if (hive) sqe_p_next(p);
    if (!sqe_p_parse_qname(p, &st->u.analyze.name, true, "table name")) return false;
    if (sqe_p_is(p, 0, "partition"))
        return sqe_p_unsupported(p, st,
                                 "ANALYZE TABLE ... PARTITION (statistics are computed "
                                 "for the whole table, and per partition)");
    if (sqe_p_is(p, 0, "with")) return sqe_p_unsupported(p, st, "ANALYZE ... WITH (properties)");
    if (!sqe_p_accept(p, "compute")) {
        if (hive) return sqe_p_error_expected(p, "COMPUTE STATISTICS");
        return true; /* Trino's ANALYZE t */
    }
    if (!sqe_p_expect(p, "STATISTICS")) return false;
    if (sqe_p_is(p, 0, "noscan"))
        return sqe_p_unsupported(p, st, "ANALYZE ... COMPUTE STATISTICS NOSCAN");
    if (!sqe_p_accept(p, "for")) return true;
    if (!sqe_p_expect(p, "COLUMNS")) return false;
    return ps_columns(p, st);
}
