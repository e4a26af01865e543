/*
 * exec.h - layer 5: physical operators and the scheduler.
 *
 * One operator per plan node, each with the same life cycle in its own file
 * (exec/scan.c, filter.c, project.c, hash_agg.c, sort.c, topn.c, limit.c,
 * values.c): open -> next(batch)* -> close. An operator's next returns a
 * batch it owns (valid until its next call) or sets *eof. Pipelines are cut at
 * blocking operators (aggregate, sort); scans hand out files as morsels.
 * A query runs either to a materialized result set (sqe_exec_run) or in the
 * background behind a query handle that streams batches (sqe_exec_start).
 */
#ifndef SQE_EXEC_H
#define SQE_EXEC_H

#include "plan/plan.h"

#include <stdatomic.h>

typedef struct sqe_exec_options {
    int threads;          /* <= 0: CPU count */
    size_t memory_limit;  /* bytes; 0: none */
    sqe_threadpool *pool; /* may be NULL: run on the calling thread */
    /* Tuning (0: the default). Below parallel_min_bytes of listed input a
     * pipeline runs as one copy on the calling thread (default 4 MiB), so
     * small tables give the same answers (float sums, group order) run
     * after run; tests set 1 to force the parallel path. Splittable text
     * files larger than text_split_bytes become several byte-range morsels
     * (default 32 MiB; UINT64_MAX disables splitting). */
    uint64_t parallel_min_bytes;
    uint64_t text_split_bytes;
    /* Set by another thread to cancel the query (may be NULL): operators
     * stop at the next batch or morsel and the statement fails with
     * CANCELLED "query was cancelled". */
    const atomic_bool *cancel;
    /* Collect per-operator counters (EXPLAIN ANALYZE). */
    bool analyze;
    /* Folder for the query's spill files (sorts past the memory limit); NULL
     * or "": $TMPDIR, else /tmp. Files are unlinked as soon as they are
     * created, so nothing is left behind whatever way the query ends. */
    const char *temp_dir;
    /* Partition listings a scan keeps in flight (SPEC §9.2), at most 16.
     * 0: 16 on object stores, 1 on local disk (a local listing takes
     * microseconds; threads would cost more than they save). */
    int list_in_flight;
} sqe_exec_options;

/* Runs a plan to completion on the calling thread (pipeline copies on the
 * pool) and materializes its output. */
bool sqe_exec_run(const sqe_plan *plan, const sqe_exec_options *opts, sqe_resultset **out,
                  sqe_error *err);

/* ------------------------------------------------------------ query handle
 *
 * A running query (query.c): the plan runs on a thread of its own (not a
 * pool worker, so the pool stays free for pipeline copies) and pushes
 * compacted result batches into a bounded queue (at most
 * SQE_EXEC_QUEUE_BATCHES batches and, beyond one batch, SQE_EXEC_QUEUE_BYTES
 * bytes; queued bytes count against opts->memory_limit). The producer
 * blocks while the queue is full, the consumer while it is empty.
 *
 *   sqe_exec_query *q = sqe_exec_start(plan, &opts, &err);
 *   for (;;) {
 *       const sqe_batch *b; bool done;
 *       if (!sqe_exec_fetch(q, &b, &done, &err)) break;   (the query's error)
 *       if (done) break;
 *       ... read b->n_rows rows of b ...
 *   }
 *   sqe_exec_finish(q);
 */
#define SQE_EXEC_QUEUE_BATCHES 8
#define SQE_EXEC_QUEUE_BYTES ((size_t)32 << 20)

typedef struct sqe_exec_query sqe_exec_query;

/* Starts running plan in the background. plan (and the arena and tables it
 * refers to) must stay alive until sqe_exec_finish; opts is copied. When
 * opts->cancel is given it is the query's cancel flag: sqe_exec_cancel
 * stores true into it, so it must point to a writable atomic_bool; without
 * it the query has a flag of its own. Returns NULL with err set when the
 * thread cannot be started; every other failure is reported by fetch. */
sqe_exec_query *sqe_exec_start(const sqe_plan *plan, const sqe_exec_options *opts, sqe_error *err);
/* Waits for the next batch. Returns true with *out set (a compact batch of
 * plan->n_out columns with at least one row, no selection, owned by the
 * query and valid until the next fetch or finish) or with *done set at the
 * end of the rows. Returns false with the query's first error once the
 * batches queued before it were fetched (CANCELLED "query was cancelled" at
 * once after a cancel request: queued batches are then dropped).
 * One consumer thread only. */
bool sqe_exec_fetch(sqe_exec_query *q, const sqe_batch **out, bool *done, sqe_error *err);
/* Asks the query to stop: operators stop within a batch with CANCELLED and
 * the next fetch fails with it. Any thread; only an atomic store, so it is
 * also async-signal-safe. */
void sqe_exec_cancel(sqe_exec_query *q);
/* Cancels the query if it is still running, waits for its thread and frees
 * it with every batch it holds. NULL is a no-op. */
void sqe_exec_finish(sqe_exec_query *q);

/* Renders the physical plan as indented text, one operator per line, e.g.
 *   TopNExec: limit=10, keys=[s DESC NULLS LAST]
 *     HashAggregateExec: groups=[customer_id], aggs=[sum(amount)]
 *       HiveScanExec: table=lake.sales.orders, format=TEXTFILE, columns=[customer_id, amount],
 *                     partition_filter=..., filter=...
 */
void sqe_exec_explain(const sqe_plan *plan, sqe_strbuf *out);

/* EXPLAIN ANALYZE: runs the plan to completion (rows are counted and
 * dropped) and renders the tree as sqe_exec_explain does, each operator
 * followed by what it did: rows, batches, time (inputs included), pipeline
 * copies; scans also files (or byte ranges), bytes and partitions read;
 * then the query's wall time and peak tracked memory. */
bool sqe_exec_explain_analyze(const sqe_plan *plan, const sqe_exec_options *opts, sqe_strbuf *out,
                              sqe_error *err);

/* Predicate derivation helpers shared by the scan's format predicate and
 * the planner's partition predicate (exec/scan.c). Whether CAST(x AS to) of
 * a `from` value is injective and order-preserving, so `CAST(col) op k`
 * means `col op k'` for the k' that casts exactly to k: */
bool sqe_exec_pred_widening(sqe_type from, sqe_type to);
/* *v as a value of exactly type `to`, when the cast there and back is
 * lossless (so comparing with it means the same as comparing with v). */
bool sqe_exec_pred_exact_value(const sqe_value *v, sqe_type to, sqe_arena *a, sqe_value *out);
/* The predicate operator of comparison function `name` ("=", "<>", "<",
 * ...), mirrored when the constant is on the left; false for others. */
bool sqe_exec_pred_op(const char *name, bool flipped, sqe_fpred_op *op);

#endif
