/*
 * vector.h - layer 1: column vectors, validity bitmaps, selection vectors,
 * string storage, batches, and materialized result sets.
 *
 * A vector holds up to SQE_BATCH_ROWS values of one type in a flat array
 * (element type per types.h), a validity bitmap (bit set = valid), and a
 * string heap that owns the bytes of long strings written into it. A batch is
 * an array of vectors plus a row count and an optional selection vector: when
 * `sel` is non-NULL only rows sel[0..n_sel) are live, so a filter selects
 * rows without copying. Every consumer honours `sel`.
 *
 * Lifetimes: a vector owns its data, validity and heap (malloc'd, reused from
 * batch to batch: sqe_vector_reset keeps capacity). A batch owns its vectors
 * when created with sqe_batch_new; an operator that passes an input vector
 * through may share it (see `owned`).
 */
#ifndef SQE_VECTOR_H
#define SQE_VECTOR_H

#include "types/types.h"

#include <stdatomic.h>

#define SQE_BATCH_ROWS 2048
#define SQE_VALIDITY_WORDS (SQE_BATCH_ROWS / 64)

typedef struct sqe_strheap_chunk sqe_strheap_chunk;

/* ------------------------------------------------------ memory accounts */

/* A memory account: a byte counter shared by everything one query holds
 * (exec/ points it at the query context's tracked bytes) and the limit it
 * must stay under. Whoever grows with data charges the account before
 * allocating and releases what it charged when it frees. A charge that
 * would pass the limit is refused and changes nothing, so a caller can
 * fail cleanly (RESOURCE_EXHAUSTED) before the memory exists. Thread-safe
 * (atomics): copies of one query on several threads share the counter. The
 * struct itself is small and copied by value into whoever charges it. */
typedef struct sqe_mem_account {
    atomic_size_t *used; /* the shared counter; NULL: an inert account */
    atomic_size_t *peak; /* highest *used seen, or NULL */
    size_t limit;        /* 0: no limit (charges always succeed) */
} sqe_mem_account;

/* Adds bytes to the account unless that would pass its limit (or overflow);
 * returns false and changes nothing then. NULL or inert: true. */
bool sqe_mem_account_charge(const sqe_mem_account *a, size_t bytes);
/* Adds bytes that already exist (never refused, may pass the limit). */
void sqe_mem_account_add(const sqe_mem_account *a, size_t bytes);
/* Gives back bytes charged earlier. */
void sqe_mem_account_release(const sqe_mem_account *a, size_t bytes);
/* Fills err with RESOURCE_EXHAUSTED "query exceeded the memory limit of N
 * bytes in <what>" (the executor's wording) and returns false. */
bool sqe_mem_account_error(const sqe_mem_account *a, const char *what, sqe_error *err);

/* ---------------------------------------------------------------- vector */

typedef struct sqe_vector {
    sqe_type type;
    void *data;              /* cap * sqe_type_width(type) bytes */
    uint32_t cap;            /* rows data holds: SQE_BATCH_ROWS, or fewer for a vector
                                made by sqe_vector_new_cap or sqe_vector_new_rows */
    bool fixed;              /* made by sqe_vector_new_rows: cap never grows and only
                                sqe_vector_validity_words(v) words of validity exist */
    bool has_nulls;          /* false => every row valid; validity may be stale */
    sqe_strheap_chunk *heap; /* string bytes owned by this vector */
    /* NULL, or the account the heap's chunks are charged to (not owned; it
     * must outlive the vector). With an account, heap growth past its limit
     * is refused (sqe_vector_heap_alloc returns NULL) instead of allocated. */
    const sqe_mem_account *acct;
    size_t charged;      /* heap bytes charged to acct */
    size_t data_charged; /* data growth (sqe_vector_reserve) charged to acct */
    /* Dictionary (optional, next to the flat values; see "dictionaries"
     * below). dict_id 0: none. Otherwise every valid row i holds entry
     * dict_idx[i] of dictionary dict_id, which has dict_size entries. */
    uint64_t dict_id;
    uint32_t dict_size;
    uint32_t *dict_idx; /* SQE_BATCH_ROWS entries, malloc'd on first use, owned */
    /* Last, so that a fixed vector can be allocated without the words its
     * rows do not reach. Bit i set = row i is valid (not NULL). Clear or
     * copy it with sqe_vector_validity_words(v) words, never sizeof. */
    uint64_t validity[SQE_VALIDITY_WORDS];
} sqe_vector;

static inline size_t sqe_vector_validity_words(const sqe_vector *v) {
    return v->fixed ? (v->cap + 63u) / 64u + (v->cap == 0) : SQE_VALIDITY_WORDS;
}

/* Creates a vector of `type` with capacity SQE_BATCH_ROWS (malloc'd). */
sqe_vector *sqe_vector_new(sqe_type type);
/* A vector that holds `cap` rows (0..SQE_BATCH_ROWS) until
 * sqe_vector_reserve grows it: for results sized by their input, so a
 * one-row result of 60,000 columns does not hold 60,000 full batches.
 * Whoever writes row r of such a vector must have reserved r + 1 rows. */
sqe_vector *sqe_vector_new_cap(sqe_type type, uint32_t cap);
/* A read-mostly vector of exactly `rows` rows (<= SQE_BATCH_ROWS) whose
 * struct holds only the validity words those rows need: compact copies of
 * a result (a one-row batch of 60,000 columns). Never grows. */
sqe_vector *sqe_vector_new_rows(sqe_type type, uint32_t rows);
/* Grows the data array to hold at least `rows` rows (at most
 * SQE_BATCH_ROWS; new rows zeroed). The growth is charged to the vector's
 * account when it has one: false, nothing changed, when refused. Moves
 * `data`: pointers into it taken before do not survive a growth. */
bool sqe_vector_reserve(sqe_vector *v, uint32_t rows);
void sqe_vector_free(sqe_vector *v);
/* Marks all rows valid and drops string bytes (keeps capacity). */
void sqe_vector_reset(sqe_vector *v);

static inline bool sqe_vector_is_null(const sqe_vector *v, uint32_t row) {
    return v->has_nulls && !(v->validity[row >> 6] & (1ULL << (row & 63)));
}
/* Sets row NULL (and has_nulls). When has_nulls was false the bitmap is first
 * filled with ones. */
void sqe_vector_set_null(sqe_vector *v, uint32_t row);
/* Marks row valid (only needed when rows are rewritten after set_null). */
static inline void sqe_vector_set_valid(sqe_vector *v, uint32_t row) {
    if (v->has_nulls) v->validity[row >> 6] |= (1ULL << (row & 63));
}

/* Typed accessors to the flat data array. */
#define SQE_VEC_DATA(v, T) ((T *)(v)->data)

/* Charges the vector's heap to `a` from now on (NULL: to nothing). What
 * the heap holds already moves from the old account to the new one (that
 * move is never refused). */
void sqe_vector_set_account(sqe_vector *v, const sqe_mem_account *a);

/* The calls below that store string bytes fail (return false / NULL) only
 * for a vector with an account whose limit the heap growth would pass;
 * without an account they always succeed. On failure nothing is stored and
 * the row is unchanged. */

/* Copies `len` bytes into the vector's heap (when longer than inline) and
 * stores the view at `row`. */
bool sqe_vector_set_string(sqe_vector *v, uint32_t row, const char *p, size_t len);
/* Reserves `len` bytes in the heap that stay valid until the next reset. */
char *sqe_vector_heap_alloc(sqe_vector *v, size_t len);

/* Writes a scalar (cast already done: value type must have v->type's id) at row. */
bool sqe_vector_set_value(sqe_vector *v, uint32_t row, const sqe_value *val);
/* Reads row into a scalar; strings point into the vector. */
void sqe_vector_get_value(const sqe_vector *v, uint32_t row, sqe_value *out);
/* Copies row `src_row` of src into row `dst_row` of dst (same type; string
 * bytes are copied into dst's heap). */
bool sqe_vector_copy_row(sqe_vector *dst, uint32_t dst_row, const sqe_vector *src,
                         uint32_t src_row);

/* ---------------------------------------------------------- dictionaries
 *
 * A reader of dictionary-encoded data (Parquet dictionary pages) may tell
 * consumers which dictionary entry each row holds: it sets dict_id (a
 * process-unique id from sqe_vector_dict_new_id, one per dictionary: equal
 * ids mean the same entries), dict_size and dict_idx. The flat values in
 * `data` are always there too (the producer flattens with
 * sqe_vector_dict_flatten or writes both), so a consumer that knows nothing
 * about dictionaries reads correct values and needs no flattening step; a
 * consumer that does (hash aggregation keys) can work once per entry
 * instead of once per row. The annotation belongs to the vector's current
 * contents: sqe_vector_reset drops it, and whoever writes rows into a
 * vector must drop it (sqe_vector_dict_clear) unless it keeps dict_idx
 * right. Copies of rows into other vectors never carry it. */

/* A new dictionary id (never 0, never repeated in this process). */
uint64_t sqe_vector_dict_new_id(void);
/* dict_idx of v (allocated on first use). */
uint32_t *sqe_vector_dict_idx(sqe_vector *v);
static inline void sqe_vector_dict_clear(sqe_vector *v) {
    v->dict_id = 0;
}
/* Writes rows [row, row + n) of v from the dictionary `entries` (values of
 * v's type in flat form; string views are copied as views, so their bytes
 * must outlive v's current contents) and records the indexes in dict_idx.
 * valid NULL: row + i is entry idx[i]; else rows with valid[i] == 0 are set
 * NULL and idx holds one index per valid row, in order. Indexes must be in
 * range (the caller checked them). Does not set dict_id: the caller does
 * once the whole batch comes from one dictionary. */
void sqe_vector_dict_flatten(sqe_vector *v, uint32_t row, const void *entries, const uint32_t *idx,
                             const uint8_t *valid, uint32_t n);

/* ---------------------------------------------------------------- batch */

typedef struct sqe_batch {
    int n_cols;
    sqe_vector **cols;
    bool *owned;     /* owned[i]: cols[i] freed by sqe_batch_free */
    uint32_t n_rows; /* physical rows (<= SQE_BATCH_ROWS) */
    uint16_t *sel;   /* NULL, or live row indexes (ascending), storage owned by batch */
    uint32_t n_sel;  /* live rows when sel != NULL */
    uint16_t sel_buf[SQE_BATCH_ROWS];
} sqe_batch;

/* New batch with one owned vector per type. */
sqe_batch *sqe_batch_new(int n_cols, const sqe_type *types);
/* New batch with n_cols empty slots (cols[i] NULL) to be filled by the caller
 * with shared or owned vectors. */
sqe_batch *sqe_batch_new_empty(int n_cols);
void sqe_batch_free(sqe_batch *b);
/* n_rows = 0, sel = NULL, owned vectors reset. */
void sqe_batch_reset(sqe_batch *b);
/* Number of live rows (n_sel when sel is set, else n_rows). */
static inline uint32_t sqe_batch_live(const sqe_batch *b) {
    return b->sel ? b->n_sel : b->n_rows;
}
/* Physical row index of the i-th live row. */
static inline uint32_t sqe_batch_row(const sqe_batch *b, uint32_t i) {
    return b->sel ? b->sel[i] : i;
}

/* ------------------------------------------------------------- results */

/* A fully materialized result: schema plus a list of compacted batches (no
 * selection vectors). Built by exec/ for queries and by hive/ for SHOW and
 * DESCRIBE. Owns everything it holds. */
typedef struct sqe_resultset {
    int n_cols;
    char **names; /* malloc'd */
    sqe_type *types;
    SQE_ARRAY(sqe_batch *) batches;
    uint64_t n_rows;
} sqe_resultset;

sqe_resultset *sqe_resultset_new(int n_cols, const char *const *names, const sqe_type *types);
void sqe_resultset_free(sqe_resultset *rs);
/* Appends the live rows of `b` (compacting the selection) by copy. */
void sqe_resultset_append(sqe_resultset *rs, const sqe_batch *b);
/* Convenience for small VARCHAR-only results (SHOW, DESCRIBE): appends one
 * row; values[i] NULL means SQL NULL. */
void sqe_resultset_add_text_row(sqe_resultset *rs, const char *const *values);

#endif
