/*
 * test_exec_join.c - HashJoinExec and NestedLoopJoinExec, driven by plans
 * built by hand (VALUES inputs, hand-made kernels and aggregates, as in
 * test_exec.c): every join type with NULL keys, duplicates on both sides
 * and empty sides; residuals; several keys; string, decimal and double keys
 * (-0.0 = 0.0, NaN = NaN); null-aware IN / NOT IN truth tables (with and
 * without correlation keys and residuals); the scalar-subquery check;
 * outputs spanning many batches; the memory limit; parallel probes (and
 * builds) over a partitioned CSV table compared with the serial answer,
 * RIGHT/FULL included; and builds of 2^20..2^24 rows.
 */
#include "exec/exec_int.h"
#include "sql/sql.h"
#include "unit.h"

#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

static sqe_arena *A;

static const sqe_type T_BIGINT = {SQE_T_BIGINT, 0, 0, 0, 0};
static const sqe_type T_BOOL = {SQE_T_BOOLEAN, 0, 0, 0, 0};
static const sqe_type T_VARCHAR = {SQE_T_VARCHAR, 0, 0, 0, 0};
static const sqe_type T_DOUBLE = {SQE_T_DOUBLE, 0, 0, 0, 0};
#define NUL INT64_MIN /* a NULL in the int64 tables below */

/* ------------------------------------------------------ hand-made kernels */

static bool valid(const sqe_vector *v, uint32_t r) {
    return !sqe_vector_is_null(v, r);
}

#define FOR_SEL(i, r) for (uint32_t i = 0, r = 0; i < n && ((r = sel ? sel[i] : i), 1); i++)

#define ARITH_KERNEL(name, EXPR)                                                                   \
    static bool name(const sqe_func_binding *b, sqe_vector *const *args, const uint16_t *sel,      \
                     uint32_t n, sqe_vector *out, sqe_error *err) {                                \
        FOR_SEL(i, r) {                                                                            \
            if (!valid(args[0], r) || !valid(args[1], r)) {                                        \
                sqe_vector_set_null(out, r);                                                       \
                continue;                                                                          \
            }                                                                                      \
            int64_t x = SQE_VEC_DATA(args[0], int64_t)[r], y = SQE_VEC_DATA(args[1], int64_t)[r];  \
            if (!(EXPR(x, y, err))) return false;                                                  \
            SQE_VEC_DATA(out, int64_t)[r] = EXPR##_VAL(x, y);                                      \
        }                                                                                          \
        return true;                                                                               \
    }
#define OK_ALWAYS(x, y, err) true
#define ADD_VAL(x, y) ((x) + (y))
#define MUL_VAL(x, y) ((x) * (y))
#define MOD_VAL(x, y) ((x) % (y))
#define DIV_VAL(x, y) ((x) / (y))
#define ADD(x, y, err) OK_ALWAYS(x, y, err)
#define MUL(x, y, err) OK_ALWAYS(x, y, err)
#define MOD(x, y, err) OK_ALWAYS(x, y, err)
#define DIV(x, y, err)                                                                             \
    ((y) != 0 || sqe_error_set(err, SQE_ERR_DIVISION_BY_ZERO, "division by zero"))
ARITH_KERNEL(k_add, ADD)
ARITH_KERNEL(k_mul, MUL)
ARITH_KERNEL(k_mod, MOD)
ARITH_KERNEL(k_div, DIV)

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
CMP_KERNEL(k_eq, ==)
CMP_KERNEL(k_lt, <)
CMP_KERNEL(k_ne, !=)

static sqe_expr *col(int c, sqe_type t, const char *name) {
    return sqe_expr_column(A, c, t, name);
}
static sqe_expr *bcol(int c) {
    return col(c, T_BIGINT, sqe_arena_sprintf(A, "c%d", c));
}
static sqe_expr *ci(int64_t v) {
    sqe_value x = sqe_value_int(SQE_T_BIGINT, v);
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
static sqe_expr *lt(sqe_expr *a, sqe_expr *b) {
    return call2("<", k_lt, T_BOOL, a, b);
}
static sqe_expr *ne(sqe_expr *a, sqe_expr *b) {
    return call2("<>", k_ne, T_BOOL, a, b);
}
static sqe_expr *eq(sqe_expr *a, sqe_expr *b) {
    return call2("=", k_eq, T_BOOL, a, b);
}
static sqe_expr *and3(sqe_expr *a, sqe_expr *b, sqe_expr *c) {
    sqe_expr *args[3] = {a, b, c};
    return sqe_expr_new(A, SQE_EXPR_AND, T_BOOL, c ? 3 : 2, args);
}
static sqe_expr *add(sqe_expr *a, sqe_expr *b) {
    return call2("+", k_add, T_BIGINT, a, b);
}
static sqe_expr *mul(sqe_expr *a, sqe_expr *b) {
    return call2("*", k_mul, T_BIGINT, a, b);
}
static sqe_expr *mod(sqe_expr *a, sqe_expr *b) {
    return call2("%", k_mod, T_BIGINT, a, b);
}
static sqe_expr *divide(sqe_expr *a, sqe_expr *b) {
    return call2("/", k_div, T_BIGINT, a, b);
}
static sqe_expr *is_null(sqe_expr *a, bool negated) {
    sqe_expr *e = sqe_expr_new(A, SQE_EXPR_IS_NULL, T_BOOL, 1, &a);
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
static bool sum_update(const sqe_agg_binding *b, void *const *states, const sqe_vector *arg,
                       const uint16_t *sel, uint32_t n, sqe_error *err) {
    for (uint32_t i = 0; i < n; i++) {
        uint32_t r = sel ? sel[i] : i;
        if (valid(arg, r)) *(int64_t *)states[i] += SQE_VEC_DATA(arg, int64_t)[r];
    }
    return true;
}
static sqe_agg_binding agg_count(void) {
    sqe_agg_binding b = {0};
    b.name = "count";
    b.star = true;
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
    sqe_agg_binding b = agg_count();
    b.name = "sum";
    b.star = false;
    b.update = sum_update;
    return b;
}

/* ------------------------------------------------------------ plan helpers */

static sqe_plan *node(sqe_plan_kind kind, int n_children, int n_out, const sqe_type *types,
                      const char *const *names) {
    sqe_plan *p = sqe_arena_alloc(A, sizeof *p);
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->n_children = n_children;
    p->children = sqe_arena_alloc(A, 2 * sizeof(sqe_plan *));
    p->n_out = n_out;
    p->out_types = sqe_arena_alloc(A, (size_t)(n_out + 1) * sizeof(sqe_type));
    p->out_names = sqe_arena_alloc(A, (size_t)(n_out + 1) * sizeof(char *));
    for (int i = 0; i < n_out; i++) {
        p->out_types[i] = types[i];
        p->out_names[i] = names ? names[i] : sqe_arena_sprintf(A, "c%d", i);
    }
    p->est_rows = -1;
    return p;
}

/* VALUES of n_cols BIGINT columns, row-major data, NUL = NULL. */
static sqe_plan *ivalues(int n_rows, int n_cols, const int64_t *data) {
    sqe_type types[8];
    for (int c = 0; c < n_cols; c++) types[c] = T_BIGINT;
    sqe_plan *p = node(SQE_PLAN_VALUES, 0, n_cols, types, NULL);
    p->u.values.n_rows = n_rows;
    p->u.values.rows = sqe_arena_alloc(A, (size_t)(n_rows + 1) * sizeof(sqe_value *));
    for (int r = 0; r < n_rows; r++) {
        sqe_value *row = sqe_arena_alloc(A, (size_t)n_cols * sizeof(sqe_value));
        for (int c = 0; c < n_cols; c++) {
            int64_t x = data[(size_t)r * n_cols + c];
            row[c] = x == NUL ? sqe_value_null(T_BIGINT) : sqe_value_int(SQE_T_BIGINT, x);
        }
        p->u.values.rows[r] = row;
    }
    return p;
}

/* VALUES (k bigint, s varchar, v bigint); strs[i] NULL = NULL. */
static sqe_plan *values3(int n, const int64_t *keys, const char *const *strs, const int64_t *vals) {
    sqe_type types[3] = {T_BIGINT, T_VARCHAR, T_BIGINT};
    const char *names[3] = {"k", "s", "v"};
    sqe_plan *p = node(SQE_PLAN_VALUES, 0, 3, types, names);
    p->u.values.n_rows = n;
    p->u.values.rows = sqe_arena_alloc(A, (size_t)(n + 1) * sizeof(sqe_value *));
    for (int i = 0; i < n; i++) {
        sqe_value *row = sqe_arena_alloc(A, 3 * sizeof(sqe_value));
        row[0] = keys[i] == NUL ? sqe_value_null(T_BIGINT) : sqe_value_int(SQE_T_BIGINT, keys[i]);
        row[1] = strs[i] ? sqe_value_string(sqe_arena_strdup(A, strs[i]), (uint32_t)strlen(strs[i]))
                         : sqe_value_null(T_VARCHAR);
        row[2] = vals[i] == NUL ? sqe_value_null(T_BIGINT) : sqe_value_int(SQE_T_BIGINT, vals[i]);
        p->u.values.rows[i] = row;
    }
    return p;
}

/* VALUES with one column of `type` from values vals[0..n) (already typed). */
static sqe_plan *values1(sqe_type type, int n, const sqe_value *vals) {
    sqe_plan *p = node(SQE_PLAN_VALUES, 0, 1, &type, NULL);
    p->u.values.n_rows = n;
    p->u.values.rows = sqe_arena_alloc(A, (size_t)(n + 1) * sizeof(sqe_value *));
    for (int i = 0; i < n; i++) {
        sqe_value *row = sqe_arena_alloc(A, sizeof(sqe_value));
        row[0] = vals[i];
        p->u.values.rows[i] = row;
    }
    return p;
}

static sqe_plan *join(sqe_plan_kind kind, sqe_join_type jt, sqe_plan *l, sqe_plan *r, int n_keys,
                      sqe_expr **lk, sqe_expr **rk, sqe_expr *residual) {
    sqe_type types[32];
    const char *names[32];
    int n = 0;
    for (int c = 0; c < l->n_out; c++, n++) {
        types[n] = l->out_types[c];
        names[n] = l->out_names[c];
    }
    if (jt == SQE_JT_MARK) {
        types[n] = T_BOOL;
        names[n++] = "mark";
    } else if (jt != SQE_JT_SEMI && jt != SQE_JT_ANTI) {
        for (int c = 0; c < r->n_out; c++, n++) {
            types[n] = r->out_types[c];
            names[n] = r->out_names[c];
        }
    }
    sqe_plan *p = node(kind, 2, n, types, names);
    p->children[0] = l;
    p->children[1] = r;
    p->u.join.type = jt;
    p->u.join.n_keys = n_keys;
    p->u.join.left_keys = sqe_arena_alloc(A, (size_t)(n_keys + 1) * sizeof(sqe_expr *));
    p->u.join.right_keys = sqe_arena_alloc(A, (size_t)(n_keys + 1) * sizeof(sqe_expr *));
    for (int k = 0; k < n_keys; k++) {
        p->u.join.left_keys[k] = lk[k];
        p->u.join.right_keys[k] = rk[k];
    }
    p->u.join.residual = residual;
    return p;
}

static sqe_plan *hj1(sqe_join_type jt, sqe_plan *l, sqe_plan *r, int lcol, int rcol,
                     sqe_expr *res) {
    sqe_expr *lk = col(lcol, l->out_types[lcol], l->out_names[lcol]);
    sqe_expr *rk = col(rcol, r->out_types[rcol], r->out_names[rcol]);
    return join(SQE_PLAN_HASH_JOIN, jt, l, r, 1, &lk, &rk, res);
}

static sqe_plan *nlj(sqe_join_type jt, sqe_plan *l, sqe_plan *r, sqe_expr *res) {
    return join(SQE_PLAN_NL_JOIN, jt, l, r, 0, NULL, NULL, res);
}

/* count(*) [, sum(args...)] over p. */
static sqe_plan *agg(sqe_plan *child, int n_sums, const int *sum_cols) {
    sqe_type types[8];
    const char *names[8];
    types[0] = T_BIGINT;
    names[0] = "count";
    for (int i = 0; i < n_sums; i++) {
        types[1 + i] = T_BIGINT;
        names[1 + i] = "sum";
    }
    sqe_plan *p = node(SQE_PLAN_AGGREGATE, 1, 1 + n_sums, types, names);
    p->children[0] = child;
    p->u.aggregate.n_aggs = 1 + n_sums;
    p->u.aggregate.aggs = sqe_arena_alloc(A, (size_t)(1 + n_sums) * sizeof(sqe_agg_binding));
    p->u.aggregate.agg_args = sqe_arena_alloc(A, (size_t)(1 + n_sums) * sizeof(sqe_expr *));
    p->u.aggregate.aggs[0] = agg_count();
    p->u.aggregate.agg_args[0] = NULL;
    for (int i = 0; i < n_sums; i++) {
        p->u.aggregate.aggs[1 + i] = agg_sum();
        p->u.aggregate.agg_args[1 + i] = bcol(sum_cols[i]);
    }
    return p;
}

static sqe_plan *count_of(sqe_plan *child) {
    return agg(child, 0, NULL);
}

static sqe_plan *project(sqe_plan *child, int n, sqe_expr **exprs) {
    sqe_type types[8];
    for (int i = 0; i < n; i++) types[i] = exprs[i]->type;
    sqe_plan *p = node(SQE_PLAN_PROJECT, 1, n, types, NULL);
    p->children[0] = child;
    p->u.project.exprs = sqe_arena_alloc(A, (size_t)n * sizeof(sqe_expr *));
    memcpy(p->u.project.exprs, exprs, (size_t)n * sizeof(sqe_expr *));
    return p;
}

static int cmp_lines(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static uint64_t t_parallel_min = (uint64_t)4 << 20;

/* Runs a plan; returns its rows as "a|b\nc|d" (sorted when asked), or the
 * error as "ERROR <class>: <msg>". malloc'd. */
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
    if (!sqe_exec_run(p, &o, &rs, &err))
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

#define CHECK_RUN(plan, want)                                                                      \
    do {                                                                                           \
        char *got_ = run(plan, true);                                                              \
        CHECK_STR(got_, want);                                                                     \
        sqe_free(got_);                                                                            \
    } while (0)

/* ------------------------------------------------------------ basic joins */

/* L(k, s, v) and R(k, s, v): NULL keys and duplicates on both sides. */
static sqe_plan *L6, *R6;
static void make_lr(void) {
    int64_t lk[6] = {1, 2, 2, NUL, 3, 5};
    const char *ls[6] = {"a", "b", "bb", "n", "c", "e"};
    int64_t lv[6] = {10, 20, 21, 30, 40, 50};
    int64_t rk[6] = {2, 2, 3, NUL, 4, 1};
    const char *rs[6] = {"x", "y", "z", "nn", "w", "a long build string value"};
    int64_t rv[6] = {100, 101, 102, 103, 104, 105};
    L6 = values3(6, lk, ls, lv);
    R6 = values3(6, rk, rs, rv);
}

static const char *INNER_6 = "1|a|10|1|a long build string value|105\n"
                             "2|bb|21|2|x|100\n2|bb|21|2|y|101\n2|b|20|2|x|100\n2|b|20|2|y|101\n"
                             "3|c|40|3|z|102";

static void test_types_on_keys(void) {
    CHECK_RUN(hj1(SQE_JT_INNER, L6, R6, 0, 0, NULL), INNER_6);
    char *want = sqe_asprintf("%s\n5|e|50|NULL|NULL|NULL\nNULL|n|30|NULL|NULL|NULL", INNER_6);
    CHECK_RUN(hj1(SQE_JT_LEFT, L6, R6, 0, 0, NULL), want);
    sqe_free(want);
    want = sqe_asprintf("%s\nNULL|NULL|NULL|4|w|104\nNULL|NULL|NULL|NULL|nn|103", INNER_6);
    CHECK_RUN(hj1(SQE_JT_RIGHT, L6, R6, 0, 0, NULL), want);
    sqe_free(want);
    want = sqe_asprintf(
        "%s\n5|e|50|NULL|NULL|NULL\nNULL|NULL|NULL|4|w|104\nNULL|NULL|NULL|NULL|nn|103\n"
        "NULL|n|30|NULL|NULL|NULL",
        INNER_6);
    CHECK_RUN(hj1(SQE_JT_FULL, L6, R6, 0, 0, NULL), want);
    sqe_free(want);
    CHECK_RUN(hj1(SQE_JT_SEMI, L6, R6, 0, 0, NULL), "1|a|10\n2|bb|21\n2|b|20\n3|c|40");
    CHECK_RUN(hj1(SQE_JT_ANTI, L6, R6, 0, 0, NULL), "5|e|50\nNULL|n|30");
    CHECK_RUN(hj1(SQE_JT_MARK, L6, R6, 0, 0, NULL),
              "1|a|10|true\n2|bb|21|true\n2|b|20|true\n3|c|40|true\n5|e|50|false\nNULL|n|30|false");

    /* The build side's columns come out of the row store; swapping the
     * sides gives the mirrored answer. */
    CHECK_RUN(hj1(SQE_JT_SEMI, R6, L6, 0, 0, NULL),
              "1|a long build string value|105\n2|x|100\n2|y|101\n3|z|102");
    CHECK_RUN(hj1(SQE_JT_ANTI, R6, L6, 0, 0, NULL), "4|w|104\nNULL|nn|103");

    /* A string key: "a" matches only "a". */
    CHECK_RUN(hj1(SQE_JT_INNER, L6, R6, 1, 1, NULL), "");
    CHECK_RUN(hj1(SQE_JT_INNER, L6, L6, 1, 1, NULL),
              "1|a|10|1|a|10\n2|bb|21|2|bb|21\n2|b|20|2|b|20\n3|c|40|3|c|40\n5|e|50|5|e|50\n"
              "NULL|n|30|NULL|n|30");
}

/* A residual over (L columns, R columns): v + v' > 121. */
static void test_residual(void) {
    sqe_expr *res = gt(add(bcol(2), bcol(5)), ci(121));
    const char *inner = "2|bb|21|2|y|101\n3|c|40|3|z|102";
    CHECK_RUN(hj1(SQE_JT_INNER, L6, R6, 0, 0, res), inner);
    CHECK_RUN(hj1(SQE_JT_LEFT, L6, R6, 0, 0, res),
              "1|a|10|NULL|NULL|NULL\n2|bb|21|2|y|101\n2|b|20|NULL|NULL|NULL\n3|c|40|3|z|102\n"
              "5|e|50|NULL|NULL|NULL\nNULL|n|30|NULL|NULL|NULL");
    CHECK_RUN(hj1(SQE_JT_RIGHT, L6, R6, 0, 0, res),
              "2|bb|21|2|y|101\n3|c|40|3|z|102\nNULL|NULL|NULL|1|a long build string value|105\n"
              "NULL|NULL|NULL|2|x|100\nNULL|NULL|NULL|4|w|104\nNULL|NULL|NULL|NULL|nn|103");
    CHECK_RUN(hj1(SQE_JT_FULL, L6, R6, 0, 0, res),
              "1|a|10|NULL|NULL|NULL\n2|bb|21|2|y|101\n2|b|20|NULL|NULL|NULL\n3|c|40|3|z|102\n"
              "5|e|50|NULL|NULL|NULL\nNULL|NULL|NULL|1|a long build string value|105\n"
              "NULL|NULL|NULL|2|x|100\nNULL|NULL|NULL|4|w|104\nNULL|NULL|NULL|NULL|nn|103\n"
              "NULL|n|30|NULL|NULL|NULL");
    /* SEMI/ANTI/MARK see only the probe columns but the residual reads both. */
    sqe_expr *res2 = gt(add(bcol(2), bcol(5)), ci(121));
    CHECK_RUN(hj1(SQE_JT_SEMI, L6, R6, 0, 0, res2), "2|bb|21\n3|c|40");
    CHECK_RUN(hj1(SQE_JT_ANTI, L6, R6, 0, 0, res2), "1|a|10\n2|b|20\n5|e|50\nNULL|n|30");
    CHECK_RUN(
        hj1(SQE_JT_MARK, L6, R6, 0, 0, res2),
        "1|a|10|false\n2|bb|21|true\n2|b|20|false\n3|c|40|true\n5|e|50|false\nNULL|n|30|false");
    /* A residual that is NULL is not a match. */
    sqe_value nullv = sqe_value_null(T_BIGINT);
    sqe_expr *resn = gt(bcol(2), add(bcol(5), sqe_expr_const(A, &nullv)));
    CHECK_RUN(hj1(SQE_JT_SEMI, L6, R6, 0, 0, resn), "");
    /* Errors inside the residual fail the query. */
    CHECK_RUN(hj1(SQE_JT_INNER, L6, R6, 0, 0, gt(divide(bcol(2), mul(bcol(0), ci(0))), ci(0))),
              "ERROR DIVISION_BY_ZERO: division by zero");
}

/* Empty build and empty probe sides, for every type and both operators. */
static void test_empty_sides(void) {
    int64_t one[3] = {1, 2, 3};
    sqe_plan *l = ivalues(1, 3, one);
    sqe_plan *none = ivalues(0, 3, one);
    static const char *const want_empty_build[7] = {
        "", "1|2|3|NULL|NULL|NULL", "", "1|2|3|NULL|NULL|NULL", "", "1|2|3", "1|2|3|false"};
    static const char *const want_empty_probe[7] = {
        "", "", "NULL|NULL|NULL|1|2|3", "NULL|NULL|NULL|1|2|3", "", "", ""};
    for (int jt = SQE_JT_INNER; jt <= SQE_JT_MARK; jt++) {
        CHECK_RUN(hj1((sqe_join_type)jt, l, none, 0, 0, NULL), want_empty_build[jt]);
        CHECK_RUN(hj1((sqe_join_type)jt, none, l, 0, 0, NULL), want_empty_probe[jt]);
        CHECK_RUN(nlj((sqe_join_type)jt, l, none, NULL), want_empty_build[jt]);
        CHECK_RUN(nlj((sqe_join_type)jt, none, l, NULL), want_empty_probe[jt]);
        CHECK_RUN(nlj((sqe_join_type)jt, none, none, NULL), "");
    }
    /* Null-aware against an empty build: FALSE even for a NULL operand. */
    int64_t lk[2] = {NUL, 1};
    sqe_plan *l2 = ivalues(2, 1, lk);
    sqe_plan *r0 = ivalues(0, 1, lk);
    sqe_plan *m = hj1(SQE_JT_MARK, l2, r0, 0, 0, NULL);
    m->u.join.null_aware = true;
    CHECK_RUN(m, "1|false\nNULL|false");
    sqe_plan *a = hj1(SQE_JT_ANTI, l2, r0, 0, 0, NULL);
    a->u.join.null_aware = true;
    CHECK_RUN(a, "1\nNULL");
}

/* Two keys (bigint, varchar), plus computed keys on both sides. */
static void test_multi_and_computed_keys(void) {
    sqe_expr *lk[2] = {col(0, T_BIGINT, "k"), col(1, T_VARCHAR, "s")};
    sqe_expr *rk[2] = {col(0, T_BIGINT, "k"), col(1, T_VARCHAR, "s")};
    int64_t k1[5] = {1, 1, 2, 2, NUL};
    const char *s1[5] = {"p", "a string longer than twelve", "p", NULL, "p"};
    int64_t v1[5] = {1, 2, 3, 4, 5};
    int64_t k2[5] = {1, 1, 2, 2, NUL};
    const char *s2[5] = {"p", "a string longer than twelve", "q", NULL, "p"};
    int64_t v2[5] = {10, 20, 30, 40, 50};
    sqe_plan *l = values3(5, k1, s1, v1), *r = values3(5, k2, s2, v2);
    CHECK_RUN(join(SQE_PLAN_HASH_JOIN, SQE_JT_INNER, l, r, 2, lk, rk, NULL),
              "1|a string longer than twelve|2|1|a string longer than twelve|20\n1|p|1|1|p|10");
    CHECK_RUN(join(SQE_PLAN_HASH_JOIN, SQE_JT_ANTI, l, r, 2, lk, rk, NULL),
              "2|NULL|4\n2|p|3\nNULL|p|5");
    CHECK_RUN(join(SQE_PLAN_HASH_JOIN, SQE_JT_FULL, l, r, 2, lk, rk, NULL),
              "1|a string longer than twelve|2|1|a string longer than twelve|20\n1|p|1|1|p|10\n"
              "2|NULL|4|NULL|NULL|NULL\n2|p|3|NULL|NULL|NULL\nNULL|NULL|NULL|2|NULL|40\n"
              "NULL|NULL|NULL|2|q|30\nNULL|NULL|NULL|NULL|p|50\nNULL|p|5|NULL|NULL|NULL");
    /* k + 9 = v' / 10 (v' computed on the build side only). */
    sqe_expr *ck = add(col(0, T_BIGINT, "k"), ci(9));
    sqe_expr *cr = divide(col(2, T_BIGINT, "v"), ci(10));
    int64_t kk[3] = {-8, -7, -4};
    const char *ss[3] = {"x", "y", "z"};
    sqe_plan *l3 = values3(3, kk, ss, v1);
    CHECK_RUN(join(SQE_PLAN_HASH_JOIN, SQE_JT_INNER, l3, r, 1, &ck, &cr, NULL),
              "-4|z|3|NULL|p|50\n-7|y|2|1|a string longer than twelve|20\n-8|x|1|1|p|10");
}

/* DOUBLE keys (-0.0 = 0.0, NaN = NaN, NULL matches nothing), DECIMAL and
 * VARCHAR keys including the empty string. */
static void test_typed_keys(void) {
    sqe_value ld[5] = {sqe_value_double(0.0), sqe_value_double(-0.0), sqe_value_double(NAN),
                       sqe_value_double(1.5), sqe_value_null(T_DOUBLE)};
    sqe_value rd[4] = {sqe_value_double(-0.0), sqe_value_double(-NAN), sqe_value_double(2.5),
                       sqe_value_null(T_DOUBLE)};
    sqe_plan *l = values1(T_DOUBLE, 5, ld), *r = values1(T_DOUBLE, 4, rd);
    CHECK_RUN(hj1(SQE_JT_INNER, l, r, 0, 0, NULL), "-0.0|-0.0\n0.0|-0.0\nNaN|NaN");
    CHECK_RUN(hj1(SQE_JT_FULL, l, r, 0, 0, NULL),
              "-0.0|-0.0\n0.0|-0.0\n1.5|NULL\nNULL|2.5\nNULL|NULL\nNULL|NULL\nNaN|NaN");

    sqe_type dec = sqe_type_decimal(10, 2);
    sqe_value lx[3] = {sqe_value_decimal(150, 10, 2), sqe_value_decimal(200, 10, 2),
                       sqe_value_null(dec)};
    sqe_value rx[3] = {sqe_value_decimal(150, 10, 2), sqe_value_decimal(150, 10, 2),
                       sqe_value_decimal(300, 10, 2)};
    l = values1(dec, 3, lx);
    r = values1(dec, 3, rx);
    CHECK_RUN(hj1(SQE_JT_INNER, l, r, 0, 0, NULL), "1.50|1.50\n1.50|1.50");
    CHECK_RUN(hj1(SQE_JT_RIGHT, l, r, 0, 0, NULL), "1.50|1.50\n1.50|1.50\nNULL|3.00");

    const char *ls[5] = {"abc", "a much longer string key", "", NULL, "a much longer string kez"};
    const char *rs[4] = {"abc", "a much longer string key", "", "abd"};
    sqe_value lsv[5], rsv[4];
    for (int i = 0; i < 5; i++)
        lsv[i] =
            ls[i] ? sqe_value_string(ls[i], (uint32_t)strlen(ls[i])) : sqe_value_null(T_VARCHAR);
    for (int i = 0; i < 4; i++) rsv[i] = sqe_value_string(rs[i], (uint32_t)strlen(rs[i]));
    l = values1(T_VARCHAR, 5, lsv);
    r = values1(T_VARCHAR, 4, rsv);
    CHECK_RUN(hj1(SQE_JT_INNER, l, r, 0, 0, NULL),
              "a much longer string key|a much longer string key\nabc|abc\n|");
    CHECK_RUN(hj1(SQE_JT_ANTI, l, r, 0, 0, NULL), "NULL\na much longer string kez");
}

/* ------------------------------------------------------------ null-aware */

static sqe_plan *na(sqe_join_type jt, sqe_plan *l, sqe_plan *r, int n_keys, sqe_expr *res) {
    sqe_expr *lk[2], *rk[2];
    for (int k = 0; k < n_keys; k++) {
        lk[k] = bcol(k);
        rk[k] = bcol(k);
    }
    sqe_plan *p = join(SQE_PLAN_HASH_JOIN, jt, l, r, n_keys, lk, rk, res);
    p->u.join.null_aware = true;
    return p;
}

/* x IN (build) with one key: G is the whole build side. */
static void test_null_aware_single(void) {
    int64_t probe[3] = {1, 3, NUL};
    sqe_plan *l = ivalues(3, 1, probe);
    int64_t b1[2] = {1, 2}, b2[2] = {1, NUL}, b3[1] = {NUL};
    struct {
        sqe_plan *r;
        const char *mark, *anti;
    } cases[] = {
        {ivalues(2, 1, b1), "1|true\n3|false\nNULL|NULL", "3"},
        {ivalues(2, 1, b2), "1|true\n3|NULL\nNULL|NULL", ""},
        {ivalues(1, 1, b3), "1|NULL\n3|NULL\nNULL|NULL", ""},
        {ivalues(0, 1, b1), "1|false\n3|false\nNULL|false", "1\n3\nNULL"},
    };
    for (size_t i = 0; i < SQE_ARRAY_LEN(cases); i++) {
        CHECK_RUN(na(SQE_JT_MARK, l, cases[i].r, 1, NULL), cases[i].mark);
        CHECK_RUN(na(SQE_JT_ANTI, l, cases[i].r, 1, NULL), cases[i].anti);
        /* A residual that is always TRUE changes nothing (pair-by-pair path). */
        sqe_expr *yes = is_null(add(bcol(0), ci(0)), true);
        yes->args[0] = ci(1);
        CHECK_RUN(na(SQE_JT_MARK, l, cases[i].r, 1, yes), cases[i].mark);
        CHECK_RUN(na(SQE_JT_ANTI, l, cases[i].r, 1, yes), cases[i].anti);
    }
    /* Non-null-aware MARK is EXISTS-like: never NULL. */
    sqe_plan *m = hj1(SQE_JT_MARK, l, cases[1].r, 0, 0, NULL);
    CHECK_RUN(m, "1|true\n3|false\nNULL|false");
}

/* x IN (SELECT y FROM b WHERE b.c = probe.c): G = build rows with equal c. */
static void test_null_aware_correlated(void) {
    int64_t build[] = {1, 10, 1, NUL, 2, 20, NUL, 30, 3, 30, 5, 50};
    int64_t probe[] = {1, 10, 1, 11, 2, 20, 2, 21, 2, NUL, 4, NUL, NUL, 30, 3, 30, 3, 31, 5, NUL};
    sqe_plan *r = ivalues(6, 2, build), *l = ivalues(10, 2, probe);
    const char *mark = "1|10|true\n1|11|NULL\n2|20|true\n2|21|false\n2|NULL|NULL\n3|30|true\n"
                       "3|31|false\n4|NULL|false\n5|NULL|NULL\nNULL|30|false";
    const char *anti = "2|21\n3|31\n4|NULL\nNULL|30";
    CHECK_RUN(na(SQE_JT_MARK, l, r, 2, NULL), mark);
    CHECK_RUN(na(SQE_JT_ANTI, l, r, 2, NULL), anti);
    CHECK_RUN(na(SQE_JT_SEMI, l, r, 2, NULL), "1|10\n2|20\n3|30");
    /* Residual always TRUE: the same through the correlated pair path. */
    sqe_expr *yes = is_null(ci(1), true);
    CHECK_RUN(na(SQE_JT_MARK, l, r, 2, yes), mark);
    CHECK_RUN(na(SQE_JT_ANTI, l, r, 2, yes), anti);
    /* A residual that narrows G: only build rows with b.y IS NOT NULL or
     * b.c <> 1 take part (pair columns: l.c l.x r.c r.y). For c = 1 the
     * NULL operand row leaves G, so 1|11 becomes FALSE. */
    sqe_expr *narrow = sqe_expr_new(A, SQE_EXPR_OR, T_BOOL, 2,
                                    (sqe_expr *[]){is_null(bcol(3), true), ne(bcol(2), ci(1))});
    CHECK_RUN(na(SQE_JT_MARK, l, r, 2, narrow),
              "1|10|true\n1|11|false\n2|20|true\n2|21|false\n2|NULL|NULL\n3|30|true\n"
              "3|31|false\n4|NULL|false\n5|NULL|NULL\nNULL|30|false");
    /* A residual that empties G for c = 5 (r.y < 0): 5|NULL becomes FALSE;
     * one key, G = build rows passing the residual with this probe row. */
    sqe_expr *none5 = sqe_expr_new(A, SQE_EXPR_OR, T_BOOL, 2,
                                   (sqe_expr *[]){ne(bcol(2), ci(5)), lt(bcol(3), ci(0))});
    CHECK_RUN(na(SQE_JT_ANTI, l, r, 2, none5), "2|21\n3|31\n4|NULL\n5|NULL\nNULL|30");
    int64_t p1[] = {10, 11, NUL};
    sqe_plan *l1 = ivalues(3, 1, p1);
    int64_t b1[] = {10, 100, NUL, 200};
    sqe_plan *r1 = ivalues(2, 2, b1);
    /* x IN (SELECT y FROM b WHERE b.w > 150) = x IN (NULL): every mark NULL. */
    sqe_expr *w150 = gt(bcol(2), ci(150));
    CHECK_RUN(na(SQE_JT_MARK, l1, r1, 1, w150), "10|NULL\n11|NULL\nNULL|NULL");
    /* ... WHERE b.w < 150 = x IN (10). */
    sqe_expr *w150b = lt(bcol(2), ci(150));
    CHECK_RUN(na(SQE_JT_MARK, l1, r1, 1, w150b), "10|true\n11|false\nNULL|NULL");
    /* ... WHERE b.w < 0: empty. */
    CHECK_RUN(na(SQE_JT_MARK, l1, r1, 1, lt(bcol(2), ci(0))), "10|false\n11|false\nNULL|false");
}

/* ------------------------------------------------------ randomized checks */

static uint64_t rng = 0x243f6a8885a308d3ULL;
static int64_t rnd(int64_t n) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (int64_t)(rng % (uint64_t)n);
}

/* n rows of (k1, k2, v): keys in [0, range) or NULL (1 in null_every). */
static sqe_plan *random_rows(int n, int range, int null_every) {
    int64_t *d = sqe_arena_alloc(A, (size_t)(n + 1) * 3 * sizeof(int64_t));
    for (int i = 0; i < 3 * n; i++) d[i] = rnd(null_every) == 0 ? NUL : rnd(range);
    return ivalues(n, 3, d);
}

/* The hash join must give the answer of a nested loop whose residual spells
 * the key equalities out (NULL = x is not TRUE, so the same semantics), for
 * every type, with and without a residual, one or two keys. */
static void test_hash_vs_nested_loop(void) {
    for (int round = 0; round < 6; round++) {
        int nl = 1 + (int)rnd(2500), nr = (int)rnd(300);
        int range = round < 3 ? 5 : 40;
        sqe_plan *l = random_rows(nl, range, 6), *r = random_rows(nr, range, 6);
        int n_keys = 1 + round % 2;
        bool with_res = round % 3 != 0;
        sqe_expr *lk[2] = {bcol(0), bcol(1)}, *rk[2] = {bcol(0), bcol(1)};
        sqe_expr *res = with_res ? lt(bcol(2), bcol(5)) : NULL;
        sqe_expr *e0 = eq(bcol(0), bcol(3)), *e1 = n_keys > 1 ? eq(bcol(1), bcol(4)) : NULL;
        sqe_expr *all = e1 ? and3(e0, e1, res) : (res ? and3(e0, res, NULL) : e0);
        for (int jt = SQE_JT_INNER; jt <= SQE_JT_MARK; jt++) {
            sqe_plan *hp = join(SQE_PLAN_HASH_JOIN, (sqe_join_type)jt, l, r, n_keys, lk, rk, res);
            sqe_plan *np = nlj((sqe_join_type)jt, l, r, all);
            char *a = run(hp, true), *b = run(np, true);
            CHECK_STR(a, b);
            CHECK(strncmp(a, "ERROR", 5) != 0);
            sqe_free(a);
            sqe_free(b);
            if (jt == SQE_JT_LEFT) { /* single match: the same error or answer */
                hp->u.join.single_match = np->u.join.single_match = true;
                a = run(hp, true);
                b = run(np, true);
                CHECK_STR(a, b);
                sqe_free(a);
                sqe_free(b);
            }
        }
    }
}

/* Null-aware IN against a row-by-row reference of plan.h's definition,
 * with random NULLs, one or two keys, with and without a residual
 * (l.v < r.v, NULL when either is NULL). */
static void test_null_aware_random(void) {
    for (int round = 0; round < 8; round++) {
        int nl = 1 + (int)rnd(400), nr = (int)rnd(round < 4 ? 6 : 200);
        int64_t *ld = sqe_arena_alloc(A, (size_t)(nl + 1) * 3 * sizeof(int64_t));
        int64_t *rd = sqe_arena_alloc(A, (size_t)(nr + 1) * 3 * sizeof(int64_t));
        for (int i = 0; i < 3 * nl; i++) ld[i] = rnd(7) == 0 ? NUL : rnd(6);
        for (int i = 0; i < 3 * nr; i++) rd[i] = rnd(round % 4 == 3 ? 3 : 9) == 0 ? NUL : rnd(6);
        sqe_plan *l = ivalues(nl, 3, ld), *r = ivalues(nr, 3, rd);
        int n_keys = 1 + round % 2;
        bool with_res = (round / 2) % 2 == 1;
        /* keys: (k2) or (k1, k2): the operand is column 1 */
        sqe_expr *lk[2], *rk[2];
        for (int k = 0; k < n_keys; k++) {
            lk[k] = bcol(2 - n_keys + k);
            rk[k] = bcol(2 - n_keys + k);
        }
        sqe_expr *res = with_res ? lt(bcol(2), bcol(5)) : NULL;
        sqe_plan *mp = join(SQE_PLAN_HASH_JOIN, SQE_JT_MARK, l, r, n_keys, lk, rk, res);
        mp->u.join.null_aware = true;
        sqe_plan *ap = join(SQE_PLAN_HASH_JOIN, SQE_JT_ANTI, l, r, n_keys, lk, rk, res);
        ap->u.join.null_aware = true;
        char **mark_lines = sqe_calloc((size_t)nl, sizeof(char *)),
             **anti_lines = sqe_calloc((size_t)nl, sizeof(char *));
        int n_anti = 0;
        for (int i = 0; i < nl; i++) {
            const int64_t *p = ld + 3 * i;
            bool nonempty = false, any_null = false, any_eq = false;
            for (int j = 0; j < nr; j++) {
                const int64_t *b = rd + 3 * j;
                if (n_keys == 2 && (p[0] == NUL || b[0] == NUL || p[0] != b[0])) continue;
                if (with_res && (p[2] == NUL || b[2] == NUL || !(p[2] < b[2]))) continue;
                nonempty = true;
                if (b[1] == NUL)
                    any_null = true;
                else if (p[1] != NUL && p[1] == b[1])
                    any_eq = true;
            }
            const char *m = any_eq                                    ? "true"
                            : (nonempty && (p[1] == NUL || any_null)) ? "NULL"
                                                                      : "false";
            sqe_strbuf sb;
            sqe_strbuf_init(&sb);
            for (int c = 0; c < 3; c++) {
                if (p[c] == NUL)
                    sqe_strbuf_puts(&sb, "NULL");
                else
                    sqe_strbuf_printf(&sb, "%lld", (long long)p[c]);
                sqe_strbuf_putc(&sb, '|');
            }
            if (strcmp(m, "false") == 0) {
                anti_lines[n_anti++] = sqe_strndup(sb.data, sb.len - 1);
            }
            sqe_strbuf_puts(&sb, m);
            mark_lines[i] = sqe_strbuf_detach(&sb);
        }
        qsort(mark_lines, (size_t)nl, sizeof(char *), cmp_lines);
        qsort(anti_lines, (size_t)n_anti, sizeof(char *), cmp_lines);
        sqe_strbuf want_m, want_a;
        sqe_strbuf_init(&want_m);
        sqe_strbuf_init(&want_a);
        for (int i = 0; i < nl; i++) {
            sqe_strbuf_printf(&want_m, "%s%s", i ? "\n" : "", mark_lines[i]);
            sqe_free(mark_lines[i]);
        }
        for (int i = 0; i < n_anti; i++) {
            sqe_strbuf_printf(&want_a, "%s%s", i ? "\n" : "", anti_lines[i]);
            sqe_free(anti_lines[i]);
        }
        CHECK_RUN(mp, want_m.data ? want_m.data : "");
        CHECK_RUN(ap, want_a.data ? want_a.data : "");
        sqe_strbuf_free(&want_m);
        sqe_strbuf_free(&want_a);
        sqe_free(mark_lines);
        sqe_free(anti_lines);
    }
}

/* NOT IN with a residual over large inputs stays near-linear: equal
 * operands come from the full index, NULL operands from their own (a few
 * here: a row that G proves FALSE must check each of them). */
static void test_null_aware_residual_scale(void) {
    int n = UNDER_ASAN ? 20000 : 200000;
    int64_t *ld = sqe_arena_alloc(A, (size_t)n * 2 * sizeof(int64_t));
    int64_t *rd = sqe_arena_alloc(A, (size_t)n * 2 * sizeof(int64_t));
    for (int i = 0; i < n; i++) {
        ld[2 * i] = i;                        /* operand */
        ld[2 * i + 1] = i % 2;                /* z */
        rd[2 * i] = i % 50000 == 2 ? NUL : i; /* y: a few NULLs, each with w = 2 */
        rd[2 * i + 1] = i % 3;                /* w */
    }
    sqe_plan *l = ivalues(n, 2, ld), *r = ivalues(n, 2, rd);
    /* x NOT IN (SELECT y FROM r WHERE r.w > 1 + o.z): for z = 1 G is empty
     * (w <= 2), so all n/2 such rows stay; for z = 0, G = rows with w = 2,
     * which hold a NULL y, so each such row is NULL or TRUE: none stays. */
    sqe_expr *lk = bcol(0), *rk = bcol(0);
    sqe_expr *res = gt(bcol(3), add(bcol(1), ci(1)));
    sqe_plan *ap = join(SQE_PLAN_HASH_JOIN, SQE_JT_ANTI, l, r, 1, &lk, &rk, res);
    ap->u.join.null_aware = true;
    clock_t t0 = clock();
    char *want = sqe_asprintf("%d", n / 2);
    CHECK_RUN(count_of(ap), want);
    sqe_free(want);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    CHECK(secs < 10);
}

/* ------------------------------------------------------------ single match */

static void test_single_match(void) {
    int64_t lk[3] = {1, 3, NUL};
    int64_t rk[6] = {1, 100, 2, 200, 2, 201};
    sqe_plan *l = ivalues(3, 1, lk), *r = ivalues(3, 2, rk);
    sqe_plan *p = hj1(SQE_JT_LEFT, l, r, 0, 0, NULL);
    p->u.join.single_match = true;
    CHECK_RUN(p, "1|1|100\n3|NULL|NULL\nNULL|NULL|NULL");
    int64_t lk2[2] = {1, 2};
    sqe_plan *p2 = hj1(SQE_JT_LEFT, ivalues(2, 1, lk2), r, 0, 0, NULL);
    p2->u.join.single_match = true;
    CHECK_RUN(p2, "ERROR INVALID_ARGUMENT: Scalar sub-query has returned multiple rows");
    /* A residual leaving one row per probe row is fine. */
    sqe_plan *p3 = hj1(SQE_JT_LEFT, ivalues(2, 1, lk2), r, 0, 0, gt(bcol(2), ci(200)));
    p3->u.join.single_match = true;
    CHECK_RUN(p3, "1|NULL|NULL\n2|2|201");
    /* Nested loop: a scalar subquery with a non-equi correlation. */
    sqe_plan *p4 = nlj(SQE_JT_LEFT, ivalues(2, 1, lk2), r, gt(bcol(2), mul(bcol(0), ci(150))));
    p4->u.join.single_match = true;
    CHECK_RUN(p4, "ERROR INVALID_ARGUMENT: Scalar sub-query has returned multiple rows");
    sqe_plan *p5 = nlj(SQE_JT_LEFT, ivalues(2, 1, lk2), r, gt(bcol(2), mul(bcol(0), ci(100))));
    p5->u.join.single_match = true;
    CHECK_RUN(p5, "ERROR INVALID_ARGUMENT: Scalar sub-query has returned multiple rows");
    sqe_plan *p6 = nlj(SQE_JT_LEFT, ivalues(2, 1, lk2), r, gt(bcol(2), add(bcol(0), ci(199))));
    p6->u.join.single_match = true;
    CHECK_RUN(p6, "1|2|201\n2|NULL|NULL");
}

/* ------------------------------------------------------------ nested loop */

static void test_nested_loop(void) {
    int64_t a[3] = {1, 2, 3}, b[3] = {2, 3, 4};
    sqe_plan *l = ivalues(3, 1, a), *r = ivalues(3, 1, b);
    /* Cross join. */
    CHECK_RUN(nlj(SQE_JT_INNER, l, r, NULL), "1|2\n1|3\n1|4\n2|2\n2|3\n2|4\n3|2\n3|3\n3|4");
    /* l < r, every type. */
    sqe_expr *lt01 = lt(bcol(0), bcol(1));
    CHECK_RUN(nlj(SQE_JT_INNER, l, r, lt01), "1|2\n1|3\n1|4\n2|3\n2|4\n3|4");
    /* l > r + 1 */
    sqe_expr *gt2 = gt(bcol(0), add(bcol(1), ci(0)));
    CHECK_RUN(nlj(SQE_JT_LEFT, l, r, gt2), "1|NULL\n2|NULL\n3|2");
    CHECK_RUN(nlj(SQE_JT_RIGHT, l, r, gt2), "3|2\nNULL|3\nNULL|4");
    CHECK_RUN(nlj(SQE_JT_FULL, l, r, gt2), "1|NULL\n2|NULL\n3|2\nNULL|3\nNULL|4");
    CHECK_RUN(nlj(SQE_JT_SEMI, l, r, gt2), "3");
    CHECK_RUN(nlj(SQE_JT_ANTI, l, r, gt2), "1\n2");
    CHECK_RUN(nlj(SQE_JT_MARK, l, r, gt2), "1|false\n2|false\n3|true");
    /* SEMI/ANTI/MARK without a residual: EXISTS over a non-empty build. */
    CHECK_RUN(nlj(SQE_JT_SEMI, l, r, NULL), "1\n2\n3");
    CHECK_RUN(nlj(SQE_JT_MARK, l, r, NULL), "1|true\n2|true\n3|true");
    CHECK_RUN(nlj(SQE_JT_ANTI, l, r, NULL), "");
    /* NULLs in the residual's inputs: no match. */
    int64_t an[2] = {NUL, 5};
    CHECK_RUN(nlj(SQE_JT_LEFT, ivalues(2, 1, an), r, gt2), "5|2\n5|3\n5|4\nNULL|NULL");
    /* A key-less plan on the hash join is an internal error, and keys on the
     * nested loop too. */
    sqe_plan *bad = nlj(SQE_JT_INNER, l, r, NULL);
    bad->kind = SQE_PLAN_HASH_JOIN;
    CHECK_RUN(bad, "ERROR INTERNAL: HashJoinExec without join keys");
}

/* ------------------------------------------------ many matches, many batches */

/* n rows (k = key, v = i). */
static sqe_plan *keyed(int n, int64_t key, int64_t v0) {
    int64_t *d = sqe_arena_alloc(A, (size_t)n * 2 * sizeof(int64_t));
    for (int i = 0; i < n; i++) {
        d[2 * i] = key;
        d[2 * i + 1] = v0 + i;
    }
    return ivalues(n, 2, d);
}

static void test_many_matches(void) {
    /* 3000 x 3000 pairs on one key: 9,000,000 rows through 2048-row batches. */
    sqe_plan *l = keyed(3000, 7, 0), *r = keyed(3000, 7, 1000000);
    int sums[2] = {1, 3};
    char *want = sqe_asprintf("9000000|%lld|%lld", 3000LL * 4498500LL,
                              3000LL * (3000LL * 1000000 + 4498500LL));
    CHECK_RUN(agg(hj1(SQE_JT_INNER, l, r, 0, 0, NULL), 2, sums), want);
    CHECK_RUN(agg(hj1(SQE_JT_FULL, l, r, 0, 0, NULL), 2, sums), want);
    CHECK_RUN(agg(nlj(SQE_JT_INNER, l, r, NULL), 2, sums), want);
    sqe_free(want);
    /* Half the pairs pass a residual (v' odd): 4,500,000. */
    sqe_expr *odd = ne(mod(bcol(3), ci(2)), ci(0));
    CHECK_RUN(count_of(hj1(SQE_JT_LEFT, l, r, 0, 0, odd)), "4500000");
    CHECK_RUN(count_of(nlj(SQE_JT_RIGHT, l, r, odd)), "4501500");
    /* Only the first 5 build rows match (v' < 1000005): 15,000 pairs; RIGHT
     * adds the 2995 others once. */
    sqe_expr *few = lt(bcol(3), ci(1000005));
    CHECK_RUN(count_of(hj1(SQE_JT_RIGHT, l, r, 0, 0, few)), "17995");
    CHECK_RUN(count_of(hj1(SQE_JT_SEMI, l, r, 0, 0, few)), "3000");
    CHECK_RUN(count_of(nlj(SQE_JT_ANTI, l, r, few)), "0");
    /* One probe row whose 3000 matches span two batches, next to rows with none. */
    int64_t pk[6] = {1, 0, 7, 1, 2, 2};
    CHECK_RUN(count_of(hj1(SQE_JT_LEFT, ivalues(3, 2, pk), r, 0, 0, NULL)), "3002");
    CHECK_RUN(count_of(hj1(SQE_JT_FULL, ivalues(3, 2, pk), r, 0, 0, NULL)), "3002");
}

/* ------------------------------------------------------------ memory */

static void test_memory_limit(void) {
    sqe_plan *l = keyed(10, 7, 0), *r = keyed(20000, 7, 0);
    sqe_exec_options opts = {.threads = 1, .memory_limit = 100000};
    char *got = run_opts(hj1(SQE_JT_INNER, l, r, 0, 0, NULL), &opts, false);
    CHECK_STR(got, "ERROR RESOURCE_EXHAUSTED: query exceeded the memory limit of 100000 bytes in "
                   "HashJoinExec");
    sqe_free(got);
    got = run_opts(nlj(SQE_JT_INNER, l, r, NULL), &opts, false);
    CHECK_STR(got, "ERROR RESOURCE_EXHAUSTED: query exceeded the memory limit of 100000 bytes in "
                   "NestedLoopJoinExec");
    sqe_free(got);
    /* Under the limit the same join runs. */
    opts.memory_limit = 64 << 20;
    got = run_opts(count_of(hj1(SQE_JT_INNER, l, r, 0, 0, NULL)), &opts, false);
    CHECK_STR(got, "200000");
    sqe_free(got);
}

/* ------------------------------------------------------------ big builds */

/* VALUES 0..n-1 (one BIGINT column). */
static sqe_plan *seq_values(int n) {
    int64_t *d = sqe_arena_alloc(A, (size_t)n * sizeof(int64_t));
    for (int i = 0; i < n; i++) d[i] = i;
    return ivalues(n, 1, d);
}

/* Rows a * 4096 + b for a < n_hi, b in lo: a cross join of two VALUES. */
static sqe_plan *grid(int n_hi, sqe_plan *lo) {
    sqe_plan *x = nlj(SQE_JT_INNER, seq_values(n_hi), lo, NULL);
    sqe_expr *e = add(mul(bcol(0), ci(4096)), bcol(1));
    return project(x, 1, &e);
}

/* Builds of 2^20..2^24 distinct keys (every bucket count the index can
 * take on the way past 2^22), probed by a strided sample plus misses. */
static void test_big_builds(void) {
    int max_bits = UNDER_ASAN ? 20 : 24;
    sqe_plan *lo_all = seq_values(4096);
    int64_t probe_lo[4] = {0, 17, 4095, 5000}; /* 5000: beyond every row of its block */
    sqe_plan *lo_probe = ivalues(4, 1, probe_lo);
    for (int bits = 20; bits <= max_bits; bits++) {
        int n_hi = 1 << (bits - 12);
        sqe_plan *build = grid(n_hi, lo_all);
        sqe_plan *probe = grid(n_hi, lo_probe);
        clock_t t0 = clock();
        /* a*4096 + 5000 is the key (a+1)*4096 + 904, a build row except
         * for the last a */
        int64_t expect = 3LL * n_hi + (n_hi - 1);
        char *want = sqe_asprintf("%lld", (long long)expect);
        char *got = run(count_of(hj1(SQE_JT_INNER, probe, build, 0, 0, NULL)), false);
        CHECK_STR(got, want);
        sqe_free(got);
        sqe_free(want);
        if (bits == 20) {
            /* RIGHT: each build row once, matched (one pair each) or not. */
            want = sqe_asprintf("%lld", (long long)((int64_t)1 << bits));
            got = run(count_of(hj1(SQE_JT_RIGHT, probe, build, 0, 0, NULL)), false);
            CHECK_STR(got, want);
            sqe_free(got);
            sqe_free(want);
        }
        fprintf(stderr, "  big build 2^%d: %.2f s\n", bits,
                (double)(clock() - t0) / CLOCKS_PER_SEC);
    }
}

/* ------------------------------------------------------------ scans */

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

/* orders(id bigint, cust bigint, status string) partitioned by dt: 6
 * partitions x 3 files x 1500 rows. */
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
    if (!st) return NULL;
    const char *status = NULL;
    sqe_resultset *rs = NULL;
    sqe_strbuf notices;
    sqe_strbuf_init(&notices);
    CHECK(sqe_hive_execute(cat, st, &rs, &status, &notices, &err));
    sqe_strbuf_free(&notices);
    sqe_resultset_free(rs);
    const char *parts[3] = {"lake", "default", name};
    sqe_hive_table *t = sqe_hive_resolve_table(cat, 3, parts, &err);
    CHECK(t != NULL);
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
    sqe_plan *p = node(SQE_PLAN_SCAN, 0, n, types, names);
    p->u.scan.table = t;
    p->u.scan.table_name = "lake.default.orders";
    p->u.scan.n_cols = n;
    p->u.scan.cols = sqe_arena_alloc(A, (size_t)(n + 1) * sizeof(int));
    if (n) memcpy(p->u.scan.cols, cols, (size_t)n * sizeof(int));
    return p;
}

/* Runs p serially and with a pool of 4 copies; the answers must agree
 * (and equal want when given). Returns nothing; checks. */
static void check_both(const sqe_plan *p, sqe_threadpool *pool, const char *want) {
    char *serial = run(p, true);
    sqe_exec_options opts = {.threads = 4, .pool = pool};
    char *par = run_opts(p, &opts, true);
    if (want) CHECK_STR(serial, want);
    CHECK_STR(par, serial);
    CHECK(strncmp(serial, "ERROR", 5) != 0);
    sqe_free(serial);
    sqe_free(par);
}

static void test_parallel_probe(void) {
    char tmpl[] = "/tmp/sqe_test_join_XXXXXX";
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

    /* customers: cust 0..299 twice (duplicates), plus 5000..5009 that no
     * order has (RIGHT/FULL must emit them exactly once), plus a NULL. */
    int64_t *cd = sqe_arena_alloc(A, 611 * 2 * sizeof(int64_t));
    int nc = 0;
    for (int rep = 0; rep < 2; rep++)
        for (int c = 0; c < 300; c++, nc++) {
            cd[2 * nc] = c;
            cd[2 * nc + 1] = rep * 1000 + c;
        }
    for (int c = 0; c < 10; c++, nc++) {
        cd[2 * nc] = 5000 + c;
        cd[2 * nc + 1] = c;
    }
    cd[2 * nc] = NUL;
    cd[2 * nc + 1] = 7;
    nc++;
    sqe_plan *cust = ivalues(nc, 2, cd);
    int cols4[4] = {0, 1, 2, 3};
    sqe_plan *s4 = scan_node(t, 4, cols4);

    /* orders (id, cust, status, dt) join customers (cust, x) on cust. */
    for (int jt = SQE_JT_INNER; jt <= SQE_JT_MARK; jt++) {
        sqe_plan *j = hj1((sqe_join_type)jt, s4, cust, 1, 0, NULL);
        check_both(j, pool, NULL);           /* streaming root: gather copies */
        check_both(count_of(j), pool, NULL); /* under an aggregate: sink copies */
        sqe_expr *res =
            ne(mod(add(bcol(0), bcol(5)), ci(3)), ci(0)); /* id + x not a multiple of 3 */
        sqe_plan *jr = hj1((sqe_join_type)jt, s4, cust, 1, 0, res);
        check_both(jr, pool, NULL);
    }
    /* Counts we know: 27000 orders; cust < 300 has 2 customers each. */
    sqe_plan *inner = hj1(SQE_JT_INNER, s4, cust, 1, 0, NULL);
    sqe_plan *semi = hj1(SQE_JT_SEMI, s4, cust, 1, 0, NULL);
    char *n_semi = run(count_of(semi), false);
    int64_t semi_rows = strtoll(n_semi, NULL, 10);
    char *want = sqe_asprintf("%lld", (long long)(2 * semi_rows));
    check_both(count_of(inner), pool, want);
    sqe_free(want);
    want = sqe_asprintf("%lld", (long long)(2 * semi_rows + 11));
    check_both(count_of(hj1(SQE_JT_RIGHT, s4, cust, 1, 0, NULL)), pool, want);
    sqe_free(want);
    want = sqe_asprintf("%lld", (long long)(2 * semi_rows + 11 + (27000 - semi_rows)));
    check_both(count_of(hj1(SQE_JT_FULL, s4, cust, 1, 0, NULL)), pool, want);
    sqe_free(want);
    sqe_free(n_semi);
    /* The unmatched customers come out once, whatever the thread count. */
    sqe_plan *right = hj1(SQE_JT_RIGHT, s4, cust, 1, 0, NULL);
    sqe_plan *only_unmatched =
        node(SQE_PLAN_FILTER, 1, right->n_out, right->out_types, right->out_names);
    only_unmatched->children[0] = right;
    only_unmatched->u.filter.pred = is_null(bcol(0), false);
    check_both(
        only_unmatched, pool,
        "NULL|NULL|NULL|NULL|5000|0\nNULL|NULL|NULL|NULL|5001|1\nNULL|NULL|NULL|NULL|5002|2\n"
        "NULL|NULL|NULL|NULL|5003|3\nNULL|NULL|NULL|NULL|5004|4\nNULL|NULL|NULL|NULL|5005|5\n"
        "NULL|NULL|NULL|NULL|5006|6\nNULL|NULL|NULL|NULL|5007|7\nNULL|NULL|NULL|NULL|5008|8\n"
        "NULL|NULL|NULL|NULL|5009|9\nNULL|NULL|NULL|NULL|NULL|7");

    /* Nested loop over the scan: orders of customers 5..9 with id < cust*10. */
    int64_t few[5] = {5, 6, 7, 8, 9};
    sqe_plan *fc = ivalues(5, 1, few);
    for (int jt = SQE_JT_INNER; jt <= SQE_JT_MARK; jt++) {
        sqe_expr *r = lt(bcol(0), mul(bcol(4), ci(3000)));
        check_both(nlj((sqe_join_type)jt, s4, fc, r), pool, NULL);
        check_both(count_of(nlj((sqe_join_type)jt, s4, fc, r)), pool, NULL);
    }
    check_both(count_of(nlj(SQE_JT_RIGHT, s4, fc, lt(bcol(0), ci(0)))), pool, "5");
    check_both(count_of(nlj(SQE_JT_FULL, s4, fc, lt(bcol(0), ci(0)))), pool, "27005");

    /* A build side that is itself a scan (drained by parallel copies): the
     * orders with id % 7 = 0 joined with all orders on id. */
    sqe_plan *s2 = scan_node(t, 2, cols4);
    sqe_plan *f7 = node(SQE_PLAN_FILTER, 1, 2, s2->out_types, s2->out_names);
    f7->children[0] = s2;
    f7->u.filter.pred =
        sqe_expr_new(A, SQE_EXPR_NOT, T_BOOL, 1, (sqe_expr *[]){ne(mod(bcol(0), ci(7)), ci(0))});
    check_both(count_of(hj1(SQE_JT_INNER, s4, f7, 0, 0, NULL)), pool, "3857");
    check_both(count_of(hj1(SQE_JT_FULL, f7, s4, 0, 0, NULL)), pool, "27000");
    check_both(count_of(hj1(SQE_JT_ANTI, s4, f7, 0, 0, NULL)), pool, "23143");
    /* Joins stacked in one pipeline: (orders JOIN customers) JOIN f7. */
    sqe_plan *two = hj1(SQE_JT_INNER, inner, f7, 0, 0, NULL);
    check_both(count_of(two), pool, NULL);
    sqe_plan *two_full = hj1(SQE_JT_FULL, hj1(SQE_JT_RIGHT, s4, cust, 1, 0, NULL), f7, 0, 0, NULL);
    check_both(two_full, pool, NULL);

    sqe_threadpool_free(pool);
    sqe_hive_table_free(t);
    sqe_hive_catalog_free(cat);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    CHECK(system(cmd) == 0);
}

static void test_explain(void) {
    sqe_plan *p = hj1(SQE_JT_LEFT, L6, R6, 0, 0, gt(bcol(2), bcol(5)));
    p->u.join.single_match = true;
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    sqe_exec_explain(p, &sb);
    CHECK_CONTAINS(sb.data, "HashJoinExec");
    CHECK_CONTAINS(sb.data, "single_match");
    sqe_strbuf_free(&sb);
}

int main(void) {
    A = sqe_arena_new(0);
    make_lr();
    RUN(test_types_on_keys);
    RUN(test_residual);
    RUN(test_empty_sides);
    RUN(test_multi_and_computed_keys);
    RUN(test_typed_keys);
    RUN(test_null_aware_single);
    RUN(test_null_aware_correlated);
    RUN(test_single_match);
    RUN(test_hash_vs_nested_loop);
    RUN(test_null_aware_random);
    RUN(test_null_aware_residual_scale);
    RUN(test_nested_loop);
    RUN(test_many_matches);
    RUN(test_memory_limit);
    RUN(test_explain);
    RUN(test_parallel_probe);
    RUN(test_big_builds);
    sqe_arena_free(A);
    return unit_report();
}
