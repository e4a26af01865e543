/*
 * sort.c - SortExec (ORDER BY without LIMIT) and the external sort behind
 * it (sqe_sorter, also used by TopNExec for large offsets).
 *
 * Rows and runs. Every pipeline copy feeds its own local (sqe_sort_local):
 * a row store (rowstore.c: owned vectors, string bytes copied) whose rows
 * carry their order tag as a hidden last column. Before copying a batch the
 * local reserves its memory (sqe_exec_mem_reserve): the rows plus what
 * sorting them will need (SQE_SORT_PEAK_ROW per row) plus one batch and one
 * I/O buffer for writing them out. When the reservation fails, or the local
 * would pass its share of the limit (limit / number of locals, so one
 * finished copy cannot starve the others), the local sorts what it holds
 * (on its own thread), writes it as a sorted *run* to a spill file
 * (spill.c), frees it and goes on. Only when even an empty local cannot
 * take one batch does the query fail, with RESOURCE_EXHAUSTED "query
 * exceeded the memory limit of N bytes in SortExec".
 *
 * Finishing. The operator adopts the locals in copy order: their disk runs,
 * and their last rows as in-memory runs. The in-memory runs are sorted in
 * parallel, one task per run on the query's pool (the calling thread takes
 * any task no pool thread has claimed, so this never waits for a busy
 * pool); sorting keeps each run's key slots in sorted order for the merge.
 * If the merge's reading buffers for the disk runs do not fit next to the
 * in-memory runs, in-memory runs are written out (largest first); if they
 * still do not fit, the smallest disk runs are merged into one in passes
 * (as many per pass as fit). With no limit nothing is ever written.
 *
 * Merging. A loser tree over one cursor per run: an in-memory run's cursor
 * walks its sorted addresses and slot arrays; a disk run's cursor holds one
 * decoded batch and its key slots (sqe_key_load). Each pop costs about
 * log2(runs) key comparisons. Output rows are first collected as (run, row)
 * pairs, then copied column by column into the output batch; pending pairs
 * are copied before a disk cursor loads its next batch, since that reuses
 * the batch's vectors. Rows of in-memory runs are output as string views
 * (the runs live until the operator closes), rows of disk runs copy their
 * long strings into the output batch.
 *
 * Determinism: the order tag is the last sort key and no two rows share a
 * tag, so the merged order is total and the same whether the rows came
 * through one thread or many, one run or a hundred.
 */
#include "exec/exec_int.h"

#include <pthread.h>
#include <stdlib.h>

/* --------------------------------------------------------------- sorter */

typedef struct mem_run {
    sqe_rowstore rows;
    uint32_t *idx;        /* sorted row addresses (NULL until sorted) */
    sqe_key_slot **slots; /* per key, in sorted order */
    uint8_t **nulls;
    const sqe_vector **vecs; /* [col * n_chunks + chunk]: saves a pointer chase per value */
    size_t n_chunks;
    size_t tracked;
} mem_run;

struct sqe_sorter {
    sqe_exec_ctx *ctx;
    const char *op_name;
    int n_cols;
    sqe_type *types;
    int n_keys;
    sqe_sort_key *keys;
    sqe_key_class *kc;
    atomic_int n_locals;
    SQE_ARRAY(mem_run *) mem;
    SQE_ARRAY(sqe_spill_file *) disk;
    uint64_t n_rows;
    size_t merge_tracked;
    struct merger *merger; /* after finish */
    bool finished;
};

struct sqe_sort_local {
    sqe_sorter *s;
    sqe_rowstore rows;
    size_t tracked;
    SQE_ARRAY(sqe_spill_file *) disk;
    sqe_batch *scratch; /* for writing runs */
    uint64_t n_rows;
};

static bool mem_limit_error(const sqe_sorter *s, sqe_error *err) {
    return sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED,
                         "query exceeded the memory limit of %zu bytes in %s", s->ctx->memory_limit,
                         s->op_name);
}

/* Bytes of one batch of the sorter's columns without long strings. */
static size_t batch_fixed_bytes(const sqe_sorter *s) {
    size_t w = 0;
    for (int c = 0; c < s->n_cols; c++) w += sqe_type_width(s->types[c]);
    return (size_t)SQE_BATCH_ROWS * w;
}

/* What writing a run needs besides the rows: a batch and an I/O buffer. */
static size_t write_overhead(const sqe_sorter *s) {
    return batch_fixed_bytes(s) + SQE_SPILL_BUF_BYTES;
}

sqe_sorter *sqe_sorter_new(sqe_exec_ctx *ctx, const char *op_name, int n_cols,
                           const sqe_type *types, int n_keys, const sqe_sort_key *keys) {
    sqe_sorter *s = sqe_calloc(1, sizeof *s);
    s->ctx = ctx;
    s->op_name = op_name;
    s->n_cols = n_cols;
    s->types = sqe_calloc((size_t)(n_cols > 0 ? n_cols : 1), sizeof *s->types);
    for (int c = 0; c < n_cols; c++) s->types[c] = types[c];
    s->n_keys = n_keys;
    s->keys = sqe_calloc((size_t)(n_keys > 0 ? n_keys : 1), sizeof *s->keys);
    s->kc = sqe_calloc((size_t)(n_keys > 0 ? n_keys : 1), sizeof *s->kc);
    for (int k = 0; k < n_keys; k++) {
        s->keys[k] = keys[k];
        s->kc[k] = sqe_key_class_of(types[keys[k].col]);
    }
    atomic_init(&s->n_locals, 0);
    return s;
}

static void mem_run_free(sqe_sorter *s, mem_run *r) {
    if (!r) return;
    sqe_exec_mem_reserve(s->ctx, &r->tracked, 0);
    sqe_rowstore_free(&r->rows);
    sqe_free(r->idx);
    if (r->slots)
        for (int k = 0; k < s->n_keys; k++) {
            sqe_free(r->slots[k]);
            sqe_free(r->nulls[k]);
        }
    sqe_free(r->slots);
    sqe_free(r->nulls);
    sqe_free(r->vecs);
    sqe_free(r);
}

static void merger_free(sqe_sorter *s, struct merger *m);

void sqe_sorter_free(sqe_sorter *s) {
    if (!s) return;
    merger_free(s, s->merger);
    for (size_t i = 0; i < s->mem.len; i++) mem_run_free(s, s->mem.items[i]);
    SQE_ARRAY_FREE(s->mem);
    for (size_t i = 0; i < s->disk.len; i++) sqe_spill_close(s->disk.items[i]);
    SQE_ARRAY_FREE(s->disk);
    sqe_exec_mem_reserve(s->ctx, &s->merge_tracked, 0);
    sqe_free(s->types);
    sqe_free(s->keys);
    sqe_free(s->kc);
    sqe_free(s);
}

uint64_t sqe_sorter_rows(const sqe_sorter *s) {
    return s->n_rows;
}

/* A table of rs's vectors, [col * chunks + chunk] (malloc'd): reading a
 * value through it costs one dependent load less than through the chunk's
 * column array, which matters when rows are visited in sorted (random)
 * order. */
static const sqe_vector **vec_table(const sqe_rowstore *rs, int n_cols) {
    size_t n_chunks = rs->chunks.len;
    const sqe_vector **t = sqe_malloc((n_chunks * (size_t)n_cols + 1) * sizeof *t);
    for (int c = 0; c < n_cols; c++)
        for (size_t k = 0; k < n_chunks; k++)
            t[(size_t)c * n_chunks + k] = rs->chunks.items[k].cols[c];
    return t;
}

/* sqe_rowstore_gather through a vector table (strings as views). */
static void gather_rows(const sqe_sorter *s, const sqe_vector *const *vecs, size_t n_chunks,
                        const uint32_t *idx, uint32_t n, sqe_batch *out) {
    for (int col = 0; col < out->n_cols && col < s->n_cols; col++) {
        sqe_vector *dst = out->cols[col];
        size_t w = sqe_type_width(s->types[col]);
        const sqe_vector *const *cv = vecs + (size_t)col * n_chunks;
        for (uint32_t i = 0; i < n; i++) {
            if (i + 8 < n) { /* start the miss on a later row's value early */
                const sqe_vector *pv = cv[idx[i + 8] >> SQE_ROWSTORE_SHIFT];
                __builtin_prefetch((const char *)pv->data +
                                   (size_t)(idx[i + 8] & (SQE_BATCH_ROWS - 1)) * w);
            }
            const sqe_vector *src = cv[idx[i] >> SQE_ROWSTORE_SHIFT];
            uint32_t r = idx[i] & (SQE_BATCH_ROWS - 1);
            if (src->type.id == SQE_T_NULL || sqe_vector_is_null(src, r)) {
                sqe_vector_set_null(dst, i);
                continue;
            }
            sqe_vector_set_valid(dst, i);
            const char *sp = (const char *)src->data + (size_t)r * w;
            char *dp = (char *)dst->data + (size_t)i * w;
            switch (w) {
            case 1:
                *dp = *sp;
                break;
            case 2:
                memcpy(dp, sp, 2);
                break;
            case 4:
                memcpy(dp, sp, 4);
                break;
            case 8:
                memcpy(dp, sp, 8);
                break;
            case 16:
                memcpy(dp, sp, 16);
                break;
            default:
                memcpy(dp, sp, w);
            }
        }
    }
    out->n_rows = n;
    out->sel = NULL;
    out->n_sel = 0;
}

/* Writes rows idx[0..n) of rs, in that order, to a new spill file. */
static bool write_run(sqe_sorter *s, const sqe_rowstore *rs, const uint32_t *idx, size_t n,
                      sqe_batch *scratch, sqe_spill_file **out, sqe_error *err) {
    sqe_spill_file *f = sqe_spill_create(s->ctx, s->n_cols, s->types, s->op_name, err);
    if (!f) return false;
    const sqe_vector **vecs = vec_table(rs, s->n_cols);
    for (size_t pos = 0; pos < n; pos += SQE_BATCH_ROWS) {
        uint32_t m = (uint32_t)SQE_MIN((size_t)SQE_BATCH_ROWS, n - pos);
        if (sqe_exec_stopped(s->ctx, err)) goto fail;
        sqe_batch_reset(scratch);
        gather_rows(s, vecs, rs->chunks.len, idx + pos, m, scratch);
        if (!sqe_spill_write(f, scratch, NULL, m, err)) goto fail;
    }
    sqe_free(vecs);
    if (!sqe_spill_rewind(f, err)) goto fail_closed;
    *out = f;
    return true;
fail:
    sqe_free(vecs);
fail_closed:
    sqe_spill_close(f);
    return false;
}

/* ---------------------------------------------------------------- locals */

sqe_sort_local *sqe_sort_local_new(sqe_sorter *s) {
    sqe_sort_local *l = sqe_calloc(1, sizeof *l);
    l->s = s;
    sqe_rowstore_init(&l->rows, s->n_cols, s->types, true);
    atomic_fetch_add(&s->n_locals, 1);
    return l;
}

void sqe_sort_local_free(sqe_sort_local *l) {
    if (!l) return;
    atomic_fetch_sub(&l->s->n_locals, 1);
    sqe_exec_mem_reserve(l->s->ctx, &l->tracked, 0);
    sqe_rowstore_free(&l->rows);
    for (size_t i = 0; i < l->disk.len; i++) sqe_spill_close(l->disk.items[i]);
    SQE_ARRAY_FREE(l->disk);
    sqe_batch_free(l->scratch);
    sqe_free(l);
}

size_t sqe_sorter_share(const sqe_sorter *s) {
    if (s->ctx->memory_limit == 0) return SIZE_MAX;
    int locals = atomic_load(&s->n_locals);
    return s->ctx->memory_limit / (size_t)(locals > 0 ? locals : 1);
}

/* Memory a local holding rows_bytes in n rows reserves: the rows plus the
 * larger of sorting them and then writing them out (the sorted addresses,
 * a batch and an I/O buffer), which never happen at once. */
static size_t local_need(const sqe_sorter *s, size_t rows_bytes, size_t n) {
    size_t sort = n * SQE_SORT_PEAK_ROW(s->n_keys);
    size_t write = n * sizeof(uint32_t) + write_overhead(s);
    return rows_bytes + SQE_MAX(sort, write);
}

/* Sorts the local's rows, writes them as a run and empties the local. */
static bool local_spill(sqe_sort_local *l, sqe_error *err) {
    sqe_sorter *s = l->s;
    uint32_t *idx = sqe_rowstore_sort_all(&l->rows, s->keys, s->n_keys, NULL, NULL);
    if (!l->scratch) l->scratch = sqe_batch_new(s->n_cols, s->types);
    sqe_spill_file *f = NULL;
    bool ok = write_run(s, &l->rows, idx, l->rows.n_rows, l->scratch, &f, err);
    sqe_free(idx);
    if (!ok) return false;
    SQE_ARRAY_PUSH(NULL, l->disk, f);
    sqe_rowstore_free(&l->rows);
    sqe_rowstore_init(&l->rows, s->n_cols, s->types, true);
    sqe_exec_mem_reserve(s->ctx, &l->tracked, 0);
    return true;
}

/* Makes room in the local for rows (sel ? sel[i] : i), i < n, of b (b NULL:
 * only for the rows it already holds), spilling the local when they do not
 * fit. */
static bool local_reserve(sqe_sort_local *l, const sqe_batch *b, const uint16_t *sel, uint32_t n,
                          sqe_error *err) {
    sqe_sorter *s = l->s;
    sqe_exec_ctx *ctx = s->ctx;
    size_t add = b ? sqe_rowstore_append_bytes(&l->rows, b, sel, n) : 0;
    size_t want = local_need(s, l->rows.bytes + add, l->rows.n_rows + n);
    if (ctx->memory_limit == 0) return sqe_exec_mem_reserve(ctx, &l->tracked, want);
    size_t share = sqe_sorter_share(s);
    if (want <= share && sqe_exec_mem_reserve(ctx, &l->tracked, want)) return true;
    if (l->rows.n_rows > 0) {
        if (!local_spill(l, err)) return false;
        add = b ? sqe_rowstore_append_bytes(&l->rows, b, sel, n) : 0; /* now an empty store */
        want = local_need(s, add, n);
    }
    if (sqe_exec_mem_reserve(ctx, &l->tracked, want)) return true;
    return mem_limit_error(s, err);
}

bool sqe_sort_local_add(sqe_sort_local *l, const sqe_batch *b, const uint16_t *sel, uint32_t n,
                        uint64_t tag_base, sqe_error *err) {
    if (n == 0) return true;
    if (!local_reserve(l, b, sel, n, err)) return false;
    sqe_rowstore_append(&l->rows, b, sel, n, tag_base);
    l->n_rows += n;
    return true;
}

bool sqe_sort_local_adopt(sqe_sort_local *l, sqe_rowstore *rs, sqe_error *err) {
    if (rs->n_rows == 0) return true;
    l->n_rows += rs->n_rows;
    sqe_rowstore_adopt(&l->rows, rs);
    /* The rows are here already: reserve them, or write them all out. */
    return local_reserve(l, NULL, NULL, 0, err);
}

void sqe_sorter_adopt(sqe_sorter *s, sqe_sort_local *l) {
    for (size_t i = 0; i < l->disk.len; i++) SQE_ARRAY_PUSH(NULL, s->disk, l->disk.items[i]);
    SQE_ARRAY_FREE(l->disk);
    s->n_rows += l->n_rows;
    if (l->rows.n_rows > 0) {
        mem_run *r = sqe_calloc(1, sizeof *r);
        r->rows = l->rows;
        r->tracked = l->tracked; /* the reservation moves with the rows */
        l->tracked = 0;
        sqe_rowstore_init(&l->rows, s->n_cols, s->types, true);
        SQE_ARRAY_PUSH(NULL, s->mem, r);
    }
    sqe_sort_local_free(l);
}

/* ---------------------------------------------------------------- merger */

typedef struct cursor {
    mem_run *mem;         /* an in-memory run, or NULL */
    sqe_spill_file *file; /* a disk run (owned by the merger once opened) */
    sqe_batch *batch;     /* disk: the current batch */
    sqe_key_slot **bslots;
    uint8_t **bnulls;
    sqe_key_slot **slots; /* per key: the slots pos indexes */
    uint8_t **nulls;
    size_t pos, n;
    bool done;
} cursor;

typedef struct pending {
    uint32_t cur, row;
} pending;

typedef struct merger {
    cursor *cur;
    int n;
    int *tree; /* tree[0] the winner, tree[1..n) the losers of internal nodes */
    pending *pend;
    size_t tracked;
} merger;

/* Reading memory of one disk run's cursor. */
static size_t cursor_cost(const sqe_sorter *s, const sqe_spill_file *f) {
    return sqe_spill_max_batch_bytes(f) + batch_fixed_bytes(s) / 4 + SQE_SPILL_BUF_BYTES +
           (size_t)SQE_BATCH_ROWS * (size_t)s->n_keys * (sizeof(sqe_key_slot) + 1);
}

static bool cursor_load(sqe_sorter *s, cursor *c, sqe_error *err) {
    bool eof = false;
    if (!sqe_spill_read(c->file, c->batch, &eof, err)) return false;
    if (eof) {
        c->done = true;
        return true;
    }
    c->pos = 0;
    c->n = c->batch->n_rows;
    for (int k = 0; k < s->n_keys; k++)
        sqe_key_load(c->batch->cols[s->keys[k].col], NULL, (uint32_t)c->n, c->bslots[k],
                     c->bnulls[k]);
    return true;
}

static inline int cursor_cmp(const sqe_sorter *s, const cursor *a, const cursor *b) {
    for (int k = 0; k < s->n_keys; k++) {
        int c = sqe_key_cmp_sort(&s->keys[k], s->kc[k], &a->slots[k][a->pos], a->nulls[k][a->pos],
                                 &b->slots[k][b->pos], b->nulls[k][b->pos]);
        if (c) return c;
    }
    return 0;
}

/* Whether cursor a's row comes before cursor b's (finished cursors last). */
static inline bool beats(const sqe_sorter *s, const merger *m, int a, int b) {
    const cursor *ca = &m->cur[a], *cb = &m->cur[b];
    if (ca->done || cb->done) return ca->done == cb->done ? a < b : cb->done;
    int c = cursor_cmp(s, ca, cb);
    return c < 0 || (c == 0 && a < b);
}

static int tree_build(const sqe_sorter *s, merger *m, int node) {
    if (node >= m->n) return node - m->n;
    int a = tree_build(s, m, 2 * node), b = tree_build(s, m, 2 * node + 1);
    if (beats(s, m, a, b)) {
        m->tree[node] = b;
        return a;
    }
    m->tree[node] = a;
    return b;
}

/* The winner's cursor moved: replays its path to the root. */
static inline void tree_replay(const sqe_sorter *s, merger *m) {
    int w = m->tree[0];
    for (int node = (w + m->n) / 2; node >= 1; node /= 2) {
        if (beats(s, m, m->tree[node], w)) {
            int t = m->tree[node];
            m->tree[node] = w;
            w = t;
        }
    }
    m->tree[0] = w;
}

static void merger_free(sqe_sorter *s, merger *m) {
    if (!m) return;
    for (int i = 0; i < m->n; i++) {
        cursor *c = &m->cur[i];
        sqe_spill_close(c->file);
        sqe_batch_free(c->batch);
        if (c->bslots)
            for (int k = 0; k < s->n_keys; k++) {
                sqe_free(c->bslots[k]);
                sqe_free(c->bnulls[k]);
            }
        sqe_free(c->bslots);
        sqe_free(c->bnulls);
    }
    sqe_exec_mem_reserve(s->ctx, &m->tracked, 0);
    sqe_free(m->cur);
    sqe_free(m->tree);
    sqe_free(m->pend);
    sqe_free(m);
}

/* A merger over in-memory runs mem[0..n_mem) (sorted, still owned by the
 * sorter) and disk runs files[0..n_files) (owned by the merger from here,
 * also on failure). The caller has reserved the cursors' memory. */
static merger *merger_open(sqe_sorter *s, mem_run **mem, int n_mem, sqe_spill_file **files,
                           int n_files, sqe_error *err) {
    merger *m = sqe_calloc(1, sizeof *m);
    m->n = n_mem + n_files;
    m->cur = sqe_calloc((size_t)(m->n > 0 ? m->n : 1), sizeof *m->cur);
    m->tree = sqe_calloc((size_t)(m->n > 0 ? m->n : 1), sizeof *m->tree);
    m->pend = sqe_malloc(SQE_BATCH_ROWS * sizeof *m->pend);
    for (int i = 0; i < n_files; i++) m->cur[n_mem + i].file = files[i];
    bool ok = true;
    for (int i = 0; i < m->n; i++) {
        cursor *c = &m->cur[i];
        if (i < n_mem) {
            c->mem = mem[i];
            c->slots = c->mem->slots;
            c->nulls = c->mem->nulls;
            c->n = c->mem->rows.n_rows;
            c->done = c->n == 0;
            continue;
        }
        c->batch = sqe_batch_new(s->n_cols, s->types);
        int nk = s->n_keys > 0 ? s->n_keys : 1;
        c->bslots = sqe_calloc((size_t)nk, sizeof *c->bslots);
        c->bnulls = sqe_calloc((size_t)nk, sizeof *c->bnulls);
        for (int k = 0; k < s->n_keys; k++) {
            c->bslots[k] = sqe_malloc(SQE_BATCH_ROWS * sizeof(sqe_key_slot));
            c->bnulls[k] = sqe_malloc(SQE_BATCH_ROWS);
        }
        c->slots = c->bslots;
        c->nulls = c->bnulls;
        if (ok && !sqe_spill_rewind(c->file, err)) ok = false;
        if (ok && !cursor_load(s, c, err)) ok = false;
    }
    if (!ok) {
        merger_free(s, m);
        return NULL;
    }
    if (m->n == 1)
        m->tree[0] = 0;
    else if (m->n > 1)
        m->tree[0] = tree_build(s, m, 1);
    return m;
}

/* Copies pending rows [from, to) into the same rows of out. */
static void merger_flush(const sqe_sorter *s, const merger *m, sqe_batch *out, uint32_t from,
                         uint32_t to) {
    for (int col = 0; col < out->n_cols && col < s->n_cols; col++) {
        sqe_vector *dst = out->cols[col];
        sqe_type t = s->types[col];
        size_t w = sqe_type_width(t);
        bool str = t.id == SQE_T_VARCHAR || t.id == SQE_T_VARBINARY;
        for (uint32_t i = from; i < to; i++) {
            const cursor *c = &m->cur[m->pend[i].cur];
            uint32_t r = m->pend[i].row;
            const sqe_vector *src;
            if (c->mem) {
                src = c->mem->vecs[(size_t)col * c->mem->n_chunks + (r >> SQE_ROWSTORE_SHIFT)];
                r &= SQE_BATCH_ROWS - 1;
            } else
                src = c->batch->cols[col];
            if (src->type.id == SQE_T_NULL || sqe_vector_is_null(src, r)) {
                sqe_vector_set_null(dst, i);
                continue;
            }
            sqe_vector_set_valid(dst, i);
            if (str) {
                const sqe_string *sv = &SQE_VEC_DATA(src, sqe_string)[r];
                if (c->mem || sv->len <= SQE_STRING_INLINE)
                    SQE_VEC_DATA(dst, sqe_string)[i] = *sv;
                else
                    sqe_vector_set_string(dst, i, sv->u.ptr, sv->len);
                continue;
            }
            switch (w) {
            case 1:
                ((uint8_t *)dst->data)[i] = ((const uint8_t *)src->data)[r];
                break;
            case 2:
                ((uint16_t *)dst->data)[i] = ((const uint16_t *)src->data)[r];
                break;
            case 4:
                ((uint32_t *)dst->data)[i] = ((const uint32_t *)src->data)[r];
                break;
            case 8:
                ((uint64_t *)dst->data)[i] = ((const uint64_t *)src->data)[r];
                break;
            default:
                memcpy((char *)dst->data + (size_t)i * w, (const char *)src->data + (size_t)r * w,
                       w);
            }
        }
    }
}

static bool merger_next(sqe_sorter *s, merger *m, sqe_batch *out, bool *eof, sqe_error *err) {
    sqe_batch_reset(out);
    uint32_t k = 0, flushed = 0;
    while (k < SQE_BATCH_ROWS && m->n > 0) {
        int w = m->tree[0];
        cursor *c = &m->cur[w];
        if (c->done) break;
        m->pend[k].cur = (uint32_t)w;
        m->pend[k].row = c->mem ? c->mem->idx[c->pos] : (uint32_t)c->pos;
        k++;
        if (++c->pos == c->n) {
            if (c->mem) {
                c->done = true;
            } else {
                merger_flush(s, m, out, flushed, k); /* the batch is about to be reused */
                flushed = k;
                if (!cursor_load(s, c, err)) return false;
            }
        }
        tree_replay(s, m);
    }
    merger_flush(s, m, out, flushed, k);
    out->n_rows = k;
    out->sel = NULL;
    out->n_sel = 0;
    *eof = k == 0;
    return true;
}

/* ---------------------------------------------------------------- finish */

/* Runs fn(arg, i) for i < n, on the pool and the calling thread. A task
 * first claims its slot, and the caller claims every slot no pool thread
 * has, so this never waits for a task that has not started (the pool may
 * be busy with other work). The job record is reference counted: a task
 * that starts after everything is done touches only live memory. */
typedef struct par_job {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int refs;
    uint8_t *state; /* 0 free, 1 running, 2 done */
    void (*fn)(void *arg, int i);
    void *arg;
} par_job;

typedef struct par_task {
    par_job *job;
    int i;
} par_task;

static void par_release(par_job *job) {
    pthread_mutex_lock(&job->mu);
    bool last = --job->refs == 0;
    pthread_mutex_unlock(&job->mu);
    if (!last) return;
    pthread_mutex_destroy(&job->mu);
    pthread_cond_destroy(&job->cv);
    sqe_free(job->state);
    sqe_free(job);
}

static bool par_claim(par_job *job, int i) {
    pthread_mutex_lock(&job->mu);
    bool claimed = job->state[i] == 0;
    if (claimed) job->state[i] = 1;
    pthread_mutex_unlock(&job->mu);
    return claimed;
}

static void par_done(par_job *job, int i) {
    pthread_mutex_lock(&job->mu);
    job->state[i] = 2;
    pthread_cond_broadcast(&job->cv);
    pthread_mutex_unlock(&job->mu);
}

static void par_task_fn(void *a) {
    par_task *t = a;
    par_job *job = t->job;
    int i = t->i;
    sqe_free(t);
    if (par_claim(job, i)) {
        job->fn(job->arg, i);
        par_done(job, i);
    }
    par_release(job);
}

static void run_parallel(sqe_exec_ctx *ctx, int n, void (*fn)(void *arg, int i), void *arg) {
    if (n <= 1 || !ctx->pool || ctx->n_threads <= 1) {
        for (int i = 0; i < n; i++) fn(arg, i);
        return;
    }
    par_job *job = sqe_calloc(1, sizeof *job);
    pthread_mutex_init(&job->mu, NULL);
    pthread_cond_init(&job->cv, NULL);
    job->state = sqe_calloc((size_t)n, 1);
    job->fn = fn;
    job->arg = arg;
    job->refs = n; /* the caller + n - 1 tasks */
    for (int i = 1; i < n; i++) {
        par_task *t = sqe_malloc(sizeof *t);
        t->job = job;
        t->i = i;
        sqe_threadpool_submit(ctx->pool, par_task_fn, t);
    }
    for (int i = 0; i < n; i++)
        if (par_claim(job, i)) {
            fn(arg, i);
            par_done(job, i);
        }
    pthread_mutex_lock(&job->mu);
    for (;;) {
        bool running = false;
        for (int i = 0; i < n; i++) running |= job->state[i] == 1;
        if (!running) break;
        pthread_cond_wait(&job->cv, &job->mu);
    }
    pthread_mutex_unlock(&job->mu);
    par_release(job);
}

typedef struct sort_job {
    sqe_sorter *s;
    mem_run **runs;
    bool *copy; /* per run: rewrite its rows in sorted order */
} sort_job;

/* Rewrites run r's rows in sorted order (idx becomes the identity, key
 * slots are reloaded from the new rows), so the merge reads every
 * in-memory run front to back instead of at random: the random reads
 * happen here, on the pool, instead of on the merge's single thread. */
static void run_copy_sorted(const sqe_sorter *s, mem_run *r) {
    size_t n = r->rows.n_rows;
    sqe_rowstore fresh;
    sqe_rowstore_init(&fresh, s->n_cols, s->types, false); /* the tag is copied as a column */
    const sqe_vector **vecs = vec_table(&r->rows, s->n_cols);
    sqe_batch *scratch = sqe_batch_new(s->n_cols, s->types);
    for (size_t pos = 0; pos < n; pos += SQE_BATCH_ROWS) {
        uint32_t m = (uint32_t)SQE_MIN((size_t)SQE_BATCH_ROWS, n - pos);
        sqe_batch_reset(scratch);
        gather_rows(s, vecs, r->rows.chunks.len, r->idx + pos, m, scratch);
        sqe_rowstore_append(&fresh, scratch, NULL, m, 0);
    }
    fresh.tagged = true;
    sqe_batch_free(scratch);
    sqe_free(vecs);
    sqe_rowstore_free(&r->rows);
    r->rows = fresh;
    for (size_t i = 0; i < n; i++) r->idx[i] = (uint32_t)i; /* full chunks: address == position */
    for (int k = 0; k < s->n_keys; k++)
        for (size_t c = 0; c < r->rows.chunks.len; c++) {
            const sqe_rowstore_chunk *ch = &r->rows.chunks.items[c];
            size_t at = c << SQE_ROWSTORE_SHIFT;
            sqe_key_load(ch->cols[s->keys[k].col], NULL, ch->n, r->slots[k] + at, r->nulls[k] + at);
        }
}

static void sort_run_task(void *arg, int i) {
    sort_job *j = arg;
    mem_run *r = j->runs[i];
    r->idx = sqe_rowstore_sort_all(&r->rows, j->s->keys, j->s->n_keys, &r->slots, &r->nulls);
    if (j->copy[i]) run_copy_sorted(j->s, r);
    r->n_chunks = r->rows.chunks.len;
    r->vecs = vec_table(&r->rows, j->s->n_cols);
}

/* Writes in-memory run i (sorted) to disk and frees it. */
static bool spill_mem_run(sqe_sorter *s, size_t i, sqe_batch *scratch, sqe_error *err) {
    mem_run *r = s->mem.items[i];
    sqe_spill_file *f = NULL;
    if (!write_run(s, &r->rows, r->idx, r->rows.n_rows, scratch, &f, err)) return false;
    SQE_ARRAY_PUSH(NULL, s->disk, f);
    mem_run_free(s, r);
    s->mem.items[i] = s->mem.items[--s->mem.len];
    return true;
}

static int cmp_rows_asc(const void *a, const void *b) {
    uint64_t x = sqe_spill_rows(*(sqe_spill_file *const *)a);
    uint64_t y = sqe_spill_rows(*(sqe_spill_file *const *)b);
    return x < y ? -1 : x > y;
}

/* Merges the n smallest disk runs into one (their cursors are reserved by
 * the caller in s->merge_tracked). */
static bool merge_pass(sqe_sorter *s, int n, sqe_batch *scratch, sqe_error *err) {
    qsort(s->disk.items, s->disk.len, sizeof *s->disk.items, cmp_rows_asc);
    sqe_spill_file **files = sqe_malloc((size_t)n * sizeof *files);
    memcpy(files, s->disk.items, (size_t)n * sizeof *files);
    memmove(s->disk.items, s->disk.items + n, (s->disk.len - (size_t)n) * sizeof *s->disk.items);
    s->disk.len -= (size_t)n;
    merger *m = merger_open(s, NULL, 0, files, n, err);
    sqe_free(files);
    if (!m) return false;
    sqe_spill_file *f = sqe_spill_create(s->ctx, s->n_cols, s->types, s->op_name, err);
    bool ok = f != NULL;
    while (ok) {
        bool eof = false;
        if (sqe_exec_stopped(s->ctx, err) || !merger_next(s, m, scratch, &eof, err)) {
            ok = false;
            break;
        }
        if (eof) break;
        ok = sqe_spill_write(f, scratch, NULL, scratch->n_rows, err);
    }
    if (ok) ok = sqe_spill_rewind(f, err);
    merger_free(s, m);
    if (!ok) {
        sqe_spill_close(f);
        return false;
    }
    SQE_ARRAY_PUSH(NULL, s->disk, f);
    return true;
}

bool sqe_sorter_finish(sqe_sorter *s, sqe_error *err) {
    sqe_exec_ctx *ctx = s->ctx;
    s->finished = true;
    /* 1. Sort the in-memory runs, one task per run, then keep only what
     * the merge reads (addresses and key slots in sorted order). */
    sort_job j = {s, s->mem.items, sqe_calloc(s->mem.len + 1, sizeof(bool))};
    if (s->mem.len + s->disk.len > 1) /* a merge follows: copy runs in sorted order if they fit */
        for (size_t i = 0; i < s->mem.len; i++) {
            mem_run *r = s->mem.items[i];
            size_t copy =
                r->rows.bytes + r->rows.n_rows * SQE_SORT_KEEP_ROW(s->n_keys) + write_overhead(s);
            size_t sort = r->rows.n_rows * SQE_SORT_PEAK_ROW(s->n_keys);
            j.copy[i] = sqe_exec_mem_reserve(
                ctx, &r->tracked, r->rows.bytes + SQE_MAX(sort, copy) + write_overhead(s));
        }
    run_parallel(ctx, (int)s->mem.len, sort_run_task, &j);
    sqe_free(j.copy);
    for (size_t i = 0; i < s->mem.len; i++) {
        mem_run *r = s->mem.items[i];
        sqe_exec_mem_reserve(ctx, &r->tracked,
                             r->rows.bytes + r->rows.n_rows * SQE_SORT_KEEP_ROW(s->n_keys) +
                                 r->n_chunks * (size_t)s->n_cols * sizeof *r->vecs);
    }
    /* 2. Make the merge fit: reading buffers for every disk run next to the
     * in-memory runs, else spill in-memory runs, else merge disk runs in
     * passes. */
    sqe_batch *scratch = NULL;
    bool ok = true;
    size_t fixed = batch_fixed_bytes(s) + SQE_BATCH_ROWS * sizeof(pending);
    for (;;) {
        size_t need = fixed, max_cost = 0;
        for (size_t i = 0; i < s->disk.len; i++) {
            size_t c = cursor_cost(s, s->disk.items[i]);
            need += c;
            max_cost = SQE_MAX(max_cost, c);
        }
        if (sqe_exec_mem_reserve(ctx, &s->merge_tracked, need)) break;
        if (!scratch) scratch = sqe_batch_new(s->n_cols, s->types);
        if (s->mem.len > 0) { /* write out the largest in-memory run */
            size_t big = 0;
            for (size_t i = 1; i < s->mem.len; i++)
                if (s->mem.items[i]->rows.bytes > s->mem.items[big]->rows.bytes) big = i;
            if (!(ok = spill_mem_run(s, big, scratch, err))) break;
            continue;
        }
        /* Only disk runs, and not all of them fit: merge as many of the
         * smallest as do into one. */
        sqe_exec_mem_reserve(ctx, &s->merge_tracked, 0);
        size_t used = atomic_load(&ctx->mem_used);
        size_t avail = ctx->memory_limit > used + fixed + write_overhead(s)
                           ? ctx->memory_limit - used - fixed - write_overhead(s)
                           : 0;
        size_t fan = max_cost ? avail / max_cost : 0;
        if (fan > s->disk.len) fan = s->disk.len;
        if (fan < 2 || !sqe_exec_mem_reserve(ctx, &s->merge_tracked,
                                             fixed + write_overhead(s) + fan * max_cost)) {
            ok = mem_limit_error(s, err);
            break;
        }
        if (!(ok = merge_pass(s, (int)fan, scratch, err))) break;
    }
    sqe_batch_free(scratch);
    if (!ok) return false;
    /* 3. One merger over everything. */
    sqe_spill_file **files = sqe_malloc((s->disk.len + 1) * sizeof *files);
    if (s->disk.len) memcpy(files, s->disk.items, s->disk.len * sizeof *files);
    int n_files = (int)s->disk.len;
    s->disk.len = 0; /* the merger owns them now */
    s->merger = merger_open(s, s->mem.items, (int)s->mem.len, files, n_files, err);
    sqe_free(files);
    return s->merger != NULL;
}

bool sqe_sorter_next(sqe_sorter *s, sqe_batch *out, bool *eof, sqe_error *err) {
    if (sqe_exec_stopped(s->ctx, err)) return false;
    if (!s->merger) {
        *eof = true;
        return true;
    }
    return merger_next(s, s->merger, out, eof, err);
}

/* ------------------------------------------------------------- SortExec */

typedef struct sort_op {
    sqe_op base;
    sqe_type *types;    /* n_out + 1: the output columns, then the tag */
    sqe_sort_key *keys; /* n_keys + 1: ORDER BY, then the tag */
    sqe_sorter *sorter;
    bool built;
    sqe_batch *out;
} sort_op;

static void *sort_local_new(sqe_op *op) {
    return sqe_sort_local_new(((sort_op *)op)->sorter);
}

static void sort_local_free(sqe_op *op, void *l) {
    SQE_UNUSED(op);
    sqe_sort_local_free(l);
}

static bool sort_consume(sqe_op *op, void *l, sqe_batch *b, uint64_t tag_base, sqe_error *err) {
    SQE_UNUSED(op);
    return sqe_sort_local_add(l, b, b->sel, sqe_batch_live(b), tag_base, err);
}

static bool sort_merge(sqe_op *op, void *l, sqe_error *err) {
    SQE_UNUSED(err);
    sqe_sorter_adopt(((sort_op *)op)->sorter, l);
    return true;
}

static const sqe_sink_vtable sort_sink = {sort_local_new, sort_consume, sort_merge,
                                          sort_local_free};

static bool sort_open(sqe_op *op_, sqe_error *err) {
    SQE_UNUSED(err);
    sort_op *op = (sort_op *)op_;
    const sqe_plan *p = op_->plan;
    op->types = sqe_calloc((size_t)p->n_out + 1, sizeof *op->types);
    for (int i = 0; i < p->n_out; i++) op->types[i] = p->out_types[i];
    op->types[p->n_out] = sqe_type_make(SQE_T_BIGINT);
    op->keys = sqe_calloc((size_t)p->u.sort.n_keys + 1, sizeof *op->keys);
    for (int k = 0; k < p->u.sort.n_keys; k++) op->keys[k] = p->u.sort.keys[k];
    op->keys[p->u.sort.n_keys] = (sqe_sort_key){p->n_out, false, false};
    op->sorter = sqe_sorter_new(op_->ctx, "SortExec", p->n_out + 1, op->types, p->u.sort.n_keys + 1,
                                op->keys);
    op->out = sqe_batch_new(p->n_out, p->out_types);
    return true;
}

static bool sort_next(sqe_op *op_, sqe_batch **out, bool *eof, sqe_error *err) {
    sort_op *op = (sort_op *)op_;
    if (!op->built) {
        if (!sqe_exec_drain(op_, 0, &sort_sink, err)) return false;
        op->built = true;
        if (!sqe_sorter_finish(op->sorter, err)) return false;
    }
    if (!sqe_sorter_next(op->sorter, op->out, eof, err)) return false;
    if (*eof) return true;
    *out = op->out;
    return true;
}

static void sort_close(sqe_op *op_) {
    sort_op *op = (sort_op *)op_;
    sqe_sorter_free(op->sorter);
    op->sorter = NULL;
    sqe_batch_free(op->out);
    op->out = NULL;
    sqe_free(op->types);
    op->types = NULL;
    sqe_free(op->keys);
    op->keys = NULL;
}

static const sqe_op_vtable sort_vtable = {"SortExec", sort_open, sort_next, sort_close};

sqe_op *sqe_exec_sort_new(sqe_exec_ctx *ctx, const sqe_plan *p) {
    sqe_op *op = sqe_calloc(1, sizeof(sort_op));
    op->vt = &sort_vtable;
    op->plan = p;
    op->ctx = ctx;
    return op;
}
