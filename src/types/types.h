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
 *   INTERVAL DAY TO SECOND  int64_t milliseconds (Trino's representation)
 *   INTERVAL YEAR TO MONTH  int64_t months, kept within int32 (Trino's range)
 *   TIME      int64_t microseconds since midnight (precision like TIMESTAMP's)
 *   TIMESTAMP WITH TIME ZONE  int64_t UTC milliseconds * 4096 + zone key (Trino's packing)
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
    SQE_T_INTERVAL_DS,  /* INTERVAL DAY TO SECOND: int64 milliseconds (as Trino) */
    SQE_T_INTERVAL_YM,  /* INTERVAL YEAR TO MONTH: int64 months (Trino: int32; range checked) */
    SQE_T_TIME,         /* TIME(p): int64 microseconds since midnight, 0 <= v < 86400e6 */
    SQE_T_TIMESTAMP_TZ, /* TIMESTAMP(3) WITH TIME ZONE: int64 utc_millis * 4096 + zone key */
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
/* sqe_type_parse plus the types only queries have (CAST targets, typed
 * literals): INTERVAL DAY TO SECOND, INTERVAL YEAR TO MONTH, TIME[(p)],
 * TIMESTAMP[(p)] WITH TIME ZONE. DDL and manifests use sqe_type_parse. */
bool sqe_type_parse_sql(const char *name, sqe_type *out, sqe_error *err);

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
/* The same in session time zone `zone` (a types/tz.c key): TIMESTAMP, DATE
 * and zone-less text become TIMESTAMP WITH TIME ZONE as wall times there
 * (sqe_value_cast is this with UTC, key 0). Other conversions ignore it. */
bool sqe_value_cast_zone(const sqe_value *in, sqe_type to, bool try_, uint16_t zone,
                         sqe_arena *arena, sqe_value *out, sqe_error *err);

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

/* TIMESTAMP(p): `precision` holds p + 1 for an explicit timestamp(p), p in
 * 0..12 (literals get p from the digits written, CAST(x AS timestamp(p))
 * from the type); 0 means plain TIMESTAMP (table columns, casts to
 * `timestamp`): microseconds printed with 3 or 6 digits as before. Values
 * are microseconds in every case, so p 7..12 hold microseconds (digits past
 * the sixth are rounded away and print as zeros). */
#define SQE_TIMESTAMP_MAX_PRECISION 12
static inline sqe_type sqe_type_timestamp(int p) {
    sqe_type t = {SQE_T_TIMESTAMP, (uint8_t)(p + 1), 0, 0, 0};
    return t;
}
/* p of an explicit timestamp(p), or -1 for plain TIMESTAMP. */
static inline int sqe_timestamp_precision(sqe_type t) {
    return t.id == SQE_T_TIMESTAMP ? (int)t.precision - 1 : -1;
}
/* Rounds micros half up (toward +infinity, as Trino) to p fractional
 * digits; p < 0 or p >= 6 leaves the value alone. False on overflow. */
bool sqe_timestamp_round(int64_t micros, int p, int64_t *out);
/* Text with exactly p fractional digits (none for p = 0); p < 0 is the
 * plain TIMESTAMP form of sqe_timestamp_format. */
size_t sqe_timestamp_format_p(int64_t micros, int p, char *buf, size_t buf_len);

/* TIME(p): `precision` holds p + 1 (0..12); 0 (plain TIME) means time(3),
 * Trino's default. Values are microseconds of the day, rounded to p. */
static inline sqe_type sqe_type_time(int p) {
    sqe_type t = {SQE_T_TIME, (uint8_t)(p + 1), 0, 0, 0};
    return t;
}
static inline int sqe_time_precision(sqe_type t) {
    return t.precision ? (int)t.precision - 1 : 3;
}
/* "HH:MM[:SS[.f...]]" -> microseconds of the day (digits past 6 truncated;
 * *digits gets the number of fractional digits written). */
bool sqe_parse_time(const char *p, size_t n, int64_t *micros, int *digits);
/* "HH:MM:SS[.p digits]" */
size_t sqe_time_format(int64_t micros, int p, char *buf, size_t buf_len);

/* ---------------------------------------------------------- time zones */

/* Zone keys (types/tz.c): 0 is UTC, 1..2047 IANA zones read from the
 * system tzdata on first use (process-wide, immutable once loaded),
 * 2048 + 840 + minutes fixed offsets. Unknown names are INVALID_ARGUMENT
 * "Time zone not supported: X". */
bool sqe_tz_key(const char *name, size_t n, uint16_t *key, sqe_error *err);
const char *sqe_tz_key_name(uint16_t key, char *buf, size_t len);
/* Seconds east of UTC in force at the UTC instant. */
int32_t sqe_tz_offset(uint16_t key, int64_t utc_seconds);
/* The UTC instant of a local wall time: gaps move forward, overlaps take
 * the earlier instant (Joda-Time). */
int64_t sqe_tz_local_to_utc(uint16_t key, int64_t local_seconds);

/* TIMESTAMP(3) WITH TIME ZONE values: the instant in UTC milliseconds and
 * the zone key, packed as Trino packs them (|millis| < 2^51). */
#define SQE_TSTZ_MAX_MILLIS ((int64_t)1 << 50)
static inline int64_t sqe_tstz_pack(int64_t utc_millis, uint16_t key) {
    return utc_millis * 4096 + (key & 4095);
}
static inline uint16_t sqe_tstz_key(int64_t v) {
    return (uint16_t)(v & 4095);
}
static inline int64_t sqe_tstz_millis(int64_t v) {
    return (v - (v & 4095)) / 4096;
}
/* The local wall time of a value in its zone, as TIMESTAMP microseconds. */
int64_t sqe_tstz_local_micros(int64_t v);
/* The value for a local wall time (microseconds) in zone `key`; false when
 * out of range. Sub-millisecond digits are rounded half up. */
bool sqe_tstz_from_local(int64_t local_micros, uint16_t key, int64_t *out);
/* "2020-05-11 11:15:05.055 America/New_York" */
size_t sqe_tstz_format(int64_t v, char *buf, size_t buf_len);

/* ---------------------------------------------------------- intervals */

/* Whether t is INTERVAL DAY TO SECOND or INTERVAL YEAR TO MONTH. */
bool sqe_type_is_interval(sqe_type t);
/* Parses the text of an INTERVAL literal ("2", "1-2", "3 04:05:06.789",
 * optionally signed) for `unit` as the parser spells it ("day", "year to
 * month", "day to second", ...); `negate` applies the sign written before
 * the string. Sets *out to an INTERVAL_DS (millis) or INTERVAL_YM (months)
 * value. Errors (INVALID_ARGUMENT) name the text and the unit. */
bool sqe_interval_parse(const char *text, const char *unit, bool negate, sqe_value *out,
                        sqe_error *err);
/* Trino's text: "2 03:04:05.678" / "-0 00:00:01.000" for day to second,
 * "1-2" / "-1-2" for year to month. Returns the length written. */
size_t sqe_interval_format(sqe_type_id id, int64_t v, char *buf, size_t buf_len);

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
