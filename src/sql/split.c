/*
 * split.c - cutting a script into statements (sqe_sql_split_n) and telling
 * the REPL when a statement is complete (sqe_sql_is_complete), plus the
 * byte check every statement text passes before it is lexed
 * (sqe_sql_check_text).
 *
 * A script is a byte range, not a C string: a NUL byte inside it is one more
 * byte, never its end, so `SELECT 1; -- \0 ...; SELECT 3;` cannot silently
 * lose what follows the NUL. A ';' ends a statement unless it is inside a
 * '...' string, a "..." or `...` identifier, a -- comment or a block
 * comment. Statements in the Hive dialect (CREATE ... TABLE, ALTER TABLE;
 * see sql_int.h) treat a backslash in strings as protecting the next
 * character, exactly as the lexer does, so FIELDS TERMINATED BY '\'' does
 * not end early. Unterminated quotes and comments run to the end of the
 * input; the parser then reports them.
 *
 * Between statements, blanks, comments and UTF-8 byte order marks (U+FEFF,
 * which editors put at the start of a file) are skipped. A comment there
 * that holds a NUL byte is not skipped: it becomes the start of the next
 * statement, so the NUL is reported (sqe_sql_check_text) wherever it is.
 *
 * Invariants: every scan is bounded by the end pointer; a statement handed
 * to the callback never includes its ';' nor trailing blanks.
 */
#include "sql_int.h"

#include <stdio.h>
#include <string.h>

#define BOM "\xEF\xBB\xBF"

static bool is_bom(const char *s, const char *e) {
    return e - s >= 3 && memcmp(s, BOM, 3) == 0;
}

/* Skips blanks, comments and BOMs in [s, e). A comment holding a NUL byte
 * stops the skip at its start. */
static const char *skip_between(const char *s, const char *e, int *line) {
    for (;;) {
        if (s == e) return s;
        char c = *s;
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            s++;
        } else if (c == '\n') {
            (*line)++;
            s++;
        } else if (is_bom(s, e)) {
            s += 3;
        } else if (c == '-' && e - s >= 2 && s[1] == '-') {
            const char *nl = memchr(s, '\n', (size_t)(e - s));
            const char *end = nl ? nl : e;
            if (memchr(s, '\0', (size_t)(end - s))) return s;
            s = end;
        } else if (c == '/' && e - s >= 2 && s[1] == '*') {
            const char *p = s + 2;
            int lines = 0;
            while (p < e && !(p[0] == '*' && p + 1 < e && p[1] == '/')) {
                if (*p == '\0') return s;
                if (*p == '\n') lines++;
                p++;
            }
            if (p == e) return s; /* unterminated: the parser reports it */
            *line += lines;
            s = p + 2;
        } else {
            return s;
        }
    }
}

/* The dialect of the statement at s. sqe_sql_lex_mode_for reads a C string,
 * so it gets a NUL-terminated copy of the first bytes (enough for
 * "EXPLAIN ANALYZE CREATE OR REPLACE TEMPORARY EXTERNAL TABLE" with
 * comments between the words; longer prologues fall back to Trino). */
static sqe_lex_mode mode_at(const char *s, const char *e) {
    char head[512];
    size_t n = (size_t)(e - s) < sizeof head - 1 ? (size_t)(e - s) : sizeof head - 1;
    memcpy(head, s, n);
    head[n] = '\0';
    return sqe_sql_lex_mode_for(head);
}

/* Scans one statement from s (which starts at its first token) to its ';'
 * or e. Returns the position of the ';' or e. */
static const char *scan_statement(const char *s, const char *e, int *line) {
    bool hive = mode_at(s, e) == SQE_LEX_HIVE;
    while (s < e && *s != ';') {
        char c = *s;
        if (c == '\'' || c == '"' || c == '`') {
            bool bs = hive && c != '`';
            s++;
            while (s < e) {
                if (*s == c) {
                    if (s + 1 < e && s[1] == c) {
                        s += 2;
                        continue;
                    }
                    break;
                }
                if (*s == '\\' && bs && s + 1 < e) s++; /* the protected byte is counted below */
                if (*s == '\n') (*line)++;
                s++;
            }
            if (s < e) s++;
        } else if (c == '-' && s + 1 < e && s[1] == '-') {
            while (s < e && *s != '\n') s++;
        } else if (c == '/' && s + 1 < e && s[1] == '*') {
            s += 2;
            while (s < e && !(s[0] == '*' && s + 1 < e && s[1] == '/')) {
                if (*s == '\n') (*line)++;
                s++;
            }
            if (s < e) s += 2;
        } else {
            if (c == '\n') (*line)++;
            s++;
        }
    }
    return s;
}

bool sqe_sql_split_n(const char *script, size_t len, sqe_sql_stmt_cb cb, void *ctx) {
    const char *s = script ? script : "";
    const char *e = script ? script + len : s;
    int line = 1;
    for (;;) {
        s = skip_between(s, e, &line);
        if (s == e) return true;
        if (*s == ';') {
            s++;
            continue;
        }
        const char *start = s;
        int start_line = line;
        s = scan_statement(s, e, &line);
        size_t n = (size_t)(s - start);
        while (n > 0 && strchr(" \t\r\n\f\v", start[n - 1]) && start[n - 1] != '\0') n--;
        if (!cb(start, n, start_line, ctx)) return false;
        if (s < e && *s == ';') s++;
    }
}

bool sqe_sql_split(const char *script, sqe_sql_stmt_cb cb, void *ctx) {
    return sqe_sql_split_n(script, script ? strlen(script) : 0, cb, ctx);
}

bool sqe_sql_is_complete(const char *text) {
    const char *s = text ? text : "";
    const char *e = s + strlen(s);
    int line = 1;
    for (;;) {
        s = skip_between(s, e, &line);
        if (s == e) return false;
        if (*s == ';') return true;
        s = scan_statement(s, e, &line);
        if (s < e && *s == ';') return true;
        if (s == e) return false;
    }
}

bool sqe_sql_check_text(const char *text, size_t len, sqe_error *err) {
    const char *nul = memchr(text, '\0', len);
    if (!nul) return true;
    /* line:column as the lexer counts them: a column counts characters
     * (UTF-8 lead bytes), not bytes. */
    int line = 1, col = 1;
    for (const char *p = text; p < nul; p++) {
        if (*p == '\n') {
            line++;
            col = 1;
        } else if (((unsigned char)*p & 0xC0) != 0x80) {
            col++;
        }
    }
    return sqe_error_set(err, SQE_ERR_SYNTAX,
                         "syntax error at line %d:%d: NUL byte (\\0) in the SQL text; SQL text "
                         "cannot hold NUL bytes, not even in string literals or comments: remove "
                         "it (is the script UTF-16? save it as UTF-8)",
                         line, col);
}
