/*
 * engine_int.h - private to src/engine/: what engine.c and secrets.c share.
 */
#ifndef SQE_ENGINE_INT_H
#define SQE_ENGINE_INT_H

#include "engine/engine.h"
#include "vector/vector.h"

/* CREATE SECRET, DROP SECRET, SHOW SECRETS (secrets.c): *status for the
 * first two, *out (name, type, scope, region, endpoint, url_style,
 * has_keys; never a key) for SHOW SECRETS. */
bool sqe_engine_secret_stmt(sqe_session *s, const sqe_ast_stmt *st, sqe_resultset **out,
                            const char **status, sqe_error *err);

/* SHOW PARTITIONS t WHERE cond (show_partitions.c): the SELECT that
 * answers it (malloc'd SQL): the partitions SHOW PARTITIONS t lists, as a
 * VALUES table of (ord, partition, key columns typed by the keys), filtered
 * by cond and ordered as SHOW PARTITIONS orders them. */
char *sqe_engine_show_partitions_sql(sqe_hive_catalog *cat, const sqe_ast_stmt *st, sqe_error *err);
/* analyze.c: ANALYZE (SPEC §8.1); eo: the session's execution options. */
struct sqe_exec_options;
bool sqe_engine_analyze(sqe_hive_catalog *cat, const sqe_ast_stmt *st,
                        const struct sqe_exec_options *eo, sqe_strbuf *notices, sqe_error *err);

#endif
