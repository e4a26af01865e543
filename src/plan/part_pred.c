/*
 * part_pred.c - the partition predicate (sqe_hive_ppred, hive.h) a scan
 * hands to its partition source, derived from the WHERE conjuncts that read
 * only partition keys.
 *
 * Shapes (SPEC §6.4): key op constant for = <> < <= > >= (either side),
 * key IN (constants), key IS [NOT] NULL, BETWEEN (bound as two
 * comparisons), AND and OR of those, NOT over a comparison or IS NULL.
 * A widening cast of a key counts as the key (`CAST(int_key AS bigint) = 5`)
 * when the constant converts back exactly. Two functions of a string key
 * become ranges, as Athena users write them for month or prefix selection:
 * `substr(k, 1, n) = 'p'` (p of n characters: k starts with p; shorter: k
 * is p) and `k LIKE 'p%...'` (k starts with the literal prefix p; no
 * wildcard: k is p). A prefix p is the range p <= k < p' where p' is p with
 * its last byte below 0xFF incremented (bytes after it dropped): string
 * order is byte order. The result is a hint (the
 * partition filter re-checks every partition), so whatever is not
 * understood is dropped conservatively: an unknown kid of an AND is left
 * out, an OR with an unknown kid is not derived at all. Everything lives in
 * the statement arena.
 */
#include "exec/exec.h"
#include "plan_int.h"

#include <string.h>

typedef struct pp_ctx {
    sqe_arena *a;
    const sqe_hive_table *t;
} pp_ctx;

static sqe_hive_ppred *pp_from(const pp_ctx *c, const sqe_expr *e, bool neg);

/* The partition key an expression reads (directly or through a widening
 * cast), or -1. Scan columns are the table's: data columns, then keys. */
static int pp_key(const pp_ctx *c, const sqe_expr *e) {
    if (e && e->kind == SQE_EXPR_CAST && e->n_args == 1 && !e->try_ &&
        sqe_exec_pred_widening(e->args[0]->type, e->type))
        e = e->args[0];
    if (!e || e->kind != SQE_EXPR_COLUMN) return -1;
    int k = e->col - c->t->n_cols;
    return k >= 0 && k < c->t->n_part_keys ? k : -1;
}

static sqe_hive_ppred *pp_term(const pp_ctx *c, int key, sqe_fpred_op op, int n,
                               const sqe_value *vals) {
    sqe_hive_ppred *p = sqe_arena_alloc(c->a, sizeof *p);
    memset(p, 0, sizeof *p);
    p->kind = SQE_HIVE_PP_TERM;
    p->term.col = key;
    p->term.op = op;
    p->term.n_vals = n;
    if (n) {
        sqe_value *v = sqe_arena_alloc(c->a, sizeof *v * (size_t)n);
        sqe_type kt = c->t->part_keys[key].type;
        for (int i = 0; i < n; i++)
            if (!sqe_exec_pred_exact_value(&vals[i], kt, c->a, &v[i])) return NULL;
        p->term.vals = v;
    }
    return p;
}

static sqe_fpred_op pp_negate(sqe_fpred_op op) {
    static const sqe_fpred_op k_neg[] = {
        [SQE_FPRED_EQ] = SQE_FPRED_NE, [SQE_FPRED_NE] = SQE_FPRED_EQ, [SQE_FPRED_LT] = SQE_FPRED_GE,
        [SQE_FPRED_LE] = SQE_FPRED_GT, [SQE_FPRED_GT] = SQE_FPRED_LE, [SQE_FPRED_GE] = SQE_FPRED_LT,
    };
    return k_neg[op];
}

/* An AND / OR node over kids[0..n) (the array is kept); n == 1: that kid. */
static sqe_hive_ppred *pp_node(sqe_arena *a, sqe_hive_ppred_kind kind, const sqe_hive_ppred **kids,
                               int n) {
    if (n == 1) return (sqe_hive_ppred *)kids[0];
    sqe_hive_ppred *p = sqe_arena_alloc(a, sizeof *p);
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->n_kids = n;
    p->kids = kids;
    return p;
}

static sqe_hive_ppred *pp_and2(sqe_arena *a, const sqe_hive_ppred *x, const sqe_hive_ppred *y) {
    const sqe_hive_ppred **kids = sqe_arena_alloc(a, sizeof *kids * 2);
    kids[0] = x;
    kids[1] = y;
    return pp_node(a, SQE_HIVE_PP_AND, kids, 2);
}

/* Plain (unbounded VARCHAR) string key read directly, or -1. */
static int pp_string_key(const pp_ctx *c, const sqe_expr *e) {
    int key = pp_key(c, e);
    if (key < 0 || e->kind != SQE_EXPR_COLUMN) return -1;
    sqe_type t = c->t->part_keys[key].type;
    return t.id == SQE_T_VARCHAR && t.length == 0 ? key : -1;
}

/* k starts with the bytes p[0..n): p <= k < successor(p). */
static sqe_hive_ppred *pp_prefix(const pp_ctx *c, int key, const char *p, uint32_t n) {
    sqe_value lo = sqe_value_string(p, n);
    if (n == 0) return pp_term(c, key, SQE_FPRED_IS_NOT_NULL, 0, NULL);
    sqe_hive_ppred *ge = pp_term(c, key, SQE_FPRED_GE, 1, &lo);
    uint32_t m = n;
    while (m > 0 && (unsigned char)p[m - 1] == 0xFF) m--;
    if (m == 0 || !ge) return ge;
    char *succ = sqe_arena_alloc(c->a, m);
    memcpy(succ, p, m);
    succ[m - 1] = (char)((unsigned char)succ[m - 1] + 1);
    sqe_value hi = sqe_value_string(succ, m);
    sqe_hive_ppred *lt = pp_term(c, key, SQE_FPRED_LT, 1, &hi);
    return lt ? pp_and2(c->a, ge, lt) : ge;
}

/* substr(k, 1, n) = 'p' (also substring). */
static sqe_hive_ppred *pp_substr_eq(const pp_ctx *c, const sqe_expr *f, const sqe_value *v) {
    if (f->kind != SQE_EXPR_CALL || f->n_args != 3 || v->type.id != SQE_T_VARCHAR ||
        (strcmp(f->fn.name, "substr") != 0 && strcmp(f->fn.name, "substring") != 0))
        return NULL;
    const sqe_expr *from = f->args[1], *len = f->args[2];
    if (from->kind != SQE_EXPR_CONST || len->kind != SQE_EXPR_CONST || from->value.is_null ||
        len->value.is_null || from->value.v.i != 1 || len->value.v.i < 0)
        return NULL;
    int key = pp_string_key(c, f->args[0]);
    if (key < 0) return NULL;
    size_t chars = sqe_utf8_count(v->v.s.ptr, v->v.s.len);
    if ((int64_t)chars > len->value.v.i) return NULL; /* never equal: leave it to the filter */
    if ((int64_t)chars < len->value.v.i) return pp_term(c, key, SQE_FPRED_EQ, 1, v);
    return pp_prefix(c, key, v->v.s.ptr, v->v.s.len);
}

/* k LIKE 'pattern' without ESCAPE: its literal prefix. */
static sqe_hive_ppred *pp_like(const pp_ctx *c, const sqe_expr *e, bool neg) {
    if (neg || e->n_args != 2 || strcmp(e->fn.name, "like") != 0) return NULL;
    const sqe_expr *pat = e->args[1];
    if (pat->kind != SQE_EXPR_CONST || pat->value.is_null || pat->value.type.id != SQE_T_VARCHAR)
        return NULL;
    int key = pp_string_key(c, e->args[0]);
    if (key < 0) return NULL;
    const char *p = pat->value.v.s.ptr;
    uint32_t n = pat->value.v.s.len, i = 0;
    while (i < n && p[i] != '%' && p[i] != '_') i++;
    if (i == n) return pp_term(c, key, SQE_FPRED_EQ, 1, &pat->value);
    return pp_prefix(c, key, p, i);
}

static sqe_hive_ppred *pp_compare(const pp_ctx *c, const sqe_expr *e, bool neg) {
    if (e->n_args != 2) return NULL;
    bool flipped = e->args[0]->kind == SQE_EXPR_CONST;
    const sqe_expr *col = e->args[flipped ? 1 : 0], *k = e->args[flipped ? 0 : 1];
    sqe_fpred_op op;
    if (k->kind != SQE_EXPR_CONST || k->value.is_null ||
        !sqe_exec_pred_op(e->fn.name, flipped, &op))
        return pp_like(c, e, neg);
    if (op == SQE_FPRED_EQ && !neg && col->kind == SQE_EXPR_CALL)
        return pp_substr_eq(c, col, &k->value);
    int key = pp_key(c, col);
    if (key < 0) return NULL;
    /* NOT (k < 5) is k >= 5 for non-NULL k, and false for NULL k as the
     * comparison is: the negated operator keeps both. */
    return pp_term(c, key, neg ? pp_negate(op) : op, 1, &k->value);
}

/* k IN (...) as one term; k NOT IN (...) as k <> each (both false for a
 * NULL k, as NOT IN is not true there). */
static sqe_hive_ppred *pp_in(const pp_ctx *c, const sqe_expr *e, bool neg) {
    if (e->n_args != 1 || e->n_in <= 0) return NULL;
    for (int i = 0; i < e->n_in; i++)
        if (e->in_values[i].is_null) return NULL; /* NOT IN with a NULL is never true */
    int key = pp_key(c, e->args[0]);
    if (key < 0) return NULL;
    if (e->negated == neg) return pp_term(c, key, SQE_FPRED_IN, e->n_in, e->in_values);
    const sqe_hive_ppred **kids = sqe_arena_alloc(c->a, sizeof *kids * (size_t)e->n_in);
    for (int i = 0; i < e->n_in; i++)
        if (!(kids[i] = pp_term(c, key, SQE_FPRED_NE, 1, &e->in_values[i]))) return NULL;
    return pp_node(c->a, SQE_HIVE_PP_AND, kids, e->n_in);
}

/* AND (or, negated, OR by De Morgan) of e's kids; is_and says which one the
 * result is after negation. */
static sqe_hive_ppred *pp_junction(const pp_ctx *c, const sqe_expr *e, bool is_and, bool neg) {
    const sqe_hive_ppred **kids = sqe_arena_alloc(c->a, sizeof *kids * (size_t)(e->n_args + 1));
    int n = 0;
    for (int i = 0; i < e->n_args; i++) {
        sqe_hive_ppred *k = pp_from(c, e->args[i], neg);
        if (k)
            kids[n++] = k;
        else if (!is_and)
            return NULL; /* an OR kid that may be true: the OR may be true */
    }
    return n ? pp_node(c->a, is_and ? SQE_HIVE_PP_AND : SQE_HIVE_PP_OR, kids, n) : NULL;
}

/* e (negated when neg) as a partition predicate, or NULL when not derivable. */
static sqe_hive_ppred *pp_from(const pp_ctx *c, const sqe_expr *e, bool neg) {
    switch (e->kind) {
    case SQE_EXPR_AND:
        return pp_junction(c, e, !neg, neg);
    case SQE_EXPR_OR:
        return pp_junction(c, e, neg, neg);
    case SQE_EXPR_NOT:
        return e->n_args == 1 ? pp_from(c, e->args[0], !neg) : NULL;
    case SQE_EXPR_IN:
        return pp_in(c, e, neg);
    case SQE_EXPR_CALL:
        return pp_compare(c, e, neg);
    case SQE_EXPR_IS_NULL: {
        int key = e->n_args == 1 ? pp_key(c, e->args[0]) : -1;
        if (key < 0) return NULL;
        bool is_null = e->negated == neg;
        return pp_term(c, key, is_null ? SQE_FPRED_IS_NULL : SQE_FPRED_IS_NOT_NULL, 0, NULL);
    }
    default:
        return NULL;
    }
}

void sqe_plan_add_part_pred(sqe_arena *a, sqe_plan *scan, const sqe_expr *conj) {
    pp_ctx c = {a, scan->u.scan.table};
    if (!c.t || c.t->n_part_keys == 0) return;
    sqe_hive_ppred *p = pp_from(&c, conj, false);
    if (!p) return;
    sqe_hive_prune *pr = scan->u.scan.prune;
    if (!pr) {
        pr = sqe_arena_alloc(a, sizeof *pr);
        pr->pred = p;
        scan->u.scan.prune = pr;
        return;
    }
    const sqe_hive_ppred *old = pr->pred;
    if (old->kind != SQE_HIVE_PP_AND) {
        pr->pred = pp_and2(a, old, p);
        return;
    }
    const sqe_hive_ppred **kids = sqe_arena_alloc(a, sizeof *kids * (size_t)(old->n_kids + 1));
    memcpy(kids, old->kids, sizeof *kids * (size_t)old->n_kids);
    kids[old->n_kids] = p;
    pr->pred = pp_node(a, SQE_HIVE_PP_AND, kids, old->n_kids + 1);
}
