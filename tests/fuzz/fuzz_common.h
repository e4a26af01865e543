/*
 * fuzz_common.h - shared by the fuzz targets in tests/fuzz/: the libFuzzer
 * entry point's prototype, an in-memory object store, and small helpers.
 *
 * The memory store implements io.h's sqe_store vtable over a flat list of
 * (path, bytes) objects, with the same contract as the local backend: a
 * non-recursive list reports direct children (files, and sub-folders as
 * is_dir common prefixes), a recursive list every object below the prefix;
 * head/get_range/del of a missing object are NOT_FOUND. It keeps fuzzing
 * off the disk (fast, no leftovers) and lets a harness inspect exactly what
 * the engine wrote (fuzz_ddl compares manifests byte for byte).
 *
 * Everything is static so each target includes this header once; all
 * functions are marked unused so targets that need only part of it still
 * build with -Werror.
 */
#ifndef SQE_FUZZ_COMMON_H
#define SQE_FUZZ_COMMON_H

#include "io/io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_UNUSED __attribute__((unused))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ------------------------------------------------------- memory store */

typedef struct mem_object {
    char *path;
    char *data;
    size_t len;
} mem_object;

typedef struct mem_store {
    sqe_store base;
    SQE_ARRAY(mem_object) objs; /* malloc'd */
} mem_store;

static FUZZ_UNUSED mem_object *mem_find(mem_store *m, const char *path) {
    for (size_t i = 0; i < m->objs.len; i++)
        if (strcmp(m->objs.items[i].path, path) == 0) return &m->objs.items[i];
    return NULL;
}

/* prefix as a folder: "p" and "p/" both mean the folder p/ ("" is the top). */
static FUZZ_UNUSED char *mem_folder(const char *prefix) {
    size_t n = strlen(prefix);
    if (n == 0 || prefix[n - 1] == '/') return sqe_strdup(prefix);
    return sqe_asprintf("%s/", prefix);
}

static FUZZ_UNUSED bool mem_list(sqe_store *s, const char *prefix, bool recursive,
                                 sqe_io_list_cb cb, void *ctx, sqe_error *err) {
    mem_store *m = (mem_store *)s;
    char *folder = mem_folder(prefix);
    size_t fl = strlen(folder);
    SQE_ARRAY(char *) seen = {0}; /* folders already reported */
    bool go = true;
    for (size_t i = 0; go && i < m->objs.len; i++) {
        const mem_object *o = &m->objs.items[i];
        if (strncmp(o->path, folder, fl) != 0 || o->path[fl] == '\0') continue;
        const char *rest = o->path + fl;
        const char *slash = strchr(rest, '/');
        sqe_io_entry e;
        memset(&e, 0, sizeof e);
        if (recursive || !slash) {
            e.path = o->path;
            const char *last = strrchr(o->path, '/');
            e.name = last ? last + 1 : o->path;
            e.size = o->len;
            go = cb(&e, ctx);
            continue;
        }
        char *sub = sqe_strndup(rest, (size_t)(slash - rest));
        bool dup = false;
        for (size_t j = 0; j < seen.len; j++) dup |= strcmp(seen.items[j], sub) == 0;
        if (dup) {
            sqe_free(sub);
            continue;
        }
        SQE_ARRAY_PUSH(NULL, seen, sub);
        char *path = sqe_asprintf("%s%s", folder, sub);
        e.path = path;
        e.name = sub;
        e.is_dir = true;
        go = cb(&e, ctx);
        sqe_free(path);
    }
    for (size_t j = 0; j < seen.len; j++) sqe_free(seen.items[j]);
    SQE_ARRAY_FREE(seen);
    sqe_free(folder);
    (void)err;
    return true;
}

static FUZZ_UNUSED bool mem_head(sqe_store *s, const char *path, sqe_io_entry *out,
                                 sqe_error *err) {
    mem_object *o = mem_find((mem_store *)s, path);
    if (!o) return sqe_error_set(err, SQE_ERR_NOT_FOUND, "object '%s' not found", path);
    memset(out, 0, sizeof *out);
    out->path = o->path;
    const char *last = strrchr(o->path, '/');
    out->name = last ? last + 1 : o->path;
    out->size = o->len;
    return true;
}

static FUZZ_UNUSED bool mem_get_range(sqe_store *s, const char *path, uint64_t offset, size_t len,
                                      void *buf, size_t *n_read, sqe_error *err) {
    mem_object *o = mem_find((mem_store *)s, path);
    *n_read = 0;
    if (!o) return sqe_error_set(err, SQE_ERR_NOT_FOUND, "object '%s' not found", path);
    if (offset >= o->len) return true;
    size_t n = SQE_MIN(len, o->len - (size_t)offset);
    memcpy(buf, o->data + offset, n);
    *n_read = n;
    return true;
}

static FUZZ_UNUSED bool mem_put(sqe_store *s, const char *path, const void *data, size_t len,
                                sqe_error *err) {
    mem_store *m = (mem_store *)s;
    mem_object *o = mem_find(m, path);
    if (!o) {
        mem_object n = {sqe_strdup(path), NULL, 0};
        SQE_ARRAY_PUSH(NULL, m->objs, n);
        o = &m->objs.items[m->objs.len - 1];
    }
    sqe_free(o->data);
    o->data = sqe_malloc(len ? len : 1);
    if (len) memcpy(o->data, data, len);
    o->len = len;
    (void)err;
    return true;
}

static FUZZ_UNUSED bool mem_put_if_absent(sqe_store *s, const char *path, const void *data,
                                          size_t len, sqe_error *err) {
    if (mem_find((mem_store *)s, path))
        return sqe_error_set(err, SQE_ERR_ALREADY_EXISTS, "object '%s' already exists", path);
    return mem_put(s, path, data, len, err);
}

static FUZZ_UNUSED bool mem_del(sqe_store *s, const char *path, sqe_error *err) {
    mem_store *m = (mem_store *)s;
    mem_object *o = mem_find(m, path);
    if (!o) return sqe_error_set(err, SQE_ERR_NOT_FOUND, "object '%s' not found", path);
    sqe_free(o->path);
    sqe_free(o->data);
    *o = m->objs.items[--m->objs.len];
    return true;
}

static FUZZ_UNUSED void mem_free(sqe_store *s) {
    mem_store *m = (mem_store *)s;
    for (size_t i = 0; i < m->objs.len; i++) {
        sqe_free(m->objs.items[i].path);
        sqe_free(m->objs.items[i].data);
    }
    SQE_ARRAY_FREE(m->objs);
    sqe_free(m);
}

static const sqe_store_vtable mem_store_vtable FUZZ_UNUSED = {
    .name = "memory",
    .list = mem_list,
    .head = mem_head,
    .get_range = mem_get_range,
    .put = mem_put,
    .put_if_absent = mem_put_if_absent,
    .del = mem_del,
    .free = mem_free,
};

/* A new empty memory store; free with sqe_store_free. */
static FUZZ_UNUSED mem_store *mem_store_new(void) {
    mem_store *m = sqe_calloc(1, sizeof *m);
    m->base.vt = &mem_store_vtable;
    return m;
}

/* ------------------------------------------------------------ helpers */

/* A NUL-terminated malloc'd copy of the input (sqe_free it). */
static FUZZ_UNUSED char *fuzz_cstr(const uint8_t *data, size_t size) {
    char *s = sqe_malloc(size + 1);
    if (size) memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* Stops the fuzzer with a message: an invariant of the engine broke. */
static FUZZ_UNUSED void fuzz_fail(const char *what, const char *detail) {
    fprintf(stderr, "fuzz invariant broken: %s\n%s\n", what, detail ? detail : "");
    abort();
}

#endif
