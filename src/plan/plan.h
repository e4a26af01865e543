/*
 * plan.h - layer 5: the binder and planner. Turns a SELECT AST into a tree
 * of plan nodes with bound expressions, then applies rewrites: constant
 * folding, predicate pushdown into the scan (split into a partition filter
 * over partition keys and a row filter over data columns), projection
 * pushdown (the scan reads only referenced columns), partition pruning by
 * leading equality/IN predicates, ORDER BY + LIMIT -> TopN.
 *
 * Plan nodes are close to physical: exec/ builds one operator per node. Every
 * node has an output schema (n_out, out_types, out_names); expressions of a
 * node reference columns of its child's output by index. All memory is in
 * the statement arena.
 */
#ifndef SQE_PLAN_H
#define SQE_PLAN_H

#include "exec/expr.h"
#include "hive/hive.h"

typedef enum sqe_plan_kind {
    SQE_PLAN_SCAN,   /* hive table scan */
    SQE_PLAN_VALUES, /* constant rows (SELECT without FROM) */
    SQE_PLAN_FILTER,
    SQE_PLAN_PROJECT,
    SQE_PLAN_AGGREGATE, /* hash aggregate: output = group keys, then aggregates */
    SQE_PLAN_SORT,
    SQE_PLAN_TOPN,  /* ORDER BY ... LIMIT n [OFFSET m] */
    SQE_PLAN_LIMIT, /* LIMIT/OFFSET without ORDER BY */
} sqe_plan_kind;

typedef struct sqe_sort_key {
    int col; /* column of the child's output */
    bool desc;
    bool nulls_first; /* resolved: Trino default is NULLS LAST in both directions */
} sqe_sort_key;

typedef struct sqe_plan sqe_plan;
struct sqe_plan {
    sqe_plan_kind kind;
    sqe_plan *child; /* NULL for SCAN and VALUES */
    int n_out;
    sqe_type *out_types;
    const char **out_names;
    union {
        struct {
            sqe_hive_table *table; /* owned by the statement (freed by the engine) */
            char *table_name;      /* root.db.table for EXPLAIN */
            /* Output column i is table column cols[i]: data column cols[i]
             * when < table->n_cols, else partition key cols[i] - n_cols. */
            int n_cols;
            int *cols;
            /* Row filter over the scan output (NULL: none). */
            sqe_expr *filter;
            /* Partition filter over a batch holding the partition keys
             * (column k = partition key k), NULL: none. */
            sqe_expr *partition_filter;
            /* Equality/IN pruning of leading keys for listing (arrays of
             * n_part_keys; NULL when there is no pruning). */
            sqe_hive_prune *prune;
        } scan;
        struct {
            int n_rows;
            sqe_value **rows; /* n_rows rows of n_out values */
        } values;
        struct {
            sqe_expr *pred;
        } filter;
        struct {
            sqe_expr **exprs; /* n_out expressions */
        } project;
        struct {
            int n_groups;
            sqe_expr **groups;
            int n_aggs;
            sqe_agg_binding *aggs;
            sqe_expr **agg_args; /* per aggregate: argument, NULL for count(*) */
        } aggregate;
        struct {
            int n_keys;
            sqe_sort_key *keys;
            uint64_t limit;  /* TOPN */
            uint64_t offset; /* TOPN */
        } sort;
        struct {
            bool has_limit;
            uint64_t limit;
            uint64_t offset;
        } limit;
    } u;
};

/* Binds and plans a query. The catalog resolves table names. Errors name the
 * offending column/function/type with its line:column. */
sqe_plan *sqe_plan_query(sqe_arena *arena, sqe_hive_catalog *cat, const sqe_ast_query *q,
                         sqe_error *err);

/* Frees the hive tables a plan holds (the rest dies with the arena). */
void sqe_plan_release(sqe_plan *p);

#endif
