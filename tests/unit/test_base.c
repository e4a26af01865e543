/* Unit tests for base/: errors, arenas, arrays, strings, map, LIKE, hash, threads. */
#include "base/base.h"
#include "unit.h"

#include <stdatomic.h>
#include <stdlib.h>

static void test_errors(void) {
    sqe_error e;
    sqe_error_clear(&e);
    CHECK(e.cls == SQE_OK);
    CHECK_STR(e.msg, "");
    CHECK(!sqe_error_set(&e, SQE_ERR_SYNTAX, "expected %s at %d", "FROM", 7));
    CHECK(e.cls == SQE_ERR_SYNTAX);
    CHECK_STR(e.msg, "expected FROM at 7");
    CHECK_STR(sqe_error_class_name(SQE_ERR_SYNTAX), "SYNTAX_ERROR");
    CHECK_STR(sqe_error_sqlstate(SQE_ERR_SYNTAX), "42601");
    CHECK_STR(sqe_error_sqlstate(SQE_ERR_NOT_SUPPORTED), "0A000");
    CHECK_STR(sqe_error_class_name(SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE),
              "STORAGE_CREDENTIALS_UNAVAILABLE");
    CHECK_STR(sqe_error_class_name((sqe_error_class)999), "INTERNAL");
    /* hive_external prefix added once */
    sqe_error_set(&e, SQE_ERR_HIVE_EXTERNAL, "TYPE hive means a metastore");
    CHECK_STR(e.msg, "hive_external: TYPE hive means a metastore");
    sqe_error_set(&e, SQE_ERR_HIVE_EXTERNAL, "hive_external: already prefixed");
    CHECK_STR(e.msg, "hive_external: already prefixed");
    sqe_error_set(&e, SQE_ERR_STORAGE, "cannot read");
    sqe_error_prefix(&e, "file '%s': ", "/x");
    CHECK_STR(e.msg, "file '/x': cannot read");
    CHECK(e.cls == SQE_ERR_STORAGE);
    /* NULL err is allowed and still returns false */
    CHECK(!sqe_error_set(NULL, SQE_ERR_INTERNAL, "x"));
    /* long messages truncate, never overflow */
    char big[4000];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    sqe_error_set(&e, SQE_ERR_HIVE_EXTERNAL, "%s", big);
    CHECK(strlen(e.msg) == SQE_ERROR_MSG_MAX - 1);
}

/* Regression (issue 7, item 11): invisible bytes in values were printed raw
 * inside messages (a NUL cut the value: "cannot parse '3'" for "3\0"). */
static void test_error_invisible_bytes_escaped(void) {
    sqe_error e;
    sqe_error_set(&e, SQE_ERR_INVALID_DATA, "cannot parse '%.*s' as integer", 2, "3\0junk");
    CHECK_STR(e.msg, "cannot parse '3\\0' as integer");
    sqe_error_set(&e, SQE_ERR_INVALID_DATA, "value '%s'", "a\tb\nc\rd\x1b[31m\x07\x7f");
    CHECK_STR(e.msg, "value 'a\\tb\\nc\\rd\\x1b[31m\\x07\\x7f'");
    /* BOM, zero-width space, a C1 control, bidi override: \uhhhh */
    sqe_error_set(&e, SQE_ERR_SYNTAX, "found '%s'",
                  "\xEF\xBB\xBFSELECT\xE2\x80\x8B\xC2\x85\xE2\x80\xAE");
    CHECK_STR(e.msg, "found '\\ufeffSELECT\\u200b\\u0085\\u202e'");
    /* visible UTF-8 stays; invalid UTF-8 is \xhh */
    sqe_error_set(&e, SQE_ERR_SYNTAX, "'%s' '%s'", "K\xC3\xB6ln \xE4\xB8\xAD", "\xFF\xC3");
    CHECK_STR(e.msg, "'K\xC3\xB6ln \xE4\xB8\xAD' '\\xff\\xc3'");
    /* %c too; the format's own text and backslashes are left alone */
    sqe_error_set(&e, SQE_ERR_SYNTAX, "char '%c' in 'a\\b' %s", '\x01', "C:\\dir");
    CHECK_STR(e.msg, "char '\\x01' in 'a\\b' C:\\dir");
    /* escaping twice changes nothing (an inner message quoted by an outer one) */
    sqe_error inner;
    sqe_error_set(&inner, SQE_ERR_SYNTAX, "bad '%s'", "x\x1b");
    sqe_error_set(&e, SQE_ERR_SYNTAX, "outer: %s", inner.msg);
    CHECK_STR(e.msg, "outer: bad 'x\\x1b'");
    /* a numeric precision still stops at a NUL, as printf does */
    sqe_error_set(&e, SQE_ERR_SYNTAX, "'%.10s'", "ab");
    CHECK_STR(e.msg, "'ab'");
    /* prefix escapes its own arguments and keeps the old message */
    sqe_error_set(&e, SQE_ERR_STORAGE, "cannot read");
    sqe_error_prefix(&e, "file '%s': ", "a\x01");
    CHECK_STR(e.msg, "file 'a\\x01': cannot read");
}

/* Other conversions behave as printf's (the formatter is sqe's own). */
static void test_error_format_conversions(void) {
    sqe_error e;
    sqe_error_set(&e, SQE_ERR_INTERNAL, "%d %i %u %ld %lld %zu %x %X %o %%", -1, 2, 3u, -4L, -5LL,
                  (size_t)6, 255u, 255u, 8u);
    CHECK_STR(e.msg, "-1 2 3 -4 -5 6 ff FF 10 %");
    sqe_error_set(&e, SQE_ERR_INTERNAL, "[%5d][%-5d][%05d][%.3f][%g][%+d][%*d][%.*f]", 42, 42, 42,
                  1.5, 0.25, 7, 4, 9, 1, 2.25);
    CHECK_STR(e.msg, "[   42][42   ][00042][1.500][0.25][+7][   9][2.2]");
    const char *volatile null_str = NULL; /* hidden from the format checker */
    sqe_error_set(&e, SQE_ERR_INTERNAL, "[%5s][%-5s][%llu][%hhd][%s]", "ab", "ab",
                  18446744073709551615ULL, 300, null_str);
    CHECK_STR(e.msg, "[   ab][ab   ][18446744073709551615][44][(null)]");
}

/* Regression (issue 7, item 12): a 10,000-character name filled the message
 * and cut off its cause ("File name too long"). A quoted value shows its
 * first SQE_ERROR_VALUE_MAX bytes then "..."; an overlong message keeps its
 * start and its end. */
static void test_error_long_value_keeps_cause(void) {
    sqe_error e;
    char *big = sqe_malloc(10001);
    memset(big, 'x', 10000);
    big[10000] = '\0';
    sqe_error_set(&e, SQE_ERR_STORAGE, "cannot create folder '%s': %s", big, "File name too long");
    sqe_strbuf want;
    sqe_strbuf_init(&want);
    sqe_strbuf_puts(&want, "cannot create folder '");
    for (int i = 0; i < SQE_ERROR_VALUE_MAX; i++) sqe_strbuf_putc(&want, 'x');
    sqe_strbuf_puts(&want, "...': File name too long");
    CHECK_STR(e.msg, want.data);
    /* "%s" after a quote only: an unquoted value (a nested message) is not capped */
    sqe_error_set(&e, SQE_ERR_STORAGE, "x: %s", big);
    CHECK(strlen(e.msg) == SQE_ERROR_MSG_MAX - 1);
    /* ...but the end survives */
    sqe_error_set(&e, SQE_ERR_STORAGE, "%s: the cause", big);
    CHECK(strlen(e.msg) == SQE_ERROR_MSG_MAX - 1);
    CHECK(sqe_str_ends_with(e.msg, "x: the cause"));
    CHECK(strstr(e.msg, "x ... x") != NULL);
    /* a cap never splits a UTF-8 character */
    sqe_strbuf_clear(&want);
    sqe_strbuf_putc(&want, 'a');
    for (int i = 0; i < 150; i++) sqe_strbuf_puts(&want, "\xC3\xB6");
    sqe_error_set(&e, SQE_ERR_STORAGE, "'%s'", want.data);
    CHECK(strlen(e.msg) == 1 + 199 + 3 + 1); /* quote, a + 99 two-byte chars, ..., quote */
    CHECK(sqe_str_ends_with(e.msg, "\xC3\xB6...'"));
    /* prefixing a long message keeps its end too */
    sqe_error_set(&e, SQE_ERR_STORAGE, "%s: cause", big);
    sqe_error_prefix(&e, "while reading: ");
    CHECK(sqe_str_starts_with(e.msg, "while reading: xxx"));
    CHECK(sqe_str_ends_with(e.msg, "x: cause"));
    sqe_strbuf_free(&want);
    sqe_free(big);
}

static void test_arena(void) {
    sqe_arena *a = sqe_arena_new(1024);
    char *p = sqe_arena_alloc(a, 10);
    CHECK(((uintptr_t)p & 15) == 0);
    CHECK(p[0] == 0 && p[9] == 0);
    char *q = sqe_arena_alloc(a, 100000); /* larger than a block */
    CHECK(q != NULL && ((uintptr_t)q & 15) == 0);
    q[99999] = 1;
    for (int i = 0; i < 1000; i++) CHECK(sqe_arena_alloc(a, 33) != NULL);
    CHECK(sqe_arena_used(a) >= 100000 + 1000 * 48);
    CHECK_STR(sqe_arena_strdup(a, "hello"), "hello");
    CHECK_STR(sqe_arena_strndup(a, "hello", 3), "hel");
    CHECK_STR(sqe_arena_sprintf(a, "%d-%s", 42, "x"), "42-x");
    CHECK(sqe_arena_strdup(a, NULL) == NULL);
    int *xs = sqe_arena_realloc(a, NULL, 0, 4 * sizeof(int));
    xs[3] = 7;
    int *ys = sqe_arena_realloc(a, xs, 4 * sizeof(int), 8 * sizeof(int));
    CHECK(ys[3] == 7 && ys[7] == 0);
    /* The head block's last allocation grows where it is. */
    int *zs = sqe_arena_realloc(a, ys, 8 * sizeof(int), 16 * sizeof(int));
    CHECK(zs == ys && zs[3] == 7 && zs[15] == 0);
    /* A dedicated big block is resized, keeping its bytes; the arena still
     * frees it (ASan: no leak, no use after free). */
    char *big = sqe_arena_alloc(a, 5000);
    sqe_arena_alloc(a, 16); /* big is no longer the head's last allocation */
    memset(big, 'b', 5000);
    char *big2 = sqe_arena_realloc(a, big, 5000, 50000);
    CHECK(big2[0] == 'b' && big2[4999] == 'b' && big2[5000] == 0 && big2[49999] == 0);
    big2[49999] = 'z';
    size_t used_before = sqe_arena_used(a);
    char *big3 = sqe_arena_realloc(a, big2, 50000, 100000);
    CHECK(big3[49999] == 'z' && sqe_arena_used(a) == used_before + 50000);
    sqe_arena_reset(a);
    CHECK(sqe_arena_used(a) == 0);
    char *r = sqe_arena_alloc(a, 16);
    CHECK(r[0] == 0);
    sqe_arena_free(a);
    sqe_arena_free(NULL);
}

static void test_array(void) {
    SQE_ARRAY(int) xs = {0};
    for (int i = 0; i < 1000; i++) SQE_ARRAY_PUSH(NULL, xs, i * 2);
    CHECK(xs.len == 1000 && xs.cap >= 1000);
    CHECK(xs.items[999] == 1998);
    SQE_ARRAY_FREE(xs);
    CHECK(xs.len == 0 && xs.items == NULL);
    sqe_arena *a = sqe_arena_new(0);
    SQE_ARRAY(const char *) ss = {0};
    for (int i = 0; i < 100; i++) SQE_ARRAY_PUSH(a, ss, "s");
    CHECK(ss.len == 100 && strcmp(ss.items[57], "s") == 0);
    sqe_arena_free(a);
}

static void test_strbuf(void) {
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    sqe_strbuf_puts(&sb, "ab");
    sqe_strbuf_putc(&sb, 'c');
    sqe_strbuf_printf(&sb, "%05d", 42);
    sqe_strbuf_append(&sb, "xyz", 2);
    CHECK_STR(sb.data, "abc00042xy");
    CHECK(sb.len == 10);
    for (int i = 0; i < 10000; i++) sqe_strbuf_putc(&sb, 'z');
    CHECK(sb.len == 10010 && sb.data[sb.len] == '\0');
    sqe_strbuf_clear(&sb);
    CHECK(sb.len == 0 && sb.data[0] == '\0');
    char *d = sqe_strbuf_detach(&sb);
    CHECK_STR(d, "");
    sqe_free(d);
    CHECK(sb.data == NULL);
    char *e = sqe_strbuf_detach(&sb); /* empty buffer detaches to "" */
    CHECK_STR(e, "");
    sqe_free(e);
    char *f = sqe_asprintf("%s=%d", "k", 3);
    CHECK_STR(f, "k=3");
    sqe_free(f);
}

static void test_strings(void) {
    CHECK(sqe_str_ieq("Hello", "hELLO"));
    CHECK(!sqe_str_ieq("Hello", "Hell"));
    CHECK(sqe_str_ieqn("HIVE_external", "hive_x", 5));
    CHECK(sqe_str_starts_with("s3://b/x", "s3://"));
    CHECK(!sqe_str_starts_with("s3", "s3://"));
    CHECK(sqe_str_ends_with("a.manifest.json", ".manifest.json"));
    CHECK(!sqe_str_ends_with("json", ".manifest.json"));
    char s[] = "MiXeD";
    CHECK_STR(sqe_str_lower(s), "mixed");
}

static bool like(const char *s, const char *p, char esc, bool ci) {
    return sqe_like_match(s, strlen(s), p, strlen(p), esc, ci);
}

static void test_like(void) {
    CHECK(like("abc", "abc", 0, false));
    CHECK(!like("abc", "abd", 0, false));
    CHECK(like("abc", "a%", 0, false));
    CHECK(like("abc", "%c", 0, false));
    CHECK(like("abc", "%b%", 0, false));
    CHECK(like("abc", "a_c", 0, false));
    CHECK(!like("abc", "a_", 0, false));
    CHECK(like("", "%", 0, false));
    CHECK(!like("", "_", 0, false));
    CHECK(like("aXbXc", "%X%X%", 0, false));
    CHECK(like("mississippi", "%iss%ppi", 0, false));
    CHECK(!like("mississippi", "%iss%ppx", 0, false));
    CHECK(like("100%", "100!%", '!', false));
    CHECK(!like("1000", "100!%", '!', false));
    CHECK(like("a_b", "a!_b", '!', false));
    CHECK(!like("axb", "a!_b", '!', false));
    CHECK(like("ABC", "a%c", 0, true));
    CHECK(!like("ABC", "a%c", 0, false));
    /* pathological pattern stays fast (no exponential backtracking) */
    char s[2001];
    memset(s, 'a', 2000);
    s[2000] = '\0';
    CHECK(!like(s, "%a%a%a%a%a%a%a%a%b", 0, false));
}

static void test_hash_map(void) {
    CHECK(sqe_hash_bytes("abc", 3, 0) == sqe_hash_bytes("abc", 3, 0));
    CHECK(sqe_hash_bytes("abc", 3, 0) != sqe_hash_bytes("abd", 3, 0));
    CHECK(sqe_hash_bytes("abc", 3, 0) != sqe_hash_bytes("abc", 3, 1));
    CHECK(sqe_hash_bytes("", 0, 0) != sqe_hash_bytes("a", 1, 0));
    CHECK(sqe_hash_u64(1) != sqe_hash_u64(2));

    sqe_strmap *m = sqe_strmap_new();
    char key[32];
    for (int i = 0; i < 5000; i++) {
        snprintf(key, sizeof key, "k%d", i);
        CHECK(sqe_strmap_put(m, key, (void *)(intptr_t)(i + 1)) == NULL);
    }
    CHECK(sqe_strmap_len(m) == 5000);
    CHECK((intptr_t)sqe_strmap_get(m, "k4321") == 4322);
    CHECK(sqe_strmap_get(m, "nope") == NULL);
    CHECK((intptr_t)sqe_strmap_put(m, "k1", (void *)(intptr_t)99) == 2);
    CHECK((intptr_t)sqe_strmap_get(m, "k1") == 99);
    for (int i = 0; i < 5000; i += 2) {
        snprintf(key, sizeof key, "k%d", i);
        CHECK(sqe_strmap_remove(m, key) != NULL);
    }
    CHECK(sqe_strmap_len(m) == 2500);
    CHECK(!sqe_strmap_has(m, "k0"));
    CHECK(sqe_strmap_has(m, "k1"));
    CHECK(sqe_strmap_remove(m, "k0") == NULL);
    /* re-insert after tombstones */
    CHECK(sqe_strmap_put(m, "k0", (void *)(intptr_t)7) == NULL);
    CHECK((intptr_t)sqe_strmap_get(m, "k0") == 7);
    size_t it = 0, n = 0;
    const char *k;
    void *v;
    while (sqe_strmap_next(m, &it, &k, &v)) n++;
    CHECK(n == 2501);
    sqe_strmap_free(m);
}

static atomic_int g_sum;
static void add_task(void *arg) {
    atomic_fetch_add(&g_sum, (int)(intptr_t)arg);
}

static void test_threadpool(void) {
    CHECK(sqe_cpu_count() >= 1);
    sqe_threadpool *p = sqe_threadpool_new(3);
    CHECK(sqe_threadpool_size(p) == 3);
    for (int i = 1; i <= 1000; i++) sqe_threadpool_submit(p, add_task, (void *)(intptr_t)i);
    sqe_threadpool_wait(p);
    CHECK(atomic_load(&g_sum) == 500500);
    sqe_threadpool_wait(p); /* idle wait returns */
    sqe_threadpool_free(p);
    sqe_threadpool *d = sqe_threadpool_new(0);
    CHECK(sqe_threadpool_size(d) == sqe_cpu_count());
    sqe_threadpool_free(d);
}

static void test_clock_log(void) {
    uint64_t a = sqe_clock_ns(), b = sqe_clock_ns();
    CHECK(b >= a);
    CHECK(sqe_clock_wall_us() > 1700000000LL * 1000000LL);
    CHECK(!sqe_log_enabled(SQE_LOG_DEBUG) || getenv("SQE_LOG") != NULL);
    CHECK(sqe_log_enabled(SQE_LOG_ERROR) || getenv("SQE_LOG") != NULL);
}

int main(void) {
    RUN(test_errors);
    RUN(test_error_invisible_bytes_escaped);
    RUN(test_error_format_conversions);
    RUN(test_error_long_value_keeps_cause);
    RUN(test_arena);
    RUN(test_array);
    RUN(test_strbuf);
    RUN(test_strings);
    RUN(test_like);
    RUN(test_hash_map);
    RUN(test_threadpool);
    RUN(test_clock_log);
    return unit_report();
}
