/*
 * drain.c - runs pipelines: the input of a blocking operator (a sink) and
 * the streaming root of a query, serially or with one pipeline copy per
 * worker thread.
 *
 * A pipeline is a chain of streaming operators over a source, cut at
 * blocking operators: FILTER, PROJECT, GROUP_ID and the probe side
 * (children[0]) of joins over a SCAN. A join's other input is a pipeline of
 * its own that ends in the join's build sink; it runs first, when the join
 * opens, so the probe pipeline starts only once its build side is complete
 * (the dependency between pipelines).
 *
 * Parallel drain (drain_parallel). W = ctx->n_threads copies of the
 * pipeline: one scan source (files or byte ranges as morsels in a shared
 * queue), W operator chains built from the same plan nodes, each with its
 * own reader, batches and expression states, and W sink locals. Copies are
 * built and opened on the calling thread (a join's build runs there, once,
 * shared by all copies); copy 0 runs on the calling thread; copies 1..W-1
 * are submitted to the pool. Each copy pulls batches until its scan finds
 * the queue empty, feeding its sink local. Locals are merged into the
 * operator's global state on the calling thread, in copy order.
 *
 * Streaming plans (LIMIT? over a pipeline) use the same drain with a gather
 * sink (sqe_exec_run_gather below).
 *
 * Inputs smaller than ctx->parallel_min_bytes (listed before deciding) run
 * as a single copy on the calling thread, so small tables give the same
 * answers run after run (float sums, group order).
 *
 * Robustness of the join with the pool: the pool may be busy (even with the
 * caller itself, when a query runs on a pool thread), so the caller never
 * waits for a task that has not started. A task first claims its slot;
 * after running copy 0 the caller cancels every unclaimed slot and waits
 * only for claimed ones. The job record (mutex, slot states) is reference
 * counted, so a cancelled task that starts late touches only memory that is
 * still alive.
 *
 * Errors: the first failing copy records its error and sets ctx->abort;
 * every operator checks it (sqe_exec_stopped) and stops with an error, so
 * the others stop promptly; the first error is returned unchanged. A
 * satisfied LIMIT sets only this pipeline's done flag: scans of this
 * pipeline end quietly, nothing else is affected.
 */
#include "exec/exec_int.h"

#include <pthread.h>

const sqe_plan *sqe_exec_pipeline_scan(const sqe_plan *p) {
    while (p && (p->kind == SQE_PLAN_FILTER || p->kind == SQE_PLAN_PROJECT ||
                 p->kind == SQE_PLAN_HASH_JOIN || p->kind == SQE_PLAN_NL_JOIN ||
                 p->kind == SQE_PLAN_GROUP_ID))
        p = p->children[0];
    return p && p->kind == SQE_PLAN_SCAN ? p : NULL;
}

static bool drain_serial(sqe_op *op, sqe_op *pipe, const sqe_sink_vtable *sink, sqe_error *err) {
    sqe_exec_ctx *ctx = op->ctx;
    if (!sqe_op_open(pipe, err)) return false;
    void *local = sink->local_new(op);
    uint64_t tag = 0; /* consumption order is the serial order */
    for (;;) {
        sqe_batch *b = NULL;
        bool eof = false;
        if (sqe_exec_stopped(ctx, err)) goto fail;
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
        if (sqe_exec_stopped(ctx, &err)) {
            ok = false;
            break;
        }
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
        atomic_store(&ctx->abort, true);
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
                           const sqe_sink_vtable *sink, const atomic_bool *done, sqe_error *err) {
    sqe_exec_ctx *ctx = op->ctx;
    int n = ctx->n_threads;
    sqe_scan_source *src = NULL;
    if (!sqe_scan_source_new(ctx, scan_plan, &src, err)) return false;
    src->done = done;
    bool large = false;
    if (!sqe_scan_source_prefetch(src, ctx->parallel_min_bytes, &large, err)) {
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
        while (workers[i].scan->n_children) workers[i].scan = workers[i].scan->children[0];
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

bool sqe_exec_drain(sqe_op *op, int child, const sqe_sink_vtable *sink, sqe_error *err) {
    sqe_exec_ctx *ctx = op->ctx;
    const sqe_plan *in = op->plan->children[child];
    const sqe_plan *scan = sqe_exec_pipeline_scan(in);
    if (scan && ctx->n_threads > 1 && ctx->pool)
        return drain_parallel(op, in, scan, sink, NULL, err);
    return drain_serial(op, op->children[child], sink, err);
}

/* ------------------------------------------------------------------- run */

/* Streaming plans, LIMIT? over a scan pipeline, run through the same drain
 * as blocking operators, with a "gather" sink: each pipeline copy pushes its
 * batches straight into the query's output (sqe_exec_output: the bounded
 * queue of a query handle, or sqe_exec_run's result set), so nothing is
 * materialized per copy and the consumer sees rows while the scan goes on.
 * OFFSET/LIMIT are counted across copies under the gather's mutex: a copy
 * reserves the rows it may skip and keep, narrows its batch's selection to
 * the kept ones and pushes it; the reservation that reaches offset + limit
 * sets the pipeline's done flag, so every copy stops at its next batch and
 * no further file is opened. Exactly LIMIT rows (or all there are) reach the
 * output. Rows come out in whatever order the copies produce them (there is
 * no ORDER BY); inputs below ctx->parallel_min_bytes run as one copy on this
 * thread, so they keep the serial order. */
typedef struct gather_op {
    sqe_op base; /* plan = the root; vt unused */
    sqe_exec_output *out;
    bool limited; /* LIMIT or OFFSET present */
    pthread_mutex_t mu;
    uint64_t skip, left; /* under mu: OFFSET rows still to skip, LIMIT rows still to keep */
    atomic_bool done;    /* the pipeline's done flag: LIMIT satisfied */
} gather_op;

/* Copies keep no local state: every batch goes to the output at once. */
static void *gather_local_new(sqe_op *op) {
    return op;
}

static bool gather_consume(sqe_op *op, void *local, sqe_batch *b, uint64_t tag_base,
                           sqe_error *err) {
    SQE_UNUSED(local);
    SQE_UNUSED(tag_base);
    gather_op *g = (gather_op *)op;
    if (g->limited) {
        uint32_t live = sqe_batch_live(b);
        pthread_mutex_lock(&g->mu);
        uint32_t s = (uint32_t)SQE_MIN(g->skip, (uint64_t)live);
        g->skip -= s;
        uint32_t t = (uint32_t)SQE_MIN((uint64_t)(live - s), g->left);
        if (g->left != UINT64_MAX) g->left -= t;
        if (g->left == 0) atomic_store(&g->done, true);
        pthread_mutex_unlock(&g->mu);
        if (t == 0) return true;
        if (s > 0 || t < live) { /* keep live rows [s, s + t), as LimitExec does */
            if (b->sel) {
                for (uint32_t i = 0; i < t; i++) b->sel_buf[i] = b->sel[s + i];
            } else {
                for (uint32_t i = 0; i < t; i++) b->sel_buf[i] = (uint16_t)(s + i);
            }
            b->sel = b->sel_buf;
            b->n_sel = t;
        }
    }
    return g->out->push(g->out, b, err);
}

static bool gather_merge(sqe_op *op, void *local, sqe_error *err) {
    SQE_UNUSED(op);
    SQE_UNUSED(local);
    SQE_UNUSED(err);
    return true;
}

static void gather_local_free(sqe_op *op, void *local) {
    SQE_UNUSED(op);
    SQE_UNUSED(local);
}

static const sqe_sink_vtable gather_sink = {gather_local_new, gather_consume, gather_merge,
                                            gather_local_free};

/* Runs a streaming plan with pipeline copies when it has that shape and the
 * query may use several threads; *handled = false otherwise. */
bool sqe_exec_run_gather(sqe_exec_ctx *ctx, const sqe_plan *plan, sqe_exec_output *out,
                         bool *handled, sqe_error *err) {
    *handled = false;
    if (ctx->n_threads <= 1 || !ctx->pool) return true;
    const sqe_plan *pipe = plan;
    uint64_t offset = 0, limit = UINT64_MAX;
    if (plan->kind == SQE_PLAN_LIMIT) {
        offset = plan->u.limit.offset;
        if (plan->u.limit.has_limit) limit = plan->u.limit.limit;
        if (limit == 0) return true; /* LimitExec never opens its input */
        pipe = plan->children[0];
    }
    const sqe_plan *scan = sqe_exec_pipeline_scan(pipe);
    if (!scan) return true;
    *handled = true;
    gather_op g;
    memset(&g, 0, sizeof g);
    g.base.plan = plan;
    g.base.ctx = ctx;
    g.out = out;
    g.limited = offset > 0 || limit != UINT64_MAX;
    g.skip = offset;
    g.left = limit;
    pthread_mutex_init(&g.mu, NULL);
    atomic_init(&g.done, false);
    bool ok = drain_parallel(&g.base, pipe, scan, &gather_sink, &g.done, err);
    pthread_mutex_destroy(&g.mu);
    return ok;
}
