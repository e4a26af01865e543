/*
 * fuzz_whole.c - the whole path: DDL, data files on disk and queries,
 * through the public session API (include/sqe.h) as an embedder runs them.
 *
 * Input: sections, each starting on a line "@@<kind> [arg]" (the input is
 * read as if it began with a newline, so the first line may be a header;
 * text before the first header is SQL). The newline before "@@" ends the
 * previous section and is not part of it, so a file's bytes end exactly
 * where the next header starts (a text file that ends in "\n" is followed
 * by an empty line).
 *
 *   @@sql                 statements (split as a script: sqe_split_statements_n)
 *   @@file PATH           a data file; a PATH ending in .gz, .zst or .bz2 is
 *                         compressed by the harness with zlib/zstd/bzip2,
 *                         so the reader starts from a valid stream
 *   @@raw PATH            the bytes as they are, whatever the name
 *   @@opt k=v ...         threads=1|2, mem=BYTES (memory limit, clamped to
 *                         256 KiB..64 MiB), pmin=BYTES (parallel_min_bytes;
 *                         1 forces the parallel path), split=BYTES
 *                         (text_split_bytes: split text files into ranges)
 *
 * PATH is relative to the run's folder (a per-process mkdtemp folder under
 * $TMPDIR, emptied before every input): "data/t/k=1/a.csv". Components
 * "..", "." and empty ones are refused (the section is skipped), so
 * nothing is written outside the folder. `__TEST_DIR__` in SQL is replaced
 * by the folder, as in tests/sql (the seeds are made from those files by
 * make_whole_seeds.py). Root "lake" is attached at __TEST_DIR__/wh.
 *
 * All files are written first, then the SQL sections run in order on a
 * fresh session (threads 1, memory limit 16 MiB unless @@opt says
 * otherwise). A statement that could touch anything outside the folder is
 * skipped, not run: ATTACH/DETACH, and any LOCATION or read_csv/read_json/
 * read_parquet path that is not a plain literal starting with the folder.
 *
 * Caps keep a run short: input <= 64 KiB, 16 files, 24 statements, 5,000
 * rows read per statement; a watchdog thread cancels a statement after 2 s
 * and the rest of the input after 5 s in all (sqe_cursor_cancel, which
 * any thread may call), so only an operator that ignores its cancel flag
 * reaches libFuzzer's -timeout.
 *
 * Invariants (abort with what broke):
 *   - a failed statement has a non-empty message, an error class and a
 *     5-character SQLSTATE other than 00000;
 *   - a statement with a status word has no columns; one without has at
 *     least one, each with a name and a type;
 *   - a SELECT whose outermost select list has no star has exactly as many
 *     columns as items (VALUES: as many as its rows are wide; a set
 *     operation: as its left operand);
 *   - values agree with their column: boolean "true"/"false", numbers start
 *     like numbers, char(n) values hold exactly n characters (CHAR's
 *     canonical padded form), varchar(n) at most n;
 *   - a SELECT that succeeded with R rows (all read) gives R again as
 *     SELECT count(*) FROM (<query>), when that succeeds too (another plan
 *     shape: pruned projections, pushed counts).
 * Crashes, sanitizer reports, leaks and hangs are bugs too.
 */
#include "fuzz_common.h"
#include "sqe.h"
#include "sql/sql.h"

#include <bzlib.h>
#include <errno.h>
#include <ftw.h>
#include <pthread.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#define WHOLE_MAX_INPUT (64 * 1024)
#define MAX_FILES 16
#define MAX_STMTS 24
#define MAX_ROWS 5000
#define STMT_MS 2000
#define INPUT_MS 5000
/* -DWHOLE_CHECK_CHAR=0 leaves out the char(n) length check (the first runs
 * did, while CHAR's common type was being fixed: README "whole-path runs"). */
#ifndef WHOLE_CHECK_CHAR
#define WHOLE_CHECK_CHAR 1
#endif

/* ------------------------------------------------------------ watchdog */

/* One thread per process; holds the cursor being read and its deadline. The
 * mutex is held while cancelling and while the harness clears the cursor
 * before closing it, so a cancel never races a close. */
static struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    sqe_cursor *cur;
    uint64_t deadline_ms;
    bool started;
} g_dog = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, 0, false};

static uint64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void *dog_main(void *arg) {
    (void)arg;
    pthread_mutex_lock(&g_dog.mu);
    for (;;) {
        if (g_dog.cur && now_ms() >= g_dog.deadline_ms) {
            sqe_cursor_cancel(g_dog.cur);
            g_dog.cur = NULL;
        }
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 50 * 1000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&g_dog.cv, &g_dog.mu, &ts);
    }
    return NULL;
}

static void dog_watch(sqe_cursor *c, uint64_t deadline) {
    pthread_mutex_lock(&g_dog.mu);
    if (!g_dog.started) {
        pthread_t t;
        if (pthread_create(&t, NULL, dog_main, NULL) != 0) fuzz_fail("watchdog thread", NULL);
        pthread_detach(t);
        g_dog.started = true;
    }
    g_dog.cur = c;
    g_dog.deadline_ms = deadline;
    pthread_mutex_unlock(&g_dog.mu);
}

static void dog_clear(void) {
    pthread_mutex_lock(&g_dog.mu);
    g_dog.cur = NULL;
    pthread_mutex_unlock(&g_dog.mu);
}

/* ------------------------------------------------------- the run folder */

static char g_dir[256]; /* per-process folder, made once */

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st;
    (void)flag;
    if (ftw->level > 0) remove(path);
    return 0;
}

static void dir_cleanup(void) {
    if (g_dir[0]) {
        nftw(g_dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
        rmdir(g_dir);
    }
}

/* Makes the folder on first use, empties it otherwise. */
static void dir_reset(void) {
    if (!g_dir[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(g_dir, sizeof g_dir, "%s/sqe-fuzz-whole.XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(g_dir)) fuzz_fail("mkdtemp", strerror(errno));
        atexit(dir_cleanup);
        return;
    }
    nftw(g_dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* A relative path of plain components (no "", ".", ".."), at most 8 deep. */
static bool path_ok(const char *p) {
    if (!*p || *p == '/' || strlen(p) > 200) return false;
    int depth = 0;
    for (const char *s = p; *s;) {
        const char *e = strchr(s, '/');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (n == 0 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
            return false;
        if (++depth > 8) return false;
        s += n + (e ? 1 : 0);
        if (e && !*s) return false;
    }
    return true;
}

static void mkdirs_for(const char *path) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *s = buf + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            mkdir(buf, 0755);
            *s = '/';
        }
}

static bool ends_with(const char *s, const char *suf) {
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

/* Compresses by the name's extension; returns malloc'd bytes in *out or
 * false when the name asks for none. */
static bool compress_for(const char *name, const uint8_t *p, size_t n, uint8_t **out,
                         size_t *out_len) {
    if (ends_with(name, ".gz")) {
        z_stream z;
        memset(&z, 0, sizeof z);
        if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return false;
        size_t cap = deflateBound(&z, n) + 32;
        *out = malloc(cap);
        z.next_in = (Bytef *)p;
        z.avail_in = (uInt)n;
        z.next_out = *out;
        z.avail_out = (uInt)cap;
        if (deflate(&z, Z_FINISH) != Z_STREAM_END) fuzz_fail("gzip of a section", NULL);
        *out_len = z.total_out;
        deflateEnd(&z);
        return true;
    }
    if (ends_with(name, ".zst")) {
        size_t cap = ZSTD_compressBound(n);
        *out = malloc(cap);
        *out_len = ZSTD_compress(*out, cap, p, n, 3);
        if (ZSTD_isError(*out_len)) fuzz_fail("zstd of a section", NULL);
        return true;
    }
    if (ends_with(name, ".bz2")) {
        unsigned cap = (unsigned)(n + n / 100 + 700);
        *out = malloc(cap);
        if (BZ2_bzBuffToBuffCompress((char *)*out, &cap, (char *)p, (unsigned)n, 9, 0, 0) != BZ_OK)
            fuzz_fail("bzip2 of a section", NULL);
        *out_len = cap;
        return true;
    }
    return false;
}

static void write_file(const char *rel, const uint8_t *p, size_t n, bool raw) {
    if (!path_ok(rel)) return;
    char path[512];
    snprintf(path, sizeof path, "%s/%s", g_dir, rel);
    mkdirs_for(path);
    uint8_t *z = NULL;
    size_t zn = 0;
    if (!raw && compress_for(rel, p, n, &z, &zn)) {
        p = z;
        n = zn;
    }
    FILE *f = fopen(path, "wb"); /* fails on a folder of that name: fine */
    if (f) {
        if (n) fwrite(p, 1, n, f);
        fclose(f);
    }
    free(z);
}

/* ------------------------------------------------------- the SQL guard */

/* The literal starting at s (just past its opening quote) as a malloc'd
 * string (doubled quotes undone); *end just past its closing quote. */
static char *literal_at(const char *s, const char **end) {
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    while (*s) {
        if (*s == '\'') {
            if (s[1] != '\'') break;
            s++;
        }
        sqe_strbuf_putc(&sb, *s++);
    }
    *end = *s ? s + 1 : s;
    return sqe_strbuf_detach(&sb);
}

/* True when the literal after position p (skipping blanks and, for a
 * function, one "(") names something inside the run folder: it must be a
 * plain literal starting with the folder followed by '/', free of "..",
 * and followed by ',' or ')' (for a function) or end the clause. */
static bool path_arg_ok(const char *p, bool func) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    if (func) {
        if (*p != '(') return true; /* not a call: a column named read_x */
        p++;
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    }
    if (*p != '\'') return false;
    const char *end;
    char *lit = literal_at(p + 1, &end);
    size_t dl = strlen(g_dir);
    bool ok =
        strncmp(lit, g_dir, dl) == 0 && lit[dl] == '/' && !strstr(lit, "..") && !strchr(lit, '\\');
    sqe_free(lit);
    if (!ok) return false;
    while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r') end++;
    return func ? (*end == ',' || *end == ')') : true;
}

static bool word_at(const char *s, const char *lower_word) {
    size_t n = strlen(lower_word);
    return strncasecmp(s, lower_word, n) == 0;
}

/* False for a statement that could read or write outside the run folder
 * (a case-insensitive scan of the text, strings included: crude on
 * purpose, since skipping a harmless statement costs little). */
static bool stmt_allowed(const char *sql) {
    for (const char *s = sql; *s; s++) {
        if (word_at(s, "attach") || word_at(s, "detach") || word_at(s, "u&'")) return false;
        if (word_at(s, "location") && !path_arg_ok(s + 8, false)) return false;
        if (word_at(s, "read_csv") && !path_arg_ok(s + 8, true)) return false;
        if (word_at(s, "read_json") && !path_arg_ok(s + 9, true)) return false;
        if (word_at(s, "read_parquet") && !path_arg_ok(s + 12, true)) return false;
        if (word_at(s, "file:") || word_at(s, "s3:") || word_at(s, "s3a:") || word_at(s, "http"))
            return false;
    }
    return true;
}

/* Replaces every __TEST_DIR__ by the run folder (malloc'd, NUL bytes
 * kept; *out_len its length). */
static char *substitute(const char *p, size_t n, size_t *out_len) {
    static const char key[] = "__TEST_DIR__";
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    for (size_t i = 0; i < n;) {
        if (n - i >= sizeof key - 1 && memcmp(p + i, key, sizeof key - 1) == 0) {
            sqe_strbuf_puts(&sb, g_dir);
            i += sizeof key - 1;
        } else {
            sqe_strbuf_append(&sb, p + i, 1);
            i++;
        }
    }
    if (!sb.data) sqe_strbuf_puts(&sb, "");
    *out_len = sb.len;
    return sqe_strbuf_detach(&sb);
}

/* --------------------------------------------------------- invariants */

/* Columns of the query's outermost select list, or -1 when a star (or
 * anything else) makes it unknown here. */
static int expected_cols(const sqe_ast_query *q, int depth) {
    if (!q || depth > 64) return -1;
    switch (q->kind) {
    case SQE_QUERY_SELECT:
        for (int i = 0; i < q->n_items; i++)
            if (q->items[i].expr->kind == SQE_AST_STAR) return -1;
        return q->n_items;
    case SQE_QUERY_VALUES:
        return q->n_values_cols;
    case SQE_QUERY_SET:
        return expected_cols(q->set_left, depth + 1);
    }
    return -1;
}

/* Parses the statement (internal parser, the engine parses it again): its
 * expected column count for a SELECT, else -1; *is_select. */
static int expect_for(const char *sql, bool *is_select) {
    *is_select = false;
    sqe_arena *a = sqe_arena_new(0);
    sqe_error err;
    sqe_error_clear(&err);
    int n = -1;
    sqe_ast_stmt *st = sqe_sql_parse(a, sql, &err);
    if (st && st->kind == SQE_STMT_SELECT) {
        *is_select = true;
        n = expected_cols(st->u.query, 0);
    }
    sqe_arena_free(a);
    return n;
}

static size_t utf8_chars(const char *p, size_t n) {
    size_t c = 0;
    for (size_t i = 0; i < n; i++) c += ((uint8_t)p[i] & 0xC0) != 0x80;
    return c;
}

static void check_value(sqe_cursor *c, int col, const char *v, size_t len, const char *sql) {
    const char *type = sqe_cursor_column_type(c, col);
    sqe_value_kind kind = sqe_cursor_column_kind(c, col);
    if (v[len] != '\0') fuzz_fail("value text not NUL-terminated", sql);
    if (kind == SQE_KIND_BOOLEAN && strcmp(v, "true") != 0 && strcmp(v, "false") != 0)
        fuzz_fail("boolean value neither true nor false", sql);
    if (kind == SQE_KIND_NUMBER &&
        !(len > 0 && (v[0] == '-' || (v[0] >= '0' && v[0] <= '9') || strcmp(v, "NaN") == 0 ||
                      strcmp(v, "Infinity") == 0)))
        fuzz_fail("number value that does not start like a number", sql);
    unsigned n;
    char tail;
    if (WHOLE_CHECK_CHAR && sscanf(type, "char(%u%c", &n, &tail) == 2 && tail == ')' &&
        utf8_chars(v, len) != n) {
        char *d = sqe_asprintf("%s: '%s' of type %s", sql, v, type);
        fuzz_fail("char(n) value not exactly n characters", d);
    }
    if (sscanf(type, "varchar(%u%c", &n, &tail) == 2 && tail == ')' && utf8_chars(v, len) > n) {
        char *d = sqe_asprintf("%s: '%s' of type %s", sql, v, type);
        fuzz_fail("varchar(n) value longer than n characters", d);
    }
}

/* Checks a finished statement's error or shape. */
static void check_error(sqe_cursor *c, const char *sql) {
    const char *msg = sqe_cursor_error(c), *cls = sqe_cursor_error_class(c);
    const char *state = sqe_cursor_sqlstate(c);
    if (!msg || !msg[0]) fuzz_fail("failed statement without an error message", sql);
    if (!cls || !cls[0] || strcmp(cls, "OK") == 0)
        fuzz_fail("failed statement without a class", sql);
    if (!state || strlen(state) != 5 || strcmp(state, "00000") == 0)
        fuzz_fail("failed statement without a SQLSTATE", sql);
}

/* FUZZ_WHOLE_VERBOSE=1: each statement and its outcome on stderr (to check
 * that a seed does what it should). */
static bool g_verbose;

typedef struct run_out {
    bool ok;       /* ended without error */
    bool all_read; /* every row read (not capped, not cancelled) */
    uint64_t rows;
    int64_t count0; /* column 0 of row 0 as a number (for count(*)) */
} run_out;

/* Runs one statement through a cursor, reading up to MAX_ROWS rows, and
 * checks what it returned. */
static run_out run_stmt(sqe_session *s, const char *sql, size_t len, int expect_cols,
                        uint64_t input_deadline) {
    run_out out = {false, false, 0, -1};
    sqe_cursor *c = sqe_session_query_n(s, sql, len);
    uint64_t dl = now_ms() + STMT_MS;
    dog_watch(c, dl < input_deadline ? dl : input_deadline);
    if (sqe_cursor_ok(c)) {
        const char *status = sqe_cursor_status(c);
        int nc = sqe_cursor_column_count(c);
        if (status && nc != 0) fuzz_fail("status statement with columns", sql);
        if (!status && nc < 1) fuzz_fail("statement without status and without columns", sql);
        if (expect_cols >= 0 && nc != expect_cols) {
            char *d = sqe_asprintf("%s\n(%d columns, select list has %d)", sql, nc, expect_cols);
            fuzz_fail("result with a wrong column count", d);
        }
        for (int i = 0; i < nc; i++)
            if (!sqe_cursor_column_name(c, i) || !sqe_cursor_column_type(c, i))
                fuzz_fail("column without a name or type", sql);
        while (out.rows < MAX_ROWS && sqe_cursor_next_row(c)) {
            for (int i = 0; i < nc; i++) {
                size_t vl = 0;
                const char *v = sqe_cursor_value(c, i, &vl);
                if (v) check_value(c, i, v, vl, sql);
                if (out.rows == 0 && i == 0) {
                    int64_t x;
                    if (sqe_cursor_int64(c, 0, &x)) out.count0 = x;
                }
            }
            out.rows++;
        }
        out.all_read = out.rows < MAX_ROWS || !sqe_cursor_next_row(c);
        if (out.rows > MAX_ROWS) out.rows = MAX_ROWS;
    }
    dog_clear();
    out.ok = sqe_cursor_ok(c);
    if (!out.ok) {
        check_error(c, sql);
        out.all_read = false;
    }
    if (g_verbose)
        fprintf(stderr, "fuzz_whole: %.200s\n  -> %s%s %llu rows%s%s\n", sql,
                out.ok ? "ok" : "error ", out.ok ? "" : sqe_cursor_error_class(c),
                (unsigned long long)out.rows, out.ok ? "" : ": ",
                out.ok ? "" : sqe_cursor_error(c));
    sqe_cursor_close(c);
    return out;
}

/* ------------------------------------------------------------- driver */

typedef struct run_ctx {
    sqe_session *s;
    int n_stmts;
    uint64_t deadline;
} run_ctx;

static bool nondeterministic(const char *sql) {
    for (const char *s = sql; *s; s++)
        if (word_at(s, "rand") || word_at(s, "uuid") || word_at(s, "now") ||
            word_at(s, "current_") || word_at(s, "tablesample") || word_at(s, "shuffle"))
            return true;
    return false;
}

static bool on_stmt(const char *text, size_t len, int line, void *arg) {
    run_ctx *rc = arg;
    (void)line;
    if (++rc->n_stmts > MAX_STMTS || now_ms() >= rc->deadline) return false;
    char *sql = sqe_malloc(len + 1); /* NUL bytes kept: query_n gets len */
    memcpy(sql, text, len);
    sql[len] = '\0';
    bool has_nul = strlen(sql) != len;
    if (!has_nul && !stmt_allowed(sql)) {
        sqe_free(sql);
        return true;
    }
    bool is_select = false;
    int expect = has_nul ? -1 : expect_for(sql, &is_select);
    run_out r = run_stmt(rc->s, sql, len, expect, rc->deadline);
    /* the same rows counted by another plan */
    if (is_select && r.ok && r.all_read && !nondeterministic(sql)) {
        char *q = sqe_asprintf("SELECT count(*) FROM (%s\n) fz_q", sql);
        run_out k = run_stmt(rc->s, q, strlen(q), 1, rc->deadline);
        if (k.ok && k.all_read && k.rows == 1 && k.count0 != (int64_t)r.rows) {
            char *d = sqe_asprintf("%s\n(%llu rows, count(*) says %lld)", sql,
                                   (unsigned long long)r.rows, (long long)k.count0);
            fuzz_fail("count(*) over a query disagrees with its rows", d);
        }
        sqe_free(q);
    }
    sqe_free(sql);
    return true;
}

static size_t clamp(size_t v, size_t lo, size_t hi) {
    return v < lo ? lo : v > hi ? hi : v;
}

/* A value of "@@opt" (0: the default, as in sqe-slt's tuning lines). */
static size_t opt_value(const char *line, const char *key, size_t lo, size_t hi, size_t dflt) {
    const char *p = strstr(line, key);
    if (!p) return dflt;
    size_t v = strtoull(p + strlen(key), NULL, 10);
    return v == 0 ? dflt : clamp(v, lo, hi);
}

static void apply_opts(const char *line, sqe_options *o) {
    o->threads = (int)opt_value(line, "threads=", 1, 2, (size_t)o->threads);
    o->memory_limit = opt_value(line, "mem=", 256u << 10, 64u << 20, o->memory_limit);
    o->parallel_min_bytes = opt_value(line, "pmin=", 1, 1u << 30, o->parallel_min_bytes);
    o->text_split_bytes = opt_value(line, "split=", 16, 1u << 30, o->text_split_bytes);
}

typedef struct section {
    const uint8_t *head; /* after "@@" */
    size_t head_len;     /* up to the header's newline */
    const uint8_t *body;
    size_t body_len;
} section;

/* Splits the input at "\n@@" (the input reads as if it began with "\n").
 * Section 0 may have no header (head_len 0, kind "sql"); a header line right
 * after another header ends that one with an empty body. */
static int split_sections(const uint8_t *d, size_t n, section *out, int max) {
    int k = 0;
    size_t i = 0;
    bool first = true;
    while (i <= n && k < max) {
        section sc = {NULL, 0, NULL, 0};
        if (n - i >= 2 && d[i] == '@' && d[i + 1] == '@') {
            sc.head = d + i + 2;
            const uint8_t *nl = memchr(sc.head, '\n', n - i - 2);
            sc.head_len = nl ? (size_t)(nl - sc.head) : n - i - 2;
            i = nl ? (size_t)(nl - d) + 1 : n;
        } else if (!first) {
            break;
        }
        first = false;
        sc.body = d + i;
        if (sc.head && n - i >= 2 && d[i] == '@' && d[i + 1] == '@') {
            out[k++] = sc; /* a header right after a header: empty body */
            continue;
        }
        size_t j = i;
        while (j < n && !(d[j] == '\n' && j + 2 < n && d[j + 1] == '@' && d[j + 2] == '@')) j++;
        sc.body_len = j - i;
        out[k++] = sc;
        if (j >= n) break;
        i = j + 1;
    }
    return k;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    setenv("SQE_LOG", "error", 0); /* warnings about hostile manifests are expected */
    const char *v = getenv("FUZZ_WHOLE_VERBOSE");
    g_verbose = v && *v && *v != '0';
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > WHOLE_MAX_INPUT) return 0;
    dir_reset();
    section secs[64];
    int n_secs = split_sections(data, size, secs, 64);

    sqe_options o;
    memset(&o, 0, sizeof o);
    o.threads = 1;
    o.memory_limit = 16u << 20;
    int n_files = 0;
    for (int i = 0; i < n_secs; i++) {
        char head[256];
        size_t hl = SQE_MIN(secs[i].head_len, sizeof head - 1);
        if (secs[i].head) memcpy(head, secs[i].head, hl);
        head[secs[i].head ? hl : 0] = '\0';
        bool file = strncmp(head, "file ", 5) == 0, raw = strncmp(head, "raw ", 4) == 0;
        if ((file || raw) && n_files++ < MAX_FILES)
            write_file(head + (file ? 5 : 4), secs[i].body, secs[i].body_len, raw);
        else if (strncmp(head, "opt", 3) == 0)
            apply_opts(head, &o);
    }

    sqe_session *s = sqe_session_open(&o);
    char *root = sqe_asprintf("lake=%s/wh", g_dir);
    char path[300];
    snprintf(path, sizeof path, "%s/wh", g_dir);
    mkdir(path, 0755);
    char *aerr = sqe_session_attach_root(s, root);
    if (aerr) fuzz_fail("attach of the run folder", aerr);
    run_ctx rc = {s, 0, now_ms() + INPUT_MS};
    for (int i = 0; i < n_secs; i++) {
        bool sql = !secs[i].head || (secs[i].head_len >= 3 && memcmp(secs[i].head, "sql", 3) == 0);
        if (!sql) continue;
        size_t tl;
        char *text = substitute((const char *)secs[i].body, secs[i].body_len, &tl);
        (void)sqe_split_statements_n(text, tl, on_stmt, &rc);
        sqe_free(text);
    }
    sqe_free(root);
    sqe_session_close(s);
    return 0;
}
