/*
 * repl.c - sqe-cli's interactive shell, used when stdin is a terminal and
 * no -c/-f was given.
 *
 * Line editing and history come from libedit's readline-compatible API.
 * Lines accumulate in a buffer until the engine says the text ends a
 * complete statement (sqe_statement_complete: a ';' outside strings and
 * comments); the buffer then runs as a script, so "SELECT 1; SELECT 2;" on
 * one line runs both. The prompt is "sqe> " for a new statement and
 * "  -> " for a continuation line.
 *
 * A line starting with '\' or '.' at the start of a statement is a meta
 * command: \q \quit .quit .exit, \timing [on|off], \format [FMT] or
 * .mode [FMT], \help \? .help.
 *
 * History: one entry per statement, in $SQE_HISTORY (empty: no history) or
 * ~/.sqe_history, kept to 1000 entries, written (mode 0600) after every
 * entry so nothing is lost if the process is killed. An entry that holds
 * CREATE ... SECRET (whose text carries keys) is never recorded, in memory
 * or in the file (sqe_cli_holds_secret).
 *
 * Signals (run.c's handler): Ctrl-C at the prompt abandons the statement
 * being typed; while a statement runs it cancels it ("Error: query was
 * cancelled") and the shell goes on; a second Ctrl-C while cancelling ends
 * the process with status 130. Errors never end the shell.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <editline/readline.h>

#include "cli/cli.h"

#define HISTORY_MAX 1000

static const char help_text[] =
    "Statements end with ';' and may span several lines.\n"
    "Meta commands (at the start of a statement):\n"
    "  \\q, \\quit, .quit, .exit    leave the shell (Ctrl-D too)\n"
    "  \\timing [on|off]           toggle printing each statement's elapsed time\n"
    "  \\format [FMT], .mode [FMT] show or set the output format: table, csv, tsv,\n"
    "                             json, jsonl, markdown\n"
    "  \\help, \\?, .help           this text\n"
    "Ctrl-C abandons the statement being typed, or cancels the one running.\n";

typedef struct text_buf {
    char *data;
    size_t len, cap;
} text_buf;

static bool buf_append(text_buf *b, const char *s, size_t n) {
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1) cap *= 2;
        char *data = realloc(b->data, cap);
        if (!data) return false;
        b->data = data;
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
    return true;
}

static void buf_reset(text_buf *b) {
    b->len = 0;
    if (b->data) b->data[0] = '\0';
}

static bool is_blank(const char *s) {
    while (*s && isspace((unsigned char)*s)) s++;
    return *s == '\0';
}

/* Returns the history path (malloc'd) or NULL when history is off. */
static char *history_path(void) {
    const char *env = getenv("SQE_HISTORY");
    if (env) return *env ? strdup(env) : NULL;
    const char *home = getenv("HOME");
    if (!home || !*home) return NULL;
    size_t len = strlen(home) + sizeof("/.sqe_history");
    char *path = malloc(len);
    if (path) snprintf(path, len, "%s/.sqe_history", home);
    return path;
}

bool sqe_cli_holds_secret(const char *text) {
    bool seen_create = false;
    for (const char *p = text; *p;) {
        if (!isalpha((unsigned char)*p) && *p != '_') {
            p++;
            continue;
        }
        const char *w = p;
        while (isalnum((unsigned char)*p) || *p == '_') p++;
        size_t n = (size_t)(p - w);
        if (n == 6 && strncasecmp(w, "create", 6) == 0) seen_create = true;
        if (n == 6 && strncasecmp(w, "secret", 6) == 0 && seen_create) return true;
    }
    return false;
}

static void remember(const char *entry, const char *path) {
    if (sqe_cli_holds_secret(entry)) return;
    /* One history line per statement: newlines become spaces unless a
     * "--" comment would then swallow the rest of the statement. */
    char *flat = strdup(entry);
    if (!flat) return;
    size_t len = strlen(flat);
    while (len > 0 && isspace((unsigned char)flat[len - 1])) flat[--len] = '\0';
    if (!strstr(flat, "--"))
        for (char *p = flat; *p; p++)
            if (*p == '\n' || *p == '\r') *p = ' ';
    if (*flat) add_history(flat);
    free(flat);
    if (path && write_history(path) == 0) chmod(path, 0600);
}

/* Handles a meta command line. Returns false when the shell should end. */
static bool run_meta(sqe_cli *cli, const char *line) {
    char cmd[32] = "", arg[64] = "";
    const char *s = line;
    while (isspace((unsigned char)*s)) s++;
    size_t n = 0;
    while (*s && !isspace((unsigned char)*s) && *s != ';' && n < sizeof(cmd) - 1) cmd[n++] = *s++;
    cmd[n] = '\0';
    while (isspace((unsigned char)*s)) s++;
    n = 0;
    while (*s && !isspace((unsigned char)*s) && *s != ';' && n < sizeof(arg) - 1) arg[n++] = *s++;
    arg[n] = '\0';

    if (!strcmp(cmd, "\\q") || !strcmp(cmd, "\\quit") || !strcmp(cmd, ".quit") ||
        !strcmp(cmd, ".exit")) {
        return false;
    } else if (!strcmp(cmd, "\\timing")) {
        if (!strcmp(arg, "on"))
            cli->timing = true;
        else if (!strcmp(arg, "off"))
            cli->timing = false;
        else if (!*arg)
            cli->timing = !cli->timing;
        else {
            fprintf(stderr, "\\timing expects on or off, got '%s'\n", arg);
            return true;
        }
        printf("Timing is %s.\n", cli->timing ? "on" : "off");
    } else if (!strcmp(cmd, "\\format") || !strcmp(cmd, ".mode")) {
        if (*arg && !sqe_cli_format_parse(arg, &cli->format)) {
            fprintf(stderr, "Unknown format '%s' (use table, csv, tsv, json, jsonl or markdown)\n",
                    arg);
            return true;
        }
        printf("Output format is %s.\n", sqe_cli_format_name(cli->format));
    } else if (!strcmp(cmd, "\\help") || !strcmp(cmd, "\\?") || !strcmp(cmd, ".help")) {
        fputs(help_text, stdout);
    } else {
        fprintf(stderr, "Unknown command: %s (type \\help for help)\n", cmd);
    }
    cli->printed_result = false;
    fflush(stdout);
    return true;
}

int sqe_cli_repl(sqe_cli *cli) {
    char *hist = history_path();
    text_buf buf = {0};

    rl_readline_name = "sqe";
    using_history();
    stifle_history(HISTORY_MAX);
    if (hist) read_history(hist);

    printf("sqe-cli %s (embedded). Statements end with ';'. Type \\help for help, \\q to quit.\n",
           sqe_version());
    fflush(stdout);

    for (;;) {
        sqe_cli_interrupted();        /* forget a Ctrl-C from before this prompt */
        sqe_cli_signals_prompt(true); /* Ctrl-C must interrupt the line read */
        char *line = readline(buf.len == 0 ? "sqe> " : "  -> ");
        sqe_cli_signals_prompt(false);
        if (!line) {
            if (sqe_cli_interrupted()) { /* Ctrl-C: drop the statement being typed */
                buf_reset(&buf);
                fputc('\n', stdout);
                fflush(stdout);
                continue;
            }
            fputc('\n', stdout); /* Ctrl-D */
            break;
        }
        if (buf.len == 0) {
            const char *s = line;
            while (isspace((unsigned char)*s)) s++;
            if (*s == '\\' || *s == '.') {
                remember(s, hist);
                bool go_on = run_meta(cli, s);
                free(line);
                if (!go_on) break;
                continue;
            }
            if (!*s) {
                free(line);
                continue;
            }
        }
        bool ok = buf_append(&buf, line, strlen(line)) && buf_append(&buf, "\n", 1);
        free(line);
        if (!ok) {
            fputs("Error: out of memory; statement discarded\n", stderr);
            buf_reset(&buf);
            continue;
        }
        if (is_blank(buf.data) || !sqe_statement_complete(buf.data)) continue;

        remember(buf.data, hist);
        cli->printed_result = false;
        sqe_cli_run_script(cli, buf.data, strlen(buf.data), "<shell>");
        buf_reset(&buf);
    }

    free(buf.data);
    free(hist);
    return 0;
}
