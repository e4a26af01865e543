/*
 * hive.h - layer 4: warehouse roots, manifests, Athena DDL to manifest, the
 * catalog statements, and partition discovery.
 *
 * A catalog (sqe_hive_catalog) is session-scoped: the attached roots and the
 * current root/database (USE). Tables are resolved by loading and fully
 * validating their manifest on each resolution (no cache yet). Everything
 * DDL-shaped (ATTACH .. SHOW ..) goes through sqe_hive_execute, which returns
 * a result set for SHOW/DESCRIBE and a status line for the rest.
 *
 * Naming: root, database and table names fold to lower case (SPEC §2.5) and
 * must match [a-z0-9_]+. The default database is "default". The first root
 * attached becomes the current root when none is set.
 */
#ifndef SQE_HIVE_H
#define SQE_HIVE_H

#include "format/format.h"
#include "sql/sql.h"

/* The session's default catalog name; a root may not be attached under it,
 * nor under the built-in "system" and "information_schema" (SPEC §1.3). */
#define SQE_DEFAULT_CATALOG "sqe"
#define SQE_DEFAULT_DATABASE "default"

typedef struct sqe_hive_limits {
    size_t manifest_max_bytes;       /* default 1 MiB */
    int manifest_max_columns;        /* default 4096 */
    int manifest_max_partition_keys; /* default 32 */
} sqe_hive_limits;

typedef struct sqe_hive_catalog sqe_hive_catalog;

/* limits may be NULL for the defaults. Owned by the caller (the session). */
sqe_hive_catalog *sqe_hive_catalog_new(const sqe_hive_limits *limits);
void sqe_hive_catalog_free(sqe_hive_catalog *cat);
/* Makes the catalog use `reg` (borrowed; the session's) for every store
 * instead of the one it made for itself from the process environment. Call
 * before attaching roots. */
void sqe_hive_catalog_set_registry(sqe_hive_catalog *cat, struct sqe_io_registry *reg);
struct sqe_io_registry *sqe_hive_catalog_registry(sqe_hive_catalog *cat);
/* Forgets the roots' cached stores, so that the next use opens them again
 * from the registry (after CREATE/DROP SECRET changed which secret's SCOPE
 * covers a root). */
void sqe_hive_catalog_reset_stores(sqe_hive_catalog *cat);
/* ATTACH: type NULL means hive_external. Checks the URL syntax only (lists
 * and reads nothing). Errors: TYPE hive (explained), unknown TYPE, name
 * collisions (another root, system, information_schema, SQE_DEFAULT_CATALOG),
 * invalid name, bad URL. */
bool sqe_hive_attach(sqe_hive_catalog *cat, const char *name, const char *url, const char *type,
                     sqe_error *err);
/* Parses "name=URL" (the --hive-root flag) and attaches it. */
bool sqe_hive_attach_spec(sqe_hive_catalog *cat, const char *spec, sqe_error *err);

/* Runs a catalog statement: ATTACH, DETACH, CREATE DATABASE|SCHEMA, DROP
 * DATABASE, CREATE TABLE (every form: accepted as an external table or
 * rejected by name), DROP TABLE, SHOW CREATE TABLE, SHOW TABLES, SHOW
 * DATABASES, SHOW COLUMNS, SHOW PARTITIONS, DESCRIBE, USE.
 * On success: *out is a result set (SHOW/DESCRIBE) or NULL; *status is a
 * static status word ("CREATE EXTERNAL TABLE", "DROP TABLE", "ATTACH", ...);
 * warnings (e.g. SerDe overriding STORED AS) are appended to `notices` one
 * per line. */
bool sqe_hive_execute(sqe_hive_catalog *cat, const sqe_ast_stmt *stmt, sqe_resultset **out,
                      const char **status, sqe_strbuf *notices, sqe_error *err);

/* ------------------------------------------------------- resolved tables */

typedef struct sqe_hive_column {
    char *name; /* lower-case */
    sqe_type type;
    char *comment; /* NULL if none */
} sqe_hive_column;

/* A loaded, validated table definition. Everything malloc'd; owned by the
 * caller of sqe_hive_resolve_table, freed by sqe_hive_table_free. */
typedef struct sqe_hive_table {
    char *root, *database, *name; /* lower-case */
    char *manifest_path;
    char *location; /* as declared, with a trailing '/' */
    int n_cols;
    sqe_hive_column *cols; /* data columns in declared order */
    int n_part_keys;
    sqe_hive_column *part_keys; /* partition keys in PARTITIONED BY order */
    sqe_format_kind format;
    char *serde_class, *input_format, *output_format;
    sqe_text_options text;  /* decoded when format == SQE_FORMAT_TEXT */
    char *text_null_format; /* owns text.null_format */
    sqe_json_options json;  /* decoded when format == SQE_FORMAT_JSON */
    char **json_map_cols;   /* own json.mapping_cols / mapping_keys (json.n_mappings each) */
    char **json_map_keys;
    bool is_view;
    char *view_original_text; /* VIRTUAL_VIEW: ViewOriginalText as stored; else NULL */
    struct hive_adhoc *adhoc; /* read_csv & co: the files, listed at plan time (adhoc.c) */
    char *secret;             /* TBLPROPERTIES 'sqe.secret' (a CREATE SECRET name), NULL if none */
    /* Where the table's store comes from: the catalog's registry (borrowed;
     * the session outlives its statements). NULL: a fresh local store. */
    struct sqe_io_registry *registry;
    /* From the manifest's sqe.statistics slot (ANALYZE, SPEC §8; stats.c):
     * the table's row count when has_stats. Advisory: plans only. */
    bool has_stats;
    uint64_t stat_rows;
    /* The manifest's partition index slot (SPEC §6; partidx.c), NULL when
     * the table has none and is read by listing. */
    struct hive_partidx *partidx;
} sqe_hive_table;

/* The store serving the table's LOCATION: from its registry with its
 * sqe.secret. Release with sqe_store_free. */
sqe_store *sqe_hive_table_store(const sqe_hive_table *t, sqe_error *err);

/* Resolves a table name of 1-3 parts (table | db.table | root.db.table)
 * against the current root and database; loads and validates the manifest.
 * NOT_FOUND names what is missing (root, database or table) and how to fix
 * it (e.g. "no current root: ATTACH one or use root.db.table"). */
sqe_hive_table *sqe_hive_resolve_table(sqe_hive_catalog *cat, int n_parts, const char *const *parts,
                                       sqe_error *err);
void sqe_hive_table_free(sqe_hive_table *t);

/* ------------------------------------------------------- partitions */

/* One partition (or, for an unpartitioned table, the table location). */
typedef struct sqe_hive_file sqe_hive_file;
typedef struct sqe_hive_partition {
    char *path;        /* folder URL/path with trailing '/' */
    sqe_value *values; /* n_part_keys typed values (is_null for __HIVE_DEFAULT_PARTITION__);
                          VARCHAR values point into the arena */
    const sqe_hive_file *files; /* non-NULL: exactly these files (read_csv & co), no listing */
    size_t n_files;
    const char *name; /* from the partition index: its `k=v/k2=v2` name (Hive-escaped);
                         NULL from a listing */
} sqe_hive_partition;

/* A predicate over partition key values (SPEC §6.4), derived by the
 * planner from the WHERE conjuncts that read only partition keys: terms
 * (key = / <> / < / <= / > / >= constant, IN, IS [NOT] NULL) under AND and
 * OR. It is a hint, like sqe_format_pred: the scan's partition filter
 * re-checks every partition it is given, so a partition source (listing,
 * index, projection) may only drop partitions for which the predicate is
 * false, and parts of the WHERE clause it cannot express are left out
 * (an AND drops them, an OR with one is not derived at all). */
typedef enum sqe_hive_ppred_kind {
    SQE_HIVE_PP_TERM = 0,
    SQE_HIVE_PP_AND,
    SQE_HIVE_PP_OR,
} sqe_hive_ppred_kind;

typedef struct sqe_hive_ppred {
    sqe_hive_ppred_kind kind;
    /* TERM: term.col is the partition key's index (PARTITIONED BY order);
     * term.vals are non-NULL values of exactly the key's type. */
    sqe_fpred_term term;
    int n_kids; /* AND / OR: >= 2 */
    const struct sqe_hive_ppred *const *kids;
} sqe_hive_ppred;

typedef struct sqe_hive_prune {
    const sqe_hive_ppred *pred; /* never NULL in a prune the planner made */
} sqe_hive_prune;

/* Can a partition whose first n_known key values are vals[0..n_known)
 * satisfy the predicate? False only when none can (terms on keys not yet
 * known count as possibly true; a comparison with a NULL value is false,
 * as in SQL). prune NULL: true. Used per level while listing, per entry of
 * the partition index, per candidate of a projection (prune.c). */
bool sqe_hive_prune_admits(const sqe_hive_prune *prune, const sqe_value *vals, int n_known);

/* Conservative bounds the predicate puts on key `key`, for sources that
 * enumerate values (projection) instead of filtering existing ones: every
 * non-NULL value v the predicate admits satisfies lo <= v <= hi (strictly
 * when the *_incl flag is false) for each bound that is present. *null_ok
 * is false when the predicate rejects a NULL value of the key. Returns false
 * when the predicate admits nothing at all for the key (k < 1 AND k > 5);
 * `k IS NULL` gives empty with null_ok. */
typedef struct sqe_hive_key_bounds {
    bool empty; /* no non-NULL value is admitted (lo/hi meaningless) */
    bool has_lo, lo_incl, has_hi, hi_incl, null_ok;
    sqe_value lo, hi;
} sqe_hive_key_bounds;
bool sqe_hive_prune_key_bounds(const sqe_hive_prune *prune, int key, sqe_hive_key_bounds *out);

/* Whether the table's partitions come from partition projection
 * (TBLPROPERTIES 'projection.enabled'='true', SPEC §7): then
 * sqe_hive_list_partitions computes them from the properties and lists
 * nothing (EXPLAIN shows partitions=projection). */
bool sqe_hive_table_projected(const sqe_hive_table *t);

/* The partitions of a table. With a partition index (t->partidx, SPEC
 * §6.4) they come from the index alone: every entry typed and kept when
 * prune admits it, nothing under LOCATION listed, `name` set; a partition
 * whose folder vanished is still returned (its listing finds no files).
 * For a projected table they are computed from its properties (SPEC §7,
 * projection.c). Otherwise:
 * Discovers partitions by listing LOCATION (SPEC §4.6, §6.4 no-index path):
 * k=v segments in PARTITIONED BY order, key names matched
 * case-insensitively, %XX decoded, values typed by the key type,
 * __HIVE_DEFAULT_PARTITION__ as NULL; names starting with '_' or '.' are
 * skipped. A value that does not parse as its key type, or a folder that is
 * not `<key>=<value>` for the expected key, fails naming the path segment.
 * With `prune`, a level is listed once and only folders whose typed value
 * satisfies the key's constraint are descended into (a folder's spelling may
 * differ from the literal: `DT=x`, `New%20York`), so unconstrained deeper
 * levels of pruned partitions are never listed.
 * Results are sorted by partition values ascending (NULLs last). An
 * unpartitioned table yields exactly one partition: its location. Memory in
 * `arena`. */
bool sqe_hive_list_partitions(sqe_store *store, const sqe_hive_table *t,
                              const sqe_hive_prune *prune, sqe_arena *arena,
                              sqe_hive_partition **out, size_t *n_out, sqe_error *err);

/* What partition discovery did (EXPLAIN ANALYZE): where the partitions
 * came from ("listing", "index" or "projection"), how many complete
 * partitions were considered (index entries; folders at the last key level;
 * projected candidates built) and how many of
 * those (or of the folders at upper levels, each counting once) the
 * predicate pruned, and the LIST requests it made. */
typedef struct sqe_hive_part_stats {
    const char *source;
    uint64_t considered, pruned, lists;
} sqe_hive_part_stats;
/* sqe_hive_list_partitions with its statistics (stats may be NULL). With a
 * partition index (SPEC §6.4) the partitions come from the index only,
 * pruned entry by entry, and nothing under LOCATION is listed. A projected
 * table (SPEC §7) uses its projection, even when it also has an index. */
bool sqe_hive_list_partitions_stats(sqe_store *store, const sqe_hive_table *t,
                                    const sqe_hive_prune *prune, sqe_arena *arena,
                                    sqe_hive_partition **out, size_t *n_out,
                                    sqe_hive_part_stats *stats, sqe_error *err);

struct sqe_hive_file {
    char *path;
    uint64_t size;
};

/* Lists the data files of one partition folder, recursively, skipping names
 * starting with '_' or '.' at every level and empty files. Sorted by path.
 * A folder that does not exist yields no files. Memory in `arena`. */
bool sqe_hive_list_files(sqe_store *store, const char *folder, sqe_arena *arena,
                         sqe_hive_file **out, size_t *n_out, sqe_error *err);

/* The files of one partition: its explicit list, else a listing of its
 * folder (sqe_hive_list_files). */
bool sqe_hive_partition_files(sqe_store *store, const sqe_hive_partition *p, sqe_arena *arena,
                              sqe_hive_file **out, size_t *n_out, sqe_error *err);

/* ------------------------------------------ ad-hoc tables (adhoc.c, SPEC §4.7) */

/* The files a table function names: `pattern` is a file, a folder (every
 * file below it, as a table LOCATION) or a glob (`*`, `?`, `[...]` within a
 * path segment, `**` for any number of segments). *base gets the folder
 * the files are relative to (with a trailing '/'). Sorted by path; hidden
 * names ('_', '.') are skipped below the base. NOT_FOUND naming the
 * pattern when nothing matches. Memory in `arena`. */
bool sqe_hive_adhoc_files(sqe_store *store, const char *pattern, sqe_arena *arena, char **base,
                          sqe_hive_file **files, size_t *n_files, sqe_error *err);

typedef struct sqe_hive_adhoc_spec {
    const char *name; /* table name shown in EXPLAIN and errors ("read_csv") */
    const char *base; /* from sqe_hive_adhoc_files */
    const sqe_hive_file *files;
    size_t n_files;
    sqe_format_kind format;
    sqe_text_options text; /* TEXT; null_format copied */
    int n_cols;
    const char *const *col_names; /* lower-case */
    const sqe_type *col_types;
    int hive_partitioning; /* -1: when every file path has the same k=v folders; 0: no; 1: yes */
} sqe_hive_adhoc_spec;

/* A table over exactly spec->files. With hive partitioning, the k=v folder
 * segments between the base and each file become partition keys (after the
 * columns), typed BIGINT, DATE or VARCHAR by what all their values parse
 * as; a key named like a column is an error naming both. */
sqe_hive_table *sqe_hive_adhoc_table(const sqe_hive_adhoc_spec *spec, sqe_error *err);

/* Builds the reader spec's text options etc. for a table. */
void sqe_hive_reader_spec(const sqe_hive_table *t, sqe_reader_spec *spec);

/* ------------------------------------------------------- additions (hive module) */

/* Whether the planner may build a scan of `t`: fails with NOT_SUPPORTED for
 * views, RegexSerDe tables ("RegexSerDe tables are not readable yet") and
 * the recorded-only formats ORC, AVRO, SEQUENCEFILE, RCFILE (naming the
 * format and its InputFormat class). Call before sqe_hive_reader_spec.
 * Partition projection (projection.* TBLPROPERTIES) is applied by
 * sqe_hive_list_partitions. */
bool sqe_hive_check_readable(const sqe_hive_table *t, sqe_error *err);

/* Session state, for the engine and information_schema. The current root is
 * NULL when none; the current database is never NULL. Strings are owned by
 * the catalog and valid until the next statement that changes them. */
const char *sqe_hive_current_root(const sqe_hive_catalog *cat);
const char *sqe_hive_current_database(const sqe_hive_catalog *cat);
int sqe_hive_root_count(const sqe_hive_catalog *cat);
const char *sqe_hive_root_name(const sqe_hive_catalog *cat, int i); /* attach order */
const char *sqe_hive_root_url(const sqe_hive_catalog *cat, int i);

/* Note on sqe_hive_reader_spec: col_names/col_types point into arrays owned
 * by the table, so it only accepts tables returned by
 * sqe_hive_resolve_table (not a caller-built sqe_hive_table). */

/* ------------------------------------------------------ statistics (stats.c) */

/* One column's statistics as ANALYZE computed them (SPEC §8). */
typedef struct sqe_hive_col_stats {
    const char *name;      /* column or partition key (lower-case) */
    uint64_t nulls;        /* rows where it is NULL */
    bool has_distinct;     /* distinct estimate known */
    uint64_t distinct;     /* distinct non-NULL values (estimate) */
    const char *min, *max; /* as text; NULL: not orderable, too long or all NULL */
} sqe_hive_col_stats;

typedef struct sqe_hive_stats_part {
    const char *const *values; /* n_part_keys key values as text, NULL for a NULL key */
    uint64_t rows;
    const sqe_hive_col_stats *cols; /* n_cols of sqe_hive_stats, same order */
} sqe_hive_stats_part;

typedef struct sqe_hive_stats {
    uint64_t rows;
    int n_cols;
    const sqe_hive_col_stats *cols;
    size_t n_parts; /* per partition (partitioned tables) */
    const sqe_hive_stats_part *parts;
    /* FOR COLUMNS: statistics of columns not named here are kept (at the
     * table level) from the slot written before */
    bool merge;
} sqe_hive_stats;

/* Writes the sqe.statistics slot of table t's manifest (a read-modify-
 * write with compare-and-swap, hive_manifest_update). When the manifest
 * with per-partition statistics would exceed manifest_max_bytes, they are
 * left out and *dropped_parts is set (the table-level ones always fit
 * unless the table has thousands of columns). */
bool sqe_hive_store_statistics(sqe_hive_catalog *cat, const sqe_hive_table *t,
                               const sqe_hive_stats *stats, bool *dropped_parts, sqe_error *err);

/* ------------------------------------------------------ enumeration */

/* Databases of an attached root that exist (SPEC §2.1), sorted. Names are
 * copied into `arena`. NOT_FOUND when the root is not attached. */
bool sqe_hive_list_databases(sqe_hive_catalog *cat, const char *root, sqe_arena *arena,
                             char ***names, size_t *n, sqe_error *err);
/* Tables (manifests with valid names) of root.db, sorted; a missing
 * database lists nothing. Names are copied into `arena`. */
bool sqe_hive_list_tables(sqe_hive_catalog *cat, const char *root, const char *db, sqe_arena *arena,
                          char ***names, size_t *n, sqe_error *err);

#endif
