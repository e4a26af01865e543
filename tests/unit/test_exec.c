/*
 * test_exec.c - the executor: vectorized expressions (three-valued logic,
 * lazy CASE/COALESCE/AND, IN sets, constant folding, EXPLAIN text) and every
 * operator, driven by small plans built by hand from VALUES nodes with
 * hand-made scalar kernels and aggregate bindings (so these tests do not
 * depend on the function registry), plus scans over a temporary partitioned
 * CSV table created through the hive catalog, run serially and with a
 * thread pool (the results must agree), including error propagation from a
 * reader on a worker thread.
 */
#include "exec/exec_int.h"
#include "sql/sql.h"
#include "unit.h"

#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static sqe_arena *A;

static const sqe_type T_BIGINT = {SQE_T_BIGINT, 0, 0, 0, 0};
static const sqe_type T_BOOL = {SQE_T_BOOLEAN, 0, 0, 0, 0};
static const sqe_type T_VARCHAR = {SQE_T_VARCHAR, 0, 0, 0, 0};

/* ------------------------------------------------------ hand-made kernels */

static bool valid(const sqe_vector *v, uint32_t r) {
    return !sqe_vector_is_null(v, r);
}

#define FOR_SEL(i, r) for (uint32_t i = 0, r = 0; i < n && ((r = sel ? sel[i] : i), 1); i++)

static bool k_add(const sqe_func_binding *b, sqe_vector *const *args, const uint16_t *sel,
                  uint32_t n, sqe_vector *out, sqe_error *err) {
    FOR_SEL(i, r) {
        if (!valid(args[0], r) || !valid(args[1], r)) {
            sqe_vector_set_null(out, r);
            continue;
        }
        SQE_VEC_DATA(out, int64_t)
        [r] = SQE_VEC_DATA(args[0], int64_t)[r] + SQE_VEC_DATA(args[1], int64_t)[r];
    }
    return true;
}

static bool k_div(const sqe_func_binding *b, sqe_vector *const *args, const uint16_t *sel,
                  uint32_t n, sqe_vector *out, sqe_error *err) {
    FOR_SEL(i, r) {
        if (!valid(args[0], r) || !valid(args[1], r)) {
            sqe_vector_set_null(out, r);
            continue;
        }
        int64_t d = SQE_VEC_DATA(args[1], int64_t)[r];
        if (d == 0) return sqe_error_set(err, SQE_ERR_DIVISION_BY_ZERO, "division by zero");
        SQE_VEC_DATA(out, int64_t)[r] = SQE_VEC_DATA(args[0], int64_t)[r] / d;
    }
    return true;
}

#define CMP_KERNEL(name, OP)                                                                       \
    static bool name(const sqe_func_binding *b, sqe_vector *const *args, const uint16_t *sel,      \
                     uint32_t n, sqe_vector *out, sqe_error *err) {                                \
        FOR_SEL(i, r) {                                                                            \
            if (!valid(args[0], r) || !valid(args[1], r)) {                                        \
                sqe_vector_set_null(out, r);                                                       \
                continue;                                                                          \
            }                                                                                      \
            SQE_VEC_DATA(out, uint8_t)                                                             \
            [r] = SQE_VEC_DATA(args[0], int64_t)[r] OP SQE_VEC_DATA(args[1], int64_t)[r];          \
        }                                                                                          \
        return true;                                                                               \
    }
CMP_KERNEL(k_gt, >)
CMP_KERNEL(k_ne, !=)

static sqe_expr *col(int c, sqe_type t, const char *name) {
    return sqe_expr_column(A, c, t, name);
}
static sqe_expr *ci(int64_t v) {
    sqe_value x = sqe_value_int(SQE_T_BIGINT, v);
    return sqe_expr_const(A, &x);
}
static sqe_expr *cs(const char *s) {
    sqe_value x = sqe_value_string(s, (uint32_t)strlen(s));
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
static sqe_expr *ne(sqe_expr *a, sqe_expr *b) {
    return call2("<>", k_ne, T_BOOL, a, b);
}
static sqe_expr *add(sqe_expr *a, sqe_expr *b) {
    return call2("+", k_add, T_BIGINT, a, b);
}
static sqe_expr *divide(sqe_expr *a, sqe_expr *b) {
    return call2("/", k_div, T_BIGINT, a, b);
}
static sqe_expr *and2(sqe_expr *a, sqe_expr *b) {
    sqe_expr *args[2] = {a, b};
    return sqe_expr_new(A, SQE_EXPR_AND, T_BOOL, 2, args);
}
static sqe_expr *or2(sqe_expr *a, sqe_expr *b) {
    sqe_expr *args[2] = {a, b};
    return sqe_expr_new(A, SQE_EXPR_OR, T_BOOL, 2, args);
}
static sqe_expr *in_list(sqe_expr *arg, int n, const sqe_value *vals, bool negated) {
    sqe_expr *e = sqe_expr_new(A, SQE_EXPR_IN, T_BOOL, 1, &arg);
    e->n_in = n;
    e->in_values = sqe_arena_alloc(A, (size_t)n * sizeof(sqe_value));
    memcpy(e->in_values, vals, (size_t)n * sizeof(sqe_value));
    e->negated = negated;
    return e;
}

/* ------------------------------------------------- hand-made aggregates */

static void st_zero(const sqe_agg_binding *b, void *s) {
    memset(s, 0, b->state_size);
}

static bool count_update(const sqe_agg_binding *b, void *const *states, const sqe_vector *arg,
                         const uint16_t *sel, uint32_t n, sqe_error *err) {
    for (uint32_t i = 0; i < n; i++) {
        uint32_t r = sel ? sel[i] : i;
        if (!arg || valid(arg, r)) (*(int64_t *)states[i])++;
    }
    return true;
}
static bool count_combine(const sqe_agg_binding *b, void *d, void *s, sqe_error *err) {
    *(int64_t *)d += *(int64_t *)s;
    return true;
}
static bool count_final(const sqe_agg_binding *b, void *s, sqe_vector *out, uint32_t row,
                        sqe_error *err) {
    SQE_VEC_DATA(out, int64_t)[row] = *(int64_t *)s;
    return true;
}

typedef struct {
    int64_t sum;
    int64_t any;
} sum_state;
static bool sum_update(const sqe_agg_binding *b, void *const *states, const sqe_vector *arg,
                       const uint16_t *sel, uint32_t n, sqe_error *err) {
    for (uint32_t i = 0; i < n; i++) {
        uint32_t r = sel ? sel[i] : i;
        if (!valid(arg, r)) continue;
        sum_state *s = states[i];
        s->sum += SQE_VEC_DATA(arg, int64_t)[r];
        s->any = 1;
    }
    return true;
}
static bool sum_combine(const sqe_agg_binding *b, void *d_, void *s_, sqe_error *err) {
    sum_state *d = d_, *s = s_;
    d->sum += s->sum;
    d->any |= s->any;
    return true;
}
static bool sum_final(const sqe_agg_binding *b, void *s_, sqe_vector *out, uint32_t row,
                      sqe_error *err) {
    sum_state *s = s_;
    if (!s->any)
        sqe_vector_set_null(out, row);
    else
        SQE_VEC_DATA(out, int64_t)[row] = s->sum;
    return true;
}

/* A state that owns heap memory, to check destroy/combine ownership. */
typedef struct {
    int64_t *box;
} boxed_state;
static int live_boxes;
static void boxed_init(const sqe_agg_binding *b, void *s) {
    ((boxed_state *)s)->box = sqe_calloc(1, sizeof(int64_t));
    live_boxes++;
}
static bool boxed_update(const sqe_agg_binding *b, void *const *states, const sqe_vector *arg,
                         const uint16_t *sel, uint32_t n, sqe_error *err) {
    for (uint32_t i = 0; i < n; i++) (*((boxed_state *)states[i])->box)++;
    return true;
}
static bool boxed_combine(const sqe_agg_binding *b, void *d, void *s, sqe_error *err) {
    *((boxed_state *)d)->box += *((boxed_state *)s)->box;
    sqe_free(((boxed_state *)s)->box);
    ((boxed_state *)s)->box = NULL;
    live_boxes--;
    return true;
}
static bool boxed_final(const sqe_agg_binding *b, void *s, sqe_vector *out, uint32_t row,
                        sqe_error *err) {
    SQE_VEC_DATA(out, int64_t)[row] = *((boxed_state *)s)->box;
    return true;
}
static void boxed_destroy(const sqe_agg_binding *b, void *s) {
    if (((boxed_state *)s)->box) live_boxes--;
    sqe_free(((boxed_state *)s)->box);
}

static sqe_agg_binding agg_count(bool star) {
    sqe_agg_binding b = {0};
    b.name = "count";
    b.star = star;
    b.arg_type = T_BIGINT;
    b.ret = T_BIGINT;
    b.state_size = sizeof(int64_t);
    b.init = st_zero;
    b.update = count_update;
    b.combine = count_combine;
    b.finalize = count_final;
    return b;
}
static sqe_agg_binding agg_sum(void) {
    sqe_agg_binding b = agg_count(false);
    b.name = "sum";
    b.state_size = sizeof(sum_state);
    b.update = sum_update;
    b.combine = sum_combine;
    b.finalize = sum_final;
    return b;
}
static sqe_agg_binding agg_boxed(void) {
    sqe_agg_binding b = agg_count(true);
    b.name = "boxed";
    b.state_size = sizeof(boxed_state);
    b.init = boxed_init;
    b.update = boxed_update;
    b.combine = boxed_combine;
    b.finalize = boxed_final;
    b.destroy = boxed_destroy;
    return b;
}

/* ------------------------------------------------------------ plan helpers */

static sqe_plan *node(sqe_plan_kind kind, sqe_plan *child, int n_out, const sqe_type *types,
                      const char *const *names) {
    sqe_plan *p = sqe_arena_alloc(A, sizeof *p);
    p->kind = kind;
    p->n_children = child ? 1 : 0;
    p->children = sqe_arena_alloc(A, sizeof(sqe_plan *));
    p->children[0] = child;
    p->n_out = n_out;
    p->out_types = sqe_arena_alloc(A, (size_t)(n_out + 1) * sizeof(sqe_type));
    p->out_names = sqe_arena_alloc(A, (size_t)(n_out + 1) * sizeof(char *));
    for (int i = 0; i < n_out; i++) {
        p->out_types[i] = types[i];
        p->out_names[i] = names ? names[i] : sqe_arena_sprintf(A, "c%d", i);
    }
    return p;
}

static sqe_plan *same_schema(sqe_plan_kind kind, sqe_plan *child) {
    return node(kind, child, child->n_out, child->out_types, child->out_names);
}

/* VALUES with n rows of (bigint k, varchar s, bigint v): row i gets
 * k = keys[i] (INT64_MIN = NULL), s = strs[i] (NULL = NULL), v = vals[i]. */
static sqe_plan *values3(int n, const int64_t *keys, const char *const *strs, const int64_t *vals) {
    sqe_type types[3] = {T_BIGINT, T_VARCHAR, T_BIGINT};
    const char *names[3] = {"k", "s", "v"};
    sqe_plan *p = node(SQE_PLAN_VALUES, NULL, 3, types, names);
    p->u.values.n_rows = n;
    p->u.values.rows = sqe_arena_alloc(A, (size_t)(n + 1) * sizeof(sqe_value *));
    for (int i = 0; i < n; i++) {
        sqe_value *row = sqe_arena_alloc(A, 3 * sizeof(sqe_value));
        row[0] =
            keys[i] == INT64_MIN ? sqe_value_null(T_BIGINT) : sqe_value_int(SQE_T_BIGINT, keys[i]);
        row[1] = strs[i] ? sqe_value_string(sqe_arena_strdup(A, strs[i]), (uint32_t)strlen(strs[i]))
                         : sqe_value_null(T_VARCHAR);
        row[2] =
            vals[i] == INT64_MIN ? sqe_value_null(T_BIGINT) : sqe_value_int(SQE_T_BIGINT, vals[i]);
        p->u.values.rows[i] = row;
    }
    return p;
}

static sqe_plan *agg_node(sqe_plan *child, int n_groups, sqe_expr **groups, int n_aggs,
                          const sqe_agg_binding *aggs, sqe_expr **args) {
    sqe_type types[16];
    const char *names[16];
    for (int i = 0; i < n_groups; i++) {
        types[i] = groups[i]->type;
        names[i] = sqe_expr_to_string(A, groups[i]);
    }
    for (int i = 0; i < n_aggs; i++) {
        types[n_groups + i] = aggs[i].ret;
        names[n_groups + i] = aggs[i].name;
    }
    sqe_plan *p = node(SQE_PLAN_AGGREGATE, child, n_groups + n_aggs, types, names);
    p->u.aggregate.n_groups = n_groups;
    p->u.aggregate.groups = sqe_arena_alloc(A, (size_t)(n_groups + 1) * sizeof(sqe_expr *));
    if (n_groups) memcpy(p->u.aggregate.groups, groups, (size_t)n_groups * sizeof(sqe_expr *));
    p->u.aggregate.n_aggs = n_aggs;
    p->u.aggregate.aggs = sqe_arena_alloc(A, (size_t)(n_aggs + 1) * sizeof(sqe_agg_binding));
    if (n_aggs) memcpy(p->u.aggregate.aggs, aggs, (size_t)n_aggs * sizeof(sqe_agg_binding));
    p->u.aggregate.agg_args = sqe_arena_alloc(A, (size_t)(n_aggs + 1) * sizeof(sqe_expr *));
    for (int i = 0; i < n_aggs; i++) p->u.aggregate.agg_args[i] = args ? args[i] : NULL;
    return p;
}

static sqe_plan *sort_node(sqe_plan_kind kind, sqe_plan *child, int n_keys,
                           const sqe_sort_key *keys, uint64_t limit, uint64_t offset) {
    sqe_plan *p = same_schema(kind, child);
    p->u.sort.n_keys = n_keys;
    p->u.sort.keys = sqe_arena_alloc(A, (size_t)(n_keys + 1) * sizeof *keys);
    memcpy(p->u.sort.keys, keys, (size_t)n_keys * sizeof *keys);
    p->u.sort.limit = limit;
    p->u.sort.offset = offset;
    return p;
}

static int cmp_lines(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs a plan; returns its rows as "a|b\nc|d" (sorted when asked), or the
 * error as "ERROR <class>: <msg>". malloc'd. */
/* Tuning the tests change: as the old process-wide knobs read, 0 means
 * "always parallel" / "no splitting". Applied to every run. */
static uint64_t t_parallel_min = (uint64_t)4 << 20;
static uint64_t t_split = (uint64_t)32 << 20;

static char *run_opts(const sqe_plan *p, const sqe_exec_options *opts_in, bool sorted) {
    sqe_resultset *rs = NULL;
    sqe_error err;
    sqe_error_clear(&err);
    sqe_exec_options o;
    memset(&o, 0, sizeof o);
    if (opts_in)
        o = *opts_in;
    else
        o.threads = 1;
    o.parallel_min_bytes = t_parallel_min ? t_parallel_min : 1;
    o.text_split_bytes = t_split ? t_split : UINT64_MAX;
    const sqe_exec_options *opts = &o;
    if (!sqe_exec_run(p, opts, &rs, &err))
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

static char *run(const sqe_plan *p, bool sorted) {
    return run_opts(p, NULL, sorted);
}

#define CHECK_RUN(plan, sorted, want)                                                              \
    do {                                                                                           \
        char *got_ = run(plan, sorted);                                                            \
        CHECK_STR(got_, want);                                                                     \
        sqe_free(got_);                                                                            \
    } while (0)

/* ------------------------------------------------------- expression tests */

/* A batch of two nullable booleans covering all 9 combinations. */
static sqe_batch *bool_batch(void) {
    sqe_type t[2] = {T_BOOL, T_BOOL};
    sqe_batch *b = sqe_batch_new(2, t);
    int vals[3] = {0, 1, -1}; /* -1 = NULL */
    for (int i = 0; i < 9; i++) {
        int x = vals[i / 3], y = vals[i % 3];
        if (x < 0)
            sqe_vector_set_null(b->cols[0], (uint32_t)i);
        else
            SQE_VEC_DATA(b->cols[0], uint8_t)[i] = (uint8_t)x;
        if (y < 0)
            sqe_vector_set_null(b->cols[1], (uint32_t)i);
        else
            SQE_VEC_DATA(b->cols[1], uint8_t)[i] = (uint8_t)y;
    }
    b->n_rows = 9;
    return b;
}

static char *bool_text(const sqe_vector *v, const uint16_t *sel, uint32_t n) {
    static char buf[64];
    size_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t r = sel ? sel[i] : i;
        buf[k++] = sqe_vector_is_null(v, r) ? 'N' : (SQE_VEC_DATA(v, uint8_t)[r] ? 'T' : 'F');
    }
    buf[k] = 0;
    return buf;
}

static void test_three_valued(void) {
    sqe_batch *b = bool_batch();
    sqe_error err;
    sqe_error_clear(&err);
    sqe_expr *x = col(0, T_BOOL, "x"), *y = col(1, T_BOOL, "y");
    struct {
        sqe_expr *e;
        const char *want;
    } cases[] = {
        /* x: F F F T T T N N N ; y: F T N F T N F T N */
        {and2(x, y), "FFFFTNFNN"},
        {or2(x, y), "FTNTTTNTN"},
        {sqe_expr_new(A, SQE_EXPR_NOT, T_BOOL, 1, &x), "TTTFFFNNN"},
        {sqe_expr_new(A, SQE_EXPR_IS_NULL, T_BOOL, 1, &y), "FFTFFTFFT"},
    };
    for (size_t i = 0; i < SQE_ARRAY_LEN(cases); i++) {
        sqe_expr_state *st = sqe_expr_state_new(cases[i].e);
        sqe_vector *v = sqe_expr_eval(st, b, NULL, b->n_rows, &err);
        CHECK(v != NULL);
        if (v) CHECK_STR(bool_text(v, NULL, 9), cases[i].want);
        sqe_expr_state_free(st);
    }
    /* IS NOT NULL, and evaluation under a selection. */
    sqe_expr *isnn = sqe_expr_new(A, SQE_EXPR_IS_NULL, T_BOOL, 1, &x);
    isnn->negated = true;
    sqe_expr_state *st = sqe_expr_state_new(isnn);
    uint16_t sel[3] = {1, 4, 7};
    sqe_vector *v = sqe_expr_eval(st, b, sel, 3, &err);
    CHECK(v && strcmp(bool_text(v, sel, 3), "TTF") == 0);
    sqe_expr_state_free(st);

    /* Three-argument AND/OR. */
    sqe_expr *args[3] = {x, y, x};
    st = sqe_expr_state_new(sqe_expr_new(A, SQE_EXPR_AND, T_BOOL, 3, args));
    v = sqe_expr_eval(st, b, NULL, 9, &err);
    CHECK(v && strcmp(bool_text(v, NULL, 9), "FFFFTNFNN") == 0);
    sqe_expr_state_free(st);

    /* Filter keeps TRUE rows only. */
    st = sqe_expr_state_new(or2(x, y));
    uint16_t out[16];
    uint32_t k = 0;
    CHECK(sqe_expr_filter(st, b, NULL, 9, out, &k, &err));
    CHECK(k == 5 && out[0] == 1 && out[1] == 3 && out[4] == 7);
    sqe_expr_state_free(st);
    sqe_batch_free(b);
}

/* A batch (x bigint, a bigint) with x = 0 on some rows. */
static sqe_batch *int_batch(uint32_t n) {
    sqe_type t[2] = {T_BIGINT, T_BIGINT};
    sqe_batch *b = sqe_batch_new(2, t);
    for (uint32_t i = 0; i < n; i++) {
        SQE_VEC_DATA(b->cols[0], int64_t)[i] = (int64_t)(i % 4); /* 0 1 2 3 ... */
        if (i % 4 == 0)
            SQE_VEC_DATA(b->cols[1], int64_t)[i] = 100 + i;
        else
            sqe_vector_set_null(b->cols[1], i);
    }
    b->n_rows = n;
    return b;
}

static void test_lazy(void) {
    sqe_batch *b = int_batch(8);
    sqe_error err;
    sqe_error_clear(&err);
    sqe_expr *x = col(0, T_BIGINT, "x"), *a = col(1, T_BIGINT, "a");

    /* Eager division fails on x = 0. */
    sqe_expr_state *st = sqe_expr_state_new(divide(ci(12), x));
    CHECK(sqe_expr_eval(st, b, NULL, 8, &err) == NULL);
    CHECK(err.cls == SQE_ERR_DIVISION_BY_ZERO);
    sqe_expr_state_free(st);

    /* CASE WHEN x <> 0 THEN 12 / x ELSE -1 END */
    sqe_expr *cargs[3] = {ne(x, ci(0)), divide(ci(12), x), ci(-1)};
    sqe_expr *ce = sqe_expr_new(A, SQE_EXPR_CASE, T_BIGINT, 3, cargs);
    ce->has_else = true;
    st = sqe_expr_state_new(ce);
    sqe_error_clear(&err);
    sqe_vector *v = sqe_expr_eval(st, b, NULL, 8, &err);
    CHECK(v != NULL);
    if (v) {
        int64_t want[8] = {-1, 12, 6, 4, -1, 12, 6, 4};
        for (int i = 0; i < 8; i++) CHECK(SQE_VEC_DATA(v, int64_t)[i] == want[i]);
    }
    sqe_expr_state_free(st);

    /* CASE without ELSE gives NULL; a later WHEN does not see earlier matches. */
    sqe_expr *c2[4] = {gt(x, ci(1)), ci(10), gt(x, ci(0)), ci(20)};
    ce = sqe_expr_new(A, SQE_EXPR_CASE, T_BIGINT, 4, c2);
    st = sqe_expr_state_new(ce);
    v = sqe_expr_eval(st, b, NULL, 4, &err);
    CHECK(v && sqe_vector_is_null(v, 0) && SQE_VEC_DATA(v, int64_t)[1] == 20 &&
          SQE_VEC_DATA(v, int64_t)[2] == 10 && SQE_VEC_DATA(v, int64_t)[3] == 10);
    sqe_expr_state_free(st);

    /* COALESCE(a, 12 / x): the division runs only where a is NULL (x <> 0). */
    sqe_expr *co[2] = {a, divide(ci(12), x)};
    st = sqe_expr_state_new(sqe_expr_new(A, SQE_EXPR_COALESCE, T_BIGINT, 2, co));
    v = sqe_expr_eval(st, b, NULL, 8, &err);
    CHECK(v != NULL);
    if (v) {
        int64_t want[8] = {100, 12, 6, 4, 104, 12, 6, 4};
        for (int i = 0; i < 8; i++)
            CHECK(!sqe_vector_is_null(v, (uint32_t)i) && SQE_VEC_DATA(v, int64_t)[i] == want[i]);
    }
    sqe_expr_state_free(st);

    /* COALESCE(a, NULL) keeps NULLs. */
    sqe_expr *co2[2] = {a, cnull(T_BIGINT)};
    st = sqe_expr_state_new(sqe_expr_new(A, SQE_EXPR_COALESCE, T_BIGINT, 2, co2));
    v = sqe_expr_eval(st, b, NULL, 8, &err);
    CHECK(v && !sqe_vector_is_null(v, 0) && sqe_vector_is_null(v, 1));
    sqe_expr_state_free(st);

    /* AND: the right side only sees rows where the left is not FALSE. */
    st = sqe_expr_state_new(and2(ne(x, ci(0)), gt(divide(ci(12), x), ci(5))));
    v = sqe_expr_eval(st, b, NULL, 8, &err);
    CHECK(v && strcmp(bool_text(v, NULL, 8), "FTTFFTTF") == 0);
    uint16_t out[8];
    uint32_t k = 0;
    CHECK(sqe_expr_filter(st, b, NULL, 8, out, &k, &err) && k == 4 && out[0] == 1 && out[3] == 6);
    sqe_expr_state_free(st);

    /* OR: the right side only sees rows where the left is not TRUE. */
    st = sqe_expr_state_new(or2(gt(ci(1), x), gt(divide(ci(12), x), ci(5))));
    v = sqe_expr_eval(st, b, NULL, 8, &err);
    CHECK(v && strcmp(bool_text(v, NULL, 8), "TTTFTTTF") == 0);
    sqe_expr_state_free(st);

    /* In-place filtering (out_sel == sel). */
    st = sqe_expr_state_new(gt(x, ci(1)));
    uint16_t sel[4] = {1, 2, 3, 6};
    CHECK(sqe_expr_filter(st, b, sel, 4, sel, &k, &err) && k == 3 && sel[0] == 2 && sel[1] == 3 &&
          sel[2] == 6);
    sqe_expr_state_free(st);
    sqe_batch_free(b);
}

static void test_in(void) {
    sqe_error err;
    sqe_error_clear(&err);
    sqe_batch *b = int_batch(8);
    sqe_expr *x = col(0, T_BIGINT, "x"), *a = col(1, T_BIGINT, "a");
    sqe_value small[2] = {sqe_value_int(SQE_T_BIGINT, 1), sqe_value_int(SQE_T_BIGINT, 3)};
    sqe_expr_state *st = sqe_expr_state_new(in_list(x, 2, small, false));
    sqe_vector *v = sqe_expr_eval(st, b, NULL, 8, &err);
    CHECK(v && strcmp(bool_text(v, NULL, 4), "FTFT") == 0);
    sqe_expr_state_free(st);

    /* NOT IN with a NULL constant: misses are NULL; a NULL input is NULL. */
    sqe_value withnull[2] = {sqe_value_int(SQE_T_BIGINT, 1), sqe_value_null(T_BIGINT)};
    st = sqe_expr_state_new(in_list(x, 2, withnull, true));
    v = sqe_expr_eval(st, b, NULL, 8, &err);
    CHECK(v && strcmp(bool_text(v, NULL, 4), "NFNN") == 0);
    sqe_expr_state_free(st);
    st = sqe_expr_state_new(in_list(a, 1, small, false));
    v = sqe_expr_eval(st, b, NULL, 2, &err);
    CHECK(v && strcmp(bool_text(v, NULL, 2), "FN") == 0);
    sqe_expr_state_free(st);

    /* A large list uses the hash set. */
    sqe_value many[40];
    for (int i = 0; i < 40; i++) many[i] = sqe_value_int(SQE_T_BIGINT, 2 + 10 * i);
    st = sqe_expr_state_new(in_list(x, 40, many, false));
    v = sqe_expr_eval(st, b, NULL, 8, &err);
    CHECK(v && strcmp(bool_text(v, NULL, 8), "FFTFFFTF") == 0);
    sqe_expr_state_free(st);

    /* VARCHAR, short and long strings, both paths. */
    sqe_type t1[1] = {T_VARCHAR};
    sqe_batch *sb = sqe_batch_new(1, t1);
    const char *strs[4] = {"PAID", "a much longer string value", "SHIPPED", "x"};
    for (int i = 0; i < 4; i++)
        sqe_vector_set_string(sb->cols[0], (uint32_t)i, strs[i], strlen(strs[i]));
    sb->n_rows = 4;
    sqe_expr *s = col(0, T_VARCHAR, "s");
    sqe_value sv[12];
    sv[0] = sqe_value_string("PAID", 4);
    sv[1] = sqe_value_string("a much longer string value", 26);
    for (int i = 2; i < 12; i++) sv[i] = sqe_value_string("zz", 2);
    st = sqe_expr_state_new(in_list(s, 2, sv, false));
    v = sqe_expr_eval(st, sb, NULL, 4, &err);
    CHECK(v && strcmp(bool_text(v, NULL, 4), "TTFF") == 0);
    sqe_expr_state_free(st);
    st = sqe_expr_state_new(in_list(s, 12, sv, false));
    v = sqe_expr_eval(st, sb, NULL, 4, &err);
    CHECK(v && strcmp(bool_text(v, NULL, 4), "TTFF") == 0);
    sqe_expr_state_free(st);
    sqe_batch_free(sb);
    sqe_batch_free(b);
}

static void test_const_and_text(void) {
    sqe_error err;
    sqe_error_clear(&err);
    sqe_value out;
    CHECK(sqe_expr_eval_const(add(ci(2), ci(40)), A, &out, &err));
    CHECK(!out.is_null && out.v.i == 42);
    CHECK(sqe_expr_eval_const(add(ci(2), cnull(T_BIGINT)), A, &out, &err) && out.is_null);
    CHECK(sqe_expr_is_const(add(ci(1), ci(2))));
    CHECK(!sqe_expr_is_const(add(ci(1), col(0, T_BIGINT, "x"))));
    CHECK(!sqe_expr_eval_const(divide(ci(1), ci(0)), A, &out, &err) &&
          err.cls == SQE_ERR_DIVISION_BY_ZERO);
    /* Constants fill the whole vector once and are reused across batches. */
    sqe_expr_state *st = sqe_expr_state_new(cs("a string longer than twelve"));
    sqe_batch *b = sqe_batch_new_empty(0);
    b->n_rows = 2048;
    sqe_vector *v = sqe_expr_eval(st, b, NULL, 2048, &err);
    CHECK(v && SQE_VEC_DATA(v, sqe_string)[2047].len == 27);
    sqe_expr_state_free(st);
    sqe_batch_free(b);

    sqe_expr *x = col(0, T_BIGINT, "x");
    CHECK_STR(sqe_expr_to_string(A, and2(gt(x, ci(10)), ne(x, cnull(T_BIGINT)))),
              "((x > 10) AND (x <> NULL))");
    sqe_value iv[2] = {sqe_value_string("a'b", 3), sqe_value_string("c", 1)};
    CHECK_STR(sqe_expr_to_string(A, in_list(col(1, T_VARCHAR, "s"), 2, iv, true)),
              "(s NOT IN ('a''b', 'c'))");
    sqe_expr *cargs[3] = {gt(x, ci(0)), x, ci(0)};
    sqe_expr *ce = sqe_expr_new(A, SQE_EXPR_CASE, T_BIGINT, 3, cargs);
    ce->has_else = true;
    CHECK_STR(sqe_expr_to_string(A, ce), "CASE WHEN (x > 0) THEN x ELSE 0 END");
    CHECK_STR(sqe_expr_to_string(A, sqe_expr_cast(A, x, T_VARCHAR, true)),
              "TRY_CAST(x AS varchar)");
}

/* ---------------------------------------------- expression memory (issue 5) */

/* big(x): a string of x bytes ('a' + row % 26) per row, in out's heap. */
static bool k_big(const sqe_func_binding *b, sqe_vector *const *args, const uint16_t *sel,
                  uint32_t n, sqe_vector *out, sqe_error *err) {
    FOR_SEL(i, r) {
        size_t len = (size_t)SQE_VEC_DATA(args[0], int64_t)[r];
        char *p = sqe_vector_heap_alloc(out, len);
        if (!p) return sqe_mem_account_error(out->acct, "big", err);
        memset(p, 'a' + (int)(r % 26), len);
        SQE_VEC_DATA(out, sqe_string)[r] = sqe_string_ref(p, (uint32_t)len);
    }
    return true;
}

/* len(s): the byte length when every byte is the same letter, else -1. */
static bool k_len(const sqe_func_binding *b, sqe_vector *const *args, const uint16_t *sel,
                  uint32_t n, sqe_vector *out, sqe_error *err) {
    FOR_SEL(i, r) {
        const sqe_string *x = &SQE_VEC_DATA(args[0], sqe_string)[r];
        const char *d = sqe_string_data(x);
        int64_t len = x->len;
        for (uint32_t k = 0; k < x->len; k++)
            if (d[k] != d[0]) len = -1;
        SQE_VEC_DATA(out, int64_t)[r] = len;
    }
    return true;
}

static sqe_expr *call1(const char *name, sqe_scalar_kernel k, sqe_type ret, sqe_expr *a) {
    sqe_expr *args[1] = {a};
    sqe_expr *e = sqe_expr_new(A, SQE_EXPR_CALL, ret, 1, args);
    e->fn.name = name;
    e->fn.kernel = k;
    e->fn.ret = ret;
    e->fn.n_args = 1;
    return e;
}

/* A batch of 2048 rows, column 0 = len (bigint). */
static sqe_batch *len_batch(int64_t len) {
    sqe_type t[1] = {T_BIGINT};
    sqe_batch *b = sqe_batch_new(1, t);
    for (uint32_t i = 0; i < SQE_BATCH_ROWS; i++) SQE_VEC_DATA(b->cols[0], int64_t)[i] = len;
    b->n_rows = SQE_BATCH_ROWS;
    return b;
}

/* Results larger than the limit for one batch: evaluated in pieces;
 * a value larger than the limit fails naming the function; states give
 * back every byte. */
static void test_expr_memory(void) {
    atomic_size_t used, peak;
    atomic_init(&used, 0);
    atomic_init(&peak, 0);
    sqe_mem_account acct = {&used, &peak, (size_t)1 << 20}; /* 1 MiB */
    sqe_error err;
    sqe_error_clear(&err);
    sqe_expr *x = col(0, T_BIGINT, "x");
    sqe_expr *len_big = call1("len", k_len, T_BIGINT, call1("big", k_big, T_VARCHAR, x));

    /* 2048 x 4 KB = 8 MB of intermediate strings under 1 MiB */
    sqe_expr_state *st = sqe_expr_state_new_acct(len_big, &acct, "TestExec", &err);
    CHECK(st != NULL);
    size_t fixed = atomic_load(&used);
    CHECK(fixed > 2 * SQE_BATCH_ROWS * 8); /* full scratch vectors, charged at once */
    sqe_batch *b = len_batch(4096);
    for (int round = 0; round < 2; round++) { /* the second batch starts in pieces */
        sqe_vector *v = sqe_expr_eval(st, b, NULL, SQE_BATCH_ROWS, &err);
        CHECK(v != NULL);
        bool all = v != NULL;
        for (uint32_t r = 0; v && r < SQE_BATCH_ROWS; r++)
            all &= SQE_VEC_DATA(v, int64_t)[r] == 4096;
        CHECK(all);
        CHECK(atomic_load(&peak) <= acct.limit);
    }
    /* with a selection */
    uint16_t sel[3] = {5, 700, 2047};
    sqe_vector *v = sqe_expr_eval(st, b, sel, 3, &err);
    CHECK(v && SQE_VEC_DATA(v, int64_t)[700] == 4096 && SQE_VEC_DATA(v, int64_t)[2047] == 4096);

    /* a filter in place (out_sel == sel) over pieces: rows with x == 4096 */
    sqe_expr_state *fst = sqe_expr_state_new_acct(gt(len_big, ci(4000)), &acct, "TestExec", &err);
    CHECK(fst != NULL);
    for (uint32_t i = 0; i < SQE_BATCH_ROWS; i++)
        SQE_VEC_DATA(b->cols[0], int64_t)[i] = i % 3 ? 4096 : 1;
    for (uint32_t i = 0; i < SQE_BATCH_ROWS; i++) b->sel_buf[i] = (uint16_t)i;
    uint32_t k = 0;
    CHECK(sqe_expr_filter(fst, b, b->sel_buf, SQE_BATCH_ROWS, b->sel_buf, &k, &err));
    bool ok = k == SQE_BATCH_ROWS - (SQE_BATCH_ROWS + 2) / 3;
    for (uint32_t i = 0, want = 1; ok && i < k; i++, want += (want + 1) % 3 ? 1 : 2)
        ok = b->sel_buf[i] == want;
    CHECK(ok);
    CHECK(atomic_load(&peak) <= acct.limit);

    /* one value of 2 MiB cannot fit: the function is named */
    sqe_batch *huge = len_batch((int64_t)2 << 20);
    CHECK(sqe_expr_eval(st, huge, NULL, 4, &err) == NULL);
    CHECK(err.cls == SQE_ERR_RESOURCE_EXHAUSTED);
    CHECK_STR(err.msg, "query exceeded the memory limit of 1048576 bytes in big");
    sqe_error_clear(&err);
    /* a string result that cannot fit for the batch: named too */
    sqe_expr_state *sst =
        sqe_expr_state_new_acct(call1("big", k_big, T_VARCHAR, x), &acct, "TestExec", &err);
    CHECK(sst && sqe_expr_eval(sst, b, NULL, SQE_BATCH_ROWS, &err) == NULL);
    CHECK_CONTAINS(err.msg, "memory limit of 1048576 bytes in big");
    sqe_expr_state_free(sst);

    sqe_expr_state_free(st);
    sqe_expr_state_free(fst);
    CHECK(atomic_load(&used) == 0);
    CHECK(fixed > 0);

    /* a state whose fixed part does not fit: NULL naming the operator */
    sqe_mem_account tiny = {&used, &peak, 100};
    sqe_error_clear(&err);
    CHECK(sqe_expr_state_new_acct(len_big, &tiny, "TestExec", &err) == NULL);
    CHECK_STR(err.msg, "query exceeded the memory limit of 100 bytes in TestExec");
    /* ... unless the caller cannot fail (err NULL): counted, not refused */
    sqe_expr_state *forced = sqe_expr_state_new_acct(len_big, &tiny, "TestExec", NULL);
    CHECK(forced != NULL && atomic_load(&used) > 100);
    sqe_expr_state_free(forced);
    CHECK(atomic_load(&used) == 0);
    /* a long string constant is stored, then counted: never a wrong value */
    forced = sqe_expr_state_new_acct(cs("a string longer than twelve"), &tiny, "TestExec", NULL);
    sqe_batch *none = sqe_batch_new_empty(0);
    none->n_rows = 1;
    v = sqe_expr_eval(forced, none, NULL, 1, &err);
    CHECK(v && SQE_VEC_DATA(v, sqe_string)[0].len == 27 &&
          memcmp(sqe_string_data(&SQE_VEC_DATA(v, sqe_string)[0]), "a string", 8) == 0);
    none->n_rows = 2;
    v = sqe_expr_eval(forced, none, NULL, 2, &err);
    CHECK(v && SQE_VEC_DATA(v, sqe_string)[1].len == 27);
    sqe_expr_state_free(forced);
    CHECK(atomic_load(&used) == 0);

    /* A lazy state starts with empty scratch vectors and grows them to the
     * rows evaluated, charging each growth; past the limit the growth is
     * refused: an error, never a wrong value. */
    sqe_expr_state *lz = sqe_expr_state_new_sized(len_big, &acct, "TestExec", true, &err);
    CHECK(lz != NULL && atomic_load(&used) < SQE_BATCH_ROWS);
    sqe_batch *one = len_batch(4);
    one->n_rows = 1;
    v = sqe_expr_eval(lz, one, NULL, 1, &err);
    CHECK(v && SQE_VEC_DATA(v, int64_t)[0] == 4 && v->cap < SQE_BATCH_ROWS);
    size_t small = atomic_load(&used);
    v = sqe_expr_eval(lz, b, NULL, SQE_BATCH_ROWS, &err);
    CHECK(v && v->cap == SQE_BATCH_ROWS && atomic_load(&used) > small + SQE_BATCH_ROWS * 8);
    sqe_expr_state_free(lz);
    CHECK(atomic_load(&used) == 0);
    sqe_expr_state *lzc =
        sqe_expr_state_new_sized(cs("a string longer than twelve"), &tiny, "TestExec", true, NULL);
    CHECK(lzc != NULL);
    v = sqe_expr_eval(lzc, none, NULL, 2, &err);
    CHECK(v == NULL && err.cls == SQE_ERR_RESOURCE_EXHAUSTED);
    sqe_error_clear(&err);
    sqe_expr_state_free(lzc);
    sqe_batch_free(one);
    sqe_batch_free(none);
    CHECK(atomic_load(&used) == 0);
    sqe_batch_free(b);
    sqe_batch_free(huge);
}

/* Key slots: equal values compare and hash equal whatever the bytes after
 * an inline string hold; -0.0 groups with 0.0 and NaN with NaN. */
static void test_keys(void) {
    sqe_type t1[1] = {T_VARCHAR};
    sqe_batch *b = sqe_batch_new(1, t1);
    const char *strs[3] = {"abcdefghijk", "abcdefghijk", "abcdefghijkl"};
    for (uint32_t len = 0; len <= 12; len++) {
        sqe_vector_set_string(b->cols[0], 0, strs[0], len);
        sqe_string dirty = SQE_VEC_DATA(b->cols[0], sqe_string)[0];
        memset((char *)&dirty + 4 + len, 0x5a, 12 - len); /* garbage after the bytes */
        SQE_VEC_DATA(b->cols[0], sqe_string)[1] = dirty;
        sqe_vector_set_string(b->cols[0], 2, strs[2], len < 12 ? len + 1 : 12);
        sqe_key_slot k[3];
        uint8_t nl[3];
        sqe_key_load(b->cols[0], NULL, 3, k, nl);
        CHECK(sqe_key_eq(SQE_KEY_STR, &k[0], &k[1]));
        CHECK(sqe_key_hash(SQE_KEY_STR, &k[0]) == sqe_key_hash(SQE_KEY_STR, &k[1]));
        CHECK(sqe_key_cmp(SQE_KEY_STR, &k[0], &k[1]) == 0);
        if (len < 12)
            CHECK(!sqe_key_eq(SQE_KEY_STR, &k[0], &k[2]) &&
                  sqe_key_cmp(SQE_KEY_STR, &k[0], &k[2]) < 0);
    }
    sqe_batch_free(b);

    sqe_type t2[1] = {{SQE_T_DOUBLE, 0, 0, 0, 0}};
    b = sqe_batch_new(1, t2);
    double vals[5] = {0.0, -0.0, NAN, -NAN, 1.5};
    memcpy(b->cols[0]->data, vals, sizeof vals);
    sqe_key_slot k[5];
    uint8_t nl[5];
    sqe_key_load(b->cols[0], NULL, 5, k, nl);
    CHECK(sqe_key_eq(SQE_KEY_F64, &k[0], &k[1]) && sqe_key_eq(SQE_KEY_F64, &k[2], &k[3]));
    CHECK(sqe_key_cmp(SQE_KEY_F64, &k[4], &k[2]) < 0 && sqe_key_cmp(SQE_KEY_F64, &k[2], &k[4]) > 0);
    sqe_batch_free(b);
}

/* ------------------------------------------------------- operator tests */

static void test_values_filter_project_limit(void) {
    int64_t k[6] = {1, 2, 3, 4, INT64_MIN, 6};
    const char *s[6] = {"a", "b", NULL, "d", "e", "f"};
    int64_t v[6] = {10, 20, 30, 40, 50, 60};
    sqe_plan *vals = values3(6, k, s, v);
    CHECK_RUN(vals, false, "1|a|10\n2|b|20\n3|NULL|30\n4|d|40\nNULL|e|50\n6|f|60");

    sqe_plan *f = same_schema(SQE_PLAN_FILTER, vals);
    f->u.filter.pred = gt(col(0, T_BIGINT, "k"), ci(2));
    CHECK_RUN(f, false, "3|NULL|30\n4|d|40\n6|f|60");

    sqe_type pt[2] = {T_BIGINT, T_VARCHAR};
    sqe_plan *p = node(SQE_PLAN_PROJECT, f, 2, pt, NULL);
    p->u.project.exprs = sqe_arena_alloc(A, 2 * sizeof(sqe_expr *));
    p->u.project.exprs[0] = add(col(0, T_BIGINT, "k"), col(2, T_BIGINT, "v"));
    p->u.project.exprs[1] = col(1, T_VARCHAR, "s");
    CHECK_RUN(p, false, "33|NULL\n44|d\n66|f");

    sqe_plan *l = same_schema(SQE_PLAN_LIMIT, p);
    l->u.limit.has_limit = true;
    l->u.limit.limit = 1;
    l->u.limit.offset = 1;
    CHECK_RUN(l, false, "44|d");
    l->u.limit.limit = 0;
    CHECK_RUN(l, false, "");
    l->u.limit.has_limit = false;
    l->u.limit.offset = 2;
    CHECK_RUN(l, false, "66|f");

    /* A second filter over a filtered batch narrows the selection again. */
    sqe_plan *f2 = same_schema(SQE_PLAN_FILTER, f);
    f2->u.filter.pred = ne(col(0, T_BIGINT, "k"), ci(4));
    CHECK_RUN(f2, false, "3|NULL|30\n6|f|60");

    /* Errors from an expression surface unchanged. */
    sqe_plan *bad = same_schema(SQE_PLAN_FILTER, vals);
    bad->u.filter.pred =
        gt(divide(ci(1), sqe_expr_new(A, SQE_EXPR_COALESCE, T_BIGINT, 1, (sqe_expr *[]){ci(0)})),
           ci(0));
    CHECK_RUN(bad, false, "ERROR DIVISION_BY_ZERO: division by zero");
}

/* VALUES with many rows spanning several batches. */
static sqe_plan *big_values(int n, int n_keys) {
    int64_t *k = sqe_arena_alloc(A, (size_t)n * sizeof(int64_t));
    int64_t *v = sqe_arena_alloc(A, (size_t)n * sizeof(int64_t));
    const char **s = sqe_arena_alloc(A, (size_t)n * sizeof(char *));
    for (int i = 0; i < n; i++) {
        k[i] = i % 7 == 3 ? INT64_MIN : (int64_t)((i * 7919) % n_keys);
        v[i] = i;
        s[i] = i % 3 == 0 ? "short" : (i % 3 == 1 ? "a long string that is not inline" : NULL);
    }
    return values3(n, k, s, v);
}

static void test_hash_agg(void) {
    int64_t k[7] = {1, 2, 1, INT64_MIN, 2, INT64_MIN, 3};
    const char *s[7] = {"x", "y", "x", "long string value A", "y", "long string value A", NULL};
    int64_t v[7] = {1, 2, 3, 4, INT64_MIN, 6, 7};
    sqe_plan *vals = values3(7, k, s, v);
    sqe_expr *kc = col(0, T_BIGINT, "k"), *sc = col(1, T_VARCHAR, "s"), *vc = col(2, T_BIGINT, "v");
    sqe_agg_binding aggs[3] = {agg_count(true), agg_sum(), agg_count(false)};
    sqe_expr *args[3] = {NULL, vc, vc};

    /* One bigint key, NULL is its own group. */
    CHECK_RUN(agg_node(vals, 1, &kc, 3, aggs, args), true,
              "1|2|4|2\n2|2|2|1\n3|1|7|1\nNULL|2|10|2");
    /* One varchar key (inline and long strings). */
    CHECK_RUN(agg_node(vals, 1, &sc, 2, aggs, args), true,
              "NULL|1|7\nlong string value A|2|10\nx|2|4\ny|2|2");
    /* Two keys. */
    sqe_expr *two[2] = {sc, kc};
    CHECK_RUN(agg_node(vals, 2, two, 1, aggs, args), true,
              "NULL|3|1\nlong string value A|NULL|2\nx|1|2\ny|2|2");
    /* DISTINCT: groups, no aggregates. */
    CHECK_RUN(agg_node(vals, 1, &sc, 0, aggs, args), true, "NULL\nlong string value A\nx\ny");
    /* Global aggregate. */
    CHECK_RUN(agg_node(vals, 0, NULL, 3, aggs, args), false, "7|23|6");

    /* Global aggregate over empty input: exactly one row. */
    sqe_plan *none = same_schema(SQE_PLAN_FILTER, vals);
    none->u.filter.pred = gt(kc, ci(100));
    CHECK_RUN(agg_node(none, 0, NULL, 3, aggs, args), false, "0|NULL|0");
    CHECK_RUN(agg_node(none, 1, &kc, 3, aggs, args), false, "");

    /* Many groups: table growth and output in several batches. */
    sqe_plan *big = big_values(20000, 5000);
    sqe_plan *ag = agg_node(big, 1, &kc, 1, aggs, args);
    sqe_plan *cnt = agg_node(ag, 0, NULL, 1, aggs, args);
    CHECK_RUN(cnt, false, "5001");
    sqe_expr *gcol = col(0, T_BIGINT, "k");
    sqe_expr *c1 = col(1, T_BIGINT, "count");
    sqe_agg_binding sum1 = agg_sum();
    sqe_plan *total = agg_node(ag, 0, NULL, 1, &sum1, &c1);
    CHECK_RUN(total, false, "20000");
    SQE_UNUSED(gcol);

    /* Group by a computed expression (k + 1) and by a varchar over 20000 rows. */
    sqe_expr *k1 = add(kc, ci(1));
    sqe_plan *ag2 = agg_node(big, 1, &k1, 1, aggs, args);
    CHECK_RUN(agg_node(ag2, 0, NULL, 1, aggs, args), false, "5001");
    CHECK_RUN(agg_node(big, 1, &sc, 1, aggs, args), true,
              "NULL|6666\na long string that is not inline|6667\nshort|6667");

    /* States that own memory are destroyed at close. */
    sqe_agg_binding boxed = agg_boxed();
    live_boxes = 0;
    CHECK_RUN(agg_node(big, 1, &sc, 1, &boxed, args), true,
              "NULL|6666\na long string that is not inline|6667\nshort|6667");
    CHECK(live_boxes == 0);

    /* Memory limit. */
    sqe_exec_options opts = {.threads = 1, .memory_limit = 4096};
    char *got = run_opts(ag, &opts, false);
    CHECK_CONTAINS(got, "ERROR RESOURCE_EXHAUSTED: query exceeded the memory limit of 4096 bytes "
                        "in HashAggregateExec");
    sqe_free(got);
}

/* Keys of every fixed-width type: DOUBLE (-0.0 = 0.0), DECIMAL, DATE,
 * BOOLEAN, REAL, INTEGER, with NULLs; grouped and sorted. */
static void test_typed_keys(void) {
    sqe_type types[6] = {{SQE_T_DOUBLE, 0, 0, 0, 0}, sqe_type_decimal(10, 2),
                         {SQE_T_DATE, 0, 0, 0, 0},   T_BOOL,
                         {SQE_T_REAL, 0, 0, 0, 0},   {SQE_T_INTEGER, 0, 0, 0, 0}};
    const char *names[6] = {"d", "x", "dt", "b", "r", "i"};
    sqe_plan *p = node(SQE_PLAN_VALUES, NULL, 6, types, names);
    int n = 5;
    p->u.values.n_rows = n;
    p->u.values.rows = sqe_arena_alloc(A, (size_t)n * sizeof(sqe_value *));
    double ds[5] = {0.0, -0.0, 1.5, 1.5, 2.5};
    int64_t xs[5] = {150, 150, -25, 100000, 150};
    for (int i = 0; i < n; i++) {
        sqe_value *row = sqe_arena_alloc(A, 6 * sizeof(sqe_value));
        row[0] = i == 4 ? sqe_value_null(types[0]) : sqe_value_double(ds[i]);
        row[1] = sqe_value_decimal(xs[i], 10, 2);
        row[2] = i == 3 ? sqe_value_null(types[2]) : sqe_value_int(SQE_T_DATE, 19000 + (i % 2));
        row[3] = sqe_value_bool(i % 2 == 0);
        row[4] = sqe_value_null(types[4]);
        if (i != 2) {
            row[4].is_null = false;
            row[4].v.f = (float)(i % 3);
        }
        row[5] = sqe_value_int(SQE_T_INTEGER, i % 2 ? -7 : 7);
        p->u.values.rows[i] = row;
    }
    sqe_agg_binding cnt = agg_count(true);
    for (int k = 0; k < 6; k++) {
        sqe_expr *g = col(k, types[k], names[k]);
        static const char *const want[6] = {"0.0|2\n1.5|2\nNULL|1",
                                            "-0.25|1\n1.50|3\n1000.00|1",
                                            "2022-01-08|3\n2022-01-09|1\nNULL|1",
                                            "false|2\ntrue|3",
                                            "0.0|2\n1.0|2\nNULL|1",
                                            "-7|2\n7|3"};
        CHECK_RUN(agg_node(p, 1, &g, 1, &cnt, NULL), true, want[k]);
    }
    sqe_expr *all[6];
    for (int k = 0; k < 6; k++) all[k] = col(k, types[k], names[k]);
    sqe_plan *distinct = agg_node(p, 6, all, 0, NULL, NULL);
    CHECK_RUN(agg_node(distinct, 0, NULL, 1, &cnt, NULL), false, "5");
    sqe_sort_key keys[2] = {{1, true, false}, {0, false, true}};
    CHECK_RUN(sort_node(SQE_PLAN_SORT, p, 2, keys, 0, 0), false,
              "1.5|1000.00|NULL|false|0.0|-7\n"
              "NULL|1.50|2022-01-08|true|1.0|7\n"
              "0.0|1.50|2022-01-08|true|0.0|7\n"
              "-0.0|1.50|2022-01-09|false|1.0|-7\n"
              "1.5|-0.25|2022-01-08|true|NULL|7");
}

static void test_sort_topn(void) {
    int64_t k[7] = {3, 1, INT64_MIN, 2, 1, 3, INT64_MIN};
    const char *s[7] = {"c", "a", "n1", "b", "a2", "c2", "n2"};
    int64_t v[7] = {1, 2, 3, 4, 5, 6, 7};
    sqe_plan *vals = values3(7, k, s, v);
    sqe_sort_key asc = {0, false, false}, desc_nf = {0, true, true};
    CHECK_RUN(sort_node(SQE_PLAN_SORT, vals, 1, &asc, 0, 0), false,
              "1|a|2\n1|a2|5\n2|b|4\n3|c|1\n3|c2|6\nNULL|n1|3\nNULL|n2|7");
    CHECK_RUN(sort_node(SQE_PLAN_SORT, vals, 1, &desc_nf, 0, 0), false,
              "NULL|n1|3\nNULL|n2|7\n3|c|1\n3|c2|6\n2|b|4\n1|a|2\n1|a2|5");
    sqe_sort_key two[2] = {{0, false, true}, {1, true, false}};
    CHECK_RUN(sort_node(SQE_PLAN_SORT, vals, 2, two, 0, 0), false,
              "NULL|n2|7\nNULL|n1|3\n1|a2|5\n1|a|2\n2|b|4\n3|c2|6\n3|c|1");
    /* Top-N: stable like the sort, with offset. */
    CHECK_RUN(sort_node(SQE_PLAN_TOPN, vals, 1, &asc, 3, 0), false, "1|a|2\n1|a2|5\n2|b|4");
    CHECK_RUN(sort_node(SQE_PLAN_TOPN, vals, 1, &asc, 2, 3), false, "3|c|1\n3|c2|6");
    CHECK_RUN(sort_node(SQE_PLAN_TOPN, vals, 1, &desc_nf, 3, 0), false,
              "NULL|n1|3\nNULL|n2|7\n3|c|1");
    CHECK_RUN(sort_node(SQE_PLAN_TOPN, vals, 1, &asc, 0, 0), false, "");
    CHECK_RUN(sort_node(SQE_PLAN_TOPN, vals, 1, &asc, 100, 6), false, "NULL|n2|7");

    /* Large inputs: sort 20000 rows by (k, v desc); top-N against the sort. */
    sqe_plan *big = big_values(20000, 5000);
    sqe_sort_key bk[2] = {{0, false, false}, {2, true, false}};
    sqe_plan *srt = sort_node(SQE_PLAN_SORT, big, 2, bk, 0, 0);
    sqe_plan *lim = same_schema(SQE_PLAN_LIMIT, srt);
    lim->u.limit.has_limit = true;
    lim->u.limit.limit = 3000;
    lim->u.limit.offset = 17;
    char *a = run(lim, false);
    char *b = run(sort_node(SQE_PLAN_TOPN, big, 2, bk, 3000, 17), false);
    CHECK_STR(a, b);
    CHECK(strlen(a) > 1000);
    sqe_free(a);
    sqe_free(b);
    char *all = run(srt, false);
    CHECK(strlen(all) > 0 && strstr(all, "NULL|") != NULL);
    /* Ascending k, NULLs last. */
    int64_t prev = -1;
    bool sorted = true, nulls = false;
    for (char *line = all; line && *line;) {
        if (strncmp(line, "NULL", 4) == 0)
            nulls = true;
        else {
            int64_t kk = strtoll(line, NULL, 10);
            if (nulls || kk < prev) sorted = false;
            prev = kk;
        }
        char *nl = strchr(line, '\n');
        line = nl ? nl + 1 : NULL;
    }
    CHECK(sorted);
    sqe_free(all);

    sqe_exec_options opts = {.threads = 1, .memory_limit = 10000};
    char *got = run_opts(srt, &opts, false);
    CHECK_STR(
        got,
        "ERROR RESOURCE_EXHAUSTED: query exceeded the memory limit of 10000 bytes in SortExec");
    sqe_free(got);
}

static void test_explain(void) {
    int64_t k[1] = {1};
    const char *s[1] = {"a"};
    int64_t v[1] = {1};
    sqe_plan *vals = values3(1, k, s, v);
    sqe_plan *f = same_schema(SQE_PLAN_FILTER, vals);
    f->u.filter.pred = gt(col(0, T_BIGINT, "k"), ci(0));
    sqe_expr *kc = col(0, T_BIGINT, "k"), *vc = col(2, T_BIGINT, "v");
    sqe_agg_binding aggs[2] = {agg_count(true), agg_sum()};
    sqe_expr *args[2] = {NULL, vc};
    sqe_plan *ag = agg_node(f, 1, &kc, 2, aggs, args);
    sqe_sort_key key = {1, true, false};
    sqe_plan *tn = sort_node(SQE_PLAN_TOPN, ag, 1, &key, 10, 0);
    sqe_plan *l = same_schema(SQE_PLAN_LIMIT, tn);
    l->u.limit.has_limit = true;
    l->u.limit.limit = 5;
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    sqe_exec_explain(l, &sb);
    CHECK_STR(sb.data, "LimitExec: limit=5 offset=0\n"
                       "  TopNExec: limit=10 offset=0 keys=[count DESC NULLS LAST]\n"
                       "    HashAggregateExec: groups=[k], aggs=[count(*), sum(v)]\n"
                       "      FilterExec: (k > 0)\n"
                       "        ValuesExec: rows=1\n");
    sqe_strbuf_free(&sb);
}

/* ------------------------------------------------------------ scan tests */

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

static const char *STATUS[3] = {"PAID", "SHIPPED", "PENDING"};

/* Writes orders(id bigint, cust bigint, status string) partitioned by dt:
 * 6 partitions (one __HIVE_DEFAULT_PARTITION__) x 3 files x 1500 rows. */
static void write_orders(void) {
    int64_t id = 1;
    for (int p = 0; p < 6; p++) {
        for (int f = 0; f < 3; f++) {
            sqe_strbuf sb;
            sqe_strbuf_init(&sb);
            for (int r = 0; r < 1500; r++, id++)
                sqe_strbuf_printf(&sb, "%lld,%lld,%s\n", (long long)id, (long long)(id * 31 % 997),
                                  STATUS[id % 3]);
            char rel[128];
            if (p == 5)
                snprintf(rel, sizeof rel, "orders/dt=__HIVE_DEFAULT_PARTITION__/part-%d.csv", f);
            else
                snprintf(rel, sizeof rel, "orders/dt=2024-01-0%d/part-%d.csv", p + 1, f);
            write_file(rel, sb.data);
            sqe_strbuf_free(&sb);
        }
    }
    write_file("orders/dt=2024-01-01/_SUCCESS", "");
}

static sqe_hive_table *make_table(sqe_hive_catalog *cat, const char *name, const char *loc) {
    sqe_error err;
    sqe_error_clear(&err);
    char *sql = sqe_asprintf(
        "CREATE EXTERNAL TABLE lake.default.%s (id BIGINT, cust BIGINT, status STRING) "
        "PARTITIONED BY (dt STRING) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' "
        "STORED AS TEXTFILE LOCATION '%s/%s'",
        name, tmpdir, loc);
    sqe_ast_stmt *st = sqe_sql_parse(A, sql, &err);
    sqe_free(sql);
    CHECK(st != NULL);
    if (!st) {
        fprintf(stderr, "parse: %s\n", err.msg);
        return NULL;
    }
    const char *status = NULL;
    sqe_resultset *rs = NULL;
    sqe_strbuf notices;
    sqe_strbuf_init(&notices);
    bool ok = sqe_hive_execute(cat, st, &rs, &status, &notices, &err);
    CHECK(ok);
    if (!ok) fprintf(stderr, "create: %s\n", err.msg);
    sqe_strbuf_free(&notices);
    sqe_resultset_free(rs);
    const char *parts[3] = {"lake", "default", name};
    sqe_hive_table *t = sqe_hive_resolve_table(cat, 3, parts, &err);
    CHECK(t != NULL);
    if (!t) fprintf(stderr, "resolve: %s\n", err.msg);
    return t;
}

/* A scan of table columns cols[0..n) (0 id, 1 cust, 2 status, 3 dt). */
static sqe_plan *scan_node(sqe_hive_table *t, int n, const int *cols) {
    sqe_type types[4] = {0};
    const char *names[4] = {0};
    const char *all[4] = {"id", "cust", "status", "dt"};
    sqe_type at[4] = {T_BIGINT, T_BIGINT, T_VARCHAR, T_VARCHAR};
    for (int i = 0; i < n; i++) {
        types[i] = at[cols[i]];
        names[i] = all[cols[i]];
    }
    sqe_plan *p = node(SQE_PLAN_SCAN, NULL, n, types, names);
    p->u.scan.table = t;
    p->u.scan.table_name = "lake.default.orders";
    p->u.scan.n_cols = n;
    p->u.scan.cols = sqe_arena_alloc(A, (size_t)(n + 1) * sizeof(int));
    if (n) memcpy(p->u.scan.cols, cols, (size_t)n * sizeof(int));
    return p;
}

static void check_both(const sqe_plan *p, sqe_threadpool *pool, bool sorted, const char *want) {
    char *serial = run(p, sorted);
    sqe_exec_options opts = {.threads = 4, .pool = pool, .parallel_min_bytes = 1};
    char *par = run_opts(p, &opts, sorted);
    /* partitions listed 16 at a time on threads of their own (SPEC §9.2):
     * the same rows in the same order */
    sqe_exec_options lopts = {
        .threads = 4, .pool = pool, .parallel_min_bytes = 1, .list_in_flight = 16};
    char *lpar = run_opts(p, &lopts, sorted);
    if (want) CHECK_STR(serial, want);
    CHECK_STR(par, serial);
    CHECK_STR(lpar, serial);
    sqe_free(lpar);
    sqe_free(serial);
    sqe_free(par);
}

static void test_scan(void) {
    char tmpl[] = "/tmp/sqe_test_exec_XXXXXX";
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
    sqe_hive_table *t = make_table(cat, "orders", "orders/");
    if (!t) {
        sqe_hive_catalog_free(cat);
        return;
    }
    sqe_threadpool *pool = sqe_threadpool_new(3);
    t_parallel_min = 0; /* parallel even on this small table */
    sqe_agg_binding aggs[2] = {agg_count(true), agg_sum()};

    /* count(*) with no columns read. */
    sqe_plan *s0 = scan_node(t, 0, NULL);
    check_both(agg_node(s0, 0, NULL, 1, aggs, NULL), pool, false, "27000");

    /* All columns, partition values included (NULL for the default partition). */
    int cols4[4] = {0, 1, 2, 3};
    sqe_plan *s4 = scan_node(t, 4, cols4);
    sqe_plan *lim = same_schema(SQE_PLAN_LIMIT, s4);
    lim->u.limit.has_limit = true;
    lim->u.limit.limit = 2;
    CHECK_RUN(lim, false, "1|31|SHIPPED|2024-01-01\n2|62|PENDING|2024-01-01");
    sqe_expr *dt = col(3, T_VARCHAR, "dt"), *st = col(2, T_VARCHAR, "status"),
             *idc = col(0, T_BIGINT, "id");
    sqe_expr *args[2] = {NULL, idc};
    check_both(agg_node(s4, 1, &dt, 2, aggs, args), pool, true,
               "2024-01-01|4500|10127250\n2024-01-02|4500|30377250\n2024-01-03|4500|50627250\n"
               "2024-01-04|4500|70877250\n2024-01-05|4500|91127250\nNULL|4500|111377250");
    check_both(agg_node(s4, 1, &st, 2, aggs, args), pool, true,
               "PAID|9000|121513500\nPENDING|9000|121504500\nSHIPPED|9000|121495500");
    sqe_expr *cust = col(1, T_BIGINT, "cust");
    sqe_plan *by_cust = agg_node(s4, 1, &cust, 2, aggs, args);
    check_both(agg_node(by_cust, 0, NULL, 1, aggs, NULL), pool, false, "997");

    /* Partition filter (dt IN (...) over the key batch) and row filter. */
    int cols2[2] = {0, 3};
    sqe_plan *sf = scan_node(t, 2, cols2);
    sqe_value pv[2] = {sqe_value_string("2024-01-02", 10), sqe_value_string("2024-01-04", 10)};
    sf->u.scan.partition_filter = in_list(col(0, T_VARCHAR, "dt"), 2, pv, false);
    sf->u.scan.filter = gt(col(0, T_BIGINT, "id"), ci(6000));
    sqe_expr *dt2 = col(1, T_VARCHAR, "dt");
    check_both(agg_node(sf, 1, &dt2, 2, aggs, args), pool, true,
               "2024-01-02|3000|22501500\n2024-01-04|4500|70877250");

    /* Filter + project pipeline under the aggregate, in parallel. */
    sqe_plan *fl = same_schema(SQE_PLAN_FILTER, s4);
    fl->u.filter.pred = ne(col(1, T_BIGINT, "cust"), ci(0));
    sqe_type pt[2] = {T_BIGINT, T_VARCHAR};
    sqe_plan *pr = node(SQE_PLAN_PROJECT, fl, 2, pt, NULL);
    pr->u.project.exprs = sqe_arena_alloc(A, 2 * sizeof(sqe_expr *));
    pr->u.project.exprs[0] = add(col(0, T_BIGINT, "id"), ci(1));
    pr->u.project.exprs[1] = col(2, T_VARCHAR, "status");
    sqe_expr *pc = col(1, T_VARCHAR, "status"), *pid = col(0, T_BIGINT, "id1");
    sqe_expr *args2[2] = {NULL, pid};
    check_both(agg_node(pr, 1, &pc, 2, aggs, args2), pool, true, NULL);

    /* Sort and top-N over a parallel scan. */
    sqe_sort_key desc = {0, true, false};
    check_both(sort_node(SQE_PLAN_TOPN, s4, 1, &desc, 3, 1), pool, false,
               "26999|486|PENDING|NULL\n26998|455|SHIPPED|NULL\n26997|424|PAID|NULL");
    sqe_plan *srt = sort_node(SQE_PLAN_SORT, s4, 1, &desc, 0, 0);
    sqe_plan *lim2 = same_schema(SQE_PLAN_LIMIT, srt);
    lim2->u.limit.has_limit = true;
    lim2->u.limit.limit = 2;
    lim2->u.limit.offset = 26997;
    check_both(lim2, pool, false, "3|93|PAID|2024-01-01\n2|62|PENDING|2024-01-01");

    /* Ties on the ORDER BY keys keep input order, with one thread or many. */
    sqe_sort_key by_status = {2, false, false};
    check_both(sort_node(SQE_PLAN_SORT, s4, 1, &by_status, 0, 0), pool, false, NULL);
    check_both(sort_node(SQE_PLAN_TOPN, s4, 1, &by_status, 4, 8998), pool, false,
               "26997|424|PAID|NULL\n27000|517|PAID|NULL\n2|62|PENDING|2024-01-01\n5|155|PENDING|"
               "2024-01-01");

    /* EXPLAIN of a scan. */
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    sqe_exec_explain(sf, &sb);
    CHECK_STR(sb.data,
              "HiveScanExec: table=lake.default.orders, format=TEXTFILE, columns=[id, dt], "
              "partition_filter=(dt IN ('2024-01-02', '2024-01-04')), filter=(id > 6000)\n");
    sqe_strbuf_free(&sb);

    /* The default partition is NULL for partition filters too. */
    sqe_plan *sn = scan_node(t, 2, cols2);
    sqe_expr *pk = col(0, T_VARCHAR, "dt");
    sn->u.scan.partition_filter = sqe_expr_new(A, SQE_EXPR_IS_NULL, T_BOOL, 1, &pk);
    check_both(agg_node(sn, 1, &dt2, 2, aggs, args), pool, true, "NULL|4500|111377250");

    /* A partition filter that keeps nothing reads nothing. */
    sqe_plan *se = scan_node(t, 2, cols2);
    se->u.scan.partition_filter =
        in_list(col(0, T_VARCHAR, "dt"), 1, (sqe_value[]){sqe_value_string("x", 1)}, false);
    check_both(agg_node(se, 0, NULL, 1, aggs, NULL), pool, false, "0");

    /* A bad value fails the statement with the reader's error, also when
     * read on a worker thread. */
    write_file("bad/dt=2024-01-01/part-0.csv", "1,2,PAID\n");
    write_file("bad/dt=2024-01-02/part-0.csv", "3,4,PAID\n");
    write_file("bad/dt=2024-01-02/part-1.csv", "5,oops,PAID\n");
    write_file("bad/dt=2024-01-03/part-0.csv", "6,7,PAID\n");
    sqe_hive_table *tb = make_table(cat, "bad", "bad/");
    if (tb) {
        sqe_plan *sb4 = scan_node(tb, 4, cols4);
        sqe_plan *ab = agg_node(sb4, 1, &st, 2, aggs, args);
        char *serial = run(ab, false);
        sqe_exec_options opts = {.threads = 4, .pool = pool, .parallel_min_bytes = 1};
        char *par = run_opts(ab, &opts, false);
        CHECK_CONTAINS(serial, "ERROR INVALID_DATA");
        CHECK_CONTAINS(serial, "part-1.csv");
        CHECK_CONTAINS(serial, "oops");
        CHECK_STR(par, serial);
        sqe_free(serial);
        sqe_free(par);

        /* In a file read in byte ranges the error names the byte offset. */
        uint64_t saved_split = t_split;
        t_split = 4;
        serial = run(ab, false);
        par = run_opts(ab, &opts, false);
        CHECK_CONTAINS(serial, "cannot parse 'oops' as bigint in file '");
        CHECK_CONTAINS(serial, "part-1.csv' at byte offset 0, column 'cust' (field 2)");
        CHECK_STR(par, serial);
        sqe_free(serial);
        sqe_free(par);
        t_split = saved_split;
        sqe_hive_table_free(tb);
    }

    /* Streaming plans (no blocking operator) run as pipeline copies too: same
     * rows as serially (order aside). */
    check_both(s4, pool, true, NULL);
    check_both(pr, pool, true, NULL);
    check_both(sf, pool, true, NULL);
    {
        sqe_exec_options opts = {.threads = 4, .pool = pool, .parallel_min_bytes = 1};
        /* LIMIT without ORDER BY: any `limit` rows; OFFSET skips rows. */
        sqe_plan *lp = same_schema(SQE_PLAN_LIMIT, pr);
        lp->u.limit.has_limit = true;
        lp->u.limit.limit = 5000;
        lp->u.limit.offset = 3000;
        sqe_resultset *rs = NULL;
        sqe_error lerr;
        sqe_error_clear(&lerr);
        CHECK(sqe_exec_run(lp, &opts, &rs, &lerr));
        CHECK(rs && rs->n_rows == 5000);
        if (rs) /* batches stay full except the last */
            for (size_t i = 0; i + 1 < rs->batches.len; i++)
                CHECK(rs->batches.items[i]->n_rows == SQE_BATCH_ROWS);
        sqe_resultset_free(rs);
        lp->u.limit.offset = 26963; /* 26973 rows (cust != 0): fewer than the limit remain */
        CHECK(sqe_exec_run(lp, &opts, &rs, &lerr));
        CHECK(rs && rs->n_rows == 10);
        sqe_resultset_free(rs);
        lp->u.limit.has_limit = false; /* OFFSET alone */
        lp->u.limit.offset = 7;
        CHECK(sqe_exec_run(lp, &opts, &rs, &lerr));
        CHECK(rs && rs->n_rows == 26973 - 7);
        sqe_resultset_free(rs);
        /* Below t_parallel_min the serial order is kept. */
        t_parallel_min = (uint64_t)1 << 40;
        lp->u.limit.has_limit = true;
        lp->u.limit.limit = 3;
        lp->u.limit.offset = 1;
        char *ser = run(lp, false);
        char *par = run_opts(lp, &opts, false);
        CHECK_STR(ser, "3|PENDING\n4|PAID\n5|SHIPPED");
        CHECK_STR(par, ser);
        sqe_free(ser);
        sqe_free(par);
        t_parallel_min = 0;
    }

    /* Byte-range splitting: files cut in ranges of many sizes (lines
     * straddling every boundary) give the unsplit answers, serially and in
     * parallel. */
    {
        uint64_t saved_split = t_split;
        t_split = 0;
        sqe_plan *agg = agg_node(s4, 1, &dt, 2, aggs, args);
        sqe_plan *tot = agg_node(s0, 0, NULL, 1, aggs, NULL);
        char *ref_agg = run(agg, true), *ref_rows = run(pr, true);
        uint64_t sizes[] = {1, 13, 1000, 4096, 20000};
        for (size_t i = 0; i < SQE_ARRAY_LEN(sizes); i++) {
            t_split = sizes[i];
            check_both(agg, pool, true, ref_agg);
            check_both(tot, pool, false, "27000");
            check_both(pr, pool, true, ref_rows);
        }
        /* ties keep input order through split morsels (order tags) */
        t_split = 0;
        char *ref_sort = run(sort_node(SQE_PLAN_SORT, s4, 1, &by_status, 0, 0), false);
        t_split = 1000;
        check_both(sort_node(SQE_PLAN_SORT, s4, 1, &by_status, 0, 0), pool, false, ref_sort);
        sqe_free(ref_sort);
        sqe_free(ref_agg);
        sqe_free(ref_rows);
        t_split = saved_split;
    }

    sqe_threadpool_free(pool);
    sqe_hive_table_free(t);
    sqe_hive_catalog_free(cat);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    CHECK(system(cmd) == 0);
}

int main(void) {
    A = sqe_arena_new(0);
    RUN(test_three_valued);
    RUN(test_lazy);
    RUN(test_in);
    RUN(test_const_and_text);
    RUN(test_expr_memory);
    RUN(test_keys);
    RUN(test_values_filter_project_limit);
    RUN(test_hash_agg);
    RUN(test_typed_keys);
    RUN(test_sort_topn);
    RUN(test_explain);
    RUN(test_scan);
    sqe_arena_free(A);
    return unit_report();
}
