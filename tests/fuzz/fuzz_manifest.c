/*
 * fuzz_manifest.c - the manifest loader on arbitrary bytes.
 *
 * The input is stored as /w/db/t.manifest.json in a memory store behind a
 * catalog with root "w", and the table is resolved through the catalog
 * (sqe_hive_resolve_table: read, JSON parse, from_json, full validation,
 * hive_table_from_manifest). When it loads, the harness also asks for its
 * reader spec, SHOW CREATE TABLE, DESCRIBE and SHOW COLUMNS, and checks the
 * round trip SPEC §3.9 promises: the rendered DDL parses and CREATE accepts
 * it in a fresh catalog, and re-creating from that table's DDL renders the
 * same DDL again (the first re-creation may differ: a hand-written manifest
 * can hold Glue fields DDL cannot express, or lack serialization.format
 * that CREATE adds). Any break of that is abort().
 */
#include "fuzz_hive.h"

#define QNAME "w.db.t"

/* Runs `ddl` in a fresh catalog and returns SHOW CREATE TABLE of the result
 * (malloc'd); aborts when the DDL does not run. */
static char *recreate(const char *ddl, const char *what) {
    mem_store *ms;
    sqe_hive_catalog *cat = fuzz_catalog_new(&ms);
    sqe_error err;
    sqe_error_clear(&err);
    if (!fuzz_exec(cat, ddl, NULL, &err)) {
        char *detail = sqe_asprintf("%s\n-- error: %s", ddl, err.msg);
        fuzz_fail(what, detail);
    }
    char *again = fuzz_show_create(cat, QNAME, &err);
    if (!again) fuzz_fail("SHOW CREATE TABLE after re-creating fails", err.msg);
    sqe_hive_catalog_free(cat);
    return again;
}

/* A hand-written manifest may lack what CREATE adds (serialization.format,
 * EXTERNAL), so the first re-creation may render differently; from then on
 * the DDL must be a fixed point. */
static void round_trip(const char *ddl) {
    char *second = recreate(ddl, "SHOW CREATE TABLE of a loadable manifest does not run");
    char *third = recreate(second, "SHOW CREATE TABLE of a re-created table does not run");
    if (strcmp(second, third) != 0) {
        char *detail = sqe_asprintf("first:\n%s\nsecond:\n%s\nthird:\n%s", ddl, second, third);
        fuzz_fail("SHOW CREATE TABLE does not round-trip", detail);
    }
    sqe_free(third);
    sqe_free(second);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 256 * 1024) return 0;
    mem_store *ms;
    sqe_hive_catalog *cat = fuzz_catalog_new(&ms);
    sqe_error err;
    sqe_error_clear(&err);
    mem_put(&ms->base, FUZZ_ROOT_URL "/db/t.manifest.json", data, size, &err);

    static const char *const parts[3] = {FUZZ_ROOT, "db", "t"};
    sqe_hive_table *t = sqe_hive_resolve_table(cat, 3, parts, &err);
    if (!t) {
        if (err.cls == SQE_OK || !err.msg[0]) fuzz_fail("resolve failed without an error", NULL);
        sqe_hive_catalog_free(cat);
        return 0;
    }
    if (sqe_hive_check_readable(t, &err)) {
        sqe_reader_spec spec;
        memset(&spec, 0, sizeof spec);
        sqe_hive_reader_spec(t, &spec);
        if (spec.n_table_cols != t->n_cols) fuzz_fail("reader spec column count", NULL);
        for (int i = 0; i < spec.n_table_cols; i++)
            if (!spec.col_names[i] || strcmp(spec.col_names[i], t->cols[i].name) != 0)
                fuzz_fail("reader spec column names", NULL);
    }

    sqe_resultset *rs = NULL;
    if (!fuzz_exec(cat, "DESCRIBE " QNAME, &rs, &err))
        fuzz_fail("DESCRIBE of a loadable table", err.msg);
    sqe_resultset_free(rs);
    if (!fuzz_exec(cat, "SHOW COLUMNS IN " QNAME, &rs, &err)) fuzz_fail("SHOW COLUMNS", err.msg);
    sqe_resultset_free(rs);

    char *ddl = fuzz_show_create(cat, QNAME, &err);
    if (ddl) {
        round_trip(ddl);
        sqe_free(ddl);
    } else if (!t->is_view) {
        fuzz_fail("SHOW CREATE TABLE of a loadable table fails", err.msg);
    }
    sqe_hive_table_free(t);
    sqe_hive_catalog_free(cat);
    return 0;
}
