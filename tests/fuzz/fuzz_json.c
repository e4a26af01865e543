/*
 * fuzz_json.c - the JSON lines reader (format/json_reader.c) and, through
 * it, the byte-stream decoders (format/byte_stream.c) on arbitrary bytes.
 *
 * Input layout: the first 5 bytes choose the options, the rest is the file.
 *   [0] bit 0 SerDe HCatalog | OpenX; bit 1 ignore.malformed.json; bit 2
 *       case-sensitive keys; bit 3 dots.in.keys; bit 4 mapping.c1 = "k.1"
 *       bits 5-7 the file: 0 .json as is; 1 gzip-compressed here and named
 *       .json.gz; 2..7 the raw bytes named .json.gz, .zst, .bz2, .lz4,
 *       .snappy, .br (the decoders see arbitrary input)
 *   [1] bits 0-5 chunk size 1..64 (bit 6 set: 4096), bit 7: read size 0
 *   [2] column layout: n_cols = 1 + [2] % 9, column i (named c<i>) has type
 *       k_types[(i + [2] / 9) % 9]
 *   [3] projection: bit i projects column i; bit 7 projects column 0 twice
 *   [4] bits 0-1 read an uncompressed file also as 2..5 byte ranges, bits
 *       2-5 shift the cuts by -8..7 bytes times i; bit 6: max line 64 bytes
 * Checks besides "no crash": an uncompressed file read in one chunk gives
 * the same rows and error (for raw bytes under a codec's name only the same
 * error class: a decoder error may surface before or after a bad value in
 * the lines decoded so far, depending on how far a refill reads); byte
 * ranges give the same rows or fail where one reader fails; every call
 * returns rows or eof, eof is sticky, rows_read agrees, no more rows than
 * lines, VARCHAR(5) holds at most 5 characters.
 */
#include <zlib.h>

#include "format/format.h"
#include "fuzz_common.h"

#define N_TYPES 9
#define MAX_COLS 9

static const char *const k_types[N_TYPES] = {
    "bigint",    "int",     "double",     "decimal(10,2)", "date",
    "timestamp", "boolean", "varchar(5)", "string",
};
static const char *const k_names[MAX_COLS] = {"c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8"};
static const char *const k_exts[8] = {".json",     ".json.gz",  ".json.gz",     ".json.zst",
                                      ".json.bz2", ".json.lz4", ".json.snappy", ".json.br"};

static size_t utf8_chars(const char *p, size_t n) {
    size_t c = 0;
    for (size_t i = 0; i < n; i++) c += ((uint8_t)p[i] & 0xC0) != 0x80;
    return c;
}

static void render_batch(const sqe_batch *b, int n_proj, sqe_strbuf *sb) {
    for (uint32_t r = 0; r < b->n_rows; r++) {
        for (int c = 0; c < n_proj; c++) {
            const sqe_vector *v = b->cols[c];
            sqe_strbuf_putc(sb, c ? '|' : '\n');
            if (sqe_vector_is_null(v, r)) {
                sqe_strbuf_puts(sb, "NULL");
                continue;
            }
            sqe_value val;
            sqe_vector_get_value(v, r, &val);
            if (v->type.id == SQE_T_VARCHAR) {
                const sqe_string *s = &SQE_VEC_DATA(v, sqe_string)[r];
                if (v->type.length && v->type.str_kind != SQE_STRKIND_STRING &&
                    utf8_chars(sqe_string_data(s), s->len) > v->type.length)
                    fuzz_fail("VARCHAR(n) value longer than n characters", NULL);
            }
            sqe_value_format(&val, sb);
        }
    }
}

static char *scan(sqe_store *store, const char *path, uint64_t size, size_t file_len,
                  const sqe_reader_spec *spec, const sqe_type *proj_types, size_t chunk,
                  size_t max_line, uint64_t *n_rows, bool range, uint64_t start, uint64_t end,
                  bool error_only) {
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    sqe_error err;
    sqe_error_clear(&err);
    *n_rows = 0;
    const sqe_reader_vtable *vt = sqe_format_reader_for(SQE_FORMAT_JSON, &err);
    if (!vt) fuzz_fail("no JSON reader", err.msg);
    size_t saved_chunk = sqe_text_reader_chunk_size, saved_max = sqe_text_reader_max_line;
    sqe_text_reader_chunk_size = chunk;
    sqe_text_reader_max_line = max_line;
    sqe_reader *r = range ? sqe_format_open_range(vt, store, path, file_len, start, end, spec, &err)
                          : vt->open(store, path, size, spec, &err);
    sqe_text_reader_chunk_size = saved_chunk;
    sqe_text_reader_max_line = saved_max;
    if (!r) {
        if (err.cls == SQE_OK) fuzz_fail("open failed without an error", NULL);
        sqe_strbuf_printf(&sb, "\nopen error: %s", err.msg);
        return sqe_strbuf_detach(&sb);
    }
    sqe_batch *b = sqe_batch_new(spec->n_proj, proj_types);
    sqe_strbuf rows_sb;
    sqe_strbuf_init(&rows_sb);
    uint64_t rows = 0;
    for (size_t calls = 0;; calls++) {
        /* decompressed data may be much larger than the file: bound calls
         * by the rows a call must produce instead */
        if (calls > file_len * 1100 + 2) fuzz_fail("JSON reader makes no progress", NULL);
        sqe_batch_reset(b);
        bool eof = false;
        sqe_error_clear(&err);
        if (!vt->next(r, b, &eof, &err)) {
            if (err.cls == SQE_OK || !err.msg[0]) fuzz_fail("next failed without an error", NULL);
            sqe_strbuf_printf(&sb, "\nerror %d: %s", (int)err.cls, error_only ? "" : err.msg);
            break;
        }
        if (b->n_rows > SQE_BATCH_ROWS) fuzz_fail("batch overflow", NULL);
        if (b->n_rows == 0 && !eof) fuzz_fail("next returned no rows and no eof", NULL);
        render_batch(b, spec->n_proj, &rows_sb);
        rows += b->n_rows;
        if (eof) {
            if (b->n_rows) fuzz_fail("eof with rows", NULL);
            sqe_batch_reset(b);
            if (!vt->next(r, b, &eof, &err) || !eof || b->n_rows)
                fuzz_fail("next after eof did not report eof again", err.msg);
            break;
        }
        if (rows_sb.len > ((size_t)64 << 20)) break; /* a decompression bomb: enough checked */
    }
    if (r->stats.rows_read != rows) fuzz_fail("stats.rows_read disagrees", NULL);
    *n_rows = rows;
    vt->close(r);
    sqe_batch_free(b);
    if (!error_only) {
        sqe_strbuf_append(&rows_sb, sb.data ? sb.data : "", sb.len);
        sqe_strbuf_free(&sb);
        return sqe_strbuf_detach(&rows_sb);
    }
    sqe_strbuf_free(&rows_sb);
    return sqe_strbuf_detach(&sb);
}

static void gzip_into(const uint8_t *src, size_t n, uint8_t **out, size_t *out_len) {
    z_stream z;
    memset(&z, 0, sizeof z);
    deflateInit2(&z, 1, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY);
    size_t cap = deflateBound(&z, n) + 64;
    *out = sqe_malloc(cap);
    z.next_in = (uint8_t *)src;
    z.avail_in = (uInt)n;
    z.next_out = *out;
    z.avail_out = (uInt)cap;
    deflate(&z, Z_FINISH);
    *out_len = cap - z.avail_out;
    deflateEnd(&z);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 5 || size > 256 * 1024) return 0;
    const uint8_t o0 = data[0], o1 = data[1], o2 = data[2], o3 = data[3], o4 = data[4];
    const uint8_t *file = data + 5;
    size_t file_len = size - 5;
    int mode = o0 >> 5;

    sqe_json_options opt;
    memset(&opt, 0, sizeof opt);
    opt.serde = (o0 & 1) ? SQE_JSON_SERDE_OPENX : SQE_JSON_SERDE_HCAT;
    opt.ignore_malformed = (o0 & 2) != 0;
    opt.case_sensitive = (o0 & 4) != 0;
    opt.dots_in_keys = (o0 & 8) != 0;
    static const char *const map_cols[1] = {"c1"}, *const map_keys[1] = {"k.1"};
    if (o0 & 16) {
        opt.n_mappings = 1;
        opt.mapping_cols = map_cols;
        opt.mapping_keys = map_keys;
    }
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
    spec.format = SQE_FORMAT_JSON;
    spec.n_table_cols = n_cols;
    spec.col_names = k_names;
    spec.col_types = types;
    spec.n_proj = n_proj;
    spec.proj = proj;
    spec.json = opt;

    char path[64];
    snprintf(path, sizeof path, "/t/part-0%s", k_exts[mode]);
    const uint8_t *stored = file;
    size_t stored_len = file_len;
    uint8_t *gz = NULL;
    if (mode == 1) {
        gzip_into(file, file_len, &gz, &stored_len);
        stored = gz;
    }
    mem_store *ms = mem_store_new();
    sqe_error err;
    sqe_error_clear(&err);
    if (!mem_put(&ms->base, path, stored, stored_len, &err)) fuzz_fail("mem_put", err.msg);

    size_t chunk = (o1 & 0x40) ? 4096 : 1 + (o1 & 63);
    size_t max_line = (o4 & 0x40) ? 64 : (size_t)1 << 20;
    uint64_t read_size = (o1 & 0x80) ? 0 : stored_len;
    bool raw_codec = mode >= 2;
    uint64_t rows, ref_rows;
    char *got = scan(&ms->base, path, read_size, stored_len, &spec, proj_types, chunk, max_line,
                     &rows, false, 0, 0, raw_codec);
    if (mode <= 1) {
        uint64_t lines = 1;
        for (size_t i = 0; i < file_len; i++) lines += file[i] == '\n';
        if (rows > lines) fuzz_fail("more rows than lines", NULL);
    }
    /* one chunk: the whole file (a smaller buffer than a fixed 1 MiB keeps
     * the harness fast; decompressed input may still take several) */
    size_t one_chunk = mode == 0 ? file_len + 1 : (size_t)1 << 20;
    char *ref = scan(&ms->base, path, stored_len, stored_len, &spec, proj_types, one_chunk,
                     max_line, &ref_rows, false, 0, 0, raw_codec);
    if (strcmp(got, ref) != 0) {
        char *detail = sqe_asprintf("chunk %zu, size %llu:%s\n-- one chunk:%s", chunk,
                                    (unsigned long long)read_size, got, ref);
        fuzz_fail("chunk size changes what the JSON reader returns", detail);
    }
    sqe_free(ref);
    if (mode == 0 && sqe_format_splittable(&spec, path)) {
        int n_ranges = 2 + (o4 & 3);
        int jitter = (int)((o4 >> 2) & 15) - 8;
        sqe_strbuf all;
        sqe_strbuf_init(&all);
        bool failed = false;
        uint64_t prev = 0;
        for (int i = 1; i <= n_ranges && !failed; i++) {
            int64_t cut = i == n_ranges
                              ? (int64_t)file_len
                              : (int64_t)(file_len * (size_t)i / (size_t)n_ranges) + jitter * i;
            uint64_t end = cut < (int64_t)prev       ? prev
                           : cut > (int64_t)file_len ? file_len
                                                     : (uint64_t)cut;
            uint64_t nr;
            char *part = scan(&ms->base, path, file_len, file_len, &spec, proj_types, chunk,
                              max_line, &nr, true, prev, end, false);
            failed = strstr(part, "\nerror ") != NULL || strstr(part, "\nopen error") != NULL;
            if (!failed) sqe_strbuf_puts(&all, part);
            sqe_free(part);
            prev = end;
        }
        bool whole_failed = strstr(got, "\nerror ") != NULL;
        if (failed != whole_failed || (!failed && strcmp(all.data ? all.data : "", got) != 0)) {
            char *detail = sqe_asprintf("%d ranges, jitter %d, chunk %zu:%s\n-- one reader:%s",
                                        n_ranges, jitter, chunk, all.data ? all.data : "", got);
            fuzz_fail("byte ranges read differently from one reader", detail);
        }
        sqe_strbuf_free(&all);
    }
    sqe_free(got);
    sqe_free(gz);
    sqe_store_free(&ms->base);
    return 0;
}
