/*
 * str.c - growable string buffers, ASCII case helpers, LIKE matching and the
 * byte hash used by hash tables.
 */
#include "base.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

void sqe_strbuf_init(sqe_strbuf *sb) {
    sb->data = NULL;
    sb->len = sb->cap = 0;
}

void sqe_strbuf_free(sqe_strbuf *sb) {
    sqe_free(sb->data);
    sqe_strbuf_init(sb);
}

void sqe_strbuf_clear(sqe_strbuf *sb) {
    sb->len = 0;
    if (sb->data) sb->data[0] = '\0';
}

static void sb_reserve(sqe_strbuf *sb, size_t extra) {
    if (sb->len + extra + 1 <= sb->cap) return;
    size_t nc = sb->cap ? sb->cap * 2 : 64;
    while (nc < sb->len + extra + 1) nc *= 2;
    sb->data = sqe_realloc(sb->data, nc);
    sb->cap = nc;
}

void sqe_strbuf_append(sqe_strbuf *sb, const char *s, size_t n) {
    sb_reserve(sb, n);
    if (n) memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}

void sqe_strbuf_puts(sqe_strbuf *sb, const char *s) {
    sqe_strbuf_append(sb, s, strlen(s));
}

void sqe_strbuf_putc(sqe_strbuf *sb, char c) {
    sqe_strbuf_append(sb, &c, 1);
}

void sqe_strbuf_vprintf(sqe_strbuf *sb, const char *fmt, va_list ap) {
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    sb_reserve(sb, (size_t)n);
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    sb->len += (size_t)n;
}

void sqe_strbuf_printf(sqe_strbuf *sb, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    sqe_strbuf_vprintf(sb, fmt, ap);
    va_end(ap);
}

char *sqe_strbuf_detach(sqe_strbuf *sb) {
    char *p = sb->data ? sb->data : sqe_strdup("");
    sqe_strbuf_init(sb);
    return p;
}

bool sqe_str_ieq(const char *a, const char *b) {
    while (*a && *b) {
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return false;
        a++, b++;
    }
    return *a == *b;
}

bool sqe_str_ieqn(const char *a, const char *b, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i])) return false;
        if (!a[i]) return true;
    }
    return true;
}

bool sqe_str_starts_with(const char *s, const char *prefix) {
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool sqe_str_ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

size_t sqe_utf8_count(const char *p, size_t n) {
    size_t count = 0;
    for (size_t i = 0; i < n; i++) count += ((unsigned char)p[i] & 0xC0) != 0x80;
    return count;
}

char *sqe_str_lower(char *s) {
    for (char *p = s; *p; p++) *p = (char)tolower((unsigned char)*p);
    return s;
}

static inline int fold(int c, bool ci) {
    return ci ? tolower(c) : c;
}

/* Iterative LIKE with single-star backtracking (the classic wildcard
 * algorithm): O(n*m) worst case, no recursion, no allocation. */
bool sqe_like_match(const char *s, size_t s_len, const char *p, size_t p_len, char escape,
                    bool ci) {
    size_t si = 0, pi = 0, star_p = (size_t)-1, star_s = 0;
    while (si < s_len) {
        if (pi < p_len) {
            unsigned char pc = (unsigned char)p[pi];
            if (escape && pc == (unsigned char)escape && pi + 1 < p_len) {
                if (fold((unsigned char)p[pi + 1], ci) == fold((unsigned char)s[si], ci)) {
                    pi += 2, si++;
                    continue;
                }
            } else if (pc == '%') {
                star_p = pi++;
                star_s = si;
                continue;
            } else if (pc == '_' || fold(pc, ci) == fold((unsigned char)s[si], ci)) {
                pi++, si++;
                continue;
            }
        }
        if (star_p != (size_t)-1) {
            pi = star_p + 1;
            si = ++star_s;
            continue;
        }
        return false;
    }
    while (pi < p_len && p[pi] == '%') pi++;
    return pi == p_len;
}

static inline uint64_t rd64(const unsigned char *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

uint64_t sqe_hash_bytes(const void *data, size_t n, uint64_t seed) {
    const unsigned char *p = data;
    uint64_t h = seed ^ (0x9e3779b97f4a7c15ULL * (n + 1));
    while (n >= 8) {
        h = sqe_hash_u64(h ^ rd64(p));
        p += 8;
        n -= 8;
    }
    uint64_t tail = 0;
    for (size_t i = 0; i < n; i++) tail |= (uint64_t)p[i] << (8 * i);
    return sqe_hash_u64(h ^ tail ^ 0x2545f4914f6cdd1dULL);
}
