/*
 * hive_int.h - private to src/hive/: the catalog's state, the in-memory
 * manifest (the whole Glue TableInput shape, not just what the planner
 * needs), the SerDe/format tables and the helpers the files share.
 *
 * Files of the module:
 *   catalog.c     roots, current root/db, name resolution, sqe_hive_execute
 *   ddl.c         CREATE EXTERNAL TABLE AST -> hive_manifest (+ rejections)
 *   manifest.c    hive_manifest <-> JSON, full validation on load, storage
 *                 derivation (format + text options), SerDe/property checks
 *   show.c        SHOW CREATE TABLE rendering, DESCRIBE, SHOW ... results
 *   partitions.c  partition discovery, %XX, typing, pruning, file listing
 *   projection.c  partition projection (projection.* TBLPROPERTIES)
 *   escape.c      DDL string-literal escapes, delimiters, UTF-8, names
 */
#ifndef SQE_HIVE_INT_H
#define SQE_HIVE_INT_H

#include "hive/hive.h"

#include <jansson.h>

/* ------------------------------------------------------------ catalog */

typedef struct hive_root {
    char *name;                /* lower-case, [a-z0-9_]+ */
    char *url;                 /* as attached */
    sqe_store *store;          /* opened on first use (opening does no I/O); owned */
    sqe_io_registry *registry; /* the catalog's, borrowed */
} hive_root;

struct sqe_hive_catalog {
    sqe_hive_limits limits;
    SQE_ARRAY(hive_root) roots; /* malloc'd items */
    char *current_root;         /* NULL when none */
    char *current_db;           /* never NULL; "default" to start */
    sqe_io_registry *registry;  /* stores for roots and tables (the session's) */
    bool own_registry;          /* made by sqe_hive_catalog_new (no session) */
};

/* A resolved (root, database, table) triple. Strings malloc'd. */
typedef struct hive_name {
    hive_root *root; /* borrowed from the catalog */
    char *db;
    char *table; /* NULL for database-level names */
} hive_name;

void hive_name_free(hive_name *n);
/* "<root>/<db>/" (malloc'd) */
char *hive_db_url(const hive_root *r, const char *db);
/* "<root>/<db>/<table>.manifest.json" (malloc'd) */
char *hive_manifest_url(const hive_root *r, const char *db, const char *table);
/* The root's store, opened lazily. */
sqe_store *hive_root_store(hive_root *r, sqe_error *err);

/* ------------------------------------------------------------ manifest */

typedef struct hive_kv {
    char *key, *value; /* malloc'd, decoded (no SQL escapes), valid UTF-8 */
} hive_kv;

typedef SQE_ARRAY(hive_kv) hive_kv_list;

void hive_kv_list_free(hive_kv_list *l);
void hive_kv_list_add(hive_kv_list *l, const char *key, const char *value);
/* The value for key (exact match), or NULL. */
const char *hive_kv_get(const hive_kv_list *l, const char *key);

/* The whole manifest as sqe understands it. Every field malloc'd and owned
 * by the struct (hive_manifest_free). Derived fields are filled by
 * hive_manifest_validate. */
typedef struct hive_manifest {
    char *name;          /* table name */
    char *description;   /* table COMMENT, NULL if none */
    bool is_view;        /* TableType VIRTUAL_VIEW (else EXTERNAL_TABLE) */
    hive_kv_list params; /* Parameters (TBLPROPERTIES), in order */
    int n_cols;
    sqe_hive_column *cols;
    int n_part_keys;
    sqe_hive_column *part_keys;
    char *location; /* as declared; NULL only for views */
    char *input_format, *output_format;
    char *serde_class;
    hive_kv_list serde_params;
    char *view_original_text, *view_expanded_text; /* views only */
    json_t *extra; /* loaded manifests: the whole document (engine slots
                      and ignored Glue fields survive a rewrite); may be NULL */
    /* derived by hive_manifest_validate */
    sqe_format_kind format;
    sqe_text_options text; /* text.null_format points into serde_params, params or a literal */
} hive_manifest;

void hive_manifest_free(hive_manifest *m);

/* Checks everything that the CREATE path and the load path share: limits,
 * column/key shapes, SerDe allow-list and its SERDEPROPERTIES, the
 * input/output format pair, TBLPROPERTIES (incl. projection.*), and derives
 * `format` and `text`. `mpath` is the manifest path for load errors
 * ("manifest '<path>': <field>: ...") or NULL in the CREATE path. */
bool hive_manifest_validate(hive_manifest *m, const sqe_hive_limits *lim, const char *mpath,
                            sqe_error *err);

/* Loads, parses and validates <path>. `expect_name` is the table name the
 * file name implies. NOT_FOUND when the object does not exist (message from
 * the store; callers rephrase). */
bool hive_manifest_load(sqe_store *store, const char *path, const char *expect_name,
                        const sqe_hive_limits *lim, hive_manifest *out, sqe_error *err);
/* A local LOCATION in one absolute form (ddl.c): file:/abs and
 * file:///abs -> file:///abs, /abs unchanged; s3:// and other URLs copied. NULL with *why set for a
 * relative local path. malloc'd. */
char *hive_location_normalize(const char *loc, const char **why);
/* Serialises (JSON_INDENT(2) | JSON_PRESERVE_ORDER) and writes it with the
 * store's put_if_absent (create = true: ALREADY_EXISTS if the manifest
 * appeared meanwhile, so of concurrent CREATEs exactly one wins) or atomic
 * put (create = false). A serialised manifest larger than
 * lim->manifest_max_bytes is refused before writing (RESOURCE_EXHAUSTED
 * naming the limit and the size): it could never be loaded again. */
bool hive_manifest_store(sqe_store *store, const char *path, const hive_manifest *m,
                         const sqe_hive_limits *lim, bool create, sqe_error *err);
/* Read-modify-write of one table's manifest without lost updates (SPEC
 * §2.4; MSCK REPAIR, ALTER TABLE ADD/DROP PARTITION, ANALYZE): loads and
 * validates the manifest at `path` together with a version token of the
 * stored object, calls `mutate` on it (it may edit any field, Parameters,
 * or the engine slots "sqe.partition_index" / "sqe.statistics" in `extra`),
 * re-validates, and writes it only if the stored object is still the one
 * loaded (S3: PUT If-Match its ETag; local disk: the store's conditional
 * replace). When another writer got there first the whole cycle (load,
 * mutate, write) is retried a bounded number of times, then fails with a
 * conflict error naming the table and saying to retry. `mutate` returning
 * false aborts with its error and writes nothing; it may be called more
 * than once, so it must not have side effects outside `m` and its ctx.
 * (Implemented in manifest.c by the partition-index work.) */
typedef bool (*hive_manifest_mutate_fn)(hive_manifest *m, void *ctx, sqe_error *err);
bool hive_manifest_update(sqe_store *store, const char *path, const char *expect_name,
                          const sqe_hive_limits *lim, hive_manifest_mutate_fn mutate, void *ctx,
                          sqe_error *err);
/* The manifest as a JSON document (new reference). */
json_t *hive_manifest_to_json(const hive_manifest *m);

/* Builds the planner's view of a manifest (deep copies). */
sqe_hive_table *hive_table_from_manifest(const hive_manifest *m, const char *root, const char *db,
                                         const char *manifest_path);

/* ------------------------------------------------------------ formats */

/* A storage format: STORED AS keyword, its Hadoop classes and native SerDe. */
typedef struct hive_format_info {
    const char *stored_as; /* "TEXTFILE" ... */
    sqe_format_kind kind;  /* what the container reads as (TEXT for text-based ones) */
    const char *input_format, *output_format, *serde;
} hive_format_info;

typedef enum hive_serde_id {
    HIVE_SERDE_LAZY_SIMPLE = 0,
    HIVE_SERDE_OPEN_CSV,
    HIVE_SERDE_OPENX_JSON,
    HIVE_SERDE_HCAT_JSON,
    HIVE_SERDE_PARQUET,
    HIVE_SERDE_REGEX,
    HIVE_SERDE_ORC,
    HIVE_SERDE_AVRO,
    HIVE_SERDE_COLUMNAR,
    HIVE_SERDE_LAZY_BINARY_COLUMNAR,
    HIVE_SERDE__COUNT
} hive_serde_id;

typedef struct hive_serde_info {
    hive_serde_id id;
    const char *cls;
    /* the container family this SerDe belongs to: a row SerDe (text, CSV,
     * JSON, regex) goes with TEXTFILE (and SEQUENCEFILE); the others with
     * their own format */
    const char *family; /* "TEXTFILE", "PARQUET", "ORC", "AVRO", "RCFILE" */
} hive_serde_info;

extern const hive_format_info hive_formats[];
extern const size_t hive_n_formats;
/* By STORED AS keyword (case-insensitive) or NULL. */
const hive_format_info *hive_format_by_name(const char *stored_as);
/* By input format class (exact) or NULL. */
const hive_format_info *hive_format_by_input(const char *input_class);
/* By allow-listed class (exact, case-sensitive) or NULL. */
const hive_serde_info *hive_serde_by_class(const char *cls);
/* "org.apache...LazySimpleSerDe, ..." for error messages. */
const char *hive_serde_allow_list_text(void);
/* Whether a SerDe may sit in a container of `fmt` without overriding it. */
bool hive_serde_fits_format(const hive_serde_info *s, const hive_format_info *fmt);
/* The format a SerDe implies when it wins over STORED AS / has none. */
const hive_format_info *hive_serde_natural_format(const hive_serde_info *s);

#define HIVE_LAZY_SIMPLE_SERDE "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe"
#define HIVE_OPEN_CSV_SERDE "org.apache.hadoop.hive.serde2.OpenCSVSerde"
#define HIVE_REGEX_SERDE "org.apache.hadoop.hive.serde2.RegexSerDe"
#define HIVE_TEXT_INPUT "org.apache.hadoop.mapred.TextInputFormat"
#define HIVE_TEXT_OUTPUT "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat"

/* ------------------------------------------------------------ escapes */

/* Decodes a DDL string literal's escapes (Hive's unescapeSQLString rules:
 * \t \n \r \b \f \0 \Z \\ \' \", octal \ooo (1-3 digits), \uXXXX (UTF-8
 * encoded), \% and \_ kept with their backslash, any other \c -> c).
 * Returns a malloc'd string, or NULL with *why set (static text) when the
 * result holds a NUL byte or is not valid UTF-8. *out_len gets the length. */
char *hive_unescape(const char *raw, size_t *out_len, const char **why);
/* Renders a decoded value as the inside of a single-quoted DDL literal that
 * hive_unescape maps back to the same bytes (' as '', \ as \\, control
 * bytes as \t \n \r or 3-digit octal). Appends to sb. */
void hive_render_literal(sqe_strbuf *sb, const char *value);
bool hive_utf8_valid(const char *s, size_t n);
/* Raw bytes of a literal after escapes, no validity checks (delimiter
 * clauses check the byte before UTF-8). malloc'd; *n gets the length. */
char *hive_unescape_raw(const char *raw, size_t *n);

/* Interprets a stored LazySimpleSerDe delimiter value by Hive's rule: a
 * string that reads as a decimal number is that byte; otherwise exactly one
 * character. Returns false with a reason (for "<what> '<shown>': reason"). */
bool hive_delim_byte(const char *value, bool numeric_rule, unsigned char *out, char *why,
                     size_t why_len);
bool hive_delim_byte_n(const char *v, size_t n, bool numeric_rule, unsigned char *out, char *why,
                       size_t why_len);

/* Lower-cases a copy of name and checks [a-z0-9_]+. NULL when invalid. */
char *hive_fold_name(const char *name);
bool hive_name_valid(const char *s);
/* Longest names, in characters, as Hive's metastore allows: roots,
 * databases and tables 128, columns and partition keys 767. Longer names
 * are rejected naming the limit (a longer file name would fail later with
 * an OS error instead). */
#define HIVE_NAME_MAX 128
#define HIVE_COLUMN_NAME_MAX 767

/* Hive's FileUtils.escapePathName / unescapePathName for partition values. */
void hive_escape_path_value(sqe_strbuf *sb, const char *s, size_t n);
/* Decodes %XX in place-ish: writes to a new arena string. */
char *hive_unescape_path_value(sqe_arena *a, const char *s, size_t n, size_t *out_len);

/* partitions.c: a path (relative to a table folder) with a segment starting
 * with '_' or '.' (Hive's hidden files and folders). */
bool hive_path_hidden(const char *rel);

/* partitions.c: "int", "date", "varchar(10)", ... for messages. */
const char *hive_type_word(sqe_type t, char *buf, size_t n);
/* Types a decoded partition value v[0, n) by the key's type
 * (__HIVE_DEFAULT_PARTITION__ is NULL); false when it does not parse or
 * does not fit (VARCHAR(n)). VARCHAR values point at v. */
bool hive_part_value(const sqe_hive_column *key, const char *v, size_t n, sqe_value *out);
/* qsort_r order of partitions: typed values (NULLs last), then path. arg:
 * the int number of keys. */
int hive_partition_cmp(const void *pa, const void *pb, void *arg);

/* partidx.c: the partition index slot (SPEC §6). */
typedef struct hive_partidx hive_partidx;
/* Validates the slot of a loaded manifest (shape; an inline index is parsed
 * and typed in full). No slot: true. */
bool hive_partidx_check(const hive_manifest *m, const char *mpath, sqe_error *err);
/* The slot for sqe_hive_table.partidx (NULL when none); call after
 * hive_partidx_check. */
hive_partidx *hive_partidx_from_manifest(const hive_manifest *m, const char *manifest_path);
void hive_partidx_free(hive_partidx *ix);
/* DROP TABLE: deletes the separate index object the dropped manifest's
 * text references (SPEC §6.6), if any; failures only warn (the manifest
 * is gone, the object is unreachable garbage). */
void hive_partidx_drop_object(sqe_store *s, const char *manifest_path, const char *table,
                              const char *manifest_text, size_t len);
/* The partitions of an indexed table admitted by prune (unsorted). */
bool hive_partidx_partitions(const sqe_hive_table *t, const sqe_hive_prune *prune, sqe_arena *arena,
                             sqe_hive_partition **out, size_t *n_out, sqe_hive_part_stats *stats,
                             sqe_error *err);
/* MSCK REPAIR TABLE (result rows (partition, action) into *out) and ALTER
 * TABLE ADD/DROP PARTITION on table t: ms is the store of its manifest
 * (and of an external index object), ts the store of its LOCATION. */
bool hive_partidx_execute(const sqe_hive_limits *lim, sqe_store *ms, sqe_store *ts,
                          const sqe_hive_table *t, const sqe_ast_stmt *st, sqe_resultset **out,
                          sqe_error *err);

/* adhoc.c: the partitions of a read_csv & co table (files known), and its
 * release (from sqe_hive_table_free). */
typedef struct hive_adhoc hive_adhoc;
bool hive_adhoc_partitions(const sqe_hive_table *t, const sqe_hive_prune *prune, sqe_arena *arena,
                           sqe_hive_partition **out, size_t *n_out, sqe_error *err);
void hive_adhoc_free(hive_adhoc *h);

#define HIVE_DEFAULT_PARTITION "__HIVE_DEFAULT_PARTITION__"

/* ------------------------------------------------------------ ddl/show */

/* CREATE [EXTERNAL] TABLE -> manifest (everything but the name/location
 * resolution). Notices (SerDe overriding STORED AS) go to `notices`. */
bool hive_ddl_build(const sqe_ast_create_table *ct, const sqe_hive_limits *lim, hive_manifest *m,
                    sqe_strbuf *notices, sqe_error *err);

/* SHOW CREATE TABLE text for a manifest, name rendered `db`.`table`. */
char *hive_show_create(const hive_manifest *m, const char *db);

/* catalog.c: an attached root by name, or NULL. */
hive_root *hive_find_root(sqe_hive_catalog *cat, const char *name);

/* stats.c: the sqe.statistics slot. */
#define HIVE_STATS_SLOT "sqe.statistics"
/* Fills t->has_stats / stat_rows from m's slot (a malformed slot reads as
 * none: statistics only steer plans). */
void hive_stats_to_table(const hive_manifest *m, sqe_hive_table *t);
/* SHOW STATS FOR t (Trino's columns). */
sqe_resultset *hive_show_stats(const hive_manifest *m);
/* DESCRIBE FORMATTED: statistics rows appended to a DESCRIBE result. */
void hive_describe_stats(sqe_resultset *rs, const hive_manifest *m);

/* Result sets (column names as Trino spells them). */
sqe_resultset *hive_result_text(int n_cols, const char *const *names);
sqe_resultset *hive_describe(const hive_manifest *m);

/* ------------------------------------------------------------ projection */

/* Partition projection (projection.c, SPEC §7). A table with
 * 'projection.enabled'='true' gets its partitions from its properties. */
typedef struct hive_projection hive_projection;
/* The most partitions one query may project (Athena's limit), and the most
 * candidates the pruned walk may examine. */
#define HIVE_PROJECTION_MAX_PARTITIONS 1000000
#define HIVE_PROJECTION_MAX_VISITS 4000000
/* Parses and validates every projection value of a manifest (types,
 * ranges, formats, intervals, units, digits, enum values against the key
 * types, storage.location.template placeholders), naming the property;
 * `mpath` as in hive_manifest_validate. *out is NULL when projection is not
 * enabled. Free with hive_projection_free. */
bool hive_projection_build(const hive_manifest *m, const char *mpath, hive_projection **out,
                           sqe_error *err);
void hive_projection_free(hive_projection *p);
/* The projected partitions of `t` that `prune` admits (NOW evaluated now,
 * UTC), sorted by values; memory in `arena`. Lists nothing. stats (may be
 * NULL): considered = complete candidates built, pruned = candidates at any
 * level the predicate rejected (steps the key bounds cut off are never
 * built and not counted), lists = 0. USAGE when an
 * injected key has no = / IN constant; RESOURCE_EXHAUSTED over the limits. */
bool hive_projection_partitions(const hive_projection *p, const sqe_hive_table *t,
                                const sqe_hive_prune *prune, sqe_arena *arena,
                                sqe_hive_partition **out, size_t *n_out, sqe_hive_part_stats *stats,
                                sqe_error *err);
/* manifest.c: the table's projection (NULL when none). */
const hive_projection *hive_table_projection(const sqe_hive_table *t);

#endif
