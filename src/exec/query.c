/*
 * query.c - the query handle: a plan running on a thread of its own,
 * streaming its result batches to one consumer through a bounded queue.
 *
 * Where it sits: engine/ starts one per SELECT (sqe_exec_start) and reads
 * it batch by batch behind the public cursor (include/sqe.h); the CLI and a
 * server print or encode rows while the query still runs. sqe_exec_run (the
 * materializing entry, exec.c) runs the same producer, sqe_exec_produce, on
 * the calling thread instead.
 *
 *   sqe_exec_start                   ctx, queue, thread (signals blocked in it)
 *     query_main (query thread)
 *       sqe_exec_produce(ctx, plan, &q->out)
 *         parallel pipeline   -> sqe_exec_run_gather: every copy calls queue_push
 *         otherwise           -> pull the root operator, queue_push per batch
 *       finished (+ first error)
 *   sqe_exec_fetch (consumer)        frees the previous batch, pops the next
 *   sqe_exec_cancel (any thread)     atomic store into the cancel flag
 *   sqe_exec_finish                  cancel if running, join, free
 *
 * The queue. queue_push compacts the operator's batch (sqe_exec_batch_compact:
 * own vectors, string bytes copied, no selection) outside the lock, then
 * waits for room: fewer than SQE_EXEC_QUEUE_BATCHES batches and, unless the
 * queue is empty, at most SQE_EXEC_QUEUE_BYTES bytes and no more than the
 * query's memory limit leaves. The bytes of queued batches and of the batch
 * the consumer holds are counted against the limit (sqe_exec_mem_track,
 * "the result queue"), so a slow consumer makes producers wait instead of
 * letting the result pile up; a single batch that does not fit an empty
 * queue fails the query with RESOURCE_EXHAUSTED.
 *
 * Waiting. Both sides wait on one condition variable with a timeout
 * (QUEUE_POLL_MS), because a cancel request is only an atomic store (from a
 * signal handler, say) that cannot signal it: a producer waiting for room
 * re-checks sqe_exec_stopped, the consumer re-checks the cancel flag, so a
 * cancel is seen within QUEUE_POLL_MS even when nothing moves.
 *
 * Errors. The first error of the query (a worker's own error, or CANCELLED)
 * is what sqe_exec_produce returns; fetch reports it once the batches queued
 * before it are delivered, as a stream would (rows, then the error), so a
 * serial query delivers every row before the failing batch. A cancel request
 * makes fetch fail at once, dropping queued batches, even before the
 * producer has noticed it.
 *
 * Ownership. The handle owns its context, the queued batches and the batch
 * last fetched (valid until the next fetch or finish); the plan stays the
 * caller's.
 */
#include "exec/exec_int.h"

#include <pthread.h>
#include <signal.h>
#include <time.h>

#define QUEUE_POLL_MS 20

typedef struct queued_batch {
    sqe_batch *b;
    size_t bytes;
} queued_batch;

struct sqe_exec_query {
    sqe_exec_output out; /* queue_push; first member */
    const sqe_plan *plan;
    sqe_exec_ctx ctx;
    atomic_bool own_cancel;
    atomic_bool *cancel; /* opts->cancel or &own_cancel */
    pthread_t thread;

    pthread_mutex_t mu; /* everything below */
    pthread_cond_t cv;  /* a batch queued or taken, the producer finished */
    queued_batch ring[SQE_EXEC_QUEUE_BATCHES];
    int head, count;
    size_t queued_bytes;
    size_t tracked;     /* bytes counted in ctx: queued + current */
    sqe_batch *current; /* handed to the consumer by the last fetch */
    size_t current_bytes;
    bool finished; /* the producer returned */
    bool failed;   /* ... with err */
    sqe_error err;
};

/* ------------------------------------------------------------ compaction */

static bool is_string_type(sqe_type t) {
    return t.id == SQE_T_VARCHAR || t.id == SQE_T_VARBINARY;
}

sqe_batch *sqe_exec_batch_compact(const sqe_batch *b, int n_cols, const sqe_type *types,
                                  size_t *bytes) {
    /* Vectors sized to the live rows: the copy is only read (by the
     * consumer) and a narrow batch of a very wide result stays small. */
    sqe_batch *dst = sqe_batch_new_empty(n_cols);
    uint32_t n = sqe_batch_live(b);
    size_t total = sizeof *dst;
    for (int c = 0; c < n_cols; c++) {
        sqe_vector *dv = dst->cols[c] = sqe_vector_new_rows(types[c], n);
        dst->owned[c] = true;
        const sqe_vector *sv = c < b->n_cols ? b->cols[c] : NULL;
        size_t w = sqe_type_width(types[c]);
        total += offsetof(sqe_vector, validity) + (size_t)(n ? n : 1) * (w + 1);
        if (!sv || sv->type.id == SQE_T_NULL || types[c].id == SQE_T_NULL ||
            sqe_type_width(sv->type) != w) {
            for (uint32_t i = 0; i < n; i++) sqe_vector_set_null(dv, i);
            continue;
        }
        if (is_string_type(types[c])) {
            const sqe_string *ss = SQE_VEC_DATA(sv, sqe_string);
            for (uint32_t i = 0; i < n; i++) {
                uint32_t row = sqe_batch_row(b, i);
                sqe_vector_copy_row(dv, i, sv, row);
                if (ss[row].len > SQE_STRING_INLINE && !sqe_vector_is_null(sv, row))
                    total += ss[row].len;
            }
            continue;
        }
        if (!b->sel) {
            memcpy(dv->data, sv->data, (size_t)n * w);
            if (sv->has_nulls) {
                memcpy(dv->validity, sv->validity,
                       sqe_vector_validity_words(dv) * sizeof(uint64_t));
                dv->has_nulls = true;
            }
            continue;
        }
        const char *src = sv->data;
        char *d = dv->data;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t row = b->sel[i];
            memcpy(d + (size_t)i * w, src + (size_t)row * w, w);
            if (sqe_vector_is_null(sv, row)) sqe_vector_set_null(dv, i);
        }
    }
    dst->n_rows = n;
    *bytes = total;
    return dst;
}

/* ----------------------------------------------------------------- queue */

/* Waits on q->cv for at most QUEUE_POLL_MS. Called with q->mu held. */
static void queue_wait(sqe_exec_query *q) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_nsec += (long)QUEUE_POLL_MS * 1000000L;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    int rc = pthread_cond_timedwait(&q->cv, &q->mu, &ts);
    SQE_UNUSED(rc); /* ETIMEDOUT or a wake-up: the caller re-checks */
}

/* True when a batch of `bytes` may join the queue now. */
static bool queue_has_room(sqe_exec_query *q, size_t bytes) {
    if (q->count >= SQE_EXEC_QUEUE_BATCHES) return false;
    if (q->count == 0) return true; /* one batch always fits (the limit decides) */
    if (q->queued_bytes + bytes > SQE_EXEC_QUEUE_BYTES) return false;
    size_t limit = q->ctx.memory_limit;
    return limit == 0 || atomic_load(&q->ctx.mem_used) + bytes <= limit;
}

static bool queue_push(sqe_exec_output *out, sqe_batch *b, sqe_error *err) {
    sqe_exec_query *q = (sqe_exec_query *)out;
    size_t bytes = 0;
    sqe_batch *copy = sqe_exec_batch_compact(b, q->plan->n_out, q->plan->out_types, &bytes);
    pthread_mutex_lock(&q->mu);
    for (;;) {
        if (sqe_exec_stopped(&q->ctx, err)) goto fail;
        if (queue_has_room(q, bytes)) break;
        queue_wait(q);
    }
    if (!sqe_exec_mem_track(&q->ctx, &q->tracked, q->tracked + bytes, "the result queue", err)) {
        sqe_exec_mem_track(&q->ctx, &q->tracked, q->tracked - bytes, "the result queue", NULL);
        goto fail;
    }
    q->ring[(q->head + q->count) % SQE_EXEC_QUEUE_BATCHES] = (queued_batch){copy, bytes};
    q->count++;
    q->queued_bytes += bytes;
    pthread_cond_broadcast(&q->cv);
    pthread_mutex_unlock(&q->mu);
    return true;
fail:
    pthread_mutex_unlock(&q->mu);
    sqe_batch_free(copy);
    return false;
}

/* Frees the batch the consumer holds. Called with q->mu held. */
static void drop_current(sqe_exec_query *q) {
    if (!q->current) return;
    sqe_batch_free(q->current);
    q->current = NULL;
    sqe_exec_mem_track(&q->ctx, &q->tracked, q->tracked - q->current_bytes, "the result queue",
                       NULL);
    q->current_bytes = 0;
}

/* Frees every queued batch. Called with q->mu held. */
static void drop_queue(sqe_exec_query *q) {
    while (q->count > 0) {
        queued_batch *e = &q->ring[q->head];
        sqe_batch_free(e->b);
        sqe_exec_mem_track(&q->ctx, &q->tracked, q->tracked - e->bytes, "the result queue", NULL);
        q->queued_bytes -= e->bytes;
        q->head = (q->head + 1) % SQE_EXEC_QUEUE_BATCHES;
        q->count--;
    }
    pthread_cond_broadcast(&q->cv);
}

/* ---------------------------------------------------------------- handle */

static void *query_main(void *arg) {
    sqe_exec_query *q = arg;
    sqe_error err;
    sqe_error_clear(&err);
    bool ok = sqe_exec_produce(&q->ctx, q->plan, &q->out, &err);
    pthread_mutex_lock(&q->mu);
    q->finished = true;
    if (!ok) {
        q->failed = true;
        q->err = err;
        if (q->err.cls == SQE_OK) sqe_error_set(&q->err, SQE_ERR_INTERNAL, "query failed");
    }
    pthread_cond_broadcast(&q->cv);
    pthread_mutex_unlock(&q->mu);
    return NULL;
}

sqe_exec_query *sqe_exec_start(const sqe_plan *plan, const sqe_exec_options *opts, sqe_error *err) {
    sqe_exec_query *q = sqe_calloc(1, sizeof *q);
    q->out.push = queue_push;
    q->plan = plan;
    atomic_init(&q->own_cancel, false);
    /* The caller's flag is writable by contract (see exec.h). */
    q->cancel = opts && opts->cancel ? (atomic_bool *)opts->cancel : &q->own_cancel;
    sqe_exec_ctx_init(&q->ctx, opts);
    q->ctx.cancel = q->cancel;
    pthread_mutex_init(&q->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&q->cv, &ca);
    pthread_condattr_destroy(&ca);

    /* The query thread takes no signals: a program's handlers (Ctrl-C) run
     * on its own threads. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&q->thread, NULL, query_main, q);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED, "cannot start a query thread: %s",
                      strerror(rc));
        pthread_cond_destroy(&q->cv);
        pthread_mutex_destroy(&q->mu);
        sqe_exec_ctx_destroy(&q->ctx);
        sqe_free(q);
        return NULL;
    }
    return q;
}

bool sqe_exec_fetch(sqe_exec_query *q, const sqe_batch **out, bool *done, sqe_error *err) {
    *out = NULL;
    *done = false;
    bool ok = true;
    pthread_mutex_lock(&q->mu);
    drop_current(q);
    for (;;) {
        if (atomic_load(q->cancel)) {
            drop_queue(q);
            ok = sqe_error_set(err, SQE_ERR_CANCELLED, "query was cancelled");
            break;
        }
        if (q->count > 0) {
            queued_batch e = q->ring[q->head];
            q->head = (q->head + 1) % SQE_EXEC_QUEUE_BATCHES;
            q->count--;
            q->queued_bytes -= e.bytes;
            q->current = e.b;
            q->current_bytes = e.bytes;
            *out = e.b;
            pthread_cond_broadcast(&q->cv);
            break;
        }
        if (q->failed) {
            if (err) *err = q->err;
            ok = false;
            break;
        }
        if (q->finished) {
            *done = true;
            break;
        }
        queue_wait(q);
    }
    pthread_mutex_unlock(&q->mu);
    return ok;
}

void sqe_exec_cancel(sqe_exec_query *q) {
    if (q) atomic_store(q->cancel, true);
}

void sqe_exec_finish(sqe_exec_query *q) {
    if (!q) return;
    pthread_mutex_lock(&q->mu);
    if (!q->finished) atomic_store(q->cancel, true);
    pthread_cond_broadcast(&q->cv);
    pthread_mutex_unlock(&q->mu);
    pthread_join(q->thread, NULL);
    pthread_mutex_lock(&q->mu);
    drop_current(q);
    drop_queue(q);
    pthread_mutex_unlock(&q->mu);
    sqe_exec_ctx_destroy(&q->ctx);
    pthread_cond_destroy(&q->cv);
    pthread_mutex_destroy(&q->mu);
    sqe_free(q);
}
