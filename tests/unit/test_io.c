/*
 * test_io.c - URL rules, path helpers, and the object-store conformance
 * suite run against the local backend in a fresh mkdtemp folder.
 *
 * The conformance part only talks to the vtable, so the S3 backend will run
 * the same checks (conformance(store, root_url)).
 */
#include "io/io.h"
#include "io/s3.h"
#include "unit.h"

#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------ URL rules */

static void check_url_ok(const char *url) {
    sqe_error err;
    sqe_error_clear(&err);
    CHECK(sqe_io_check_url(url, &err));
    CHECK(err.cls == SQE_OK);
}

static void check_url_err(const char *url, sqe_error_class cls, const char *msg) {
    sqe_error err;
    sqe_error_clear(&err);
    CHECK(!sqe_io_check_url(url, &err));
    CHECK(err.cls == cls);
    if (msg) CHECK_STR(err.msg, msg);
}

static void test_check_url(void) {
    check_url_ok("s3://bucket/prefix");
    check_url_ok("s3://bucket");
    check_url_ok("s3://bucket/prefix/");
    check_url_ok("file:///abs/path");
    check_url_ok("file:///");
    check_url_ok("/abs/path");
    check_url_ok("relative/path");
    check_url_ok("data");
    check_url_err("", SQE_ERR_INVALID_ARGUMENT, NULL);
    check_url_err(NULL, SQE_ERR_INVALID_ARGUMENT, NULL);
    check_url_err("s3://", SQE_ERR_INVALID_ARGUMENT, "invalid S3 URL 's3://': missing bucket");
    check_url_err("s3:///key", SQE_ERR_INVALID_ARGUMENT,
                  "invalid S3 URL 's3:///key': missing bucket");
    check_url_err("file://relative", SQE_ERR_INVALID_ARGUMENT, NULL);
    check_url_err("gs://x", SQE_ERR_NOT_SUPPORTED,
                  "unsupported URL scheme 'gs' in 'gs://x'; use s3://, file:// or a local path");
    check_url_err(
        "http://host/x", SQE_ERR_NOT_SUPPORTED,
        "unsupported URL scheme 'http' in 'http://host/x'; use s3://, file:// or a local path");
    check_url_err("hdfs://nn:8020/warehouse", SQE_ERR_NOT_SUPPORTED, NULL);
    check_url_err("s3a://bucket/x", SQE_ERR_NOT_SUPPORTED, NULL);
}

static void test_store_for_url(void) {
    sqe_error err;
    sqe_error_clear(&err);
    sqe_store *s = sqe_io_store_for_url("s3://bucket/prefix", &err);
    CHECK(s == NULL);
    CHECK(err.cls == SQE_ERR_NOT_SUPPORTED);
    CHECK_STR(err.msg, "S3 storage is not supported yet (URL 's3://bucket/prefix'); use a local "
                       "path or file:// URL");

    s = sqe_io_store_for_url("s3://", &err);
    CHECK(s == NULL && err.cls == SQE_ERR_INVALID_ARGUMENT);
    s = sqe_io_store_for_url("gs://x", &err);
    CHECK(s == NULL && err.cls == SQE_ERR_NOT_SUPPORTED);
    CHECK_STR(err.msg,
              "unsupported URL scheme 'gs' in 'gs://x'; use s3://, file:// or a local path");
    s = sqe_io_store_for_url("", &err);
    CHECK(s == NULL && err.cls == SQE_ERR_INVALID_ARGUMENT);

    s = sqe_io_store_for_url("file:///tmp", &err);
    CHECK(s != NULL);
    if (s) CHECK_STR(s->vt->name, "local");
    sqe_store_free(s);
    s = sqe_io_store_for_url("some/relative/dir", &err);
    CHECK(s != NULL);
    sqe_store_free(s);
}

static void check_join(const char *a, const char *b, const char *want) {
    char *got = sqe_io_join(a, b);
    CHECK_STR(got, want);
    sqe_free(got);
}

static void check_local_path(const char *url, const char *want) {
    char *got = sqe_io_local_path(url);
    CHECK_STR(got, want);
    sqe_free(got);
}

static void test_paths(void) {
    check_join("a", "b", "a/b");
    check_join("a/", "b", "a/b");
    check_join("a//", "/b", "a/b");
    check_join("/", "b", "/b");
    check_join("", "b", "b");
    check_join("file:///", "x", "file:///x");
    check_join("file:///tmp/w/", "t/p.csv", "file:///tmp/w/t/p.csv");
    check_join("s3://bkt", "k", "s3://bkt/k");
    check_join("s3://bkt/p/", "k", "s3://bkt/p/k");
    check_join("dir", "", "dir/");
    check_local_path("file:///abs/x", "/abs/x");
    check_local_path("/abs/x", "/abs/x");
    check_local_path("rel/x", "rel/x");
    check_local_path("FILE:///abs", "/abs");
}

/* --------------------------------------------------------- conformance */

#define MAX_SEEN 32
typedef struct seen {
    int n;
    char path[MAX_SEEN][512];
    char name[MAX_SEEN][128];
    bool is_dir[MAX_SEEN];
    uint64_t size[MAX_SEEN];
    int64_t mtime[MAX_SEEN];
    int stop_after; /* 0 = never */
} seen;

static bool collect(const sqe_io_entry *e, void *ctx) {
    seen *s = ctx;
    if (s->n < MAX_SEEN) {
        snprintf(s->path[s->n], sizeof s->path[0], "%s", e->path);
        snprintf(s->name[s->n], sizeof s->name[0], "%s", e->name);
        s->is_dir[s->n] = e->is_dir;
        s->size[s->n] = e->size;
        s->mtime[s->n] = e->mtime_us;
    }
    s->n++;
    return !(s->stop_after && s->n >= s->stop_after);
}

static int find_seen(const seen *s, const char *path) {
    for (int i = 0; i < s->n && i < MAX_SEEN; i++)
        if (strcmp(s->path[i], path) == 0) return i;
    return -1;
}

static bool put_str(sqe_store *st, const char *path, const char *text) {
    sqe_error err;
    bool ok = st->vt->put(st, path, text, strlen(text), &err);
    if (!ok) fprintf(stderr, "put %s: %s\n", path, err.msg);
    return ok;
}

/* Counts raw directory entries whose name starts with `prefix`. */
static int count_raw(const char *dir, const char *prefix) {
    DIR *d = opendir(dir);
    int n = 0;
    if (!d) return -1;
    struct dirent *de;
    while ((de = readdir(d)))
        if (strncmp(de->d_name, prefix, strlen(prefix)) == 0) n++;
    closedir(d);
    return n;
}

typedef struct atomic_ctx {
    sqe_store *st;
    const char *path;
    volatile bool done;
    int torn;
    int reads;
} atomic_ctx;

static void *reader_thread(void *arg) {
    atomic_ctx *a = arg;
    static char buf[65536];
    while (!a->done) {
        sqe_error err;
        size_t n = 0;
        if (!a->st->vt->get_range(a->st, a->path, 0, sizeof buf, buf, &n, &err)) {
            a->torn++; /* the object must never be missing during overwrite */
            continue;
        }
        a->reads++;
        if (n != 40000) {
            a->torn++;
            continue;
        }
        for (size_t i = 1; i < n; i++)
            if (buf[i] != buf[0]) {
                a->torn++;
                break;
            }
    }
    return NULL;
}

/* `root` is a folder URL/path in `st`; `fs_root` the same folder on disk,
 * for checks that look behind the store's back (NULL for S3: skipped). */
static void conformance(sqe_store *st, const char *root, const char *fs_root) {
    sqe_error err;
    char p_a[512], p_b[512], p_c[512], p_sub[512], p_deep[512], p_missing[512];
    snprintf(p_a, sizeof p_a, "%s/t/a.csv", root);
    snprintf(p_b, sizeof p_b, "%s/t/sub/b.csv", root);
    snprintf(p_c, sizeof p_c, "%s/t/sub/deep/c.csv", root);
    snprintf(p_sub, sizeof p_sub, "%s/t/sub", root);
    snprintf(p_deep, sizeof p_deep, "%s/t/sub/deep", root);
    snprintf(p_missing, sizeof p_missing, "%s/t/missing.csv", root);

    /* put creates parent folders */
    CHECK(put_str(st, p_a, "hello world\n"));
    CHECK(put_str(st, p_b, "bb"));
    CHECK(put_str(st, p_c, ""));

    /* non-recursive list: files and folders, paths in the prefix's form */
    char t_dir[512], t_dir_slash[512];
    snprintf(t_dir, sizeof t_dir, "%s/t", root);
    snprintf(t_dir_slash, sizeof t_dir_slash, "%s/t/", root);
    seen s = {0};
    CHECK(st->vt->list(st, t_dir, false, collect, &s, &err));
    CHECK(s.n == 2);
    int ia = find_seen(&s, p_a), isub = find_seen(&s, p_sub);
    CHECK(ia >= 0 && isub >= 0);
    if (ia >= 0) {
        CHECK(!s.is_dir[ia]);
        CHECK(s.size[ia] == 12);
        CHECK_STR(s.name[ia], "a.csv");
        CHECK(s.mtime[ia] > 0);
    }
    if (isub >= 0) {
        CHECK(s.is_dir[isub]);
        CHECK(s.size[isub] == 0);
        CHECK_STR(s.name[isub], "sub");
    }
    /* a trailing '/' on the prefix gives the same paths */
    memset(&s, 0, sizeof s);
    CHECK(st->vt->list(st, t_dir_slash, false, collect, &s, &err));
    CHECK(s.n == 2 && find_seen(&s, p_a) >= 0 && find_seen(&s, p_sub) >= 0);

    /* recursive: every file below, no folder entries */
    memset(&s, 0, sizeof s);
    CHECK(st->vt->list(st, t_dir, true, collect, &s, &err));
    CHECK(s.n == 3);
    CHECK(find_seen(&s, p_a) >= 0);
    CHECK(find_seen(&s, p_b) >= 0);
    CHECK(find_seen(&s, p_c) >= 0);
    for (int i = 0; i < s.n && i < MAX_SEEN; i++) CHECK(!s.is_dir[i]);
    int ib = find_seen(&s, p_b);
    if (ib >= 0) {
        CHECK(s.size[ib] == 2);
        CHECK_STR(s.name[ib], "b.csv");
    }

    /* early stop is not an error */
    memset(&s, 0, sizeof s);
    s.stop_after = 1;
    CHECK(st->vt->list(st, t_dir, true, collect, &s, &err));
    CHECK(s.n == 1);

    /* a missing prefix (or one naming a file) lists nothing */
    char p_nodir[512];
    snprintf(p_nodir, sizeof p_nodir, "%s/no/such/folder", root);
    memset(&s, 0, sizeof s);
    CHECK(st->vt->list(st, p_nodir, false, collect, &s, &err));
    CHECK(s.n == 0);
    CHECK(st->vt->list(st, p_nodir, true, collect, &s, &err));
    CHECK(s.n == 0);
    CHECK(st->vt->list(st, p_a, false, collect, &s, &err));
    CHECK(s.n == 0);

    /* head */
    sqe_io_entry e;
    CHECK(st->vt->head(st, p_a, &e, &err));
    CHECK(e.size == 12 && !e.is_dir && e.mtime_us > 0);
    CHECK_STR(e.name, "a.csv");
    CHECK(!st->vt->head(st, p_missing, &e, &err));
    CHECK(err.cls == SQE_ERR_NOT_FOUND);
    CHECK_CONTAINS(err.msg, p_missing);
    CHECK(!st->vt->head(st, p_sub, &e, &err));
    CHECK(err.cls == SQE_ERR_NOT_FOUND);

    /* get_range: middle, short read at end, past end, missing */
    char buf[64];
    size_t n = 99;
    CHECK(st->vt->get_range(st, p_a, 6, 5, buf, &n, &err));
    CHECK(n == 5 && memcmp(buf, "world", 5) == 0);
    CHECK(st->vt->get_range(st, p_a, 6, 64, buf, &n, &err));
    CHECK(n == 6 && memcmp(buf, "world\n", 6) == 0);
    CHECK(st->vt->get_range(st, p_a, 100, 10, buf, &n, &err));
    CHECK(n == 0);
    CHECK(st->vt->get_range(st, p_c, 0, 10, buf, &n, &err));
    CHECK(n == 0);
    CHECK(!st->vt->get_range(st, p_missing, 0, 10, buf, &n, &err));
    CHECK(err.cls == SQE_ERR_NOT_FOUND);
    CHECK_CONTAINS(err.msg, p_missing);

    /* get_tail (suffix range): the last bytes and the size in one request;
     * a suffix longer than the object, an empty object, a missing one */
    uint64_t osize = 99;
    CHECK(st->vt->get_tail != NULL);
    CHECK(st->vt->get_tail(st, p_a, 6, buf, &n, &osize, &err));
    CHECK(n == 6 && osize == 12 && memcmp(buf, "world\n", 6) == 0);
    CHECK(st->vt->get_tail(st, p_a, 64, buf, &n, &osize, &err));
    CHECK(n == 12 && osize == 12 && memcmp(buf, "hello world\n", 12) == 0);
    CHECK(st->vt->get_tail(st, p_c, 64, buf, &n, &osize, &err));
    CHECK(n == 0 && osize == 0);
    CHECK(!st->vt->get_tail(st, p_missing, 8, buf, &n, &osize, &err));
    CHECK(err.cls == SQE_ERR_NOT_FOUND);
    CHECK_CONTAINS(err.msg, p_missing);

    /* overwrite replaces, leaves no temp file behind */
    CHECK(put_str(st, p_a, "new"));
    CHECK(st->vt->get_range(st, p_a, 0, 64, buf, &n, &err));
    CHECK(n == 3 && memcmp(buf, "new", 3) == 0);
    char fs_t[512];
    snprintf(fs_t, sizeof fs_t, "%s/t", fs_root ? fs_root : "");
    if (fs_root) CHECK(count_raw(fs_t, ".") == 2); /* only "." and ".." */

    /* put_if_absent: creates a missing object, refuses an existing one
     * (content untouched, no temp file left) */
    char *p_new = sqe_io_join(t_dir, "new.json");
    CHECK(st->vt->put_if_absent(st, p_new, "one", 3, &err));
    CHECK(!st->vt->put_if_absent(st, p_new, "two", 3, &err));
    CHECK(err.cls == SQE_ERR_ALREADY_EXISTS);
    CHECK_CONTAINS(err.msg, p_new);
    CHECK(st->vt->get_range(st, p_new, 0, 64, buf, &n, &err));
    CHECK(n == 3 && memcmp(buf, "one", 3) == 0);
    if (fs_root) CHECK(count_raw(fs_t, ".") == 2);
    /* conditional replace (version + put_if_match, SPEC §2.4): the token
     * of the current object replaces it; a stale one is ALREADY_EXISTS and
     * writes nothing; a deleted object has no version */
    char v1[SQE_IO_VERSION_MAX], v2[SQE_IO_VERSION_MAX];
    CHECK(sqe_io_version(st, p_new, v1, sizeof v1, &err));
    CHECK(sqe_io_put_if_match(st, p_new, "three", 5, v1, &err));
    CHECK(sqe_io_version(st, p_new, v2, sizeof v2, &err));
    CHECK(strcmp(v1, v2) != 0);
    CHECK(!sqe_io_put_if_match(st, p_new, "four", 4, v1, &err));
    CHECK(err.cls == SQE_ERR_ALREADY_EXISTS);
    CHECK_CONTAINS(err.msg, "changed since it was read");
    CHECK(st->vt->get_range(st, p_new, 0, 64, buf, &n, &err));
    CHECK(n == 5 && memcmp(buf, "three", 5) == 0);
    if (fs_root) CHECK(count_raw(fs_t, ".") == 2);
    CHECK(st->vt->del(st, p_new, &err));
    CHECK(!sqe_io_version(st, p_new, v1, sizeof v1, &err));
    CHECK(err.cls == SQE_ERR_NOT_FOUND);
    sqe_free(p_new);

    /* a temp file left by a crashed writer is never listed */
    if (fs_root) {
        char fs_tmp[600];
        snprintf(fs_tmp, sizeof fs_tmp, "%s/.sqe-tmp.a.csv.1.1", fs_t);
        FILE *f = fopen(fs_tmp, "w");
        CHECK(f != NULL);
        if (f) fclose(f);
        memset(&s, 0, sizeof s);
        CHECK(st->vt->list(st, t_dir, false, collect, &s, &err));
        CHECK(s.n == 2);
        unlink(fs_tmp);
    }

    /* readers never see a torn object while it is overwritten */
    atomic_ctx ac = {.st = st, .path = p_b};
    char *big = sqe_malloc(40000);
    memset(big, 'A', 40000);
    CHECK(st->vt->put(st, p_b, big, 40000, &err));
    pthread_t th;
    pthread_create(&th, NULL, reader_thread, &ac);
    for (int i = 0; i < 40; i++) {
        memset(big, i % 2 ? 'A' : 'B', 40000);
        CHECK(st->vt->put(st, p_b, big, 40000, &err));
    }
    ac.done = true;
    pthread_join(th, NULL);
    CHECK(ac.torn == 0);
    sqe_free(big);

    /* read_all */
    char *data = NULL;
    size_t len = 0;
    CHECK(put_str(st, p_a, "0123456789"));
    CHECK(sqe_io_read_all(st, p_a, 10, &data, &len, &err));
    CHECK(len == 10 && data && strcmp(data, "0123456789") == 0);
    sqe_free(data);
    CHECK(!sqe_io_read_all(st, p_a, 9, &data, &len, &err));
    CHECK(err.cls == SQE_ERR_RESOURCE_EXHAUSTED);
    CHECK_CONTAINS(err.msg, p_a);
    CHECK(data == NULL);
    CHECK(!sqe_io_read_all(st, p_missing, 100, &data, &len, &err));
    CHECK(err.cls == SQE_ERR_NOT_FOUND);

    /* delete */
    CHECK(st->vt->del(st, p_c, &err));
    CHECK(!st->vt->head(st, p_c, &e, &err) && err.cls == SQE_ERR_NOT_FOUND);
    CHECK(!st->vt->del(st, p_c, &err));
    CHECK(err.cls == SQE_ERR_NOT_FOUND);
    CHECK_CONTAINS(err.msg, p_c);
    memset(&s, 0, sizeof s);
    CHECK(st->vt->list(st, t_dir, true, collect, &s, &err));
    CHECK(s.n == 2);
    (void)p_deep;

    /* every store counts its requests */
    if (st->vt->stats) {
        sqe_io_stats stats;
        st->vt->stats(st, &stats);
        CHECK(stats.n_list >= 8 && stats.n_get >= 10 && stats.n_head >= 3);
        CHECK(stats.n_put >= 45 && stats.n_del >= 2);
        CHECK(stats.bytes_written >= 41 * 40000 && stats.bytes_read >= 20);
    }
}

static void rm_rf(const char *path) {
    char *cmd = sqe_asprintf("rm -rf '%s'", path);
    CHECK(system(cmd) == 0);
    sqe_free(cmd);
}

static void test_local_conformance(void) {
    char tmpl[] = "/tmp/sqe-test-io-XXXXXX";
    char *dir = mkdtemp(tmpl);
    CHECK(dir != NULL);
    if (!dir) return;
    sqe_store *st = sqe_io_local_new();

    /* plain absolute paths */
    char root[256];
    snprintf(root, sizeof root, "%s/plain", dir);
    conformance(st, root, root);

    /* file:// URLs: entries come back as file:// URLs */
    char url[300], fs[256];
    snprintf(url, sizeof url, "file://%s/url", dir);
    snprintf(fs, sizeof fs, "%s/url", dir);
    conformance(st, url, fs);

    /* relative paths stay relative */
    char cwd[4096];
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    CHECK(chdir(dir) == 0);
    conformance(st, "rel", "rel");
    seen s = {0};
    sqe_error err;
    CHECK(st->vt->list(st, "rel/t", false, collect, &s, &err));
    CHECK(find_seen(&s, "rel/t/a.csv") >= 0);
    CHECK(chdir(cwd) == 0);

    /* OS errors become STORAGE naming the path (permissions do not apply to root) */
    if (geteuid() != 0) {
        char locked[300];
        snprintf(locked, sizeof locked, "%s/locked", dir);
        CHECK(mkdir(locked, 0000) == 0);
        memset(&s, 0, sizeof s);
        CHECK(!st->vt->list(st, locked, false, collect, &s, &err));
        CHECK(err.cls == SQE_ERR_STORAGE);
        CHECK_CONTAINS(err.msg, locked);
        CHECK_CONTAINS(err.msg, "Permission denied");
        char inside[400];
        snprintf(inside, sizeof inside, "%s/x.csv", locked);
        CHECK(!st->vt->put(st, inside, "x", 1, &err));
        CHECK(err.cls == SQE_ERR_STORAGE);
        CHECK_CONTAINS(err.msg, inside);
        chmod(locked, 0755);
    }
    /* errors that hold for root too: a symlink loop, a file used as a folder */
    char loop[300];
    snprintf(loop, sizeof loop, "%s/loop", dir);
    CHECK(symlink(loop, loop) == 0);
    sqe_io_entry e;
    CHECK(!st->vt->head(st, loop, &e, &err));
    CHECK(err.cls == SQE_ERR_STORAGE);
    CHECK_CONTAINS(err.msg, loop);
    CHECK_CONTAINS(err.msg, "Too many levels of symbolic links");
    char under_file[300];
    snprintf(under_file, sizeof under_file, "%s/plain/t/a.csv/x.csv", dir);
    CHECK(!st->vt->put(st, under_file, "x", 1, &err));
    CHECK(err.cls == SQE_ERR_STORAGE);
    CHECK_CONTAINS(err.msg, under_file);
    CHECK_CONTAINS(err.msg, "Not a directory");
    /* a recursive listing survives a symlink cycle and a dangling link */
    char cyc[300], cyc_link[400], dangling[300];
    snprintf(cyc, sizeof cyc, "%s/cyc/d", dir);
    snprintf(cyc_link, sizeof cyc_link, "%s/cyc/d/up", dir);
    snprintf(dangling, sizeof dangling, "%s/cyc/gone", dir);
    char cyc_file[400];
    snprintf(cyc_file, sizeof cyc_file, "%s/f.txt", cyc);
    CHECK(put_str(st, cyc_file, "f"));
    char cyc_root[300];
    snprintf(cyc_root, sizeof cyc_root, "%s/cyc", dir);
    CHECK(symlink(cyc_root, cyc_link) == 0);
    CHECK(symlink("/nonexistent/target", dangling) == 0);
    memset(&s, 0, sizeof s);
    CHECK(st->vt->list(st, cyc_root, true, collect, &s, &err));
    CHECK(s.n == 1);
    char want_f[400];
    snprintf(want_f, sizeof want_f, "%s/cyc/d/f.txt", dir);
    CHECK(find_seen(&s, want_f) >= 0);

    /* writing over a folder is a STORAGE error */
    char folder[300];
    snprintf(folder, sizeof folder, "%s/plain/t", dir);
    CHECK(!st->vt->put(st, folder, "x", 1, &err));
    CHECK(err.cls == SQE_ERR_STORAGE);
    CHECK_CONTAINS(err.msg, folder);
    CHECK(count_raw(folder, ".sqe-tmp.") == 0);

    sqe_store_free(st);
    rm_rf(dir);
}

/* Regression (issue 7, item 1): a FIFO named like a manifest or a data file
 * blocked the reader forever (open waited for a writer). head, get_range
 * and read_all now refuse anything that is not a regular file, naming the
 * path and what it is, without blocking; listings report it as `special`
 * so callers can refuse it by name. alarm() turns a regression into a
 * failure instead of a hung test. */
static void test_fifo_never_blocks(void) {
    char tmpl[] = "/tmp/sqe-test-io-fifo-XXXXXX";
    char *dir = mkdtemp(tmpl);
    CHECK(dir != NULL);
    if (!dir) return;
    alarm(30);
    sqe_store *st = sqe_io_local_new();
    sqe_error err;
    char fifo[300], reg[300], sub[300];
    snprintf(fifo, sizeof fifo, "%s/t.manifest.json", dir);
    snprintf(reg, sizeof reg, "%s/a.csv", dir);
    snprintf(sub, sizeof sub, "%s/sub", dir);
    CHECK(mkfifo(fifo, 0666) == 0);
    CHECK(put_str(st, reg, "1\n"));
    CHECK(mkdir(sub, 0755) == 0);

    sqe_io_entry e;
    CHECK(!st->vt->head(st, fifo, &e, &err));
    CHECK(err.cls == SQE_ERR_STORAGE);
    CHECK_CONTAINS(err.msg, fifo);
    CHECK_CONTAINS(err.msg, "it is a FIFO, not a regular file");
    char buf[16];
    size_t n = 99;
    CHECK(!st->vt->get_range(st, fifo, 0, sizeof buf, buf, &n, &err));
    CHECK(err.cls == SQE_ERR_STORAGE);
    CHECK_CONTAINS(err.msg, "it is a FIFO, not a regular file");
    CHECK(n == 0);
    char *data = NULL;
    size_t len = 0;
    CHECK(!sqe_io_read_all(st, fifo, 1 << 20, &data, &len, &err));
    CHECK_CONTAINS(err.msg, fifo);
    /* a folder read as an object: NOT_FOUND naming it, as head says */
    CHECK(!st->vt->get_range(st, sub, 0, sizeof buf, buf, &n, &err));
    CHECK(err.cls == SQE_ERR_NOT_FOUND);
    CHECK_CONTAINS(err.msg, "(it is a folder)");
    /* a device */
    if (access("/dev/null", F_OK) == 0) {
        CHECK(!st->vt->head(st, "/dev/null", &e, &err));
        CHECK_CONTAINS(err.msg, "it is a character device, not a regular file");
        CHECK(!st->vt->get_range(st, "/dev/zero", 0, sizeof buf, buf, &n, &err));
        CHECK_CONTAINS(err.msg, "it is a character device");
    }
    /* listings show it, marked, in both modes */
    for (int recursive = 0; recursive < 2; recursive++) {
        seen s = {0};
        CHECK(st->vt->list(st, dir, recursive, collect, &s, &err));
        int i = find_seen(&s, fifo);
        CHECK(i >= 0);
        if (i >= 0) CHECK(!s.is_dir[i] && s.size[i] == 0);
        CHECK(find_seen(&s, reg) >= 0);
    }
    /* the regular file still reads */
    CHECK(st->vt->get_range(st, reg, 0, sizeof buf, buf, &n, &err) && n == 2);
    alarm(0);
    sqe_store_free(st);
    rm_rf(dir);
}

static bool collect_special(const sqe_io_entry *e, void *ctx) {
    int *n = ctx;
    if (e->special && strcmp(e->special, "FIFO") == 0) (*n)++;
    return true;
}

/* Regression (issue 7, item 3): `tbl/up -> ..` made a table's own file
 * appear twice plus a sibling's data. Links are judged by the identity
 * (device + inode) of their target against the listed folder: to it, into
 * it, or to a folder containing it -> skipped; elsewhere -> followed once. */
static void test_symlink_identity(void) {
    char tmpl[] = "/tmp/sqe-test-io-links-XXXXXX";
    char *dir = mkdtemp(tmpl);
    CHECK(dir != NULL);
    if (!dir) return;
    sqe_store *st = sqe_io_local_new();
    sqe_error err;
    char p[6][400];
    snprintf(p[0], sizeof p[0], "%s/x/tbl/a.csv", dir);
    snprintf(p[1], sizeof p[1], "%s/x/tbl/sub/c.csv", dir);
    snprintf(p[2], sizeof p[2], "%s/x/sib/b.csv", dir);
    for (int i = 0; i < 3; i++) CHECK(put_str(st, p[i], "1\n"));
    char tbl[300];
    snprintf(tbl, sizeof tbl, "%s/x/tbl", dir);
    static const char *const links[][2] = {
        {".", "self"},          {"..", "up"},        {"../sib", "sib"},
        {"../sib", "sib2"},     {"sub", "in"},       {"a.csv", "copy.csv"},
        {"../../x", "grandup"}, {"sub/..", "self2"}, {"../sib/b.csv", "b_link.csv"},
    };
    for (size_t i = 0; i < SQE_ARRAY_LEN(links); i++) {
        char l[400];
        snprintf(l, sizeof l, "%s/%s", tbl, links[i][1]);
        CHECK(symlink(links[i][0], l) == 0);
    }
    seen s = {0};
    CHECK(st->vt->list(st, tbl, true, collect, &s, &err));
    /* a.csv, sub/c.csv, sib/b.csv (through the first of sib/sib2), b_link.csv */
    CHECK(s.n == 4);
    CHECK(find_seen(&s, p[0]) >= 0);
    CHECK(find_seen(&s, p[1]) >= 0);
    char via[2][400];
    snprintf(via[0], sizeof via[0], "%s/sib/b.csv", tbl);
    snprintf(via[1], sizeof via[1], "%s/sib2/b.csv", tbl);
    CHECK((find_seen(&s, via[0]) >= 0) != (find_seen(&s, via[1]) >= 0));
    snprintf(via[0], sizeof via[0], "%s/b_link.csv", tbl);
    CHECK(find_seen(&s, via[0]) >= 0);
    /* non-recursive: the skipped links are not children; sib and sib2 are
     * folders (each listing is separate, so both show) */
    memset(&s, 0, sizeof s);
    CHECK(st->vt->list(st, tbl, false, collect, &s, &err));
    CHECK(s.n == 5); /* a.csv, sub/, sib/, sib2/, b_link.csv */
    snprintf(via[0], sizeof via[0], "%s/sib", tbl);
    int i = find_seen(&s, via[0]);
    CHECK(i >= 0 && s.is_dir[i]);
    snprintf(via[0], sizeof via[0], "%s/up", tbl);
    CHECK(find_seen(&s, via[0]) < 0);
    /* listing through a link to the location: the same answer */
    char alias[300];
    snprintf(alias, sizeof alias, "%s/alias", dir);
    CHECK(symlink(tbl, alias) == 0);
    memset(&s, 0, sizeof s);
    CHECK(st->vt->list(st, alias, true, collect, &s, &err));
    CHECK(s.n == 4);
    /* FIFOs reached through a link are reported as special too */
    char fifo[400], fifo_link[400];
    snprintf(fifo, sizeof fifo, "%s/x/sib/pipe", dir);
    snprintf(fifo_link, sizeof fifo_link, "%s/pipe_link", tbl);
    CHECK(mkfifo(fifo, 0666) == 0);
    CHECK(symlink(fifo, fifo_link) == 0);
    int n_special = 0;
    CHECK(st->vt->list(st, tbl, false, collect_special, &n_special, &err));
    CHECK(n_special == 1);
    sqe_store_free(st);
    rm_rf(dir);
}

/* Regression (issue 7, item 13): a root folder that does not exist (or is
 * a file) attached silently. */
static void test_check_folder(void) {
    char tmpl[] = "/tmp/sqe-test-io-root-XXXXXX";
    char *dir = mkdtemp(tmpl);
    CHECK(dir != NULL);
    if (!dir) return;
    sqe_error err;
    char path[300], url[320];
    CHECK(sqe_io_check_folder(dir, &err));
    snprintf(url, sizeof url, "file://%s", dir);
    CHECK(sqe_io_check_folder(url, &err));
    snprintf(path, sizeof path, "%s/missing", dir);
    CHECK(!sqe_io_check_folder(path, &err));
    CHECK(err.cls == SQE_ERR_NOT_FOUND);
    CHECK_CONTAINS(err.msg, path);
    CHECK_CONTAINS(err.msg, "does not exist");
    CHECK_CONTAINS(err.msg, "S3 roots at first use");
    snprintf(path, sizeof path, "%s/f", dir);
    sqe_store *st = sqe_io_local_new();
    CHECK(put_str(st, path, "x"));
    sqe_store_free(st);
    CHECK(!sqe_io_check_folder(path, &err));
    CHECK(err.cls == SQE_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(err.msg, "is a file, not a folder");
    snprintf(path, sizeof path, "%s/f/below", dir);
    CHECK(!sqe_io_check_folder(path, &err));
    CHECK_CONTAINS(err.msg, "a part of the path is a file");
    CHECK(sqe_io_check_folder("s3://bucket/never/checked/", &err));
    CHECK(!sqe_io_check_folder("gs://bucket/x", &err));
    CHECK(err.cls == SQE_ERR_NOT_SUPPORTED);
    rm_rf(dir);
}

/* The same conformance suite against an S3 server, when the S3 integration
 * script (tests/integration/s3/run.sh) gives one: SQE_TEST_S3_ENDPOINT,
 * SQE_TEST_S3_BUCKET (an existing bucket), SQE_TEST_S3_KEY/SECRET. */
static void test_s3_conformance(void) {
    const char *endpoint = getenv("SQE_TEST_S3_ENDPOINT");
    if (!endpoint || !*endpoint) {
        fprintf(stderr, "test_io: SQE_TEST_S3_ENDPOINT not set, S3 conformance skipped\n");
        return;
    }
    const char *bucket = getenv("SQE_TEST_S3_BUCKET");
    sqe_s3_config cfg;
    sqe_s3_config_defaults(&cfg);
    cfg.endpoint = sqe_strdup(endpoint);
    cfg.region = sqe_strdup("us-east-1");
    sqe_s3_creds keys = {.access_key = getenv("SQE_TEST_S3_KEY"),
                         .secret_key = getenv("SQE_TEST_S3_SECRET")};
    if (!keys.access_key) keys.access_key = "test";
    if (!keys.secret_key) keys.secret_key = "test";
    sqe_s3_cred_source *src = sqe_s3_cred_static_new(&keys);
    sqe_error err;
    sqe_store *st = sqe_io_s3_new(&cfg, bucket ? bucket : "test-bucket", src, &err);
    CHECK(st != NULL);
    if (st) {
        char root[256];
        snprintf(root, sizeof root, "s3://%s/conformance-%d", bucket ? bucket : "test-bucket",
                 (int)getpid());
        conformance(st, root, NULL);
        /* the local-only STORAGE cases have S3 counterparts: another bucket */
        sqe_io_entry e;
        CHECK(!st->vt->head(st, "s3://other-bucket/x", &e, &err));
        CHECK(err.cls == SQE_ERR_INVALID_ARGUMENT);
        CHECK_CONTAINS(err.msg, "other-bucket");
        sqe_store_free(st);
    }
    sqe_s3_cred_source_free(src);
    sqe_s3_config_clear(&cfg);
}

/* A store whose object is "replaced" during the first `flaky` reads: its
 * get_range fails as S3's does when If-Match gets 412. */
typedef struct flaky_store {
    sqe_store base;
    int flaky, gets;
} flaky_store;

static bool flaky_head(sqe_store *st, const char *path, sqe_io_entry *out, sqe_error *err) {
    SQE_UNUSED(err);
    memset(out, 0, sizeof *out);
    out->path = path;
    out->size = 5;
    return true;
}

static bool flaky_get_range(sqe_store *st, const char *path, uint64_t off, size_t len, void *buf,
                            size_t *n, sqe_error *err) {
    flaky_store *f = (flaky_store *)st;
    if (f->gets++ < f->flaky)
        return sqe_error_set(err, SQE_ERR_STORAGE, "object '%s' " SQE_IO_CHANGED_MARK " (test)",
                             path);
    const char *text = "hello";
    *n = off >= 5 ? 0 : SQE_MIN(len, (size_t)(5 - off));
    memcpy(buf, text + off, *n);
    return true;
}

static void test_read_all_reread(void) {
    static const sqe_store_vtable vt = {
        .name = "flaky", .head = flaky_head, .get_range = flaky_get_range};
    char *data = NULL;
    size_t len = 0;
    sqe_error err;
    sqe_error_clear(&err);
    flaky_store f = {{&vt}, 2, 0}; /* replaced twice, then stable: the third read works */
    CHECK(sqe_io_read_all(&f.base, "m.json", 100, &data, &len, &err));
    CHECK(data && len == 5 && memcmp(data, "hello", 5) == 0);
    sqe_free(data);
    flaky_store g = {{&vt}, 3, 0}; /* still changing at the third read: the error stays */
    CHECK(!sqe_io_read_all(&g.base, "m.json", 100, &data, &len, &err));
    CHECK(err.cls == SQE_ERR_STORAGE && strstr(err.msg, SQE_IO_CHANGED_MARK) != NULL);
    CHECK(g.gets == 3);
}

int main(void) {
    RUN(test_check_url);
    RUN(test_store_for_url);
    RUN(test_paths);
    RUN(test_read_all_reread);
    RUN(test_local_conformance);
    RUN(test_fifo_never_blocks);
    RUN(test_symlink_identity);
    RUN(test_check_folder);
    RUN(test_s3_conformance);
    return unit_report();
}
