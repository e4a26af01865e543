/*
 * json_infer.c - the columns of a JSON lines file, guessed from its first
 * objects, for read_json (SPEC §4.7).
 *
 * A sample of at most JI_SAMPLE_BYTES from the start of the file is cut
 * into lines (a line cut off by the end of the sample is dropped unless the
 * sample is the whole file), and each non-blank line is parsed with
 * jansson; at most JI_MAX_ROWS lines are looked at. Only top-level objects
 * count: a line that is not one is an error naming the line, since the
 * reader would reject it too.
 *
 * Columns are the keys in order of first appearance, lower-cased (names
 * bind case-insensitively, as the reader binds them); keys equal after
 * lower-casing are one column. A column's type is the narrowest that fits
 * every non-null value seen: BOOLEAN, BIGINT (integers), DOUBLE (integers
 * and reals), DATE or TIMESTAMP (strings that all parse as one), else
 * VARCHAR; objects and arrays make it VARCHAR (the reader returns their
 * JSON text), and a key that is only ever null is VARCHAR.
 */
#include "format/format.h"

#include <jansson.h>
#include <string.h>

#define JI_SAMPLE_BYTES ((size_t)1 << 20)
#define JI_MAX_ROWS 2048
#define JI_MAX_COLS 10000

/* What one column's values have been so far (bits). */
enum {
    JI_BOOL = 1,
    JI_INT = 2,
    JI_REAL = 4,
    JI_DATE = 8,       /* strings that parse as a date */
    JI_TIMESTAMP = 16, /* strings that parse as a timestamp */
    JI_STRING = 32,    /* any other string */
    JI_NESTED = 64,
};

typedef struct ji_col {
    const char *name;
    unsigned seen;
} ji_col;

static unsigned ji_kind(json_t *v) {
    switch (json_typeof(v)) {
    case JSON_TRUE:
    case JSON_FALSE:
        return JI_BOOL;
    case JSON_INTEGER:
        return JI_INT;
    case JSON_REAL:
        return JI_REAL;
    case JSON_STRING: {
        const char *s = json_string_value(v);
        size_t n = json_string_length(v);
        int32_t d;
        int64_t ts;
        if (sqe_parse_date(s, n, &d)) return JI_DATE;
        if (sqe_parse_timestamp(s, n, &ts)) return JI_TIMESTAMP;
        return JI_STRING;
    }
    case JSON_NULL:
        return 0;
    default:
        return JI_NESTED;
    }
}

static sqe_type ji_type(unsigned seen) {
    sqe_type_id id;
    if (seen == 0 || (seen & (JI_STRING | JI_NESTED)))
        id = SQE_T_VARCHAR;
    else if (seen == JI_BOOL)
        id = SQE_T_BOOLEAN;
    else if (seen == JI_INT)
        id = SQE_T_BIGINT;
    else if ((seen & ~(JI_INT | JI_REAL)) == 0)
        id = SQE_T_DOUBLE;
    else if (seen == JI_DATE)
        id = SQE_T_DATE;
    else if ((seen & ~(JI_DATE | JI_TIMESTAMP)) == 0)
        id = SQE_T_TIMESTAMP;
    else
        id = SQE_T_VARCHAR;
    return sqe_type_make(id);
}

typedef struct ji_state {
    sqe_arena *a;
    SQE_ARRAY(ji_col) cols;
} ji_state;

static bool ji_object(ji_state *st, json_t *obj, const char *path, uint64_t line, sqe_error *err) {
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v) {
        char *name = sqe_str_lower(sqe_arena_strdup(st->a, key));
        size_t c = 0;
        while (c < st->cols.len && strcmp(st->cols.items[c].name, name) != 0) c++;
        if (c == st->cols.len) {
            if (st->cols.len >= JI_MAX_COLS)
                return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                                     "cannot infer the columns of '%s': more than %d keys by line "
                                     "%llu",
                                     path, JI_MAX_COLS, (unsigned long long)line);
            ji_col col = {name, 0};
            SQE_ARRAY_PUSH(st->a, st->cols, col);
        }
        st->cols.items[c].seen |= ji_kind(v);
    }
    return true;
}

static bool ji_line(ji_state *st, const char *p, size_t n, const char *path, uint64_t line,
                    sqe_error *err) {
    while (n && (p[n - 1] == '\r' || p[n - 1] == ' ' || p[n - 1] == '\t')) n--;
    size_t i = 0;
    while (i < n && (p[i] == ' ' || p[i] == '\t')) i++;
    if (i == n) return true; /* blank */
    json_error_t je;
    json_t *v = json_loadb(p + i, n - i, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
    if (!v || !json_is_object(v)) {
        json_decref(v);
        return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                             "cannot infer the columns of '%s': line %llu is not a JSON object%s%s",
                             path, (unsigned long long)line, v ? "" : ": ", v ? "" : je.text);
    }
    bool ok = ji_object(st, v, path, line, err);
    json_decref(v);
    return ok;
}

bool sqe_json_infer_schema(sqe_store *store, const char *path, uint64_t size, sqe_reader_spec *spec,
                           sqe_infer_options *opt, sqe_arena *arena, sqe_inferred_schema *out,
                           sqe_error *err) {
    const char *buf;
    size_t got, pos = 0;
    bool whole;
    if (!sqe_format_read_sample(store, path, size, JI_SAMPLE_BYTES, arena, &buf, &got, &whole, err))
        return false;
    ji_state st = {.a = arena};
    uint64_t line = 0;
    for (int rows = 0; pos < got && rows < JI_MAX_ROWS; rows++) {
        const char *nl = memchr(buf + pos, '\n', got - pos);
        if (!nl && !whole) break;
        size_t end = nl ? (size_t)(nl - buf) : got;
        if (!ji_line(&st, buf + pos, end - pos, path, ++line, err)) return false;
        pos = end + 1;
    }
    if (st.cols.len == 0)
        return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                             "cannot infer the columns of '%s': no JSON object with keys in its "
                             "first %zu bytes (give them with columns => {'name': 'type', ...})",
                             path, got);
    out->n_cols = (int)st.cols.len;
    out->names = sqe_arena_alloc(arena, sizeof(char *) * st.cols.len);
    out->types = sqe_arena_alloc(arena, sizeof(sqe_type) * st.cols.len);
    for (size_t c = 0; c < st.cols.len; c++) {
        out->names[c] = st.cols.items[c].name;
        out->types[c] = ji_type(st.cols.items[c].seen);
    }
    SQE_UNUSED(spec);
    SQE_UNUSED(opt);
    return true;
}
