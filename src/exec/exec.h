/*
 * exec.h - layer 5: physical operators and the scheduler.
 *
 * One operator per plan node, each with the same life cycle in its own file
 * (exec/scan.c, filter.c, project.c, hash_agg.c, sort.c, topn.c, limit.c,
 * values.c): open -> next(batch)* -> close. An operator's next returns a
 * batch it owns (valid until its next call) or sets *eof. Pipelines are cut at
 * blocking operators (aggregate, sort); scans hand out files as morsels.
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
} sqe_exec_options;

/* Runs a plan to completion and materializes its output. */
bool sqe_exec_run(const sqe_plan *plan, const sqe_exec_options *opts, sqe_resultset **out,
                  sqe_error *err);

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

#endif
