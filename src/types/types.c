/*
 * types.c - logical SQL types: predicates, widths, the two spellings of a
 * type name (Trino for result headers and DESCRIBE, Hive for DDL), parsing a
 * type name out of DDL or CAST text, and the implicit-coercion lattice the
 * binder uses for comparisons, UNION, CASE and COALESCE.
 *
 * Where it sits: the binder (plan/) calls sqe_type_parse for CAST targets and
 * sqe_type_common/sqe_type_implicit_ok while typing expressions; hive/ calls
 * sqe_type_parse for column types in DDL and sqe_type_hive_name to write them
 * back; the CLI and pgwire print sqe_type_sql_name.
 *
 * Invariants: a DECIMAL always has 1 <= precision <= 38 and scale <=
 * precision; a VARCHAR has str_kind STRING with length 0, or VARCHAR/CHAR
 * with length >= 1. Every other type has all parameters zero.
 */
#include "types/types.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* --------------------------------------------------------- predicates */

bool sqe_type_equal(sqe_type a, sqe_type b) {
    if (a.id != b.id) return false;
    switch (a.id) {
    case SQE_T_DECIMAL:
        return a.precision == b.precision && a.scale == b.scale;
    case SQE_T_VARCHAR:
        return a.str_kind == b.str_kind && a.length == b.length;
    case SQE_T_TIMESTAMP:
        return a.precision == b.precision;
    case SQE_T_TIME:
        return sqe_time_precision(a) == sqe_time_precision(b);
    default:
        return true;
    }
}

bool sqe_type_is_integer(sqe_type t) {
    return t.id >= SQE_T_TINYINT && t.id <= SQE_T_BIGINT;
}

bool sqe_type_is_numeric(sqe_type t) {
    return t.id >= SQE_T_TINYINT && t.id <= SQE_T_DECIMAL;
}

bool sqe_type_is_string(sqe_type t) {
    return t.id == SQE_T_VARCHAR;
}

size_t sqe_type_width(sqe_type t) {
    switch (t.id) {
    case SQE_T_BOOLEAN:
    case SQE_T_TINYINT:
        return 1;
    case SQE_T_SMALLINT:
        return 2;
    case SQE_T_INTEGER:
    case SQE_T_REAL:
    case SQE_T_DATE:
        return 4;
    case SQE_T_BIGINT:
    case SQE_T_DOUBLE:
    case SQE_T_TIMESTAMP:
    case SQE_T_INTERVAL_DS:
    case SQE_T_INTERVAL_YM:
    case SQE_T_TIME:
    case SQE_T_TIMESTAMP_TZ:
        return 8;
    case SQE_T_DECIMAL:
        return sizeof(sqe_i128);
    case SQE_T_VARCHAR:
    case SQE_T_VARBINARY:
        return sizeof(sqe_string);
    default:
        return 1; /* NULL: a placeholder byte per row, every row is NULL */
    }
}

/* -------------------------------------------------------------- names */

static const char *plain_sql_name(sqe_type_id id) {
    switch (id) {
    case SQE_T_BOOLEAN:
        return "boolean";
    case SQE_T_TINYINT:
        return "tinyint";
    case SQE_T_SMALLINT:
        return "smallint";
    case SQE_T_INTEGER:
        return "integer";
    case SQE_T_BIGINT:
        return "bigint";
    case SQE_T_REAL:
        return "real";
    case SQE_T_DOUBLE:
        return "double";
    case SQE_T_VARCHAR:
        return "varchar";
    case SQE_T_VARBINARY:
        return "varbinary";
    case SQE_T_DATE:
        return "date";
    case SQE_T_TIMESTAMP:
        return "timestamp";
    case SQE_T_INTERVAL_DS:
        return "interval day to second";
    case SQE_T_INTERVAL_YM:
        return "interval year to month";
    case SQE_T_TIMESTAMP_TZ:
        return "timestamp(3) with time zone";
    default:
        return "unknown";
    }
}

const char *sqe_type_sql_name(sqe_type t, char *buf, size_t buf_len) {
    if (buf_len == 0) return buf;
    if (t.id == SQE_T_DECIMAL)
        snprintf(buf, buf_len, "decimal(%d,%d)", t.precision, t.scale);
    else if (t.id == SQE_T_VARCHAR && t.str_kind == SQE_STRKIND_VARCHAR)
        snprintf(buf, buf_len, "varchar(%u)", (unsigned)t.length);
    else if (t.id == SQE_T_VARCHAR && t.str_kind == SQE_STRKIND_CHAR)
        snprintf(buf, buf_len, "char(%u)", (unsigned)t.length);
    else if (t.id == SQE_T_TIME)
        snprintf(buf, buf_len, "time(%d)", sqe_time_precision(t));
    else if (sqe_timestamp_precision(t) >= 0)
        snprintf(buf, buf_len, "timestamp(%d)", sqe_timestamp_precision(t));
    else
        snprintf(buf, buf_len, "%s", plain_sql_name((sqe_type_id)t.id));
    return buf;
}

const char *sqe_type_hive_name(sqe_type t, char *buf, size_t buf_len) {
    if (buf_len == 0) return buf;
    const char *s;
    switch (t.id) {
    case SQE_T_INTEGER:
        s = "int";
        break;
    case SQE_T_REAL:
        s = "float";
        break;
    case SQE_T_VARBINARY:
        s = "binary";
        break;
    case SQE_T_NULL:
        s = "void";
        break;
    case SQE_T_VARCHAR:
        if (t.str_kind == SQE_STRKIND_STRING) {
            s = "string";
            break;
        }
        return sqe_type_sql_name(t, buf, buf_len);
    case SQE_T_DECIMAL:
        return sqe_type_sql_name(t, buf, buf_len);
    default:
        s = plain_sql_name((sqe_type_id)t.id);
        break;
    }
    snprintf(buf, buf_len, "%s", s);
    return buf;
}

/* ------------------------------------------------------------ parsing */

typedef enum { P_NONE, P_DECIMAL, P_VARCHAR, P_CHAR, P_TIMESTAMP } param_kind;

static const struct {
    const char *name;
    sqe_type_id id;
    param_kind params;
} k_type_names[] = {
    {"boolean", SQE_T_BOOLEAN, P_NONE},    {"tinyint", SQE_T_TINYINT, P_NONE},
    {"smallint", SQE_T_SMALLINT, P_NONE},  {"int", SQE_T_INTEGER, P_NONE},
    {"integer", SQE_T_INTEGER, P_NONE},    {"bigint", SQE_T_BIGINT, P_NONE},
    {"float", SQE_T_REAL, P_NONE},         {"real", SQE_T_REAL, P_NONE},
    {"double", SQE_T_DOUBLE, P_NONE},      {"decimal", SQE_T_DECIMAL, P_DECIMAL},
    {"numeric", SQE_T_DECIMAL, P_DECIMAL}, {"string", SQE_T_VARCHAR, P_NONE},
    {"varchar", SQE_T_VARCHAR, P_VARCHAR}, {"char", SQE_T_VARCHAR, P_CHAR},
    {"date", SQE_T_DATE, P_NONE},          {"timestamp", SQE_T_TIMESTAMP, P_TIMESTAMP},
    {"binary", SQE_T_VARBINARY, P_NONE},   {"varbinary", SQE_T_VARBINARY, P_NONE},
    {"time", SQE_T_TIME, P_TIMESTAMP},
};

static const char *skip_ws(const char *s) {
    while (*s && isspace((unsigned char)*s)) s++;
    return s;
}

/* Reads a run of ASCII letters, digits and '_' (so "int8" is one unknown
 * word), lower-cased into word; an over-long word is cut and matches nothing. */
static const char *read_word(const char *s, char *word, size_t cap) {
    size_t n = 0;
    while (isalnum((unsigned char)*s) || *s == '_') {
        if (n + 1 < cap) word[n++] = (char)tolower((unsigned char)*s);
        s++;
    }
    word[n] = '\0';
    return s;
}

/* Parses "(n[, m])" with optional whitespace. Returns the number of
 * parameters (0 when there is no '('), or -1 when malformed. Values are
 * clamped to 1e6 so an absurd number is reported as out of range. */
static int read_params(const char **ps, long vals[2]) {
    const char *s = skip_ws(*ps);
    if (*s != '(') return 0;
    s++;
    int n = 0;
    for (;;) {
        s = skip_ws(s);
        if (!isdigit((unsigned char)*s)) return -1;
        long v = 0;
        while (isdigit((unsigned char)*s)) {
            if (v < 1000000) v = v * 10 + (*s - '0');
            s++;
        }
        if (n == 2) return -1;
        vals[n++] = v;
        s = skip_ws(s);
        if (*s == ',') {
            s++;
            continue;
        }
        if (*s != ')') return -1;
        s++;
        break;
    }
    *ps = s;
    return n;
}

/* "interval day to second" / "interval year to month" (s is past "interval"). */
static bool parse_interval_type(const char *name, const char *s, sqe_type *out, sqe_error *err) {
    char a[24], to[24], b[24];
    s = read_word(skip_ws(s), a, sizeof a);
    s = read_word(skip_ws(s), to, sizeof to);
    s = read_word(skip_ws(s), b, sizeof b);
    if (*skip_ws(s) == '\0' && strcmp(to, "to") == 0) {
        if (strcmp(a, "day") == 0 && strcmp(b, "second") == 0) {
            *out = sqe_type_make(SQE_T_INTERVAL_DS);
            return true;
        }
        if (strcmp(a, "year") == 0 && strcmp(b, "month") == 0) {
            *out = sqe_type_make(SQE_T_INTERVAL_YM);
            return true;
        }
    }
    return sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                         "unknown type '%s' (intervals are INTERVAL DAY TO SECOND and INTERVAL "
                         "YEAR TO MONTH)",
                         name);
}

/* " with time zone" at *s (consumed when present). */
static bool with_time_zone(const char **s) {
    char w[4][24];
    const char *t = *s;
    for (int k = 0; k < 3; k++) t = read_word(skip_ws(t), w[k], sizeof w[k]);
    if (strcmp(w[0], "with") || strcmp(w[1], "time") || strcmp(w[2], "zone") || *skip_ws(t))
        return false;
    *s = t;
    return true;
}

static bool type_parse(const char *name, sqe_type *out, sqe_error *err, bool sql);

bool sqe_type_parse(const char *name, sqe_type *out, sqe_error *err) {
    return type_parse(name, out, err, false);
}

bool sqe_type_parse_sql(const char *name, sqe_type *out, sqe_error *err) {
    return type_parse(name, out, err, true);
}

/* `sql`: also the query-only types (intervals, TIME, TIMESTAMP WITH TIME
 * ZONE), which no table column can have. */
static bool type_parse(const char *name, sqe_type *out, sqe_error *err, bool sql) {
    char word[24], word2[24];
    const char *s = skip_ws(name);
    s = read_word(s, word, sizeof word);
    if (strcmp(word, "double") == 0) {
        const char *t = read_word(skip_ws(s), word2, sizeof word2);
        if (strcmp(word2, "precision") == 0) s = t;
    }
    if (sql && strcmp(word, "interval") == 0) return parse_interval_type(name, s, out, err);
    if (!sql && strcmp(word, "time") == 0)
        return sqe_error_set(err, SQE_ERR_NOT_SUPPORTED, "unknown type '%s'", name);
    size_t i;
    for (i = 0; i < SQE_ARRAY_LEN(k_type_names); i++)
        if (word[0] && strcmp(word, k_type_names[i].name) == 0) break;
    if (i == SQE_ARRAY_LEN(k_type_names))
        return sqe_error_set(err, SQE_ERR_NOT_SUPPORTED, "unknown type '%s'", name);

    long p[2] = {0, 0};
    int n_params = read_params(&s, p);
    if (sql && n_params >= 0 && k_type_names[i].id == SQE_T_TIMESTAMP && with_time_zone(&s)) {
        if (n_params > 1 || (n_params == 1 && p[0] > 3))
            return sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                                 "'%s' is not supported: time zone timestamps have precision 3",
                                 name);
        *out = sqe_type_make(SQE_T_TIMESTAMP_TZ);
        return true;
    }
    if (n_params < 0 || *skip_ws(s) != '\0')
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT, "malformed type '%s'", name);

    sqe_type t = sqe_type_make(k_type_names[i].id);
    const char *kw = k_type_names[i].name;
    switch (k_type_names[i].params) {
    case P_NONE:
        if (n_params > 0)
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "type %s takes no parameters in '%s'", kw, name);
        if (strcmp(kw, "string") == 0) t.str_kind = SQE_STRKIND_STRING;
        break;
    case P_DECIMAL: {
        long prec = n_params >= 1 ? p[0] : 10, scale = n_params >= 2 ? p[1] : 0;
        if (prec < 1 || prec > SQE_DECIMAL_MAX_PRECISION)
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "decimal precision %ld out of range 1..%d in '%s'", prec,
                                 SQE_DECIMAL_MAX_PRECISION, name);
        if (scale > prec)
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "decimal scale %ld exceeds precision %ld in '%s'", scale, prec,
                                 name);
        t = sqe_type_decimal((int)prec, (int)scale);
        break;
    }
    case P_VARCHAR:
    case P_CHAR: {
        bool is_char = k_type_names[i].params == P_CHAR;
        long max = is_char ? 255 : 65535;
        if (n_params > 1)
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT, "%s takes one length in '%s'", kw,
                                 name);
        if (n_params == 0 && !is_char) break; /* unbounded VARCHAR == STRING */
        long len = n_params == 1 ? p[0] : 1;  /* bare CHAR is CHAR(1), as in Trino */
        if (len < 1 || len > max)
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "%s length %ld out of range 1..%ld in '%s'", kw, len, max, name);
        t.str_kind = is_char ? SQE_STRKIND_CHAR : SQE_STRKIND_VARCHAR;
        t.length = (uint32_t)len;
        break;
    }
    case P_TIMESTAMP:
        /* timestamp(p): p digits (values keep microseconds); plain timestamp stays plain. */
        if (n_params > 1 || (n_params == 1 && p[0] > SQE_TIMESTAMP_MAX_PRECISION))
            return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                                 "timestamp precision out of range 0..12 in '%s'", name);
        if (n_params == 1)
            t = t.id == SQE_T_TIME ? sqe_type_time((int)p[0]) : sqe_type_timestamp((int)p[0]);
        break;
    }
    *out = t;
    return true;
}

/* ----------------------------------------------------- coercion lattice */

/* Decimal precision that holds every value of an integer type. */
static int integer_digits(sqe_type_id id) {
    switch (id) {
    case SQE_T_TINYINT:
        return 3;
    case SQE_T_SMALLINT:
        return 5;
    case SQE_T_INTEGER:
        return 10;
    default:
        return 19;
    }
}

static sqe_type as_decimal(sqe_type t) {
    return t.id == SQE_T_DECIMAL ? t : sqe_type_decimal(integer_digits((sqe_type_id)t.id), 0);
}

bool sqe_type_common(sqe_type a, sqe_type b, sqe_type *out) {
    if (a.id == SQE_T_NULL) {
        *out = b;
        return true;
    }
    if (b.id == SQE_T_NULL || sqe_type_equal(a, b)) {
        *out = a;
        return true;
    }
    if (a.id == SQE_T_VARCHAR && b.id == SQE_T_VARCHAR) {
        /* CHAR with a bounded string: CHAR(max(n, m)), as Trino coerces
         * varchar(m) to char(m) and char(n) to char(max) (Athena's engine;
         * Trino from mid-2026 reverses the direction). Values are padded to
         * that length (plan/binder.c sqe_bind_coerce). CHAR with an unbounded
         * VARCHAR/STRING: Trino's char(65536) cannot be materialized padded,
         * so the values' type is unbounded VARCHAR and CHAR values keep the
         * padding they have (Trino's CAST(char(n) AS varchar) keeps it too).
         * Comparisons use sqe_type_compare_common instead. */
        bool ac = a.str_kind == SQE_STRKIND_CHAR, bc = b.str_kind == SQE_STRKIND_CHAR;
        bool a_unb = a.str_kind == SQE_STRKIND_STRING || a.length == 0;
        bool b_unb = b.str_kind == SQE_STRKIND_STRING || b.length == 0;
        if ((ac || bc) && !a_unb && !b_unb) {
            *out = ac ? a : b;
            out->length = SQE_MAX(a.length, b.length);
            return true;
        }
        *out = sqe_type_make(SQE_T_VARCHAR); /* unbounded */
        return true;
    }
    if (sqe_type_is_numeric(a) && sqe_type_is_numeric(b)) {
        if (a.id == SQE_T_DOUBLE || b.id == SQE_T_DOUBLE) {
            *out = sqe_type_make(SQE_T_DOUBLE);
        } else if (a.id == SQE_T_REAL || b.id == SQE_T_REAL) {
            *out = sqe_type_make(SQE_T_REAL);
        } else if (sqe_type_is_integer(a) && sqe_type_is_integer(b)) {
            *out = sqe_type_make(a.id > b.id ? (sqe_type_id)a.id : (sqe_type_id)b.id);
        } else {
            sqe_type da = as_decimal(a), db = as_decimal(b);
            int scale = SQE_MAX(da.scale, db.scale);
            int whole = SQE_MAX(da.precision - da.scale, db.precision - db.scale);
            int prec = SQE_MIN(whole + scale, SQE_DECIMAL_MAX_PRECISION);
            *out = sqe_type_decimal(prec, scale);
        }
        return true;
    }
    if (a.id == SQE_T_TIMESTAMP && b.id == SQE_T_TIMESTAMP) {
        /* The finer precision; plain TIMESTAMP (microseconds) is the finest. */
        int pa = sqe_timestamp_precision(a), pb = sqe_timestamp_precision(b);
        *out = pa < 0 || pb < 0 ? sqe_type_make(SQE_T_TIMESTAMP) : pa > pb ? a : b;
        return true;
    }
    bool atz = a.id == SQE_T_TIMESTAMP_TZ, btz = b.id == SQE_T_TIMESTAMP_TZ;
    if ((atz || btz) && (atz || a.id == SQE_T_TIMESTAMP || a.id == SQE_T_DATE) &&
        (btz || b.id == SQE_T_TIMESTAMP || b.id == SQE_T_DATE)) {
        *out = sqe_type_make(SQE_T_TIMESTAMP_TZ);
        return true;
    }
    if (a.id == SQE_T_TIME && b.id == SQE_T_TIME) {
        *out = sqe_time_precision(a) >= sqe_time_precision(b) ? a : b;
        return true;
    }
    if (a.id == SQE_T_DATE && b.id == SQE_T_TIMESTAMP) {
        *out = b;
        return true;
    }
    if (a.id == SQE_T_TIMESTAMP && b.id == SQE_T_DATE) {
        *out = a;
        return true;
    }
    return false;
}

bool sqe_type_compare_common(sqe_type a, sqe_type b, sqe_type *out) {
    bool ac = a.id == SQE_T_VARCHAR && a.str_kind == SQE_STRKIND_CHAR;
    bool bc = b.id == SQE_T_VARCHAR && b.str_kind == SQE_STRKIND_CHAR;
    if ((ac && (b.id == SQE_T_VARCHAR || b.id == SQE_T_NULL)) ||
        (bc && (a.id == SQE_T_VARCHAR || a.id == SQE_T_NULL))) {
        /* A CHAR against any string compares PAD SPACE (func/compare.c's
         * CHAR kernels ignore trailing spaces), also against an unbounded
         * VARCHAR (Trino: coerced to char(65536)). The length is the longer
         * bounded one; an unbounded side's values are never cut or padded for
         * the comparison (sqe_bind_coerce leaves them as they are). */
        bool a_b = a.id == SQE_T_VARCHAR && a.str_kind != SQE_STRKIND_STRING;
        bool b_b = b.id == SQE_T_VARCHAR && b.str_kind != SQE_STRKIND_STRING;
        *out = ac ? a : b;
        out->length = SQE_MAX(a_b ? a.length : 0, b_b ? b.length : 0);
        return true;
    }
    return sqe_type_common(a, b, out);
}

bool sqe_type_implicit_ok(sqe_type from, sqe_type to) {
    if (from.id == SQE_T_NULL) return true;
    if (from.id == SQE_T_VARCHAR && to.id == SQE_T_VARCHAR) return true;
    sqe_type c;
    return sqe_type_common(from, to, &c) && sqe_type_equal(c, to);
}

bool sqe_type_can_cast(sqe_type from, sqe_type to) {
    if (from.id == SQE_T_NULL || from.id == to.id) return true;
    if (to.id == SQE_T_NULL) return false;
    if (sqe_type_is_interval(to)) return false; /* only the same interval type, as Trino */
    if (sqe_type_is_interval(from)) return to.id == SQE_T_VARCHAR;
    if (from.id == SQE_T_VARCHAR || to.id == SQE_T_VARCHAR) return true;
    if (to.id == SQE_T_VARBINARY || from.id == SQE_T_VARBINARY) return false;
    bool from_num = from.id == SQE_T_BOOLEAN || sqe_type_is_numeric(from);
    bool to_num = to.id == SQE_T_BOOLEAN || sqe_type_is_numeric(to);
    if (from_num && to_num) return true;
    bool from_tz = from.id == SQE_T_TIMESTAMP_TZ, to_tz = to.id == SQE_T_TIMESTAMP_TZ;
    if (from_tz || to_tz)
        return (from_tz || from.id == SQE_T_TIMESTAMP || from.id == SQE_T_DATE) &&
               (to_tz || to.id == SQE_T_TIMESTAMP || to.id == SQE_T_DATE);
    if (to.id == SQE_T_TIME) return from.id == SQE_T_TIMESTAMP;
    if (from.id == SQE_T_TIME) return false;
    bool from_dt = from.id == SQE_T_DATE || from.id == SQE_T_TIMESTAMP;
    bool to_dt = to.id == SQE_T_DATE || to.id == SQE_T_TIMESTAMP;
    return from_dt && to_dt;
}
