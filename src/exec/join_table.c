/*
 * join_table.c - what HashJoinExec and NestedLoopJoinExec share: the build
 * side (children[1] materialized once per query and indexed) and the probe
 * driver (candidate pairs -> residual -> output batches, for every join
 * type). hash_join.c and nl_join.c only say how candidate pairs are found.
 *
 * Where it sits: a join opens by asking the query context for its table
 * (sqe_exec_shared_get). The first pipeline copy to open builds it: it
 * drains children[1] through a sink, so a scan pipeline under the build
 * runs on every worker, each copy filling its own row store, the stores
 * then adopted into one. Every copy of the probe pipeline then reads the
 * same table; only the `matched` flags and two counters are written later.
 *
 * The table. Rows live in a sqe_rowstore (owned vectors per 2048-row chunk,
 * strings copied), kept dense: every chunk but the last is full, so row r
 * is row r & 2047 of chunk r >> 11 and its number is its row store address
 * (merging copies a local's partly filled last chunk instead of adopting
 * it). Right keys that are not plain column references
 * are evaluated at consume and stored as extra row store columns, so every
 * key's value, strings included, has a stable home; after the drain each
 * key is loaded once into a slot array keys[k][row] / knull[k][row]
 * (keys.c: -0.0 = 0.0, NaN = NaN, strings compared by bytes: GROUP BY's
 * equality). Rows that can never be looked up or emitted are not stored:
 * with INNER/LEFT/SEMI/ANTI/MARK a build row with a NULL key (for null-aware
 * joins: a NULL key before the last) is dropped at consume.
 *
 * Indexes (hash join): chained hashing over row numbers. heads[bucket] is
 * the first row + 1 of its chain, links[row] holds the following one and
 * the upper 32 bits of the row's hash (checked before the keys). The index
 * is built once, after the drain, when n_rows is known: buckets = the
 * smallest power of two >= 2 * n_rows, so the load factor stays in
 * (1/4, 1/2] at any size and nothing is ever rehashed (no growth rule to get wrong at
 * 2^22 or 2^32 rows). Rows are inserted from the last to the first, so
 * every chain lists its rows in ascending order and duplicate matches come
 * out in build order. `full` indexes every key. A null-aware IN also
 * indexes the keys before the last (its correlation keys): `groups` holds
 * one entry per distinct tuple with a flag "some row of the group has a
 * NULL operand"; with a residual, which must see pairs, `corr_all` holds
 * every row and `corr_null` only the rows whose operand is NULL (see
 * hash_join.c). Hashing is sqe_join_hash_col on both sides.
 *
 *   Invariant: a row is in an index only if its indexed keys are all
 *   non-NULL, and a probe row with a NULL indexed key looks nothing up.
 *   Hence NULL never equals anything, and a chain walk needs no NULL checks.
 *
 * Probe driver (sqe_join_next), per pipeline copy, a small state machine:
 *   PULL       next batch of children[0]; vt->start (keys, hashes, chain
 *              heads); at its end of input: deregister (below)
 *   PAIRS      jp_fill collects up to 2048 candidate pairs, row by row
 *              through vt->fill_row; the columns they need are gathered
 *              into `pairs` (probe columns by row, build columns from the
 *              row store), the residual filters them, accept() counts hits
 *              per probe row and flags build rows; for INNER/LEFT/RIGHT/
 *              FULL the pair batch, with the residual's selection, is the
 *              output. A probe batch whose matches exceed 2048 pairs yields
 *              several batches: the cursors (probe row; chain position or
 *              build row per probe row) survive between calls.
 *   TAIL       once fill is exhausted: LEFT/FULL emit the probe rows with no
 *              hit (build columns from all-NULL vectors), SEMI the rows
 *              whose mark is TRUE, ANTI those whose mark is FALSE, MARK
 *              every row plus the mark column. Probe columns are passed
 *              through as views with a selection: nothing is copied.
 *   UNMATCHED  RIGHT/FULL, one copy only: build rows never matched, with
 *              NULL probe columns.
 *   PART       a spilled hash join (join_spill.c), every copy: the next
 *              spilled partition, loaded into a table of the copy's own
 *              (j->t; j->shared stays the query's table), or DONE
 *   PART_PULL  the partition's next probe batch from its file, then PAIRS
 *              and TAIL as above; at its end UNMATCHED for the partition's
 *              table (RIGHT/FULL), then PART again.
 * SEMI/ANTI/MARK are decided per probe row by one accepted pair. Without a
 * residual they build no pairs at all ("direct": fill_row sets the hit at
 * the first key match). With one, rows fill in passes of doubling budgets
 * (jp_fill), so a row is not handed 2048 candidates when its first passes.
 *
 * RIGHT/FULL with parallel probes. Several copies of the probe pipeline may
 * run at once, each pulling morsels from one shared queue, and each build
 * row must be emitted unmatched at most once, and only after every probe
 * row has been joined. matched[row] is an atomic byte any copy may set
 * (relaxed: it only goes 0 -> 1). A copy registers in t->active on its
 * first next and deregisters when its children[0] reports end of input;
 * the copy whose deregistration brings active to zero, and which first
 * swaps t->emitted to true, emits the unmatched rows. This is correct
 * because:
 *   - a copy can only join a probe row after registering, so while any
 *     probe row is still being joined, active > 0;
 *   - a copy that saw end of input found the shared morsel queue empty,
 *     and the queue never refills, so a copy that registers later (a pool
 *     task that started late) reads no probe row at all and cannot change
 *     a flag; `emitted` keeps it from emitting a second time;
 *   - the deregistering decrements are read-modify-writes (seq_cst), so the
 *     last one happens after every flag store of every copy.
 * A serial plan is the one-copy case. A copy stopped by an error never
 * deregisters, so nothing is emitted; the query fails anyway.
 *
 * Memory: the row stores are tracked while they fill (per copy), the table
 * as a whole (rows + slots + indexes) before its arrays are allocated. A
 * nested loop join over the limit fails with RESOURCE_EXHAUSTED naming the
 * operator; a hash join (t->can_spill) reserves instead and, when the rows
 * would not fit with room left for the spill's buffers, writes them to
 * partition files (jt_keep, jt_merge, jt_finish; join_spill.c has the
 * design). Spilling changes `emitted`'s role a little: the copy that ends
 * the probe also queues the spilled partitions (jp_probe_end).
 */
#include "exec/join_table.h"

enum { JP_PULL, JP_PAIRS, JP_TAIL, JP_UNMATCHED, JP_PART, JP_PART_PULL, JP_DONE };

/* ------------------------------------------------------------- the table */

sqe_join_table *sqe_join_table_new(sqe_op *op) {
    const sqe_plan *p = op->plan;
    const sqe_plan *build = p->children[1];
    sqe_join_table *t = sqe_calloc(1, sizeof *t);
    t->ctx = op->ctx;
    t->plan = p;
    t->op_name = op->vt->name;
    t->n_cols = build->n_out;
    t->n_keys = p->u.join.n_keys;
    t->types = sqe_calloc((size_t)(t->n_cols + t->n_keys + 1), sizeof *t->types);
    for (int c = 0; c < t->n_cols; c++) t->types[c] = build->out_types[c];
    t->n_store = t->n_cols;
    int nk = t->n_keys > 0 ? t->n_keys : 1;
    t->key_col = sqe_calloc((size_t)nk, sizeof *t->key_col);
    t->kc = sqe_calloc((size_t)nk, sizeof *t->kc);
    t->keys = sqe_calloc((size_t)nk, sizeof *t->keys);
    t->knull = sqe_calloc((size_t)nk, sizeof *t->knull);
    for (int k = 0; k < t->n_keys; k++) {
        const sqe_expr *e = p->u.join.right_keys[k];
        if (e->kind == SQE_EXPR_COLUMN) {
            t->key_col[k] = e->col;
        } else {
            t->key_col[k] = t->n_store;
            t->types[t->n_store++] = e->type;
        }
        t->kc[k] = sqe_key_class_of(e->type);
    }
    sqe_join_type jt = p->u.join.type;
    if (jt == SQE_JT_RIGHT || jt == SQE_JT_FULL)
        t->n_required = 0; /* every build row may be output */
    else if (p->u.join.null_aware)
        t->n_required = t->n_keys - 1; /* a NULL IN operand still counts */
    else
        t->n_required = t->n_keys;
    bool na = p->u.join.null_aware;
    t->n_part_keys = na && t->n_keys > 1 ? t->n_keys - 1 : t->n_keys;
    t->na_global = na && t->n_keys == 1;
    t->can_spill =
        p->kind == SQE_PLAN_HASH_JOIN && t->n_keys > 0 && !(t->na_global && p->u.join.residual);
    sqe_rowstore_init(&t->rows, t->n_store, t->types, false);
    atomic_init(&t->active, 0);
    atomic_init(&t->emitted, false);
    atomic_init(&t->na_flags, 0);
    atomic_init(&t->spilling, false);
    pthread_mutex_init(&t->mu, NULL);
    return t;
}

static void jt_index_free(sqe_join_index *ix) {
    sqe_free(ix->heads);
    sqe_free(ix->links);
    sqe_free(ix->has_null);
    memset(ix, 0, sizeof *ix);
}

void sqe_join_table_drop_rows(sqe_join_table *t) {
    sqe_exec_mem_track(t->ctx, &t->tracked, 0, t->op_name, NULL);
    sqe_rowstore_free(&t->rows);
    sqe_rowstore_init(&t->rows, t->n_store, t->types, false);
    for (int k = 0; k < t->n_keys; k++) {
        sqe_free(t->keys[k]);
        sqe_free(t->knull[k]);
        t->keys[k] = NULL;
        t->knull[k] = NULL;
    }
    jt_index_free(&t->full);
    jt_index_free(&t->groups);
    jt_index_free(&t->corr_all);
    jt_index_free(&t->corr_null);
    sqe_free((void *)t->matched);
    sqe_free(t->nullable);
    t->matched = NULL;
    t->nullable = NULL;
    t->n_rows = 0;
}

void sqe_join_table_free(void *table) {
    sqe_join_table *t = table;
    if (!t) return;
    sqe_join_table_drop_rows(t);
    sqe_join_spill_free(t->spill);
    pthread_mutex_destroy(&t->mu);
    sqe_free(t->keys);
    sqe_free(t->knull);
    sqe_free(t->kc);
    sqe_free(t->key_col);
    sqe_free(t->types);
    sqe_free(t);
}

/* ------------------------------------------------------------ build sink */

typedef struct jt_local {
    sqe_rowstore rows;
    sqe_expr_state **kstates; /* per key: state of a computed right key, else NULL */
    sqe_batch *view;          /* the input's columns + computed keys (views) */
    uint16_t *sel;
    size_t tracked;
    sqe_join_spill_scratch *scratch; /* once the table spills */
} jt_local;

static sqe_join_table *building(sqe_op *op) {
    return ((sqe_join_op *)op)->building;
}

static void *jt_local_new(sqe_op *op) {
    sqe_join_table *t = building(op);
    jt_local *l = sqe_calloc(1, sizeof *l);
    sqe_rowstore_init(&l->rows, t->n_store, t->types, false);
    l->kstates = sqe_calloc((size_t)(t->n_keys + 1), sizeof *l->kstates);
    for (int k = 0; k < t->n_keys; k++)
        if (t->key_col[k] >= t->n_cols)
            l->kstates[k] = sqe_exec_expr_state_new(op, op->plan->u.join.right_keys[k], NULL);
    l->view = sqe_batch_new_empty(t->n_store);
    l->sel = sqe_malloc(SQE_BATCH_ROWS * sizeof *l->sel);
    return l;
}

static void jt_local_free(sqe_op *op, void *l_) {
    jt_local *l = l_;
    if (!l) return;
    sqe_join_table *t = building(op);
    sqe_exec_mem_track(op->ctx, &l->tracked, 0, t->op_name, NULL);
    sqe_rowstore_free(&l->rows);
    for (int k = 0; k < t->n_keys; k++) sqe_expr_state_free(l->kstates[k]);
    sqe_free(l->kstates);
    sqe_batch_free(l->view); /* owns no vectors */
    sqe_free(l->sel);
    sqe_join_spill_scratch_free(l->scratch);
    sqe_free(l);
}

/* Keeps the rows of (sel, n) whose first t->n_required keys are non-NULL. */
static uint32_t jt_drop_null_keys(const sqe_join_table *t, const sqe_batch *view,
                                  const uint16_t *sel, uint32_t n, uint16_t *out) {
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t r = sel ? sel[i] : i;
        bool keep = true;
        for (int k = 0; k < t->n_required && keep; k++) {
            const sqe_vector *v = view->cols[t->key_col[k]];
            keep = v->type.id != SQE_T_NULL && !sqe_vector_is_null(v, r);
        }
        out[m] = (uint16_t)r;
        m += keep;
    }
    return m;
}

/* Null-aware IN without correlation keys: the group facts of the whole
 * build side (every row is stored: n_required is 0). */
static void jt_note_group(sqe_join_table *t, const sqe_batch *view, const uint16_t *sel,
                          uint32_t n) {
    if (!t->na_global || n == 0) return;
    const sqe_vector *v = view->cols[t->key_col[0]];
    uint8_t f = SQE_JOIN_G_NONEMPTY;
    for (uint32_t i = 0; i < n && !(f & SQE_JOIN_G_NULL); i++)
        if (v->type.id == SQE_T_NULL || sqe_vector_is_null(v, sel ? sel[i] : i))
            f |= SQE_JOIN_G_NULL;
    atomic_fetch_or(&t->na_flags, f);
}

/* Appends rows (sel, n) of the view to the local, or to the partition
 * files once the table spills: when the rows would not fit (with room left
 * for the spill's I/O buffers), the spill starts and this local's rows go
 * out first. */
static bool jt_keep(sqe_op *op, jt_local *l, const uint16_t *sel, uint32_t n, sqe_error *err) {
    sqe_join_table *t = building(op);
    sqe_exec_ctx *ctx = op->ctx;
    if (!t->can_spill) {
        sqe_rowstore_append(&l->rows, l->view, sel, n, 0);
        return sqe_exec_mem_track(ctx, &l->tracked, l->rows.bytes, t->op_name, err);
    }
    bool pending = true; /* rows (sel, n) still to keep */
    if (!atomic_load(&t->spilling)) {
        size_t need = l->rows.bytes + sqe_rowstore_append_bytes(&l->rows, l->view, sel, n);
        if (sqe_join_mem_fits(ctx, &l->tracked, need, sqe_join_spill_budget(ctx))) {
            sqe_rowstore_append(&l->rows, l->view, sel, n, 0);
            if (sqe_exec_mem_reserve(ctx, &l->tracked, l->rows.bytes)) return true;
            pending = false; /* the estimate was short: spill them with the rest */
        }
        if (!sqe_join_spill_start(t, err)) return false;
    }
    if (l->rows.n_rows > 0 && !sqe_join_spill_store(t, &l->scratch, &l->rows, err)) return false;
    sqe_exec_mem_track(ctx, &l->tracked, l->rows.bytes, t->op_name, NULL);
    if (!sqe_join_spill_settle(t, err)) return false;
    return !pending || sqe_join_spill_rows(t, &l->scratch, l->view, sel, n, err);
}

static bool jt_consume(sqe_op *op, void *l_, sqe_batch *b, uint64_t tag_base, sqe_error *err) {
    SQE_UNUSED(tag_base);
    sqe_join_table *t = building(op);
    jt_local *l = l_;
    uint32_t n = sqe_batch_live(b);
    if (n == 0) return true;
    for (int c = 0; c < t->n_cols; c++) l->view->cols[c] = b->cols[c];
    for (int k = 0; k < t->n_keys; k++) {
        if (!l->kstates[k]) continue;
        sqe_vector *v = sqe_expr_eval(l->kstates[k], b, b->sel, n, err);
        if (!v) return false;
        l->view->cols[t->key_col[k]] = v;
    }
    l->view->n_rows = b->n_rows;
    const uint16_t *sel = b->sel;
    if (t->n_required > 0) {
        n = jt_drop_null_keys(t, l->view, sel, n, l->sel);
        sel = l->sel;
    }
    jt_note_group(t, l->view, sel, n);
    return n == 0 || jt_keep(op, l, sel, n, err);
}

/* Takes the last chunk of rs out into `tail` when it is partly filled. */
static void jt_take_partial_tail(sqe_rowstore *rs, sqe_rowstore *tail) {
    sqe_rowstore_init(tail, rs->n_cols, rs->types, false);
    if (rs->chunks.len == 0 || rs->chunks.items[rs->chunks.len - 1].n == SQE_BATCH_ROWS) return;
    sqe_rowstore_chunk c = rs->chunks.items[--rs->chunks.len];
    SQE_ARRAY_PUSH(NULL, tail->chunks, c);
    tail->n_rows = c.n;
    rs->n_rows -= c.n;
}

/* Moves src's rows to the end of dst so that dst stays dense: src's full
 * chunks move, then dst's own partial chunk goes back last and src's
 * partial chunk is copied into it. (Bytes stay approximate: a copied
 * chunk's bytes remain counted.) */
void sqe_join_rows_merge(sqe_rowstore *dst, sqe_rowstore *src) {
    sqe_rowstore dtail, stail;
    jt_take_partial_tail(dst, &dtail);
    jt_take_partial_tail(src, &stail);
    sqe_rowstore_adopt(dst, src);
    sqe_rowstore_adopt(dst, &dtail);
    if (stail.n_rows > 0) {
        uint32_t *idx = sqe_malloc(stail.n_rows * sizeof *idx);
        sqe_rowstore_indexes(&stail, idx);
        sqe_rowstore_append_rows(dst, &stail, idx, stail.n_rows);
        sqe_free(idx);
    }
    sqe_rowstore_free(&stail);
}

/* Writes every row the table holds to the partition files. */
static bool jt_spill_table(sqe_join_table *t, sqe_error *err) {
    if (!sqe_join_spill_start(t, err)) return false;
    sqe_join_spill_scratch *sc = NULL;
    bool ok = sqe_join_spill_store(t, &sc, &t->rows, err);
    sqe_join_spill_scratch_free(sc);
    sqe_exec_mem_track(t->ctx, &t->tracked, t->rows.bytes, t->op_name, NULL);
    return ok && sqe_join_spill_settle(t, err);
}

/* Merges a local into the table, or (spilling) writes its rows out. */
static bool jt_merge(sqe_op *op, void *l_, sqe_error *err) {
    sqe_join_table *t = building(op);
    jt_local *l = l_;
    if (atomic_load(&t->spilling)) {
        bool ok = sqe_join_spill_store(t, &l->scratch, &l->rows, err);
        jt_local_free(op, l);
        return ok && (t->rows.n_rows == 0 || jt_spill_table(t, err));
    }
    sqe_join_rows_merge(&t->rows, &l->rows);
    jt_local_free(op, l);
    if (!t->can_spill)
        return sqe_exec_mem_track(op->ctx, &t->tracked, t->rows.bytes, t->op_name, err);
    /* the spill's buffers must still fit when it starts */
    if (sqe_join_mem_fits(op->ctx, &t->tracked, t->rows.bytes, sqe_join_spill_budget(op->ctx)))
        return true;
    return jt_spill_table(t, err);
}

static const sqe_sink_vtable jt_sink = {jt_local_new, jt_consume, jt_merge, jt_local_free};

/* ------------------------------------------------------------- indexing */

/* Hashes keys 0..nk-1 of rows [first, first + n) into h. */
static void jt_hash_rows(const sqe_join_table *t, int nk, size_t first, uint32_t n, uint64_t *h) {
    if (nk == 0)
        for (uint32_t i = 0; i < n; i++) h[i] = SQE_JOIN_NO_KEYS_HASH;
    for (int k = 0; k < nk; k++)
        sqe_join_hash_col(t->kc[k], t->keys[k] + first, t->knull[k] + first, n, k, h);
}

static bool jt_row_has_null(const sqe_join_table *t, int nk, size_t row) {
    for (int k = 0; k < nk; k++)
        if (t->knull[k][row]) return true;
    return false;
}

/* Distinct index: the entry (row + 1) of row's key tuple in bucket b, or 0. */
static uint32_t jt_find_entry(const sqe_join_table *t, const sqe_join_index *ix, size_t b,
                              uint32_t tag, uint32_t row) {
    for (uint32_t c = ix->heads[b]; c; c = ix->links[c - 1].next) {
        uint32_t e = c - 1;
        if (ix->links[e].tag != tag) continue;
        bool eq = true;
        for (int k = 0; k < ix->n_keys && eq; k++)
            eq = sqe_key_eq(t->kc[k], &t->keys[k][e], &t->keys[k][row]);
        if (eq) return c;
    }
    return 0;
}

/* The smallest power of two >= 2n (one bucket without keys): load <= 1/2. */
static size_t jt_buckets(size_t n, int nk) {
    size_t nb = 1;
    if (nk > 0)
        while (nb < 2 * n) nb <<= 1;
    return nb;
}

/* Builds ix over keys 0..nk-1 (see the essay). Rows go in from the last to
 * the first, a block of up to 2048 hashed at a time. */
static void jt_index_build(const sqe_join_table *t, sqe_join_index *ix, int nk,
                           sqe_join_index_kind kind) {
    size_t n = t->n_rows;
    bool distinct = kind == SQE_JOIN_IX_DISTINCT;
    ix->n_keys = nk;
    ix->kind = kind;
    ix->mask = jt_buckets(n, nk) - 1;
    ix->heads = sqe_calloc(ix->mask + 1, sizeof *ix->heads);
    ix->links = sqe_calloc(n ? n : 1, sizeof *ix->links);
    if (distinct) ix->has_null = sqe_calloc(n ? n : 1, 1);
    uint64_t *h = sqe_malloc(SQE_BATCH_ROWS * sizeof *h);
    for (size_t end = n; end > 0;) {
        size_t first = end > SQE_BATCH_ROWS ? end - SQE_BATCH_ROWS : 0;
        uint32_t m = (uint32_t)(end - first);
        jt_hash_rows(t, nk, first, m, h);
        for (uint32_t i = m; i-- > 0;) {
            if (i >= 8) __builtin_prefetch(&ix->heads[h[i - 8] & ix->mask]);
            uint32_t row = (uint32_t)(first + i);
            if (jt_row_has_null(t, nk, row)) continue;
            if (kind == SQE_JOIN_IX_NULL_LAST && !t->knull[nk][row]) continue;
            uint32_t tag = (uint32_t)(h[i] >> 32);
            size_t b = h[i] & ix->mask;
            ix->links[row].tag = tag;
            if (distinct) {
                uint8_t null_last = t->knull[nk][row];
                uint32_t e = jt_find_entry(t, ix, b, tag, row);
                if (e) {
                    ix->has_null[e - 1] |= null_last;
                    continue;
                }
                ix->has_null[row] = null_last;
            }
            ix->links[row].next = ix->heads[b];
            ix->heads[b] = row + 1;
        }
        end = first;
    }
    sqe_free(h);
}

static size_t jt_index_bytes(size_t n, int nk, sqe_join_index_kind kind) {
    return jt_buckets(n, nk) * sizeof(uint32_t) + n * 2 * sizeof(uint32_t) +
           (kind == SQE_JOIN_IX_DISTINCT ? n : 0);
}

/* The indexes a plan needs (see the essay); each entry: index, key count,
 * kind. Returns how many. */
typedef struct jt_index_plan {
    sqe_join_index *ix;
    int n_keys;
    sqe_join_index_kind kind;
} jt_index_plan;

static int jt_plan_indexes(const sqe_plan *p, sqe_join_table *t, jt_index_plan *out) {
    int n = 0, nk = p->u.join.n_keys;
    if (nk == 0) return 0;
    out[n++] = (jt_index_plan){&t->full, nk, SQE_JOIN_IX_ALL};
    if (!p->u.join.null_aware) return n;
    if (!p->u.join.residual) {
        out[n++] = (jt_index_plan){&t->groups, nk - 1, SQE_JOIN_IX_DISTINCT};
    } else {
        out[n++] = (jt_index_plan){&t->corr_all, nk - 1, SQE_JOIN_IX_ALL};
        out[n++] = (jt_index_plan){&t->corr_null, nk - 1, SQE_JOIN_IX_NULL_LAST};
    }
    return n;
}

size_t sqe_join_table_extra_bytes(const sqe_join_table *t, const sqe_plan *p, size_t n) {
    jt_index_plan ixs[4];
    sqe_join_table tmp = *t; /* jt_plan_indexes only takes the indexes' addresses */
    int n_ix = jt_plan_indexes(p, &tmp, ixs);
    sqe_join_type jt = p->u.join.type;
    bool unmatched = jt == SQE_JT_RIGHT || jt == SQE_JT_FULL;
    size_t bytes = n * (unmatched ? 1 : 0) + n * (size_t)t->n_keys * (sizeof(sqe_key_slot) + 1);
    for (int i = 0; i < n_ix; i++) bytes += jt_index_bytes(n, ixs[i].n_keys, ixs[i].kind);
    return bytes;
}

bool sqe_join_table_index(sqe_join_table *t, const sqe_plan *p, sqe_error *err) {
    size_t n = t->rows.n_rows;
    if (n >= UINT32_MAX)
        return sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED,
                             "%s: the build side has %zu rows, more than %u", t->op_name, n,
                             UINT32_MAX - 1);
    t->n_rows = n;
    jt_index_plan ixs[4];
    int n_ix = jt_plan_indexes(p, t, ixs);
    sqe_join_type jt = p->u.join.type;
    t->nullable = sqe_calloc((size_t)t->n_store + 1, sizeof *t->nullable);
    for (size_t c = 0; c < t->rows.chunks.len; c++)
        for (int k = 0; k < t->n_store; k++)
            t->nullable[k] |= t->rows.chunks.items[c].cols[k]->has_nulls;
    for (int k = 0; k < t->n_keys; k++) {
        t->keys[k] = sqe_malloc((n ? n : 1) * sizeof **t->keys);
        t->knull[k] = sqe_malloc(n ? n : 1);
    }
    size_t row = 0;
    for (size_t c = 0; c < t->rows.chunks.len; c++) {
        const sqe_rowstore_chunk *ch = &t->rows.chunks.items[c];
        for (int k = 0; k < t->n_keys; k++)
            sqe_key_load(ch->cols[t->key_col[k]], NULL, ch->n, t->keys[k] + row, t->knull[k] + row);
        row += ch->n;
    }
    if (jt == SQE_JT_RIGHT || jt == SQE_JT_FULL) t->matched = sqe_calloc(n ? n : 1, 1);
    for (int i = 0; i < n_ix; i++) jt_index_build(t, ixs[i].ix, ixs[i].n_keys, ixs[i].kind);
    return true;
}

/* Numbers the rows, loads the key slots and builds the indexes, after
 * reporting their size. A table that can spill and does not fit writes
 * its rows to partition files and keeps the partitions that fit. */
static bool jt_finish(sqe_op *op, sqe_join_table *t, sqe_error *err) {
    size_t n = t->rows.n_rows;
    if (n >= UINT32_MAX && !t->can_spill)
        return sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED,
                             "%s: the build side has %zu rows, more than %u", t->op_name, n,
                             UINT32_MAX - 1);
    size_t bytes = t->rows.bytes + sqe_join_table_extra_bytes(t, op->plan, n);
    if (!atomic_load(&t->spilling)) {
        if (!t->can_spill) {
            if (!sqe_exec_mem_track(t->ctx, &t->tracked, bytes, t->op_name, err)) return false;
            return sqe_join_table_index(t, op->plan, err);
        }
        if (n < UINT32_MAX &&
            sqe_join_mem_fits(t->ctx, &t->tracked, bytes, sqe_join_spill_budget(t->ctx)))
            return sqe_join_table_index(t, op->plan, err);
    }
    if (t->rows.n_rows > 0 && !jt_spill_table(t, err)) return false;
    return sqe_join_spill_hybrid(op, t, err);
}

void *sqe_join_table_build(sqe_op *op, sqe_error *err) {
    sqe_join_op *j = (sqe_join_op *)op;
    sqe_join_table *t = sqe_join_table_new(op);
    j->building = t;
    bool ok = sqe_exec_drain(op, 1, &jt_sink, err) && jt_finish(op, t, err);
    j->building = NULL;
    if (!ok) {
        sqe_join_table_free(t);
        return NULL;
    }
    return t;
}

/* -------------------------------------------------------------- gathers */

#define GATHER_PROBE(T)                                                                            \
    do {                                                                                           \
        T *d_ = (T *)dst->data;                                                                    \
        const T *s_ = (const T *)src->data;                                                        \
        for (uint32_t r = 0; r < n; r++) d_[r] = s_[rows[r]];                                      \
    } while (0)

/* dst row r = src row rows[r], r < n (dst was reset). String views are
 * copied as views. */
static void jp_gather_probe(sqe_vector *dst, const sqe_vector *src, const uint16_t *rows,
                            uint32_t n) {
    if (src->type.id == SQE_T_NULL || dst->type.id == SQE_T_NULL) {
        for (uint32_t r = 0; r < n; r++) sqe_vector_set_null(dst, r);
        return;
    }
    switch (sqe_type_width(dst->type)) {
    case 1:
        GATHER_PROBE(uint8_t);
        break;
    case 2:
        GATHER_PROBE(uint16_t);
        break;
    case 4:
        GATHER_PROBE(uint32_t);
        break;
    case 8:
        GATHER_PROBE(uint64_t);
        break;
    default:
        GATHER_PROBE(sqe_key_slot);
        break;
    }
    if (src->has_nulls)
        for (uint32_t r = 0; r < n; r++)
            if (sqe_vector_is_null(src, rows[r])) sqe_vector_set_null(dst, r);
}

#define GATHER_BUILD(T)                                                                            \
    do {                                                                                           \
        T *d_ = (T *)dst->data;                                                                    \
        for (uint32_t r = 0; r < n; r++) {                                                         \
            if (r + PF < n) {                                                                      \
                uint32_t p_ = rows[r + PF];                                                        \
                __builtin_prefetch((const T *)ch[p_ >> SQE_ROWSTORE_SHIFT].cols[col]->data +       \
                                   (p_ & (SQE_BATCH_ROWS - 1)));                                   \
            }                                                                                      \
            uint32_t row_ = rows[r];                                                               \
            d_[r] =                                                                                \
                ((const T *)ch[row_ >> SQE_ROWSTORE_SHIFT].cols[col]->data)[row_ &                 \
                                                                            (SQE_BATCH_ROWS - 1)]; \
        }                                                                                          \
    } while (0)

/* dst row r = column col of build row rows[r], r < n (dst was reset). Rows
 * are row store addresses (the store is dense); values a few rows ahead
 * are prefetched, as matched build rows are random accesses. */
static void jp_gather_build(const sqe_join_table *t, int col, const uint32_t *rows, uint32_t n,
                            sqe_vector *dst) {
    enum { PF = 8 };
    const sqe_rowstore_chunk *ch = t->rows.chunks.items;
    if (dst->type.id == SQE_T_NULL) {
        for (uint32_t r = 0; r < n; r++) sqe_vector_set_null(dst, r);
        return;
    }
    switch (sqe_type_width(dst->type)) {
    case 1:
        GATHER_BUILD(uint8_t);
        break;
    case 2:
        GATHER_BUILD(uint16_t);
        break;
    case 4:
        GATHER_BUILD(uint32_t);
        break;
    case 8:
        GATHER_BUILD(uint64_t);
        break;
    default:
        GATHER_BUILD(sqe_key_slot);
        break;
    }
    if (!t->nullable[col]) return;
    for (uint32_t r = 0; r < n; r++) {
        uint32_t row = rows[r];
        const sqe_vector *s = ch[row >> SQE_ROWSTORE_SHIFT].cols[col];
        if (sqe_vector_is_null(s, row & (SQE_BATCH_ROWS - 1))) sqe_vector_set_null(dst, r);
    }
}

/* ---------------------------------------------------------------- probe */

static bool jp_check_plan(sqe_join_op *j, sqe_error *err) {
    const sqe_plan *p = j->base.plan;
    const char *name = j->base.vt->name;
    sqe_join_type jt = p->u.join.type;
    int want = j->n_probe + j->n_build;
    if (jt == SQE_JT_SEMI || jt == SQE_JT_ANTI) want = j->n_probe;
    if (jt == SQE_JT_MARK) want = j->n_probe + 1;
    if (p->n_children != 2 || p->n_out != want)
        return sqe_error_set(err, SQE_ERR_INTERNAL, "%s: %d output columns, expected %d", name,
                             p->n_out, want);
    if (p->u.join.null_aware &&
        (p->u.join.n_keys < 1 || !(jt == SQE_JT_SEMI || jt == SQE_JT_ANTI || jt == SQE_JT_MARK)))
        return sqe_error_set(err, SQE_ERR_INTERNAL,
                             "%s: null_aware needs a key and a SEMI, ANTI or MARK join", name);
    for (int k = 0; k < p->u.join.n_keys; k++) {
        sqe_type a = p->u.join.left_keys[k]->type, b = p->u.join.right_keys[k]->type;
        if (sqe_key_class_of(a) != sqe_key_class_of(b) ||
            (a.id == SQE_T_DECIMAL && (b.id != SQE_T_DECIMAL || a.scale != b.scale)))
            return sqe_error_set(err, SQE_ERR_INTERNAL,
                                 "%s: join key %d has different types on its two sides", name, k);
    }
    return true;
}

/* Marks the pair columns the residual reads (all of them when pairs are
 * output). */
static void jp_need_cols(const sqe_expr *e, bool *need, int n) {
    if (!e) return;
    if (e->kind == SQE_EXPR_COLUMN && e->col >= 0 && e->col < n) need[e->col] = true;
    for (int i = 0; i < e->n_args; i++) jp_need_cols(e->args[i], need, n);
}

static sqe_vector *jp_null_vector(sqe_type t) {
    sqe_vector *v = sqe_vector_new(t);
    memset(v->validity, 0, sizeof v->validity);
    v->has_nulls = true;
    return v;
}

/* Per-copy buffers and batches. */
static void jp_alloc(sqe_join_op *j) {
    const sqe_plan *p = j->base.plan;
    int np = j->n_probe, nc = j->n_probe + j->n_build;
    sqe_type *types = sqe_calloc((size_t)nc + 1, sizeof *types);
    for (int c = 0; c < np; c++) types[c] = p->children[0]->out_types[c];
    for (int c = 0; c < j->n_build; c++) types[np + c] = p->children[1]->out_types[c];
    j->pairs = sqe_batch_new(nc, types);
    j->pass = sqe_batch_new_empty(p->n_out);
    j->tail = sqe_batch_new_empty(nc);
    j->need = sqe_calloc((size_t)nc + 1, sizeof *j->need);
    if (j->pairs_out)
        for (int c = 0; c < nc; c++) j->need[c] = true;
    else
        jp_need_cols(p->u.join.residual, j->need, nc);
    if (j->type == SQE_JT_LEFT || j->type == SQE_JT_RIGHT || j->type == SQE_JT_FULL) {
        j->nulls = sqe_calloc((size_t)nc, sizeof *j->nulls);
        for (int c = 0; c < nc; c++) j->nulls[c] = jp_null_vector(types[c]);
    }
    if (j->type == SQE_JT_MARK) j->markv = sqe_vector_new(sqe_type_make(SQE_T_BOOLEAN));
    sqe_free(types);
    j->hits = sqe_calloc(SQE_BATCH_ROWS, 1);
    j->flags = sqe_calloc(SQE_BATCH_ROWS, 1);
    j->mark = sqe_calloc(SQE_BATCH_ROWS, 1);
    j->left = sqe_calloc(SQE_BATCH_ROWS, 1);
    j->budget = sqe_calloc(SQE_BATCH_ROWS, sizeof *j->budget);
    j->pi = sqe_calloc(SQE_BATCH_ROWS, sizeof *j->pi);
    j->pb = sqe_calloc(SQE_BATCH_ROWS, sizeof *j->pb);
    j->prow = sqe_calloc(SQE_BATCH_ROWS, sizeof *j->prow);
}

bool sqe_join_open(sqe_join_op *j, const sqe_join_probe_vt *vt, sqe_error *err) {
    sqe_op *op = &j->base;
    const sqe_plan *p = op->plan;
    j->vt = vt;
    j->type = p->u.join.type;
    j->n_probe = p->children[0]->n_out;
    j->n_build = p->children[1]->n_out;
    if (!jp_check_plan(j, err)) return false;
    j->pairs_out = j->type == SQE_JT_INNER || j->type == SQE_JT_LEFT || j->type == SQE_JT_RIGHT ||
                   j->type == SQE_JT_FULL;
    j->early_stop = !j->pairs_out;
    j->direct = j->early_stop && !p->u.join.residual;
    j->budgeted = j->early_stop && !j->direct;
    j->emit_unmatched = j->type == SQE_JT_RIGHT || j->type == SQE_JT_FULL;
    j->single_match = p->u.join.single_match && j->pairs_out;
    j->t = sqe_exec_shared_get(op->ctx, op, sqe_join_table_build, sqe_join_table_free, err);
    if (!j->t) return false;
    j->shared = j->t;
    if (!sqe_op_open(op->children[0], err)) return false;
    if (p->u.join.residual && !(j->residual = sqe_exec_expr_state_new(op, p->u.join.residual, err)))
        return false;
    jp_alloc(j);
    j->phase = JP_PULL;
    return true;
}

void sqe_join_close(sqe_join_op *j) {
    sqe_expr_state_free(j->residual);
    j->residual = NULL;
    sqe_batch_free(j->pairs);
    sqe_batch_free(j->pass);
    sqe_batch_free(j->tail);
    j->pairs = j->pass = j->tail = NULL;
    if (j->nulls)
        for (int c = 0; c < j->n_probe + j->n_build; c++) sqe_vector_free(j->nulls[c]);
    sqe_free(j->nulls);
    j->nulls = NULL;
    sqe_vector_free(j->markv);
    j->markv = NULL;
    sqe_free(j->need);
    sqe_free(j->hits);
    sqe_free(j->flags);
    sqe_free(j->mark);
    sqe_free(j->left);
    sqe_free(j->budget);
    j->left = NULL;
    j->budget = NULL;
    sqe_free(j->pi);
    sqe_free(j->pb);
    sqe_free(j->prow);
    j->need = NULL;
    j->hits = j->flags = j->mark = NULL;
    j->pi = j->prow = NULL;
    j->pb = NULL;
    if (j->part) sqe_join_spill_part_done(j); /* an error stopped it mid-partition */
    sqe_join_spill_scratch_free(j->scratch);
    j->scratch = NULL;
    sqe_batch_free(j->view);
    sqe_batch_free(j->spill_in);
    j->view = j->spill_in = NULL;
}

/* The default accept: hits per probe row, matched build rows, and the
 * scalar subquery check. */
static bool jp_accept(sqe_join_op *j, const uint16_t *sel, uint32_t k, sqe_error *err) {
    atomic_uchar *matched = j->t->matched;
    for (uint32_t r = 0; r < k; r++) {
        uint32_t p = sel ? sel[r] : r;
        uint16_t i = j->pi[p];
        if (j->hits[i] < 2) j->hits[i]++;
        if (j->single_match && j->hits[i] > 1)
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "Scalar sub-query has returned multiple rows");
        if (matched && !atomic_load_explicit(&matched[j->pb[p]], memory_order_relaxed))
            atomic_store_explicit(&matched[j->pb[p]], 1, memory_order_relaxed);
    }
    return true;
}

/* Gathers the needed columns of the n_pairs candidates into j->pairs. */
static void jp_gather_pairs(sqe_join_op *j) {
    uint32_t n = j->n_pairs;
    sqe_batch *in = j->in;
    sqe_batch_reset(j->pairs);
    for (uint32_t r = 0; r < n; r++) j->prow[r] = in->sel ? in->sel[j->pi[r]] : j->pi[r];
    for (int c = 0; c < j->n_probe; c++)
        if (j->need[c]) jp_gather_probe(j->pairs->cols[c], in->cols[c], j->prow, n);
    for (int c = 0; c < j->n_build; c++)
        if (j->need[j->n_probe + c])
            jp_gather_build(j->t, c, j->pb, n, j->pairs->cols[j->n_probe + c]);
    j->pairs->n_rows = n;
}

/* Collects up to SQE_BATCH_ROWS candidate pairs of the probe batch, row by
 * row from the cursor j->ci. Budgeted (SEMI/ANTI/MARK with a residual,
 * where one accepted pair decides a row): each pass gives every undecided
 * row at most budget[i] candidates, doubling it for the next pass, and a
 * pass ends the round so accept can decide rows before more candidates of
 * theirs are generated; a row decided by its m-th candidate thus costs at
 * most about 2m residual evaluations, however long its chain. */
static void jp_fill(sqe_join_op *j) {
    for (;;) {
        for (; j->ci < j->n_in; j->ci++) {
            uint32_t i = j->ci;
            if (!j->left[i]) continue;
            if (j->early_stop && (j->hits[i] || (j->flags[i] & SQE_JOIN_DECIDED))) continue;
            uint32_t budget = j->budgeted ? j->budget[i] : UINT32_MAX;
            j->left[i] = j->vt->fill_row(j, i, &budget);
            if (j->left[i] && j->budgeted) {
                j->more = true;
                if (j->budget[i] < SQE_BATCH_ROWS) j->budget[i] *= 2;
            }
            if (j->n_pairs == SQE_BATCH_ROWS) return; /* row i resumes next round */
        }
        if (!j->more) {
            j->exhausted = true;
            return;
        }
        j->ci = 0; /* next pass */
        j->more = false;
        if (j->n_pairs > 0) return;
    }
}

/* One round of candidates: fill, gather, residual, accept. *emitted when
 * the accepted pairs are the output batch. */
static bool jp_pairs(sqe_join_op *j, sqe_batch **out, bool *emitted, sqe_error *err) {
    *emitted = false;
    /* one probe batch may take many rounds without output (ANTI, a
     * selective residual, a large nested loop): stop between rounds */
    if (sqe_exec_stopped(j->base.ctx, err)) return false;
    j->n_pairs = 0;
    if (!j->exhausted) jp_fill(j);
    uint32_t n = j->n_pairs;
    if (n == 0) {
        j->phase = JP_TAIL;
        return true;
    }
    jp_gather_pairs(j);
    sqe_batch *b = j->pairs;
    const uint16_t *sel = NULL;
    uint32_t k = n;
    if (j->residual) {
        if (!sqe_expr_filter(j->residual, b, NULL, n, b->sel_buf, &k, err)) return false;
        sel = b->sel_buf;
    }
    if (!(j->vt->accept ? j->vt->accept : jp_accept)(j, sel, k, err)) return false;
    if (!j->pairs_out || k == 0) return true;
    if (k < n) {
        b->sel = b->sel_buf;
        b->n_sel = k;
    }
    *out = b;
    *emitted = true;
    return true;
}

/* Per probe batch, after its pairs: the rows each join type emits without
 * a build row (see the essay). Returns false when there are none. */
static bool jp_tail(sqe_join_op *j, sqe_batch **out) {
    if (j->type == SQE_JT_INNER || j->type == SQE_JT_RIGHT) return false;
    sqe_batch *in = j->in, *b = j->pass;
    bool outer = j->type == SQE_JT_LEFT || j->type == SQE_JT_FULL;
    if (!outer) {
        if (j->vt->finish)
            j->vt->finish(j);
        else
            for (uint32_t i = 0; i < j->n_in; i++) j->mark[i] = j->hits[i] ? 1 : 0;
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < j->n_in; i++) {
        bool keep = outer                    ? j->hits[i] == 0
                    : j->type == SQE_JT_SEMI ? j->mark[i] == 1
                    : j->type == SQE_JT_ANTI ? j->mark[i] == 0
                                             : true;
        b->sel_buf[k] = (uint16_t)(in->sel ? in->sel[i] : i);
        k += keep;
    }
    if (k == 0) return false;
    for (int c = 0; c < j->n_probe; c++) b->cols[c] = in->cols[c];
    if (outer)
        for (int c = 0; c < j->n_build; c++) b->cols[j->n_probe + c] = j->nulls[j->n_probe + c];
    if (j->type == SQE_JT_MARK) {
        sqe_vector *m = j->markv;
        sqe_vector_reset(m);
        for (uint32_t i = 0; i < j->n_in; i++) {
            uint32_t r = in->sel ? in->sel[i] : i;
            SQE_VEC_DATA(m, uint8_t)[r] = j->mark[i] == 1;
            if (j->mark[i] == 2) sqe_vector_set_null(m, r);
        }
        b->cols[j->n_probe] = m;
    }
    b->n_rows = in->n_rows;
    b->sel = b->sel_buf;
    b->n_sel = k;
    *out = b;
    return true;
}

/* RIGHT/FULL after the last probe: the next batch of build rows no probe
 * row matched. Returns false when there are no more. */
static bool jp_unmatched(sqe_join_op *j, sqe_batch **out) {
    const sqe_join_table *t = j->t;
    uint32_t m = 0;
    while (j->unmatched_pos < t->n_rows && m < SQE_BATCH_ROWS) {
        size_t row = j->unmatched_pos++;
        if (!atomic_load_explicit(&t->matched[row], memory_order_relaxed))
            j->pb[m++] = (uint32_t)row;
    }
    if (m == 0) return false;
    sqe_batch_reset(j->pairs);
    sqe_batch *b = j->tail;
    for (int c = 0; c < j->n_probe; c++) b->cols[c] = j->nulls[c];
    for (int c = 0; c < j->n_build; c++) {
        sqe_vector *v = j->pairs->cols[j->n_probe + c];
        jp_gather_build(t, c, j->pb, m, v);
        b->cols[j->n_probe + c] = v;
    }
    b->n_rows = m;
    b->sel = NULL;
    *out = b;
    return true;
}

/* This copy's probe input ended: deregister. The copy whose
 * deregistration brings `active` to zero, once per query (`emitted`),
 * finishes the probe: queues the spilled partitions, emits the unmatched
 * build rows (RIGHT/FULL), frees a spilled table's in-memory rows. Every
 * copy of a spilled join then joins partitions. */
static bool jp_probe_end(sqe_join_op *j, sqe_error *err) {
    sqe_join_table *t = j->shared;
    bool last = atomic_fetch_sub(&t->active, 1) == 1;
    bool spill = t->spill != NULL;
    bool finisher = last && (j->emit_unmatched || spill) && !atomic_exchange(&t->emitted, true);
    if (finisher && spill && !sqe_join_spill_probe_done(t, err)) return false;
    if (finisher && j->emit_unmatched) {
        j->unmatched_pos = 0;
        j->phase = JP_UNMATCHED;
        return true;
    }
    if (finisher) sqe_join_spill_release_main(t);
    j->phase = spill ? JP_PART : JP_DONE;
    return true;
}

/* The unmatched rows of j->t are out: free what they came from. */
static void jp_unmatched_done(sqe_join_op *j) {
    if (j->t != j->shared) {
        sqe_join_spill_part_done(j);
        j->phase = JP_PART;
    } else if (j->shared->spill) {
        sqe_join_spill_release_main(j->shared);
        j->phase = JP_PART;
    } else {
        j->phase = JP_DONE;
    }
}

/* Starts joining probe batch b. */
static bool jp_begin(sqe_join_op *j, sqe_batch *b, sqe_error *err) {
    j->in = b;
    j->n_in = sqe_batch_live(b);
    memset(j->hits, 0, j->n_in);
    memset(j->flags, 0, j->n_in);
    memset(j->left, 1, j->n_in);
    for (uint32_t i = 0; i < j->n_in; i++) j->budget[i] = 1;
    j->ci = 0;
    j->more = false;
    j->exhausted = false;
    j->phase = JP_PAIRS;
    return j->vt->start(j, err);
}

/* PULL: the next probe batch, or the end of the probe side. */
static bool jp_pull(sqe_join_op *j, sqe_error *err) {
    sqe_batch *b = NULL;
    bool eof = false;
    if (sqe_exec_stopped(j->base.ctx, err)) return false;
    if (!sqe_op_next(j->base.children[0], &b, &eof, err)) return false;
    if (eof) return jp_probe_end(j, err);
    return jp_begin(j, b, err);
}

/* Whether this copy's pipeline was told to stop (a LIMIT above it is
 * satisfied: sqe_scan_source.done): spilled partitions are then not worth
 * joining. */
static bool jp_pipeline_done(const sqe_join_op *j) {
    const sqe_op *op = j->base.children[0];
    while (op->n_children > 0) op = op->children[0];
    return op->src && op->src->done && atomic_load(op->src->done);
}

/* PART: the next spilled partition to join, or the end. */
static bool jp_part(sqe_join_op *j, sqe_error *err) {
    bool got = false;
    if (jp_pipeline_done(j)) {
        j->phase = JP_DONE;
        return true;
    }
    if (!sqe_join_spill_next_part(j, &got, err)) return false;
    j->phase = got ? JP_PART_PULL : JP_DONE;
    return true;
}

/* PART_PULL: the partition's next probe batch; at its end the partition's
 * unmatched build rows (RIGHT/FULL). */
static bool jp_part_pull(sqe_join_op *j, sqe_error *err) {
    sqe_batch *b = NULL;
    bool eof = false;
    if (sqe_exec_stopped(j->base.ctx, err)) return false;
    if (!sqe_join_spill_read(j, &b, &eof, err)) return false;
    if (!eof) return jp_begin(j, b, err);
    if (j->emit_unmatched) {
        j->unmatched_pos = 0;
        j->phase = JP_UNMATCHED;
    } else {
        jp_unmatched_done(j);
    }
    return true;
}

bool sqe_join_next(sqe_join_op *j, sqe_batch **out, bool *eof, sqe_error *err) {
    if (!j->registered) {
        atomic_fetch_add(&j->shared->active, 1);
        j->registered = true;
    }
    *eof = false;
    for (;;) {
        bool emitted = false;
        switch (j->phase) {
        case JP_PULL:
            if (!jp_pull(j, err)) return false;
            break;
        case JP_PAIRS:
            if (!jp_pairs(j, out, &emitted, err)) return false;
            if (emitted) return true;
            break;
        case JP_TAIL:
            j->phase = j->part ? JP_PART_PULL : JP_PULL;
            if (jp_tail(j, out)) return true;
            break;
        case JP_UNMATCHED:
            if (jp_unmatched(j, out)) return true;
            jp_unmatched_done(j);
            break;
        case JP_PART:
            if (!jp_part(j, err)) return false;
            break;
        case JP_PART_PULL:
            if (!jp_part_pull(j, err)) return false;
            break;
        default:
            *eof = true;
            return true;
        }
    }
}
