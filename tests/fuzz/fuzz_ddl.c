/*
 * fuzz_ddl.c - CREATE TABLE (Hive/Athena DDL) on arbitrary bytes, and the
 * SHOW CREATE TABLE round trip.
 *
 * The input (NUL-terminated copy) is parsed; when it is a CREATE TABLE
 * statement it runs through sqe_hive_execute against a catalog whose root
 * "w" lives in a memory store. When the table is created, the harness
 * takes its manifest (the store's only object, /w/<db>/<t>.manifest.json),
 * renders SHOW CREATE TABLE, drops the table, runs the rendered DDL and
 * requires (abort() otherwise, a real bug):
 *   - the rendered DDL parses and CREATE accepts it;
 *   - it writes a manifest byte-identical to the first one, at the same path;
 *   - SHOW CREATE TABLE of the new table renders the same DDL;
 *   - DROP TABLE leaves the store empty.
 */
#include "fuzz_hive.h"

static char *fail_detail(const char *input, const char *ddl, const char *more) {
    return sqe_asprintf("-- input:\n%s\n-- rendered:\n%s\n-- %s", input, ddl ? ddl : "(none)",
                        more ? more : "");
}

static void drop(sqe_hive_catalog *cat, mem_store *ms, const char *qname) {
    char *sql = sqe_asprintf("DROP TABLE %s", qname);
    sqe_error err;
    sqe_error_clear(&err);
    if (!fuzz_exec(cat, sql, NULL, &err)) fuzz_fail("DROP TABLE of a created table fails", err.msg);
    if (ms->objs.len != 0) fuzz_fail("DROP TABLE left objects behind", sql);
    sqe_free(sql);
}

static void check_round_trip(sqe_hive_catalog *cat, mem_store *ms, const char *input) {
    mem_object *o = fuzz_only_object(ms);
    if (!o) fuzz_fail("CREATE TABLE wrote other than one object", input);
    /* /w/<db>/<t>.manifest.json: names are [a-z0-9_]+ */
    const char *p = o->path;
    if (strncmp(p, FUZZ_ROOT_URL "/", strlen(FUZZ_ROOT_URL "/")) != 0)
        fuzz_fail("manifest outside the root", p);
    p += strlen(FUZZ_ROOT_URL "/");
    const char *slash = strchr(p, '/');
    const char *suffix = strstr(p, ".manifest.json");
    if (!slash || !suffix || suffix < slash) fuzz_fail("manifest path shape", o->path);
    char *db = sqe_strndup(p, (size_t)(slash - p));
    char *tbl = sqe_strndup(slash + 1, (size_t)(suffix - slash - 1));
    char *qname =
        sqe_asprintf("\"" FUZZ_ROOT "\".\"%s\".\"%s\"", db, tbl); /* names may start with a digit */
    char *path = sqe_strdup(o->path);
    char *json1 = sqe_strndup(o->data, o->len);
    size_t json1_len = o->len;

    sqe_error err;
    sqe_error_clear(&err);
    char *ddl = fuzz_show_create(cat, qname, &err);
    if (!ddl)
        fuzz_fail("SHOW CREATE TABLE of a created table fails", fail_detail(input, NULL, err.msg));
    drop(cat, ms, qname);

    if (!fuzz_exec(cat, ddl, NULL, &err))
        fuzz_fail("rendered DDL does not parse or run", fail_detail(input, ddl, err.msg));
    o = fuzz_only_object(ms);
    if (!o || strcmp(o->path, path) != 0)
        fuzz_fail("rendered DDL creates another table",
                  fail_detail(input, ddl, o ? o->path : NULL));
    if (o->len != json1_len || memcmp(o->data, json1, json1_len) != 0) {
        char *json2 = sqe_strndup(o->data, o->len);
        char *more = sqe_asprintf("first manifest:\n%s\nsecond manifest:\n%s", json1, json2);
        fuzz_fail("rendered DDL creates a different manifest", fail_detail(input, ddl, more));
    }
    char *ddl2 = fuzz_show_create(cat, qname, &err);
    if (!ddl2 || strcmp(ddl, ddl2) != 0)
        fuzz_fail("SHOW CREATE TABLE differs after the round trip", fail_detail(input, ddl, ddl2));
    drop(cat, ms, qname);

    sqe_free(ddl2);
    sqe_free(ddl);
    sqe_free(json1);
    sqe_free(path);
    sqe_free(qname);
    sqe_free(tbl);
    sqe_free(db);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 64 * 1024) return 0;
    char *sql = fuzz_cstr(data, size);
    sqe_arena *a = sqe_arena_new(0);
    sqe_error err;
    sqe_error_clear(&err);
    sqe_ast_stmt *st = sqe_sql_parse(a, sql, &err);
    if (st && st->kind == SQE_STMT_CREATE_TABLE) {
        mem_store *ms;
        sqe_hive_catalog *cat = fuzz_catalog_new(&ms);
        sqe_resultset *rs = NULL;
        const char *status = NULL;
        sqe_strbuf notices;
        sqe_strbuf_init(&notices);
        if (sqe_hive_execute(cat, st, &rs, &status, &notices, &err)) {
            if (rs) fuzz_fail("CREATE TABLE returned rows", sql);
            if (ms->objs.len) check_round_trip(cat, ms, sql);
        } else if (err.cls == SQE_OK || !err.msg[0]) {
            fuzz_fail("CREATE TABLE failed without an error message", sql);
        } else if (ms->objs.len) {
            fuzz_fail("a failed CREATE TABLE wrote to the store", sql);
        }
        sqe_resultset_free(rs);
        sqe_strbuf_free(&notices);
        sqe_hive_catalog_free(cat);
    }
    sqe_arena_free(a);
    sqe_free(sql);
    return 0;
}
