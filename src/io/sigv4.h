/*
 * sigv4.h - private to io/: AWS Signature Version 4 (header-based), the
 * URI encoding it depends on, and the hashes S3 requests need. Used by s3.c;
 * tests/unit/test_sigv4.c checks it against AWS's published examples.
 *
 * The signer is a pure function of its inputs (no clock, no environment):
 * the caller passes the timestamp, the already-encoded path and the already
 * canonical query string, and exactly the headers it will send. Whatever is
 * signed must be sent byte for byte (see ../shared/s3-test-server.md).
 */
#ifndef SQE_IO_SIGV4_H
#define SQE_IO_SIGV4_H

#include "base/base.h"

/* Hex SHA-256 of data (64 lowercase hex digits + NUL). */
void sqe_sha256_hex(const void *data, size_t len, char out[65]);
/* Hex MD5 of data (32 lowercase hex digits + NUL): S3's ETag of a single PUT. */
void sqe_md5_hex(const void *data, size_t len, char out[33]);
/* Raw MD5 (16 bytes). */
void sqe_md5_raw(const void *data, size_t len, unsigned char out[16]);

/* Appends s[0, n) RFC 3986-encoded: unreserved bytes (A-Z a-z 0-9 - . _ ~)
 * as is, '/' as is when keep_slash, every other byte as %XX (uppercase). */
void sqe_uri_encode(sqe_strbuf *sb, const char *s, size_t n, bool keep_slash);

/* One query parameter; value NULL or "" is written "name=". */
typedef struct sqe_sigv4_param {
    const char *name;
    const char *value;
} sqe_sigv4_param;
/* Canonical query string: each name and value encoded, sorted by encoded
 * name (then value), joined with '&'. Appended to sb. */
void sqe_sigv4_query(sqe_strbuf *sb, const sqe_sigv4_param *params, size_t n);

typedef struct sqe_sigv4_header {
    const char *name; /* any case; lowercased when signed */
    const char *value;
} sqe_sigv4_header;

typedef struct sqe_sigv4_request {
    const char *method;              /* "GET" */
    const char *path;                /* encoded canonical URI, e.g. "/bucket/a%20b" */
    const char *query;               /* canonical query string ("" for none) */
    const sqe_sigv4_header *headers; /* every header to sign (host included) */
    size_t n_headers;
    const char *payload_hash; /* hex SHA-256 of the body or "UNSIGNED-PAYLOAD" */
    const char *amz_date;     /* "YYYYMMDDTHHMMSSZ" */
    const char *region;       /* "us-east-1" */
    const char *service;      /* "s3" */
} sqe_sigv4_request;

/* The canonical request (malloc'd), for tests and debugging: it holds no
 * secret. */
char *sqe_sigv4_canonical_request(const sqe_sigv4_request *r);
/* The value of the Authorization header (malloc'd). Holds no secret, but a
 * valid signature: never log it. */
char *sqe_sigv4_authorization(const sqe_sigv4_request *r, const char *access_key,
                              const char *secret_key);
/* "YYYYMMDDTHHMMSSZ" for a wall-clock time in seconds since the epoch. */
void sqe_sigv4_amz_date(int64_t unix_s, char out[17]);

#endif
