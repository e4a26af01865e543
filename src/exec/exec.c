/*
 * exec.c - the executor's driver: builds one operator per plan node, runs
 * the root to completion into a result set, drains blocking operators
 * (serially or with one pipeline copy per worker thread), and renders
 * EXPLAIN.
 *
 * Parallel drain (sqe_exec_drain). A blocking operator (hash aggregate,
 * sort, top-N) whose child is a scan pipeline, (FILTER|PROJECT)* over SCAN,
 * runs W = ctx->n_threads copies of that pipeline: one scan source (files as
 * morsels in a shared queue), W operator chains built from the same plan
 * nodes, each with its own reader, batches and expression states, and W
 * sink locals. Copy 0 runs on the calling thread; copies 1..W-1 are
 * submitted to the pool. Each copy pulls batches until its scan finds the
 * queue empty, feeding its sink local. Locals are merged into the
 * operator's global state on the calling thread, in copy order.
 *
 * Streaming plans (LIMIT? over a scan pipeline) use the same drain with a
 * gather sink (see run_gather below).
 *
 * Inputs smaller than sqe_exec_parallel_min_bytes (listed before deciding)
 * run as a single copy on the calling thread, so small tables give the same
 * answers run after run (float sums, group order).
 *
 * Robustness of the join: the pool may be busy (even with the caller
 * itself, when a query runs on a pool thread), so the caller never waits for
 * a task that has not started. A task first claims its slot; after running
 * copy 0 the caller cancels every unclaimed slot and waits only for claimed
 * ones. The job record (mutex, slot states) is reference counted, so a
 * cancelled task that starts late touches only memory that is still alive.
 *
 * Errors: the first failing copy records its error and sets ctx->cancel;
 * scans check the flag before each batch and morsel, so the others stop
 * promptly; the first error is returned unchanged.
 */
#include "exec/exec_int.h"

#include <pthread.h>
#include <stdio.h>

/* --------------------------------------------------------------- context */

uint64_t sqe_exec_parallel_min_bytes = (uint64_t)4 << 20;

void sqe_exec_ctx_init(sqe_exec_ctx *ctx, const sqe_exec_options *opts) {
    memset(ctx, 0, sizeof *ctx);
    int threads = 1;
    if (opts) {
        threads = opts->threads > 0 ? opts->threads : sqe_cpu_count();
        ctx->pool = opts->pool;
        ctx->memory_limit = opts->memory_limit;
    }
    if (!ctx->pool || threads < 1) threads = 1;
    ctx->n_threads = threads;
    atomic_init(&ctx->mem_used, 0);
    atomic_init(&ctx->cancel, false);
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
    if (ctx->memory_limit > 0 && now > old && total > ctx->memory_limit)
        return sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED,
                             "query exceeded the memory limit of %zu bytes in %s",
                             ctx->memory_limit, op_name);
    return true;
}

/* ------------------------------------------------------------- operators */

sqe_op *sqe_op_build(sqe_exec_ctx *ctx, const sqe_plan *p, sqe_scan_source *src, sqe_error *err) {
    sqe_op *op = NULL;
    switch (p->kind) {
    case SQE_PLAN_SCAN:
        return sqe_exec_scan_new(ctx, p, src);
    case SQE_PLAN_VALUES:
        return sqe_exec_values_new(ctx, p);
    case SQE_PLAN_FILTER:
        op = sqe_exec_filter_new(ctx, p);
        break;
    case SQE_PLAN_PROJECT:
        op = sqe_exec_project_new(ctx, p);
        break;
    case SQE_PLAN_AGGREGATE:
        op = sqe_exec_hash_agg_new(ctx, p);
        break;
    case SQE_PLAN_SORT:
        op = sqe_exec_sort_new(ctx, p);
        break;
    case SQE_PLAN_TOPN:
        op = sqe_exec_topn_new(ctx, p);
        break;
    case SQE_PLAN_LIMIT:
        op = sqe_exec_limit_new(ctx, p);
        break;
    }
    if (!op) {
        sqe_error_set(err, SQE_ERR_INTERNAL, "unknown plan node kind %d", (int)p->kind);
        return NULL;
    }
    if (!p->child) {
        sqe_error_set(err, SQE_ERR_INTERNAL, "%s without an input", op->vt->name);
        sqe_op_free(op);
        return NULL;
    }
    op->child = sqe_op_build(ctx, p->child, src, err);
    if (!op->child) {
        sqe_op_free(op);
        return NULL;
    }
    return op;
}

void sqe_op_free(sqe_op *op) {
    while (op) {
        sqe_op *child = op->child;
        op->vt->close(op);
        sqe_free(op);
        op = child;
    }
}

/* ----------------------------------------------------------------- drain */

/* The scan at the bottom of a (FILTER|PROJECT)* chain, or NULL. */
static const sqe_plan *pipeline_scan(const sqe_plan *p) {
    while (p && (p->kind == SQE_PLAN_FILTER || p->kind == SQE_PLAN_PROJECT)) p = p->child;
    return p && p->kind == SQE_PLAN_SCAN ? p : NULL;
}

static bool drain_serial(sqe_op *op, sqe_op *pipe, const sqe_sink_vtable *sink, sqe_error *err) {
    if (!sqe_op_open(pipe, err)) return false;
    void *local = sink->local_new(op);
    uint64_t tag = 0; /* consumption order is the serial order */
    for (;;) {
        sqe_batch *b = NULL;
        bool eof = false;
        if (!sqe_op_next(pipe, &b, &eof, err)) goto fail;
        if (eof) break;
        if (!sink->consume(op, local, b, tag, err)) goto fail;
        tag += SQE_BATCH_ROWS;
    }
    return sink->merge(op, local, err);
fail:
    sink->local_free(op, local);
    return false;
}

enum { SLOT_FREE = 0, SLOT_RUNNING, SLOT_DONE, SLOT_CANCELLED };

typedef struct drain_worker {
    sqe_op *pipe;
    sqe_op *scan; /* the bottom of pipe: gives each batch's order tag */
    void *local;
} drain_worker;

typedef struct drain_job {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int refs;
    int n;
    uint8_t *state;
    /* Valid while the driver waits (only claimed slots touch these). */
    sqe_op *op;
    const sqe_sink_vtable *sink;
    drain_worker *workers;
    bool failed;
    sqe_error first_err;
} drain_job;

typedef struct drain_task {
    drain_job *job;
    int idx;
} drain_task;

static void job_release(drain_job *job) {
    pthread_mutex_lock(&job->mu);
    bool last = --job->refs == 0;
    pthread_mutex_unlock(&job->mu);
    if (!last) return;
    pthread_mutex_destroy(&job->mu);
    pthread_cond_destroy(&job->cv);
    sqe_free(job->state);
    sqe_free(job);
}

/* Runs pipeline copy idx into its local; records the first error. */
static void run_copy(drain_job *job, int idx) {
    drain_worker *w = &job->workers[idx];
    sqe_exec_ctx *ctx = job->op->ctx;
    sqe_error err;
    sqe_error_clear(&err);
    bool ok = true;
    for (;;) {
        if (atomic_load(&ctx->cancel)) break;
        sqe_batch *b = NULL;
        bool eof = false;
        if (!sqe_op_next(w->pipe, &b, &eof, &err)) {
            ok = false;
            break;
        }
        if (eof) break;
        if (!job->sink->consume(job->op, w->local, b, sqe_exec_scan_tag(w->scan), &err)) {
            ok = false;
            break;
        }
    }
    if (!ok) {
        pthread_mutex_lock(&job->mu);
        if (!job->failed) {
            job->failed = true;
            job->first_err = err;
        }
        pthread_mutex_unlock(&job->mu);
        atomic_store(&ctx->cancel, true);
    }
}

static void drain_task_fn(void *arg) {
    drain_task *t = arg;
    drain_job *job = t->job;
    int idx = t->idx;
    sqe_free(t);
    pthread_mutex_lock(&job->mu);
    bool claimed = job->state[idx] == SLOT_FREE;
    if (claimed) job->state[idx] = SLOT_RUNNING;
    pthread_mutex_unlock(&job->mu);
    if (claimed) {
        run_copy(job, idx);
        pthread_mutex_lock(&job->mu);
        job->state[idx] = SLOT_DONE;
        pthread_cond_broadcast(&job->cv);
        pthread_mutex_unlock(&job->mu);
    }
    job_release(job);
}

/* Runs copies of the pipeline `pipe_plan` (whose bottom is `scan_plan`)
 * into sink locals and merges them into op in copy order. */
static bool drain_parallel(sqe_op *op, const sqe_plan *pipe_plan, const sqe_plan *scan_plan,
                           const sqe_sink_vtable *sink, sqe_error *err) {
    sqe_exec_ctx *ctx = op->ctx;
    int n = ctx->n_threads;
    sqe_scan_source *src = NULL;
    if (!sqe_scan_source_new(ctx, scan_plan, &src, err)) return false;
    bool large = false;
    if (!sqe_scan_source_prefetch(src, sqe_exec_parallel_min_bytes, &large, err)) {
        sqe_scan_source_free(src);
        return false;
    }
    if (!large) n = 1; /* small input: one copy, on this thread */

    drain_worker *workers = sqe_calloc((size_t)n, sizeof *workers);
    bool ok = true;
    for (int i = 0; i < n && ok; i++) {
        workers[i].pipe = sqe_op_build(ctx, pipe_plan, src, err);
        if (!workers[i].pipe || !sqe_op_open(workers[i].pipe, err)) {
            ok = false;
            break;
        }
        workers[i].scan = workers[i].pipe;
        while (workers[i].scan->child) workers[i].scan = workers[i].scan->child;
        workers[i].local = sink->local_new(op);
    }

    if (ok) {
        drain_job *job = sqe_calloc(1, sizeof *job);
        pthread_mutex_init(&job->mu, NULL);
        pthread_cond_init(&job->cv, NULL);
        job->n = n;
        job->state = sqe_calloc((size_t)n, 1);
        job->op = op;
        job->sink = sink;
        job->workers = workers;
        job->refs = n; /* the driver + n - 1 tasks */
        job->state[0] = SLOT_RUNNING;
        for (int i = 1; i < n; i++) {
            drain_task *t = sqe_malloc(sizeof *t);
            t->job = job;
            t->idx = i;
            sqe_threadpool_submit(ctx->pool, drain_task_fn, t);
        }
        run_copy(job, 0);
        pthread_mutex_lock(&job->mu);
        job->state[0] = SLOT_DONE;
        for (int i = 1; i < n; i++)
            if (job->state[i] == SLOT_FREE) job->state[i] = SLOT_CANCELLED;
        for (;;) {
            bool running = false;
            for (int i = 1; i < n; i++) running |= job->state[i] == SLOT_RUNNING;
            if (!running) break;
            pthread_cond_wait(&job->cv, &job->mu);
        }
        if (job->failed) {
            ok = false;
            *err = job->first_err;
        }
        pthread_mutex_unlock(&job->mu);
        job_release(job);
    }

    /* Merge in copy order (or free on failure). A copy that never ran has an
     * empty local, which merges as a no-op. */
    for (int i = 0; i < n; i++) {
        if (!workers[i].local) continue;
        if (ok)
            ok = sink->merge(op, workers[i].local, err);
        else
            sink->local_free(op, workers[i].local);
        workers[i].local = NULL;
    }
    for (int i = 0; i < n; i++) sqe_op_free(workers[i].pipe);
    sqe_free(workers);
    sqe_scan_source_free(src);
    return ok;
}

bool sqe_exec_drain(sqe_op *op, const sqe_sink_vtable *sink, sqe_error *err) {
    sqe_exec_ctx *ctx = op->ctx;
    const sqe_plan *scan = pipeline_scan(op->plan->child);
    if (scan && ctx->n_threads > 1 && ctx->pool)
        return drain_parallel(op, op->plan->child, scan, sink, err);
    return drain_serial(op, op->child, sink, err);
}

/* ------------------------------------------------------------------- run */

/* Streaming plans, LIMIT? over (FILTER|PROJECT)* over SCAN, run through the
 * same drain as blocking operators, with a "gather" sink: each pipeline copy
 * appends its batches to its own result set; the sets are concatenated in
 * copy order (whole batches move, no copy), partly filled last batches at
 * the end, applying OFFSET/LIMIT on the way. With a LIMIT, every consume
 * adds its live rows to a shared counter and sets ctx->cancel once
 * offset + limit rows exist, so all copies stop at their next batch and no
 * further file is opened. Inputs below sqe_exec_parallel_min_bytes run as
 * one copy on this thread: rows come out in the serial order. */
typedef struct gather_op {
    sqe_op base;                    /* plan = the root; vt unused */
    sqe_resultset *rs;              /* the result being built (merge, calling thread) */
    SQE_ARRAY(sqe_batch *) partial; /* last, partly filled batches of the copies */
    uint64_t need;                  /* offset + limit (UINT64_MAX: no limit) */
    uint64_t skip, left;            /* OFFSET still to skip, LIMIT rows still to keep */
    atomic_uint_least64_t produced; /* live rows consumed by all copies */
} gather_op;

static void *gather_local_new(sqe_op *op) {
    const sqe_plan *p = op->plan;
    return sqe_resultset_new(p->n_out, (const char *const *)p->out_names, p->out_types);
}

static bool gather_consume(sqe_op *op, void *local, sqe_batch *b, uint64_t tag_base,
                           sqe_error *err) {
    SQE_UNUSED(tag_base);
    SQE_UNUSED(err);
    gather_op *g = (gather_op *)op;
    uint32_t live = sqe_batch_live(b);
    sqe_resultset_append(local, b);
    if (g->need != UINT64_MAX) {
        uint64_t total = atomic_fetch_add(&g->produced, live) + live;
        if (total >= g->need) atomic_store(&op->ctx->cancel, true);
    }
    return true;
}

/* Appends batch b (compact, owned, taken over) to the result after
 * skipping/trimming rows for OFFSET/LIMIT. Whole full batches move. */
static void gather_take(gather_op *g, sqe_batch *b) {
    sqe_resultset *rs = g->rs;
    uint32_t n = b->n_rows;
    uint32_t s = (uint32_t)SQE_MIN(g->skip, (uint64_t)n);
    g->skip -= s;
    uint32_t t = (uint32_t)SQE_MIN((uint64_t)(n - s), g->left);
    if (g->left != UINT64_MAX) g->left -= t;
    if (t == 0) {
        sqe_batch_free(b);
        return;
    }
    bool last_full =
        rs->batches.len == 0 || rs->batches.items[rs->batches.len - 1]->n_rows == SQE_BATCH_ROWS;
    if (s == 0 && t == n && n == SQE_BATCH_ROWS && last_full) {
        SQE_ARRAY_PUSH(NULL, rs->batches, b);
        rs->n_rows += n;
        return;
    }
    if (s > 0 || t < n) {
        for (uint32_t i = 0; i < t; i++) b->sel_buf[i] = (uint16_t)(s + i);
        b->sel = b->sel_buf;
        b->n_sel = t;
    }
    sqe_resultset_append(rs, b);
    sqe_batch_free(b);
}

static bool gather_merge(sqe_op *op, void *local, sqe_error *err) {
    SQE_UNUSED(err);
    gather_op *g = (gather_op *)op;
    sqe_resultset *l = local;
    for (size_t i = 0; i < l->batches.len; i++) {
        sqe_batch *b = l->batches.items[i];
        if (b->n_rows < SQE_BATCH_ROWS)
            SQE_ARRAY_PUSH(NULL, g->partial, b);
        else
            gather_take(g, b);
    }
    l->batches.len = 0;
    sqe_resultset_free(l);
    return true;
}

static void gather_local_free(sqe_op *op, void *local) {
    SQE_UNUSED(op);
    sqe_resultset_free(local);
}

static const sqe_sink_vtable gather_sink = {gather_local_new, gather_consume, gather_merge,
                                            gather_local_free};

/* Runs a streaming plan with pipeline copies when it has that shape and the
 * query may use several threads; *handled = false otherwise. */
static bool run_gather(sqe_exec_ctx *ctx, const sqe_plan *plan, sqe_resultset **out, bool *handled,
                       sqe_error *err) {
    *handled = false;
    if (ctx->n_threads <= 1 || !ctx->pool) return true;
    const sqe_plan *pipe = plan;
    uint64_t offset = 0, limit = UINT64_MAX;
    if (plan->kind == SQE_PLAN_LIMIT) {
        offset = plan->u.limit.offset;
        if (plan->u.limit.has_limit) limit = plan->u.limit.limit;
        if (limit == 0) return true; /* LimitExec never opens its input */
        pipe = plan->child;
    }
    const sqe_plan *scan = pipeline_scan(pipe);
    if (!scan) return true;
    *handled = true;
    gather_op g;
    memset(&g, 0, sizeof g);
    g.base.plan = plan;
    g.base.ctx = ctx;
    g.rs = sqe_resultset_new(plan->n_out, (const char *const *)plan->out_names, plan->out_types);
    g.skip = offset;
    g.left = limit;
    g.need = limit == UINT64_MAX || offset > UINT64_MAX - limit ? UINT64_MAX : offset + limit;
    atomic_init(&g.produced, 0);
    bool ok = drain_parallel(&g.base, pipe, scan, &gather_sink, err);
    for (size_t i = 0; i < g.partial.len; i++) {
        if (ok)
            gather_take(&g, g.partial.items[i]);
        else
            sqe_batch_free(g.partial.items[i]);
    }
    SQE_ARRAY_FREE(g.partial);
    if (!ok) {
        sqe_resultset_free(g.rs);
        return false;
    }
    *out = g.rs;
    return true;
}

bool sqe_exec_run(const sqe_plan *plan, const sqe_exec_options *opts, sqe_resultset **out,
                  sqe_error *err) {
    *out = NULL;
    sqe_exec_ctx ctx;
    sqe_exec_ctx_init(&ctx, opts);
    bool handled = false;
    bool gathered = run_gather(&ctx, plan, out, &handled, err);
    if (handled) return gathered;
    sqe_op *root = sqe_op_build(&ctx, plan, NULL, err);
    if (!root) return false;
    sqe_resultset *rs = NULL;
    bool ok = sqe_op_open(root, err);
    if (ok) {
        rs = sqe_resultset_new(plan->n_out, plan->out_names, plan->out_types);
        for (;;) {
            sqe_batch *b = NULL;
            bool eof = false;
            if (!sqe_op_next(root, &b, &eof, err)) {
                ok = false;
                break;
            }
            if (eof) break;
            sqe_resultset_append(rs, b);
        }
    }
    sqe_op_free(root);
    if (!ok) {
        sqe_resultset_free(rs);
        return false;
    }
    *out = rs;
    return true;
}

/* --------------------------------------------------------------- EXPLAIN */

char *sqe_exec_agg_to_string(sqe_arena *a, const sqe_agg_binding *b, const sqe_expr *arg) {
    if (b->star || !arg) return sqe_arena_sprintf(a, "%s(*)", b->name ? b->name : "?");
    return sqe_arena_sprintf(a, "%s(%s%s)", b->name ? b->name : "?", b->distinct ? "DISTINCT " : "",
                             sqe_expr_to_string(a, arg));
}

static void put_value(sqe_strbuf *sb, const sqe_value *v, sqe_arena *a) {
    sqe_expr e;
    memset(&e, 0, sizeof e);
    e.kind = SQE_EXPR_CONST;
    e.type = v->type;
    e.value = *v;
    sqe_strbuf_puts(sb, sqe_expr_to_string(a, &e));
}

static void put_sort_keys(sqe_strbuf *sb, const sqe_plan *p) {
    const sqe_plan *in = p->child;
    sqe_strbuf_puts(sb, "keys=[");
    for (int k = 0; k < p->u.sort.n_keys; k++) {
        const sqe_sort_key *key = &p->u.sort.keys[k];
        if (k) sqe_strbuf_puts(sb, ", ");
        const char *name = in && key->col >= 0 && key->col < in->n_out && in->out_names
                               ? in->out_names[key->col]
                               : NULL;
        if (name)
            sqe_strbuf_puts(sb, name);
        else
            sqe_strbuf_printf(sb, "#%d", key->col);
        sqe_strbuf_printf(sb, " %s NULLS %s", key->desc ? "DESC" : "ASC",
                          key->nulls_first ? "FIRST" : "LAST");
    }
    sqe_strbuf_putc(sb, ']');
}

static void explain_node(const sqe_plan *p, int depth, sqe_strbuf *sb, sqe_arena *a) {
    for (int i = 0; i < depth; i++) sqe_strbuf_puts(sb, "  ");
    switch (p->kind) {
    case SQE_PLAN_SCAN: {
        const sqe_hive_table *t = p->u.scan.table;
        sqe_strbuf_printf(sb, "HiveScanExec: table=%s, format=%s, columns=[",
                          p->u.scan.table_name ? p->u.scan.table_name
                                               : (t && t->name ? t->name : "?"),
                          t ? sqe_format_name(t->format) : "?");
        for (int i = 0; i < p->u.scan.n_cols; i++) {
            if (i) sqe_strbuf_puts(sb, ", ");
            const char *name = p->out_names && i < p->n_out ? p->out_names[i] : NULL;
            int c = p->u.scan.cols[i];
            if (!name && t)
                name = c < t->n_cols ? t->cols[c].name : t->part_keys[c - t->n_cols].name;
            sqe_strbuf_puts(sb, name ? name : "?");
        }
        sqe_strbuf_putc(sb, ']');
        if (p->u.scan.partition_filter)
            sqe_strbuf_printf(sb, ", partition_filter=%s",
                              sqe_expr_to_string(a, p->u.scan.partition_filter));
        if (p->u.scan.filter)
            sqe_strbuf_printf(sb, ", filter=%s", sqe_expr_to_string(a, p->u.scan.filter));
        const sqe_hive_prune *pr = p->u.scan.prune;
        if (pr && t && pr->eq) {
            bool any = false;
            for (int k = 0; k < t->n_part_keys; k++) {
                if (!pr->eq[k]) continue;
                sqe_strbuf_puts(sb, any ? ", " : ", prune=[");
                any = true;
                int n_eq = pr->n_eq ? pr->n_eq[k] : 0;
                bool with_null = pr->allow_null && pr->allow_null[k];
                if (n_eq == 0) {
                    sqe_strbuf_printf(sb, "%s IS NULL", t->part_keys[k].name);
                    continue;
                }
                sqe_strbuf_printf(sb, "%s IN (", t->part_keys[k].name);
                for (int j = 0; j < n_eq; j++) {
                    if (j) sqe_strbuf_puts(sb, ", ");
                    put_value(sb, &pr->eq[k][j], a);
                }
                sqe_strbuf_putc(sb, ')');
                if (with_null) sqe_strbuf_printf(sb, " OR %s IS NULL", t->part_keys[k].name);
            }
            if (any) sqe_strbuf_putc(sb, ']');
        }
        break;
    }
    case SQE_PLAN_VALUES:
        sqe_strbuf_printf(sb, "ValuesExec: rows=%d", p->u.values.n_rows);
        break;
    case SQE_PLAN_FILTER:
        sqe_strbuf_printf(sb, "FilterExec: %s", sqe_expr_to_string(a, p->u.filter.pred));
        break;
    case SQE_PLAN_PROJECT:
        sqe_strbuf_puts(sb, "ProjectExec: [");
        for (int i = 0; i < p->n_out; i++) {
            if (i) sqe_strbuf_puts(sb, ", ");
            sqe_strbuf_puts(sb, sqe_expr_to_string(a, p->u.project.exprs[i]));
        }
        sqe_strbuf_putc(sb, ']');
        break;
    case SQE_PLAN_AGGREGATE:
        sqe_strbuf_puts(sb, "HashAggregateExec: groups=[");
        for (int i = 0; i < p->u.aggregate.n_groups; i++) {
            if (i) sqe_strbuf_puts(sb, ", ");
            sqe_strbuf_puts(sb, sqe_expr_to_string(a, p->u.aggregate.groups[i]));
        }
        sqe_strbuf_puts(sb, "], aggs=[");
        for (int i = 0; i < p->u.aggregate.n_aggs; i++) {
            if (i) sqe_strbuf_puts(sb, ", ");
            const sqe_expr *arg = p->u.aggregate.agg_args ? p->u.aggregate.agg_args[i] : NULL;
            sqe_strbuf_puts(sb, sqe_exec_agg_to_string(a, &p->u.aggregate.aggs[i], arg));
        }
        sqe_strbuf_putc(sb, ']');
        break;
    case SQE_PLAN_SORT:
        sqe_strbuf_puts(sb, "SortExec: ");
        put_sort_keys(sb, p);
        break;
    case SQE_PLAN_TOPN:
        sqe_strbuf_printf(sb, "TopNExec: limit=%llu offset=%llu ",
                          (unsigned long long)p->u.sort.limit,
                          (unsigned long long)p->u.sort.offset);
        put_sort_keys(sb, p);
        break;
    case SQE_PLAN_LIMIT:
        if (p->u.limit.has_limit)
            sqe_strbuf_printf(sb, "LimitExec: limit=%llu offset=%llu",
                              (unsigned long long)p->u.limit.limit,
                              (unsigned long long)p->u.limit.offset);
        else
            sqe_strbuf_printf(sb, "LimitExec: limit=ALL offset=%llu",
                              (unsigned long long)p->u.limit.offset);
        break;
    default:
        sqe_strbuf_printf(sb, "UnknownExec: kind=%d", (int)p->kind);
        break;
    }
    sqe_strbuf_putc(sb, '\n');
    if (p->child) explain_node(p->child, depth + 1, sb, a);
}

void sqe_exec_explain(const sqe_plan *plan, sqe_strbuf *out) {
    sqe_arena *a = sqe_arena_new(0);
    explain_node(plan, 0, out, a);
    sqe_arena_free(a);
}
