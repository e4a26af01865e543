/*
 * test_types.c - unit tests for src/types/: type names and parsing, the
 * coercion lattice, string views, text parsers, date/time and decimal
 * arithmetic, value formatting (Trino/Java style) and casts.
 */
#include "unit.h"

#include <stdlib.h>
#include <time.h>

#include "types/types.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

/* ------------------------------------------------------------ helpers */

static sqe_type T(const char *name) {
    sqe_type t = sqe_type_make(SQE_T_NULL);
    sqe_error err;
    if (!sqe_type_parse(name, &t, &err))
        fprintf(stderr, "bad type in test: %s (%s)\n", name, err.msg);
    return t;
}

static const char *sql_name(const char *type_text) {
    static char buf[64];
    return sqe_type_sql_name(T(type_text), buf, sizeof buf);
}

static const char *hive_name(const char *type_text) {
    static char buf[64];
    return sqe_type_hive_name(T(type_text), buf, sizeof buf);
}

/* Formats a value into a rotating static buffer (several per CHECK). */
static const char *fmt(const sqe_value *v) {
    static char bufs[4][256];
    static int k;
    char *out = bufs[k++ & 3];
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    sqe_value_format(v, &sb);
    snprintf(out, 256, "%s", sb.data ? sb.data : "");
    sqe_strbuf_free(&sb);
    return out;
}

static const char *fmt_double(double d) {
    sqe_value v = sqe_value_double(d);
    return fmt(&v);
}

static const char *fmt_real(float f) {
    sqe_value v = sqe_value_null(sqe_type_make(SQE_T_REAL));
    v.is_null = false;
    v.v.f = f;
    return fmt(&v);
}

static sqe_arena *g_arena;

/* Casts `in` to the named type and returns the result text, or
 * "ERR <class>: <message>". */
static const char *cast(sqe_value in, const char *type_text, bool try_) {
    static char bufs[4][512];
    static int k;
    char *out = bufs[k++ & 3];
    sqe_value res;
    sqe_error err;
    sqe_error_clear(&err);
    if (!sqe_value_cast(&in, T(type_text), try_, g_arena, &res, &err)) {
        snprintf(out, 512, "ERR %s: %s", sqe_error_class_name(err.cls), err.msg);
        return out;
    }
    snprintf(out, 512, "%s", fmt(&res));
    return out;
}

static sqe_value str(const char *s) {
    return sqe_value_string(s, (uint32_t)strlen(s));
}

static sqe_value dec(long long unscaled, int p, int s) {
    return sqe_value_decimal(unscaled, p, s);
}

static const char *type_err(const char *name) {
    static char buf[SQE_ERROR_MSG_MAX + 32];
    sqe_type t;
    sqe_error err;
    sqe_error_clear(&err);
    if (sqe_type_parse(name, &t, &err)) return "ok";
    snprintf(buf, sizeof buf, "%s: %s", sqe_error_class_name(err.cls), err.msg);
    return buf;
}

/* ---------------------------------------------------------- type names */

static void test_type_names(void) {
    CHECK_STR(sql_name("boolean"), "boolean");
    CHECK_STR(sql_name("TINYINT"), "tinyint");
    CHECK_STR(sql_name("smallint"), "smallint");
    CHECK_STR(sql_name("int"), "integer");
    CHECK_STR(sql_name("Integer"), "integer");
    CHECK_STR(sql_name("bigint"), "bigint");
    CHECK_STR(sql_name("float"), "real");
    CHECK_STR(sql_name("real"), "real");
    CHECK_STR(sql_name("double"), "double");
    CHECK_STR(sql_name("DOUBLE  PRECISION"), "double");
    CHECK_STR(sql_name("decimal"), "decimal(10,0)");
    CHECK_STR(sql_name("decimal(7)"), "decimal(7,0)");
    CHECK_STR(sql_name("NUMERIC( 12 , 3 )"), "decimal(12,3)");
    CHECK_STR(sql_name("decimal (38,38)"), "decimal(38,38)");
    CHECK_STR(sql_name("string"), "varchar");
    CHECK_STR(sql_name("varchar"), "varchar");
    CHECK_STR(sql_name("varchar(10)"), "varchar(10)");
    CHECK_STR(sql_name("char(3)"), "char(3)");
    CHECK_STR(sql_name("binary"), "varbinary");
    CHECK_STR(sql_name("VARBINARY"), "varbinary");
    CHECK_STR(sql_name("date"), "date");
    CHECK_STR(sql_name("timestamp"), "timestamp");
    CHECK_STR(sql_name("timestamp(3)"), "timestamp(3)");
    CHECK_STR(sql_name("  bigint  "), "bigint");
    char buf[32];
    CHECK_STR(sqe_type_sql_name(sqe_type_make(SQE_T_NULL), buf, sizeof buf), "unknown");

    CHECK_STR(hive_name("integer"), "int");
    CHECK_STR(hive_name("real"), "float");
    CHECK_STR(hive_name("string"), "string");
    CHECK_STR(hive_name("varchar"), "string");
    CHECK_STR(hive_name("varchar(10)"), "varchar(10)");
    CHECK_STR(hive_name("char(2)"), "char(2)");
    CHECK_STR(hive_name("varbinary"), "binary");
    CHECK_STR(hive_name("decimal(10,2)"), "decimal(10,2)");
    CHECK_STR(hive_name("timestamp"), "timestamp");
    CHECK_STR(hive_name("tinyint"), "tinyint");
    CHECK_STR(hive_name("double"), "double");

    CHECK(T("string").str_kind == SQE_STRKIND_STRING && T("string").length == 0);
    CHECK(T("varchar(10)").str_kind == SQE_STRKIND_VARCHAR && T("varchar(10)").length == 10);
    CHECK(T("char").str_kind == SQE_STRKIND_CHAR && T("char").length == 1);
    CHECK(T("varchar(65535)").length == 65535);
}

static void test_type_parse_errors(void) {
    CHECK_STR(type_err("decimal(40,2)"),
              "INVALID_ARGUMENT: decimal precision 40 out of range 1..38 in 'decimal(40,2)'");
    CHECK_STR(type_err("decimal(0)"),
              "INVALID_ARGUMENT: decimal precision 0 out of range 1..38 in 'decimal(0)'");
    CHECK_STR(type_err("decimal(3,5)"),
              "INVALID_ARGUMENT: decimal scale 5 exceeds precision 3 in 'decimal(3,5)'");
    CHECK_STR(type_err("foo"), "NOT_SUPPORTED: unknown type 'foo'");
    CHECK_STR(type_err(""), "NOT_SUPPORTED: unknown type ''");
    CHECK_STR(type_err("array<int>"), "NOT_SUPPORTED: unknown type 'array<int>'");
    CHECK_STR(type_err("varchar(0)"),
              "INVALID_ARGUMENT: varchar length 0 out of range 1..65535 in 'varchar(0)'");
    CHECK_STR(type_err("varchar(65536)"),
              "INVALID_ARGUMENT: varchar length 65536 out of range 1..65535 in 'varchar(65536)'");
    CHECK_STR(type_err("char(256)"),
              "INVALID_ARGUMENT: char length 256 out of range 1..255 in 'char(256)'");
    CHECK_CONTAINS(type_err("int(11)"), "INVALID_ARGUMENT: type int takes no parameters");
    CHECK_CONTAINS(type_err("decimal(10,"), "malformed type 'decimal(10,'");
    CHECK_CONTAINS(type_err("decimal(1,2,3)"), "malformed");
    CHECK_CONTAINS(type_err("bigint x"), "malformed");
    CHECK_CONTAINS(type_err("decimal(99999999999999999999,1)"), "out of range 1..38");
    CHECK_STR(type_err("double precision"), "ok");
    CHECK_STR(type_err("int8"), "NOT_SUPPORTED: unknown type 'int8'");
}

static void test_type_common(void) {
    sqe_type c;
    CHECK(sqe_type_common(T("tinyint"), T("integer"), &c) && c.id == SQE_T_INTEGER);
    CHECK(sqe_type_common(T("bigint"), T("smallint"), &c) && c.id == SQE_T_BIGINT);
    CHECK(sqe_type_common(T("integer"), T("decimal(5,2)"), &c) &&
          sqe_type_equal(c, sqe_type_decimal(12, 2)));
    CHECK(sqe_type_common(T("bigint"), T("decimal(5,2)"), &c) &&
          sqe_type_equal(c, sqe_type_decimal(21, 2)));
    CHECK(sqe_type_common(T("tinyint"), T("decimal(2,1)"), &c) &&
          sqe_type_equal(c, sqe_type_decimal(4, 1)));
    CHECK(sqe_type_common(T("decimal(10,2)"), T("decimal(5,4)"), &c) &&
          sqe_type_equal(c, sqe_type_decimal(12, 4)));
    CHECK(sqe_type_common(T("decimal(38,0)"), T("decimal(38,10)"), &c) &&
          sqe_type_equal(c, sqe_type_decimal(38, 10)));
    CHECK(sqe_type_common(T("real"), T("integer"), &c) && c.id == SQE_T_REAL);
    CHECK(sqe_type_common(T("decimal(10,2)"), T("real"), &c) && c.id == SQE_T_REAL);
    CHECK(sqe_type_common(T("real"), T("double"), &c) && c.id == SQE_T_DOUBLE);
    CHECK(sqe_type_common(T("decimal(10,2)"), T("double"), &c) && c.id == SQE_T_DOUBLE);
    CHECK(sqe_type_common(T("bigint"), T("double"), &c) && c.id == SQE_T_DOUBLE);
    CHECK(sqe_type_common(sqe_type_make(SQE_T_NULL), T("date"), &c) && c.id == SQE_T_DATE);
    CHECK(sqe_type_common(T("varchar(3)"), sqe_type_make(SQE_T_NULL), &c) &&
          sqe_type_equal(c, T("varchar(3)")));
    CHECK(sqe_type_common(T("varchar(3)"), T("varchar(3)"), &c) &&
          sqe_type_equal(c, T("varchar(3)")));
    /* a CHAR on either side: CHAR of the longer bounded length (issue 7 item 15) */
    CHECK(sqe_type_common(T("varchar(3)"), T("char(5)"), &c) && sqe_type_equal(c, T("char(5)")));
    CHECK(sqe_type_common(T("varchar(7)"), T("char(5)"), &c) && sqe_type_equal(c, T("char(7)")));
    CHECK(sqe_type_common(T("char(2)"), T("char(4)"), &c) && sqe_type_equal(c, T("char(4)")));
    /* values of a CHAR and an unbounded string: VARCHAR (Trino's char(65536)
     * is not materialized); comparing them: CHAR, PAD SPACE (issue 7) */
    CHECK(sqe_type_common(T("char(2)"), T("string"), &c) && sqe_type_equal(c, T("string")));
    CHECK(sqe_type_common(T("varchar"), T("char(2)"), &c) && sqe_type_equal(c, T("string")));
    CHECK(sqe_type_compare_common(T("char(2)"), T("string"), &c) &&
          sqe_type_equal(c, T("char(2)")));
    CHECK(sqe_type_compare_common(T("varchar"), T("char(3)"), &c) &&
          sqe_type_equal(c, T("char(3)")));
    CHECK(sqe_type_compare_common(T("varchar(7)"), T("char(3)"), &c) &&
          sqe_type_equal(c, T("char(7)")));
    CHECK(sqe_type_compare_common(T("char(2)"), sqe_type_make(SQE_T_NULL), &c) &&
          sqe_type_equal(c, T("char(2)")));
    CHECK(sqe_type_compare_common(T("varchar(3)"), T("varchar(5)"), &c) &&
          sqe_type_equal(c, T("string")));
    CHECK(sqe_type_compare_common(T("integer"), T("bigint"), &c) && c.id == SQE_T_BIGINT);
    CHECK(!sqe_type_compare_common(T("char(2)"), T("integer"), &c));
    CHECK(sqe_type_common(T("varchar(3)"), T("varchar(5)"), &c) && sqe_type_equal(c, T("string")));
    CHECK(sqe_type_common(T("date"), T("timestamp"), &c) && c.id == SQE_T_TIMESTAMP);
    CHECK(sqe_type_common(T("boolean"), T("boolean"), &c) && c.id == SQE_T_BOOLEAN);
    CHECK(!sqe_type_common(T("varchar"), T("integer"), &c));
    CHECK(!sqe_type_common(T("boolean"), T("integer"), &c));
    CHECK(!sqe_type_common(T("date"), T("varchar"), &c));
    CHECK(!sqe_type_common(T("varbinary"), T("varchar"), &c));

    CHECK(sqe_type_implicit_ok(T("integer"), T("bigint")));
    CHECK(!sqe_type_implicit_ok(T("bigint"), T("integer")));
    CHECK(sqe_type_implicit_ok(T("integer"), T("decimal(12,2)")));
    CHECK(!sqe_type_implicit_ok(T("integer"), T("decimal(5,0)")));
    CHECK(sqe_type_implicit_ok(T("decimal(5,2)"), T("decimal(10,2)")));
    CHECK(!sqe_type_implicit_ok(T("decimal(5,2)"), T("decimal(10,1)")));
    CHECK(sqe_type_implicit_ok(T("real"), T("double")));
    CHECK(sqe_type_implicit_ok(T("string"), T("varchar(3)")));
    CHECK(sqe_type_implicit_ok(sqe_type_make(SQE_T_NULL), T("date")));
    CHECK(sqe_type_implicit_ok(T("date"), T("timestamp")));
    CHECK(!sqe_type_implicit_ok(T("timestamp"), T("date")));
    CHECK(!sqe_type_implicit_ok(T("varchar"), T("bigint")));

    CHECK(sqe_type_can_cast(T("varchar"), T("date")));
    CHECK(sqe_type_can_cast(T("double"), T("boolean")));
    CHECK(sqe_type_can_cast(T("timestamp"), T("date")));
    CHECK(!sqe_type_can_cast(T("date"), T("boolean")));
    CHECK(!sqe_type_can_cast(T("integer"), T("varbinary")));
    CHECK(sqe_type_can_cast(sqe_type_make(SQE_T_NULL), T("varbinary")));

    CHECK(sqe_type_width(T("decimal(5,2)")) == 16);
    CHECK(sqe_type_width(T("varchar")) == 16);
    CHECK(sqe_type_width(T("date")) == 4 && sqe_type_width(T("timestamp")) == 8);
    CHECK(sqe_type_is_numeric(T("decimal(5,2)")) && !sqe_type_is_numeric(T("boolean")));
    CHECK(sqe_type_is_integer(T("tinyint")) && !sqe_type_is_integer(T("real")));
}

/* ------------------------------------------------------------- strings */

static void test_strings(void) {
    CHECK(offsetof(sqe_string, u) == offsetof(sqe_string, prefix) + 4);
    CHECK(sizeof(sqe_string) == 16);

    const char *twelve = "abcdefghijkl";
    sqe_string a = sqe_string_ref(twelve, 12);
    CHECK(a.len == 12);
    CHECK(sqe_string_data(&a) == a.prefix); /* inline */
    CHECK(memcmp(sqe_string_data(&a), twelve, 12) == 0);

    const char *long_text = "abcdefghijklmnop";
    sqe_string b = sqe_string_ref(long_text, 16);
    CHECK(sqe_string_data(&b) == long_text); /* by reference */
    CHECK(memcmp(b.prefix, "abcd", 4) == 0);

    char copy[32];
    memcpy(copy, long_text, 17);
    sqe_string b2 = sqe_string_ref(copy, 16);
    CHECK(sqe_string_eq(&b, &b2));
    CHECK(sqe_string_hash(&b) == sqe_string_hash(&b2));
    CHECK(sqe_string_hash(&b) == sqe_hash_bytes(long_text, 16, 0));
    CHECK(sqe_string_hash(&a) == sqe_hash_bytes(twelve, 12, 0));
    copy[10] = 'X';
    CHECK(!sqe_string_eq(&b, &b2));
    CHECK(sqe_string_cmp(&b, &b2) > 0);

    sqe_string e1 = sqe_string_ref("", 0), e2 = sqe_string_ref("", 0);
    CHECK(sqe_string_eq(&e1, &e2) && sqe_string_cmp(&e1, &e2) == 0);
    sqe_string ab = sqe_string_ref("ab", 2), abc = sqe_string_ref("abc", 3);
    CHECK(sqe_string_cmp(&ab, &abc) < 0 && sqe_string_cmp(&abc, &ab) > 0);
    CHECK(!sqe_string_eq(&ab, &abc));
    sqe_string hi = sqe_string_ref("\xc3\xa9", 2), lo = sqe_string_ref("z", 1);
    CHECK(sqe_string_cmp(&hi, &lo) > 0); /* unsigned bytes, like Trino */
    /* Equal strings of 12 bytes where one view has stale padding bytes. */
    sqe_string p1 = sqe_string_ref("abcde", 5), p2 = p1;
    p2.u.inlined[7] = 'Z';
    CHECK(sqe_string_eq(&p1, &p2));
}

/* ------------------------------------------------------------- parsers */

static void test_parse_int64(void) {
    int64_t x = -1;
    CHECK(sqe_parse_int64("0", 1, &x) && x == 0);
    CHECK(sqe_parse_int64("-0", 2, &x) && x == 0);
    CHECK(sqe_parse_int64("+42", 3, &x) && x == 42);
    CHECK(sqe_parse_int64("-17", 3, &x) && x == -17);
    CHECK(sqe_parse_int64("9223372036854775807", 19, &x) && x == INT64_MAX);
    CHECK(sqe_parse_int64("-9223372036854775808", 20, &x) && x == INT64_MIN);
    CHECK(!sqe_parse_int64("9223372036854775808", 19, &x));
    CHECK(!sqe_parse_int64("-9223372036854775809", 20, &x));
    CHECK(!sqe_parse_int64("99999999999999999999999", 23, &x));
    CHECK(sqe_parse_int64("000000000000000000000000007", 27, &x) && x == 7);
    CHECK(!sqe_parse_int64("", 0, &x));
    CHECK(!sqe_parse_int64("-", 1, &x));
    CHECK(!sqe_parse_int64("+", 1, &x));
    CHECK(!sqe_parse_int64("12a", 3, &x));
    CHECK(!sqe_parse_int64(" 1", 2, &x));
    CHECK(!sqe_parse_int64("1 ", 2, &x));
    CHECK(!sqe_parse_int64("1.0", 3, &x));
    CHECK(sqe_parse_int64("123456", 3, &x) && x == 123); /* not NUL-terminated slice */
}

static void test_parse_bool(void) {
    bool b = false;
    CHECK(sqe_parse_bool("true", 4, &b) && b);
    CHECK(sqe_parse_bool("FALSE", 5, &b) && !b);
    CHECK(sqe_parse_bool("True", 4, &b) && b);
    CHECK(!sqe_parse_bool("1", 1, &b));
    CHECK(!sqe_parse_bool("tru", 3, &b));
    CHECK(!sqe_parse_bool("truex", 5, &b));
    CHECK(!sqe_parse_bool("", 0, &b));
    CHECK(sqe_parse_bool("falsehood", 5, &b) && !b); /* slice */
}

static bool pd(const char *s, double *d) {
    return sqe_parse_double(s, strlen(s), d);
}

static void test_parse_double(void) {
    double d = 0;
    CHECK(pd("1", &d) && d == 1.0);
    CHECK(pd("1.5", &d) && d == 1.5);
    CHECK(pd("-1.5e3", &d) && d == -1500.0);
    CHECK(pd(".5", &d) && d == 0.5);
    CHECK(pd("5.", &d) && d == 5.0);
    CHECK(pd("+2E-2", &d) && d == 0.02);
    CHECK(pd("0.1", &d) && d == 0.1);
    CHECK(pd("-0", &d) && d == 0 && signbit(d));
    CHECK(pd("NaN", &d) && isnan(d));
    CHECK(pd("nan", &d) && isnan(d));
    CHECK(pd("Infinity", &d) && isinf(d) && d > 0);
    CHECK(pd("-Infinity", &d) && isinf(d) && d < 0);
    CHECK(pd("-inf", &d) && isinf(d) && d < 0);
    CHECK(pd("INF", &d) && isinf(d) && d > 0);
    CHECK(pd("1e23", &d) && d == 1e23);
    CHECK(pd("123456789012345678901234567890", &d) && d == 123456789012345678901234567890.0);
    CHECK(pd("2.2250738585072014e-308", &d) && d == 2.2250738585072014e-308);
    CHECK(pd("4.9e-324", &d) && d == 4.9e-324);
    CHECK(pd("9007199254740993", &d) && d == 9007199254740992.0); /* 2^53+1 rounds to even */
    CHECK(pd("0.30000000000000004", &d) && d == 0.1 + 0.2);
    CHECK(pd("1e400", &d) && isinf(d));
    CHECK(pd("0.000000000000000000000000000001", &d) && d == 1e-30);
    CHECK(!pd("", &d));
    CHECK(!pd("-", &d));
    CHECK(!pd(".", &d));
    CHECK(!pd("e5", &d));
    CHECK(!pd("1e", &d));
    CHECK(!pd("1e+", &d));
    CHECK(!pd("1.5x", &d));
    CHECK(!pd(" 1.5", &d));
    CHECK(!pd("1.5 ", &d));
    CHECK(!pd("0x10", &d));
    CHECK(!pd("infinit", &d));
    CHECK(!pd("1,5", &d));
    CHECK(!pd("--1", &d));
    /* Slices are not NUL-terminated: the digits after n must be ignored. */
    CHECK(sqe_parse_double("1.25999", 4, &d) && d == 1.25);
    char long_num[100];
    memset(long_num, '1', sizeof long_num);
    CHECK(sqe_parse_double(long_num, 80, &d) && fabs(d / 1.1111111111111111e79 - 1) < 1e-15);

    /* The fast path must agree with strtod on every input. */
    srand(12345);
    int mismatches = 0;
    for (int i = 0; i < 20000; i++) {
        char buf[64];
        switch (i % 3) {
        case 0:
            snprintf(buf, sizeof buf, "%d.%0*d", rand() % 100000, 1 + rand() % 9,
                     rand() % 1000000000);
            break;
        case 1:
            snprintf(buf, sizeof buf, "%.17g",
                     (double)rand() / RAND_MAX * pow(10, rand() % 40 - 20));
            break;
        default:
            snprintf(buf, sizeof buf, "%de%d", rand() % 100000, rand() % 60 - 30);
            break;
        }
        double want = strtod(buf, NULL), got;
        if (!pd(buf, &got) || got != want) mismatches++;
    }
    CHECK(mismatches == 0);
}

static bool pdec(const char *s, int p, int sc, long long want) {
    sqe_i128 v = 0;
    return sqe_parse_decimal(s, strlen(s), p, sc, &v) && v == want;
}

static bool pdec_fails(const char *s, int p, int sc) {
    sqe_i128 v;
    return !sqe_parse_decimal(s, strlen(s), p, sc, &v);
}

static void test_parse_decimal(void) {
    CHECK(pdec("12.345", 10, 2, 1235));
    CHECK(pdec("-12.345", 10, 2, -1235));
    CHECK(pdec("12.344", 10, 2, 1234));
    CHECK(pdec("12", 10, 2, 1200));
    CHECK(pdec("+7", 3, 0, 7));
    CHECK(pdec("1.2e3", 10, 2, 120000));
    CHECK(pdec("1.2E+3", 10, 0, 1200));
    CHECK(pdec("5e-3", 10, 2, 1));
    CHECK(pdec("1e-2", 10, 2, 1));
    CHECK(pdec("4e-3", 10, 2, 0));
    CHECK(pdec(".5", 10, 0, 1));
    CHECK(pdec("-.5", 10, 0, -1));
    CHECK(pdec("0.004", 10, 2, 0));
    CHECK(pdec("-0.001", 10, 2, 0));
    CHECK(pdec("0", 1, 0, 0));
    CHECK(pdec("0e999999", 5, 2, 0));
    CHECK(pdec("99.99", 4, 2, 9999));
    CHECK(pdec_fails("99.995", 4, 2)); /* rounds up to 100.00 */
    CHECK(pdec_fails("12345", 4, 0));
    CHECK(pdec_fails("1e5", 5, 0));
    CHECK(pdec_fails("abc", 10, 2));
    CHECK(pdec_fails("", 10, 2));
    CHECK(pdec_fails("1e", 10, 2));
    CHECK(pdec_fails("1.2.3", 10, 2));
    CHECK(pdec_fails(" 1", 10, 2));
    sqe_i128 v = 0;
    CHECK(sqe_parse_decimal("99999999999999999999999999999999999999", 38, 38, 0, &v) &&
          v == sqe_pow10_i128[38] - 1);
    CHECK(pdec_fails("100000000000000000000000000000000000000", 38, 0));
    CHECK(sqe_parse_decimal("0.00000000000000000000000000000000000001", 40, 38, 38, &v) && v == 1);
}

/* ----------------------------------------------------------- date/time */

static bool pdate(const char *s, int32_t want) {
    int32_t d = -12345;
    return sqe_parse_date(s, strlen(s), &d) && d == want;
}

static bool pdate_fails(const char *s) {
    int32_t d;
    return !sqe_parse_date(s, strlen(s), &d);
}

static const char *fmt_date(int32_t days) {
    static char buf[32];
    sqe_date_format(days, buf, sizeof buf);
    return buf;
}

static const char *fmt_ts(int64_t us) {
    static char buf[48];
    sqe_timestamp_format(us, buf, sizeof buf);
    return buf;
}

static const char *ts_roundtrip(const char *s) {
    int64_t us;
    if (!sqe_parse_timestamp(s, strlen(s), &us)) return "invalid";
    return fmt_ts(us);
}

static void test_dates(void) {
    CHECK(sqe_date_from_ymd(1970, 1, 1) == 0);
    CHECK(sqe_date_from_ymd(1969, 12, 31) == -1);
    CHECK(sqe_date_from_ymd(2000, 3, 1) == 11017);
    CHECK(sqe_date_from_ymd(2024, 1, 5) == 19727);
    CHECK(sqe_ymd_valid(2000, 2, 29));
    CHECK(!sqe_ymd_valid(1900, 2, 29));
    CHECK(sqe_ymd_valid(2024, 2, 29));
    CHECK(!sqe_ymd_valid(2023, 2, 29));
    CHECK(!sqe_ymd_valid(2023, 4, 31));
    CHECK(!sqe_ymd_valid(2023, 13, 1));
    CHECK(!sqe_ymd_valid(2023, 0, 1));

    CHECK(pdate("1970-01-01", 0));
    CHECK(pdate("2000-02-29", 11016));
    CHECK(pdate("2024-1-5", 19727));
    CHECK(pdate("2024-01-05", 19727));
    CHECK(pdate_fails("1900-02-29"));
    CHECK(pdate_fails("2023-02-29"));
    CHECK(pdate_fails("2024-13-01"));
    CHECK(pdate_fails("2024-00-10"));
    CHECK(pdate_fails("2024-01-32"));
    CHECK(pdate_fails("24-01-01"));
    CHECK(pdate_fails("2024-01-05x"));
    CHECK(pdate_fails("2024-001-05"));
    CHECK(pdate_fails("2024/01/05"));
    CHECK(pdate_fails(""));
    CHECK(pdate_fails("2024-01-05 10:00:00"));
    int32_t d;
    CHECK(sqe_parse_date("2024-01-05T", 10, &d) && d == 19727); /* slice */

    CHECK_STR(fmt_date(0), "1970-01-01");
    CHECK_STR(fmt_date(-1), "1969-12-31");
    CHECK_STR(fmt_date(11016), "2000-02-29");
    CHECK_STR(fmt_date(sqe_date_from_ymd(1, 1, 1)), "0001-01-01");
    CHECK_STR(fmt_date(sqe_date_from_ymd(10000, 1, 1)), "+10000-01-01");
    CHECK_STR(fmt_date(sqe_date_from_ymd(-1, 3, 1)), "-0001-03-01");

    /* Every day over ~2,700 years round-trips through y/m/d. */
    int bad = 0;
    for (int32_t day = -500000; day <= 500000; day += 7) {
        int y, m, dd;
        sqe_date_to_ymd(day, &y, &m, &dd);
        if (!sqe_ymd_valid(y, m, dd) || sqe_date_from_ymd(y, m, dd) != day) bad++;
    }
    CHECK(bad == 0);
}

static void test_timestamps(void) {
    int64_t us = 1;
    CHECK(sqe_parse_timestamp("1970-01-01", 10, &us) && us == 0);
    CHECK(sqe_parse_timestamp("1970-01-01 00:00:01", 19, &us) && us == 1000000);
    CHECK_STR(ts_roundtrip("2024-01-05 10:00:00"), "2024-01-05 10:00:00.000");
    CHECK_STR(ts_roundtrip("2024-01-05T10:00"), "2024-01-05 10:00:00.000");
    CHECK_STR(ts_roundtrip("2024-01-05"), "2024-01-05 00:00:00.000");
    CHECK_STR(ts_roundtrip("2024-01-05 10:00:00.5"), "2024-01-05 10:00:00.500");
    CHECK_STR(ts_roundtrip("2024-01-05 10:00:00.123456"), "2024-01-05 10:00:00.123456");
    CHECK_STR(ts_roundtrip("2024-01-05 10:00:00.123456789"), "2024-01-05 10:00:00.123456");
    CHECK_STR(ts_roundtrip("2024-01-05 10:00:00.001"), "2024-01-05 10:00:00.001");
    CHECK_STR(ts_roundtrip("2024-1-5 1:2:3"), "2024-01-05 01:02:03.000");
    CHECK_STR(ts_roundtrip("1969-12-31 23:59:59.999999"), "1969-12-31 23:59:59.999999");
    CHECK_STR(ts_roundtrip("2024-01-05 24:00:00"), "invalid");
    CHECK_STR(ts_roundtrip("2024-01-05 10:60:00"), "invalid");
    CHECK_STR(ts_roundtrip("2024-01-05 10:00:00."), "invalid");
    CHECK_STR(ts_roundtrip("2024-01-05 10"), "invalid");
    CHECK_STR(ts_roundtrip("2024-01-05 "), "invalid");
    CHECK_STR(ts_roundtrip("2024-01-05 10:00:00Z"), "invalid");
    CHECK_STR(fmt_ts(-1), "1969-12-31 23:59:59.999999");
    CHECK_STR(fmt_ts(-1000), "1969-12-31 23:59:59.999");
    CHECK_STR(fmt_ts(0), "1970-01-01 00:00:00.000");
}

/* ------------------------------------------------------------ decimals */

static const char *fmt_dec(long long unscaled, int scale) {
    static char buf[64];
    sqe_decimal_format(unscaled, scale, buf, sizeof buf);
    return buf;
}

static void test_decimal(void) {
    CHECK_STR(fmt_dec(150, 2), "1.50");
    CHECK_STR(fmt_dec(-5, 2), "-0.05");
    CHECK_STR(fmt_dec(0, 2), "0.00");
    CHECK_STR(fmt_dec(123, 0), "123");
    CHECK_STR(fmt_dec(-123, 0), "-123");
    CHECK_STR(fmt_dec(1, 5), "0.00001");
    char buf[64];
    sqe_decimal_format(-(sqe_pow10_i128[38] - 1), 0, buf, sizeof buf);
    CHECK_STR(buf, "-99999999999999999999999999999999999999");
    sqe_decimal_format(sqe_pow10_i128[37], 37, buf, sizeof buf);
    CHECK_STR(buf, "1.0000000000000000000000000000000000000");

    sqe_i128 r = 0;
    CHECK(sqe_decimal_rescale(12345, 2, 1, &r) && r == 1235);
    CHECK(sqe_decimal_rescale(-12345, 2, 1, &r) && r == -1235);
    CHECK(sqe_decimal_rescale(12344, 2, 1, &r) && r == 1234);
    CHECK(sqe_decimal_rescale(-5, 2, 1, &r) && r == -1);
    CHECK(sqe_decimal_rescale(15, 1, 3, &r) && r == 1500);
    CHECK(!sqe_decimal_rescale(sqe_pow10_i128[30], 0, 10, &r));
    CHECK(sqe_decimal_rescale(49, 2, 0, &r) && r == 0);
    CHECK(sqe_decimal_fits(999, 3) && !sqe_decimal_fits(1000, 3) && !sqe_decimal_fits(-1000, 3));
    CHECK(sqe_decimal_fits(sqe_pow10_i128[38] - 1, 38));
    CHECK(sqe_decimal_to_double(150, 2) == 1.5);
    CHECK(sqe_decimal_to_double(-1, 1) == -0.1);
    CHECK(sqe_decimal_to_double(sqe_pow10_i128[37] + 1, 37) == 1.0);
    CHECK(sqe_pow10_i128[19] == (sqe_i128)10000000000000000000ULL);
    CHECK(sqe_pow10_i128[38] / sqe_pow10_i128[19] == sqe_pow10_i128[19]);
}

/* ----------------------------------------------------------- formatting */

static void test_format(void) {
    CHECK_STR(fmt_double(0.1), "0.1");
    CHECK_STR(fmt_double(1e20), "1.0E20");
    CHECK_STR(fmt_double(100.0), "100.0");
    CHECK_STR(fmt_double(1234567.0), "1234567.0");
    CHECK_STR(fmt_double(12345678.0), "1.2345678E7");
    CHECK_STR(fmt_double(1e7), "1.0E7");
    CHECK_STR(fmt_double(9999999.0), "9999999.0");
    CHECK_STR(fmt_double(1.5e-4), "1.5E-4");
    CHECK_STR(fmt_double(0.001), "0.001");
    CHECK_STR(fmt_double(0.0001), "1.0E-4");
    CHECK_STR(fmt_double(3.0), "3.0");
    CHECK_STR(fmt_double(-2.5), "-2.5");
    CHECK_STR(fmt_double(0.0), "0.0");
    CHECK_STR(fmt_double(-0.0), "-0.0");
    CHECK_STR(fmt_double(1.0 / 3), "0.3333333333333333");
    CHECK_STR(fmt_double(2.0 / 3), "0.6666666666666666");
    CHECK_STR(fmt_double(0.1 + 0.2), "0.30000000000000004");
    CHECK_STR(fmt_double(123456789.123), "1.23456789123E8");
    CHECK_STR(fmt_double(-1e-5), "-1.0E-5");
    CHECK_STR(fmt_double(1.7976931348623157e308), "1.7976931348623157E308");
    CHECK_STR(fmt_double(4.9e-324), "4.9E-324");
    CHECK_STR(fmt_double(NAN), "NaN");
    CHECK_STR(fmt_double(INFINITY), "Infinity");
    CHECK_STR(fmt_double(-INFINITY), "-Infinity");
    CHECK_STR(fmt_real(0.1f), "0.1");
    CHECK_STR(fmt_real(1.1f), "1.1");
    CHECK_STR(fmt_real(0.3f), "0.3");
    CHECK_STR(fmt_real(16777216.0f), "1.6777216E7");
    CHECK_STR(fmt_real(3.4028235e38f), "3.4028235E38");
    CHECK_STR(fmt_real(2.5f), "2.5");

    /* Every formatted double reads back to the same bits. */
    srand(99);
    int bad = 0;
    for (int i = 0; i < 20000; i++) {
        uint64_t bits = ((uint64_t)rand() << 42) ^ ((uint64_t)rand() << 21) ^ (uint64_t)rand();
        double d, back;
        memcpy(&d, &bits, sizeof d);
        const char *text = fmt_double(d);
        if (!sqe_parse_double(text, strlen(text), &back) ||
            (memcmp(&back, &d, sizeof d) != 0 && !isnan(d)))
            bad++;
    }
    CHECK(bad == 0);

    sqe_value v = dec(150, 10, 2);
    CHECK_STR(fmt(&v), "1.50");
    v = dec(-5, 3, 2);
    CHECK_STR(fmt(&v), "-0.05");
    v = sqe_value_bool(true);
    CHECK_STR(fmt(&v), "true");
    v = sqe_value_bool(false);
    CHECK_STR(fmt(&v), "false");
    v = sqe_value_int(SQE_T_BIGINT, INT64_MIN);
    CHECK_STR(fmt(&v), "-9223372036854775808");
    v = sqe_value_int(SQE_T_DATE, 19727);
    CHECK_STR(fmt(&v), "2024-01-05");
    v = sqe_value_int(SQE_T_TIMESTAMP, 1704448800000000LL);
    CHECK_STR(fmt(&v), "2024-01-05 10:00:00.000");
    v = sqe_value_null(sqe_type_make(SQE_T_INTEGER));
    CHECK_STR(fmt(&v), "NULL");
    v = str("héllo");
    CHECK_STR(fmt(&v), "héllo");
}

static void test_value_cmp(void) {
    sqe_value a = sqe_value_int(SQE_T_INTEGER, 1), b = sqe_value_int(SQE_T_INTEGER, 2);
    CHECK(sqe_value_cmp(&a, &b) < 0 && sqe_value_cmp(&b, &a) > 0 && sqe_value_cmp(&a, &a) == 0);
    sqe_value n = sqe_value_double(NAN), one = sqe_value_double(1),
              inf = sqe_value_double(INFINITY);
    CHECK(sqe_value_cmp(&n, &inf) > 0 && sqe_value_cmp(&one, &n) < 0 && sqe_value_cmp(&n, &n) == 0);
    sqe_value d1 = dec(150, 5, 2), d2 = dec(15, 5, 1), d3 = dec(151, 5, 2);
    CHECK(sqe_value_cmp(&d1, &d2) == 0 && sqe_value_cmp(&d1, &d3) < 0 &&
          sqe_value_cmp(&d3, &d2) > 0);
    sqe_value s1 = str("abc"), s2 = str("abd"), s3 = str("ab");
    CHECK(sqe_value_cmp(&s1, &s2) < 0 && sqe_value_cmp(&s3, &s1) < 0);
}

/* ---------------------------------------------------------------- casts */

static void test_cast_numbers(void) {
    CHECK_STR(cast(sqe_value_double(2.5), "integer", false), "3");
    CHECK_STR(cast(sqe_value_double(-2.5), "integer", false), "-3");
    CHECK_STR(cast(sqe_value_double(2.4), "bigint", false), "2");
    CHECK_STR(cast(sqe_value_int(SQE_T_INTEGER, 300), "tinyint", false),
              "ERR NUMERIC_VALUE_OUT_OF_RANGE: value 300 out of range for tinyint");
    CHECK_STR(cast(sqe_value_double(300.2), "tinyint", false),
              "ERR NUMERIC_VALUE_OUT_OF_RANGE: value 300 out of range for tinyint");
    CHECK_STR(cast(sqe_value_double(127.4), "tinyint", false), "127");
    CHECK_STR(cast(sqe_value_double(1e20), "bigint", false),
              "ERR NUMERIC_VALUE_OUT_OF_RANGE: value 1.0E20 out of range for bigint");
    CHECK_STR(cast(sqe_value_double(NAN), "integer", false),
              "ERR INVALID_DATA: cannot cast NaN to integer");
    CHECK_STR(cast(sqe_value_double(INFINITY), "integer", false),
              "ERR NUMERIC_VALUE_OUT_OF_RANGE: value Infinity out of range for integer");
    CHECK_STR(cast(sqe_value_int(SQE_T_BIGINT, 40000), "smallint", false),
              "ERR NUMERIC_VALUE_OUT_OF_RANGE: value 40000 out of range for smallint");
    CHECK_STR(cast(sqe_value_int(SQE_T_BIGINT, -32768), "smallint", false), "-32768");
    CHECK_STR(cast(sqe_value_bool(true), "integer", false), "1");
    CHECK_STR(cast(sqe_value_bool(false), "double", false), "0.0");
    CHECK_STR(cast(sqe_value_int(SQE_T_INTEGER, 5), "boolean", false), "true");
    CHECK_STR(cast(sqe_value_int(SQE_T_INTEGER, 0), "boolean", false), "false");
    CHECK_STR(cast(sqe_value_double(0.5), "boolean", false), "true");
    CHECK_STR(cast(dec(25, 3, 1), "integer", false), "3");
    CHECK_STR(cast(dec(-25, 3, 1), "integer", false), "-3");
    CHECK_STR(cast(dec(30050, 5, 2), "tinyint", false),
              "ERR NUMERIC_VALUE_OUT_OF_RANGE: value 300.50 out of range for tinyint");
    CHECK_STR(cast(sqe_value_int(SQE_T_BIGINT, 1LL << 40), "real", false), "1.0995116E12");
    CHECK_STR(cast(sqe_value_double(1e300), "real", false),
              "ERR NUMERIC_VALUE_OUT_OF_RANGE: value 1.0E300 out of range for real");
    CHECK_STR(cast(sqe_value_double(0.1), "real", false), "0.1");
    CHECK_STR(cast(sqe_value_int(SQE_T_INTEGER, 42), "double", false), "42.0");
}

static void test_cast_decimals(void) {
    CHECK_STR(cast(dec(12345, 5, 2), "decimal(4,1)", false), "123.5");
    CHECK_STR(cast(dec(12345, 5, 2), "decimal(3,1)", false),
              "ERR NUMERIC_VALUE_OUT_OF_RANGE: value 123.45 out of range for decimal(3,1)");
    CHECK_STR(cast(dec(-5, 3, 2), "decimal(2,1)", false), "-0.1");
    CHECK_STR(cast(dec(5, 3, 1), "decimal(10,4)", false), "0.5000");
    CHECK_STR(cast(dec(150, 3, 2), "double", false), "1.5");
    CHECK_STR(cast(sqe_value_double(0.1), "decimal(20,18)", false), "0.100000000000000000");
    CHECK_STR(cast(sqe_value_double(1.005), "decimal(3,2)", false), "1.01");
    CHECK_STR(cast(sqe_value_double(-2.5), "decimal(2,0)", false), "-3");
    CHECK_STR(cast(sqe_value_double(1e7), "decimal(10,1)", false), "10000000.0");
    CHECK_STR(cast(sqe_value_double(1234.5), "decimal(3,1)", false),
              "ERR NUMERIC_VALUE_OUT_OF_RANGE: value 1234.5 out of range for decimal(3,1)");
    CHECK_STR(cast(sqe_value_double(NAN), "decimal(3,1)", false),
              "ERR INVALID_DATA: cannot cast NaN to decimal(3,1)");
    CHECK_STR(cast(sqe_value_int(SQE_T_INTEGER, 100), "decimal(3,1)", false),
              "ERR NUMERIC_VALUE_OUT_OF_RANGE: value 100 out of range for decimal(3,1)");
    CHECK_STR(cast(sqe_value_int(SQE_T_INTEGER, 99), "decimal(3,1)", false), "99.0");
    CHECK_STR(cast(str(" 12.345 "), "decimal(10,2)", false), "12.35");
    CHECK_STR(cast(str("1e400"), "decimal(10,2)", false),
              "ERR NUMERIC_VALUE_OUT_OF_RANGE: value 1e400 out of range for decimal(10,2)");
    CHECK_STR(cast(str("x1"), "decimal(10,2)", false),
              "ERR INVALID_DATA: cannot cast 'x1' to decimal(10,2)");
    CHECK_STR(cast(sqe_value_bool(true), "decimal(3,2)", false), "1.00");
}

static void test_cast_strings(void) {
    CHECK_STR(cast(str(" 42 "), "integer", false), "42");
    CHECK_STR(cast(str("-7"), "tinyint", false), "-7");
    CHECK_STR(cast(str("abc"), "integer", false), "ERR INVALID_DATA: cannot cast 'abc' to integer");
    CHECK_STR(cast(str(""), "integer", false), "ERR INVALID_DATA: cannot cast '' to integer");
    CHECK_STR(cast(str("1.5"), "integer", false), "ERR INVALID_DATA: cannot cast '1.5' to integer");
    CHECK_STR(cast(str("300"), "tinyint", false),
              "ERR NUMERIC_VALUE_OUT_OF_RANGE: value 300 out of range for tinyint");
    CHECK_STR(cast(str("99999999999999999999"), "bigint", false),
              "ERR NUMERIC_VALUE_OUT_OF_RANGE: value 99999999999999999999 out of range for bigint");
    CHECK_STR(cast(str("TRUE"), "boolean", false), "true");
    CHECK_STR(cast(str("t"), "boolean", false), "true");
    CHECK_STR(cast(str("F"), "boolean", false), "false");
    CHECK_STR(cast(str("1"), "boolean", false), "true");
    CHECK_STR(cast(str(" 0 "), "boolean", false), "false");
    CHECK_STR(cast(str("yes"), "boolean", false), "ERR INVALID_DATA: cannot cast 'yes' to boolean");
    CHECK_STR(cast(str(" 1e3 "), "double", false), "1000.0");
    CHECK_STR(cast(str("NaN"), "double", false), "NaN");
    CHECK_STR(cast(str("1.5x"), "double", false), "ERR INVALID_DATA: cannot cast '1.5x' to double");
    CHECK_STR(cast(str("1e39"), "real", false), "Infinity");
    CHECK_STR(cast(str("2.5"), "real", false), "2.5");

    CHECK_STR(cast(sqe_value_int(SQE_T_INTEGER, 42), "varchar", false), "42");
    CHECK_STR(cast(sqe_value_double(1e7), "varchar", false), "1.0E7");
    CHECK_STR(cast(sqe_value_int(SQE_T_DATE, 19727), "varchar", false), "2024-01-05");
    CHECK_STR(cast(sqe_value_bool(true), "string", false), "true");
    CHECK_STR(cast(dec(-5, 3, 2), "varchar", false), "-0.05");
    CHECK_STR(cast(str("abcdef"), "varchar(3)", false), "abc");
    CHECK_STR(cast(str("abcdef"), "char(8)", false), "abcdef  ");
    CHECK_STR(cast(str("h\xc3\xa9llo"), "varchar(2)", false), "h\xc3\xa9");
    CHECK_STR(cast(sqe_value_int(SQE_T_INTEGER, 12345), "varchar(3)", false), "123");
    /* VARBINARY renders as hex bytes (the Trino CLI form) */
    CHECK_STR(cast(str("bytes"), "varbinary", false), "62 79 74 65 73");

    sqe_value in = sqe_value_int(SQE_T_INTEGER, 1), out;
    sqe_error err;
    CHECK(!sqe_value_cast(&in, T("varchar"), false, NULL, &out, &err) &&
          err.cls == SQE_ERR_INTERNAL);
    in = str("same");
    CHECK(sqe_value_cast(&in, T("varchar(10)"), false, NULL, &out, &err) &&
          out.v.s.ptr == in.v.s.ptr && out.type.length == 10);
}

static void test_cast_datetime(void) {
    CHECK_STR(cast(str("2024-01-05"), "date", false), "2024-01-05");
    CHECK_STR(cast(str(" 2024-1-5 "), "date", false), "2024-01-05");
    CHECK_STR(cast(str("2024-02-30"), "date", false),
              "ERR INVALID_DATA: cannot cast '2024-02-30' to date");
    CHECK_STR(cast(str("2024-01-05 10:00:00"), "timestamp", false), "2024-01-05 10:00:00.000");
    CHECK_STR(cast(str("2024-01-05 25:00"), "timestamp", false),
              "ERR INVALID_DATA: cannot cast '2024-01-05 25:00' to timestamp");
    CHECK_STR(cast(sqe_value_int(SQE_T_DATE, 19727), "timestamp", false),
              "2024-01-05 00:00:00.000");
    CHECK_STR(cast(sqe_value_int(SQE_T_TIMESTAMP, -1), "date", false), "1969-12-31");
    CHECK_STR(cast(sqe_value_int(SQE_T_TIMESTAMP, 1704448800000000LL), "date", false),
              "2024-01-05");
    CHECK_STR(cast(sqe_value_int(SQE_T_TIMESTAMP, 1704448800000000LL), "varchar", false),
              "2024-01-05 10:00:00.000");
    CHECK_STR(cast(sqe_value_int(SQE_T_DATE, 1), "boolean", false),
              "ERR TYPE_MISMATCH: cannot cast date to boolean");
    CHECK_STR(cast(sqe_value_int(SQE_T_INTEGER, 1), "date", false),
              "ERR TYPE_MISMATCH: cannot cast integer to date");
}

static void test_try_cast(void) {
    CHECK_STR(cast(str("abc"), "integer", true), "NULL");
    CHECK_STR(cast(sqe_value_int(SQE_T_INTEGER, 300), "tinyint", true), "NULL");
    CHECK_STR(cast(sqe_value_double(NAN), "bigint", true), "NULL");
    CHECK_STR(cast(str("2023-02-29"), "date", true), "NULL");
    CHECK_STR(cast(sqe_value_int(SQE_T_DATE, 1), "boolean", true), "NULL");
    CHECK_STR(cast(str("12"), "integer", true), "12");
    CHECK_STR(cast(sqe_value_null(T("varchar")), "integer", false), "NULL");
    CHECK_STR(cast(sqe_value_null(sqe_type_make(SQE_T_NULL)), "date", false), "NULL");

    sqe_value in = str("7"), out;
    sqe_error err;
    CHECK(sqe_value_cast(&in, T("bigint"), true, NULL, &out, &err) && !out.is_null &&
          out.v.i == 7 && out.type.id == SQE_T_BIGINT);
    in = str("x");
    CHECK(sqe_value_cast(&in, T("decimal(5,2)"), true, NULL, &out, &err) && out.is_null &&
          sqe_type_equal(out.type, T("decimal(5,2)")));
    /* out may alias in */
    in = sqe_value_int(SQE_T_INTEGER, 9);
    CHECK(sqe_value_cast(&in, T("bigint"), false, NULL, &in, &err) && in.type.id == SQE_T_BIGINT &&
          in.v.i == 9);
}

static void test_timestamp_precision(void) {
    char buf[64];
    int64_t r;
    sqe_type t;
    sqe_error err;
    CHECK(sqe_type_parse("timestamp(3)", &t, &err) && sqe_timestamp_precision(t) == 3);
    CHECK(sqe_type_parse("timestamp", &t, &err) && sqe_timestamp_precision(t) == -1);
    CHECK(!sqe_type_parse("timestamp(13)", &t, &err));
    CHECK_STR(sqe_type_sql_name(sqe_type_timestamp(0), buf, sizeof buf), "timestamp(0)");
    CHECK(!sqe_type_equal(sqe_type_timestamp(0), sqe_type_timestamp(3)));
    sqe_type c;
    CHECK(sqe_type_common(sqe_type_timestamp(0), sqe_type_timestamp(6), &c) &&
          sqe_timestamp_precision(c) == 6);
    CHECK(sqe_type_common(sqe_type_timestamp(9), sqe_type_make(SQE_T_TIMESTAMP), &c) &&
          sqe_timestamp_precision(c) == -1);
    CHECK(sqe_type_common(sqe_type_make(SQE_T_DATE), sqe_type_timestamp(2), &c) &&
          sqe_timestamp_precision(c) == 2);
    /* Half up toward +infinity, as Trino's Timestamps.round. */
    CHECK(sqe_timestamp_round(1500000, 0, &r) && r == 2000000);
    CHECK(sqe_timestamp_round(-500000, 0, &r) && r == 0);
    CHECK(sqe_timestamp_round(-500001, 0, &r) && r == -1000000);
    CHECK(sqe_timestamp_round(1234567, 3, &r) && r == 1235000);
    CHECK(sqe_timestamp_round(1234567, 6, &r) && r == 1234567);
    CHECK(sqe_timestamp_round(1234567, -1, &r) && r == 1234567);
    CHECK(!sqe_timestamp_round(INT64_MAX - 10, 0, &r));
    sqe_timestamp_format_p(1500000, 0, buf, sizeof buf);
    CHECK_STR(buf, "1970-01-01 00:00:01");
    sqe_timestamp_format_p(-1, 9, buf, sizeof buf);
    CHECK_STR(buf, "1969-12-31 23:59:59.999999000");
    sqe_timestamp_format_p(1500000, 2, buf, sizeof buf);
    CHECK_STR(buf, "1970-01-01 00:00:01.50");
    sqe_timestamp_format_p(1500000, -1, buf, sizeof buf);
    CHECK_STR(buf, "1970-01-01 00:00:01.500");
}

static void test_time(void) {
    int64_t us;
    int digits;
    char buf[32];
    CHECK(sqe_parse_time("01:02:03.4567", 13, &us, &digits) && us == 3723456700LL && digits == 4);
    CHECK(sqe_parse_time("1:2", 3, &us, &digits) && us == 3720000000LL && digits == 0);
    CHECK(!sqe_parse_time("24:00", 5, &us, &digits));
    CHECK(!sqe_parse_time("10:00:00.", 9, &us, &digits));
    CHECK(!sqe_parse_time("10", 2, &us, &digits));
    sqe_time_format(3723456700LL, 0, buf, sizeof buf);
    CHECK_STR(buf, "01:02:03");
    sqe_time_format(3723456700LL, 9, buf, sizeof buf);
    CHECK_STR(buf, "01:02:03.456700000");
    CHECK(sqe_time_precision(sqe_type_make(SQE_T_TIME)) == 3);
    CHECK_STR(sqe_type_sql_name(sqe_type_time(0), buf, sizeof buf), "time(0)");
    CHECK(sqe_type_can_cast(sqe_type_make(SQE_T_TIMESTAMP), sqe_type_make(SQE_T_TIME)));
    CHECK(!sqe_type_can_cast(sqe_type_make(SQE_T_DATE), sqe_type_make(SQE_T_TIME)));
}

/* Offsets against glibc's own reading of the same tzdata files, 1901..2199
 * (past the tables the footer rule decides). */
static void test_tz_vs_glibc(void) {
    static const char *const zones[] = {"America/New_York", "Europe/London",     "Australia/Sydney",
                                        "Asia/Kolkata",     "America/Sao_Paulo", "Pacific/Chatham",
                                        "Europe/Dublin",    "America/St_Johns"};
    int mismatches = 0;
    for (size_t z = 0; z < sizeof zones / sizeof zones[0]; z++) {
        uint16_t key;
        sqe_error err;
        if (!sqe_tz_key(zones[z], strlen(zones[z]), &key, &err)) {
            CHECK(!"zone loads");
            continue;
        }
        setenv("TZ", zones[z], 1);
        tzset();
        for (int64_t t = -2200000000LL; t < 7200000000LL; t += 86400 * 7 + 3607) {
            time_t tt = (time_t)t;
            struct tm tmv;
            localtime_r(&tt, &tmv);
            if (sqe_tz_offset(key, t) != tmv.tm_gmtoff && mismatches++ < 5)
                fprintf(stderr, "%s at %lld: sqe %d glibc %ld\n", zones[z], (long long)t,
                        sqe_tz_offset(key, t), tmv.tm_gmtoff);
        }
    }
    unsetenv("TZ");
    CHECK(mismatches == 0);
}

static void test_tz(void) {
    uint16_t key, k2;
    sqe_error err;
    char buf[64];
    CHECK(sqe_tz_key("America/New_York", 16, &key, &err));
    CHECK(sqe_tz_key("America/New_York", 16, &k2, &err) && k2 == key); /* interned */
    CHECK_STR(sqe_tz_key_name(key, buf, sizeof buf), "America/New_York");
    CHECK(sqe_tz_offset(key, 1719835200) == -14400);   /* 2024-07-01 12:00 UTC */
    CHECK(sqe_tz_offset(key, 1704110400) == -18000);   /* 2024-01-01 12:00 UTC */
    CHECK(sqe_tz_offset(key, 4118097600LL) == -14400); /* 2100-07-01: footer rule */
    /* Gap: 02:30 on 2024-03-10 does not exist; Joda moves it to 03:30 EDT. */
    CHECK(sqe_tz_local_to_utc(key, 1710037800) == 1710037800 + 5 * 3600);
    /* Overlap: 01:30 on 2024-11-03 happens twice; the earlier (EDT) wins. */
    CHECK(sqe_tz_local_to_utc(key, 1730597400) == 1730597400 + 4 * 3600);
    CHECK(sqe_tz_key("+05:30", 6, &key, &err) && sqe_tz_offset(key, 0) == 19800);
    CHECK_STR(sqe_tz_key_name(key, buf, sizeof buf), "+05:30");
    CHECK(sqe_tz_key("-08", 3, &key, &err) && sqe_tz_offset(key, 0) == -28800);
    CHECK_STR(sqe_tz_key_name(key, buf, sizeof buf), "-08:00");
    CHECK(sqe_tz_key("+00:00", 6, &key, &err) && key == 0);
    CHECK(sqe_tz_key("UTC", 3, &key, &err) && key == 0);
    CHECK(!sqe_tz_key("+15:00", 6, &key, &err));
    CHECK(!sqe_tz_key("Mars/Base", 9, &key, &err));
    CHECK(strstr(err.msg, "Time zone not supported: Mars/Base") != NULL);
    CHECK(!sqe_tz_key("../../etc/passwd", 16, &key, &err));
    CHECK(!sqe_tz_key("zone.tab", 8, &key, &err));
    CHECK(!sqe_tz_key("", 0, &key, &err));
}

static void test_intervals(void) {
    sqe_value v;
    sqe_error err;
    char buf[64];
    CHECK(sqe_interval_parse("3 04:05:06.789", "day to second", false, &v, &err));
    CHECK(v.type.id == SQE_T_INTERVAL_DS &&
          v.v.i == 3 * 86400000LL + 4 * 3600000 + 5 * 60000 + 6789);
    CHECK(sqe_interval_parse("-1-2", "year to month", false, &v, &err));
    CHECK(v.type.id == SQE_T_INTERVAL_YM && v.v.i == -14);
    CHECK(sqe_interval_parse("-2", "day", true, &v, &err) && v.v.i == 2 * 86400000LL);
    CHECK(!sqe_interval_parse("1:2", "day to second", false, &v, &err));
    CHECK(strstr(err.msg, "'d h:m:s[.fff]'") != NULL);
    CHECK(!sqe_interval_parse("1", "second to day", false, &v, &err));
    CHECK(!sqe_interval_parse("2147483648", "month", false, &v, &err));
    CHECK(sqe_interval_parse("-2147483648", "month", false, &v, &err));
    sqe_interval_format(SQE_T_INTERVAL_DS, -1, buf, sizeof buf);
    CHECK_STR(buf, "-0 00:00:00.001");
    sqe_interval_format(SQE_T_INTERVAL_DS, INT64_MIN, buf, sizeof buf);
    CHECK_STR(buf, "-106751991167 07:12:55.808");
    sqe_interval_format(SQE_T_INTERVAL_YM, 25, buf, sizeof buf);
    CHECK_STR(buf, "2-1");
    sqe_type t;
    CHECK(sqe_type_parse_sql("INTERVAL Day To Second", &t, &err) && t.id == SQE_T_INTERVAL_DS);
    CHECK(sqe_type_parse_sql("interval year to month", &t, &err) && t.id == SQE_T_INTERVAL_YM);
    CHECK(!sqe_type_parse_sql("interval day", &t, &err));
    CHECK(!sqe_type_parse("interval year to month", &t, &err)); /* no interval columns */
    CHECK(sqe_type_width(t) == 8);
    CHECK(!sqe_type_can_cast(sqe_type_make(SQE_T_VARCHAR), t));
    CHECK(sqe_type_can_cast(t, sqe_type_make(SQE_T_VARCHAR)));
    CHECK(!sqe_type_can_cast(sqe_type_make(SQE_T_INTERVAL_DS), t));
}

/* The shortest-digits search the fast path must agree with: the first of
 * 15..17 significant digits that reads back as d, trailing zeros dropped,
 * as "d.ddd" digits + exponent. */
static void ref_digits(double d, char *dig, int *n, int *e) {
    char tmp[48];
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(tmp, sizeof tmp, "%.*e", digits - 1, d);
        if (digits == 17 || strtod(tmp, NULL) == d) break;
    }
    const char *s = tmp + (tmp[0] == '-');
    *n = 0;
    for (; *s && *s != 'e'; s++)
        if (*s != '.') dig[(*n)++] = *s;
    *e = atoi(s + 1);
    while (*n > 1 && dig[*n - 1] == '0') (*n)--;
    dig[*n] = 0;
}

/* Formats d and reads the digits and exponent back out of Java's layout. */
static void got_digits(double d, char *dig, int *n, int *e) {
    const char *s = fmt_double(d);
    s += s[0] == '-';
    const char *E = strchr(s, 'E');
    char mant[64];
    size_t ml = E ? (size_t)(E - s) : strlen(s);
    memcpy(mant, s, ml);
    mant[ml] = 0;
    int dot = (int)(strchr(mant, '.') - mant);
    int first = 0;
    char all[64];
    int na = 0;
    for (size_t i = 0; i < ml; i++)
        if (mant[i] != '.') all[na++] = mant[i];
    while (first < na - 1 && all[first] == '0') first++;
    *e = (dot - 1 - first) + (E ? atoi(E + 1) : 0);
    *n = 0;
    for (int i = first; i < na; i++) dig[(*n)++] = all[i];
    while (*n > 1 && dig[*n - 1] == '0') (*n)--;
    dig[*n] = 0;
}

/* The fast path for short decimals (value.c short_decimal) against the
 * snprintf/strtod search on random prices, random scaled integers and
 * random bit patterns. */
static void test_format_double_fast_path(void) {
    srand(12345);
    int bad = 0;
    for (int i = 0; i < 300000 && bad < 5; i++) {
        double d;
        switch (i % 3) {
        case 0:
            d = (double)(rand() % 10000000) / 100.0;
            break;
        case 1:
            d = (double)((int64_t)rand() * rand() % 1000000000000LL) / pow(10, rand() % 19);
            break;
        default: {
            uint64_t u = ((uint64_t)rand() << 42) ^ ((uint64_t)rand() << 21) ^ (uint64_t)rand();
            memcpy(&d, &u, sizeof d);
            if (!isfinite(d) || d == 0) continue;
        }
        }
        if (i & 1) d = -d;
        if (d == 0) continue;
        char want[32], got[32];
        int wn, we, gn, ge;
        ref_digits(d, want, &wn, &we);
        got_digits(d, got, &gn, &ge);
        if (strcmp(want, got) != 0 || we != ge) {
            bad++;
            fprintf(stderr, "format %.17g: got %s (%s e%d), want %s e%d\n", d, fmt_double(d), got,
                    ge, want, we);
        }
    }
    CHECK(bad == 0);
}

int main(void) {
    g_arena = sqe_arena_new(0);
    RUN(test_type_names);
    RUN(test_type_parse_errors);
    RUN(test_type_common);
    RUN(test_strings);
    RUN(test_parse_int64);
    RUN(test_parse_bool);
    RUN(test_parse_double);
    RUN(test_parse_decimal);
    RUN(test_dates);
    RUN(test_timestamps);
    RUN(test_decimal);
    RUN(test_format);
    RUN(test_format_double_fast_path);
    RUN(test_value_cmp);
    RUN(test_cast_numbers);
    RUN(test_cast_decimals);
    RUN(test_cast_strings);
    RUN(test_cast_datetime);
    RUN(test_try_cast);
    sqe_arena_free(g_arena);
    RUN(test_intervals);
    RUN(test_timestamp_precision);
    RUN(test_time);
    RUN(test_tz);
    RUN(test_tz_vs_glibc);
    return unit_report();
}
