/*
 * text_infer.c - the columns of a delimited text file, guessed from its
 * first lines, for read_csv (SPEC §4.7).
 *
 * A sample of at most TI_SAMPLE_BYTES from the start of the file is cut
 * into records of fields the way the reader will cut them (OpenCSV: quote
 * characters group separators and newlines and a doubled quote is one;
 * LazySimple: no quoting), at most TI_MAX_ROWS records. A record cut off
 * by the end of the sample is dropped unless the sample is the whole file.
 *
 * Delimiter (when asked): of ',', '\t', '|', ';', the one that splits the
 * most records into the same number (> 1) of fields, ties to the earlier
 * candidate; when none splits anything the file has one column.
 *
 * Types: for each column the first of BOOLEAN, BIGINT, DOUBLE, DATE,
 * TIMESTAMP that every non-empty sampled value (the header excepted)
 * parses as, else VARCHAR. Empty values say nothing (they read as NULL).
 *
 * Header (when asked): the first record is a header when some column has a
 * type other than VARCHAR below it and its first value does not parse as
 * that type, or when every column is VARCHAR and the first record's values
 * are non-empty and distinct (DuckDB guesses the same way). Header names
 * are lower-cased (names bind case-insensitively), empty ones become
 * columnN, and a repeated one gets _1, _2, ... as DuckDB does; without a
 * header the names are column0, column1, ...
 */
#include "format/format.h"

#include <ctype.h>
#include <string.h>

#define TI_SAMPLE_BYTES ((size_t)1 << 20)
#define TI_MAX_ROWS 2048
#define TI_MAX_COLS 10000

typedef struct ti_field {
    const char *p; /* unquoted bytes (arena copy when quotes were removed) */
    size_t n;
} ti_field;

typedef struct ti_record {
    int n;
    ti_field *f;
} ti_record;

typedef struct ti_sample {
    sqe_arena *a;
    const char *buf;
    size_t len;
    bool whole; /* the sample is the whole file */
    char quote; /* 0: no quoting */
} ti_sample;

/* Cuts one record starting at *pos with delimiter d; false at the end of
 * the sample (or when the record runs past a cut sample). */
static bool ti_record_at(const ti_sample *s, char d, size_t *pos, ti_record *out) {
    size_t i = *pos;
    if (i >= s->len) return false;
    SQE_ARRAY(ti_field) fields = {0};
    char *tmp = sqe_arena_alloc(s->a, 64);
    size_t tcap = 64, tn = 0;
    bool in_q = false, quoted = false;
    for (;; i++) {
        bool end = i >= s->len;
        if (end && in_q) return false; /* unterminated quote within the sample */
        char c = end ? '\n' : s->buf[i];
        if (!in_q && (c == d || c == '\n')) {
            if (c == '\n' && tn && tmp[tn - 1] == '\r' && !quoted) tn--;
            ti_field f = {sqe_arena_strndup(s->a, tmp, tn), tn};
            SQE_ARRAY_PUSH(s->a, fields, f);
            tn = 0;
            quoted = false;
            if (fields.len > TI_MAX_COLS) return false;
            if (c == '\n') break;
            continue;
        }
        if (s->quote && c == s->quote) {
            if (in_q && i + 1 < s->len && s->buf[i + 1] == s->quote) {
                i++; /* doubled quote */
            } else {
                in_q = !in_q;
                quoted = true;
                continue;
            }
        }
        if (tn + 1 >= tcap) {
            tmp = sqe_arena_realloc(s->a, tmp, tcap, tcap * 2);
            tcap *= 2;
        }
        tmp[tn++] = c;
    }
    if (i >= s->len && !s->whole) return false; /* cut by the sample's end */
    *pos = i + 1;
    out->n = (int)fields.len;
    out->f = fields.items;
    return true;
}

static int ti_records(const ti_sample *s, char d, ti_record *recs) {
    size_t pos = 0;
    int n = 0;
    while (n < TI_MAX_ROWS && ti_record_at(s, d, &pos, &recs[n])) {
        if (recs[n].n == 1 && recs[n].f[0].n == 0) continue; /* blank line */
        n++;
    }
    return n;
}

/* How many records have the most common field count (> 1) and that count. */
static int ti_consistency(const ti_record *recs, int n, int *width) {
    int best = 0;
    *width = 1;
    for (int i = 0; i < n && i < 64; i++) {
        int w = recs[i].n, same = 0;
        if (w < 2) continue;
        for (int j = 0; j < n; j++) same += recs[j].n == w;
        if (same > best || (same == best && w > *width)) {
            best = same;
            *width = w;
        }
    }
    return best;
}

static char ti_pick_delim(const ti_sample *s, ti_record *recs) {
    static const char k_cands[] = {',', '\t', '|', ';'};
    char best = ',';
    int best_score = 0;
    for (size_t c = 0; c < sizeof k_cands; c++) {
        int width, n = ti_records(s, k_cands[c], recs);
        int score = ti_consistency(recs, n, &width);
        if (score > best_score) {
            best_score = score;
            best = k_cands[c];
        }
    }
    return best;
}

typedef enum ti_kind { TI_BOOL, TI_BIGINT, TI_DOUBLE, TI_DATE, TI_TIMESTAMP, TI_VARCHAR } ti_kind;

static bool ti_fits(ti_kind k, const ti_field *f) {
    bool b;
    int64_t i;
    double d;
    int32_t day;
    switch (k) {
    case TI_BOOL:
        return sqe_parse_bool(f->p, f->n, &b);
    case TI_BIGINT:
        return sqe_parse_int64(f->p, f->n, &i);
    case TI_DOUBLE:
        return sqe_parse_double(f->p, f->n, &d);
    case TI_DATE:
        return sqe_parse_date(f->p, f->n, &day);
    case TI_TIMESTAMP:
        return sqe_parse_timestamp(f->p, f->n, &i);
    default:
        return true;
    }
}

/* The narrowest kind of column c over records [from, n). */
static ti_kind ti_column_kind(const ti_record *recs, int from, int n, int c) {
    for (int k = TI_BOOL; k < TI_VARCHAR; k++) {
        bool all = true, any = false;
        for (int r = from; r < n && all; r++) {
            if (c >= recs[r].n || recs[r].f[c].n == 0) continue;
            any = true;
            all = ti_fits((ti_kind)k, &recs[r].f[c]);
        }
        if (all && any) return (ti_kind)k;
    }
    return TI_VARCHAR;
}

static sqe_type ti_type(ti_kind k) {
    static const sqe_type_id k_ids[] = {SQE_T_BOOLEAN, SQE_T_BIGINT,    SQE_T_DOUBLE,
                                        SQE_T_DATE,    SQE_T_TIMESTAMP, SQE_T_VARCHAR};
    return sqe_type_make(k_ids[k]);
}

static bool ti_looks_like_header(const ti_record *recs, int n, int width, const ti_kind *kinds) {
    if (n < 1) return false;
    const ti_record *h = &recs[0];
    bool all_varchar = true;
    for (int c = 0; c < width && c < h->n; c++) {
        if (kinds[c] == TI_VARCHAR) continue;
        all_varchar = false;
        if (h->f[c].n > 0 && !ti_fits(kinds[c], &h->f[c])) return true;
    }
    if (!all_varchar || n < 2) return false;
    for (int c = 0; c < h->n; c++) {
        if (h->f[c].n == 0) return false;
        for (int d = 0; d < c; d++)
            if (h->f[d].n == h->f[c].n && memcmp(h->f[d].p, h->f[c].p, h->f[c].n) == 0)
                return false;
    }
    return true;
}

/* Lower-cased, trimmed, unique, non-empty names. */
static const char **ti_names(sqe_arena *a, const ti_record *h, int width) {
    const char **names = sqe_arena_alloc(a, sizeof(char *) * (size_t)width);
    for (int c = 0; c < width; c++) {
        const char *p = h && c < h->n ? h->f[c].p : "";
        size_t n = h && c < h->n ? h->f[c].n : 0;
        while (n && isspace((unsigned char)*p)) p++, n--;
        while (n && isspace((unsigned char)p[n - 1])) n--;
        char *s = n ? sqe_arena_strndup(a, p, n) : sqe_arena_sprintf(a, "column%d", c);
        for (char *q = s; *q; q++) *q = (char)tolower((unsigned char)*q);
        const char *base = s;
        for (int k = 1;; k++) {
            bool dup = false;
            for (int d = 0; d < c && !dup; d++) dup = strcmp(names[d], s) == 0;
            if (!dup) break;
            s = sqe_arena_sprintf(a, "%s_%d", base, k);
        }
        names[c] = s;
    }
    return names;
}

bool sqe_text_infer_schema(sqe_store *store, const char *path, uint64_t size, sqe_reader_spec *spec,
                           sqe_infer_options *opt, sqe_arena *arena, sqe_inferred_schema *out,
                           sqe_error *err) {
    sqe_text_options *to = &spec->text;
    ti_sample s = {.a = arena, .quote = to->serde == SQE_SERDE_OPEN_CSV ? to->quote_char : 0};
    if (!sqe_format_read_sample(store, path, size, TI_SAMPLE_BYTES, arena, &s.buf, &s.len, &s.whole,
                                err))
        return false;
    ti_record *recs = sqe_arena_alloc(arena, sizeof(ti_record) * TI_MAX_ROWS);
    if (opt->delim_auto) to->field_delim = ti_pick_delim(&s, recs);
    int n = ti_records(&s, to->field_delim, recs);
    if (n == 0)
        return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                             "cannot infer the columns of '%s': no complete line in its first %zu "
                             "bytes (give them with columns => {'name': 'type', ...})",
                             path, s.len);
    int width = 0;
    for (int i = 0; i < n; i++) width = SQE_MAX(width, recs[i].n);
    ti_kind *kinds = sqe_arena_alloc(arena, sizeof(ti_kind) * (size_t)width);
    bool header = opt->header == 1;
    for (int c = 0; c < width; c++) kinds[c] = ti_column_kind(recs, 1, n, c);
    if (opt->header < 0) header = ti_looks_like_header(recs, n, width, kinds);
    if (!header && n > 0) /* the first record is data: include it */
        for (int c = 0; c < width; c++) kinds[c] = ti_column_kind(recs, 0, n, c);
    opt->header = header ? 1 : 0;
    out->n_cols = width;
    out->names = ti_names(arena, header ? &recs[0] : NULL, width);
    out->types = sqe_arena_alloc(arena, sizeof(sqe_type) * (size_t)width);
    for (int c = 0; c < width; c++) out->types[c] = ti_type(kinds[c]);
    return true;
}
