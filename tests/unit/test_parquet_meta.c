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
 * (row counts, names, types, logical types, codecs, encodings), and the
 * *_expect.csv files' headers and line counts against the leaves and rows.
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
               e->converted, e->scale, e->precision, e->field_id, e->logical.kind, e->logical.scale,
               e->logical.precision, e->logical.utc_adjusted, e->logical.unit, e->logical.bit_width,
               e->logical.is_signed);
    }
    for (int g = 0; g < m->n_row_groups && g < 3; g++) {
        const sqe_pq_row_group *rg = &m->row_groups[g];
        printf("  rg %d: %lld rows, %lld bytes, offset %lld, %d columns\n", g,
               (long long)rg->num_rows, (long long)rg->total_byte_size, (long long)rg->file_offset,
               rg->n_columns);
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

/* With PQ_SEEDS=DIR set, real footers, page headers and page indexes are
 * written there as fuzz seeds (tests/fuzz/corpus/parquet_meta/). */
static void write_seed(const char *kind, const char *name, const uint8_t *p, size_t n) {
    const char *dir = getenv("PQ_SEEDS");
    if (!dir || n == 0 || n > 4096) return;
    char path[700];
    snprintf(path, sizeof path, "%s/seed-%s-%s", dir, kind, name);
    for (char *c = path + strlen(dir) + 1; *c; c++)
        if (*c == '/') *c = '_';
    FILE *fp = fopen(path, "wb");
    if (!fp) return;
    fwrite(p, 1, n, fp);
    fclose(fp);
}

/* Files whose first column chunk's pages and page index become seeds. */
static const char *const k_page_seed_files[] = {
    "alltypes_plain.parquet",
    "alltypes_tiny_pages.parquet",
    "rle-dict-snappy-checksum.parquet",
    "datapage_v1-snappy-compressed-checksum.parquet",
    "byte_stream_split.zstd.parquet",
    "delta_binary_packed.parquet",
    "float16_nonzeros_and_nans.parquet",
    "sort_columns.parquet",
    "data_index_bloom_encoding_stats.parquet",
    "int32_with_null_pages.parquet",
    "geospatial/geospatial.parquet",
    "lz4_raw_compressed.parquet",
};

static bool is_page_seed_file(const char *name) {
    for (size_t i = 0; i < SQE_ARRAY_LEN(k_page_seed_files); i++)
        if (strcmp(name, k_page_seed_files[i]) == 0) return true;
    return false;
}

typedef struct walk_result {
    int n_data_pages, n_dict_pages;
    int64_t values;
    int64_t data_offsets[4096];
    bool all_crc;
    bool saw_v2;
    const sqe_pq_column_chunk *seed_chunk; /* the chunk whose first page is a seed */
} walk_result;

/* Walks a column chunk's pages; false (with a message) on any mismatch. */
static bool walk_chunk(const char *name, const pq_file *f, const sqe_pq_column_chunk *c,
                       walk_result *w) {
    const sqe_pq_column_chunk *seed_chunk = w->seed_chunk;
    memset(w, 0, sizeof *w);
    w->seed_chunk = seed_chunk;
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
                fprintf(stderr, "%s: page at %lld: prefix %zu of %zu did not ask for more\n", name,
                        (long long)pos, k, hl);
                return false;
            }
        }
        if (c == w->seed_chunk &&
            (h.type == SQE_PQ_DICTIONARY_PAGE ? !w->n_dict_pages : !w->n_data_pages))
            write_seed(h.type == SQE_PQ_DICTIONARY_PAGE ? "dict-page" : "data-page", name,
                       f->data + pos, hl);
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
        fprintf(stderr, "%s: pages hold %lld values, chunk says %lld\n", name, (long long)w->values,
                (long long)c->num_values);
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
        if (c == w->seed_chunk)
            write_seed("offset-index", name, f->data + c->offset_index_offset,
                       (size_t)c->offset_index_length);
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
        if (c == w->seed_chunk)
            write_seed("column-index", name, f->data + c->column_index_offset,
                       (size_t)c->column_index_length);
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
    write_seed("footer", name, f.footer, f.footer_len);
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
            w->seed_chunk = g == 0 && c == 0 && is_page_seed_file(name) ? cc : NULL;
            bool walked = walk_chunk(name, &f, cc, w);
            CHECK(walked);
            if (walked) CHECK(check_page_index(name, &f, cc, w, a, rg->num_rows));
            free(w);
        }
    }
    CHECK(rows == m.num_rows);
    CHECK(m.n_column_orders == 0 || m.n_column_orders == leaves);
    for (int c = 0; c < m.n_column_orders; c++)
        CHECK(m.column_orders[c] == SQE_PQ_ORDER_TYPE_DEFINED);
out:
    free(f.data);
    sqe_arena_free(a);
}

static int check_folder(const char *sub) {
    char path[512], name[600];
    snprintf(path, sizeof path, "%s/%s", g_dir, sub);
    DIR *d = opendir(path);
    CHECK(d != NULL);
    if (!d) return 0;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t l = strlen(de->d_name);
        if (l < 8 || strcmp(de->d_name + l - 8, ".parquet") != 0) continue;
        snprintf(name, sizeof name, "%s%s", sub, de->d_name);
        check_file(name);
        n++;
    }
    closedir(d);
    return n;
}

static void test_every_file(void) {
    CHECK(check_folder("") >= 30);
    CHECK(check_folder("geospatial/") >= 5);
}

/* Facts from the folder's README.md and *.md files. */
static void test_known_facts(void) {
    sqe_arena *a = sqe_arena_new(0);
    pq_file f;
    sqe_pq_file_meta m;

    /* alltypes_plain: 8 rows, 11 columns, impala, uncompressed, INT96 timestamps */
    if (parse_file("alltypes_plain.parquet", &f, a, &m)) {
        static const char *const names[] = {"id",           "bool_col",     "tinyint_col",
                                            "smallint_col", "int_col",      "bigint_col",
                                            "float_col",    "double_col",   "date_string_col",
                                            "string_col",   "timestamp_col"};
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
    } else
        CHECK(false);
    free(f.data);

    if (parse_file("alltypes_plain.snappy.parquet", &f, a, &m)) {
        CHECK(m.num_rows == 2 && m.n_schema == 12);
        CHECK(m.row_groups[0].columns[3].codec == SQE_PQ_SNAPPY);
    } else
        CHECK(false);
    free(f.data);

    /* delta_binary_packed.md: 200 rows, 66 INT64/INT32 columns, parquet-mr 1.10.0 */
    if (parse_file("delta_binary_packed.parquet", &f, a, &m)) {
        CHECK(m.num_rows == 200 && m.n_schema == 67 && m.n_row_groups == 1);
        CHECK_STR(m.schema[1].name, "bitwidth0");
        CHECK(m.schema[1].physical == SQE_PQ_INT64);
        CHECK(strncmp(m.created_by, "parquet-mr version 1.10.0", 25) == 0);
        const sqe_pq_column_chunk *c = &m.row_groups[0].columns[0];
        bool delta = false;
        for (int i = 0; i < c->n_encodings; i++)
            delta |= c->encodings[i] == SQE_PQ_DELTA_BINARY_PACKED;
        CHECK(delta);
    } else
        CHECK(false);
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
    } else
        CHECK(false);
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
    } else
        CHECK(false);
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
        } else
            CHECK(false);
        free(f.data);
    }
    /* parquet-mr 1.8 wrote only the deprecated min/max */
    if (parse_file("int64_decimal.parquet", &f, a, &m)) {
        const sqe_pq_stats *st = &m.row_groups[0].columns[0].stats;
        CHECK(st->legacy && st->has_min && st->has_max && st->min_len == 8);
    } else
        CHECK(false);
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
        } else
            CHECK(false);
        free(f.data);
    }
    if (parse_file("byte_stream_split.zstd.parquet", &f, a, &m)) {
        CHECK_STR(m.schema[1].name, "f32");
        CHECK(m.schema[1].physical == SQE_PQ_FLOAT && m.schema[2].physical == SQE_PQ_DOUBLE);
        const sqe_pq_column_chunk *c = &m.row_groups[0].columns[1];
        bool bss = false;
        for (int i = 0; i < c->n_encodings; i++) bss |= c->encodings[i] == SQE_PQ_BYTE_STREAM_SPLIT;
        CHECK(bss);
    } else
        CHECK(false);
    free(f.data);

    /* float16: FIXED[2] with the FLOAT16 logical type */
    if (parse_file("float16_nonzeros_and_nans.parquet", &f, a, &m)) {
        CHECK(m.num_rows == 8);
        CHECK(m.schema[1].physical == SQE_PQ_FIXED_LEN_BYTE_ARRAY && m.schema[1].type_length == 2);
        CHECK(m.schema[1].logical.kind == SQE_PQ_LT_FLOAT16);
    } else
        CHECK(false);
    free(f.data);

    /* INTEGER logical types (impala's tinyint/smallint via parquet-mr 1.12) */
    if (parse_file("alltypes_tiny_pages.parquet", &f, a, &m)) {
        CHECK(m.num_rows == 7300);
        CHECK_STR(m.schema[3].name, "tinyint_col");
        CHECK(m.schema[3].logical.kind == SQE_PQ_LT_INTEGER && m.schema[3].logical.bit_width == 8 &&
              m.schema[3].logical.is_signed && m.schema[3].converted == SQE_PQ_CT_INT_8);
        CHECK(m.schema[4].logical.bit_width == 16 && m.schema[4].converted == SQE_PQ_CT_INT_16);
    } else
        CHECK(false);
    free(f.data);

    /* sort_columns: two row groups of 3 rows; column a has a null */
    if (parse_file("sort_columns.parquet", &f, a, &m)) {
        CHECK(m.n_row_groups == 2 && m.row_groups[0].num_rows == 3 &&
              m.row_groups[1].num_rows == 3);
        CHECK(m.row_groups[0].columns[0].stats.null_count == 1);
        CHECK(m.version == 2);
        CHECK(m.n_column_orders == 2); /* parquet-cpp writes TYPE_ORDER per leaf */
        CHECK(!m.row_groups[0].columns[0].stats.has_nan_count);
    } else
        CHECK(false);
    free(f.data);

    /* FIELD ids survive (delta_length_byte_array: FRUIT has field_id 1) */
    if (parse_file("delta_length_byte_array.parquet", &f, a, &m)) {
        CHECK_STR(m.schema[1].name, "FRUIT");
        CHECK(m.schema[1].field_id == 1 && m.created_by == NULL);
    } else
        CHECK(false);
    free(f.data);

    /* geospatial/README.md: GEOMETRY and GEOGRAPHY logical types */
    if (parse_file("geospatial/crs-geography.parquet", &f, a, &m)) {
        int geog = 0;
        for (int i = 0; i < m.n_schema; i++)
            geog += m.schema[i].logical.kind == SQE_PQ_LT_GEOGRAPHY;
        CHECK(geog == 1);
    } else
        CHECK(false);
    free(f.data);
    if (parse_file("geospatial/geospatial.parquet", &f, a, &m)) {
        int geom = 0;
        for (int i = 0; i < m.n_schema; i++)
            if (m.schema[i].logical.kind == SQE_PQ_LT_GEOMETRY) {
                geom++;
                CHECK_STR(m.schema[i].name, "geometry");
                CHECK(m.schema[i].physical == SQE_PQ_BYTE_ARRAY);
            }
        CHECK(geom == 1);
    } else
        CHECK(false);
    free(f.data);

    /* data_index_bloom_encoding_stats: string stats copied out of the buffer */
    if (parse_file("data_index_bloom_encoding_stats.parquet", &f, a, &m)) {
        const sqe_pq_stats *st = &m.row_groups[0].columns[0].stats;
        CHECK(st->has_min && st->has_max && !st->legacy);
        CHECK(st->min < f.data || st->min >= f.data + f.len);
        CHECK(st->min_len == 5 && memcmp(st->min, "Hello", 5) == 0);
        CHECK(st->max_len == 5 && memcmp(st->max, "today", 5) == 0);
    } else
        CHECK(false);
    free(f.data);
    sqe_arena_free(a);
}

/* The *_expect.csv files: a header of column names, then one line per row.
 * The footer must have those leaves, in that order, and that many rows. */
static void test_expect_csv(void) {
    static const char *const files[] = {"delta_binary_packed", "delta_byte_array",
                                        "delta_encoding_optional_column"};
    for (size_t i = 0; i < SQE_ARRAY_LEN(files); i++) {
        char path[600], name[128];
        snprintf(path, sizeof path, "%s/%s_expect.csv", g_dir, files[i]);
        FILE *fp = fopen(path, "r");
        CHECK(fp != NULL);
        if (!fp) continue;
        static char line[1 << 16];
        int64_t lines = 0;
        char header[1 << 12] = "";
        while (fgets(line, sizeof line, fp)) {
            if (lines++ == 0) snprintf(header, sizeof header, "%s", line);
        }
        fclose(fp);
        snprintf(name, sizeof name, "%s.parquet", files[i]);
        sqe_arena *a = sqe_arena_new(0);
        pq_file f;
        sqe_pq_file_meta m;
        if (parse_file(name, &f, a, &m)) {
            CHECK(m.num_rows == lines - 1);
            /* header: names separated by ',', maybe quoted */
            int col = 1;
            for (char *tok = strtok(header, ",\r\n"); tok; tok = strtok(NULL, ",\r\n"), col++) {
                size_t l = strlen(tok);
                if (l >= 2 && tok[0] == '"') tok[l - 1] = 0, tok++;
                while (*tok == ' ') tok++; /* upstream wrote " c_customer_id" in one */
                CHECK(col < m.n_schema);
                if (col < m.n_schema) CHECK_STR(m.schema[col].name, tok);
            }
            CHECK(col == m.n_schema);
        } else
            CHECK(false);
        free(f.data);
        sqe_arena_free(a);
    }
}

/* Page headers of files with known page kinds. */
static void test_known_pages(void) {
    sqe_arena *a = sqe_arena_new(0);
    pq_file f;
    sqe_pq_file_meta m;
    walk_result *w = calloc(1, sizeof *w);
    /* written with CRCs */
    if (parse_file("datapage_v1-snappy-compressed-checksum.parquet", &f, a, &m)) {
        CHECK(walk_chunk("crc", &f, &m.row_groups[0].columns[0], w));
        CHECK(w->all_crc && !w->saw_v2 && w->n_data_pages > 0);
    } else
        CHECK(false);
    free(f.data);
    /* format v2 pages (parquet-mr 1.13 put a CRC on the dictionary page only) */
    if (parse_file("rle-dict-snappy-checksum.parquet", &f, a, &m)) {
        CHECK(walk_chunk("v2", &f, &m.row_groups[0].columns[0], w));
        CHECK(!w->all_crc && w->saw_v2 && w->n_dict_pages == 1 && w->n_data_pages == 1);
    } else
        CHECK(false);
    free(f.data);
    if (parse_file("alltypes_plain.parquet", &f, a, &m)) {
        const sqe_pq_column_chunk *c = &m.row_groups[0].columns[0];
        sqe_pq_page_header h;
        size_t hl;
        bool more;
        sqe_error err;
        CHECK(
            sqe_pq_parse_page_header(f.data + c->dictionary_page_offset, 64, &h, &hl, &more, &err));
        CHECK(h.type == SQE_PQ_DICTIONARY_PAGE && h.dict_num_values == 8 && !h.has_crc);
        CHECK(h.dict_encoding == SQE_PQ_PLAIN_DICTIONARY);
        CHECK(sqe_pq_parse_page_header(f.data + c->data_page_offset, 64, &h, &hl, &more, &err));
        CHECK(h.type == SQE_PQ_DATA_PAGE && h.num_values == 8);
        CHECK(h.encoding == SQE_PQ_PLAIN_DICTIONARY && h.def_encoding == SQE_PQ_RLE);
    } else
        CHECK(false);
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
            if (ci.null_pages[i])
                CHECK(ci.min_len[i] == 0 && ci.max_len[i] == 0);
            else
                CHECK(ci.min_len[i] == 4 && ci.max_len[i] == 4);
        }
        CHECK(ci.n_pages > 1 && n_null > 0 && n_null < ci.n_pages);
        CHECK(ci.null_counts != NULL);
    } else
        CHECK(false);
    free(f.data);
    free(w);
    sqe_arena_free(a);
}

/* Every strict prefix of real footers fails with a thrift error. */
static void test_footer_prefixes(void) {
    static const char *const files[] = {"alltypes_plain.parquet", "fixed_length_byte_array.parquet",
                                        "sort_columns.parquet",
                                        "float16_nonzeros_and_nans.parquet"};
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
            if (ok || strncmp(err.msg, "thrift: ", 8) != 0 || err.cls != SQE_ERR_INVALID_DATA)
                bad++;
            if (!ok) CHECK(m.n_schema == 0 && m.schema == NULL);
            free(copy);
            sqe_arena_free(a);
        }
        CHECK(bad == 0);
        free(f.data);
    }
}

/* ------------------------------------------------------------ thrift writer */

/* A compact protocol writer for hand-built inputs. tb_begin/tb_end bracket
 * a struct (field ids are deltas from the previous one in that struct). */
enum {
    T_TRUE = 1,
    T_FALSE,
    T_I8,
    T_I16,
    T_I32,
    T_I64,
    T_DOUBLE,
    T_BIN,
    T_LIST,
    T_SET,
    T_MAP,
    T_STRUCT,
    T_UUID
};

typedef struct tb {
    uint8_t *buf;
    size_t n, cap;
    int last[256];
    int depth;
} tb;

static void tb_init(tb *b) {
    memset(b, 0, sizeof *b);
    b->cap = 1 << 16;
    b->buf = malloc(b->cap);
}

static void tb_byte(tb *b, uint8_t v) {
    if (b->n == b->cap) b->buf = realloc(b->buf, b->cap *= 2);
    b->buf[b->n++] = v;
}

static void tb_raw(tb *b, const void *p, size_t n) {
    for (size_t i = 0; i < n; i++) tb_byte(b, ((const uint8_t *)p)[i]);
}

static void tb_varint(tb *b, uint64_t v) {
    while (v >= 0x80) tb_byte(b, (uint8_t)(v | 0x80)), v >>= 7;
    tb_byte(b, (uint8_t)v);
}

static void tb_zz(tb *b, int64_t v) {
    tb_varint(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static void tb_field(tb *b, int id, int type) {
    int delta = id - b->last[b->depth];
    if (delta > 0 && delta <= 15) {
        tb_byte(b, (uint8_t)(delta << 4 | type));
    } else {
        tb_byte(b, (uint8_t)type);
        tb_zz(b, id);
    }
    b->last[b->depth] = id;
}

static void tb_begin(tb *b) {
    b->last[++b->depth] = 0;
}
static void tb_end(tb *b) {
    tb_byte(b, 0);
    b->depth--;
}
static void tb_struct(tb *b, int id) {
    tb_field(b, id, T_STRUCT);
    tb_begin(b);
}
static void tb_i32(tb *b, int id, int64_t v) {
    tb_field(b, id, T_I32);
    tb_zz(b, v);
}
static void tb_i64(tb *b, int id, int64_t v) {
    tb_field(b, id, T_I64);
    tb_zz(b, v);
}
static void tb_bool(tb *b, int id, bool v) {
    tb_field(b, id, v ? T_TRUE : T_FALSE);
}
static void tb_bin(tb *b, const void *p, size_t n) {
    tb_varint(b, n);
    tb_raw(b, p, n);
}
static void tb_str(tb *b, int id, const char *v) {
    tb_field(b, id, T_BIN);
    tb_bin(b, v, strlen(v));
}
static void tb_list(tb *b, int elem, uint64_t n) {
    if (n < 15) {
        tb_byte(b, (uint8_t)(n << 4 | elem));
    } else {
        tb_byte(b, (uint8_t)(0xF0 | elem));
        tb_varint(b, n);
    }
}
static void tb_list_field(tb *b, int id, int elem, uint64_t n) {
    tb_field(b, id, T_LIST);
    tb_list(b, elem, n);
}

/* Unknown fields of every wire type, to be skipped: ids from `id` up. */
static void tb_unknown_fields(tb *b, int id) {
    tb_bool(b, id, true);
    tb_bool(b, id + 1, false);
    tb_field(b, id + 2, T_I8), tb_byte(b, 0xFF);
    tb_field(b, id + 3, T_I16), tb_zz(b, -300);
    tb_i32(b, id + 4, 70000);
    tb_i64(b, id + 5, -5000000000LL);
    tb_field(b, id + 6, T_DOUBLE), tb_raw(b, "\0\0\0\0\0\0\xf0\x3f", 8);
    tb_str(b, id + 7, "unknown string");
    tb_field(b, id + 8, T_UUID), tb_raw(b, "0123456789abcdef", 16);
    /* a set of 20 bools (long list form), a list of lists of i64 */
    tb_field(b, id + 9, T_SET), tb_list(b, T_TRUE, 20);
    for (int i = 0; i < 20; i++) tb_byte(b, i & 1 ? 1 : 2);
    tb_list_field(b, id + 10, T_LIST, 2);
    tb_list(b, T_I64, 1), tb_zz(b, 7);
    tb_list(b, T_I64, 0);
    /* a map<string, struct{list<double>}> and an empty map */
    tb_field(b, id + 11, T_MAP), tb_varint(b, 2), tb_byte(b, T_BIN << 4 | T_STRUCT);
    for (int i = 0; i < 2; i++) {
        tb_bin(b, "k", 1);
        tb_begin(b);
        tb_list_field(b, 1, T_DOUBLE, 1), tb_raw(b, "12345678", 8);
        tb_end(b);
    }
    tb_field(b, id + 12, T_MAP), tb_varint(b, 0);
    /* a struct with a long-form (negative) field id inside */
    tb_struct(b, id + 13);
    tb_i32(b, -5, 1);
    tb_struct(b, 200);
    tb_end(b);
    tb_end(b);
}

/* A FileMetaData with one INT64 TIMESTAMP(UTC, MICROS) column "ts" under
 * the root, one row group; `extra` adds unknown fields everywhere. */
static void tb_footer(tb *b, bool extra) {
    tb_begin(b);
    tb_i32(b, 1, 2);
    tb_list_field(b, 2, T_STRUCT, 2);
    tb_begin(b); /* root */
    tb_str(b, 4, "schema");
    tb_i32(b, 5, 1);
    tb_end(b);
    tb_begin(b);
    tb_i32(b, 1, SQE_PQ_INT64);
    tb_i32(b, 3, SQE_PQ_OPTIONAL);
    tb_str(b, 4, "ts");
    tb_i32(b, 6, SQE_PQ_CT_TIMESTAMP_MICROS);
    tb_i32(b, 9, 42);
    tb_struct(b, 10);
    tb_struct(b, 8);
    tb_bool(b, 1, true);
    tb_struct(b, 2);
    tb_struct(b, 2);
    tb_end(b);
    tb_end(b); /* TimeUnit */
    tb_end(b); /* TimestampType */
    tb_end(b); /* LogicalType */
    if (extra) tb_unknown_fields(b, 20);
    tb_end(b);
    tb_i64(b, 3, 3);
    tb_list_field(b, 4, T_STRUCT, 1);
    tb_begin(b); /* RowGroup */
    tb_list_field(b, 1, T_STRUCT, 1);
    tb_begin(b); /* ColumnChunk */
    tb_i64(b, 2, 4);
    tb_struct(b, 3);
    tb_i32(b, 1, SQE_PQ_INT64);
    tb_list_field(b, 2, T_I32, 2), tb_zz(b, SQE_PQ_PLAIN), tb_zz(b, SQE_PQ_RLE);
    tb_list_field(b, 3, T_BIN, 1), tb_bin(b, "ts", 2);
    tb_i32(b, 4, SQE_PQ_ZSTD);
    tb_i64(b, 5, 3);
    tb_i64(b, 6, 100);
    tb_i64(b, 7, 60);
    if (extra) {
        tb_list_field(b, 8, T_STRUCT, 1); /* key_value_metadata */
        tb_begin(b), tb_str(b, 1, "k"), tb_str(b, 2, "v"), tb_end(b);
    }
    tb_i64(b, 9, 4);
    tb_struct(b, 12);
    tb_field(b, 1, T_BIN), tb_bin(b, "\x09\0\0\0\0\0\0\0", 8); /* deprecated max */
    tb_field(b, 2, T_BIN), tb_bin(b, "\x01\0\0\0\0\0\0\0", 8); /* deprecated min */
    tb_i64(b, 3, 1);
    tb_field(b, 5, T_BIN), tb_bin(b, "\x08\0\0\0\0\0\0\0", 8);
    tb_field(b, 6, T_BIN), tb_bin(b, "\x02\0\0\0\0\0\0\0", 8);
    tb_i64(b, 9, 0); /* nan_count */
    if (extra) tb_unknown_fields(b, 20);
    tb_end(b);
    if (extra) tb_unknown_fields(b, 30);
    tb_end(b); /* ColumnMetaData */
    tb_i64(b, 4, 100);
    tb_i32(b, 5, 20);
    tb_i64(b, 6, 120);
    tb_i32(b, 7, 30);
    if (extra) tb_unknown_fields(b, 40);
    tb_end(b); /* ColumnChunk */
    tb_i64(b, 2, 100);
    tb_i64(b, 3, 3);
    tb_i64(b, 5, 4);
    tb_i64(b, 6, 60);
    if (extra) tb_unknown_fields(b, 40);
    tb_end(b); /* RowGroup */
    tb_str(b, 6, "sqe test");
    tb_list_field(b, 7, T_STRUCT, 1); /* column_orders */
    tb_begin(b), tb_struct(b, extra ? 2 : 1), tb_end(b), tb_end(b);
    if (extra) tb_unknown_fields(b, 50);
    tb_end(b);
}

static bool parse_meta(tb *b, sqe_arena *a, sqe_pq_file_meta *m, sqe_error *err) {
    memset(err, 0, sizeof *err);
    uint8_t *copy = malloc(b->n ? b->n : 1); /* exactly n bytes */
    memcpy(copy, b->buf, b->n);
    bool ok = sqe_pq_parse_file_meta(copy, b->n, a, m, err);
    free(copy);
    return ok;
}

static void check_built_footer(const sqe_pq_file_meta *m) {
    CHECK(m->version == 2 && m->num_rows == 3 && m->n_schema == 2 && m->n_row_groups == 1);
    CHECK_STR(m->schema[0].name, "schema");
    CHECK(m->schema[0].num_children == 1 && m->schema[0].repetition == -1);
    const sqe_pq_schema_elem *e = &m->schema[1];
    CHECK_STR(e->name, "ts");
    CHECK(e->physical == SQE_PQ_INT64 && e->repetition == SQE_PQ_OPTIONAL);
    CHECK(e->converted == SQE_PQ_CT_TIMESTAMP_MICROS && e->field_id == 42);
    CHECK(e->logical.kind == SQE_PQ_LT_TIMESTAMP && e->logical.utc_adjusted &&
          e->logical.unit == SQE_PQ_MICROS);
    const sqe_pq_row_group *g = &m->row_groups[0];
    CHECK(g->num_rows == 3 && g->total_byte_size == 100 && g->file_offset == 4 &&
          g->total_compressed_size == 60 && g->n_columns == 1);
    const sqe_pq_column_chunk *c = &g->columns[0];
    CHECK(c->has_meta && !c->encrypted && c->file_path == NULL && c->file_offset == 4);
    CHECK(c->physical == SQE_PQ_INT64 && c->codec == SQE_PQ_ZSTD && c->num_values == 3);
    CHECK(c->n_encodings == 2 && c->encodings[0] == SQE_PQ_PLAIN && c->encodings[1] == SQE_PQ_RLE);
    CHECK(c->n_path == 1);
    CHECK_STR(c->path[0], "ts");
    CHECK(c->total_uncompressed_size == 100 && c->total_compressed_size == 60);
    CHECK(c->data_page_offset == 4 && c->dictionary_page_offset == -1 &&
          c->index_page_offset == -1);
    CHECK(c->offset_index_offset == 100 && c->offset_index_length == 20);
    CHECK(c->column_index_offset == 120 && c->column_index_length == 30);
    /* min_value/max_value win over the deprecated pair */
    CHECK(c->stats.has_min && c->stats.has_max && !c->stats.legacy);
    CHECK(c->stats.min_len == 8 && c->stats.min[0] == 2 && c->stats.max[0] == 8);
    CHECK(c->stats.has_null_count && c->stats.null_count == 1 && !c->stats.has_distinct_count);
    CHECK(c->stats.has_nan_count && c->stats.nan_count == 0);
    CHECK_STR(m->created_by, "sqe test");
    CHECK(!m->has_encryption_algorithm);
    CHECK(m->n_column_orders == 1);
    CHECK(m->column_orders[0] == SQE_PQ_ORDER_TYPE_DEFINED ||
          m->column_orders[0] == SQE_PQ_ORDER_IEEE754_TOTAL);
}

static void test_built_footer(void) {
    sqe_arena *a = sqe_arena_new(0);
    sqe_pq_file_meta m;
    sqe_error err;
    for (int extra = 0; extra < 2; extra++) {
        tb b;
        tb_init(&b);
        tb_footer(&b, extra);
        bool ok = parse_meta(&b, a, &m, &err);
        CHECK(ok);
        if (!ok)
            fprintf(stderr, "  %s\n", err.msg);
        else
            check_built_footer(&m);
        write_seed("footer", extra ? "built-unknown-fields" : "built", b.buf, b.n);
        /* every prefix fails cleanly, naming where the data ends */
        size_t full = b.n;
        int bad = 0;
        for (b.n = 0; b.n < full; b.n++) {
            if (parse_meta(&b, a, &m, &err) || !strstr(err.msg, "thrift: ")) bad++;
        }
        CHECK(bad == 0);
        b.n = full - 1;
        CHECK(!parse_meta(&b, a, &m, &err));
        CHECK_CONTAINS(err.msg, "the data ends at byte");
        free(b.buf);
    }
    sqe_arena_free(a);
}

/* Statistics: the deprecated pair alone, negative counts dropped. */
static void test_stats_variants(void) {
    sqe_pq_page_header h;
    size_t hl;
    bool more;
    sqe_error err;
    tb b;
    tb_init(&b);
    tb_begin(&b);
    tb_i32(&b, 1, SQE_PQ_DATA_PAGE);
    tb_i32(&b, 2, 100);
    tb_i32(&b, 3, 50);
    tb_i32(&b, 4, -12345);
    tb_struct(&b, 5);
    tb_i32(&b, 1, 10);
    tb_i32(&b, 2, SQE_PQ_RLE_DICTIONARY);
    tb_i32(&b, 3, SQE_PQ_RLE);
    tb_i32(&b, 4, SQE_PQ_BIT_PACKED);
    tb_struct(&b, 5);
    tb_field(&b, 1, T_BIN), tb_bin(&b, "zz", 2);
    tb_field(&b, 2, T_BIN), tb_bin(&b, "a", 1);
    tb_i64(&b, 3, -1);
    tb_i64(&b, 4, 7);
    tb_end(&b);
    tb_end(&b);
    tb_end(&b);
    CHECK(sqe_pq_parse_page_header(b.buf, b.n, &h, &hl, &more, &err));
    CHECK(hl == b.n && !more);
    CHECK(h.type == SQE_PQ_DATA_PAGE && h.uncompressed_size == 100 && h.compressed_size == 50);
    CHECK(h.has_crc && h.crc == -12345);
    CHECK(h.num_values == 10 && h.encoding == SQE_PQ_RLE_DICTIONARY);
    CHECK(h.def_encoding == SQE_PQ_RLE && h.rep_encoding == SQE_PQ_BIT_PACKED);
    CHECK(h.stats.legacy && h.stats.has_min && h.stats.has_max);
    CHECK(h.stats.min_len == 1 && h.stats.min == b.buf + (h.stats.min - b.buf)); /* in the buffer */
    CHECK(h.stats.min >= b.buf && h.stats.min < b.buf + b.n && h.stats.min[0] == 'a');
    CHECK(h.stats.max_len == 2 && memcmp(h.stats.max, "zz", 2) == 0);
    CHECK(!h.stats.has_null_count && h.stats.has_distinct_count && h.stats.distinct_count == 7);
    /* trailing bytes after the header are the page's, not the header's */
    tb_raw(&b, "payload", 7);
    CHECK(sqe_pq_parse_page_header(b.buf, b.n, &h, &hl, &more, &err) && hl == b.n - 7);
    free(b.buf);
}

static void test_page_header_kinds(void) {
    sqe_pq_page_header h;
    size_t hl;
    bool more;
    sqe_error err;
    tb b;
    /* dictionary page */
    tb_init(&b);
    tb_begin(&b);
    tb_i32(&b, 1, SQE_PQ_DICTIONARY_PAGE);
    tb_i32(&b, 2, 40);
    tb_i32(&b, 3, 40);
    tb_struct(&b, 7);
    tb_i32(&b, 1, 5);
    tb_i32(&b, 2, SQE_PQ_PLAIN);
    tb_bool(&b, 3, true);
    tb_end(&b);
    tb_end(&b);
    CHECK(sqe_pq_parse_page_header(b.buf, b.n, &h, &hl, &more, &err));
    CHECK(h.type == SQE_PQ_DICTIONARY_PAGE && h.dict_num_values == 5 && !h.has_crc);
    CHECK(h.dict_encoding == SQE_PQ_PLAIN && h.v2_is_compressed);
    free(b.buf);
    /* v2 pages: is_compressed defaults to true, false when written */
    for (int written = 0; written < 3; written++) {
        tb_init(&b);
        tb_begin(&b);
        tb_i32(&b, 1, SQE_PQ_DATA_PAGE_V2);
        tb_i32(&b, 2, 90);
        tb_i32(&b, 3, 80);
        tb_struct(&b, 8);
        tb_i32(&b, 1, 10);
        tb_i32(&b, 2, 3);
        tb_i32(&b, 3, 9);
        tb_i32(&b, 4, SQE_PQ_DELTA_BINARY_PACKED);
        tb_i32(&b, 5, 6);
        tb_i32(&b, 6, 2);
        if (written) tb_bool(&b, 7, written == 2);
        tb_end(&b);
        tb_end(&b);
        CHECK(sqe_pq_parse_page_header(b.buf, b.n, &h, &hl, &more, &err));
        CHECK(h.type == SQE_PQ_DATA_PAGE_V2 && h.num_values == 10 && h.num_nulls == 3);
        CHECK(h.num_rows == 9 && h.encoding == SQE_PQ_DELTA_BINARY_PACKED);
        CHECK(h.def_levels_len == 6 && h.rep_levels_len == 2);
        CHECK(h.v2_is_compressed == (written != 1));
        free(b.buf);
    }
    /* an index page needs no sub-header; an unknown page type passes */
    for (int type = 1; type <= 9; type += 8) {
        tb_init(&b);
        tb_begin(&b);
        tb_i32(&b, 1, type);
        tb_i32(&b, 2, 0);
        tb_i32(&b, 3, 0);
        tb_struct(&b, 6);
        tb_end(&b);
        tb_end(&b);
        CHECK(sqe_pq_parse_page_header(b.buf, b.n, &h, &hl, &more, &err) && h.type == type);
        free(b.buf);
    }
}

/* Expects the footer in b to fail with a message containing `part`. */
static void expect_meta_error(tb *b, const char *part) {
    sqe_arena *a = sqe_arena_new(0);
    sqe_pq_file_meta m;
    sqe_error err;
    bool ok = parse_meta(b, a, &m, &err);
    CHECK(!ok);
    if (!ok) {
        CHECK(err.cls == SQE_ERR_INVALID_DATA);
        CHECK_CONTAINS(err.msg, part);
    }
    sqe_arena_free(a);
    free(b->buf);
}

/* The start of a FileMetaData: version, an empty-ish schema. */
static void tb_meta_head(tb *b) {
    tb_init(b);
    tb_begin(b);
    tb_i32(b, 1, 1);
}

static void test_footer_errors(void) {
    tb b;
    /* huge list counts: beyond the limit, and beyond the bytes left */
    tb_meta_head(&b);
    tb_list_field(&b, 2, T_STRUCT, 4294967295u);
    expect_meta_error(&b, "thrift: list of 4294967295 elements at byte 3 exceeds the limit of "
                          "100000 in FileMetaData.schema");
    tb_meta_head(&b);
    tb_list_field(&b, 4, T_STRUCT, 1000000000u);
    expect_meta_error(&b, "list of 1000000000 elements at byte 3 exceeds the limit of 1000000 in "
                          "FileMetaData.row_groups");
    tb_meta_head(&b);
    tb_list_field(&b, 2, T_STRUCT, 5000);
    expect_meta_error(&b, "list of 5000 elements at byte 3 needs at least 15000 bytes but only 0 "
                          "remain");
    tb_meta_head(&b);
    tb_field(&b, 2, T_LIST), tb_byte(&b, 0xF0 | T_STRUCT), tb_varint(&b, 1ull << 40);
    expect_meta_error(&b, "list size 1099511627776 at byte 3 does not fit 32 bits");
    /* an unknown list field: the generic limit */
    tb_meta_head(&b);
    tb_list_field(&b, 20, T_I32, 20000000);
    expect_meta_error(&b, "exceeds the limit of 10000000 in FileMetaData field 20");
    tb_meta_head(&b);
    tb_field(&b, 20, T_MAP), tb_varint(&b, 20000000), tb_byte(&b, 0x55);
    expect_meta_error(&b, "map of 20000000 entries at byte 4 exceeds the limit");
    tb_meta_head(&b);
    tb_field(&b, 20, T_MAP), tb_varint(&b, 100), tb_byte(&b, 0x55);
    expect_meta_error(&b, "map of 100 entries at byte 4 needs at least 200 bytes");
    tb_meta_head(&b);
    tb_field(&b, 20, T_MAP), tb_varint(&b, 1), tb_byte(&b, 0xE5), tb_byte(&b, 0), tb_byte(&b, 0);
    expect_meta_error(&b, "map with invalid key/value types 14/5");
    /* deep nesting: structs, and lists of lists */
    tb_meta_head(&b);
    for (int i = 0; i < 70; i++) tb_struct(&b, 20);
    expect_meta_error(&b, "values nested deeper than 64 levels");
    tb_meta_head(&b);
    tb_list_field(&b, 20, T_LIST, 1);
    for (int i = 0; i < 70; i++) tb_list(&b, T_LIST, 1);
    expect_meta_error(&b, "values nested deeper than 64 levels");
    /* nesting that fits is fine when skipped (here: 60 levels) */
    tb_init(&b);
    tb_footer(&b, false);
    b.n--; /* drop FileMetaData's stop byte, append a deep unknown field */
    b.depth = 1;
    for (int i = 0; i < 60; i++) tb_struct(&b, 20);
    for (int i = 0; i < 60; i++) tb_end(&b);
    tb_end(&b);
    {
        sqe_arena *a = sqe_arena_new(0);
        sqe_pq_file_meta m;
        sqe_error err;
        CHECK(parse_meta(&b, a, &m, &err));
        check_built_footer(&m);
        sqe_arena_free(a);
        free(b.buf);
    }
    /* bad field and element types */
    tb_meta_head(&b);
    tb_byte(&b, 0x1E);
    expect_meta_error(&b, "invalid field type 14 at byte 2 in FileMetaData");
    tb_meta_head(&b);
    tb_byte(&b, 0x10);
    expect_meta_error(&b, "invalid field type 0 at byte 2");
    tb_meta_head(&b);
    tb_list_field(&b, 20, 15, 3);
    expect_meta_error(&b, "list of invalid element type 15 at byte 4");
    tb_meta_head(&b);
    tb_list_field(&b, 2, T_I32, 1), tb_zz(&b, 1);
    expect_meta_error(&b,
                      "list of i32 at byte 3, expected a list of struct in FileMetaData.schema");
    tb_meta_head(&b);
    tb_str(&b, 3, "many");
    expect_meta_error(&b, "value of type binary at byte 3, expected an integer in "
                          "FileMetaData.num_rows");
    tb_meta_head(&b);
    tb_i32(&b, 6, 5);
    expect_meta_error(&b,
                      "value of type i32 at byte 3, expected binary in FileMetaData.created_by");
    tb_meta_head(&b);
    tb_i32(&b, 8, 5);
    expect_meta_error(&b, "field of type i32 at byte 2, expected struct in "
                          "FileMetaData.encryption_algorithm");
    /* varints */
    tb_meta_head(&b);
    tb_field(&b, 3, T_I64);
    for (int i = 0; i < 11; i++) tb_byte(&b, 0xFF);
    expect_meta_error(&b, "varint at byte 3 overflows 64 bits");
    tb_meta_head(&b);
    tb_field(&b, 3, T_I64);
    for (int i = 0; i < 9; i++) tb_byte(&b, 0x80);
    tb_byte(&b, 0x81);
    expect_meta_error(&b, "varint at byte 3 is longer than 10 bytes");
    tb_init(&b);
    tb_begin(&b);
    tb_i32(&b, 1, 1ll << 40);
    expect_meta_error(&b,
                      "value 1099511627776 at byte 1 does not fit 32 bits in FileMetaData.version");
    tb_init(&b);
    tb_begin(&b);
    tb_byte(&b, T_I32), tb_byte(&b, 0xFF), tb_byte(&b, 0xFF), tb_byte(&b, 0x0F);
    expect_meta_error(&b, "field id -131072 at byte 0 does not fit 16 bits");
    /* negative sizes */
    tb_meta_head(&b);
    tb_i64(&b, 3, -1);
    expect_meta_error(&b, "negative value -1 at byte 3 in FileMetaData.num_rows");
    /* binary lengths */
    tb_meta_head(&b);
    tb_field(&b, 6, T_BIN), tb_varint(&b, 100), tb_raw(&b, "abc", 3);
    expect_meta_error(&b, "binary of 100 bytes at byte 3 runs past the end (byte 7) in "
                          "FileMetaData.created_by");
    tb_meta_head(&b);
    tb_field(&b, 6, T_BIN), tb_varint(&b, 20u << 20);
    expect_meta_error(&b, "binary of 20971520 bytes at byte 3 exceeds the limit of 16777216");
    tb_meta_head(&b);
    tb_field(&b, 20, T_BIN), tb_varint(&b, 100);
    expect_meta_error(&b, "binary of 100 bytes at byte 4 runs past the end (byte 5) in "
                          "FileMetaData field 20");
    /* missing required fields */
    tb_meta_head(&b);
    tb_list_field(&b, 2, T_STRUCT, 0);
    tb_i64(&b, 3, 0);
    tb_end(&b);
    expect_meta_error(&b, "FileMetaData lacks required field 4 (row_groups) at byte 7");
    tb_meta_head(&b);
    tb_list_field(&b, 2, T_STRUCT, 1);
    tb_begin(&b), tb_i32(&b, 1, 1), tb_end(&b);
    expect_meta_error(&b, "SchemaElement lacks required field 4 (name)");
    /* truncation inside each kind of value */
    static const uint8_t cuts[][3] = {{0xF5}, {0xF6, 0x80}, {0xF7}, {0xF9}, {0xFC}};
    for (size_t i = 0; i < SQE_ARRAY_LEN(cuts); i++) {
        tb_init(&b);
        tb_begin(&b);
        tb_raw(&b, cuts[i], cuts[i][1] ? 2 : 1);
        expect_meta_error(&b, "the data ends at byte");
    }
    tb_init(&b);
    expect_meta_error(&b, "thrift: the data ends at byte 0 inside a struct in FileMetaData");
    /* a footer over the limit is refused before it is read */
    {
        uint8_t *big = calloc(SQE_PQ_MAX_FOOTER + 1, 1);
        sqe_arena *a = sqe_arena_new(0);
        sqe_pq_file_meta m;
        sqe_error err;
        CHECK(!sqe_pq_parse_file_meta(big, SQE_PQ_MAX_FOOTER + 1, a, &m, &err));
        CHECK_CONTAINS(err.msg, "Parquet footer of 67108865 bytes exceeds the limit");
        sqe_arena_free(a);
        free(big);
    }
}

/* A FileMetaData around one row group holding one column chunk whose body
 * the caller writes (fields after the chunk's own header). */
static void tb_chunk_head(tb *b) {
    tb_meta_head(b);
    tb_list_field(b, 2, T_STRUCT, 1);
    tb_begin(b), tb_str(b, 4, "x"), tb_end(b);
    tb_i64(b, 3, 1);
    tb_list_field(b, 4, T_STRUCT, 1);
    tb_begin(b);
    tb_list_field(b, 1, T_STRUCT, 1);
    tb_begin(b);
}

static void tb_chunk_tail(tb *b) {
    tb_end(b); /* ColumnChunk */
    tb_i64(b, 2, 1);
    tb_i64(b, 3, 1);
    tb_end(b); /* RowGroup */
    tb_end(b); /* FileMetaData */
}

static void tb_min_meta(tb *b, int skip_field) {
    tb_struct(b, 3);
    if (skip_field != 1) tb_i32(b, 1, SQE_PQ_INT32);
    if (skip_field != 2) tb_list_field(b, 2, T_I32, 0);
    if (skip_field != 3) tb_list_field(b, 3, T_BIN, 1), tb_bin(b, "x", 1);
    if (skip_field != 4) tb_i32(b, 4, 0);
    if (skip_field != 5) tb_i64(b, 5, 1);
    if (skip_field != 6) tb_i64(b, 6, 1);
    if (skip_field != 7) tb_i64(b, 7, 1);
    if (skip_field != 9) tb_i64(b, 9, 4);
    if (skip_field == 10) tb_i64(b, 10, -4);
    if (skip_field == 11) tb_i64(b, 11, -4);
    tb_end(b);
}

static void test_chunk_errors(void) {
    static const char *const names[] = {NULL,
                                        "type",
                                        "encodings",
                                        "path_in_schema",
                                        "codec",
                                        "num_values",
                                        "total_uncompressed_size",
                                        "total_compressed_size",
                                        NULL,
                                        "data_page_offset"};
    tb b;
    char want[160];
    for (int f = 1; f <= 9; f++) {
        if (!names[f]) continue;
        tb_chunk_head(&b);
        tb_i64(&b, 2, 0);
        tb_min_meta(&b, f);
        tb_chunk_tail(&b);
        snprintf(want, sizeof want, "ColumnMetaData lacks required field %d (%s)", f, names[f]);
        expect_meta_error(&b, want);
    }
    /* the context of a missing field is the field holding the struct */
    tb_chunk_head(&b);
    tb_i64(&b, 2, 0);
    tb_min_meta(&b, 9);
    tb_chunk_tail(&b);
    expect_meta_error(&b, "ColumnMetaData lacks required field 9 (data_page_offset) at byte 34 in "
                          "ColumnChunk.meta_data");
    /* optional row group values and type_length: negative means absent */
    tb_chunk_head(&b);
    tb_i64(&b, 2, 0);
    tb_min_meta(&b, 0);
    tb_end(&b); /* ColumnChunk */
    tb_i64(&b, 2, 1);
    tb_i64(&b, 3, 1);
    tb_i64(&b, 5, -7);
    tb_i64(&b, 6, -8);
    tb_end(&b); /* RowGroup */
    tb_end(&b);
    {
        sqe_arena *a = sqe_arena_new(0);
        sqe_pq_file_meta m;
        sqe_error err;
        bool ok = parse_meta(&b, a, &m, &err);
        CHECK(ok);
        if (ok)
            CHECK(m.row_groups[0].file_offset == -1 && m.row_groups[0].total_compressed_size == -1);
        sqe_arena_free(a);
        free(b.buf);
    }
    tb_meta_head(&b);
    tb_list_field(&b, 2, T_STRUCT, 1);
    tb_begin(&b), tb_i32(&b, 2, -3), tb_str(&b, 4, "x"), tb_i32(&b, 5, 0), tb_end(&b);
    tb_i64(&b, 3, 0);
    tb_list_field(&b, 4, T_STRUCT, 0);
    tb_end(&b);
    {
        sqe_arena *a = sqe_arena_new(0);
        sqe_pq_file_meta m;
        sqe_error err;
        CHECK(parse_meta(&b, a, &m, &err) && m.schema[0].type_length == 0);
        sqe_arena_free(a);
        free(b.buf);
    }
    tb_meta_head(&b);
    tb_list_field(&b, 2, T_STRUCT, 1);
    tb_begin(&b), tb_str(&b, 4, "x"), tb_i32(&b, 5, -1), tb_end(&b);
    expect_meta_error(&b, "negative value -1 at byte 8 in SchemaElement.num_children");
    tb_chunk_head(&b);
    tb_i64(&b, 2, 0);
    tb_min_meta(&b, 10);
    tb_chunk_tail(&b);
    expect_meta_error(&b, "negative value -4 at byte 36 in ColumnMetaData.index_page_offset");
    tb_chunk_head(&b);
    tb_i64(&b, 2, 0);
    tb_min_meta(&b, 11);
    tb_chunk_tail(&b);
    expect_meta_error(&b, "in ColumnMetaData.dictionary_page_offset");
    /* file_offset is required; meta_data or encryption metadata too */
    tb_chunk_head(&b);
    tb_min_meta(&b, 0);
    tb_chunk_tail(&b);
    expect_meta_error(&b, "ColumnChunk lacks required field 2 (file_offset)");
    tb_chunk_head(&b);
    tb_i64(&b, 2, 0);
    tb_i64(&b, 4, 0);
    tb_chunk_tail(&b);
    expect_meta_error(&b, "has neither meta_data nor encryption metadata in ColumnChunk");
    tb_chunk_head(&b);
    tb_i64(&b, 2, 0);
    tb_min_meta(&b, 0);
    tb_i32(&b, 5, -20);
    tb_chunk_tail(&b);
    expect_meta_error(&b, "negative value -20 at byte 37 in ColumnChunk.offset_index_length");
    /* an encrypted column: no meta_data, encryption metadata present */
    for (int kind = 8; kind <= 9; kind++) {
        tb_chunk_head(&b);
        tb_i64(&b, 2, 0);
        if (kind == 8) {
            tb_struct(&b, 8);
            tb_struct(&b, 1); /* ENCRYPTION_WITH_FOOTER_KEY */
            tb_end(&b);
            tb_end(&b);
        } else {
            tb_field(&b, 9, T_BIN), tb_bin(&b, "secret", 6);
        }
        tb_chunk_tail(&b);
        /* and a plaintext footer's encryption algorithm */
        b.n--;
        b.depth = 1;
        tb_struct(&b, 8), tb_struct(&b, 1), tb_end(&b), tb_end(&b);
        tb_end(&b);
        sqe_arena *a = sqe_arena_new(0);
        sqe_pq_file_meta m;
        sqe_error err;
        bool ok = parse_meta(&b, a, &m, &err);
        CHECK(ok);
        if (ok) {
            const sqe_pq_column_chunk *c = &m.row_groups[0].columns[0];
            CHECK(c->encrypted && !c->has_meta && m.has_encryption_algorithm);
        } else
            fprintf(stderr, "  %s\n", err.msg);
        sqe_arena_free(a);
        free(b.buf);
    }
    /* file_path (another file) is reported */
    tb_chunk_head(&b);
    tb_str(&b, 1, "other.parquet");
    tb_i64(&b, 2, 0);
    tb_min_meta(&b, 0);
    tb_chunk_tail(&b);
    {
        sqe_arena *a = sqe_arena_new(0);
        sqe_pq_file_meta m;
        sqe_error err;
        CHECK(parse_meta(&b, a, &m, &err));
        CHECK_STR(m.row_groups[0].columns[0].file_path, "other.parquet");
        sqe_arena_free(a);
        free(b.buf);
    }
    /* a row group cannot have more chunks than the schema limit */
    tb_meta_head(&b);
    tb_list_field(&b, 4, T_STRUCT, 1);
    tb_begin(&b);
    tb_list_field(&b, 1, T_STRUCT, 200000);
    tb_raw(&b, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16);
    expect_meta_error(&b, "list of 200000 elements at byte 5 exceeds the limit of 100000 in "
                          "RowGroup.columns");
    tb_meta_head(&b);
    tb_list_field(&b, 4, T_STRUCT, 1);
    tb_begin(&b);
    tb_i64(&b, 3, -3);
    tb_raw(&b, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16);
    expect_meta_error(&b, "negative value -3 at byte 5 in RowGroup.num_rows");
}

/* One SchemaElement with a logical type the callback writes, parsed. */
static bool parse_logical(void (*write)(tb *), sqe_pq_logical *out, sqe_error *err) {
    tb b;
    tb_meta_head(&b);
    tb_list_field(&b, 2, T_STRUCT, 1);
    tb_begin(&b);
    tb_str(&b, 4, "c");
    tb_struct(&b, 10);
    write(&b);
    tb_end(&b);
    tb_end(&b);
    tb_i64(&b, 3, 0);
    tb_list_field(&b, 4, T_STRUCT, 0);
    tb_end(&b);
    sqe_arena *a = sqe_arena_new(0);
    sqe_pq_file_meta m;
    bool ok = parse_meta(&b, a, &m, err);
    if (ok) *out = m.schema[0].logical;
    sqe_arena_free(a);
    free(b.buf);
    return ok;
}

static void lt_decimal(tb *b) {
    tb_struct(b, 5), tb_i32(b, 1, 3), tb_i32(b, 2, 18), tb_end(b);
}
static void lt_integer(tb *b) {
    tb_struct(b, 10), tb_field(b, 1, T_I8), tb_byte(b, 16), tb_bool(b, 2, false), tb_end(b);
}
static void lt_time_nanos(tb *b) {
    tb_struct(b, 7), tb_bool(b, 1, false), tb_struct(b, 2), tb_struct(b, 3), tb_end(b), tb_end(b),
        tb_end(b);
}
static void lt_time_millis(tb *b) {
    tb_struct(b, 7), tb_bool(b, 1, true), tb_struct(b, 2), tb_struct(b, 1), tb_end(b), tb_end(b),
        tb_end(b);
}
static void lt_ts_unknown_unit(tb *b) {
    tb_struct(b, 8), tb_bool(b, 1, true), tb_struct(b, 2), tb_struct(b, 9), tb_end(b), tb_end(b),
        tb_end(b);
}
static void lt_unknown(tb *b) {
    tb_struct(b, 11), tb_end(b);
}
static void lt_uuid(tb *b) {
    tb_struct(b, 14), tb_end(b);
}
static void lt_future(tb *b) {
    tb_struct(b, 77), tb_i32(b, 1, 5), tb_end(b);
}
static void lt_two(tb *b) {
    tb_struct(b, 1), tb_end(b);
    tb_struct(b, 6), tb_end(b);
}
static void lt_not_struct(tb *b) {
    tb_i32(b, 1, 0);
}
static void lt_dec_missing(tb *b) {
    tb_struct(b, 5), tb_i32(b, 1, 3), tb_end(b);
}
static void lt_big_width(tb *b) {
    tb_struct(b, 10), tb_i32(b, 1, 300), tb_bool(b, 2, true), tb_end(b);
}
static void lt_empty_unit(tb *b) {
    tb_struct(b, 8), tb_bool(b, 1, true), tb_struct(b, 2), tb_end(b), tb_end(b);
}

static void test_logical_types(void) {
    sqe_pq_logical lt;
    sqe_error err;
    CHECK(parse_logical(lt_decimal, &lt, &err));
    CHECK(lt.kind == SQE_PQ_LT_DECIMAL && lt.scale == 3 && lt.precision == 18);
    CHECK(parse_logical(lt_integer, &lt, &err));
    CHECK(lt.kind == SQE_PQ_LT_INTEGER && lt.bit_width == 16 && !lt.is_signed);
    CHECK(parse_logical(lt_time_nanos, &lt, &err));
    CHECK(lt.kind == SQE_PQ_LT_TIME && !lt.utc_adjusted && lt.unit == SQE_PQ_NANOS);
    CHECK(parse_logical(lt_time_millis, &lt, &err));
    CHECK(lt.kind == SQE_PQ_LT_TIME && lt.utc_adjusted && lt.unit == SQE_PQ_MILLIS);
    CHECK(parse_logical(lt_ts_unknown_unit, &lt, &err));
    CHECK(lt.kind == SQE_PQ_LT_OTHER);
    CHECK(parse_logical(lt_unknown, &lt, &err) && lt.kind == SQE_PQ_LT_UNKNOWN);
    CHECK(parse_logical(lt_uuid, &lt, &err) && lt.kind == SQE_PQ_LT_UUID);
    CHECK(parse_logical(lt_future, &lt, &err) && lt.kind == SQE_PQ_LT_OTHER);
    CHECK(!parse_logical(lt_two, &lt, &err));
    CHECK_CONTAINS(err.msg, "union with 2 members");
    CHECK(!parse_logical(lt_not_struct, &lt, &err));
    CHECK_CONTAINS(err.msg, "field of type i32 at byte 8, expected struct in LogicalType.STRING");
    CHECK(!parse_logical(lt_dec_missing, &lt, &err));
    CHECK_CONTAINS(err.msg, "DecimalType lacks required field 2 (precision)");
    CHECK(!parse_logical(lt_big_width, &lt, &err));
    CHECK_CONTAINS(err.msg, "bitWidth 300 does not fit 8 bits in IntType.bitWidth");
    CHECK(!parse_logical(lt_empty_unit, &lt, &err));
    CHECK_CONTAINS(err.msg, "union with 0 members");
}

/* ColumnOrder: an unknown member is SQE_PQ_ORDER_UNKNOWN; two members fail. */
static void test_column_orders(void) {
    for (int kind = 0; kind < 3; kind++) {
        tb b;
        tb_meta_head(&b);
        tb_list_field(&b, 2, T_STRUCT, 0);
        tb_i64(&b, 3, 0);
        tb_list_field(&b, 4, T_STRUCT, 0);
        tb_list_field(&b, 7, T_STRUCT, 3);
        tb_begin(&b), tb_struct(&b, 3), tb_end(&b), tb_end(&b);
        tb_begin(&b), tb_struct(&b, 12), tb_end(&b), tb_end(&b);
        tb_begin(&b);
        if (kind == 1) tb_struct(&b, 1), tb_end(&b), tb_struct(&b, 2), tb_end(&b);
        if (kind == 2) tb_i32(&b, 1, 0);
        tb_end(&b);
        tb_end(&b);
        if (kind != 1) { /* a member of another type is an unknown order too */
            sqe_arena *a = sqe_arena_new(0);
            sqe_pq_file_meta m;
            sqe_error err;
            CHECK(parse_meta(&b, a, &m, &err) && m.n_column_orders == 3);
            CHECK(m.column_orders[0] == SQE_PQ_ORDER_INT96_TIMESTAMP);
            CHECK(m.column_orders[1] == SQE_PQ_ORDER_UNKNOWN);
            CHECK(m.column_orders[2] == SQE_PQ_ORDER_UNKNOWN);
            sqe_arena_free(a);
            free(b.buf);
        } else {
            expect_meta_error(&b, "union with 2 members at byte 21 in ColumnOrder");
        }
    }
}

/* Page header errors and need_more. */
static void test_page_header_errors(void) {
    sqe_pq_page_header h;
    size_t hl;
    bool more;
    sqe_error err;
    tb b;
    struct {
        int type, unc, comp, sub;
        const char *want;
    } cases[] = {
        {0, 10, -1, 0, "negative value -1 at byte 5 in PageHeader.compressed_page_size"},
        {0, 2000000000, 1, 0, "page size 2000000000 at byte 3 exceeds the limit of 1073741824"},
        {0, 10, 10, 0, "PageHeader lacks required field 5 (data_page_header)"},
        {2, 10, 10, 0, "PageHeader lacks required field 7 (dictionary_page_header)"},
        {3, 10, 10, 0, "PageHeader lacks required field 8 (data_page_header_v2)"},
        {3, 10, 10, 1, "num_nulls 11 exceeds num_values 10 in DataPageHeaderV2"},
        {3, 10, 10, 2, "DATA_PAGE_V2 levels of 11 bytes exceed the page's 10 bytes in PageHeader"},
        {0, 10, 10, 3, "negative value -10 at byte 8 in DataPageHeader.num_values"},
        {-1, 10, 10, 0, "negative value -1 at byte 1 in PageHeader.type"},
    };
    for (size_t i = 0; i < SQE_ARRAY_LEN(cases); i++) {
        tb_init(&b);
        tb_begin(&b);
        tb_i32(&b, 1, cases[i].type);
        tb_i32(&b, 2, cases[i].unc);
        tb_i32(&b, 3, cases[i].comp);
        if (cases[i].sub == 1 || cases[i].sub == 2) {
            tb_struct(&b, 8);
            tb_i32(&b, 1, 10);
            tb_i32(&b, 2, cases[i].sub == 1 ? 11 : 0);
            tb_i32(&b, 3, 10);
            tb_i32(&b, 4, 0);
            tb_i32(&b, 5, 6);
            tb_i32(&b, 6, cases[i].sub == 2 ? 5 : 0);
            tb_end(&b);
        } else if (cases[i].sub == 3) {
            tb_struct(&b, 5);
            tb_i32(&b, 1, -10);
            tb_end(&b);
        }
        tb_end(&b);
        memset(&err, 0, sizeof err);
        CHECK(!sqe_pq_parse_page_header(b.buf, b.n, &h, &hl, &more, &err) && !more);
        CHECK(err.cls == SQE_ERR_INVALID_DATA);
        CHECK_CONTAINS(err.msg, cases[i].want);
        free(b.buf);
    }
    /* a list count beyond the buffer asks for more; err is untouched */
    tb_init(&b);
    tb_begin(&b);
    tb_i32(&b, 1, 0);
    tb_list_field(&b, 20, T_I64, 1000);
    strcpy(err.msg, "untouched");
    CHECK(!sqe_pq_parse_page_header(b.buf, b.n, &h, &hl, &more, &err) && more);
    CHECK_STR(err.msg, "untouched");
    CHECK(hl == 0);
    free(b.buf);
    /* ... but a hostile header cannot grow past SQE_PQ_MAX_PAGE_HEADER */
    size_t big = SQE_PQ_MAX_PAGE_HEADER + 100;
    uint8_t *buf = calloc(big, 1);
    tb_init(&b);
    tb_begin(&b);
    tb_i32(&b, 1, 0);
    tb_field(&b, 20, T_BIN), tb_varint(&b, 20u << 20);
    memcpy(buf, b.buf, b.n);
    CHECK(!sqe_pq_parse_page_header(buf, big, &h, &hl, &more, &err) && !more);
    CHECK_CONTAINS(err.msg, "page header longer than the limit of 16777216 bytes");
    free(buf);
    free(b.buf);
    /* empty buffer: need more */
    CHECK(!sqe_pq_parse_page_header((const uint8_t *)"", 0, &h, &hl, &more, &err) && more);
}

static void test_page_index(void) {
    sqe_arena *a = sqe_arena_new(0);
    sqe_error err;
    tb b;
    /* column index: 3 pages, the middle one all nulls */
    tb_init(&b);
    tb_begin(&b);
    tb_list_field(&b, 1, T_TRUE, 3), tb_byte(&b, 0), tb_byte(&b, 1), tb_byte(&b, 2);
    tb_list_field(&b, 2, T_BIN, 3), tb_bin(&b, "a", 1), tb_bin(&b, "", 0), tb_bin(&b, "m", 1);
    tb_list_field(&b, 3, T_BIN, 3), tb_bin(&b, "f", 1), tb_bin(&b, "", 0), tb_bin(&b, "zz", 2);
    tb_i32(&b, 4, 1);
    tb_list_field(&b, 5, T_I64, 3), tb_zz(&b, 0), tb_zz(&b, 100), tb_zz(&b, 2);
    tb_list_field(&b, 7, T_I64, 0);
    tb_end(&b);
    sqe_pq_column_index ci;
    CHECK(sqe_pq_parse_column_index(b.buf, b.n, a, &ci, &err));
    CHECK(ci.n_pages == 3 && !ci.null_pages[0] && ci.null_pages[1] && !ci.null_pages[2]);
    CHECK(ci.min_len[0] == 1 && ci.min[0][0] == 'a' && ci.min_len[1] == 0);
    CHECK(ci.max_len[2] == 2 && memcmp(ci.max[2], "zz", 2) == 0);
    CHECK(ci.min[0] < b.buf || ci.min[0] >= b.buf + b.n); /* copied */
    CHECK(ci.boundary_order == 1 && ci.null_counts && ci.null_counts[1] == 100);
    free(b.buf);
    /* unknown boundary order = unordered; -1 null counts = absent */
    tb_init(&b);
    tb_begin(&b);
    tb_list_field(&b, 1, T_TRUE, 1), tb_byte(&b, 0);
    tb_list_field(&b, 2, T_BIN, 1), tb_bin(&b, "a", 1);
    tb_list_field(&b, 3, T_BIN, 1), tb_bin(&b, "b", 1);
    tb_i32(&b, 4, 9);
    tb_list_field(&b, 5, T_I64, 1), tb_zz(&b, -1);
    tb_end(&b);
    CHECK(sqe_pq_parse_column_index(b.buf, b.n, a, &ci, &err));
    CHECK(ci.n_pages == 1 && ci.boundary_order == 0 && ci.null_counts == NULL);
    free(b.buf);
    /* lists of different lengths */
    tb_init(&b);
    tb_begin(&b);
    tb_list_field(&b, 1, T_TRUE, 2), tb_byte(&b, 0), tb_byte(&b, 0);
    tb_list_field(&b, 2, T_BIN, 1), tb_bin(&b, "a", 1);
    tb_list_field(&b, 3, T_BIN, 2), tb_bin(&b, "b", 1), tb_bin(&b, "c", 1);
    tb_i32(&b, 4, 0);
    tb_end(&b);
    CHECK(!sqe_pq_parse_column_index(b.buf, b.n, a, &ci, &err));
    CHECK_CONTAINS(err.msg, "lists of different lengths: 2 null_pages, 1 min_values, 2 max_values, "
                            "0 null_counts in ColumnIndex");
    CHECK(ci.n_pages == 0);
    free(b.buf);
    /* an empty null_counts list is a length mismatch too (fuzz regression) */
    tb_init(&b);
    tb_begin(&b);
    tb_list_field(&b, 1, T_TRUE, 1), tb_byte(&b, 0);
    tb_list_field(&b, 2, T_BIN, 1), tb_bin(&b, "a", 1);
    tb_list_field(&b, 3, T_BIN, 1), tb_bin(&b, "b", 1);
    tb_i32(&b, 4, 0);
    tb_list_field(&b, 5, 0, 0);
    tb_end(&b);
    CHECK(!sqe_pq_parse_column_index(b.buf, b.n, a, &ci, &err));
    CHECK_CONTAINS(err.msg, "1 null_pages, 1 min_values, 1 max_values, 0 null_counts");
    free(b.buf);
    tb_init(&b);
    tb_begin(&b);
    tb_list_field(&b, 1, T_I32, 1), tb_zz(&b, 1);
    tb_end(&b);
    CHECK(!sqe_pq_parse_column_index(b.buf, b.n, a, &ci, &err));
    CHECK_CONTAINS(err.msg,
                   "list of i32 at byte 1, expected a list of bool in ColumnIndex.null_pages");
    free(b.buf);
    /* offset index */
    tb_init(&b);
    tb_begin(&b);
    tb_list_field(&b, 1, T_STRUCT, 2);
    for (int i = 0; i < 2; i++) {
        tb_begin(&b);
        tb_i64(&b, 1, 4 + 100 * i);
        tb_i32(&b, 2, 100);
        tb_i64(&b, 3, 50 * i);
        tb_end(&b);
    }
    tb_list_field(&b, 2, T_I64, 1), tb_zz(&b, 5);
    tb_end(&b);
    sqe_pq_offset_index oi;
    CHECK(sqe_pq_parse_offset_index(b.buf, b.n, a, &oi, &err));
    CHECK(oi.n_pages == 2 && oi.pages[1].offset == 104 && oi.pages[1].compressed_page_size == 100 &&
          oi.pages[1].first_row_index == 50);
    for (size_t k = 0; k < b.n; k++) CHECK(!sqe_pq_parse_offset_index(b.buf, k, a, &oi, &err));
    free(b.buf);
    tb_init(&b);
    tb_begin(&b);
    tb_list_field(&b, 1, T_STRUCT, 1);
    tb_begin(&b), tb_i64(&b, 1, -4), tb_end(&b);
    tb_end(&b);
    tb_raw(&b, "\0\0\0\0\0\0\0\0", 8);
    CHECK(!sqe_pq_parse_offset_index(b.buf, b.n, a, &oi, &err));
    CHECK_CONTAINS(err.msg, "negative value -4 at byte 3 in PageLocation.offset");
    free(b.buf);
    tb_init(&b);
    tb_begin(&b);
    tb_list_field(&b, 1, T_STRUCT, 1);
    tb_begin(&b), tb_i64(&b, 1, 4), tb_i32(&b, 2, 10), tb_end(&b);
    tb_end(&b);
    tb_raw(&b, "\0\0\0\0\0\0\0\0", 8);
    CHECK(!sqe_pq_parse_offset_index(b.buf, b.n, a, &oi, &err));
    CHECK_CONTAINS(err.msg, "PageLocation lacks required field 3 (first_row_index)");
    free(b.buf);
    tb_init(&b);
    tb_begin(&b);
    tb_list_field(&b, 1, T_STRUCT, 3);
    tb_end(&b);
    CHECK(!sqe_pq_parse_offset_index(b.buf, b.n, a, &oi, &err));
    CHECK_CONTAINS(err.msg,
                   "list of 3 elements at byte 1 needs at least 21 bytes but only 1 remain");
    free(b.buf);
    sqe_arena_free(a);
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
    if (g_dir) {
        RUN(test_every_file);
        RUN(test_known_facts);
        RUN(test_expect_csv);
        RUN(test_known_pages);
        RUN(test_footer_prefixes);
    } else if (getenv("SQE_REQUIRE_PARQUET_TESTING")) {
        fprintf(stderr, "parquet-testing folder not found (set SQE_PARQUET_TESTING)\n");
        return 1;
    } else {
        fprintf(stderr, "WARNING: parquet-testing folder not found (set SQE_PARQUET_TESTING): "
                        "skipping the real-file tests\n");
    }
    RUN(test_built_footer);
    RUN(test_stats_variants);
    RUN(test_page_header_kinds);
    RUN(test_footer_errors);
    RUN(test_chunk_errors);
    RUN(test_logical_types);
    RUN(test_column_orders);
    RUN(test_page_header_errors);
    RUN(test_page_index);
    return unit_report();
}
