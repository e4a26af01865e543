/*
 * sqe.h - the public embedding API of libsqe. The only header sqe-cli and
 * sqe-server include from the engine.
 *
 * Streaming (a cursor: rows arrive while the query runs in the background):
 *
 *   sqe_session *s = sqe_session_open(NULL);
 *   sqe_cursor *c = sqe_session_query(s, "SELECT id, name FROM lake.db.t");
 *   while (sqe_cursor_next_row(c)) {
 *       size_t len;
 *       const char *name = sqe_cursor_value(c, 1, &len);   NULL: SQL NULL
 *       ...
 *   }
 *   if (!sqe_cursor_ok(c)) fprintf(stderr, "%s\n", sqe_cursor_error(c));
 *   sqe_cursor_close(c);
 *   sqe_session_close(s);
 *
 * Materialized (every row collected first, through a cursor):
 *
 *   sqe_result *r = sqe_session_execute(s, "SELECT 1");
 *   if (!sqe_result_ok(r)) fprintf(stderr, "%s\n", sqe_result_error(r));
 *   ... sqe_result_value(r, row, col) ...
 *   sqe_result_free(r);
 *
 * A session is not thread-safe: call it from one thread at a time. Only
 * sqe_cursor_cancel may be called from any thread (or a signal handler).
 * Several cursors of one session may be open at once; each query runs on a
 * thread of its own and shares the session's worker pool. Results are
 * independent of the session once returned; a cursor must be closed, and
 * closing the session first stops its queries.
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
typedef struct sqe_cursor sqe_cursor;

typedef struct sqe_options {
    int threads;                     /* worker threads for queries; <= 0: number of CPUs */
    size_t memory_limit;             /* bytes per query; 0: no limit */
    size_t manifest_max_bytes;       /* 0: default 1 MiB */
    int manifest_max_columns;        /* 0: default 4096 */
    int manifest_max_partition_keys; /* 0: default 32 */
    /* Per-query tuning (0: the default). Below parallel_min_bytes of listed
     * input a pipeline runs as one copy, so small tables give the same
     * answers run after run (default 4 MiB; 1 forces the parallel path).
     * Splittable text files larger than text_split_bytes are read as several
     * byte ranges in parallel (default 32 MiB; UINT64_MAX: never split). */
    uint64_t parallel_min_bytes;
    uint64_t text_split_bytes;
    /* S3 settings from the command line (NULL/false: not given, so
     * SQE_STORAGE__S3_* and then AWS_* from the environment apply, SPEC
     * §0.5). Read by sqe_session_open only (copied; the session keeps no
     * pointer to them). An endpoint selects path-style addressing unless
     * s3_virtual_hosted. */
    const char *s3_endpoint, *s3_region, *s3_access_key, *s3_secret_key;
    bool s3_virtual_hosted;
} sqe_options;

const char *sqe_version(void);

/* opts may be NULL for defaults. Never returns NULL. */
sqe_session *sqe_session_open(const sqe_options *opts);
void sqe_session_close(sqe_session *s);

/* Attaches a warehouse root from a "name=URL" spec (the --hive-root flag).
 * Returns NULL on success, else a malloc'd error message (free()). */
char *sqe_session_attach_root(sqe_session *s, const char *spec);

/* Sets the session's local time zone (an IANA name such as
 * "America/New_York", "UTC" or an offset "+05:30") and makes it the current
 * one: what SET TIME ZONE LOCAL returns to. Sessions open in UTC. Returns
 * NULL on success, else a malloc'd error message (free()), e.g. "Time zone
 * not supported: Mars/Base". */
char *sqe_session_set_local_time_zone(sqe_session *s, const char *name);

/* Changes what later statements run with: threads, memory_limit,
 * parallel_min_bytes and text_split_bytes of opts (the manifest limits are
 * fixed when the session opens). A new thread count replaces the session's
 * worker pool at the next statement that finds no cursor of the session
 * still holding a query; until then statements keep the old pool. */
void sqe_session_set_tuning(sqe_session *s, const sqe_options *opts);

/* Runs exactly one SQL statement (a trailing ';' is fine) to completion and
 * collects its rows. Never returns NULL: check sqe_result_ok. */
sqe_result *sqe_session_execute(sqe_session *s, const char *sql);

/* Splits a script into statements; calls cb for each (text without ';',
 * its first line number). Stops when cb returns false. */
typedef bool (*sqe_statement_cb)(const char *sql, size_t len, int line, void *ctx);
bool sqe_split_statements(const char *script, sqe_statement_cb cb, void *ctx);
/* The same for a script of `len` bytes (a file's bytes as read): a NUL byte
 * is one more byte, so nothing after it is lost; it ends up inside a
 * statement, which sqe_session_query_n then rejects naming its line:column.
 * A UTF-8 byte order mark between statements (at the start of a file) is
 * skipped. */
bool sqe_split_statements_n(const char *script, size_t len, sqe_statement_cb cb, void *ctx);
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
 * "NaN"/"Infinity" with kind NUMBER: JSON writers must quote non-finite.
 * The text is NUL-terminated; a value holding NUL bytes goes on past the
 * first one: use sqe_result_value_len. */
const char *sqe_result_value(const sqe_result *r, uint64_t row, int col);
/* Byte length of one value's text (0 for SQL NULL and for ''). */
size_t sqe_result_value_len(const sqe_result *r, uint64_t row, int col);
void sqe_result_free(sqe_result *r);

/* ------------------------------------------------------------- cursors
 *
 * A cursor is one statement: parsed, planned and started by
 * sqe_session_query, then read row by row (or batch by batch, up to 2048
 * rows) while the query runs in the background; at most a few batches are
 * buffered between the query and the reader, so memory stays bounded
 * whatever the result size. Statements without rows (DDL, USE) run to
 * completion inside sqe_session_query and give a cursor with a status word
 * and no columns; SHOW/DESCRIBE/EXPLAIN give their rows the same way as
 * queries. */

/* Starts one SQL statement. Never returns NULL (parse and planning errors
 * give a cursor in the error state): check sqe_cursor_ok, then read rows. */
sqe_cursor *sqe_session_query(sqe_session *s, const char *sql);
/* The same for a statement of `len` bytes (need not be NUL-terminated). A
 * NUL byte inside it gives a cursor in the SYNTAX_ERROR state naming the
 * byte's line:column; the statement is not run. */
sqe_cursor *sqe_session_query_n(sqe_session *s, const char *sql, size_t len);

/* False once the statement failed (before or while rows arrive). */
bool sqe_cursor_ok(const sqe_cursor *c);
const char *sqe_cursor_error(const sqe_cursor *c);       /* message, or NULL when ok */
const char *sqe_cursor_error_class(const sqe_cursor *c); /* "CANCELLED", "SYNTAX_ERROR"... */
const char *sqe_cursor_sqlstate(const sqe_cursor *c);    /* "57014" ... ("00000" when ok) */
/* Status word of a statement without rows ("CREATE EXTERNAL TABLE"); NULL
 * for statements that return rows. */
const char *sqe_cursor_status(const sqe_cursor *c);
/* Warnings/notices, one per line, or NULL. */
const char *sqe_cursor_notices(const sqe_cursor *c);

int sqe_cursor_column_count(const sqe_cursor *c);
const char *sqe_cursor_column_name(const sqe_cursor *c, int col);
const char *sqe_cursor_column_type(const sqe_cursor *c, int col); /* "bigint", "varchar" ... */
sqe_value_kind sqe_cursor_column_kind(const sqe_cursor *c, int col);

/* Moves to the next row, waiting for the query when needed. Returns false
 * at the end of the rows or when the statement failed (or was cancelled):
 * check sqe_cursor_ok afterwards. */
bool sqe_cursor_next_row(sqe_cursor *c);
/* The current row's value of column col as text (the same texts as
 * sqe_result_value), *len its byte length; NULL (and *len 0) for SQL NULL,
 * so NULL differs from the empty string "". The text is NUL-terminated, but
 * may hold NUL bytes itself: they count in *len. Valid until the cursor
 * moves past the current batch (next_row leaving it, next_batch, close).
 * len may be NULL. Texts are rendered per column per batch, on first use. */
const char *sqe_cursor_value(sqe_cursor *c, int col, size_t *len);
/* Typed reads of the current row, without rendering text. int64: integer
 * and boolean columns (true = 1); double: integer, real, double and decimal
 * columns. Return false for SQL NULL, no current row, or another type. */
bool sqe_cursor_int64(sqe_cursor *c, int col, int64_t *out);
bool sqe_cursor_double(sqe_cursor *c, int col, double *out);

/* Moves to the next batch of rows (skipping what is left of the current
 * one) and returns its row count (1..2048); 0 at the end or on failure.
 * Its rows are read with sqe_cursor_batch_value; meanwhile the current row
 * is the batch's last, so sqe_cursor_next_row continues after the batch. */
uint32_t sqe_cursor_next_batch(sqe_cursor *c);
/* Like sqe_cursor_value for row `row` (0-based) of the current batch. */
const char *sqe_cursor_batch_value(sqe_cursor *c, uint32_t row, int col, size_t *len);

/* Rows delivered so far. */
uint64_t sqe_cursor_row_count(const sqe_cursor *c);
/* Milliseconds from sqe_session_query to the end of the rows (to now while
 * they still come). */
double sqe_cursor_elapsed_ms(const sqe_cursor *c);

/* Asks the running statement to stop: the query's operators stop within a
 * batch and the cursor fails with CANCELLED "query was cancelled" (rows not
 * read yet are dropped). Callable from any thread and from a signal handler
 * (it is one atomic store), as long as the cursor is not being closed at
 * the same time. No effect once the statement has ended. */
void sqe_cursor_cancel(sqe_cursor *c);
/* Stops the statement if it still runs, waits for its thread and frees the
 * cursor. NULL is a no-op. */
void sqe_cursor_close(sqe_cursor *c);

#ifdef __cplusplus
}
#endif
#endif
