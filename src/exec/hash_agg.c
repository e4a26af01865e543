/*
 * hash_agg.c - HashAggregateExec: GROUP BY (and DISTINCT, and global
 * aggregates) over a hash table of typed keys.
 *
 * Output: the group keys, then one column per aggregate. With no group keys
 * there is exactly one group, created up front, so a global aggregate emits
 * one row even on empty input. DISTINCT arrives as groups without
 * aggregates (state size 0).
 *
 * The table (agg_table):
 *   keys[k][g], knull[k][g]  group g's normalized key slot for key k (keys.c);
 *                            long strings copied into the table's arena
 *   hashes[g]                the group's full hash (rehash, merge)
 *   slots[]                  open addressing, linear probing: (hash >> 32) << 32
 *                            | (g + 1), 0 = empty; grown at 50% load
 *   islots[]                 instead of slots when there is one integer-like or
 *                            floating key: {key, g + 1}, so a probe costs one
 *                            cache miss (Q7: 100k bigint groups); the NULL
 *                            group lives outside the index (null_g1)
 *   chunks[g >> 10]          per-group aggregate states, `stride` bytes per
 *                            group, each aggregate at a 16-byte aligned offset;
 *                            states never move (init on insert, destroy at close)
 *
 * Per batch (consume): evaluate the key expressions, load them into slots
 * column by column, hash column by column, probe row by row (specialized
 * loops for one integer-like, floating, decimal or string key, a generic
 * loop otherwise), gather one state pointer per row, and call each
 * aggregate's update once for the whole batch.
 *
 * Parallelism: the operator is a sink (exec_int.h). Each pipeline copy owns
 * a local table; merge folds a local table into the global one with the
 * aggregates' combine (the first local simply becomes the global table).
 * Merge and rehash walk groups in insertion order, never the index in slot
 * order: a slot-order walk feeds keys in hash order into a table placing
 * them by the same bits, and once the two tables together outnumber the
 * slots the inserts pile into one cluster that grows with every insert
 * (issue 11, in the DISTINCT sets). Every probe loop counts its steps with
 * SQE_PROBE_STEP, a watchdog in debug and sanitizer builds.
 *
 * Memory: the table reports its size to the query after every batch and
 * fails with RESOURCE_EXHAUSTED once the query is over its limit. The size
 * includes what aggregate states own on the heap (DISTINCT sets, string
 * min/max copies), summed from the aggregates' mem_delta after each update
 * and combine (`owned`).
 */
#include "exec/exec_int.h"

#define STATE_CHUNK_SHIFT 10
#define STATE_CHUNK (1u << STATE_CHUNK_SHIFT)
#define NULL_HASH 0x2545f4914f6cdd1dULL
#define EMPTY_KEYS_HASH 0x9e3779b97f4a7c15ULL

typedef struct hash_agg_op hash_agg_op;

typedef struct i64_slot {
    int64_t key;
    uint64_t g1; /* group + 1; 0 = empty */
} i64_slot;

typedef struct agg_table {
    const hash_agg_op *op;
    size_t n_groups, cap;
    sqe_key_slot **keys;
    uint8_t **knull;
    uint64_t *hashes;
    uint64_t *slots;  /* generic index */
    i64_slot *islots; /* single integer/float key: key inline */
    uint32_t null_g1; /* single integer/float key: the NULL group + 1, 0 = none */
    bool i64_mode;
    size_t n_slots, mask;
    SQE_ARRAY(uint8_t *) chunks;
    sqe_arena *strings;
    int64_t owned;  /* heap bytes owned by the aggregate states (mem_delta) */
    size_t tracked; /* bytes reported to the query */
} agg_table;

struct hash_agg_op {
    sqe_op base;
    int n_keys, n_aggs;
    sqe_key_class *kc;
    const sqe_agg_binding *aggs;
    size_t *offs;
    size_t stride;
    agg_table *global;
    bool built;
    size_t out_pos;
    sqe_batch *out;
};

static inline uint8_t *group_state(const agg_table *t, size_t g) {
    return t->chunks.items[g >> STATE_CHUNK_SHIFT] + (g & (STATE_CHUNK - 1)) * t->op->stride;
}

static size_t table_bytes(const agg_table *t) {
    const hash_agg_op *op = t->op;
    return t->cap * ((size_t)op->n_keys * (sizeof(sqe_key_slot) + 1) + sizeof(uint64_t)) +
           t->n_slots * (t->i64_mode ? sizeof(i64_slot) : sizeof(uint64_t)) +
           t->chunks.len * STATE_CHUNK * op->stride + sqe_arena_used(t->strings) +
           (t->owned > 0 ? (size_t)t->owned : 0);
}

/* Heap bytes the states sp[0..n) of aggregate ab gained (its mem_delta; a
 * state repeated in consecutive rows is asked once, and a second ask would
 * return 0 anyway). */
static int64_t states_mem_delta(const sqe_agg_binding *ab, void *const *sp, uint32_t n) {
    int64_t d = 0;
    for (uint32_t i = 0; i < n; i++)
        if (i == 0 || sp[i] != sp[i - 1]) d += ab->mem_delta(ab, sp[i]);
    return d;
}

/* Rebuilds the index with twice the slots. */
static void table_grow_slots(agg_table *t) {
    size_t n = t->n_slots * 2;
    t->n_slots = n;
    t->mask = n - 1;
    if (t->i64_mode) {
        sqe_free(t->islots);
        t->islots = sqe_calloc(n, sizeof *t->islots);
        for (size_t g = 0; g < t->n_groups; g++) {
            if (t->knull[0][g]) continue;
            size_t pos = t->hashes[g] & t->mask, probes = 0;
            while (t->islots[pos].g1) {
                pos = (pos + 1) & t->mask;
                SQE_PROBE_STEP(probes, n);
            }
            t->islots[pos].key = t->keys[0][g].i;
            t->islots[pos].g1 = g + 1;
        }
        return;
    }
    sqe_free(t->slots);
    t->slots = sqe_calloc(n, sizeof *t->slots);
    for (size_t g = 0; g < t->n_groups; g++) {
        uint64_t h = t->hashes[g];
        size_t pos = h & t->mask, probes = 0;
        while (t->slots[pos]) {
            pos = (pos + 1) & t->mask;
            SQE_PROBE_STEP(probes, n);
        }
        t->slots[pos] = (h & 0xffffffff00000000ULL) | (uint64_t)(g + 1);
    }
}

static inline void maybe_grow(agg_table *t) {
    if (t->n_groups * 2 > t->n_slots) table_grow_slots(t);
}

/* Appends a group with key (keys[k][idx], nulls[k][idx]) and hash h and
 * inits its states; the caller enters it in the index. Returns its index. */
static uint32_t group_append(agg_table *t, uint64_t h, sqe_key_slot *const *keys,
                             uint8_t *const *nulls, size_t idx) {
    const hash_agg_op *op = t->op;
    size_t g = t->n_groups;
    SQE_DEBUG_ASSERT(g < UINT32_MAX - 1); /* slots hold g + 1 in 32 bits */
    if (g == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        for (int k = 0; k < op->n_keys; k++) {
            t->keys[k] = sqe_realloc(t->keys[k], cap * sizeof **t->keys);
            t->knull[k] = sqe_realloc(t->knull[k], cap);
        }
        t->hashes = sqe_realloc(t->hashes, cap * sizeof *t->hashes);
        t->cap = cap;
    }
    for (int k = 0; k < op->n_keys; k++) {
        sqe_key_slot s = keys[k][idx];
        if (op->kc[k] == SQE_KEY_STR && s.s.len > SQE_STRING_INLINE) {
            char *p = sqe_arena_alloc(t->strings, s.s.len);
            memcpy(p, s.s.u.ptr, s.s.len);
            s.s.u.ptr = p;
        }
        t->keys[k][g] = s;
        t->knull[k][g] = nulls[k][idx];
    }
    t->hashes[g] = h;
    if ((g & (STATE_CHUNK - 1)) == 0 && op->stride > 0) {
        uint8_t *chunk = sqe_malloc(STATE_CHUNK * op->stride);
        SQE_ARRAY_PUSH(NULL, t->chunks, chunk);
    }
    if (op->stride > 0) {
        uint8_t *st = group_state(t, g);
        for (int a = 0; a < op->n_aggs; a++) op->aggs[a].init(&op->aggs[a], st + op->offs[a]);
    }
    t->n_groups = g + 1;
    return (uint32_t)g;
}

/* Generic index: appends the group and enters it at the empty slot pos. */
static inline uint32_t table_insert(agg_table *t, uint64_t h, sqe_key_slot *const *keys,
                                    uint8_t *const *nulls, size_t idx, size_t pos) {
    uint32_t g = group_append(t, h, keys, nulls, idx);
    t->slots[pos] = (h & 0xffffffff00000000ULL) | (uint64_t)(g + 1);
    maybe_grow(t);
    return g;
}

/* Inline-key index: the group of key (keys[0][idx], nulls[0][idx]). */
static inline uint32_t table_find_i64(agg_table *t, uint64_t h, sqe_key_slot *const *keys,
                                      uint8_t *const *nulls, size_t idx) {
    if (nulls[0][idx]) {
        if (!t->null_g1) {
            t->null_g1 = group_append(t, h, keys, nulls, idx) + 1;
            maybe_grow(t);
        }
        return t->null_g1 - 1;
    }
    int64_t key = keys[0][idx].i;
    size_t pos = h & t->mask, probes = 0;
    for (;;) {
        i64_slot *s = &t->islots[pos];
        if (!s->g1) {
            uint32_t g = group_append(t, h, keys, nulls, idx);
            s->key = key;
            s->g1 = (uint64_t)g + 1;
            maybe_grow(t);
            return g;
        }
        if (s->key == key) return (uint32_t)(s->g1 - 1);
        pos = (pos + 1) & t->mask;
        SQE_PROBE_STEP(probes, t->n_slots);
    }
}

static inline bool keys_equal(const agg_table *t, size_t g, sqe_key_slot *const *keys,
                              uint8_t *const *nulls, size_t idx) {
    const hash_agg_op *op = t->op;
    for (int k = 0; k < op->n_keys; k++) {
        uint8_t na = t->knull[k][g], nb = nulls[k][idx];
        if (na != nb) return false;
        if (na) continue;
        if (!sqe_key_eq(op->kc[k], &t->keys[k][g], &keys[k][idx])) return false;
    }
    return true;
}

/* The generic probe: the group of key idx (inserting it when new). */
static uint32_t table_find(agg_table *t, uint64_t h, sqe_key_slot *const *keys,
                           uint8_t *const *nulls, size_t idx) {
    if (t->i64_mode) return table_find_i64(t, h, keys, nulls, idx);
    size_t pos = h & t->mask, probes = 0;
    for (;;) {
        uint64_t s = t->slots[pos];
        if (!s) return table_insert(t, h, keys, nulls, idx, pos);
        if ((s >> 32) == (h >> 32)) {
            uint32_t g = (uint32_t)s - 1;
            if (keys_equal(t, g, keys, nulls, idx)) return g;
        }
        pos = (pos + 1) & t->mask;
        SQE_PROBE_STEP(probes, t->n_slots);
    }
}

static agg_table *table_new(const hash_agg_op *op) {
    agg_table *t = sqe_calloc(1, sizeof *t);
    t->op = op;
    int nk = op->n_keys > 0 ? op->n_keys : 1;
    t->keys = sqe_calloc((size_t)nk, sizeof *t->keys);
    t->knull = sqe_calloc((size_t)nk, sizeof *t->knull);
    t->n_slots = 256;
    t->mask = t->n_slots - 1;
    t->i64_mode = op->n_keys == 1 && (op->kc[0] == SQE_KEY_I64 || op->kc[0] == SQE_KEY_F64);
    if (t->i64_mode)
        t->islots = sqe_calloc(t->n_slots, sizeof *t->islots);
    else
        t->slots = sqe_calloc(t->n_slots, sizeof *t->slots);
    t->strings = sqe_arena_new(0);
    if (op->n_keys == 0) { /* the single group of a global aggregate */
        uint64_t h = EMPTY_KEYS_HASH;
        table_insert(t, h, NULL, NULL, 0, h & t->mask);
    }
    return t;
}

/* Frees the table; destroys states of groups >= first_live (the others
 * were moved out by combine). */
static void table_free(agg_table *t, size_t first_live) {
    if (!t) return;
    const hash_agg_op *op = t->op;
    for (int a = 0; a < op->n_aggs; a++) {
        if (!op->aggs[a].destroy) continue;
        for (size_t g = first_live; g < t->n_groups; g++)
            op->aggs[a].destroy(&op->aggs[a], group_state(t, g) + op->offs[a]);
    }
    sqe_exec_mem_track(op->base.ctx, &t->tracked, 0, "HashAggregateExec", NULL);
    for (int k = 0; k < op->n_keys; k++) {
        sqe_free(t->keys[k]);
        sqe_free(t->knull[k]);
    }
    sqe_free(t->keys);
    sqe_free(t->knull);
    sqe_free(t->hashes);
    sqe_free(t->slots);
    sqe_free(t->islots);
    for (size_t i = 0; i < t->chunks.len; i++) sqe_free(t->chunks.items[i]);
    SQE_ARRAY_FREE(t->chunks);
    sqe_arena_free(t->strings);
    sqe_free(t);
}

/* ----------------------------------------------------------- local state */

typedef struct agg_local {
    agg_table *t;
    sqe_expr_state **gstates, **astates;
    sqe_key_slot **tmp_keys;
    uint8_t **tmp_null;
    uint64_t *hash;
    uint32_t *gidx;
    uint8_t **base;
    void **sp;
} agg_local;

static void local_free(sqe_op *op_, void *l_) {
    hash_agg_op *op = (hash_agg_op *)op_;
    agg_local *l = l_;
    if (!l) return;
    if (l->t) table_free(l->t, 0);
    for (int k = 0; k < op->n_keys; k++) {
        sqe_expr_state_free(l->gstates[k]);
        sqe_free(l->tmp_keys[k]);
        sqe_free(l->tmp_null[k]);
    }
    for (int a = 0; a < op->n_aggs; a++) sqe_expr_state_free(l->astates[a]);
    sqe_free(l->gstates);
    sqe_free(l->astates);
    sqe_free(l->tmp_keys);
    sqe_free(l->tmp_null);
    sqe_free(l->hash);
    sqe_free(l->gidx);
    sqe_free(l->base);
    sqe_free(l->sp);
    sqe_free(l);
}

static void *local_new(sqe_op *op_) {
    hash_agg_op *op = (hash_agg_op *)op_;
    const sqe_plan *p = op_->plan;
    agg_local *l = sqe_calloc(1, sizeof *l);
    l->t = table_new(op);
    int nk = op->n_keys > 0 ? op->n_keys : 1, na = op->n_aggs > 0 ? op->n_aggs : 1;
    l->gstates = sqe_calloc((size_t)nk, sizeof *l->gstates);
    l->tmp_keys = sqe_calloc((size_t)nk, sizeof *l->tmp_keys);
    l->tmp_null = sqe_calloc((size_t)nk, sizeof *l->tmp_null);
    for (int k = 0; k < op->n_keys; k++) {
        l->gstates[k] = sqe_expr_state_new(p->u.aggregate.groups[k]);
        l->tmp_keys[k] = sqe_malloc(SQE_BATCH_ROWS * sizeof(sqe_key_slot));
        l->tmp_null[k] = sqe_malloc(SQE_BATCH_ROWS);
    }
    l->astates = sqe_calloc((size_t)na, sizeof *l->astates);
    for (int a = 0; a < op->n_aggs; a++)
        if (p->u.aggregate.agg_args && p->u.aggregate.agg_args[a])
            l->astates[a] = sqe_expr_state_new(p->u.aggregate.agg_args[a]);
    l->hash = sqe_malloc(SQE_BATCH_ROWS * sizeof *l->hash);
    l->gidx = sqe_malloc(SQE_BATCH_ROWS * sizeof *l->gidx);
    l->base = sqe_malloc(SQE_BATCH_ROWS * sizeof *l->base);
    l->sp = sqe_malloc(SQE_BATCH_ROWS * sizeof *l->sp);
    return l;
}

/* Hashes key column k of the batch into l->hash (first column: assign). */
static void hash_column(agg_local *l, sqe_key_class kc, int k, uint32_t n) {
    const sqe_key_slot *s = l->tmp_keys[k];
    const uint8_t *nl = l->tmp_null[k];
    uint64_t *h = l->hash;
#define HASH_LOOP(HEXPR)                                                                           \
    do {                                                                                           \
        if (k == 0)                                                                                \
            for (uint32_t i = 0; i < n; i++) h[i] = nl[i] ? NULL_HASH : (HEXPR);                   \
        else                                                                                       \
            for (uint32_t i = 0; i < n; i++)                                                       \
                h[i] = sqe_hash_u64(h[i] * 0x100000001b3ULL ^ (nl[i] ? NULL_HASH : (HEXPR)));      \
    } while (0)
    switch (kc) {
    case SQE_KEY_I64:
    case SQE_KEY_F64:
        HASH_LOOP(sqe_hash_u64((uint64_t)s[i].i));
        break;
    default:
        HASH_LOOP(sqe_key_hash(kc, &s[i]));
        break;
    }
#undef HASH_LOOP
}

/* Probe loop with an inlined equality test EQ (g = candidate group, i = row). */
#define PROBE_LOOP(EQ)                                                                             \
    for (uint32_t i = 0; i < n; i++) {                                                             \
        if (i + 8 < n) __builtin_prefetch(&t->slots[l->hash[i + 8] & t->mask]);                    \
        uint64_t h = l->hash[i];                                                                   \
        size_t pos = h & t->mask, probes = 0;                                                      \
        uint32_t g;                                                                                \
        for (;;) {                                                                                 \
            uint64_t s = t->slots[pos];                                                            \
            if (!s) {                                                                              \
                g = table_insert(t, h, l->tmp_keys, l->tmp_null, i, pos);                          \
                break;                                                                             \
            }                                                                                      \
            if ((s >> 32) == (h >> 32)) {                                                          \
                g = (uint32_t)s - 1;                                                               \
                if (EQ) break;                                                                     \
            }                                                                                      \
            pos = (pos + 1) & t->mask;                                                             \
            SQE_PROBE_STEP(probes, t->n_slots);                                                    \
        }                                                                                          \
        l->gidx[i] = g;                                                                            \
        if (op->stride) __builtin_prefetch(group_state(t, g));                                     \
    }

static bool consume(sqe_op *op_, void *l_, sqe_batch *b, uint64_t tag_base, sqe_error *err) {
    SQE_UNUSED(tag_base);
    hash_agg_op *op = (hash_agg_op *)op_;
    agg_local *l = l_;
    agg_table *t = l->t;
    const uint16_t *sel = b->sel;
    uint32_t n = sqe_batch_live(b);
    if (n == 0) return true;

    if (op->n_keys == 0) {
        uint8_t *st = op->stride ? group_state(t, 0) : NULL;
        for (uint32_t i = 0; i < n; i++) l->base[i] = st;
    } else {
        for (int k = 0; k < op->n_keys; k++) {
            sqe_vector *v = sqe_expr_eval(l->gstates[k], b, sel, n, err);
            if (!v) return false;
            sqe_key_load(v, sel, n, l->tmp_keys[k], l->tmp_null[k]);
            hash_column(l, op->kc[k], k, n);
        }
        if (t->i64_mode) {
            const uint8_t *nl = l->tmp_null[0];
            const sqe_key_slot *kk = l->tmp_keys[0];
            const uint64_t *hh = l->hash;
            enum { PF = 16 };
            for (uint32_t i = 0; i < n; i++) {
                if (i + PF < n) __builtin_prefetch(&t->islots[hh[i + PF] & t->mask]);
                uint32_t g;
                if (nl[i]) {
                    g = table_find_i64(t, hh[i], l->tmp_keys, l->tmp_null, i);
                } else {
                    int64_t key = kk[i].i;
                    size_t pos = hh[i] & t->mask, probes = 0;
                    for (;;) {
                        const i64_slot *sl = &t->islots[pos];
                        if (sl->key == key && sl->g1) {
                            g = (uint32_t)(sl->g1 - 1);
                            break;
                        }
                        if (!sl->g1) {
                            g = table_find_i64(t, hh[i], l->tmp_keys, l->tmp_null, i);
                            break;
                        }
                        pos = (pos + 1) & t->mask;
                        SQE_PROBE_STEP(probes, t->n_slots);
                    }
                }
                l->gidx[i] = g;
                if (op->stride) __builtin_prefetch(group_state(t, g));
            }
        } else if (op->n_keys == 1) {
            const sqe_key_slot *kk = l->tmp_keys[0];
            const uint8_t *nl = l->tmp_null[0];
            switch (op->kc[0]) {
            case SQE_KEY_STR:
                PROBE_LOOP(t->knull[0][g] == nl[i] &&
                           sqe_key_eq(SQE_KEY_STR, &t->keys[0][g], &kk[i]));
                break;
            default:
                PROBE_LOOP(t->knull[0][g] == nl[i] && t->keys[0][g].x == kk[i].x);
                break;
            }
        } else {
            PROBE_LOOP(keys_equal(t, g, l->tmp_keys, l->tmp_null, i));
        }
        if (op->stride)
            for (uint32_t i = 0; i < n; i++) l->base[i] = group_state(t, l->gidx[i]);
    }

    for (int a = 0; a < op->n_aggs; a++) {
        const sqe_agg_binding *ab = &op->aggs[a];
        const sqe_vector *arg = NULL;
        if (l->astates[a]) {
            arg = sqe_expr_eval(l->astates[a], b, sel, n, err);
            if (!arg) return false;
        }
        size_t off = op->offs[a];
        for (uint32_t i = 0; i < n; i++) l->sp[i] = l->base[i] + off;
        if (!ab->update(ab, l->sp, arg, sel, n, err)) return false;
        if (ab->mem_delta) t->owned += states_mem_delta(ab, l->sp, n);
    }
    return sqe_exec_mem_track(op_->ctx, &t->tracked, table_bytes(t), "HashAggregateExec", err);
}

/* Folds src into dst; src's states are moved (combine) and src is freed. */
static bool table_merge(hash_agg_op *op, agg_table *dst, agg_table *src, sqe_error *err) {
    int64_t owned_seen = dst->owned;
    for (size_t g = 0; g < src->n_groups; g++) {
        uint32_t gd = table_find(dst, src->hashes[g], src->keys, src->knull, g);
        if (op->stride) {
            uint8_t *ds = group_state(dst, gd), *ss = group_state(src, g);
            for (int a = 0; a < op->n_aggs; a++) {
                const sqe_agg_binding *ab = &op->aggs[a];
                bool ok = ab->combine(ab, ds + op->offs[a], ss + op->offs[a], err);
                if (ab->mem_delta) {
                    dst->owned += ab->mem_delta(ab, ds + op->offs[a]);
                    src->owned += ab->mem_delta(ab, ss + op->offs[a]);
                }
                if (!ok) {
                    table_free(src, g + 1);
                    return false;
                }
            }
        }
        /* Report every 4096 groups, and once states grew by 1 MiB since the
         * last report (one DISTINCT set can be most of the query's memory);
         * src first, as it shrinks while dst grows. */
        if ((g & 4095) == 4095 || dst->owned - owned_seen > (1 << 20)) {
            owned_seen = dst->owned;
            if (!sqe_exec_mem_track(op->base.ctx, &src->tracked, table_bytes(src),
                                    "HashAggregateExec", err) ||
                !sqe_exec_mem_track(op->base.ctx, &dst->tracked, table_bytes(dst),
                                    "HashAggregateExec", err)) {
                table_free(src, g + 1);
                return false;
            }
        }
    }
    table_free(src, src->n_groups);
    return sqe_exec_mem_track(op->base.ctx, &dst->tracked, table_bytes(dst), "HashAggregateExec",
                              err);
}

static bool merge(sqe_op *op_, void *l_, sqe_error *err) {
    hash_agg_op *op = (hash_agg_op *)op_;
    agg_local *l = l_;
    agg_table *t = l->t;
    l->t = NULL;
    local_free(op_, l);
    if (!op->global) {
        op->global = t;
        return true;
    }
    return table_merge(op, op->global, t, err);
}

static const sqe_sink_vtable agg_sink = {local_new, consume, merge, local_free};

/* -------------------------------------------------------------- operator */

static bool hash_agg_open(sqe_op *op_, sqe_error *err) {
    SQE_UNUSED(err);
    hash_agg_op *op = (hash_agg_op *)op_;
    const sqe_plan *p = op_->plan;
    op->n_keys = p->u.aggregate.n_groups;
    op->n_aggs = p->u.aggregate.n_aggs;
    op->aggs = p->u.aggregate.aggs;
    op->kc = sqe_calloc((size_t)(op->n_keys > 0 ? op->n_keys : 1), sizeof *op->kc);
    for (int k = 0; k < op->n_keys; k++)
        op->kc[k] = sqe_key_class_of(p->u.aggregate.groups[k]->type);
    op->offs = sqe_calloc((size_t)(op->n_aggs > 0 ? op->n_aggs : 1), sizeof *op->offs);
    size_t off = 0;
    for (int a = 0; a < op->n_aggs; a++) {
        op->offs[a] = off;
        off += (op->aggs[a].state_size + 15) & ~(size_t)15;
    }
    if (op->n_aggs > 0 && off == 0) off = 16; /* every group gets an addressable state */
    op->stride = off;
    op->out = sqe_batch_new(p->n_out, p->out_types);
    return true;
}

/* Empty grouping sets emit their row even when no input reached them: a
 * group whose keys are NULL but for the group id (the last key). Appended
 * after the drain, so the index is not needed any more. */
static void hash_agg_add_defaults(hash_agg_op *op) {
    const sqe_plan *p = op->base.plan;
    int nd = p->u.aggregate.n_default_groups, nk = op->n_keys;
    if (!nd || nk < 1) return;
    if (!op->global) op->global = table_new(op);
    agg_table *t = op->global;
    for (int d = 0; d < nd; d++) {
        int64_t id = p->u.aggregate.default_gids[d];
        bool found = false;
        for (size_t g = 0; g < t->n_groups && !found; g++)
            found = !t->knull[nk - 1][g] && t->keys[nk - 1][g].i == id;
        if (found) continue;
        sqe_key_slot *slots = sqe_calloc((size_t)nk, sizeof *slots);
        uint8_t *nulls = sqe_calloc((size_t)nk, 1);
        sqe_key_slot **kp = sqe_calloc((size_t)nk, sizeof *kp);
        uint8_t **np = sqe_calloc((size_t)nk, sizeof *np);
        for (int k = 0; k < nk; k++) {
            kp[k] = &slots[k];
            np[k] = &nulls[k];
            nulls[k] = k < nk - 1;
        }
        slots[nk - 1].i = id;
        group_append(t, 0, kp, np, 0);
        sqe_free(slots);
        sqe_free(nulls);
        sqe_free(kp);
        sqe_free(np);
    }
}

static bool hash_agg_next(sqe_op *op_, sqe_batch **out, bool *eof, sqe_error *err) {
    hash_agg_op *op = (hash_agg_op *)op_;
    if (!op->built) {
        if (!sqe_exec_drain(op_, 0, &agg_sink, err)) return false;
        op->built = true;
        hash_agg_add_defaults(op);
    }
    agg_table *t = op->global;
    if (!t || op->out_pos >= t->n_groups) {
        *eof = true;
        return true;
    }
    uint32_t m = (uint32_t)SQE_MIN((size_t)SQE_BATCH_ROWS, t->n_groups - op->out_pos);
    sqe_batch *b = op->out;
    sqe_batch_reset(b);
    for (int k = 0; k < op->n_keys; k++)
        sqe_key_store(b->cols[k], 0, t->keys[k] + op->out_pos, t->knull[k] + op->out_pos, m);
    for (int a = 0; a < op->n_aggs; a++) {
        const sqe_agg_binding *ab = &op->aggs[a];
        sqe_vector *v = b->cols[op->n_keys + a];
        for (uint32_t r = 0; r < m; r++)
            if (!ab->finalize(ab, group_state(t, op->out_pos + r) + op->offs[a], v, r, err))
                return false;
    }
    b->n_rows = m;
    op->out_pos += m;
    *eof = false;
    *out = b;
    return true;
}

static void hash_agg_close(sqe_op *op_) {
    hash_agg_op *op = (hash_agg_op *)op_;
    table_free(op->global, 0);
    op->global = NULL;
    sqe_batch_free(op->out);
    op->out = NULL;
    sqe_free(op->kc);
    op->kc = NULL;
    sqe_free(op->offs);
    op->offs = NULL;
}

static const sqe_op_vtable hash_agg_vtable = {"HashAggregateExec", hash_agg_open, hash_agg_next,
                                              hash_agg_close};

sqe_op *sqe_exec_hash_agg_new(sqe_exec_ctx *ctx, const sqe_plan *p) {
    hash_agg_op *op = sqe_calloc(1, sizeof *op);
    op->base.vt = &hash_agg_vtable;
    op->base.plan = p;
    op->base.ctx = ctx;
    return &op->base;
}
