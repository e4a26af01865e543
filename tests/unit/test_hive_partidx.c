/*
 * test_hive_partidx.c - the manifest read-modify-write contract
 * (hive_manifest_update, SPEC §2.4) and the partition index statements
 * (MSCK REPAIR, ALTER TABLE ADD/DROP PARTITION, SPEC §6) under concurrency,
 * on a local store in a fresh mkdtemp folder.
 *
 * The property tested is "no lost update": several threads edit the same
 * manifest at once; every edit that reported success is in the final
 * manifest, and an edit that failed did so with the conflict error
 * (ALREADY_EXISTS "changed concurrently") and is retried by the test, so at
 * the end all edits are present. The store-level token tests check the
 * local conditional replace itself (a stale token is refused, nothing
 * written).
 */
#include "hive/hive.h"
#include "hive/hive_int.h"
#include "io/io.h"
#include "unit.h"

#include <jansson.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char g_tmp[256];
static char g_wh[320];
static const sqe_hive_limits g_lim = {1 << 20, 4096, 32};

static bool exec_in(sqe_hive_catalog *cat, const char *sql, sqe_error *err) {
    sqe_arena *a = sqe_arena_new(0);
    sqe_ast_stmt *st = sqe_sql_parse(a, sql, err);
    bool ok = false;
    if (st) {
        const char *status = NULL;
        sqe_resultset *rs = NULL;
        sqe_strbuf notices;
        sqe_strbuf_init(&notices);
        ok = sqe_hive_execute(cat, st, &rs, &status, &notices, err);
        sqe_resultset_free(rs);
        sqe_strbuf_free(&notices);
    }
    sqe_arena_free(a);
    return ok;
}

static sqe_hive_catalog *new_catalog(void) {
    sqe_hive_catalog *cat = sqe_hive_catalog_new(NULL);
    sqe_error err;
    if (!sqe_hive_attach(cat, "wh", g_wh, NULL, &err)) fprintf(stderr, "attach: %s\n", err.msg);
    return cat;
}

static char *manifest_path(const char *table) {
    return sqe_asprintf("%s/default/%s.manifest.json", g_wh, table);
}

/* ------------------------------------------------ store-level tokens */

static void test_local_put_if_match(void) {
    sqe_store *s = sqe_io_local_new();
    char *p = sqe_asprintf("%s/obj.json", g_tmp);
    sqe_error err;
    CHECK(s->vt->put(s, p, "one", 3, &err));
    char t1[SQE_IO_VERSION_MAX], t2[SQE_IO_VERSION_MAX];
    CHECK(sqe_io_version(s, p, t1, sizeof t1, &err));
    CHECK(sqe_io_put_if_match(s, p, "two", 3, t1, &err));
    CHECK(sqe_io_version(s, p, t2, sizeof t2, &err));
    CHECK(strcmp(t1, t2) != 0);
    /* a stale token is refused and nothing is written */
    CHECK(!sqe_io_put_if_match(s, p, "three", 5, t1, &err));
    CHECK(err.cls == SQE_ERR_ALREADY_EXISTS);
    CHECK_CONTAINS(err.msg, "changed since it was read");
    char *data = NULL;
    size_t len = 0;
    CHECK(sqe_io_read_all(s, p, 100, &data, &len, &err));
    CHECK(len == 3 && memcmp(data, "two", 3) == 0);
    sqe_free(data);
    /* a deleted object is a mismatch too; a missing one has no version */
    CHECK(s->vt->del(s, p, &err));
    CHECK(!sqe_io_put_if_match(s, p, "four", 4, t2, &err));
    CHECK(err.cls == SQE_ERR_ALREADY_EXISTS);
    CHECK_CONTAINS(err.msg, "deleted");
    CHECK(!sqe_io_version(s, p, t1, sizeof t1, &err));
    CHECK(err.cls == SQE_ERR_NOT_FOUND);
    sqe_free(p);
    sqe_store_free(s);
}

/* ------------------------------------------------ hive_manifest_update */

typedef struct param_edit {
    const char *key, *value;
    int calls;
} param_edit;

static bool add_param(hive_manifest *m, void *ctx, sqe_error *err) {
    param_edit *e = ctx;
    e->calls++;
    if (hive_kv_get(&m->params, e->key))
        return sqe_error_set(err, SQE_ERR_ALREADY_EXISTS, "key '%s' exists", e->key);
    hive_kv_list_add(&m->params, e->key, e->value);
    return true;
}

static void test_update_basic(void) {
    sqe_hive_catalog *cat = new_catalog();
    sqe_error err;
    CHECK(exec_in(cat, "CREATE EXTERNAL TABLE u1 (a int) LOCATION '/tmp/x/'", &err));
    char *mp = manifest_path("u1");
    sqe_store *s = sqe_io_local_new();
    param_edit e = {"k1", "v1", 0};
    CHECK(hive_manifest_update(s, mp, "u1", &g_lim, add_param, &e, &err));
    CHECK(e.calls == 1);
    /* mutate's error aborts, nothing written */
    e.calls = 0;
    CHECK(!hive_manifest_update(s, mp, "u1", &g_lim, add_param, &e, &err));
    CHECK(err.cls == SQE_ERR_ALREADY_EXISTS && e.calls == 1);
    CHECK_CONTAINS(err.msg, "key 'k1' exists");
    /* a mutation that breaks validation is refused, naming the manifest */
    param_edit bad = {"projection.nokey.type", "enum", 0};
    CHECK(!hive_manifest_update(s, mp, "u1", &g_lim, add_param, &bad, &err));
    CHECK_CONTAINS(err.msg, "u1.manifest.json");
    hive_manifest m;
    CHECK(hive_manifest_load(s, mp, "u1", &g_lim, &m, &err));
    CHECK_STR(hive_kv_get(&m.params, "k1"), "v1");
    CHECK(hive_kv_get(&m.params, "EXTERNAL") &&
          strcmp(hive_kv_get(&m.params, "EXTERNAL"), "TRUE") == 0);
    hive_manifest_free(&m);
    /* a missing manifest is NOT_FOUND */
    char *missing = manifest_path("nope");
    CHECK(!hive_manifest_update(s, missing, "nope", &g_lim, add_param, &e, &err));
    CHECK(err.cls == SQE_ERR_NOT_FOUND);
    sqe_free(missing);
    sqe_free(mp);
    sqe_store_free(s);
    sqe_hive_catalog_free(cat);
}

#define N_THREADS 6
#define N_EDITS 15

typedef struct worker {
    int id;
    const char *path;
    int ok, conflicts;
} worker;

static void *param_worker(void *arg) {
    worker *w = arg;
    sqe_store *s = sqe_io_local_new();
    for (int i = 0; i < N_EDITS; i++) {
        char key[32], val[32];
        snprintf(key, sizeof key, "t%d_%d", w->id, i);
        snprintf(val, sizeof val, "%d", i);
        param_edit e = {key, val, 0};
        sqe_error err;
        for (;;) {
            if (hive_manifest_update(s, w->path, "conc", &g_lim, add_param, &e, &err)) {
                w->ok++;
                break;
            }
            if (err.cls != SQE_ERR_ALREADY_EXISTS || !strstr(err.msg, "changed concurrently")) {
                fprintf(stderr, "worker %d: %s\n", w->id, err.msg);
                break;
            }
            w->conflicts++;
        }
    }
    sqe_store_free(s);
    return NULL;
}

static void test_update_concurrent(void) {
    sqe_hive_catalog *cat = new_catalog();
    sqe_error err;
    CHECK(exec_in(cat, "CREATE EXTERNAL TABLE conc (a int) LOCATION '/tmp/x/'", &err));
    char *mp = manifest_path("conc");
    pthread_t th[N_THREADS];
    worker w[N_THREADS];
    for (int i = 0; i < N_THREADS; i++) {
        w[i] = (worker){i, mp, 0, 0};
        pthread_create(&th[i], NULL, param_worker, &w[i]);
    }
    int total = 0;
    for (int i = 0; i < N_THREADS; i++) {
        pthread_join(th[i], NULL);
        total += w[i].ok;
    }
    CHECK(total == N_THREADS * N_EDITS);
    sqe_store *s = sqe_io_local_new();
    hive_manifest m;
    CHECK(hive_manifest_load(s, mp, "conc", &g_lim, &m, &err));
    int found = 0;
    for (int t = 0; t < N_THREADS; t++)
        for (int i = 0; i < N_EDITS; i++) {
            char key[32];
            snprintf(key, sizeof key, "t%d_%d", t, i);
            found += hive_kv_get(&m.params, key) != NULL;
        }
    CHECK(found == N_THREADS * N_EDITS);
    hive_manifest_free(&m);
    sqe_store_free(s);
    sqe_free(mp);
    sqe_hive_catalog_free(cat);
}

/* ------------------------------------------------ ALTER ADD PARTITION */

static void *alter_worker(void *arg) {
    worker *w = arg;
    sqe_hive_catalog *cat = new_catalog();
    for (int i = 0; i < N_EDITS; i++) {
        char sql[160];
        snprintf(sql, sizeof sql,
                 "ALTER TABLE conc2 ADD PARTITION (k='t%d_%d') PARTITION (k='x%d_%d')", w->id, i,
                 w->id, i);
        sqe_error err;
        for (;;) {
            if (exec_in(cat, sql, &err)) {
                w->ok++;
                break;
            }
            if (err.cls != SQE_ERR_ALREADY_EXISTS || !strstr(err.msg, "changed concurrently")) {
                fprintf(stderr, "alter worker %d: %s\n", w->id, err.msg);
                break;
            }
            w->conflicts++;
        }
    }
    sqe_hive_catalog_free(cat);
    return NULL;
}

/* Several sessions add partitions to one table at once: every partition
 * whose statement succeeded is in the index at the end. */
static void test_alter_concurrent(void) {
    sqe_hive_catalog *cat = new_catalog();
    sqe_error err;
    char *sql = sqe_asprintf("CREATE EXTERNAL TABLE conc2 (a int) PARTITIONED BY (k string) "
                             "LOCATION '%s/conc2/'",
                             g_tmp);
    CHECK(exec_in(cat, sql, &err));
    sqe_free(sql);
    pthread_t th[N_THREADS];
    worker w[N_THREADS];
    for (int i = 0; i < N_THREADS; i++) {
        w[i] = (worker){i, NULL, 0, 0};
        pthread_create(&th[i], NULL, alter_worker, &w[i]);
    }
    int total = 0, conflicts = 0;
    for (int i = 0; i < N_THREADS; i++) {
        pthread_join(th[i], NULL);
        total += w[i].ok;
        conflicts += w[i].conflicts;
    }
    CHECK(total == N_THREADS * N_EDITS);
    const char *parts[3] = {"wh", "default", "conc2"};
    sqe_hive_table *t = sqe_hive_resolve_table(cat, 3, parts, &err);
    CHECK(t && t->partidx);
    sqe_arena *a = sqe_arena_new(0);
    sqe_hive_partition *ps = NULL;
    size_t n = 0;
    sqe_store *s = sqe_io_local_new();
    CHECK(t && sqe_hive_list_partitions(s, t, NULL, a, &ps, &n, &err));
    CHECK(n == 2 * N_THREADS * N_EDITS);
    fprintf(stderr, "alter_concurrent: %d statements, %d conflict errors retried\n", total,
            conflicts);
    sqe_store_free(s);
    sqe_arena_free(a);
    sqe_hive_table_free(t);
    sqe_hive_catalog_free(cat);
}

int main(void) {
    snprintf(g_tmp, sizeof g_tmp, "/tmp/sqe_partidx_XXXXXX");
    if (!mkdtemp(g_tmp)) return 2;
    snprintf(g_wh, sizeof g_wh, "%s/wh", g_tmp);
    mkdir(g_wh, 0777);
    RUN(test_local_put_if_match);
    RUN(test_update_basic);
    RUN(test_update_concurrent);
    RUN(test_alter_concurrent);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_tmp);
    if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", g_tmp);
    return unit_report();
}
