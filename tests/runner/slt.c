/*
 * slt.c - sqe-slt, sqe's sqllogictest runner (DuckDB-style .test files).
 *
 *   sqe-slt [--verbose] [--filter SUBSTR] [--keep] [-j N] [--batch N]
 *           [--no-fork] [--timeout SECS] PATH...
 *
 * A PATH is a .test file or a folder searched recursively for *.test files
 * (run in sorted order). The runner uses only include/sqe.h, like any other
 * embedder.
 *
 * Isolation. Each file gets a fresh session and a fresh temp folder (mkdtemp
 * under $TMPDIR or /tmp) that is also the working directory and is removed
 * afterwards unless --keep. Files run in child processes, a batch of a few
 * consecutive files per child (--batch N; automatic by default, at most 16),
 * -j N children at a time (default: CPUs, at most 8). A crash or a hang
 * (--timeout SECS per file, default 300) fails the file it happened in and
 * the rest of its batch runs in a new child; a non-zero exit after the last
 * record (a sanitizer's leak report) fails the batch's last file, so use
 * --batch 1 to pin a leak to its file. Reports are buffered per file and
 * printed in file order. --no-fork runs everything in this process, one file
 * after another (for a debugger).
 *
 * Substitutions, applied to the whole file before it is read:
 *   __TEST_DIR__  the file's temp folder (absolute, symlinks resolved)
 *   __REPO__      the repository root (the folder holding include/sqe.h
 *                 above the test file, else above the working directory)
 *   __SHARED__    the project's shared data folder: $SQE_SHARED_DIR, else the
 *                 first of __REPO__/../shared, __REPO__/../../shared that
 *                 exists (a git worktree sits one level deeper than the main
 *                 checkout); conformance files such as
 *                 __SHARED__/parquet-testing/ are used from there, not copied
 *
 * Records are separated by blank lines (lines of only blanks); a line
 * starting with '#' between records is a comment.
 *
 *   statement ok                 SQL lines follow; every statement in them
 *                                (split with sqe_split_statements) must succeed
 *   statement error [TEXT]       SQL lines, optionally "----" and more expected
 *                                text; a statement must fail and its message
 *                                contain TEXT (and the lines after ----,
 *                                joined with \n). Records with no expected
 *                                text pass on any error and are counted as
 *                                warnings.
 *   query TYPES [nosort|rowsort|valuesort]
 *                                one SQL statement, "----", expected rows:
 *                                values separated by one TAB; NULL is "NULL",
 *                                the empty string "(empty)"; TAB, LF, CR, NUL
 *                                inside actual values are shown as \t \n \r \0
 *                                (values are read with their byte length, so a
 *                                NUL does not end them). TYPES is
 *                                one letter of I R T B D per column; the
 *                                column count must match. rowsort sorts rows,
 *                                valuesort sorts single values, as strings
 *                                (strcmp), on both sides. Values compare as
 *                                text, exactly. `contains` instead checks
 *                                that each expected line occurs, in order,
 *                                as a substring of the rows joined by
 *                                newlines (EXPLAIN ANALYZE counters).
 *   file PATH                    the following lines, each ending in \n, are
 *                                written to PATH (parents created; relative
 *                                paths are inside the temp folder)
 *   file-escaped PATH            the same with C escapes decoded in each line:
 *                                \t \n \r \\ \0 \xHH \NNN (octal); a last line
 *                                "\c" means no newline after the line before
 *   file-repeat N PATH           N files: PATH and the following lines with
 *                                {i} replaced by 0..N-1 (generated tables)
 *   remove PATH                  deletes a file or folder (relative paths)
 *   mkdir PATH                   mkdir -p
 *   mkfifo PATH                  a FIFO (named pipe) at PATH (parents created)
 *   symlink TARGET LINK          a symbolic link LINK -> TARGET (TARGET as
 *                                written; parents of LINK created)
 *   hive-root NAME=URL           sqe_session_attach_root on the file's session,
 *                                after creating the folder of a local URL
 *                                (attaching a missing folder is an error)
 *   tuning KEY=VALUE...          per-query options for the records that follow
 *                                (sqe_session_set_tuning): threads,
 *                                parallel_min_bytes, text_split_bytes,
 *                                memory_limit; whole numbers, 0 = the default.
 *                                e.g. "tuning threads=4 parallel_min_bytes=1
 *                                text_split_bytes=64" runs scans in parallel
 *                                and splits text files into 64-byte ranges,
 *                                so a file can check the parallel and split
 *                                paths give the serial answers.
 *   halt                         stop reading the file
 *
 * Output: for each failure, file:line, what went wrong, the SQL, and the
 * expected and actual rows (first 20). Then "N files, M records, F failures"
 * where records are statement and query records. Exit 1 if anything failed,
 * 2 on a usage error.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sqe.h"

#define SHOW_ROWS 20

typedef struct run_opts {
    bool verbose;
    bool keep;
    bool fork;
    int jobs;
    int batch; /* files per child process; 0: automatic */
    int timeout_secs;
    const char *filter;
    char repo[PATH_MAX];
} run_opts;

/* What one file's run reports back; lives in shared memory when forked. */
typedef struct file_stats {
    int records;
    int failures;
    int warnings;     /* statement error records without expected text */
    int line;         /* line of the record being run (for crash reports) */
    bool started;     /* a child began this file */
    bool finished;    /* run_file returned normally */
    char tmpdir[256]; /* the file's temp folder while it exists ("" if longer) */
} file_stats;

/* ------------------------------------------------------------ small utils */

typedef struct strbuf {
    char *data;
    size_t len, cap;
} strbuf;

static void sb_grow(strbuf *b, size_t extra) {
    if (b->len + extra + 1 <= b->cap) return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1) cap *= 2;
    char *data = realloc(b->data, cap);
    if (!data) {
        fputs("sqe-slt: out of memory\n", stderr);
        exit(2);
    }
    b->data = data;
    b->cap = cap;
}

static void sb_add(strbuf *b, const char *s, size_t n) {
    sb_grow(b, n);
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

static void sb_puts(strbuf *b, const char *s) {
    sb_add(b, s, strlen(s));
}

static void sb_putc(strbuf *b, char c) {
    sb_add(b, &c, 1);
}

static char *xstrdup(const char *s) {
    char *d = strdup(s);
    if (!d) {
        fputs("sqe-slt: out of memory\n", stderr);
        exit(2);
    }
    return d;
}

static void *xrealloc(void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fputs("sqe-slt: out of memory\n", stderr);
        exit(2);
    }
    return q;
}

static bool is_blank_line(const char *s) {
    for (; *s; s++)
        if (*s != ' ' && *s != '\t' && *s != '\r') return false;
    return true;
}

static bool read_whole_file(const char *path, strbuf *out) {
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) sb_add(out, chunk, n);
    bool ok = !ferror(f);
    fclose(f);
    if (!out->data) {
        sb_grow(out, 0);
        out->data[0] = '\0';
    }
    return ok;
}

/* Replaces every occurrence of `from` in *b by `to`. */
static void sb_replace_all(strbuf *b, const char *from, const char *to) {
    if (!b->data || !strstr(b->data, from)) return;
    strbuf out = {0};
    size_t from_len = strlen(from);
    const char *s = b->data;
    const char *hit;
    while ((hit = strstr(s, from)) != NULL) {
        sb_add(&out, s, (size_t)(hit - s));
        sb_puts(&out, to);
        s = hit + from_len;
    }
    sb_puts(&out, s);
    free(b->data);
    *b = out;
}

static bool mkdir_p(const char *path) {
    char tmp[PATH_MAX];
    if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp)) return false;
    for (char *p = tmp + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            if (mkdir(tmp, 0777) != 0 && errno != EEXIST) return false;
            *p = '/';
        }
    }
    return mkdir(tmp, 0777) == 0 || errno == EEXIST;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

static void rm_rf(const char *path) {
    nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* The shared data folder for __SHARED__ (see the header). */
static void find_shared(const char *repo, char *out) {
    const char *env = getenv("SQE_SHARED_DIR");
    if (env && *env) {
        snprintf(out, PATH_MAX, "%s", env);
        return;
    }
    static const char *const k_rel[] = {"/../shared", "/../../shared"};
    for (size_t i = 0; i < sizeof k_rel / sizeof k_rel[0]; i++) {
        char probe[PATH_MAX + 32];
        snprintf(probe, sizeof probe, "%s%s", repo, k_rel[i]);
        if (realpath(probe, out)) return;
    }
    snprintf(out, PATH_MAX, "%s/../shared", repo);
}

/* Finds the folder holding include/sqe.h at or above `start`. */
static bool find_repo_from(const char *start, char *repo) {
    char dir[PATH_MAX];
    if (!realpath(start, dir)) return false;
    struct stat st;
    if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
        char *slash = strrchr(dir, '/');
        if (slash) *slash = '\0';
    }
    for (;;) {
        char probe[PATH_MAX + 32];
        snprintf(probe, sizeof(probe), "%s/include/sqe.h", dir);
        if (access(probe, F_OK) == 0) {
            snprintf(repo, PATH_MAX, "%s", dir[0] ? dir : "/");
            return true;
        }
        char *slash = strrchr(dir, '/');
        if (!slash || slash == dir) return false;
        *slash = '\0';
    }
}

/* ------------------------------------------------------------ file reader */

typedef struct test_file {
    const char *path; /* as given, for messages */
    strbuf text;      /* substituted content; lines point into it */
    char **lines;
    int n_lines;
    FILE *log; /* where failures are reported */
    file_stats *st;
    sqe_session *session;
    sqe_options tuning; /* the `tuning` directive's options so far */
    const run_opts *opts;
} test_file;

static void split_lines(test_file *tf) {
    int cap = 0;
    char *s = tf->text.data;
    while (s && *s) {
        char *nl = strchr(s, '\n');
        if (nl) *nl = '\0';
        size_t len = strlen(s);
        if (len > 0 && s[len - 1] == '\r') s[len - 1] = '\0';
        if (tf->n_lines == cap) {
            cap = cap ? cap * 2 : 256;
            tf->lines = xrealloc(tf->lines, (size_t)cap * sizeof(char *));
        }
        tf->lines[tf->n_lines++] = s;
        if (!nl) break;
        s = nl + 1;
    }
}

static void fail_header(test_file *tf, int line, const char *fmt, ...) {
    va_list ap;
    tf->st->failures++;
    fprintf(tf->log, "FAIL %s:%d: ", tf->path, line);
    va_start(ap, fmt);
    vfprintf(tf->log, fmt, ap);
    va_end(ap);
    fputc('\n', tf->log);
}

static void print_indented(FILE *log, const char *label, const char *text) {
    fprintf(log, "  %s\n", label);
    const char *s = text;
    while (*s) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        fprintf(log, "    %.*s\n", (int)len, s);
        if (!nl) break;
        s = nl + 1;
    }
}

static void print_error(FILE *log, const sqe_result *r) {
    const char *msg = sqe_result_error(r);
    const char *cls = sqe_result_error_class(r);
    const char *state = sqe_result_sqlstate(r);
    char label[128];
    snprintf(label, sizeof(label), "error [%s %s]:", cls ? cls : "?", state ? state : "?");
    print_indented(log, label, msg ? msg : "(no message)");
}

/* Joins lines [from, to) with '\n'. */
static char *join_lines(test_file *tf, int from, int to) {
    strbuf b = {0};
    sb_grow(&b, 0);
    b.data[0] = '\0';
    for (int i = from; i < to; i++) {
        if (i > from) sb_putc(&b, '\n');
        sb_puts(&b, tf->lines[i]);
    }
    return b.data;
}

/* Index of the first line at or after `from` that is blank (or n_lines). */
static int block_end(test_file *tf, int from) {
    int i = from;
    while (i < tf->n_lines && !is_blank_line(tf->lines[i])) i++;
    return i;
}

/* Index of "----" in [from, end) or -1. */
static int find_separator(test_file *tf, int from, int end) {
    for (int i = from; i < end; i++)
        if (strcmp(tf->lines[i], "----") == 0) return i;
    return -1;
}

/* ------------------------------------------------------------- statements */

typedef struct exec_ctx {
    test_file *tf;
    sqe_result *failed; /* first failing result, owned here */
    int n_run;
} exec_ctx;

static bool sql_is_blank(const char *sql, size_t len) {
    size_t i = 0;
    while (i < len) {
        char c = sql[i];
        if (isspace((unsigned char)c)) {
            i++;
        } else if (c == '-' && i + 1 < len && sql[i + 1] == '-') {
            while (i < len && sql[i] != '\n') i++;
        } else if (c == '/' && i + 1 < len && sql[i + 1] == '*') {
            i += 2;
            while (i + 1 < len && !(sql[i] == '*' && sql[i + 1] == '/')) i++;
            if (i + 1 >= len) return false;
            i += 2;
        } else {
            return false;
        }
    }
    return true;
}

static bool exec_one(const char *sql, size_t len, int line, void *vctx) {
    exec_ctx *ctx = vctx;
    (void)line;
    if (sql_is_blank(sql, len)) return true;
    char *text = xrealloc(NULL, len + 1);
    memcpy(text, sql, len);
    text[len] = '\0';
    sqe_result *r = sqe_session_execute(ctx->tf->session, text);
    free(text);
    ctx->n_run++;
    if (!sqe_result_ok(r)) {
        ctx->failed = r;
        return false;
    }
    sqe_result_free(r);
    return true;
}

static void run_statement(test_file *tf, int line, bool expect_error, const char *header_text,
                          int from, int end) {
    int sep = find_separator(tf, from, end);
    int sql_end = sep >= 0 ? sep : end;
    tf->st->records++;
    if (sql_end == from) {
        fail_header(tf, line, "statement record has no SQL");
        return;
    }
    char *sql = join_lines(tf, from, sql_end);
    char *after = sep >= 0 ? join_lines(tf, sep + 1, end) : NULL;
    exec_ctx ctx = {tf, NULL, 0};
    sqe_split_statements(sql, exec_one, &ctx);

    if (!expect_error) {
        if (ctx.failed) {
            fail_header(tf, line, "statement failed, expected ok");
            print_indented(tf->log, "SQL:", sql);
            print_error(tf->log, ctx.failed);
        } else if (ctx.n_run == 0) {
            fail_header(tf, line, "no statement found in the SQL");
            print_indented(tf->log, "SQL:", sql);
        }
    } else if (!ctx.failed) {
        fail_header(tf, line, "statement succeeded, expected an error%s%s%s",
                    header_text && *header_text ? " containing '" : "",
                    header_text && *header_text ? header_text : "",
                    header_text && *header_text ? "'" : "");
        print_indented(tf->log, "SQL:", sql);
    } else {
        const char *msg = sqe_result_error(ctx.failed);
        if (!msg) msg = "";
        bool has_text = (header_text && *header_text) || (after && *after);
        if (!has_text) tf->st->warnings++;
        const char *missing = NULL;
        if (header_text && *header_text && !strstr(msg, header_text))
            missing = header_text;
        else if (after && *after && !strstr(msg, after))
            missing = after;
        if (missing) {
            fail_header(tf, line, "error message does not contain the expected text");
            print_indented(tf->log, "SQL:", sql);
            print_indented(tf->log, "expected text:", missing);
            print_error(tf->log, ctx.failed);
        }
    }
    if (ctx.failed) sqe_result_free(ctx.failed);
    free(sql);
    free(after);
}

/* ---------------------------------------------------------------- queries */

static void render_value(strbuf *b, const char *v, size_t len) {
    if (!v) {
        sb_puts(b, "NULL");
        return;
    }
    if (len == 0) {
        sb_puts(b, "(empty)");
        return;
    }
    for (const char *s = v; s < v + len; s++) {
        switch (*s) {
        case '\t':
            sb_puts(b, "\\t");
            break;
        case '\n':
            sb_puts(b, "\\n");
            break;
        case '\r':
            sb_puts(b, "\\r");
            break;
        case '\0':
            sb_puts(b, "\\0");
            break;
        default:
            sb_putc(b, *s);
            break;
        }
    }
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void sort_strings(char **items, int n) {
    if (n > 1) qsort(items, (size_t)n, sizeof(char *), cmp_str);
}

typedef struct string_list {
    char **items;
    int n;
    int cap;
} string_list;

static void sl_push(string_list *l, char *s) {
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 16;
        l->items = xrealloc(l->items, (size_t)l->cap * sizeof(char *));
    }
    l->items[l->n++] = s;
}

static void sl_free(string_list *l) {
    for (int i = 0; i < l->n; i++) free(l->items[i]);
    free(l->items);
    l->items = NULL;
    l->n = l->cap = 0;
}

/* Splits each row at TABs into single values. */
static void sl_flatten(string_list *rows, string_list *values) {
    for (int i = 0; i < rows->n; i++) {
        const char *s = rows->items[i];
        for (;;) {
            const char *tab = strchr(s, '\t');
            size_t len = tab ? (size_t)(tab - s) : strlen(s);
            char *v = xrealloc(NULL, len + 1);
            memcpy(v, s, len);
            v[len] = '\0';
            sl_push(values, v);
            if (!tab) break;
            s = tab + 1;
        }
    }
}

static void print_rows(FILE *log, const char *label, const string_list *rows) {
    fprintf(log, "  %s (%d %s):\n", label, rows->n, rows->n == 1 ? "line" : "lines");
    for (int i = 0; i < rows->n && i < SHOW_ROWS; i++) fprintf(log, "    %s\n", rows->items[i]);
    if (rows->n > SHOW_ROWS) fprintf(log, "    ... %d more\n", rows->n - SHOW_ROWS);
}

/* `query T contains`: each expected line must occur, in order, as a
 * substring of the actual rows joined by newlines (for output with varying
 * parts, such as EXPLAIN ANALYZE's timings around its counters). */
static void contains_check(test_file *tf, int line, const char *sql, const string_list *expected,
                           const string_list *actual) {
    strbuf all = {0};
    sb_grow(&all, 0);
    all.data[0] = '\0';
    for (int i = 0; i < actual->n; i++) {
        if (i) sb_putc(&all, '\n');
        for (const char *c = actual->items[i]; *c; c++) sb_putc(&all, *c);
    }
    const char *at = all.data;
    for (int i = 0; i < expected->n; i++) {
        const char *hit = strstr(at, expected->items[i]);
        if (!hit) {
            fail_header(tf, line, "query result does not contain expected line %d (in order)",
                        i + 1);
            print_indented(tf->log, "SQL:", sql);
            print_rows(tf->log, "expected", expected);
            print_rows(tf->log, "actual", actual);
            break;
        }
        at = hit + strlen(expected->items[i]);
    }
    free(all.data);
}

static void run_query(test_file *tf, int line, const char *types, const char *sort, int from,
                      int end) {
    tf->st->records++;
    for (const char *t = types; *t; t++) {
        if (!strchr("IRTBD", *t)) {
            fail_header(tf, line, "query type letter '%c' is not one of I R T B D", *t);
            return;
        }
    }
    if (strcmp(sort, "nosort") != 0 && strcmp(sort, "rowsort") != 0 &&
        strcmp(sort, "valuesort") != 0 && strcmp(sort, "contains") != 0) {
        fail_header(tf, line, "unknown sort mode '%s' (nosort, rowsort, valuesort or contains)",
                    sort);
        return;
    }
    int sep = find_separator(tf, from, end);
    if (sep < 0) {
        fail_header(tf, line, "query record has no ---- line before its expected rows");
        return;
    }
    if (sep == from) {
        fail_header(tf, line, "query record has no SQL");
        return;
    }
    char *sql = join_lines(tf, from, sep);
    sqe_result *r = sqe_session_execute(tf->session, sql);
    string_list expected = {0}, actual = {0};

    if (!sqe_result_ok(r)) {
        fail_header(tf, line, "query failed");
        print_indented(tf->log, "SQL:", sql);
        print_error(tf->log, r);
        goto out;
    }
    int n_cols = sqe_result_column_count(r);
    if (n_cols != (int)strlen(types)) {
        fail_header(tf, line, "query returned %d column%s, the record declares %d ('%s')", n_cols,
                    n_cols == 1 ? "" : "s", (int)strlen(types), types);
        print_indented(tf->log, "SQL:", sql);
        goto out;
    }
    uint64_t n_rows = sqe_result_row_count(r);
    for (uint64_t row = 0; row < n_rows; row++) {
        strbuf b = {0};
        sb_grow(&b, 0);
        b.data[0] = '\0';
        for (int col = 0; col < n_cols; col++) {
            if (col > 0) sb_putc(&b, '\t');
            render_value(&b, sqe_result_value(r, row, col), sqe_result_value_len(r, row, col));
        }
        sl_push(&actual, b.data);
    }
    for (int i = sep + 1; i < end; i++) sl_push(&expected, xstrdup(tf->lines[i]));

    if (strcmp(sort, "contains") == 0) {
        contains_check(tf, line, sql, &expected, &actual);
        goto out;
    }
    if (strcmp(sort, "valuesort") == 0) {
        string_list ev = {0}, av = {0};
        sl_flatten(&expected, &ev);
        sl_flatten(&actual, &av);
        sl_free(&expected);
        sl_free(&actual);
        expected = ev;
        actual = av;
    }
    if (strcmp(sort, "nosort") != 0) {
        sort_strings(expected.items, expected.n);
        sort_strings(actual.items, actual.n);
    }

    int diff = -1;
    for (int i = 0; i < expected.n || i < actual.n; i++) {
        if (i >= expected.n || i >= actual.n || strcmp(expected.items[i], actual.items[i]) != 0) {
            diff = i;
            break;
        }
    }
    if (diff >= 0) {
        fail_header(tf, line, "query result differs (first difference at %s %d)",
                    strcmp(sort, "valuesort") == 0 ? "value" : "row", diff + 1);
        print_indented(tf->log, "SQL:", sql);
        print_rows(tf->log, "expected", &expected);
        print_rows(tf->log, "actual", &actual);
    }
out:
    sl_free(&expected);
    sl_free(&actual);
    sqe_result_free(r);
    free(sql);
}

/* ------------------------------------------------------------ directives */

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Decodes C escapes of one line into out. Returns false on a bad escape. */
static bool decode_escapes(const char *s, strbuf *out, char *bad) {
    while (*s) {
        if (*s != '\\') {
            sb_putc(out, *s++);
            continue;
        }
        s++;
        switch (*s) {
        case 't':
            sb_putc(out, '\t');
            s++;
            break;
        case 'n':
            sb_putc(out, '\n');
            s++;
            break;
        case 'r':
            sb_putc(out, '\r');
            s++;
            break;
        case '\\':
            sb_putc(out, '\\');
            s++;
            break;
        case 'x': {
            int hi = hex_digit(s[1]), lo = hi >= 0 ? hex_digit(s[2]) : -1;
            if (hi < 0 || lo < 0) {
                *bad = 'x';
                return false;
            }
            sb_putc(out, (char)(hi * 16 + lo));
            s += 3;
            break;
        }
        default:
            if (*s >= '0' && *s <= '7') {
                int v = 0, n = 0;
                while (n < 3 && *s >= '0' && *s <= '7') v = v * 8 + (*s++ - '0'), n++;
                if (v > 255) {
                    *bad = '0';
                    return false;
                }
                sb_putc(out, (char)v);
            } else {
                *bad = *s ? *s : '\\';
                return false;
            }
        }
    }
    return true;
}

static void run_file_directive(test_file *tf, int line, bool escaped, const char *path, int from,
                               int end) {
    if (!*path) {
        fail_header(tf, line, "file directive needs a path");
        return;
    }
    strbuf content = {0};
    sb_grow(&content, 0);
    content.data[0] = '\0';
    bool trailing_newline = true;
    int last = end;
    if (escaped && end > from && strcmp(tf->lines[end - 1], "\\c") == 0) {
        trailing_newline = false;
        last = end - 1;
    }
    for (int i = from; i < last; i++) {
        if (escaped) {
            char bad = 0;
            if (!decode_escapes(tf->lines[i], &content, &bad)) {
                fail_header(tf, i + 1, "bad escape '\\%c' in file-escaped content", bad);
                free(content.data);
                return;
            }
        } else {
            sb_puts(&content, tf->lines[i]);
        }
        if (i < last - 1 || trailing_newline) sb_putc(&content, '\n');
    }

    char dir[PATH_MAX];
    snprintf(dir, sizeof(dir), "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        if (!mkdir_p(dir)) {
            fail_header(tf, line, "cannot create folder %s: %s", dir, strerror(errno));
            free(content.data);
            return;
        }
    }
    FILE *f = fopen(path, "wb");
    bool written = f && fwrite(content.data, 1, content.len, f) == content.len;
    if (f && fclose(f) != 0) written = false;
    if (!written) fail_header(tf, line, "cannot write %s: %s", path, strerror(errno));
    free(content.data);
}

/* Replaces each "{i}" of s with i (malloc'd). */
static char *subst_index(const char *s, long i) {
    strbuf b = {0};
    sb_grow(&b, 0);
    b.data[0] = '\0';
    char num[24];
    snprintf(num, sizeof num, "%ld", i);
    for (const char *p = s; *p;) {
        if (strncmp(p, "{i}", 3) == 0) {
            sb_puts(&b, num);
            p += 3;
        } else {
            sb_putc(&b, *p++);
        }
    }
    return b.data;
}

/* "file-repeat N PATH": N files, PATH and each content line with {i}
 * replaced by 0..N-1 (generated tables with many partitions). */
static void run_file_repeat(test_file *tf, int line, const char *arg, int from, int end) {
    char *sp = NULL;
    long n = strtol(arg, &sp, 10);
    while (sp && *sp == ' ') sp++;
    if (n <= 0 || n > 1000000 || !sp || !*sp) {
        fail_header(tf, line, "file-repeat expects N PATH (N in 1..1000000), got '%s'", arg);
        return;
    }
    for (long i = 0; i < n; i++) {
        char *path = subst_index(sp, i);
        strbuf content = {0};
        sb_grow(&content, 0);
        content.data[0] = '\0';
        for (int l = from; l < end; l++) {
            char *text = subst_index(tf->lines[l], i);
            sb_puts(&content, text);
            sb_putc(&content, '\n');
            free(text);
        }
        char dir[PATH_MAX];
        snprintf(dir, sizeof(dir), "%s", path);
        char *slash = strrchr(dir, '/');
        if (slash && slash != dir) *slash = '\0';
        FILE *f = (slash && slash != dir && !mkdir_p(dir)) ? NULL : fopen(path, "wb");
        bool ok = f && fwrite(content.data, 1, content.len, f) == content.len;
        if (f && fclose(f) != 0) ok = false;
        if (!ok) fail_header(tf, line, "cannot write %s: %s", path, strerror(errno));
        free(content.data);
        free(path);
        if (!ok) return;
    }
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

/* "remove PATH": deletes a file or a whole folder (a partition vanishing
 * behind an index's back). Relative paths only: inside the temp folder. */
static void run_remove(test_file *tf, int line, const char *arg) {
    if (!*arg || arg[0] == '/' || strstr(arg, "..")) {
        fail_header(tf, line, "remove expects a relative path inside the test folder, got '%s'",
                    arg);
        return;
    }
    if (nftw(arg, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0)
        fail_header(tf, line, "cannot remove %s: %s", arg, strerror(errno));
}

/* "symlink TARGET LINK": a symbolic link LINK (parents created) pointing
 * at TARGET, written as given (relative targets resolve from LINK's folder). */
static void run_symlink(test_file *tf, int line, const char *arg) {
    const char *sp = strchr(arg, ' ');
    if (!sp || sp == arg || !sp[1]) {
        fail_header(tf, line, "symlink expects TARGET LINK, got '%s'", arg);
        return;
    }
    char target[PATH_MAX], link_path[PATH_MAX];
    snprintf(target, sizeof(target), "%.*s", (int)(sp - arg), arg);
    snprintf(link_path, sizeof(link_path), "%s", sp + 1);
    char dir[PATH_MAX];
    snprintf(dir, sizeof(dir), "%s", link_path);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        mkdir_p(dir);
    }
    if (symlink(target, link_path) != 0)
        fail_header(tf, line, "cannot create symbolic link '%s' -> '%s': %s", link_path, target,
                    strerror(errno));
}

/* "tuning threads=4 parallel_min_bytes=1 ...": sets the options of the
 * file's session for the records that follow. */
static void run_tuning(test_file *tf, int line, const char *arg) {
    sqe_options o = tf->tuning;
    const char *s = arg;
    if (!*s) {
        fail_header(tf, line,
                    "tuning needs KEY=VALUE pairs (threads, parallel_min_bytes, "
                    "text_split_bytes, memory_limit)");
        return;
    }
    while (*s) {
        char key[64];
        size_t n = 0;
        while (*s && *s != '=' && !isspace((unsigned char)*s) && n < sizeof(key) - 1)
            key[n++] = *s++;
        key[n] = '\0';
        if (*s != '=') {
            fail_header(tf, line, "tuning: expected KEY=VALUE, got '%s'", key);
            return;
        }
        s++;
        char *end;
        errno = 0;
        unsigned long long v = strtoull(s, &end, 10);
        if (end == s || errno || (*end && !isspace((unsigned char)*end)) || *s == '-') {
            fail_header(tf, line, "tuning: %s needs a whole number", key);
            return;
        }
        if (!strcmp(key, "threads") && v <= 4096)
            o.threads = (int)v;
        else if (!strcmp(key, "parallel_min_bytes"))
            o.parallel_min_bytes = v;
        else if (!strcmp(key, "text_split_bytes"))
            o.text_split_bytes = v;
        else if (!strcmp(key, "memory_limit"))
            o.memory_limit = (size_t)v;
        else {
            fail_header(tf, line,
                        "tuning: unknown key or value '%s' (threads <= 4096, "
                        "parallel_min_bytes, text_split_bytes, memory_limit)",
                        key);
            return;
        }
        s = end;
        while (isspace((unsigned char)*s)) s++;
    }
    tf->tuning = o;
    sqe_session_set_tuning(tf->session, &tf->tuning);
}

/* Runs the records of one file. */
static void run_records(test_file *tf) {
    int i = 0;
    while (i < tf->n_lines) {
        const char *header = tf->lines[i];
        if (is_blank_line(header) || header[0] == '#') {
            i++;
            continue;
        }
        int line = i + 1;
        int end = block_end(tf, i + 1);
        tf->st->line = line;
        if (tf->opts->verbose) fprintf(tf->log, "  %s:%d: %s\n", tf->path, line, header);

        /* header words: directive, then the rest */
        char word[32] = "";
        const char *rest = header;
        size_t n = 0;
        while (*rest && !isspace((unsigned char)*rest) && n < sizeof(word) - 1) word[n++] = *rest++;
        word[n] = '\0';
        while (isspace((unsigned char)*rest)) rest++;
        char *arg = xstrdup(rest);
        size_t alen = strlen(arg);
        while (alen > 0 && isspace((unsigned char)arg[alen - 1])) arg[--alen] = '\0';

        if (strcmp(word, "statement") == 0) {
            if (strcmp(arg, "ok") == 0) {
                run_statement(tf, line, false, NULL, i + 1, end);
            } else if (strncmp(arg, "error", 5) == 0 &&
                       (arg[5] == '\0' || isspace((unsigned char)arg[5]))) {
                const char *text = arg + 5;
                while (isspace((unsigned char)*text)) text++;
                run_statement(tf, line, true, text, i + 1, end);
            } else {
                tf->st->records++;
                fail_header(tf, line, "expected 'statement ok' or 'statement error', got '%s'",
                            header);
            }
        } else if (strcmp(word, "query") == 0) {
            char types[64] = "", sort[32] = "nosort", extra[32] = "";
            int got = sscanf(arg, "%63s %31s %31s", types, sort, extra);
            if (got < 1) {
                tf->st->records++;
                fail_header(tf, line, "query needs column types, e.g. 'query IT'");
            } else if (got > 2) {
                tf->st->records++;
                fail_header(tf, line, "unexpected '%s' after the sort mode", extra);
            } else {
                run_query(tf, line, types, sort, i + 1, end);
            }
        } else if (strcmp(word, "file") == 0 || strcmp(word, "file-escaped") == 0) {
            run_file_directive(tf, line, strcmp(word, "file-escaped") == 0, arg, i + 1, end);
        } else if (strcmp(word, "mkdir") == 0) {
            if (!*arg || !mkdir_p(arg))
                fail_header(tf, line, "cannot create folder '%s': %s", arg,
                            *arg ? strerror(errno) : "no path given");
        } else if (strcmp(word, "mkfifo") == 0) {
            char dir[PATH_MAX];
            snprintf(dir, sizeof(dir), "%s", arg);
            char *slash = strrchr(dir, '/');
            if (slash && slash != dir) {
                *slash = '\0';
                mkdir_p(dir);
            }
            if (!*arg || mkfifo(arg, 0666) != 0)
                fail_header(tf, line, "cannot create FIFO '%s': %s", arg,
                            *arg ? strerror(errno) : "no path given");
        } else if (strcmp(word, "symlink") == 0) {
            run_symlink(tf, line, arg);
        } else if (strcmp(word, "file-repeat") == 0) {
            run_file_repeat(tf, line, arg, i + 1, end);
        } else if (strcmp(word, "remove") == 0) {
            run_remove(tf, line, arg);
        } else if (strcmp(word, "hive-root") == 0) {
            /* the fixture's warehouse folder: attaching a missing one is an
             * error, so create it (local URLs only) */
            const char *eq = strchr(arg, '=');
            const char *url = eq ? eq + 1 : "";
            if (strncmp(url, "file://", 7) == 0) url += 7;
            if (*url && !strstr(url, "://")) mkdir_p(url);
            char *err = sqe_session_attach_root(tf->session, arg);
            if (err) {
                fail_header(tf, line, "hive-root %s failed: %s", arg, err);
                free(err);
            }
        } else if (strcmp(word, "tuning") == 0) {
            run_tuning(tf, line, arg);
        } else if (strcmp(word, "halt") == 0) {
            free(arg);
            return;
        } else {
            fail_header(tf, line, "unknown directive '%s'", word);
        }
        free(arg);
        i = end;
    }
}

/* Runs one .test file: temp folder, session, records, clean-up. Reports to
 * log; counts into *st. */
static void run_file(const char *path, const run_opts *opts, FILE *log, file_stats *st) {
    test_file tf = {.path = path, .log = log, .st = st, .opts = opts};
    char tmpl[PATH_MAX], tmpdir[PATH_MAX];
    const char *base = getenv("TMPDIR");
    if (!base || !*base) base = "/tmp";
    snprintf(tmpl, sizeof(tmpl), "%s/sqe-slt-XXXXXX", base);
    int saved_cwd = open(".", O_RDONLY | O_DIRECTORY);

    if (!read_whole_file(path, &tf.text)) {
        fail_header(&tf, 0, "cannot read: %s", strerror(errno));
        goto out;
    }
    if (!mkdtemp(tmpl) || !realpath(tmpl, tmpdir)) {
        fail_header(&tf, 0, "cannot create a temp folder under %s: %s", base, strerror(errno));
        goto out;
    }
    if (strlen(tmpdir) < sizeof(st->tmpdir)) memcpy(st->tmpdir, tmpdir, strlen(tmpdir) + 1);
    sb_replace_all(&tf.text, "__TEST_DIR__", tmpdir);
    sb_replace_all(&tf.text, "__REPO__", opts->repo);
    char shared[PATH_MAX];
    find_shared(opts->repo, shared);
    struct stat shared_st;
    if (strstr(tf.text.data ? tf.text.data : "", "__SHARED__") && stat(shared, &shared_st) != 0 &&
        !getenv("SQE_REQUIRE_SHARED")) {
        /* a clone without the shared data folder next to it: say so loudly */
        fprintf(stderr,
                "WARNING: %s: skipped, the shared data folder %s is missing (set "
                "SQE_SHARED_DIR; SQE_REQUIRE_SHARED=1 makes this a failure)\n",
                path, shared);
        goto out;
    }
    sb_replace_all(&tf.text, "__SHARED__", shared);
    split_lines(&tf);
    if (chdir(tmpdir) != 0) {
        fail_header(&tf, 0, "cannot enter %s: %s", tmpdir, strerror(errno));
    } else {
        tf.session = sqe_session_open(NULL);
        run_records(&tf);
        sqe_session_close(tf.session);
    }
    if (saved_cwd >= 0 && fchdir(saved_cwd) != 0) {
        /* only matters in --no-fork mode; later relative paths would break */
        fprintf(log, "sqe-slt: cannot return to the working folder: %s\n", strerror(errno));
    }
    if (opts->keep)
        fprintf(log, "  kept %s for %s\n", tmpdir, path);
    else
        rm_rf(tmpdir);
    st->tmpdir[0] = '\0';
out:
    if (saved_cwd >= 0) close(saved_cwd);
    free(tf.text.data);
    free(tf.lines);
    st->finished = true;
}

/* -------------------------------------------------------- collecting files */

static void collect_dir(const char *dir, string_list *out) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        char *p = xrealloc(NULL, len);
        snprintf(p, len, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", e->d_name);
        struct stat st;
        if (stat(p, &st) != 0) {
            free(p);
            continue;
        }
        size_t plen = strlen(p);
        if (S_ISDIR(st.st_mode)) {
            collect_dir(p, out);
            free(p);
        } else if (S_ISREG(st.st_mode) && plen > 5 && strcmp(p + plen - 5, ".test") == 0) {
            sl_push(out, p);
        } else {
            free(p);
        }
    }
    closedir(d);
}

/* ------------------------------------------------------------------ main */

static void usage(FILE *to) {
    fputs("Usage: sqe-slt [--verbose] [--filter SUBSTR] [--keep] [-j N] [--batch N]\n"
          "               [--no-fork] [--timeout SECS] PATH...\n"
          "Runs sqllogictest files (*.test; folders are searched recursively).\n",
          to);
}

/* ------------------------------------------------------ child processes */

/* A child process runs a batch of consecutive files, [first, end). Each file
 * reports into its own temp file and its own slot of shared memory, so the
 * parent can print reports in file order and, when a child dies, knows
 * which file it was in (started && !finished) and which files never ran
 * (they go to a new child). */
typedef struct batch {
    int first, end;
    pid_t pid;
} batch;

typedef struct file_slot {
    FILE *out;       /* the file's report, written by the child */
    bool done;       /* ready to be reported */
    int exit_status; /* wait status of an abnormal end charged to this file, else 0 */
    bool after_last; /* ... which came after the file's last record (leak report) */
} file_slot;

typedef struct scheduler {
    const run_opts *opts;
    string_list *files;
    file_stats *shared; /* n files, MAP_SHARED */
    file_slot *slots;
    batch *batches; /* pending and running; a batch is never longer than its range */
    int n_batches, cap_batches;
    int next_batch; /* first batch not started */
    int running;
} scheduler;

static void push_batch(scheduler *sc, int first, int end) {
    if (sc->n_batches == sc->cap_batches) {
        sc->cap_batches = sc->cap_batches ? sc->cap_batches * 2 : 64;
        sc->batches = xrealloc(sc->batches, (size_t)sc->cap_batches * sizeof(batch));
    }
    sc->batches[sc->n_batches++] = (batch){first, end, 0};
}

static bool start_batch(scheduler *sc, batch *bt) {
    for (int i = bt->first; i < bt->end; i++) {
        if (!sc->slots[i].out) sc->slots[i].out = tmpfile();
        memset(&sc->shared[i], 0, sizeof(file_stats));
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "sqe-slt: fork: %s\n", strerror(errno));
        return false;
    }
    if (pid == 0) {
        for (int i = bt->first; i < bt->end; i++) {
            FILE *log = sc->slots[i].out ? sc->slots[i].out : stdout;
            setvbuf(log, NULL, _IOLBF, 0); /* keep what was said before a crash */
            sc->shared[i].started = true;
            alarm((unsigned)sc->opts->timeout_secs);
            run_file(sc->files->items[i], sc->opts, log, &sc->shared[i]);
            fflush(log);
        }
        alarm(0);
        exit(0); /* not _exit: sanitizers report leaks at exit */
    }
    bt->pid = pid;
    sc->running++;
    return true;
}

/* Books the end of a child: its files are done, except those it never
 * started, which go to a new batch. */
static void finish_batch(scheduler *sc, batch *bt, int status) {
    bool abnormal = !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    sc->running--;
    for (int i = bt->first; i < bt->end; i++) {
        file_stats *st = &sc->shared[i];
        if (!st->started) {
            push_batch(sc, i, bt->end);
            return;
        }
        sc->slots[i].done = true;
        if (st->tmpdir[0] && !sc->opts->keep) rm_rf(st->tmpdir); /* the child died in it */
        if (abnormal && !st->finished) {
            sc->slots[i].exit_status = status;
        } else if (abnormal && i == bt->end - 1) {
            sc->slots[i].exit_status = status;
            sc->slots[i].after_last = true;
        }
    }
}

/* Prints one file's report and adds its counts to *total. */
static void report_file(scheduler *sc, int i, file_stats *total) {
    const char *path = sc->files->items[i];
    file_slot *slot = &sc->slots[i];
    file_stats *st = &sc->shared[i];
    int status = slot->exit_status;
    if (slot->out) {
        char chunk[8192];
        size_t n;
        rewind(slot->out);
        while ((n = fread(chunk, 1, sizeof(chunk), slot->out)) > 0) fwrite(chunk, 1, n, stdout);
        fclose(slot->out);
        slot->out = NULL;
    }
    if (status != 0 && slot->after_last) {
        st->failures++;
        printf("FAIL %s: its test process exited with %s %d after the last record (a leak or "
               "sanitizer report above?)\n",
               path, WIFSIGNALED(status) ? "signal" : "status",
               WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    } else if (status != 0 && WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
        st->failures++;
        printf("FAIL %s:%d: timed out after %d s in this record\n", path, st->line,
               sc->opts->timeout_secs);
    } else if (status != 0 && WIFSIGNALED(status)) {
        st->failures++;
        printf("FAIL %s:%d: crashed with signal %d (%s) in this record\n", path, st->line,
               WTERMSIG(status), strsignal(WTERMSIG(status)));
    } else if (status != 0) {
        st->failures++;
        printf("FAIL %s:%d: the test process exited with status %d in this record (a sanitizer "
               "report above?)\n",
               path, st->line, WEXITSTATUS(status));
    }
    if (sc->opts->verbose) printf("%s: %d records, %d failures\n", path, st->records, st->failures);
    total->records += st->records;
    total->failures += st->failures;
    total->warnings += st->warnings;
    fflush(stdout);
}

/* Runs every file in child processes, opts->jobs at a time. Returns false
 * if processes could not be created. */
static bool run_forked(const run_opts *opts, string_list *files, file_stats *total) {
    int n = files->n;
    bool ok = true;
    scheduler sc = {.opts = opts, .files = files};
    sc.shared = mmap(NULL, (size_t)n * sizeof(file_stats), PROT_READ | PROT_WRITE,
                     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    sc.slots = calloc((size_t)n, sizeof(file_slot));
    if (sc.shared == MAP_FAILED || !sc.slots) {
        fprintf(stderr, "sqe-slt: out of memory\n");
        if (sc.shared != MAP_FAILED) munmap(sc.shared, (size_t)n * sizeof(file_stats));
        free(sc.slots);
        return false;
    }
    /* Batches of a few files amortize process start-up (and, under
     * sanitizers, the exit-time leak scan) while keeping every worker busy. */
    int per = opts->batch > 0 ? opts->batch : n / (opts->jobs * 4);
    if (per < 1) per = 1;
    if (opts->batch <= 0 && per > 16) per = 16;
    for (int i = 0; i < n; i += per) push_batch(&sc, i, i + per < n ? i + per : n);

    int next_report = 0;
    while (next_report < n) {
        while (ok && sc.running < opts->jobs && sc.next_batch < sc.n_batches)
            ok = start_batch(&sc, &sc.batches[sc.next_batch++]);
        if (sc.running == 0) break; /* fork failed */
        int status;
        pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0) {
            if (errno == EINTR) continue;
            fprintf(stderr, "sqe-slt: waitpid: %s\n", strerror(errno));
            ok = false;
            break;
        }
        for (int k = 0; k < sc.next_batch; k++) {
            if (sc.batches[k].pid == pid) {
                sc.batches[k].pid = 0;
                finish_batch(&sc, &sc.batches[k], status);
                break;
            }
        }
        while (next_report < n && sc.slots[next_report].done)
            report_file(&sc, next_report++, total);
    }
    for (int i = 0; i < n; i++)
        if (sc.slots[i].out) fclose(sc.slots[i].out);
    munmap(sc.shared, (size_t)n * sizeof(file_stats));
    free(sc.slots);
    free(sc.batches);
    return ok;
}

int main(int argc, char **argv) {
    run_opts opts = {.fork = true, .jobs = 0, .timeout_secs = 300};
    string_list paths = {0};
    string_list files = {0};
    int rc = 2;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--verbose") || !strcmp(a, "-v")) {
            opts.verbose = true;
        } else if (!strcmp(a, "--keep")) {
            opts.keep = true;
        } else if (!strcmp(a, "--no-fork")) {
            opts.fork = false;
        } else if ((!strcmp(a, "--filter") || !strcmp(a, "-j") || !strcmp(a, "--timeout") ||
                    !strcmp(a, "--batch")) &&
                   i + 1 < argc) {
            const char *v = argv[++i];
            if (!strcmp(a, "--filter")) {
                opts.filter = v;
            } else {
                char *endp;
                long n = strtol(v, &endp, 10);
                if (*endp || n < 1 || n > 100000) {
                    fprintf(stderr, "sqe-slt: %s expects a positive number, got '%s'\n", a, v);
                    goto out;
                }
                if (!strcmp(a, "-j"))
                    opts.jobs = (int)n;
                else if (!strcmp(a, "--batch"))
                    opts.batch = (int)n;
                else
                    opts.timeout_secs = (int)n;
            }
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            rc = 0;
            goto out;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "sqe-slt: unknown flag or missing value: %s\n", a);
            usage(stderr);
            goto out;
        } else {
            sl_push(&paths, xstrdup(a));
        }
    }
    if (paths.n == 0) {
        usage(stderr);
        goto out;
    }

    for (int i = 0; i < paths.n; i++) {
        struct stat st;
        if (stat(paths.items[i], &st) != 0) {
            fprintf(stderr, "sqe-slt: %s: %s\n", paths.items[i], strerror(errno));
            goto out;
        }
        if (S_ISDIR(st.st_mode)) {
            string_list found = {0};
            collect_dir(paths.items[i], &found);
            sort_strings(found.items, found.n);
            for (int k = 0; k < found.n; k++) sl_push(&files, found.items[k]);
            free(found.items);
        } else {
            sl_push(&files, xstrdup(paths.items[i]));
        }
    }
    if (opts.filter) {
        int kept = 0;
        for (int i = 0; i < files.n; i++) {
            if (strstr(files.items[i], opts.filter))
                files.items[kept++] = files.items[i];
            else
                free(files.items[i]);
        }
        files.n = kept;
    }
    if (!find_repo_from(paths.items[0], opts.repo) && !find_repo_from(".", opts.repo) &&
        !getcwd(opts.repo, sizeof(opts.repo))) {
        fprintf(stderr, "sqe-slt: cannot determine the repository root\n");
        goto out;
    }
    if (opts.jobs <= 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        opts.jobs = cpus < 1 ? 1 : cpus > 8 ? 8 : (int)cpus;
    }

    file_stats total = {0};
    int n_files = files.n;
    if (!opts.fork) {
        for (int i = 0; i < n_files; i++) {
            file_stats st = {0};
            run_file(files.items[i], &opts, stdout, &st);
            if (opts.verbose)
                printf("%s: %d records, %d failures\n", files.items[i], st.records, st.failures);
            total.records += st.records;
            total.failures += st.failures;
            total.warnings += st.warnings;
            fflush(stdout);
        }
    } else if (n_files > 0 && !run_forked(&opts, &files, &total)) {
        goto out;
    }

    printf("%d files, %d records, %d failures\n", n_files, total.records, total.failures);
    if (total.warnings > 0)
        printf("warning: %d 'statement error' record%s no expected message; add the text the "
               "error must contain\n",
               total.warnings, total.warnings == 1 ? " has" : "s have");
    if (n_files == 0) printf("warning: no .test files found\n");
    rc = total.failures > 0 ? 1 : 0;
out:
    sl_free(&paths);
    sl_free(&files);
    return rc;
}
