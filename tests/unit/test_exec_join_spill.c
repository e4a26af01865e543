/*
 * test_exec_join_spill.c - the grace hash join (join_spill.c): every join
 * type run under a memory limit small enough to make the build side spill,
 * compared with the same plan run without a limit, on 1, 2 and 4 threads
 * (parallel builds and probes over partitioned CSV tables): integer and
 * string keys, two keys, NULL keys on both sides, duplicate keys, residuals,
 * two spilled joins stacked in one pipeline,
 * null-aware IN / NOT IN (correlated, uncorrelated, with a residual), the
 * scalar-subquery check; re-partitioning (a partition that does not fit
 * alone), the errors when nothing can help (one key value too large, an
 * uncorrelated NOT IN with a residual), and that spill files are counted
 * (EXPLAIN ANALYZE) and never left behind.
 *
 * Results are compared as multisets: a row count and a sum of per-row
 * hashes of the printed rows (join output order is unspecified).
 */
#include "exec/join_table.h"
#include "sql/sql.h"
#include "unit.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define UNDER_SAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define UNDER_SAN 1
#endif
#endif
#ifndef UNDER_SAN
#define UNDER_SAN 0
#endif

static sqe_arena *A;
static char tmpdir[256];
static char spilldir[300];

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
static bool k_ne(const sqe_func_binding *b, sqe_vector *const *args, const uint16_t *sel,
                 uint32_t n, sqe_vector *out, sqe_error *err) {
    FOR_SEL(i, r) {
        if (!valid(args[0], r) || !valid(args[1], r)) {
            sqe_vector_set_null(out, r);
            continue;
        }
        SQE_VEC_DATA(out, uint8_t)
        [r] = SQE_VEC_DATA(args[0], int64_t)[r] != SQE_VEC_DATA(args[1], int64_t)[r];
    }
    return true;
}

static sqe_expr *col(int c, sqe_type t) {
    return sqe_expr_column(A, c, t, sqe_arena_sprintf(A, "c%d", c));
}
static sqe_expr *bcol(int c) {
    return col(c, T_BIGINT);
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
static sqe_expr *add(sqe_expr *a, sqe_expr *b) {
    return call2("+", k_add, T_BIGINT, a, b);
}
static sqe_expr *mod(sqe_expr *a, sqe_expr *b) {
    return call2("%", k_mod, T_BIGINT, a, b);
}
static sqe_expr *ne(sqe_expr *a, sqe_expr *b) {
    return call2("<>", k_ne, T_BOOL, a, b);
}

/* ------------------------------------------------------------ plans */

static sqe_plan *node(sqe_plan_kind kind, int n_children, int n_out, const sqe_type *types) {
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
        p->out_names[i] = sqe_arena_sprintf(A, "c%d", i);
    }
    p->est_rows = -1;
    return p;
}

static sqe_plan *join(sqe_join_type jt, sqe_plan *l, sqe_plan *r, int n_keys, const int *lc,
                      const int *rc, sqe_expr *residual) {
    sqe_type types[32];
    int n = 0;
    for (int c = 0; c < l->n_out; c++) types[n++] = l->out_types[c];
    if (jt == SQE_JT_MARK)
        types[n++] = T_BOOL;
    else if (jt != SQE_JT_SEMI && jt != SQE_JT_ANTI)
        for (int c = 0; c < r->n_out; c++) types[n++] = r->out_types[c];
    sqe_plan *p = node(SQE_PLAN_HASH_JOIN, 2, n, types);
    p->children[0] = l;
    p->children[1] = r;
    p->u.join.type = jt;
    p->u.join.n_keys = n_keys;
    p->u.join.left_keys = sqe_arena_alloc(A, (size_t)(n_keys + 1) * sizeof(sqe_expr *));
    p->u.join.right_keys = sqe_arena_alloc(A, (size_t)(n_keys + 1) * sizeof(sqe_expr *));
    for (int k = 0; k < n_keys; k++) {
        p->u.join.left_keys[k] = col(lc[k], l->out_types[lc[k]]);
        p->u.join.right_keys[k] = col(rc[k], r->out_types[rc[k]]);
    }
    p->u.join.residual = residual;
    return p;
}

static sqe_plan *join1(sqe_join_type jt, sqe_plan *l, sqe_plan *r, int lc, int rc, sqe_expr *res) {
    return join(jt, l, r, 1, &lc, &rc, res);
}

/* ------------------------------------------------------------ tables */

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

/* A table (a BIGINT, b BIGINT, s STRING) of files under tmpdir/name. */
static sqe_hive_table *make_table(sqe_hive_catalog *cat, const char *name) {
    sqe_error err;
    sqe_error_clear(&err);
    char *sql = sqe_asprintf(
        "CREATE EXTERNAL TABLE lake.default.%s (a BIGINT, b BIGINT, s STRING) "
        "ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS TEXTFILE LOCATION '%s/%s'",
        name, tmpdir, name);
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

static sqe_plan *scan3(sqe_hive_table *t, const char *name) {
    sqe_type types[3] = {T_BIGINT, T_BIGINT, T_VARCHAR};
    sqe_plan *p = node(SQE_PLAN_SCAN, 0, 3, types);
    p->u.scan.table = t;
    p->u.scan.table_name = sqe_arena_strdup(A, name);
    p->u.scan.n_cols = 3;
    p->u.scan.cols = sqe_arena_alloc(A, 3 * sizeof(int));
    for (int i = 0; i < 3; i++) p->u.scan.cols[i] = i;
    return p;
}

/* Writes n rows into `files` files of tmpdir/name; row(i, sb) prints one
 * line. */
static void write_table(const char *name, int n, int files, void (*row)(int i, sqe_strbuf *sb)) {
    for (int f = 0; f < files; f++) {
        sqe_strbuf sb;
        sqe_strbuf_init(&sb);
        for (int i = f; i < n; i += files) row(i, &sb);
        char rel[128];
        snprintf(rel, sizeof rel, "%s/part-%d.csv", name, f);
        write_file(rel, sb.data ? sb.data : "");
        sqe_strbuf_free(&sb);
    }
}

/* probe (id, k, s): k NULL every 97th row, else keys 0..29999 about twice
 * each; s a short or long string of k % 5000 (NULL every 89th row). */
static void probe_row(int i, sqe_strbuf *sb) {
    long long k = (long long)i * 7919 % 30000;
    if (i % 97 == 0)
        sqe_strbuf_printf(sb, "%d,\\N,", i);
    else
        sqe_strbuf_printf(sb, "%d,%lld,", i, k);
    if (i % 89 == 0)
        sqe_strbuf_puts(sb, "\\N\n");
    else if (k % 3 == 0)
        sqe_strbuf_printf(sb, "k%lld\n", k % 5000);
    else
        sqe_strbuf_printf(sb, "a longer string key number %lld\n", k % 5000);
}

/* build (k, v, s): k NULL every 101st row, else i % 40000 (keys below
 * 10000 twice; 30000.. match no probe row); s as probe's, of k % 6000. */
static void build_row(int i, sqe_strbuf *sb) {
    long long k = i % 40000;
    if (i % 101 == 0)
        sqe_strbuf_printf(sb, "\\N,%d,", i);
    else
        sqe_strbuf_printf(sb, "%lld,%d,", k, i);
    if (i % 83 == 0)
        sqe_strbuf_puts(sb, "\\N\n");
    else if (k % 3 == 0)
        sqe_strbuf_printf(sb, "k%lld\n", k % 6000);
    else
        sqe_strbuf_printf(sb, "a longer string key number %lld\n", k % 6000);
}

/* unique (k, v, s): k = i, no NULLs (scalar subquery build sides). */
static void unique_row(int i, sqe_strbuf *sb) {
    sqe_strbuf_printf(sb, "%d,%d,unique value number %d\n", i, i, i);
}

/* one (k, v, s): every row has key 7. */
static void one_key_row(int i, sqe_strbuf *sb) {
    sqe_strbuf_printf(sb, "7,%d,the same key on every row %d\n", i, i);
}

/* ------------------------------------------------------------ running */

typedef struct digest {
    char *error; /* NULL: ran */
    uint64_t rows, sum;
} digest;

static uint64_t t_min_bytes = 1;

static digest run_digest(const sqe_plan *p, int threads, sqe_threadpool *pool, size_t limit) {
    digest d = {0};
    sqe_exec_options o;
    memset(&o, 0, sizeof o);
    o.threads = threads;
    o.pool = threads > 1 ? pool : NULL;
    o.memory_limit = limit;
    o.parallel_min_bytes = t_min_bytes;
    o.temp_dir = spilldir;
    sqe_resultset *rs = NULL;
    sqe_error err;
    sqe_error_clear(&err);
    if (!sqe_exec_run(p, &o, &rs, &err)) {
        d.error = sqe_asprintf("ERROR %s: %s", sqe_error_class_name(err.cls), err.msg);
        return d;
    }
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    for (size_t bi = 0; bi < rs->batches.len; bi++) {
        sqe_batch *b = rs->batches.items[bi];
        for (uint32_t r = 0; r < b->n_rows; r++) {
            sb.len = 0;
            for (int c = 0; c < rs->n_cols; c++) {
                if (c) sqe_strbuf_putc(&sb, '|');
                sqe_value v;
                sqe_vector_get_value(b->cols[c], r, &v);
                sqe_value_format(&v, &sb);
            }
            d.sum += sqe_hash_u64(sqe_hash_bytes(sb.data, sb.len, 77));
            d.rows++;
        }
    }
    sqe_strbuf_free(&sb);
    sqe_resultset_free(rs);
    return d;
}

/* EXPLAIN ANALYZE's "Query: ..., spilled N files, M bytes": N (0: none). */
static long long spill_files(const sqe_plan *p, int threads, sqe_threadpool *pool, size_t limit) {
    sqe_exec_options o;
    memset(&o, 0, sizeof o);
    o.threads = threads;
    o.pool = threads > 1 ? pool : NULL;
    o.memory_limit = limit;
    o.parallel_min_bytes = t_min_bytes;
    o.temp_dir = spilldir;
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    sqe_error err;
    sqe_error_clear(&err);
    long long files = -1;
    if (sqe_exec_explain_analyze(p, &o, &sb, &err)) {
        const char *s = sb.data ? strstr(sb.data, ", spilled ") : NULL;
        files = s ? atoll(s + strlen(", spilled ")) : 0;
    } else {
        fprintf(stderr, "explain analyze: %s\n", err.msg);
    }
    sqe_strbuf_free(&sb);
    return files;
}

/* Nothing is left in the spill folder (files are unlinked at creation). */
static void check_spill_dir_empty(void) {
    DIR *d = opendir(spilldir);
    CHECK(d != NULL);
    if (!d) return;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    CHECK(n == 0);
}

/* Runs p without a limit (the reference) and with `limit` on 1, 2 and 4
 * threads; every run must give the reference's rows. */
static void check_spilled(const char *what, const sqe_plan *p, sqe_threadpool *pool, size_t limit) {
    digest ref = run_digest(p, 1, pool, 0);
    if (ref.error) {
        fprintf(stderr, "%s: reference failed: %s\n", what, ref.error);
        CHECK(ref.error == NULL);
        sqe_free(ref.error);
        return;
    }
    /* under sanitizers 4 threads only (the races), to keep the run short */
    static const int threads[3] = {4, 1, 2};
    for (int i = 0; i < (UNDER_SAN ? 1 : 3); i++) {
        digest d = run_digest(p, threads[i], pool, limit);
        bool same = !d.error && d.rows == ref.rows && d.sum == ref.sum;
        if (!same)
            fprintf(stderr, "%s, %d threads: %s rows=%llu (want %llu)\n", what, threads[i],
                    d.error ? d.error : "", (unsigned long long)d.rows,
                    (unsigned long long)ref.rows);
        CHECK(same);
        sqe_free(d.error);
    }
}

/* ------------------------------------------------------------ tests */

static sqe_hive_catalog *cat;
static sqe_hive_table *t_probe, *t_build, *t_unique, *t_one, *t_big;
static sqe_threadpool *pool;
static int n_probe = 60000, n_build = 50000;
static const size_t LIMIT = (size_t)4 << 20;

static const char *JT_NAME[7] = {"INNER", "LEFT", "RIGHT", "FULL", "SEMI", "ANTI", "MARK"};

static void test_every_type(void) {
    sqe_plan *pr = scan3(t_probe, "probe"), *bu = scan3(t_build, "build");
    /* The limit really makes the build side spill, on every thread count. */
    sqe_plan *inner = join1(SQE_JT_INNER, pr, bu, 1, 0, NULL);
    CHECK(spill_files(inner, 1, pool, 0) == 0);
    for (int th = 1; th <= 4; th *= 2) CHECK(spill_files(inner, th, pool, LIMIT) > 0);
    for (int jt = SQE_JT_INNER; jt <= SQE_JT_MARK; jt++) {
        char what[96];
        snprintf(what, sizeof what, "%s on k", JT_NAME[jt]);
        check_spilled(what, join1((sqe_join_type)jt, pr, bu, 1, 0, NULL), pool, LIMIT);
        /* residual over both sides: id + v not a multiple of 3 */
        sqe_expr *res = ne(mod(add(bcol(0), bcol(4)), ci(3)), ci(0));
        snprintf(what, sizeof what, "%s on k with a residual", JT_NAME[jt]);
        check_spilled(what, join1((sqe_join_type)jt, pr, bu, 1, 0, res), pool, LIMIT);
        if (UNDER_SAN && jt != SQE_JT_FULL && jt != SQE_JT_ANTI) continue;
        /* string keys (short and long, NULLs) */
        snprintf(what, sizeof what, "%s on s", JT_NAME[jt]);
        check_spilled(what, join1((sqe_join_type)jt, pr, bu, 2, 2, NULL), pool, LIMIT);
    }
    /* Two keys, a bigint and a string. */
    int lc[2] = {1, 2}, rc[2] = {0, 2};
    for (int jt = SQE_JT_INNER; jt <= SQE_JT_MARK; jt += UNDER_SAN ? 3 : 1)
        check_spilled("two keys", join((sqe_join_type)jt, pr, bu, 2, lc, rc, NULL), pool, LIMIT);
    check_spill_dir_empty();
}

/* Two spilled joins stacked in one pipeline: the outer join's probe rows
 * come from the inner join, partitions of the inner one included; copies
 * that end early wait at both levels. */
static void test_stacked(void) {
    sqe_plan *pr = scan3(t_probe, "probe"), *bu = scan3(t_build, "build"),
             *un = scan3(t_unique, "unique");
    sqe_plan *inner = join1(SQE_JT_LEFT, pr, bu, 1, 0, NULL);
    /* (probe LEFT build) FULL unique ON build.v = unique.k */
    sqe_plan *p = join1(SQE_JT_FULL, inner, un, 4, 0, NULL);
    size_t limit = (size_t)7 << 20; /* both builds: about 8 MB */
    CHECK(spill_files(p, 4, pool, limit) > 0);
    check_spilled("stacked LEFT then FULL", p, pool, limit);
    p = join1(SQE_JT_ANTI, join1(SQE_JT_RIGHT, pr, bu, 1, 0, NULL), un, 4, 0, NULL);
    check_spilled("stacked RIGHT then ANTI", p, pool, limit);
}

/* LIMIT over a streaming spilled join (pipeline copies push to the output
 * and stop once it is satisfied): exactly LIMIT rows. */
static void test_limit(void) {
    sqe_plan *j = join1(SQE_JT_FULL, scan3(t_probe, "probe"), scan3(t_build, "build"), 1, 0, NULL);
    sqe_plan *p = node(SQE_PLAN_LIMIT, 1, j->n_out, j->out_types);
    p->children[0] = j;
    p->u.limit.has_limit = true;
    p->u.limit.limit = 10;
    for (int th = 1; th <= 4; th *= 2) {
        digest d = run_digest(p, th, pool, LIMIT);
        CHECK(!d.error && d.rows == 10);
        sqe_free(d.error);
    }
}

static void test_null_aware(void) {
    sqe_plan *pr = scan3(t_probe, "probe"), *bu = scan3(t_build, "build");
    for (int jt = SQE_JT_ANTI; jt <= SQE_JT_MARK; jt++) {
        /* uncorrelated: k [NOT] IN (SELECT k FROM build), NULLs on both sides */
        sqe_plan *p = join1((sqe_join_type)jt, pr, bu, 1, 0, NULL);
        p->u.join.null_aware = true;
        check_spilled("null-aware uncorrelated", p, pool, LIMIT);
        /* correlated on s: k [NOT] IN (SELECT k FROM build WHERE build.s = probe.s) */
        int lc[2] = {2, 1}, rc[2] = {2, 0};
        p = join((sqe_join_type)jt, pr, bu, 2, lc, rc, NULL);
        p->u.join.null_aware = true;
        check_spilled("null-aware correlated", p, pool, LIMIT);
        /* correlated with a residual */
        p = join((sqe_join_type)jt, pr, bu, 2, lc, rc,
                 ne(mod(add(bcol(0), bcol(4)), ci(2)), ci(0)));
        p->u.join.null_aware = true;
        check_spilled("null-aware correlated with a residual", p, pool, LIMIT);
    }
    /* A probe side without NULLs against a build side without NULLs: the
     * uncorrelated NOT IN keeps rows (so the check above is not vacuous). */
    sqe_plan *un = scan3(t_unique, "unique");
    sqe_plan *p = join1(SQE_JT_ANTI, pr, un, 1, 0, NULL);
    p->u.join.null_aware = true;
    check_spilled("NOT IN without NULLs", p, pool, LIMIT);
    /* Uncorrelated NOT IN with a residual: its group is every build row, so
     * it cannot be partitioned: the memory error stays. */
    p = join1(SQE_JT_ANTI, pr, bu, 1, 0, ne(bcol(0), bcol(4)));
    p->u.join.null_aware = true;
    digest d = run_digest(p, 2, pool, LIMIT);
    CHECK(d.error &&
          strstr(d.error, "RESOURCE_EXHAUSTED: query exceeded the memory limit of 4194304 bytes "
                          "in HashJoinExec"));
    sqe_free(d.error);
}

static void test_single_match(void) {
    sqe_plan *pr = scan3(t_probe, "probe");
    /* unique build keys: fine, spilled or not */
    sqe_plan *p = join1(SQE_JT_LEFT, pr, scan3(t_unique, "unique"), 1, 0, NULL);
    p->u.join.single_match = true;
    check_spilled("single match", p, pool, LIMIT);
    /* duplicated build keys: the scalar subquery error, spilled or not */
    p = join1(SQE_JT_LEFT, pr, scan3(t_build, "build"), 1, 0, NULL);
    p->u.join.single_match = true;
    for (int th = 1; th <= 4; th *= UNDER_SAN ? 4 : 2) {
        size_t limits[2] = {0, LIMIT};
        for (int i = 0; i < 2; i++) {
            digest d = run_digest(p, th, pool, limits[i]);
            CHECK_STR(d.error,
                      "ERROR INVALID_ARGUMENT: Scalar sub-query has returned multiple rows");
            sqe_free(d.error);
        }
    }
}

/* A build side 16 times the limit: level-0 partitions do not fit alone and
 * are split again. */
static void test_repartition(void) {
    sqe_plan *pr = scan3(t_probe, "probe"), *big = scan3(t_big, "big");
    size_t limit = (size_t)3 << 20;
    sqe_plan *inner = join1(SQE_JT_INNER, pr, big, 1, 0, NULL);
    long long files = spill_files(inner, 1, pool, limit);
    CHECK(files > 2 * SQE_JOIN_SPILL_PARTS); /* more than one level of files */
    check_spilled("re-partitioned INNER", inner, pool, limit);
    check_spilled("re-partitioned FULL", join1(SQE_JT_FULL, pr, big, 1, 0, NULL), pool, limit);
    if (!UNDER_SAN)
        check_spilled("re-partitioned ANTI", join1(SQE_JT_ANTI, pr, big, 1, 0, NULL), pool, limit);
    check_spill_dir_empty();
}

/* Rows sharing one key cannot be split: a clear error. */
static void test_one_key_too_big(void) {
    sqe_plan *pr = scan3(t_probe, "probe"), *one = scan3(t_one, "one");
    for (int th = 1; th <= 4; th *= UNDER_SAN ? 4 : 2) {
        digest d = run_digest(join1(SQE_JT_INNER, pr, one, 1, 0, NULL), th, pool, (size_t)3 << 20);
        CHECK(d.error &&
              strstr(d.error,
                     "RESOURCE_EXHAUSTED: query exceeded the memory limit of 3145728 bytes in "
                     "HashJoinExec: ") &&
              strstr(d.error, "build rows share one join key value and do not fit"));
        if (d.error && !strstr(d.error, "share one join key")) fprintf(stderr, "%s\n", d.error);
        sqe_free(d.error);
    }
    /* A limit that holds the spill's buffers (26 x 64 KiB on 4 threads) but
     * hardly a partition: an error that says to raise the limit. */
    digest tiny = run_digest(join1(SQE_JT_INNER, pr, scan3(t_build, "build"), 1, 0, NULL), 4, pool,
                             (size_t)1900000);
    CHECK(tiny.error &&
          strstr(tiny.error, "RESOURCE_EXHAUSTED: query exceeded the memory limit of 1900000 bytes "
                             "in HashJoinExec") &&
          strstr(tiny.error, "raise the memory limit"));
    if (tiny.error && !strstr(tiny.error, "raise the memory limit"))
        fprintf(stderr, "%s\n", tiny.error);
    sqe_free(tiny.error);
    /* A limit below what the spill itself needs: the plain memory error. */
    digest d =
        run_digest(join1(SQE_JT_INNER, pr, scan3(t_build, "build"), 1, 0, NULL), 1, pool, 200000);
    CHECK_STR(d.error, "ERROR RESOURCE_EXHAUSTED: query exceeded the memory limit of 200000 bytes "
                       "in HashJoinExec");
    sqe_free(d.error);
    check_spill_dir_empty();
}

/* Cancelling a spilled join at several points (mid-probe, while copies
 * wait for the probe to end, mid-partition): the fetch fails with
 * CANCELLED, nothing hangs, no file is left. */
static void test_cancel(void) {
    sqe_plan *pr = scan3(t_probe, "probe"), *bu = scan3(t_build, "build");
    sqe_plan *p = join1(SQE_JT_FULL, pr, bu, 1, 0, NULL);
    for (int after = 0; after < 40; after += UNDER_SAN ? 13 : 3) {
        sqe_exec_options o;
        memset(&o, 0, sizeof o);
        o.threads = 4;
        o.pool = pool;
        o.memory_limit = LIMIT;
        o.parallel_min_bytes = 1;
        o.temp_dir = spilldir;
        sqe_error err;
        sqe_error_clear(&err);
        sqe_exec_query *q = sqe_exec_start(p, &o, &err);
        CHECK(q != NULL);
        if (!q) return;
        bool failed = false;
        for (int i = 0;; i++) {
            if (i == after) sqe_exec_cancel(q);
            const sqe_batch *b = NULL;
            bool done = false;
            if (!sqe_exec_fetch(q, &b, &done, &err)) {
                failed = true;
                break;
            }
            if (done) break;
        }
        /* a cancel before the end fails the fetch with CANCELLED */
        CHECK(failed);
        if (failed) CHECK_STR(err.msg, "query was cancelled");
        sqe_exec_finish(q);
    }
    check_spill_dir_empty();
}

/* A temporary folder that cannot be created in: the error names it and
 * the operator. */
static void test_bad_temp_dir(void) {
    sqe_plan *p = join1(SQE_JT_INNER, scan3(t_probe, "probe"), scan3(t_build, "build"), 1, 0, NULL);
    char saved[300];
    snprintf(saved, sizeof saved, "%s", spilldir);
    snprintf(spilldir, sizeof spilldir, "%s/no/such/folder", tmpdir);
    digest d = run_digest(p, 2, pool, LIMIT);
    char *want = sqe_asprintf(
        "ERROR STORAGE: could not create temporary file in '%s' for HashJoinExec: No such "
        "file or directory",
        spilldir);
    CHECK_STR(d.error, want);
    sqe_free(want);
    sqe_free(d.error);
    snprintf(spilldir, sizeof spilldir, "%s", saved);
}

static void setup(void) {
    char tmpl[] = "/tmp/sqe_test_join_spill_XXXXXX";
    char *d = mkdtemp(tmpl);
    CHECK(d != NULL);
    snprintf(tmpdir, sizeof tmpdir, "%s", d ? d : "/tmp");
    snprintf(spilldir, sizeof spilldir, "%s/spill", tmpdir);
    mkdir(spilldir, 0755);
    if (UNDER_SAN) {
        n_probe = 20000;
        n_build = 50000;
    }
    write_table("probe", n_probe, 4, probe_row);
    write_table("build", n_build, 4, build_row);
    write_table("unique", 30000, 3, unique_row);
    write_table("one", 100000, 2, one_key_row);
    write_table("big", 400000, 4, build_row);
    char wh[300];
    snprintf(wh, sizeof wh, "%s/wh", tmpdir);
    mkdir(wh, 0755);
    sqe_error err;
    sqe_error_clear(&err);
    cat = sqe_hive_catalog_new(NULL);
    CHECK(sqe_hive_attach(cat, "lake", wh, NULL, &err));
    t_probe = make_table(cat, "probe");
    t_build = make_table(cat, "build");
    t_unique = make_table(cat, "unique");
    t_one = make_table(cat, "one");
    t_big = make_table(cat, "big");
    pool = sqe_threadpool_new(3);
}

static void teardown(void) {
    sqe_threadpool_free(pool);
    sqe_hive_table_free(t_probe);
    sqe_hive_table_free(t_build);
    sqe_hive_table_free(t_unique);
    sqe_hive_table_free(t_one);
    sqe_hive_table_free(t_big);
    sqe_hive_catalog_free(cat);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    CHECK(system(cmd) == 0);
}

int main(void) {
    A = sqe_arena_new(0);
    setup();
    if (t_probe && t_build && t_unique && t_one && t_big) {
        RUN(test_every_type);
        RUN(test_stacked);
        RUN(test_limit);
        RUN(test_null_aware);
        RUN(test_single_match);
        RUN(test_repartition);
        RUN(test_one_key_too_big);
        RUN(test_bad_temp_dir);
        RUN(test_cancel);
    }
    teardown();
    sqe_arena_free(A);
    return unit_report();
}
