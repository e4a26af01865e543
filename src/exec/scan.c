/*
 * scan.c - HiveScanExec: reads a Hive table's files into batches.
 *
 * Two parts. The *source* (sqe_scan_source) is built once per scan node per
 * query: it opens the store, picks the reader for the table's format, lists
 * partitions (with equality/IN pruning, plan->u.scan.prune), drops the
 * partitions the partition filter rejects (evaluated over a batch whose
 * column k holds partition key k), and then hands out files as morsels from
 * a mutex-protected cursor, listing a partition's folder only when the cursor
 * reaches it (so `LIMIT 10` lists and reads one partition). Each listed
 * file is planned with sqe_format_plan_morsels at the query's
 * text_split_bytes: a large splittable text file becomes byte-range morsels
 * (SPEC §4.5), a large Parquet file row-group ranges; planned morsels open
 * with sqe_format_open_range. The source also derives the reader's format
 * predicate (spec.pred) from the row filter's conjuncts that compare a data
 * column (or a widening cast of one) with constants cast exactly to the
 * column's type, IN lists and IS [NOT] NULL, so Parquet skips row groups;
 * the filter itself still runs on every row. The *operator*
 * (one per pipeline copy, so one per worker thread) takes morsels, opens the
 * reader, and turns each reader batch into an output batch:
 *
 *   output column i = data column   -> the reader's vector (shared, not owned)
 *                   = partition key -> a vector holding the partition's value
 *                                      (or NULL) in all 2048 rows, refilled
 *                                      only when the partition changes
 *
 * then, when a TopN above registered a dynamic filter for this scan
 * (sqe_exec_dyn, topn.c), drops the rows whose key column sorts after its
 * current bound (ties kept) into a selection, applies the row filter
 * (plan->u.scan.filter) to the rows left, and skips batches with no live
 * rows. The source also hands the filter to the reader (spec.dyn: Parquet
 * skips row groups by statistics). Reader errors (INVALID_DATA naming file,
 * line, column and value) pass through unchanged. A reader's counters
 * (Parquet row groups total/pruned; bytes fetched for non-text formats) go
 * into EXPLAIN ANALYZE's when it is closed.
 *
 * A reader is closed on the call *after* its last batch was handed out, so a
 * reader that hands out views into its own buffers stays valid while the
 * consumer reads the batch.
 */
#include "exec/exec_int.h"

#include <pthread.h>
#include <stdlib.h>

/* ---------------------------------------------------------------- source */

#define SCAN_LIST_IN_FLIGHT 16 /* partition listings at once (SPEC §9.2) */

typedef struct source_impl {
    pthread_mutex_t mu;
    pthread_cond_t cv; /* a window of listings was added (or failed) */
    sqe_store *store;  /* listing (the lister's) */
    /* stores of the other listing threads, opened by the lister on first
     * need (only one thread lists at a time: `listing`) */
    sqe_store *list_stores[SCAN_LIST_IN_FLIGHT];
    sqe_arena *arena; /* partitions, listings, spec arrays (under mu after creation) */
    size_t next_part; /* next partition to list */
    bool listing;     /* a thread is listing a window outside mu */
    SQE_ARRAY(sqe_scan_morsel) queue; /* listed files, in order; seq = index */
    size_t next;                      /* next morsel to hand out */
    uint64_t listed_bytes;
    bool failed;           /* a listing failed: hand out nothing more */
    uint64_t split_bytes;  /* ctx->text_split_bytes: morsel size (0: no splitting) */
    size_t in_flight;      /* listings per window: 1..SCAN_LIST_IN_FLIGHT */
    sqe_format_pred pred;  /* spec.pred: derived from the row filter (arena) */
    sqe_exec_stats *stats; /* EXPLAIN ANALYZE (NULL: not collected) */
} source_impl;

/* One partition's listing, made outside mu by a listing thread: its files
 * planned into morsels (seq and the path's final copy are set under mu). */
typedef struct list_slot {
    const sqe_scan_source *src;
    sqe_store *store;
    size_t part;
    uint64_t split_bytes;
    sqe_arena *arena; /* the listing's strings until copied */
    SQE_ARRAY(sqe_scan_morsel) morsels;
    uint64_t bytes;
    bool ok;
    sqe_error err;
} list_slot;

static void list_slot_run(list_slot *ls) {
    const sqe_scan_source *src = ls->src;
    sqe_hive_file *files = NULL;
    size_t n_files = 0;
    sqe_file_range_list ranges = {0};
    ls->ok = sqe_hive_partition_files(ls->store, &src->parts[ls->part], ls->arena, &files, &n_files,
                                      &ls->err);
    for (size_t i = 0; ls->ok && i < n_files; i++) {
        uint64_t size = files[i].size;
        ls->bytes += size;
        ranges.len = 0;
        if (!sqe_format_plan_morsels(src->rvt, ls->store, files[i].path, size, &src->spec,
                                     ls->split_bytes, &ranges, &ls->err)) {
            ls->ok = false;
            break;
        }
        for (size_t k = 0; k < ranges.len; k++) {
            const sqe_file_range *fr = &ranges.items[k];
            sqe_scan_morsel m = {files[i].path, size, ls->part, 0, fr->start, fr->end};
            SQE_ARRAY_PUSH(NULL, ls->morsels, m);
        }
        if (ranges.len > 0) continue;
        sqe_scan_morsel m = {files[i].path, size, ls->part, 0, 0, 0};
        SQE_ARRAY_PUSH(NULL, ls->morsels, m);
    }
    SQE_ARRAY_FREE(ranges);
}

static void *list_slot_thread(void *arg) {
    list_slot_run(arg);
    return NULL;
}

/* Adds a finished listing to the queue, in partition order. Under mu. */
static bool list_slot_take(source_impl *im, list_slot *ls, sqe_error *err) {
    if (im->stats) atomic_fetch_add(&im->stats->partitions, 1);
    if (!ls->ok) {
        if (!im->failed) *err = ls->err;
        im->failed = true;
        return false;
    }
    im->listed_bytes += ls->bytes;
    const char *prev = NULL, *copy = NULL;
    for (size_t i = 0; i < ls->morsels.len; i++) {
        sqe_scan_morsel m = ls->morsels.items[i];
        if (m.path != prev) copy = sqe_arena_strdup(im->arena, m.path);
        prev = m.path;
        m.path = copy;
        m.seq = im->queue.len;
        SQE_ARRAY_PUSH(NULL, im->queue, m);
    }
    return true;
}

/* Lists the next window of partitions: up to SCAN_LIST_IN_FLIGHT at once
 * (one for a lazy scan, SPEC §9.1), each on a thread of its own with its
 * own store, while mu is released so that readers keep taking morsels;
 * the results join the queue in partition order, so morsel sequence (and
 * the order tags built on it) do not depend on which listing finished
 * first. Called and returns with mu held; only one thread lists at a time
 * (im->listing). A thread that cannot be started lists inline. */
static bool list_window(sqe_scan_source *src, sqe_error *err) {
    source_impl *im = src->impl;
    size_t first = im->next_part, left = src->n_parts - first;
    size_t w = SQE_MIN(left, im->in_flight);
    im->next_part += w;
    im->listing = true;
    pthread_mutex_unlock(&im->mu);
    list_slot slots[SCAN_LIST_IN_FLIGHT];
    pthread_t threads[SCAN_LIST_IN_FLIGHT];
    bool started[SCAN_LIST_IN_FLIGHT] = {false};
    for (size_t i = 0; i < w; i++) {
        list_slot *ls = &slots[i];
        memset(ls, 0, sizeof *ls);
        ls->src = src;
        ls->part = first + i;
        ls->split_bytes = im->split_bytes;
        ls->arena = sqe_arena_new(4096);
        sqe_error_clear(&ls->err);
        if (i > 0 && !im->list_stores[i]) {
            sqe_error e;
            sqe_error_clear(&e);
            im->list_stores[i] = sqe_hive_table_store(src->table, &e);
        }
        ls->store = i == 0 ? im->store : im->list_stores[i];
        if (i > 0 && ls->store)
            started[i] = pthread_create(&threads[i], NULL, list_slot_thread, ls) == 0;
    }
    for (size_t i = 0; i < w; i++) {
        if (started[i]) continue;
        if (!slots[i].store) slots[i].store = im->store; /* this thread's, run inline */
        list_slot_run(&slots[i]);
    }
    for (size_t i = 0; i < w; i++)
        if (started[i]) pthread_join(threads[i], NULL);
    pthread_mutex_lock(&im->mu);
    bool ok = true;
    for (size_t i = 0; i < w; i++) {
        if (ok) ok = list_slot_take(im, &slots[i], err);
        SQE_ARRAY_FREE(slots[i].morsels);
        sqe_arena_free(slots[i].arena);
    }
    im->listing = false;
    pthread_cond_broadcast(&im->cv);
    return ok;
}

static bool filter_partitions(sqe_exec_ctx *ctx, sqe_scan_source *src, const sqe_expr *pf,
                              sqe_error *err) {
    const sqe_hive_table *t = src->table;
    int nk = t->n_part_keys;
    sqe_type *types = sqe_calloc((size_t)(nk > 0 ? nk : 1), sizeof *types);
    for (int k = 0; k < nk; k++) types[k] = t->part_keys[k].type;
    sqe_batch *b = sqe_batch_new(nk, types);
    sqe_expr_state *st = sqe_expr_state_new(pf);
    uint16_t *keep = sqe_malloc(SQE_BATCH_ROWS * sizeof *keep);
    size_t n_kept = 0;
    bool ok = true;
    for (size_t base = 0; base < src->n_parts; base += SQE_BATCH_ROWS) {
        if (sqe_exec_stopped(ctx, err)) {
            ok = false;
            break;
        }
        uint32_t n = (uint32_t)SQE_MIN((size_t)SQE_BATCH_ROWS, src->n_parts - base);
        sqe_batch_reset(b);
        for (int k = 0; k < nk; k++)
            for (uint32_t r = 0; r < n; r++) {
                const sqe_value *v = &src->parts[base + r].values[k];
                if (v->is_null)
                    sqe_vector_set_null(b->cols[k], r);
                else
                    sqe_vector_set_value(b->cols[k], r, v);
            }
        b->n_rows = n;
        uint32_t n_keep = 0;
        if (!sqe_expr_filter(st, b, NULL, n, keep, &n_keep, err)) {
            ok = false;
            break;
        }
        for (uint32_t i = 0; i < n_keep; i++) src->parts[n_kept++] = src->parts[base + keep[i]];
    }
    if (ok) src->n_parts = n_kept;
    sqe_free(keep);
    sqe_expr_state_free(st);
    sqe_batch_free(b);
    sqe_free(types);
    return ok;
}

/* Lazy scans (SPEC §9.1): descending partition values, key by key, NULLs
 * last, then by path (so the order does not depend on the listing's). */
static int newest_first_cmp(const void *pa, const void *pb, void *arg) {
    const sqe_hive_partition *a = pa, *b = pb;
    int n = *(const int *)arg;
    for (int k = 0; k < n; k++) {
        bool an = a->values[k].is_null || a->values[k].type.id == SQE_T_NULL;
        bool bn = b->values[k].is_null || b->values[k].type.id == SQE_T_NULL;
        if (an != bn) return an ? 1 : -1;
        if (an) continue;
        int r = sqe_value_cmp(&a->values[k], &b->values[k]);
        if (r) return r > 0 ? -1 : 1;
    }
    return strcmp(a->path, b->path);
}

/* ------------------------------------------------- format predicate */

/* Whether CAST(x AS to) of a `from` value is injective and order-preserving,
 * so `CAST(col) op k` means `col op k'` for the k' that casts exactly to k. */
bool sqe_exec_pred_widening(sqe_type from, sqe_type to) {
    bool from_int = sqe_type_is_integer(from);
    switch (to.id) {
    case SQE_T_SMALLINT:
    case SQE_T_INTEGER:
    case SQE_T_BIGINT:
        return from_int && sqe_type_width(from) < sqe_type_width(to);
    case SQE_T_DECIMAL:
        return from_int || (from.id == SQE_T_DECIMAL && to.scale >= from.scale &&
                            to.precision - to.scale >= from.precision - from.scale);
    case SQE_T_DOUBLE:
        return from.id == SQE_T_REAL || (from_int && from.id != SQE_T_BIGINT);
    case SQE_T_TIMESTAMP:
        return from.id == SQE_T_DATE;
    default:
        return false;
    }
}

/* The table data column a filter operand reads, or -1 (a partition key, an
 * expression). A widening cast of a column counts as the column. */
static int pred_data_col(const sqe_expr *e, const sqe_plan *p, const sqe_hive_table *t) {
    if (e && e->kind == SQE_EXPR_CAST && e->n_args == 1 && !e->try_ &&
        sqe_exec_pred_widening(e->args[0]->type, e->type))
        e = e->args[0];
    if (!e || e->kind != SQE_EXPR_COLUMN || e->col < 0 || e->col >= p->u.scan.n_cols) return -1;
    int c = p->u.scan.cols[e->col];
    return c >= 0 && c < t->n_cols ? c : -1;
}

/* *v as a value of exactly type `to`, when the cast there and back is
 * lossless (so comparing with it means the same as comparing with v). */
bool sqe_exec_pred_exact_value(const sqe_value *v, sqe_type to, sqe_arena *a, sqe_value *out) {
    if (v->is_null || v->type.id == SQE_T_NULL) return false;
    if (sqe_type_equal(v->type, to) ||
        (v->type.id == to.id && to.id != SQE_T_DECIMAL && to.id != SQE_T_VARCHAR)) {
        *out = *v;
        out->type = to;
        return true;
    }
    if (to.id == SQE_T_VARCHAR) { /* VARCHAR(n)/CHAR(n) read truncated: compare only plain */
        if (v->type.id != SQE_T_VARCHAR || to.length != 0) return false;
        *out = *v;
        out->type = to;
        return true;
    }
    sqe_error e;
    sqe_error_clear(&e);
    sqe_value there, back;
    if (!sqe_value_cast(v, to, true, a, &there, &e) || there.is_null) return false;
    if (!sqe_value_cast(&there, v->type, true, a, &back, &e) || back.is_null) return false;
    if (sqe_value_cmp(&back, v) != 0) return false;
    *out = there;
    return true;
}

bool sqe_exec_pred_op(const char *name, bool flipped, sqe_fpred_op *op) {
    static const struct {
        const char *name;
        sqe_fpred_op op, flipped;
    } k_ops[] = {{"=", SQE_FPRED_EQ, SQE_FPRED_EQ},  {"<>", SQE_FPRED_NE, SQE_FPRED_NE},
                 {"!=", SQE_FPRED_NE, SQE_FPRED_NE}, {"<", SQE_FPRED_LT, SQE_FPRED_GT},
                 {"<=", SQE_FPRED_LE, SQE_FPRED_GE}, {">", SQE_FPRED_GT, SQE_FPRED_LT},
                 {">=", SQE_FPRED_GE, SQE_FPRED_LE}};
    for (size_t i = 0; name && i < SQE_ARRAY_LEN(k_ops); i++)
        if (strcmp(name, k_ops[i].name) == 0) {
            *op = flipped ? k_ops[i].flipped : k_ops[i].op;
            return true;
        }
    return false;
}

/* One conjunct as a format predicate term; false to skip it. */
static bool pred_term(const sqe_expr *e, const sqe_plan *p, const sqe_hive_table *t, sqe_arena *a,
                      sqe_fpred_term *out) {
    memset(out, 0, sizeof *out);
    if (e->kind == SQE_EXPR_IS_NULL && e->n_args == 1) {
        out->col = pred_data_col(e->args[0], p, t);
        out->op = e->negated ? SQE_FPRED_IS_NOT_NULL : SQE_FPRED_IS_NULL;
        return out->col >= 0;
    }
    if (e->kind == SQE_EXPR_IN && !e->negated && e->n_args == 1 && e->n_in > 0) {
        out->col = pred_data_col(e->args[0], p, t);
        if (out->col < 0) return false;
        sqe_type ct = t->cols[out->col].type;
        sqe_value *vals = sqe_arena_alloc(a, (size_t)e->n_in * sizeof *vals);
        for (int i = 0; i < e->n_in; i++)
            if (!sqe_exec_pred_exact_value(&e->in_values[i], ct, a, &vals[i])) return false;
        out->op = SQE_FPRED_IN;
        out->n_vals = e->n_in;
        out->vals = vals;
        return true;
    }
    if (e->kind != SQE_EXPR_CALL || e->n_args != 2) return false;
    bool flipped = e->args[0]->kind == SQE_EXPR_CONST;
    const sqe_expr *col = e->args[flipped ? 1 : 0], *k = e->args[flipped ? 0 : 1];
    if (k->kind != SQE_EXPR_CONST || !sqe_exec_pred_op(e->fn.name, flipped, &out->op)) return false;
    out->col = pred_data_col(col, p, t);
    if (out->col < 0) return false;
    sqe_value *v = sqe_arena_alloc(a, sizeof *v);
    if (!sqe_exec_pred_exact_value(&k->value, t->cols[out->col].type, a, v)) return false;
    out->n_vals = 1;
    out->vals = v;
    return true;
}

/* spec->pred from the row filter's conjuncts (column vs constants, IN, IS
 * [NOT] NULL on data columns). A hint: the filter still runs on every row. */
static void derive_pred(source_impl *im, const sqe_plan *p, const sqe_hive_table *t,
                        sqe_reader_spec *spec) {
    const sqe_expr *f = p->u.scan.filter;
    if (!f) return;
    int n = f->kind == SQE_EXPR_AND ? f->n_args : 1;
    sqe_fpred_term *terms = sqe_arena_alloc(im->arena, (size_t)(n + 1) * sizeof *terms);
    int k = 0;
    for (int i = 0; i < n; i++) {
        const sqe_expr *c = f->kind == SQE_EXPR_AND ? f->args[i] : f;
        if (c && pred_term(c, p, t, im->arena, &terms[k])) k++;
    }
    if (k == 0) return;
    im->pred.n_terms = k;
    im->pred.terms = terms;
    spec->pred = &im->pred;
}

bool sqe_scan_source_new(sqe_exec_ctx *ctx, const sqe_plan *p, sqe_scan_source **out,
                         sqe_error *err) {
    *out = NULL;
    const sqe_hive_table *t = p->u.scan.table;
    if (!t) return sqe_error_set(err, SQE_ERR_INTERNAL, "scan without a table");
    sqe_scan_source *src = sqe_calloc(1, sizeof *src);
    source_impl *im = sqe_calloc(1, sizeof *im);
    src->impl = im;
    src->plan = p;
    src->table = t;
    pthread_mutex_init(&im->mu, NULL);
    pthread_cond_init(&im->cv, NULL);
    im->arena = sqe_arena_new(0);

    if (!sqe_hive_check_readable(t, err)) goto fail;
    src->rvt = sqe_format_reader_for(t->format, err);
    if (!src->rvt) goto fail;
    im->store = sqe_hive_table_store(t, err);
    if (!im->store) goto fail;

    /* Reader spec: the distinct data columns among scan.cols, in order. */
    memset(&src->spec, 0, sizeof src->spec);
    sqe_hive_reader_spec(t, &src->spec);
    if (!src->spec.col_names || !src->spec.col_types) {
        const char **names = sqe_arena_alloc(im->arena, (size_t)(t->n_cols + 1) * sizeof *names);
        sqe_type *types = sqe_arena_alloc(im->arena, (size_t)(t->n_cols + 1) * sizeof *types);
        for (int i = 0; i < t->n_cols; i++) {
            names[i] = t->cols[i].name;
            types[i] = t->cols[i].type;
        }
        src->spec.col_names = names;
        src->spec.col_types = types;
        src->spec.n_table_cols = t->n_cols;
    }
    int n_cols = p->u.scan.n_cols;
    int *proj = sqe_arena_alloc(im->arena, (size_t)(n_cols + 1) * sizeof *proj);
    src->out_to_proj = sqe_arena_alloc(im->arena, (size_t)(n_cols + 1) * sizeof *src->out_to_proj);
    int n_proj = 0;
    for (int i = 0; i < n_cols; i++) {
        int c = p->u.scan.cols[i];
        src->out_to_proj[i] = -1;
        if (c < 0 || c >= t->n_cols + t->n_part_keys) {
            sqe_error_set(err, SQE_ERR_INTERNAL, "scan column %d out of range", c);
            goto fail;
        }
        if (c >= t->n_cols) continue;
        int j = 0;
        while (j < n_proj && proj[j] != c) j++;
        if (j == n_proj) proj[n_proj++] = c;
        src->out_to_proj[i] = j;
    }
    src->spec.n_proj = n_proj;
    src->spec.proj = proj;
    derive_pred(im, p, t, &src->spec);
    sqe_exec_dyn *dyn = sqe_exec_dyn_for(ctx, p);
    if (dyn) src->spec.dyn = dyn->f;
    im->split_bytes = ctx->text_split_bytes;
    im->stats = sqe_exec_stats_for(ctx, p);
    if (p->u.scan.lazy) /* one partition at a time, newest first (SPEC §9.1) */
        im->in_flight = 1;
    else if (ctx->list_in_flight > 0)
        im->in_flight = (size_t)SQE_MIN(ctx->list_in_flight, SCAN_LIST_IN_FLIGHT);
    else
        im->in_flight = strcmp(im->store->vt->name, "local") == 0 ? 1 : SCAN_LIST_IN_FLIGHT;

    sqe_hive_part_stats ps;
    if (!sqe_hive_list_partitions_stats(im->store, t, p->u.scan.prune, im->arena, &src->parts,
                                        &src->n_parts, &ps, err))
        goto fail;
    if (im->stats && t->n_part_keys > 0 && !t->adhoc) {
        atomic_store(&im->stats->part_source, strcmp(ps.source, "index") == 0        ? 2
                                              : strcmp(ps.source, "projection") == 0 ? 3
                                                                                     : 1);
        atomic_fetch_add(&im->stats->parts_considered, ps.considered);
        atomic_fetch_add(&im->stats->parts_pruned, ps.pruned);
    }
    if (p->u.scan.partition_filter && t->n_part_keys > 0 && src->n_parts > 0)
        if (!filter_partitions(ctx, src, p->u.scan.partition_filter, err)) goto fail;
    if (p->u.scan.lazy && src->n_parts > 1) {
        int nk = t->n_part_keys;
        qsort_r(src->parts, src->n_parts, sizeof *src->parts, newest_first_cmp, &nk);
    }
    *out = src;
    return true;
fail:
    sqe_scan_source_free(src);
    return false;
}

void sqe_scan_source_free(sqe_scan_source *src) {
    if (!src) return;
    source_impl *im = src->impl;
    if (im) {
        sqe_store_free(im->store);
        for (int i = 0; i < SCAN_LIST_IN_FLIGHT; i++) sqe_store_free(im->list_stores[i]);
        sqe_arena_free(im->arena);
        SQE_ARRAY_FREE(im->queue);
        pthread_mutex_destroy(&im->mu);
        pthread_cond_destroy(&im->cv);
        sqe_free(im);
    }
    sqe_free(src);
}

bool sqe_scan_source_next(sqe_scan_source *src, sqe_exec_ctx *ctx, sqe_scan_morsel *m, bool *done,
                          sqe_error *err) {
    source_impl *im = src->impl;
    bool ok = true;
    *done = false;
    pthread_mutex_lock(&im->mu);
    for (;;) {
        if (ctx && sqe_exec_stopped(ctx, err)) {
            ok = false;
            break;
        }
        if (im->failed || (src->done && atomic_load(src->done))) {
            *done = true;
            break;
        }
        if (im->next < im->queue.len) {
            *m = im->queue.items[im->next++];
            break;
        }
        if (im->listing) { /* another thread lists the next window */
            pthread_cond_wait(&im->cv, &im->mu);
            continue;
        }
        if (im->next_part >= src->n_parts) {
            *done = true;
            break;
        }
        if (!list_window(src, err)) {
            ok = false;
            break;
        }
    }
    pthread_mutex_unlock(&im->mu);
    return ok;
}

bool sqe_scan_source_prefetch(sqe_scan_source *src, uint64_t min_bytes, bool *large,
                              sqe_error *err) {
    source_impl *im = src->impl;
    bool ok = true;
    pthread_mutex_lock(&im->mu);
    /* a lazy scan decides on its first partition alone (SPEC §9.1) */
    size_t max_part = src->plan->u.scan.lazy ? 1 : src->n_parts;
    while (ok && im->listed_bytes < min_bytes && im->next_part < max_part && !im->failed) {
        if (im->listing)
            pthread_cond_wait(&im->cv, &im->mu);
        else
            ok = list_window(src, err);
    }
    *large = im->listed_bytes >= min_bytes;
    pthread_mutex_unlock(&im->mu);
    return ok;
}

/* -------------------------------------------------------------- operator */

typedef struct scan_op {
    sqe_op base;
    sqe_scan_source *src; /* base.src or own_src */
    sqe_scan_source *own_src;
    sqe_store *store; /* this copy's store for reading */
    sqe_reader *reader;
    bool reader_done; /* close the reader at the next call */
    size_t cur_part;
    uint64_t cur_seq;       /* morsel being read */
    uint64_t rows_in_file;  /* rows of that file handed out before */
    uint64_t tag_base;      /* of the batch returned last */
    sqe_batch *rbatch;      /* the reader fills this (spec.n_proj vectors) */
    sqe_batch *out;         /* shares rbatch's vectors and part_vecs */
    sqe_vector **part_vecs; /* per output column: partition value vector or NULL */
    size_t filled_part;     /* partition whose values part_vecs hold */
    sqe_expr_state *filter;
    /* dynamic filter (a TopN above): rows sorting after its bound are
     * dropped before the row filter runs */
    sqe_exec_dyn *dyn;
    sqe_dyn_bound dynb;    /* our copy of the bound */
    uint64_t dyn_version;  /* dynb's version that dyn_slot holds */
    sqe_vector *dyn_v;     /* one row: the bound as a vector */
    sqe_key_slot dyn_slot; /* the bound as a key slot */
    uint8_t dyn_null;      /* the bound is NULL */
    sqe_key_class dyn_kc;
    sqe_key_slot *dyn_slots; /* SQE_BATCH_ROWS: the batch's key column */
    uint8_t *dyn_nulls;
    uint16_t *dyn_sel; /* SQE_BATCH_ROWS: rows the dynamic filter keeps */
} scan_op;

/* Whether the table's morsels are byte ranges (text, JSON lines): EXPLAIN
 * ANALYZE's bytes are then the ranges' sizes, else the bytes fetched. */
static bool byte_ranges(const sqe_scan_source *src) {
    return src->spec.format == SQE_FORMAT_TEXT || src->spec.format == SQE_FORMAT_JSON;
}

/* Closes the current reader, adding its counters to EXPLAIN ANALYZE's. */
static void close_reader(scan_op *s) {
    if (!s->reader) return;
    sqe_exec_stats *st = s->base.stats;
    if (st) {
        const sqe_reader_stats *rs = &s->reader->stats;
        if (!byte_ranges(s->src)) atomic_fetch_add(&st->bytes, rs->bytes_read);
        atomic_fetch_add(&st->row_groups, rs->row_groups_total);
        atomic_fetch_add(&st->row_groups_pruned, rs->row_groups_pruned);
        atomic_fetch_add(&st->dyn_row_groups, rs->row_groups_dyn_pruned);
    }
    s->src->rvt->close(s->reader);
    s->reader = NULL;
}

static void scan_close(sqe_op *op) {
    scan_op *s = (scan_op *)op;
    close_reader(s);
    sqe_batch_free(s->rbatch);
    s->rbatch = NULL;
    sqe_batch_free(s->out);
    s->out = NULL;
    if (s->part_vecs) {
        for (int i = 0; i < op->plan->u.scan.n_cols; i++) sqe_vector_free(s->part_vecs[i]);
        sqe_free(s->part_vecs);
        s->part_vecs = NULL;
    }
    sqe_expr_state_free(s->filter);
    s->filter = NULL;
    sqe_dyn_bound_free(&s->dynb);
    sqe_vector_free(s->dyn_v);
    s->dyn_v = NULL;
    sqe_free(s->dyn_slots);
    s->dyn_slots = NULL;
    sqe_free(s->dyn_nulls);
    s->dyn_nulls = NULL;
    sqe_free(s->dyn_sel);
    s->dyn_sel = NULL;
    sqe_store_free(s->store);
    s->store = NULL;
    sqe_scan_source_free(s->own_src);
    s->own_src = NULL;
}

static bool scan_open(sqe_op *op, sqe_error *err) {
    scan_op *s = (scan_op *)op;
    const sqe_plan *p = op->plan;
    if (op->src) {
        s->src = op->src;
    } else {
        if (!sqe_scan_source_new(op->ctx, p, &s->own_src, err)) return false;
        s->src = s->own_src;
    }
    const sqe_scan_source *src = s->src;
    const sqe_hive_table *t = src->table;
    s->store = sqe_hive_table_store(t, err);
    if (!s->store) return false;

    int n_proj = src->spec.n_proj;
    sqe_type *ptypes = sqe_calloc((size_t)(n_proj > 0 ? n_proj : 1), sizeof *ptypes);
    for (int j = 0; j < n_proj; j++) ptypes[j] = t->cols[src->spec.proj[j]].type;
    s->rbatch = sqe_batch_new(n_proj, ptypes);
    sqe_free(ptypes);

    int n_cols = p->u.scan.n_cols;
    s->out = sqe_batch_new_empty(n_cols);
    s->part_vecs = sqe_calloc((size_t)(n_cols > 0 ? n_cols : 1), sizeof *s->part_vecs);
    for (int i = 0; i < n_cols; i++) {
        int j = src->out_to_proj[i];
        if (j >= 0) {
            s->out->cols[i] = s->rbatch->cols[j];
        } else {
            s->part_vecs[i] = sqe_vector_new(t->part_keys[p->u.scan.cols[i] - t->n_cols].type);
            s->out->cols[i] = s->part_vecs[i];
        }
        s->out->owned[i] = false;
    }
    s->filled_part = SIZE_MAX;
    s->dyn = sqe_exec_dyn_for(op->ctx, p);
    if (s->dyn) {
        sqe_type ty = p->out_types[s->dyn->col];
        s->dyn_v = sqe_vector_new(ty);
        s->dyn_kc = sqe_key_class_of(ty);
        s->dyn_slots = sqe_malloc(SQE_BATCH_ROWS * sizeof *s->dyn_slots);
        s->dyn_nulls = sqe_malloc(SQE_BATCH_ROWS);
        s->dyn_sel = sqe_malloc(SQE_BATCH_ROWS * sizeof *s->dyn_sel);
        if (op->stats) atomic_store(&op->stats->has_dyn, true);
    }
    if (p->u.scan.filter && !(s->filter = sqe_exec_expr_state_new(op, p->u.scan.filter, err)))
        return false;
    return true;
}

/* Fills the partition-key vectors with partition `part`'s values. */
static void fill_partition(scan_op *s, size_t part) {
    const sqe_plan *p = s->base.plan;
    const sqe_hive_table *t = s->src->table;
    const sqe_hive_partition *pt = &s->src->parts[part];
    for (int i = 0; i < p->u.scan.n_cols; i++) {
        sqe_vector *v = s->part_vecs[i];
        if (!v) continue;
        const sqe_value *val = &pt->values[p->u.scan.cols[i] - t->n_cols];
        sqe_vector_reset(v);
        if (val->is_null || val->type.id == SQE_T_NULL) {
            memset(v->validity, 0, sizeof v->validity);
            v->has_nulls = true;
            continue;
        }
        sqe_value tv = *val;
        tv.type = v->type;
        sqe_vector_set_value(v, 0, &tv);
        size_t w = sqe_type_width(v->type);
        char *d = v->data;
        for (uint32_t r = 1; r < SQE_BATCH_ROWS; r++) memcpy(d + r * w, d, w);
    }
    s->filled_part = part;
}

/* Rows of b (n, no selection) that may still reach the TopN above: those
 * whose key sorts at or before the dynamic filter's bound, into sel.
 * Returns the count, n (sel untouched) when there is no bound yet. */
static uint32_t dyn_prune(scan_op *s, sqe_batch *b, uint32_t n, uint16_t *sel) {
    if (!sqe_dyn_filter_load(s->dyn->f, &s->dynb)) return n;
    if (s->dyn_version != s->dynb.version) {
        sqe_vector_reset(s->dyn_v);
        if (s->dynb.v.is_null)
            sqe_vector_set_null(s->dyn_v, 0);
        else
            sqe_vector_set_value(s->dyn_v, 0, &s->dynb.v);
        sqe_key_load(s->dyn_v, NULL, 1, &s->dyn_slot, &s->dyn_null);
        s->dyn_version = s->dynb.version;
    }
    sqe_key_load(b->cols[s->dyn->col], NULL, n, s->dyn_slots, s->dyn_nulls);
    const sqe_sort_key *key = &s->dyn->key;
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        sel[k] = (uint16_t)i;
        k += sqe_key_cmp_sort(key, s->dyn_kc, &s->dyn_slots[i], s->dyn_nulls[i], &s->dyn_slot,
                              s->dyn_null) <= 0;
    }
    if (s->base.stats && k < n) atomic_fetch_add(&s->base.stats->dyn_rows, n - k);
    return k;
}

static bool scan_next(sqe_op *op, sqe_batch **out, bool *eof, sqe_error *err) {
    scan_op *s = (scan_op *)op;
    const sqe_reader_vtable *rvt = s->src->rvt;
    *out = NULL;
    *eof = false;
    for (;;) {
        if (s->reader_done) {
            close_reader(s);
            s->reader_done = false;
        }
        if (sqe_exec_stopped(op->ctx, err)) return false;
        if (s->src->done && atomic_load(s->src->done)) {
            *eof = true;
            return true;
        }
        if (!s->reader) {
            sqe_scan_morsel m;
            bool done = false;
            if (!sqe_scan_source_next(s->src, op->ctx, &m, &done, err)) return false;
            if (!done && op->stats) {
                atomic_fetch_add(&op->stats->files, 1);
                if (byte_ranges(s->src)) /* others: bytes fetched, at close */
                    atomic_fetch_add(&op->stats->bytes, m.end > 0 ? m.end - m.start : m.size);
            }
            if (done) {
                *eof = true;
                return true;
            }
            if (m.end > 0) /* a planned morsel (byte range, row groups) */
                s->reader = sqe_format_open_range(rvt, s->store, m.path, m.size, m.start, m.end,
                                                  &s->src->spec, err);
            else
                s->reader = rvt->open(s->store, m.path, m.size, &s->src->spec, err);
            if (!s->reader) return false;
            s->cur_part = m.part;
            s->cur_seq = m.seq;
            s->rows_in_file = 0;
        }
        sqe_batch_reset(s->rbatch);
        bool reof = false;
        if (!rvt->next(s->reader, s->rbatch, &reof, err)) return false;
        if (reof) s->reader_done = true;
        uint32_t n = s->rbatch->n_rows;
        if (n == 0) continue;
        s->tag_base = (s->cur_seq << 32) + s->rows_in_file;
        s->rows_in_file += n;
        if (s->filled_part != s->cur_part) fill_partition(s, s->cur_part);
        sqe_batch *b = s->out;
        b->n_rows = n;
        b->sel = NULL;
        b->n_sel = 0;
        uint32_t live = n;
        if (s->dyn) {
            live = dyn_prune(s, b, n, s->dyn_sel);
            if (live == 0) continue;
            if (live < n) {
                b->sel = s->dyn_sel;
                b->n_sel = live;
            }
        }
        if (s->filter) {
            uint32_t k = 0;
            if (!sqe_expr_filter(s->filter, b, b->sel, live, b->sel_buf, &k, err)) return false;
            if (k == 0) continue;
            if (k < n) {
                b->sel = b->sel_buf;
                b->n_sel = k;
            }
        }
        *out = b;
        return true;
    }
}

static const sqe_op_vtable scan_vtable = {"HiveScanExec", scan_open, scan_next, scan_close};

uint64_t sqe_exec_scan_tag(const sqe_op *op) {
    return op->vt == &scan_vtable ? ((const scan_op *)op)->tag_base : 0;
}

sqe_op *sqe_exec_scan_new(sqe_exec_ctx *ctx, const sqe_plan *p, sqe_scan_source *src) {
    scan_op *s = sqe_calloc(1, sizeof *s);
    s->base.vt = &scan_vtable;
    s->base.plan = p;
    s->base.ctx = ctx;
    s->base.src = src;
    return &s->base;
}
