/*
 * vector.c - one typed column of up to SQE_BATCH_ROWS values: the flat data
 * array, the validity bitmap, and the string heap that owns long strings.
 *
 * Where it sits: readers in format/ fill vectors, func/ kernels read and
 * write them, exec/ operators pass them along inside batches (batch.c).
 *
 * Invariants:
 *  - `data` holds `cap` rows, zeroed. sqe_vector_new allocates all
 *    SQE_BATCH_ROWS at once and never reallocates, so pointers into it stay
 *    valid for the vector's life. A vector from sqe_vector_new_cap starts
 *    smaller and moves only in sqe_vector_reserve (growth charged to the
 *    account like heap chunks, in `data_charged`), which its writer calls before
 *    writing a batch; cap only grows.
 *  - When has_nulls is false every row is valid and the bitmap may hold
 *    anything; the first set_null fills it with ones before clearing a bit.
 *  - String views of more than 12 bytes point into `heap`, a chain of
 *    malloc'd chunks. The first chunk (8 KiB) is kept across resets; small
 *    strings bump-allocate in the "current" chunk, whose successor doubles in
 *    size up to 1 MiB; a string bigger than half the next chunk gets a chunk
 *    of its own. Chunks never move, so bytes stay put until reset/free.
 *  - With an account (acct != NULL) every chunk, header included, is
 *    charged before it is allocated and `charged` is their sum; reset and
 *    free release what they drop, so acct holds exactly `charged` for this
 *    vector. A refused charge, or a failed malloc of a chunk, makes
 *    heap_alloc return NULL (never abort): expression results such as
 *    lpad(s, 10000000, 'x') over 2048 rows then fail their statement
 *    instead of asking for 20 GB. Without an account chunks come from
 *    sqe_malloc as before (callers bound their sizes).
 */
#include "vector/vector.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define HEAP_FIRST_CHUNK (8u * 1024u)
#define HEAP_MAX_CHUNK (1024u * 1024u)

struct sqe_strheap_chunk {
    sqe_strheap_chunk *next;
    sqe_strheap_chunk *cur; /* first chunk only: where small strings go */
    size_t cap, used;
    char data[];
};

/* --------------------------------------------------------- accounts */

bool sqe_mem_account_charge(const sqe_mem_account *a, size_t bytes) {
    if (!a || !a->used || bytes == 0) return true;
    size_t cur = atomic_load_explicit(a->used, memory_order_relaxed);
    do {
        if (cur + bytes < cur) return false;
        if (a->limit > 0 && cur + bytes > a->limit) return false;
    } while (!atomic_compare_exchange_weak(a->used, &cur, cur + bytes));
    if (a->peak) {
        size_t total = cur + bytes;
        size_t peak = atomic_load_explicit(a->peak, memory_order_relaxed);
        while (total > peak && !atomic_compare_exchange_weak(a->peak, &peak, total)) {
        }
    }
    return true;
}

void sqe_mem_account_add(const sqe_mem_account *a, size_t bytes) {
    if (!a || !a->used || bytes == 0) return;
    size_t total = atomic_fetch_add(a->used, bytes) + bytes;
    if (a->peak) {
        size_t peak = atomic_load_explicit(a->peak, memory_order_relaxed);
        while (total > peak && !atomic_compare_exchange_weak(a->peak, &peak, total)) {
        }
    }
}

void sqe_mem_account_release(const sqe_mem_account *a, size_t bytes) {
    if (a && a->used && bytes) atomic_fetch_sub(a->used, bytes);
}

bool sqe_mem_account_error(const sqe_mem_account *a, const char *what, sqe_error *err) {
    return sqe_error_set(err, SQE_ERR_RESOURCE_EXHAUSTED,
                         "query exceeded the memory limit of %zu bytes in %s", a ? a->limit : 0,
                         what ? what : "an expression");
}

/* ------------------------------------------------------------- heap */

#define CHUNK_BYTES(cap) (sizeof(sqe_strheap_chunk) + (cap))

/* A chunk of cap bytes: charged to v's account first when it has one; NULL
 * when the account refuses or malloc fails (accounted vectors only). */
static sqe_strheap_chunk *chunk_new(sqe_vector *v, size_t cap) {
    sqe_strheap_chunk *c;
    if (v->acct) {
        if (cap > SIZE_MAX - sizeof *c) return NULL;
        if (!sqe_mem_account_charge(v->acct, CHUNK_BYTES(cap))) return NULL;
        c = malloc(CHUNK_BYTES(cap));
        if (!c) {
            sqe_mem_account_release(v->acct, CHUNK_BYTES(cap));
            return NULL;
        }
        v->charged += CHUNK_BYTES(cap);
    } else {
        c = sqe_malloc(CHUNK_BYTES(cap));
    }
    c->next = NULL;
    c->cur = NULL;
    c->cap = cap;
    c->used = 0;
    return c;
}

sqe_vector *sqe_vector_new(sqe_type type) {
    return sqe_vector_new_cap(type, SQE_BATCH_ROWS);
}

sqe_vector *sqe_vector_new_cap(sqe_type type, uint32_t cap) {
    sqe_vector *v = sqe_calloc(1, sizeof *v);
    v->type = type;
    v->cap = SQE_MIN(cap, (uint32_t)SQE_BATCH_ROWS);
    v->data = sqe_calloc(v->cap ? v->cap : 1, sqe_type_width(type));
    v->has_nulls = false;
    v->heap = NULL;
    return v;
}

sqe_vector *sqe_vector_new_rows(sqe_type type, uint32_t rows) {
    rows = SQE_MIN(rows, (uint32_t)SQE_BATCH_ROWS);
    size_t words = (rows + 63u) / 64u + (rows == 0);
    sqe_vector *v = sqe_calloc(1, offsetof(sqe_vector, validity) + words * sizeof(uint64_t));
    v->type = type;
    v->cap = rows;
    v->fixed = true;
    v->data = sqe_calloc(rows ? rows : 1, sqe_type_width(type));
    return v;
}

bool sqe_vector_reserve(sqe_vector *v, uint32_t rows) {
    if (rows <= v->cap) return true;
    if (v->fixed) return false;
    uint32_t cap = v->cap < 16 ? 16 : v->cap;
    while (cap < rows && cap < SQE_BATCH_ROWS) cap *= 2;
    cap = SQE_MIN(cap, (uint32_t)SQE_BATCH_ROWS);
    if (cap <= v->cap) return true;
    size_t w = sqe_type_width(v->type);
    size_t grow = (size_t)(cap - v->cap) * w;
    if (v->acct) {
        if (!sqe_mem_account_charge(v->acct, grow)) return false;
        v->data_charged += grow;
    }
    v->data = sqe_realloc(v->data, (size_t)cap * w);
    memset((char *)v->data + (size_t)v->cap * w, 0, grow);
    v->cap = cap;
    return true;
}

/* Frees the chunks after c; returns their bytes (headers included). */
static size_t heap_free_after(sqe_strheap_chunk *c) {
    sqe_strheap_chunk *n = c->next;
    size_t bytes = 0;
    while (n) {
        sqe_strheap_chunk *next = n->next;
        bytes += CHUNK_BYTES(n->cap);
        sqe_free(n);
        n = next;
    }
    c->next = NULL;
    return bytes;
}

/* Gives back bytes of v's charge (chunks just freed). */
static void heap_uncharge(sqe_vector *v, size_t bytes) {
    if (!v->acct || bytes == 0) return;
    if (bytes > v->charged) bytes = v->charged;
    sqe_mem_account_release(v->acct, bytes);
    v->charged -= bytes;
}

void sqe_vector_free(sqe_vector *v) {
    if (!v) return;
    if (v->heap) {
        heap_free_after(v->heap);
        sqe_free(v->heap);
    }
    if (v->acct) sqe_mem_account_release(v->acct, v->charged + v->data_charged);
    sqe_free(v->data);
    sqe_free(v->dict_idx);
    sqe_free(v);
}

void sqe_vector_reset(sqe_vector *v) {
    v->has_nulls = false;
    v->dict_id = 0;
    if (v->heap) {
        size_t freed = heap_free_after(v->heap);
        heap_uncharge(v, freed);
        v->heap->used = 0;
        v->heap->cur = v->heap;
    }
}

void sqe_vector_set_account(sqe_vector *v, const sqe_mem_account *a) {
    if (v->acct == a) return;
    size_t bytes = 0;
    for (sqe_strheap_chunk *c = v->heap; c; c = c->next) bytes += CHUNK_BYTES(c->cap);
    size_t data = v->data_charged;
    if (v->acct) sqe_mem_account_release(v->acct, v->charged + data);
    v->acct = a;
    v->charged = 0;
    v->data_charged = 0;
    if (a && data) {
        sqe_mem_account_add(a, data);
        v->data_charged = data;
    }
    if (a && bytes) {
        /* Already allocated: counted even past the limit (never refused). */
        sqe_mem_account_add(a, bytes);
        v->charged = bytes;
    }
}

void sqe_vector_set_null(sqe_vector *v, uint32_t row) {
    if (!v->has_nulls) {
        memset(v->validity, 0xff, sqe_vector_validity_words(v) * sizeof(uint64_t));
        v->has_nulls = true;
    }
    v->validity[row >> 6] &= ~(1ULL << (row & 63));
}

char *sqe_vector_heap_alloc(sqe_vector *v, size_t len) {
    if (!v->heap) {
        if (!(v->heap = chunk_new(v, HEAP_FIRST_CHUNK))) return NULL;
        v->heap->cur = v->heap;
    }
    sqe_strheap_chunk *c = v->heap->cur;
    if (c->cap - c->used < len) {
        size_t next_cap = SQE_MIN(c->cap * 2, (size_t)HEAP_MAX_CHUNK);
        if (next_cap < HEAP_FIRST_CHUNK) next_cap = HEAP_FIRST_CHUNK;
        if (len > next_cap / 2) {
            /* A huge string: its own chunk, linked after the current one so
             * the current chunk's free space stays in use. */
            sqe_strheap_chunk *big = chunk_new(v, len);
            if (!big) return NULL;
            big->used = len;
            big->next = c->next;
            c->next = big;
            return big->data;
        }
        sqe_strheap_chunk *n = chunk_new(v, next_cap);
        if (!n) return NULL;
        n->next = c->next;
        c->next = n;
        v->heap->cur = c = n;
    }
    char *p = c->data + c->used;
    c->used += len;
    return p;
}

bool sqe_vector_set_string(sqe_vector *v, uint32_t row, const char *p, size_t len) {
    sqe_string *s = &SQE_VEC_DATA(v, sqe_string)[row];
    if (len > UINT32_MAX) len = UINT32_MAX; /* readers cap field sizes far below this */
    sqe_string view;
    memset(&view, 0, sizeof view);
    view.len = (uint32_t)len;
    if (len <= SQE_STRING_INLINE) {
        if (len) memcpy((char *)&view + offsetof(sqe_string, prefix), p, len);
    } else {
        char *q = sqe_vector_heap_alloc(v, len);
        if (!q) return false;
        memcpy(q, p, len);
        memcpy(view.prefix, q, 4);
        view.u.ptr = q;
    }
    *s = view;
    return true;
}

bool sqe_vector_set_value(sqe_vector *v, uint32_t row, const sqe_value *val) {
    if (val->is_null || v->type.id == SQE_T_NULL) {
        sqe_vector_set_null(v, row);
        return true;
    }
    if ((v->type.id == SQE_T_VARCHAR || v->type.id == SQE_T_VARBINARY) &&
        !sqe_vector_set_string(v, row, val->v.s.ptr, val->v.s.len))
        return false;
    sqe_vector_set_valid(v, row);
    switch (v->type.id) {
    case SQE_T_BOOLEAN:
        SQE_VEC_DATA(v, uint8_t)[row] = val->v.b ? 1 : 0;
        break;
    case SQE_T_TINYINT:
        SQE_VEC_DATA(v, int8_t)[row] = (int8_t)val->v.i;
        break;
    case SQE_T_SMALLINT:
        SQE_VEC_DATA(v, int16_t)[row] = (int16_t)val->v.i;
        break;
    case SQE_T_INTEGER:
    case SQE_T_DATE:
        SQE_VEC_DATA(v, int32_t)[row] = (int32_t)val->v.i;
        break;
    case SQE_T_BIGINT:
    case SQE_T_TIMESTAMP:
    case SQE_T_INTERVAL_DS:
    case SQE_T_INTERVAL_YM:
    case SQE_T_TIME:
    case SQE_T_TIMESTAMP_TZ:
        SQE_VEC_DATA(v, int64_t)[row] = val->v.i;
        break;
    case SQE_T_REAL:
        SQE_VEC_DATA(v, float)[row] = val->v.f;
        break;
    case SQE_T_DOUBLE:
        SQE_VEC_DATA(v, double)[row] = val->v.d;
        break;
    case SQE_T_DECIMAL:
        SQE_VEC_DATA(v, sqe_i128)[row] = val->v.dec;
        break;
    case SQE_T_VARCHAR:
    case SQE_T_VARBINARY: /* stored above */
        break;
    default:
        sqe_vector_set_null(v, row);
        break;
    }
    return true;
}

void sqe_vector_get_value(const sqe_vector *v, uint32_t row, sqe_value *out) {
    *out = sqe_value_null(v->type);
    if (sqe_vector_is_null(v, row) || v->type.id == SQE_T_NULL) return;
    out->is_null = false;
    switch (v->type.id) {
    case SQE_T_BOOLEAN:
        out->v.b = SQE_VEC_DATA(v, uint8_t)[row] != 0;
        break;
    case SQE_T_TINYINT:
        out->v.i = SQE_VEC_DATA(v, int8_t)[row];
        break;
    case SQE_T_SMALLINT:
        out->v.i = SQE_VEC_DATA(v, int16_t)[row];
        break;
    case SQE_T_INTEGER:
    case SQE_T_DATE:
        out->v.i = SQE_VEC_DATA(v, int32_t)[row];
        break;
    case SQE_T_BIGINT:
    case SQE_T_TIMESTAMP:
    case SQE_T_INTERVAL_DS:
    case SQE_T_INTERVAL_YM:
    case SQE_T_TIME:
    case SQE_T_TIMESTAMP_TZ:
        out->v.i = SQE_VEC_DATA(v, int64_t)[row];
        break;
    case SQE_T_REAL:
        out->v.f = SQE_VEC_DATA(v, float)[row];
        break;
    case SQE_T_DOUBLE:
        out->v.d = SQE_VEC_DATA(v, double)[row];
        break;
    case SQE_T_DECIMAL:
        out->v.dec = SQE_VEC_DATA(v, sqe_i128)[row];
        break;
    case SQE_T_VARCHAR:
    case SQE_T_VARBINARY: {
        const sqe_string *s = &SQE_VEC_DATA(v, sqe_string)[row];
        out->v.s.ptr = sqe_string_data(s);
        out->v.s.len = s->len;
        break;
    }
    default:
        out->is_null = true;
        break;
    }
}

bool sqe_vector_copy_row(sqe_vector *dst, uint32_t dst_row, const sqe_vector *src,
                         uint32_t src_row) {
    if (sqe_vector_is_null(src, src_row) || src->type.id == SQE_T_NULL ||
        dst->type.id == SQE_T_NULL) {
        sqe_vector_set_null(dst, dst_row);
        return true;
    }
    if (dst->type.id == SQE_T_VARCHAR || dst->type.id == SQE_T_VARBINARY) {
        const sqe_string *s = &SQE_VEC_DATA(src, sqe_string)[src_row];
        if (s->len <= SQE_STRING_INLINE)
            SQE_VEC_DATA(dst, sqe_string)[dst_row] = *s;
        else if (!sqe_vector_set_string(dst, dst_row, s->u.ptr, s->len))
            return false;
        sqe_vector_set_valid(dst, dst_row);
        return true;
    }
    sqe_vector_set_valid(dst, dst_row);
    size_t w = sqe_type_width(dst->type);
    memcpy((char *)dst->data + (size_t)dst_row * w, (const char *)src->data + (size_t)src_row * w,
           w);
    return true;
}

/* ---------------------------------------------------------- dictionaries */

uint64_t sqe_vector_dict_new_id(void) {
    static atomic_uint_least64_t next = 1; /* an id source, not a setting */
    return atomic_fetch_add(&next, 1);
}

uint32_t *sqe_vector_dict_idx(sqe_vector *v) {
    if (!v->dict_idx) v->dict_idx = sqe_malloc(SQE_BATCH_ROWS * sizeof *v->dict_idx);
    return v->dict_idx;
}

void sqe_vector_dict_flatten(sqe_vector *v, uint32_t row, const void *entries, const uint32_t *idx,
                             const uint8_t *valid, uint32_t n) {
    size_t w = sqe_type_width(v->type);
    uint8_t *out = (uint8_t *)v->data + (size_t)row * w;
    const uint8_t *e = entries;
    uint32_t *di = sqe_vector_dict_idx(v) + row;
    if (!valid) {
        memcpy(di, idx, (size_t)n * sizeof *idx);
        switch (w) { /* fixed-size copies the compiler inlines */
        case 4:
            for (uint32_t i = 0; i < n; i++) memcpy(out + (size_t)i * 4, e + (size_t)idx[i] * 4, 4);
            return;
        case 8:
            for (uint32_t i = 0; i < n; i++) memcpy(out + (size_t)i * 8, e + (size_t)idx[i] * 8, 8);
            return;
        case 16:
            for (uint32_t i = 0; i < n; i++)
                memcpy(out + (size_t)i * 16, e + (size_t)idx[i] * 16, 16);
            return;
        default:
            for (uint32_t i = 0; i < n; i++) memcpy(out + (size_t)i * w, e + (size_t)idx[i] * w, w);
            return;
        }
    }
    uint32_t k = 0; /* idx holds the valid rows' indexes only */
    for (uint32_t i = 0; i < n; i++) {
        if (valid[i]) {
            di[i] = idx[k];
            memcpy(out + (size_t)i * w, e + (size_t)idx[k] * w, w);
            k++;
        } else {
            di[i] = 0;
            memset(out + (size_t)i * w, 0, w);
            sqe_vector_set_null(v, row + i);
        }
    }
}
