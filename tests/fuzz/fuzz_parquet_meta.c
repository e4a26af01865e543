/*
 * fuzz_parquet_meta.c - the Parquet footer, page header and page index
 * parsers (format/parquet_meta.c) on arbitrary bytes.
 *
 * Input layout: none; the whole input goes to each of the four parsers as
 * FileMetaData, PageHeader, ColumnIndex and OffsetIndex (the seeds are real
 * footers, page headers and page indexes, so each parser gets inputs near
 * its own structure and the others exercise the shared skip paths).
 *
 * Invariants checked besides "no crash, no read past the input, no leak":
 *  - a failure is INVALID_DATA with a "thrift: " message (or the footer and
 *    page header limits' own messages), and leaves the output zeroed;
 *  - a parsed footer is consistent with parquet.h: counts >= 0 with arrays
 *    behind them, names and paths NUL-terminated, strings and statistics
 *    copied out of the input (never pointing into it), optional offsets -1
 *    or >= 0, sizes and counts >= 0, stats lengths within SQE_PQ_MAX_STRING;
 *  - a parsed page header reports hdr_len <= the input, sizes within
 *    0..SQE_PQ_MAX_PAGE, and every strict prefix of those hdr_len bytes asks
 *    for more (need_more, err untouched) -- the contract the reader relies
 *    on to fetch a header in pieces; a page header that asked for more
 *    still does on any shorter prefix;
 *  - parsing is deterministic: the footer parsed twice gives the same
 *    counts.
 */
#include "format/parquet.h"
#include "fuzz_common.h"

static bool g_in_input(const void *p, const uint8_t *data, size_t size) {
    const uint8_t *q = p;
    return q >= data && q < data + size;
}

static void check_stats(const sqe_pq_stats *st, const uint8_t *data, size_t size) {
    if (st->has_min && (st->min == NULL || st->min_len > SQE_PQ_MAX_STRING))
        fuzz_fail("stats min without bytes or over the limit", NULL);
    if (st->has_max && (st->max == NULL || st->max_len > SQE_PQ_MAX_STRING))
        fuzz_fail("stats max without bytes or over the limit", NULL);
    if ((st->has_min && st->min_len && g_in_input(st->min, data, size)) ||
        (st->has_max && st->max_len && g_in_input(st->max, data, size)))
        fuzz_fail("footer statistics point into the input buffer", NULL);
    if ((st->has_null_count && st->null_count < 0) ||
        (st->has_distinct_count && st->distinct_count < 0) ||
        (st->has_nan_count && st->nan_count < 0))
        fuzz_fail("negative statistic kept", NULL);
}

static void check_chunk(const sqe_pq_column_chunk *c, const uint8_t *data, size_t size) {
    if (!c->has_meta && !c->encrypted) fuzz_fail("column chunk without meta_data", NULL);
    if (c->n_encodings < 0 || (c->n_encodings && !c->encodings) || c->n_path < 0 ||
        (c->n_path && !c->path))
        fuzz_fail("column chunk lists", NULL);
    for (int i = 0; i < c->n_encodings; i++)
        if (c->encodings[i] < 0) fuzz_fail("negative encoding", NULL);
    for (int i = 0; i < c->n_path; i++) {
        if (!c->path[i] || g_in_input(c->path[i], data, size)) fuzz_fail("path not copied", NULL);
        (void)strlen(c->path[i]);
    }
    if (c->file_path) (void)strlen(c->file_path);
    if (c->num_values < 0 || c->total_compressed_size < 0 || c->total_uncompressed_size < 0 ||
        c->data_page_offset < 0 || c->index_page_offset < -1 || c->dictionary_page_offset < -1 ||
        c->offset_index_offset < -1 || c->column_index_offset < -1 || c->offset_index_length < 0 ||
        c->column_index_length < 0 || c->physical < 0 || c->codec < 0)
        fuzz_fail("negative size, offset or enum in a column chunk", NULL);
    check_stats(&c->stats, data, size);
}

static void check_meta(const sqe_pq_file_meta *m, const uint8_t *data, size_t size) {
    if (m->n_schema < 0 || m->n_schema > SQE_PQ_MAX_SCHEMA || (m->n_schema && !m->schema))
        fuzz_fail("schema count", NULL);
    if (m->n_row_groups < 0 || m->n_row_groups > SQE_PQ_MAX_ROW_GROUPS ||
        (m->n_row_groups && !m->row_groups))
        fuzz_fail("row group count", NULL);
    if (m->num_rows < 0) fuzz_fail("negative num_rows", NULL);
    if (m->created_by && g_in_input(m->created_by, data, size))
        fuzz_fail("created_by not copied", NULL);
    if (m->n_column_orders < 0 || m->n_column_orders > SQE_PQ_MAX_SCHEMA ||
        (m->n_column_orders && !m->column_orders))
        fuzz_fail("column order count", NULL);
    for (int i = 0; i < m->n_column_orders; i++)
        if (m->column_orders[i] < SQE_PQ_ORDER_UNKNOWN ||
            m->column_orders[i] > SQE_PQ_ORDER_INT96_TIMESTAMP)
            fuzz_fail("column order out of range", NULL);
    for (int i = 0; i < m->n_schema; i++) {
        const sqe_pq_schema_elem *e = &m->schema[i];
        if (!e->name || g_in_input(e->name, data, size)) fuzz_fail("schema name not copied", NULL);
        (void)strlen(e->name);
        if (e->num_children < 0 || e->type_length < 0 || e->physical < -1 || e->repetition < -1 ||
            e->converted < -1)
            fuzz_fail("negative schema value", NULL);
    }
    for (int g = 0; g < m->n_row_groups; g++) {
        const sqe_pq_row_group *rg = &m->row_groups[g];
        if (rg->n_columns < 0 || rg->n_columns > SQE_PQ_MAX_SCHEMA ||
            (rg->n_columns && !rg->columns) || rg->num_rows < 0 || rg->total_byte_size < 0 ||
            rg->file_offset < -1 || rg->total_compressed_size < -1)
            fuzz_fail("row group values", NULL);
        for (int c = 0; c < rg->n_columns; c++) check_chunk(&rg->columns[c], data, size);
    }
}

static void check_error(const sqe_error *err, const char *what) {
    if (err->cls != SQE_ERR_INVALID_DATA || !err->msg[0]) fuzz_fail(what, err->msg);
}

static void fuzz_footer(const uint8_t *data, size_t size) {
    sqe_arena *a = sqe_arena_new(0);
    sqe_pq_file_meta m, m2;
    sqe_error err;
    memset(&err, 0, sizeof err);
    if (sqe_pq_parse_file_meta(data, size, a, &m, &err)) {
        check_meta(&m, data, size);
        if (!sqe_pq_parse_file_meta(data, size, a, &m2, &err) || m2.n_schema != m.n_schema ||
            m2.n_row_groups != m.n_row_groups || m2.num_rows != m.num_rows)
            fuzz_fail("footer parse is not deterministic", NULL);
    } else {
        check_error(&err, "footer error without INVALID_DATA and a message");
        if (m.schema || m.row_groups || m.n_schema)
            fuzz_fail("failed footer parse left output", NULL);
    }
    sqe_arena_free(a);
}

static void fuzz_page_header(const uint8_t *data, size_t size) {
    sqe_pq_page_header h, h2;
    size_t hl = 0, hl2;
    bool more = false, more2;
    sqe_error err, err2;
    memset(&err, 0, sizeof err);
    if (sqe_pq_parse_page_header(data, size, &h, &hl, &more, &err)) {
        if (more || hl == 0 || hl > size) fuzz_fail("page header length", NULL);
        if (h.compressed_size < 0 || (uint32_t)h.compressed_size > SQE_PQ_MAX_PAGE ||
            h.uncompressed_size < 0 || (uint32_t)h.uncompressed_size > SQE_PQ_MAX_PAGE ||
            h.num_values < 0 || h.dict_num_values < 0 || h.num_nulls < 0 || h.num_rows < 0 ||
            h.def_levels_len < 0 || h.rep_levels_len < 0)
            fuzz_fail("page header values out of range", NULL);
        if (h.stats.has_min && h.stats.min_len && !g_in_input(h.stats.min, data, hl))
            fuzz_fail("page statistics outside the header", NULL);
        /* every strict prefix asks for more (check a few) */
        size_t ks[] = {0, hl / 2, hl - 1};
        for (size_t i = 0; i < SQE_ARRAY_LEN(ks); i++) {
            strcpy(err2.msg, "untouched");
            if (sqe_pq_parse_page_header(data, ks[i], &h2, &hl2, &more2, &err2) || !more2 ||
                strcmp(err2.msg, "untouched") != 0)
                fuzz_fail("a prefix of a page header did not ask for more", err2.msg);
        }
    } else if (more) {
        if (size > 0 &&
            (sqe_pq_parse_page_header(data, size / 2, &h2, &hl2, &more2, &err2) || !more2))
            fuzz_fail("a shorter prefix of a need_more header did not ask for more", NULL);
    } else {
        check_error(&err, "page header error without INVALID_DATA and a message");
    }
}

static void fuzz_page_index(const uint8_t *data, size_t size) {
    sqe_arena *a = sqe_arena_new(0);
    sqe_error err;
    sqe_pq_column_index ci;
    memset(&err, 0, sizeof err);
    if (sqe_pq_parse_column_index(data, size, a, &ci, &err)) {
        if (ci.n_pages < 0 || (ci.n_pages && (!ci.null_pages || !ci.min || !ci.max)) ||
            ci.boundary_order < 0 || ci.boundary_order > 2)
            fuzz_fail("column index values", NULL);
        for (int i = 0; i < ci.n_pages; i++) {
            if (ci.min_len[i] > SQE_PQ_MAX_STRING || ci.max_len[i] > SQE_PQ_MAX_STRING ||
                (ci.min_len[i] && g_in_input(ci.min[i], data, size)))
                fuzz_fail("column index bounds", NULL);
            if (ci.null_counts && ci.null_counts[i] < 0) fuzz_fail("negative null count", NULL);
        }
    } else {
        check_error(&err, "column index error without INVALID_DATA and a message");
    }
    sqe_pq_offset_index oi;
    memset(&err, 0, sizeof err);
    if (sqe_pq_parse_offset_index(data, size, a, &oi, &err)) {
        if (oi.n_pages < 0 || (oi.n_pages && !oi.pages)) fuzz_fail("offset index count", NULL);
        for (int i = 0; i < oi.n_pages; i++)
            if (oi.pages[i].offset < 0 || oi.pages[i].compressed_page_size < 0 ||
                oi.pages[i].first_row_index < 0)
                fuzz_fail("negative page location", NULL);
    } else {
        check_error(&err, "offset index error without INVALID_DATA and a message");
    }
    sqe_arena_free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_footer(data, size);
    fuzz_page_header(data, size);
    fuzz_page_index(data, size);
    return 0;
}
