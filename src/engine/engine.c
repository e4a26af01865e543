/*
 * engine.c - sessions, statement dispatch and cursors; the implementation
 * of the public API in include/sqe.h.
 *
 *   sqe_session_query                    one statement -> a cursor
 *     sqe_sql_parse                      AST in the statement arena
 *     SELECT   -> sqe_plan_query -> sqe_exec_start (query thread, bounded queue)
 *     EXPLAIN  -> sqe_plan_query -> sqe_exec_explain (ANALYZE: runs it first) -> result set
 *     SET TIME ZONE -> the session's zone (evaluated with sqe_plan_eval_constant)
 *     other    -> sqe_hive_execute (catalog statements: status word or result set)
 *   sqe_cursor_next_row / next_batch     sqe_exec_fetch (or the next result-set batch)
 *   sqe_cursor_value                     render the column of the batch to text, once
 *   sqe_session_execute                  a cursor read to its end into an sqe_result
 *
 * Sessions. A session owns its catalog (attached roots, current
 * root/database), a worker pool for pipeline copies (created by the first
 * query, replaced when the thread count changes and no cursor holds a
 * query), and the list of its open cursors (so closing the session stops
 * their queries first).
 *
 * Time zone. The session holds its time zone (a types/tz.c key): UTC when
 * it opens, the "local" zone sqe_session_set_local_time_zone gives (the
 * CLI's --time-zone, SQE_TIME_ZONE or TZ), changed by SET TIME ZONE and
 * reset to the local one by SET TIME ZONE LOCAL (Trino). Each statement is
 * planned with the zone in force when it starts (sqe_plan_query_in_zone),
 * which hands it to every function and cast through the planner's
 * per-statement sqe_func_stmt; nothing about it is process-global.
 *
 * Cursors. A cursor owns its statement: the arena holding AST and plan and
 * the query handle (exec/query.c) while the query runs, or a materialized
 * result set for SHOW/DESCRIBE/EXPLAIN, plus the text of the batch being
 * read. A batch's values are rendered to text per column on first use
 * (sqe_value_format, the texts sqe-cli prints) into one buffer per column,
 * each value NUL-terminated and with its length, so NUL bytes inside values
 * survive. The query handle is finished (thread joined, plan released) as
 * soon as the rows end; after an error it is only cancelled, and finished
 * by close, so next_row returns without waiting for operators to stop.
 *
 * Cancel. sqe_cursor_cancel is one atomic store into the cursor's flag,
 * which is the query's cancel flag (sqe_exec_options.cancel): operators stop
 * within a batch, and sqe_exec_fetch fails with CANCELLED at once.
 *
 * Results. sqe_session_execute reads a cursor to its end: every cell's
 * text goes into one buffer, with offsets and lengths, so an sqe_result
 * outlives the statement and the session.
 */
#include "engine/engine_int.h"

#include "exec/exec.h"
#include "io/s3.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

struct sqe_session {
    sqe_options opts;
    sqe_hive_catalog *cat;
    sqe_io_registry *stores; /* every store of the session (io/registry.c) */
    sqe_threadpool *pool;    /* created on first query */
    sqe_cursor *cursors;     /* open cursors, linked through prev/next */
    uint16_t zone;           /* session time zone (types/tz.c key; 0: UTC) */
    uint16_t local_zone;     /* what SET TIME ZONE LOCAL restores */
};

/* One column of the batch being read, as text. */
typedef struct col_text {
    bool rendered; /* for the current batch */
    sqe_strbuf text;
    size_t *offs; /* cap offsets into text; SIZE_MAX: SQL NULL */
    size_t *lens;
    uint32_t cap; /* rows offs/lens hold: grown to the batch's rows, so a
                     one-row result of 60,000 columns does not take 2048
                     slots per column */
} col_text;

struct sqe_cursor {
    sqe_session *session; /* NULL once the session closed */
    sqe_cursor *prev, *next;
    atomic_bool cancel; /* the query's cancel flag */
    uint64_t t0, t_end;
    bool ended; /* no more rows: end reached or failed */

    sqe_error_class cls; /* SQE_OK until the statement fails */
    char *error;
    const char *status; /* static */
    char *notices;

    int n_cols;
    char **names;
    char **types;
    sqe_value_kind *kinds;

    sqe_arena *arena;  /* statement arena while the query runs (plan, AST) */
    sqe_plan *plan;    /* released when the query is finished */
    sqe_exec_query *q; /* running query, or NULL */
    sqe_resultset *rs; /* materialized rows (SHOW, EXPLAIN), or NULL */
    size_t rs_next;    /* next batch of rs */

    const sqe_batch *batch; /* current batch (owned by q or rs), or NULL */
    uint32_t n_rows;        /* its rows */
    uint32_t row;           /* current row in it */
    bool has_row;
    col_text *cols;
    uint64_t n_delivered;
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
    size_t *lens; /* n_rows * n_cols byte lengths */
    char *text;   /* one buffer holding every cell */
};

const char *sqe_version(void) {
    return SQE_VERSION;
}

/* ---------------------------------------------------------- sessions */

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
    sqe_s3_config flags;
    sqe_s3_config_defaults(&flags);
    flags.endpoint = (char *)s->opts.s3_endpoint;
    flags.region = (char *)s->opts.s3_region;
    flags.virtual_hosted = s->opts.s3_virtual_hosted;
    s->stores =
        sqe_io_registry_new_with_keys(NULL, &flags, s->opts.s3_access_key, s->opts.s3_secret_key);
    s->opts.s3_endpoint = s->opts.s3_region = s->opts.s3_access_key = s->opts.s3_secret_key = NULL;
    sqe_hive_catalog_set_registry(s->cat, s->stores);
    return s;
}

static void cursor_detach(sqe_cursor *c);

void sqe_session_close(sqe_session *s) {
    if (!s) return;
    while (s->cursors) cursor_detach(s->cursors);
    sqe_hive_catalog_free(s->cat);
    sqe_io_registry_free(s->stores);
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

void sqe_session_set_tuning(sqe_session *s, const sqe_options *opts) {
    if (!opts) return;
    s->opts.threads = opts->threads;
    s->opts.memory_limit = opts->memory_limit;
    s->opts.parallel_min_bytes = opts->parallel_min_bytes;
    s->opts.text_split_bytes = opts->text_split_bytes;
}

/* The pool for the next query: (re)created with the wanted size unless a
 * cursor still holds a query that may use the current one. Its threads take
 * no signals, like the query threads. */
static sqe_threadpool *session_pool(sqe_session *s) {
    int want = s->opts.threads > 0 ? s->opts.threads : sqe_cpu_count();
    if (s->pool && sqe_threadpool_size(s->pool) != want) {
        bool busy = false;
        for (sqe_cursor *c = s->cursors; c; c = c->next) busy |= c->q != NULL;
        if (!busy) {
            sqe_threadpool_free(s->pool);
            s->pool = NULL;
        }
    }
    if (!s->pool) {
        sigset_t all, old;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &old);
        s->pool = sqe_threadpool_new(want);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    }
    return s->pool;
}

/* ---------------------------------------------------------- cursors */

static sqe_value_kind kind_of(sqe_type t) {
    if (t.id == SQE_T_BOOLEAN) return SQE_KIND_BOOLEAN;
    if (sqe_type_is_numeric(t)) return SQE_KIND_NUMBER;
    return SQE_KIND_TEXT;
}

static sqe_cursor *cursor_new(sqe_session *s) {
    sqe_cursor *c = sqe_calloc(1, sizeof *c);
    atomic_init(&c->cancel, false);
    c->t0 = sqe_clock_ns();
    c->session = s;
    c->next = s->cursors;
    if (s->cursors) s->cursors->prev = c;
    s->cursors = c;
    return c;
}

static void cursor_set_schema(sqe_cursor *c, int n_cols, const char *const *names,
                              const sqe_type *types) {
    size_t n = (size_t)(n_cols > 0 ? n_cols : 1);
    c->n_cols = n_cols;
    c->names = sqe_calloc(n, sizeof *c->names);
    c->types = sqe_calloc(n, sizeof *c->types);
    c->kinds = sqe_calloc(n, sizeof *c->kinds);
    c->cols = sqe_calloc(n, sizeof *c->cols);
    for (int i = 0; i < n_cols; i++) {
        char tb[64];
        c->names[i] = sqe_strdup(names[i] ? names[i] : "");
        c->types[i] = sqe_strdup(sqe_type_sql_name(types[i], tb, sizeof tb));
        c->kinds[i] = kind_of(types[i]);
        sqe_strbuf_init(&c->cols[i].text);
    }
}

/* Waits for the query's thread and frees the plan and the arena. */
static void cursor_stop_query(sqe_cursor *c) {
    sqe_exec_finish(c->q);
    c->q = NULL;
    c->batch = NULL;
    if (c->plan) sqe_plan_release(c->plan);
    c->plan = NULL;
    sqe_arena_free(c->arena);
    c->arena = NULL;
}

static void cursor_end(sqe_cursor *c) {
    if (!c->ended) c->t_end = sqe_clock_ns();
    c->ended = true;
    c->batch = NULL;
    c->has_row = false;
}

/* Puts the cursor in the error state (the first error wins). */
static void cursor_fail(sqe_cursor *c, const sqe_error *err) {
    if (c->cls == SQE_OK) {
        c->cls = err->cls == SQE_OK ? SQE_ERR_INTERNAL : err->cls;
        c->error = sqe_strdup(err->msg[0] ? err->msg : "unknown error");
    }
    if (c->q) sqe_exec_cancel(c->q); /* stops now; joined by close */
    cursor_end(c);
}

/* Takes the next batch with rows. False at the end or on failure. */
static bool cursor_load_batch(sqe_cursor *c) {
    c->batch = NULL;
    c->has_row = false;
    for (int i = 0; i < c->n_cols; i++) c->cols[i].rendered = false;
    while (!c->ended) {
        sqe_error err;
        sqe_error_clear(&err);
        const sqe_batch *b = NULL;
        if (c->q) {
            bool done = false;
            if (!sqe_exec_fetch(c->q, &b, &done, &err)) {
                cursor_fail(c, &err);
                return false;
            }
            if (done) {
                cursor_stop_query(c);
                cursor_end(c);
                return false;
            }
        } else if (atomic_load(&c->cancel)) {
            sqe_error_set(&err, SQE_ERR_CANCELLED, "query was cancelled");
            cursor_fail(c, &err);
            return false;
        } else if (c->rs && c->rs_next < c->rs->batches.len) {
            b = c->rs->batches.items[c->rs_next++];
        } else {
            cursor_end(c);
            return false;
        }
        if (b->n_rows == 0) continue;
        c->batch = b;
        c->n_rows = b->n_rows;
        c->row = 0;
        c->has_row = true;
        c->n_delivered += b->n_rows;
        return true;
    }
    return false;
}

/* Appends the decimal text of x (as "%lld" writes it). */
static void put_int(sqe_strbuf *sb, int64_t x) {
    char buf[24];
    char *p = buf + sizeof buf;
    uint64_t u = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (x < 0) *--p = '-';
    sqe_strbuf_append(sb, p, (size_t)(buf + sizeof buf - p));
}

/* Renders column col of the current batch (every row) to text: the texts of
 * sqe_value_format, with direct paths for strings and integers (the bulk of
 * a big result). */
static void render_column(sqe_cursor *c, int col) {
    col_text *ct = &c->cols[col];
    if (ct->cap < c->n_rows) {
        uint32_t cap = ct->cap ? ct->cap : 8;
        while (cap < c->n_rows) cap *= 2;
        ct->offs = sqe_realloc(ct->offs, cap * sizeof *ct->offs);
        ct->lens = sqe_realloc(ct->lens, cap * sizeof *ct->lens);
        ct->cap = cap;
    }
    sqe_strbuf_clear(&ct->text);
    const sqe_vector *v = col < c->batch->n_cols ? c->batch->cols[col] : NULL;
    sqe_type_id id = v ? v->type.id : SQE_T_NULL;
    for (uint32_t r = 0; r < c->n_rows; r++) {
        if (id == SQE_T_NULL || sqe_vector_is_null(v, r)) {
            ct->offs[r] = SIZE_MAX;
            ct->lens[r] = 0;
            continue;
        }
        size_t at = ct->text.len;
        switch (id) {
        case SQE_T_VARCHAR: {
            const sqe_string *str = &SQE_VEC_DATA(v, sqe_string)[r];
            sqe_strbuf_append(&ct->text, sqe_string_data(str), str->len);
            break;
        }
        case SQE_T_TINYINT:
            put_int(&ct->text, SQE_VEC_DATA(v, int8_t)[r]);
            break;
        case SQE_T_SMALLINT:
            put_int(&ct->text, SQE_VEC_DATA(v, int16_t)[r]);
            break;
        case SQE_T_INTEGER:
            put_int(&ct->text, SQE_VEC_DATA(v, int32_t)[r]);
            break;
        case SQE_T_BIGINT:
            put_int(&ct->text, SQE_VEC_DATA(v, int64_t)[r]);
            break;
        default: {
            sqe_value val;
            sqe_vector_get_value(v, r, &val);
            sqe_value_format(&val, &ct->text);
            break;
        }
        }
        ct->offs[r] = at;
        ct->lens[r] = ct->text.len - at;
        sqe_strbuf_putc(&ct->text, '\0');
    }
    ct->rendered = true;
}

static const char *cell_text(sqe_cursor *c, uint32_t row, int col, size_t *len) {
    if (len) *len = 0;
    if (!c->batch || row >= c->n_rows || col < 0 || col >= c->n_cols) return NULL;
    col_text *ct = &c->cols[col];
    if (!ct->rendered) render_column(c, col);
    if (ct->offs[row] == SIZE_MAX) return NULL;
    if (len) *len = ct->lens[row];
    return ct->text.data + ct->offs[row];
}

/* EXPLAIN ANALYZE's storage line: the requests the session's stores made
 * between `before` and now (planning included: manifests, join
 * estimates). Nothing when no store counts. Other statements of the
 * session running at the same time are counted too. */
static void explain_storage(sqe_session *s, const sqe_io_stats *before, sqe_strbuf *sb) {
    sqe_io_stats now;
    if (!sqe_io_registry_stats(s->stores, &now)) return;
    if (sb->len && sb->data[sb->len - 1] != '\n') sqe_strbuf_putc(sb, '\n');
    sqe_strbuf_printf(sb,
                      "Storage: LIST %llu, GET %llu, HEAD %llu, PUT %llu, DELETE %llu, retries "
                      "%llu, bytes read %llu, bytes written %llu",
                      (unsigned long long)(now.n_list - before->n_list),
                      (unsigned long long)(now.n_get - before->n_get),
                      (unsigned long long)(now.n_head - before->n_head),
                      (unsigned long long)(now.n_put - before->n_put),
                      (unsigned long long)(now.n_del - before->n_del),
                      (unsigned long long)(now.n_retry - before->n_retry),
                      (unsigned long long)(now.bytes_read - before->bytes_read),
                      (unsigned long long)(now.bytes_written - before->bytes_written));
}

static bool run_explain(sqe_session *s, sqe_arena *arena, const sqe_ast_stmt *st,
                        sqe_resultset **out, sqe_error *err) {
    const sqe_ast_stmt *inner = st->u.explain.stmt;
    if (inner->kind != SQE_STMT_SELECT)
        return sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                             "EXPLAIN is only supported for queries (SELECT)");
    sqe_io_stats before; /* all zero when no store exists yet */
    sqe_io_registry_stats(s->stores, &before);
    sqe_plan *plan = sqe_plan_query_in_zone(arena, s->cat, s->zone, inner->u.query, err);
    if (!plan) return false;
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    if (st->u.explain.analyze) {
        sqe_threadpool *pool = session_pool(s);
        sqe_exec_options eo = {.threads = sqe_threadpool_size(pool),
                               .memory_limit = s->opts.memory_limit,
                               .pool = pool,
                               .parallel_min_bytes = s->opts.parallel_min_bytes,
                               .text_split_bytes = s->opts.text_split_bytes};
        if (!sqe_exec_explain_analyze(plan, &eo, &sb, err)) {
            sqe_plan_release(plan);
            sqe_strbuf_free(&sb);
            return false;
        }
        explain_storage(s, &before, &sb);
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

/* The zone key for SET TIME ZONE's value: a zone name, or an INTERVAL DAY
 * TO SECOND offset of whole minutes within +-14:00 (Trino's rules and
 * texts). */
static bool zone_of_value(sqe_arena *arena, const sqe_value *v, const sqe_ast_expr *e,
                          uint16_t *key, sqe_error *err) {
    if (v->is_null)
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                             "SET TIME ZONE: the time zone must not be NULL");
    if (v->type.id == SQE_T_VARCHAR) return sqe_tz_key(v->v.s.ptr, v->v.s.len, key, err);
    if (v->type.id == SQE_T_INTERVAL_DS) {
        int64_t ms = v->v.i;
        if (ms % 60000 != 0)
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "Invalid time zone offset interval: interval contains seconds");
        int64_t min = ms / 60000, a = min < 0 ? -min : min;
        if (a > 14 * 60)
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "Invalid offset minutes %lld (the offset must be within "
                                 "-14:00..+14:00)",
                                 (long long)min);
        char z[16];
        snprintf(z, sizeof z, "%c%02lld:%02lld", min < 0 ? '-' : '+', (long long)(a / 60),
                 (long long)(a % 60));
        return sqe_tz_key(z, strlen(z), key, err);
    }
    char tb[64];
    return sqe_error_set(err, SQE_ERR_TYPE_MISMATCH,
                         "Expected expression of varchar or interval day-time type, but '%s' has "
                         "%s type",
                         sqe_sql_expr_to_string(arena, e),
                         sqe_type_sql_name(v->type, tb, sizeof tb));
}

/* SET TIME ZONE LOCAL | SET TIME ZONE expr. */
static bool set_time_zone(sqe_session *s, sqe_arena *arena, const sqe_ast_stmt *st,
                          sqe_error *err) {
    const sqe_ast_expr *e = st->u.set_time_zone.zone;
    if (!e) {
        s->zone = s->local_zone;
        return true;
    }
    sqe_value v;
    uint16_t key;
    if (!sqe_plan_eval_constant(arena, s->cat, s->zone, e, "SET TIME ZONE", &v, err) ||
        !zone_of_value(arena, &v, e, &key, err))
        return false;
    s->zone = key;
    return true;
}

char *sqe_session_set_local_time_zone(sqe_session *s, const char *name) {
    uint16_t key;
    sqe_error err;
    sqe_error_clear(&err);
    if (!name || !sqe_tz_key(name, strlen(name), &key, &err))
        return sqe_strdup(name ? err.msg : "time zone name is NULL");
    s->zone = s->local_zone = key;
    return NULL;
}

/* Plans a query and starts it; the cursor takes the arena. */
static bool start_select(sqe_session *s, sqe_cursor *c, sqe_arena *arena,
                         const sqe_ast_query *query, sqe_error *err) {
    sqe_plan *plan = sqe_plan_query_in_zone(arena, s->cat, s->zone, query, err);
    if (!plan) return false;
    sqe_threadpool *pool = session_pool(s);
    sqe_exec_options eo = {.threads = sqe_threadpool_size(pool),
                           .memory_limit = s->opts.memory_limit,
                           .pool = pool,
                           .parallel_min_bytes = s->opts.parallel_min_bytes,
                           .text_split_bytes = s->opts.text_split_bytes,
                           .cancel = &c->cancel};
    cursor_set_schema(c, plan->n_out, plan->out_names, plan->out_types);
    c->q = sqe_exec_start(plan, &eo, err);
    if (!c->q) {
        sqe_plan_release(plan);
        return false;
    }
    c->plan = plan;
    c->arena = arena;
    return true;
}

sqe_cursor *sqe_session_query(sqe_session *s, const char *sql) {
    sqe_cursor *c = cursor_new(s);
    sqe_arena *arena = sqe_arena_new(0);
    sqe_error err;
    sqe_error_clear(&err);
    sqe_resultset *rs = NULL;
    const char *status = NULL;
    sqe_strbuf notices;
    sqe_strbuf_init(&notices);
    bool ok;

    sqe_ast_stmt *st = sqe_sql_parse(arena, sql, &err);
    if (st && st->kind == SQE_STMT_SHOW_PARTITIONS && st->u.target.where) {
        /* answered by a query over the partition list (show_partitions.c) */
        char *q = sqe_engine_show_partitions_sql(s->cat, st, &err);
        if (q) {
            sqe_arena_free(arena);
            sqe_strbuf_free(&notices);
            sqe_cursor_close(c);
            sqe_cursor *qc = sqe_session_query(s, q);
            sqe_free(q);
            /* a position would point into the rewritten query: drop it */
            char *at = qc->error ? strstr(qc->error, " at line ") : NULL;
            if (at) *at = '\0';
            return qc;
        }
        st = NULL;
    }
    if (!st) {
        ok = false;
    } else {
        switch (st->kind) {
        case SQE_STMT_SELECT:
            ok = start_select(s, c, arena, st->u.query, &err);
            break;
        case SQE_STMT_EXPLAIN:
            ok = run_explain(s, arena, st, &rs, &err);
            break;
        case SQE_STMT_CREATE_SECRET:
        case SQE_STMT_DROP_SECRET:
        case SQE_STMT_SHOW_SECRETS:
            ok = sqe_engine_secret_stmt(s, st, &rs, &status, &err);
            break;
        case SQE_STMT_SHOW_FUNCTIONS:
            ok = sqe_func_show(st->u.show.like, &rs, &err);
            status = "SHOW FUNCTIONS";
            break;
        case SQE_STMT_SET_TIME_ZONE:
            ok = set_time_zone(s, arena, st, &err);
            status = "SET TIME ZONE";
            break;
        case SQE_STMT_ANALYZE: {
            sqe_threadpool *pool = session_pool(s);
            sqe_exec_options eo = {.threads = sqe_threadpool_size(pool),
                                   .memory_limit = s->opts.memory_limit,
                                   .pool = pool,
                                   .parallel_min_bytes = s->opts.parallel_min_bytes,
                                   .text_split_bytes = s->opts.text_split_bytes,
                                   .cancel = &c->cancel};
            ok = sqe_engine_analyze(s->cat, st, &eo, &notices, &err);
            status = "ANALYZE";
            break;
        }
        case SQE_STMT_UNSUPPORTED:
            ok = sqe_error_set(&err, SQE_ERR_NOT_SUPPORTED, "%s is not supported yet",
                               st->u.unsupported.what ? st->u.unsupported.what : "this statement");
            break;
        default:
            ok = sqe_hive_execute(s->cat, st, &rs, &status, &notices, &err);
            break;
        }
    }
    if (c->arena != arena) sqe_arena_free(arena); /* a running query keeps its arena */

    if (!ok) {
        sqe_resultset_free(rs);
        cursor_fail(c, &err);
    } else if (rs) {
        cursor_set_schema(c, rs->n_cols, (const char *const *)rs->names, rs->types);
        c->rs = rs;
    } else if (!c->q) {
        c->status = status ? status : "OK";
        cursor_end(c);
    }
    if (notices.len) {
        while (notices.len && notices.data[notices.len - 1] == '\n')
            notices.data[--notices.len] = '\0';
        c->notices = sqe_strbuf_detach(&notices);
    } else {
        sqe_strbuf_free(&notices);
    }
    return c;
}

sqe_cursor *sqe_session_query_n(sqe_session *s, const char *sql, size_t len) {
    sqe_error err;
    sqe_error_clear(&err);
    if (!sqe_sql_check_text(sql ? sql : "", sql ? len : 0, &err)) {
        sqe_cursor *c = cursor_new(s);
        cursor_fail(c, &err);
        return c;
    }
    char *text = sqe_strndup(sql ? sql : "", sql ? len : 0);
    sqe_cursor *c = sqe_session_query(s, text);
    sqe_free(text);
    return c;
}

bool sqe_cursor_ok(const sqe_cursor *c) {
    return c->cls == SQE_OK;
}
const char *sqe_cursor_error(const sqe_cursor *c) {
    return c->error;
}
const char *sqe_cursor_error_class(const sqe_cursor *c) {
    return sqe_error_class_name(c->cls);
}
const char *sqe_cursor_sqlstate(const sqe_cursor *c) {
    return sqe_error_sqlstate(c->cls);
}
const char *sqe_cursor_status(const sqe_cursor *c) {
    return c->status;
}
const char *sqe_cursor_notices(const sqe_cursor *c) {
    return c->notices;
}
int sqe_cursor_column_count(const sqe_cursor *c) {
    return c->n_cols;
}
const char *sqe_cursor_column_name(const sqe_cursor *c, int col) {
    return col >= 0 && col < c->n_cols ? c->names[col] : NULL;
}
const char *sqe_cursor_column_type(const sqe_cursor *c, int col) {
    return col >= 0 && col < c->n_cols ? c->types[col] : NULL;
}
sqe_value_kind sqe_cursor_column_kind(const sqe_cursor *c, int col) {
    return col >= 0 && col < c->n_cols ? c->kinds[col] : SQE_KIND_TEXT;
}

bool sqe_cursor_next_row(sqe_cursor *c) {
    if (c->has_row && c->row + 1 < c->n_rows) {
        c->row++;
        return true;
    }
    return cursor_load_batch(c);
}

uint32_t sqe_cursor_next_batch(sqe_cursor *c) {
    if (!cursor_load_batch(c)) return 0;
    c->row = c->n_rows - 1;
    return c->n_rows;
}

const char *sqe_cursor_value(sqe_cursor *c, int col, size_t *len) {
    if (!c->has_row) {
        if (len) *len = 0;
        return NULL;
    }
    return cell_text(c, c->row, col, len);
}

const char *sqe_cursor_batch_value(sqe_cursor *c, uint32_t row, int col, size_t *len) {
    return cell_text(c, row, col, len);
}

/* The current row's value of col, or false for NULL / no row. */
static bool current_value(const sqe_cursor *c, int col, sqe_value *v) {
    if (!c->has_row || col < 0 || col >= c->n_cols || col >= c->batch->n_cols) return false;
    const sqe_vector *vec = c->batch->cols[col];
    if (vec->type.id == SQE_T_NULL || sqe_vector_is_null(vec, c->row)) return false;
    sqe_vector_get_value(vec, c->row, v);
    return true;
}

bool sqe_cursor_int64(sqe_cursor *c, int col, int64_t *out) {
    sqe_value v;
    if (!current_value(c, col, &v)) return false;
    if (v.type.id == SQE_T_BOOLEAN) {
        *out = v.v.b ? 1 : 0;
        return true;
    }
    if (!sqe_type_is_integer(v.type)) return false;
    *out = v.v.i;
    return true;
}

bool sqe_cursor_double(sqe_cursor *c, int col, double *out) {
    sqe_value v;
    if (!current_value(c, col, &v)) return false;
    if (sqe_type_is_integer(v.type)) {
        *out = (double)v.v.i;
    } else if (v.type.id == SQE_T_REAL) {
        *out = v.v.f;
    } else if (v.type.id == SQE_T_DOUBLE) {
        *out = v.v.d;
    } else if (v.type.id == SQE_T_DECIMAL) {
        double d = (double)v.v.dec;
        for (int i = 0; i < v.type.scale; i++) d /= 10.0;
        *out = d;
    } else {
        return false;
    }
    return true;
}

uint64_t sqe_cursor_row_count(const sqe_cursor *c) {
    return c->n_delivered;
}

double sqe_cursor_elapsed_ms(const sqe_cursor *c) {
    uint64_t end = c->ended ? c->t_end : sqe_clock_ns();
    return (double)(end - c->t0) / 1e6;
}

/* A lock-free atomic store is async-signal-safe: what sqe.h promises. */
_Static_assert(ATOMIC_BOOL_LOCK_FREE == 2, "sqe_cursor_cancel needs a lock-free atomic_bool");

void sqe_cursor_cancel(sqe_cursor *c) {
    if (c) atomic_store(&c->cancel, true);
}

/* Unlinks the cursor from its session. */
static void cursor_unlink(sqe_cursor *c) {
    sqe_session *s = c->session;
    if (!s) return;
    if (c->prev)
        c->prev->next = c->next;
    else
        s->cursors = c->next;
    if (c->next) c->next->prev = c->prev;
    c->prev = c->next = NULL;
    c->session = NULL;
}

/* The session closes first: the cursor's query stops and the cursor fails
 * (unless its rows had ended); it stays valid until sqe_cursor_close. */
static void cursor_detach(sqe_cursor *c) {
    if (!c->ended) {
        sqe_error err;
        sqe_error_set(&err, SQE_ERR_CANCELLED, "query was cancelled: its session was closed");
        cursor_fail(c, &err);
    }
    cursor_stop_query(c);
    cursor_unlink(c);
}

void sqe_cursor_close(sqe_cursor *c) {
    if (!c) return;
    cursor_unlink(c);
    cursor_stop_query(c);
    sqe_resultset_free(c->rs);
    for (int i = 0; i < c->n_cols; i++) {
        sqe_free(c->names[i]);
        sqe_free(c->types[i]);
        sqe_strbuf_free(&c->cols[i].text);
        sqe_free(c->cols[i].offs);
        sqe_free(c->cols[i].lens);
    }
    sqe_free(c->names);
    sqe_free(c->types);
    sqe_free(c->kinds);
    sqe_free(c->cols);
    sqe_free(c->error);
    sqe_free(c->notices);
    sqe_free(c);
}

/* ---------------------------------------------------------- results */

sqe_result *sqe_session_execute(sqe_session *s, const char *sql) {
    uint64_t t0 = sqe_clock_ns();
    sqe_cursor *c = sqe_session_query(s, sql);
    sqe_result *r = sqe_calloc(1, sizeof *r);
    SQE_ARRAY(size_t) offs = {0};
    SQE_ARRAY(size_t) lens = {0};
    sqe_strbuf text;
    sqe_strbuf_init(&text);
    while (sqe_cursor_next_row(c)) {
        for (int col = 0; col < c->n_cols; col++) {
            size_t len = 0;
            const char *v = sqe_cursor_value(c, col, &len);
            SQE_ARRAY_PUSH(NULL, offs, v ? text.len : SIZE_MAX);
            SQE_ARRAY_PUSH(NULL, lens, len);
            if (!v) continue;
            sqe_strbuf_append(&text, v, len);
            sqe_strbuf_putc(&text, '\0');
        }
        r->n_rows++;
    }
    if (!sqe_cursor_ok(c)) {
        r->cls = c->cls;
        r->error = sqe_strdup(c->error);
        r->n_rows = 0;
    } else {
        r->status = c->status;
        r->n_cols = c->n_cols;
        size_t n = (size_t)(c->n_cols > 0 ? c->n_cols : 1);
        r->names = sqe_calloc(n, sizeof *r->names);
        r->types = sqe_calloc(n, sizeof *r->types);
        r->kinds = sqe_calloc(n, sizeof *r->kinds);
        for (int i = 0; i < c->n_cols; i++) {
            r->names[i] = sqe_strdup(c->names[i]);
            r->types[i] = sqe_strdup(c->types[i]);
            r->kinds[i] = c->kinds[i];
        }
        r->text = sqe_strbuf_detach(&text);
        r->cells = sqe_malloc(sizeof(char *) * (offs.len ? offs.len : 1));
        for (size_t i = 0; i < offs.len; i++)
            r->cells[i] = offs.items[i] == SIZE_MAX ? NULL : r->text + offs.items[i];
        r->lens = lens.items;
        lens.items = NULL;
    }
    if (c->notices) r->notices = sqe_strdup(c->notices);
    sqe_strbuf_free(&text);
    SQE_ARRAY_FREE(offs);
    SQE_ARRAY_FREE(lens);
    sqe_cursor_close(c);
    r->elapsed_ms = (double)(sqe_clock_ns() - t0) / 1e6;
    return r;
}

bool sqe_split_statements(const char *script, sqe_statement_cb cb, void *ctx) {
    return sqe_sql_split(script, (sqe_sql_stmt_cb)cb, ctx);
}

bool sqe_split_statements_n(const char *script, size_t len, sqe_statement_cb cb, void *ctx) {
    return sqe_sql_split_n(script, len, (sqe_sql_stmt_cb)cb, ctx);
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

size_t sqe_result_value_len(const sqe_result *r, uint64_t row, int col) {
    if (row >= r->n_rows || col < 0 || col >= r->n_cols) return 0;
    return r->lens[row * (uint64_t)r->n_cols + (uint64_t)col];
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
    sqe_free(r->lens);
    sqe_free(r->text);
    sqe_free(r->error);
    sqe_free(r->notices);
    sqe_free(r);
}
