/*
 * json_func.c - Trino's JSON functions over VARCHAR: json_extract,
 * json_extract_scalar, json_parse, json_format, json_size,
 * json_array_length, json_array_contains, json_array_get, is_json_scalar,
 * the basic two-argument json_value / json_query, and json_exists.
 *
 * sqe has no JSON type: a JSON value is VARCHAR holding JSON text, and
 * functions that return JSON in Trino (json_extract, json_parse,
 * json_array_get, json_query) return it as compact text (whitespace
 * between tokens dropped; scalars keep their spelling). json_parse also
 * canonicalizes as Trino does: object members sorted by key, the last of
 * duplicate keys kept (Trino's Jackson would also respell numbers such as
 * 1.5e3 as 1500.0; sqe keeps them as written).
 *
 * Scanning. No tree is built: a small bounded scanner (js_*) walks the
 * text, and a path lookup skips every member and element that is not on
 * the path, stopping as soon as the value is found (so json_extract_scalar
 * reads only the prefix of a document it needs, as Trino's streaming
 * extractor does; what follows the value is not validated). Nesting is
 * limited to JS_MAX_DEPTH levels; every read is bounded by the value's
 * end. Malformed JSON on the way to the value gives NULL (json_extract*,
 * json_size, json_array_*) or an error naming the function
 * (json_parse, json_format, is_json_scalar).
 *
 * Paths (Trino's JSONPath subset for json_extract): $ then any of .key,
 * ["key"] / ['key'] / [key] and [index]; wildcards, filters and recursive descent
 * are rejected as invalid paths. A constant path is parsed once at bind
 * time (a bad one is a plan-time error); a per-row path is parsed per row.
 * json_value / json_query / json_exists accept an optional 'lax ' /
 * 'strict ' mode prefix and ."quoted" keys; both modes behave as lax for a
 * missing member (empty). Their SQL/JSON clauses (RETURNING, ON EMPTY, ON
 * ERROR, wrappers, quotes) are rewritten by the parser (sql/parse_json.c)
 * over these functions; json_exists' third argument is its ON ERROR
 * behaviour ('false' by default, 'true', 'unknown' = NULL, 'error').
 */
#include "func/func_int.h"

#include <stdio.h>
#include <stdlib.h>

#define JS_MAX_DEPTH 1000
#define JS_MAX_STEPS 256

typedef struct js_step {
    bool is_index;
    int64_t index;
    const char *key;
    size_t klen;
} js_step;

typedef struct js_path {
    int n;
    js_step *steps;
} js_path;

/* ------------------------------------------------------------ scanner */

static inline const char *js_ws(const char *p, const char *e) {
    while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    return p;
}

/* p at '"'; returns just past the closing quote, or NULL. */
static const char *js_skip_string(const char *p, const char *e) {
    for (p++; p < e; p++) {
        if (*p == '\\')
            p++;
        else if (*p == '"')
            return p + 1;
    }
    return NULL;
}

static const char *js_skip_number(const char *p, const char *e) {
    const char *s = p;
    bool digit = false;
    if (p < e && *p == '-') p++;
    while (p < e && ((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' || *p == 'E' ||
                     ((*p == '+' || *p == '-') && p > s && (p[-1] == 'e' || p[-1] == 'E')))) {
        digit |= *p >= '0' && *p <= '9';
        p++;
    }
    return digit && p > s ? p : NULL;
}

static const char *js_skip_value(const char *p, const char *e, int depth);

/* p at '{' or '['; returns past the closing bracket, or NULL. */
static const char *js_skip_container(const char *p, const char *e, int depth) {
    bool obj = *p == '{';
    char close = obj ? '}' : ']';
    if (depth >= JS_MAX_DEPTH) return NULL;
    p = js_ws(p + 1, e);
    if (p < e && *p == close) return p + 1;
    for (;;) {
        if (obj) {
            if (p >= e || *p != '"' || !(p = js_skip_string(p, e))) return NULL;
            p = js_ws(p, e);
            if (p >= e || *p != ':') return NULL;
            p = js_ws(p + 1, e);
        }
        if (!(p = js_skip_value(p, e, depth + 1))) return NULL;
        p = js_ws(p, e);
        if (p < e && *p == close) return p + 1;
        if (p >= e || *p != ',') return NULL;
        p = js_ws(p + 1, e);
    }
}

/* p at the first byte of a value (no whitespace); returns past it, or NULL. */
static const char *js_skip_value(const char *p, const char *e, int depth) {
    if (p >= e) return NULL;
    switch (*p) {
    case '"':
        return js_skip_string(p, e);
    case '{':
    case '[':
        return js_skip_container(p, e, depth);
    case 't':
        return e - p >= 4 && memcmp(p, "true", 4) == 0 ? p + 4 : NULL;
    case 'f':
        return e - p >= 5 && memcmp(p, "false", 5) == 0 ? p + 5 : NULL;
    case 'n':
        return e - p >= 4 && memcmp(p, "null", 4) == 0 ? p + 4 : NULL;
    default:
        return js_skip_number(p, e);
    }
}

/* The whole text is one JSON value (surrounding whitespace allowed);
 * [*vs, *ve) gets it. */
static bool js_whole(const char *p, size_t n, const char **vs, const char **ve) {
    const char *e = p + n;
    *vs = js_ws(p, e);
    *ve = js_skip_value(*vs, e, 0);
    return *ve && js_ws(*ve, e) == e;
}

/* Appends a validated value with whitespace outside strings dropped. */
static void js_compact(sqe_strbuf *sb, const char *p, const char *e) {
    while (p < e) {
        if (*p == '"') {
            const char *q = js_skip_string(p, e);
            sqe_strbuf_append(sb, p, (size_t)(q - p));
            p = q;
            continue;
        }
        if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') sqe_strbuf_putc(sb, *p);
        p++;
    }
}

static int js_hex4(const char *p) {
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= c - '0';
        else if (c >= 'a' && c <= 'f')
            v |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            v |= c - 'A' + 10;
        else
            return -1;
    }
    return v;
}

static void js_put_cp(sqe_strbuf *sb, uint32_t cp) {
    char b[4];
    int n;
    if (cp < 0x80)
        b[0] = (char)cp, n = 1;
    else if (cp < 0x800)
        b[0] = (char)(0xC0 | cp >> 6), b[1] = (char)(0x80 | (cp & 63)), n = 2;
    else if (cp < 0x10000)
        b[0] = (char)(0xE0 | cp >> 12), b[1] = (char)(0x80 | ((cp >> 6) & 63)),
        b[2] = (char)(0x80 | (cp & 63)), n = 3;
    else
        b[0] = (char)(0xF0 | cp >> 18), b[1] = (char)(0x80 | ((cp >> 12) & 63)),
        b[2] = (char)(0x80 | ((cp >> 6) & 63)), b[3] = (char)(0x80 | (cp & 63)), n = 4;
    sqe_strbuf_append(sb, b, (size_t)n);
}

/* Decodes the string token [p, e) (quotes included) into sb; false when
 * an escape is malformed. */
static bool js_unescape(sqe_strbuf *sb, const char *p, const char *e) {
    p++, e--;
    while (p < e) {
        const char *bs = memchr(p, '\\', (size_t)(e - p));
        if (!bs) {
            sqe_strbuf_append(sb, p, (size_t)(e - p));
            return true;
        }
        sqe_strbuf_append(sb, p, (size_t)(bs - p));
        if (bs + 1 >= e) return false;
        char c = bs[1];
        p = bs + 2;
        const char *simple = strchr("\"\\/bfnrt", c);
        if (simple && c) {
            static const char map[] = "\"\\/\b\f\n\r\t";
            sqe_strbuf_putc(sb, map[simple - "\"\\/bfnrt"]);
            continue;
        }
        if (c != 'u' || e - p < 4) return false;
        int cp = js_hex4(p);
        if (cp < 0) return false;
        p += 4;
        if (cp >= 0xD800 && cp <= 0xDBFF && e - p >= 6 && p[0] == '\\' && p[1] == 'u') {
            int lo = js_hex4(p + 2);
            if (lo >= 0xDC00 && lo <= 0xDFFF) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                p += 6;
            }
        }
        js_put_cp(sb, (uint32_t)cp);
    }
    return true;
}

/* Appends s[0..n) with JSON string escapes (quotes, backslash, controls). */
static void js_escape(sqe_strbuf *sb, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            sqe_strbuf_putc(sb, '\\');
            sqe_strbuf_putc(sb, (char)c);
        } else if (c < 0x20) {
            sqe_strbuf_printf(sb, "\\u%04x", c);
        } else {
            sqe_strbuf_putc(sb, (char)c);
        }
    }
}

/* Whether the key token [ks, ke) (quotes included) equals key[0..n). */
static bool js_key_eq(const char *ks, const char *ke, const char *key, size_t n) {
    size_t raw = (size_t)(ke - ks) - 2;
    if (!memchr(ks + 1, '\\', raw)) return raw == n && memcmp(ks + 1, key, n) == 0;
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    bool eq = js_unescape(&sb, ks, ke) && sb.len == n && memcmp(sb.data, key, n) == 0;
    sqe_strbuf_free(&sb);
    return eq;
}

/* One path step from the value at p; the member/element value start, or NULL. */
static const char *js_step_into(const char *p, const char *e, const js_step *st, int depth) {
    if (p >= e || depth >= JS_MAX_DEPTH) return NULL;
    if (st->is_index ? *p != '[' : *p != '{') return NULL;
    char close = *p == '[' ? ']' : '}';
    p = js_ws(p + 1, e);
    if (p < e && *p == close) return NULL;
    for (int64_t k = 0;; k++) {
        bool hit = st->is_index && k == st->index;
        if (!st->is_index) {
            const char *ks = p;
            if (p >= e || *p != '"' || !(p = js_skip_string(p, e))) return NULL;
            hit = js_key_eq(ks, p, st->key, st->klen);
            p = js_ws(p, e);
            if (p >= e || *p != ':') return NULL;
            p = js_ws(p + 1, e);
        }
        if (hit) return p;
        if (!(p = js_skip_value(p, e, depth + 1))) return NULL;
        p = js_ws(p, e);
        if (p >= e || *p != ',') return NULL;
        p = js_ws(p + 1, e);
    }
}

/* Evaluates path over text; [*vs, *ve) gets the value. */
static bool js_find(const char *text, size_t n, const js_path *path, const char **vs,
                    const char **ve) {
    const char *e = text + n, *p = js_ws(text, e);
    for (int i = 0; i < path->n; i++)
        if (!(p = js_step_into(p, e, &path->steps[i], i))) return false;
    *vs = p;
    *ve = js_skip_value(p, e, path->n);
    return *ve != NULL;
}

/* -------------------------------------------------------------- paths */

static bool js_path_error(const char *fn, const char *p, size_t n, const char *why,
                          sqe_error *err) {
    return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT, "%s: invalid JSON path '%.*s': %s", fn,
                         (int)SQE_MIN(n, 200), p, why);
}

/* ["key"] / ['key'] / [n] at p[*i] == '['. */
static bool js_parse_bracket(const char *p, size_t n, size_t *i, js_step *st) {
    size_t j = *i + 1;
    if (j < n && (p[j] == '"' || p[j] == '\'')) {
        char q = p[j];
        const char *close = memchr(p + j + 1, q, n - j - 1);
        if (!close || (size_t)(close - p) + 1 >= n || close[1] != ']') return false;
        st->key = p + j + 1;
        st->klen = (size_t)(close - (p + j + 1));
        *i = (size_t)(close - p) + 2;
        return true;
    }
    int64_t v = 0;
    size_t d = j;
    while (j < n && p[j] >= '0' && p[j] <= '9' && v < INT32_MAX) v = v * 10 + (p[j++] - '0');
    if (j == d) { /* [key] without quotes, as Trino's $.store[book] */
        const char *close = memchr(p + d, ']', n - d);
        if (!close || close == p + d || memchr(p + d, '*', (size_t)(close - (p + d)))) return false;
        st->key = p + d;
        st->klen = (size_t)(close - (p + d));
        *i = (size_t)(close - p) + 1;
        return true;
    }
    if (j >= n || p[j] != ']') return false;
    st->is_index = true;
    st->index = v;
    *i = j + 1;
    return true;
}

/* .key or ."key" at p[*i] == '.'. */
static bool js_parse_dot(const char *p, size_t n, size_t *i, bool sql, js_step *st) {
    size_t j = *i + 1;
    if (sql && j < n && p[j] == '"') {
        const char *close = memchr(p + j + 1, '"', n - j - 1);
        if (!close) return false;
        st->key = p + j + 1;
        st->klen = (size_t)(close - (p + j + 1));
        *i = (size_t)(close - p) + 1;
        return true;
    }
    size_t s = j;
    while (j < n && p[j] != '.' && p[j] != '[' && p[j] != ' ' && p[j] != '*') j++;
    if (j == s) return false;
    st->key = p + s;
    st->klen = j - s;
    *i = j;
    return true;
}

/* Parses a path (sql: SQL/JSON path with an optional lax/strict mode).
 * Steps point into p; memory in arena (or malloc'd when arena is NULL). */
static bool js_parse_path(const char *fn, const char *p, size_t n, bool sql, sqe_arena *arena,
                          js_path *out, sqe_error *err) {
    size_t i = 0;
    while (i < n && p[i] == ' ') i++;
    if (sql && n - i >= 4 && memcmp(p + i, "lax ", 4) == 0)
        i += 4;
    else if (sql && n - i >= 7 && memcmp(p + i, "strict ", 7) == 0)
        i += 7;
    while (i < n && p[i] == ' ') i++;
    if (i >= n || p[i] != '$') return js_path_error(fn, p, n, "it must start with $", err);
    i++;
    js_step steps[JS_MAX_STEPS];
    int k = 0;
    while (i < n) {
        if (k >= JS_MAX_STEPS) return js_path_error(fn, p, n, "too many steps", err);
        js_step st = {0};
        bool ok = p[i] == '.'   ? js_parse_dot(p, n, &i, sql, &st)
                  : p[i] == '[' ? js_parse_bracket(p, n, &i, &st)
                                : false;
        if (!ok)
            return js_path_error(fn, p, n,
                                 "expected .key, [\"key\"] or [index] (wildcards and filters are "
                                 "not supported)",
                                 err);
        steps[k++] = st;
    }
    out->n = k;
    size_t bytes = sizeof(js_step) * (size_t)(k ? k : 1);
    out->steps = arena ? sqe_arena_alloc(arena, bytes) : sqe_malloc(bytes);
    memcpy(out->steps, steps, sizeof(js_step) * (size_t)k);
    return true;
}

/* Per-binding data: the constant path, and json_exists' ON ERROR. */
typedef struct js_bind {
    js_path path;
    bool has_path;
    int on_error; /* json_exists: JS_ON_ERROR_* */
} js_bind;

enum { JS_ON_ERROR_FALSE, JS_ON_ERROR_TRUE, JS_ON_ERROR_UNKNOWN, JS_ON_ERROR_ERROR };

static bool js_is_sql(const char *name) {
    return strcmp(name, "json_value") == 0 || strcmp(name, "json_query") == 0 ||
           strcmp(name, "json_exists") == 0;
}

static bool bind_path(const sqe_func_sig *sig, sqe_arena *arena, sqe_func_binding *b,
                      const sqe_value *const *const_args, sqe_error *err) {
    const sqe_value *pv = const_args && b->n_args > 1 ? const_args[1] : NULL;
    if (!pv || pv->is_null || pv->type.id == SQE_T_NULL) return true;
    js_bind *bd = sqe_arena_alloc(arena, sizeof *bd);
    char *copy = sqe_arena_strndup(arena, pv->v.s.ptr, pv->v.s.len);
    if (!js_parse_path(sig->name, copy, pv->v.s.len, js_is_sql(sig->name), arena, &bd->path, err))
        return false;
    bd->has_path = true;
    b->data = bd;
    return true;
}

/* Finds the row's value by the binding's path: 1 found, 0 not found (or
 * malformed JSON), -1 error (a bad per-row path). */
static int js_lookup(const sqe_func_binding *b, sqe_vector *const *args, uint32_t row,
                     const char **vs, const char **ve, sqe_error *err) {
    uint32_t len;
    const char *text = sqe_func_str(args[0], row, &len);
    const js_bind *bd = b->data;
    if (bd && bd->has_path) return js_find(text, len, &bd->path, vs, ve) ? 1 : 0;
    uint32_t plen;
    const char *p = sqe_func_str(args[1], row, &plen);
    js_path path;
    if (!js_parse_path(b->name, p, plen, js_is_sql(b->name), NULL, &path, err)) return -1;
    int r = js_find(text, len, &path, vs, ve) ? 1 : 0;
    sqe_free(path.steps);
    return r;
}

/* ------------------------------------------------------------ kernels */

static bool js_set(sqe_vector *out, uint32_t row, const sqe_strbuf *sb, const char *fn,
                   sqe_error *err) {
    if (!sqe_vector_set_string(out, row, sb->data ? sb->data : "", sb->len))
        return sqe_func_mem_error(out, fn, err);
    return true;
}

/* json_extract / json_query (JSON text of the value) and
 * json_extract_scalar / json_value (the scalar as text). */
static bool extract_impl(const sqe_func_binding *b, sqe_vector *const *args, const uint16_t *sel,
                         uint32_t n, sqe_vector *out, bool scalar, sqe_error *err) {
    bool nulls = sqe_func_propagate_nulls(args, 2, sel, n, out);
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    bool ok = true;
    SQE_FOR_ROWS(sel, n, row, {
        if (!ok) break;
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        const char *vs, *ve;
        int f = js_lookup(b, args, row, &vs, &ve, err);
        if (f < 0) {
            ok = false;
            break;
        }
        bool is_container = f && (*vs == '{' || *vs == '[');
        if (!f || (scalar && (is_container || *vs == 'n'))) {
            sqe_vector_set_null(out, row);
            continue;
        }
        sqe_strbuf_clear(&sb);
        if (scalar && *vs == '"') {
            if (!js_unescape(&sb, vs, ve)) {
                sqe_vector_set_null(out, row);
                continue;
            }
        } else if (scalar) {
            sqe_strbuf_append(&sb, vs, (size_t)(ve - vs));
        } else {
            js_compact(&sb, vs, ve);
        }
        ok = js_set(out, row, &sb, b->name, err);
    });
    sqe_strbuf_free(&sb);
    return ok;
}

static SQE_KERNEL(extract_kernel) {
    return extract_impl(b, args, sel, n, out, false, err);
}
static SQE_KERNEL(extract_scalar_kernel) {
    return extract_impl(b, args, sel, n, out, true, err);
}

/* json_exists(json, path[, on_error]): whether the path finds an item in
 * the document. Input that is not one whole JSON value is an error, which
 * on_error turns into FALSE (the default, as Trino), TRUE, NULL
 * ('unknown') or a failure ('error'); the parser writes the SQL/JSON
 * clause `{TRUE|FALSE|UNKNOWN|ERROR} ON ERROR` as that constant. */
static bool bind_exists(const sqe_func_sig *sig, sqe_arena *arena, sqe_func_binding *b,
                        const sqe_value *const *const_args, sqe_error *err) {
    static const char *const k_modes[] = {"false", "true", "unknown", "error"};
    if (!bind_path(sig, arena, b, const_args, err)) return false;
    js_bind *bd = b->data;
    if (!bd) {
        bd = sqe_arena_alloc(arena, sizeof *bd);
        memset(bd, 0, sizeof *bd);
        b->data = bd;
    }
    bd->on_error = JS_ON_ERROR_FALSE;
    if (b->n_args < 3) return true;
    const sqe_value *m = const_args ? const_args[2] : NULL;
    if (!m || m->is_null || m->type.id != SQE_T_VARCHAR)
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                             "json_exists: the ON ERROR behaviour (argument 3) must be a constant "
                             "'true', 'false', 'unknown' or 'error'");
    for (int i = 0; i < 4; i++)
        if (m->v.s.len == strlen(k_modes[i]) && sqe_str_ieqn(m->v.s.ptr, k_modes[i], m->v.s.len)) {
            bd->on_error = i;
            return true;
        }
    return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                         "json_exists: unknown ON ERROR behaviour '%.*s' (use TRUE, FALSE, UNKNOWN "
                         "or ERROR)",
                         (int)SQE_MIN(m->v.s.len, 40), m->v.s.ptr);
}

static SQE_KERNEL(exists_kernel) {
    const js_bind *bd = b->data;
    bool *o = SQE_VEC_DATA(out, bool);
    bool nulls = sqe_func_propagate_nulls(args, 2, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t len;
        const char *t = sqe_func_str(args[0], row, &len);
        const char *vs, *ve;
        if (js_whole(t, len, &vs, &ve)) {
            int f = js_lookup(b, args, row, &vs, &ve, err);
            if (f < 0) return false;
            o[row] = f == 1;
        } else if (bd->on_error == JS_ON_ERROR_ERROR) {
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "json_exists: the input is not a JSON value: '%.*s' (ERROR ON "
                                 "ERROR)",
                                 (int)SQE_MIN(len, 200), t);
        } else if (bd->on_error == JS_ON_ERROR_UNKNOWN) {
            sqe_vector_set_null(out, row);
        } else {
            o[row] = bd->on_error == JS_ON_ERROR_TRUE;
        }
    });
    return true;
}

/* Number of members/elements of the container at p (0 for a scalar). */
static int64_t js_count(const char *p, const char *e) {
    if (*p != '{' && *p != '[') return 0;
    bool obj = *p == '{';
    char close = obj ? '}' : ']';
    p = js_ws(p + 1, e);
    if (p < e && *p == close) return 0;
    int64_t k = 0;
    for (;;) {
        if (obj) {
            p = js_skip_string(p, e);
            p = js_ws(p, e) + 1;
            p = js_ws(p, e);
        }
        p = js_ws(js_skip_value(p, e, 1), e);
        k++;
        if (*p == close) return k;
        p = js_ws(p + 1, e);
    }
}

static SQE_KERNEL(size_kernel) {
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    bool nulls = sqe_func_propagate_nulls(args, 2, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        const char *vs, *ve;
        int f = js_lookup(b, args, row, &vs, &ve, err);
        if (f < 0) return false;
        if (!f)
            sqe_vector_set_null(out, row);
        else
            o[row] = js_count(vs, ve);
    });
    return true;
}

static SQE_KERNEL(array_length_kernel) {
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    bool nulls = sqe_func_propagate_nulls(args, 1, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t len;
        const char *t = sqe_func_str(args[0], row, &len);
        const char *vs, *ve;
        if (!js_whole(t, len, &vs, &ve) || *vs != '[')
            sqe_vector_set_null(out, row);
        else
            o[row] = js_count(vs, ve);
    });
    return true;
}

/* The element [vs, ve) equals the argument (by kind). */
static bool js_elem_eq(const char *vs, const char *ve, const sqe_vector *v, uint32_t row,
                       sqe_strbuf *tmp) {
    switch (v->type.id) {
    case SQE_T_BOOLEAN: {
        bool x = SQE_VEC_DATA(v, uint8_t)[row];
        return (x && *vs == 't') || (!x && *vs == 'f');
    }
    case SQE_T_BIGINT: {
        int64_t x;
        return (*vs == '-' || (*vs >= '0' && *vs <= '9')) &&
               sqe_parse_int64(vs, (size_t)(ve - vs), &x) && x == SQE_VEC_DATA(v, int64_t)[row];
    }
    case SQE_T_DOUBLE: {
        double x;
        return (*vs == '-' || (*vs >= '0' && *vs <= '9')) &&
               sqe_parse_double(vs, (size_t)(ve - vs), &x) && x == SQE_VEC_DATA(v, double)[row];
    }
    default: {
        uint32_t len;
        const char *s = sqe_func_str(v, row, &len);
        sqe_strbuf_clear(tmp);
        return *vs == '"' && js_unescape(tmp, vs, ve) && tmp->len == len &&
               (len == 0 || memcmp(tmp->data, s, len) == 0);
    }
    }
}

/* Walks the top-level array elements of [p, e): calls back per element
 * until fn returns true; false when the text is not an array. */
typedef bool (*js_elem_fn)(const char *vs, const char *ve, int64_t k, void *ctx);
static bool js_each(const char *t, size_t len, js_elem_fn fn, void *ctx) {
    const char *vs, *ve;
    if (!js_whole(t, len, &vs, &ve) || *vs != '[') return false;
    const char *p = js_ws(vs + 1, ve);
    if (*p == ']') return true;
    for (int64_t k = 0;; k++) {
        const char *x = js_skip_value(p, ve, 1);
        if (fn(p, x, k, ctx)) return true;
        p = js_ws(x, ve);
        if (*p == ']') return true;
        p = js_ws(p + 1, ve);
    }
}

typedef struct contains_ctx {
    const sqe_vector *v;
    uint32_t row;
    sqe_strbuf tmp;
    bool found;
} contains_ctx;

static bool contains_cb(const char *vs, const char *ve, int64_t k, void *ctx) {
    contains_ctx *c = ctx;
    c->found = js_elem_eq(vs, ve, c->v, c->row, &c->tmp);
    return c->found;
}

static SQE_KERNEL(array_contains_kernel) {
    uint8_t *o = SQE_VEC_DATA(out, uint8_t);
    bool nulls = sqe_func_propagate_nulls(args, 2, sel, n, out);
    contains_ctx c = {args[1], 0, {0}, false};
    sqe_strbuf_init(&c.tmp);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t len;
        const char *t = sqe_func_str(args[0], row, &len);
        c.row = row;
        c.found = false;
        if (!js_each(t, len, contains_cb, &c))
            sqe_vector_set_null(out, row);
        else
            o[row] = c.found;
    });
    sqe_strbuf_free(&c.tmp);
    return true;
}

typedef struct get_ctx {
    int64_t want;
    const char *vs, *ve;
} get_ctx;

static bool get_cb(const char *vs, const char *ve, int64_t k, void *ctx) {
    get_ctx *g = ctx;
    if (k != g->want) return false;
    g->vs = vs;
    g->ve = ve;
    return true;
}

static SQE_KERNEL(array_get_kernel) {
    const int64_t *ix = SQE_VEC_DATA(args[1], int64_t);
    bool nulls = sqe_func_propagate_nulls(args, 2, sel, n, out);
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    bool ok = true;
    SQE_FOR_ROWS(sel, n, row, {
        if (!ok) break;
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t len;
        const char *t = sqe_func_str(args[0], row, &len);
        int64_t want = ix[row];
        if (want < 0) {
            int64_t count = 0;
            const char *vs, *ve;
            if (js_whole(t, len, &vs, &ve) && *vs == '[') count = js_count(vs, ve);
            want += count;
        }
        get_ctx g = {want, NULL, NULL};
        if (want < 0 || !js_each(t, len, get_cb, &g) || !g.vs) {
            sqe_vector_set_null(out, row);
            continue;
        }
        /* Trino returns a string element unquoted (documented as broken). */
        sqe_strbuf_clear(&sb);
        if (*g.vs != '"')
            js_compact(&sb, g.vs, g.ve);
        else if (!js_unescape(&sb, g.vs, g.ve))
            sqe_strbuf_append(&sb, g.vs + 1, (size_t)(g.ve - g.vs) - 2);
        ok = js_set(out, row, &sb, b->name, err);
    });
    sqe_strbuf_free(&sb);
    return ok;
}

static bool js_invalid(const char *fn, const char *t, uint32_t len, sqe_error *err) {
    return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT, "%s: cannot convert value to JSON: '%.*s'",
                         fn, (int)SQE_MIN(len, 200), t);
}

/* ---------------------------------------------- json_parse: canonical text */

/* One object member: its key decoded (for sorting) and its value's span. */
typedef struct js_member {
    char *key;
    size_t klen, order;
    const char *vs, *ve;
} js_member;

static int js_member_cmp(const void *a, const void *b) {
    const js_member *x = a, *y = b;
    size_t n = SQE_MIN(x->klen, y->klen);
    int c = n ? memcmp(x->key, y->key, n) : 0;
    if (c) return c;
    if (x->klen != y->klen) return x->klen < y->klen ? -1 : 1;
    return x->order < y->order ? -1 : 1;
}

static void js_canonical(sqe_strbuf *sb, const char *p, const char *e);

/* An object with its members sorted by key, the last of duplicate keys
 * kept (Trino reads it into a sorted map). p at '{', validated. */
static void js_canonical_object(sqe_strbuf *sb, const char *p, const char *e) {
    SQE_ARRAY(js_member) ms = {0};
    sqe_strbuf key;
    sqe_strbuf_init(&key);
    p = js_ws(p + 1, e);
    while (*p != '}') {
        const char *ks = p, *ke = js_skip_string(p, e);
        sqe_strbuf_clear(&key);
        js_unescape(&key, ks, ke);
        js_member m = {sqe_strndup(key.data ? key.data : "", key.len), key.len, ms.len, NULL, NULL};
        m.vs = js_ws(js_ws(ke, e) + 1, e);
        m.ve = js_skip_value(m.vs, e, 1);
        SQE_ARRAY_PUSH(NULL, ms, m);
        p = js_ws(m.ve, e);
        if (*p == ',') p = js_ws(p + 1, e);
    }
    if (ms.len) qsort(ms.items, ms.len, sizeof(js_member), js_member_cmp);
    sqe_strbuf_putc(sb, '{');
    bool first = true;
    for (size_t i = 0; i < ms.len; i++) {
        js_member *m = &ms.items[i];
        bool dup_next = i + 1 < ms.len && ms.items[i + 1].klen == m->klen &&
                        memcmp(ms.items[i + 1].key, m->key, m->klen) == 0;
        if (!dup_next) {
            if (!first) sqe_strbuf_putc(sb, ',');
            first = false;
            sqe_strbuf_putc(sb, '"');
            js_escape(sb, m->key, m->klen);
            sqe_strbuf_puts(sb, "\":");
            js_canonical(sb, m->vs, m->ve);
        }
    }
    for (size_t i = 0; i < ms.len; i++) sqe_free(ms.items[i].key);
    SQE_ARRAY_FREE(ms);
    sqe_strbuf_free(&key);
    sqe_strbuf_putc(sb, '}');
}

/* Canonical text of a validated value: objects sorted, arrays in order,
 * whitespace dropped, scalars as written. */
static void js_canonical(sqe_strbuf *sb, const char *p, const char *e) {
    if (*p == '{') {
        js_canonical_object(sb, p, e);
        return;
    }
    if (*p != '[') {
        js_compact(sb, p, e);
        return;
    }
    sqe_strbuf_putc(sb, '[');
    p = js_ws(p + 1, e);
    for (bool first = true; *p != ']'; first = false) {
        const char *ve = js_skip_value(p, e, 1);
        if (!first) sqe_strbuf_putc(sb, ',');
        js_canonical(sb, p, ve);
        p = js_ws(ve, e);
        if (*p == ',') p = js_ws(p + 1, e);
    }
    sqe_strbuf_putc(sb, ']');
}

/* json_parse: validated canonical text; json_format: validated compact text. */
static SQE_KERNEL(parse_kernel) {
    bool nulls = sqe_func_propagate_nulls(args, 1, sel, n, out);
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    bool ok = true;
    SQE_FOR_ROWS(sel, n, row, {
        if (!ok) break;
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t len;
        const char *t = sqe_func_str(args[0], row, &len);
        const char *vs, *ve;
        if (!js_whole(t, len, &vs, &ve)) {
            ok = js_invalid(b->name, t, len, err);
            break;
        }
        sqe_strbuf_clear(&sb);
        if (b->name[5] == 'p') /* json_parse */
            js_canonical(&sb, vs, ve);
        else
            js_compact(&sb, vs, ve);
        ok = js_set(out, row, &sb, b->name, err);
    });
    sqe_strbuf_free(&sb);
    return ok;
}

static SQE_KERNEL(is_scalar_kernel) {
    uint8_t *o = SQE_VEC_DATA(out, uint8_t);
    bool nulls = sqe_func_propagate_nulls(args, 1, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t len;
        const char *t = sqe_func_str(args[0], row, &len);
        const char *vs, *ve;
        if (!js_whole(t, len, &vs, &ve)) return js_invalid(b->name, t, len, err);
        o[row] = *vs != '{' && *vs != '[';
    });
    return true;
}

#define V SQE_T_VARCHAR
#define I SQE_T_BIGINT
#define B SQE_T_BOOLEAN

static const sqe_func_sig k_sigs[] = {
    {"json_extract", 2, false, {V, V}, V, extract_kernel, bind_path},
    {"json_extract_scalar", 2, false, {V, V}, V, extract_scalar_kernel, bind_path},
    {"json_query", 2, false, {V, V}, V, extract_kernel, bind_path},
    {"json_value", 2, false, {V, V}, V, extract_scalar_kernel, bind_path},
    {"json_size", 2, false, {V, V}, I, size_kernel, bind_path},
    {"json_parse", 1, false, {V}, V, parse_kernel, NULL},
    {"json_format", 1, false, {V}, V, parse_kernel, NULL},
    {"json_array_length", 1, false, {V}, I, array_length_kernel, NULL},
    {"json_array_contains", 2, false, {V, B}, B, array_contains_kernel, NULL},
    {"json_array_contains", 2, false, {V, I}, B, array_contains_kernel, NULL},
    {"json_array_contains", 2, false, {V, SQE_T_DOUBLE}, B, array_contains_kernel, NULL},
    {"json_array_contains", 2, false, {V, V}, B, array_contains_kernel, NULL},
    {"json_array_get", 2, false, {V, I}, V, array_get_kernel, NULL},
    {"is_json_scalar", 1, false, {V}, B, is_scalar_kernel, NULL},
    {"json_exists", 2, false, {V, V}, B, exists_kernel, bind_exists},
    {"json_exists", 3, false, {V, V, V}, B, exists_kernel, bind_exists},
};

SQE_FUNC_TABLE(sqe_func_json_table, k_sigs);
