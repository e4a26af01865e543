/*
 * topn.c - TopNExec: ORDER BY ... LIMIT n [OFFSET m].
 *
 * Keeps the K = n + m best rows seen so far. State (topn_state):
 *   best  a row store holding at most K rows in sorted order
 *   cand  a row store of candidate rows not yet ranked
 *   worst the key slots of best's last row, once best holds K rows
 * Every row carries its order tag (hidden last column, see sqe_sink_vtable)
 * and the tag is the last sort key, so ties on the ORDER BY keys go to the
 * earlier row, with one thread or many. An incoming row is a candidate only
 * when best is not yet full or the row sorts strictly before `worst`; most
 * rows of a large input are rejected by one key comparison without being
 * copied. When cand reaches max(K, 2048) rows, compact() appends it to
 * best, sorts (stable merge sort), keeps the first K rows in a fresh store
 * and recomputes `worst`.
 *
 * Memory. A state reserves (sqe_exec_mem_reserve) its rows plus what the
 * next compaction needs: the sort's per-row arrays and the fresh store.
 * With a small K that is tiny. A large OFFSET makes K large; when a state
 * cannot reserve its rows it degrades to the external sort (sqe_sorter,
 * sort.c): its rows move into a sort local, and every later row that passes
 * `worst` (still a valid bound: rows after it cannot be in the top K) goes
 * there too, spilling sorted runs as needed. Once any state has switched,
 * merge moves every state into the sorter, and output skips m rows of the
 * merged order and returns n. The answer is the same either way (the tag
 * makes the order total). Only when not even one batch fits does the query
 * fail, with RESOURCE_EXHAUSTED "... in TopNExec".
 *
 * Dynamic filter. When the first ORDER BY key is a plain column of the scan
 * at the bottom of the input (through FILTER/PROJECT only), open registers
 * an sqe_exec_dyn for that scan, and every state publishes its `worst`'s
 * first key whenever compaction sets it (a state compacts as soon as it
 * holds K rows, so the bound comes after the first batches, not after 2048
 * candidates). Any state's K-th row bounds the answer, so the filter keeps
 * the tightest; the scan and the reader drop what sorts strictly after it.
 *
 * As a sink, each pipeline copy keeps its own state; merge compacts a local
 * state and appends its best rows to the global candidates. Output skips the
 * first m rows of the final best.
 */
#include "exec/exec_int.h"

typedef struct topn_state {
    sqe_rowstore best, cand;
    bool have_worst;
    sqe_key_slot *worst;
    uint8_t *worst_null;
    char **worst_own; /* per key: owned copy of a long string worst (after fallback) */
    size_t tracked;
    sqe_sort_local *sl; /* the state's local in the external sort (empty until it falls back) */
    bool fell_back;     /* rows go to sl */
    /* batch scratch */
    sqe_key_slot **tmp;
    uint8_t **tmpn;
    uint16_t *pass;
    sqe_vector *dyn_v; /* one row: worst's first key as a value to publish (NULL: no filter) */
} topn_state;

typedef struct topn_op {
    sqe_op base;
    uint64_t k;
    int n_keys; /* ORDER BY keys + the tag key */
    sqe_sort_key *keys;
    sqe_type *types; /* n_out + 1 */
    sqe_key_class *kc;
    topn_state *global;
    sqe_sorter *sorter; /* the fallback for a K that does not fit */
    bool use_sorter;    /* some state fell back: everything goes through the sorter */
    bool built;
    uint32_t *idx;
    size_t pos, end;
    uint64_t skip, left; /* sorter output: rows still to skip, to return */
    sqe_batch *out;
    sqe_exec_dyn *dyn; /* dynamic filter on the first key's scan column, or NULL */
} topn_op;

static topn_state *state_new(topn_op *op) {
    const sqe_plan *p = op->base.plan;
    topn_state *s = sqe_calloc(1, sizeof *s);
    sqe_rowstore_init(&s->best, p->n_out + 1, op->types, true);
    sqe_rowstore_init(&s->cand, p->n_out + 1, op->types, true);
    int nk = op->n_keys > 0 ? op->n_keys : 1;
    s->worst = sqe_calloc((size_t)nk, sizeof *s->worst);
    s->worst_null = sqe_calloc((size_t)nk, 1);
    s->worst_own = sqe_calloc((size_t)nk, sizeof *s->worst_own);
    s->tmp = sqe_calloc((size_t)nk, sizeof *s->tmp);
    s->tmpn = sqe_calloc((size_t)nk, sizeof *s->tmpn);
    for (int k = 0; k < op->n_keys; k++) {
        s->tmp[k] = sqe_malloc(SQE_BATCH_ROWS * sizeof(sqe_key_slot));
        s->tmpn[k] = sqe_malloc(SQE_BATCH_ROWS);
    }
    s->pass = sqe_malloc(SQE_BATCH_ROWS * sizeof *s->pass);
    if (op->dyn) s->dyn_v = sqe_vector_new(op->types[op->keys[0].col]);
    /* Made now (empty) so the sorter counts every state when it splits the
     * memory limit into shares. */
    s->sl = sqe_sort_local_new(op->sorter);
    return s;
}

static void state_free(topn_op *op, topn_state *s) {
    if (!s) return;
    sqe_exec_mem_track(op->base.ctx, &s->tracked, 0, "TopNExec", NULL);
    sqe_rowstore_free(&s->best);
    sqe_rowstore_free(&s->cand);
    sqe_sort_local_free(s->sl);
    for (int k = 0; k < op->n_keys; k++) {
        sqe_free(s->tmp[k]);
        sqe_free(s->tmpn[k]);
        sqe_free(s->worst_own[k]);
    }
    sqe_free(s->tmp);
    sqe_free(s->tmpn);
    sqe_free(s->worst);
    sqe_free(s->worst_null);
    sqe_free(s->worst_own);
    sqe_free(s->pass);
    sqe_vector_free(s->dyn_v);
    sqe_free(s);
}

/* Memory a state needs: its rows, plus for the next compaction the sort's
 * per-row arrays and the fresh store of at most K rows. */
static size_t state_need(const topn_op *op, const topn_state *s) {
    size_t rows = s->best.n_rows + s->cand.n_rows;
    size_t bytes = s->best.bytes + s->cand.bytes;
    if (rows == 0) return 0;
    size_t keep = (uint64_t)rows <= op->k
                      ? bytes
                      : (size_t)((double)bytes * ((double)op->k / (double)rows)) + 1;
    return bytes + keep + rows * SQE_SORT_PEAK_ROW(op->n_keys);
}

/* Publishes the first key of s's K-th row as the dynamic filter's bound
 * (the filter keeps it only when tighter than what other states gave). */
static void publish(topn_op *op, topn_state *s) {
    if (!op->dyn || !s->dyn_v) return;
    sqe_vector_reset(s->dyn_v);
    sqe_key_store(s->dyn_v, 0, &s->worst[0], &s->worst_null[0], 1);
    sqe_value v;
    sqe_vector_get_value(s->dyn_v, 0, &v);
    sqe_dyn_filter_publish(op->dyn->f, &v);
}

/* Ranks best + cand and keeps the first K rows in best. */
static void compact(topn_op *op, topn_state *s) {
    if (s->cand.n_rows == 0) return;
    sqe_rowstore_adopt(&s->best, &s->cand);
    size_t n = s->best.n_rows;
    uint32_t *idx = sqe_malloc(n * sizeof *idx);
    sqe_rowstore_indexes(&s->best, idx);
    sqe_rowstore_sort(&s->best, op->keys, op->n_keys, idx, n);
    size_t keep = (size_t)SQE_MIN((uint64_t)n, op->k);
    sqe_rowstore fresh;
    sqe_rowstore_init(&fresh, s->best.n_cols, s->best.types, true);
    sqe_rowstore_append_rows(&fresh, &s->best, idx, keep);
    sqe_free(idx);
    sqe_rowstore_free(&s->best);
    s->best = fresh;
    s->have_worst = keep > 0 && (uint64_t)keep == op->k;
    if (s->have_worst) {
        uint32_t last = (uint32_t)((s->best.chunks.len - 1) << SQE_ROWSTORE_SHIFT) |
                        (s->best.chunks.items[s->best.chunks.len - 1].n - 1);
        for (int k = 0; k < op->n_keys; k++) {
            uint32_t row;
            const sqe_vector *v = sqe_rowstore_col(&s->best, last, op->keys[k].col, &row);
            uint16_t r16 = (uint16_t)row;
            sqe_key_load(v, &r16, 1, &s->worst[k], &s->worst_null[k]);
        }
        publish(op, s);
    }
}

static size_t compact_threshold(const topn_op *op) {
    return (size_t)SQE_MAX(op->k, (uint64_t)SQE_BATCH_ROWS);
}

/* Switches state s to the external sort: its rows move into a sort local
 * (which reserves or spills them). `worst` keeps filtering, so a long
 * string in it is copied out of the rows that may now be freed. */
static bool state_fall_back(topn_op *op, topn_state *s, sqe_error *err) {
    if (s->fell_back) return true;
    s->fell_back = true;
    if (s->have_worst)
        for (int k = 0; k < op->n_keys; k++) {
            sqe_key_slot *w = &s->worst[k];
            if (op->kc[k] != SQE_KEY_STR || s->worst_null[k] || w->s.len <= SQE_STRING_INLINE)
                continue;
            s->worst_own[k] = sqe_malloc(w->s.len);
            memcpy(s->worst_own[k], w->s.u.ptr, w->s.len);
            w->s.u.ptr = s->worst_own[k];
        }
    sqe_exec_mem_reserve(op->base.ctx, &s->tracked, 0);
    return sqe_sort_local_adopt(s->sl, &s->best, err) && sqe_sort_local_adopt(s->sl, &s->cand, err);
}

/* Reserves what s needs, within its share of the limit; otherwise falls
 * back to the external sort. */
static bool state_reserve(topn_op *op, topn_state *s, sqe_error *err) {
    size_t need = state_need(op, s);
    if (need <= sqe_sorter_share(op->sorter) &&
        sqe_exec_mem_reserve(op->base.ctx, &s->tracked, need))
        return true;
    return state_fall_back(op, s, err);
}

static void *topn_local_new(sqe_op *op) {
    return state_new((topn_op *)op);
}
static void topn_local_free(sqe_op *op, void *l) {
    state_free((topn_op *)op, l);
}

static bool topn_consume(sqe_op *op_, void *l, sqe_batch *b, uint64_t tag_base, sqe_error *err) {
    topn_op *op = (topn_op *)op_;
    topn_state *s = l;
    uint32_t n = sqe_batch_live(b);
    if (n == 0) return true;
    const uint16_t *rows = b->sel;
    uint32_t np = n;
    if (s->have_worst) {
        int nk = op->n_keys - 1; /* the last key is the tag */
        for (int k = 0; k < nk; k++)
            sqe_key_load(b->cols[op->keys[k].col], b->sel, n, s->tmp[k], s->tmpn[k]);
        for (uint32_t i = 0; i < n; i++) {
            s->tmp[nk][i].i = (int64_t)(tag_base + sqe_batch_row(b, i));
            s->tmpn[nk][i] = 0;
        }
        np = 0;
        for (uint32_t i = 0; i < n; i++) {
            int c = 0;
            for (int k = 0; k < op->n_keys && c == 0; k++)
                c = sqe_key_cmp_sort(&op->keys[k], op->kc[k], &s->tmp[k][i], s->tmpn[k][i],
                                     &s->worst[k], s->worst_null[k]);
            if (c < 0) s->pass[np++] = (uint16_t)sqe_batch_row(b, i);
        }
        rows = s->pass;
    }
    if (np == 0) return true;
    if (s->fell_back) return sqe_sort_local_add(s->sl, b, rows, np, tag_base, err);
    sqe_rowstore_append(&s->cand, b, rows, np, tag_base);
    if (!state_reserve(op, s, err)) return false;
    if (s->fell_back) return true;
    /* Compacting as soon as K rows are held gives `worst` (and the
     * dynamic filter's bound) early, instead of after 2048 candidates. */
    if (s->cand.n_rows >= compact_threshold(op) ||
        (!s->have_worst && s->best.n_rows + s->cand.n_rows >= op->k)) {
        compact(op, s);
        sqe_exec_mem_reserve(op_->ctx, &s->tracked, state_need(op, s)); /* shrinks */
    }
    return true;
}

/* Moves state s (and its rows) into the sorter; frees s. */
static bool state_to_sorter(topn_op *op, topn_state *s, sqe_error *err) {
    bool ok = state_fall_back(op, s, err);
    if (ok) {
        sqe_sorter_adopt(op->sorter, s->sl);
        s->sl = NULL;
    }
    state_free(op, s);
    return ok;
}

static bool topn_merge(sqe_op *op_, void *l, sqe_error *err) {
    topn_op *op = (topn_op *)op_;
    topn_state *s = l;
    if (!op->use_sorter && !s->fell_back) {
        if (!op->global) {
            op->global = s;
            return true;
        }
        compact(op, s);
        sqe_rowstore_adopt(&op->global->cand, &s->best);
        state_free(op, s);
        topn_state *g = op->global;
        if (!state_reserve(op, g, err)) return false;
        if (!g->fell_back) {
            if (g->cand.n_rows >= compact_threshold(op)) compact(op, g);
            sqe_exec_mem_reserve(op_->ctx, &g->tracked, state_need(op, g));
            return true;
        }
        s = NULL; /* the global state fell back: everything goes to the sorter */
    }
    if (!op->use_sorter) {
        op->use_sorter = true;
        topn_state *g = op->global;
        op->global = NULL;
        if (g && !state_to_sorter(op, g, err)) {
            if (s) state_free(op, s);
            return false;
        }
    }
    return s ? state_to_sorter(op, s, err) : true;
}

static const sqe_sink_vtable topn_sink = {topn_local_new, topn_consume, topn_merge,
                                          topn_local_free};

/* The dynamic filter of a TopN whose first key is a plain column of the
 * scan at the bottom of its input (through filters and projections that
 * pass the column on, nothing that adds, merges or changes rows), or NULL.
 * Rows the scan drops sort after the K-th row some state holds, so they
 * could not have entered the result. */
static sqe_exec_dyn *topn_dyn(sqe_op *op_) {
    const sqe_plan *p = op_->plan;
    if (p->u.sort.n_keys < 1 || p->n_children < 1) return NULL;
    int col = p->u.sort.keys[0].col;
    const sqe_plan *c = p->children[0];
    while (c && col >= 0 && col < c->n_out) {
        if (c->kind == SQE_PLAN_FILTER) {
            c = c->children[0];
        } else if (c->kind == SQE_PLAN_PROJECT) {
            const sqe_expr *e = c->u.project.exprs[col];
            if (!e || e->kind != SQE_EXPR_COLUMN) return NULL;
            col = e->col;
            c = c->children[0];
        } else {
            break;
        }
    }
    if (!c || c->kind != SQE_PLAN_SCAN || col < 0 || col >= c->u.scan.n_cols) return NULL;
    const sqe_hive_table *t = c->u.scan.table;
    int tcol = c->u.scan.cols[col];
    sqe_type ty = c->out_types[col];
    if (!sqe_type_equal(ty, p->out_types[p->u.sort.keys[0].col])) return NULL;
    int reader_col = t && tcol >= 0 && tcol < t->n_cols ? tcol : -1;
    return sqe_exec_dyn_register(op_->ctx, c, col, p->u.sort.keys[0], reader_col, ty);
}

static bool topn_open(sqe_op *op_, sqe_error *err) {
    SQE_UNUSED(err);
    topn_op *op = (topn_op *)op_;
    const sqe_plan *p = op_->plan;
    uint64_t lim = p->u.sort.limit, off = p->u.sort.offset;
    op->k = lim > UINT64_MAX - off ? UINT64_MAX : lim + off;
    op->types = sqe_calloc((size_t)p->n_out + 1, sizeof *op->types);
    for (int i = 0; i < p->n_out; i++) op->types[i] = p->out_types[i];
    op->types[p->n_out] = sqe_type_make(SQE_T_BIGINT);
    op->n_keys = p->u.sort.n_keys + 1;
    op->keys = sqe_calloc((size_t)op->n_keys, sizeof *op->keys);
    for (int k = 0; k < p->u.sort.n_keys; k++) op->keys[k] = p->u.sort.keys[k];
    op->keys[p->u.sort.n_keys] = (sqe_sort_key){p->n_out, false, false};
    op->kc = sqe_calloc((size_t)op->n_keys, sizeof *op->kc);
    for (int k = 0; k < op->n_keys; k++) op->kc[k] = sqe_key_class_of(op->types[op->keys[k].col]);
    op->sorter =
        sqe_sorter_new(op_->ctx, "TopNExec", p->n_out + 1, op->types, op->n_keys, op->keys);
    op->out = sqe_batch_new(p->n_out, p->out_types);
    op->dyn = topn_dyn(op_);
    return true;
}

/* Output through the sorter: skips `skip` rows, then returns `left`. */
static bool topn_next_sorted(topn_op *op, sqe_batch **out, bool *eof, sqe_error *err) {
    for (;;) {
        if (op->left == 0) {
            *eof = true;
            return true;
        }
        if (!sqe_sorter_next(op->sorter, op->out, eof, err)) return false;
        if (*eof) return true;
        uint32_t n = op->out->n_rows;
        uint32_t s = (uint32_t)SQE_MIN(op->skip, (uint64_t)n);
        op->skip -= s;
        uint32_t t = (uint32_t)SQE_MIN((uint64_t)(n - s), op->left);
        op->left -= t;
        if (t == 0) continue;
        if (s > 0 || t < n) {
            for (uint32_t i = 0; i < t; i++) op->out->sel_buf[i] = (uint16_t)(s + i);
            op->out->sel = op->out->sel_buf;
            op->out->n_sel = t;
        }
        *out = op->out;
        return true;
    }
}

static bool topn_next(sqe_op *op_, sqe_batch **out, bool *eof, sqe_error *err) {
    topn_op *op = (topn_op *)op_;
    const sqe_plan *p = op_->plan;
    if (!op->built) {
        op->built = true;
        if (p->u.sort.limit == 0) {
            *eof = true;
            return true;
        }
        if (!sqe_exec_drain(op_, 0, &topn_sink, err)) return false;
        if (op->use_sorter) {
            if (!sqe_sorter_finish(op->sorter, err)) return false;
            op->skip = p->u.sort.offset;
            op->left = p->u.sort.limit;
        } else {
            if (!op->global) {
                *eof = true;
                return true;
            }
            compact(op, op->global);
            size_t n = op->global->best.n_rows;
            op->idx = sqe_malloc((n > 0 ? n : 1) * sizeof *op->idx);
            sqe_rowstore_indexes(&op->global->best, op->idx);
            op->pos = (size_t)SQE_MIN((uint64_t)n, p->u.sort.offset);
            op->end = n;
        }
    }
    if (op->use_sorter) return topn_next_sorted(op, out, eof, err);
    if (op->pos >= op->end) {
        *eof = true;
        return true;
    }
    uint32_t m = (uint32_t)SQE_MIN((size_t)SQE_BATCH_ROWS, op->end - op->pos);
    sqe_batch_reset(op->out);
    sqe_rowstore_gather(&op->global->best, op->idx + op->pos, m, op->out);
    op->pos += m;
    *eof = false;
    *out = op->out;
    return true;
}

static void topn_close(sqe_op *op_) {
    topn_op *op = (topn_op *)op_;
    state_free(op, op->global);
    op->global = NULL;
    sqe_sorter_free(op->sorter);
    op->sorter = NULL;
    sqe_free(op->idx);
    op->idx = NULL;
    sqe_free(op->kc);
    op->kc = NULL;
    sqe_free(op->keys);
    op->keys = NULL;
    sqe_free(op->types);
    op->types = NULL;
    sqe_batch_free(op->out);
    op->out = NULL;
}

static const sqe_op_vtable topn_vtable = {"TopNExec", topn_open, topn_next, topn_close};

sqe_op *sqe_exec_topn_new(sqe_exec_ctx *ctx, const sqe_plan *p) {
    topn_op *op = sqe_calloc(1, sizeof *op);
    op->base.vt = &topn_vtable;
    op->base.plan = p;
    op->base.ctx = ctx;
    return &op->base;
}
