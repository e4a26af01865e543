/*
 * test_parquet_meta.c - the thrift compact decoder and the Parquet footer,
 * page header and page index parsers (format/parquet_meta.c).
 *
 * Real files: every *.parquet of the shared parquet-testing folder (found as
 * ../shared/parquet-testing, ../../shared/parquet-testing or
 * $SQE_PARQUET_TESTING) has its footer parsed and checked for consistency
 * (row counts add up, one column chunk per leaf, paths name leaves), and
 * every column chunk is walked page by page from its first page: each
 * header parses, the pages exactly fill total_compressed_size, the data
 * pages' values add up to the chunk's num_values, and where the file has
 * an offset index its page locations are the data pages found by the walk.
 * Known facts from the folder's README and *.md files are checked per file
 * (row counts, names, types, logical types, codecs, encodings).
 *
 * Hand-built buffers (a small thrift writer, tb_*) cover every field kind
 * the decoder knows, skipping of unknown fields of every type, and each
 * error path; every prefix of real footers and page headers must fail
 * cleanly (footers) or ask for more bytes (page headers).
 *
 * PQ_DUMP=1 prints each real file's footer (a debugging aid).
 */
#include "format/parquet.h"
#include "unit.h"

#include <dirent.h>
#include <stdlib.h>

static const char *g_dir; /* the parquet-testing folder */

/* ------------------------------------------------------------ real files */

typedef struct pq_file {
    uint8_t *data;
    size_t len;
    const uint8_t *footer;
    size_t footer_len;
} pq_file;

static bool load_file(const char *name, pq_file *f) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", g_dir, name);
    memset(f, 0, sizeof *f);
    FILE *fp = fopen(path, "rb");
    if (!fp) return false;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    f->data = malloc(n > 0 ? (size_t)n : 1);
    f->len = fread(f->data, 1, (size_t)n, fp);
    fclose(fp);
    if (f->len < 12 || memcmp(f->data + f->len - 4, "PAR1", 4) != 0) return false;
    const uint8_t *t = f->data + f->len - 8;
    uint32_t flen = t[0] | t[1] << 8 | t[2] << 16 | (uint32_t)t[3] << 24;
    if (flen > f->len - 12) return false;
    f->footer_len = flen;
    f->footer = f->data + f->len - 8 - flen;
    return true;
}

static bool parse_file(const char *name, pq_file *f, sqe_arena *a, sqe_pq_file_meta *m) {
    sqe_error err;
    if (!load_file(name, f)) {
        fprintf(stderr, "cannot load %s/%s\n", g_dir, name);
        return false;
    }
    if (!sqe_pq_parse_file_meta(f->footer, f->footer_len, a, m, &err)) {
        fprintf(stderr, "%s: %s\n", name, err.msg);
        return false;
    }
    return true;
}

static void dump_meta(const char *name, const sqe_pq_file_meta *m) {
    printf("== %s: version %d, %lld rows, %d row groups, created_by %s%s\n", name, m->version,
           (long long)m->num_rows, m->n_row_groups, m->created_by ? m->created_by : "(none)",
           m->has_encryption_algorithm ? ", encrypted" : "");
    for (int i = 0; i < m->n_schema; i++) {
        const sqe_pq_schema_elem *e = &m->schema[i];
        printf("  schema %d %s phys %d len %d rep %d children %d conv %d scale %d prec %d id %d "
               "lt %d (%d,%d utc %d unit %d bw %d signed %d)\n",
               i, e->name, e->physical, e->type_length, e->repetition, e->num_children,
               e->converted, e->scale, e->precision, e->field_id, e->logical.kind,
               e->logical.scale, e->logical.precision, e->logical.utc_adjusted, e->logical.unit,
               e->logical.bit_width, e->logical.is_signed);
    }
    for (int g = 0; g < m->n_row_groups && g < 3; g++) {
        const sqe_pq_row_group *rg = &m->row_groups[g];
        printf("  rg %d: %lld rows, %lld bytes, offset %lld, %d columns\n", g,
               (long long)rg->num_rows, (long long)rg->total_byte_size,
               (long long)rg->file_offset, rg->n_columns);
        for (int c = 0; c < rg->n_columns && c < 12; c++) {
            const sqe_pq_column_chunk *cc = &rg->columns[c];
            printf("    col %s phys %d codec %d values %lld data %lld dict %lld comp %lld enc",
                   cc->n_path ? cc->path[cc->n_path - 1] : "?", cc->physical, cc->codec,
                   (long long)cc->num_values, (long long)cc->data_page_offset,
                   (long long)cc->dictionary_page_offset, (long long)cc->total_compressed_size);
            for (int e = 0; e < cc->n_encodings; e++) printf(" %d", cc->encodings[e]);
            printf(" stats min %u max %u legacy %d nulls %lld (%d) ci %lld/%d oi %lld/%d\n",
                   cc->stats.has_min ? cc->stats.min_len : 999,
                   cc->stats.has_max ? cc->stats.max_len : 999, cc->stats.legacy,
                   (long long)cc->stats.null_count, cc->stats.has_null_count,
                   (long long)cc->column_index_offset, cc->column_index_length,
                   (long long)cc->offset_index_offset, cc->offset_index_length);
        }
    }
}

/* Number of leaves under schema element *i (advances *i past the subtree);
 * -1 when num_children runs past the schema. */
static int count_leaves(const sqe_pq_file_meta *m, int *i) {
    if (*i >= m->n_schema) return -1;
    const sqe_pq_schema_elem *e = &m->schema[(*i)++];
    if (e->num_children == 0) return 1;
    int n = 0;
    for (int c = 0; c < e->num_children; c++) {
        int k = count_leaves(m, i);
        if (k < 0) return -1;
        n += k;
    }
    return n;
}

typedef struct walk_result {
    int n_data_pages, n_dict_pages;
    int64_t values;
    int64_t data_offsets[4096];
    bool all_crc;
    bool saw_v2;
} walk_result;

/* Walks a column chunk's pages; false (with a message) on any mismatch. */
static bool walk_chunk(const char *name, const pq_file *f, const sqe_pq_column_chunk *c,
                       walk_result *w) {
    memset(w, 0, sizeof *w);
    w->all_crc = true;
    int64_t pos = c->data_page_offset;
    if (c->dictionary_page_offset > 0 && c->dictionary_page_offset < pos)
        pos = c->dictionary_page_offset;
    int64_t end = pos + c->total_compressed_size;
    if (end > (int64_t)f->len) {
        fprintf(stderr, "%s: chunk runs past the file\n", name);
        return false;
    }
    while (pos < end) {
        sqe_pq_page_header h;
        size_t hl;
        bool more;
        sqe_error err;
        if (!sqe_pq_parse_page_header(f->data + pos, (size_t)(end - pos), &h, &hl, &more, &err)) {
            fprintf(stderr, "%s: page at %lld: %s\n", name, (long long)pos,
                    more ? "need more" : err.msg);
            return false;
        }
        /* every strict prefix asks for more bytes */
        for (size_t k = 0; k < hl; k++) {
            sqe_pq_page_header h2;
            size_t hl2;
            bool more2;
            if (sqe_pq_parse_page_header(f->data + pos, k, &h2, &hl2, &more2, &err) || !more2) {
                fprintf(stderr, "%s: page at %lld: prefix %zu of %zu did not ask for more\n",
                        name, (long long)pos, k, hl);
                return false;
            }
        }
        if (!h.has_crc) w->all_crc = false;
        if (h.type == SQE_PQ_DICTIONARY_PAGE) {
            w->n_dict_pages++;
        } else if (h.type == SQE_PQ_DATA_PAGE || h.type == SQE_PQ_DATA_PAGE_V2) {
            if (w->n_data_pages < (int)SQE_ARRAY_LEN(w->data_offsets))
                w->data_offsets[w->n_data_pages] = pos;
            w->n_data_pages++;
            w->values += h.num_values;
            w->saw_v2 |= h.type == SQE_PQ_DATA_PAGE_V2;
        }
        pos += (int64_t)hl + h.compressed_size;
    }
    if (pos != end) {
        fprintf(stderr, "%s: pages end at %lld, chunk at %lld\n", name, (long long)pos,
                (long long)end);
        return false;
    }
    if (w->values != c->num_values) {
        fprintf(stderr, "%s: pages hold %lld values, chunk says %lld\n", name,
                (long long)w->values, (long long)c->num_values);
        return false;
    }
    return true;
}

/* Checks the page index of a chunk against the page walk. */
static bool check_page_index(const char *name, const pq_file *f, const sqe_pq_column_chunk *c,
                             const walk_result *w, sqe_arena *a, int64_t rg_rows) {
    sqe_error err;
    if (c->offset_index_offset >= 0) {
        sqe_pq_offset_index oi;
        if (c->offset_index_offset + c->offset_index_length > (int64_t)f->len ||
            !sqe_pq_parse_offset_index(f->data + c->offset_index_offset,
                                       (size_t)c->offset_index_length, a, &oi, &err)) {
            fprintf(stderr, "%s: offset index: %s\n", name, err.msg);
            return false;
        }
        if (oi.n_pages != w->n_data_pages) {
            fprintf(stderr, "%s: offset index has %d pages, walk found %d\n", name, oi.n_pages,
                    w->n_data_pages);
            return false;
        }
        for (int i = 0; i < oi.n_pages && i < (int)SQE_ARRAY_LEN(w->data_offsets); i++) {
            if (oi.pages[i].offset != w->data_offsets[i] ||
                (i > 0 && oi.pages[i].first_row_index <= oi.pages[i - 1].first_row_index) ||
                oi.pages[i].first_row_index >= rg_rows) {
                fprintf(stderr, "%s: offset index page %d at %lld, walk found %lld\n", name, i,
                        (long long)oi.pages[i].offset, (long long)w->data_offsets[i]);
                return false;
            }
        }
    }
    if (c->column_index_offset >= 0) {
        sqe_pq_column_index ci;
        if (c->column_index_offset + c->column_index_length > (int64_t)f->len ||
            !sqe_pq_parse_column_index(f->data + c->column_index_offset,
                                       (size_t)c->column_index_length, a, &ci, &err)) {
            fprintf(stderr, "%s: column index: %s\n", name, err.msg);
            return false;
        }
        if (ci.n_pages != w->n_data_pages) {
            fprintf(stderr, "%s: column index has %d pages, walk found %d\n", name, ci.n_pages,
                    w->n_data_pages);
            return false;
        }
    }
    return true;
}

/* Footer consistency plus the page walk of every chunk. */
static void check_file(const char *name) {
    pq_file f;
    sqe_arena *a = sqe_arena_new(0);
    sqe_pq_file_meta m;
    bool ok = parse_file(name, &f, a, &m);
    CHECK(ok);
    if (!ok) goto out;
    if (getenv("PQ_DUMP")) dump_meta(name, &m);
    CHECK(m.n_schema >= 2);
    CHECK(m.schema[0].num_children > 0);
    int i = 0, leaves = count_leaves(&m, &i);
    CHECK(leaves > 0 && i == m.n_schema);
    int64_t rows = 0;
    for (int g = 0; g < m.n_row_groups; g++) {
        const sqe_pq_row_group *rg = &m.row_groups[g];
        rows += rg->num_rows;
        CHECK(rg->n_columns == leaves);
        for (int c = 0; c < rg->n_columns; c++) {
            const sqe_pq_column_chunk *cc = &rg->columns[c];
            CHECK(cc->has_meta && !cc->encrypted && cc->n_path >= 1);
            walk_result *w = malloc(sizeof *w);
            bool walked = walk_chunk(name, &f, cc, w);
            CHECK(walked);
            if (walked) CHECK(check_page_index(name, &f, cc, w, a, rg->num_rows));
            free(w);
        }
    }
    CHECK(rows == m.num_rows);
out:
    free(f.data);
    sqe_arena_free(a);
}

static void test_every_file(void) {
    DIR *d = opendir(g_dir);
    CHECK(d != NULL);
    if (!d) return;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t l = strlen(de->d_name);
        if (l < 8 || strcmp(de->d_name + l - 8, ".parquet") != 0) continue;
        check_file(de->d_name);
        n++;
    }
    closedir(d);
    CHECK(n >= 30);
}

/* Facts from the folder's README.md and *.md files. */
static void test_known_facts(void) {
    sqe_arena *a = sqe_arena_new(0);
    pq_file f;
    sqe_pq_file_meta m;

    /* alltypes_plain: 8 rows, 11 columns, impala, uncompressed, INT96 timestamps */
    if (parse_file("alltypes_plain.parquet", &f, a, &m)) {
        static const char *const names[] = {
            "id",         "bool_col",   "tinyint_col",     "smallint_col", "int_col",      "bigint_col",
            "float_col",  "double_col", "date_string_col", "string_col",   "timestamp_col"};
        static const int phys[] = {1, 0, 1, 1, 1, 2, 4, 5, 6, 6, 3};
        CHECK(m.num_rows == 8 && m.n_schema == 12 && m.n_row_groups == 1);
        CHECK(m.schema[0].num_children == 11 && m.schema[0].physical == -1);
        for (int i = 0; i < 11; i++) {
            CHECK_STR(m.schema[i + 1].name, names[i]);
            CHECK(m.schema[i + 1].physical == phys[i]);
            CHECK(m.schema[i + 1].repetition == SQE_PQ_OPTIONAL);
            CHECK(m.schema[i + 1].logical.kind == SQE_PQ_LT_NONE);
            CHECK(m.row_groups[0].columns[i].codec == SQE_PQ_UNCOMPRESSED);
            CHECK_STR(m.row_groups[0].columns[i].path[0], names[i]);
        }
        CHECK(strncmp(m.created_by, "impala version 1.3.0", 20) == 0);
        CHECK(m.row_groups[0].columns[0].dictionary_page_offset == 4);
    } else CHECK(false);
    free(f.data);

    if (parse_file("alltypes_plain.snappy.parquet", &f, a, &m)) {
        CHECK(m.num_rows == 2 && m.n_schema == 12);
        CHECK(m.row_groups[0].columns[3].codec == SQE_PQ_SNAPPY);
    } else CHECK(false);
    free(f.data);

    /* delta_binary_packed.md: 200 rows, 66 INT64/INT32 columns, parquet-mr 1.10.0 */
    if (parse_file("delta_binary_packed.parquet", &f, a, &m)) {
        CHECK(m.num_rows == 200 && m.n_schema == 67 && m.n_row_groups == 1);
        CHECK_STR(m.schema[1].name, "bitwidth0");
        CHECK(m.schema[1].physical == SQE_PQ_INT64);
        CHECK(strncmp(m.created_by, "parquet-mr version 1.10.0", 25) == 0);
        const sqe_pq_column_chunk *c = &m.row_groups[0].columns[0];
        bool delta = false;
        for (int i = 0; i < c->n_encodings; i++) delta |= c->encodings[i] == SQE_PQ_DELTA_BINARY_PACKED;
        CHECK(delta);
    } else CHECK(false);
    free(f.data);

    /* delta_byte_array.md: 1000 rows of 9 OPTIONAL BINARY L:STRING columns
     * (parquet-mr 1.10 wrote the UTF8 converted type only, no LogicalType) */
    if (parse_file("delta_byte_array.parquet", &f, a, &m)) {
        CHECK(m.num_rows == 1000 && m.n_schema == 10);
        CHECK_STR(m.schema[1].name, "c_customer_id");
        CHECK_STR(m.schema[9].name, "c_last_review_date");
        for (int i = 1; i < 10; i++) {
            CHECK(m.schema[i].physical == SQE_PQ_BYTE_ARRAY);
            CHECK(m.schema[i].logical.kind == SQE_PQ_LT_NONE);
            CHECK(m.schema[i].converted == SQE_PQ_CT_UTF8);
        }
        const sqe_pq_column_chunk *c = &m.row_groups[0].columns[0];
        bool dba = false;
        for (int i = 0; i < c->n_encodings; i++) dba |= c->encodings[i] == SQE_PQ_DELTA_BYTE_ARRAY;
        CHECK(dba);
    } else CHECK(false);
    free(f.data);

    /* fixed_length_byte_array.md: optional fixed_len_byte_array(4), 1000 values,
     * with a page index */
    if (parse_file("fixed_length_byte_array.parquet", &f, a, &m)) {
        CHECK(m.num_rows == 1000 && m.n_schema == 2);
        CHECK_STR(m.schema[1].name, "flba_field");
        CHECK(m.schema[1].physical == SQE_PQ_FIXED_LEN_BYTE_ARRAY && m.schema[1].type_length == 4);
        const sqe_pq_column_chunk *c = &m.row_groups[0].columns[0];
        CHECK(c->column_index_offset > 0 && c->column_index_length > 0);
        CHECK(c->offset_index_offset > 0 && c->offset_index_length > 0);
        CHECK(c->stats.has_min && c->stats.min_len == 4 && !c->stats.legacy);
        CHECK(c->stats.has_null_count && c->stats.null_count > 0);
    } else CHECK(false);
    free(f.data);

    /* decimals (legacy annotations: converted DECIMAL + scale/precision) */
    static const struct {
        const char *file;
        int phys, prec, scale, type_length;
    } decs[] = {{"int32_decimal.parquet", SQE_PQ_INT32, 4, 2, 0},
                {"int64_decimal.parquet", SQE_PQ_INT64, 10, 2, 0},
                {"fixed_length_decimal.parquet", SQE_PQ_FIXED_LEN_BYTE_ARRAY, 25, 2, 11},
                {"byte_array_decimal.parquet", SQE_PQ_BYTE_ARRAY, 4, 2, 0}};
    for (size_t i = 0; i < SQE_ARRAY_LEN(decs); i++) {
        if (parse_file(decs[i].file, &f, a, &m)) {
            CHECK(m.num_rows == 24 && m.n_schema == 2);
            CHECK_STR(m.schema[1].name, "value");
            CHECK(m.schema[1].physical == decs[i].phys);
            CHECK(m.schema[1].converted == SQE_PQ_CT_DECIMAL);
            CHECK(m.schema[1].precision == decs[i].prec && m.schema[1].scale == decs[i].scale);
            CHECK(m.schema[1].type_length == decs[i].type_length);
        } else CHECK(false);
        free(f.data);
    }
    /* parquet-mr 1.8 wrote only the deprecated min/max */
    if (parse_file("int64_decimal.parquet", &f, a, &m)) {
        const sqe_pq_stats *st = &m.row_groups[0].columns[0].stats;
        CHECK(st->legacy && st->has_min && st->has_max && st->min_len == 8);
    } else CHECK(false);
    free(f.data);

    /* codecs */
    static const struct {
        const char *file;
        int codec;
        int64_t rows;
    } codecs[] = {{"lz4_raw_compressed.parquet", SQE_PQ_LZ4_RAW, 4},
                  {"hadoop_lz4_compressed.parquet", SQE_PQ_LZ4, 4},
                  {"byte_stream_split.zstd.parquet", SQE_PQ_ZSTD, 300},
                  {"data_index_bloom_encoding_stats.parquet", SQE_PQ_GZIP, 14},
                  {"lz4_raw_compressed_larger.parquet", SQE_PQ_LZ4_RAW, 10000}};
    for (size_t i = 0; i < SQE_ARRAY_LEN(codecs); i++) {
        if (parse_file(codecs[i].file, &f, a, &m)) {
            CHECK(m.num_rows == codecs[i].rows);
            for (int c = 0; c < m.row_groups[0].n_columns; c++)
                CHECK(m.row_groups[0].columns[c].codec == codecs[i].codec);
        } else CHECK(false);
        free(f.data);
    }
    if (parse_file("byte_stream_split.zstd.parquet", &f, a, &m)) {
        CHECK_STR(m.schema[1].name, "f32");
        CHECK(m.schema[1].physical == SQE_PQ_FLOAT && m.schema[2].physical == SQE_PQ_DOUBLE);
        const sqe_pq_column_chunk *c = &m.row_groups[0].columns[1];
        bool bss = false;
        for (int i = 0; i < c->n_encodings; i++) bss |= c->encodings[i] == SQE_PQ_BYTE_STREAM_SPLIT;
        CHECK(bss);
    } else CHECK(false);
    free(f.data);

    /* float16: FIXED[2] with the FLOAT16 logical type */
    if (parse_file("float16_nonzeros_and_nans.parquet", &f, a, &m)) {
        CHECK(m.num_rows == 8);
        CHECK(m.schema[1].physical == SQE_PQ_FIXED_LEN_BYTE_ARRAY && m.schema[1].type_length == 2);
        CHECK(m.schema[1].logical.kind == SQE_PQ_LT_FLOAT16);
    } else CHECK(false);
    free(f.data);

    /* INTEGER logical types (impala's tinyint/smallint via parquet-mr 1.12) */
    if (parse_file("alltypes_tiny_pages.parquet", &f, a, &m)) {
        CHECK(m.num_rows == 7300);
        CHECK_STR(m.schema[3].name, "tinyint_col");
        CHECK(m.schema[3].logical.kind == SQE_PQ_LT_INTEGER && m.schema[3].logical.bit_width == 8 &&
              m.schema[3].logical.is_signed && m.schema[3].converted == SQE_PQ_CT_INT_8);
        CHECK(m.schema[4].logical.bit_width == 16 && m.schema[4].converted == SQE_PQ_CT_INT_16);
    } else CHECK(false);
    free(f.data);

    /* sort_columns: two row groups of 3 rows; column a has a null */
    if (parse_file("sort_columns.parquet", &f, a, &m)) {
        CHECK(m.n_row_groups == 2 && m.row_groups[0].num_rows == 3 && m.row_groups[1].num_rows == 3);
        CHECK(m.row_groups[0].columns[0].stats.null_count == 1);
        CHECK(m.version == 2);
    } else CHECK(false);
    free(f.data);

    /* FIELD ids survive (delta_length_byte_array: FRUIT has field_id 1) */
    if (parse_file("delta_length_byte_array.parquet", &f, a, &m)) {
        CHECK_STR(m.schema[1].name, "FRUIT");
        CHECK(m.schema[1].field_id == 1 && m.created_by == NULL);
    } else CHECK(false);
    free(f.data);

    /* data_index_bloom_encoding_stats: string stats copied out of the buffer */
    if (parse_file("data_index_bloom_encoding_stats.parquet", &f, a, &m)) {
        const sqe_pq_stats *st = &m.row_groups[0].columns[0].stats;
        CHECK(st->has_min && st->has_max && !st->legacy);
        CHECK(st->min < f.data || st->min >= f.data + f.len);
        CHECK(st->min_len == 5 && memcmp(st->min, "Hello", 5) == 0);
        CHECK(st->max_len == 5 && memcmp(st->max, "today", 5) == 0);
    } else CHECK(false);
    free(f.data);
    sqe_arena_free(a);
}

/* Page headers of files with known page kinds. */
static void test_known_pages(void) {
    sqe_arena *a = sqe_arena_new(0);
    pq_file f;
    sqe_pq_file_meta m;
    walk_result *w = malloc(sizeof *w);
    /* written with CRCs */
    if (parse_file("datapage_v1-snappy-compressed-checksum.parquet", &f, a, &m)) {
        CHECK(walk_chunk("crc", &f, &m.row_groups[0].columns[0], w));
        CHECK(w->all_crc && !w->saw_v2 && w->n_data_pages > 0);
    } else CHECK(false);
    free(f.data);
    /* format v2 pages (parquet-mr 1.13 put a CRC on the dictionary page only) */
    if (parse_file("rle-dict-snappy-checksum.parquet", &f, a, &m)) {
        CHECK(walk_chunk("v2", &f, &m.row_groups[0].columns[0], w));
        CHECK(!w->all_crc && w->saw_v2 && w->n_dict_pages == 1 && w->n_data_pages == 1);
    } else CHECK(false);
    free(f.data);
    if (parse_file("alltypes_plain.parquet", &f, a, &m)) {
        const sqe_pq_column_chunk *c = &m.row_groups[0].columns[0];
        sqe_pq_page_header h;
        size_t hl;
        bool more;
        sqe_error err;
        CHECK(sqe_pq_parse_page_header(f.data + c->dictionary_page_offset, 64, &h, &hl, &more, &err));
        CHECK(h.type == SQE_PQ_DICTIONARY_PAGE && h.dict_num_values == 8 && !h.has_crc);
        CHECK(h.dict_encoding == SQE_PQ_PLAIN_DICTIONARY);
        CHECK(sqe_pq_parse_page_header(f.data + c->data_page_offset, 64, &h, &hl, &more, &err));
        CHECK(h.type == SQE_PQ_DATA_PAGE && h.num_values == 8);
        CHECK(h.encoding == SQE_PQ_PLAIN_DICTIONARY && h.def_encoding == SQE_PQ_RLE);
    } else CHECK(false);
    free(f.data);
    /* int32_with_null_pages: a column index with null pages */
    if (parse_file("int32_with_null_pages.parquet", &f, a, &m)) {
        const sqe_pq_column_chunk *c = &m.row_groups[0].columns[0];
        sqe_pq_column_index ci;
        sqe_error err;
        CHECK(sqe_pq_parse_column_index(f.data + c->column_index_offset,
                                        (size_t)c->column_index_length, a, &ci, &err));
        int n_null = 0;
        for (int i = 0; i < ci.n_pages; i++) {
            n_null += ci.null_pages[i];
            if (ci.null_pages[i]) CHECK(ci.min_len[i] == 0 && ci.max_len[i] == 0);
            else CHECK(ci.min_len[i] == 4 && ci.max_len[i] == 4);
        }
        CHECK(ci.n_pages > 1 && n_null > 0 && n_null < ci.n_pages);
        CHECK(ci.null_counts != NULL);
    } else CHECK(false);
    free(f.data);
    free(w);
    sqe_arena_free(a);
}

/* Every strict prefix of real footers fails with a thrift error. */
static void test_footer_prefixes(void) {
    static const char *const files[] = {"alltypes_plain.parquet", "fixed_length_byte_array.parquet",
                                        "sort_columns.parquet", "float16_nonzeros_and_nans.parquet"};
    for (size_t i = 0; i < SQE_ARRAY_LEN(files); i++) {
        pq_file f;
        CHECK(load_file(files[i], &f));
        int bad = 0;
        for (size_t k = 0; k < f.footer_len; k++) {
            sqe_arena *a = sqe_arena_new(0);
            uint8_t *copy = malloc(k ? k : 1); /* exactly k bytes, so ASan sees overreads */
            memcpy(copy, f.footer, k);
            sqe_pq_file_meta m;
            sqe_error err;
            memset(&err, 0, sizeof err);
            bool ok = sqe_pq_parse_file_meta(copy, k, a, &m, &err);
            if (ok || strncmp(err.msg, "thrift: ", 8) != 0 || err.cls != SQE_ERR_INVALID_DATA) bad++;
            if (!ok) CHECK(m.n_schema == 0 && m.schema == NULL);
            free(copy);
            sqe_arena_free(a);
        }
        CHECK(bad == 0);
        free(f.data);
    }
}

int main(void) {
    const char *env = getenv("SQE_PARQUET_TESTING");
    const char *cands[] = {env, "../shared/parquet-testing", "../../shared/parquet-testing",
                           "/work/shared/parquet-testing"};
    for (size_t i = 0; i < SQE_ARRAY_LEN(cands) && !g_dir; i++) {
        if (!cands[i]) continue;
        DIR *d = opendir(cands[i]);
        if (d) closedir(d), g_dir = cands[i];
    }
    if (!g_dir) {
        fprintf(stderr, "parquet-testing folder not found (set SQE_PARQUET_TESTING)\n");
        return 1;
    }
    RUN(test_every_file);
    RUN(test_known_facts);
    RUN(test_known_pages);
    RUN(test_footer_prefixes);
    return unit_report();
}
