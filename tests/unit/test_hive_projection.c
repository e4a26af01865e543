/*
 * test_hive_projection.c - partition projection (hive/projection.c) and the
 * Joda pattern entry points it uses (func/datefmt.c): formatting and
 * parsing, NOW arithmetic, calendar steps (month-end clamping, leap
 * years), narrowing by key bounds before anything is built (a range of
 * 300 million one-second candidates with an equality builds one), the
 * injected values a predicate implies, and the limits.
 */
#include "func/func.h"
#include "hive/hive_int.h"
#include "unit.h"

#include <time.h>

static const sqe_type k_str = {.id = SQE_T_VARCHAR, .str_kind = SQE_STRKIND_STRING};

/* A manifest with partition keys `names` of types `types` and Parameters
 * given as key, value pairs (NULL-terminated). */
static void manifest(hive_manifest *m, int n_keys, const char *const *names, const sqe_type *types,
                     const char *const *params) {
    memset(m, 0, sizeof *m);
    m->name = sqe_strdup("t");
    m->location = sqe_strdup("/data/t/");
    m->n_part_keys = n_keys;
    m->part_keys = sqe_calloc((size_t)n_keys, sizeof *m->part_keys);
    for (int i = 0; i < n_keys; i++) {
        m->part_keys[i].name = sqe_strdup(names[i]);
        m->part_keys[i].type = types[i];
    }
    hive_kv_list_add(&m->params, "projection.enabled", "true");
    for (int i = 0; params[i]; i += 2) hive_kv_list_add(&m->params, params[i], params[i + 1]);
}

typedef struct projected {
    sqe_arena *arena;
    sqe_hive_partition *parts;
    size_t n;
    sqe_error err;
    bool ok;
} projected;

static projected project(const hive_manifest *m, const sqe_hive_prune *prune) {
    projected r = {sqe_arena_new(0), NULL, 0, {0}, false};
    sqe_error_clear(&r.err);
    hive_projection *pj = NULL;
    if (!hive_projection_build(m, NULL, &pj, &r.err)) return r;
    sqe_hive_table t = {.name = "t", .location = "/data/t/", .n_part_keys = m->n_part_keys};
    r.ok = hive_projection_partitions(pj, &t, prune, r.arena, &r.parts, &r.n, NULL, &r.err);
    hive_projection_free(pj);
    return r;
}

static void test_joda(void) {
    sqe_error err;
    sqe_error_clear(&err);
    sqe_joda_pattern *p = sqe_joda_compile("yyyy/MM/dd/HH", &err);
    CHECK(p != NULL);
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    int64_t us = ((int64_t)sqe_date_from_ymd(2026, 1, 5) * 86400 + 7 * 3600) * 1000000;
    sqe_joda_print(p, us, &sb);
    CHECK_STR(sb.data, "2026/01/05/07");
    int64_t back = 0;
    CHECK(sqe_joda_parse(p, "t", "2026/01/05/07", 13, &back, &err) && back == us);
    CHECK(!sqe_joda_parse(p, "t", "2026-01-05", 10, &back, &err));
    CHECK_CONTAINS(err.msg, "Invalid format");
    sqe_strbuf_free(&sb);
    sqe_joda_free(p);
    CHECK(sqe_joda_compile("yyyy-qq", &err) == NULL);
    CHECK_CONTAINS(err.msg, "Illegal pattern component: qq");
}

static void test_months_and_leap(void) {
    const char *names[] = {"dt"};
    const char *params[] = {"projection.dt.type",
                            "date",
                            "projection.dt.range",
                            "2024-01-31,2024-04-30",
                            "projection.dt.format",
                            "yyyy-MM-dd",
                            "projection.dt.interval.unit",
                            "MONTHS",
                            NULL};
    hive_manifest m;
    manifest(&m, 1, names, &k_str, params);
    projected r = project(&m, NULL);
    CHECK(r.ok && r.n == 4);
    if (r.ok && r.n == 4) {
        CHECK_STR(r.parts[1].path, "/data/t/dt=2024-02-29/");
        CHECK_STR(r.parts[2].path, "/data/t/dt=2024-03-31/");
        CHECK_STR(r.parts[3].path, "/data/t/dt=2024-04-30/");
    }
    sqe_arena_free(r.arena);
    hive_manifest_free(&m);
}

static void test_now(void) {
    const char *names[] = {"h"};
    const char *params[] = {"projection.h.type",
                            "date",
                            "projection.h.range",
                            "NOW-5HOURS,NOW",
                            "projection.h.format",
                            "yyyy-MM-dd HH",
                            "projection.h.interval.unit",
                            "HOURS",
                            NULL};
    hive_manifest m;
    manifest(&m, 1, names, &k_str, params);
    int64_t before = (int64_t)time(NULL);
    projected r = project(&m, NULL);
    CHECK(r.ok && r.n == 6);
    if (r.ok && r.n == 6 && before % 3600 < 3590) { /* not across an hour change */
        char want[64];
        time_t now = (time_t)before;
        struct tm tmv;
        gmtime_r(&now, &tmv);
        strftime(want, sizeof want, "/data/t/h=%Y-%m-%d %H/", &tmv);
        CHECK_STR(r.parts[5].path, want);
        now -= 5 * 3600;
        gmtime_r(&now, &tmv);
        strftime(want, sizeof want, "/data/t/h=%Y-%m-%d %H/", &tmv);
        CHECK_STR(r.parts[0].path, want);
    }
    sqe_arena_free(r.arena);
    hive_manifest_free(&m);

    /* NOW+1YEARS on a yearly format: years - 1 .. + 1 */
    const char *p2[] = {"projection.h.type",
                        "date",
                        "projection.h.range",
                        "now-1year,NOW+1YEARS",
                        "projection.h.format",
                        "yyyy",
                        NULL};
    manifest(&m, 1, names, &k_str, p2);
    r = project(&m, NULL);
    CHECK(r.ok && r.n == 3);
    sqe_arena_free(r.arena);
    hive_manifest_free(&m);
}

/* 2016..2025 at one-second steps: 315 million candidates. An equality
 * builds one (the walk would stop at HIVE_PROJECTION_MAX_VISITS if the
 * bounds did not narrow the range first); no predicate is refused. */
static void test_narrowing(void) {
    const char *names[] = {"ts"};
    const char *params[] = {"projection.ts.type",
                            "date",
                            "projection.ts.range",
                            "2016-01-01 00:00:00,2025-12-31 23:59:59",
                            "projection.ts.format",
                            "yyyy-MM-dd HH:mm:ss",
                            "projection.ts.interval.unit",
                            "SECONDS",
                            NULL};
    hive_manifest m;
    manifest(&m, 1, names, &k_str, params);
    sqe_value v = sqe_value_string("2021-06-15 12:34:56", 19);
    sqe_hive_ppred eq = {.kind = SQE_HIVE_PP_TERM};
    eq.term.col = 0;
    eq.term.op = SQE_FPRED_EQ;
    eq.term.n_vals = 1;
    eq.term.vals = &v;
    sqe_hive_prune pr = {&eq};
    projected r = project(&m, &pr);
    CHECK(r.ok && r.n == 1);
    if (r.ok && r.n == 1) CHECK_STR(r.parts[0].path, "/data/t/ts=2021-06-15 12%3A34%3A56/");
    sqe_arena_free(r.arena);

    /* a range of ten seconds */
    sqe_value lo = sqe_value_string("2021-06-15 12:34:50", 19);
    sqe_hive_ppred ge = eq;
    ge.term.op = SQE_FPRED_GE;
    ge.term.vals = &lo;
    sqe_hive_ppred le = eq;
    le.term.op = SQE_FPRED_LT;
    const sqe_hive_ppred *kids[] = {&ge, &le};
    sqe_hive_ppred andp = {.kind = SQE_HIVE_PP_AND, .n_kids = 2, .kids = kids};
    pr.pred = &andp;
    r = project(&m, &pr);
    CHECK(r.ok && r.n == 6);
    sqe_arena_free(r.arena);

    r = project(&m, NULL);
    CHECK(!r.ok);
    CHECK_CONTAINS(r.err.msg, "HIVE_PROJECTION_MAX_PARTITIONS");
    sqe_arena_free(r.arena);

    /* a predicate the bounds cannot narrow: the walk stops at the limit */
    sqe_hive_ppred ne = eq;
    ne.term.op = SQE_FPRED_NE;
    pr.pred = &ne;
    r = project(&m, &pr);
    CHECK(!r.ok);
    CHECK_CONTAINS(r.err.msg, "more than 1000000 partitions");
    sqe_arena_free(r.arena);
    hive_manifest_free(&m);
}

static void test_injected(void) {
    const char *names[] = {"dev", "n"};
    const sqe_type types[] = {k_str, {.id = SQE_T_INTEGER}};
    const char *params[] = {"projection.dev.type",
                            "injected",
                            "projection.n.type",
                            "integer",
                            "projection.n.range",
                            "1,2",
                            "storage.location.template",
                            "s3://b/p/${n}/x/${dev}",
                            NULL};
    hive_manifest m;
    manifest(&m, 2, names, types, params);
    sqe_free(m.location);
    m.location = sqe_strdup("s3://b/t/"); /* the template's store */
    /* (dev = 'b' OR dev IN ('a', 'b')) AND n = 2 */
    sqe_value vb = sqe_value_string("b", 1), vab[2] = {sqe_value_string("a", 1), vb},
              two = sqe_value_int(SQE_T_INTEGER, 2);
    sqe_hive_ppred eq = {.kind = SQE_HIVE_PP_TERM}, in, neq;
    eq.term.col = 0, eq.term.op = SQE_FPRED_EQ, eq.term.n_vals = 1, eq.term.vals = &vb;
    in = eq, in.term.op = SQE_FPRED_IN, in.term.n_vals = 2, in.term.vals = vab;
    neq = eq, neq.term.col = 1, neq.term.vals = &two;
    const sqe_hive_ppred *or_kids[] = {&eq, &in};
    sqe_hive_ppred orp = {.kind = SQE_HIVE_PP_OR, .n_kids = 2, .kids = or_kids};
    const sqe_hive_ppred *and_kids[] = {&neq, &orp};
    sqe_hive_ppred andp = {.kind = SQE_HIVE_PP_AND, .n_kids = 2, .kids = and_kids};
    sqe_hive_prune pr = {&andp};
    projected r = project(&m, &pr);
    CHECK(r.ok && r.n == 2);
    if (r.ok && r.n == 2) {
        CHECK_STR(r.parts[0].path, "s3://b/p/2/x/a/");
        CHECK_STR(r.parts[1].path, "s3://b/p/2/x/b/");
    }
    sqe_arena_free(r.arena);
    pr.pred = &neq; /* no constant for dev: its NULL partition (SPEC §7.2) */
    r = project(&m, &pr);
    CHECK(r.ok && r.n == 1);
    if (r.ok && r.n == 1) {
        CHECK(r.parts[0].values[0].is_null);
        CHECK(sqe_str_ends_with(r.parts[0].path, "/__HIVE_DEFAULT_PARTITION__/"));
    }
    sqe_arena_free(r.arena);
    hive_manifest_free(&m);
}

int main(void) {
    RUN(test_joda);
    RUN(test_months_and_leap);
    RUN(test_now);
    RUN(test_narrowing);
    RUN(test_injected);
    return unit_report();
}
