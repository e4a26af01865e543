/*
 * test_partidx_scale.c - the partition index at scale (issue 10 Done-when),
 * through the public API as an embedder runs it:
 *
 *   - a generated table with 10,000 partitions on local disk: MSCK REPAIR
 *     TABLE indexes them; an equality predicate on the key then plans from
 *     the index with zero LIST requests for the table's LOCATION (the one
 *     LIST is the surviving partition's folder), asserted from EXPLAIN
 *     ANALYZE's partition and storage lines;
 *   - the same table in a session whose manifest_max_bytes is 64 KiB: the
 *     index no longer fits the manifest and goes to a separate object next
 *     to it (SPEC §6.6), which later statements read and replace (the old
 *     object is deleted), and DROP TABLE deletes with the manifest.
 *
 * The tree is made on tmpfs (/dev/shm) when there is one: creating and
 * deleting 20,000 files on a loaded disk can take a minute, on tmpfs a
 * fraction of a second. SQE_PARTIDX_TMP overrides the folder.
 */
#include "sqe.h"
#include "unit.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define N_PARTS 10000

static char g_tmp[512];

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void make_tree(void) {
    char path[700];
    snprintf(path, sizeof path, "%s/data", g_tmp);
    mkdir(path, 0777);
    snprintf(path, sizeof path, "%s/wh", g_tmp);
    mkdir(path, 0777);
    for (int i = 0; i < N_PARTS; i++) {
        snprintf(path, sizeof path, "%s/data/n=%d", g_tmp, i);
        mkdir(path, 0777);
        snprintf(path, sizeof path, "%s/data/n=%d/part-0.csv", g_tmp, i);
        FILE *f = fopen(path, "w");
        if (f) {
            fprintf(f, "%d,row%d\n", i, i);
            fclose(f);
        }
    }
}

/* The rows of a one-column result joined by '\n' (malloc'd). */
static char *run_text(sqe_session *s, const char *sql) {
    sqe_result *r = sqe_session_execute(s, sql);
    if (!sqe_result_ok(r)) {
        fprintf(stderr, "%s\n  -> %s\n", sql, sqe_result_error(r));
        sqe_result_free(r);
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *out = malloc(cap);
    out[0] = '\0';
    for (uint64_t row = 0; row < sqe_result_row_count(r); row++) {
        const char *v = sqe_result_value(r, row, 0);
        size_t n = v ? strlen(v) : 0;
        while (len + n + 2 > cap) out = realloc(out, cap *= 2);
        memcpy(out + len, v ? v : "", n);
        len += n;
        out[len++] = '\n';
        out[len] = '\0';
    }
    sqe_result_free(r);
    return out;
}

static uint64_t rows_of(sqe_session *s, const char *sql) {
    sqe_result *r = sqe_session_execute(s, sql);
    uint64_t n = sqe_result_ok(r) ? sqe_result_row_count(r) : UINT64_MAX;
    if (!sqe_result_ok(r)) fprintf(stderr, "%s\n  -> %s\n", sql, sqe_result_error(r));
    sqe_result_free(r);
    return n;
}

static sqe_session *open_session(size_t manifest_max) {
    sqe_options o = {0};
    o.threads = 2;
    o.manifest_max_bytes = manifest_max;
    sqe_session *s = sqe_session_open(&o);
    char spec[600];
    snprintf(spec, sizeof spec, "lake=%s/wh", g_tmp);
    char *e = sqe_session_attach_root(s, spec);
    if (e) {
        fprintf(stderr, "attach: %s\n", e);
        free(e);
    }
    return s;
}

static void create(sqe_session *s, const char *name) {
    char sql[800];
    snprintf(sql, sizeof sql,
             "CREATE EXTERNAL TABLE lake.default.%s (id int, s string) PARTITIONED BY (n int) "
             "ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' LOCATION '%s/data/'",
             name, g_tmp);
    CHECK(rows_of(s, sql) == 0);
}

static void test_10k_inline(void) {
    sqe_session *s = open_session(0);
    create(s, "big");
    double t0 = now_ms();
    CHECK(rows_of(s, "MSCK REPAIR TABLE lake.default.big") == N_PARTS);
    double t1 = now_ms();
    char *ex = run_text(s, "EXPLAIN ANALYZE SELECT id, s FROM lake.default.big WHERE n = 4242");
    double t2 = now_ms();
    CHECK_CONTAINS(ex, "partitions=1, files=1");
    CHECK_CONTAINS(ex, "partition_source=index, partitions_considered=10000, "
                       "partitions_pruned=9999");
    CHECK_CONTAINS(ex, "Storage: LIST 1, "); /* the partition's folder, not LOCATION */
    free(ex);
    char *v = run_text(s, "SELECT s FROM lake.default.big WHERE n = 4242");
    CHECK_STR(v, "row4242\n");
    free(v);
    /* SHOW PARTITIONS comes from the index too */
    CHECK(rows_of(s, "SHOW PARTITIONS lake.default.big") == N_PARTS);
    fprintf(stderr, "10k: MSCK %.0f ms, EXPLAIN ANALYZE (= query) %.1f ms\n", t1 - t0, t2 - t1);
    sqe_session_close(s);
}

static int count_objects(void) {
    char path[600];
    snprintf(path, sizeof path, "%s/wh/default", g_tmp);
    DIR *d = opendir(path);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) n += strstr(e->d_name, ".partitions.") != NULL;
    if (d) closedir(d);
    return n;
}

static void test_10k_external(void) {
    sqe_session *s = open_session(64 * 1024);
    create(s, "ext");
    CHECK(rows_of(s, "MSCK REPAIR TABLE lake.default.ext") == N_PARTS);
    CHECK(count_objects() == 1);
    char *ex = run_text(s, "EXPLAIN ANALYZE SELECT id FROM lake.default.ext WHERE n IN (7, 9000)");
    CHECK_CONTAINS(ex, "partition_source=index, partitions_considered=10000, "
                       "partitions_pruned=9998");
    CHECK_CONTAINS(ex, "Storage: LIST 2, ");
    free(ex);
    /* an edit replaces the object (content-named) and deletes the old one */
    CHECK(rows_of(s, "ALTER TABLE lake.default.ext DROP PARTITION (n=7)") == 0);
    CHECK(count_objects() == 1);
    char *v = run_text(s, "SELECT CAST(count(*) AS varchar) FROM lake.default.ext WHERE n < 10");
    CHECK_STR(v, "9\n");
    free(v);
    /* DROP TABLE takes the index object with the manifest */
    sqe_result *r = sqe_session_execute(s, "DROP TABLE lake.default.ext");
    CHECK(sqe_result_ok(r));
    sqe_result_free(r);
    CHECK(count_objects() == 0);
    sqe_session_close(s);
}

int main(void) {
    const char *base = getenv("SQE_PARTIDX_TMP");
    struct stat st;
    if (!base)
        base = stat("/dev/shm", &st) == 0 && access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(g_tmp, sizeof g_tmp, "%s/sqe_partidx_XXXXXX", base);
    if (!mkdtemp(g_tmp)) return 2;
    double t0 = now_ms();
    make_tree();
    fprintf(stderr, "made %d partitions in %s in %.0f ms\n", N_PARTS, g_tmp, now_ms() - t0);
    RUN(test_10k_inline);
    RUN(test_10k_external);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_tmp);
    if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", g_tmp);
    return unit_report();
}
