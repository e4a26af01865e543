/*
 * text_reader.c - delimited text files: Hive's LazySimpleSerDe (ROW FORMAT
 * DELIMITED) and OpenCSVSerde, decoded straight into column vectors.
 *
 * Where it sits: exec/'s scan opens one reader per file through the format
 * registry; `next` fills a batch of up to SQE_BATCH_ROWS rows holding only
 * the projected columns. This is the hot path of CSV scans, so the inner
 * loops work on raw bytes in one large buffer and touch nothing per field
 * beyond a delimiter search and a switch on the column type.
 *
 * Buffer. The file is read through the store's get_range in chunks of
 * sqe_text_reader_chunk_size (4 MiB). buf[pos, len) holds bytes not consumed
 * yet; buf[pos, limit) is the "region": whole physical lines that are safe to
 * decode, i.e. every line in it ends with '\n' (except the file's last line
 * at EOF) and, with skip.footer.line.count = M, is followed by at least M
 * more lines. When the region is used up, refill() moves the unconsumed tail
 * to the front, appends the next chunk and recomputes the limit by searching
 * backwards for newlines (memrchr). A line longer than
 * sqe_text_reader_max_line (64 MiB) fails instead of growing the buffer
 * further, so memory stays bounded.
 *
 * Lines. As Hadoop's LineReader (Hive, Athena): LF, CR or CRLF ends a line
 * (issue 7 item 7: "1,a\r2,b\r" is two rows). While no '\r' has been read
 * the reader searches for '\n' only (memchr, the fast path); refill() checks
 * each new chunk for a '\r' (one memchr pass) and from the first one on
 * the reader finds line ends with find_eol (LF or CR, eight bytes a step)
 * and treats CRLF as one. The region then never ends with a '\r' before
 * EOF (a '\n' may follow in the next chunk). A range reader needs no
 * agreement on the mode: whether a line starts at x depends only on bytes
 * x-1 and x (after LF; after CR unless x is LF), so ranges agree on line
 * starts whatever each has read. OpenCSV: LF, CR and CRLF end a record
 * outside quotes; inside quotes each becomes one '\n' (opencsv joins the
 * lines it read with readLine). The last line may lack its terminator; the
 * empty string after a final one is not a line. A UTF-8 BOM at the file's
 * first byte is skipped (not in a range starting later). Line numbers count
 * physical lines from 1, header lines included. The first N lines
 * (skip.header.line.count) are skipped, the last M dropped.
 *
 * LazySimpleSerDe. Fields are split on field_delim with find_byte (eight
 * bytes per step in a register, memchr for long fields; the buffer keeps
 * BUF_PAD readable bytes after its end for this); with an escape char a byte
 * loop instead, the escape making the next byte literal (and being removed). A field equal to
 * null_format (raw bytes, before unescaping, as Hive compares) is NULL. Only fields up to the last
 * projected one are looked at.
 *
 * OpenCSVSerde (opencsv 2.3 as Hive uses it). A record may span lines when a
 * quoted field holds a newline. Unquoted fields without quote/escape bytes
 * are used in place; anything else runs the state machine in
 * csv_field_slow(). When a quoted field runs past the region before EOF the
 * record is decoded again after a refill; at EOF it is an unterminated quote.
 *
 * Byte ranges (sqe_text_reader_open_range, LazySimple only). Reading starts
 * at start - 1 and skips through the first line end; only lines starting before
 * range_end are decoded, the last one read to its end. Errors then name the
 * line's byte offset (line_start) instead of its number.
 *
 * Compressed files (SPEC §4.5: .gz, .bz2, .zst, .lz4, .snappy, .deflate,
 * .br by name, sqe_codec_for_path) are read through an sqe_byte_stream that
 * decompresses into the same buffer, so everything above works on the
 * decompressed bytes and line numbers are lines of the decompressed text.
 * Such files are never split; `size` then bounds the compressed bytes. A
 * .xz or .lzo file is refused by the stream (NOT_SUPPORTED), never read as
 * text.
 * Uncompressed files keep calling get_range directly (no extra copy) on
 * local disk; on a remote store (readplan options with max_in_flight > 0)
 * they go through an sqe_seqread, which fetches the next chunks while this
 * one is decoded (one memcpy per chunk). The read that reaches the listed
 * size asks for one byte more, which replaces a separate 1-byte request to
 * see that the file did not grow.
 *
 * Listed size. A non-zero `size` is what the listing saw: a file that ends
 * before it, or still has bytes at it when it is reached, changed during
 * the scan and fails with INVALID_DATA naming it (check_listed_size; the
 * byte stream does the same for compressed files). 0 = read to a short
 * read (callers that never listed the file).
 *
 * Values. Empty field: empty string for VARCHAR/VARBINARY, NULL otherwise.
 * Numbers, dates, timestamps and booleans parse with types.h; a value that
 * does not parse fails the scan with INVALID_DATA naming the file, line,
 * column, field and value (SPEC §4.2; Hive would give NULL). VARCHAR(n) and
 * CHAR(n) keep at most n characters (UTF-8); CHAR(n) is padded with spaces
 * to n characters, as CAST pads it (Trino's CHAR; an empty field too).
 */
#include "format/codec.h"
#include "format/format.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

size_t sqe_text_reader_chunk_size = (size_t)4 << 20;
size_t sqe_text_reader_max_line = (size_t)64 << 20;

#define VALUE_SHOWN_MAX 64

typedef struct text_slot {
    sqe_vector *v;   /* the batch vector being filled (set per next) */
    uint8_t type_id; /* sqe_type_id */
    uint8_t precision, scale;
    uint32_t max_chars; /* VARCHAR(n)/CHAR(n): n; 0 = unbounded */
    bool is_char;       /* CHAR(n): padded to max_chars with spaces */
    char *pad;          /* CHAR(n): the padded value (owned) */
    size_t pad_cap;
    int field;      /* 0-based field index (= table column index) */
    int next_dup;   /* another slot reading the same field, or -1 */
    char *col_name; /* owned */
    sqe_type type;
} text_slot;

typedef struct text_reader {
    sqe_reader base;
    sqe_store *store;     /* borrowed: outlives the reader */
    char *path;           /* owned copy, as the caller spelled it */
    uint64_t size;        /* bytes to read; 0 = until a short read */
    sqe_byte_stream *bs;  /* compressed file: decompressed bytes come from here */
    sqe_readplan_opts io; /* read-ahead (a remote store: io.max_in_flight > 0) */
    sqe_seqread *seq;     /* plain file on a remote store: chunks read ahead */

    bool csv;
    char delim, escape, quote;
    bool has_null_format;
    char *null_format; /* owned */
    size_t null_len;

    int n_slots;
    text_slot *slots;
    int n_fields_needed; /* last projected field + 1 */
    int *field_slot;     /* [n_fields_needed]: first slot of each field or -1 */

    char *buf;
    size_t cap, len, pos, limit;
    size_t chunk, max_line;
    uint64_t file_off;
    bool file_eof;
    uint64_t line_no; /* physical line number of the line at pos */
    uint32_t header_left;
    uint32_t footer;

    /* Byte range (sqe_text_reader_open_range): lines starting in
     * [file_off at open + skip, range_end); errors give byte offsets. */
    bool split;
    bool skip_partial; /* drop bytes up to and including the first line end */
    bool cr_seen;      /* a '\r' was read: line ends are LF, CR or CRLF (see below) */
    bool bom_pending;  /* at the file's first byte: a UTF-8 BOM there is skipped */
    uint64_t range_end;
    const char *line_start; /* LazySimple: the line being decoded (error offsets) */

    uint8_t csv_special[256]; /* bytes that end the OpenCSV fast path */
    char *scratch;            /* unescaped/unquoted field value */
    size_t scratch_len, scratch_cap;
} text_reader;

/* ------------------------------------------------------------- errors */

static const char *type_text(const text_slot *s, char *buf, size_t n) {
    return sqe_type_sql_name(s->type, buf, n);
}

static bool parse_error(const text_reader *r, const text_slot *s, const char *p, size_t n,
                        sqe_error *err) {
    char tbuf[48];
    size_t shown = n;
    const char *more = "";
    if (n > VALUE_SHOWN_MAX) {
        shown = VALUE_SHOWN_MAX;
        while (shown > 0 && ((uint8_t)p[shown] & 0xC0) == 0x80) shown--; /* whole UTF-8 chars */
        more = "...";
    }
    if (r->split)
        return sqe_error_set(
            err, SQE_ERR_INVALID_DATA,
            "cannot parse '%.*s%s' as %s in file '%s' at byte offset %llu, column '%s' (field %d)",
            (int)shown, p, more, type_text(s, tbuf, sizeof tbuf), r->path,
            (unsigned long long)(r->file_off - r->len + (uint64_t)(r->line_start - r->buf)),
            s->col_name, s->field + 1);
    return sqe_error_set(
        err, SQE_ERR_INVALID_DATA,
        "cannot parse '%.*s%s' as %s in file '%s' line %llu, column '%s' (field %d)", (int)shown, p,
        more, type_text(s, tbuf, sizeof tbuf), r->path, (unsigned long long)r->line_no, s->col_name,
        s->field + 1);
}

/* ------------------------------------------------------------- values */

/* Byte length of the first max_chars UTF-8 characters of p[0, n). */
static size_t utf8_prefix(const char *p, size_t n, uint32_t max_chars) {
    if (n <= max_chars) return n;
    uint32_t chars = 0;
    for (size_t i = 0; i < n; i++) {
        if (((uint8_t)p[i] & 0xC0) != 0x80) {
            if (chars == max_chars) return i;
            chars++;
        }
    }
    return n;
}

/* CHAR(n) (issue 7 item 15): values are padded with spaces to n characters,
 * the form CAST(x AS char(n)) gives (types/cast.c), so a value read from a
 * file and the same value cast compare equal and length() is n for both
 * (Trino's CHAR). `n` bytes at p hold at most `width` characters. */
static void set_char_padded(sqe_vector *v, uint32_t row, const char *p, size_t n, uint32_t width,
                            char **buf, size_t *cap) {
    uint32_t chars = 0;
    for (size_t i = 0; i < n; i++) chars += ((uint8_t)p[i] & 0xC0) != 0x80;
    if (chars >= width) {
        sqe_vector_set_string(v, row, p, n);
        return;
    }
    size_t total = n + (width - chars);
    if (total > *cap) {
        *cap = total;
        *buf = sqe_realloc(*buf, total);
    }
    if (n) memcpy(*buf, p, n);
    memset(*buf + n, ' ', width - chars);
    sqe_vector_set_string(v, row, *buf, total);
}

/* Decodes one non-NULL field into row `row` of the slot's vector. */
static inline bool decode_value(const text_reader *r, text_slot *s, uint32_t row, const char *p,
                                size_t n, sqe_error *err) {
    sqe_vector *v = s->v;
    int64_t i64;
    double d;
    switch (s->type_id) {
    case SQE_T_VARCHAR:
    case SQE_T_VARBINARY:
        if (s->max_chars) {
            n = utf8_prefix(p, n, s->max_chars);
            if (s->is_char) {
                set_char_padded(v, row, p, n, s->max_chars, &s->pad, &s->pad_cap);
                return true;
            }
        }
        sqe_vector_set_string(v, row, p, n);
        return true;
    default:
        break;
    }
    if (n == 0) {
        sqe_vector_set_null(v, row);
        return true;
    }
    switch (s->type_id) {
    case SQE_T_BIGINT:
        if (!sqe_parse_int64(p, n, &i64)) return parse_error(r, s, p, n, err);
        SQE_VEC_DATA(v, int64_t)[row] = i64;
        return true;
    case SQE_T_INTEGER:
        if (!sqe_parse_int64(p, n, &i64) || i64 < INT32_MIN || i64 > INT32_MAX)
            return parse_error(r, s, p, n, err);
        SQE_VEC_DATA(v, int32_t)[row] = (int32_t)i64;
        return true;
    case SQE_T_SMALLINT:
        if (!sqe_parse_int64(p, n, &i64) || i64 < INT16_MIN || i64 > INT16_MAX)
            return parse_error(r, s, p, n, err);
        SQE_VEC_DATA(v, int16_t)[row] = (int16_t)i64;
        return true;
    case SQE_T_TINYINT:
        if (!sqe_parse_int64(p, n, &i64) || i64 < INT8_MIN || i64 > INT8_MAX)
            return parse_error(r, s, p, n, err);
        SQE_VEC_DATA(v, int8_t)[row] = (int8_t)i64;
        return true;
    case SQE_T_DOUBLE:
        if (!sqe_parse_double(p, n, &d)) return parse_error(r, s, p, n, err);
        SQE_VEC_DATA(v, double)[row] = d;
        return true;
    case SQE_T_REAL:
        if (!sqe_parse_double(p, n, &d)) return parse_error(r, s, p, n, err);
        SQE_VEC_DATA(v, float)[row] = (float)d;
        return true;
    case SQE_T_DECIMAL: {
        sqe_i128 dec;
        if (!sqe_parse_decimal(p, n, s->precision, s->scale, &dec))
            return parse_error(r, s, p, n, err);
        SQE_VEC_DATA(v, sqe_i128)[row] = dec;
        return true;
    }
    case SQE_T_DATE: {
        int32_t days;
        if (!sqe_parse_date(p, n, &days)) return parse_error(r, s, p, n, err);
        SQE_VEC_DATA(v, int32_t)[row] = days;
        return true;
    }
    case SQE_T_TIMESTAMP:
        if (!sqe_parse_timestamp(p, n, &i64)) return parse_error(r, s, p, n, err);
        SQE_VEC_DATA(v, int64_t)[row] = i64;
        return true;
    case SQE_T_BOOLEAN: {
        bool b;
        if (!sqe_parse_bool(p, n, &b)) return parse_error(r, s, p, n, err);
        SQE_VEC_DATA(v, uint8_t)[row] = b;
        return true;
    }
    default: /* SQE_T_NULL */
        sqe_vector_set_null(v, row);
        return true;
    }
}

static void set_null_chain(text_reader *r, int s, uint32_t row) {
    for (; s >= 0; s = r->slots[s].next_dup) sqe_vector_set_null(r->slots[s].v, row);
}

/* Field `raw` (as in the file, for the null check) decodes as `val`. */
static inline bool put_field(text_reader *r, int s, uint32_t row, const char *raw, size_t raw_len,
                             const char *val, size_t val_len, sqe_error *err) {
    /* raw may be NULL when empty (the scratch buffer before its first use) */
    if (r->has_null_format && raw_len == r->null_len &&
        (raw_len == 0 || memcmp(raw, r->null_format, raw_len) == 0)) {
        set_null_chain(r, s, row);
        return true;
    }
    do {
        if (!decode_value(r, &r->slots[s], row, val, val_len, err)) return false;
        s = r->slots[s].next_dup;
    } while (s >= 0);
    return true;
}

static void null_missing_fields(text_reader *r, int f, uint32_t row) {
    for (; f < r->n_fields_needed; f++)
        if (r->field_slot[f] >= 0) set_null_chain(r, r->field_slot[f], row);
}

static inline void scratch_reserve(text_reader *r, size_t extra) {
    if (r->scratch_len + extra > r->scratch_cap) {
        size_t cap = SQE_MAX(r->scratch_cap * 2, r->scratch_len + extra + 256);
        r->scratch = sqe_realloc(r->scratch, cap);
        r->scratch_cap = cap;
    }
}

/* -------------------------------------------------- LazySimpleSerDe */

#define BUF_PAD 16 /* readable bytes after buf[len], so find_byte may look 8 past a field */
#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

/* First `c` (pattern = c * ONES) in [p, end), or end. Fields are short, so
 * eight bytes at a time in registers beat a memchr call; past 16 bytes the
 * field is long and memchr's vector loop wins. May read up to 7 bytes past
 * `end` (inside the buffer's padding). */
static inline const char *find_byte(const char *p, const char *end, char c, uint64_t pattern) {
    for (int i = 0; i < 2 && p < end; i++, p += 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        w ^= pattern;
        uint64_t hit =
            (w - ONES) & ~w & HIGHS; /* lowest set bit marks the first zero byte exactly */
        if (hit) {
            const char *q = p + (__builtin_ctzll(hit) >> 3);
            return q < end ? q : end;
        }
    }
    if (p >= end) return end;
    const char *q = memchr(p, c, (size_t)(end - p));
    return q ? q : end;
}

/* Decodes line [p, le) (no terminator) into `row`. */
static bool lazy_line(text_reader *r, const char *p, const char *le, uint32_t row, sqe_error *err) {
    const int nf = r->n_fields_needed;
    const char delim = r->delim;
    int f = 0;
    if (!r->escape) {
        const uint64_t pattern = (uint8_t)delim * ONES;
        for (; f < nf; f++) {
            const char *fe = find_byte(p, le, delim, pattern);
            int s = r->field_slot[f];
            if (s >= 0 && !put_field(r, s, row, p, (size_t)(fe - p), p, (size_t)(fe - p), err))
                return false;
            if (fe == le) {
                f++;
                break;
            }
            p = fe + 1;
        }
    } else {
        const char esc = r->escape;
        for (; f < nf; f++) {
            const char *q = p;
            bool escaped = false;
            while (q < le && *q != delim) {
                if (*q == esc) {
                    escaped = true;
                    if (q + 1 < le) q++;
                }
                q++;
            }
            int s = r->field_slot[f];
            if (s >= 0) {
                const char *val = p;
                size_t val_len = (size_t)(q - p);
                if (escaped) {
                    r->scratch_len = 0;
                    scratch_reserve(r, val_len);
                    char *o = r->scratch;
                    for (const char *c = p; c < q; c++) {
                        if (*c == esc && c + 1 < q) c++;
                        *o++ = *c;
                    }
                    val = r->scratch;
                    val_len = (size_t)(o - r->scratch);
                }
                if (!put_field(r, s, row, p, (size_t)(q - p), val, val_len, err)) return false;
            }
            if (q == le) {
                f++;
                break;
            }
            p = q + 1;
        }
    }
    null_missing_fields(r, f, row);
    return true;
}

/* First '\n' or '\r' in [p, end), or end: eight bytes per step (the same
 * zero-byte trick as find_byte; the lowest hit of each mask is exact, so
 * the lowest of both is). Only used once a '\r' was seen. */
static inline const char *find_eol(const char *p, const char *end) {
    while (p + 8 <= end) {
        uint64_t w;
        memcpy(&w, p, 8);
        uint64_t a = w ^ ((uint64_t)'\n' * ONES), c = w ^ ((uint64_t)'\r' * ONES);
        uint64_t hit = (((a - ONES) & ~a) | ((c - ONES) & ~c)) & HIGHS;
        if (hit) return p + (__builtin_ctzll(hit) >> 3);
        p += 8;
    }
    while (p < end && *p != '\n' && *p != '\r') p++;
    return p;
}

/* The line end at `e` ('\n' or '\r', e < lim): where the next line starts
 * (CRLF is one line end). */
static inline const char *eol_next(const char *e, const char *lim) {
    return (*e == '\r' && e + 1 < lim && e[1] == '\n') ? e + 2 : e + 1;
}

/* ------------------------------------------------------ OpenCSVSerde */

static inline void scratch_put(text_reader *r, char c) {
    scratch_reserve(r, 1);
    r->scratch[r->scratch_len++] = c;
}

/* The opencsv state machine for one field starting at *pp (its first byte
 * is the field's first byte). Leaves the value in r->scratch, *pp after the
 * separator or newline that ended it. Returns 0 when a quoted field runs
 * past `lim` (more data needed, or an unterminated quote at EOF). */
static int csv_field_slow(text_reader *r, const char **pp, const char *lim, uint32_t *lines,
                          bool *record_done) {
    const char *p = *pp, *fstart = p;
    const char q = r->quote, e = r->escape, sep = r->delim;
    bool in_q = false;
    r->scratch_len = 0;
    for (;;) {
        if (p == lim) {
            if (in_q) return 0;
            *record_done = true;
            break;
        }
        char c = *p;
        if (c == '\n' || c == '\r') {
            /* LF, CR and CRLF end a line (opencsv reads lines with
             * BufferedReader.readLine); inside quotes the field goes on,
             * the line end becoming one '\n' as opencsv joins lines */
            p = eol_next(p, lim);
            if (!in_q) {
                *record_done = true;
                break;
            }
            scratch_put(r, '\n');
            (*lines)++;
            continue;
        }
        if (e && c == e) {
            /* escape + quote/escape is that char; a lone escape is dropped */
            if ((in_q || p > fstart) && p + 1 < lim && (p[1] == q || p[1] == e)) {
                scratch_put(r, p[1]);
                p += 2;
            } else {
                p++;
            }
            continue;
        }
        if (q && c == q) {
            if (in_q && p + 1 < lim && p[1] == q) { /* doubled quote */
                scratch_put(r, q);
                p += 2;
                continue;
            }
            /* Opening or closing quote: dropped at the start of the field and
             * before a separator or line end, kept literally elsewhere. */
            const char *nx = p + 1;
            bool at_end = nx >= lim || *nx == sep || *nx == '\n' || *nx == '\r';
            if (p != fstart && !at_end) scratch_put(r, q);
            in_q = !in_q;
            p++;
            continue;
        }
        if (c == sep && !in_q) {
            p++;
            break;
        }
        scratch_put(r, c);
        p++;
    }
    *pp = p;
    return 1;
}

/* Decodes the record starting at p into `row`. Returns 1 and sets *next and
 * *lines (physical lines consumed) on success, 0 when the record continues
 * past `lim`, -1 on error. */
static int csv_record(text_reader *r, const char *p, const char *lim, uint32_t row,
                      const char **next, uint32_t *lines, sqe_error *err) {
    const int nf = r->n_fields_needed;
    const uint8_t *special = r->csv_special;
    const char sep = r->delim;
    uint32_t n_lines = 1;
    bool done = false;
    int f = 0;
    while (!done) {
        const char *q = p;
        while (q < lim && !special[(uint8_t)*q]) q++;
        const char *val;
        size_t val_len;
        if (q == lim || *q == sep || *q == '\n' || *q == '\r') {
            val = p;
            val_len = (size_t)(q - p);
            if (q == lim) {
                done = true;
                p = lim;
            } else if (*q == sep) {
                p = q + 1;
            } else { /* LF, CR or CRLF ends the record (Hadoop's line ends) */
                done = true;
                p = eol_next(q, lim);
            }
        } else {
            if (!csv_field_slow(r, &p, lim, &n_lines, &done)) return 0;
            val = r->scratch;
            val_len = r->scratch_len;
        }
        if (f < nf && r->field_slot[f] >= 0 &&
            !put_field(r, r->field_slot[f], row, val, val_len, val, val_len, err))
            return -1;
        f++;
    }
    null_missing_fields(r, f, row);
    *next = p;
    *lines = n_lines;
    return 1;
}

/* ------------------------------------------------------------- buffer */

/* The line that starts at p within the region [p, lim): *le gets its end
 * (without terminator), the return value the next line's start. LF only
 * until a '\r' was read, then LF, CR or CRLF as Hadoop's LineReader. */
static inline const char *next_line(const text_reader *r, const char *p, const char *lim,
                                    const char **le) {
    if (!r->cr_seen) {
        const char *nl = memchr(p, '\n', (size_t)(lim - p));
        *le = nl ? nl : lim;
        return nl ? nl + 1 : lim;
    }
    const char *e = find_eol(p, lim);
    *le = e;
    return e < lim ? eol_next(e, lim) : lim;
}

/* End (exclusive) of the last complete line end in b[lo, hi), or lo. With
 * CR line ends, a '\r' at hi - 1 is not complete unless at_eof (a '\n' may
 * follow it in the next chunk: CRLF is one line end). */
static size_t last_line_end(const text_reader *r, size_t lo, size_t hi, bool at_eof) {
    const char *b = r->buf;
    const char *nl = hi > lo ? memrchr(b + lo, '\n', hi - lo) : NULL;
    size_t e = nl ? (size_t)(nl - b) + 1 : lo;
    if (r->cr_seen) {
        size_t cr_hi = (!at_eof && hi > lo && b[hi - 1] == '\r') ? hi - 1 : hi;
        const char *cr = cr_hi > lo ? memrchr(b + lo, '\r', cr_hi - lo) : NULL;
        if (cr && (size_t)(cr - b) + 1 > e) e = (size_t)(cr - b) + 1;
    }
    return e;
}

/* Sets r->limit: the end of the whole lines in buf[pos, len) that may be
 * decoded now (see the file comment). */
static void compute_limit(text_reader *r) {
    const char *b = r->buf;
    size_t lo = r->pos, e;
    if (r->file_eof) {
        e = r->len;
    } else {
        e = last_line_end(r, lo, r->len, false);
    }
    for (uint32_t k = 0; k < r->footer && e > lo; k++) {
        size_t search_end = e;
        if (b[e - 1] == '\n' || (r->cr_seen && b[e - 1] == '\r')) {
            search_end = e - 1;
            if (b[e - 1] == '\n' && r->cr_seen && search_end > lo && b[search_end - 1] == '\r')
                search_end--;
        }
        e = last_line_end(r, lo, search_end, true);
    }
    r->limit = e;
}

/* A physical line (or OpenCSV record) longer than max_line fails however
 * the file is chunked or split: every line decoded or skipped as a header
 * is measured (line_too_long), and refill() refuses to carry more than
 * max_line bytes of one line. Only the footer lookahead (the last M lines
 * together) is bounded by when refills happen. */
static bool too_long_error(text_reader *r, sqe_error *err) {
    size_t keep = r->len - r->pos;
    if (r->split)
        return sqe_error_set(
            err, SQE_ERR_INVALID_DATA,
            "line at byte offset %llu in file '%s' is longer than the limit of %zu bytes",
            (unsigned long long)(r->file_off - r->len + r->pos), r->path, r->max_line);
    if (!memchr(r->buf + r->pos, '\n', SQE_MIN(keep, r->max_line + 1))) /* the line at pos itself */
        return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                             "line %llu in file '%s' is longer than the limit of %zu bytes",
                             (unsigned long long)r->line_no, r->path, r->max_line);
    if (r->csv && r->pos < r->limit)
        return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                             "quoted field starting on line %llu in file '%s' runs longer than the "
                             "limit of %zu bytes",
                             (unsigned long long)r->line_no, r->path, r->max_line);
    return sqe_error_set(
        err, SQE_ERR_INVALID_DATA,
        "the last %u lines (skip.footer.line.count) after line %llu in file '%s' are longer than "
        "the limit of %zu bytes",
        r->footer, (unsigned long long)r->line_no, r->path, r->max_line);
}

/* The line (or record) starting at `line` is longer than max_line. */
static bool line_too_long(text_reader *r, const char *line, sqe_error *err) {
    r->pos = (size_t)(line - r->buf);
    return too_long_error(r, err);
}

/* Appends up to `want` decompressed bytes at buf + len (a compressed
 * file); sets file_eof when the stream ends. */
static bool refill_stream(text_reader *r, size_t want, size_t *got, sqe_error *err) {
    *got = 0;
    while (*got < want) {
        size_t n;
        bool eof;
        if (!sqe_byte_stream_read(r->bs, r->buf + r->len + *got, want - *got, &n, &eof, err))
            return false;
        *got += n;
        if (eof) {
            r->file_eof = true;
            break;
        }
    }
    r->base.stats.bytes_read = sqe_byte_stream_raw_bytes(r->bs);
    return true;
}

/* The file must be exactly the size the listing gave (issue 7 item 2): a
 * read that ends before it (truncated or replaced while being read) or a
 * byte still there at `size` (it grew) fails naming the file, instead of
 * returning the rows read so far as the whole answer. Called after a
 * get_range of `want` bytes (plus one when `probed`: the read reaching
 * `size` asks for one byte more, so no separate request is needed to see
 * that nothing follows) returned `n` (r->file_off not yet advanced). */
static bool check_listed_size(text_reader *r, size_t n, size_t want, bool probed, sqe_error *err) {
    uint64_t end = r->file_off + n;
    if (n > want || (probed && end > r->size))
        return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                             "file '%s' is longer than its listed size of %llu bytes (did it grow "
                             "or was it overwritten while being read?); run the query again",
                             r->path, (unsigned long long)r->size);
    if (n < want)
        return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                             "file '%s' is shorter than its listed size of %llu bytes: it ends at "
                             "byte %llu (was it truncated or overwritten while being read?); run "
                             "the query again",
                             r->path, (unsigned long long)r->size, (unsigned long long)end);
    if (end < r->size || probed) return true;
    char extra;
    size_t m = 0;
    if (!r->store->vt->get_range(r->store, r->path, r->size, 1, &extra, &m, err)) return false;
    if (m > 0)
        return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                             "file '%s' is longer than its listed size of %llu bytes (did it grow "
                             "or was it overwritten while being read?); run the query again",
                             r->path, (unsigned long long)r->size);
    return true;
}

/* get_range of `want` bytes at file_off into buf + len; on a remote store
 * through a sequential read-ahead (the next chunks are fetched while this
 * one is decoded), bounded by the file's size or the range's end + 64 KiB. */
static bool text_get(text_reader *r, size_t want, size_t *n, sqe_error *err) {
    if (r->io.max_in_flight > 0 && !r->seq) {
        uint64_t end = r->size > 0 ? r->size + 1 : UINT64_MAX; /* + the probe byte */
        if (r->split && r->range_end < UINT64_MAX - 65536) end = SQE_MIN(end, r->range_end + 65536);
        r->seq = sqe_seqread_new(r->store, r->path, end, &r->io);
    }
    if (r->seq) return sqe_seqread_read(r->seq, r->file_off, want, r->buf + r->len, n, err);
    return r->store->vt->get_range(r->store, r->path, r->file_off, want, r->buf + r->len, n, err);
}

/* Moves the unconsumed bytes to the front and appends the next chunk. */
static bool refill(text_reader *r, sqe_error *err) {
    size_t keep = r->len - r->pos;
    if (keep > r->max_line) return too_long_error(r, err);
    if (r->pos > 0) {
        memmove(r->buf, r->buf + r->pos, keep);
        r->len = keep;
        r->pos = 0;
    }
    /* Reading at least as much as is carried keeps long lines linear. */
    size_t want = SQE_MAX(r->chunk, keep);
    if (r->split) { /* past the range only the last line's rest is needed */
        uint64_t to_end = r->range_end > r->file_off ? r->range_end - r->file_off : 0;
        want = SQE_MAX((size_t)SQE_MIN((uint64_t)want, to_end + 65536), keep);
    }
    bool probe = false; /* this read reaches the listed size: ask for one byte more */
    if (r->size > 0 && !r->bs) {
        uint64_t left = r->file_off < r->size ? r->size - r->file_off : 0;
        if (left <= want) {
            want = (size_t)left;
            probe = want > 0;
        }
    }
    if (want == 0) {
        r->file_eof = true;
    } else {
        if (r->len + want + probe > r->cap) {
            r->cap = r->len + want + probe;
            r->buf = sqe_realloc(r->buf, r->cap + BUF_PAD);
        }
        size_t n = 0;
        if (r->bs) {
            if (!refill_stream(r, want, &n, err)) return false;
        } else {
            if (!text_get(r, want + probe, &n, err)) return false;
            r->base.stats.bytes_read += n;
            if (n < want || (r->size > 0 && r->file_off + n >= r->size)) r->file_eof = true;
            if (r->size > 0 && !check_listed_size(r, n, want, probe, err)) return false;
        }
        /* one pass over the new bytes: LF-only files keep the memchr('\n')
         * line loop; the first '\r' switches this reader to LF/CR/CRLF */
        if (!r->cr_seen && n && memchr(r->buf + r->len, '\r', n)) r->cr_seen = true;
        r->file_off += n;
        r->len += n;
    }
    if (r->buf) memset(r->buf + r->len, 0, BUF_PAD);
    compute_limit(r);
    return true;
}

/* ---------------------------------------------------------------- next */

static bool text_next(sqe_reader *rd, sqe_batch *out, bool *eof, sqe_error *err) {
    text_reader *r = (text_reader *)rd;
    *eof = false;
    out->n_rows = 0;
    if (out->n_cols < r->n_slots)
        return sqe_error_set(err, SQE_ERR_INTERNAL,
                             "text reader for '%s': batch has %d columns, %d projected", r->path,
                             out->n_cols, r->n_slots);
    for (int i = 0; i < r->n_slots; i++) r->slots[i].v = out->cols[i];

    uint32_t rows = 0;
    bool retry_row = false; /* row `rows` was partly written by an incomplete OpenCSV record */
    while (rows < SQE_BATCH_ROWS) {
        if (r->pos >= r->limit) {
            if (r->file_eof) break;
            if (!refill(r, err)) return false;
            continue;
        }
        const char *p = r->buf + r->pos, *lim = r->buf + r->limit;
        if (r->bom_pending) { /* a UTF-8 BOM before the first line is not data */
            r->bom_pending = false;
            if (lim - p >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) r->pos += 3;
            continue;
        }
        if (r->skip_partial) { /* range reader: the line before the range's first */
            const char *le;
            const char *next = next_line(r, p, lim, &le);
            r->pos = le < lim ? (size_t)(next - r->buf) : r->limit;
            r->skip_partial = le == lim;
            continue;
        }
        if (r->header_left) {
            const char *le;
            const char *next = next_line(r, p, lim, &le);
            if ((size_t)(le - p) > r->max_line) return line_too_long(r, p, err);
            r->pos = (size_t)(next - r->buf);
            r->line_no++;
            r->header_left--;
            continue;
        }
        if (!r->csv) {
            const char *stop = lim;               /* lines starting before it are decoded */
            uint64_t base = r->file_off - r->len; /* file offset of buf[0] */
            if (r->split && r->range_end < base + r->limit)
                stop = r->range_end > base ? r->buf + (r->range_end - base) : r->buf;
            while (rows < SQE_BATCH_ROWS && p < stop) {
                r->line_start = p;
                const char *le;
                const char *next = next_line(r, p, lim, &le);
                if ((size_t)(le - p) > r->max_line) return line_too_long(r, p, err);
                if (!lazy_line(r, p, le, rows, err)) return false;
                rows++;
                r->line_no++;
                p = next;
            }
            r->pos = (size_t)(p - r->buf);
            if (r->split && base + r->pos >= r->range_end) { /* range done */
                r->pos = r->limit = r->len;
                r->file_eof = true;
            }
            continue;
        }
        while (rows < SQE_BATCH_ROWS && p < lim) {
            if (retry_row) {
                for (int i = 0; i < r->n_slots; i++) sqe_vector_set_valid(r->slots[i].v, rows);
                retry_row = false;
            }
            const char *next;
            uint32_t lines;
            int rc = csv_record(r, p, lim, rows, &next, &lines, err);
            if (rc <
                0) { /* a first line over the limit fails as such, however the file is chunked */
                const char *nl = memchr(p, '\n', (size_t)(lim - p));
                if ((size_t)((nl ? nl : lim) - p) > r->max_line) return line_too_long(r, p, err);
                return false;
            }
            if (rc == 0) {
                if (r->file_eof && (size_t)(lim - p) > r->max_line) return line_too_long(r, p, err);
                if (r->file_eof)
                    return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                                         "unterminated quoted field in file '%s' line %llu",
                                         r->path, (unsigned long long)r->line_no);
                retry_row = true;
                break;
            }
            if ((size_t)(next - p) - (next > p && next[-1] == '\n') > r->max_line)
                return line_too_long(r, p, err);
            rows++;
            r->line_no += lines;
            p = next;
        }
        r->pos = (size_t)(p - r->buf);
        if (retry_row && !refill(r, err)) return false;
    }
    out->n_rows = rows;
    r->base.stats.rows_read += rows;
    if (rows == 0) *eof = true;
    return true;
}

/* ---------------------------------------------------------- open/close */

static void text_close(sqe_reader *rd) {
    text_reader *r = (text_reader *)rd;
    if (!r) return;
    for (int i = 0; i < r->n_slots; i++) {
        sqe_free(r->slots[i].col_name);
        sqe_free(r->slots[i].pad);
    }
    sqe_free(r->slots);
    sqe_free(r->field_slot);
    sqe_seqread_free(r->seq); /* waits for reads in flight */
    sqe_free(r->null_format);
    sqe_free(r->scratch);
    sqe_free(r->buf);
    sqe_free(r->path);
    sqe_byte_stream_close(r->bs);
    sqe_free(r);
}

static sqe_reader *text_open(sqe_store *store, const char *path, uint64_t size,
                             const sqe_reader_spec *spec, sqe_error *err) {
    const sqe_text_options *o = &spec->text;
    if (o->line_delim != '\n' && o->line_delim != 0) {
        sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                      "cannot read '%s': line delimiter 0x%02x is not supported, only '\\n'", path,
                      (unsigned)(uint8_t)o->line_delim);
        return NULL;
    }
    if (spec->n_proj < 0 || (spec->n_proj > 0 && !spec->proj)) {
        sqe_error_set(err, SQE_ERR_INTERNAL, "text reader for '%s': bad projection", path);
        return NULL;
    }
    for (int i = 0; i < spec->n_proj; i++) {
        if (spec->proj[i] < 0 || spec->proj[i] >= spec->n_table_cols) {
            sqe_error_set(err, SQE_ERR_INTERNAL, "text reader for '%s': projected column %d of %d",
                          path, spec->proj[i], spec->n_table_cols);
            return NULL;
        }
    }

    sqe_codec codec = sqe_codec_for_path(path);
    sqe_byte_stream *bs = NULL;
    size_t plen = strlen(path);
    bool xz = plen > 3 && strcasecmp(path + plen - 3, ".xz") == 0; /* refused by the stream */
    if (codec != SQE_CODEC_NONE || xz) {
        size_t chunk = sqe_text_reader_chunk_size ? sqe_text_reader_chunk_size : 1;
        bs =
            sqe_byte_stream_open(store, path, size, 0, codec, SQE_MIN(chunk, (size_t)1 << 20), err);
        if (!bs) return NULL;
    }

    text_reader *r = sqe_calloc(1, sizeof *r);
    r->base.vt = &sqe_text_reader_vtable;
    r->bs = bs;
    r->store = store;
    if (spec->io) {
        r->io = *spec->io;
    } else {
        sqe_readplan_defaults(store, &r->io);
    }
    r->path = sqe_strdup(path);
    r->size = size;
    r->csv = o->serde == SQE_SERDE_OPEN_CSV;
    r->delim = o->field_delim ? o->field_delim : (r->csv ? ',' : '\001');
    r->escape = o->escape_char;
    r->quote = r->csv ? o->quote_char : 0;
    /* opencsv refuses equal separator/quote/escape; here the clash just
     * disables the later role. */
    if (r->quote == r->delim) r->quote = 0;
    if (r->escape == r->delim || r->escape == r->quote) r->escape = 0;
    const char *nf = o->null_format;
    if (!nf && !r->csv) nf = "\\N";
    if (nf) {
        r->has_null_format = true;
        r->null_format = sqe_strdup(nf);
        r->null_len = strlen(nf);
    }
    r->header_left = o->skip_header_lines;
    r->footer = o->skip_footer_lines;
    r->line_no = 1;
    r->bom_pending = true;
    r->chunk = sqe_text_reader_chunk_size ? sqe_text_reader_chunk_size : 1;
    r->max_line = sqe_text_reader_max_line;

    r->n_slots = spec->n_proj;
    r->slots = sqe_calloc((size_t)SQE_MAX(spec->n_proj, 1), sizeof *r->slots);
    for (int i = 0; i < spec->n_proj; i++) {
        int c = spec->proj[i];
        text_slot *s = &r->slots[i];
        s->type = spec->col_types[c];
        s->type_id = s->type.id;
        s->precision = s->type.precision;
        s->scale = s->type.scale;
        s->max_chars = (s->type.id == SQE_T_VARCHAR && s->type.str_kind != SQE_STRKIND_STRING)
                           ? s->type.length
                           : 0;
        s->is_char = s->type.id == SQE_T_VARCHAR && s->type.str_kind == SQE_STRKIND_CHAR &&
                     s->type.length > 0;
        s->field = c;
        s->next_dup = -1;
        s->col_name = sqe_strdup(spec->col_names && spec->col_names[c] ? spec->col_names[c] : "?");
        if (c + 1 > r->n_fields_needed) r->n_fields_needed = c + 1;
    }
    r->field_slot = sqe_malloc(sizeof(int) * (size_t)SQE_MAX(r->n_fields_needed, 1));
    for (int f = 0; f < r->n_fields_needed; f++) r->field_slot[f] = -1;
    for (int i = spec->n_proj - 1; i >= 0; i--) { /* chain duplicates, first slot leads */
        int f = r->slots[i].field;
        r->slots[i].next_dup = r->field_slot[f];
        r->field_slot[f] = i;
    }
    if (r->csv) {
        r->csv_special[(uint8_t)r->delim] = 1;
        r->csv_special['\n'] = 1;
        r->csv_special['\r'] = 1;
        if (r->quote) r->csv_special[(uint8_t)r->quote] = 1;
        if (r->escape) r->csv_special[(uint8_t)r->escape] = 1;
    }
    return &r->base;
}

sqe_reader *sqe_text_reader_open_range(sqe_store *store, const char *path, uint64_t size,
                                       uint64_t start, uint64_t end, const sqe_reader_spec *spec,
                                       sqe_error *err) {
    if (!sqe_format_splittable(spec, path) || end < start) {
        sqe_error_set(err, SQE_ERR_INTERNAL,
                      "text reader: '%s' cannot be read as byte range [%llu, %llu)", path,
                      (unsigned long long)start, (unsigned long long)end);
        return NULL;
    }
    sqe_reader *rd = text_open(store, path, size, spec, err);
    if (!rd) return NULL;
    text_reader *r = (text_reader *)rd;
    r->split = true;
    r->range_end = end;
    if (start > 0) { /* a line starts at `start` iff byte start - 1 ends a line */
        r->file_off = start - 1;
        r->skip_partial = true;
        r->bom_pending = false;
    }
    return rd;
}

const sqe_reader_vtable sqe_text_reader_vtable = {
    .name = "text",
    .open = text_open,
    .next = text_next,
    .close = text_close,
};
