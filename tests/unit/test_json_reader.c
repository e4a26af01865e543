/*
 * test_json_reader.c - the JSON lines reader (format/json_reader.c): its
 * tokenizer, key binding, value coercion, errors, byte ranges and
 * compressed input.
 *
 * Each case writes a small file into a mkdtemp folder and scans it through
 * the registry's JSON vtable and the local store, rendering rows one per
 * line, values joined by '|', NULL as "NULL", strings in brackets. Every
 * expect_rows also rereads the file with chunk sizes 1..17 bytes and as two
 * byte ranges split at every offset, and expects the same rendering.
 */
#include "format/format.h"
#include "unit.h"

#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

static char g_dir[64];
static sqe_store *g_store;
static sqe_json_options g_opts;

static char *write_file(const char *name, const char *data, size_t len) {
    char *path = sqe_asprintf("%s/%s", g_dir, name);
    sqe_error err;
    if (!g_store->vt->put(g_store, path, data, len, &err))
        fprintf(stderr, "write %s: %s\n", path, err.msg);
    return path;
}

static void render_value(const sqe_vector *v, uint32_t row, sqe_strbuf *sb) {
    if (sqe_vector_is_null(v, row)) {
        sqe_strbuf_puts(sb, "NULL");
        return;
    }
    char buf[64];
    switch (v->type.id) {
    case SQE_T_BOOLEAN:
        sqe_strbuf_puts(sb, SQE_VEC_DATA(v, uint8_t)[row] ? "true" : "false");
        break;
    case SQE_T_TINYINT:
        sqe_strbuf_printf(sb, "%d", SQE_VEC_DATA(v, int8_t)[row]);
        break;
    case SQE_T_SMALLINT:
        sqe_strbuf_printf(sb, "%d", SQE_VEC_DATA(v, int16_t)[row]);
        break;
    case SQE_T_INTEGER:
        sqe_strbuf_printf(sb, "%d", SQE_VEC_DATA(v, int32_t)[row]);
        break;
    case SQE_T_BIGINT:
        sqe_strbuf_printf(sb, "%lld", (long long)SQE_VEC_DATA(v, int64_t)[row]);
        break;
    case SQE_T_REAL:
        sqe_strbuf_printf(sb, "%g", (double)SQE_VEC_DATA(v, float)[row]);
        break;
    case SQE_T_DOUBLE:
        sqe_strbuf_printf(sb, "%.17g", SQE_VEC_DATA(v, double)[row]);
        break;
    case SQE_T_DECIMAL:
        sqe_decimal_format(SQE_VEC_DATA(v, sqe_i128)[row], v->type.scale, buf, sizeof buf);
        sqe_strbuf_puts(sb, buf);
        break;
    case SQE_T_DATE:
        sqe_date_format(SQE_VEC_DATA(v, int32_t)[row], buf, sizeof buf);
        sqe_strbuf_puts(sb, buf);
        break;
    case SQE_T_TIMESTAMP:
        sqe_strbuf_printf(sb, "ts:%lld", (long long)SQE_VEC_DATA(v, int64_t)[row]);
        break;
    case SQE_T_VARCHAR:
    case SQE_T_VARBINARY: {
        const sqe_string *s = &SQE_VEC_DATA(v, sqe_string)[row];
        sqe_strbuf_putc(sb, '[');
        sqe_strbuf_append(sb, sqe_string_data(s), s->len);
        sqe_strbuf_putc(sb, ']');
        break;
    }
    default:
        sqe_strbuf_puts(sb, "?");
        break;
    }
}

typedef struct scan_result {
    char *text; /* NULL on error */
    uint64_t n_rows;
    int n_batches;
    sqe_reader_stats stats;
    sqe_error err;
} scan_result;

/* Scans `path` ("a bigint; b string" columns, `proj` "2,0" or NULL for all)
 * as one reader, or as the ranges split at `cuts` (n_cuts offsets). */
static scan_result scan_ranges(const char *path, uint64_t size, const char *cols, const char *proj,
                               const uint64_t *cuts, int n_cuts) {
    scan_result res;
    memset(&res, 0, sizeof res);
    char *names[32];
    sqe_type types[32];
    int n_cols = 0;
    char *decl = sqe_strdup(cols);
    for (char *save = NULL, *tok = strtok_r(decl, ";", &save); tok;
         tok = strtok_r(NULL, ";", &save)) {
        while (*tok == ' ') tok++;
        char *sp = strchr(tok, ' ');
        names[n_cols] = sqe_strndup(tok, (size_t)(sp - tok));
        sqe_error terr;
        if (!sqe_type_parse(sp + 1, &types[n_cols], &terr))
            fprintf(stderr, "type %s: %s\n", sp + 1, terr.msg);
        n_cols++;
    }
    sqe_free(decl);
    int proj_idx[32], n_proj = 0;
    if (!proj) {
        for (int i = 0; i < n_cols; i++) proj_idx[n_proj++] = i;
    } else {
        for (const char *p = proj; *p;) {
            proj_idx[n_proj++] = (int)strtol(p, (char **)&p, 10);
            if (*p == ',') p++;
        }
    }
    sqe_type proj_types[32];
    for (int i = 0; i < n_proj; i++) proj_types[i] = types[proj_idx[i]];
    sqe_reader_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.format = SQE_FORMAT_JSON;
    spec.n_table_cols = n_cols;
    spec.col_names = (const char *const *)names;
    spec.col_types = types;
    spec.n_proj = n_proj;
    spec.proj = proj_idx;
    spec.json = g_opts;
    const sqe_reader_vtable *vt = sqe_format_reader_for(SQE_FORMAT_JSON, &res.err);
    sqe_batch *b = sqe_batch_new(n_proj, proj_types);
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    bool ok = vt != NULL;
    for (int range = 0; ok && range <= n_cuts; range++) {
        sqe_reader *rd;
        if (n_cuts == 0) {
            rd = vt->open(g_store, path, size, &spec, &res.err);
        } else {
            uint64_t start = range == 0 ? 0 : cuts[range - 1],
                     end = range == n_cuts ? size : cuts[range];
            rd = sqe_format_open_range(vt, g_store, path, size, start, end, &spec, &res.err);
        }
        if (!rd) {
            ok = false;
            break;
        }
        bool eof = false;
        while (ok && !eof) {
            sqe_batch_reset(b);
            ok = rd->vt->next(rd, b, &eof, &res.err);
            if (!ok) break;
            if (b->n_rows) res.n_batches++;
            CHECK(!eof || b->n_rows == 0);
            res.n_rows += b->n_rows;
            for (uint32_t row = 0; row < b->n_rows; row++) {
                for (int c = 0; c < n_proj; c++) {
                    if (c) sqe_strbuf_putc(&sb, '|');
                    render_value(b->cols[c], row, &sb);
                }
                sqe_strbuf_putc(&sb, '\n');
            }
        }
        res.stats.rows_read += rd->stats.rows_read;
        res.stats.bytes_read += rd->stats.bytes_read;
        rd->vt->close(rd);
    }
    if (ok) res.text = sqe_strbuf_detach(&sb);
    sqe_strbuf_free(&sb);
    sqe_batch_free(b);
    for (int i = 0; i < n_cols; i++) sqe_free(names[i]);
    return res;
}

static scan_result scan(const char *path, const char *cols, const char *proj) {
    sqe_io_entry e;
    sqe_error err;
    uint64_t size = g_store->vt->head(g_store, path, &e, &err) ? e.size : 0;
    return scan_ranges(path, size, cols, proj, NULL, 0);
}

/* Checks the rendering of `data` read whole, in chunks of 1..17 bytes, and
 * (uncompressed) as two byte ranges cut at every offset. */
static void expect_rows_named(const char *name, const char *data, size_t len, const char *cols,
                              const char *proj, const char *want) {
    char *path = write_file(name, data, len);
    size_t saved = sqe_text_reader_chunk_size;
    for (size_t chunk = 0; chunk <= 17; chunk++) {
        sqe_text_reader_chunk_size = chunk ? chunk : saved;
        scan_result r = scan(path, cols, proj);
        if (!r.text) fprintf(stderr, "  scan error (chunk %zu): %s\n", chunk, r.err.msg);
        CHECK_STR(r.text, want);
        sqe_free(r.text);
    }
    sqe_text_reader_chunk_size = saved;
    if (!strstr(name, ".gz")) {
        for (uint64_t cut = 0; cut <= len; cut++) {
            scan_result r = scan_ranges(path, len, cols, proj, &cut, 1);
            if (!r.text || strcmp(r.text, want) != 0)
                fprintf(stderr, "  split at %llu\n", (unsigned long long)cut);
            CHECK_STR(r.text, want);
            sqe_free(r.text);
        }
    }
    sqe_free(path);
}

static void expect_rows(const char *data, const char *cols, const char *proj, const char *want) {
    expect_rows_named("t.json", data, strlen(data), cols, proj, want);
}

/* Expects the scan to fail with `cls` and exactly `msg_fmt` (%s = path). */
static void expect_error(const char *data, const char *cols, const char *proj, sqe_error_class cls,
                         const char *msg_fmt) {
    char *path = write_file("bad.json", data, strlen(data));
    char *want = sqe_asprintf(msg_fmt, path);
    size_t saved = sqe_text_reader_chunk_size;
    for (size_t chunk = 0; chunk <= 5; chunk++) {
        sqe_text_reader_chunk_size = chunk ? chunk : saved;
        scan_result r = scan(path, cols, proj);
        CHECK(r.text == NULL);
        CHECK(r.err.cls == cls);
        CHECK_STR(r.err.msg, want);
        sqe_free(r.text);
    }
    sqe_text_reader_chunk_size = saved;
    sqe_free(want);
    sqe_free(path);
}

/* ------------------------------------------------------------ tests */

static void test_basics(void) {
    const char *cols = "id bigint; name string; v double";
    expect_rows("{\"id\":1,\"name\":\"a\",\"v\":1.5}\n{\"v\":2,\"id\":2}\n", cols, NULL,
                "1|[a]|1.5\n2|NULL|2\n");
    /* no final newline; \r\n endings; whitespace everywhere */
    expect_rows("{ \"id\" : 1 , \"name\" : \"a\" }\r\n\t{\"id\":2}", cols, NULL,
                "1|[a]|NULL\n2|NULL|NULL\n");
    /* blank lines skipped, an empty file has no rows */
    expect_rows("\n\n{\"id\":1}\n \n\r\n{\"id\":2}\n\n", cols, "0", "1\n2\n");
    expect_rows("", cols, NULL, "");
    expect_rows("\n", cols, NULL, "");
    /* projection: reordered, duplicate, none */
    expect_rows("{\"id\":1,\"name\":\"a\",\"v\":1.5}\n", cols, "2,0,0", "1.5|1|1\n");
    expect_rows("{\"id\":1}\n{\"id\":2}\n", cols, "", "\n\n");
    /* case-insensitive binding by default; unknown keys skipped */
    expect_rows("{\"ID\":1,\"NaMe\":\"x\",\"other\":{\"id\":99,\"a\":[1,{\"b\":[]}]}}\n", cols,
                "0,1", "1|[x]\n");
    /* a later duplicate key wins */
    expect_rows("{\"id\":1,\"Id\":2,\"id\":null}\n{\"id\":3,\"id\":4}\n", cols, "0", "NULL\n4\n");
    /* a byte order mark before the first line (only there: ranges too) */
    expect_rows("\xEF\xBB\xBF{\"id\":1}\n{\"id\":2}\n", cols, "0", "1\n2\n");
    g_opts.ignore_malformed = true;
    expect_rows("\n\xEF\xBB\xBF{\"id\":1}\n", cols, "0", "NULL\n");
    memset(&g_opts, 0, sizeof g_opts);
}

static void test_types(void) {
    const char *cols = "b boolean; t tinyint; s smallint; i int; l bigint; r real; d double; "
                       "m decimal(6,2); dt date; ts timestamp; v varchar(3); c char(2); x string";
    expect_rows(
        "{\"b\":true,\"t\":-128,\"s\":32767,\"i\":-2147483648,\"l\":9223372036854775807,\"r\":0.5,"
        "\"d\":-1.25e2,\"m\":1234.565,\"dt\":\"2024-02-29\",\"ts\":\"1970-01-01 00:00:01.5\","
        "\"v\":\"\xc3\xa9t\xc3\xa9s\",\"c\":\"abc\",\"x\":[1, {\"a\": \"}\"}]}\n",
        cols, NULL,
        "true|-128|32767|-2147483648|9223372036854775807|0.5|-125|1234.57|2024-02-29|ts:1500000|["
        "\xc3\xa9t\xc3\xa9]|[ab]|[[1, "
        "{\"a\": \"}\"}]]\n");
    /* strings holding numbers and booleans; numbers and booleans into strings */
    expect_rows("{\"b\":\"false\",\"t\":\"1\",\"s\":\"-2\",\"i\":\"3\",\"l\":\"4\",\"r\":\"5\","
                "\"d\":\"6.5\",\"m\":\"7\","
                "\"v\":12345,\"c\":true,\"x\":-0.0e-1}\n",
                cols, NULL, "false|1|-2|3|4|5|6.5|7.00|NULL|NULL|[123]|[tr]|[-0.0e-1]\n");
    /* null and empty strings: NULL except for string columns */
    expect_rows("{\"b\":null,\"i\":\"\",\"d\":\"\",\"dt\":\"\",\"x\":\"\",\"v\":null}\n",
                "b boolean; i int; d double; dt date; x string; v string", NULL,
                "NULL|NULL|NULL|NULL|[]|NULL\n");
    /* nested values in string columns are their JSON text as written */
    expect_rows("{\"x\":{},\"y\":[ ],\"z\":{\"k\":[true,false,null,\"s\\\"\"]}}\n",
                "x string; y string; z string", NULL,
                "[{}]|[[ ]]|[{\"k\":[true,false,null,\"s\\\"\"]}]\n");
}

static void test_strings(void) {
    const char *cols = "s string";
    expect_rows("{\"s\":\"a\\\"b\\\\c\\/d\\be\\ff\\ng\\rh\\ti\"}\n", cols, NULL,
                "[a\"b\\c/d\be\ff\ng\rh\ti]\n");
    expect_rows("{\"s\":\"\\u0041\\u00e9\\u20ac\\uD83D\\uDE00\\ud834\\udd1e\"}\n", cols, NULL,
                "[A\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf0\x9d\x84\x9e]\n");
    expect_rows("{\"s\":\"raw \xe2\x82\xac bytes\"}\n", cols, NULL, "[raw \xe2\x82\xac bytes]\n");
    /* a key with escapes binds by its decoded text */
    expect_rows("{\"\\u0053\":\"x\"}\n{\"\\\"s\":\"y\"}\n", cols, NULL, "[x]\nNULL\n");
}

static void test_options(void) {
    const char *cols = "user_id int; name string";
    const char *data = "{\"user.id\":1,\"Name\":\"a\"}\n{\"user_id\":2,\"name\":\"b\"}\n";
    expect_rows(data, cols, NULL, "NULL|[a]\n2|[b]\n");
    g_opts.case_sensitive = true;
    expect_rows(data, cols, NULL, "NULL|NULL\n2|[b]\n");
    g_opts.case_sensitive = false;
    g_opts.dots_in_keys = true;
    expect_rows(data, cols, NULL, "1|[a]\n2|[b]\n");
    /* an exact key beats a dotted one in either order; dotted ones: last wins */
    expect_rows("{\"user_id\":2,\"user.id\":3}\n{\"user.id\":4,\"user_id\":5,\"user.id\":6}\n{"
                "\"user.id\":7,\"USER.ID\":8}\n",
                cols, "0", "2\n5\n8\n");
    g_opts.dots_in_keys = false;
    const char *mcols[] = {"name", "user_id"}, *mkeys[] = {"Full Name", "uid"};
    g_opts.n_mappings = 2;
    g_opts.mapping_cols = mcols;
    g_opts.mapping_keys = mkeys;
    expect_rows("{\"full name\":\"x\",\"UID\":5,\"name\":\"no\",\"user_id\":6}\n", cols, NULL,
                "5|[x]\n");
    g_opts.case_sensitive = true;
    expect_rows("{\"full name\":\"x\",\"UID\":5,\"Full Name\":\"y\",\"uid\":7}\n", cols, NULL,
                "7|[y]\n");
    /* two columns bound to one key both get it */
    const char *mcols2[] = {"name"}, *mkeys2[] = {"user_id"};
    g_opts.case_sensitive = false;
    g_opts.n_mappings = 1;
    g_opts.mapping_cols = mcols2;
    g_opts.mapping_keys = mkeys2;
    expect_rows("{\"user_id\":3}\n", cols, NULL, "3|[3]\n");
    memset(&g_opts, 0, sizeof g_opts);
    /* ignore_malformed: malformed lines are all-NULL rows */
    g_opts.ignore_malformed = true;
    expect_rows("{\"user_id\":1}\n{\"user_id\":\n[1]\nnope\n{\"user_id\":2} x\n{\"user_id\":3}\n",
                cols, NULL, "1|NULL\nNULL|NULL\nNULL|NULL\nNULL|NULL\nNULL|NULL\n3|NULL\n");
    memset(&g_opts, 0, sizeof g_opts);
}

static void test_errors(void) {
    const char *cols = "id int; s string";
    expect_error("{\"id\":1}\n{\"id\":2147483648}\n", cols, NULL, SQE_ERR_INVALID_DATA,
                 "cannot parse '2147483648' as integer in file '%s' line 2, column 'id'");
    expect_error("\n\n{\"id\":\"1.0\"}\n", cols, NULL, SQE_ERR_INVALID_DATA,
                 "cannot parse '1.0' as integer in file '%s' line 3, column 'id'");
    expect_error("{\"id\":false}\n", cols, NULL, SQE_ERR_INVALID_DATA,
                 "cannot parse 'false' as integer in file '%s' line 1, column 'id'");
    expect_error("{\"id\":[1]}\n", cols, NULL, SQE_ERR_INVALID_DATA,
                 "cannot read a JSON array as integer in file '%s' line 1, column 'id': only "
                 "string columns take nested "
                 "JSON (as its text)");
    expect_error("{\"id\":1}\n{\"id\":1 \"s\":2}\n", cols, NULL, SQE_ERR_INVALID_DATA,
                 "malformed JSON in file '%s' line 2 at character 9: expected ',' or '}'");
    g_opts.serde = SQE_JSON_SERDE_OPENX;
    expect_error("{\"s\":\"\\x\"}\n", cols, NULL, SQE_ERR_INVALID_DATA,
                 "malformed JSON in file '%s' line 1 at character 7: invalid escape in string "
                 "(SERDEPROPERTIES "
                 "'ignore.malformed.json'='true' reads malformed lines as rows of NULLs)");
    memset(&g_opts, 0, sizeof g_opts);
    /* malformed everywhere, also when nothing is projected */
    static const char *const bad[] = {
        "{",
        "}",
        "{\"a\"}",
        "{\"a\":}",
        "{\"a\":1,}",
        "{,}",
        "{\"a\":1}}",
        "{\"a\":[1,]}",
        "{\"a\":[1 2]}",
        "{\"a\":{\"b\":1,}}",
        "{\"a\":{1:2}}",
        "{\"a\":nul}",
        "{\"a\":+1}",
        "{\"a\":1e}",
        "{\"a\":.5}",
        "{\"a\":0x1}",
        "{\"a\":\"\\u12g4\"}",
        "{\"a\":\"\\ud800\\u0041\"}",
        "{\"a\":\"\\udc00\"}",
        "{\"a\":\"x\x01\"}",
        "[]",
        "1",
        "\"s\"",
        "null",
        "{\"a\":1}{\"b\":2}",
        "{\"a\":'x'}",
        "{\"a\":NaN}",
        "{\"a\"::1}",
        "{\"a\" 1}",
        "{\"a\":\"unterminated}",
        "{\"a\":[[[[[[[[[[",
    };
    for (size_t i = 0; i < SQE_ARRAY_LEN(bad); i++) {
        char *path = write_file("bad.json", bad[i], strlen(bad[i]));
        for (int p = 0; p < 2; p++) {
            scan_result r = scan(path, cols, p ? "" : NULL);
            if (r.text) fprintf(stderr, "  no error for %s\n", bad[i]);
            CHECK(r.text == NULL);
            CHECK(r.err.cls == SQE_ERR_INVALID_DATA);
            CHECK_CONTAINS(r.err.msg, "malformed JSON in file");
            sqe_free(r.text);
        }
        sqe_free(path);
    }
    /* nesting: 256 levels are fine, 257 are not; a very deep line fails
     * without recursion */
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    for (int depth = 256; depth <= 257; depth++) {
        sqe_strbuf_clear(&sb);
        sqe_strbuf_puts(&sb, "{\"s\":");
        for (int i = 0; i < depth; i++) sqe_strbuf_putc(&sb, '[');
        for (int i = 0; i < depth; i++) sqe_strbuf_putc(&sb, ']');
        sqe_strbuf_puts(&sb, ",\"id\":1}\n");
        char *path = write_file("deep.json", sb.data, sb.len);
        scan_result r = scan(path, cols, "0");
        if (depth == 256)
            CHECK_STR(r.text, "1\n");
        else
            CHECK_CONTAINS(r.err.msg, "at character 262: nesting deeper than 256 levels");
        sqe_free(r.text);
        sqe_free(path);
    }
    sqe_strbuf_clear(&sb);
    sqe_strbuf_puts(&sb, "{\"s\":");
    for (int i = 0; i < 1000000; i++) sqe_strbuf_putc(&sb, i % 2 ? '[' : '{');
    char *path = write_file("deep.json", sb.data, sb.len);
    scan_result r = scan(path, cols, "");
    CHECK(r.text == NULL && r.err.cls == SQE_ERR_INVALID_DATA);
    sqe_free(path);
    sqe_strbuf_free(&sb);
}

/* Regression (issue 7 item 2): a JSON file that changed after it was listed
 * (grown or truncated) gave a partial answer; now an error naming it. */
static void test_changed_during_scan(void) {
    const char *data = "{\"a\": 1}\n{\"a\": 2}\n{\"a\": 3}\n";
    char *path = write_file("changed.json", data, strlen(data));
    scan_result r = scan_ranges(path, 9, "a int", NULL, NULL, 0);
    CHECK(r.text == NULL);
    CHECK(r.err.cls == SQE_ERR_INVALID_DATA);
    CHECK_CONTAINS(r.err.msg, path);
    CHECK_CONTAINS(r.err.msg, "is longer than its listed size of 9 bytes");
    sqe_free(r.text);
    r = scan_ranges(path, strlen(data) + 50, "a int", NULL, NULL, 0);
    CHECK(r.text == NULL);
    CHECK_CONTAINS(r.err.msg, path);
    CHECK_CONTAINS(r.err.msg, "is shorter than its listed size");
    sqe_free(r.text);
    r = scan_ranges(path, strlen(data), "a int", NULL, NULL, 0);
    CHECK_STR(r.text, "1\n2\n3\n");
    sqe_free(r.text);
    sqe_free(path);
}

static void test_long_lines(void) {
    size_t saved = sqe_text_reader_max_line;
    sqe_text_reader_max_line = 32;
    expect_rows("{\"id\":1,\"pad\":\"xxxxxxxxxxxxxxx\"}\n", "id int", NULL, "1\n"); /* exactly 32 */
    expect_error("{\"id\":1}\n{\"id\":1,\"pad\":\"xxxxxxxxxxxxxxxx\"}\n", "id int", NULL,
                 SQE_ERR_INVALID_DATA, "line 2 in file '%s' is longer than the limit of 32 bytes");
    expect_error("{\"id\":1}\n{\"id\":1,\"pad\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                 "id int", NULL, SQE_ERR_INVALID_DATA,
                 "line 2 in file '%s' is longer than the limit of 32 bytes");
    sqe_text_reader_max_line = saved;
}

/* Byte ranges: 3 ranges at many cut pairs give the whole file's rows; an
 * error in a range names the byte offset of its line. */
static void test_ranges(void) {
    const char *data = "{\"id\":1}\n\n{\"id\":22}\n{\"id\":333}\n  \n{\"id\":4}";
    size_t len = strlen(data);
    char *path = write_file("r.json", data, len);
    for (uint64_t a = 0; a <= len; a += 3) {
        for (uint64_t b = a; b <= len; b += 2) {
            uint64_t cuts[2] = {a, b};
            scan_result r = scan_ranges(path, len, "id int", NULL, cuts, 2);
            CHECK_STR(r.text, "1\n22\n333\n4\n");
            CHECK(r.stats.rows_read == 4);
            sqe_free(r.text);
        }
    }
    sqe_free(path);
    data = "{\"id\":1}\n{\"id\":\"x\"}\n";
    path = write_file("r.json", data, strlen(data));
    uint64_t cut = 5;
    scan_result r = scan_ranges(path, strlen(data), "id int", NULL, &cut, 1);
    char *want = sqe_asprintf(
        "cannot parse 'x' as integer in file '%s' at byte offset 9, column 'id'", path);
    CHECK_STR(r.err.msg, want);
    sqe_free(want);
    /* a compressed file cannot be read in ranges */
    sqe_reader_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.format = SQE_FORMAT_JSON;
    CHECK(sqe_format_splittable(&spec, path));
    CHECK(!sqe_format_splittable(&spec, "/a/b.json.gz"));
    CHECK(sqe_json_reader_vtable.open_range(g_store, "/a/b.json.gz", 10, 0, 5, &spec, &r.err) ==
          NULL);
    CHECK(r.err.cls == SQE_ERR_INTERNAL);
    sqe_free(path);
}

static void test_compressed(void) {
    const char *text = "{\"id\":1,\"s\":\"a\"}\n\n{\"ID\":2}\n";
    uint8_t gz[512];
    size_t n = 0;
    for (int member = 0; member < 2; member++) { /* two members */
        z_stream z;
        memset(&z, 0, sizeof z);
        deflateInit2(&z, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY);
        z.next_in = (uint8_t *)text;
        z.avail_in = (uInt)strlen(text);
        z.next_out = gz + n;
        z.avail_out = (uInt)(sizeof gz - n);
        deflate(&z, Z_FINISH);
        n = sizeof gz - z.avail_out;
        deflateEnd(&z);
    }
    expect_rows_named("t.json.gz", (const char *)gz, n, "id int; s string", NULL,
                      "1|[a]\n2|NULL\n1|[a]\n2|NULL\n");
    char *path = write_file("t.json.gz", (const char *)gz, n - 3);
    scan_result r = scan(path, "id int", NULL);
    CHECK(r.text == NULL && r.err.cls == SQE_ERR_INVALID_DATA);
    CHECK_CONTAINS(r.err.msg, "gzip: data is truncated");
    sqe_free(path);
    /* a file shorter than the listing says (plain and compressed) */
    path = write_file("short.json", text, strlen(text));
    r = scan_ranges(path, strlen(text) + 10, "id int", NULL, NULL, 0);
    CHECK(r.text == NULL && r.err.cls == SQE_ERR_INVALID_DATA);
    CHECK_CONTAINS(r.err.msg, "short.json' is shorter than its listed size");
    sqe_free(path);
    path = write_file("short.json.gz", (const char *)gz, n);
    r = scan_ranges(path, n + 10, "id int", NULL, NULL, 0);
    CHECK(r.text == NULL && r.err.cls == SQE_ERR_INVALID_DATA);
    CHECK_CONTAINS(r.err.msg, "short.json.gz' (gzip) is shorter than its listed size");
    sqe_free(path);
}

static void test_batches_and_stats(void) {
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    for (int i = 0; i < 5000; i++) sqe_strbuf_printf(&sb, "{\"id\":%d,\"s\":\"v%d\"}\n", i, i);
    char *path = write_file("many.json", sb.data, sb.len);
    scan_result r = scan(path, "id int; s string", NULL);
    CHECK(r.n_rows == 5000 && r.n_batches == 3);
    CHECK(r.stats.rows_read == 5000 && r.stats.bytes_read == sb.len);
    sqe_free(r.text);
    sqe_free(path);
    sqe_strbuf_free(&sb);
}

int main(void) {
    strcpy(g_dir, "/tmp/sqe_json_XXXXXX");
    if (!mkdtemp(g_dir)) return 2;
    g_store = sqe_io_local_new();
    RUN(test_basics);
    RUN(test_types);
    RUN(test_strings);
    RUN(test_options);
    RUN(test_errors);
    RUN(test_changed_during_scan);
    RUN(test_long_lines);
    RUN(test_ranges);
    RUN(test_compressed);
    RUN(test_batches_and_stats);
    sqe_store_free(g_store);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_dir);
    if (system(cmd) != 0) return 2;
    return unit_report();
}
