/*
 * test_hashtable.c - sqe's open-addressing hash tables at the sizes where
 * their capacity changes, merged the way a parallel query merges them.
 *
 *   - DISTINCT sets (func/aggregate.c), driven through the aggregate binding
 *     as the hash aggregate drives them: one partial state per "thread"
 *     (update), then combine into one state, then finalize. Sizes from 2^20
 *     to 2^24 values, 2 to 4 partial states, equal, skewed and overlapping
 *     splits; keys whose hashes share their low bits (one home slot), their
 *     high bits, or all 64 bits (decimals that only the value comparison
 *     tells apart); and a property test of random update/combine sequences
 *     against a sorted-array reference.
 *   - The hash aggregate's group table (exec/hash_agg.c) and the DISTINCT
 *     sets inside it, through SQL over generated CSV files with 2 and 4
 *     threads: count(DISTINCT), approx_distinct and GROUP BY over integer,
 *     string and decimal keys, crafted colliding keys included; and the
 *     sets' memory (mem_delta) counted against the query's memory limit.
 *
 * Regression for issue 11: combine walked the source set in slot order, that
 * is in hash order, into a destination of the same capacity. Once the two
 * sets together held more values than that capacity (2^22 for two threads
 * over 4.2M values) the inserts piled up into one cluster that grew with
 * every insert and the merge went quadratic. Every test runs under an alarm,
 * so a regression fails with a message instead of hanging.
 *
 * Under AddressSanitizer the sizes shrink: the sanitizer build checks memory
 * safety, the normal build the sizes; `make test` runs both. An argument
 * runs only the tests whose name contains it (`test_hashtable sizes`).
 */
#include "exec/exec_int.h"
#include "func/func.h"
#include "sqe.h"
#include "unit.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

/* ------------------------------------------------------------ watchdog */

static char g_alarm_msg[160];

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void on_alarm(int sig) {
    (void)sig;
    ssize_t w = write(2, g_alarm_msg, strlen(g_alarm_msg));
    (void)w;
    _exit(1);
}

static const char *g_filter; /* argv[1]: run only tests whose name contains it */

/* Runs fn; fails the whole program if it takes more than secs seconds (a
 * probe loop gone quadratic would otherwise hang `make test`). */
#define TIMED_RUN(fn, secs)                                                                        \
    do {                                                                                           \
        if (g_filter && !strstr(#fn, g_filter)) break;                                             \
        snprintf(g_alarm_msg, sizeof g_alarm_msg,                                                  \
                 "test_hashtable: %s did not finish within %d s (hash table merge gone "           \
                 "quadratic?)\n",                                                                  \
                 #fn, (secs));                                                                     \
        alarm(secs);                                                                               \
        double t0_ = now_seconds();                                                                \
        fn();                                                                                      \
        alarm(0);                                                                                  \
        fprintf(stderr, "%s: %.1f s\n", #fn, now_seconds() - t0_);                                 \
    } while (0)

/* ------------------------------------------------------ crafted hashes */

/* sqe_hash_u64 (base.h) is a bijection: murmur3's fmix64. Its inverse gives
 * the key that hashes to a chosen value, so tests can aim keys at one slot. */
static uint64_t inv_odd(uint64_t a) {
    uint64_t x = a; /* Newton: each step doubles the correct low bits */
    for (int i = 0; i < 6; i++) x *= 2 - a * x;
    return x;
}

static uint64_t unhash_u64(uint64_t h) {
    static uint64_t inv1, inv2;
    if (!inv1) {
        inv1 = inv_odd(0xff51afd7ed558ccdULL);
        inv2 = inv_odd(0xc4ceb9fe1a85ec53ULL);
    }
    uint64_t x = h;
    x ^= x >> 33;
    x *= inv2;
    x ^= x >> 33;
    x *= inv1;
    x ^= x >> 33;
    return x;
}

/* The decimal whose DISTINCT-set hash (aggregate.c wide_hash:
 * hash(lo ^ hash(hi))) is h, for a chosen high word. */
static sqe_i128 wide_with_hash(uint64_t h, uint64_t hi) {
    uint64_t lo = unhash_u64(h) ^ sqe_hash_u64(hi);
    return (sqe_i128)(((unsigned __int128)hi << 64) | lo);
}

/* The decimal whose group-key hash (sqe_key_hash, SQE_KEY_I128) is h. */
static sqe_i128 key_i128_with_hash(uint64_t h, uint64_t hi) {
    uint64_t lo = unhash_u64(h) ^ sqe_hash_u64(hi + 0x9e3779b97f4a7c15ULL);
    return (sqe_i128)(((unsigned __int128)hi << 64) | lo);
}

static void test_crafted_hashes(void) {
    for (uint64_t h = 1; h < 1000000; h += 7919) CHECK(sqe_hash_u64(unhash_u64(h)) == h);
    /* Decimals with one group-key hash really collide (else the SQL collision
     * test below would test nothing). */
    sqe_key_slot a, b;
    a.x = key_i128_with_hash(0x1234567ULL, 3);
    b.x = key_i128_with_hash(0x1234567ULL, 4);
    CHECK(a.x != b.x);
    CHECK(sqe_key_hash(SQE_KEY_I128, &a) == 0x1234567ULL);
    CHECK(sqe_key_hash(SQE_KEY_I128, &b) == 0x1234567ULL);
}

/* ---------------------------------------------- DISTINCT through binding */

enum { MAX_STATES = 8, STATE_BYTES = 64 };

/* One aggregate binding and its partial states, fed row by row through a
 * pending batch (as the hash aggregate feeds whole batches). */
typedef struct dist {
    sqe_arena *arena;
    sqe_agg_binding b;
    int n_states;
    _Alignas(16) unsigned char st[MAX_STATES][STATE_BYTES];
    sqe_vector *v;
    void *sp[SQE_BATCH_ROWS];
    uint32_t fill;
    sqe_error err;
} dist;

static void dist_open(dist *d, const char *fn, sqe_type t, int n_states) {
    memset(d, 0, sizeof *d);
    d->arena = sqe_arena_new(0);
    CHECK(sqe_func_bind_aggregate(d->arena, fn, strcmp(fn, "approx_distinct") != 0, false, 1, &t,
                                  &d->b, &d->err));
    CHECK(d->b.distinct);
    CHECK(d->b.state_size <= STATE_BYTES);
    d->n_states = n_states;
    for (int s = 0; s < n_states; s++) d->b.init(&d->b, d->st[s]);
    d->v = sqe_vector_new(d->b.arg_type);
}

static void dist_flush(dist *d) {
    if (!d->fill) return;
    CHECK(d->b.update(&d->b, d->sp, d->v, NULL, d->fill, &d->err));
    d->fill = 0;
    sqe_vector_reset(d->v);
}

static inline uint32_t dist_row(dist *d, int s) {
    if (d->fill == SQE_BATCH_ROWS) dist_flush(d);
    d->sp[d->fill] = d->st[s];
    return d->fill++;
}

static inline void push_i64(dist *d, int s, int64_t x) {
    uint32_t r = dist_row(d, s);
    SQE_VEC_DATA(d->v, int64_t)[r] = x;
}

static inline void push_i128(dist *d, int s, sqe_i128 x) {
    uint32_t r = dist_row(d, s);
    SQE_VEC_DATA(d->v, sqe_i128)[r] = x;
}

static inline void push_f64(dist *d, int s, double x) {
    uint32_t r = dist_row(d, s);
    SQE_VEC_DATA(d->v, double)[r] = x;
}

static inline void push_str(dist *d, int s, const char *p, size_t len) {
    uint32_t r = dist_row(d, s);
    sqe_vector_set_string(d->v, r, p, len);
}

static void dist_combine(dist *d, int dst, int src) {
    dist_flush(d);
    CHECK(d->b.combine(&d->b, d->st[dst], d->st[src], &d->err));
}

/* The bigint result of state s (count or sum); *is_null for NULL. */
static int64_t dist_result(dist *d, int s, bool *is_null) {
    dist_flush(d);
    sqe_vector *out = sqe_vector_new(d->b.ret);
    CHECK(d->b.finalize(&d->b, d->st[s], out, 0, &d->err));
    bool null = sqe_vector_is_null(out, 0);
    int64_t r = null ? 0 : SQE_VEC_DATA(out, int64_t)[0];
    sqe_vector_free(out);
    if (is_null) *is_null = null;
    return r;
}

static int64_t dist_count(dist *d, int s) {
    return dist_result(d, s, NULL);
}

static void dist_close(dist *d) {
    dist_flush(d);
    if (d->b.destroy)
        for (int s = 0; s < d->n_states; s++) d->b.destroy(&d->b, d->st[s]);
    sqe_vector_free(d->v);
    sqe_arena_free(d->arena);
}

/* Merges states 1..n-1 into state 0 in order, as the parallel drain merges
 * its copies' tables, and checks the others end up empty. */
static void dist_merge_all(dist *d) {
    for (int s = 1; s < d->n_states; s++) dist_combine(d, 0, s);
    for (int s = 1; s < d->n_states; s++) CHECK(dist_count(d, s) == 0);
}

/* How a "file" of consecutive values is spread over the states. */
typedef enum { SPLIT_ROUND_ROBIN, SPLIT_SKEWED, SPLIT_OVERLAP } split_mode;

static const int64_t FILE_ROWS = 100000; /* a partition file of the benchmark table */

/* Values 1..n in files of FILE_ROWS: file f goes to state f % w (round
 * robin), to state 0 three times in four (skewed), or to states f % w and
 * (f + 1) % w (overlap: every value seen by two threads). */
static void feed_files(dist *d, int64_t n, split_mode mode, void (*put)(dist *, int, int64_t)) {
    int w = d->n_states;
    for (int64_t f = 0; f * FILE_ROWS < n; f++) {
        int s = mode == SPLIT_SKEWED ? (f % 4 == 3 ? (int)(1 + f / 4 % (w - 1)) : 0) : (int)(f % w);
        int64_t hi = SQE_MIN(n, (f + 1) * FILE_ROWS);
        for (int64_t x = f * FILE_ROWS + 1; x <= hi; x++) put(d, s, x);
        if (mode == SPLIT_OVERLAP)
            for (int64_t x = f * FILE_ROWS + 1; x <= hi; x++) put(d, (s + 1) % w, x);
    }
}

static void put_bigint(dist *d, int s, int64_t x) {
    push_i64(d, s, x);
}

static void put_varchar(dist *d, int s, int64_t x) {
    /* 6..22 bytes: inline and heap strings both */
    char buf[48];
    int len = snprintf(buf, sizeof buf, "%llx-%.*s", (unsigned long long)x, (int)(x % 17),
                       "abcdefghijklmnopq");
    push_str(d, s, buf, (size_t)len);
}

static void put_decimal(dist *d, int s, int64_t x) {
    push_i128(d, s, (sqe_i128)x * 1000003 - 7);
}

static void check_merged_count(const char *fn, sqe_type t, int64_t n, int w, split_mode mode,
                               void (*put)(dist *, int, int64_t)) {
    dist d;
    dist_open(&d, fn, t, w);
    feed_files(&d, n, mode, put);
    int64_t parts = 0;
    for (int s = 0; s < w; s++) parts += dist_count(&d, s);
    CHECK(parts >= n); /* each partial set holds its own values */
    dist_merge_all(&d);
    int64_t got = dist_count(&d, 0);
    if (got != n)
        fprintf(stderr, "  %s over %lld values, %d states, split %d: got %lld\n", fn, (long long)n,
                w, (int)mode, (long long)got);
    CHECK(got == n);
    dist_close(&d);
}

/* Bigint sets across every capacity step from 2^20 to 2^24 values, merged
 * from 2, 3 and 4 partial states: just below, at and past the point where
 * the merged set outgrows its partial sets' capacity. */
static void test_distinct_sizes(void) {
    sqe_type bigint = sqe_type_make(SQE_T_BIGINT);
    static const int64_t sizes[] = {
        1 << 20, (1 << 21) + 65536, (1 << 22) - 50000,  (1 << 22) + 100000,
        4500000, 5500000,           (1 << 23) + 300000, 1 << 24};
    for (size_t i = 0; i < SQE_ARRAY_LEN(sizes); i++) {
        int64_t n = sizes[i];
        if (UNDER_ASAN && n > (1 << 21) + 65536) break;
        check_merged_count("count", bigint, n, 2, SPLIT_ROUND_ROBIN, put_bigint);
        if (n == 4500000 || n == 1 << 24 || (UNDER_ASAN && n > (1 << 20)))
            check_merged_count("count", bigint, n, 4, SPLIT_ROUND_ROBIN, put_bigint);
        if (n == (1 << 22) + 100000 || (UNDER_ASAN && n > (1 << 20))) {
            check_merged_count("count", bigint, n, 3, SPLIT_ROUND_ROBIN, put_bigint);
            check_merged_count("count", bigint, n, 3, SPLIT_SKEWED, put_bigint);
            check_merged_count("count", bigint, n, 2, SPLIT_OVERLAP, put_bigint);
        }
    }
}

/* Strings (approx_distinct, computed exactly) and decimals past 2^22. */
static void test_distinct_wide_sizes(void) {
    int64_t n = UNDER_ASAN ? (1 << 20) + 65536 : 4500000;
    check_merged_count("approx_distinct", sqe_type_make(SQE_T_VARCHAR), n, 2, SPLIT_ROUND_ROBIN,
                       put_varchar);
    check_merged_count("count", sqe_type_make(SQE_T_VARCHAR), n, 4, SPLIT_OVERLAP, put_varchar);
    check_merged_count("count", sqe_type_decimal(38, 0), n, 2, SPLIT_ROUND_ROBIN, put_decimal);
}

/* Keys aimed at one home slot (low 20 hash bits equal), keys sharing the
 * high 32 hash bits, and decimals sharing the whole 64-bit hash, mixed with
 * ordinary keys so the tables grow while the collisions sit in them. */
static void test_distinct_collisions(void) {
    enum { N_LOW = 4096, N_HIGH = 200000, N_PLAIN = 300000 };
    dist d;
    dist_open(&d, "count", sqe_type_make(SQE_T_BIGINT), 2);
    for (int64_t i = 1; i <= N_LOW; i++) {
        int64_t k = (int64_t)unhash_u64(((uint64_t)i << 20) | 0x5a5a5);
        push_i64(&d, (int)(i & 1), k);
        if (i % 3 == 0) push_i64(&d, (int)(~i & 1), k); /* in both partial sets */
    }
    /* (the low halves are spread: consecutive ones would fill one run of
     * slots, which linear probing cannot help) */
    for (uint64_t i = 1; i <= N_HIGH; i++)
        push_i64(&d, (int)(i % 2),
                 (int64_t)unhash_u64((0xfeedbeefULL << 32) | (uint32_t)(i * 0x9e3779b1u)));
    for (int64_t i = 1; i <= N_PLAIN; i++) push_i64(&d, (int)(i % 2), -i);
    push_i64(&d, 0, 0); /* the value 0 lives beside the slots */
    push_i64(&d, 1, 0);
    dist_merge_all(&d);
    CHECK(dist_count(&d, 0) == N_LOW + N_HIGH + N_PLAIN + 1);
    dist_close(&d);

    /* 64 groups of 64 decimals with one identical 64-bit hash per group. */
    dist_open(&d, "count", sqe_type_decimal(38, 0), 3);
    for (uint64_t g = 0; g < 64; g++)
        for (uint64_t hi = 0; hi < 64; hi++) {
            sqe_i128 v = wide_with_hash(0x1000 + g * 0x10001ULL, hi);
            push_i128(&d, (int)((g + hi) % 3), v);
            push_i128(&d, (int)((g + hi + 1) % 3), v);
        }
    for (int s = 0; s < 3; s++) CHECK(dist_count(&d, s) > 0);
    dist_merge_all(&d);
    CHECK(dist_count(&d, 0) == 64 * 64);
    dist_close(&d);
}

/* DISTINCT sets report their heap bytes (mem_delta) as they grow; combine
 * moves them from src to dst, and the deltas say so. */
static void test_distinct_mem_delta(void) {
    dist d;
    dist_open(&d, "count", sqe_type_make(SQE_T_BIGINT), 2);
    CHECK(d.b.mem_delta != NULL);
    CHECK(d.b.mem_delta(&d.b, d.st[0]) == 0); /* no set yet */
    for (int64_t i = 1; i <= 100000; i++) push_i64(&d, 0, i);
    for (int64_t i = 1; i <= 50000; i++) push_i64(&d, 1, -i);
    dist_flush(&d);
    int64_t a = d.b.mem_delta(&d.b, d.st[0]), b = d.b.mem_delta(&d.b, d.st[1]);
    CHECK(a >= 100000 * 8 && a <= 100000 * 8 * 4);
    CHECK(b >= 50000 * 8 && b <= 50000 * 8 * 4);
    CHECK(d.b.mem_delta(&d.b, d.st[0]) == 0); /* nothing new */
    dist_combine(&d, 0, 1);
    int64_t da = d.b.mem_delta(&d.b, d.st[0]), db = d.b.mem_delta(&d.b, d.st[1]);
    CHECK(db == -b); /* src's set is gone */
    CHECK(a + da >= 150000 * 8 && a + da <= 150000 * 8 * 4);
    CHECK(dist_count(&d, 0) == 150000);
    dist_close(&d);

    /* String sets count their bytes too. */
    dist_open(&d, "approx_distinct", sqe_type_make(SQE_T_VARCHAR), 1);
    char buf[128];
    memset(buf, 'x', sizeof buf);
    for (int i = 0; i < 10000; i++) {
        int len = snprintf(buf, sizeof buf, "%d", i);
        buf[len] = 'x';
        push_str(&d, 0, buf, 100);
    }
    dist_flush(&d);
    CHECK(d.b.mem_delta(&d.b, d.st[0]) >= 10000 * 100);
    CHECK(dist_count(&d, 0) == 10000);
    dist_close(&d);
}

/* ------------------------------------------------------- property test */

static uint64_t g_rng = 0x853c49e6748fea9bULL;

static uint64_t rnd(void) {
    g_rng ^= g_rng >> 12;
    g_rng ^= g_rng << 25;
    g_rng ^= g_rng >> 27;
    return g_rng * 0x2545f4914f6cdd1dULL;
}

static uint64_t rnd_below(uint64_t n) {
    return rnd() % n;
}

/* The trivially correct reference: every value a state has seen, as a
 * canonical string (equal SQL values, equal strings); sorted and
 * de-duplicated when checked. */
typedef struct ref_set {
    char **items;
    size_t len, cap;
} ref_set;

static void ref_add(ref_set *r, const char *s) {
    if (r->len == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 64;
        r->items = realloc(r->items, r->cap * sizeof *r->items);
    }
    r->items[r->len++] = strdup(s);
}

static void ref_move(ref_set *dst, ref_set *src) {
    for (size_t i = 0; i < src->len; i++) {
        if (dst->len == dst->cap) {
            dst->cap = dst->cap ? dst->cap * 2 : 64;
            dst->items = realloc(dst->items, dst->cap * sizeof *dst->items);
        }
        dst->items[dst->len++] = src->items[i];
    }
    src->len = 0;
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorts, counts distinct items and sums them as integers (meaningful for
 * the bigint rounds only; wraps, unlike SQL, for the others). */
static int64_t ref_distinct(ref_set *r, int64_t *sum) {
    if (r->len) qsort(r->items, r->len, sizeof *r->items, cmp_str);
    int64_t n = 0;
    uint64_t s = 0;
    for (size_t i = 0; i < r->len; i++) {
        if (i > 0 && strcmp(r->items[i], r->items[i - 1]) == 0) continue;
        n++;
        s += (uint64_t)strtoll(r->items[i], NULL, 10);
    }
    *sum = (int64_t)s;
    return n;
}

static void ref_free(ref_set *r) {
    for (size_t i = 0; i < r->len; i++) free(r->items[i]);
    free(r->items);
    memset(r, 0, sizeof *r);
}

typedef enum { P_BIGINT_COUNT, P_BIGINT_SUM, P_VARCHAR, P_DECIMAL, P_DOUBLE, P__N } prop_kind;

/* Draws a value for kind k, pushes it into state s and its canonical text
 * into ref. Values come from a few pools: a small range (many duplicates),
 * a wide range, keys aimed at one slot, 0 and its neighbours. */
static void prop_push(dist *d, ref_set *ref, prop_kind k, int s, int pool) {
    char txt[96];
    int64_t x;
    switch (pool) {
    case 0:
        x = (int64_t)rnd_below(101) - 50;
        break;
    case 1:
        x = (int64_t)(rnd() >> 24) - (1LL << 39);
        break;
    case 2: /* 300 keys with one home slot in tables of up to 2^16 slots */
        x = (int64_t)unhash_u64(((rnd_below(300) + 1) << 16) | 0xbeef);
        break;
    default:
        x = (int64_t)rnd_below(3) - 1;
        break;
    }
    switch (k) {
    case P_BIGINT_COUNT:
    case P_BIGINT_SUM:
        if (k == P_BIGINT_SUM && pool == 2) x >>= 24; /* keep sums in range */
        push_i64(d, s, x);
        snprintf(txt, sizeof txt, "%lld", (long long)x);
        break;
    case P_VARCHAR: {
        int len = snprintf(txt, sizeof txt, "%s%lld", rnd_below(2) ? "" : "a longer prefix/",
                           (long long)x);
        push_str(d, s, txt, (size_t)len);
        break;
    }
    case P_DECIMAL: {
        sqe_i128 v = pool == 2 ? wide_with_hash(0x77 + rnd_below(8), rnd_below(50))
                               : (sqe_i128)x * ((sqe_i128)1 << 70) + x;
        push_i128(d, s, v);
        unsigned __int128 u = (unsigned __int128)v;
        snprintf(txt, sizeof txt, "%016llx%016llx", (unsigned long long)(u >> 64),
                 (unsigned long long)u);
        break;
    }
    default: {
        /* NaN and -0.0 included: DISTINCT folds all NaNs and both zeros */
        uint64_t r = rnd_below(10);
        double v = r == 0 ? NAN : r == 1 ? -0.0 : (double)x / 4;
        push_f64(d, s, v);
        if (v != v)
            snprintf(txt, sizeof txt, "NaN");
        else
            snprintf(txt, sizeof txt, "%.17g", v == 0 ? 0.0 : v);
        break;
    }
    }
    ref_add(ref, txt);
}

static void prop_round(int round) {
    prop_kind k = (prop_kind)rnd_below(P__N);
    static const char *const fns[P__N] = {"count", "sum", "count", "count", "count"};
    static const sqe_type_id types[P__N] = {SQE_T_BIGINT, SQE_T_BIGINT, SQE_T_VARCHAR,
                                            SQE_T_DECIMAL, SQE_T_DOUBLE};
    sqe_type t = types[k] == SQE_T_DECIMAL ? sqe_type_decimal(38, 0) : sqe_type_make(types[k]);
    int n_states = 2 + (int)rnd_below(MAX_STATES - 1);
    dist d;
    dist_open(&d, fns[k], t, n_states);
    ref_set ref[MAX_STATES];
    memset(ref, 0, sizeof ref);
    int n_ops = 5 + (int)rnd_below(25);
    for (int op = 0; op < n_ops; op++) {
        if (rnd_below(10) < 7) {
            /* a run of rows: into one state or spread; sometimes large */
            uint64_t rows = rnd_below(16) == 0 ? 5000 + rnd_below(UNDER_ASAN ? 20000 : 60000)
                                               : 1 + rnd_below(3000);
            int one = rnd_below(2) ? (int)rnd_below((uint64_t)n_states) : -1;
            int pool = (int)rnd_below(4);
            for (uint64_t r = 0; r < rows; r++) {
                int s = one >= 0 ? one : (int)rnd_below((uint64_t)n_states);
                prop_push(&d, &ref[s], k, s, rnd_below(8) == 0 ? (int)rnd_below(4) : pool);
            }
        } else {
            int dst = (int)rnd_below((uint64_t)n_states);
            int src = (int)rnd_below((uint64_t)n_states - 1);
            if (src >= dst) src++;
            dist_combine(&d, dst, src);
            ref_move(&ref[dst], &ref[src]);
        }
    }
    for (int s = 0; s < n_states; s++) {
        int64_t want_sum, want = ref_distinct(&ref[s], &want_sum);
        bool is_null;
        int64_t got = dist_result(&d, s, &is_null);
        bool ok = k == P_BIGINT_SUM ? (want == 0 ? is_null : !is_null && got == want_sum)
                                    : !is_null && got == want;
        if (!ok)
            fprintf(stderr,
                    "  round %d kind %d state %d: got %lld%s, want %lld distinct (sum %lld)\n",
                    round, (int)k, s, (long long)got, is_null ? " (NULL)" : "", (long long)want,
                    (long long)want_sum);
        CHECK(ok);
        ref_free(&ref[s]);
    }
    dist_close(&d);
}

static void test_distinct_property(void) {
    int rounds = UNDER_ASAN ? 50 : 200;
    for (int r = 0; r < rounds; r++) prop_round(r);
}

/* ------------------------------------------------- through SQL (exec/) */

static char g_dir[256];

static void mkdirs(const char *path) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        mkdir(buf, 0755);
        *p = '/';
    }
    mkdir(buf, 0755);
}

static FILE *open_part(const char *table, int f) {
    char path[512];
    snprintf(path, sizeof path, "%s/data/%s", g_dir, table);
    mkdirs(path);
    snprintf(path, sizeof path, "%s/data/%s/part-%03d.csv", g_dir, table, f);
    FILE *fp = fopen(path, "w");
    if (!fp) {
        perror(path);
        abort();
    }
    return fp;
}

/* The text of an unsigned 128-bit integer. */
static const char *u128_text(unsigned __int128 v, char *buf, size_t cap) {
    char *p = buf + cap - 1;
    *p = 0;
    do {
        *--p = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    return p;
}

static int64_t g_rows; /* rows (= distinct ids = distinct notes) of table t */

enum { C_FILLER = 150000 }; /* ordinary rows of table c: > 4 MiB in all, so scans run in parallel */

/* Table t (id bigint, note string): ids 1..g_rows in files of FILE_ROWS,
 * every note distinct (10..25 characters). Table c (k bigint, d decimal):
 * 4096 bigints aimed at one slot and 4096 decimals in 64 groups sharing a
 * 64-bit group-key hash, plus C_FILLER ordinary rows, every row twice, in 8
 * files. */
static void write_tables(void) {
    int f = 0;
    for (int64_t lo = 1; lo <= g_rows; lo += FILE_ROWS, f++) {
        FILE *fp = open_part("t", f);
        int64_t hi = SQE_MIN(g_rows, lo + FILE_ROWS - 1);
        for (int64_t id = lo; id <= hi; id++)
            fprintf(fp, "%lld,n%016llx%.*s\n", (long long)id,
                    (unsigned long long)sqe_hash_u64((uint64_t)id), (int)(id % 9), "zyxwvutsr");
        fclose(fp);
    }
    FILE *fps[8];
    for (int i = 0; i < 8; i++) fps[i] = open_part("c", i);
    for (int rep = 0; rep < 2; rep++)
        for (uint64_t i = 0; i < 4096; i++) {
            int64_t k = (int64_t)unhash_u64(((i + 1) << 20) | 0x5a5a5);
            sqe_i128 dv = key_i128_with_hash(0xabc00000ULL + (i / 64) * 0x101ULL, i % 64);
            char buf[48];
            fprintf(fps[(i + (uint64_t)rep * 3) % 8], "%lld,%s\n", (long long)k,
                    u128_text((unsigned __int128)dv, buf, sizeof buf));
        }
    for (int rep = 0; rep < 2; rep++)
        for (int64_t i = 1; i <= C_FILLER; i++)
            fprintf(fps[(i + rep * 5) % 8], "%lld,%lld\n", (long long)-i, (long long)(i * 1000003));
    for (int i = 0; i < 8; i++) fclose(fps[i]);
}

static sqe_session *open_session(int threads, size_t memory_limit) {
    sqe_options o;
    memset(&o, 0, sizeof o);
    o.threads = threads;
    o.memory_limit = memory_limit;
    sqe_session *s = sqe_session_open(&o);
    char spec[400];
    snprintf(spec, sizeof spec, "lake=%s/wh", g_dir);
    char *e = sqe_session_attach_root(s, spec);
    CHECK(e == NULL);
    free(e);
    return s;
}

static void exec_ok(sqe_session *s, const char *sql) {
    sqe_result *r = sqe_session_execute(s, sql);
    if (!sqe_result_ok(r)) fprintf(stderr, "  %s\n  -> %s\n", sql, sqe_result_error(r));
    CHECK(sqe_result_ok(r));
    sqe_result_free(r);
}

/* The single row of a query as "a|b|c" (or "ERROR <class>: message"). */
static char *query_row(sqe_session *s, const char *sql) {
    static char buf[1200];
    sqe_result *r = sqe_session_execute(s, sql);
    if (!sqe_result_ok(r)) {
        snprintf(buf, sizeof buf, "ERROR %s: %s", sqe_result_error_class(r), sqe_result_error(r));
    } else if (sqe_result_row_count(r) != 1) {
        snprintf(buf, sizeof buf, "%llu rows", (unsigned long long)sqe_result_row_count(r));
    } else {
        buf[0] = 0;
        for (int c = 0; c < sqe_result_column_count(r); c++) {
            const char *v = sqe_result_value(r, 0, c);
            size_t len = strlen(buf);
            snprintf(buf + len, sizeof buf - len, "%s%s", c ? "|" : "", v ? v : "NULL");
        }
    }
    sqe_result_free(r);
    return buf;
}

static void check_query(sqe_session *s, int threads, const char *sql, const char *want) {
    const char *got = query_row(s, sql);
    if (strcmp(got, want) != 0) fprintf(stderr, "  threads %d: %s\n", threads, sql);
    CHECK_STR(got, want);
}

static void sql_setup(void) {
    snprintf(g_dir, sizeof g_dir, "%s/sqe-hashtable-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(g_dir)) {
        perror("mkdtemp");
        abort();
    }
    g_rows = UNDER_ASAN ? 600000 : 4500000;
    write_tables();
    char wh[400];
    snprintf(wh, sizeof wh, "%s/wh", g_dir);
    mkdirs(wh);
    sqe_session *s = open_session(1, 0);
    char sql[1024];
    exec_ok(s, "CREATE SCHEMA lake.db");
    snprintf(sql, sizeof sql,
             "CREATE EXTERNAL TABLE lake.db.t (id bigint, note string) ROW FORMAT DELIMITED "
             "FIELDS TERMINATED BY ',' LOCATION '%s/data/t/'",
             g_dir);
    exec_ok(s, sql);
    snprintf(sql, sizeof sql,
             "CREATE EXTERNAL TABLE lake.db.c (k bigint, d decimal(38,0)) ROW FORMAT DELIMITED "
             "FIELDS TERMINATED BY ',' LOCATION '%s/data/c/'",
             g_dir);
    exec_ok(s, sql);
    sqe_session_close(s);
}

static void sql_teardown(void) {
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    CHECK(system(cmd) == 0);
}

/* The queries of issue 11 and GROUP BY over the same keys, with 2 and 4
 * threads: every pipeline copy builds a partial table, merged at the end. */
static void test_sql_parallel(void) {
    char n[32], want[96];
    snprintf(n, sizeof n, "%lld", (long long)g_rows);
    for (int threads = 2; threads <= 4; threads += 2) {
        sqe_session *s = open_session(threads, 0);
        snprintf(want, sizeof want, "%s|%s", n, n);
        check_query(s, threads, "SELECT count(DISTINCT id), count(*) FROM lake.db.t", want);
        check_query(s, threads, "SELECT approx_distinct(note) FROM lake.db.t", n);
        check_query(s, threads, "SELECT count(DISTINCT note), count(DISTINCT id) FROM lake.db.t",
                    want);
        check_query(s, threads, "SELECT count(*) FROM (SELECT id FROM lake.db.t GROUP BY id) g", n);
        check_query(s, threads, "SELECT count(*) FROM (SELECT note FROM lake.db.t GROUP BY note) g",
                    n);
        /* collisions: low hash bits (bigint), whole 64-bit hash (decimal) */
        char c_n[32], c_rows[96], c_groups[96];
        snprintf(c_n, sizeof c_n, "%d", 4096 + C_FILLER);
        snprintf(c_rows, sizeof c_rows, "%s|%s|%d", c_n, c_n, 2 * (4096 + C_FILLER));
        snprintf(c_groups, sizeof c_groups, "%s|2|2", c_n);
        check_query(s, threads,
                    "SELECT count(DISTINCT k), count(DISTINCT d), count(*) FROM lake.db.c", c_rows);
        check_query(s, threads,
                    "SELECT count(*), min(n), max(n) FROM (SELECT k, count(*) AS n FROM lake.db.c "
                    "GROUP BY k) g",
                    c_groups);
        check_query(s, threads,
                    "SELECT count(*), min(n), max(n) FROM (SELECT d, count(*) AS n FROM lake.db.c "
                    "GROUP BY d) g",
                    c_groups);
        check_query(s, threads, "SELECT count(*) FROM (SELECT k, d FROM lake.db.c GROUP BY k, d) g",
                    c_n);
        sqe_session_close(s);
    }
}

/* DISTINCT sets count against the query's memory limit: the query fails
 * with RESOURCE_EXHAUSTED naming the operator instead of growing. */
static void test_sql_memory_limit(void) {
    size_t limit = (size_t)g_rows * 8; /* less than the id sets alone need */
    for (int threads = 1; threads <= 2; threads++) {
        sqe_session *s = open_session(threads, limit);
        const char *got =
            query_row(s, "SELECT count(DISTINCT note), count(DISTINCT id) FROM lake.db.t");
        CHECK_CONTAINS(got, "ERROR RESOURCE_EXHAUSTED: query exceeded the memory limit of");
        CHECK_CONTAINS(got, "in HashAggregateExec");
        got = query_row(s, "SELECT count(DISTINCT id) FROM lake.db.t WHERE id <= 1000"); /* fits */
        CHECK_STR(got, "1000");
        sqe_session_close(s);
    }
}

int main(int argc, char **argv) {
    g_filter = argc > 1 ? argv[1] : NULL;
    signal(SIGALRM, on_alarm);
    int budget = UNDER_ASAN ? 900 : 300;
    TIMED_RUN(test_crafted_hashes, budget);
    TIMED_RUN(test_distinct_collisions, budget);
    TIMED_RUN(test_distinct_mem_delta, budget);
    TIMED_RUN(test_distinct_property, budget);
    TIMED_RUN(test_distinct_sizes, budget);
    TIMED_RUN(test_distinct_wide_sizes, budget);
    if (!g_filter || strstr("test_sql_parallel test_sql_memory_limit", g_filter)) {
        sql_setup();
        TIMED_RUN(test_sql_parallel, budget);
        TIMED_RUN(test_sql_memory_limit, budget);
        sql_teardown();
    }
    return unit_report();
}
