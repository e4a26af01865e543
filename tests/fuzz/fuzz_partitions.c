/*
 * fuzz_partitions.c - partition discovery (sqe_hive_list_partitions) and
 * file listing (sqe_hive_list_files) over hostile folder names.
 *
 * Input: byte 0 picks the partition key types (three keys, each string,
 * varchar(3), int, bigint or date), byte 1 the number of keys (1..3); the
 * rest is newline-separated object paths relative to the table location
 * (/d/p/), stored as one-byte objects in a memory store ("//" collapses, as
 * on a file system; a path ending in '!' is an empty object). The table is
 * created with CREATE EXTERNAL TABLE through the catalog and resolved.
 *
 * Invariants besides "no crash": partitions come sorted by typed values
 * (NULLs last) and sit under the location; listing the files of each
 * partition works; and pruning agrees with filtering: when the unpruned
 * listing succeeds, the listing pruned to the first partition's values
 * (and, separately, to NULL of key 0) succeeds and returns exactly the
 * unpruned partitions those constraints admit.
 */
#include "fuzz_hive.h"

static const char *const k_key_types[5] = {"string", "varchar(3)", "int", "bigint", "date"};

static void put_paths(mem_store *ms, const uint8_t *p, size_t n) {
    size_t start = 0;
    int count = 0;
    for (size_t i = 0; i <= n && count < 64; i++) {
        if (i < n && p[i] != '\n') continue;
        sqe_strbuf path;
        sqe_strbuf_init(&path);
        sqe_strbuf_puts(&path, "/d/p/");
        bool empty = false;
        for (size_t j = start; j < i; j++) {
            char c = (char)p[j];
            if (c == '\0') continue;
            if (c == '/' && path.data[path.len - 1] == '/') continue;
            sqe_strbuf_putc(&path, c);
        }
        if (path.len && path.data[path.len - 1] == '!') {
            empty = true;
            path.data[--path.len] = '\0';
        }
        /* an object name, not a folder */
        if (path.len > 5 && path.data[path.len - 1] != '/') {
            sqe_error err;
            mem_put(&ms->base, path.data, "x", empty ? 0 : 1, &err);
            count++;
        }
        sqe_strbuf_free(&path);
        start = i + 1;
    }
}

static bool same_value(const sqe_value *a, const sqe_value *b) {
    if (a->is_null || b->is_null) return a->is_null == b->is_null;
    return sqe_value_cmp(a, b) == 0;
}

/* Partitions of `all` admitted by the prune, as a list of paths. */
/* What the pruning asks, kept apart from the predicate tree so that the
 * oracle (filtered_paths) does not share code with sqe_hive_prune_admits:
 * per key, NULL (unconstrained) or n_eq values, allow_null admitting the
 * NULL partition. */
typedef struct prune_spec {
    const sqe_value *const *eq;
    const int *n_eq;
    const bool *allow_null;
} prune_spec;

/* The spec as the planner would hand it over: an AND over the constrained
 * keys of (key IN (values)) OR (key IS NULL). */
static sqe_hive_prune spec_prune(sqe_arena *a, int n_keys, const prune_spec *pr) {
    sqe_hive_ppred *and_p = sqe_arena_alloc(a, sizeof *and_p);
    const sqe_hive_ppred **kids = sqe_arena_alloc(a, sizeof *kids * (size_t)n_keys);
    memset(and_p, 0, sizeof *and_p);
    and_p->kind = SQE_HIVE_PP_AND;
    and_p->kids = kids;
    for (int k = 0; k < n_keys; k++) {
        if (!pr->eq[k]) continue;
        sqe_hive_ppred *t = sqe_arena_alloc(a, sizeof *t * 3);
        memset(t, 0, sizeof *t * 3);
        t[0].term.col = t[1].term.col = k;
        t[0].term.op = SQE_FPRED_IN;
        t[0].term.n_vals = pr->n_eq[k];
        t[0].term.vals = pr->eq[k];
        t[1].term.op = SQE_FPRED_IS_NULL;
        const sqe_hive_ppred **or_kids = sqe_arena_alloc(a, sizeof *or_kids * 2);
        int n_or = 0;
        if (pr->n_eq[k] > 0) or_kids[n_or++] = &t[0];
        if (pr->allow_null[k]) or_kids[n_or++] = &t[1];
        t[2].kind = SQE_HIVE_PP_OR;
        t[2].n_kids = n_or;
        t[2].kids = or_kids;
        kids[and_p->n_kids++] = &t[2];
    }
    sqe_hive_prune out = {and_p};
    return out;
}

static char *filtered_paths(const sqe_hive_partition *all, size_t n, int n_keys,
                            const prune_spec *pr) {
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    for (size_t i = 0; i < n; i++) {
        bool ok = true;
        for (int k = 0; ok && k < n_keys; k++) {
            if (!pr->eq[k]) continue;
            const sqe_value *v = &all[i].values[k];
            if (v->is_null) {
                ok = pr->allow_null[k];
            } else {
                ok = false;
                for (int j = 0; j < pr->n_eq[k]; j++) ok |= same_value(v, &pr->eq[k][j]);
            }
        }
        if (ok) sqe_strbuf_printf(&sb, "%s\n", all[i].path);
    }
    return sqe_strbuf_detach(&sb);
}

static char *paths_of(const sqe_hive_partition *ps, size_t n) {
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    for (size_t i = 0; i < n; i++) sqe_strbuf_printf(&sb, "%s\n", ps[i].path);
    return sqe_strbuf_detach(&sb);
}

static void check_pruned(mem_store *ms, const sqe_hive_table *t, const sqe_hive_partition *all,
                         size_t n, const prune_spec *pr) {
    sqe_arena *a = sqe_arena_new(0);
    sqe_error err;
    sqe_error_clear(&err);
    sqe_hive_partition *ps;
    size_t np;
    sqe_hive_prune prune = spec_prune(a, t->n_part_keys, pr);
    if (!sqe_hive_list_partitions(&ms->base, t, &prune, a, &ps, &np, &err))
        fuzz_fail("pruned listing fails where the full listing works", err.msg);
    char *want = filtered_paths(all, n, t->n_part_keys, pr);
    char *got = paths_of(ps, np);
    if (strcmp(want, got) != 0) {
        char *detail = sqe_asprintf("filtered:\n%s-- pruned:\n%s", want, got);
        fuzz_fail("pruned listing differs from the filtered full listing", detail);
    }
    sqe_free(want);
    sqe_free(got);
    sqe_arena_free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2 || size > 16 * 1024) return 0;
    int n_keys = 1 + data[1] % 3;
    int pick = data[0];
    sqe_strbuf ddl;
    sqe_strbuf_init(&ddl);
    sqe_strbuf_puts(&ddl, "CREATE EXTERNAL TABLE w.db.p (x int) PARTITIONED BY (");
    static const char *const key_names[3] = {"dt", "Region", "n"};
    for (int k = 0; k < n_keys; k++, pick /= 5)
        sqe_strbuf_printf(&ddl, "%s%s %s", k ? ", " : "", key_names[k], k_key_types[pick % 5]);
    sqe_strbuf_puts(&ddl, ") LOCATION '/d/p/'");

    mem_store *ms;
    sqe_hive_catalog *cat = fuzz_catalog_new(&ms);
    sqe_error err;
    sqe_error_clear(&err);
    if (!fuzz_exec(cat, ddl.data, NULL, &err))
        fuzz_fail("CREATE of the partitioned table", err.msg);
    static const char *const parts[3] = {FUZZ_ROOT, "db", "p"};
    sqe_hive_table *t = sqe_hive_resolve_table(cat, 3, parts, &err);
    if (!t) fuzz_fail("resolve of the partitioned table", err.msg);
    put_paths(ms, data + 2, size - 2);

    sqe_arena *a = sqe_arena_new(0);
    sqe_hive_partition *ps;
    size_t n;
    if (sqe_hive_list_partitions(&ms->base, t, NULL, a, &ps, &n, &err)) {
        for (size_t i = 0; i < n; i++) {
            if (strncmp(ps[i].path, "/d/p/", 5) != 0)
                fuzz_fail("partition outside the location", ps[i].path);
            if (i > 0) {
                /* sorted by values, NULLs last */
                for (int k = 0; k < n_keys; k++) {
                    const sqe_value *x = &ps[i - 1].values[k], *y = &ps[i].values[k];
                    if (x->is_null != y->is_null) {
                        if (x->is_null)
                            fuzz_fail("NULL partition value sorted before a value", ps[i].path);
                        break;
                    }
                    if (x->is_null) continue;
                    int c = sqe_value_cmp(x, y);
                    if (c > 0) fuzz_fail("partitions not sorted by value", ps[i].path);
                    if (c < 0) break;
                }
            }
            sqe_hive_file *fs;
            size_t nf;
            if (!sqe_hive_list_files(&ms->base, ps[i].path, a, &fs, &nf, &err))
                fuzz_fail("listing the files of a partition", err.msg);
            for (size_t j = 0; j < nf; j++)
                if (fs[j].size == 0 || strncmp(fs[j].path, ps[i].path, strlen(ps[i].path)) != 0)
                    fuzz_fail("file listing returned an empty or foreign file", fs[j].path);
        }
        if (n > 0) {
            /* prune every key to the first partition's values */
            const sqe_value *eq[3];
            int n_eq[3];
            bool allow_null[3];
            for (int k = 0; k < n_keys; k++) {
                eq[k] = &ps[0].values[k];
                n_eq[k] = ps[0].values[k].is_null ? 0 : 1;
                allow_null[k] = ps[0].values[k].is_null;
            }
            prune_spec pr = {eq, n_eq, allow_null};
            check_pruned(ms, t, ps, n, &pr);
            /* key 0 only: the last partition's value or NULL */
            const sqe_value *eq0[3] = {&ps[n - 1].values[0], NULL, NULL};
            int n_eq0[3] = {ps[n - 1].values[0].is_null ? 0 : 1, 0, 0};
            bool allow0[3] = {true, false, false};
            prune_spec pr0 = {eq0, n_eq0, allow0};
            check_pruned(ms, t, ps, n, &pr0);
        }
    } else if (err.cls == SQE_OK || !err.msg[0]) {
        fuzz_fail("partition listing failed without an error", NULL);
    }
    sqe_arena_free(a);
    sqe_hive_table_free(t);
    sqe_hive_catalog_free(cat);
    sqe_strbuf_free(&ddl);
    return 0;
}
