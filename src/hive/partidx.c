/*
 * partidx.c - the partition index (SPEC §6): the manifest slot
 * "sqe.partition_index", planning from it, and the statements that edit
 * it (MSCK REPAIR TABLE, ALTER TABLE ADD/DROP PARTITION).
 *
 * The slot. One JSON object in the manifest:
 *   { "format": 1, "count": N, "entries": "<lines>" }            inline
 *   { "format": 1, "count": N, "object": "<table>.partitions.<md5>.tsv",
 *     "object_bytes": B }                                          external
 * Both hold the same text, one partition per line, fields split by TAB:
 *   name TAB files TAB bytes TAB location LF
 * `name` is the partition's `k=v/k2=v2` name exactly as SHOW PARTITIONS
 * prints it: lower-case key names and decoded values, both re-escaped with
 * Hive's path escaping (escape.c), which escapes every control byte, so a
 * name never holds a TAB or LF and the values round-trip through it.
 * `files` and `bytes` are what MSCK counted (empty when unknown: ALTER ADD
 * lists nothing). `location` is empty for the default folder
 * `<LOCATION><name>/`, relative to LOCATION when the folder is under it
 * (another spelling such as `DT=x/`, or an ADD ... LOCATION below the
 * table), else an absolute URL; it ends with '/'. Lines are sorted by name
 * (strcmp), so lookups bisect and rewrites are deterministic.
 *
 * Why text in a string and not a JSON array: manifests are written
 * indented, and an array of 10,000 arrays is 10,000 x 6 indented lines; the
 * line format costs ~25 bytes per partition and parses with memchr. When
 * the escaped text would take more than a quarter of manifest_max_bytes it
 * goes to a separate object in the manifest's folder (SPEC §6.6), named by
 * the MD5 of its bytes: a reader holding an older manifest still finds the
 * object it names, and writing the same content twice is harmless. The
 * previous object is deleted after the manifest that replaced it is
 * published (a reader that loaded the old manifest just before then gets a
 * clear "replaced concurrently; re-run" error).
 *
 * Validation: an inline index is parsed and every value typed on every
 * manifest load (errors name the manifest, the line and the field); an
 * external one when it is read (at planning time), with the same checks.
 *
 * Planning (hive_partidx_partitions): the entries are the partitions; each
 * is typed and kept only if sqe_hive_prune_admits it. Nothing under
 * LOCATION is listed; a surviving partition's folder is listed when its scan
 * reaches it (partitions.c), and a vanished folder lists no files, so a
 * stale index can hide data (until MSCK) but never invent rows.
 *
 * Edits go through hive_manifest_update (manifest.c), so concurrent
 * statements never lose each other's partitions. The mutate callbacks here
 * recompute everything from the manifest they are given (they may run more
 * than once); the storage listing MSCK needs is made once, before.
 */
#include "hive/hive_int.h"
#include "io/io.h"
#include "io/sigv4.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLOT "sqe.partition_index"
#define PIDX_FORMAT 1
/* An external index object larger than this is refused (hostile input must
 * not allocate without bound): ~40 million partitions. */
#define PIDX_OBJECT_MAX ((size_t)1 << 30)

struct hive_partidx {
    char *entries;    /* inline text (malloc'd), or NULL when external */
    size_t len;       /* its length */
    char *object_url; /* external: the object's URL (malloc'd) */
    uint64_t count;
};

/* One line of the index, parsed. Strings in the caller's arena. */
typedef struct pidx_entry {
    char *name;
    char *loc;            /* "" = default folder */
    int64_t files, bytes; /* -1: unknown */
} pidx_entry;

typedef SQE_ARRAY(pidx_entry) pidx_list;

/* ------------------------------------------------------------ names */

/* Appends the canonical name of a partition whose decoded values are
 * vals[k][0, lens[k]). */
static void pidx_name(sqe_strbuf *sb, const sqe_hive_column *keys, int nk, char *const *vals,
                      const size_t *lens) {
    for (int k = 0; k < nk; k++) {
        if (k) sqe_strbuf_putc(sb, '/');
        hive_escape_path_value(sb, keys[k].name, strlen(keys[k].name));
        sqe_strbuf_putc(sb, '=');
        hive_escape_path_value(sb, vals[k], lens[k]);
    }
}

/* Types the values of a canonical name into vals[nk]. On failure fills
 * *why (arena text naming the key and value). */
static bool pidx_name_values(sqe_arena *a, const sqe_hive_column *keys, int nk, const char *name,
                             sqe_value *vals, const char **why) {
    const char *p = name;
    for (int k = 0; k < nk; k++) {
        const char *end = strchr(p, '/');
        if (!end) end = p + strlen(p);
        if ((k < nk - 1) != (*end == '/')) {
            *why = sqe_arena_sprintf(a, "the name must have %d k=v segments", nk);
            return false;
        }
        const char *eq = memchr(p, '=', (size_t)(end - p));
        size_t kn = 0;
        char *key = eq ? hive_unescape_path_value(a, p, (size_t)(eq - p), &kn) : NULL;
        if (!key || kn != strlen(keys[k].name) || !sqe_str_ieqn(key, keys[k].name, kn)) {
            *why = sqe_arena_sprintf(a, "segment %d must be '%s=<value>'", k + 1, keys[k].name);
            return false;
        }
        size_t vn;
        char *v = hive_unescape_path_value(a, eq + 1, (size_t)(end - eq - 1), &vn);
        if (!hive_part_value(&keys[k], v, vn, &vals[k])) {
            char tb[32];
            *why = sqe_arena_sprintf(a, "value '%s' is not a valid %s for partition key '%s'", v,
                                     hive_type_word(keys[k].type, tb, sizeof tb), keys[k].name);
            return false;
        }
        p = *end ? end + 1 : end;
    }
    return true;
}

/* ------------------------------------------------------------ lines */

static bool pidx_count_field(const char *s, size_t n, int64_t *out) {
    *out = -1;
    if (n == 0) return true;
    if (n > 18) return false;
    int64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return false;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return true;
}

/* One line, split in place: name and location point into the text. */
typedef struct pidx_line {
    const char *name, *loc;
    size_t name_len, loc_len;
    int64_t files, bytes;
} pidx_line;

static bool pidx_split_line(const char *s, size_t n, pidx_line *l, const char **why) {
    const char *f[4];
    size_t fl[4];
    int nf = 0;
    const char *p = s, *end = s + n;
    while (nf < 4) {
        const char *tab = memchr(p, '\t', (size_t)(end - p));
        f[nf] = p;
        fl[nf++] = (size_t)((tab ? tab : end) - p);
        if (!tab) break;
        p = tab + 1;
    }
    if (nf != 4 || memchr(f[3], '\t', fl[3])) {
        *why = "expected 4 TAB-separated fields (name, files, bytes, location)";
        return false;
    }
    if (fl[0] == 0) {
        *why = "empty partition name";
        return false;
    }
    int64_t files, bytes;
    if (!pidx_count_field(f[1], fl[1], &files) || !pidx_count_field(f[2], fl[2], &bytes)) {
        *why = "files and bytes must be whole numbers or empty";
        return false;
    }
    if (fl[3] && f[3][fl[3] - 1] != '/') {
        *why = "the location must end with '/'";
        return false;
    }
    *l = (pidx_line){f[0], f[3], fl[0], fl[3], files, bytes};
    return true;
}

/* Called per entry by pidx_scan_lines: `vals` (nk typed values) and
 * `name` (NUL-terminated) live in a scratch arena reset every few thousand
 * lines; copy what must survive. */
typedef bool (*pidx_line_fn)(void *ctx, const pidx_line *l, const char *name, const sqe_value *vals,
                             sqe_error *err);

#define PIDX_SCRATCH_LINES 4096

/* Streams the index text: splits, checks order, and (keys != NULL) types
 * every name, calling fn (may be NULL: validation only) per entry. Memory
 * stays bounded by PIDX_SCRATCH_LINES lines whatever the index size, so a
 * 100,000-entry index costs one pass and no page-faulting arrays. Errors
 * name `where` (the manifest or the object) and the line. */
static bool pidx_scan_lines(const char *text, size_t len, const sqe_hive_column *keys, int nk,
                            const char *where, pidx_line_fn fn, void *ctx, size_t *n_lines,
                            sqe_error *err) {
    sqe_arena *scratch = sqe_arena_new(0);
    sqe_value *vals = sqe_calloc((size_t)(nk > 0 ? nk : 1), sizeof *vals);
    const char *prev = NULL;
    size_t prev_len = 0, line = 0;
    bool ok = true;
    for (const char *p = text, *end = text + len; ok && p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        pidx_line l = {0};
        const char *why = NULL;
        ok = pidx_split_line(p, (size_t)((nl ? nl : end) - p), &l, &why);
        if (ok && prev) {
            int c = memcmp(prev, l.name, SQE_MIN(prev_len, l.name_len));
            if (c > 0 || (c == 0 && prev_len >= l.name_len)) {
                why = "entries must be sorted by name, each name once";
                ok = false;
            }
        }
        if (line % PIDX_SCRATCH_LINES == 0) sqe_arena_reset(scratch);
        char *name = ok ? sqe_arena_strndup(scratch, l.name, l.name_len) : NULL;
        if (ok && keys) ok = pidx_name_values(scratch, keys, nk, name, vals, &why);
        if (!ok && why)
            sqe_error_set(err, SQE_ERR_HIVE_EXTERNAL,
                          "partition index of %s, line %zu: %s (run MSCK REPAIR TABLE to rebuild "
                          "it)",
                          where, line + 1, why);
        if (ok && fn) ok = fn(ctx, &l, name, vals, err);
        prev = l.name;
        prev_len = l.name_len;
        p = nl ? nl + 1 : end;
    }
    if (n_lines) *n_lines = line;
    sqe_free(vals);
    sqe_arena_free(scratch);
    return ok;
}

typedef struct pidx_collect {
    sqe_arena *a;
    pidx_list *out;
} pidx_collect;

static bool pidx_collect_fn(void *ctx, const pidx_line *l, const char *name, const sqe_value *vals,
                            sqe_error *err) {
    pidx_collect *c = ctx;
    pidx_entry e = {sqe_arena_strdup(c->a, name), sqe_arena_strndup(c->a, l->loc, l->loc_len),
                    l->files, l->bytes};
    SQE_ARRAY_PUSH(c->a, *c->out, e);
    return true;
}

/* The whole index as a sorted list (edits; names are not typed here: the
 * manifest load or the planner did that). */
static bool pidx_parse(sqe_arena *a, const char *text, size_t len, const char *where,
                       pidx_list *out, sqe_error *err) {
    pidx_collect c = {a, out};
    return pidx_scan_lines(text, len, NULL, 0, where, pidx_collect_fn, &c, NULL, err);
}

static void pidx_serialize(const pidx_list *l, sqe_strbuf *sb) {
    for (size_t i = 0; i < l->len; i++) {
        const pidx_entry *e = &l->items[i];
        sqe_strbuf_puts(sb, e->name);
        sqe_strbuf_putc(sb, '\t');
        if (e->files >= 0) sqe_strbuf_printf(sb, "%lld", (long long)e->files);
        sqe_strbuf_putc(sb, '\t');
        if (e->bytes >= 0) sqe_strbuf_printf(sb, "%lld", (long long)e->bytes);
        sqe_strbuf_putc(sb, '\t');
        sqe_strbuf_puts(sb, e->loc);
        sqe_strbuf_putc(sb, '\n');
    }
}

static int pidx_entry_cmp(const void *a, const void *b) {
    return strcmp(((const pidx_entry *)a)->name, ((const pidx_entry *)b)->name);
}

/* Index of `name` in the sorted list, or -1. */
static ssize_t pidx_find(const pidx_list *l, const char *name) {
    if (l->len == 0) return -1;
    pidx_entry key = {.name = (char *)name};
    pidx_entry *e = bsearch(&key, l->items, l->len, sizeof key, pidx_entry_cmp);
    return e ? e - l->items : -1;
}

/* ------------------------------------------------------------ the slot */

/* The object name an external slot may reference: "<table>.partitions.
 * <hex>.tsv", a plain name in the manifest's folder. */
static bool pidx_object_name_ok(const char *table, const char *obj) {
    size_t tn = strlen(table);
    return strncmp(obj, table, tn) == 0 && strncmp(obj + tn, ".partitions.", 12) == 0 &&
           !strchr(obj, '/') && strlen(obj) > tn + 16 && strcmp(obj + strlen(obj) - 4, ".tsv") == 0;
}

static bool slot_fail(sqe_error *err, const char *mpath, const char *what) {
    return sqe_error_set(err, SQE_ERR_HIVE_EXTERNAL, "manifest '%s': %s: %s", mpath, SLOT, what);
}

bool hive_partidx_check(const hive_manifest *m, const char *mpath, sqe_error *err) {
    json_t *slot = m->extra ? json_object_get(m->extra, SLOT) : NULL;
    if (!slot) return true;
    if (!json_is_object(slot)) return slot_fail(err, mpath, "must be an object");
    if (m->is_view || m->n_part_keys == 0)
        return slot_fail(err, mpath, "only a partitioned table can have a partition index");
    const char *k;
    json_t *v;
    json_object_foreach(slot, k, v) {
        if (strcmp(k, "format") && strcmp(k, "count") && strcmp(k, "entries") &&
            strcmp(k, "object") && strcmp(k, "object_bytes"))
            return sqe_error_set(err, SQE_ERR_HIVE_EXTERNAL, "manifest '%s': %s: unknown key '%s'",
                                 mpath, SLOT, k);
    }
    json_t *fmt = json_object_get(slot, "format"), *cnt = json_object_get(slot, "count");
    json_t *ent = json_object_get(slot, "entries"), *obj = json_object_get(slot, "object");
    if (!json_is_integer(fmt) || json_integer_value(fmt) != PIDX_FORMAT)
        return slot_fail(err, mpath, "'format' must be 1");
    if (!json_is_integer(cnt) || json_integer_value(cnt) < 0)
        return slot_fail(err, mpath, "'count' must be a whole number");
    if (!!ent == !!obj) return slot_fail(err, mpath, "exactly one of 'entries' and 'object'");
    if (obj && (!json_is_string(obj) || !pidx_object_name_ok(m->name, json_string_value(obj))))
        return slot_fail(err, mpath, "'object' must be '<table>.partitions.<hex>.tsv'");
    if (!ent) return true;
    if (!json_is_string(ent)) return slot_fail(err, mpath, "'entries' must be a string");
    char *where = sqe_asprintf("manifest '%s'", mpath);
    size_t n = 0;
    bool ok = pidx_scan_lines(json_string_value(ent), json_string_length(ent), m->part_keys,
                              m->n_part_keys, where, NULL, NULL, &n, err);
    sqe_free(where);
    if (ok && (json_int_t)n != json_integer_value(cnt))
        ok = slot_fail(err, mpath, "'count' differs from the number of entries");
    return ok;
}

/* "<folder of manifest>/<name>" (malloc'd). */
static char *pidx_object_url(const char *manifest_path, const char *name) {
    const char *slash = strrchr(manifest_path, '/');
    size_t n = slash ? (size_t)(slash - manifest_path + 1) : 0;
    return sqe_asprintf("%.*s%s", (int)n, manifest_path, name);
}

void hive_partidx_drop_object(sqe_store *s, const char *manifest_path, const char *table,
                              const char *manifest_text, size_t len) {
    json_t *root = manifest_text ? json_loadb(manifest_text, len, 0, NULL) : NULL;
    json_t *slot = json_is_object(root) ? json_object_get(root, SLOT) : NULL;
    json_t *obj = json_is_object(slot) ? json_object_get(slot, "object") : NULL;
    if (json_is_string(obj) && pidx_object_name_ok(table, json_string_value(obj))) {
        char *url = pidx_object_url(manifest_path, json_string_value(obj));
        sqe_error err;
        sqe_error_clear(&err);
        if (!s->vt->del(s, url, &err) && err.cls != SQE_ERR_NOT_FOUND)
            sqe_log(SQE_LOG_WARN, "hive", "DROP TABLE left the partition index object '%s': %s",
                    url, err.msg);
        sqe_free(url);
    }
    json_decref(root);
}

hive_partidx *hive_partidx_from_manifest(const hive_manifest *m, const char *manifest_path) {
    json_t *slot = m->extra ? json_object_get(m->extra, SLOT) : NULL;
    if (!json_is_object(slot)) return NULL;
    hive_partidx *ix = sqe_calloc(1, sizeof *ix);
    ix->count = (uint64_t)json_integer_value(json_object_get(slot, "count"));
    json_t *ent = json_object_get(slot, "entries");
    if (json_is_string(ent)) {
        ix->len = json_string_length(ent);
        ix->entries = sqe_strndup(json_string_value(ent), ix->len);
    } else {
        ix->object_url =
            pidx_object_url(manifest_path, json_string_value(json_object_get(slot, "object")));
    }
    return ix;
}

void hive_partidx_free(hive_partidx *ix) {
    if (!ix) return;
    sqe_free(ix->entries);
    sqe_free(ix->object_url);
    sqe_free(ix);
}

/* The text of an external index (arena copy). A missing object means the
 * manifest that named it was replaced after it was read. */
static bool pidx_read_object(sqe_store *s, const char *url, char **data, size_t *len,
                             sqe_error *err) {
    *data = NULL;
    if (!sqe_io_read_all(s, url, PIDX_OBJECT_MAX, data, len, err)) {
        if (err && err->cls == SQE_ERR_NOT_FOUND)
            sqe_error_set(err, SQE_ERR_NOT_FOUND,
                          "partition index object '%s' not found: the index was replaced "
                          "concurrently (re-run the statement) or the object was deleted (run "
                          "MSCK REPAIR TABLE)",
                          url);
        return false;
    }
    return true;
}

/* ------------------------------------------------------------ planning */

/* The folder of an entry: default, relative to LOCATION, or absolute. */
static char *pidx_folder(sqe_arena *a, const char *location, const pidx_entry *e) {
    if (!e->loc[0]) return sqe_arena_sprintf(a, "%s%s/", location, e->name);
    if (e->loc[0] == '/' || strstr(e->loc, "://")) return e->loc;
    return sqe_arena_sprintf(a, "%s%s", location, e->loc);
}

/* The index text of a table: its inline entries (borrowed, *owned NULL)
 * or the object's bytes (*owned: free them). */
static bool pidx_text_of(const sqe_hive_table *t, const char **text, size_t *len, char **owned,
                         sqe_error *err) {
    const hive_partidx *ix = t->partidx;
    *owned = NULL;
    if (ix->entries) {
        *text = ix->entries;
        *len = ix->len;
        return true;
    }
    sqe_store *s = t->registry ? sqe_io_registry_open(t->registry, ix->object_url, NULL, err)
                               : sqe_io_store_for_url(ix->object_url, err);
    if (!s) return false;
    bool ok = pidx_read_object(s, ix->object_url, owned, len, err);
    sqe_store_free(s);
    *text = *owned;
    return ok;
}

typedef struct pidx_plan {
    const sqe_hive_table *t;
    const sqe_hive_prune *prune;
    sqe_arena *arena;
    SQE_ARRAY(sqe_hive_partition) out;
    sqe_hive_part_stats *stats;
} pidx_plan;

/* Keeps an entry the predicate admits, typed again into the result arena
 * (the scratch values die with the scratch arena). */
static bool pidx_plan_fn(void *ctx, const pidx_line *l, const char *name, const sqe_value *vals,
                         sqe_error *err) {
    pidx_plan *pp = ctx;
    int nk = pp->t->n_part_keys;
    pp->stats->considered++;
    if (!sqe_hive_prune_admits(pp->prune, vals, nk)) {
        pp->stats->pruned++;
        return true;
    }
    pidx_entry e = {sqe_arena_strdup(pp->arena, name),
                    sqe_arena_strndup(pp->arena, l->loc, l->loc_len), l->files, l->bytes};
    sqe_value *v = sqe_arena_alloc(pp->arena, sizeof *v * (size_t)nk);
    const char *why;
    pidx_name_values(pp->arena, pp->t->part_keys, nk, e.name, v, &why); /* typed once already */
    sqe_hive_partition part = {
        .path = pidx_folder(pp->arena, pp->t->location, &e), .values = v, .name = e.name};
    SQE_ARRAY_PUSH(pp->arena, pp->out, part);
    return true;
}

bool hive_partidx_partitions(const sqe_hive_table *t, const sqe_hive_prune *prune, sqe_arena *arena,
                             sqe_hive_partition **out, size_t *n_out, sqe_hive_part_stats *stats,
                             sqe_error *err) {
    const char *text;
    size_t len;
    char *owned;
    if (!pidx_text_of(t, &text, &len, &owned, err)) return false;
    char *where = t->partidx->entries ? sqe_asprintf("manifest '%s'", t->manifest_path)
                                      : sqe_asprintf("object '%s'", t->partidx->object_url);
    pidx_plan pp = {t, prune, arena, {0}, stats};
    bool ok = pidx_scan_lines(text, len, t->part_keys, t->n_part_keys, where, pidx_plan_fn, &pp,
                              NULL, err);
    sqe_free(where);
    sqe_free(owned);
    *out = pp.out.items;
    *n_out = pp.out.len;
    return ok;
}

/* ------------------------------------------------------------ storage scan
 *
 * MSCK's one listing: a recursive listing of LOCATION; every data file
 * below nk `key=value` folders (keys in PARTITIONED BY order, matched
 * case-insensitively) belongs to the partition those folders name. Hidden
 * paths ('_', '.') are skipped, as are paths that do not follow the layout
 * (files above the leaf level, folders that are not `<key>=...`), as
 * Athena's MSCK does; a value that does not parse as its key type fails
 * naming the path. Partitions are keyed by canonical name, so `DT=x/` and
 * `dt=x/` are one partition (the first folder in name order is recorded).
 * A folder with no files is invisible to the listing (as on S3). */

typedef struct pidx_scan {
    const sqe_hive_table *t;
    const char *prefix;
    size_t plen;
    sqe_arena *a;
    sqe_strmap *map; /* name -> index + 1 into list */
    pidx_list list;
    sqe_strbuf name;
    sqe_error *err;
    bool failed;
} pidx_scan;

/* The partition of one file path relative to LOCATION, or NULL (skip). */
static pidx_entry *pidx_scan_entry(pidx_scan *s, const char *rel) {
    int nk = s->t->n_part_keys;
    char **vals = sqe_arena_alloc(s->a, sizeof *vals * (size_t)nk);
    size_t *lens = sqe_arena_alloc(s->a, sizeof *lens * (size_t)nk);
    const char *p = rel;
    for (int k = 0; k < nk; k++) {
        const char *slash = strchr(p, '/'),
                   *eq = slash ? memchr(p, '=', (size_t)(slash - p)) : NULL;
        if (!eq) return NULL;
        size_t kn;
        char *key = hive_unescape_path_value(s->a, p, (size_t)(eq - p), &kn);
        const sqe_hive_column *pk = &s->t->part_keys[k];
        if (kn != strlen(pk->name) || !sqe_str_ieqn(key, pk->name, kn)) return NULL;
        vals[k] = hive_unescape_path_value(s->a, eq + 1, (size_t)(slash - eq - 1), &lens[k]);
        sqe_value v;
        if (!hive_part_value(pk, vals[k], lens[k], &v)) {
            char tb[32];
            sqe_error_set(s->err, SQE_ERR_HIVE_EXTERNAL,
                          "partition folder '%.*s' under '%s': value '%s' is not a valid %s for "
                          "partition key '%s'",
                          (int)(slash - p), p, s->prefix, vals[k],
                          hive_type_word(pk->type, tb, sizeof tb), pk->name);
            s->failed = true;
            return NULL;
        }
        p = slash + 1;
    }
    sqe_strbuf_clear(&s->name);
    pidx_name(&s->name, s->t->part_keys, nk, vals, lens);
    size_t at = (size_t)(uintptr_t)sqe_strmap_get(s->map, s->name.data);
    if (at) return &s->list.items[at - 1];
    char *folder = sqe_arena_strndup(s->a, rel, (size_t)(p - rel));
    bool dflt = strlen(folder) == s->name.len + 1 && memcmp(folder, s->name.data, s->name.len) == 0;
    pidx_entry e = {sqe_arena_strdup(s->a, s->name.data), dflt ? "" : folder, 0, 0};
    SQE_ARRAY_PUSH(s->a, s->list, e);
    sqe_strmap_put(s->map, e.name, (void *)(uintptr_t)s->list.len);
    return &s->list.items[s->list.len - 1];
}

static bool pidx_scan_cb(const sqe_io_entry *e, void *ctx) {
    pidx_scan *s = ctx;
    if (e->is_dir || strncmp(e->path, s->prefix, s->plen) != 0) return true;
    const char *rel = e->path + s->plen;
    while (*rel == '/') rel++;
    if (hive_path_hidden(rel)) return true;
    pidx_entry *pe = pidx_scan_entry(s, rel);
    if (s->failed) return false;
    if (pe && (e->size > 0 || e->special)) {
        pe->files++;
        pe->bytes += (int64_t)e->size;
    }
    return true;
}

/* Lists LOCATION once into a sorted list of partitions. */
static bool pidx_scan_storage(sqe_store *ts, const sqe_hive_table *t, sqe_arena *a, pidx_list *out,
                              sqe_error *err) {
    char *j = sqe_io_join(t->location, "");
    pidx_scan s = {t, sqe_arena_strdup(a, j), strlen(j), a, sqe_strmap_new(), {0}, {0}, err, false};
    sqe_free(j);
    sqe_strbuf_init(&s.name);
    bool ok = ts->vt->list(ts, s.prefix, true, pidx_scan_cb, &s, err) && !s.failed;
    sqe_strbuf_free(&s.name);
    sqe_strmap_free(s.map);
    if (ok && s.list.len > 1) qsort(s.list.items, s.list.len, sizeof *s.list.items, pidx_entry_cmp);
    *out = s.list;
    return ok;
}

static bool pidx_any_file_cb(const sqe_io_entry *e, void *ctx) {
    if (e->is_dir) return true;
    *(bool *)ctx = true;
    return false;
}

/* Does the folder hold at least one file? (a missing folder: no) */
static bool pidx_folder_has_files(sqe_store *ts, const char *folder, bool *has, sqe_error *err) {
    *has = false;
    return ts->vt->list(ts, folder, true, pidx_any_file_cb, has, err);
}

/* ------------------------------------------------------------ editing */

typedef struct pidx_edit {
    const sqe_hive_limits *lim;
    sqe_store *ms;           /* the manifest's store (index objects) */
    sqe_store *ts;           /* the table's store (LOCATION) */
    const sqe_hive_table *t; /* as resolved: keys, LOCATION, name */
    const char *qname;       /* "root.db.table", for messages */
    const sqe_ast_stmt *st;
    sqe_arena *a;      /* statement lifetime: specs, the storage listing */
    pidx_entry *specs; /* ALTER: the named partitions, canonical */
    size_t n_specs;
    pidx_list found; /* MSCK (and seeding): what storage holds */
    bool have_found;
    /* per mutate call (reset at its start; the last call's survive) */
    sqe_arena *cyc;
    SQE_ARRAY(const char *) added, removed;
    const char *old_object, *new_object; /* URLs of the slot's object before/after */
} pidx_edit;

/* The current index of manifest m into *l (sorted); *had: a slot exists. */
static bool pidx_load_current(pidx_edit *ed, const hive_manifest *m, pidx_list *l, bool *had,
                              sqe_error *err) {
    json_t *slot = m->extra ? json_object_get(m->extra, SLOT) : NULL;
    *had = slot != NULL;
    memset(l, 0, sizeof *l);
    if (!slot) return true;
    json_t *ent = json_object_get(slot, "entries");
    if (json_is_string(ent)) {
        char *where = sqe_arena_sprintf(ed->cyc, "manifest '%s'", ed->t->manifest_path);
        return pidx_parse(ed->cyc, json_string_value(ent), json_string_length(ent), where, l, err);
    }
    char *url =
        pidx_object_url(ed->t->manifest_path, json_string_value(json_object_get(slot, "object")));
    ed->old_object = sqe_arena_strdup(ed->cyc, url);
    sqe_free(url);
    char *text;
    size_t len;
    if (!pidx_read_object(ed->ms, ed->old_object, &text, &len, err)) return false;
    char *where = sqe_arena_sprintf(ed->cyc, "object '%s'", ed->old_object);
    bool ok = pidx_parse(ed->cyc, text, len, where, l, err);
    sqe_free(text);
    return ok;
}

/* Writes list l into m's slot: inline when its escaped text fits a quarter
 * of manifest_max_bytes, else as a content-named object next to the
 * manifest. */
static bool pidx_store_slot(pidx_edit *ed, hive_manifest *m, const pidx_list *l, sqe_error *err) {
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    pidx_serialize(l, &sb);
    json_t *slot = json_object();
    json_object_set_new(slot, "format", json_integer(PIDX_FORMAT));
    json_object_set_new(slot, "count", json_integer((json_int_t)l->len));
    bool ok = true;
    if (sb.len + 4 * l->len < ed->lim->manifest_max_bytes / 4) {
        json_object_set_new(slot, "entries", json_stringn(sb.data ? sb.data : "", sb.len));
    } else {
        char md5[33];
        sqe_md5_hex(sb.data, sb.len, md5);
        char *name = sqe_asprintf("%s.partitions.%s.tsv", ed->t->name, md5);
        char *url = pidx_object_url(ed->t->manifest_path, name);
        ok = ed->ms->vt->put(ed->ms, url, sb.data, sb.len, err);
        json_object_set_new(slot, "object", json_string(name));
        json_object_set_new(slot, "object_bytes", json_integer((json_int_t)sb.len));
        ed->new_object = sqe_arena_strdup(ed->cyc, url);
        sqe_free(url);
        sqe_free(name);
    }
    sqe_strbuf_free(&sb);
    if (!ok) {
        json_decref(slot);
        return false;
    }
    if (!m->extra) m->extra = json_object();
    json_object_set_new(m->extra, SLOT, slot);
    return true;
}

static void pidx_cycle_start(pidx_edit *ed) {
    sqe_arena_reset(ed->cyc);
    memset(&ed->added, 0, sizeof ed->added);
    memset(&ed->removed, 0, sizeof ed->removed);
    ed->old_object = ed->new_object = NULL;
}

/* Is an indexed partition still on storage? In the listing, or (a folder
 * the listing does not cover: another LOCATION) holding a file. */
static bool pidx_still_there(pidx_edit *ed, const pidx_entry *e, bool *there, sqe_error *err) {
    *there = pidx_find(&ed->found, e->name) >= 0;
    if (*there || !e->loc[0]) return true;
    return pidx_folder_has_files(ed->ts, pidx_folder(ed->cyc, ed->t->location, e), there, err);
}

/* MSCK: merges the index with the listing (both sorted by name). */
static bool msck_mutate(hive_manifest *m, void *ctx, sqe_error *err) {
    pidx_edit *ed = ctx;
    pidx_cycle_start(ed);
    pidx_list cur, out = {0};
    bool had;
    if (!pidx_load_current(ed, m, &cur, &had, err)) return false;
    bool add = ed->st->u.msck.add, drop = ed->st->u.msck.drop;
    if (!had && !add) return true; /* nothing indexed, nothing to drop */
    size_t i = 0, j = 0;
    while (i < cur.len || j < ed->found.len) {
        int c = i == cur.len         ? 1
                : j == ed->found.len ? -1
                                     : strcmp(cur.items[i].name, ed->found.items[j].name);
        if (c > 0) {
            if (add) {
                SQE_ARRAY_PUSH(ed->cyc, out, ed->found.items[j]);
                SQE_ARRAY_PUSH(ed->cyc, ed->added, ed->found.items[j].name);
            }
            j++;
            continue;
        }
        pidx_entry e = cur.items[i++];
        if (c == 0) { /* refresh what MSCK counted */
            e.files = ed->found.items[j].files;
            e.bytes = ed->found.items[j++].bytes;
        } else if (drop) {
            bool there;
            if (!pidx_still_there(ed, &e, &there, err)) return false;
            if (!there) {
                SQE_ARRAY_PUSH(ed->cyc, ed->removed, e.name);
                continue;
            }
        }
        SQE_ARRAY_PUSH(ed->cyc, out, e);
    }
    return pidx_store_slot(ed, m, &out, err);
}

/* ALTER TABLE ADD/DROP PARTITION on the current index (or, when the table
 * has none yet, on the listing of LOCATION, so that creating the index
 * hides no partition that was visible). */
static bool alter_mutate(hive_manifest *m, void *ctx, sqe_error *err) {
    pidx_edit *ed = ctx;
    pidx_cycle_start(ed);
    pidx_list cur, out = {0};
    bool had, drop = ed->st->u.alter_partitions.drop, if_flag = ed->st->u.alter_partitions.if_flag;
    if (!pidx_load_current(ed, m, &cur, &had, err)) return false;
    if (!had) {
        if (!ed->have_found && !pidx_scan_storage(ed->ts, ed->t, ed->a, &ed->found, err))
            return false;
        ed->have_found = true;
        cur = ed->found;
    }
    bool *gone = sqe_arena_alloc(ed->cyc, cur.len + 1);
    pidx_list extra = {0};
    for (size_t s = 0; s < ed->n_specs; s++) {
        const pidx_entry *sp = &ed->specs[s];
        ssize_t at = pidx_find(&cur, sp->name);
        bool in_extra = false;
        for (size_t x = 0; x < extra.len && !in_extra; x++)
            in_extra = strcmp(extra.items[x].name, sp->name) == 0;
        bool exists = (at >= 0 && !gone[at]) || in_extra;
        if (!drop && exists && !if_flag)
            return sqe_error_set(err, SQE_ERR_ALREADY_EXISTS,
                                 "partition '%s' already exists in table '%s' (use ADD IF NOT "
                                 "EXISTS to skip it)",
                                 sp->name, ed->qname);
        if (drop && !exists && !if_flag)
            return sqe_error_set(err, SQE_ERR_NOT_FOUND,
                                 "partition '%s' not found in table '%s' (use DROP IF EXISTS to "
                                 "skip it; SHOW PARTITIONS lists them)",
                                 sp->name, ed->qname);
        if (!drop && !exists) {
            SQE_ARRAY_PUSH(ed->cyc, extra, *sp);
            SQE_ARRAY_PUSH(ed->cyc, ed->added, sp->name);
        } else if (drop && exists) {
            gone[at] = true; /* drops only ever name entries of cur */
            SQE_ARRAY_PUSH(ed->cyc, ed->removed, sp->name);
        }
    }
    for (size_t i = 0; i < cur.len; i++)
        if (!gone[i]) SQE_ARRAY_PUSH(ed->cyc, out, cur.items[i]);
    for (size_t x = 0; x < extra.len; x++) SQE_ARRAY_PUSH(ed->cyc, out, extra.items[x]);
    if (out.len > 1) qsort(out.items, out.len, sizeof *out.items, pidx_entry_cmp);
    return pidx_store_slot(ed, m, &out, err);
}

/* ------------------------------------------------------------ statements */

/* A LOCATION of ADD PARTITION as the index stores it: "" (the default
 * folder), relative to the table's LOCATION, or absolute. It must be
 * served by the table's store (same scheme; same bucket on S3). */
static bool pidx_spec_location(pidx_edit *ed, const char *raw, const char *name, char **out,
                               sqe_error *err) {
    const char *why = NULL;
    size_t lit_len;
    char *lit = hive_unescape(raw, &lit_len, &why);
    if (!lit) return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT, "PARTITION LOCATION: %s", why);
    char *norm = hive_location_normalize(lit, &why);
    bool ok = norm && sqe_io_check_url(norm, err);
    if (!norm) sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT, "PARTITION LOCATION '%s' %s", lit, why);
    const char *tl = ed->t->location;
    size_t n = ok ? strlen(norm) : 0;
    char *loc =
        ok ? sqe_arena_sprintf(ed->a, "%s%s", norm, n && norm[n - 1] == '/' ? "" : "/") : NULL;
    if (ok && (strchr(loc, '\t') || strchr(loc, '\n')))
        ok = sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                           "PARTITION LOCATION '%s' holds a TAB or line break", lit);
    bool t_s3 = sqe_str_ieqn(tl, "s3://", 5), l_s3 = ok && sqe_str_ieqn(loc, "s3://", 5);
    const char *tb = t_s3 ? strchr(tl + 5, '/') : NULL;
    if (ok && (t_s3 != l_s3 || (tb && strncmp(loc, tl, (size_t)(tb - tl + 1)) != 0)))
        ok = sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                           "PARTITION LOCATION '%s' is not on the storage of the table's LOCATION "
                           "'%s' (same scheme%s needed)",
                           lit, tl, t_s3 ? " and bucket" : "");
    if (ok) {
        size_t tn = strlen(tl);
        if (strncmp(loc, tl, tn) == 0) loc += tn;
        if (strlen(loc) == strlen(name) + 1 && strncmp(loc, name, strlen(name)) == 0) loc = "";
        *out = loc;
    }
    sqe_free(norm);
    sqe_free(lit);
    return ok;
}

/* The index key of one value: decoded, non-empty, of the key's type. */
static bool pidx_spec_value(pidx_edit *ed, const sqe_hive_column *key, const sqe_ast_kv *kv,
                            char **out, size_t *len, sqe_error *err) {
    const char *why = NULL;
    char *v = hive_unescape(kv->value, len, &why);
    if (!v)
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT, "partition value for key '%s': %s",
                             key->name, why);
    *out = sqe_arena_strndup(ed->a, v, *len);
    sqe_free(v);
    sqe_value tv;
    char tb[32];
    if (*len == 0)
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                             "empty value for partition key '%s' (a NULL key is written '%s')",
                             key->name, HIVE_DEFAULT_PARTITION);
    if (!hive_part_value(key, *out, *len, &tv))
        return sqe_error_set(err, SQE_ERR_TYPE_MISMATCH,
                             "partition value '%s' is not a valid %s for partition key '%s'", *out,
                             hive_type_word(key->type, tb, sizeof tb), key->name);
    return true;
}

/* PARTITION (k = v, ...) [LOCATION] -> canonical entry. */
static bool pidx_spec(pidx_edit *ed, const sqe_ast_part_spec *ps, pidx_entry *out, sqe_error *err) {
    const sqe_hive_table *t = ed->t;
    int nk = t->n_part_keys;
    char **vals = sqe_arena_alloc(ed->a, sizeof *vals * (size_t)nk);
    size_t *lens = sqe_arena_alloc(ed->a, sizeof *lens * (size_t)nk);
    for (int i = 0; i < ps->n_kvs; i++) {
        char *key = sqe_str_lower(sqe_arena_strdup(ed->a, ps->kvs[i].key));
        int k = 0;
        while (k < nk && strcmp(t->part_keys[k].name, key) != 0) k++;
        if (k == nk) {
            sqe_strbuf sb;
            sqe_strbuf_init(&sb);
            for (int j = 0; j < nk; j++)
                sqe_strbuf_printf(&sb, "%s%s", j ? ", " : "", t->part_keys[j].name);
            sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                          "'%s' is not a partition key of table '%s' (its keys: %s)", key,
                          ed->qname, sb.data);
            sqe_strbuf_free(&sb);
            return false;
        }
        if (vals[k])
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "partition key '%s' is given twice in one PARTITION (...)", key);
        if (!pidx_spec_value(ed, &t->part_keys[k], &ps->kvs[i], &vals[k], &lens[k], err))
            return false;
    }
    for (int k = 0; k < nk; k++)
        if (!vals[k])
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "PARTITION (...) of table '%s' misses key '%s' (every key must "
                                 "have a value)",
                                 ed->qname, t->part_keys[k].name);
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    pidx_name(&sb, t->part_keys, nk, vals, lens);
    *out = (pidx_entry){sqe_arena_strdup(ed->a, sb.data), "", -1, -1};
    sqe_strbuf_free(&sb);
    return !ps->location || pidx_spec_location(ed, ps->location, out->name, &out->loc, err);
}

static int pidx_str_cmp(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* MSCK's result: (partition, action) rows, added then removed, by name. */
static sqe_resultset *pidx_rows(pidx_edit *ed) {
    static const char *const names[] = {"partition", "action"};
    sqe_resultset *rs = hive_result_text(2, names);
    if (ed->added.len > 1) qsort(ed->added.items, ed->added.len, sizeof(char *), pidx_str_cmp);
    if (ed->removed.len > 1)
        qsort(ed->removed.items, ed->removed.len, sizeof(char *), pidx_str_cmp);
    for (size_t i = 0; i < ed->added.len; i++) {
        const char *row[2] = {ed->added.items[i], "added"};
        sqe_resultset_add_text_row(rs, row);
    }
    for (size_t i = 0; i < ed->removed.len; i++) {
        const char *row[2] = {ed->removed.items[i], "removed"};
        sqe_resultset_add_text_row(rs, row);
    }
    return rs;
}

/* Refusals that need the manifest itself: views, projected tables. */
static bool pidx_precheck(pidx_edit *ed, bool msck, bool *noop, sqe_error *err) {
    *noop = false;
    const sqe_hive_table *t = ed->t;
    if (t->is_view)
        return sqe_error_set(err, SQE_ERR_USAGE, "'%s' is a view; %s applies to tables only",
                             ed->qname, msck ? "MSCK REPAIR TABLE" : "ALTER TABLE ... PARTITION");
    hive_manifest m;
    if (!hive_manifest_load(ed->ms, t->manifest_path, t->name, ed->lim, &m, err)) return false;
    const char *pe = hive_kv_get(&m.params, "projection.enabled");
    bool projected = pe && sqe_str_ieq(pe, "true");
    hive_manifest_free(&m);
    if (projected && !msck)
        return sqe_error_set(err, SQE_ERR_USAGE,
                             "table '%s' uses partition projection (projection.enabled): its "
                             "partitions are computed, so they cannot be added or dropped",
                             ed->qname);
    if (!msck && t->n_part_keys == 0)
        return sqe_error_set(err, SQE_ERR_USAGE, "table '%s' is not partitioned", ed->qname);
    *noop = msck && (projected || t->n_part_keys == 0); /* SPEC §7.3: MSCK does nothing */
    return true;
}

bool hive_partidx_execute(const sqe_hive_limits *lim, sqe_store *ms, sqe_store *ts,
                          const sqe_hive_table *t, const sqe_ast_stmt *st, sqe_resultset **out,
                          sqe_error *err) {
    bool msck = st->kind == SQE_STMT_MSCK_REPAIR;
    pidx_edit ed = {.lim = lim, .ms = ms, .ts = ts, .t = t, .st = st};
    ed.a = sqe_arena_new(0);
    ed.cyc = sqe_arena_new(0);
    ed.qname = sqe_arena_sprintf(ed.a, "%s.%s.%s", t->root, t->database, t->name);
    bool noop = false, ok = pidx_precheck(&ed, msck, &noop, err);
    if (ok && !noop && msck) {
        ok = pidx_scan_storage(ts, t, ed.a, &ed.found, err);
        ed.have_found = true;
    }
    if (ok && !noop && !msck) {
        ed.n_specs = (size_t)st->u.alter_partitions.n_specs;
        ed.specs = sqe_arena_alloc(ed.a, sizeof *ed.specs * ed.n_specs);
        for (size_t i = 0; ok && i < ed.n_specs; i++)
            ok = pidx_spec(&ed, &st->u.alter_partitions.specs[i], &ed.specs[i], err);
    }
    if (ok && !noop)
        ok = hive_manifest_update(ms, t->manifest_path, t->name, lim,
                                  msck ? msck_mutate : alter_mutate, &ed, err);
    if (ok && ed.old_object && (!ed.new_object || strcmp(ed.old_object, ed.new_object) != 0)) {
        sqe_error ignore; /* the replaced index object: garbage now */
        ms->vt->del(ms, ed.old_object, &ignore);
    }
    if (ok && msck) *out = pidx_rows(&ed);
    sqe_arena_free(ed.cyc);
    sqe_arena_free(ed.a);
    return ok;
}
