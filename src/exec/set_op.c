/*
 * set_op.c - SetOpExec: INTERSECT and EXCEPT, DISTINCT or ALL, of
 * children[0] (the left input) and children[1] (the right input), both of
 * the node's schema (the planner casts them).
 *
 * Semantics. Rows are compared on all columns, NULL equal to NULL, NaN
 * equal to NaN and -0.0 equal to 0.0, exactly as GROUP BY compares (key
 * slots, keys.c). With cl and cr the number of times a row occurs on the
 * left and on the right, the output holds it
 *     INTERSECT       once if cl > 0 and cr > 0
 *     EXCEPT          once if cl > 0 and cr = 0
 *     INTERSECT ALL   min(cl, cr) times
 *     EXCEPT ALL      max(cl - cr, 0) times
 * in the order rows were first seen on the left (with parallel scans: the
 * order of the merged tables, as for a hash aggregate). A REAL or DOUBLE
 * -0.0 or NaN comes out normalized (0.0, the one NaN), as GROUP BY keys do.
 *
 * Where it sits: a blocking operator with two sinks. The first `next`
 * drains the right input into table R (distinct rows, count cr each), then
 * the left input into table L (distinct rows in first-seen order, count cl
 * and the row's cr looked up in R when the row entered L), frees each input
 * subtree as soon as it is drained and R once L is complete, then emits
 * L's rows with their number of copies, SQE_BATCH_ROWS rows per batch (a
 * cursor: entry, copies of it already emitted). A left row that can never
 * be emitted is not stored: INTERSECT [ALL] skips left rows absent from R,
 * EXCEPT (DISTINCT) skips rows present in R, so L holds only candidates
 * (EXCEPT ALL keeps every distinct left row: cl decides).
 *
 * The table (setop_table), one per sink local and one global per side:
 *   keys[c][e], nulls[c][e]  entry e's normalized slot for column c; long
 *                            strings copied into the table's arena
 *   hashes[e]                entry e's row hash (rehash, merge)
 *   count[e]                 rows seen (cr in R, cl in L)
 *   other[e]                 L only: cr of the row, fixed when it entered
 *   slots[]                  open addressing, linear probing, one word per
 *                            slot: (hash & ~mask) | (e + 1), 0 = empty
 * The slot word splits at the table's own size: the low log2(n_slots) bits
 * hold e + 1 (always < n_slots, as at most half the slots are used) and the
 * hash bits above them are the tag a probe compares before the columns;
 * the position is hash & mask, the bits the tag leaves out. No field has a
 * fixed width, so the table is correct at any size (a fixed 32/32 split
 * stops working once positions need more bits than the split leaves).
 * It doubles its slots when more than half are used and rebuilds the index
 * in entry order (insertion order, uncorrelated with slot positions);
 * merging a local table walks its entries in that order too, never its slot
 * array: inserting the keys of one linear-probing table into another in
 * slot (hash) order packs them into ever longer runs and turns the merge
 * quadratic, a known way such tables hang once they are large.
 *
 * Row hash: per column x = NULL_HASH for NULL, else sqe_key_hash of its
 * slot; h = x for the first column, h = mix(h * P ^ x) after it (keys.c's
 * invariant: equal values have equal slots and equal hashes).
 *
 * Parallelism: both inputs go through sqe_exec_drain, so a scan pipeline
 * below runs one copy per worker; each copy fills its own local table
 * (probing R, complete and read-only by then, without locks) and locals
 * are merged into the global table in copy order on the calling thread.
 *
 * Memory: every table reports its size to the query ("SetOpExec") after
 * each batch and every 4096 merged entries; long loops (merges, skipping
 * entries with no copies) check sqe_exec_stopped every 65536 entries.
 */
#include "exec/exec_int.h"

#define NULL_HASH 0x2545f4914f6cdd1dULL
#define EMPTY_ROW_HASH 0x9e3779b97f4a7c15ULL
#define FIRST_SLOTS 256
#define STOP_CHECK_MASK 0xffffu
#define TRACK_MASK 0xfffu
#define PREFETCH 8 /* rows ahead whose slot is prefetched */

typedef struct setop_table {
    int n_cols;
    const sqe_key_class *kc; /* the operator's, per column */
    size_t n, cap;           /* entries, allocated entries */
    sqe_key_slot **keys;     /* [column][entry] */
    uint8_t **nulls;         /* [column][entry] */
    uint64_t *hashes;
    uint64_t *count;
    uint64_t *other; /* L only (with_other) */
    bool with_other;
    uint64_t *slots; /* (hash & ~mask) | (entry + 1); 0 = empty */
    size_t n_slots, mask;
    sqe_arena *strings;
    size_t tracked; /* bytes reported to the query */
} setop_table;

typedef struct set_op_op {
    sqe_op base;
    int n_cols;
    sqe_key_class *kc;
    bool intersect, all;
    setop_table *right, *left; /* the global tables */
    bool built;
    size_t pos;       /* L entry being emitted */
    uint64_t emitted; /* copies of entry pos already emitted */
    size_t scanned;   /* entries passed (stop checks) */
    size_t *ridx;     /* SQE_BATCH_ROWS: entry of each output row */
    sqe_key_slot *tmp_keys;
    uint8_t *tmp_null;
    sqe_batch *out;
} set_op_op;

/* A sink local: its table and the current batch's slots and hashes. */
typedef struct setop_local {
    setop_table *t;
    sqe_key_slot **keys; /* [column][row], SQE_BATCH_ROWS rows */
    uint8_t **nulls;
    uint64_t *hash;
    uint32_t *rows; /* left: the rows to count, and their cr */
    uint64_t *cr;
} setop_local;

/* ----------------------------------------------------------------- table */

static setop_table *table_new(const set_op_op *op, bool with_other) {
    setop_table *t = sqe_calloc(1, sizeof *t);
    int nc = op->n_cols > 0 ? op->n_cols : 1;
    t->n_cols = op->n_cols;
    t->kc = op->kc;
    t->keys = sqe_calloc((size_t)nc, sizeof *t->keys);
    t->nulls = sqe_calloc((size_t)nc, sizeof *t->nulls);
    t->n_slots = FIRST_SLOTS;
    t->mask = t->n_slots - 1;
    t->slots = sqe_calloc(t->n_slots, sizeof *t->slots);
    t->strings = sqe_arena_new(0);
    t->with_other = with_other;
    return t;
}

static size_t table_bytes(const setop_table *t) {
    size_t per_entry = (size_t)t->n_cols * (sizeof(sqe_key_slot) + 1) + 2 * sizeof(uint64_t);
    if (t->with_other) per_entry += sizeof(uint64_t);
    return t->cap * per_entry + t->n_slots * sizeof(uint64_t) + sqe_arena_used(t->strings);
}

static void table_free(sqe_exec_ctx *ctx, setop_table *t) {
    if (!t) return;
    sqe_exec_mem_track(ctx, &t->tracked, 0, "SetOpExec", NULL);
    for (int c = 0; c < t->n_cols; c++) {
        sqe_free(t->keys[c]);
        sqe_free(t->nulls[c]);
    }
    sqe_free(t->keys);
    sqe_free(t->nulls);
    sqe_free(t->hashes);
    sqe_free(t->count);
    sqe_free(t->other);
    sqe_free(t->slots);
    sqe_arena_free(t->strings);
    sqe_free(t);
}

static bool table_track(sqe_exec_ctx *ctx, setop_table *t, sqe_error *err) {
    return sqe_exec_mem_track(ctx, &t->tracked, table_bytes(t), "SetOpExec", err);
}

/* Doubles the slots and re-enters every entry, in entry order. */
static void table_grow_slots(setop_table *t) {
    size_t n = t->n_slots * 2;
    sqe_free(t->slots);
    t->slots = sqe_calloc(n, sizeof *t->slots);
    t->n_slots = n;
    t->mask = n - 1;
    for (size_t e = 0; e < t->n; e++) {
        uint64_t h = t->hashes[e];
        size_t pos = (size_t)h & t->mask;
        while (t->slots[pos]) pos = (pos + 1) & t->mask;
        t->slots[pos] = (h & ~(uint64_t)t->mask) | ((uint64_t)e + 1);
    }
}

/* Appends entry (keys[c][idx], nulls[c][idx]) with hash h, counts 0;
 * long strings are copied into the table's arena. Returns its index. */
static size_t table_append(setop_table *t, uint64_t h, sqe_key_slot *const *keys,
                           uint8_t *const *nulls, size_t idx) {
    size_t e = t->n;
    if (e == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        for (int c = 0; c < t->n_cols; c++) {
            t->keys[c] = sqe_realloc(t->keys[c], cap * sizeof **t->keys);
            t->nulls[c] = sqe_realloc(t->nulls[c], cap);
        }
        t->hashes = sqe_realloc(t->hashes, cap * sizeof *t->hashes);
        t->count = sqe_realloc(t->count, cap * sizeof *t->count);
        if (t->with_other) t->other = sqe_realloc(t->other, cap * sizeof *t->other);
        t->cap = cap;
    }
    for (int c = 0; c < t->n_cols; c++) {
        sqe_key_slot s = keys[c][idx];
        uint8_t isnull = nulls[c][idx];
        if (!isnull && t->kc[c] == SQE_KEY_STR && s.s.len > SQE_STRING_INLINE) {
            char *p = sqe_arena_alloc(t->strings, s.s.len);
            memcpy(p, s.s.u.ptr, s.s.len);
            s.s.u.ptr = p;
        }
        t->keys[c][e] = s;
        t->nulls[c][e] = isnull;
    }
    t->hashes[e] = h;
    t->count[e] = 0;
    if (t->with_other) t->other[e] = 0;
    t->n = e + 1;
    return e;
}

static inline bool row_equal(const setop_table *t, size_t e, sqe_key_slot *const *keys,
                             uint8_t *const *nulls, size_t idx) {
    for (int c = 0; c < t->n_cols; c++) {
        uint8_t na = t->nulls[c][e], nb = nulls[c][idx];
        if (na != nb) return false;
        if (!na && !sqe_key_eq(t->kc[c], &t->keys[c][e], &keys[c][idx])) return false;
    }
    return true;
}

/* The slot of row idx (hash h): its entry's, or the empty slot where it
 * would go. */
static inline size_t table_probe(const setop_table *t, uint64_t h, sqe_key_slot *const *keys,
                                 uint8_t *const *nulls, size_t idx) {
    const uint64_t tag = h & ~(uint64_t)t->mask;
    size_t pos = (size_t)h & t->mask;
    for (;;) {
        uint64_t s = t->slots[pos];
        if (!s) return pos;
        if ((s & ~(uint64_t)t->mask) == tag &&
            row_equal(t, (size_t)(s & t->mask) - 1, keys, nulls, idx))
            return pos;
        pos = (pos + 1) & t->mask;
    }
}

/* Entry of row idx, or SIZE_MAX when absent. Read-only (safe to call from
 * several threads once the table is complete). */
static size_t table_lookup(const setop_table *t, uint64_t h, sqe_key_slot *const *keys,
                           uint8_t *const *nulls, size_t idx) {
    uint64_t s = t->slots[table_probe(t, h, keys, nulls, idx)];
    return s ? (size_t)(s & t->mask) - 1 : SIZE_MAX;
}

/* Entry of row idx, appended (counts 0) when new; *added tells which. */
static size_t table_upsert(setop_table *t, uint64_t h, sqe_key_slot *const *keys,
                           uint8_t *const *nulls, size_t idx, bool *added) {
    size_t pos = table_probe(t, h, keys, nulls, idx);
    if (t->slots[pos]) {
        *added = false;
        return (size_t)(t->slots[pos] & t->mask) - 1;
    }
    size_t e = table_append(t, h, keys, nulls, idx);
    t->slots[pos] = (h & ~(uint64_t)t->mask) | ((uint64_t)e + 1);
    if (t->n * 2 > t->n_slots) table_grow_slots(t);
    *added = true;
    return e;
}

/* Folds src into dst (counts add up, a new entry keeps src's `other`), in
 * src's entry order; src is freed either way. */
static bool table_merge(sqe_exec_ctx *ctx, setop_table *dst, setop_table *src, sqe_error *err) {
    bool ok = true;
    for (size_t e = 0; e < src->n && ok; e++) {
        if ((e & STOP_CHECK_MASK) == STOP_CHECK_MASK && sqe_exec_stopped(ctx, err)) ok = false;
        if ((e & TRACK_MASK) == TRACK_MASK && !table_track(ctx, dst, err)) ok = false;
        if (!ok) break;
        bool added;
        size_t d = table_upsert(dst, src->hashes[e], src->keys, src->nulls, e, &added);
        if (added && dst->with_other) dst->other[d] = src->other[e];
        dst->count[d] += src->count[e];
    }
    table_free(ctx, src);
    return ok && table_track(ctx, dst, err);
}

/* ----------------------------------------------------------------- sinks */

static void setop_local_free(sqe_op *op_, void *l_) {
    set_op_op *op = (set_op_op *)op_;
    setop_local *l = l_;
    if (!l) return;
    table_free(op_->ctx, l->t);
    for (int c = 0; c < op->n_cols; c++) {
        sqe_free(l->keys[c]);
        sqe_free(l->nulls[c]);
    }
    sqe_free(l->keys);
    sqe_free(l->nulls);
    sqe_free(l->hash);
    sqe_free(l->rows);
    sqe_free(l->cr);
    sqe_free(l);
}

/* A local for the right input (R) or the left one (L, with `other`). */
static setop_local *setop_local_make(set_op_op *op, bool left) {
    setop_local *l = sqe_calloc(1, sizeof *l);
    int nc = op->n_cols > 0 ? op->n_cols : 1;
    l->t = table_new(op, left);
    l->keys = sqe_calloc((size_t)nc, sizeof *l->keys);
    l->nulls = sqe_calloc((size_t)nc, sizeof *l->nulls);
    for (int c = 0; c < op->n_cols; c++) {
        l->keys[c] = sqe_malloc(SQE_BATCH_ROWS * sizeof **l->keys);
        l->nulls[c] = sqe_malloc(SQE_BATCH_ROWS);
    }
    l->hash = sqe_malloc(SQE_BATCH_ROWS * sizeof *l->hash);
    if (left) {
        l->rows = sqe_malloc(SQE_BATCH_ROWS * sizeof *l->rows);
        l->cr = sqe_malloc(SQE_BATCH_ROWS * sizeof *l->cr);
    }
    return l;
}

static void *right_local_new(sqe_op *op) {
    return setop_local_make((set_op_op *)op, false);
}

static void *left_local_new(sqe_op *op) {
    return setop_local_make((set_op_op *)op, true);
}

/* Loads the n live rows of b into l's slots and hashes them. */
static void setop_load(const set_op_op *op, setop_local *l, const sqe_batch *b, uint32_t n) {
    uint64_t *h = l->hash;
    if (op->n_cols == 0)
        for (uint32_t i = 0; i < n; i++) h[i] = EMPTY_ROW_HASH;
    for (int c = 0; c < op->n_cols; c++) {
        const sqe_key_slot *s = l->keys[c];
        const uint8_t *nl = l->nulls[c];
        sqe_key_class kc = op->kc[c];
        sqe_key_load(b->cols[c], b->sel, n, l->keys[c], l->nulls[c]);
        for (uint32_t i = 0; i < n; i++) {
            uint64_t x = nl[i] ? NULL_HASH : sqe_key_hash(kc, &s[i]);
            h[i] = c == 0 ? x : sqe_hash_u64(h[i] * 0x100000001b3ULL ^ x);
        }
    }
}

/* Right input: count every row. */
static bool right_consume(sqe_op *op_, void *l_, sqe_batch *b, uint64_t tag_base, sqe_error *err) {
    SQE_UNUSED(tag_base);
    set_op_op *op = (set_op_op *)op_;
    setop_local *l = l_;
    uint32_t n = sqe_batch_live(b);
    if (n == 0) return true;
    setop_load(op, l, b, n);
    setop_table *t = l->t;
    for (uint32_t i = 0; i < n; i++) {
        if (i + PREFETCH < n) __builtin_prefetch(&t->slots[l->hash[i + PREFETCH] & t->mask]);
        bool added; /* upsert may move count[]: index it after the call */
        size_t e = table_upsert(t, l->hash[i], l->keys, l->nulls, i, &added);
        t->count[e]++;
    }
    return table_track(op_->ctx, t, err);
}

/* Left input: count the rows that can be emitted, noting each new row's cr. */
static bool left_consume(sqe_op *op_, void *l_, sqe_batch *b, uint64_t tag_base, sqe_error *err) {
    SQE_UNUSED(tag_base);
    set_op_op *op = (set_op_op *)op_;
    setop_local *l = l_;
    const setop_table *r = op->right;
    uint32_t n = sqe_batch_live(b);
    if (n == 0) return true;
    setop_load(op, l, b, n);
    uint32_t m = 0; /* rows that can be emitted: l->rows[0..m), their cr in l->cr */
    for (uint32_t i = 0; i < n; i++) {
        if (r && i + PREFETCH < n) __builtin_prefetch(&r->slots[l->hash[i + PREFETCH] & r->mask]);
        size_t re = r ? table_lookup(r, l->hash[i], l->keys, l->nulls, i) : SIZE_MAX;
        uint64_t cr = re == SIZE_MAX ? 0 : r->count[re];
        if (op->intersect ? cr == 0 : (!op->all && cr > 0)) continue; /* never emitted */
        l->rows[m] = i;
        l->cr[m++] = cr;
    }
    setop_table *t = l->t;
    for (uint32_t j = 0; j < m; j++) {
        if (j + PREFETCH < m)
            __builtin_prefetch(&t->slots[l->hash[l->rows[j + PREFETCH]] & t->mask]);
        uint32_t i = l->rows[j];
        bool added;
        size_t e = table_upsert(t, l->hash[i], l->keys, l->nulls, i, &added);
        if (added) t->other[e] = l->cr[j];
        t->count[e]++;
    }
    return table_track(op_->ctx, t, err);
}

/* Folds a local into *global (the first local becomes it). */
static bool setop_merge_into(sqe_op *op_, setop_table **global, void *l_, sqe_error *err) {
    setop_local *l = l_;
    setop_table *t = l->t;
    l->t = NULL;
    setop_local_free(op_, l);
    if (!*global) {
        *global = t;
        return true;
    }
    return table_merge(op_->ctx, *global, t, err);
}

static bool right_merge(sqe_op *op_, void *l_, sqe_error *err) {
    return setop_merge_into(op_, &((set_op_op *)op_)->right, l_, err);
}

static bool left_merge(sqe_op *op_, void *l_, sqe_error *err) {
    return setop_merge_into(op_, &((set_op_op *)op_)->left, l_, err);
}

static const sqe_sink_vtable right_sink = {right_local_new, right_consume, right_merge,
                                           setop_local_free};
static const sqe_sink_vtable left_sink = {left_local_new, left_consume, left_merge,
                                          setop_local_free};

/* -------------------------------------------------------------- operator */

static bool set_op_open(sqe_op *op_, sqe_error *err) {
    set_op_op *op = (set_op_op *)op_;
    const sqe_plan *p = op_->plan;
    if (p->n_children != 2)
        return sqe_error_set(err, SQE_ERR_INTERNAL, "SetOpExec needs 2 inputs, has %d",
                             p->n_children);
    op->n_cols = p->n_out;
    op->intersect = p->u.set_op.op == SQE_SET_INTERSECT;
    op->all = p->u.set_op.all;
    op->kc = sqe_calloc((size_t)(op->n_cols > 0 ? op->n_cols : 1), sizeof *op->kc);
    for (int c = 0; c < op->n_cols; c++) {
        op->kc[c] = sqe_key_class_of(p->out_types[c]);
        for (int i = 0; i < 2; i++)
            if (p->children[i]->n_out != p->n_out ||
                sqe_key_class_of(p->children[i]->out_types[c]) != op->kc[c])
                return sqe_error_set(err, SQE_ERR_INTERNAL,
                                     "SetOpExec: input %d does not have the node's columns", i);
    }
    op->ridx = sqe_malloc(SQE_BATCH_ROWS * sizeof *op->ridx);
    op->tmp_keys = sqe_malloc(SQE_BATCH_ROWS * sizeof *op->tmp_keys);
    op->tmp_null = sqe_malloc(SQE_BATCH_ROWS);
    op->out = sqe_batch_new(p->n_out, p->out_types);
    return true;
}

/* Drains right then left input into the global tables; frees each input's
 * operators once drained, and R once L is complete. */
static bool set_op_build(set_op_op *op, sqe_error *err) {
    sqe_op *op_ = &op->base;
    if (!sqe_exec_drain(op_, 1, &right_sink, err)) return false;
    sqe_op_free(op_->children[1]);
    op_->children[1] = NULL;
    if (!sqe_exec_drain(op_, 0, &left_sink, err)) return false;
    sqe_op_free(op_->children[0]);
    op_->children[0] = NULL;
    table_free(op_->ctx, op->right);
    op->right = NULL;
    return true;
}

static inline uint64_t set_op_copies(const set_op_op *op, uint64_t cl, uint64_t cr) {
    if (op->intersect) return op->all ? SQE_MIN(cl, cr) : (cl > 0 && cr > 0);
    return op->all ? (cl > cr ? cl - cr : 0) : (cl > 0 && cr == 0);
}

static bool set_op_next(sqe_op *op_, sqe_batch **out, bool *eof, sqe_error *err) {
    set_op_op *op = (set_op_op *)op_;
    if (!op->built) {
        if (!set_op_build(op, err)) return false;
        op->built = true;
    }
    const setop_table *t = op->left;
    uint32_t m = 0;
    while (t && m < SQE_BATCH_ROWS && op->pos < t->n) {
        if ((++op->scanned & STOP_CHECK_MASK) == 0 && sqe_exec_stopped(op_->ctx, err)) return false;
        uint64_t copies = set_op_copies(op, t->count[op->pos], t->other[op->pos]);
        while (op->emitted < copies && m < SQE_BATCH_ROWS) {
            op->ridx[m++] = op->pos;
            op->emitted++;
        }
        if (op->emitted >= copies) {
            op->pos++;
            op->emitted = 0;
        }
    }
    if (m == 0) {
        *eof = true;
        return true;
    }
    sqe_batch *b = op->out;
    sqe_batch_reset(b);
    for (int c = 0; c < op->n_cols; c++) {
        for (uint32_t i = 0; i < m; i++) {
            op->tmp_keys[i] = t->keys[c][op->ridx[i]];
            op->tmp_null[i] = t->nulls[c][op->ridx[i]];
        }
        sqe_key_store(b->cols[c], 0, op->tmp_keys, op->tmp_null, m);
    }
    b->n_rows = m;
    *eof = false;
    *out = b;
    return true;
}

static void set_op_close(sqe_op *op_) {
    set_op_op *op = (set_op_op *)op_;
    table_free(op_->ctx, op->right);
    op->right = NULL;
    table_free(op_->ctx, op->left);
    op->left = NULL;
    sqe_batch_free(op->out);
    op->out = NULL;
    sqe_free(op->ridx);
    op->ridx = NULL;
    sqe_free(op->tmp_keys);
    op->tmp_keys = NULL;
    sqe_free(op->tmp_null);
    op->tmp_null = NULL;
    sqe_free(op->kc);
    op->kc = NULL;
}

static const sqe_op_vtable set_op_vtable = {"SetOpExec", set_op_open, set_op_next, set_op_close};

sqe_op *sqe_exec_set_op_new(sqe_exec_ctx *ctx, const sqe_plan *p) {
    set_op_op *op = sqe_calloc(1, sizeof *op);
    op->base.vt = &set_op_vtable;
    op->base.plan = p;
    op->base.ctx = ctx;
    return &op->base;
}
