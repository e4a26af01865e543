/*
 * parquet.h - internal to format/: the Parquet file model and its decoders.
 *
 * Three parts, each in its own file:
 *
 *   parquet_meta.c      the thrift compact protocol and the structures it
 *                       decodes: FileMetaData (footer), PageHeader,
 *                       ColumnIndex/OffsetIndex (page index). Every length
 *                       and count read from a file is checked against the
 *                       bytes that remain and against the SQE_PQ_MAX_*
 *                       limits below before anything is allocated, and
 *                       nesting depth is bounded, so a hostile footer costs
 *                       at most a bounded amount of memory and time.
 *   parquet_encoding.c  value encodings (PLAIN, RLE/bit-packed hybrid,
 *                       DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY,
 *                       DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT), pure functions
 *                       over byte buffers.
 *   parquet_reader.c    the sqe_reader: footer -> schema binding by name ->
 *                       row-group pruning -> column chunks -> pages
 *                       (decompress via codec.h, levels, dictionary, values)
 *                       -> conversion into the declared types' vectors.
 *
 * All structures decoded from a footer live in the arena passed to the
 * parser; strings and statistics bytes are copied into it (they never point
 * into the caller's buffer), so the footer buffer may be freed after parsing.
 *
 * Errors: the parsers and decoders return INVALID_DATA with a message that
 * says what is wrong ("thrift: list of 4000000000 elements exceeds the
 * limit", "DELTA_BINARY_PACKED: miniblock bit width 65"); the reader
 * prefixes "Parquet file 'F'" and, when known, the column and page offset.
 */
#ifndef SQE_FORMAT_PARQUET_H
#define SQE_FORMAT_PARQUET_H

#include "base/base.h"

/* Hard limits on what a file may declare. */
#define SQE_PQ_MAX_FOOTER (64u << 20)      /* footer (FileMetaData) bytes */
#define SQE_PQ_MAX_SCHEMA 100000           /* schema elements */
#define SQE_PQ_MAX_ROW_GROUPS 1000000      /* row groups */
#define SQE_PQ_MAX_LIST 10000000           /* elements of any other thrift list */
#define SQE_PQ_MAX_STRING (16u << 20)      /* one thrift string/binary */
#define SQE_PQ_MAX_DEPTH 64                /* thrift struct nesting */
#define SQE_PQ_MAX_PAGE (1u << 30)         /* compressed or uncompressed page bytes */
#define SQE_PQ_MAX_PAGE_HEADER (16u << 20) /* one page header */

/* parquet.thrift enums, same numbers as the format. */
typedef enum sqe_pq_physical {
    SQE_PQ_BOOLEAN = 0,
    SQE_PQ_INT32 = 1,
    SQE_PQ_INT64 = 2,
    SQE_PQ_INT96 = 3,
    SQE_PQ_FLOAT = 4,
    SQE_PQ_DOUBLE = 5,
    SQE_PQ_BYTE_ARRAY = 6,
    SQE_PQ_FIXED_LEN_BYTE_ARRAY = 7,
} sqe_pq_physical;

typedef enum sqe_pq_repetition {
    SQE_PQ_REQUIRED = 0,
    SQE_PQ_OPTIONAL = 1,
    SQE_PQ_REPEATED = 2,
} sqe_pq_repetition;

/* ConvertedType (legacy annotations); -1 when absent. */
typedef enum sqe_pq_converted {
    SQE_PQ_CT_NONE = -1,
    SQE_PQ_CT_UTF8 = 0,
    SQE_PQ_CT_MAP = 1,
    SQE_PQ_CT_MAP_KEY_VALUE = 2,
    SQE_PQ_CT_LIST = 3,
    SQE_PQ_CT_ENUM = 4,
    SQE_PQ_CT_DECIMAL = 5,
    SQE_PQ_CT_DATE = 6,
    SQE_PQ_CT_TIME_MILLIS = 7,
    SQE_PQ_CT_TIME_MICROS = 8,
    SQE_PQ_CT_TIMESTAMP_MILLIS = 9,
    SQE_PQ_CT_TIMESTAMP_MICROS = 10,
    SQE_PQ_CT_UINT_8 = 11,
    SQE_PQ_CT_UINT_16 = 12,
    SQE_PQ_CT_UINT_32 = 13,
    SQE_PQ_CT_UINT_64 = 14,
    SQE_PQ_CT_INT_8 = 15,
    SQE_PQ_CT_INT_16 = 16,
    SQE_PQ_CT_INT_32 = 17,
    SQE_PQ_CT_INT_64 = 18,
    SQE_PQ_CT_JSON = 19,
    SQE_PQ_CT_BSON = 20,
    SQE_PQ_CT_INTERVAL = 21,
} sqe_pq_converted;

/* LogicalType union member (field id in the thrift union); NONE when absent. */
typedef enum sqe_pq_logical_kind {
    SQE_PQ_LT_NONE = 0,
    SQE_PQ_LT_STRING = 1,
    SQE_PQ_LT_MAP = 2,
    SQE_PQ_LT_LIST = 3,
    SQE_PQ_LT_ENUM = 4,
    SQE_PQ_LT_DECIMAL = 5,
    SQE_PQ_LT_DATE = 6,
    SQE_PQ_LT_TIME = 7,
    SQE_PQ_LT_TIMESTAMP = 8,
    SQE_PQ_LT_INTEGER = 10,
    SQE_PQ_LT_UNKNOWN = 11, /* always-null */
    SQE_PQ_LT_JSON = 12,
    SQE_PQ_LT_BSON = 13,
    SQE_PQ_LT_UUID = 14,
    SQE_PQ_LT_FLOAT16 = 15,
    SQE_PQ_LT_VARIANT = 16,
    SQE_PQ_LT_GEOMETRY = 17,
    SQE_PQ_LT_GEOGRAPHY = 18,
    SQE_PQ_LT_OTHER = 99, /* a union member this reader does not know */
} sqe_pq_logical_kind;

typedef enum sqe_pq_time_unit {
    SQE_PQ_MILLIS = 0,
    SQE_PQ_MICROS = 1,
    SQE_PQ_NANOS = 2,
} sqe_pq_time_unit;

typedef struct sqe_pq_logical {
    sqe_pq_logical_kind kind;
    int32_t scale, precision; /* DECIMAL */
    bool utc_adjusted;        /* TIME, TIMESTAMP (isAdjustedToUTC) */
    sqe_pq_time_unit unit;    /* TIME, TIMESTAMP */
    int8_t bit_width;         /* INTEGER: 8, 16, 32, 64 */
    bool is_signed;           /* INTEGER */
} sqe_pq_logical;

typedef enum sqe_pq_encoding {
    SQE_PQ_PLAIN = 0,
    SQE_PQ_PLAIN_DICTIONARY = 2,
    SQE_PQ_RLE = 3,
    SQE_PQ_BIT_PACKED = 4, /* deprecated; levels only */
    SQE_PQ_DELTA_BINARY_PACKED = 5,
    SQE_PQ_DELTA_LENGTH_BYTE_ARRAY = 6,
    SQE_PQ_DELTA_BYTE_ARRAY = 7,
    SQE_PQ_RLE_DICTIONARY = 8,
    SQE_PQ_BYTE_STREAM_SPLIT = 9,
} sqe_pq_encoding;

/* CompressionCodec numbers as in the file. */
typedef enum sqe_pq_codec {
    SQE_PQ_UNCOMPRESSED = 0,
    SQE_PQ_SNAPPY = 1,
    SQE_PQ_GZIP = 2,
    SQE_PQ_LZO = 3,
    SQE_PQ_BROTLI = 4,
    SQE_PQ_LZ4 = 5, /* legacy: Hadoop framing (or raw, as some writers did) */
    SQE_PQ_ZSTD = 6,
    SQE_PQ_LZ4_RAW = 7,
} sqe_pq_codec;

typedef enum sqe_pq_page_type {
    SQE_PQ_DATA_PAGE = 0,
    SQE_PQ_INDEX_PAGE = 1,
    SQE_PQ_DICTIONARY_PAGE = 2,
    SQE_PQ_DATA_PAGE_V2 = 3,
} sqe_pq_page_type;

/* One SchemaElement, in the file's depth-first order (element 0 is the root). */
typedef struct sqe_pq_schema_elem {
    const char *name;         /* as in the file (arena copy, NUL-terminated) */
    int physical;             /* sqe_pq_physical, or -1 for a group */
    int32_t type_length;      /* FIXED_LEN_BYTE_ARRAY width; 0 when absent */
    int repetition;           /* sqe_pq_repetition, or -1 when absent (root) */
    int32_t num_children;     /* > 0 for groups */
    int converted;            /* sqe_pq_converted */
    int32_t scale, precision; /* from the element (legacy DECIMAL) */
    int32_t field_id;         /* -1 when absent */
    sqe_pq_logical logical;   /* kind NONE when absent */
} sqe_pq_schema_elem;

/* Statistics of a column chunk or page. min/max are the plain-encoded bytes
 * (little-endian for numbers, raw bytes for BYTE_ARRAY/FLBA). min_value /
 * max_value (sort-order-correct) are preferred; the deprecated min / max
 * fields are reported with `legacy` set (valid only for signed numeric
 * sort orders, the reader decides). */
typedef struct sqe_pq_stats {
    bool has_min, has_max, has_null_count, has_distinct_count;
    bool legacy; /* min/max came from the deprecated fields 1/2 */
    const uint8_t *min, *max;
    uint32_t min_len, max_len;
    int64_t null_count, distinct_count;
    /* nan_count (FLOAT/DOUBLE/FLOAT16): without it NaNs may be present
     * whatever min/max say */
    bool has_nan_count;
    int64_t nan_count;
} sqe_pq_stats;

typedef struct sqe_pq_column_chunk {
    const char *file_path; /* non-NULL: data in another file (not supported) */
    int64_t file_offset;
    /* ColumnMetaData (meta_data); has_meta false when absent (encrypted) */
    bool has_meta;
    int physical;
    int n_encodings;
    const int *encodings;
    int n_path;
    const char *const *path; /* path_in_schema */
    int codec;               /* sqe_pq_codec */
    int64_t num_values;
    int64_t total_uncompressed_size, total_compressed_size;
    int64_t data_page_offset;
    int64_t index_page_offset;      /* -1 when absent */
    int64_t dictionary_page_offset; /* -1 when absent */
    sqe_pq_stats stats;
    /* page index locations; offset -1 when absent */
    int64_t offset_index_offset, column_index_offset;
    int32_t offset_index_length, column_index_length;
    bool encrypted; /* crypto_metadata or encrypted_column_metadata present */
} sqe_pq_column_chunk;

typedef struct sqe_pq_row_group {
    int n_columns;
    sqe_pq_column_chunk *columns; /* in schema leaf order */
    int64_t num_rows;
    int64_t total_byte_size;
    int64_t file_offset;           /* -1 when absent */
    int64_t total_compressed_size; /* -1 when absent */
} sqe_pq_row_group;

typedef struct sqe_pq_file_meta {
    int32_t version;
    int n_schema;
    sqe_pq_schema_elem *schema;
    int64_t num_rows;
    int n_row_groups;
    sqe_pq_row_group *row_groups;
    const char *created_by;        /* NULL when absent */
    bool has_encryption_algorithm; /* plaintext footer of an encrypted file */
    /* column_orders, one per leaf in schema order, as the ColumnOrder union
     * member: SQE_PQ_ORDER_TYPE_DEFINED, _IEEE754_TOTAL, _INT96_TIMESTAMP,
     * or SQE_PQ_ORDER_UNKNOWN for one this reader does not know (its
     * min_value/max_value must then be ignored). n_column_orders is 0 when
     * the footer has none: min_value/max_value then have no defined order. */
    int n_column_orders;
    const int *column_orders;
} sqe_pq_file_meta;

enum {
    SQE_PQ_ORDER_UNKNOWN = 0,
    SQE_PQ_ORDER_TYPE_DEFINED = 1,
    SQE_PQ_ORDER_IEEE754_TOTAL = 2,
    SQE_PQ_ORDER_INT96_TIMESTAMP = 3,
};

/* Decodes FileMetaData from buf[0, len) (the footer without the 8-byte
 * length+magic tail). Everything is allocated in `arena`. */
bool sqe_pq_parse_file_meta(const uint8_t *buf, size_t len, sqe_arena *arena, sqe_pq_file_meta *out,
                            sqe_error *err);

typedef struct sqe_pq_page_header {
    int type; /* sqe_pq_page_type */
    int32_t uncompressed_size, compressed_size;
    bool has_crc;
    int32_t crc;
    /* DATA_PAGE (v1) */
    int32_t num_values;
    int encoding, def_encoding, rep_encoding;
    /* DICTIONARY_PAGE */
    int32_t dict_num_values;
    int dict_encoding;
    /* DATA_PAGE_V2 (num_values and encoding above are shared) */
    int32_t num_nulls, num_rows;
    int32_t def_levels_len, rep_levels_len; /* byte lengths, never compressed */
    bool v2_is_compressed;                  /* default true */
    /* page statistics (v1 and v2), for page pruning; strings are not
     * retained: min/max point into the caller's buffer and are valid only
     * while it is */
    sqe_pq_stats stats;
} sqe_pq_page_header;

/* Decodes one PageHeader at the start of buf[0, len). *hdr_len gets its
 * byte length. When the buffer ends before the header does, returns false
 * with *need_more set (and err untouched) so the caller can fetch more
 * bytes and retry; a header longer than SQE_PQ_MAX_PAGE_HEADER or with
 * negative/oversized sizes is INVALID_DATA. */
bool sqe_pq_parse_page_header(const uint8_t *buf, size_t len, sqe_pq_page_header *out,
                              size_t *hdr_len, bool *need_more, sqe_error *err);

/* Page index (optional in files). */
typedef struct sqe_pq_column_index {
    int n_pages;
    const bool *null_pages;
    const uint8_t *const *min; /* per page, plain-encoded bytes */
    const uint32_t *min_len;
    const uint8_t *const *max;
    const uint32_t *max_len;
    int boundary_order;         /* 0 unordered, 1 ascending, 2 descending */
    const int64_t *null_counts; /* NULL when absent */
} sqe_pq_column_index;

typedef struct sqe_pq_page_location {
    int64_t offset;
    int32_t compressed_page_size;
    int64_t first_row_index;
} sqe_pq_page_location;

typedef struct sqe_pq_offset_index {
    int n_pages;
    const sqe_pq_page_location *pages;
} sqe_pq_offset_index;

bool sqe_pq_parse_column_index(const uint8_t *buf, size_t len, sqe_arena *arena,
                               sqe_pq_column_index *out, sqe_error *err);
bool sqe_pq_parse_offset_index(const uint8_t *buf, size_t len, sqe_arena *arena,
                               sqe_pq_offset_index *out, sqe_error *err);

/* ------------------------------------------------------------ encodings */

/* A BYTE_ARRAY value: bytes in the page buffer or in a scratch arena. */
typedef struct sqe_pq_bytes {
    const uint8_t *ptr;
    uint32_t len;
} sqe_pq_bytes;

/* RLE / bit-packed hybrid (levels, dictionary indexes, RLE booleans). */
typedef struct sqe_pq_rle {
    const uint8_t *p, *end;
    int bit_width;     /* 0..32 */
    uint32_t rle_left; /* values left in the current RLE run */
    uint32_t rle_value;
    uint32_t packed_left; /* values left in the current bit-packed run */
    uint32_t packed_pos;  /* bit offset of the next packed value within p */
} sqe_pq_rle;

/* Starts decoding [p, p+len) with values of bit_width bits (no length
 * prefix: the caller strips the 4-byte length of v1 levels or the 1-byte bit
 * width of dictionary indexes). */
bool sqe_pq_rle_init(sqe_pq_rle *d, const uint8_t *p, size_t len, int bit_width, sqe_error *err);
/* Decodes exactly n values into out; INVALID_DATA when the data ends first
 * or a run header is malformed. */
bool sqe_pq_rle_get(sqe_pq_rle *d, uint32_t *out, uint32_t n, sqe_error *err);

/* Bytes per value of a fixed-width physical type as decoded by
 * sqe_pq_decode_values: BOOLEAN 1 (0/1 per byte), INT32/FLOAT 4,
 * INT64/DOUBLE 8, INT96 12, FIXED_LEN_BYTE_ARRAY type_length; 0 for
 * BYTE_ARRAY. */
size_t sqe_pq_value_width(int physical, int32_t type_length);

/* Decodes n non-null values encoded with `encoding` (PLAIN, RLE for
 * BOOLEAN with its 4-byte length prefix, DELTA_BINARY_PACKED for
 * INT32/INT64, DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY for
 * BYTE_ARRAY/FLBA, BYTE_STREAM_SPLIT for FLOAT/DOUBLE/INT32/INT64/FLBA)
 * from [p, p+len):
 *   fixed-width types -> out_fixed, n * sqe_pq_value_width bytes, little-endian;
 *   BYTE_ARRAY         -> out_bytes[n], pointing into [p, p+len) or, for
 *                         DELTA_BYTE_ARRAY, into memory from `scratch`.
 *   (FLBA with DELTA_LENGTH_BYTE_ARRAY or DELTA_BYTE_ARRAY also goes to
 *   out_bytes, each value checked to be type_length bytes.)
 * Dictionary encodings are not values encodings: the reader decodes
 * indexes with sqe_pq_rle after the bit-width byte. NOT_SUPPORTED for an
 * encoding this function does not implement for the type (naming both). */
bool sqe_pq_decode_values(int physical, int32_t type_length, int encoding, const uint8_t *p,
                          size_t len, uint32_t n, void *out_fixed, sqe_pq_bytes *out_bytes,
                          sqe_arena *scratch, sqe_error *err);

/* "PLAIN", "RLE_DICTIONARY", ... ("encoding 42" style for unknown numbers). */
const char *sqe_pq_encoding_name(int encoding, char *buf, size_t buf_len);

#endif
