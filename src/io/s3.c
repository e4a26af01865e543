/*
 * s3.c - the S3 object store: the sqe_store vtable over S3's REST API on
 * libcurl, signed with SigV4 (sigv4.c), for one bucket.
 *
 * Requests. Every request goes through s3_perform(): it waits for one of
 * cfg->max_in_flight slots, takes an idle curl easy handle from the store's
 * pool (handles keep their connections alive, so connections are reused),
 * asks the credential source for keys, signs, sends, and puts the handle
 * back. What is signed: the method, the path (each key segment
 * RFC 3986-encoded, '/' kept), the canonical query (sorted, encoded,
 * "name=" for value-less names), and the headers host, x-amz-date,
 * x-amz-content-sha256 (SHA-256 of the body; of "" for GET/HEAD/DELETE),
 * x-amz-security-token when the credentials carry a session token, and any
 * Range / If-Match / If-None-Match / Content-Type the operation sends. We set
 * Host ourselves, so what curl sends is what was signed. curl's own
 * "Expect: 100-continue" is suppressed (it is never signed).
 *
 * Retries (bounded: cfg->max_retries after the first attempt). Retried:
 * connection failures, resets, timeouts, HTTP 5xx, 429 and 503/SlowDown,
 * with exponential backoff and full jitter (Retry-After honoured up to
 * 5 s). A 400/403 with ExpiredToken / InvalidAccessKeyId / InvalidToken /
 * TokenRefreshRequired / SignatureDoesNotMatch invalidates the credential
 * source and is retried once with fresh keys. Writes and retries:
 *  - GET, HEAD, DELETE, plain PUT and UploadPart are idempotent: retrying
 *    them writes the same bytes again at most.
 *  - CreateMultipartUpload is retried only when the request provably did
 *    not run (no connection, 429, 503): a blind retry would leave an
 *    orphan upload.
 *  - Conditional PUTs (If-None-Match: *, If-Match) are retried; if an
 *    earlier attempt may have reached the server (a timeout or reset after
 *    sending, a 500) and the retry gets 412, the first attempt may have
 *    been our own successful write. We then HEAD the object and compare its
 *    ETag with the MD5 of our body (S3's ETag of a single PUT): equal means
 *    the object holds exactly our bytes and the put is reported as done
 *    (another writer with byte-identical content is indistinguishable, and
 *    harmless); different means someone else won: ALREADY_EXISTS.
 *    CompleteMultipartUpload answered NoSuchUpload after an ambiguous
 *    attempt is checked the same way against the multipart ETag.
 *
 * Consistency of reads. head and list remember each object's ETag and size
 * (a bounded map, cleared when full); get_range sends If-Match with the
 * remembered ETag and checks the total size in Content-Range, so an object
 * replaced between a listing and its ranged reads fails with STORAGE naming
 * the key instead of mixing two versions. put and del through this store
 * forget the key. A key never listed or headed is read without a check.
 *
 * Multipart uploads (above 64 MiB) send their parts from up to four threads.
 *
 * Errors never contain a secret or the Authorization header; debug logs
 * (SQE_LOG=debug) show method, path, status and timing only.
 */
#include "io/s3_int.h"
#include "io/sigv4.h"

#include <curl/curl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define S3_DEFAULT_MULTIPART (64ull << 20)
#define S3_DEFAULT_PART (16ull << 20)
#define S3_MAX_PARTS 10000
#define S3_MAX_SINGLE_PUT (5ull << 30)
#define S3_MAX_XML (64u << 20) /* a listing page is ~1 MB; anything far larger is wrong */
#define S3_MAX_ERR_BODY (64u << 10)
#define S3_ETAG_CACHE_MAX 200000
#define EMPTY_SHA "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

typedef struct s3_obj {
    uint64_t size;
    char etag[80];
} s3_obj;

typedef struct s3_store {
    sqe_store base;
    char *bucket;
    char *origin;    /* "http://127.0.0.1:5055" or "https://b.s3.us-east-1.amazonaws.com" */
    char *host;      /* Host header */
    char *base_path; /* encoded path before the key: "/bucket" (path-style) or "" */
    char *region;
    int connect_timeout_ms, request_timeout_ms, max_retries, max_in_flight;
    sqe_s3_cred_source *creds;

    pthread_mutex_t mu; /* slots, handle pool, ETag map */
    pthread_cond_t cv;
    int in_flight;
    CURL **idle;
    int n_idle;
    sqe_strmap *objs; /* key -> s3_obj* */

    uint64_t multipart_threshold, part_size;
    int list_page_size, backoff_base_ms;
    _Atomic uint64_t n_list, n_get, n_head, n_put, n_del, n_retry, bytes_read, bytes_written;
    _Atomic uint64_t rng;
} s3_store;

static const sqe_store_vtable s3_vtable;

/* ------------------------------------------------------------ config */

void sqe_s3_config_defaults(sqe_s3_config *c) {
    memset(c, 0, sizeof *c);
    c->connect_timeout_ms = 5000;
    c->request_timeout_ms = 60000;
    c->max_retries = 4;
    c->max_in_flight = 16;
}

void sqe_s3_config_clear(sqe_s3_config *c) {
    if (!c) return;
    sqe_free(c->endpoint);
    sqe_free(c->region);
    c->endpoint = c->region = NULL;
}

/* ------------------------------------------------------------ one call */

typedef enum { OP_LIST, OP_HEAD, OP_GET, OP_PUT, OP_DEL } s3_op;

typedef struct s3_call {
    /* request */
    const char *verb;
    s3_op op;
    const char *key;   /* NULL: the bucket itself */
    const char *query; /* canonical query string, "" for none */
    sqe_sigv4_header extra[4];
    int n_extra;
    const char *body;
    size_t body_len;
    bool has_body;
    bool idempotent; /* may be retried after the server may have acted */
    /* GET into a caller buffer */
    char *buf;
    size_t cap;
    uint64_t offset; /* range start, for servers that ignore Range */
    /* response */
    long status;
    size_t got, skip;
    bool status_seen, full;
    sqe_strbuf resp; /* XML or error body (bounded) */
    size_t resp_max;
    char etag[80];
    uint64_t content_length, range_total;
    bool has_length, has_range_total;
    int64_t mtime_us;
    int retry_after_s;
    char bucket_region[64];
    size_t upload_pos;
    /* outcome */
    CURLcode rc;
    char curl_err[CURL_ERROR_SIZE];
    int attempts;
    bool ambiguous; /* an earlier attempt may have been applied by the server */
} s3_call;

static void call_init(s3_call *c, const char *verb, s3_op op, const char *key) {
    memset(c, 0, sizeof *c);
    c->verb = verb;
    c->op = op;
    c->key = key;
    c->query = "";
    c->idempotent = true;
    c->resp_max = S3_MAX_ERR_BODY;
    sqe_strbuf_init(&c->resp);
}

static void call_free(s3_call *c) {
    sqe_strbuf_free(&c->resp);
}

static void call_header(s3_call *c, const char *name, const char *value) {
    if (c->n_extra < (int)SQE_ARRAY_LEN(c->extra))
        c->extra[c->n_extra++] = (sqe_sigv4_header){name, value};
}

static size_t on_write(char *data, size_t size, size_t nmemb, void *ud) {
    s3_call *c = ud;
    size_t n = size * nmemb;
    if (!c->status_seen) {
        c->status_seen = true;
        /* a server that ignores Range answers 200 with the whole object */
        if (c->buf && c->status == 200) c->skip = c->offset;
    }
    if (c->buf && (c->status == 200 || c->status == 206)) {
        size_t used = 0;
        if (c->skip) {
            size_t s = SQE_MIN(c->skip, n);
            c->skip -= s;
            used = s;
        }
        size_t room = c->cap - c->got, take = SQE_MIN(room, n - used);
        memcpy(c->buf + c->got, data + used, take);
        c->got += take;
        if (used + take < n) {
            c->full = true; /* more than asked for: stop the transfer */
            return 0;
        }
        return n;
    }
    if (c->resp.len + n > c->resp_max) {
        c->full = true; /* keep draining, keep nothing more: the caller sees `full` */
        return n;
    }
    sqe_strbuf_append(&c->resp, data, n);
    return n;
}

static bool header_is(const char *line, size_t n, const char *name, const char **value,
                      size_t *vlen) {
    size_t nl = strlen(name);
    if (n <= nl || line[nl] != ':' || !sqe_str_ieqn(line, name, nl)) return false;
    const char *v = line + nl + 1, *end = line + n;
    while (v < end && (*v == ' ' || *v == '\t')) v++;
    while (end > v && (end[-1] == '\r' || end[-1] == '\n' || end[-1] == ' ')) end--;
    *value = v;
    *vlen = (size_t)(end - v);
    return true;
}

static void copy_value(char *dst, size_t cap, const char *v, size_t n) {
    n = SQE_MIN(n, cap - 1);
    memcpy(dst, v, n);
    dst[n] = '\0';
}

static size_t on_header(char *line, size_t size, size_t nmemb, void *ud) {
    s3_call *c = ud;
    size_t n = size * nmemb;
    const char *v;
    size_t vl;
    char tmp[96];
    if (n >= 5 && memcmp(line, "HTTP/", 5) == 0) {
        /* a new response (after 100 Continue): forget the previous headers */
        const char *sp = memchr(line, ' ', n);
        c->status = sp ? strtol(sp + 1, NULL, 10) : 0;
        c->etag[0] = '\0';
        c->has_length = c->has_range_total = false;
        c->retry_after_s = 0;
    } else if (header_is(line, n, "ETag", &v, &vl)) {
        copy_value(c->etag, sizeof c->etag, v, vl);
    } else if (header_is(line, n, "Content-Length", &v, &vl)) {
        copy_value(tmp, sizeof tmp, v, vl);
        c->content_length = strtoull(tmp, NULL, 10);
        c->has_length = true;
    } else if (header_is(line, n, "Content-Range", &v, &vl)) {
        copy_value(tmp, sizeof tmp, v, vl);
        const char *slash = strchr(tmp, '/');
        if (slash && slash[1] != '*') {
            c->range_total = strtoull(slash + 1, NULL, 10);
            c->has_range_total = true;
        }
    } else if (header_is(line, n, "Last-Modified", &v, &vl)) {
        copy_value(tmp, sizeof tmp, v, vl);
        c->mtime_us = sqe_s3_parse_time(tmp);
    } else if (header_is(line, n, "Retry-After", &v, &vl)) {
        copy_value(tmp, sizeof tmp, v, vl);
        c->retry_after_s = atoi(tmp);
    } else if (header_is(line, n, "x-amz-bucket-region", &v, &vl)) {
        copy_value(c->bucket_region, sizeof c->bucket_region, v, vl);
    }
    return n;
}

static size_t on_read(char *dst, size_t size, size_t nmemb, void *ud) {
    s3_call *c = ud;
    size_t n = SQE_MIN(size * nmemb, c->body_len - c->upload_pos);
    memcpy(dst, c->body + c->upload_pos, n);
    c->upload_pos += n;
    return n;
}

static int on_seek(void *ud, curl_off_t offset, int origin) {
    s3_call *c = ud;
    if (origin != SEEK_SET || offset < 0 || (uint64_t)offset > c->body_len)
        return CURL_SEEKFUNC_CANTSEEK;
    c->upload_pos = (size_t)offset;
    return CURL_SEEKFUNC_OK;
}

/* ------------------------------------------------------------ slots, handles */

static CURL *handle_acquire(s3_store *s) {
    pthread_mutex_lock(&s->mu);
    while (s->in_flight >= s->max_in_flight) pthread_cond_wait(&s->cv, &s->mu);
    s->in_flight++;
    CURL *h = s->n_idle ? s->idle[--s->n_idle] : NULL;
    pthread_mutex_unlock(&s->mu);
    if (!h) h = curl_easy_init();
    return h;
}

static void handle_release(s3_store *s, CURL *h, bool reusable) {
    pthread_mutex_lock(&s->mu);
    if (h && reusable && s->n_idle < s->max_in_flight) {
        s->idle[s->n_idle++] = h;
        h = NULL;
    }
    s->in_flight--;
    pthread_cond_signal(&s->cv);
    pthread_mutex_unlock(&s->mu);
    if (h) curl_easy_cleanup(h);
}

/* ------------------------------------------------------------ URLs */

static void encode_key_path(sqe_strbuf *sb, const s3_store *s, const char *key) {
    sqe_strbuf_puts(sb, s->base_path);
    if (key || !s->base_path[0]) sqe_strbuf_putc(sb, '/'); /* bucket: "/bucket" or "/" */
    if (key) sqe_uri_encode(sb, key, strlen(key), true);
}

/* "s3://bucket/key" for messages. */
static char *s3_url(const s3_store *s, const char *key) {
    return sqe_asprintf("s3://%s/%s", s->bucket, key ? key : "");
}

/* ------------------------------------------------------------ one attempt */

static struct curl_slist *build_headers(s3_store *s, s3_call *c, const sqe_s3_creds *cr,
                                        const char *path) {
    char amz_date[17], sha[65];
    sqe_sigv4_amz_date(sqe_clock_wall_us() / 1000000, amz_date);
    if (c->has_body)
        sqe_sha256_hex(c->body, c->body_len, sha);
    else
        memcpy(sha, EMPTY_SHA, 65);
    sqe_sigv4_header h[10];
    size_t n = 0;
    h[n++] = (sqe_sigv4_header){"host", s->host};
    h[n++] = (sqe_sigv4_header){"x-amz-content-sha256", sha};
    h[n++] = (sqe_sigv4_header){"x-amz-date", amz_date};
    if (cr->session_token && *cr->session_token)
        h[n++] = (sqe_sigv4_header){"x-amz-security-token", cr->session_token};
    for (int i = 0; i < c->n_extra; i++) h[n++] = c->extra[i];

    struct curl_slist *list = NULL;
    for (size_t i = 0; i < n; i++) {
        char *line = sqe_asprintf("%s: %s", h[i].name, h[i].value);
        list = curl_slist_append(list, line);
        explicit_bzero(line, strlen(line));
        sqe_free(line);
    }
    list = curl_slist_append(list, "Expect:");
    if (cr->access_key && *cr->access_key) {
        sqe_sigv4_request r = {c->verb, path, c->query, h, n, sha, amz_date, s->region, "s3"};
        char *auth = sqe_sigv4_authorization(&r, cr->access_key, cr->secret_key);
        char *line = sqe_asprintf("Authorization: %s", auth);
        list = curl_slist_append(list, line);
        explicit_bzero(line, strlen(line));
        sqe_free(line);
        sqe_free(auth);
    }
    return list;
}

static void attempt_reset(s3_call *c) {
    c->status = 0;
    c->got = c->skip = 0;
    c->status_seen = c->full = false;
    sqe_strbuf_clear(&c->resp);
    c->etag[0] = '\0';
    c->has_length = c->has_range_total = false;
    c->mtime_us = 0;
    c->retry_after_s = 0;
    c->bucket_region[0] = '\0';
    c->upload_pos = 0;
    c->curl_err[0] = '\0';
}

/* One HTTP exchange. Returns the handle's reusability. */
static bool attempt(s3_store *s, s3_call *c, const sqe_s3_creds *cr) {
    attempt_reset(c);
    sqe_strbuf path, url;
    sqe_strbuf_init(&path);
    sqe_strbuf_init(&url);
    encode_key_path(&path, s, c->key);
    sqe_strbuf_printf(&url, "%s%s%s%s", s->origin, path.data, *c->query ? "?" : "", c->query);
    /* wait for a slot before signing, so the signature's time is fresh */
    CURL *h = handle_acquire(s);
    struct curl_slist *hdrs = build_headers(s, c, cr, path.data);
    if (!h) {
        c->rc = CURLE_OUT_OF_MEMORY;
        curl_slist_free_all(hdrs);
        sqe_strbuf_free(&path);
        sqe_strbuf_free(&url);
        handle_release(s, NULL, false);
        return false;
    }
    curl_easy_reset(h);
    curl_easy_setopt(h, CURLOPT_URL, url.data);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, (long)s->connect_timeout_ms);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)s->request_timeout_ms);
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, c->curl_err);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_write);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, c);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, c);
    curl_easy_setopt(h, CURLOPT_TCP_KEEPALIVE, 1L);
    if (strcmp(c->verb, "HEAD") == 0) {
        curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
    } else if (strcmp(c->verb, "PUT") == 0) {
        curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
        curl_easy_setopt(h, CURLOPT_READFUNCTION, on_read);
        curl_easy_setopt(h, CURLOPT_READDATA, c);
        curl_easy_setopt(h, CURLOPT_SEEKFUNCTION, on_seek);
        curl_easy_setopt(h, CURLOPT_SEEKDATA, c);
        curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, (curl_off_t)c->body_len);
    } else if (strcmp(c->verb, "POST") == 0) {
        curl_easy_setopt(h, CURLOPT_POST, 1L);
        curl_easy_setopt(h, CURLOPT_POSTFIELDS, c->body ? c->body : "");
        curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)c->body_len);
    } else if (strcmp(c->verb, "GET") != 0) {
        curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, c->verb);
    }
    uint64_t t0 = sqe_clock_ns();
    c->rc = curl_easy_perform(h);
    if (c->rc == CURLE_WRITE_ERROR && c->full && c->buf) c->rc = CURLE_OK; /* we had enough */
    if (c->rc == CURLE_OK || c->status) curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &c->status);
    if (sqe_log_enabled(SQE_LOG_DEBUG))
        sqe_log(SQE_LOG_DEBUG, "s3", "%s %s%s%s -> %ld%s%s (%.1f ms)", c->verb, s->origin,
                path.data, *c->query ? "?..." : "", c->rc == CURLE_OK ? c->status : 0,
                c->rc == CURLE_OK ? "" : " ", c->rc == CURLE_OK ? "" : curl_easy_strerror(c->rc),
                (double)(sqe_clock_ns() - t0) / 1e6);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, NULL);
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, NULL);
    curl_slist_free_all(hdrs);
    sqe_strbuf_free(&path);
    sqe_strbuf_free(&url);
    handle_release(s, h, c->rc == CURLE_OK);
    return true;
}

/* ------------------------------------------------------------ classification */

/* The <Code> of an error body, or "" (copied into out). */
static void error_field(const s3_call *c, const char *tag, char *out, size_t cap) {
    out[0] = '\0';
    sqe_xml_span sp;
    size_t pos = 0;
    if (!sqe_xml_next(c->resp.data, c->resp.len, &pos, tag, &sp)) return;
    char *t = sqe_xml_text(sp);
    if (t) snprintf(out, cap, "%s", t);
    sqe_free(t);
}

static bool is_cred_code(const char *code) {
    static const char *const codes[] = {"ExpiredToken",          "InvalidAccessKeyId",
                                        "InvalidToken",          "TokenRefreshRequired",
                                        "SignatureDoesNotMatch", "InvalidSecurity"};
    for (size_t i = 0; i < SQE_ARRAY_LEN(codes); i++)
        if (strcmp(code, codes[i]) == 0) return true;
    return false;
}

typedef enum { R_DONE, R_RETRY, R_CREDS } s3_verdict;

/* What to do after one attempt; sets c->ambiguous when the server may have
 * applied a write. */
static s3_verdict verdict(const s3_call *c, bool *ambiguous_now) {
    *ambiguous_now = false;
    if (c->rc != CURLE_OK) {
        switch (c->rc) {
        case CURLE_COULDNT_RESOLVE_HOST:
        case CURLE_COULDNT_RESOLVE_PROXY:
        case CURLE_URL_MALFORMAT:
        case CURLE_OUT_OF_MEMORY:
        case CURLE_UNSUPPORTED_PROTOCOL:
        case CURLE_PEER_FAILED_VERIFICATION:
        case CURLE_SSL_CACERT_BADFILE:
            return R_DONE;
        case CURLE_COULDNT_CONNECT:
            return R_RETRY; /* nothing was sent */
        default:
            *ambiguous_now = true; /* timeouts, resets, partial transfers */
            return R_RETRY;
        }
    }
    if (c->status == 429 || c->status == 503) return R_RETRY; /* throttled: not applied */
    if (c->status >= 500) {
        *ambiguous_now = true;
        return R_RETRY;
    }
    if (c->status == 400 || c->status == 403) {
        char code[64];
        error_field(c, "Code", code, sizeof code);
        if (is_cred_code(code)) return R_CREDS;
        if (c->resp.len == 0 && c->status == 403) return R_CREDS; /* HEAD: no body */
    }
    return R_DONE;
}

static uint64_t next_rand(s3_store *s) {
    uint64_t x = atomic_fetch_add(&s->rng, 0x9e3779b97f4a7c15ull);
    return sqe_hash_u64(x ^ sqe_clock_ns());
}

static void backoff(s3_store *s, const s3_call *c, int attempt_no) {
    int base = s->backoff_base_ms;
    if (c->status == 429 || c->status == 503) base *= 4; /* throttled: slow down more */
    uint64_t cap = (uint64_t)base << SQE_MIN(attempt_no, 10);
    if (cap > 5000) cap = 5000;
    uint64_t ms = cap / 2 + next_rand(s) % (cap / 2 + 1); /* jitter in [cap/2, cap] */
    if (c->retry_after_s > 0) ms = SQE_MAX(ms, (uint64_t)SQE_MIN(c->retry_after_s, 5) * 1000);
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

static bool transport_error(s3_store *s, const s3_call *c, sqe_error *err) {
    char *url = s3_url(s, c->key);
    const char *why = c->curl_err[0] ? c->curl_err : curl_easy_strerror(c->rc);
    switch (c->rc) {
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
        sqe_error_set(err, SQE_ERR_STORAGE,
                      "S3 %s '%s': cannot resolve the host of endpoint '%s' (DNS lookup failed: "
                      "%s); check the endpoint and the network",
                      c->verb, url, s->origin, why);
        break;
    case CURLE_COULDNT_CONNECT:
        sqe_error_set(err, SQE_ERR_STORAGE,
                      "S3 %s '%s': cannot connect to endpoint '%s' (%s) after %d attempts; check "
                      "that the endpoint is up and reachable",
                      c->verb, url, s->origin, why, c->attempts);
        break;
    case CURLE_OPERATION_TIMEDOUT:
        sqe_error_set(err, SQE_ERR_STORAGE,
                      "S3 %s '%s' timed out (%s; request timeout %d ms, connect timeout %d ms) "
                      "after %d attempts; check the endpoint '%s' and the network, or raise the "
                      "timeout",
                      c->verb, url, why, s->request_timeout_ms, s->connect_timeout_ms, c->attempts,
                      s->origin);
        break;
    default:
        sqe_error_set(err, SQE_ERR_STORAGE,
                      "S3 %s '%s': connection to endpoint '%s' failed (%s) after %d attempts",
                      c->verb, url, s->origin, why, c->attempts);
        break;
    }
    sqe_free(url);
    return false;
}

/* Runs the call with retries. true: a final HTTP response is in c (any
 * status; the caller interprets it). false: a transport failure, retries
 * exhausted on a retryable status, or no credentials (err set). */
static bool s3_perform(s3_store *s, s3_call *c, sqe_error *err) {
    bool cred_retried = false;
    for (int n = 0;; n++) {
        sqe_s3_creds cr;
        if (!sqe_s3_cred_source_get(s->creds, &cr, err)) {
            sqe_s3_creds_clear(&cr);
            char *url = s3_url(s, c->key);
            sqe_error_prefix(err, "S3 %s '%s': ", c->verb, url);
            sqe_free(url);
            return false;
        }
        c->attempts++;
        attempt(s, c, &cr);
        sqe_s3_creds_clear(&cr);
        bool amb = false;
        s3_verdict v = verdict(c, &amb);
        if (amb) c->ambiguous = true;
        if (v == R_CREDS && !cred_retried) {
            cred_retried = true;
            sqe_s3_cred_source_invalidate(s->creds);
            atomic_fetch_add(&s->n_retry, 1);
            continue;
        }
        if (v != R_RETRY) break;
        bool may_retry = n < s->max_retries && (c->idempotent || !amb);
        if (!may_retry) break;
        atomic_fetch_add(&s->n_retry, 1);
        sqe_log(SQE_LOG_DEBUG, "s3", "retrying %s (attempt %d failed: %s)", c->verb, n + 1,
                c->rc != CURLE_OK ? curl_easy_strerror(c->rc) : "HTTP error");
        backoff(s, c, n);
    }
    if (c->rc != CURLE_OK) return transport_error(s, c, err);
    return true;
}

/* The classified error for a final non-2xx response. */
static bool http_error(s3_store *s, const s3_call *c, sqe_error *err) {
    char code[64], msg[256], req_id[80];
    error_field(c, "Code", code, sizeof code);
    error_field(c, "Message", msg, sizeof msg);
    error_field(c, "RequestId", req_id, sizeof req_id);
    char *url = s3_url(s, c->key);
    char detail[400];
    snprintf(detail, sizeof detail, "%s%s%s%s%s", msg[0] ? ": " : "", msg,
             req_id[0] ? " (request id " : "", req_id, req_id[0] ? ")" : "");
    if (!code[0] && c->status == 404) snprintf(code, sizeof code, "NoSuchKey");
    if (strcmp(code, "NoSuchKey") == 0 || (c->status == 404 && c->key && !code[0])) {
        sqe_error_set(err, SQE_ERR_NOT_FOUND, "object '%s' does not exist (S3 NoSuchKey)", url);
    } else if (is_cred_code(code) || (c->status == 403 && !code[0])) {
        sqe_error_set(err, SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE,
                      "S3 rejected the credentials for %s '%s': %s (HTTP %ld)%s; renew or correct "
                      "them (check the access key and the secret key, refresh AWS_SESSION_TOKEN, "
                      "or run `aws sso login`) and retry",
                      c->verb, url, code[0] ? code : "Forbidden", c->status, detail);
    } else if (strcmp(code, "NoSuchBucket") == 0) {
        sqe_error_set(err, SQE_ERR_STORAGE,
                      "S3 %s '%s': bucket '%s' does not exist (S3 NoSuchBucket)%s; check the "
                      "bucket name, the endpoint and the region",
                      c->verb, url, s->bucket, detail);
    } else if (strcmp(code, "AccessDenied") == 0) {
        sqe_error_set(err, SQE_ERR_STORAGE,
                      "S3 %s '%s': access denied (S3 AccessDenied, HTTP 403)%s; check that these "
                      "credentials may access bucket '%s' (IAM and bucket policies)",
                      c->verb, url, detail, s->bucket);
    } else if (c->bucket_region[0] && strcmp(c->bucket_region, s->region) != 0) {
        sqe_error_set(err, SQE_ERR_STORAGE,
                      "S3 %s '%s': bucket '%s' is in region '%s', not '%s' (S3 %s, HTTP %ld); set "
                      "the region to '%s' (--s3-region or AWS_REGION)",
                      c->verb, url, s->bucket, c->bucket_region, s->region,
                      code[0] ? code : "redirect", c->status, c->bucket_region);
    } else if (c->status == 429 || c->status == 503 || strcmp(code, "SlowDown") == 0) {
        sqe_error_set(err, SQE_ERR_STORAGE,
                      "S3 %s '%s': throttled by the server (%s, HTTP %ld) after %d attempts%s; "
                      "retry later or lower the request concurrency",
                      c->verb, url, code[0] ? code : "SlowDown", c->status, c->attempts, detail);
    } else if (c->status >= 500) {
        sqe_error_set(err, SQE_ERR_STORAGE,
                      "S3 %s '%s': server error %s (HTTP %ld) after %d attempts%s", c->verb, url,
                      code[0] ? code : "", c->status, c->attempts, detail);
    } else {
        sqe_error_set(err, SQE_ERR_STORAGE, "S3 %s '%s' failed: %s (HTTP %ld)%s", c->verb, url,
                      code[0] ? code : "error", c->status, detail);
    }
    sqe_free(url);
    return false;
}

/* ------------------------------------------------------------ paths */

/* The key of `path` in this store's bucket (pointer into path). */
static bool path_key(s3_store *s, const char *path, const char **key, sqe_error *err) {
    if (!path || !sqe_str_ieqn(path, "s3://", 5))
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                             "'%s' is not an s3:// URL (this store serves bucket '%s')",
                             path ? path : "", s->bucket);
    const char *b = path + 5, *slash = strchr(b, '/');
    size_t bl = slash ? (size_t)(slash - b) : strlen(b);
    if (bl != strlen(s->bucket) || memcmp(b, s->bucket, bl) != 0)
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                             "'%s' is in bucket '%.*s', but this S3 store serves bucket '%s'", path,
                             (int)bl, b, s->bucket);
    *key = slash ? slash + 1 : b + bl;
    return true;
}

static bool object_key(s3_store *s, const char *path, const char **key, sqe_error *err) {
    if (!path_key(s, path, key, err)) return false;
    if (!**key)
        return sqe_error_set(err, SQE_ERR_NOT_FOUND, "'%s' names a bucket, not an object", path);
    return true;
}

/* ------------------------------------------------------------ ETag map */

static void obj_remember(s3_store *s, const char *key, const char *etag, uint64_t size) {
    if (!etag || !*etag) return;
    s3_obj *o = sqe_calloc(1, sizeof *o);
    o->size = size;
    snprintf(o->etag, sizeof o->etag, "%s", etag);
    pthread_mutex_lock(&s->mu);
    if (sqe_strmap_len(s->objs) >= S3_ETAG_CACHE_MAX) {
        size_t it = 0;
        const char *k;
        void *v;
        while (sqe_strmap_next(s->objs, &it, &k, &v)) sqe_free(v);
        sqe_strmap_free(s->objs);
        s->objs = sqe_strmap_new();
    }
    sqe_free(sqe_strmap_put(s->objs, key, o));
    pthread_mutex_unlock(&s->mu);
}

static bool obj_lookup(s3_store *s, const char *key, s3_obj *out) {
    pthread_mutex_lock(&s->mu);
    s3_obj *o = sqe_strmap_get(s->objs, key);
    if (o) *out = *o;
    pthread_mutex_unlock(&s->mu);
    return o != NULL;
}

static void obj_forget(s3_store *s, const char *key) {
    pthread_mutex_lock(&s->mu);
    sqe_free(sqe_strmap_remove(s->objs, key));
    pthread_mutex_unlock(&s->mu);
}

/* ------------------------------------------------------------ head, get */

static bool s3_head_key(s3_store *s, const char *key, s3_call *c, sqe_error *err) {
    call_init(c, "HEAD", OP_HEAD, key);
    atomic_fetch_add(&s->n_head, 1);
    if (!s3_perform(s, c, err)) return false;
    if (c->status == 200) return true;
    if (c->status == 400 || c->status == 403) {
        /* HEAD responses carry no error body: ask for one byte to learn the code */
        s3_call g;
        call_init(&g, "GET", OP_GET, key);
        call_header(&g, "Range", "bytes=0-0");
        atomic_fetch_add(&s->n_get, 1);
        bool ok = s3_perform(s, &g, err);
        if (ok) http_error(s, g.status >= 300 ? &g : c, err);
        call_free(&g);
        return false;
    }
    return http_error(s, c, err);
}

static bool s3_head(sqe_store *st, const char *path, sqe_io_entry *out, sqe_error *err) {
    s3_store *s = (s3_store *)st;
    const char *key;
    if (!object_key(s, path, &key, err)) return false;
    s3_call c;
    bool ok = s3_head_key(s, key, &c, err);
    if (ok) {
        memset(out, 0, sizeof *out);
        out->path = path;
        const char *slash = strrchr(key, '/');
        out->name = slash ? slash + 1 : key;
        out->size = c.has_length ? c.content_length : 0;
        out->mtime_us = c.mtime_us;
        obj_remember(s, key, c.etag, out->size);
    }
    call_free(&c);
    return ok;
}

static bool changed_error(s3_store *s, const char *key, const char *what, sqe_error *err) {
    char *url = s3_url(s, key);
    sqe_error_set(err, SQE_ERR_STORAGE,
                  "object '%s' " SQE_IO_CHANGED_MARK " (%s); it was replaced by another "
                  "writer: re-run the statement",
                  url, what);
    sqe_free(url);
    return false;
}

/* A ranged GET sent with If-Match the ETag first seen answered 412. */
static bool etag_changed_error(s3_store *s, const char *key, const char *etag, sqe_error *err) {
    char what[128];
    snprintf(what, sizeof what, "its ETag is no longer %s", etag);
    return changed_error(s, key, what, err);
}

static bool s3_get_range(sqe_store *st, const char *path, uint64_t offset, size_t len, void *buf,
                         size_t *n_read, sqe_error *err) {
    s3_store *s = (s3_store *)st;
    const char *key;
    *n_read = 0;
    if (!object_key(s, path, &key, err)) return false;
    s3_obj known;
    bool have = obj_lookup(s, key, &known);
    if (len == 0) return true;
    char range[64];
    snprintf(range, sizeof range, "bytes=%llu-%llu", (unsigned long long)offset,
             (unsigned long long)(offset + len - 1));
    s3_call c;
    call_init(&c, "GET", OP_GET, key);
    call_header(&c, "Range", range);
    if (have) call_header(&c, "If-Match", known.etag);
    c.buf = buf;
    c.cap = len;
    c.offset = offset;
    atomic_fetch_add(&s->n_get, 1);
    bool ok = s3_perform(s, &c, err);
    if (ok) {
        if (c.status == 200 || c.status == 206) {
            uint64_t total = c.has_range_total ? c.range_total : UINT64_MAX;
            if (c.status == 200 && c.has_length) total = c.content_length;
            if (have && total != UINT64_MAX && total != known.size) {
                char what[128];
                snprintf(what, sizeof what, "its size was %llu bytes, now %llu",
                         (unsigned long long)known.size, (unsigned long long)total);
                ok = changed_error(s, key, what, err);
            } else {
                *n_read = c.got;
                atomic_fetch_add(&s->bytes_read, c.got);
            }
        } else if (c.status == 416) {
            /* offset at or past the end (or an empty object): 0 bytes */
            if (have && offset < known.size) {
                ok = changed_error(s, key, "it became shorter", err);
            }
        } else if (c.status == 412 && have) {
            ok = etag_changed_error(s, key, known.etag, err);
        } else {
            ok = http_error(s, &c, err);
        }
    }
    call_free(&c);
    return ok;
}

/* GetObject with a suffix range (`Range: bytes=-N`): the object's last
 * min(N, size) bytes and its size (Content-Range's total) in one request,
 * no HEAD. 416 (an empty object) is 0 bytes of size 0. A server that
 * ignores Range answers 200 with the whole object: its last bytes are then
 * fetched with an ordinary range when the object is longer than N. */
static bool s3_get_tail(sqe_store *st, const char *path, size_t len, void *buf, size_t *n_read,
                        uint64_t *object_size, sqe_error *err) {
    s3_store *s = (s3_store *)st;
    const char *key;
    *n_read = 0;
    *object_size = 0;
    if (!object_key(s, path, &key, err)) return false;
    s3_obj known;
    bool have = obj_lookup(s, key, &known);
    if (len == 0)
        return sqe_error_set(err, SQE_ERR_INTERNAL, "suffix read of 0 bytes of '%s'", path);
    char range[64];
    snprintf(range, sizeof range, "bytes=-%llu", (unsigned long long)len);
    s3_call c;
    call_init(&c, "GET", OP_GET, key);
    call_header(&c, "Range", range);
    if (have) call_header(&c, "If-Match", known.etag);
    c.buf = buf;
    c.cap = len;
    atomic_fetch_add(&s->n_get, 1);
    bool ok = s3_perform(s, &c, err);
    bool refetch = false;
    if (ok) {
        if (c.status == 206 || c.status == 200) {
            uint64_t total = c.status == 206 && c.has_range_total ? c.range_total
                             : c.has_length                       ? c.content_length
                                                                  : c.got;
            if (have && total != known.size) {
                char what[128];
                snprintf(what, sizeof what, "its size was %llu bytes, now %llu",
                         (unsigned long long)known.size, (unsigned long long)total);
                ok = changed_error(s, key, what, err);
            } else if (c.status == 200 && total > len) {
                refetch = true; /* Range ignored: we kept the first bytes */
                *object_size = total;
            } else {
                *n_read = c.got;
                *object_size = total;
                atomic_fetch_add(&s->bytes_read, c.got);
            }
        } else if (c.status == 416) {
            if (have && known.size > 0) ok = changed_error(s, key, "it became empty", err);
        } else if (c.status == 412 && have) {
            ok = etag_changed_error(s, key, known.etag, err);
        } else {
            ok = http_error(s, &c, err);
        }
    }
    call_free(&c);
    if (ok && refetch) return s3_get_range(st, path, *object_size - len, len, buf, n_read, err);
    return ok;
}

/* ------------------------------------------------------------ list */

typedef struct list_ctx {
    s3_store *s;
    const char *prefix;
    sqe_io_list_cb cb;
    void *ctx;
    bool stop;
    bool url_encoded; /* this page's keys are URL-encoded (encoding-type=url) */
} list_ctx;

/* A Key or Prefix of a listing page, decoded (NULL if malformed). */
static char *list_text(const list_ctx *l, sqe_xml_span f) {
    char *t = sqe_xml_text(f);
    if (t && l->url_encoded && !sqe_s3_url_decode(t)) {
        sqe_free(t);
        return NULL;
    }
    return t;
}

static bool list_emit(list_ctx *l, const char *key, bool is_dir, uint64_t size, int64_t mtime) {
    size_t kl = strlen(key);
    size_t pl = strlen(l->prefix);
    if (kl <= pl) return true; /* the folder marker of the prefix itself */
    char *name_buf = sqe_strndup(key + pl, kl - pl - (is_dir ? 1 : 0));
    if (!*name_buf || (!is_dir && key[kl - 1] == '/')) { /* folder markers, "a//b" */
        sqe_free(name_buf);
        return true;
    }
    char *path = sqe_asprintf("s3://%s/%.*s", l->s->bucket, (int)(kl - (is_dir ? 1 : 0)), key);
    const char *slash = strrchr(name_buf, '/');
    sqe_io_entry e = {.path = path,
                      .name = slash ? slash + 1 : name_buf,
                      .is_dir = is_dir,
                      .size = size,
                      .mtime_us = mtime};
    bool go_on = l->cb(&e, l->ctx);
    sqe_free(path);
    sqe_free(name_buf);
    if (!go_on) l->stop = true;
    return go_on;
}

static bool malformed(s3_store *s, const char *prefix, const char *what, sqe_error *err) {
    char *url = s3_url(s, prefix);
    sqe_error_set(err, SQE_ERR_STORAGE, "S3 listing of '%s': malformed response from '%s' (%s)",
                  url, s->origin, what);
    sqe_free(url);
    return false;
}

/* Emits the entries of one page; *next gets the continuation token or NULL. */
static bool list_page(list_ctx *l, const s3_call *c, char **next, sqe_error *err) {
    const char *doc = c->resp.data;
    size_t len = c->resp.len, pos = 0;
    sqe_xml_span sp, f;
    *next = NULL;
    if (!doc || !memmem(doc, len, "<ListBucketResult", 17) ||
        !memmem(doc, len, "</ListBucketResult>", 19))
        return malformed(l->s, l->prefix, "no complete ListBucketResult", err);
    /* we ask for encoding-type=url (keys may hold bytes XML 1.0 cannot);
     * a server that honours it says so, and only then are keys decoded */
    l->url_encoded = sqe_xml_next(doc, len, &pos, "EncodingType", &sp) && sp.n == 3 &&
                     memcmp(sp.p, "url", 3) == 0;
    pos = 0;
    while (!l->stop && sqe_xml_next(doc, len, &pos, "Contents", &sp)) {
        if (!sqe_xml_child(sp, "Key", &f))
            return malformed(l->s, l->prefix, "Contents without Key", err);
        char *key = list_text(l, f);
        if (!key) return malformed(l->s, l->prefix, "undecodable Key", err);
        uint64_t size = 0;
        int64_t mtime = 0;
        char tmp[64];
        if (sqe_xml_child(sp, "Size", &f) && f.n < sizeof tmp) {
            memcpy(tmp, f.p, f.n);
            tmp[f.n] = '\0';
            size = strtoull(tmp, NULL, 10);
        }
        if (sqe_xml_child(sp, "LastModified", &f) && f.n < sizeof tmp) {
            memcpy(tmp, f.p, f.n);
            tmp[f.n] = '\0';
            mtime = sqe_s3_parse_time(tmp);
        }
        if (sqe_xml_child(sp, "ETag", &f)) {
            char *etag = sqe_xml_text(f);
            if (etag) obj_remember(l->s, key, etag, size);
            sqe_free(etag);
        }
        if (strncmp(key, l->prefix, strlen(l->prefix)) == 0) list_emit(l, key, false, size, mtime);
        sqe_free(key);
    }
    pos = 0;
    while (!l->stop && sqe_xml_next(doc, len, &pos, "CommonPrefixes", &sp)) {
        if (!sqe_xml_child(sp, "Prefix", &f)) continue;
        char *p = list_text(l, f);
        if (!p) return malformed(l->s, l->prefix, "undecodable Prefix", err);
        size_t pl = strlen(p);
        if (pl && p[pl - 1] == '/' && strncmp(p, l->prefix, strlen(l->prefix)) == 0)
            list_emit(l, p, true, 0, 0);
        sqe_free(p);
    }
    pos = 0;
    if (sqe_xml_next(doc, len, &pos, "IsTruncated", &sp) && sp.n == 4 &&
        memcmp(sp.p, "true", 4) == 0) {
        pos = 0;
        if (!sqe_xml_next(doc, len, &pos, "NextContinuationToken", &sp) || sp.n == 0)
            return malformed(l->s, l->prefix, "truncated page without NextContinuationToken", err);
        *next = sqe_xml_text(sp);
        if (!*next) return malformed(l->s, l->prefix, "undecodable NextContinuationToken", err);
    }
    return true;
}

static bool s3_list(sqe_store *st, const char *prefix_url, bool recursive, sqe_io_list_cb cb,
                    void *ctx, sqe_error *err) {
    s3_store *s = (s3_store *)st;
    const char *k;
    if (!path_key(s, prefix_url, &k, err)) return false;
    char *prefix = (*k && k[strlen(k) - 1] != '/') ? sqe_asprintf("%s/", k) : sqe_strdup(k);
    list_ctx l = {s, prefix, cb, ctx, false, false};
    char *token = NULL;
    bool ok = true;
    char page_size[16];
    snprintf(page_size, sizeof page_size, "%d", s->list_page_size);
    do {
        sqe_sigv4_param p[6];
        size_t n = 0;
        p[n++] = (sqe_sigv4_param){"list-type", "2"};
        p[n++] = (sqe_sigv4_param){"encoding-type", "url"};
        p[n++] = (sqe_sigv4_param){"prefix", prefix};
        if (!recursive) p[n++] = (sqe_sigv4_param){"delimiter", "/"};
        if (token) p[n++] = (sqe_sigv4_param){"continuation-token", token};
        if (s->list_page_size > 0) p[n++] = (sqe_sigv4_param){"max-keys", page_size};
        sqe_strbuf q;
        sqe_strbuf_init(&q);
        sqe_sigv4_query(&q, p, n);
        s3_call c;
        call_init(&c, "GET", OP_LIST, NULL);
        c.query = q.data;
        c.resp_max = S3_MAX_XML;
        atomic_fetch_add(&s->n_list, 1);
        char *next = NULL;
        ok = s3_perform(s, &c, err);
        if (ok && c.status != 200) {
            c.key = prefix;
            ok = http_error(s, &c, err);
        }
        if (ok && c.full) ok = malformed(s, prefix, "listing page larger than 64 MiB", err);
        if (ok) ok = list_page(&l, &c, &next, err);
        if (ok && next && token && strcmp(next, token) == 0)
            ok = malformed(s, prefix, "the same continuation token twice", err);
        call_free(&c);
        sqe_strbuf_free(&q);
        sqe_free(token);
        token = next;
    } while (ok && token && !l.stop);
    sqe_free(token);
    sqe_free(prefix);
    return ok;
}

/* ------------------------------------------------------------ writes */

/* After an ambiguous attempt a conditional write got 412/NoSuchUpload:
 * true if the object now holds exactly what we wrote (expected ETag). */
static bool own_write_landed(s3_store *s, const char *key, const char *want_etag) {
    s3_call h;
    sqe_error ignore;
    bool same = false;
    if (s3_head_key(s, key, &h, &ignore)) {
        char e[80];
        snprintf(e, sizeof e, "%s", h.etag);
        same = strlen(e) >= 2 && strlen(e) - 2 == strlen(want_etag) &&
               sqe_str_ieqn(e + 1, want_etag, strlen(want_etag));
    }
    call_free(&h);
    return same;
}

typedef enum { PUT_PLAIN, PUT_IF_ABSENT, PUT_IF_MATCH } put_mode;

static bool put_single(s3_store *s, const char *key, const char *path, const void *data, size_t len,
                       put_mode mode, const char *etag, sqe_error *err) {
    s3_call c;
    call_init(&c, "PUT", OP_PUT, key);
    c.body = data;
    c.body_len = len;
    c.has_body = true;
    call_header(&c, "Content-Type", "application/octet-stream");
    char quoted[96];
    if (mode == PUT_IF_ABSENT) call_header(&c, "If-None-Match", "*");
    if (mode == PUT_IF_MATCH) {
        snprintf(quoted, sizeof quoted, etag[0] == '"' ? "%s" : "\"%s\"", etag);
        call_header(&c, "If-Match", quoted);
    }
    atomic_fetch_add(&s->n_put, 1);
    bool ok = s3_perform(s, &c, err);
    obj_forget(s, key);
    if (ok && c.status == 409 && mode != PUT_PLAIN) {
        /* ConditionalRequestConflict: a concurrent conditional write; one more try */
        atomic_fetch_add(&s->n_retry, 1);
        ok = s3_perform(s, &c, err);
    }
    if (ok && c.status == 412 && mode != PUT_PLAIN) {
        char md5[33];
        sqe_md5_hex(data, len, md5);
        if (c.ambiguous && own_write_landed(s, key, md5)) {
            c.status = 200;
        } else if (mode == PUT_IF_ABSENT) {
            ok = sqe_error_set(err, SQE_ERR_ALREADY_EXISTS,
                               "object '%s' already exists (S3 PUT If-None-Match: * refused it)",
                               path);
        } else {
            ok = sqe_error_set(err, SQE_ERR_ALREADY_EXISTS,
                               "object '%s' changed since it was read (its ETag is no longer %s); "
                               "re-read it and retry",
                               path, quoted);
        }
    }
    if (ok && (c.status < 200 || c.status > 299)) ok = http_error(s, &c, err);
    if (ok) atomic_fetch_add(&s->bytes_written, len);
    call_free(&c);
    return ok;
}

static bool mp_abort(s3_store *s, const char *key, const char *upload_id) {
    sqe_sigv4_param p[] = {{"uploadId", upload_id}};
    sqe_strbuf q;
    sqe_strbuf_init(&q);
    sqe_sigv4_query(&q, p, 1);
    s3_call c;
    call_init(&c, "DELETE", OP_DEL, key);
    c.query = q.data;
    sqe_error ignore;
    atomic_fetch_add(&s->n_del, 1);
    bool ok = s3_perform(s, &c, &ignore) && c.status / 100 == 2;
    call_free(&c);
    sqe_strbuf_free(&q);
    return ok;
}

static bool mp_create(s3_store *s, const char *key, char **upload_id, sqe_error *err) {
    s3_call c;
    call_init(&c, "POST", OP_PUT, key);
    c.query = "uploads=";
    c.has_body = true;
    c.body = "";
    c.idempotent = false;
    call_header(&c, "Content-Type", "application/octet-stream");
    atomic_fetch_add(&s->n_put, 1);
    bool ok = s3_perform(s, &c, err);
    if (ok && c.status != 200) ok = http_error(s, &c, err);
    sqe_xml_span sp;
    size_t pos = 0;
    if (ok && !(sqe_xml_next(c.resp.data, c.resp.len, &pos, "UploadId", &sp) &&
                (*upload_id = sqe_xml_text(sp)) != NULL)) {
        char *url = s3_url(s, key);
        ok = sqe_error_set(err, SQE_ERR_STORAGE,
                           "S3 multipart upload of '%s': malformed response (no UploadId)", url);
        sqe_free(url);
    }
    call_free(&c);
    return ok;
}

static bool mp_part(s3_store *s, const char *key, const char *upload_id, int part, const char *data,
                    size_t len, char *etag_out, sqe_error *err) {
    char num[16];
    snprintf(num, sizeof num, "%d", part);
    sqe_sigv4_param p[] = {{"partNumber", num}, {"uploadId", upload_id}};
    sqe_strbuf q;
    sqe_strbuf_init(&q);
    sqe_sigv4_query(&q, p, 2);
    s3_call c;
    call_init(&c, "PUT", OP_PUT, key);
    c.query = q.data;
    c.body = data;
    c.body_len = len;
    c.has_body = true;
    atomic_fetch_add(&s->n_put, 1);
    bool ok = s3_perform(s, &c, err);
    if (ok && c.status != 200) ok = http_error(s, &c, err);
    if (ok && !c.etag[0]) {
        char *url = s3_url(s, key);
        ok = sqe_error_set(err, SQE_ERR_STORAGE,
                           "S3 multipart upload of '%s': part %d answered without an ETag", url,
                           part);
        sqe_free(url);
    }
    if (ok) {
        snprintf(etag_out, 80, "%s", c.etag);
        atomic_fetch_add(&s->bytes_written, len);
    }
    call_free(&c);
    sqe_strbuf_free(&q);
    return ok;
}

static bool mp_complete(s3_store *s, const char *key, const char *upload_id, char (*etags)[80],
                        int n_parts, const char *want_etag, sqe_error *err) {
    sqe_strbuf body, q;
    sqe_strbuf_init(&body);
    sqe_strbuf_init(&q);
    sqe_strbuf_puts(&body, "<CompleteMultipartUpload>");
    for (int i = 0; i < n_parts; i++)
        sqe_strbuf_printf(&body, "<Part><PartNumber>%d</PartNumber><ETag>%s</ETag></Part>", i + 1,
                          etags[i]);
    sqe_strbuf_puts(&body, "</CompleteMultipartUpload>");
    sqe_sigv4_param p[] = {{"uploadId", upload_id}};
    sqe_sigv4_query(&q, p, 1);
    s3_call c;
    call_init(&c, "POST", OP_PUT, key);
    c.query = q.data;
    c.body = body.data;
    c.body_len = body.len;
    c.has_body = true;
    call_header(&c, "Content-Type", "application/xml");
    atomic_fetch_add(&s->n_put, 1);
    bool ok = s3_perform(s, &c, err);
    if (ok && c.status == 200 && memmem(c.resp.data ? c.resp.data : "", c.resp.len, "<Error>", 7))
        c.status = 500; /* S3 may report a failed completion in a 200 body */
    if (ok && c.status != 200) {
        char code[64];
        error_field(&c, "Code", code, sizeof code);
        if (!(c.ambiguous && strcmp(code, "NoSuchUpload") == 0 &&
              own_write_landed(s, key, want_etag)))
            ok = http_error(s, &c, err);
    }
    call_free(&c);
    sqe_strbuf_free(&body);
    sqe_strbuf_free(&q);
    return ok;
}

/* Parts are uploaded by up to MP_WORKERS threads (bounded further by the
 * store's max_in_flight slots); each takes the next part number. The first
 * failure stops the others from starting new parts and is reported. */
#define MP_WORKERS 4

typedef struct mp_job {
    s3_store *s;
    const char *key, *upload_id, *data;
    size_t len;
    uint64_t part;
    int n_parts;
    char (*etags)[80];
    unsigned char *md5s;
    _Atomic int next;
    _Atomic bool failed;
    pthread_mutex_t mu;
    sqe_error err; /* the first failure */
} mp_job;

static void *mp_worker(void *arg) {
    mp_job *j = arg;
    for (;;) {
        int i = atomic_fetch_add(&j->next, 1);
        if (i >= j->n_parts || atomic_load(&j->failed)) break;
        size_t off = (size_t)i * j->part, n = SQE_MIN((size_t)j->part, j->len - off);
        sqe_md5_raw(j->data + off, n, j->md5s + 16 * i);
        sqe_error e;
        if (!mp_part(j->s, j->key, j->upload_id, i + 1, j->data + off, n, j->etags[i], &e)) {
            pthread_mutex_lock(&j->mu);
            if (!atomic_exchange(&j->failed, true)) j->err = e;
            pthread_mutex_unlock(&j->mu);
            break;
        }
    }
    return NULL;
}

static bool put_multipart(s3_store *s, const char *key, const char *data, size_t len,
                          sqe_error *err) {
    uint64_t part = s->part_size;
    if ((len + part - 1) / part > S3_MAX_PARTS) part = (len + S3_MAX_PARTS - 1) / S3_MAX_PARTS;
    int n_parts = (int)((len + part - 1) / part);
    char *upload_id = NULL;
    if (!mp_create(s, key, &upload_id, err)) return false;
    mp_job j = {.s = s,
                .key = key,
                .upload_id = upload_id,
                .data = data,
                .len = len,
                .part = part,
                .n_parts = n_parts};
    j.etags = sqe_calloc((size_t)n_parts, sizeof *j.etags);
    j.md5s = sqe_calloc((size_t)n_parts, 16);
    pthread_mutex_init(&j.mu, NULL);
    int n_threads = SQE_MIN(SQE_MIN(MP_WORKERS, n_parts), s->max_in_flight);
    pthread_t th[MP_WORKERS];
    int started = 0;
    for (; started < n_threads; started++)
        if (pthread_create(&th[started], NULL, mp_worker, &j) != 0) break;
    if (started == 0) mp_worker(&j); /* no thread: upload here */
    for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
    bool ok = !atomic_load(&j.failed);
    if (!ok) *err = j.err;
    if (ok) {
        char hex[33], want[48];
        sqe_md5_hex(j.md5s, (size_t)n_parts * 16, hex);
        snprintf(want, sizeof want, "%s-%d", hex, n_parts);
        ok = mp_complete(s, key, upload_id, j.etags, n_parts, want, err);
    }
    if (!ok) mp_abort(s, key, upload_id);
    obj_forget(s, key);
    pthread_mutex_destroy(&j.mu);
    sqe_free(j.md5s);
    sqe_free(j.etags);
    sqe_free(upload_id);
    return ok;
}

static bool s3_put(sqe_store *st, const char *path, const void *data, size_t len, sqe_error *err) {
    s3_store *s = (s3_store *)st;
    const char *key;
    if (!object_key(s, path, &key, err)) return false;
    if (len > s->multipart_threshold) return put_multipart(s, key, data, len, err);
    return put_single(s, key, path, data, len, PUT_PLAIN, NULL, err);
}

static bool conditional_too_big(const char *path, size_t len, sqe_error *err) {
    if (len <= S3_MAX_SINGLE_PUT) return false;
    return !sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                          "conditional write of '%s' (%zu bytes): objects over 5 GiB cannot be "
                          "written conditionally",
                          path, len);
}

static bool s3_put_if_absent(sqe_store *st, const char *path, const void *data, size_t len,
                             sqe_error *err) {
    s3_store *s = (s3_store *)st;
    const char *key;
    if (!object_key(s, path, &key, err) || conditional_too_big(path, len, err)) return false;
    return put_single(s, key, path, data, len, PUT_IF_ABSENT, NULL, err);
}

bool sqe_io_s3_put_if_match(sqe_store *st, const char *path, const void *data, size_t len,
                            const char *etag, sqe_error *err) {
    if (!st || st->vt != &s3_vtable)
        return sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                             "replacing '%s' only if unchanged (If-Match) needs an S3 store; the "
                             "'%s' store has no ETags",
                             path, st ? st->vt->name : "?");
    s3_store *s = (s3_store *)st;
    const char *key;
    if (!object_key(s, path, &key, err) || conditional_too_big(path, len, err)) return false;
    if (!etag || !*etag || strlen(etag) > 80)
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                             "replacing '%s' if unchanged needs the ETag it was read with", path);
    return put_single(s, key, path, data, len, PUT_IF_MATCH, etag, err);
}

bool sqe_io_s3_head_etag(sqe_store *st, const char *path, sqe_io_entry *out, char *etag,
                         size_t etag_cap, sqe_error *err) {
    if (!st || st->vt != &s3_vtable)
        return sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                             "the ETag of '%s' needs an S3 store; the '%s' store has none", path,
                             st ? st->vt->name : "?");
    s3_store *s = (s3_store *)st;
    const char *key;
    if (!object_key(s, path, &key, err)) return false;
    s3_call c;
    bool ok = s3_head_key(s, key, &c, err);
    if (ok) {
        memset(out, 0, sizeof *out);
        out->path = path;
        const char *slash = strrchr(key, '/');
        out->name = slash ? slash + 1 : key;
        out->size = c.has_length ? c.content_length : 0;
        out->mtime_us = c.mtime_us;
        snprintf(etag, etag_cap, "%s", c.etag);
        obj_remember(s, key, c.etag, out->size);
    }
    call_free(&c);
    return ok;
}

/* The vtable's version / put_if_match: the ETag from one HEAD, and PUT
 * If-Match it. */
static bool s3_version(sqe_store *st, const char *path, char *token, size_t cap, sqe_error *err) {
    sqe_io_entry e;
    return sqe_io_s3_head_etag(st, path, &e, token, cap, err);
}

static bool s3_put_if_match_vt(sqe_store *st, const char *path, const void *data, size_t len,
                               const char *token, sqe_error *err) {
    return sqe_io_s3_put_if_match(st, path, data, len, token, err);
}

static bool s3_del(sqe_store *st, const char *path, sqe_error *err) {
    s3_store *s = (s3_store *)st;
    const char *key;
    if (!object_key(s, path, &key, err)) return false;
    /* DeleteObject answers 204 for a missing key too: HEAD first so a missing
     * object is NOT_FOUND as on the other backends */
    s3_call c;
    bool ok = s3_head_key(s, key, &c, err);
    call_free(&c);
    if (!ok) return false;
    call_init(&c, "DELETE", OP_DEL, key);
    atomic_fetch_add(&s->n_del, 1);
    ok = s3_perform(s, &c, err);
    obj_forget(s, key);
    if (ok && c.status / 100 != 2) ok = http_error(s, &c, err);
    call_free(&c);
    return ok;
}

/* ------------------------------------------------------------ lifecycle */

static void s3_stats(sqe_store *st, sqe_io_stats *out) {
    s3_store *s = (s3_store *)st;
    out->n_list = atomic_load(&s->n_list);
    out->n_get = atomic_load(&s->n_get);
    out->n_head = atomic_load(&s->n_head);
    out->n_put = atomic_load(&s->n_put);
    out->n_del = atomic_load(&s->n_del);
    out->n_retry = atomic_load(&s->n_retry);
    out->bytes_read = atomic_load(&s->bytes_read);
    out->bytes_written = atomic_load(&s->bytes_written);
}

static void s3_free(sqe_store *st) {
    s3_store *s = (s3_store *)st;
    if (!s) return;
    for (int i = 0; i < s->n_idle; i++) curl_easy_cleanup(s->idle[i]);
    sqe_free(s->idle);
    size_t it = 0;
    const char *k;
    void *v;
    while (sqe_strmap_next(s->objs, &it, &k, &v)) sqe_free(v);
    sqe_strmap_free(s->objs);
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
    sqe_free(s->bucket);
    sqe_free(s->origin);
    sqe_free(s->host);
    sqe_free(s->base_path);
    sqe_free(s->region);
    sqe_free(s);
}

static const sqe_store_vtable s3_vtable = {
    .name = "s3",
    .list = s3_list,
    .head = s3_head,
    .get_range = s3_get_range,
    .put = s3_put,
    .put_if_absent = s3_put_if_absent,
    .del = s3_del,
    .free = s3_free,
    .stats = s3_stats,
    .version = s3_version,
    .put_if_match = s3_put_if_match_vt,
    .get_tail = s3_get_tail,
};

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static void curl_init_once(void) {
    curl_global_init(CURL_GLOBAL_DEFAULT);
}

/* Splits the endpoint into origin and host; virtual-hosted puts the bucket
 * in front of the host. */
static bool s3_endpoint(s3_store *s, const sqe_s3_config *cfg, sqe_error *err) {
    bool vh = cfg->virtual_hosted || !cfg->endpoint || !*cfg->endpoint;
    char *ep = (cfg->endpoint && *cfg->endpoint)
                   ? sqe_strdup(cfg->endpoint)
                   : sqe_asprintf("https://s3.%s.amazonaws.com", s->region);
    const char *sep = strstr(ep, "://");
    if (!sep || (!sqe_str_ieqn(ep, "http://", 7) && !sqe_str_ieqn(ep, "https://", 8)) || !sep[3] ||
        sep[3] == '/') {
        sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                      "invalid S3 endpoint '%s'; write it as http://host[:port] or "
                      "https://host[:port]",
                      ep);
        sqe_free(ep);
        return false;
    }
    size_t scheme_len = (size_t)(sep - ep) + 3;
    const char *host = sep + 3, *slash = strchr(host, '/');
    size_t host_len = slash ? (size_t)(slash - host) : strlen(host);
    sqe_strbuf base;
    sqe_strbuf_init(&base);
    if (slash) { /* an endpoint with a path: keep it (without trailing '/') */
        size_t pl = strlen(slash);
        while (pl > 0 && slash[pl - 1] == '/') pl--;
        sqe_strbuf_append(&base, slash, pl);
    }
    if (vh) {
        s->host = sqe_asprintf("%s.%.*s", s->bucket, (int)host_len, host);
    } else {
        s->host = sqe_strndup(host, host_len);
        sqe_strbuf_putc(&base, '/');
        sqe_uri_encode(&base, s->bucket, strlen(s->bucket), false);
    }
    s->origin = sqe_asprintf("%.*s%s", (int)scheme_len, ep, s->host);
    s->base_path = sqe_strbuf_detach(&base);
    sqe_free(ep);
    return true;
}

sqe_store *sqe_io_s3_new(const sqe_s3_config *cfg, const char *bucket, sqe_s3_cred_source *creds,
                         sqe_error *err) {
    if (!bucket || !*bucket || strchr(bucket, '/')) {
        sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT, "invalid S3 bucket name '%s'",
                      bucket ? bucket : "");
        return NULL;
    }
    if (!creds) {
        sqe_error_set(err, SQE_ERR_INTERNAL, "S3 store for bucket '%s' made without credentials",
                      bucket);
        return NULL;
    }
    pthread_once(&curl_once, curl_init_once);
    s3_store *s = sqe_calloc(1, sizeof *s);
    s->base.vt = &s3_vtable;
    s->bucket = sqe_strdup(bucket);
    s->region = sqe_strdup(cfg->region && *cfg->region ? cfg->region : "us-east-1");
    s->connect_timeout_ms = cfg->connect_timeout_ms > 0 ? cfg->connect_timeout_ms : 5000;
    s->request_timeout_ms = cfg->request_timeout_ms > 0 ? cfg->request_timeout_ms : 60000;
    s->max_retries = cfg->max_retries >= 0 ? SQE_MIN(cfg->max_retries, 20) : 4;
    s->max_in_flight = cfg->max_in_flight > 0 ? SQE_MIN(cfg->max_in_flight, 1024) : 16;
    s->creds = creds;
    s->multipart_threshold = S3_DEFAULT_MULTIPART;
    s->part_size = S3_DEFAULT_PART;
    s->backoff_base_ms = 100;
    s->rng = (uint64_t)(uintptr_t)s ^ sqe_clock_ns();
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    s->idle = sqe_calloc((size_t)s->max_in_flight, sizeof *s->idle);
    s->objs = sqe_strmap_new();
    if (!s3_endpoint(s, cfg, err)) {
        s3_free(&s->base);
        return NULL;
    }
    return &s->base;
}

void sqe_io_s3_set_test_limits(sqe_store *st, uint64_t multipart_threshold, uint64_t part_size,
                               int list_page_size, int backoff_base_ms) {
    if (!st || st->vt != &s3_vtable) return;
    s3_store *s = (s3_store *)st;
    if (multipart_threshold) s->multipart_threshold = multipart_threshold;
    if (part_size) s->part_size = part_size;
    s->list_page_size = list_page_size;
    if (backoff_base_ms > 0) s->backoff_base_ms = backoff_base_ms;
}
