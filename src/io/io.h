/*
 * io.h - layer 2: the object-store interface and its backends.
 *
 * A store is a vtable over one URL scheme: local disk (file:// and plain
 * paths) now, S3 next. Callers never branch on the backend: they open a store
 * for a URL with sqe_io_store_for_url and call through the vtable. Paths
 * passed to a store are full URLs or plain paths as the user wrote them;
 * listing returns entries with full paths in the same form.
 *
 * Every backend passes the same conformance tests (tests/unit/test_io.c).
 */
#ifndef SQE_IO_H
#define SQE_IO_H

#include "base/base.h"

typedef struct sqe_io_entry {
    const char *path; /* full path/URL; valid only during the callback */
    const char *name; /* last segment (file or folder name, no trailing '/') */
    bool is_dir;      /* a "folder" (common prefix when listing with a delimiter) */
    uint64_t size;    /* bytes (0 for folders) */
    int64_t mtime_us; /* last modification, microseconds since epoch (0 if unknown) */
    /* NULL for files and folders. For something that is neither (local disk
     * only): "FIFO", "socket", "character device" or "block device". Such an
     * entry is listed so that callers can refuse it by name; head and
     * get_range of it fail (they never block on it). */
    const char *special;
} sqe_io_entry;

/* Return false from a list callback to stop listing early (not an error). */
typedef bool (*sqe_io_list_cb)(const sqe_io_entry *entry, void *ctx);

typedef struct sqe_store sqe_store;

/* Request counters of one store (EXPLAIN ANALYZE, benchmarks). Atomic
 * snapshot; local stores count too (list/get/head/put of the vtable). */
typedef struct sqe_io_stats {
    uint64_t n_list, n_get, n_head, n_put, n_del, n_retry;
    uint64_t bytes_read, bytes_written;
} sqe_io_stats;

typedef struct sqe_store_vtable {
    const char *name; /* "local", "s3" */
    /* Lists the direct children of folder `prefix` (recursive = false: files
     * and sub-folders, like a delimiter '/' listing) or every file below it
     * (recursive = true, no folder entries). Streaming: the callback sees
     * entries as they arrive, in no guaranteed order. A prefix that does not
     * exist lists nothing (not an error), as on S3. */
    bool (*list)(sqe_store *s, const char *prefix, bool recursive, sqe_io_list_cb cb, void *ctx,
                 sqe_error *err);
    /* Size and mtime of one object. Missing -> NOT_FOUND naming the path;
     * a folder -> NOT_FOUND; anything else that is not a regular file (FIFO,
     * socket, device) -> STORAGE naming the path and what it is. */
    bool (*head)(sqe_store *s, const char *path, sqe_io_entry *out, sqe_error *err);
    /* Reads up to `len` bytes at `offset` into buf; *n_read gets the count
     * (short only at end of object). Never blocks on a FIFO or device: what
     * is not a regular file is refused as in head. */
    bool (*get_range)(sqe_store *s, const char *path, uint64_t offset, size_t len, void *buf,
                      size_t *n_read, sqe_error *err);
    /* Writes the whole object; readers see the old or the new content, never
     * a torn one (temp + rename on disk, single PUT on S3). Creates parent
     * folders as needed. */
    bool (*put)(sqe_store *s, const char *path, const void *data, size_t len, sqe_error *err);
    /* As put, but only if no object exists at `path` (create-if-absent): of
     * many concurrent callers exactly one succeeds, the others get
     * ALREADY_EXISTS naming the path and nothing they wrote stays visible.
     * Local disk: link(2) of the fsync'd temp file (fails if the target
     * exists); S3 later: PUT with If-None-Match: *. */
    bool (*put_if_absent)(sqe_store *s, const char *path, const void *data, size_t len,
                          sqe_error *err);
    /* Deletes one object. Missing -> NOT_FOUND. */
    bool (*del)(sqe_store *s, const char *path, sqe_error *err);
    /* Releases the caller's reference (shared stores from a registry are
     * freed when the registry and every user released them). */
    void (*free)(sqe_store *s);
    /* Request counters so far (NULL: the store counts nothing). */
    void (*stats)(sqe_store *s, sqe_io_stats *out);
    /* Conditional replace (SPEC §2.4), for read-modify-write of manifests.
     * Both optional: NULL means the store cannot do it (callers use
     * sqe_io_version / sqe_io_put_if_match, which say so by name).
     * version: a token (NUL-terminated, < SQE_IO_VERSION_MAX bytes) that
     * changes whenever the object at `path` is replaced: S3 its ETag (one
     * HEAD), local disk the MD5 of its content. Missing -> NOT_FOUND. Take
     * the token BEFORE reading the object: then the bytes read are at least
     * as new as the token, and a replace with it can only succeed when
     * nothing changed since. */
    bool (*version)(sqe_store *s, const char *path, char *token, size_t cap, sqe_error *err);
    /* Replaces the object only if its current version is `token` (S3: PUT
     * If-Match; local disk: under an exclusive flock(2) of the object's
     * folder, recompute the token, then temp + rename). A mismatch (or a
     * missing object) is ALREADY_EXISTS "... changed since it was read",
     * so the caller re-reads and retries. */
    bool (*put_if_match)(sqe_store *s, const char *path, const void *data, size_t len,
                         const char *token, sqe_error *err);
    /* Reads the last min(len, size) bytes of the object into buf (a suffix
     * range, S3 `Range: bytes=-N`: no HEAD needed when the size is unknown);
     * *n_read gets the count, *object_size the object's size. An empty
     * object is 0 bytes of size 0. Missing etc. as get_range. May be NULL
     * (a store without it): callers then use the size and get_range. */
    bool (*get_tail)(sqe_store *s, const char *path, size_t len, void *buf, size_t *n_read,
                     uint64_t *object_size, sqe_error *err);
} sqe_store_vtable;

#define SQE_IO_VERSION_MAX 96

/* The vtable calls above, or NOT_SUPPORTED naming the store and path when
 * the store has none. */
bool sqe_io_version(sqe_store *s, const char *path, char *token, size_t cap, sqe_error *err);
bool sqe_io_put_if_match(sqe_store *s, const char *path, const void *data, size_t len,
                         const char *token, sqe_error *err);

struct sqe_store {
    const sqe_store_vtable *vt;
};

/* Classifies a URL: "file" for file:// and plain paths, "s3" for s3://.
 * Rejects other schemes (NOT_SUPPORTED naming the scheme) and malformed URLs
 * (INVALID_ARGUMENT). Does not touch the store (SPEC §1.2). */
bool sqe_io_check_url(const char *url, sqe_error *err);

/* Opens the store that serves `url`. Local disk for file:// and plain paths;
 * s3:// gives NOT_SUPPORTED "S3 storage is not supported yet" for now.
 * Caller frees with sqe_store_free. */
sqe_store *sqe_io_store_for_url(const char *url, sqe_error *err);
static inline void sqe_store_free(sqe_store *s) {
    if (s) s->vt->free(s);
}

/* Checks that `url` names an existing folder, for attaching a warehouse
 * root: a missing local folder is NOT_FOUND, a file (or a path through a
 * file) INVALID_ARGUMENT, both naming the path. s3:// URLs are not touched
 * (their bucket is checked at first use). Implemented in local.c. */
bool sqe_io_check_folder(const char *url, sqe_error *err);

/* ------------------------------------------------ store registry (registry.c)
 *
 * A session owns one registry. It resolves a URL plus an optional named
 * secret to a shared store: local disk for paths and file:// URLs, and for
 * s3:// one client per (endpoint, region, addressing, bucket, credentials),
 * reused across statements and pipeline copies. Thread-safe. Defaults come
 * from the session's S3 flags, then SQE_STORAGE__S3_*, then AWS_* in the
 * environment snapshot given at creation (see s3.h). */
typedef struct sqe_io_registry sqe_io_registry;
struct sqe_s3_config;
/* env: NULL-terminated "K=V" strings (copied; NULL: the process
 * environment); flags: settings from the command line (copied; may be
 * NULL), which win over the environment. */
sqe_io_registry *sqe_io_registry_new(const char *const *env, const struct sqe_s3_config *flags);
void sqe_io_registry_free(sqe_io_registry *r);
/* The store serving `url` (secret: a CREATE SECRET name, NULL for the
 * session default). Release with sqe_store_free. Unknown secret:
 * NOT_FOUND naming it. */
sqe_store *sqe_io_registry_open(sqe_io_registry *r, const char *url, const char *secret,
                                sqe_error *err);
/* As sqe_io_registry_new, with the --s3-access-key/--s3-secret-key flags
 * (NULL when not given; a key without a secret takes the secret from
 * SQE_STORAGE__S3_SECRET_ACCESS_KEY or AWS_SECRET_ACCESS_KEY). */
sqe_io_registry *sqe_io_registry_new_with_keys(const char *const *env,
                                               const struct sqe_s3_config *flags,
                                               const char *access_key, const char *secret_key);
/* The shared store behind a registry handle (itself for any other store),
 * for backend-specific calls such as sqe_io_s3_put_if_match. */
sqe_store *sqe_io_store_backend(sqe_store *s);
/* Sums the request counters of every store the registry made so far
 * (EXPLAIN ANALYZE takes the difference around a query). False when no
 * store counts anything. */
bool sqe_io_registry_stats(sqe_io_registry *r, sqe_io_stats *out);
/* How long a store no handle holds is kept unopened before it is dropped
 * (default five minutes; 0 drops it at the next open). For tests. */
void sqe_io_registry_set_idle_ms(sqe_io_registry *r, int64_t ms);
/* The session's resolved S3 settings (no secrets inside). */
const struct sqe_s3_config *sqe_io_registry_config(const sqe_io_registry *r);

/* Named secrets (CREATE SECRET, SPEC §12.3), per registry (= session).
 * Strings are copied; empty or NULL means not given. url_style: -1 not
 * given, 0 path, 1 vhost. KEY_ID and SECRET go together; without them the
 * secret's stores use the session's default credentials. SCOPE, when
 * given, must be an s3:// URL: a store opened without a secret name uses
 * the secret with the longest SCOPE prefixing the URL. */
typedef struct sqe_io_secret {
    const char *name, *key_id, *secret, *session_token, *region, *endpoint, *scope;
    int url_style;
} sqe_io_secret;
/* Exists and !or_replace: ALREADY_EXISTS (if_not_exists: nothing happens).
 * Replacing a secret unlinks its stores: statements that hold them finish
 * with the old keys. */
bool sqe_io_registry_create_secret(sqe_io_registry *r, const sqe_io_secret *s, bool or_replace,
                                   bool if_not_exists, sqe_error *err);
/* Missing and !if_exists: NOT_FOUND naming it. */
bool sqe_io_registry_drop_secret(sqe_io_registry *r, const char *name, bool if_exists,
                                 sqe_error *err);
/* What SHOW SECRETS may show (never key, secret or token). */
typedef struct sqe_io_secret_info {
    const char *name, *type, *scope, *region, *endpoint, *url_style; /* NULL: not given */
    bool has_keys;
} sqe_io_secret_info;
typedef void (*sqe_io_secret_cb)(const sqe_io_secret_info *info, void *ctx);
/* Calls cb for each secret in name order (under the registry's lock). */
void sqe_io_registry_list_secrets(sqe_io_registry *r, sqe_io_secret_cb cb, void *ctx);

/* Local backend (io/local.c). */
sqe_store *sqe_io_local_new(void);

/* Path helpers (work on URLs and plain paths alike). */
/* Joins base and name with exactly one '/' between them (malloc'd). */
char *sqe_io_join(const char *base, const char *name);
/* Converts file:///abs/path to /abs/path (malloc'd); plain paths copied. */
char *sqe_io_local_path(const char *url);

/* The words a store's error contains when an object was replaced between
 * two requests of one read (S3: a ranged GET with If-Match got 412). */
#define SQE_IO_CHANGED_MARK "changed while it was being read"

/* Reads a whole (small) object into a malloc'd buffer (NUL-terminated for
 * convenience). Fails with RESOURCE_EXHAUSTED naming the path when the object
 * is larger than max_bytes. An object replaced while it is read (a manifest
 * rewritten by a concurrent ALTER) is read again from the start, up to
 * three times in all: each read is one consistent version. */
bool sqe_io_read_all(sqe_store *s, const char *path, size_t max_bytes, char **data, size_t *len,
                     sqe_error *err);

/* ------------------------------------------------ read planner (readplan.c)
 *
 * Reads of several byte ranges of one object, coalesced and fetched ahead
 * of use (Parquet column chunks; text/JSON chunks on S3). The caller adds
 * the ranges it will need, submits them as a batch (batches are fetched in
 * submit order), then gets each range's bytes, which stay valid until it
 * releases the range. Thread-safe; one consumer per plan is the intended use. */
typedef struct sqe_readplan_opts {
    uint64_t gap_bytes;    /* ranges closer than this merge into one request */
    uint64_t part_bytes;   /* a longer request is fetched in parts of this size */
    int max_in_flight;     /* background fetches at once; 0: fetched by get, at use */
    uint64_t max_buffered; /* fetched-but-unreleased bytes read ahead at most */
} sqe_readplan_opts;
/* Defaults by backend: S3 (vtable name "s3") gap 1 MiB, parts 8 MiB, 4 in
 * flight, 64 MiB; any other (local disk, memory) gap 64 KiB, parts 8 MiB,
 * no background fetch. */
void sqe_readplan_defaults(const sqe_store *s, sqe_readplan_opts *o);
typedef struct sqe_readplan sqe_readplan;
/* o NULL: sqe_readplan_defaults(s). The store is borrowed. */
sqe_readplan *sqe_readplan_new(sqe_store *s, const char *path, const sqe_readplan_opts *o);
/* Adds [off, off+len) to the pending batch; returns the range's id. */
int sqe_readplan_add(sqe_readplan *p, uint64_t off, size_t len);
/* Bytes [off, off+len) the caller already has (copied): ranges added
 * later that lie inside them are served from them, with no request
 * (Parquet: chunks inside the footer's tail read). Not counted in the
 * read-ahead budget; kept until the plan is freed. */
void sqe_readplan_seed(sqe_readplan *p, uint64_t off, const void *data, size_t len);
/* Plans the pending batch into requests and lets workers fetch it. */
void sqe_readplan_submit(sqe_readplan *p);
/* Waits for range `id` (fetching it here if nobody started it): *data
 * points at its bytes, *n is how many exist (< len only when the object
 * ended). A failed fetch returns its error (naming the object). */
bool sqe_readplan_get(sqe_readplan *p, int id, const uint8_t **data, size_t *n, sqe_error *err);
/* The caller is done with range id (its data pointer becomes invalid). */
void sqe_readplan_release(sqe_readplan *p, int id);
typedef struct sqe_readplan_stats {
    uint64_t n_requests, n_gets; /* coalesced requests started; get_range calls (parts) done */
    uint64_t bytes_fetched, buffered, peak_buffered;
} sqe_readplan_stats;
void sqe_readplan_get_stats(sqe_readplan *p, sqe_readplan_stats *out);
uint64_t sqe_readplan_bytes_fetched(sqe_readplan *p);
/* Stops the workers (waiting for fetches in flight) and frees everything. */
void sqe_readplan_free(sqe_readplan *p);

/* Sequential reads with read-ahead (text/JSON on S3): the same contract as
 * get_range (short only at end of object); after each read at off it
 * fetches the following bytes in the background (up to `depth` reads of
 * the same length), stopping at `end` (UINT64_MAX: unknown). A read at any
 * other offset drops what was read ahead and reads directly. */
typedef struct sqe_seqread sqe_seqread;
sqe_seqread *sqe_seqread_new(sqe_store *s, const char *path, uint64_t end,
                             const sqe_readplan_opts *o);
bool sqe_seqread_read(sqe_seqread *q, uint64_t off, size_t len, void *buf, size_t *n_read,
                      sqe_error *err);
void sqe_seqread_free(sqe_seqread *q);

#endif
