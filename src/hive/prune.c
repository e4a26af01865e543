/*
 * prune.c - evaluation of the partition predicate (sqe_hive_ppred) that
 * every partition source uses to skip partitions before it reads them.
 *
 * The planner derives the predicate from the WHERE conjuncts that read only
 * partition keys (plan/planner.c); it is a hint: the scan's partition filter
 * re-checks each partition it is given, so a source may drop a partition
 * only when the predicate is certainly false for it. Two questions are
 * answered here:
 *
 *   sqe_hive_prune_admits      "can a partition starting with these values
 *                               match?" Listing asks it per folder level
 *                               (only the keys listed so far are known), the
 *                               partition index per entry, a projection per
 *                               candidate. A term on a key not known yet is
 *                               "maybe"; AND is false when one kid is false,
 *                               OR when every kid is.
 *   sqe_hive_prune_key_bounds  "which range of one key can match?", for
 *                               sources that enumerate values instead of
 *                               filtering existing ones (a ten-year date
 *                               projection with a one-day predicate builds
 *                               one entry, not 3,650). AND intersects the
 *                               kids' bounds, OR takes their hull; a term on
 *                               another key bounds nothing.
 *
 * SQL semantics: a comparison, IN or <> with a NULL partition value is not
 * true, so it rejects the NULL partition (__HIVE_DEFAULT_PARTITION__); only
 * IS NULL admits it. Values are compared with sqe_value_cmp, which needs
 * both sides of the key's type: the planner derives only terms whose
 * constants have it.
 */
#include "hive/hive.h"

#include <string.h>

/* The tri-state of a term on a known value: true or false (never "maybe"). */
static bool pp_term_true(const sqe_fpred_term *t, const sqe_value *v) {
    if (t->op == SQE_FPRED_IS_NULL) return v->is_null;
    if (t->op == SQE_FPRED_IS_NOT_NULL) return !v->is_null;
    if (v->is_null) return false;
    if (t->op == SQE_FPRED_IN) {
        for (int i = 0; i < t->n_vals; i++)
            if (sqe_value_cmp(v, &t->vals[i]) == 0) return true;
        return false;
    }
    if (t->n_vals < 1) return true; /* malformed: never drop */
    int c = sqe_value_cmp(v, &t->vals[0]);
    switch (t->op) {
    case SQE_FPRED_EQ:
        return c == 0;
    case SQE_FPRED_NE:
        return c != 0;
    case SQE_FPRED_LT:
        return c < 0;
    case SQE_FPRED_LE:
        return c <= 0;
    case SQE_FPRED_GT:
        return c > 0;
    case SQE_FPRED_GE:
        return c >= 0;
    default:
        return true;
    }
}

static bool pp_admits(const sqe_hive_ppred *p, const sqe_value *vals, int n_known) {
    switch (p->kind) {
    case SQE_HIVE_PP_TERM:
        if (p->term.col < 0 || p->term.col >= n_known) return true;
        return pp_term_true(&p->term, &vals[p->term.col]);
    case SQE_HIVE_PP_AND:
        for (int i = 0; i < p->n_kids; i++)
            if (!pp_admits(p->kids[i], vals, n_known)) return false;
        return true;
    case SQE_HIVE_PP_OR:
        for (int i = 0; i < p->n_kids; i++)
            if (pp_admits(p->kids[i], vals, n_known)) return true;
        return p->n_kids == 0;
    }
    return true;
}

bool sqe_hive_prune_admits(const sqe_hive_prune *prune, const sqe_value *vals, int n_known) {
    if (!prune || !prune->pred) return true;
    return pp_admits(prune->pred, vals, n_known);
}

/* ------------------------------------------------------------- bounds */

/* Bounds while folding the tree: `none` means no non-NULL value is
 * admitted (IS NULL, or contradictory ranges); b.null_ok as in the API. */
typedef struct pp_range {
    sqe_hive_key_bounds b;
    bool none;
} pp_range;

static pp_range pp_all(void) {
    pp_range r;
    memset(&r, 0, sizeof r);
    r.b.null_ok = true;
    return r;
}

/* Raises the lower bound to (v, incl) if that is tighter. */
static void pp_raise_lo(sqe_hive_key_bounds *a, const sqe_value *v, bool incl) {
    int c = a->has_lo ? sqe_value_cmp(v, &a->lo) : 1;
    if (c > 0 || (c == 0 && !incl)) {
        a->lo = *v;
        a->lo_incl = incl;
    }
    a->has_lo = true;
}

static void pp_lower_hi(sqe_hive_key_bounds *a, const sqe_value *v, bool incl) {
    int c = a->has_hi ? sqe_value_cmp(v, &a->hi) : -1;
    if (c < 0 || (c == 0 && !incl)) {
        a->hi = *v;
        a->hi_incl = incl;
    }
    a->has_hi = true;
}

static void pp_check_empty(pp_range *r) {
    if (r->none || !r->b.has_lo || !r->b.has_hi) return;
    int c = sqe_value_cmp(&r->b.lo, &r->b.hi);
    if (c > 0 || (c == 0 && !(r->b.lo_incl && r->b.hi_incl))) r->none = true;
}

static pp_range pp_term_range(const sqe_fpred_term *t) {
    pp_range r = pp_all();
    if (t->op == SQE_FPRED_IS_NULL) {
        r.none = true;
        return r;
    }
    r.b.null_ok = false;
    if (t->op == SQE_FPRED_IS_NOT_NULL || t->op == SQE_FPRED_NE) return r;
    if (t->n_vals < 1) {
        r.none = true;
        return r;
    }
    if (t->op == SQE_FPRED_IN) {
        r.b.has_lo = r.b.has_hi = r.b.lo_incl = r.b.hi_incl = true;
        r.b.lo = r.b.hi = t->vals[0];
        for (int i = 1; i < t->n_vals; i++) {
            if (sqe_value_cmp(&t->vals[i], &r.b.lo) < 0) r.b.lo = t->vals[i];
            if (sqe_value_cmp(&t->vals[i], &r.b.hi) > 0) r.b.hi = t->vals[i];
        }
        return r;
    }
    const sqe_value *v = &t->vals[0];
    if (t->op == SQE_FPRED_EQ || t->op == SQE_FPRED_GT || t->op == SQE_FPRED_GE)
        pp_raise_lo(&r.b, v, t->op != SQE_FPRED_GT);
    if (t->op == SQE_FPRED_EQ || t->op == SQE_FPRED_LT || t->op == SQE_FPRED_LE)
        pp_lower_hi(&r.b, v, t->op != SQE_FPRED_LT);
    return r;
}

static void pp_intersect(pp_range *acc, const pp_range *k) {
    acc->b.null_ok = acc->b.null_ok && k->b.null_ok;
    if (k->none) acc->none = true;
    if (acc->none) return;
    if (k->b.has_lo) pp_raise_lo(&acc->b, &k->b.lo, k->b.lo_incl);
    if (k->b.has_hi) pp_lower_hi(&acc->b, &k->b.hi, k->b.hi_incl);
    pp_check_empty(acc);
}

static void pp_union(pp_range *acc, const pp_range *k) {
    bool null_ok = acc->b.null_ok || k->b.null_ok;
    if (k->none) {
        acc->b.null_ok = null_ok;
        return;
    }
    if (acc->none) {
        *acc = *k;
        acc->b.null_ok = null_ok;
        return;
    }
    sqe_hive_key_bounds *a = &acc->b;
    const sqe_hive_key_bounds *b = &k->b;
    if (a->has_lo && b->has_lo) {
        int c = sqe_value_cmp(&b->lo, &a->lo);
        if (c < 0 || (c == 0 && b->lo_incl)) a->lo = b->lo, a->lo_incl = b->lo_incl;
    } else {
        a->has_lo = false;
    }
    if (a->has_hi && b->has_hi) {
        int c = sqe_value_cmp(&b->hi, &a->hi);
        if (c > 0 || (c == 0 && b->hi_incl)) a->hi = b->hi, a->hi_incl = b->hi_incl;
    } else {
        a->has_hi = false;
    }
    a->null_ok = null_ok;
}

static pp_range pp_bounds(const sqe_hive_ppred *p, int key) {
    if (p->kind == SQE_HIVE_PP_TERM) return p->term.col == key ? pp_term_range(&p->term) : pp_all();
    pp_range acc = pp_all();
    if (p->kind == SQE_HIVE_PP_OR) acc.none = true, acc.b.null_ok = false;
    for (int i = 0; i < p->n_kids; i++) {
        pp_range k = pp_bounds(p->kids[i], key);
        if (p->kind == SQE_HIVE_PP_AND)
            pp_intersect(&acc, &k);
        else
            pp_union(&acc, &k);
    }
    return acc;
}

bool sqe_hive_prune_key_bounds(const sqe_hive_prune *prune, int key, sqe_hive_key_bounds *out) {
    pp_range r = prune && prune->pred ? pp_bounds(prune->pred, key) : pp_all();
    *out = r.b;
    out->empty = r.none;
    return !r.none || out->null_ok;
}
