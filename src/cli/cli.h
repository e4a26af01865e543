/*
 * cli.h - the private interface between the files of sqe-cli.
 *
 *   main.c    flags, session set-up, which input to run
 *   run.c     running scripts and single statements, error and timing output
 *   output.c  result formatters (table, csv, tsv, json, jsonl, markdown)
 *   repl.c    the interactive shell (libedit)
 *
 * sqe-cli talks to the engine only through include/sqe.h.
 */
#ifndef SQE_CLI_H
#define SQE_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "sqe.h"

typedef enum sqe_cli_format {
    SQE_CLI_FORMAT_TABLE = 0,
    SQE_CLI_FORMAT_CSV,
    SQE_CLI_FORMAT_TSV,
    SQE_CLI_FORMAT_JSON,
    SQE_CLI_FORMAT_JSONL,
    SQE_CLI_FORMAT_MARKDOWN,
} sqe_cli_format;

/* State shared by script runs and the shell. Owned by main(). */
typedef struct sqe_cli {
    sqe_session *session;
    sqe_cli_format format;
    bool timing;         /* print "Time: N ms" to stderr after each statement */
    bool debug;          /* SQE_LOG=debug: print error class, SQLSTATE, location */
    bool printed_result; /* something was printed to stdout (blank line before the next) */
    FILE *out;           /* stdout */
} sqe_cli;

/* ---------------------------------------------------------------- output.c */

/* Parses "table", "csv", ... (case-insensitive). Returns false if unknown. */
bool sqe_cli_format_parse(const char *name, sqe_cli_format *fmt);
const char *sqe_cli_format_name(sqe_cli_format fmt);
/* Streams the rows of a statement that returns rows (sqe_cursor_status
 * NULL) to cli->out in cli->format while they arrive; output starts with the
 * first row (or the end), after a blank line between results in table and
 * markdown. Returns false when the statement failed midway (the error stays
 * in the cursor; rows already printed stay printed). The cursor stays owned
 * by the caller. */
bool sqe_cli_print_rows(sqe_cli *cli, sqe_cursor *c);

/* ------------------------------------------------------------------- run.c */

/* Installs sqe-cli's SIGINT handler: Ctrl-C cancels the running statement
 * (sqe_cursor_cancel), which then fails with "query was cancelled"; a
 * second Ctrl-C while it is being cancelled exits at once with status 130.
 * Outside a statement: in the shell it abandons the line being typed (see
 * sqe_cli_interrupted), elsewhere it exits with status 130. */
void sqe_cli_signals_install(bool shell);
/* The shell waits for a line: no SA_RESTART, so Ctrl-C interrupts the read. */
void sqe_cli_signals_prompt(bool at_prompt);
/* True (and cleared) when Ctrl-C came while no statement ran. */
bool sqe_cli_interrupted(void);

/* Runs one statement (sql need not be NUL-terminated at len): prints its
 * notices, rows or status, timing; on failure prints "Error: ..." to stderr.
 * `where` names the source ("-c", a file name) and `line` the first line,
 * used only in debug output. Returns false if the statement failed.
 * Blank statements (only whitespace and comments) are skipped. */
bool sqe_cli_run_statement(sqe_cli *cli, const char *sql, size_t len, const char *where, int line);
/* Splits a script of `len` bytes into statements and runs them in order, stopping at the
 * first failure (or after a statement during which Ctrl-C was pressed).
 * Returns false if a statement failed or was interrupted. */
bool sqe_cli_run_script(sqe_cli *cli, const char *script, size_t len, const char *where);
/* Reads a whole file ("-" is stdin) into a malloc'd buffer (NUL-terminated
 * for convenience; *len is its length, NUL bytes inside included). Returns
 * NULL and prints a message on failure. */
char *sqe_cli_read_file(const char *path, size_t *len);

/* True when `text` may hold a CREATE SECRET statement (the word CREATE and,
 * later, the word SECRET, ASCII case-insensitive): the shell keeps such
 * entries out of its history. Errs on the side of forgetting. */
bool sqe_cli_holds_secret(const char *text);

/* ------------------------------------------------------------------ repl.c */

/* Runs the interactive shell until \q or end of input. Returns the exit
 * status (always 0: errors in the shell do not end it). */
int sqe_cli_repl(sqe_cli *cli);

#endif
