/*
 * run.c - runs statements for sqe-cli, reports their outcome, and turns
 * Ctrl-C into a cancel of the running statement.
 *
 * Both the non-interactive paths (-c, -f, a piped stdin) and the shell come
 * through here, so a statement prints the same way wherever it came from:
 *
 *   sqe_cli_run_script(cli, text, len, where)
 *     sqe_split_statements_n(text, len, on_statement)   engine's splitter
 *       sqe_cli_run_statement(cli, sql, len, where, line)
 *         sqe_session_query_n                       a cursor; the query runs in the background
 *         notices  -> stderr "Notice: <line>"
 *         status   -> stdout status word, table format only
 *         rows     -> stdout through output.c, streamed as they arrive
 *         failure  -> stderr "Error: <message>" (+ class/SQLSTATE with SQE_LOG=debug)
 *         --timing -> stderr "Time: N.NNN ms" (start to last row printed)
 *
 * Scripts and statements travel as (bytes, length) from the file read to
 * the engine: a NUL byte in a script is reported as a syntax error naming
 * its line:column (sqe_session_query_n), never taken as the end of input.
 *
 * A script stops at its first failing statement. stdout is flushed before
 * an error line so that output and error lines appear in order.
 *
 * Ctrl-C. One SIGINT handler (sqe_cli_signals_install) for the whole
 * program. While a statement runs it calls sqe_cursor_cancel on the
 * statement's cursor (one atomic store, async-signal-safe): the engine stops
 * within a batch and the statement fails with "Error: query was cancelled";
 * a script then stops (exit 1), the shell goes on. A second Ctrl-C before
 * the statement has ended exits at once with status 130. A Ctrl-C during
 * parsing and planning, before the cursor exists, is remembered and cancels
 * it as soon as it does. With no statement running, the shell abandons the
 * line being typed; any other input exits with 130. The engine's threads
 * block signals, so the handler always runs on the main thread, the one
 * that closes cursors; that is what makes reading running_cursor safe.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"

static volatile sig_atomic_t in_statement;   /* a statement runs */
static volatile sig_atomic_t interrupts;     /* Ctrl-C presses during it */
static volatile sig_atomic_t idle_interrupt; /* Ctrl-C with no statement running */
static volatile sig_atomic_t shell_mode;
static sqe_cursor *volatile running_cursor;

static void on_sigint(int signo) {
    (void)signo;
    if (!in_statement) {
        if (shell_mode) {
            idle_interrupt = 1;
            return;
        }
        _exit(130);
    }
    if (interrupts > 0) {
        static const char msg[] = "\nInterrupted again while cancelling; exiting.\n";
        ssize_t n = write(STDERR_FILENO, msg, sizeof(msg) - 1);
        (void)n;
        _exit(130);
    }
    interrupts = 1;
    sqe_cursor *c = running_cursor;
    if (c) sqe_cursor_cancel(c);
}

static void install(bool restart) {
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = restart ? SA_RESTART : 0;
    sigaction(SIGINT, &sa, NULL);
}

void sqe_cli_signals_install(bool shell) {
    struct sigaction old;
    /* SIGINT ignored on entry (a background job of a shell without job
     * control, nohup): stay out of the way, as other tools do. */
    if (sigaction(SIGINT, NULL, &old) == 0 && old.sa_handler == SIG_IGN) return;
    shell_mode = shell;
    install(true);
}

void sqe_cli_signals_prompt(bool at_prompt) {
    struct sigaction old;
    if (sigaction(SIGINT, NULL, &old) != 0 || old.sa_handler != on_sigint) return;
    install(!at_prompt);
}

bool sqe_cli_interrupted(void) {
    bool was = idle_interrupt != 0;
    idle_interrupt = 0;
    return was;
}

/* True if sql[0, len) holds only whitespace, comments and byte order marks
 * (nothing to run). A NUL byte is something to run: the engine names it. */
static bool sql_is_blank(const char *sql, size_t len) {
    const char *s = sql, *e = sql + len;
    for (;;) {
        while (s < e &&
               (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\f' || *s == '\v'))
            s++;
        if (e - s >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) {
            s += 3;
        } else if (e - s >= 2 && s[0] == '-' && s[1] == '-') {
            const char *nl = memchr(s, '\n', (size_t)(e - s));
            const char *end = nl ? nl : e;
            if (memchr(s, '\0', (size_t)(end - s))) return false;
            s = end;
        } else if (e - s >= 2 && s[0] == '/' && s[1] == '*') {
            const char *p = s + 2;
            while (p + 1 < e && !(p[0] == '*' && p[1] == '/')) {
                if (*p == '\0') return false;
                p++;
            }
            if (p + 1 >= e) return false; /* let the engine report the open comment */
            s = p + 2;
        } else {
            return s == e;
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

bool sqe_cli_run_statement(sqe_cli *cli, const char *sql, size_t len, const char *where, int line) {
    if (sql_is_blank(sql, len)) return true;

    double start = now_ms();
    interrupts = 0;
    in_statement = 1;
    /* by length: a NUL byte inside is reported by the engine, never an end */
    sqe_cursor *c = sqe_session_query_n(cli->session, sql, len);
    running_cursor = c;
    if (interrupts) sqe_cursor_cancel(c); /* Ctrl-C while it was being planned */

    bool ok = sqe_cursor_ok(c);
    print_notices(sqe_cursor_notices(c));
    if (ok) {
        const char *status = sqe_cursor_status(c);
        if (status) {
            if (cli->format == SQE_CLI_FORMAT_TABLE) {
                if (cli->printed_result) fputc('\n', cli->out);
                cli->printed_result = true;
                fprintf(cli->out, "%s\n", status);
            }
        } else {
            ok = sqe_cli_print_rows(cli, c);
        }
    }
    fflush(cli->out);
    double elapsed = now_ms() - start;
    if (!ok) {
        const char *msg = sqe_cursor_error(c);
        fprintf(stderr, "Error: %s\n", msg && *msg ? msg : "statement failed");
        if (cli->debug) {
            const char *cls = sqe_cursor_error_class(c);
            const char *state = sqe_cursor_sqlstate(c);
            fprintf(stderr, "  class: %s, SQLSTATE: %s, statement at %s:%d\n", cls ? cls : "?",
                    state ? state : "?", where, line);
        }
    } else if (interrupts) {
        /* Ctrl-C came too late to cancel anything: the statement is done,
         * but the user asked to stop. */
        fputs("Interrupted.\n", stderr);
        ok = false;
    }
    if (cli->timing) fprintf(stderr, "Time: %.3f ms\n", elapsed);
    running_cursor = NULL;
    sqe_cursor_close(c);
    in_statement = 0;
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

bool sqe_cli_run_script(sqe_cli *cli, const char *script, size_t len, const char *where) {
    script_ctx sc = {cli, where, false};
    /* The return value only says whether the split ran to the end; a
     * failure we care about is recorded by on_statement. By length: a NUL
     * byte in the script is one more byte, never its end. */
    (void)sqe_split_statements_n(script, len, on_statement, &sc);
    return !sc.failed;
}

char *sqe_cli_read_file(const char *path, size_t *len_out) {
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
        *len_out = len;
    }
    if (!is_stdin) fclose(f);
    return buf;
}
