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
#include <strings.h>

#include "format/codec.h"

typedef struct format_entry {
    const char *name;        /* STORED AS spelling */
    const char *input_class; /* Hadoop InputFormat */
    const sqe_reader_vtable *vt;
    const char *not_yet; /* readable later: the NOT_SUPPORTED message */
} format_entry;

static const format_entry k_formats[] = {
    [SQE_FORMAT_TEXT] = {"TEXTFILE", "org.apache.hadoop.mapred.TextInputFormat",
                         &sqe_text_reader_vtable, NULL},
    [SQE_FORMAT_JSON] = {"JSONFILE", "org.apache.hadoop.mapred.TextInputFormat",
                         &sqe_json_reader_vtable, NULL},
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

static bool has_suffix_ci(const char *s, const char *suf) {
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && strcasecmp(s + n - m, suf) == 0;
}

bool sqe_format_splittable(const sqe_reader_spec *spec, const char *path) {
    if (!spec) return false;
    /* compressed files are one task each (SPEC §4.5); .xz is not read by sqe
     * but must not be split either */
    if (path && (sqe_codec_for_path(path) != SQE_CODEC_NONE || has_suffix_ci(path, ".xz")))
        return false;
    if (spec->format == SQE_FORMAT_JSON) return true; /* JSON lines: one record per line */
    if (spec->format != SQE_FORMAT_TEXT) return false;
    const sqe_text_options *o = &spec->text;
    if (o->serde != SQE_SERDE_LAZY_SIMPLE) return false;
    if (o->line_delim != '\n' && o->line_delim != 0) return false;
    if (o->skip_header_lines || o->skip_footer_lines) return false;
    return true;
}

/* Formats with plan_morsels plan for themselves (Parquet: row groups);
 * otherwise a splittable file (text, JSON lines) becomes byte ranges of
 * target_bytes, and anything else is one morsel. */
bool sqe_format_plan_morsels(const sqe_reader_vtable *vt, sqe_store *store, const char *path,
                             uint64_t size, const sqe_reader_spec *spec, uint64_t target_bytes,
                             sqe_file_range_list *out, sqe_error *err) {
    if (target_bytes == 0 || !vt) return true;
    if (vt->plan_morsels) return vt->plan_morsels(store, path, size, spec, target_bytes, out, err);
    if (size <= target_bytes || !sqe_format_splittable(spec, path)) return true;
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
    sqe_codec codec = sqe_codec_for_path(path);
    size_t want = codec == SQE_CODEC_NONE && size && size < max_bytes ? (size_t)size : max_bytes;
    char *b = sqe_arena_alloc(arena, want + 1);
    size_t got = 0;
    if (codec == SQE_CODEC_NONE) {
        if (!store->vt->get_range(store, path, 0, want, b, &got, err)) return false;
        *whole = got < want || (size && got >= size);
    } else { /* the first decompressed bytes */
        sqe_byte_stream *bs = sqe_byte_stream_open(store, path, size, 0, codec, 1 << 20, err);
        if (!bs) return false;
        bool eof = false;
        while (got < want && !eof) {
            size_t n = 0;
            if (!sqe_byte_stream_read(bs, b + got, want - got, &n, &eof, err)) {
                sqe_byte_stream_close(bs);
                return false;
            }
            got += n;
        }
        if (!eof && got == want) { /* is there more? */
            char probe;
            size_t n = 0;
            if (!sqe_byte_stream_read(bs, &probe, 1, &n, &eof, err)) {
                sqe_byte_stream_close(bs);
                return false;
            }
            eof = n == 0;
        }
        sqe_byte_stream_close(bs);
        *whole = eof;
    }
    *buf = b;
    *len = got;
    if (got >= 3 && memcmp(b, "\xEF\xBB\xBF", 3) == 0) {
        *buf += 3;
        *len -= 3;
    }
    return true;
}
