/*
 * join_spill.c - the grace (hybrid) hash join: what HashJoinExec does when
 * its build side does not fit in the query's memory limit.
 *
 * Where it sits: join_table.c builds the shared table through a sink, and
 * drives the probe; this file takes over the rows that do not fit. Nothing
 * changes for a build side that fits (no file, no extra pass).
 *
 * Partitions. A row's partition hash h0 is sqe_join_hash_col over its
 * partition keys (every key; a null-aware IN's correlation keys, whose
 * groups must stay whole; the IN operand when there are none, see below),
 * the same function on both sides, so rows that can match share h0. Level d
 * uses the top SQE_JOIN_SPILL_BITS bits of sqe_hash_u64(h0 ^ seed[d]): the
 * bits of one level say nothing about the next, nor about the buckets and
 * tags of the tables (the low and high halves of h itself). Files store h0
 * as one more BIGINT column after the rows' columns, so re-partitioning and
 * routing never evaluate a key expression again.
 *
 * Build (join_table.c's sink calls in here). Each pipeline copy appends to
 * its own row store while sqe_join_mem_fits leaves room for the spill's I/O
 * buffers; the first copy that cannot starts the spill (sqe_join_spill_start:
 * SQE_JOIN_SPILL_PARTS build files, created lazily, each behind a mutex,
 * and the buffers' bytes tracked). From then on every copy writes its rows,
 * those it held first, to the partition files, and merge writes whatever a
 * local or the table still holds. A table whose rows fit but whose key
 * slots and indexes would not spills the same way at the end of the build.
 * Then (sqe_join_spill_hybrid) partitions are read back into the shared
 * table in order while it stays within half of what the limit leaves
 * beyond the spill's buffers: those partitions stay in memory (hybrid), the
 * others stay on disk. The other half is for the spilled partitions of
 * joins below this one in the same pipeline (joined while this table is
 * still held) and for the operators around. A partition with no build row
 * counts as in memory (its probe rows match nothing and are decided at
 * once).
 *
 * Probe. hash_join.c computes h0 for each probe batch; a row whose
 * partition keys are all non-NULL and whose partition is on disk is written
 * to that partition's probe file (files shared by all copies, one mutex per
 * partition: fewer files and buffers than per-copy files, and copies write
 * different partitions at once); the batch is narrowed to the other rows,
 * which join as usual. A row with a NULL partition key matches nothing, so
 * it stays: LEFT/FULL/ANTI/MARK decide it on the spot. Build rows with NULL
 * keys (kept only by RIGHT/FULL) hash to a constant partition, where they
 * are emitted unmatched like any other.
 *
 * After the probe. The copy that ends the probe (join_table.c: the last to
 * deregister, once per query) flushes the probe files, queues one work item
 * per spilled partition (build file, probe file, depth) and, after its
 * in-memory table's unmatched rows (RIGHT/FULL), frees that table. Every
 * copy then takes items from the queue (the pipeline model: copies that
 * ended their input early wait here for the others, 20 ms polls that watch
 * for a stop; waiting only on copies that are running, so no deadlock):
 * loads the build file into a table of its own (rows, slots, indexes, as
 * join_table.c does), streams the probe file through the same probe driver,
 * emits the partition's unmatched build rows, frees it, takes the next.
 *
 * Memory while joining partitions. `loaded` counts tables holding memory
 * (the shared table until it is freed, plus partitions being loaded or
 * joined). A load that does not fit may be crowded out by the others, so it
 * gives its memory back and asks to go solo: it waits until no one holds a
 * table (no new load starts meanwhile) and tries again. Alone and still
 * too big, the partition is split into SQE_JOIN_SPILL_PARTS sub-partitions
 * with the next level's bits, both files, and they are queued; up to
 * SQE_JOIN_SPILL_MAX_DEPTH levels, and never when all its build rows share
 * one h0 (one key value: no split can help). Then RESOURCE_EXHAUSTED names
 * HashJoinExec and the limit.
 *
 * Null-aware IN without correlation keys: its single group is the whole
 * build side, so partitioning by the operand works only because the group's
 * facts (non-empty, holds a NULL) are gathered while building (t->na_flags)
 * and hold in every partition table; a NULL probe operand needs no
 * partition. With a residual the group depends on each pair, so that join
 * cannot spill (t->can_spill) and keeps the memory-limit error.
 *
 * Memory: the row stores and tables are tracked as in join_table.c; the I/O
 * buffers as one budget of (parts + 2 x threads + 2) buffers from the start
 * of the spill (only one level of files is written at a time, and idle
 * files hold no buffer). Files are unlinked temporaries (spill.c), counted
 * in ctx->spill_files / spill_bytes for EXPLAIN ANALYZE.
 */
#include "exec/join_table.h"

#include <time.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#define JS_PARTS SQE_JOIN_SPILL_PARTS
#define JS_KEEP 0xff /* a row that stays in memory */

static const uint64_t js_seed[SQE_JOIN_SPILL_MAX_DEPTH + 1] = {
    0x8a5cd789635d2dffULL, 0x121fd2155c472f96ULL, 0x5b5e8b7f3ac1d9e3ULL, 0xd6e8feb86659fd93ULL,
    0x2d358dccaa6c78a5ULL};

static inline uint32_t js_part_of(uint64_t h0, int depth) {
    return (uint32_t)(sqe_hash_u64(h0 ^ js_seed[depth]) >> (64 - SQE_JOIN_SPILL_BITS));
}

/* A spilled partition waiting to be joined. Either file may be NULL (no
 * rows on that side). */
typedef struct js_item {
    sqe_spill_file *build, *probe;
    int depth;
} js_item;

struct sqe_join_spill {
    sqe_exec_ctx *ctx;
    const char *op_name;
    sqe_join_type type;
    int n_build, n_probe;              /* row columns of the files; h0 follows */
    sqe_type *btypes;                  /* n_build + 1 */
    sqe_type *ptypes;                  /* n_probe + 1 */
    size_t tracked;                    /* the I/O buffer budget */
    pthread_mutex_t part_mu[JS_PARTS]; /* per level-0 partition: its writers */
    sqe_spill_file *build[JS_PARTS], *probe[JS_PARTS];
    bool in_mem[JS_PARTS]; /* read-only once the build is done */
    /* After the probe, under mu. */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool probe_done;
    SQE_ARRAY(js_item) queue;
    int loaded; /* tables holding memory (the shared one included) */
    bool solo;  /* a load waits to be alone: no new load starts */
};

struct sqe_join_spill_scratch {
    sqe_batch *view;     /* the rows' columns, then hashv */
    sqe_vector *hashv;   /* BIGINT: h0 by physical row */
    sqe_key_slot *slots; /* per live row */
    uint8_t *nulls;
    uint64_t *h;
    uint8_t *part; /* per live row: partition or JS_KEEP */
    uint16_t *rows;
};

static const sqe_type js_bigint = {SQE_T_BIGINT, 0, 0, 0, 0};

size_t sqe_join_spill_budget(const sqe_exec_ctx *ctx) {
    return (size_t)(JS_PARTS + 2 * ctx->n_threads + 2) * SQE_SPILL_BUF_BYTES;
}

bool sqe_join_mem_fits(sqe_exec_ctx *ctx, size_t *tracked, size_t now, size_t headroom) {
    if (!sqe_exec_mem_reserve(ctx, tracked, now + headroom)) return false;
    sqe_exec_mem_reserve(ctx, tracked, now); /* gives the headroom back: always succeeds */
    return true;
}

/* What a spilled partition's table leaves free for the operators around. */
static size_t js_headroom(const sqe_exec_ctx *ctx) {
    return ctx->memory_limit / 8;
}

/* Gives freed heap memory back to the system. The build's row stores were
 * filled on the pipeline threads, whose malloc arenas keep what they free;
 * without this the process would hold them next to the tables that replace
 * them (glibc only; elsewhere a no-op). */
static void js_trim(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

static sqe_join_spill_scratch *js_scratch_new(int n_cols) {
    sqe_join_spill_scratch *x = sqe_calloc(1, sizeof *x);
    x->view = sqe_batch_new_empty(n_cols + 1);
    x->hashv = sqe_vector_new(js_bigint);
    x->slots = sqe_malloc(SQE_BATCH_ROWS * sizeof *x->slots);
    x->nulls = sqe_malloc(SQE_BATCH_ROWS);
    x->h = sqe_malloc(SQE_BATCH_ROWS * sizeof *x->h);
    x->part = sqe_malloc(SQE_BATCH_ROWS);
    x->rows = sqe_malloc(SQE_BATCH_ROWS * sizeof *x->rows);
    return x;
}

void sqe_join_spill_scratch_free(sqe_join_spill_scratch *x) {
    if (!x) return;
    sqe_batch_free(x->view); /* owns no vectors */
    sqe_vector_free(x->hashv);
    sqe_free(x->slots);
    sqe_free(x->nulls);
    sqe_free(x->h);
    sqe_free(x->part);
    sqe_free(x->rows);
    sqe_free(x);
}

static void js_item_close(js_item *it) {
    sqe_spill_close(it->build);
    sqe_spill_close(it->probe);
    it->build = it->probe = NULL;
}

/* Writes live row i of b (physical row sel ? sel[i] : i) to files[part[i]]
 * unless part[i] is JS_KEEP, creating missing files (n_cols columns of
 * types). mus: a lock per partition, or NULL when only this thread writes. */
static bool js_scatter(sqe_join_spill *s, sqe_spill_file **files, pthread_mutex_t *mus,
                       const sqe_type *types, int n_cols, const sqe_batch *b, const uint16_t *sel,
                       uint32_t n, const uint8_t *part, uint16_t *rows, sqe_error *err) {
    uint32_t start[JS_PARTS + 1] = {0}, pos[JS_PARTS];
    for (uint32_t i = 0; i < n; i++)
        if (part[i] != JS_KEEP) start[part[i] + 1]++;
    for (int p = 0; p < JS_PARTS; p++) {
        start[p + 1] += start[p];
        pos[p] = start[p];
    }
    for (uint32_t i = 0; i < n; i++)
        if (part[i] != JS_KEEP) rows[pos[part[i]]++] = (uint16_t)(sel ? sel[i] : i);
    for (int p = 0; p < JS_PARTS; p++) {
        uint32_t m = start[p + 1] - start[p];
        if (m == 0) continue;
        if (mus) pthread_mutex_lock(&mus[p]);
        if (!files[p]) files[p] = sqe_spill_create(s->ctx, n_cols, types, s->op_name, err);
        bool ok = files[p] && sqe_spill_write(files[p], b, rows + start[p], m, err);
        if (mus) pthread_mutex_unlock(&mus[p]);
        if (!ok) return false;
    }
    return true;
}

/* ------------------------------------------------------------------ build */

bool sqe_join_spill_start(sqe_join_table *t, sqe_error *err) {
    SQE_UNUSED(err);
    pthread_mutex_lock(&t->mu);
    if (!t->spill) {
        sqe_join_spill *s = sqe_calloc(1, sizeof *s);
        sqe_exec_ctx *ctx = t->ctx;
        const sqe_plan *probe = t->plan->children[0];
        s->ctx = ctx;
        s->op_name = t->op_name;
        s->type = t->plan->u.join.type;
        s->n_build = t->n_store;
        s->n_probe = probe->n_out;
        s->btypes = sqe_calloc((size_t)s->n_build + 1, sizeof *s->btypes);
        s->ptypes = sqe_calloc((size_t)s->n_probe + 1, sizeof *s->ptypes);
        memcpy(s->btypes, t->types, (size_t)s->n_build * sizeof *s->btypes);
        memcpy(s->ptypes, probe->out_types, (size_t)s->n_probe * sizeof *s->ptypes);
        s->btypes[s->n_build] = s->ptypes[s->n_probe] = js_bigint;
        for (int p = 0; p < JS_PARTS; p++) pthread_mutex_init(&s->part_mu[p], NULL);
        pthread_mutex_init(&s->mu, NULL);
        pthread_condattr_t ca;
        pthread_condattr_init(&ca);
        pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
        pthread_cond_init(&s->cv, &ca);
        pthread_condattr_destroy(&ca);
        s->loaded = 1; /* the shared table */
        /* the buffers, now if they fit, else once rows went out (settle) */
        sqe_exec_mem_reserve(ctx, &s->tracked, sqe_join_spill_budget(ctx));
        t->spill = s;
        atomic_store(&t->spilling, true);
    }
    pthread_mutex_unlock(&t->mu);
    return true;
}

bool sqe_join_spill_settle(sqe_join_table *t, sqe_error *err) {
    sqe_join_spill *s = t->spill;
    size_t budget = sqe_join_spill_budget(t->ctx);
    pthread_mutex_lock(&t->mu);
    bool ok =
        s->tracked == budget || sqe_exec_mem_track(t->ctx, &s->tracked, budget, t->op_name, err);
    pthread_mutex_unlock(&t->mu);
    return ok;
}

bool sqe_join_spill_rows(sqe_join_table *t, sqe_join_spill_scratch **sc, const sqe_batch *b,
                         const uint16_t *sel, uint32_t n, sqe_error *err) {
    sqe_join_spill *s = t->spill;
    if (!*sc) *sc = js_scratch_new(t->n_store);
    sqe_join_spill_scratch *x = *sc;
    for (int k = 0; k < t->n_part_keys; k++) {
        sqe_key_load(b->cols[t->key_col[k]], sel, n, x->slots, x->nulls);
        sqe_join_hash_col(t->kc[k], x->slots, x->nulls, n, k, x->h);
    }
    int64_t *hv = SQE_VEC_DATA(x->hashv, int64_t);
    for (uint32_t i = 0; i < n; i++) {
        hv[sel ? sel[i] : i] = (int64_t)x->h[i];
        x->part[i] = (uint8_t)js_part_of(x->h[i], 0);
    }
    for (int c = 0; c < t->n_store; c++) x->view->cols[c] = b->cols[c];
    x->view->cols[t->n_store] = x->hashv;
    x->view->n_rows = b->n_rows;
    return js_scatter(s, s->build, s->part_mu, s->btypes, s->n_build + 1, x->view, sel, n, x->part,
                      x->rows, err);
}

bool sqe_join_spill_store(sqe_join_table *t, sqe_join_spill_scratch **sc, sqe_rowstore *rs,
                          sqe_error *err) {
    bool ok = true;
    sqe_batch *b = sqe_batch_new_empty(rs->n_cols);
    for (size_t c = 0; c < rs->chunks.len && ok; c++) {
        const sqe_rowstore_chunk *ch = &rs->chunks.items[c];
        for (int k = 0; k < rs->n_cols; k++) b->cols[k] = ch->cols[k];
        b->n_rows = ch->n;
        ok = ch->n == 0 || sqe_join_spill_rows(t, sc, b, NULL, ch->n, err);
    }
    sqe_batch_free(b);
    int n_cols = rs->n_cols;
    const sqe_type *types = rs->types;
    sqe_rowstore_free(rs);
    sqe_rowstore_init(rs, n_cols, types, false);
    return ok;
}

/* Reads partition file f into rs while the table would fit (rows already
 * in t plus rs, with headroom); *fits = false when it stopped early. */
static bool js_read_fitting(sqe_join_table *t, sqe_spill_file *f, sqe_batch *rb, sqe_rowstore *rs,
                            size_t *tracked, size_t base, size_t headroom, bool *fits,
                            sqe_error *err) {
    *fits = true;
    if (!sqe_spill_rewind(f, err)) return false;
    for (;;) {
        bool eof = false;
        if (!sqe_spill_read(f, rb, &eof, err)) return false;
        if (eof) return true;
        size_t rows = (rs == &t->rows ? 0 : t->rows.n_rows) + rs->n_rows + rb->n_rows;
        size_t need = base + rs->bytes + sqe_rowstore_append_bytes(rs, rb, NULL, rb->n_rows) +
                      sqe_join_table_extra_bytes(t, t->plan, rows);
        if (rows >= UINT32_MAX || !sqe_join_mem_fits(t->ctx, tracked, need, headroom)) {
            *fits = false;
            return true;
        }
        sqe_rowstore_append(rs, rb, NULL, rb->n_rows, 0);
    }
}

bool sqe_join_spill_hybrid(sqe_op *op, sqe_join_table *t, sqe_error *err) {
    sqe_join_spill *s = t->spill;
    sqe_exec_ctx *ctx = op->ctx;
    size_t budget = SQE_MIN(sqe_join_spill_budget(ctx), ctx->memory_limit);
    size_t headroom = (ctx->memory_limit - budget) / 2; /* see the essay */
    if (!sqe_join_spill_settle(t, err)) return false;
    js_trim();
    sqe_batch *rb = sqe_batch_new(s->n_build + 1, s->btypes);
    bool ok = true, full = false;
    for (int p = 0; p < JS_PARTS && ok; p++) {
        if (!s->build[p]) {
            s->in_mem[p] = true;
            continue;
        }
        if (full) {
            ok = sqe_spill_rewind(s->build[p], err);
            continue;
        }
        sqe_rowstore tmp;
        sqe_rowstore_init(&tmp, t->n_store, t->types, false);
        bool fits = false;
        ok = js_read_fitting(t, s->build[p], rb, &tmp, &t->tracked, t->rows.bytes, headroom, &fits,
                             err);
        if (ok && fits) {
            sqe_join_rows_merge(&t->rows, &tmp);
            sqe_spill_close(s->build[p]);
            s->build[p] = NULL;
            s->in_mem[p] = true;
        } else if (ok) {
            full = true;
            ok = sqe_spill_rewind(s->build[p], err);
        }
        sqe_rowstore_free(&tmp);
    }
    sqe_batch_free(rb);
    if (!ok) return false;
    size_t bytes = t->rows.bytes + sqe_join_table_extra_bytes(t, op->plan, t->rows.n_rows);
    if (!sqe_exec_mem_track(ctx, &t->tracked, bytes, t->op_name, err)) return false;
    return sqe_join_table_index(t, op->plan, err);
}

void sqe_join_spill_free(sqe_join_spill *s) {
    if (!s) return;
    for (int p = 0; p < JS_PARTS; p++) {
        sqe_spill_close(s->build[p]);
        sqe_spill_close(s->probe[p]);
        pthread_mutex_destroy(&s->part_mu[p]);
    }
    for (size_t i = 0; i < s->queue.len; i++) js_item_close(&s->queue.items[i]);
    SQE_ARRAY_FREE(s->queue);
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
    sqe_exec_mem_track(s->ctx, &s->tracked, 0, s->op_name, NULL);
    sqe_free(s->btypes);
    sqe_free(s->ptypes);
    sqe_free(s);
}

/* ------------------------------------------------------------------ probe */

bool sqe_join_spill_route(sqe_join_op *j, const uint64_t *h0, sqe_key_slot **pk, uint8_t **pn,
                          int nk, sqe_error *err) {
    const sqe_join_table *t = j->t;
    sqe_join_spill *s = t->spill;
    sqe_batch *in = j->in;
    uint32_t n = j->n_in;
    if (!j->scratch) j->scratch = js_scratch_new(j->n_probe);
    sqe_join_spill_scratch *x = j->scratch;
    int64_t *hv = SQE_VEC_DATA(x->hashv, int64_t);
    uint32_t out = 0;
    for (uint32_t i = 0; i < n; i++) {
        x->part[i] = JS_KEEP;
        bool null = false;
        for (int k = 0; k < t->n_part_keys; k++) null |= pn[k][i] != 0;
        if (null) continue;
        uint32_t p = js_part_of(h0[i], 0);
        if (s->in_mem[p]) continue;
        x->part[i] = (uint8_t)p;
        hv[in->sel ? in->sel[i] : i] = (int64_t)h0[i];
        out++;
    }
    if (out == 0) return true;
    for (int c = 0; c < j->n_probe; c++) x->view->cols[c] = in->cols[c];
    x->view->cols[j->n_probe] = x->hashv;
    x->view->n_rows = in->n_rows;
    if (!js_scatter(s, s->probe, s->part_mu, s->ptypes, s->n_probe + 1, x->view, in->sel, n,
                    x->part, x->rows, err))
        return false;
    if (!j->view) j->view = sqe_batch_new_empty(j->n_probe);
    sqe_batch *v = j->view;
    for (int c = 0; c < j->n_probe; c++) v->cols[c] = in->cols[c];
    v->n_rows = in->n_rows;
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (x->part[i] != JS_KEEP) continue;
        v->sel_buf[m] = (uint16_t)(in->sel ? in->sel[i] : i);
        for (int k = 0; k < nk; k++) {
            pk[k][m] = pk[k][i];
            pn[k][m] = pn[k][i];
        }
        m++;
    }
    v->sel = v->sel_buf;
    v->n_sel = m;
    j->in = v;
    j->n_in = m;
    return true;
}

/* Whether a partition with these files can produce output. */
static bool js_useful(const sqe_join_spill *s, const js_item *it) {
    bool unmatched = s->type == SQE_JT_RIGHT || s->type == SQE_JT_FULL;
    bool needs_build = s->type == SQE_JT_INNER || s->type == SQE_JT_RIGHT || s->type == SQE_JT_SEMI;
    return (it->probe || unmatched) && (it->build || !needs_build);
}

/* Queues item (or closes it when it cannot produce a row). Under s->mu. */
static void js_push(sqe_join_spill *s, js_item it) {
    if ((it.build || it.probe) && js_useful(s, &it))
        SQE_ARRAY_PUSH(NULL, s->queue, it);
    else
        js_item_close(&it);
}

bool sqe_join_spill_probe_done(sqe_join_table *t, sqe_error *err) {
    sqe_join_spill *s = t->spill;
    for (int p = 0; p < JS_PARTS; p++) /* flush: their write buffers go */
        if (s->probe[p] && !sqe_spill_rewind(s->probe[p], err)) return false;
    pthread_mutex_lock(&s->mu);
    for (int p = JS_PARTS - 1; p >= 0; p--) { /* popped from the end: partition 0 first */
        if (s->in_mem[p]) continue;
        js_push(s, (js_item){s->build[p], s->probe[p], 0});
        s->build[p] = s->probe[p] = NULL;
    }
    s->probe_done = true;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    return true;
}

void sqe_join_spill_release_main(sqe_join_table *t) {
    sqe_join_spill *s = t->spill;
    sqe_join_table_drop_rows(t);
    js_trim();
    pthread_mutex_lock(&s->mu);
    s->loaded--;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

/* ------------------------------------------------------- after the probe */

/* Waits on s->cv for at most 20 ms (s->mu held); false when the query
 * stops (err set). */
static bool js_wait(sqe_join_spill *s, sqe_error *err) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_nsec += 20L * 1000000L;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(&s->cv, &s->mu, &ts);
    return !sqe_exec_stopped(s->ctx, err);
}

/* Loads item's build rows into a new table; *out = NULL (nothing held)
 * when they do not fit in the memory left. */
static bool js_load(sqe_join_op *j, const js_item *it, sqe_join_table **out, sqe_error *err) {
    sqe_join_spill *s = j->shared->spill;
    sqe_join_table *pt = sqe_join_table_new(&j->base);
    atomic_store(&pt->na_flags, atomic_load(&j->shared->na_flags));
    *out = NULL;
    bool ok = true, fits = true;
    if (it->build) {
        sqe_batch *rb = sqe_batch_new(s->n_build + 1, s->btypes);
        ok = js_read_fitting(pt, it->build, rb, &pt->rows, &pt->tracked, 0, js_headroom(s->ctx),
                             &fits, err);
        sqe_batch_free(rb);
    }
    size_t bytes = pt->rows.bytes + sqe_join_table_extra_bytes(pt, pt->plan, pt->rows.n_rows);
    if (ok && fits) fits = sqe_join_mem_fits(s->ctx, &pt->tracked, bytes, js_headroom(s->ctx));
    if (ok && fits) ok = sqe_join_table_index(pt, pt->plan, err);
    if (ok && fits)
        *out = pt;
    else
        sqe_join_table_free(pt);
    return ok;
}

static bool js_too_big(const sqe_join_spill *s, const js_item *it, bool one_key, sqe_error *err) {
    uint64_t rows = it->build ? sqe_spill_rows(it->build) : 0;
    if (rows <= SQE_BATCH_ROWS)
        return sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED,
                             "query exceeded the memory limit of %zu bytes in %s: the limit is "
                             "too small for a spilled join's buffers and one partition of %llu "
                             "build rows; raise the memory limit",
                             s->ctx->memory_limit, s->op_name, (unsigned long long)rows);
    if (one_key)
        return sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED,
                             "query exceeded the memory limit of %zu bytes in %s: %llu build rows "
                             "share one join key value and do not fit; raise the memory limit",
                             s->ctx->memory_limit, s->op_name, (unsigned long long)rows);
    return sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED,
                         "query exceeded the memory limit of %zu bytes in %s: a partition of %llu "
                         "build rows does not fit after %d re-partitionings; raise the memory "
                         "limit",
                         s->ctx->memory_limit, s->op_name, (unsigned long long)rows, it->depth);
}

/* Splits file f (n_cols row columns, then h0) into out[] by the bits of
 * level `depth`; *same stays true while every row has h0 == *first. */
static bool js_split_file(sqe_join_spill *s, sqe_spill_file *f, const sqe_type *types, int n_cols,
                          int depth, sqe_spill_file **out, bool *same, uint64_t *first,
                          sqe_error *err) {
    if (!f) return true;
    sqe_batch *rb = sqe_batch_new(n_cols + 1, types);
    uint8_t *part = sqe_malloc(SQE_BATCH_ROWS);
    uint16_t *rows = sqe_malloc(SQE_BATCH_ROWS * sizeof *rows);
    bool ok = sqe_spill_rewind(f, err), have = false;
    while (ok) {
        bool eof = false;
        if (!(ok = sqe_spill_read(f, rb, &eof, err)) || eof) break;
        const uint64_t *h = SQE_VEC_DATA(rb->cols[n_cols], uint64_t);
        for (uint32_t i = 0; i < rb->n_rows; i++) {
            part[i] = (uint8_t)js_part_of(h[i], depth);
            if (!have) *first = h[i];
            have = true;
            if (h[i] != *first) *same = false;
        }
        ok = js_scatter(s, out, NULL, types, n_cols + 1, rb, NULL, rb->n_rows, part, rows, err);
    }
    sqe_batch_free(rb);
    sqe_free(part);
    sqe_free(rows);
    return ok;
}

/* Re-partitions an item that does not fit alone, queueing its parts. */
static bool js_split(sqe_join_spill *s, js_item *it, sqe_error *err) {
    int d = it->depth + 1;
    bool same = true;
    uint64_t first = 0;
    if (d > SQE_JOIN_SPILL_MAX_DEPTH || !it->build || sqe_spill_rows(it->build) <= SQE_BATCH_ROWS)
        return js_too_big(s, it, false, err);
    sqe_spill_file *b[JS_PARTS] = {0}, *p[JS_PARTS] = {0};
    bool ok = js_split_file(s, it->build, s->btypes, s->n_build, d, b, &same, &first, err);
    if (ok && same) ok = js_too_big(s, it, true, err);
    bool unused = true;
    if (ok) ok = js_split_file(s, it->probe, s->ptypes, s->n_probe, d, p, &unused, &first, err);
    for (int i = 0; i < JS_PARTS && ok; i++) /* flushed: idle files hold no buffer */
        ok = (!b[i] || sqe_spill_rewind(b[i], err)) && (!p[i] || sqe_spill_rewind(p[i], err));
    pthread_mutex_lock(&s->mu);
    for (int i = 0; i < JS_PARTS; i++) {
        js_item sub = {b[i], p[i], d};
        if (ok)
            js_push(s, sub);
        else
            js_item_close(&sub);
    }
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    return ok;
}

/* Joins item `it` (counted in s->loaded) or, alone and too big, splits it.
 * *got when j now holds it. */
static bool js_take(sqe_join_op *j, js_item *it, bool *got, sqe_error *err) {
    sqe_join_spill *s = j->shared->spill;
    bool solo = false, ok = true;
    for (;;) {
        sqe_join_table *pt = NULL;
        if (!(ok = js_load(j, it, &pt, err))) break;
        if (pt) {
            js_item *mine = sqe_malloc(sizeof *mine);
            *mine = *it;
            j->part = mine;
            j->t = pt;
            *got = true;
            if (solo) {
                pthread_mutex_lock(&s->mu);
                s->solo = false;
                pthread_cond_broadcast(&s->cv);
                pthread_mutex_unlock(&s->mu);
            }
            return true;
        }
        if (solo) { /* alone and still too big */
            ok = js_split(s, it, err);
            break;
        }
        pthread_mutex_lock(&s->mu);
        s->loaded--;
        pthread_cond_broadcast(&s->cv);
        while (ok && s->solo) ok = js_wait(s, err);
        if (ok) s->solo = solo = true;
        while (ok && s->loaded > 0) ok = js_wait(s, err);
        s->loaded++;
        pthread_mutex_unlock(&s->mu);
        if (!ok) break;
    }
    js_item_close(it);
    pthread_mutex_lock(&s->mu);
    s->loaded--;
    if (solo) s->solo = false;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    return ok;
}

bool sqe_join_spill_next_part(sqe_join_op *j, bool *got, sqe_error *err) {
    sqe_join_spill *s = j->shared->spill;
    *got = false;
    pthread_mutex_lock(&s->mu);
    for (;;) {
        if (sqe_exec_stopped(s->ctx, err)) {
            pthread_mutex_unlock(&s->mu);
            return false;
        }
        /* the queue may still grow while a solo load can split */
        if (!s->probe_done || s->solo) {
            if (!js_wait(s, err)) {
                pthread_mutex_unlock(&s->mu);
                return false;
            }
            continue;
        }
        if (s->queue.len == 0) break;
        js_item it = s->queue.items[--s->queue.len];
        s->loaded++;
        pthread_mutex_unlock(&s->mu);
        if (!js_take(j, &it, got, err)) return false;
        if (*got) return true;
        pthread_mutex_lock(&s->mu);
    }
    pthread_mutex_unlock(&s->mu);
    return true;
}

bool sqe_join_spill_read(sqe_join_op *j, sqe_batch **b, bool *eof, sqe_error *err) {
    sqe_join_spill *s = j->shared->spill;
    js_item *it = j->part;
    *eof = false;
    if (!it->probe) {
        *eof = true;
        return true;
    }
    if (!j->spill_in) j->spill_in = sqe_batch_new(s->n_probe + 1, s->ptypes);
    if (!sqe_spill_read(it->probe, j->spill_in, eof, err)) return false;
    *b = j->spill_in;
    return true;
}

void sqe_join_spill_part_done(sqe_join_op *j) {
    sqe_join_spill *s = j->shared->spill;
    js_item *it = j->part;
    if (j->t != j->shared) sqe_join_table_free(j->t);
    j->t = j->shared;
    js_item_close(it);
    sqe_free(it);
    j->part = NULL;
    pthread_mutex_lock(&s->mu);
    s->loaded--;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}
