/*
 * url.c - Trino's URL functions: url_extract_protocol / host / port / path
 * / query / fragment / parameter, url_encode and url_decode.
 *
 * Trino parses with java.net.URI, so these follow its rules: a value that
 * is not a valid URI (a space, '"', '<', '>', '\', '^', '`', '{', '|', '}',
 * a control character, or a '%' not followed by two hex digits) gives NULL
 * for every url_extract_*; a component that is absent gives '' (Trino's
 * nullToEmpty), except the port, which is NULL; path, query and fragment
 * are percent-decoded (URI.getPath/getQuery/getFragment), the host and
 * protocol are returned as written. A URI with a scheme whose rest does
 * not start with '/' is opaque (mailto:x): no host, path or query.
 * url_extract_parameter splits the decoded query on '&' and '=' and
 * returns the first value of the name ('' when it has no '='), NULL when
 * the name does not occur.
 *
 * url_encode escapes as Guava's form-parameter escaper (letters, digits
 * and "-_.*" kept, space as '+', every other byte %XX upper case);
 * url_decode is Java's URLDecoder ('+' is a space, %XX a byte; a bad
 * escape is an error naming the value).
 */
#include "func/func_int.h"

typedef struct url_parts {
    const char *scheme, *host, *path, *query, *frag;
    size_t scheme_n, host_n, path_n, query_n, frag_n;
    int64_t port; /* -1: none */
    bool has_query;
} url_parts;

static int url_hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Characters java.net.URI refuses anywhere. */
static bool url_chars_ok(const char *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c <= 0x20 || c == 0x7F || strchr("\"<>\\^`{|}", c)) return false;
        if (c == '%' && (i + 2 >= n || url_hexval(p[i + 1]) < 0 || url_hexval(p[i + 2]) < 0))
            return false;
    }
    return true;
}

/* [user@]host[:port] */
static bool url_authority(const char *a, size_t n, url_parts *u) {
    const char *at = memchr(a, '@', n);
    if (at) {
        n -= (size_t)(at + 1 - a);
        a = at + 1;
    }
    size_t hn = n;
    if (n && a[0] == '[') {
        const char *close = memchr(a, ']', n);
        if (!close) return false;
        hn = (size_t)(close - a) + 1;
    } else {
        const char *colon = memchr(a, ':', n);
        if (colon) hn = (size_t)(colon - a);
    }
    u->host = a;
    u->host_n = hn;
    if (hn < n) {
        if (a[hn] != ':') return false;
        int64_t port = 0;
        for (size_t i = hn + 1; i < n; i++) {
            if (a[i] < '0' || a[i] > '9' || port > 65535 * 10) return false;
            port = port * 10 + (a[i] - '0');
        }
        u->port = hn + 1 < n ? port : -1;
    }
    return true;
}

/* Splits p[0..n) into its components; false when it is not a valid URI. */
static bool url_parse(const char *p, size_t n, url_parts *u) {
    memset(u, 0, sizeof *u);
    u->port = -1;
    if (!url_chars_ok(p, n)) return false;
    size_t i = 0;
    if (n && ((p[0] | 32) >= 'a' && (p[0] | 32) <= 'z')) {
        size_t j = 1;
        while (j < n && (((p[j] | 32) >= 'a' && (p[j] | 32) <= 'z') ||
                         (p[j] >= '0' && p[j] <= '9') || p[j] == '+' || p[j] == '-' || p[j] == '.'))
            j++;
        if (j < n && p[j] == ':') {
            u->scheme = p;
            u->scheme_n = j;
            i = j + 1;
        }
    }
    const char *hash = memchr(p + i, '#', n - i);
    size_t end = hash ? (size_t)(hash - p) : n;
    if (hash) {
        u->frag = hash + 1;
        u->frag_n = n - end - 1;
    }
    if (u->scheme && (i >= end || p[i] != '/')) return i < end || hash; /* opaque */
    if (end - i >= 2 && p[i] == '/' && p[i + 1] == '/') {
        size_t s = i + 2, e = s;
        while (e < end && p[e] != '/' && p[e] != '?') e++;
        if (!url_authority(p + s, e - s, u)) return false;
        i = e;
    }
    const char *q = memchr(p + i, '?', end - i);
    size_t pe = q ? (size_t)(q - p) : end;
    u->path = p + i;
    u->path_n = pe - i;
    if (q) {
        u->has_query = true;
        u->query = q + 1;
        u->query_n = end - pe - 1;
    }
    return true;
}

/* Appends the percent-decoding of p[0..n) ('+' kept unless plus). */
static bool url_unescape(sqe_strbuf *sb, const char *p, size_t n, bool plus) {
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '+' && plus) {
            sqe_strbuf_putc(sb, ' ');
        } else if (p[i] == '%') {
            int hi = i + 2 < n ? url_hexval(p[i + 1]) : -1,
                lo = i + 2 < n ? url_hexval(p[i + 2]) : -1;
            if (hi < 0 || lo < 0) return false;
            sqe_strbuf_putc(sb, (char)(hi << 4 | lo));
            i += 2;
        } else {
            sqe_strbuf_putc(sb, p[i]);
        }
    }
    return true;
}

typedef enum { U_PROTOCOL, U_HOST, U_PATH, U_QUERY, U_FRAGMENT } url_part;

static bool url_part_kernel(const sqe_func_binding *b, sqe_vector *const *args, const uint16_t *sel,
                            uint32_t n, sqe_vector *out, url_part part, sqe_error *err) {
    bool nulls = sqe_func_propagate_nulls(args, 1, sel, n, out);
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    bool ok = true;
    SQE_FOR_ROWS(sel, n, row, {
        if (!ok) break;
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t len;
        const char *p = sqe_func_str(args[0], row, &len);
        url_parts u;
        if (!url_parse(p, len, &u)) {
            sqe_vector_set_null(out, row);
            continue;
        }
        sqe_strbuf_clear(&sb);
        if (part == U_PROTOCOL) sqe_strbuf_append(&sb, u.scheme ? u.scheme : "", u.scheme_n);
        if (part == U_HOST) sqe_strbuf_append(&sb, u.host ? u.host : "", u.host_n);
        if (part == U_PATH) url_unescape(&sb, u.path ? u.path : "", u.path_n, false);
        if (part == U_QUERY) url_unescape(&sb, u.query ? u.query : "", u.query_n, false);
        if (part == U_FRAGMENT) url_unescape(&sb, u.frag ? u.frag : "", u.frag_n, false);
        if (!sqe_vector_set_string(out, row, sb.data ? sb.data : "", sb.len))
            ok = sqe_func_mem_error(out, b->name, err);
    });
    sqe_strbuf_free(&sb);
    return ok;
}

static SQE_KERNEL(protocol_kernel) {
    return url_part_kernel(b, args, sel, n, out, U_PROTOCOL, err);
}
static SQE_KERNEL(host_kernel) {
    return url_part_kernel(b, args, sel, n, out, U_HOST, err);
}
static SQE_KERNEL(path_kernel) {
    return url_part_kernel(b, args, sel, n, out, U_PATH, err);
}
static SQE_KERNEL(query_kernel) {
    return url_part_kernel(b, args, sel, n, out, U_QUERY, err);
}
static SQE_KERNEL(fragment_kernel) {
    return url_part_kernel(b, args, sel, n, out, U_FRAGMENT, err);
}

static SQE_KERNEL(port_kernel) {
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    bool nulls = sqe_func_propagate_nulls(args, 1, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t len;
        const char *p = sqe_func_str(args[0], row, &len);
        url_parts u;
        if (!url_parse(p, len, &u) || u.port < 0)
            sqe_vector_set_null(out, row);
        else
            o[row] = u.port;
    });
    return true;
}

/* The first value of `name` in the decoded query q; false when absent. */
static bool url_param(const char *q, size_t qn, const char *name, size_t nn, const char **v,
                      size_t *vn) {
    for (size_t i = 0; i <= qn;) {
        const char *amp = memchr(q + i, '&', qn - i);
        size_t e = amp ? (size_t)(amp - q) : qn;
        const char *eq = memchr(q + i, '=', e - i);
        size_t ke = eq ? (size_t)(eq - q) : e;
        if (ke - i == nn && memcmp(q + i, name, nn) == 0) {
            *v = eq ? eq + 1 : q + e;
            *vn = eq ? e - ke - 1 : 0;
            return true;
        }
        if (!amp) break;
        i = e + 1;
    }
    return false;
}

static SQE_KERNEL(parameter_kernel) {
    bool nulls = sqe_func_propagate_nulls(args, 2, sel, n, out);
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    bool ok = true;
    SQE_FOR_ROWS(sel, n, row, {
        if (!ok) break;
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t len, nn;
        const char *p = sqe_func_str(args[0], row, &len);
        const char *name = sqe_func_str(args[1], row, &nn);
        url_parts u;
        const char *v;
        size_t vn;
        sqe_strbuf_clear(&sb);
        if (!url_parse(p, len, &u) || !u.has_query ||
            !url_unescape(&sb, u.query, u.query_n, false) ||
            !url_param(sb.data ? sb.data : "", sb.len, name, nn, &v, &vn)) {
            sqe_vector_set_null(out, row);
            continue;
        }
        if (!sqe_vector_set_string(out, row, v, vn)) ok = sqe_func_mem_error(out, b->name, err);
    });
    sqe_strbuf_free(&sb);
    return ok;
}

/* url_encode: Java's URLEncoder (UTF-8): letters, digits and "-_.*" stay,
 * space becomes '+', every other byte %XX. */
static bool url_encode_codec(const char *p, size_t len, sqe_strbuf *sb, const char *fn,
                             sqe_error *err) {
    SQE_UNUSED(fn);
    SQE_UNUSED(err);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)p[i];
        if ((c | 32) >= 'a' && (c | 32) <= 'z' && c < 0x80)
            sqe_strbuf_putc(sb, (char)c);
        else if ((c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' || c == '*')
            sqe_strbuf_putc(sb, (char)c);
        else if (c == ' ')
            sqe_strbuf_putc(sb, '+');
        else
            sqe_strbuf_printf(sb, "%%%02X", c);
    }
    return true;
}

static bool url_decode_codec(const char *p, size_t len, sqe_strbuf *sb, const char *fn,
                             sqe_error *err) {
    SQE_UNUSED(fn);
    if (url_unescape(sb, p, len, true)) return true;
    return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                         "url_decode: illegal hex characters in escape (%%) pattern in '%.*s'",
                         (int)SQE_MIN(len, 200), p);
}

static SQE_KERNEL(encode_kernel) {
    return sqe_func_codec_kernel(b, args, sel, n, out, url_encode_codec, err);
}
static SQE_KERNEL(decode_kernel) {
    return sqe_func_codec_kernel(b, args, sel, n, out, url_decode_codec, err);
}

#define V SQE_T_VARCHAR

static const sqe_func_sig k_sigs[] = {
    {"url_extract_protocol", 1, false, {V}, V, protocol_kernel, NULL},
    {"url_extract_host", 1, false, {V}, V, host_kernel, NULL},
    {"url_extract_port", 1, false, {V}, SQE_T_BIGINT, port_kernel, NULL},
    {"url_extract_path", 1, false, {V}, V, path_kernel, NULL},
    {"url_extract_query", 1, false, {V}, V, query_kernel, NULL},
    {"url_extract_fragment", 1, false, {V}, V, fragment_kernel, NULL},
    {"url_extract_parameter", 2, false, {V, V}, V, parameter_kernel, NULL},
    {"url_encode", 1, false, {V}, V, encode_kernel, NULL},
    {"url_decode", 1, false, {V}, V, decode_kernel, NULL},
};

SQE_FUNC_TABLE(sqe_func_url_table, k_sigs);
