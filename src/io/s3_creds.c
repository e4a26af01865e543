/*
 * s3_creds.c - credential values and the static credential source.
 *
 * A sqe_s3_creds holds malloc'd strings; clearing wipes them with
 * explicit_bzero before freeing, so a secret does not linger in freed heap
 * memory that a later allocation (and a later error message) could expose.
 * The static source returns a copy of the keys it was made with (the
 * --s3-access-key/--s3-secret-key flags, a CREATE SECRET); it never
 * expires. The AWS default chain is credentials.c. Dispatch through the
 * vtable (s3.h) is here so every source is called the same way.
 */
#include "io/s3.h"

#include <string.h>

static char *creds_dup(const char *s) {
    return s ? sqe_strdup(s) : NULL;
}

static void creds_wipe(char **s) {
    if (!*s) return;
    explicit_bzero(*s, strlen(*s));
    sqe_free(*s);
    *s = NULL;
}

void sqe_s3_creds_clear(sqe_s3_creds *c) {
    if (!c) return;
    creds_wipe(&c->access_key);
    creds_wipe(&c->secret_key);
    creds_wipe(&c->session_token);
    c->expires_us = 0;
}

void sqe_s3_creds_copy(sqe_s3_creds *dst, const sqe_s3_creds *src) {
    dst->access_key = creds_dup(src->access_key);
    dst->secret_key = creds_dup(src->secret_key);
    dst->session_token = creds_dup(src->session_token);
    dst->expires_us = src->expires_us;
}

bool sqe_s3_cred_source_get(sqe_s3_cred_source *src, sqe_s3_creds *out, sqe_error *err) {
    memset(out, 0, sizeof *out);
    return src->vt->get(src, out, err);
}

void sqe_s3_cred_source_invalidate(sqe_s3_cred_source *src) {
    if (src->vt->invalidate) src->vt->invalidate(src);
}

void sqe_s3_cred_source_free(sqe_s3_cred_source *src) {
    if (src) src->vt->free(src);
}

typedef struct creds_static {
    sqe_s3_cred_source base;
    sqe_s3_creds creds;
} creds_static;

static bool creds_static_get(sqe_s3_cred_source *src, sqe_s3_creds *out, sqe_error *err) {
    (void)err;
    sqe_s3_creds_copy(out, &((creds_static *)src)->creds);
    return true;
}

static void creds_static_free(sqe_s3_cred_source *src) {
    creds_static *s = (creds_static *)src;
    sqe_s3_creds_clear(&s->creds);
    sqe_free(s);
}

static const sqe_s3_cred_source_vt creds_static_vt = {"static", creds_static_get, NULL,
                                                      creds_static_free};

sqe_s3_cred_source *sqe_s3_cred_static_new(const sqe_s3_creds *creds) {
    creds_static *s = sqe_calloc(1, sizeof *s);
    s->base.vt = &creds_static_vt;
    sqe_s3_creds_copy(&s->creds, creds);
    s->creds.expires_us = 0;
    return &s->base;
}
