/*
 * output.c - streams a statement's rows in one of sqe-cli's output formats.
 *
 * Rows come from a cursor (include/sqe.h) while the query still runs:
 * sqe_cursor_value gives each value's text and byte length, or NULL for SQL
 * NULL, and the column's value kind (sqe_cursor_column_kind) decides
 * alignment and quoting. Every writer takes (bytes, length), so a NUL byte
 * inside a value is shown like any other byte, never the end of the value.
 *
 *   table     psql's aligned style: names centred, text left-aligned, numbers
 *             and booleans right-aligned, NULL shown as "NULL", control
 *             characters and bytes that are not UTF-8 shown as \n \t \r \xHH
 *             so rows stay on one line, then "(N rows)". No trailing blanks.
 *             The first TABLE_HOLD_ROWS rows (or TABLE_HOLD_BYTES of values)
 *             are held back to size the columns, then printed, and later rows
 *             stream with the same widths; a later value wider than its
 *             column is printed whole and pushes the rest of its line right.
 *   csv       header line, then RFC 4180 rows: a field is quoted when it holds
 *             a comma, a quote, CR or LF, or is the empty string (so "" differs
 *             from NULL, which is an empty field); quotes are doubled; every
 *             other byte (NUL, invalid UTF-8) is written as it is.
 *   tsv       header line, tab-separated; NULL is an empty field; tab,
 *             newline, CR, backslash and NUL are written as \t \n \r \\ \0;
 *             other bytes as they are.
 *   json      one array of objects, one object per line; numbers and
 *             booleans bare, NULL null, everything else (including NaN and
 *             Infinity) a JSON string. "[]" for no rows; control characters
 *             (NUL too) as \u00XX, each byte that is not UTF-8 as U+FFFD.
 *             Keys are the column names made unique as DuckDB does: a
 *             repeated name gets _1, _2 ... (SELECT 1 AS a, 2 AS a gives
 *             {"a":1,"a_1":2}), since JSON readers keep only one of two
 *             equal keys.
 *   jsonl     one object per line (the same keys), nothing for no rows.
 *   markdown  a GitHub table: "| a | b |", "|---:|---|" ("---:" for numbers
 *             and booleans); '|' '\\' '`' escaped with a backslash, '<' and
 *             '&' as "&lt;" "&amp;" (GitHub renders HTML in cells), LF as
 *             "<br>", CR as "\\r", TAB as "\\t", other control characters
 *             (ESC, BEL, NUL, DEL) and bytes that are not UTF-8 as \xHH.
 *
 * Output of a statement starts with its first row (or its end, when it has
 * none): a statement that fails before any row prints nothing to stdout. A
 * statement that fails midway leaves the rows printed so far (no "(N rows)"
 * footer, no closing "]"); the table format drops the rows it still held.
 * stdout is flushed after every batch of rows, so a consumer of a pipe sees
 * rows while the query runs.
 *
 * Invariant: nothing here prints to stderr or decides exit status; run.c
 * does that.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"

#define TABLE_HOLD_ROWS 1000
#define TABLE_HOLD_BYTES ((size_t)4 << 20)

static const struct {
    const char *name;
    sqe_cli_format fmt;
} format_names[] = {
    {"table", SQE_CLI_FORMAT_TABLE}, {"csv", SQE_CLI_FORMAT_CSV},
    {"tsv", SQE_CLI_FORMAT_TSV},     {"json", SQE_CLI_FORMAT_JSON},
    {"jsonl", SQE_CLI_FORMAT_JSONL}, {"markdown", SQE_CLI_FORMAT_MARKDOWN},
};

bool sqe_cli_format_parse(const char *name, sqe_cli_format *fmt) {
    for (size_t i = 0; i < sizeof(format_names) / sizeof(format_names[0]); i++) {
        if (strcasecmp(name, format_names[i].name) == 0) {
            *fmt = format_names[i].fmt;
            return true;
        }
    }
    return false;
}

const char *sqe_cli_format_name(sqe_cli_format fmt) {
    for (size_t i = 0; i < sizeof(format_names) / sizeof(format_names[0]); i++)
        if (format_names[i].fmt == fmt) return format_names[i].name;
    return "table";
}

/* One value: bytes and length; p == NULL is SQL NULL. */
typedef struct cell {
    const char *p;
    size_t len;
} cell;

/* The state of one statement's output. */
/* A growable byte buffer for one output line (csv, tsv). */
typedef struct line_buf {
    char *p;
    size_t len, cap;
    bool oom; /* an append failed: the line is incomplete */
} line_buf;

static void line_put(line_buf *b, const char *s, size_t n) {
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n) cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q) {
            b->oom = true;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    if (n) memcpy(b->p + b->len, s, n);
    b->len += n;
}

static void line_putc(line_buf *b, char c) {
    line_put(b, &c, 1);
}

typedef struct printer {
    sqe_cli *cli;
    FILE *out;
    sqe_cursor *c;
    int n_cols;
    bool started;    /* the header (or "[") is out */
    uint64_t n_rows; /* rows printed or held */
    cell *row;       /* the current row's values (n_cols) */
    /* table */
    size_t *widths;
    cell *held; /* TABLE_HOLD_ROWS * n_cols copies (malloc'd bytes) */
    size_t n_held, held_bytes;
    cell *lines; /* per column: what is left of a multi-line value */
    /* json, jsonl */
    char **json_names; /* unique keys (json_unique_names) */
    line_buf line;     /* csv, tsv: the row being built */
} printer;

static const char *column_name(const printer *p, int col) {
    const char *name = sqe_cursor_column_name(p->c, col);
    return name ? name : "";
}

/* True for columns whose values are right-aligned and written bare. */
static bool column_is_numeric(const printer *p, int col) {
    sqe_value_kind kind = sqe_cursor_column_kind(p->c, col);
    return kind == SQE_KIND_NUMBER || kind == SQE_KIND_BOOLEAN;
}

/* Length of the UTF-8 sequence starting at s, of at most `avail` bytes;
 * 0 when it is not valid UTF-8 (cut short, overlong, a surrogate, > U+10FFFF). */
static size_t utf8_seq_len(const unsigned char *s, size_t avail) {
    unsigned char c = s[0];
    size_t n;
    uint32_t cp;
    if (c < 0x80) return 1;
    if ((c & 0xE0) == 0xC0) {
        n = 2;
        cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
        n = 3;
        cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
        n = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if (n > avail) return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
        (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
        return 0;
    return n;
}

/* Writes v[0..len) with control characters and bytes that are not UTF-8 as
 * \xHH (the escapes of table and markdown); keep_tab leaves tabs alone.
 * Returns the width in characters of what was written (out may be NULL to
 * only measure). \n \t \r become \n \t \r when not handled by the caller. */
static size_t write_escaped(FILE *out, const char *v, size_t len, bool named_escapes) {
    const unsigned char *s = (const unsigned char *)v;
    const unsigned char *e = s + len;
    const unsigned char *run = s;
    size_t width = 0;
    while (s < e) {
        const char *esc = NULL;
        char hex[8];
        size_t n = 1;
        if (named_escapes && *s == '\n') {
            esc = "\\n";
        } else if (named_escapes && *s == '\t') {
            esc = "\\t";
        } else if (named_escapes && *s == '\r') {
            esc = "\\r";
        } else if ((*s < 0x20 && *s != '\t') || *s == 0x7F) {
            snprintf(hex, sizeof(hex), "\\x%02X", *s);
            esc = hex;
        } else if (*s >= 0x80) {
            n = utf8_seq_len(s, (size_t)(e - s));
            if (n == 0) {
                snprintf(hex, sizeof(hex), "\\x%02X", *s);
                esc = hex;
                n = 1;
            }
        }
        if (esc) {
            if (out) {
                fwrite(run, 1, (size_t)(s - run), out);
                fputs(esc, out);
            }
            width += strlen(esc);
            s += n;
            run = s;
        } else {
            s += n;
            width++;
        }
    }
    if (out) fwrite(run, 1, (size_t)(s - run), out);
    return width;
}

/* ------------------------------------------------------------------ table */

/* Width in characters of v[0..len) as the table format shows it. */
static size_t table_width(const char *v, size_t len) {
    return write_escaped(NULL, v, len, true);
}

/* Length of the first line of v[0..len). */
static size_t line_len(const char *v, size_t len) {
    const char *nl = memchr(v, '\n', len);
    return nl ? (size_t)(nl - v) : len;
}

/* Widest line of a cell. */
static size_t cell_width(cell v) {
    size_t width = 0;
    for (;;) {
        size_t len = line_len(v.p, v.len);
        size_t w = table_width(v.p, len);
        if (w > width) width = w;
        if (len == v.len) return width;
        v.p += len + 1;
        v.len -= len + 1;
    }
}

/* A line writer that holds back padding until text follows it, so no line
 * ends in blanks that only pad (a value's own trailing blanks are kept). */
typedef struct table_line {
    FILE *out;
    size_t pending; /* spaces owed before the next text */
} table_line;

static void tl_pad(table_line *tl, size_t n) {
    tl->pending += n;
}

static void tl_flush_pad(table_line *tl) {
    static const char spaces[] = "                                ";
    while (tl->pending > 0) {
        size_t k = tl->pending < sizeof(spaces) - 1 ? tl->pending : sizeof(spaces) - 1;
        fwrite(spaces, 1, k, tl->out);
        tl->pending -= k;
    }
}

static void tl_raw(table_line *tl, const char *s) {
    tl_flush_pad(tl);
    fputs(s, tl->out);
}

static void tl_end(table_line *tl) {
    tl->pending = 0;
    fputc('\n', tl->out);
}

static void tl_text(table_line *tl, const char *v, size_t len) {
    if (len == 0) return;
    tl_flush_pad(tl);
    write_escaped(tl->out, v, len, true);
}

static void table_header(printer *p) {
    table_line tl = {p->out, 0};
    if (p->n_cols == 0) return;
    /* names centred (the odd blank goes right, as in psql) */
    for (int col = 0; col < p->n_cols; col++) {
        const char *name = column_name(p, col);
        size_t len = strlen(name);
        size_t w = table_width(name, len);
        size_t pad = p->widths[col] > w ? p->widths[col] - w : 0;
        if (col > 0) tl_raw(&tl, "|");
        tl_pad(&tl, 1 + pad / 2);
        tl_text(&tl, name, len);
        tl_pad(&tl, pad - pad / 2 + 1);
    }
    tl_end(&tl);
    for (int col = 0; col < p->n_cols; col++) {
        if (col > 0) fputc('+', p->out);
        for (size_t i = 0; i < p->widths[col] + 2; i++) fputc('-', p->out);
    }
    fputc('\n', p->out);
}

/* Cells holding line breaks span several lines; as in psql, a '+' after
 * a cell's line says the cell goes on in the next line. A value wider than
 * its column is written whole (no padding). */
static void table_row(printer *p, const cell *row) {
    table_line tl = {p->out, 0};
    cell *left = p->lines;
    if (p->n_cols == 0) return;
    for (int col = 0; col < p->n_cols; col++) {
        left[col] = row[col].p ? row[col] : (cell){"NULL", 4};
    }
    bool more = true;
    while (more) {
        more = false;
        for (int col = 0; col < p->n_cols; col++) {
            cell v = left[col];
            size_t len = v.p ? line_len(v.p, v.len) : 0;
            size_t w = v.p ? table_width(v.p, len) : 0;
            size_t pad = p->widths[col] > w ? p->widths[col] - w : 0;
            bool goes_on = v.p && len < v.len;
            if (col > 0) tl_raw(&tl, "|");
            tl_pad(&tl, 1);
            if (v.p && column_is_numeric(p, col)) {
                tl_pad(&tl, pad);
                tl_text(&tl, v.p, len);
            } else {
                if (v.p) tl_text(&tl, v.p, len);
                tl_pad(&tl, pad);
            }
            if (goes_on) {
                tl_raw(&tl, "+");
                left[col] = (cell){v.p + len + 1, v.len - len - 1};
                more = true;
            } else {
                tl_pad(&tl, 1);
                left[col] = (cell){NULL, 0};
            }
        }
        tl_end(&tl);
    }
}

static void table_free_held(printer *p) {
    for (size_t i = 0; i < p->n_held * (size_t)p->n_cols; i++) free((void *)p->held[i].p);
    p->n_held = 0;
    p->held_bytes = 0;
}

/* Sizes the columns from the names and the held rows, prints the header and
 * the held rows; later rows stream with these widths. */
static void table_release(printer *p) {
    for (int col = 0; col < p->n_cols; col++) {
        const char *name = column_name(p, col);
        p->widths[col] = table_width(name, strlen(name));
    }
    for (size_t r = 0; r < p->n_held; r++) {
        for (int col = 0; col < p->n_cols; col++) {
            cell v = p->held[r * (size_t)p->n_cols + (size_t)col];
            size_t w = cell_width(v.p ? v : (cell){"NULL", 4});
            if (w > p->widths[col]) p->widths[col] = w;
        }
    }
    table_header(p);
    for (size_t r = 0; r < p->n_held; r++) table_row(p, &p->held[r * (size_t)p->n_cols]);
    table_free_held(p);
    p->started = true;
}

/* Holds a copy of the current row. */
static bool table_hold(printer *p) {
    cell *dst = &p->held[p->n_held * (size_t)p->n_cols];
    for (int col = 0; col < p->n_cols; col++) {
        cell v = p->row[col];
        dst[col] = (cell){NULL, 0};
        if (!v.p) continue;
        char *copy = malloc(v.len + 1);
        if (!copy) return false;
        memcpy(copy, v.p, v.len);
        copy[v.len] = '\0';
        dst[col] = (cell){copy, v.len};
        p->held_bytes += v.len + 1;
    }
    p->n_held++;
    return true;
}

/* -------------------------------------------------------------------- csv */

/* CSV and TSV rows are built in the printer's row buffer and written with
 * one fwrite: per-character stdio calls (each taking the FILE lock) were a
 * fifth of a 10M-row export's time. */
static void csv_write(line_buf *out, const char *v, size_t len) {
    bool quote = len == 0;
    for (size_t i = 0; i < len && !quote; i++)
        quote = v[i] == ',' || v[i] == '"' || v[i] == '\r' || v[i] == '\n';
    if (!quote) {
        line_put(out, v, len);
        return;
    }
    line_putc(out, '"');
    const char *run = v;
    for (const char *s = v; s < v + len; s++) {
        if (*s == '"') {
            line_put(out, run, (size_t)(s - run) + 1); /* up to and with the quote */
            run = s;                                   /* ... which is written again */
        }
    }
    line_put(out, run, (size_t)(v + len - run));
    line_putc(out, '"');
}

/* -------------------------------------------------------------------- tsv */

static void tsv_write(line_buf *out, const char *v, size_t len) {
    const char *run = v;
    const char *s = v;
    for (; s < v + len; s++) {
        const char *esc = NULL;
        switch (*s) {
        case '\t':
            esc = "\\t";
            break;
        case '\n':
            esc = "\\n";
            break;
        case '\r':
            esc = "\\r";
            break;
        case '\\':
            esc = "\\\\";
            break;
        case '\0':
            esc = "\\0";
            break;
        default:
            break;
        }
        if (esc) {
            line_put(out, run, (size_t)(s - run));
            line_put(out, esc, strlen(esc));
            run = s + 1;
        }
    }
    line_put(out, run, (size_t)(s - run));
}

/* ------------------------------------------------------------------- json */

/* Writes v as a JSON string: escapes quotes, backslashes and control
 * characters, and replaces each byte that is not UTF-8 with U+FFFD. */
static void json_write_string(FILE *out, const char *v, size_t len) {
    const unsigned char *s = (const unsigned char *)v;
    const unsigned char *e = s + len;
    const unsigned char *run = s;
    fputc('"', out);
    while (s < e) {
        char esc[8];
        const char *x = NULL;
        size_t n = 1;
        if (*s == '"') {
            x = "\\\"";
        } else if (*s == '\\') {
            x = "\\\\";
        } else if (*s == '\n') {
            x = "\\n";
        } else if (*s == '\r') {
            x = "\\r";
        } else if (*s == '\t') {
            x = "\\t";
        } else if (*s == '\b') {
            x = "\\b";
        } else if (*s == '\f') {
            x = "\\f";
        } else if (*s < 0x20 || *s == 0x7F) {
            snprintf(esc, sizeof(esc), "\\u%04x", *s);
            x = esc;
        } else if (*s >= 0x80) {
            n = utf8_seq_len(s, (size_t)(e - s));
            if (n == 0) {
                x = "\xEF\xBF\xBD"; /* U+FFFD */
                n = 1;
            }
        }
        if (x) {
            fwrite(run, 1, (size_t)(s - run), out);
            fputs(x, out);
            s += n;
            run = s;
        } else {
            s += n;
        }
    }
    fwrite(run, 1, (size_t)(s - run), out);
    fputc('"', out);
}

/* True if v[0..len) is a number in JSON's grammar (so NaN, Infinity, "1."
 * and ".5" are not). */
static bool json_is_number(const char *v, size_t len) {
    const char *s = v, *e = v + len;
#define DIGIT(p) ((p) < e && *(p) >= '0' && *(p) <= '9')
    if (s < e && *s == '-') s++;
    if (s < e && *s == '0') {
        s++;
    } else if (DIGIT(s)) {
        while (DIGIT(s)) s++;
    } else {
        return false;
    }
    if (s < e && *s == '.') {
        s++;
        if (!DIGIT(s)) return false;
        while (DIGIT(s)) s++;
    }
    if (s < e && (*s == 'e' || *s == 'E')) {
        s++;
        if (s < e && (*s == '+' || *s == '-')) s++;
        if (!DIGIT(s)) return false;
        while (DIGIT(s)) s++;
    }
#undef DIGIT
    return s == e;
}

static void json_write_row(printer *p) {
    FILE *out = p->out;
    fputc('{', out);
    for (int col = 0; col < p->n_cols; col++) {
        cell v = p->row[col];
        const char *name = p->json_names ? p->json_names[col] : column_name(p, col);
        if (col > 0) fputc(',', out);
        json_write_string(out, name, strlen(name));
        fputc(':', out);
        if (!v.p) {
            fputs("null", out);
            continue;
        }
        switch (sqe_cursor_column_kind(p->c, col)) {
        case SQE_KIND_NUMBER:
            if (json_is_number(v.p, v.len))
                fwrite(v.p, 1, v.len, out);
            else
                json_write_string(out, v.p, v.len);
            break;
        case SQE_KIND_BOOLEAN:
            if (v.len == 4 && strncasecmp(v.p, "true", 4) == 0)
                fputs("true", out);
            else if (v.len == 5 && strncasecmp(v.p, "false", 5) == 0)
                fputs("false", out);
            else
                json_write_string(out, v.p, v.len);
            break;
        default:
            json_write_string(out, v.p, v.len);
            break;
        }
    }
    fputc('}', out);
}

/* --------------------------------------------------------------- markdown */

/* A GitHub table cell: what would end the cell ('|'), start markup ('\\',
 * '`'), or be read as HTML ('<', '&') is escaped; LF is "<br>", CR "\\r" (so
 * CRLF reads "\\r<br>" and the two stay distinct); TAB "\\t"; other control
 * characters and bytes that are not UTF-8 "\\xHH", as in table. */
static void markdown_write(FILE *out, const char *v, size_t len) {
    const char *s = v, *e = v + len;
    while (s < e) {
        const char *run = s;
        while (s < e && (*s == '\0' || !strchr("|\\`<&\r\n\t", *s))) s++;
        write_escaped(out, run, (size_t)(s - run), false);
        if (s == e) break;
        switch (*s) {
        case '|':
            fputs("\\|", out);
            break;
        case '\\':
            fputs("\\\\", out);
            break;
        case '`':
            fputs("\\`", out);
            break;
        case '<':
            fputs("&lt;", out);
            break;
        case '&':
            fputs("&amp;", out);
            break;
        case '\r':
            fputs("\\r", out);
            break;
        case '\t':
            fputs("\\t", out);
            break;
        default: /* '\n' */
            fputs("<br>", out);
            break;
        }
        s++;
    }
}

/* ------------------------------------------------------------ json names */

/* JSON object keys must differ: the column names, with a repeated name
 * renamed as DuckDB does (a, a -> a, a_1; a third a -> a_2, skipping any
 * name already taken). NULL when out of memory. Free with free_names. */
static char **json_unique_names(const printer *p) {
    char **names = calloc((size_t)(p->n_cols > 0 ? p->n_cols : 1), sizeof *names);
    if (!names) return NULL;
    for (int col = 0; col < p->n_cols; col++) {
        const char *base = column_name(p, col);
        size_t cap = strlen(base) + 24;
        char *name = malloc(cap);
        if (!name) {
            for (int i = 0; i < col; i++) free(names[i]);
            free(names);
            return NULL;
        }
        snprintf(name, cap, "%s", base);
        for (unsigned k = 1;; k++) {
            bool taken = false;
            for (int i = 0; i < col && !taken; i++) taken = strcmp(names[i], name) == 0;
            if (!taken) break;
            snprintf(name, cap, "%s_%u", base, k);
        }
        names[col] = name;
    }
    return names;
}

static void free_names(char **names, int n) {
    if (!names) return;
    for (int i = 0; i < n; i++) free(names[i]);
    free(names);
}

/* ---------------------------------------------------------------- printer */

/* The blank line between results, then the header of the format. */
static void begin(printer *p) {
    sqe_cli *cli = p->cli;
    FILE *out = p->out;
    if (cli->printed_result &&
        (cli->format == SQE_CLI_FORMAT_TABLE || cli->format == SQE_CLI_FORMAT_MARKDOWN))
        fputc('\n', out);
    cli->printed_result = true;
    switch (cli->format) {
    case SQE_CLI_FORMAT_TABLE:
        break; /* table_release prints the header once widths are known */
    case SQE_CLI_FORMAT_CSV:
    case SQE_CLI_FORMAT_TSV:
        p->line.len = 0;
        for (int col = 0; col < p->n_cols; col++) {
            const char *name = column_name(p, col);
            bool csv = cli->format == SQE_CLI_FORMAT_CSV;
            if (col > 0) line_putc(&p->line, csv ? ',' : '\t');
            (csv ? csv_write : tsv_write)(&p->line, name, strlen(name));
        }
        line_putc(&p->line, '\n');
        if (!p->line.oom) fwrite(p->line.p, 1, p->line.len, out);
        break;
    case SQE_CLI_FORMAT_JSON:
    case SQE_CLI_FORMAT_JSONL:
        break;
    case SQE_CLI_FORMAT_MARKDOWN:
        if (p->n_cols == 0) break;
        fputc('|', out);
        for (int col = 0; col < p->n_cols; col++) {
            const char *name = column_name(p, col);
            fputc(' ', out);
            markdown_write(out, name, strlen(name));
            fputs(" |", out);
        }
        fputs("\n|", out);
        for (int col = 0; col < p->n_cols; col++)
            fputs(column_is_numeric(p, col) ? "---:|" : "---|", out);
        fputc('\n', out);
        break;
    }
    if (cli->format != SQE_CLI_FORMAT_TABLE) p->started = true;
}

/* Prints (or, for table, holds) the current row. */
static bool print_row(printer *p) {
    FILE *out = p->out;
    if (!p->started && p->cli->format != SQE_CLI_FORMAT_TABLE) begin(p);
    switch (p->cli->format) {
    case SQE_CLI_FORMAT_TABLE:
        if (p->started) {
            table_row(p, p->row);
        } else {
            if (!table_hold(p)) return false;
            if (p->n_held >= TABLE_HOLD_ROWS || p->held_bytes >= TABLE_HOLD_BYTES) {
                begin(p);
                table_release(p);
            }
        }
        break;
    case SQE_CLI_FORMAT_CSV:
    case SQE_CLI_FORMAT_TSV:
        p->line.len = 0;
        for (int col = 0; col < p->n_cols; col++) {
            cell v = p->row[col];
            bool csv = p->cli->format == SQE_CLI_FORMAT_CSV;
            if (col > 0) line_putc(&p->line, csv ? ',' : '\t');
            if (v.p) (csv ? csv_write : tsv_write)(&p->line, v.p, v.len);
        }
        line_putc(&p->line, '\n');
        if (p->line.oom) return false;
        fwrite(p->line.p, 1, p->line.len, out);
        break;
    case SQE_CLI_FORMAT_JSON:
        fputs(p->n_rows == 0 ? "[\n" : ",\n", out);
        json_write_row(p);
        break;
    case SQE_CLI_FORMAT_JSONL:
        json_write_row(p);
        fputc('\n', out);
        break;
    case SQE_CLI_FORMAT_MARKDOWN:
        if (p->n_cols == 0) break;
        fputc('|', out);
        for (int col = 0; col < p->n_cols; col++) {
            cell v = p->row[col];
            fputc(' ', out);
            if (v.p)
                markdown_write(out, v.p, v.len);
            else
                fputs("NULL", out);
            fputs(" |", out);
        }
        fputc('\n', out);
        break;
    }
    p->n_rows++;
    return true;
}

/* The end of a result that ended well. */
static void finish(printer *p) {
    FILE *out = p->out;
    if (!p->started) begin(p);
    switch (p->cli->format) {
    case SQE_CLI_FORMAT_TABLE:
        if (p->n_held > 0 || p->n_rows == 0) table_release(p);
        fprintf(out, "(%llu %s)\n", (unsigned long long)p->n_rows, p->n_rows == 1 ? "row" : "rows");
        break;
    case SQE_CLI_FORMAT_JSON:
        fputs(p->n_rows == 0 ? "[]\n" : "\n]\n", out);
        break;
    default:
        break;
    }
}

bool sqe_cli_print_rows(sqe_cli *cli, sqe_cursor *c) {
    printer p = {.cli = cli, .out = cli->out, .c = c, .n_cols = sqe_cursor_column_count(c)};
    size_t n = (size_t)(p.n_cols > 0 ? p.n_cols : 1);
    p.row = calloc(n, sizeof *p.row);
    p.lines = calloc(n, sizeof *p.lines);
    p.widths = calloc(n, sizeof *p.widths);
    if (cli->format == SQE_CLI_FORMAT_TABLE) p.held = calloc(n * TABLE_HOLD_ROWS, sizeof *p.held);
    bool json = cli->format == SQE_CLI_FORMAT_JSON || cli->format == SQE_CLI_FORMAT_JSONL;
    if (json) p.json_names = json_unique_names(&p);
    bool ok = p.row && p.lines && p.widths && (cli->format != SQE_CLI_FORMAT_TABLE || p.held) &&
              (!json || p.json_names);
    bool oom = !ok;
    while (ok && sqe_cursor_next_row(c)) {
        for (int col = 0; col < p.n_cols; col++)
            p.row[col].p = sqe_cursor_value(c, col, &p.row[col].len);
        if (!print_row(&p)) {
            oom = true;
            break;
        }
        /* the batch is printed: let a reader of the pipe see it */
        if (p.started && p.n_rows == sqe_cursor_row_count(c)) fflush(p.out);
    }
    if (oom) {
        fputs("(out of memory formatting the result)\n", p.out);
        sqe_cursor_cancel(c);
    } else if (sqe_cursor_ok(c)) {
        finish(&p);
    } else if (p.started && cli->format == SQE_CLI_FORMAT_JSON) {
        fputc('\n', p.out); /* end the line of the last object; no "]": it failed */
    }
    if (p.held) table_free_held(&p);
    free(p.held);
    free(p.row);
    free(p.lines);
    free(p.widths);
    free_names(p.json_names, p.n_cols);
    free(p.line.p);
    return ok && !oom && sqe_cursor_ok(c);
}
