/*
 * readplan.c - reads of several byte ranges of one object, coalesced and
 * issued ahead of use (issue 6: "the same code is fast on S3").
 *
 * A reader that knows which bytes it will need (Parquet: the selected
 * column chunks of this row group and of the next) lists them with
 * sqe_readplan_add and hands the batch over with sqe_readplan_submit. The
 * batch, sorted by offset, becomes *requests*: ranges closer than
 * `gap_bytes` merge into one request (the gap is read and thrown away: on
 * S3 a request costs more than a megabyte of transfer); a request longer
 * than `part_bytes` is fetched as several *parts*, one get_range each, that
 * may be in flight together. Batches are fetched in submit order, parts in
 * order within a batch, so what is needed first arrives first.
 *
 * Threads. With max_in_flight > 0 the plan starts up to that many worker
 * threads at its first submit (its own, never the executor's pool, so a
 * fetch can never wait behind the tasks that wait for it). A worker takes
 * the next unstarted part whose request fits the memory budget, fetches it
 * with the store's get_range outside the lock, and marks it done. With
 * max_in_flight = 0 nothing runs in the background: sqe_readplan_get
 * fetches the parts of its request itself (still coalesced), which is what
 * local disk wants (the page cache answers at once; a thread hop costs).
 *
 * Memory. A request's buffer is allocated when its first part starts and
 * counted in `buffered` until every range in it has been released. Workers
 * start a request only while buffered + its length <= max_buffered (or
 * nothing is buffered), so fetched-but-unconsumed data stays under the
 * bound; the consumer itself fetches a request it waits for that the
 * budget held back, so a plan never deadlocks on its own budget (memory is
 * then the bound plus the request being consumed).
 *
 * Errors. A part that fails keeps its error (the store's message, which
 * names the object); sqe_readplan_get of any range in its request returns
 * it. A short part (the object ended) leaves the range short: get reports
 * the bytes that exist, and the caller decides whether that is truncation.
 *
 * Seeds. Bytes the caller already holds (the Parquet footer's suffix read)
 * become a request that is DONE from the start and never freed before the
 * plan; a range added later that lies inside one is served from it.
 *
 * Sequential reads (sqe_seqread, at the end of this file) put a queue of
 * read-ahead ranges on a plan: text and JSON chunks on S3.
 *
 * Invariants (under `mu`): a part is QUEUED, RUNNING or DONE; only the
 * thread that moved it to RUNNING writes its bytes of the request buffer,
 * and nobody reads them before it is DONE (the mutex orders the two). A
 * request's buffer is freed only when refs == 0 and no part is RUNNING.
 * Closing sets `closing`, wakes everyone and joins the workers, which
 * finish the get_range they are in (bounded by the store's timeouts) and
 * start nothing new; then everything is freed.
 */
#include "io/io.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { RP_QUEUED = 0, RP_RUNNING, RP_DONE };

typedef struct rp_part {
    int req;
    uint64_t off; /* within the request */
    size_t len, got;
    int state;
    bool failed;
    sqe_error err;
} rp_part;

typedef struct rp_req {
    uint64_t off;
    size_t len;
    uint8_t *buf; /* NULL until the first part starts, and after it is freed */
    int first_part, n_parts;
    int refs;      /* ranges not released yet */
    int n_running; /* parts being fetched */
    bool counted;  /* len is in p->buffered */
} rp_req;

typedef struct rp_range {
    uint64_t off;
    size_t len;
    int req; /* -1 until submitted */
    bool released;
} rp_range;

struct sqe_readplan {
    sqe_store *store;
    char *path;
    sqe_readplan_opts o;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    SQE_ARRAY(rp_range) ranges;
    SQE_ARRAY(rp_req) reqs;
    SQE_ARRAY(rp_part) parts;
    SQE_ARRAY(int) seeds; /* requests made from bytes the caller already had */
    int pending_from;     /* ranges [pending_from, n) are not submitted yet */
    int next_part;        /* parts before it are started (hint for workers) */
    uint64_t buffered, peak_buffered, fetched;
    uint64_t n_requests, n_gets;
    bool closing;
    pthread_t *threads;
    int n_threads;
};

void sqe_readplan_defaults(const sqe_store *s, sqe_readplan_opts *o) {
    /* the network stores read ahead; disk and memory answer at once */
    bool remote = s && s->vt && s->vt->name && strcmp(s->vt->name, "s3") == 0;
    o->gap_bytes = remote ? (uint64_t)1 << 20 : (uint64_t)64 << 10;
    o->part_bytes = (uint64_t)8 << 20;
    o->max_in_flight = remote ? 4 : 0;
    o->max_buffered = (uint64_t)64 << 20;
}

sqe_readplan *sqe_readplan_new(sqe_store *s, const char *path, const sqe_readplan_opts *o) {
    sqe_readplan *p = sqe_calloc(1, sizeof *p);
    p->store = s;
    p->path = sqe_strdup(path);
    if (o) {
        p->o = *o;
    } else {
        sqe_readplan_defaults(s, &p->o);
    }
    if (p->o.part_bytes == 0) p->o.part_bytes = (uint64_t)8 << 20;
    if (p->o.max_in_flight < 0) p->o.max_in_flight = 0;
    if (p->o.max_in_flight > 64) p->o.max_in_flight = 64;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    return p;
}

int sqe_readplan_add(sqe_readplan *p, uint64_t off, size_t len) {
    rp_range r = {off, len, -1, false};
    pthread_mutex_lock(&p->mu);
    SQE_ARRAY_PUSH(NULL, p->ranges, r);
    int id = (int)p->ranges.len - 1;
    pthread_mutex_unlock(&p->mu);
    return id;
}

static int rp_cmp_off(const void *a, const void *b, void *ctx) {
    const rp_range *rs = ctx;
    uint64_t x = rs[*(const int *)a].off, y = rs[*(const int *)b].off;
    return x < y ? -1 : x > y;
}

/* Appends request [off, end) and its parts (caller holds mu). */
static int rp_new_req(sqe_readplan *p, uint64_t off, uint64_t end) {
    rp_req q = {0};
    q.off = off;
    q.len = (size_t)(end - off);
    q.first_part = (int)p->parts.len;
    uint64_t pos = 0;
    do {
        rp_part part = {0};
        part.req = (int)p->reqs.len;
        part.off = pos;
        part.len = (size_t)SQE_MIN(p->o.part_bytes, q.len - pos);
        SQE_ARRAY_PUSH(NULL, p->parts, part);
        q.n_parts++;
        pos += part.len;
    } while (pos < q.len);
    SQE_ARRAY_PUSH(NULL, p->reqs, q);
    return (int)p->reqs.len - 1;
}

static void *rp_worker(void *arg);
static void rp_req_maybe_free(sqe_readplan *p, rp_req *q);

/* The seeded request holding [off, off + len) whole, or -1. */
static int rp_seed_for(const sqe_readplan *p, uint64_t off, size_t len) {
    for (size_t i = 0; i < p->seeds.len; i++) {
        const rp_req *q = &p->reqs.items[p->seeds.items[i]];
        if (off >= q->off && off - q->off <= q->len && len <= q->len - (off - q->off))
            return p->seeds.items[i];
    }
    return -1;
}

void sqe_readplan_seed(sqe_readplan *p, uint64_t off, const void *data, size_t len) {
    if (len == 0) return;
    pthread_mutex_lock(&p->mu);
    int qi = rp_new_req(p, off, off + len);
    rp_req *q = &p->reqs.items[qi];
    q->buf = sqe_malloc(len);
    memcpy(q->buf, data, len);
    q->refs = 1; /* the seed's own reference: kept until the plan is freed */
    for (int i = q->first_part; i < q->first_part + q->n_parts; i++) {
        p->parts.items[i].state = RP_DONE;
        p->parts.items[i].got = p->parts.items[i].len;
    }
    SQE_ARRAY_PUSH(NULL, p->seeds, qi);
    pthread_mutex_unlock(&p->mu);
}

/* Groups the pending ranges into requests (caller holds mu). */
static void rp_plan_pending(sqe_readplan *p) {
    int from = p->pending_from, n = (int)p->ranges.len - from;
    if (n <= 0) return;
    int *ord = sqe_malloc(sizeof(int) * (size_t)n);
    int m = 0;
    for (int i = 0; i < n; i++) {
        rp_range *r = &p->ranges.items[from + i];
        int seed = rp_seed_for(p, r->off, r->len);
        if (seed >= 0) { /* served from bytes already here */
            r->req = seed;
            p->reqs.items[seed].refs++;
        } else {
            ord[m++] = from + i;
        }
    }
    n = m;
    qsort_r(ord, (size_t)n, sizeof *ord, rp_cmp_off, p->ranges.items);
    int i = 0;
    while (i < n) {
        uint64_t start = p->ranges.items[ord[i]].off;
        uint64_t end = start + p->ranges.items[ord[i]].len;
        int j = i + 1;
        while (j < n) {
            const rp_range *r = &p->ranges.items[ord[j]];
            if (r->off > end && r->off - end >= p->o.gap_bytes) break;
            end = SQE_MAX(end, r->off + r->len);
            j++;
        }
        int q = rp_new_req(p, start, end);
        for (int k = i; k < j; k++) p->ranges.items[ord[k]].req = q;
        p->reqs.items[q].refs = j - i;
        i = j;
    }
    sqe_free(ord);
    p->pending_from = (int)p->ranges.len;
}

void sqe_readplan_submit(sqe_readplan *p) {
    pthread_mutex_lock(&p->mu);
    rp_plan_pending(p);
    if (p->o.max_in_flight > 0 && !p->threads && !p->closing) {
        p->threads = sqe_calloc((size_t)p->o.max_in_flight, sizeof *p->threads);
        for (int i = 0; i < p->o.max_in_flight; i++) {
            if (pthread_create(&p->threads[i], NULL, rp_worker, p) != 0) break;
            p->n_threads++;
        }
    }
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

/* Allocates q's buffer and counts it (caller holds mu). */
static void rp_req_start(sqe_readplan *p, rp_req *q) {
    if (q->buf) return;
    q->buf = sqe_malloc(q->len ? q->len : 1);
    q->counted = true;
    p->buffered += q->len;
    if (p->buffered > p->peak_buffered) p->peak_buffered = p->buffered;
    p->n_requests++;
}

/* Fetches part `pi` (RUNNING, claimed by the caller); takes and returns
 * with mu held. */
static void rp_fetch(sqe_readplan *p, int pi) {
    rp_part *part = &p->parts.items[pi];
    rp_req *q = &p->reqs.items[part->req];
    uint8_t *dst = q->buf + part->off;
    uint64_t off = q->off + part->off;
    size_t len = part->len, got = 0;
    q->n_running++;
    pthread_mutex_unlock(&p->mu);
    sqe_error e;
    sqe_error_clear(&e);
    bool ok = p->store->vt->get_range(p->store, p->path, off, len, dst, &got, &e);
    pthread_mutex_lock(&p->mu);
    part = &p->parts.items[pi]; /* the arrays may have grown meanwhile */
    q = &p->reqs.items[part->req];
    q->n_running--;
    part->state = RP_DONE;
    part->got = ok ? got : 0;
    part->failed = !ok;
    if (!ok) part->err = e;
    p->fetched += part->got;
    p->n_gets++;
    rp_req_maybe_free(p, q);
    pthread_cond_broadcast(&p->cv);
}

/* The next part a worker may start, or -1 (caller holds mu). */
static int rp_next_startable(sqe_readplan *p) {
    while (p->next_part < (int)p->parts.len && p->parts.items[p->next_part].state != RP_QUEUED)
        p->next_part++;
    for (int i = p->next_part; i < (int)p->parts.len; i++) {
        rp_part *part = &p->parts.items[i];
        if (part->state != RP_QUEUED) continue;
        rp_req *q = &p->reqs.items[part->req];
        if (q->refs == 0) { /* every range released: nobody will read it */
            part->state = RP_DONE;
            continue;
        }
        if (q->buf) return i; /* its request is already paid for */
        if (p->buffered == 0 || p->buffered + q->len <= p->o.max_buffered) return i;
        return -1; /* in order: do not overtake a request the budget holds back */
    }
    return -1;
}

static void *rp_worker(void *arg) {
    sqe_readplan *p = arg;
    pthread_mutex_lock(&p->mu);
    while (!p->closing) {
        int pi = rp_next_startable(p);
        if (pi < 0) {
            pthread_cond_wait(&p->cv, &p->mu);
            continue;
        }
        p->parts.items[pi].state = RP_RUNNING;
        rp_req_start(p, &p->reqs.items[p->parts.items[pi].req]);
        rp_fetch(p, pi);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* Frees q's buffer once nothing refers to it (caller holds mu). */
static void rp_req_maybe_free(sqe_readplan *p, rp_req *q) {
    if (q->refs > 0 || q->n_running > 0 || !q->buf) return;
    sqe_free(q->buf);
    q->buf = NULL;
    if (q->counted) p->buffered -= q->len;
    q->counted = false;
    pthread_cond_broadcast(&p->cv); /* budget freed */
}

bool sqe_readplan_get(sqe_readplan *p, int id, const uint8_t **data, size_t *n, sqe_error *err) {
    *data = NULL;
    *n = 0;
    pthread_mutex_lock(&p->mu);
    if (id < 0 || id >= (int)p->ranges.len || p->ranges.items[id].released) {
        pthread_mutex_unlock(&p->mu);
        return sqe_error_set(err, SQE_ERR_INTERNAL, "read plan of '%s': range %d is not available",
                             p->path, id);
    }
    if (p->ranges.items[id].req < 0) rp_plan_pending(p); /* added but not submitted */
    int qi = p->ranges.items[id].req;
    rp_req *q = &p->reqs.items[qi];
    for (;;) { /* start what nobody started (no workers, or held back by the budget) */
        int pi = -1;
        for (int i = q->first_part; i < q->first_part + q->n_parts; i++)
            if (p->parts.items[i].state == RP_QUEUED) {
                pi = i;
                break;
            }
        if (pi < 0) break;
        p->parts.items[pi].state = RP_RUNNING;
        rp_req_start(p, q);
        rp_fetch(p, pi);
        q = &p->reqs.items[qi];
    }
    for (;;) {
        bool all_done = true;
        for (int i = q->first_part; i < q->first_part + q->n_parts; i++)
            if (p->parts.items[i].state != RP_DONE) all_done = false;
        if (all_done) break;
        pthread_cond_wait(&p->cv, &p->mu);
        q = &p->reqs.items[qi];
    }
    const rp_range *r = &p->ranges.items[id];
    uint64_t rel = r->off - q->off, want_end = rel + r->len; /* the range within the request */
    uint64_t contig = 0; /* request bytes [0, contig) are there */
    bool ok = true;
    for (int i = q->first_part; i < q->first_part + q->n_parts; i++) {
        const rp_part *part = &p->parts.items[i];
        if (part->off >= want_end) break;
        if (part->failed) {
            if (err) *err = part->err;
            ok = false;
            break;
        }
        if (part->off != contig) break; /* a short part before: the object ended */
        contig = part->off + part->got;
        if (part->got < part->len) break;
    }
    size_t have = contig > rel ? (size_t)(SQE_MIN(contig, want_end) - rel) : 0;
    if (ok) {
        *data = q->buf + rel;
        *n = have;
    }
    pthread_mutex_unlock(&p->mu);
    return ok;
}

void sqe_readplan_release(sqe_readplan *p, int id) {
    pthread_mutex_lock(&p->mu);
    if (id >= 0 && id < (int)p->ranges.len && !p->ranges.items[id].released) {
        rp_range *r = &p->ranges.items[id];
        r->released = true;
        if (r->req >= 0) {
            rp_req *q = &p->reqs.items[r->req];
            q->refs--;
            rp_req_maybe_free(p, q);
        }
    }
    pthread_mutex_unlock(&p->mu);
}

void sqe_readplan_get_stats(sqe_readplan *p, sqe_readplan_stats *out) {
    pthread_mutex_lock(&p->mu);
    out->n_requests = p->n_requests;
    out->n_gets = p->n_gets;
    out->bytes_fetched = p->fetched;
    out->buffered = p->buffered;
    out->peak_buffered = p->peak_buffered;
    pthread_mutex_unlock(&p->mu);
}

uint64_t sqe_readplan_bytes_fetched(sqe_readplan *p) {
    pthread_mutex_lock(&p->mu);
    uint64_t b = p->fetched;
    pthread_mutex_unlock(&p->mu);
    return b;
}

void sqe_readplan_free(sqe_readplan *p) {
    if (!p) return;
    pthread_mutex_lock(&p->mu);
    p->closing = true;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < p->n_threads; i++) pthread_join(p->threads[i], NULL);
    for (size_t i = 0; i < p->reqs.len; i++) sqe_free(p->reqs.items[i].buf);
    SQE_ARRAY_FREE(p->ranges);
    SQE_ARRAY_FREE(p->reqs);
    SQE_ARRAY_FREE(p->parts);
    SQE_ARRAY_FREE(p->seeds);
    sqe_free(p->threads);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    sqe_free(p->path);
    sqe_free(p);
}

/* ------------------------------------------------------------ sequential
 *
 * sqe_seqread keeps a queue of ranges read ahead, each a plan range of the
 * length of the last read, contiguous from `q[head].off`. A read at the
 * head's offset copies from the queue (partly consumed head: `head_used`);
 * anything else drops the queue. The queue is refilled after every read. */

#define SEQ_MAX_DEPTH 8

typedef struct seq_ahead {
    int id;
    uint64_t off;
    size_t len;
} seq_ahead;

struct sqe_seqread {
    sqe_readplan *p;
    uint64_t end;
    seq_ahead q[SEQ_MAX_DEPTH];
    int head, n;
    size_t head_used;
};

sqe_seqread *sqe_seqread_new(sqe_store *s, const char *path, uint64_t end,
                             const sqe_readplan_opts *o) {
    sqe_seqread *q = sqe_calloc(1, sizeof *q);
    q->p = sqe_readplan_new(s, path, o);
    q->end = end;
    return q;
}

static void seq_pop(sqe_seqread *q) {
    sqe_readplan_release(q->p, q->q[q->head].id);
    q->head = (q->head + 1) % SEQ_MAX_DEPTH;
    q->n--;
    q->head_used = 0;
}

static void seq_drop(sqe_seqread *q) {
    while (q->n > 0) seq_pop(q);
}

/* Copies from the queue what it holds at off (up to len); *eof when the
 * object ended inside it. */
static bool seq_take(sqe_seqread *q, uint64_t off, size_t len, uint8_t *buf, size_t *got, bool *eof,
                     sqe_error *err) {
    while (*got < len && q->n > 0 && q->q[q->head].off + q->head_used == off + *got) {
        seq_ahead *a = &q->q[q->head];
        const uint8_t *data;
        size_t have;
        if (!sqe_readplan_get(q->p, a->id, &data, &have, err)) {
            seq_drop(q);
            return false;
        }
        size_t avail = have > q->head_used ? have - q->head_used : 0;
        size_t take = SQE_MIN(avail, len - *got);
        memcpy(buf + *got, data + q->head_used, take);
        *got += take;
        q->head_used += take;
        if (have < a->len && q->head_used >= have) { /* the object ends here */
            *eof = true;
            seq_drop(q);
            break;
        }
        if (q->head_used >= a->len) seq_pop(q);
    }
    return true;
}

/* Tops the queue up to its depth with reads of `len` after `from`. */
static void seq_refill(sqe_seqread *q, uint64_t from, size_t len) {
    const sqe_readplan_opts *o = &q->p->o;
    if (len == 0 || o->max_in_flight <= 0) return;
    uint64_t depth = o->max_buffered / len;
    depth = SQE_MIN(depth, (uint64_t)o->max_in_flight);
    depth = SQE_MIN(SQE_MAX(depth, (uint64_t)1), (uint64_t)SEQ_MAX_DEPTH);
    uint64_t next = from;
    if (q->n > 0) {
        const seq_ahead *last = &q->q[(q->head + q->n - 1) % SEQ_MAX_DEPTH];
        next = last->off + last->len;
    }
    while ((uint64_t)q->n < depth && next < q->end) {
        size_t l = (size_t)SQE_MIN((uint64_t)len, q->end - next);
        seq_ahead *a = &q->q[(q->head + q->n) % SEQ_MAX_DEPTH];
        a->id = sqe_readplan_add(q->p, next, l);
        a->off = next;
        a->len = l;
        q->n++;
        next += l;
        sqe_readplan_submit(q->p); /* one request per read: parts stay read-sized */
    }
}

bool sqe_seqread_read(sqe_seqread *q, uint64_t off, size_t len, void *buf, size_t *n_read,
                      sqe_error *err) {
    *n_read = 0;
    if (len == 0) return true;
    size_t got = 0;
    bool eof = false;
    if (q->n > 0 && q->q[q->head].off + q->head_used != off) seq_drop(q);
    if (!seq_take(q, off, len, buf, &got, &eof, err)) return false;
    if (got < len && !eof) {
        seq_drop(q);
        size_t m = 0;
        sqe_store *s = q->p->store;
        if (!s->vt->get_range(s, q->p->path, off + got, len - got, (uint8_t *)buf + got, &m, err))
            return false;
        if (m < len - got) eof = true;
        got += m;
    }
    *n_read = got;
    if (!eof) seq_refill(q, off + got, len);
    return true;
}

void sqe_seqread_free(sqe_seqread *q) {
    if (!q) return;
    sqe_readplan_free(q->p);
    sqe_free(q);
}
