/*
 * expr.h - bound, typed expressions and their vectorized evaluation.
 *
 * The binder (plan/) turns AST expressions into sqe_expr trees whose column
 * references are indexes into the input batch of the operator that
 * evaluates them. Evaluation runs a node over a whole batch selection at a
 * time (never row by row) and returns a vector: a column reference returns
 * the input vector itself; any other node writes into a scratch vector owned
 * by its sqe_expr_state. AND/OR/CASE/COALESCE evaluate lazily by narrowing
 * the selection, so a branch never fails on rows it does not apply to
 * (`CASE WHEN x <> 0 THEN 10 / x END`).
 */
#ifndef SQE_EXPR_H
#define SQE_EXPR_H

#include "func/func.h"

typedef enum sqe_expr_kind {
    SQE_EXPR_COLUMN,    /* col */
    SQE_EXPR_CONST,     /* value */
    SQE_EXPR_CALL,      /* fn(args) */
    SQE_EXPR_CAST,      /* args[0] cast to type; try_ */
    SQE_EXPR_AND,       /* args[0..n) three-valued AND */
    SQE_EXPR_OR,        /* args[0..n) three-valued OR */
    SQE_EXPR_NOT,       /* args[0] */
    SQE_EXPR_IS_NULL,   /* args[0] IS NULL (negated: IS NOT NULL) */
    SQE_EXPR_CASE,      /* args = cond0, res0, cond1, res1, ..., [else]; has_else */
    SQE_EXPR_COALESCE,  /* first non-null of args */
    SQE_EXPR_IN,        /* args[0] IN (in_values) [negated]: constants of args[0]'s type */
    SQE_EXPR_OUTER_COL, /* col: a column of the enclosing query (a correlated subquery's
                           reference); the planner rewrites it away, it is never evaluated */
    SQE_EXPR_TRY,       /* try(args[0]): rows whose evaluation fails with division by zero,
                           out of range, invalid argument or invalid data become NULL */
} sqe_expr_kind;

typedef struct sqe_expr sqe_expr;
struct sqe_expr {
    sqe_expr_kind kind;
    sqe_type type; /* result type */
    int n_args;
    sqe_expr **args;
    int col;             /* COLUMN: index into the input batch */
    sqe_value value;     /* CONST (strings in the statement arena) */
    sqe_func_binding fn; /* CALL */
    bool try_;           /* CAST: TRY_CAST */
    uint16_t zone;       /* CAST: session time zone key for TIMESTAMP/DATE/VARCHAR ->
                            TIMESTAMP WITH TIME ZONE (sqe_value_cast_zone); 0: UTC */
    bool negated;        /* IS_NULL: IS NOT NULL; IN: NOT IN */
    bool has_else;       /* CASE */
    int n_in;            /* IN */
    sqe_value *in_values;
    const char *name; /* COLUMN: column name (EXPLAIN/errors) */
};

/* Constructors (arena-allocated). */
sqe_expr *sqe_expr_column(sqe_arena *a, int col, sqe_type type, const char *name);
sqe_expr *sqe_expr_const(sqe_arena *a, const sqe_value *v);
sqe_expr *sqe_expr_cast(sqe_arena *a, sqe_expr *arg, sqe_type to, bool try_);
sqe_expr *sqe_expr_new(sqe_arena *a, sqe_expr_kind kind, sqe_type type, int n_args,
                       sqe_expr **args);

/* Renders an expression for EXPLAIN: "(amount > 10)", "sum(...)" with
 * column names. Arena-allocated. */
char *sqe_expr_to_string(sqe_arena *a, const sqe_expr *e);

/* Per-operator evaluation state for one expression tree: scratch vectors for
 * every non-column node, reused batch to batch. Owned by the operator;
 * freed with sqe_expr_state_free. Not shared between threads. */
typedef struct sqe_expr_state sqe_expr_state;
/* A state whose memory counts nowhere (constant folding, tests). */
sqe_expr_state *sqe_expr_state_new(const sqe_expr *e);
/* A state whose memory counts against `acct` (copied; its counter must
 * outlive the state): the fixed part (scratch vectors, selection buffers)
 * is charged here, and every scratch vector charges its string heap as it
 * grows, so a function building large results (lpad, concat, replace, casts
 * to varchar) fails its evaluation with RESOURCE_EXHAUSTED "query exceeded
 * the memory limit of N bytes in <function>" before the memory is
 * allocated. Returns NULL with RESOURCE_EXHAUSTED "... in <what>" when the
 * fixed part does not fit. err NULL (callers that cannot fail here, such
 * as a sink's local_new): the fixed part is counted but never refused, and
 * never NULL; results are still bounded. acct NULL: as sqe_expr_state_new. */
sqe_expr_state *sqe_expr_state_new_acct(const sqe_expr *e, const sqe_mem_account *acct,
                                        const char *what, sqe_error *err);
/* As sqe_expr_state_new_acct; lazy: the scratch vectors start empty and
 * grow to the rows evaluated (each growth charged then, refusable), for a
 * caller holding very many expressions (a 60,000-item select list); not
 * lazy: they are allocated and charged whole here. */
sqe_expr_state *sqe_expr_state_new_sized(const sqe_expr *e, const sqe_mem_account *acct,
                                         const char *what, bool lazy, sqe_error *err);
/* Bytes a state of e that is not lazy charges when made. */
size_t sqe_expr_state_full_bytes(const sqe_expr *e);
void sqe_expr_state_free(sqe_expr_state *st);

/* Evaluates the expression for the rows (sel ? sel[0..n) : 0..n-1) of `in`.
 * Returns the result vector (valid until the next eval on this state or the
 * next change to `in`), or NULL with err set. */
sqe_vector *sqe_expr_eval(sqe_expr_state *st, sqe_batch *in, const uint16_t *sel, uint32_t n,
                          sqe_error *err);

/* Evaluates a BOOLEAN predicate and writes the rows where it is TRUE (not
 * FALSE, not NULL) into out_sel (ascending); returns their count via
 * *n_out. sel/n select the input rows as above. */
bool sqe_expr_filter(sqe_expr_state *st, sqe_batch *in, const uint16_t *sel, uint32_t n,
                     uint16_t *out_sel, uint32_t *n_out, sqe_error *err);

/* Constant folding helper: evaluates an expression that references no
 * columns to a single value (strings copied into arena). */
bool sqe_expr_eval_const(const sqe_expr *e, sqe_arena *arena, sqe_value *out, sqe_error *err);
bool sqe_expr_is_const(const sqe_expr *e);

#endif
