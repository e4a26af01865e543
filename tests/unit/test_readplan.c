/*
 * test_readplan.c - the read planner (io/readplan.c) and suffix reads.
 *
 * A memory store (named "s3", so it gets S3's read-ahead defaults) logs every get_range (offset,
 * length) and can delay, fail at a chosen offset, or hold fetches at a gate, so the tests see which
 * requests the planner made, in which order, how many at once, and what it does with errors and
 * with fetches still in flight at close.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <zlib.h>

#include "format/codec.h"
#include "io/io.h"
#include "unit.h"

#define MEM_LOG 256

typedef struct mem_store {
    sqe_store base;
    uint8_t *data;
    size_t size;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint64_t log_off[MEM_LOG];
    size_t log_len[MEM_LOG];
    int n_log;
    int in_flight, peak;
    int delay_ms;
    uint64_t fail_at; /* a get_range covering this offset fails; UINT64_MAX: none */
    bool gate_closed; /* fetches wait until it opens */
    bool closing_soon;
} mem_store;

static bool mem_get_range(sqe_store *st, const char *path, uint64_t off, size_t len, void *buf,
                          size_t *n, sqe_error *err) {
    mem_store *m = (mem_store *)st;
    pthread_mutex_lock(&m->mu);
    if (m->n_log < MEM_LOG) {
        m->log_off[m->n_log] = off;
        m->log_len[m->n_log] = len;
        m->n_log++;
    }
    m->in_flight++;
    if (m->in_flight > m->peak) m->peak = m->in_flight;
    pthread_cond_broadcast(&m->cv);
    while (m->gate_closed) pthread_cond_wait(&m->cv, &m->mu);
    int delay = m->delay_ms;
    pthread_mutex_unlock(&m->mu);
    if (delay) usleep((useconds_t)delay * 1000);
    pthread_mutex_lock(&m->mu);
    m->in_flight--;
    bool fail = m->fail_at >= off && m->fail_at < off + len;
    pthread_mutex_unlock(&m->mu);
    *n = 0;
    if (fail)
        return sqe_error_set(err, SQE_ERR_STORAGE, "cannot read '%s': injected failure", path);
    if (off < m->size) {
        *n = (size_t)(m->size - off < len ? m->size - off : len);
        memcpy(buf, m->data + off, *n);
    }
    return true;
}

static void mem_free(sqe_store *st) {
    (void)st;
}

/* Named "s3" so that sqe_readplan_defaults treats it as remote. */
static const sqe_store_vtable mem_vt = {.name = "s3", .get_range = mem_get_range, .free = mem_free};

static void mem_init(mem_store *m, size_t size) {
    memset(m, 0, sizeof *m);
    m->base.vt = &mem_vt;
    m->data = malloc(size ? size : 1);
    for (size_t i = 0; i < size; i++) m->data[i] = (uint8_t)(i * 7 + i / 251);
    m->size = size;
    m->fail_at = UINT64_MAX;
    pthread_mutex_init(&m->mu, NULL);
    pthread_cond_init(&m->cv, NULL);
}

static void mem_clear(mem_store *m) {
    free(m->data);
    pthread_cond_destroy(&m->cv);
    pthread_mutex_destroy(&m->mu);
}

static int mem_n_log(mem_store *m) {
    pthread_mutex_lock(&m->mu);
    int n = m->n_log;
    pthread_mutex_unlock(&m->mu);
    return n;
}

/* Waits (up to 5 s) until the store has logged at least n fetches. */
static bool mem_wait_log(mem_store *m, int n) {
    for (int i = 0; i < 5000; i++) {
        if (mem_n_log(m) >= n) return true;
        usleep(1000);
    }
    return false;
}

static bool logged(mem_store *m, int i, uint64_t off, size_t len) {
    pthread_mutex_lock(&m->mu);
    bool ok = i < m->n_log && m->log_off[i] == off && m->log_len[i] == len;
    pthread_mutex_unlock(&m->mu);
    return ok;
}

static sqe_readplan_opts opts(uint64_t gap, uint64_t part, int in_flight, uint64_t max_buf) {
    sqe_readplan_opts o = {gap, part, in_flight, max_buf};
    return o;
}

/* Gets range id and checks its bytes against the store's. */
static bool got_right(sqe_readplan *p, mem_store *m, int id, uint64_t off, size_t want_n) {
    const uint8_t *d;
    size_t n;
    sqe_error err;
    sqe_error_clear(&err);
    if (!sqe_readplan_get(p, id, &d, &n, &err)) {
        fprintf(stderr, "  get failed: %s\n", err.msg);
        return false;
    }
    return n == want_n && (n == 0 || memcmp(d, m->data + off, n) == 0);
}

static void test_coalesce(void) {
    mem_store m;
    mem_init(&m, 10000);
    sqe_readplan_opts o = opts(100, 1 << 20, 0, 1 << 20);
    sqe_readplan *p = sqe_readplan_new(&m.base, "mem://obj", &o);
    /* added out of order: sorted before merging */
    int b = sqe_readplan_add(p, 50, 10);
    int a = sqe_readplan_add(p, 0, 10);
    int c = sqe_readplan_add(p, 200, 10); /* 140 bytes after [0, 60): its own request */
    int d = sqe_readplan_add(p, 55, 20);  /* overlapping ranges merge too */
    sqe_readplan_submit(p);
    CHECK(mem_n_log(&m) == 0); /* no workers: nothing is read before use */
    CHECK(got_right(p, &m, a, 0, 10));
    CHECK(mem_n_log(&m) == 1);
    CHECK(logged(&m, 0, 0, 75));
    CHECK(got_right(p, &m, b, 50, 10));
    CHECK(got_right(p, &m, d, 55, 20));
    CHECK(mem_n_log(&m) == 1); /* the same request */
    CHECK(got_right(p, &m, c, 200, 10));
    CHECK(mem_n_log(&m) == 2);
    CHECK(logged(&m, 1, 200, 10));
    sqe_readplan_stats st;
    sqe_readplan_get_stats(p, &st);
    CHECK(st.n_requests == 2 && st.n_gets == 2 && st.bytes_fetched == 85);
    sqe_readplan_release(p, a);
    sqe_readplan_release(p, b);
    sqe_readplan_get_stats(p, &st);
    CHECK(st.buffered == 85); /* d still holds [0, 75) */
    sqe_readplan_release(p, d);
    sqe_readplan_release(p, c);
    sqe_readplan_get_stats(p, &st);
    CHECK(st.buffered == 0);
    /* a released range cannot be read again */
    const uint8_t *x;
    size_t n;
    sqe_error err;
    CHECK(!sqe_readplan_get(p, a, &x, &n, &err) && err.cls == SQE_ERR_INTERNAL);
    sqe_readplan_free(p);

    /* gap 0: only touching ranges merge */
    m.n_log = 0;
    o = opts(0, 1 << 20, 0, 1 << 20);
    p = sqe_readplan_new(&m.base, "mem://obj", &o);
    a = sqe_readplan_add(p, 0, 10);
    b = sqe_readplan_add(p, 10, 10);
    c = sqe_readplan_add(p, 21, 10);
    sqe_readplan_submit(p);
    CHECK(got_right(p, &m, a, 0, 10) && got_right(p, &m, b, 10, 10));
    CHECK(got_right(p, &m, c, 21, 10));
    CHECK(mem_n_log(&m) == 2 && logged(&m, 0, 0, 20) && logged(&m, 1, 21, 10));
    sqe_readplan_free(p); /* unreleased ranges are freed too */
    mem_clear(&m);
}

static void test_split_parallel(void) {
    mem_store m;
    mem_init(&m, 1000);
    m.gate_closed = true;
    sqe_readplan_opts o = opts(0, 100, 4, 1 << 20);
    sqe_readplan *p = sqe_readplan_new(&m.base, "mem://obj", &o);
    int a = sqe_readplan_add(p, 0, 350);
    sqe_readplan_submit(p);
    pthread_mutex_lock(&m.mu); /* all four parts in flight at once */
    while (m.in_flight < 4) pthread_cond_wait(&m.cv, &m.mu);
    m.gate_closed = false;
    pthread_cond_broadcast(&m.cv);
    pthread_mutex_unlock(&m.mu);
    CHECK(got_right(p, &m, a, 0, 350));
    CHECK(mem_n_log(&m) == 4);
    uint64_t seen = 0;
    for (int i = 0; i < 4; i++) seen |= 1u << (m.log_off[i] / 100);
    CHECK(seen == 0xF); /* parts 0, 100, 200, 300 */
    CHECK(m.log_len[0] + m.log_len[1] + m.log_len[2] + m.log_len[3] == 350);
    CHECK(m.peak == 4); /* parts were in flight together */
    sqe_readplan_stats st;
    sqe_readplan_get_stats(p, &st);
    CHECK(st.n_requests == 1 && st.n_gets == 4);
    sqe_readplan_free(p);
    mem_clear(&m);
}

/* Submitted batches are fetched before they are asked for, in order. */
static void test_read_ahead_order(void) {
    mem_store m;
    mem_init(&m, 10000);
    sqe_readplan_opts o = opts(0, 1 << 20, 1, 1 << 20);
    sqe_readplan *p = sqe_readplan_new(&m.base, "mem://obj", &o);
    int a = sqe_readplan_add(p, 5000, 10);
    sqe_readplan_submit(p);
    int b = sqe_readplan_add(p, 100, 10);
    sqe_readplan_submit(p);
    int c = sqe_readplan_add(p, 3000, 10);
    sqe_readplan_submit(p);
    CHECK(mem_wait_log(&m, 3)); /* without any get */
    CHECK(logged(&m, 0, 5000, 10) && logged(&m, 1, 100, 10) && logged(&m, 2, 3000, 10));
    CHECK(got_right(p, &m, a, 5000, 10) && got_right(p, &m, b, 100, 10));
    CHECK(got_right(p, &m, c, 3000, 10));
    CHECK(mem_n_log(&m) == 3);
    sqe_readplan_free(p);
    mem_clear(&m);
}

static void test_bounded_memory(void) {
    mem_store m;
    mem_init(&m, 10000);
    sqe_readplan_opts o = opts(0, 1 << 20, 4, 100);
    sqe_readplan *p = sqe_readplan_new(&m.base, "mem://obj", &o);
    int ids[10];
    for (int i = 0; i < 10; i++) {
        ids[i] = sqe_readplan_add(p, (uint64_t)i * 1000, 60);
        sqe_readplan_submit(p);
    }
    CHECK(mem_wait_log(&m, 1));
    usleep(50 * 1000);
    sqe_readplan_stats st;
    sqe_readplan_get_stats(p, &st);
    CHECK(st.n_requests == 1 && st.buffered == 60); /* a second 60 would pass 100 */
    CHECK(mem_n_log(&m) == 1);
    for (int i = 0; i < 10; i++) {
        CHECK(got_right(p, &m, ids[i], (uint64_t)i * 1000, 60));
        sqe_readplan_release(p, ids[i]);
    }
    sqe_readplan_get_stats(p, &st);
    CHECK(st.peak_buffered <= 100 && st.buffered == 0 && st.n_requests == 10);
    /* a request larger than the bound is still read (alone) */
    int big = sqe_readplan_add(p, 0, 500);
    sqe_readplan_submit(p);
    CHECK(got_right(p, &m, big, 0, 500));
    sqe_readplan_free(p);
    mem_clear(&m);
}

static void test_errors_and_short(void) {
    mem_store m;
    mem_init(&m, 1000);
    m.fail_at = 505;
    sqe_readplan_opts o = opts(0, 1 << 20, 2, 1 << 20);
    sqe_readplan *p = sqe_readplan_new(&m.base, "mem://obj", &o);
    int bad = sqe_readplan_add(p, 500, 10);
    int good = sqe_readplan_add(p, 100, 10);
    int tail = sqe_readplan_add(p, 990, 20); /* the object ends after 10 */
    int past = sqe_readplan_add(p, 2000, 10);
    sqe_readplan_submit(p);
    CHECK(mem_wait_log(&m, 4)); /* fetched in the background */
    const uint8_t *d;
    size_t n;
    sqe_error err;
    sqe_error_clear(&err);
    CHECK(!sqe_readplan_get(p, bad, &d, &n, &err));
    CHECK(err.cls == SQE_ERR_STORAGE);
    CHECK_CONTAINS(err.msg, "mem://obj");
    CHECK(got_right(p, &m, good, 100, 10));
    CHECK(got_right(p, &m, tail, 990, 10));
    CHECK(got_right(p, &m, past, 2000, 0));
    sqe_readplan_free(p);

    /* a failed part of a split request fails the ranges in it */
    m.n_log = 0;
    o = opts(0, 100, 0, 1 << 20);
    p = sqe_readplan_new(&m.base, "mem://obj", &o);
    int r = sqe_readplan_add(p, 400, 300);
    sqe_readplan_submit(p);
    CHECK(!sqe_readplan_get(p, r, &d, &n, &err));
    CHECK_CONTAINS(err.msg, "injected failure");
    sqe_readplan_free(p);
    mem_clear(&m);
}

/* Closing with fetches in flight (held at a gate) neither crashes nor
 * leaks: close waits for them. */
static void *open_gate(void *arg) {
    mem_store *m = arg;
    pthread_mutex_lock(&m->mu); /* until the main thread is about to close */
    while (!m->closing_soon) pthread_cond_wait(&m->cv, &m->mu);
    pthread_mutex_unlock(&m->mu);
    usleep(100 * 1000); /* sqe_readplan_free sets `closing` first thing */
    pthread_mutex_lock(&m->mu);
    m->gate_closed = false;
    pthread_cond_broadcast(&m->cv);
    pthread_mutex_unlock(&m->mu);
    return NULL;
}

static void test_close_in_flight(void) {
    mem_store m;
    mem_init(&m, 100000);
    m.gate_closed = true;
    sqe_readplan_opts o = opts(0, 1000, 3, 1 << 20);
    sqe_readplan *p = sqe_readplan_new(&m.base, "mem://obj", &o);
    for (int i = 0; i < 8; i++) {
        sqe_readplan_add(p, (uint64_t)i * 10000, 2500);
        sqe_readplan_submit(p);
    }
    pthread_mutex_lock(&m.mu);
    while (m.in_flight < 3) pthread_cond_wait(&m.cv, &m.mu);
    pthread_mutex_unlock(&m.mu);
    pthread_t t;
    pthread_create(&t, NULL, open_gate, &m);
    pthread_mutex_lock(&m.mu);
    m.closing_soon = true;
    pthread_cond_broadcast(&m.cv);
    pthread_mutex_unlock(&m.mu);
    sqe_readplan_free(p); /* returns once the three in flight are back */
    pthread_join(t, NULL);
    CHECK(m.in_flight == 0);
    CHECK(mem_n_log(&m) == 3); /* nothing new started after close */
    mem_clear(&m);

    /* close right after submit, with a slow store */
    mem_init(&m, 100000);
    m.delay_ms = 5;
    p = sqe_readplan_new(&m.base, "mem://obj", &o);
    for (int i = 0; i < 20; i++) sqe_readplan_add(p, (uint64_t)i * 4000, 3000);
    sqe_readplan_submit(p);
    sqe_readplan_free(p);
    CHECK(m.in_flight == 0);
    mem_clear(&m);
}

/* Seeded bytes (the Parquet footer's tail read) serve ranges inside them. */
static void test_seed(void) {
    mem_store m;
    mem_init(&m, 2000);
    sqe_readplan_opts o = opts(0, 1 << 20, 0, 1 << 20);
    sqe_readplan *p = sqe_readplan_new(&m.base, "mem://obj", &o);
    sqe_readplan_seed(p, 1000, m.data + 1000, 100);
    int in = sqe_readplan_add(p, 1010, 20);
    int edge = sqe_readplan_add(p, 1000, 100);
    int out = sqe_readplan_add(p, 1090, 20); /* runs past the seed: fetched */
    sqe_readplan_submit(p);
    CHECK(got_right(p, &m, in, 1010, 20) && got_right(p, &m, edge, 1000, 100));
    CHECK(mem_n_log(&m) == 0);
    CHECK(got_right(p, &m, out, 1090, 20));
    CHECK(mem_n_log(&m) == 1 && logged(&m, 0, 1090, 20));
    sqe_readplan_release(p, in);
    sqe_readplan_release(p, edge);
    int again = sqe_readplan_add(p, 1050, 10); /* the seed outlives its ranges */
    CHECK(got_right(p, &m, again, 1050, 10) && mem_n_log(&m) == 1);
    sqe_readplan_free(p);
    mem_clear(&m);
}

static void test_defaults(void) {
    sqe_readplan_opts o;
    sqe_store *local = sqe_io_local_new();
    sqe_readplan_defaults(local, &o);
    CHECK(o.max_in_flight == 0 && o.gap_bytes == 64 << 10);
    mem_store m;
    mem_init(&m, 1);
    sqe_readplan_defaults(&m.base, &o);
    CHECK(o.max_in_flight > 0 && o.gap_bytes == 1 << 20 && o.max_buffered == 64 << 20);
    mem_clear(&m);
    sqe_store_free(local);
}

static void test_seqread(void) {
    mem_store m;
    mem_init(&m, 1050);
    sqe_readplan_opts o = opts(0, 1 << 20, 2, 1 << 20);
    sqe_seqread *q = sqe_seqread_new(&m.base, "mem://obj", 1050, &o);
    uint8_t buf[200];
    size_t n;
    sqe_error err;
    sqe_error_clear(&err);
    CHECK(sqe_seqread_read(q, 0, 100, buf, &n, &err) && n == 100);
    CHECK(memcmp(buf, m.data, 100) == 0);
    CHECK(mem_wait_log(&m, 3));   /* [100, 200) and [200, 300) read ahead */
    CHECK(logged(&m, 0, 0, 100)); /* two workers: the two ahead in either order */
    CHECK((logged(&m, 1, 100, 100) && logged(&m, 2, 200, 100)) ||
          (logged(&m, 2, 100, 100) && logged(&m, 1, 200, 100)));
    uint64_t off = 100;
    for (;;) { /* sequential to the end, in reads of 100 */
        CHECK(sqe_seqread_read(q, off, 100, buf, &n, &err));
        CHECK(n == 0 || memcmp(buf, m.data + off, n) == 0);
        off += n;
        if (n < 100) break;
    }
    CHECK(off == 1050);
    /* each byte fetched once, nothing read ahead past the end; the short
     * last piece is followed by one direct read that finds the end */
    CHECK(mem_n_log(&m) == 12);
    /* a read elsewhere drops the queue and reads directly; a read of two
     * queued pieces at once is served from both */
    CHECK(sqe_seqread_read(q, 10, 50, buf, &n, &err) && n == 50);
    CHECK(memcmp(buf, m.data + 10, 50) == 0);
    CHECK(mem_wait_log(&m, 15)); /* [60, 110) and [110, 160) ahead */
    CHECK(sqe_seqread_read(q, 60, 200, buf, &n, &err) && n == 200);
    CHECK(memcmp(buf, m.data + 60, 200) == 0);
    sqe_seqread_free(q);
    /* an error of a read-ahead surfaces at its read */
    m.fail_at = 150;
    m.n_log = 0;
    q = sqe_seqread_new(&m.base, "mem://obj", UINT64_MAX, &o);
    CHECK(sqe_seqread_read(q, 0, 100, buf, &n, &err));
    CHECK(!sqe_seqread_read(q, 100, 100, buf, &n, &err));
    CHECK_CONTAINS(err.msg, "mem://obj");
    sqe_seqread_free(q);
    /* closed with reads ahead in flight */
    m.fail_at = UINT64_MAX;
    m.delay_ms = 20;
    q = sqe_seqread_new(&m.base, "mem://obj", UINT64_MAX, &o);
    CHECK(sqe_seqread_read(q, 0, 100, buf, &n, &err));
    sqe_seqread_free(q);
    CHECK(m.in_flight == 0);
    mem_clear(&m);
}

/* The byte stream on a remote store (the memory store says it is "s3") reads
 * its chunks ahead: a zlib stream decoded through it gives back the data,
 * and the chunks after the first are fetched before they are asked for. */
static void test_byte_stream_read_ahead(void) {
    size_t raw_len = 200000;
    uint8_t *raw = malloc(raw_len);
    uint32_t x = 12345; /* letters from an LCG: compresses to about 60% */
    for (size_t i = 0; i < raw_len; i++) {
        x = x * 1103515245u + 12345u;
        raw[i] = (uint8_t)('a' + (x >> 16) % 26);
    }
    uLongf zlen = compressBound(raw_len);
    mem_store m;
    mem_init(&m, zlen);
    CHECK(compress2(m.data, &zlen, raw, raw_len, 6) == Z_OK);
    m.size = zlen;
    sqe_error err;
    sqe_error_clear(&err);
    sqe_byte_stream *bs =
        sqe_byte_stream_open(&m.base, "mem://x.deflate", zlen, 0, SQE_CODEC_DEFLATE, 1000, &err);
    CHECK(bs != NULL);
    uint8_t *out = malloc(raw_len + 1);
    size_t got = 0;
    bool eof = false, ok = true;
    while (bs && ok && !eof && got <= raw_len) {
        size_t n;
        ok = sqe_byte_stream_read(bs, out + got, SQE_MIN((size_t)777, raw_len + 1 - got), &n, &eof,
                                  &err);
        got += n;
    }
    CHECK(ok && eof && got == raw_len && memcmp(out, raw, raw_len) == 0);
    CHECK(bs && sqe_byte_stream_raw_bytes(bs) == zlen);
    sqe_byte_stream_close(bs);
    /* every chunk fetched once; the last one (shorter than a chunk) also
     * asks for the byte past the listed size, so no separate request */
    uint64_t nc = (zlen + 999) / 1000;
    CHECK(zlen % 1000 != 0);
    CHECK(mem_n_log(&m) == (int)nc);
    CHECK(logged(&m, 0, 0, 1000));
    uint64_t sum = 0; /* each chunk once (workers may log them in any order) */
    for (int i = 0; i < mem_n_log(&m); i++) sum += m.log_off[i] / 1000;
    CHECK(sum == nc * (nc - 1) / 2);
    free(out);
    free(raw);
    mem_clear(&m);
}

static void write_file(const char *path, const void *data, size_t n) {
    FILE *f = fopen(path, "wb");
    if (n) fwrite(data, 1, n, f);
    fclose(f);
}

static void test_local_tail(void) {
    char dir[] = "/tmp/sqe_readplan_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char big[300], small[300], empty[300], missing[300];
    snprintf(big, sizeof big, "%s/big", dir);
    snprintf(small, sizeof small, "%s/small", dir);
    snprintf(empty, sizeof empty, "%s/empty", dir);
    snprintf(missing, sizeof missing, "%s/missing", dir);
    uint8_t data[1000];
    for (int i = 0; i < 1000; i++) data[i] = (uint8_t)(i * 13);
    write_file(big, data, 1000);
    write_file(small, data, 10);
    write_file(empty, data, 0);
    sqe_io_registry *reg = sqe_io_registry_new(NULL, NULL);
    sqe_store *raw = sqe_io_local_new();
    sqe_error err;
    sqe_store *handle = sqe_io_registry_open(reg, big, NULL, &err);
    CHECK(handle != NULL);
    sqe_store *stores[2] = {raw, handle};
    for (int k = 0; k < 2; k++) {
        sqe_store *s = stores[k];
        CHECK(s->vt->get_tail != NULL);
        uint8_t buf[64];
        size_t n = 99;
        uint64_t size = 99;
        CHECK(s->vt->get_tail(s, big, 30, buf, &n, &size, &err));
        CHECK(n == 30 && size == 1000 && memcmp(buf, data + 970, 30) == 0);
        CHECK(s->vt->get_tail(s, small, 64, buf, &n, &size, &err)); /* smaller than the suffix */
        CHECK(n == 10 && size == 10 && memcmp(buf, data, 10) == 0);
        CHECK(s->vt->get_tail(s, empty, 64, buf, &n, &size, &err));
        CHECK(n == 0 && size == 0);
        CHECK(!s->vt->get_tail(s, missing, 64, buf, &n, &size, &err));
        CHECK(err.cls == SQE_ERR_NOT_FOUND);
        CHECK_CONTAINS(err.msg, "missing");
        CHECK(!s->vt->get_tail(s, dir, 64, buf, &n, &size, &err)); /* a folder */
        CHECK(err.cls == SQE_ERR_NOT_FOUND);
    }
    sqe_io_stats st;
    raw->vt->stats(raw, &st);
    CHECK(st.n_get == 5 && st.n_head == 0 && st.bytes_read == 40);
    sqe_store_free(handle);
    sqe_store_free(raw);
    sqe_io_registry_free(reg);
    unlink(big);
    unlink(small);
    unlink(empty);
    rmdir(dir);
}

int main(void) {
    RUN(test_coalesce);
    RUN(test_split_parallel);
    RUN(test_read_ahead_order);
    RUN(test_bounded_memory);
    RUN(test_errors_and_short);
    RUN(test_close_in_flight);
    RUN(test_seed);
    RUN(test_defaults);
    RUN(test_seqread);
    RUN(test_local_tail);
    RUN(test_byte_stream_read_ahead);
    return unit_report();
}
