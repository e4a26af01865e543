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
 *           chain: NULL never matches.
 *   fill    walk the chains from a cursor (probe row, chain position),
 *           comparing the 32-bit tag, then the key slots; each match is a
 *           candidate pair. The cursor survives a full pair buffer, so a
 *           probe row with 3000 matches spans two output batches.
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
 *   the distinct `corr` index holds one entry per correlation tuple with a
 *   flag "holds a NULL operand", looked up once per probe row in start.
 *   With a residual: the residual is part of G's definition (a row of G
 *   must satisfy it with the probe row: `x IN (SELECT y FROM t WHERE
 *   t.a > o.b)`), so every correlated build row must be seen pair by pair:
 *   fill walks the `corr` index, which then chains every row (with one key:
 *   the whole build side, i.e. a nested loop), the residual filters the
 *   pairs, and accept classifies the survivors: G non-empty, a NULL
 *   operand, or an equal one. Correct, but quadratic when the correlation
 *   keys are few; the planner should prefer it only for small build sides.
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
    const sqe_join_index *ix; /* the index fill walks */
    sqe_expr_state **kstates; /* per left key */
    sqe_key_slot **pk;        /* per key: slot per live probe row */
    uint8_t **pn;             /* per key: NULL flag per live probe row */
    uint64_t *h;              /* scratch hashes */
    uint32_t *tag;            /* per live probe row: tag in ix */
    uint32_t *cur;            /* per live probe row: next chain entry + 1 */
    uint32_t ci;              /* fill cursor: live probe row */
} hj_op;

/* Chain heads in ix for the hashes in h->h (keys 0..ix->n_keys-1); rows
 * with a NULL among them get none. */
static void hj_heads(hj_op *h, const sqe_join_index *ix, uint32_t n) {
    int nk = ix->n_keys;
    enum { PF = 8 };
    for (uint32_t i = 0; i < n; i++) {
        if (i + PF < n) __builtin_prefetch(&ix->heads[h->h[i + PF] & ix->mask]);
        bool null = false;
        for (int k = 0; k < nk; k++) null |= h->pn[k][i];
        h->tag[i] = (uint32_t)(h->h[i] >> 32);
        h->cur[i] = null ? 0 : ix->heads[h->h[i] & ix->mask];
    }
}

/* Null-aware without residual: the group flags of every live probe row
 * (h->h holds the correlation hashes). */
static void hj_groups(hj_op *h, uint32_t n) {
    sqe_join_op *j = &h->j;
    const sqe_join_table *t = j->t;
    const sqe_join_index *ix = &t->corr;
    int nk = ix->n_keys;
    for (uint32_t i = 0; i < n; i++) {
        bool null = false;
        for (int k = 0; k < nk; k++) null |= h->pn[k][i];
        j->flags[i] = 0;
        if (null) continue;
        uint32_t tag = (uint32_t)(h->h[i] >> 32);
        for (uint32_t c = ix->heads[h->h[i] & ix->mask]; c; c = ix->next[c - 1]) {
            uint32_t e = c - 1;
            if (ix->tags[e] != tag || !sqe_join_keys_eq(t, nk, e, h->pk, i)) continue;
            j->flags[i] = SQE_JOIN_G_NONEMPTY | (ix->has_null[e] ? SQE_JOIN_G_NULL : 0);
            break;
        }
    }
}

static bool hj_start(sqe_join_op *j, sqe_error *err) {
    hj_op *h = (hj_op *)j;
    sqe_batch *b = j->in;
    uint32_t n = j->n_in;
    for (int k = 0; k < h->n_keys; k++) {
        sqe_vector *v = sqe_expr_eval(h->kstates[k], b, b->sel, n, err);
        if (!v) return false;
        sqe_key_load(v, b->sel, n, h->pk[k], h->pn[k]);
    }
    int last = h->n_keys - 1;
    if (h->null_aware) {
        if (last == 0)
            for (uint32_t i = 0; i < n; i++) h->h[i] = SQE_JOIN_NO_KEYS_HASH;
        for (int k = 0; k < last; k++)
            sqe_join_hash_col(j->t->kc[k], h->pk[k], h->pn[k], n, k, h->h);
        if (h->ix == &j->t->corr) { /* residual: walk the correlated rows */
            hj_heads(h, h->ix, n);
            h->ci = 0;
            return true;
        }
        hj_groups(h, n);
        sqe_join_hash_col(j->t->kc[last], h->pk[last], h->pn[last], n, last, h->h);
    } else {
        for (int k = 0; k < h->n_keys; k++)
            sqe_join_hash_col(j->t->kc[k], h->pk[k], h->pn[k], n, k, h->h);
    }
    hj_heads(h, h->ix, n);
    h->ci = 0;
    return true;
}

static void hj_fill(sqe_join_op *j) {
    hj_op *h = (hj_op *)j;
    const sqe_join_table *t = j->t;
    const sqe_join_index *ix = h->ix;
    int nk = ix->n_keys;
    for (; h->ci < j->n_in; h->ci++) {
        uint32_t i = h->ci;
        if (j->early_stop && j->hits[i]) continue;
        uint32_t tag = h->tag[i];
        for (uint32_t c = h->cur[i]; c;) {
            uint32_t row = c - 1;
            c = ix->next[row];
            if (ix->tags[row] != tag || !sqe_join_keys_eq(t, nk, row, h->pk, i)) continue;
            if (j->direct) {
                j->hits[i] = 1;
                break;
            }
            j->pi[j->n_pairs] = (uint16_t)i;
            j->pb[j->n_pairs] = row;
            if (++j->n_pairs == SQE_BATCH_ROWS) {
                h->cur[i] = c; /* resume here */
                return;
            }
        }
    }
    j->exhausted = true;
}

/* Null-aware with residual: the correlated pairs that passed the residual
 * make G non-empty; each tells whether G holds a NULL or an equal operand. */
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
        if (t->knull[last][row])
            j->flags[i] |= SQE_JOIN_G_NULL;
        else if (!h->pn[last][i] && sqe_key_eq(t->kc[last], &t->keys[last][row], &h->pk[last][i]))
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

static const sqe_join_probe_vt hj_vt = {hj_start, hj_fill, NULL, NULL};
static const sqe_join_probe_vt hj_vt_na = {hj_start, hj_fill, NULL, hj_finish_na};
static const sqe_join_probe_vt hj_vt_na_residual = {hj_start, hj_fill, hj_accept_na, hj_finish_na};

static bool hj_open(sqe_op *op, sqe_error *err) {
    hj_op *h = (hj_op *)op;
    const sqe_plan *p = op->plan;
    h->n_keys = p->u.join.n_keys;
    h->null_aware = p->u.join.null_aware;
    if (h->n_keys < 1)
        return sqe_error_set(err, SQE_ERR_INTERNAL, "HashJoinExec without join keys");
    const sqe_join_probe_vt *vt = &hj_vt;
    if (h->null_aware) vt = p->u.join.residual ? &hj_vt_na_residual : &hj_vt_na;
    if (!sqe_join_open(&h->j, vt, err)) return false;
    h->ix = h->null_aware && p->u.join.residual ? &h->j.t->corr : &h->j.t->full;
    h->kstates = sqe_calloc((size_t)h->n_keys, sizeof *h->kstates);
    h->pk = sqe_calloc((size_t)h->n_keys, sizeof *h->pk);
    h->pn = sqe_calloc((size_t)h->n_keys, sizeof *h->pn);
    for (int k = 0; k < h->n_keys; k++) {
        h->kstates[k] = sqe_expr_state_new(p->u.join.left_keys[k]);
        h->pk[k] = sqe_malloc(SQE_BATCH_ROWS * sizeof **h->pk);
        h->pn[k] = sqe_malloc(SQE_BATCH_ROWS);
    }
    h->h = sqe_malloc(SQE_BATCH_ROWS * sizeof *h->h);
    h->tag = sqe_malloc(SQE_BATCH_ROWS * sizeof *h->tag);
    h->cur = sqe_malloc(SQE_BATCH_ROWS * sizeof *h->cur);
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
    sqe_free(h->tag);
    sqe_free(h->cur);
    h->kstates = NULL;
    h->pk = NULL;
    h->pn = NULL;
    h->h = NULL;
    h->tag = h->cur = NULL;
}

static const sqe_op_vtable hj_vtable = {"HashJoinExec", hj_open, hj_next, hj_close};

sqe_op *sqe_exec_hash_join_new(sqe_exec_ctx *ctx, const sqe_plan *p) {
    hj_op *h = sqe_calloc(1, sizeof *h);
    h->j.base.vt = &hj_vtable;
    h->j.base.plan = p;
    h->j.base.ctx = ctx;
    return &h->j.base;
}
