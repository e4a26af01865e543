/*
 * json_reader.c - JSON lines (SPEC §4.3): Hive's HCatalog JsonSerDe and the
 * OpenX JsonSerDe, decoded straight into column vectors.
 *
 * Where it sits: exec/'s scan opens one reader per file (or byte range)
 * through the format registry, like the text reader; `next` fills a batch
 * with the projected columns only.
 *
 * Buffer. The file comes through an sqe_byte_stream (so .json.gz etc. read
 * the same way) in chunks of sqe_text_reader_chunk_size; buf[pos, limit) is
 * whole lines, buf[limit, len) an incomplete one. A line longer than
 * sqe_text_reader_max_line fails, so memory stays bounded. Both tuning
 * globals are shared with the text reader.
 *
 * Lines. One JSON object per '\n'-terminated line (a JSON string cannot
 * hold a raw newline, so lines are records). Lines holding only whitespace
 * are skipped but counted for line numbers. A UTF-8 byte order mark before
 * the file's first line is skipped.
 *
 * Per line, two passes and no DOM:
 *   1. json_object() walks the top-level object once. Each key is hashed
 *      while it is scanned (bytes mapped through `norm`: ASCII lower case
 *      unless case-sensitive, '.' -> '_' with dots.in.keys) and looked up in
 *      an open-addressing table of the keys the projection binds; a bound
 *      key records its value's span and kind in its json_key (stamped with
 *      the line's serial, so nothing is cleared per line); every other
 *      value, nested ones included, is validated and skipped without
 *      materialising anything. A later duplicate key wins, except that a
 *      key bound through dots.in.keys never replaces an exact one.
 *   2. json_line() converts the recorded spans into the row: a key not seen
 *      on this line is NULL.
 * A malformed line (bad syntax, a top-level value that is not an object,
 * trailing bytes, an invalid escape or lone surrogate, a raw control byte
 * in a string, nesting deeper than JSON_MAX_DEPTH) is INVALID_DATA naming
 * file, line and character, or, with ignore.malformed.json, a row of NULLs
 * (as the OpenX SerDe returns). Only pass 1 can find one, so a malformed
 * line never leaves half a row behind.
 *
 * Binding. A column binds the key named like it (mapping.<col> = key names
 * another), compared through `norm` on both sides. Missing keys are NULL,
 * unknown keys are skipped.
 *
 * Values (the same parsers, range checks and error texts as the text
 * reader, "cannot parse 'v' as T in file 'F' line N, column 'c'"):
 *   null -> NULL for every type;
 *   numbers and strings parse as the declared type (strings like "123" are
 *   accepted in numeric columns, as Hive's and OpenX's SerDes do); an empty
 *   string is NULL for non-string types, as in text files;
 *   true/false -> BOOLEAN, or their text in a string column; in any other
 *   column an error;
 *   an object or array in a string column is its JSON text exactly as
 *   written (Athena returns the JSON text); in any other column an error
 *   naming file, line and column;
 *   strings decode \uXXXX (surrogate pairs included) to UTF-8.
 * VARCHAR(n)/CHAR(n) keep the first n characters, as in text files.
 *
 * Byte ranges (json_open_range): as text (format.h): a range reader starts
 * at start - 1, drops through the first '\n', decodes lines that start
 * before `end` and names lines by byte offset in errors.
 */
#include "format/codec.h"
#include "format/format.h"

#include <stdio.h>
#include <string.h>

#define JSON_MAX_DEPTH 256
#define VALUE_SHOWN_MAX 64

typedef enum json_kind {
    JK_STRING = 0,
    JK_NUMBER,
    JK_TRUE,
    JK_FALSE,
    JK_NULL,
    JK_OBJECT,
    JK_ARRAY,
} json_kind;

typedef struct json_slot {
    sqe_vector *v; /* batch vector (set per next) */
    sqe_type type;
    uint32_t max_chars; /* VARCHAR(n)/CHAR(n): n; 0 = unbounded */
    bool is_char;       /* CHAR(n): padded to max_chars with spaces */
    char *pad;          /* CHAR(n): the padded value (owned) */
    size_t pad_cap;
    int next_dup;   /* next slot of the same column, or -1 */
    char *col_name; /* owned */
} json_slot;

/* A JSON key the projection binds (one per distinct projected column). */
typedef struct json_key {
    char *key; /* normalised through norm (owned) */
    uint32_t len;
    uint64_t hash;
    int slot; /* first slot; others chained by next_dup */
    /* per line */
    uint64_t seen; /* line serial when last set */
    const char *vs, *ve;
    uint8_t kind; /* json_kind */
    bool esc;     /* string with backslash escapes */
    bool dotted;  /* bound through dots.in.keys ('.' read as '_') */
} json_key;

typedef struct json_reader {
    sqe_reader base;
    char *path; /* owned */
    sqe_byte_stream *bs;
    bool ignore_malformed;
    bool openx;
    bool dots_in_keys;
    uint8_t norm[256];

    int n_slots;
    json_slot *slots;
    int n_keys;
    json_key *keys;
    int *table; /* open addressing: key index or -1 */
    uint32_t mask;

    char *buf;
    size_t cap, len, pos, limit;
    size_t chunk, max_line;
    uint64_t file_off; /* (decompressed) offset of buf[len] */
    bool file_eof;
    uint64_t line_no, serial;
    bool at_file_start;

    bool split, skip_partial;
    uint64_t range_end;
    const char *line_start;

    const char *bad_at; /* pass 1 failure: where and what */
    const char *bad_what;

    char *scratch;
    size_t scratch_cap;
} json_reader;

/* ------------------------------------------------------------- errors */

/* " line N" or " at byte offset N" for the line being decoded. */
static void where_text(const json_reader *r, char *buf, size_t n) {
    if (r->split)
        snprintf(buf, n, "at byte offset %llu",
                 (unsigned long long)(r->file_off - r->len + (uint64_t)(r->line_start - r->buf)));
    else
        snprintf(buf, n, "line %llu", (unsigned long long)r->line_no);
}

static int shown_len(const char *p, size_t n, const char **more) {
    *more = "";
    if (n <= VALUE_SHOWN_MAX) return (int)n;
    size_t k = VALUE_SHOWN_MAX;
    while (k > 0 && ((uint8_t)p[k] & 0xC0) == 0x80) k--;
    *more = "...";
    return (int)k;
}

static bool parse_error(const json_reader *r, const json_slot *s, const char *p, size_t n,
                        sqe_error *err) {
    char tbuf[48], wbuf[64];
    const char *more;
    int shown = shown_len(p, n, &more);
    where_text(r, wbuf, sizeof wbuf);
    return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                         "cannot parse '%.*s%s' as %s in file '%s' %s, column '%s'", shown, p, more,
                         sqe_type_sql_name(s->type, tbuf, sizeof tbuf), r->path, wbuf, s->col_name);
}

static bool malformed_error(const json_reader *r, sqe_error *err) {
    char wbuf[64];
    where_text(r, wbuf, sizeof wbuf);
    return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                         "malformed JSON in file '%s' %s at character %llu: %s%s", r->path, wbuf,
                         (unsigned long long)(r->bad_at - r->line_start) + 1, r->bad_what,
                         r->openx ? " (SERDEPROPERTIES 'ignore.malformed.json'='true' reads "
                                    "malformed lines as rows of NULLs)"
                                  : "");
}

static bool too_long_error(const json_reader *r, const char *line, sqe_error *err) {
    if (r->split)
        return sqe_error_set(
            err, SQE_ERR_INVALID_DATA,
            "line at byte offset %llu in file '%s' is longer than the limit of %zu bytes",
            (unsigned long long)(r->file_off - r->len + (uint64_t)(line - r->buf)), r->path,
            r->max_line);
    return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                         "line %llu in file '%s' is longer than the limit of %zu bytes",
                         (unsigned long long)r->line_no, r->path, r->max_line);
}

/* ------------------------------------------------------------ pass 1 */

/* JSON whitespace but '\n', which ends the line: parsing is bounded by the
 * region end and stops at the line's '\n' by itself (a raw '\n' cannot
 * appear inside a string or number), so lines are not searched first. */
static inline const char *skip_ws(const char *p, const char *le) {
    while (p < le && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
    return p;
}

static inline const char *bad(json_reader *r, const char *at, const char *what) {
    r->bad_at = at;
    r->bad_what = what;
    return NULL;
}

static inline int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static bool hex4(const char *p, const char *le, uint32_t *out) {
    if (le - p < 4) return false;
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hexval(p[i]);
        if (h < 0) return false;
        v = v << 4 | (uint32_t)h;
    }
    *out = v;
    return true;
}

/* Checks the escape at p (p[0] == '\\'); returns the byte after it. */
static const char *check_escape(json_reader *r, const char *p, const char *le) {
    if (p + 1 >= le || p[1] == '\n') return bad(r, p, "unterminated string");
    switch (p[1]) {
    case '"':
    case '\\':
    case '/':
    case 'b':
    case 'f':
    case 'n':
    case 'r':
    case 't':
        return p + 2;
    case 'u': {
        uint32_t u, lo;
        if (!hex4(p + 2, le, &u)) return bad(r, p, "invalid \\u escape (four hex digits needed)");
        if (u >= 0xDC00 && u <= 0xDFFF) return bad(r, p, "invalid \\u escape: lone low surrogate");
        if (u < 0xD800 || u > 0xDBFF) return p + 6;
        if (le - p < 12 || p[6] != '\\' || p[7] != 'u' || !hex4(p + 8, le, &lo) || lo < 0xDC00 ||
            lo > 0xDFFF)
            return bad(r, p, "invalid \\u escape: high surrogate without a low surrogate");
        return p + 12;
    }
    default:
        return bad(r, p, "invalid escape in string");
    }
}

/* 1 for bytes that end the fast string scan: '"', '\\' and controls. */
static const uint8_t k_str_stop[256] = {
    [0] = 1,  [1] = 1,  [2] = 1,  [3] = 1,  [4] = 1,  [5] = 1,   [6] = 1,   [7] = 1,  [8] = 1,
    [9] = 1,  [10] = 1, [11] = 1, [12] = 1, [13] = 1, [14] = 1,  [15] = 1,  [16] = 1, [17] = 1,
    [18] = 1, [19] = 1, [20] = 1, [21] = 1, [22] = 1, [23] = 1,  [24] = 1,  [25] = 1, [26] = 1,
    [27] = 1, [28] = 1, [29] = 1, [30] = 1, [31] = 1, ['"'] = 1, ['\\'] = 1};

/* p at the opening quote; returns the byte after the closing quote. */
static const char *skip_string(json_reader *r, const char *p, const char *le, bool *esc) {
    const char *q = p + 1;
    for (;;) {
        while (q < le && !k_str_stop[(uint8_t)*q]) q++;
        if (q >= le || *q == '\n') return bad(r, p, "unterminated string");
        if (*q == '"') return q + 1;
        if (*q != '\\') return bad(r, q, "control character in string (must be escaped)");
        *esc = true;
        if (!(q = check_escape(r, q, le))) return NULL;
    }
}

static inline bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

/* JSON number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static const char *skip_number(json_reader *r, const char *p, const char *le) {
    const char *q = p;
    if (q < le && *q == '-') q++;
    if (q >= le || !is_digit(*q)) return bad(r, p, "invalid number");
    if (*q == '0')
        q++;
    else
        while (q < le && is_digit(*q)) q++;
    if (q < le && *q == '.') {
        q++;
        if (q >= le || !is_digit(*q)) return bad(r, p, "invalid number");
        while (q < le && is_digit(*q)) q++;
    }
    if (q < le && (*q == 'e' || *q == 'E')) {
        q++;
        if (q < le && (*q == '+' || *q == '-')) q++;
        if (q >= le || !is_digit(*q)) return bad(r, p, "invalid number");
        while (q < le && is_digit(*q)) q++;
    }
    return q;
}

static const char *skip_literal(json_reader *r, const char *p, const char *le, const char *word,
                                size_t n) {
    if ((size_t)(le - p) < n || memcmp(p, word, n) != 0) return bad(r, p, "invalid value");
    return p + n;
}

/* A scalar at p; sets *kind (and *esc for strings). */
static const char *skip_scalar(json_reader *r, const char *p, const char *le, uint8_t *kind,
                               bool *esc) {
    if (p >= le) return bad(r, p, "missing value");
    switch (*p) {
    case '"':
        *kind = JK_STRING;
        return skip_string(r, p, le, esc);
    case 't':
        *kind = JK_TRUE;
        return skip_literal(r, p, le, "true", 4);
    case 'f':
        *kind = JK_FALSE;
        return skip_literal(r, p, le, "false", 5);
    case 'n':
        *kind = JK_NULL;
        return skip_literal(r, p, le, "null", 4);
    default:
        *kind = JK_NUMBER;
        if (*p == '-' || is_digit(*p)) return skip_number(r, p, le);
        return bad(r, p, "invalid value");
    }
}

/* Inside an object at p (after '{' or ','): a key string and ':'; returns
 * the start of the value. */
static const char *skip_member_key(json_reader *r, const char *p, const char *le) {
    bool esc = false;
    if (p >= le || *p != '"') return bad(r, p, "expected a string key");
    if (!(p = skip_string(r, p, le, &esc))) return NULL;
    p = skip_ws(p, le);
    if (p >= le || *p != ':') return bad(r, p, "expected ':' after a key");
    return skip_ws(p + 1, le);
}

/* Validates and skips a nested object or array at p (iteratively, with a
 * stack of open brackets). */
static const char *skip_nested(json_reader *r, const char *p, const char *le) {
    char stack[JSON_MAX_DEPTH];
    int depth = 0;
    for (;;) {
        /* p is at a value */
        if (p < le && (*p == '{' || *p == '[')) {
            if (depth == JSON_MAX_DEPTH) return bad(r, p, "nesting deeper than 256 levels");
            char close = *p == '{' ? '}' : ']';
            stack[depth++] = close;
            p = skip_ws(p + 1, le);
            if (p < le && *p == close) {
                p++;
                depth--;
            } else {
                if (close == '}' && !(p = skip_member_key(r, p, le))) return NULL;
                continue;
            }
        } else {
            uint8_t kind;
            bool esc = false;
            if (!(p = skip_scalar(r, p, le, &kind, &esc))) return NULL;
        }
        /* after a value: close as many containers as end here */
        for (;;) {
            if (depth == 0) return p;
            p = skip_ws(p, le);
            if (p < le && *p == stack[depth - 1]) {
                p++;
                depth--;
                continue;
            }
            if (p < le && *p == ',') {
                p = skip_ws(p + 1, le);
                if (stack[depth - 1] == '}' && !(p = skip_member_key(r, p, le))) return NULL;
                break;
            }
            return bad(r, p,
                       stack[depth - 1] == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
        }
    }
}

#define FNV_OFF 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

static int lookup_key(const json_reader *r, const char *k, size_t n, uint64_t h) {
    for (uint32_t i = (uint32_t)h & r->mask;; i = (i + 1) & r->mask) {
        int ki = r->table[i];
        if (ki < 0) return -1;
        const json_key *jk = &r->keys[ki];
        if (jk->hash != h || jk->len != n) continue;
        size_t j = 0;
        while (j < n && r->norm[(uint8_t)k[j]] == (uint8_t)jk->key[j]) j++;
        if (j == n) return ki;
    }
}

static size_t decode_string(const char *p, const char *e, char *out);

/* scratch with room for n bytes (a decoded string is never longer than
 * its escaped form, so n is the escaped length). */
static char *scratch_for(json_reader *r, size_t n) {
    if (n + 1 > r->scratch_cap) {
        r->scratch_cap = SQE_MAX(n + 1, r->scratch_cap * 2);
        sqe_free(r->scratch);
        r->scratch = sqe_malloc(r->scratch_cap);
    }
    return r->scratch;
}

/* Scans a key string at p (the opening quote) and finds its binding. */
static const char *scan_key(json_reader *r, const char *p, const char *le, int *slot_key,
                            bool *dotted) {
    const char *q = p + 1;
    uint64_t h = FNV_OFF;
    const uint8_t *norm = r->norm;
    while (q < le && !k_str_stop[(uint8_t)*q]) {
        h = (h ^ norm[(uint8_t)*q]) * FNV_PRIME;
        q++;
    }
    if (q < le && *q == '"') {
        size_t n = (size_t)(q - p - 1);
        *slot_key = r->n_keys ? lookup_key(r, p + 1, n, h) : -1;
        *dotted = r->dots_in_keys && *slot_key >= 0 && memchr(p + 1, '.', n) != NULL;
        return q + 1;
    }
    bool esc = false; /* escapes: validate, decode, then hash the decoded key */
    const char *end = skip_string(r, p, le, &esc);
    if (!end) return NULL;
    if (r->n_keys) {
        char *k = scratch_for(r, (size_t)(end - p));
        size_t n = decode_string(p + 1, end - 1, k);
        h = FNV_OFF;
        for (size_t i = 0; i < n; i++) h = (h ^ norm[(uint8_t)k[i]]) * FNV_PRIME;
        *slot_key = lookup_key(r, k, n, h);
        *dotted = r->dots_in_keys && *slot_key >= 0 && memchr(k, '.', n) != NULL;
    } else {
        *slot_key = -1;
    }
    return end;
}

/* Pass 1 over the line [p, le) starting at '{'. */
static const char *json_object(json_reader *r, const char *p, const char *le) {
    p = skip_ws(p + 1, le);
    if (p < le && *p == '}') return p + 1;
    for (;;) {
        if (p >= le || *p != '"') return bad(r, p, "expected a string key");
        int k;
        bool dotted = false;
        if (!(p = scan_key(r, p, le, &k, &dotted))) return NULL;
        p = skip_ws(p, le);
        if (p >= le || *p != ':') return bad(r, p, "expected ':' after a key");
        p = skip_ws(p + 1, le);
        const char *vs = p;
        uint8_t kind;
        bool esc = false;
        if (p < le && (*p == '{' || *p == '[')) {
            kind = *p == '{' ? JK_OBJECT : JK_ARRAY;
            p = skip_nested(r, p, le);
        } else {
            p = skip_scalar(r, p, le, &kind, &esc);
        }
        if (!p) return NULL;
        /* dots.in.keys: a key matching exactly beats one matching through
         * '.' -> '_', whatever their order (as Trino's OpenX reader does) */
        if (k >= 0 && !(dotted && r->keys[k].seen == r->serial && !r->keys[k].dotted)) {
            json_key *jk = &r->keys[k];
            jk->dotted = dotted;
            jk->seen = r->serial;
            jk->vs = vs;
            jk->ve = p;
            jk->kind = kind;
            jk->esc = esc;
        }
        p = skip_ws(p, le);
        if (p < le && *p == ',') {
            p = skip_ws(p + 1, le);
            continue;
        }
        if (p < le && *p == '}') return p + 1;
        return bad(r, p, "expected ',' or '}'");
    }
}

/* ------------------------------------------------------------ pass 2 */

static size_t put_utf8(char *o, uint32_t cp) {
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | cp >> 6);
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | cp >> 12);
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | cp >> 18);
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* CHAR(n) (issue 7 item 15): values are padded with spaces to n characters,
 * the form CAST(x AS char(n)) gives (types/cast.c), so a value read from a
 * file and the same value cast compare equal and length() is n for both
 * (Trino's CHAR). `n` bytes at p hold at most `width` characters. */
static void set_char_padded(sqe_vector *v, uint32_t row, const char *p, size_t n, uint32_t width,
                            char **buf, size_t *cap) {
    uint32_t chars = 0;
    for (size_t i = 0; i < n; i++) chars += ((uint8_t)p[i] & 0xC0) != 0x80;
    if (chars >= width) {
        sqe_vector_set_string(v, row, p, n);
        return;
    }
    size_t total = n + (width - chars);
    if (total > *cap) {
        *cap = total;
        *buf = sqe_realloc(*buf, total);
    }
    if (n) memcpy(*buf, p, n);
    memset(*buf + n, ' ', width - chars);
    sqe_vector_set_string(v, row, *buf, total);
}

/* Decodes the (validated) string body [p, e) into out, which has room for
 * e - p bytes (an escape never decodes longer than it is written). */
static size_t decode_string(const char *p, const char *e, char *out) {
    char *o = out;
    while (p < e) {
        if (*p != '\\') {
            *o++ = *p++;
            continue;
        }
        char c = p[1];
        p += 2;
        switch (c) {
        case 'b':
            *o++ = '\b';
            break;
        case 'f':
            *o++ = '\f';
            break;
        case 'n':
            *o++ = '\n';
            break;
        case 'r':
            *o++ = '\r';
            break;
        case 't':
            *o++ = '\t';
            break;
        case 'u': {
            uint32_t u = 0, lo = 0;
            hex4(p, e, &u);
            p += 4;
            if (u >= 0xD800 && u <= 0xDBFF) {
                hex4(p + 2, e, &lo);
                p += 6;
                u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
            }
            o += put_utf8(o, u);
            break;
        }
        default:
            *o++ = c;
            break; /* " \ / */
        }
    }
    return (size_t)(o - out);
}

static size_t utf8_prefix(const char *p, size_t n, uint32_t max_chars) {
    if (n <= max_chars) return n;
    uint32_t chars = 0;
    for (size_t i = 0; i < n; i++) {
        if (((uint8_t)p[i] & 0xC0) != 0x80) {
            if (chars == max_chars) return i;
            chars++;
        }
    }
    return n;
}

/* Parses text [p, p+n) as the slot's (non-string) type into row. */
static bool decode_text(const json_reader *r, json_slot *s, uint32_t row, const char *p, size_t n,
                        sqe_error *err) {
    sqe_vector *v = s->v;
    int64_t i64;
    double d;
    if (n == 0) {
        sqe_vector_set_null(v, row);
        return true;
    }
    switch (s->type.id) {
    case SQE_T_BIGINT:
        if (!sqe_parse_int64(p, n, &i64)) return parse_error(r, s, p, n, err);
        SQE_VEC_DATA(v, int64_t)[row] = i64;
        return true;
    case SQE_T_INTEGER:
        if (!sqe_parse_int64(p, n, &i64) || i64 < INT32_MIN || i64 > INT32_MAX)
            return parse_error(r, s, p, n, err);
        SQE_VEC_DATA(v, int32_t)[row] = (int32_t)i64;
        return true;
    case SQE_T_SMALLINT:
        if (!sqe_parse_int64(p, n, &i64) || i64 < INT16_MIN || i64 > INT16_MAX)
            return parse_error(r, s, p, n, err);
        SQE_VEC_DATA(v, int16_t)[row] = (int16_t)i64;
        return true;
    case SQE_T_TINYINT:
        if (!sqe_parse_int64(p, n, &i64) || i64 < INT8_MIN || i64 > INT8_MAX)
            return parse_error(r, s, p, n, err);
        SQE_VEC_DATA(v, int8_t)[row] = (int8_t)i64;
        return true;
    case SQE_T_DOUBLE:
        if (!sqe_parse_double(p, n, &d)) return parse_error(r, s, p, n, err);
        SQE_VEC_DATA(v, double)[row] = d;
        return true;
    case SQE_T_REAL:
        if (!sqe_parse_double(p, n, &d)) return parse_error(r, s, p, n, err);
        SQE_VEC_DATA(v, float)[row] = (float)d;
        return true;
    case SQE_T_DECIMAL: {
        sqe_i128 dec;
        if (!sqe_parse_decimal(p, n, s->type.precision, s->type.scale, &dec))
            return parse_error(r, s, p, n, err);
        SQE_VEC_DATA(v, sqe_i128)[row] = dec;
        return true;
    }
    case SQE_T_DATE: {
        int32_t days;
        if (!sqe_parse_date(p, n, &days)) return parse_error(r, s, p, n, err);
        SQE_VEC_DATA(v, int32_t)[row] = days;
        return true;
    }
    case SQE_T_TIMESTAMP:
        if (!sqe_parse_timestamp(p, n, &i64)) return parse_error(r, s, p, n, err);
        SQE_VEC_DATA(v, int64_t)[row] = i64;
        return true;
    case SQE_T_BOOLEAN: {
        bool b;
        if (!sqe_parse_bool(p, n, &b)) return parse_error(r, s, p, n, err);
        SQE_VEC_DATA(v, uint8_t)[row] = b;
        return true;
    }
    default: /* SQE_T_NULL */
        sqe_vector_set_null(v, row);
        return true;
    }
}

static const char *kind_name(uint8_t kind) {
    return kind == JK_OBJECT ? "object" : "array";
}

/* Converts key k's value on this line into every slot bound to it. */
static bool convert_key(json_reader *r, const json_key *k, uint32_t row, sqe_error *err) {
    const char *p = k->vs;
    size_t n = (size_t)(k->ve - k->vs);
    if (k->kind == JK_STRING) {
        p++;
        n -= 2;
        if (k->esc) {
            char *d = scratch_for(r, n);
            n = decode_string(p, p + n, d);
            p = d;
        }
    }
    for (int si = k->slot; si >= 0; si = r->slots[si].next_dup) {
        json_slot *s = &r->slots[si];
        if (k->kind == JK_NULL) {
            sqe_vector_set_null(s->v, row);
            continue;
        }
        if (s->type.id == SQE_T_VARCHAR || s->type.id == SQE_T_VARBINARY) {
            size_t m = s->max_chars ? utf8_prefix(p, n, s->max_chars) : n;
            if (s->is_char)
                set_char_padded(s->v, row, p, m, s->max_chars, &s->pad, &s->pad_cap);
            else
                sqe_vector_set_string(s->v, row, p, m);
            continue;
        }
        if (k->kind == JK_OBJECT || k->kind == JK_ARRAY) {
            char tbuf[48], wbuf[64];
            where_text(r, wbuf, sizeof wbuf);
            return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                                 "cannot read a JSON %s as %s in file '%s' %s, column '%s': only "
                                 "string columns take nested JSON (as its text)",
                                 kind_name(k->kind), sqe_type_sql_name(s->type, tbuf, sizeof tbuf),
                                 r->path, wbuf, s->col_name);
        }
        if ((k->kind == JK_TRUE || k->kind == JK_FALSE) && s->type.id != SQE_T_BOOLEAN)
            return parse_error(r, s, p, n, err);
        if (!decode_text(r, s, row, p, n, err)) return false;
    }
    return true;
}

static void null_row(json_reader *r, uint32_t row) {
    for (int i = 0; i < r->n_slots; i++) sqe_vector_set_null(r->slots[i].v, row);
}

/* The line starting at p (ending at the next '\n' or lim): 1 when it made
 * row `row`, 0 for a blank line, -1 on error; *next is the next line. */
static int json_line(json_reader *r, const char *p, const char *lim, uint32_t row,
                     const char **next, sqe_error *err) {
    const char *start = p;
    if (r->at_file_start) {
        r->at_file_start = false;
        if (lim - p >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3;
    }
    p = skip_ws(p, lim);
    const char *le = p;
    int rc = 1;
    if (p == lim || *p == '\n') {
        rc = 0; /* blank */
    } else {
        r->serial++;
        const char *e =
            *p == '{' ? json_object(r, p, lim) : bad(r, p, "a line must hold a JSON object");
        if (e && (le = skip_ws(e, lim)) != lim && *le != '\n')
            e = bad(r, le, "unexpected data after the object");
        if (!e) {
            const char *nl = memchr(r->bad_at, '\n', (size_t)(lim - r->bad_at));
            le = nl ? nl : lim;
            rc = -1;
        }
    }
    if ((size_t)(le - start) > r->max_line) {
        too_long_error(r, start, err);
        return -1;
    }
    *next = le == lim ? lim : le + 1;
    if (rc == 0) return 0;
    if (rc < 0) {
        if (!r->ignore_malformed) {
            malformed_error(r, err);
            return -1;
        }
        null_row(r, row);
        return 1;
    }
    for (int k = 0; k < r->n_keys; k++) {
        json_key *jk = &r->keys[k];
        if (jk->seen != r->serial) {
            for (int si = jk->slot; si >= 0; si = r->slots[si].next_dup)
                sqe_vector_set_null(r->slots[si].v, row);
        } else if (!convert_key(r, jk, row, err)) {
            return -1;
        }
    }
    return 1;
}

/* ------------------------------------------------------------- buffer */

static void compute_limit(json_reader *r) {
    if (r->file_eof) {
        r->limit = r->len;
        return;
    }
    const char *nl = r->len > r->pos ? memrchr(r->buf + r->pos, '\n', r->len - r->pos) : NULL;
    r->limit = nl ? (size_t)(nl - r->buf) + 1 : r->pos;
}

static bool refill(json_reader *r, sqe_error *err) {
    size_t keep = r->len - r->pos;
    if (keep > r->max_line) return too_long_error(r, r->buf + r->pos, err);
    if (r->pos > 0) {
        memmove(r->buf, r->buf + r->pos, keep);
        r->len = keep;
        r->pos = 0;
    }
    size_t want = SQE_MAX(r->chunk, keep);
    if (r->split) {
        uint64_t to_end = r->range_end > r->file_off ? r->range_end - r->file_off : 0;
        want = SQE_MAX((size_t)SQE_MIN((uint64_t)want, to_end + 65536), keep);
    }
    /* Fresh memory costs a page fault per page, so the buffer is reused:
     * with a short tail the read shrinks to what fits, and the buffer only
     * grows (geometrically) for lines of more than half of it. */
    if (r->len + want > r->cap && r->cap > 2 * keep) want = r->cap - r->len;
    if (r->len + want > r->cap) {
        r->cap = SQE_MAX(r->len + want + (r->cap ? 0 : 65536), r->cap + r->cap / 2);
        r->buf = sqe_realloc(r->buf, r->cap);
    }
    size_t got = 0;
    while (got < want) {
        size_t n;
        bool eof;
        if (!sqe_byte_stream_read(r->bs, r->buf + r->len + got, want - got, &n, &eof, err))
            return false;
        got += n;
        if (eof) {
            r->file_eof = true;
            break;
        }
    }
    r->len += got;
    r->file_off += got;
    r->base.stats.bytes_read = sqe_byte_stream_raw_bytes(r->bs);
    compute_limit(r);
    return true;
}

/* ---------------------------------------------------------------- next */

static bool json_next(sqe_reader *rd, sqe_batch *out, bool *eof, sqe_error *err) {
    json_reader *r = (json_reader *)rd;
    *eof = false;
    out->n_rows = 0;
    if (out->n_cols < r->n_slots)
        return sqe_error_set(err, SQE_ERR_INTERNAL,
                             "JSON reader for '%s': batch has %d columns, %d projected", r->path,
                             out->n_cols, r->n_slots);
    for (int i = 0; i < r->n_slots; i++) r->slots[i].v = out->cols[i];
    uint32_t rows = 0;
    while (rows < SQE_BATCH_ROWS) {
        if (r->pos >= r->limit) {
            if (r->file_eof) break;
            if (!refill(r, err)) return false;
            continue;
        }
        const char *p = r->buf + r->pos, *lim = r->buf + r->limit;
        if (r->skip_partial) {
            const char *nl = memchr(p, '\n', (size_t)(lim - p));
            r->pos = nl ? (size_t)(nl + 1 - r->buf) : r->limit;
            r->skip_partial = nl == NULL;
            continue;
        }
        const char *stop = lim;
        uint64_t base = r->file_off - r->len;
        if (r->split && r->range_end < base + r->limit)
            stop = r->range_end > base ? r->buf + (r->range_end - base) : r->buf;
        while (rows < SQE_BATCH_ROWS && p < stop) {
            r->line_start = p;
            int rc = json_line(r, p, lim, rows, &p, err);
            if (rc < 0) return false;
            rows += (uint32_t)rc;
            r->line_no++;
        }
        r->pos = (size_t)(p - r->buf);
        if (r->split && base + r->pos >= r->range_end) {
            r->pos = r->limit = r->len;
            r->file_eof = true;
        }
    }
    out->n_rows = rows;
    r->base.stats.rows_read += rows;
    if (rows == 0) *eof = true;
    return true;
}

/* ---------------------------------------------------------- open/close */

static void json_close(sqe_reader *rd) {
    json_reader *r = (json_reader *)rd;
    if (!r) return;
    for (int i = 0; i < r->n_slots; i++) {
        sqe_free(r->slots[i].col_name);
        sqe_free(r->slots[i].pad);
    }
    for (int i = 0; i < r->n_keys; i++) sqe_free(r->keys[i].key);
    sqe_free(r->slots);
    sqe_free(r->keys);
    sqe_free(r->table);
    sqe_free(r->buf);
    sqe_free(r->scratch);
    sqe_free(r->path);
    sqe_byte_stream_close(r->bs);
    sqe_free(r);
}

/* The JSON key column c binds: its mapping.<col> value, else its name. */
static const char *binding_key(const sqe_reader_spec *spec, int c) {
    const sqe_json_options *o = &spec->json;
    const char *name = spec->col_names && spec->col_names[c] ? spec->col_names[c] : "?";
    for (int i = 0; i < o->n_mappings; i++)
        if (o->mapping_cols && o->mapping_keys && o->mapping_cols[i] && o->mapping_keys[i] &&
            sqe_str_ieq(o->mapping_cols[i], name))
            return o->mapping_keys[i];
    return name;
}

/* Appends slot i to the chain that starts at slot `first`. */
static void chain_slot(json_reader *r, int first, int i) {
    while (r->slots[first].next_dup >= 0) first = r->slots[first].next_dup;
    r->slots[first].next_dup = i;
}

/* Builds slots and keys: one key per distinct binding key (a column
 * projected twice, or two columns mapped to the same JSON key, share it and
 * chain their slots), then the hash table over them. */
static void json_bind(json_reader *r, const sqe_reader_spec *spec) {
    r->n_slots = spec->n_proj;
    r->slots = sqe_calloc((size_t)SQE_MAX(spec->n_proj, 1), sizeof *r->slots);
    r->keys = sqe_calloc((size_t)SQE_MAX(spec->n_proj, 1), sizeof *r->keys);
    uint32_t size = 8;
    while (size < (uint32_t)spec->n_proj * 2) size <<= 1;
    r->mask = size - 1;
    r->table = sqe_malloc(sizeof(int) * size);
    for (uint32_t i = 0; i < size; i++) r->table[i] = -1;
    for (int i = 0; i < spec->n_proj; i++) {
        int c = spec->proj[i];
        json_slot *s = &r->slots[i];
        s->type = spec->col_types[c];
        s->max_chars = (s->type.id == SQE_T_VARCHAR && s->type.str_kind != SQE_STRKIND_STRING)
                           ? s->type.length
                           : 0;
        s->is_char = s->type.id == SQE_T_VARCHAR && s->type.str_kind == SQE_STRKIND_CHAR &&
                     s->type.length > 0;
        s->col_name = sqe_strdup(spec->col_names && spec->col_names[c] ? spec->col_names[c] : "?");
        s->next_dup = -1;
        const char *key = binding_key(spec, c);
        uint32_t len = (uint32_t)strlen(key);
        uint64_t h = FNV_OFF;
        for (uint32_t j = 0; j < len; j++) h = (h ^ r->norm[(uint8_t)key[j]]) * FNV_PRIME;
        int found = lookup_key(r, key, len, h);
        if (found >= 0) {
            chain_slot(r, r->keys[found].slot, i);
            continue;
        }
        json_key *k = &r->keys[r->n_keys];
        k->len = len;
        k->hash = h;
        k->key = sqe_malloc(len + 1);
        for (uint32_t j = 0; j < len; j++) k->key[j] = (char)r->norm[(uint8_t)key[j]];
        k->key[len] = 0;
        k->slot = i;
        uint32_t t = (uint32_t)h & r->mask;
        while (r->table[t] >= 0) t = (t + 1) & r->mask;
        r->table[t] = r->n_keys++;
    }
}

static sqe_reader *json_open_at(sqe_store *store, const char *path, uint64_t size, uint64_t start,
                                const sqe_reader_spec *spec, sqe_error *err) {
    if (spec->n_proj < 0 || (spec->n_proj > 0 && !spec->proj)) {
        sqe_error_set(err, SQE_ERR_INTERNAL, "JSON reader for '%s': bad projection", path);
        return NULL;
    }
    for (int i = 0; i < spec->n_proj; i++) {
        if (spec->proj[i] < 0 || spec->proj[i] >= spec->n_table_cols) {
            sqe_error_set(err, SQE_ERR_INTERNAL, "JSON reader for '%s': projected column %d of %d",
                          path, spec->proj[i], spec->n_table_cols);
            return NULL;
        }
    }
    size_t chunk = sqe_text_reader_chunk_size ? sqe_text_reader_chunk_size : 1;
    sqe_codec codec = sqe_codec_for_path(path);
    sqe_byte_stream *bs = sqe_byte_stream_open(
        store, path, size, start, codec,
        codec == SQE_CODEC_NONE ? chunk : SQE_MIN(chunk, (size_t)1 << 20), err);
    if (!bs) return NULL;
    json_reader *r = sqe_calloc(1, sizeof *r);
    r->base.vt = &sqe_json_reader_vtable;
    r->path = sqe_strdup(path);
    r->bs = bs;
    const sqe_json_options *o = &spec->json;
    r->openx = o->serde == SQE_JSON_SERDE_OPENX;
    r->ignore_malformed = o->ignore_malformed;
    r->dots_in_keys = o->dots_in_keys;
    for (int c = 0; c < 256; c++) {
        uint8_t b = (uint8_t)c;
        if (!o->case_sensitive && b >= 'A' && b <= 'Z') b = (uint8_t)(b + 32);
        if (o->dots_in_keys && b == '.') b = '_';
        r->norm[c] = b;
    }
    r->chunk = chunk;
    r->max_line = sqe_text_reader_max_line;
    r->line_no = 1;
    r->file_off = start;
    r->at_file_start = start == 0;
    json_bind(r, spec);
    return &r->base;
}

static sqe_reader *json_open(sqe_store *store, const char *path, uint64_t size,
                             const sqe_reader_spec *spec, sqe_error *err) {
    return json_open_at(store, path, size, 0, spec, err);
}

static sqe_reader *json_open_range(sqe_store *store, const char *path, uint64_t size,
                                   uint64_t start, uint64_t end, const sqe_reader_spec *spec,
                                   sqe_error *err) {
    if (!sqe_format_splittable(spec, path) || end < start || spec->format != SQE_FORMAT_JSON) {
        sqe_error_set(err, SQE_ERR_INTERNAL,
                      "JSON reader: '%s' cannot be read as byte range [%llu, %llu)", path,
                      (unsigned long long)start, (unsigned long long)end);
        return NULL;
    }
    sqe_reader *rd = json_open_at(store, path, size, start > 0 ? start - 1 : 0, spec, err);
    if (!rd) return NULL;
    json_reader *r = (json_reader *)rd;
    r->split = true;
    r->range_end = end;
    r->skip_partial = start > 0;   /* a line starts at `start` iff byte start - 1 is '\n' */
    r->at_file_start = start == 0; /* (the reader opened at byte start - 1) */
    return rd;
}

const sqe_reader_vtable sqe_json_reader_vtable = {
    .name = "json",
    .open = json_open,
    .next = json_next,
    .close = json_close,
    .open_range = json_open_range,
};
