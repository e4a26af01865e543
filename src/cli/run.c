/*
 * run.c - runs statements for sqe-cli and reports their outcome.
 *
 * Both the non-interactive paths (-c, -f, a piped stdin) and the shell come
 * through here, so a statement prints the same way wherever it came from:
 *
 *   sqe_cli_run_script(cli, text, where)
 *     sqe_split_statements(text, on_statement)      engine's splitter
 *       sqe_cli_run_statement(cli, sql, len, where, line)
 *         sqe_session_execute                       one statement
 *         notices  -> stderr "Notice: <line>"
 *         failure  -> stderr "Error: <message>" (+ class/SQLSTATE with SQE_LOG=debug)
 *         status   -> stdout status word, table format only
 *         rows     -> stdout through output.c
 *         --timing -> stderr "Time: N.NNN ms"
 *
 * A script stops at its first failing statement. stdout is flushed after
 * each statement so that output and error lines appear in order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"

/* True if sql holds only whitespace and comments (nothing to run). */
static bool sql_is_blank(const char *sql) {
    const char *s = sql;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\f' || *s == '\v') s++;
        if (s[0] == '-' && s[1] == '-') {
            while (*s && *s != '\n') s++;
        } else if (s[0] == '/' && s[1] == '*') {
            const char *end = strstr(s + 2, "*/");
            if (!end) return false; /* let the engine report the open comment */
            s = end + 2;
        } else {
            return *s == '\0';
        }
    }
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static void print_notices(const char *notices) {
    const char *s = notices;
    while (s && *s) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        if (len > 0) fprintf(stderr, "Notice: %.*s\n", (int)len, s);
        s = nl ? nl + 1 : s + len;
    }
}

/* Blank line between two printed results in the human formats. */
static void separate(sqe_cli *cli) {
    if (cli->printed_result &&
        (cli->format == SQE_CLI_FORMAT_TABLE || cli->format == SQE_CLI_FORMAT_MARKDOWN))
        fputc('\n', cli->out);
    cli->printed_result = true;
}

bool sqe_cli_run_statement(sqe_cli *cli, const char *sql, size_t len, const char *where, int line) {
    char *text = malloc(len + 1);
    if (!text) {
        fprintf(stderr, "Error: out of memory\n");
        return false;
    }
    memcpy(text, sql, len);
    text[len] = '\0';
    if (sql_is_blank(text)) {
        free(text);
        return true;
    }

    double start = now_ms();
    sqe_result *r = sqe_session_execute(cli->session, text);
    double elapsed = now_ms() - start;
    bool ok = sqe_result_ok(r);

    print_notices(sqe_result_notices(r));
    if (!ok) {
        const char *msg = sqe_result_error(r);
        fflush(cli->out);
        fprintf(stderr, "Error: %s\n", msg && *msg ? msg : "statement failed");
        if (cli->debug) {
            const char *cls = sqe_result_error_class(r);
            const char *state = sqe_result_sqlstate(r);
            fprintf(stderr, "  class: %s, SQLSTATE: %s, statement at %s:%d\n", cls ? cls : "?",
                    state ? state : "?", where, line);
        }
    } else {
        const char *status = sqe_result_status(r);
        if (status) {
            if (cli->format == SQE_CLI_FORMAT_TABLE) {
                separate(cli);
                fprintf(cli->out, "%s\n", status);
            }
        } else {
            separate(cli);
            sqe_cli_print_rows(cli->out, r, cli->format);
        }
    }
    fflush(cli->out);
    if (cli->timing) fprintf(stderr, "Time: %.3f ms\n", elapsed);
    sqe_result_free(r);
    free(text);
    return ok;
}

typedef struct script_ctx {
    sqe_cli *cli;
    const char *where;
    bool failed;
} script_ctx;

static bool on_statement(const char *sql, size_t len, int line, void *ctx) {
    script_ctx *sc = ctx;
    if (!sqe_cli_run_statement(sc->cli, sql, len, sc->where, line)) {
        sc->failed = true;
        return false;
    }
    return true;
}

bool sqe_cli_run_script(sqe_cli *cli, const char *script, const char *where) {
    script_ctx sc = {cli, where, false};
    /* The return value only says whether the split ran to the end; a
     * failure we care about is recorded by on_statement. */
    (void)sqe_split_statements(script, on_statement, &sc);
    return !sc.failed;
}

char *sqe_cli_read_file(const char *path) {
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "sqe-cli: cannot open %s: %s\n", path, strerror(errno));
        return NULL;
    }
    size_t len = 0, cap = 65536;
    char *buf = malloc(cap);
    while (buf) {
        if (len + 1 >= cap) {
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
        size_t n = fread(buf + len, 1, cap - 1 - len, f);
        len += n;
        if (n == 0) break;
    }
    if (!buf) {
        fprintf(stderr, "sqe-cli: out of memory reading %s\n", is_stdin ? "standard input" : path);
    } else if (ferror(f)) {
        fprintf(stderr, "sqe-cli: cannot read %s: %s\n", is_stdin ? "standard input" : path,
                strerror(errno));
        free(buf);
        buf = NULL;
    } else {
        buf[len] = '\0';
    }
    if (!is_stdin) fclose(f);
    return buf;
}
