/*
 * test_exec_sort.c - spill files, the external sort behind SortExec and
 * TopNExec, and the parallel sort.
 *
 *  - spill encoding: every type round-trips bit for bit (NULLs, NaN
 *    payloads, -0.0, infinities, 128-bit decimals, empty, inline and long
 *    strings), with and without a selection, read twice; the file is gone
 *    from the folder as soon as it exists; a full disk (RLIMIT_FSIZE in a
 *    child) and a missing folder fail with the documented messages.
 *  - external sort: 100k generated rows (VALUES, and a test-only generator
 *    operator) with duplicates, NULLs, NaN, -0.0 and long strings under
 *    several key sets (ASC/DESC, NULLS FIRST/LAST) give the same rows in the
 *    same order as an independent reference sort (qsort, ties by input
 *    order) with no limit and with memory limits small enough to force many
 *    runs, spilled in-memory runs and merge passes; tracked memory never
 *    passes the limit and is all given back.
 *  - cleanup: after success, an error in the input, a cancel, and a failed
 *    write, the per-test temp folder is empty and no descriptor is left
 *    open (files are unlinked at creation: the folder is empty even while a
 *    sort holds runs).
 *  - parallel: a sort and a top-N over a partitioned CSV table with a thread
 *    pool equal the serial answers, with and without a memory limit.
 *  - TopNExec with a large OFFSET under a small limit degrades to the
 *    external sort and returns the same rows.
 */
#include "exec/exec_int.h"
#include "sql/sql.h"
#include "unit.h"

#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static sqe_arena *A;
static char tmpdir[256];   /* the test's own folder (data, warehouse) */
static char spilldir[300]; /* the queries' temp_dir: must stay empty */

static const sqe_type T_BIGINT = {SQE_T_BIGINT, 0, 0, 0, 0};
static const sqe_type T_INT = {SQE_T_INTEGER, 0, 0, 0, 0};
static const sqe_type T_VARCHAR = {SQE_T_VARCHAR, 0, 0, 0, 0};
static const sqe_type T_DOUBLE = {SQE_T_DOUBLE, 0, 0, 0, 0};

/* ------------------------------------------------------------- helpers */

static int count_entries(const char *path) {
    DIR *d = opendir(path);
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    return n;
}

static int count_fds(void) {
    return count_entries("/proc/self/fd");
}

static sqe_plan *node(sqe_plan_kind kind, sqe_plan *child, int n_out, const sqe_type *types,
                      const char *const *names) {
    sqe_plan *p = sqe_arena_alloc(A, sizeof *p);
    p->kind = kind;
    p->n_children = child ? 1 : 0;
    p->children = sqe_arena_alloc(A, sizeof(sqe_plan *));
    p->children[0] = child;
    p->n_out = n_out;
    p->out_types = sqe_arena_alloc(A, (size_t)(n_out + 1) * sizeof(sqe_type));
    p->out_names = sqe_arena_alloc(A, (size_t)(n_out + 1) * sizeof(char *));
    for (int i = 0; i < n_out; i++) {
        p->out_types[i] = types[i];
        p->out_names[i] = names ? names[i] : sqe_arena_sprintf(A, "c%d", i);
    }
    p->est_rows = -1;
    return p;
}

static sqe_plan *sort_node(sqe_plan_kind kind, sqe_plan *child, int n_keys,
                           const sqe_sort_key *keys, uint64_t limit, uint64_t offset) {
    sqe_plan *p = node(kind, child, child->n_out, child->out_types, child->out_names);
    p->u.sort.n_keys = n_keys;
    p->u.sort.keys = sqe_arena_alloc(A, (size_t)(n_keys + 1) * sizeof *keys);
    memcpy(p->u.sort.keys, keys, (size_t)n_keys * sizeof *keys);
    p->u.sort.limit = limit;
    p->u.sort.offset = offset;
    return p;
}

/* ------------------------------------------------------- generated rows */

/* Columns: 0 id BIGINT (unique, input order), 1 k INTEGER (100 values and
 * NULLs), 2 s VARCHAR (NULL, empty, inline, long with a shared prefix),
 * 3 d DOUBLE (NULL, NaN, -0.0, 0.0, +-inf, duplicates), 4 x DECIMAL(18,2). */
#define N_ROWS 100000
typedef struct trow {
    int64_t id;
    int32_t k;
    bool kn, sn, dn, xn;
    char *s;
    double d;
    int64_t x;
} trow;

static trow *rows;
static sqe_type row_types[5];

static uint64_t lcg_state = 12345;
static uint64_t lcg(void) {
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return lcg_state >> 33;
}

static void gen_rows(void) {
    row_types[0] = T_BIGINT;
    row_types[1] = T_INT;
    row_types[2] = T_VARCHAR;
    row_types[3] = T_DOUBLE;
    row_types[4] = sqe_type_decimal(18, 2);
    rows = sqe_calloc(N_ROWS, sizeof *rows);
    for (int i = 0; i < N_ROWS; i++) {
        trow *r = &rows[i];
        r->id = i;
        r->kn = i % 37 == 0;
        r->k = (int32_t)(lcg() % 100);
        r->sn = i % 53 == 0;
        char buf[300];
        uint64_t v = lcg();
        if (i % 41 == 0)
            buf[0] = 0;
        else if (v % 3 == 0)
            snprintf(buf, sizeof buf, "s%03d", (int)(v % 500));
        else if (v % 3 == 1)
            snprintf(buf, sizeof buf, "long-value-%06d-%.*s", (int)(v % 20000), (int)(v % 17),
                     "abcdefghijklmnopq");
        else
            snprintf(buf, sizeof buf, "%.*s%d", 150 + (int)(v % 100),
                     "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"
                     "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"
                     "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"
                     "zzzzzzzzzzzzzzzzzzzzzzzzzz",
                     (int)(v % 7));
        r->s = sqe_strdup(buf);
        r->dn = i % 29 == 0;
        if (i % 31 == 0)
            r->d = NAN;
        else if (i % 43 == 0)
            r->d = -0.0;
        else if (i % 47 == 0)
            r->d = 0.0;
        else if (i % 59 == 0)
            r->d = INFINITY;
        else if (i % 61 == 0)
            r->d = -INFINITY;
        else
            r->d = ((double)(lcg() % 2000) - 1000.0) / 8.0;
        r->xn = i % 67 == 0;
        r->x = (int64_t)(lcg() % 200000) - 100000;
        if (i % 71 == 0) r->x = 99999999999999999LL; /* 18 digits */
    }
}

static sqe_plan *values_plan(int n) {
    const char *names[5] = {"id", "k", "s", "d", "x"};
    sqe_plan *p = node(SQE_PLAN_VALUES, NULL, 5, row_types, names);
    p->u.values.n_rows = n;
    p->u.values.rows = sqe_arena_alloc(A, (size_t)(n + 1) * sizeof(sqe_value *));
    for (int i = 0; i < n; i++) {
        const trow *r = &rows[i];
        sqe_value *v = sqe_arena_alloc(A, 5 * sizeof(sqe_value));
        v[0] = sqe_value_int(SQE_T_BIGINT, r->id);
        v[1] = r->kn ? sqe_value_null(T_INT) : sqe_value_int(SQE_T_INTEGER, r->k);
        v[2] = r->sn ? sqe_value_null(T_VARCHAR) : sqe_value_string(r->s, (uint32_t)strlen(r->s));
        v[3] = r->dn ? sqe_value_null(T_DOUBLE) : sqe_value_double(r->d);
        v[4] = r->xn ? sqe_value_null(row_types[4]) : sqe_value_decimal(r->x, 18, 2);
        p->u.values.rows[i] = v;
    }
    return p;
}

/* The reference order: sqe's ORDER BY semantics written out plainly. */
static const sqe_sort_key *ref_keys;
static int ref_n_keys;

static int ref_cmp_double(double a, double b, bool nulls_first) {
    bool na = isnan(a), nb = isnan(b);
    if (na || nb) {
        if (na && nb) return 0;
        /* NaN is the largest value with NULLS LAST, the smallest with NULLS FIRST */
        int c = na ? 1 : -1;
        return nulls_first ? -c : c;
    }
    return a < b ? -1 : a > b; /* -0.0 == 0.0 */
}

static int ref_cmp(const void *pa, const void *pb) {
    const trow *a = pa, *b = pb;
    for (int k = 0; k < ref_n_keys; k++) {
        const sqe_sort_key *key = &ref_keys[k];
        bool an = false, bn = false;
        int c = 0;
        switch (key->col) {
        case 0:
            c = a->id < b->id ? -1 : a->id > b->id;
            break;
        case 1:
            an = a->kn, bn = b->kn;
            c = a->k < b->k ? -1 : a->k > b->k;
            break;
        case 2: {
            an = a->sn, bn = b->sn;
            size_t la = strlen(a->s), lb = strlen(b->s);
            c = memcmp(a->s, b->s, la < lb ? la : lb);
            if (!c) c = la < lb ? -1 : la > lb;
            break;
        }
        case 3:
            an = a->dn, bn = b->dn;
            c = ref_cmp_double(a->d, b->d, key->nulls_first);
            break;
        case 4:
            an = a->xn, bn = b->xn;
            c = a->x < b->x ? -1 : a->x > b->x;
            break;
        }
        if (an || bn) {
            if (an && bn) continue;
            return (an ? 1 : -1) * (key->nulls_first ? -1 : 1);
        }
        if (c) return key->desc ? -c : c;
    }
    return a->id < b->id ? -1 : a->id > b->id; /* ties: input order */
}

/* The ids of rows[0..n) in reference order (malloc'd). */
static int64_t *ref_order(int n, int n_keys, const sqe_sort_key *keys) {
    trow *copy = sqe_malloc((size_t)n * sizeof *copy);
    memcpy(copy, rows, (size_t)n * sizeof *copy);
    ref_keys = keys;
    ref_n_keys = n_keys;
    qsort(copy, (size_t)n, sizeof *copy, ref_cmp);
    int64_t *ids = sqe_malloc((size_t)n * sizeof *ids);
    for (int i = 0; i < n; i++) ids[i] = copy[i].id;
    sqe_free(copy);
    return ids;
}

/* --------------------------------------------------- GenExec (test only) */

/* A leaf producing rows[0..n) in batches of SQE_BATCH_ROWS; at batch
 * `at_batch` it may fail, set a cancel flag, or check that the spill folder
 * is empty while more descriptors than `fds_base` are open. */
typedef struct gen_cfg {
    int n;
    int at_batch;
    bool fail;
    atomic_bool *cancel;
    int fds_base;
    int checked;     /* set when the mid-run check ran */
    uint32_t stride; /* live rows through a selection: every stride-th row (0/1: all) */
} gen_cfg;

typedef struct gen_op {
    sqe_op base;
    gen_cfg *cfg;
    int next, batches;
    sqe_batch *out;
} gen_op;

static bool gen_open(sqe_op *op, sqe_error *err) {
    gen_op *g = (gen_op *)op;
    g->out = sqe_batch_new(5, row_types);
    return true;
}

static bool gen_next(sqe_op *op, sqe_batch **out, bool *eof, sqe_error *err) {
    gen_op *g = (gen_op *)op;
    gen_cfg *cfg = g->cfg;
    if (g->batches == cfg->at_batch) {
        if (cfg->fail) return sqe_error_set(err, SQE_ERR_INVALID_DATA, "generator failed here");
        if (cfg->cancel) atomic_store(cfg->cancel, true);
        if (cfg->fds_base) {
            cfg->checked = 1;
            CHECK(count_fds() > cfg->fds_base);  /* runs are open ... */
            CHECK(count_entries(spilldir) == 0); /* ... and already unlinked */
        }
    }
    if (g->next >= cfg->n) {
        *eof = true;
        return true;
    }
    g->batches++;
    sqe_batch *b = g->out;
    sqe_batch_reset(b);
    uint32_t n = (uint32_t)SQE_MIN(cfg->n - g->next, SQE_BATCH_ROWS);
    for (uint32_t i = 0; i < n; i++) {
        const trow *r = &rows[g->next + (int)i];
        SQE_VEC_DATA(b->cols[0], int64_t)[i] = r->id;
        if (r->kn)
            sqe_vector_set_null(b->cols[1], i);
        else
            SQE_VEC_DATA(b->cols[1], int32_t)[i] = r->k;
        if (r->sn)
            sqe_vector_set_null(b->cols[2], i);
        else
            sqe_vector_set_string(b->cols[2], i, r->s, strlen(r->s));
        if (r->dn)
            sqe_vector_set_null(b->cols[3], i);
        else
            SQE_VEC_DATA(b->cols[3], double)[i] = r->d;
        if (r->xn)
            sqe_vector_set_null(b->cols[4], i);
        else
            SQE_VEC_DATA(b->cols[4], sqe_i128)[i] = r->x;
    }
    b->n_rows = n;
    if (cfg->stride > 1) {
        uint32_t m = 0;
        for (uint32_t i = 0; i < n; i++)
            if ((g->next + (int)i) % (int)cfg->stride == 0) b->sel_buf[m++] = (uint16_t)i;
        b->sel = b->sel_buf;
        b->n_sel = m;
    }
    g->next += (int)n;
    *eof = false;
    *out = b;
    if (cfg->stride > 1 && b->n_sel == 0) return gen_next(op, out, eof, err);
    return true;
}

static void gen_close(sqe_op *op) {
    gen_op *g = (gen_op *)op;
    sqe_batch_free(g->out);
    g->out = NULL;
}

static const sqe_op_vtable gen_vtable = {"GenExec", gen_open, gen_next, gen_close};

/* ------------------------------------------------------------- running */

typedef struct result {
    char *err; /* "CLASS: message", or NULL */
    char *text;
    int64_t *ids;
    size_t n;
    uint64_t spill_files;
    size_t mem_peak, mem_after;
} result;

static void result_free(result *r) {
    sqe_free(r->err);
    sqe_free(r->text);
    sqe_free(r->ids);
    memset(r, 0, sizeof *r);
}

static uint64_t t_parallel_min = 1;

/* Runs plan p (a SORT or TOPN root) through its own context; with gen, the
 * root's input is replaced by a generator. Column 0 of the output is the
 * row id. */
static result run_plan(const sqe_plan *p, int threads, sqe_threadpool *pool, size_t limit,
                       gen_cfg *gen, const atomic_bool *cancel) {
    result res;
    memset(&res, 0, sizeof res);
    sqe_exec_options o;
    memset(&o, 0, sizeof o);
    o.threads = threads;
    o.pool = pool;
    o.memory_limit = limit;
    o.parallel_min_bytes = t_parallel_min;
    o.temp_dir = spilldir;
    o.cancel = cancel;
    sqe_exec_ctx ctx;
    sqe_exec_ctx_init(&ctx, &o);
    sqe_error err;
    sqe_error_clear(&err);
    sqe_op *root = sqe_op_build(&ctx, p, NULL, &err);
    CHECK(root != NULL);
    if (!root) {
        sqe_exec_ctx_destroy(&ctx);
        res.err = sqe_strdup(err.msg);
        return res;
    }
    if (gen) {
        sqe_op_free(root->children[0]);
        gen_op *g = sqe_calloc(1, sizeof *g);
        g->base.vt = &gen_vtable;
        g->base.plan = p->children[0];
        g->base.ctx = &ctx;
        g->base.children = sqe_calloc(1, sizeof(sqe_op *));
        g->cfg = gen;
        root->children[0] = &g->base;
    }
    sqe_strbuf text;
    sqe_strbuf_init(&text);
    SQE_ARRAY(int64_t) ids = {0};
    bool ok = sqe_op_open(root, &err);
    while (ok) {
        sqe_batch *b = NULL;
        bool eof = false;
        if (!sqe_op_next(root, &b, &eof, &err)) {
            ok = false;
            break;
        }
        if (eof) break;
        for (uint32_t i = 0; i < sqe_batch_live(b); i++) {
            uint32_t r = sqe_batch_row(b, i);
            for (int c = 0; c < b->n_cols; c++) {
                if (c) sqe_strbuf_putc(&text, '|');
                sqe_value v;
                sqe_vector_get_value(b->cols[c], r, &v);
                sqe_value_format(&v, &text);
                if (c == 0) SQE_ARRAY_PUSH(NULL, ids, v.is_null ? -1 : v.v.i);
            }
            sqe_strbuf_putc(&text, '\n');
        }
    }
    sqe_op_free(root);
    res.spill_files = atomic_load(&ctx.spill_files);
    res.mem_peak = atomic_load(&ctx.mem_peak);
    res.mem_after = atomic_load(&ctx.mem_used);
    sqe_exec_ctx_destroy(&ctx);
    if (!ok) res.err = sqe_asprintf("%s: %s", sqe_error_class_name(err.cls), err.msg);
    res.text = sqe_strbuf_detach(&text);
    if (!res.text) res.text = sqe_strdup("");
    res.ids = ids.items;
    res.n = ids.len;
    return res;
}

/* ------------------------------------------------------------ spill files */

static const sqe_type all_types[] = {
    {SQE_T_BOOLEAN, 0, 0, 0, 0},   {SQE_T_TINYINT, 0, 0, 0, 0},  {SQE_T_SMALLINT, 0, 0, 0, 0},
    {SQE_T_INTEGER, 0, 0, 0, 0},   {SQE_T_BIGINT, 0, 0, 0, 0},   {SQE_T_REAL, 0, 0, 0, 0},
    {SQE_T_DOUBLE, 0, 0, 0, 0},    {SQE_T_DECIMAL, 38, 5, 0, 0}, {SQE_T_VARCHAR, 0, 0, 0, 0},
    {SQE_T_VARBINARY, 0, 0, 0, 0}, {SQE_T_DATE, 0, 0, 0, 0},     {SQE_T_TIMESTAMP, 0, 0, 0, 0},
    {SQE_T_NULL, 0, 0, 0, 0},
};
#define N_ALL ((int)SQE_ARRAY_LEN(all_types))

static char *long_string(size_t n, int seed) {
    char *s = sqe_malloc(n + 1);
    for (size_t i = 0; i < n; i++) s[i] = (char)('a' + (i * 7 + (size_t)seed) % 26);
    s[n] = 0;
    return s;
}

/* Fills row r of every column: NULL when r % 5 == 3, else values that
 * stress the encoding. */
static void fill_row(sqe_batch *b, uint32_t r, const char *big) {
    for (int c = 0; c < N_ALL; c++) {
        sqe_vector *v = b->cols[c];
        if (all_types[c].id == SQE_T_NULL || r % 5 == 3) {
            sqe_vector_set_null(v, r);
            continue;
        }
        int64_t x = (int64_t)r * 2654435761LL - 1000000000LL;
        switch (all_types[c].id) {
        case SQE_T_BOOLEAN:
            SQE_VEC_DATA(v, uint8_t)[r] = (uint8_t)(r & 1);
            break;
        case SQE_T_TINYINT:
            SQE_VEC_DATA(v, int8_t)[r] = (int8_t)(r % 2 ? -128 : (int8_t)x);
            break;
        case SQE_T_SMALLINT:
            SQE_VEC_DATA(v, int16_t)[r] = (int16_t)x;
            break;
        case SQE_T_INTEGER:
        case SQE_T_DATE:
            SQE_VEC_DATA(v, int32_t)[r] = r == 1 ? INT32_MIN : (int32_t)x;
            break;
        case SQE_T_BIGINT:
        case SQE_T_TIMESTAMP:
            SQE_VEC_DATA(v, int64_t)[r] = r == 1 ? INT64_MIN : x * 1000003;
            break;
        case SQE_T_REAL: {
            float f = r % 7 == 0 ? -0.0f : r % 7 == 1 ? NAN : r % 7 == 2 ? -INFINITY : (float)x;
            SQE_VEC_DATA(v, float)[r] = f;
            break;
        }
        case SQE_T_DOUBLE: {
            double d = (double)x / 3.0;
            if (r % 7 == 0) d = -0.0;
            if (r % 7 == 1) {
                uint64_t bits = 0x7ff8000000001234ULL; /* a NaN with a payload */
                memcpy(&d, &bits, 8);
            }
            if (r % 7 == 2) d = INFINITY;
            SQE_VEC_DATA(v, double)[r] = d;
            break;
        }
        case SQE_T_DECIMAL: {
            sqe_i128 big10 = 1;
            for (int i = 0; i < 38; i++) big10 *= 10;
            sqe_i128 val = r % 4 == 0 ? big10 - 1 : r % 4 == 1 ? -(big10 - 1) : (sqe_i128)x * x;
            SQE_VEC_DATA(v, sqe_i128)[r] = val;
            break;
        }
        case SQE_T_VARCHAR:
        case SQE_T_VARBINARY: {
            size_t len = r % 6 == 0   ? 0
                         : r % 6 == 1 ? 12
                         : r % 6 == 2 ? 13
                         : r % 6 == 4 ? 200 + r % 1000
                                      : 1 + r % 40;
            if (r == 2) len = 300000; /* larger than the I/O buffer */
            sqe_vector_set_string(v, r, big + (r % 11), len);
            break;
        }
        default:
            break;
        }
    }
}

/* Whether row rb of b equals row ra of a, bit for bit. */
static bool same_row(const sqe_batch *a, uint32_t ra, const sqe_batch *b, uint32_t rb) {
    for (int c = 0; c < N_ALL; c++) {
        const sqe_vector *va = a->cols[c], *vb = b->cols[c];
        bool na = all_types[c].id == SQE_T_NULL || sqe_vector_is_null(va, ra);
        bool nb = all_types[c].id == SQE_T_NULL || sqe_vector_is_null(vb, rb);
        if (na != nb) return false;
        if (na) continue;
        size_t w = sqe_type_width(all_types[c]);
        if (all_types[c].id == SQE_T_VARCHAR || all_types[c].id == SQE_T_VARBINARY) {
            const sqe_string *sa = &SQE_VEC_DATA(va, sqe_string)[ra];
            const sqe_string *sb = &SQE_VEC_DATA(vb, sqe_string)[rb];
            if (sa->len != sb->len) return false;
            if (memcmp(sqe_string_data(sa), sqe_string_data(sb), sa->len)) return false;
            continue;
        }
        if (memcmp((const char *)va->data + w * ra, (const char *)vb->data + w * rb, w))
            return false;
    }
    return true;
}

static void test_spill_roundtrip(void) {
    sqe_exec_options o = {.temp_dir = spilldir};
    sqe_exec_ctx ctx;
    sqe_exec_ctx_init(&ctx, &o);
    sqe_error err;
    sqe_error_clear(&err);
    int fds0 = count_fds();
    char *big = long_string(400000, 3);
    sqe_batch *b = sqe_batch_new(N_ALL, all_types);
    for (uint32_t r = 0; r < SQE_BATCH_ROWS; r++) fill_row(b, r, big);
    b->n_rows = SQE_BATCH_ROWS;
    uint16_t sel[SQE_BATCH_ROWS];
    uint32_t n_sel = 0;
    for (uint32_t r = 0; r < SQE_BATCH_ROWS; r += 3) sel[n_sel++] = (uint16_t)r;

    sqe_spill_file *f = sqe_spill_create(&ctx, N_ALL, all_types, "TestExec", &err);
    CHECK(f != NULL);
    if (!f) return;
    CHECK(count_entries(spilldir) == 0); /* unlinked at once */
    CHECK(count_fds() == fds0 + 1);
    CHECK(sqe_spill_write(f, b, NULL, SQE_BATCH_ROWS, &err)); /* all rows */
    CHECK(sqe_spill_write(f, b, sel, n_sel, &err));           /* a selection */
    CHECK(sqe_spill_write(f, b, NULL, 1, &err));              /* one row */
    CHECK(sqe_spill_write(f, b, sel, 0, &err));               /* nothing */
    CHECK(sqe_spill_rows(f) == SQE_BATCH_ROWS + n_sel + 1);
    CHECK(sqe_spill_max_batch_bytes(f) > 300000);
    sqe_batch *in = sqe_batch_new(N_ALL, all_types);
    for (int pass = 0; pass < 2; pass++) { /* read twice */
        CHECK(sqe_spill_rewind(f, &err));
        bool eof = false;
        CHECK(sqe_spill_read(f, in, &eof, &err) && !eof);
        CHECK(in->n_rows == SQE_BATCH_ROWS && in->sel == NULL);
        bool all_same = true;
        for (uint32_t r = 0; r < SQE_BATCH_ROWS; r++) all_same &= same_row(b, r, in, r);
        CHECK(all_same);
        CHECK(sqe_spill_read(f, in, &eof, &err) && !eof);
        CHECK(in->n_rows == n_sel);
        all_same = true;
        for (uint32_t i = 0; i < n_sel; i++) all_same &= same_row(b, sel[i], in, i);
        CHECK(all_same);
        CHECK(sqe_spill_read(f, in, &eof, &err) && !eof);
        CHECK(in->n_rows == 1 && same_row(b, 0, in, 0));
        CHECK(sqe_spill_read(f, in, &eof, &err) && eof);
        CHECK(sqe_spill_read(f, in, &eof, &err) && eof); /* stays at the end */
    }
    /* -0.0 and the NaN payload kept exactly */
    double d0 = SQE_VEC_DATA(b->cols[6], double)[0];
    CHECK(signbit(d0) && d0 == 0);
    CHECK(atomic_load(&ctx.spill_files) == 1);
    CHECK(atomic_load(&ctx.spill_bytes) == sqe_spill_bytes(f));
    CHECK(sqe_spill_bytes(f) > 300000);
    sqe_spill_close(f);
    CHECK(count_fds() == fds0);

    /* A batch with a NULL-typed vector in a typed column reads back as NULLs. */
    sqe_type vt[1] = {T_VARCHAR}, nt[1] = {{SQE_T_NULL, 0, 0, 0, 0}};
    sqe_batch *nb = sqe_batch_new(1, nt);
    nb->n_rows = 5;
    f = sqe_spill_create(&ctx, 1, vt, "TestExec", &err);
    CHECK(f && sqe_spill_write(f, nb, NULL, 5, &err));
    sqe_batch *vin = sqe_batch_new(1, vt);
    bool eof = false;
    CHECK(f && sqe_spill_read(f, vin, &eof, &err) && !eof && vin->n_rows == 5);
    for (uint32_t r = 0; r < 5; r++) CHECK(sqe_vector_is_null(vin->cols[0], r));
    sqe_spill_close(f);
    sqe_batch_free(nb);
    sqe_batch_free(vin);

    /* A folder that does not exist. */
    sqe_exec_options bad = {.temp_dir = "/nonexistent/sqe-spill-test"};
    sqe_exec_ctx bctx;
    sqe_exec_ctx_init(&bctx, &bad);
    CHECK(sqe_spill_create(&bctx, N_ALL, all_types, "TestExec", &err) == NULL);
    CHECK(err.cls == SQE_ERR_STORAGE);
    CHECK_STR(err.msg, "could not create temporary file in '/nonexistent/sqe-spill-test' for "
                       "TestExec: No such file or directory");
    sqe_exec_ctx_destroy(&bctx);

    sqe_batch_free(in);
    sqe_batch_free(b);
    sqe_free(big);
    sqe_exec_ctx_destroy(&ctx);
    CHECK(count_entries(spilldir) == 0);
}

/* A full disk, simulated with RLIMIT_FSIZE (writes fail with EFBIG) in a
 * child process: a raw spill write and a whole external sort fail with
 * RESOURCE_EXHAUSTED naming the operator, and leave nothing behind. */
static void test_spill_disk_full(const sqe_plan *sort) {
    int fds0 = count_fds();
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = {256 << 10, 256 << 10};
        setrlimit(RLIMIT_FSIZE, &rl);
        int bad = 0;
        sqe_exec_options o = {.temp_dir = spilldir};
        sqe_exec_ctx ctx;
        sqe_exec_ctx_init(&ctx, &o);
        sqe_error err;
        sqe_error_clear(&err);
        char *big = long_string(400000, 1);
        sqe_batch *b = sqe_batch_new(N_ALL, all_types);
        for (uint32_t r = 0; r < SQE_BATCH_ROWS; r++) fill_row(b, r, big);
        b->n_rows = SQE_BATCH_ROWS;
        sqe_spill_file *f = sqe_spill_create(&ctx, N_ALL, all_types, "TestExec", &err);
        bool ok = f != NULL;
        for (int i = 0; i < 100 && ok; i++) ok = sqe_spill_write(f, b, NULL, SQE_BATCH_ROWS, &err);
        if (ok) ok = sqe_spill_rewind(f, &err);
        if (ok || err.cls != SQE_ERR_RESOURCE_EXHAUSTED ||
            strcmp(err.msg, "could not write temporary file for TestExec: File too large") != 0)
            bad |= 1;
        if (f && sqe_spill_write(f, b, NULL, 1, &err)) bad |= 2; /* refuses further use */
        sqe_spill_close(f);
        sqe_exec_ctx_destroy(&ctx);
        result r = run_plan(sort, 1, NULL, 2 << 20, NULL, NULL);
        if (!r.err || !strstr(r.err, "RESOURCE_EXHAUSTED: could not write temporary file for "
                                     "SortExec: File too large"))
            bad |= 4;
        if (r.mem_after != 0) bad |= 8;
        if (count_entries(spilldir) != 0) bad |= 16;
        if (count_fds() != fds0) bad |= 32;
        if (bad) fprintf(stderr, "disk full child: bad=%d err=%s\n", bad, r.err ? r.err : "none");
        _exit(bad);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* ------------------------------------------------------- external sort */

static bool ids_equal(const result *r, const int64_t *want, size_t n) {
    if (r->n != n) return false;
    for (size_t i = 0; i < n; i++)
        if (r->ids[i] != want[i]) return false;
    return true;
}

static void test_external_sort(sqe_threadpool *pool) {
    sqe_plan *vals = values_plan(N_ROWS);
    sqe_sort_key keysets[][3] = {
        {{1, false, false}, {2, true, true}, {0, 0, 0}},  /* k ASC NULLS LAST, s DESC NULLS FIRST */
        {{3, false, true}, {0, 0, 0}, {0, 0, 0}},         /* d ASC NULLS FIRST */
        {{3, true, false}, {2, false, false}, {0, 0, 0}}, /* d DESC NULLS LAST, s ASC */
        {{4, true, true}, {1, false, true}, {0, 0, 0}},   /* x DESC NULLS FIRST, k NULLS FIRST */
        {{2, false, false}, {0, 0, 0}, {0, 0, 0}},        /* s: long runs of ties */
        {{3, true, true}, {0, 0, 0}, {0, 0, 0}},          /* d DESC NULLS FIRST */
    };
    int nkeys[] = {2, 1, 2, 2, 1, 1};
    size_t limits[] = {0, 4 << 20, 2 << 20};
#if defined(__SANITIZE_THREAD__)
    size_t n_keysets = 2; /* ThreadSanitizer is slow: the parallel paths matter here */
#else
    size_t n_keysets = SQE_ARRAY_LEN(nkeys);
#endif
    for (size_t ks = 0; ks < n_keysets; ks++) {
        int64_t *want = ref_order(N_ROWS, nkeys[ks], keysets[ks]);
        sqe_plan *srt = sort_node(SQE_PLAN_SORT, vals, nkeys[ks], keysets[ks], 0, 0);
        char *first_text = NULL;
        for (size_t li = 0; li < SQE_ARRAY_LEN(limits); li++) {
            result r = run_plan(srt, 1, NULL, limits[li], NULL, NULL);
            CHECK(r.err == NULL);
            if (r.err) fprintf(stderr, "keyset %zu limit %zu: %s\n", ks, limits[li], r.err);
            CHECK(ids_equal(&r, want, N_ROWS));
            if (!ids_equal(&r, want, N_ROWS))
                fprintf(stderr, "keyset %zu limit %zu: wrong order\n", ks, limits[li]);
            CHECK(limits[li] == 0 ? r.spill_files == 0 : r.spill_files >= 2);
            if (limits[li]) CHECK(r.mem_peak <= limits[li]);
            CHECK(r.mem_after == 0);
            if (!first_text)
                first_text = sqe_strdup(r.text);
            else
                CHECK(strcmp(first_text, r.text) == 0); /* every value survives the spill */
            result_free(&r);
        }
        /* The same through the generator (selection vectors on every batch
         * but the first row of each 3) and with a thread pool (VALUES runs
         * as one copy: the pool sorts runs in parallel only). */
        gen_cfg g = {.n = N_ROWS, .at_batch = -1};
        result r = run_plan(srt, 4, pool, 2 << 20, &g, NULL);
        CHECK(r.err == NULL && ids_equal(&r, want, N_ROWS));
        CHECK(r.text && strcmp(r.text, first_text) == 0);
        result_free(&r);
        sqe_free(first_text);
        sqe_free(want);
    }

    /* A selection on the input: only every third row is live. */
    {
        sqe_sort_key k = {2, false, false};
        sqe_plan *srt = sort_node(SQE_PLAN_SORT, values_plan(0), 1, &k, 0, 0);
        gen_cfg g = {.n = N_ROWS, .at_batch = -1, .stride = 3};
        result r = run_plan(srt, 1, NULL, 2 << 20, &g, NULL);
        int64_t *all = ref_order(N_ROWS, 1, &k);
        int64_t *want = sqe_malloc(N_ROWS * sizeof *want);
        size_t n = 0;
        for (size_t i = 0; i < N_ROWS; i++)
            if (all[i] % 3 == 0) want[n++] = all[i];
        CHECK(r.err == NULL && ids_equal(&r, want, n));
        CHECK(r.spill_files >= 2);
        result_free(&r);
        sqe_free(all);
        sqe_free(want);
    }

    /* Too little memory for even one batch. */
    {
        sqe_sort_key k = {0, false, false};
        result r =
            run_plan(sort_node(SQE_PLAN_SORT, vals, 1, &k, 0, 0), 1, NULL, 64 << 10, NULL, NULL);
        CHECK_STR(r.err, "RESOURCE_EXHAUSTED: query exceeded the memory limit of 65536 bytes in "
                         "SortExec");
        CHECK(r.mem_after == 0);
        result_free(&r);
    }

    /* Empty input, with and without a limit. */
    {
        sqe_sort_key k = {0, false, false};
        sqe_plan *srt = sort_node(SQE_PLAN_SORT, values_plan(0), 1, &k, 0, 0);
        result r = run_plan(srt, 1, NULL, 2 << 20, NULL, NULL);
        CHECK(r.err == NULL && r.n == 0 && r.spill_files == 0);
        result_free(&r);
    }

    /* TopN: a small K stays in memory; a large OFFSET under a small limit
     * degrades to the external sort; both give the reference rows. */
    {
        sqe_sort_key k[2] = {{3, true, false}, {2, false, true}};
        int64_t *want = ref_order(N_ROWS, 2, k);
        struct {
            uint64_t limit, offset;
            size_t mem;
            bool spills;
        } cases[] = {
            {10, 0, 1 << 20, false},      {100, 5000, 0, false},       {10, 90000, 2 << 20, true},
            {5000, 80000, 3 << 20, true}, {10, 200000, 2 << 20, true}, {20000, 85000, 0, false},
        };
        for (size_t c = 0; c < SQE_ARRAY_LEN(cases); c++) {
            sqe_plan *tn = sort_node(SQE_PLAN_TOPN, vals, 2, k, cases[c].limit, cases[c].offset);
            result r = run_plan(tn, 1, NULL, cases[c].mem, NULL, NULL);
            size_t from = (size_t)SQE_MIN(cases[c].offset, (uint64_t)N_ROWS);
            size_t n = (size_t)SQE_MIN(cases[c].limit, (uint64_t)(N_ROWS - from));
            CHECK(r.err == NULL);
            if (r.err) fprintf(stderr, "topn case %zu: %s\n", c, r.err);
            CHECK(ids_equal(&r, want + from, n));
            CHECK(cases[c].spills ? r.spill_files > 0 : r.spill_files == 0);
            if (cases[c].mem) CHECK(r.mem_peak <= cases[c].mem);
            CHECK(r.mem_after == 0);
            result_free(&r);
        }
        /* Too little memory for one batch: the error names TopNExec. */
        sqe_plan *tn = sort_node(SQE_PLAN_TOPN, vals, 2, k, 10, 90000);
        result r = run_plan(tn, 1, NULL, 64 << 10, NULL, NULL);
        CHECK_CONTAINS(r.err, "RESOURCE_EXHAUSTED: query exceeded the memory limit of 65536 "
                              "bytes in TopNExec");
        result_free(&r);
        sqe_free(want);
    }
    CHECK(count_entries(spilldir) == 0);
}

/* Errors, cancels and full disks leave no file and no descriptor behind. */
static void test_cleanup(void) {
    sqe_sort_key k[2] = {{2, false, false}, {3, true, false}};
    sqe_plan *srt = sort_node(SQE_PLAN_SORT, values_plan(0), 2, k, 0, 0);
    int fds0 = count_fds();

    /* While the sort holds runs, they are open but not in the folder. */
    gen_cfg g = {.n = N_ROWS, .at_batch = 40, .fds_base = fds0};
    result r = run_plan(srt, 1, NULL, 2 << 20, &g, NULL);
    CHECK(r.err == NULL && r.n == N_ROWS && g.checked);
    result_free(&r);
    CHECK(count_fds() == fds0);
    CHECK(count_entries(spilldir) == 0);

    /* An error in the input after several runs were written. */
    gen_cfg ge = {.n = N_ROWS, .at_batch = 40, .fail = true};
    r = run_plan(srt, 1, NULL, 2 << 20, &ge, NULL);
    CHECK_STR(r.err, "INVALID_DATA: generator failed here");
    CHECK(r.spill_files >= 2 && r.mem_after == 0);
    result_free(&r);
    CHECK(count_fds() == fds0);
    CHECK(count_entries(spilldir) == 0);

    /* A cancel after several runs were written. */
    atomic_bool cancel;
    atomic_init(&cancel, false);
    gen_cfg gc = {.n = N_ROWS, .at_batch = 40, .cancel = &cancel};
    r = run_plan(srt, 1, NULL, 2 << 20, &gc, &cancel);
    CHECK_STR(r.err, "CANCELLED: query was cancelled");
    CHECK(r.spill_files >= 2 && r.mem_after == 0);
    result_free(&r);
    CHECK(count_fds() == fds0);
    CHECK(count_entries(spilldir) == 0);

    /* The same for TopN's external path. */
    sqe_plan *tn = sort_node(SQE_PLAN_TOPN, values_plan(0), 2, k, 10, 90000);
    gen_cfg gt = {.n = N_ROWS, .at_batch = 45, .fail = true};
    r = run_plan(tn, 1, NULL, 2 << 20, &gt, NULL);
    CHECK_STR(r.err, "INVALID_DATA: generator failed here");
    CHECK(r.spill_files >= 1 && r.mem_after == 0);
    result_free(&r);
    CHECK(count_fds() == fds0);
    CHECK(count_entries(spilldir) == 0);

    /* A full disk while writing runs. */
    test_spill_disk_full(sort_node(SQE_PLAN_SORT, values_plan(N_ROWS), 2, k, 0, 0));
    CHECK(count_entries(spilldir) == 0);
}

/* ------------------------------------------------------------ parallel */

static void write_file(const char *rel, const char *text) {
    char path[600], dir[600];
    snprintf(path, sizeof path, "%s/%s", tmpdir, rel);
    snprintf(dir, sizeof dir, "%s", path);
    for (char *p = dir + strlen(tmpdir) + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(dir, 0755);
            *p = '/';
        }
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

/* rows as CSV (id, k, s, d) in 4 partitions x 3 files; NULL is \N. */
static void write_table(void) {
    int per_file = N_ROWS / 12 + 1;
    for (int f = 0; f < 12; f++) {
        sqe_strbuf sb;
        sqe_strbuf_init(&sb);
        for (int i = f * per_file; i < (f + 1) * per_file && i < N_ROWS; i++) {
            const trow *r = &rows[i];
            sqe_strbuf_printf(&sb, "%lld,", (long long)r->id);
            if (r->kn)
                sqe_strbuf_puts(&sb, "\\N,");
            else
                sqe_strbuf_printf(&sb, "%d,", r->k);
            sqe_strbuf_printf(&sb, "%s,", r->sn ? "\\N" : r->s);
            if (r->dn)
                sqe_strbuf_puts(&sb, "\\N");
            else if (isnan(r->d))
                sqe_strbuf_puts(&sb, "NaN");
            else if (isinf(r->d))
                sqe_strbuf_puts(&sb, r->d > 0 ? "Infinity" : "-Infinity");
            else
                sqe_strbuf_printf(&sb, "%.17g", r->d);
            sqe_strbuf_putc(&sb, '\n');
        }
        char rel[128];
        snprintf(rel, sizeof rel, "t/dt=2024-01-0%d/part-%d.csv", f / 3 + 1, f % 3);
        write_file(rel, sb.data ? sb.data : "");
        sqe_strbuf_free(&sb);
    }
}

static sqe_hive_table *make_table(sqe_hive_catalog *cat) {
    sqe_error err;
    sqe_error_clear(&err);
    char *sql = sqe_asprintf("CREATE EXTERNAL TABLE lake.default.t (id BIGINT, k INT, s STRING, "
                             "d DOUBLE) PARTITIONED BY (dt STRING) ROW FORMAT DELIMITED FIELDS "
                             "TERMINATED BY ',' STORED AS TEXTFILE LOCATION '%s/t'",
                             tmpdir);
    sqe_ast_stmt *st = sqe_sql_parse(A, sql, &err);
    sqe_free(sql);
    CHECK(st != NULL);
    if (!st) return NULL;
    const char *status = NULL;
    sqe_resultset *rs = NULL;
    sqe_strbuf notices;
    sqe_strbuf_init(&notices);
    CHECK(sqe_hive_execute(cat, st, &rs, &status, &notices, &err));
    sqe_strbuf_free(&notices);
    sqe_resultset_free(rs);
    const char *parts[3] = {"lake", "default", "t"};
    sqe_hive_table *t = sqe_hive_resolve_table(cat, 3, parts, &err);
    CHECK(t != NULL);
    return t;
}

static void test_parallel(sqe_threadpool *pool) {
    write_table();
    char wh[400];
    snprintf(wh, sizeof wh, "%s/wh", tmpdir);
    mkdir(wh, 0755);
    sqe_error err;
    sqe_error_clear(&err);
    sqe_hive_catalog *cat = sqe_hive_catalog_new(NULL);
    CHECK(sqe_hive_attach(cat, "lake", wh, NULL, &err));
    sqe_hive_table *t = make_table(cat);
    if (!t) {
        sqe_hive_catalog_free(cat);
        return;
    }
    sqe_type types[4] = {T_BIGINT, T_INT, T_VARCHAR, T_DOUBLE};
    const char *names[4] = {"id", "k", "s", "d"};
    sqe_plan *scan = node(SQE_PLAN_SCAN, NULL, 4, types, names);
    scan->u.scan.table = t;
    scan->u.scan.table_name = "lake.default.t";
    scan->u.scan.n_cols = 4;
    scan->u.scan.cols = sqe_arena_alloc(A, 5 * sizeof(int));
    for (int i = 0; i < 4; i++) scan->u.scan.cols[i] = i;

    sqe_sort_key keysets[][2] = {
        {{2, false, false}, {3, true, true}}, /* s, d DESC NULLS FIRST */
        {{1, true, false}, {0, 0, 0}},        /* k DESC: ties broken by input order */
        {{3, false, true}, {0, 0, 0}},        /* d NULLS FIRST */
    };
    int nkeys[] = {2, 1, 1};
    for (size_t ks = 0; ks < SQE_ARRAY_LEN(nkeys); ks++) {
        int64_t *want = ref_order(N_ROWS, nkeys[ks], keysets[ks]);
        sqe_plan *srt = sort_node(SQE_PLAN_SORT, scan, nkeys[ks], keysets[ks], 0, 0);
        result serial = run_plan(srt, 1, NULL, 0, NULL, NULL);
        CHECK(serial.err == NULL && ids_equal(&serial, want, N_ROWS));
        struct {
            int threads;
            size_t mem;
        } runs[] = {{1, 2 << 20}, {4, 0}, {4, 2 << 20}, {2, 3 << 20}};
        for (size_t i = 0; i < SQE_ARRAY_LEN(runs); i++) {
            result r = run_plan(srt, runs[i].threads, runs[i].threads > 1 ? pool : NULL,
                                runs[i].mem, NULL, NULL);
            CHECK(r.err == NULL);
            if (r.err) fprintf(stderr, "parallel %zu/%zu: %s\n", ks, i, r.err);
            CHECK(r.text && serial.text && strcmp(r.text, serial.text) == 0);
            CHECK(runs[i].mem ? r.spill_files >= 2 : r.spill_files == 0);
            if (runs[i].mem) CHECK(r.mem_peak <= runs[i].mem);
            CHECK(r.mem_after == 0);
            result_free(&r);
        }
        /* TopN over the parallel scan, in memory and degraded. */
        sqe_plan *tn = sort_node(SQE_PLAN_TOPN, scan, nkeys[ks], keysets[ks], 50, 70000);
        result ts = run_plan(tn, 1, NULL, 0, NULL, NULL);
        CHECK(ts.err == NULL && ids_equal(&ts, want + 70000, 50));
        result tp = run_plan(tn, 4, pool, 0, NULL, NULL);
        CHECK(tp.err == NULL && tp.text && ts.text && strcmp(tp.text, ts.text) == 0);
        result tl = run_plan(tn, 4, pool, 2 << 20, NULL, NULL);
        CHECK(tl.err == NULL && tl.text && ts.text && strcmp(tl.text, ts.text) == 0);
        CHECK(tl.spill_files > 0);
        result_free(&ts);
        result_free(&tp);
        result_free(&tl);
        result_free(&serial);
        sqe_free(want);
    }
    sqe_hive_table_free(t);
    sqe_hive_catalog_free(cat);
    CHECK(count_entries(spilldir) == 0);
}

int main(void) {
    A = sqe_arena_new(0);
    char tmpl[] = "/tmp/sqe_test_exec_sort_XXXXXX";
    char *d = mkdtemp(tmpl);
    CHECK(d != NULL);
    if (!d) return unit_report();
    snprintf(tmpdir, sizeof tmpdir, "%s", d);
    snprintf(spilldir, sizeof spilldir, "%s/spill", tmpdir);
    mkdir(spilldir, 0700);
    gen_rows();
    sqe_threadpool *pool = sqe_threadpool_new(3);
    RUN(test_spill_roundtrip);
    test_external_sort(pool);
    RUN(test_cleanup);
    test_parallel(pool);
    sqe_threadpool_free(pool);
    for (int i = 0; i < N_ROWS; i++) sqe_free(rows[i].s);
    sqe_free(rows);
    sqe_arena_free(A);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    CHECK(system(cmd) == 0);
    return unit_report();
}
