/*
 * regex.c - Trino's regular expression functions on PCRE2 (Debian's
 * libpcre2-8): regexp_like, regexp_extract (with a group), regexp_replace
 * (with $g / ${name} group references), regexp_count, regexp_position; the
 * array-valued regexp_extract_all and regexp_split fail with NOT_SUPPORTED
 * until arrays exist.
 *
 * Syntax. Trino documents Java's pattern syntax; PCRE2 reads nearly all of
 * it the same way. rx_translate rewrites what differs: Java's POSIX
 * classes \p{Lower} \p{Upper} \p{Alpha} \p{Digit} \p{Alnum} \p{Punct}
 * \p{Space} \p{XDigit} \p{Blank} \p{Cntrl} \p{Graph} \p{Print} (and \P{..})
 * become [[:lower:]]-style classes (ASCII, as in Java); class intersection
 * ([a-z&&[^aeiou]]) has no PCRE2 equivalent and fails with NOT_SUPPORTED.
 * Patterns compile in UTF mode with PCRE2_MATCH_INVALID_UTF, so a value
 * that is not valid UTF-8 never errors (its bad bytes match nothing but
 * themselves); only \n ends a line for (?m), as Trino documents.
 *
 * Compilation. A constant pattern is compiled once in each expression
 * state that runs the call (the binding's state_new/state_free; func.h),
 * on its first row, then JIT-compiled when PCRE2 has a JIT. A bad pattern
 * fails when the call first runs (not at bind time, so that try() and
 * CASE branches that never run are not failed by it), naming the function
 * and the pattern.
 * Nothing is cached globally, and states are per thread, so matching needs
 * no locks. A pattern that varies per row is compiled when it differs from
 * the previous row's (the state keeps the last one).
 *
 * Limits. Every match runs under a match limit (backtracking steps), a
 * depth limit, a heap limit and a bounded JIT stack; a pattern that needs
 * more (catastrophic backtracking such as (a+)+b) fails the query with
 * RESOURCE_EXHAUSTED naming the function and the pattern instead of
 * running for hours. Replacement results are capped at 256 MiB.
 *
 * Positions (regexp_position, its start argument) count code points, as
 * every string function does. After an empty match the search resumes one
 * character later (Java's find()), so regexp_replace('abc', 'x*', '-') is
 * '-a-b-c-'.
 */
#include "func/func_int.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>

#define RX_MATCH_LIMIT 5000000u    /* backtracking steps per match attempt */
#define RX_DEPTH_LIMIT 100000u     /* nested backtracking frames */
#define RX_HEAP_LIMIT_KIB 65536u   /* 64 MiB of backtracking memory */
#define RX_JIT_STACK (1u << 20)    /* 1 MiB JIT stack */
#define RX_PATTERN_MAX (64u << 10) /* longest pattern accepted */
#define RX_RESULT_MAX ((size_t)1 << 28)

/* Bind-time data: the constant pattern, if any. */
typedef struct rx_bind {
    const char *pat;
    uint32_t len;
} rx_bind;

/* Per-expression-state data. */
typedef struct rx_state {
    pcre2_code *code;
    char *src; /* the pattern `code` was compiled from (per-row cache key) */
    uint32_t src_len;
    pcre2_match_data *md;
    pcre2_match_context *mctx;
    pcre2_jit_stack *jstack;
    bool jit;       /* code is JIT-compiled: rx_match calls pcre2_jit_match */
    sqe_strbuf buf; /* regexp_replace result */
} rx_state;

/* --------------------------------------------------------- translation */

static const char *const k_posix[][2] = {
    {"Lower", "lower"}, {"Upper", "upper"},         {"Alpha", "alpha"},
    {"Digit", "digit"}, {"Alnum", "alnum"},         {"Punct", "punct"},
    {"Space", "space"}, {"XDigit", "xdigit"},       {"Blank", "blank"},
    {"Cntrl", "cntrl"}, {"Graph", "graph"},         {"Print", "print"},
    {"ASCII", "ascii"}, {"javaLowerCase", "lower"}, {"javaUpperCase", "upper"},
};

/* \p{Name} at p (p[0] == '\\'); the POSIX class name or NULL. */
static const char *rx_posix_name(const char *p, size_t n, size_t *used) {
    if (n < 4 || (p[1] != 'p' && p[1] != 'P') || p[2] != '{') return NULL;
    const char *close = memchr(p + 3, '}', n - 3);
    if (!close) return NULL;
    size_t len = (size_t)(close - (p + 3));
    for (size_t i = 0; i < SQE_ARRAY_LEN(k_posix); i++) {
        if (strlen(k_posix[i][0]) == len && memcmp(p + 3, k_posix[i][0], len) == 0) {
            *used = len + 4;
            return k_posix[i][1];
        }
    }
    return NULL;
}

/* Java pattern -> PCRE2 pattern (see the essay). */
static bool rx_translate(const char *fn, const char *p, size_t n, sqe_strbuf *out, sqe_error *err) {
    int depth = 0; /* nesting of [...] */
    for (size_t i = 0; i < n; i++) {
        char c = p[i];
        if (c == '\\' && i + 1 < n) {
            size_t used;
            const char *posix = rx_posix_name(p + i, n - i, &used);
            if (posix) {
                bool neg = p[i + 1] == 'P';
                sqe_strbuf_printf(out, depth ? "[:%s%s:]" : "[%s[:%s:]]", neg ? "^" : "", posix);
                i += used - 1;
                continue;
            }
            sqe_strbuf_putc(out, c);
            sqe_strbuf_putc(out, p[++i]);
            continue;
        }
        if (c == '[') {
            depth++;
            sqe_strbuf_putc(out, c);
            if (i + 1 < n && p[i + 1] == '^') sqe_strbuf_putc(out, p[++i]);
            if (i + 1 < n && p[i + 1] == ']') sqe_strbuf_putc(out, p[++i]); /* literal ] */
            continue;
        }
        if (c == ']' && depth > 0) depth--;
        if (c == '&' && depth > 0 && i + 1 < n && p[i + 1] == '&')
            return sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                                 "%s: character class intersection (&&) in pattern '%.*s' is "
                                 "not supported; list the characters instead",
                                 fn, (int)SQE_MIN(n, 200), p);
        sqe_strbuf_putc(out, c);
    }
    return true;
}

/* ---------------------------------------------------------- compiling */

static bool rx_compile_error(const char *fn, const char *p, size_t n, int code, size_t off,
                             sqe_error *err) {
    PCRE2_UCHAR msg[256];
    if (pcre2_get_error_message(code, msg, sizeof msg) < 0)
        snprintf((char *)msg, sizeof msg, "error %d", code);
    return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                         "%s: invalid regular expression '%.*s': %s at offset %zu", fn,
                         (int)SQE_MIN(n, 200), p, (const char *)msg, off);
}

/* Compiles a Java pattern into a new code object (JIT when available). */
static pcre2_code *rx_compile(const char *fn, const char *p, size_t n, sqe_error *err) {
    if (n > RX_PATTERN_MAX) {
        sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                      "%s: regular expression of %zu bytes is longer than %u bytes", fn, n,
                      RX_PATTERN_MAX);
        return NULL;
    }
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    if (!rx_translate(fn, p, n, &sb, err)) {
        sqe_strbuf_free(&sb);
        return NULL;
    }
    int ec;
    PCRE2_SIZE off;
    pcre2_code *code = pcre2_compile((PCRE2_SPTR)(sb.data ? sb.data : ""), sb.len,
                                     PCRE2_UTF | PCRE2_MATCH_INVALID_UTF, &ec, &off, NULL);
    sqe_strbuf_free(&sb);
    if (!code) {
        rx_compile_error(fn, p, n, ec, off, err);
        return NULL;
    }
    pcre2_jit_compile(code, PCRE2_JIT_COMPLETE); /* falls back to the interpreter */
    return code;
}

static void *rx_state_new(const sqe_func_binding *b) {
    rx_state *st = sqe_calloc(1, sizeof *st);
    sqe_strbuf_init(&st->buf);
    return st;
}

static void rx_state_free(void *p) {
    rx_state *st = p;
    if (!st) return;
    pcre2_match_data_free(st->md);
    pcre2_code_free(st->code);
    pcre2_match_context_free(st->mctx);
    pcre2_jit_stack_free(st->jstack);
    sqe_free(st->src);
    sqe_strbuf_free(&st->buf);
    sqe_free(st);
}

/* The compiled pattern for a row: the constant one, or the row's own
 * (recompiled only when it changes). */
static pcre2_code *rx_code(const sqe_func_binding *b, rx_state *st, const sqe_vector *pv,
                           uint32_t row, sqe_error *err) {
    const rx_bind *bd = b->data;
    uint32_t len;
    const char *p = bd ? bd->pat : sqe_func_str(pv, row, &len);
    if (bd) len = bd->len;
    if (st->code && (bd || (st->src_len == len && memcmp(st->src, p, len) == 0))) return st->code;
    pcre2_code *code = rx_compile(b->name, p, len, err);
    if (!code) return NULL;
    pcre2_code_free(st->code);
    pcre2_match_data_free(st->md);
    st->code = code;
    size_t jit_size = 0;
    st->jit = pcre2_pattern_info(code, PCRE2_INFO_JITSIZE, &jit_size) == 0 && jit_size > 0;
    st->md = pcre2_match_data_create_from_pattern(code, NULL);
    sqe_free(st->src);
    st->src = sqe_malloc(len + 1);
    memcpy(st->src, p, len);
    st->src_len = len;
    if (!st->mctx) {
        st->mctx = pcre2_match_context_create(NULL);
        pcre2_set_match_limit(st->mctx, RX_MATCH_LIMIT);
        pcre2_set_depth_limit(st->mctx, RX_DEPTH_LIMIT);
        pcre2_set_heap_limit(st->mctx, RX_HEAP_LIMIT_KIB);
        st->jstack = pcre2_jit_stack_create(32 << 10, RX_JIT_STACK, NULL);
        if (st->jstack) pcre2_jit_stack_assign(st->mctx, NULL, st->jstack);
    }
    return code;
}

/* One match attempt at byte `start`: 1 matched, 0 no match, -1 error. */
static int rx_match(const sqe_func_binding *b, rx_state *st, const char *s, size_t n, size_t start,
                    sqe_error *err) {
    /* The JIT entry skips pcre2_match's per-call option checks (the
     * options are the compile-time ones, so they are valid). */
    int rc = st->jit ? pcre2_jit_match(st->code, (PCRE2_SPTR)s, n, start, 0, st->md, st->mctx)
                     : pcre2_match(st->code, (PCRE2_SPTR)s, n, start, 0, st->md, st->mctx);
    if (rc >= 0) return 1;
    if (rc == PCRE2_ERROR_NOMATCH) return 0;
    if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
        rc == PCRE2_ERROR_HEAPLIMIT || rc == PCRE2_ERROR_JIT_STACKLIMIT) {
        sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED,
                      "%s: regular expression '%.*s' needs too much backtracking on a value of "
                      "%zu bytes (match limit %u steps); simplify the pattern (avoid nested "
                      "quantifiers such as (a+)+)",
                      b->name, (int)SQE_MIN(st->src_len, 200), st->src, n, RX_MATCH_LIMIT);
        return -1;
    }
    PCRE2_UCHAR msg[256];
    pcre2_get_error_message(rc, msg, sizeof msg);
    sqe_error_set(err, SQE_ERR_INTERNAL, "%s: matching '%.*s' failed: %s", b->name,
                  (int)SQE_MIN(st->src_len, 200), st->src, (const char *)msg);
    return -1;
}

/* Where the next search starts after a match [ms, me): me, or one
 * character further after an empty match. */
static size_t rx_next(const char *s, size_t n, size_t ms, size_t me) {
    if (me > ms || me >= n) return me;
    return me + SQE_MIN((size_t)sqe_utf8_len((unsigned char)s[me]), n - me);
}

/* Runs impl with the state of b (or a temporary one). */
typedef bool (*rx_impl)(const sqe_func_binding *b, rx_state *st, sqe_vector *const *args,
                        const uint16_t *sel, uint32_t n, sqe_vector *out, sqe_error *err);

static bool rx_run(const sqe_func_binding *b, sqe_vector *const *args, const uint16_t *sel,
                   uint32_t n, sqe_vector *out, sqe_error *err, rx_impl impl) {
    rx_state *st = b->state ? b->state : rx_state_new(b);
    bool ok = impl(b, st, args, sel, n, out, err);
    if (!b->state) rx_state_free(st);
    return ok;
}

/* ------------------------------------------------------------ kernels */

static bool like_impl(const sqe_func_binding *b, rx_state *st, sqe_vector *const *args,
                      const uint16_t *sel, uint32_t n, sqe_vector *out, sqe_error *err) {
    uint8_t *o = SQE_VEC_DATA(out, uint8_t);
    bool nulls = sqe_func_propagate_nulls(args, 2, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        if (!rx_code(b, st, args[1], row, err)) return false;
        uint32_t len;
        const char *s = sqe_func_str(args[0], row, &len);
        int m = rx_match(b, st, s, len, 0, err);
        if (m < 0) return false;
        o[row] = (uint8_t)m;
    });
    return true;
}

static bool rx_group_check(const sqe_func_binding *b, rx_state *st, int64_t g, sqe_error *err) {
    uint32_t groups = 0;
    pcre2_pattern_info(st->code, PCRE2_INFO_CAPTURECOUNT, &groups);
    if (g < 0 || g > (int64_t)groups)
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                             "%s: pattern '%.*s' has %u groups; cannot access group %lld", b->name,
                             (int)SQE_MIN(st->src_len, 200), st->src, groups, (long long)g);
    return true;
}

static bool extract_impl(const sqe_func_binding *b, rx_state *st, sqe_vector *const *args,
                         const uint16_t *sel, uint32_t n, sqe_vector *out, sqe_error *err) {
    const int64_t *gv = b->n_args > 2 ? SQE_VEC_DATA(args[2], int64_t) : NULL;
    bool nulls = sqe_func_propagate_nulls(args, b->n_args, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        if (!rx_code(b, st, args[1], row, err)) return false;
        int64_t g = gv ? gv[row] : 0;
        if (!rx_group_check(b, st, g, err)) return false;
        uint32_t len;
        const char *s = sqe_func_str(args[0], row, &len);
        int m = rx_match(b, st, s, len, 0, err);
        if (m < 0) return false;
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(st->md);
        if (m == 0 || g >= (int64_t)pcre2_get_ovector_count(st->md) || ov[2 * g] == PCRE2_UNSET) {
            sqe_vector_set_null(out, row);
            continue;
        }
        if (!sqe_vector_set_string(out, row, s + ov[2 * g], ov[2 * g + 1] - ov[2 * g]))
            return sqe_func_mem_error(out, b->name, err);
    });
    return true;
}

static bool count_impl(const sqe_func_binding *b, rx_state *st, sqe_vector *const *args,
                       const uint16_t *sel, uint32_t n, sqe_vector *out, sqe_error *err) {
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    bool nulls = sqe_func_propagate_nulls(args, 2, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        if (!rx_code(b, st, args[1], row, err)) return false;
        uint32_t len;
        const char *s = sqe_func_str(args[0], row, &len);
        int64_t count = 0;
        for (size_t at = 0; at <= len;) {
            int m = rx_match(b, st, s, len, at, err);
            if (m < 0) return false;
            if (m == 0) break;
            PCRE2_SIZE *ov = pcre2_get_ovector_pointer(st->md);
            count++;
            if (ov[1] >= len && ov[1] == ov[0]) break;
            at = rx_next(s, len, ov[0], ov[1]);
        }
        o[row] = count;
    });
    return true;
}

/* regexp_position(s, p [, start [, occurrence]]). */
static bool position_row(const sqe_func_binding *b, rx_state *st, const char *s, uint32_t len,
                         int64_t start, int64_t occ, int64_t *res, sqe_error *err) {
    if (start < 1)
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                             "%s: start position cannot be smaller than 1, got %lld", b->name,
                             (long long)start);
    if (occ < 1)
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                             "%s: occurrence cannot be smaller than 1, got %lld", b->name,
                             (long long)occ);
    *res = -1;
    size_t at = sqe_utf8_offset(s, len, (size_t)SQE_MIN(start - 1, (int64_t)len));
    if (start - 1 > (int64_t)sqe_utf8_count(s, len)) return true;
    while (at <= len) {
        int m = rx_match(b, st, s, len, at, err);
        if (m < 0) return false;
        if (m == 0) return true;
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(st->md);
        if (--occ == 0) {
            *res = (int64_t)sqe_utf8_count(s, ov[0]) + 1;
            return true;
        }
        if (ov[1] >= len && ov[1] == ov[0]) return true;
        at = rx_next(s, len, ov[0], ov[1]);
    }
    return true;
}

static bool position_impl(const sqe_func_binding *b, rx_state *st, sqe_vector *const *args,
                          const uint16_t *sel, uint32_t n, sqe_vector *out, sqe_error *err) {
    int32_t *o = SQE_VEC_DATA(out, int32_t);
    const int64_t *sv = b->n_args > 2 ? SQE_VEC_DATA(args[2], int64_t) : NULL;
    const int64_t *ov = b->n_args > 3 ? SQE_VEC_DATA(args[3], int64_t) : NULL;
    bool nulls = sqe_func_propagate_nulls(args, b->n_args, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        if (!rx_code(b, st, args[1], row, err)) return false;
        uint32_t len;
        const char *s = sqe_func_str(args[0], row, &len);
        int64_t r;
        if (!position_row(b, st, s, len, sv ? sv[row] : 1, ov ? ov[row] : 1, &r, err)) return false;
        o[row] = (int32_t)SQE_MIN(r, (int64_t)INT32_MAX);
    });
    return true;
}

/* ------------------------------------------------------ regexp_replace */

/* Appends group g of the current match (nothing when it did not take part). */
static void rx_put_group(rx_state *st, const char *s, int64_t g) {
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(st->md);
    if (g < (int64_t)pcre2_get_ovector_count(st->md) && ov[2 * g] != PCRE2_UNSET)
        sqe_strbuf_append(&st->buf, s + ov[2 * g], ov[2 * g + 1] - ov[2 * g]);
}

static bool rx_bad_ref(const sqe_func_binding *b, const char *r, size_t rn, const char *why,
                       sqe_error *err) {
    return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                         "%s: illegal group reference in replacement '%.*s': %s", b->name,
                         (int)SQE_MIN(rn, 200), r, why);
}

/* ${name} at r[i] == '$', r[i+1] == '{'; *i ends on the '}'. */
static bool rx_named_ref(const sqe_func_binding *b, rx_state *st, const char *s, const char *r,
                         size_t rn, size_t *i, sqe_error *err) {
    const char *close = memchr(r + *i + 2, '}', rn - *i - 2);
    if (!close) return rx_bad_ref(b, r, rn, "missing '}'", err);
    char name[128];
    size_t nl = (size_t)(close - (r + *i + 2));
    if (nl == 0 || nl >= sizeof name) return rx_bad_ref(b, r, rn, "bad group name", err);
    memcpy(name, r + *i + 2, nl);
    name[nl] = '\0';
    int g = pcre2_substring_number_from_name(st->code, (PCRE2_SPTR)name);
    if (g < 0) return rx_bad_ref(b, r, rn, "no group with that name", err);
    rx_put_group(st, s, g);
    *i = (size_t)(close - r);
    return true;
}

/* Appends the replacement r for the current match (Java's rules: $g takes
 * as many digits as still name a group, ${name}, \x is x). */
static bool rx_expand(const sqe_func_binding *b, rx_state *st, const char *s, const char *r,
                      size_t rn, sqe_error *err) {
    uint32_t groups = 0;
    pcre2_pattern_info(st->code, PCRE2_INFO_CAPTURECOUNT, &groups);
    for (size_t i = 0; i < rn; i++) {
        char c = r[i];
        if (c == '\\') {
            if (++i >= rn) return rx_bad_ref(b, r, rn, "character to be escaped is missing", err);
            sqe_strbuf_putc(&st->buf, r[i]);
        } else if (c != '$') {
            sqe_strbuf_putc(&st->buf, c);
        } else if (i + 1 < rn && r[i + 1] == '{') {
            if (!rx_named_ref(b, st, s, r, rn, &i, err)) return false;
        } else {
            if (i + 1 >= rn || r[i + 1] < '0' || r[i + 1] > '9')
                return rx_bad_ref(b, r, rn, "'$' must be followed by a group number or {name}",
                                  err);
            int64_t g = r[++i] - '0';
            if (g > (int64_t)groups) return rx_bad_ref(b, r, rn, "no such group", err);
            while (i + 1 < rn && r[i + 1] >= '0' && r[i + 1] <= '9' &&
                   g * 10 + (r[i + 1] - '0') <= (int64_t)groups)
                g = g * 10 + (r[++i] - '0');
            rx_put_group(st, s, g);
        }
    }
    return true;
}

static bool replace_row(const sqe_func_binding *b, rx_state *st, const char *s, uint32_t len,
                        const char *r, uint32_t rn, sqe_error *err) {
    sqe_strbuf_clear(&st->buf);
    size_t copied = 0;
    for (size_t at = 0; at <= len;) {
        int m = rx_match(b, st, s, len, at, err);
        if (m < 0) return false;
        if (m == 0) break;
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(st->md);
        size_t ms = ov[0], me = ov[1];
        sqe_strbuf_append(&st->buf, s + copied, ms - copied);
        if (!rx_expand(b, st, s, r, rn, err)) return false;
        if (st->buf.len > RX_RESULT_MAX)
            return sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED, "%s result exceeds %zu bytes",
                                 b->name, RX_RESULT_MAX);
        copied = me;
        if (me >= len && me == ms) break;
        size_t next = rx_next(s, len, ms, me);
        if (next > me) { /* an empty match: the skipped character is kept */
            sqe_strbuf_append(&st->buf, s + me, next - me);
            copied = next;
        }
        at = next;
    }
    if (copied < len) sqe_strbuf_append(&st->buf, s + copied, len - copied);
    return true;
}

static bool replace_impl(const sqe_func_binding *b, rx_state *st, sqe_vector *const *args,
                         const uint16_t *sel, uint32_t n, sqe_vector *out, sqe_error *err) {
    bool nulls = sqe_func_propagate_nulls(args, b->n_args, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        if (!rx_code(b, st, args[1], row, err)) return false;
        uint32_t len, rn = 0;
        const char *s = sqe_func_str(args[0], row, &len);
        const char *r = b->n_args > 2 ? sqe_func_str(args[2], row, &rn) : "";
        if (!replace_row(b, st, s, len, r, rn, err)) return false;
        if (!sqe_vector_set_string(out, row, st->buf.data ? st->buf.data : "", st->buf.len))
            return sqe_func_mem_error(out, b->name, err);
    });
    return true;
}

static SQE_KERNEL(like_kernel) {
    return rx_run(b, args, sel, n, out, err, like_impl);
}
static SQE_KERNEL(extract_kernel) {
    return rx_run(b, args, sel, n, out, err, extract_impl);
}
static SQE_KERNEL(count_kernel) {
    return rx_run(b, args, sel, n, out, err, count_impl);
}
static SQE_KERNEL(position_kernel) {
    return rx_run(b, args, sel, n, out, err, position_impl);
}
static SQE_KERNEL(replace_kernel) {
    return rx_run(b, args, sel, n, out, err, replace_impl);
}

/* --------------------------------------------------------------- bind */

static bool bind_regex(const sqe_func_sig *sig, sqe_arena *arena, sqe_func_binding *b,
                       const sqe_value *const *const_args, sqe_error *err) {
    (void)sig;
    b->state_new = rx_state_new;
    b->state_free = rx_state_free;
    const sqe_value *pv = const_args ? const_args[1] : NULL;
    if (!pv || pv->is_null || pv->type.id == SQE_T_NULL) return true;
    rx_bind *bd = sqe_arena_alloc(arena, sizeof *bd);
    char *p = sqe_arena_alloc(arena, (size_t)pv->v.s.len + 1);
    memcpy(p, pv->v.s.ptr, pv->v.s.len);
    bd->pat = p;
    bd->len = pv->v.s.len;
    b->data = bd;
    return true;
}

static bool bind_array_fn(const sqe_func_sig *sig, sqe_arena *arena, sqe_func_binding *b,
                          const sqe_value *const *const_args, sqe_error *err) {
    return sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                         "%s returns array(varchar), and ARRAY types are not supported yet "
                         "(use regexp_extract with a group, or regexp_count)",
                         sig->name);
}

static SQE_KERNEL(never_kernel) {
    return sqe_error_set(err, SQE_ERR_INTERNAL, "%s has no kernel", b->name);
}

#define V SQE_T_VARCHAR
#define I SQE_T_BIGINT

static const sqe_func_sig k_sigs[] = {
    {"regexp_like", 2, false, {V, V}, SQE_T_BOOLEAN, like_kernel, bind_regex},
    {"regexp_extract", 2, false, {V, V}, V, extract_kernel, bind_regex},
    {"regexp_extract", 3, false, {V, V, I}, V, extract_kernel, bind_regex},
    {"regexp_replace", 2, false, {V, V}, V, replace_kernel, bind_regex},
    {"regexp_replace", 3, false, {V, V, V}, V, replace_kernel, bind_regex},
    {"regexp_count", 2, false, {V, V}, I, count_kernel, bind_regex},
    {"regexp_position", 2, false, {V, V}, SQE_T_INTEGER, position_kernel, bind_regex},
    {"regexp_position", 3, false, {V, V, I}, SQE_T_INTEGER, position_kernel, bind_regex},
    {"regexp_position", 4, false, {V, V, I, I}, SQE_T_INTEGER, position_kernel, bind_regex},
    {"regexp_extract_all", 2, false, {V, V}, V, never_kernel, bind_array_fn},
    {"regexp_extract_all", 3, false, {V, V, I}, V, never_kernel, bind_array_fn},
    {"regexp_split", 2, false, {V, V}, V, never_kernel, bind_array_fn},
};

SQE_FUNC_TABLE(sqe_func_regex_table, k_sigs);
