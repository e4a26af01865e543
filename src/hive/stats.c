/*
 * stats.c - the sqe.statistics slot of a manifest (SPEC §8): writing what
 * ANALYZE computed, reading it for the planner, SHOW STATS FOR t and
 * DESCRIBE FORMATTED.
 *
 * The slot sits next to the Glue fields in the manifest document (SPEC
 * §2.2), so a rewrite by any other statement keeps it:
 *
 *   "sqe.statistics": {
 *     "version": 1,
 *     "row_count": 4,
 *     "columns": {"id": {"null_count": 1, "distinct_count": 3,
 *                        "min": "1", "max": "9"}, ...},
 *     "partitions": [{"values": ["2024-01-01", null], "row_count": 2,
 *                     "columns": {...}}, ...]
 *   }
 *
 * Values (min, max, partition values) are text as sqe renders them. A
 * column with no orderable type, or whose min/max text is longer than
 * HIVE_STATS_MAX_TEXT, has no min/max (a truncated max would not be an
 * upper bound). Statistics only steer plans, never answers, so a slot that
 * is malformed (hand-edited) reads as absent for the planner and as NULLs
 * in SHOW STATS; it never fails a query.
 *
 * Writes go through hive_manifest_update (compare-and-swap on the stored
 * object, retried), so ANALYZE racing an ALTER/MSCK loses nothing. A
 * manifest that would outgrow manifest_max_bytes with per-partition
 * statistics is written without them (the caller says so in a notice).
 */
#include "hive/hive_int.h"

#include <math.h>
#include <string.h>

#define HIVE_STATS_MAX_TEXT 256

/* ------------------------------------------------------------ writing */

static json_t *st_col_json(const sqe_hive_col_stats *c) {
    json_t *o = json_object();
    json_object_set_new(o, "null_count", json_integer((json_int_t)c->nulls));
    if (c->has_distinct)
        json_object_set_new(o, "distinct_count", json_integer((json_int_t)c->distinct));
    if (c->min && strlen(c->min) <= HIVE_STATS_MAX_TEXT && c->max &&
        strlen(c->max) <= HIVE_STATS_MAX_TEXT) {
        json_object_set_new(o, "min", json_string(c->min));
        json_object_set_new(o, "max", json_string(c->max));
    }
    return o;
}

static json_t *st_cols_json(const sqe_hive_col_stats *cols, int n) {
    json_t *o = json_object();
    for (int i = 0; i < n; i++) json_object_set_new(o, cols[i].name, st_col_json(&cols[i]));
    return o;
}

/* The new slot; with parts false the per-partition array is left out. */
static json_t *st_slot_json(const sqe_hive_stats *s, int n_keys, bool parts) {
    json_t *slot = json_object();
    json_object_set_new(slot, "version", json_integer(1));
    json_object_set_new(slot, "row_count", json_integer((json_int_t)s->rows));
    json_object_set_new(slot, "columns", st_cols_json(s->cols, s->n_cols));
    if (!parts || n_keys == 0) return slot;
    json_t *arr = json_array();
    for (size_t i = 0; i < s->n_parts; i++) {
        const sqe_hive_stats_part *p = &s->parts[i];
        json_t *po = json_object(), *vals = json_array();
        for (int k = 0; k < n_keys; k++)
            json_array_append_new(vals, p->values[k] ? json_string(p->values[k]) : json_null());
        json_object_set_new(po, "values", vals);
        json_object_set_new(po, "row_count", json_integer((json_int_t)p->rows));
        json_object_set_new(po, "columns", st_cols_json(p->cols, s->n_cols));
        json_array_append_new(arr, po);
    }
    json_object_set_new(slot, "partitions", arr);
    return slot;
}

typedef struct st_write {
    const sqe_hive_stats *stats;
    bool parts;
} st_write;

static bool st_mutate(hive_manifest *m, void *ctx, sqe_error *err) {
    st_write *w = ctx;
    (void)err;
    json_t *slot = st_slot_json(w->stats, m->n_part_keys, w->parts);
    json_t *old = m->extra ? json_object_get(m->extra, HIVE_STATS_SLOT) : NULL;
    json_t *old_cols = json_is_object(old) ? json_object_get(old, "columns") : NULL;
    if (w->stats->merge && json_is_object(old_cols)) {
        /* FOR COLUMNS: keep what the last ANALYZE found for the others
         * that still exist */
        json_t *cols = json_object_get(slot, "columns");
        const char *k;
        json_t *v;
        json_object_foreach(old_cols, k, v) {
            bool exists = false;
            for (int i = 0; i < m->n_cols && !exists; i++) exists = strcmp(m->cols[i].name, k) == 0;
            for (int i = 0; i < m->n_part_keys && !exists; i++)
                exists = strcmp(m->part_keys[i].name, k) == 0;
            if (exists && !json_object_get(cols, k)) json_object_set(cols, k, v);
        }
    }
    if (!m->extra) m->extra = json_object();
    json_object_set_new(m->extra, HIVE_STATS_SLOT, slot);
    return true;
}

bool sqe_hive_store_statistics(sqe_hive_catalog *cat, const sqe_hive_table *t,
                               const sqe_hive_stats *stats, bool *dropped_parts, sqe_error *err) {
    *dropped_parts = false;
    hive_root *r = hive_find_root(cat, t->root);
    if (!r)
        return sqe_error_set(err, SQE_ERR_NOT_FOUND, "root '%s' is no longer attached", t->root);
    sqe_store *store = hive_root_store(r, err);
    if (!store) return false;
    st_write w = {stats, stats->n_parts > 0};
    sqe_error e1;
    sqe_error_clear(&e1);
    if (hive_manifest_update(store, t->manifest_path, t->name, &cat->limits, st_mutate, &w, &e1))
        return true;
    if (!w.parts || e1.cls != SQE_ERR_RESOURCE_EXHAUSTED) {
        *err = e1;
        return false;
    }
    w.parts = false;
    *dropped_parts = true;
    return hive_manifest_update(store, t->manifest_path, t->name, &cat->limits, st_mutate, &w, err);
}

/* ------------------------------------------------------------ reading */

static const json_t *st_slot(const hive_manifest *m) {
    json_t *slot = m->extra ? json_object_get(m->extra, HIVE_STATS_SLOT) : NULL;
    if (!json_is_object(slot)) return NULL;
    json_t *rc = json_object_get(slot, "row_count");
    if (!json_is_integer(rc) || json_integer_value(rc) < 0) return NULL;
    return slot;
}

void hive_stats_to_table(const hive_manifest *m, sqe_hive_table *t) {
    const json_t *slot = st_slot(m);
    if (!slot) return;
    t->has_stats = true;
    t->stat_rows = (uint64_t)json_integer_value(json_object_get(slot, "row_count"));
}

/* "%.17g" without trailing noise for the doubles SHOW STATS prints. */
static void st_num(char *buf, size_t n, double v) {
    snprintf(buf, n, "%.17g", v);
}

/* Trino shows low/high values for numbers, dates and timestamps only. */
static bool st_shows_range(sqe_type t) {
    return t.id != SQE_T_VARCHAR && t.id != SQE_T_BOOLEAN && t.id != SQE_T_VARBINARY;
}

static void st_column_row(sqe_resultset *rs, const sqe_hive_column *col, const json_t *cols,
                          double rows) {
    const char *name = col->name;
    const json_t *c = json_is_object(cols) ? json_object_get(cols, name) : NULL;
    char dv[40], nf[40];
    const char *row[7] = {name, NULL, NULL, NULL, NULL, NULL, NULL};
    if (json_is_object(c)) {
        json_t *d = json_object_get(c, "distinct_count"), *nc = json_object_get(c, "null_count");
        json_t *lo = json_object_get(c, "min"), *hi = json_object_get(c, "max");
        if (json_is_integer(d)) {
            st_num(dv, sizeof dv, (double)json_integer_value(d));
            row[2] = dv;
        }
        if (json_is_integer(nc) && rows > 0) {
            st_num(nf, sizeof nf, (double)json_integer_value(nc) / rows);
            row[3] = nf;
        } else if (json_is_integer(nc)) {
            row[3] = "0";
        }
        if (json_is_string(lo) && json_is_string(hi) && st_shows_range(col->type)) {
            row[5] = json_string_value(lo);
            row[6] = json_string_value(hi);
        }
    }
    sqe_resultset_add_text_row(rs, row);
}

sqe_resultset *hive_show_stats(const hive_manifest *m) {
    static const char *const names[] = {"column_name",    "data_size", "distinct_values_count",
                                        "nulls_fraction", "row_count", "low_value",
                                        "high_value"};
    sqe_type types[7];
    for (int i = 0; i < 7; i++) types[i] = sqe_type_make(SQE_T_DOUBLE);
    types[0] = types[5] = types[6] = sqe_type_make(SQE_T_VARCHAR);
    sqe_resultset *rs = sqe_resultset_new(7, names, types);
    const json_t *slot = st_slot(m);
    const json_t *cols = slot ? json_object_get(slot, "columns") : NULL;
    double rows = slot ? (double)json_integer_value(json_object_get(slot, "row_count")) : 0;
    for (int i = 0; i < m->n_cols; i++) st_column_row(rs, &m->cols[i], cols, rows);
    for (int i = 0; i < m->n_part_keys; i++) st_column_row(rs, &m->part_keys[i], cols, rows);
    char rc[40];
    const char *last[7] = {NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    if (slot) {
        st_num(rc, sizeof rc, rows);
        last[4] = rc;
    }
    sqe_resultset_add_text_row(rs, last);
    return rs;
}

void hive_describe_stats(sqe_resultset *rs, const hive_manifest *m) {
    const json_t *slot = st_slot(m);
    if (!slot) return;
    const char *sep[4] = {"", "", "", ""};
    sqe_resultset_add_text_row(rs, sep);
    const char *head[4] = {"# Statistics", "", "", ""};
    sqe_resultset_add_text_row(rs, head);
    char buf[64];
    snprintf(buf, sizeof buf, "%lld",
             (long long)json_integer_value(json_object_get(slot, "row_count")));
    json_t *parts = json_object_get(slot, "partitions");
    char pbuf[64] = "";
    if (json_is_array(parts)) snprintf(pbuf, sizeof pbuf, "%zu partitions", json_array_size(parts));
    const char *rows[4] = {"numRows", buf, pbuf, ""};
    sqe_resultset_add_text_row(rs, rows);
    json_t *cols = json_object_get(slot, "columns");
    const char *k;
    json_t *v;
    if (!json_is_object(cols)) return;
    json_object_foreach(cols, k, v) {
        if (!json_is_object(v)) continue;
        sqe_strbuf sb;
        sqe_strbuf_init(&sb);
        json_t *nc = json_object_get(v, "null_count"), *d = json_object_get(v, "distinct_count");
        json_t *lo = json_object_get(v, "min"), *hi = json_object_get(v, "max");
        if (json_is_integer(nc))
            sqe_strbuf_printf(&sb, "nulls=%lld", (long long)json_integer_value(nc));
        if (json_is_integer(d))
            sqe_strbuf_printf(&sb, "%sdistinct=%lld", sb.len ? ", " : "",
                              (long long)json_integer_value(d));
        if (json_is_string(lo) && json_is_string(hi))
            sqe_strbuf_printf(&sb, "%smin=%s, max=%s", sb.len ? ", " : "", json_string_value(lo),
                              json_string_value(hi));
        const char *row[4] = {k, sb.data ? sb.data : "", "column statistics", ""};
        sqe_resultset_add_text_row(rs, row);
        sqe_strbuf_free(&sb);
    }
}
