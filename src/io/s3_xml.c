/*
 * s3_xml.c - the bounded XML scanner for S3 responses (ListObjectsV2,
 * errors, multipart uploads) and S3's two time formats.
 *
 * S3 writes flat XML with fixed element names and escapes '<', '>' and '&'
 * in keys, so a literal search for "<Tag>" finds elements reliably without
 * a parser. Invariants: every search is limited to the span it was given
 * (memmem over [doc+pos, doc+len)), nothing reads past len, and decoding
 * allocates at most the span's length + 1. A response that does not have
 * the expected shape makes the caller fail with "malformed response",
 * never crash or loop: each call advances *pos past what it consumed.
 */
#include "io/s3_int.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static const char *find(const char *p, size_t n, const char *needle, size_t nn) {
    return memmem(p, n, needle, nn);
}

bool sqe_xml_next(const char *doc, size_t len, size_t *pos, const char *tag, sqe_xml_span *inner) {
    size_t tl = strlen(tag);
    if (!doc || tl == 0 || tl > 64) return false;
    char open[70], close[72];
    snprintf(open, sizeof open, "<%s", tag);
    snprintf(close, sizeof close, "</%s>", tag);
    size_t at = *pos;
    while (at < len) {
        const char *o = find(doc + at, len - at, open, tl + 1);
        if (!o) return false;
        size_t after = (size_t)(o - doc) + tl + 1; /* just past "<tag" */
        if (after >= len) return false;
        char c = doc[after];
        if (c != '>' && c != ' ' && c != '/' && c != '\t' && c != '\n' && c != '\r') {
            at = after; /* "<TagLonger": not this element */
            continue;
        }
        const char *gt = memchr(doc + after, '>', len - after);
        if (!gt) return false;
        size_t content = (size_t)(gt - doc) + 1;
        if (gt > doc + after && gt[-1] == '/') { /* <tag/> */
            inner->p = doc + content;
            inner->n = 0;
            *pos = content;
            return true;
        }
        const char *cl = find(doc + content, len - content, close, tl + 3);
        if (!cl) return false;
        inner->p = doc + content;
        inner->n = (size_t)(cl - (doc + content));
        *pos = (size_t)(cl - doc) + tl + 3;
        return true;
    }
    return false;
}

bool sqe_xml_child(sqe_xml_span span, const char *tag, sqe_xml_span *inner) {
    size_t pos = 0;
    return sqe_xml_next(span.p, span.n, &pos, tag, inner);
}

static void put_utf8(sqe_strbuf *sb, unsigned long cp) {
    char b[4];
    if (cp < 0x80) {
        b[0] = (char)cp;
        sqe_strbuf_append(sb, b, 1);
    } else if (cp < 0x800) {
        b[0] = (char)(0xC0 | (cp >> 6));
        b[1] = (char)(0x80 | (cp & 0x3F));
        sqe_strbuf_append(sb, b, 2);
    } else if (cp < 0x10000) {
        b[0] = (char)(0xE0 | (cp >> 12));
        b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[2] = (char)(0x80 | (cp & 0x3F));
        sqe_strbuf_append(sb, b, 3);
    } else {
        b[0] = (char)(0xF0 | (cp >> 18));
        b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        b[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[3] = (char)(0x80 | (cp & 0x3F));
        sqe_strbuf_append(sb, b, 4);
    }
}

/* Decodes one entity body (between '&' and ';'); false if unknown/invalid. */
static bool xml_entity(sqe_strbuf *sb, const char *e, size_t n) {
    static const struct {
        const char *name;
        char c;
    } named[] = {{"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
    for (size_t i = 0; i < SQE_ARRAY_LEN(named); i++)
        if (strlen(named[i].name) == n && memcmp(named[i].name, e, n) == 0) {
            sqe_strbuf_putc(sb, named[i].c);
            return true;
        }
    if (n < 2 || e[0] != '#' || n > 10) return false;
    bool hex = e[1] == 'x' || e[1] == 'X';
    size_t i = hex ? 2 : 1;
    if (i >= n) return false;
    unsigned long cp = 0;
    for (; i < n; i++) {
        char c = e[i];
        int d = c >= '0' && c <= '9'          ? c - '0'
                : hex && c >= 'a' && c <= 'f' ? c - 'a' + 10
                : hex && c >= 'A' && c <= 'F' ? c - 'A' + 10
                                              : -1;
        if (d < 0) return false;
        cp = cp * (hex ? 16 : 10) + (unsigned long)d;
        if (cp > 0x10FFFF) return false;
    }
    if (cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    put_utf8(sb, cp);
    return true;
}

char *sqe_xml_text(sqe_xml_span span) {
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    size_t i = 0;
    while (i < span.n) {
        const char *amp = memchr(span.p + i, '&', span.n - i);
        size_t stop = amp ? (size_t)(amp - span.p) : span.n;
        if (memchr(span.p + i, '\0', stop - i)) goto bad;
        sqe_strbuf_append(&sb, span.p + i, stop - i);
        if (!amp) break;
        size_t start = stop + 1;
        const char *semi = memchr(span.p + start, ';', SQE_MIN(span.n - start, (size_t)12));
        if (!semi || !xml_entity(&sb, span.p + start, (size_t)(semi - (span.p + start)))) goto bad;
        i = (size_t)(semi - span.p) + 1;
    }
    return sqe_strbuf_detach(&sb);
bad:
    sqe_strbuf_free(&sb);
    return NULL;
}

static int hex_digit(char c) {
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

bool sqe_s3_url_decode(char *s) {
    char *w = s;
    for (const char *r = s; *r; r++) {
        if (*r == '+') {
            *w++ = ' ';
        } else if (*r == '%') {
            int hi = hex_digit(r[1]), lo = hi < 0 ? -1 : hex_digit(r[2]);
            if (lo < 0 || (hi == 0 && lo == 0)) return false;
            *w++ = (char)(hi * 16 + lo);
            r += 2;
        } else {
            *w++ = *r;
        }
    }
    *w = '\0';
    return true;
}

int64_t sqe_s3_parse_time(const char *s) {
    if (!s) return 0;
    struct tm tm = {0};
    int y, mo, d, h, mi, sec, ms = 0;
    if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d", &y, &mo, &d, &h, &mi, &sec) == 6) {
        const char *dot = strchr(s, '.');
        if (dot) sscanf(dot + 1, "%3d", &ms);
        tm.tm_year = y - 1900;
        tm.tm_mon = mo - 1;
        tm.tm_mday = d;
        tm.tm_hour = h;
        tm.tm_min = mi;
        tm.tm_sec = sec;
        return (int64_t)timegm(&tm) * 1000000 + (int64_t)ms * 1000;
    }
    const char *end = strptime(s, "%a, %d %b %Y %H:%M:%S", &tm);
    if (!end) return 0;
    return (int64_t)timegm(&tm) * 1000000;
}
