/*
 * registry.c - the session's store registry (io.h): URL + optional named
 * secret -> a shared store.
 *
 * Settings. Each S3 setting is taken from the first layer that has it
 * (SPEC §0.5):
 *   endpoint        flag, SQE_STORAGE__S3_ENDPOINT, AWS_ENDPOINT_URL_S3,
 *                   AWS_ENDPOINT_URL, else AWS itself
 *   region          flag, SQE_STORAGE__S3_REGION, AWS_REGION,
 *                   AWS_DEFAULT_REGION, the profile's `region`, "us-east-1"
 *   addressing      --s3-virtual-hosted or SQE_STORAGE__S3_VIRTUAL_HOSTED=true
 *                   (or AWS_S3_ADDRESSING_STYLE=virtual); otherwise
 *                   path-style with an endpoint, virtual-hosted without
 *   access key      flag, SQE_STORAGE__S3_ACCESS_KEY_ID, then (only when
 *                   one of those gave the key) AWS_ACCESS_KEY_ID
 *   secret key      flag, SQE_STORAGE__S3_SECRET_ACCESS_KEY,
 *                   AWS_SECRET_ACCESS_KEY
 * With no key from a flag or SQE_STORAGE__S3_*, credentials come from the
 * AWS default chain (credentials.c: environment, web identity, profiles,
 * container, IMDS), resolved lazily at the first request.
 *
 * Named secrets (CREATE SECRET) are kept here, per session. A secret's
 * REGION, ENDPOINT and URL_STYLE override the session's settings; its
 * KEY_ID/SECRET/SESSION_TOKEN become a static credential source (without
 * KEY_ID it uses the session's default credentials). A store opened
 * without a secret name uses the secret whose SCOPE is the longest prefix
 * of the URL, if any (DuckDB's rule), else the session defaults.
 *
 * Sharing. One S3 store per (endpoint, region, addressing, bucket,
 * credential identity), created on first open; local paths share one local
 * store. A store that no handle holds and that nobody opened for five
 * minutes (SPEC §12.1) is dropped at the next open, so connections and
 * cached object ETags do not live forever; the next open makes a new one. Every open returns a
 * small handle (a proxy store) holding a reference; the handle forwards each call and its free
 * drops the reference, so the shared store dies when the registry and every handle let go of it.
 * Replacing or dropping a secret only unlinks its stores: statements still holding handles finish
 * with the old keys. sqe_io_store_backend(handle) gives the shared store itself (for
 * backend-specific calls such as sqe_io_s3_put_if_match).
 *
 * Thread safety: one mutex guards the tables; reference counts are
 * atomic; the stores and credential sources are thread-safe themselves.
 *
 * Secrets never leave this file except through the credential sources:
 * SHOW SECRETS gets names, type, scope, region and endpoint only; errors
 * name the secret, never its values.
 */
#include "io/s3.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* SPEC §12.1: a client is reused for five minutes. */
#define REG_IDLE_US (5LL * 60 * 1000000)

/* A credential source shared by several stores. */
typedef struct reg_creds {
    sqe_s3_cred_source *src;
    atomic_int refs;
} reg_creds;

static reg_creds *reg_creds_new(sqe_s3_cred_source *src) {
    reg_creds *c = sqe_calloc(1, sizeof *c);
    c->src = src;
    atomic_init(&c->refs, 1);
    return c;
}

static void reg_creds_unref(reg_creds *c) {
    if (c && atomic_fetch_sub(&c->refs, 1) == 1) {
        sqe_s3_cred_source_free(c->src);
        sqe_free(c);
    }
}

/* One shared store. */
typedef struct reg_entry {
    char *key;
    sqe_store *inner;
    reg_creds *creds;     /* NULL for the local store */
    atomic_int refs;      /* the registry's (while listed) + one per handle */
    int64_t last_open_us; /* wall clock of the last open (under the registry's lock) */
} reg_entry;

static void reg_entry_unref(reg_entry *e) {
    if (e && atomic_fetch_sub(&e->refs, 1) == 1) {
        sqe_store_free(e->inner);
        reg_creds_unref(e->creds);
        sqe_free(e->key);
        sqe_free(e);
    }
}

typedef struct reg_secret {
    char *name;
    char *region, *endpoint, *scope; /* NULL when not given */
    int url_style;                   /* -1: not given; 0: path; 1: vhost */
    reg_creds *creds;                /* NULL: the session's default credentials */
    uint64_t generation;             /* distinguishes a replaced secret's stores */
} reg_secret;

struct sqe_io_registry {
    pthread_mutex_t mu;
    sqe_s3_config base; /* resolved session settings */
    bool vh_forced;     /* addressing chosen by a flag or variable */
    reg_creds *default_creds;
    const char *creds_problem; /* static text: why the default keys are unusable, or NULL */
    SQE_ARRAY(reg_entry *) entries;
    SQE_ARRAY(reg_secret) secrets;
    uint64_t next_generation;
    int64_t idle_us; /* a store no handle holds is dropped after this long unopened */
    /* Totals of stores already unlinked (secret replaced/dropped), so the
     * registry's stats never go backwards. */
    sqe_io_stats retired;
};

/* ------------------------------------------------------------ handles */

typedef struct reg_handle {
    sqe_store base;
    reg_entry *e;
} reg_handle;

static sqe_store *rh_inner(sqe_store *s) {
    return ((reg_handle *)s)->e->inner;
}

static bool rh_list(sqe_store *s, const char *prefix, bool recursive, sqe_io_list_cb cb, void *ctx,
                    sqe_error *err) {
    sqe_store *in = rh_inner(s);
    return in->vt->list(in, prefix, recursive, cb, ctx, err);
}

static bool rh_head(sqe_store *s, const char *path, sqe_io_entry *out, sqe_error *err) {
    sqe_store *in = rh_inner(s);
    return in->vt->head(in, path, out, err);
}

static bool rh_get_range(sqe_store *s, const char *path, uint64_t offset, size_t len, void *buf,
                         size_t *n_read, sqe_error *err) {
    sqe_store *in = rh_inner(s);
    return in->vt->get_range(in, path, offset, len, buf, n_read, err);
}

static bool rh_put(sqe_store *s, const char *path, const void *data, size_t len, sqe_error *err) {
    sqe_store *in = rh_inner(s);
    return in->vt->put(in, path, data, len, err);
}

static bool rh_put_if_absent(sqe_store *s, const char *path, const void *data, size_t len,
                             sqe_error *err) {
    sqe_store *in = rh_inner(s);
    return in->vt->put_if_absent(in, path, data, len, err);
}

static bool rh_del(sqe_store *s, const char *path, sqe_error *err) {
    sqe_store *in = rh_inner(s);
    return in->vt->del(in, path, err);
}

static void rh_free(sqe_store *s) {
    reg_handle *h = (reg_handle *)s;
    reg_entry_unref(h->e);
    sqe_free(h);
}

static void rh_stats(sqe_store *s, sqe_io_stats *out) {
    sqe_store *in = rh_inner(s);
    memset(out, 0, sizeof *out);
    if (in->vt->stats) in->vt->stats(in, out);
}

static bool rh_version(sqe_store *s, const char *path, char *token, size_t cap, sqe_error *err) {
    return sqe_io_version(rh_inner(s), path, token, cap, err);
}

static bool rh_put_if_match(sqe_store *s, const char *path, const void *data, size_t len,
                            const char *token, sqe_error *err) {
    return sqe_io_put_if_match(rh_inner(s), path, data, len, token, err);
}

static bool rh_get_tail(sqe_store *s, const char *path, size_t len, void *buf, size_t *n_read,
                        uint64_t *object_size, sqe_error *err) {
    sqe_store *in = rh_inner(s);
    if (in->vt->get_tail) return in->vt->get_tail(in, path, len, buf, n_read, object_size, err);
    sqe_io_entry e;
    if (!in->vt->head(in, path, &e, err)) return false;
    uint64_t off = e.size > len ? e.size - len : 0;
    *object_size = e.size;
    return in->vt->get_range(in, path, off, (size_t)(e.size - off), buf, n_read, err);
}

static const sqe_store_vtable reg_local_vt = {.name = "local",
                                              .list = rh_list,
                                              .head = rh_head,
                                              .get_range = rh_get_range,
                                              .put = rh_put,
                                              .put_if_absent = rh_put_if_absent,
                                              .del = rh_del,
                                              .free = rh_free,
                                              .stats = rh_stats,
                                              .version = rh_version,
                                              .put_if_match = rh_put_if_match,
                                              .get_tail = rh_get_tail};
static const sqe_store_vtable reg_s3_vt = {.name = "s3",
                                           .list = rh_list,
                                           .head = rh_head,
                                           .get_range = rh_get_range,
                                           .put = rh_put,
                                           .put_if_absent = rh_put_if_absent,
                                           .del = rh_del,
                                           .free = rh_free,
                                           .stats = rh_stats,
                                           .version = rh_version,
                                           .put_if_match = rh_put_if_match,
                                           .get_tail = rh_get_tail};

sqe_store *sqe_io_store_backend(sqe_store *s) {
    if (s && (s->vt == &reg_local_vt || s->vt == &reg_s3_vt)) return rh_inner(s);
    return s;
}

static sqe_store *reg_handle_new(reg_entry *e) {
    reg_handle *h = sqe_calloc(1, sizeof *h);
    h->base.vt = e->creds ? &reg_s3_vt : &reg_local_vt;
    atomic_fetch_add(&e->refs, 1);
    h->e = e;
    return &h->base;
}

/* ------------------------------------------------------------ settings */

static const char *reg_env(const char *const *env, const char *name) {
    extern char **environ;
    const char *const *e = env ? env : (const char *const *)environ;
    size_t n = strlen(name);
    for (size_t i = 0; e && e[i]; i++)
        if (strncmp(e[i], name, n) == 0 && e[i][n] == '=') return e[i][n + 1] ? e[i] + n + 1 : NULL;
    return NULL;
}

static const char *reg_first(const char *const *env, const char *flag, const char *const *names) {
    if (flag && *flag) return flag;
    for (size_t i = 0; names[i]; i++) {
        const char *v = reg_env(env, names[i]);
        if (v) return v;
    }
    return NULL;
}

static bool reg_truthy(const char *v) {
    return v && (sqe_str_ieq(v, "true") || strcmp(v, "1") == 0 || sqe_str_ieq(v, "yes") ||
                 sqe_str_ieq(v, "virtual"));
}

static void reg_settings(sqe_io_registry *r, const char *const *env, const sqe_s3_config *flags) {
    sqe_s3_config_defaults(&r->base);
    static const char *const ep_vars[] = {"SQE_STORAGE__S3_ENDPOINT", "AWS_ENDPOINT_URL_S3",
                                          "AWS_ENDPOINT_URL", NULL};
    static const char *const region_vars[] = {"SQE_STORAGE__S3_REGION", "AWS_REGION",
                                              "AWS_DEFAULT_REGION", NULL};
    const char *ep = reg_first(env, flags ? flags->endpoint : NULL, ep_vars);
    const char *region = reg_first(env, flags ? flags->region : NULL, region_vars);
    if (ep) r->base.endpoint = sqe_strdup(ep);
    r->base.region = region ? sqe_strdup(region) : sqe_s3_profile_region(env);
    if (!r->base.region) r->base.region = sqe_strdup("us-east-1");
    r->vh_forced = (flags && flags->virtual_hosted) ||
                   reg_truthy(reg_env(env, "SQE_STORAGE__S3_VIRTUAL_HOSTED")) ||
                   reg_truthy(reg_env(env, "AWS_S3_ADDRESSING_STYLE"));
    r->base.virtual_hosted = r->vh_forced || !r->base.endpoint;
    if (flags) {
        if (flags->connect_timeout_ms > 0) r->base.connect_timeout_ms = flags->connect_timeout_ms;
        if (flags->request_timeout_ms > 0) r->base.request_timeout_ms = flags->request_timeout_ms;
        if (flags->max_retries > 0) r->base.max_retries = flags->max_retries;
        if (flags->max_in_flight > 0) r->base.max_in_flight = flags->max_in_flight;
    }
}

/* Default credentials: keys from flags or SQE_STORAGE__S3_* (the secret may
 * come from the environment, as --help advises), else the AWS chain. */
static reg_creds *reg_default_creds(const char *const *env, const char *flag_key,
                                    const char *flag_secret, const char **problem) {
    static const char *const key_vars[] = {"SQE_STORAGE__S3_ACCESS_KEY_ID", NULL};
    static const char *const secret_vars[] = {"SQE_STORAGE__S3_SECRET_ACCESS_KEY",
                                              "AWS_SECRET_ACCESS_KEY", NULL};
    static const char *const token_vars[] = {"SQE_STORAGE__S3_SESSION_TOKEN", NULL};
    const char *key = reg_first(env, flag_key, key_vars);
    if (!key) return reg_creds_new(sqe_s3_cred_chain_new(env));
    const char *secret = reg_first(env, flag_secret, secret_vars);
    const char *token = reg_first(env, NULL, token_vars);
    if (!secret)
        *problem = "an access key is given (--s3-access-key or SQE_STORAGE__S3_ACCESS_KEY_ID) but "
                   "no secret key; set AWS_SECRET_ACCESS_KEY or "
                   "SQE_STORAGE__S3_SECRET_ACCESS_KEY (or --s3-secret-key)";
    sqe_s3_creds c = {(char *)key, (char *)(secret ? secret : ""), (char *)token, 0};
    return reg_creds_new(sqe_s3_cred_static_new(&c));
}

sqe_io_registry *sqe_io_registry_new(const char *const *env, const struct sqe_s3_config *flags) {
    return sqe_io_registry_new_with_keys(env, flags, NULL, NULL);
}

sqe_io_registry *sqe_io_registry_new_with_keys(const char *const *env,
                                               const struct sqe_s3_config *flags,
                                               const char *access_key, const char *secret_key) {
    sqe_io_registry *r = sqe_calloc(1, sizeof *r);
    pthread_mutex_init(&r->mu, NULL);
    reg_settings(r, env, flags);
    r->default_creds = reg_default_creds(env, access_key, secret_key, &r->creds_problem);
    r->next_generation = 1;
    r->idle_us = REG_IDLE_US;
    return r;
}

static void reg_stats_add(sqe_io_stats *to, const sqe_io_stats *s) {
    to->n_list += s->n_list;
    to->n_get += s->n_get;
    to->n_head += s->n_head;
    to->n_put += s->n_put;
    to->n_del += s->n_del;
    to->n_retry += s->n_retry;
    to->bytes_read += s->bytes_read;
    to->bytes_written += s->bytes_written;
}

/* Unlinks entry i (the registry's reference), keeping its counts. */
static void reg_unlink(sqe_io_registry *r, size_t i) {
    reg_entry *e = r->entries.items[i];
    if (e->inner->vt->stats) {
        sqe_io_stats s;
        e->inner->vt->stats(e->inner, &s);
        reg_stats_add(&r->retired, &s);
    }
    r->entries.items[i] = r->entries.items[--r->entries.len];
    reg_entry_unref(e);
}

static void reg_secret_clear(reg_secret *s) {
    sqe_free(s->name);
    sqe_free(s->region);
    sqe_free(s->endpoint);
    sqe_free(s->scope);
    reg_creds_unref(s->creds);
    memset(s, 0, sizeof *s);
}

void sqe_io_registry_free(sqe_io_registry *r) {
    if (!r) return;
    while (r->entries.len) reg_unlink(r, r->entries.len - 1);
    SQE_ARRAY_FREE(r->entries);
    for (size_t i = 0; i < r->secrets.len; i++) reg_secret_clear(&r->secrets.items[i]);
    SQE_ARRAY_FREE(r->secrets);
    reg_creds_unref(r->default_creds);
    sqe_s3_config_clear(&r->base);
    pthread_mutex_destroy(&r->mu);
    sqe_free(r);
}

/* ------------------------------------------------------------ secrets */

static reg_secret *reg_find_secret(sqe_io_registry *r, const char *name) {
    for (size_t i = 0; i < r->secrets.len; i++)
        if (sqe_str_ieq(r->secrets.items[i].name, name)) return &r->secrets.items[i];
    return NULL;
}

/* Unlinks the stores made with secret generation `gen`. */
static void reg_unlink_secret_stores(sqe_io_registry *r, uint64_t gen) {
    char tag[48];
    snprintf(tag, sizeof tag, "|secret#%llu", (unsigned long long)gen);
    for (size_t i = r->entries.len; i-- > 0;)
        if (sqe_str_ends_with(r->entries.items[i]->key, tag)) reg_unlink(r, i);
}

static char *reg_dup_opt(const char *s) {
    return s && *s ? sqe_strdup(s) : NULL;
}

static bool reg_check_secret(const sqe_io_secret *s, sqe_error *err) {
    if (!s->name || !*s->name)
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT, "a secret needs a name");
    bool has_key = s->key_id && *s->key_id, has_secret = s->secret && *s->secret;
    if (has_key != has_secret)
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                             "secret '%s' has %s but no %s; give both (or neither, to use the "
                             "session's credentials)",
                             s->name, has_key ? "KEY_ID" : "SECRET", has_key ? "SECRET" : "KEY_ID");
    if (s->session_token && *s->session_token && !has_key)
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                             "secret '%s' has SESSION_TOKEN but no KEY_ID and SECRET", s->name);
    if (s->scope && *s->scope &&
        !(sqe_str_starts_with(s->scope, "s3://") && sqe_io_check_url(s->scope, NULL)))
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                             "SCOPE '%s' of secret '%s' must be an s3://bucket[/prefix] URL",
                             s->scope, s->name);
    if (s->endpoint && *s->endpoint && !sqe_str_starts_with(s->endpoint, "http://") &&
        !sqe_str_starts_with(s->endpoint, "https://"))
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                             "ENDPOINT '%s' of secret '%s' must start with http:// or https://",
                             s->endpoint, s->name);
    return true;
}

bool sqe_io_registry_create_secret(sqe_io_registry *r, const sqe_io_secret *s, bool or_replace,
                                   bool if_not_exists, sqe_error *err) {
    if (!reg_check_secret(s, err)) return false;
    reg_secret ns = {0};
    ns.name = sqe_str_lower(sqe_strdup(s->name));
    ns.region = reg_dup_opt(s->region);
    ns.endpoint = reg_dup_opt(s->endpoint);
    ns.scope = reg_dup_opt(s->scope);
    ns.url_style = s->url_style;
    if (s->key_id && *s->key_id) {
        sqe_s3_creds c = {(char *)s->key_id, (char *)s->secret,
                          (char *)(s->session_token && *s->session_token ? s->session_token : NULL),
                          0};
        ns.creds = reg_creds_new(sqe_s3_cred_static_new(&c));
    }
    pthread_mutex_lock(&r->mu);
    ns.generation = r->next_generation++;
    reg_secret *old = reg_find_secret(r, ns.name);
    bool ok = true;
    if (old && if_not_exists) {
        reg_secret_clear(&ns);
    } else if (old && !or_replace) {
        ok = sqe_error_set(err, SQE_ERR_ALREADY_EXISTS,
                           "secret '%s' already exists; use CREATE OR REPLACE SECRET or DROP "
                           "SECRET %s first",
                           ns.name, ns.name);
        reg_secret_clear(&ns);
    } else if (old) {
        reg_unlink_secret_stores(r, old->generation);
        reg_secret_clear(old);
        *old = ns;
    } else {
        size_t at = 0;
        while (at < r->secrets.len && strcmp(r->secrets.items[at].name, ns.name) < 0) at++;
        SQE_ARRAY_PUSH(NULL, r->secrets, ns);
        memmove(&r->secrets.items[at + 1], &r->secrets.items[at],
                (r->secrets.len - 1 - at) * sizeof ns);
        r->secrets.items[at] = ns;
    }
    pthread_mutex_unlock(&r->mu);
    return ok;
}

bool sqe_io_registry_drop_secret(sqe_io_registry *r, const char *name, bool if_exists,
                                 sqe_error *err) {
    pthread_mutex_lock(&r->mu);
    reg_secret *s = reg_find_secret(r, name);
    bool ok = true;
    if (s) {
        reg_unlink_secret_stores(r, s->generation);
        reg_secret_clear(s);
        size_t i = (size_t)(s - r->secrets.items);
        memmove(s, s + 1, (r->secrets.len - 1 - i) * sizeof *s);
        r->secrets.len--;
    } else if (!if_exists) {
        ok = sqe_error_set(err, SQE_ERR_NOT_FOUND,
                           "secret '%s' does not exist; SHOW SECRETS lists this session's "
                           "secrets (DROP SECRET IF EXISTS ignores a missing one)",
                           name);
    }
    pthread_mutex_unlock(&r->mu);
    return ok;
}

void sqe_io_registry_list_secrets(sqe_io_registry *r, sqe_io_secret_cb cb, void *ctx) {
    pthread_mutex_lock(&r->mu);
    for (size_t i = 0; i < r->secrets.len; i++) {
        const reg_secret *s = &r->secrets.items[i];
        sqe_io_secret_info info = {
            .name = s->name,
            .type = "s3",
            .scope = s->scope,
            .region = s->region,
            .endpoint = s->endpoint,
            .url_style = s->url_style < 0 ? NULL
                         : s->url_style   ? "vhost"
                                          : "path",
            .has_keys = s->creds != NULL,
        };
        cb(&info, ctx);
    }
    pthread_mutex_unlock(&r->mu);
}

/* The secret whose SCOPE is the longest prefix of url (at a '/' or the
 * end), or NULL. */
static reg_secret *reg_scope_match(sqe_io_registry *r, const char *url) {
    reg_secret *best = NULL;
    size_t best_len = 0;
    for (size_t i = 0; i < r->secrets.len; i++) {
        reg_secret *s = &r->secrets.items[i];
        if (!s->scope) continue;
        size_t n = strlen(s->scope);
        while (n > 5 && s->scope[n - 1] == '/') n--;
        if (strncmp(url, s->scope, n) != 0) continue;
        if (url[n] != '\0' && url[n] != '/') continue;
        if (n > best_len) best = s, best_len = n;
    }
    return best;
}

/* ------------------------------------------------------------ opening */

static reg_entry *reg_find_entry(sqe_io_registry *r, const char *key) {
    for (size_t i = 0; i < r->entries.len; i++)
        if (strcmp(r->entries.items[i]->key, key) == 0) return r->entries.items[i];
    return NULL;
}

/* Unlinks stores that no handle holds (only the registry's reference is
 * left; new handles are made under the lock, so none can appear) and that
 * were last opened longer than idle_us ago: their connections, cached
 * ETags and resolved endpoints are not kept forever. Lock held. */
static void reg_sweep_idle(sqe_io_registry *r, int64_t now) {
    for (size_t i = r->entries.len; i-- > 0;) {
        reg_entry *e = r->entries.items[i];
        if (atomic_load(&e->refs) == 1 && now - e->last_open_us >= r->idle_us) reg_unlink(r, i);
    }
}

void sqe_io_registry_set_idle_ms(sqe_io_registry *r, int64_t ms) {
    pthread_mutex_lock(&r->mu);
    r->idle_us = ms * 1000;
    pthread_mutex_unlock(&r->mu);
}

static reg_entry *reg_add_entry(sqe_io_registry *r, char *key, sqe_store *inner, reg_creds *creds) {
    reg_entry *e = sqe_calloc(1, sizeof *e);
    e->key = key;
    e->inner = inner;
    e->creds = creds;
    if (creds) atomic_fetch_add(&creds->refs, 1);
    atomic_init(&e->refs, 1);
    SQE_ARRAY_PUSH(NULL, r->entries, e);
    return e;
}

/* The S3 store for url under `sec` (NULL: session defaults). Called with
 * the lock held. */
static reg_entry *reg_s3_entry(sqe_io_registry *r, const char *url, reg_secret *sec,
                               sqe_error *err) {
    if ((!sec || !sec->creds) && r->creds_problem) {
        sqe_error_set(err, SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE, "cannot open '%s': %s", url,
                      r->creds_problem);
        return NULL;
    }
    const char *b = url + 5;
    size_t bl = strcspn(b, "/");
    char *bucket = sqe_strndup(b, bl);
    sqe_s3_config cfg = r->base;
    if (sec && sec->region) cfg.region = sec->region;
    if (sec && sec->endpoint) {
        cfg.endpoint = sec->endpoint;
        cfg.virtual_hosted = r->vh_forced;
    }
    if (sec && sec->url_style >= 0) cfg.virtual_hosted = sec->url_style == 1;
    reg_creds *creds = sec && sec->creds ? sec->creds : r->default_creds;
    char *key = sqe_asprintf("%s|%s|%d|%s|%s#%llu", cfg.endpoint ? cfg.endpoint : "aws", cfg.region,
                             cfg.virtual_hosted ? 1 : 0, bucket, sec ? "secret" : "default",
                             (unsigned long long)(sec ? sec->generation : 0));
    reg_entry *e = reg_find_entry(r, key);
    if (e) {
        sqe_free(key);
    } else {
        sqe_store *inner = sqe_io_s3_new(&cfg, bucket, creds->src, err);
        if (inner) {
            e = reg_add_entry(r, key, inner, creds);
            if (sqe_log_enabled(SQE_LOG_DEBUG))
                sqe_log(SQE_LOG_DEBUG, "io", "S3 store for bucket '%s' at %s (%s, %s-style)%s%s",
                        bucket, cfg.endpoint ? cfg.endpoint : "AWS", cfg.region,
                        cfg.virtual_hosted ? "virtual-hosted" : "path", sec ? ", secret " : "",
                        sec ? sec->name : "");
        } else {
            sqe_free(key);
        }
    }
    sqe_free(bucket);
    return e;
}

sqe_store *sqe_io_registry_open(sqe_io_registry *r, const char *url, const char *secret,
                                sqe_error *err) {
    if (!sqe_io_check_url(url, err)) return NULL;
    bool s3 = sqe_str_ieqn(url, "s3://", 5);
    if (secret && !*secret) secret = NULL;
    pthread_mutex_lock(&r->mu);
    int64_t now = sqe_clock_wall_us();
    reg_sweep_idle(r, now);
    reg_entry *e = NULL;
    if (!s3) {
        e = reg_find_entry(r, "local");
        if (!e) e = reg_add_entry(r, sqe_strdup("local"), sqe_io_local_new(), NULL);
    } else {
        reg_secret *sec = secret ? reg_find_secret(r, secret) : reg_scope_match(r, url);
        if (secret && !sec)
            sqe_error_set(err, SQE_ERR_NOT_FOUND,
                          "secret '%s' (for '%s') does not exist in this session; CREATE SECRET "
                          "%s (TYPE S3, KEY_ID '...', SECRET '...') first, or correct the "
                          "table's sqe.secret property",
                          secret, url, secret);
        else
            e = reg_s3_entry(r, url, sec, err);
    }
    if (e) e->last_open_us = now;
    sqe_store *h = e ? reg_handle_new(e) : NULL;
    pthread_mutex_unlock(&r->mu);
    return h;
}

bool sqe_io_registry_stats(sqe_io_registry *r, sqe_io_stats *out) {
    pthread_mutex_lock(&r->mu);
    *out = r->retired;
    bool any = false;
    for (size_t i = 0; i < r->entries.len; i++) {
        sqe_store *in = r->entries.items[i]->inner;
        if (!in->vt->stats) continue;
        sqe_io_stats s;
        in->vt->stats(in, &s);
        reg_stats_add(out, &s);
        any = true;
    }
    pthread_mutex_unlock(&r->mu);
    return any;
}

const sqe_s3_config *sqe_io_registry_config(const sqe_io_registry *r) {
    return &r->base;
}
