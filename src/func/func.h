/*
 * func.h - layer 3: the function registry. Scalar functions (including the
 * SQL operators + - * / % = <> < <= > >= || and unary minus, which are
 * registered under those names) and aggregate functions, each resolved once
 * at bind time to a binding with exact argument types and a vectorized
 * kernel. Kernels never run row by row through an interpreter: each call
 * processes a whole selection of rows of a batch.
 *
 * Binding contract: sqe_func_bind_scalar picks the overload for the given
 * argument types following Trino's implicit coercions (integer widening,
 * integer -> decimal, anything numeric -> double, NULL -> anything) and
 * reports in binding->arg_types the exact type each argument must have; the
 * binder (plan/) wraps arguments whose type differs in a CAST. The kernel can
 * therefore assume its argument vectors have exactly those types.
 *
 * Rows to compute: when sel is NULL, rows 0..n-1; else rows sel[0..n). A
 * kernel writes out[row] at the same physical row index and must not touch
 * (nor fail on) rows outside the selection. Unless documented otherwise,
 * NULL in any argument gives NULL.
 */
#ifndef SQE_FUNC_H
#define SQE_FUNC_H

#include "vector/vector.h"

typedef struct sqe_func_binding sqe_func_binding;

typedef bool (*sqe_scalar_kernel)(const sqe_func_binding *b, sqe_vector *const *args,
                                  const uint16_t *sel, uint32_t n, sqe_vector *out, sqe_error *err);

struct sqe_func_binding {
    const char *name; /* canonical lower-case name, for EXPLAIN */
    sqe_scalar_kernel kernel;
    sqe_type ret;
    int n_args;
    sqe_type *arg_types; /* n_args exact argument types (arena) */
    void *data;          /* per-binding state (e.g. a pre-compiled constant pattern), arena */
    /* Optional per-evaluation scratch (compiled regular expressions and
     * their match buffers): when state_new is set, whoever runs the kernel
     * (exec/expr.c, once per expression state, so per operator and thread)
     * copies the binding, sets state = state_new(b) and frees it with
     * state_free(state) when done. Kernels must also work with state NULL
     * (they then make a temporary one per call). */
    void *(*state_new)(const sqe_func_binding *b);
    void (*state_free)(void *state);
    void *state;
    /* A different value per call (random): never folded to a constant. */
    bool nondeterministic;
    /* The session time zone (types/tz.c key; 0 UTC), set by
     * sqe_func_fix_statement after binding: what now(), localtimestamp,
     * from_unixtime(x), current_timezone() and a plain TIMESTAMP read as
     * an instant (at_timezone, to_unixtime, format_datetime) use. */
    uint16_t zone;
};

/* Resolves name(args). const_args[i] is the value of argument i when it is a
 * constant (lets e.g. LIKE pre-compile the pattern, round() know its digits),
 * else NULL; const_args itself may be NULL. Errors: NOT_FOUND "function
 * 'foo' not registered", TYPE_MISMATCH "function substr(integer) ... does
 * not accept ... candidates: substr(varchar, bigint), ...". Memory in arena. */
bool sqe_func_bind_scalar(sqe_arena *arena, const char *name, int n_args, const sqe_type *arg_types,
                          const sqe_value *const *const_args, sqe_func_binding *out,
                          sqe_error *err);

/* What every function call of one statement shares; the planner owns one
 * per statement (no process globals): the statement's instant and the
 * session time zone (SET TIME ZONE, engine/engine.c). */
typedef struct sqe_func_stmt {
    int64_t clock; /* wall clock (us) read by the statement's first now()/current_*;
                      INT64_MIN until then, so every call sees one instant (Trino) */
    uint16_t zone; /* session time zone key (types/tz.c; 0: UTC) */
} sqe_func_stmt;

/* Called by the binder on every scalar binding of a statement: sets
 * b->zone to st->zone, and for a current-time function (now,
 * current_timestamp, localtimestamp, current_date, current_time) makes it
 * return the statement's instant st->clock (microseconds) seen in that
 * zone, reading the wall clock into st->clock first when it is INT64_MIN. */
void sqe_func_fix_statement(sqe_func_binding *b, sqe_func_stmt *st);

/* Vectorized CAST of `in` to out->type for the selected rows (Trino
 * semantics as sqe_value_cast; try_ turns failures into NULL). */
bool sqe_func_cast_vector(const sqe_vector *in, sqe_vector *out, bool try_, const uint16_t *sel,
                          uint32_t n, sqe_error *err);
/* The same with session time zone `zone` (sqe_value_cast_zone). */
bool sqe_func_cast_vector_zone(const sqe_vector *in, sqe_vector *out, bool try_, uint16_t zone,
                               const uint16_t *sel, uint32_t n, sqe_error *err);

/* SHOW FUNCTIONS [LIKE 'pattern']: every scalar overload of the registry
 * plus the aggregates and window functions, as a VARCHAR result with
 * columns Function, Return Type, Argument Types, Function Type,
 * Description, sorted by name. like NULL: everything. */
bool sqe_func_show(const char *like, sqe_resultset **out, sqe_error *err);
/* Writes into buf the registered names closest to `name` by edit distance
 * ("regexp_like, ..."; at most three); returns the length, 0 when none is
 * close. */
size_t sqe_func_suggest(const char *name, char *buf, size_t buf_len);

/* ------------------------------------------------------------ aggregates */

typedef struct sqe_agg_binding sqe_agg_binding;

struct sqe_agg_binding {
    const char *name;  /* "count", "sum", ... for EXPLAIN */
    bool distinct;     /* aggregate over distinct argument values */
    bool star;         /* count(*): no argument vector */
    sqe_type arg_type; /* exact argument type (binder casts to it) */
    sqe_type ret;
    size_t state_size; /* bytes of per-group state, 16-byte aligned by the caller */
    /* Initialises one group's state. */
    void (*init)(const sqe_agg_binding *b, void *state);
    /* Folds rows into states: states[i] belongs to row (sel ? sel[i] : i),
     * i in 0..n-1. arg is NULL for count(*). NULL inputs are ignored (except
     * count(*)). */
    bool (*update)(const sqe_agg_binding *b, void *const *states, const sqe_vector *arg,
                   const uint16_t *sel, uint32_t n, sqe_error *err);
    /* Merges src into dst (parallel partial aggregation); src is left
     * destroyed-equivalent (its owned memory moved or freed). */
    bool (*combine)(const sqe_agg_binding *b, void *dst, void *src, sqe_error *err);
    /* Writes the final value of a state into out[row]. */
    bool (*finalize)(const sqe_agg_binding *b, void *state, sqe_vector *out, uint32_t row,
                     sqe_error *err);
    /* Frees memory owned by a state (NULL when the state owns none). */
    void (*destroy)(const sqe_agg_binding *b, void *state);
    /* For memory accounting (NULL when states own no heap memory): the
     * change in heap bytes owned by `state` since the previous call for it
     * (or since init). Call it after update or combine for the states they
     * touched (both dst and src of a combine); a second call in a row
     * returns 0, so asking twice is harmless. The bytes belong to the state's
     * place, not its value: combine may move memory between dst and src,
     * and their deltas then say so. */
    int64_t (*mem_delta)(const sqe_agg_binding *b, void *state);
    /* With mem_delta (NULL without): an upper bound of the heap bytes the
     * next update of `state` with rows (sel, n) of arg (other NULL), or
     * the next combine of `other` into it (arg NULL), may allocate, copies
     * that exist only during a rebuild included. The operator reserves that
     * much under the memory limit before it calls them, so a set that is
     * about to double fails the statement before the memory exists instead
     * of after. */
    size_t (*grow_need)(const sqe_agg_binding *b, const void *state, const void *other,
                        const sqe_vector *arg, const uint16_t *sel, uint32_t n);
    void *data;
};

bool sqe_func_is_aggregate(const char *name);
/* Resolves an aggregate: count(*) (star), count(x), count(DISTINCT x), sum,
 * avg, min, max (+ DISTINCT forms). Result types follow Trino: count ->
 * bigint; sum(integer types) -> bigint; sum(decimal(p,s)) ->
 * decimal(38,s); sum(real/double) -> double (real->real); avg(integers,
 * double) -> double; avg(decimal(p,s)) -> decimal(p,s); min/max -> arg type.
 * Memory in arena. */
bool sqe_func_bind_aggregate(sqe_arena *arena, const char *name, bool distinct, bool star,
                             int n_args, const sqe_type *arg_types, sqe_agg_binding *out,
                             sqe_error *err);

/* Joda-Time date patterns outside SQL functions (partition projection's
 * projection.<key>.format, hive/): the same compiler, printer and parser as
 * format_datetime / parse_datetime. A compiled pattern is freed with
 * sqe_joda_free. Printing takes microseconds since the epoch and prints them
 * as UTC wall time; parsing fills unwritten fields from
 * 1970-01-01 00:00:00 and consumes the whole text, with Joda's messages
 * ("Invalid format: ..."). `fn` names the caller in messages. */
typedef struct sqe_joda_pattern sqe_joda_pattern;
sqe_joda_pattern *sqe_joda_compile(const char *pattern, sqe_error *err);
void sqe_joda_free(sqe_joda_pattern *p);
void sqe_joda_print(const sqe_joda_pattern *p, int64_t us, sqe_strbuf *sb);
bool sqe_joda_parse(const sqe_joda_pattern *p, const char *fn, const char *s, size_t n, int64_t *us,
                    sqe_error *err);

#endif
