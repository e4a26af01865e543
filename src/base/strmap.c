/*
 * strmap.c - a string-keyed open-addressing hash map (linear probing,
 * tombstones on delete, power-of-two capacity, load factor <= 0.7).
 */
#include "base.h"

#include <string.h>

typedef struct {
    char *key; /* NULL = empty; TOMBSTONE = deleted */
    void *value;
    uint64_t hash;
} slot;

static char k_tombstone;
#define TOMBSTONE (&k_tombstone)

struct sqe_strmap {
    slot *slots;
    size_t cap, len, used; /* used counts tombstones too */
};

sqe_strmap *sqe_strmap_new(void) {
    sqe_strmap *m = sqe_calloc(1, sizeof *m);
    m->cap = 16;
    m->slots = sqe_calloc(m->cap, sizeof(slot));
    return m;
}

void sqe_strmap_free(sqe_strmap *m) {
    if (!m) return;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].key && m->slots[i].key != TOMBSTONE) sqe_free(m->slots[i].key);
    sqe_free(m->slots);
    sqe_free(m);
}

static size_t find(const sqe_strmap *m, const char *key, uint64_t h, bool *found) {
    size_t mask = m->cap - 1, i = h & mask, first_tomb = (size_t)-1;
    for (;;) {
        slot *s = &m->slots[i];
        if (!s->key) {
            *found = false;
            return first_tomb != (size_t)-1 ? first_tomb : i;
        }
        if (s->key == TOMBSTONE) {
            if (first_tomb == (size_t)-1) first_tomb = i;
        } else if (s->hash == h && strcmp(s->key, key) == 0) {
            *found = true;
            return i;
        }
        i = (i + 1) & mask;
    }
}

static void rehash(sqe_strmap *m, size_t ncap) {
    slot *old = m->slots;
    size_t ocap = m->cap;
    m->slots = sqe_calloc(ncap, sizeof(slot));
    m->cap = ncap;
    m->used = m->len;
    for (size_t i = 0; i < ocap; i++) {
        if (!old[i].key || old[i].key == TOMBSTONE) continue;
        size_t j = old[i].hash & (ncap - 1);
        while (m->slots[j].key) j = (j + 1) & (ncap - 1);
        m->slots[j] = old[i];
    }
    sqe_free(old);
}

void *sqe_strmap_put(sqe_strmap *m, const char *key, void *value) {
    if ((m->used + 1) * 10 > m->cap * 7)
        rehash(m, m->len * 2 + 1 > m->cap / 2 ? m->cap * 2 : m->cap);
    uint64_t h = sqe_hash_bytes(key, strlen(key), 0);
    bool found;
    size_t i = find(m, key, h, &found);
    if (found) {
        void *prev = m->slots[i].value;
        m->slots[i].value = value;
        return prev;
    }
    if (!m->slots[i].key) m->used++;
    m->slots[i].key = sqe_strdup(key);
    m->slots[i].value = value;
    m->slots[i].hash = h;
    m->len++;
    return NULL;
}

void *sqe_strmap_get(const sqe_strmap *m, const char *key) {
    bool found;
    size_t i = find(m, key, sqe_hash_bytes(key, strlen(key), 0), &found);
    return found ? m->slots[i].value : NULL;
}

bool sqe_strmap_has(const sqe_strmap *m, const char *key) {
    bool found;
    find(m, key, sqe_hash_bytes(key, strlen(key), 0), &found);
    return found;
}

void *sqe_strmap_remove(sqe_strmap *m, const char *key) {
    bool found;
    size_t i = find(m, key, sqe_hash_bytes(key, strlen(key), 0), &found);
    if (!found) return NULL;
    void *v = m->slots[i].value;
    sqe_free(m->slots[i].key);
    m->slots[i].key = TOMBSTONE;
    m->slots[i].value = NULL;
    m->len--;
    return v;
}

size_t sqe_strmap_len(const sqe_strmap *m) {
    return m->len;
}

bool sqe_strmap_next(const sqe_strmap *m, size_t *it, const char **key, void **value) {
    while (*it < m->cap) {
        slot *s = &m->slots[(*it)++];
        if (s->key && s->key != TOMBSTONE) {
            if (key) *key = s->key;
            if (value) *value = s->value;
            return true;
        }
    }
    return false;
}
