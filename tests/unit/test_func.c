/*
 * test_func.c - the function registry: overload resolution and its errors,
 * every scalar family (arithmetic, comparison, strings, LIKE, math,
 * date/time, casts) including NULL propagation and selection vectors, and
 * every aggregate including DISTINCT, combine and empty input.
 *
 * Helpers play the binder's part: call() binds name(args) from the
 * vectors' types, casts arguments whose type differs from the binding's
 * arg_types (as plan/ would wrap them in CAST), runs the kernel and returns
 * the result vector. Values go in and come out as text (sqe_value_format),
 * so expectations read like SQL results.
 */
#include "func/func.h"
#include "unit.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

static sqe_arena *g_arena;

/* Vectors made by the helpers, freed at the end of each test. */
static sqe_vector *g_vecs[4096];
static int g_n_vecs;

static sqe_vector *track(sqe_vector *v) {
    if (g_n_vecs < (int)SQE_ARRAY_LEN(g_vecs)) g_vecs[g_n_vecs++] = v;
    return v;
}

static void free_vecs(void) {
    for (int i = 0; i < g_n_vecs; i++) sqe_vector_free(g_vecs[i]);
    g_n_vecs = 0;
    sqe_arena_reset(g_arena);
}

static sqe_type T(const char *name) {
    sqe_type t;
    sqe_error err;
    if (!sqe_type_parse(name, &t, &err)) {
        fprintf(stderr, "bad type %s\n", name);
        abort();
    }
    return t;
}

/* A vector of type `type` from text values (NULL = SQL NULL). */
static sqe_vector *vec_text(sqe_type type, int n, const char *const *vals) {
    sqe_vector *v = track(sqe_vector_new(type));
    for (int i = 0; i < n; i++) {
        if (!vals[i]) {
            sqe_vector_set_null(v, (uint32_t)i);
            continue;
        }
        sqe_value in = sqe_value_string(vals[i], (uint32_t)strlen(vals[i])), out;
        sqe_error err;
        if (!sqe_value_cast(&in, type, false, g_arena, &out, &err)) {
            fprintf(stderr, "bad literal %s: %s\n", vals[i], err.msg);
            abort();
        }
        sqe_vector_set_value(v, (uint32_t)i, &out);
    }
    return v;
}

#define VEC(type, ...)                                                                             \
    vec_text(T(type), (int)(sizeof((const char *[]){__VA_ARGS__}) / sizeof(char *)),               \
             (const char *[]){__VA_ARGS__})

/* Text of row `row` ("NULL" for NULL), in a rotating static buffer. */
static const char *txt(const sqe_vector *v, uint32_t row) {
    static char bufs[8][256];
    static int k;
    char *b = bufs[k++ & 7];
    if (!v) return "(no vector)";
    sqe_value val;
    sqe_vector_get_value(v, row, &val);
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    sqe_value_format(&val, &sb);
    snprintf(b, 256, "%s", sb.data ? sb.data : "");
    sqe_strbuf_free(&sb);
    return b;
}

static const char *tname(sqe_type t) {
    static char bufs[4][64];
    static int k;
    char *b = bufs[k++ & 3];
    return sqe_type_sql_name(t, b, 64);
}

static sqe_func_binding g_last; /* binding of the last call() */

/* Binds and runs name(args) over rows sel[0..n) (or 0..n-1). consts may be
 * NULL. Returns the result vector, or NULL with *err filled. */
static sqe_vector *call_ex(const char *name, int n_args, sqe_vector **args,
                           const sqe_value *const *consts, const uint16_t *sel, uint32_t n,
                           sqe_error *err) {
    sqe_type types[8];
    sqe_vector *cast_args[8];
    for (int i = 0; i < n_args; i++) types[i] = args[i]->type;
    sqe_error_clear(err);
    if (!sqe_func_bind_scalar(g_arena, name, n_args, types, consts, &g_last, err)) return NULL;
    for (int i = 0; i < n_args; i++) {
        cast_args[i] = args[i];
        if (!sqe_type_equal(args[i]->type, g_last.arg_types[i])) {
            cast_args[i] = track(sqe_vector_new(g_last.arg_types[i]));
            if (!sqe_func_cast_vector(args[i], cast_args[i], false, sel, n, err)) return NULL;
        }
    }
    sqe_vector *out = track(sqe_vector_new(g_last.ret));
    if (!g_last.kernel(&g_last, cast_args, sel, n, out, err)) return NULL;
    return out;
}

static sqe_error g_err;

static uint32_t g_rows = 1; /* rows call() computes: 0..g_rows-1 */

static sqe_vector *call(const char *name, int n_args, ...) {
    sqe_vector *args[8];
    va_list ap;
    va_start(ap, n_args);
    for (int i = 0; i < n_args; i++) args[i] = va_arg(ap, sqe_vector *);
    va_end(ap);
    return call_ex(name, n_args, args, NULL, NULL, g_rows, &g_err);
}

/* -------------------------------------------------------- registry */

static void test_registry(void) {
    sqe_func_binding b;
    sqe_error err;
    sqe_type ii[2] = {T("integer"), T("bigint")};
    CHECK(sqe_func_bind_scalar(g_arena, "+", 2, ii, NULL, &b, &err));
    CHECK_STR(tname(b.arg_types[0]), "bigint");
    CHECK_STR(tname(b.arg_types[1]), "bigint");
    CHECK_STR(tname(b.ret), "bigint");

    sqe_type id[2] = {T("integer"), T("decimal(5,2)")};
    CHECK(sqe_func_bind_scalar(g_arena, "+", 2, id, NULL, &b, &err));
    CHECK_STR(tname(b.arg_types[0]), "decimal(10,0)");
    CHECK_STR(tname(b.arg_types[1]), "decimal(5,2)");
    CHECK_STR(tname(b.ret), "decimal(13,2)");

    sqe_type dd[2] = {T("double"), T("decimal(5,2)")};
    CHECK(sqe_func_bind_scalar(g_arena, "*", 2, dd, NULL, &b, &err));
    CHECK_STR(tname(b.ret), "double");

    sqe_type ni[2] = {sqe_type_make(SQE_T_NULL), T("integer")};
    CHECK(sqe_func_bind_scalar(g_arena, "-", 2, ni, NULL, &b, &err));
    CHECK_STR(tname(b.ret), "integer");

    sqe_type cmp[2] = {T("integer"), T("double")};
    CHECK(sqe_func_bind_scalar(g_arena, "<", 2, cmp, NULL, &b, &err));
    CHECK_STR(tname(b.arg_types[0]), "double");
    CHECK_STR(tname(b.ret), "boolean");

    sqe_type nn[2] = {sqe_type_make(SQE_T_NULL), sqe_type_make(SQE_T_NULL)};
    CHECK(sqe_func_bind_scalar(g_arena, "=", 2, nn, NULL, &b, &err));
    CHECK_STR(tname(b.arg_types[0]), "varchar");

    sqe_type cv[2] = {T("integer"), T("varchar")};
    CHECK(sqe_func_bind_scalar(g_arena, "concat", 2, cv, NULL, &b, &err));
    CHECK_STR(tname(b.arg_types[0]), "varchar");

    CHECK(!sqe_func_bind_scalar(g_arena, "foo", 2, cv, NULL, &b, &err));
    CHECK(err.cls == SQE_ERR_NOT_FOUND);
    CHECK_STR(err.msg, "function 'foo' not registered");

    sqe_type v1[1] = {T("varchar")};
    CHECK(!sqe_func_bind_scalar(g_arena, "abs", 1, v1, NULL, &b, &err));
    CHECK(err.cls == SQE_ERR_TYPE_MISMATCH);
    CHECK_CONTAINS(err.msg,
                   "unexpected parameters (varchar) for function abs; expected: abs(tinyint)");
    CHECK_CONTAINS(err.msg, "abs(double)");

    CHECK(!sqe_func_bind_scalar(g_arena, "substr", 1, v1, NULL, &b, &err));
    CHECK(err.cls == SQE_ERR_TYPE_MISMATCH);
    CHECK_CONTAINS(err.msg, "substr(varchar, bigint)");

    CHECK(!sqe_func_bind_scalar(g_arena, "sum", 1, ii, NULL, &b, &err));
    CHECK(err.cls == SQE_ERR_NOT_FOUND);
    CHECK(sqe_func_is_aggregate("count") && sqe_func_is_aggregate("SUM") &&
          !sqe_func_is_aggregate("abs"));

    /* Case-insensitive names; varchar(n) keeps its type. */
    sqe_type vn[1] = {T("varchar(10)")};
    CHECK(sqe_func_bind_scalar(g_arena, "LOWER", 1, vn, NULL, &b, &err));
    CHECK_STR(tname(b.arg_types[0]), "varchar(10)");
    free_vecs();
}

/* ------------------------------------------------------ arithmetic */

static void test_arith_int(void) {
    g_rows = 3;
    sqe_vector *o = call("+", 2, VEC("integer", "1", NULL, "-5"), VEC("integer", "2", "3", "5"));
    CHECK_STR(txt(o, 0), "3");
    CHECK_STR(txt(o, 1), "NULL");
    CHECK_STR(txt(o, 2), "0");

    g_rows = 1;
    o = call("+", 2, VEC("bigint", "9223372036854775807"), VEC("bigint", "1"));
    CHECK(o == NULL);
    CHECK(g_err.cls == SQE_ERR_OUT_OF_RANGE);
    CHECK_STR(g_err.msg, "bigint overflow: 9223372036854775807 + 1");

    o = call("*", 2, VEC("integer", "65536"), VEC("integer", "65536"));
    CHECK(o == NULL && g_err.cls == SQE_ERR_OUT_OF_RANGE);
    CHECK_STR(g_err.msg, "integer overflow: 65536 * 65536");

    o = call("+", 2, VEC("tinyint", "127"), VEC("tinyint", "1"));
    CHECK(o == NULL);
    CHECK_STR(g_err.msg, "tinyint overflow: 127 + 1");

    /* Overflow garbage in a NULL row is not an error. */
    g_rows = 2;
    o = call("+", 2, VEC("bigint", "9223372036854775807", "1"), VEC("bigint", NULL, "1"));
    CHECK(o != NULL);
    CHECK_STR(txt(o, 0), "NULL");
    CHECK_STR(txt(o, 1), "2");

    g_rows = 4;
    o = call("/", 2, VEC("integer", "-7", "7", "7", "-7"), VEC("integer", "2", "2", "-2", "-2"));
    CHECK_STR(txt(o, 0), "-3");
    CHECK_STR(txt(o, 1), "3");
    CHECK_STR(txt(o, 2), "-3");
    CHECK_STR(txt(o, 3), "3");
    o = call("%", 2, VEC("integer", "-7", "7", "7", "-7"), VEC("integer", "2", "2", "-2", "-2"));
    CHECK_STR(txt(o, 0), "-1");
    CHECK_STR(txt(o, 2), "1");

    g_rows = 1;
    o = call("/", 2, VEC("bigint", "5"), VEC("bigint", "0"));
    CHECK(o == NULL && g_err.cls == SQE_ERR_DIVISION_BY_ZERO);
    CHECK_STR(g_err.msg, "division by zero");
    o = call("%", 2, VEC("smallint", "5"), VEC("smallint", "0"));
    CHECK(o == NULL && g_err.cls == SQE_ERR_DIVISION_BY_ZERO);
    o = call("/", 2, VEC("bigint", "-9223372036854775808"), VEC("bigint", "-1"));
    CHECK(o == NULL && g_err.cls == SQE_ERR_OUT_OF_RANGE);
    o = call("mod", 2, VEC("bigint", "-9223372036854775808"), VEC("bigint", "-1"));
    CHECK_STR(txt(o, 0), "0");

    /* Division by zero in a row outside the selection: no error, row untouched. */
    sqe_vector *args[2] = {VEC("integer", "10", "10", "10"), VEC("integer", "2", "0", "5")};
    uint16_t sel[2] = {0, 2};
    sqe_error err;
    o = call_ex("/", 2, args, NULL, sel, 2, &err);
    CHECK(o != NULL);
    CHECK_STR(txt(o, 0), "5");
    CHECK_STR(txt(o, 2), "2");
    CHECK(SQE_VEC_DATA(o, int32_t)[1] == 0);

    /* Mixed widths: smallint + integer binds to integer. */
    o = call("+", 2, VEC("smallint", "7"), VEC("integer", "100000"));
    CHECK_STR(tname(g_last.ret), "integer");
    CHECK_STR(txt(o, 0), "100007");

    o = call("-", 1, VEC("integer", "5"));
    CHECK_STR(txt(o, 0), "-5");
    o = call("-", 1, VEC("bigint", "-9223372036854775808"));
    CHECK(o == NULL && g_err.cls == SQE_ERR_OUT_OF_RANGE);
    free_vecs();
}

static void test_arith_float(void) {
    g_rows = 3;
    sqe_vector *o = call("/", 2, VEC("double", "1", "0", "-1"), VEC("double", "0", "0", "0"));
    CHECK(o != NULL);
    CHECK_STR(txt(o, 0), "Infinity");
    CHECK_STR(txt(o, 1), "NaN");
    CHECK_STR(txt(o, 2), "-Infinity");
    g_rows = 1;
    o = call("*", 2, VEC("double", "1.5"), VEC("integer", "3"));
    CHECK_STR(tname(g_last.ret), "double");
    CHECK_STR(txt(o, 0), "4.5");
    o = call("+", 2, VEC("real", "1.5"), VEC("integer", "1"));
    CHECK_STR(tname(g_last.ret), "real");
    CHECK_STR(txt(o, 0), "2.5");
    o = call("%", 2, VEC("double", "7.5"), VEC("double", "2"));
    CHECK_STR(txt(o, 0), "1.5");
    o = call("-", 1, VEC("double", "2.5"));
    CHECK_STR(txt(o, 0), "-2.5");
    free_vecs();
}

static void test_arith_decimal(void) {
    g_rows = 1;
    sqe_vector *o = call("+", 2, VEC("decimal(3,2)", "1.10"), VEC("decimal(4,3)", "2.005"));
    CHECK_STR(tname(g_last.ret), "decimal(5,3)");
    CHECK_STR(txt(o, 0), "3.105");
    o = call("-", 2, VEC("decimal(3,2)", "1.10"), VEC("decimal(4,3)", "2.005"));
    CHECK_STR(txt(o, 0), "-0.905");
    o = call("*", 2, VEC("decimal(3,2)", "1.10"), VEC("decimal(4,3)", "2.005"));
    CHECK_STR(tname(g_last.ret), "decimal(7,5)");
    CHECK_STR(txt(o, 0), "2.20550");
    o = call("/", 2, VEC("decimal(4,2)", "10.00"), VEC("integer", "3"));
    CHECK_STR(tname(g_last.arg_types[1]), "decimal(10,0)");
    CHECK_STR(tname(g_last.ret), "decimal(4,2)");
    CHECK_STR(txt(o, 0), "3.33");
    o = call("/", 2, VEC("decimal(2,0)", "2"), VEC("decimal(2,0)", "3"));
    CHECK_STR(txt(o, 0), "1"); /* 0.67 rounds half up to 1 */
    o = call("/", 2, VEC("decimal(3,1)", "-1.0"), VEC("decimal(2,1)", "0.3"));
    CHECK_STR(tname(g_last.ret), "decimal(4,1)");
    CHECK_STR(txt(o, 0), "-3.3");
    o = call("%", 2, VEC("decimal(3,1)", "10.5"), VEC("decimal(1,0)", "3"));
    CHECK_STR(tname(g_last.ret), "decimal(2,1)");
    CHECK_STR(txt(o, 0), "1.5");
    o = call("/", 2, VEC("decimal(3,1)", "1.0"), VEC("decimal(3,1)", "0.0"));
    CHECK(o == NULL && g_err.cls == SQE_ERR_DIVISION_BY_ZERO);

    /* A dividend that needs a 256-bit intermediate. */
    o = call("/", 2, VEC("decimal(20,0)", "12345678901234567890"),
             VEC("decimal(20,18)", "2.000000000000000000"));
    CHECK_STR(tname(g_last.ret), "decimal(38,18)");
    CHECK_STR(txt(o, 0), "6172839450617283945.000000000000000000");

    o = call("+", 2, VEC("decimal(38,0)", "99999999999999999999999999999999999999"),
             VEC("decimal(38,0)", "1"));
    CHECK(o == NULL && g_err.cls == SQE_ERR_OUT_OF_RANGE);
    CHECK_CONTAINS(g_err.msg, "decimal overflow");

    o = call("-", 1, VEC("decimal(5,2)", "1.25"));
    CHECK_STR(txt(o, 0), "-1.25");
    o = call("+", 2, VEC("decimal(5,2)", "1.25"), VEC("bigint", "2"));
    CHECK_STR(tname(g_last.ret), "decimal(22,2)");
    CHECK_STR(txt(o, 0), "3.25");
    free_vecs();
}

/* ------------------------------------------------------ comparison */

static void test_compare(void) {
    g_rows = 4;
    sqe_vector *o =
        call("<", 2, VEC("bigint", "1", "5", NULL, "-3"), VEC("bigint", "2", "5", "1", "-4"));
    CHECK_STR(txt(o, 0), "true");
    CHECK_STR(txt(o, 1), "false");
    CHECK_STR(txt(o, 2), "NULL");
    CHECK_STR(txt(o, 3), "false");
    o = call("=", 2, VEC("integer", "1", "2", "3", "4"), VEC("double", "1.0", "2.5", "3", "NaN"));
    CHECK_STR(txt(o, 0), "true");
    CHECK_STR(txt(o, 1), "false");
    CHECK_STR(txt(o, 2), "true");
    CHECK_STR(txt(o, 3), "false");

    o = call("=", 2, VEC("varchar", "abc", "a long string value here", "x", ""),
             VEC("varchar", "abc", "a long string value herE", "y", ""));
    CHECK_STR(txt(o, 0), "true");
    CHECK_STR(txt(o, 1), "false");
    CHECK_STR(txt(o, 2), "false");
    CHECK_STR(txt(o, 3), "true");
    o = call("<", 2, VEC("varchar", "abc", "ab", "b", "Z"),
             VEC("varchar", "abd", "abc", "abc", "a"));
    CHECK_STR(txt(o, 0), "true");
    CHECK_STR(txt(o, 1), "true");
    CHECK_STR(txt(o, 2), "false");
    CHECK_STR(txt(o, 3), "true"); /* bytewise: 'Z' < 'a' */

    g_rows = 2;
    o = call(">=", 2, VEC("date", "2024-03-01", "2024-01-01"),
             VEC("date", "2024-03-01", "2024-01-02"));
    CHECK_STR(txt(o, 0), "true");
    CHECK_STR(txt(o, 1), "false");
    o = call("=", 2, VEC("decimal(3,1)", "1.5", "1.5"), VEC("decimal(4,2)", "1.50", "1.51"));
    CHECK_STR(txt(o, 0), "true");
    CHECK_STR(txt(o, 1), "false");
    o = call("<>", 2, VEC("boolean", "true", "false"), VEC("boolean", "true", "true"));
    CHECK_STR(txt(o, 0), "false");
    CHECK_STR(txt(o, 1), "true");
    o = call("<", 2, VEC("date", "2024-01-01", "2024-01-02"),
             VEC("timestamp", "2024-01-01 00:00:01", "2024-01-01 12:00:00"));
    CHECK_STR(tname(g_last.arg_types[0]), "timestamp");
    CHECK_STR(txt(o, 0), "true");
    CHECK_STR(txt(o, 1), "false");

    g_rows = 4;
    o = call("is_distinct_from", 2, VEC("integer", NULL, NULL, "1", "1"),
             VEC("integer", NULL, "1", "1", "2"));
    CHECK_STR(txt(o, 0), "false");
    CHECK_STR(txt(o, 1), "true");
    CHECK_STR(txt(o, 2), "false");
    CHECK_STR(txt(o, 3), "true");
    o = call("is_distinct_from", 2, VEC("varchar", NULL, "a", "NaN", "b"),
             VEC("varchar", "x", "a", "NaN", NULL));
    CHECK_STR(txt(o, 0), "true");
    CHECK_STR(txt(o, 1), "false");
    CHECK_STR(txt(o, 3), "true");
    o = call("is_distinct_from", 2, VEC("double", "NaN", "1", "0", "-0"),
             VEC("double", "NaN", "2", "-0", "0"));
    CHECK_STR(txt(o, 0), "false");
    CHECK_STR(txt(o, 1), "true");
    CHECK_STR(txt(o, 2), "false");
    free_vecs();
}

/* --------------------------------------------------------- strings */

static void test_string(void) {
    g_rows = 3;
    sqe_vector *o = call("||", 2, VEC("varchar", "ab", "a somewhat long ", NULL),
                         VEC("varchar", "cd", "string!", "x"));
    CHECK_STR(txt(o, 0), "abcd");
    CHECK_STR(txt(o, 1), "a somewhat long string!");
    CHECK_STR(txt(o, 2), "NULL");
    o = call("concat", 3, VEC("varchar", "a", "b", "c"), VEC("integer", "1", NULL, "3"),
             VEC("varchar", "x", "y", "z"));
    CHECK_STR(txt(o, 0), "a1x");
    CHECK_STR(txt(o, 1), "NULL");
    CHECK_STR(txt(o, 2), "c3z");

    g_rows = 2;
    o = call("lower", 1, VEC("varchar", "HeLLo ÄÖÜ Straße", "ΑΒΓ Дом"));
    CHECK_STR(txt(o, 0), "hello äöü straße");
    CHECK_STR(txt(o, 1), "αβγ дом");
    o = call("upper", 1, VEC("varchar", "hello äöü", "αβγ дом"));
    CHECK_STR(txt(o, 0), "HELLO ÄÖÜ");
    CHECK_STR(txt(o, 1), "ΑΒΓ ДОМ");
    o = call("length", 1, VEC("varchar", "héllo", ""));
    CHECK_STR(tname(g_last.ret), "bigint");
    CHECK_STR(txt(o, 0), "5");
    CHECK_STR(txt(o, 1), "0");

    g_rows = 1;
    sqe_vector *s = VEC("varchar", "héllo wörld");
    CHECK_STR(txt(call("substr", 2, s, VEC("bigint", "2")), 0), "éllo wörld");
    CHECK_STR(txt(call("substr", 3, s, VEC("bigint", "2"), VEC("bigint", "4")), 0), "éllo");
    CHECK_STR(txt(call("substr", 3, s, VEC("bigint", "-5"), VEC("bigint", "3")), 0), "wör");
    CHECK_STR(txt(call("substr", 2, s, VEC("bigint", "0")), 0), "");
    CHECK_STR(txt(call("substr", 2, s, VEC("bigint", "20")), 0), "");
    CHECK_STR(txt(call("substr", 2, s, VEC("bigint", "-20")), 0), "");
    CHECK_STR(txt(call("substring", 3, s, VEC("integer", "7"), VEC("integer", "100")), 0), "wörld");

    CHECK_STR(txt(call("trim", 1, VEC("varchar", "  a b \t")), 0), "a b");
    CHECK_STR(txt(call("ltrim", 1, VEC("varchar", "  a b  ")), 0), "a b  ");
    CHECK_STR(txt(call("rtrim", 1, VEC("varchar", "  a b  ")), 0), "  a b");
    CHECK_STR(txt(call("trim", 2, VEC("varchar", "xxhixyx"), VEC("varchar", "xy")), 0), "hi");

    CHECK_STR(
        txt(call("replace", 3, VEC("varchar", "a-b-c"), VEC("varchar", "-"), VEC("varchar", "--")),
            0),
        "a--b--c");
    CHECK_STR(txt(call("replace", 2, VEC("varchar", "a-b-c"), VEC("varchar", "-")), 0), "abc");
    CHECK_STR(
        txt(call("replace", 3, VEC("varchar", "abc"), VEC("varchar", ""), VEC("varchar", "x")), 0),
        "xaxbxcx");
    CHECK_STR(txt(call("strpos", 2, VEC("varchar", "héllo"), VEC("varchar", "llo")), 0), "3");
    CHECK_STR(txt(call("strpos", 2, VEC("varchar", "hello"), VEC("varchar", "z")), 0), "0");
    CHECK_STR(txt(call("starts_with", 2, VEC("varchar", "hello"), VEC("varchar", "he")), 0),
              "true");
    CHECK_STR(txt(call("reverse", 1, VEC("varchar", "añb")), 0), "bña");
    CHECK_STR(txt(call("lpad", 3, VEC("varchar", "7"), VEC("bigint", "3"), VEC("varchar", "0")), 0),
              "007");
    CHECK_STR(
        txt(call("rpad", 3, VEC("varchar", "ab"), VEC("bigint", "7"), VEC("varchar", "xy")), 0),
        "abxyxyx");
    CHECK_STR(
        txt(call("lpad", 3, VEC("varchar", "abcdef"), VEC("bigint", "3"), VEC("varchar", "0")), 0),
        "abc");
    CHECK(call("lpad", 3, VEC("varchar", "a"), VEC("bigint", "3"), VEC("varchar", "")) == NULL);
    CHECK_STR(txt(call("split_part", 3, VEC("varchar", "a,b,,c"), VEC("varchar", ","),
                       VEC("bigint", "2")),
                  0),
              "b");
    CHECK_STR(txt(call("split_part", 3, VEC("varchar", "a,b,,c"), VEC("varchar", ","),
                       VEC("bigint", "3")),
                  0),
              "");
    CHECK_STR(txt(call("split_part", 3, VEC("varchar", "a,b,,c"), VEC("varchar", ","),
                       VEC("bigint", "5")),
                  0),
              "NULL");
    CHECK(call("split_part", 3, VEC("varchar", "a"), VEC("varchar", ","), VEC("bigint", "0")) ==
          NULL);
    CHECK(g_err.cls == SQE_ERR_INVALID_ARGUMENT);
    free_vecs();
}

/* ------------------------------------------------------------ LIKE */

static sqe_vector *like(const char *fn, sqe_vector *s, const char *pattern, const char *escape) {
    sqe_vector *args[3];
    const sqe_value *consts[3] = {NULL, NULL, NULL};
    sqe_value pv = sqe_value_string(pattern, (uint32_t)strlen(pattern)), ev;
    int na = 2;
    args[0] = s;
    const char *pv_rows[SQE_BATCH_ROWS];
    for (uint32_t i = 0; i < g_rows; i++) pv_rows[i] = pattern;
    args[1] = vec_text(T("varchar"), (int)g_rows, pv_rows);
    consts[1] = &pv;
    if (escape) {
        ev = sqe_value_string(escape, (uint32_t)strlen(escape));
        for (uint32_t i = 0; i < g_rows; i++) pv_rows[i] = escape;
        args[2] = vec_text(T("varchar"), (int)g_rows, pv_rows);
        consts[2] = &ev;
        na = 3;
    }
    return call_ex(fn, na, args, consts, NULL, g_rows, &g_err);
}

static void test_like(void) {
    g_rows = 5;
    sqe_vector *s =
        VEC("varchar", "abcdef", "xxabcxx", "ab", NULL, "a much longer string with abc inside");
    sqe_vector *o = like("like", s, "%abc%", NULL);
    CHECK_STR(txt(o, 0), "true");
    CHECK_STR(txt(o, 1), "true");
    CHECK_STR(txt(o, 2), "false");
    CHECK_STR(txt(o, 3), "NULL");
    CHECK_STR(txt(o, 4), "true");
    o = like("like", s, "abc%", NULL);
    CHECK_STR(txt(o, 0), "true");
    CHECK_STR(txt(o, 1), "false");
    o = like("like", s, "%def", NULL);
    CHECK_STR(txt(o, 0), "true");
    CHECK_STR(txt(o, 1), "false");
    o = like("like", s, "ab", NULL);
    CHECK_STR(txt(o, 0), "false");
    CHECK_STR(txt(o, 2), "true");
    o = like("like", s, "a%c%f", NULL);
    CHECK_STR(txt(o, 0), "true");
    CHECK_STR(txt(o, 4), "false");
    o = like("like", s, "%", NULL);
    CHECK_STR(txt(o, 2), "true");
    CHECK_STR(txt(o, 3), "NULL");
    o = like("like", s, "a_", NULL);
    CHECK_STR(txt(o, 2), "true");
    CHECK_STR(txt(o, 0), "false");

    g_rows = 3;
    sqe_vector *u = VEC("varchar", "né", "n", "100%");
    o = like("like", u, "n_", NULL);
    CHECK_STR(txt(o, 0), "true"); /* '_' is one character, even a two-byte one */
    CHECK_STR(txt(o, 1), "false");
    o = like("like", u, "%!%", "!");
    CHECK_STR(txt(o, 2), "true");
    CHECK_STR(txt(o, 0), "false");
    o = like("like", u, "1_0!%", "!");
    CHECK_STR(txt(o, 2), "true");
    o = like("like", u, "a!b", "!");
    CHECK(o == NULL && g_err.cls == SQE_ERR_INVALID_ARGUMENT);
    o = like("ilike", VEC("varchar", "HeLLo", "world", "HELP"), "hel%", NULL);
    CHECK_STR(txt(o, 0), "true");
    CHECK_STR(txt(o, 1), "false");
    CHECK_STR(txt(o, 2), "true");

    /* Pattern per row (not constant). */
    g_rows = 3;
    o = call("like", 2, VEC("varchar", "abc", "abc", "abc"), VEC("varchar", "a%", "%b", "_b_"));
    CHECK_STR(txt(o, 0), "true");
    CHECK_STR(txt(o, 1), "false");
    CHECK_STR(txt(o, 2), "true");
    free_vecs();
}

/* ------------------------------------------------------------ math */

static void test_math(void) {
    g_rows = 3;
    sqe_vector *o = call("abs", 1, VEC("integer", "-5", "5", NULL));
    CHECK_STR(tname(g_last.ret), "integer");
    CHECK_STR(txt(o, 0), "5");
    CHECK_STR(txt(o, 2), "NULL");
    g_rows = 1;
    CHECK(call("abs", 1, VEC("bigint", "-9223372036854775808")) == NULL &&
          g_err.cls == SQE_ERR_OUT_OF_RANGE);
    CHECK_STR(txt(call("abs", 1, VEC("decimal(5,2)", "-1.25")), 0), "1.25");

    g_rows = 4;
    o = call("round", 1, VEC("double", "2.5", "-2.5", "1.4", "-0.5"));
    CHECK_STR(txt(o, 0), "3.0");
    CHECK_STR(txt(o, 1), "-3.0");
    CHECK_STR(txt(o, 2), "1.0");
    CHECK_STR(txt(o, 3), "-1.0");
    g_rows = 1;
    o = call("round", 2, VEC("double", "3.14159"), VEC("integer", "2"));
    CHECK_STR(txt(o, 0), "3.14");
    o = call("round", 1, VEC("decimal(5,2)", "12.50"));
    CHECK_STR(tname(g_last.ret), "decimal(4,0)");
    CHECK_STR(txt(o, 0), "13");
    o = call("round", 2, VEC("decimal(5,2)", "-12.45"), VEC("integer", "1"));
    CHECK_STR(tname(g_last.ret), "decimal(6,2)");
    CHECK_STR(txt(o, 0), "-12.50");
    o = call("round", 2, VEC("integer", "125"), VEC("integer", "-1"));
    CHECK_STR(txt(o, 0), "130");
    o = call("round", 1, VEC("bigint", "7"));
    CHECK_STR(txt(o, 0), "7");
    CHECK_STR(txt(call("ceil", 1, VEC("decimal(4,2)", "-1.50")), 0), "-1");
    CHECK_STR(txt(call("floor", 1, VEC("decimal(4,2)", "-1.50")), 0), "-2");
    CHECK_STR(txt(call("ceiling", 1, VEC("double", "1.2")), 0), "2.0");
    CHECK_STR(txt(call("floor", 1, VEC("double", "-1.2")), 0), "-2.0");
    CHECK_STR(txt(call("sqrt", 1, VEC("integer", "16")), 0), "4.0");
    CHECK_STR(txt(call("sqrt", 1, VEC("double", "-1")), 0), "NaN");
    CHECK_STR(txt(call("power", 2, VEC("integer", "2"), VEC("integer", "10")), 0), "1024.0");
    CHECK_STR(txt(call("ln", 1, VEC("double", "0")), 0), "-Infinity");
    CHECK_STR(txt(call("log10", 1, VEC("bigint", "1000")), 0), "3.0");
    CHECK_STR(txt(call("exp", 1, VEC("double", "0")), 0), "1.0");
    CHECK_STR(txt(call("mod", 2, VEC("integer", "-7"), VEC("integer", "3")), 0), "-1");
    CHECK_STR(txt(call("sign", 1, VEC("integer", "-7")), 0), "-1");
    CHECK_STR(txt(call("sign", 1, VEC("decimal(5,2)", "3.50")), 0), "1");
    CHECK_STR(
        txt(call("greatest", 3, VEC("integer", "1"), VEC("bigint", "7"), VEC("integer", "3")), 0),
        "7");
    CHECK_STR(tname(g_last.ret), "bigint");
    CHECK_STR(txt(call("least", 2, VEC("varchar", "pear"), VEC("varchar", "apple")), 0), "apple");
    CHECK_STR(txt(call("greatest", 2, VEC("integer", "1"), VEC("integer", NULL)), 0), "NULL");
    CHECK_STR(txt(call("least", 2, VEC("double", "1.5"), VEC("integer", "1")), 0), "1.0");
    /* NaN never wins over a number */
    CHECK_STR(txt(call("greatest", 2, VEC("double", "NaN"), VEC("double", "1")), 0), "1.0");
    CHECK_STR(txt(call("least", 2, VEC("double", "NaN"), VEC("double", "1")), 0), "1.0");
    CHECK_STR(txt(call("least", 2, VEC("double", "NaN"), VEC("double", "NaN")), 0), "NaN");
    /* cbrt is correctly rounded on exact cubes (glibc's cbrt is not) */
    CHECK_STR(txt(call("cbrt", 1, VEC("double", "27")), 0), "3.0");
    CHECK_STR(txt(call("cbrt", 1, VEC("double", "3.375")), 0), "1.5");
    /* truncate(decimal(p,s)) -> decimal(max(1, p - s), 0), toward zero */
    o = call("truncate", 1, VEC("decimal(5,2)", "-12.99"));
    CHECK_STR(tname(g_last.ret), "decimal(3,0)");
    CHECK_STR(txt(o, 0), "-12");
    o = call("truncate", 1, VEC("decimal(2,2)", "0.99"));
    CHECK_STR(tname(g_last.ret), "decimal(1,0)");
    CHECK_STR(txt(o, 0), "0");
    CHECK_STR(txt(call("truncate", 1, VEC("double", "-1.5")), 0), "-1.0");
    free_vecs();
}

/* -------------------------------------------------------- date/time */

static void test_datetime(void) {
    g_rows = 3;
    sqe_vector *d = VEC("date", "2024-02-29", "2021-01-01", "1969-12-31");
    CHECK_STR(txt(call("year", 1, d), 0), "2024");
    CHECK_STR(txt(call("month", 1, d), 0), "2");
    CHECK_STR(txt(call("day", 1, d), 0), "29");
    CHECK_STR(txt(call("quarter", 1, d), 0), "1");
    CHECK_STR(txt(call("day_of_year", 1, d), 0), "60");
    sqe_vector *o = call("day_of_week", 1, d);
    CHECK_STR(txt(o, 0), "4"); /* Thursday */
    CHECK_STR(txt(o, 1), "5"); /* Friday */
    CHECK_STR(txt(o, 2), "3"); /* Wednesday */
    o = call("week", 1, d);
    CHECK_STR(txt(o, 0), "9");
    CHECK_STR(txt(o, 1), "53"); /* ISO: 2021-01-01 belongs to week 53 of 2020 */
    CHECK_STR(txt(call("year_of_week", 1, d), 1), "2020");
    CHECK_STR(txt(call("year", 1, d), 2), "1969");

    sqe_vector *ts =
        VEC("timestamp", "2024-03-10 13:45:30.250", "1969-12-31 23:59:59", "2024-01-01 00:00:00");
    CHECK_STR(txt(call("hour", 1, ts), 0), "13");
    CHECK_STR(txt(call("minute", 1, ts), 0), "45");
    CHECK_STR(txt(call("second", 1, ts), 0), "30");
    CHECK_STR(txt(call("millisecond", 1, ts), 0), "250");
    CHECK_STR(txt(call("hour", 1, ts), 1), "23");
    CHECK_STR(txt(call("day", 1, ts), 1), "31");

    g_rows = 1;
    sqe_vector *u = VEC("varchar", "month");
    CHECK_STR(txt(call("date_trunc", 2, u, VEC("date", "2024-05-17")), 0), "2024-05-01");
    CHECK_STR(txt(call("date_trunc", 2, VEC("varchar", "week"), VEC("date", "2024-05-17")), 0),
              "2024-05-13");
    CHECK_STR(txt(call("date_trunc", 2, VEC("varchar", "quarter"), VEC("date", "2024-05-17")), 0),
              "2024-04-01");
    CHECK_STR(
        txt(call("date_trunc", 2, VEC("varchar", "hour"), VEC("timestamp", "2024-05-17 10:42:13")),
            0),
        "2024-05-17 10:00:00.000");
    CHECK_STR(
        txt(call("date_trunc", 2, VEC("varchar", "year"), VEC("timestamp", "1969-05-17 10:42:13")),
            0),
        "1969-01-01 00:00:00.000");
    CHECK(call("date_trunc", 2, VEC("varchar", "hour"), VEC("date", "2024-05-17")) == NULL);
    CHECK(g_err.cls == SQE_ERR_INVALID_ARGUMENT);
    CHECK_STR(g_err.msg, "'hour' is not a valid DATE field");
    CHECK(call("date_trunc", 2, VEC("varchar", "fortnight"), VEC("timestamp", "2024-05-17")) ==
          NULL);

    CHECK_STR(txt(call("date_add", 3, VEC("varchar", "month"), VEC("bigint", "1"),
                       VEC("date", "2024-01-31")),
                  0),
              "2024-02-29");
    CHECK_STR(txt(call("date_add", 3, VEC("varchar", "year"), VEC("integer", "-1"),
                       VEC("date", "2024-02-29")),
                  0),
              "2023-02-28");
    CHECK_STR(txt(call("date_add", 3, VEC("varchar", "day"), VEC("bigint", "-1"),
                       VEC("date", "2024-03-01")),
                  0),
              "2024-02-29");
    CHECK_STR(txt(call("date_add", 3, VEC("varchar", "hour"), VEC("bigint", "25"),
                       VEC("timestamp", "2024-02-28 00:30:00")),
                  0),
              "2024-02-29 01:30:00.000");
    CHECK_STR(txt(call("date_add", 3, VEC("varchar", "month"), VEC("bigint", "1"),
                       VEC("timestamp", "2024-01-31 08:00:00")),
                  0),
              "2024-02-29 08:00:00.000");

    CHECK_STR(txt(call("date_diff", 3, VEC("varchar", "day"), VEC("date", "2024-01-01"),
                       VEC("date", "2024-03-01")),
                  0),
              "60");
    CHECK_STR(txt(call("date_diff", 3, VEC("varchar", "month"), VEC("date", "2024-01-31"),
                       VEC("date", "2024-02-29")),
                  0),
              "1");
    CHECK_STR(txt(call("date_diff", 3, VEC("varchar", "month"), VEC("date", "2024-01-15"),
                       VEC("date", "2024-02-14")),
                  0),
              "0");
    CHECK_STR(txt(call("date_diff", 3, VEC("varchar", "month"), VEC("date", "2024-03-15"),
                       VEC("date", "2024-01-16")),
                  0),
              "-1");
    CHECK_STR(txt(call("date_diff", 3, VEC("varchar", "year"), VEC("date", "2020-02-29"),
                       VEC("date", "2021-02-28")),
                  0),
              "1");
    CHECK_STR(txt(call("date_diff", 3, VEC("varchar", "year"), VEC("date", "2020-03-01"),
                       VEC("date", "2021-02-28")),
                  0),
              "0");
    CHECK_STR(
        txt(call("date_diff", 3, VEC("varchar", "hour"), VEC("timestamp", "2024-01-01 00:00:00"),
                 VEC("timestamp", "2024-01-01 05:59:59")),
            0),
        "5");
    CHECK_STR(
        txt(call("date_diff", 3, VEC("varchar", "second"), VEC("timestamp", "2024-01-01 00:00:10"),
                 VEC("timestamp", "2024-01-01 00:00:00.500")),
            0),
        "-9");

    CHECK_STR(
        txt(call("date_diff", 3, VEC("varchar", "month"), VEC("timestamp", "2024-01-15 10:00:00"),
                 VEC("timestamp", "2024-02-15 09:59:59")),
            0),
        "0");
    CHECK_STR(txt(call("date_diff", 3, VEC("varchar", "quarter"), VEC("date", "2023-11-30"),
                       VEC("date", "2024-05-30")),
                  0),
              "2");

    /* A constant unit is parsed (and rejected) at bind time. */
    {
        sqe_value unit = sqe_value_string("hour", 4);
        const sqe_value *consts[2] = {&unit, NULL};
        sqe_vector *args[2] = {VEC("varchar", "hour"), VEC("date", "2024-05-17")};
        sqe_error err;
        CHECK(call_ex("date_trunc", 2, args, consts, NULL, 1, &err) == NULL);
        CHECK(err.cls == SQE_ERR_INVALID_ARGUMENT);
        args[1] = VEC("timestamp", "2024-05-17 10:42:13.5");
        sqe_vector *r = call_ex("date_trunc", 2, args, consts, NULL, 1, &err);
        CHECK_STR(txt(r, 0), "2024-05-17 10:00:00.000");
    }

    sqe_vector *cd = call("current_date", 0);
    CHECK(cd != NULL && SQE_VEC_DATA(cd, int32_t)[0] > 19000); /* after 2022 */
    sqe_vector *now = call("now", 0);
    /* timestamp(3) with time zone: milliseconds * 4096 + zone key (UTC) */
    CHECK(now != NULL &&
          (SQE_VEC_DATA(now, int64_t)[0] >> 12) / 86400000LL == SQE_VEC_DATA(cd, int32_t)[0]);
    CHECK_STR(txt(call("date", 1, VEC("varchar", " 2024-05-17 ")), 0), "2024-05-17");
    CHECK_STR(txt(call("date", 1, VEC("timestamp", "2024-05-17 23:59:59")), 0), "2024-05-17");
    CHECK_STR(txt(call("last_day_of_month", 1, VEC("date", "2023-02-10")), 0), "2023-02-28");
    free_vecs();
}

/* ------------------------------------------------------------ casts */

static sqe_vector *cast(sqe_vector *in, const char *to, bool try_) {
    sqe_vector *out = track(sqe_vector_new(T(to)));
    sqe_error_clear(&g_err);
    if (!sqe_func_cast_vector(in, out, try_, NULL, g_rows, &g_err)) return NULL;
    return out;
}

static void test_typeof(void) {
    g_rows = 2;
    sqe_vector *o = call("typeof", 1, VEC("decimal(12,3)", "1.000", NULL));
    CHECK_STR(tname(g_last.ret), "varchar");
    CHECK_STR(txt(o, 0), "decimal(12,3)");
    CHECK_STR(txt(o, 1), "decimal(12,3)"); /* never NULL */
    g_rows = 1;
    CHECK_STR(txt(call("typeof", 1, VEC("bigint", "1")), 0), "bigint");
    CHECK_STR(txt(call("typeof", 1, VEC("varchar(5)", "ab")), 0), "varchar(5)");
    free_vecs();
}

static void test_cast(void) {
    g_rows = 3;
    sqe_vector *o = cast(VEC("varchar", " 42 ", "-7", NULL), "integer", false);
    CHECK_STR(txt(o, 0), "42");
    CHECK_STR(txt(o, 1), "-7");
    CHECK_STR(txt(o, 2), "NULL");
    g_rows = 2;
    o = cast(VEC("varchar", "1", "abc"), "integer", false);
    CHECK(o == NULL && g_err.cls == SQE_ERR_INVALID_DATA);
    CHECK_STR(g_err.msg, "cannot cast 'abc' to integer");
    o = cast(VEC("varchar", "1", "abc"), "integer", true);
    CHECK_STR(txt(o, 0), "1");
    CHECK_STR(txt(o, 1), "NULL");
    o = cast(VEC("integer", "1", "300"), "tinyint", false);
    CHECK(o == NULL && g_err.cls == SQE_ERR_OUT_OF_RANGE);
    CHECK_STR(g_err.msg, "value 300 out of range for tinyint");
    o = cast(VEC("integer", "1", "300"), "tinyint", true);
    CHECK_STR(txt(o, 1), "NULL");

    g_rows = 4;
    o = cast(VEC("double", "2.5", "-2.5", "1e3", "-0.4"), "bigint", false);
    CHECK_STR(txt(o, 0), "3");
    CHECK_STR(txt(o, 1), "-3");
    CHECK_STR(txt(o, 2), "1000");
    CHECK_STR(txt(o, 3), "0");
    g_rows = 1;
    CHECK(cast(VEC("double", "NaN"), "integer", false) == NULL);
    CHECK_STR(txt(cast(VEC("double", "NaN"), "integer", true), 0), "NULL");
    CHECK_STR(txt(cast(VEC("double", "1e30"), "bigint", true), 0), "NULL");

    g_rows = 3;
    o = cast(VEC("integer", "-12", "0", "2147483647"), "varchar", false);
    CHECK_STR(txt(o, 0), "-12");
    CHECK_STR(txt(o, 2), "2147483647");
    o = cast(VEC("double", "1.5", "1e10", "0.001"), "varchar", false);
    CHECK_STR(txt(o, 0), "1.5");
    CHECK_STR(txt(o, 1), "1.0E10");
    CHECK_STR(txt(o, 2), "0.001");
    o = cast(VEC("decimal(5,2)", "-1.50", "0.05", "100.00"), "varchar", false);
    CHECK_STR(txt(o, 0), "-1.50");
    CHECK_STR(txt(o, 1), "0.05");
    o = cast(VEC("date", "2024-01-05", "1969-12-31", NULL), "varchar", false);
    CHECK_STR(txt(o, 0), "2024-01-05");
    CHECK_STR(txt(o, 2), "NULL");
    o = cast(VEC("boolean", "true", "false", NULL), "varchar", false);
    CHECK_STR(txt(o, 0), "true");
    CHECK_STR(txt(o, 1), "false");

    o = cast(VEC("varchar", "2024-1-5", "bad", "2024-02-30"), "date", true);
    CHECK_STR(txt(o, 0), "2024-01-05");
    CHECK_STR(txt(o, 1), "NULL");
    CHECK_STR(txt(o, 2), "NULL");
    o = cast(VEC("timestamp", "1969-12-31 23:00:00", "2024-01-01 00:00:00", "2024-01-01 23:59:59"),
             "date", false);
    CHECK_STR(txt(o, 0), "1969-12-31");
    CHECK_STR(txt(o, 2), "2024-01-01");
    o = cast(VEC("date", "2024-01-05", "1969-12-31", "1970-01-01"), "timestamp", false);
    CHECK_STR(txt(o, 1), "1969-12-31 00:00:00.000");
    o = cast(VEC("varchar", "1.005", "-2.5", "1e2"), "decimal(5,2)", false);
    CHECK_STR(txt(o, 0), "1.01");
    CHECK_STR(txt(o, 1), "-2.50");
    CHECK_STR(txt(o, 2), "100.00");
    o = cast(VEC("varchar", "1234.5", "1", "1"), "decimal(5,2)", false);
    CHECK(o == NULL && g_err.cls == SQE_ERR_OUT_OF_RANGE);
    o = cast(VEC("integer", "5", "-3", "0"), "decimal(4,1)", false);
    CHECK_STR(txt(o, 0), "5.0");
    o = cast(VEC("decimal(5,3)", "1.234", "-0.005", "0"), "decimal(4,2)", false);
    CHECK_STR(txt(o, 0), "1.23");
    CHECK_STR(txt(o, 1), "-0.01");
    o = cast(VEC("varchar", "héllo wörld", "ab", ""), "varchar(3)", false);
    CHECK_STR(txt(o, 0), "hél");
    CHECK_STR(txt(o, 1), "ab");
    o = cast(VEC("varchar", "a fairly long string value", "x", "NaN"), "varchar", false);
    CHECK_STR(txt(o, 0), "a fairly long string value");
    o = cast(VEC("integer", "1", "0", "-2"), "boolean", false);
    CHECK_STR(txt(o, 0), "true");
    CHECK_STR(txt(o, 1), "false");
    o = cast(VEC("integer", "1", "70000", "-2"), "double", false);
    CHECK_STR(txt(o, 1), "70000.0");
    o = cast(VEC("varchar", "1.5", "Infinity", "x"), "double", true);
    CHECK_STR(txt(o, 0), "1.5");
    CHECK_STR(txt(o, 1), "Infinity");
    CHECK_STR(txt(o, 2), "NULL");

    o = cast(VEC("decimal(5,2)", "2.50", "-2.50", "999.99"), "smallint", false);
    CHECK_STR(txt(o, 0), "3");
    CHECK_STR(txt(o, 1), "-3");
    CHECK_STR(txt(o, 2), "1000");
    o = cast(VEC("decimal(5,2)", "2.50", "-2.50", "999.99"), "tinyint", false);
    CHECK(o == NULL && g_err.cls == SQE_ERR_OUT_OF_RANGE);
    CHECK_STR(g_err.msg, "value 999.99 out of range for tinyint");
    o = cast(VEC("bigint", "1", NULL, "-1"), "varbinary", true);
    CHECK(o == NULL || sqe_vector_is_null(o, 1));

    /* Rows outside the selection are neither converted nor failing. */
    sqe_vector *in = VEC("varchar", "1", "abc", "3");
    sqe_vector *out = track(sqe_vector_new(T("integer")));
    uint16_t sel[2] = {0, 2};
    sqe_error err;
    CHECK(sqe_func_cast_vector(in, out, false, sel, 2, &err));
    CHECK_STR(txt(out, 2), "3");
    CHECK(SQE_VEC_DATA(out, int32_t)[1] == 0);
    free_vecs();
}

/* ------------------------------------------------------- aggregates */

typedef struct agg_run {
    sqe_agg_binding b;
    _Alignas(16) unsigned char states[4][128];
} agg_run;

static bool agg_bind(agg_run *r, const char *name, bool distinct, const char *type) {
    sqe_type t = type ? T(type) : sqe_type_make(SQE_T_NULL);
    sqe_error err;
    if (!sqe_func_bind_aggregate(g_arena, name, distinct, type == NULL, type ? 1 : 0, &t, &r->b,
                                 &err)) {
        g_err = err;
        return false;
    }
    for (int i = 0; i < 4; i++) r->b.init(&r->b, r->states[i]);
    return true;
}

/* Folds rows 0..n-1 of v into state `group[i]` per row. */
static bool agg_update(agg_run *r, sqe_vector *v, uint32_t n, const int *group) {
    void *states[SQE_BATCH_ROWS];
    for (uint32_t i = 0; i < n; i++) states[i] = r->states[group ? group[i] : 0];
    sqe_error_clear(&g_err);
    return r->b.update(&r->b, states, v, NULL, n, &g_err);
}

static const char *agg_final(agg_run *r, int g) {
    sqe_vector *out = track(sqe_vector_new(r->b.ret));
    sqe_error_clear(&g_err);
    if (!r->b.finalize(&r->b, r->states[g], out, 0, &g_err)) return "(error)";
    return txt(out, 0);
}

static void agg_done(agg_run *r) {
    if (!r->b.destroy) return;
    for (int i = 0; i < 4; i++) r->b.destroy(&r->b, r->states[i]);
}

static void test_agg_basic(void) {
    agg_run r;
    sqe_vector *v = VEC("integer", "1", NULL, "5", "-2", "7");
    int grp[5] = {0, 0, 0, 1, 1};

    CHECK(agg_bind(&r, "count", false, NULL));
    CHECK(r.b.star);
    CHECK(agg_update(&r, NULL, 5, grp));
    CHECK_STR(agg_final(&r, 0), "3");
    CHECK_STR(agg_final(&r, 2), "0"); /* empty group */
    agg_done(&r);

    CHECK(agg_bind(&r, "count", false, "integer"));
    CHECK(agg_update(&r, v, 5, grp));
    CHECK_STR(agg_final(&r, 0), "2");
    CHECK_STR(tname(r.b.ret), "bigint");
    agg_done(&r);

    CHECK(agg_bind(&r, "sum", false, "integer"));
    CHECK_STR(tname(r.b.ret), "bigint");
    CHECK(agg_update(&r, v, 5, grp));
    CHECK_STR(agg_final(&r, 0), "6");
    CHECK_STR(agg_final(&r, 1), "5");
    CHECK_STR(agg_final(&r, 2), "NULL");
    CHECK(r.b.combine(&r.b, r.states[0], r.states[1], &g_err));
    CHECK_STR(agg_final(&r, 0), "11");
    agg_done(&r);

    CHECK(agg_bind(&r, "sum", false, "bigint"));
    CHECK(agg_update(&r, VEC("bigint", "9223372036854775807", "1"), 2, NULL));
    CHECK_STR(agg_final(&r, 0), "(error)");
    CHECK(g_err.cls == SQE_ERR_OUT_OF_RANGE);
    agg_done(&r);

    CHECK(agg_bind(&r, "avg", false, "integer"));
    CHECK_STR(tname(r.b.ret), "double");
    CHECK(agg_update(&r, v, 5, grp));
    CHECK_STR(agg_final(&r, 0), "3.0");
    CHECK_STR(agg_final(&r, 1), "2.5");
    CHECK_STR(agg_final(&r, 3), "NULL");
    agg_done(&r);

    CHECK(agg_bind(&r, "sum", false, "decimal(5,2)"));
    CHECK_STR(tname(r.b.ret), "decimal(38,2)");
    CHECK(agg_update(&r, VEC("decimal(5,2)", "1.25", "2.50", NULL), 3, NULL));
    CHECK_STR(agg_final(&r, 0), "3.75");
    agg_done(&r);

    CHECK(agg_bind(&r, "avg", false, "decimal(5,2)"));
    CHECK_STR(tname(r.b.ret), "decimal(5,2)");
    CHECK(agg_update(&r, VEC("decimal(5,2)", "1.00", "1.00", "1.01"), 3, NULL));
    CHECK_STR(agg_final(&r, 0), "1.00");
    CHECK(agg_update(&r, VEC("decimal(5,2)", "1.01"), 1, NULL));
    CHECK_STR(agg_final(&r, 0), "1.01"); /* 1.005 rounds half up */
    agg_done(&r);

    /* a running decimal sum may pass 10^38 (and 2^127); only the result must fit */
    CHECK(agg_bind(&r, "sum", false, "decimal(38,0)"));
    CHECK(agg_update(&r,
                     VEC("decimal(38,0)", "99999999999999999999999999999999999999",
                         "99999999999999999999999999999999999999",
                         "-99999999999999999999999999999999999999"),
                     3, NULL));
    CHECK_STR(agg_final(&r, 0), "99999999999999999999999999999999999999");
    CHECK(agg_update(&r, VEC("decimal(38,0)", "1"), 1, NULL));
    CHECK_STR(agg_final(&r, 0), "(error)");
    CHECK(g_err.cls == SQE_ERR_OUT_OF_RANGE);
    agg_done(&r);
    CHECK(agg_bind(&r, "avg", false, "decimal(38,0)"));
    CHECK(agg_update(&r,
                     VEC("decimal(38,0)", "99999999999999999999999999999999999999",
                         "99999999999999999999999999999999999999", "-1"),
                     3, NULL));
    CHECK_STR(agg_final(&r, 0), "66666666666666666666666666666666666666");
    CHECK(agg_update(&r,
                     VEC("decimal(38,0)", "-99999999999999999999999999999999999999",
                         "-99999999999999999999999999999999999999",
                         "-99999999999999999999999999999999999999",
                         "-99999999999999999999999999999999999999"),
                     4, (int[]){1, 1, 1, 1}));
    CHECK_STR(agg_final(&r, 1), "-99999999999999999999999999999999999999");
    CHECK(r.b.combine(&r.b, r.states[0], r.states[1], &g_err));
    CHECK_STR(agg_final(&r, 0),
              "-28571428571428571428571428571428571428"); /* (2(1e38-1)-1-4(1e38-1))/7 */
    agg_done(&r);

    CHECK(agg_bind(&r, "sum", false, "double"));
    CHECK(agg_update(&r, VEC("double", "1.5", "2.25", NULL), 3, NULL));
    CHECK_STR(agg_final(&r, 0), "3.75");
    agg_done(&r);

    CHECK(agg_bind(&r, "min", false, "integer"));
    CHECK(agg_update(&r, v, 5, grp));
    CHECK_STR(agg_final(&r, 0), "1");
    CHECK_STR(agg_final(&r, 1), "-2");
    CHECK_STR(agg_final(&r, 2), "NULL");
    CHECK(r.b.combine(&r.b, r.states[0], r.states[1], &g_err));
    CHECK_STR(agg_final(&r, 0), "-2");
    agg_done(&r);

    CHECK(agg_bind(&r, "max", false, "date"));
    CHECK(agg_update(&r, VEC("date", "2024-01-01", "2025-06-30", NULL), 3, NULL));
    CHECK_STR(agg_final(&r, 0), "2025-06-30");
    agg_done(&r);

    CHECK(agg_bind(&r, "max", false, "double"));
    CHECK(agg_update(&r, VEC("double", "-1.5", "-0.5", "-3"), 3, NULL));
    CHECK_STR(agg_final(&r, 0), "-0.5");
    agg_done(&r);

    /* min/max ignore NaN unless every value is NaN, whatever the order */
    {
        int g3[4] = {0, 0, 1, 1};
        CHECK(agg_bind(&r, "min", false, "double"));
        CHECK(agg_update(&r, VEC("double", "NaN", "2", "NaN", "NaN"), 4, g3));
        CHECK_STR(agg_final(&r, 0), "2.0");
        CHECK_STR(agg_final(&r, 1), "NaN");
        CHECK(r.b.combine(&r.b, r.states[1], r.states[0], &g_err));
        CHECK_STR(agg_final(&r, 1), "2.0");
        agg_done(&r);
        CHECK(agg_bind(&r, "max", false, "real"));
        CHECK(agg_update(&r, VEC("real", "NaN", "-1", "3", "NaN"), 4, g3));
        CHECK_STR(agg_final(&r, 0), "-1.0");
        CHECK_STR(agg_final(&r, 1), "3.0");
        agg_done(&r);
    }

    CHECK(!agg_bind(&r, "sum", false, "varchar"));
    CHECK(g_err.cls == SQE_ERR_TYPE_MISMATCH);
    CHECK_CONTAINS(g_err.msg, "unexpected parameters (varchar) for function sum");
    free_vecs();
}

static void test_agg_strings(void) {
    agg_run r;
    sqe_vector *v = VEC("varchar", "pear", "a rather long apple string", NULL,
                        "zebra crossing at the end", "fig");
    int grp[5] = {0, 0, 0, 1, 1};
    CHECK(agg_bind(&r, "min", false, "varchar"));
    CHECK(agg_update(&r, v, 5, grp));
    CHECK_STR(agg_final(&r, 0), "a rather long apple string");
    CHECK_STR(agg_final(&r, 1), "fig");
    CHECK_STR(agg_final(&r, 2), "NULL");
    CHECK(r.b.combine(&r.b, r.states[1], r.states[0], &g_err));
    CHECK_STR(agg_final(&r, 1), "a rather long apple string");
    CHECK_STR(agg_final(&r, 0), "NULL"); /* src left destroyed-equivalent */
    agg_done(&r);

    /* The copies are the states' heap memory (mem_delta, for the query's
     * memory limit); combine moves one, and the deltas follow it. */
    CHECK(agg_bind(&r, "min", false, "varchar"));
    CHECK(r.b.mem_delta != NULL);
    CHECK(agg_update(&r, v, 5, grp));
    int64_t m0 = r.b.mem_delta(&r.b, r.states[0]), m1 = r.b.mem_delta(&r.b, r.states[1]);
    CHECK(m0 == 26 && m1 == 25); /* the longest value each state held */
    CHECK(r.b.mem_delta(&r.b, r.states[0]) == 0);
    CHECK(r.b.combine(&r.b, r.states[1], r.states[0], &g_err));
    int64_t d1 = r.b.mem_delta(&r.b, r.states[1]), d0 = r.b.mem_delta(&r.b, r.states[0]);
    CHECK(d0 == -m0);     /* src holds nothing now */
    CHECK(m1 + d1 == m0); /* dst holds src's copy */
    agg_done(&r);
    CHECK(agg_bind(&r, "min", false, "integer"));
    CHECK(r.b.mem_delta == NULL); /* fixed-size states own no memory */
    agg_done(&r);

    CHECK(agg_bind(&r, "max", false, "varchar"));
    CHECK(agg_update(&r, v, 5, grp));
    CHECK_STR(agg_final(&r, 0), "pear");
    CHECK_STR(agg_final(&r, 1), "zebra crossing at the end");
    CHECK(r.b.combine(&r.b, r.states[2], r.states[1], &g_err)); /* into an empty state */
    CHECK_STR(agg_final(&r, 2), "zebra crossing at the end");
    agg_done(&r);

    CHECK(agg_bind(&r, "arbitrary", false, "varchar"));
    CHECK(agg_update(&r, v, 5, grp));
    CHECK_STR(agg_final(&r, 0), "pear");
    agg_done(&r);
    free_vecs();
}

static void test_agg_distinct(void) {
    agg_run r;
    /* count(DISTINCT) over strings, longer than inline, with duplicates. */
    sqe_vector *s = VEC("varchar", "apple", "banana split sundae", "apple", NULL,
                        "banana split sundae", "cherry", "x");
    int grp[7] = {0, 0, 0, 0, 1, 1, 1};
    CHECK(agg_bind(&r, "count", true, "varchar"));
    CHECK(r.b.distinct);
    CHECK(agg_update(&r, s, 7, grp));
    CHECK_STR(agg_final(&r, 0), "2");
    CHECK_STR(agg_final(&r, 1), "3");
    CHECK_STR(agg_final(&r, 2), "0");
    CHECK(r.b.combine(&r.b, r.states[0], r.states[1], &g_err));
    CHECK_STR(agg_final(&r, 0), "4");
    CHECK_STR(agg_final(&r, 1), "0");
    agg_done(&r);

    /* Many integers (forces growth), every value twice, two groups. */
    sqe_vector *v = track(sqe_vector_new(T("bigint")));
    int g[SQE_BATCH_ROWS];
    for (int i = 0; i < SQE_BATCH_ROWS; i++) {
        SQE_VEC_DATA(v, int64_t)[i] = (i / 2) * 1000003LL;
        g[i] = i % 4 < 2 ? 0 : 1;
    }
    CHECK(agg_bind(&r, "count", true, "bigint"));
    CHECK(agg_update(&r, v, SQE_BATCH_ROWS, g));
    CHECK(agg_update(&r, v, SQE_BATCH_ROWS, NULL));
    CHECK_STR(agg_final(&r, 0), "1024");
    CHECK_STR(agg_final(&r, 1), "512");
    CHECK(r.b.combine(&r.b, r.states[0], r.states[1], &g_err));
    CHECK_STR(agg_final(&r, 0), "1024");
    agg_done(&r);

    CHECK(agg_bind(&r, "sum", true, "integer"));
    CHECK(agg_update(&r, VEC("integer", "1", "2", "2", "3", NULL, "3"), 6, NULL));
    CHECK_STR(agg_final(&r, 0), "6");
    CHECK_STR(tname(r.b.ret), "bigint");
    agg_done(&r);

    CHECK(agg_bind(&r, "avg", true, "decimal(4,1)"));
    CHECK(agg_update(&r, VEC("decimal(4,1)", "1.0", "2.0", "2.0", "4.0"), 4, NULL));
    CHECK_STR(agg_final(&r, 0), "2.3");
    agg_done(&r);

    CHECK(agg_bind(&r, "count", true, "double"));
    CHECK(agg_update(&r, VEC("double", "0", "-0", "NaN", "NaN", "1.5"), 5, NULL));
    CHECK_STR(agg_final(&r, 0), "3");
    agg_done(&r);

    CHECK(agg_bind(&r, "sum", true, "double"));
    CHECK(agg_update(&r, VEC("double", "1.5", "1.5", "-2"), 3, NULL));
    CHECK_STR(agg_final(&r, 0), "-0.5");
    agg_done(&r);

    CHECK(agg_bind(&r, "count", true, "date"));
    CHECK(agg_update(&r, VEC("date", "2024-01-01", "2024-01-01", "1969-01-01"), 3, NULL));
    CHECK_STR(agg_final(&r, 0), "2");
    agg_done(&r);

    /* The value 0 lives beside the table; combine keeps it. */
    CHECK(agg_bind(&r, "count", true, "integer"));
    CHECK(agg_update(&r, VEC("integer", "0", "0", "1", NULL, "-1"), 5, (int[]){0, 0, 0, 1, 1}));
    CHECK_STR(agg_final(&r, 0), "2");
    CHECK_STR(agg_final(&r, 1), "1");
    CHECK(r.b.combine(&r.b, r.states[1], r.states[0], &g_err));
    CHECK_STR(agg_final(&r, 1), "3");
    agg_done(&r);
    CHECK(agg_bind(&r, "sum", true, "bigint"));
    CHECK(agg_update(&r, VEC("bigint", "0", "5", "5", "0"), 4, NULL));
    CHECK_STR(agg_final(&r, 0), "5");
    agg_done(&r);

    /* Strings in a selection: rows outside it are ignored. */
    CHECK(agg_bind(&r, "count", true, "varchar"));
    {
        sqe_vector *sv =
            VEC("varchar", "same string, long enough", "other", "same string, long enough", "zzz");
        void *st[2] = {r.states[0], r.states[0]};
        uint16_t sel[2] = {0, 2};
        CHECK(r.b.update(&r.b, st, sv, sel, 2, &g_err));
        CHECK_STR(agg_final(&r, 0), "1");
    }
    agg_done(&r);

    /* min(DISTINCT) is plain min. */
    CHECK(agg_bind(&r, "min", true, "integer"));
    CHECK(agg_update(&r, VEC("integer", "4", "2", "9"), 3, NULL));
    CHECK_STR(agg_final(&r, 0), "2");
    agg_done(&r);
    free_vecs();
}

static void test_agg_misc(void) {
    agg_run r;
    CHECK(agg_bind(&r, "stddev", false, "integer"));
    CHECK_STR(tname(r.b.arg_type), "double");
    sqe_vector *d = VEC("double", "2", "4", "4", "4", "5", "5", "7", "9");
    int grp[8] = {0, 0, 0, 0, 1, 1, 1, 1};
    CHECK(agg_update(&r, d, 8, grp));
    CHECK(r.b.combine(&r.b, r.states[0], r.states[1], &g_err));
    sqe_vector *out = track(sqe_vector_new(r.b.ret));
    CHECK(r.b.finalize(&r.b, r.states[0], out, 0, &g_err));
    CHECK(fabs(SQE_VEC_DATA(out, double)[0] - sqrt(32.0 / 7.0)) < 1e-12);
    agg_done(&r);

    CHECK(agg_bind(&r, "var_pop", false, "double"));
    CHECK(agg_update(&r, d, 8, NULL));
    CHECK_STR(agg_final(&r, 0), "4.0");
    CHECK_STR(agg_final(&r, 1), "NULL");
    agg_done(&r);

    CHECK(agg_bind(&r, "bool_and", false, "boolean"));
    CHECK(agg_update(&r, VEC("boolean", "true", "false", "true", NULL), 4, (int[]){0, 0, 1, 1}));
    CHECK_STR(agg_final(&r, 0), "false");
    CHECK_STR(agg_final(&r, 1), "true");
    CHECK_STR(agg_final(&r, 2), "NULL");
    agg_done(&r);

    CHECK(agg_bind(&r, "count_if", false, "boolean"));
    CHECK(agg_update(&r, VEC("boolean", "true", "false", "true", NULL), 4, NULL));
    CHECK_STR(agg_final(&r, 0), "2");
    agg_done(&r);

    CHECK(agg_bind(&r, "approx_distinct", false, "varchar"));
    CHECK(agg_update(&r, VEC("varchar", "a", "b", "a"), 3, NULL));
    CHECK_STR(agg_final(&r, 0), "2");
    agg_done(&r);

    sqe_agg_binding b;
    sqe_type t = T("integer");
    sqe_error err;
    CHECK(!sqe_func_bind_aggregate(g_arena, "median", false, false, 1, &t, &b, &err));
    CHECK(err.cls == SQE_ERR_NOT_FOUND);
    free_vecs();
}

/* grow_need bounds what an update or a combine of a DISTINCT state
 * allocates (mem_delta after it), for every set kind, across doublings:
 * the operator reserves it before the set grows. */
static void test_agg_distinct_grow_need(void) {
    const char *types[3] = {"bigint", "decimal(20,2)", "varchar"};
    for (int k = 0; k < 3; k++) {
        agg_run r;
        CHECK(agg_bind(&r, "count", true, types[k]));
        CHECK(r.b.grow_need != NULL);
        sqe_vector *v = track(sqe_vector_new(T(types[k])));
        bool ok = true;
        for (int round = 0; round < 40; round++) {
            for (uint32_t i = 0; i < SQE_BATCH_ROWS; i++) {
                char txt_[48];
                snprintf(txt_, sizeof txt_, "%d.25 value %u", round, i);
                sqe_value val;
                if (k == 0)
                    val = sqe_value_int(SQE_T_BIGINT, (int64_t)round * 100000 + i);
                else if (k == 1)
                    val = sqe_value_decimal((sqe_i128)round * 100000 + i, 20, 2);
                else
                    val = sqe_value_string(txt_, (uint32_t)strlen(txt_));
                sqe_vector_set_value(v, i, &val);
            }
            int target = round % 2; /* two states, combined at the end */
            size_t need = r.b.grow_need(&r.b, r.states[target], NULL, v, NULL, SQE_BATCH_ROWS);
            int grp[SQE_BATCH_ROWS];
            for (uint32_t i = 0; i < SQE_BATCH_ROWS; i++) grp[i] = target;
            ok &= agg_update(&r, v, SQE_BATCH_ROWS, grp);
            int64_t d = r.b.mem_delta(&r.b, r.states[target]);
            ok &= d <= (int64_t)need;
            sqe_vector_reset(v);
        }
        CHECK(ok);
        size_t need = r.b.grow_need(&r.b, r.states[0], r.states[1], NULL, NULL, 0);
        CHECK(r.b.combine(&r.b, r.states[0], r.states[1], &g_err));
        int64_t d0 = r.b.mem_delta(&r.b, r.states[0]), d1 = r.b.mem_delta(&r.b, r.states[1]);
        CHECK(d0 + d1 <= (int64_t)need);
        CHECK_STR(agg_final(&r, 0), "81920");
        agg_done(&r);
    }
    free_vecs();
}

/* ------------------------------------------ issue 8 families, direct calls */

/* Kernels called directly (no expression state): regex and random make a
 * temporary state per call; a selection leaves other rows alone. */
static void test_stateful_kernels(void) {
    g_rows = 3;
    sqe_vector *s = VEC("varchar", "a1b22", NULL, "xyz");
    sqe_vector *p = VEC("varchar", "(\\d+)", "(\\d+)", "(\\d+)");
    sqe_vector *r = VEC("varchar", "<$1>", "<$1>", "<$1>");
    sqe_value pc = sqe_value_string("(\\d+)", 5);
    const sqe_value *consts[3] = {NULL, &pc, NULL};
    sqe_vector *args[3] = {s, p, r};
    sqe_error err;
    sqe_vector *o = call_ex("regexp_replace", 3, args, consts, NULL, 3, &err);
    CHECK(o != NULL);
    CHECK(g_last.state_new != NULL && g_last.state == NULL);
    CHECK_STR(txt(o, 0), "a<1>b<22>");
    CHECK_STR(txt(o, 1), "NULL");
    CHECK_STR(txt(o, 2), "xyz");
    uint16_t sel[1] = {2};
    o = call_ex("regexp_count", 2, args, NULL, sel, 1, &err);
    CHECK(o && !strcmp(txt(o, 2), "0"));

    o = call("random", 0);
    CHECK(o != NULL && g_last.nondeterministic);
    double d = o ? SQE_VEC_DATA(o, double)[0] : -1;
    CHECK(d >= 0 && d < 1);

    sqe_vector *bad = VEC("varchar", "(", "(", "(");
    sqe_vector *bargs[2] = {s, bad};
    CHECK(!call_ex("regexp_like", 2, bargs, NULL, NULL, 3, &err));
    CHECK_CONTAINS(err.msg, "regexp_like: invalid regular expression '('");
}

static void test_catalog(void) {
    char buf[160];
    CHECK(sqe_func_suggest("regex_like", buf, sizeof buf) > 0);
    CHECK_STR(buf, "regexp_like");
    CHECK(sqe_func_suggest("zzzzzzzzzz", buf, sizeof buf) == 0);
    CHECK(sqe_func_suggest("COUNTT", buf, sizeof buf) > 0);
    CHECK_STR(buf, "count");
    sqe_resultset *rs = NULL;
    sqe_error err;
    CHECK(sqe_func_show("json_array_get", &rs, &err));
    CHECK(rs && rs->n_cols == 5 && rs->n_rows == 1);
    sqe_resultset_free(rs);
    CHECK(sqe_func_show(NULL, &rs, &err));
    CHECK(rs && rs->n_rows > 200);
    sqe_resultset_free(rs);
}

int main(void) {
    g_arena = sqe_arena_new(0);
    RUN(test_registry);
    RUN(test_agg_distinct_grow_need);
    RUN(test_arith_int);
    RUN(test_arith_float);
    RUN(test_arith_decimal);
    RUN(test_compare);
    RUN(test_string);
    RUN(test_like);
    RUN(test_math);
    RUN(test_datetime);
    RUN(test_typeof);
    RUN(test_cast);
    RUN(test_agg_basic);
    RUN(test_agg_strings);
    RUN(test_agg_distinct);
    RUN(test_agg_misc);
    RUN(test_stateful_kernels);
    RUN(test_catalog);
    free_vecs();
    sqe_arena_free(g_arena);
    return unit_report();
}
