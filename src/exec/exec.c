/*
 * exec.c - the executor's entry points and per-query context: builds one
 * operator per plan node (any number of children), frees operator trees,
 * keeps the query's memory account, its stop signals and the state plan
 * nodes share between their pipeline copies, and runs a plan into a result
 * set (sqe_exec_run, a wrapper over sqe_exec_produce that collects every
 * batch; query.c runs the same producer on a thread of its own and streams).
 *
 * Stop signals. ctx->abort means "stop with an error": a worker failed (its
 * own error is the one reported) or the user cancelled (ctx->cancel, set by
 * another thread; the statement fails with CANCELLED). Operators check it
 * through sqe_exec_stopped at every batch and morsel and never treat it as
 * end of input, so no operator can mistake a failure for a short input. A
 * satisfied LIMIT is a different thing: it ends only its own pipeline, via
 * that pipeline's done flag (drain.c), and nothing is lost elsewhere.
 *
 * Shared state. A join's hash table is built once per query and probed by
 * every pipeline copy: the first copy to open builds it (sqe_exec_shared_get),
 * later ones find it ready. Pipeline copies are opened on the driver's
 * thread before any worker starts (drain.c), so a build never waits for a
 * pool thread that is itself waiting for the build.
 *
 * See drain.c for how pipelines run in parallel and explain.c for EXPLAIN.
 */
#include "exec/exec_int.h"

#include <stdio.h>
#include <stdlib.h>

/* --------------------------------------------------------------- context */

#define SQE_EXEC_DEFAULT_PARALLEL_MIN_BYTES ((uint64_t)4 << 20)
#define SQE_EXEC_DEFAULT_TEXT_SPLIT_BYTES ((uint64_t)32 << 20)

void sqe_exec_ctx_init(sqe_exec_ctx *ctx, const sqe_exec_options *opts) {
    memset(ctx, 0, sizeof *ctx);
    int threads = 1;
    ctx->parallel_min_bytes = SQE_EXEC_DEFAULT_PARALLEL_MIN_BYTES;
    ctx->text_split_bytes = SQE_EXEC_DEFAULT_TEXT_SPLIT_BYTES;
    if (opts) {
        threads = opts->threads > 0 ? opts->threads : sqe_cpu_count();
        ctx->pool = opts->pool;
        ctx->memory_limit = opts->memory_limit;
        ctx->cancel = opts->cancel;
        if (opts->parallel_min_bytes) ctx->parallel_min_bytes = opts->parallel_min_bytes;
        ctx->analyze = opts->analyze;
        ctx->list_in_flight = opts->list_in_flight;
        if (opts->text_split_bytes == UINT64_MAX)
            ctx->text_split_bytes = 0;
        else if (opts->text_split_bytes)
            ctx->text_split_bytes = opts->text_split_bytes;
    }
    if (!ctx->pool || threads < 1) threads = 1;
    ctx->temp_dir = opts && opts->temp_dir && *opts->temp_dir ? opts->temp_dir : getenv("TMPDIR");
    if (!ctx->temp_dir || !*ctx->temp_dir) ctx->temp_dir = "/tmp";
    ctx->n_threads = threads;
    atomic_init(&ctx->mem_used, 0);
    atomic_init(&ctx->abort, false);
    atomic_init(&ctx->mem_peak, 0);
    pthread_mutex_init(&ctx->shared_mu, NULL);
    pthread_cond_init(&ctx->shared_cv, NULL);
}

sqe_exec_stats *sqe_exec_stats_for(sqe_exec_ctx *ctx, const sqe_plan *p) {
    if (!ctx->analyze) return NULL;
    pthread_mutex_lock(&ctx->shared_mu);
    sqe_exec_stats *st = NULL;
    for (size_t i = 0; i < ctx->stats.len && !st; i++)
        if (ctx->stats.items[i]->plan == p) st = ctx->stats.items[i];
    if (!st) {
        st = sqe_calloc(1, sizeof *st);
        st->plan = p;
        SQE_ARRAY_PUSH(NULL, ctx->stats, st);
    }
    pthread_mutex_unlock(&ctx->shared_mu);
    return st;
}

bool sqe_op_next_counted(sqe_op *op, sqe_batch **out, bool *eof, sqe_error *err) {
    if (!op->ran) {
        op->ran = true;
        atomic_fetch_add(&op->stats->copies, 1);
    }
    uint64_t t0 = sqe_clock_ns();
    bool ok = op->vt->next(op, out, eof, err);
    atomic_fetch_add(&op->stats->ns, sqe_clock_ns() - t0);
    if (ok && !*eof && *out) {
        atomic_fetch_add(&op->stats->rows, sqe_batch_live(*out));
        atomic_fetch_add(&op->stats->batches, 1);
    }
    return ok;
}

void sqe_exec_ctx_destroy(sqe_exec_ctx *ctx) {
    for (size_t i = 0; i < ctx->stats.len; i++) sqe_free(ctx->stats.items[i]);
    SQE_ARRAY_FREE(ctx->stats);
    for (size_t i = 0; i < ctx->shared.len; i++) {
        sqe_exec_shared *sh = ctx->shared.items[i];
        if (sh->state && sh->free_fn) sh->free_fn(sh->state);
        sqe_free(sh);
    }
    SQE_ARRAY_FREE(ctx->shared);
    for (size_t i = 0; i < ctx->dyns.len; i++) {
        sqe_dyn_filter_free(ctx->dyns.items[i]->f);
        sqe_free(ctx->dyns.items[i]);
    }
    SQE_ARRAY_FREE(ctx->dyns);
    pthread_mutex_destroy(&ctx->shared_mu);
    pthread_cond_destroy(&ctx->shared_cv);
}

sqe_exec_dyn *sqe_exec_dyn_for(sqe_exec_ctx *ctx, const sqe_plan *scan) {
    sqe_exec_dyn *d = NULL;
    pthread_mutex_lock(&ctx->shared_mu);
    for (size_t i = 0; i < ctx->dyns.len && !d; i++)
        if (ctx->dyns.items[i]->scan == scan) d = ctx->dyns.items[i];
    pthread_mutex_unlock(&ctx->shared_mu);
    return d;
}

sqe_exec_dyn *sqe_exec_dyn_register(sqe_exec_ctx *ctx, const sqe_plan *scan, int col,
                                    sqe_sort_key key, int reader_col, sqe_type type) {
    sqe_exec_dyn *d = sqe_exec_dyn_for(ctx, scan);
    if (d) {
        sqe_dyn_filter_reset(d->f);
        return d;
    }
    d = sqe_calloc(1, sizeof *d);
    d->scan = scan;
    d->col = col;
    d->key = key;
    d->f = sqe_dyn_filter_new(reader_col, type, key.desc, key.nulls_first);
    pthread_mutex_lock(&ctx->shared_mu);
    SQE_ARRAY_PUSH(NULL, ctx->dyns, d);
    pthread_mutex_unlock(&ctx->shared_mu);
    return d;
}

bool sqe_exec_stopped(sqe_exec_ctx *ctx, sqe_error *err) {
    if (ctx->cancel && atomic_load(ctx->cancel)) {
        atomic_store(&ctx->abort, true);
        sqe_error_set(err, SQE_ERR_CANCELLED, "query was cancelled");
        return true;
    }
    if (atomic_load(&ctx->abort)) {
        sqe_error_set(err, SQE_ERR_INTERNAL, "stopped: another worker of the query failed");
        return true;
    }
    return false;
}

void *sqe_exec_shared_get(sqe_exec_ctx *ctx, sqe_op *op, void *(*build)(sqe_op *op, sqe_error *err),
                          void (*free_fn)(void *state), sqe_error *err) {
    pthread_mutex_lock(&ctx->shared_mu);
    sqe_exec_shared *sh = NULL;
    for (size_t i = 0; i < ctx->shared.len; i++)
        if (ctx->shared.items[i]->plan == op->plan) sh = ctx->shared.items[i];
    if (!sh) {
        sh = sqe_calloc(1, sizeof *sh);
        sh->plan = op->plan;
        sh->free_fn = free_fn;
        SQE_ARRAY_PUSH(NULL, ctx->shared, sh);
    }
    while (sh->phase == 1) pthread_cond_wait(&ctx->shared_cv, &ctx->shared_mu);
    if (sh->phase == 0) {
        sh->phase = 1;
        pthread_mutex_unlock(&ctx->shared_mu);
        sqe_error berr;
        sqe_error_clear(&berr);
        void *state = build(op, &berr);
        pthread_mutex_lock(&ctx->shared_mu);
        sh->state = state;
        sh->phase = state ? 2 : 3;
        if (!state) sh->err = berr;
        pthread_cond_broadcast(&ctx->shared_cv);
    }
    void *state = sh->phase == 2 ? sh->state : NULL;
    if (!state && err) *err = sh->err;
    pthread_mutex_unlock(&ctx->shared_mu);
    return state;
}

bool sqe_exec_mem_track(sqe_exec_ctx *ctx, size_t *tracked, size_t now, const char *op_name,
                        sqe_error *err) {
    size_t old = *tracked;
    *tracked = now;
    if (now < old) {
        atomic_fetch_sub(&ctx->mem_used, old - now);
        return true;
    }
    size_t total = atomic_fetch_add(&ctx->mem_used, now - old) + (now - old);
    size_t peak = atomic_load(&ctx->mem_peak);
    while (total > peak && !atomic_compare_exchange_weak(&ctx->mem_peak, &peak, total)) {
    }
    if (ctx->memory_limit > 0 && now > old && total > ctx->memory_limit)
        return sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED,
                             "query exceeded the memory limit of %zu bytes in %s",
                             ctx->memory_limit, op_name);
    return true;
}

/* ------------------------------------------------------------- operators */

static sqe_op *op_new(sqe_exec_ctx *ctx, const sqe_plan *p, sqe_scan_source *src) {
    switch (p->kind) {
    case SQE_PLAN_SCAN:
        return sqe_exec_scan_new(ctx, p, src);
    case SQE_PLAN_VALUES:
        return sqe_exec_values_new(ctx, p);
    case SQE_PLAN_FILTER:
        return sqe_exec_filter_new(ctx, p);
    case SQE_PLAN_PROJECT:
        return sqe_exec_project_new(ctx, p);
    case SQE_PLAN_AGGREGATE:
        return sqe_exec_hash_agg_new(ctx, p);
    case SQE_PLAN_SORT:
        return sqe_exec_sort_new(ctx, p);
    case SQE_PLAN_TOPN:
        return sqe_exec_topn_new(ctx, p);
    case SQE_PLAN_LIMIT:
        return sqe_exec_limit_new(ctx, p);
    case SQE_PLAN_HASH_JOIN:
        return sqe_exec_hash_join_new(ctx, p);
    case SQE_PLAN_NL_JOIN:
        return sqe_exec_nl_join_new(ctx, p);
    case SQE_PLAN_UNION_ALL:
        return sqe_exec_union_all_new(ctx, p);
    case SQE_PLAN_SET_OP:
        return sqe_exec_set_op_new(ctx, p);
    case SQE_PLAN_WINDOW:
        return sqe_exec_window_new(ctx, p);
    case SQE_PLAN_GROUP_ID:
        return sqe_exec_group_id_new(ctx, p);
    case SQE_PLAN_SINGLE_ROW:
        return sqe_exec_single_row_new(ctx, p);
    default:
        return NULL;
    }
}

/* Which children take the pipeline's shared scan source: only the first
 * child of a streaming operator continues the pipeline. */
static sqe_op *op_build(sqe_exec_ctx *ctx, const sqe_plan *p, sqe_scan_source *src,
                        sqe_error *err) {
    sqe_op *op = op_new(ctx, p, src);
    if (!op) {
        sqe_error_set(err, SQE_ERR_INTERNAL, "plan node kind %d has no operator", (int)p->kind);
        return NULL;
    }
    if (p->kind != SQE_PLAN_SCAN && p->kind != SQE_PLAN_VALUES && p->n_children == 0) {
        sqe_error_set(err, SQE_ERR_INTERNAL, "%s without an input", op->vt->name);
        sqe_op_free(op);
        return NULL;
    }
    op->stats = sqe_exec_stats_for(ctx, p);
    op->n_children = p->n_children;
    op->children = sqe_calloc((size_t)(p->n_children ? p->n_children : 1), sizeof *op->children);
    for (int i = 0; i < p->n_children; i++) {
        op->children[i] = op_build(ctx, p->children[i], i == 0 ? src : NULL, err);
        if (!op->children[i]) {
            sqe_op_free(op);
            return NULL;
        }
    }
    return op;
}

sqe_op *sqe_op_build(sqe_exec_ctx *ctx, const sqe_plan *p, sqe_scan_source *src, sqe_error *err) {
    return op_build(ctx, p, src, err);
}

void sqe_op_free(sqe_op *op) {
    if (!op) return;
    op->vt->close(op);
    for (int i = 0; i < op->n_children; i++) sqe_op_free(op->children[i]);
    sqe_free(op->children);
    sqe_free(op);
}

/* ------------------------------------------------------------------- run */

bool sqe_exec_produce(sqe_exec_ctx *ctx, const sqe_plan *plan, sqe_exec_output *out,
                      sqe_error *err) {
    bool handled = false;
    bool ok = sqe_exec_run_gather(ctx, plan, out, &handled, err);
    if (handled) return ok;
    sqe_op *root = sqe_op_build(ctx, plan, NULL, err);
    if (!root) return false;
    ok = sqe_op_open(root, err);
    while (ok) {
        sqe_batch *b = NULL;
        bool eof = false;
        /* VALUES and other roots without a scan below check nothing */
        if (sqe_exec_stopped(ctx, err) || !sqe_op_next(root, &b, &eof, err)) {
            ok = false;
            break;
        }
        if (eof) break;
        ok = out->push(out, b, err);
    }
    sqe_op_free(root);
    return ok;
}

/* sqe_exec_run's output: every batch appended to one result set. */
typedef struct collect_output {
    sqe_exec_output base;
    pthread_mutex_t mu; /* pipeline copies push concurrently */
    sqe_resultset *rs;
} collect_output;

static bool collect_push(sqe_exec_output *out, sqe_batch *b, sqe_error *err) {
    SQE_UNUSED(err);
    collect_output *c = (collect_output *)out;
    pthread_mutex_lock(&c->mu);
    sqe_resultset_append(c->rs, b);
    pthread_mutex_unlock(&c->mu);
    return true;
}

bool sqe_exec_run(const sqe_plan *plan, const sqe_exec_options *opts, sqe_resultset **out,
                  sqe_error *err) {
    *out = NULL;
    sqe_exec_ctx ctx;
    sqe_exec_ctx_init(&ctx, opts);
    collect_output c = {{collect_push}, PTHREAD_MUTEX_INITIALIZER, NULL};
    c.rs = sqe_resultset_new(plan->n_out, plan->out_names, plan->out_types);
    bool ok = sqe_exec_produce(&ctx, plan, &c.base, err);
    sqe_exec_ctx_destroy(&ctx);
    pthread_mutex_destroy(&c.mu);
    if (!ok) {
        sqe_resultset_free(c.rs);
        return false;
    }
    *out = c.rs;
    return true;
}
