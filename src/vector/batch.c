/*
 * batch.c - a batch: an array of column vectors, a physical row count and an
 * optional selection vector naming the live rows.
 *
 * Where it sits: the unit of data every operator's *_next passes on. A
 * filter narrows a batch by pointing `sel` at `sel_buf` (ascending row
 * indexes) instead of moving rows; every consumer reads live rows through
 * sqe_batch_live / sqe_batch_row.
 *
 * Ownership: owned[i] says whether cols[i] is freed (and reset) by this
 * batch. sqe_batch_new owns all its vectors; a projection that passes an
 * input vector through stores it with owned[i] = false, and the producing
 * operator keeps it alive until its next *_next call.
 */
#include "vector/vector.h"

sqe_batch *sqe_batch_new_empty(int n_cols) {
    sqe_batch *b = sqe_calloc(1, sizeof *b);
    if (n_cols < 0) n_cols = 0;
    b->n_cols = n_cols;
    b->cols = sqe_calloc((size_t)n_cols, sizeof *b->cols);
    b->owned = sqe_calloc((size_t)n_cols, sizeof *b->owned);
    b->n_rows = 0;
    b->sel = NULL;
    b->n_sel = 0;
    return b;
}

sqe_batch *sqe_batch_new(int n_cols, const sqe_type *types) {
    sqe_batch *b = sqe_batch_new_empty(n_cols);
    for (int i = 0; i < b->n_cols; i++) {
        b->cols[i] = sqe_vector_new(types[i]);
        b->owned[i] = true;
    }
    return b;
}

void sqe_batch_free(sqe_batch *b) {
    if (!b) return;
    for (int i = 0; i < b->n_cols; i++)
        if (b->owned[i]) sqe_vector_free(b->cols[i]);
    sqe_free(b->cols);
    sqe_free(b->owned);
    sqe_free(b);
}

void sqe_batch_reset(sqe_batch *b) {
    b->n_rows = 0;
    b->sel = NULL;
    b->n_sel = 0;
    for (int i = 0; i < b->n_cols; i++)
        if (b->owned[i] && b->cols[i]) sqe_vector_reset(b->cols[i]);
}
