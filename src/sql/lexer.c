/*
 * lexer.c - turns SQL text into tokens for the parser (first step of the
 * query path: text -> tokens -> AST).
 *
 * The whole statement is lexed up front into an arena array. Each token
 * keeps its source span (for the statement text and error messages), its
 * line:column (1-based; a column counts characters, not UTF-8 bytes) and a
 * NUL-terminated value. Keywords are not told apart here: they are plain
 * SQE_TK_IDENT words and the parser compares them case-insensitively, which
 * keeps the reserved-word list in one place (parser.c).
 *
 * What is recognised:
 *   words        [A-Za-z_][A-Za-z0-9_]* (bytes >= 0x80 count as letters)
 *   "ident"      "" inside stands for "
 *   `ident`      `` inside stands for `
 *   'string'     '' inside stands for '; no other escape (see sql_int.h
 *                for the Hive dialect, where a backslash protects the next
 *                character from ending the string)
 *   numbers      123 (INTEGER), 1.5 .5 5. (DECIMAL), 1e3 1.5E-2 (DOUBLE)
 *   operators    + - * / % = <> != < <= > >= || ( ) , . ; : [ ]
 *   comments     -- to end of line, and slash-star ... star-slash (not nested)
 *   a UTF-8 byte order mark at the very start is skipped (editors write one)
 * A lexical problem (unterminated string, quoted identifier or comment, a
 * character that starts no token, a word starting with a digit) ends the
 * array with an SQE_TK_ERROR token holding the whole message.
 */
#include "sql_int.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

typedef struct lexer {
    sqe_arena *arena;
    const char *src;
    size_t i; /* byte offset */
    int line, col;
    sqe_lex_mode mode;
    SQE_ARRAY(sqe_token) toks;
    bool heap_toks; /* toks malloc'd (sqe_sql_lex_heap), not in arena */
} lexer;

/* The UTF-8 byte order mark (U+FEFF) that editors put at the start of a
 * file. Skipped before a statement; anywhere else it is an error shown as
 * \ufeff (error messages escape invisible characters). */
static bool is_bom(const char *s) {
    return (unsigned char)s[0] == 0xEF && (unsigned char)s[1] == 0xBB &&
           (unsigned char)s[2] == 0xBF;
}

static bool is_word_start(unsigned char c) {
    return isalpha(c) || c == '_' || c >= 0x80;
}
static bool is_word_char(unsigned char c) {
    return isalnum(c) || c == '_' || c >= 0x80;
}

/* Advances one byte, keeping line:column. A column counts UTF-8 lead bytes
 * only, so a multi-byte character is one column. */
static void adv(lexer *lx) {
    unsigned char c = (unsigned char)lx->src[lx->i];
    if (!c) return;
    lx->i++;
    if (c == '\n') {
        lx->line++;
        lx->col = 1;
    } else if ((c & 0xC0) != 0x80) {
        /* the column of the next char moves past this lead byte */
        lx->col++;
    }
}

static char cur(const lexer *lx) {
    return lx->src[lx->i];
}
static char at(const lexer *lx, size_t k) {
    /* never reads past the terminating NUL */
    for (size_t j = 0; j < k; j++)
        if (!lx->src[lx->i + j]) return '\0';
    return lx->src[lx->i + k];
}

static sqe_token *push(lexer *lx, sqe_tok_kind kind, size_t off, sqe_pos pos) {
    sqe_token t = {kind, NULL, off, lx->i - off, pos};
    SQE_ARRAY_PUSH(lx->heap_toks ? NULL : lx->arena, lx->toks, t);
    return &lx->toks.items[lx->toks.len - 1];
}

static void push_error(lexer *lx, sqe_pos pos, const char *what) {
    sqe_token *t = push(lx, SQE_TK_ERROR, lx->i, pos);
    t->len = 0;
    t->text =
        sqe_arena_sprintf(lx->arena, "syntax error at line %d:%d: %s", pos.line, pos.col, what);
}

/* Skips blanks and comments. Returns false (after pushing an error token)
 * on an unterminated block comment. */
static bool skip_space(lexer *lx) {
    for (;;) {
        char c = cur(lx);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            adv(lx);
        } else if (lx->i == 0 && is_bom(lx->src)) {
            /* a byte order mark before the statement: invisible, so the
             * first token keeps column 1 */
            lx->i = 3;
        } else if (c == '-' && at(lx, 1) == '-') {
            while (cur(lx) && cur(lx) != '\n') adv(lx);
        } else if (c == '/' && at(lx, 1) == '*') {
            sqe_pos start = {lx->line, lx->col};
            adv(lx);
            adv(lx);
            while (cur(lx) && !(cur(lx) == '*' && at(lx, 1) == '/')) adv(lx);
            if (!cur(lx)) {
                push_error(lx, start, "unterminated comment");
                return false;
            }
            adv(lx);
            adv(lx);
        } else {
            return true;
        }
    }
}

/* Reads a quoted token whose delimiter is q (doubling q escapes it). In the
 * Hive dialect a backslash inside '...' or "..." keeps the next character
 * (both bytes stored). Returns false after pushing an error token. */
static bool lex_quoted(lexer *lx, char q, sqe_tok_kind kind, const char *what) {
    size_t off = lx->i;
    sqe_pos pos = {lx->line, lx->col};
    bool hive_bs = lx->mode == SQE_LEX_HIVE && q != '`';
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    adv(lx);
    for (;;) {
        char c = cur(lx);
        if (!c) {
            sqe_strbuf_free(&sb);
            char msg[64];
            snprintf(msg, sizeof msg, "unterminated %s", what);
            push_error(lx, pos, msg);
            return false;
        }
        if (c == q) {
            if (at(lx, 1) == q) {
                sqe_strbuf_putc(&sb, q);
                adv(lx);
                adv(lx);
                continue;
            }
            adv(lx);
            break;
        }
        if (c == '\\' && hive_bs && at(lx, 1)) {
            sqe_strbuf_putc(&sb, c);
            adv(lx);
            c = cur(lx);
        }
        sqe_strbuf_putc(&sb, c);
        adv(lx);
    }
    sqe_token *t = push(lx, kind, off, pos);
    t->text = sqe_arena_strndup(lx->arena, sb.data ? sb.data : "", sb.len);
    sqe_strbuf_free(&sb);
    return true;
}

/* digits [. digits] [e [+-] digits], or . digits [...] */
static bool lex_number(lexer *lx) {
    size_t off = lx->i;
    sqe_pos pos = {lx->line, lx->col};
    sqe_tok_kind kind = SQE_TK_INTEGER;
    while (isdigit((unsigned char)cur(lx))) adv(lx);
    if (lx->mode == SQE_LEX_HIVE && is_word_start((unsigned char)cur(lx)) &&
        !((cur(lx) == 'e' || cur(lx) == 'E') &&
          (isdigit((unsigned char)at(lx, 1)) ||
           ((at(lx, 1) == '+' || at(lx, 1) == '-') && isdigit((unsigned char)at(lx, 2)))))) {
        /* Hive: a word may start with a digit (`1st`) */
        while (is_word_char((unsigned char)cur(lx))) adv(lx);
        sqe_token *t = push(lx, SQE_TK_IDENT, off, pos);
        t->text = sqe_arena_strndup(lx->arena, lx->src + off, lx->i - off);
        return true;
    }
    if (cur(lx) == '.') {
        kind = SQE_TK_DECIMAL;
        adv(lx);
        while (isdigit((unsigned char)cur(lx))) adv(lx);
    }
    if ((cur(lx) == 'e' || cur(lx) == 'E') &&
        (isdigit((unsigned char)at(lx, 1)) ||
         ((at(lx, 1) == '+' || at(lx, 1) == '-') && isdigit((unsigned char)at(lx, 2))))) {
        kind = SQE_TK_DOUBLE;
        adv(lx);
        if (cur(lx) == '+' || cur(lx) == '-') adv(lx);
        while (isdigit((unsigned char)cur(lx))) adv(lx);
    }
    if (is_word_char((unsigned char)cur(lx))) {
        push_error(lx, pos,
                   "identifiers must not start with a digit; surround the identifier with "
                   "double quotes");
        return false;
    }
    sqe_token *t = push(lx, kind, off, pos);
    t->text = sqe_arena_strndup(lx->arena, lx->src + off, lx->i - off);
    return true;
}

/* Is the token before offset `off` a name that ends right there (`t.5` is a
 * qualified name; `SELECT .5` is a decimal: keywords lex as names too). */
static bool prev_is_name(const lexer *lx, size_t off) {
    if (!lx->toks.len) return false;
    const sqe_token *p = &lx->toks.items[lx->toks.len - 1];
    return (p->kind == SQE_TK_IDENT || p->kind == SQE_TK_QIDENT || p->kind == SQE_TK_BQIDENT) &&
           p->off + p->len == off;
}

static sqe_token *lex_all(sqe_arena *arena, const char *src, sqe_lex_mode mode, bool heap_toks,
                          int *n_out);

sqe_token *sqe_sql_lex(sqe_arena *arena, const char *src, sqe_lex_mode mode, int *n_out) {
    return lex_all(arena, src, mode, false, n_out);
}

sqe_token *sqe_sql_lex_heap(sqe_arena *arena, const char *src, sqe_lex_mode mode, int *n_out) {
    return lex_all(arena, src, mode, true, n_out);
}

static sqe_token *lex_all(sqe_arena *arena, const char *src, sqe_lex_mode mode, bool heap_toks,
                          int *n_out) {
    lexer lx = {.arena = arena,
                .src = src ? src : "",
                .i = 0,
                .line = 1,
                .col = 1,
                .mode = mode,
                .heap_toks = heap_toks};
    for (;;) {
        if (!skip_space(&lx)) break;
        size_t off = lx.i;
        sqe_pos pos = {lx.line, lx.col};
        unsigned char c = (unsigned char)cur(&lx);
        if (!c) {
            push(&lx, SQE_TK_EOF, off, pos)->text = "";
            break;
        }
        if (is_word_start(c)) {
            while (is_word_char((unsigned char)cur(&lx))) adv(&lx);
            sqe_token *t = push(&lx, SQE_TK_IDENT, off, pos);
            t->text = sqe_arena_strndup(arena, lx.src + off, lx.i - off);
            continue;
        }
        if (isdigit(c) ||
            (c == '.' && isdigit((unsigned char)at(&lx, 1)) && !prev_is_name(&lx, off))) {
            if (!lex_number(&lx)) break;
            continue;
        }
        if (c == '\'') {
            if (!lex_quoted(&lx, '\'', SQE_TK_STRING, "string literal")) break;
            continue;
        }
        if (c == '"') {
            if (!lex_quoted(&lx, '"', SQE_TK_QIDENT, "quoted identifier")) break;
            continue;
        }
        if (c == '`') {
            if (!lex_quoted(&lx, '`', SQE_TK_BQIDENT, "quoted identifier")) break;
            continue;
        }
        sqe_tok_kind k;
        int n = 1;
        char c1 = at(&lx, 1);
        switch (c) {
        case '+':
            k = SQE_TK_PLUS;
            break;
        case '-':
            k = SQE_TK_MINUS;
            break;
        case '*':
            k = SQE_TK_STAR;
            break;
        case '/':
            k = SQE_TK_SLASH;
            break;
        case '%':
            k = SQE_TK_PERCENT;
            break;
        case '=':
            if (c1 == '>')
                k = SQE_TK_ARROW, n = 2;
            else
                k = SQE_TK_EQ;
            break;
        case '{':
            k = SQE_TK_LBRACE;
            break;
        case '}':
            k = SQE_TK_RBRACE;
            break;
        case '(':
            k = SQE_TK_LPAREN;
            break;
        case ')':
            k = SQE_TK_RPAREN;
            break;
        case ',':
            k = SQE_TK_COMMA;
            break;
        case '.':
            k = SQE_TK_DOT;
            break;
        case ';':
            k = SQE_TK_SEMI;
            break;
        case ':':
            k = SQE_TK_COLON;
            break;
        case '[':
            k = SQE_TK_LBRACKET;
            break;
        case ']':
            k = SQE_TK_RBRACKET;
            break;
        case '<':
            if (c1 == '=')
                k = SQE_TK_LE, n = 2;
            else if (c1 == '>')
                k = SQE_TK_NE, n = 2;
            else
                k = SQE_TK_LT;
            break;
        case '>':
            /* `>>` is two tokens: it closes nested complex types */
            if (c1 == '=')
                k = SQE_TK_GE, n = 2;
            else
                k = SQE_TK_GT;
            break;
        case '!':
            if (c1 == '=') {
                k = SQE_TK_NE, n = 2;
                break;
            }
            goto bad;
        case '|':
            if (c1 == '|') {
                k = SQE_TK_CONCAT, n = 2;
                break;
            }
            goto bad;
        default:
            goto bad;
        }
        for (int j = 0; j < n; j++) adv(&lx);
        push(&lx, k, off, pos)->text = sqe_arena_strndup(arena, lx.src + off, lx.i - off);
        continue;
    bad : {
        char msg[64];
        if (c >= 0x20 && c < 0x7f)
            snprintf(msg, sizeof msg, "unexpected character '%c'", c);
        else
            snprintf(msg, sizeof msg, "unexpected character '\\x%02x'", c);
        push_error(&lx, pos, msg);
        break;
    }
    }
    *n_out = (int)lx.toks.len;
    return lx.toks.items;
}

/* ----------------------------------------------------- dialect detection */

const char *sqe_sql_skip_space(const char *s, int *line) {
    for (;;) {
        if (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\f' || *s == '\v') {
            s++;
        } else if (is_bom(s)) {
            s += 3;
        } else if (*s == '\n') {
            if (line) (*line)++;
            s++;
        } else if (s[0] == '-' && s[1] == '-') {
            while (*s && *s != '\n') s++;
        } else if (s[0] == '/' && s[1] == '*') {
            s += 2;
            while (*s && !(s[0] == '*' && s[1] == '/')) {
                if (*s == '\n' && line) (*line)++;
                s++;
            }
            if (*s) s += 2;
        } else {
            return s;
        }
    }
}

/* Reads the next word after blanks/comments into buf (lower-cased, at most
 * cap-1 bytes); returns the position after it, or NULL if no word is next. */
static const char *next_word(const char *s, char *buf, size_t cap) {
    s = sqe_sql_skip_space(s, NULL);
    size_t n = 0;
    if (!is_word_start((unsigned char)*s)) return NULL;
    while (is_word_char((unsigned char)*s)) {
        if (n + 1 < cap) buf[n++] = (char)tolower((unsigned char)*s);
        s++;
    }
    buf[n] = '\0';
    return s;
}

sqe_lex_mode sqe_sql_lex_mode_for(const char *src) {
    char w[16];
    const char *s = next_word(src ? src : "", w, sizeof w);
    if (s && strcmp(w, "explain") == 0) {
        s = next_word(s, w, sizeof w);
        if (s && strcmp(w, "analyze") == 0) s = next_word(s, w, sizeof w);
    }
    if (!s) return SQE_LEX_TRINO;
    if (strcmp(w, "alter") == 0) {
        s = next_word(s, w, sizeof w);
        return s && strcmp(w, "table") == 0 ? SQE_LEX_HIVE : SQE_LEX_TRINO;
    }
    if (strcmp(w, "create") != 0) return SQE_LEX_TRINO;
    s = next_word(s, w, sizeof w);
    if (s && strcmp(w, "or") == 0) {
        s = next_word(s, w, sizeof w);
        if (!s || strcmp(w, "replace") != 0) return SQE_LEX_TRINO;
        s = next_word(s, w, sizeof w);
    }
    if (s && strcmp(w, "temporary") == 0) s = next_word(s, w, sizeof w);
    if (s && strcmp(w, "external") == 0) s = next_word(s, w, sizeof w);
    return s && strcmp(w, "table") == 0 ? SQE_LEX_HIVE : SQE_LEX_TRINO;
}
