/*
 * secrets.c - CREATE SECRET, DROP SECRET and SHOW SECRETS (SPEC §12.3): the
 * statements' meaning; the secrets themselves live in the session's store
 * registry (io/registry.c), which turns them into credential sources.
 *
 * Options of CREATE SECRET (each at most once):
 *   TYPE          S3 (required; the only type)
 *   KEY_ID        access key id          } both or neither; without them the
 *   SECRET        secret access key      } secret uses the session's
 *   SESSION_TOKEN temporary credentials  } credentials (flags, env, chain)
 *   REGION        e.g. 'eu-west-1'
 *   ENDPOINT      'http://host:port' or, as in DuckDB, 'host:port' (https
 *                 unless USE_SSL false); an endpoint selects path-style
 *   URL_STYLE     'path' or 'vhost'
 *   USE_SSL       true/false (only with an ENDPOINT without a scheme)
 *   SCOPE         's3://bucket[/prefix]': used for those URLs when a
 *                 table names no sqe.secret (longest scope wins)
 * PERSISTENT is refused: secrets are session-scoped here (sqe.toml's
 * [secrets.<name>] is the persistent form).
 *
 * No value given to KEY_ID, SECRET or SESSION_TOKEN is ever copied into an
 * error, a notice, a log line or a SHOW row: errors name the option only.
 * SHOW SECRETS lists name, type, scope, region, endpoint, url_style and
 * whether the secret carries keys.
 */
#include "engine/engine_int.h"

#include "io/io.h"

#include <string.h>

typedef struct secret_opts {
    const char *type, *key_id, *secret, *token, *region, *endpoint, *url_style, *use_ssl, *scope;
} secret_opts;

static bool secret_take(const sqe_ast_stmt *st, secret_opts *o, sqe_error *err) {
    static const struct {
        const char *name;
        size_t off;
    } known[] = {
        {"type", offsetof(secret_opts, type)},
        {"key_id", offsetof(secret_opts, key_id)},
        {"secret", offsetof(secret_opts, secret)},
        {"session_token", offsetof(secret_opts, token)},
        {"region", offsetof(secret_opts, region)},
        {"endpoint", offsetof(secret_opts, endpoint)},
        {"url_style", offsetof(secret_opts, url_style)},
        {"use_ssl", offsetof(secret_opts, use_ssl)},
        {"scope", offsetof(secret_opts, scope)},
    };
    const char *name = st->u.create_secret.name.name;
    memset(o, 0, sizeof *o);
    for (int i = 0; i < st->u.create_secret.n_options; i++) {
        const sqe_ast_kv *kv = &st->u.create_secret.options[i];
        const char **slot = NULL;
        for (size_t k = 0; k < SQE_ARRAY_LEN(known) && !slot; k++)
            if (strcmp(kv->key, known[k].name) == 0)
                slot = (const char **)((char *)o + known[k].off);
        if (!slot)
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "unknown option '%s' in CREATE SECRET %s; the options are TYPE, "
                                 "KEY_ID, SECRET, SESSION_TOKEN, REGION, ENDPOINT, URL_STYLE, "
                                 "USE_SSL and SCOPE",
                                 kv->key, name);
        if (*slot)
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "option %s is given twice in CREATE SECRET %s", kv->key, name);
        *slot = kv->value;
    }
    if (!o->type)
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT, "CREATE SECRET %s needs TYPE S3", name);
    if (!sqe_str_ieq(o->type, "s3"))
        return sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                             "secret type '%s' (CREATE SECRET %s) is not supported; sqe has "
                             "TYPE S3 only",
                             o->type, name);
    if (o->url_style && !sqe_str_ieq(o->url_style, "path") && !sqe_str_ieq(o->url_style, "vhost"))
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                             "URL_STYLE '%s' of secret %s must be 'path' or 'vhost'", o->url_style,
                             name);
    if (o->use_ssl && !sqe_str_ieq(o->use_ssl, "true") && !sqe_str_ieq(o->use_ssl, "false"))
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                             "USE_SSL '%s' of secret %s must be true or false", o->use_ssl, name);
    return true;
}

static bool secret_create(sqe_io_registry *reg, const sqe_ast_stmt *st, sqe_error *err) {
    const char *name = st->u.create_secret.name.name;
    if (st->u.create_secret.persistent)
        return sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                             "CREATE PERSISTENT SECRET %s: secrets live as long as the session; "
                             "put lasting ones in sqe.toml as [secrets.%s]",
                             name, name);
    secret_opts o;
    if (!secret_take(st, &o, err)) return false;
    char *endpoint = NULL;
    if (o.endpoint && !strstr(o.endpoint, "://"))
        endpoint = sqe_asprintf(
            "%s://%s", o.use_ssl && sqe_str_ieq(o.use_ssl, "false") ? "http" : "https", o.endpoint);
    sqe_io_secret s = {
        .name = name,
        .key_id = o.key_id,
        .secret = o.secret,
        .session_token = o.token,
        .region = o.region,
        .endpoint = endpoint ? endpoint : o.endpoint,
        .scope = o.scope,
        .url_style = !o.url_style                        ? -1
                     : sqe_str_ieq(o.url_style, "vhost") ? 1
                                                         : 0,
    };
    bool ok = sqe_io_registry_create_secret(reg, &s, st->u.create_secret.or_replace,
                                            st->u.create_secret.if_not_exists, err);
    sqe_free(endpoint);
    return ok;
}

typedef struct secret_rows {
    sqe_resultset *rs;
} secret_rows;

static void secret_row(const sqe_io_secret_info *info, void *ctx) {
    secret_rows *r = ctx;
    const char *vals[7] = {info->name,
                           info->type,
                           info->scope,
                           info->region,
                           info->endpoint,
                           info->url_style,
                           info->has_keys ? "true" : "false"};
    sqe_resultset_add_text_row(r->rs, vals);
}

bool sqe_engine_secret_stmt(sqe_session *s, const sqe_ast_stmt *st, sqe_resultset **out,
                            const char **status, sqe_error *err) {
    sqe_io_registry *reg = sqe_hive_catalog_registry(sqe_session_catalog(s));
    *out = NULL;
    switch (st->kind) {
    case SQE_STMT_CREATE_SECRET:
        if (!secret_create(reg, st, err)) return false;
        *status = "CREATE SECRET";
        break;
    case SQE_STMT_DROP_SECRET:
        if (!sqe_io_registry_drop_secret(reg, st->u.drop_secret.name.name,
                                         st->u.drop_secret.if_exists, err))
            return false;
        *status = "DROP SECRET";
        break;
    default: {
        static const char *const names[] = {"name",     "type",      "scope",   "region",
                                            "endpoint", "url_style", "has_keys"};
        sqe_type types[7];
        for (int i = 0; i < 7; i++) types[i] = sqe_type_make(SQE_T_VARCHAR);
        types[6] = sqe_type_make(SQE_T_BOOLEAN);
        secret_rows r = {sqe_resultset_new(7, names, types)};
        sqe_io_registry_list_secrets(reg, secret_row, &r);
        *out = r.rs;
        return true;
    }
    }
    /* Roots cache their store; a new or dropped SCOPE may change it. */
    sqe_hive_catalog_reset_stores(sqe_session_catalog(s));
    return true;
}
