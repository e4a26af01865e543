/*
 * partitions.c - partition discovery by listing (SPEC §4.6, §6.4 no-index
 * path) and the file listing of one partition.
 *
 * A partitioned table's data sits in `<LOCATION>/k1=v1/k2=v2/.../files`,
 * keys in PARTITIONED BY order. Discovery walks one level per key:
 *   walk(level, folder)
 *     list folder (non-recursive); for each child:
 *       '_' / '.' names are skipped, files are ignored (they sit at a
 *       non-leaf level), a folder must read `<key>=<value>` with the key
 *       matched case-insensitively, else the statement fails naming the
 *       segment; the value is %XX-decoded, __HIVE_DEFAULT_PARTITION__ is
 *       NULL, and it is typed by the key type (a value that does not parse
 *       fails naming the segment, never a silent skip); values that an
 *       equality/IN/IS NULL constraint excludes are dropped here, before
 *       descending, so only the surviving subtrees are listed.
 * Results are sorted by typed values (NULLs last), then by path.
 *
 * Constrained keys are listed too, never addressed by building the folder
 * name from the literal: the same value has many spellings on storage
 * (`DT=x` vs `dt=x`, `New%20York` vs `New York`, `%2f` vs `%2F`, `7` vs
 * `007`), and a guessed name that misses one would silently drop rows that
 * the same query without the WHERE clause returns.
 *
 * Memory: everything returned lives in the caller's arena.
 */
#include "hive/hive_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct part_ctx {
    sqe_store *store;
    const sqe_hive_table *t;
    const sqe_hive_prune *prune;
    sqe_arena *arena;
    SQE_ARRAY(sqe_hive_partition) out; /* arena-backed */
    sqe_error *err;
    sqe_hive_part_stats *stats; /* considered / pruned counts */
} part_ctx;

typedef struct child {
    char *name; /* arena */
    bool is_dir;
} child;

typedef struct child_list {
    sqe_arena *arena;
    SQE_ARRAY(child) items; /* arena-backed */
} child_list;

static bool child_cb(const sqe_io_entry *e, void *ctx) {
    child_list *l = ctx;
    child c = {sqe_arena_strdup(l->arena, e->name), e->is_dir};
    SQE_ARRAY_PUSH(l->arena, l->items, c);
    return true;
}

/* `folder` with exactly one trailing '/', spelled as the store spells the
 * paths it lists (sqe_io_join): with `LOCATION '.../t//'` the listed paths
 * read `.../t/x`, and a prefix kept as `.../t//` would not match them, so
 * hidden folders below would go unnoticed. */
static char *folder_prefix(sqe_arena *arena, const char *folder) {
    char *j = sqe_io_join(folder, "");
    char *out = j[0] ? sqe_arena_strdup(arena, j) : sqe_arena_strdup(arena, "/");
    sqe_free(j);
    return out;
}

static int child_cmp(const void *a, const void *b) {
    return strcmp(((const child *)a)->name, ((const child *)b)->name);
}

const char *hive_type_word(sqe_type t, char *buf, size_t n) {
    switch (t.id) {
    case SQE_T_INTEGER:
        return "int";
    case SQE_T_BIGINT:
        return "bigint";
    case SQE_T_DATE:
        return "date";
    default:
        if (t.str_kind != SQE_STRKIND_STRING) {
            snprintf(buf, n, "varchar(%u)", (unsigned)t.length);
            return buf;
        }
        return "string";
    }
}

bool hive_part_value(const sqe_hive_column *key, const char *v, size_t n, sqe_value *out) {
    if (n == strlen(HIVE_DEFAULT_PARTITION) && memcmp(v, HIVE_DEFAULT_PARTITION, n) == 0) {
        *out = sqe_value_null(key->type);
        return true;
    }
    memset(out, 0, sizeof *out);
    out->type = key->type;
    switch (key->type.id) {
    case SQE_T_VARCHAR:
        out->v.s.ptr = v;
        out->v.s.len = (uint32_t)n;
        /* VARCHAR(n): a longer value does not fit the key type (Trino fails
         * the same way; truncating would merge distinct partitions). */
        return key->type.str_kind == SQE_STRKIND_STRING || sqe_utf8_count(v, n) <= key->type.length;
    case SQE_T_INTEGER:
    case SQE_T_BIGINT: {
        int64_t i;
        if (!sqe_parse_int64(v, n, &i)) return false;
        if (key->type.id == SQE_T_INTEGER && (i < INT32_MIN || i > INT32_MAX)) return false;
        out->v.i = i;
        return true;
    }
    case SQE_T_DATE: {
        int32_t d;
        if (!sqe_parse_date(v, n, &d)) return false;
        out->v.i = d;
        return true;
    }
    default:
        return false;
    }
}

static bool typed_value(part_ctx *c, int k, const char *folder, const char *segment,
                        const char *raw, size_t raw_len, sqe_value *out) {
    const sqe_hive_column *key = &c->t->part_keys[k];
    size_t n;
    char *v = hive_unescape_path_value(c->arena, raw, raw_len, &n);
    if (!hive_part_value(key, v, n, out)) {
        char tbuf[32];
        return sqe_error_set(
            c->err, SQE_ERR_HIVE_EXTERNAL,
            "partition folder '%s' under '%s': value '%s' is not a valid %s for partition key '%s'",
            segment, folder, v, hive_type_word(key->type, tbuf, sizeof tbuf), key->name);
    }
    return true;
}

static int value_cmp(const sqe_value *a, const sqe_value *b) {
    if (a->type.id == SQE_T_VARCHAR || b->type.id == SQE_T_VARCHAR) {
        uint32_t n = SQE_MIN(a->v.s.len, b->v.s.len);
        int r = n ? memcmp(a->v.s.ptr, b->v.s.ptr, n) : 0;
        if (r) return r < 0 ? -1 : 1;
        return a->v.s.len < b->v.s.len ? -1 : a->v.s.len > b->v.s.len;
    }
    return a->v.i < b->v.i ? -1 : a->v.i > b->v.i;
}

static bool walk(part_ctx *c, int level, const char *folder, sqe_value *vals);

static bool descend(part_ctx *c, int level, const char *folder, const char *segment,
                    sqe_value *vals, const sqe_value *v) {
    vals[level] = *v;
    char *child_path = sqe_arena_sprintf(c->arena, "%s%s/", folder, segment);
    return walk(c, level + 1, child_path, vals);
}

static bool walk(part_ctx *c, int level, const char *folder, sqe_value *vals) {
    const sqe_hive_table *t = c->t;
    if (level == t->n_part_keys) {
        sqe_hive_partition p;
        memset(&p, 0, sizeof p);
        p.path = sqe_arena_strdup(c->arena, folder);
        p.values = sqe_arena_alloc(c->arena, sizeof(sqe_value) * (size_t)t->n_part_keys);
        memcpy(p.values, vals, sizeof(sqe_value) * (size_t)t->n_part_keys);
        SQE_ARRAY_PUSH(c->arena, c->out, p);
        return true;
    }
    const sqe_hive_column *key = &t->part_keys[level];
    child_list l = {c->arena, {0}};
    if (!c->store->vt->list(c->store, folder, false, child_cb, &l, c->err)) return false;
    /* Name order, as S3 lists: the first bad segment reported does not
     * depend on the local file system's directory order. */
    if (l.items.len > 1) qsort(l.items.items, l.items.len, sizeof *l.items.items, child_cmp);
    size_t key_len = strlen(key->name);
    for (size_t i = 0; i < l.items.len; i++) {
        const child *ch = &l.items.items[i];
        if (ch->name[0] == '_' || ch->name[0] == '.') continue;
        if (!ch->is_dir) continue; /* files above the leaf level are not data */
        const char *eq = strchr(ch->name, '=');
        /* Hive escapes the key part like the value (`a%3Ab=1` for key a:b) */
        size_t name_len = 0;
        const char *name =
            eq ? hive_unescape_path_value(c->arena, ch->name, (size_t)(eq - ch->name), &name_len)
               : NULL;
        if (!eq || name_len != key_len || !sqe_str_ieqn(name, key->name, key_len))
            return sqe_error_set(c->err, SQE_ERR_HIVE_EXTERNAL,
                                 "unexpected folder '%s' under '%s': expected '%s=<value>'",
                                 ch->name, folder, key->name);
        sqe_value v;
        if (!typed_value(c, level, folder, ch->name, eq + 1, strlen(eq + 1), &v)) return false;
        vals[level] = v;
        if (level + 1 == c->t->n_part_keys) c->stats->considered++;
        if (!sqe_hive_prune_admits(c->prune, vals, level + 1)) {
            c->stats->pruned++;
            continue;
        }
        if (!descend(c, level, folder, ch->name, vals, &v)) return false;
    }
    return true;
}

int hive_partition_cmp(const void *pa, const void *pb, void *arg) {
    const sqe_hive_partition *a = pa, *b = pb;
    int n = *(const int *)arg;
    for (int k = 0; k < n; k++) {
        bool an = a->values[k].is_null, bn = b->values[k].is_null;
        if (an != bn) return an ? 1 : -1; /* NULLs last */
        if (an) continue;
        int r = value_cmp(&a->values[k], &b->values[k]);
        if (r) return r;
    }
    return strcmp(a->path, b->path);
}

bool sqe_hive_list_partitions(sqe_store *store, const sqe_hive_table *t,
                              const sqe_hive_prune *prune, sqe_arena *arena,
                              sqe_hive_partition **out, size_t *n_out, sqe_error *err) {
    return sqe_hive_list_partitions_stats(store, t, prune, arena, out, n_out, NULL, err);
}

bool sqe_hive_list_partitions_stats(sqe_store *store, const sqe_hive_table *t,
                                    const sqe_hive_prune *prune, sqe_arena *arena,
                                    sqe_hive_partition **out, size_t *n_out,
                                    sqe_hive_part_stats *stats, sqe_error *err) {
    *out = NULL;
    *n_out = 0;
    sqe_hive_part_stats local = {0};
    if (!stats) stats = &local;
    memset(stats, 0, sizeof *stats);
    stats->source = "listing";
    if (t->adhoc) return hive_adhoc_partitions(t, prune, arena, out, n_out, err);
    char *folder = folder_prefix(arena, t->location ? t->location : "");
    if (t->n_part_keys == 0) {
        sqe_hive_partition *p = sqe_arena_alloc(arena, sizeof *p);
        memset(p, 0, sizeof *p);
        p->path = folder;
        *out = p;
        *n_out = 1;
        return true;
    }
    const hive_projection *pj = hive_table_projection(t);
    if (pj) { /* projection decides the partitions (Athena: over Glue's) */
        stats->source = "projection";
        return hive_projection_partitions(pj, t, prune, arena, out, n_out, stats, err);
    }
    int n_keys = t->n_part_keys;
    if (t->partidx) {
        stats->source = "index";
        if (!hive_partidx_partitions(t, prune, arena, out, n_out, stats, err)) return false;
        if (*n_out > 1) qsort_r(*out, *n_out, sizeof **out, hive_partition_cmp, &n_keys);
        return true;
    }
    sqe_io_stats before = {0}, after = {0};
    if (store->vt->stats) store->vt->stats(store, &before);
    part_ctx c = {store, t, prune, arena, {0}, err, stats};
    sqe_value *vals = sqe_arena_alloc(arena, sizeof(sqe_value) * (size_t)t->n_part_keys);
    if (!walk(&c, 0, folder, vals)) return false;
    if (store->vt->stats) store->vt->stats(store, &after);
    stats->lists = after.n_list - before.n_list;
    if (c.out.len > 1)
        qsort_r(c.out.items, c.out.len, sizeof *c.out.items, hive_partition_cmp, &n_keys);
    *out = c.out.items;
    *n_out = c.out.len;
    return true;
}

/* ------------------------------------------------------------ files */

typedef struct file_ctx {
    const char *prefix;
    size_t prefix_len;
    sqe_arena *arena;
    SQE_ARRAY(sqe_hive_file) files; /* arena-backed */
    const char *special;            /* first data entry that is not a regular file (arena) */
    const char *special_kind;       /* "FIFO", "socket", ... */
} file_ctx;

bool hive_path_hidden(const char *rel) {
    const char *p = rel;
    for (;;) {
        if (*p == '_' || *p == '.') return true;
        const char *slash = strchr(p, '/');
        if (!slash) return false;
        p = slash + 1;
    }
}

static bool file_cb(const sqe_io_entry *e, void *ctx) {
    file_ctx *f = ctx;
    if (e->is_dir || (e->size == 0 && !e->special)) return true;
    const char *rel =
        strncmp(e->path, f->prefix, f->prefix_len) == 0 ? e->path + f->prefix_len : e->name;
    while (*rel == '/') rel++;
    if (hive_path_hidden(rel)) return true;
    if (e->special) {
        /* a FIFO (or socket, device) among the data: reading it would block
         * or never end, and skipping it would drop its rows silently */
        f->special = sqe_arena_strdup(f->arena, e->path);
        f->special_kind = e->special;
        return false;
    }
    sqe_hive_file file = {sqe_arena_strdup(f->arena, e->path), e->size};
    SQE_ARRAY_PUSH(f->arena, f->files, file);
    return true;
}

static int file_cmp(const void *a, const void *b) {
    return strcmp(((const sqe_hive_file *)a)->path, ((const sqe_hive_file *)b)->path);
}

/* An empty listing of `prefix` (ending in '/') whose name without the '/' is
 * a file: the LOCATION became a file after CREATE refused that (issue 7
 * item 5). An error naming it instead of an empty table. Only empty
 * listings pay for the head. */
static bool folder_is_not_a_file(sqe_store *store, const char *prefix, sqe_error *err) {
    size_t n = strlen(prefix);
    while (n > 1 && prefix[n - 1] == '/') n--;
    char *path = sqe_strndup(prefix, n);
    sqe_io_entry e;
    sqe_error herr;
    sqe_error_clear(&herr);
    bool is_file = store->vt->head(store, path, &e, &herr);
    if (is_file)
        sqe_error_set(err, SQE_ERR_HIVE_EXTERNAL,
                      "LOCATION '%s' is a file, not a folder; a table's LOCATION must be the "
                      "folder that holds its data files",
                      path);
    sqe_free(path);
    return !is_file;
}

bool sqe_hive_list_files(sqe_store *store, const char *folder, sqe_arena *arena,
                         sqe_hive_file **out, size_t *n_out, sqe_error *err) {
    *out = NULL;
    *n_out = 0;
    char *prefix = folder_prefix(arena, folder);
    file_ctx f = {prefix, strlen(prefix), arena, {0}, NULL, NULL};
    if (!store->vt->list(store, prefix, true, file_cb, &f, err)) return false;
    if (f.special)
        return sqe_error_set(err, SQE_ERR_STORAGE,
                             "cannot read '%s': it is a %s, not a regular file; sqe reads only "
                             "regular files (remove it, or rename it to start with '_' or '.' "
                             "so that it is skipped)",
                             f.special, f.special_kind);
    if (f.files.len == 0 && !folder_is_not_a_file(store, prefix, err)) return false;
    if (f.files.len > 1) qsort(f.files.items, f.files.len, sizeof *f.files.items, file_cmp);
    *out = f.files.items;
    *n_out = f.files.len;
    return true;
}

bool sqe_hive_partition_files(sqe_store *store, const sqe_hive_partition *p, sqe_arena *arena,
                              sqe_hive_file **out, size_t *n_out, sqe_error *err) {
    if (p->files) {
        *out = (sqe_hive_file *)p->files;
        *n_out = p->n_files;
        return true;
    }
    return sqe_hive_list_files(store, p->path, arena, out, n_out, err);
}
