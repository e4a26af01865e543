/*
 * sqe.h - the public embedding API of libsqe. The only header sqe-cli and
 * sqe-server include from the engine.
 *
 *   sqe_session *s = sqe_session_open(NULL);
 *   sqe_result *r = sqe_session_execute(s, "SELECT 1");
 *   if (!sqe_result_ok(r)) fprintf(stderr, "%s\n", sqe_result_error(r));
 *   ... sqe_result_value(r, row, col) ...
 *   sqe_result_free(r);
 *   sqe_session_close(s);
 *
 * A session is not thread-safe; use one per thread/connection. Results are
 * fully materialized and independent of the session once returned.
 */
#ifndef SQE_PUBLIC_H
#define SQE_PUBLIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SQE_VERSION "0.1.0"

typedef struct sqe_session sqe_session;
typedef struct sqe_result sqe_result;

typedef struct sqe_options {
    int threads;                     /* worker threads for queries; <= 0: number of CPUs */
    size_t memory_limit;             /* bytes per query; 0: no limit */
    size_t manifest_max_bytes;       /* 0: default 1 MiB */
    int manifest_max_columns;        /* 0: default 4096 */
    int manifest_max_partition_keys; /* 0: default 32 */
} sqe_options;

const char *sqe_version(void);

/* opts may be NULL for defaults. Never returns NULL. */
sqe_session *sqe_session_open(const sqe_options *opts);
void sqe_session_close(sqe_session *s);

/* Attaches a warehouse root from a "name=URL" spec (the --hive-root flag).
 * Returns NULL on success, else a malloc'd error message (free()). */
char *sqe_session_attach_root(sqe_session *s, const char *spec);

/* Runs exactly one SQL statement (a trailing ';' is fine). Never returns
 * NULL: check sqe_result_ok. */
sqe_result *sqe_session_execute(sqe_session *s, const char *sql);

/* Splits a script into statements; calls cb for each (text without ';',
 * its first line number). Stops when cb returns false. */
typedef bool (*sqe_statement_cb)(const char *sql, size_t len, int line, void *ctx);
bool sqe_split_statements(const char *script, sqe_statement_cb cb, void *ctx);
/* True when the text ends a complete statement with ';' (REPL input). */
bool sqe_statement_complete(const char *text);

bool sqe_result_ok(const sqe_result *r);
const char *sqe_result_error(const sqe_result *r);       /* message, or NULL when ok */
const char *sqe_result_error_class(const sqe_result *r); /* "SYNTAX_ERROR", "HIVE_EXTERNAL"... */
const char *sqe_result_sqlstate(const sqe_result *r);    /* "42601" ... ("00000" when ok) */

/* Status word for statements without rows ("CREATE EXTERNAL TABLE"); NULL
 * for queries and SHOW statements, which return rows. */
const char *sqe_result_status(const sqe_result *r);
/* Warnings/notices, one per line, or NULL. */
const char *sqe_result_notices(const sqe_result *r);
/* Wall time of the statement in milliseconds. */
double sqe_result_elapsed_ms(const sqe_result *r);

typedef enum sqe_value_kind {
    SQE_KIND_TEXT = 0, /* strings, dates, timestamps: quote in JSON, left-align */
    SQE_KIND_NUMBER,   /* integers, decimals, floats: bare in JSON, right-align */
    SQE_KIND_BOOLEAN,  /* true/false: bare in JSON */
} sqe_value_kind;

int sqe_result_column_count(const sqe_result *r);
const char *sqe_result_column_name(const sqe_result *r, int col);
const char *sqe_result_column_type(const sqe_result *r,
                                   int col); /* "bigint", "varchar", "decimal(10,2)" */
sqe_value_kind sqe_result_column_kind(const sqe_result *r, int col);
uint64_t sqe_result_row_count(const sqe_result *r);
/* Text of one value, or NULL for SQL NULL. DOUBLE NaN/Infinity are texts
 * "NaN"/"Infinity" with kind NUMBER: JSON writers must quote non-finite. */
const char *sqe_result_value(const sqe_result *r, uint64_t row, int col);
void sqe_result_free(sqe_result *r);

#ifdef __cplusplus
}
#endif
#endif
