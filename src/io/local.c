/*
 * local.c - the local-disk object store: file:///abs/path URLs and plain
 * paths, behind the same vtable S3 will use.
 *
 * The backend imitates an object store rather than exposing POSIX:
 *  - list of a missing prefix lists nothing; a non-recursive list reports
 *    sub-folders as is_dir entries (S3's common prefixes), a recursive list
 *    reports files only. Entries' paths keep the spelling of the prefix the
 *    caller gave (file:// stays file://, relative stays relative).
 *  - put is atomic: the bytes go to a temp file in the destination folder
 *    (".sqe-tmp.<name>.<pid>.<n>"), are fsync'd, then renamed over the
 *    target, and the folder is fsync'd. put_if_absent links the temp file
 *    to the target instead (link(2) fails with EEXIST if the name is taken,
 *    so of concurrent creators exactly one wins) and removes the temp. Listings never show these
 * temp files, so a concurrent reader sees the old object or the new one, as on S3. Parent folders
 * are created on demand (S3 has no folders to create).
 *  - head and get_range of a missing file are NOT_FOUND naming the path;
 *    a folder is not an object (NOT_FOUND for head).
 *  - Every other OS failure is SQE_ERR_STORAGE with the path as the caller
 *    wrote it and strerror.
 *
 * The store keeps no state: one instance may be used by many threads, and
 * get_range opens the file per call (a reader asks for megabytes at a time,
 * so the open is noise).
 */
#include "io/io.h"
#include "io/sigv4.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define TMP_PREFIX ".sqe-tmp."
#define TMP_PREFIX_LEN (sizeof(TMP_PREFIX) - 1)

typedef struct local_store {
    sqe_store base;
    /* request counters (stats): relaxed atomics, the store is shared */
    _Atomic uint64_t n_list, n_get, n_head, n_put, n_del, bytes_read, bytes_written;
} local_store;

#define COUNT(s, field, n)                                                                         \
    atomic_fetch_add_explicit(&((local_store *)(s))->field, (n), memory_order_relaxed)

static const char *errstr(int e, char *buf, size_t n) {
    /* GNU strerror_r (the tree builds with _GNU_SOURCE) may return a static
     * string instead of filling buf. */
    return strerror_r(e, buf, n);
}

static bool os_error(sqe_error *err, const char *what, const char *path, int e) {
    char buf[128];
    return sqe_error_set(err, SQE_ERR_STORAGE, "cannot %s '%s': %s", what, path,
                         errstr(e, buf, sizeof buf));
}

static int64_t mtime_us(const struct stat *st) {
    return (int64_t)st->st_mtim.tv_sec * 1000000 + st->st_mtim.tv_nsec / 1000;
}

static const char *last_segment(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* ------------------------------------------------------------------ list */

typedef struct ancestor {
    dev_t dev;
    ino_t ino;
    const struct ancestor *up;
} ancestor;

typedef struct file_id {
    dev_t dev;
    ino_t ino;
} file_id;

typedef struct list_state {
    bool recursive;
    sqe_io_list_cb cb;
    void *ctx;
    bool stopped; /* the callback asked to stop */
    sqe_strbuf
        shown;   /* path of the current folder as the caller spells it, ending in '/' (or empty) */
    int root_fd; /* O_PATH descriptor of the listed folder (the boundary) */
    struct stat root_st;       /* its identity */
    SQE_ARRAY(file_id) linked; /* folders entered through a link in this listing */
    sqe_error *err;
} list_state;

static bool is_ancestor(const ancestor *a, const struct stat *st) {
    for (; a; a = a->up)
        if (a->dev == st->st_dev && a->ino == st->st_ino) return true;
    return false;
}

static bool same_id(const struct stat *a, const struct stat *b) {
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* True when the folder open as `fd` is `target` or lies below it. Walks ".."
 * up to "/" comparing identities (device + inode), so every spelling of a
 * path compares equal. O_PATH needs only search permission on the way up;
 * a folder that cannot be opened ends the walk (answer: not within). */
static bool folder_within(int fd, const struct stat *target) {
    int cur = openat(fd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
    bool within = false;
    for (int depth = 0; cur >= 0 && depth < 4096 && !within; depth++) {
        struct stat st, ust;
        if (fstat(cur, &st) != 0) break;
        if (same_id(&st, target)) {
            within = true;
            break;
        }
        int up = openat(cur, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (up < 0) break;
        bool top = fstat(up, &ust) != 0 || same_id(&ust, &st); /* "/" is its own parent */
        close(cur);
        cur = up;
        if (top) break;
    }
    if (cur >= 0) close(cur);
    return within;
}

/* Decides whether the symbolic link `name` (in the folder open as dfd,
 * shown as st->shown) may be followed. A link whose target is the listed
 * folder, lies inside it, or contains it is skipped: the target's files are
 * listed under their own names anyway (or, for a folder that contains the
 * listed one, belong to something else), so following it would list files
 * twice or loop. Links to anything else are followed, as Hive does. */
static bool link_allowed(list_state *st, int dfd, const char *name, const struct stat *target) {
    const char *why = NULL;
    int fd = -1;
    if (S_ISDIR(target->st_mode)) {
        fd = openat(dfd, name, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (same_id(target, &st->root_st))
            why = "the listed folder itself (a loop)";
        else if (fd >= 0 && folder_within(fd, &st->root_st))
            why = "inside the listed folder, where its files are listed under their own names";
        else if (folder_within(st->root_fd, target))
            why = "a folder that contains the listed folder (following it would loop and list "
                  "files that are not below the listed folder)";
    } else {
        /* A file: where does it really live? */
        char *local = sqe_io_local_path(st->shown.data);
        char *real = realpath(local, NULL);
        sqe_free(local);
        if (real) {
            char *slash = strrchr(real, '/');
            if (slash) *(slash == real ? slash + 1 : slash) = '\0';
            fd = open(real, O_PATH | O_DIRECTORY | O_CLOEXEC);
            if (fd >= 0 && folder_within(fd, &st->root_st))
                why = "inside the listed folder, where it is listed under its own name";
            free(real);
        }
    }
    if (fd >= 0) close(fd);
    if (why)
        sqe_log(SQE_LOG_WARN, "io", "skipping symbolic link '%s': its target is %s", st->shown.data,
                why);
    return why == NULL;
}

/* A folder reached through a link is listed once per listing, however many
 * links lead to it. */
static bool link_seen_before(list_state *st, const struct stat *target) {
    for (size_t i = 0; i < st->linked.len; i++)
        if (st->linked.items[i].dev == target->st_dev &&
            st->linked.items[i].ino == target->st_ino) {
            sqe_log(SQE_LOG_WARN, "io",
                    "skipping symbolic link '%s': its target folder was already listed through "
                    "another link",
                    st->shown.data);
            return true;
        }
    file_id id = {target->st_dev, target->st_ino};
    SQE_ARRAY_PUSH(NULL, st->linked, id);
    return false;
}

static const char *special_kind(mode_t m) {
    if (S_ISFIFO(m)) return "FIFO";
    if (S_ISSOCK(m)) return "socket";
    if (S_ISCHR(m)) return "character device";
    if (S_ISBLK(m)) return "block device";
    return "special file";
}

typedef enum { ENT_SKIP, ENT_FILE, ENT_DIR, ENT_SPECIAL, ENT_ERROR } ent_kind;

/* What the entry `name` of the folder open as dfd is, after following a
 * symbolic link (st->shown holds its displayed path). Fills *est when it
 * had to stat (files, links, special files; plain folders skip the stat). */
static ent_kind classify(list_state *st, int dfd, const struct dirent *de, struct stat *est,
                         bool *have_stat) {
    const char *name = de->d_name;
    bool maybe_link = true;
    *have_stat = false;
#ifdef _DIRENT_HAVE_D_TYPE
    if (de->d_type == DT_DIR) return ENT_DIR;
    maybe_link = de->d_type == DT_LNK || de->d_type == DT_UNKNOWN;
#endif
    bool is_link = false;
    if (maybe_link) {
        struct stat lst;
        if (fstatat(dfd, name, &lst, AT_SYMLINK_NOFOLLOW) != 0) {
            if (errno == ENOENT) return ENT_SKIP; /* removed meanwhile */
            os_error(st->err, "stat", st->shown.data, errno);
            return ENT_ERROR;
        }
        is_link = S_ISLNK(lst.st_mode);
    }
    if (fstatat(dfd, name, est, 0) != 0) {
        int e = errno;
        if (e == ENOENT) return ENT_SKIP; /* removed meanwhile, or a dangling link */
        os_error(st->err, "stat", st->shown.data, e);
        return ENT_ERROR;
    }
    *have_stat = true;
    if (is_link && (S_ISDIR(est->st_mode) || S_ISREG(est->st_mode)) &&
        !link_allowed(st, dfd, name, est))
        return ENT_SKIP;
    if (S_ISDIR(est->st_mode))
        return is_link && st->recursive && link_seen_before(st, est) ? ENT_SKIP : ENT_DIR;
    return S_ISREG(est->st_mode) ? ENT_FILE : ENT_SPECIAL;
}

/* Lists the folder open as `fd` (taken over: closed here). st->shown holds
 * its displayed path. */
static bool list_fd(int fd, const ancestor *up, list_state *st) {
    struct stat self;
    if (fstat(fd, &self) != 0) {
        int e = errno;
        close(fd);
        return os_error(st->err, "list", st->shown.data, e);
    }
    ancestor me = {self.st_dev, self.st_ino, up};
    DIR *d = fdopendir(fd);
    if (!d) {
        int e = errno;
        close(fd);
        return os_error(st->err, "list", st->shown.data, e);
    }
    bool ok = true;
    size_t shown_len = st->shown.len;
    for (;;) {
        errno = 0;
        struct dirent *de = readdir(d);
        if (!de) {
            if (errno) ok = os_error(st->err, "list", st->shown.data, errno);
            break;
        }
        const char *name = de->d_name;
        if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'))) continue;
        if (strncmp(name, TMP_PREFIX, TMP_PREFIX_LEN) == 0) continue;

        st->shown.len = shown_len;
        sqe_strbuf_puts(&st->shown, name);
        struct stat est;
        bool have_stat;
        ent_kind kind = classify(st, dirfd(d), de, &est, &have_stat);
        if (kind == ENT_ERROR) {
            ok = false;
            break;
        }
        if (kind == ENT_SKIP) continue;
        bool is_dir = kind == ENT_DIR;
        if (is_dir && st->recursive) {
            /* Hard links to folders do not exist, so only a symbolic link can
             * lead back up the tree. */
            if (have_stat && is_ancestor(&me, &est)) continue;
            int sub = openat(dirfd(d), name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            if (sub < 0) {
                if (errno == ENOENT) continue;
                ok = os_error(st->err, "list", st->shown.data, errno);
                break;
            }
            sqe_strbuf_putc(&st->shown, '/');
            ok = list_fd(sub, &me, st);
            if (!ok || st->stopped) break;
            continue;
        }
        sqe_io_entry e = {
            .path = st->shown.data,
            .name = st->shown.data + shown_len,
            .is_dir = is_dir,
            .size = kind == ENT_FILE ? (uint64_t)est.st_size : 0,
            .mtime_us = have_stat ? mtime_us(&est) : 0,
            .special = kind == ENT_SPECIAL ? special_kind(est.st_mode) : NULL,
        };
        if (!st->cb(&e, st->ctx)) {
            st->stopped = true;
            break;
        }
    }
    st->shown.len = shown_len;
    st->shown.data[shown_len] = '\0';
    closedir(d);
    return ok;
}

static bool local_list(sqe_store *s, const char *prefix, bool recursive, sqe_io_list_cb cb,
                       void *ctx, sqe_error *err) {
    COUNT(s, n_list, 1);
    list_state st = {.recursive = recursive, .cb = cb, .ctx = ctx, .err = err, .root_fd = -1};
    sqe_strbuf_init(&st.shown);
    if (prefix[0]) {
        char *dir = sqe_io_join(prefix, ""); /* "prefix/" with exactly one '/' */
        sqe_strbuf_puts(&st.shown, dir);
        sqe_free(dir);
    }
    char *local = sqe_io_local_path(st.shown.data ? st.shown.data : "");
    bool ok = true;
    int fd = open(local[0] ? local : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        /* A prefix that does not exist (or is a file) lists nothing, as on S3. */
        if (errno != ENOENT && errno != ENOTDIR) ok = os_error(err, "list", prefix, errno);
    } else if ((st.root_fd = openat(fd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0 ||
               fstat(st.root_fd, &st.root_st) != 0) {
        ok = os_error(err, "list", prefix, errno);
        close(fd);
    } else {
        ok = list_fd(fd, NULL, &st);
    }
    if (st.root_fd >= 0) close(st.root_fd);
    SQE_ARRAY_FREE(st.linked);
    sqe_free(local);
    sqe_strbuf_free(&st.shown);
    return ok;
}

/* ------------------------------------------------------------- head/read */

/* A FIFO, socket or device where an object was expected: never opened for
 * reading (a FIFO would block until a writer comes, a device never ends). */
static bool not_regular(sqe_error *err, const char *path, const struct stat *st) {
    return sqe_error_set(err, SQE_ERR_STORAGE,
                         "cannot read '%s': it is a %s, not a regular file; sqe reads only "
                         "regular files (remove or rename it)",
                         path, special_kind(st->st_mode));
}

static bool local_head(sqe_store *s, const char *path, sqe_io_entry *out, sqe_error *err) {
    COUNT(s, n_head, 1);
    char *local = sqe_io_local_path(path);
    struct stat st;
    int rc = stat(local, &st);
    int e = errno;
    sqe_free(local);
    if (rc != 0) {
        if (e == ENOENT || e == ENOTDIR)
            return sqe_error_set(err, SQE_ERR_NOT_FOUND, "file '%s' not found", path);
        return os_error(err, "stat", path, e);
    }
    if (S_ISDIR(st.st_mode))
        return sqe_error_set(err, SQE_ERR_NOT_FOUND, "file '%s' not found (it is a folder)", path);
    if (!S_ISREG(st.st_mode)) return not_regular(err, path, &st);
    out->path = path;
    out->name = last_segment(path);
    out->is_dir = false;
    out->size = (uint64_t)st.st_size;
    out->mtime_us = mtime_us(&st);
    return true;
}

/* Opens `path` for reading and checks it is a regular file (*st filled);
 * -1 with *err set otherwise. */
static int local_open_read(const char *path, struct stat *st, sqe_error *err) {
    char *local = sqe_io_local_path(path);
    /* O_NONBLOCK: opening a FIFO without a writer must not wait for one. It
     * does nothing for regular files, the only thing read below. */
    int fd = open(local, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    int e = errno;
    sqe_free(local);
    if (fd < 0) {
        if (e == ENOENT || e == ENOTDIR)
            sqe_error_set(err, SQE_ERR_NOT_FOUND, "file '%s' not found", path);
        else
            os_error(err, "open", path, e);
        return -1;
    }
    if (fstat(fd, st) != 0) {
        e = errno;
        close(fd);
        os_error(err, "stat", path, e);
        return -1;
    }
    if (!S_ISREG(st->st_mode)) {
        close(fd);
        if (S_ISDIR(st->st_mode))
            sqe_error_set(err, SQE_ERR_NOT_FOUND, "file '%s' not found (it is a folder)", path);
        else
            not_regular(err, path, st);
        return -1;
    }
    return fd;
}

/* pread loop: up to len bytes at offset (short only at end of file). */
static bool local_pread(int fd, const char *path, uint64_t offset, size_t len, void *buf,
                        size_t *n_read, sqe_error *err) {
    size_t got = 0;
    while (got < len) {
        ssize_t n = pread(fd, (char *)buf + got, len - got, (off_t)(offset + got));
        if (n < 0) {
            if (errno == EINTR) continue;
            return os_error(err, "read", path, errno);
        }
        if (n == 0) break;
        got += (size_t)n;
    }
    *n_read = got;
    return true;
}

static bool local_get_range(sqe_store *s, const char *path, uint64_t offset, size_t len, void *buf,
                            size_t *n_read, sqe_error *err) {
    *n_read = 0;
    COUNT(s, n_get, 1);
    struct stat fst;
    int fd = local_open_read(path, &fst, err);
    if (fd < 0) return false;
    bool ok = local_pread(fd, path, offset, len, buf, n_read, err);
    close(fd);
    if (ok) COUNT(s, bytes_read, *n_read);
    return ok;
}

/* The suffix read: one open + fstat + pread, the size from fstat. */
static bool local_get_tail(sqe_store *s, const char *path, size_t len, void *buf, size_t *n_read,
                           uint64_t *object_size, sqe_error *err) {
    *n_read = 0;
    *object_size = 0;
    COUNT(s, n_get, 1);
    struct stat fst;
    int fd = local_open_read(path, &fst, err);
    if (fd < 0) return false;
    uint64_t size = (uint64_t)fst.st_size;
    uint64_t off = size > len ? size - len : 0;
    bool ok = local_pread(fd, path, off, (size_t)(size - off), buf, n_read, err);
    close(fd);
    if (ok) {
        *object_size = size;
        COUNT(s, bytes_read, *n_read);
    }
    return ok;
}

/* ------------------------------------------------------------ put/delete */

/* mkdir -p: creates every missing folder of `dir` (a local path). */
static bool make_dirs(char *dir, sqe_error *err) {
    struct stat st;
    if (dir[0] == '\0' || stat(dir, &st) == 0) return true;
    for (char *p = dir + 1;; p++) {
        if (*p != '/' && *p != '\0') continue;
        char saved = *p;
        *p = '\0';
        if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
            int e = errno;
            bool r = os_error(err, "create folder", dir, e);
            *p = saved;
            return r;
        }
        *p = saved;
        if (saved == '\0') break;
    }
    return true;
}

static bool write_all(int fd, const void *data, size_t len) {
    const char *p = data;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        p += n;
        len -= (size_t)n;
    }
    return true;
}

static atomic_uint g_tmp_counter;

/* Makes `tmp` visible as `local` only if nothing has that name: link(2)
 * (EEXIST if taken); where the file system has no hard links, renameat2
 * with RENAME_NOREPLACE (same guarantee). errno is set on failure. */
static bool publish_new(const char *tmp, const char *local) {
    if (link(tmp, local) == 0) return true;
    if (errno != EPERM && errno != EOPNOTSUPP && errno != ENOSYS) return false;
    if (renameat2(AT_FDCWD, tmp, AT_FDCWD, local, RENAME_NOREPLACE) != 0) return false;
    /* the temp name is gone: the caller's unlink of it fails harmlessly */
    return true;
}

/* put (replace = true: rename over the target) and put_if_absent (replace =
 * false: link the temp file to the target, which fails with EEXIST if
 * anything has that name, then unlink the temp). Both publish a complete,
 * fsync'd file in one step. */
static bool local_write(const char *path, const void *data, size_t len, bool replace,
                        sqe_error *err) {
    bool ok = false;
    int fd = -1;
    char *local = sqe_io_local_path(path), *dir = NULL, *tmp = NULL;
    size_t local_len = strlen(local);
    if (local_len == 0 || local[local_len - 1] == '/') {
        sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT, "cannot write '%s': the path names a folder",
                      path);
        goto out;
    }
    const char *base = last_segment(local);
    dir = base == local ? sqe_strdup(".") : sqe_strndup(local, (size_t)(base - local - 1));
    if (dir[0] == '\0') { /* a file in "/" */
        sqe_free(dir);
        dir = sqe_strdup("/");
    }
    if (!make_dirs(dir, err)) goto out;

    /* The temp file lives next to the target so rename stays in one file
     * system; its name is bounded so long names still fit NAME_MAX. */
    for (int attempt = 0; fd < 0; attempt++) {
        sqe_free(tmp);
        tmp = sqe_asprintf("%s/" TMP_PREFIX "%.100s.%ld.%u", dir, base, (long)getpid(),
                           atomic_fetch_add(&g_tmp_counter, 1));
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && (errno != EEXIST || attempt > 100)) {
            os_error(err, "write", path, errno);
            sqe_free(tmp);
            tmp = NULL;
            goto out;
        }
    }
    if (!write_all(fd, data, len) || fsync(fd) != 0) {
        os_error(err, "write", path, errno);
        goto out;
    }
    int rc = close(fd);
    fd = -1;
    if (rc != 0) {
        os_error(err, "write", path, errno);
        goto out;
    }
    if (replace ? rename(tmp, local) != 0 : !publish_new(tmp, local)) {
        if (!replace && errno == EEXIST)
            sqe_error_set(err, SQE_ERR_ALREADY_EXISTS,
                          "cannot create '%s': it already exists (created concurrently?)", path);
        else
            os_error(err, "write", path, errno);
        goto out;
    }
    if (!replace) unlink(tmp);
    sqe_free(tmp);
    tmp = NULL;
    /* Make the rename itself durable. The object is already visible, so a
     * failure here is only logged. */
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0 || fsync(dfd) != 0)
        sqe_log(SQE_LOG_WARN, "io", "cannot fsync folder of '%s': %s", path, strerror(errno));
    if (dfd >= 0) close(dfd);
    ok = true;
out:
    if (fd >= 0) close(fd);
    if (tmp) unlink(tmp);
    sqe_free(tmp);
    sqe_free(dir);
    sqe_free(local);
    return ok;
}

static bool local_put(sqe_store *s, const char *path, const void *data, size_t len,
                      sqe_error *err) {
    COUNT(s, n_put, 1);
    bool ok = local_write(path, data, len, true, err);
    if (ok) COUNT(s, bytes_written, len);
    return ok;
}

static bool local_put_if_absent(sqe_store *s, const char *path, const void *data, size_t len,
                                sqe_error *err) {
    COUNT(s, n_put, 1);
    bool ok = local_write(path, data, len, false, err);
    if (ok) COUNT(s, bytes_written, len);
    return ok;
}

static bool local_del(sqe_store *s, const char *path, sqe_error *err) {
    COUNT(s, n_del, 1);
    char *local = sqe_io_local_path(path);
    int rc = unlink(local);
    int e = errno;
    sqe_free(local);
    if (rc == 0) return true;
    if (e == ENOENT || e == ENOTDIR)
        return sqe_error_set(err, SQE_ERR_NOT_FOUND, "file '%s' not found", path);
    return os_error(err, "delete", path, e);
}

/* ------------------------------------------------- conditional replace
 *
 * The version of a local object is the MD5 of its bytes (as S3's ETag of a
 * single PUT), so it changes whenever the content does, whatever the file
 * system's timestamp granularity or inode reuse; an unchanged rewrite keeps
 * it, which is harmless (a read-modify-write of equal bytes loses nothing).
 * put_if_match serialises conditional writers of one folder with an
 * exclusive flock(2) of the folder itself (no lock file to leave behind;
 * flock locks are per open file description, so threads of one process
 * exclude each other too), recomputes the version under the lock and only
 * then renames the new bytes over the object. Plain put does not take the
 * lock: only writers that asked for the precondition are ordered. */

/* MD5 hex of the regular file at `path`, or NOT_FOUND / STORAGE. */
static bool local_md5(const char *path, char *token, size_t cap, sqe_error *err) {
    char *local = sqe_io_local_path(path);
    int fd = open(local, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    int e = errno;
    sqe_free(local);
    if (fd < 0) {
        if (e == ENOENT || e == ENOTDIR)
            return sqe_error_set(err, SQE_ERR_NOT_FOUND, "file '%s' not found", path);
        return os_error(err, "open", path, e);
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        bool r = S_ISDIR(st.st_mode) ? sqe_error_set(err, SQE_ERR_NOT_FOUND,
                                                     "file '%s' not found (it is a folder)", path)
                                     : not_regular(err, path, &st);
        close(fd);
        return r;
    }
    size_t n = (size_t)st.st_size, got = 0;
    char *buf = sqe_malloc(n ? n : 1);
    while (got < n) {
        ssize_t r = pread(fd, buf + got, n - got, (off_t)got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    close(fd);
    char hex[33];
    sqe_md5_hex(buf, got, hex);
    sqe_free(buf);
    snprintf(token, cap, "%zu-%s", got, hex);
    return true;
}

static bool local_version(sqe_store *s, const char *path, char *token, size_t cap, sqe_error *err) {
    COUNT(s, n_head, 1);
    return local_md5(path, token, cap, err);
}

/* Opens and exclusively flocks the folder holding `path` (-1 on failure). */
static int lock_folder(const char *path, sqe_error *err) {
    char *local = sqe_io_local_path(path);
    const char *base = last_segment(local);
    char *dir = base == local ? sqe_strdup(".") : sqe_strndup(local, (size_t)(base - local));
    if (dir[0] == '\0') {
        sqe_free(dir);
        dir = sqe_strdup("/");
    }
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int e = errno;
    while (fd >= 0 && flock(fd, LOCK_EX) != 0) {
        if (errno == EINTR) continue;
        e = errno;
        close(fd);
        fd = -1;
    }
    if (fd < 0) os_error(err, "lock the folder of", path, e);
    sqe_free(dir);
    sqe_free(local);
    return fd;
}

static bool local_put_if_match(sqe_store *s, const char *path, const void *data, size_t len,
                               const char *token, sqe_error *err) {
    COUNT(s, n_put, 1);
    int lk = lock_folder(path, err);
    if (lk < 0) return false;
    char now[SQE_IO_VERSION_MAX];
    sqe_error e2;
    sqe_error_clear(&e2);
    bool have = local_md5(path, now, sizeof now, &e2);
    bool ok;
    if (!have && e2.cls != SQE_ERR_NOT_FOUND) {
        if (err) *err = e2;
        ok = false;
    } else if (!have || strcmp(now, token) != 0) {
        ok = sqe_error_set(err, SQE_ERR_ALREADY_EXISTS,
                           "object '%s' changed since it was read (%s); re-read it and retry", path,
                           have ? "its content differs" : "it was deleted");
    } else {
        ok = local_write(path, data, len, true, err);
        if (ok) COUNT(s, bytes_written, len);
    }
    close(lk); /* releases the lock */
    return ok;
}

/* ------------------------------------------------------------ roots */

bool sqe_io_check_folder(const char *url, sqe_error *err) {
    if (!sqe_io_check_url(url, err)) return false;
    if (sqe_str_ieqn(url, "s3://", 5)) return true; /* checked at first use */
    char *local = sqe_io_local_path(url);
    struct stat st;
    int rc = stat(local, &st);
    int e = errno;
    sqe_free(local);
    if (rc != 0) {
        if (e == ENOENT)
            return sqe_error_set(err, SQE_ERR_NOT_FOUND,
                                 "folder '%s' does not exist; create it first or correct the path "
                                 "(local roots are checked when attached, S3 roots at first use)",
                                 url);
        if (e == ENOTDIR)
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "'%s' is not a folder: a part of the path is a file", url);
        return os_error(err, "open folder", url, e);
    }
    if (!S_ISDIR(st.st_mode))
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT, "'%s' is a %s, not a folder", url,
                             S_ISREG(st.st_mode) ? "file" : special_kind(st.st_mode));
    return true;
}

static void local_free(sqe_store *s) {
    sqe_free(s);
}

static void local_stats(sqe_store *st, sqe_io_stats *out) {
    local_store *s = (local_store *)st;
    *out = (sqe_io_stats){.n_list = atomic_load(&s->n_list),
                          .n_get = atomic_load(&s->n_get),
                          .n_head = atomic_load(&s->n_head),
                          .n_put = atomic_load(&s->n_put),
                          .n_del = atomic_load(&s->n_del),
                          .bytes_read = atomic_load(&s->bytes_read),
                          .bytes_written = atomic_load(&s->bytes_written)};
}

static const sqe_store_vtable local_vtable = {
    .name = "local",
    .list = local_list,
    .head = local_head,
    .get_range = local_get_range,
    .get_tail = local_get_tail,
    .put = local_put,
    .put_if_absent = local_put_if_absent,
    .del = local_del,
    .free = local_free,
    .stats = local_stats,
    .version = local_version,
    .put_if_match = local_put_if_match,
};

sqe_store *sqe_io_local_new(void) {
    local_store *ls = sqe_calloc(1, sizeof *ls);
    ls->base.vt = &local_vtable;
    return &ls->base;
}
