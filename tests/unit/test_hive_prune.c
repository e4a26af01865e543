/*
 * test_hive_prune.c - the partition predicate (hive/prune.c): admits with
 * partially known values, SQL NULL semantics, AND/OR, and the per-key
 * bounds enumerating sources (projection) use.
 */
#include "hive/hive.h"
#include "unit.h"

static sqe_hive_ppred term(int key, sqe_fpred_op op, int n, const sqe_value *vals) {
    sqe_hive_ppred p = {.kind = SQE_HIVE_PP_TERM};
    p.term.col = key;
    p.term.op = op;
    p.term.n_vals = n;
    p.term.vals = vals;
    return p;
}

static sqe_hive_ppred junction(sqe_hive_ppred_kind kind, int n, const sqe_hive_ppred *const *kids) {
    sqe_hive_ppred p = {.kind = kind, .n_kids = n, .kids = kids};
    return p;
}

static void test_admits(void) {
    sqe_value v5 = sqe_value_int(SQE_T_INTEGER, 5), v9 = sqe_value_int(SQE_T_INTEGER, 9);
    sqe_value in[2] = {sqe_value_int(SQE_T_INTEGER, 1), sqe_value_int(SQE_T_INTEGER, 3)};
    /* k0 >= 5 AND (k1 IN (1, 3) OR k1 IS NULL) */
    sqe_hive_ppred ge = term(0, SQE_FPRED_GE, 1, &v5), inn = term(1, SQE_FPRED_IN, 2, in),
                   isn = term(1, SQE_FPRED_IS_NULL, 0, NULL);
    const sqe_hive_ppred *or_kids[] = {&inn, &isn};
    sqe_hive_ppred orp = junction(SQE_HIVE_PP_OR, 2, or_kids);
    const sqe_hive_ppred *and_kids[] = {&ge, &orp};
    sqe_hive_ppred andp = junction(SQE_HIVE_PP_AND, 2, and_kids);
    sqe_hive_prune pr = {&andp};

    sqe_value vals[2] = {v9, in[1]};
    CHECK(sqe_hive_prune_admits(&pr, vals, 0)); /* nothing known yet */
    CHECK(sqe_hive_prune_admits(&pr, vals, 1));
    CHECK(sqe_hive_prune_admits(&pr, vals, 2));
    vals[1] = sqe_value_int(SQE_T_INTEGER, 2);
    CHECK(!sqe_hive_prune_admits(&pr, vals, 2));
    vals[1] = sqe_value_null((sqe_type){.id = SQE_T_INTEGER});
    CHECK(sqe_hive_prune_admits(&pr, vals, 2)); /* IS NULL */
    vals[0] = sqe_value_int(SQE_T_INTEGER, 4);
    CHECK(!sqe_hive_prune_admits(&pr, vals, 1)); /* 4 >= 5 is false at level 1 */
    vals[0] = sqe_value_null((sqe_type){.id = SQE_T_INTEGER});
    CHECK(!sqe_hive_prune_admits(&pr, vals, 1)); /* NULL >= 5 is not true */
    CHECK(sqe_hive_prune_admits(NULL, vals, 2));

    /* <> rejects the NULL partition too */
    sqe_hive_ppred ne = term(0, SQE_FPRED_NE, 1, &v5);
    sqe_hive_prune prn = {&ne};
    CHECK(!sqe_hive_prune_admits(&prn, vals, 1));
    vals[0] = v9;
    CHECK(sqe_hive_prune_admits(&prn, vals, 1));
    vals[0] = v5;
    CHECK(!sqe_hive_prune_admits(&prn, vals, 1));
}

static void test_bounds(void) {
    sqe_value d1 = sqe_value_int(SQE_T_DATE, 100), d2 = sqe_value_int(SQE_T_DATE, 110),
              d3 = sqe_value_int(SQE_T_DATE, 200);
    sqe_hive_key_bounds b;
    /* k0 >= 100 AND k0 < 110 */
    sqe_hive_ppred ge = term(0, SQE_FPRED_GE, 1, &d1), lt = term(0, SQE_FPRED_LT, 1, &d2);
    const sqe_hive_ppred *k1[] = {&ge, &lt};
    sqe_hive_ppred andp = junction(SQE_HIVE_PP_AND, 2, k1);
    sqe_hive_prune pr = {&andp};
    CHECK(sqe_hive_prune_key_bounds(&pr, 0, &b));
    CHECK(!b.empty && b.has_lo && b.lo_incl && b.lo.v.i == 100);
    CHECK(b.has_hi && !b.hi_incl && b.hi.v.i == 110 && !b.null_ok);
    CHECK(sqe_hive_prune_key_bounds(&pr, 1, &b)); /* other key: unbounded */
    CHECK(!b.has_lo && !b.has_hi && b.null_ok);

    /* (k0 = 100 OR k0 = 200): hull [100, 200] */
    sqe_hive_ppred e1 = term(0, SQE_FPRED_EQ, 1, &d1), e3 = term(0, SQE_FPRED_EQ, 1, &d3);
    const sqe_hive_ppred *k2[] = {&e1, &e3};
    sqe_hive_ppred orp = junction(SQE_HIVE_PP_OR, 2, k2);
    pr.pred = &orp;
    CHECK(sqe_hive_prune_key_bounds(&pr, 0, &b));
    CHECK(b.lo.v.i == 100 && b.hi.v.i == 200 && b.lo_incl && b.hi_incl && !b.null_ok);

    /* k0 = 200 AND k0 < 110: nothing */
    const sqe_hive_ppred *k3[] = {&e3, &lt};
    sqe_hive_ppred none = junction(SQE_HIVE_PP_AND, 2, k3);
    pr.pred = &none;
    CHECK(!sqe_hive_prune_key_bounds(&pr, 0, &b));

    /* k0 IS NULL: no value, NULL allowed; OR with a range: that range + NULL */
    sqe_hive_ppred isn = term(0, SQE_FPRED_IS_NULL, 0, NULL);
    pr.pred = &isn;
    CHECK(sqe_hive_prune_key_bounds(&pr, 0, &b));
    CHECK(b.empty && b.null_ok);
    const sqe_hive_ppred *k4[] = {&isn, &ge};
    sqe_hive_ppred orn = junction(SQE_HIVE_PP_OR, 2, k4);
    pr.pred = &orn;
    CHECK(sqe_hive_prune_key_bounds(&pr, 0, &b));
    CHECK(!b.empty && b.null_ok && b.has_lo && b.lo.v.i == 100 && !b.has_hi);

    /* IN hull */
    sqe_value in[3] = {d3, d1, d2};
    sqe_hive_ppred inn = term(0, SQE_FPRED_IN, 3, in);
    pr.pred = &inn;
    CHECK(sqe_hive_prune_key_bounds(&pr, 0, &b));
    CHECK(b.lo.v.i == 100 && b.hi.v.i == 200);
}

int main(void) {
    RUN(test_admits);
    RUN(test_bounds);
    return unit_report();
}
