/*
 * engine.c - sessions and statement dispatch; the implementation of the
 * public API in include/sqe.h.
 *
 *   sqe_session_execute
 *     sqe_sql_parse                      one statement -> AST (statement arena)
 *     SELECT   -> sqe_plan_query -> sqe_exec_run -> result set
 *     EXPLAIN  -> sqe_plan_query -> sqe_exec_explain -> one row per line
 *     other    -> sqe_hive_execute (catalog statements)
 *     result_from_resultset              render every value to text once
 *
 * A session owns its catalog (attached roots, current root/database) and a
 * thread pool for query execution. Results own all their memory and outlive
 * the statement arena.
 */
#include "engine/engine.h"

#include "exec/exec.h"

#include <stdio.h>
#include <string.h>

struct sqe_session {
    sqe_options opts;
    sqe_hive_catalog *cat;
    sqe_threadpool *pool; /* created on first query */
};

struct sqe_result {
    sqe_error_class cls;
    char *error;
    const char *status;
    char *notices;
    double elapsed_ms;
    int n_cols;
    char **names;
    char **types;
    sqe_value_kind *kinds;
    uint64_t n_rows;
    char **cells; /* n_rows * n_cols pointers into text (NULL = SQL NULL) */
    char *text;   /* one buffer holding every cell */
};

const char *sqe_version(void) {
    return SQE_VERSION;
}

sqe_session *sqe_session_open(const sqe_options *opts) {
    sqe_session *s = sqe_calloc(1, sizeof *s);
    if (opts) s->opts = *opts;
    sqe_hive_limits lim = {
        .manifest_max_bytes = s->opts.manifest_max_bytes ? s->opts.manifest_max_bytes : 1 << 20,
        .manifest_max_columns = s->opts.manifest_max_columns ? s->opts.manifest_max_columns : 4096,
        .manifest_max_partition_keys =
            s->opts.manifest_max_partition_keys ? s->opts.manifest_max_partition_keys : 32,
    };
    s->cat = sqe_hive_catalog_new(&lim);
    return s;
}

void sqe_session_close(sqe_session *s) {
    if (!s) return;
    sqe_hive_catalog_free(s->cat);
    sqe_threadpool_free(s->pool);
    sqe_free(s);
}

sqe_hive_catalog *sqe_session_catalog(sqe_session *s) {
    return s->cat;
}

char *sqe_session_attach_root(sqe_session *s, const char *spec) {
    sqe_error err;
    sqe_error_clear(&err);
    if (!sqe_hive_attach_spec(s->cat, spec, &err)) return sqe_strdup(err.msg);
    return NULL;
}

/* ---------------------------------------------------------- results */

static sqe_result *result_new(void) {
    return sqe_calloc(1, sizeof(sqe_result));
}

static sqe_result *result_error(const sqe_error *err) {
    sqe_result *r = result_new();
    r->cls = err->cls == SQE_OK ? SQE_ERR_INTERNAL : err->cls;
    r->error = sqe_strdup(err->msg[0] ? err->msg : "unknown error");
    return r;
}

static sqe_value_kind kind_of(sqe_type t) {
    if (t.id == SQE_T_BOOLEAN) return SQE_KIND_BOOLEAN;
    if (sqe_type_is_numeric(t)) return SQE_KIND_NUMBER;
    return SQE_KIND_TEXT;
}

static sqe_result *result_from_resultset(const sqe_resultset *rs) {
    sqe_result *r = result_new();
    r->n_cols = rs->n_cols;
    r->names = sqe_calloc((size_t)(rs->n_cols ? rs->n_cols : 1), sizeof(char *));
    r->types = sqe_calloc((size_t)(rs->n_cols ? rs->n_cols : 1), sizeof(char *));
    r->kinds = sqe_calloc((size_t)(rs->n_cols ? rs->n_cols : 1), sizeof(sqe_value_kind));
    for (int c = 0; c < rs->n_cols; c++) {
        char tb[64];
        r->names[c] = sqe_strdup(rs->names[c]);
        r->types[c] = sqe_strdup(sqe_type_sql_name(rs->types[c], tb, sizeof tb));
        r->kinds[c] = kind_of(rs->types[c]);
    }
    r->n_rows = rs->n_rows;
    size_t n_cells = (size_t)rs->n_rows * (size_t)rs->n_cols;
    size_t *offs = sqe_malloc(sizeof(size_t) * (n_cells ? n_cells : 1));
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    sqe_strbuf_putc(&sb, '\0'); /* offset 0 is never a cell: marks NULL */
    size_t cell = 0;
    for (size_t b = 0; b < rs->batches.len; b++) {
        const sqe_batch *batch = rs->batches.items[b];
        for (uint32_t i = 0; i < sqe_batch_live(batch); i++) {
            uint32_t row = sqe_batch_row(batch, i);
            for (int c = 0; c < rs->n_cols; c++) {
                sqe_value v;
                sqe_vector_get_value(batch->cols[c], row, &v);
                if (v.is_null) {
                    offs[cell++] = 0;
                    continue;
                }
                offs[cell++] = sb.len;
                sqe_value_format(&v, &sb);
                sqe_strbuf_putc(&sb, '\0');
            }
        }
    }
    r->text = sqe_strbuf_detach(&sb);
    r->cells = sqe_malloc(sizeof(char *) * (n_cells ? n_cells : 1));
    for (size_t i = 0; i < cell; i++) r->cells[i] = offs[i] ? r->text + offs[i] : NULL;
    sqe_free(offs);
    return r;
}

/* ---------------------------------------------------------- dispatch */

static bool run_select(sqe_session *s, sqe_arena *arena, const sqe_ast_query *q,
                       sqe_resultset **out, sqe_error *err) {
    sqe_plan *plan = sqe_plan_query(arena, s->cat, q, err);
    if (!plan) return false;
    if (!s->pool) s->pool = sqe_threadpool_new(s->opts.threads);
    sqe_exec_options eo = {.threads = sqe_threadpool_size(s->pool),
                           .memory_limit = s->opts.memory_limit,
                           .pool = s->pool};
    bool ok = sqe_exec_run(plan, &eo, out, err);
    sqe_plan_release(plan);
    return ok;
}

static bool run_explain(sqe_session *s, sqe_arena *arena, const sqe_ast_stmt *st,
                        sqe_resultset **out, sqe_error *err) {
    const sqe_ast_stmt *inner = st->u.explain.stmt;
    if (inner->kind != SQE_STMT_SELECT)
        return sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                             "EXPLAIN is only supported for queries (SELECT)");
    sqe_plan *plan = sqe_plan_query(arena, s->cat, inner->u.query, err);
    if (!plan) return false;
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    if (st->u.explain.analyze) {
        if (!s->pool) s->pool = sqe_threadpool_new(s->opts.threads);
        sqe_exec_options eo = {.threads = sqe_threadpool_size(s->pool),
                               .memory_limit = s->opts.memory_limit,
                               .pool = s->pool};
        if (!sqe_exec_explain_analyze(plan, &eo, &sb, err)) {
            sqe_plan_release(plan);
            sqe_strbuf_free(&sb);
            return false;
        }
    } else {
        sqe_exec_explain(plan, &sb);
    }
    sqe_plan_release(plan);
    const char *name = "QUERY PLAN";
    sqe_type vt = sqe_type_make(SQE_T_VARCHAR);
    sqe_resultset *rs = sqe_resultset_new(1, &name, &vt);
    char *line = sb.data ? sb.data : "";
    while (*line) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        const char *vals[1] = {line};
        sqe_resultset_add_text_row(rs, vals);
        if (!nl) break;
        line = nl + 1;
    }
    sqe_strbuf_free(&sb);
    *out = rs;
    return true;
}

sqe_result *sqe_session_execute(sqe_session *s, const char *sql) {
    uint64_t t0 = sqe_clock_ns();
    sqe_arena *arena = sqe_arena_new(0);
    sqe_error err;
    sqe_error_clear(&err);
    sqe_resultset *rs = NULL;
    const char *status = NULL;
    sqe_strbuf notices;
    sqe_strbuf_init(&notices);
    bool ok;

    sqe_ast_stmt *st = sqe_sql_parse(arena, sql, &err);
    if (!st) {
        ok = false;
    } else {
        switch (st->kind) {
        case SQE_STMT_SELECT:
            ok = run_select(s, arena, st->u.query, &rs, &err);
            break;
        case SQE_STMT_EXPLAIN:
            ok = run_explain(s, arena, st, &rs, &err);
            break;
        case SQE_STMT_UNSUPPORTED:
            ok = sqe_error_set(&err, SQE_ERR_NOT_SUPPORTED, "%s is not supported yet",
                               st->u.unsupported.what ? st->u.unsupported.what : "this statement");
            break;
        default:
            ok = sqe_hive_execute(s->cat, st, &rs, &status, &notices, &err);
            break;
        }
    }

    sqe_result *r;
    if (!ok) {
        r = result_error(&err);
        sqe_resultset_free(rs);
    } else if (rs) {
        r = result_from_resultset(rs);
        sqe_resultset_free(rs);
    } else {
        r = result_new();
        r->status = status ? status : "OK";
    }
    if (notices.len) {
        while (notices.len && notices.data[notices.len - 1] == '\n')
            notices.data[--notices.len] = '\0';
        r->notices = sqe_strbuf_detach(&notices);
    } else {
        sqe_strbuf_free(&notices);
    }
    sqe_arena_free(arena);
    r->elapsed_ms = (double)(sqe_clock_ns() - t0) / 1e6;
    return r;
}

bool sqe_split_statements(const char *script, sqe_statement_cb cb, void *ctx) {
    return sqe_sql_split(script, (sqe_sql_stmt_cb)cb, ctx);
}

bool sqe_statement_complete(const char *text) {
    return sqe_sql_is_complete(text);
}

bool sqe_result_ok(const sqe_result *r) {
    return r->cls == SQE_OK;
}
const char *sqe_result_error(const sqe_result *r) {
    return r->error;
}
const char *sqe_result_error_class(const sqe_result *r) {
    return sqe_error_class_name(r->cls);
}
const char *sqe_result_sqlstate(const sqe_result *r) {
    return sqe_error_sqlstate(r->cls);
}
const char *sqe_result_status(const sqe_result *r) {
    return r->status;
}
const char *sqe_result_notices(const sqe_result *r) {
    return r->notices;
}
double sqe_result_elapsed_ms(const sqe_result *r) {
    return r->elapsed_ms;
}
int sqe_result_column_count(const sqe_result *r) {
    return r->n_cols;
}

const char *sqe_result_column_name(const sqe_result *r, int col) {
    return col >= 0 && col < r->n_cols ? r->names[col] : NULL;
}

const char *sqe_result_column_type(const sqe_result *r, int col) {
    return col >= 0 && col < r->n_cols ? r->types[col] : NULL;
}

sqe_value_kind sqe_result_column_kind(const sqe_result *r, int col) {
    return col >= 0 && col < r->n_cols ? r->kinds[col] : SQE_KIND_TEXT;
}

uint64_t sqe_result_row_count(const sqe_result *r) {
    return r->n_rows;
}

const char *sqe_result_value(const sqe_result *r, uint64_t row, int col) {
    if (row >= r->n_rows || col < 0 || col >= r->n_cols) return NULL;
    return r->cells[row * (uint64_t)r->n_cols + (uint64_t)col];
}

void sqe_result_free(sqe_result *r) {
    if (!r) return;
    for (int c = 0; c < r->n_cols; c++) {
        sqe_free(r->names[c]);
        sqe_free(r->types[c]);
    }
    sqe_free(r->names);
    sqe_free(r->types);
    sqe_free(r->kinds);
    sqe_free(r->cells);
    sqe_free(r->text);
    sqe_free(r->error);
    sqe_free(r->notices);
    sqe_free(r);
}
