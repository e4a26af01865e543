/*
 * catalog.c - the session's view of the warehouse: attached roots, the
 * current root and database (USE), name resolution, and sqe_hive_execute,
 * the one entry point for catalog statements.
 *
 * Layout on storage (SPEC §2.1):
 *   <root>/<db>/_database.json            written by CREATE DATABASE
 *   <root>/<db>/<table>.manifest.json     one per table (or view)
 * A database exists when its folder holds _database.json or at least one
 * manifest; "default" always exists. Nothing is cached: every statement
 * lists or reads what it needs, so two processes sharing a root agree.
 *
 * Name resolution (tables): t = current root + current db; d.t = current
 * root; r.d.t = explicit root. Databases: d = current root; r.d. Every part
 * folds to lower case and must be [a-z0-9_]+ (SPEC §2.5).
 *
 * Control flow of sqe_hive_execute:
 *   sqe_hive_execute
 *     exec_attach / exec_detach          roots (no I/O)
 *     exec_create_database / exec_drop_database
 *     exec_create_table                  hive_ddl_build (ddl.c) -> resolve
 *                                        -> head (exists?) -> hive_manifest_store
 *     exec_drop_table                    store->del of the manifest only
 *     exec_show_create / exec_describe   load_table -> show.c
 *     exec_show_tables / exec_show_databases   listings
 *     exec_show_partitions               sqe_hive_list_partitions (partitions.c)
 *     exec_use
 */
#include "hive/hive_int.h"
#include "io/io.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define DB_FILE "_database.json"
#define MANIFEST_SUFFIX ".manifest.json"

/* ------------------------------------------------------------ catalog */

sqe_hive_catalog *sqe_hive_catalog_new(const sqe_hive_limits *limits) {
    sqe_hive_catalog *cat = sqe_calloc(1, sizeof *cat);
    cat->limits.manifest_max_bytes = 1u << 20;
    cat->limits.manifest_max_columns = 4096;
    cat->limits.manifest_max_partition_keys = 32;
    if (limits) {
        if (limits->manifest_max_bytes) cat->limits.manifest_max_bytes = limits->manifest_max_bytes;
        if (limits->manifest_max_columns > 0)
            cat->limits.manifest_max_columns = limits->manifest_max_columns;
        if (limits->manifest_max_partition_keys > 0)
            cat->limits.manifest_max_partition_keys = limits->manifest_max_partition_keys;
    }
    cat->current_db = sqe_strdup(SQE_DEFAULT_DATABASE);
    cat->registry = sqe_io_registry_new(NULL, NULL);
    cat->own_registry = true;
    return cat;
}

void sqe_hive_catalog_set_registry(sqe_hive_catalog *cat, sqe_io_registry *reg) {
    sqe_hive_catalog_reset_stores(cat);
    if (cat->own_registry) sqe_io_registry_free(cat->registry);
    cat->registry = reg;
    cat->own_registry = false;
    for (size_t i = 0; i < cat->roots.len; i++) cat->roots.items[i].registry = reg;
}

sqe_io_registry *sqe_hive_catalog_registry(sqe_hive_catalog *cat) {
    return cat->registry;
}

void sqe_hive_catalog_reset_stores(sqe_hive_catalog *cat) {
    for (size_t i = 0; i < cat->roots.len; i++) {
        sqe_store_free(cat->roots.items[i].store);
        cat->roots.items[i].store = NULL;
    }
}

static void root_free(hive_root *r) {
    sqe_free(r->name);
    sqe_free(r->url);
    sqe_store_free(r->store);
}

void sqe_hive_catalog_free(sqe_hive_catalog *cat) {
    if (!cat) return;
    for (size_t i = 0; i < cat->roots.len; i++) root_free(&cat->roots.items[i]);
    SQE_ARRAY_FREE(cat->roots);
    sqe_free(cat->current_root);
    sqe_free(cat->current_db);
    if (cat->own_registry) sqe_io_registry_free(cat->registry);
    sqe_free(cat);
}

static hive_root *find_root(sqe_hive_catalog *cat, const char *name) {
    for (size_t i = 0; i < cat->roots.len; i++)
        if (strcmp(cat->roots.items[i].name, name) == 0) return &cat->roots.items[i];
    return NULL;
}

hive_root *hive_find_root(sqe_hive_catalog *cat, const char *name) {
    return find_root(cat, name);
}

static hive_root *current_root(sqe_hive_catalog *cat) {
    return cat->current_root ? find_root(cat, cat->current_root) : NULL;
}

sqe_store *hive_root_store(hive_root *r, sqe_error *err) {
    if (!r->store) r->store = sqe_io_registry_open(r->registry, r->url, NULL, err);
    return r->store;
}

char *hive_db_url(const hive_root *r, const char *db) {
    char *base = sqe_io_join(r->url, db);
    char *out = sqe_asprintf("%s/", base);
    sqe_free(base);
    return out;
}

char *hive_manifest_url(const hive_root *r, const char *db, const char *table) {
    char *base = sqe_io_join(r->url, db);
    char *file = sqe_asprintf("%s" MANIFEST_SUFFIX, table);
    char *out = sqe_io_join(base, file);
    sqe_free(base);
    sqe_free(file);
    return out;
}

void hive_name_free(hive_name *n) {
    sqe_free(n->db);
    sqe_free(n->table);
    n->db = n->table = NULL;
}

static void notice(sqe_strbuf *sb, const char *fmt, ...) SQE_PRINTF(2, 3);
static void notice(sqe_strbuf *sb, const char *fmt, ...) {
    if (!sb) return;
    va_list ap;
    va_start(ap, fmt);
    sqe_strbuf_vprintf(sb, fmt, ap);
    va_end(ap);
    sqe_strbuf_putc(sb, '\n');
}

/* ------------------------------------------------------------ roots */

bool sqe_hive_attach(sqe_hive_catalog *cat, const char *name, const char *url, const char *type,
                     sqe_error *err) {
    if (type && !sqe_str_ieq(type, "hive_external")) {
        if (sqe_str_ieq(type, "hive"))
            return sqe_error_set(
                err, SQE_ERR_HIVE_EXTERNAL,
                "TYPE hive means a Hive Metastore, which sqe does not connect to; use TYPE "
                "hive_external for a manifest warehouse root");
        return sqe_error_set(
            err, SQE_ERR_NOT_SUPPORTED,
            "ATTACH TYPE '%s' is not supported; use TYPE hive_external for a manifest "
            "warehouse root",
            type);
    }
    char *folded = hive_fold_name(name);
    if (!folded)
        return sqe_error_set(
            err, SQE_ERR_HIVE_EXTERNAL,
            "invalid root name '%s': names must match [a-z0-9_]+ after lower-casing",
            name ? name : "");
    if (strlen(folded) > HIVE_NAME_MAX) {
        sqe_error_set(err, SQE_ERR_HIVE_EXTERNAL,
                      "invalid root name '%s': it is %zu characters long, more than the limit of "
                      "%d",
                      folded, strlen(folded), HIVE_NAME_MAX);
        sqe_free(folded);
        return false;
    }
    if (!strcmp(folded, "system") || !strcmp(folded, "information_schema") ||
        !strcmp(folded, SQE_DEFAULT_CATALOG)) {
        sqe_error_set(err, SQE_ERR_ALREADY_EXISTS,
                      "cannot attach a root named '%s': the name is a built-in catalog", folded);
        sqe_free(folded);
        return false;
    }
    hive_root *old = find_root(cat, folded);
    if (old) {
        sqe_error_set(err, SQE_ERR_ALREADY_EXISTS, "root '%s' is already attached (to '%s')",
                      folded, old->url);
        sqe_free(folded);
        return false;
    }
    if (!sqe_io_check_url(url, err)) {
        sqe_free(folded);
        return false;
    }
    hive_root r = {folded, sqe_strdup(url), NULL, cat->registry};
    SQE_ARRAY_PUSH(NULL, cat->roots, r);
    if (!cat->current_root) {
        cat->current_root = sqe_strdup(folded);
        sqe_free(cat->current_db);
        cat->current_db = sqe_strdup(SQE_DEFAULT_DATABASE);
    }
    return true;
}

/* Attaching from a statement or --hive-root: as sqe_hive_attach, then the
 * root's folder must exist (a typo would otherwise attach an empty root
 * whose every statement says "does not exist"). S3 roots are checked at
 * first use. On failure the root is detached again. `name_it` prefixes the
 * folder error with "cannot attach root '<name>': " (the --hive-root
 * caller names the flag itself). */
static bool attach_checked(sqe_hive_catalog *cat, const char *name, const char *url,
                           const char *type, bool name_it, sqe_error *err) {
    bool had_current = cat->current_root != NULL;
    if (!sqe_hive_attach(cat, name, url, type, err)) return false;
    if (sqe_io_check_folder(url, err)) return true;
    hive_root *r = &cat->roots.items[cat->roots.len - 1];
    if (name_it) sqe_error_prefix(err, "cannot attach root '%s': ", r->name);
    root_free(r);
    cat->roots.len--;
    if (!had_current) {
        sqe_free(cat->current_root);
        cat->current_root = NULL;
    }
    return false;
}

bool sqe_hive_attach_spec(sqe_hive_catalog *cat, const char *spec, sqe_error *err) {
    const char *eq = spec ? strchr(spec, '=') : NULL;
    if (!eq || eq == spec || !eq[1])
        return sqe_error_set(err, SQE_ERR_USAGE, "invalid --hive-root '%s': expected NAME=URL",
                             spec ? spec : "");
    char *name = sqe_strndup(spec, (size_t)(eq - spec));
    bool ok = attach_checked(cat, name, eq + 1, NULL, false, err);
    sqe_free(name);
    return ok;
}

const char *sqe_hive_current_root(const sqe_hive_catalog *cat) {
    return cat->current_root;
}
const char *sqe_hive_current_database(const sqe_hive_catalog *cat) {
    return cat->current_db;
}
int sqe_hive_root_count(const sqe_hive_catalog *cat) {
    return (int)cat->roots.len;
}
const char *sqe_hive_root_name(const sqe_hive_catalog *cat, int i) {
    return (i >= 0 && (size_t)i < cat->roots.len) ? cat->roots.items[i].name : NULL;
}
const char *sqe_hive_root_url(const sqe_hive_catalog *cat, int i) {
    return (i >= 0 && (size_t)i < cat->roots.len) ? cat->roots.items[i].url : NULL;
}

/* ------------------------------------------------------------ names */

static char *join_parts(int n, const char *const *parts) {
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    for (int i = 0; i < n; i++) {
        if (i) sqe_strbuf_putc(&sb, '.');
        sqe_strbuf_puts(&sb, parts[i] ? parts[i] : "");
    }
    if (!sb.data) return sqe_strdup("");
    return sqe_strbuf_detach(&sb);
}

/* Database and table names longer than Hive's limit are refused by name,
 * before a path is built from them (the OS would fail with "File name too
 * long", or worse, accept a name Hive cannot read). */
static bool name_length_ok(const char *kind, const char *name, sqe_error *err) {
    size_t n = strlen(name);
    if (n <= HIVE_NAME_MAX) return true;
    return sqe_error_set(err, SQE_ERR_HIVE_EXTERNAL,
                         "invalid %s name '%s': it is %zu characters long, more than the limit of "
                         "%d",
                         kind, name, n, HIVE_NAME_MAX);
}

/* Resolves a table name (is_table) or a database name. `creating` changes
 * the wording of the no-current-root error and reserves
 * information_schema. */
static bool resolve_name(sqe_hive_catalog *cat, int n, const char *const *parts, bool is_table,
                         bool creating, hive_name *out, sqe_error *err) {
    memset(out, 0, sizeof *out);
    int max = is_table ? 3 : 2;
    const char *kind = is_table ? "table" : "database";
    char *full = join_parts(n, parts);
    bool ok = false;
    if (n < 1 || n > max) {
        sqe_error_set(err, SQE_ERR_USAGE, "%s name '%s' has %d parts; expected %s", kind, full, n,
                      is_table ? "table, db.table or root.db.table" : "db or root.db");
        goto out;
    }
    if (n == max) {
        char *rn = sqe_str_lower(sqe_strdup(parts[0] ? parts[0] : ""));
        out->root = find_root(cat, rn);
        if (!out->root) sqe_error_set(err, SQE_ERR_NOT_FOUND, "root '%s' is not attached", rn);
        sqe_free(rn);
        if (!out->root) goto out;
    } else {
        out->root = current_root(cat);
        if (!out->root) {
            if (creating)
                sqe_error_set(
                    err, SQE_ERR_NOT_FOUND,
                    "cannot create %s '%s': no warehouse root is current; ATTACH one or use %s",
                    kind, full, is_table ? "root.db.table" : "root.db");
            else
                sqe_error_set(
                    err, SQE_ERR_NOT_FOUND,
                    "%s '%s' not found: no warehouse root is current; ATTACH one or use %s", kind,
                    full, is_table ? "root.db.table" : "root.db");
            goto out;
        }
    }
    const char *db_part = NULL, *tbl_part = NULL;
    if (is_table) {
        tbl_part = parts[n - 1];
        db_part = n >= 2 ? parts[n - 2] : NULL;
    } else {
        db_part = parts[n - 1];
    }
    if (db_part) {
        out->db = hive_fold_name(db_part);
        if (!out->db) {
            sqe_error_set(
                err, SQE_ERR_HIVE_EXTERNAL,
                "invalid database name '%s': names must match [a-z0-9_]+ after lower-casing",
                db_part);
            goto out;
        }
    } else {
        out->db = sqe_strdup(cat->current_db);
    }
    if (!name_length_ok("database", out->db, err)) goto out;
    if (creating && strcmp(out->db, "information_schema") == 0) {
        /* the built-in metadata schema of every root (SELECT reads it, not
         * a folder), so a folder of that name could never be queried */
        sqe_error_set(err, SQE_ERR_ALREADY_EXISTS,
                      "cannot create %s '%s': database name 'information_schema' is reserved for "
                      "the built-in metadata schema; choose another name",
                      kind, full);
        goto out;
    }
    if (tbl_part) {
        out->table = hive_fold_name(tbl_part);
        if (!out->table) {
            sqe_error_set(err, SQE_ERR_HIVE_EXTERNAL,
                          "invalid table name '%s': names must match [a-z0-9_]+ after lower-casing",
                          tbl_part);
            goto out;
        }
        if (!name_length_ok("table", out->table, err)) goto out;
    }
    ok = true;
out:
    sqe_free(full);
    if (!ok) hive_name_free(out);
    return ok;
}

static bool resolve_qname(sqe_hive_catalog *cat, const sqe_qname *q, bool is_table, bool creating,
                          hive_name *out, sqe_error *err) {
    int n = q->n_parts;
    const char **parts = sqe_calloc(n > 0 ? (size_t)n : 1, sizeof *parts);
    for (int i = 0; i < n; i++) parts[i] = q->parts[i].name;
    bool ok = resolve_name(cat, n, parts, is_table, creating, out, err);
    sqe_free(parts);
    return ok;
}

/* Loads and validates the manifest of a resolved table name. */
static bool load_table(sqe_hive_catalog *cat, const hive_name *nm, hive_manifest *m,
                       char **path_out, sqe_error *err) {
    sqe_store *store = hive_root_store(nm->root, err);
    if (!store) return false;
    char *path = hive_manifest_url(nm->root, nm->db, nm->table);
    if (!hive_manifest_load(store, path, nm->table, &cat->limits, m, err)) {
        if (err && err->cls == SQE_ERR_NOT_FOUND)
            sqe_error_set(err, SQE_ERR_NOT_FOUND,
                          "table '%s.%s.%s' not found (no manifest at '%s')", nm->root->name,
                          nm->db, nm->table, path);
        sqe_free(path);
        return false;
    }
    if (path_out)
        *path_out = path;
    else
        sqe_free(path);
    return true;
}

sqe_hive_table *sqe_hive_resolve_table(sqe_hive_catalog *cat, int n_parts, const char *const *parts,
                                       sqe_error *err) {
    hive_name nm;
    if (!resolve_name(cat, n_parts, parts, true, false, &nm, err)) return NULL;
    hive_manifest m;
    char *path = NULL;
    sqe_hive_table *t = NULL;
    if (load_table(cat, &nm, &m, &path, err)) {
        t = hive_table_from_manifest(&m, nm.root->name, nm.db, path);
        t->registry = cat->registry;
        hive_manifest_free(&m);
        sqe_free(path);
    }
    hive_name_free(&nm);
    return t;
}

/* ------------------------------------------------------------ listings */

typedef struct db_listing {
    SQE_ARRAY(char *) tables; /* valid table names with a manifest */
    bool has_db_file;
} db_listing;

static bool db_list_cb(const sqe_io_entry *e, void *ctx) {
    db_listing *l = ctx;
    if (e->is_dir) return true;
    if (strcmp(e->name, DB_FILE) == 0) {
        l->has_db_file = true;
        return true;
    }
    size_t n = strlen(e->name), sl = strlen(MANIFEST_SUFFIX);
    if (n > sl && strcmp(e->name + n - sl, MANIFEST_SUFFIX) == 0) {
        char *t = sqe_strndup(e->name, n - sl);
        if (hive_name_valid(t)) {
            SQE_ARRAY_PUSH(NULL, l->tables, t);
        } else {
            sqe_log(SQE_LOG_WARN, "hive", "ignoring manifest '%s': '%s' is not a valid table name",
                    e->path, t);
            sqe_free(t);
        }
    }
    return true;
}

static void db_listing_free(db_listing *l) {
    for (size_t i = 0; i < l->tables.len; i++) sqe_free(l->tables.items[i]);
    SQE_ARRAY_FREE(l->tables);
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool list_db(hive_root *r, const char *db, db_listing *out, sqe_error *err) {
    memset(out, 0, sizeof *out);
    sqe_store *store = hive_root_store(r, err);
    if (!store) return false;
    char *url = hive_db_url(r, db);
    bool ok = store->vt->list(store, url, false, db_list_cb, out, err);
    sqe_free(url);
    if (!ok) {
        db_listing_free(out);
        return false;
    }
    if (out->tables.len > 1) qsort(out->tables.items, out->tables.len, sizeof(char *), cmp_str);
    return true;
}

static bool db_exists(hive_root *r, const char *db, bool *exists, sqe_error *err) {
    db_listing l;
    if (!list_db(r, db, &l, err)) return false;
    *exists = l.has_db_file || l.tables.len > 0;
    db_listing_free(&l);
    return true;
}

/* Hive's SHOW TABLES pattern: '*' is any run, '|' separates alternatives. */
static bool glob_match(const char *s, const char *p, size_t pn) {
    size_t si = 0, pi = 0, star_p = (size_t)-1, star_s = 0, sn = strlen(s);
    while (si < sn) {
        if (pi < pn && p[pi] == '*') {
            star_p = pi++;
            star_s = si;
        } else if (pi < pn && tolower((unsigned char)p[pi]) == tolower((unsigned char)s[si])) {
            pi++, si++;
        } else if (star_p != (size_t)-1) {
            pi = star_p + 1;
            si = ++star_s;
        } else {
            return false;
        }
    }
    while (pi < pn && p[pi] == '*') pi++;
    return pi == pn;
}

static bool name_matches(const char *name, const char *pattern) {
    if (!pattern) return true;
    if (strchr(pattern, '*') || strchr(pattern, '|')) {
        const char *p = pattern;
        for (;;) {
            const char *bar = strchr(p, '|');
            size_t len = bar ? (size_t)(bar - p) : strlen(p);
            while (len && *p == ' ') p++, len--;
            while (len && p[len - 1] == ' ') len--;
            if (glob_match(name, p, len)) return true;
            if (!bar) return false;
            p = bar + 1;
        }
    }
    return sqe_like_match(name, strlen(name), pattern, strlen(pattern), 0, true);
}

/* ------------------------------------------------------------ statements */

static bool exec_attach(sqe_hive_catalog *cat, const sqe_ast_stmt *st, sqe_strbuf *notices,
                        sqe_error *err) {
    if (st->u.attach.n_options > 0)
        return sqe_error_set(
            err, SQE_ERR_NOT_SUPPORTED,
            "ATTACH option '%s' is not supported; the only option is TYPE hive_external",
            st->u.attach.options[0].key);
    if (st->u.attach.if_not_exists) {
        char *rn = sqe_str_lower(sqe_strdup(st->u.attach.name.name ? st->u.attach.name.name : ""));
        hive_root *old = find_root(cat, rn);
        if (old) {
            notice(notices, "root '%s' is already attached (to '%s'); nothing done", rn, old->url);
            sqe_free(rn);
            return true;
        }
        sqe_free(rn);
    }
    return attach_checked(cat, st->u.attach.name.name, st->u.attach.url, st->u.attach.type, true,
                          err);
}

static bool exec_detach(sqe_hive_catalog *cat, const sqe_ast_stmt *st, sqe_strbuf *notices,
                        sqe_error *err) {
    char *rn = sqe_str_lower(sqe_strdup(st->u.detach.name.name ? st->u.detach.name.name : ""));
    hive_root *r = find_root(cat, rn);
    if (!r) {
        bool ok = st->u.detach.if_exists;
        if (ok)
            notice(notices, "root '%s' is not attached; nothing done", rn);
        else
            sqe_error_set(err, SQE_ERR_NOT_FOUND, "root '%s' is not attached", rn);
        sqe_free(rn);
        return ok;
    }
    size_t idx = (size_t)(r - cat->roots.items);
    root_free(r);
    memmove(&cat->roots.items[idx], &cat->roots.items[idx + 1],
            (cat->roots.len - idx - 1) * sizeof *r);
    cat->roots.len--;
    if (cat->current_root && strcmp(cat->current_root, rn) == 0) {
        sqe_free(cat->current_root);
        cat->current_root = NULL;
        sqe_free(cat->current_db);
        cat->current_db = sqe_strdup(SQE_DEFAULT_DATABASE);
    }
    sqe_free(rn);
    return true;
}

static bool exec_create_database(sqe_hive_catalog *cat, const sqe_ast_stmt *st, sqe_strbuf *notices,
                                 sqe_error *err) {
    if (st->u.create_database.location)
        return sqe_error_set(
            err, SQE_ERR_HIVE_EXTERNAL,
            "CREATE DATABASE ... LOCATION is not supported: a database is the folder "
            "<root>/<db>/");
    hive_name nm;
    if (!resolve_qname(cat, &st->u.create_database.name, false, true, &nm, err)) return false;
    bool ok = false, exists = false;
    char *path = NULL, *text = NULL, *desc = NULL;
    if (st->u.create_database.comment) {
        const char *why;
        desc = hive_unescape(st->u.create_database.comment, NULL, &why);
        if (!desc) {
            sqe_error_set(err, SQE_ERR_HIVE_EXTERNAL, "COMMENT '%s' %s",
                          st->u.create_database.comment, why);
            goto out;
        }
    }
    if (!db_exists(nm.root, nm.db, &exists, err)) goto out;
    if (exists) {
        if (st->u.create_database.if_not_exists) {
            notice(notices, "database '%s.%s' already exists; nothing done", nm.root->name, nm.db);
            ok = true;
        } else {
            sqe_error_set(err, SQE_ERR_ALREADY_EXISTS, "database '%s.%s' already exists",
                          nm.root->name, nm.db);
        }
        goto out;
    }
    json_t *doc = json_object();
    json_object_set_new(doc, "Name", json_string(nm.db));
    if (desc) json_object_set_new(doc, "Description", json_string(desc));
    if (st->u.create_database.n_props > 0) {
        json_t *params = json_object();
        for (int i = 0; i < st->u.create_database.n_props; i++) {
            const sqe_ast_kv *kv = &st->u.create_database.props[i];
            const char *why = NULL;
            char *k = hive_unescape(kv->key ? kv->key : "", NULL, &why);
            char *v = k ? hive_unescape(kv->value ? kv->value : "", NULL, &why) : NULL;
            if (v && json_object_get(params, k)) {
                /* as TBLPROPERTIES: a repeated key is an error, not "last wins" */
                sqe_error_set(err, SQE_ERR_HIVE_EXTERNAL, "DBPROPERTIES key '%s' is given twice",
                              k);
                sqe_free(v);
                v = NULL;
            } else if (v) {
                json_object_set_new(params, k, json_string(v));
            } else {
                sqe_error_set(err, SQE_ERR_HIVE_EXTERNAL, "DBPROPERTIES '%s' %s",
                              kv->key ? kv->key : "", why);
            }
            sqe_free(k);
            sqe_free(v);
            if (!v) {
                json_decref(params);
                json_decref(doc);
                goto out;
            }
        }
        json_object_set_new(doc, "Parameters", params);
    }
    json_object_set_new(doc, "sqe_manifest_version", json_integer(1));
    char *dumped = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(doc);
    text = sqe_asprintf("%s\n", dumped ? dumped : "{}");
    free(dumped);
    char *dir = sqe_io_join(nm.root->url, nm.db);
    path = sqe_io_join(dir, DB_FILE);
    sqe_free(dir);
    sqe_store *store = hive_root_store(nm.root, err);
    sqe_error perr;
    sqe_error_clear(&perr);
    ok = store && store->vt->put_if_absent(store, path, text, strlen(text), &perr);
    if (store && !ok) {
        if (perr.cls != SQE_ERR_ALREADY_EXISTS) {
            if (err) *err = perr;
        } else if (st->u.create_database.if_not_exists) {
            notice(notices, "database '%s.%s' already exists; nothing done", nm.root->name, nm.db);
            ok = true;
        } else {
            sqe_error_set(err, SQE_ERR_ALREADY_EXISTS,
                          "database '%s.%s' already exists (created concurrently)", nm.root->name,
                          nm.db);
        }
    }
out:
    sqe_free(desc);
    sqe_free(text);
    sqe_free(path);
    hive_name_free(&nm);
    return ok;
}

static bool exec_drop_database(sqe_hive_catalog *cat, const sqe_ast_stmt *st, sqe_strbuf *notices,
                               sqe_error *err) {
    if (st->u.drop_database.cascade)
        return sqe_error_set(
            err, SQE_ERR_NOT_SUPPORTED,
            "DROP DATABASE ... CASCADE is not supported: drop the tables first (DROP TABLE "
            "deletes only their manifests)");
    hive_name nm;
    if (!resolve_qname(cat, &st->u.drop_database.name, false, false, &nm, err)) return false;
    if (strcmp(nm.db, SQE_DEFAULT_DATABASE) == 0) {
        /* "default" always exists (SHOW TABLES, USE): dropping it cannot
         * make it go away, so refuse, as Hive and Athena do. */
        sqe_error_set(err, SQE_ERR_USAGE,
                      "cannot drop database '%s.%s': the default database always exists",
                      nm.root->name, nm.db);
        hive_name_free(&nm);
        return false;
    }
    db_listing l;
    bool ok = false;
    if (!list_db(nm.root, nm.db, &l, err)) goto out_name;
    if (l.tables.len > 0) {
        sqe_strbuf sb;
        sqe_strbuf_init(&sb);
        for (size_t i = 0; i < l.tables.len && i < 5; i++)
            sqe_strbuf_printf(&sb, "%s%s", i ? ", " : "", l.tables.items[i]);
        if (l.tables.len > 5) sqe_strbuf_puts(&sb, ", ...");
        sqe_error_set(err, SQE_ERR_USAGE,
                      "database '%s.%s' is not empty: it holds %zu table%s (%s); drop them first",
                      nm.root->name, nm.db, l.tables.len, l.tables.len == 1 ? "" : "s", sb.data);
        sqe_strbuf_free(&sb);
        goto out;
    }
    if (!l.has_db_file) {
        if (st->u.drop_database.if_exists) {
            notice(notices, "database '%s.%s' does not exist; nothing done", nm.root->name, nm.db);
            ok = true;
        } else {
            sqe_error_set(err, SQE_ERR_NOT_FOUND, "database '%s.%s' does not exist", nm.root->name,
                          nm.db);
        }
        goto out;
    }
    char *dir = sqe_io_join(nm.root->url, nm.db);
    char *path = sqe_io_join(dir, DB_FILE);
    sqe_free(dir);
    sqe_store *store = hive_root_store(nm.root, err);
    ok = store && store->vt->del(store, path, err);
    sqe_free(path);
out:
    db_listing_free(&l);
out_name:
    hive_name_free(&nm);
    return ok;
}

/* Athena: "LOCATION must be a folder". A local LOCATION that names an
 * existing regular file (or FIFO, device) read as an empty table; refuse it
 * at CREATE. A missing folder is fine (an empty table until files arrive);
 * s3:// is not checked here (no S3 backend yet). */
static bool location_not_a_file(const char *loc, sqe_error *err) {
    if (sqe_str_ieqn(loc, "s3://", 5)) return true;
    size_t n = strlen(loc);
    while (n > 1 && loc[n - 1] == '/') n--;
    char *path = sqe_strndup(loc, n);
    sqe_store *store = sqe_io_local_new();
    sqe_io_entry info;
    sqe_error herr;
    sqe_error_clear(&herr);
    bool is_file = store->vt->head(store, path, &info, &herr);
    bool ok = !is_file && herr.cls == SQE_ERR_NOT_FOUND;
    if (is_file)
        sqe_error_set(err, SQE_ERR_HIVE_EXTERNAL,
                      "LOCATION '%s' is a file; LOCATION must be a folder (write the folder "
                      "that holds the data files, e.g. '%.*s/')",
                      loc, (int)(strrchr(path, '/') ? strrchr(path, '/') - path : 0), path);
    else if (!ok && err) {
        *err = herr;
        sqe_error_prefix(err, "LOCATION '%s': ", loc);
    }
    sqe_store_free(store);
    sqe_free(path);
    return ok;
}

static bool exec_create_table(sqe_hive_catalog *cat, const sqe_ast_stmt *st, sqe_strbuf *notices,
                              sqe_error *err) {
    const sqe_ast_create_table *ct = &st->u.create_table;
    hive_manifest m;
    memset(&m, 0, sizeof m);
    sqe_strbuf local_notices;
    sqe_strbuf_init(&local_notices);
    hive_name nm;
    memset(&nm, 0, sizeof nm);
    char *path = NULL;
    bool ok = false;
    if (!hive_ddl_build(ct, &cat->limits, &m, &local_notices, err)) goto out;
    if (!location_not_a_file(m.location, err)) goto out;
    if (!resolve_qname(cat, &ct->name, true, true, &nm, err)) goto out;
    m.name = sqe_strdup(nm.table);
    sqe_store *store = hive_root_store(nm.root, err);
    if (!store) goto out;
    path = hive_manifest_url(nm.root, nm.db, nm.table);
    sqe_io_entry info;
    sqe_error herr;
    sqe_error_clear(&herr);
    if (store->vt->head(store, path, &info, &herr)) {
        if (ct->if_not_exists) {
            notice(notices, "table '%s.%s.%s' already exists; nothing done", nm.root->name, nm.db,
                   nm.table);
            ok = true;
        } else {
            sqe_error_set(err, SQE_ERR_ALREADY_EXISTS, "table '%s.%s.%s' already exists",
                          nm.root->name, nm.db, nm.table);
        }
        goto out;
    }
    if (herr.cls != SQE_ERR_NOT_FOUND) {
        /* e.g. a FIFO named like the manifest: SHOW TABLES lists the name
         * too, so both say it is taken; DROP TABLE removes it */
        sqe_error_prefix(&herr, "cannot create table '%s.%s.%s': ", nm.root->name, nm.db, nm.table);
        if (err) *err = herr;
        goto out;
    }
    /* head above is for IF NOT EXISTS and a clear message; the create itself
     * is put_if_absent, so a table created concurrently since is never
     * overwritten (issue 7 item 8) */
    sqe_error perr;
    sqe_error_clear(&perr);
    if (!hive_manifest_store(store, path, &m, &cat->limits, true, &perr)) {
        if (perr.cls != SQE_ERR_ALREADY_EXISTS) {
            if (err) *err = perr;
        } else if (ct->if_not_exists) {
            notice(notices, "table '%s.%s.%s' already exists; nothing done", nm.root->name, nm.db,
                   nm.table);
            ok = true;
        } else {
            sqe_error_set(err, SQE_ERR_ALREADY_EXISTS,
                          "table '%s.%s.%s' already exists (created concurrently)", nm.root->name,
                          nm.db, nm.table);
        }
        goto out;
    }
    if (notices && local_notices.len)
        sqe_strbuf_append(notices, local_notices.data, local_notices.len);
    ok = true;
out:
    sqe_strbuf_free(&local_notices);
    sqe_free(path);
    hive_name_free(&nm);
    hive_manifest_free(&m);
    return ok;
}

static bool exec_drop_table(sqe_hive_catalog *cat, const sqe_ast_stmt *st, sqe_strbuf *notices,
                            sqe_error *err) {
    if (st->u.drop_table.view)
        return sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                             "DROP VIEW is not supported yet (views are planned)");
    if (st->u.drop_table.purge)
        return sqe_error_set(err, SQE_ERR_HIVE_EXTERNAL,
                             "DROP TABLE ... PURGE is not supported: sqe never deletes table data");
    hive_name nm;
    if (!resolve_qname(cat, &st->u.drop_table.name, true, false, &nm, err)) return false;
    bool ok = false;
    char *path = hive_manifest_url(nm.root, nm.db, nm.table);
    sqe_store *store = hive_root_store(nm.root, err);
    if (store) {
        sqe_error derr;
        sqe_error_clear(&derr);
        /* the manifest's text, read before it goes: its index object goes too */
        char *text = NULL;
        size_t len = 0;
        if (!sqe_io_read_all(store, path, cat->limits.manifest_max_bytes, &text, &len, &derr))
            sqe_error_clear(&derr);
        if (store->vt->del(store, path, &derr)) {
            ok = true;
            hive_partidx_drop_object(store, path, nm.table, text, len);
        } else if (derr.cls == SQE_ERR_NOT_FOUND) {
            if (st->u.drop_table.if_exists) {
                notice(notices, "table '%s.%s.%s' does not exist; nothing done", nm.root->name,
                       nm.db, nm.table);
                ok = true;
            } else {
                sqe_error_set(err, SQE_ERR_NOT_FOUND,
                              "table '%s.%s.%s' not found (no manifest at '%s')", nm.root->name,
                              nm.db, nm.table, path);
            }
        } else if (err) {
            *err = derr;
        }
        sqe_free(text);
    }
    sqe_free(path);
    hive_name_free(&nm);
    return ok;
}

/* Resolve + load for the statements that print a table. */
static bool load_target(sqe_hive_catalog *cat, const sqe_ast_stmt *st, hive_name *nm,
                        hive_manifest *m, sqe_error *err) {
    if (!resolve_qname(cat, &st->u.target.name, true, false, nm, err)) return false;
    if (!load_table(cat, nm, m, NULL, err)) {
        hive_name_free(nm);
        return false;
    }
    return true;
}

static bool exec_show_create(sqe_hive_catalog *cat, const sqe_ast_stmt *st, sqe_resultset **out,
                             sqe_error *err) {
    hive_name nm;
    hive_manifest m;
    if (!load_target(cat, st, &nm, &m, err)) return false;
    bool ok = false;
    if (m.is_view) {
        sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                      "'%s.%s.%s' is a view; SHOW CREATE VIEW is not supported yet", nm.root->name,
                      nm.db, nm.table);
    } else {
        char *text = hive_show_create(&m, nm.db);
        static const char *const names[] = {"createtab_stmt"};
        *out = hive_result_text(1, names);
        const char *row[1] = {text};
        sqe_resultset_add_text_row(*out, row);
        sqe_free(text);
        ok = true;
    }
    hive_manifest_free(&m);
    hive_name_free(&nm);
    return ok;
}

static bool exec_describe(sqe_hive_catalog *cat, const sqe_ast_stmt *st, sqe_resultset **out,
                          sqe_error *err) {
    hive_name nm;
    hive_manifest m;
    if (!load_target(cat, st, &nm, &m, err)) return false;
    *out = hive_describe(&m);
    if (st->kind == SQE_STMT_DESCRIBE && st->u.target.extended) hive_describe_stats(*out, &m);
    hive_manifest_free(&m);
    hive_name_free(&nm);
    return true;
}

static bool exec_show_stats(sqe_hive_catalog *cat, const sqe_ast_stmt *st, sqe_resultset **out,
                            sqe_error *err) {
    hive_name nm;
    hive_manifest m;
    if (!load_target(cat, st, &nm, &m, err)) return false;
    bool ok = true;
    if (m.is_view)
        ok = sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                           "SHOW STATS: '%s.%s.%s' is a view; statistics exist for tables only",
                           nm.root->name, nm.db, nm.table);
    else
        *out = hive_show_stats(&m);
    hive_manifest_free(&m);
    hive_name_free(&nm);
    return ok;
}

/* The raw (still %XX-escaped) value of key k in a partition folder path
 * ".../k1=v1/k2=v2/" with n_keys levels. */
static const char *folder_value(const char *path, int n_keys, int k, size_t *len) {
    const char *end = path + strlen(path);
    if (end > path && end[-1] == '/') end--;
    for (int level = n_keys - 1;; level--) {
        const char *start = end;
        while (start > path && start[-1] != '/') start--;
        if (level == k || start == path) {
            const char *eq = memchr(start, '=', (size_t)(end - start));
            const char *v = eq ? eq + 1 : start;
            *len = (size_t)(end - v);
            return v;
        }
        end = start - 1;
    }
}

static bool exec_show_partitions(sqe_hive_catalog *cat, const sqe_ast_stmt *st, sqe_resultset **out,
                                 sqe_error *err) {
    hive_name nm;
    if (!resolve_qname(cat, &st->u.target.name, true, false, &nm, err)) return false;
    const char *parts[3] = {nm.root->name, nm.db, nm.table};
    sqe_hive_table *t = sqe_hive_resolve_table(cat, 3, parts, err);
    bool ok = false;
    sqe_store *store = NULL;
    sqe_arena *arena = NULL;
    if (!t) goto out;
    if (t->is_view || t->n_part_keys == 0) {
        sqe_error_set(err, SQE_ERR_USAGE, "table '%s.%s.%s' is not partitioned", t->root,
                      t->database, t->name);
        goto out;
    }
    if (!(store = sqe_hive_table_store(t, err))) goto out;
    arena = sqe_arena_new(0);
    sqe_hive_partition *ps;
    size_t n;
    if (!sqe_hive_list_partitions(store, t, NULL, arena, &ps, &n, err)) goto out;
    static const char *const names[] = {"partition"};
    *out = hive_result_text(1, names);
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    for (size_t i = 0; i < n; i++) {
        sqe_strbuf_clear(&sb);
        for (int k = 0; k < t->n_part_keys; k++) {
            /* Hive (FileUtils.makePartName) escapes key names like values. */
            if (k) sqe_strbuf_putc(&sb, '/');
            hive_escape_path_value(&sb, t->part_keys[k].name, strlen(t->part_keys[k].name));
            sqe_strbuf_putc(&sb, '=');
            if (ps[i].name) { /* from the partition index: its name, as stored */
                sqe_strbuf_clear(&sb);
                sqe_strbuf_puts(&sb, ps[i].name);
                break;
            }
            if (ps[i].values[k].is_null) {
                sqe_strbuf_puts(&sb, HIVE_DEFAULT_PARTITION);
            } else {
                /* the value as its folder spells it, not the typed value:
                 * `n=01` and `n=1` are two partitions (as in Hive), and
                 * printing both as n=1 would show one partition twice */
                size_t raw_len, n_dec;
                const char *raw = folder_value(ps[i].path, t->n_part_keys, k, &raw_len);
                char *dec = hive_unescape_path_value(arena, raw, raw_len, &n_dec);
                hive_escape_path_value(&sb, dec, n_dec);
            }
        }
        const char *row[1] = {sb.data ? sb.data : ""};
        sqe_resultset_add_text_row(*out, row);
    }
    sqe_strbuf_free(&sb);
    ok = true;
out:
    sqe_arena_free(arena);
    sqe_store_free(store);
    sqe_hive_table_free(t);
    hive_name_free(&nm);
    return ok;
}

/* MSCK REPAIR TABLE, ALTER TABLE ADD/DROP PARTITION (partidx.c): the
 * table's manifest is edited on the root's store, its LOCATION listed on
 * the table's own. */
static bool exec_partition_stmt(sqe_hive_catalog *cat, const sqe_ast_stmt *st, sqe_resultset **out,
                                sqe_error *err) {
    const sqe_qname *q =
        st->kind == SQE_STMT_MSCK_REPAIR ? &st->u.msck.name : &st->u.alter_partitions.name;
    hive_name nm;
    if (!resolve_qname(cat, q, true, false, &nm, err)) return false;
    const char *parts[3] = {nm.root->name, nm.db, nm.table};
    sqe_hive_table *t = sqe_hive_resolve_table(cat, 3, parts, err);
    sqe_store *ms = t ? hive_root_store(nm.root, err) : NULL;
    sqe_store *ts = ms && !t->is_view ? sqe_hive_table_store(t, err) : NULL;
    bool ok =
        ms && (ts || t->is_view) && hive_partidx_execute(&cat->limits, ms, ts, t, st, out, err);
    sqe_store_free(ts);
    sqe_hive_table_free(t);
    hive_name_free(&nm);
    return ok;
}

static bool exec_show_tables(sqe_hive_catalog *cat, const sqe_ast_stmt *st, sqe_resultset **out,
                             sqe_error *err) {
    hive_name nm;
    if (st->u.show.from) {
        if (!resolve_qname(cat, st->u.show.from, false, false, &nm, err)) return false;
    } else {
        memset(&nm, 0, sizeof nm);
        nm.root = current_root(cat);
        if (!nm.root)
            return sqe_error_set(
                err, SQE_ERR_NOT_FOUND,
                "no warehouse root is current; ATTACH one or use SHOW TABLES FROM root.db");
        nm.db = sqe_strdup(cat->current_db);
    }
    db_listing l;
    bool ok = false;
    if (!list_db(nm.root, nm.db, &l, err)) goto out_name;
    if (!l.has_db_file && l.tables.len == 0 && strcmp(nm.db, SQE_DEFAULT_DATABASE) != 0) {
        sqe_error_set(err, SQE_ERR_NOT_FOUND, "database '%s.%s' does not exist", nm.root->name,
                      nm.db);
        goto out;
    }
    static const char *const names[] = {"Table"};
    *out = hive_result_text(1, names);
    for (size_t i = 0; i < l.tables.len; i++) {
        if (!name_matches(l.tables.items[i], st->u.show.like)) continue;
        const char *row[1] = {l.tables.items[i]};
        sqe_resultset_add_text_row(*out, row);
    }
    ok = true;
out:
    db_listing_free(&l);
out_name:
    hive_name_free(&nm);
    return ok;
}

typedef struct dir_list {
    SQE_ARRAY(char *) names;
} dir_list;

static bool dir_list_cb(const sqe_io_entry *e, void *ctx) {
    dir_list *d = ctx;
    if (e->is_dir && hive_name_valid(e->name)) SQE_ARRAY_PUSH(NULL, d->names, sqe_strdup(e->name));
    return true;
}

/* Databases of a root that exist (a _database.json or a manifest), sorted;
 * names malloc'd into *names (caller frees each and the array). */
static bool root_databases(hive_root *r, dir_list *out, sqe_error *err) {
    memset(out, 0, sizeof *out);
    sqe_store *store = hive_root_store(r, err);
    if (!store) return false;
    dir_list d = {{0}};
    bool ok = store->vt->list(store, r->url, false, dir_list_cb, &d, err);
    if (ok && d.names.len > 1) qsort(d.names.items, d.names.len, sizeof(char *), cmp_str);
    for (size_t i = 0; i < d.names.len; i++) {
        bool exists = false;
        if (ok) ok = db_exists(r, d.names.items[i], &exists, err);
        if (ok && exists)
            SQE_ARRAY_PUSH(NULL, out->names, d.names.items[i]);
        else
            sqe_free(d.names.items[i]);
    }
    SQE_ARRAY_FREE(d.names);
    if (!ok) {
        for (size_t i = 0; i < out->names.len; i++) sqe_free(out->names.items[i]);
        SQE_ARRAY_FREE(out->names);
    }
    return ok;
}

static bool exec_show_databases(sqe_hive_catalog *cat, const sqe_ast_stmt *st, sqe_resultset **out,
                                sqe_error *err) {
    hive_root *r;
    if (st->u.show.from) {
        const sqe_qname *q = st->u.show.from;
        if (q->n_parts != 1)
            return sqe_error_set(err, SQE_ERR_USAGE, "SHOW DATABASES FROM expects a root name");
        char *rn = sqe_str_lower(sqe_strdup(q->parts[0].name ? q->parts[0].name : ""));
        r = find_root(cat, rn);
        if (!r) sqe_error_set(err, SQE_ERR_NOT_FOUND, "root '%s' is not attached", rn);
        sqe_free(rn);
        if (!r) return false;
    } else {
        r = current_root(cat);
        if (!r)
            return sqe_error_set(
                err, SQE_ERR_NOT_FOUND,
                "no warehouse root is current; ATTACH one or use SHOW DATABASES FROM root");
    }
    dir_list d;
    if (!root_databases(r, &d, err)) return false;
    static const char *const names[] = {"Schema"};
    *out = hive_result_text(1, names);
    for (size_t i = 0; i < d.names.len; i++) {
        if (name_matches(d.names.items[i], st->u.show.like)) {
            const char *row[1] = {d.names.items[i]};
            sqe_resultset_add_text_row(*out, row);
        }
        sqe_free(d.names.items[i]);
    }
    SQE_ARRAY_FREE(d.names);
    return true;
}

/* ------------------------------------------------ enumeration (information_schema) */

static char **arena_names(sqe_arena *a, char **items, size_t n) {
    char **out = sqe_arena_alloc(a, sizeof(char *) * (n ? n : 1));
    for (size_t i = 0; i < n; i++) {
        out[i] = sqe_arena_strdup(a, items[i]);
        sqe_free(items[i]);
    }
    return out;
}

bool sqe_hive_list_databases(sqe_hive_catalog *cat, const char *root, sqe_arena *arena,
                             char ***names, size_t *n, sqe_error *err) {
    hive_root *r = find_root(cat, root);
    if (!r) return sqe_error_set(err, SQE_ERR_NOT_FOUND, "root '%s' is not attached", root);
    dir_list d;
    if (!root_databases(r, &d, err)) return false;
    *n = d.names.len;
    *names = arena_names(arena, d.names.items, d.names.len);
    SQE_ARRAY_FREE(d.names);
    return true;
}

bool sqe_hive_list_tables(sqe_hive_catalog *cat, const char *root, const char *db, sqe_arena *arena,
                          char ***names, size_t *n, sqe_error *err) {
    hive_root *r = find_root(cat, root);
    if (!r) return sqe_error_set(err, SQE_ERR_NOT_FOUND, "root '%s' is not attached", root);
    db_listing l;
    if (!list_db(r, db, &l, err)) return false;
    *n = l.tables.len;
    *names = arena_names(arena, l.tables.items, l.tables.len);
    SQE_ARRAY_FREE(l.tables);
    return true;
}

static bool use_db(sqe_hive_catalog *cat, hive_root *r, const char *db_raw, sqe_error *err) {
    char *db = hive_fold_name(db_raw);
    if (!db)
        return sqe_error_set(
            err, SQE_ERR_HIVE_EXTERNAL,
            "invalid database name '%s': names must match [a-z0-9_]+ after lower-casing", db_raw);
    if (strcmp(db, SQE_DEFAULT_DATABASE) != 0) {
        bool exists = false;
        if (!db_exists(r, db, &exists, err)) {
            sqe_free(db);
            return false;
        }
        if (!exists) {
            sqe_error_set(err, SQE_ERR_NOT_FOUND, "database '%s.%s' does not exist", r->name, db);
            sqe_free(db);
            return false;
        }
    }
    char *rn = sqe_strdup(r->name);
    sqe_free(cat->current_root);
    cat->current_root = rn;
    sqe_free(cat->current_db);
    cat->current_db = db;
    return true;
}

static bool exec_use(sqe_hive_catalog *cat, const sqe_ast_stmt *st, sqe_error *err) {
    const sqe_qname *q = &st->u.use.name;
    if (q->n_parts == 2) {
        char *rn = sqe_str_lower(sqe_strdup(q->parts[0].name ? q->parts[0].name : ""));
        hive_root *r = find_root(cat, rn);
        if (!r) sqe_error_set(err, SQE_ERR_NOT_FOUND, "root '%s' is not attached", rn);
        sqe_free(rn);
        return r && use_db(cat, r, q->parts[1].name ? q->parts[1].name : "", err);
    }
    if (q->n_parts != 1)
        return sqe_error_set(err, SQE_ERR_USAGE, "USE expects root, root.db or db");
    const char *name = q->parts[0].name ? q->parts[0].name : "";
    char *rn = sqe_str_lower(sqe_strdup(name));
    hive_root *r = find_root(cat, rn);
    sqe_free(rn);
    if (r) {
        char *cur = sqe_strdup(r->name);
        sqe_free(cat->current_root);
        cat->current_root = cur;
        sqe_free(cat->current_db);
        cat->current_db = sqe_strdup(SQE_DEFAULT_DATABASE);
        return true;
    }
    r = current_root(cat);
    if (!r)
        return sqe_error_set(
            err, SQE_ERR_NOT_FOUND,
            "'%s' is neither an attached root nor a database of the current root (no warehouse "
            "root is current; ATTACH one first)",
            name);
    return use_db(cat, r, name, err);
}

bool sqe_hive_execute(sqe_hive_catalog *cat, const sqe_ast_stmt *stmt, sqe_resultset **out,
                      const char **status, sqe_strbuf *notices, sqe_error *err) {
    if (out) *out = NULL;
    sqe_resultset *dummy = NULL;
    if (!out) out = &dummy;
    const char *word = NULL;
    bool ok;
    switch (stmt->kind) {
    case SQE_STMT_ATTACH:
        word = "ATTACH";
        ok = exec_attach(cat, stmt, notices, err);
        break;
    case SQE_STMT_DETACH:
        word = "DETACH";
        ok = exec_detach(cat, stmt, notices, err);
        break;
    case SQE_STMT_CREATE_DATABASE:
        word = stmt->u.create_database.schema_keyword ? "CREATE SCHEMA" : "CREATE DATABASE";
        ok = exec_create_database(cat, stmt, notices, err);
        break;
    case SQE_STMT_DROP_DATABASE:
        word = "DROP DATABASE";
        ok = exec_drop_database(cat, stmt, notices, err);
        break;
    case SQE_STMT_CREATE_TABLE:
        word = "CREATE EXTERNAL TABLE";
        ok = exec_create_table(cat, stmt, notices, err);
        break;
    case SQE_STMT_DROP_TABLE:
        word = "DROP TABLE";
        ok = exec_drop_table(cat, stmt, notices, err);
        break;
    case SQE_STMT_SHOW_CREATE_TABLE:
        word = "SHOW CREATE TABLE";
        ok = exec_show_create(cat, stmt, out, err);
        break;
    case SQE_STMT_SHOW_TABLES:
        word = "SHOW TABLES";
        ok = exec_show_tables(cat, stmt, out, err);
        break;
    case SQE_STMT_SHOW_DATABASES:
        word = "SHOW SCHEMAS";
        ok = exec_show_databases(cat, stmt, out, err);
        break;
    case SQE_STMT_SHOW_COLUMNS:
        word = "SHOW COLUMNS";
        ok = exec_describe(cat, stmt, out, err);
        break;
    case SQE_STMT_DESCRIBE:
        word = "DESCRIBE";
        ok = exec_describe(cat, stmt, out, err);
        break;
    case SQE_STMT_SHOW_STATS:
        word = "SHOW STATS";
        ok = exec_show_stats(cat, stmt, out, err);
        break;
    case SQE_STMT_SHOW_PARTITIONS:
        word = "SHOW PARTITIONS";
        ok = exec_show_partitions(cat, stmt, out, err);
        break;
    case SQE_STMT_USE:
        word = "USE";
        ok = exec_use(cat, stmt, err);
        break;
    case SQE_STMT_MSCK_REPAIR:
    case SQE_STMT_ALTER_PARTITIONS:
        word = stmt->kind == SQE_STMT_MSCK_REPAIR ? "MSCK REPAIR TABLE" : "ALTER TABLE";
        ok = exec_partition_stmt(cat, stmt, out, err);
        break;
    default:
        ok = sqe_error_set(err, SQE_ERR_INTERNAL,
                           "sqe_hive_execute: not a catalog statement (kind %d)", (int)stmt->kind);
        break;
    }
    if (dummy) sqe_resultset_free(dummy);
    if (!ok && *out) {
        sqe_resultset_free(*out);
        *out = NULL;
    }
    if (ok && status) *status = word;
    return ok;
}
