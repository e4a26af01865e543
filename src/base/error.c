/*
 * error.c - error values: a class (client-visible name + SQLSTATE) and a
 * message naming the offending thing. Library code fills an sqe_error and
 * returns false; it never prints and never exits (sqe_debug_fail, for a
 * broken internal invariant in debug builds, is the one exception).
 */
#include "base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    const char *sqlstate;
} k_classes[SQE_ERR__COUNT] = {
    [SQE_OK] = {"OK", "00000"},
    [SQE_ERR_SYNTAX] = {"SYNTAX_ERROR", "42601"},
    [SQE_ERR_NOT_FOUND] = {"NOT_FOUND", "42P01"},
    [SQE_ERR_ALREADY_EXISTS] = {"ALREADY_EXISTS", "42P07"},
    [SQE_ERR_PERMISSION_DENIED] = {"PERMISSION_DENIED", "42501"},
    [SQE_ERR_TYPE_MISMATCH] = {"TYPE_MISMATCH", "42804"},
    [SQE_ERR_INVALID_ARGUMENT] = {"INVALID_ARGUMENT", "22023"},
    [SQE_ERR_INVALID_DATA] = {"INVALID_DATA", "22P02"},
    [SQE_ERR_DIVISION_BY_ZERO] = {"DIVISION_BY_ZERO", "22012"},
    [SQE_ERR_OUT_OF_RANGE] = {"NUMERIC_VALUE_OUT_OF_RANGE", "22003"},
    [SQE_ERR_HIVE_EXTERNAL] = {"HIVE_EXTERNAL", "42000"},
    [SQE_ERR_NOT_SUPPORTED] = {"NOT_SUPPORTED", "0A000"},
    [SQE_ERR_STORAGE] = {"STORAGE", "58030"},
    [SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE] = {"STORAGE_CREDENTIALS_UNAVAILABLE", "28000"},
    [SQE_ERR_CATALOG_TIMEOUT] = {"CATALOG_TIMEOUT", "57014"},
    [SQE_ERR_CANCELLED] = {"CANCELLED", "57014"},
    [SQE_ERR_RESOURCE_EXHAUSTED] = {"RESOURCE_EXHAUSTED", "53000"},
    [SQE_ERR_USAGE] = {"USAGE_ERROR", "42000"},
    [SQE_ERR_INTERNAL] = {"INTERNAL", "XX000"},
};

void sqe_error_clear(sqe_error *err) {
    if (!err) return;
    err->cls = SQE_OK;
    err->msg[0] = '\0';
}

bool sqe_error_setv(sqe_error *err, sqe_error_class cls, const char *fmt, va_list ap) {
    if (!err) return false;
    char tmp[SQE_ERROR_MSG_MAX];
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    err->cls = cls;
    if (cls == SQE_ERR_HIVE_EXTERNAL && strncmp(tmp, "hive_external:", 14) != 0)
        snprintf(err->msg, sizeof err->msg, "hive_external: %s", tmp);
    else
        memcpy(err->msg, tmp, sizeof tmp);
    return false;
}

bool sqe_error_set(sqe_error *err, sqe_error_class cls, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    sqe_error_setv(err, cls, fmt, ap);
    va_end(ap);
    return false;
}

bool sqe_error_prefix(sqe_error *err, const char *fmt, ...) {
    if (!err) return false;
    char pre[SQE_ERROR_MSG_MAX], old[SQE_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pre, sizeof pre, fmt, ap);
    va_end(ap);
    memcpy(old, err->msg, sizeof old);
    snprintf(err->msg, sizeof err->msg, "%s%s", pre, old);
    return false;
}

const char *sqe_error_class_name(sqe_error_class cls) {
    if ((unsigned)cls >= SQE_ERR__COUNT) return "INTERNAL";
    return k_classes[cls].name;
}

const char *sqe_error_sqlstate(sqe_error_class cls) {
    if ((unsigned)cls >= SQE_ERR__COUNT) return "XX000";
    return k_classes[cls].sqlstate;
}

void sqe_debug_fail(const char *expr, const char *file, int line) {
    fprintf(stderr, "sqe: debug check failed: %s (%s:%d)\n", expr, file, line);
    abort();
}
