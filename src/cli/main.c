/*
 * main.c - sqe-cli's entry point: parses flags, opens an embedded session,
 * attaches warehouse roots, then runs -c/-f inputs in command-line order, a
 * piped stdin as a script, or the interactive shell when stdin is a
 * terminal (SPEC §0.1).
 *
 * Exit status: 0 every statement succeeded; 1 a statement (or attaching a
 * root, or reading a script) failed or was cancelled with Ctrl-C; 2 a usage
 * error; 130 a second Ctrl-C (or one outside a statement, in a script).
 * Usage errors are found before the engine is touched.
 *
 * --memory-limit defaults to 80% of physical memory (sysconf), so one query
 * that grows without bound fails with RESOURCE_EXHAUSTED instead of taking
 * the machine; 0 means no limit.
 *
 * Server mode (no --embedded) and S3 storage are not built yet: both are
 * refused with exit status 2 and a message saying what to do instead.
 */
#include <errno.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli/cli.h"

#define EXIT_USAGE 2

/* Printed with the default memory limit (%s) filled in; no other '%'. */
static const char usage_text[] =
    "Usage: sqe-cli --embedded [OPTIONS]\n"
    "\n"
    "Runs SQL against Hive-style external tables with the sqe engine in-process.\n"
    "With no -c or -f it reads statements from standard input: an interactive\n"
    "shell on a terminal, otherwise a script.\n"
    "\n"
    "Options:\n"
    "  --embedded               run the engine inside this process (required for now;\n"
    "                           server mode is not supported yet)\n"
    "  --hive-root NAME=URL     attach a warehouse root as catalog NAME; URL is\n"
    "                           s3://bucket/prefix, or a local path or\n"
    "                           file:///abs/path of an existing folder\n"
    "                           (repeatable)\n"
    "  -c SQL                   run SQL (one or more statements separated by ';');\n"
    "                           repeatable, run in order with -f\n"
    "  -f FILE                  run the statements in FILE ('-' reads standard input);\n"
    "                           repeatable\n"
    "  --format FMT             output format: table (default), csv, tsv, json, jsonl,\n"
    "                           markdown (json/jsonl: a repeated column name gets\n"
    "                           _1, _2 ...: SELECT 1 AS a, 2 AS a gives a, a_1)\n"
    "  --threads N              worker threads per query (default: number of CPUs)\n"
    "  --memory-limit SIZE      memory per query, e.g. 512MB, 4GB, 1GiB (KB/MB/GB/TB are\n"
    "                           powers of 1024, as in Trino; 0: no limit; default:\n"
    "                           80%% of physical memory, %s here)\n"
    "  --timing                 print each statement's elapsed time to stderr\n"
    "  --time-zone ZONE         the session's time zone (and SET TIME ZONE LOCAL's):\n"
    "                           an IANA name such as America/New_York, UTC or an\n"
    "                           offset +05:30; default $SQE_TIME_ZONE, else $TZ,\n"
    "                           else UTC\n"
    "  --s3-endpoint URL        S3-compatible endpoint (path-style addressing)\n"
    "  --s3-access-key KEY      S3 access key id\n"
    "  --s3-secret-key SECRET   S3 secret key; prefer the AWS_SECRET_ACCESS_KEY\n"
    "                           environment variable, which stays out of ps and\n"
    "                           shell history\n"
    "  --s3-region REGION       S3 region\n"
    "  --s3-virtual-hosted      virtual-hosted-style addressing with --s3-endpoint\n"
    "                           Without these flags, SQE_STORAGE__S3_* and then the\n"
    "                           usual AWS variables, ~/.aws profiles, web identity,\n"
    "                           ECS and instance credentials apply\n"
    "  --help                   show this help and exit\n"
    "  --version                print the version and exit\n"
    "\n"
    "Examples:\n"
    "  sqe-cli --embedded --hive-root lake=./warehouse \\\n"
    "      -c \"SELECT status, count(*) FROM lake.sales.orders GROUP BY status\"\n"
    "  sqe-cli --embedded --hive-root lake=file:///data/wh --format csv -f report.sql\n"
    "  echo \"SHOW TABLES FROM lake.sales;\" | sqe-cli --embedded --hive-root lake=./warehouse\n"
    "  sqe-cli --embedded --hive-root lake=./warehouse      (interactive shell)\n"
    "  AWS_PROFILE=analytics sqe-cli --embedded --hive-root lake=s3://bucket/warehouse\n"
    "  sqe-cli --embedded --s3-endpoint http://127.0.0.1:9000 --hive-root lake=s3://b/wh\n"
    "\n"
    "In the shell a statement ends with ';'. Meta commands: \\q (or .quit, .exit),\n"
    "\\timing, \\format FMT (or .mode FMT), \\help. History is kept in ~/.sqe_history\n"
    "(or $SQE_HISTORY).\n"
    "\n"
    "Rows are printed as they arrive. Ctrl-C cancels the running statement; a second\n"
    "Ctrl-C exits at once.\n"
    "\n"
    "Exit status: 0 all statements succeeded, 1 a statement failed (or was cancelled),\n"
    "2 usage error, 130 interrupted.\n"
    "Set SQE_LOG=debug to see each error's class and SQLSTATE.\n";

static void usage_error(const char *fmt, const char *arg) {
    fputs("sqe-cli: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nUsage: sqe-cli --embedded [--hive-root NAME=URL]... [-c SQL]... [-f FILE]...\n"
          "               [--format table|csv|tsv|json|jsonl|markdown] [--threads N]\n"
          "               [--memory-limit SIZE] [--timing] [--time-zone ZONE]\n"
          "Run 'sqe-cli --help' for details.\n",
          stderr);
}

/* Parses "512MB", "4GB", "1GiB", "1.5G", "1048576" into bytes. Unit names
 * are case-insensitive; K/M/G/T, KB/MB/GB/TB and KiB/MiB/GiB/TiB all mean
 * powers of 1024. */
static bool parse_size(const char *text, size_t *bytes) {
    static const struct {
        const char *unit;
        double mult;
    } units[] = {
        {"", 1},
        {"b", 1},
        {"k", 1024.0},
        {"kb", 1024.0},
        {"kib", 1024.0},
        {"m", 1024.0 * 1024},
        {"mb", 1024.0 * 1024},
        {"mib", 1024.0 * 1024},
        {"g", 1024.0 * 1024 * 1024},
        {"gb", 1024.0 * 1024 * 1024},
        {"gib", 1024.0 * 1024 * 1024},
        {"t", 1024.0 * 1024 * 1024 * 1024},
        {"tb", 1024.0 * 1024 * 1024 * 1024},
        {"tib", 1024.0 * 1024 * 1024 * 1024},
    };
    const char *s = text;
    double value = 0;
    bool digits = false;
    while (*s >= '0' && *s <= '9') {
        value = value * 10 + (*s++ - '0');
        digits = true;
    }
    if (*s == '.') {
        double scale = 0.1;
        s++;
        while (*s >= '0' && *s <= '9') {
            value += (*s++ - '0') * scale;
            scale /= 10;
            digits = true;
        }
    }
    if (!digits) return false;
    while (*s == ' ') s++;
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
        if (strcasecmp(s, units[i].unit) == 0) {
            double total = value * units[i].mult;
            if (total >= 18446744073709551615.0 || total >= (double)SIZE_MAX) return false;
            *bytes = (size_t)total;
            return true;
        }
    }
    return false;
}

/* The default --memory-limit: 80% of physical memory (0, no limit, when
 * the system does not say). */
static size_t default_memory_limit(void) {
    long pages = sysconf(_SC_PHYS_PAGES);
    long page = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page <= 0) return 0;
    double total = (double)pages * (double)page * 0.8;
    return total >= (double)SIZE_MAX ? SIZE_MAX : (size_t)total;
}

/* "12.3 GiB", "800 MiB" ... */
static void format_size(size_t bytes, char *buf, size_t cap) {
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        u++;
    }
    if (bytes == 0)
        snprintf(buf, cap, "no limit");
    else if (u == 0)
        snprintf(buf, cap, "%zu bytes", bytes);
    else
        snprintf(buf, cap, "%.1f %s", v, units[u]);
}

static bool parse_threads(const char *text, int *threads) {
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end != '\0' || v < 0 || v > 4096) return false;
    *threads = (int)v;
    return true;
}

/* Takes an S3 flag into opts (false if name is not one). The secret key
 * is copied and its text in argv overwritten, so `ps` and /proc/PID/cmdline
 * no longer show it (it was visible until here: --help says to prefer
 * AWS_SECRET_ACCESS_KEY). */
static bool s3_flag(const char *name, char *value, sqe_options *opts) {
    if (strcmp(name, "--s3-endpoint") == 0)
        opts->s3_endpoint = value;
    else if (strcmp(name, "--s3-region") == 0)
        opts->s3_region = value;
    else if (strcmp(name, "--s3-access-key") == 0)
        opts->s3_access_key = value;
    else if (strcmp(name, "--s3-virtual-hosted") == 0)
        opts->s3_virtual_hosted = true;
    else if (strcmp(name, "--s3-secret-key") == 0) {
        free((char *)opts->s3_secret_key);
        opts->s3_secret_key = strdup(value);
        memset(value, 'x', strlen(value));
    } else
        return false;
    return true;
}

typedef struct cli_input {
    char kind; /* 'c' SQL text, 'f' file */
    const char *value;
} cli_input;

typedef struct cli_flags {
    bool embedded;
    bool timing;
    bool memory_limit_set; /* else default_memory_limit() */
    const char *time_zone; /* --time-zone, or NULL */
    sqe_cli_format format;
    sqe_options opts;
    const char **roots;
    int n_roots;
    cli_input *inputs;
    int n_inputs;
} cli_flags;

/* The session's local time zone: --time-zone, else $SQE_TIME_ZONE (both
 * must name a known zone), else $TZ when it names one (a leading ':' is
 * dropped; POSIX rules such as "EST5EDT,M3.2.0,M11.1.0" and unknown names
 * fall back to UTC with a warning), else UTC. Trino uses the JVM's zone;
 * sqe does not read /etc/localtime, so results do not change with the
 * host's setting unless TZ says so. */
static bool set_time_zone(sqe_session *s, const char *flag) {
    const char *env = getenv("SQE_TIME_ZONE"), *tz = getenv("TZ");
    const char *zone = flag ? flag : env && *env ? env : NULL;
    const char *what = flag ? "--time-zone" : "SQE_TIME_ZONE";
    bool strict = zone != NULL;
    if (!zone && tz && *tz) {
        zone = tz[0] == ':' ? tz + 1 : tz;
        what = "TZ";
    }
    if (!zone) return true;
    char *err = sqe_session_set_local_time_zone(s, zone);
    if (!err) return true;
    fprintf(stderr, "sqe-cli: %s %s: %s%s\n", what, zone, err, strict ? "" : "; using UTC");
    free(err);
    return !strict;
}

/* Returns -1 to continue, else an exit status. */
static int parse_flags(int argc, char **argv, cli_flags *fl) {
    fl->roots = calloc((size_t)argc, sizeof(*fl->roots));
    fl->inputs = calloc((size_t)argc, sizeof(*fl->inputs));
    if (!fl->roots || !fl->inputs) {
        fputs("sqe-cli: out of memory\n", stderr);
        return 1;
    }
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        char *value = NULL;
        char name[64];
        /* --flag=value is accepted for every long flag that takes a value */
        const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
        if (eq && (size_t)(eq - arg) < sizeof(name)) {
            memcpy(name, arg, (size_t)(eq - arg));
            name[eq - arg] = '\0';
            value = (char *)eq + 1;
        } else {
            snprintf(name, sizeof(name), "%s", arg);
        }

        static const char *const with_value[] = {
            "--hive-root",
            "-c",
            "-f",
            "--format",
            "--threads",
            "--memory-limit",
            "--time-zone",
            "--s3-endpoint",
            "--s3-access-key",
            "--s3-secret-key",
            "--s3-region",
            "--file",
            "--command",
        };
        bool takes_value = false;
        for (size_t k = 0; k < sizeof(with_value) / sizeof(with_value[0]); k++)
            if (strcmp(name, with_value[k]) == 0) takes_value = true;
        if (takes_value && !value) {
            if (i + 1 >= argc) {
                usage_error("missing value for %s", name);
                return EXIT_USAGE;
            }
            value = argv[++i];
        } else if (!takes_value && value) {
            usage_error("%s does not take a value", name);
            return EXIT_USAGE;
        }

        if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
            char def[32];
            format_size(default_memory_limit(), def, sizeof def);
            printf(usage_text, def);
            return 0;
        } else if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0) {
            printf("sqe-cli %s\n", sqe_version());
            return 0;
        } else if (strcmp(name, "--embedded") == 0) {
            fl->embedded = true;
        } else if (strcmp(name, "--timing") == 0) {
            fl->timing = true;
        } else if (strcmp(name, "--time-zone") == 0) {
            fl->time_zone = value;
        } else if (strcmp(name, "--hive-root") == 0) {
            const char *sep = strchr(value, '=');
            if (!sep || sep == value || sep[1] == '\0') {
                usage_error("--hive-root expects NAME=URL, got '%s'", value);
                return EXIT_USAGE;
            }
            fl->roots[fl->n_roots++] = value;
        } else if (strcmp(name, "-c") == 0 || strcmp(name, "--command") == 0) {
            fl->inputs[fl->n_inputs++] = (cli_input){'c', value};
        } else if (strcmp(name, "-f") == 0 || strcmp(name, "--file") == 0) {
            fl->inputs[fl->n_inputs++] = (cli_input){'f', value};
        } else if (strcmp(name, "--format") == 0) {
            if (!sqe_cli_format_parse(value, &fl->format)) {
                usage_error("unknown format '%s' (use table, csv, tsv, json, jsonl or markdown)",
                            value);
                return EXIT_USAGE;
            }
        } else if (strcmp(name, "--threads") == 0) {
            if (!parse_threads(value, &fl->opts.threads)) {
                usage_error("--threads expects a whole number from 0 to 4096, got '%s'", value);
                return EXIT_USAGE;
            }
        } else if (strcmp(name, "--memory-limit") == 0) {
            if (!parse_size(value, &fl->opts.memory_limit)) {
                usage_error("--memory-limit expects a size such as 512MB, 4GB or 1GiB, got '%s'",
                            value);
                return EXIT_USAGE;
            }
            fl->memory_limit_set = true;
        } else if (s3_flag(name, value, &fl->opts)) {
            if (value && !*value) {
                usage_error("%s needs a non-empty value", name);
                return EXIT_USAGE;
            }
        } else if (arg[0] == '-' && arg[1] != '\0') {
            usage_error("unknown flag %s", name);
            return EXIT_USAGE;
        } else {
            usage_error("unexpected argument '%s'", arg);
            return EXIT_USAGE;
        }
    }
    return -1;
}

static int run_inputs(sqe_cli *cli, const cli_flags *fl) {
    for (int i = 0; i < fl->n_inputs; i++) {
        const cli_input *in = &fl->inputs[i];
        if (in->kind == 'c') {
            if (!sqe_cli_run_script(cli, in->value, strlen(in->value), "-c")) return 1;
        } else {
            size_t len = 0;
            char *script = sqe_cli_read_file(in->value, &len);
            if (!script) return 1;
            bool ok = sqe_cli_run_script(cli, script, len,
                                         strcmp(in->value, "-") == 0 ? "<stdin>" : in->value);
            free(script);
            if (!ok) return 1;
        }
    }
    return 0;
}

/* glibc's allocator, tuned for a process that runs scans: readers and
 * decompressors allocate and free buffers of 1-8 MiB per file and column
 * chunk, on several threads. By default each of those is a fresh mmap (and
 * each free of a thread arena's top an madvise), so every buffer is paid
 * for again in page faults: a quarter of a Parquet scan's time went to the
 * kernel. Serving blocks up to 16 MiB from the heap and keeping up to
 * 16 MiB of free memory per arena reuses them instead (Parquet sum() 2-3x,
 * CSV 1.3x faster). 64 MiB kept ~90 MB more RSS in a spilling GROUP BY;
 * 16 MiB leaves peak RSS under --memory-limit as it was. The process
 * owns its allocator, so this lives here, not in libsqe. */
static void cli_tune_malloc(void) {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 16 << 20);
    mallopt(M_TRIM_THRESHOLD, 16 << 20);
#endif
}

int main(int argc, char **argv) {
    cli_tune_malloc();
    cli_flags fl = {0};
    sqe_cli cli = {0};
    int status = parse_flags(argc, argv, &fl);
    if (status >= 0) goto out;

    if (!fl.embedded) {
        fputs("sqe-cli: server mode (without --embedded) is not supported yet; run with "
              "--embedded\n",
              stderr);
        status = EXIT_USAGE;
        goto out;
    }

    const char *log = getenv("SQE_LOG");
    cli.debug = log && strcasecmp(log, "debug") == 0;
    cli.format = fl.format;
    cli.timing = fl.timing;
    cli.out = stdout;
    /* Rows stream through stdout: a big buffer when it is not a terminal
     * (output.c flushes after every batch of rows). */
    if (!isatty(STDOUT_FILENO)) setvbuf(stdout, NULL, _IOFBF, (size_t)1 << 16);
    if (!fl.memory_limit_set) fl.opts.memory_limit = default_memory_limit();
    bool shell = fl.n_inputs == 0 && isatty(STDIN_FILENO);
    sqe_cli_signals_install(shell);
    cli.session = sqe_session_open(&fl.opts);

    if (!set_time_zone(cli.session, fl.time_zone)) {
        status = EXIT_USAGE;
        goto out;
    }

    for (int i = 0; i < fl.n_roots; i++) {
        char *err = sqe_session_attach_root(cli.session, fl.roots[i]);
        if (err) {
            fprintf(stderr, "sqe-cli: cannot attach --hive-root %s: %s\n", fl.roots[i], err);
            free(err);
            status = 1;
            goto out;
        }
    }

    if (fl.n_inputs > 0) {
        status = run_inputs(&cli, &fl);
    } else if (shell) {
        status = sqe_cli_repl(&cli);
    } else {
        size_t len = 0;
        char *script = sqe_cli_read_file("-", &len);
        status = script && sqe_cli_run_script(&cli, script, len, "<stdin>") ? 0 : 1;
        free(script);
    }

out:
    if (cli.session) sqe_session_close(cli.session);
    free(fl.roots);
    free(fl.inputs);
    if (fl.opts.s3_secret_key) {
        memset((char *)fl.opts.s3_secret_key, 0, strlen(fl.opts.s3_secret_key));
        free((char *)fl.opts.s3_secret_key);
    }
    if (fflush(stdout) != 0 && status == 0) status = 1;
    return status;
}
