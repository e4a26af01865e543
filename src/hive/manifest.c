/*
 * manifest.c - the table manifest: Glue TableInput-shaped JSON <-> the
 * in-memory hive_manifest, and the validation both CREATE and every load
 * run (SPEC §2.2, §2.3, §3.3-§3.7).
 *
 * Where it sits: catalog.c loads a manifest on every table resolution
 * (no cache yet) and writes one on CREATE; ddl.c builds a hive_manifest
 * from the AST and calls hive_manifest_validate before the write, so a
 * manifest on disk has passed the same checks a load applies.
 *
 * The document:
 *   { "sqe_manifest_version": 1, "Name": "orders", "Description": "...",
 *     "TableType": "EXTERNAL_TABLE", "Parameters": { ..., "EXTERNAL": "TRUE" },
 *     "PartitionKeys": [ {"Name","Type","Comment"} ],
 *     "StorageDescriptor": { "Columns": [...], "Location": "...",
 *        "InputFormat": "...", "OutputFormat": "...",
 *        "SerdeInfo": { "SerializationLibrary": "...", "Parameters": {...} } },
 *     "sqe.partition_index": ..., "sqe.statistics": ... }
 * Types are stored in Hive spelling. Keys outside the Glue TableInput
 * shape (and the two sqe slots) are errors naming the key. Glue fields sqe
 * ignores (Owner, Retention, Compressed, ...) are accepted, checked where
 * they would change answers (bucketing, skew), and kept on a rewrite.
 *
 * Invariant: a hive_manifest that passed hive_manifest_validate has a
 * readable-or-recorded format, an allow-listed SerDe whose properties are all
 * known, and `format`/`text` derived from them.
 */
#include "hive/hive_int.h"
#include "io/io.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------ kv lists */

void hive_kv_list_free(hive_kv_list *l) {
    for (size_t i = 0; i < l->len; i++) {
        sqe_free(l->items[i].key);
        sqe_free(l->items[i].value);
    }
    SQE_ARRAY_FREE(*l);
}

void hive_kv_list_add(hive_kv_list *l, const char *key, const char *value) {
    hive_kv kv = {sqe_strdup(key), sqe_strdup(value)};
    SQE_ARRAY_PUSH(NULL, *l, kv);
}

const char *hive_kv_get(const hive_kv_list *l, const char *key) {
    for (size_t i = 0; i < l->len; i++)
        if (strcmp(l->items[i].key, key) == 0) return l->items[i].value;
    return NULL;
}

static void free_columns(sqe_hive_column *cols, int n) {
    for (int i = 0; i < n; i++) {
        sqe_free(cols[i].name);
        sqe_free(cols[i].comment);
    }
    sqe_free(cols);
}

void hive_manifest_free(hive_manifest *m) {
    if (!m) return;
    sqe_free(m->name);
    sqe_free(m->description);
    hive_kv_list_free(&m->params);
    free_columns(m->cols, m->n_cols);
    free_columns(m->part_keys, m->n_part_keys);
    sqe_free(m->location);
    sqe_free(m->input_format);
    sqe_free(m->output_format);
    sqe_free(m->serde_class);
    hive_kv_list_free(&m->serde_params);
    sqe_free(m->view_original_text);
    sqe_free(m->view_expanded_text);
    if (m->extra) json_decref(m->extra);
    memset(m, 0, sizeof *m);
}

/* ------------------------------------------------------------ formats */

#define PARQUET_SERDE "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe"
#define ORC_SERDE "org.apache.hadoop.hive.ql.io.orc.OrcSerde"
#define AVRO_SERDE "org.apache.hadoop.hive.serde2.avro.AvroSerDe"
#define LBC_SERDE "org.apache.hadoop.hive.serde2.columnar.LazyBinaryColumnarSerDe"
#define HCAT_JSON_SERDE "org.apache.hive.hcatalog.data.JsonSerDe"

const hive_format_info hive_formats[] = {
    {"TEXTFILE", SQE_FORMAT_TEXT, HIVE_TEXT_INPUT, HIVE_TEXT_OUTPUT, HIVE_LAZY_SIMPLE_SERDE},
    {"SEQUENCEFILE", SQE_FORMAT_SEQUENCEFILE, "org.apache.hadoop.mapred.SequenceFileInputFormat",
     "org.apache.hadoop.hive.ql.io.HiveSequenceFileOutputFormat", HIVE_LAZY_SIMPLE_SERDE},
    {"ORC", SQE_FORMAT_ORC, "org.apache.hadoop.hive.ql.io.orc.OrcInputFormat",
     "org.apache.hadoop.hive.ql.io.orc.OrcOutputFormat", ORC_SERDE},
    {"PARQUET", SQE_FORMAT_PARQUET, "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat",
     "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat", PARQUET_SERDE},
    {"AVRO", SQE_FORMAT_AVRO, "org.apache.hadoop.hive.ql.io.avro.AvroContainerInputFormat",
     "org.apache.hadoop.hive.ql.io.avro.AvroContainerOutputFormat", AVRO_SERDE},
    {"RCFILE", SQE_FORMAT_RCFILE, "org.apache.hadoop.hive.ql.io.RCFileInputFormat",
     "org.apache.hadoop.hive.ql.io.RCFileOutputFormat", LBC_SERDE},
    {"JSONFILE", SQE_FORMAT_JSON, HIVE_TEXT_INPUT, HIVE_TEXT_OUTPUT, HCAT_JSON_SERDE},
};
const size_t hive_n_formats = SQE_ARRAY_LEN(hive_formats);

static const hive_serde_info k_serdes[] = {
    {HIVE_SERDE_LAZY_SIMPLE, HIVE_LAZY_SIMPLE_SERDE, "TEXTFILE"},
    {HIVE_SERDE_OPEN_CSV, HIVE_OPEN_CSV_SERDE, "TEXTFILE"},
    {HIVE_SERDE_OPENX_JSON, "org.openx.data.jsonserde.JsonSerDe", "TEXTFILE"},
    {HIVE_SERDE_HCAT_JSON, HCAT_JSON_SERDE, "TEXTFILE"},
    {HIVE_SERDE_PARQUET, PARQUET_SERDE, "PARQUET"},
    {HIVE_SERDE_REGEX, HIVE_REGEX_SERDE, "TEXTFILE"},
    {HIVE_SERDE_ORC, ORC_SERDE, "ORC"},
    {HIVE_SERDE_AVRO, AVRO_SERDE, "AVRO"},
    {HIVE_SERDE_COLUMNAR, "org.apache.hadoop.hive.serde2.columnar.ColumnarSerDe", "RCFILE"},
    {HIVE_SERDE_LAZY_BINARY_COLUMNAR, LBC_SERDE, "RCFILE"},
};

const hive_format_info *hive_format_by_name(const char *stored_as) {
    for (size_t i = 0; i < hive_n_formats; i++)
        if (sqe_str_ieq(hive_formats[i].stored_as, stored_as)) return &hive_formats[i];
    return NULL;
}

const hive_format_info *hive_format_by_input(const char *input_class) {
    if (!input_class) return NULL;
    for (size_t i = 0; i < hive_n_formats; i++)
        if (strcmp(hive_formats[i].input_format, input_class) == 0) return &hive_formats[i];
    return NULL;
}

const hive_serde_info *hive_serde_by_class(const char *cls) {
    if (!cls) return NULL;
    for (size_t i = 0; i < SQE_ARRAY_LEN(k_serdes); i++)
        if (strcmp(k_serdes[i].cls, cls) == 0) return &k_serdes[i];
    return NULL;
}

const char *hive_serde_allow_list_text(void) {
    return "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe, "
           "org.apache.hadoop.hive.serde2.OpenCSVSerde, org.openx.data.jsonserde.JsonSerDe, "
           "org.apache.hive.hcatalog.data.JsonSerDe, "
           "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe, "
           "org.apache.hadoop.hive.serde2.RegexSerDe (and, recorded but not readable, OrcSerde, "
           "AvroSerDe, ColumnarSerDe, LazyBinaryColumnarSerDe)";
}

static bool serde_is_json(const hive_serde_info *s) {
    return s->id == HIVE_SERDE_OPENX_JSON || s->id == HIVE_SERDE_HCAT_JSON;
}

bool hive_serde_fits_format(const hive_serde_info *s, const hive_format_info *fmt) {
    if (strcmp(fmt->stored_as, "JSONFILE") == 0) return serde_is_json(s);
    if (strcmp(s->family, "TEXTFILE") == 0)
        return strcmp(fmt->stored_as, "TEXTFILE") == 0 ||
               strcmp(fmt->stored_as, "SEQUENCEFILE") == 0;
    return strcmp(s->family, fmt->stored_as) == 0;
}

const hive_format_info *hive_serde_natural_format(const hive_serde_info *s) {
    return hive_format_by_name(s->family);
}

/* ------------------------------------------------------------ errors */

/* A validation failure. Load path (mpath set): "manifest '<p>': <field>:
 * <body>"; CREATE path: "<what>: <body>" (or just body when what is NULL). */
static bool vfail(sqe_error *err, const char *mpath, const char *field, const char *what,
                  const char *fmt, ...) SQE_PRINTF(5, 6);
static bool vfail(sqe_error *err, const char *mpath, const char *field, const char *what,
                  const char *fmt, ...) {
    char body[SQE_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    if (mpath)
        return sqe_error_set(err, SQE_ERR_HIVE_EXTERNAL, "manifest '%s': %s: %s", mpath, field,
                             body);
    if (what) return sqe_error_set(err, SQE_ERR_HIVE_EXTERNAL, "%s: %s", what, body);
    return sqe_error_set(err, SQE_ERR_HIVE_EXTERNAL, "%s", body);
}

/* A value as it would appear in DDL (control bytes escaped), for messages. */
static const char *shown(const char *v, char *buf, size_t n) {
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    hive_render_literal(&sb, v);
    snprintf(buf, n, "%s", sb.data ? sb.data : "");
    sqe_strbuf_free(&sb);
    return buf;
}

static bool is_bool_text(const char *v) {
    return sqe_str_ieq(v, "true") || sqe_str_ieq(v, "false");
}

/* ------------------------------------------------------------ columns */

static bool column_name_ok(const char *s, const char **why) {
    if (!s[0]) {
        *why = "is empty";
        return false;
    }
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '`') {
            *why = "contains a backquote";
            return false;
        }
        if (*p < 0x20 || *p == 0x7F) {
            *why = "contains a control character";
            return false;
        }
    }
    if (!hive_utf8_valid(s, strlen(s))) {
        *why = "is not valid UTF-8";
        return false;
    }
    /* Hive's limit (COLUMNS_V2.COLUMN_NAME is varchar(767)), as CREATE
     * checks it in ddl.c: a hand-written manifest gets the same answer */
    size_t chars = 0;
    for (const char *c = s; *c; c++) chars += ((unsigned char)*c & 0xC0) != 0x80;
    _Static_assert(HIVE_COLUMN_NAME_MAX == 767, "update the message below");
    if (chars > HIVE_COLUMN_NAME_MAX) {
        *why = "is longer than the limit of 767 characters (Hive's)";
        return false;
    }
    return true;
}

static bool part_key_type_ok(sqe_type t) {
    if (t.id == SQE_T_VARCHAR) return t.str_kind != SQE_STRKIND_CHAR;
    return t.id == SQE_T_INTEGER || t.id == SQE_T_BIGINT || t.id == SQE_T_DATE;
}

static bool check_columns(const hive_manifest *m, const sqe_hive_limits *lim, const char *mpath,
                          sqe_error *err) {
    if (m->n_cols == 0 && !m->is_view)
        return vfail(err, mpath, "StorageDescriptor.Columns", NULL,
                     "a table needs at least one column");
    if (m->n_cols > lim->manifest_max_columns)
        return vfail(err, mpath, "StorageDescriptor.Columns", NULL,
                     "table has %d columns, more than manifest_max_columns (%d)", m->n_cols,
                     lim->manifest_max_columns);
    if (m->n_part_keys > lim->manifest_max_partition_keys)
        return vfail(err, mpath, "PartitionKeys", NULL,
                     "table has %d partition keys, more than manifest_max_partition_keys (%d)",
                     m->n_part_keys, lim->manifest_max_partition_keys);
    char field[128];
    sqe_strmap *seen = sqe_strmap_new();
    bool ok = true;
    for (int i = 0; ok && i < m->n_cols; i++) {
        const char *why;
        snprintf(field, sizeof field, "StorageDescriptor.Columns[%d].Name", i);
        if (!column_name_ok(m->cols[i].name, &why))
            ok = vfail(err, mpath, field, NULL, "column name '%s' %s", m->cols[i].name, why);
        else if (sqe_strmap_has(seen, m->cols[i].name))
            ok = vfail(err, mpath, field, NULL, "duplicate column name '%s'", m->cols[i].name);
        else
            sqe_strmap_put(seen, m->cols[i].name, NULL);
    }
    for (int i = 0; ok && i < m->n_part_keys; i++) {
        const sqe_hive_column *k = &m->part_keys[i];
        const char *why;
        snprintf(field, sizeof field, "PartitionKeys[%d]", i);
        if (!column_name_ok(k->name, &why)) {
            ok = vfail(err, mpath, field, NULL, "partition key name '%s' %s", k->name, why);
        } else if (strpbrk(k->name, "/=%")) {
            ok =
                vfail(err, mpath, field, NULL,
                      "partition key name '%s' contains '/', '=' or '%%', which cannot appear in a "
                      "partition folder name",
                      k->name);
        } else if (sqe_strmap_has(seen, k->name)) {
            bool in_cols = false;
            for (int j = 0; j < m->n_cols; j++)
                if (strcmp(m->cols[j].name, k->name) == 0) in_cols = true;
            if (in_cols)
                ok = vfail(err, mpath, field, NULL,
                           "partition column '%s' also appears in the column list", k->name);
            else
                ok = vfail(err, mpath, field, NULL, "duplicate partition key '%s'", k->name);
        } else if (!part_key_type_ok(k->type)) {
            char tb[64];
            ok = vfail(
                err, mpath, field, NULL,
                "partition key '%s' has type %s: partition keys must be string, varchar, int, "
                "bigint or date",
                k->name, sqe_type_hive_name(k->type, tb, sizeof tb));
        } else {
            sqe_strmap_put(seen, k->name, NULL);
        }
    }
    sqe_strmap_free(seen);
    return ok;
}

/* ------------------------------------------------------------ SerDe keys */

static bool check_delim_value(const char *v, bool numeric_rule, const char *mpath,
                              const char *field, const char *what, unsigned char *out,
                              sqe_error *err) {
    char why[256], buf[128];
    if (hive_delim_byte(v, numeric_rule, out, why, sizeof why)) return true;
    return vfail(err, mpath, field, what, "delimiter '%s' %s", shown(v, buf, sizeof buf), why);
}

static bool check_bool_prop(const char *clause, const char *k, const char *v, const char *mpath,
                            const char *field, sqe_error *err) {
    char buf[128];
    if (is_bool_text(v)) return true;
    return vfail(err, mpath, field, NULL, "%s '%s'='%s': expected true or false", clause, k,
                 shown(v, buf, sizeof buf));
}

static bool unknown_serde_key(const char *k, const hive_serde_info *sd, const char *known,
                              const char *mpath, const char *field, sqe_error *err) {
    return vfail(err, mpath, field, NULL, "unknown SERDEPROPERTIES key '%s' for %s; known keys: %s",
                 k, sd->cls, known);
}

static const char *const k_lazy_keys_text =
    "field.delim, escape.delim, line.delim, serialization.format, serialization.null.format, "
    "collection.delim, colelction.delim, mapkey.delim, serialization.encoding, timestamp.formats";

/* True when `key` is a property the table's SerDe reads. Hive and Trino
 * (so Athena) hand a SerDe its SERDEPROPERTIES overlaid with the table's
 * TBLPROPERTIES, so such a key in TBLPROPERTIES changes how the table
 * reads ('serialization.null.format'='' is a common Athena idiom) and must
 * be honoured, or rejected, never ignored. Recorded-only SerDes: none. */
static bool is_serde_key(const hive_serde_info *sd, const char *k) {
    static const char *const lazy[] = {"field.delim",
                                       "escape.delim",
                                       "line.delim",
                                       "serialization.format",
                                       "serialization.null.format",
                                       "collection.delim",
                                       "colelction.delim",
                                       "mapkey.delim",
                                       "serialization.encoding",
                                       "timestamp.formats"};
    static const char *const csv[] = {"separatorChar", "quoteChar", "escapeChar"};
    static const char *const openx[] = {"ignore.malformed.json", "case.insensitive", "dots.in.keys",
                                        "paths"};
    static const char *const hcat[] = {"timestamp.formats", "paths"};
    static const char *const parquet[] = {"parquet.column.index.access"};
    static const char *const regex[] = {"input.regex", "input.regex.case.insensitive",
                                        "output.format.string"};
    const char *const *keys = NULL;
    size_t n = 0;
    switch (sd->id) {
    case HIVE_SERDE_LAZY_SIMPLE:
        keys = lazy, n = SQE_ARRAY_LEN(lazy);
        break;
    case HIVE_SERDE_OPEN_CSV:
        keys = csv, n = SQE_ARRAY_LEN(csv);
        break;
    case HIVE_SERDE_OPENX_JSON:
        if (sqe_str_starts_with(k, "mapping.")) return true;
        keys = openx, n = SQE_ARRAY_LEN(openx);
        break;
    case HIVE_SERDE_HCAT_JSON:
        keys = hcat, n = SQE_ARRAY_LEN(hcat);
        break;
    case HIVE_SERDE_PARQUET:
        keys = parquet, n = SQE_ARRAY_LEN(parquet);
        break;
    case HIVE_SERDE_REGEX:
        keys = regex, n = SQE_ARRAY_LEN(regex);
        break;
    default:
        return false;
    }
    for (size_t i = 0; i < n; i++)
        if (strcmp(keys[i], k) == 0) return true;
    return false;
}

/* The SerDe properties a reader sees: SerdeInfo.Parameters overlaid with
 * the table Parameters that are keys of this SerDe (see is_serde_key).
 * Entries [0, *n_serde) come from SerdeInfo, the rest from Parameters. The
 * list borrows the manifest's strings: free it with SQE_ARRAY_FREE only. */
static void effective_serde_params(const hive_manifest *m, const hive_serde_info *sd,
                                   hive_kv_list *out, size_t *n_serde) {
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < m->serde_params.len; i++) {
        const hive_kv *kv = &m->serde_params.items[i];
        const char *tv = hive_kv_get(&m->params, kv->key);
        if (tv && is_serde_key(sd, kv->key)) continue; /* the table's value wins */
        SQE_ARRAY_PUSH(NULL, *out, *kv);
    }
    *n_serde = out->len;
    for (size_t i = 0; i < m->params.len; i++)
        if (is_serde_key(sd, m->params.items[i].key))
            SQE_ARRAY_PUSH(NULL, *out, m->params.items[i]);
}

static bool check_serde_params(const hive_kv_list *l, size_t n_serde, const hive_serde_info *sd,
                               const char *mpath, sqe_error *err) {
    char field[320], what[320], buf[128];
    bool has_field_delim = hive_kv_get(l, "field.delim") != NULL;
    for (size_t i = 0; i < l->len; i++) {
        const char *k = l->items[i].key, *v = l->items[i].value;
        bool from_table = i >= n_serde;
        const char *clause = from_table ? "TBLPROPERTIES" : "SERDEPROPERTIES";
        unsigned char byte;
        snprintf(field, sizeof field, "%s.%s",
                 from_table ? "Parameters" : "StorageDescriptor.SerdeInfo.Parameters", k);
        snprintf(what, sizeof what, "%s '%s'", clause, k);
        if (strcmp(k, "serialization.format") == 0) {
            /* LazySimpleSerDe falls back to it for the field delimiter. */
            if (sd->id == HIVE_SERDE_LAZY_SIMPLE && !has_field_delim &&
                !check_delim_value(v, true, mpath, field, what, &byte, err))
                return false;
            continue;
        }
        switch (sd->id) {
        case HIVE_SERDE_LAZY_SIMPLE:
            if (!strcmp(k, "field.delim") || !strcmp(k, "escape.delim") ||
                !strcmp(k, "collection.delim") || !strcmp(k, "colelction.delim") ||
                !strcmp(k, "mapkey.delim")) {
                if (!check_delim_value(v, true, mpath, field, what, &byte, err)) return false;
            } else if (!strcmp(k, "line.delim")) {
                if (!check_delim_value(v, true, mpath, field, what, &byte, err)) return false;
                if (byte != '\n')
                    return vfail(
                        err, mpath, field, NULL,
                        "line.delim '%s' is not supported: Hive only supports '\\n' as the line "
                        "terminator",
                        shown(v, buf, sizeof buf));
            } else if (!strcmp(k, "serialization.null.format")) {
                /* any string */
            } else if (!strcmp(k, "serialization.encoding")) {
                if (!sqe_str_ieq(v, "UTF-8") && !sqe_str_ieq(v, "utf8"))
                    return vfail(err, mpath, field, NULL,
                                 "%s 'serialization.encoding'='%s' is not supported: sqe "
                                 "reads text as UTF-8",
                                 clause, shown(v, buf, sizeof buf));
            } else if (!strcmp(k, "timestamp.formats")) {
                return vfail(err, mpath, field, NULL,
                             "%s 'timestamp.formats' is not supported yet: sqe does not "
                             "implement custom timestamp formats (values must be yyyy-MM-dd "
                             "HH:mm:ss[.fffffffff])",
                             clause);
            } else {
                return unknown_serde_key(k, sd, k_lazy_keys_text, mpath, field, err);
            }
            break;
        case HIVE_SERDE_OPEN_CSV:
            if (!strcmp(k, "separatorChar") || !strcmp(k, "quoteChar") ||
                !strcmp(k, "escapeChar")) {
                if (!check_delim_value(v, false, mpath, field, what, &byte, err)) return false;
            } else {
                return unknown_serde_key(k, sd, "separatorChar, quoteChar, escapeChar", mpath,
                                         field, err);
            }
            break;
        case HIVE_SERDE_OPENX_JSON:
            if (!strcmp(k, "ignore.malformed.json") || !strcmp(k, "case.insensitive")) {
                if (!check_bool_prop(clause, k, v, mpath, field, err)) return false;
            } else if (!strcmp(k, "dots.in.keys")) {
                if (!check_bool_prop(clause, k, v, mpath, field, err)) return false;
            } else if (sqe_str_starts_with(k, "mapping.")) {
                if (!k[8] || !v[0])
                    return vfail(err, mpath, field, NULL,
                                 "%s '%s'='%s': a JSON key mapping needs a column name after "
                                 "'mapping.' and a non-empty JSON key",
                                 clause, k, shown(v, buf, sizeof buf));
            } else if (!strcmp(k, "paths")) {
                /* a column list hint; nothing to do */
            } else {
                return unknown_serde_key(k, sd,
                                         "ignore.malformed.json, case.insensitive, dots.in.keys, "
                                         "mapping.<column>, paths",
                                         mpath, field, err);
            }
            break;
        case HIVE_SERDE_HCAT_JSON:
            if (!strcmp(k, "timestamp.formats"))
                return vfail(err, mpath, field, NULL,
                             "%s 'timestamp.formats' is not supported yet: sqe does not "
                             "implement custom timestamp formats",
                             clause);
            if (strcmp(k, "paths") != 0)
                return unknown_serde_key(k, sd, "timestamp.formats, paths", mpath, field, err);
            break;
        case HIVE_SERDE_PARQUET:
            if (!strcmp(k, "parquet.column.index.access")) {
                if (!check_bool_prop(clause, k, v, mpath, field, err)) return false;
                if (sqe_str_ieq(v, "true"))
                    return vfail(err, mpath, field, NULL,
                                 "%s 'parquet.column.index.access'='true' (binding Parquet "
                                 "columns by position) is not supported: sqe binds Parquet "
                                 "columns by name",
                                 clause);
            } else {
                return unknown_serde_key(k, sd, "parquet.column.index.access", mpath, field, err);
            }
            break;
        case HIVE_SERDE_REGEX:
            if (!strcmp(k, "input.regex")) {
                if (!v[0])
                    return vfail(err, mpath, field, NULL, "%s 'input.regex' is empty", clause);
            } else if (!strcmp(k, "input.regex.case.insensitive")) {
                if (!check_bool_prop(clause, k, v, mpath, field, err)) return false;
            } else if (strcmp(k, "output.format.string") != 0) {
                return unknown_serde_key(
                    k, sd, "input.regex, input.regex.case.insensitive, output.format.string", mpath,
                    field, err);
            }
            break;
        default:
            /* recorded-only SerDes (ORC, Avro, RCFile): kept verbatim, never read */
            break;
        }
    }
    if (sd->id == HIVE_SERDE_REGEX && !hive_kv_get(l, "input.regex"))
        return vfail(err, mpath, "StorageDescriptor.SerdeInfo.Parameters", NULL,
                     "RegexSerDe requires SERDEPROPERTIES 'input.regex'");
    return true;
}

/* ------------------------------------------------------------ TBLPROPERTIES */

static bool parse_count(const char *v, uint32_t *out) {
    if (!v[0]) return false;
    while (v[0] == '0' && v[1]) v++; /* leading zeros do not count toward the 9 digits */
    if (strlen(v) > 9) return false;
    uint32_t n = 0;
    for (const char *p = v; *p; p++) {
        if (*p < '0' || *p > '9') return false;
        n = n * 10 + (uint32_t)(*p - '0');
    }
    *out = n;
    return true;
}

/* A projection type word: case-insensitive, leading and trailing white
 * space allowed (as Athena documents). */
static bool projection_type_is(const char *v, const char *word) {
    while (*v == ' ' || *v == '\t') v++;
    size_t n = strlen(word);
    if (!sqe_str_ieqn(v, word, n)) return false;
    for (v += n; *v; v++)
        if (*v != ' ' && *v != '\t') return false;
    return true;
}

static const char *const k_projection_props[] = {"interval.unit", "type",   "values", "range",
                                                 "interval",      "digits", "format"};

static bool check_tblprops(hive_manifest *m, const char *mpath, sqe_error *err) {
    char field[320], buf[128];
    bool projection_on = false;
    for (size_t i = 0; i < m->params.len; i++) {
        const char *k = m->params.items[i].key, *v = m->params.items[i].value;
        snprintf(field, sizeof field, "Parameters.%s", k);
        uint32_t n;
        if (!strcmp(k, "skip.header.line.count") || !strcmp(k, "skip.footer.line.count")) {
            if (!parse_count(v, &n)) {
                if (v[0] && strspn(v, "0123456789") == strlen(v))
                    return vfail(err, mpath, field, NULL,
                                 "invalid %s '%s': too large (at most 999999999 lines)", k,
                                 shown(v, buf, sizeof buf));
                return vfail(err, mpath, field, NULL, "invalid %s '%s': expected an integer >= 0",
                             k, shown(v, buf, sizeof buf));
            }
        } else if (!strcmp(k, "has_encrypted_data")) {
            if (sqe_str_ieq(v, "true"))
                return vfail(
                    err, mpath, field, NULL,
                    "has_encrypted_data=true (client-side encrypted data) is not supported");
        } else if (!strcmp(k, "EXTERNAL")) {
            if (!sqe_str_ieq(v, "TRUE"))
                return vfail(
                    err, mpath, field, NULL,
                    "TBLPROPERTIES 'EXTERNAL'='%s' contradicts an external table: sqe only "
                    "registers external tables",
                    shown(v, buf, sizeof buf));
        } else if (sqe_str_starts_with(k, "sqe.")) {
            if (strcmp(k, "sqe.secret") != 0)
                return vfail(
                    err, mpath, field, NULL,
                    "unknown TBLPROPERTIES key '%s': the only sqe.* property is sqe.secret", k);
        } else if (!strcmp(k, "projection.enabled")) {
            if (!is_bool_text(v))
                return vfail(err, mpath, field, NULL,
                             "invalid projection.enabled '%s': expected true or false",
                             shown(v, buf, sizeof buf));
            projection_on = sqe_str_ieq(v, "true");
        } else if (sqe_str_starts_with(k, "projection.")) {
            const char *rest = k + strlen("projection.");
            const char *prop = NULL;
            size_t col_len = 0;
            for (size_t j = 0; j < SQE_ARRAY_LEN(k_projection_props); j++) {
                size_t pl = strlen(k_projection_props[j]), rl = strlen(rest);
                if (rl > pl + 1 && rest[rl - pl - 1] == '.' &&
                    strcmp(rest + rl - pl, k_projection_props[j]) == 0) {
                    prop = k_projection_props[j];
                    col_len = rl - pl - 1;
                    break;
                }
            }
            if (!prop)
                return vfail(
                    err, mpath, field, NULL,
                    "unknown TBLPROPERTIES key '%s': expected projection.enabled or "
                    "projection.<partition key>.{type, values, range, interval, digits, format, "
                    "interval.unit}",
                    k);
            int key_idx = -1;
            for (int j = 0; j < m->n_part_keys; j++)
                if (strlen(m->part_keys[j].name) == col_len &&
                    sqe_str_ieqn(m->part_keys[j].name, rest, col_len))
                    key_idx = j;
            if (key_idx < 0)
                return vfail(err, mpath, field, NULL,
                             "TBLPROPERTIES '%s': '%.*s' is not a partition key", k, (int)col_len,
                             rest);
            if (!strcmp(prop, "type")) {
                if (!projection_type_is(v, "enum") && !projection_type_is(v, "integer") &&
                    !projection_type_is(v, "date") && !projection_type_is(v, "injected"))
                    return vfail(err, mpath, field, NULL,
                                 "invalid %s '%s': expected enum, integer, date or injected", k,
                                 shown(v, buf, sizeof buf));
            } else if (!strcmp(prop, "digits") || !strcmp(prop, "interval")) {
                if (!parse_count(v, &n) || n == 0)
                    return vfail(err, mpath, field, NULL,
                                 "invalid %s '%s': expected an integer >= 1", k,
                                 shown(v, buf, sizeof buf));
            } else if (!strcmp(prop, "interval.unit")) {
                static const char *const units[] = {"YEARS", "MONTHS",  "WEEKS",  "DAYS",
                                                    "HOURS", "MINUTES", "SECONDS"};
                bool ok = false;
                for (size_t j = 0; j < SQE_ARRAY_LEN(units); j++)
                    if (sqe_str_ieq(v, units[j])) ok = true;
                if (!ok)
                    return vfail(
                        err, mpath, field, NULL,
                        "invalid %s '%s': expected YEARS, MONTHS, WEEKS, DAYS, HOURS, MINUTES or "
                        "SECONDS",
                        k, shown(v, buf, sizeof buf));
            } else if (!strcmp(prop, "range")) {
                if (!strchr(v, ','))
                    return vfail(err, mpath, field, NULL,
                                 "invalid %s '%s': expected '<start>,<end>'", k,
                                 shown(v, buf, sizeof buf));
            } else if (!v[0]) {
                return vfail(err, mpath, field, NULL, "invalid %s: the value is empty", k);
            }
        }
        /* storage.location.template and every other key: kept verbatim */
    }
    if (projection_on) {
        for (int j = 0; j < m->n_part_keys; j++) {
            const char *name = m->part_keys[j].name;
            char key[300];
            snprintf(key, sizeof key, "projection.%s.type", name);
            const char *type = NULL;
            for (size_t i = 0; i < m->params.len; i++)
                if (sqe_str_ieq(m->params.items[i].key, key)) type = m->params.items[i].value;
            if (!type)
                return vfail(
                    err, mpath, "Parameters", NULL,
                    "projection.enabled is true but partition key '%s' has no projection.%s.type",
                    name, name);
            const char *need =
                projection_type_is(type, "enum") ? "values"
                : (projection_type_is(type, "integer") || projection_type_is(type, "date"))
                    ? "range"
                    : NULL;
            for (int pass = 0; pass < 2 && need; pass++) {
                snprintf(key, sizeof key, "projection.%s.%s", name, need);
                bool found = false;
                for (size_t i = 0; i < m->params.len; i++)
                    if (sqe_str_ieq(m->params.items[i].key, key)) found = true;
                if (!found)
                    return vfail(
                        err, mpath, "Parameters", NULL,
                        "projection of type %s for partition key '%s' needs TBLPROPERTIES '%s'",
                        type, name, key);
                need = (pass == 0 && projection_type_is(type, "date")) ? "format" : NULL;
            }
        }
        /* the values: ranges, formats, units, enum values, the template */
        hive_projection *pj = NULL;
        if (!hive_projection_build(m, mpath, &pj, err)) return false;
        hive_projection_free(pj);
    }
    return true;
}

/* ------------------------------------------------------------ storage */

static void derive_text(hive_manifest *m, const hive_serde_info *sd, const hive_kv_list *sp) {
    sqe_text_options *t = &m->text;
    memset(t, 0, sizeof *t);
    t->line_delim = '\n';
    char why[200];
    unsigned char b;
    if (sd->id == HIVE_SERDE_OPEN_CSV) {
        t->serde = SQE_SERDE_OPEN_CSV;
        t->field_delim = ',';
        t->quote_char = '"';
        t->escape_char = '\\';
        const char *v;
        if ((v = hive_kv_get(sp, "separatorChar")) &&
            hive_delim_byte(v, false, &b, why, sizeof why))
            t->field_delim = (char)b;
        if ((v = hive_kv_get(sp, "quoteChar")) && hive_delim_byte(v, false, &b, why, sizeof why))
            t->quote_char = (char)b;
        if ((v = hive_kv_get(sp, "escapeChar")) && hive_delim_byte(v, false, &b, why, sizeof why))
            t->escape_char = (char)b;
        t->null_format = NULL;
    } else {
        t->serde = SQE_SERDE_LAZY_SIMPLE;
        t->field_delim = '\001';
        const char *v = hive_kv_get(sp, "field.delim");
        if (!v) v = hive_kv_get(sp, "serialization.format");
        if (v && hive_delim_byte(v, true, &b, why, sizeof why)) t->field_delim = (char)b;
        if ((v = hive_kv_get(sp, "escape.delim")) && hive_delim_byte(v, true, &b, why, sizeof why))
            t->escape_char = (char)b;
        v = hive_kv_get(sp, "serialization.null.format");
        t->null_format = v ? v : "\\N";
    }
    uint32_t n;
    const char *v;
    if ((v = hive_kv_get(&m->params, "skip.header.line.count")) && parse_count(v, &n))
        t->skip_header_lines = n;
    if ((v = hive_kv_get(&m->params, "skip.footer.line.count")) && parse_count(v, &n))
        t->skip_footer_lines = n;
}

/* OpenX mapping.<col>: <col> must be a data column of the table (a typo
 * would otherwise silently read NULLs). */
static bool check_json_mappings(const hive_manifest *m, const hive_kv_list *eff, const char *mpath,
                                sqe_error *err) {
    for (size_t i = 0; i < eff->len; i++) {
        const char *k = eff->items[i].key;
        if (!sqe_str_starts_with(k, "mapping.")) continue;
        bool found = false;
        for (int c = 0; c < m->n_cols && !found; c++) found = sqe_str_ieq(m->cols[c].name, k + 8);
        if (!found)
            return vfail(err, mpath, "StorageDescriptor.SerdeInfo.Parameters", NULL,
                         "SERDEPROPERTIES '%s': the table has no data column '%s' to map a JSON "
                         "key to",
                         k, k + 8);
    }
    return true;
}

bool hive_manifest_validate(hive_manifest *m, const sqe_hive_limits *lim, const char *mpath,
                            sqe_error *err) {
    if (!check_columns(m, lim, mpath, err)) return false;
    if (!check_tblprops(m, mpath, err)) return false;
    if (m->is_view) return true;
    if (!m->location || !m->location[0])
        return vfail(err, mpath, "StorageDescriptor.Location", NULL,
                     "LOCATION is required: sqe never chooses a data path for an external table");
    if (!sqe_io_check_url(m->location, err)) {
        if (mpath) sqe_error_prefix(err, "manifest '%s': StorageDescriptor.Location: ", mpath);
        return false;
    }
    const hive_serde_info *sd = hive_serde_by_class(m->serde_class);
    if (!sd)
        return vfail(err, mpath, "StorageDescriptor.SerdeInfo.SerializationLibrary", NULL,
                     "unsupported SerDe '%s': supported SerDes are %s",
                     m->serde_class ? m->serde_class : "", hive_serde_allow_list_text());
    const hive_format_info *fmt = hive_format_by_input(m->input_format);
    if (!fmt)
        return vfail(
            err, mpath, "StorageDescriptor.InputFormat", NULL,
            "unsupported INPUTFORMAT '%s': custom or table-format readers are not supported "
            "(reading it as text would split files into the wrong rows)",
            m->input_format ? m->input_format : "");
    if (!m->output_format || !m->output_format[0])
        return vfail(err, mpath, "StorageDescriptor.OutputFormat", NULL, "OUTPUTFORMAT is missing");
    if (!hive_serde_fits_format(sd, fmt))
        return vfail(err, mpath, "StorageDescriptor.SerdeInfo.SerializationLibrary", NULL,
                     "SerDe '%s' does not match INPUTFORMAT '%s' (%s storage, whose SerDe is %s)",
                     sd->cls, m->input_format, fmt->stored_as, fmt->serde);
    /* Every SERDEPROPERTIES value is checked, also one that a TBLPROPERTIES
     * key overrides: it stays in the manifest and in SHOW CREATE TABLE, and
     * CREATE rejects it, so a load must too. Then what the reader sees. */
    if (!check_serde_params(&m->serde_params, m->serde_params.len, sd, mpath, err)) return false;
    hive_kv_list eff;
    size_t n_serde;
    effective_serde_params(m, sd, &eff, &n_serde);
    bool ok = check_serde_params(&eff, n_serde, sd, mpath, err) &&
              check_json_mappings(m, &eff, mpath, err);
    if (ok) {
        if (fmt->kind == SQE_FORMAT_TEXT || fmt->kind == SQE_FORMAT_JSON)
            m->format = serde_is_json(sd) ? SQE_FORMAT_JSON : SQE_FORMAT_TEXT;
        else
            m->format = fmt->kind;
        derive_text(m, sd, &eff);
    }
    SQE_ARRAY_FREE(eff); /* borrowed strings: only the array is ours */
    return ok;
}

/* ------------------------------------------------------------ to JSON */

static json_t *kv_object(const hive_kv_list *l) {
    json_t *o = json_object();
    for (size_t i = 0; i < l->len; i++)
        json_object_set_new(o, l->items[i].key, json_string(l->items[i].value));
    return o;
}

static json_t *columns_array(const sqe_hive_column *cols, int n) {
    json_t *a = json_array();
    for (int i = 0; i < n; i++) {
        char tb[64];
        json_t *c = json_object();
        json_object_set_new(c, "Name", json_string(cols[i].name));
        json_object_set_new(c, "Type",
                            json_string(sqe_type_hive_name(cols[i].type, tb, sizeof tb)));
        if (cols[i].comment) json_object_set_new(c, "Comment", json_string(cols[i].comment));
        json_array_append_new(a, c);
    }
    return a;
}

/* Copies the keys of `from` that hive_manifest does not model (engine
 * slots, Glue fields sqe ignores) into `to`, so a rewrite keeps them; a
 * modeled key the struct dropped stays dropped. */
static void merge_unmodeled(json_t *to, json_t *from, const char *const *modeled,
                            size_t n_modeled) {
    const char *k;
    json_t *v;
    json_object_foreach(from, k, v) {
        bool skip = false;
        for (size_t i = 0; i < n_modeled; i++)
            if (strcmp(k, modeled[i]) == 0) skip = true;
        if (!skip && !json_object_get(to, k)) json_object_set(to, k, v);
    }
}

json_t *hive_manifest_to_json(const hive_manifest *m) {
    json_t *root = json_object();
    json_object_set_new(root, "sqe_manifest_version", json_integer(1));
    json_object_set_new(root, "Name", json_string(m->name));
    if (m->description) json_object_set_new(root, "Description", json_string(m->description));
    json_object_set_new(root, "TableType",
                        json_string(m->is_view ? "VIRTUAL_VIEW" : "EXTERNAL_TABLE"));
    json_object_set_new(root, "Parameters", kv_object(&m->params));
    json_object_set_new(root, "PartitionKeys", columns_array(m->part_keys, m->n_part_keys));
    json_t *sd = json_object();
    json_object_set_new(sd, "Columns", columns_array(m->cols, m->n_cols));
    if (m->location) json_object_set_new(sd, "Location", json_string(m->location));
    if (m->input_format) json_object_set_new(sd, "InputFormat", json_string(m->input_format));
    if (m->output_format) json_object_set_new(sd, "OutputFormat", json_string(m->output_format));
    if (m->serde_class || m->serde_params.len) {
        json_t *si = json_object();
        if (m->serde_class)
            json_object_set_new(si, "SerializationLibrary", json_string(m->serde_class));
        json_object_set_new(si, "Parameters", kv_object(&m->serde_params));
        json_object_set_new(sd, "SerdeInfo", si);
    }
    json_object_set_new(root, "StorageDescriptor", sd);
    if (m->view_original_text)
        json_object_set_new(root, "ViewOriginalText", json_string(m->view_original_text));
    if (m->view_expanded_text)
        json_object_set_new(root, "ViewExpandedText", json_string(m->view_expanded_text));
    if (m->extra) {
        static const char *const top[] = {
            "sqe_manifest_version", "Name",          "Description",       "TableType",
            "Parameters",           "PartitionKeys", "StorageDescriptor", "ViewOriginalText",
            "ViewExpandedText"};
        static const char *const sdk[] = {"Columns", "Location", "InputFormat", "OutputFormat",
                                          "SerdeInfo"};
        static const char *const sik[] = {"SerializationLibrary", "Parameters"};
        json_t *xsd = json_object_get(m->extra, "StorageDescriptor");
        if (json_is_object(xsd)) {
            json_t *xsi = json_object_get(xsd, "SerdeInfo"), *si = json_object_get(sd, "SerdeInfo");
            if (json_is_object(xsi) && si) merge_unmodeled(si, xsi, sik, SQE_ARRAY_LEN(sik));
            merge_unmodeled(sd, xsd, sdk, SQE_ARRAY_LEN(sdk));
        }
        merge_unmodeled(root, m->extra, top, SQE_ARRAY_LEN(top));
    }
    return root;
}

/* The manifest's bytes as written (pretty JSON + newline), refused when
 * larger than manifest_max_bytes: it could never be loaded again. */
static bool manifest_bytes(const hive_manifest *m, const sqe_hive_limits *lim, const char *path,
                           char **out, size_t *out_len, sqe_error *err) {
    json_t *doc = hive_manifest_to_json(m);
    char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(doc);
    if (!text) return sqe_error_set(err, SQE_ERR_INTERNAL, "cannot serialise manifest '%s'", path);
    size_t len = strlen(text);
    if (len + 1 > lim->manifest_max_bytes) {
        free(text);
        return sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED,
                             "the manifest of this table would be %zu bytes, more than "
                             "manifest_max_bytes (%zu bytes), so it could never be loaded; "
                             "shorten the comments or properties, or use fewer columns",
                             len + 1, lim->manifest_max_bytes);
    }
    char *data = sqe_malloc(len + 2);
    memcpy(data, text, len);
    data[len++] = '\n';
    free(text);
    *out = data;
    *out_len = len;
    return true;
}

bool hive_manifest_store(sqe_store *store, const char *path, const hive_manifest *m,
                         const sqe_hive_limits *lim, bool create, sqe_error *err) {
    char *data;
    size_t len;
    if (!manifest_bytes(m, lim, path, &data, &len, err)) return false;
    bool ok = create ? store->vt->put_if_absent(store, path, data, len, err)
                     : store->vt->put(store, path, data, len, err);
    sqe_free(data);
    return ok;
}

/* ------------------------------------------------ read-modify-write
 *
 * hive_manifest_update is an optimistic loop: version token, load, mutate,
 * validate, conditional replace. The token is taken before the bytes are
 * read, so the bytes are at least as new as the token and the replace can
 * only succeed if nobody wrote in between. A lost race (ALREADY_EXISTS from
 * put_if_match, or a read refused because the object changed under it)
 * sleeps a random while (0..2^attempt ms, so racing writers spread out) and
 * starts over; after UPDATE_ATTEMPTS tries the statement fails with a
 * conflict error naming the table. Nothing is written on any failure. */

#define UPDATE_ATTEMPTS 8

static void update_backoff(int attempt) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    uint64_t x = (uint64_t)now.tv_nsec * 0x9E3779B97F4A7C15ull ^ (uint64_t)(uintptr_t)&now;
    x ^= x >> 29;
    long max_us = 1000L << (attempt < 7 ? attempt : 7); /* 1 ms .. 128 ms */
    long us = 200 + (long)(x % (uint64_t)max_us);
    struct timespec d = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&d, NULL);
}

/* Did the object change since `token` was taken? (false when unsure) */
static bool update_changed(sqe_store *store, const char *path, const char *token) {
    char now[SQE_IO_VERSION_MAX];
    sqe_error ignore;
    return sqe_io_version(store, path, now, sizeof now, &ignore) && strcmp(now, token) != 0;
}

/* One cycle. *lost: the write (or read) lost a race; worth another try. */
static bool update_once(sqe_store *store, const char *path, const char *expect_name,
                        const sqe_hive_limits *lim, hive_manifest_mutate_fn mutate, void *ctx,
                        bool *lost, sqe_error *err) {
    *lost = false;
    char token[SQE_IO_VERSION_MAX];
    if (!sqe_io_version(store, path, token, sizeof token, err)) return false;
    hive_manifest m;
    if (!hive_manifest_load(store, path, expect_name, lim, &m, err)) {
        *lost = update_changed(store, path, token);
        return false;
    }
    char *data = NULL;
    size_t len = 0;
    bool ok = mutate(&m, ctx, err) && hive_manifest_validate(&m, lim, path, err) &&
              manifest_bytes(&m, lim, path, &data, &len, err);
    hive_manifest_free(&m);
    if (!ok) return false;
    ok = sqe_io_put_if_match(store, path, data, len, token, err);
    sqe_free(data);
    if (!ok && err && err->cls == SQE_ERR_ALREADY_EXISTS) *lost = true;
    return ok;
}

bool hive_manifest_update(sqe_store *store, const char *path, const char *expect_name,
                          const sqe_hive_limits *lim, hive_manifest_mutate_fn mutate, void *ctx,
                          sqe_error *err) {
    sqe_error e;
    for (int attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
        bool lost;
        sqe_error_clear(&e);
        if (update_once(store, path, expect_name, lim, mutate, ctx, &lost, &e)) return true;
        if (!lost) {
            if (err) *err = e;
            return false;
        }
        update_backoff(attempt);
    }
    return sqe_error_set(err, SQE_ERR_ALREADY_EXISTS,
                         "manifest of table '%s' changed concurrently (%d attempts lost the race "
                         "to other writers); retry the statement",
                         expect_name, UPDATE_ATTEMPTS);
}

/* ------------------------------------------------------------ from JSON */

typedef struct jctx {
    const char *path;
    sqe_error *err;
} jctx;

static bool jfail(jctx *c, const char *field, const char *fmt, ...) SQE_PRINTF(3, 4);
static bool jfail(jctx *c, const char *field, const char *fmt, ...) {
    char body[SQE_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    return sqe_error_set(c->err, SQE_ERR_HIVE_EXTERNAL, "manifest '%s': %s: %s", c->path, field,
                         body);
}

static const char *json_kind(const json_t *v) {
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
        return "an integer";
    case JSON_REAL:
        return "a number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "a boolean";
    default:
        return "null";
    }
}

/* Optional string member -> malloc'd copy (NULL when absent). */
static bool get_str(jctx *c, json_t *obj, const char *key, const char *field, bool required,
                    char **out) {
    *out = NULL;
    json_t *v = json_object_get(obj, key);
    if (!v) return required ? jfail(c, field, "missing (expected a string)") : true;
    if (!json_is_string(v)) return jfail(c, field, "expected a string, found %s", json_kind(v));
    *out = sqe_strndup(json_string_value(v), json_string_length(v));
    return true;
}

static bool check_keys(jctx *c, json_t *obj, const char *where, const char *const *known,
                       size_t n_known) {
    const char *k;
    json_t *v;
    json_object_foreach(obj, k, v) {
        bool ok = false;
        for (size_t i = 0; i < n_known; i++)
            if (strcmp(k, known[i]) == 0) ok = true;
        if (!ok) {
            char field[300];
            snprintf(field, sizeof field, "%s%s%s", where, where[0] ? "." : "", k);
            return jfail(c, field, "unknown key '%s'", k);
        }
    }
    return true;
}

static bool get_kv(jctx *c, json_t *obj, const char *field, hive_kv_list *out) {
    if (!obj) return true;
    if (!json_is_object(obj))
        return jfail(c, field, "expected an object, found %s", json_kind(obj));
    const char *k;
    json_t *v;
    json_object_foreach(obj, k, v) {
        if (!json_is_string(v)) {
            char f[300];
            snprintf(f, sizeof f, "%s.%s", field, k);
            return jfail(c, f, "expected a string, found %s", json_kind(v));
        }
        hive_kv_list_add(out, k, json_string_value(v));
    }
    return true;
}

static bool type_is_nested(const char *t) {
    while (*t == ' ') t++;
    return sqe_str_ieqn(t, "array", 5) || sqe_str_ieqn(t, "map", 3) ||
           sqe_str_ieqn(t, "struct", 6) || sqe_str_ieqn(t, "uniontype", 9);
}

static bool get_columns(jctx *c, json_t *arr, const char *where, sqe_hive_column **out,
                        int *n_out) {
    *out = NULL;
    *n_out = 0;
    if (!arr) return true;
    if (!json_is_array(arr)) return jfail(c, where, "expected an array, found %s", json_kind(arr));
    size_t n = json_array_size(arr);
    if (n > 1000000) return jfail(c, where, "too many entries");
    sqe_hive_column *cols = sqe_calloc(n ? n : 1, sizeof *cols);
    static const char *const known[] = {"Name", "Type", "Comment", "Parameters"};
    char field[200];
    size_t i;
    bool ok = true;
    for (i = 0; ok && i < n; i++) {
        json_t *col = json_array_get(arr, i);
        snprintf(field, sizeof field, "%s[%zu]", where, i);
        if (!json_is_object(col)) {
            ok = jfail(c, field, "expected an object, found %s", json_kind(col));
            break;
        }
        if (!check_keys(c, col, field, known, SQE_ARRAY_LEN(known))) {
            ok = false;
            break;
        }
        char f2[240], *type_text = NULL;
        snprintf(f2, sizeof f2, "%s.Name", field);
        if (!get_str(c, col, "Name", f2, true, &cols[i].name)) {
            ok = false;
            break;
        }
        sqe_str_lower(cols[i].name);
        snprintf(f2, sizeof f2, "%s.Comment", field);
        if (!get_str(c, col, "Comment", f2, false, &cols[i].comment)) {
            ok = false;
            break;
        }
        snprintf(f2, sizeof f2, "%s.Type", field);
        if (!get_str(c, col, "Type", f2, true, &type_text)) {
            ok = false;
            break;
        }
        if (type_is_nested(type_text)) {
            ok = jfail(
                c, f2,
                "column '%s' has type %s: nested types (array, map, struct) are not supported yet",
                cols[i].name, type_text);
        } else {
            sqe_error terr;
            sqe_error_clear(&terr);
            if (!sqe_type_parse(type_text, &cols[i].type, &terr)) ok = jfail(c, f2, "%s", terr.msg);
        }
        sqe_free(type_text);
        json_t *params = json_object_get(col, "Parameters");
        if (ok && params && !json_is_object(params))
            ok = jfail(c, field, "Parameters: expected an object, found %s", json_kind(params));
    }
    if (!ok) {
        free_columns(cols, (int)(i < n ? i + 1 : n));
        return false;
    }
    *out = cols;
    *n_out = (int)n;
    return true;
}

static bool array_nonempty(json_t *v) {
    return json_is_array(v) && json_array_size(v) > 0;
}

static bool from_json(jctx *c, json_t *root, const char *expect_name, hive_manifest *m) {
    static const char *const top_known[] = {"sqe_manifest_version",
                                            "Name",
                                            "Description",
                                            "Owner",
                                            "LastAccessTime",
                                            "LastAnalyzedTime",
                                            "Retention",
                                            "StorageDescriptor",
                                            "PartitionKeys",
                                            "ViewOriginalText",
                                            "ViewExpandedText",
                                            "TableType",
                                            "Parameters",
                                            "TargetTable",
                                            "ViewDefinition",
                                            "sqe.partition_index",
                                            "sqe.statistics"};
    static const char *const sd_known[] = {"Columns",
                                           "Location",
                                           "AdditionalLocations",
                                           "InputFormat",
                                           "OutputFormat",
                                           "Compressed",
                                           "NumberOfBuckets",
                                           "SerdeInfo",
                                           "BucketColumns",
                                           "SortColumns",
                                           "Parameters",
                                           "SkewedInfo",
                                           "StoredAsSubDirectories",
                                           "SchemaReference"};
    static const char *const si_known[] = {"Name", "SerializationLibrary", "Parameters"};

    if (!json_is_object(root))
        return jfail(c, "(document)", "expected a JSON object, found %s", json_kind(root));
    if (!check_keys(c, root, "", top_known, SQE_ARRAY_LEN(top_known))) return false;
    json_t *ver = json_object_get(root, "sqe_manifest_version");
    if (!ver) return jfail(c, "sqe_manifest_version", "missing (expected 1)");
    if (!json_is_integer(ver) || json_integer_value(ver) != 1) {
        char *s = json_dumps(ver, JSON_ENCODE_ANY);
        bool r = jfail(c, "sqe_manifest_version",
                       "expected 1, found %s (this sqe reads version 1 only)", s ? s : "?");
        free(s);
        return r;
    }
    if (!get_str(c, root, "Name", "Name", true, &m->name)) return false;
    if (strcmp(m->name, expect_name) != 0)
        return jfail(c, "Name", "'%s' does not match the file name '%s.manifest.json'", m->name,
                     expect_name);
    if (!get_str(c, root, "Description", "Description", false, &m->description)) return false;
    if (json_object_get(root, "TargetTable"))
        return jfail(c, "TargetTable", "resource links (TargetTable) are not supported");
    if (json_object_get(root, "ViewDefinition"))
        return jfail(c, "ViewDefinition", "ViewDefinition (multi-dialect views) is not supported");
    char *tt = NULL;
    if (!get_str(c, root, "TableType", "TableType", false, &tt)) return false;
    if (tt && strcmp(tt, "EXTERNAL_TABLE") != 0 && strcmp(tt, "VIRTUAL_VIEW") != 0) {
        bool r = jfail(c, "TableType",
                       "'%s' is not supported; expected EXTERNAL_TABLE or VIRTUAL_VIEW", tt);
        sqe_free(tt);
        return r;
    }
    m->is_view = tt && strcmp(tt, "VIRTUAL_VIEW") == 0;
    sqe_free(tt);
    if (!get_kv(c, json_object_get(root, "Parameters"), "Parameters", &m->params)) return false;
    if (!get_columns(c, json_object_get(root, "PartitionKeys"), "PartitionKeys", &m->part_keys,
                     &m->n_part_keys))
        return false;
    if (!get_str(c, root, "ViewOriginalText", "ViewOriginalText", false, &m->view_original_text))
        return false;
    if (!get_str(c, root, "ViewExpandedText", "ViewExpandedText", false, &m->view_expanded_text))
        return false;
    if (m->is_view && !m->view_original_text)
        return jfail(c, "ViewOriginalText", "missing (required for a VIRTUAL_VIEW)");

    json_t *sd = json_object_get(root, "StorageDescriptor");
    if (!sd) {
        if (m->is_view) return true;
        return jfail(c, "StorageDescriptor", "missing");
    }
    if (!json_is_object(sd))
        return jfail(c, "StorageDescriptor", "expected an object, found %s", json_kind(sd));
    if (!check_keys(c, sd, "StorageDescriptor", sd_known, SQE_ARRAY_LEN(sd_known))) return false;
    if (!get_columns(c, json_object_get(sd, "Columns"), "StorageDescriptor.Columns", &m->cols,
                     &m->n_cols))
        return false;
    json_t *v;
    if ((v = json_object_get(sd, "NumberOfBuckets")) != NULL) {
        if (!json_is_integer(v))
            return jfail(c, "StorageDescriptor.NumberOfBuckets", "expected an integer, found %s",
                         json_kind(v));
        if (json_integer_value(v) > 0)
            return jfail(c, "StorageDescriptor.NumberOfBuckets",
                         "bucketed tables (CLUSTERED BY ... INTO n BUCKETS) are not supported");
    }
    if (array_nonempty(json_object_get(sd, "BucketColumns")))
        return jfail(c, "StorageDescriptor.BucketColumns", "bucketed tables are not supported");
    if (array_nonempty(json_object_get(sd, "SortColumns")))
        return jfail(c, "StorageDescriptor.SortColumns",
                     "sorted bucketed tables are not supported");
    if (array_nonempty(json_object_get(sd, "AdditionalLocations")))
        return jfail(c, "StorageDescriptor.AdditionalLocations",
                     "additional locations are not supported");
    if (json_object_get(sd, "SchemaReference"))
        return jfail(c, "StorageDescriptor.SchemaReference",
                     "schema registry references are not supported");
    if ((v = json_object_get(sd, "SkewedInfo")) != NULL) {
        if (!json_is_object(v))
            return jfail(c, "StorageDescriptor.SkewedInfo", "expected an object, found %s",
                         json_kind(v));
        if (array_nonempty(json_object_get(v, "SkewedColumnNames")))
            return jfail(c, "StorageDescriptor.SkewedInfo",
                         "skewed tables (SKEWED BY) are not supported");
    }
    if ((v = json_object_get(sd, "StoredAsSubDirectories")) != NULL && json_is_true(v))
        return jfail(c, "StorageDescriptor.StoredAsSubDirectories",
                     "list bucketing (STORED AS DIRECTORIES) is not supported");
    if ((v = json_object_get(sd, "Parameters")) != NULL && !json_is_object(v))
        return jfail(c, "StorageDescriptor.Parameters", "expected an object, found %s",
                     json_kind(v));
    if (!get_str(c, sd, "Location", "StorageDescriptor.Location", !m->is_view, &m->location))
        return false;
    if (!get_str(c, sd, "InputFormat", "StorageDescriptor.InputFormat", !m->is_view,
                 &m->input_format))
        return false;
    if (!get_str(c, sd, "OutputFormat", "StorageDescriptor.OutputFormat", !m->is_view,
                 &m->output_format))
        return false;
    json_t *si = json_object_get(sd, "SerdeInfo");
    if (!si) {
        if (m->is_view) return true;
        return jfail(c, "StorageDescriptor.SerdeInfo", "missing");
    }
    if (!json_is_object(si))
        return jfail(c, "StorageDescriptor.SerdeInfo", "expected an object, found %s",
                     json_kind(si));
    if (!check_keys(c, si, "StorageDescriptor.SerdeInfo", si_known, SQE_ARRAY_LEN(si_known)))
        return false;
    if (!get_str(c, si, "SerializationLibrary", "StorageDescriptor.SerdeInfo.SerializationLibrary",
                 !m->is_view, &m->serde_class))
        return false;
    if (!get_kv(c, json_object_get(si, "Parameters"), "StorageDescriptor.SerdeInfo.Parameters",
                &m->serde_params))
        return false;
    return true;
}

bool hive_manifest_load(sqe_store *store, const char *path, const char *expect_name,
                        const sqe_hive_limits *lim, hive_manifest *out, sqe_error *err) {
    memset(out, 0, sizeof *out);
    char *data = NULL;
    size_t len = 0;
    if (!sqe_io_read_all(store, path, lim->manifest_max_bytes, &data, &len, err)) {
        if (err && err->cls == SQE_ERR_RESOURCE_EXHAUSTED)
            sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED,
                          "manifest '%s' is larger than manifest_max_bytes (%zu bytes)", path,
                          lim->manifest_max_bytes);
        return false;
    }
    /* a UTF-8 BOM (written by some Windows editors) is skipped: JSON text
     * may not start with one, but it carries no meaning (RFC 8259 §8.1
     * lets parsers ignore it) */
    size_t bom = len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    json_error_t jerr;
    json_t *root = json_loadb(data + bom, len - bom, JSON_REJECT_DUPLICATES, &jerr);
    sqe_free(data);
    if (!root)
        return sqe_error_set(err, SQE_ERR_HIVE_EXTERNAL,
                             "manifest '%s': invalid JSON at line %d, column %d: %s", path,
                             jerr.line, jerr.column, jerr.text);
    jctx c = {path, err};
    if (!from_json(&c, root, expect_name, out)) {
        json_decref(root);
        hive_manifest_free(out);
        return false;
    }
    out->extra = root;
    if (!hive_manifest_validate(out, lim, path, err) || !hive_partidx_check(out, path, err)) {
        hive_manifest_free(out);
        return false;
    }
    return true;
}

/* ------------------------------------------------------------ tables */

static sqe_hive_column *copy_columns(const sqe_hive_column *cols, int n) {
    sqe_hive_column *out = sqe_calloc(n ? (size_t)n : 1, sizeof *out);
    for (int i = 0; i < n; i++) {
        out[i].name = sqe_strdup(cols[i].name);
        out[i].type = cols[i].type;
        out[i].comment = cols[i].comment ? sqe_strdup(cols[i].comment) : NULL;
    }
    return out;
}

/* The JSON reader options of a validated manifest (SPEC §4.3): OpenX's
 * ignore.malformed.json, case.insensitive, dots.in.keys and mapping.<col>
 * from the effective SerDe properties; the HCatalog SerDe has none. */
static void derive_json(const hive_manifest *m, sqe_hive_table *t) {
    memset(&t->json, 0, sizeof t->json);
    const hive_serde_info *sd = hive_serde_by_class(m->serde_class);
    if (!sd || (sd->id != HIVE_SERDE_OPENX_JSON && sd->id != HIVE_SERDE_HCAT_JSON)) return;
    if (sd->id == HIVE_SERDE_HCAT_JSON) {
        t->json.serde = SQE_JSON_SERDE_HCAT;
        return;
    }
    t->json.serde = SQE_JSON_SERDE_OPENX;
    hive_kv_list eff;
    size_t n_serde;
    effective_serde_params(m, sd, &eff, &n_serde);
    const char *v;
    t->json.ignore_malformed =
        (v = hive_kv_get(&eff, "ignore.malformed.json")) && sqe_str_ieq(v, "true");
    t->json.case_sensitive = (v = hive_kv_get(&eff, "case.insensitive")) && sqe_str_ieq(v, "false");
    t->json.dots_in_keys = (v = hive_kv_get(&eff, "dots.in.keys")) && sqe_str_ieq(v, "true");
    int n = 0;
    for (size_t i = 0; i < eff.len; i++) n += sqe_str_starts_with(eff.items[i].key, "mapping.");
    if (n) {
        t->json_map_cols = sqe_calloc((size_t)n, sizeof *t->json_map_cols);
        t->json_map_keys = sqe_calloc((size_t)n, sizeof *t->json_map_keys);
    }
    for (size_t i = 0; i < eff.len; i++) {
        const char *k = eff.items[i].key;
        if (!sqe_str_starts_with(k, "mapping.")) continue;
        /* a later duplicate (TBLPROPERTIES over SERDEPROPERTIES) replaces */
        int j = 0;
        while (j < t->json.n_mappings && !sqe_str_ieq(t->json_map_cols[j], k + 8)) j++;
        if (j == t->json.n_mappings) {
            t->json_map_cols[j] = sqe_strdup(k + 8);
            for (char *c = t->json_map_cols[j]; *c; c++)
                if (*c >= 'A' && *c <= 'Z') *c = (char)(*c + 32);
            t->json.n_mappings++;
        } else {
            sqe_free(t->json_map_keys[j]);
        }
        t->json_map_keys[j] = sqe_strdup(eff.items[i].value);
    }
    t->json.mapping_cols = (const char *const *)t->json_map_cols;
    t->json.mapping_keys = (const char *const *)t->json_map_keys;
    SQE_ARRAY_FREE(eff);
}

/* Every sqe_hive_table this module hands out is the head of one of these,
 * so sqe_hive_reader_spec can point the spec at flat name/type arrays that
 * live exactly as long as the table. */
typedef struct hive_table_priv {
    sqe_hive_table pub; /* first: the pointer callers see */
    const char **col_names;
    sqe_type *col_types;
    hive_projection *projection; /* projection.enabled=true; else NULL */
} hive_table_priv;

const hive_projection *hive_table_projection(const sqe_hive_table *t) {
    return t->adhoc ? NULL : ((const hive_table_priv *)t)->projection;
}

sqe_hive_table *hive_table_from_manifest(const hive_manifest *m, const char *root, const char *db,
                                         const char *manifest_path) {
    hive_table_priv *priv = sqe_calloc(1, sizeof *priv);
    sqe_hive_table *t = &priv->pub;
    t->root = sqe_strdup(root);
    t->database = sqe_strdup(db);
    t->name = sqe_strdup(m->name);
    t->manifest_path = sqe_strdup(manifest_path);
    if (m->location) {
        /* a manifest written elsewhere (Glue, Hive) may spell a local
         * location file:/abs: read it as CREATE would have stored it. A
         * relative one (only hand-written) is kept as written. */
        const char *why = NULL;
        char *norm = hive_location_normalize(m->location, &why);
        const char *loc = norm ? norm : m->location;
        size_t n = strlen(loc);
        t->location = (n && loc[n - 1] == '/') ? sqe_strdup(loc) : sqe_asprintf("%s/", loc);
        sqe_free(norm);
    }
    t->n_cols = m->n_cols;
    t->cols = copy_columns(m->cols, m->n_cols);
    t->n_part_keys = m->n_part_keys;
    t->part_keys = copy_columns(m->part_keys, m->n_part_keys);
    t->format = m->format;
    t->serde_class = m->serde_class ? sqe_strdup(m->serde_class) : NULL;
    t->input_format = m->input_format ? sqe_strdup(m->input_format) : NULL;
    t->output_format = m->output_format ? sqe_strdup(m->output_format) : NULL;
    t->text = m->text;
    if (m->text.null_format) {
        t->text_null_format = sqe_strdup(m->text.null_format);
        t->text.null_format = t->text_null_format;
    }
    derive_json(m, t);
    t->is_view = m->is_view;
    const char *secret = hive_kv_get(&m->params, "sqe.secret");
    t->secret = secret && *secret ? sqe_strdup(secret) : NULL;
    t->view_original_text = m->view_original_text ? sqe_strdup(m->view_original_text) : NULL;
    t->partidx = hive_partidx_from_manifest(m, manifest_path);
    priv->col_names = sqe_calloc(m->n_cols ? (size_t)m->n_cols : 1, sizeof *priv->col_names);
    priv->col_types = sqe_calloc(m->n_cols ? (size_t)m->n_cols : 1, sizeof *priv->col_types);
    for (int i = 0; i < m->n_cols; i++) {
        priv->col_names[i] = t->cols[i].name;
        priv->col_types[i] = t->cols[i].type;
    }
    /* validated with the manifest, so this builds; a failure leaves the
     * table unprojected only if validation was skipped (adhoc tables) */
    sqe_error perr;
    sqe_error_clear(&perr);
    if (!hive_projection_build(m, NULL, &priv->projection, &perr)) priv->projection = NULL;
    hive_stats_to_table(m, t);
    return t;
}

sqe_store *sqe_hive_table_store(const sqe_hive_table *t, sqe_error *err) {
    if (!t->registry) return sqe_io_store_for_url(t->location, err);
    return sqe_io_registry_open(t->registry, t->location, t->secret, err);
}

void sqe_hive_table_free(sqe_hive_table *t) {
    if (!t) return;
    sqe_free(t->secret);
    sqe_free(t->root);
    sqe_free(t->database);
    sqe_free(t->name);
    sqe_free(t->manifest_path);
    sqe_free(t->location);
    free_columns(t->cols, t->n_cols);
    free_columns(t->part_keys, t->n_part_keys);
    sqe_free(t->serde_class);
    sqe_free(t->input_format);
    sqe_free(t->output_format);
    sqe_free(t->text_null_format);
    for (int i = 0; i < t->json.n_mappings; i++) {
        sqe_free(t->json_map_cols[i]);
        sqe_free(t->json_map_keys[i]);
    }
    sqe_free(t->json_map_cols);
    sqe_free(t->json_map_keys);
    sqe_free(t->view_original_text);
    hive_adhoc_free(t->adhoc);
    hive_partidx_free(t->partidx);
    hive_table_priv *priv = (hive_table_priv *)t;
    sqe_free(priv->col_names);
    sqe_free(priv->col_types);
    hive_projection_free(priv->projection);
    sqe_free(priv);
}

bool sqe_hive_check_readable(const sqe_hive_table *t, sqe_error *err) {
    if (t->is_view)
        return sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                             "cannot read '%s.%s.%s': views are not supported yet", t->root,
                             t->database, t->name);
    if (t->serde_class && strcmp(t->serde_class, HIVE_REGEX_SERDE) == 0)
        return sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                             "cannot read table '%s.%s.%s': RegexSerDe tables are not readable yet",
                             t->root, t->database, t->name);
    switch (t->format) {
    case SQE_FORMAT_TEXT:
    case SQE_FORMAT_JSON:
    case SQE_FORMAT_PARQUET:
        return true;
    default: {
        const char *name = "UNKNOWN";
        for (size_t i = 0; i < hive_n_formats; i++)
            if (hive_formats[i].kind == t->format) name = hive_formats[i].stored_as;
        return sqe_error_set(
            err, SQE_ERR_NOT_SUPPORTED,
            "cannot read table '%s.%s.%s': format %s (%s) is not supported; readable "
            "formats are TEXTFILE, JSON and PARQUET",
            t->root, t->database, t->name, name, t->input_format ? t->input_format : "?");
    }
    }
}

void sqe_hive_reader_spec(const sqe_hive_table *t, sqe_reader_spec *spec) {
    const hive_table_priv *priv = (const hive_table_priv *)t;
    spec->format = t->format;
    spec->n_table_cols = t->n_cols;
    spec->col_names = priv->col_names;
    spec->col_types = priv->col_types;
    spec->text = t->text;
    spec->json = t->json;
}
