/*
 * resultset.c - a fully materialized query result: column names and types
 * plus a list of compact batches (no selection vectors), each full except
 * possibly the last.
 *
 * Where it sits: exec/ drains a plan into one for embedded callers and the
 * CLI; hive/ builds small ones for SHOW and DESCRIBE with
 * sqe_resultset_add_text_row. The printer and the pgwire encoder read the
 * batches in order; n_rows is the total row count.
 *
 * Ownership: the result set owns its names, types and batches (and through
 * them every string byte, copied into the batches' vector heaps), so it
 * outlives the statement that produced it. Free with sqe_resultset_free.
 */
#include "vector/vector.h"

#include <string.h>

sqe_resultset *sqe_resultset_new(int n_cols, const char *const *names, const sqe_type *types) {
    sqe_resultset *rs = sqe_calloc(1, sizeof *rs);
    if (n_cols < 0) n_cols = 0;
    rs->n_cols = n_cols;
    rs->names = sqe_calloc((size_t)n_cols, sizeof *rs->names);
    rs->types = sqe_calloc((size_t)n_cols, sizeof *rs->types);
    for (int i = 0; i < n_cols; i++) {
        rs->names[i] = sqe_strdup(names && names[i] ? names[i] : "");
        rs->types[i] = types ? types[i] : sqe_type_make(SQE_T_VARCHAR);
    }
    return rs;
}

void sqe_resultset_free(sqe_resultset *rs) {
    if (!rs) return;
    for (size_t i = 0; i < rs->batches.len; i++) sqe_batch_free(rs->batches.items[i]);
    SQE_ARRAY_FREE(rs->batches);
    for (int i = 0; i < rs->n_cols; i++) sqe_free(rs->names[i]);
    sqe_free(rs->names);
    sqe_free(rs->types);
    sqe_free(rs);
}

/* The last batch if it has room, else a new one appended to the list. */
static sqe_batch *batch_with_room(sqe_resultset *rs) {
    if (rs->batches.len > 0) {
        sqe_batch *last = rs->batches.items[rs->batches.len - 1];
        if (last->n_rows < SQE_BATCH_ROWS) return last;
    }
    sqe_batch *b = sqe_batch_new(rs->n_cols, rs->types);
    SQE_ARRAY_PUSH(NULL, rs->batches, b);
    return b;
}

static bool is_string_type(sqe_type t) {
    return t.id == SQE_T_VARCHAR || t.id == SQE_T_VARBINARY;
}

/* Copies live rows first..first+n of `src` (a column of batch b) to rows
 * dst_row.. of dst. */
static void copy_column(sqe_vector *dst, uint32_t dst_row, const sqe_vector *src,
                        const sqe_batch *b, uint32_t first, uint32_t n) {
    if (!src || src->type.id == SQE_T_NULL || dst->type.id == SQE_T_NULL) {
        for (uint32_t i = 0; i < n; i++) sqe_vector_set_null(dst, dst_row + i);
        return;
    }
    if (!b->sel && !is_string_type(dst->type)) {
        /* Dense fixed-width: one memcpy plus validity. */
        size_t w = sqe_type_width(dst->type);
        memcpy((char *)dst->data + (size_t)dst_row * w, (const char *)src->data + (size_t)first * w,
               (size_t)n * w);
        if (src->has_nulls || dst->has_nulls) {
            for (uint32_t i = 0; i < n; i++) {
                if (sqe_vector_is_null(src, first + i))
                    sqe_vector_set_null(dst, dst_row + i);
                else
                    sqe_vector_set_valid(dst, dst_row + i);
            }
        }
        return;
    }
    for (uint32_t i = 0; i < n; i++)
        sqe_vector_copy_row(dst, dst_row + i, src, sqe_batch_row(b, first + i));
}

void sqe_resultset_append(sqe_resultset *rs, const sqe_batch *b) {
    uint32_t live = sqe_batch_live(b), done = 0;
    while (done < live) {
        sqe_batch *dst = batch_with_room(rs);
        uint32_t take = SQE_MIN(live - done, SQE_BATCH_ROWS - dst->n_rows);
        for (int c = 0; c < rs->n_cols; c++) {
            const sqe_vector *src = c < b->n_cols ? b->cols[c] : NULL;
            copy_column(dst->cols[c], dst->n_rows, src, b, done, take);
        }
        dst->n_rows += take;
        done += take;
        rs->n_rows += take;
    }
}

void sqe_resultset_add_text_row(sqe_resultset *rs, const char *const *values) {
    sqe_batch *dst = batch_with_room(rs);
    uint32_t row = dst->n_rows;
    for (int c = 0; c < rs->n_cols; c++) {
        sqe_vector *v = dst->cols[c];
        const char *text = values ? values[c] : NULL;
        if (!text) {
            sqe_vector_set_null(v, row);
            continue;
        }
        sqe_vector_set_valid(v, row);
        if (is_string_type(v->type)) {
            sqe_vector_set_string(v, row, text, strlen(text));
            continue;
        }
        /* A typed column (e.g. a BIGINT count): parse the text like a
         * TRY_CAST; text that does not parse becomes NULL. */
        sqe_value in = sqe_value_string(text, (uint32_t)strlen(text)), out;
        if (!sqe_value_cast(&in, v->type, true, NULL, &out, NULL)) out = sqe_value_null(v->type);
        sqe_vector_set_value(v, row, &out);
    }
    dst->n_rows++;
    rs->n_rows++;
}
