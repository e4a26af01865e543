/*
 * escape.c - the small text rules of Hive DDL and Hive paths.
 *
 *  - DDL string literals reach us raw from the parser ('\001' is four
 *    characters). Hive unescapes every literal of a DDL statement (comments,
 *    SERDEPROPERTIES, TBLPROPERTIES, LOCATION) with its unescapeSQLString;
 *    hive_unescape does the same, with two widenings the spec asks for:
 *    octal escapes of 1-3 digits and \f. SHOW CREATE TABLE renders values
 *    with hive_render_literal, the exact inverse, so DDL round-trips.
 *  - LazySimpleSerDe reads a delimiter property with Hive's getByte: a
 *    value that reads as a decimal number is that byte ('9' is TAB, '124'
 *    is '|'); otherwise its one character. We reject what Hive would
 *    silently truncate (multi-character values, bytes above 127).
 *  - Partition folder names escape values like FileUtils.escapePathName
 *    (%XX, uppercase hex) and decode like unescapePathName (a '%' not
 *    followed by two hex digits stays literal).
 *  - Names of roots, databases and tables fold to lower case and must be
 *    [a-z0-9_]+ (SPEC §2.5), so a name can never escape its root.
 */
#include "hive/hive_int.h"

#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------ literals */

static int hex_val(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static void put_utf8(sqe_strbuf *sb, unsigned cp) {
    if (cp < 0x80) {
        sqe_strbuf_putc(sb, (char)cp);
    } else if (cp < 0x800) {
        sqe_strbuf_putc(sb, (char)(0xC0 | (cp >> 6)));
        sqe_strbuf_putc(sb, (char)(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        sqe_strbuf_putc(sb, (char)(0xE0 | (cp >> 12)));
        sqe_strbuf_putc(sb, (char)(0x80 | ((cp >> 6) & 0x3F)));
        sqe_strbuf_putc(sb, (char)(0x80 | (cp & 0x3F)));
    } else {
        sqe_strbuf_putc(sb, (char)(0xF0 | (cp >> 18)));
        sqe_strbuf_putc(sb, (char)(0x80 | ((cp >> 12) & 0x3F)));
        sqe_strbuf_putc(sb, (char)(0x80 | ((cp >> 6) & 0x3F)));
        sqe_strbuf_putc(sb, (char)(0x80 | (cp & 0x3F)));
    }
}

/* The code unit of a \uXXXX escape at raw[i] ('\' there), or -1. */
static long u_escape_at(const char *raw, size_t n, size_t i) {
    if (i + 5 >= n || raw[i] != '\\' || raw[i + 1] != 'u') return -1;
    long v = 0;
    for (size_t k = 2; k < 6; k++) {
        int h = hex_val(raw[i + k]);
        if (h < 0) return -1;
        v = v << 4 | h;
    }
    return v;
}

/* Decodes escapes into sb without any validity check (bytes may be NUL or
 * above 127: the callers decide). */
static void unescape_bytes(const char *raw, sqe_strbuf *sb) {
    size_t n = strlen(raw);
    for (size_t i = 0; i < n; i++) {
        char c = raw[i];
        if (c != '\\' || i + 1 >= n) {
            sqe_strbuf_putc(sb, c);
            continue;
        }
        char d = raw[i + 1];
        long u = u_escape_at(raw, n, i);
        if (u >= 0) {
            /* \uD83D\uDE00: a UTF-16 surrogate pair is one character, as
             * in Hive's Java strings. A lone surrogate is left as its
             * (invalid) 3-byte form for the UTF-8 check to reject. */
            long lo = (u >= 0xD800 && u <= 0xDBFF) ? u_escape_at(raw, n, i + 6) : -1;
            if (lo >= 0xDC00 && lo <= 0xDFFF) {
                put_utf8(sb, (unsigned)(0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00)));
                i += 11;
            } else {
                put_utf8(sb, (unsigned)u);
                i += 5;
            }
            continue;
        }
        if (d >= '0' && d <= '7') {
            unsigned v = 0;
            size_t j = i + 1;
            while (j < n && j < i + 4 && raw[j] >= '0' && raw[j] <= '7' &&
                   v * 8 + (unsigned)(raw[j] - '0') <= 0377) {
                v = v * 8 + (unsigned)(raw[j] - '0');
                j++;
            }
            sqe_strbuf_putc(sb, (char)v);
            i = j - 1;
            continue;
        }
        switch (d) {
        case 't':
            sqe_strbuf_putc(sb, '\t');
            break;
        case 'n':
            sqe_strbuf_putc(sb, '\n');
            break;
        case 'r':
            sqe_strbuf_putc(sb, '\r');
            break;
        case 'b':
            sqe_strbuf_putc(sb, '\b');
            break;
        case 'f':
            sqe_strbuf_putc(sb, '\f');
            break;
        case 'Z':
            sqe_strbuf_putc(sb, '\x1A');
            break;
        case '%':
            sqe_strbuf_puts(sb, "\\%");
            break; /* as MySQL and Hive do */
        case '_':
            sqe_strbuf_puts(sb, "\\_");
            break;
        default:
            sqe_strbuf_putc(sb, d);
            break; /* \\ \' \" and unknown \c -> c */
        }
        i++;
    }
}

bool hive_utf8_valid(const char *s, size_t n) {
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        unsigned c = p[i];
        size_t k;
        unsigned cp;
        if (c < 0x80) {
            i++;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            k = 1, cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            k = 2, cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            k = 3, cp = c & 0x07;
        } else {
            return false;
        }
        if (i + k >= n) return false;
        for (size_t j = 1; j <= k; j++) {
            if ((p[i + j] & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (p[i + j] & 0x3F);
        }
        if ((k == 1 && cp < 0x80) || (k == 2 && cp < 0x800) || (k == 3 && cp < 0x10000) ||
            cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += k + 1;
    }
    return true;
}

char *hive_unescape(const char *raw, size_t *out_len, const char **why) {
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    unescape_bytes(raw, &sb);
    if (sb.len && memchr(sb.data, '\0', sb.len)) {
        sqe_strbuf_free(&sb);
        *why = "contains a NUL character (\\0), which sqe cannot store";
        return NULL;
    }
    if (!hive_utf8_valid(sb.data ? sb.data : "", sb.len)) {
        sqe_strbuf_free(&sb);
        *why = "is not valid UTF-8 after escape processing (octal escapes above \\177 make single "
               "bytes; \\uD800-\\uDFFF must come in surrogate pairs)";
        return NULL;
    }
    if (out_len) *out_len = sb.len;
    if (!sb.data) return sqe_strdup("");
    return sqe_strbuf_detach(&sb);
}

void hive_render_literal(sqe_strbuf *sb, const char *value) {
    for (const unsigned char *p = (const unsigned char *)value; *p; p++) {
        unsigned c = *p;
        switch (c) {
        case '\'':
            sqe_strbuf_puts(sb, "''");
            break;
        case '\\':
            sqe_strbuf_puts(sb, "\\\\");
            break;
        case '\n':
            sqe_strbuf_puts(sb, "\\n");
            break;
        case '\t':
            sqe_strbuf_puts(sb, "\\t");
            break;
        case '\r':
            sqe_strbuf_puts(sb, "\\r");
            break;
        default:
            if (c < 0x20 || c == 0x7F)
                sqe_strbuf_printf(sb, "\\%03o", c);
            else
                sqe_strbuf_putc(sb, (char)c);
        }
    }
}

/* ------------------------------------------------------------ delimiters */

/* Raw bytes of a literal (for delimiter clauses, whose errors must see the
 * byte before any UTF-8 check). malloc'd; *n gets the length. */
char *hive_unescape_raw(const char *raw, size_t *n) {
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    unescape_bytes(raw, &sb);
    *n = sb.len;
    if (!sb.data) return sqe_strdup("");
    return sqe_strbuf_detach(&sb);
}

bool hive_delim_byte_n(const char *v, size_t n, bool numeric_rule, unsigned char *out, char *why,
                       size_t why_len) {
    if (n == 0) {
        snprintf(why, why_len, "is empty; a delimiter must be exactly one character");
        return false;
    }
    if (numeric_rule) {
        size_t i = (v[0] == '-' || v[0] == '+') ? 1 : 0;
        size_t digits = 0;
        while (i + digits < n && v[i + digits] >= '0' && v[i + digits] <= '9') digits++;
        if (digits > 0 && i + digits == n) { /* reads as a decimal number: that byte */
            long val = 0;
            for (size_t j = i; j < n; j++) {
                val = val * 10 + (v[j] - '0');
                if (val > 100000) break;
            }
            if (v[0] == '-') val = -val;
            if (val < 0 || val > 127) {
                snprintf(why, why_len,
                         "reads as the number %ld, which Hive takes as a byte value; only ASCII "
                         "delimiters (0-127) are supported",
                         val);
                return false;
            }
            if (val == 0) {
                snprintf(why, why_len, "is byte 0 (NUL), which is not supported as a delimiter");
                return false;
            }
            *out = (unsigned char)val;
            return true;
        }
    }
    unsigned char c = (unsigned char)v[0];
    if (c >= 0x80) {
        if (n == 1 || !hive_utf8_valid(v, n))
            snprintf(why, why_len, "is byte %u; only ASCII delimiters (0-127) are supported", c);
        else if (sqe_utf8_count(v, n) == 1)
            snprintf(why, why_len,
                     "is not an ASCII character; only ASCII delimiters (0-127) are supported");
        else
            snprintf(why, why_len, "is %zu characters; a delimiter must be exactly one character",
                     sqe_utf8_count(v, n));
        return false;
    }
    if (n > 1) {
        snprintf(why, why_len, "is %zu characters; a delimiter must be exactly one character",
                 sqe_utf8_count(v, n));
        return false;
    }
    if (c == 0) {
        snprintf(why, why_len, "is byte 0 (NUL), which is not supported as a delimiter");
        return false;
    }
    *out = c;
    return true;
}

bool hive_delim_byte(const char *value, bool numeric_rule, unsigned char *out, char *why,
                     size_t why_len) {
    return hive_delim_byte_n(value, strlen(value), numeric_rule, out, why, why_len);
}

/* ------------------------------------------------------------ names */

bool hive_name_valid(const char *s) {
    if (!s || !*s) return false;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_')) return false;
    return true;
}

char *hive_fold_name(const char *name) {
    char *s = sqe_str_lower(sqe_strdup(name ? name : ""));
    if (!hive_name_valid(s)) {
        sqe_free(s);
        return NULL;
    }
    return s;
}

/* ------------------------------------------------------------ paths */

static bool path_char_escaped(unsigned char c) {
    /* Hive's list starts at \001; NUL is escaped too, since a decoded
     * `%00` can only be written back as `%00` (no path holds a NUL). */
    if (c < ' ') return true;
    switch (c) {
    case '"':
    case '#':
    case '%':
    case '\'':
    case '*':
    case '/':
    case ':':
    case '=':
    case '?':
    case '\\':
    case 0x7F:
    case '{':
    case '[':
    case ']':
    case '^':
        return true;
    default:
        return false;
    }
}

void hive_escape_path_value(sqe_strbuf *sb, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (path_char_escaped(c))
            sqe_strbuf_printf(sb, "%%%02X", c);
        else
            sqe_strbuf_putc(sb, (char)c);
    }
}

char *hive_unescape_path_value(sqe_arena *a, const char *s, size_t n, size_t *out_len) {
    char *out = sqe_arena_alloc(a, n + 1);
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '%' && i + 2 < n && hex_val(s[i + 1]) >= 0 && hex_val(s[i + 2]) >= 0) {
            out[o++] = (char)(hex_val(s[i + 1]) << 4 | hex_val(s[i + 2]));
            i += 2;
        } else {
            out[o++] = s[i];
        }
    }
    out[o] = '\0';
    *out_len = o;
    return out;
}
