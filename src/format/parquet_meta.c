/*
 * parquet_meta.c - the thrift compact protocol and the Parquet structures
 * encoded with it: FileMetaData (the footer), PageHeader, and the page index
 * (ColumnIndex, OffsetIndex). Field ids and types follow parquet-format's
 * parquet.thrift; the wire format is thrift's compact protocol.
 *
 * Where it sits: parquet_reader.c reads the footer bytes (the N bytes before
 * the 8-byte "N PAR1" tail) and calls sqe_pq_parse_file_meta once per file,
 * then sqe_pq_parse_page_header at each page of the column chunks it reads,
 * and the page index parsers when it prunes pages. This file does no I/O.
 *
 * The decoder. A tc_reader walks buf[0, len) with a cursor. Each Parquet
 * struct has a decoder (pq_file_meta, pq_column_meta, ...) that loops over
 * field headers (tc_field), switches on the field id, checks the wire type
 * of the fields it knows (tc_expect, or the typed readers tc_i32/tc_i64/
 * tc_bool/tc_binary/tc_list), and skips everything else with tc_skip, which
 * walks any value -- maps, sets and nested containers included -- without
 * storing it. Unknown fields are therefore harmless (a newer writer's
 * additions), and unknown enum values are passed through as read (a new
 * codec or logical type is the reader's to reject, for the columns it
 * reads, so a file stays readable for the others). Required fields are
 * tracked in a bitmask and their absence is an error naming them.
 *
 * Invariants that make hostile input cheap:
 *  - the cursor never passes `end`: every read checks the bytes left first;
 *    running out is a "the data ends at byte N" error that also sets
 *    `truncated`, which the page header parser reports as need_more;
 *  - every list count is checked against its limit (SQE_PQ_MAX_SCHEMA for
 *    the schema and a row group's columns, SQE_PQ_MAX_ROW_GROUPS,
 *    SQE_PQ_MAX_LIST otherwise) and against the bytes left, at the smallest
 *    encoded size of one element (MIN_*), before anything is allocated, so
 *    the memory a footer costs is proportional to its length;
 *  - every binary length is checked against the bytes left (and, when the
 *    value is kept, SQE_PQ_MAX_STRING) before it is copied;
 *  - nesting (structs, lists, maps) is bounded by SQE_PQ_MAX_DEPTH, so the
 *    recursive skip cannot exhaust the stack, and every element skipped
 *    consumes at least one byte, so skipping is linear in the input;
 *  - sizes, offsets and counts that cannot be negative are INVALID_DATA when
 *    they are (a negative statistic -- null_count, distinct_count, a page's
 *    null count in the column index, which some writers set to -1 -- is
 *    dropped instead, as statistics are optional, and so are the optional,
 *    unreliable RowGroup.file_offset and total_compressed_size, and a
 *    type_length, which only FIXED_LEN_BYTE_ARRAY uses and the reader
 *    checks); the deprecated ColumnChunk.file_offset is kept as read.
 *
 * Errors are INVALID_DATA with messages of the form "thrift: <what is
 * wrong> at byte <offset in the buffer> in <Struct>.<field>", e.g.
 * "thrift: list of 4294967295 elements at byte 1234 exceeds the limit of
 * 10000000 in ColumnMetaData.encodings". The reader prefixes the file name.
 *
 * Memory: footer and page index structures live in the caller's arena;
 * strings and statistics bytes are copied there. A page header has no arena:
 * its statistics point into the caller's buffer (parquet.h).
 */
#include "format/parquet.h"

#include <stdio.h>
#include <string.h>

/* Compact protocol types (field types; in lists BOOL is 1 or 2). */
enum {
    TC_STOP = 0,
    TC_TRUE = 1,
    TC_FALSE = 2,
    TC_I8 = 3,
    TC_I16 = 4,
    TC_I32 = 5,
    TC_I64 = 6,
    TC_DOUBLE = 7,
    TC_BINARY = 8,
    TC_LIST = 9,
    TC_SET = 10,
    TC_MAP = 11,
    TC_STRUCT = 12,
    TC_UUID = 13,
};

static const char *const k_type_names[] = {
    "stop",   "bool",   "bool", "i8",  "i16", "i32",    "i64",
    "double", "binary", "list", "set", "map", "struct", "uuid",
};

/* Smallest encoded size of one list element, in bytes: a SchemaElement has
 * its name (header, length, stop), a RowGroup its columns list, total size
 * and row count, a ColumnChunk its file_offset plus meta_data or encryption
 * metadata, a PageLocation its three fields. */
#define MIN_SCHEMA_ELEM 3
#define MIN_ROW_GROUP 7
#define MIN_COLUMN_CHUNK 5
#define MIN_PAGE_LOCATION 7

/* A struct being decoded: its name and field names for error messages, the
 * previous field id (compact field ids are deltas) and the current one. A
 * struct that is only skipped has name NULL. */
typedef struct tc_frame {
    const char *name;
    const char *const *fields; /* indexed by field id; NULL entries unnamed */
    int n_fields;
    int last_id;
    int field;
} tc_frame;

typedef struct tc_reader {
    const uint8_t *base, *p, *end;
    const uint8_t *field_at; /* the last field header read */
    sqe_arena *arena;        /* copies of binary values; NULL: point into the buffer */
    sqe_error *err;
    int depth; /* structs, lists and maps entered */
    int n_frames;
    bool truncated; /* the error is "the data ended" (more bytes may help) */
    tc_frame frames[SQE_PQ_MAX_DEPTH + 1];
} tc_reader;

static void tc_init(tc_reader *r, const uint8_t *buf, size_t len, sqe_arena *arena,
                    sqe_error *err) {
    memset(r, 0, sizeof *r);
    r->base = r->p = buf;
    r->end = buf + len;
    r->arena = arena;
    r->err = err;
}

static size_t tc_off(const tc_reader *r, const uint8_t *at) {
    return (size_t)(at - r->base);
}
static size_t tc_left(const tc_reader *r) {
    return (size_t)(r->end - r->p);
}

static const char *tc_type_name(int type) {
    return type >= 0 && type < (int)SQE_ARRAY_LEN(k_type_names) ? k_type_names[type] : "invalid";
}

/* Fills r->err with "thrift: <msg> in <Struct>.<field>" (the innermost named
 * struct) and returns false. */
static bool tc_fail(tc_reader *r, const char *fmt, ...) SQE_PRINTF(2, 3);
static bool tc_fail(tc_reader *r, const char *fmt, ...) {
    char msg[512], ctx[160] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    for (int i = r->n_frames - 1; i >= 0; i--) {
        const tc_frame *f = &r->frames[i];
        if (!f->name) continue;
        if (f->field <= 0)
            snprintf(ctx, sizeof ctx, " in %s", f->name);
        else if (f->field < f->n_fields && f->fields[f->field])
            snprintf(ctx, sizeof ctx, " in %s.%s", f->name, f->fields[f->field]);
        else
            snprintf(ctx, sizeof ctx, " in %s field %d", f->name, f->field);
        break;
    }
    return sqe_error_set(r->err, SQE_ERR_INVALID_DATA, "thrift: %s%s", msg, ctx);
}

static bool tc_short(tc_reader *r, const char *what) {
    r->truncated = true;
    return tc_fail(r, "the data ends at byte %zu inside %s", tc_off(r, r->end), what);
}

/* ------------------------------------------------------------ primitives */

static bool tc_varint(tc_reader *r, uint64_t *out) {
    const uint8_t *start = r->p;
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
        if (r->p >= r->end) return tc_short(r, "a varint");
        uint8_t b = *r->p++;
        if (shift == 63 && (b & 0x7E))
            return tc_fail(r, "varint at byte %zu overflows 64 bits", tc_off(r, start));
        v |= (uint64_t)(b & 0x7F) << shift;
        if (!(b & 0x80)) break;
        if (shift == 63)
            return tc_fail(r, "varint at byte %zu is longer than 10 bytes", tc_off(r, start));
    }
    *out = v;
    return true;
}

static bool tc_need(tc_reader *r, size_t n, const char *what) {
    return tc_left(r) >= n ? true : tc_short(r, what);
}

static bool tc_expect(tc_reader *r, int type, int want) {
    bool ok = type == want || (want == TC_LIST && type == TC_SET) ||
              (want == TC_TRUE && type == TC_FALSE);
    if (ok) return true;
    return tc_fail(r, "field of type %s at byte %zu, expected %s", tc_type_name(type),
                   tc_off(r, r->field_at), tc_type_name(want));
}

/* Any integer wire type (i8 raw byte, i16/i32/i64 zigzag varints). */
static bool tc_int(tc_reader *r, int type, int64_t *out) {
    if (type == TC_I8) {
        if (!tc_need(r, 1, "an i8")) return false;
        *out = (int8_t)*r->p++;
        return true;
    }
    if (type != TC_I16 && type != TC_I32 && type != TC_I64)
        return tc_fail(r, "value of type %s at byte %zu, expected an integer", tc_type_name(type),
                       tc_off(r, r->p));
    uint64_t u;
    if (!tc_varint(r, &u)) return false;
    *out = (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
    return true;
}

static bool tc_i64(tc_reader *r, int type, int64_t *out, bool nonneg) {
    const uint8_t *at = r->p;
    if (!tc_int(r, type, out)) return false;
    if (nonneg && *out < 0)
        return tc_fail(r, "negative value %lld at byte %zu", (long long)*out, tc_off(r, at));
    return true;
}

static bool tc_i32(tc_reader *r, int type, int32_t *out, bool nonneg) {
    const uint8_t *at = r->p;
    int64_t v;
    if (!tc_i64(r, type, &v, nonneg)) return false;
    if (v < INT32_MIN || v > INT32_MAX)
        return tc_fail(r, "value %lld at byte %zu does not fit 32 bits", (long long)v,
                       tc_off(r, at));
    *out = (int32_t)v;
    return true;
}

/* An enum: a non-negative i32 (values this reader does not know pass). */
static bool tc_enum(tc_reader *r, int type, int *out) {
    int32_t v;
    if (!tc_i32(r, type, &v, true)) return false;
    *out = v;
    return true;
}

/* A bool field: the value is the field type itself. */
static bool tc_bool(tc_reader *r, int type, bool *out) {
    if (!tc_expect(r, type, TC_TRUE)) return false;
    *out = type == TC_TRUE;
    return true;
}

/* A binary/string value of at most `limit` bytes: copied into the arena
 * (NUL-terminated) when the reader has one, else pointing into the buffer. */
static bool tc_binary(tc_reader *r, int type, const uint8_t **out, uint32_t *out_len,
                      uint32_t limit) {
    if (type != TC_BINARY)
        return tc_fail(r, "value of type %s at byte %zu, expected binary", tc_type_name(type),
                       tc_off(r, r->p));
    const uint8_t *at = r->p;
    uint64_t n;
    if (!tc_varint(r, &n)) return false;
    if (n > limit)
        return tc_fail(r, "binary of %llu bytes at byte %zu exceeds the limit of %u",
                       (unsigned long long)n, tc_off(r, at), limit);
    if (n > tc_left(r)) {
        r->truncated = true;
        return tc_fail(r, "binary of %llu bytes at byte %zu runs past the end (byte %zu)",
                       (unsigned long long)n, tc_off(r, at), tc_off(r, r->end));
    }
    if (r->arena) {
        uint8_t *copy = sqe_arena_alloc(r->arena, (size_t)n + 1);
        memcpy(copy, r->p, (size_t)n);
        *out = copy;
    } else {
        *out = r->p;
    }
    *out_len = (uint32_t)n;
    r->p += n;
    return true;
}

static bool tc_string(tc_reader *r, int type, const char **out) {
    const uint8_t *p;
    uint32_t n;
    if (!tc_binary(r, type, &p, &n, SQE_PQ_MAX_STRING)) return false;
    *out = (const char *)p;
    return true;
}

/* ------------------------------------------------------------ structure */

static bool tc_depth_in(tc_reader *r) {
    if (r->depth >= SQE_PQ_MAX_DEPTH)
        return tc_fail(r, "values nested deeper than %d levels at byte %zu", SQE_PQ_MAX_DEPTH,
                       tc_off(r, r->p));
    r->depth++;
    return true;
}

static bool tc_enter(tc_reader *r, const char *name, const char *const *fields, int n_fields) {
    if (!tc_depth_in(r)) return false;
    r->frames[r->n_frames++] = (tc_frame){name, fields, n_fields, 0, 0};
    return true;
}

static void tc_leave(tc_reader *r) {
    r->depth--;
    r->n_frames--;
}

#define TC_ENTER(r, name, fields) tc_enter((r), (name), (fields), (int)SQE_ARRAY_LEN(fields))

/* Reads the next field header of the innermost struct: 1 with *id and *type
 * set, 0 at the stop byte, -1 on error. */
static int tc_field(tc_reader *r, int *id, int *type) {
    tc_frame *f = &r->frames[r->n_frames - 1];
    if (r->p >= r->end) return tc_short(r, "a struct"), -1;
    const uint8_t *at = r->field_at = r->p;
    uint8_t b = *r->p++;
    if (b == 0) return 0;
    int t = b & 0x0F, delta = b >> 4;
    if (t == TC_STOP || t > TC_UUID)
        return tc_fail(r, "invalid field type %d at byte %zu", t, tc_off(r, at)), -1;
    if (delta) {
        f->last_id += delta;
    } else {
        int64_t v;
        if (!tc_int(r, TC_I16, &v)) return -1;
        if (v < INT16_MIN || v > INT16_MAX)
            return tc_fail(r, "field id %lld at byte %zu does not fit 16 bits", (long long)v,
                           tc_off(r, at)),
                   -1;
        f->last_id = (int)v;
    }
    f->field = f->last_id;
    *id = f->last_id;
    *type = t;
    return 1;
}

/* Reads a list/set header. elem_want is the expected element type (TC_TRUE
 * for bools, which lists encode as 1 or 2; -1 for any); an empty list may
 * carry any element type. The count must be within `limit` and, at
 * `min_bytes` per element, within the bytes left. */
static bool tc_list(tc_reader *r, int type, int elem_want, uint32_t limit, size_t min_bytes,
                    int *elem_type, uint32_t *count) {
    if (type != TC_LIST && type != TC_SET)
        return tc_fail(r, "value of type %s at byte %zu, expected list", tc_type_name(type),
                       tc_off(r, r->p));
    const uint8_t *at = r->p;
    if (!tc_need(r, 1, "a list header")) return false;
    uint8_t b = *r->p++;
    int et = b & 0x0F;
    uint64_t n = b >> 4;
    if (n == 15) {
        if (!tc_varint(r, &n)) return false;
        if (n > UINT32_MAX)
            return tc_fail(r, "list size %llu at byte %zu does not fit 32 bits",
                           (unsigned long long)n, tc_off(r, at));
    }
    if (n > 0) {
        if (et == TC_STOP || et > TC_UUID)
            return tc_fail(r, "list of invalid element type %d at byte %zu", et, tc_off(r, at));
        bool match = elem_want < 0 || et == elem_want || (elem_want == TC_TRUE && et == TC_FALSE) ||
                     (elem_want == TC_I64 && (et == TC_I8 || et == TC_I16 || et == TC_I32)) ||
                     (elem_want == TC_I32 && (et == TC_I8 || et == TC_I16));
        if (!match)
            return tc_fail(r, "list of %s at byte %zu, expected a list of %s", tc_type_name(et),
                           tc_off(r, at), tc_type_name(elem_want));
    }
    if (n > limit)
        return tc_fail(r, "list of %llu elements at byte %zu exceeds the limit of %u",
                       (unsigned long long)n, tc_off(r, at), limit);
    if (n * min_bytes > tc_left(r)) {
        r->truncated = true;
        return tc_fail(r,
                       "list of %llu elements at byte %zu needs at least %llu bytes but only %zu "
                       "remain",
                       (unsigned long long)n, tc_off(r, at), (unsigned long long)(n * min_bytes),
                       tc_left(r));
    }
    *elem_type = et;
    *count = (uint32_t)n;
    return true;
}

static bool tc_skip(tc_reader *r, int type, bool elem);

static bool tc_skip_list(tc_reader *r, int type) {
    int et;
    uint32_t n;
    if (!tc_depth_in(r) || !tc_list(r, type, -1, SQE_PQ_MAX_LIST, 1, &et, &n)) return false;
    for (uint32_t i = 0; i < n; i++)
        if (!tc_skip(r, et, true)) return false;
    r->depth--;
    return true;
}

static bool tc_skip_map(tc_reader *r) {
    const uint8_t *at = r->p;
    uint64_t n;
    if (!tc_depth_in(r) || !tc_varint(r, &n)) return false;
    if (n == 0) {
        r->depth--;
        return true;
    }
    if (n > SQE_PQ_MAX_LIST)
        return tc_fail(r, "map of %llu entries at byte %zu exceeds the limit of %u",
                       (unsigned long long)n, tc_off(r, at), (unsigned)SQE_PQ_MAX_LIST);
    if (!tc_need(r, 1, "a map header")) return false;
    uint8_t kv = *r->p++;
    int kt = kv >> 4, vt = kv & 0x0F;
    if (kt == TC_STOP || kt > TC_UUID || vt == TC_STOP || vt > TC_UUID)
        return tc_fail(r, "map with invalid key/value types %d/%d at byte %zu", kt, vt,
                       tc_off(r, at));
    if (n * 2 > tc_left(r)) {
        r->truncated = true;
        return tc_fail(r,
                       "map of %llu entries at byte %zu needs at least %llu bytes but only %zu "
                       "remain",
                       (unsigned long long)n, tc_off(r, at), (unsigned long long)(n * 2),
                       tc_left(r));
    }
    for (uint64_t i = 0; i < n; i++)
        if (!tc_skip(r, kt, true) || !tc_skip(r, vt, true)) return false;
    r->depth--;
    return true;
}

static bool tc_skip_struct(tc_reader *r) {
    if (!tc_enter(r, NULL, NULL, 0)) return false;
    int id, type, rc;
    while ((rc = tc_field(r, &id, &type)) > 0)
        if (!tc_skip(r, type, false)) return false;
    if (rc < 0) return false;
    tc_leave(r);
    return true;
}

/* Skips one value of the given type; `elem`: inside a container, where a
 * bool takes a byte (as a field it lives in the field header). */
static bool tc_skip(tc_reader *r, int type, bool elem) {
    int64_t v;
    switch (type) {
    case TC_TRUE:
    case TC_FALSE:
        if (!elem) return true;
        /* fallthrough */
    case TC_I8:
        if (!tc_need(r, 1, "a byte")) return false;
        r->p++;
        return true;
    case TC_I16:
    case TC_I32:
    case TC_I64:
        return tc_int(r, type, &v);
    case TC_DOUBLE:
        if (!tc_need(r, 8, "a double")) return false;
        r->p += 8;
        return true;
    case TC_UUID:
        if (!tc_need(r, 16, "a uuid")) return false;
        r->p += 16;
        return true;
    case TC_BINARY: {
        const uint8_t *at = r->p;
        uint64_t n;
        if (!tc_varint(r, &n)) return false;
        if (n > tc_left(r)) {
            r->truncated = true;
            return tc_fail(r, "binary of %llu bytes at byte %zu runs past the end (byte %zu)",
                           (unsigned long long)n, tc_off(r, at), tc_off(r, r->end));
        }
        r->p += n;
        return true;
    }
    case TC_LIST:
    case TC_SET:
        return tc_skip_list(r, type);
    case TC_MAP:
        return tc_skip_map(r);
    case TC_STRUCT:
        return tc_skip_struct(r);
    default:
        return tc_fail(r, "invalid type %d at byte %zu", type, tc_off(r, r->p));
    }
}

/* A union (a struct with exactly one field, or at most one) with n fields. */
static bool tc_union_fail(tc_reader *r, int n) {
    r->frames[r->n_frames - 1].field = 0;
    return tc_fail(r, "union with %d members at byte %zu", n, tc_off(r, r->p));
}

/* Checks that every field id in `need` (bit i = field i) was seen. */
static bool tc_required(tc_reader *r, uint32_t seen, uint32_t need) {
    uint32_t missing = need & ~seen;
    if (!missing) return true;
    const tc_frame *f = &r->frames[r->n_frames - 1];
    int id = __builtin_ctz(missing);
    r->n_frames--; /* the context is the field holding this struct */
    tc_fail(r, "%s lacks required field %d (%s) at byte %zu", f->name, id,
            id < f->n_fields && f->fields[id] ? f->fields[id] : "?", tc_off(r, r->p));
    r->n_frames++;
    return false;
}

/* An optional i64 whose negative values mean "unknown" (-1). */
static bool tc_i64_opt(tc_reader *r, int type, int64_t *out) {
    if (!tc_i64(r, type, out, false)) return false;
    if (*out < 0) *out = -1;
    return true;
}

#define BIT(i) (1u << (i))
#define SEEN(seen, id)                                                                             \
    do {                                                                                           \
        if ((id) > 0 && (id) < 32) (seen) |= BIT(id);                                              \
    } while (0)

/* ------------------------------------------------------------ statistics */

static const char *const k_stats_fields[] = {
    NULL,
    "max",
    "min",
    "null_count",
    "distinct_count",
    "max_value",
    "min_value",
    "is_max_value_exact",
    "is_min_value_exact",
    "nan_count",
};

static bool pq_stats(tc_reader *r, int type, sqe_pq_stats *st) {
    if (!tc_expect(r, type, TC_STRUCT) || !TC_ENTER(r, "Statistics", k_stats_fields)) return false;
    const uint8_t *v[7] = {0}; /* by field id 1, 2, 5, 6 */
    uint32_t vlen[7] = {0};
    int id, t, rc;
    memset(st, 0, sizeof *st);
    while ((rc = tc_field(r, &id, &t)) > 0) {
        bool ok;
        switch (id) {
        case 1:
        case 2:
        case 5:
        case 6:
            ok = tc_binary(r, t, &v[id], &vlen[id], SQE_PQ_MAX_STRING);
            break;
        case 3:
            ok = tc_i64(r, t, &st->null_count, false);
            st->has_null_count = ok && st->null_count >= 0;
            break;
        case 4:
            ok = tc_i64(r, t, &st->distinct_count, false);
            st->has_distinct_count = ok && st->distinct_count >= 0;
            break;
        case 9:
            ok = tc_i64(r, t, &st->nan_count, false);
            st->has_nan_count = ok && st->nan_count >= 0;
            break;
        default:
            ok = tc_skip(r, t, false);
        }
        if (!ok) return false;
    }
    if (rc < 0) return false;
    if (!st->has_null_count) st->null_count = 0;
    if (!st->has_distinct_count) st->distinct_count = 0;
    if (!st->has_nan_count) st->nan_count = 0;
    /* min_value/max_value (5/6) win; the deprecated pair only without them */
    int max_id = 5, min_id = 6;
    if (!v[5] && !v[6]) {
        max_id = 1, min_id = 2;
        st->legacy = v[1] || v[2];
    }
    st->has_max = v[max_id] != NULL, st->max = v[max_id], st->max_len = vlen[max_id];
    st->has_min = v[min_id] != NULL, st->min = v[min_id], st->min_len = vlen[min_id];
    tc_leave(r);
    return true;
}

/* ------------------------------------------------------------ schema */

static const char *const k_dec_fields[] = {NULL, "scale", "precision"};
static const char *const k_time_fields[] = {NULL, "isAdjustedToUTC", "unit"};
static const char *const k_int_fields[] = {NULL, "bitWidth", "isSigned"};
static const char *const k_unit_fields[] = {NULL, "MILLIS", "MICROS", "NANOS"};
static const char *const k_lt_fields[] = {
    NULL,   "STRING",    "MAP",     "LIST",     "ENUM",      "DECIMAL", "DATE",
    "TIME", "TIMESTAMP", NULL,      "INTEGER",  "UNKNOWN",   "JSON",    "BSON",
    "UUID", "FLOAT16",   "VARIANT", "GEOMETRY", "GEOGRAPHY",
};

/* TimeUnit union: MILLIS/MICROS/NANOS, each an empty struct. *known false for
 * a unit this reader does not know. */
static bool pq_time_unit(tc_reader *r, int type, sqe_pq_time_unit *unit, bool *known) {
    if (!tc_expect(r, type, TC_STRUCT) || !TC_ENTER(r, "TimeUnit", k_unit_fields)) return false;
    int id, t, rc, n = 0;
    *known = false;
    while ((rc = tc_field(r, &id, &t)) > 0) {
        if (!tc_skip(r, t, false)) return false;
        n++;
        if (id >= 1 && id <= 3 && t == TC_STRUCT) {
            *unit = (sqe_pq_time_unit)(id - 1);
            *known = true;
        }
    }
    if (rc < 0) return false;
    if (n != 1) return tc_union_fail(r, n);
    tc_leave(r);
    return true;
}

/* The struct of one LogicalType member (id = union field id). */
static bool pq_logical_member(tc_reader *r, int id, sqe_pq_logical *lt) {
    const char *const *fields = id == 5 ? k_dec_fields : id == 10 ? k_int_fields : k_time_fields;
    const char *name = id == 5   ? "DecimalType"
                       : id == 7 ? "TimeType"
                       : id == 8 ? "TimestampType"
                                 : "IntType";
    if (!tc_enter(r, name, fields, 3)) return false;
    uint32_t seen = 0;
    bool unit_known = true;
    int fid, t, rc;
    int64_t v;
    while ((rc = tc_field(r, &fid, &t)) > 0) {
        bool ok;
        if (id == 5 && fid == 1)
            ok = tc_i32(r, t, &lt->scale, false);
        else if (id == 5 && fid == 2)
            ok = tc_i32(r, t, &lt->precision, false);
        else if ((id == 7 || id == 8) && fid == 1)
            ok = tc_bool(r, t, &lt->utc_adjusted);
        else if ((id == 7 || id == 8) && fid == 2)
            ok = pq_time_unit(r, t, &lt->unit, &unit_known);
        else if (id == 10 && fid == 1) {
            ok = tc_int(r, t, &v);
            if (ok && (v < INT8_MIN || v > INT8_MAX))
                ok = tc_fail(r, "bitWidth %lld does not fit 8 bits", (long long)v);
            lt->bit_width = (int8_t)v;
        } else if (id == 10 && fid == 2)
            ok = tc_bool(r, t, &lt->is_signed);
        else
            ok = tc_skip(r, t, false);
        if (!ok) return false;
        SEEN(seen, fid);
    }
    if (rc < 0 || !tc_required(r, seen, BIT(1) | BIT(2))) return false;
    if (!unit_known) lt->kind = SQE_PQ_LT_OTHER;
    tc_leave(r);
    return true;
}

static bool pq_logical(tc_reader *r, int type, sqe_pq_logical *lt) {
    if (!tc_expect(r, type, TC_STRUCT) || !TC_ENTER(r, "LogicalType", k_lt_fields)) return false;
    int id, t, rc, n = 0;
    memset(lt, 0, sizeof *lt);
    while ((rc = tc_field(r, &id, &t)) > 0) {
        bool ok;
        if (t != TC_STRUCT) {
            ok = tc_expect(r, t, TC_STRUCT);
        } else if (id == 5 || id == 7 || id == 8 || id == 10) {
            lt->kind = (sqe_pq_logical_kind)id;
            ok = pq_logical_member(r, id, lt);
        } else {
            bool known = (id >= 1 && id <= 8) || (id >= 10 && id <= 18);
            lt->kind = known ? (sqe_pq_logical_kind)id : SQE_PQ_LT_OTHER;
            ok = tc_skip(r, t, false);
        }
        if (!ok) return false;
        n++;
    }
    if (rc < 0) return false;
    if (n > 1) return tc_union_fail(r, n);
    tc_leave(r);
    return true;
}

static const char *const k_schema_fields[] = {
    NULL,        "type",         "type_length",    "repetition_type",
    "name",      "num_children", "converted_type", "scale",
    "precision", "field_id",     "logicalType",
};

static bool pq_schema_elem(tc_reader *r, sqe_pq_schema_elem *e) {
    if (!TC_ENTER(r, "SchemaElement", k_schema_fields)) return false;
    e->physical = -1;
    e->repetition = -1;
    e->converted = SQE_PQ_CT_NONE;
    e->field_id = -1;
    uint32_t seen = 0;
    int id, t, rc;
    while ((rc = tc_field(r, &id, &t)) > 0) {
        bool ok;
        switch (id) {
        case 1:
            ok = tc_enum(r, t, &e->physical);
            break;
        case 2:
            ok = tc_i32(r, t, &e->type_length, false);
            if (e->type_length < 0) e->type_length = 0; /* meaningful for FLBA only */
            break;
        case 3:
            ok = tc_enum(r, t, &e->repetition);
            break;
        case 4:
            ok = tc_string(r, t, &e->name);
            break;
        case 5:
            ok = tc_i32(r, t, &e->num_children, true);
            break;
        case 6:
            ok = tc_enum(r, t, &e->converted);
            break;
        case 7:
            ok = tc_i32(r, t, &e->scale, false);
            break;
        case 8:
            ok = tc_i32(r, t, &e->precision, false);
            break;
        case 9:
            ok = tc_i32(r, t, &e->field_id, false);
            break;
        case 10:
            ok = pq_logical(r, t, &e->logical);
            break;
        default:
            ok = tc_skip(r, t, false);
        }
        if (!ok) return false;
        SEEN(seen, id);
    }
    if (rc < 0 || !tc_required(r, seen, BIT(4))) return false;
    tc_leave(r);
    return true;
}

static bool pq_schema(tc_reader *r, int type, sqe_pq_file_meta *m) {
    int et;
    uint32_t n;
    if (!tc_depth_in(r) ||
        !tc_list(r, type, TC_STRUCT, SQE_PQ_MAX_SCHEMA, MIN_SCHEMA_ELEM, &et, &n))
        return false;
    m->schema = sqe_arena_alloc(r->arena, (n ? n : 1) * sizeof *m->schema);
    m->n_schema = (int)n;
    for (uint32_t i = 0; i < n; i++)
        if (!pq_schema_elem(r, &m->schema[i])) return false;
    r->depth--;
    return true;
}

/* ------------------------------------------------------------ row groups */

static const char *const k_colmeta_fields[] = {
    NULL,
    "type",
    "encodings",
    "path_in_schema",
    "codec",
    "num_values",
    "total_uncompressed_size",
    "total_compressed_size",
    "key_value_metadata",
    "data_page_offset",
    "index_page_offset",
    "dictionary_page_offset",
    "statistics",
    "encoding_stats",
    "bloom_filter_offset",
    "bloom_filter_length",
    "size_statistics",
    "geospatial_statistics",
};

static bool pq_encodings(tc_reader *r, int type, sqe_pq_column_chunk *c) {
    int et;
    uint32_t n;
    if (!tc_depth_in(r) || !tc_list(r, type, TC_I32, SQE_PQ_MAX_LIST, 1, &et, &n)) return false;
    int *enc = sqe_arena_alloc(r->arena, (n ? n : 1) * sizeof *enc);
    for (uint32_t i = 0; i < n; i++)
        if (!tc_enum(r, et, &enc[i])) return false;
    c->encodings = enc;
    c->n_encodings = (int)n;
    r->depth--;
    return true;
}

static bool pq_path(tc_reader *r, int type, sqe_pq_column_chunk *c) {
    int et;
    uint32_t n;
    if (!tc_depth_in(r) || !tc_list(r, type, TC_BINARY, SQE_PQ_MAX_LIST, 1, &et, &n)) return false;
    const char **path = sqe_arena_alloc(r->arena, (n ? n : 1) * sizeof *path);
    for (uint32_t i = 0; i < n; i++)
        if (!tc_string(r, et, &path[i])) return false;
    c->path = path;
    c->n_path = (int)n;
    r->depth--;
    return true;
}

static bool pq_column_meta(tc_reader *r, int type, sqe_pq_column_chunk *c) {
    if (!tc_expect(r, type, TC_STRUCT) || !TC_ENTER(r, "ColumnMetaData", k_colmeta_fields))
        return false;
    uint32_t seen = 0;
    int id, t, rc;
    while ((rc = tc_field(r, &id, &t)) > 0) {
        bool ok;
        switch (id) {
        case 1:
            ok = tc_enum(r, t, &c->physical);
            break;
        case 2:
            ok = pq_encodings(r, t, c);
            break;
        case 3:
            ok = pq_path(r, t, c);
            break;
        case 4:
            ok = tc_enum(r, t, &c->codec);
            break;
        case 5:
            ok = tc_i64(r, t, &c->num_values, true);
            break;
        case 6:
            ok = tc_i64(r, t, &c->total_uncompressed_size, true);
            break;
        case 7:
            ok = tc_i64(r, t, &c->total_compressed_size, true);
            break;
        case 9:
            ok = tc_i64(r, t, &c->data_page_offset, true);
            break;
        case 10:
            ok = tc_i64(r, t, &c->index_page_offset, true);
            break;
        case 11:
            ok = tc_i64(r, t, &c->dictionary_page_offset, true);
            break;
        case 12:
            ok = pq_stats(r, t, &c->stats);
            break;
        default:
            ok = tc_skip(r, t, false);
        }
        if (!ok) return false;
        SEEN(seen, id);
    }
    uint32_t need = BIT(1) | BIT(2) | BIT(3) | BIT(4) | BIT(5) | BIT(6) | BIT(7) | BIT(9);
    if (rc < 0 || !tc_required(r, seen, need)) return false;
    c->has_meta = true;
    tc_leave(r);
    return true;
}

static const char *const k_chunk_fields[] = {
    NULL,
    "file_path",
    "file_offset",
    "meta_data",
    "offset_index_offset",
    "offset_index_length",
    "column_index_offset",
    "column_index_length",
    "crypto_metadata",
    "encrypted_column_metadata",
};

static bool pq_column_chunk(tc_reader *r, sqe_pq_column_chunk *c) {
    if (!TC_ENTER(r, "ColumnChunk", k_chunk_fields)) return false;
    c->index_page_offset = c->dictionary_page_offset = -1;
    c->offset_index_offset = c->column_index_offset = -1;
    uint32_t seen = 0;
    int id, t, rc;
    while ((rc = tc_field(r, &id, &t)) > 0) {
        bool ok;
        switch (id) {
        case 1:
            ok = tc_string(r, t, &c->file_path);
            break;
        case 2:
            ok = tc_i64(r, t, &c->file_offset, false);
            break;
        case 3:
            ok = pq_column_meta(r, t, c);
            break;
        case 4:
            ok = tc_i64(r, t, &c->offset_index_offset, true);
            break;
        case 5:
            ok = tc_i32(r, t, &c->offset_index_length, true);
            break;
        case 6:
            ok = tc_i64(r, t, &c->column_index_offset, true);
            break;
        case 7:
            ok = tc_i32(r, t, &c->column_index_length, true);
            break;
        case 8:
        case 9:
            ok = tc_expect(r, t, id == 8 ? TC_STRUCT : TC_BINARY) && tc_skip(r, t, false);
            c->encrypted = true;
            break;
        default:
            ok = tc_skip(r, t, false);
        }
        if (!ok) return false;
        SEEN(seen, id);
    }
    if (rc < 0 || !tc_required(r, seen, BIT(2))) return false;
    if (!c->has_meta && !c->encrypted) {
        r->frames[r->n_frames - 1].field = 0;
        return tc_fail(r, "column chunk at byte %zu has neither meta_data nor encryption metadata",
                       tc_off(r, r->p));
    }
    tc_leave(r);
    return true;
}

static const char *const k_rg_fields[] = {
    NULL,
    "columns",
    "total_byte_size",
    "num_rows",
    "sorting_columns",
    "file_offset",
    "total_compressed_size",
    "ordinal",
};

static bool pq_columns(tc_reader *r, int type, sqe_pq_row_group *g) {
    int et;
    uint32_t n;
    if (!tc_depth_in(r) ||
        !tc_list(r, type, TC_STRUCT, SQE_PQ_MAX_SCHEMA, MIN_COLUMN_CHUNK, &et, &n))
        return false;
    g->columns = sqe_arena_alloc(r->arena, (n ? n : 1) * sizeof *g->columns);
    g->n_columns = (int)n;
    for (uint32_t i = 0; i < n; i++)
        if (!pq_column_chunk(r, &g->columns[i])) return false;
    r->depth--;
    return true;
}

static bool pq_row_group(tc_reader *r, sqe_pq_row_group *g) {
    if (!TC_ENTER(r, "RowGroup", k_rg_fields)) return false;
    g->file_offset = g->total_compressed_size = -1;
    uint32_t seen = 0;
    int id, t, rc;
    while ((rc = tc_field(r, &id, &t)) > 0) {
        bool ok;
        switch (id) {
        case 1:
            ok = pq_columns(r, t, g);
            break;
        case 2:
            ok = tc_i64(r, t, &g->total_byte_size, true);
            break;
        case 3:
            ok = tc_i64(r, t, &g->num_rows, true);
            break;
        case 5:
            ok = tc_i64_opt(r, t, &g->file_offset);
            break;
        case 6:
            ok = tc_i64_opt(r, t, &g->total_compressed_size);
            break;
        default:
            ok = tc_skip(r, t, false);
        }
        if (!ok) return false;
        SEEN(seen, id);
    }
    if (rc < 0 || !tc_required(r, seen, BIT(1) | BIT(2) | BIT(3))) return false;
    tc_leave(r);
    return true;
}

static bool pq_row_groups(tc_reader *r, int type, sqe_pq_file_meta *m) {
    int et;
    uint32_t n;
    if (!tc_depth_in(r) ||
        !tc_list(r, type, TC_STRUCT, SQE_PQ_MAX_ROW_GROUPS, MIN_ROW_GROUP, &et, &n))
        return false;
    m->row_groups = sqe_arena_alloc(r->arena, (n ? n : 1) * sizeof *m->row_groups);
    m->n_row_groups = (int)n;
    for (uint32_t i = 0; i < n; i++)
        if (!pq_row_group(r, &m->row_groups[i])) return false;
    r->depth--;
    return true;
}

/* ------------------------------------------------------------ footer */

static const char *const k_order_fields[] = {NULL, "TYPE_ORDER", "IEEE_754_TOTAL_ORDER",
                                             "INT96_TIMESTAMP_ORDER"};

/* One ColumnOrder union (members are empty structs): its member id if known. */
static bool pq_column_order(tc_reader *r, int *order) {
    if (!TC_ENTER(r, "ColumnOrder", k_order_fields)) return false;
    int id, t, rc, n = 0;
    *order = SQE_PQ_ORDER_UNKNOWN;
    while ((rc = tc_field(r, &id, &t)) > 0) {
        if (!tc_skip(r, t, false)) return false;
        if (id >= 1 && id <= 3 && t == TC_STRUCT) *order = id;
        n++;
    }
    if (rc < 0) return false;
    if (n > 1) return tc_union_fail(r, n);
    tc_leave(r);
    return true;
}

static bool pq_column_orders(tc_reader *r, int type, sqe_pq_file_meta *m) {
    int et;
    uint32_t n;
    if (!tc_depth_in(r) || !tc_list(r, type, TC_STRUCT, SQE_PQ_MAX_SCHEMA, 1, &et, &n))
        return false;
    int *orders = sqe_arena_alloc(r->arena, (n ? n : 1) * sizeof *orders);
    for (uint32_t i = 0; i < n; i++)
        if (!pq_column_order(r, &orders[i])) return false;
    m->column_orders = orders;
    m->n_column_orders = (int)n;
    r->depth--;
    return true;
}

static const char *const k_fmd_fields[] = {
    NULL,
    "version",
    "schema",
    "num_rows",
    "row_groups",
    "key_value_metadata",
    "created_by",
    "column_orders",
    "encryption_algorithm",
    "footer_signing_key_metadata",
};

static bool pq_file_meta(tc_reader *r, sqe_pq_file_meta *m) {
    if (!TC_ENTER(r, "FileMetaData", k_fmd_fields)) return false;
    uint32_t seen = 0;
    int id, t, rc;
    while ((rc = tc_field(r, &id, &t)) > 0) {
        bool ok;
        switch (id) {
        case 1:
            ok = tc_i32(r, t, &m->version, false);
            break;
        case 2:
            ok = pq_schema(r, t, m);
            break;
        case 3:
            ok = tc_i64(r, t, &m->num_rows, true);
            break;
        case 4:
            ok = pq_row_groups(r, t, m);
            break;
        case 6:
            ok = tc_string(r, t, &m->created_by);
            break;
        case 7:
            ok = pq_column_orders(r, t, m);
            break;
        case 8:
            ok = tc_expect(r, t, TC_STRUCT) && tc_skip(r, t, false);
            m->has_encryption_algorithm = true;
            break;
        default:
            ok = tc_skip(r, t, false);
        }
        if (!ok) return false;
        SEEN(seen, id);
    }
    if (rc < 0 || !tc_required(r, seen, BIT(1) | BIT(2) | BIT(3) | BIT(4))) return false;
    tc_leave(r);
    return true;
}

bool sqe_pq_parse_file_meta(const uint8_t *buf, size_t len, sqe_arena *arena, sqe_pq_file_meta *out,
                            sqe_error *err) {
    memset(out, 0, sizeof *out);
    if (len > SQE_PQ_MAX_FOOTER)
        return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                             "Parquet footer of %zu bytes exceeds the limit of %u bytes", len,
                             (unsigned)SQE_PQ_MAX_FOOTER);
    tc_reader r;
    tc_init(&r, buf, len, arena, err);
    if (pq_file_meta(&r, out)) return true;
    memset(out, 0, sizeof *out);
    return false;
}

/* ------------------------------------------------------------ page header */

static const char *const k_dph_fields[] = {
    NULL,
    "num_values",
    "encoding",
    "definition_level_encoding",
    "repetition_level_encoding",
    "statistics",
};

static bool pq_data_page(tc_reader *r, int type, sqe_pq_page_header *h) {
    if (!tc_expect(r, type, TC_STRUCT) || !TC_ENTER(r, "DataPageHeader", k_dph_fields))
        return false;
    uint32_t seen = 0;
    int id, t, rc;
    while ((rc = tc_field(r, &id, &t)) > 0) {
        bool ok;
        switch (id) {
        case 1:
            ok = tc_i32(r, t, &h->num_values, true);
            break;
        case 2:
            ok = tc_enum(r, t, &h->encoding);
            break;
        case 3:
            ok = tc_enum(r, t, &h->def_encoding);
            break;
        case 4:
            ok = tc_enum(r, t, &h->rep_encoding);
            break;
        case 5:
            ok = pq_stats(r, t, &h->stats);
            break;
        default:
            ok = tc_skip(r, t, false);
        }
        if (!ok) return false;
        SEEN(seen, id);
    }
    if (rc < 0 || !tc_required(r, seen, BIT(1) | BIT(2) | BIT(3) | BIT(4))) return false;
    tc_leave(r);
    return true;
}

static const char *const k_dict_fields[] = {NULL, "num_values", "encoding", "is_sorted"};

static bool pq_dict_page(tc_reader *r, int type, sqe_pq_page_header *h) {
    if (!tc_expect(r, type, TC_STRUCT) || !TC_ENTER(r, "DictionaryPageHeader", k_dict_fields))
        return false;
    uint32_t seen = 0;
    int id, t, rc;
    while ((rc = tc_field(r, &id, &t)) > 0) {
        bool ok;
        switch (id) {
        case 1:
            ok = tc_i32(r, t, &h->dict_num_values, true);
            break;
        case 2:
            ok = tc_enum(r, t, &h->dict_encoding);
            break;
        default:
            ok = tc_skip(r, t, false);
        }
        if (!ok) return false;
        SEEN(seen, id);
    }
    if (rc < 0 || !tc_required(r, seen, BIT(1) | BIT(2))) return false;
    tc_leave(r);
    return true;
}

static const char *const k_v2_fields[] = {
    NULL,
    "num_values",
    "num_nulls",
    "num_rows",
    "encoding",
    "definition_levels_byte_length",
    "repetition_levels_byte_length",
    "is_compressed",
    "statistics",
};

static bool pq_data_page_v2(tc_reader *r, int type, sqe_pq_page_header *h) {
    if (!tc_expect(r, type, TC_STRUCT) || !TC_ENTER(r, "DataPageHeaderV2", k_v2_fields))
        return false;
    uint32_t seen = 0;
    int id, t, rc;
    while ((rc = tc_field(r, &id, &t)) > 0) {
        bool ok;
        switch (id) {
        case 1:
            ok = tc_i32(r, t, &h->num_values, true);
            break;
        case 2:
            ok = tc_i32(r, t, &h->num_nulls, true);
            break;
        case 3:
            ok = tc_i32(r, t, &h->num_rows, true);
            break;
        case 4:
            ok = tc_enum(r, t, &h->encoding);
            break;
        case 5:
            ok = tc_i32(r, t, &h->def_levels_len, true);
            break;
        case 6:
            ok = tc_i32(r, t, &h->rep_levels_len, true);
            break;
        case 7:
            ok = tc_bool(r, t, &h->v2_is_compressed);
            break;
        case 8:
            ok = pq_stats(r, t, &h->stats);
            break;
        default:
            ok = tc_skip(r, t, false);
        }
        if (!ok) return false;
        SEEN(seen, id);
    }
    uint32_t need = BIT(1) | BIT(2) | BIT(3) | BIT(4) | BIT(5) | BIT(6);
    if (rc < 0 || !tc_required(r, seen, need)) return false;
    r->frames[r->n_frames - 1].field = 0;
    if (h->num_nulls > h->num_values)
        return tc_fail(r, "num_nulls %d exceeds num_values %d", (int)h->num_nulls,
                       (int)h->num_values);
    tc_leave(r);
    return true;
}

static const char *const k_ph_fields[] = {
    NULL,
    "type",
    "uncompressed_page_size",
    "compressed_page_size",
    "crc",
    "data_page_header",
    "index_page_header",
    "dictionary_page_header",
    "data_page_header_v2",
};

/* Page sizes: 0..SQE_PQ_MAX_PAGE. */
static bool pq_page_size(tc_reader *r, int type, int32_t *out) {
    const uint8_t *at = r->p;
    if (!tc_i32(r, type, out, true)) return false;
    if ((uint32_t)*out > SQE_PQ_MAX_PAGE)
        return tc_fail(r, "page size %d at byte %zu exceeds the limit of %u bytes", (int)*out,
                       tc_off(r, at), (unsigned)SQE_PQ_MAX_PAGE);
    return true;
}

/* The page-type-specific header a page of this type must carry (bit), or 0. */
static uint32_t pq_page_needs(int type) {
    return type == SQE_PQ_DATA_PAGE         ? BIT(5)
           : type == SQE_PQ_DICTIONARY_PAGE ? BIT(7)
           : type == SQE_PQ_DATA_PAGE_V2    ? BIT(8)
                                            : 0;
}

static bool pq_page_header(tc_reader *r, sqe_pq_page_header *h) {
    if (!TC_ENTER(r, "PageHeader", k_ph_fields)) return false;
    uint32_t seen = 0;
    int id, t, rc;
    while ((rc = tc_field(r, &id, &t)) > 0) {
        bool ok;
        switch (id) {
        case 1:
            ok = tc_enum(r, t, &h->type);
            break;
        case 2:
            ok = pq_page_size(r, t, &h->uncompressed_size);
            break;
        case 3:
            ok = pq_page_size(r, t, &h->compressed_size);
            break;
        case 4:
            ok = tc_i32(r, t, &h->crc, false);
            h->has_crc = true;
            break;
        case 5:
            ok = pq_data_page(r, t, h);
            break;
        case 7:
            ok = pq_dict_page(r, t, h);
            break;
        case 8:
            ok = pq_data_page_v2(r, t, h);
            break;
        default:
            ok = tc_skip(r, t, false);
        }
        if (!ok) return false;
        SEEN(seen, id);
    }
    if (rc < 0 || !tc_required(r, seen, BIT(1) | BIT(2) | BIT(3) | pq_page_needs(h->type)))
        return false;
    r->frames[r->n_frames - 1].field = 0;
    int64_t levels = (int64_t)h->def_levels_len + h->rep_levels_len;
    if (h->type == SQE_PQ_DATA_PAGE_V2 && levels > h->compressed_size)
        return tc_fail(r, "DATA_PAGE_V2 levels of %lld bytes exceed the page's %d bytes",
                       (long long)levels, (int)h->compressed_size);
    tc_leave(r);
    return true;
}

bool sqe_pq_parse_page_header(const uint8_t *buf, size_t len, sqe_pq_page_header *out,
                              size_t *hdr_len, bool *need_more, sqe_error *err) {
    memset(out, 0, sizeof *out);
    out->v2_is_compressed = true;
    *need_more = false;
    *hdr_len = 0;
    bool capped = len >= SQE_PQ_MAX_PAGE_HEADER;
    sqe_error local;
    tc_reader r;
    tc_init(&r, buf, capped ? SQE_PQ_MAX_PAGE_HEADER : len, NULL, &local);
    if (pq_page_header(&r, out)) {
        *hdr_len = tc_off(&r, r.p);
        return true;
    }
    if (r.truncated && !capped) {
        *need_more = true;
        return false;
    }
    if (r.truncated)
        return sqe_error_set(err, SQE_ERR_INVALID_DATA,
                             "page header longer than the limit of %u bytes (%s)",
                             (unsigned)SQE_PQ_MAX_PAGE_HEADER, local.msg);
    if (err) *err = local;
    return false;
}

/* ------------------------------------------------------------ page index */

static const char *const k_ci_fields[] = {
    NULL,
    "null_pages",
    "min_values",
    "max_values",
    "boundary_order",
    "null_counts",
    "repetition_level_histograms",
    "definition_level_histograms",
    "nan_counts",
};

/* list<binary> into per-page pointers and lengths. */
static bool pq_binary_list(tc_reader *r, int type, const uint8_t *const **out,
                           const uint32_t **out_len, uint32_t *count) {
    int et;
    uint32_t n;
    if (!tc_depth_in(r) || !tc_list(r, type, TC_BINARY, SQE_PQ_MAX_LIST, 1, &et, &n)) return false;
    const uint8_t **v = sqe_arena_alloc(r->arena, (n ? n : 1) * sizeof *v);
    uint32_t *l = sqe_arena_alloc(r->arena, (n ? n : 1) * sizeof *l);
    for (uint32_t i = 0; i < n; i++)
        if (!tc_binary(r, et, &v[i], &l[i], SQE_PQ_MAX_STRING)) return false;
    *out = v, *out_len = l, *count = n;
    r->depth--;
    return true;
}

static bool pq_bool_list(tc_reader *r, int type, const bool **out, uint32_t *count) {
    int et;
    uint32_t n;
    if (!tc_depth_in(r) || !tc_list(r, type, TC_TRUE, SQE_PQ_MAX_LIST, 1, &et, &n)) return false;
    bool *v = sqe_arena_alloc(r->arena, n ? n : 1);
    for (uint32_t i = 0; i < n; i++) v[i] = r->p[i] == 1;
    r->p += n; /* tc_list checked n <= bytes left */
    *out = v, *count = n;
    r->depth--;
    return true;
}

/* ColumnIndex.null_counts; a negative entry (some writers put -1 for
 * "unknown") makes the whole list absent, as the statistic is optional. */
static bool pq_null_counts(tc_reader *r, int type, const int64_t **out, uint32_t *count) {
    int et;
    uint32_t n;
    if (!tc_depth_in(r) || !tc_list(r, type, TC_I64, SQE_PQ_MAX_LIST, 1, &et, &n)) return false;
    int64_t *v = sqe_arena_alloc(r->arena, (n ? n : 1) * sizeof *v);
    bool known = true;
    for (uint32_t i = 0; i < n; i++) {
        if (!tc_i64(r, et, &v[i], false)) return false;
        known &= v[i] >= 0;
    }
    *out = known ? v : NULL, *count = n;
    r->depth--;
    return true;
}

static bool pq_column_index(tc_reader *r, sqe_pq_column_index *ci) {
    if (!TC_ENTER(r, "ColumnIndex", k_ci_fields)) return false;
    uint32_t seen = 0, n_null = 0, n_min = 0, n_max = 0, n_counts = 0;
    int id, t, rc;
    while ((rc = tc_field(r, &id, &t)) > 0) {
        bool ok;
        switch (id) {
        case 1:
            ok = pq_bool_list(r, t, &ci->null_pages, &n_null);
            break;
        case 2:
            ok = pq_binary_list(r, t, &ci->min, &ci->min_len, &n_min);
            break;
        case 3:
            ok = pq_binary_list(r, t, &ci->max, &ci->max_len, &n_max);
            break;
        case 4:
            ok = tc_enum(r, t, &ci->boundary_order);
            break;
        case 5:
            ok = pq_null_counts(r, t, &ci->null_counts, &n_counts);
            break;
        default:
            ok = tc_skip(r, t, false);
        }
        if (!ok) return false;
        SEEN(seen, id);
    }
    if (rc < 0 || !tc_required(r, seen, BIT(1) | BIT(2) | BIT(3) | BIT(4))) return false;
    r->frames[r->n_frames - 1].field = 0;
    if (n_min != n_null || n_max != n_null || ((seen & BIT(5)) && n_counts != n_null))
        return tc_fail(r,
                       "lists of different lengths: %u null_pages, %u min_values, %u max_values, "
                       "%u null_counts",
                       n_null, n_min, n_max, n_counts);
    /* an order this reader does not know promises nothing */
    if (ci->boundary_order > 2) ci->boundary_order = 0;
    ci->n_pages = (int)n_null;
    tc_leave(r);
    return true;
}

bool sqe_pq_parse_column_index(const uint8_t *buf, size_t len, sqe_arena *arena,
                               sqe_pq_column_index *out, sqe_error *err) {
    memset(out, 0, sizeof *out);
    tc_reader r;
    tc_init(&r, buf, len, arena, err);
    if (pq_column_index(&r, out)) return true;
    memset(out, 0, sizeof *out);
    return false;
}

static const char *const k_loc_fields[] = {NULL, "offset", "compressed_page_size",
                                           "first_row_index"};
static const char *const k_oi_fields[] = {NULL, "page_locations",
                                          "unencoded_byte_array_data_bytes"};

static bool pq_page_location(tc_reader *r, sqe_pq_page_location *loc) {
    if (!TC_ENTER(r, "PageLocation", k_loc_fields)) return false;
    uint32_t seen = 0;
    int id, t, rc;
    while ((rc = tc_field(r, &id, &t)) > 0) {
        bool ok;
        switch (id) {
        case 1:
            ok = tc_i64(r, t, &loc->offset, true);
            break;
        case 2:
            ok = tc_i32(r, t, &loc->compressed_page_size, true);
            break;
        case 3:
            ok = tc_i64(r, t, &loc->first_row_index, true);
            break;
        default:
            ok = tc_skip(r, t, false);
        }
        if (!ok) return false;
        SEEN(seen, id);
    }
    if (rc < 0 || !tc_required(r, seen, BIT(1) | BIT(2) | BIT(3))) return false;
    tc_leave(r);
    return true;
}

static bool pq_page_locations(tc_reader *r, int type, sqe_pq_offset_index *oi) {
    int et;
    uint32_t n;
    if (!tc_depth_in(r) ||
        !tc_list(r, type, TC_STRUCT, SQE_PQ_MAX_LIST, MIN_PAGE_LOCATION, &et, &n))
        return false;
    sqe_pq_page_location *locs = sqe_arena_alloc(r->arena, (n ? n : 1) * sizeof *locs);
    for (uint32_t i = 0; i < n; i++)
        if (!pq_page_location(r, &locs[i])) return false;
    oi->pages = locs;
    oi->n_pages = (int)n;
    r->depth--;
    return true;
}

static bool pq_offset_index(tc_reader *r, sqe_pq_offset_index *oi) {
    if (!TC_ENTER(r, "OffsetIndex", k_oi_fields)) return false;
    uint32_t seen = 0;
    int id, t, rc;
    while ((rc = tc_field(r, &id, &t)) > 0) {
        bool ok = id == 1 ? pq_page_locations(r, t, oi) : tc_skip(r, t, false);
        if (!ok) return false;
        SEEN(seen, id);
    }
    if (rc < 0 || !tc_required(r, seen, BIT(1))) return false;
    tc_leave(r);
    return true;
}

bool sqe_pq_parse_offset_index(const uint8_t *buf, size_t len, sqe_arena *arena,
                               sqe_pq_offset_index *out, sqe_error *err) {
    memset(out, 0, sizeof *out);
    tc_reader r;
    tc_init(&r, buf, len, arena, err);
    if (pq_offset_index(&r, out)) return true;
    memset(out, 0, sizeof *out);
    return false;
}
