/*
 * window.c - WindowExec (SQE_PLAN_WINDOW): window functions. Output: every
 * column of the child, then one column per function (plan.h
 * sqe_window_func), partition after partition in sorted order (SQL does not
 * promise an order; the planner puts a SortExec above for ORDER BY).
 *
 * Where it sits: a blocking operator like SortExec. Its first next drains
 * the child through a sink (in parallel when the child is a scan pipeline),
 * sorts, computes every function for every row, then emits batches of 2048
 * sorted rows; all functions of one node share its PARTITION BY and ORDER BY
 * (the planner stacks one node per distinct window).
 *
 * Drain. Each pipeline copy evaluates, per batch, the expressions the
 * functions need that are neither plain child columns nor constants
 * (PARTITION BY / ORDER BY expressions, arguments, FILTERs, frame offsets)
 * and appends the child columns, those "extra" columns and the row's order
 * tag to its own row store (rowstore.c); merge adopts the chunks, as in
 * sort.c. Constants are evaluated once into one-row vectors.
 *
 * Sort. Row addresses are sorted by (PARTITION BY ascending, NULLs first;
 * ORDER BY as written; order tag), so rows are grouped by partition, ordered
 * inside it, and ties keep the serial input order whatever the thread count:
 * row_number() over a partition without ORDER BY is the same every run.
 * One pass over the sorted keys marks in brk[] where a partition starts and
 * where a peer group (rows with equal ORDER BY keys) starts.
 *
 * Work columns. Every stored column a function reads is gathered once into
 * vectors by sorted position (sqe_win_col: chunk pos >> 11, row pos & 2047;
 * strings stay views into the row store), so functions index rows of a
 * partition directly and aggregates feed contiguous runs to update.
 *
 * Compute. Per partition (checking sqe_exec_stopped between partitions):
 * peer groups as grp[row] / gbeg[group], then each function writes its
 * value for the partition's rows into its result vectors (one per 2048
 * sorted positions, so output batch k is result chunk k, emitted without a
 * copy):
 *   row_number, rank, dense_rank,    from the row's index and its peer group
 *   percent_rank, cume_dist          ((rank - 1) / (rows - 1); rows up to
 *                                    the end of the peer group / rows)
 *   ntile(n)                         Trino's bucket arithmetic; n per row,
 *                                    NULL gives NULL, n <= 0 fails
 *   lag / lead                       the row offset rows away (per-row
 *                                    offset, NULL offset gives NULL), else
 *                                    the default; IGNORE NULLS counts only
 *                                    non-NULL values, through nn[] (rows
 *                                    with a value) and cb[] (values before
 *                                    each row), so every row is O(1)
 *   first/last/nth_value             the frame's first / last / n-th row
 *                                    (window_frame.c), the same way
 *   aggregates                       window_agg.c over the frames
 *
 * Memory: the row store, row addresses, work and result columns and the
 * per-partition scratch are tracked as "WindowExec"; a partition is held
 * whole (no spilling).
 */
#include "exec/exec_int.h"

enum { WIN_BRK_NONE = 0, WIN_BRK_PEER = 1, WIN_BRK_PART = 2 };

#define WIN_N_ARGS 3
#define WIN_OP_NAME "WindowExec"

typedef enum { WIN_REF_NONE, WIN_REF_COL, WIN_REF_CONST } win_ref_kind;

/* Where the values of an expression a function reads come from. */
typedef struct win_ref {
    win_ref_kind kind;
    int idx; /* COL: row store column; CONST: index into consts */
} win_ref;

/* A function's inputs, resolved at open. */
typedef struct win_fn {
    sqe_window_func f; /* the plan's function, its frame normalized (win_norm) */
    win_ref arg[WIN_N_ARGS];
    win_ref filter, start_off, end_off;
    bool range_key; /* RANGE with an offset: the frame reads the ORDER BY key */
} win_fn;

typedef struct window_op {
    sqe_op base;
    int n_child, n_funcs;
    /* Row store columns: the child's, the extra ones, then the order tag. */
    int n_extra, n_store;
    const sqe_expr **extra;
    sqe_type *types;
    int *part_cols, *order_cols; /* store column of each PARTITION BY / ORDER BY expression */
    sqe_sort_key *keys;          /* partition keys, order keys, tag */
    int n_keys;
    win_fn *fn;
    int n_consts;
    const sqe_expr **const_exprs;
    sqe_win_col *consts; /* one-row vectors, built after the drain */
    sqe_rowstore rows;
    size_t tracked;
    bool built;
    size_t n, n_chunks;   /* rows; chunks of SQE_BATCH_ROWS sorted positions */
    uint32_t *idx;        /* row address by sorted position */
    uint8_t *brk;         /* per sorted position: WIN_BRK_* */
    sqe_win_col *wcols;   /* per store column: its values by sorted position, when read */
    sqe_vector ***res;    /* per function: one result vector per chunk */
    size_t col_bytes;     /* held by wcols and res */
    uint32_t part_cap;    /* rows the per-partition scratch holds */
    uint32_t *grp, *gbeg; /* peer groups of the partition */
    uint32_t *fs, *fe;    /* frames of the function being computed */
    uint32_t *nn, *cb;    /* IGNORE NULLS: rows with a value, values before each row */
    sqe_key_slot *slots;  /* RANGE keys */
    sqe_win_agg_scratch agg;
    sqe_arena *cast_arena; /* values whose type differs from the result's */
    size_t pos;            /* next sorted position to emit */
    sqe_batch *child_out;  /* gathered child columns */
    sqe_batch *out;        /* child_out's vectors, then result chunks (none owned) */
} window_op;

/* ---------------------------------------------------------------- helpers */

static const sqe_window_func *win_func(const window_op *op, int fi) {
    return &op->base.plan->u.window.funcs[fi];
}

static const sqe_win_col *win_col(const window_op *op, win_ref r) {
    if (r.kind == WIN_REF_COL) return &op->wcols[r.idx];
    if (r.kind == WIN_REF_CONST) return &op->consts[r.idx];
    return NULL;
}

static inline sqe_vector *win_res(const window_op *op, int fi, size_t pos, uint32_t *row) {
    *row = (uint32_t)(pos & (SQE_BATCH_ROWS - 1));
    return op->res[fi][pos >> SQE_ROWSTORE_SHIFT];
}

static void win_set_null(const window_op *op, int fi, size_t pos) {
    uint32_t r;
    sqe_vector *v = win_res(op, fi, pos, &r);
    sqe_vector_set_null(v, r);
}

static void win_set_i64(const window_op *op, int fi, size_t pos, int64_t x) {
    uint32_t r;
    sqe_vector *v = win_res(op, fi, pos, &r);
    SQE_VEC_DATA(v, int64_t)[r] = x;
    sqe_vector_set_valid(v, r);
}

static void win_set_f64(const window_op *op, int fi, size_t pos, double x) {
    uint32_t r;
    sqe_vector *v = win_res(op, fi, pos, &r);
    SQE_VEC_DATA(v, double)[r] = x;
    sqe_vector_set_valid(v, r);
}

/* Copies one cell of the same physical layout (strings as views). */
static inline void win_copy_cell(sqe_vector *dst, uint32_t dr, const sqe_vector *src, uint32_t sr,
                                 size_t w) {
    if (src->type.id == SQE_T_NULL || dst->type.id == SQE_T_NULL || sqe_vector_is_null(src, sr)) {
        sqe_vector_set_null(dst, dr);
        return;
    }
    sqe_vector_set_valid(dst, dr);
    memcpy((char *)dst->data + (size_t)dr * w, (const char *)src->data + (size_t)sr * w, w);
}

/* Writes column col of rows idx[0..m) of rs into rows 0..m-1 of dst. */
static void win_gather(const sqe_rowstore *rs, const uint32_t *idx, uint32_t m, int col,
                       sqe_vector *dst) {
    size_t w = sqe_type_width(rs->types[col]);
    for (uint32_t i = 0; i < m; i++) {
        uint32_t sr;
        const sqe_vector *src = sqe_rowstore_col(rs, idx[i], col, &sr);
        win_copy_cell(dst, i, src, sr, w);
    }
}

/* An integer argument (ntile's buckets, an offset, nth_value's n); false
 * when NULL. */
static bool win_int(const sqe_win_col *c, size_t pos, int64_t *out) {
    uint32_t r;
    const sqe_vector *v = sqe_win_col_at(c, pos, &r);
    if (v->type.id == SQE_T_NULL || sqe_vector_is_null(v, r)) return false;
    switch (v->type.id) {
    case SQE_T_TINYINT:
        *out = SQE_VEC_DATA(v, int8_t)[r];
        break;
    case SQE_T_SMALLINT:
        *out = SQE_VEC_DATA(v, int16_t)[r];
        break;
    case SQE_T_INTEGER:
        *out = SQE_VEC_DATA(v, int32_t)[r];
        break;
    default:
        *out = SQE_VEC_DATA(v, int64_t)[r];
        break;
    }
    return true;
}

static size_t win_bytes(const window_op *op) {
    return op->rows.bytes + op->n * (sizeof(uint32_t) + 1) + op->col_bytes +
           (size_t)op->part_cap * (6 * sizeof(uint32_t) + sizeof(sqe_key_slot)) + op->agg.bytes;
}

static bool win_track(window_op *op, size_t extra, sqe_error *err) {
    return sqe_exec_mem_track(op->base.ctx, &op->tracked, win_bytes(op) + extra, WIN_OP_NAME, err);
}

/* ------------------------------------------------------------- resolving */

static int win_add_extra(window_op *op, const sqe_expr *e) {
    op->extra[op->n_extra] = e;
    return op->n_child + op->n_extra++;
}

/* The store column holding a PARTITION BY / ORDER BY expression. */
static int win_key_col(window_op *op, const sqe_expr *e) {
    if (e->kind == SQE_EXPR_COLUMN && e->col >= 0 && e->col < op->n_child) return e->col;
    return win_add_extra(op, e);
}

static win_ref win_resolve(window_op *op, const sqe_expr *e) {
    win_ref r = {WIN_REF_NONE, 0};
    if (!e) return r;
    if (e->kind == SQE_EXPR_COLUMN && e->col >= 0 && e->col < op->n_child) {
        r.kind = WIN_REF_COL;
        r.idx = e->col;
    } else if (sqe_expr_is_const(e)) {
        r.kind = WIN_REF_CONST;
        r.idx = op->n_consts;
        op->const_exprs[op->n_consts++] = e;
    } else {
        r.kind = WIN_REF_COL;
        r.idx = win_add_extra(op, e);
    }
    return r;
}

static bool win_uses_frame(sqe_window_kind k) {
    return k == SQE_WIN_AGGREGATE || k == SQE_WIN_FIRST_VALUE || k == SQE_WIN_LAST_VALUE ||
           k == SQE_WIN_NTH_VALUE;
}

static bool win_is_offset(sqe_frame_bound_kind k) {
    return k == SQE_BOUND_PRECEDING || k == SQE_BOUND_FOLLOWING;
}

static bool win_int_arg(const sqe_window_func *f, int a) {
    if (a >= f->n_args || !f->args[a]) return true;
    sqe_type t = f->args[a]->type;
    return sqe_type_is_integer(t) || t.id == SQE_T_NULL;
}

/* Function fi with its frame as the frame code reads it. The planner
 * writes Trino's default frame when there is no frame clause; a frame left
 * zeroed (ending at UNBOUNDED PRECEDING, which SQL never allows) is read as
 * that default too, instead of silently being empty for every row. */
static sqe_window_func win_norm(const window_op *op, int fi) {
    sqe_window_func f = *win_func(op, fi);
    if (f.end.kind == SQE_BOUND_UNBOUNDED_PRECEDING) {
        f.frame = SQE_FRAME_T_RANGE;
        f.start.kind = SQE_BOUND_UNBOUNDED_PRECEDING;
        f.end.kind = SQE_BOUND_CURRENT_ROW;
        f.start.offset = f.end.offset = NULL;
    }
    return f;
}

/* Same physical values (the result vectors take the node's output type). */
static bool win_same_layout(sqe_type a, sqe_type b) {
    return a.id == b.id && (a.id != SQE_T_DECIMAL || a.scale == b.scale);
}

/* Checks function fi against the plan contract (plan.h). */
static bool win_check(const window_op *op, int fi, sqe_error *err) {
    const sqe_plan *p = op->base.plan;
    sqe_window_func norm = win_norm(op, fi);
    const sqe_window_func *f = &norm;
    static const int min_args[] = {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2}; /* by sqe_window_kind */
    _Static_assert(SQE_WIN_NTH_VALUE == 11, "min_args follows sqe_window_kind");
    if ((unsigned)f->kind >= SQE_ARRAY_LEN(min_args))
        return sqe_error_set(err, SQE_ERR_INTERNAL, "WindowExec: function %d: unknown kind", fi);
    int need = f->kind == SQE_WIN_AGGREGATE ? (f->agg.star ? 0 : 1) : min_args[f->kind];
    bool is_double = f->kind == SQE_WIN_PERCENT_RANK || f->kind == SQE_WIN_CUME_DIST;
    bool is_bigint = f->kind >= SQE_WIN_ROW_NUMBER && f->kind <= SQE_WIN_NTILE && !is_double;
    const char *bad = NULL;
    if (f->n_args < need)
        bad = "missing argument";
    else if (!win_same_layout(f->type, p->out_types[op->n_child + fi]))
        bad = "result type differs from the node's output type";
    else if ((is_double && f->type.id != SQE_T_DOUBLE) || (is_bigint && f->type.id != SQE_T_BIGINT))
        bad = "wrong result type";
    else if (f->kind == SQE_WIN_AGGREGATE && !win_same_layout(f->agg.ret, f->type))
        bad = "aggregate result type differs from the function's";
    else if ((f->kind == SQE_WIN_NTILE && !win_int_arg(f, 0)) ||
             ((f->kind == SQE_WIN_LAG || f->kind == SQE_WIN_LEAD || f->kind == SQE_WIN_NTH_VALUE) &&
              !win_int_arg(f, 1)))
        bad = "integer argument expected";
    if (bad) return sqe_error_set(err, SQE_ERR_INTERNAL, "WindowExec: function %d: %s", fi, bad);
    bool range_off = f->frame == SQE_FRAME_T_RANGE &&
                     (win_is_offset(f->start.kind) || win_is_offset(f->end.kind));
    if (win_uses_frame(f->kind) && range_off && p->u.window.n_order != 1)
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                             "Window frame of type RANGE PRECEDING or FOLLOWING requires single "
                             "sort item in ORDER BY (actual: %d)",
                             p->u.window.n_order);
    return true;
}

static void win_resolve_func(window_op *op, int fi) {
    win_fn *fn = &op->fn[fi];
    fn->f = win_norm(op, fi);
    const sqe_window_func *f = &fn->f;
    for (int a = 0; a < f->n_args && a < WIN_N_ARGS; a++) fn->arg[a] = win_resolve(op, f->args[a]);
    if (f->kind == SQE_WIN_AGGREGATE) fn->filter = win_resolve(op, f->filter);
    if (!win_uses_frame(f->kind)) return;
    if (win_is_offset(f->start.kind)) fn->start_off = win_resolve(op, f->start.offset);
    if (win_is_offset(f->end.kind)) fn->end_off = win_resolve(op, f->end.offset);
    fn->range_key = f->frame == SQE_FRAME_T_RANGE &&
                    (win_is_offset(f->start.kind) || win_is_offset(f->end.kind));
}

/* Store layout and sort keys: partition columns ASC NULLS FIRST, the order
 * keys as written, then the tag. */
static void win_layout(window_op *op) {
    const sqe_plan *p = op->base.plan;
    int np = p->u.window.n_partition, no = p->u.window.n_order;
    op->n_store = op->n_child + op->n_extra + 1;
    op->types = sqe_calloc((size_t)op->n_store, sizeof *op->types);
    const sqe_plan *child = p->children[0];
    for (int c = 0; c < op->n_child; c++) op->types[c] = child->out_types[c];
    for (int k = 0; k < op->n_extra; k++) op->types[op->n_child + k] = op->extra[k]->type;
    op->types[op->n_store - 1] = sqe_type_make(SQE_T_BIGINT);
    op->n_keys = np + no + 1;
    op->keys = sqe_calloc((size_t)op->n_keys, sizeof *op->keys);
    for (int k = 0; k < np; k++) op->keys[k] = (sqe_sort_key){op->part_cols[k], false, true};
    for (int k = 0; k < no; k++) {
        op->keys[np + k] = p->u.window.order_keys[k];
        op->keys[np + k].col = op->order_cols[p->u.window.order_keys[k].col];
    }
    op->keys[np + no] = (sqe_sort_key){op->n_store - 1, false, false};
}

/* --------------------------------------------------------------- the sink */

typedef struct win_local {
    sqe_rowstore rows;
    sqe_expr_state **es; /* per extra column */
    sqe_batch *in;       /* the input batch's columns, then the extra columns */
    size_t tracked;
} win_local;

static void *win_local_new(sqe_op *op_) {
    window_op *op = (window_op *)op_;
    win_local *l = sqe_calloc(1, sizeof *l);
    sqe_rowstore_init(&l->rows, op->n_store, op->types, true);
    l->es = sqe_calloc((size_t)op->n_extra + 1, sizeof *l->es);
    for (int k = 0; k < op->n_extra; k++)
        l->es[k] = sqe_exec_expr_state_new(op_, op->extra[k], NULL); /* counted */
    l->in = sqe_batch_new_empty(op->n_child + op->n_extra);
    return l;
}

static void win_local_free(sqe_op *op_, void *l_) {
    window_op *op = (window_op *)op_;
    win_local *l = l_;
    if (!l) return;
    sqe_exec_mem_track(op_->ctx, &l->tracked, 0, WIN_OP_NAME, NULL);
    sqe_rowstore_free(&l->rows);
    for (int k = 0; k < op->n_extra; k++) sqe_expr_state_free(l->es[k]);
    sqe_free(l->es);
    sqe_batch_free(l->in);
    sqe_free(l);
}

static bool win_consume(sqe_op *op_, void *l_, sqe_batch *b, uint64_t tag_base, sqe_error *err) {
    window_op *op = (window_op *)op_;
    win_local *l = l_;
    uint32_t n = sqe_batch_live(b);
    if (n == 0) return true;
    for (int c = 0; c < op->n_child; c++) l->in->cols[c] = b->cols[c];
    for (int k = 0; k < op->n_extra; k++) {
        sqe_vector *v = sqe_expr_eval(l->es[k], b, b->sel, n, err);
        if (!v) return false;
        l->in->cols[op->n_child + k] = v;
    }
    l->in->n_rows = b->n_rows;
    sqe_rowstore_append(&l->rows, l->in, b->sel, n, tag_base);
    return sqe_exec_mem_track(op_->ctx, &l->tracked, l->rows.bytes, WIN_OP_NAME, err);
}

static bool win_merge(sqe_op *op_, void *l_, sqe_error *err) {
    window_op *op = (window_op *)op_;
    win_local *l = l_;
    sqe_rowstore_adopt(&op->rows, &l->rows);
    win_local_free(op_, l);
    return win_track(op, 0, err);
}

static const sqe_sink_vtable win_sink = {win_local_new, win_consume, win_merge, win_local_free};

/* ------------------------------------------------------------ preparing */

/* Marks where key k (PARTITION BY first, then ORDER BY) changes. */
static void win_breaks_key(window_op *op, int col, uint8_t level, sqe_key_slot *slots,
                           uint8_t *nulls) {
    sqe_vector *tv = sqe_vector_new(op->types[col]);
    sqe_key_class kc = sqe_key_class_of(op->types[col]);
    sqe_key_slot prev;
    uint8_t prev_null = 0;
    memset(&prev, 0, sizeof prev);
    for (size_t base = 0; base < op->n; base += SQE_BATCH_ROWS) {
        uint32_t m = (uint32_t)SQE_MIN((size_t)SQE_BATCH_ROWS, op->n - base);
        win_gather(&op->rows, op->idx + base, m, col, tv);
        sqe_key_load(tv, NULL, m, slots, nulls);
        for (uint32_t i = 0; i < m; i++) {
            bool same = prev_null == nulls[i] && (nulls[i] || sqe_key_eq(kc, &prev, &slots[i]));
            if (base + i > 0 && !same && op->brk[base + i] < level) op->brk[base + i] = level;
            prev = slots[i]; /* long strings point into the row store: stable */
            prev_null = nulls[i];
        }
    }
    sqe_vector_free(tv);
}

static void win_breaks(window_op *op) {
    const sqe_plan *p = op->base.plan;
    int np = p->u.window.n_partition, no = p->u.window.n_order;
    op->brk[0] = WIN_BRK_PART;
    if (np + no == 0) return;
    sqe_key_slot *slots = sqe_malloc(SQE_BATCH_ROWS * sizeof *slots);
    uint8_t *nulls = sqe_malloc(SQE_BATCH_ROWS);
    for (int k = 0; k < np; k++) win_breaks_key(op, op->part_cols[k], WIN_BRK_PART, slots, nulls);
    for (int k = 0; k < no; k++)
        win_breaks_key(op, op->order_cols[p->u.window.order_keys[k].col], WIN_BRK_PEER, slots,
                       nulls);
    sqe_free(slots);
    sqe_free(nulls);
}

/* Evaluates the constant expressions into one-row vectors. */
static bool win_consts(window_op *op, sqe_error *err) {
    op->consts = sqe_calloc((size_t)op->n_consts + 1, sizeof *op->consts);
    for (int k = 0; k < op->n_consts; k++) {
        const sqe_expr *e = op->const_exprs[k];
        sqe_win_col *c = &op->consts[k];
        c->chunks = sqe_calloc(1, sizeof *c->chunks);
        c->chunks[0] = sqe_vector_new(e->type);
        c->n_chunks = 1;
        c->is_const = true;
        sqe_expr_state *st = sqe_expr_state_new(e);
        sqe_batch *b = sqe_batch_new_empty(0);
        b->n_rows = 1;
        sqe_vector *v = sqe_expr_eval(st, b, NULL, 1, err);
        if (v) sqe_vector_copy_row(c->chunks[0], 0, v, 0);
        sqe_expr_state_free(st);
        sqe_batch_free(b);
        if (!v) return false;
    }
    return true;
}

/* Gathers store column col by sorted position (once). */
static void win_column(window_op *op, int col) {
    sqe_win_col *c = &op->wcols[col];
    if (c->chunks) return;
    c->n_chunks = op->n_chunks;
    c->chunks = sqe_calloc(op->n_chunks, sizeof *c->chunks);
    for (size_t k = 0; k < op->n_chunks; k++) {
        size_t base = k * SQE_BATCH_ROWS;
        uint32_t m = (uint32_t)SQE_MIN((size_t)SQE_BATCH_ROWS, op->n - base);
        c->chunks[k] = sqe_vector_new(op->types[col]);
        win_gather(&op->rows, op->idx + base, m, col, c->chunks[k]);
    }
    op->col_bytes += op->n_chunks * (SQE_BATCH_ROWS * sqe_type_width(op->types[col]) + 512);
}

/* Work columns for every stored input a function reads; result vectors. */
static void win_columns(window_op *op) {
    const sqe_plan *p = op->base.plan;
    op->wcols = sqe_calloc((size_t)op->n_store, sizeof *op->wcols);
    for (int fi = 0; fi < op->n_funcs; fi++) {
        const win_fn *fn = &op->fn[fi];
        win_ref refs[WIN_N_ARGS + 3] = {fn->arg[0], fn->arg[1],    fn->arg[2],
                                        fn->filter, fn->start_off, fn->end_off};
        for (size_t r = 0; r < SQE_ARRAY_LEN(refs); r++)
            if (refs[r].kind == WIN_REF_COL) win_column(op, refs[r].idx);
        if (fn->range_key) win_column(op, op->order_cols[p->u.window.order_keys[0].col]);
    }
    op->res = sqe_calloc((size_t)op->n_funcs + 1, sizeof *op->res);
    for (int fi = 0; fi < op->n_funcs; fi++) {
        sqe_type t = p->out_types[op->n_child + fi];
        op->res[fi] = sqe_calloc(op->n_chunks, sizeof **op->res);
        for (size_t k = 0; k < op->n_chunks; k++) op->res[fi][k] = sqe_vector_new(t);
        op->col_bytes += op->n_chunks * (SQE_BATCH_ROWS * sqe_type_width(t) + 512);
    }
}

/* Grows the per-partition scratch to n rows; true when it grew. */
static bool win_scratch(window_op *op, uint32_t n) {
    if (n <= op->part_cap) return false;
    uint32_t cap = SQE_MAX(n, op->part_cap * 2);
    size_t u = sizeof(uint32_t);
    op->grp = sqe_realloc(op->grp, cap * u);
    op->gbeg = sqe_realloc(op->gbeg, ((size_t)cap + 1) * u);
    op->fs = sqe_realloc(op->fs, cap * u);
    op->fe = sqe_realloc(op->fe, cap * u);
    op->nn = sqe_realloc(op->nn, cap * u);
    op->cb = sqe_realloc(op->cb, ((size_t)cap + 1) * u);
    op->slots = sqe_realloc(op->slots, cap * sizeof *op->slots);
    op->part_cap = cap;
    return true;
}

/* Describes sorted rows [ps, pe) as a partition with its peer groups. */
static bool win_part(window_op *op, size_t ps, size_t pe, sqe_win_part *part) {
    uint32_t n = (uint32_t)(pe - ps);
    bool grew = win_scratch(op, n);
    uint32_t g = 0;
    op->gbeg[0] = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (i > 0 && op->brk[ps + i] != WIN_BRK_NONE) op->gbeg[++g] = i;
        op->grp[i] = g;
    }
    op->gbeg[g + 1] = n;
    part->start = ps;
    part->n = n;
    part->n_groups = g + 1;
    part->grp = op->grp;
    part->gbeg = op->gbeg;
    return grew;
}

/* ------------------------------------------------------------ functions */

static void win_rank(window_op *op, int fi, const sqe_window_func *f, const sqe_win_part *p) {
    for (uint32_t i = 0; i < p->n; i++) {
        size_t pos = p->start + i;
        uint32_t g = p->grp[i];
        switch (f->kind) {
        case SQE_WIN_ROW_NUMBER:
            win_set_i64(op, fi, pos, (int64_t)i + 1);
            break;
        case SQE_WIN_RANK:
            win_set_i64(op, fi, pos, (int64_t)p->gbeg[g] + 1);
            break;
        case SQE_WIN_DENSE_RANK:
            win_set_i64(op, fi, pos, (int64_t)g + 1);
            break;
        case SQE_WIN_PERCENT_RANK:
            win_set_f64(op, fi, pos, p->n == 1 ? 0.0 : (double)p->gbeg[g] / (double)(p->n - 1));
            break;
        default: /* SQE_WIN_CUME_DIST */
            win_set_f64(op, fi, pos, (double)p->gbeg[g + 1] / (double)p->n);
            break;
        }
    }
}

/* Trino's NTileFunction: the 0-based bucket of row i of n. */
static int64_t win_bucket(uint64_t buckets, uint64_t i, uint64_t n) {
    if (n < buckets) return (int64_t)i;
    uint64_t per = n / buckets, rem = n % buckets, large = (per + 1) * rem;
    if (i < large) return (int64_t)(i / (per + 1));
    return (int64_t)((i - large) / per + rem);
}

static bool win_ntile(window_op *op, int fi, const sqe_win_part *p, sqe_error *err) {
    const sqe_win_col *bc = win_col(op, op->fn[fi].arg[0]);
    for (uint32_t i = 0; i < p->n; i++) {
        size_t pos = p->start + i;
        int64_t b;
        if (!win_int(bc, pos, &b)) {
            win_set_null(op, fi, pos);
            continue;
        }
        if (b <= 0)
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT, "Buckets must be greater than 0");
        win_set_i64(op, fi, pos, win_bucket((uint64_t)b, i, p->n) + 1);
    }
    return true;
}

/* Writes value (src, src_pos) as function fi's result at dst_pos, casting
 * when the value's type is not the result's. */
static bool win_put(window_op *op, int fi, size_t dst_pos, const sqe_win_col *src, size_t src_pos,
                    sqe_error *err) {
    uint32_t dr, sr;
    sqe_vector *dst = win_res(op, fi, dst_pos, &dr);
    const sqe_vector *sv = sqe_win_col_at(src, src_pos, &sr);
    if (sv->type.id == SQE_T_NULL || sqe_vector_is_null(sv, sr)) {
        sqe_vector_set_null(dst, dr);
        return true;
    }
    if (win_same_layout(sv->type, dst->type)) {
        win_copy_cell(dst, dr, sv, sr, sqe_type_width(dst->type));
        return true;
    }
    if (!op->cast_arena) op->cast_arena = sqe_arena_new(0);
    sqe_value in, cast;
    sqe_vector_get_value(sv, sr, &in);
    bool ok = sqe_value_cast(&in, dst->type, false, op->cast_arena, &cast, err);
    if (ok) sqe_vector_set_value(dst, dr, &cast);
    sqe_arena_reset(op->cast_arena);
    return ok;
}

/* Fills nn[] (rows of p whose value is not NULL) and cb[i] (how many of
 * them come before row i, i <= n); returns their count. */
static uint32_t win_nonnull(window_op *op, const sqe_win_col *val, const sqe_win_part *p) {
    uint32_t k = 0;
    for (uint32_t i = 0; i < p->n; i++) {
        uint32_t r;
        const sqe_vector *v = sqe_win_col_at(val, p->start + i, &r);
        op->cb[i] = k;
        if (v->type.id != SQE_T_NULL && !sqe_vector_is_null(v, r)) op->nn[k++] = i;
    }
    op->cb[p->n] = k;
    return k;
}

/* The row `off` rows before (lag) or after row i, counting only rows with a
 * value when ignoring NULLs; -1 outside the partition. */
static int64_t win_shift(const window_op *op, const sqe_win_part *p, uint32_t i, uint64_t off,
                         bool lag, bool ignore_nulls, uint32_t total) {
    if (!ignore_nulls || off == 0) {
        if (lag) return off > i ? -1 : (int64_t)(i - off);
        return off >= (uint64_t)(p->n - i) ? -1 : (int64_t)(i + off);
    }
    uint32_t c = op->cb[i];
    if (lag) return off > c ? -1 : (int64_t)op->nn[c - off];
    uint64_t k = (uint64_t)op->cb[i + 1] + off - 1;
    return k >= total ? -1 : (int64_t)op->nn[k];
}

static bool win_lag_lead(window_op *op, int fi, const sqe_window_func *f, const sqe_win_part *p,
                         sqe_error *err) {
    const win_fn *fn = &op->fn[fi];
    const sqe_win_col *val = win_col(op, fn->arg[0]), *offc = win_col(op, fn->arg[1]),
                      *dflt = win_col(op, fn->arg[2]);
    bool lag = f->kind == SQE_WIN_LAG;
    uint32_t total = f->ignore_nulls ? win_nonnull(op, val, p) : 0;
    for (uint32_t i = 0; i < p->n; i++) {
        size_t pos = p->start + i;
        int64_t off = 1;
        if (offc && !win_int(offc, pos, &off)) {
            win_set_null(op, fi, pos);
            continue;
        }
        if (off < 0)
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT, "Offset must be at least 0");
        int64_t t = win_shift(op, p, i, (uint64_t)off, lag, f->ignore_nulls, total);
        bool ok = true;
        if (t >= 0)
            ok = win_put(op, fi, pos, val, p->start + (size_t)t, err);
        else if (dflt)
            ok = win_put(op, fi, pos, dflt, pos, err);
        else
            win_set_null(op, fi, pos);
        if (!ok) return false;
    }
    return true;
}

/* The row whose value first/last/nth_value shows for row i (frame fs/fe),
 * or -1 for NULL. */
static bool win_pick(const window_op *op, const sqe_window_func *f, const sqe_win_part *p,
                     uint32_t i, const sqe_win_col *nth, uint32_t total, int64_t *t,
                     sqe_error *err) {
    uint32_t a = op->fs[i], b = op->fe[i];
    const uint32_t *nn = op->nn, *cb = op->cb;
    *t = -1;
    if (a >= b) return true;
    bool ign = f->ignore_nulls;
    if (f->kind == SQE_WIN_FIRST_VALUE) {
        if (!ign)
            *t = a;
        else if (cb[a] < total && nn[cb[a]] < b)
            *t = nn[cb[a]];
        return true;
    }
    if (f->kind == SQE_WIN_LAST_VALUE) {
        if (!ign)
            *t = b - 1;
        else if (cb[b] > 0 && nn[cb[b] - 1] >= a)
            *t = nn[cb[b] - 1];
        return true;
    }
    int64_t k;
    if (!win_int(nth, p->start + i, &k)) return true;
    if (k < 1) return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT, "Offset must be at least 1");
    uint64_t step = (uint64_t)k - 1;
    if (!ign) {
        if (step < (uint64_t)(b - a)) *t = (int64_t)(a + step);
    } else {
        uint64_t c = cb[a] + step;
        if (c < total && nn[c] < b) *t = nn[c];
    }
    return true;
}

static bool win_frame_value(window_op *op, int fi, const sqe_window_func *f, const sqe_win_part *p,
                            sqe_error *err) {
    const win_fn *fn = &op->fn[fi];
    const sqe_win_col *val = win_col(op, fn->arg[0]);
    const sqe_win_col *nth = f->kind == SQE_WIN_NTH_VALUE ? win_col(op, fn->arg[1]) : NULL;
    uint32_t total = f->ignore_nulls ? win_nonnull(op, val, p) : 0;
    for (uint32_t i = 0; i < p->n; i++) {
        size_t pos = p->start + i;
        int64_t t;
        if (!win_pick(op, f, p, i, nth, total, &t, err)) return false;
        if (t < 0)
            win_set_null(op, fi, pos);
        else if (!win_put(op, fi, pos, val, p->start + (size_t)t, err))
            return false;
    }
    return true;
}

static bool win_frames_for(window_op *op, int fi, const sqe_win_part *p, sqe_error *err) {
    const win_fn *fn = &op->fn[fi];
    const sqe_plan *pl = op->base.plan;
    sqe_win_frame_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.f = &fn->f;
    spec.start_off = win_col(op, fn->start_off);
    spec.end_off = win_col(op, fn->end_off);
    if (fn->range_key) {
        spec.key = &op->wcols[op->order_cols[pl->u.window.order_keys[0].col]];
        spec.key_order = pl->u.window.order_keys[0];
    }
    return sqe_win_frames(&spec, p, op->fs, op->fe, op->slots, err);
}

static bool win_eval(window_op *op, int fi, const sqe_win_part *p, sqe_error *err) {
    const sqe_window_func *f = win_func(op, fi);
    const win_fn *fn = &op->fn[fi];
    switch (f->kind) {
    case SQE_WIN_ROW_NUMBER:
    case SQE_WIN_RANK:
    case SQE_WIN_DENSE_RANK:
    case SQE_WIN_PERCENT_RANK:
    case SQE_WIN_CUME_DIST:
        win_rank(op, fi, f, p);
        return true;
    case SQE_WIN_NTILE:
        return win_ntile(op, fi, p, err);
    case SQE_WIN_LAG:
    case SQE_WIN_LEAD:
        return win_lag_lead(op, fi, f, p, err);
    case SQE_WIN_FIRST_VALUE:
    case SQE_WIN_LAST_VALUE:
    case SQE_WIN_NTH_VALUE:
        return win_frames_for(op, fi, p, err) && win_frame_value(op, fi, f, p, err);
    case SQE_WIN_AGGREGATE:
        return win_frames_for(op, fi, p, err) &&
               sqe_win_agg_eval(&op->agg, &f->agg, win_col(op, fn->arg[0]), win_col(op, fn->filter),
                                p, op->fs, op->fe, op->res[fi], err);
    }
    return sqe_error_set(err, SQE_ERR_INTERNAL, "WindowExec: unknown function kind");
}

/* Every function for every partition. */
static bool win_compute(window_op *op, sqe_error *err) {
    size_t ps = 0, agg_bytes = op->agg.bytes;
    while (ps < op->n) {
        if (sqe_exec_stopped(op->base.ctx, err)) return false;
        size_t pe = ps + 1;
        while (pe < op->n && op->brk[pe] != WIN_BRK_PART) pe++;
        sqe_win_part part;
        bool grew = win_part(op, ps, pe, &part);
        if (grew && !win_track(op, 0, err)) return false;
        for (int fi = 0; fi < op->n_funcs; fi++)
            if (!win_eval(op, fi, &part, err)) return false;
        if (op->agg.bytes != agg_bytes && !win_track(op, 0, err)) return false;
        agg_bytes = op->agg.bytes;
        ps = pe;
    }
    return true;
}

/* Drain, sort, prepare, compute: everything before the first batch. */
static bool win_build(window_op *op, sqe_error *err) {
    if (!sqe_exec_drain(&op->base, 0, &win_sink, err)) return false;
    op->n = op->rows.n_rows;
    if (op->n == 0) return true;
    op->n_chunks = (op->n + SQE_BATCH_ROWS - 1) / SQE_BATCH_ROWS;
    op->idx = sqe_malloc(op->n * sizeof *op->idx);
    op->brk = sqe_calloc(op->n, 1);
    size_t sorting =
        op->n * (3 * sizeof(uint32_t) + (size_t)op->n_keys * (sizeof(sqe_key_slot) + 1));
    if (!win_track(op, sorting, err)) return false;
    sqe_rowstore_indexes(&op->rows, op->idx);
    sqe_rowstore_sort(&op->rows, op->keys, op->n_keys, op->idx, op->n);
    win_breaks(op);
    if (!win_consts(op, err)) return false;
    win_columns(op);
    if (!win_track(op, 0, err)) return false;
    return win_compute(op, err);
}

/* -------------------------------------------------------------- operator */

static bool window_open(sqe_op *op_, sqe_error *err) {
    window_op *op = (window_op *)op_;
    const sqe_plan *p = op_->plan;
    const sqe_plan *child = p->children[0];
    int np = p->u.window.n_partition, no = p->u.window.n_order;
    op->n_child = child->n_out;
    op->n_funcs = p->u.window.n_funcs;
    if (p->n_out != op->n_child + op->n_funcs)
        return sqe_error_set(err, SQE_ERR_INTERNAL, "WindowExec: %d outputs for %d + %d columns",
                             p->n_out, op->n_child, op->n_funcs);
    for (int fi = 0; fi < op->n_funcs; fi++)
        if (!win_check(op, fi, err)) return false;
    size_t cap = (size_t)np + (size_t)no + 6 * (size_t)op->n_funcs + 1;
    op->extra = sqe_calloc(cap, sizeof *op->extra);
    op->const_exprs = sqe_calloc(cap, sizeof *op->const_exprs);
    op->part_cols = sqe_calloc((size_t)np + 1, sizeof *op->part_cols);
    op->order_cols = sqe_calloc((size_t)no + 1, sizeof *op->order_cols);
    for (int k = 0; k < np; k++) op->part_cols[k] = win_key_col(op, p->u.window.partition[k]);
    for (int k = 0; k < no; k++) op->order_cols[k] = win_key_col(op, p->u.window.order[k]);
    op->fn = sqe_calloc((size_t)op->n_funcs + 1, sizeof *op->fn);
    for (int fi = 0; fi < op->n_funcs; fi++) win_resolve_func(op, fi);
    win_layout(op);
    sqe_rowstore_init(&op->rows, op->n_store, op->types, true);
    op->child_out = sqe_batch_new(op->n_child, child->out_types);
    op->out = sqe_batch_new_empty(p->n_out);
    for (int c = 0; c < op->n_child; c++) op->out->cols[c] = op->child_out->cols[c];
    return true;
}

static bool window_next(sqe_op *op_, sqe_batch **out, bool *eof, sqe_error *err) {
    window_op *op = (window_op *)op_;
    if (!op->built) {
        if (!win_build(op, err)) return false;
        op->built = true;
    }
    if (op->pos >= op->n) {
        *eof = true;
        return true;
    }
    size_t k = op->pos >> SQE_ROWSTORE_SHIFT;
    uint32_t m = (uint32_t)SQE_MIN((size_t)SQE_BATCH_ROWS, op->n - op->pos);
    sqe_batch_reset(op->child_out);
    op->child_out->n_rows = m;
    sqe_rowstore_gather(&op->rows, op->idx + op->pos, m, op->child_out);
    for (int fi = 0; fi < op->n_funcs; fi++) op->out->cols[op->n_child + fi] = op->res[fi][k];
    op->out->n_rows = m;
    op->out->sel = NULL;
    op->out->n_sel = 0;
    op->pos += m;
    *eof = false;
    *out = op->out;
    return true;
}

static void win_free_col(sqe_win_col *c) {
    for (size_t k = 0; k < c->n_chunks; k++) sqe_vector_free(c->chunks[k]);
    sqe_free(c->chunks);
}

static void window_close(sqe_op *op_) {
    window_op *op = (window_op *)op_;
    sqe_exec_mem_track(op_->ctx, &op->tracked, 0, WIN_OP_NAME, NULL);
    sqe_rowstore_free(&op->rows);
    for (int k = 0; op->consts && k < op->n_consts; k++) win_free_col(&op->consts[k]);
    for (int c = 0; op->wcols && c < op->n_store; c++) win_free_col(&op->wcols[c]);
    for (int fi = 0; op->res && fi < op->n_funcs; fi++) {
        for (size_t k = 0; k < op->n_chunks; k++) sqe_vector_free(op->res[fi][k]);
        sqe_free(op->res[fi]);
    }
    void *bufs[] = {op->extra, op->const_exprs, op->types,  op->part_cols, op->order_cols,
                    op->keys,  op->fn,          op->consts, op->idx,       op->brk,
                    op->wcols, op->res,         op->grp,    op->gbeg,      op->fs,
                    op->fe,    op->nn,          op->cb,     op->slots};
    for (size_t i = 0; i < SQE_ARRAY_LEN(bufs); i++) sqe_free(bufs[i]);
    sqe_win_agg_scratch_free(&op->agg);
    if (op->cast_arena) sqe_arena_free(op->cast_arena);
    sqe_batch_free(op->out);
    sqe_batch_free(op->child_out);
    sqe_op saved = op->base;
    memset(op, 0, sizeof *op);
    op->base = saved;
}

static const sqe_op_vtable window_vtable = {WIN_OP_NAME, window_open, window_next, window_close};

sqe_op *sqe_exec_window_new(sqe_exec_ctx *ctx, const sqe_plan *p) {
    window_op *op = sqe_calloc(1, sizeof *op);
    op->base.vt = &window_vtable;
    op->base.plan = p;
    op->base.ctx = ctx;
    return &op->base;
}
