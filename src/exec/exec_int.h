/*
 * exec_int.h - private to src/exec/: the operator struct and vtable every
 * operator file implements, the per-query execution context, the sink
 * interface blocking operators use to drain their input (in parallel when the
 * input is a scan pipeline), the shared scan source (files as morsels), the
 * materialized row store used by sort and top-N, and normalized key slots
 * (hashing, equality and ordering of typed values) shared by hash aggregate,
 * sort and top-N.
 *
 * Nothing here is visible outside src/exec/.
 */
#ifndef SQE_EXEC_INT_H
#define SQE_EXEC_INT_H

#include "exec/exec.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

typedef struct sqe_op sqe_op;

/* ------------------------------------------------------------ context */

/* State one plan node shares between all its pipeline copies in a query
 * (a join's hash table): created by the first copy that opens, read by the
 * others, freed with the context. */
typedef struct sqe_exec_shared {
    const sqe_plan *plan;
    void *state;
    void (*free_fn)(void *state);
    int phase; /* 0 not started, 1 being built, 2 ready, 3 failed */
    sqe_error err;
} sqe_exec_shared;

/* EXPLAIN ANALYZE counters of one plan node, summed over its pipeline
 * copies (atomics: copies run on several threads). */
typedef struct sqe_exec_stats {
    const sqe_plan *plan;
    atomic_uint_least64_t rows; /* live rows returned by next */
    atomic_uint_least64_t batches;
    atomic_uint_least64_t ns;                /* wall time inside next, inputs included */
    atomic_uint_least64_t copies;            /* operator instances that ran (pipeline copies) */
    atomic_uint_least64_t files;             /* scans: files or byte ranges opened */
    atomic_uint_least64_t bytes;             /* scans: bytes of those files or ranges (text), bytes
                                                fetched (other formats) */
    atomic_uint_least64_t partitions;        /* scans: partitions listed */
    atomic_uint_least64_t row_groups;        /* scans: Parquet row groups considered */
    atomic_uint_least64_t row_groups_pruned; /* scans: of those, skipped by statistics */
    atomic_uint_least64_t dyn_row_groups;    /* scans: row groups skipped by a dynamic filter */
    atomic_uint_least64_t dyn_rows;          /* scans: rows dropped by a dynamic filter */
    atomic_bool has_dyn;                     /* scans: a dynamic filter was attached */
    /* scans: partition discovery (sqe_hive_part_stats), set once when the
     * scan's source is built: 1 listing, 2 index, 3 projection (0: not a
     * Hive table) */
    atomic_int part_source;
    atomic_uint_least64_t parts_considered, parts_pruned;
} sqe_exec_stats;

/* A dynamic filter (format.h) from a TopNExec to the scan at the bottom of
 * its input pipeline: rows whose scan output column `col` sorts after the
 * filter's bound under `key` cannot reach the TopN's result. Registered by
 * TopNExec's open (before its input opens), looked up by the scan source
 * and operator of `scan`; freed with the context. */
typedef struct sqe_exec_dyn {
    const sqe_plan *scan;
    int col;          /* scan output column */
    sqe_sort_key key; /* direction and NULL placement (key.col unused) */
    sqe_dyn_filter *f;
} sqe_exec_dyn;

/* One per query (sqe_exec_run), shared by every worker thread. Read-only
 * after creation except the atomics and the shared-state registry.
 *
 * Two kinds of stop are kept apart: `abort` (a worker failed, or the user
 * cancelled) makes every operator stop with an error, so nothing is ever
 * silently truncated; a satisfied LIMIT stops only its own pipeline, through
 * the pipeline's `done` flag (sqe_scan_source.done). */
typedef struct sqe_exec_ctx {
    int n_threads;               /* >= 1: pipeline copies a blocking operator may run */
    sqe_threadpool *pool;        /* NULL: everything on the calling thread */
    size_t memory_limit;         /* 0: none */
    uint64_t parallel_min_bytes; /* resolved sqe_exec_options tuning */
    uint64_t text_split_bytes;   /* 0: no splitting */
    int list_in_flight;          /* sqe_exec_options.list_in_flight (0: by store) */
    atomic_size_t
        mem_used;      /* bytes tracked by hash aggregates, sorts, top-N, joins (all threads) */
    atomic_bool abort; /* set when a worker fails: everybody stops pulling */
    const atomic_bool *cancel; /* external cancel request (NULL: none) */
    pthread_mutex_t shared_mu;
    pthread_cond_t shared_cv;
    SQE_ARRAY(sqe_exec_shared *) shared;
    bool analyze;                      /* collect sqe_exec_stats per plan node */
    SQE_ARRAY(sqe_exec_stats *) stats; /* under shared_mu */
    atomic_size_t mem_peak;            /* highest mem_used seen */
    const char *temp_dir;              /* spill files go here (resolved: never NULL) */
    atomic_uint_least64_t spill_files; /* spill files created by the query */
    atomic_uint_least64_t spill_bytes; /* bytes written to them */
    SQE_ARRAY(sqe_exec_dyn *) dyns;    /* dynamic filters (topn.c), under shared_mu */
} sqe_exec_ctx;

/* The counters of plan node p (created on first use), or NULL when the
 * query does not collect them. */
sqe_exec_stats *sqe_exec_stats_for(sqe_exec_ctx *ctx, const sqe_plan *p);

void sqe_exec_ctx_init(sqe_exec_ctx *ctx, const sqe_exec_options *opts);
/* Frees the shared states. */
void sqe_exec_ctx_destroy(sqe_exec_ctx *ctx);

/* True when the query must stop (a failure elsewhere or a cancel request);
 * fills err with CANCELLED "query was cancelled" for a cancel request and
 * with a generic "stopped: another worker failed" otherwise (the failing
 * worker's own error is the one the statement reports). */
bool sqe_exec_stopped(sqe_exec_ctx *ctx, sqe_error *err);

/* Returns the state plan node p shares between its copies, building it with
 * build(op, err) on the first call (other callers wait for it). A failed
 * build fails every caller with the same error. */
void *sqe_exec_shared_get(sqe_exec_ctx *ctx, sqe_op *op, void *(*build)(sqe_op *op, sqe_error *err),
                          void (*free_fn)(void *state), sqe_error *err);

/* Moves the query's tracked bytes by (now - *tracked) and sets *tracked =
 * now. Fails with RESOURCE_EXHAUSTED "query exceeded the memory limit of N
 * bytes in <op_name>" when the total is over the limit. */
bool sqe_exec_mem_track(sqe_exec_ctx *ctx, size_t *tracked, size_t now, const char *op_name,
                        sqe_error *err);

/* The dynamic filter registered for scan plan node `scan`, or NULL. */
sqe_exec_dyn *sqe_exec_dyn_for(sqe_exec_ctx *ctx, const sqe_plan *scan);
/* Registers (or, when one exists for `scan`, resets and returns) the
 * dynamic filter of a TopN over `scan`; reader_col is the table data column
 * for readers (-1: row level only). */
sqe_exec_dyn *sqe_exec_dyn_register(sqe_exec_ctx *ctx, const sqe_plan *scan, int col,
                                    sqe_sort_key key, int reader_col, sqe_type type);

/* ---------------------------------------------------------- operators */

typedef struct sqe_scan_source sqe_scan_source;

typedef struct sqe_op_vtable {
    const char *name; /* "FilterExec" ... (EXPLAIN, error messages) */
    /* Prepares the operator (and opens its child, except blocking operators
     * whose child pipeline the drain driver opens). */
    bool (*open)(sqe_op *op, sqe_error *err);
    /* Returns the next batch in *out (owned by the operator, valid until its
     * next call) or sets *eof. A batch returned has at least one live row. */
    bool (*next)(sqe_op *op, sqe_batch **out, bool *eof, sqe_error *err);
    /* Releases what open/next acquired (never the child, never the struct).
     * Must work on an operator that was never opened or whose open failed. */
    void (*close)(sqe_op *op);
} sqe_op_vtable;

/* The common head of every operator struct (first member). Operators are
 * malloc'd by sqe_op_build and freed by sqe_op_free with their subtree. */
struct sqe_op {
    const sqe_op_vtable *vt;
    const sqe_plan *plan;
    sqe_exec_ctx *ctx;
    int n_children; /* plan->n_children */
    sqe_op **children;
    sqe_exec_stats *stats; /* EXPLAIN ANALYZE counters, NULL when not collected */
    bool ran;              /* next was called (counts this copy in stats->copies) */
    sqe_scan_source *src;  /* SCAN in a pipeline copy: the shared source (not owned) */
};

/* The first input (the probe side of a join). */
static inline sqe_op *sqe_op_child(const sqe_op *op) {
    return op->n_children ? op->children[0] : NULL;
}

/* Builds the operator tree for plan `p`. A SCAN node reached from p through
 * first children only (the pipeline's source) reads from `src` when given
 * (pipeline copies of parallel workers); every other scan opens its own
 * source. */
sqe_op *sqe_op_build(sqe_exec_ctx *ctx, const sqe_plan *p, sqe_scan_source *src, sqe_error *err);
/* close + free, the whole subtree (children after their parent's close).
 * NULL is a no-op. */
void sqe_op_free(sqe_op *op);
static inline bool sqe_op_open(sqe_op *op, sqe_error *err) {
    return op->vt->open(op, err);
}
bool sqe_op_next_counted(sqe_op *op, sqe_batch **out, bool *eof, sqe_error *err);
static inline bool sqe_op_next(sqe_op *op, sqe_batch **out, bool *eof, sqe_error *err) {
    if (op->stats) return sqe_op_next_counted(op, out, eof, err);
    return op->vt->next(op, out, eof, err);
}

/* Constructors, one per operator file: allocate the struct (zeroed) and fill
 * the head; nothing else happens until open. */
sqe_op *sqe_exec_scan_new(sqe_exec_ctx *ctx, const sqe_plan *p, sqe_scan_source *src);
sqe_op *sqe_exec_values_new(sqe_exec_ctx *ctx, const sqe_plan *p);
sqe_op *sqe_exec_filter_new(sqe_exec_ctx *ctx, const sqe_plan *p);
sqe_op *sqe_exec_project_new(sqe_exec_ctx *ctx, const sqe_plan *p);
sqe_op *sqe_exec_hash_agg_new(sqe_exec_ctx *ctx, const sqe_plan *p);
sqe_op *sqe_exec_sort_new(sqe_exec_ctx *ctx, const sqe_plan *p);
sqe_op *sqe_exec_topn_new(sqe_exec_ctx *ctx, const sqe_plan *p);
sqe_op *sqe_exec_limit_new(sqe_exec_ctx *ctx, const sqe_plan *p);
sqe_op *sqe_exec_hash_join_new(sqe_exec_ctx *ctx, const sqe_plan *p);
sqe_op *sqe_exec_nl_join_new(sqe_exec_ctx *ctx, const sqe_plan *p);
sqe_op *sqe_exec_union_all_new(sqe_exec_ctx *ctx, const sqe_plan *p);
sqe_op *sqe_exec_set_op_new(sqe_exec_ctx *ctx, const sqe_plan *p);
sqe_op *sqe_exec_window_new(sqe_exec_ctx *ctx, const sqe_plan *p);
sqe_op *sqe_exec_group_id_new(sqe_exec_ctx *ctx, const sqe_plan *p);
sqe_op *sqe_exec_single_row_new(sqe_exec_ctx *ctx, const sqe_plan *p);

/* --------------------------------------------------------------- sinks */

/* A blocking operator consumes its whole input through a sink: per pipeline
 * copy a local state (own hash table / row buffer / expression states),
 * filled by consume on that copy's thread, then merged into the operator's
 * global state on the calling thread, in worker order.
 *
 * consume gets a row order tag: physical row r of b has tag tag_base + r,
 * and tags increase in the order a serial run would deliver the rows, so a
 * sort can break ties by tag and give the serial answer in parallel. */
typedef struct sqe_sink_vtable {
    void *(*local_new)(sqe_op *op);
    bool (*consume)(sqe_op *op, void *local, sqe_batch *b, uint64_t tag_base, sqe_error *err);
    /* Folds local into the operator's global state; takes ownership of local. */
    bool (*merge)(sqe_op *op, void *local, sqe_error *err);
    /* Frees a local that will not be merged (error paths). */
    void (*local_free)(sqe_op *op, void *local);
} sqe_sink_vtable;

/* Pulls the whole output of op->children[child] into the sink. When that
 * input is a scan pipeline (see sqe_exec_pipeline_scan) and the query may
 * use more than one thread, runs one copy of the pipeline per worker over a
 * shared morsel queue; otherwise opens the child and drains it on the
 * calling thread. */
bool sqe_exec_drain(sqe_op *op, int child, const sqe_sink_vtable *sink, sqe_error *err);

/* Runs a streaming plan, LIMIT? over a scan pipeline, with one pipeline
 * copy per worker, every copy pushing its batches into `out` (see drain.c
 * and sqe_exec_output below). *handled = false when the plan has another
 * shape or the query runs on one thread. */
typedef struct sqe_exec_output sqe_exec_output;
bool sqe_exec_run_gather(sqe_exec_ctx *ctx, const sqe_plan *plan, sqe_exec_output *out,
                         bool *handled, sqe_error *err);

/* The SCAN at the bottom of a pipeline: p's first-child chain through
 * streaming operators (FILTER, PROJECT, the probe side of joins, GROUP_ID),
 * or NULL when the chain ends elsewhere (VALUES, a blocking operator). */
const sqe_plan *sqe_exec_pipeline_scan(const sqe_plan *p);

/* -------------------------------------------------------- scan source */

/* A morsel: one file of one partition, or a part of a large file planned
 * by sqe_format_plan_morsels (a text byte range, Parquet row groups).
 * Strings live in the source. */
typedef struct sqe_scan_morsel {
    const char *path;
    uint64_t size;
    size_t part;         /* index into the source's surviving partitions */
    size_t seq;          /* position in listing order (partitions, paths, ranges) */
    uint64_t start, end; /* planned range [start, end); end == 0: the whole file */
} sqe_scan_morsel;

/* The shared part of a scan: store, reader vtable and spec, the surviving
 * partitions, and the file queue. Created once per scan node per query;
 * sqe_scan_source_next is thread-safe. */
struct sqe_scan_source {
    const sqe_plan *plan;
    const sqe_hive_table *table;
    const sqe_reader_vtable *rvt;
    sqe_reader_spec spec; /* projection = distinct data columns of scan.cols */
    int *out_to_proj;     /* per output column: index into spec.proj, or -1 (partition key) */
    sqe_hive_partition *parts;
    size_t n_parts;
    /* The pipeline's done flag (a LIMIT above is satisfied): the scan then
     * ends its input quietly. NULL: never. Not owned. */
    const atomic_bool *done;
    void *impl; /* scan.c private: mutex, store, listing cursor */
};

bool sqe_scan_source_new(sqe_exec_ctx *ctx, const sqe_plan *scan, sqe_scan_source **out,
                         sqe_error *err);
void sqe_scan_source_free(sqe_scan_source *src);
/* Next file to read, or *done. Lists a partition's files when reaching it. */
bool sqe_scan_source_next(sqe_scan_source *src, sqe_exec_ctx *ctx, sqe_scan_morsel *m, bool *done,
                          sqe_error *err);
/* Lists partitions ahead until min_bytes of files are known or all are
 * listed; *large tells whether the input reaches min_bytes. */
bool sqe_scan_source_prefetch(sqe_scan_source *src, uint64_t min_bytes, bool *large,
                              sqe_error *err);
/* Row order tag base of the batch a scan operator returned last: row r of
 * that batch is (morsel seq << 32) + rows of the file before the batch + r.
 * Increases in the order a serial scan produces rows. */
uint64_t sqe_exec_scan_tag(const sqe_op *scan);

/* ----------------------------------------------------------- key slots */

/* A typed value normalized for hashing, equality and ordering:
 *   I64  BOOLEAN, TINYINT..BIGINT, DATE, TIMESTAMP (sign-extended in .i)
 *   F64  REAL, DOUBLE as the bits of a double in .i, -0.0 folded to 0.0 and
 *        every NaN to one NaN (so equal values have equal bits)
 *   I128 DECIMAL unscaled
 *   STR  VARCHAR, VARBINARY: the view with bytes after len zeroed when
 *        inline, so two inline views are equal iff their 16 bytes are. */
typedef union sqe_key_slot {
    int64_t i;
    sqe_i128 x;
    sqe_string s;
    uint64_t w[2];
} sqe_key_slot;

typedef enum { SQE_KEY_I64, SQE_KEY_F64, SQE_KEY_I128, SQE_KEY_STR } sqe_key_class;

sqe_key_class sqe_key_class_of(sqe_type t);
/* Loads the rows (sel ? sel[i] : i), i < n, of v into slots[i] and nulls[i]
 * (1 = NULL; a NULL row's slot is zeroed). Strings are views into v. */
void sqe_key_load(const sqe_vector *v, const uint16_t *sel, uint32_t n, sqe_key_slot *slots,
                  uint8_t *nulls);
/* Writes slots[0..n) into rows dst_row.. of out (out->type decides the
 * width). Strings are stored as views (no copy). */
void sqe_key_store(sqe_vector *out, uint32_t dst_row, const sqe_key_slot *slots,
                   const uint8_t *nulls, uint32_t n);

static inline uint64_t sqe_key_hash(sqe_key_class kc, const sqe_key_slot *s) {
    switch (kc) {
    case SQE_KEY_I64:
    case SQE_KEY_F64:
        return sqe_hash_u64((uint64_t)s->i);
    case SQE_KEY_I128:
        return sqe_hash_u64(s->w[0] ^ sqe_hash_u64(s->w[1] + 0x9e3779b97f4a7c15ULL));
    case SQE_KEY_STR:
        if (s->s.len <= SQE_STRING_INLINE)
            return sqe_hash_u64(s->w[0] ^ sqe_hash_u64(s->w[1] ^ 0x5bd1e9955bd1e995ULL));
        return sqe_hash_bytes(s->s.u.ptr, s->s.len, 0x51ed27);
    }
    return 0;
}

static inline bool sqe_key_eq(sqe_key_class kc, const sqe_key_slot *a, const sqe_key_slot *b) {
    switch (kc) {
    case SQE_KEY_I64:
    case SQE_KEY_F64:
        return a->i == b->i;
    case SQE_KEY_I128:
        return a->x == b->x;
    case SQE_KEY_STR:
        if (a->w[0] != b->w[0]) return false; /* len + prefix */
        if (a->s.len <= SQE_STRING_INLINE) return a->w[1] == b->w[1];
        return memcmp(a->s.u.ptr, b->s.u.ptr, a->s.len) == 0;
    }
    return false;
}

static inline uint32_t sqe_key_prefix_be(const sqe_string *s) {
    const unsigned char *p = (const unsigned char *)s->prefix;
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Bytewise order. The first 4 bytes sit in the view itself, so most
 * comparisons end there without touching a long string's bytes elsewhere
 * in memory (a cache miss per string when sorting). */
static inline int sqe_key_cmp_str(const sqe_string *a, const sqe_string *b) {
    uint32_t n = a->len < b->len ? a->len : b->len;
    if (n > 0) {
        uint32_t pa = sqe_key_prefix_be(a), pb = sqe_key_prefix_be(b);
        if (n < 4) {
            uint32_t mask = ~(UINT32_MAX >> (8 * n)); /* the first n bytes */
            pa &= mask;
            pb &= mask;
        }
        if (pa != pb) return pa < pb ? -1 : 1;
        if (n > 4) {
            int c = memcmp(sqe_string_data(a) + 4, sqe_string_data(b) + 4, n - 4);
            if (c) return c;
        }
    }
    return a->len < b->len ? -1 : a->len > b->len;
}

/* Three-way order of two non-NULL slots (NaN sorts after every number). */
static inline int sqe_key_cmp(sqe_key_class kc, const sqe_key_slot *a, const sqe_key_slot *b) {
    switch (kc) {
    case SQE_KEY_I64:
        return a->i < b->i ? -1 : a->i > b->i;
    case SQE_KEY_F64: {
        double x, y;
        memcpy(&x, &a->i, 8);
        memcpy(&y, &b->i, 8);
        if (x < y) return -1;
        if (x > y) return 1;
        bool nx = isnan(x), ny = isnan(y);
        return nx == ny ? 0 : (nx ? 1 : -1);
    }
    case SQE_KEY_I128:
        return a->x < b->x ? -1 : a->x > b->x;
    case SQE_KEY_STR:
        return sqe_key_cmp_str(&a->s, &b->s);
    }
    return 0;
}

/* Row order for ORDER BY keys given the per-key slots/nulls of two rows.
 * NaN sits next to the NULLs' end of the value range as in Trino: after
 * every number (the largest value) with NULLS LAST, before every number
 * (the smallest) with NULLS FIRST; DESC then reverses the values. */
static inline int sqe_key_cmp_sort(const sqe_sort_key *key, sqe_key_class kc, const sqe_key_slot *a,
                                   bool a_null, const sqe_key_slot *b, bool b_null) {
    if (a_null || b_null) {
        if (a_null && b_null) return 0;
        return (a_null ? 1 : -1) * (key->nulls_first ? -1 : 1);
    }
    int c = sqe_key_cmp(kc, a, b);
    if (kc == SQE_KEY_F64 && key->nulls_first && c != 0) {
        double x, y;
        memcpy(&x, &a->i, 8);
        memcpy(&y, &b->i, 8);
        if (isnan(x) != isnan(y)) c = isnan(x) ? -1 : 1;
    }
    return key->desc ? -c : c;
}

/* ----------------------------------------------------------- row store */

/* Materialized rows in chunks of SQE_BATCH_ROWS (owned vectors, string bytes
 * copied). A row is addressed by (chunk << 11) | row. Chunks may be partly
 * filled (after sqe_rowstore_adopt); sqe_rowstore_indexes lists live rows.
 * A tagged store has one more, hidden BIGINT column (the last) holding each
 * row's order tag (see sqe_sink_vtable). */
#define SQE_ROWSTORE_SHIFT 11
typedef struct sqe_rowstore_chunk {
    sqe_vector **cols;
    uint32_t n;
} sqe_rowstore_chunk;

typedef struct sqe_rowstore {
    int n_cols; /* including the tag column when tagged */
    bool tagged;
    const sqe_type *types; /* n_cols types (the tag's is BIGINT), not owned */
    SQE_ARRAY(sqe_rowstore_chunk) chunks;
    size_t n_rows;
    size_t bytes; /* approximate memory held */
} sqe_rowstore;

void sqe_rowstore_init(sqe_rowstore *rs, int n_cols, const sqe_type *types, bool tagged);
void sqe_rowstore_free(sqe_rowstore *rs);
/* Copies rows (sel ? sel[i] : i), i < n, of b (its first n_cols columns, or
 * n_cols - 1 plus tag_base + row when tagged). */
void sqe_rowstore_append(sqe_rowstore *rs, const sqe_batch *b, const uint16_t *sel, uint32_t n,
                         uint64_t tag_base);
/* The bytes sqe_rowstore_append(rs, b, sel, n, ...) would add to rs->bytes
 * (new chunks and long string bytes), so a caller can reserve memory
 * before copying. */
size_t sqe_rowstore_append_bytes(const sqe_rowstore *rs, const sqe_batch *b, const uint16_t *sel,
                                 uint32_t n);
/* Copies rows idx[0..n) of src (same schema) to the end of rs. */
void sqe_rowstore_append_rows(sqe_rowstore *rs, const sqe_rowstore *src, const uint32_t *idx,
                              size_t n);
/* Moves every chunk of src to the end of rs; src becomes empty. */
void sqe_rowstore_adopt(sqe_rowstore *rs, sqe_rowstore *src);
/* Fills idx (rs->n_rows entries) with the live row addresses in order. */
void sqe_rowstore_indexes(const sqe_rowstore *rs, uint32_t *idx);
/* Stable sort of idx[0..n) by keys (columns of rs). */
void sqe_rowstore_sort(const sqe_rowstore *rs, const sqe_sort_key *keys, int n_keys, uint32_t *idx,
                       size_t n);
/* Sorts every live row of rs by keys (stable): returns their addresses in
 * sorted order (malloc'd, rs->n_rows entries) and, when slots_out is given,
 * per key a malloc'd array of the rows' key slots and NULL flags in that
 * order (*slots_out and *nulls_out are malloc'd arrays of n_keys arrays;
 * string slots are views into rs). Peak memory beyond rs: about
 * SQE_SORT_PEAK_ROW(n_keys) bytes per row; what it returns is
 * SQE_SORT_KEEP_ROW(n_keys) bytes per row. */
uint32_t *sqe_rowstore_sort_all(const sqe_rowstore *rs, const sqe_sort_key *keys, int n_keys,
                                sqe_key_slot ***slots_out, uint8_t ***nulls_out);
#define SQE_SORT_KEEP_ROW(n_keys) (sizeof(uint32_t) + (size_t)(n_keys) * (sizeof(sqe_key_slot) + 1))
#define SQE_SORT_PEAK_ROW(n_keys) (SQE_SORT_KEEP_ROW(n_keys) + 56)
/* Writes rows idx[0..n) (n <= SQE_BATCH_ROWS) into out's first n rows: the
 * first out->n_cols columns (out owns vectors of rs's types, reset by the
 * caller). Strings are views into rs. */
void sqe_rowstore_gather(const sqe_rowstore *rs, const uint32_t *idx, uint32_t n, sqe_batch *out);
static inline const sqe_vector *sqe_rowstore_col(const sqe_rowstore *rs, uint32_t idx, int col,
                                                 uint32_t *row) {
    *row = idx & (SQE_BATCH_ROWS - 1);
    return rs->chunks.items[idx >> SQE_ROWSTORE_SHIFT].cols[col];
}

/* ------------------------------------------------------- spill files */

/* A temporary file of batches with a fixed schema (spill.c): created under
 * ctx->temp_dir with mkostemp and unlinked at once (the descriptor is the
 * only reference, so no exit path leaves it behind), written batch by
 * batch, then read back from the start after sqe_spill_rewind (any number
 * of times). Not thread-safe: one user at a time. Encoding in spill.c;
 * every sqe_type round-trips exactly (NULLs, NaN payloads, -0.0, 128-bit
 * decimals, empty and long strings). */
typedef struct sqe_spill_file sqe_spill_file;

/* One I/O buffer per file while it is written or read (none when idle). */
#define SQE_SPILL_BUF_BYTES ((size_t)64 << 10)

/* Creates an empty file for batches of n_cols columns of `types` (copied).
 * op_name ("SortExec") is named in I/O errors. Fails with STORAGE (or
 * RESOURCE_EXHAUSTED when the disk is full) "could not create temporary file
 * in '<dir>' for <op_name>: <strerror>". Counts ctx->spill_files. */
sqe_spill_file *sqe_spill_create(sqe_exec_ctx *ctx, int n_cols, const sqe_type *types,
                                 const char *op_name, sqe_error *err);
/* Appends rows (sel ? sel[i] : i), i < n, of b's first n_cols columns (any
 * n; stored as batches of at most SQE_BATCH_ROWS rows). A failed write
 * fails with RESOURCE_EXHAUSTED "could not write temporary file for
 * <op_name>: No space left on device" (ENOSPC, EDQUOT, EFBIG) or STORAGE,
 * and the file refuses further use. Counts ctx->spill_bytes. */
bool sqe_spill_write(sqe_spill_file *f, const sqe_batch *b, const uint16_t *sel, uint32_t n,
                     sqe_error *err);
/* Ends writing (flushes, releases the buffer) and positions reading at the
 * first batch. */
bool sqe_spill_rewind(sqe_spill_file *f, sqe_error *err);
/* Reads the next batch into out (reset first; out has at least n_cols
 * owned vectors of the file's types): compact rows, no selection, strings
 * in out's heaps. *eof at the end (the buffer is released then). Rewinds
 * first when the file was still being written. */
bool sqe_spill_read(sqe_spill_file *f, sqe_batch *out, bool *eof, sqe_error *err);
/* Closes (and so deletes) the file. NULL is a no-op. */
void sqe_spill_close(sqe_spill_file *f);
uint64_t sqe_spill_rows(const sqe_spill_file *f);
uint64_t sqe_spill_bytes(const sqe_spill_file *f); /* bytes written so far */
/* Memory one batch of the file takes when read back: the vectors' value
 * arrays plus its largest long-string payload. */
size_t sqe_spill_max_batch_bytes(const sqe_spill_file *f);

/* "Reserve or spill": moves the query's tracked bytes by (now - *tracked)
 * like sqe_exec_mem_track, but when growing would pass the memory limit it
 * changes nothing and returns false without an error, so the caller can
 * free memory (spill) and try again. Shrinking always succeeds. */
bool sqe_exec_mem_reserve(sqe_exec_ctx *ctx, size_t *tracked, size_t now);

/* ------------------------------------------------------- external sort */

/* The sort engine behind SortExec, also used by TopNExec when its
 * offset + limit rows do not fit in memory (sort.c). Rows go into
 * per-thread locals; a local that would pass its share of the memory limit
 * sorts what it holds and writes it as a sorted run to a spill file. The
 * sorter adopts the locals (the last rows of each stay in memory), sorts
 * those in parallel on the pool, then k-way merges every run (a loser tree
 * over normalized key slots), with intermediate merge passes when too many
 * disk runs are open for the memory left.
 *
 *   s = sqe_sorter_new(ctx, "SortExec", n_cols, types, n_keys, keys);
 *   per pipeline copy: l = sqe_sort_local_new(s); sqe_sort_local_add(l, ...)*;
 *   on the calling thread: sqe_sorter_adopt(s, l) for each local
 *   sqe_sorter_finish(s, err); sqe_sorter_next(s, out, &eof, err)*;
 *   sqe_sorter_free(s)
 *
 * The last type and key should be the row order tag (BIGINT, ascending),
 * which makes every row distinct so the answer does not depend on how rows
 * were split into runs or threads. Memory is tracked under op_name. */
typedef struct sqe_sorter sqe_sorter;
typedef struct sqe_sort_local sqe_sort_local;

/* types (n_cols) and keys (n_keys) are copied. */
sqe_sorter *sqe_sorter_new(sqe_exec_ctx *ctx, const char *op_name, int n_cols,
                           const sqe_type *types, int n_keys, const sqe_sort_key *keys);
/* Frees runs (closing their files), locals not adopted are the caller's;
 * gives back every tracked byte. NULL is a no-op. */
void sqe_sorter_free(sqe_sorter *s);
/* A new local (any thread may use it, one at a time). Each local's share of
 * the memory limit is limit / (locals alive). */
sqe_sort_local *sqe_sort_local_new(sqe_sorter *s);
void sqe_sort_local_free(sqe_sort_local *l);
/* A local's share of the memory limit: limit / locals alive (SIZE_MAX
 * without a limit). A local spills when it would hold more. */
size_t sqe_sorter_share(const sqe_sorter *s);
/* Copies rows (sel ? sel[i] : i), i < n, of b's first n_cols - 1 columns,
 * with order tag tag_base + row as the last column. Spills the local first
 * when the rows would not fit; fails with RESOURCE_EXHAUSTED "query exceeded
 * the memory limit of N bytes in <op_name>" when even an empty local cannot
 * take them, or with a spill file's error. */
bool sqe_sort_local_add(sqe_sort_local *l, const sqe_batch *b, const uint16_t *sel, uint32_t n,
                        uint64_t tag_base, sqe_error *err);
/* Moves every row of rs (a tagged store of the sorter's n_cols types) into
 * the local, spilling as needed; rs becomes empty. The caller gives back
 * what it tracked for rs first. */
bool sqe_sort_local_adopt(sqe_sort_local *l, sqe_rowstore *rs, sqe_error *err);
/* Takes over l (its rows and runs); calling thread only, before finish. */
void sqe_sorter_adopt(sqe_sorter *s, sqe_sort_local *l);
/* Sorts the in-memory runs (in parallel on ctx->pool) and prepares the
 * merge, spilling in-memory runs or merging disk runs in passes when the
 * merge would not fit. */
bool sqe_sorter_finish(sqe_sorter *s, sqe_error *err);
/* The next up to SQE_BATCH_ROWS rows in order into out (reset here; its
 * first out->n_cols columns, of the sorter's types). Strings are views into
 * the sorter or copies in out's heaps: valid until the next call. */
bool sqe_sorter_next(sqe_sorter *s, sqe_batch *out, bool *eof, sqe_error *err);
/* Rows added so far (valid after finish). */
uint64_t sqe_sorter_rows(const sqe_sorter *s);

/* -------------------------------- expression memory (issue 5, mem-count) */

/* An expression state for operator op whose memory counts against the
 * query's (ctx->mem_used under ctx->memory_limit): scratch vectors,
 * selection buffers and every result string heap. NULL with
 * RESOURCE_EXHAUSTED "query exceeded the memory limit of N bytes in
 * <op's name>" when the state does not fit; evaluation later fails naming
 * the function whose result would pass the limit. err NULL: never NULL
 * (the fixed part is counted but not refused; for sink local_new). Every
 * operator that evaluates expressions over data should create its states
 * with this, not sqe_expr_state_new (defined in expr.c). A state whose
 * evaluation fails for memory retries in pieces of the batch (expr.c). */
sqe_expr_state *sqe_exec_expr_state_new(sqe_op *op, const sqe_expr *e, sqe_error *err);
/* The same, lazy or not (sqe_expr_state_new_sized). */
sqe_expr_state *sqe_exec_expr_state_new_sized(sqe_op *op, const sqe_expr *e, bool lazy,
                                              sqe_error *err);

/* ----------------------------------------------------------- helpers */

/* Copies rows sel[0..n) (or 0..n-1) of src into the same rows of dst (same
 * type); NULLs become NULL. String views are copied as views. */
void sqe_exec_copy_rows(sqe_vector *dst, const sqe_vector *src, const uint16_t *sel, uint32_t n);

/* EXPLAIN text of one aggregate: "count(*)", "sum(amount)", "count(DISTINCT x)". */
char *sqe_exec_agg_to_string(sqe_arena *a, const sqe_agg_binding *b, const sqe_expr *arg);

/* ------------------------------------------------------------- window */

/* Shared by window.c (the operator), window_frame.c (frame bounds) and
 * window_agg.c (aggregates over frames). Positions are "sorted positions":
 * the index of a row in the operator's (partition, order, tag) order. */

/* A column of values by sorted position: chunks[pos >> 11] row pos & 2047,
 * or one row for a constant. Vectors owned by the operator; string views
 * point into its row store. */
typedef struct sqe_win_col {
    sqe_vector **chunks;
    size_t n_chunks;
    bool is_const;
} sqe_win_col;

static inline const sqe_vector *sqe_win_col_at(const sqe_win_col *c, size_t pos, uint32_t *row) {
    if (c->is_const) {
        *row = 0;
        return c->chunks[0];
    }
    *row = (uint32_t)(pos & (SQE_BATCH_ROWS - 1));
    return c->chunks[pos >> SQE_ROWSTORE_SHIFT];
}

/* One partition: rows [start, start + n) in sorted order, cut into peer
 * groups (rows with equal ORDER BY keys; the whole partition without ORDER
 * BY). Row positions below are relative to start. */
typedef struct sqe_win_part {
    size_t start;
    uint32_t n;
    uint32_t n_groups;
    const uint32_t *grp;  /* per row: its peer group */
    const uint32_t *gbeg; /* n_groups + 1: first row of each group, then n */
} sqe_win_part;

/* What the frame of one function needs besides the partition. */
typedef struct sqe_win_frame_spec {
    const sqe_window_func *f;
    const sqe_win_col *start_off, *end_off; /* PRECEDING/FOLLOWING offsets, else NULL */
    const sqe_win_col *key;                 /* RANGE with an offset: the ORDER BY key */
    sqe_sort_key key_order;                 /* the key's direction and NULL placement */
} sqe_win_frame_spec;

/* Fills the frame of every row i of p: rows [fs[i], fe[i]) (empty when
 * fs[i] >= fe[i]). slots: p->n entries of scratch (RANGE keys). Fails with
 * INVALID_ARGUMENT on a negative or NULL offset. */
bool sqe_win_frames(const sqe_win_frame_spec *spec, const sqe_win_part *p, uint32_t *fs,
                    uint32_t *fe, sqe_key_slot *slots, sqe_error *err);

/* Scratch of the aggregate evaluator, kept across partitions and functions
 * (owned by the operator; bytes is what it holds, for memory tracking). */
typedef struct sqe_win_agg_scratch {
    uint8_t *tree; /* segment tree of states */
    size_t tree_cap;
    uint8_t *tmp; /* a few states of the current aggregate */
    size_t tmp_cap;
    void **states; /* SQE_BATCH_ROWS state pointers */
    uint16_t *sel; /* SQE_BATCH_ROWS rows */
    size_t bytes;
} sqe_win_agg_scratch;

void sqe_win_agg_scratch_free(sqe_win_agg_scratch *s);

/* Evaluates aggregate ab over the frame [fs[i], fe[i]) of every row i of p
 * (only rows where filter is TRUE count; filter may be NULL, arg is NULL for
 * count(*)) and writes row i's value to res[pos >> 11] row pos & 2047,
 * pos = p->start + i. */
bool sqe_win_agg_eval(sqe_win_agg_scratch *s, const sqe_agg_binding *ab, const sqe_win_col *arg,
                      const sqe_win_col *filter, const sqe_win_part *p, const uint32_t *fs,
                      const uint32_t *fe, sqe_vector *const *res, sqe_error *err);

/* ------------------------------------------------------- query output */

/* Where the streaming root of a query delivers its rows: the bounded queue
 * of a query handle (query.c) or the result set of sqe_exec_run (exec.c).
 * push gets a batch owned by the operator that produced it (live rows
 * through its selection; valid only during the call) and copies what it
 * keeps. Pipeline copies call it from several threads at once
 * (sqe_exec_run_gather), so it must be thread-safe. It may block (a full
 * queue) but must then watch sqe_exec_stopped. Returns false with err set
 * to fail the query. */
struct sqe_exec_output {
    bool (*push)(sqe_exec_output *out, sqe_batch *b, sqe_error *err);
};

/* Runs plan to its end, delivering every output batch to out: through
 * sqe_exec_run_gather when the plan is a parallel streaming pipeline,
 * otherwise by pulling the root operator on the calling thread. Returns the
 * query's first error. */
bool sqe_exec_produce(sqe_exec_ctx *ctx, const sqe_plan *plan, sqe_exec_output *out,
                      sqe_error *err);

/* A compact copy of the live rows of b (the first n_cols columns, typed
 * types; columns b lacks or of type NULL become NULL): owned vectors, no
 * selection, string bytes copied, vectors holding only the live rows (read
 * it; do not write past n_rows). *bytes is the memory it holds. */
sqe_batch *sqe_exec_batch_compact(const sqe_batch *b, int n_cols, const sqe_type *types,
                                  size_t *bytes);

#endif
