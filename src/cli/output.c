/*
 * output.c - writes a result's rows in one of sqe-cli's output formats.
 *
 * Every formatter reads the fully materialized result through include/sqe.h
 * (sqe_result_value gives text, or NULL for SQL NULL) and uses the column's
 * value kind (sqe_result_column_kind) to decide alignment and quoting:
 *
 *   table     psql's aligned style: names centred, text left-aligned, numbers
 *             and booleans right-aligned, NULL shown as "NULL", control
 *             characters shown as \n \t \r \xHH so rows stay on one line,
 *             then "(N rows)". No trailing blanks on any line.
 *   csv       header line, then RFC 4180 rows: a field is quoted when it holds
 *             a comma, a quote, CR or LF, or is the empty string (so "" differs
 *             from NULL, which is an empty field); quotes are doubled.
 *   tsv       header line, tab-separated; NULL is an empty field; tab,
 *             newline, CR and backslash are written as \t \n \r \\.
 *   json      one array of objects, one object per line; numbers and
 *             booleans bare, NULL null, everything else (including NaN and
 *             Infinity) a JSON string. Always valid JSON, "[]" for no rows;
 *             bytes that are not UTF-8 become U+FFFD.
 *   jsonl     one object per line, nothing for no rows.
 *   markdown  a GitHub table: "| a | b |", "|---:|---|" ("---:" for numbers
 *             and booleans), '|' escaped as "\|", newlines as "<br>".
 *
 * Invariant: nothing here prints to stderr or decides exit status; run.c
 * does that. The result is never modified.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"

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

static const char *column_name(const sqe_result *r, int col) {
    const char *name = sqe_result_column_name(r, col);
    return name ? name : "";
}

/* True for columns whose values are right-aligned and written bare. */
static bool column_is_numeric(const sqe_result *r, int col) {
    sqe_value_kind kind = sqe_result_column_kind(r, col);
    return kind == SQE_KIND_NUMBER || kind == SQE_KIND_BOOLEAN;
}

/* ------------------------------------------------------------------ table */

/* Length of the UTF-8 sequence starting at s (1 for an invalid byte). */
static size_t utf8_seq_len(const unsigned char *s) {
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
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    /* reject overlong forms, surrogates and values above U+10FFFF */
    if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
        (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
        return 0;
    return n;
}

/* Width in characters of the first len bytes of v as the table format
 * shows them (escapes included). */
static size_t table_width(const char *v, size_t len) {
    size_t width = 0;
    const unsigned char *s = (const unsigned char *)v;
    const unsigned char *e = s + len;
    while (s < e) {
        if (*s == '\n' || *s == '\t' || *s == '\r') {
            width += 2;
            s++;
        } else if (*s < 0x20 || *s == 0x7F) {
            width += 4;
            s++;
        } else {
            size_t n = utf8_seq_len(s);
            if (n == 0 || n > (size_t)(e - s)) {
                width += 4; /* shown as \xHH */
                s++;
            } else {
                width += 1;
                s += n;
            }
        }
    }
    return width;
}

/* Length of the line of a multi-line cell starting at v. */
static size_t line_len(const char *v) {
    const char *nl = strchr(v, '\n');
    return nl ? (size_t)(nl - v) : strlen(v);
}

/* Widest line of a cell. */
static size_t cell_width(const char *v) {
    size_t width = 0;
    for (;;) {
        size_t len = line_len(v);
        size_t w = table_width(v, len);
        if (w > width) width = w;
        if (v[len] == '\0') return width;
        v += len + 1;
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

/* Writes the first len bytes of v with control characters and invalid
 * UTF-8 shown as escapes, so the widths computed by table_width hold. */
static void tl_text(table_line *tl, const char *v, size_t len) {
    FILE *out = tl->out;
    const unsigned char *s = (const unsigned char *)v;
    const unsigned char *e = s + len;
    const unsigned char *run = s;
    if (len == 0) return;
    tl_flush_pad(tl);
    while (s < e) {
        const char *esc = NULL;
        char hex[8];
        size_t n = 1;
        if (*s == '\n') {
            esc = "\\n";
        } else if (*s == '\t') {
            esc = "\\t";
        } else if (*s == '\r') {
            esc = "\\r";
        } else if (*s < 0x20 || *s == 0x7F) {
            snprintf(hex, sizeof(hex), "\\x%02X", *s);
            esc = hex;
        } else if (*s >= 0x80) {
            n = utf8_seq_len(s);
            if (n == 0 || n > (size_t)(e - s)) {
                snprintf(hex, sizeof(hex), "\\x%02X", *s);
                esc = hex;
                n = 1;
            }
        }
        if (esc) {
            fwrite(run, 1, (size_t)(s - run), out);
            fputs(esc, out);
            s += n;
            run = s;
        } else {
            s += n;
        }
    }
    fwrite(run, 1, (size_t)(s - run), out);
}

/* Cells holding line breaks span several lines; as in psql, a '+' after
 * a cell's line says the cell goes on in the next line. */
static void print_table(FILE *out, const sqe_result *r) {
    int n_cols = sqe_result_column_count(r);
    uint64_t n_rows = sqe_result_row_count(r);
    size_t alloc_cols = n_cols > 0 ? (size_t)n_cols : 1;
    size_t *widths = calloc(alloc_cols, sizeof(size_t));
    const char **cursor = calloc(alloc_cols, sizeof(char *));
    table_line tl = {out, 0};
    if (!widths || !cursor) {
        fputs("(out of memory formatting the result)\n", out);
        free(widths);
        free(cursor);
        return;
    }
    for (int col = 0; col < n_cols; col++) {
        widths[col] = table_width(column_name(r, col), strlen(column_name(r, col)));
        for (uint64_t row = 0; row < n_rows; row++) {
            const char *v = sqe_result_value(r, row, col);
            size_t w = cell_width(v ? v : "NULL");
            if (w > widths[col]) widths[col] = w;
        }
    }

    if (n_cols > 0) {
        /* header: names centred (the odd blank goes right, as in psql) */
        for (int col = 0; col < n_cols; col++) {
            const char *name = column_name(r, col);
            size_t len = strlen(name);
            size_t pad = widths[col] - table_width(name, len);
            if (col > 0) tl_raw(&tl, "|");
            tl_pad(&tl, 1 + pad / 2);
            tl_text(&tl, name, len);
            tl_pad(&tl, pad - pad / 2 + 1);
        }
        tl_end(&tl);
        for (int col = 0; col < n_cols; col++) {
            if (col > 0) fputc('+', out);
            for (size_t i = 0; i < widths[col] + 2; i++) fputc('-', out);
        }
        fputc('\n', out);
        for (uint64_t row = 0; row < n_rows; row++) {
            bool more = true;
            for (int col = 0; col < n_cols; col++) {
                const char *v = sqe_result_value(r, row, col);
                cursor[col] = v ? v : "NULL";
            }
            while (more) {
                more = false;
                for (int col = 0; col < n_cols; col++) {
                    const char *cell = cursor[col];
                    size_t len = cell ? line_len(cell) : 0;
                    size_t pad = widths[col] - (cell ? table_width(cell, len) : 0);
                    bool goes_on = cell && cell[len] == '\n';
                    if (col > 0) tl_raw(&tl, "|");
                    tl_pad(&tl, 1);
                    if (cell && column_is_numeric(r, col)) {
                        tl_pad(&tl, pad);
                        tl_text(&tl, cell, len);
                    } else {
                        if (cell) tl_text(&tl, cell, len);
                        tl_pad(&tl, pad);
                    }
                    if (goes_on) {
                        tl_raw(&tl, "+");
                        cursor[col] = cell + len + 1;
                        more = true;
                    } else {
                        tl_pad(&tl, 1);
                        cursor[col] = NULL;
                    }
                }
                tl_end(&tl);
            }
        }
    }
    fprintf(out, "(%llu %s)\n", (unsigned long long)n_rows, n_rows == 1 ? "row" : "rows");
    free(widths);
    free(cursor);
}

/* -------------------------------------------------------------------- csv */

static void csv_write(FILE *out, const char *v) {
    bool quote = v[0] == '\0' || strpbrk(v, ",\"\r\n") != NULL;
    if (!quote) {
        fputs(v, out);
        return;
    }
    fputc('"', out);
    for (const char *s = v; *s; s++) {
        if (*s == '"') fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void print_csv(FILE *out, const sqe_result *r) {
    int n_cols = sqe_result_column_count(r);
    uint64_t n_rows = sqe_result_row_count(r);
    for (int col = 0; col < n_cols; col++) {
        if (col > 0) fputc(',', out);
        csv_write(out, column_name(r, col));
    }
    fputc('\n', out);
    for (uint64_t row = 0; row < n_rows; row++) {
        for (int col = 0; col < n_cols; col++) {
            const char *v = sqe_result_value(r, row, col);
            if (col > 0) fputc(',', out);
            if (v) csv_write(out, v);
        }
        fputc('\n', out);
    }
}

/* -------------------------------------------------------------------- tsv */

static void tsv_write(FILE *out, const char *v) {
    const char *run = v;
    const char *s = v;
    for (; *s; s++) {
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
        default:
            break;
        }
        if (esc) {
            fwrite(run, 1, (size_t)(s - run), out);
            fputs(esc, out);
            run = s + 1;
        }
    }
    fwrite(run, 1, (size_t)(s - run), out);
}

static void print_tsv(FILE *out, const sqe_result *r) {
    int n_cols = sqe_result_column_count(r);
    uint64_t n_rows = sqe_result_row_count(r);
    for (int col = 0; col < n_cols; col++) {
        if (col > 0) fputc('\t', out);
        tsv_write(out, column_name(r, col));
    }
    fputc('\n', out);
    for (uint64_t row = 0; row < n_rows; row++) {
        for (int col = 0; col < n_cols; col++) {
            const char *v = sqe_result_value(r, row, col);
            if (col > 0) fputc('\t', out);
            if (v) tsv_write(out, v);
        }
        fputc('\n', out);
    }
}

/* ------------------------------------------------------------------- json */

/* Writes v as a JSON string: escapes quotes, backslashes and control
 * characters, and replaces bytes that are not UTF-8 with U+FFFD. */
static void json_write_string(FILE *out, const char *v) {
    const unsigned char *s = (const unsigned char *)v;
    const unsigned char *run = s;
    fputc('"', out);
    while (*s) {
        char esc[8];
        const char *e = NULL;
        size_t n = 1;
        if (*s == '"') {
            e = "\\\"";
        } else if (*s == '\\') {
            e = "\\\\";
        } else if (*s == '\n') {
            e = "\\n";
        } else if (*s == '\r') {
            e = "\\r";
        } else if (*s == '\t') {
            e = "\\t";
        } else if (*s == '\b') {
            e = "\\b";
        } else if (*s == '\f') {
            e = "\\f";
        } else if (*s < 0x20 || *s == 0x7F) {
            snprintf(esc, sizeof(esc), "\\u%04x", *s);
            e = esc;
        } else if (*s >= 0x80) {
            n = utf8_seq_len(s);
            if (n == 0) {
                e = "\xEF\xBF\xBD"; /* U+FFFD */
                n = 1;
            }
        }
        if (e) {
            fwrite(run, 1, (size_t)(s - run), out);
            fputs(e, out);
            s += n;
            run = s;
        } else {
            s += n;
        }
    }
    fwrite(run, 1, (size_t)(s - run), out);
    fputc('"', out);
}

/* True if v is a number in JSON's grammar (so NaN, Infinity, "1." and
 * ".5" are not). */
static bool json_is_number(const char *v) {
    const char *s = v;
    if (*s == '-') s++;
    if (*s == '0') {
        s++;
    } else if (*s >= '1' && *s <= '9') {
        while (*s >= '0' && *s <= '9') s++;
    } else {
        return false;
    }
    if (*s == '.') {
        s++;
        if (!(*s >= '0' && *s <= '9')) return false;
        while (*s >= '0' && *s <= '9') s++;
    }
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-') s++;
        if (!(*s >= '0' && *s <= '9')) return false;
        while (*s >= '0' && *s <= '9') s++;
    }
    return *s == '\0';
}

static void json_write_row(FILE *out, const sqe_result *r, uint64_t row, int n_cols) {
    fputc('{', out);
    for (int col = 0; col < n_cols; col++) {
        const char *v = sqe_result_value(r, row, col);
        if (col > 0) fputc(',', out);
        json_write_string(out, column_name(r, col));
        fputc(':', out);
        if (!v) {
            fputs("null", out);
            continue;
        }
        switch (sqe_result_column_kind(r, col)) {
        case SQE_KIND_NUMBER:
            if (json_is_number(v))
                fputs(v, out);
            else
                json_write_string(out, v);
            break;
        case SQE_KIND_BOOLEAN:
            if (strcasecmp(v, "true") == 0)
                fputs("true", out);
            else if (strcasecmp(v, "false") == 0)
                fputs("false", out);
            else
                json_write_string(out, v);
            break;
        default:
            json_write_string(out, v);
            break;
        }
    }
    fputc('}', out);
}

static void print_json(FILE *out, const sqe_result *r) {
    int n_cols = sqe_result_column_count(r);
    uint64_t n_rows = sqe_result_row_count(r);
    if (n_rows == 0) {
        fputs("[]\n", out);
        return;
    }
    fputs("[\n", out);
    for (uint64_t row = 0; row < n_rows; row++) {
        json_write_row(out, r, row, n_cols);
        fputs(row + 1 < n_rows ? ",\n" : "\n", out);
    }
    fputs("]\n", out);
}

static void print_jsonl(FILE *out, const sqe_result *r) {
    int n_cols = sqe_result_column_count(r);
    uint64_t n_rows = sqe_result_row_count(r);
    for (uint64_t row = 0; row < n_rows; row++) {
        json_write_row(out, r, row, n_cols);
        fputc('\n', out);
    }
}

/* --------------------------------------------------------------- markdown */

static void markdown_write(FILE *out, const char *v) {
    for (const char *s = v; *s; s++) {
        if (*s == '|') {
            fputs("\\|", out);
        } else if (*s == '\r') {
            if (s[1] != '\n') fputs("<br>", out);
        } else if (*s == '\n') {
            fputs("<br>", out);
        } else {
            fputc(*s, out);
        }
    }
}

static void print_markdown(FILE *out, const sqe_result *r) {
    int n_cols = sqe_result_column_count(r);
    uint64_t n_rows = sqe_result_row_count(r);
    if (n_cols == 0) return;
    fputc('|', out);
    for (int col = 0; col < n_cols; col++) {
        fputc(' ', out);
        markdown_write(out, column_name(r, col));
        fputs(" |", out);
    }
    fputs("\n|", out);
    for (int col = 0; col < n_cols; col++) fputs(column_is_numeric(r, col) ? "---:|" : "---|", out);
    fputc('\n', out);
    for (uint64_t row = 0; row < n_rows; row++) {
        fputc('|', out);
        for (int col = 0; col < n_cols; col++) {
            const char *v = sqe_result_value(r, row, col);
            fputc(' ', out);
            markdown_write(out, v ? v : "NULL");
            fputs(" |", out);
        }
        fputc('\n', out);
    }
}

void sqe_cli_print_rows(FILE *out, const sqe_result *r, sqe_cli_format fmt) {
    switch (fmt) {
    case SQE_CLI_FORMAT_TABLE:
        print_table(out, r);
        break;
    case SQE_CLI_FORMAT_CSV:
        print_csv(out, r);
        break;
    case SQE_CLI_FORMAT_TSV:
        print_tsv(out, r);
        break;
    case SQE_CLI_FORMAT_JSON:
        print_json(out, r);
        break;
    case SQE_CLI_FORMAT_JSONL:
        print_jsonl(out, r);
        break;
    case SQE_CLI_FORMAT_MARKDOWN:
        print_markdown(out, r);
        break;
    }
}
