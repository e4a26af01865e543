/*
 * expr.c - bound expressions: constructors, EXPLAIN rendering, and
 * vectorized evaluation over a batch selection.
 *
 * Where it sits: the binder (plan/) builds sqe_expr trees; every operator
 * that computes something (scan filter, FilterExec, ProjectExec, the
 * aggregate's group keys and arguments) owns one sqe_expr_state per tree and
 * calls sqe_expr_eval / sqe_expr_filter once per batch.
 *
 * Evaluation model. The state mirrors the tree: one node state per
 * expression node holding a scratch vector (none for column references,
 * which return the input vector itself). Evaluating a node with a selection
 * (sel, n) writes exactly the selected rows of its scratch vector and returns
 * it; rows outside the selection are garbage. Each node is evaluated at most
 * once per evaluation of its parent, so a child's result stays valid while
 * the parent uses it, and string views copied from it stay valid until the
 * next evaluation of the tree (the contract in expr.h).
 *
 * Laziness. AND/OR narrow the selection after each argument to the rows not
 * yet decided (AND: not FALSE; OR: not TRUE); CASE removes the rows matched
 * by a WHEN from later branches and evaluates each THEN only on its rows;
 * COALESCE evaluates argument k only on rows where 0..k-1 were NULL. So a
 * branch never fails on rows it does not apply to. Narrowed selections live
 * in three per-node buffers (ping-pong for the rest, one for matches).
 *
 * Constants fill their scratch vector for all SQE_BATCH_ROWS rows once, when
 * the state is built; evaluation then returns it untouched (nobody writes
 * into a child's vector).
 *
 * Memory. States made with an account (sqe_exec_expr_state_new) count
 * their vectors and every string their kernels build against the query's
 * memory limit; an evaluation that would pass it is retried over pieces of
 * the selection (see the comments at sqe_expr_state and "Pieces").
 *
 * sqe_expr_filter narrows through a top-level AND argument by argument, so
 * `a AND b` in a WHERE never evaluates b on rows where a failed. out_sel may
 * equal sel (in-place filtering): every pass reads sel[i] before writing
 * out_sel[k] with k <= i.
 */
#include "exec/exec_int.h"

#include <stddef.h>
#include <string.h>

/* ------------------------------------------------------------ constructors */

static sqe_expr *expr_alloc(sqe_arena *a, sqe_expr_kind kind, sqe_type type) {
    sqe_expr *e = sqe_arena_alloc(a, sizeof *e);
    e->kind = kind;
    e->type = type;
    e->col = -1;
    e->value = sqe_value_null(type);
    return e;
}

sqe_expr *sqe_expr_column(sqe_arena *a, int col, sqe_type type, const char *name) {
    sqe_expr *e = expr_alloc(a, SQE_EXPR_COLUMN, type);
    e->col = col;
    e->name = name ? sqe_arena_strdup(a, name) : NULL;
    return e;
}

sqe_expr *sqe_expr_const(sqe_arena *a, const sqe_value *v) {
    sqe_expr *e = expr_alloc(a, SQE_EXPR_CONST, v->type);
    e->value = *v;
    if (!v->is_null && (v->type.id == SQE_T_VARCHAR || v->type.id == SQE_T_VARBINARY)) {
        char *p = sqe_arena_alloc(a, (size_t)v->v.s.len + 1);
        if (v->v.s.len) memcpy(p, v->v.s.ptr, v->v.s.len);
        e->value.v.s.ptr = p;
    }
    return e;
}

sqe_expr *sqe_expr_cast(sqe_arena *a, sqe_expr *arg, sqe_type to, bool try_) {
    sqe_expr *e = expr_alloc(a, SQE_EXPR_CAST, to);
    e->n_args = 1;
    e->args = sqe_arena_alloc(a, sizeof *e->args);
    e->args[0] = arg;
    e->try_ = try_;
    return e;
}

sqe_expr *sqe_expr_new(sqe_arena *a, sqe_expr_kind kind, sqe_type type, int n_args,
                       sqe_expr **args) {
    sqe_expr *e = expr_alloc(a, kind, type);
    e->n_args = n_args;
    if (n_args > 0) {
        e->args = sqe_arena_alloc(a, (size_t)n_args * sizeof *e->args);
        memcpy(e->args, args, (size_t)n_args * sizeof *e->args);
    }
    return e;
}

bool sqe_expr_is_const(const sqe_expr *e) {
    if (e->kind == SQE_EXPR_COLUMN) return false;
    if (e->kind == SQE_EXPR_CALL && e->fn.nondeterministic) return false;
    for (int i = 0; i < e->n_args; i++)
        if (!sqe_expr_is_const(e->args[i])) return false;
    return true;
}

/* ---------------------------------------------------------------- EXPLAIN */

static void put_value(sqe_strbuf *sb, const sqe_value *v) {
    if (v->is_null || v->type.id == SQE_T_NULL) {
        sqe_strbuf_puts(sb, "NULL");
        return;
    }
    switch (v->type.id) {
    case SQE_T_VARCHAR:
    case SQE_T_VARBINARY:
        if (v->type.id == SQE_T_VARBINARY) sqe_strbuf_puts(sb, "X");
        sqe_strbuf_putc(sb, '\'');
        for (uint32_t i = 0; i < v->v.s.len; i++) {
            if (v->v.s.ptr[i] == '\'') sqe_strbuf_putc(sb, '\'');
            sqe_strbuf_putc(sb, v->v.s.ptr[i]);
        }
        sqe_strbuf_putc(sb, '\'');
        return;
    case SQE_T_DATE:
    case SQE_T_TIMESTAMP:
        sqe_strbuf_puts(sb, v->type.id == SQE_T_DATE ? "DATE '" : "TIMESTAMP '");
        sqe_value_format(v, sb);
        sqe_strbuf_putc(sb, '\'');
        return;
    default:
        sqe_value_format(v, sb);
        return;
    }
}

static const char *infix_op(const sqe_expr *e) {
    static const char *const ops[] = {"+",  "-", "*",  "/", "%",  "=", "<>",
                                      "!=", "<", "<=", ">", ">=", "||"};
    if (e->n_args != 2 || !e->fn.name) return NULL;
    for (size_t i = 0; i < SQE_ARRAY_LEN(ops); i++)
        if (strcmp(e->fn.name, ops[i]) == 0) return ops[i];
    if (strcmp(e->fn.name, "like") == 0) return "LIKE";
    return NULL;
}

static void put_expr(sqe_strbuf *sb, const sqe_expr *e);

static void put_list(sqe_strbuf *sb, sqe_expr *const *args, int n, const char *sep) {
    for (int i = 0; i < n; i++) {
        if (i) sqe_strbuf_puts(sb, sep);
        put_expr(sb, args[i]);
    }
}

static void put_expr(sqe_strbuf *sb, const sqe_expr *e) {
    char tbuf[64];
    switch (e->kind) {
    case SQE_EXPR_OUTER_COL:
        sqe_strbuf_printf(sb, "outer.%s", e->name ? e->name : "?");
        return;
    case SQE_EXPR_COLUMN:
        if (e->name)
            sqe_strbuf_puts(sb, e->name);
        else
            sqe_strbuf_printf(sb, "#%d", e->col);
        return;
    case SQE_EXPR_CONST:
        put_value(sb, &e->value);
        return;
    case SQE_EXPR_CALL: {
        const char *op = infix_op(e);
        if (op) {
            sqe_strbuf_putc(sb, '(');
            put_expr(sb, e->args[0]);
            sqe_strbuf_printf(sb, " %s ", op);
            put_expr(sb, e->args[1]);
            sqe_strbuf_putc(sb, ')');
        } else if (e->n_args == 1 && e->fn.name && strcmp(e->fn.name, "-") == 0) {
            sqe_strbuf_puts(sb, "(-");
            put_expr(sb, e->args[0]);
            sqe_strbuf_putc(sb, ')');
        } else {
            sqe_strbuf_printf(sb, "%s(", e->fn.name ? e->fn.name : "?");
            put_list(sb, e->args, e->n_args, ", ");
            sqe_strbuf_putc(sb, ')');
        }
        return;
    }
    case SQE_EXPR_CAST:
        sqe_strbuf_puts(sb, e->try_ ? "TRY_CAST(" : "CAST(");
        put_expr(sb, e->args[0]);
        sqe_strbuf_printf(sb, " AS %s)", sqe_type_sql_name(e->type, tbuf, sizeof tbuf));
        return;
    case SQE_EXPR_AND:
    case SQE_EXPR_OR:
        sqe_strbuf_putc(sb, '(');
        put_list(sb, e->args, e->n_args, e->kind == SQE_EXPR_AND ? " AND " : " OR ");
        sqe_strbuf_putc(sb, ')');
        return;
    case SQE_EXPR_NOT:
        sqe_strbuf_puts(sb, "(NOT ");
        put_expr(sb, e->args[0]);
        sqe_strbuf_putc(sb, ')');
        return;
    case SQE_EXPR_IS_NULL:
        sqe_strbuf_putc(sb, '(');
        put_expr(sb, e->args[0]);
        sqe_strbuf_puts(sb, e->negated ? " IS NOT NULL)" : " IS NULL)");
        return;
    case SQE_EXPR_CASE: {
        int n_pairs = (e->n_args - (e->has_else ? 1 : 0)) / 2;
        sqe_strbuf_puts(sb, "CASE");
        for (int p = 0; p < n_pairs; p++) {
            sqe_strbuf_puts(sb, " WHEN ");
            put_expr(sb, e->args[2 * p]);
            sqe_strbuf_puts(sb, " THEN ");
            put_expr(sb, e->args[2 * p + 1]);
        }
        if (e->has_else) {
            sqe_strbuf_puts(sb, " ELSE ");
            put_expr(sb, e->args[e->n_args - 1]);
        }
        sqe_strbuf_puts(sb, " END");
        return;
    }
    case SQE_EXPR_TRY:
        sqe_strbuf_puts(sb, "try(");
        put_list(sb, e->args, e->n_args, ", ");
        sqe_strbuf_putc(sb, ')');
        return;
    case SQE_EXPR_COALESCE:
        sqe_strbuf_puts(sb, "coalesce(");
        put_list(sb, e->args, e->n_args, ", ");
        sqe_strbuf_putc(sb, ')');
        return;
    case SQE_EXPR_IN:
        sqe_strbuf_putc(sb, '(');
        put_expr(sb, e->args[0]);
        sqe_strbuf_puts(sb, e->negated ? " NOT IN (" : " IN (");
        for (int i = 0; i < e->n_in; i++) {
            if (i) sqe_strbuf_puts(sb, ", ");
            put_value(sb, &e->in_values[i]);
        }
        sqe_strbuf_puts(sb, "))");
        return;
    }
    sqe_strbuf_puts(sb, "?");
}

char *sqe_expr_to_string(sqe_arena *a, const sqe_expr *e) {
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    put_expr(&sb, e);
    char *s = sqe_arena_strdup(a, sb.data ? sb.data : "");
    sqe_strbuf_free(&sb);
    return s;
}

/* ------------------------------------------------------------- IN sets */

/* The constants of an IN list, typed by the key class of the tested value,
 * probed linearly (<= 8) or through an open-addressing table. */
typedef struct in_set {
    sqe_key_class kc;
    bool has_null; /* a NULL constant: a miss is NULL, not FALSE */
    uint32_t n;    /* non-NULL constants */
    sqe_key_slot *keys;
    uint32_t *table; /* index+1 per slot, 0 empty; NULL when linear */
    uint32_t mask;
} in_set;

#define IN_LINEAR_MAX 8

static void value_to_slot(const sqe_value *v, sqe_key_class kc, sqe_key_slot *s) {
    memset(s, 0, sizeof *s);
    switch (kc) {
    case SQE_KEY_I64:
        s->i = v->type.id == SQE_T_BOOLEAN ? (int64_t)v->v.b : v->v.i;
        break;
    case SQE_KEY_F64: {
        double d = v->type.id == SQE_T_REAL ? (double)v->v.f : v->v.d;
        if (d == 0) d = 0.0;
        if (isnan(d)) d = NAN;
        memcpy(&s->i, &d, 8);
        break;
    }
    case SQE_KEY_I128:
        s->x = v->v.dec;
        break;
    case SQE_KEY_STR:
        s->s.len = v->v.s.len;
        if (v->v.s.len <= SQE_STRING_INLINE) {
            if (v->v.s.len)
                memcpy((char *)s + offsetof(sqe_string, prefix), v->v.s.ptr, v->v.s.len);
        } else {
            memcpy(s->s.prefix, v->v.s.ptr, 4);
            s->s.u.ptr = v->v.s.ptr;
        }
        break;
    }
}

static in_set *in_set_new(const sqe_expr *e) {
    in_set *set = sqe_calloc(1, sizeof *set);
    set->kc = sqe_key_class_of(e->args[0]->type);
    set->keys = sqe_calloc((size_t)(e->n_in > 0 ? e->n_in : 1), sizeof *set->keys);
    for (int i = 0; i < e->n_in; i++) {
        const sqe_value *v = &e->in_values[i];
        if (v->is_null || v->type.id == SQE_T_NULL) {
            set->has_null = true;
            continue;
        }
        value_to_slot(v, set->kc, &set->keys[set->n++]);
    }
    if (set->n > IN_LINEAR_MAX) {
        uint32_t cap = 16;
        while (cap < set->n * 2) cap <<= 1;
        set->table = sqe_calloc(cap, sizeof *set->table);
        set->mask = cap - 1;
        for (uint32_t i = 0; i < set->n; i++) {
            uint32_t pos = (uint32_t)sqe_key_hash(set->kc, &set->keys[i]) & set->mask;
            while (set->table[pos]) pos = (pos + 1) & set->mask;
            set->table[pos] = i + 1;
        }
    }
    return set;
}

static void in_set_free(in_set *set) {
    if (!set) return;
    sqe_free(set->keys);
    sqe_free(set->table);
    sqe_free(set);
}

static inline bool in_set_has(const in_set *set, const sqe_key_slot *k) {
    if (!set->table) {
        for (uint32_t i = 0; i < set->n; i++)
            if (sqe_key_eq(set->kc, &set->keys[i], k)) return true;
        return false;
    }
    uint32_t pos = (uint32_t)sqe_key_hash(set->kc, k) & set->mask;
    for (;;) {
        uint32_t j = set->table[pos];
        if (!j) return false;
        if (sqe_key_eq(set->kc, &set->keys[j - 1], k)) return true;
        pos = (pos + 1) & set->mask;
    }
}

/* --------------------------------------------------------------- state */

typedef struct node_st node_st;
struct node_st {
    const sqe_expr *e;
    sqe_vector *out; /* scratch result; NULL for COLUMN */
    int n_kids;
    node_st **kids;
    sqe_vector **argv;    /* CALL: argument vectors handed to the kernel */
    sqe_func_binding *fn; /* CALL with fn.state_new: the binding with this node's kernel state */
    uint16_t *bufs;       /* AND/OR/CASE/COALESCE: 3 * SQE_BATCH_ROWS selection buffers */
    in_set *set;          /* IN */
    sqe_key_slot *slots;  /* IN: loaded keys */
    uint8_t *nulls;       /* IN */
};

/* Sizes. A state's scratch vectors hold a full batch, allocated and
 * charged when the state is made, so memory an operator takes later (a
 * hash table filling the limit) cannot starve them. A lazy state
 * (sqe_expr_state_new_sized, for callers with very many expressions)
 * starts them empty (a constant's with its one row) and grows them to the
 * rows of the batches they are evaluated on (node_reserve, before each
 * node's evaluation while smaller than a full batch; the growth is charged
 * then and may be refused), so a select list of 60,000 expressions over
 * one row holds 60,000 small vectors, not 60,000 full batches. A
 * constant's new rows copy row 0.
 *
 * Memory. A state with an account (sqe_expr_state_new_acct) charges its
 * fixed part (node structs, scratch vectors' headers, selection buffers,
 * IN sets: state_bytes) once before allocating it, and each scratch
 * vector's growth when it grows, and attaches
 * the account to every scratch vector, so result heaps (lpad, concat,
 * casts to varchar...) are charged chunk by chunk as kernels grow them and
 * a kernel whose bytes would pass the limit fails with RESOURCE_EXHAUSTED
 * naming its function. `acct` is the state's own copy; vectors point at it,
 * so it lives exactly as long as they do. */
struct sqe_expr_state {
    node_st *root;
    sqe_mem_account acct;
    bool has_acct;
    size_t charged; /* fixed bytes charged to acct (pieces' buffers included) */
    /* Evaluation in pieces (see "Pieces" below): rows per piece, 0 = the
     * whole selection; the piece rows (a copy of the selection, never
     * aliased with an output) and the result gathered over pieces. */
    uint32_t piece;
    uint16_t *rows;
    sqe_vector *acc;
};

/* The bytes node_new allocates for e's subtree, string constants' heaps
 * aside (those are charged by their vectors). */
static size_t state_bytes(const sqe_expr *e, bool lazy) {
    size_t b = sizeof(node_st);
    if (e->kind != SQE_EXPR_COLUMN)
        b += sizeof(sqe_vector) + (lazy ? 1 : SQE_BATCH_ROWS) * sqe_type_width(e->type);
    b += (size_t)e->n_args * sizeof(node_st *);
    switch (e->kind) {
    case SQE_EXPR_CALL:
        b += (size_t)(e->n_args > 0 ? e->n_args : 1) * sizeof(sqe_vector *);
        break;
    case SQE_EXPR_AND:
    case SQE_EXPR_OR:
    case SQE_EXPR_CASE:
    case SQE_EXPR_COALESCE:
        b += 3 * SQE_BATCH_ROWS * sizeof(uint16_t);
        break;
    case SQE_EXPR_IN:
        b += sizeof(in_set) + (size_t)(e->n_in > 0 ? e->n_in : 1) * sizeof(sqe_key_slot) +
             (size_t)e->n_in * 4 * sizeof(uint32_t) + 16 * sizeof(uint32_t) +
             SQE_BATCH_ROWS * (sizeof(sqe_key_slot) + 1);
        break;
    default:
        break;
    }
    for (int i = 0; i < e->n_args; i++) b += state_bytes(e->args[i], lazy);
    return b;
}

/* Fills every row v holds with the constant (v has no account yet, so this
 * never fails). */
static void fill_const(sqe_vector *v, const sqe_value *val) {
    if (val->is_null || val->type.id == SQE_T_NULL || v->type.id == SQE_T_NULL) {
        memset(v->validity, 0, sizeof v->validity);
        v->has_nulls = true;
        return;
    }
    sqe_value tv = *val;
    tv.type = v->type; /* the binder made the value's type the node's type */
    sqe_vector_set_value(v, 0, &tv);
    size_t w = sqe_type_width(v->type);
    char *d = v->data;
    for (uint32_t r = 1; r < v->cap; r++) memcpy(d + r * w, d, w);
}

/* Builds e's node tree; scratch vectors charge their heaps to acct (may be
 * NULL). A string constant's bytes are stored first and then counted,
 * never refused: they are bounded by the statement's text, and a refused
 * constant could only be a wrong value. */
static node_st *node_new(const sqe_expr *e, const sqe_mem_account *acct, bool lazy) {
    node_st *n = sqe_calloc(1, sizeof *n);
    n->e = e;
    if (e->kind != SQE_EXPR_COLUMN) {
        uint32_t cap = !lazy ? SQE_BATCH_ROWS : e->kind == SQE_EXPR_CONST ? 1 : 0;
        n->out = sqe_vector_new_cap(e->type, cap);
        if (e->kind == SQE_EXPR_CONST) fill_const(n->out, &e->value);
        if (acct) sqe_vector_set_account(n->out, acct);
    }
    n->n_kids = e->n_args;
    if (e->n_args > 0) {
        n->kids = sqe_calloc((size_t)e->n_args, sizeof *n->kids);
        for (int i = 0; i < e->n_args; i++) n->kids[i] = node_new(e->args[i], acct, lazy);
    }
    switch (e->kind) {
    case SQE_EXPR_CALL:
        n->argv = sqe_calloc((size_t)(e->n_args > 0 ? e->n_args : 1), sizeof *n->argv);
        if (e->fn.state_new) {
            n->fn = sqe_malloc(sizeof *n->fn);
            *n->fn = e->fn;
            n->fn->state = e->fn.state_new(&e->fn);
        }
        break;
    case SQE_EXPR_AND:
    case SQE_EXPR_OR:
    case SQE_EXPR_CASE:
    case SQE_EXPR_COALESCE:
        n->bufs = sqe_malloc(3 * SQE_BATCH_ROWS * sizeof *n->bufs);
        break;
    case SQE_EXPR_IN:
        n->set = in_set_new(e);
        n->slots = sqe_malloc(SQE_BATCH_ROWS * sizeof *n->slots);
        n->nulls = sqe_malloc(SQE_BATCH_ROWS);
        break;
    default:
        break;
    }
    return n;
}

static void node_free(node_st *n) {
    if (!n) return;
    for (int i = 0; i < n->n_kids; i++) node_free(n->kids[i]);
    sqe_free(n->kids);
    sqe_vector_free(n->out);
    sqe_free(n->argv);
    if (n->fn) {
        if (n->fn->state_free && n->fn->state) n->fn->state_free(n->fn->state);
        sqe_free(n->fn);
    }
    sqe_free(n->bufs);
    in_set_free(n->set);
    sqe_free(n->slots);
    sqe_free(n->nulls);
    sqe_free(n);
}

sqe_expr_state *sqe_expr_state_new(const sqe_expr *e) {
    sqe_expr_state *st = sqe_calloc(1, sizeof *st);
    st->root = node_new(e, NULL, false);
    return st;
}

size_t sqe_expr_state_full_bytes(const sqe_expr *e) {
    return sizeof(sqe_expr_state) + state_bytes(e, false);
}

sqe_expr_state *sqe_expr_state_new_acct(const sqe_expr *e, const sqe_mem_account *acct,
                                        const char *what, sqe_error *err) {
    return sqe_expr_state_new_sized(e, acct, what, false, err);
}

sqe_expr_state *sqe_expr_state_new_sized(const sqe_expr *e, const sqe_mem_account *acct,
                                         const char *what, bool lazy, sqe_error *err) {
    if (!acct) return sqe_expr_state_new(e);
    size_t bytes = sizeof(sqe_expr_state) + state_bytes(e, lazy);
    if (!err) {
        sqe_mem_account_add(acct, bytes); /* counted, never refused */
    } else if (!sqe_mem_account_charge(acct, bytes)) {
        sqe_mem_account_error(acct, what, err);
        return NULL;
    }
    sqe_expr_state *st = sqe_calloc(1, sizeof *st);
    st->acct = *acct;
    st->has_acct = true;
    st->charged = bytes;
    st->root = node_new(e, &st->acct, lazy);
    return st;
}

void sqe_expr_state_free(sqe_expr_state *st) {
    if (!st) return;
    node_free(st->root); /* vectors give back their heaps' charges */
    sqe_vector_free(st->acc);
    sqe_free(st->rows);
    if (st->has_acct) sqe_mem_account_release(&st->acct, st->charged);
    sqe_free(st);
}

sqe_expr_state *sqe_exec_expr_state_new(sqe_op *op, const sqe_expr *e, sqe_error *err) {
    return sqe_exec_expr_state_new_sized(op, e, false, err);
}

sqe_expr_state *sqe_exec_expr_state_new_sized(sqe_op *op, const sqe_expr *e, bool lazy,
                                              sqe_error *err) {
    sqe_exec_ctx *ctx = op->ctx;
    sqe_mem_account acct = {&ctx->mem_used, &ctx->mem_peak, ctx->memory_limit};
    return sqe_expr_state_new_sized(e, &acct, op->vt->name, lazy, err);
}

/* ------------------------------------------------------------ row copy */

#define ROW(sel, i) ((sel) ? (uint32_t)(sel)[i] : (uint32_t)(i))

#define COPY_LOOP(T)                                                                               \
    do {                                                                                           \
        T *d_ = (T *)dst->data;                                                                    \
        const T *s_ = (const T *)src->data;                                                        \
        if (sel)                                                                                   \
            for (uint32_t i = 0; i < n; i++) d_[sel[i]] = s_[sel[i]];                              \
        else                                                                                       \
            for (uint32_t i = 0; i < n; i++) d_[i] = s_[i];                                        \
    } while (0)

void sqe_exec_copy_rows(sqe_vector *dst, const sqe_vector *src, const uint16_t *sel, uint32_t n) {
    if (src->type.id == SQE_T_NULL || dst->type.id == SQE_T_NULL) {
        for (uint32_t i = 0; i < n; i++) sqe_vector_set_null(dst, ROW(sel, i));
        return;
    }
    switch (sqe_type_width(dst->type)) {
    case 1:
        COPY_LOOP(uint8_t);
        break;
    case 2:
        COPY_LOOP(uint16_t);
        break;
    case 4:
        COPY_LOOP(uint32_t);
        break;
    case 8:
        COPY_LOOP(uint64_t);
        break;
    case 16:
        COPY_LOOP(sqe_key_slot);
        break;
    default: {
        size_t w = sqe_type_width(dst->type);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t r = ROW(sel, i);
            memcpy((char *)dst->data + r * w, (const char *)src->data + r * w, w);
        }
    }
    }
    if (src->has_nulls || dst->has_nulls) {
        for (uint32_t i = 0; i < n; i++) {
            uint32_t r = ROW(sel, i);
            if (sqe_vector_is_null(src, r))
                sqe_vector_set_null(dst, r);
            else
                sqe_vector_set_valid(dst, r);
        }
    }
}

/* ------------------------------------------------------------ evaluation */

static sqe_vector *eval_node(node_st *ns, sqe_batch *in, const uint16_t *sel, uint32_t n,
                             sqe_error *err);
static const char *node_name(const sqe_expr *e);

static inline bool vec_valid(const sqe_vector *v, uint32_t r) {
    return !v->has_nulls || ((v->validity[r >> 6] >> (r & 63)) & 1);
}

/* AND (decisive = FALSE) and OR (decisive = TRUE), three-valued. Rows with a
 * NULL argument stay undecided but are marked NULL in out; a later decisive
 * argument overrides the mark. */
static sqe_vector *eval_andor(node_st *ns, sqe_batch *in, const uint16_t *sel, uint32_t n,
                              sqe_error *err) {
    const bool is_and = ns->e->kind == SQE_EXPR_AND;
    const uint8_t decisive = is_and ? 0 : 1;
    sqe_vector *out = ns->out;
    sqe_vector_reset(out);
    uint8_t *o = out->data;
    const uint16_t *cur = sel;
    uint32_t m = n;
    int which = 0;
    for (int k = 0; k < ns->n_kids && m > 0; k++) {
        sqe_vector *v = eval_node(ns->kids[k], in, cur, m, err);
        if (!v) return NULL;
        if (v->type.id == SQE_T_NULL) { /* untyped NULL argument: every row NULL */
            for (uint32_t i = 0; i < m; i++) sqe_vector_set_null(out, ROW(cur, i));
            continue;
        }
        const uint8_t *d = v->data;
        uint16_t *nx = ns->bufs + (size_t)which * SQE_BATCH_ROWS;
        which ^= 1;
        uint32_t nm = 0;
        if (!v->has_nulls) {
            for (uint32_t i = 0; i < m; i++) {
                uint32_t r = ROW(cur, i);
                if ((d[r] != 0) == decisive) {
                    sqe_vector_set_valid(out, r);
                    o[r] = decisive;
                } else {
                    nx[nm++] = (uint16_t)r;
                }
            }
        } else {
            for (uint32_t i = 0; i < m; i++) {
                uint32_t r = ROW(cur, i);
                if (!vec_valid(v, r)) {
                    sqe_vector_set_null(out, r);
                    nx[nm++] = (uint16_t)r;
                } else if ((d[r] != 0) == decisive) {
                    sqe_vector_set_valid(out, r);
                    o[r] = decisive;
                } else {
                    nx[nm++] = (uint16_t)r;
                }
            }
        }
        cur = nx;
        m = nm;
    }
    /* Undecided rows: the non-decisive value unless marked NULL. */
    for (uint32_t i = 0; i < m; i++) {
        uint32_t r = ROW(cur, i);
        if (vec_valid(out, r)) o[r] = !decisive;
    }
    return out;
}

static sqe_vector *eval_case(node_st *ns, sqe_batch *in, const uint16_t *sel, uint32_t n,
                             sqe_error *err) {
    const sqe_expr *e = ns->e;
    sqe_vector *out = ns->out;
    sqe_vector_reset(out);
    int n_pairs = (e->n_args - (e->has_else ? 1 : 0)) / 2;
    uint16_t *match = ns->bufs + 2 * SQE_BATCH_ROWS;
    const uint16_t *cur = sel;
    uint32_t m = n;
    int which = 0;
    for (int p = 0; p < n_pairs && m > 0; p++) {
        sqe_vector *c = eval_node(ns->kids[2 * p], in, cur, m, err);
        if (!c) return NULL;
        uint16_t *rest = ns->bufs + (size_t)which * SQE_BATCH_ROWS;
        which ^= 1;
        uint32_t n_match = 0, n_rest = 0;
        const uint8_t *d = c->data;
        bool typed = c->type.id != SQE_T_NULL;
        for (uint32_t i = 0; i < m; i++) {
            uint32_t r = ROW(cur, i);
            if (typed && vec_valid(c, r) && d[r])
                match[n_match++] = (uint16_t)r;
            else
                rest[n_rest++] = (uint16_t)r;
        }
        if (n_match) {
            sqe_vector *v = eval_node(ns->kids[2 * p + 1], in, match, n_match, err);
            if (!v) return NULL;
            sqe_exec_copy_rows(out, v, match, n_match);
        }
        cur = rest;
        m = n_rest;
    }
    if (m > 0) {
        if (e->has_else) {
            sqe_vector *v = eval_node(ns->kids[e->n_args - 1], in, cur, m, err);
            if (!v) return NULL;
            sqe_exec_copy_rows(out, v, cur, m);
        } else {
            for (uint32_t i = 0; i < m; i++) sqe_vector_set_null(out, ROW(cur, i));
        }
    }
    return out;
}

static sqe_vector *eval_coalesce(node_st *ns, sqe_batch *in, const uint16_t *sel, uint32_t n,
                                 sqe_error *err) {
    sqe_vector *out = ns->out;
    sqe_vector_reset(out);
    uint16_t *found = ns->bufs + 2 * SQE_BATCH_ROWS;
    const uint16_t *cur = sel;
    uint32_t m = n;
    int which = 0;
    for (int k = 0; k < ns->n_kids && m > 0; k++) {
        sqe_vector *v = eval_node(ns->kids[k], in, cur, m, err);
        if (!v) return NULL;
        if (v->type.id == SQE_T_NULL) continue;
        if (!v->has_nulls) {
            sqe_exec_copy_rows(out, v, cur, m);
            m = 0;
            break;
        }
        uint16_t *rest = ns->bufs + (size_t)which * SQE_BATCH_ROWS;
        which ^= 1;
        uint32_t n_found = 0, n_rest = 0;
        for (uint32_t i = 0; i < m; i++) {
            uint32_t r = ROW(cur, i);
            if (vec_valid(v, r))
                found[n_found++] = (uint16_t)r;
            else
                rest[n_rest++] = (uint16_t)r;
        }
        if (n_found) sqe_exec_copy_rows(out, v, found, n_found);
        cur = rest;
        m = n_rest;
    }
    for (uint32_t i = 0; i < m; i++) sqe_vector_set_null(out, ROW(cur, i));
    return out;
}

/* IN is a chain of = (IEEE): NaN equals nothing, not even NaN, although
 * key slots fold every NaN to one value for GROUP BY. */
static bool in_is_nan(sqe_type t, const sqe_key_slot *k) {
    if (t.id != SQE_T_DOUBLE && t.id != SQE_T_REAL) return false;
    double d;
    memcpy(&d, &k->i, sizeof d);
    return isnan(d);
}

static sqe_vector *eval_in(node_st *ns, sqe_batch *in, const uint16_t *sel, uint32_t n,
                           sqe_error *err) {
    const sqe_expr *e = ns->e;
    sqe_vector *v = eval_node(ns->kids[0], in, sel, n, err);
    if (!v) return NULL;
    sqe_vector *out = ns->out;
    sqe_vector_reset(out);
    uint8_t *o = out->data;
    if (v->type.id == SQE_T_NULL) {
        for (uint32_t i = 0; i < n; i++) sqe_vector_set_null(out, ROW(sel, i));
        return out;
    }
    sqe_key_load(v, sel, n, ns->slots, ns->nulls);
    const in_set *set = ns->set;
    const uint8_t hit = e->negated ? 0 : 1;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t r = ROW(sel, i);
        if (ns->nulls[i]) {
            sqe_vector_set_null(out, r);
        } else if (in_set_has(set, &ns->slots[i]) && !in_is_nan(v->type, &ns->slots[i])) {
            o[r] = hit;
        } else if (set->has_null) {
            sqe_vector_set_null(out, r);
        } else {
            o[r] = !hit;
        }
    }
    return out;
}

/* Grows ns->out to the rows (sel, n) reach (see "Sizes" above);
 * a constant's new rows repeat row 0. */
static bool node_reserve(node_st *ns, const uint16_t *sel, uint32_t n, sqe_error *err) {
    sqe_vector *v = ns->out;
    uint32_t need = sel ? 0 : n; /* rows are sel[0..n) (ascending) or 0..n-1 */
    if (sel)
        for (uint32_t i = 0; i < n; i++)
            if (sel[i] >= need) need = sel[i] + 1u;
    uint32_t had = v->cap;
    if (need <= had) return true;
    if (!sqe_vector_reserve(v, need)) {
        sqe_mem_account_error(v->acct, node_name(ns->e), err);
        return false;
    }
    if (ns->e->kind == SQE_EXPR_CONST && had > 0) {
        size_t w = sqe_type_width(v->type);
        char *d = v->data;
        for (uint32_t r = had; r < v->cap; r++) memcpy(d + (size_t)r * w, d, w);
    }
    return true;
}

/* The errors try() turns into NULL (Trino: division by zero, invalid cast
 * argument, invalid function argument, numeric value out of range). */
static bool try_catches(const sqe_error *err) {
    return err->cls == SQE_ERR_DIVISION_BY_ZERO || err->cls == SQE_ERR_OUT_OF_RANGE ||
           err->cls == SQE_ERR_INVALID_ARGUMENT || err->cls == SQE_ERR_INVALID_DATA;
}

/* try(x): x over the whole selection; when that fails with an error try
 * catches, x again row by row, failing rows NULL (strings are copied, as
 * each row's evaluation resets the child's heap). */
static sqe_vector *eval_try(node_st *ns, sqe_batch *in, const uint16_t *sel, uint32_t n,
                            sqe_error *err) {
    sqe_vector *out = ns->out;
    sqe_vector *v = eval_node(ns->kids[0], in, sel, n, err);
    sqe_vector_reset(out);
    if (v) {
        sqe_exec_copy_rows(out, v, sel, n);
        return out;
    }
    if (!try_catches(err)) return NULL;
    bool str = out->type.id == SQE_T_VARCHAR || out->type.id == SQE_T_VARBINARY;
    for (uint32_t i = 0; i < n; i++) {
        uint16_t r = (uint16_t)ROW(sel, i);
        sqe_error rerr;
        v = eval_node(ns->kids[0], in, &r, 1, &rerr);
        if (!v) {
            if (!try_catches(&rerr)) {
                *err = rerr;
                return NULL;
            }
            sqe_vector_set_null(out, r);
        } else if (str && v->type.id != SQE_T_NULL) {
            if (!sqe_vector_copy_row(out, r, v, r)) {
                sqe_mem_account_error(out->acct, "try", err);
                return NULL;
            }
        } else {
            sqe_exec_copy_rows(out, v, &r, 1);
        }
    }
    return out;
}

static sqe_vector *eval_node(node_st *ns, sqe_batch *in, const uint16_t *sel, uint32_t n,
                             sqe_error *err) {
    const sqe_expr *e = ns->e;
    if (ns->out && SQE_UNLIKELY(ns->out->cap < SQE_BATCH_ROWS) && !node_reserve(ns, sel, n, err))
        return NULL;
    switch (e->kind) {
    case SQE_EXPR_COLUMN:
        if (e->col < 0 || e->col >= in->n_cols || !in->cols[e->col]) {
            sqe_error_set(err, SQE_ERR_INTERNAL,
                          "expression references column %d of a %d-column batch", e->col,
                          in->n_cols);
            return NULL;
        }
        return in->cols[e->col];
    case SQE_EXPR_CONST:
        return ns->out;
    case SQE_EXPR_CALL: {
        for (int k = 0; k < ns->n_kids; k++) {
            ns->argv[k] = eval_node(ns->kids[k], in, sel, n, err);
            if (!ns->argv[k]) return NULL;
        }
        sqe_vector_reset(ns->out);
        if (n == 0) return ns->out;
        if (!e->fn.kernel) {
            sqe_error_set(err, SQE_ERR_INTERNAL, "function %s has no kernel",
                          e->fn.name ? e->fn.name : "?");
            return NULL;
        }
        if (!e->fn.kernel(ns->fn ? ns->fn : &e->fn, ns->argv, sel, n, ns->out, err)) return NULL;
        return ns->out;
    }
    case SQE_EXPR_CAST: {
        sqe_vector *v = eval_node(ns->kids[0], in, sel, n, err);
        if (!v) return NULL;
        sqe_vector_reset(ns->out);
        if (n == 0) return ns->out;
        if (v->type.id == SQE_T_NULL) {
            for (uint32_t i = 0; i < n; i++) sqe_vector_set_null(ns->out, ROW(sel, i));
            return ns->out;
        }
        if (!sqe_func_cast_vector_zone(v, ns->out, e->try_, e->zone, sel, n, err)) return NULL;
        return ns->out;
    }
    case SQE_EXPR_AND:
    case SQE_EXPR_OR:
        return eval_andor(ns, in, sel, n, err);
    case SQE_EXPR_NOT: {
        sqe_vector *v = eval_node(ns->kids[0], in, sel, n, err);
        if (!v) return NULL;
        sqe_vector *out = ns->out;
        sqe_vector_reset(out);
        uint8_t *o = out->data;
        if (v->type.id == SQE_T_NULL) {
            for (uint32_t i = 0; i < n; i++) sqe_vector_set_null(out, ROW(sel, i));
            return out;
        }
        const uint8_t *d = v->data;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t r = ROW(sel, i);
            o[r] = !d[r];
        }
        if (v->has_nulls)
            for (uint32_t i = 0; i < n; i++) {
                uint32_t r = ROW(sel, i);
                if (!vec_valid(v, r)) sqe_vector_set_null(out, r);
            }
        return out;
    }
    case SQE_EXPR_IS_NULL: {
        sqe_vector *v = eval_node(ns->kids[0], in, sel, n, err);
        if (!v) return NULL;
        sqe_vector *out = ns->out;
        sqe_vector_reset(out);
        uint8_t *o = out->data;
        bool all_null = v->type.id == SQE_T_NULL;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t r = ROW(sel, i);
            bool isnull = all_null || !vec_valid(v, r);
            o[r] = isnull != e->negated;
        }
        return out;
    }
    case SQE_EXPR_CASE:
        return eval_case(ns, in, sel, n, err);
    case SQE_EXPR_COALESCE:
        return eval_coalesce(ns, in, sel, n, err);
    case SQE_EXPR_IN:
        return eval_in(ns, in, sel, n, err);
    case SQE_EXPR_TRY:
        return eval_try(ns, in, sel, n, err);
    case SQE_EXPR_OUTER_COL:
        sqe_error_set(err, SQE_ERR_INTERNAL, "correlated reference %s reached execution",
                      e->name ? e->name : "?");
        return NULL;
    }
    sqe_error_set(err, SQE_ERR_INTERNAL, "unknown expression kind %d", (int)e->kind);
    return NULL;
}

/* ------------------------------------------------------------- pieces */

/* Pieces. One batch's intermediate results can exceed the memory limit
 * while the answer is small: length(lpad(s, 1000000, 'x')) over 2048 rows
 * needs 2 GB of padded strings at once but returns 2048 integers. When an
 * evaluation of a state with an account fails with RESOURCE_EXHAUSTED, it
 * is run again over pieces of the selection, halving the piece size until
 * every piece fits (one row at least); each piece's intermediate heaps are
 * released when the next piece resets them. The piece size then sticks for
 * later batches, so the failed attempt is not repeated every batch.
 * sqe_expr_eval gathers the pieces' results into `acc` (strings copied,
 * charged); sqe_expr_filter appends each piece's surviving rows. A result
 * that itself does not fit, or a single row that does not, still fails,
 * naming the function. `rows` holds the selection (or 0..n-1) so that a
 * failed piece can be retried even when the filter writes in place. */

/* What a memory error of e's result names. */
static const char *node_name(const sqe_expr *e) {
    if (e->kind == SQE_EXPR_CALL && e->fn.name) return e->fn.name;
    if (e->kind == SQE_EXPR_CAST) return "CAST";
    return "an expression";
}

/* Frees the heaps of every scratch vector under ns (constants keep
 * theirs): after a run in pieces nothing but the gathered result is
 * needed, so the last piece's intermediate strings do not stay charged
 * while other expressions evaluate. */
static void release_scratch(node_st *ns) {
    if (ns->out && ns->e->kind != SQE_EXPR_CONST) sqe_vector_reset(ns->out);
    for (int i = 0; i < ns->n_kids; i++) release_scratch(ns->kids[i]);
}

/* Whether a failed evaluation of m rows is worth retrying in pieces; if
 * so, frees what the failed attempt left in the scratch vectors first. */
static bool piece_retry(sqe_expr_state *st, uint32_t m, const sqe_error *err) {
    if (!st->has_acct || m <= 1 || !err || err->cls != SQE_ERR_RESOURCE_EXHAUSTED) return false;
    release_scratch(st->root);
    return true;
}

/* Prepares st->rows (sel or 0..n-1) and st->acc; false when their memory
 * does not fit. */
static bool pieces_prepare(sqe_expr_state *st, const uint16_t *sel, uint32_t n, bool result,
                           sqe_error *err) {
    if (!st->rows) {
        size_t bytes = SQE_BATCH_ROWS * sizeof *st->rows;
        if (!sqe_mem_account_charge(&st->acct, bytes))
            return sqe_mem_account_error(&st->acct, node_name(st->root->e), err);
        st->charged += bytes;
        st->rows = sqe_malloc(bytes);
    }
    for (uint32_t i = 0; i < n; i++) st->rows[i] = (uint16_t)ROW(sel, i);
    if (result && !st->acc) {
        sqe_type t = st->root->e->type;
        size_t bytes = sizeof(sqe_vector) + (size_t)SQE_BATCH_ROWS * sqe_type_width(t);
        if (!sqe_mem_account_charge(&st->acct, bytes))
            return sqe_mem_account_error(&st->acct, node_name(st->root->e), err);
        st->charged += bytes;
        st->acc = sqe_vector_new(t);
        sqe_vector_set_account(st->acc, &st->acct);
    }
    if (result) sqe_vector_reset(st->acc);
    return true;
}

/* Copies rows[0..m) of v into st->acc (strings with their bytes). */
static bool pieces_gather(sqe_expr_state *st, const sqe_vector *v, const uint16_t *rows, uint32_t m,
                          sqe_error *err) {
    sqe_vector *acc = st->acc;
    if (acc->type.id != SQE_T_VARCHAR && acc->type.id != SQE_T_VARBINARY) {
        sqe_exec_copy_rows(acc, v, rows, m);
        return true;
    }
    for (uint32_t i = 0; i < m; i++)
        if (!sqe_vector_copy_row(acc, rows[i], v, rows[i]))
            return sqe_mem_account_error(&st->acct, node_name(st->root->e), err);
    return true;
}

static sqe_vector *eval_pieces(sqe_expr_state *st, sqe_batch *in, const uint16_t *sel, uint32_t n,
                               sqe_error *err) {
    if (!pieces_prepare(st, sel, n, true, err)) return NULL;
    uint32_t k = st->piece ? st->piece : (n + 1) / 2;
    for (uint32_t i = 0; i < n;) {
        uint32_t m = SQE_MIN(k, n - i);
        sqe_vector *v = eval_node(st->root, in, st->rows + i, m, err);
        if (!v) {
            if (!piece_retry(st, m, err)) return NULL;
            k = st->piece = m / 2;
            continue;
        }
        if (!pieces_gather(st, v, st->rows + i, m, err)) return NULL;
        i += m;
    }
    if (!st->piece) st->piece = k;
    release_scratch(st->root);
    return st->acc;
}

sqe_vector *sqe_expr_eval(sqe_expr_state *st, sqe_batch *in, const uint16_t *sel, uint32_t n,
                          sqe_error *err) {
    if (SQE_LIKELY(!st->piece || n <= st->piece)) {
        sqe_vector *v = eval_node(st->root, in, sel, n, err);
        if (v || !piece_retry(st, n, err)) return v;
    }
    return eval_pieces(st, in, sel, n, err);
}

/* Rows of (sel, n) where v is TRUE, into out (may alias sel). */
static uint32_t select_true(const sqe_vector *v, const uint16_t *sel, uint32_t n, uint16_t *out) {
    uint32_t k = 0;
    if (v->type.id == SQE_T_NULL) return 0;
    const uint8_t *d = v->data;
    if (!v->has_nulls) {
        if (sel) {
            for (uint32_t i = 0; i < n; i++) {
                uint16_t r = sel[i];
                out[k] = r;
                k += d[r] != 0;
            }
        } else {
            for (uint32_t i = 0; i < n; i++) {
                out[k] = (uint16_t)i;
                k += d[i] != 0;
            }
        }
    } else {
        for (uint32_t i = 0; i < n; i++) {
            uint32_t r = ROW(sel, i);
            out[k] = (uint16_t)r;
            k += (d[r] != 0) & vec_valid(v, r);
        }
    }
    return k;
}

static bool filter_node(node_st *ns, sqe_batch *in, const uint16_t *sel, uint32_t n,
                        uint16_t *out_sel, uint32_t *n_out, sqe_error *err) {
    if (ns->e->kind == SQE_EXPR_AND && ns->n_kids > 0) {
        const uint16_t *cur = sel;
        uint32_t m = n;
        for (int k = 0; k < ns->n_kids; k++) {
            if (!filter_node(ns->kids[k], in, cur, m, out_sel, &m, err)) return false;
            cur = out_sel;
            if (m == 0) break;
        }
        *n_out = m;
        return true;
    }
    if (n == 0) {
        *n_out = 0;
        return true;
    }
    sqe_vector *v = eval_node(ns, in, sel, n, err);
    if (!v) return false;
    *n_out = select_true(v, sel, n, out_sel);
    return true;
}

static bool filter_pieces(sqe_expr_state *st, sqe_batch *in, const uint16_t *sel, uint32_t n,
                          uint16_t *out_sel, uint32_t *n_out, sqe_error *err) {
    if (!pieces_prepare(st, sel, n, false, err)) return false;
    uint32_t k = st->piece ? st->piece : (n + 1) / 2, total = 0;
    for (uint32_t i = 0; i < n;) {
        uint32_t m = SQE_MIN(k, n - i), got = 0;
        if (!filter_node(st->root, in, st->rows + i, m, out_sel + total, &got, err)) {
            if (!piece_retry(st, m, err)) return false;
            k = st->piece = m / 2;
            continue;
        }
        total += got;
        i += m;
    }
    if (!st->piece) st->piece = k;
    release_scratch(st->root);
    *n_out = total;
    return true;
}

bool sqe_expr_filter(sqe_expr_state *st, sqe_batch *in, const uint16_t *sel, uint32_t n,
                     uint16_t *out_sel, uint32_t *n_out, sqe_error *err) {
    if (SQE_LIKELY(!st->piece || n <= st->piece)) {
        /* In place (out_sel == sel) a failed attempt may have overwritten
         * sel: keep a copy while a retry is possible. */
        if (out_sel == sel && sel && st->has_acct && n > 1) {
            if (!pieces_prepare(st, sel, n, false, err)) return false;
            sel = st->rows;
        }
        if (filter_node(st->root, in, sel, n, out_sel, n_out, err)) return true;
        if (!piece_retry(st, n, err)) return false;
    }
    return filter_pieces(st, in, sel, n, out_sel, n_out, err);
}

/* ------------------------------------------------------ constant folding */

bool sqe_expr_eval_const(const sqe_expr *e, sqe_arena *arena, sqe_value *out, sqe_error *err) {
    if (!sqe_expr_is_const(e))
        return sqe_error_set(err, SQE_ERR_INTERNAL,
                             "constant folding of an expression with column references");
    if (e->kind == SQE_EXPR_CONST) {
        *out = e->value;
        if (!out->is_null && (out->type.id == SQE_T_VARCHAR || out->type.id == SQE_T_VARBINARY))
            out->v.s.ptr = sqe_arena_strndup(arena, out->v.s.ptr, out->v.s.len);
        return true;
    }
    sqe_expr_state *st = sqe_expr_state_new(e);
    sqe_batch *b = sqe_batch_new_empty(0);
    b->n_rows = 1;
    bool ok = false;
    sqe_vector *v = sqe_expr_eval(st, b, NULL, 1, err);
    if (v) {
        if (v->type.id == SQE_T_NULL || sqe_vector_is_null(v, 0)) {
            *out = sqe_value_null(e->type);
        } else {
            sqe_vector_get_value(v, 0, out);
            out->type = e->type;
            if (out->type.id == SQE_T_VARCHAR || out->type.id == SQE_T_VARBINARY)
                out->v.s.ptr = sqe_arena_strndup(arena, out->v.s.ptr, out->v.s.len);
        }
        ok = true;
    }
    sqe_batch_free(b);
    sqe_expr_state_free(st);
    return ok;
}
