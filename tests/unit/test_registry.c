/*
 * test_registry.c - the session's store registry (io/registry.c): settings
 * precedence (flags > SQE_STORAGE__S3_* > AWS_* > profile), one shared
 * store per (endpoint, region, addressing, bucket, credentials), handles
 * that outlive the registry, named secrets and their SCOPE, and many
 * threads opening at once. Nothing here contacts a server: creating an S3
 * store does no I/O.
 */
#include "io/s3.h"
#include "unit.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

static sqe_io_registry *reg_env(const char *const *env, const sqe_s3_config *flags) {
    return sqe_io_registry_new(env, flags);
}

static void test_settings(void) {
    const char *env_all[] = {"SQE_STORAGE__S3_ENDPOINT=http://sqe:1",
                             "SQE_STORAGE__S3_REGION=sqe-region",
                             "AWS_ENDPOINT_URL=http://aws:2",
                             "AWS_ENDPOINT_URL_S3=http://aws-s3:3",
                             "AWS_REGION=aws-region",
                             "AWS_DEFAULT_REGION=aws-default",
                             "HOME=/nonexistent",
                             NULL};
    sqe_s3_config flags;
    sqe_s3_config_defaults(&flags);
    flags.endpoint = "http://flag:4";
    flags.region = "flag-region";
    sqe_io_registry *r = reg_env(env_all, &flags);
    const sqe_s3_config *c = sqe_io_registry_config(r);
    CHECK_STR(c->endpoint, "http://flag:4");
    CHECK_STR(c->region, "flag-region");
    CHECK(!c->virtual_hosted); /* an endpoint selects path-style */
    sqe_io_registry_free(r);

    r = reg_env(env_all, NULL);
    c = sqe_io_registry_config(r);
    CHECK_STR(c->endpoint, "http://sqe:1");
    CHECK_STR(c->region, "sqe-region");
    sqe_io_registry_free(r);

    r = reg_env(env_all + 2, NULL); /* AWS_* only */
    c = sqe_io_registry_config(r);
    CHECK_STR(c->endpoint, "http://aws-s3:3");
    CHECK_STR(c->region, "aws-region");
    sqe_io_registry_free(r);

    const char *env_aws[] = {"AWS_ENDPOINT_URL=http://aws:2", "AWS_DEFAULT_REGION=aws-default",
                             "HOME=/nonexistent", NULL};
    r = reg_env(env_aws, NULL);
    c = sqe_io_registry_config(r);
    CHECK_STR(c->endpoint, "http://aws:2");
    CHECK_STR(c->region, "aws-default");
    sqe_io_registry_free(r);

    /* Nothing: AWS itself, us-east-1, virtual-hosted. */
    const char *env_none[] = {"HOME=/nonexistent", NULL};
    r = reg_env(env_none, NULL);
    c = sqe_io_registry_config(r);
    CHECK(c->endpoint == NULL);
    CHECK_STR(c->region, "us-east-1");
    CHECK(c->virtual_hosted);
    sqe_io_registry_free(r);

    /* --s3-virtual-hosted (or the variable) keeps virtual-hosted with an
     * endpoint. */
    sqe_s3_config vh;
    sqe_s3_config_defaults(&vh);
    vh.virtual_hosted = true;
    r = reg_env(env_aws, &vh);
    CHECK(sqe_io_registry_config(r)->virtual_hosted);
    sqe_io_registry_free(r);
    const char *env_vh[] = {"AWS_ENDPOINT_URL=http://aws:2", "SQE_STORAGE__S3_VIRTUAL_HOSTED=true",
                            "HOME=/nonexistent", NULL};
    r = reg_env(env_vh, NULL);
    CHECK(sqe_io_registry_config(r)->virtual_hosted);
    sqe_io_registry_free(r);

    /* The profile's region is the last fallback. */
    char dir[] = "/tmp/sqe_reg_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char *cfg = sqe_asprintf("%s/config", dir);
    FILE *f = fopen(cfg, "w");
    fputs("[profile p]\nregion = eu-north-1\n", f);
    fclose(f);
    char *v1 = sqe_asprintf("AWS_CONFIG_FILE=%s", cfg);
    const char *env_prof[] = {v1, "AWS_PROFILE=p", "HOME=/nonexistent", NULL};
    r = reg_env(env_prof, NULL);
    CHECK_STR(sqe_io_registry_config(r)->region, "eu-north-1");
    sqe_io_registry_free(r);
    unlink(cfg);
    rmdir(dir);
    sqe_free(cfg);
    sqe_free(v1);
}

static sqe_store *open_ok(sqe_io_registry *r, const char *url, const char *secret) {
    sqe_error err;
    sqe_error_clear(&err);
    sqe_store *s = sqe_io_registry_open(r, url, secret, &err);
    if (!s) fprintf(stderr, "open %s: %s\n", url, err.msg);
    CHECK(s != NULL);
    return s;
}

static void test_half_keys(void) {
    /* A key from the flags and no secret anywhere: S3 opens fail, naming
     * what to set; local paths still work. */
    const char *env[] = {"HOME=/nonexistent", NULL};
    sqe_io_registry *r = sqe_io_registry_new_with_keys(env, NULL, "AKFLAG", NULL);
    sqe_error err;
    sqe_error_clear(&err);
    CHECK(sqe_io_registry_open(r, "s3://b/x", NULL, &err) == NULL);
    CHECK(err.cls == SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE);
    CHECK_CONTAINS(err.msg, "cannot open 's3://b/x': an access key is given");
    sqe_store *l = sqe_io_registry_open(r, "/tmp", NULL, &err);
    CHECK(l != NULL);
    sqe_store_free(l);
    /* A secret with its own keys is unaffected. */
    sqe_io_secret s = {.name = "k", .key_id = "A", .secret = "B", .url_style = -1};
    CHECK(sqe_io_registry_create_secret(r, &s, false, false, &err));
    sqe_store *k = sqe_io_registry_open(r, "s3://b/x", "k", &err);
    CHECK(k != NULL);
    sqe_store_free(k);
    sqe_io_registry_free(r);
    /* The secret from the environment completes the flag's key. */
    const char *env2[] = {"AWS_SECRET_ACCESS_KEY=x", "HOME=/nonexistent", NULL};
    r = sqe_io_registry_new_with_keys(env2, NULL, "AKFLAG", NULL);
    k = sqe_io_registry_open(r, "s3://b/x", NULL, &err);
    CHECK(k != NULL);
    sqe_store_free(k);
    sqe_io_registry_free(r);
}

static void test_sharing(void) {
    const char *env[] = {"AWS_ENDPOINT_URL=http://127.0.0.1:1", "AWS_ACCESS_KEY_ID=AK",
                         "AWS_SECRET_ACCESS_KEY=sk", "HOME=/nonexistent", NULL};
    sqe_io_registry *r = reg_env(env, NULL);
    sqe_store *a = open_ok(r, "s3://b1/x/", NULL);
    sqe_store *b = open_ok(r, "s3://b1/y/z.csv", NULL);
    sqe_store *c = open_ok(r, "s3://b2/", NULL);
    sqe_store *l1 = open_ok(r, "/tmp", NULL);
    sqe_store *l2 = open_ok(r, "file:///tmp/x", "ignored_for_local");
    CHECK(a != b);
    CHECK(sqe_io_store_backend(a) == sqe_io_store_backend(b));
    CHECK(sqe_io_store_backend(a) != sqe_io_store_backend(c));
    CHECK(sqe_io_store_backend(l1) == sqe_io_store_backend(l2));
    CHECK_STR(a->vt->name, "s3");
    CHECK_STR(l1->vt->name, "local");
    CHECK(sqe_io_store_backend(l1) != l1);
    /* A store that is not a registry handle is its own backend. */
    sqe_store *plain = sqe_io_local_new();
    CHECK(sqe_io_store_backend(plain) == plain);
    sqe_store_free(plain);

    /* Local requests are counted (the local store's counters). */
    sqe_io_entry e;
    sqe_error err;
    sqe_error_clear(&err);
    CHECK(l1->vt->head(l1, "/tmp", &e, &err) == false); /* a folder: NOT_FOUND */
    sqe_io_stats st;
    CHECK(sqe_io_registry_stats(r, &st));
    CHECK(st.n_head >= 1);

    /* Bad URLs and unknown secrets. */
    CHECK(sqe_io_registry_open(r, "gs://x", NULL, &err) == NULL);
    CHECK(err.cls == SQE_ERR_NOT_SUPPORTED);
    CHECK(sqe_io_registry_open(r, "s3://b1/x", "nope", &err) == NULL);
    CHECK(err.cls == SQE_ERR_NOT_FOUND);
    CHECK_CONTAINS(err.msg, "secret 'nope' (for 's3://b1/x') does not exist");

    /* Handles outlive the registry. */
    sqe_store_free(b);
    sqe_io_registry_free(r);
    a->vt->stats(a, &st);
    CHECK(st.n_get == 0);
    sqe_store_free(a);
    sqe_store_free(c);
    sqe_store_free(l1);
    sqe_store_free(l2);
}

static void test_idle(void) {
    const char *env[] = {"HOME=/nonexistent", NULL};
    sqe_io_registry *r = sqe_io_registry_new(env, NULL);
    sqe_error err;
    sqe_error_clear(&err);
    sqe_io_entry e;
    sqe_io_stats st;
    /* Default: the store lives on between statements (its counts go on). */
    sqe_store *h = open_ok(r, "/tmp", NULL);
    h->vt->head(h, "/tmp", &e, &err);
    sqe_store_free(h);
    h = open_ok(r, "/tmp", NULL);
    h->vt->stats(h, &st);
    CHECK(st.n_head == 1);
    /* Idle 0: a store no handle holds is replaced at the next open; one
     * still held is kept. The registry's totals never go backwards. */
    sqe_io_registry_set_idle_ms(r, 0);
    sqe_store *held = open_ok(r, "/tmp", NULL);
    CHECK(sqe_io_store_backend(held) == sqe_io_store_backend(h));
    sqe_store_free(h);
    sqe_store_free(held);
    usleep(2000);
    h = open_ok(r, "/tmp", NULL);
    h->vt->stats(h, &st);
    CHECK(st.n_head == 0);
    CHECK(sqe_io_registry_stats(r, &st) && st.n_head == 1);
    sqe_store_free(h);
    sqe_io_registry_free(r);
}

static void test_secrets(void) {
    const char *env[] = {"AWS_ACCESS_KEY_ID=AK", "AWS_SECRET_ACCESS_KEY=sk", "HOME=/nonexistent",
                         NULL};
    sqe_io_registry *r = reg_env(env, NULL);
    sqe_error err;
    sqe_error_clear(&err);
    sqe_io_secret s1 = {.name = "Keys", .key_id = "AK1", .secret = "sk1", .url_style = -1};
    sqe_io_secret s2 = {.name = "scoped",
                        .endpoint = "http://127.0.0.1:9",
                        .scope = "s3://b/p/",
                        .region = "r2",
                        .url_style = 1};
    CHECK(sqe_io_registry_create_secret(r, &s1, false, false, &err));
    CHECK(sqe_io_registry_create_secret(r, &s2, false, false, &err));
    CHECK(!sqe_io_registry_create_secret(r, &s1, false, false, &err));
    CHECK(err.cls == SQE_ERR_ALREADY_EXISTS);
    CHECK(sqe_io_registry_create_secret(r, &s1, false, true, &err)); /* IF NOT EXISTS */

    sqe_store *d = open_ok(r, "s3://b/q/", NULL);
    sqe_store *k = open_ok(r, "s3://b/q/", "KEYS"); /* names fold case */
    sqe_store *sc1 = open_ok(r, "s3://b/p/t/", NULL);
    sqe_store *sc2 = open_ok(r, "s3://b/p", NULL);
    sqe_store *sc3 = open_ok(r, "s3://b/p/u", "scoped");
    sqe_store *nosc = open_ok(r, "s3://b/pp/", NULL); /* 'p' is not a prefix of 'pp/' */
    CHECK(sqe_io_store_backend(d) != sqe_io_store_backend(k));
    CHECK(sqe_io_store_backend(sc1) == sqe_io_store_backend(sc2));
    CHECK(sqe_io_store_backend(sc1) == sqe_io_store_backend(sc3));
    CHECK(sqe_io_store_backend(sc1) != sqe_io_store_backend(d));
    CHECK(sqe_io_store_backend(nosc) == sqe_io_store_backend(d));

    /* Replacing a secret gives new stores; old handles keep working. */
    sqe_store *k_old = sqe_io_store_backend(k);
    sqe_io_secret s1b = {.name = "keys", .key_id = "AK2", .secret = "sk2", .url_style = -1};
    CHECK(sqe_io_registry_create_secret(r, &s1b, true, false, &err));
    sqe_store *k2 = open_ok(r, "s3://b/q/", "keys");
    CHECK(sqe_io_store_backend(k2) != k_old);
    sqe_io_stats st;
    k->vt->stats(k, &st);

    /* Invalid secrets. */
    sqe_io_secret bad1 = {.name = "x", .key_id = "A", .url_style = -1};
    CHECK(!sqe_io_registry_create_secret(r, &bad1, false, false, &err));
    CHECK_CONTAINS(err.msg, "secret 'x' has KEY_ID but no SECRET");
    sqe_io_secret bad2 = {.name = "x", .scope = "/local", .url_style = -1};
    CHECK(!sqe_io_registry_create_secret(r, &bad2, false, false, &err));
    CHECK_CONTAINS(err.msg, "must be an s3://bucket[/prefix] URL");

    /* Dropping: the scope no longer applies. */
    CHECK(sqe_io_registry_drop_secret(r, "scoped", false, &err));
    CHECK(!sqe_io_registry_drop_secret(r, "scoped", false, &err));
    CHECK(err.cls == SQE_ERR_NOT_FOUND);
    CHECK(sqe_io_registry_drop_secret(r, "scoped", true, &err));
    sqe_store *after = open_ok(r, "s3://b/p/t/", NULL);
    CHECK(sqe_io_store_backend(after) == sqe_io_store_backend(d));

    sqe_store *all[] = {d, k, sc1, sc2, sc3, nosc, k2, after};
    for (size_t i = 0; i < SQE_ARRAY_LEN(all); i++) sqe_store_free(all[i]);
    sqe_io_registry_free(r);
}

typedef struct opener {
    sqe_io_registry *r;
    int ok;
} opener;

static void *open_many(void *arg) {
    opener *o = arg;
    char url[64];
    for (int i = 0; i < 200; i++) {
        snprintf(url, sizeof url, "s3://bucket%d/k", i % 5);
        sqe_error err;
        sqe_error_clear(&err);
        sqe_store *s = sqe_io_registry_open(o->r, url, NULL, &err);
        if (s) o->ok++;
        sqe_store_free(s);
    }
    return NULL;
}

static void test_threads(void) {
    const char *env[] = {"AWS_ENDPOINT_URL=http://127.0.0.1:1", "HOME=/nonexistent", NULL};
    sqe_io_registry *r = reg_env(env, NULL);
    pthread_t th[8];
    opener o[8];
    for (int i = 0; i < 8; i++) {
        o[i] = (opener){r, 0};
        pthread_create(&th[i], NULL, open_many, &o[i]);
    }
    for (int i = 0; i < 8; i++) {
        pthread_join(th[i], NULL);
        CHECK(o[i].ok == 200);
    }
    sqe_io_registry_free(r);
}

int main(void) {
    RUN(test_settings);
    RUN(test_half_keys);
    RUN(test_sharing);
    RUN(test_secrets);
    RUN(test_idle);
    RUN(test_threads);
    return unit_report();
}
