/*
 * dyn_filter.c - the dynamic filter (format.h): a bound on one column that
 * TopNExec tightens while the query runs and readers and scans use to skip
 * rows that cannot reach the result.
 *
 * Invariants. `version` increments (under `mu`, after the new state is in
 * place) whenever `has`/`bound` change, and never goes back, so a user
 * whose copy has the current version holds the current bound, and one that
 * sees another version copies the state under `mu`.
 * The bound only tightens: a value that does not sort strictly before the
 * current bound is ignored, so publishers never need to agree on an order
 * (each TopN state's k-th row is a valid bound on its own, and the
 * tightest of valid bounds is valid).
 *
 * Order. sqe_dyn_filter_cmp is the order TopNExec sorts by
 * (sqe_key_cmp_sort in exec/): NULLs first or last as the key says, NaN
 * after every number with NULLS LAST and before every number with NULLS
 * FIRST, then DESC reverses values. Values are compared with
 * sqe_value_cmp (NaN largest).
 */
#include "format/format.h"

#include <math.h>
#include <string.h>

sqe_dyn_filter *sqe_dyn_filter_new(int col, sqe_type type, bool desc, bool nulls_first) {
    sqe_dyn_filter *f = sqe_calloc(1, sizeof *f);
    f->col = col;
    f->type = type;
    f->desc = desc;
    f->nulls_first = nulls_first;
    atomic_init(&f->version, 0);
    pthread_mutex_init(&f->mu, NULL);
    f->bound = sqe_value_null(type);
    return f;
}

void sqe_dyn_filter_free(sqe_dyn_filter *f) {
    if (!f) return;
    pthread_mutex_destroy(&f->mu);
    sqe_free(f->buf);
    sqe_free(f);
}

void sqe_dyn_filter_reset(sqe_dyn_filter *f) {
    pthread_mutex_lock(&f->mu);
    f->has = false;
    f->bound = sqe_value_null(f->type);
    atomic_fetch_add(&f->version, 1);
    pthread_mutex_unlock(&f->mu);
}

static bool dyn_is_nan(const sqe_value *v) {
    return !v->is_null && ((v->type.id == SQE_T_DOUBLE && isnan(v->v.d)) ||
                           (v->type.id == SQE_T_REAL && isnan(v->v.f)));
}

int sqe_dyn_filter_cmp(const sqe_dyn_filter *f, const sqe_value *a, const sqe_value *b) {
    if (a->is_null || b->is_null) {
        if (a->is_null && b->is_null) return 0;
        return (a->is_null ? 1 : -1) * (f->nulls_first ? -1 : 1);
    }
    int c = sqe_value_cmp(a, b);
    if (c != 0 && f->nulls_first && dyn_is_nan(a) != dyn_is_nan(b)) c = dyn_is_nan(a) ? -1 : 1;
    return f->desc ? -c : c;
}

/* Copies v's string bytes into *buf (grown) and points v at them. */
static void dyn_own_string(sqe_value *v, char **buf, size_t *cap) {
    if (v->is_null || (v->type.id != SQE_T_VARCHAR && v->type.id != SQE_T_VARBINARY)) return;
    size_t n = v->v.s.len;
    if (*cap < n + 1) {
        sqe_free(*buf);
        *cap = n + n / 2 + 16;
        *buf = sqe_malloc(*cap);
    }
    if (n) memcpy(*buf, v->v.s.ptr, n);
    v->v.s.ptr = *buf;
}

void sqe_dyn_filter_publish(sqe_dyn_filter *f, const sqe_value *v) {
    pthread_mutex_lock(&f->mu);
    if (!f->has || sqe_dyn_filter_cmp(f, v, &f->bound) < 0) {
        f->bound = *v;
        f->bound.type = f->type;
        dyn_own_string(&f->bound, &f->buf, &f->cap);
        f->has = true;
        atomic_fetch_add(&f->version, 1);
    }
    pthread_mutex_unlock(&f->mu);
}

bool sqe_dyn_filter_load(sqe_dyn_filter *f, sqe_dyn_bound *b) {
    if (atomic_load_explicit(&f->version, memory_order_acquire) == b->version) return b->has;
    pthread_mutex_lock(&f->mu);
    b->version = atomic_load(&f->version);
    b->has = f->has;
    b->v = f->bound;
    dyn_own_string(&b->v, &b->buf, &b->cap);
    pthread_mutex_unlock(&f->mu);
    return b->has;
}

void sqe_dyn_bound_free(sqe_dyn_bound *b) {
    sqe_free(b->buf);
    memset(b, 0, sizeof *b);
}
