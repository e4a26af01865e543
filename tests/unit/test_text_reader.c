/*
 * test_text_reader.c - the text reader (LazySimpleSerDe, OpenCSVSerde) and
 * the format registry.
 *
 * Each case writes a small file into a mkdtemp folder, scans it through the
 * registry's vtable and the local store, and compares a rendering of the
 * rows: one line per row, values joined by '|', NULL as "NULL", strings
 * with \n, \r and \001 spelled out. Chunk-boundary cases rerun every file
 * with tiny chunk sizes and expect the same rendering. The last test prints
 * the scan throughput on a generated 50 MB file (not asserted).
 */
#include "format/format.h"
#include "unit.h"

#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

static char g_dir[64];
static sqe_store *g_store;
static bool g_render = true;                /* false: time the scan alone (throughput test) */
static uint64_t g_range_start, g_range_end; /* g_range_end > 0: scan only this byte range */
/* NULL: the store's defaults (local: no read-ahead); &k_read_ahead: chunks
 * read ahead on worker threads, as on S3 (io/readplan.c sqe_seqread) */
static const sqe_readplan_opts *g_io;
static const sqe_readplan_opts k_read_ahead = {0, 1 << 20, 2, 64 << 20};

/* ------------------------------------------------------------ helpers */

static char *write_file(const char *name, const char *data, size_t len) {
    char *path = sqe_asprintf("%s/%s", g_dir, name);
    sqe_error err;
    if (!g_store->vt->put(g_store, path, data, len, &err))
        fprintf(stderr, "write %s: %s\n", path, err.msg);
    return path;
}

static sqe_text_options lazy_opts(char delim) {
    sqe_text_options o;
    memset(&o, 0, sizeof o);
    o.serde = SQE_SERDE_LAZY_SIMPLE;
    o.field_delim = delim;
    o.line_delim = '\n';
    o.null_format = "\\N";
    return o;
}

static sqe_text_options csv_opts(void) {
    sqe_text_options o;
    memset(&o, 0, sizeof o);
    o.serde = SQE_SERDE_OPEN_CSV;
    o.field_delim = ',';
    o.quote_char = '"';
    o.escape_char = '\\';
    o.line_delim = '\n';
    return o;
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
        const char *p = sqe_string_data(s);
        sqe_strbuf_putc(sb, '[');
        for (uint32_t i = 0; i < s->len; i++) {
            if (p[i] == '\n')
                sqe_strbuf_puts(sb, "\\n");
            else if (p[i] == '\r')
                sqe_strbuf_puts(sb, "\\r");
            else if (p[i] == '\001')
                sqe_strbuf_puts(sb, "\\001");
            else
                sqe_strbuf_putc(sb, p[i]);
        }
        sqe_strbuf_putc(sb, ']');
        break;
    }
    default:
        sqe_strbuf_puts(sb, "?");
        break;
    }
}

typedef struct scan_result {
    char *text;      /* rendered rows (malloc'd), NULL on error */
    uint64_t n_rows; /* rows returned */
    int n_batches;
    sqe_reader_stats stats;
    sqe_error err;
} scan_result;

static void scan_free(scan_result *r) {
    sqe_free(r->text);
}

/* Scans `path` as a table with columns `cols` ("a bigint; b varchar(3)")
 * projecting `proj` ("2,0"; NULL = every column in order; "" = none). */
static scan_result scan_size(const char *path, uint64_t size, const char *cols, const char *proj,
                             const sqe_text_options *opt) {
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
    spec.format = SQE_FORMAT_TEXT;
    spec.n_table_cols = n_cols;
    spec.col_names = (const char *const *)names;
    spec.col_types = types;
    spec.n_proj = n_proj;
    spec.proj = proj_idx;
    spec.text = *opt;
    spec.io = g_io;

    const sqe_reader_vtable *vt = sqe_format_reader_for(SQE_FORMAT_TEXT, &res.err);
    sqe_reader *rd = !vt           ? NULL
                     : g_range_end ? sqe_format_open_range(vt, g_store, path, size, g_range_start,
                                                           g_range_end, &spec, &res.err)
                                   : vt->open(g_store, path, size, &spec, &res.err);
    if (rd) {
        sqe_batch *b = sqe_batch_new(n_proj, proj_types);
        sqe_strbuf sb;
        sqe_strbuf_init(&sb);
        bool ok = true, eof = false;
        while (ok && !eof) {
            sqe_batch_reset(b);
            ok = rd->vt->next(rd, b, &eof, &res.err);
            if (!ok) break;
            if (b->n_rows) res.n_batches++;
            res.n_rows += b->n_rows;
            if (!g_render) continue;
            for (uint32_t row = 0; row < b->n_rows; row++) {
                for (int c = 0; c < n_proj; c++) {
                    if (c) sqe_strbuf_putc(&sb, '|');
                    render_value(b->cols[c], row, &sb);
                }
                sqe_strbuf_putc(&sb, '\n');
            }
        }
        res.stats = rd->stats;
        rd->vt->close(rd);
        sqe_batch_free(b);
        if (ok) res.text = sqe_strbuf_detach(&sb);
        sqe_strbuf_free(&sb);
    }
    for (int i = 0; i < n_cols; i++) sqe_free(names[i]);
    return res;
}

static scan_result scan(const char *path, const char *cols, const char *proj,
                        const sqe_text_options *opt) {
    sqe_io_entry e;
    sqe_error err;
    uint64_t size = g_store->vt->head(g_store, path, &e, &err) ? e.size : 0;
    return scan_size(path, size, cols, proj, opt);
}

/* Writes `data` to a file and checks the rendering of a scan of it, with
 * the default chunk size and with every chunk size from 1 to 17 bytes,
 * each read directly and with read-ahead. */
static void expect_rows(const char *data, const char *cols, const char *proj,
                        const sqe_text_options *opt, const char *want) {
    char *path = write_file("t.txt", data, strlen(data));
    size_t saved = sqe_text_reader_chunk_size;
    for (int ra = 0; ra < 2; ra++) {
        g_io = ra ? &k_read_ahead : NULL;
        for (size_t chunk = 0; chunk <= 17; chunk++) {
            sqe_text_reader_chunk_size = chunk ? chunk : saved;
            scan_result r = scan(path, cols, proj, opt);
            if (!r.text)
                fprintf(stderr, "  scan error (chunk %zu, read-ahead %d): %s\n", chunk, ra,
                        r.err.msg);
            CHECK_STR(r.text, want);
            scan_free(&r);
        }
    }
    g_io = NULL;
    sqe_text_reader_chunk_size = saved;
    sqe_free(path);
}

/* Expects the scan to fail with `cls` and exactly `msg` (%s = file path). */
static void expect_error(const char *data, const char *cols, const char *proj,
                         const sqe_text_options *opt, sqe_error_class cls, const char *msg_fmt) {
    char *path = write_file("bad.txt", data, strlen(data));
    char *want = sqe_asprintf(msg_fmt, path);
    size_t saved = sqe_text_reader_chunk_size;
    for (size_t chunk = 0; chunk <= 11; chunk++) { /* 6..11: 0..5 with read-ahead */
        sqe_text_reader_chunk_size = chunk % 6 ? chunk % 6 : saved;
        g_io = chunk >= 6 ? &k_read_ahead : NULL;
        scan_result r = scan(path, cols, proj, opt);
        CHECK(r.text == NULL);
        CHECK(r.err.cls == cls);
        CHECK_STR(r.err.msg, want);
        scan_free(&r);
    }
    g_io = NULL;
    sqe_text_reader_chunk_size = saved;
    sqe_free(want);
    sqe_free(path);
}

/* -------------------------------------------------------- registry */

static void test_registry(void) {
    sqe_error err;
    CHECK(sqe_format_reader_for(SQE_FORMAT_TEXT, &err) == &sqe_text_reader_vtable);
    CHECK(sqe_format_reader_for(SQE_FORMAT_JSON, &err) == &sqe_json_reader_vtable);
    CHECK(sqe_format_reader_for(SQE_FORMAT_PARQUET, &err) == &sqe_parquet_reader_vtable);
    CHECK(sqe_format_reader_for(SQE_FORMAT_ORC, &err) == NULL);
    CHECK(err.cls == SQE_ERR_NOT_SUPPORTED);
    CHECK_STR(err.msg, "cannot read ORC table: format ORC "
                       "(org.apache.hadoop.hive.ql.io.orc.OrcInputFormat) is not "
                       "readable by sqe");
    CHECK(sqe_format_reader_for(SQE_FORMAT_AVRO, &err) == NULL);
    CHECK_CONTAINS(err.msg, "org.apache.hadoop.hive.ql.io.avro.AvroContainerInputFormat");
    CHECK(sqe_format_reader_for(SQE_FORMAT_SEQUENCEFILE, &err) == NULL);
    CHECK_CONTAINS(err.msg, "org.apache.hadoop.mapred.SequenceFileInputFormat");
    CHECK(sqe_format_reader_for(SQE_FORMAT_RCFILE, &err) == NULL);
    CHECK_CONTAINS(
        err.msg,
        "cannot read RCFILE table: format RCFILE (org.apache.hadoop.hive.ql.io.RCFileInputFormat)");
    CHECK_STR(sqe_format_name(SQE_FORMAT_TEXT), "TEXTFILE");
    CHECK_STR(sqe_format_name(SQE_FORMAT_PARQUET), "PARQUET");
    CHECK_STR(sqe_format_name(SQE_FORMAT_ORC), "ORC");
    CHECK_STR(sqe_format_name(SQE_FORMAT_JSON), "JSONFILE");
}

/* ---------------------------------------------------- LazySimpleSerDe */

static void test_delimiters(void) {
    const char *cols = "id bigint; name string; price double";
    sqe_text_options o = lazy_opts('\001');
    expect_rows("1\001apple\0012.5\n2\001pear\001-0.25\n", cols, NULL, &o,
                "1|[apple]|2.5\n2|[pear]|-0.25\n");
    o = lazy_opts(0); /* 0 means the default \001 */
    expect_rows("1\001a\0011\n", cols, NULL, &o, "1|[a]|1\n");
    o = lazy_opts('\t');
    expect_rows("1\tapple\t2.5\n2\tpe,ar\t3\n", cols, NULL, &o, "1|[apple]|2.5\n2|[pe,ar]|3\n");
    o = lazy_opts('|');
    expect_rows("1|apple|2.5\n2|a\tb|3e2\n", cols, NULL, &o, "1|[apple]|2.5\n2|[a\tb]|300\n");
    o = lazy_opts(',');
    expect_rows("1,apple,2.5\n22,x|y,1\n", cols, NULL, &o, "1|[apple]|2.5\n22|[x|y]|1\n");
}

static void test_default_delim_one_column(void) {
    /* bare TEXTFILE: \001; a comma line is one string field (SPEC §3.6) */
    sqe_text_options o = lazy_opts('\001');
    expect_rows("1,apple,2.5\n", "line string; b string", NULL, &o, "[1,apple,2.5]|NULL\n");
}

static void test_null_format(void) {
    const char *cols = "a int; s string; d double";
    sqe_text_options o = lazy_opts(',');
    /* default \N: NULL for every type; empty: NULL except strings */
    expect_rows("\\N,\\N,\\N\n,,\n1,x,2\n", cols, NULL, &o,
                "NULL|NULL|NULL\nNULL|[]|NULL\n1|[x]|2\n");
    /* \N only matches whole fields */
    expect_rows("1,\\Nx,2\n", cols, NULL, &o, "1|[\\Nx]|2\n");
    o.null_format = "NULL";
    expect_rows("NULL,NULL,NULL\n1,\\N,NULLx\n", "a int; s string; t string", NULL, &o,
                "NULL|NULL|NULL\n1|[\\N]|[NULLx]\n");
    o.null_format = "";
    expect_rows(",,\n1,x,2\n", cols, NULL, &o, "NULL|NULL|NULL\n1|[x]|2\n");
}

static void test_escape(void) {
    const char *cols = "a string; b string; c int";
    sqe_text_options o = lazy_opts(',');
    o.escape_char = '\\';
    /* escaped delimiter, escaped escape, escape before an ordinary byte */
    expect_rows("x\\,y,z,1\n", cols, NULL, &o, "[x,y]|[z]|1\n");
    expect_rows("a\\\\b,c\\d,2\n", cols, NULL, &o, "[a\\b]|[cd]|2\n");
    /* \N is compared before unescaping, so it stays NULL */
    expect_rows("\\N,\\\\N,3\n", cols, NULL, &o, "NULL|[\\N]|3\n");
    /* trailing escape at the end of the line is kept */
    expect_rows("a,b,4\nq,r\\\n", cols, NULL, &o, "[a]|[b]|4\n[q]|[r\\]|NULL\n");
    /* escape applies to numbers too: 1\2 -> 12 */
    expect_rows("a,b,1\\2\n", cols, NULL, &o, "[a]|[b]|12\n");
    /* without escape.delim a backslash is an ordinary byte */
    o.escape_char = 0;
    expect_rows("x\\,y,1\n", cols, NULL, &o, "[x\\]|[y]|1\n");
    /* \001 delimiter with escape */
    o = lazy_opts('\001');
    o.escape_char = '\\';
    expect_rows("a\\\001b\001c\0015\n", cols, NULL, &o, "[a\\001b]|[c]|5\n");
}

static void test_header_footer(void) {
    const char *cols = "n int";
    sqe_text_options o = lazy_opts(',');
    const char *five = "1\n2\n3\n4\n5\n";
    expect_rows(five, cols, NULL, &o, "1\n2\n3\n4\n5\n");
    o.skip_header_lines = 1;
    expect_rows("n\n1\n2\n", cols, NULL, &o, "1\n2\n");
    o.skip_header_lines = 2;
    expect_rows("title\nn\n1\n2\n", cols, NULL, &o, "1\n2\n");
    o.skip_header_lines = 0;
    o.skip_footer_lines = 1;
    expect_rows("1\n2\ntotal\n", cols, NULL, &o, "1\n2\n");
    expect_rows("1\n2\ntotal", cols, NULL, &o, "1\n2\n"); /* footer without newline */
    o.skip_footer_lines = 2;
    expect_rows(five, cols, NULL, &o, "1\n2\n3\n");
    o.skip_header_lines = 2;
    expect_rows(five, cols, NULL, &o, "3\n");
    /* file with N+M lines or fewer: no rows */
    expect_rows("h1\nh2\nf1\nf2\n", cols, NULL, &o, "");
    expect_rows("h1\nh2\nf1\n", cols, NULL, &o, "");
    expect_rows("h1\n", cols, NULL, &o, "");
    expect_rows("", cols, NULL, &o, "");
    o.skip_header_lines = 0;
    o.skip_footer_lines = 10;
    expect_rows(five, cols, NULL, &o, "");
    /* headers longer than the file */
    o.skip_footer_lines = 0;
    o.skip_header_lines = 9;
    expect_rows(five, cols, NULL, &o, "");
    /* CRLF header and footer */
    o.skip_header_lines = 1;
    o.skip_footer_lines = 1;
    expect_rows("n\r\n7\r\n8\r\nend\r\n", cols, NULL, &o, "7\n8\n");
    /* CR-only header and footer; a BOM before the header */
    expect_rows("n\r7\r8\rend\r", cols, NULL, &o, "7\n8\n");
    expect_rows("\xEF\xBB\xBFn\r7\r8\rend", cols, NULL, &o, "7\n8\n");
    o.skip_footer_lines = 2;
    expect_rows("n\r\n7\r8\nx\r\ny\r", cols, NULL, &o, "7\n8\n");
    o.skip_footer_lines = 1;
    /* an empty last line before EOF is a line, so it is the footer */
    expect_rows("n\n1\n2\n\n", cols, NULL, &o, "1\n2\n");
}

static void test_lines(void) {
    const char *cols = "a int; b string";
    sqe_text_options o = lazy_opts(',');
    expect_rows("1,x\r\n2,y\r\n", cols, NULL, &o, "1|[x]\n2|[y]\n");
    expect_rows("1,x\n2,y", cols, NULL, &o, "1|[x]\n2|[y]\n");     /* no final newline */
    expect_rows("1,x\r\n2,y\r", cols, NULL, &o, "1|[x]\n2|[y]\n"); /* final CR stripped */
    expect_rows("1,x\n\n2,y\n", cols, NULL, &o,
                "1|[x]\nNULL|NULL\n2|[y]\n"); /* empty line is a row */
    expect_rows("1,x\n\r\n", cols, NULL, &o, "1|[x]\nNULL|NULL\n");
    /* regression (issue 7 item 7): CR-only line ends gave one row "1,a\r2"...;
     * Hadoop's LineReader ends lines at LF, CR or CRLF */
    expect_rows("1,a\r2,b\r3,c\r", cols, NULL, &o, "1|[a]\n2|[b]\n3|[c]\n");
    expect_rows("1,a\r2,b\r3,c", cols, NULL, &o, "1|[a]\n2|[b]\n3|[c]\n");
    expect_rows("1,a\r\r2,b\r\n3,c\n4,d", cols, NULL, &o,
                "1|[a]\nNULL|NULL\n2|[b]\n3|[c]\n4|[d]\n");
    expect_rows("1,a\n\r2,b\r", cols, NULL, &o,
                "1|[a]\nNULL|NULL\n2|[b]\n"); /* LF then CR: two ends */
    expect_rows("1,x\r\n2,y\r\r\n", cols, NULL, &o, "1|[x]\n2|[y]\nNULL|NULL\n");
    /* a parse error names the physical line, CR lines counted */
    expect_error("1,a\r2,b\rx,c\r", cols, NULL, &o, SQE_ERR_INVALID_DATA,
                 "cannot parse 'x' as integer in file '%s' line 3, column 'a' (field 1)");
    /* a UTF-8 BOM at the start of the file is skipped (leftover of item 11) */
    expect_rows("\xEF\xBB\xBF"
                "1,x\n2,y\n",
                cols, NULL, &o, "1|[x]\n2|[y]\n");
    expect_rows("\xEF\xBB\xBF", cols, NULL, &o, "");
    expect_rows("1,\xEF\xBB\xBF\n", cols, NULL, &o,
                "1|[\xEF\xBB\xBF]\n"); /* elsewhere it is data */
    expect_rows("", cols, NULL, &o, "");
    expect_rows("\n", cols, NULL, &o, "NULL|NULL\n");
    /* an empty line gives an empty string for a first string column */
    expect_rows("\n", "s string; t string", NULL, &o, "[]|NULL\n");
}

static void test_fields(void) {
    sqe_text_options o = lazy_opts(',');
    /* missing trailing fields are NULL, extra fields are ignored */
    expect_rows("1\n1,2\n1,2,3\n1,2,3,4,5\n", "a int; b int; c int", NULL, &o,
                "1|NULL|NULL\n1|2|NULL\n1|2|3\n1|2|3\n");
    expect_rows("1,\n", "a int; b string; c string", NULL, &o, "1|[]|NULL\n");
}

static void test_types(void) {
    sqe_text_options o = lazy_opts('|');
    expect_rows("true|FALSE|True\n", "a boolean; b boolean; c boolean", NULL, &o,
                "true|false|true\n");
    expect_rows(
        "127|-128|32767|-32768|2147483647|-2147483648|9223372036854775807|-9223372036854775808\n",
        "a tinyint; b tinyint; c smallint; d smallint; e int; f int; g bigint; h bigint", NULL, &o,
        "127|-128|32767|-32768|2147483647|-2147483648|9223372036854775807|-9223372036854775808\n");
    expect_rows("+5|007\n", "a int; b bigint", NULL, &o, "5|7\n");
    expect_rows("1.5|-2.25|1e3|NaN|Infinity\n", "a float; b double; c double; d double; e double",
                NULL, &o, "1.5|-2.25|1000|nan|inf\n");
    expect_rows("123.45|-0.5|7|1.005\n",
                "a decimal(10,2); b decimal(10,2); c decimal(5,0); d decimal(10,2)", NULL, &o,
                "123.45|-0.50|7|1.01\n");
    expect_rows("2024-01-05|1970-01-01|2024-1-5\n", "a date; b date; c date", NULL, &o,
                "2024-01-05|1970-01-01|2024-01-05\n");
    expect_rows("1970-01-01 00:00:01|1970-01-01 00:00:00.5|1970-01-02\n",
                "a timestamp; b timestamp; c timestamp", NULL, &o,
                "ts:1000000|ts:500000|ts:86400000000\n");
    /* VARCHAR(n)/CHAR(n) keep n characters (UTF-8 aware); CHAR(n) is padded
     * to n characters as CAST pads it (issue 7 item 15: it was not) */
    expect_rows("abcdef|ab|h\xc3\xa9llo|x\n", "a varchar(3); b char(3); c varchar(2); d char(1)",
                NULL, &o, "[abc]|[ab ]|[h\xc3\xa9]|[x]\n");
    expect_rows("\xc3\xa9|||a long value past the inline view\n",
                "a char(3); b char(2); c varchar(2); d char(20)", NULL, &o,
                "[\xc3\xa9  ]|[  ]|[]|[a long value past th]\n");
    expect_rows("ab|\n", "a char(16); b char(16)", NULL, &o,
                "[ab              ]|[                ]\n");
    /* long strings (beyond the 12-byte inline view) */
    expect_rows("a string that is longer than twelve bytes|z\n", "a string; b varchar(5)", NULL, &o,
                "[a string that is longer than twelve bytes]|[z]\n");
    /* BINARY: raw bytes */
    expect_rows("\x01\x02\xff|\n", "a binary; b binary", NULL, &o, "[\\001\x02\xff]|[]\n");
    /* empty fields: NULL for every non-string type */
    expect_rows(
        "|||||||\n",
        "a boolean; b int; c bigint; d double; e decimal(5,2); f date; g timestamp; h string", NULL,
        &o, "NULL|NULL|NULL|NULL|NULL|NULL|NULL|[]\n");
}

static void test_projection(void) {
    sqe_text_options o = lazy_opts(',');
    const char *cols = "a int; b string; c double; d bigint";
    const char *data = "1,x,1.5,10\n2,y,2.5,20\n3\n";
    expect_rows(data, cols, "3,0", &o, "10|1\n20|2\nNULL|3\n");
    expect_rows(data, cols, "2", &o, "1.5\n2.5\nNULL\n");
    expect_rows(data, cols, "1,1", &o, "[x]|[x]\n[y]|[y]\nNULL|NULL\n"); /* a column twice */
    /* fields after the last projected column are never parsed */
    expect_rows("1,x,notanumber,zz\n", cols, "0,1", &o, "1|[x]\n");
    /* fields before it are skipped without parsing */
    expect_rows("bad,x,2.5,5\n", cols, "3", &o, "5\n");

    /* n_proj = 0 still counts rows (count(*)) */
    char *path = write_file("count.txt", data, strlen(data));
    scan_result r = scan(path, cols, "", &o);
    CHECK(r.n_rows == 3);
    CHECK(r.stats.rows_read == 3);
    scan_free(&r);
    o.skip_header_lines = 1;
    o.skip_footer_lines = 1;
    r = scan(path, cols, "", &o);
    CHECK(r.n_rows == 1);
    scan_free(&r);
    sqe_free(path);
    sqe_text_options c = csv_opts();
    const char *csv = "1,\"multi\nline\",x\n2,b,c\n";
    path = write_file("count.csv", csv, strlen(csv));
    r = scan(path, cols, "", &c);
    CHECK(r.n_rows == 2);
    scan_free(&r);
    sqe_free(path);
}

static void test_batches_and_stats(void) {
    /* more rows than a batch; stats count bytes and rows */
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    for (int i = 0; i < 5000; i++) sqe_strbuf_printf(&sb, "%d,v%d\n", i, i);
    char *path = write_file("big.txt", sb.data, sb.len);
    sqe_text_options o = lazy_opts(',');
    sqe_io_stats s0, s1;
    g_store->vt->stats(g_store, &s0);
    scan_result r = scan(path, "a int; b string", NULL, &o);
    g_store->vt->stats(g_store, &s1);
    /* one request: the read reaching the listed size carries the byte that
     * shows nothing follows (no separate 1-byte read) */
    CHECK(s1.n_get - s0.n_get == 1);
    CHECK(r.n_rows == 5000);
    CHECK(r.n_batches == 3);
    CHECK(r.stats.rows_read == 5000);
    CHECK(r.stats.bytes_read == sb.len);
    CHECK(r.text && strncmp(r.text, "0|[v0]\n1|[v1]\n", 14) == 0);
    CHECK(r.text && strstr(r.text, "\n4999|[v4999]\n") != NULL);
    scan_free(&r);
    /* size 0 means "read until a short read" */
    r = scan_size(path, 0, "a int; b string", "0", &o);
    CHECK(r.n_rows == 5000);
    scan_free(&r);
    /* regression (issue 7 item 2): a file that changed after it was listed
     * gave a partial answer. Grown (listed size smaller): an error naming
     * it, not the first 8 bytes' rows. */
    r = scan_size(path, 8, "a int; b string", "0", &o);
    CHECK(r.text == NULL);
    CHECK(r.err.cls == SQE_ERR_INVALID_DATA);
    char *want = sqe_asprintf("file '%s' is longer than its listed size of 8 bytes (did it grow or "
                              "was it overwritten while being read?); run the query again",
                              path);
    CHECK_STR(r.err.msg, want);
    sqe_free(want);
    scan_free(&r);
    /* truncated (listed size larger): an error, however the file is chunked */
    size_t saved = sqe_text_reader_chunk_size;
    for (size_t chunk = 1; chunk <= sb.len + 10; chunk += chunk < 20 ? 1 : 4093) {
        sqe_text_reader_chunk_size = chunk;
        r = scan_size(path, sb.len + 100, "a int; b string", "0", &o);
        CHECK(r.text == NULL);
        want =
            sqe_asprintf("file '%s' is shorter than its listed size of %zu bytes: it ends at byte "
                         "%zu (was it truncated or overwritten while being read?); run the query "
                         "again",
                         path, sb.len + 100, sb.len);
        CHECK_STR(r.err.msg, want);
        sqe_free(want);
        scan_free(&r);
    }
    sqe_text_reader_chunk_size = saved;
    /* the same through a byte range reader (the last range reaches the size) */
    g_range_start = sb.len / 2;
    g_range_end = sb.len;
    r = scan_size(path, sb.len + 1, "a int; b string", "0", &o);
    CHECK(r.text == NULL && strstr(r.err.msg, "is shorter than its listed size") != NULL);
    scan_free(&r);
    r = scan_size(path, sb.len - 1, "a int; b string", "0", &o);
    CHECK(r.text == NULL && strstr(r.err.msg, "is longer than its listed size") != NULL);
    scan_free(&r);
    g_range_start = g_range_end = 0;
    sqe_free(path);
    sqe_strbuf_free(&sb);
}

/* ------------------------------------------------------- OpenCSVSerde */

static void test_opencsv(void) {
    sqe_text_options o = csv_opts();
    const char *cols = "a string; b string; c int";
    expect_rows("x,y,1\n", cols, NULL, &o, "[x]|[y]|1\n");
    /* quoted separator, doubled quote, escaped quote, escaped escape */
    expect_rows("\"a,b\",\"say \"\"hi\"\"\",2\n", cols, NULL, &o, "[a,b]|[say \"hi\"]|2\n");
    expect_rows("\"q\\\"x\",\"back\\\\slash\",3\n", cols, NULL, &o, "[q\"x]|[back\\slash]|3\n");
    /* quoted numbers are cast to the declared type */
    expect_rows("a,b,\"42\"\n", cols, NULL, &o, "[a]|[b]|42\n");
    /* embedded newline: the record continues on the next line */
    expect_rows("\"line1\nline2\",b,4\nnext,r,5\n", cols, NULL, &o,
                "[line1\\nline2]|[b]|4\n[next]|[r]|5\n");
    /* CRLF outside and inside quotes */
    expect_rows("\"a\r\nb\",c,6\r\nd,e,7\r\n", cols, NULL, &o, "[a\\nb]|[c]|6\n[d]|[e]|7\n");
    /* CR-only: ends records outside quotes, one '\n' inside (issue 7 item 7) */
    expect_rows("a,b,1\rc,d,2\r", cols, NULL, &o, "[a]|[b]|1\n[c]|[d]|2\n");
    expect_rows("\"a\rb\",c,6\rd,\"e\",7", cols, NULL, &o, "[a\\nb]|[c]|6\n[d]|[e]|7\n");
    expect_rows("\"x\"\r\"y\"\r\n", cols, NULL, &o, "[x]|NULL|NULL\n[y]|NULL|NULL\n");
    expect_rows("\xEF\xBB\xBF\"a\",b,1\n", cols, NULL, &o, "[a]|[b]|1\n");
    /* empty fields: empty string for strings, NULL otherwise; no null marker */
    expect_rows(",,\n\"\",\\N,\n", cols, NULL, &o, "[]|[]|NULL\n[]|[N]|NULL\n");
    /* missing and extra fields */
    expect_rows("only\nx,y,8,extra,\"more\"\n", cols, NULL, &o, "[only]|NULL|NULL\n[x]|[y]|8\n");
    /* quotes inside an unquoted field are kept */
    expect_rows("ab\"c\"d,e,9\n", cols, NULL, &o, "[ab\"c\"d]|[e]|9\n");
    /* a lone escape outside an escapable position is dropped (opencsv) */
    expect_rows("C:\\dir,e,10\n", cols, NULL, &o, "[C:dir]|[e]|10\n");
    /* last line without newline, with and without quotes */
    expect_rows("a,b,11\n\"c\",\"d\",12", cols, NULL, &o, "[a]|[b]|11\n[c]|[d]|12\n");
    /* empty quoted last field */
    expect_rows("a,\"\"\n", cols, NULL, &o, "[a]|[]|NULL\n");
    /* custom separator and quote */
    o.field_delim = '|';
    o.quote_char = '\'';
    expect_rows("'a|b'|'it''s'|13\n", cols, NULL, &o, "[a|b]|[it's]|13\n");
    o.field_delim = '\t';
    o.quote_char = '"';
    expect_rows("\"a\tb\"\tc\t14\n", cols, NULL, &o, "[a\tb]|[c]|14\n");
    /* no escape char: backslashes are ordinary bytes */
    o = csv_opts();
    o.escape_char = 0;
    expect_rows("C:\\dir,\"x\\\",15\n", cols, NULL, &o, "[C:\\dir]|[x\\]|15\n");
    /* header/footer count physical lines */
    o = csv_opts();
    o.skip_header_lines = 1;
    o.skip_footer_lines = 1;
    expect_rows("a,b,c\n\"m\nn\",x,1\ny,z,2\ntotal,,\n", cols, NULL, &o,
                "[m\\nn]|[x]|1\n[y]|[z]|2\n");
    /* projection in a different order over a multi-line record */
    o = csv_opts();
    expect_rows("\"a\nb\",\"c,d\",3\n", cols, "2,1", &o, "3|[c,d]\n");
}

/* ------------------------------------------------------------- errors */

static void test_errors(void) {
    sqe_text_options o = lazy_opts(',');
    const char *cols =
        "id int; qty int; price double; d date; ok boolean; t tinyint; amt decimal(4,1)";
    expect_error("1,2,3,2024-01-01,true,1,1\n1,abc,3,2024-01-01,true,1,1\n", cols, NULL, &o,
                 SQE_ERR_INVALID_DATA,
                 "cannot parse 'abc' as integer in file '%s' line 2, column 'qty' (field 2)");
    /* line numbers count header lines */
    o.skip_header_lines = 2;
    expect_error("h1\nh2\n1,2,x.5,2024-01-01,true,1,1\n", cols, NULL, &o, SQE_ERR_INVALID_DATA,
                 "cannot parse 'x.5' as double in file '%s' line 3, column 'price' (field 3)");
    o.skip_header_lines = 0;
    expect_error("1,2,3,2024-13-01,true,1,1\n", cols, NULL, &o, SQE_ERR_INVALID_DATA,
                 "cannot parse '2024-13-01' as date in file '%s' line 1, column 'd' (field 4)");
    expect_error("1,2,3,2024-01-01,yes,1,1\n", cols, NULL, &o, SQE_ERR_INVALID_DATA,
                 "cannot parse 'yes' as boolean in file '%s' line 1, column 'ok' (field 5)");
    expect_error("1,2,3,2024-01-01,1,1,1\n", cols, NULL, &o, SQE_ERR_INVALID_DATA,
                 "cannot parse '1' as boolean in file '%s' line 1, column 'ok' (field 5)");
    expect_error("1,2,3,2024-01-01,true,300,1\n", cols, NULL, &o, SQE_ERR_INVALID_DATA,
                 "cannot parse '300' as tinyint in file '%s' line 1, column 't' (field 6)");
    expect_error(
        "1,2,3,2024-01-01,true,1,12345\n", cols, NULL, &o, SQE_ERR_INVALID_DATA,
        "cannot parse '12345' as decimal(4,1) in file '%s' line 1, column 'amt' (field 7)");
    expect_error("2147483648\n", cols, NULL, &o, SQE_ERR_INVALID_DATA,
                 "cannot parse '2147483648' as integer in file '%s' line 1, column 'id' (field 1)");
    expect_error(" 1\n", cols, NULL, &o, SQE_ERR_INVALID_DATA,
                 "cannot parse ' 1' as integer in file '%s' line 1, column 'id' (field 1)");
    expect_error("1\n\n\n1.5\n", "x bigint", NULL, &o, SQE_ERR_INVALID_DATA,
                 "cannot parse '1.5' as bigint in file '%s' line 4, column 'x' (field 1)");
    expect_error(
        "99999999999999999999\n", "x bigint", NULL, &o, SQE_ERR_INVALID_DATA,
        "cannot parse '99999999999999999999' as bigint in file '%s' line 1, column 'x' (field 1)");
    expect_error("x,2024-01-01 25:00:00\n", "a string; ts timestamp", NULL, &o,
                 SQE_ERR_INVALID_DATA,
                 "cannot parse '2024-01-01 25:00:00' as timestamp in file '%s' line 1, column 'ts' "
                 "(field 2)");
    expect_error("x,1,-40000\n", "a string; b real; c smallint", NULL, &o, SQE_ERR_INVALID_DATA,
                 "cannot parse '-40000' as smallint in file '%s' line 1, column 'c' (field 3)");
    /* long values are cut at 64 bytes */
    expect_error("0123456789012345678901234567890123456789012345678901234567890123456789\n",
                 "x int", NULL, &o, SQE_ERR_INVALID_DATA,
                 "cannot parse "
                 "'0123456789012345678901234567890123456789012345678901234567890123...' as integer "
                 "in file '%s' line 1, column 'x' (field 1)");
    /* the error comes from the projected column even when others are skipped */
    expect_error("a,b,c,zz\n", "a int; b int; c int; d int", "3", &o, SQE_ERR_INVALID_DATA,
                 "cannot parse 'zz' as integer in file '%s' line 1, column 'd' (field 4)");

    /* OpenCSV: value errors name the record's first line */
    sqe_text_options c = csv_opts();
    expect_error("\"a\nb\",1\n\"c\",x\n", "s string; n int", NULL, &c, SQE_ERR_INVALID_DATA,
                 "cannot parse 'x' as integer in file '%s' line 3, column 'n' (field 2)");
    expect_error("a,1\n\"open,2\nmore\n", "s string; n int", NULL, &c, SQE_ERR_INVALID_DATA,
                 "unterminated quoted field in file '%s' line 2");
    expect_error("\"", "s string", NULL, &c, SQE_ERR_INVALID_DATA,
                 "unterminated quoted field in file '%s' line 1");

    /* unsupported line delimiter */
    sqe_text_options bad = lazy_opts(',');
    bad.line_delim = ';';
    expect_error("1\n", "x int", NULL, &bad, SQE_ERR_NOT_SUPPORTED,
                 "cannot read '%s': line delimiter 0x3b is not supported, only '\\n'");

    /* missing file */
    scan_result r = scan("/nonexistent/sqe/file.csv", "x int", NULL, &o);
    CHECK(r.text == NULL);
    CHECK(r.err.cls == SQE_ERR_NOT_FOUND);
    CHECK_CONTAINS(r.err.msg, "/nonexistent/sqe/file.csv");
}

static void test_long_lines(void) {
    size_t saved_max = sqe_text_reader_max_line, saved_chunk = sqe_text_reader_chunk_size;
    sqe_text_reader_max_line = 100;
    sqe_text_reader_chunk_size = 16;
    sqe_text_options o = lazy_opts(',');
    char line[400];
    memset(line, 'x', sizeof line);
    /* a line just under the limit is fine */
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    sqe_strbuf_puts(&sb, "a\n");
    sqe_strbuf_append(&sb, line, 90);
    sqe_strbuf_puts(&sb, "\nb\n");
    char *path = write_file("long.txt", sb.data, sb.len);
    scan_result r = scan(path, "s string", NULL, &o);
    CHECK(r.n_rows == 3);
    CHECK(r.text != NULL);
    scan_free(&r);
    sqe_free(path);
    /* one longer than the limit fails naming file and line */
    sqe_strbuf_clear(&sb);
    sqe_strbuf_puts(&sb, "a\nb\n");
    sqe_strbuf_append(&sb, line, 300);
    sqe_strbuf_puts(&sb, "\nc\n");
    path = write_file("toolong.txt", sb.data, sb.len);
    r = scan(path, "s string", NULL, &o);
    CHECK(r.text == NULL);
    CHECK(r.err.cls == SQE_ERR_INVALID_DATA);
    char *want = sqe_asprintf("line 3 in file '%s' is longer than the limit of 100 bytes", path);
    CHECK_STR(r.err.msg, want);
    sqe_free(want);
    scan_free(&r);
    sqe_free(path);
    /* an OpenCSV quoted field running on past the limit */
    sqe_strbuf_clear(&sb);
    sqe_strbuf_puts(&sb, "a\n\"");
    for (int i = 0; i < 30; i++) sqe_strbuf_puts(&sb, "xxxxxxxx\n");
    sqe_strbuf_puts(&sb, "\"\n");
    path = write_file("longcsv.txt", sb.data, sb.len);
    sqe_text_options c = csv_opts();
    r = scan(path, "s string", NULL, &c);
    CHECK(r.text == NULL);
    CHECK(r.err.cls == SQE_ERR_INVALID_DATA);
    CHECK_CONTAINS(r.err.msg, "line 2 in file");
    scan_free(&r);
    sqe_free(path);
    /* regression (fuzz): a line between the limit and twice the limit, or a
     * too-long header line, fails whatever the chunk size, also when the
     * whole file arrives in one chunk; a 100-byte line is still fine */
    static const size_t chunks[] = {16, 60, 4096};
    for (size_t k = 0; k < SQE_ARRAY_LEN(chunks); k++) {
        sqe_text_reader_chunk_size = chunks[k];
        sqe_strbuf_clear(&sb);
        sqe_strbuf_puts(&sb, "a\n");
        sqe_strbuf_append(&sb, line, 100);
        sqe_strbuf_puts(&sb, "\nb\n");
        sqe_strbuf_append(&sb, line, 150);
        sqe_strbuf_puts(&sb, "\nc\n");
        path = write_file("between.txt", sb.data, sb.len);
        r = scan(path, "s string", NULL, &o);
        CHECK(r.text == NULL);
        want = sqe_asprintf("line 4 in file '%s' is longer than the limit of 100 bytes", path);
        CHECK_STR(r.err.msg, want);
        sqe_free(want);
        scan_free(&r);
        sqe_text_options h = o;
        h.skip_header_lines = 1;
        sqe_strbuf_clear(&sb);
        sqe_strbuf_append(&sb, line, 150);
        sqe_strbuf_puts(&sb, "\nb\n");
        sqe_free(path);
        path = write_file("longheader.txt", sb.data, sb.len);
        r = scan(path, "s string", NULL, &h);
        CHECK(r.text == NULL);
        want = sqe_asprintf("line 1 in file '%s' is longer than the limit of 100 bytes", path);
        CHECK_STR(r.err.msg, want);
        sqe_free(want);
        scan_free(&r);
        sqe_free(path);
    }
    sqe_text_reader_chunk_size = 16;
    sqe_strbuf_free(&sb);
    sqe_text_reader_max_line = saved_max;
    sqe_text_reader_chunk_size = saved_chunk;
}

/* Every chunk size from 1 to 40 over a file mixing every line shape must
 * give the same rows as one big chunk. */
static void test_chunk_boundaries(void) {
    const char *data = "h\n1,alpha,1.5\r\n22,\"quoted, with\nnewline\",2.25\n\n333,\\N,3\n"
                       "4444,a much longer string value than the chunk,4e1\r\n5,x,5\nfooter\n";
    char *path = write_file("chunks.txt", data, strlen(data));
    sqe_text_options o[2] = {lazy_opts(','), csv_opts()};
    for (int k = 0; k < 2; k++) {
        o[k].skip_header_lines = 1;
        o[k].skip_footer_lines = 1;
        const char *cols =
            k == 0 ? "n string; s string; t string; u string" : "n int; s string; d double";
        scan_result ref = scan(path, cols, NULL, &o[k]);
        CHECK(ref.text != NULL);
        size_t saved = sqe_text_reader_chunk_size;
        int mismatches = 0;
        for (size_t chunk = 1; chunk <= 40; chunk++) {
            sqe_text_reader_chunk_size = chunk;
            scan_result r = scan(path, cols, NULL, &o[k]);
            if (!r.text || !ref.text || strcmp(r.text, ref.text) != 0) {
                mismatches++;
                fprintf(stderr, "chunk %zu: %s\n", chunk, r.text ? r.text : r.err.msg);
            }
            scan_free(&r);
        }
        sqe_text_reader_chunk_size = saved;
        CHECK(mismatches == 0);
        if (k == 0)
            CHECK_STR(
                ref.text,
                "[1]|[alpha]|[1.5]|NULL\n[22]|[\"quoted]|[ "
                "with]|NULL\n[newline\"]|[2.25]|NULL|NULL\n"
                "[]|NULL|NULL|NULL\n[333]|NULL|[3]|NULL\n[4444]|[a much longer string value than "
                "the chunk]|[4e1]|NULL\n[5]|[x]|[5]|NULL\n");
        else
            CHECK_STR(ref.text,
                      "1|[alpha]|1.5\n22|[quoted, with\\nnewline]|2.25\nNULL|NULL|NULL\n333|[N]|3\n"
                      "4444|[a much longer string value than the chunk]|40\n5|[x]|5\n");
        scan_free(&ref);
    }
    sqe_free(path);
}

/* ------------------------------------------------------ byte ranges */

/* Scans [start, end) of path (end == 0 is rejected: use scan()). */
static scan_result scan_range(const char *path, uint64_t size, uint64_t start, uint64_t end,
                              const char *cols, const sqe_text_options *opt) {
    g_range_start = start;
    g_range_end = end;
    scan_result r = scan_size(path, size, cols, NULL, opt);
    g_range_start = g_range_end = 0;
    return r;
}

/* Concatenation of the scans of the ranges of [0, len) cut at cuts[0..n)
 * equals whole; size is what the reader is told (0: unknown). */
static bool ranges_match(const char *path, uint64_t size, uint64_t len, const uint64_t *cuts, int n,
                         const char *cols, const sqe_text_options *opt, const char *whole) {
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    uint64_t start = 0;
    bool ok = true;
    for (int i = 0; i <= n && ok; i++) {
        uint64_t end = i < n ? cuts[i] : len;
        if (end == 0) continue; /* end 0 would mean the whole file */
        scan_result r = scan_range(path, size, start, end, cols, opt);
        if (!r.text) {
            fprintf(stderr, "  range [%llu, %llu): %s\n", (unsigned long long)start,
                    (unsigned long long)end, r.err.msg);
            ok = false;
        } else {
            sqe_strbuf_puts(&sb, r.text);
        }
        scan_free(&r);
        start = end;
    }
    if (ok && strcmp(sb.data ? sb.data : "", whole) != 0) {
        fprintf(stderr, "  cuts at");
        for (int i = 0; i < n; i++) fprintf(stderr, " %llu", (unsigned long long)cuts[i]);
        fprintf(stderr, ": got\n%s", sb.data ? sb.data : "");
        ok = false;
    }
    sqe_strbuf_free(&sb);
    return ok;
}

/* A .gz file reads as its decompressed text, whatever the chunk size; a
 * value error names the decompressed line. Such a file is not splittable. */
static void test_compressed(void) {
    const char *text = "1,apple,2.5\n2,pear,-0.25\n\n3,fig,1e2";
    uint8_t gz[256];
    z_stream z;
    memset(&z, 0, sizeof z);
    deflateInit2(&z, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY);
    z.next_in = (uint8_t *)text;
    z.avail_in = (uInt)strlen(text);
    z.next_out = gz;
    z.avail_out = sizeof gz;
    deflate(&z, Z_FINISH);
    size_t n = sizeof gz - z.avail_out;
    deflateEnd(&z);
    char *path = write_file("t.csv.gz", (const char *)gz, n);
    sqe_text_options o = lazy_opts(',');
    size_t saved = sqe_text_reader_chunk_size;
    for (size_t chunk = 0; chunk <= 17; chunk++) {
        sqe_text_reader_chunk_size = chunk ? chunk : saved;
        scan_result r = scan(path, "id bigint; name string; price double", NULL, &o);
        if (!r.text) fprintf(stderr, "  scan error (chunk %zu): %s\n", chunk, r.err.msg);
        CHECK_STR(r.text, "1|[apple]|2.5\n2|[pear]|-0.25\nNULL|NULL|NULL\n3|[fig]|100\n");
        CHECK(r.stats.bytes_read == n);
        scan_free(&r);
        r = scan(path, "id bigint; name bigint", NULL, &o);
        CHECK(r.text == NULL);
        char *want = sqe_asprintf(
            "cannot parse 'apple' as bigint in file '%s' line 1, column 'name' (field 2)", path);
        CHECK_STR(r.err.msg, want);
        sqe_free(want);
        scan_free(&r);
    }
    sqe_text_reader_chunk_size = saved;
    sqe_reader_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.format = SQE_FORMAT_TEXT;
    spec.text = o;
    CHECK(!sqe_format_splittable(&spec, path));
    CHECK(!sqe_format_splittable(&spec, "/x/y.CSV.BZ2"));
    CHECK(!sqe_format_splittable(&spec, "/x/y.csv.xz"));
    CHECK(sqe_format_splittable(&spec, "/x/y.csv"));
    sqe_error err;
    CHECK(sqe_text_reader_open_range(g_store, path, n, 0, n, &spec, &err) == NULL);
    CHECK(err.cls == SQE_ERR_INTERNAL);
    /* a .lzo file is refused naming it */
    char *lzo = write_file("t.csv.lzo", "1,a\n", 4);
    scan_result r = scan(lzo, "id bigint", NULL, &o);
    CHECK(r.text == NULL && r.err.cls == SQE_ERR_NOT_SUPPORTED);
    CHECK_CONTAINS(r.err.msg, lzo);
    scan_free(&r);
    sqe_free(lzo);
    sqe_free(path);
}

static void test_byte_ranges(void) {
    sqe_text_options o = lazy_opts(',');
    const char *cols = "n bigint; s string";

    /* Splittability. */
    sqe_reader_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.format = SQE_FORMAT_TEXT;
    spec.text = o;
    CHECK(sqe_format_splittable(&spec, "/x/part-0.csv"));
    CHECK(!sqe_format_splittable(&spec, "/x/part-0.csv.gz"));
    spec.text.skip_header_lines = 1;
    CHECK(!sqe_format_splittable(&spec, NULL));
    spec.text = o;
    spec.text.skip_footer_lines = 1;
    CHECK(!sqe_format_splittable(&spec, NULL));
    spec.text = csv_opts();
    CHECK(!sqe_format_splittable(&spec, NULL));
    spec.format = SQE_FORMAT_PARQUET;
    CHECK(!sqe_format_splittable(&spec, NULL));

    /* CRLF, an empty line, a long line, a last line without '\n'. */
    const char *files[] = {
        "1,a\n22,bb\r\n\n333,ccc\n4444,a line longer than the smallest chunks\n5,e\r\n66,ff",
        "1,a\n2,b\n",
        "\n\n\n7,x\n\n",
        "9,no newline at all",
        /* CR-only and mixed line ends (issue 7 item 7) */
        "1,a\r22,bb\r\r333,ccc\r4444,a line longer than the smallest chunks\r5,e\r66,ff",
        "1,a\r\n2,b\r\r\n3,c\n\r4,d\r",
    };
    size_t saved = sqe_text_reader_chunk_size;
    for (size_t f = 0; f < SQE_ARRAY_LEN(files); f++) {
        const char *data = files[f];
        size_t len = strlen(data);
        char *path = write_file("ranges.txt", data, len);
        scan_result whole = scan(path, cols, NULL, &o);
        CHECK(whole.text != NULL);
        if (!whole.text) {
            sqe_free(path);
            continue;
        }
        int bad = 0;
        size_t chunks[] = {0, 1, 3, 7};
        for (size_t c = 0; c < SQE_ARRAY_LEN(chunks); c++) {
            sqe_text_reader_chunk_size = chunks[c] ? chunks[c] : saved;
            /* one cut anywhere */
            for (uint64_t a = 0; a <= len && bad < 3; a++)
                if (!ranges_match(path, len, len, &a, 1, cols, &o, whole.text)) bad++;
            /* two cuts anywhere (empty and one-byte ranges included) */
            for (uint64_t a = 1; a <= len && bad < 3; a++)
                for (uint64_t b = a; b <= len && bad < 3; b++) {
                    uint64_t cuts[2] = {a, b};
                    if (!ranges_match(path, len, len, cuts, 2, cols, &o, whole.text)) bad++;
                }
            /* equal splits of every size */
            for (uint64_t step = 1; step <= len && bad < 3; step++) {
                uint64_t cuts[128];
                int n = 0;
                for (uint64_t x = step; x < len && n < 128; x += step) cuts[n++] = x;
                if (!ranges_match(path, len, len, cuts, n, cols, &o, whole.text)) bad++;
            }
            /* size unknown (0: read until a short read) */
            uint64_t mid = len / 2;
            if (mid > 0 && !ranges_match(path, 0, len, &mid, 1, cols, &o, whole.text)) bad++;
        }
        sqe_text_reader_chunk_size = saved;
        CHECK(bad == 0);
        scan_free(&whole);
        sqe_free(path);
    }

    /* A range holding no line start reads nothing; one starting exactly on a
     * line start reads that line. */
    const char *data = "1,a\n22,bb\n333,ccc\n";
    char *path = write_file("ranges.txt", data, strlen(data));
    scan_result r = scan_range(path, strlen(data), 5, 8, cols, &o);
    CHECK_STR(r.text, "");
    scan_free(&r);
    r = scan_range(path, strlen(data), 4, 5, cols, &o);
    CHECK_STR(r.text, "22|[bb]\n");
    scan_free(&r);
    r = scan_range(path, strlen(data), 3, 4, cols, &o); /* byte 3 ends line 1 */
    CHECK_STR(r.text, "");
    scan_free(&r);
    r = scan_range(path, strlen(data), 0, 1, cols, &o);
    CHECK_STR(r.text, "1|[a]\n");
    scan_free(&r);
    sqe_free(path);

    /* Errors in a range name the line's byte offset. */
    data = "1,a\n2,b\nxy,c\n4,d\n";
    path = write_file("ranges_bad.txt", data, strlen(data));
    char *want = sqe_asprintf(
        "cannot parse 'xy' as bigint in file '%s' at byte offset 8, column 'n' (field 1)", path);
    for (size_t chunk = 0; chunk <= 5; chunk++) {
        sqe_text_reader_chunk_size = chunk ? chunk : saved;
        r = scan_range(path, strlen(data), 2, 9, cols, &o);
        CHECK(r.text == NULL);
        CHECK(r.err.cls == SQE_ERR_INVALID_DATA);
        CHECK_STR(r.err.msg, want);
        scan_free(&r);
        r = scan_range(path, strlen(data), 9, strlen(data), cols, &o);
        CHECK_STR(r.text, "4|[d]\n");
        scan_free(&r);
    }
    sqe_text_reader_chunk_size = saved;
    sqe_free(want);
    /* A CSV spec cannot be opened as a range. */
    sqe_text_options csv = csv_opts();
    r = scan_range(path, strlen(data), 0, 4, cols, &csv);
    CHECK(r.text == NULL && r.err.cls == SQE_ERR_INTERNAL);
    scan_free(&r);
    sqe_free(path);
}

/* ---------------------------------------------------------- throughput */

static double scan_mb_s(const char *path, uint64_t size, const char *cols, const char *proj,
                        const sqe_text_options *o, uint64_t *rows) {
    g_render = false;
    uint64_t t0 = sqe_clock_ns();
    scan_result r = scan_size(path, size, cols, proj, o);
    uint64_t t1 = sqe_clock_ns();
    g_render = true;
    *rows = r.n_rows;
    if (!r.text) fprintf(stderr, "throughput scan failed: %s\n", r.err.msg);
    scan_free(&r);
    return (double)size / (1024.0 * 1024.0) / ((double)(t1 - t0) / 1e9);
}

static void test_throughput(void) {
    const int n_lines = getenv("SQE_BENCH_LINES") ? atoi(getenv("SQE_BENCH_LINES")) : 1250000;
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    uint64_t x = 42;
    for (int i = 0; i < n_lines; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        sqe_strbuf_printf(&sb, "%d,%u,%u.%02u,%s,%012llx,%u\n", i, (unsigned)(x >> 40) % 100000,
                          (unsigned)(x >> 20) % 10000, (unsigned)(x >> 8) % 100,
                          (x >> 60) & 1 ? "SHIPPED" : "PENDING",
                          (unsigned long long)(x & 0xffffffffffffULL), (unsigned)(x >> 33) % 50);
    }
    char *path = write_file("bench.csv", sb.data, sb.len);
    const char *cols = "id bigint; qty bigint; price double; status string; hash string; n int";
    sqe_text_options lazy = lazy_opts(','), csv = csv_opts();
    uint64_t rows = 0;
    double a = scan_mb_s(path, sb.len, cols, "0,2", &lazy, &rows);
    CHECK(rows == (uint64_t)n_lines);
    double b = scan_mb_s(path, sb.len, cols, NULL, &lazy, &rows);
    double c = scan_mb_s(path, sb.len, cols, "", &lazy, &rows);
    double d = scan_mb_s(path, sb.len, cols, "0,2", &csv, &rows);
    CHECK(rows == (uint64_t)n_lines);
    double e = scan_mb_s(path, sb.len, cols, NULL, &csv, &rows);
    fprintf(stderr,
            "text reader throughput on %.1f MB (%d lines): lazy bigint+double %.0f MB/s, lazy all "
            "%.0f MB/s, "
            "lazy count %.0f MB/s, csv bigint+double %.0f MB/s, csv all %.0f MB/s\n",
            (double)sb.len / (1024.0 * 1024.0), n_lines, a, b, c, d, e);
    sqe_strbuf_free(&sb);
    unlink(path);
    sqe_free(path);
}

int main(void) {
    snprintf(g_dir, sizeof g_dir, "/tmp/sqe-test-text-XXXXXX");
    if (!mkdtemp(g_dir)) {
        perror("mkdtemp");
        return 1;
    }
    g_store = sqe_io_local_new();
    RUN(test_registry);
    RUN(test_delimiters);
    RUN(test_default_delim_one_column);
    RUN(test_null_format);
    RUN(test_escape);
    RUN(test_header_footer);
    RUN(test_lines);
    RUN(test_fields);
    RUN(test_types);
    RUN(test_projection);
    RUN(test_batches_and_stats);
    RUN(test_opencsv);
    RUN(test_errors);
    RUN(test_long_lines);
    RUN(test_chunk_boundaries);
    RUN(test_byte_ranges);
    RUN(test_compressed);
    RUN(test_throughput);
    sqe_store_free(g_store);
    char *cmd = sqe_asprintf("rm -rf '%s'", g_dir);
    if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", g_dir);
    sqe_free(cmd);
    return unit_report();
}
