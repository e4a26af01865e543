/*
 * fuzz_text_reader.c - the text reader (LazySimpleSerDe, OpenCSVSerde) on
 * arbitrary file contents.
 *
 * Input layout: the first 5 bytes choose the options, the rest is the file.
 *   [0] bits 0-1 SerDe: LazySimple ',' | LazySimple '\001' | LazySimple ','
 *                with escape '\\' | OpenCSV
 *       bits 2-3 null format: default | "" | "NULL" | "\\N"
 *       bits 4-5 skip.header.line.count 0..3, bits 6-7 footer 0..3
 *   [1] bits 0-5 chunk size 1..64 (bit 6 set: 4096), bit 7: read size 0
 *       ("until a short read") instead of the object's size
 *   [2] column layout: n_cols = 1 + [2] % 9, column i has type
 *       k_types[(i + [2] / 9) % 9]
 *   [3] projection: bit i projects column i (0: no column, a count(*));
 *       bit 7 also projects column 0 a second time
 *   [4] bits 0-1 OpenCSV quote '"' | '\'' | none | '"'; bits 2-3 escape
 *       '\\' | none | '"' | '\\'; bits 4-5 separator ',' | ';' | '\t' | ',';
 *       bit 6: max line length 64 bytes instead of 1 MiB. For a splittable
 *       file (LazySimple, no header/footer): bits 0-1 read it also as 2..5
 *       byte ranges, bits 2-5 shift the cuts by -8..7 bytes times i
 * The file is read from an in-memory store through the format registry's
 * vtable, and again in one chunk: both readings must give the same rows and
 * the same error (chunk boundaries must not show); a splittable file is
 * also read as consecutive byte ranges (sqe_format_open_range), which must
 * give the same rows, or fail where one reader fails. Errors (INVALID_DATA and
 * friends) are fine; crashes, sanitizer reports, leaks, hangs and broken
 * reader contracts (a call returning no rows without eof, VARCHAR(5) longer
 * than 5 characters, more rows than lines) are bugs.
 */
#include "format/format.h"
#include "fuzz_common.h"

#define N_TYPES 9
#define MAX_COLS 9

static const char *const k_types[N_TYPES] = {
    "bigint",    "int",     "double",     "decimal(10,2)", "date",
    "timestamp", "boolean", "varchar(5)", "string",
};

static const char *const k_names[MAX_COLS] = {"c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8"};

static size_t utf8_chars(const char *p, size_t n) {
    size_t c = 0;
    for (size_t i = 0; i < n; i++) c += ((uint8_t)p[i] & 0xC0) != 0x80;
    return c;
}

/* Appends a rendering of the batch's rows to sb (every value read, string
 * bytes included) and checks what the reader promises about them. */
static void render_batch(const sqe_batch *b, int n_proj, sqe_strbuf *sb) {
    char buf[64];
    for (uint32_t r = 0; r < b->n_rows; r++) {
        for (int c = 0; c < n_proj; c++) {
            const sqe_vector *v = b->cols[c];
            sqe_strbuf_putc(sb, c ? '|' : '\n');
            if (sqe_vector_is_null(v, r)) {
                sqe_strbuf_puts(sb, "NULL");
                continue;
            }
            switch (v->type.id) {
            case SQE_T_BOOLEAN:
                sqe_strbuf_printf(sb, "%d", SQE_VEC_DATA(v, uint8_t)[r]);
                break;
            case SQE_T_INTEGER:
                sqe_strbuf_printf(sb, "%d", SQE_VEC_DATA(v, int32_t)[r]);
                break;
            case SQE_T_BIGINT:
            case SQE_T_TIMESTAMP:
                sqe_strbuf_printf(sb, "%lld", (long long)SQE_VEC_DATA(v, int64_t)[r]);
                break;
            case SQE_T_DATE:
                sqe_strbuf_printf(sb, "%d", SQE_VEC_DATA(v, int32_t)[r]);
                break;
            case SQE_T_DOUBLE:
                sqe_strbuf_printf(sb, "%.17g", SQE_VEC_DATA(v, double)[r]);
                break;
            case SQE_T_DECIMAL:
                sqe_decimal_format(SQE_VEC_DATA(v, sqe_i128)[r], v->type.scale, buf, sizeof buf);
                sqe_strbuf_puts(sb, buf);
                break;
            case SQE_T_VARCHAR: {
                const sqe_string *str = &SQE_VEC_DATA(v, sqe_string)[r];
                const char *p = sqe_string_data(str);
                sqe_strbuf_printf(sb, "[%u:", str->len);
                for (uint32_t i = 0; i < str->len; i++) { /* no NUL in the rendering */
                    uint8_t ch = (uint8_t)p[i];
                    if (ch < 0x20 || ch >= 0x7f || ch == '\\')
                        sqe_strbuf_printf(sb, "\\x%02x", ch);
                    else
                        sqe_strbuf_putc(sb, (char)ch);
                }
                sqe_strbuf_putc(sb, ']');
                if (v->type.length && v->type.str_kind != SQE_STRKIND_STRING &&
                    utf8_chars(p, str->len) > v->type.length)
                    fuzz_fail("VARCHAR(n) value longer than n characters", NULL);
                break;
            }
            default:
                fuzz_fail("unexpected vector type", NULL);
            }
        }
    }
}

/* Scans the file (or, with `range`, the byte range [start, end) of it)
 * with the given chunk size and max line, rendering every row and the
 * final error (if any; with class_only only its class); returns the rendering (malloc'd) and the
 * row count in *n_rows. */
static char *scan(sqe_store *store, uint64_t size, size_t file_len, const sqe_reader_spec *spec,
                  const sqe_type *proj_types, size_t chunk, size_t max_line, uint64_t *n_rows,
                  bool range, uint64_t start, uint64_t end, bool class_only) {
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    sqe_error err;
    sqe_error_clear(&err);
    *n_rows = 0;
    const sqe_reader_vtable *vt = sqe_format_reader_for(SQE_FORMAT_TEXT, &err);
    if (!vt) fuzz_fail("no text reader", err.msg);
    size_t saved_chunk = sqe_text_reader_chunk_size, saved_max = sqe_text_reader_max_line;
    sqe_text_reader_chunk_size = chunk;
    sqe_text_reader_max_line = max_line;
    sqe_reader *r =
        range ? sqe_format_open_range(vt, store, "/t/part-0.csv", file_len, start, end, spec, &err)
              : vt->open(store, "/t/part-0.csv", size, spec, &err);
    sqe_text_reader_chunk_size = saved_chunk;
    sqe_text_reader_max_line = saved_max;
    if (!r) {
        if (err.cls == SQE_OK) fuzz_fail("open failed without an error", NULL);
        sqe_strbuf_printf(&sb, "\nopen error: %s", err.msg);
        return sqe_strbuf_detach(&sb);
    }
    sqe_batch *b = sqe_batch_new(spec->n_proj, proj_types);
    uint64_t rows = 0;
    /* every call makes progress: at most one batch per input byte, plus eof */
    for (size_t calls = 0;; calls++) {
        if (calls > file_len + 2) fuzz_fail("text reader makes no progress", NULL);
        sqe_batch_reset(b);
        bool eof = false;
        sqe_error_clear(&err);
        if (!vt->next(r, b, &eof, &err)) {
            if (err.cls == SQE_OK || !err.msg[0]) fuzz_fail("next failed without an error", NULL);
            sqe_strbuf_printf(&sb, "\nerror %d: %s", (int)err.cls, class_only ? "" : err.msg);
            break;
        }
        if (b->n_rows > SQE_BATCH_ROWS) fuzz_fail("batch overflow", NULL);
        if (b->n_rows == 0 && !eof) fuzz_fail("next returned no rows and no eof", NULL);
        render_batch(b, spec->n_proj, &sb);
        rows += b->n_rows;
        if (eof) {
            if (b->n_rows) fuzz_fail("eof with rows", NULL);
            /* eof is sticky */
            sqe_batch_reset(b);
            if (!vt->next(r, b, &eof, &err) || !eof || b->n_rows)
                fuzz_fail("next after eof did not report eof again", err.msg);
            break;
        }
    }
    if (r->stats.rows_read != rows) fuzz_fail("stats.rows_read disagrees", NULL);
    *n_rows = rows;
    vt->close(r);
    sqe_batch_free(b);
    return sqe_strbuf_detach(&sb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 5 || size > 256 * 1024) return 0;
    const uint8_t o0 = data[0], o1 = data[1], o2 = data[2], o3 = data[3], o4 = data[4];
    const uint8_t *file = data + 5;
    size_t file_len = size - 5;

    sqe_text_options opt;
    memset(&opt, 0, sizeof opt);
    opt.line_delim = '\n';
    switch (o0 & 3) {
    case 0:
        opt.serde = SQE_SERDE_LAZY_SIMPLE;
        opt.field_delim = ',';
        break;
    case 1:
        opt.serde = SQE_SERDE_LAZY_SIMPLE;
        opt.field_delim = '\001';
        break;
    case 2:
        opt.serde = SQE_SERDE_LAZY_SIMPLE;
        opt.field_delim = ',';
        opt.escape_char = '\\';
        break;
    default: {
        static const char quotes[4] = {'"', '\'', 0, '"'};
        static const char escapes[4] = {'\\', 0, '"', '\\'};
        static const char seps[4] = {',', ';', '\t', ','};
        opt.serde = SQE_SERDE_OPEN_CSV;
        opt.quote_char = quotes[o4 & 3];
        opt.escape_char = escapes[(o4 >> 2) & 3];
        opt.field_delim = seps[(o4 >> 4) & 3];
        break;
    }
    }
    static const char *const nulls[4] = {NULL, "", "NULL", "\\N"};
    opt.null_format = nulls[(o0 >> 2) & 3];
    opt.skip_header_lines = (o0 >> 4) & 3;
    opt.skip_footer_lines = (o0 >> 6) & 3;

    int n_cols = 1 + o2 % MAX_COLS;
    sqe_type types[MAX_COLS];
    for (int i = 0; i < n_cols; i++) {
        sqe_error terr;
        if (!sqe_type_parse(k_types[(i + o2 / MAX_COLS) % N_TYPES], &types[i], &terr))
            fuzz_fail("type table", terr.msg);
    }
    int proj[MAX_COLS + 1], n_proj = 0;
    for (int i = 0; i < n_cols && i < 7; i++)
        if (o3 & (1u << i)) proj[n_proj++] = i;
    if (o3 & 0x80) proj[n_proj++] = 0;
    sqe_type proj_types[MAX_COLS + 1];
    for (int i = 0; i < n_proj; i++) proj_types[i] = types[proj[i]];

    sqe_reader_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.format = SQE_FORMAT_TEXT;
    spec.n_table_cols = n_cols;
    spec.col_names = k_names;
    spec.col_types = types;
    spec.n_proj = n_proj;
    spec.proj = proj;
    spec.text = opt;

    mem_store *ms = mem_store_new();
    sqe_error err;
    sqe_error_clear(&err);
    if (!mem_put(&ms->base, "/t/part-0.csv", file, file_len, &err)) fuzz_fail("mem_put", err.msg);

    size_t chunk = (o1 & 0x40) ? 4096 : 1 + (o1 & 63);
    size_t max_line = (o4 & 0x40) ? 64 : (size_t)1 << 20;
    uint64_t read_size = (o1 & 0x80) ? 0 : file_len;
    uint64_t rows, ref_rows;
    /* An OpenCSV record longer than the limit fails as too long or with the
     * first bad value in it, depending on how much of it a refill has seen
     * (a multi-line record's length is known only once it is decoded); the
     * class is the same, so only the class is compared there. */
    bool class_only = opt.serde == SQE_SERDE_OPEN_CSV && max_line <= file_len;
    char *got = scan(&ms->base, read_size, file_len, &spec, proj_types, chunk, max_line, &rows,
                     false, 0, 0, class_only);
    /* one row per line at most (lines = newlines + 1) */
    uint64_t lines = 1;
    for (size_t i = 0; i < file_len; i++) lines += file[i] == '\n';
    if (rows > lines) fuzz_fail("more rows than lines", NULL);
    /* Chunking must not change the answer: the same file read in one chunk
     * gives the same rows and the same error, also when a line is longer
     * than the limit. (Except the footer lookahead, whose size a refill
     * bounds, so one big chunk never trips it.) */
    if (max_line > file_len || opt.skip_footer_lines == 0) {
        char *ref = scan(&ms->base, file_len, file_len, &spec, proj_types, (size_t)1 << 20,
                         max_line, &ref_rows, false, 0, 0, class_only);
        if (strcmp(got, ref) != 0) {
            char *detail = sqe_asprintf("chunk %zu, size %llu:%s\n-- one chunk:%s", chunk,
                                        (unsigned long long)read_size, got, ref);
            fuzz_fail("chunk size changes what the text reader returns", detail);
        }
        sqe_free(ref);
    }
    /* A splittable file read as consecutive byte ranges gives the same rows
     * as one reader (each line belongs to exactly one range), and fails
     * where one reader fails (the messages differ: byte offsets). */
    if (sqe_format_splittable(&spec, "/t/part-0.csv")) {
        int n_ranges = 2 + (o4 & 3);
        int jitter = (int)((o4 >> 2) & 15) - 8;
        sqe_strbuf all;
        sqe_strbuf_init(&all);
        bool failed = false;
        uint64_t prev = 0, range_rows = 0;
        for (int i = 1; i <= n_ranges && !failed; i++) {
            int64_t cut = i == n_ranges
                              ? (int64_t)file_len
                              : (int64_t)(file_len * (size_t)i / (size_t)n_ranges) + jitter * i;
            uint64_t end = cut < (int64_t)prev       ? prev
                           : cut > (int64_t)file_len ? file_len
                                                     : (uint64_t)cut;
            uint64_t nr;
            char *part = scan(&ms->base, file_len, file_len, &spec, proj_types, chunk, max_line,
                              &nr, true, prev, end, false);
            failed = strstr(part, "\nerror ") != NULL || strstr(part, "\nopen error") != NULL;
            if (!failed) sqe_strbuf_puts(&all, part);
            range_rows += nr;
            sqe_free(part);
            prev = end;
        }
        bool whole_failed = strstr(got, "\nerror ") != NULL;
        if (failed != whole_failed || (!failed && strcmp(all.data ? all.data : "", got) != 0)) {
            char *detail = sqe_asprintf("%d ranges, jitter %d, chunk %zu:%s\n-- one reader:%s",
                                        n_ranges, jitter, chunk, all.data ? all.data : "", got);
            fuzz_fail("byte ranges read differently from one reader", detail);
        }
        (void)range_rows;
        sqe_strbuf_free(&all);
    }
    sqe_free(got);
    sqe_store_free(&ms->base);
    return 0;
}
