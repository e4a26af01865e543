/*
 * infoschema.c - information_schema (SPEC §5.1) as constant relations.
 *
 * `root.information_schema.<t>` (or `information_schema.<t>` against the
 * current root) plans to a VALUES node whose rows are enumerated from the
 * root at plan time: schemata, tables (BASE TABLE vs VIEW), columns (data
 * columns, then partition keys, with Trino's column set) and views. A
 * manifest that does not load is left out with a WARN log line naming it
 * and the reason, so one bad table does not hide the rest of the catalog.
 * The filters of the query run over these rows as over any other input.
 */
#include "plan_int.h"

#include <string.h>

typedef struct col_def {
    const char *name;
    sqe_type_id type;
} col_def;

static const col_def k_schemata[] = {{"catalog_name", SQE_T_VARCHAR},
                                     {"schema_name", SQE_T_VARCHAR}};
static const col_def k_tables[] = {{"table_catalog", SQE_T_VARCHAR},
                                   {"table_schema", SQE_T_VARCHAR},
                                   {"table_name", SQE_T_VARCHAR},
                                   {"table_type", SQE_T_VARCHAR}};
static const col_def k_columns[] = {
    {"table_catalog", SQE_T_VARCHAR},   {"table_schema", SQE_T_VARCHAR},
    {"table_name", SQE_T_VARCHAR},      {"column_name", SQE_T_VARCHAR},
    {"ordinal_position", SQE_T_BIGINT}, {"column_default", SQE_T_VARCHAR},
    {"is_nullable", SQE_T_VARCHAR},     {"data_type", SQE_T_VARCHAR},
    {"comment", SQE_T_VARCHAR},         {"extra_info", SQE_T_VARCHAR}};
static const col_def k_views[] = {{"table_catalog", SQE_T_VARCHAR},
                                  {"table_schema", SQE_T_VARCHAR},
                                  {"table_name", SQE_T_VARCHAR},
                                  {"view_definition", SQE_T_VARCHAR}};

typedef struct info_table {
    const char *name;
    const col_def *cols;
    int n_cols;
} info_table;

static const info_table k_info[] = {
    {"columns", k_columns, (int)SQE_ARRAY_LEN(k_columns)},
    {"schemata", k_schemata, (int)SQE_ARRAY_LEN(k_schemata)},
    {"tables", k_tables, (int)SQE_ARRAY_LEN(k_tables)},
    {"views", k_views, (int)SQE_ARRAY_LEN(k_views)},
};

#define INFO_SCHEMA "information_schema"

typedef struct rows {
    sqe_arena *a;
    int width;
    SQE_ARRAY(sqe_value *) items;
} rows;

static sqe_value str(sqe_arena *a, const char *s) {
    if (!s) return sqe_value_null(sqe_type_make(SQE_T_VARCHAR));
    char *c = sqe_arena_strdup(a, s);
    return sqe_value_string(c, (uint32_t)strlen(c));
}

static sqe_value *row_new(rows *r) {
    sqe_value *v = sqe_arena_alloc(r->a, sizeof(sqe_value) * (size_t)r->width);
    SQE_ARRAY_PUSH(r->a, r->items, v);
    return v;
}

static void add_column_row(rows *r, const char *root, const char *db, const char *table, int pos,
                           const char *col, const char *type, const char *comment,
                           const char *extra) {
    sqe_value *v = row_new(r);
    v[0] = str(r->a, root);
    v[1] = str(r->a, db);
    v[2] = str(r->a, table);
    v[3] = str(r->a, col);
    v[4] = sqe_value_int(SQE_T_BIGINT, pos);
    v[5] = str(r->a, NULL);
    v[6] = str(r->a, "YES");
    v[7] = str(r->a, type);
    v[8] = str(r->a, comment);
    v[9] = str(r->a, extra);
}

/* The information_schema relations themselves, as Trino lists them. */
static void add_self(rows *r, const info_table *which, const char *root) {
    for (size_t i = 0; i < SQE_ARRAY_LEN(k_info); i++) {
        const info_table *it = &k_info[i];
        if (which->cols == k_tables) {
            sqe_value *v = row_new(r);
            v[0] = str(r->a, root);
            v[1] = str(r->a, INFO_SCHEMA);
            v[2] = str(r->a, it->name);
            v[3] = str(r->a, "BASE TABLE");
        } else if (which->cols == k_columns) {
            for (int c = 0; c < it->n_cols; c++) {
                char tb[32];
                add_column_row(r, root, INFO_SCHEMA, it->name, c + 1, it->cols[c].name,
                               sqe_type_sql_name(sqe_type_make(it->cols[c].type), tb, sizeof tb),
                               NULL, NULL);
            }
        }
    }
}

static bool enumerate(sqe_arena *a, sqe_hive_catalog *cat, const info_table *which,
                      const char *root, rows *r, sqe_error *err) {
    char **dbs;
    size_t n_dbs;
    if (!sqe_hive_list_databases(cat, root, a, &dbs, &n_dbs, err)) return false;
    if (which->cols == k_schemata) {
        for (size_t i = 0; i <= n_dbs; i++) {
            sqe_value *v = row_new(r);
            v[0] = str(a, root);
            v[1] = str(a, i < n_dbs ? dbs[i] : INFO_SCHEMA);
        }
        return true;
    }
    for (size_t d = 0; d < n_dbs; d++) {
        char **tables;
        size_t n_tables;
        if (!sqe_hive_list_tables(cat, root, dbs[d], a, &tables, &n_tables, err)) return false;
        for (size_t t = 0; t < n_tables; t++) {
            const char *parts[3] = {root, dbs[d], tables[t]};
            sqe_error lerr;
            sqe_hive_table *ht = sqe_hive_resolve_table(cat, 3, parts, &lerr);
            if (!ht) {
                sqe_log(SQE_LOG_WARN, "plan", "information_schema: leaving out %s.%s.%s: %s", root,
                        dbs[d], tables[t], lerr.msg);
                continue;
            }
            if (which->cols == k_tables) {
                sqe_value *v = row_new(r);
                v[0] = str(a, root);
                v[1] = str(a, dbs[d]);
                v[2] = str(a, tables[t]);
                v[3] = str(a, ht->is_view ? "VIEW" : "BASE TABLE");
            } else if (which->cols == k_views) {
                if (ht->is_view) {
                    sqe_value *v = row_new(r);
                    v[0] = str(a, root);
                    v[1] = str(a, dbs[d]);
                    v[2] = str(a, tables[t]);
                    v[3] = str(a, ht->view_original_text);
                }
            } else {
                int pos = 1;
                for (int c = 0; c < ht->n_cols + ht->n_part_keys; c++) {
                    bool key = c >= ht->n_cols;
                    const sqe_hive_column *hc = key ? &ht->part_keys[c - ht->n_cols] : &ht->cols[c];
                    char tb[64];
                    add_column_row(r, root, dbs[d], tables[t], pos++, hc->name,
                                   sqe_type_sql_name(hc->type, tb, sizeof tb), hc->comment,
                                   key ? "partition key" : NULL);
                }
            }
            sqe_hive_table_free(ht);
        }
    }
    add_self(r, which, root);
    return true;
}

bool sqe_plan_is_information_schema(int n_parts, const char *const *parts) {
    return (n_parts == 2 && sqe_str_ieq(parts[0], INFO_SCHEMA)) ||
           (n_parts == 3 && sqe_str_ieq(parts[1], INFO_SCHEMA));
}

sqe_plan *sqe_plan_information_schema(sqe_arena *a, sqe_hive_catalog *cat, int n_parts,
                                      const char *const *parts, sqe_pos pos, sqe_error *err) {
    const char *root =
        n_parts == 3 ? sqe_str_lower(sqe_arena_strdup(a, parts[0])) : sqe_hive_current_root(cat);
    if (!root) {
        sqe_bind_error(
            err, SQE_ERR_NOT_FOUND, pos,
            "information_schema needs a root: ATTACH one or use root.information_schema.%s",
            parts[n_parts - 1]);
        return NULL;
    }
    const char *tname = parts[n_parts - 1];
    const info_table *which = NULL;
    for (size_t i = 0; i < SQE_ARRAY_LEN(k_info); i++)
        if (sqe_str_ieq(tname, k_info[i].name)) which = &k_info[i];
    if (!which) {
        sqe_bind_error(err, SQE_ERR_NOT_FOUND, pos,
                       "table '%s.information_schema.%s' does not exist; information_schema has "
                       "columns, schemata, tables and views",
                       root, tname);
        return NULL;
    }
    rows r = {.a = a, .width = which->n_cols};
    if (!enumerate(a, cat, which, root, &r, err)) return NULL;
    sqe_plan *p = sqe_plan_unary_new(a, SQE_PLAN_VALUES, NULL, which->n_cols);
    for (int c = 0; c < which->n_cols; c++) {
        p->out_types[c] = sqe_type_make(which->cols[c].type);
        p->out_names[c] = which->cols[c].name;
    }
    p->u.values.n_rows = (int)r.items.len;
    p->u.values.rows = r.items.items;
    return p;
}
