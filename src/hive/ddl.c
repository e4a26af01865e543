/*
 * ddl.c - CREATE [EXTERNAL] TABLE (the AST the parser recorded, every
 * clause of it) -> hive_manifest, or a rejection that names the reason
 * (SPEC §3).
 *
 * Where it sits: catalog.c calls hive_ddl_build, then resolves the name,
 * checks for an existing manifest and writes the result. The manifest built
 * here goes through hive_manifest_validate (manifest.c) before it is
 * returned, so a written manifest has passed every check a load runs.
 *
 * Order of decisions:
 *   1. the statement kind: TEMPORARY, OR REPLACE, AS SELECT, LIKE, missing
 *      EXTERNAL, STORED BY, CLUSTERED BY, SKEWED BY are rejected by name;
 *   2. LOCATION present and syntactically a URL;
 *   3. columns and partition keys (types via sqe_type_parse; nested types
 *      and unsupported key types rejected naming the column);
 *   4. storage: STORED AS / INPUTFORMAT give the container, ROW FORMAT the
 *      SerDe; when a SerDe does not fit its container, the SerDe wins and
 *      a notice says so (as Hive); ROW FORMAT DELIMITED with a columnar
 *      container is rejected (it has no meaning there);
 *   5. properties: every DDL literal is unescaped the way Hive does
 *      (escape.c); delimiters are checked against the clause that gave them.
 * Hive's own additions are kept: serialization.format (= field.delim for
 * DELIMITED, "1" otherwise) and EXTERNAL=TRUE in Parameters.
 */
#include "hive/hive_int.h"
#include "io/io.h"

#include <stdio.h>
#include <string.h>

/* Local LOCATION spellings -> one absolute form (issue 7 item 5): Hadoop's
 * file:/abs (one slash) and file:///abs (any number of slashes, any case of
 * "file") become file:///abs, the URL form sqe_io_local_path reads; a plain
 * /abs stays as written (the same folder). Before, file:/abs was read as
 * the relative folder "file:" and gave 0 rows. A
 * relative path (data/t/, file:data/t) is refused: it would be resolved
 * against the current folder of each process, giving different answers
 * from different folders. s3:// URLs and what sqe_io_check_url rejects are
 * returned unchanged (copied). NULL with *why set for a relative path. */
char *hive_location_normalize(const char *loc, const char **why) {
    const char *p = loc;
    bool file_url = sqe_str_ieqn(p, "file:", 5);
    if (file_url) {
        p += 5;
        if (p[0] == '/' && p[1] == '/' && p[2] != '/') return sqe_strdup(loc); /* host form */
        while (p[0] == '/' && p[1] == '/') p++;
    } else if (strstr(p, "://")) {
        return sqe_strdup(loc);
    }
    if (p[0] != '/') {
        *why = "is a relative path: a relative local LOCATION would be read from the current "
               "folder of whoever queries the table";
        return NULL;
    }
    return file_url ? sqe_asprintf("file://%s", p) : sqe_strdup(p);
}

static bool hfail(sqe_error *err, const char *fmt, ...) SQE_PRINTF(2, 3);
static bool hfail(sqe_error *err, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    sqe_error_setv(err, SQE_ERR_HIVE_EXTERNAL, fmt, ap);
    va_end(ap);
    return false;
}

/* Decodes a DDL literal that is not a delimiter; `what` names the clause. */
static char *decode(const char *raw, const char *what, sqe_error *err) {
    const char *why = NULL;
    char *v = hive_unescape(raw, NULL, &why);
    if (!v) hfail(err, "%s '%s' %s", what, raw, why);
    return v;
}

/* Decodes a delimiter literal: the bytes after escape processing must be one
 * ASCII character or (numeric_rule) a decimal byte value, as Hive reads it.
 * Returns the decoded string (what the manifest stores). */
static char *decode_delim(const char *raw, const char *what, bool numeric_rule, unsigned char *byte,
                          sqe_error *err) {
    size_t n;
    char *v = hive_unescape_raw(raw, &n);
    char why[256];
    unsigned char b;
    if (!hive_delim_byte_n(v, n, numeric_rule, &b, why, sizeof why)) {
        hfail(err, "%s: delimiter '%s' %s", what, raw, why);
        sqe_free(v);
        return NULL;
    }
    if (byte) *byte = b;
    return v;
}

static void type_text(const sqe_ast_type *t, sqe_strbuf *sb) {
    if (t->text) {
        sqe_strbuf_puts(sb, t->text);
        return;
    }
    sqe_strbuf_puts(sb, t->name ? t->name : "");
    if (t->n_params > 0) {
        sqe_strbuf_printf(sb, "(%d", t->params[0]);
        if (t->n_params > 1) sqe_strbuf_printf(sb, ",%d", t->params[1]);
        sqe_strbuf_putc(sb, ')');
    }
}

static bool is_nested_name(const char *name) {
    return name &&
           (sqe_str_ieq(name, "array") || sqe_str_ieq(name, "map") || sqe_str_ieq(name, "struct") ||
            sqe_str_ieq(name, "uniontype") || sqe_str_ieq(name, "row"));
}

static bool build_columns(const sqe_ast_column_def *defs, int n, bool part_keys,
                          sqe_hive_column **out, int *n_out, sqe_error *err) {
    sqe_hive_column *cols = sqe_calloc(n ? (size_t)n : 1, sizeof *cols);
    *out = cols;
    *n_out = n;
    for (int i = 0; i < n; i++) {
        const sqe_ast_column_def *d = &defs[i];
        cols[i].name = sqe_str_lower(sqe_strdup(d->name.name ? d->name.name : ""));
        const char *kind = part_keys ? "partition key" : "column";
        size_t chars = 0;
        for (const char *c = cols[i].name; *c; c++) chars += ((unsigned char)*c & 0xC0) != 0x80;
        if (chars > HIVE_COLUMN_NAME_MAX)
            return hfail(err, "%s name '%s' is %zu characters long, more than the limit of %d",
                         kind, cols[i].name, chars, HIVE_COLUMN_NAME_MAX);
        sqe_strbuf tt;
        sqe_strbuf_init(&tt);
        type_text(&d->type, &tt);
        bool ok = true;
        if (is_nested_name(d->type.name)) {
            if (part_keys)
                ok = hfail(
                    err,
                    "partition key '%s' has type %s: partition keys must be string, varchar, int, "
                    "bigint or date",
                    cols[i].name, tt.data);
            else
                ok = hfail(err,
                           "column '%s' has type %s: nested types (array, map, struct) are not "
                           "supported yet",
                           cols[i].name, tt.data);
        } else {
            sqe_error terr;
            sqe_error_clear(&terr);
            if (!sqe_type_parse(tt.data ? tt.data : "", &cols[i].type, &terr))
                ok = hfail(err, "%s '%s': %s", kind, cols[i].name, terr.msg);
        }
        sqe_strbuf_free(&tt);
        if (!ok) return false;
        if (d->comment && !(cols[i].comment = decode(d->comment, "COMMENT", err))) return false;
    }
    return true;
}

static bool add_prop(hive_kv_list *l, const char *list_name, const char *key, char *value,
                     sqe_error *err) {
    if (hive_kv_get(l, key)) {
        sqe_free(value);
        return hfail(err, "%s key '%s' is given twice", list_name, key);
    }
    hive_kv kv = {sqe_strdup(key), value};
    SQE_ARRAY_PUSH(NULL, *l, kv);
    return true;
}

static bool is_delim_key(const hive_serde_info *sd, const char *key, bool has_field_delim,
                         bool *numeric) {
    *numeric = true;
    if (sd->id == HIVE_SERDE_LAZY_SIMPLE) {
        if (!strcmp(key, "serialization.format")) return !has_field_delim;
        return !strcmp(key, "field.delim") || !strcmp(key, "escape.delim") ||
               !strcmp(key, "collection.delim") || !strcmp(key, "colelction.delim") ||
               !strcmp(key, "mapkey.delim") || !strcmp(key, "line.delim");
    }
    if (sd->id == HIVE_SERDE_OPEN_CSV) {
        *numeric = false;
        return !strcmp(key, "separatorChar") || !strcmp(key, "quoteChar") ||
               !strcmp(key, "escapeChar");
    }
    return false;
}

static bool add_serde_props(hive_manifest *m, const hive_serde_info *sd, const sqe_ast_kv *kvs,
                            int n, sqe_error *err) {
    bool has_field_delim = false;
    for (int i = 0; i < n; i++)
        if (kvs[i].key && strcmp(kvs[i].key, "field.delim") == 0) has_field_delim = true;
    for (int i = 0; i < n; i++) {
        char *key = decode(kvs[i].key ? kvs[i].key : "", "SERDEPROPERTIES key", err);
        if (!key) return false;
        char what[300];
        snprintf(what, sizeof what, "SERDEPROPERTIES '%s'", key);
        bool numeric;
        char *val = is_delim_key(sd, key, has_field_delim, &numeric)
                        ? decode_delim(kvs[i].value ? kvs[i].value : "", what, numeric, NULL, err)
                        : decode(kvs[i].value ? kvs[i].value : "", what, err);
        bool ok = val && add_prop(&m->serde_params, "SERDEPROPERTIES", key, val, err);
        sqe_free(key);
        if (!ok) return false;
    }
    return true;
}

static bool add_delimited(hive_manifest *m, const sqe_ast_create_table *ct, sqe_error *err) {
    char *v;
    if (ct->fields_terminated) {
        if (!(v = decode_delim(ct->fields_terminated, "FIELDS TERMINATED BY", true, NULL, err)))
            return false;
        hive_kv_list_add(&m->serde_params, "field.delim", v);
        sqe_free(v);
    }
    if (ct->escaped_by) {
        if (!(v = decode_delim(ct->escaped_by, "ESCAPED BY", true, NULL, err))) return false;
        hive_kv_list_add(&m->serde_params, "escape.delim", v);
        sqe_free(v);
    }
    if (ct->collection_terminated) {
        if (!(v = decode_delim(ct->collection_terminated, "COLLECTION ITEMS TERMINATED BY", true,
                               NULL, err)))
            return false;
        hive_kv_list_add(&m->serde_params, "colelction.delim", v); /* sic: Hive's spelling */
        sqe_free(v);
    }
    if (ct->map_keys_terminated) {
        if (!(v = decode_delim(ct->map_keys_terminated, "MAP KEYS TERMINATED BY", true, NULL, err)))
            return false;
        hive_kv_list_add(&m->serde_params, "mapkey.delim", v);
        sqe_free(v);
    }
    if (ct->lines_terminated) {
        unsigned char b;
        if (!(v = decode_delim(ct->lines_terminated, "LINES TERMINATED BY", true, &b, err)))
            return false;
        sqe_free(v);
        if (b != '\n')
            return hfail(
                err,
                "LINES TERMINATED BY '%s' is not supported: Hive only supports '\\n' as the line "
                "terminator",
                ct->lines_terminated);
        hive_kv_list_add(&m->serde_params, "line.delim", "\n");
    }
    if (ct->null_defined_as) {
        if (!(v = decode(ct->null_defined_as, "NULL DEFINED AS", err))) return false;
        hive_kv_list_add(&m->serde_params, "serialization.null.format", v);
        sqe_free(v);
    }
    const char *fd = hive_kv_get(&m->serde_params, "field.delim");
    hive_kv_list_add(&m->serde_params, "serialization.format", fd ? fd : "1");
    return true;
}

static bool unknown_stored_as(const char *s, sqe_error *err) {
    if (sqe_str_ieq(s, "CSV"))
        return hfail(
            err,
            "STORED AS CSV is not a Hive format; use ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' "
            "STORED AS TEXTFILE (or ROW FORMAT SERDE "
            "'org.apache.hadoop.hive.serde2.OpenCSVSerde' for quoted CSV)");
    if (sqe_str_ieq(s, "JSON"))
        return hfail(err, "STORED AS JSON is not a Hive format; use ROW FORMAT SERDE "
                          "'org.openx.data.jsonserde.JsonSerDe' (or STORED AS JSONFILE)");
    return hfail(
        err,
        "unknown STORED AS format '%s'; expected one of TEXTFILE, SEQUENCEFILE, ORC, PARQUET, "
        "AVRO, RCFILE, JSONFILE",
        s);
}

static bool build_storage(const sqe_ast_create_table *ct, hive_manifest *m, sqe_strbuf *notices,
                          sqe_error *err) {
    const hive_format_info *fmt = NULL;
    char *in_cls = NULL, *out_cls = NULL;
    bool ok = false;
    char stored_desc[400] = "";
    if (ct->stored_as) {
        fmt = hive_format_by_name(ct->stored_as);
        if (!fmt) return unknown_stored_as(ct->stored_as, err);
        in_cls = sqe_strdup(fmt->input_format);
        out_cls = sqe_strdup(fmt->output_format);
        snprintf(stored_desc, sizeof stored_desc, "STORED AS %s", fmt->stored_as);
    } else if (ct->input_format) {
        if (!(in_cls = decode(ct->input_format, "INPUTFORMAT", err))) goto out;
        if (!ct->output_format) {
            hfail(err, "STORED AS INPUTFORMAT '%s' needs an OUTPUTFORMAT", in_cls);
            goto out;
        }
        if (!(out_cls = decode(ct->output_format, "OUTPUTFORMAT", err))) goto out;
        fmt = hive_format_by_input(in_cls);
        if (!fmt) {
            hfail(err,
                  "unsupported INPUTFORMAT '%s': custom or table-format readers are not supported "
                  "(reading it as text would split files into the wrong rows)",
                  in_cls);
            goto out;
        }
        snprintf(stored_desc, sizeof stored_desc, "STORED AS INPUTFORMAT '%s'", in_cls);
    }

    const hive_serde_info *sd = NULL;
    switch (ct->row_format) {
    case SQE_ROW_FORMAT_DELIMITED:
        sd = hive_serde_by_class(HIVE_LAZY_SIMPLE_SERDE);
        if (fmt && !hive_serde_fits_format(sd, fmt)) {
            hfail(err,
                  "ROW FORMAT DELIMITED does not apply to %s: a %s table has no field delimiters; "
                  "drop "
                  "the ROW FORMAT clause or use STORED AS TEXTFILE",
                  stored_desc, fmt->stored_as);
            goto out;
        }
        if (!fmt) {
            fmt = hive_format_by_name("TEXTFILE");
            in_cls = sqe_strdup(fmt->input_format);
            out_cls = sqe_strdup(fmt->output_format);
        }
        if (!add_delimited(m, ct, err)) goto out;
        if (ct->n_serde_props && !add_serde_props(m, sd, ct->serde_props, ct->n_serde_props, err))
            goto out;
        break;
    case SQE_ROW_FORMAT_SERDE: {
        char *cls = decode(ct->serde_class ? ct->serde_class : "", "ROW FORMAT SERDE", err);
        if (!cls) goto out;
        sd = hive_serde_by_class(cls);
        if (!sd) {
            hfail(err, "unsupported SerDe '%s': supported SerDes are %s", cls,
                  hive_serde_allow_list_text());
            sqe_free(cls);
            goto out;
        }
        sqe_free(cls);
        if (!add_serde_props(m, sd, ct->serde_props, ct->n_serde_props, err)) goto out;
        if (!hive_kv_get(&m->serde_params, "serialization.format"))
            hive_kv_list_add(&m->serde_params, "serialization.format", "1");
        if (fmt && !hive_serde_fits_format(sd, fmt)) {
            const hive_format_info *nat = hive_serde_natural_format(sd);
            sqe_strbuf_printf(
                notices,
                "ROW FORMAT SERDE '%s' overrides %s: the table is stored as %s (InputFormat "
                "%s), as Hive does when the SerDe and the storage format disagree\n",
                sd->cls, stored_desc, nat->stored_as, nat->input_format);
            fmt = NULL;
        }
        if (!fmt) {
            const hive_format_info *nat = hive_serde_natural_format(sd);
            sqe_free(in_cls);
            sqe_free(out_cls);
            in_cls = sqe_strdup(nat->input_format);
            out_cls = sqe_strdup(nat->output_format);
        }
        break;
    }
    default:
        if (!fmt) fmt = hive_format_by_name("TEXTFILE");
        if (!in_cls) in_cls = sqe_strdup(fmt->input_format);
        if (!out_cls) out_cls = sqe_strdup(fmt->output_format);
        sd = hive_serde_by_class(fmt->serde);
        if (ct->n_serde_props && !add_serde_props(m, sd, ct->serde_props, ct->n_serde_props, err))
            goto out;
        if (!hive_kv_get(&m->serde_params, "serialization.format"))
            hive_kv_list_add(&m->serde_params, "serialization.format", "1");
        break;
    }
    m->serde_class = sqe_strdup(sd->cls);
    m->input_format = in_cls;
    m->output_format = out_cls;
    in_cls = out_cls = NULL;
    ok = true;
out:
    sqe_free(in_cls);
    sqe_free(out_cls);
    return ok;
}

bool hive_ddl_build(const sqe_ast_create_table *ct, const sqe_hive_limits *lim, hive_manifest *m,
                    sqe_strbuf *notices, sqe_error *err) {
    if (ct->temporary)
        return hfail(
            err, "CREATE TEMPORARY TABLE is not supported: sqe only registers external tables in a "
                 "warehouse root");
    if (ct->or_replace)
        return hfail(err,
                     "CREATE OR REPLACE TABLE is not supported: DROP TABLE (which deletes only the "
                     "manifest) and CREATE it again");
    if (ct->as_select)
        return hfail(err, "CREATE TABLE ... AS SELECT is not supported yet (writes are planned for "
                          "a later cycle)");
    if (ct->like)
        return hfail(
            err,
            "CREATE TABLE ... LIKE is not supported yet (copying a table definition is planned, "
            "SPEC §17)");
    if (!ct->external)
        return hfail(
            err,
            "CREATE TABLE without EXTERNAL is not supported: sqe only registers external tables; "
            "use CREATE EXTERNAL TABLE ... LOCATION '...'");
    if (ct->stored_by)
        return hfail(err, "STORED BY '%s': storage handlers are not supported", ct->stored_by);
    if (ct->clustered)
        return hfail(err, "CLUSTERED BY ... INTO n BUCKETS (bucketed tables) is not supported");
    if (ct->skewed) return hfail(err, "SKEWED BY (skewed tables) is not supported");
    if (ct->n_partition_names > 0)
        return hfail(err,
                     "PARTITIONED BY (%s) without types is only valid with AS SELECT; declare each "
                     "partition key with its type, e.g. PARTITIONED BY (%s string)",
                     ct->partition_names[0].name, ct->partition_names[0].name);
    if (!ct->location)
        return hfail(err,
                     "LOCATION is required: sqe never chooses a data path for an external table");

    if (!(m->location = decode(ct->location, "LOCATION", err))) return false;
    if (!sqe_io_check_url(m->location, err)) return sqe_error_prefix(err, "LOCATION: ");
    const char *why = NULL;
    char *norm = hive_location_normalize(m->location, &why);
    if (!norm)
        return hfail(err,
                     "LOCATION '%s' %s; write an absolute path ('/data/t/' or "
                     "'file:///data/t/') or s3://bucket/prefix/",
                     m->location, why);
    sqe_free(m->location);
    m->location = norm;
    if (ct->comment && !(m->description = decode(ct->comment, "COMMENT", err))) return false;
    if (!build_columns(ct->columns, ct->n_columns, false, &m->cols, &m->n_cols, err)) return false;
    if (!build_columns(ct->partition_cols, ct->n_partition_cols, true, &m->part_keys,
                       &m->n_part_keys, err))
        return false;
    if (!build_storage(ct, m, notices, err)) return false;
    for (int i = 0; i < ct->n_tblprops; i++) {
        char *key =
            decode(ct->tblprops[i].key ? ct->tblprops[i].key : "", "TBLPROPERTIES key", err);
        if (!key) return false;
        char what[300];
        snprintf(what, sizeof what, "TBLPROPERTIES '%s'", key);
        char *val = decode(ct->tblprops[i].value ? ct->tblprops[i].value : "", what, err);
        bool ok = val && add_prop(&m->params, "TBLPROPERTIES", key, val, err);
        sqe_free(key);
        if (!ok) return false;
    }
    /* EXTERNAL is always stored last and spelled TRUE: SHOW CREATE TABLE
     * leaves it out and CREATE adds it back, so 'EXTERNAL'='true' written
     * by hand must give the same manifest as the round trip does. Any other
     * value stays for hive_manifest_validate to reject. */
    for (size_t i = 0; i < m->params.len; i++) {
        hive_kv *kv = &m->params.items[i];
        if (strcmp(kv->key, "EXTERNAL") == 0 && sqe_str_ieq(kv->value, "TRUE")) {
            sqe_free(kv->key);
            sqe_free(kv->value);
            memmove(kv, kv + 1, (m->params.len - i - 1) * sizeof *kv);
            m->params.len--;
            break;
        }
    }
    if (!hive_kv_get(&m->params, "EXTERNAL")) hive_kv_list_add(&m->params, "EXTERNAL", "TRUE");
    return hive_manifest_validate(m, lim, NULL, err);
}
