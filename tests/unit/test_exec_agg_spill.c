/*
 * test_exec_agg_spill.c - HashAggregateExec beyond one table: the
 * radix-partitioned parallel merge and spilling under a memory limit.
 *
 * A generated CSV table (4 files) is queried through the public API
 * (sqe.h) with 1, 2 and 4 threads, with no limit and with limits small
 * enough that the groups do not fit (so rows of new keys go to spill
 * files, partitions are re-partitioned, and the merge runs per
 * partition). Every answer, as sorted text, must equal the serial
 * unlimited one. Queries cover bigint keys (with NULLs), long and short
 * string keys (NULL, empty, shared prefixes), DOUBLE keys (NaN, -0.0 and
 * 0.0 as one group), several keys, varchar min/max and count(DISTINCT)
 * (states that own memory), FILTER (WHERE), GROUPING SETS with an empty
 * set, DISTINCT without aggregates, and the global aggregate (which never
 * spills). EXPLAIN ANALYZE shows the spill ("spilled N files"), the
 * tracked peak stays within the limit, and the spill folder stays empty.
 * A limit too small for even one partition of groups, and one DISTINCT set
 * larger than the limit, fail with RESOURCE_EXHAUSTED naming
 * HashAggregateExec; a cancel while spilled partitions are emitted ends
 * with CANCELLED, and no spill file is left behind.
 */
#include "unit.h"

#include "sqe.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define N_ROWS 40000
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define N_ROWS 40000
#endif
#endif
#ifndef N_ROWS
#define N_ROWS 160000
#endif

static char tmpdir[256];

static void mkdirs(const char *path) {
    char buf[600];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(buf, 0755);
            *p = '/';
        }
    mkdir(buf, 0755);
}

static uint64_t rng = 88172645463325252ULL;
static uint64_t next_rand(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* id (bigint, about N_ROWS / 2 distinct, some NULL), s (string), d
 * (double), x (int), g (small int). */
static void write_table(void) {
    char dir[400];
    snprintf(dir, sizeof dir, "%s/wh/db/t", tmpdir);
    mkdirs(dir);
    for (int f = 0; f < 4; f++) {
        char path[500];
        snprintf(path, sizeof path, "%s/part-%d.csv", dir, f);
        FILE *out = fopen(path, "w");
        CHECK(out != NULL);
        if (!out) return;
        for (int r = f; r < N_ROWS; r += 4) {
            uint64_t v = next_rand();
            if (v % 97 == 0)
                fputs("\\N,", out);
            else
                fprintf(out, "%llu,", (unsigned long long)(v % (N_ROWS / 2)));
            switch (v % 7) {
            case 0:
                fputs("\\N,", out);
                break;
            case 1:
                fputs(",", out);
                break;
            case 2:
                fprintf(out, "s%llu,", (unsigned long long)((v >> 8) % 5000));
                break;
            default: /* long: a shared prefix, so only the bytes tell them apart */
                fprintf(out, "a rather long shared prefix %llu,",
                        (unsigned long long)((v >> 8) % (N_ROWS / 4)));
            }
            static const char *ds[] = {"NaN", "-0.0", "0.0", "\\N", "1.5", "-2.25"};
            if (v % 5 == 0)
                fprintf(out, "%s,", ds[(v >> 20) % 6]);
            else
                fprintf(out, "%llu.25,", (unsigned long long)((v >> 20) % 20000));
            fprintf(out, "%d,%d\n", (int)((v >> 30) % 100), (int)((v >> 40) % 7));
        }
        fclose(out);
    }
}

static sqe_session *open_session(int threads, size_t limit) {
    sqe_options o = {.threads = threads, .memory_limit = limit, .parallel_min_bytes = 1};
    sqe_session *s = sqe_session_open(&o);
    char spec[300];
    snprintf(spec, sizeof spec, "lake=%s/wh", tmpdir);
    char *err = sqe_session_attach_root(s, spec);
    CHECK(err == NULL);
    free(err);
    return s;
}

static int cmp_line(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The rows as sorted lines "v1|v2|...", or "ERROR <class>: <message>". */
static char *run_sorted(sqe_session *s, const char *sql) {
    sqe_result *r = sqe_session_execute(s, sql);
    if (!sqe_result_ok(r)) {
        size_t n = strlen(sqe_result_error(r)) + 64;
        char *e = malloc(n);
        snprintf(e, n, "ERROR %s: %s", sqe_result_error_class(r), sqe_result_error(r));
        sqe_result_free(r);
        return e;
    }
    uint64_t rows = sqe_result_row_count(r);
    int cols = sqe_result_column_count(r);
    char **lines = calloc(rows ? rows : 1, sizeof *lines);
    size_t total = 1;
    for (uint64_t i = 0; i < rows; i++) {
        size_t len = 0;
        for (int c = 0; c < cols; c++) {
            const char *v = sqe_result_value(r, i, c);
            len += (v ? strlen(v) : 4) + 1;
        }
        lines[i] = malloc(len + 1);
        lines[i][0] = 0;
        for (int c = 0; c < cols; c++) {
            const char *v = sqe_result_value(r, i, c);
            if (c) strcat(lines[i], "|");
            strcat(lines[i], v ? v : "NULL");
        }
        total += strlen(lines[i]) + 1;
    }
    qsort(lines, rows, sizeof *lines, cmp_line);
    char *text = malloc(total);
    text[0] = 0;
    char *p = text;
    for (uint64_t i = 0; i < rows; i++) {
        size_t l = strlen(lines[i]);
        memcpy(p, lines[i], l);
        p[l] = '\n';
        p += l + 1;
        *p = 0;
        free(lines[i]);
    }
    free(lines);
    sqe_result_free(r);
    return text;
}

/* EXPLAIN ANALYZE of sql: its whole text. */
static char *explain_analyze(sqe_session *s, const char *sql) {
    char *q = malloc(strlen(sql) + 32);
    sprintf(q, "EXPLAIN ANALYZE %s", sql);
    char *t = run_sorted(s, q);
    free(q);
    return t;
}

static long peak_of(const char *explain) {
    const char *p = strstr(explain, "peak tracked memory=");
    return p ? atol(p + strlen("peak tracked memory=")) : -1;
}

static int count_entries(const char *path) {
    DIR *d = opendir(path);
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    return n;
}

static const char *const queries[] = {
    /* bigint key, NULLs; varchar min/max own memory */
    "SELECT id, count(*), sum(x), min(s), max(s) FROM lake.db.t GROUP BY id",
    /* string keys: NULL, empty, inline, long */
    "SELECT s, count(*), sum(x), min(id) FROM lake.db.t GROUP BY s",
    /* double key (NaN, -0.0 = 0.0) and a second key: the generic probe */
    "SELECT d, id % 100, count(*), sum(x) FROM lake.db.t GROUP BY d, id % 100",
    /* DISTINCT and FILTER */
    "SELECT id % 20000, count(DISTINCT x), sum(x) FILTER (WHERE x > 50), "
    "count(*) FILTER (WHERE s IS NULL) FROM lake.db.t GROUP BY id % 20000",
    /* grouping sets with an empty set (group id key, default row) */
    "SELECT id, g, count(*), sum(x) FROM lake.db.t GROUP BY GROUPING SETS ((id), (g), ())",
    /* DISTINCT rows: groups without aggregates */
    "SELECT DISTINCT s, g FROM lake.db.t",
    /* the global aggregate never spills */
    "SELECT count(*), sum(x), count(DISTINCT g) FROM lake.db.t",
};

static void test_spill_equals_memory(void) {
    enum { NQ = sizeof queries / sizeof queries[0] };
    char *want[NQ];
    sqe_session *ref = open_session(1, 0);
    for (int q = 0; q < NQ; q++) {
        want[q] = run_sorted(ref, queries[q]);
        CHECK(strncmp(want[q], "ERROR", 5) != 0);
        if (!strncmp(want[q], "ERROR", 5)) fprintf(stderr, "  %s\n", want[q]);
    }
    sqe_session_close(ref);
    struct {
        int threads;
        size_t limit;
    } runs[] = {{2, 0}, {4, 0}, {1, 6 << 20}, {2, 8 << 20}, {4, 10 << 20}};
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        sqe_session *s = open_session(runs[i].threads, runs[i].limit);
        for (int q = 0; q < NQ; q++) {
            char *got = run_sorted(s, queries[q]);
            bool same = strcmp(got, want[q]) == 0;
            CHECK(same);
            if (!same)
                fprintf(stderr, "  threads=%d limit=%zu: %s\n  got %.300s\n", runs[i].threads,
                        runs[i].limit, queries[q], got);
            free(got);
        }
        if (runs[i].limit) {
            /* The first query spills, within the limit. */
            char *ex = explain_analyze(s, queries[0]);
            CHECK_CONTAINS(ex, "spilled");
            long peak = peak_of(ex);
            CHECK(peak > 0 && (size_t)peak <= runs[i].limit);
            free(ex);
            /* The global aggregate does not. */
            ex = explain_analyze(s, queries[NQ - 1]);
            CHECK(strstr(ex, "spilled") == NULL);
            free(ex);
        }
        sqe_session_close(s);
    }
    for (int q = 0; q < NQ; q++) free(want[q]);
}

static void test_limits_too_small(void) {
    /* Far too small for spill buffers and a partition of groups. */
    sqe_session *s = open_session(2, 256 << 10);
    char *got = run_sorted(s, queries[0]);
    CHECK_CONTAINS(got, "ERROR RESOURCE_EXHAUSTED");
    CHECK_CONTAINS(got, "HashAggregateExec");
    free(got);
    sqe_session_close(s);
    /* One group whose DISTINCT set alone passes the limit. */
    s = open_session(1, (size_t)N_ROWS * 16);
    got = run_sorted(s, "SELECT g % 1, count(DISTINCT s), count(DISTINCT id) FROM lake.db.t "
                        "CROSS JOIN (VALUES 1, 2, 3, 4) v(k) WHERE v.k > 0 GROUP BY g % 1");
    CHECK_CONTAINS(got, "ERROR RESOURCE_EXHAUSTED");
    CHECK_CONTAINS(got, "HashAggregateExec");
    free(got);
    sqe_session_close(s);
}

/* A cancel while spilled partitions are being emitted stops the query with
 * CANCELLED; closing it gives back the files (checked in main). */
static void test_cancel_while_spilling(void) {
    sqe_session *s = open_session(2, 6 << 20);
    sqe_cursor *c = sqe_session_query(s, queries[0]);
    CHECK(sqe_cursor_next_row(c));
    sqe_cursor_cancel(c);
    while (sqe_cursor_next_row(c)) {
    }
    CHECK_STR(sqe_cursor_error_class(c), "CANCELLED");
    sqe_cursor_close(c);
    sqe_session_close(s);
}

int main(void) {
    char tmpl[] = "/tmp/sqe_test_agg_spill_XXXXXX";
    char *d = mkdtemp(tmpl);
    CHECK(d != NULL);
    if (!d) return unit_report();
    snprintf(tmpdir, sizeof tmpdir, "%s", d);
    /* Spill files go to $TMPDIR: a folder of our own, to see it stays empty. */
    char spill[400];
    snprintf(spill, sizeof spill, "%s/spill", tmpdir);
    mkdirs(spill);
    setenv("TMPDIR", spill, 1);
    write_table();
    sqe_session *s = open_session(1, 0);
    char sql[600];
    snprintf(sql, sizeof sql,
             "CREATE EXTERNAL TABLE lake.db.t (id bigint, s string, d double, x int, g int) "
             "ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS TEXTFILE LOCATION "
             "'%s/wh/db/t/'",
             tmpdir);
    sqe_result *r = sqe_session_execute(s, sql);
    CHECK(sqe_result_ok(r));
    sqe_result_free(r);
    sqe_session_close(s);
    RUN(test_spill_equals_memory);
    RUN(test_limits_too_small);
    RUN(test_cancel_while_spilling);
    CHECK(count_entries(spill) == 0);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    CHECK(system(cmd) == 0);
    return unit_report();
}
