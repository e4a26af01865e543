/*
 * credentials.c - the AWS default credential chain (sqe_s3_cred_chain_new).
 *
 * Sources, tried in the AWS CLI's order; the first that yields keys wins:
 *
 *   1. environment      AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY
 *                       [+ AWS_SESSION_TOKEN]
 *   2. web identity     AWS_WEB_IDENTITY_TOKEN_FILE + AWS_ROLE_ARN
 *                       [+ AWS_ROLE_SESSION_NAME]: STS
 *                       AssumeRoleWithWebIdentity (unsigned POST) at
 *                       AWS_ENDPOINT_URL_STS, AWS_ENDPOINT_URL or
 *                       https://sts[.<region>].amazonaws.com
 *   3. shared files     AWS_SHARED_CREDENTIALS_FILE (~/.aws/credentials) and
 *                       AWS_CONFIG_FILE (~/.aws/config), profile AWS_PROFILE
 *                       (else "default"; `[profile x]` in config, `[x]` in
 *                       credentials, the credentials file wins per key):
 *                       static keys, else credential_process (its JSON,
 *                       Version 1, with an optional Expiration), else
 *                       role_arn + web_identity_token_file as in 2.
 *   4. container        AWS_CONTAINER_CREDENTIALS_FULL_URI or
 *                       http://169.254.170.2 + _RELATIVE_URI, with the
 *                       Authorization header from
 *                       AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE or _TOKEN
 *   5. IMDSv2           PUT /latest/api/token, GET the role name, GET its
 *                       credentials; 1 s timeouts; endpoint
 *                       AWS_EC2_METADATA_SERVICE_ENDPOINT; skipped when
 *                       AWS_EC2_METADATA_DISABLED=true.
 *
 * A source that is not configured is skipped and noted ("environment: not
 * set"). A source that is configured but fails (token file unreadable, STS
 * refuses, credential_process exits 1, a named profile that does not exist)
 * ends the chain with its error, as the AWS CLI does: falling through to
 * another identity would be a surprise. The instance-metadata service is
 * the exception: unreachable means "not on EC2", so the chain ends with
 * STORAGE_CREDENTIALS_UNAVAILABLE listing what was tried and how to renew.
 *
 * Every value is read from the environment snapshot given at creation
 * (never getenv), so tests run chains side by side.
 *
 * Caching: the chain keeps the last credentials until five minutes before
 * their expiry, or fifteen minutes after resolution when the source gave
 * none. One resolution is in flight at a time: callers that arrive while it
 * runs wait on the condition variable and share its outcome (its
 * credentials, or its error), so a slow or failing IMDS is asked once, not
 * once per thread.
 *
 * Secrets: no error or log line ever contains a key, secret, session token,
 * web identity token or credential_process output; messages name sources,
 * files, profiles, URLs and HTTP statuses only. Buffers that held secrets
 * are wiped (explicit_bzero) before they are freed.
 */
#include "io/s3.h"

#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CRED_REFRESH_BEFORE_US (5LL * 60 * 1000000) /* refresh 5 min before expiry */
#define CRED_NO_EXPIRY_TTL_US (15LL * 60 * 1000000) /* keep 15 min without an expiry */
#define CRED_HTTP_MAX_BODY (256u * 1024)            /* STS/ECS/IMDS answers are small */
#define CRED_FILE_MAX_BYTES (1u << 20)              /* config files, token files */
#define CRED_PROCESS_MAX_OUTPUT (64u * 1024)
#define CRED_PROCESS_TIMEOUT_MS 60000
#define CRED_IMDS_TIMEOUT_MS 1000
#define CRED_HTTP_TIMEOUT_MS 5000

/* ------------------------------------------------------------ small helpers */

static void cred_wipe_free(char *s) {
    if (!s) return;
    explicit_bzero(s, strlen(s));
    sqe_free(s);
}

static void cred_sb_wipe(sqe_strbuf *sb) {
    if (sb->data) explicit_bzero(sb->data, sb->cap);
    sqe_strbuf_free(sb);
}

/* Value of `name` in a NULL-terminated "K=V" array, or NULL (empty counts
 * as unset, as in the AWS CLI). */
static const char *cred_env(char *const *env, const char *name) {
    size_t n = strlen(name);
    for (size_t i = 0; env && env[i]; i++)
        if (strncmp(env[i], name, n) == 0 && env[i][n] == '=')
            return env[i][n + 1] ? env[i] + n + 1 : NULL;
    return NULL;
}

static char **cred_env_copy(const char *const *env) {
    extern char **environ;
    const char *const *src = env ? env : (const char *const *)environ;
    size_t n = 0;
    while (src && src[n]) n++;
    char **out = sqe_calloc(n + 1, sizeof *out);
    for (size_t i = 0; i < n; i++) out[i] = sqe_strdup(src[i]);
    return out;
}

static void cred_env_free(char **env) {
    for (size_t i = 0; env && env[i]; i++) cred_wipe_free(env[i]);
    sqe_free(env);
}

/* "2026-12-01T12:00:00Z", with optional fractional seconds and a "+hh:mm"
 * offset -> microseconds since the epoch; false when not ISO 8601. */
static bool cred_parse_time(const char *s, int64_t *out) {
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    int n = 0;
    if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
               &tm.tm_min, &tm.tm_sec, &n) != 6)
        return false;
    const char *p = s + n;
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9'; p++) {
        }
    int64_t offset_s = 0;
    if (*p == '+' || *p == '-') {
        int hh = 0, mm = 0;
        if (sscanf(p + 1, "%2d:%2d", &hh, &mm) != 2) return false;
        offset_s = (int64_t)(hh * 3600 + mm * 60) * (*p == '+' ? 1 : -1);
    } else if (*p != 'Z' && *p != 'z' && *p != '\0') {
        return false;
    }
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    time_t t = timegm(&tm);
    if (t == (time_t)-1) return false;
    *out = ((int64_t)t - offset_s) * 1000000;
    return true;
}

/* Reads a small file whole (token files, config files). ENOENT -> false
 * with *missing set and no error; any other failure fills err. */
static bool cred_read_file(const char *path, const char *what, char **out, bool *missing,
                           sqe_error *err) {
    *out = NULL;
    if (missing) *missing = false;
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT && missing) {
            *missing = true;
            return false;
        }
        return sqe_error_set(err, SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE,
                             "cannot read %s '%s': %s", what, path, strerror(errno));
    }
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    char buf[4096];
    size_t n;
    bool ok = true;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        if (sb.len + n > CRED_FILE_MAX_BYTES) {
            ok = sqe_error_set(err, SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE,
                               "%s '%s' is larger than %u bytes", what, path, CRED_FILE_MAX_BYTES);
            break;
        }
        sqe_strbuf_append(&sb, buf, n);
    }
    explicit_bzero(buf, sizeof buf);
    if (ok && ferror(f))
        ok = sqe_error_set(err, SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE, "cannot read %s '%s'",
                           what, path);
    fclose(f);
    if (!ok) {
        cred_sb_wipe(&sb);
        return false;
    }
    if (!sb.data) sqe_strbuf_append(&sb, "", 0);
    *out = sqe_strbuf_detach(&sb);
    return true;
}

static void cred_trim(char *s) {
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    size_t i = 0;
    while (s[i] == ' ' || s[i] == '\t') i++;
    if (i) memmove(s, s + i, n - i + 1);
}

/* --------------------------------------------------------------- HTTP */

typedef struct cred_http_req {
    const char *method; /* "GET", "PUT", "POST" */
    const char *url;
    const char *const *headers; /* NULL-terminated "Name: value" */
    const char *body;           /* POST body or NULL */
    long timeout_ms;
} cred_http_req;

static size_t cred_http_write(char *p, size_t size, size_t nmemb, void *ctx) {
    sqe_strbuf *sb = ctx;
    size_t n = size * nmemb;
    if (sb->len + n > CRED_HTTP_MAX_BODY) return 0; /* aborts the transfer */
    sqe_strbuf_append(sb, p, n);
    return n;
}

/* One request; *status gets the HTTP status, *body the response (caller
 * wipes). A transport failure (refused, timeout, DNS) returns false with
 * `why` set to curl's description, no error class: callers decide what it
 * means for their source. */
static bool cred_http(const cred_http_req *rq, long *status, sqe_strbuf *body, char *why,
                      size_t why_len) {
    *status = 0;
    sqe_strbuf_init(body);
    CURL *c = curl_easy_init();
    if (!c) {
        snprintf(why, why_len, "cannot initialise libcurl");
        return false;
    }
    struct curl_slist *hdrs = NULL;
    for (size_t i = 0; rq->headers && rq->headers[i]; i++)
        hdrs = curl_slist_append(hdrs, rq->headers[i]);
    char errbuf[CURL_ERROR_SIZE] = "";
    curl_easy_setopt(c, CURLOPT_URL, rq->url);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, rq->timeout_ms);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, rq->timeout_ms);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, cred_http_write);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, body);
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    if (strcmp(rq->method, "POST") == 0) {
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, rq->body ? rq->body : "");
    } else if (strcmp(rq->method, "PUT") == 0) {
        curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, "PUT");
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, "");
    }
    if (hdrs) curl_easy_setopt(c, CURLOPT_HTTPHEADER, hdrs);
    CURLcode rc = curl_easy_perform(c);
    if (rc == CURLE_OK)
        curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, status);
    else
        snprintf(why, why_len, "%s", errbuf[0] ? errbuf : curl_easy_strerror(rc));
    curl_slist_free_all(hdrs);
    curl_easy_cleanup(c);
    if (!body->data) sqe_strbuf_append(body, "", 0);
    return rc == CURLE_OK;
}

/* -------------------------------------------------------- JSON and XML */

static char *cred_json_str(json_t *o, const char *key) {
    json_t *v = json_object_get(o, key);
    return json_is_string(v) && json_string_length(v) > 0 ? sqe_strdup(json_string_value(v)) : NULL;
}

/* Credentials from the JSON the container endpoint, IMDS and
 * credential_process return ("Token" there, "SessionToken" here). */
static bool cred_from_json(const char *text, const char *what, sqe_s3_creds *out, sqe_error *err) {
    json_error_t je;
    json_t *o = json_loads(text, 0, &je);
    if (!json_is_object(o)) {
        json_decref(o);
        return sqe_error_set(err, SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE,
                             "%s did not return a JSON object (at line %d column %d)", what,
                             je.line, je.column);
    }
    out->access_key = cred_json_str(o, "AccessKeyId");
    out->secret_key = cred_json_str(o, "SecretAccessKey");
    out->session_token = cred_json_str(o, "SessionToken");
    if (!out->session_token) out->session_token = cred_json_str(o, "Token");
    json_t *exp = json_object_get(o, "Expiration");
    bool ok = true;
    if (!out->access_key || !out->secret_key)
        ok = sqe_error_set(err, SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE, "%s returned no %s", what,
                           out->access_key ? "SecretAccessKey" : "AccessKeyId");
    else if (json_is_string(exp) && !cred_parse_time(json_string_value(exp), &out->expires_us))
        ok = sqe_error_set(err, SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE,
                           "%s returned an Expiration '%s' that is not an ISO 8601 time", what,
                           json_string_value(exp));
    json_decref(o);
    if (!ok) sqe_s3_creds_clear(out);
    return ok;
}

/* The text of the first <tag>...</tag> in an XML document, entities
 * decoded (malloc'd), or NULL. Enough for STS answers. */
static char *cred_xml_tag(const char *xml, const char *tag) {
    char open[64], close[64];
    snprintf(open, sizeof open, "<%s>", tag);
    snprintf(close, sizeof close, "</%s>", tag);
    const char *a = strstr(xml, open);
    if (!a) return NULL;
    a += strlen(open);
    const char *b = strstr(a, close);
    if (!b) return NULL;
    static const struct {
        const char *ent;
        char c;
    } ents[] = {{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
    char *out = sqe_malloc((size_t)(b - a) + 1);
    size_t o = 0;
    for (const char *p = a; p < b;) {
        bool done = false;
        for (size_t i = 0; i < SQE_ARRAY_LEN(ents) && !done; i++) {
            size_t n = strlen(ents[i].ent);
            if ((size_t)(b - p) >= n && memcmp(p, ents[i].ent, n) == 0) {
                out[o++] = ents[i].c;
                p += n;
                done = true;
            }
        }
        if (!done) out[o++] = *p++;
    }
    out[o] = '\0';
    return out;
}

/* ------------------------------------------------------------ the chain */

typedef enum { CRED_SKIP, CRED_FOUND, CRED_FAILED } cred_outcome;

typedef struct cred_chain {
    sqe_s3_cred_source base;
    char **env;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool resolving;
    uint64_t generation; /* bumped when a resolution ends */
    bool have;           /* cached holds credentials */
    sqe_s3_creds cached;
    int64_t refresh_at_us;
    sqe_error last_err; /* the last resolution's failure (no secrets) */
    bool last_failed;
} cred_chain;

/* What the sources noted while being skipped, for the final error. */
typedef struct cred_trail {
    sqe_strbuf text;
} cred_trail;

static void cred_note(cred_trail *t, const char *fmt, ...) SQE_PRINTF(2, 3);
static void cred_note(cred_trail *t, const char *fmt, ...) {
    if (t->text.len) sqe_strbuf_puts(&t->text, "; ");
    va_list ap;
    va_start(ap, fmt);
    sqe_strbuf_vprintf(&t->text, fmt, ap);
    va_end(ap);
}

/* 1. Environment. */
static cred_outcome cred_try_env(cred_chain *ch, sqe_s3_creds *out, cred_trail *t, sqe_error *err) {
    const char *ak = cred_env(ch->env, "AWS_ACCESS_KEY_ID");
    const char *sk = cred_env(ch->env, "AWS_SECRET_ACCESS_KEY");
    if (!ak && !sk) {
        cred_note(t, "environment: AWS_ACCESS_KEY_ID not set");
        return CRED_SKIP;
    }
    if (!ak || !sk) {
        sqe_error_set(err, SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE,
                      "%s is set but %s is not; set both (or neither, to use a profile)",
                      ak ? "AWS_ACCESS_KEY_ID" : "AWS_SECRET_ACCESS_KEY",
                      ak ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID");
        return CRED_FAILED;
    }
    out->access_key = sqe_strdup(ak);
    out->secret_key = sqe_strdup(sk);
    const char *tok = cred_env(ch->env, "AWS_SESSION_TOKEN");
    out->session_token = tok ? sqe_strdup(tok) : NULL;
    const char *exp = cred_env(ch->env, "AWS_CREDENTIAL_EXPIRATION");
    if (exp && !cred_parse_time(exp, &out->expires_us)) {
        sqe_s3_creds_clear(out);
        sqe_error_set(err, SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE,
                      "AWS_CREDENTIAL_EXPIRATION '%s' is not an ISO 8601 time", exp);
        return CRED_FAILED;
    }
    return CRED_FOUND;
}

/* "%XX"-encodes a form value (unreserved characters kept). */
static void cred_form_append(sqe_strbuf *sb, const char *name, const char *value) {
    if (sb->len) sqe_strbuf_putc(sb, '&');
    sqe_strbuf_printf(sb, "%s=", name);
    for (const unsigned char *p = (const unsigned char *)value; *p; p++) {
        if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
            *p == '-' || *p == '_' || *p == '.' || *p == '~')
            sqe_strbuf_putc(sb, (char)*p);
        else
            sqe_strbuf_printf(sb, "%%%02X", *p);
    }
}

static char *cred_sts_url(cred_chain *ch) {
    const char *e = cred_env(ch->env, "AWS_ENDPOINT_URL_STS");
    if (!e) e = cred_env(ch->env, "AWS_ENDPOINT_URL");
    if (e) return sqe_strdup(e);
    const char *region = cred_env(ch->env, "AWS_REGION");
    if (!region) region = cred_env(ch->env, "AWS_DEFAULT_REGION");
    return region ? sqe_asprintf("https://sts.%s.amazonaws.com/", region)
                  : sqe_strdup("https://sts.amazonaws.com/");
}

/* STS AssumeRoleWithWebIdentity (shared by the environment variables and a
 * profile's role_arn + web_identity_token_file). `via` names the source. */
static cred_outcome cred_web_identity(cred_chain *ch, const char *token_file, const char *role,
                                      const char *session, const char *via, sqe_s3_creds *out,
                                      sqe_error *err) {
    char *token = NULL;
    if (!cred_read_file(token_file, "web identity token file", &token, NULL, err)) {
        sqe_error_prefix(err, "%s: ", via);
        return CRED_FAILED;
    }
    cred_trim(token);
    sqe_strbuf form;
    sqe_strbuf_init(&form);
    cred_form_append(&form, "Action", "AssumeRoleWithWebIdentity");
    cred_form_append(&form, "Version", "2011-06-15");
    cred_form_append(&form, "RoleArn", role);
    char *default_session = sqe_asprintf("sqe-%lld", (long long)(sqe_clock_wall_us() / 1000000));
    cred_form_append(&form, "RoleSessionName", session ? session : default_session);
    sqe_free(default_session);
    cred_form_append(&form, "WebIdentityToken", token);
    cred_wipe_free(token);
    char *url = cred_sts_url(ch);
    static const char *const hdrs[] = {"Content-Type: application/x-www-form-urlencoded",
                                       "Accept: application/xml", NULL};
    cred_http_req rq = {"POST", url, hdrs, form.data, CRED_HTTP_TIMEOUT_MS};
    long status;
    sqe_strbuf body;
    char why[CURL_ERROR_SIZE + 64];
    bool sent = cred_http(&rq, &status, &body, why, sizeof why);
    cred_sb_wipe(&form);
    cred_outcome res = CRED_FAILED;
    if (!sent) {
        sqe_error_set(err, SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE,
                      "%s: cannot reach STS at '%s': %s", via, url, why);
    } else if (status != 200) {
        char *code = cred_xml_tag(body.data, "Code");
        char *msg = cred_xml_tag(body.data, "Message");
        sqe_error_set(err, SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE,
                      "%s: STS AssumeRoleWithWebIdentity for role '%s' at '%s' failed with HTTP "
                      "%ld%s%s%s%s; check the role's trust policy and that the token file is "
                      "fresh",
                      via, role, url, status, code ? " " : "", code ? code : "", msg ? ": " : "",
                      msg ? msg : "");
        sqe_free(code);
        sqe_free(msg);
    } else {
        out->access_key = cred_xml_tag(body.data, "AccessKeyId");
        out->secret_key = cred_xml_tag(body.data, "SecretAccessKey");
        out->session_token = cred_xml_tag(body.data, "SessionToken");
        char *exp = cred_xml_tag(body.data, "Expiration");
        if (!out->access_key || !out->secret_key || !out->session_token) {
            sqe_error_set(err, SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE,
                          "%s: the STS answer from '%s' holds no Credentials", via, url);
            sqe_s3_creds_clear(out);
        } else if (exp && !cred_parse_time(exp, &out->expires_us)) {
            sqe_error_set(err, SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE,
                          "%s: STS returned an Expiration '%s' that is not an ISO 8601 time", via,
                          exp);
            sqe_s3_creds_clear(out);
        } else {
            res = CRED_FOUND;
        }
        sqe_free(exp);
    }
    sqe_free(url);
    cred_sb_wipe(&body);
    return res;
}

/* 2. Web identity from the environment. */
static cred_outcome cred_try_web_identity(cred_chain *ch, sqe_s3_creds *out, cred_trail *t,
                                          sqe_error *err) {
    const char *file = cred_env(ch->env, "AWS_WEB_IDENTITY_TOKEN_FILE");
    const char *role = cred_env(ch->env, "AWS_ROLE_ARN");
    if (!file || !role) {
        cred_note(t, "web identity: %s not set",
                  file ? "AWS_ROLE_ARN" : "AWS_WEB_IDENTITY_TOKEN_FILE");
        return CRED_SKIP;
    }
    return cred_web_identity(ch, file, role, cred_env(ch->env, "AWS_ROLE_SESSION_NAME"),
                             "web identity (AWS_WEB_IDENTITY_TOKEN_FILE)", out, err);
}

/* ------------------------------------------------------- shared files */

/* The keys of one profile gathered from both files. */
typedef struct cred_profile {
    char *access_key, *secret_key, *session_token, *process, *region;
    char *role_arn, *token_file, *session_name, *source_profile, *sso;
    bool found; /* a section of that name exists in either file */
} cred_profile;

static void cred_profile_clear(cred_profile *p) {
    cred_wipe_free(p->access_key);
    cred_wipe_free(p->secret_key);
    cred_wipe_free(p->session_token);
    sqe_free(p->process);
    sqe_free(p->region);
    sqe_free(p->role_arn);
    sqe_free(p->token_file);
    sqe_free(p->session_name);
    sqe_free(p->source_profile);
    sqe_free(p->sso);
    memset(p, 0, sizeof *p);
}

static void cred_profile_set(cred_profile *p, const char *key, const char *value) {
    static const struct {
        const char *key;
        size_t off;
    } keys[] = {
        {"aws_access_key_id", offsetof(cred_profile, access_key)},
        {"aws_secret_access_key", offsetof(cred_profile, secret_key)},
        {"aws_session_token", offsetof(cred_profile, session_token)},
        {"credential_process", offsetof(cred_profile, process)},
        {"region", offsetof(cred_profile, region)},
        {"role_arn", offsetof(cred_profile, role_arn)},
        {"web_identity_token_file", offsetof(cred_profile, token_file)},
        {"role_session_name", offsetof(cred_profile, session_name)},
        {"source_profile", offsetof(cred_profile, source_profile)},
        {"sso_start_url", offsetof(cred_profile, sso)},
        {"sso_session", offsetof(cred_profile, sso)},
    };
    for (size_t i = 0; i < SQE_ARRAY_LEN(keys); i++) {
        if (!sqe_str_ieq(key, keys[i].key)) continue;
        char **slot = (char **)((char *)p + keys[i].off);
        if (*slot) return; /* the first file read (credentials) wins */
        *slot = sqe_strdup(value);
        return;
    }
}

/* Whether section header text (between the brackets, trimmed) names
 * `profile`: "name" in the credentials file, "profile name" in config
 * ("default" may be written either way there). */
static bool cred_section_is(const char *sect, const char *profile, bool config_file) {
    if (!config_file) return strcmp(sect, profile) == 0;
    if (strncmp(sect, "profile", 7) == 0 && (sect[7] == ' ' || sect[7] == '\t')) {
        const char *n = sect + 8;
        while (*n == ' ' || *n == '\t') n++;
        return strcmp(n, profile) == 0;
    }
    return strcmp(profile, "default") == 0 && strcmp(sect, "default") == 0;
}

/* Reads `profile` from an INI file into *p. Missing file: nothing. Lines:
 * [section], key = value, comments starting with # or ;, indented lines
 * (nested values such as s3 = ...) ignored. */
static bool cred_ini_read(const char *path, const char *profile, bool config_file, cred_profile *p,
                          sqe_error *err) {
    char *text = NULL;
    bool missing;
    if (!cred_read_file(path, config_file ? "AWS config file" : "AWS credentials file", &text,
                        &missing, err))
        return missing;
    bool in = false;
    for (char *line = text, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        bool indented = line[0] == ' ' || line[0] == '\t';
        cred_trim(line);
        if (!line[0] || line[0] == '#' || line[0] == ';') continue;
        if (line[0] == '[') {
            char *end = strrchr(line, ']');
            if (!end) continue;
            *end = '\0';
            char *sect = line + 1;
            cred_trim(sect);
            in = cred_section_is(sect, profile, config_file);
            p->found |= in;
            continue;
        }
        char *eq = strchr(line, '=');
        if (!in || indented || !eq) continue;
        *eq = '\0';
        char *key = line, *value = eq + 1;
        cred_trim(key);
        cred_trim(value);
        if (value[0]) cred_profile_set(p, key, value);
    }
    explicit_bzero(text, strlen(text));
    sqe_free(text);
    return true;
}

/* The shared files' paths: the variables, else ~/.aws/... (malloc'd; NULL
 * when neither the variable nor HOME is set). */
static char *cred_file_path(char *const *env, const char *var, const char *leaf) {
    const char *v = cred_env(env, var);
    const char *home = cred_env(env, "HOME");
    if (v && v[0] == '~' && v[1] == '/' && home) return sqe_asprintf("%s%s", home, v + 1);
    if (v) return sqe_strdup(v);
    return home ? sqe_asprintf("%s/.aws/%s", home, leaf) : NULL;
}

static const char *cred_profile_name(char *const *env) {
    const char *p = cred_env(env, "AWS_PROFILE");
    if (!p) p = cred_env(env, "AWS_DEFAULT_PROFILE");
    return p ? p : "default";
}

/* Loads the profile from both files; the paths used go to *cpath and *fpath. */
static bool cred_profile_load(char *const *env, cred_profile *p, char **cpath, char **fpath,
                              sqe_error *err) {
    memset(p, 0, sizeof *p);
    const char *name = cred_profile_name(env);
    *cpath = cred_file_path(env, "AWS_SHARED_CREDENTIALS_FILE", "credentials");
    *fpath = cred_file_path(env, "AWS_CONFIG_FILE", "config");
    if (*cpath && !cred_ini_read(*cpath, name, false, p, err)) return false;
    if (*fpath && !cred_ini_read(*fpath, name, true, p, err)) return false;
    return true;
}

char *sqe_s3_profile_region(const char *const *env) {
    char **e = cred_env_copy(env);
    cred_profile p;
    char *cpath = NULL, *fpath = NULL;
    sqe_error err;
    sqe_error_clear(&err);
    char *region = NULL;
    if (cred_profile_load(e, &p, &cpath, &fpath, &err) && p.region) region = sqe_strdup(p.region);
    cred_profile_clear(&p);
    sqe_free(cpath);
    sqe_free(fpath);
    cred_env_free(e);
    return region;
}

/* Runs `cmd` with /bin/sh and the snapshot's environment; its stdout (at
 * most CRED_PROCESS_MAX_OUTPUT bytes, CRED_PROCESS_TIMEOUT_MS) goes into
 * *out. stderr is the caller's (the AWS CLI also lets it through). */
static bool cred_run_process(char *const *env, const char *cmd, const char *profile,
                             sqe_strbuf *out, sqe_error *err) {
    sqe_strbuf_init(out);
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return sqe_error_set(err, SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE,
                             "credential_process of profile '%s': cannot create a pipe: %s",
                             profile, strerror(errno));
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
    char *const argv[] = {"sh", "-c", (char *)cmd, NULL};
    pid_t pid;
    int rc = posix_spawn(&pid, "/bin/sh", &fa, NULL, argv, env);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        return sqe_error_set(err, SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE,
                             "credential_process of profile '%s': cannot start /bin/sh: %s",
                             profile, strerror(rc));
    }
    uint64_t deadline = sqe_clock_ns() + (uint64_t)CRED_PROCESS_TIMEOUT_MS * 1000000u;
    const char *problem = NULL;
    char buf[4096];
    for (;;) {
        uint64_t now = sqe_clock_ns();
        if (now >= deadline) {
            problem = "did not finish within 60 seconds";
            break;
        }
        struct pollfd pf = {.fd = fds[0], .events = POLLIN};
        int pr = poll(&pf, 1, (int)((deadline - now) / 1000000u) + 1);
        if (pr < 0 && errno == EINTR) continue;
        if (pr <= 0) continue;
        ssize_t n = read(fds[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        if (out->len + (size_t)n > CRED_PROCESS_MAX_OUTPUT) {
            problem = "wrote more than 64 KiB to stdout";
            break;
        }
        sqe_strbuf_append(out, buf, (size_t)n);
    }
    explicit_bzero(buf, sizeof buf);
    close(fds[0]);
    if (problem) kill(pid, SIGKILL);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    if (!problem && !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
        sqe_error_set(err, SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE,
                      "credential_process of profile '%s' %s %d; run it by hand to see why, "
                      "then renew the credentials it reads",
                      profile, WIFEXITED(st) ? "exited with status" : "was killed by signal",
                      WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
    } else if (problem) {
        sqe_error_set(err, SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE,
                      "credential_process of profile '%s' %s", profile, problem);
    }
    if (err && err->cls != SQE_OK) {
        cred_sb_wipe(out);
        return false;
    }
    if (!out->data) sqe_strbuf_append(out, "", 0);
    return true;
}

static cred_outcome cred_process(cred_chain *ch, const cred_profile *p, const char *name,
                                 sqe_s3_creds *out, sqe_error *err) {
    sqe_strbuf text;
    if (!cred_run_process(ch->env, p->process, name, &text, err)) return CRED_FAILED;
    char *what = sqe_asprintf("credential_process of profile '%s'", name);
    json_error_t je;
    json_t *o = json_loads(text.data, 0, &je);
    json_t *ver = json_object_get(o, "Version");
    bool ok = true;
    if (json_is_object(o) && !(json_is_integer(ver) && json_integer_value(ver) == 1))
        ok = sqe_error_set(err, SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE,
                           "%s printed JSON without \"Version\": 1", what);
    json_decref(o);
    if (ok) ok = cred_from_json(text.data, what, out, err);
    sqe_free(what);
    cred_sb_wipe(&text);
    return ok ? CRED_FOUND : CRED_FAILED;
}

/* 3. Shared config and credentials files. */
static cred_outcome cred_try_profile(cred_chain *ch, sqe_s3_creds *out, cred_trail *t,
                                     sqe_error *err) {
    cred_profile p;
    char *cpath = NULL, *fpath = NULL;
    const char *name = cred_profile_name(ch->env);
    bool explicit_profile = cred_env(ch->env, "AWS_PROFILE") != NULL;
    cred_outcome res = CRED_SKIP;
    if (!cred_profile_load(ch->env, &p, &cpath, &fpath, err)) {
        res = CRED_FAILED;
    } else if (!p.found && explicit_profile) {
        sqe_error_set(err, SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE,
                      "AWS_PROFILE names profile '%s', which is in neither '%s' nor '%s'; run "
                      "`aws configure --profile %s` or correct AWS_PROFILE",
                      name, cpath ? cpath : "~/.aws/credentials", fpath ? fpath : "~/.aws/config",
                      name);
        res = CRED_FAILED;
    } else if (p.access_key && p.secret_key) {
        out->access_key = sqe_strdup(p.access_key);
        out->secret_key = sqe_strdup(p.secret_key);
        out->session_token = p.session_token ? sqe_strdup(p.session_token) : NULL;
        res = CRED_FOUND;
    } else if (p.access_key || p.secret_key) {
        sqe_error_set(err, SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE,
                      "profile '%s' has %s but no %s; run `aws configure --profile %s`", name,
                      p.access_key ? "aws_access_key_id" : "aws_secret_access_key",
                      p.access_key ? "aws_secret_access_key" : "aws_access_key_id", name);
        res = CRED_FAILED;
    } else if (p.process) {
        res = cred_process(ch, &p, name, out, err);
    } else if (p.role_arn && p.token_file) {
        char *via = sqe_asprintf("web identity (profile '%s')", name);
        res = cred_web_identity(ch, p.token_file, p.role_arn, p.session_name, via, out, err);
        sqe_free(via);
    } else if (p.role_arn || p.sso) {
        sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                      "profile '%s' uses %s, which sqe does not support yet; export keys with "
                      "`aws configure export-credentials --profile %s --format env` or use "
                      "credential_process",
                      name, p.sso ? "AWS IAM Identity Center (sso_*)" : "role_arn/source_profile",
                      name);
        res = CRED_FAILED;
    } else {
        cred_note(t, "shared files: %s '%s' in %s, %s",
                  p.found ? "no keys in profile" : "no profile", name,
                  cpath ? cpath : "(HOME not set)", fpath ? fpath : "(HOME not set)");
    }
    cred_profile_clear(&p);
    sqe_free(cpath);
    sqe_free(fpath);
    return res;
}

/* ------------------------------------------------ container and IMDS */

/* Whether an http:// container URI may be trusted (the AWS SDKs' rule:
 * loopback or the ECS/EKS link-local agents; https anything). */
static bool cred_container_host_ok(const char *uri) {
    if (sqe_str_starts_with(uri, "https://")) return true;
    if (!sqe_str_starts_with(uri, "http://")) return false;
    const char *h = uri + 7;
    static const char *const ok[] = {"127.",          "localhost",      "[::1]",
                                     "169.254.170.2", "169.254.170.23", "[fd00:ec2::23]"};
    for (size_t i = 0; i < SQE_ARRAY_LEN(ok); i++) {
        size_t n = strlen(ok[i]);
        if (strncmp(h, ok[i], n) != 0) continue;
        char c = h[n];
        if (ok[i][n - 1] == '.' || c == '\0' || c == ':' || c == '/') return true;
    }
    return false;
}

/* 4. ECS / EKS Pod Identity container credentials. */
static cred_outcome cred_try_container(cred_chain *ch, sqe_s3_creds *out, cred_trail *t,
                                       sqe_error *err) {
    const char *full = cred_env(ch->env, "AWS_CONTAINER_CREDENTIALS_FULL_URI");
    const char *rel = cred_env(ch->env, "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI");
    if (!full && !rel) {
        cred_note(t, "container: AWS_CONTAINER_CREDENTIALS_RELATIVE_URI/_FULL_URI not set");
        return CRED_SKIP;
    }
    char *url = rel ? sqe_asprintf("http://169.254.170.2%s", rel) : sqe_strdup(full);
    if (!rel && !cred_container_host_ok(url)) {
        sqe_error_set(err, SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE,
                      "AWS_CONTAINER_CREDENTIALS_FULL_URI '%s' must be https:// or http:// to a "
                      "loopback or ECS/EKS agent address",
                      url);
        sqe_free(url);
        return CRED_FAILED;
    }
    char *token = NULL;
    const char *tfile = cred_env(ch->env, "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE");
    const char *tenv = cred_env(ch->env, "AWS_CONTAINER_AUTHORIZATION_TOKEN");
    if (tfile) {
        if (!cred_read_file(tfile, "container authorization token file", &token, NULL, err)) {
            sqe_free(url);
            return CRED_FAILED;
        }
        cred_trim(token);
    } else if (tenv) {
        token = sqe_strdup(tenv);
    }
    char *auth = token ? sqe_asprintf("Authorization: %s", token) : NULL;
    cred_wipe_free(token);
    const char *hdrs[] = {"Accept: application/json", auth, NULL};
    cred_http_req rq = {"GET", url, hdrs, NULL, CRED_HTTP_TIMEOUT_MS};
    long status;
    sqe_strbuf body;
    char why[CURL_ERROR_SIZE + 64];
    bool sent = cred_http(&rq, &status, &body, why, sizeof why);
    cred_wipe_free(auth);
    cred_outcome res = CRED_FAILED;
    if (!sent)
        sqe_error_set(err, SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE,
                      "container credentials: cannot reach '%s': %s", url, why);
    else if (status != 200)
        sqe_error_set(err, SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE,
                      "container credentials: '%s' answered HTTP %ld%s", url, status,
                      status == 401 || status == 403
                          ? "; check AWS_CONTAINER_AUTHORIZATION_TOKEN(_FILE)"
                          : "");
    else if (cred_from_json(body.data, "the container credentials endpoint", out, err))
        res = CRED_FOUND;
    cred_sb_wipe(&body);
    sqe_free(url);
    return res;
}

/* One IMDS request; false (with a note) when unreachable or not 200. */
static bool cred_imds_call(const char *method, const char *url, const char *hdr, sqe_strbuf *body,
                           long *status, char *why, size_t why_len) {
    const char *hdrs[] = {hdr, NULL};
    cred_http_req rq = {method, url, hdrs, NULL, CRED_IMDS_TIMEOUT_MS};
    if (!cred_http(&rq, status, body, why, why_len)) return false;
    if (*status == 200) return true;
    snprintf(why, why_len, "HTTP %ld from %s", *status, url);
    return false;
}

/* 5. EC2 instance metadata, IMDSv2 only (token first). */
static cred_outcome cred_try_imds(cred_chain *ch, sqe_s3_creds *out, cred_trail *t,
                                  sqe_error *err) {
    const char *dis = cred_env(ch->env, "AWS_EC2_METADATA_DISABLED");
    if (dis && sqe_str_ieq(dis, "true")) {
        cred_note(t, "instance metadata: disabled by AWS_EC2_METADATA_DISABLED");
        return CRED_SKIP;
    }
    const char *ep = cred_env(ch->env, "AWS_EC2_METADATA_SERVICE_ENDPOINT");
    char *base = sqe_strdup(ep ? ep : "http://169.254.169.254");
    size_t bl = strlen(base);
    while (bl && base[bl - 1] == '/') base[--bl] = '\0';
    char why[CURL_ERROR_SIZE + 128] = "";
    long status = 0;
    sqe_strbuf body, tok;
    sqe_strbuf_init(&body);
    char *url = sqe_asprintf("%s/latest/api/token", base);
    cred_outcome res = CRED_SKIP;
    char *tok_hdr = NULL, *role = NULL;
    if (!cred_imds_call("PUT", url, "X-aws-ec2-metadata-token-ttl-seconds: 21600", &tok, &status,
                        why, sizeof why)) {
        cred_sb_wipe(&tok);
        goto out;
    }
    cred_trim(tok.data);
    tok_hdr = sqe_asprintf("X-aws-ec2-metadata-token: %s", tok.data);
    cred_sb_wipe(&tok);
    sqe_free(url);
    url = sqe_asprintf("%s/latest/meta-data/iam/security-credentials/", base);
    if (!cred_imds_call("GET", url, tok_hdr, &body, &status, why, sizeof why)) goto out;
    role = sqe_strndup(body.data, strcspn(body.data, "\r\n"));
    cred_trim(role);
    sqe_strbuf_free(&body);
    if (!role[0] || strchr(role, '/')) {
        snprintf(why, sizeof why, "no IAM role attached to the instance");
        goto out;
    }
    sqe_free(url);
    url = sqe_asprintf("%s/latest/meta-data/iam/security-credentials/%s", base, role);
    if (!cred_imds_call("GET", url, tok_hdr, &body, &status, why, sizeof why)) goto out;
    res = cred_from_json(body.data, "the instance metadata service", out, err) ? CRED_FOUND
                                                                               : CRED_FAILED;
out:
    if (res == CRED_SKIP) cred_note(t, "instance metadata (%s): %s", base, why);
    cred_sb_wipe(&body);
    cred_wipe_free(tok_hdr);
    sqe_free(role);
    sqe_free(url);
    sqe_free(base);
    return res;
}

/* ------------------------------------------------------ resolution */

typedef cred_outcome (*cred_try_fn)(cred_chain *, sqe_s3_creds *, cred_trail *, sqe_error *);

static bool cred_resolve(cred_chain *ch, sqe_s3_creds *out, sqe_error *err) {
    static const cred_try_fn sources[] = {cred_try_env, cred_try_web_identity, cred_try_profile,
                                          cred_try_container, cred_try_imds};
    cred_trail t;
    sqe_strbuf_init(&t.text);
    bool ok = false;
    bool failed = false;
    for (size_t i = 0; i < SQE_ARRAY_LEN(sources) && !ok && !failed; i++) {
        cred_outcome o = sources[i](ch, out, &t, err);
        ok = o == CRED_FOUND;
        failed = o == CRED_FAILED;
    }
    if (!ok && !failed)
        sqe_error_set(err, SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE,
                      "no S3 credentials found; tried %s. Set AWS_ACCESS_KEY_ID and "
                      "AWS_SECRET_ACCESS_KEY (or --s3-access-key with the secret in the "
                      "environment), set AWS_PROFILE to a profile with keys or "
                      "credential_process, run `aws configure` or `aws sso login`, or CREATE "
                      "SECRET and name it in the table's sqe.secret property",
                      t.text.data ? t.text.data : "nothing");
    sqe_strbuf_free(&t.text);
    if (ok && out->expires_us && out->expires_us <= sqe_clock_wall_us()) {
        sqe_s3_creds_clear(out);
        return sqe_error_set(err, SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE,
                             "the S3 credentials found have expired; renew them (`aws sso "
                             "login`, a fresh token file or credential_process output) and "
                             "run the statement again");
    }
    if (ok && sqe_log_enabled(SQE_LOG_DEBUG))
        sqe_log(SQE_LOG_DEBUG, "io", "S3 credentials resolved%s%s",
                out->session_token ? " (temporary)" : "",
                out->expires_us ? ", with an expiry" : "");
    return ok;
}

static bool cred_chain_get(sqe_s3_cred_source *src, sqe_s3_creds *out, sqe_error *err) {
    cred_chain *ch = (cred_chain *)src;
    pthread_mutex_lock(&ch->mu);
    for (;;) {
        if (ch->have && sqe_clock_wall_us() < ch->refresh_at_us) {
            sqe_s3_creds_copy(out, &ch->cached);
            pthread_mutex_unlock(&ch->mu);
            return true;
        }
        if (!ch->resolving) break;
        /* Wait for the resolution in flight and share its outcome. */
        uint64_t gen = ch->generation;
        while (ch->resolving && ch->generation == gen) pthread_cond_wait(&ch->cv, &ch->mu);
        if (ch->generation != gen && ch->last_failed) {
            if (err) *err = ch->last_err;
            pthread_mutex_unlock(&ch->mu);
            return false;
        }
        if (ch->generation != gen && ch->have) {
            /* Just resolved for us: use it even inside the refresh margin
             * (short-lived credentials), rather than resolving again. */
            sqe_s3_creds_copy(out, &ch->cached);
            pthread_mutex_unlock(&ch->mu);
            return true;
        }
    }
    ch->resolving = true;
    pthread_mutex_unlock(&ch->mu);

    sqe_s3_creds fresh;
    memset(&fresh, 0, sizeof fresh);
    sqe_error e;
    sqe_error_clear(&e);
    bool ok = cred_resolve(ch, &fresh, &e);
    int64_t now = sqe_clock_wall_us();

    pthread_mutex_lock(&ch->mu);
    sqe_s3_creds_clear(&ch->cached);
    ch->have = ok;
    ch->last_failed = !ok;
    ch->last_err = e;
    if (ok) {
        ch->cached = fresh;
        ch->refresh_at_us = fresh.expires_us ? fresh.expires_us - CRED_REFRESH_BEFORE_US
                                             : now + CRED_NO_EXPIRY_TTL_US;
        sqe_s3_creds_copy(out, &ch->cached);
    }
    ch->resolving = false;
    ch->generation++;
    pthread_cond_broadcast(&ch->cv);
    pthread_mutex_unlock(&ch->mu);
    if (!ok && err) *err = e;
    return ok;
}

static void cred_chain_invalidate(sqe_s3_cred_source *src) {
    cred_chain *ch = (cred_chain *)src;
    pthread_mutex_lock(&ch->mu);
    if (!ch->resolving) {
        sqe_s3_creds_clear(&ch->cached);
        ch->have = false;
    } else {
        ch->refresh_at_us = 0; /* what is being resolved now is fresh anyway */
    }
    pthread_mutex_unlock(&ch->mu);
}

static void cred_chain_free(sqe_s3_cred_source *src) {
    cred_chain *ch = (cred_chain *)src;
    if (!ch) return;
    sqe_s3_creds_clear(&ch->cached);
    cred_env_free(ch->env);
    pthread_mutex_destroy(&ch->mu);
    pthread_cond_destroy(&ch->cv);
    sqe_free(ch);
}

static const sqe_s3_cred_source_vt cred_chain_vt = {"chain", cred_chain_get, cred_chain_invalidate,
                                                    cred_chain_free};

sqe_s3_cred_source *sqe_s3_cred_chain_new(const char *const *env) {
    cred_chain *ch = sqe_calloc(1, sizeof *ch);
    ch->base.vt = &cred_chain_vt;
    ch->env = cred_env_copy(env);
    pthread_mutex_init(&ch->mu, NULL);
    pthread_cond_init(&ch->cv, NULL);
    return &ch->base;
}
