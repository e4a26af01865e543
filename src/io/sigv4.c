/*
 * sigv4.c - AWS Signature Version 4 for header-based authentication, on
 * OpenSSL's libcrypto (EVP digests, HMAC).
 *
 * The four steps of the algorithm, each a function below:
 *   1. canonical request: METHOD \n URI \n QUERY \n headers (lowercased
 *      name ':' trimmed value, sorted by name, one per line) \n \n signed
 *      header names joined by ';' \n payload hash;
 *   2. string to sign: "AWS4-HMAC-SHA256" \n amz-date \n scope \n
 *      hex SHA-256 of the canonical request, where scope is
 *      date/region/service/aws4_request;
 *   3. signing key: HMAC chain "AWS4"+secret -> date -> region -> service
 *      -> "aws4_request";
 *   4. signature: hex HMAC of the string to sign with that key.
 * The URI and the query string are signed exactly as the caller built them
 * (S3 does not normalize paths, so "a//b" and "./" stay as written): s3.c
 * builds both with sqe_uri_encode / sqe_sigv4_query and sends the same bytes.
 *
 * Secrets: the secret key only enters step 3; intermediate keys live on the
 * stack and are wiped (OPENSSL_cleanse) before returning. Nothing here logs.
 */
#include "io/sigv4.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void to_hex(const unsigned char *raw, size_t n, char *out) {
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[raw[i] >> 4];
        out[2 * i + 1] = digits[raw[i] & 15];
    }
    out[2 * n] = '\0';
}

static void digest(const EVP_MD *md, const void *data, size_t len, unsigned char *out) {
    unsigned int n = 0;
    EVP_Digest(data, len, out, &n, md, NULL);
}

void sqe_sha256_hex(const void *data, size_t len, char out[65]) {
    unsigned char raw[32];
    digest(EVP_sha256(), data, len, raw);
    to_hex(raw, 32, out);
}

void sqe_md5_raw(const void *data, size_t len, unsigned char out[16]) {
    digest(EVP_md5(), data, len, out);
}

void sqe_md5_hex(const void *data, size_t len, char out[33]) {
    unsigned char raw[16];
    sqe_md5_raw(data, len, raw);
    to_hex(raw, 16, out);
}

static bool unreserved(unsigned char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.' || c == '_' || c == '~';
}

void sqe_uri_encode(sqe_strbuf *sb, const char *s, size_t n, bool keep_slash) {
    static const char digits[] = "0123456789ABCDEF";
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (unreserved(c) || (keep_slash && c == '/')) {
            sqe_strbuf_putc(sb, (char)c);
        } else {
            char esc[3] = {'%', digits[c >> 4], digits[c & 15]};
            sqe_strbuf_append(sb, esc, 3);
        }
    }
}

typedef struct enc_param {
    char *name, *value;
} enc_param;

static int cmp_param(const void *a, const void *b) {
    const enc_param *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : strcmp(x->value, y->value);
}

static char *encode_dup(const char *s) {
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    if (s) sqe_uri_encode(&sb, s, strlen(s), false);
    return sqe_strbuf_detach(&sb);
}

void sqe_sigv4_query(sqe_strbuf *sb, const sqe_sigv4_param *params, size_t n) {
    if (n == 0) return;
    enc_param *enc = sqe_calloc(n, sizeof *enc);
    for (size_t i = 0; i < n; i++) {
        enc[i].name = encode_dup(params[i].name);
        enc[i].value = encode_dup(params[i].value);
    }
    qsort(enc, n, sizeof *enc, cmp_param);
    for (size_t i = 0; i < n; i++) {
        if (i) sqe_strbuf_putc(sb, '&');
        sqe_strbuf_printf(sb, "%s=%s", enc[i].name, enc[i].value);
        sqe_free(enc[i].name);
        sqe_free(enc[i].value);
    }
    sqe_free(enc);
}

typedef struct canon_header {
    char *name;  /* lowercased */
    char *value; /* trimmed, inner runs of spaces collapsed */
} canon_header;

static int cmp_header(const void *a, const void *b) {
    return strcmp(((const canon_header *)a)->name, ((const canon_header *)b)->name);
}

static char *trim_value(const char *v) {
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    bool space = false;
    for (const char *p = v ? v : ""; *p; p++) {
        if (*p == ' ' || *p == '\t') {
            space = sb.len > 0;
            continue;
        }
        if (space) sqe_strbuf_putc(&sb, ' ');
        space = false;
        sqe_strbuf_putc(&sb, *p);
    }
    return sqe_strbuf_detach(&sb);
}

/* Appends the canonical headers block and returns the signed-headers list
 * (malloc'd). Headers with the same name are joined with ',' in the order
 * given (qsort is not stable, so ties are merged before sorting). */
static char *canonical_headers(sqe_strbuf *sb, const sqe_sigv4_request *r) {
    canon_header *h = sqe_calloc(r->n_headers ? r->n_headers : 1, sizeof *h);
    size_t n = 0;
    for (size_t i = 0; i < r->n_headers; i++) {
        char *name = sqe_str_lower(sqe_strdup(r->headers[i].name));
        char *value = trim_value(r->headers[i].value);
        size_t j = 0;
        while (j < n && strcmp(h[j].name, name) != 0) j++;
        if (j < n) {
            char *joined = sqe_asprintf("%s,%s", h[j].value, value);
            sqe_free(h[j].value);
            h[j].value = joined;
            sqe_free(name);
            sqe_free(value);
            continue;
        }
        h[n].name = name;
        h[n].value = value;
        n++;
    }
    qsort(h, n, sizeof *h, cmp_header);
    sqe_strbuf names;
    sqe_strbuf_init(&names);
    for (size_t i = 0; i < n; i++) {
        sqe_strbuf_printf(sb, "%s:%s\n", h[i].name, h[i].value);
        if (i) sqe_strbuf_putc(&names, ';');
        sqe_strbuf_puts(&names, h[i].name);
        sqe_free(h[i].name);
        sqe_free(h[i].value);
    }
    sqe_free(h);
    return sqe_strbuf_detach(&names);
}

static char *canonical(const sqe_sigv4_request *r, char **signed_headers) {
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    sqe_strbuf_printf(&sb, "%s\n%s\n%s\n", r->method, r->path, r->query ? r->query : "");
    char *names = canonical_headers(&sb, r);
    sqe_strbuf_printf(&sb, "\n%s\n%s", names, r->payload_hash);
    if (signed_headers)
        *signed_headers = names;
    else
        sqe_free(names);
    return sqe_strbuf_detach(&sb);
}

char *sqe_sigv4_canonical_request(const sqe_sigv4_request *r) {
    return canonical(r, NULL);
}

static void hmac(const unsigned char *key, size_t key_len, const char *msg, unsigned char out[32]) {
    unsigned int n = 32;
    HMAC(EVP_sha256(), key, (int)key_len, (const unsigned char *)msg, strlen(msg), out, &n);
}

char *sqe_sigv4_authorization(const sqe_sigv4_request *r, const char *access_key,
                              const char *secret_key) {
    char *signed_headers = NULL;
    char *creq = canonical(r, &signed_headers);
    char creq_hash[65];
    sqe_sha256_hex(creq, strlen(creq), creq_hash);
    sqe_free(creq);

    char date[9];
    snprintf(date, sizeof date, "%.8s", r->amz_date);
    char *scope = sqe_asprintf("%s/%s/%s/aws4_request", date, r->region, r->service);
    char *to_sign = sqe_asprintf("AWS4-HMAC-SHA256\n%s\n%s\n%s", r->amz_date, scope, creq_hash);

    char *k_secret = sqe_asprintf("AWS4%s", secret_key ? secret_key : "");
    unsigned char k[32], k2[32];
    hmac((const unsigned char *)k_secret, strlen(k_secret), date, k);
    OPENSSL_cleanse(k_secret, strlen(k_secret));
    sqe_free(k_secret);
    hmac(k, 32, r->region, k2);
    hmac(k2, 32, r->service, k);
    hmac(k, 32, "aws4_request", k2);
    unsigned char sig[32];
    hmac(k2, 32, to_sign, sig);
    OPENSSL_cleanse(k, sizeof k);
    OPENSSL_cleanse(k2, sizeof k2);
    char sig_hex[65];
    to_hex(sig, 32, sig_hex);

    char *out = sqe_asprintf("AWS4-HMAC-SHA256 Credential=%s/%s,SignedHeaders=%s,Signature=%s",
                             access_key ? access_key : "", scope, signed_headers, sig_hex);
    sqe_free(signed_headers);
    sqe_free(scope);
    sqe_free(to_sign);
    return out;
}

void sqe_sigv4_amz_date(int64_t unix_s, char out[17]) {
    time_t t = (time_t)unix_s;
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 17, "%Y%m%dT%H%M%SZ", &tm);
}
