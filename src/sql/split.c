/*
 * split.c - cutting a script into statements (sqe_sql_split) and telling the
 * REPL when a statement is complete (sqe_sql_is_complete).
 *
 * A ';' ends a statement unless it is inside a '...' string, a "..." or
 * `...` identifier, a -- comment or a block comment. Statements in the Hive
 * dialect (CREATE ... TABLE, ALTER TABLE; see sql_int.h) treat a backslash in
 * strings as protecting the next character, exactly as the lexer does, so
 * FIELDS TERMINATED BY '\'' does not end early. Unterminated quotes and
 * comments run to the end of the input; the parser then reports them.
 */
#include "sql_int.h"

#include <string.h>

/* Scans one statement from s (which starts at its first token) to its ';'
 * or the end. Returns the position of the ';' or of the NUL. */
static const char *scan_statement(const char *s, int *line) {
    bool hive = sqe_sql_lex_mode_for(s) == SQE_LEX_HIVE;
    while (*s && *s != ';') {
        char c = *s;
        if (c == '\'' || c == '"' || c == '`') {
            bool bs = hive && c != '`';
            s++;
            while (*s) {
                if (*s == c) {
                    if (s[1] == c) {
                        s += 2;
                        continue;
                    }
                    break;
                }
                if (*s == '\\' && bs && s[1]) s++; /* the protected byte is counted below */
                if (*s == '\n') (*line)++;
                s++;
            }
            if (*s) s++;
        } else if (c == '-' && s[1] == '-') {
            while (*s && *s != '\n') s++;
        } else if (c == '/' && s[1] == '*') {
            s += 2;
            while (*s && !(s[0] == '*' && s[1] == '/')) {
                if (*s == '\n') (*line)++;
                s++;
            }
            if (*s) s += 2;
        } else {
            if (c == '\n') (*line)++;
            s++;
        }
    }
    return s;
}

bool sqe_sql_split(const char *script, sqe_sql_stmt_cb cb, void *ctx) {
    const char *s = script ? script : "";
    int line = 1;
    for (;;) {
        s = sqe_sql_skip_space(s, &line);
        if (!*s) return true;
        if (*s == ';') {
            s++;
            continue;
        }
        const char *start = s;
        int start_line = line;
        s = scan_statement(s, &line);
        size_t len = (size_t)(s - start);
        while (len > 0 && strchr(" \t\r\n\f\v", start[len - 1])) len--;
        if (!cb(start, len, start_line, ctx)) return false;
        if (*s == ';') s++;
    }
}

bool sqe_sql_is_complete(const char *text) {
    const char *s = text ? text : "";
    int line = 1;
    for (;;) {
        s = sqe_sql_skip_space(s, &line);
        if (!*s) return false;
        if (*s == ';') return true;
        s = scan_statement(s, &line);
        if (*s == ';') return true;
        if (!*s) return false;
    }
}
