/*
 * s3.h - the contracts between the S3 store (s3.c, sigv4.c), the credential
 * chain (credentials.c) and the session's store registry (registry.c).
 *
 * Three pieces, each owned by one file group:
 *
 *   sqe_s3_config      where to talk to: endpoint, region, addressing style,
 *                      timeouts and retry/concurrency bounds. Plain data,
 *                      built by the registry from flags, SQE_STORAGE__S3_*,
 *                      AWS_* and a named secret; no secret inside.
 *   sqe_s3_cred_source who we are: a thread-safe, caching provider of
 *                      sqe_s3_creds (static keys, a secret, the AWS chain).
 *                      The store asks it for credentials before signing each
 *                      request; it refreshes five minutes before expiry
 *                      (fifteen minutes after resolution when the source
 *                      gives no expiry), one resolution in flight.
 *   the S3 store       a sqe_store (io.h) for one (config, bucket, creds):
 *                      SigV4 over libcurl, retries, ranged reads. It never
 *                      logs or returns a secret: errors name bucket and key.
 *
 * Ownership: the registry owns configs and cred sources and keeps them alive
 * as long as any store made from them; a store copies what it needs from
 * the config at creation and borrows the cred source.
 */
#ifndef SQE_IO_S3_H
#define SQE_IO_S3_H

#include "io/io.h"

/* ------------------------------------------------------------ credentials */

/* One set of credentials. All strings malloc'd (sqe_s3_creds_clear frees
 * and wipes them). access_key empty: anonymous (requests are not signed). */
typedef struct sqe_s3_creds {
    char *access_key;
    char *secret_key;
    char *session_token; /* NULL when none */
    int64_t expires_us;  /* wall clock, microseconds since epoch; 0: never */
} sqe_s3_creds;

void sqe_s3_creds_clear(sqe_s3_creds *c); /* frees and zeroes (explicit_bzero) */
void sqe_s3_creds_copy(sqe_s3_creds *dst, const sqe_s3_creds *src);

/* A credential source is a small vtable; credentials.c implements the AWS
 * chain on it, s3_creds.c the static source and the dispatch below. */
typedef struct sqe_s3_cred_source sqe_s3_cred_source;
typedef struct sqe_s3_cred_source_vt {
    const char *name; /* "static", "chain" (never a secret) */
    bool (*get)(sqe_s3_cred_source *src, sqe_s3_creds *out, sqe_error *err);
    void (*invalidate)(sqe_s3_cred_source *src); /* may be NULL */
    void (*free)(sqe_s3_cred_source *src);
} sqe_s3_cred_source_vt;
struct sqe_s3_cred_source {
    const sqe_s3_cred_source_vt *vt;
};

/* Current credentials into *out (caller clears). Resolves on first use and
 * again when within five minutes of expiry; concurrent callers wait for one
 * resolution. Failure: STORAGE_CREDENTIALS_UNAVAILABLE with a message that
 * says which sources were tried and how to renew ("set AWS_ACCESS_KEY_ID
 * and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, ... or run `aws sso login`"),
 * never a secret value. Thread-safe. */
bool sqe_s3_cred_source_get(sqe_s3_cred_source *src, sqe_s3_creds *out, sqe_error *err);
/* Drops the cached credentials so the next get resolves again (the store
 * calls it once after a 403 ExpiredToken/InvalidAccessKeyId before its one
 * retry). */
void sqe_s3_cred_source_invalidate(sqe_s3_cred_source *src);

/* A source that always returns the given keys (flags, a named secret). */
sqe_s3_cred_source *sqe_s3_cred_static_new(const sqe_s3_creds *creds);
/* The AWS default chain (credentials.c): environment (AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), web identity
 * (AWS_WEB_IDENTITY_TOKEN_FILE + AWS_ROLE_ARN via STS), the shared
 * config/credentials files with AWS_PROFILE (incl. credential_process), ECS
 * container credentials, IMDSv2. `env` is a snapshot of the environment
 * taken when the session opened (NULL-terminated "K=V" array, copied), so
 * tests can run chains side by side without setenv. */
sqe_s3_cred_source *sqe_s3_cred_chain_new(const char *const *env);
void sqe_s3_cred_source_free(sqe_s3_cred_source *src);
/* The `region` of the profile the chain would use (AWS_PROFILE, else
 * "default", in AWS_CONFIG_FILE / AWS_SHARED_CREDENTIALS_FILE or ~/.aws/),
 * malloc'd, or NULL when none. For the registry's region fallback. */
char *sqe_s3_profile_region(const char *const *env);

/* ------------------------------------------------------------ config */

typedef struct sqe_s3_config {
    char *endpoint; /* "http://127.0.0.1:5055"; NULL: AWS (https://s3.<region>.amazonaws.com) */
    char *region;   /* never NULL once resolved; default "us-east-1" */
    bool virtual_hosted;    /* bucket in the host name; default: path-style with an endpoint,
                               virtual-hosted without */
    int connect_timeout_ms; /* default 5000 */
    int request_timeout_ms; /* per request, whole transfer; default 60000 */
    int max_retries;        /* retries after the first attempt; default 4 */
    int max_in_flight;      /* concurrent requests per store; default 16 */
} sqe_s3_config;

void sqe_s3_config_defaults(sqe_s3_config *c); /* fills defaults, strings NULL */
void sqe_s3_config_clear(sqe_s3_config *c);    /* frees strings */

/* ------------------------------------------------------------ store */

/* The S3 store for one bucket. `cfg` is copied; `creds` is borrowed and must
 * outlive the store. Nothing is contacted here (the bucket is checked at
 * first use). Paths given to the vtable are full s3://bucket/key URLs of
 * this bucket; another bucket is INVALID_ARGUMENT naming both.
 *   - list: ListObjectsV2 with prefix (and delimiter '/' unless recursive),
 *     all pages; keys decoded; entries' path "s3://bucket/key".
 *   - head: HeadObject (size, mtime, ETag kept for get_range checks).
 *   - get_range: GetObject with Range; a 416 at offset >= size is 0 bytes.
 *   - put: PutObject (multipart above 64 MiB); put_if_absent: PutObject
 *     with If-None-Match: * (412 -> ALREADY_EXISTS naming the path).
 *   - del: DeleteObject.
 * Errors: STORAGE naming bucket and key with the S3 error code
 * (AccessDenied, NoSuchBucket, SlowDown, ...), NOT_FOUND for NoSuchKey,
 * STORAGE_CREDENTIALS_UNAVAILABLE for expired/invalid credentials. */
sqe_store *sqe_io_s3_new(const sqe_s3_config *cfg, const char *bucket, sqe_s3_cred_source *creds,
                         sqe_error *err);

/* Replaces the object at `path` only if its current ETag is `etag`
 * (If-Match); a mismatch is SQE_ERR_ALREADY_EXISTS "... changed since it was
 * read" so the caller can re-read and retry. Local stores: NOT_SUPPORTED. */
bool sqe_io_s3_put_if_match(sqe_store *s, const char *path, const void *data, size_t len,
                            const char *etag, sqe_error *err);
/* head plus the object's ETag (as S3 sends it, quoted), to pass to
 * sqe_io_s3_put_if_match later. Local stores: NOT_SUPPORTED. */
bool sqe_io_s3_head_etag(sqe_store *s, const char *path, sqe_io_entry *out, char *etag,
                         size_t etag_cap, sqe_error *err);

#endif
