/*
 * hash_agg.c - HashAggregateExec: GROUP BY (and DISTINCT, and global
 * aggregates) over hash tables of typed keys, radix-partitioned for a
 * parallel merge and spilling to temporary files when the groups do not fit
 * in the query's memory limit.
 *
 * Output: the group keys, then one column per aggregate. With no group keys
 * there is exactly one group, created up front, so a global aggregate emits
 * one row even on empty input. DISTINCT arrives as groups without
 * aggregates (state size 0). FILTER (WHERE c) arrives folded into the
 * argument by the binder (agg(CASE WHEN c THEN x END)).
 *
 * The table (agg_table):
 *   keys[k][g], knull[k][g]  group g's normalized key slot for key k (keys.c);
 *                            long strings copied into the table's arena
 *   hashes[g]                the group's full hash (rehash, merge, partition)
 *   slots[]                  open addressing, linear probing: (hash >> 32) << 32
 *                            | (g + 1), 0 = empty; grown at 50% load
 *   islots[]                 instead of slots when there is one integer-like or
 *                            floating key: {key, g + 1}, so a probe costs one
 *                            cache miss (Q7: 100k bigint groups); the NULL
 *                            group lives outside the index (null_g1)
 *   chunks[]                 per-group aggregate states, `stride` bytes per
 *                            group, each aggregate at a 16-byte aligned offset;
 *                            chunks of 64, 64, 128, 256, 512 groups, then 1024
 *                            each (a small sub-table stays small); states
 *                            never move (init on insert, destroy at close)
 * The slot index uses the hash's low bits, partitions its top bits.
 *
 * Per batch (consume): evaluate the key expressions, load them into slots
 * column by column, hash column by column, probe row by row (specialized
 * loops for one integer-like, floating, decimal or string key, a generic
 * loop otherwise), gather one state pointer per row, and call each
 * aggregate's update once for the whole batch.
 *
 * Dictionary keys. With one key whose vector carries a dictionary
 * (vector.h) of at most AGG_DICT_MAX entries, and states that exist and own
 * no memory, a local caches per entry the state (and partition) of its
 * group: a batch whose rows all hit the cache goes straight to the
 * aggregates' update; otherwise the batch takes the ordinary path and
 * dict_learn fills the cache from its probe. The cache belongs to one
 * dictionary and empties on another one or on the split (states move).
 *
 * Partitions. Group g belongs to partition agg_part(hash, 0), the top
 * AGG_PART_BITS bits of its hash. Each pipeline copy (sink local) starts with
 * one table; once it holds AGG_SPLIT_GROUPS groups (under a memory limit:
 * an eighth of a thread's share) it is split into AGG_PARTS sub-tables, one
 * per partition, and every later row goes to its partition's sub-table.
 * Small aggregates never split and finish as before: the locals are folded
 * into the first in copy order (insertion order of groups, deterministic
 * for inputs run as one copy). Otherwise every local is split at the end
 * and partition p of the result is the combine of the locals' sub-tables p
 * (the first in copy order adopted and sized for all of them, the others
 * folded in and freed chunk by chunk), one task per partition on the
 * query's pool (agg_parallel): the merge of 10M groups runs on every core,
 * and its extra memory is about one partition per running task, not a
 * second copy of everything. Merges walk groups in insertion order, never
 * the index in slot order: a slot-order walk feeds keys in hash order into a
 * table placing them by the same bits, and once the two tables together
 * outnumber the slots the inserts pile into one cluster that grows with
 * every insert (issue 11). Every probe loop counts its steps with
 * SQE_PROBE_STEP.
 *
 * Spilling (no serialized states). Before each batch a local reserves the
 * memory the batch could add (every row a new group, index doublings
 * included: table_bytes_after) with sqe_exec_mem_reserve. When that fails
 * the batch runs without inserting: rows whose group exists update it in
 * place, rows with a new key are written (key values, then every
 * aggregate's evaluated argument; FILTER is inside the argument) to the
 * spill file of their partition, shared by the copies (one mutex per
 * partition). When some aggregate's states own heap memory (DISTINCT sets,
 * varchar min/max), such a batch writes all its rows, so a full table
 * never grows. Correct because partition p's answer is "combine every
 * local's groups of p, then update with every spilled row of p", whatever
 * split of rows between tables and files the drain made.
 *
 * Output is produced partition by partition (a job stack, hash_agg_next).
 * Job (level, file, table): after a spill, first merge the locals'
 * sub-tables of the partition (one partition at a time, so merging never
 * needs much more memory than the drain held); then feed the file's rows
 * into the table; while the table can reserve its growth and the query
 * keeps out_room free for the output, new keys are inserted; once it
 * cannot it is full for good and rows with new keys go to AGG_KIDS child
 * files partitioned by the next AGG_KID_BITS hash bits (level + 1). Rows of
 * existing groups always update in place, so a key never lives both in the
 * emitted table and in a child file. The table is emitted and freed, then
 * its children become jobs (depth first: memory comes back before the next
 * partition). Level AGG_MAX_LEVELS is refused with RESOURCE_EXHAUSTED. The
 * no-key global aggregate never spills.
 *
 * Memory: every byte a table holds is tracked (table_bytes: index, keys,
 * states, arena, and the heap bytes states own, summed from mem_delta). A
 * local tracks all its tables in one counter; a merge task or the jobs
 * track their tables in one counter, so moving bytes between tables never
 * races with other threads for the limit. Under a memory limit the
 * operator reserves a headroom before the drain (the level-0 files' 64 KiB
 * write buffers come out of it) and gives it back when the drain ends;
 * after a spill it holds the jobs' buffers (a read buffer and batch, the
 * child files' buffers) and a floor of working room (limit / 16) that
 * emitted tables refill, so the result queue cannot take every byte an
 * emitted table gives back. A merge task reserves about the bytes it may
 * add before it starts and waits for running tasks when that fails. Work
 * that cannot fit in any order fails with RESOURCE_EXHAUSTED naming
 * HashAggregateExec, never aborts.
 */
#include "exec/exec_int.h"

#define STATE_CHUNK_SHIFT 10
#define STATE_CHUNK (1u << STATE_CHUNK_SHIFT)
#define STATE_FIRST_SHIFT 6 /* the first chunk: 64 groups */
#define NULL_HASH 0x2545f4914f6cdd1dULL
#define EMPTY_KEYS_HASH 0x9e3779b97f4a7c15ULL
#define AGG_PART_BITS 5
#define AGG_PARTS (1 << AGG_PART_BITS)
#define AGG_KID_BITS 3 /* below level 0: 8 children per partition */
#define AGG_KIDS (1 << AGG_KID_BITS)
#define AGG_MAX_LEVELS 6 /* levels 0..5 of partitioning: 5 + 5 * 3 = 20 hash bits */
#define AGG_SPLIT_GROUPS 32768
#define AGG_MISS UINT32_MAX
/* Growth estimate per row and aggregate whose states own memory. */
#define AGG_OWNED_ROW_BYTES 256
#define AGG_ROOM_MAX ((size_t)64 << 20)
/* A dictionary key with at most this many entries gets a per-entry cache. */
#define AGG_DICT_MAX 65536

static const char AGG_NAME[] = "HashAggregateExec";

/* The partition of a hash at a level: the top AGG_PART_BITS bits at level
 * 0, the next AGG_KID_BITS at each level below (the slot index uses the
 * low bits). */
static inline unsigned agg_part(uint64_t h, int level) {
    if (level == 0) return (unsigned)(h >> (64 - AGG_PART_BITS));
    return (unsigned)(h >> (64 - AGG_PART_BITS - AGG_KID_BITS * level)) & (AGG_KIDS - 1);
}

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
    size_t freed;   /* bytes of state chunks freed after their states moved out */
    size_t tracked; /* bytes reported to the query */
} agg_table;

typedef struct agg_local agg_local;

/* A partition still to emit: feed `file` (NULL: none) into `table` (NULL:
 * a new one), emit it, then its overflow at level + 1. */
typedef struct agg_job {
    int level;
    sqe_spill_file *file;
    agg_table *table;
    int part; /* level 0 after a spill: merge the locals' sub-tables part first */
    bool merge;
} agg_job;

struct hash_agg_op {
    sqe_op base;
    int n_keys, n_aggs;
    sqe_key_class *kc;
    const sqe_agg_binding *aggs;
    size_t *offs;
    size_t stride;
    /* A spilled row: the key values, then one column per aggregate with an
     * argument (arg_col[a], -1 for count(*)). Types of n_spill_cols columns. */
    int n_spill_cols;
    sqe_type *spill_types;
    int *arg_col;
    int n_owning; /* aggregates whose states own heap memory (mem_delta) */
    /* drain */
    SQE_ARRAY(agg_local *) locals; /* merged locals, in copy order */
    bool sync_init;
    pthread_mutex_t mu; /* headroom, files_tracked, the merge gate, first error */
    pthread_cond_t cv;
    pthread_mutex_t file_mu[AGG_PARTS];
    sqe_spill_file *files[AGG_PARTS]; /* level 0: rows of new keys, shared by the copies */
    atomic_bool spilled;
    size_t headroom;      /* reserved before the drain, given back after it */
    size_t files_tracked; /* write buffers of files[] */
    /* partition merge */
    int gate_active;
    atomic_bool failed; /* a merge task failed (part_err under mu) */
    sqe_error part_err;
    agg_table *parts[AGG_PARTS];
    /* output */
    bool built;
    agg_table *cur; /* the table being emitted */
    size_t out_pos;
    SQE_ARRAY(agg_job) jobs;
    sqe_spill_file *feeding;         /* the file being fed (closed on error paths) */
    sqe_spill_file *kids[AGG_PARTS]; /* cur's overflow (level kid_level) */
    int kid_level;
    size_t job_tracked;  /* cur while it is fed, the batch read back, at least job_floor */
    size_t job_floor;    /* working room kept by the jobs until close */
    size_t bufs_tracked; /* I/O buffers of the jobs: one read, AGG_PARTS children, a batch */
    size_t batch_fixed;  /* value arrays of one batch read back */
    agg_local *scratch;  /* key slots and hashes of rows read back */
    sqe_batch *in;       /* a batch read back from a spill file */
    sqe_batch *out;
};

static inline uint8_t *group_state(const agg_table *t, size_t g) {
    size_t c, o;
    if (SQE_LIKELY(g >= STATE_CHUNK)) {
        c = (g >> STATE_CHUNK_SHIFT) + (STATE_CHUNK_SHIFT - STATE_FIRST_SHIFT);
        o = g & (STATE_CHUNK - 1);
    } else if (g < ((size_t)1 << STATE_FIRST_SHIFT)) {
        c = 0;
        o = g;
    } else {
        int b = 63 - __builtin_clzll((unsigned long long)g);
        c = (size_t)(b - STATE_FIRST_SHIFT + 1);
        o = g - ((size_t)1 << b);
    }
    return t->chunks.items[c] + o * t->op->stride;
}

/* Groups the state chunks of a table of n groups hold. */
static inline size_t state_cap(size_t n) {
    if (n == 0) return 0;
    if (n <= ((size_t)1 << STATE_FIRST_SHIFT)) return (size_t)1 << STATE_FIRST_SHIFT;
    if (n <= STATE_CHUNK) return (size_t)1 << (64 - __builtin_clzll((unsigned long long)n - 1));
    return (n + STATE_CHUNK - 1) & ~(size_t)(STATE_CHUNK - 1);
}

static size_t table_bytes(const agg_table *t) {
    const hash_agg_op *op = t->op;
    return t->cap * ((size_t)op->n_keys * (sizeof(sqe_key_slot) + 1) + sizeof(uint64_t)) +
           t->n_slots * (t->i64_mode ? sizeof(i64_slot) : sizeof(uint64_t)) +
           (op->stride ? state_cap(t->n_groups) * op->stride : 0) - t->freed +
           (t->strings ? sqe_arena_used(t->strings) : 0) + (t->owned > 0 ? (size_t)t->owned : 0);
}

/* After the states of groups 0..g moved out (a merge or split walking in
 * insertion order): frees the chunk g ends, so the source shrinks as the
 * destination grows. */
static void free_moved_chunk(agg_table *t, size_t g) {
    size_t n = g + 1;
    if (!t->op->stride || state_cap(n) != n || n < ((size_t)1 << STATE_FIRST_SHIFT)) return;
    size_t c = n <= STATE_CHUNK
                   ? (size_t)(63 - __builtin_clzll((unsigned long long)n)) - STATE_FIRST_SHIFT
                   : (n >> STATE_CHUNK_SHIFT) + (STATE_CHUNK_SHIFT - STATE_FIRST_SHIFT) - 1;
    size_t len =
        n <= ((size_t)1 << STATE_FIRST_SHIFT) ? n : (n <= STATE_CHUNK ? n / 2 : STATE_CHUNK);
    sqe_free(t->chunks.items[c]);
    t->chunks.items[c] = NULL;
    t->freed += len * t->op->stride;
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

/* Rebuilds the index with n slots (a power of two). */
static void table_rehash(agg_table *t, size_t n) {
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
    if (t->n_groups * 2 > t->n_slots) table_rehash(t, t->n_slots * 2);
}

/* Makes room for n groups at once (a merge that knows its inputs): one
 * rebuild of the index and one copy of the key arrays instead of a
 * doubling every time the table fills up. */
static void table_reserve(agg_table *t, size_t n) {
    const hash_agg_op *op = t->op;
    if (n > t->cap) {
        for (int k = 0; k < op->n_keys; k++) {
            t->keys[k] = sqe_realloc(t->keys[k], n * sizeof **t->keys);
            t->knull[k] = sqe_realloc(t->knull[k], n);
        }
        t->hashes = sqe_realloc(t->hashes, n * sizeof *t->hashes);
        t->cap = n;
    }
    size_t slots = t->n_slots;
    while (n * 2 > slots) slots *= 2;
    if (slots != t->n_slots) table_rehash(t, slots);
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
            if (!t->strings) t->strings = sqe_arena_new(0);
            char *p = sqe_arena_alloc(t->strings, s.s.len);
            memcpy(p, s.s.u.ptr, s.s.len);
            s.s.u.ptr = p;
        }
        t->keys[k][g] = s;
        t->knull[k][g] = nulls[k][idx];
    }
    t->hashes[g] = h;
    if (op->stride > 0 && state_cap(g + 1) > state_cap(g)) {
        uint8_t *chunk = sqe_malloc((state_cap(g + 1) - state_cap(g)) * op->stride);
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
    sqe_exec_mem_track(op->base.ctx, &t->tracked, 0, AGG_NAME, NULL);
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

/* Upper bound of table_bytes(t) after k more groups (without their long
 * strings and owned memory), including the old index while a doubling
 * rebuilds it. */
static size_t table_bytes_after(const agg_table *t, size_t k) {
    const hash_agg_op *op = t->op;
    size_t n = t->n_groups + k, cap = t->cap, slots = t->n_slots;
    while (cap < n) cap = cap ? cap * 2 : 64;
    while (n * 2 > slots) slots *= 2;
    size_t slot_w = t->i64_mode ? sizeof(i64_slot) : sizeof(uint64_t);
    size_t b = cap * ((size_t)op->n_keys * (sizeof(sqe_key_slot) + 1) + sizeof(uint64_t)) +
               slots * slot_w + state_cap(n) * op->stride +
               (t->strings ? sqe_arena_used(t->strings) : 0) +
               (t->owned > 0 ? (size_t)t->owned : 0);
    if (slots != t->n_slots) b += slots / 2 * slot_w;
    return b;
}

/* Moves up to `want` tracked bytes from counter *from to counter *to; the
 * query's total does not change. */
static void track_move(size_t *from, size_t *to, size_t want) {
    size_t m = want < *from ? want : *from;
    *from -= m;
    *to += m;
}

/* Sets counter *tracked to now: within the limit when possible, else
 * tracked anyway and failing with RESOURCE_EXHAUSTED when over it. */
static bool track_to(hash_agg_op *op, size_t *tracked, size_t now, sqe_error *err) {
    if (sqe_exec_mem_reserve(op->base.ctx, tracked, now)) return true;
    return sqe_exec_mem_track(op->base.ctx, tracked, now, AGG_NAME, err);
}

/* Heap bytes the owning aggregates of group state gs may allocate in their
 * next update with n rows (other NULL) or combine of other's states. */
static size_t owned_grow_need(const hash_agg_op *op, const uint8_t *gs, const uint8_t *other,
                              sqe_vector *const *vecs, const uint16_t *sel, uint32_t n) {
    size_t need = 0;
    for (int a = 0; a < op->n_aggs; a++) {
        const sqe_agg_binding *ab = &op->aggs[a];
        if (!ab->grow_need) continue;
        const sqe_vector *arg = vecs && op->arg_col[a] >= 0 ? vecs[op->arg_col[a]] : NULL;
        need +=
            ab->grow_need(ab, gs + op->offs[a], other ? other + op->offs[a] : NULL, arg, sel, n);
    }
    return need;
}

/* Reserves `need` bytes above `now` on *tracked before states grow into
 * them; RESOURCE_EXHAUSTED naming the operator when the limit refuses. */
static bool reserve_owned(hash_agg_op *op, size_t *tracked, size_t now, size_t need,
                          sqe_error *err) {
    if (!need || !op->base.ctx->memory_limit) return true;
    if (now + need <= *tracked || sqe_exec_mem_reserve(op->base.ctx, tracked, now + need))
        return true;
    return sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED,
                         "query exceeded the memory limit of %zu bytes in %s",
                         op->base.ctx->memory_limit, AGG_NAME);
}

/* Moves the states of src's group g into dst's group gd (combine into a
 * state dst already holds; a new group's state is freshly init'ed). */
static bool move_states(hash_agg_op *op, agg_table *dst, uint32_t gd, agg_table *src, size_t g,
                        sqe_error *err) {
    if (!op->stride) return true;
    uint8_t *ds = group_state(dst, gd), *ss = group_state(src, g);
    for (int a = 0; a < op->n_aggs; a++) {
        const sqe_agg_binding *ab = &op->aggs[a];
        bool ok = ab->combine(ab, ds + op->offs[a], ss + op->offs[a], err);
        if (ab->mem_delta) {
            dst->owned += ab->mem_delta(ab, ds + op->offs[a]);
            src->owned += ab->mem_delta(ab, ss + op->offs[a]);
        }
        if (!ok) return false;
    }
    return true;
}

/* Folds src into dst (src's states moved by combine) and frees src. One
 * counter *tracked covers dst, src and `rest` other bytes (tables of the
 * same merge not folded yet); it is raised as dst grows. */
static bool table_merge(hash_agg_op *op, agg_table *dst, agg_table *src, size_t *tracked,
                        size_t rest, sqe_error *err) {
    int64_t owned_seen = dst->owned;
    for (size_t g = 0; g < src->n_groups; g++) {
        if (g + 8 < src->n_groups) { /* the slot of a group a few ahead */
            size_t pos = src->hashes[g + 8] & dst->mask;
            if (dst->i64_mode)
                __builtin_prefetch(&dst->islots[pos]);
            else
                __builtin_prefetch(&dst->slots[pos]);
        }
        uint32_t gd = table_find(dst, src->hashes[g], src->keys, src->knull, g);
        if (op->n_owning && op->stride &&
            !reserve_owned(
                op, tracked, table_bytes(dst) + table_bytes(src) + rest,
                owned_grow_need(op, group_state(dst, gd), group_state(src, g), NULL, NULL, 0),
                err)) {
            table_free(src, g);
            return false;
        }
        if (!move_states(op, dst, gd, src, g, err)) {
            table_free(src, g + 1);
            return false;
        }
        free_moved_chunk(src, g);
        /* Every 4096 groups, and once states grew by 1 MiB since the last
         * check (one DISTINCT set can be most of the query's memory). */
        if ((g & 4095) == 4095 || dst->owned - owned_seen > (1 << 20)) {
            owned_seen = dst->owned;
            size_t now = table_bytes(dst) + table_bytes(src) + rest;
            if (now > *tracked && !track_to(op, tracked, now, err)) {
                table_free(src, g + 1);
                return false;
            }
        }
    }
    table_free(src, src->n_groups);
    size_t now = table_bytes(dst) + rest;
    return now <= *tracked || track_to(op, tracked, now, err);
}

/* Moves every group of t into AGG_PARTS new tables by partition (level 0);
 * frees t. *tracked covers t and the new tables. */
static agg_table **table_split(hash_agg_op *op, agg_table *t, size_t *tracked, sqe_error *err) {
    agg_table **parts = sqe_calloc(AGG_PARTS, sizeof *parts);
    for (int p = 0; p < AGG_PARTS; p++) parts[p] = table_new(op);
    bool ok = true;
    size_t g = 0;
    for (; g < t->n_groups && ok; g++) {
        agg_table *d = parts[agg_part(t->hashes[g], 0)];
        uint32_t gd = table_find(d, t->hashes[g], t->keys, t->knull, g);
        ok = move_states(op, d, gd, t, g, err);
        if (ok) free_moved_chunk(t, g);
        if (ok && (g & 4095) == 4095) {
            size_t now = table_bytes(t);
            for (int p = 0; p < AGG_PARTS; p++) now += table_bytes(parts[p]);
            if (now > *tracked) ok = track_to(op, tracked, now, err);
        }
    }
    table_free(t, ok ? t->n_groups : g);
    size_t now = 0;
    for (int p = 0; p < AGG_PARTS; p++) now += table_bytes(parts[p]);
    if (ok) ok = track_to(op, tracked, now, err);
    if (ok) return parts;
    for (int p = 0; p < AGG_PARTS; p++) table_free(parts[p], 0);
    sqe_free(parts);
    return NULL;
}

/* ----------------------------------------------------------- local state */

/* A pipeline copy's state: its table(s), expression states and per-batch
 * scratch. Also used without expression states to feed spilled rows. */
struct agg_local {
    agg_table *t;      /* before the split */
    agg_table **parts; /* after it: AGG_PARTS sub-tables */
    size_t tracked;    /* every byte of t / parts */
    sqe_expr_state **gstates, **astates;
    sqe_vector **vecs; /* n_spill_cols: this batch's key and argument vectors */
    sqe_key_slot **tmp_keys;
    uint8_t **tmp_null;
    uint64_t *hash;
    uint32_t *gidx;
    uint8_t **base;
    uint8_t *hpart; /* per hit row: its partition (split tables) */
    void **sp;
    uint16_t *hsel, *msel, *psel;
    /* Per-entry cache for a single key read from a dictionary (vector.h):
     * entry e's group state dict_base[e] (NULL: not seen yet) and partition
     * dict_part[e], for dictionary dict_id (0: none). States never move
     * until the table is split, which empties the cache. */
    uint64_t dict_id;
    uint32_t dict_cap;
    uint8_t **dict_base;
    uint8_t *dict_part;
};

static size_t local_bytes(const agg_local *l) {
    if (!l->parts) return l->t ? table_bytes(l->t) : 0;
    size_t b = 0;
    for (int p = 0; p < AGG_PARTS; p++)
        if (l->parts[p]) b += table_bytes(l->parts[p]);
    return b;
}

static void local_free(sqe_op *op_, void *l_) {
    hash_agg_op *op = (hash_agg_op *)op_;
    agg_local *l = l_;
    if (!l) return;
    if (l->t) table_free(l->t, 0);
    if (l->parts)
        for (int p = 0; p < AGG_PARTS; p++) table_free(l->parts[p], 0);
    sqe_free(l->parts);
    sqe_free(l->dict_base);
    sqe_free(l->dict_part);
    sqe_exec_mem_reserve(op_->ctx, &l->tracked, 0);
    int nk = op->n_keys > 0 ? op->n_keys : 1;
    for (int k = 0; k < nk; k++) {
        if (l->gstates) sqe_expr_state_free(l->gstates[k]);
        sqe_free(l->tmp_keys[k]);
        sqe_free(l->tmp_null[k]);
    }
    for (int a = 0; a < op->n_aggs && l->astates; a++) sqe_expr_state_free(l->astates[a]);
    sqe_free(l->gstates);
    sqe_free(l->astates);
    sqe_free(l->vecs);
    sqe_free(l->tmp_keys);
    sqe_free(l->tmp_null);
    sqe_free(l->hash);
    sqe_free(l->gidx);
    sqe_free(l->base);
    sqe_free(l->hpart);
    sqe_free(l->sp);
    sqe_free(l->hsel);
    sqe_free(l->msel);
    sqe_free(l->psel);
    sqe_free(l);
}

/* Scratch only (no table, no expression states). */
static agg_local *local_scratch(const hash_agg_op *op) {
    agg_local *l = sqe_calloc(1, sizeof *l);
    int nk = op->n_keys > 0 ? op->n_keys : 1;
    l->tmp_keys = sqe_calloc((size_t)nk, sizeof *l->tmp_keys);
    l->tmp_null = sqe_calloc((size_t)nk, sizeof *l->tmp_null);
    for (int k = 0; k < nk; k++) {
        l->tmp_keys[k] = sqe_malloc(SQE_BATCH_ROWS * sizeof(sqe_key_slot));
        l->tmp_null[k] = sqe_malloc(SQE_BATCH_ROWS);
    }
    l->vecs = sqe_calloc((size_t)(op->n_spill_cols > 0 ? op->n_spill_cols : 1), sizeof *l->vecs);
    l->hash = sqe_malloc(SQE_BATCH_ROWS * sizeof *l->hash);
    l->gidx = sqe_malloc(SQE_BATCH_ROWS * sizeof *l->gidx);
    l->base = sqe_malloc(SQE_BATCH_ROWS * sizeof *l->base);
    l->hpart = sqe_malloc(SQE_BATCH_ROWS);
    l->sp = sqe_malloc(SQE_BATCH_ROWS * sizeof *l->sp);
    l->hsel = sqe_malloc(SQE_BATCH_ROWS * sizeof *l->hsel);
    l->msel = sqe_malloc(SQE_BATCH_ROWS * sizeof *l->msel);
    l->psel = sqe_malloc(SQE_BATCH_ROWS * sizeof *l->psel);
    return l;
}

static void *local_new(sqe_op *op_) {
    hash_agg_op *op = (hash_agg_op *)op_;
    const sqe_plan *p = op_->plan;
    agg_local *l = local_scratch(op);
    l->t = table_new(op);
    int nk = op->n_keys > 0 ? op->n_keys : 1, na = op->n_aggs > 0 ? op->n_aggs : 1;
    l->gstates = sqe_calloc((size_t)nk, sizeof *l->gstates);
    for (int k = 0; k < op->n_keys; k++)
        l->gstates[k] = sqe_exec_expr_state_new(op_, p->u.aggregate.groups[k], NULL);
    l->astates = sqe_calloc((size_t)na, sizeof *l->astates);
    for (int a = 0; a < op->n_aggs; a++)
        if (op->arg_col[a] >= 0)
            l->astates[a] = sqe_exec_expr_state_new(op_, p->u.aggregate.agg_args[a], NULL);
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

/* Loads and hashes the keys of rows (sel, n) of the key vectors vecs[0..n_keys). */
static void load_keys(const hash_agg_op *op, agg_local *l, sqe_vector *const *vecs,
                      const uint16_t *sel, uint32_t n) {
    for (int k = 0; k < op->n_keys; k++) {
        sqe_key_load(vecs[k], sel, n, l->tmp_keys[k], l->tmp_null[k]);
        hash_column(l, op->kc[k], k, n);
    }
}

/* ----------------------------------------------------------------- probe */

/* The table of row i: its partition's sub-table when split. */
#define ROW_TABLE(i) tabs[split ? (unsigned)(l->hash[i] >> (64 - AGG_PART_BITS)) : 0u]

static void probe_i64(const hash_agg_op *op, agg_local *l, agg_table *const *tabs, bool split,
                      bool insert, uint32_t n) {
    const uint8_t *nl = l->tmp_null[0];
    const sqe_key_slot *kk = l->tmp_keys[0];
    const uint64_t *hh = l->hash;
    enum { PF = 16 };
    for (uint32_t i = 0; i < n; i++) {
        if (i + PF < n) {
            const agg_table *pt = ROW_TABLE(i + PF);
            __builtin_prefetch(&pt->islots[hh[i + PF] & pt->mask]);
        }
        agg_table *t = ROW_TABLE(i);
        uint32_t g = AGG_MISS;
        if (nl[i]) {
            if (insert || t->null_g1) g = table_find_i64(t, hh[i], l->tmp_keys, l->tmp_null, i);
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
                    if (insert) g = table_find_i64(t, hh[i], l->tmp_keys, l->tmp_null, i);
                    break;
                }
                pos = (pos + 1) & t->mask;
                SQE_PROBE_STEP(probes, t->n_slots);
            }
        }
        l->gidx[i] = g;
        if (g != AGG_MISS && op->stride) {
            l->base[i] = group_state(t, g);
            __builtin_prefetch(l->base[i]);
        }
    }
}

/* Probe loop with an inlined equality test EQ (c = candidate group, i = row). */
#define PROBE_LOOP(EQ)                                                                             \
    for (uint32_t i = 0; i < n; i++) {                                                             \
        if (i + 8 < n) {                                                                           \
            const agg_table *pt = ROW_TABLE(i + 8);                                                \
            __builtin_prefetch(&pt->slots[l->hash[i + 8] & pt->mask]);                             \
        }                                                                                          \
        agg_table *t = ROW_TABLE(i);                                                               \
        uint64_t h = l->hash[i];                                                                   \
        size_t pos = h & t->mask, probes = 0;                                                      \
        uint32_t g = AGG_MISS;                                                                     \
        for (;;) {                                                                                 \
            uint64_t s = t->slots[pos];                                                            \
            if (!s) {                                                                              \
                if (insert) g = table_insert(t, h, l->tmp_keys, l->tmp_null, i, pos);              \
                break;                                                                             \
            }                                                                                      \
            if ((s >> 32) == (h >> 32)) {                                                          \
                uint32_t c = (uint32_t)s - 1;                                                      \
                if (EQ) {                                                                          \
                    g = c;                                                                         \
                    break;                                                                         \
                }                                                                                  \
            }                                                                                      \
            pos = (pos + 1) & t->mask;                                                             \
            SQE_PROBE_STEP(probes, t->n_slots);                                                    \
        }                                                                                          \
        l->gidx[i] = g;                                                                            \
        if (g != AGG_MISS && op->stride) {                                                         \
            l->base[i] = group_state(t, g);                                                        \
            __builtin_prefetch(l->base[i]);                                                        \
        }                                                                                          \
    }

/* Finds the group of every loaded row i < n: l->gidx[i] and its state
 * l->base[i], or AGG_MISS for a new key when !insert. */
static void probe(const hash_agg_op *op, agg_local *l, agg_table *const *tabs, bool split,
                  bool insert, uint32_t n) {
    if (tabs[0]->i64_mode) {
        probe_i64(op, l, tabs, split, insert, n);
    } else if (op->n_keys == 1) {
        const sqe_key_slot *kk = l->tmp_keys[0];
        const uint8_t *nl = l->tmp_null[0];
        if (op->kc[0] == SQE_KEY_STR) {
            PROBE_LOOP(t->knull[0][c] == nl[i] && sqe_key_eq(SQE_KEY_STR, &t->keys[0][c], &kk[i]));
        } else {
            PROBE_LOOP(t->knull[0][c] == nl[i] && t->keys[0][c].x == kk[i].x);
        }
    } else {
        PROBE_LOOP(keys_equal(t, c, l->tmp_keys, l->tmp_null, i));
    }
}

/* Splits rows 0..n into hits (l->hsel physical rows, l->base, l->hpart
 * compacted to 0..*nh) and misses (l->msel physical rows, l->hash
 * compacted to 0..*nm); all rows are misses when all_miss. */
static void split_rows(agg_local *l, const uint16_t *sel, uint32_t n, bool all_miss, uint32_t *nh,
                       uint32_t *nm) {
    uint32_t h = 0, m = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint16_t r = sel ? sel[i] : (uint16_t)i;
        uint64_t hv = l->hash[i];
        if (l->gidx[i] != AGG_MISS && !all_miss) {
            l->hsel[h] = r;
            l->base[h] = l->base[i];
            l->hpart[h] = (uint8_t)(hv >> (64 - AGG_PART_BITS));
            h++;
        } else {
            l->msel[m] = r;
            l->hash[m] = hv;
            m++;
        }
    }
    *nh = h;
    *nm = m;
}

/* Updates every aggregate for rows (sel, n) whose states are l->base[0..n),
 * arguments in vecs; owned bytes go to the row's table. */
static bool update_rows(const hash_agg_op *op, agg_local *l, agg_table *const *tabs, bool split,
                        sqe_vector *const *vecs, const uint16_t *sel, uint32_t n, sqe_error *err) {
    for (int a = 0; a < op->n_aggs; a++) {
        const sqe_agg_binding *ab = &op->aggs[a];
        const sqe_vector *arg = op->arg_col[a] >= 0 ? vecs[op->arg_col[a]] : NULL;
        size_t off = op->offs[a];
        for (uint32_t i = 0; i < n; i++) l->sp[i] = l->base[i] + off;
        if (!ab->update(ab, l->sp, arg, sel, n, err)) return false;
        if (!ab->mem_delta) continue;
        if (!split) {
            tabs[0]->owned += states_mem_delta(ab, l->sp, n);
            continue;
        }
        for (uint32_t i = 0; i < n; i++)
            if (i == 0 || l->sp[i] != l->sp[i - 1])
                tabs[l->hpart[i]]->owned += ab->mem_delta(ab, l->sp[i]);
    }
    return true;
}

/* Bytes a batch of n loaded rows may add to tabs: every row a new group. */
static size_t grow_estimate(const hash_agg_op *op, const agg_local *l, agg_table *const *tabs,
                            bool split, uint32_t n) {
    size_t est = 0;
    if (split) {
        uint32_t cnt[AGG_PARTS] = {0};
        for (uint32_t i = 0; i < n; i++) cnt[l->hash[i] >> (64 - AGG_PART_BITS)]++;
        for (int p = 0; p < AGG_PARTS; p++)
            if (cnt[p]) est += table_bytes_after(tabs[p], cnt[p]) - table_bytes(tabs[p]);
    } else {
        est = table_bytes_after(tabs[0], n) - table_bytes(tabs[0]);
    }
    for (int k = 0; k < op->n_keys; k++) {
        if (op->kc[k] != SQE_KEY_STR) continue;
        for (uint32_t i = 0; i < n; i++)
            if (!l->tmp_null[k][i] && l->tmp_keys[k][i].s.len > SQE_STRING_INLINE)
                est += ((size_t)l->tmp_keys[k][i].s.len + 15) & ~(size_t)15; /* arena rounding */
    }
    return est + (size_t)n * AGG_OWNED_ROW_BYTES * (size_t)op->n_owning;
}

/* ----------------------------------------------------------------- spill */

static bool mem_limit_error(const hash_agg_op *op, const char *why, sqe_error *err) {
    return sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED,
                         "query exceeded the memory limit of %zu bytes in %s: %s; raise the "
                         "memory limit",
                         op->base.ctx->memory_limit, AGG_NAME, why);
}

/* A wrapper batch over vecs (not owned) for sqe_spill_write. */
static sqe_batch spill_batch(const hash_agg_op *op, sqe_vector **vecs) {
    sqe_batch b;
    memset(&b, 0, sizeof b);
    b.n_cols = op->n_spill_cols;
    b.cols = vecs;
    b.n_rows = SQE_BATCH_ROWS;
    return b;
}

/* Groups the nm missed rows (l->msel, l->hash) by partition at `level`:
 * rows of partition p are l->psel[off[p] .. off[p + 1]). */
static void partition_misses(agg_local *l, uint32_t nm, int level, uint32_t off[AGG_PARTS + 1]) {
    uint32_t cnt[AGG_PARTS] = {0};
    for (uint32_t i = 0; i < nm; i++) cnt[agg_part(l->hash[i], level)]++;
    off[0] = 0;
    for (int p = 0; p < AGG_PARTS; p++) off[p + 1] = off[p] + cnt[p];
    uint32_t pos[AGG_PARTS];
    memcpy(pos, off, sizeof pos);
    for (uint32_t i = 0; i < nm; i++) l->psel[pos[agg_part(l->hash[i], level)]++] = l->msel[i];
}

/* A write buffer for one more level-0 file: from the headroom, else
 * reserved. */
static bool take_file_buffer(hash_agg_op *op, sqe_error *err) {
    pthread_mutex_lock(&op->mu);
    bool ok = true;
    if (op->headroom >= SQE_SPILL_BUF_BYTES)
        track_move(&op->headroom, &op->files_tracked, SQE_SPILL_BUF_BYTES);
    else
        ok = sqe_exec_mem_reserve(op->base.ctx, &op->files_tracked,
                                  op->files_tracked + SQE_SPILL_BUF_BYTES);
    pthread_mutex_unlock(&op->mu);
    return ok || mem_limit_error(op, "no room for a spill file's buffer", err);
}

/* Writes the missed rows of a drain batch to the shared level-0 files. */
static bool spill_shared(hash_agg_op *op, agg_local *l, uint32_t nm, sqe_error *err) {
    uint32_t off[AGG_PARTS + 1];
    partition_misses(l, nm, 0, off);
    sqe_batch sb = spill_batch(op, l->vecs);
    atomic_store(&op->spilled, true);
    for (int p = 0; p < AGG_PARTS; p++) {
        if (off[p + 1] == off[p]) continue;
        pthread_mutex_lock(&op->file_mu[p]);
        bool ok = true;
        if (!op->files[p]) {
            ok = take_file_buffer(op, err);
            if (ok)
                ok = (op->files[p] = sqe_spill_create(op->base.ctx, op->n_spill_cols,
                                                      op->spill_types, AGG_NAME, err)) != NULL;
        }
        if (ok) ok = sqe_spill_write(op->files[p], &sb, l->psel + off[p], off[p + 1] - off[p], err);
        pthread_mutex_unlock(&op->file_mu[p]);
        if (!ok) return false;
    }
    return true;
}

/* --------------------------------------------------------------- consume */

/* limit / div, at most AGG_ROOM_MAX: the rooms the operator keeps free or
 * reserved scale with small limits, not with the default (80% of RAM). */
static size_t limit_part(const hash_agg_op *op, size_t div) {
    return SQE_MIN(op->base.ctx->memory_limit / div, AGG_ROOM_MAX);
}

/* A local table is split once it has AGG_SPLIT_GROUPS groups, or under a
 * memory limit once it holds an eighth of a thread's share (so the split,
 * which needs about the table's size again, happens while there is room). */
static bool split_due(const hash_agg_op *op, const agg_table *t) {
    if (t->n_groups >= AGG_SPLIT_GROUPS) return true;
    const sqe_exec_ctx *ctx = op->base.ctx;
    if (!ctx->memory_limit || t->n_groups < 256) return false;
    int w = ctx->n_threads > 0 ? ctx->n_threads : 1;
    return table_bytes(t) >= ctx->memory_limit / 8 / (size_t)w;
}

/* Room kept free for states that own memory (DISTINCT sets) to grow: rows
 * of existing groups always update in place. */
static size_t owned_room(const hash_agg_op *op) {
    if (!op->n_owning || !op->base.ctx->memory_limit) return 0;
    return SQE_MAX((size_t)1 << 20, limit_part(op, 16));
}

/* Room left free for the query's output while partitions are fed (the
 * result queue needs at least a batch, and output goes on meanwhile). */
static size_t out_room(const hash_agg_op *op) {
    return SQE_MAX((size_t)256 << 10, limit_part(op, 16));
}

/* --------------------------------------------------- dictionary keys */

/* The only key's vector when it carries a dictionary the cache can cover,
 * else NULL. Not when groups have no states to point at, nor when states
 * own memory (under memory pressure their rows must go through the
 * ordinary path, which may send them to spill files). */
static const sqe_vector *dict_key(const hash_agg_op *op, const agg_local *l) {
    if (op->n_keys != 1 || !op->stride || op->n_owning > 0) return NULL;
    const sqe_vector *kv = l->vecs[0];
    return kv->dict_id && kv->dict_idx && kv->dict_size <= AGG_DICT_MAX ? kv : NULL;
}

/* Fills l->base/l->hpart of rows (sel, n) from the entry cache; false when
 * some row is not covered (a NULL key, an entry not seen yet, another
 * dictionary): the caller then takes the ordinary path, which learns. */
static bool dict_hits(agg_local *l, const sqe_vector *kv, const uint16_t *sel, uint32_t n) {
    if (kv->dict_id != l->dict_id) return false;
    const uint32_t *di = kv->dict_idx;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t r = sel ? sel[i] : i;
        if (sqe_vector_is_null(kv, r)) return false;
        uint8_t *b = l->dict_base[di[r]];
        if (!b) return false;
        l->base[i] = b;
        l->hpart[i] = l->dict_part[di[r]];
    }
    return true;
}

/* After a probe of rows (sel, n): remembers each found group for its
 * dictionary entry (a new dictionary empties the cache first). */
static void dict_learn(agg_local *l, const sqe_vector *kv, const uint16_t *sel, uint32_t n,
                       bool split) {
    if (kv->dict_id != l->dict_id) {
        if (l->dict_cap < kv->dict_size) {
            sqe_free(l->dict_base);
            sqe_free(l->dict_part);
            l->dict_cap = kv->dict_size;
            l->dict_base = sqe_malloc((size_t)l->dict_cap * sizeof *l->dict_base);
            l->dict_part = sqe_malloc(l->dict_cap);
        }
        memset(l->dict_base, 0, (size_t)kv->dict_size * sizeof *l->dict_base);
        l->dict_id = kv->dict_id;
    }
    const uint32_t *di = kv->dict_idx;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t r = sel ? sel[i] : i;
        if (l->gidx[i] == AGG_MISS || sqe_vector_is_null(kv, r)) continue;
        l->dict_base[di[r]] = l->base[i];
        l->dict_part[di[r]] = split ? (uint8_t)(l->hash[i] >> (64 - AGG_PART_BITS)) : 0;
    }
}

/* The no-key aggregate: one group, never spills. Its states (DISTINCT
 * sets) reserve what their next growth needs before it happens. */
static bool consume_global(hash_agg_op *op, agg_local *l, const uint16_t *sel, uint32_t n,
                           sqe_error *err) {
    uint8_t *st = op->stride ? group_state(l->t, 0) : NULL;
    if (st && op->n_owning &&
        !reserve_owned(op, &l->tracked, table_bytes(l->t),
                       owned_grow_need(op, st, NULL, l->vecs, sel, n), err))
        return false;
    for (uint32_t i = 0; i < n; i++) l->base[i] = st;
    if (!update_rows(op, l, &l->t, false, l->vecs, sel, n, err)) return false;
    return sqe_exec_mem_track(op->base.ctx, &l->tracked, table_bytes(l->t), AGG_NAME, err);
}

static bool consume(sqe_op *op_, void *l_, sqe_batch *b, uint64_t tag_base, sqe_error *err) {
    SQE_UNUSED(tag_base);
    hash_agg_op *op = (hash_agg_op *)op_;
    sqe_exec_ctx *ctx = op_->ctx;
    agg_local *l = l_;
    const uint16_t *sel = b->sel;
    uint32_t n = sqe_batch_live(b);
    if (n == 0) return true;
    for (int k = 0; k < op->n_keys; k++)
        if (!(l->vecs[k] = sqe_expr_eval(l->gstates[k], b, sel, n, err))) return false;
    for (int a = 0; a < op->n_aggs; a++)
        if (l->astates[a] &&
            !(l->vecs[op->arg_col[a]] = sqe_expr_eval(l->astates[a], b, sel, n, err)))
            return false;
    if (op->n_keys == 0) return consume_global(op, l, sel, n, err);
    const sqe_vector *dk = dict_key(op, l);
    if (dk && dict_hits(l, dk, sel, n)) { /* every row's group known by its entry */
        bool split = l->parts != NULL;
        if (!update_rows(op, l, split ? l->parts : &l->t, split, l->vecs, sel, n, err))
            return false;
        return track_to(op, &l->tracked, local_bytes(l), err);
    }
    load_keys(op, l, l->vecs, sel, n);
    if (!l->parts && split_due(op, l->t) &&
        sqe_exec_mem_reserve(ctx, &l->tracked, l->tracked + table_bytes(l->t))) {
        agg_table *t = l->t;
        l->t = NULL;
        l->dict_id = 0; /* states move into the sub-tables */
        if (!(l->parts = table_split(op, t, &l->tracked, err))) return false;
    }
    bool split = l->parts != NULL;
    agg_table **tabs = split ? l->parts : &l->t;
    size_t now = local_bytes(l), est = grow_estimate(op, l, tabs, split, n);
    bool insert = sqe_exec_mem_reserve(ctx, &l->tracked, now + est + owned_room(op));
    probe(op, l, tabs, split, insert, n);
    if (dk) dict_learn(l, dk, sel, n, split);
    uint32_t nh, nm;
    split_rows(l, sel, n, !insert && op->n_owning > 0, &nh, &nm);
    if (nh && !update_rows(op, l, tabs, split, l->vecs, nm ? l->hsel : sel, nh, err)) return false;
    if (nm && !spill_shared(op, l, nm, err)) return false;
    return track_to(op, &l->tracked, local_bytes(l), err);
}

/* Keeps the local for the end of the drain (copy order). */
static bool merge(sqe_op *op_, void *l_, sqe_error *err) {
    SQE_UNUSED(err);
    hash_agg_op *op = (hash_agg_op *)op_;
    SQE_ARRAY_PUSH(NULL, op->locals, (agg_local *)l_);
    return true;
}

static const sqe_sink_vtable agg_sink = {local_new, consume, merge, local_free};

/* ------------------------------------------------------- parallel merge */

/* A parallel for over i < n on the query's pool: workers (and the caller)
 * claim indexes until none is left; the caller then waits only for indexes
 * being run. The record is reference counted, so a task the pool starts
 * late finds nothing to do and touches only live memory. */
typedef struct agg_par {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int refs, next, n, running;
    void (*fn)(void *arg, int i);
    void *arg;
} agg_par;

static void par_release(agg_par *j) {
    pthread_mutex_lock(&j->mu);
    bool last = --j->refs == 0;
    pthread_mutex_unlock(&j->mu);
    if (!last) return;
    pthread_mutex_destroy(&j->mu);
    pthread_cond_destroy(&j->cv);
    sqe_free(j);
}

static void par_loop(agg_par *j) {
    pthread_mutex_lock(&j->mu);
    while (j->next < j->n) {
        int i = j->next++;
        j->running++;
        pthread_mutex_unlock(&j->mu);
        j->fn(j->arg, i);
        pthread_mutex_lock(&j->mu);
        j->running--;
        pthread_cond_broadcast(&j->cv);
    }
    pthread_mutex_unlock(&j->mu);
}

static void par_task(void *a) {
    par_loop(a);
    par_release(a);
}

static void agg_parallel(sqe_exec_ctx *ctx, int n, void (*fn)(void *arg, int i), void *arg) {
    int w = ctx->pool && ctx->n_threads > 1 ? SQE_MIN(ctx->n_threads, n) : 1;
    if (w <= 1) {
        for (int i = 0; i < n; i++) fn(arg, i);
        return;
    }
    agg_par *j = sqe_calloc(1, sizeof *j);
    pthread_mutex_init(&j->mu, NULL);
    pthread_cond_init(&j->cv, NULL);
    j->refs = w;
    j->n = n;
    j->fn = fn;
    j->arg = arg;
    for (int i = 1; i < w; i++) sqe_threadpool_submit(ctx->pool, par_task, j);
    par_loop(j);
    pthread_mutex_lock(&j->mu);
    while (j->running > 0) pthread_cond_wait(&j->cv, &j->mu);
    pthread_mutex_unlock(&j->mu);
    par_release(j);
}

static void part_fail(hash_agg_op *op, const sqe_error *e) {
    pthread_mutex_lock(&op->mu);
    if (!atomic_load(&op->failed)) op->part_err = *e;
    atomic_store(&op->failed, true);
    atomic_store(&op->base.ctx->abort, true);
    pthread_mutex_unlock(&op->mu);
}

/* Waits until est more bytes can be reserved on *tracked, or no other
 * merge task runs (then goes on without: the bytes are tracked as used). */
static void gate_enter(hash_agg_op *op, size_t *tracked, size_t est) {
    pthread_mutex_lock(&op->mu);
    while (!sqe_exec_mem_reserve(op->base.ctx, tracked, *tracked + est) && op->gate_active > 0)
        pthread_cond_wait(&op->cv, &op->mu);
    op->gate_active++;
    pthread_mutex_unlock(&op->mu);
}

static void gate_leave(hash_agg_op *op) {
    pthread_mutex_lock(&op->mu);
    op->gate_active--;
    pthread_cond_broadcast(&op->cv);
    pthread_mutex_unlock(&op->mu);
}

/* Partition p of the result: the locals' sub-tables p folded into the
 * first (copy order) in *out. *tracked takes over their bytes and is raised
 * as the merge grows; with `gate`, the merge first waits for about the
 * bytes it may add (gate_enter). */
static bool merge_partition(hash_agg_op *op, int p, size_t *tracked, bool gate, agg_table **out,
                            sqe_error *err) {
    size_t n = op->locals.len, est = 0;
    agg_table **src = sqe_calloc(n ? n : 1, sizeof *src);
    for (size_t i = 0; i < n; i++) {
        src[i] = op->locals.items[i]->parts[p];
        op->locals.items[i]->parts[p] = NULL;
        track_move(&src[i]->tracked, tracked, src[i]->tracked);
        if (i > 0) est += table_bytes(src[i]);
    }
    if (gate) gate_enter(op, tracked, est);
    if (gate && n > 1) { /* no spill: room is not short; inputs overlap at most n-fold */
        size_t total = 0;
        for (size_t i = 0; i < n; i++) total += src[i]->n_groups;
        table_reserve(src[0], total);
    }
    size_t rest = est, i = 1;
    bool ok = true;
    for (; ok && i < n; i++) {
        rest -= table_bytes(src[i]);
        ok = table_merge(op, src[0], src[i], tracked, rest, err);
    }
    if (gate) gate_leave(op);
    for (; i < n; i++) table_free(src[i], 0);
    *out = n ? src[0] : table_new(op);
    sqe_free(src);
    return ok;
}

/* Task p of the parallel merge (nothing spilled): op->parts[p]. */
static void part_task(void *arg, int p) {
    hash_agg_op *op = arg;
    sqe_error e;
    sqe_error_clear(&e);
    if (atomic_load(&op->failed)) return;
    if (sqe_exec_stopped(op->base.ctx, &e)) {
        part_fail(op, &e);
        return;
    }
    size_t tracked = 0;
    agg_table *t = NULL;
    bool ok = merge_partition(op, p, &tracked, true, &t, &e);
    if (ok) ok = track_to(op, &tracked, table_bytes(t), &e);
    track_move(&tracked, &t->tracked, tracked);
    op->parts[p] = t;
    if (!ok) part_fail(op, &e);
}

/* The default rows of empty grouping sets as a local of their own: one
 * group per id, every other key NULL, hashed like input rows. */
static agg_local *defaults_local(hash_agg_op *op) {
    const sqe_plan *p = op->base.plan;
    int nd = SQE_MIN(p->u.aggregate.n_default_groups, SQE_BATCH_ROWS), nk = op->n_keys;
    agg_local *l = local_scratch(op);
    l->t = table_new(op);
    for (int d = 0; d < nd; d++)
        for (int k = 0; k < nk; k++) {
            memset(&l->tmp_keys[k][d], 0, sizeof(sqe_key_slot));
            l->tmp_null[k][d] = k < nk - 1;
            if (k == nk - 1) l->tmp_keys[k][d].i = p->u.aggregate.default_gids[d];
        }
    for (int k = 0; k < nk; k++) hash_column(l, op->kc[k], k, (uint32_t)nd);
    for (int d = 0; d < nd; d++) table_find(l->t, l->hash[d], l->tmp_keys, l->tmp_null, (size_t)d);
    sqe_error ignored; /* a few groups: over the limit, the next check fails */
    sqe_exec_mem_track(op->base.ctx, &l->tracked, table_bytes(l->t), AGG_NAME, &ignored);
    return l;
}

/* ---------------------------------------------------------------- finish */

/* The drain is over: level-0 files become readable (their write buffers
 * go back) and so does the headroom. */
static bool drain_end(hash_agg_op *op, sqe_error *err) {
    sqe_exec_ctx *ctx = op->base.ctx;
    for (int p = 0; p < AGG_PARTS; p++)
        if (op->files[p] && !sqe_spill_rewind(op->files[p], err)) return false;
    sqe_exec_mem_reserve(ctx, &op->files_tracked, 0);
    sqe_exec_mem_reserve(ctx, &op->headroom, 0);
    return true;
}

/* Empty grouping sets emit their row even when no input reached them: a
 * group whose keys are NULL but for the group id (the last key). Appended
 * after the merge, so the index is not needed any more. */
static void hash_agg_add_defaults(hash_agg_op *op) {
    const sqe_plan *p = op->base.plan;
    int nd = p->u.aggregate.n_default_groups, nk = op->n_keys;
    if (!nd || nk < 1) return;
    agg_table *t = op->cur;
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

/* Small aggregates (no local split, nothing spilled): the locals folded
 * into the first in copy order, one table in insertion order. */
static bool finish_single(hash_agg_op *op, sqe_error *err) {
    size_t tracked = 0, rest = 0, n = op->locals.len;
    for (size_t i = 0; i < n; i++) {
        agg_local *l = op->locals.items[i];
        track_move(&l->tracked, &tracked, l->tracked);
        if (i > 0) rest += table_bytes(l->t);
    }
    op->cur = n ? op->locals.items[0]->t : table_new(op);
    if (n) op->locals.items[0]->t = NULL;
    bool ok = true;
    for (size_t i = 1; i < n && ok; i++) {
        agg_table *t = op->locals.items[i]->t;
        op->locals.items[i]->t = NULL;
        rest -= table_bytes(t);
        ok = table_merge(op, op->cur, t, &tracked, rest, err);
    }
    if (ok) ok = track_to(op, &tracked, table_bytes(op->cur), err);
    track_move(&tracked, &op->cur->tracked, tracked);
    if (ok) hash_agg_add_defaults(op);
    return ok;
}

/* Every local split, partitions merged in parallel, one job per partition. */
static bool finish_parts(hash_agg_op *op, sqe_error *err) {
    sqe_exec_ctx *ctx = op->base.ctx;
    if (op->base.plan->u.aggregate.n_default_groups > 0 && op->n_keys > 0)
        SQE_ARRAY_PUSH(NULL, op->locals, defaults_local(op));
    for (size_t i = 0; i < op->locals.len; i++) {
        agg_local *l = op->locals.items[i];
        if (!l->parts) {
            agg_table *t = l->t;
            l->t = NULL;
            if (!(l->parts = table_split(op, t, &l->tracked, err))) return false;
        }
        for (int p = 0; p < AGG_PARTS; p++)
            track_move(&l->tracked, &l->parts[p]->tracked, table_bytes(l->parts[p]));
        sqe_exec_mem_reserve(ctx, &l->tracked, 0);
    }
    /* Nothing spilled: every partition merged now, in parallel. After a
     * spill memory is short: each partition is merged when its job runs,
     * so merging adds about one partition at a time. */
    bool lazy = atomic_load(&op->spilled);
    if (!lazy) {
        agg_parallel(ctx, AGG_PARTS, part_task, op);
        if (atomic_load(&op->failed)) {
            *err = op->part_err;
            return false;
        }
        if (sqe_exec_stopped(ctx, err)) return false;
        for (size_t i = 0; i < op->locals.len; i++) local_free(&op->base, op->locals.items[i]);
        op->locals.len = 0;
    }
    for (int p = AGG_PARTS - 1; p >= 0; p--) {
        agg_job j = {0, op->files[p], op->parts[p], p, lazy};
        op->files[p] = NULL;
        op->parts[p] = NULL;
        SQE_ARRAY_PUSH(NULL, op->jobs, j);
    }
    op->scratch = local_scratch(op);
    op->in = sqe_batch_new(op->n_spill_cols, op->spill_types);
    /* Reserved now, while the headroom is free, and kept to the end: the
     * result queue may fill whatever is free once output starts. */
    if (!atomic_load(&op->spilled)) return true;
    for (int c = 0; c < op->n_spill_cols; c++)
        op->batch_fixed += SQE_BATCH_ROWS * sqe_type_width(op->spill_types[c]);
    if (!sqe_exec_mem_reserve(ctx, &op->bufs_tracked,
                              (AGG_KIDS + 1) * SQE_SPILL_BUF_BYTES + op->batch_fixed))
        return mem_limit_error(op, "no room for the buffers of spilled partitions", err);
    /* Working room for the jobs' tables, kept while output goes on (else
     * the result queue takes what an emitted table gives back). */
    for (size_t w = limit_part(op, 16); w >= SQE_SPILL_BUF_BYTES; w /= 2)
        if (sqe_exec_mem_reserve(ctx, &op->job_tracked, w)) {
            op->job_floor = w;
            break;
        }
    return true;
}

/* ------------------------------------------------------------------ jobs */

/* Writes the missed rows of a batch read back (op->in) to cur's child
 * files at `level`. */
static bool spill_kids(hash_agg_op *op, agg_local *l, uint32_t nm, int level, sqe_error *err) {
    if (level >= AGG_MAX_LEVELS)
        return mem_limit_error(op, "its groups do not fit even in 2^20 spilled partitions", err);
    _Static_assert(AGG_PART_BITS + AGG_KID_BITS * (AGG_MAX_LEVELS - 1) <= 32,
                   "partition bits leave the slot index and most of the tag alone");
    uint32_t off[AGG_PARTS + 1];
    partition_misses(l, nm, level, off);
    sqe_batch sb = spill_batch(op, op->in->cols);
    for (int p = 0; p < AGG_PARTS; p++) {
        if (off[p + 1] == off[p]) continue;
        if (!op->kids[p]) {
            op->kids[p] =
                sqe_spill_create(op->base.ctx, op->n_spill_cols, op->spill_types, AGG_NAME, err);
            if (!op->kids[p]) return false;
        }
        if (!sqe_spill_write(op->kids[p], &sb, l->psel + off[p], off[p + 1] - off[p], err))
            return false;
    }
    return true;
}

/* Gives back what job_tracked holds beyond job_floor (never grows it: the
 * floor is refilled from tables the jobs free, not from free memory, which
 * the query's output needs while a table is emitted). */
static void job_shrink(hash_agg_op *op) {
    if (op->job_tracked > op->job_floor)
        sqe_exec_mem_reserve(op->base.ctx, &op->job_tracked, op->job_floor);
}

/* Whether a job's table may grow to `target` bytes (with what the job
 * holds): reserved, and the query then still has out_room free. */
static bool job_can_grow(hash_agg_op *op, size_t target) {
    sqe_exec_ctx *ctx = op->base.ctx;
    if (!sqe_exec_mem_reserve(ctx, &op->job_tracked, SQE_MAX(target, op->job_tracked)))
        return false;
    return !ctx->memory_limit || atomic_load(&ctx->mem_used) + out_room(op) <= ctx->memory_limit;
}

/* Raises job_tracked to what the job holds (need); never lowers it (what
 * it holds beyond is the floor's working room). */
static bool job_track(hash_agg_op *op, size_t need, sqe_error *err) {
    return need <= op->job_tracked || track_to(op, &op->job_tracked, need, err);
}

/* Feeds the rows of f into t: new keys are inserted while t can reserve
 * its growth, then (full for good) go to child files at level + 1. The
 * buffers (read, children) are in op->bufs_tracked; job_tracked is t and
 * the batch read back. */
static bool feed_file(hash_agg_op *op, agg_table *t, sqe_spill_file *f, int level, sqe_error *err) {
    sqe_exec_ctx *ctx = op->base.ctx;
    agg_local *l = op->scratch;
    size_t io = sqe_spill_max_batch_bytes(f);
    io = io > op->batch_fixed ? io - op->batch_fixed : 0; /* long strings beyond bufs_tracked */
    bool full = false;
    if (!job_track(op, table_bytes(t) + io, err)) return false;
    if (!sqe_spill_rewind(f, err)) return false;
    for (;;) {
        bool eof = false;
        if (sqe_exec_stopped(ctx, err) || !sqe_spill_read(f, op->in, &eof, err)) return false;
        if (eof) return true;
        uint32_t n = op->in->n_rows, nh, nm;
        load_keys(op, l, op->in->cols, NULL, n);
        size_t now = table_bytes(t) + io;
        if (!full)
            full = !job_can_grow(op, now + owned_room(op) + grow_estimate(op, l, &t, false, n));
        probe(op, l, &t, false, !full, n);
        split_rows(l, NULL, n, false, &nh, &nm);
        if (nh && !update_rows(op, l, &t, false, op->in->cols, nm ? l->hsel : NULL, nh, err))
            return false;
        if (nm && !spill_kids(op, l, nm, level + 1, err)) return false;
        if (!job_track(op, table_bytes(t) + io, err)) return false;
    }
}

/* Makes job j's table the one emitted next (fed from its file first). */
static bool run_job(hash_agg_op *op, agg_job j, sqe_error *err) {
    agg_table *t = j.table;
    bool ok = true;
    if (j.merge) ok = merge_partition(op, j.part, &op->job_tracked, false, &t, err);
    if (!t) t = table_new(op);
    op->cur = t;
    op->out_pos = 0;
    op->kid_level = j.level + 1;
    track_move(&t->tracked, &op->job_tracked, t->tracked);
    /* The floor is room for t, not on top of it. */
    size_t keep = SQE_MAX(op->job_floor, table_bytes(t));
    if (op->job_tracked > keep) sqe_exec_mem_reserve(op->base.ctx, &op->job_tracked, keep);
    if (!ok) {
        sqe_spill_close(j.file);
        return false;
    }
    if (j.file) {
        op->feeding = j.file;
        ok = feed_file(op, t, j.file, j.level, err);
        sqe_spill_close(j.file);
        op->feeding = NULL;
    }
    for (int p = 0; p < AGG_PARTS && ok; p++)
        if (op->kids[p]) ok = sqe_spill_rewind(op->kids[p], err);
    size_t tb = table_bytes(t);
    if (ok) ok = job_track(op, tb, err);
    track_move(&op->job_tracked, &t->tracked, tb);
    job_shrink(op);
    return ok;
}

/* cur is emitted: free it, its overflow files become jobs. */
static void job_done(hash_agg_op *op) {
    track_move(&op->cur->tracked, &op->job_tracked, op->cur->tracked);
    job_shrink(op);
    table_free(op->cur, 0);
    op->cur = NULL;
    for (int p = AGG_PARTS - 1; p >= 0; p--) {
        if (!op->kids[p]) continue;
        agg_job j = {op->kid_level, op->kids[p], NULL, 0, false};
        op->kids[p] = NULL;
        SQE_ARRAY_PUSH(NULL, op->jobs, j);
    }
}

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
    op->arg_col = sqe_calloc((size_t)(op->n_aggs > 0 ? op->n_aggs : 1), sizeof *op->arg_col);
    op->spill_types = sqe_calloc((size_t)(op->n_keys + op->n_aggs + 1), sizeof *op->spill_types);
    int nc = 0;
    for (int k = 0; k < op->n_keys; k++) op->spill_types[nc++] = p->u.aggregate.groups[k]->type;
    size_t off = 0;
    for (int a = 0; a < op->n_aggs; a++) {
        op->offs[a] = off;
        off += (op->aggs[a].state_size + 15) & ~(size_t)15;
        const sqe_expr *arg = p->u.aggregate.agg_args ? p->u.aggregate.agg_args[a] : NULL;
        op->arg_col[a] = arg ? nc : -1;
        if (arg) op->spill_types[nc++] = arg->type;
        if (op->aggs[a].mem_delta) op->n_owning++;
    }
    op->n_spill_cols = nc;
    if (op->n_aggs > 0 && off == 0) off = 16; /* every group gets an addressable state */
    op->stride = off;
    pthread_mutex_init(&op->mu, NULL);
    pthread_cond_init(&op->cv, NULL);
    for (int i = 0; i < AGG_PARTS; i++) pthread_mutex_init(&op->file_mu[i], NULL);
    op->sync_init = true;
    op->out = sqe_batch_new(p->n_out, p->out_types);
    return true;
}

static bool hash_agg_build(hash_agg_op *op, sqe_error *err) {
    sqe_exec_ctx *ctx = op->base.ctx;
    if (ctx->memory_limit > 0 && op->n_keys > 0) {
        size_t lim = ctx->memory_limit;
        size_t want = SQE_MIN(lim / 2, (size_t)AGG_PARTS * SQE_SPILL_BUF_BYTES + limit_part(op, 8));
        sqe_exec_mem_reserve(ctx, &op->headroom, want); /* none when it does not fit */
    }
    if (!sqe_exec_drain(&op->base, 0, &agg_sink, err)) return false;
    if (!drain_end(op, err)) return false;
    bool parts = atomic_load(&op->spilled);
    for (size_t i = 0; i < op->locals.len; i++) parts |= op->locals.items[i]->parts != NULL;
    return parts ? finish_parts(op, err) : finish_single(op, err);
}

/* Writes the next up to SQE_BATCH_ROWS groups of cur into op->out. */
static bool emit(hash_agg_op *op, sqe_error *err) {
    agg_table *t = op->cur;
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
    return true;
}

static bool hash_agg_next(sqe_op *op_, sqe_batch **out, bool *eof, sqe_error *err) {
    hash_agg_op *op = (hash_agg_op *)op_;
    if (!op->built) {
        if (!hash_agg_build(op, err)) return false;
        op->built = true;
    }
    for (;;) {
        if (op->cur && op->out_pos < op->cur->n_groups) {
            if (!emit(op, err)) return false;
            *eof = false;
            *out = op->out;
            return true;
        }
        if (op->cur) job_done(op);
        if (!op->jobs.len) {
            *eof = true;
            return true;
        }
        if (!run_job(op, op->jobs.items[--op->jobs.len], err)) return false;
    }
}

static void hash_agg_close(sqe_op *op_) {
    hash_agg_op *op = (hash_agg_op *)op_;
    sqe_exec_ctx *ctx = op_->ctx;
    table_free(op->cur, 0);
    op->cur = NULL;
    for (size_t i = 0; i < op->jobs.len; i++) {
        table_free(op->jobs.items[i].table, 0);
        sqe_spill_close(op->jobs.items[i].file);
    }
    SQE_ARRAY_FREE(op->jobs);
    for (size_t i = 0; i < op->locals.len; i++) local_free(op_, op->locals.items[i]);
    SQE_ARRAY_FREE(op->locals);
    for (int p = 0; p < AGG_PARTS; p++) {
        sqe_spill_close(op->files[p]);
        sqe_spill_close(op->kids[p]);
        table_free(op->parts[p], 0);
        op->files[p] = op->kids[p] = NULL;
        op->parts[p] = NULL;
    }
    sqe_spill_close(op->feeding);
    op->feeding = NULL;
    sqe_exec_mem_reserve(ctx, &op->headroom, 0);
    sqe_exec_mem_reserve(ctx, &op->files_tracked, 0);
    sqe_exec_mem_reserve(ctx, &op->job_tracked, 0);
    sqe_exec_mem_reserve(ctx, &op->bufs_tracked, 0);
    if (op->scratch) local_free(op_, op->scratch);
    op->scratch = NULL;
    sqe_batch_free(op->in);
    op->in = NULL;
    sqe_batch_free(op->out);
    op->out = NULL;
    sqe_free(op->kc);
    op->kc = NULL;
    sqe_free(op->offs);
    op->offs = NULL;
    sqe_free(op->arg_col);
    op->arg_col = NULL;
    sqe_free(op->spill_types);
    op->spill_types = NULL;
    if (op->sync_init) {
        pthread_mutex_destroy(&op->mu);
        pthread_cond_destroy(&op->cv);
        for (int i = 0; i < AGG_PARTS; i++) pthread_mutex_destroy(&op->file_mu[i]);
        op->sync_init = false;
    }
}

static const sqe_op_vtable hash_agg_vtable = {AGG_NAME, hash_agg_open, hash_agg_next,
                                              hash_agg_close};

sqe_op *sqe_exec_hash_agg_new(sqe_exec_ctx *ctx, const sqe_plan *p) {
    hash_agg_op *op = sqe_calloc(1, sizeof *op);
    op->base.vt = &hash_agg_vtable;
    op->base.plan = p;
    op->base.ctx = ctx;
    return &op->base;
}
