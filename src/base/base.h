/*
 * base.h - layer 0 of sqe: memory, errors, strings, containers, logging,
 * threads. Nothing here includes any other sqe header.
 *
 * Conventions used across the whole tree:
 *  - A function that can fail returns bool (or a pointer, NULL on failure)
 *    and takes `sqe_error *err` as its last argument; on failure it has
 *    filled *err. sqe_error_set() returns false so `return sqe_error_set(..)`
 *    reads naturally.
 *  - Heap allocation goes through sqe_malloc/sqe_calloc/sqe_realloc, which
 *    abort the process with a message when the system is out of memory (as
 *    Redis's zmalloc does). Per-query memory limits are enforced above this
 *    layer and fail the query with RESOURCE_EXHAUSTED.
 *  - An arena owns many small allocations that die together (statement,
 *    batch). sqe_arena_alloc returns zeroed, 16-byte aligned memory.
 */
#ifndef SQE_BASE_H
#define SQE_BASE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SQE_UNUSED(x) ((void)(x))
#define SQE_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define SQE_MIN(a, b) ((a) < (b) ? (a) : (b))
#define SQE_MAX(a, b) ((a) > (b) ? (a) : (b))

#if defined(__GNUC__)
#define SQE_PRINTF(fmt_idx, arg_idx) __attribute__((format(printf, fmt_idx, arg_idx)))
#define SQE_LIKELY(x) __builtin_expect(!!(x), 1)
#define SQE_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define SQE_PRINTF(fmt_idx, arg_idx)
#define SQE_LIKELY(x) (x)
#define SQE_UNLIKELY(x) (x)
#endif

/* SQE_DEBUG_ASSERT(cond): an internal invariant, checked in debug and
 * sanitizer builds (SQE_DEBUG defined, or AddressSanitizer on) and compiled
 * out otherwise (cond is then not evaluated, so it must have no side
 * effects). For bugs that would otherwise hang or corrupt memory, such as a
 * hash probe running past its table's capacity; never for user input. */
#if defined(SQE_DEBUG) || defined(__SANITIZE_ADDRESS__)
#define SQE_DEBUG_CHECKS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SQE_DEBUG_CHECKS 1
#endif
#endif
#ifndef SQE_DEBUG_CHECKS
#define SQE_DEBUG_CHECKS 0
#endif
#if SQE_DEBUG_CHECKS
#define SQE_DEBUG_ASSERT(cond) ((cond) ? (void)0 : sqe_debug_fail(#cond, __FILE__, __LINE__))
#else
#define SQE_DEBUG_ASSERT(cond) ((void)sizeof(cond))
#endif
/* Prints "sqe: debug check failed: EXPR (FILE:LINE)" and aborts. */
_Noreturn void sqe_debug_fail(const char *expr, const char *file, int line);
/* One step of an open-addressing probe: counts it and, in debug builds,
 * checks that the probe has not yet visited all `cap` slots of its table
 * (it would then never end). The watchdog of every hash table probe loop. */
#define SQE_PROBE_STEP(probes, cap)                                                                \
    do {                                                                                           \
        (probes)++;                                                                                \
        SQE_DEBUG_ASSERT((probes) < (cap));                                                        \
    } while (0)

/* ------------------------------------------------------------------ errors */

typedef enum sqe_error_class {
    SQE_OK = 0,
    SQE_ERR_SYNTAX,            /* 42601 syntax_error */
    SQE_ERR_NOT_FOUND,         /* 42P01 undefined_table (also columns: 42703) */
    SQE_ERR_ALREADY_EXISTS,    /* 42P07 duplicate_table */
    SQE_ERR_PERMISSION_DENIED, /* 42501 */
    SQE_ERR_TYPE_MISMATCH,     /* 42804 datatype_mismatch */
    SQE_ERR_INVALID_ARGUMENT,  /* 22023 invalid_parameter_value */
    SQE_ERR_INVALID_DATA,      /* 22P02 invalid_text_representation: a value in a file */
    SQE_ERR_DIVISION_BY_ZERO,  /* 22012 */
    SQE_ERR_OUT_OF_RANGE,      /* 22003 numeric_value_out_of_range */
    SQE_ERR_HIVE_EXTERNAL, /* 42000: a rejected Hive DDL/table shape; message starts "hive_external:
                              " */
    SQE_ERR_NOT_SUPPORTED, /* 0A000 feature_not_supported */
    SQE_ERR_STORAGE,       /* 58030 io_error */
    SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE, /* 28000 */
    SQE_ERR_CATALOG_TIMEOUT,                 /* 57014 */
    SQE_ERR_RESOURCE_EXHAUSTED,              /* 53000 */
    SQE_ERR_CANCELLED,                       /* 57014 query_canceled */
    SQE_ERR_USAGE,    /* 42000: wrong use of a statement/flag that is not a syntax error */
    SQE_ERR_INTERNAL, /* XX000 */
    SQE_ERR__COUNT
} sqe_error_class;

#define SQE_ERROR_MSG_MAX 1024
/* A quoted value ('%s') inside a message shows at most this many bytes, then "...". */
#define SQE_ERROR_VALUE_MAX 200

typedef struct sqe_error {
    sqe_error_class cls;
    char msg[SQE_ERROR_MSG_MAX];
} sqe_error;

/* Clears *err to SQE_OK with an empty message. */
void sqe_error_clear(sqe_error *err);
/* Fills *err (if err != NULL) and returns false. For SQE_ERR_HIVE_EXTERNAL the
 * message is prefixed with "hive_external: " unless it already starts so.
 * printf-like, with three differences for the values a message quotes (see
 * error.c): invisible bytes in %s/%c arguments are escaped (\0, \t, \x1b,
 * \ufeff ...); %.*s prints exactly that many bytes, NULs included, so pass
 * the value's real length; a '%s' right after a quote shows at most
 * SQE_ERROR_VALUE_MAX bytes then "...". An overlong message keeps its start
 * and its end (the cause), never only the start. */
bool sqe_error_set(sqe_error *err, sqe_error_class cls, const char *fmt, ...) SQE_PRINTF(3, 4);
bool sqe_error_setv(sqe_error *err, sqe_error_class cls, const char *fmt, va_list ap);
/* Prepends "prefix" to an existing message (keeps the class). Returns false. */
bool sqe_error_prefix(sqe_error *err, const char *fmt, ...) SQE_PRINTF(2, 3);
/* The formatting sqe_error_setv uses, appended to sb (no length limit). */
struct sqe_strbuf;
void sqe_error_vformat(struct sqe_strbuf *sb, const char *fmt, va_list ap);
/* Appends v[0, len) with invisible bytes escaped as in error messages. */
void sqe_error_escape_append(struct sqe_strbuf *sb, const char *v, size_t len);
/* Name as shown to clients: "SYNTAX_ERROR", "NOT_FOUND", ... */
const char *sqe_error_class_name(sqe_error_class cls);
/* Five-character SQLSTATE, e.g. "42601". */
const char *sqe_error_sqlstate(sqe_error_class cls);

/* ------------------------------------------------------------------ memory */

void *sqe_malloc(size_t n);
void *sqe_calloc(size_t n, size_t size);
void *sqe_realloc(void *p, size_t n);
void sqe_free(void *p);
char *sqe_strdup(const char *s);
char *sqe_strndup(const char *s, size_t n);
/* malloc'd printf result; caller frees with sqe_free. */
char *sqe_asprintf(const char *fmt, ...) SQE_PRINTF(1, 2);

typedef struct sqe_arena sqe_arena;

/* block_size 0 means a default of 64 KiB. Owned by the caller; free with
 * sqe_arena_free. */
sqe_arena *sqe_arena_new(size_t block_size);
void sqe_arena_free(sqe_arena *a);
/* Releases everything allocated, keeps the first block for reuse. */
void sqe_arena_reset(sqe_arena *a);
/* Zeroed, 16-byte aligned. Never returns NULL (aborts when out of memory). */
void *sqe_arena_alloc(sqe_arena *a, size_t n);
/* Grows an arena allocation: returns a new block with the old contents copied
 * (the old block is not reused). old may be NULL. */
void *sqe_arena_realloc(sqe_arena *a, void *old, size_t old_n, size_t new_n);
char *sqe_arena_strdup(sqe_arena *a, const char *s);
char *sqe_arena_strndup(sqe_arena *a, const char *s, size_t n);
char *sqe_arena_sprintf(sqe_arena *a, const char *fmt, ...) SQE_PRINTF(2, 3);
/* Bytes handed out since creation/reset (for memory accounting). */
size_t sqe_arena_used(const sqe_arena *a);

/* ------------------------------------------------------- dynamic arrays */

/* A typed growable array: `SQE_ARRAY(int) xs = {0};`. With arena == NULL the
 * items are malloc'd and must be released with SQE_ARRAY_FREE; with an arena
 * they live as long as the arena. */
#define SQE_ARRAY(T)                                                                               \
    struct {                                                                                       \
        T *items;                                                                                  \
        size_t len, cap;                                                                           \
    }
void sqe_array_grow_(void **items, size_t *cap, size_t elem_size, size_t need, sqe_arena *arena);
#define SQE_ARRAY_RESERVE(arena, arr, n)                                                           \
    sqe_array_grow_((void **)&(arr).items, &(arr).cap, sizeof(*(arr).items), (n), (arena))
#define SQE_ARRAY_PUSH(arena, arr, v)                                                              \
    do {                                                                                           \
        SQE_ARRAY_RESERVE(arena, arr, (arr).len + 1);                                              \
        (arr).items[(arr).len++] = (v);                                                            \
    } while (0)
#define SQE_ARRAY_FREE(arr)                                                                        \
    do {                                                                                           \
        sqe_free((arr).items);                                                                     \
        (arr).items = NULL;                                                                        \
        (arr).len = (arr).cap = 0;                                                                 \
    } while (0)

/* ------------------------------------------------------------- strings */

/* A growable, always NUL-terminated byte buffer (malloc'd). */
typedef struct sqe_strbuf {
    char *data;
    size_t len, cap;
} sqe_strbuf;

void sqe_strbuf_init(sqe_strbuf *sb);
void sqe_strbuf_free(sqe_strbuf *sb);
void sqe_strbuf_clear(sqe_strbuf *sb);
void sqe_strbuf_append(sqe_strbuf *sb, const char *s, size_t n);
void sqe_strbuf_puts(sqe_strbuf *sb, const char *s);
void sqe_strbuf_putc(sqe_strbuf *sb, char c);
void sqe_strbuf_printf(sqe_strbuf *sb, const char *fmt, ...) SQE_PRINTF(2, 3);
void sqe_strbuf_vprintf(sqe_strbuf *sb, const char *fmt, va_list ap);
/* Hands the buffer to the caller (sqe_free it) and resets sb. */
char *sqe_strbuf_detach(sqe_strbuf *sb);

bool sqe_str_ieq(const char *a, const char *b);            /* ASCII case-insensitive equality */
bool sqe_str_ieqn(const char *a, const char *b, size_t n); /* first n bytes */
bool sqe_str_starts_with(const char *s, const char *prefix);
bool sqe_str_ends_with(const char *s, const char *suffix);
/* In-place ASCII lower-casing; returns s. */
char *sqe_str_lower(char *s);
/* UTF-8 code points in p[0, n): bytes that are not continuation bytes. */
size_t sqe_utf8_count(const char *p, size_t n);
/* SQL LIKE with % and _ and an optional escape char (0 = none). Byte-wise;
 * case_insensitive folds ASCII. */
bool sqe_like_match(const char *s, size_t s_len, const char *p, size_t p_len, char escape,
                    bool case_insensitive);

/* 64-bit hash of bytes (wyhash-style mix; stable within a process). */
uint64_t sqe_hash_bytes(const void *p, size_t n, uint64_t seed);
static inline uint64_t sqe_hash_u64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

/* ------------------------------------------------------------ hash map */

/* String-keyed map to void*. Keys are copied (malloc'd) by the map; values
 * are owned by the caller. Iteration order is unspecified. */
typedef struct sqe_strmap sqe_strmap;
sqe_strmap *sqe_strmap_new(void);
void sqe_strmap_free(sqe_strmap *m);
/* Inserts or replaces; returns the previous value or NULL. */
void *sqe_strmap_put(sqe_strmap *m, const char *key, void *value);
void *sqe_strmap_get(const sqe_strmap *m, const char *key);
bool sqe_strmap_has(const sqe_strmap *m, const char *key);
/* Removes key; returns its value or NULL. */
void *sqe_strmap_remove(sqe_strmap *m, const char *key);
size_t sqe_strmap_len(const sqe_strmap *m);
/* Iterate: `size_t it = 0; const char *k; void *v; while (sqe_strmap_next(m, &it, &k, &v)) ...` */
bool sqe_strmap_next(const sqe_strmap *m, size_t *it, const char **key, void **value);

/* ------------------------------------------------------------- logging */

typedef enum {
    SQE_LOG_DEBUG = 0,
    SQE_LOG_INFO,
    SQE_LOG_WARN,
    SQE_LOG_ERROR,
    SQE_LOG_OFF
} sqe_log_level;
/* Level comes from the SQE_LOG environment variable (debug|info|warn|error|off),
 * default warn. Writes one line to stderr: "sqe <LEVEL> <module>: message". */
void sqe_log(sqe_log_level level, const char *module, const char *fmt, ...) SQE_PRINTF(3, 4);
bool sqe_log_enabled(sqe_log_level level);

/* --------------------------------------------------------------- clock */

/* Monotonic nanoseconds. */
uint64_t sqe_clock_ns(void);
/* Wall clock, microseconds since the Unix epoch (UTC). */
int64_t sqe_clock_wall_us(void);

/* --------------------------------------------------------- thread pool */

typedef struct sqe_threadpool sqe_threadpool;
typedef void (*sqe_task_fn)(void *arg);
/* n_threads <= 0 means the number of online CPUs. */
sqe_threadpool *sqe_threadpool_new(int n_threads);
void sqe_threadpool_free(sqe_threadpool *p); /* waits for queued tasks */
int sqe_threadpool_size(const sqe_threadpool *p);
void sqe_threadpool_submit(sqe_threadpool *p, sqe_task_fn fn, void *arg);
/* Blocks until every submitted task has finished. */
void sqe_threadpool_wait(sqe_threadpool *p);
int sqe_cpu_count(void);

#endif
