/*
 * test_parquet_reader.c - the Parquet reader through the format registry:
 * binding, conversion, row-group pruning from spec->pred and its counters,
 * morsel planning (plan_morsels/open_range), errors on files that are not
 * Parquet, the text reader's planning through sqe_format_plan_morsels, and
 * EXPLAIN ANALYZE's row-group counters through a session.
 *
 * Data: the shared parquet-testing files ($SQE_SHARED_DIR/parquet-testing,
 * else ../shared or ../../shared from the working directory, which `make`
 * runs in the repository root), used in place; hostile files are written
 * into a mkdtemp folder.
 */
#include "format/format.h"
#include "sqe.h"
#include "unit.h"

#include <limits.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <unistd.h>

static char g_shared[PATH_MAX];
static char g_dir[64];
static sqe_store *g_store;

/* ------------------------------------------------------------ helpers */

static bool find_shared(void) {
    const char *pt = getenv("SQE_PARQUET_TESTING"); /* as test_parquet_meta */
    if (pt && *pt) return realpath(pt, g_shared) != NULL;
    const char *env = getenv("SQE_SHARED_DIR"); /* as sqe-slt's __SHARED__ */
    char probe[PATH_MAX + 32];
    if (env && *env) {
        snprintf(probe, sizeof probe, "%s/parquet-testing", env);
        return realpath(probe, g_shared) != NULL;
    }
    static const char *const k_try[] = {"../shared/parquet-testing",
                                        "../../shared/parquet-testing"};
    for (size_t i = 0; i < SQE_ARRAY_LEN(k_try); i++)
        if (realpath(k_try[i], g_shared)) return true;
    return false;
}

static char *shared_path(const char *name) {
    return sqe_asprintf("%s/%s", g_shared, name);
}

static uint64_t file_size(const char *path) {
    sqe_io_entry e;
    sqe_error err;
    return g_store->vt->head(g_store, path, &e, &err) ? e.size : 0;
}

typedef struct table_def {
    int n;
    const char *names[8];
    sqe_type types[8];
} table_def;

static sqe_reader_spec make_spec(const table_def *t, const int *proj, int n_proj,
                                 const sqe_format_pred *pred) {
    sqe_reader_spec s;
    memset(&s, 0, sizeof s);
    s.format = SQE_FORMAT_PARQUET;
    s.n_table_cols = t->n;
    s.col_names = t->names;
    s.col_types = t->types;
    s.n_proj = n_proj;
    s.proj = proj;
    s.pred = pred;
    return s;
}

/* Reads a whole reader into "v1|v2\n" lines (integers and strings only).
 * Returns NULL with err set on failure. Closes the reader. */
static char *drain(sqe_reader *r, const sqe_reader_spec *spec, sqe_reader_stats *stats,
                   sqe_error *err) {
    sqe_type types[8];
    for (int i = 0; i < spec->n_proj; i++) types[i] = spec->col_types[spec->proj[i]];
    sqe_batch *b = sqe_batch_new(spec->n_proj, types);
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    bool ok = true, eof = false;
    uint64_t rows = 0;
    while (ok && !eof) {
        sqe_batch_reset(b);
        ok = r->vt->next(r, b, &eof, err);
        for (uint32_t row = 0; ok && row < b->n_rows; row++, rows++) {
            for (int c = 0; c < spec->n_proj; c++) {
                if (c) sqe_strbuf_putc(&sb, '|');
                sqe_value v;
                sqe_vector_get_value(b->cols[c], row, &v);
                sqe_value_format(&v, &sb);
            }
            if (spec->n_proj == 0) sqe_strbuf_putc(&sb, '-');
            sqe_strbuf_putc(&sb, '\n');
        }
    }
    if (stats) *stats = r->stats;
    r->vt->close(r);
    sqe_batch_free(b);
    if (!ok) {
        sqe_strbuf_free(&sb);
        return NULL;
    }
    if (!sb.data) sqe_strbuf_puts(&sb, "");
    return sqe_strbuf_detach(&sb);
}

static const sqe_reader_vtable *pq_vt(void) {
    sqe_error err;
    return sqe_format_reader_for(SQE_FORMAT_PARQUET, &err);
}

/* Opens `name` from the shared folder with `spec` and drains it. */
static char *read_shared(const char *name, const sqe_reader_spec *spec, sqe_reader_stats *stats,
                         sqe_error *err) {
    char *path = shared_path(name);
    sqe_reader *r = pq_vt()->open(g_store, path, file_size(path), spec, err);
    sqe_free(path);
    return r ? drain(r, spec, stats, err) : NULL;
}

/* sort_columns.parquet: two row groups of (a bigint, b string):
 * (NULL,a) (2,b) (1,c); stats a: 1..2 with 1 NULL, b: a..c. */
static const table_def k_sort = {
    3,
    {"a", "b", "c"},
    {{SQE_T_BIGINT, 0, 0, 0, 0}, {SQE_T_VARCHAR, 0, 0, 0, 0}, {SQE_T_INTEGER, 0, 0, 0, 0}}};

/* ------------------------------------------------------------- tests */

static void test_registry(void) {
    sqe_error err;
    CHECK(sqe_format_reader_for(SQE_FORMAT_PARQUET, &err) == &sqe_parquet_reader_vtable);
    CHECK(sqe_parquet_reader_vtable.plan_morsels != NULL);
    CHECK(sqe_parquet_reader_vtable.open_range != NULL);
    CHECK_STR(sqe_format_name(SQE_FORMAT_PARQUET), "PARQUET");
}

static void test_read_all(void) {
    int proj[] = {0, 1, 2};
    sqe_reader_spec spec = make_spec(&k_sort, proj, 3, NULL);
    sqe_error err;
    sqe_reader_stats st;
    char *got = read_shared("sort_columns.parquet", &spec, &st, &err);
    CHECK_STR(got, "NULL|a|NULL\n2|b|NULL\n1|c|NULL\nNULL|a|NULL\n2|b|NULL\n1|c|NULL\n");
    CHECK(st.rows_read == 6);
    CHECK(st.row_groups_total == 2 && st.row_groups_pruned == 0);
    CHECK(st.bytes_read > 0);
    sqe_free(got);

    /* projection order and a column twice */
    int proj2[] = {1, 0, 1};
    spec = make_spec(&k_sort, proj2, 3, NULL);
    got = read_shared("sort_columns.parquet", &spec, NULL, &err);
    CHECK_STR(got, "a|NULL|a\nb|2|b\nc|1|c\na|NULL|a\nb|2|b\nc|1|c\n");
    sqe_free(got);

    /* no columns: rows are counted from the footer, no page is read */
    spec = make_spec(&k_sort, NULL, 0, NULL);
    got = read_shared("sort_columns.parquet", &spec, &st, &err);
    CHECK_STR(got, "-\n-\n-\n-\n-\n-\n");
    char *path = shared_path("sort_columns.parquet");
    CHECK(st.bytes_read == SQE_MIN(file_size(path), (uint64_t)65536));
    sqe_free(path);
    sqe_free(got);
}

/* Reads sort_columns with one predicate term; returns rows and stats. */
static char *read_pred(sqe_fpred_term t, sqe_reader_stats *st) {
    sqe_format_pred pred = {1, &t};
    int proj[] = {0, 1, 2};
    sqe_reader_spec spec = make_spec(&k_sort, proj, 3, &pred);
    sqe_error err;
    char *got = read_shared("sort_columns.parquet", &spec, st, &err);
    if (!got) fprintf(stderr, "read_pred: %s\n", err.msg);
    return got;
}

static void test_pruning(void) {
    sqe_value v5 = sqe_value_int(SQE_T_BIGINT, 5), v2 = sqe_value_int(SQE_T_BIGINT, 2),
              v1 = sqe_value_int(SQE_T_BIGINT, 1), v0 = sqe_value_int(SQE_T_BIGINT, 0);
    sqe_value sc = sqe_value_string("c", 1), sd = sqe_value_string("d", 1);
    sqe_reader_stats st;
    struct {
        sqe_fpred_term t;
        bool pruned;
    } cases[] = {
        {{0, SQE_FPRED_EQ, 1, &v5}, true},
        {{0, SQE_FPRED_EQ, 1, &v2}, false},
        {{0, SQE_FPRED_GT, 1, &v2}, true},
        {{0, SQE_FPRED_GE, 1, &v2}, false},
        {{0, SQE_FPRED_LT, 1, &v1}, true},
        {{0, SQE_FPRED_LE, 1, &v1}, false},
        {{0, SQE_FPRED_LT, 1, &v0}, true},
        {{0, SQE_FPRED_NE, 1, &v5}, false},
        {{1, SQE_FPRED_GT, 1, &sc}, true},
        {{1, SQE_FPRED_GE, 1, &sc}, false},
        {{1, SQE_FPRED_EQ, 1, &sd}, true},
        {{0, SQE_FPRED_IS_NULL, 0, NULL}, false},
        {{0, SQE_FPRED_IS_NOT_NULL, 0, NULL}, false},
        {{1, SQE_FPRED_IS_NULL, 0, NULL}, true},
        /* c is missing from the file: all NULL */
        {{2, SQE_FPRED_IS_NULL, 0, NULL}, false},
        {{2, SQE_FPRED_IS_NOT_NULL, 0, NULL}, true},
    };
    for (size_t i = 0; i < SQE_ARRAY_LEN(cases); i++) {
        char *got = read_pred(cases[i].t, &st);
        CHECK(got != NULL);
        CHECK(st.row_groups_total == 2);
        if (st.row_groups_pruned != (cases[i].pruned ? 2u : 0u)) {
            fprintf(stderr, "pruning case %zu: pruned %llu\n", i,
                    (unsigned long long)st.row_groups_pruned);
            CHECK(false);
        }
        if (cases[i].pruned)
            CHECK_STR(got, "");
        else
            CHECK(got && strlen(got) == 60); /* all six rows: the filter runs above */
        sqe_free(got);
    }
    /* IN: pruned when no value falls in [min, max] */
    sqe_value in_out[] = {v5, v0}, in_hit[] = {v5, v2};
    sqe_fpred_term t_out = {0, SQE_FPRED_IN, 2, in_out}, t_hit = {0, SQE_FPRED_IN, 2, in_hit};
    sqe_free(read_pred(t_out, &st));
    CHECK(st.row_groups_pruned == 2);
    sqe_free(read_pred(t_hit, &st));
    CHECK(st.row_groups_pruned == 0);
    /* a value of another type than the column's is ignored (never prunes) */
    sqe_value dbl = sqe_value_double(99.0);
    sqe_fpred_term t_dbl = {0, SQE_FPRED_EQ, 1, &dbl};
    sqe_free(read_pred(t_dbl, &st));
    CHECK(st.row_groups_pruned == 0);
}

static void test_morsels(void) {
    char *path = shared_path("sort_columns.parquet");
    uint64_t size = file_size(path);
    int proj[] = {0, 1};
    sqe_reader_spec spec = make_spec(&k_sort, proj, 2, NULL);
    sqe_file_range_list ranges = {0};
    sqe_error err;
    /* a file smaller than the target is one morsel (none planned) */
    CHECK(sqe_format_plan_morsels(pq_vt(), g_store, path, size, &spec, size, &ranges, &err));
    CHECK(ranges.len == 0);
    CHECK(sqe_format_plan_morsels(pq_vt(), g_store, path, size, &spec, 1, &ranges, &err));
    CHECK(ranges.len == 2);
    if (ranges.len == 2) {
        CHECK(ranges.items[0].start == 0 && ranges.items[0].end == 1);
        CHECK(ranges.items[1].start == 1 && ranges.items[1].end == 2);
        sqe_reader *r = sqe_format_open_range(pq_vt(), g_store, path, size, 1, 2, &spec, &err);
        sqe_reader_stats st;
        char *got = r ? drain(r, &spec, &st, &err) : NULL;
        CHECK_STR(got, "NULL|a\n2|b\n1|c\n");
        CHECK(st.row_groups_total == 1);
        sqe_free(got);
    }
    SQE_ARRAY_FREE(ranges);
    sqe_free(path);

    /* text: byte ranges of the target size when splittable, as the scan did before */
    table_def t = {1, {"x"}, {{SQE_T_BIGINT, 0, 0, 0, 0}}};
    sqe_reader_spec ts;
    memset(&ts, 0, sizeof ts);
    ts.format = SQE_FORMAT_TEXT;
    ts.n_table_cols = 1;
    ts.col_names = t.names;
    ts.col_types = t.types;
    ts.text.serde = SQE_SERDE_LAZY_SIMPLE;
    ts.text.line_delim = '\n';
    sqe_error e2;
    const sqe_reader_vtable *tv = sqe_format_reader_for(SQE_FORMAT_TEXT, &e2);
    CHECK(sqe_format_plan_morsels(tv, g_store, "x.txt", 250, &ts, 100, &ranges, &err));
    CHECK(ranges.len == 3 && ranges.items[2].start == 200 && ranges.items[2].end == 250);
    ranges.len = 0;
    CHECK(sqe_format_plan_morsels(tv, g_store, "x.txt.gz", 250, &ts, 100, &ranges, &err));
    CHECK(ranges.len == 0);
    ts.text.skip_header_lines = 1;
    CHECK(sqe_format_plan_morsels(tv, g_store, "x.txt", 250, &ts, 100, &ranges, &err));
    CHECK(ranges.len == 0);
    SQE_ARRAY_FREE(ranges);
}

static void test_binding(void) {
    /* FRUIT in the file, fruit in the table; a missing column reads NULL */
    table_def t = {
        2, {"missing", "fruit"}, {{SQE_T_INTEGER, 0, 0, 0, 0}, {SQE_T_VARCHAR, 0, 0, 0, 0}}};
    int proj[] = {1, 0};
    sqe_reader_spec spec = make_spec(&t, proj, 2, NULL);
    sqe_error err;
    char *got = read_shared("delta_length_byte_array.parquet", &spec, NULL, &err);
    CHECK(got && strncmp(got, "apple_banana_mango0|NULL\napple_banana_mango1|NULL\n", 50) == 0);
    sqe_free(got);

    /* a string column declared INTEGER */
    t.types[1] = sqe_type_make(SQE_T_INTEGER);
    int proj1[] = {1};
    spec = make_spec(&t, proj1, 1, NULL);
    got = read_shared("delta_length_byte_array.parquet", &spec, NULL, &err);
    CHECK(got == NULL);
    CHECK(err.cls == SQE_ERR_TYPE_MISMATCH);
    CHECK_CONTAINS(err.msg, "column 'fruit' in Parquet file '");
    CHECK_CONTAINS(err.msg, "delta_length_byte_array.parquet' has type BYTE_ARRAY (STRING), which "
                            "cannot be read as the declared type integer");

    /* VARCHAR(5) keeps five characters */
    sqe_type vc5 = sqe_type_make(SQE_T_VARCHAR);
    vc5.str_kind = SQE_STRKIND_VARCHAR;
    vc5.length = 5;
    t.types[1] = vc5;
    got = read_shared("delta_length_byte_array.parquet", &spec, NULL, &err);
    CHECK(got && strncmp(got, "apple\napple\n", 12) == 0);
    sqe_free(got);

    /* decimals: INT32 DECIMAL(4,2) into DECIMAL(6,3) and a too narrow DECIMAL(3,2) */
    table_def d = {1, {"value"}, {sqe_type_decimal(6, 3)}};
    int p0[] = {0};
    spec = make_spec(&d, p0, 1, NULL);
    got = read_shared("int32_decimal.parquet", &spec, NULL, &err);
    CHECK(got && strncmp(got, "1.000\n2.000\n", 12) == 0);
    sqe_free(got);
    d.types[0] = sqe_type_decimal(3, 2);
    got = read_shared("int32_decimal.parquet", &spec, NULL, &err);
    CHECK(got == NULL);
    CHECK(err.cls == SQE_ERR_TYPE_MISMATCH);
    CHECK_CONTAINS(err.msg, "value 10.00 of column 'value' in Parquet file");
    CHECK_CONTAINS(err.msg, "does not fit the declared type decimal(3,2)");

    /* INT96 into TIMESTAMP: 2009-01-01 00:00:00 and 00:01:00 */
    table_def ts = {1, {"timestamp_col"}, {{SQE_T_TIMESTAMP, 0, 0, 0, 0}}};
    spec = make_spec(&ts, p0, 1, NULL);
    got = read_shared("alltypes_dictionary.parquet", &spec, NULL, &err);
    CHECK_STR(got, "2009-01-01 00:00:00.000\n2009-01-01 00:01:00.000\n");
    sqe_free(got);
}

static char *write_file(const char *name, const void *data, size_t len) {
    char *path = sqe_asprintf("%s/%s", g_dir, name);
    sqe_error err;
    if (!g_store->vt->put(g_store, path, data, len, &err))
        fprintf(stderr, "write %s: %s\n", path, err.msg);
    return path;
}

static void check_open_error(const char *name, const void *data, size_t len, sqe_error_class cls,
                             const char *part) {
    char *path = write_file(name, data, len);
    int proj[] = {0};
    sqe_reader_spec spec = make_spec(&k_sort, proj, 1, NULL);
    sqe_error err;
    sqe_reader *r = pq_vt()->open(g_store, path, len, &spec, &err);
    CHECK(r == NULL);
    if (r)
        pq_vt()->close(r);
    else {
        CHECK(err.cls == cls);
        CHECK_CONTAINS(err.msg, part);
        CHECK_CONTAINS(err.msg, name);
    }
    sqe_file_range_list ranges = {0};
    if (len > 1) {
        CHECK(!sqe_format_plan_morsels(pq_vt(), g_store, path, len, &spec, 1, &ranges, &err));
        CHECK(err.cls == cls);
    }
    SQE_ARRAY_FREE(ranges);
    sqe_free(path);
}

static void test_bad_files_own(void) {
    check_open_error("short.parquet", "PAR1PAR1", 8, SQE_ERR_INVALID_DATA, "is too short");
    check_open_error("csv.parquet", "a,b\n1,2\n3,4\n", 12, SQE_ERR_INVALID_DATA,
                     "does not end with the magic bytes");
    check_open_error("enc.parquet", "PARE\x01\x02\x03\x04\x04\x00\x00\x00PARE", 16,
                     SQE_ERR_NOT_SUPPORTED, "encrypted Parquet is not supported");
    check_open_error("flen.parquet", "PAR1\x01\x02\x03\x04\xff\xff\xff\x7fPAR1", 16,
                     SQE_ERR_INVALID_DATA, "invalid footer length of 2147483647 bytes");
    check_open_error("zero_flen.parquet", "PAR1\x01\x02\x03\x04\x00\x00\x00\x00PAR1", 16,
                     SQE_ERR_INVALID_DATA, "invalid footer length of 0 bytes");
    check_open_error("garbage.parquet", "PAR1\xff\xff\xff\xff\xff\xff\xff\xff\x08\x00\x00\x00PAR1",
                     20, SQE_ERR_INVALID_DATA, "footer: ");

    /* a 0-byte file has no rows */
    char *path = write_file("empty.parquet", "", 0);
    int proj[] = {0};
    sqe_reader_spec spec = make_spec(&k_sort, proj, 1, NULL);
    sqe_error err;
    sqe_reader *r = pq_vt()->open(g_store, path, 0, &spec, &err);
    CHECK(r != NULL);
    char *got = r ? drain(r, &spec, NULL, &err) : NULL;
    CHECK_STR(got, "");
    sqe_free(got);
    sqe_free(path);
}

static void test_bad_files(void) {
    /* corrupt page CRC */
    sqe_error err;
    table_def t = {2, {"a", "b"}, {{SQE_T_INTEGER, 0, 0, 0, 0}, {SQE_T_INTEGER, 0, 0, 0, 0}}};
    int p2[] = {0, 1};
    sqe_reader_spec spec = make_spec(&t, p2, 2, NULL);
    char *got;
    got = read_shared("datapage_v1-corrupt-checksum.parquet", &spec, NULL, &err);
    CHECK(got == NULL);
    CHECK(err.cls == SQE_ERR_INVALID_DATA);
    CHECK_CONTAINS(err.msg, "fails its CRC-32 checksum");
    CHECK_CONTAINS(err.msg, "datapage_v1-corrupt-checksum.parquet', column 'a'");
}

/* ------------------------------------------------- hand-built footers */

/* A minimal thrift compact writer for footers the writers we have will not
 * produce (field ids as in parquet.thrift). */
typedef struct tw {
    uint8_t buf[512];
    size_t n;
    int last[8], depth;
} tw;

static void tw_byte(tw *w, uint8_t v) {
    if (w->n < sizeof w->buf) w->buf[w->n++] = v;
}
static void tw_varint(tw *w, uint64_t v) {
    while (v >= 0x80) tw_byte(w, (uint8_t)(v | 0x80)), v >>= 7;
    tw_byte(w, (uint8_t)v);
}
static void tw_field(tw *w, int id, int type) { /* ids ascend by at most 15 here */
    tw_byte(w, (uint8_t)((id - w->last[w->depth]) << 4 | type));
    w->last[w->depth] = id;
}
static void tw_int(tw *w, int id, int type, int64_t v) { /* type 5: i32, 6: i64 */
    tw_field(w, id, type);
    tw_varint(w, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}
static void tw_str(tw *w, int id, const char *v) {
    if (id) tw_field(w, id, 8);
    tw_varint(w, strlen(v));
    for (const char *p = v; *p; p++) tw_byte(w, (uint8_t)*p);
}
static void tw_begin(tw *w, int id) { /* a struct field (id > 0) or list element (0) */
    if (id) tw_field(w, id, 12);
    w->last[++w->depth] = 0;
}
static void tw_end(tw *w) {
    tw_byte(w, 0);
    w->depth--;
}
static void tw_list(tw *w, int id, int elem, int n) {
    tw_field(w, id, 9);
    tw_byte(w, (uint8_t)(n << 4 | elem));
}

/* FileMetaData of INT32 REQUIRED leaves `names`, one row group of `rows`
 * rows whose chunks are 10 bytes at offset 4; written as a whole file. */
static char *write_footer_file(const char *file, const char *const *names, int n_names,
                               int64_t rows, size_t *len) {
    tw w;
    memset(&w, 0, sizeof w);
    tw_begin(&w, 0);
    tw_int(&w, 1, 5, 1);
    tw_list(&w, 2, 12, n_names + 1);
    tw_begin(&w, 0), tw_str(&w, 4, "schema"), tw_int(&w, 5, 5, n_names), tw_end(&w);
    for (int i = 0; i < n_names; i++)
        tw_begin(&w, 0), tw_int(&w, 1, 5, 1), tw_int(&w, 3, 5, 0), tw_str(&w, 4, names[i]),
            tw_end(&w);
    tw_int(&w, 3, 6, rows);
    tw_list(&w, 4, 12, 1);
    tw_begin(&w, 0);
    tw_list(&w, 1, 12, n_names);
    for (int i = 0; i < n_names; i++) {
        tw_begin(&w, 0);
        tw_int(&w, 2, 6, 4);
        tw_begin(&w, 3);
        tw_int(&w, 1, 5, 1);
        tw_list(&w, 2, 5, 1), tw_varint(&w, 0);
        tw_list(&w, 3, 8, 1), tw_str(&w, 0, names[i]);
        tw_int(&w, 4, 5, 0);
        tw_int(&w, 5, 6, rows), tw_int(&w, 6, 6, 10), tw_int(&w, 7, 6, 10), tw_int(&w, 9, 6, 4);
        tw_end(&w);
        tw_end(&w);
    }
    tw_int(&w, 2, 6, 10), tw_int(&w, 3, 6, rows);
    tw_end(&w);
    tw_end(&w);
    char data[600];
    memcpy(data, "PAR1", 4);
    memset(data + 4, 0, 10);
    memcpy(data + 14, w.buf, w.n);
    uint32_t fl = (uint32_t)w.n;
    for (int i = 0; i < 4; i++) data[14 + w.n + (size_t)i] = (char)(fl >> (8 * i));
    memcpy(data + 18 + w.n, "PAR1", 4);
    *len = 22 + w.n;
    return write_file(file, data, *len);
}

static void test_hand_built(void) {
    sqe_error err;
    size_t len;
    /* a row count the chunks cannot hold: count(*) (no page read) refuses it */
    const char *one[] = {"a"};
    char *path = write_footer_file("huge_rows.parquet", one, 1, (int64_t)1 << 40, &len);
    sqe_reader_spec spec = make_spec(&k_sort, NULL, 0, NULL);
    sqe_reader *r = pq_vt()->open(g_store, path, len, &spec, &err);
    CHECK(r != NULL);
    char *got = r ? drain(r, &spec, NULL, &err) : NULL;
    CHECK(got == NULL);
    CHECK_CONTAINS(err.msg, "row group 0 claims 1099511627776 rows, more than its column chunks "
                            "can hold");
    CHECK_CONTAINS(err.msg, "huge_rows.parquet");
    sqe_free(path);
    /* a plausible count: rows without reading a page */
    path = write_footer_file("five_rows.parquet", one, 1, 5, &len);
    r = pq_vt()->open(g_store, path, len, &spec, &err);
    got = r ? drain(r, &spec, NULL, &err) : NULL;
    CHECK_STR(got, "-\n-\n-\n-\n-\n");
    sqe_free(got);
    sqe_free(path);
    /* two columns equal ignoring case: an error naming both, only when bound */
    const char *two[] = {"Ab", "aB"};
    path = write_footer_file("dup.parquet", two, 2, 5, &len);
    table_def t = {2, {"ab", "other"}, {{SQE_T_INTEGER, 0, 0, 0, 0}, {SQE_T_INTEGER, 0, 0, 0, 0}}};
    int p0[] = {0}, p1[] = {1};
    spec = make_spec(&t, p0, 1, NULL);
    r = pq_vt()->open(g_store, path, len, &spec, &err);
    CHECK(r == NULL);
    CHECK_CONTAINS(err.msg, "has two columns that both match column 'ab' when case is ignored: "
                            "'Ab' and 'aB'");
    spec = make_spec(&t, p1, 1, NULL);
    r = pq_vt()->open(g_store, path, len, &spec, &err);
    got = r ? drain(r, &spec, NULL, &err) : NULL;
    CHECK_STR(got, "NULL\nNULL\nNULL\nNULL\nNULL\n");
    sqe_free(got);
    sqe_free(path);
}

/* All values of a result, one row per line. */
static char *result_text(const sqe_result *r) {
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    for (uint64_t i = 0; i < sqe_result_row_count(r); i++) {
        for (int c = 0; c < sqe_result_column_count(r); c++) {
            const char *v = sqe_result_value(r, i, c);
            sqe_strbuf_puts(&sb, v ? v : "NULL");
            sqe_strbuf_putc(&sb, c + 1 < sqe_result_column_count(r) ? '|' : '\n');
        }
    }
    sqe_strbuf_puts(&sb, "");
    return sqe_strbuf_detach(&sb);
}

/* EXPLAIN ANALYZE shows row groups total and pruned on the scan line. */
static void test_explain_counters(void) {
    char wh[128], data[128], link[256], sql[512];
    snprintf(wh, sizeof wh, "%s/wh", g_dir);
    snprintf(data, sizeof data, "%s/sorted", g_dir);
    snprintf(link, sizeof link, "%s/f.parquet", data);
    CHECK(mkdir(data, 0777) == 0);
    CHECK(mkdir(wh, 0777) == 0); /* attaching a missing folder is an error */
    char *src = shared_path("sort_columns.parquet");
    CHECK(symlink(src, link) == 0);
    sqe_free(src);
    sqe_session *s = sqe_session_open(NULL);
    char root[160];
    snprintf(root, sizeof root, "lake=%s", wh);
    char *e = sqe_session_attach_root(s, root);
    CHECK(e == NULL);
    free(e);
    sqe_result *r = sqe_session_execute(s, "USE lake");
    sqe_result_free(r);
    snprintf(sql, sizeof sql,
             "CREATE EXTERNAL TABLE sc (a bigint, b string) STORED AS PARQUET LOCATION '%s'", data);
    r = sqe_session_execute(s, sql);
    CHECK(r && !sqe_result_error(r));
    sqe_result_free(r);
    struct {
        const char *where, *want;
    } cases[] = {
        {"a = 5", "row_groups=2, row_groups_pruned=2"},
        {"a = 2", "row_groups=2, row_groups_pruned=0"},
        {"CAST(a AS decimal(20,0)) > 2", "row_groups=2, row_groups_pruned=2"},
        /* bigint -> double is not exact beyond 2^53: the term is not used */
        {"CAST(a AS double) > 2.5", "row_groups=2, row_groups_pruned=0"},
        {"a = 2 AND b = 'zz'", "row_groups=2, row_groups_pruned=2"},
        {"a = 2 OR b = 'zz'", "row_groups=2, row_groups_pruned=0"},
        {"5 < a", "row_groups=2, row_groups_pruned=2"},
        {"a IN (7, 8)", "row_groups=2, row_groups_pruned=2"},
        {"b IS NULL", "row_groups=2, row_groups_pruned=2"},
        {"a + 1 = 100", "row_groups=2, row_groups_pruned=0"},
    };
    for (size_t i = 0; i < SQE_ARRAY_LEN(cases); i++) {
        snprintf(sql, sizeof sql, "EXPLAIN ANALYZE SELECT count(b) FROM sc WHERE %s",
                 cases[i].where);
        r = sqe_session_execute(s, sql);
        const char *msg = r ? sqe_result_error(r) : "no result";
        CHECK(msg == NULL);
        char *text = r && !msg ? result_text(r) : NULL;
        if (!text || !strstr(text, cases[i].want))
            fprintf(stderr, "EXPLAIN ANALYZE ... WHERE %s: want %s in:\n%s\n", cases[i].where,
                    cases[i].want, text ? text : msg);
        CHECK(text && strstr(text, cases[i].want));
        sqe_free(text);
        sqe_result_free(r);
    }
    sqe_session_close(s);
}

/* EXPLAIN ANALYZE shows what the top-N dynamic filter skipped: Parquet row
 * groups by statistics, rows (any format) before the filter; a first key
 * that is an expression gets no filter. One thread, so the counts are
 * exact. Files: tests/sql/parquet/data/topn (gen_topn.mjs). */
static void test_dynamic_filter_explain(void) {
    char wh[128], csv[128], sql[512], topn[PATH_MAX];
    CHECK(realpath("tests/sql/parquet/data/topn", topn) != NULL);
    snprintf(wh, sizeof wh, "%s/whdyn", g_dir);
    snprintf(csv, sizeof csv, "%s/dyncsv", g_dir);
    CHECK(mkdir(wh, 0777) == 0);
    CHECK(mkdir(csv, 0777) == 0);
    static const char a_csv[] = "5,e\n,n1\n3,c\n1,a\n", b_csv[] = "7,g\n2,b\n,n3\n8,h\n";
    sqe_free(write_file("dyncsv/a.csv", a_csv, sizeof a_csv - 1));
    sqe_free(write_file("dyncsv/b.csv", b_csv, sizeof b_csv - 1));
    sqe_options o = {.threads = 1};
    sqe_session *s = sqe_session_open(&o);
    char root[160];
    snprintf(root, sizeof root, "lake=%s", wh);
    char *e = sqe_session_attach_root(s, root);
    CHECK(e == NULL);
    free(e);
    sqe_result *r = sqe_session_execute(s, "USE lake");
    sqe_result_free(r);
    snprintf(sql, sizeof sql,
             "CREATE EXTERNAL TABLE t (id bigint, v int, s string) STORED AS PARQUET LOCATION "
             "'%s'",
             topn);
    r = sqe_session_execute(s, sql);
    CHECK(r && !sqe_result_error(r));
    sqe_result_free(r);
    snprintf(sql, sizeof sql,
             "CREATE EXTERNAL TABLE c (x int, y string) ROW FORMAT DELIMITED FIELDS TERMINATED BY "
             "',' LOCATION '%s'",
             csv);
    r = sqe_session_execute(s, sql);
    CHECK(r && !sqe_result_error(r));
    sqe_result_free(r);
    struct {
        const char *query, *want; /* want NULL: no dynamic filter */
    } cases[] = {
        {"SELECT id FROM t ORDER BY id LIMIT 3",
         "dynamic_filter: row_groups_pruned=8, rows_pruned=0"},
        {"SELECT id FROM t ORDER BY id DESC LIMIT 3", "dynamic_filter: row_groups_pruned=0"},
        /* the two row groups holding only NULLs sort after any number */
        {"SELECT v FROM t ORDER BY v LIMIT 3", "dynamic_filter: row_groups_pruned=2"},
        {"SELECT id FROM t WHERE s LIKE '%1%' ORDER BY s LIMIT 1",
         "dynamic_filter: row_groups_pruned=8"},
        {"SELECT id FROM t ORDER BY id + 0 LIMIT 3", NULL},
        /* b.csv: 7, 2, NULL, 8 all sort after the bound 1 */
        {"SELECT x FROM c ORDER BY x LIMIT 1",
         "dynamic_filter: row_groups_pruned=0, rows_pruned=4"},
        {"SELECT x FROM c ORDER BY x NULLS FIRST LIMIT 1", "rows_pruned=3"},
    };
    for (size_t i = 0; i < SQE_ARRAY_LEN(cases); i++) {
        snprintf(sql, sizeof sql, "EXPLAIN ANALYZE %s", cases[i].query);
        r = sqe_session_execute(s, sql);
        const char *msg = r ? sqe_result_error(r) : "no result";
        CHECK(msg == NULL);
        char *text = r && !msg ? result_text(r) : NULL;
        bool ok = text && (cases[i].want ? strstr(text, cases[i].want) != NULL
                                         : strstr(text, "dynamic_filter") == NULL);
        if (!ok)
            fprintf(stderr, "%s: want %s in:\n%s\n", sql,
                    cases[i].want ? cases[i].want : "no dynamic filter", text ? text : msg);
        CHECK(ok);
        sqe_free(text);
        sqe_result_free(r);
    }
    sqe_session_close(s);
}

/* Hostile input: real files with one byte changed (in the pages or in the
 * footer) read with every column projected must give rows or a clean
 * error, never a crash, a hang or an unbounded allocation (ASan runs this
 * too). Deterministic positions and values. */
static void corrupt_one(const char *name, int n_tries) {
    char *src = shared_path(name);
    char *data = NULL;
    size_t len = 0;
    sqe_error err;
    CHECK(sqe_io_read_all(g_store, src, 1 << 26, &data, &len, &err));
    sqe_arena *a = sqe_arena_new(0);
    sqe_inferred_schema sch;
    bool ok = data && sqe_parquet_infer_schema(g_store, src, len, a, &sch, &err);
    CHECK(ok);
    if (!ok || len < 16) goto done;
    table_def t;
    memset(&t, 0, sizeof t);
    int n = sch.n_cols < 8 ? sch.n_cols : 8, proj[8];
    t.n = n;
    for (int i = 0; i < n; i++) {
        t.names[i] = sch.names[i];
        t.types[i] = sch.types[i];
        proj[i] = i;
    }
    uint32_t flen = (uint8_t)data[len - 8] | (uint8_t)data[len - 7] << 8 |
                    (uint8_t)data[len - 6] << 16 | (uint32_t)(uint8_t)data[len - 5] << 24;
    uint64_t seed = 0x9E3779B97F4A7C15ull ^ len;
    char *copy = sqe_malloc(len);
    int failed = 0, read = 0;
    for (int k = 0; k < n_tries; k++) {
        memcpy(copy, data, len);
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        /* half in the pages, half in the footer */
        uint64_t lo = 4, hi = len - 8 - flen;
        if (k % 2 || hi <= lo) lo = len - 8 - flen, hi = len - 8;
        size_t pos = (size_t)(lo + (seed >> 33) % (hi - lo));
        uint8_t x = (uint8_t)(seed >> 13);
        copy[pos] ^= (char)(x ? x : 0x5a);
        char *path = write_file("corrupt.parquet", copy, len);
        sqe_reader_spec spec = make_spec(&t, proj, n, NULL);
        sqe_reader *r = pq_vt()->open(g_store, path, len, &spec, &err);
        char *got = r ? drain(r, &spec, NULL, &err) : NULL;
        if (got) {
            read++;
        } else {
            failed++;
            bool clean = err.cls == SQE_ERR_INVALID_DATA || err.cls == SQE_ERR_NOT_SUPPORTED ||
                         err.cls == SQE_ERR_TYPE_MISMATCH;
            if (!clean) fprintf(stderr, "%s byte %zu: %s\n", name, pos, err.msg);
            CHECK(clean);
            CHECK(strstr(err.msg, "corrupt.parquet") != NULL);
        }
        sqe_free(got);
        sqe_free(path);
    }
    CHECK(read + failed == n_tries);
    sqe_free(copy);
done:
    sqe_arena_free(a);
    sqe_free(data);
    sqe_free(src);
}

static void test_corruption(void) {
    static const char *const k_files[] = {
        "alltypes_plain.parquet",          "alltypes_dictionary.parquet",
        "delta_byte_array.parquet",        "delta_binary_packed.parquet",
        "byte_stream_split.zstd.parquet",  "int32_with_null_pages.parquet",
        "fixed_length_decimal.parquet",    "lz4_raw_compressed.parquet",
        "hadoop_lz4_compressed.parquet",   "datapage_v1-snappy-compressed-checksum.parquet",
        "rle_boolean_encoding.parquet",    "float16_nonzeros_and_nans.parquet",
        "delta_length_byte_array.parquet", "alltypes_tiny_pages_plain.parquet",
    };
    for (size_t i = 0; i < SQE_ARRAY_LEN(k_files); i++) corrupt_one(k_files[i], 60);
}

/* Chunk I/O through the read plan (io/readplan.c): the three projected
 * chunks of a row group are one request, the last row group sits in the
 * footer's tail read, and reading with worker threads, tiny parts and a
 * tiny memory bound gives the same rows; closing with read-ahead in flight
 * is clean. data/topn/part-0.parquet: 3 row groups of 2048 rows. */
static void test_read_plan(void) {
    char path[PATH_MAX];
    CHECK(realpath("tests/sql/parquet/data/topn/part-0.parquet", path) != NULL);
    static const table_def t = {
        3,
        {"id", "v", "s"},
        {{SQE_T_BIGINT, 0, 0, 0, 0}, {SQE_T_INTEGER, 0, 0, 0, 0}, {SQE_T_VARCHAR, 0, 0, 0, 0}}};
    int proj[3] = {0, 1, 2};
    sqe_reader_spec spec = make_spec(&t, proj, 3, NULL);
    sqe_error err;
    sqe_io_stats s0, s1;
    g_store->vt->stats(g_store, &s0);
    sqe_reader *r = pq_vt()->open(g_store, path, file_size(path), &spec, &err);
    char *want = r ? drain(r, &spec, NULL, &err) : NULL;
    g_store->vt->stats(g_store, &s1);
    CHECK(want && strlen(want) > 6144 * 10);
    CHECK(s1.n_get - s0.n_get == 3); /* footer + 2 row groups (the third is in the tail) */
    sqe_readplan_opts io = {0, 4096, 3, 20000};
    spec.io = &io;
    sqe_reader_stats st;
    r = pq_vt()->open(g_store, path, file_size(path), &spec, &err);
    char *got = r ? drain(r, &spec, &st, &err) : NULL;
    CHECK(got && want && strcmp(got, want) == 0);
    CHECK(st.rows_read == 6144 && st.bytes_read > 0);
    sqe_free(got);
    /* closed after one batch, with the next row group being read ahead */
    r = pq_vt()->open(g_store, path, file_size(path), &spec, &err);
    CHECK(r != NULL);
    if (r) {
        sqe_type types[3] = {t.types[0], t.types[1], t.types[2]};
        sqe_batch *b = sqe_batch_new(3, types);
        bool eof = false;
        CHECK(r->vt->next(r, b, &eof, &err) && b->n_rows > 0);
        r->vt->close(r);
        sqe_batch_free(b);
    }
    sqe_free(want);
    /* the footer's suffix read also returns the object's size: a file that
     * is not its listed size fails naming both, before anything is decoded */
    spec.io = NULL;
    r = pq_vt()->open(g_store, path, file_size(path) + 10, &spec, &err);
    CHECK(r == NULL && err.cls == SQE_ERR_INVALID_DATA);
    char *msg =
        sqe_asprintf("Parquet file '%s' is %llu bytes long, not its listed size of %llu", path,
                     (unsigned long long)file_size(path), (unsigned long long)file_size(path) + 10);
    CHECK_CONTAINS(err.msg, msg);
    sqe_free(msg);
}

int main(void) {
    if (!find_shared()) {
        /* as test_parquet_meta: warn, or fail with SQE_REQUIRE_PARQUET_TESTING */
        fprintf(stderr, "test_parquet_reader: parquet-testing folder not found (set "
                        "SQE_PARQUET_TESTING); only the hand-written files are tested\n");
        CHECK(!getenv("SQE_REQUIRE_PARQUET_TESTING"));
        strcpy(g_dir, "/tmp/sqe-pqtest-XXXXXX");
        if (!mkdtemp(g_dir)) return 1;
        g_store = sqe_io_local_new();
        RUN(test_registry);
        RUN(test_bad_files_own);
        RUN(test_hand_built);
        sqe_store_free(g_store);
        char rm[128];
        snprintf(rm, sizeof rm, "rm -rf %s", g_dir);
        if (system(rm) != 0) fprintf(stderr, "could not remove %s\n", g_dir);
        return unit_report();
    }
    strcpy(g_dir, "/tmp/sqe-pqtest-XXXXXX");
    if (!mkdtemp(g_dir)) return 1;
    g_store = sqe_io_local_new();
    RUN(test_registry);
    RUN(test_read_plan);
    RUN(test_read_all);
    RUN(test_pruning);
    RUN(test_morsels);
    RUN(test_binding);
    RUN(test_bad_files_own);
    RUN(test_hand_built);
    RUN(test_bad_files);
    RUN(test_explain_counters);
    RUN(test_dynamic_filter_explain);
    RUN(test_corruption);
    sqe_store_free(g_store);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", g_dir);
    return unit_report();
}
