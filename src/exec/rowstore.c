/*
 * rowstore.c - materialized rows for the blocking operators that must keep
 * their input: SortExec keeps its rows until a run is full (then it is
 * sorted and spilled, see sort.c), TopNExec keeps its best rows plus a
 * buffer of candidates.
 *
 * Layout: chunks of SQE_BATCH_ROWS rows, each an array of owned vectors (one
 * per column), so rows are copied with the same typed loops as batches and
 * long strings land in the chunk vector's heap. A row's address is
 * (chunk << 11) | row; chunks adopted from another store (parallel workers'
 * buffers) may be partly filled, so code walks rows through
 * sqe_rowstore_indexes instead of assuming 0..n_rows-1.
 *
 * Sorting extracts every ORDER BY key into normalized slots (keys.c) once,
 * then runs a stable bottom-up merge sort over row addresses comparing
 * slots: no per-comparison type dispatch through vectors.
 * sqe_rowstore_sort_all also hands back the slots in sorted order, which is
 * what the external sort's k-way merge compares (sort.c), and
 * sqe_rowstore_append_bytes tells a caller what an append will cost before
 * it copies anything, so it can reserve memory or spill first.
 */
#include "exec/exec_int.h"

void sqe_rowstore_init(sqe_rowstore *rs, int n_cols, const sqe_type *types, bool tagged) {
    memset(rs, 0, sizeof *rs);
    rs->n_cols = n_cols;
    rs->types = types;
    rs->tagged = tagged;
}

static void chunk_free(sqe_rowstore_chunk *c, int n_cols) {
    for (int k = 0; k < n_cols; k++) sqe_vector_free(c->cols[k]);
    sqe_free(c->cols);
}

void sqe_rowstore_free(sqe_rowstore *rs) {
    for (size_t i = 0; i < rs->chunks.len; i++) chunk_free(&rs->chunks.items[i], rs->n_cols);
    SQE_ARRAY_FREE(rs->chunks);
    rs->n_rows = 0;
    rs->bytes = 0;
}

static size_t row_width(const sqe_rowstore *rs) {
    size_t w = 0;
    for (int k = 0; k < rs->n_cols; k++) w += sqe_type_width(rs->types[k]);
    return w;
}

/* The last chunk if it has room, else a new one. */
static sqe_rowstore_chunk *chunk_with_room(sqe_rowstore *rs) {
    if (rs->chunks.len > 0) {
        sqe_rowstore_chunk *c = &rs->chunks.items[rs->chunks.len - 1];
        if (c->n < SQE_BATCH_ROWS) return c;
    }
    sqe_rowstore_chunk c;
    c.n = 0;
    c.cols = sqe_calloc((size_t)(rs->n_cols > 0 ? rs->n_cols : 1), sizeof *c.cols);
    for (int k = 0; k < rs->n_cols; k++) c.cols[k] = sqe_vector_new(rs->types[k]);
    SQE_ARRAY_PUSH(NULL, rs->chunks, c);
    rs->bytes += SQE_BATCH_ROWS * (row_width(rs) + 1) + sizeof c;
    return &rs->chunks.items[rs->chunks.len - 1];
}

static bool is_str(sqe_type t) {
    return t.id == SQE_T_VARCHAR || t.id == SQE_T_VARBINARY;
}

/* Copies src row sr into dst row dr (string bytes copied into dst's heap). */
static inline size_t copy_cell(sqe_vector *dst, uint32_t dr, const sqe_vector *src, uint32_t sr,
                               size_t w, bool str) {
    if (sqe_vector_is_null(src, sr) || src->type.id == SQE_T_NULL) {
        sqe_vector_set_null(dst, dr);
        return 0;
    }
    sqe_vector_set_valid(dst, dr);
    if (str) {
        const sqe_string *s = &SQE_VEC_DATA(src, sqe_string)[sr];
        if (s->len <= SQE_STRING_INLINE) {
            SQE_VEC_DATA(dst, sqe_string)[dr] = *s;
            return 0;
        }
        sqe_vector_set_string(dst, dr, s->u.ptr, s->len);
        return s->len;
    }
    memcpy((char *)dst->data + (size_t)dr * w, (const char *)src->data + (size_t)sr * w, w);
    return 0;
}

size_t sqe_rowstore_append_bytes(const sqe_rowstore *rs, const sqe_batch *b, const uint16_t *sel,
                                 uint32_t n) {
    uint32_t room = 0;
    if (rs->chunks.len > 0) room = SQE_BATCH_ROWS - rs->chunks.items[rs->chunks.len - 1].n;
    size_t bytes = 0;
    if (n > room) {
        size_t new_chunks = (n - room + SQE_BATCH_ROWS - 1) / SQE_BATCH_ROWS;
        bytes += new_chunks * (SQE_BATCH_ROWS * (row_width(rs) + 1) + sizeof(sqe_rowstore_chunk));
    }
    int n_data = rs->n_cols - (rs->tagged ? 1 : 0);
    for (int k = 0; k < n_data; k++) {
        const sqe_vector *v = b->cols[k];
        if (!is_str(rs->types[k]) || v->type.id == SQE_T_NULL) continue;
        const sqe_string *d = v->data;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t r = sel ? sel[i] : i;
            if (d[r].len > SQE_STRING_INLINE && !sqe_vector_is_null(v, r)) bytes += d[r].len;
        }
    }
    return bytes;
}

void sqe_rowstore_append(sqe_rowstore *rs, const sqe_batch *b, const uint16_t *sel, uint32_t n,
                         uint64_t tag_base) {
    uint32_t done = 0;
    int n_data = rs->n_cols - (rs->tagged ? 1 : 0);
    while (done < n) {
        sqe_rowstore_chunk *c = chunk_with_room(rs);
        uint32_t take = SQE_MIN(n - done, SQE_BATCH_ROWS - c->n);
        if (rs->tagged) {
            int64_t *tags = SQE_VEC_DATA(c->cols[n_data], int64_t) + c->n;
            for (uint32_t i = 0; i < take; i++)
                tags[i] = (int64_t)(tag_base + (sel ? sel[done + i] : done + i));
        }
        for (int k = 0; k < n_data; k++) {
            sqe_vector *dst = c->cols[k];
            const sqe_vector *src = b->cols[k];
            size_t w = sqe_type_width(rs->types[k]);
            bool str = is_str(rs->types[k]);
            if (!str && !src->has_nulls && !dst->has_nulls && src->type.id != SQE_T_NULL) {
                char *d = (char *)dst->data + (size_t)c->n * w;
                const char *s = src->data;
                if (!sel) {
                    memcpy(d, s + (size_t)done * w, (size_t)take * w);
                } else {
                    switch (w) {
                    case 1:
                        for (uint32_t i = 0; i < take; i++)
                            ((uint8_t *)d)[i] = ((const uint8_t *)s)[sel[done + i]];
                        break;
                    case 2:
                        for (uint32_t i = 0; i < take; i++)
                            ((uint16_t *)d)[i] = ((const uint16_t *)s)[sel[done + i]];
                        break;
                    case 4:
                        for (uint32_t i = 0; i < take; i++)
                            ((uint32_t *)d)[i] = ((const uint32_t *)s)[sel[done + i]];
                        break;
                    case 8:
                        for (uint32_t i = 0; i < take; i++)
                            ((uint64_t *)d)[i] = ((const uint64_t *)s)[sel[done + i]];
                        break;
                    default:
                        for (uint32_t i = 0; i < take; i++)
                            memcpy(d + i * w, s + (size_t)sel[done + i] * w, w);
                    }
                }
                continue;
            }
            size_t str_bytes = 0;
            for (uint32_t i = 0; i < take; i++) {
                uint32_t sr = sel ? sel[done + i] : done + i;
                str_bytes += copy_cell(dst, c->n + i, src, sr, w, str);
            }
            rs->bytes += str_bytes;
        }
        c->n += take;
        rs->n_rows += take;
        done += take;
    }
}

void sqe_rowstore_append_rows(sqe_rowstore *rs, const sqe_rowstore *src, const uint32_t *idx,
                              size_t n) {
    size_t done = 0;
    while (done < n) {
        sqe_rowstore_chunk *c = chunk_with_room(rs);
        uint32_t take = (uint32_t)SQE_MIN(n - done, (size_t)(SQE_BATCH_ROWS - c->n));
        for (int k = 0; k < rs->n_cols; k++) {
            sqe_vector *dst = c->cols[k];
            size_t w = sqe_type_width(rs->types[k]);
            bool str = is_str(rs->types[k]);
            size_t str_bytes = 0;
            for (uint32_t i = 0; i < take; i++) {
                uint32_t sr;
                const sqe_vector *sv = sqe_rowstore_col(src, idx[done + i], k, &sr);
                str_bytes += copy_cell(dst, c->n + i, sv, sr, w, str);
            }
            rs->bytes += str_bytes;
        }
        c->n += take;
        rs->n_rows += take;
        done += take;
    }
}

void sqe_rowstore_adopt(sqe_rowstore *rs, sqe_rowstore *src) {
    if (rs->chunks.len > 0 &&
        rs->chunks.items[rs->chunks.len - 1].n == 0) { /* drop an empty tail */
        chunk_free(&rs->chunks.items[rs->chunks.len - 1], rs->n_cols);
        rs->chunks.len--;
    }
    for (size_t i = 0; i < src->chunks.len; i++)
        SQE_ARRAY_PUSH(NULL, rs->chunks, src->chunks.items[i]);
    rs->n_rows += src->n_rows;
    rs->bytes += src->bytes;
    SQE_ARRAY_FREE(src->chunks);
    src->n_rows = 0;
    src->bytes = 0;
}

void sqe_rowstore_indexes(const sqe_rowstore *rs, uint32_t *idx) {
    size_t k = 0;
    for (size_t c = 0; c < rs->chunks.len; c++)
        for (uint32_t r = 0; r < rs->chunks.items[c].n; r++)
            idx[k++] = (uint32_t)(c << SQE_ROWSTORE_SHIFT) | r;
}

/* ---------------------------------------------------------------- sorting */

typedef struct sort_ctx {
    int n_keys;
    const sqe_sort_key *keys;
    sqe_key_class *kc;
    sqe_key_slot **slots; /* per key >= 1: slot per position in source order (key 0: NULL) */
    uint8_t **nulls;
} sort_ctx;

/* What the merge sort moves: the first key's slot inline, so most
 * comparisons read only the two elements being compared (sequential memory)
 * instead of indexing per-key arrays at random; later keys are looked up by
 * position only on a tie. Words instead of an sqe_key_slot keep it at 24
 * bytes (the slot's 128-bit member would align it to 32). */
typedef struct sort_elem {
    uint64_t w0, w1; /* key 0's slot */
    uint32_t pos;    /* position in source order */
    uint8_t null0;
} sort_elem;

static inline int cmp_elem(const sort_ctx *sc, const sort_elem *a, const sort_elem *b) {
    sqe_key_slot ka, kb;
    ka.w[0] = a->w0;
    ka.w[1] = a->w1;
    kb.w[0] = b->w0;
    kb.w[1] = b->w1;
    int c = sqe_key_cmp_sort(&sc->keys[0], sc->kc[0], &ka, a->null0, &kb, b->null0);
    if (c) return c;
    for (int k = 1; k < sc->n_keys; k++) {
        c = sqe_key_cmp_sort(&sc->keys[k], sc->kc[k], &sc->slots[k][a->pos], sc->nulls[k][a->pos],
                             &sc->slots[k][b->pos], sc->nulls[k][b->pos]);
        if (c) return c;
    }
    return 0;
}

/* Stable merge sort of e[0..n) using tmp (n entries). */
static void merge_sort(const sort_ctx *sc, sort_elem *e, sort_elem *tmp, size_t n) {
    const size_t RUN = 16;
    for (size_t lo = 0; lo < n; lo += RUN) { /* insertion sort runs */
        size_t hi = SQE_MIN(lo + RUN, n);
        for (size_t i = lo + 1; i < hi; i++) {
            sort_elem x = e[i];
            size_t j = i;
            while (j > lo && cmp_elem(sc, &e[j - 1], &x) > 0) {
                e[j] = e[j - 1];
                j--;
            }
            e[j] = x;
        }
    }
    sort_elem *src = e, *dst = tmp;
    for (size_t width = RUN; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = SQE_MIN(lo + width, n), hi = SQE_MIN(lo + 2 * width, n);
            size_t i = lo, j = mid, k = lo;
            if (mid >= hi || cmp_elem(sc, &src[mid - 1], &src[mid]) <= 0) { /* already ordered */
                memcpy(dst + lo, src + lo, (hi - lo) * sizeof *src);
                continue;
            }
            while (i < mid && j < hi)
                dst[k++] = cmp_elem(sc, &src[j], &src[i]) < 0 ? src[j++] : src[i++];
            while (i < mid) dst[k++] = src[i++];
            while (j < hi) dst[k++] = src[j++];
        }
        sort_elem *t = src;
        src = dst;
        dst = t;
    }
    if (src != e) memcpy(e, src, n * sizeof *e);
}

/* Loads the key slots of rows idx[0..n) (key 0 into the elements, later
 * keys into sc's arrays, in idx order) and sorts: returns the elements in
 * sorted order (malloc'd). n_keys >= 1. */
static sort_elem *sort_elems(const sqe_rowstore *rs, const sqe_sort_key *keys, int n_keys,
                             const uint32_t *idx, size_t n, sort_ctx *sc) {
    sc->n_keys = n_keys;
    sc->keys = keys;
    sc->kc = sqe_malloc((size_t)n_keys * sizeof *sc->kc);
    sc->slots = sqe_calloc((size_t)n_keys, sizeof *sc->slots);
    sc->nulls = sqe_calloc((size_t)n_keys, sizeof *sc->nulls);
    sort_elem *e = sqe_malloc((n > 0 ? n : 1) * sizeof *e);
    uint16_t *rows = sqe_malloc(SQE_BATCH_ROWS * sizeof *rows);
    sqe_key_slot *ks = sqe_malloc(SQE_BATCH_ROWS * sizeof *ks);
    uint8_t *kn = sqe_malloc(SQE_BATCH_ROWS);
    for (int k = 0; k < n_keys; k++) {
        sc->kc[k] = sqe_key_class_of(rs->types[keys[k].col]);
        if (k > 0) {
            sc->slots[k] = sqe_malloc((n > 0 ? n : 1) * sizeof **sc->slots);
            sc->nulls[k] = sqe_malloc(n > 0 ? n : 1);
        }
        /* Load in runs of rows that share a chunk. */
        size_t i = 0;
        while (i < n) {
            uint32_t chunk = idx[i] >> SQE_ROWSTORE_SHIFT;
            uint32_t m = 0;
            while (i + m < n && (idx[i + m] >> SQE_ROWSTORE_SHIFT) == chunk && m < SQE_BATCH_ROWS) {
                rows[m] = (uint16_t)(idx[i + m] & (SQE_BATCH_ROWS - 1));
                m++;
            }
            const sqe_vector *v = rs->chunks.items[chunk].cols[keys[k].col];
            if (k > 0) {
                sqe_key_load(v, rows, m, sc->slots[k] + i, sc->nulls[k] + i);
            } else {
                sqe_key_load(v, rows, m, ks, kn);
                for (uint32_t r = 0; r < m; r++) {
                    e[i + r].w0 = ks[r].w[0];
                    e[i + r].w1 = ks[r].w[1];
                    e[i + r].pos = (uint32_t)(i + r);
                    e[i + r].null0 = kn[r];
                }
            }
            i += m;
        }
    }
    sqe_free(rows);
    sqe_free(ks);
    sqe_free(kn);
    if (n >= 2) {
        sort_elem *tmp = sqe_malloc(n * sizeof *tmp);
        merge_sort(sc, e, tmp, n);
        sqe_free(tmp);
    }
    return e;
}

static void sort_ctx_free(sort_ctx *sc) {
    for (int k = 0; k < sc->n_keys; k++) {
        sqe_free(sc->slots[k]);
        sqe_free(sc->nulls[k]);
    }
    sqe_free(sc->kc);
    sqe_free(sc->slots);
    sqe_free(sc->nulls);
}

void sqe_rowstore_sort(const sqe_rowstore *rs, const sqe_sort_key *keys, int n_keys, uint32_t *idx,
                       size_t n) {
    if (n < 2 || n_keys == 0) return;
    sort_ctx sc;
    sort_elem *e = sort_elems(rs, keys, n_keys, idx, n, &sc);
    sort_ctx_free(&sc);
    uint32_t *tmp = sqe_malloc(n * sizeof *tmp);
    for (size_t i = 0; i < n; i++) tmp[i] = idx[e[i].pos];
    sqe_free(e);
    memcpy(idx, tmp, n * sizeof *idx);
    sqe_free(tmp);
}

uint32_t *sqe_rowstore_sort_all(const sqe_rowstore *rs, const sqe_sort_key *keys, int n_keys,
                                sqe_key_slot ***slots_out, uint8_t ***nulls_out) {
    size_t n = rs->n_rows;
    uint32_t *idx = sqe_malloc((n > 0 ? n : 1) * sizeof *idx);
    sqe_rowstore_indexes(rs, idx);
    if (n_keys == 0) {
        if (slots_out) {
            *slots_out = sqe_calloc(1, sizeof **slots_out);
            *nulls_out = sqe_calloc(1, sizeof **nulls_out);
        }
        return idx;
    }
    sort_ctx sc;
    sort_elem *e = sort_elems(rs, keys, n_keys, idx, n, &sc);
    if (slots_out) {
        /* The keys in sorted order, one array at a time (peak: one extra
         * key array), then handed to the caller. */
        sc.slots[0] = sqe_malloc((n > 0 ? n : 1) * sizeof **sc.slots);
        sc.nulls[0] = sqe_malloc(n > 0 ? n : 1);
        for (size_t i = 0; i < n; i++) {
            sc.slots[0][i].w[0] = e[i].w0;
            sc.slots[0][i].w[1] = e[i].w1;
            sc.nulls[0][i] = e[i].null0;
        }
        for (int k = 1; k < n_keys; k++) {
            sqe_key_slot *ns = sqe_malloc((n > 0 ? n : 1) * sizeof *ns);
            for (size_t i = 0; i < n; i++) ns[i] = sc.slots[k][e[i].pos];
            sqe_free(sc.slots[k]);
            sc.slots[k] = ns;
            uint8_t *nn = sqe_malloc(n > 0 ? n : 1);
            for (size_t i = 0; i < n; i++) nn[i] = sc.nulls[k][e[i].pos];
            sqe_free(sc.nulls[k]);
            sc.nulls[k] = nn;
        }
        *slots_out = sc.slots;
        *nulls_out = sc.nulls;
        sc.slots = NULL;
        sc.nulls = NULL;
        sc.n_keys = 0;
    }
    sort_ctx_free(&sc);
    uint32_t *sorted = sqe_malloc((n > 0 ? n : 1) * sizeof *sorted);
    for (size_t i = 0; i < n; i++) sorted[i] = idx[e[i].pos];
    sqe_free(idx);
    sqe_free(e);
    return sorted;
}

void sqe_rowstore_gather(const sqe_rowstore *rs, const uint32_t *idx, uint32_t n, sqe_batch *out) {
    for (int k = 0; k < out->n_cols && k < rs->n_cols; k++) {
        sqe_vector *dst = out->cols[k];
        size_t w = sqe_type_width(rs->types[k]);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t sr;
            const sqe_vector *src = sqe_rowstore_col(rs, idx[i], k, &sr);
            if (src->type.id == SQE_T_NULL || sqe_vector_is_null(src, sr)) {
                sqe_vector_set_null(dst, i);
                continue;
            }
            sqe_vector_set_valid(dst, i);
            switch (w) {
            case 1:
                ((uint8_t *)dst->data)[i] = ((const uint8_t *)src->data)[sr];
                break;
            case 2:
                ((uint16_t *)dst->data)[i] = ((const uint16_t *)src->data)[sr];
                break;
            case 4:
                ((uint32_t *)dst->data)[i] = ((const uint32_t *)src->data)[sr];
                break;
            case 8:
                ((uint64_t *)dst->data)[i] = ((const uint64_t *)src->data)[sr];
                break;
            case 16:
                ((sqe_key_slot *)dst->data)[i] = ((const sqe_key_slot *)src->data)[sr];
                break;
            default:
                memcpy((char *)dst->data + i * w, (const char *)src->data + (size_t)sr * w, w);
            }
        }
    }
    out->n_rows = n;
    out->sel = NULL;
    out->n_sel = 0;
}
