/*
 * parquet_reader.c - the Parquet sqe_reader: footer -> schema binding by
 * name -> row-group pruning -> column chunks -> pages -> values converted
 * into the declared types' vectors (SPEC §4.4).
 *
 * Footer. The last 8 bytes are the footer length (LE u32) and "PAR1"
 * ("PARE": encrypted footer, NOT_SUPPORTED). One get_range of the last
 * PQ_TAIL_GUESS bytes usually holds the whole footer; otherwise the rest is
 * fetched. FileMetaData is decoded by parquet_meta.c into the reader's arena
 * (`meta_arena`), which lives as long as the reader.
 *
 * Binding. Top-level schema children bind to table columns by name, ignoring
 * ASCII case. A primitive, non-repeated child is a leaf column: its index in
 * the row groups' column chunk lists is its position among all leaves of the
 * schema (nested groups contribute their leaves too, which is why they are
 * walked even when skipped). A nested child (group, or REPEATED primitive)
 * that a projected column names is NOT_SUPPORTED; unprojected it is never
 * touched. Two file columns that match one table column ignoring case are
 * an error naming both. A declared column the file lacks reads as NULL.
 *
 * Types. Each bound column gets a *source kind* from its physical type and
 * annotations (logical type preferred, converted type as fallback, an
 * unknown logical type falls back to the converted/physical type as the
 * format asks of old readers) and is checked against the declared type once,
 * at open: an impossible pair (a string column declared INT) is
 * TYPE_MISMATCH naming file, column, file type and declared type. Value-level
 * failures (an INT64 beyond INTEGER's range, a decimal wider than the
 * declared precision, a millisecond timestamp beyond int64 micros) are
 * TYPE_MISMATCH naming file, column, value and declared type.
 *
 * Pages. Every projected leaf of the current row group has a chunk cursor.
 * Chunk bytes come through a window buffer of up to PQ_WINDOW bytes (one
 * get_range per window, so one per chunk for ordinary chunk sizes); a page
 * larger than the window gets a window of its own size (bounded by
 * SQE_PQ_MAX_PAGE and by the chunk's extent, itself checked against the
 * file size). A data page is decoded whole when it is reached: definition
 * levels (v1: RLE with a 4-byte length, or legacy BIT_PACKED; v2: RLE of
 * the stated length, never compressed), then the non-null values, decoded
 * (parquet_encoding.c) or looked up in the chunk's dictionary, and converted
 * into the declared type's vector representation (`vals`, out_w bytes each).
 * `next` then copies runs of values and NULLs into the batch; all columns of
 * a row group advance by the same row count, SQE_BATCH_ROWS at a time.
 * Page CRCs are verified when present (zlib's crc32, the checksum the
 * format specifies), so a corrupt page is INVALID_DATA rather than garbage.
 *
 * Lifetimes. Page, level, value and window buffers are malloc'd once per
 * column and reused page after page (values are copied into the vectors).
 * String columns are the exception: their values are views
 * (sqe_string_ref) whose bytes longer than 12 point into the page buffer,
 * the window or the dictionary, so for them those buffers are not reused
 * when the cursor moves past them but *retired*, and retired buffers are
 * freed at the start of the next `next` call (and at close). Every view in
 * the batch handed out thus stays valid until the caller asks for the next
 * one (the scan closes a reader only after the consumer is done with its
 * last batch).
 *
 * Pruning. spec->pred (AND of terms on data columns) is checked against each
 * row group's column-chunk statistics before any of its pages is read:
 * min/max are converted with the same code as values (so decimals are
 * rescaled, unsigned integers read unsigned, strings compared bytewise), the
 * deprecated min/max fields are used only for signed integer and floating
 * physical types, NaN bounds and NaN constants disable a term, and
 * null_count answers IS [NOT] NULL. A declared column missing from the file
 * is all NULL, which prunes comparisons too. Page-index pruning is not done
 * (pages_pruned stays 0).
 *
 * Dynamic filter. spec->dyn (a bound a TopN above tightens while the query
 * runs) is checked like the predicate before each row group, and again at
 * each `next` inside one when the bound changed: a group whose statistics
 * show every row sorts after the bound is skipped or left
 * (pq_rg_dyn_may_match).
 *
 * Dictionaries. Data pages of dictionary-encoded chunks keep their entry
 * indexes; pq_fill gathers the entries straight into the batch and, when
 * all rows of a batch come from the chunk's dictionary, tags the vector
 * with it (vector.h dictionaries) so hash aggregation can group by entry.
 *
 * Morsels. plan_morsels reads the footer and groups consecutive row groups
 * into ranges of about target_bytes of compressed column data (none when
 * the file is one range); open_range reads row groups [start, end) only.
 */
#include "format/format.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One value of w bytes: fixed-size copies the compiler inlines for the
 * common widths (a libc call per 8-byte value dominated dictionary pages). */
static inline void pq_copy_value(uint8_t *dst, const uint8_t *src, size_t w) {
    switch (w) {
    case 4:
        memcpy(dst, src, 4);
        break;
    case 8:
        memcpy(dst, src, 8);
        break;
    case 16:
        memcpy(dst, src, 16);
        break;
    default:
        memcpy(dst, src, w);
    }
}

#include <zlib.h>

#include "format/codec.h"
#include "format/parquet.h"

#define PQ_TAIL_GUESS (64u << 10)     /* bytes fetched first from the file's end */
#define PQ_WINDOW (8u << 20)          /* chunk bytes fetched per get_range */
#define PQ_PLAN_MAX_CHUNK (16u << 20) /* larger chunks are read through windows */
#define PQ_MAX_PAGE_VALUES (1u << 24) /* values of one page, decoded whole */
#define PQ_MAX_DICT_VALUES (1u << 24) /* entries of one dictionary */

/* What a file column's values are, after decoding (from its physical type
 * and annotations). */
typedef enum pq_src {
    PQ_S_BOOL = 0,
    PQ_S_INT,       /* signed integer (INT32/INT64, INTEGER(signed), INT_8..INT_64) */
    PQ_S_UINT,      /* unsigned integer annotation */
    PQ_S_FLOAT,     /* FLOAT */
    PQ_S_DOUBLE,    /* DOUBLE */
    PQ_S_FLOAT16,   /* FLBA(2) FLOAT16 */
    PQ_S_DECIMAL,   /* INT32/INT64/FLBA/BYTE_ARRAY DECIMAL(p,s) */
    PQ_S_STRING,    /* BYTE_ARRAY (unannotated, STRING, ENUM, JSON) */
    PQ_S_BINARY,    /* FLBA unannotated, BSON, geometry (WKB) */
    PQ_S_UUID,      /* FLBA(16) UUID */
    PQ_S_DATE,      /* INT32 days */
    PQ_S_TIMESTAMP, /* INT64 in `unit` */
    PQ_S_INT96,     /* INT96 Julian day + nanos */
    PQ_S_TIME,      /* INT32 millis / INT64 micros or nanos */
    PQ_S_NULL,      /* UNKNOWN logical type: always NULL */
    PQ_S_UNSUPPORTED,
} pq_src;

/* A retired buffer: malloc'd memory, an arena or a read plan range, freed
 * (released) at the next `next`. */
typedef struct pq_retired {
    void *mem;
    sqe_arena *arena;
    int plan_id; /* -1: none */
} pq_retired;

/* A reusable malloc'd buffer (contents undefined). */
typedef struct pq_buf {
    uint8_t *p;
    size_t cap;
} pq_buf;

/* One batch vector: a projected table column and its file column. */
typedef struct pq_col {
    int tcol;         /* table column */
    const char *name; /* table column name (lower case) */
    sqe_type type;    /* declared */
    size_t out_w;     /* sqe_type_width(type) */
    int leaf;         /* column chunk index in a row group, -1: missing (all NULL) */
    const sqe_pq_schema_elem *el;
    pq_src src;
    int src_scale;         /* DECIMAL */
    sqe_pq_time_unit unit; /* TIMESTAMP, TIME */
    int physical;
    int32_t type_length;
    size_t raw_w;       /* sqe_pq_value_width (0 for BYTE_ARRAY) */
    bool identity;      /* raw values are already the vector representation */
    int max_def;        /* 0 (REQUIRED) or 1 (OPTIONAL) */
    uint32_t max_chars; /* VARCHAR(n)/CHAR(n): keep n characters */
    /* chunk cursor */
    const sqe_pq_column_chunk *cc;
    sqe_codec codec;
    uint64_t pos, chunk_end; /* file offsets */
    uint8_t *win;            /* file bytes [win_off, win_off + win_len) */
    uint64_t win_off;
    size_t win_len, win_cap;
    int win_plan;          /* >= 0: win is that read plan range (not owned), the whole chunk */
    bool retain;           /* strings: views point into page/window buffers, which are retired */
    sqe_arena *dict_arena; /* dictionary values (converted), per chunk */
    uint8_t *dict;
    uint32_t n_dict;
    uint64_t dict_id;     /* sqe_vector_dict_new_id of the chunk's dictionary */
    uint64_t values_seen; /* level values of this chunk's pages so far */
    /* current page (decoded whole) */
    sqe_arena *page_arena; /* page-lifetime allocations (strings made here), or NULL */
    pq_buf pbuf, lvbuf, vbuf, ibuf, rbuf, bbuf; /* page, levels, values, indexes, raw, bytes */
    uint32_t page_n, page_pos;                  /* levels of the page, next one to hand out */
    uint8_t *defs;        /* per level: 1 = value present; NULL: all present */
    uint8_t *vals;        /* converted non-null values (not for dictionary pages) */
    const uint32_t *didx; /* dictionary page: entry of each non-null value; NULL: vals */
    uint32_t vals_pos;
} pq_col;

typedef struct pq_reader {
    sqe_reader base;
    sqe_store *store;
    char *path;
    uint64_t size;
    sqe_arena *meta_arena; /* footer structures, names */
    sqe_pq_file_meta meta;
    int n_cols;
    pq_col *cols;         /* one per batch vector (spec->n_proj) */
    sqe_format_pred pred; /* copied into meta_arena */
    sqe_dyn_filter *dyn;  /* spec->dyn when its column is projected, else NULL */
    sqe_dyn_bound dynb;   /* our copy of dyn's bound */
    int rg_next, rg_end;  /* row groups still to consider: [rg_next, rg_end) */
    int rg_cur;           /* row group being read, -1 none */
    int64_t rg_rows_left;
    SQE_ARRAY(pq_retired) retired;
    /* chunks through the read plan: ids per column (-1: windowed get_range)
     * for the current row group and for the one read ahead (ahead_rg) */
    sqe_readplan *plan;
    int *cur_ids, *ahead_ids;
    int ahead_rg;
    uint64_t bytes_direct; /* fetched outside the plan (footer, windows) */
} pq_reader;

/* ------------------------------------------------------------- errors */

static const char *pq_physical_name(int physical) {
    static const char *const names[] = {"BOOLEAN", "INT32",  "INT64",      "INT96",
                                        "FLOAT",   "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
    return physical >= 0 && physical < 8 ? names[physical] : "group";
}

static const char *pq_unit_name(sqe_pq_time_unit u) {
    return u == SQE_PQ_MILLIS ? "MILLIS" : u == SQE_PQ_MICROS ? "MICROS" : "NANOS";
}

/* "INT32 (DECIMAL(9,2))", "BYTE_ARRAY (STRING)", "INT64": the file type of a
 * leaf as users see it in parquet tools. */
static const char *pq_describe(const pq_col *c, char *buf, size_t n) {
    const sqe_pq_schema_elem *el = c->el;
    char phys[48];
    if (el->physical == SQE_PQ_FIXED_LEN_BYTE_ARRAY)
        snprintf(phys, sizeof phys, "FIXED_LEN_BYTE_ARRAY(%d)", (int)el->type_length);
    else
        snprintf(phys, sizeof phys, "%s", pq_physical_name(el->physical));
    const char *ann = NULL;
    char abuf[64];
    switch (c->src) {
    case PQ_S_DECIMAL:
        snprintf(abuf, sizeof abuf, "DECIMAL(%d,%d)", (int)el->precision, c->src_scale);
        ann = abuf;
        break;
    case PQ_S_UINT:
        ann = "unsigned INTEGER";
        break;
    case PQ_S_FLOAT16:
        ann = "FLOAT16";
        break;
    case PQ_S_UUID:
        ann = "UUID";
        break;
    case PQ_S_DATE:
        ann = "DATE";
        break;
    case PQ_S_TIMESTAMP:
        snprintf(abuf, sizeof abuf, "TIMESTAMP(%s)", pq_unit_name(c->unit));
        ann = abuf;
        break;
    case PQ_S_TIME:
        snprintf(abuf, sizeof abuf, "TIME(%s)", pq_unit_name(c->unit));
        ann = abuf;
        break;
    case PQ_S_STRING:
        if (el->logical.kind == SQE_PQ_LT_STRING || el->converted == SQE_PQ_CT_UTF8)
            ann = "STRING";
        else if (el->logical.kind == SQE_PQ_LT_ENUM || el->converted == SQE_PQ_CT_ENUM)
            ann = "ENUM";
        else if (el->logical.kind == SQE_PQ_LT_JSON || el->converted == SQE_PQ_CT_JSON)
            ann = "JSON";
        break;
    case PQ_S_NULL:
        ann = "UNKNOWN";
        break;
    default:
        break;
    }
    if (ann)
        snprintf(buf, n, "%s (%s)", phys, ann);
    else
        snprintf(buf, n, "%s", phys);
    return buf;
}

/* TYPE_MISMATCH for one value that does not fit the declared type. */
static bool pq_value_error(const pq_reader *r, const pq_col *c, const char *value, sqe_error *err) {
    char tbuf[48];
    return sqe_error_set(err, SQE_ERR_TYPE_MISMATCH,
                         "value %s of column '%s' in Parquet file '%s' does not fit the declared "
                         "type %s",
                         value, c->name, r->path, sqe_type_sql_name(c->type, tbuf, sizeof tbuf));
}

static bool pq_int_error(const pq_reader *r, const pq_col *c, sqe_i128 v, sqe_error *err) {
    char buf[64];
    sqe_decimal_format(v, 0, buf, sizeof buf);
    return pq_value_error(r, c, buf, err);
}

static bool pq_corrupt(const pq_reader *r, const pq_col *c, sqe_error *err, const char *fmt, ...)
    SQE_PRINTF(4, 5);
static bool pq_corrupt(const pq_reader *r, const pq_col *c, sqe_error *err, const char *fmt, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c)
        return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                             "Parquet file '%s', column '%s', row group %d: %s", r->path, c->name,
                             r->rg_cur, msg);
    return sqe_error_set(err, SQE_ERR_INVALID_DATA, "Parquet file '%s': %s", r->path, msg);
}

/* ------------------------------------------------------------ retiring */

static void pq_retire(pq_reader *r, void *mem, sqe_arena *arena) {
    if (!mem && !arena) return;
    pq_retired x = {mem, arena, -1};
    SQE_ARRAY_PUSH(NULL, r->retired, x);
}

static void pq_free_retired(pq_reader *r) {
    for (size_t i = 0; i < r->retired.len; i++) {
        sqe_free(r->retired.items[i].mem);
        sqe_arena_free(r->retired.items[i].arena);
        if (r->retired.items[i].plan_id >= 0)
            sqe_readplan_release(r->plan, r->retired.items[i].plan_id);
    }
    r->retired.len = 0;
}

/* Lets go of c's window: a plan range is released (retired when views may
 * point into it), an owned buffer retired when views may point into it,
 * else kept for reuse. */
static void pq_drop_win(pq_reader *r, pq_col *c) {
    if (c->win_plan >= 0) {
        if (c->retain) {
            pq_retired x = {NULL, NULL, c->win_plan};
            SQE_ARRAY_PUSH(NULL, r->retired, x);
        } else {
            sqe_readplan_release(r->plan, c->win_plan);
        }
        c->win_plan = -1;
        c->win = NULL;
        c->win_cap = 0;
    } else if (c->retain && c->win) {
        pq_retire(r, c->win, NULL);
        c->win = NULL;
        c->win_cap = 0;
    }
    c->win_len = 0;
}

/* A scratch buffer of at least n bytes. With `fresh` the old buffer is
 * retired (views into it may be in the batch handed out) instead of reused. */
static uint8_t *pq_buf_get(pq_reader *r, pq_buf *b, size_t n, bool fresh) {
    if (fresh && b->p) {
        pq_retire(r, b->p, NULL);
        b->p = NULL;
        b->cap = 0;
    }
    if (b->cap < n || !b->p) {
        sqe_free(b->p);
        b->cap = n + n / 4 + 64;
        b->p = sqe_malloc(b->cap);
    }
    return b->p;
}

static void pq_buf_free(pq_buf *b) {
    sqe_free(b->p);
    b->p = NULL;
    b->cap = 0;
}

/* --------------------------------------------------------------- footer */

static uint32_t pq_le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static bool pq_fetch(sqe_store *store, const char *path, uint64_t off, size_t len, uint8_t *buf,
                     uint64_t *bytes_read, sqe_error *err) {
    size_t n = 0;
    if (!store->vt->get_range(store, path, off, len, buf, &n, err)) return false;
    if (bytes_read) *bytes_read += n;
    if (n != len)
        return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                             "Parquet file '%s' is truncated: %zu bytes at offset %llu, expected "
                             "%zu (the file changed since it was listed?)",
                             path, n, (unsigned long long)off, len);
    return true;
}

/* The last `tail` bytes of the file: one suffix-range request where the
 * store has it (its answer also says the object's size, which must still be
 * the listed one), else a get_range at size - tail. */
static bool pq_fetch_tail(sqe_store *store, const char *path, uint64_t size, size_t tail,
                          uint8_t *buf, uint64_t *bytes_read, sqe_error *err) {
    if (!store->vt->get_tail) return pq_fetch(store, path, size - tail, tail, buf, bytes_read, err);
    size_t n = 0;
    uint64_t osize = 0;
    if (!store->vt->get_tail(store, path, tail, buf, &n, &osize, err)) return false;
    if (bytes_read) *bytes_read += n;
    if (osize != size || n != tail)
        return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                             "Parquet file '%s' is %llu bytes long, not its listed size of %llu "
                             "bytes (was it overwritten since it was listed?); run the query again",
                             path, (unsigned long long)osize, (unsigned long long)size);
    return true;
}

/* Reads and decodes the footer of `path` into `arena`. With `tail_keep`
 * the bytes fetched from the end (min(PQ_TAIL_GUESS, size) of them) are
 * handed over, so chunks inside them need no request of their own. */
static bool pq_read_footer(sqe_store *store, const char *path, uint64_t size, sqe_arena *arena,
                           sqe_pq_file_meta *meta, uint64_t *bytes_read, uint8_t **tail_keep,
                           sqe_error *err) {
    if (size < 12)
        return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                             "Parquet file '%s' is too short to be Parquet (%llu bytes; a Parquet "
                             "file has at least 12)",
                             path, (unsigned long long)size);
    size_t tail = (size_t)SQE_MIN((uint64_t)PQ_TAIL_GUESS, size);
    uint8_t *buf = sqe_malloc(tail);
    bool ok = false;
    uint8_t *full = NULL;
    if (!pq_fetch_tail(store, path, size, tail, buf, bytes_read, err)) goto done;
    const uint8_t *t = buf + tail - 8;
    if (memcmp(t + 4, "PARE", 4) == 0) {
        sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                      "Parquet file '%s': encrypted Parquet is not supported (the file has an "
                      "encrypted footer)",
                      path);
        goto done;
    }
    if (memcmp(t + 4, "PAR1", 4) != 0) {
        sqe_error_set(err, SQE_ERR_INVALID_DATA,
                      "file '%s' is not a Parquet file: it does not end with the magic bytes "
                      "\"PAR1\"",
                      path);
        goto done;
    }
    uint32_t flen = pq_le32(t);
    if (flen == 0 || (uint64_t)flen > size - 12 || flen > SQE_PQ_MAX_FOOTER) {
        sqe_error_set(err, SQE_ERR_INVALID_DATA,
                      "Parquet file '%s' has an invalid footer length of %u bytes (file size "
                      "%llu, limit %u)",
                      path, flen, (unsigned long long)size, (unsigned)SQE_PQ_MAX_FOOTER);
        goto done;
    }
    const uint8_t *fp;
    if ((size_t)flen + 8 <= tail) {
        fp = buf + tail - 8 - flen;
    } else {
        full = sqe_malloc(flen);
        size_t have = tail - 8; /* the footer's last `have` bytes are in buf */
        memcpy(full + flen - have, buf, have);
        if (!pq_fetch(store, path, size - 8 - flen, flen - have, full, bytes_read, err)) goto done;
        fp = full;
    }
    if (!sqe_pq_parse_file_meta(fp, flen, arena, meta, err)) {
        sqe_error_prefix(err, "Parquet file '%s': footer: ", path);
        goto done;
    }
    if (meta->has_encryption_algorithm) {
        sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                      "Parquet file '%s': encrypted Parquet is not supported (the footer is "
                      "plaintext but columns are encrypted)",
                      path);
        goto done;
    }
    ok = true;
    if (tail_keep) {
        *tail_keep = buf;
        buf = NULL;
    }
done:
    sqe_free(full);
    sqe_free(buf);
    return ok;
}

/* ---------------------------------------------------------- type binding */

/* The source kind of an unannotated physical type. */
static pq_src pq_physical_src(int ph) {
    static const pq_src k_src[] = {
        [SQE_PQ_BOOLEAN] = PQ_S_BOOL,      [SQE_PQ_INT32] = PQ_S_INT,
        [SQE_PQ_INT64] = PQ_S_INT,         [SQE_PQ_INT96] = PQ_S_INT96,
        [SQE_PQ_FLOAT] = PQ_S_FLOAT,       [SQE_PQ_DOUBLE] = PQ_S_DOUBLE,
        [SQE_PQ_BYTE_ARRAY] = PQ_S_STRING, [SQE_PQ_FIXED_LEN_BYTE_ARRAY] = PQ_S_BINARY,
    };
    return ph >= 0 && (size_t)ph < SQE_ARRAY_LEN(k_src) ? k_src[ph] : PQ_S_UNSUPPORTED;
}

/* The source kind of a leaf from its physical type and annotations. */
/* The logical kind a legacy converted type stands for (setting c->unit for
 * TIME/TIMESTAMP); UINT_* set *s to PQ_S_UINT and leave the kind NONE. */
static sqe_pq_logical_kind pq_converted_kind(pq_col *c, pq_src *s) {
    const sqe_pq_schema_elem *el = c->el;
    sqe_pq_logical_kind k = SQE_PQ_LT_NONE;
    switch (el->converted) {
    case SQE_PQ_CT_UTF8:
        k = SQE_PQ_LT_STRING;
        break;
    case SQE_PQ_CT_ENUM:
        k = SQE_PQ_LT_ENUM;
        break;
    case SQE_PQ_CT_JSON:
        k = SQE_PQ_LT_JSON;
        break;
    case SQE_PQ_CT_BSON:
        k = SQE_PQ_LT_BSON;
        break;
    case SQE_PQ_CT_DECIMAL:
        k = SQE_PQ_LT_DECIMAL;
        break;
    case SQE_PQ_CT_DATE:
        k = SQE_PQ_LT_DATE;
        break;
    case SQE_PQ_CT_TIME_MILLIS:
    case SQE_PQ_CT_TIME_MICROS:
        k = SQE_PQ_LT_TIME;
        c->unit = el->converted == SQE_PQ_CT_TIME_MILLIS ? SQE_PQ_MILLIS : SQE_PQ_MICROS;
        break;
    case SQE_PQ_CT_TIMESTAMP_MILLIS:
    case SQE_PQ_CT_TIMESTAMP_MICROS:
        k = SQE_PQ_LT_TIMESTAMP;
        c->unit = el->converted == SQE_PQ_CT_TIMESTAMP_MILLIS ? SQE_PQ_MILLIS : SQE_PQ_MICROS;
        break;
    case SQE_PQ_CT_UINT_8:
    case SQE_PQ_CT_UINT_16:
    case SQE_PQ_CT_UINT_32:
    case SQE_PQ_CT_UINT_64:
        *s = PQ_S_UINT;
        break;
    case SQE_PQ_CT_INTERVAL:
        *s = PQ_S_UNSUPPORTED;
        k = SQE_PQ_LT_OTHER;
        break;
    default:
        break;
    }
    return k;
}

static void pq_classify(pq_col *c) {
    const sqe_pq_schema_elem *el = c->el;
    const sqe_pq_logical *lt = &el->logical;
    int ph = el->physical;
    c->unit = SQE_PQ_MICROS;
    c->src_scale = 0;
    pq_src s = PQ_S_UNSUPPORTED;
    sqe_pq_logical_kind k = lt->kind == SQE_PQ_LT_OTHER ? SQE_PQ_LT_NONE : lt->kind;
    if (k == SQE_PQ_LT_NONE) { /* fall back to the converted type */
        k = pq_converted_kind(c, &s);
    } else if (k == SQE_PQ_LT_TIME || k == SQE_PQ_LT_TIMESTAMP) {
        c->unit = lt->unit;
    }
    switch (k) {
    case SQE_PQ_LT_STRING:
    case SQE_PQ_LT_ENUM:
    case SQE_PQ_LT_JSON:
        s = ph == SQE_PQ_BYTE_ARRAY ? PQ_S_STRING : PQ_S_UNSUPPORTED;
        break;
    case SQE_PQ_LT_BSON:
    case SQE_PQ_LT_GEOMETRY:
    case SQE_PQ_LT_GEOGRAPHY:
        s = ph == SQE_PQ_BYTE_ARRAY ? PQ_S_BINARY : PQ_S_UNSUPPORTED;
        break;
    case SQE_PQ_LT_DECIMAL: {
        bool ok = ph == SQE_PQ_INT32 || ph == SQE_PQ_INT64 || ph == SQE_PQ_BYTE_ARRAY ||
                  ph == SQE_PQ_FIXED_LEN_BYTE_ARRAY;
        int scale = lt->kind == SQE_PQ_LT_DECIMAL ? lt->scale : el->scale;
        int prec = lt->kind == SQE_PQ_LT_DECIMAL ? lt->precision : el->precision;
        s = ok && scale >= 0 && prec >= 1 && scale <= prec && scale <= SQE_DECIMAL_MAX_PRECISION
                ? PQ_S_DECIMAL
                : PQ_S_UNSUPPORTED;
        c->src_scale = scale;
        break;
    }
    case SQE_PQ_LT_DATE:
        s = ph == SQE_PQ_INT32 ? PQ_S_DATE : PQ_S_UNSUPPORTED;
        break;
    case SQE_PQ_LT_TIME:
        s = (ph == SQE_PQ_INT32 && c->unit == SQE_PQ_MILLIS) ||
                    (ph == SQE_PQ_INT64 && c->unit != SQE_PQ_MILLIS)
                ? PQ_S_TIME
                : PQ_S_UNSUPPORTED;
        break;
    case SQE_PQ_LT_TIMESTAMP:
        s = ph == SQE_PQ_INT64 ? PQ_S_TIMESTAMP : PQ_S_UNSUPPORTED;
        break;
    case SQE_PQ_LT_INTEGER:
        s = ph == SQE_PQ_INT32 || ph == SQE_PQ_INT64 ? (lt->is_signed ? PQ_S_INT : PQ_S_UINT)
                                                     : PQ_S_UNSUPPORTED;
        break;
    case SQE_PQ_LT_UUID:
        s = ph == SQE_PQ_FIXED_LEN_BYTE_ARRAY && el->type_length == 16 ? PQ_S_UUID
                                                                       : PQ_S_UNSUPPORTED;
        break;
    case SQE_PQ_LT_FLOAT16:
        s = ph == SQE_PQ_FIXED_LEN_BYTE_ARRAY && el->type_length == 2 ? PQ_S_FLOAT16
                                                                      : PQ_S_UNSUPPORTED;
        break;
    case SQE_PQ_LT_UNKNOWN:
        s = PQ_S_NULL;
        break;
    case SQE_PQ_LT_NONE:
        if (s == PQ_S_UINT) {
            if (ph != SQE_PQ_INT32 && ph != SQE_PQ_INT64) s = PQ_S_UNSUPPORTED;
            break;
        }
        s = pq_physical_src(ph);
        break;
    default:
        s = PQ_S_UNSUPPORTED;
        break; /* INTERVAL, VARIANT, MAP/LIST on a leaf */
    }
    if ((s == PQ_S_TIME || s == PQ_S_TIMESTAMP) && (unsigned)c->unit > SQE_PQ_NANOS)
        s = PQ_S_UNSUPPORTED;
    c->src = s;
}

/* Whether values of source kind `s` can be read into declared type `t`. */
static bool pq_compatible(pq_src s, sqe_type t) {
    switch (t.id) {
    case SQE_T_BOOLEAN:
        return s == PQ_S_BOOL;
    case SQE_T_TINYINT:
    case SQE_T_SMALLINT:
    case SQE_T_INTEGER:
    case SQE_T_BIGINT:
        return s == PQ_S_INT || s == PQ_S_UINT;
    case SQE_T_REAL:
    case SQE_T_DOUBLE:
        return s == PQ_S_INT || s == PQ_S_UINT || s == PQ_S_FLOAT || s == PQ_S_DOUBLE ||
               s == PQ_S_FLOAT16 || s == PQ_S_DECIMAL;
    case SQE_T_DECIMAL:
        return s == PQ_S_INT || s == PQ_S_UINT || s == PQ_S_DECIMAL;
    case SQE_T_VARCHAR:
        return s == PQ_S_STRING || s == PQ_S_BINARY || s == PQ_S_UUID || s == PQ_S_TIME;
    case SQE_T_VARBINARY:
        return s == PQ_S_STRING || s == PQ_S_BINARY || s == PQ_S_UUID;
    case SQE_T_DATE:
        return s == PQ_S_DATE;
    case SQE_T_TIMESTAMP:
        return s == PQ_S_TIMESTAMP || s == PQ_S_INT96 || s == PQ_S_DATE;
    default:
        return false;
    }
}

/* Whether the decoded raw values already are the vector representation. */
static bool pq_is_identity(const pq_col *c) {
    switch (c->type.id) {
    case SQE_T_BOOLEAN:
        return c->src == PQ_S_BOOL;
    case SQE_T_INTEGER:
        return c->src == PQ_S_INT && c->physical == SQE_PQ_INT32;
    case SQE_T_BIGINT:
        return c->src == PQ_S_INT && c->physical == SQE_PQ_INT64;
    case SQE_T_REAL:
        return c->src == PQ_S_FLOAT;
    case SQE_T_DOUBLE:
        return c->src == PQ_S_DOUBLE;
    case SQE_T_DATE:
        return c->src == PQ_S_DATE;
    case SQE_T_TIMESTAMP:
        return c->src == PQ_S_TIMESTAMP && c->unit == SQE_PQ_MICROS;
    default:
        return false;
    }
}

/* Finds the leaf for every projected column and checks the types. */
/* Types of the bound leaves: source kinds, and whether the declared types
 * can hold them (NOT_SUPPORTED / TYPE_MISMATCH naming the column). */
static bool pq_check_types(pq_reader *r, sqe_error *err) {
    for (int i = 0; i < r->n_cols; i++) {
        pq_col *c = &r->cols[i];
        if (c->leaf < 0) continue;
        c->physical = c->el->physical;
        c->type_length = c->el->type_length;
        if (c->physical == SQE_PQ_FIXED_LEN_BYTE_ARRAY &&
            (c->type_length <= 0 || c->type_length > (1 << 20)))
            return pq_corrupt(r, c, err, "FIXED_LEN_BYTE_ARRAY column with length %d",
                              (int)c->type_length);
        c->raw_w = sqe_pq_value_width(c->physical, c->type_length);
        c->max_def = c->el->repetition == SQE_PQ_OPTIONAL ? 1 : 0;
        pq_classify(c);
        char fbuf[96], tbuf[48];
        if (c->src == PQ_S_UNSUPPORTED)
            return sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                                 "column '%s' of Parquet file '%s' has a type sqe cannot read "
                                 "(%s, logical type %d, converted type %d)",
                                 c->name, r->path, pq_describe(c, fbuf, sizeof fbuf),
                                 (int)c->el->logical.kind, c->el->converted);
        if (c->src == PQ_S_NULL) {
            c->leaf = -1; /* always NULL: nothing to read */
            continue;
        }
        if (!pq_compatible(c->src, c->type))
            return sqe_error_set(err, SQE_ERR_TYPE_MISMATCH,
                                 "column '%s' in Parquet file '%s' has type %s, which cannot be "
                                 "read as the declared type %s",
                                 c->name, r->path, pq_describe(c, fbuf, sizeof fbuf),
                                 sqe_type_sql_name(c->type, tbuf, sizeof tbuf));
        c->identity = pq_is_identity(c);
    }
    return true;
}

static bool pq_bind(pq_reader *r, const sqe_reader_spec *spec, sqe_error *err) {
    const sqe_pq_file_meta *m = &r->meta;
    if (m->n_schema < 1 || m->schema[0].num_children < 0)
        return pq_corrupt(r, NULL, err, "the schema has no root element");
    for (int i = 0; i < r->n_cols; i++) r->cols[i].leaf = -1;
    int leaf = 0, idx = 1;
    int n_top = m->schema[0].num_children;
    const sqe_pq_schema_elem **bound = sqe_calloc((size_t)r->n_cols + 1, sizeof *bound);
    bool ok = true;
    for (int t = 0; t < n_top && ok; t++) {
        if (idx >= m->n_schema) {
            ok = pq_corrupt(r, NULL, err, "the schema ends before its %d top-level columns", n_top);
            break;
        }
        const sqe_pq_schema_elem *el = &m->schema[idx];
        /* Walk this child's subtree: count its elements and leaves. */
        int first_leaf = leaf, pending = 1, j = idx;
        while (pending > 0) {
            if (j >= m->n_schema) {
                ok = pq_corrupt(r, NULL, err, "the schema tree of column '%s' is truncated",
                                el->name);
                break;
            }
            pending--;
            if (m->schema[j].physical < 0 || m->schema[j].num_children > 0) {
                if (m->schema[j].num_children > m->n_schema) {
                    ok = pq_corrupt(r, NULL, err, "schema element '%s' has %d children",
                                    m->schema[j].name, (int)m->schema[j].num_children);
                    break;
                }
                pending += m->schema[j].num_children;
            } else {
                leaf++;
            }
            j++;
        }
        if (!ok) break;
        idx = j;
        bool nested = el->physical < 0 || el->num_children > 0 || el->repetition == SQE_PQ_REPEATED;
        for (int i = 0; i < r->n_cols && ok; i++) {
            pq_col *c = &r->cols[i];
            if (!el->name || !sqe_str_ieq(el->name, c->name)) continue;
            if (bound[i]) {
                ok = sqe_error_set(err, SQE_ERR_INVALID_DATA,
                                   "Parquet file '%s' has two columns that both match column '%s' "
                                   "when case is ignored: '%s' and '%s'",
                                   r->path, c->name, bound[i]->name, el->name);
                break;
            }
            bound[i] = el;
            if (nested) {
                const char *kind =
                    el->logical.kind == SQE_PQ_LT_LIST || el->converted == SQE_PQ_CT_LIST ? "LIST"
                    : el->logical.kind == SQE_PQ_LT_MAP || el->converted == SQE_PQ_CT_MAP ||
                            el->converted == SQE_PQ_CT_MAP_KEY_VALUE
                        ? "MAP"
                    : el->physical >= 0 ? "repeated"
                                        : "struct";
                ok = sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                                   "nested Parquet column '%s' (%s) is not supported yet (file "
                                   "'%s'); leave it out of the table or the query",
                                   el->name, kind, r->path);
                break;
            }
            c->leaf = first_leaf;
            c->el = el;
        }
    }
    sqe_free(bound);
    if (!ok) return false;
    return pq_check_types(r, err);
}

/* ----------------------------------------------------------- conversion */

static inline int64_t pq_get_i64(const pq_col *c, const uint8_t *raw, uint32_t i) {
    if (c->physical == SQE_PQ_INT32) {
        int32_t v;
        memcpy(&v, raw + (size_t)i * 4, 4);
        return c->src == PQ_S_UINT ? (int64_t)(uint32_t)v : (int64_t)v;
    }
    int64_t v;
    memcpy(&v, raw + (size_t)i * 8, 8);
    return v;
}

/* Integer value i as i128 (UINT64 values above INT64_MAX stay positive). */
static inline sqe_i128 pq_get_int(const pq_col *c, const uint8_t *raw, uint32_t i) {
    int64_t v = pq_get_i64(c, raw, i);
    if (c->src == PQ_S_UINT && c->physical == SQE_PQ_INT64) return (sqe_i128)(uint64_t)v;
    return (sqe_i128)v;
}

/* The i-th binary value (BYTE_ARRAY, or FLBA from raw or bytes). */
static inline void pq_get_bin(const pq_col *c, const uint8_t *raw, const sqe_pq_bytes *bytes,
                              uint32_t i, const uint8_t **p, uint32_t *len) {
    if (bytes) {
        *p = bytes[i].ptr;
        *len = bytes[i].len;
    } else {
        *p = raw + (size_t)i * c->raw_w;
        *len = (uint32_t)c->raw_w;
    }
}

/* Big-endian two's complement bytes as i128; false when they do not fit. */
static inline bool pq_be_to_i128(const uint8_t *p, uint32_t len, sqe_i128 *out) {
    if (len == 0) {
        *out = 0;
        return true;
    }
    if (len <= 8) { /* the common widths: one load, a byte swap, a sign extension */
        uint64_t v = 0;
        memcpy((uint8_t *)&v + 8 - len, p, len);
        v = __builtin_bswap64(v);
        unsigned shift = 64 - 8 * len;
        *out = (sqe_i128)((int64_t)(v << shift) >> shift);
        return true;
    }
    if (len == 16) {
        uint64_t hi, lo;
        memcpy(&hi, p, 8);
        memcpy(&lo, p + 8, 8);
        *out = (sqe_i128)(((unsigned __int128)__builtin_bswap64(hi) << 64) | __builtin_bswap64(lo));
        return true;
    }
    uint8_t sign = (p[0] & 0x80) ? 0xFF : 0x00;
    while (len > 16) { /* leading bytes must be sign extension */
        if (p[0] != sign) return false;
        p++;
        len--;
    }
    if (len == 16 && ((p[0] & 0x80) ? 0xFF : 0x00) != sign) return false;
    unsigned __int128 u = sign ? ~(unsigned __int128)0 : 0;
    for (uint32_t i = 0; i < len; i++) u = (u << 8) | p[i];
    *out = (sqe_i128)u;
    return true;
}

static inline bool pq_get_decimal(const pq_reader *r, const pq_col *c, const uint8_t *raw,
                                  const sqe_pq_bytes *bytes, uint32_t i, sqe_i128 *out,
                                  sqe_error *err) {
    if (c->physical == SQE_PQ_INT32 || c->physical == SQE_PQ_INT64) {
        *out = (sqe_i128)pq_get_i64(c, raw, i);
        return true;
    }
    const uint8_t *p;
    uint32_t len;
    pq_get_bin(c, raw, bytes, i, &p, &len);
    if (!pq_be_to_i128(p, len, out))
        return pq_value_error(r, c, "(a decimal wider than 38 digits)", err);
    return true;
}

static float pq_half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1F, man = h & 0x3FF, bits;
    if (exp == 0) {
        float f = ldexpf((float)man, -24);
        return sign ? -f : f;
    }
    if (exp == 31)
        bits = sign | 0x7F800000u | (man << 13);
    else
        bits = sign | ((exp + 112) << 23) | (man << 13);
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

/* Value i as a double (numeric sources). */
static double pq_get_double(const pq_col *c, const uint8_t *raw, uint32_t i, sqe_i128 dec) {
    switch (c->src) {
    case PQ_S_FLOAT: {
        float f;
        memcpy(&f, raw + (size_t)i * 4, 4);
        return f;
    }
    case PQ_S_DOUBLE: {
        double d;
        memcpy(&d, raw + (size_t)i * 8, 8);
        return d;
    }
    case PQ_S_FLOAT16: {
        uint16_t h = (uint16_t)(raw[(size_t)i * 2] | raw[(size_t)i * 2 + 1] << 8);
        return pq_half_to_float(h);
    }
    case PQ_S_DECIMAL:
        return sqe_decimal_to_double(dec, c->src_scale);
    default:
        return (double)pq_get_int(c, raw, i);
    }
}

static const int64_t pq_unit_per_day[] = {86400000LL, 86400000000LL, 86400000000000LL};

/* Timestamp value i in micros; false when out of range. */
static bool pq_get_ts(const pq_reader *r, const pq_col *c, const uint8_t *raw, uint32_t i,
                      int64_t *out, sqe_error *err) {
    if (c->src == PQ_S_DATE) {
        int32_t d;
        memcpy(&d, raw + (size_t)i * 4, 4);
        *out = (int64_t)d * 86400000000LL;
        return true;
    }
    if (c->src == PQ_S_INT96) {
        const uint8_t *p = raw + (size_t)i * 12;
        int64_t nanos;
        int32_t jd;
        memcpy(&nanos, p, 8);
        memcpy(&jd, p + 8, 4);
        sqe_i128 us = ((sqe_i128)jd - 2440588) * 86400000000LL +
                      (nanos >= 0 ? nanos / 1000 : -((-nanos + 999) / 1000));
        if (us > INT64_MAX || us < INT64_MIN) return pq_int_error(r, c, us, err);
        *out = (int64_t)us;
        return true;
    }
    int64_t v;
    memcpy(&v, raw + (size_t)i * 8, 8);
    switch (c->unit) {
    case SQE_PQ_MILLIS:
        if (v > INT64_MAX / 1000 || v < INT64_MIN / 1000) return pq_int_error(r, c, v, err);
        *out = v * 1000;
        return true;
    case SQE_PQ_NANOS: /* truncate toward the past */
        *out = v / 1000 - (v % 1000 < 0 ? 1 : 0);
        return true;
    default:
        *out = v;
        return true;
    }
}

/* "HH:MM:SS.fff" (millis), ".ffffff" (micros), ".fffffffff" (nanos). */
static uint32_t pq_format_time(int64_t v, sqe_pq_time_unit unit, char *buf) {
    int digits = unit == SQE_PQ_MILLIS ? 3 : unit == SQE_PQ_MICROS ? 6 : 9;
    int64_t per_sec = unit == SQE_PQ_MILLIS ? 1000 : unit == SQE_PQ_MICROS ? 1000000 : 1000000000;
    int64_t day = pq_unit_per_day[unit];
    v %= day;
    if (v < 0) v += day;
    int64_t secs = v / per_sec, frac = v % per_sec;
    return (uint32_t)snprintf(buf, 32, "%02d:%02d:%02d.%0*lld", (int)(secs / 3600),
                              (int)(secs / 60 % 60), (int)(secs % 60), digits, (long long)frac);
}

static size_t pq_utf8_prefix(const uint8_t *p, size_t n, uint32_t max_chars) {
    if (n <= max_chars) return n;
    uint32_t chars = 0;
    for (size_t i = 0; i < n; i++)
        if ((p[i] & 0xC0) != 0x80) {
            if (chars == max_chars) return i;
            chars++;
        }
    return n;
}

static bool pq_convert_strings(const pq_col *c, const uint8_t *raw, const sqe_pq_bytes *bytes,
                               uint32_t n, sqe_string *dst, sqe_arena *arena) {
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *p;
        uint32_t len;
        if (c->src == PQ_S_TIME) {
            char *b = sqe_arena_alloc(arena, 32);
            len = pq_format_time(pq_get_i64(c, raw, i), c->unit, b);
            dst[i] = sqe_string_ref(b, len);
            continue;
        }
        pq_get_bin(c, raw, bytes, i, &p, &len);
        if (c->src == PQ_S_UUID && c->type.id == SQE_T_VARCHAR) {
            static const char hex[] = "0123456789abcdef";
            char *b = sqe_arena_alloc(arena, 37);
            int k = 0;
            for (int j = 0; j < 16; j++) {
                if (j == 4 || j == 6 || j == 8 || j == 10) b[k++] = '-';
                b[k++] = hex[p[j] >> 4];
                b[k++] = hex[p[j] & 15];
            }
            dst[i] = sqe_string_ref(b, 36);
            continue;
        }
        if (c->max_chars) len = (uint32_t)pq_utf8_prefix(p, len, c->max_chars);
        if (c->max_chars && c->type.str_kind == SQE_STRKIND_CHAR) {
            /* CHAR(n): padded with spaces to n characters, as CAST and the
             * text readers give it (Trino's CHAR) */
            uint32_t chars = 0;
            for (uint32_t j = 0; j < len; j++) chars += (p[j] & 0xC0) != 0x80;
            if (chars < c->max_chars) {
                uint32_t total = len + (c->max_chars - chars);
                char *b = sqe_arena_alloc(arena, total);
                if (len) memcpy(b, p, len);
                memset(b + len, ' ', total - len);
                dst[i] = sqe_string_ref(b, total);
                continue;
            }
        }
        dst[i] = sqe_string_ref((const char *)p, len);
    }
    return true;
}

static bool pq_convert_ints(const pq_reader *r, const pq_col *c, const uint8_t *raw, uint32_t n,
                            uint8_t *dst, sqe_error *err) {
    sqe_i128 lo, hi;
    switch (c->type.id) {
    case SQE_T_TINYINT:
        lo = INT8_MIN, hi = INT8_MAX;
        break;
    case SQE_T_SMALLINT:
        lo = INT16_MIN, hi = INT16_MAX;
        break;
    case SQE_T_INTEGER:
        lo = INT32_MIN, hi = INT32_MAX;
        break;
    default:
        lo = INT64_MIN, hi = INT64_MAX;
        break;
    }
    for (uint32_t i = 0; i < n; i++) {
        sqe_i128 v = pq_get_int(c, raw, i);
        if (v < lo || v > hi) return pq_int_error(r, c, v, err);
        switch (c->type.id) {
        case SQE_T_TINYINT:
            ((int8_t *)dst)[i] = (int8_t)v;
            break;
        case SQE_T_SMALLINT:
            ((int16_t *)dst)[i] = (int16_t)v;
            break;
        case SQE_T_INTEGER:
            ((int32_t *)dst)[i] = (int32_t)v;
            break;
        default:
            ((int64_t *)dst)[i] = (int64_t)v;
            break;
        }
    }
    return true;
}

static bool pq_convert_decimals(const pq_reader *r, const pq_col *c, const uint8_t *raw,
                                const sqe_pq_bytes *bytes, uint32_t n, sqe_i128 *dst,
                                sqe_error *err) {
    int from = c->src == PQ_S_DECIMAL ? c->src_scale : 0, to = c->type.scale;
    for (uint32_t i = 0; i < n; i++) {
        sqe_i128 v;
        if (c->src == PQ_S_DECIMAL) {
            if (!pq_get_decimal(r, c, raw, bytes, i, &v, err)) return false;
        } else {
            v = pq_get_int(c, raw, i);
        }
        sqe_i128 o;
        if (!sqe_decimal_rescale(v, from, to, &o) || !sqe_decimal_fits(o, c->type.precision)) {
            char buf[64];
            sqe_decimal_format(v, from, buf, sizeof buf);
            return pq_value_error(r, c, buf, err);
        }
        dst[i] = o;
    }
    return true;
}

/* Converts n decoded non-null values (raw fixed-width values, or `bytes`)
 * into the vector representation of c->type at dst. Strings made here live
 * in `arena`; the others point into raw/bytes' buffers. */
static bool pq_convert(const pq_reader *r, const pq_col *c, const uint8_t *raw,
                       const sqe_pq_bytes *bytes, uint32_t n, uint8_t *dst, sqe_arena *arena,
                       sqe_error *err) {
    if (c->identity) {
        memcpy(dst, raw, (size_t)n * c->out_w);
        return true;
    }
    switch (c->type.id) {
    case SQE_T_TINYINT:
    case SQE_T_SMALLINT:
    case SQE_T_INTEGER:
    case SQE_T_BIGINT:
        return pq_convert_ints(r, c, raw, n, dst, err);
    case SQE_T_REAL:
    case SQE_T_DOUBLE:
        for (uint32_t i = 0; i < n; i++) {
            sqe_i128 dec = 0;
            if (c->src == PQ_S_DECIMAL && !pq_get_decimal(r, c, raw, bytes, i, &dec, err))
                return false;
            double d = pq_get_double(c, raw, i, dec);
            if (c->type.id == SQE_T_REAL)
                ((float *)dst)[i] = (float)d;
            else
                ((double *)dst)[i] = d;
        }
        return true;
    case SQE_T_DECIMAL:
        return pq_convert_decimals(r, c, raw, bytes, n, (sqe_i128 *)dst, err);
    case SQE_T_VARCHAR:
    case SQE_T_VARBINARY:
        return pq_convert_strings(c, raw, bytes, n, (sqe_string *)dst, arena);
    case SQE_T_TIMESTAMP:
        for (uint32_t i = 0; i < n; i++)
            if (!pq_get_ts(r, c, raw, i, &((int64_t *)dst)[i], err)) return false;
        return true;
    default:
        return sqe_error_set(err, SQE_ERR_INTERNAL, "Parquet reader: no conversion to type %d",
                             (int)c->type.id);
    }
}

static sqe_arena *pq_page_arena(pq_col *c) {
    if (!c->page_arena) c->page_arena = sqe_arena_new(16384);
    return c->page_arena;
}

/* Memory of n * w bytes for decoding: from `arena` (dictionaries, kept for
 * the chunk) or the column's page buffer b (fresh for retained columns). */
static uint8_t *pq_decode_mem(pq_reader *r, pq_col *c, sqe_arena *arena, pq_buf *b, size_t n,
                              bool fresh) {
    return arena ? sqe_arena_alloc(arena, n) : pq_buf_get(r, b, n, fresh);
}

/* Decodes n values of column c encoded with `encoding` at [p, p+len) and
 * converts them into dst (n * out_w bytes). Memory from `arena` when given
 * (dictionary values), else the column's page buffers. */
static bool pq_decode_convert(pq_reader *r, pq_col *c, int encoding, const uint8_t *p, size_t len,
                              uint32_t n, uint8_t *dst, sqe_arena *arena, sqe_error *err) {
    if (n == 0) return true;
    uint8_t *raw = NULL;
    sqe_pq_bytes *bytes = NULL;
    bool direct = c->identity && c->raw_w == c->out_w;
    bool makes_bytes =
        encoding == SQE_PQ_DELTA_BYTE_ARRAY ||
        ((c->src == PQ_S_UUID || c->src == PQ_S_TIME) && c->type.id == SQE_T_VARCHAR) ||
        (c->max_chars && c->type.str_kind == SQE_STRKIND_CHAR); /* padded copies */
    sqe_arena *strs = arena ? arena : makes_bytes ? pq_page_arena(c) : NULL;
    if (c->raw_w == 0 ||
        (c->physical == SQE_PQ_FIXED_LEN_BYTE_ARRAY &&
         (encoding == SQE_PQ_DELTA_BYTE_ARRAY || encoding == SQE_PQ_DELTA_LENGTH_BYTE_ARRAY)))
        bytes =
            (sqe_pq_bytes *)pq_decode_mem(r, c, arena, &c->bbuf, (size_t)n * sizeof *bytes, false);
    else
        raw = direct ? dst : pq_decode_mem(r, c, arena, &c->rbuf, (size_t)n * c->raw_w, c->retain);
    if (!sqe_pq_decode_values(c->physical, c->type_length, encoding, p, len, n, raw, bytes, strs,
                              err))
        return false;
    if (bytes && c->physical == SQE_PQ_FIXED_LEN_BYTE_ARRAY) { /* back to fixed width */
        raw = direct ? dst : pq_decode_mem(r, c, arena, &c->rbuf, (size_t)n * c->raw_w, c->retain);
        for (uint32_t i = 0; i < n; i++) {
            if (bytes[i].len != c->raw_w)
                return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                                     "a FIXED_LEN_BYTE_ARRAY(%d) value of %u bytes", c->type_length,
                                     bytes[i].len);
            memcpy(raw + (size_t)i * c->raw_w, bytes[i].ptr, c->raw_w);
        }
        bytes = NULL;
    }
    if (direct) return true;
    return pq_convert(r, c, raw, bytes, n, dst, strs, err);
}

/* ----------------------------------------------------------- chunk bytes */

/* Makes file bytes [c->pos, c->pos + need) available at c->win. */
static bool pq_ensure(pq_reader *r, pq_col *c, size_t need, sqe_error *err) {
    if (c->win && c->pos >= c->win_off && c->pos + need <= c->win_off + c->win_len) return true;
    if (need > c->chunk_end - c->pos)
        return pq_corrupt(r, c, err,
                          "a page at byte %llu runs past the end of its column chunk (byte %llu)",
                          (unsigned long long)c->pos, (unsigned long long)c->chunk_end);
    size_t len = (size_t)SQE_MIN((uint64_t)SQE_MAX((size_t)PQ_WINDOW, need), c->chunk_end - c->pos);
    pq_drop_win(r, c); /* views may point into it */
    if (c->win_cap < len || !c->win) {
        sqe_free(c->win);
        c->win_cap = len ? len : 1;
        c->win = sqe_malloc(c->win_cap);
    }
    c->win_off = c->pos;
    c->win_len = len;
    return pq_fetch(r->store, r->path, c->pos, len, c->win, &r->bytes_direct, err);
}

static const uint8_t *pq_at(const pq_col *c) {
    return c->win + (c->pos - c->win_off);
}

static sqe_codec pq_codec_of(int codec) {
    switch (codec) {
    case SQE_PQ_UNCOMPRESSED:
        return SQE_CODEC_NONE;
    case SQE_PQ_SNAPPY:
        return SQE_CODEC_SNAPPY;
    case SQE_PQ_GZIP:
        return SQE_CODEC_GZIP;
    case SQE_PQ_LZO:
        return SQE_CODEC_LZO;
    case SQE_PQ_BROTLI:
        return SQE_CODEC_BROTLI;
    case SQE_PQ_LZ4:
        return SQE_CODEC_LZ4_HADOOP;
    case SQE_PQ_ZSTD:
        return SQE_CODEC_ZSTD;
    case SQE_PQ_LZ4_RAW:
        return SQE_CODEC_LZ4_RAW;
    default:
        return SQE_CODEC__COUNT;
    }
}

/* Positions column c on its chunk in row group rg (plan_id: the chunk's
 * read plan range, -1: read through windows). */
static bool pq_start_chunk(pq_reader *r, pq_col *c, const sqe_pq_row_group *rg, int plan_id,
                           sqe_error *err) {
    if (c->leaf >= rg->n_columns)
        return pq_corrupt(r, c, err, "the row group has %d column chunks, the schema %d or more",
                          rg->n_columns, c->leaf + 1);
    const sqe_pq_column_chunk *cc = &rg->columns[c->leaf];
    if (cc->encrypted || !cc->has_meta)
        return sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                             "Parquet file '%s', column '%s': encrypted Parquet is not supported",
                             r->path, c->name);
    if (cc->file_path)
        return sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                             "Parquet file '%s', column '%s': column data in another file ('%s') "
                             "is not supported",
                             r->path, c->name, cc->file_path);
    if (cc->physical != c->physical)
        return pq_corrupt(r, c, err, "the column chunk is %s but the schema says %s",
                          pq_physical_name(cc->physical), pq_physical_name(c->physical));
    c->codec = pq_codec_of(cc->codec);
    if (c->codec == SQE_CODEC__COUNT)
        return pq_corrupt(r, c, err, "unknown compression codec %d", cc->codec);
    if (c->codec == SQE_CODEC_LZO)
        return sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                             "Parquet file '%s', column '%s': LZO compression is not supported",
                             r->path, c->name);
    int64_t start = cc->data_page_offset;
    if (cc->dictionary_page_offset > 0 && cc->dictionary_page_offset < start)
        start = cc->dictionary_page_offset;
    int64_t len = cc->total_compressed_size;
    if (start < 4 || len < 0 || (uint64_t)start > r->size ||
        (uint64_t)len > r->size - (uint64_t)start)
        return pq_corrupt(r, c, err,
                          "the column chunk at byte %lld with %lld bytes lies outside the file "
                          "(%llu bytes)",
                          (long long)start, (long long)len, (unsigned long long)r->size);
    c->cc = cc;
    c->pos = (uint64_t)start;
    c->chunk_end = (uint64_t)start + (uint64_t)len;
    pq_drop_win(r, c);
    if (plan_id >= 0) { /* the whole chunk, fetched (or being fetched) by the plan */
        const uint8_t *data;
        size_t n;
        if (!sqe_readplan_get(r->plan, plan_id, &data, &n, err)) return false;
        c->win_plan = plan_id;
        if (n != (size_t)len)
            return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                                 "Parquet file '%s' is truncated: %zu bytes at offset %lld, "
                                 "expected %lld (the file changed since it was listed?)",
                                 r->path, n, (long long)start, (long long)len);
        c->win = (uint8_t *)data;
        c->win_off = c->pos;
        c->win_len = (size_t)len;
    }
    pq_retire(r, NULL, c->dict_arena);
    pq_retire(r, NULL, c->page_arena);
    c->dict_arena = c->page_arena = NULL;
    c->dict = NULL;
    c->n_dict = 0;
    c->values_seen = 0;
    c->page_n = c->page_pos = 0;
    return true;
}

/* ----------------------------------------------------------------- pages */

static int pq_bit_width(uint32_t v) {
    return v == 0 ? 0 : 32 - __builtin_clz(v);
}

/* Whether RLE-hybrid levels [p, p+len) start with one RLE run of at least
 * n values equal to `value` (a page without NULLs: the common case, decided
 * without decoding). */
static bool pq_levels_all_max(const uint8_t *p, size_t len, int bw, uint32_t value, uint32_t n) {
    uint64_t h = 0;
    size_t i = 0;
    bool ended = false;
    for (int shift = 0; i < len && shift < 35 && !ended; shift += 7, i++) {
        h |= (uint64_t)(p[i] & 0x7F) << shift;
        ended = !(p[i] & 0x80);
    }
    if (!ended || (h & 1) || (h >> 1) < n) return false;
    size_t vb = ((size_t)bw + 7) / 8;
    if (vb > 4 || len - i < vb) return false;
    uint32_t v = 0;
    for (size_t k = 0; k < vb; k++) v |= (uint32_t)p[i + k] << (8 * k);
    return v == value;
}

/* Definition levels of n values from [p, p+len) with `encoding`; sets
 * c->defs (NULL when all are present) and *n_present. *used gets the bytes
 * consumed (v1 layout; v2 passes the exact length). */
static bool pq_decode_defs(pq_reader *r, pq_col *c, int encoding, const uint8_t *p, size_t len,
                           bool v1, uint32_t n, size_t *used, uint32_t *n_present, sqe_error *err) {
    int bw = pq_bit_width((uint32_t)c->max_def);
    uint32_t *lv = (uint32_t *)pq_buf_get(r, &c->lvbuf, (size_t)n * sizeof *lv + 4, false);
    if (encoding == SQE_PQ_BIT_PACKED && v1) {
        size_t nbytes = ((size_t)n * (size_t)bw + 7) / 8;
        if (nbytes > len)
            return pq_corrupt(r, c, err, "BIT_PACKED definition levels are truncated");
        for (uint32_t i = 0; i < n; i++) { /* most significant bit first */
            size_t bit = (size_t)i * (size_t)bw;
            uint32_t v = 0;
            for (int b = 0; b < bw; b++, bit++)
                v = (v << 1) | ((p[bit >> 3] >> (7 - (bit & 7))) & 1);
            lv[i] = v;
        }
        *used = nbytes;
    } else {
        if (encoding != SQE_PQ_RLE && v1)
            return pq_corrupt(r, c, err, "definition levels with encoding %d", encoding);
        size_t rl = len;
        if (v1) {
            if (len < 4) return pq_corrupt(r, c, err, "definition levels are truncated");
            rl = pq_le32(p);
            if (rl > len - 4) return pq_corrupt(r, c, err, "definition levels are truncated");
            p += 4;
            *used = 4 + rl;
        } else {
            *used = len;
        }
        if (pq_levels_all_max(p, rl, bw, (uint32_t)c->max_def, n)) { /* no NULL in the page */
            c->defs = NULL;
            *n_present = n;
            return true;
        }
        sqe_pq_rle d;
        if (!sqe_pq_rle_init(&d, p, rl, bw, err) || !sqe_pq_rle_get(&d, lv, n, err)) {
            sqe_error_prefix(err, "Parquet file '%s', column '%s', definition levels: ", r->path,
                             c->name);
            return false;
        }
    }
    uint32_t present = 0;
    uint8_t *defs = (uint8_t *)lv; /* narrowed in place (byte i written after word i is read) */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = lv[i];
        if (v > (uint32_t)c->max_def)
            return pq_corrupt(r, c, err, "definition level %u exceeds the maximum %d", v,
                              c->max_def);
        defs[i] = v == (uint32_t)c->max_def;
        present += defs[i];
    }
    c->defs = present == n ? NULL : defs;
    *n_present = present;
    return true;
}

/* Values of a page: dictionary indexes or encoded values, into c->vals. */
static bool pq_page_values(pq_reader *r, pq_col *c, int encoding, const uint8_t *p, size_t len,
                           uint32_t n, sqe_error *err) {
    c->didx = NULL;
    c->vals_pos = 0;
    if (encoding == SQE_PQ_RLE_DICTIONARY || encoding == SQE_PQ_PLAIN_DICTIONARY) {
        c->vals = NULL;
    } else {
        c->vals = pq_buf_get(r, &c->vbuf, (size_t)n * c->out_w + 16, false);
    }
    if (encoding == SQE_PQ_RLE_DICTIONARY || encoding == SQE_PQ_PLAIN_DICTIONARY) {
        if (!c->dict)
            return pq_corrupt(r, c, err, "a dictionary-encoded page without a dictionary");
        if (n == 0) return true;
        if (len < 1 || p[0] > 32) return pq_corrupt(r, c, err, "bad dictionary index bit width");
        uint32_t *idx = (uint32_t *)pq_buf_get(r, &c->ibuf, (size_t)n * sizeof *idx, false);
        sqe_pq_rle d;
        if (!sqe_pq_rle_init(&d, p + 1, len - 1, p[0], err) || !sqe_pq_rle_get(&d, idx, n, err)) {
            sqe_error_prefix(err, "Parquet file '%s', column '%s', dictionary indexes: ", r->path,
                             c->name);
            return false;
        }
        uint32_t bad = 0;
        for (uint32_t i = 0; i < n; i++) bad |= idx[i] >= c->n_dict;
        if (bad)
            for (uint32_t i = 0; i < n; i++)
                if (idx[i] >= c->n_dict)
                    return pq_corrupt(r, c, err, "dictionary index %u out of %u entries", idx[i],
                                      c->n_dict);
        c->didx = idx; /* pq_fill gathers straight into the batch */
        return true;
    }
    if (encoding == SQE_PQ_PLAIN && c->identity && c->raw_w == c->out_w &&
        c->physical != SQE_PQ_BOOLEAN) { /* already the vector representation: use in place */
        if ((uint64_t)n * c->raw_w > len)
            return pq_corrupt(r, c, err, "%u PLAIN values of %zu bytes in a page of %zu bytes", n,
                              c->raw_w, len);
        c->vals = (uint8_t *)p;
        return true;
    }
    if (!pq_decode_convert(r, c, encoding, p, len, n, c->vals, NULL, err)) {
        if (err->cls == SQE_ERR_INVALID_DATA || err->cls == SQE_ERR_NOT_SUPPORTED)
            sqe_error_prefix(err, "Parquet file '%s', column '%s': ", r->path, c->name);
        return false;
    }
    return true;
}

/* Decompresses src into dst_len bytes from `arena` (dictionaries) or the
 * column's page buffer. */
static bool pq_decompress(pq_reader *r, pq_col *c, sqe_arena *arena, const uint8_t *src,
                          size_t src_len, size_t dst_len, const uint8_t **out, sqe_error *err) {
    if (c->codec == SQE_CODEC_NONE || dst_len == 0) {
        if (c->codec == SQE_CODEC_NONE && src_len != dst_len)
            return pq_corrupt(r, c, err, "uncompressed page of %zu bytes states %zu", src_len,
                              dst_len);
        *out = src;
        return true;
    }
    uint8_t *dst = pq_decode_mem(r, c, arena, &c->pbuf, dst_len, c->retain);
    char what[256];
    snprintf(what, sizeof what, "Parquet file '%s', column '%s', page at byte %llu", r->path,
             c->name, (unsigned long long)c->pos);
    if (!sqe_codec_decompress(c->codec, src, src_len, dst, dst_len, what, err)) return false;
    *out = dst;
    return true;
}

static bool pq_dictionary_page(pq_reader *r, pq_col *c, const sqe_pq_page_header *h,
                               const uint8_t *body, sqe_error *err) {
    if (c->dict) return pq_corrupt(r, c, err, "a second dictionary page in one column chunk");
    if (h->dict_num_values < 0 || h->dict_encoding != SQE_PQ_PLAIN) {
        if (h->dict_encoding != SQE_PQ_PLAIN_DICTIONARY || h->dict_num_values < 0)
            return pq_corrupt(r, c, err, "dictionary page with encoding %d", h->dict_encoding);
    }
    pq_retire(r, NULL, c->dict_arena);
    c->dict_arena = sqe_arena_new(0);
    const uint8_t *data;
    if (!pq_decompress(r, c, c->dict_arena, body, (size_t)h->compressed_size,
                       (size_t)h->uncompressed_size, &data, err))
        return false;
    uint32_t n = (uint32_t)h->dict_num_values;
    if (n > PQ_MAX_DICT_VALUES)
        return pq_corrupt(r, c, err, "a dictionary of %u values (limit %u)", n, PQ_MAX_DICT_VALUES);
    if ((uint64_t)n * (c->raw_w ? c->raw_w : 4) > (uint64_t)h->uncompressed_size + 8)
        return pq_corrupt(r, c, err, "dictionary of %u values in %d bytes", n,
                          (int)h->uncompressed_size);
    c->dict = sqe_arena_alloc(c->dict_arena, (size_t)n * c->out_w + 16);
    c->n_dict = n;
    c->dict_id = sqe_vector_dict_new_id();
    /* Uncompressed dictionaries point into the window: keep their bytes. */
    if (data == body && c->raw_w == 0) {
        uint8_t *copy = sqe_arena_alloc(c->dict_arena, (size_t)h->uncompressed_size + 1);
        memcpy(copy, data, (size_t)h->uncompressed_size);
        data = copy;
    }
    if (!pq_decode_convert(r, c, SQE_PQ_PLAIN, data, (size_t)h->uncompressed_size, n, c->dict,
                           c->dict_arena, err)) {
        if (err->cls == SQE_ERR_INVALID_DATA)
            sqe_error_prefix(err, "Parquet file '%s', column '%s', dictionary: ", r->path, c->name);
        return false;
    }
    return true;
}

static bool pq_data_page(pq_reader *r, pq_col *c, const sqe_pq_page_header *h, const uint8_t *body,
                         sqe_error *err) {
    int64_t rows_left = r->meta.row_groups[r->rg_cur].num_rows - (int64_t)c->values_seen;
    if (h->num_values < 0 || (uint32_t)h->num_values > PQ_MAX_PAGE_VALUES ||
        h->num_values > rows_left)
        return pq_corrupt(r, c, err,
                          "a page of %d values where at most %lld rows of the row group remain "
                          "(limit %u values per page)",
                          h->num_values, (long long)rows_left, PQ_MAX_PAGE_VALUES);
    uint32_t n = (uint32_t)h->num_values;
    const uint8_t *data;
    size_t dlen;
    uint32_t present = n;
    c->defs = NULL;
    if (h->type == SQE_PQ_DATA_PAGE) {
        if (!pq_decompress(r, c, NULL, body, (size_t)h->compressed_size,
                           (size_t)h->uncompressed_size, &data, err))
            return false;
        dlen = (size_t)h->uncompressed_size;
        if (c->max_def > 0) {
            size_t used = 0;
            if (!pq_decode_defs(r, c, h->def_encoding, data, dlen, true, n, &used, &present, err))
                return false;
            data += used;
            dlen -= used;
        }
    } else {
        int32_t rl = h->rep_levels_len, dl = h->def_levels_len;
        if (rl < 0 || dl < 0 || (int64_t)rl + dl > h->compressed_size ||
            (int64_t)rl + dl > h->uncompressed_size)
            return pq_corrupt(r, c, err, "data page v2 with level lengths %d and %d", rl, dl);
        /* rl bytes of repetition levels: all 0 in a flat column (some writers
         * still write them), skipped */
        if (c->max_def > 0) {
            size_t used = 0;
            if (!pq_decode_defs(r, c, SQE_PQ_RLE, body + rl, (size_t)dl, false, n, &used, &present,
                                err))
                return false;
        }
        size_t clen = (size_t)h->compressed_size - (size_t)rl - (size_t)dl;
        dlen = (size_t)h->uncompressed_size - (size_t)rl - (size_t)dl;
        const uint8_t *vb = body + rl + dl;
        if (h->v2_is_compressed && clen > 0) {
            if (!pq_decompress(r, c, NULL, vb, clen, dlen, &data, err)) return false;
        } else {
            if (clen != dlen)
                return pq_corrupt(r, c, err, "uncompressed v2 page values of %zu bytes state %zu",
                                  clen, dlen);
            data = vb;
        }
    }
    if (!pq_page_values(r, c, h->encoding, data, dlen, present, err)) return false;
    c->page_n = n;
    c->page_pos = 0;
    return true;
}

/* Reads page headers until a data page is loaded into c (dictionary pages
 * are decoded on the way, index pages skipped). */
static bool pq_next_page(pq_reader *r, pq_col *c, sqe_error *err) {
    for (;;) {
        pq_retire(r, NULL, c->page_arena);
        c->page_arena = NULL;
        if (c->pos >= c->chunk_end)
            return pq_corrupt(r, c, err,
                              "the column chunk ended after %llu of the row group's %lld rows",
                              (unsigned long long)c->values_seen,
                              (long long)r->meta.row_groups[r->rg_cur].num_rows);
        sqe_pq_page_header h;
        size_t hlen = 0, want = (size_t)SQE_MIN((uint64_t)256, c->chunk_end - c->pos);
        for (;;) {
            if (!pq_ensure(r, c, want, err)) return false;
            want = (size_t)(c->win_off + c->win_len - c->pos); /* all the window holds */
            bool need_more = false;
            if (sqe_pq_parse_page_header(pq_at(c), want, &h, &hlen, &need_more, err)) break;
            if (!need_more || want >= c->chunk_end - c->pos || want >= SQE_PQ_MAX_PAGE_HEADER) {
                if (!need_more) {
                    sqe_error_prefix(
                        err, "Parquet file '%s', column '%s', page header at byte %llu: ", r->path,
                        c->name, (unsigned long long)c->pos);
                    return false;
                }
                return pq_corrupt(r, c, err, "the page header at byte %llu is truncated",
                                  (unsigned long long)c->pos);
            }
            want = (size_t)SQE_MIN((uint64_t)want * 4, c->chunk_end - c->pos);
        }
        if (h.compressed_size < 0 || h.uncompressed_size < 0 ||
            (uint32_t)h.compressed_size > SQE_PQ_MAX_PAGE ||
            (uint32_t)h.uncompressed_size > SQE_PQ_MAX_PAGE)
            return pq_corrupt(r, c, err, "page at byte %llu with sizes %d/%d",
                              (unsigned long long)c->pos, h.compressed_size, h.uncompressed_size);
        if (!pq_ensure(r, c, hlen + (size_t)h.compressed_size, err)) return false;
        const uint8_t *body = pq_at(c) + hlen;
        if (h.has_crc && (h.type == SQE_PQ_DATA_PAGE || h.type == SQE_PQ_DATA_PAGE_V2 ||
                          h.type == SQE_PQ_DICTIONARY_PAGE)) {
            uint32_t crc = (uint32_t)crc32(0L, body, (uInt)h.compressed_size);
            if (crc != (uint32_t)h.crc)
                return pq_corrupt(r, c, err,
                                  "page at byte %llu fails its CRC-32 checksum (stored %08x, "
                                  "computed %08x): the file is corrupt",
                                  (unsigned long long)c->pos, (uint32_t)h.crc, crc);
        }
        uint64_t page_at = c->pos;
        c->pos += hlen + (size_t)h.compressed_size;
        if (h.type == SQE_PQ_DICTIONARY_PAGE) {
            uint64_t save = c->pos;
            c->pos = page_at; /* for error messages */
            bool ok = pq_dictionary_page(r, c, &h, body, err);
            c->pos = save;
            if (!ok) return false;
            continue;
        }
        if (h.type != SQE_PQ_DATA_PAGE && h.type != SQE_PQ_DATA_PAGE_V2) continue;
        uint64_t save = c->pos;
        c->pos = page_at;
        bool ok = pq_data_page(r, c, &h, body, err);
        c->pos = save;
        if (!ok) return false;
        c->values_seen += c->page_n;
        if (c->page_n > 0) return true;
    }
}

/* Copies the next n rows of column c into vector v (rows [0, n)). Rows of
 * dictionary pages are gathered from the dictionary with their indexes
 * (sqe_vector_dict_flatten); when all n come from the chunk's dictionary the
 * vector says so (dict_id), so hash aggregation can group by entry. */
static bool pq_fill(pq_reader *r, pq_col *c, sqe_vector *v, uint32_t n, sqe_error *err) {
    size_t w = c->out_w;
    uint8_t *out = v->data;
    uint32_t row = 0;
    bool all_dict = true;
    while (row < n) {
        if (c->page_pos >= c->page_n && !pq_next_page(r, c, err)) return false;
        uint32_t k = SQE_MIN(n - row, c->page_n - c->page_pos);
        const uint8_t *d = c->defs ? c->defs + c->page_pos : NULL;
        uint32_t present = k;
        if (d) {
            present = 0;
            for (uint32_t i = 0; i < k; i++) present += d[i];
        }
        if (c->didx) {
            sqe_vector_dict_flatten(v, row, c->dict, c->didx + c->vals_pos, d, k);
        } else if (!d) {
            memcpy(out + (size_t)row * w, c->vals + (size_t)c->vals_pos * w, (size_t)k * w);
            all_dict = false;
        } else {
            all_dict = false;
            uint32_t vp = c->vals_pos;
            for (uint32_t i = 0; i < k; i++) {
                if (d[i]) {
                    pq_copy_value(out + (size_t)(row + i) * w, c->vals + (size_t)vp * w, w);
                    vp++;
                } else {
                    memset(out + (size_t)(row + i) * w, 0, w);
                    sqe_vector_set_null(v, row + i);
                }
            }
        }
        c->vals_pos += present;
        c->page_pos += k;
        row += k;
    }
    if (all_dict && n > 0) {
        v->dict_id = c->dict_id;
        v->dict_size = c->n_dict;
    }
    return true;
}

/* --------------------------------------------------------------- pruning */

/* Converts a plain-encoded statistics bound into a value of c's declared type. */
static bool pq_stat_value(const pq_reader *r, const pq_col *c, const uint8_t *p, uint32_t len,
                          sqe_value *out) {
    uint8_t buf[32] __attribute__((aligned(16)));
    uint8_t raw[16] __attribute__((aligned(16)));
    sqe_pq_bytes b = {p, len};
    const sqe_pq_bytes *bytes = NULL;
    if (c->raw_w == 0 || c->physical == SQE_PQ_FIXED_LEN_BYTE_ARRAY) {
        if (c->physical == SQE_PQ_FIXED_LEN_BYTE_ARRAY && len != c->raw_w) return false;
        bytes = &b;
    } else {
        if (len != c->raw_w || len > sizeof raw) return false;
        memcpy(raw, p, len);
    }
    sqe_error e;
    sqe_error_clear(&e);
    pq_col tmp = *c;
    tmp.max_chars = 0;
    if (!pq_convert(r, &tmp, raw, bytes, 1, buf, NULL, &e)) return false;
    *out = sqe_value_null(c->type);
    out->is_null = false;
    switch (c->type.id) {
    case SQE_T_BOOLEAN:
        out->v.b = buf[0] != 0;
        break;
    case SQE_T_TINYINT:
        out->v.i = ((int8_t *)buf)[0];
        break;
    case SQE_T_SMALLINT:
        out->v.i = ((int16_t *)buf)[0];
        break;
    case SQE_T_INTEGER:
    case SQE_T_DATE:
        out->v.i = ((int32_t *)buf)[0];
        break;
    case SQE_T_BIGINT:
    case SQE_T_TIMESTAMP:
        out->v.i = ((int64_t *)buf)[0];
        break;
    case SQE_T_REAL:
        out->v.f = ((float *)buf)[0];
        if (isnan(out->v.f)) return false;
        break;
    case SQE_T_DOUBLE:
        out->v.d = ((double *)buf)[0];
        if (isnan(out->v.d)) return false;
        break;
    case SQE_T_DECIMAL:
        memcpy(&out->v.dec, buf, sizeof out->v.dec);
        break;
    case SQE_T_VARCHAR:
    case SQE_T_VARBINARY: {
        sqe_string s;
        memcpy(&s, buf, sizeof s);
        out->v.s.ptr = (const char *)p; /* views of stats bytes (never inlined copies) */
        out->v.s.len = s.len;
        break;
    }
    default:
        return false;
    }
    return true;
}

/* Whether column c's statistics bounds can be trusted for ordering. */
static bool pq_stats_usable(const pq_col *c, const sqe_pq_stats *st) {
    if (!st->has_min || !st->has_max) return false;
    switch (c->src) {
    case PQ_S_INT:
    case PQ_S_FLOAT:
    case PQ_S_DOUBLE:
    case PQ_S_DATE:
    case PQ_S_TIMESTAMP:
        return true;
    case PQ_S_BOOL:
    case PQ_S_UINT:
    case PQ_S_STRING:
    case PQ_S_BINARY:
        return !st->legacy && c->max_chars == 0;
    case PQ_S_DECIMAL:
        return !st->legacy || c->physical == SQE_PQ_INT32 || c->physical == SQE_PQ_INT64;
    default:
        return false; /* INT96, TIME, UUID, FLOAT16: no trusted order here */
    }
}

static bool pq_val_is_nan(const sqe_value *v) {
    return (v->type.id == SQE_T_DOUBLE && isnan(v->v.d)) ||
           (v->type.id == SQE_T_REAL && isnan(v->v.f));
}

/* false when no row of row group rg can satisfy term t. */
static bool pq_term_may_match(const pq_reader *r, const sqe_pq_row_group *rg, const pq_col *c,
                              const sqe_fpred_term *t) {
    if (c->leaf < 0) /* missing from the file: all NULL */
        return t->op == SQE_FPRED_IS_NULL;
    if (c->leaf >= rg->n_columns || !rg->columns[c->leaf].has_meta) return true;
    const sqe_pq_stats *st = &rg->columns[c->leaf].stats;
    bool all_null = st->has_null_count && st->null_count >= rg->num_rows && rg->num_rows > 0;
    if (t->op == SQE_FPRED_IS_NULL) return !(st->has_null_count && st->null_count == 0);
    if (all_null) return false;
    if (t->op == SQE_FPRED_IS_NOT_NULL) return true;
    if (!pq_stats_usable(c, st)) return true;
    sqe_value lo, hi;
    if (!pq_stat_value(r, c, st->min, st->min_len, &lo) ||
        !pq_stat_value(r, c, st->max, st->max_len, &hi))
        return true;
    if (sqe_value_cmp(&lo, &hi) > 0) return true; /* inconsistent: do not trust */
    for (int i = 0; i < t->n_vals; i++)
        if (t->vals[i].is_null || pq_val_is_nan(&t->vals[i]) || t->vals[i].type.id != c->type.id)
            return true;
    if (t->n_vals < 1) return true;
    const sqe_value *v = &t->vals[0];
    switch (t->op) {
    case SQE_FPRED_EQ:
        return sqe_value_cmp(v, &lo) >= 0 && sqe_value_cmp(v, &hi) <= 0;
    case SQE_FPRED_NE: /* statistics leave NaN out, and NaN <> v holds */
        if (c->type.id == SQE_T_REAL || c->type.id == SQE_T_DOUBLE) return true;
        return !(sqe_value_cmp(&lo, v) == 0 && sqe_value_cmp(&hi, v) == 0);
    case SQE_FPRED_LT:
        return sqe_value_cmp(&lo, v) < 0;
    case SQE_FPRED_LE:
        return sqe_value_cmp(&lo, v) <= 0;
    case SQE_FPRED_GT:
        return sqe_value_cmp(&hi, v) > 0;
    case SQE_FPRED_GE:
        return sqe_value_cmp(&hi, v) >= 0;
    case SQE_FPRED_IN:
        for (int i = 0; i < t->n_vals; i++)
            if (sqe_value_cmp(&t->vals[i], &lo) >= 0 && sqe_value_cmp(&t->vals[i], &hi) <= 0)
                return true;
        return false;
    default:
        return true;
    }
}

/* The reader's column for table column tcol, or NULL. */
static const pq_col *pq_col_for(const pq_reader *r, int tcol) {
    for (int i = 0; i < r->n_cols; i++)
        if (r->cols[i].tcol == tcol) return &r->cols[i];
    return NULL;
}

static bool pq_rg_may_match(const pq_reader *r, const sqe_pq_row_group *rg) {
    for (int i = 0; i < r->pred.n_terms; i++) {
        const sqe_fpred_term *t = &r->pred.terms[i];
        const pq_col *c = pq_col_for(r, t->col);
        if (c && !pq_term_may_match(r, rg, c, t)) return false;
    }
    return true;
}

/* Whether some row of row group rg may sort at or before the dynamic
 * filter's bound B (r->dynb), judged from column chunk statistics: NULL
 * rows qualify when B is NULL or NULLs sort first; non-NULL ones when B is
 * not NULL and they sort first (NULLS LAST), and then by the chunk's min
 * (ASC) or max (DESC) against B. A float chunk that may hold NaN qualifies
 * when NaN sorts before the numbers (DESC NULLS LAST, ASC NULLS FIRST). */
static bool pq_rg_dyn_may_match(pq_reader *r, const sqe_pq_row_group *rg) {
    const sqe_dyn_filter *f = r->dyn;
    if (!f || !sqe_dyn_filter_load(r->dyn, &r->dynb)) return true;
    const sqe_value *b = &r->dynb.v;
    const pq_col *c = pq_col_for(r, f->col);
    if (!c) return true;
    bool nulls_ok = b->is_null || f->nulls_first;
    if (c->leaf < 0) return nulls_ok; /* missing from the file: all NULL */
    if (c->leaf >= rg->n_columns || !rg->columns[c->leaf].has_meta) return true;
    const sqe_pq_stats *st = &rg->columns[c->leaf].stats;
    bool may_null = !st->has_null_count || st->null_count > 0;
    if (may_null && nulls_ok) return true;
    if (st->has_null_count && st->null_count >= rg->num_rows) return false; /* only NULLs */
    if (b->is_null) return !f->nulls_first;
    bool is_float = c->type.id == SQE_T_REAL || c->type.id == SQE_T_DOUBLE;
    if (is_float) {
        if (pq_val_is_nan(b)) return true;
        bool may_nan = !(st->has_nan_count && st->nan_count == 0);
        if (may_nan && f->desc != f->nulls_first) return true;
    }
    if (!pq_stats_usable(c, st)) return true;
    sqe_value lo, hi;
    if (!pq_stat_value(r, c, st->min, st->min_len, &lo) ||
        !pq_stat_value(r, c, st->max, st->max_len, &hi) || sqe_value_cmp(&lo, &hi) > 0)
        return true;
    return sqe_dyn_filter_cmp(f, f->desc ? &hi : &lo, b) <= 0;
}

/* ------------------------------------------------------------- life cycle */

/* A hostile footer must not make count(*) (which reads no page) emit
 * batches for ages: no column chunk can hold more than 2^20 rows per byte
 * (a page header plus one RLE run of NULL levels encodes at most 16M values
 * in about 20 bytes), so the smallest chunk bounds the row count. */
static bool pq_rows_plausible(const sqe_pq_row_group *rg) {
    int64_t min_bytes = -1;
    for (int i = 0; i < rg->n_columns; i++) {
        const sqe_pq_column_chunk *cc = &rg->columns[i];
        if (cc->has_meta && (min_bytes < 0 || cc->total_compressed_size < min_bytes))
            min_bytes = cc->total_compressed_size;
    }
    if (min_bytes < 0) return rg->num_rows <= ((int64_t)1 << 32); /* no chunk to judge by */
    return min_bytes >= 0 && rg->num_rows / ((int64_t)1 << 20) <= min_bytes;
}

/* ------------------------------------------------------------ read plan */

/* The bytes of column c's chunk in rg when they can be read whole through
 * the plan: a sane extent (pq_start_chunk reports insane ones) of at most
 * PQ_PLAN_MAX_CHUNK bytes (larger chunks go through windows, so memory
 * stays bounded by the window). */
static bool pq_plan_extent(const pq_reader *r, const pq_col *c, const sqe_pq_row_group *rg,
                           uint64_t *start, size_t *len) {
    if (c->leaf < 0 || c->leaf >= rg->n_columns) return false;
    const sqe_pq_column_chunk *cc = &rg->columns[c->leaf];
    if (cc->encrypted || !cc->has_meta || cc->file_path) return false;
    int64_t st = cc->data_page_offset;
    if (cc->dictionary_page_offset > 0 && cc->dictionary_page_offset < st)
        st = cc->dictionary_page_offset;
    int64_t l = cc->total_compressed_size;
    if (st < 4 || l <= 0 || (uint64_t)st > r->size || (uint64_t)l > r->size - (uint64_t)st ||
        (uint64_t)l > PQ_PLAN_MAX_CHUNK)
        return false;
    *start = (uint64_t)st;
    *len = (size_t)l;
    return true;
}

/* Adds row group g's projected chunks to the plan (their ids into `ids`,
 * -1 for a chunk read through windows) and submits them as one batch, so
 * neighbouring chunks become one request. */
static void pq_plan_group(pq_reader *r, int g, int *ids) {
    const sqe_pq_row_group *rg = &r->meta.row_groups[g];
    for (int i = 0; i < r->n_cols; i++) {
        uint64_t start;
        size_t len;
        ids[i] = pq_plan_extent(r, &r->cols[i], rg, &start, &len)
                     ? sqe_readplan_add(r->plan, start, len)
                     : -1;
    }
    sqe_readplan_submit(r->plan);
}

static void pq_release_ids(pq_reader *r, int *ids) {
    for (int i = 0; i < r->n_cols; i++) {
        if (ids[i] >= 0) sqe_readplan_release(r->plan, ids[i]);
        ids[i] = -1;
    }
}

/* The first row group from `from` on that the statistics do not rule out
 * (what pq_next_row_group will most likely read next), or -1. */
static int pq_peek_group(const pq_reader *r, int from) {
    for (int g = from; g < r->rg_end; g++) {
        const sqe_pq_row_group *rg = &r->meta.row_groups[g];
        if (rg->num_rows == 0) continue;
        if (rg->num_rows < 0 || !pq_rows_plausible(rg)) return -1; /* an error there */
        if (pq_rg_may_match(r, rg)) return g;
    }
    return -1;
}

/* Row group g is about to be read: its chunks come from the read-ahead
 * when they were planned as the next group, else they are planned now;
 * then the group after it is planned (read ahead while g decodes). */
static void pq_plan_advance(pq_reader *r, int g) {
    if (r->ahead_rg == g) {
        int *t = r->cur_ids;
        r->cur_ids = r->ahead_ids;
        r->ahead_ids = t;
    } else {
        if (r->ahead_rg >= 0) pq_release_ids(r, r->ahead_ids); /* pruned after all */
        pq_plan_group(r, g, r->cur_ids);
    }
    r->ahead_rg = pq_peek_group(r, g + 1);
    if (r->ahead_rg >= 0) pq_plan_group(r, r->ahead_rg, r->ahead_ids);
}

/* Moves to the next row group that may match; false with *eof when none. */
static bool pq_next_row_group(pq_reader *r, bool *eof, sqe_error *err) {
    for (;;) {
        if (r->rg_next >= r->rg_end) {
            *eof = true;
            return true;
        }
        int g = r->rg_next++;
        const sqe_pq_row_group *rg = &r->meta.row_groups[g];
        r->base.stats.row_groups_total++;
        if (rg->num_rows < 0)
            return pq_corrupt(r, NULL, err, "row group %d has %lld rows", g,
                              (long long)rg->num_rows);
        if (rg->num_rows == 0) continue;
        if (!pq_rows_plausible(rg))
            return pq_corrupt(r, NULL, err,
                              "row group %d claims %lld rows, more than its column chunks can hold",
                              g, (long long)rg->num_rows);
        if (!pq_rg_may_match(r, rg)) {
            r->base.stats.row_groups_pruned++;
            continue;
        }
        if (!pq_rg_dyn_may_match(r, rg)) {
            r->base.stats.row_groups_dyn_pruned++;
            continue;
        }
        r->rg_cur = g;
        r->rg_rows_left = rg->num_rows;
        if (r->plan) pq_plan_advance(r, g);
        for (int i = 0; i < r->n_cols; i++) {
            int id = r->plan ? r->cur_ids[i] : -1;
            if (r->plan) r->cur_ids[i] = -1; /* the column owns it now */
            if (r->cols[i].leaf >= 0 && !pq_start_chunk(r, &r->cols[i], rg, id, err)) return false;
        }
        return true;
    }
}

static bool pq_next(sqe_reader *rd, sqe_batch *out, bool *eof, sqe_error *err) {
    pq_reader *r = (pq_reader *)rd;
    *eof = false;
    out->n_rows = 0;
    pq_free_retired(r);
    /* A bound published while this row group is read may rule out the rest
     * of it (checked when the bound changed). */
    if (r->rg_rows_left > 0 && r->dyn && atomic_load(&r->dyn->version) != r->dynb.version &&
        !pq_rg_dyn_may_match(r, &r->meta.row_groups[r->rg_cur])) {
        r->base.stats.row_groups_dyn_pruned++;
        r->rg_rows_left = 0;
    }
    if (r->rg_rows_left == 0) {
        if (!pq_next_row_group(r, eof, err)) return false;
        if (*eof) return true;
    }
    uint32_t n = (uint32_t)SQE_MIN((int64_t)SQE_BATCH_ROWS, r->rg_rows_left);
    for (int i = 0; i < r->n_cols; i++) {
        pq_col *c = &r->cols[i];
        sqe_vector *v = out->cols[i];
        if (c->leaf < 0) {
            memset(v->validity, 0, sizeof v->validity);
            v->has_nulls = true;
            continue;
        }
        if (!pq_fill(r, c, v, n, err)) return false;
    }
    r->rg_rows_left -= n;
    out->n_rows = n;
    r->base.stats.rows_read += n;
    r->base.stats.bytes_read =
        r->bytes_direct + (r->plan ? sqe_readplan_bytes_fetched(r->plan) : 0);
    return true;
}

static void pq_close(sqe_reader *rd) {
    pq_reader *r = (pq_reader *)rd;
    if (!r) return;
    pq_free_retired(r);
    for (int i = 0; i < r->n_cols; i++) {
        if (r->cols[i].win_plan < 0) sqe_free(r->cols[i].win);
        sqe_arena_free(r->cols[i].dict_arena);
        sqe_arena_free(r->cols[i].page_arena);
        pq_col *c = &r->cols[i];
        pq_buf_free(&c->pbuf);
        pq_buf_free(&c->lvbuf);
        pq_buf_free(&c->vbuf);
        pq_buf_free(&c->ibuf);
        pq_buf_free(&c->rbuf);
        pq_buf_free(&c->bbuf);
    }
    SQE_ARRAY_FREE(r->retired);
    sqe_readplan_free(r->plan); /* waits for fetches in flight */
    sqe_free(r->cur_ids);
    sqe_free(r->ahead_ids);
    sqe_dyn_bound_free(&r->dynb);
    sqe_free(r->cols);
    sqe_arena_free(r->meta_arena);
    sqe_free(r->path);
    sqe_free(r);
}

/* Copies the predicate terms on projected columns (values are copied too:
 * the spec's may not outlive open). */
static void pq_copy_pred(pq_reader *r, const sqe_reader_spec *spec) {
    const sqe_format_pred *p = spec->pred;
    if (!p || p->n_terms <= 0) return;
    sqe_fpred_term *terms = sqe_arena_alloc(r->meta_arena, (size_t)p->n_terms * sizeof *terms);
    int n = 0;
    for (int i = 0; i < p->n_terms; i++) {
        const sqe_fpred_term *t = &p->terms[i];
        if (t->col < 0 || t->col >= spec->n_table_cols || t->n_vals < 0) continue;
        sqe_value *vals = sqe_arena_alloc(r->meta_arena, (size_t)(t->n_vals + 1) * sizeof *vals);
        for (int j = 0; j < t->n_vals; j++) {
            vals[j] = t->vals[j];
            if (!vals[j].is_null &&
                (vals[j].type.id == SQE_T_VARCHAR || vals[j].type.id == SQE_T_VARBINARY))
                vals[j].v.s.ptr =
                    sqe_arena_strndup(r->meta_arena, t->vals[j].v.s.ptr, t->vals[j].v.s.len);
        }
        terms[n] = *t;
        terms[n].vals = vals;
        n++;
    }
    r->pred.terms = terms;
    r->pred.n_terms = n;
}

static int pq_cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Whether the reader's chunks are one fetch: a single row group whose
 * projected chunks coalesce into one request of one part. Worker threads
 * would then add only their start and a hand-off (about 0.1 ms a file),
 * so the plan reads at use. */
static bool pq_single_fetch(const pq_reader *r, const sqe_readplan_opts *io) {
    if (r->rg_end - r->rg_next != 1) return false;
    const sqe_pq_row_group *rg = &r->meta.row_groups[r->rg_next];
    uint64_t *ext = sqe_malloc(sizeof(uint64_t) * 2 * (size_t)SQE_MAX(r->n_cols, 1));
    int n = 0;
    for (int i = 0; i < r->n_cols; i++) {
        uint64_t start;
        size_t len;
        if (!pq_plan_extent(r, &r->cols[i], rg, &start, &len)) continue;
        ext[2 * n] = start;
        ext[2 * n + 1] = start + len;
        n++;
    }
    qsort(ext, (size_t)n, 2 * sizeof *ext, pq_cmp_u64); /* by start */
    bool one = true;
    uint64_t end = n ? ext[1] : 0;
    for (int i = 1; i < n && one; i++) {
        if (ext[2 * i] > end && ext[2 * i] - end >= io->gap_bytes) one = false;
        end = SQE_MAX(end, ext[2 * i + 1]);
    }
    if (n && end - ext[0] > io->part_bytes) one = false;
    sqe_free(ext);
    return one;
}

/* Opens row groups [rg_start, rg_end) (clamped to the file's). */
static sqe_reader *pq_open_groups(sqe_store *store, const char *path, uint64_t size,
                                  uint64_t rg_start, uint64_t rg_end, const sqe_reader_spec *spec,
                                  sqe_error *err) {
    if (!spec || spec->n_proj < 0 || (spec->n_proj > 0 && !spec->proj)) {
        sqe_error_set(err, SQE_ERR_INTERNAL, "Parquet reader for '%s': bad projection", path);
        return NULL;
    }
    pq_reader *r = sqe_calloc(1, sizeof *r);
    r->base.vt = &sqe_parquet_reader_vtable;
    bool empty = size == 0; /* a 0-byte file adds no rows, as for text */
    uint8_t *tail = NULL;   /* the footer read's bytes, seeded into the plan */
    r->store = store;
    r->path = sqe_strdup(path);
    r->size = size;
    r->meta_arena = sqe_arena_new(0);
    r->rg_cur = -1;
    r->n_cols = spec->n_proj;
    r->cols = sqe_calloc((size_t)r->n_cols + 1, sizeof *r->cols);
    for (int i = 0; i < r->n_cols; i++) {
        pq_col *c = &r->cols[i];
        int t = spec->proj[i];
        if (t < 0 || t >= spec->n_table_cols) {
            sqe_error_set(err, SQE_ERR_INTERNAL,
                          "Parquet reader for '%s': projected column %d of %d", path, t,
                          spec->n_table_cols);
            goto fail;
        }
        c->tcol = t;
        c->name = sqe_arena_strdup(r->meta_arena, spec->col_names[t]);
        c->type = spec->col_types[t];
        c->out_w = sqe_type_width(c->type);
        c->max_chars = c->type.id == SQE_T_VARCHAR ? c->type.length : 0;
        c->retain = c->type.id == SQE_T_VARCHAR || c->type.id == SQE_T_VARBINARY;
        c->leaf = -1;
        c->win_plan = -1;
    }
    if (empty) return &r->base; /* no row groups */
    if (!pq_read_footer(store, path, size, r->meta_arena, &r->meta, &r->bytes_direct, &tail, err))
        goto fail;
    r->base.stats.bytes_read = r->bytes_direct;
    if (!pq_bind(r, spec, err)) goto fail;
    pq_copy_pred(r, spec);
    if (spec->dyn && spec->dyn->col >= 0 && pq_col_for(r, spec->dyn->col) &&
        sqe_type_equal(pq_col_for(r, spec->dyn->col)->type, spec->dyn->type))
        r->dyn = spec->dyn;
    r->rg_next = (int)SQE_MIN(rg_start, (uint64_t)r->meta.n_row_groups);
    r->rg_end = (int)SQE_MIN(rg_end, (uint64_t)r->meta.n_row_groups);
    bool any_leaf = false;
    for (int i = 0; i < r->n_cols; i++) any_leaf |= r->cols[i].leaf >= 0;
    if (any_leaf && r->rg_next < r->rg_end) {
        sqe_readplan_opts io;
        if (spec->io) {
            io = *spec->io;
        } else {
            sqe_readplan_defaults(store, &io);
        }
        if (pq_single_fetch(r, &io)) io.max_in_flight = 0; /* nothing to overlap */
        r->plan = sqe_readplan_new(store, path, &io);
        size_t tail_len = (size_t)SQE_MIN((uint64_t)PQ_TAIL_GUESS, size);
        sqe_readplan_seed(r->plan, size - tail_len, tail, tail_len); /* small files: no GET */
        r->cur_ids = sqe_malloc(sizeof(int) * (size_t)r->n_cols);
        r->ahead_ids = sqe_malloc(sizeof(int) * (size_t)r->n_cols);
        for (int i = 0; i < r->n_cols; i++) r->cur_ids[i] = r->ahead_ids[i] = -1;
        r->ahead_rg = -1;
    }
    sqe_free(tail);
    return &r->base;
fail:
    sqe_free(tail);
    pq_close(&r->base);
    return NULL;
}

static sqe_reader *pq_open(sqe_store *store, const char *path, uint64_t size,
                           const sqe_reader_spec *spec, sqe_error *err) {
    return pq_open_groups(store, path, size, 0, UINT64_MAX, spec, err);
}

static sqe_reader *pq_open_range(sqe_store *store, const char *path, uint64_t size, uint64_t start,
                                 uint64_t end, const sqe_reader_spec *spec, sqe_error *err) {
    return pq_open_groups(store, path, size, start, end, spec, err);
}

static bool pq_plan_morsels(sqe_store *store, const char *path, uint64_t size,
                            const sqe_reader_spec *spec, uint64_t target_bytes,
                            sqe_file_range_list *out, sqe_error *err) {
    if (target_bytes == 0 || size <= target_bytes) return true;
    sqe_arena *a = sqe_arena_new(0);
    sqe_pq_file_meta m;
    bool ok = pq_read_footer(store, path, size, a, &m, NULL, NULL, err);
    if (ok && m.n_row_groups > 1) {
        size_t first = out->len;
        uint64_t start = 0, acc = 0;
        for (int g = 0; g < m.n_row_groups; g++) {
            const sqe_pq_row_group *rg = &m.row_groups[g];
            int64_t b =
                rg->total_compressed_size > 0 ? rg->total_compressed_size : rg->total_byte_size;
            acc += b > 0 ? (uint64_t)b : 0;
            if (acc >= target_bytes || g == m.n_row_groups - 1) {
                sqe_file_range fr = {start, (uint64_t)g + 1};
                SQE_ARRAY_PUSH(NULL, *out, fr);
                start = (uint64_t)g + 1;
                acc = 0;
            }
        }
        if (out->len - first == 1) out->len = first; /* one range: the whole file */
    }
    sqe_arena_free(a);
    return ok;
}

const sqe_reader_vtable sqe_parquet_reader_vtable = {
    "parquet", pq_open, pq_next, pq_close, pq_plan_morsels, pq_open_range,
};

/* ----------------------------------------------------------- inference */

/* The table type a leaf reads as by default (read_parquet). */
static bool pq_default_type(pq_col *c, sqe_type *out) {
    const sqe_pq_schema_elem *el = c->el;
    switch (c->src) {
    case PQ_S_BOOL:
        *out = sqe_type_make(SQE_T_BOOLEAN);
        return true;
    case PQ_S_INT:
    case PQ_S_UINT: {
        int bits = el->logical.kind == SQE_PQ_LT_INTEGER ? el->logical.bit_width : 0;
        if (!bits) switch (el->converted) {
            case SQE_PQ_CT_INT_8:
            case SQE_PQ_CT_UINT_8:
                bits = 8;
                break;
            case SQE_PQ_CT_INT_16:
            case SQE_PQ_CT_UINT_16:
                bits = 16;
                break;
            default:
                bits = c->physical == SQE_PQ_INT32 ? 32 : 64;
                break;
            }
        if (c->src == PQ_S_UINT) bits *= 2; /* the next signed type holds every value */
        *out = bits <= 8    ? sqe_type_make(SQE_T_TINYINT)
               : bits <= 16 ? sqe_type_make(SQE_T_SMALLINT)
               : bits <= 32 ? sqe_type_make(SQE_T_INTEGER)
               : bits <= 64 ? sqe_type_make(SQE_T_BIGINT)
                            : sqe_type_decimal(20, 0);
        return true;
    }
    case PQ_S_FLOAT:
    case PQ_S_FLOAT16:
        *out = sqe_type_make(SQE_T_REAL);
        return true;
    case PQ_S_DOUBLE:
        *out = sqe_type_make(SQE_T_DOUBLE);
        return true;
    case PQ_S_DECIMAL: {
        int prec = el->logical.kind == SQE_PQ_LT_DECIMAL ? el->logical.precision : el->precision;
        if (prec > SQE_DECIMAL_MAX_PRECISION) return false;
        *out = sqe_type_decimal(prec, c->src_scale);
        return true;
    }
    case PQ_S_STRING:
    case PQ_S_UUID:
    case PQ_S_TIME:
    case PQ_S_NULL:
        *out = sqe_type_make(SQE_T_VARCHAR);
        return true;
    case PQ_S_BINARY:
        *out = sqe_type_make(SQE_T_VARBINARY);
        return true;
    case PQ_S_DATE:
        *out = sqe_type_make(SQE_T_DATE);
        return true;
    case PQ_S_TIMESTAMP:
    case PQ_S_INT96:
        *out = sqe_type_make(SQE_T_TIMESTAMP);
        return true;
    default:
        return false;
    }
}

bool sqe_parquet_infer_schema(sqe_store *store, const char *path, uint64_t size, sqe_arena *arena,
                              sqe_inferred_schema *out, sqe_error *err) {
    sqe_arena *a = sqe_arena_new(0);
    sqe_pq_file_meta m;
    bool ok = pq_read_footer(store, path, size, a, &m, NULL, NULL, err);
    int n_top = ok && m.n_schema > 0 ? m.schema[0].num_children : 0;
    out->n_cols = 0;
    out->names = sqe_arena_alloc(arena, (size_t)(n_top + 1) * sizeof *out->names);
    out->types = sqe_arena_alloc(arena, (size_t)(n_top + 1) * sizeof *out->types);
    for (int t = 0, idx = 1; ok && t < n_top && idx < m.n_schema; t++) {
        const sqe_pq_schema_elem *el = &m.schema[idx];
        int pending = 1; /* skip the subtree */
        while (pending > 0 && idx < m.n_schema) {
            pending += m.schema[idx].num_children > 0 ? m.schema[idx].num_children : 0;
            pending--;
            idx++;
        }
        if (el->physical < 0 || el->num_children > 0 || el->repetition == SQE_PQ_REPEATED ||
            !el->name)
            continue; /* nested: not a column sqe can read yet */
        pq_col c = {.el = el, .physical = el->physical, .type_length = el->type_length};
        pq_classify(&c);
        sqe_type ty;
        if (!pq_default_type(&c, &ty)) {
            char fbuf[96];
            ok = sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                               "column '%s' of Parquet file '%s' has a type sqe cannot read (%s)",
                               el->name, path, pq_describe(&c, fbuf, sizeof fbuf));
            break;
        }
        char *name = sqe_str_lower(sqe_arena_strdup(arena, el->name));
        for (int i = 0; i < out->n_cols && ok; i++)
            if (strcmp(out->names[i], name) == 0)
                ok = sqe_error_set(err, SQE_ERR_INVALID_DATA,
                                   "Parquet file '%s' has two columns named '%s' when case is "
                                   "ignored",
                                   path, name);
        out->names[out->n_cols] = name;
        out->types[out->n_cols++] = ty;
    }
    sqe_arena_free(a);
    return ok;
}
