/*
 * replay.c - runs saved inputs through a fuzz target without libFuzzer.
 *
 *   replay_<target> PATH...
 *
 * Linked with one fuzz_<target>.c (which defines LLVMFuzzerTestOneInput)
 * and the library, built with gcc + ASan/UBSan by `make fuzz-replay`, so
 * the corpora under tests/fuzz/corpus/<target>/ run as regression tests in
 * `make test` on machines without clang. A PATH is a file or a folder whose
 * regular files (not recursive, hidden files skipped) run in name order.
 * LLVMFuzzerInitialize runs first when the target defines it.
 * Each input is copied into a buffer of exactly its size, as libFuzzer does,
 * so reads past the end are caught. A broken invariant aborts (the harness
 * prints what broke) and a sanitizer report ends the process; either way
 * the driver names the input that was running. -v names every input.
 * Exit 0 when every input ran, 2 on a usage or I/O error.
 */
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define HAVE_DEATH_CALLBACK 1
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* Optional, as in libFuzzer: a target may define it to set itself up. */
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

static const char *g_current; /* the input being run */
static int g_verbose;

static void say_current(void) {
    if (!g_current) return;
    static const char msg[] = "replay: failing input: ";
    (void)!write(2, msg, sizeof msg - 1);
    (void)!write(2, g_current, strlen(g_current));
    (void)!write(2, "\n", 1);
}

static void on_signal(int sig) {
    say_current();
    signal(sig, SIG_DFL);
    raise(sig);
}

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    if (!buf) {
        fputs("replay: out of memory\n", stderr);
        return -1;
    }
    uint8_t *exact = malloc(len ? len : 1);
    if (!exact) {
        free(buf);
        return -1;
    }
    memcpy(exact, buf, len);
    free(buf);
    if (g_verbose) fprintf(stderr, "replay: %s\n", path);
    g_current = path;
    LLVMFuzzerTestOneInput(exact, len);
    g_current = NULL;
    free(exact);
    return 0;
}

static int cmp_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir, int *n_run) {
    DIR *d = opendir(dir);
    if (!d) {
        perror(dir);
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **grown = realloc(names, cap * sizeof *names);
            if (!grown) break;
            names = grown;
        }
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_names);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        size_t pl = strlen(dir) + strlen(names[i]) + 2;
        char *path = malloc(pl);
        snprintf(path, pl, "%s/%s", dir, names[i]);
        struct stat st;
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            if (run_file(path) < 0)
                rc = -1;
            else
                (*n_run)++;
        }
        free(path);
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv) {
    int first = 1;
    if (argc > 1 && strcmp(argv[1], "-v") == 0) {
        g_verbose = 1;
        first = 2;
    }
    if (argc <= first) {
        fprintf(stderr, "usage: %s [-v] FILE_OR_DIR...\n", argv[0]);
        return 2;
    }
    if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
    signal(SIGABRT, on_signal);
    signal(SIGSEGV, on_signal);
    signal(SIGBUS, on_signal);
    signal(SIGFPE, on_signal);
#ifdef HAVE_DEATH_CALLBACK
    __sanitizer_set_death_callback(say_current);
#endif
    int n_run = 0, rc = 0;
    for (int i = first; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            perror(argv[i]);
            rc = 2;
        } else if (S_ISDIR(st.st_mode)) {
            if (run_dir(argv[i], &n_run) < 0) rc = 2;
        } else if (run_file(argv[i]) < 0) {
            rc = 2;
        } else {
            n_run++;
        }
    }
    printf("replay %s: %d inputs ran\n", argv[0], n_run);
    return rc;
}
