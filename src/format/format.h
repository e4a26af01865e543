/*
 * format.h - layer 3: file readers behind one interface.
 *
 * A reader decodes one file into column batches. The caller says which table
 * columns it needs (projection: the rest are never materialised) and the
 * reader fills exactly those vectors. Formats register a vtable; a new format
 * is a new file plus one line in format.c's registry, never edits across the
 * tree.
 *
 * Life cycle: open(file) -> next(batch)* until *eof -> close. `next` fills
 * the caller's batch (one vector per projected column, types as declared)
 * with up to SQE_BATCH_ROWS rows and no selection vector.
 */
#ifndef SQE_FORMAT_H
#define SQE_FORMAT_H

#include "io/io.h"
#include "vector/vector.h"

#include <pthread.h>
#include <stdatomic.h>

typedef enum sqe_format_kind {
    SQE_FORMAT_TEXT = 0, /* LazySimpleSerDe / OpenCSVSerde / RegexSerDe */
    SQE_FORMAT_JSON,
    SQE_FORMAT_PARQUET,
    SQE_FORMAT_ORC,
    SQE_FORMAT_AVRO,
    SQE_FORMAT_SEQUENCEFILE,
    SQE_FORMAT_RCFILE,
} sqe_format_kind;

typedef enum sqe_text_serde {
    SQE_SERDE_LAZY_SIMPLE = 0, /* org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe */
    SQE_SERDE_OPEN_CSV,        /* org.apache.hadoop.hive.serde2.OpenCSVSerde */
} sqe_text_serde;

/* Options of a text table, already validated and decoded by the hive layer
 * (delimiters are single bytes). */
typedef struct sqe_text_options {
    sqe_text_serde serde;
    char field_delim; /* LazySimple: field.delim (default \001); OpenCSV: separatorChar (default
                         ',') */
    char escape_char; /* LazySimple: escape.delim (0 = none); OpenCSV: escapeChar (default '\\') */
    char quote_char;  /* OpenCSV: quoteChar (default '"'); unused for LazySimple */
    char line_delim;  /* '\n' (a trailing '\r' is stripped for '\n') */
    const char *null_format; /* LazySimple: serialization.null.format (default "\\N"); OpenCSV: NULL
                                (no null marker) */
    uint32_t skip_header_lines;
    uint32_t skip_footer_lines;
} sqe_text_options;

/* JSON lines SerDes (SPEC §4.3). */
typedef enum sqe_json_serde {
    SQE_JSON_SERDE_HCAT = 0, /* org.apache.hive.hcatalog.data.JsonSerDe (Athena's default) */
    SQE_JSON_SERDE_OPENX,    /* org.openx.data.jsonserde.JsonSerDe */
} sqe_json_serde;

/* Options of a JSON table, validated and decoded by the hive layer. */
typedef struct sqe_json_options {
    sqe_json_serde serde;
    bool ignore_malformed; /* OpenX ignore.malformed.json: a malformed line is all-NULL */
    bool case_sensitive;   /* OpenX case.insensitive=false; default: keys match ignoring case */
    bool dots_in_keys;     /* OpenX dots.in.keys: '.' in a JSON key reads as '_' when binding */
    int n_mappings;        /* OpenX mapping.<column> = <json key> */
    const char *const *mapping_cols; /* lower-case column names */
    const char *const *mapping_keys; /* JSON keys, as written */
} sqe_json_options;

/* ------------------------------------------------ format-level predicate */

/* A predicate a reader may use to skip data (Parquet row groups and pages
 * from statistics). format/ sits below exec/, so it cannot take an sqe_expr:
 * exec/scan.c derives this from the row filter's conjuncts that compare a
 * data column with constants. It is a hint: the row filter is still applied
 * above the reader, so a reader that ignores it is correct, and a reader
 * that uses it may only skip data in which no row can match. */
typedef enum sqe_fpred_op {
    SQE_FPRED_EQ = 0,
    SQE_FPRED_NE,
    SQE_FPRED_LT,
    SQE_FPRED_LE,
    SQE_FPRED_GT,
    SQE_FPRED_GE,
    SQE_FPRED_IN,
    SQE_FPRED_IS_NULL,
    SQE_FPRED_IS_NOT_NULL,
} sqe_fpred_op;

typedef struct sqe_fpred_term {
    int col; /* table data column index (into spec col_names/col_types) */
    sqe_fpred_op op;
    int n_vals;            /* 1 for comparisons, >= 1 for IN, 0 for IS [NOT] NULL */
    const sqe_value *vals; /* non-NULL values of exactly the column's declared type */
} sqe_fpred_term;

/* Conjunction of terms (n_terms == 0: no predicate). */
typedef struct sqe_format_pred {
    int n_terms;
    const sqe_fpred_term *terms;
} sqe_format_pred;

/* ------------------------------------------------------ dynamic filter */

/* A bound on one column that tightens while the query runs. TopNExec
 * (ORDER BY c LIMIT k) publishes the value of c in its k-th best row as
 * soon as it holds k rows, and a tighter one whenever it improves; a row
 * whose c sorts strictly after the bound in the key's order (direction,
 * NULL placement, NaN next to the NULLs as sqe sorts) cannot reach the
 * result, while rows equal to it can (ties). So a reader may skip data in
 * which statistics show every row sorts after the bound (Parquet row
 * groups) and the scan drops such rows before its costly filters.
 *
 * Like the format predicate it is a hint: the TopN still ranks every row
 * it receives. Thread-safe: any number of publishers (one per pipeline
 * copy) and readers. `version` lets a reader see cheaply (one atomic load)
 * whether the bound changed since it last copied it. */
typedef struct sqe_dyn_filter {
    int col;       /* table data column a reader may check; -1: none (row level only) */
    sqe_type type; /* the column's declared type (the bound's type) */
    bool desc, nulls_first;
    atomic_uint_least64_t version; /* +1 whenever the bound changes (never goes back) */
    pthread_mutex_t mu;            /* guards has and bound */
    bool has;                      /* a bound was published */
    sqe_value bound;               /* string bytes in buf */
    char *buf;
    size_t cap;
} sqe_dyn_filter;

/* A user's copy of the bound, refreshed by sqe_dyn_filter_load. Zeroed: no
 * bound seen yet. */
typedef struct sqe_dyn_bound {
    uint64_t version;
    bool has;
    sqe_value v; /* strings point into buf */
    char *buf;
    size_t cap;
} sqe_dyn_bound;

/* A filter without a bound (free with sqe_dyn_filter_free). */
sqe_dyn_filter *sqe_dyn_filter_new(int col, sqe_type type, bool desc, bool nulls_first);
void sqe_dyn_filter_free(sqe_dyn_filter *f);
/* Forgets the bound (a new run of the same plan). */
void sqe_dyn_filter_reset(sqe_dyn_filter *f);
/* Makes v (of f->type, or NULL) the bound when there is none yet or v sorts
 * strictly before the current one. */
void sqe_dyn_filter_publish(sqe_dyn_filter *f, const sqe_value *v);
/* Refreshes b from f when f changed since b was copied (one atomic load
 * otherwise). Returns b->has: whether b holds a bound. */
bool sqe_dyn_filter_load(sqe_dyn_filter *f, sqe_dyn_bound *b);
void sqe_dyn_bound_free(sqe_dyn_bound *b);
/* a vs b (values of f->type, either NULL) in the key's sort order: < 0
 * when a sorts first. */
int sqe_dyn_filter_cmp(const sqe_dyn_filter *f, const sqe_value *a, const sqe_value *b);

/* What a reader needs to know about the table. */
typedef struct sqe_reader_spec {
    sqe_format_kind format;
    int n_table_cols;             /* data columns of the table, in declared order */
    const char *const *col_names; /* lower-case names */
    const sqe_type *col_types;
    int n_proj;                  /* columns wanted, as indexes into the table columns */
    const int *proj;             /* batch vector i holds table column proj[i] */
    sqe_text_options text;       /* SQE_FORMAT_TEXT */
    sqe_json_options json;       /* SQE_FORMAT_JSON */
    const sqe_format_pred *pred; /* NULL or a hint to skip data (see above) */
    sqe_dyn_filter *dyn;         /* NULL or a bound to skip data by (see above); not owned */
    /* NULL: sqe_readplan_defaults(store). How Parquet chunks and text/JSON
     * chunks are coalesced and read ahead (io.h, readplan.c). */
    const sqe_readplan_opts *io;
} sqe_reader_spec;

/* Counters a reader reports (EXPLAIN ANALYZE). */
typedef struct sqe_reader_stats {
    uint64_t bytes_read;
    uint64_t rows_read;
    uint64_t row_groups_total;      /* Parquet: row groups of the file (or range) considered */
    uint64_t row_groups_pruned;     /* Parquet: of those, skipped by statistics */
    uint64_t pages_pruned;          /* Parquet: data pages skipped by the page index */
    uint64_t row_groups_dyn_pruned; /* Parquet: row groups skipped (or left early) by spec->dyn */
} sqe_reader_stats;

/* One morsel of a file: a unit of parallel work. Text: the byte range
 * [start, end); Parquet: row groups [start, end). */
typedef struct sqe_file_range {
    uint64_t start, end;
} sqe_file_range;
typedef SQE_ARRAY(sqe_file_range) sqe_file_range_list;

typedef struct sqe_reader sqe_reader;

typedef struct sqe_reader_vtable {
    const char *name;
    /* path is a full URL/path in `store`; size from the listing. */
    sqe_reader *(*open)(sqe_store *store, const char *path, uint64_t size,
                        const sqe_reader_spec *spec, sqe_error *err);
    /* Fills `out` (n_proj vectors, reset by the caller) with the next rows;
     * sets *eof when no rows remain (a call may return 0 rows and eof). A
     * value that does not parse is an INVALID_DATA error naming file, line,
     * column and value. */
    bool (*next)(sqe_reader *r, sqe_batch *out, bool *eof, sqe_error *err);
    void (*close)(sqe_reader *r);
    /* Optional (NULL: a file is always one morsel read with `open`). Splits
     * one file of `size` bytes into morsels of about target_bytes each,
     * appended to `out` (malloc'd items; the caller frees). Appending none
     * means "read the whole file with `open`". Called under the scan's
     * listing lock, so it should not read more than a footer. */
    bool (*plan_morsels)(sqe_store *store, const char *path, uint64_t size,
                         const sqe_reader_spec *spec, uint64_t target_bytes,
                         sqe_file_range_list *out, sqe_error *err);
    /* Opens a reader on one morsel planned by plan_morsels. */
    sqe_reader *(*open_range)(sqe_store *store, const char *path, uint64_t size, uint64_t start,
                              uint64_t end, const sqe_reader_spec *spec, sqe_error *err);
} sqe_reader_vtable;

struct sqe_reader {
    const sqe_reader_vtable *vt;
    sqe_reader_stats stats;
};

/* ------------------------------------------------------ schema inference */

/* Columns inferred from one file, for the table functions read_csv,
 * read_json and read_parquet (SPEC §4.7). Names are lower-case, unique and
 * non-empty; memory in the caller's arena. */
typedef struct sqe_inferred_schema {
    int n_cols;
    const char **names;
    sqe_type *types;
} sqe_inferred_schema;

/* What inference may decide besides the columns (text only). */
typedef struct sqe_infer_options {
    int header;      /* in: -1 detect, 0 no header line, 1 one header line; out: 0 or 1 */
    bool delim_auto; /* detect the delimiter (spec->text.field_delim otherwise) */
} sqe_infer_options;

/* Infers the schema of `path` (size bytes) for spec->format, reading at
 * most the footer (Parquet) or the first megabyte (text, JSON). Text:
 * detects the delimiter (into spec->text.field_delim) and the header (into
 * opt->header) when asked; names come from the header
 * or are column0, column1, ...; types are the narrowest of BOOLEAN, BIGINT,
 * DOUBLE, DATE, TIMESTAMP, VARCHAR that every sampled value parses as.
 * NOT_SUPPORTED for formats without inference. */
bool sqe_format_infer_schema(sqe_store *store, const char *path, uint64_t size,
                             sqe_reader_spec *spec, sqe_infer_options *opt, sqe_arena *arena,
                             sqe_inferred_schema *out, sqe_error *err);
/* The Parquet half (format/parquet_reader.c): the footer's top-level flat
 * columns with the types they read as by default (nested ones left out). */
bool sqe_parquet_infer_schema(sqe_store *store, const char *path, uint64_t size, sqe_arena *arena,
                              sqe_inferred_schema *out, sqe_error *err);
/* The first bytes of a file for inference: at most max_bytes (of the
 * decompressed data when the name asks for a codec), a leading UTF-8 BOM
 * dropped. *whole when that is the entire file. Memory in arena. */
bool sqe_format_read_sample(sqe_store *store, const char *path, uint64_t size, size_t max_bytes,
                            sqe_arena *arena, const char **buf, size_t *len, bool *whole,
                            sqe_error *err);
/* The JSON half (format/json_infer.c). */
bool sqe_json_infer_schema(sqe_store *store, const char *path, uint64_t size, sqe_reader_spec *spec,
                           sqe_infer_options *opt, sqe_arena *arena, sqe_inferred_schema *out,
                           sqe_error *err);
/* The text half (format/text_infer.c). */
bool sqe_text_infer_schema(sqe_store *store, const char *path, uint64_t size, sqe_reader_spec *spec,
                           sqe_infer_options *opt, sqe_arena *arena, sqe_inferred_schema *out,
                           sqe_error *err);

/* The reader for a format, or NULL with NOT_SUPPORTED naming the format
 * (ORC, Avro, SequenceFile, RCFile; JSON and Parquet until they land). */
const sqe_reader_vtable *sqe_format_reader_for(sqe_format_kind kind, sqe_error *err);
const char *sqe_format_name(sqe_format_kind kind); /* "TEXTFILE", "PARQUET", ... */

/* Parquet reader (format/parquet_reader.c): binds columns by name, plans
 * morsels of whole row groups (open_range's [start, end) are row group
 * indexes), prunes row groups with spec->pred. */
extern const sqe_reader_vtable sqe_parquet_reader_vtable;

/* Text reader (format/text_reader.c). */
extern const sqe_reader_vtable sqe_text_reader_vtable;
/* Tuning/test hooks of the text reader, read when a reader is opened: bytes
 * per get_range (default 4 MiB) and the longest line (or OpenCSV record)
 * accepted before INVALID_DATA (default 64 MiB). Change only while no text
 * reader is being opened (tests lower them to cross chunk boundaries). */
extern size_t sqe_text_reader_chunk_size;
extern size_t sqe_text_reader_max_line;

/* JSON lines reader (format/json_reader.c): both JSON SerDes, options in
 * spec->json; splittable like LazySimple text (one record per line). */
extern const sqe_reader_vtable sqe_json_reader_vtable;

/* Byte-range splitting (SPEC §4.5). A splittable file may be read as
 * several ranges [start, end) by different readers: a range reader skips to
 * the first line starting after `start` (from the file's first byte when
 * start == 0) and reads every whole line that starts before `end`, reading
 * past `end` to finish the last one, so each line belongs to exactly one
 * range. Only LazySimpleSerDe text with '\n' lines and no header/footer
 * skipping, and JSON lines, are splittable (header/footer counts are per
 * file; OpenCSV quoted fields may hold newlines), and never a compressed
 * file (sqe_codec_for_path, or .xz). Errors of a range
 * reader name the line's byte offset in the file instead of its number:
 * "... in file 'F' at byte offset N, column 'c' (field k)". */
bool sqe_format_splittable(const sqe_reader_spec *spec, const char *path);
/* Morsels of one file for any format (appends none: read the whole file
 * with `open`): vt->plan_morsels when the format has one, else byte ranges
 * of target_bytes for a splittable text file (the text reader's vtable
 * stays without planning entries; format.c plans for it). target_bytes 0:
 * no splitting. */
bool sqe_format_plan_morsels(const sqe_reader_vtable *vt, sqe_store *store, const char *path,
                             uint64_t size, const sqe_reader_spec *spec, uint64_t target_bytes,
                             sqe_file_range_list *out, sqe_error *err);
/* Opens a reader of vt on a morsel planned by sqe_format_plan_morsels:
 * vt->open_range when present, else a byte range [start, end) of a
 * splittable text file; INTERNAL when the format or spec cannot be split. */
sqe_reader *sqe_format_open_range(const sqe_reader_vtable *vt, sqe_store *store, const char *path,
                                  uint64_t size, uint64_t start, uint64_t end,
                                  const sqe_reader_spec *spec, sqe_error *err);
sqe_reader *sqe_text_reader_open_range(sqe_store *store, const char *path, uint64_t size,
                                       uint64_t start, uint64_t end, const sqe_reader_spec *spec,
                                       sqe_error *err);

#endif
