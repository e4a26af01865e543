/*
 * hash_join.c - HashJoinExec: equi joins (n_keys >= 1) of every type
 * (INNER, LEFT, RIGHT, FULL, SEMI, ANTI, MARK), with an optional residual,
 * null-aware IN semantics and the scalar-subquery single-match check.
 *
 * Where it sits: children[1] is the build side, materialized and indexed
 * once per query by the first pipeline copy that opens (join_table.c: rows
 * in a row store, key slots per row, chained hash indexes sized once from
 * the row count); children[0] streams, and in a parallel pipeline every
 * copy probes the same table. This file supplies the probe's candidate
 * search; the driver in join_table.c turns candidates into output batches
 * (several per probe batch when matches are many), emits the per-type
 * extra rows and, for RIGHT/FULL, the build rows no copy matched.
 *
 * Probe, per probe batch (vectorized):
 *   start   evaluate the left keys over the batch, load them into key slots
 *           (keys.c normalization, so -0.0 = 0.0 and NaN = NaN as in
 *           GROUP BY), hash the whole batch column by column with the same
 *           function as the build, and look up every row's chain head
 *           (prefetched a few rows ahead). A row with a NULL key gets no
 *           chain: NULL never matches. When the table spilled, rows of
 *           partitions on disk go to their probe files first and the batch
 *           is narrowed to the rest (join_spill.c); partition tables never
 *           spill, so their probe batches join as they are.
 *   fill    per probe row (fill_row, driven by join_table.c's jp_fill),
 *           walk its chain from a cursor, comparing the 32-bit tag, then
 *           the key slots; each match is a candidate pair. Cursors survive
 *           a full pair buffer, so a probe row with 3000 matches spans two
 *           output batches.
 * SEMI/ANTI/MARK stop at a row's first match (without a residual the pair
 * is not even materialized).
 *
 * Null-aware IN (MARK = `x IN (subquery)`, ANTI = `x NOT IN (subquery)`).
 * The last key is the IN operand, the others correlate. For a probe row,
 * G is the set of build rows equal on the correlation keys (all build rows
 * when there is one key). mark = TRUE if some row of G equals the operand;
 * else NULL if G is non-empty and the operand is NULL or G holds a NULL
 * operand; else FALSE. ANTI keeps the row only when mark is FALSE, SEMI
 * only when it is TRUE.
 *   Without a residual: the `full` index finds equal rows (direct hits);
 *   the distinct `groups` index holds one entry per correlation tuple with
 *   a flag "holds a NULL operand", looked up once per probe row in start.
 *   Without correlation keys the one group's flags come from the build
 *   (t->na_flags), so they also hold in a spilled partition's table.
 *   With a residual: the residual is part of G's definition (a row of G
 *   must satisfy it with the probe row: `x IN (SELECT y FROM t WHERE
 *   t.a > o.b)`), so G's members are only known pair by pair. A probe row
 *   with a non-NULL operand walks two chains: its equal rows (`full`),
 *   then its group's rows with a NULL operand (`corr_null`); a probe row
 *   with a NULL operand walks its whole group (`corr_all`) until one pair
 *   passes. accept classifies the pairs that pass: an equal operand (TRUE,
 *   decided), a NULL operand (G holds NULL; every equal row of the probe
 *   row was generated, hence evaluated, no later, so the row is decided:
 *   TRUE if one passed, else NULL), or for a NULL probe operand any row
 *   (G non-empty: decided NULL). Cost: the equal rows plus, for rows that
 *   end FALSE, every NULL-operand row of the group, so it is linear unless
 *   the subquery yields many NULLs.
 *
 * Invariant (with join_table.c): build and probe rows hash with
 * sqe_join_hash_col over the same key classes, so equal key tuples land in
 * the same bucket with the same tag; key slot equality is GROUP BY's.
 */
#include "exec/join_table.h"

typedef struct hj_op {
    sqe_join_op j;
    int n_keys;
    bool null_aware;
    bool na_residual;         /* null-aware with a residual: two chains per row */
    sqe_expr_state **kstates; /* per left key */
    sqe_key_slot **pk;        /* per key: slot per live probe row */
    uint8_t **pn;             /* per key: NULL flag per live probe row */
    uint64_t *h;              /* scratch hashes */
    /* Per live probe row, up to two chains to walk: the first in `full`
     * (corr_all for a NULL operand with na_residual), the second in
     * corr_null (na_residual only). cur: next entry + 1, 0 = done. */
    uint32_t *cur0, *tag0, *cur1, *tag1;
} hj_op;

static bool hj_any_null(const hj_op *h, int nk, uint32_t i) {
    for (int k = 0; k < nk; k++)
        if (h->pn[k][i]) return true;
    return false;
}

/* Hashes probe keys k0..k1-1 into h->h (combining with what it holds when
 * k0 > 0; no keys at all: the constant of sqe_join_hash_col's contract). */
static void hj_hash(hj_op *h, int k0, int k1, uint32_t n) {
    if (k1 == 0)
        for (uint32_t i = 0; i < n; i++) h->h[i] = SQE_JOIN_NO_KEYS_HASH;
    for (int k = k0; k < k1; k++) sqe_join_hash_col(h->j.t->kc[k], h->pk[k], h->pn[k], n, k, h->h);
}

/* Chain heads in ix for the hashes in h->h, into cur/tag; rows with a NULL
 * among ix's keys, or excluded by `skip`, get none. */
static void hj_heads(hj_op *h, const sqe_join_index *ix, uint32_t n, uint32_t *cur, uint32_t *tag,
                     const uint8_t *skip, uint8_t skip_if) {
    enum { PF = 16 };
    const sqe_key_slot *k0 = h->j.t->keys[0];
    for (uint32_t i = 0; i < n; i++) {
        /* a software pipeline: bucket of row i + 16, first entry of i + 8 */
        if (i + PF < n) __builtin_prefetch(&ix->heads[h->h[i + PF] & ix->mask]);
        if (i + PF / 2 < n) {
            uint32_t c = ix->heads[h->h[i + PF / 2] & ix->mask];
            if (c) {
                __builtin_prefetch(&ix->links[c - 1]);
                __builtin_prefetch(&k0[c - 1]);
            }
        }
        bool none = hj_any_null(h, ix->n_keys, i) || (skip && skip[i] == skip_if);
        tag[i] = (uint32_t)(h->h[i] >> 32);
        cur[i] = none ? 0 : ix->heads[h->h[i] & ix->mask];
    }
}

/* Null-aware without residual: the group flags of every live probe row
 * (h->h holds the correlation hashes). */
static void hj_groups(hj_op *h, uint32_t n) {
    sqe_join_op *j = &h->j;
    const sqe_join_table *t = j->t;
    const sqe_join_index *ix = &t->groups;
    int nk = ix->n_keys;
    if (t->na_global) { /* no correlation keys: one group, the whole build side */
        uint8_t f = atomic_load(&t->na_flags);
        memset(j->flags, f, n);
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        j->flags[i] = 0;
        if (hj_any_null(h, nk, i)) continue;
        uint32_t tag = (uint32_t)(h->h[i] >> 32);
        for (uint32_t c = ix->heads[h->h[i] & ix->mask]; c; c = ix->links[c - 1].next) {
            uint32_t e = c - 1;
            if (ix->links[e].tag != tag || !sqe_join_keys_eq(t, nk, e, h->pk, i)) continue;
            j->flags[i] = SQE_JOIN_G_NONEMPTY | (ix->has_null[e] ? SQE_JOIN_G_NULL : 0);
            break;
        }
    }
}

static bool hj_start(sqe_join_op *j, sqe_error *err) {
    hj_op *h = (hj_op *)j;
    const sqe_join_table *t = j->t;
    sqe_batch *b = j->in;
    uint32_t n = j->n_in;
    for (int k = 0; k < h->n_keys; k++) {
        sqe_vector *v = sqe_expr_eval(h->kstates[k], b, b->sel, n, err);
        if (!v) return false;
        sqe_key_load(v, b->sel, n, h->pk[k], h->pn[k]);
    }
    if (t->spill) { /* rows of partitions on disk go to their probe files */
        hj_hash(h, 0, t->n_part_keys, n);
        if (!sqe_join_spill_route(j, h->h, h->pk, h->pn, h->n_keys, err)) return false;
        n = j->n_in;
    }
    int last = h->n_keys - 1;
    const uint8_t *op_null = h->pn[last];
    if (!h->null_aware) {
        hj_hash(h, 0, h->n_keys, n);
        hj_heads(h, &t->full, n, h->cur0, h->tag0, NULL, 0);
        return true;
    }
    hj_hash(h, 0, last, n); /* the correlation keys */
    if (h->na_residual) {
        /* NULL operand: every correlated row; else the correlated rows
         * with a NULL operand, then (below) the equal ones. */
        hj_heads(h, &t->corr_all, n, h->cur0, h->tag0, op_null, 0);
        hj_heads(h, &t->corr_null, n, h->cur1, h->tag1, op_null, 1);
    } else {
        hj_groups(h, n);
    }
    hj_hash(h, last, h->n_keys, n);
    if (!h->na_residual) {
        hj_heads(h, &t->full, n, h->cur0, h->tag0, NULL, 0);
        return true;
    }
    for (uint32_t i = 0; i < n; i++) /* keep the corr_all heads of NULL operands */
        if (!op_null[i]) {
            h->tag0[i] = (uint32_t)(h->h[i] >> 32);
            h->cur0[i] = hj_any_null(h, h->n_keys, i) ? 0 : t->full.heads[h->h[i] & t->full.mask];
        }
    return true;
}

/* Walks one chain of probe row i from *cur, adding pairs (at most *budget,
 * never past SQE_BATCH_ROWS) or, in direct mode, the hit. Returns false
 * when it had to stop early: *cur then holds where to resume. */
static bool hj_walk(hj_op *h, const sqe_join_index *ix, uint32_t i, uint32_t *cur, uint32_t tag,
                    uint32_t *budget) {
    sqe_join_op *j = &h->j;
    const sqe_join_table *t = j->t;
    int nk = ix->n_keys;
    uint32_t c = *cur;
    *cur = 0;
    while (c) {
        if (j->n_pairs == SQE_BATCH_ROWS || *budget == 0) {
            *cur = c;
            return false;
        }
        uint32_t row = c - 1;
        c = ix->links[row].next;
        if (ix->links[row].tag != tag || !sqe_join_keys_eq(t, nk, row, h->pk, i)) continue;
        if (j->direct) {
            j->hits[i] = 1;
            return true;
        }
        j->pi[j->n_pairs] = (uint16_t)i;
        j->pb[j->n_pairs++] = row;
        (*budget)--;
    }
    return true;
}

static const sqe_join_index *hj_first_index(const hj_op *h, uint32_t i) {
    const sqe_join_table *t = h->j.t;
    return h->na_residual && h->pn[h->n_keys - 1][i] ? &t->corr_all : &t->full;
}

/* The first chain, then (null-aware with residual) the second. Rows are
 * filled in ascending order, so the first entry of row i + PF is
 * prefetched: its chain link and first key are random accesses into
 * arrays as large as the build side. */
static bool hj_fill_row(sqe_join_op *j, uint32_t i, uint32_t *budget) {
    enum { PF = 32 };
    hj_op *h = (hj_op *)j;
    const sqe_join_table *t = j->t;
    if (i + PF < j->n_in && h->cur0[i + PF]) {
        uint32_t e = h->cur0[i + PF] - 1;
        __builtin_prefetch(&hj_first_index(h, i + PF)->links[e]);
        __builtin_prefetch(&t->keys[0][e]);
    }
    const sqe_join_index *ix0 = hj_first_index(h, i);
    if (!hj_walk(h, ix0, i, &h->cur0[i], h->tag0[i], budget)) return true;
    if (h->na_residual && !hj_walk(h, &t->corr_null, i, &h->cur1[i], h->tag1[i], budget))
        return true;
    return false;
}

/* Null-aware with residual: a pair that passed the residual puts its build
 * row in G; it is an equal operand (TRUE), a NULL operand (G holds NULL),
 * or, for a NULL probe operand, just proof that G is non-empty (NULL). */
static bool hj_accept_na(sqe_join_op *j, const uint16_t *sel, uint32_t k, sqe_error *err) {
    SQE_UNUSED(err);
    hj_op *h = (hj_op *)j;
    const sqe_join_table *t = j->t;
    int last = h->n_keys - 1;
    for (uint32_t r = 0; r < k; r++) {
        uint32_t p = sel ? sel[r] : r;
        uint16_t i = j->pi[p];
        uint32_t row = j->pb[p];
        j->flags[i] |= SQE_JOIN_G_NONEMPTY;
        if (h->pn[last][i])
            j->flags[i] |= SQE_JOIN_DECIDED; /* NULL IN non-empty G: NULL */
        else if (t->knull[last][row])        /* every equal row came before */
            j->flags[i] |= SQE_JOIN_G_NULL | SQE_JOIN_DECIDED;
        else if (sqe_key_eq(t->kc[last], &t->keys[last][row], &h->pk[last][i]))
            j->hits[i] = 1;
    }
    return true;
}

/* Null-aware marks from hits and group flags (see the essay). */
static void hj_finish_na(sqe_join_op *j) {
    hj_op *h = (hj_op *)j;
    const uint8_t *operand_null = h->pn[h->n_keys - 1];
    for (uint32_t i = 0; i < j->n_in; i++) {
        uint8_t f = j->flags[i];
        if (j->hits[i])
            j->mark[i] = 1;
        else if ((f & SQE_JOIN_G_NONEMPTY) && (operand_null[i] || (f & SQE_JOIN_G_NULL)))
            j->mark[i] = 2;
        else
            j->mark[i] = 0;
    }
}

static const sqe_join_probe_vt hj_vt = {hj_start, hj_fill_row, NULL, NULL};
static const sqe_join_probe_vt hj_vt_na = {hj_start, hj_fill_row, NULL, hj_finish_na};
static const sqe_join_probe_vt hj_vt_na_residual = {hj_start, hj_fill_row, hj_accept_na,
                                                    hj_finish_na};

static bool hj_open(sqe_op *op, sqe_error *err) {
    hj_op *h = (hj_op *)op;
    const sqe_plan *p = op->plan;
    h->n_keys = p->u.join.n_keys;
    h->null_aware = p->u.join.null_aware;
    if (h->n_keys < 1)
        return sqe_error_set(err, SQE_ERR_INTERNAL, "HashJoinExec without join keys");
    const sqe_join_probe_vt *vt = &hj_vt;
    if (h->null_aware) vt = p->u.join.residual ? &hj_vt_na_residual : &hj_vt_na;
    h->na_residual = h->null_aware && p->u.join.residual;
    if (!sqe_join_open(&h->j, vt, err)) return false;
    h->kstates = sqe_calloc((size_t)h->n_keys, sizeof *h->kstates);
    h->pk = sqe_calloc((size_t)h->n_keys, sizeof *h->pk);
    h->pn = sqe_calloc((size_t)h->n_keys, sizeof *h->pn);
    for (int k = 0; k < h->n_keys; k++) {
        if (!(h->kstates[k] = sqe_exec_expr_state_new(op, p->u.join.left_keys[k], err)))
            return false;
        h->pk[k] = sqe_malloc(SQE_BATCH_ROWS * sizeof **h->pk);
        h->pn[k] = sqe_malloc(SQE_BATCH_ROWS);
    }
    h->h = sqe_malloc(SQE_BATCH_ROWS * sizeof *h->h);
    h->cur0 = sqe_calloc(SQE_BATCH_ROWS, sizeof *h->cur0);
    h->tag0 = sqe_calloc(SQE_BATCH_ROWS, sizeof *h->tag0);
    h->cur1 = sqe_calloc(SQE_BATCH_ROWS, sizeof *h->cur1);
    h->tag1 = sqe_calloc(SQE_BATCH_ROWS, sizeof *h->tag1);
    return true;
}

static bool hj_next(sqe_op *op, sqe_batch **out, bool *eof, sqe_error *err) {
    return sqe_join_next((sqe_join_op *)op, out, eof, err);
}

static void hj_close(sqe_op *op) {
    hj_op *h = (hj_op *)op;
    sqe_join_close(&h->j);
    if (h->kstates)
        for (int k = 0; k < h->n_keys; k++) {
            sqe_expr_state_free(h->kstates[k]);
            sqe_free(h->pk[k]);
            sqe_free(h->pn[k]);
        }
    sqe_free(h->kstates);
    sqe_free(h->pk);
    sqe_free(h->pn);
    sqe_free(h->h);
    sqe_free(h->cur0);
    sqe_free(h->tag0);
    sqe_free(h->cur1);
    sqe_free(h->tag1);
    h->kstates = NULL;
    h->pk = NULL;
    h->pn = NULL;
    h->h = NULL;
    h->cur0 = h->tag0 = h->cur1 = h->tag1 = NULL;
}

static const sqe_op_vtable hj_vtable = {"HashJoinExec", hj_open, hj_next, hj_close};

sqe_op *sqe_exec_hash_join_new(sqe_exec_ctx *ctx, const sqe_plan *p) {
    hj_op *h = sqe_calloc(1, sizeof *h);
    h->j.base.vt = &hj_vtable;
    h->j.base.plan = p;
    h->j.base.ctx = ctx;
    return &h->j.base;
}
