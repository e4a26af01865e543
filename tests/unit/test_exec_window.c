/*
 * test_exec_window.c - WindowExec (exec/window.c, window_frame.c,
 * window_agg.c) driven by WINDOW plans built by hand over VALUES inputs:
 * ranking with ties and NULLs in partition and order keys, the default
 * RANGE frame (peers share a value), every frame shape of ROWS / GROUPS /
 * RANGE (NULL keys, DESC, DOUBLE / DECIMAL / DATE keys), IGNORE NULLS,
 * lag/lead past the partition with defaults, ntile with uneven buckets,
 * aggregates with FILTER and DISTINCT (from the real function registry),
 * errors Trino raises, partitions spanning several 2048-row batches, a
 * randomized cross-check of frames against a naive reference, the memory
 * limit, and a scan of a CSV table run serially and on a thread pool (the
 * answers must be identical).
 *
 * The operator is built directly (sqe_exec_window_new + a child built with
 * sqe_op_build) rather than through sqe_exec_run, so these tests do not
 * depend on how exec.c dispatches plan nodes.
 */
#include "exec/exec_int.h"
#include "sql/sql.h"
#include "unit.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static sqe_arena *A;

static const sqe_type T_BIGINT = {SQE_T_BIGINT, 0, 0, 0, 0};
static const sqe_type T_DOUBLE = {SQE_T_DOUBLE, 0, 0, 0, 0};
static const sqe_type T_BOOL = {SQE_T_BOOLEAN, 0, 0, 0, 0};
static const sqe_type T_VARCHAR = {SQE_T_VARCHAR, 0, 0, 0, 0};
static const sqe_type T_DATE = {SQE_T_DATE, 0, 0, 0, 0};

#define NUL INT64_MIN

/* ------------------------------------------------------------ expressions */

static bool valid(const sqe_vector *v, uint32_t r) {
    return !sqe_vector_is_null(v, r);
}

#define FOR_SEL(i, r) for (uint32_t i = 0, r = 0; i < n && ((r = sel ? sel[i] : i), 1); i++)

static bool k_gt(const sqe_func_binding *b, sqe_vector *const *args, const uint16_t *sel,
                 uint32_t n, sqe_vector *out, sqe_error *err) {
    FOR_SEL(i, r) {
        if (!valid(args[0], r) || !valid(args[1], r)) {
            sqe_vector_set_null(out, r);
            continue;
        }
        SQE_VEC_DATA(out, uint8_t)
        [r] = SQE_VEC_DATA(args[0], int64_t)[r] > SQE_VEC_DATA(args[1], int64_t)[r];
    }
    return true;
}

static bool k_mod(const sqe_func_binding *b, sqe_vector *const *args, const uint16_t *sel,
                  uint32_t n, sqe_vector *out, sqe_error *err) {
    FOR_SEL(i, r) {
        if (!valid(args[0], r) || !valid(args[1], r)) {
            sqe_vector_set_null(out, r);
            continue;
        }
        SQE_VEC_DATA(out, int64_t)
        [r] = SQE_VEC_DATA(args[0], int64_t)[r] % SQE_VEC_DATA(args[1], int64_t)[r];
    }
    return true;
}

static bool k_fail(const sqe_func_binding *b, sqe_vector *const *args, const uint16_t *sel,
                   uint32_t n, sqe_vector *out, sqe_error *err) {
    return sqe_error_set(err, SQE_ERR_DIVISION_BY_ZERO, "division by zero");
}

static sqe_expr *col(int c, sqe_type t) {
    return sqe_expr_column(A, c, t, sqe_arena_sprintf(A, "c%d", c));
}
static sqe_expr *ci(int64_t v) {
    sqe_value x = sqe_value_int(SQE_T_BIGINT, v);
    return sqe_expr_const(A, &x);
}
static sqe_expr *cnull(sqe_type t) {
    sqe_value x = sqe_value_null(t);
    return sqe_expr_const(A, &x);
}
static sqe_expr *call2(const char *name, sqe_scalar_kernel k, sqe_type ret, sqe_expr *a,
                       sqe_expr *b) {
    sqe_expr *args[2] = {a, b};
    sqe_expr *e = sqe_expr_new(A, SQE_EXPR_CALL, ret, 2, args);
    e->fn.name = name;
    e->fn.kernel = k;
    e->fn.ret = ret;
    e->fn.n_args = 2;
    return e;
}
static sqe_expr *gt(sqe_expr *a, sqe_expr *b) {
    return call2(">", k_gt, T_BOOL, a, b);
}
static sqe_expr *mod(sqe_expr *a, sqe_expr *b) {
    return call2("%", k_mod, T_BIGINT, a, b);
}

/* ------------------------------------------------------------ plan helpers */

static sqe_plan *node(sqe_plan_kind kind, sqe_plan *child, int n_out, const sqe_type *types) {
    sqe_plan *p = sqe_arena_alloc(A, sizeof *p);
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->n_children = child ? 1 : 0;
    p->children = sqe_arena_alloc(A, sizeof(sqe_plan *));
    p->children[0] = child;
    p->n_out = n_out;
    p->out_types = sqe_arena_alloc(A, (size_t)(n_out + 1) * sizeof(sqe_type));
    p->out_names = sqe_arena_alloc(A, (size_t)(n_out + 1) * sizeof(char *));
    for (int i = 0; i < n_out; i++) {
        p->out_types[i] = types[i];
        p->out_names[i] = sqe_arena_sprintf(A, "c%d", i);
    }
    return p;
}

/* VALUES from text: cells row-major, NULL or "NULL" is SQL NULL, others are
 * cast from varchar to the column type. */
static sqe_plan *values_txt(int n_cols, const sqe_type *types, int n_rows,
                            const char *const *cells) {
    sqe_plan *p = node(SQE_PLAN_VALUES, NULL, n_cols, types);
    p->u.values.n_rows = n_rows;
    p->u.values.rows = sqe_arena_alloc(A, (size_t)(n_rows + 1) * sizeof(sqe_value *));
    for (int r = 0; r < n_rows; r++) {
        sqe_value *row = sqe_arena_alloc(A, (size_t)n_cols * sizeof(sqe_value));
        for (int c = 0; c < n_cols; c++) {
            const char *s = cells[r * n_cols + c];
            if (!s || strcmp(s, "NULL") == 0) {
                row[c] = sqe_value_null(types[c]);
                continue;
            }
            sqe_value in = sqe_value_string(s, (uint32_t)strlen(s));
            sqe_error err;
            sqe_error_clear(&err);
            bool ok = sqe_value_cast(&in, types[c], false, A, &row[c], &err);
            CHECK(ok);
        }
        p->u.values.rows[r] = row;
    }
    return p;
}

/* VALUES of BIGINT columns; NUL is NULL. */
static sqe_plan *values_i64(int n_cols, int n_rows, const int64_t *cells) {
    sqe_type types[8];
    for (int c = 0; c < n_cols; c++) types[c] = T_BIGINT;
    sqe_plan *p = node(SQE_PLAN_VALUES, NULL, n_cols, types);
    p->u.values.n_rows = n_rows;
    p->u.values.rows = sqe_arena_alloc(A, (size_t)(n_rows + 1) * sizeof(sqe_value *));
    for (int r = 0; r < n_rows; r++) {
        sqe_value *row = sqe_arena_alloc(A, (size_t)n_cols * sizeof(sqe_value));
        for (int c = 0; c < n_cols; c++) {
            int64_t x = cells[r * n_cols + c];
            row[c] = x == NUL ? sqe_value_null(T_BIGINT) : sqe_value_int(SQE_T_BIGINT, x);
        }
        p->u.values.rows[r] = row;
    }
    return p;
}

/* A window function with Trino's default frame (RANGE UNBOUNDED PRECEDING
 * .. CURRENT ROW). */
static sqe_window_func wf(sqe_window_kind kind, sqe_type type, int n_args, sqe_expr *a0,
                          sqe_expr *a1, sqe_expr *a2) {
    sqe_window_func f;
    memset(&f, 0, sizeof f);
    f.kind = kind;
    f.type = type;
    f.n_args = n_args;
    f.args = sqe_arena_alloc(A, 3 * sizeof(sqe_expr *));
    f.args[0] = a0;
    f.args[1] = a1;
    f.args[2] = a2;
    f.frame = SQE_FRAME_T_RANGE;
    f.start.kind = SQE_BOUND_UNBOUNDED_PRECEDING;
    f.end.kind = SQE_BOUND_CURRENT_ROW;
    return f;
}

static sqe_window_func wrank(sqe_window_kind kind) {
    bool dbl = kind == SQE_WIN_PERCENT_RANK || kind == SQE_WIN_CUME_DIST;
    return wf(kind, dbl ? T_DOUBLE : T_BIGINT, 0, NULL, NULL, NULL);
}

/* An aggregate from the function registry; arg NULL is count(*). */
static sqe_window_func wagg(const char *name, bool distinct, sqe_expr *arg) {
    sqe_agg_binding b;
    sqe_error err;
    sqe_error_clear(&err);
    sqe_type t = arg ? arg->type : T_BIGINT;
    bool ok = sqe_func_bind_aggregate(A, name, distinct, arg == NULL, arg ? 1 : 0, &t, &b, &err);
    CHECK(ok);
    if (!ok) fprintf(stderr, "bind %s: %s\n", name, err.msg);
    sqe_window_func f = wf(SQE_WIN_AGGREGATE, b.ret, arg ? 1 : 0, arg, NULL, NULL);
    f.agg = b;
    return f;
}

static sqe_window_func framed(sqe_window_func f, sqe_frame_type t, sqe_frame_bound_kind sk,
                              sqe_expr *so, sqe_frame_bound_kind ek, sqe_expr *eo) {
    f.frame = t;
    f.start.kind = sk;
    f.start.offset = so;
    f.end.kind = ek;
    f.end.offset = eo;
    return f;
}

static sqe_window_func filtered(sqe_window_func f, sqe_expr *filter) {
    f.filter = filter;
    return f;
}

static sqe_window_func ignoring(sqe_window_func f) {
    f.ignore_nulls = true;
    return f;
}

/* WINDOW over child: PARTITION BY part[0..np), ORDER BY order[0..no) with
 * okeys (.col indexes order[]). */
static sqe_plan *window(sqe_plan *child, int np, sqe_expr *const *part, int no,
                        sqe_expr *const *order, const sqe_sort_key *okeys, int nf,
                        const sqe_window_func *funcs) {
    sqe_type types[32];
    for (int c = 0; c < child->n_out; c++) types[c] = child->out_types[c];
    for (int f = 0; f < nf; f++) types[child->n_out + f] = funcs[f].type;
    sqe_plan *p = node(SQE_PLAN_WINDOW, child, child->n_out + nf, types);
    p->u.window.n_partition = np;
    p->u.window.partition = sqe_arena_alloc(A, (size_t)(np + 1) * sizeof(sqe_expr *));
    for (int i = 0; i < np; i++) p->u.window.partition[i] = part[i];
    p->u.window.n_order = no;
    p->u.window.order = sqe_arena_alloc(A, (size_t)(no + 1) * sizeof(sqe_expr *));
    p->u.window.order_keys = sqe_arena_alloc(A, (size_t)(no + 1) * sizeof(sqe_sort_key));
    for (int i = 0; i < no; i++) {
        p->u.window.order[i] = order[i];
        p->u.window.order_keys[i] = okeys[i];
    }
    p->u.window.n_funcs = nf;
    p->u.window.funcs = sqe_arena_alloc(A, (size_t)(nf + 1) * sizeof(sqe_window_func));
    for (int f = 0; f < nf; f++) p->u.window.funcs[f] = funcs[f];
    return p;
}

/* One PARTITION BY column and one ORDER BY column (-1: none). */
static sqe_plan *win1(sqe_plan *child, int pcol, int ocol, bool desc, bool nulls_first, int nf,
                      const sqe_window_func *funcs) {
    sqe_expr *part = pcol >= 0 ? col(pcol, child->out_types[pcol]) : NULL;
    sqe_expr *order = ocol >= 0 ? col(ocol, child->out_types[ocol]) : NULL;
    sqe_sort_key k = {0, desc, nulls_first};
    return window(child, pcol >= 0, &part, ocol >= 0, &order, &k, nf, funcs);
}

/* ------------------------------------------------------------------ runs */

static sqe_threadpool *g_pool;

typedef struct run_opts {
    bool parallel;
    size_t memory_limit;
} run_opts;

/* Runs a WINDOW plan; *out gets the result or NULL with *err set. */
static bool run_rs(const sqe_plan *p, run_opts o, sqe_resultset **out, sqe_error *err) {
    sqe_exec_options opts;
    memset(&opts, 0, sizeof opts);
    opts.threads = o.parallel ? 4 : 1;
    opts.pool = o.parallel ? g_pool : NULL;
    opts.parallel_min_bytes = 1;
    opts.memory_limit = o.memory_limit;
    sqe_exec_ctx ctx;
    sqe_exec_ctx_init(&ctx, &opts);
    sqe_op *op = sqe_exec_window_new(&ctx, p);
    op->n_children = 1;
    op->children = sqe_calloc(1, sizeof *op->children);
    op->children[0] = sqe_op_build(&ctx, p->children[0], NULL, err);
    sqe_resultset *rs = NULL;
    bool ok = op->children[0] && sqe_op_open(op, err);
    if (ok) {
        rs = sqe_resultset_new(p->n_out, p->out_names, p->out_types);
        for (;;) {
            sqe_batch *b = NULL;
            bool eof = false;
            if (!sqe_op_next(op, &b, &eof, err)) {
                ok = false;
                break;
            }
            if (eof) break;
            CHECK(sqe_batch_live(b) > 0);
            sqe_resultset_append(rs, b);
        }
    }
    sqe_op_free(op);
    CHECK(atomic_load(&ctx.mem_used) == 0);
    sqe_exec_ctx_destroy(&ctx);
    if (!ok) {
        sqe_resultset_free(rs);
        rs = NULL;
    }
    *out = rs;
    return ok;
}

static int cmp_lines(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The result as "a|b\nc|d" (sorted when asked) or "ERROR <class>: <msg>". */
static char *run_text(const sqe_plan *p, run_opts o, bool sorted) {
    sqe_resultset *rs;
    sqe_error err;
    sqe_error_clear(&err);
    if (!run_rs(p, o, &rs, &err))
        return sqe_asprintf("ERROR %s: %s", sqe_error_class_name(err.cls), err.msg);
    char **lines = sqe_calloc(rs->n_rows + 1, sizeof(char *));
    size_t li = 0;
    for (size_t bi = 0; bi < rs->batches.len; bi++) {
        sqe_batch *b = rs->batches.items[bi];
        for (uint32_t r = 0; r < b->n_rows; r++) {
            sqe_strbuf sb;
            sqe_strbuf_init(&sb);
            for (int c = 0; c < rs->n_cols; c++) {
                if (c) sqe_strbuf_putc(&sb, '|');
                sqe_value v;
                sqe_vector_get_value(b->cols[c], r, &v);
                sqe_value_format(&v, &sb);
            }
            lines[li++] = sqe_strbuf_detach(&sb);
        }
    }
    if (sorted) qsort(lines, li, sizeof *lines, cmp_lines);
    sqe_strbuf out;
    sqe_strbuf_init(&out);
    for (size_t i = 0; i < li; i++) {
        if (i) sqe_strbuf_putc(&out, '\n');
        sqe_strbuf_puts(&out, lines[i]);
        sqe_free(lines[i]);
    }
    sqe_free(lines);
    sqe_resultset_free(rs);
    char *s = sqe_strbuf_detach(&out);
    return s ? s : sqe_strdup("");
}

static const run_opts SERIAL = {false, 0};

#define CHECK_RUN(plan, want)                                                                      \
    do {                                                                                           \
        char *got_ = run_text(plan, SERIAL, false);                                                \
        CHECK_STR(got_, want);                                                                     \
        sqe_free(got_);                                                                            \
    } while (0)

#define CHECK_ERROR(plan, part)                                                                    \
    do {                                                                                           \
        char *got_ = run_text(plan, SERIAL, false);                                                \
        CHECK_CONTAINS(got_, part);                                                                \
        sqe_free(got_);                                                                            \
    } while (0)

/* ------------------------------------------------------------- ranking */

static void test_ranking(void) {
    /* (p, o): NULLs in both keys, ties on o */
    const int64_t rows[] = {1, 20, 1, 10, NUL, 5, 1, NUL, 2, 7, 1, 20, 1, 30, NUL, 5};
    sqe_plan *v = values_i64(2, 8, rows);
    sqe_window_func f[5] = {wrank(SQE_WIN_ROW_NUMBER), wrank(SQE_WIN_RANK),
                            wrank(SQE_WIN_DENSE_RANK), wrank(SQE_WIN_PERCENT_RANK),
                            wrank(SQE_WIN_CUME_DIST)};
    /* partitions NULL first; ORDER BY o ASC NULLS LAST; peers keep input order */
    CHECK_RUN(win1(v, 0, 1, false, false, 5, f), "NULL|5|1|1|1|0.0|1.0\n"
                                                 "NULL|5|2|1|1|0.0|1.0\n"
                                                 "1|10|1|1|1|0.0|0.2\n"
                                                 "1|20|2|2|2|0.25|0.6\n"
                                                 "1|20|3|2|2|0.25|0.6\n"
                                                 "1|30|4|4|3|0.75|0.8\n"
                                                 "1|NULL|5|5|4|1.0|1.0\n"
                                                 "2|7|1|1|1|0.0|1.0");
    /* ORDER BY o DESC NULLS FIRST */
    CHECK_RUN(win1(v, 0, 1, true, true, 5, f), "NULL|5|1|1|1|0.0|1.0\n"
                                               "NULL|5|2|1|1|0.0|1.0\n"
                                               "1|NULL|1|1|1|0.0|0.2\n"
                                               "1|30|2|2|2|0.25|0.4\n"
                                               "1|20|3|3|3|0.5|0.8\n"
                                               "1|20|4|3|3|0.5|0.8\n"
                                               "1|10|5|5|4|1.0|1.0\n"
                                               "2|7|1|1|1|0.0|1.0");
    /* no ORDER BY: the partition is one peer group, rows in input order */
    CHECK_RUN(win1(v, 0, -1, false, false, 5, f), "NULL|5|1|1|1|0.0|1.0\n"
                                                  "NULL|5|2|1|1|0.0|1.0\n"
                                                  "1|20|1|1|1|0.0|1.0\n"
                                                  "1|10|2|1|1|0.0|1.0\n"
                                                  "1|NULL|3|1|1|0.0|1.0\n"
                                                  "1|20|4|1|1|0.0|1.0\n"
                                                  "1|30|5|1|1|0.0|1.0\n"
                                                  "2|7|1|1|1|0.0|1.0");
    /* neither PARTITION BY nor ORDER BY: one partition */
    CHECK_RUN(win1(v, -1, -1, false, false, 1, f), "1|20|1\n1|10|2\nNULL|5|3\n1|NULL|4\n2|7|5\n"
                                                   "1|20|6\n1|30|7\nNULL|5|8");
    /* two ORDER BY keys: o ASC, then p DESC NULLS LAST */
    const int64_t rows2[] = {1, 5, 2, 5, NUL, 5, 3, 1};
    sqe_plan *v2 = values_i64(2, 4, rows2);
    sqe_expr *ord[2] = {col(1, T_BIGINT), col(0, T_BIGINT)};
    sqe_sort_key ok[2] = {{0, false, false}, {1, true, false}};
    sqe_window_func r[2] = {wrank(SQE_WIN_RANK), wrank(SQE_WIN_ROW_NUMBER)};
    CHECK_RUN(window(v2, 0, NULL, 2, ord, ok, 2, r), "3|1|1|1\n2|5|2|2\n1|5|3|3\nNULL|5|4|4");
}

/* ------------------------------------------------------- default frames */

static void test_default_frame(void) {
    /* (p, o, v) */
    const int64_t rows[] = {1, 1, 10, 1, 2, 20, 1, 2, 30, 1, 3, NUL, 1, NUL, 5, 2, 1, 7};
    sqe_plan *v = values_i64(3, 6, rows);
    sqe_expr *x = col(2, T_BIGINT);
    sqe_window_func f[5] = {wagg("sum", false, x), wagg("count", false, x),
                            wagg("count", false, NULL), wagg("avg", false, x),
                            framed(wagg("sum", false, x), SQE_FRAME_T_RANGE,
                                   SQE_BOUND_UNBOUNDED_PRECEDING, NULL,
                                   SQE_BOUND_UNBOUNDED_FOLLOWING, NULL)};
    /* peers (o = 2) share the running value; the NULL key is its own peer group */
    CHECK_RUN(win1(v, 0, 1, false, false, 5, f), "1|1|10|10|1|1|10.0|65\n"
                                                 "1|2|20|60|3|3|20.0|65\n"
                                                 "1|2|30|60|3|3|20.0|65\n"
                                                 "1|3|NULL|60|3|4|20.0|65\n"
                                                 "1|NULL|5|65|4|5|16.25|65\n"
                                                 "2|1|7|7|1|1|7.0|7");
    /* without ORDER BY the default frame is the whole partition */
    sqe_window_func g[2] = {wagg("sum", false, x), wrank(SQE_WIN_ROW_NUMBER)};
    CHECK_RUN(win1(v, 0, -1, false, false, 2, g), "1|1|10|65|1\n1|2|20|65|2\n1|2|30|65|3\n"
                                                  "1|3|NULL|65|4\n1|NULL|5|65|5\n2|1|7|7|1");
    /* a frame left zeroed by a planner reads as the default, not as empty */
    sqe_window_func z = wagg("sum", false, x);
    memset(&z.frame, 0, sizeof z.frame);
    memset(&z.start, 0, sizeof z.start);
    memset(&z.end, 0, sizeof z.end);
    CHECK_RUN(win1(v, 0, 1, false, false, 1, &z), "1|1|10|10\n1|2|20|60\n1|2|30|60\n1|3|NULL|60\n"
                                                  "1|NULL|5|65\n2|1|7|7");
}

/* ---------------------------------------------------------- frame shapes */

static void test_rows_frames(void) {
    const int64_t rows[] = {1, 10, 2, 20, 3, 30, 4, NUL, 5, 50, 6, 60};
    sqe_plan *v = values_i64(2, 6, rows);
    sqe_expr *x = col(1, T_BIGINT);
    sqe_frame_type R = SQE_FRAME_T_ROWS;
    sqe_window_func f[7] = {
        framed(wagg("sum", false, x), R, SQE_BOUND_PRECEDING, ci(1), SQE_BOUND_FOLLOWING, ci(1)),
        framed(wagg("sum", false, x), R, SQE_BOUND_PRECEDING, ci(2), SQE_BOUND_PRECEDING, ci(1)),
        framed(wagg("count", false, x), R, SQE_BOUND_PRECEDING, ci(2), SQE_BOUND_PRECEDING, ci(1)),
        framed(wagg("sum", false, x), R, SQE_BOUND_FOLLOWING, ci(1), SQE_BOUND_FOLLOWING, ci(2)),
        framed(wagg("sum", false, x), R, SQE_BOUND_CURRENT_ROW, NULL, SQE_BOUND_UNBOUNDED_FOLLOWING,
               NULL),
        framed(wagg("sum", false, x), R, SQE_BOUND_UNBOUNDED_PRECEDING, NULL, SQE_BOUND_CURRENT_ROW,
               NULL),
        framed(wagg("count", false, NULL), R, SQE_BOUND_PRECEDING, ci(0), SQE_BOUND_FOLLOWING,
               ci(0))};
    CHECK_RUN(win1(v, -1, 0, false, false, 7, f), "1|10|30|NULL|0|50|170|10|1\n"
                                                  "2|20|60|10|1|30|160|30|1\n"
                                                  "3|30|50|30|2|50|140|60|1\n"
                                                  "4|NULL|80|50|2|110|110|60|1\n"
                                                  "5|50|110|30|1|60|110|110|1\n"
                                                  "6|60|110|50|1|NULL|60|170|1");
}

/* (o, v) with gaps, peers and a NULL key. */
static const int64_t RANGE_ROWS[] = {1, 1, 2, 2, 4, 4, 4, 40, 7, 7, NUL, 100};

static void range_funcs(sqe_window_func *f) {
    sqe_expr *x = col(1, T_BIGINT);
    sqe_frame_type R = SQE_FRAME_T_RANGE;
    f[0] = framed(wagg("sum", false, x), R, SQE_BOUND_PRECEDING, ci(1), SQE_BOUND_FOLLOWING, ci(1));
    f[1] =
        framed(wagg("sum", false, x), R, SQE_BOUND_PRECEDING, ci(2), SQE_BOUND_CURRENT_ROW, NULL);
    f[2] = framed(wagg("sum", false, x), R, SQE_BOUND_FOLLOWING, ci(3),
                  SQE_BOUND_UNBOUNDED_FOLLOWING, NULL);
    f[3] = framed(wagg("sum", false, x), R, SQE_BOUND_UNBOUNDED_PRECEDING, NULL,
                  SQE_BOUND_PRECEDING, ci(1));
    f[4] = framed(wagg("count", false, NULL), R, SQE_BOUND_CURRENT_ROW, NULL, SQE_BOUND_CURRENT_ROW,
                  NULL);
    f[5] = framed(wagg("sum", false, x), R, SQE_BOUND_CURRENT_ROW, NULL,
                  SQE_BOUND_UNBOUNDED_FOLLOWING, NULL);
    f[6] = framed(wagg("sum", false, x), R, SQE_BOUND_PRECEDING, ci(0), SQE_BOUND_FOLLOWING, ci(0));
}

static void test_range_frames(void) {
    sqe_plan *v = values_i64(2, 6, RANGE_ROWS);
    sqe_window_func f[7];
    range_funcs(f);
    /* ASC NULLS LAST: an edge past the last key lands on the trailing NULLs */
    CHECK_RUN(win1(v, -1, 0, false, false, 7, f), "1|1|3|1|151|NULL|1|154|1\n"
                                                  "2|2|3|3|107|1|1|153|2\n"
                                                  "4|4|44|46|107|3|2|151|44\n"
                                                  "4|40|44|46|107|3|2|151|44\n"
                                                  "7|7|7|7|100|47|1|107|7\n"
                                                  "NULL|100|100|100|100|154|1|100|100");
    /* DESC NULLS FIRST: PRECEDING means larger keys; leading NULLs are seen
     * only through UNBOUNDED PRECEDING */
    CHECK_RUN(win1(v, -1, 0, true, true, 7, f), "NULL|100|100|100|154|100|1|154|100\n"
                                                "7|7|7|7|47|100|1|54|7\n"
                                                "4|4|44|44|1|107|2|47|44\n"
                                                "4|40|44|44|1|107|2|47|44\n"
                                                "2|2|3|46|NULL|151|1|3|2\n"
                                                "1|1|3|3|NULL|153|1|1|1");
}

static void test_groups_frames(void) {
    sqe_plan *v = values_i64(2, 6, RANGE_ROWS);
    sqe_expr *x = col(1, T_BIGINT);
    sqe_frame_type G = SQE_FRAME_T_GROUPS;
    sqe_window_func f[4] = {
        framed(wagg("sum", false, x), G, SQE_BOUND_PRECEDING, ci(1), SQE_BOUND_CURRENT_ROW, NULL),
        framed(wagg("sum", false, x), G, SQE_BOUND_CURRENT_ROW, NULL, SQE_BOUND_FOLLOWING, ci(1)),
        framed(wagg("sum", false, x), G, SQE_BOUND_PRECEDING, ci(2), SQE_BOUND_PRECEDING, ci(1)),
        framed(wagg("count", false, NULL), G, SQE_BOUND_FOLLOWING, ci(1), SQE_BOUND_FOLLOWING,
               ci(3))};
    CHECK_RUN(win1(v, -1, 0, false, false, 4, f), "1|1|1|3|NULL|4\n"
                                                  "2|2|3|46|1|4\n"
                                                  "4|4|46|51|3|2\n"
                                                  "4|40|46|51|3|2\n"
                                                  "7|7|51|107|46|1\n"
                                                  "NULL|100|107|100|51|0");
}

/* RANGE over DOUBLE, DECIMAL and DATE keys. */
static void test_typed_range(void) {
    sqe_frame_type R = SQE_FRAME_T_RANGE;
    sqe_type td[2] = {T_DOUBLE, T_BIGINT};
    const char *dcells[] = {"1.0", "1", "1.5", "2", "2.6", "3", "NULL", "4"};
    sqe_plan *dv = values_txt(2, td, 4, dcells);
    sqe_value half = sqe_value_double(0.5);
    sqe_expr *x = col(1, T_BIGINT);
    sqe_window_func f[2] = {
        framed(wagg("sum", false, x), R, SQE_BOUND_PRECEDING, sqe_expr_const(A, &half),
               SQE_BOUND_CURRENT_ROW, NULL),
        framed(wagg("sum", false, x), R, SQE_BOUND_PRECEDING, ci(1), SQE_BOUND_CURRENT_ROW, NULL)};
    CHECK_RUN(win1(dv, -1, 0, false, false, 2, f), "1.0|1|1|1\n1.5|2|3|3\n2.6|3|3|3\nNULL|4|4|4");

    sqe_type tdec[2] = {sqe_type_decimal(5, 2), T_BIGINT};
    const char *ccells[] = {"1.00", "1", "1.50", "2", "2.60", "3", "NULL", "4"};
    sqe_plan *cv = values_txt(2, tdec, 4, ccells);
    sqe_value dhalf = sqe_value_decimal(5, 3, 1); /* 0.5: another scale than the key's */
    sqe_window_func g[2] = {
        framed(wagg("sum", false, x), R, SQE_BOUND_PRECEDING, sqe_expr_const(A, &dhalf),
               SQE_BOUND_CURRENT_ROW, NULL),
        framed(wagg("sum", false, x), R, SQE_BOUND_CURRENT_ROW, NULL, SQE_BOUND_FOLLOWING, ci(1))};
    CHECK_RUN(win1(cv, -1, 0, false, false, 2, g),
              "1.00|1|1|3\n1.50|2|3|2\n2.60|3|3|3\nNULL|4|4|4");

    sqe_type tdate[2] = {T_DATE, T_BIGINT};
    const char *tcells[] = {"2024-01-01", "1", "2024-01-02", "2", "2024-01-04", "3"};
    sqe_plan *tv = values_txt(2, tdate, 3, tcells);
    sqe_window_func h[1] = {
        framed(wagg("sum", false, x), R, SQE_BOUND_PRECEDING, ci(1), SQE_BOUND_CURRENT_ROW, NULL)};
    CHECK_RUN(win1(tv, -1, 0, false, false, 1, h),
              "2024-01-01|1|1\n2024-01-02|2|3\n2024-01-04|3|3");
}

/* ------------------------------------------------ navigation functions */

static void test_ignore_nulls(void) {
    const int64_t rows[] = {1, 1, 2, NUL, 3, 3, 4, NUL, 5, NUL, 6, 6};
    sqe_plan *v = values_i64(2, 6, rows);
    sqe_expr *x = col(1, T_BIGINT);
    sqe_frame_type R = SQE_FRAME_T_ROWS;
    sqe_window_func f[15] = {
        wf(SQE_WIN_LAG, T_BIGINT, 1, x, NULL, NULL),
        ignoring(wf(SQE_WIN_LAG, T_BIGINT, 1, x, NULL, NULL)),
        ignoring(wf(SQE_WIN_LEAD, T_BIGINT, 1, x, NULL, NULL)),
        ignoring(wf(SQE_WIN_LAG, T_BIGINT, 2, x, ci(2), NULL)),
        wf(SQE_WIN_LEAD, T_BIGINT, 3, x, ci(2), ci(-1)),
        wf(SQE_WIN_LAG, T_BIGINT, 3, x, ci(10), ci(0)),
        wf(SQE_WIN_LAG, T_BIGINT, 2, x, ci(0), NULL),
        ignoring(framed(wf(SQE_WIN_FIRST_VALUE, T_BIGINT, 1, x, NULL, NULL), R, SQE_BOUND_FOLLOWING,
                        ci(1), SQE_BOUND_UNBOUNDED_FOLLOWING, NULL)),
        ignoring(framed(wf(SQE_WIN_LAST_VALUE, T_BIGINT, 1, x, NULL, NULL), R,
                        SQE_BOUND_UNBOUNDED_PRECEDING, NULL, SQE_BOUND_CURRENT_ROW, NULL)),
        wf(SQE_WIN_LAST_VALUE, T_BIGINT, 1, x, NULL, NULL),
        ignoring(framed(wf(SQE_WIN_NTH_VALUE, T_BIGINT, 2, x, ci(2), NULL), R,
                        SQE_BOUND_UNBOUNDED_PRECEDING, NULL, SQE_BOUND_UNBOUNDED_FOLLOWING, NULL)),
        wf(SQE_WIN_NTH_VALUE, T_BIGINT, 2, x, ci(3), NULL),
        framed(wf(SQE_WIN_FIRST_VALUE, T_BIGINT, 1, x, NULL, NULL), R, SQE_BOUND_PRECEDING, ci(1),
               SQE_BOUND_FOLLOWING, ci(1)),
        ignoring(wf(SQE_WIN_LEAD, T_BIGINT, 3, x, ci(1), ci(99))),
        ignoring(wf(SQE_WIN_LAG, T_BIGINT, 2, x, ci(0), NULL))};
    CHECK_RUN(win1(v, -1, 0, false, false, 15, f),
              "1|1|NULL|NULL|3|NULL|3|0|1|3|1|1|3|NULL|1|3|1\n"
              "2|NULL|1|1|3|NULL|NULL|0|NULL|3|1|NULL|3|NULL|1|3|NULL\n"
              "3|3|NULL|1|6|NULL|NULL|0|3|6|3|3|3|3|NULL|6|3\n"
              "4|NULL|3|3|6|1|6|0|NULL|6|3|NULL|3|3|3|6|NULL\n"
              "5|NULL|NULL|3|6|1|-1|0|NULL|6|3|NULL|3|3|NULL|6|NULL\n"
              "6|6|NULL|3|NULL|1|-1|0|6|NULL|6|6|3|3|NULL|99|6");
}

static void test_lag_lead(void) {
    /* (p, o, s, off): per-row offsets, a NULL offset, strings beyond the
     * inline length, defaults that are constants or a column */
    sqe_type t[4] = {T_BIGINT, T_BIGINT, T_VARCHAR, T_BIGINT};
    const char *cells[] = {
        "1", "1", "a", "1", "1", "2", "bb-a-longer-string", "2", "1", "3", NULL, "NULL",
        "1", "4", "d", "0", "2", "1", "x-also-long-value",  "5"};
    sqe_plan *v = values_txt(4, t, 5, cells);
    sqe_expr *s = col(2, T_VARCHAR), *off = col(3, T_BIGINT);
    sqe_value dv = sqe_value_string("dflt", 4);
    sqe_window_func f[3] = {wf(SQE_WIN_LAG, T_VARCHAR, 3, s, off, sqe_expr_const(A, &dv)),
                            wf(SQE_WIN_LEAD, T_VARCHAR, 1, s, NULL, NULL),
                            wf(SQE_WIN_LEAD, T_VARCHAR, 3, s, ci(1), s)};
    CHECK_RUN(win1(v, 0, 1, false, false, 3, f),
              "1|1|a|1|dflt|bb-a-longer-string|bb-a-longer-string\n"
              "1|2|bb-a-longer-string|2|dflt|NULL|NULL\n"
              "1|3|NULL|NULL|NULL|d|d\n"
              "1|4|d|0|d|NULL|d\n"
              "2|1|x-also-long-value|5|dflt|NULL|x-also-long-value");
    /* huge offsets stay outside the partition */
    sqe_window_func g[2] = {wf(SQE_WIN_LAG, T_VARCHAR, 3, s, ci(INT64_MAX), sqe_expr_const(A, &dv)),
                            wf(SQE_WIN_LEAD, T_VARCHAR, 2, s, ci(INT64_MAX), NULL)};
    char *got = run_text(win1(v, 0, 1, false, false, 2, g), SERIAL, false);
    CHECK_CONTAINS(got, "1|4|d|0|dflt|NULL");
    sqe_free(got);
}

static void test_ntile(void) {
    const int64_t rows[] = {1, 1, 1, 2, 1, 3, 1, 4, 1, 5, 1, 6, 1, 7, 2, 1, 2, 2, 2, 3};
    sqe_plan *v = values_i64(2, 10, rows);
    sqe_window_func f[3] = {wf(SQE_WIN_NTILE, T_BIGINT, 1, ci(3), NULL, NULL),
                            wf(SQE_WIN_NTILE, T_BIGINT, 1, ci(10), NULL, NULL),
                            wf(SQE_WIN_NTILE, T_BIGINT, 1, ci(2), NULL, NULL)};
    /* 7 rows in 3 buckets: 3, 2, 2; 3 rows in 10 buckets: one each */
    CHECK_RUN(win1(v, 0, 1, false, false, 3, f), "1|1|1|1|1\n1|2|1|2|1\n1|3|1|3|1\n1|4|2|4|1\n"
                                                 "1|5|2|5|2\n1|6|3|6|2\n1|7|3|7|2\n"
                                                 "2|1|1|1|1\n2|2|2|2|1\n2|3|3|3|2");
    /* buckets per row: NULL gives NULL */
    const int64_t rows2[] = {1, 2, 2, NUL, 3, 2, 4, 2};
    sqe_window_func g = wf(SQE_WIN_NTILE, T_BIGINT, 1, col(1, T_BIGINT), NULL, NULL);
    CHECK_RUN(win1(values_i64(2, 4, rows2), -1, 0, false, false, 1, &g),
              "1|2|1\n2|NULL|NULL\n3|2|2\n4|2|2");
    sqe_window_func z = wf(SQE_WIN_NTILE, T_BIGINT, 1, ci(0), NULL, NULL);
    CHECK_ERROR(win1(v, 0, 1, false, false, 1, &z),
                "INVALID_ARGUMENT: Buckets must be greater than 0");
}

/* ----------------------------------------------------------- aggregates */

static void test_filter_and_constants(void) {
    const int64_t rows[] = {1, 10, 2, 20, 3, 30, 4, NUL, 5, 50, 6, 60};
    sqe_plan *v = values_i64(2, 6, rows);
    sqe_expr *x = col(1, T_BIGINT);
    sqe_window_func f[6] = {
        filtered(wagg("sum", false, x), gt(x, ci(20))),
        filtered(wagg("count", false, NULL), gt(x, ci(20))),
        filtered(wagg("sum", false, x), cnull(T_BOOL)),
        framed(wagg("count", true, mod(x, ci(20))), SQE_FRAME_T_ROWS, SQE_BOUND_UNBOUNDED_PRECEDING,
               NULL, SQE_BOUND_UNBOUNDED_FOLLOWING, NULL),
        wagg("sum", false, ci(5)),
        filtered(framed(wagg("sum", false, ci(5)), SQE_FRAME_T_ROWS, SQE_BOUND_PRECEDING, ci(1),
                        SQE_BOUND_CURRENT_ROW, NULL),
                 gt(x, ci(20)))};
    CHECK_RUN(win1(v, -1, 0, false, false, 6, f), "1|10|NULL|0|NULL|2|5|NULL\n"
                                                  "2|20|NULL|0|NULL|2|10|NULL\n"
                                                  "3|30|30|1|NULL|2|15|5\n"
                                                  "4|NULL|30|1|NULL|2|20|5\n"
                                                  "5|50|80|2|NULL|2|25|5\n"
                                                  "6|60|140|3|NULL|2|30|10");
}

/* DISTINCT and varchar min/max own memory in their states: no segment
 * tree; sliding frames recompute, shrinking ones run backwards. */
static void test_owned_states(void) {
    sqe_type t[2] = {T_BIGINT, T_VARCHAR};
    const char *cells[] = {"1", "bbbbbbbbbbbbbbbbbb", "2", "aaaaaaaaaaaaaaaaaaaa",
                           "3", "cccccccccccccccc",   "4", "aaaaaaaaaaaaaaaaaaaa",
                           "5", "bbbbbbbbbbbbbbbbbb"};
    sqe_plan *v = values_txt(2, t, 5, cells);
    sqe_expr *s = col(1, T_VARCHAR);
    sqe_frame_type R = SQE_FRAME_T_ROWS;
    sqe_window_func f[4] = {
        framed(wagg("max", false, s), R, SQE_BOUND_PRECEDING, ci(1), SQE_BOUND_FOLLOWING, ci(1)),
        framed(wagg("count", true, s), R, SQE_BOUND_CURRENT_ROW, NULL,
               SQE_BOUND_UNBOUNDED_FOLLOWING, NULL),
        framed(wagg("count", true, s), R, SQE_BOUND_PRECEDING, ci(1), SQE_BOUND_CURRENT_ROW, NULL),
        framed(wagg("min", false, s), R, SQE_BOUND_CURRENT_ROW, NULL, SQE_BOUND_UNBOUNDED_FOLLOWING,
               NULL)};
    CHECK_RUN(win1(v, -1, 0, false, false, 4, f),
              "1|bbbbbbbbbbbbbbbbbb|bbbbbbbbbbbbbbbbbb|3|1|aaaaaaaaaaaaaaaaaaaa\n"
              "2|aaaaaaaaaaaaaaaaaaaa|cccccccccccccccc|3|2|aaaaaaaaaaaaaaaaaaaa\n"
              "3|cccccccccccccccc|cccccccccccccccc|3|2|aaaaaaaaaaaaaaaaaaaa\n"
              "4|aaaaaaaaaaaaaaaaaaaa|cccccccccccccccc|2|2|aaaaaaaaaaaaaaaaaaaa\n"
              "5|bbbbbbbbbbbbbbbbbb|bbbbbbbbbbbbbbbbbb|1|2|bbbbbbbbbbbbbbbbbb");
}

/* ------------------------------------------------------- large inputs */

/* 5000 rows, PARTITION BY o % 3 (an evaluated expression): partitions of
 * ~1667 rows spanning three output batches. Every value is checked
 * against its closed form. */
static void test_big(void) {
    enum { N = 5000 };
    int64_t *cells = sqe_malloc(N * 2 * sizeof *cells);
    for (int i = 0; i < N; i++) {
        cells[2 * i] = (i * 7919) % N; /* o: a permutation of 0..N-1 */
        cells[2 * i + 1] = cells[2 * i];
    }
    sqe_plan *v = values_i64(2, N, cells);
    sqe_free(cells);
    sqe_expr *o = col(0, T_BIGINT), *x = col(1, T_BIGINT), *part = mod(o, ci(3));
    sqe_sort_key k = {0, false, false};
    sqe_frame_type R = SQE_FRAME_T_ROWS;
    sqe_window_func f[7] = {
        wrank(SQE_WIN_ROW_NUMBER),
        wagg("sum", false, x),
        wf(SQE_WIN_LAG, T_BIGINT, 1, x, NULL, NULL),
        framed(wagg("count", false, NULL), R, SQE_BOUND_UNBOUNDED_PRECEDING, NULL,
               SQE_BOUND_UNBOUNDED_FOLLOWING, NULL),
        framed(wagg("sum", false, x), R, SQE_BOUND_PRECEDING, ci(100), SQE_BOUND_FOLLOWING,
               ci(100)),
        framed(wagg("min", false, x), R, SQE_BOUND_PRECEDING, ci(100), SQE_BOUND_CURRENT_ROW, NULL),
        framed(wf(SQE_WIN_FIRST_VALUE, T_BIGINT, 1, x, NULL, NULL), R, SQE_BOUND_PRECEDING, ci(2),
               SQE_BOUND_CURRENT_ROW, NULL)};
    sqe_plan *w = window(v, 1, &part, 1, &o, &k, 7, f);
    sqe_resultset *rs;
    sqe_error err;
    sqe_error_clear(&err);
    CHECK(run_rs(w, SERIAL, &rs, &err));
    if (!rs) return;
    CHECK(rs->n_rows == N);
    int64_t prev_o = -1, bad = 0;
    for (size_t bi = 0; bi < rs->batches.len; bi++) {
        sqe_batch *b = rs->batches.items[bi];
        for (uint32_t r = 0; r < b->n_rows; r++) {
            int64_t got[9];
            bool isnull[9];
            for (int c = 0; c < 9; c++) {
                isnull[c] = sqe_vector_is_null(b->cols[c], r);
                got[c] = SQE_VEC_DATA(b->cols[c], int64_t)[r];
            }
            int64_t ov = got[0], p = ov % 3, kk = ov / 3, size = (N - p + 2) / 3;
            int64_t lo = kk > 100 ? kk - 100 : 0, hi = kk + 100 < size - 1 ? kk + 100 : size - 1;
            int64_t win_sum = (hi - lo + 1) * p + 3 * (hi * (hi + 1) / 2 - (lo - 1) * lo / 2);
            bool ok =
                (prev_o < 0 || ov % 3 > prev_o % 3 || (ov % 3 == prev_o % 3 && ov > prev_o)) &&
                got[2] == kk + 1 && got[3] == (kk + 1) * p + 3 * kk * (kk + 1) / 2 &&
                (kk == 0 ? isnull[4] : got[4] == ov - 3) && got[5] == size && got[6] == win_sum &&
                got[7] == p + 3 * lo && got[8] == p + 3 * (kk > 2 ? kk - 2 : 0);
            if (!ok && bad++ < 3) fprintf(stderr, "test_big: wrong row o=%lld\n", (long long)ov);
            prev_o = ov;
        }
    }
    CHECK(bad == 0);
    sqe_resultset_free(rs);
}

/* Partition keys that compare by value, not by bits or pointers: long
 * strings across a 2048-row chunk boundary, -0.0 = 0.0, NaN = NaN. */
static void test_partition_keys(void) {
    enum { N = 3000 };
    sqe_type t[2] = {T_VARCHAR, T_BIGINT};
    const char **cells = sqe_arena_alloc(A, 2 * N * sizeof *cells);
    for (int i = 0; i < N; i++) {
        cells[2 * i] = sqe_arena_sprintf(A, "a-long-partition-key-%d", i / 1000);
        cells[2 * i + 1] = sqe_arena_sprintf(A, "%d", i);
    }
    sqe_window_func f[2] = {wrank(SQE_WIN_ROW_NUMBER),
                            framed(wagg("count", false, NULL), SQE_FRAME_T_ROWS,
                                   SQE_BOUND_UNBOUNDED_PRECEDING, NULL,
                                   SQE_BOUND_UNBOUNDED_FOLLOWING, NULL)};
    char *got = run_text(win1(values_txt(2, t, N, cells), 0, 1, false, false, 2, f), SERIAL, false);
    CHECK_CONTAINS(got,
                   "a-long-partition-key-1|1999|1000|1000\na-long-partition-key-2|2000|1|1000\n");
    CHECK_CONTAINS(got,
                   "a-long-partition-key-2|2047|48|1000\na-long-partition-key-2|2048|49|1000\n");
    sqe_free(got);
    sqe_type td[2] = {T_DOUBLE, T_BIGINT};
    const char *dcells[] = {"0.0", "1", "NaN", "2", "-0.0", "3", "NULL", "4", "NaN", "5"};
    /* NULL first, then NaN (next to the NULLs with NULLS FIRST), then zero */
    CHECK_RUN(win1(values_txt(2, td, 5, dcells), 0, 1, false, false, 2, f),
              "NULL|4|1|1\nNaN|2|1|2\nNaN|5|2|2\n0.0|1|1|2\n-0.0|3|2|2");
}

/* ---------------------------------------------------------------- errors */

static void test_errors(void) {
    const int64_t rows[] = {1, 1, 2, 2, 3, -1};
    sqe_plan *v = values_i64(2, 3, rows);
    sqe_expr *x = col(1, T_BIGINT), *o = col(0, T_BIGINT);
    const char *msg = "INVALID_ARGUMENT: Window frame offset value must not be negative or null";
    sqe_frame_type R = SQE_FRAME_T_ROWS, G = SQE_FRAME_T_GROUPS, RG = SQE_FRAME_T_RANGE;
    sqe_window_func f;
    f = framed(wagg("sum", false, x), R, SQE_BOUND_PRECEDING, ci(-1), SQE_BOUND_CURRENT_ROW, NULL);
    CHECK_ERROR(win1(v, -1, 0, false, false, 1, &f), msg);
    f = framed(wagg("sum", false, x), G, SQE_BOUND_CURRENT_ROW, NULL, SQE_BOUND_FOLLOWING,
               cnull(T_BIGINT));
    CHECK_ERROR(win1(v, -1, 0, false, false, 1, &f), msg);
    f = framed(wagg("sum", false, x), RG, SQE_BOUND_PRECEDING, x, SQE_BOUND_CURRENT_ROW,
               NULL); /* -1 in row 3 */
    CHECK_ERROR(win1(v, -1, 0, false, false, 1, &f), msg);
    f = framed(wagg("sum", false, x), RG, SQE_BOUND_PRECEDING, cnull(T_BIGINT),
               SQE_BOUND_CURRENT_ROW, NULL);
    CHECK_ERROR(win1(v, -1, 0, false, false, 1, &f), msg);
    f = framed(wf(SQE_WIN_FIRST_VALUE, T_BIGINT, 1, x, NULL, NULL), R, SQE_BOUND_PRECEDING, x,
               SQE_BOUND_CURRENT_ROW, NULL);
    CHECK_ERROR(win1(v, -1, 0, false, false, 1, &f), msg);
    f = wf(SQE_WIN_NTH_VALUE, T_BIGINT, 2, x, ci(0), NULL);
    CHECK_ERROR(win1(v, -1, 0, false, false, 1, &f), "INVALID_ARGUMENT: Offset must be at least 1");
    f = wf(SQE_WIN_LAG, T_BIGINT, 2, x, x, NULL);
    CHECK_ERROR(win1(v, -1, 0, false, false, 1, &f), "INVALID_ARGUMENT: Offset must be at least 0");
    /* RANGE with an offset needs exactly one numeric ORDER BY key */
    f = framed(wagg("sum", false, x), RG, SQE_BOUND_PRECEDING, ci(1), SQE_BOUND_CURRENT_ROW, NULL);
    sqe_expr *two[2] = {o, x};
    sqe_sort_key keys[2] = {{0, false, false}, {1, false, false}};
    CHECK_ERROR(window(v, 0, NULL, 2, two, keys, 1, &f), "requires single sort item in ORDER BY");
    sqe_type t[2] = {T_VARCHAR, T_BIGINT};
    const char *cells[] = {"a", "1", "b", "2"};
    CHECK_ERROR(win1(values_txt(2, t, 2, cells), -1, 0, false, false, 1, &f), "NOT_SUPPORTED");
    /* an evaluated PARTITION BY expression that fails stops the query */
    sqe_expr *bad = call2("fail", k_fail, T_BIGINT, o, o);
    sqe_window_func rn = wrank(SQE_WIN_ROW_NUMBER);
    CHECK_ERROR(window(v, 1, &bad, 0, NULL, NULL, 1, &rn), "DIVISION_BY_ZERO: division by zero");
    CHECK_RUN(win1(v, -1, -1, false, false, 1, &rn), "1|1|1\n2|2|2\n3|-1|3");
    /* a plan whose output does not match its child + functions */
    sqe_plan *w = win1(v, -1, -1, false, false, 1, &rn);
    w->n_out = 2;
    CHECK_ERROR(w, "INTERNAL");
}

/* --------------------------------------------------------- edge cases */

static void test_empty_and_memory(void) {
    sqe_plan *v = values_i64(2, 0, NULL);
    sqe_window_func f[2] = {wrank(SQE_WIN_ROW_NUMBER), wagg("sum", false, col(1, T_BIGINT))};
    CHECK_RUN(win1(v, 0, 1, false, false, 2, f), "");
    enum { N = 20000 };
    int64_t *cells = sqe_malloc(N * 2 * sizeof *cells);
    for (int i = 0; i < N; i++) cells[2 * i] = cells[2 * i + 1] = i;
    sqe_plan *big = values_i64(2, N, cells);
    sqe_free(cells);
    run_opts lim = {false, 256 << 10};
    char *got = run_text(win1(big, -1, 0, false, false, 2, f), lim, false);
    CHECK_CONTAINS(got, "RESOURCE_EXHAUSTED: query exceeded the memory limit");
    CHECK_CONTAINS(got, "WindowExec");
    sqe_free(got);
}

/* --------------------------------------------- randomized cross-check */

/* Rows (id, p, o, v, w): w is a per-row frame offset. Frames are checked
 * against a naive reference that decides membership row by row from the
 * SQL definitions (values for RANGE, positions for ROWS, group numbers for
 * GROUPS), independent of the operator's binary searches, running states
 * and segment trees. */
enum { RC_ID, RC_P, RC_O, RC_V, RC_W, RC_N };
enum { RF_SUM, RF_COUNT, RF_MIN, RF_CDIST, RF_FIRST, RF_LAST_IGN, RF_NTH2, RF_MAX, RF_N };

typedef struct ref_spec {
    sqe_frame_type ft;
    sqe_frame_bound_kind sk, ek;
    int64_t so, eo; /* < 0: the row's w */
    bool desc, nf;
} ref_spec;

typedef struct ref_row {
    int64_t c[RC_N];
    bool null[RC_N];
    int64_t f[RF_N];
    bool fnull[RF_N];
} ref_row;

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static bool ref_range_ok(const ref_spec *sp, const ref_row *rw, const int *g, int i, int j,
                         bool start, sqe_frame_bound_kind k, int64_t off) {
    if (k == SQE_BOUND_CURRENT_ROW || rw[i].null[RC_O]) return start ? g[j] >= g[i] : g[j] <= g[i];
    if (rw[j].null[RC_O])
        return start ? !sp->nf : sp->nf; /* NULLs sit after (NULLS LAST) or before */
    bool sub = (k == SQE_BOUND_PRECEDING) != sp->desc;
    int64_t x = rw[i].c[RC_O], bound = sub ? x - off : x + off, y = rw[j].c[RC_O];
    int c = y < bound ? -1 : y > bound;
    if (sp->desc) c = -c;
    return start ? c >= 0 : c <= 0;
}

static bool ref_edge_ok(const ref_spec *sp, const ref_row *rw, const int *g, int i, int j,
                        bool start) {
    sqe_frame_bound_kind k = start ? sp->sk : sp->ek;
    int64_t off = start ? sp->so : sp->eo;
    if (off < 0) off = rw[i].c[RC_W];
    if (k == SQE_BOUND_UNBOUNDED_PRECEDING || k == SQE_BOUND_UNBOUNDED_FOLLOWING) return true;
    if (sp->ft == SQE_FRAME_T_RANGE) return ref_range_ok(sp, rw, g, i, j, start, k, off);
    int64_t a = sp->ft == SQE_FRAME_T_ROWS ? j : g[j], b = sp->ft == SQE_FRAME_T_ROWS ? i : g[i];
    int64_t t = k == SQE_BOUND_PRECEDING ? b - off : k == SQE_BOUND_FOLLOWING ? b + off : b;
    return start ? a >= t : a <= t;
}

/* Expected values of every function for row i of the partition rw[0..n). */
static void ref_expect(const ref_spec *sp, const ref_row *rw, const int *g, int n, int i,
                       int64_t *want, bool *wnull) {
    int64_t sum = 0, mn = 0, mx = 0, seen[512];
    int cnt = 0, nv = 0, nd = 0, first = -1, second = -1, last_v = -1;
    for (int j = 0; j < n; j++) {
        if (!ref_edge_ok(sp, rw, g, i, j, true) || !ref_edge_ok(sp, rw, g, i, j, false)) continue;
        if (cnt == 0) first = j;
        if (cnt == 1) second = j;
        cnt++;
        if (rw[j].null[RC_V]) continue;
        int64_t x = rw[j].c[RC_V];
        sum += x;
        mn = nv == 0 || x < mn ? x : mn;
        mx = nv == 0 || x > mx ? x : mx;
        nv++;
        last_v = j;
        bool dup = false;
        for (int d = 0; d < nd; d++) dup |= seen[d] == x;
        if (!dup) seen[nd++] = x;
    }
    for (int f = 0; f < RF_N; f++) wnull[f] = false;
    want[RF_SUM] = sum, wnull[RF_SUM] = nv == 0;
    want[RF_COUNT] = cnt;
    want[RF_MIN] = mn, wnull[RF_MIN] = nv == 0;
    want[RF_MAX] = mx, wnull[RF_MAX] = nv == 0;
    want[RF_CDIST] = nd;
    wnull[RF_FIRST] = first < 0 || rw[first].null[RC_V];
    want[RF_FIRST] = first < 0 ? 0 : rw[first].c[RC_V];
    wnull[RF_LAST_IGN] = last_v < 0;
    want[RF_LAST_IGN] = last_v < 0 ? 0 : rw[last_v].c[RC_V];
    wnull[RF_NTH2] = second < 0 || rw[second].null[RC_V];
    want[RF_NTH2] = second < 0 ? 0 : rw[second].c[RC_V];
}

/* Order of two rows of one partition as the operator must emit them. */
static int ref_order(const ref_spec *sp, const ref_row *a, const ref_row *b) {
    if (a->null[RC_O] != b->null[RC_O]) return (a->null[RC_O] ? 1 : -1) * (sp->nf ? -1 : 1);
    if (!a->null[RC_O] && a->c[RC_O] != b->c[RC_O])
        return (a->c[RC_O] < b->c[RC_O] ? -1 : 1) * (sp->desc ? -1 : 1);
    return a->c[RC_ID] < b->c[RC_ID] ? -1 : a->c[RC_ID] > b->c[RC_ID];
}

/* Checks one partition of the output; returns the number of wrong values. */
static int ref_check_part(const ref_spec *sp, const ref_row *rw, int n) {
    int *g = sqe_malloc((size_t)(n + 1) * sizeof *g), bad = 0;
    for (int i = 0; i < n; i++) {
        bool same = i > 0 && rw[i].null[RC_O] == rw[i - 1].null[RC_O] &&
                    (rw[i].null[RC_O] || rw[i].c[RC_O] == rw[i - 1].c[RC_O]);
        g[i] = i == 0 ? 0 : g[i - 1] + !same;
        if (i > 0 && ref_order(sp, &rw[i - 1], &rw[i]) >= 0) bad++;
    }
    for (int i = 0; i < n; i++) {
        int64_t want[RF_N];
        bool wnull[RF_N];
        ref_expect(sp, rw, g, n, i, want, wnull);
        for (int f = 0; f < RF_N; f++)
            if (rw[i].fnull[f] != wnull[f] || (!wnull[f] && rw[i].f[f] != want[f])) bad++;
    }
    sqe_free(g);
    return bad;
}

/* Reads the output rows; checks partitions are contiguous, NULL first,
 * then ascending, and each partition's values. */
static int ref_check(const ref_spec *sp, const sqe_resultset *rs) {
    ref_row *rows = sqe_malloc((rs->n_rows + 1) * sizeof *rows);
    size_t n = 0;
    for (size_t bi = 0; bi < rs->batches.len; bi++) {
        const sqe_batch *b = rs->batches.items[bi];
        for (uint32_t r = 0; r < b->n_rows; r++, n++) {
            for (int c = 0; c < RC_N; c++) {
                rows[n].null[c] = sqe_vector_is_null(b->cols[c], r);
                rows[n].c[c] = SQE_VEC_DATA(b->cols[c], int64_t)[r];
            }
            for (int f = 0; f < RF_N; f++) {
                rows[n].fnull[f] = sqe_vector_is_null(b->cols[RC_N + f], r);
                rows[n].f[f] = SQE_VEC_DATA(b->cols[RC_N + f], int64_t)[r];
            }
        }
    }
    int bad = 0;
    for (size_t ps = 0, pe; ps < n; ps = pe) {
        for (pe = ps + 1; pe < n && rows[pe].null[RC_P] == rows[ps].null[RC_P] &&
                          (rows[ps].null[RC_P] || rows[pe].c[RC_P] == rows[ps].c[RC_P]);
             pe++) {
        }
        if (pe < n && !rows[ps].null[RC_P] &&
            (rows[pe].null[RC_P] || rows[pe].c[RC_P] <= rows[ps].c[RC_P]))
            bad++; /* partitions out of order or split */
        bad += ref_check_part(sp, rows + ps, (int)(pe - ps));
    }
    sqe_free(rows);
    return bad;
}

static sqe_expr *ref_offset(int64_t off) {
    return off < 0 ? col(RC_W, T_BIGINT) : ci(off);
}

static sqe_plan *ref_plan(sqe_plan *v, const ref_spec *sp) {
    sqe_expr *x = col(RC_V, T_BIGINT), *so = ref_offset(sp->so), *eo = ref_offset(sp->eo);
    sqe_window_func f[RF_N] = {wagg("sum", false, x),
                               wagg("count", false, NULL),
                               wagg("min", false, x),
                               wagg("count", true, x),
                               wf(SQE_WIN_FIRST_VALUE, T_BIGINT, 1, x, NULL, NULL),
                               ignoring(wf(SQE_WIN_LAST_VALUE, T_BIGINT, 1, x, NULL, NULL)),
                               wf(SQE_WIN_NTH_VALUE, T_BIGINT, 2, x, ci(2), NULL),
                               wagg("max", false, x)};
    for (int i = 0; i < RF_N; i++) f[i] = framed(f[i], sp->ft, sp->sk, so, sp->ek, eo);
    return win1(v, RC_P, RC_O, sp->desc, sp->nf, RF_N, f);
}

static void test_random_frames(void) {
    enum { N = 400 };
    int64_t *cells = sqe_malloc(N * RC_N * sizeof *cells);
    for (int i = 0; i < N; i++) {
        int64_t *r = cells + i * RC_N;
        r[RC_ID] = i;
        r[RC_P] = rng() % 20 == 0 ? NUL : (int64_t)(rng() % 3);
        r[RC_O] = rng() % 10 == 0 ? NUL : (int64_t)(rng() % 30);
        r[RC_V] = rng() % 7 == 0 ? NUL : (int64_t)(rng() % 101) - 50;
        r[RC_W] = (int64_t)(rng() % 6);
    }
    sqe_plan *v = values_i64(RC_N, N, cells);
    sqe_free(cells);
    static const int64_t offs[][2] = {{0, 0}, {2, 1}, {1, 3}, {70, 70}, {-1, -1}};
    int runs = 0, failed = 0;
    for (int ft = SQE_FRAME_T_ROWS; ft <= SQE_FRAME_T_GROUPS; ft++) {
        for (int sk = SQE_BOUND_UNBOUNDED_PRECEDING; sk <= SQE_BOUND_FOLLOWING; sk++) {
            for (int ek = SQE_BOUND_PRECEDING; ek <= SQE_BOUND_UNBOUNDED_FOLLOWING; ek++) {
                if (ek < sk) continue;
                bool has_off = sk == SQE_BOUND_PRECEDING || sk == SQE_BOUND_FOLLOWING ||
                               ek == SQE_BOUND_PRECEDING || ek == SQE_BOUND_FOLLOWING;
                for (size_t o = 0; o < (has_off ? SQE_ARRAY_LEN(offs) : 1); o++) {
                    for (int dir = 0; dir < 4; dir++) {
                        ref_spec sp = {(sqe_frame_type)ft,
                                       (sqe_frame_bound_kind)sk,
                                       (sqe_frame_bound_kind)ek,
                                       offs[o][0],
                                       offs[o][1],
                                       (dir & 1) != 0,
                                       (dir & 2) != 0};
                        sqe_resultset *rs;
                        sqe_error err;
                        sqe_error_clear(&err);
                        runs++;
                        if (!run_rs(ref_plan(v, &sp), SERIAL, &rs, &err)) {
                            fprintf(stderr, "random frames: %s\n", err.msg);
                            failed++;
                            continue;
                        }
                        int bad = rs->n_rows == N ? ref_check(&sp, rs) : 1;
                        if (bad && failed++ < 5)
                            fprintf(
                                stderr,
                                "random frames: %d wrong (frame %d, start %d %lld, end %d %lld, "
                                "desc %d, nulls first %d)\n",
                                bad, ft, sk, (long long)sp.so, ek, (long long)sp.eo, sp.desc,
                                sp.nf);
                        sqe_resultset_free(rs);
                    }
                }
            }
        }
    }
    CHECK(runs > 500);
    CHECK(failed == 0);
}

/* ------------------------------------------------------ parallel scans */

static char tmpdir[256];

static void write_file(const char *rel, const char *text) {
    char path[512], dir[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, rel);
    snprintf(dir, sizeof dir, "%s", path);
    for (char *p = dir + strlen(tmpdir) + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(dir, 0755);
            *p = '/';
        }
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

/* orders(id, cust, status) partitioned by dt: 4 partitions x 2 files x
 * 1500 rows. */
static void write_orders(void) {
    static const char *status[3] = {"PAID", "SHIPPED", "PENDING"};
    int64_t id = 1;
    for (int p = 0; p < 4; p++) {
        for (int f = 0; f < 2; f++) {
            sqe_strbuf sb;
            sqe_strbuf_init(&sb);
            for (int r = 0; r < 1500; r++, id++)
                sqe_strbuf_printf(&sb, "%lld,%lld,%s\n", (long long)id, (long long)(id * 31 % 97),
                                  status[id % 3]);
            char rel[128];
            snprintf(rel, sizeof rel, "orders/dt=2024-01-0%d/part-%d.csv", p + 1, f);
            write_file(rel, sb.data);
            sqe_strbuf_free(&sb);
        }
    }
}

static sqe_hive_table *make_table(sqe_hive_catalog *cat) {
    sqe_error err;
    sqe_error_clear(&err);
    char *sql = sqe_asprintf(
        "CREATE EXTERNAL TABLE lake.default.orders (id BIGINT, cust BIGINT, status STRING) "
        "PARTITIONED BY (dt STRING) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' "
        "STORED AS TEXTFILE LOCATION '%s/orders/'",
        tmpdir);
    sqe_ast_stmt *st = sqe_sql_parse(A, sql, &err);
    sqe_free(sql);
    CHECK(st != NULL);
    if (!st) return NULL;
    const char *status = NULL;
    sqe_resultset *rs = NULL;
    sqe_strbuf notices;
    sqe_strbuf_init(&notices);
    CHECK(sqe_hive_execute(cat, st, &rs, &status, &notices, &err));
    sqe_strbuf_free(&notices);
    sqe_resultset_free(rs);
    const char *parts[3] = {"lake", "default", "orders"};
    sqe_hive_table *t = sqe_hive_resolve_table(cat, 3, parts, &err);
    CHECK(t != NULL);
    return t;
}

/* A scan of (id, cust, status). */
static sqe_plan *scan_orders(sqe_hive_table *t) {
    sqe_type types[3] = {T_BIGINT, T_BIGINT, T_VARCHAR};
    sqe_plan *p = node(SQE_PLAN_SCAN, NULL, 3, types);
    p->u.scan.table = t;
    p->u.scan.table_name = "lake.default.orders";
    p->u.scan.n_cols = 3;
    p->u.scan.cols = sqe_arena_alloc(A, 3 * sizeof(int));
    for (int i = 0; i < 3; i++) p->u.scan.cols[i] = i;
    return p;
}

static void check_serial_parallel(const sqe_plan *p, size_t want_rows) {
    run_opts par = {true, 0};
    char *serial = run_text(p, SERIAL, false);
    char *parallel = run_text(p, par, false);
    CHECK_STR(parallel, serial); /* same rows in the same order */
    size_t lines = serial[0] ? 1 : 0;
    for (const char *c = serial; *c; c++) lines += *c == '\n';
    CHECK(lines == want_rows);
    sqe_free(serial);
    sqe_free(parallel);
}

static void test_parallel_scan(void) {
    char tmpl[] = "/tmp/sqe_test_window_XXXXXX";
    char *d = mkdtemp(tmpl);
    CHECK(d != NULL);
    if (!d) return;
    snprintf(tmpdir, sizeof tmpdir, "%s", d);
    write_orders();
    char wh[300];
    snprintf(wh, sizeof wh, "%s/wh", tmpdir);
    mkdir(wh, 0755);
    sqe_error err;
    sqe_error_clear(&err);
    sqe_hive_catalog *cat = sqe_hive_catalog_new(NULL);
    CHECK(sqe_hive_attach(cat, "lake", wh, NULL, &err));
    sqe_hive_table *t = make_table(cat);
    if (t) {
        sqe_plan *s = scan_orders(t);
        sqe_expr *id = col(0, T_BIGINT);
        sqe_frame_type R = SQE_FRAME_T_ROWS;
        sqe_window_func f[6] = {wrank(SQE_WIN_ROW_NUMBER),
                                wagg("sum", false, id),
                                wf(SQE_WIN_LAG, T_BIGINT, 1, id, NULL, NULL),
                                framed(wagg("count", false, NULL), R, SQE_BOUND_UNBOUNDED_PRECEDING,
                                       NULL, SQE_BOUND_UNBOUNDED_FOLLOWING, NULL),
                                wf(SQE_WIN_NTILE, T_BIGINT, 1, ci(4), NULL, NULL),
                                framed(wagg("avg", false, id), R, SQE_BOUND_PRECEDING, ci(80),
                                       SQE_BOUND_FOLLOWING, ci(80))};
        /* PARTITION BY cust ORDER BY id */
        check_serial_parallel(win1(s, 1, 0, false, false, 6, f), 12000);
        /* PARTITION BY status without ORDER BY: row numbers follow the
         * input order, also when four threads read the files */
        sqe_window_func g[2] = {wrank(SQE_WIN_ROW_NUMBER),
                                wf(SQE_WIN_LAG, T_BIGINT, 1, id, NULL, NULL)};
        check_serial_parallel(win1(s, 2, -1, false, false, 2, g), 12000);
        char *got = run_text(win1(s, 2, -1, false, false, 2, g), SERIAL, false);
        CHECK(strncmp(got, "3|93|PAID|1|NULL\n6|89|PAID|2|3\n", 30) == 0); /* PAID: ids 3, 6, ... */
        sqe_free(got);
        sqe_hive_table_free(t);
    }
    sqe_hive_catalog_free(cat);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    CHECK(system(cmd) == 0);
}

int main(void) {
    A = sqe_arena_new(0);
    g_pool = sqe_threadpool_new(3);
    RUN(test_ranking);
    RUN(test_default_frame);
    RUN(test_rows_frames);
    RUN(test_range_frames);
    RUN(test_groups_frames);
    RUN(test_typed_range);
    RUN(test_ignore_nulls);
    RUN(test_lag_lead);
    RUN(test_ntile);
    RUN(test_filter_and_constants);
    RUN(test_owned_states);
    RUN(test_big);
    RUN(test_partition_keys);
    RUN(test_errors);
    RUN(test_empty_and_memory);
    RUN(test_random_frames);
    RUN(test_parallel_scan);
    sqe_threadpool_free(g_pool);
    sqe_arena_free(A);
    return unit_report();
}
