/*
 * memory.c - the one allocator (sqe_malloc & co.) and arenas.
 *
 * An arena is a chain of blocks; allocation bumps a pointer. Large requests
 * get a block of their own. Reset keeps the first block so a batch arena
 * reused per batch does not touch malloc in the steady state.
 */
#include "base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void oom(size_t n) {
    fprintf(stderr, "sqe: out of memory allocating %zu bytes\n", n);
    abort();
}

void *sqe_malloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) oom(n);
    return p;
}

void *sqe_calloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) oom(n * size);
    return p;
}

void *sqe_realloc(void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (!q) oom(n);
    return q;
}

void sqe_free(void *p) {
    free(p);
}

char *sqe_strdup(const char *s) {
    return sqe_strndup(s, strlen(s));
}

char *sqe_strndup(const char *s, size_t n) {
    char *p = sqe_malloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *sqe_asprintf(const char *fmt, ...) {
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = sqe_malloc((size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return p;
}

typedef struct arena_block {
    struct arena_block *next;
    size_t cap, used;
    _Alignas(16) unsigned char data[];
} arena_block;

struct sqe_arena {
    arena_block *head; /* current block (most recent) */
    arena_block *first;
    size_t block_size;
    size_t total_used;
};

static arena_block *block_new(size_t cap) {
    arena_block *b = sqe_malloc(sizeof(arena_block) + cap);
    b->next = NULL;
    b->cap = cap;
    b->used = 0;
    return b;
}

sqe_arena *sqe_arena_new(size_t block_size) {
    sqe_arena *a = sqe_calloc(1, sizeof *a);
    a->block_size = block_size ? block_size : 64 * 1024;
    a->first = a->head = block_new(a->block_size);
    return a;
}

void sqe_arena_free(sqe_arena *a) {
    if (!a) return;
    arena_block *b = a->head;
    while (b) {
        arena_block *n = b->next;
        free(b);
        b = n;
    }
    free(a);
}

void sqe_arena_reset(sqe_arena *a) {
    /* Every block but the first goes, including dedicated big blocks, which
     * may hang behind any block (also behind the first). */
    arena_block *b = a->head;
    while (b) {
        arena_block *n = b->next;
        if (b != a->first) free(b);
        b = n;
    }
    a->head = a->first;
    a->first->used = 0;
    a->first->next = NULL;
    a->total_used = 0;
}

void *sqe_arena_alloc(sqe_arena *a, size_t n) {
    size_t need = (n + 15) & ~(size_t)15;
    if (need == 0) need = 16;
    arena_block *b = a->head;
    if (b->cap - b->used < need) {
        if (need > a->block_size / 4) {
            /* Big allocation: a dedicated block, linked behind the head so
             * the head's free space stays usable. */
            arena_block *big = block_new(need);
            big->used = need;
            big->next = b->next;
            b->next = big;
            memset(big->data, 0, need);
            a->total_used += need;
            return big->data;
        }
        arena_block *nb = block_new(a->block_size);
        nb->next = b;
        a->head = b = nb;
    }
    void *p = b->data + b->used;
    b->used += need;
    a->total_used += need;
    memset(p, 0, need);
    return p;
}

/* Grows `old` (old_need bytes, rounded) where it lies when that is
 * possible: the head block's last allocation extends into the block's free
 * space; a dedicated big block is resized by realloc and relinked. Growing
 * an array by doubling then costs its final size, not twice that (a
 * 60,000-item select list's tokens and expression lists). NULL when old
 * cannot grow in place. */
static void *arena_grow_in_place(sqe_arena *a, unsigned char *old, size_t old_need,
                                 size_t new_need) {
    arena_block *h = a->head;
    if (old >= h->data && old + old_need == h->data + h->used) {
        if (h->cap - h->used < new_need - old_need) return NULL;
        memset(old + old_need, 0, new_need - old_need);
        h->used += new_need - old_need;
        a->total_used += new_need - old_need;
        return old;
    }
    if (old_need <= a->block_size / 4) return NULL; /* not a dedicated block */
    for (arena_block **pp = &h->next; *pp; pp = &(*pp)->next) {
        arena_block *b = *pp;
        if (b->data != old || b == a->first || b->used != old_need || b->cap != old_need) continue;
        arena_block *nb = sqe_realloc(b, sizeof(arena_block) + new_need);
        memset(nb->data + old_need, 0, new_need - old_need);
        nb->cap = nb->used = new_need;
        a->total_used += new_need - old_need;
        *pp = nb;
        return nb->data;
    }
    return NULL;
}

void *sqe_arena_realloc(sqe_arena *a, void *old, size_t old_n, size_t new_n) {
    size_t old_need = (old_n + 15) & ~(size_t)15, new_need = (new_n + 15) & ~(size_t)15;
    if (old && old_n && new_need > old_need) {
        void *in_place = arena_grow_in_place(a, old, old_need, new_need);
        if (in_place) return in_place;
    }
    void *p = sqe_arena_alloc(a, new_n);
    if (old && old_n) memcpy(p, old, old_n < new_n ? old_n : new_n);
    return p;
}

char *sqe_arena_strdup(sqe_arena *a, const char *s) {
    return s ? sqe_arena_strndup(a, s, strlen(s)) : NULL;
}

char *sqe_arena_strndup(sqe_arena *a, const char *s, size_t n) {
    char *p = sqe_arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *sqe_arena_sprintf(sqe_arena *a, const char *fmt, ...) {
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = sqe_arena_alloc(a, (size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return p;
}

size_t sqe_arena_used(const sqe_arena *a) {
    return a->total_used;
}

void sqe_array_grow_(void **items, size_t *cap, size_t elem_size, size_t need, sqe_arena *arena) {
    if (need <= *cap) return;
    /* Start small: most arrays hold one or two items (name parts, call
     * arguments), and a statement can hold 60,000 of them. */
    size_t nc = *cap ? *cap * 2 : 2;
    while (nc < need) nc *= 2;
    if (arena)
        *items = sqe_arena_realloc(arena, *items, *cap * elem_size, nc * elem_size);
    else
        *items = sqe_realloc(*items, nc * elem_size);
    *cap = nc;
}
