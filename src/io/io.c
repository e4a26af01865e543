/*
 * io.c - URL classification, store dispatch and path helpers shared by every
 * backend.
 *
 * sqe accepts three spellings of a location (SPEC §0.4):
 *   s3://bucket/prefix      S3 (bucket required; backend not written yet)
 *   file:///abs/path        local disk, absolute path after "file://"
 *   path/or/relative, /abs  local disk
 * Anything of the form "scheme://..." with another scheme is rejected naming
 * the scheme, so a typo such as gs:// or s3a:// fails at ATTACH time instead
 * of being read as a relative folder called "gs:".
 *
 * Nothing here touches storage except sqe_io_read_all, which goes through
 * the store's vtable.
 */
#include "io/io.h"

#include <string.h>

/* Length of "scheme" when url starts with "scheme://" (RFC 3986 scheme
 * characters), else 0. */
static size_t url_scheme_len(const char *url) {
    size_t i = 0;
    if (!((url[0] >= 'a' && url[0] <= 'z') || (url[0] >= 'A' && url[0] <= 'Z'))) return 0;
    for (i = 1; url[i]; i++) {
        char c = url[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '+' || c == '-' || c == '.';
        if (!ok) break;
    }
    return (url[i] == ':' && url[i + 1] == '/' && url[i + 2] == '/') ? i : 0;
}

static bool scheme_is(const char *url, size_t scheme_len, const char *name) {
    return scheme_len == strlen(name) && sqe_str_ieqn(url, name, scheme_len);
}

bool sqe_io_check_url(const char *url, sqe_error *err) {
    if (!url || !url[0])
        return sqe_error_set(
            err, SQE_ERR_INVALID_ARGUMENT,
            "empty URL: expected s3://bucket/prefix, file:///absolute/path or a local path");
    size_t sl = url_scheme_len(url);
    if (sl == 0) return true; /* plain local path, relative or absolute */
    const char *rest = url + sl + 3;
    if (scheme_is(url, sl, "s3")) {
        if (rest[0] == '\0' || rest[0] == '/')
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "invalid S3 URL '%s': missing bucket", url);
        return true;
    }
    if (scheme_is(url, sl, "file")) {
        if (rest[0] != '/')
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "invalid file URL '%s': expected file:///absolute/path", url);
        return true;
    }
    return sqe_error_set(
        err, SQE_ERR_NOT_SUPPORTED,
        "unsupported URL scheme '%.*s' in '%s'; use s3://, file:// or a local path", (int)sl, url,
        url);
}

sqe_store *sqe_io_store_for_url(const char *url, sqe_error *err) {
    if (!sqe_io_check_url(url, err)) return NULL;
    size_t sl = url_scheme_len(url);
    if (sl && scheme_is(url, sl, "s3")) {
        sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                      "S3 storage is not supported yet (URL '%s'); use a local path or file:// URL",
                      url);
        return NULL;
    }
    return sqe_io_local_new();
}

/* Bytes at the start of `p` that a join must never trim: "scheme://" plus,
 * for an absolute path, its root '/'. */
static size_t root_len(const char *p) {
    size_t sl = url_scheme_len(p);
    size_t n = sl ? sl + 3 : 0;
    if (p[n] == '/') n++;
    return n;
}

char *sqe_io_join(const char *base, const char *name) {
    size_t base_len = strlen(base);
    size_t keep = root_len(base);
    while (base_len > keep && base[base_len - 1] == '/') base_len--;
    while (name[0] == '/') name++;
    size_t name_len = strlen(name);
    bool need_sep = base_len > 0 && base[base_len - 1] != '/';
    char *out = sqe_malloc(base_len + (need_sep ? 1 : 0) + name_len + 1);
    memcpy(out, base, base_len);
    size_t o = base_len;
    if (need_sep) out[o++] = '/';
    memcpy(out + o, name, name_len);
    out[o + name_len] = '\0';
    return out;
}

char *sqe_io_local_path(const char *url) {
    size_t sl = url_scheme_len(url);
    if (sl && scheme_is(url, sl, "file")) return sqe_strdup(url + sl + 3);
    return sqe_strdup(url);
}

static bool io_read_all_once(sqe_store *s, const char *path, size_t max_bytes, char **data,
                             size_t *len, sqe_error *err) {
    *data = NULL;
    *len = 0;
    sqe_io_entry info;
    if (!s->vt->head(s, path, &info, err)) return false;
    if (info.size > max_bytes)
        return sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED,
                             "object '%s' is %llu bytes, more than the limit of %zu bytes", path,
                             (unsigned long long)info.size, max_bytes);
    /* Read until a short read: the object may have changed size since head. */
    size_t cap = (size_t)info.size + 1, used = 0;
    char *buf = sqe_malloc(cap + 1);
    for (;;) {
        size_t n = 0;
        if (!s->vt->get_range(s, path, used, cap - used, buf + used, &n, err)) {
            sqe_free(buf);
            return false;
        }
        used += n;
        if (used > max_bytes) {
            sqe_free(buf);
            return sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED,
                                 "object '%s' is more than the limit of %zu bytes", path,
                                 max_bytes);
        }
        if (used < cap) break;
        cap *= 2;
        buf = sqe_realloc(buf, cap + 1);
    }
    buf[used] = '\0';
    *data = buf;
    *len = used;
    return true;
}

bool sqe_io_read_all(sqe_store *s, const char *path, size_t max_bytes, char **data, size_t *len,
                     sqe_error *err) {
    for (int attempt = 1;; attempt++) {
        if (io_read_all_once(s, path, max_bytes, data, len, err)) return true;
        if (attempt == 3 || !err || err->cls != SQE_ERR_STORAGE ||
            !strstr(err->msg, SQE_IO_CHANGED_MARK))
            return false;
        sqe_error_clear(err);
    }
}

/* ------------------------------------------------ conditional replace */

bool sqe_io_version(sqe_store *s, const char *path, char *token, size_t cap, sqe_error *err) {
    if (!s->vt->version)
        return sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                             "the '%s' store cannot tell versions of '%s' apart, so it cannot "
                             "replace it only if unchanged",
                             s->vt->name, path);
    return s->vt->version(s, path, token, cap, err);
}

bool sqe_io_put_if_match(sqe_store *s, const char *path, const void *data, size_t len,
                         const char *token, sqe_error *err) {
    if (!s->vt->put_if_match)
        return sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                             "the '%s' store cannot replace '%s' only if unchanged", s->vt->name,
                             path);
    return s->vt->put_if_match(s, path, data, len, token, err);
}
