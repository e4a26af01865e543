/*
 * fuzz_hive.h - helpers for the targets that drive the hive catalog
 * (fuzz_manifest, fuzz_ddl): a catalog with one root "w" at "/w" whose
 * store is a fresh memory store, statement execution through
 * sqe_hive_execute, and SHOW CREATE TABLE as a string.
 *
 * The root's store is swapped for the memory store through hive_int.h
 * (hive_root.store is opened lazily and owned by the catalog), so the code
 * under test is exactly the production path from the catalog down.
 */
#ifndef SQE_FUZZ_HIVE_H
#define SQE_FUZZ_HIVE_H

#include "fuzz_common.h"
#include "hive/hive_int.h"

#define FUZZ_ROOT "w"
#define FUZZ_ROOT_URL "/w"

/* A catalog with root "w" (current) over a new memory store. *ms is
 * borrowed: the catalog owns and frees it. */
static FUZZ_UNUSED sqe_hive_catalog *fuzz_catalog_new(mem_store **ms) {
    sqe_hive_catalog *cat = sqe_hive_catalog_new(NULL);
    sqe_error err;
    if (!sqe_hive_attach(cat, FUZZ_ROOT, FUZZ_ROOT_URL, NULL, &err)) fuzz_fail("attach", err.msg);
    *ms = mem_store_new();
    cat->roots.items[0].store = &(*ms)->base;
    return cat;
}

/* Parses and executes one catalog statement. On success *out (if out) gets
 * the result set (caller frees; NULL for status-only statements). A
 * statement that fails leaves a message in err. */
static FUZZ_UNUSED bool fuzz_exec(sqe_hive_catalog *cat, const char *sql, sqe_resultset **out,
                                  sqe_error *err) {
    if (out) *out = NULL;
    sqe_arena *a = sqe_arena_new(0);
    sqe_resultset *rs = NULL;
    const char *status = NULL;
    sqe_strbuf notices;
    sqe_strbuf_init(&notices);
    bool ok = false;
    sqe_ast_stmt *st = sqe_sql_parse(a, sql, err);
    if (st) ok = sqe_hive_execute(cat, st, &rs, &status, &notices, err);
    if (ok && !status) fuzz_fail("sqe_hive_execute succeeded without a status", sql);
    if (!ok && (err->cls == SQE_OK || !err->msg[0]))
        fuzz_fail("statement failed without an error message", sql);
    if (out)
        *out = rs;
    else
        sqe_resultset_free(rs);
    sqe_strbuf_free(&notices);
    sqe_arena_free(a);
    return ok;
}

/* Row 0, column 0 of a one-VARCHAR result as a malloc'd string. */
static FUZZ_UNUSED char *fuzz_result_text(const sqe_resultset *rs) {
    if (!rs || rs->n_rows != 1 || rs->batches.len < 1 || rs->n_cols != 1)
        fuzz_fail("SHOW CREATE TABLE: expected one row and one column", NULL);
    const sqe_batch *b = rs->batches.items[0];
    const sqe_vector *v = b->cols[0];
    if (v->type.id != SQE_T_VARCHAR || sqe_vector_is_null(v, 0))
        fuzz_fail("SHOW CREATE TABLE: not a VARCHAR value", NULL);
    const sqe_string *s = &SQE_VEC_DATA(v, sqe_string)[0];
    return sqe_strndup(sqe_string_data(s), s->len);
}

/* SHOW CREATE TABLE <qname> as a malloc'd string, or NULL with err. */
static FUZZ_UNUSED char *fuzz_show_create(sqe_hive_catalog *cat, const char *qname,
                                          sqe_error *err) {
    char *sql = sqe_asprintf("SHOW CREATE TABLE %s", qname);
    sqe_resultset *rs = NULL;
    char *text = NULL;
    if (fuzz_exec(cat, sql, &rs, err)) text = fuzz_result_text(rs);
    sqe_resultset_free(rs);
    sqe_free(sql);
    return text;
}

/* The only object of a memory store (a manifest), or NULL. */
static FUZZ_UNUSED mem_object *fuzz_only_object(mem_store *ms) {
    return ms->objs.len == 1 ? &ms->objs.items[0] : NULL;
}

#endif
