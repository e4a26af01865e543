/*
 * log.c - leveled logging to stderr, level from SQE_LOG, clocks, CPU count.
 */
#define _POSIX_C_SOURCE 200809L
#include "base.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int g_level = -1;

static int level_from_env(void) {
    const char *s = getenv("SQE_LOG");
    if (!s || !*s) return SQE_LOG_WARN;
    if (sqe_str_ieq(s, "debug")) return SQE_LOG_DEBUG;
    if (sqe_str_ieq(s, "info")) return SQE_LOG_INFO;
    if (sqe_str_ieq(s, "warn") || sqe_str_ieq(s, "warning")) return SQE_LOG_WARN;
    if (sqe_str_ieq(s, "error")) return SQE_LOG_ERROR;
    if (sqe_str_ieq(s, "off") || sqe_str_ieq(s, "none")) return SQE_LOG_OFF;
    return SQE_LOG_WARN;
}

bool sqe_log_enabled(sqe_log_level level) {
    if (g_level < 0) g_level = level_from_env();
    return (int)level >= g_level;
}

void sqe_log(sqe_log_level level, const char *module, const char *fmt, ...) {
    static const char *names[] = {"DEBUG", "INFO", "WARN", "ERROR", "OFF"};
    if (!sqe_log_enabled(level)) return;
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "sqe %s %s: %s\n", names[level], module ? module : "-", msg);
}

uint64_t sqe_clock_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int64_t sqe_clock_wall_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int sqe_cpu_count(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}
