/*
 * types.h - layer 1: logical SQL types, scalar values, casts, and the
 * date/time/decimal arithmetic every upper layer shares.
 *
 * Physical representation (in vectors and in sqe_value):
 *   BOOLEAN   uint8_t (0/1)          TINYINT  int8_t     SMALLINT int16_t
 *   INTEGER   int32_t                BIGINT   int64_t    REAL     float
 *   DOUBLE    double                 DECIMAL  sqe_i128 (unscaled; any p <= 38)
 *   VARCHAR   sqe_string (16-byte view, see vector.h)    VARBINARY likewise
 *   DATE      int32_t days since 1970-01-01
 *   TIMESTAMP int64_t microseconds since 1970-01-01 00:00:00 (no time zone)
 *   NULL      the type of an untyped NULL literal; coerces to anything.
 *
 * VARCHAR keeps the Hive spelling it was declared with (STRING, VARCHAR(n),
 * CHAR(n)) in `hive_kind`/`length`, so DDL round-trips; all three read as
 * VARCHAR in queries.
 */
#ifndef SQE_TYPES_H
#define SQE_TYPES_H

#include "base/base.h"

typedef __int128 sqe_i128;

typedef enum sqe_type_id {
    SQE_T_NULL = 0,
    SQE_T_BOOLEAN,
    SQE_T_TINYINT,
    SQE_T_SMALLINT,
    SQE_T_INTEGER,
    SQE_T_BIGINT,
    SQE_T_REAL,
    SQE_T_DOUBLE,
    SQE_T_DECIMAL,
    SQE_T_VARCHAR,
    SQE_T_VARBINARY,
    SQE_T_DATE,
    SQE_T_TIMESTAMP,
    SQE_T__COUNT
} sqe_type_id;

typedef enum sqe_string_kind {
    SQE_STRKIND_STRING = 0, /* STRING / unbounded VARCHAR */
    SQE_STRKIND_VARCHAR,    /* VARCHAR(n) */
    SQE_STRKIND_CHAR,       /* CHAR(n) */
} sqe_string_kind;

typedef struct sqe_type {
    uint8_t id;        /* sqe_type_id */
    uint8_t precision; /* DECIMAL: 1..38 */
    uint8_t scale;     /* DECIMAL: 0..precision */
    uint8_t str_kind;  /* VARCHAR: sqe_string_kind */
    uint32_t length;   /* VARCHAR(n)/CHAR(n): n; else 0 */
} sqe_type;

#define SQE_DECIMAL_MAX_PRECISION 38

static inline sqe_type sqe_type_make(sqe_type_id id) {
    sqe_type t = {(uint8_t)id, 0, 0, 0, 0};
    return t;
}
static inline sqe_type sqe_type_decimal(int precision, int scale) {
    sqe_type t = {SQE_T_DECIMAL, (uint8_t)precision, (uint8_t)scale, 0, 0};
    return t;
}
bool sqe_type_equal(sqe_type a, sqe_type b);
bool sqe_type_is_integer(sqe_type t); /* TINYINT..BIGINT */
bool sqe_type_is_numeric(sqe_type t); /* integers, REAL, DOUBLE, DECIMAL */
bool sqe_type_is_string(sqe_type t);  /* VARCHAR */
/* Size in bytes of one value in a vector's data array. */
size_t sqe_type_width(sqe_type t);

/* Trino-style name for result headers and DESCRIBE: "integer", "varchar",
 * "decimal(10,2)", "varchar(10)", "timestamp(6)"... Writes into buf. */
const char *sqe_type_sql_name(sqe_type t, char *buf, size_t buf_len);
/* Hive DDL spelling: "int", "string", "varchar(10)", "decimal(10,2)" ... */
const char *sqe_type_hive_name(sqe_type t, char *buf, size_t buf_len);
/* Parses a type name as written in DDL or CAST (case-insensitive): BOOLEAN,
 * TINYINT, SMALLINT, INT, INTEGER, BIGINT, FLOAT, REAL, DOUBLE [PRECISION],
 * DECIMAL[(p[,s])] (default (10,0) as Hive), NUMERIC, STRING, VARCHAR[(n)],
 * CHAR(n), DATE, TIMESTAMP, BINARY, VARBINARY. Errors name the type. */
bool sqe_type_parse(const char *name, sqe_type *out, sqe_error *err);

/* Common supertype for comparison/UNION/CASE/COALESCE (implicit widening:
 * integers widen up, integer+decimal -> decimal, anything numeric + REAL/DOUBLE
 * -> DOUBLE, NULL + T -> T, VARCHAR(n)+VARCHAR(m) -> VARCHAR, CHAR(n) with CHAR(m)
 * or VARCHAR(m) -> CHAR(max(n, m)), CHAR with unbounded VARCHAR -> VARCHAR).
 * false when none. */
bool sqe_type_common(sqe_type a, sqe_type b, sqe_type *out);
/* The type two values are compared in (=, <, IN, join keys, DISTINCT FROM):
 * sqe_type_common, except that a CHAR(n) with any string is CHAR (PAD SPACE
 * comparison), also with an unbounded VARCHAR, whose common type for values
 * is VARCHAR. */
bool sqe_type_compare_common(sqe_type a, sqe_type b, sqe_type *out);
/* Whether `from` converts implicitly to `to` (numeric widening, NULL to any,
 * VARCHAR kinds among themselves). */
bool sqe_type_implicit_ok(sqe_type from, sqe_type to);

/* ------------------------------------------------------------ strings */

/* A 16-byte string view: len, 4-byte prefix, then either the rest inline
 * (len <= 12: all bytes inline starting at prefix) or a pointer to the bytes
 * in memory owned by the vector/batch/arena that holds the view. */
#define SQE_STRING_INLINE 12
typedef struct sqe_string {
    uint32_t len;
    char prefix[4];
    union {
        char inlined[8];
        const char *ptr;
    } u;
} sqe_string;

static inline const char *sqe_string_data(const sqe_string *s) {
    return s->len <= SQE_STRING_INLINE ? s->prefix : s->u.ptr;
}
/* Builds a view over bytes that outlive it (no copy for long strings). */
sqe_string sqe_string_ref(const char *p, uint32_t len);
bool sqe_string_eq(const sqe_string *a, const sqe_string *b);
int sqe_string_cmp(const sqe_string *a, const sqe_string *b); /* bytewise, like Trino */
uint64_t sqe_string_hash(const sqe_string *s);

/* ------------------------------------------------------------ scalars */

/* One scalar value (literals, partition values, constant folding). Strings
 * point into memory owned by whoever built the value (an arena). */
typedef struct sqe_value {
    sqe_type type;
    bool is_null;
    union {
        bool b;
        int64_t i; /* TINYINT..BIGINT, DATE (days), TIMESTAMP (micros) */
        float f;
        double d;
        sqe_i128 dec; /* unscaled */
        struct {
            const char *ptr;
            uint32_t len;
        } s;
    } v;
} sqe_value;

sqe_value sqe_value_null(sqe_type t);
sqe_value sqe_value_bool(bool b);
sqe_value sqe_value_int(sqe_type_id id, int64_t i); /* integers, DATE, TIMESTAMP */
sqe_value sqe_value_double(double d);
sqe_value sqe_value_decimal(sqe_i128 unscaled, int precision, int scale);
sqe_value sqe_value_string(const char *p, uint32_t len); /* VARCHAR */
/* Three-way compare of two non-null values of the same type id. */
int sqe_value_cmp(const sqe_value *a, const sqe_value *b);
/* Renders the value as text the way the CLI prints it (Trino style): NULL
 * -> "NULL", booleans true/false, DOUBLE shortest round-trip form ("1.5",
 * "1.0E10" for large), DECIMAL with exactly `scale` digits, DATE
 * YYYY-MM-DD, TIMESTAMP YYYY-MM-DD HH:MM:SS[.ffffff trimmed to ms if
 * possible]. Appends to sb. */
void sqe_value_format(const sqe_value *v, sqe_strbuf *sb);

/* ---------------------------------------------------------- casts */

/* Casts a single value to `to`, with SQL semantics (Trino):
 *  - numeric narrowing that overflows -> OUT_OF_RANGE error naming the value
 *  - DOUBLE/REAL/DECIMAL -> integer rounds half away from zero
 *  - VARCHAR -> number/date/timestamp/boolean parses with surrounding spaces
 *    trimmed; failure -> INVALID_DATA "cannot cast 'abc' to integer"
 *  - anything -> VARCHAR formats as sqe_value_format (strings allocated in arena)
 *  - VARCHAR -> VARCHAR(n) truncation is not checked (Hive semantics: truncate)
 * With `try_` set, a failed conversion yields NULL instead of an error.
 * Returns false only on error (never when try_ is set, except INTERNAL). */
bool sqe_value_cast(const sqe_value *in, sqe_type to, bool try_, sqe_arena *arena, sqe_value *out,
                    sqe_error *err);

/* Text parsing used by casts and by the text reader. Each returns false when
 * the text is not a valid literal of the type (no err: the caller names the
 * file/line/column). Leading/trailing ASCII spaces are not accepted here;
 * callers trim when SQL semantics ask for it. */
bool sqe_parse_bool(const char *p, size_t n, bool *out);     /* true/false (any case), 1/0? no */
bool sqe_parse_int64(const char *p, size_t n, int64_t *out); /* [+-]digits, overflow -> false */
bool sqe_parse_double(const char *p, size_t n, double *out); /* incl. NaN, Infinity, -Infinity */
/* Decimal text "123", "-1.50", "1e3" -> unscaled at `scale`, rounding half
 * up away from zero on extra digits; false if it does not fit precision. */
bool sqe_parse_decimal(const char *p, size_t n, int precision, int scale, sqe_i128 *out);
bool sqe_parse_date(const char *p, size_t n,
                    int32_t *days); /* YYYY-MM-DD (1-4 digit month/day ok: 2024-1-5) */
/* "YYYY-MM-DD[ |T]HH:MM[:SS[.fffffffff]]" or just a date; fractional
 * digits beyond 6 are truncated. */
bool sqe_parse_timestamp(const char *p, size_t n, int64_t *micros);

/* ---------------------------------------------------------- date/time */

int32_t sqe_date_from_ymd(int y, int m, int d);
void sqe_date_to_ymd(int32_t days, int *y, int *m, int *d);
bool sqe_ymd_valid(int y, int m, int d);
/* Writes "YYYY-MM-DD" (years outside 0..9999 get a sign/extra digits). */
size_t sqe_date_format(int32_t days, char *buf, size_t buf_len);
size_t sqe_timestamp_format(int64_t micros, char *buf, size_t buf_len);

/* ---------------------------------------------------------- decimal */

extern const sqe_i128 sqe_pow10_i128[39];
/* Formats an unscaled decimal with `scale` fractional digits. */
size_t sqe_decimal_format(sqe_i128 unscaled, int scale, char *buf, size_t buf_len);
/* Rescales (multiplying or dividing with round half away from zero);
 * false on overflow of 38 digits. */
bool sqe_decimal_rescale(sqe_i128 v, int from_scale, int to_scale, sqe_i128 *out);
/* true if |v| < 10^precision */
bool sqe_decimal_fits(sqe_i128 v, int precision);
double sqe_decimal_to_double(sqe_i128 v, int scale);

/* ------------------------------------------- additions (types module) */

/* Whether an explicit CAST/TRY_CAST from `from` to `to` exists at all (the
 * binder rejects the others even under TRY_CAST, as Trino does): NULL to
 * anything, same type id, anything to/from VARCHAR, VARCHAR/VARBINARY to
 * VARBINARY, among BOOLEAN and the numeric types, DATE <-> TIMESTAMP. */
bool sqe_type_can_cast(sqe_type from, sqe_type to);

#endif
