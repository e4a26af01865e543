/*
 * table_func.c - read_csv, read_json and read_parquet in FROM (SPEC §4.7).
 *
 *   SELECT * FROM read_csv('data/orders/part-?.csv', delim => '|', header => true)
 *   SELECT * FROM read_parquet('lake/orders/', hive_partitioning => true)
 *   SELECT * FROM read_json('events.json.gz', columns => {'id': 'BIGINT', 'ts': 'TIMESTAMP'})
 *
 * The first argument is the path: a file, a folder (every file below it)
 * or a glob (star, ?, [...] within a segment, two stars for any number of
 * folders); the rest are named options (`name => value`, or DuckDB's
 * `name = value`), each declared once in k_options with the functions
 * that take it and the kind of value it needs, so an unknown or misplaced
 * option is an error that lists the valid ones. Values must be constants.
 *
 * Planning: the files are listed once (hive/adhoc.c), the columns come
 * from `columns => {...}` or are inferred from the first file
 * (format/: sqe_format_infer_schema), and the result is an ad-hoc
 * sqe_hive_table scanned by an ordinary SCAN node, so filters, projection
 * pushdown, partition pruning and parallel reads work as for tables.
 *
 * CSV defaults follow DuckDB: quote '"' (doubled inside quotes), no
 * escape, the delimiter and header detected from the first lines, an
 * empty unquoted field is NULL.
 */
#include "plan_int.h"

#include <stdio.h>
#include <string.h>

enum {
    TF_CSV = 1,
    TF_JSON = 2,
    TF_PARQUET = 4,
};

typedef enum tf_value_kind { TF_STRING, TF_BOOL, TF_INT, TF_MAP } tf_value_kind;

typedef struct tf_opts {
    sqe_format_kind format;
    int header;       /* -1 detect */
    bool delim_auto;  /* no delim given */
    int hive_part;    /* -1 auto */
    bool auto_detect; /* infer columns when none are given */
    sqe_text_options text;
    int n_cols;
    const char **col_names;
    sqe_type *col_types;
} tf_opts;

typedef struct tf_option {
    const char *name;
    int funcs;
    tf_value_kind kind;
    bool (*apply)(planner *pl, tf_opts *o, const sqe_ast_func_arg *a, const sqe_value *v,
                  sqe_error *err);
} tf_option;

static bool tf_error(sqe_error *err, const sqe_ast_func_arg *a, const char *fmt, const char *s) {
    return sqe_bind_error(err, SQE_ERR_INVALID_ARGUMENT, a->pos, fmt, s);
}

/* A one-byte delimiter, quote or escape ("\t" spelled out is a tab). */
static bool tf_char(const sqe_ast_func_arg *a, const sqe_value *v, bool allow_empty, char *out,
                    sqe_error *err) {
    const char *p = v->v.s.ptr;
    uint32_t n = v->v.s.len;
    if (n == 2 && p[0] == '\\' && p[1] == 't') {
        *out = '\t';
        return true;
    }
    if (n == 0 && allow_empty) {
        *out = 0;
        return true;
    }
    if (n != 1 || p[0] == '\n' || p[0] == '\r')
        return tf_error(err, a, "option '%s' must be a single character (not a newline)",
                        a->name->name);
    *out = p[0];
    return true;
}

static bool tf_delim(planner *pl, tf_opts *o, const sqe_ast_func_arg *a, const sqe_value *v,
                     sqe_error *err) {
    o->delim_auto = false;
    return tf_char(a, v, false, &o->text.field_delim, err);
}
static bool tf_quote(planner *pl, tf_opts *o, const sqe_ast_func_arg *a, const sqe_value *v,
                     sqe_error *err) {
    return tf_char(a, v, true, &o->text.quote_char, err);
}
static bool tf_escape(planner *pl, tf_opts *o, const sqe_ast_func_arg *a, const sqe_value *v,
                      sqe_error *err) {
    return tf_char(a, v, true, &o->text.escape_char, err);
}
static bool tf_header(planner *pl, tf_opts *o, const sqe_ast_func_arg *a, const sqe_value *v,
                      sqe_error *err) {
    o->header = v->v.b ? 1 : 0;
    return true;
}
static bool tf_skip(planner *pl, tf_opts *o, const sqe_ast_func_arg *a, const sqe_value *v,
                    sqe_error *err) {
    if (v->v.i < 0 || v->v.i > 1000000)
        return tf_error(err, a, "option '%s' must be between 0 and 1000000", a->name->name);
    o->text.skip_header_lines += (uint32_t)v->v.i;
    return true;
}
static bool tf_nullstr(planner *pl, tf_opts *o, const sqe_ast_func_arg *a, const sqe_value *v,
                       sqe_error *err) {
    o->text.null_format = sqe_arena_strndup(pl->arena, v->v.s.ptr, v->v.s.len);
    return true;
}
static bool tf_hive(planner *pl, tf_opts *o, const sqe_ast_func_arg *a, const sqe_value *v,
                    sqe_error *err) {
    o->hive_part = v->v.b ? 1 : 0;
    return true;
}
static bool tf_auto(planner *pl, tf_opts *o, const sqe_ast_func_arg *a, const sqe_value *v,
                    sqe_error *err) {
    o->auto_detect = v->v.b;
    return true;
}
static bool tf_compression(planner *pl, tf_opts *o, const sqe_ast_func_arg *a, const sqe_value *v,
                           sqe_error *err) {
    if (v->v.s.len == 4 && memcmp(v->v.s.ptr, "auto", 4) == 0) return true;
    return sqe_bind_error(err, SQE_ERR_NOT_SUPPORTED, a->pos,
                          "option 'compression' only takes 'auto': the codec comes from the "
                          "file extension (.gz, .bz2, .zst, .lz4, .snappy, .deflate)");
}
static bool tf_json_format(planner *pl, tf_opts *o, const sqe_ast_func_arg *a, const sqe_value *v,
                           sqe_error *err) {
    const char *s = sqe_arena_strndup(pl->arena, v->v.s.ptr, v->v.s.len);
    if (!strcmp(s, "auto") || !strcmp(s, "newline_delimited")) return true;
    return sqe_bind_error(err, SQE_ERR_NOT_SUPPORTED, a->pos,
                          "read_json format '%s' is not supported: sqe reads JSON lines "
                          "(format => 'newline_delimited')",
                          s);
}
static bool tf_accept(planner *pl, tf_opts *o, const sqe_ast_func_arg *a, const sqe_value *v,
                      sqe_error *err) {
    return true; /* binary_as_string: BYTE_ARRAY already reads as VARCHAR */
}

static bool tf_columns(planner *pl, tf_opts *o, const sqe_ast_func_arg *a, const sqe_value *v,
                       sqe_error *err);

/* Every option, declared once. */
static const tf_option k_options[] = {
    {"delim", TF_CSV, TF_STRING, tf_delim},
    {"sep", TF_CSV, TF_STRING, tf_delim},
    {"delimiter", TF_CSV, TF_STRING, tf_delim},
    {"quote", TF_CSV, TF_STRING, tf_quote},
    {"escape", TF_CSV, TF_STRING, tf_escape},
    {"header", TF_CSV, TF_BOOL, tf_header},
    {"skip", TF_CSV, TF_INT, tf_skip},
    {"nullstr", TF_CSV, TF_STRING, tf_nullstr},
    {"columns", TF_CSV | TF_JSON, TF_MAP, tf_columns},
    {"auto_detect", TF_CSV | TF_JSON, TF_BOOL, tf_auto},
    {"compression", TF_CSV | TF_JSON, TF_STRING, tf_compression},
    {"format", TF_JSON, TF_STRING, tf_json_format},
    {"hive_partitioning", TF_CSV | TF_JSON | TF_PARQUET, TF_BOOL, tf_hive},
    {"binary_as_string", TF_PARQUET, TF_BOOL, tf_accept},
};

typedef struct tf_func {
    const char *name;
    int kind;
    sqe_format_kind format;
} tf_func;

static const tf_func k_funcs[] = {
    {"read_csv", TF_CSV, SQE_FORMAT_TEXT},
    {"read_csv_auto", TF_CSV, SQE_FORMAT_TEXT},
    {"read_json", TF_JSON, SQE_FORMAT_JSON},
    {"read_json_auto", TF_JSON, SQE_FORMAT_JSON},
    {"read_ndjson", TF_JSON, SQE_FORMAT_JSON},
    {"read_ndjson_auto", TF_JSON, SQE_FORMAT_JSON},
    {"read_parquet", TF_PARQUET, SQE_FORMAT_PARQUET},
    {"parquet_scan", TF_PARQUET, SQE_FORMAT_PARQUET},
};

/* A constant of the kind the option needs. */
static bool tf_const(planner *pl, const sqe_ast_expr *e, tf_value_kind kind, const char *what,
                     sqe_value *out, sqe_error *err) {
    bind_ctx cx = {.arena = pl->arena, .cat = pl->cat, .stmt = &pl->stmt, .clause = what};
    sqe_expr *b = sqe_bind_expr(&cx, e, err);
    if (!b) return false;
    sqe_type_id want = kind == TF_BOOL  ? SQE_T_BOOLEAN
                       : kind == TF_INT ? SQE_T_BIGINT
                                        : SQE_T_VARCHAR;
    bool ok = kind == TF_INT ? sqe_type_is_integer(b->type) : b->type.id == want;
    if (!ok || !sqe_expr_eval_const(b, pl->arena, out, err) || out->is_null) {
        static const char *const k_what[] = {"a string", "a boolean", "an integer", "a map"};
        return sqe_bind_error(err, SQE_ERR_TYPE_MISMATCH, e->pos, "%s must be %s constant", what,
                              k_what[kind]);
    }
    return true;
}

static bool tf_columns(planner *pl, tf_opts *o, const sqe_ast_func_arg *a, const sqe_value *v,
                       sqe_error *err) {
    o->n_cols = a->n_pairs;
    o->col_names = sqe_arena_alloc(pl->arena, sizeof(char *) * (size_t)a->n_pairs);
    o->col_types = sqe_arena_alloc(pl->arena, sizeof(sqe_type) * (size_t)a->n_pairs);
    for (int i = 0; i < a->n_pairs; i++) {
        sqe_value k, t;
        if (!tf_const(pl, a->keys[i], TF_STRING, "a column name in columns", &k, err) ||
            !tf_const(pl, a->vals[i], TF_STRING, "a column type in columns", &t, err))
            return false;
        char *name = sqe_str_lower(sqe_arena_strndup(pl->arena, k.v.s.ptr, k.v.s.len));
        if (!*name) return tf_error(err, a, "%s: empty column name in columns", "columns");
        for (int j = 0; j < i; j++)
            if (!strcmp(o->col_names[j], name))
                return sqe_bind_error(err, SQE_ERR_INVALID_ARGUMENT, a->keys[i]->pos,
                                      "column '%s' is given twice in columns", name);
        char *tname = sqe_arena_strndup(pl->arena, t.v.s.ptr, t.v.s.len);
        if (!sqe_type_parse(tname, &o->col_types[i], err))
            return sqe_error_prefix(err, "columns: column '%s': ", name);
        o->col_names[i] = name;
    }
    return true;
}

static bool tf_option_apply(planner *pl, const tf_func *fn, tf_opts *o, const sqe_ast_func_arg *a,
                            sqe_error *err) {
    const tf_option *opt = NULL;
    char *name = sqe_str_lower(sqe_arena_strdup(pl->arena, a->name->name));
    for (size_t i = 0; i < SQE_ARRAY_LEN(k_options) && !opt; i++)
        if (!strcmp(k_options[i].name, name) && (k_options[i].funcs & fn->kind))
            opt = &k_options[i];
    if (!opt) {
        char list[512];
        size_t n = 0;
        list[0] = 0;
        for (size_t i = 0; i < SQE_ARRAY_LEN(k_options); i++)
            if (k_options[i].funcs & fn->kind)
                n += (size_t)snprintf(list + n, sizeof list - SQE_MIN(n, sizeof list), "%s%s",
                                      n ? ", " : "", k_options[i].name);
        return sqe_bind_error(err, SQE_ERR_INVALID_ARGUMENT, a->pos,
                              "%s has no option '%s' (options: %s)", fn->name, name, list);
    }
    if ((opt->kind == TF_MAP) != (a->n_pairs > 0))
        return sqe_bind_error(err, SQE_ERR_TYPE_MISMATCH, a->pos,
                              opt->kind == TF_MAP ? "option '%s' takes a map {'name': 'type', ...}"
                                                  : "option '%s' does not take a map",
                              opt->name);
    sqe_value v = {0};
    char what[96];
    snprintf(what, sizeof what, "option '%s'", opt->name);
    if (opt->kind != TF_MAP && !tf_const(pl, a->value, opt->kind, what, &v, err)) return false;
    a->name->name = name;
    return opt->apply(pl, o, a, &v, err);
}

static void tf_defaults(const tf_func *fn, tf_opts *o) {
    memset(o, 0, sizeof *o);
    o->format = fn->format;
    o->header = -1;
    o->delim_auto = true;
    o->hive_part = -1;
    o->auto_detect = true;
    o->text.serde = SQE_SERDE_OPEN_CSV;
    o->text.field_delim = ',';
    o->text.quote_char = '"';
    o->text.line_delim = '\n';
    o->text.null_format = "";
}

/* Columns from the options or the first file; text detection also settles
 * the delimiter and header. */
static bool tf_schema(planner *pl, const tf_func *fn, tf_opts *o, sqe_store *store,
                      const sqe_hive_file *first, sqe_error *err) {
    sqe_reader_spec spec = {.format = o->format, .text = o->text};
    bool sniff = o->format == SQE_FORMAT_TEXT && o->auto_detect && (o->header < 0 || o->delim_auto);
    if (o->n_cols > 0 && !sniff) return true;
    if (o->n_cols == 0 && !o->auto_detect)
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                             "%s: auto_detect => false needs columns => {'name': 'type', ...}",
                             fn->name);
    sqe_infer_options io = {.header = o->header, .delim_auto = o->delim_auto};
    sqe_inferred_schema sch;
    if (!sqe_format_infer_schema(store, first->path, first->size, &spec, &io, pl->arena, &sch, err))
        return sqe_error_prefix(err, "%s: ", fn->name);
    o->text = spec.text;
    o->header = io.header;
    if (o->n_cols > 0) return true;
    o->n_cols = sch.n_cols;
    o->col_names = sch.names;
    o->col_types = sch.types;
    return true;
}

static const tf_func *tf_lookup(planner *pl, const sqe_ast_from *f, sqe_error *err) {
    const sqe_qname *qn = &f->u.func.name;
    char *name = sqe_str_lower(sqe_arena_strdup(pl->arena, qn->parts[qn->n_parts - 1].name));
    for (size_t i = 0; qn->n_parts == 1 && i < SQE_ARRAY_LEN(k_funcs); i++)
        if (!strcmp(k_funcs[i].name, name)) return &k_funcs[i];
    sqe_bind_error(err, SQE_ERR_NOT_FOUND, f->pos,
                   "table function '%s' does not exist (sqe has read_csv, read_json and "
                   "read_parquet)",
                   name);
    return NULL;
}

/* The path argument and the options. */
static const char *tf_args(planner *pl, const sqe_ast_from *f, const tf_func *fn, tf_opts *o,
                           sqe_error *err) {
    const char *path = NULL;
    for (int i = 0; i < f->u.func.n_args; i++) {
        const sqe_ast_func_arg *a = &f->u.func.args[i];
        if (a->name) {
            if (!tf_option_apply(pl, fn, o, a, err)) return NULL;
            continue;
        }
        if (path || a->n_pairs)
            return sqe_bind_error(err, SQE_ERR_INVALID_ARGUMENT, a->pos,
                                  "%s takes one path (a file, a folder or a glob) and named "
                                  "options (name => value)",
                                  fn->name),
                   NULL;
        sqe_value v;
        if (!tf_const(pl, a->value, TF_STRING, "the path", &v, err)) return NULL;
        path = sqe_arena_strndup(pl->arena, v.v.s.ptr, v.v.s.len);
    }
    if (!path)
        sqe_bind_error(err, SQE_ERR_INVALID_ARGUMENT, f->pos, "%s needs a path: %s('data/*.csv')",
                       fn->name, fn->name);
    return path;
}

sqe_plan *sqe_plan_table_function(planner *pl, const sqe_ast_from *f, scope *out_scope,
                                  sqe_error *err) {
    const tf_func *fn = tf_lookup(pl, f, err);
    if (!fn) return NULL;
    tf_opts o;
    tf_defaults(fn, &o);
    const char *path = tf_args(pl, f, fn, &o, err);
    if (!path) return NULL;
    sqe_io_registry *reg = pl->cat ? sqe_hive_catalog_registry(pl->cat) : NULL;
    sqe_store *store =
        reg ? sqe_io_registry_open(reg, path, NULL, err) : sqe_io_store_for_url(path, err);
    if (!store) return NULL;
    char *base = NULL;
    sqe_hive_file *files = NULL;
    size_t n_files = 0;
    bool ok = sqe_hive_adhoc_files(store, path, pl->arena, &base, &files, &n_files, err) &&
              tf_schema(pl, fn, &o, store, &files[0], err);
    sqe_store_free(store);
    if (!ok) return NULL;
    if (o.header == 1) o.text.skip_header_lines++;
    sqe_hive_adhoc_spec spec = {.name = fn->name,
                                .base = base,
                                .files = files,
                                .n_files = n_files,
                                .format = o.format,
                                .text = o.text,
                                .n_cols = o.n_cols,
                                .col_names = o.col_names,
                                .col_types = o.col_types,
                                .hive_partitioning = o.hive_part};
    sqe_hive_table *t = sqe_hive_adhoc_table(&spec, err);
    if (!t) return NULL;
    t->registry = reg;
    SQE_ARRAY_PUSH(NULL, pl->tables, t);
    sqe_plan *p =
        sqe_plan_scan_node(pl, t, sqe_arena_sprintf(pl->arena, "%s('%s')", fn->name, path));
    const char *qual =
        f->alias ? sqe_str_lower(sqe_arena_strdup(pl->arena, f->alias->name)) : fn->name;
    *out_scope = sqe_plan_scope_of(pl->arena, p, qual, NULL, NULL);
    return p;
}
