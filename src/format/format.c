/*
 * format.c - the reader registry: which vtable decodes which table format.
 *
 * Adding a format is one file (its reader) plus one line in k_formats. The
 * formats sqe records but cannot read (SPEC §4.1) stay in the table with a
 * NULL vtable, so the error names the format and the Hadoop input format
 * class the table was declared with, the way users see it in SHOW CREATE
 * TABLE.
 */
#include "format/format.h"

#include <string.h>

typedef struct format_entry {
    const char *name;        /* STORED AS spelling */
    const char *input_class; /* Hadoop InputFormat */
    const sqe_reader_vtable *vt;
    const char *not_yet; /* readable later: the NOT_SUPPORTED message */
} format_entry;

static const format_entry k_formats[] = {
    [SQE_FORMAT_TEXT] = {"TEXTFILE", "org.apache.hadoop.mapred.TextInputFormat",
                         &sqe_text_reader_vtable, NULL},
    [SQE_FORMAT_JSON] = {"JSONFILE", "org.apache.hadoop.mapred.TextInputFormat", NULL,
                         "reading JSON tables is not supported yet"},
    [SQE_FORMAT_PARQUET] = {"PARQUET",
                            "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat",
                            &sqe_parquet_reader_vtable, NULL},
    [SQE_FORMAT_ORC] = {"ORC", "org.apache.hadoop.hive.ql.io.orc.OrcInputFormat", NULL, NULL},
    [SQE_FORMAT_AVRO] = {"AVRO", "org.apache.hadoop.hive.ql.io.avro.AvroContainerInputFormat", NULL,
                         NULL},
    [SQE_FORMAT_SEQUENCEFILE] = {"SEQUENCEFILE", "org.apache.hadoop.mapred.SequenceFileInputFormat",
                                 NULL, NULL},
    [SQE_FORMAT_RCFILE] = {"RCFILE", "org.apache.hadoop.hive.ql.io.RCFileInputFormat", NULL, NULL},
};

static const format_entry *entry_for(sqe_format_kind kind) {
    if ((unsigned)kind >= SQE_ARRAY_LEN(k_formats) || !k_formats[kind].name) return NULL;
    return &k_formats[kind];
}

const sqe_reader_vtable *sqe_format_reader_for(sqe_format_kind kind, sqe_error *err) {
    const format_entry *e = entry_for(kind);
    if (!e) {
        sqe_error_set(err, SQE_ERR_INTERNAL, "unknown table format %d", (int)kind);
        return NULL;
    }
    if (e->vt) return e->vt;
    if (e->not_yet)
        sqe_error_set(err, SQE_ERR_NOT_SUPPORTED, "%s", e->not_yet);
    else
        sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                      "cannot read %s table: format %s (%s) is not readable by sqe", e->name,
                      e->name, e->input_class);
    return NULL;
}

const char *sqe_format_name(sqe_format_kind kind) {
    const format_entry *e = entry_for(kind);
    return e ? e->name : "UNKNOWN";
}

/* ------------------------------------------------------------ splitting */

static bool has_suffix(const char *s, const char *suf) {
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && strcmp(s + n - m, suf) == 0;
}

bool sqe_format_splittable(const sqe_reader_spec *spec, const char *path) {
    static const char *const k_compressed[] = {".gz",      ".bz2", ".zst", ".snappy",
                                               ".deflate", ".lz4", ".xz",  ".lzo"};
    if (!spec || spec->format != SQE_FORMAT_TEXT) return false;
    const sqe_text_options *o = &spec->text;
    if (o->serde != SQE_SERDE_LAZY_SIMPLE) return false;
    if (o->line_delim != '\n' && o->line_delim != 0) return false;
    if (o->skip_header_lines || o->skip_footer_lines) return false;
    if (path)
        for (size_t i = 0; i < SQE_ARRAY_LEN(k_compressed); i++)
            if (has_suffix(path, k_compressed[i])) return false;
    return true;
}

/* Text files split into byte ranges of target_bytes when splittable; other
 * formats plan through their vtable's plan_morsels (none: whole files). */
bool sqe_format_plan_morsels(const sqe_reader_vtable *vt, sqe_store *store, const char *path,
                             uint64_t size, const sqe_reader_spec *spec, uint64_t target_bytes,
                             sqe_file_range_list *out, sqe_error *err) {
    if (target_bytes == 0 || !vt) return true;
    if (vt->plan_morsels) return vt->plan_morsels(store, path, size, spec, target_bytes, out, err);
    if (vt != &sqe_text_reader_vtable || size <= target_bytes || !sqe_format_splittable(spec, path))
        return true;
    for (uint64_t start = 0; start < size; start += target_bytes) {
        uint64_t end = size - start > target_bytes ? start + target_bytes : size;
        sqe_file_range r = {start, end};
        SQE_ARRAY_PUSH(NULL, *out, r);
    }
    return true;
}

sqe_reader *sqe_format_open_range(const sqe_reader_vtable *vt, sqe_store *store, const char *path,
                                  uint64_t size, uint64_t start, uint64_t end,
                                  const sqe_reader_spec *spec, sqe_error *err) {
    if (vt && vt->open_range) return vt->open_range(store, path, size, start, end, spec, err);
    if (vt == &sqe_text_reader_vtable)
        return sqe_text_reader_open_range(store, path, size, start, end, spec, err);
    sqe_error_set(err, SQE_ERR_INTERNAL, "reader %s cannot read byte ranges of '%s'",
                  vt ? vt->name : "?", path);
    return NULL;
}

/* ------------------------------------------------------ schema inference */

bool sqe_format_infer_schema(sqe_store *store, const char *path, uint64_t size,
                             sqe_reader_spec *spec, sqe_infer_options *opt, sqe_arena *arena,
                             sqe_inferred_schema *out, sqe_error *err) {
    switch (spec->format) {
    case SQE_FORMAT_TEXT:
        return sqe_text_infer_schema(store, path, size, spec, opt, arena, out, err);
    case SQE_FORMAT_PARQUET:
        return sqe_parquet_infer_schema(store, path, size, arena, out, err);
    case SQE_FORMAT_JSON:
        return sqe_json_infer_schema(store, path, size, spec, opt, arena, out, err);
    default:
        return sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                             "inferring the columns of a %s file is not supported yet: give them "
                             "with columns => {'name': 'type', ...}",
                             sqe_format_name(spec->format));
    }
}

bool sqe_format_read_sample(sqe_store *store, const char *path, uint64_t size, size_t max_bytes,
                            sqe_arena *arena, const char **buf, size_t *len, bool *whole,
                            sqe_error *err) {
    size_t want = size && size < max_bytes ? (size_t)size : max_bytes;
    char *b = sqe_arena_alloc(arena, want + 1);
    size_t got = 0;
    if (!store->vt->get_range(store, path, 0, want, b, &got, err)) return false;
    *whole = got < want || (size && got >= size);
    *buf = b;
    *len = got;
    if (got >= 3 && memcmp(b, "\xEF\xBB\xBF", 3) == 0) {
        *buf += 3;
        *len -= 3;
    }
    return true;
}
