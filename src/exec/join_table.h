/*
 * join_table.h - private to the join operators (hash_join.c, nl_join.c):
 * the build side both of them share (children[1] materialized once per
 * query, plus the hash indexes of the hash join) and the probe driver that
 * turns candidate pairs into output batches for every join type. See
 * join_table.c for the design; hash_join.c and nl_join.c supply only how
 * candidate pairs are found.
 */
#ifndef SQE_JOIN_TABLE_H
#define SQE_JOIN_TABLE_H

#include "exec/exec_int.h"

/* ---------------------------------------------------------------- build */

/* Which build rows an index holds (besides having keys 0..n_keys-1 non-NULL). */
typedef enum sqe_join_index_kind {
    SQE_JOIN_IX_ALL,       /* every such row */
    SQE_JOIN_IX_DISTINCT,  /* one entry per distinct key tuple, with has_null */
    SQE_JOIN_IX_NULL_LAST, /* only rows whose key n_keys (the IN operand) is NULL */
} sqe_join_index_kind;

/* Per indexed row: the next row of its chain + 1 (0 = end) and the upper
 * 32 bits of its hash, side by side so a chain step costs one cache miss. */
typedef struct sqe_join_link {
    uint32_t next;
    uint32_t tag;
} sqe_join_link;

/* A chained hash index over build rows whose first n_keys keys are all
 * non-NULL. Rows are numbered 0..n_rows-1 (the table's row order). */
typedef struct sqe_join_index {
    int n_keys; /* keys 0..n_keys-1 are hashed and compared (0: one chain of every row) */
    sqe_join_index_kind kind;
    size_t mask;          /* buckets - 1 (buckets: a power of two >= n_rows) */
    uint32_t *heads;      /* per bucket: first row + 1, 0 = empty; NULL: index not built */
    sqe_join_link *links; /* per row (chains list rows in ascending order) */
    uint8_t *has_null;    /* distinct: per entry row, its group holds a NULL key n_keys */
} sqe_join_index;

typedef struct sqe_join_spill sqe_join_spill;                 /* join_spill.c */
typedef struct sqe_join_spill_scratch sqe_join_spill_scratch; /* join_spill.c */

/* The build side of one join node: created by the first pipeline copy that
 * opens (sqe_exec_shared_get), read-only afterwards except `matched`,
 * `active` and `emitted`; freed with the query context. A spilling hash
 * join also makes one per spilled partition after the probe (join_spill.c):
 * owned by the pipeline copy joining that partition, same metadata, no
 * `spill`. */
typedef struct sqe_join_table {
    sqe_exec_ctx *ctx;
    const sqe_plan *plan; /* the join node */
    const char *op_name;  /* "HashJoinExec" / "NestedLoopJoinExec" (memory errors) */
    int n_cols;           /* children[1]'s columns: row store columns 0..n_cols-1 */
    int n_keys;
    int n_store;         /* row store columns: n_cols, then computed right keys */
    int n_required;      /* leading keys a stored row must have non-NULL */
    sqe_type *types;     /* n_store */
    int *key_col;        /* per key: the row store column holding it */
    sqe_key_class *kc;   /* per key */
    sqe_rowstore rows;   /* the build rows (strings copied) */
    size_t n_rows;       /* < UINT32_MAX */
    bool *nullable;      /* per column: some stored value is NULL */
    sqe_key_slot **keys; /* per key: n_rows slots (strings are views into rows) */
    uint8_t **knull;     /* per key: n_rows NULL flags */
    /* Indexes (see join_table.c): `full` over every key; over the keys
     * before the last (the correlation keys of a null-aware IN): `groups`
     * (DISTINCT), or with a residual `corr_all` (ALL) and `corr_null`
     * (NULL_LAST). heads == NULL: not built. */
    sqe_join_index full, groups, corr_all, corr_null;
    atomic_uchar *matched; /* RIGHT/FULL: per row, some probe row matched it */
    atomic_int active;     /* pipeline copies probing right now */
    atomic_bool emitted;   /* the unmatched build rows were emitted */
    size_t tracked;        /* bytes reported to the query */
    /* Spilling (join_spill.c). Partitions hash keys 0..n_part_keys-1: every
     * key, or a null-aware IN's correlation keys (its operand when there
     * are none). can_spill: a hash join whose groups partition (not NL
     * joins, not an uncorrelated null-aware IN with a residual). */
    bool can_spill;
    int n_part_keys;
    /* Uncorrelated null-aware IN (one key): its only group is the whole
     * build side, so its flags (SQE_JOIN_G_NONEMPTY, SQE_JOIN_G_NULL) are
     * gathered while building and hold for every partition. */
    bool na_global;
    atomic_uchar na_flags;
    pthread_mutex_t mu;    /* starts the spill once */
    atomic_bool spilling;  /* build rows go to partition files */
    sqe_join_spill *spill; /* set once spilling starts (before `spilling`) */
} sqe_join_table;

/* The build callback of sqe_exec_shared_get: drains op->children[1] (on all
 * threads when it is a scan pipeline) and indexes it. op is a sqe_join_op. */
void *sqe_join_table_build(sqe_op *op, sqe_error *err);
void sqe_join_table_free(void *table);

/* For join_spill.c. A table with op's metadata and no rows. */
sqe_join_table *sqe_join_table_new(sqe_op *op);
/* Bytes a table of n rows takes beyond its row store (key slots, indexes,
 * matched flags). */
size_t sqe_join_table_extra_bytes(const sqe_join_table *t, const sqe_plan *p, size_t n);
/* Numbers t->rows, loads the key slots, builds the indexes p needs (the
 * caller has reserved sqe_join_table_extra_bytes). Fails for 2^32 - 1 rows
 * or more. */
bool sqe_join_table_index(sqe_join_table *t, const sqe_plan *p, sqe_error *err);
/* Frees rows, key slots, indexes and flags; t->n_rows = 0; gives back the
 * tracked bytes. */
void sqe_join_table_drop_rows(sqe_join_table *t);
/* Moves src's rows to the end of dst, keeping dst dense. */
void sqe_join_rows_merge(sqe_rowstore *dst, sqe_rowstore *src);

/* Hashing shared by build and probe: key column k of n rows into h (the
 * first column assigns, later ones combine). NULL slots hash to a constant
 * (such rows are never looked up). With no key at all h is
 * SQE_JOIN_NO_KEYS_HASH. */
#define SQE_JOIN_NULL_HASH 0x2545f4914f6cdd1dULL
#define SQE_JOIN_NO_KEYS_HASH 0x9e3779b97f4a7c15ULL
static inline void sqe_join_hash_col(sqe_key_class kc, const sqe_key_slot *s, const uint8_t *nl,
                                     uint32_t n, int k, uint64_t *h) {
    for (uint32_t i = 0; i < n; i++) {
        uint64_t x = nl[i] ? SQE_JOIN_NULL_HASH : sqe_key_hash(kc, &s[i]);
        h[i] = k == 0 ? x : sqe_hash_u64(h[i] * 0x100000001b3ULL ^ x);
    }
}

/* Whether build row `row` equals probe row i (slots pk[k][i]) on keys
 * 0..nk-1, all non-NULL on both sides. */
static inline bool sqe_join_keys_eq(const sqe_join_table *t, int nk, uint32_t row,
                                    sqe_key_slot *const *pk, uint32_t i) {
    for (int k = 0; k < nk; k++)
        if (!sqe_key_eq(t->kc[k], &t->keys[k][row], &pk[k][i])) return false;
    return true;
}

/* ---------------------------------------------------------------- probe */

typedef struct sqe_join_op sqe_join_op;

/* What differs between the hash and the nested loop join: how candidate
 * pairs are found, and (null-aware IN) how matches become marks. */
typedef struct sqe_join_probe_vt {
    /* A new probe batch is in j->in (j->n_in live rows): prepare fill. */
    bool (*start)(sqe_join_op *j, sqe_error *err);
    /* Appends candidate pairs of live probe row i (j->pi, j->pb), at most
     * *budget of them (decremented) and never past SQE_BATCH_ROWS; returns
     * whether the row has candidates left (its cursor is kept). In direct
     * mode it records the row's match in j->hits itself and adds no pairs. */
    bool (*fill_row)(sqe_join_op *j, uint32_t i, uint32_t *budget);
    /* Records the pairs sel[0..k) (NULL: 0..k-1) that passed the residual.
     * NULL: the default (count hits, flag matched build rows). */
    bool (*accept)(sqe_join_op *j, const uint16_t *sel, uint32_t k, sqe_error *err);
    /* Computes j->mark for the batch (SEMI/ANTI/MARK). NULL: TRUE iff hit. */
    void (*finish)(sqe_join_op *j);
} sqe_join_probe_vt;

/* Null-aware group flags (j->flags); DECIDED also ends a row's search. */
#define SQE_JOIN_G_NONEMPTY 1
#define SQE_JOIN_G_NULL 2
#define SQE_JOIN_DECIDED 4

/* The common head of both join operators (first member of hj_op/nlj_op).
 * Pair columns: children[0]'s n_probe columns, then children[1]'s n_build. */
struct sqe_join_op {
    sqe_op base;
    const sqe_join_probe_vt *vt;
    sqe_join_table *t;        /* the shared build side (owned by the query context) */
    sqe_join_table *building; /* during sqe_join_table_build only */
    sqe_join_type type;
    int n_probe, n_build;
    bool pairs_out;      /* INNER/LEFT/RIGHT/FULL: accepted pairs are output rows */
    bool early_stop;     /* SEMI/ANTI/MARK: a probe row is decided by one match */
    bool direct;         /* early_stop without residual: no pairs, fill sets hits */
    bool emit_unmatched; /* RIGHT/FULL */
    bool single_match;
    sqe_expr_state *residual;
    bool *need; /* per pair column: gathered for a pair batch */
    /* The probe batch being joined (children[0]'s, valid until its next). */
    sqe_batch *in;
    uint32_t n_in;
    uint8_t *hits;    /* per live probe row: accepted pairs, saturating at 2 */
    uint8_t *flags;   /* per live probe row: null-aware group flags */
    uint8_t *mark;    /* per live probe row: 0 FALSE, 1 TRUE, 2 NULL */
    uint8_t *left;    /* per live probe row: candidates left to generate */
    uint16_t *budget; /* per live probe row: candidates it may add next pass */
    uint32_t ci;      /* fill cursor: live probe row */
    bool more;        /* this pass left a row with candidates */
    bool budgeted;    /* early_stop with a residual: rows fill in growing passes */
    bool exhausted;   /* every candidate of the batch was generated */
    /* Candidate pairs: live probe row pi[r] with build row pb[r]. */
    uint32_t n_pairs;
    uint16_t *pi;
    uint32_t *pb;
    uint16_t *prow;       /* scratch: physical probe rows */
    sqe_batch *pairs;     /* owned vectors: gathered pairs (also the pair output) */
    sqe_batch *pass;      /* views: probe columns + NULL build / mark (per-batch output) */
    sqe_batch *tail;      /* views: NULL probe + build rows (unmatched build output) */
    sqe_vector **nulls;   /* per pair column: all NULL (outer joins) */
    sqe_vector *markv;    /* MARK: the mark column */
    int phase;            /* join_table.c */
    bool registered;      /* counted in shared->active */
    size_t unmatched_pos; /* next build row to look at for RIGHT/FULL output */
    /* Spilling (join_spill.c). t is `shared` while probing, then the table
     * of the spilled partition this copy joins (`part`). */
    sqe_join_table *shared;
    sqe_join_spill_scratch *scratch; /* routing probe rows to files */
    sqe_batch *view;                 /* the probe batch narrowed to in-memory rows */
    sqe_batch *spill_in;             /* a batch read from a partition's probe file */
    void *part;                      /* the partition being joined (join_spill.c) */
};

/* open / next / close of both join operators. open checks the plan node,
 * builds or finds the shared table, then opens children[0]. */
bool sqe_join_open(sqe_join_op *j, const sqe_join_probe_vt *vt, sqe_error *err);
bool sqe_join_next(sqe_join_op *j, sqe_batch **out, bool *eof, sqe_error *err);
void sqe_join_close(sqe_join_op *j);

/* ---------------------------------------------------------------- spill */

/* Grace hash join (join_spill.c has the design). Fan-out per level and the
 * deepest re-partitioning level. */
#define SQE_JOIN_SPILL_BITS 4
#define SQE_JOIN_SPILL_PARTS (1 << SQE_JOIN_SPILL_BITS)
#define SQE_JOIN_SPILL_MAX_DEPTH 4

/* Build side (join_table.c's sink). `spill_start` makes t->spill (once,
 * any thread). `spill_rows` writes rows (sel ? sel[i] : i), i < n, of b
 * (t->n_store columns) to their partitions' build files; *sc is created on
 * first use and freed with sqe_join_spill_scratch_free. `spill_store`
 * writes every row of rs and empties it. */
bool sqe_join_spill_start(sqe_join_table *t, sqe_error *err);
/* Tracks the spill's I/O buffers if spill_start could not yet (call after
 * writing rows out); RESOURCE_EXHAUSTED when even they do not fit. */
bool sqe_join_spill_settle(sqe_join_table *t, sqe_error *err);
bool sqe_join_spill_rows(sqe_join_table *t, sqe_join_spill_scratch **sc, const sqe_batch *b,
                         const uint16_t *sel, uint32_t n, sqe_error *err);
bool sqe_join_spill_store(sqe_join_table *t, sqe_join_spill_scratch **sc, sqe_rowstore *rs,
                          sqe_error *err);
/* After the build drain of a spilling table (its rows all in files): loads
 * partitions back into t while they fit (hybrid), indexes t. */
bool sqe_join_spill_hybrid(sqe_op *op, sqe_join_table *t, sqe_error *err);
void sqe_join_spill_free(sqe_join_spill *s);
void sqe_join_spill_scratch_free(sqe_join_spill_scratch *sc);
/* Whether the bytes `now` fit under the limit with `headroom` to spare;
 * reserves `now` when they do (sqe_exec_mem_reserve semantics). */
bool sqe_join_mem_fits(sqe_exec_ctx *ctx, size_t *tracked, size_t now, size_t headroom);
/* The I/O buffers a spill tracks from its start: the build keeps them free
 * until then. */
size_t sqe_join_spill_budget(const sqe_exec_ctx *ctx);

/* Probe side. Routes the live rows of j->in (keys pk/pn loaded, h0 their
 * partition hashes) whose partition is on disk to its probe file, and
 * narrows j->in (to j->view), j->n_in and pk/pn (nk keys) to the rest. */
bool sqe_join_spill_route(sqe_join_op *j, const uint64_t *h0, sqe_key_slot **pk, uint8_t **pn,
                          int nk, sqe_error *err);
/* The copy that ended the probe (once per query): queues the spilled
 * partitions. */
bool sqe_join_spill_probe_done(sqe_join_table *t, sqe_error *err);
/* Frees the shared table's rows once nobody probes it. */
void sqe_join_spill_release_main(sqe_join_table *t);
/* Waits for the probe to end, then takes the next spilled partition and
 * loads its build rows into j->t (re-partitioning when they do not fit).
 * *got = false when none is left. */
bool sqe_join_spill_next_part(sqe_join_op *j, bool *got, sqe_error *err);
/* The next batch of the partition's probe rows (*b = j->spill_in), or *eof. */
bool sqe_join_spill_read(sqe_join_op *j, sqe_batch **b, bool *eof, sqe_error *err);
/* Done with the partition: frees its table and files; j->t = j->shared. */
void sqe_join_spill_part_done(sqe_join_op *j);

#endif
