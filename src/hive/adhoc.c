/*
 * adhoc.c - tables that exist for one query: read_csv, read_json and
 * read_parquet (SPEC §4.7) read files named by a path, a folder or a glob,
 * with the same readers as a table LOCATION.
 *
 * The planner asks for the files first (sqe_hive_adhoc_files: one listing
 * of the glob's fixed prefix, matched segment by segment), infers the
 * columns from the first file through format/, then builds the table
 * (sqe_hive_adhoc_table). The table is an ordinary sqe_hive_table (built
 * through hive_table_from_manifest, so sqe_hive_reader_spec and
 * sqe_hive_table_free work on it) whose `adhoc` member holds the files
 * grouped into partitions, one per folder: sqe_hive_list_partitions hands
 * those out (pruned like listed ones) and sqe_hive_partition_files returns
 * their files, so the scan never lists again and reads exactly what the
 * glob matched at plan time.
 *
 * Hive partitioning: the k=v segments between the base and a file are
 * partition keys, in path order, named in lower case, values unescaped
 * (%XX) and __HIVE_DEFAULT_PARTITION__ as NULL. Auto mode (-1) turns it on
 * when every file has the same key sequence (at least one key); on (1)
 * requires that, naming the first file that differs. A key's type is
 * BIGINT when every value parses as one, else DATE when every value does,
 * else VARCHAR (DuckDB guesses the same way).
 */
#include "hive/hive_int.h"

#include <fnmatch.h>
#include <string.h>

struct hive_adhoc {
    sqe_arena *arena;
    size_t n_parts;
    sqe_hive_partition *parts; /* values, files and paths in arena */
};

void hive_adhoc_free(hive_adhoc *h) {
    if (!h) return;
    sqe_arena_free(h->arena);
    sqe_free(h);
}

/* ------------------------------------------------------------ files */

static bool adhoc_has_glob(const char *s) {
    return strpbrk(s, "*?[") != NULL;
}

/* Matches rel (segments split by '/') against pat; `**` matches any number
 * of whole segments. */
static bool adhoc_match(const char *pat, const char *rel) {
    if (!*pat) return !*rel;
    const char *pe = strchr(pat, '/');
    size_t pn = pe ? (size_t)(pe - pat) : strlen(pat);
    if (pn == 2 && pat[0] == '*' && pat[1] == '*') {
        const char *rest = pe ? pe + 1 : "";
        for (const char *r = rel;;) {
            if (adhoc_match(rest, r)) return true;
            const char *slash = strchr(r, '/');
            if (!slash) return false;
            r = slash + 1;
        }
    }
    const char *re = strchr(rel, '/');
    if (!re != !pe) return false;
    size_t rn = re ? (size_t)(re - rel) : strlen(rel);
    char seg_pat[1024], seg[1024];
    if (pn >= sizeof seg_pat || rn >= sizeof seg) return false;
    memcpy(seg_pat, pat, pn);
    seg_pat[pn] = 0;
    memcpy(seg, rel, rn);
    seg[rn] = 0;
    if (fnmatch(seg_pat, seg, FNM_PERIOD) != 0) return false;
    return pe ? adhoc_match(pe + 1, re + 1) : true;
}

typedef struct adhoc_list_ctx {
    const char *base;
    size_t base_len;
    const char *pat; /* relative to base; NULL: every file */
    sqe_arena *arena;
    SQE_ARRAY(sqe_hive_file) files;
} adhoc_list_ctx;

static bool adhoc_list_cb(const sqe_io_entry *e, void *ctx) {
    adhoc_list_ctx *c = ctx;
    if (e->is_dir || strncmp(e->path, c->base, c->base_len) != 0) return true;
    const char *rel = e->path + c->base_len;
    while (*rel == '/') rel++;
    if (hive_path_hidden(rel) || (c->pat && !adhoc_match(c->pat, rel))) return true;
    sqe_hive_file f = {sqe_arena_strdup(c->arena, e->path), e->size};
    SQE_ARRAY_PUSH(c->arena, c->files, f);
    return true;
}

static int adhoc_file_cmp(const void *a, const void *b) {
    return strcmp(((const sqe_hive_file *)a)->path, ((const sqe_hive_file *)b)->path);
}

bool sqe_hive_adhoc_files(sqe_store *store, const char *pattern, sqe_arena *arena, char **base,
                          sqe_hive_file **files, size_t *n_files, sqe_error *err) {
    *files = NULL;
    *n_files = 0;
    size_t n = strlen(pattern);
    if (n == 0) return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT, "empty path");
    adhoc_list_ctx c = {.arena = arena};
    if (!adhoc_has_glob(pattern)) {
        sqe_io_entry e;
        sqe_error herr;
        sqe_error_clear(&herr);
        if (pattern[n - 1] != '/' && store->vt->head(store, pattern, &e, &herr)) {
            const char *slash = strrchr(pattern, '/');
            *base = slash ? sqe_arena_strndup(arena, pattern, (size_t)(slash - pattern) + 1)
                          : sqe_arena_strdup(arena, "");
            sqe_hive_file *f = sqe_arena_alloc(arena, sizeof *f);
            f->path = sqe_arena_strdup(arena, pattern);
            f->size = e.size;
            *files = f;
            *n_files = 1;
            return true;
        }
        if (herr.cls != SQE_ERR_NOT_FOUND && herr.cls != 0) {
            *err = herr;
            return false;
        }
        /* a folder: every file below it */
        *base = pattern[n - 1] == '/' ? sqe_arena_strdup(arena, pattern)
                                      : sqe_arena_sprintf(arena, "%s/", pattern);
    } else {
        const char *g = strpbrk(pattern, "*?[");
        const char *slash = g;
        while (slash > pattern && slash[-1] != '/') slash--;
        *base = sqe_arena_strndup(arena, pattern, (size_t)(slash - pattern));
        c.pat = slash;
    }
    c.base = *base;
    c.base_len = strlen(*base);
    if (!store->vt->list(store, *base, true, adhoc_list_cb, &c, err)) return false;
    if (c.files.len == 0)
        return sqe_error_set(err, SQE_ERR_NOT_FOUND, "no files match '%s'", pattern);
    qsort(c.files.items, c.files.len, sizeof *c.files.items, adhoc_file_cmp);
    *files = c.files.items;
    *n_files = c.files.len;
    return true;
}

/* ------------------------------------------------------- partitioning */

/* The k=v folder segments of rel (everything before the last '/'). */
static int adhoc_segments(sqe_arena *a, const char *rel, const char ***keys, const char ***vals) {
    SQE_ARRAY(const char *) ks = {0}, vs = {0};
    for (const char *p = rel;;) {
        const char *slash = strchr(p, '/');
        if (!slash) break;
        const char *eq = memchr(p, '=', (size_t)(slash - p));
        if (eq && eq > p) {
            char *k = sqe_arena_strndup(a, p, (size_t)(eq - p));
            for (char *q = k; *q; q++) *q = (char)(*q >= 'A' && *q <= 'Z' ? *q + 32 : *q);
            size_t vn;
            char *v = hive_unescape_path_value(a, eq + 1, (size_t)(slash - eq - 1), &vn);
            SQE_ARRAY_PUSH(a, ks, k);
            SQE_ARRAY_PUSH(a, vs, v);
        }
        p = slash + 1;
    }
    *keys = ks.items;
    *vals = vs.items;
    return (int)ks.len;
}

typedef struct adhoc_layout {
    int n_keys;
    const char **keys;
    const char ***vals; /* per file: n_keys raw values */
} adhoc_layout;

/* Decides whether files are partitioned and collects their values. */
static bool adhoc_layout_of(sqe_arena *a, const sqe_hive_adhoc_spec *s, adhoc_layout *out,
                            sqe_error *err) {
    memset(out, 0, sizeof *out);
    if (s->hive_partitioning == 0) return true;
    size_t bl = strlen(s->base);
    out->vals = sqe_arena_alloc(a, sizeof(char **) * s->n_files);
    for (size_t i = 0; i < s->n_files; i++) {
        const char **keys, **vals;
        int n = adhoc_segments(a, s->files[i].path + bl, &keys, &vals);
        bool same = i == 0 ? n > 0 : n == out->n_keys;
        for (int k = 0; same && i > 0 && k < n; k++) same = strcmp(keys[k], out->keys[k]) == 0;
        if (!same) {
            if (s->hive_partitioning < 0) {
                out->n_keys = 0;
                return true;
            }
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "%s: hive_partitioning: file '%s' does not have the same k=v "
                                 "folders as the others (or has none)",
                                 s->name, s->files[i].path);
        }
        if (i == 0) {
            out->n_keys = n;
            out->keys = keys;
        }
        out->vals[i] = vals;
    }
    return true;
}

static sqe_type adhoc_key_type(const adhoc_layout *l, size_t n_files, int k) {
    bool all_int = true, all_date = true;
    for (size_t i = 0; i < n_files; i++) {
        const char *v = l->vals[i][k];
        if (strcmp(v, "__HIVE_DEFAULT_PARTITION__") == 0) continue;
        int64_t x;
        int32_t d;
        all_int = all_int && sqe_parse_int64(v, strlen(v), &x);
        all_date = all_date && sqe_parse_date(v, strlen(v), &d);
    }
    return sqe_type_make(all_int ? SQE_T_BIGINT : all_date ? SQE_T_DATE : SQE_T_VARCHAR);
}

static sqe_value adhoc_value(sqe_arena *a, sqe_type t, const char *v) {
    if (strcmp(v, "__HIVE_DEFAULT_PARTITION__") == 0) return sqe_value_null(t);
    sqe_value out = {.type = t};
    size_t n = strlen(v);
    if (t.id == SQE_T_BIGINT) {
        (void)sqe_parse_int64(v, n, &out.v.i);
    } else if (t.id == SQE_T_DATE) {
        int32_t d = 0;
        (void)sqe_parse_date(v, n, &d);
        out.v.i = d;
    } else {
        out.v.s.ptr = sqe_arena_strdup(a, v);
        out.v.s.len = (uint32_t)n;
    }
    return out;
}

/* Groups files into partitions by folder (files are sorted, so a folder's
 * files are adjacent). */
static void adhoc_group(hive_adhoc *h, const sqe_hive_adhoc_spec *s, const adhoc_layout *l,
                        const sqe_hive_column *keys) {
    sqe_arena *a = h->arena;
    SQE_ARRAY(sqe_hive_partition) parts = {0};
    for (size_t i = 0; i < s->n_files;) {
        const char *p = s->files[i].path, *slash = strrchr(p, '/');
        size_t dn = slash ? (size_t)(slash - p) + 1 : 0;
        size_t j = i + 1;
        while (j < s->n_files && strncmp(s->files[j].path, p, dn) == 0 &&
               !strchr(s->files[j].path + dn, '/'))
            j++;
        sqe_hive_partition part = {.path = sqe_arena_strndup(a, p, dn)};
        sqe_hive_file *fs = sqe_arena_alloc(a, sizeof *fs * (j - i));
        for (size_t f = i; f < j; f++) {
            fs[f - i].path = sqe_arena_strdup(a, s->files[f].path);
            fs[f - i].size = s->files[f].size;
        }
        part.files = fs;
        part.n_files = j - i;
        if (l->n_keys) {
            part.values = sqe_arena_alloc(a, sizeof(sqe_value) * (size_t)l->n_keys);
            for (int k = 0; k < l->n_keys; k++)
                part.values[k] = adhoc_value(a, keys[k].type, l->vals[i][k]);
        }
        SQE_ARRAY_PUSH(a, parts, part);
        i = j;
    }
    h->parts = parts.items;
    h->n_parts = parts.len;
}

/* ------------------------------------------------------------ tables */

static sqe_hive_column *adhoc_columns(sqe_arena *a, int n, const char *const *names,
                                      const sqe_type *types) {
    sqe_hive_column *cols = sqe_arena_alloc(a, sizeof *cols * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        cols[i].name = (char *)names[i];
        cols[i].type = types[i];
    }
    return cols;
}

sqe_hive_table *sqe_hive_adhoc_table(const sqe_hive_adhoc_spec *s, sqe_error *err) {
    hive_adhoc *h = sqe_calloc(1, sizeof *h);
    h->arena = sqe_arena_new(0);
    sqe_arena *a = h->arena;
    adhoc_layout l;
    if (!adhoc_layout_of(a, s, &l, err)) goto fail;
    sqe_type *ktypes = sqe_arena_alloc(a, sizeof(sqe_type) * (size_t)(l.n_keys + 1));
    for (int k = 0; k < l.n_keys; k++) {
        ktypes[k] = adhoc_key_type(&l, s->n_files, k);
        for (int c = 0; c < s->n_cols; c++)
            if (strcmp(s->col_names[c], l.keys[k]) == 0) {
                sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                              "%s: partition folder key '%s' is also a column of the files "
                              "(turn off hive_partitioning or rename the folder key)",
                              s->name, l.keys[k]);
                goto fail;
            }
    }
    hive_manifest m;
    memset(&m, 0, sizeof m);
    m.name = (char *)s->name;
    m.location = (char *)s->base;
    m.format = s->format;
    m.text = s->text;
    m.n_cols = s->n_cols;
    m.cols = adhoc_columns(a, s->n_cols, s->col_names, s->col_types);
    m.n_part_keys = l.n_keys;
    m.part_keys = adhoc_columns(a, l.n_keys, l.keys, ktypes);
    adhoc_group(h, s, &l, m.part_keys);
    sqe_hive_table *t = hive_table_from_manifest(&m, "", "", "");
    t->adhoc = h;
    return t;
fail:
    hive_adhoc_free(h);
    return NULL;
}

bool hive_adhoc_partitions(const sqe_hive_table *t, const sqe_hive_prune *prune, sqe_arena *arena,
                           sqe_hive_partition **out, size_t *n_out, sqe_error *err) {
    const hive_adhoc *h = t->adhoc;
    sqe_hive_partition *parts = sqe_arena_alloc(arena, sizeof *parts * (h->n_parts + 1));
    size_t n = 0;
    for (size_t i = 0; i < h->n_parts; i++) {
        if (sqe_hive_prune_admits(prune, h->parts[i].values, t->n_part_keys))
            parts[n++] = h->parts[i];
    }
    *out = parts;
    *n_out = n;
    SQE_UNUSED(err);
    return true;
}
