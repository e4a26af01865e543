/*
 * test_vector.c - unit tests for src/vector/: validity bitmaps, the string
 * heap, scalar get/set and row copies, batches with selection vectors, and
 * result sets (compaction of selections, batch boundaries, ownership),
 * memory accounts on string heaps, and dictionary annotations.
 */
#include "unit.h"

#include "vector/vector.h"

#include <math.h>

static sqe_type TY(sqe_type_id id) {
    return sqe_type_make(id);
}

/* The bytes of the string at row as a NUL-terminated copy (static buffer). */
static const char *str_at(const sqe_vector *v, uint32_t row) {
    static char buf[4][256];
    static int k;
    char *out = buf[k++ & 3];
    const sqe_string *s = &SQE_VEC_DATA(v, sqe_string)[row];
    size_t n = s->len < 255 ? s->len : 255;
    memcpy(out, sqe_string_data(s), n);
    out[n] = '\0';
    return out;
}

/* ------------------------------------------------------------ validity */

static void test_validity(void) {
    sqe_vector *v = sqe_vector_new(TY(SQE_T_INTEGER));
    CHECK(v->data != NULL);
    CHECK(!v->has_nulls);
    CHECK(!sqe_vector_is_null(v, 0) && !sqe_vector_is_null(v, SQE_BATCH_ROWS - 1));

    /* A stale bitmap must not leak into rows once has_nulls turns on. */
    memset(v->validity, 0, sizeof v->validity);
    CHECK(!sqe_vector_is_null(v, 3));
    sqe_vector_set_null(v, 3);
    CHECK(v->has_nulls);
    CHECK(sqe_vector_is_null(v, 3));
    CHECK(!sqe_vector_is_null(v, 2) && !sqe_vector_is_null(v, 4));
    CHECK(!sqe_vector_is_null(v, 64) && !sqe_vector_is_null(v, SQE_BATCH_ROWS - 1));

    sqe_vector_set_null(v, 64);
    sqe_vector_set_null(v, SQE_BATCH_ROWS - 1);
    CHECK(sqe_vector_is_null(v, 64) && sqe_vector_is_null(v, SQE_BATCH_ROWS - 1));
    CHECK(!sqe_vector_is_null(v, 63) && !sqe_vector_is_null(v, 65));

    sqe_vector_set_valid(v, 3);
    CHECK(!sqe_vector_is_null(v, 3));
    CHECK(sqe_vector_is_null(v, 64));

    sqe_vector_reset(v);
    CHECK(!v->has_nulls);
    CHECK(!sqe_vector_is_null(v, 64));
    sqe_vector_set_valid(v, 5); /* no-op without nulls */
    CHECK(!v->has_nulls);
    sqe_vector_free(v);
    sqe_vector_free(NULL);
}

/* -------------------------------------------------------------- strings */

static void test_strings(void) {
    sqe_vector *v = sqe_vector_new(TY(SQE_T_VARCHAR));
    sqe_vector_set_string(v, 0, "hello", 5);
    sqe_vector_set_string(v, 1, "exactly12byt", 12);
    sqe_vector_set_string(v, 2, "thirteen byte", 13);
    sqe_vector_set_string(v, 3, "", 0);
    const sqe_string *s = SQE_VEC_DATA(v, sqe_string);
    CHECK(s[0].len == 5 && sqe_string_data(&s[0]) == s[0].prefix);
    CHECK(s[1].len == 12 && sqe_string_data(&s[1]) == s[1].prefix);
    CHECK(s[2].len == 13 && sqe_string_data(&s[2]) != s[2].prefix);
    CHECK(memcmp(s[2].prefix, "thir", 4) == 0);
    CHECK_STR(str_at(v, 0), "hello");
    CHECK_STR(str_at(v, 1), "exactly12byt");
    CHECK_STR(str_at(v, 2), "thirteen byte");
    CHECK_STR(str_at(v, 3), "");
    /* Inline views are zero-padded, so equal strings have equal views. */
    sqe_string ref = sqe_string_ref("hello", 5);
    CHECK(memcmp(&ref, &s[0], sizeof ref) == 0);
    CHECK(sqe_string_eq(&ref, &s[0]));
    CHECK(sqe_string_hash(&s[2]) == sqe_hash_bytes("thirteen byte", 13, 0));

    /* Many long strings: several chunks; earlier bytes never move. */
    char buf[128];
    const char *first_ptr = sqe_string_data(&s[2]);
    for (uint32_t row = 0; row < SQE_BATCH_ROWS; row++) {
        int n = snprintf(buf, sizeof buf, "row %u padded out to be long enough %0*u", row,
                         (int)(row % 60), row);
        sqe_vector_set_string(v, row, buf, (size_t)n);
    }
    int bad = 0;
    for (uint32_t row = 0; row < SQE_BATCH_ROWS; row++) {
        int n = snprintf(buf, sizeof buf, "row %u padded out to be long enough %0*u", row,
                         (int)(row % 60), row);
        if (s[row].len != (uint32_t)n || memcmp(sqe_string_data(&s[row]), buf, (size_t)n) != 0)
            bad++;
    }
    CHECK(bad == 0);

    /* A huge string gets a chunk of its own and small strings keep going. */
    size_t huge_len = 300 * 1024;
    char *huge = sqe_malloc(huge_len);
    memset(huge, 'x', huge_len);
    huge[huge_len - 1] = 'y';
    sqe_vector_set_string(v, 10, huge, huge_len);
    sqe_vector_set_string(v, 11, "after the huge one", 18);
    CHECK(s[10].len == huge_len && sqe_string_data(&s[10])[huge_len - 1] == 'y');
    CHECK(memcmp(sqe_string_data(&s[10]), huge, huge_len) == 0);
    CHECK_STR(str_at(v, 11), "after the huge one");
    CHECK(s[12].len > 12 && memcmp(sqe_string_data(&s[12]), "row 12 ", 7) == 0);
    sqe_free(huge);

    /* Reset keeps the first chunk: the next allocation reuses its start. */
    sqe_vector_reset(v);
    sqe_vector_set_string(v, 0, "thirteen byte", 13);
    CHECK(sqe_string_data(&s[0]) == first_ptr);
    CHECK_STR(str_at(v, 0), "thirteen byte");

    char *raw = sqe_vector_heap_alloc(v, 20);
    memcpy(raw, "twenty bytes of text", 20);
    SQE_VEC_DATA(v, sqe_string)[1] = sqe_string_ref(raw, 20);
    CHECK_STR(str_at(v, 1), "twenty bytes of text");
    CHECK(sqe_vector_heap_alloc(v, 0) != NULL);
    sqe_vector_free(v);

    /* A vector whose first string is huge. */
    v = sqe_vector_new(TY(SQE_T_VARBINARY));
    char big[20000];
    memset(big, 'b', sizeof big);
    sqe_vector_set_string(v, 0, big, sizeof big);
    sqe_vector_set_string(v, 1, "and a small one!", 16);
    CHECK(SQE_VEC_DATA(v, sqe_string)[0].len == sizeof big);
    CHECK_STR(str_at(v, 1), "and a small one!");
    sqe_vector_free(v);
}

/* ------------------------------------------------------- scalar values */

static void test_values(void) {
    struct {
        sqe_type type;
        sqe_value val;
    } cases[12];
    int n = 0;
    cases[n].type = TY(SQE_T_BOOLEAN), cases[n++].val = sqe_value_bool(true);
    cases[n].type = TY(SQE_T_TINYINT), cases[n++].val = sqe_value_int(SQE_T_TINYINT, -128);
    cases[n].type = TY(SQE_T_SMALLINT), cases[n++].val = sqe_value_int(SQE_T_SMALLINT, 32767);
    cases[n].type = TY(SQE_T_INTEGER),
    cases[n++].val = sqe_value_int(SQE_T_INTEGER, -2147483647 - 1);
    cases[n].type = TY(SQE_T_BIGINT), cases[n++].val = sqe_value_int(SQE_T_BIGINT, INT64_MAX);
    cases[n].type = TY(SQE_T_DOUBLE), cases[n++].val = sqe_value_double(-1.5);
    cases[n].type = sqe_type_decimal(38, 2),
    cases[n++].val = sqe_value_decimal(-(sqe_pow10_i128[38] - 1), 38, 2);
    cases[n].type = TY(SQE_T_VARCHAR),
    cases[n++].val = sqe_value_string("a string over twelve", 20);
    cases[n].type = TY(SQE_T_VARCHAR), cases[n++].val = sqe_value_string("short", 5);
    cases[n].type = TY(SQE_T_DATE), cases[n++].val = sqe_value_int(SQE_T_DATE, -719162);
    cases[n].type = TY(SQE_T_TIMESTAMP),
    cases[n++].val = sqe_value_int(SQE_T_TIMESTAMP, 1704448800123456LL);
    cases[n].type = TY(SQE_T_REAL);
    cases[n].val = sqe_value_null(TY(SQE_T_REAL));
    cases[n].val.is_null = false;
    cases[n++].val.v.f = 0.25f;

    int bad = 0;
    for (int i = 0; i < n; i++) {
        sqe_vector *v = sqe_vector_new(cases[i].type);
        sqe_value out;
        sqe_vector_set_value(v, 7, &cases[i].val);
        sqe_vector_get_value(v, 7, &out);
        if (out.is_null || out.type.id != cases[i].type.id ||
            sqe_value_cmp(&out, &cases[i].val) != 0) {
            fprintf(stderr, "value round trip failed for case %d\n", i);
            bad++;
        }
        sqe_value null = sqe_value_null(cases[i].type);
        sqe_vector_set_value(v, 8, &null);
        sqe_vector_get_value(v, 8, &out);
        if (!out.is_null || !sqe_vector_is_null(v, 8) || sqe_vector_is_null(v, 7)) bad++;
        /* Overwriting a NULL row with a value makes it valid again. */
        sqe_vector_set_value(v, 8, &cases[i].val);
        if (sqe_vector_is_null(v, 8)) bad++;
        sqe_vector_free(v);
    }
    CHECK(n == 12);
    CHECK(bad == 0);

    sqe_vector *d = sqe_vector_new(sqe_type_decimal(10, 2));
    sqe_value dv = sqe_value_decimal(150, 10, 2), out;
    sqe_vector_set_value(d, 0, &dv);
    sqe_vector_get_value(d, 0, &out);
    CHECK(out.type.precision == 10 && out.type.scale == 2 && out.v.dec == 150);
    CHECK(SQE_VEC_DATA(d, sqe_i128)[0] == 150);
    sqe_vector_free(d);

    sqe_vector *t = sqe_vector_new(TY(SQE_T_VARCHAR));
    sqe_value sv = sqe_value_string("inline", 6);
    sqe_vector_set_value(t, 0, &sv);
    sqe_vector_get_value(t, 0, &out);
    CHECK(out.v.s.len == 6 && memcmp(out.v.s.ptr, "inline", 6) == 0);
    CHECK(out.v.s.ptr != sv.v.s.ptr); /* points into the vector */
    sqe_vector_free(t);
}

static void test_copy_row(void) {
    sqe_vector *src = sqe_vector_new(TY(SQE_T_VARCHAR)), *dst = sqe_vector_new(TY(SQE_T_VARCHAR));
    sqe_vector_set_string(src, 0, "short", 5);
    sqe_vector_set_string(src, 1, "a long string that lives in the heap", 36);
    sqe_vector_set_null(src, 2);
    sqe_vector_copy_row(dst, 5, src, 0);
    sqe_vector_copy_row(dst, 6, src, 1);
    sqe_vector_copy_row(dst, 7, src, 2);
    CHECK_STR(str_at(dst, 5), "short");
    CHECK_STR(str_at(dst, 6), "a long string that lives in the heap");
    CHECK(sqe_string_data(&SQE_VEC_DATA(dst, sqe_string)[6]) !=
          sqe_string_data(&SQE_VEC_DATA(src, sqe_string)[1]));
    CHECK(sqe_vector_is_null(dst, 7) && !sqe_vector_is_null(dst, 6));
    /* Copying a valid row over a NULL one clears the NULL. */
    sqe_vector_copy_row(dst, 7, src, 0);
    CHECK(!sqe_vector_is_null(dst, 7));
    /* The copy survives the source's reset and free. */
    sqe_vector_reset(src);
    sqe_vector_set_string(src, 1, "overwritten overwritten overwritten!", 36);
    sqe_vector_free(src);
    CHECK_STR(str_at(dst, 6), "a long string that lives in the heap");
    /* Copy within one vector. */
    sqe_vector_copy_row(dst, 8, dst, 6);
    CHECK_STR(str_at(dst, 8), "a long string that lives in the heap");
    sqe_vector_free(dst);

    sqe_vector *a = sqe_vector_new(TY(SQE_T_BIGINT)), *b = sqe_vector_new(TY(SQE_T_BIGINT));
    SQE_VEC_DATA(a, int64_t)[3] = -99;
    sqe_vector_copy_row(b, 0, a, 3);
    CHECK(SQE_VEC_DATA(b, int64_t)[0] == -99 && !b->has_nulls);
    sqe_vector_set_null(a, 4);
    sqe_vector_copy_row(b, 1, a, 4);
    CHECK(sqe_vector_is_null(b, 1) && !sqe_vector_is_null(b, 0));
    sqe_vector_free(a);
    sqe_vector_free(b);
}

/* -------------------------------------------------------------- batches */

static void test_batch(void) {
    sqe_type types[2] = {TY(SQE_T_INTEGER), TY(SQE_T_VARCHAR)};
    sqe_batch *b = sqe_batch_new(2, types);
    CHECK(b->n_cols == 2 && b->owned[0] && b->owned[1]);
    CHECK(b->cols[1]->type.id == SQE_T_VARCHAR);
    CHECK(b->sel == NULL && b->n_rows == 0 && sqe_batch_live(b) == 0);
    b->n_rows = 10;
    CHECK(sqe_batch_live(b) == 10 && sqe_batch_row(b, 4) == 4);
    b->sel = b->sel_buf;
    b->sel_buf[0] = 2;
    b->sel_buf[1] = 7;
    b->n_sel = 2;
    CHECK(sqe_batch_live(b) == 2 && sqe_batch_row(b, 1) == 7);
    sqe_vector_set_null(b->cols[0], 1);
    sqe_batch_reset(b);
    CHECK(b->n_rows == 0 && b->sel == NULL && b->n_sel == 0 && !b->cols[0]->has_nulls);

    /* A batch sharing a vector it does not own: freeing it leaves the vector. */
    sqe_batch *e = sqe_batch_new_empty(2);
    CHECK(e->cols[0] == NULL && e->cols[1] == NULL && !e->owned[0]);
    e->cols[0] = b->cols[0];
    e->owned[0] = false;
    e->cols[1] = sqe_vector_new(TY(SQE_T_DOUBLE));
    e->owned[1] = true;
    sqe_vector_set_null(b->cols[0], 3);
    sqe_batch_reset(e); /* must not reset the shared vector */
    CHECK(sqe_vector_is_null(b->cols[0], 3));
    sqe_batch_free(e);
    SQE_VEC_DATA(b->cols[0], int32_t)[0] = 5; /* still alive (ASan would object) */
    CHECK(SQE_VEC_DATA(b->cols[0], int32_t)[0] == 5);
    sqe_batch_free(b);
    sqe_batch_free(NULL);

    sqe_batch *z = sqe_batch_new(0, NULL);
    CHECK(z->n_cols == 0);
    sqe_batch_free(z);
}

/* ---------------------------------------------------------- result sets */

/* Fills a batch of (integer i, varchar "v<i>..." or NULL every 5th) rows. */
static void fill(sqe_batch *b, uint32_t n, int base) {
    char buf[64];
    sqe_batch_reset(b);
    for (uint32_t r = 0; r < n; r++) {
        SQE_VEC_DATA(b->cols[0], int32_t)[r] = base + (int)r;
        if ((base + (int)r) % 5 == 0) {
            sqe_vector_set_null(b->cols[1], r);
        } else {
            int len =
                snprintf(buf, sizeof buf, (r & 1) ? "v%d" : "value number %d, long", base + (int)r);
            sqe_vector_set_string(b->cols[1], r, buf, (size_t)len);
        }
    }
    b->n_rows = n;
}

/* Checks every row of rs holds (expected[i], its string), in order. */
static int verify(const sqe_resultset *rs, const int *expected, uint64_t n) {
    int bad = 0;
    uint64_t i = 0;
    char buf[64];
    for (size_t bi = 0; bi < rs->batches.len; bi++) {
        const sqe_batch *b = rs->batches.items[bi];
        if (b->sel) bad++;
        if (bi + 1 < rs->batches.len && b->n_rows != SQE_BATCH_ROWS) bad++;
        for (uint32_t r = 0; r < b->n_rows; r++, i++) {
            if (i >= n) return bad + 1;
            int x = SQE_VEC_DATA(b->cols[0], int32_t)[r];
            if (x != expected[i] || sqe_vector_is_null(b->cols[0], r)) bad++;
            if (x % 5 == 0) {
                if (!sqe_vector_is_null(b->cols[1], r)) bad++;
            } else {
                /* the string's form depends on its row in the source batch; accept both */
                const sqe_string *s = &SQE_VEC_DATA(b->cols[1], sqe_string)[r];
                int l1 = snprintf(buf, sizeof buf, "v%d", x);
                bool ok =
                    s->len == (uint32_t)l1 && memcmp(sqe_string_data(s), buf, (size_t)l1) == 0;
                int l2 = snprintf(buf, sizeof buf, "value number %d, long", x);
                ok = ok ||
                     (s->len == (uint32_t)l2 && memcmp(sqe_string_data(s), buf, (size_t)l2) == 0);
                if (!ok || sqe_vector_is_null(b->cols[1], r)) bad++;
            }
        }
    }
    return bad + (i != n);
}

static void test_resultset(void) {
    const char *names[2] = {"id", "name"};
    sqe_type types[2] = {TY(SQE_T_INTEGER), TY(SQE_T_VARCHAR)};
    sqe_resultset *rs = sqe_resultset_new(2, names, types);
    CHECK(rs->n_cols == 2 && rs->n_rows == 0 && rs->batches.len == 0);
    CHECK_STR(rs->names[1], "name");
    CHECK(rs->names[0] != names[0]); /* copied */

    static int expected[10000];
    uint64_t n_exp = 0;
    sqe_batch *b = sqe_batch_new(2, types);

    /* 1. a dense batch of 1500 rows */
    fill(b, 1500, 0);
    sqe_resultset_append(rs, b);
    for (int i = 0; i < 1500; i++) expected[n_exp++] = i;
    CHECK(rs->n_rows == 1500 && rs->batches.len == 1);

    /* 2. a selected batch: only every third row of 2048 (683 rows) - crosses
     * into a second result batch */
    fill(b, SQE_BATCH_ROWS, 10000);
    b->sel = b->sel_buf;
    b->n_sel = 0;
    for (uint32_t r = 0; r < SQE_BATCH_ROWS; r += 3) {
        b->sel_buf[b->n_sel++] = (uint16_t)r;
        expected[n_exp++] = 10000 + (int)r;
    }
    sqe_resultset_append(rs, b);
    CHECK(rs->n_rows == 1500 + 683);
    CHECK(rs->batches.len == 2);
    CHECK(rs->batches.items[0]->n_rows == SQE_BATCH_ROWS &&
          rs->batches.items[1]->n_rows == 1500 + 683 - 2048);

    /* 3. a selection that keeps nothing */
    b->n_sel = 0;
    sqe_resultset_append(rs, b);
    CHECK(rs->n_rows == 2183 && rs->batches.len == 2);

    /* 4. two full dense batches */
    for (int k = 0; k < 2; k++) {
        fill(b, SQE_BATCH_ROWS, 20000 + k * SQE_BATCH_ROWS);
        sqe_resultset_append(rs, b);
        for (int i = 0; i < SQE_BATCH_ROWS; i++) expected[n_exp++] = 20000 + k * SQE_BATCH_ROWS + i;
    }
    CHECK(rs->n_rows == n_exp);
    CHECK(rs->batches.len == 4);

    /* The source batch is gone; the result set owns its copies. */
    sqe_batch_free(b);
    CHECK(verify(rs, expected, n_exp) == 0);
    uint64_t total = 0;
    for (size_t i = 0; i < rs->batches.len; i++) total += rs->batches.items[i]->n_rows;
    CHECK(total == rs->n_rows);

    /* The selection's order is kept and NULLs survive compaction. */
    const sqe_batch *second = rs->batches.items[0];
    CHECK(SQE_VEC_DATA(second->cols[0], int32_t)[1500] == 10000);
    CHECK(sqe_vector_is_null(second->cols[1], 1500)); /* 10000 % 5 == 0 */
    CHECK(SQE_VEC_DATA(second->cols[0], int32_t)[1501] == 10003);
    CHECK(!sqe_vector_is_null(second->cols[1], 1501));
    sqe_resultset_free(rs);
}

static void test_resultset_text_rows(void) {
    const char *names[3] = {"col_name", "data_type", "n"};
    sqe_type types[3] = {TY(SQE_T_VARCHAR), TY(SQE_T_VARCHAR), TY(SQE_T_BIGINT)};
    sqe_resultset *rs = sqe_resultset_new(3, names, types);
    const char *r1[3] = {"id", "integer", "42"};
    const char *r2[3] = {"comment", NULL, NULL};
    const char *r3[3] = {"a column with a long name", "varchar(10)", "not a number"};
    sqe_resultset_add_text_row(rs, r1);
    sqe_resultset_add_text_row(rs, r2);
    sqe_resultset_add_text_row(rs, r3);
    CHECK(rs->n_rows == 3 && rs->batches.len == 1);
    const sqe_batch *b = rs->batches.items[0];
    CHECK(b->n_rows == 3);
    CHECK_STR(str_at(b->cols[0], 0), "id");
    CHECK_STR(str_at(b->cols[1], 0), "integer");
    CHECK(SQE_VEC_DATA(b->cols[2], int64_t)[0] == 42 && !sqe_vector_is_null(b->cols[2], 0));
    CHECK_STR(str_at(b->cols[0], 1), "comment");
    CHECK(sqe_vector_is_null(b->cols[1], 1) && sqe_vector_is_null(b->cols[2], 1));
    CHECK(!sqe_vector_is_null(b->cols[0], 1));
    CHECK_STR(str_at(b->cols[0], 2), "a column with a long name");
    CHECK(!sqe_vector_is_null(b->cols[1], 2));
    CHECK(sqe_vector_is_null(b->cols[2], 2)); /* unparsable -> NULL */

    /* Many rows roll over into new batches. */
    for (int i = 0; i < 3000; i++) sqe_resultset_add_text_row(rs, r1);
    CHECK(rs->n_rows == 3003 && rs->batches.len == 2);
    CHECK(rs->batches.items[0]->n_rows == SQE_BATCH_ROWS &&
          rs->batches.items[1]->n_rows == 3003 - SQE_BATCH_ROWS);
    sqe_resultset_free(rs);

    /* Zero columns (a statement with no result columns) and NULL names. */
    sqe_resultset *z = sqe_resultset_new(0, NULL, NULL);
    sqe_resultset_add_text_row(z, NULL);
    CHECK(z->n_rows == 1);
    sqe_resultset_free(z);
    sqe_type one = TY(SQE_T_DOUBLE);
    sqe_resultset *u = sqe_resultset_new(1, NULL, &one);
    CHECK_STR(u->names[0], "");
    const char *dv[1] = {"1.5"};
    sqe_resultset_add_text_row(u, dv);
    CHECK(SQE_VEC_DATA(u->batches.items[0]->cols[0], double)[0] == 1.5);
    sqe_resultset_free(u);
}

static void test_resultset_types(void) {
    /* Every fixed-width type, dense and selected, with NULLs. */
    sqe_type types[4] = {TY(SQE_T_BOOLEAN), sqe_type_decimal(20, 3), TY(SQE_T_TIMESTAMP),
                         TY(SQE_T_NULL)};
    const char *names[4] = {"b", "d", "t", "n"};
    sqe_resultset *rs = sqe_resultset_new(4, names, types);
    sqe_batch *b = sqe_batch_new(4, types);
    for (uint32_t r = 0; r < 100; r++) {
        SQE_VEC_DATA(b->cols[0], uint8_t)[r] = (uint8_t)(r & 1);
        SQE_VEC_DATA(b->cols[1], sqe_i128)[r] = (sqe_i128)r * 1000 - 7;
        SQE_VEC_DATA(b->cols[2], int64_t)[r] = (int64_t)r * 1000000;
        sqe_vector_set_null(b->cols[3], r);
    }
    sqe_vector_set_null(b->cols[1], 10);
    b->n_rows = 100;
    sqe_resultset_append(rs, b);
    b->sel = b->sel_buf;
    b->sel_buf[0] = 10;
    b->sel_buf[1] = 99;
    b->n_sel = 2;
    sqe_resultset_append(rs, b);
    sqe_batch_free(b);
    CHECK(rs->n_rows == 102);
    const sqe_batch *o = rs->batches.items[0];
    sqe_value v;
    sqe_vector_get_value(o->cols[1], 11, &v);
    CHECK(!v.is_null && v.v.dec == 10993 && v.type.scale == 3);
    CHECK(sqe_vector_is_null(o->cols[1], 10) && sqe_vector_is_null(o->cols[1], 100));
    CHECK(!sqe_vector_is_null(o->cols[1], 101));
    CHECK(SQE_VEC_DATA(o->cols[2], int64_t)[101] == 99000000);
    CHECK(SQE_VEC_DATA(o->cols[0], uint8_t)[101] == 1 &&
          SQE_VEC_DATA(o->cols[0], uint8_t)[100] == 0);
    CHECK(sqe_vector_is_null(o->cols[3], 0) && sqe_vector_is_null(o->cols[3], 101));
    sqe_resultset_free(rs);
}

/* ------------------------------------------------------ memory accounts */

static void test_mem_account(void) {
    atomic_size_t used, peak;
    atomic_init(&used, 0);
    atomic_init(&peak, 0);
    sqe_mem_account a = {&used, &peak, 100000};

    /* charge / release / refuse */
    CHECK(sqe_mem_account_charge(&a, 60000));
    CHECK(!sqe_mem_account_charge(&a, 50000)); /* would pass the limit: nothing changes */
    CHECK(atomic_load(&used) == 60000);
    CHECK(!sqe_mem_account_charge(&a, SIZE_MAX)); /* overflow */
    sqe_mem_account_release(&a, 60000);
    CHECK(atomic_load(&used) == 0 && atomic_load(&peak) == 60000);
    sqe_mem_account_add(&a, 150000); /* existing bytes: never refused */
    CHECK(atomic_load(&used) == 150000 && atomic_load(&peak) == 150000);
    sqe_mem_account_release(&a, 150000);
    CHECK(sqe_mem_account_charge(NULL, 1 << 30));
    sqe_mem_account inert = {NULL, NULL, 1};
    CHECK(sqe_mem_account_charge(&inert, 1 << 30));
    sqe_error err;
    sqe_error_clear(&err);
    CHECK(!sqe_mem_account_error(&a, "lpad", &err));
    CHECK(err.cls == SQE_ERR_RESOURCE_EXHAUSTED);
    CHECK_STR(err.msg, "query exceeded the memory limit of 100000 bytes in lpad");

    /* a vector's heap charges every chunk and gives it back */
    sqe_vector *v = sqe_vector_new(TY(SQE_T_VARCHAR));
    sqe_vector_set_account(v, &a);
    char big[40000];
    memset(big, 'q', sizeof big);
    CHECK(sqe_vector_set_string(v, 0, "a string longer than twelve", 27));
    size_t first = atomic_load(&used);
    CHECK(first > 8192 && first == v->charged);
    CHECK(sqe_vector_set_string(v, 1, big, sizeof big));
    CHECK(sqe_vector_set_string(v, 2, big, sizeof big));
    CHECK(atomic_load(&used) == v->charged && v->charged > 80000);
    /* the third 40 KB string would pass 100 KB: refused, row 3 untouched */
    SQE_VEC_DATA(v, sqe_string)[3] = sqe_string_ref("old", 3);
    CHECK(!sqe_vector_set_string(v, 3, big, sizeof big));
    CHECK(sqe_vector_heap_alloc(v, sizeof big) == NULL);
    CHECK(strcmp(str_at(v, 3), "old") == 0);
    CHECK(atomic_load(&used) == v->charged);
    /* what was stored is intact */
    CHECK(SQE_VEC_DATA(v, sqe_string)[2].len == sizeof big);
    CHECK(memcmp(sqe_string_data(&SQE_VEC_DATA(v, sqe_string)[2]), big, sizeof big) == 0);
    /* inline strings need no heap and always succeed */
    CHECK(sqe_vector_set_string(v, 4, "short", 5));
    sqe_value val = sqe_value_null(TY(SQE_T_VARCHAR));
    val.is_null = false;
    val.v.s.ptr = big;
    val.v.s.len = sizeof big;
    CHECK(!sqe_vector_set_value(v, 5, &val));
    sqe_vector *src = sqe_vector_new(TY(SQE_T_VARCHAR));
    sqe_vector_set_string(src, 0, big, sizeof big);
    CHECK(!sqe_vector_copy_row(v, 6, src, 0));
    /* reset keeps (and keeps charging) only the first chunk */
    sqe_vector_reset(v);
    CHECK(atomic_load(&used) == first && v->charged == first);
    CHECK(sqe_vector_set_string(v, 0, big, sizeof big));
    CHECK(sqe_vector_copy_row(v, 1, src, 0));
    /* moving to another account moves the charge */
    atomic_size_t used2;
    atomic_init(&used2, 0);
    sqe_mem_account b = {&used2, NULL, 0};
    size_t held = v->charged;
    sqe_vector_set_account(v, &b);
    CHECK(atomic_load(&used) == 0 && atomic_load(&used2) == held);
    CHECK(sqe_vector_set_string(v, 2, big, sizeof big)); /* no limit */
    sqe_vector_free(v);
    CHECK(atomic_load(&used2) == 0);
    /* without an account nothing is counted */
    sqe_vector_set_string(src, 1, big, sizeof big);
    CHECK(src->charged == 0 && atomic_load(&used) == 0);
    sqe_vector_free(src);
}

/* Vectors sized by their rows: sqe_vector_new_cap grows with reserve
 * (charged to the account, refused past its limit), sqe_vector_new_rows is
 * fixed and allocates only the validity words its rows need. */
static void test_sized_vectors(void) {
    atomic_size_t used;
    atomic_init(&used, 0);
    sqe_mem_account a = {&used, NULL, 12000};
    sqe_vector *v = sqe_vector_new_cap(sqe_type_make(SQE_T_BIGINT), 0);
    sqe_vector_set_account(v, &a);
    CHECK(v->cap == 0);
    CHECK(sqe_vector_reserve(v, 3) && v->cap >= 3 && v->cap < SQE_BATCH_ROWS);
    SQE_VEC_DATA(v, int64_t)[2] = 42;
    CHECK(sqe_vector_reserve(v, 1000) && v->cap >= 1000);
    CHECK(SQE_VEC_DATA(v, int64_t)[2] == 42 && SQE_VEC_DATA(v, int64_t)[999] == 0);
    CHECK(atomic_load(&used) == (size_t)v->cap * 8); /* cap 0 at creation: all growth */
    CHECK(!sqe_vector_reserve(v, SQE_BATCH_ROWS));   /* 8 KB more passes 12000 */
    CHECK(v->cap < SQE_BATCH_ROWS);
    sqe_vector_set_null(v, 999);
    CHECK(sqe_vector_is_null(v, 999) && !sqe_vector_is_null(v, 2));
    sqe_vector_free(v);
    CHECK(atomic_load(&used) == 0);

    sqe_vector *f = sqe_vector_new_rows(sqe_type_make(SQE_T_INTEGER), 70);
    CHECK(f->fixed && f->cap == 70 && sqe_vector_validity_words(f) == 2);
    sqe_vector_set_null(f, 69);
    CHECK(sqe_vector_is_null(f, 69) && !sqe_vector_is_null(f, 68));
    CHECK(!sqe_vector_reserve(f, 71));
    sqe_vector_free(f);
    sqe_vector *z = sqe_vector_new_rows(sqe_type_make(SQE_T_VARCHAR), 0);
    CHECK(sqe_vector_validity_words(z) == 1);
    sqe_vector_free(z);
}

/* ---------------------------------------------------------- dictionaries */

/* Dictionary annotations: ids are unique and never 0; flattening writes the
 * flat values (so any consumer reads them) and the entry indexes, with and
 * without NULLs, for 4-, 8- and 16-byte values (long strings as views into
 * the dictionary); a reset drops the annotation. */
static void test_dictionary(void) {
    uint64_t a = sqe_vector_dict_new_id(), b = sqe_vector_dict_new_id();
    CHECK(a != 0 && b != 0 && a != b);

    sqe_vector *v = sqe_vector_new(TY(SQE_T_INTEGER));
    CHECK(v->dict_id == 0);
    const int32_t ents[3] = {10, 20, 30};
    const uint32_t idx[4] = {2, 0, 2, 1};
    sqe_vector_dict_flatten(v, 0, ents, idx, NULL, 4);
    const int32_t *d = SQE_VEC_DATA(v, int32_t);
    CHECK(d[0] == 30 && d[1] == 10 && d[2] == 30 && d[3] == 20);
    CHECK(!v->has_nulls);
    CHECK(v->dict_idx && v->dict_idx[0] == 2 && v->dict_idx[3] == 1);
    /* rows after the first four, with NULLs: idx holds only valid rows' */
    const uint8_t valid[4] = {1, 0, 0, 1};
    const uint32_t vidx[2] = {1, 0};
    sqe_vector_dict_flatten(v, 4, ents, vidx, valid, 4);
    CHECK(d[4] == 20 && d[7] == 10);
    CHECK(!sqe_vector_is_null(v, 4) && sqe_vector_is_null(v, 5) && sqe_vector_is_null(v, 6));
    CHECK(!sqe_vector_is_null(v, 7) && !sqe_vector_is_null(v, 3));
    CHECK(v->dict_idx[4] == 1 && v->dict_idx[7] == 0);
    v->dict_id = a;
    v->dict_size = 3;
    sqe_vector_reset(v);
    CHECK(v->dict_id == 0); /* the annotation belongs to the contents */
    sqe_vector_free(v);

    sqe_vector *big = sqe_vector_new(TY(SQE_T_BIGINT));
    const int64_t bents[2] = {-5, 1LL << 40};
    const uint32_t bidx[3] = {1, 1, 0};
    sqe_vector_dict_flatten(big, 100, bents, bidx, NULL, 3);
    CHECK(SQE_VEC_DATA(big, int64_t)[100] == (1LL << 40) && SQE_VEC_DATA(big, int64_t)[102] == -5);
    sqe_vector_free(big);

    sqe_vector *sv = sqe_vector_new(TY(SQE_T_VARCHAR));
    static const char longv[] = "a string longer than twelve bytes";
    sqe_string sents[2] = {sqe_string_ref("red", 3),
                           sqe_string_ref(longv, (uint32_t)sizeof longv - 1)};
    const uint32_t sidx[3] = {1, 0, 1};
    sqe_vector_dict_flatten(sv, 0, sents, sidx, NULL, 3);
    CHECK_STR(str_at(sv, 0), longv);
    CHECK_STR(str_at(sv, 1), "red");
    /* a view into the dictionary's bytes, not a copy */
    CHECK(SQE_VEC_DATA(sv, sqe_string)[2].u.ptr == longv);
    sqe_vector_free(sv);
}

int main(void) {
    RUN(test_sized_vectors);
    RUN(test_validity);
    RUN(test_strings);
    RUN(test_values);
    RUN(test_copy_row);
    RUN(test_batch);
    RUN(test_resultset);
    RUN(test_resultset_text_rows);
    RUN(test_resultset_types);
    RUN(test_mem_account);
    RUN(test_dictionary);
    return unit_report();
}
