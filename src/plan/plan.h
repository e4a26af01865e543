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
#include "sql/sql.h"

typedef enum sqe_plan_kind {
    SQE_PLAN_SCAN,   /* hive table scan */
    SQE_PLAN_VALUES, /* constant rows (SELECT without FROM, VALUES) */
    SQE_PLAN_FILTER,
    SQE_PLAN_PROJECT,
    SQE_PLAN_AGGREGATE, /* hash aggregate: output = group keys, then aggregates */
    SQE_PLAN_SORT,
    SQE_PLAN_TOPN,       /* ORDER BY ... LIMIT n [OFFSET m] */
    SQE_PLAN_LIMIT,      /* LIMIT/OFFSET without ORDER BY */
    SQE_PLAN_HASH_JOIN,  /* equi join: children[0] probe (streams), children[1] build */
    SQE_PLAN_NL_JOIN,    /* nested loop: children[0] probe (streams), children[1] materialized */
    SQE_PLAN_UNION_ALL,  /* n_children inputs of the same schema, concatenated */
    SQE_PLAN_SET_OP,     /* INTERSECT / EXCEPT [ALL] of children[0] and children[1] */
    SQE_PLAN_WINDOW,     /* child columns, then one column per window function */
    SQE_PLAN_GROUP_ID,   /* GROUPING SETS expansion: each input row once per set */
    SQE_PLAN_SINGLE_ROW, /* passes its child's only row; 0 rows -> one NULL row; >1 -> error */
} sqe_plan_kind;

typedef struct sqe_sort_key {
    int col; /* column of the child's output */
    bool desc;
    bool nulls_first; /* resolved: Trino default is NULLS LAST in both directions */
} sqe_sort_key;

/* Join types. Output columns: INNER, LEFT, RIGHT, FULL: children[0]'s
 * columns then children[1]'s (the missing side NULL for unmatched rows);
 * SEMI, ANTI: children[0]'s only; MARK: children[0]'s plus one nullable
 * BOOLEAN "mark" per probe row (the value of `left_key IN (right side)` /
 * EXISTS, see null_aware). */
typedef enum sqe_join_type {
    SQE_JT_INNER,
    SQE_JT_LEFT,
    SQE_JT_RIGHT,
    SQE_JT_FULL,
    SQE_JT_SEMI,
    SQE_JT_ANTI,
    SQE_JT_MARK,
} sqe_join_type;

/* One window function of a WINDOW node. Every function of one node shares
 * the node's PARTITION BY / ORDER BY (the planner stacks one node per
 * distinct specification). */
typedef enum sqe_window_kind {
    SQE_WIN_AGGREGATE, /* agg over the frame: binding + arg as in AGGREGATE */
    SQE_WIN_ROW_NUMBER,
    SQE_WIN_RANK,
    SQE_WIN_DENSE_RANK,
    SQE_WIN_PERCENT_RANK,
    SQE_WIN_CUME_DIST,
    SQE_WIN_NTILE, /* args[0]: bucket count (BIGINT, per row) */
    SQE_WIN_LAG,   /* args[0] value, args[1] offset (BIGINT) or NULL: 1, args[2] default or NULL */
    SQE_WIN_LEAD,  /* as LAG */
    SQE_WIN_FIRST_VALUE, /* args[0] over the frame */
    SQE_WIN_LAST_VALUE,
    SQE_WIN_NTH_VALUE, /* args[0] value, args[1] n (BIGINT, 1-based) */
} sqe_window_kind;

typedef enum sqe_frame_type {
    SQE_FRAME_T_ROWS,
    SQE_FRAME_T_RANGE,
    SQE_FRAME_T_GROUPS
} sqe_frame_type;

typedef struct sqe_frame_edge {
    sqe_frame_bound_kind kind; /* sql.h: UNBOUNDED_PRECEDING .. UNBOUNDED_FOLLOWING */
    sqe_expr *offset;          /* PRECEDING/FOLLOWING: over the child's columns (constant or per
                                  row); ROWS/GROUPS: BIGINT >= 0; RANGE: the ORDER BY key's type
                                  (or an INTERVAL-free numeric difference) */
} sqe_frame_edge;

typedef struct sqe_window_func {
    sqe_window_kind kind;
    sqe_type type; /* result type */
    int n_args;
    sqe_expr **args;     /* over the child's columns */
    bool ignore_nulls;   /* LAG/LEAD/FIRST_VALUE/LAST_VALUE/NTH_VALUE */
    sqe_agg_binding agg; /* SQE_WIN_AGGREGATE: the bound aggregate (args[0] its argument, or
                            n_args == 0 for count(*)) */
    sqe_expr *filter;    /* SQE_WIN_AGGREGATE: FILTER (WHERE ...) over the child, or NULL */
    /* Frame (Trino default without a frame clause: RANGE UNBOUNDED PRECEDING to CURRENT ROW
     * when there is an ORDER BY, else the whole partition). Used by aggregates and
     * FIRST/LAST/NTH_VALUE; ranking functions and LAG/LEAD ignore it. */
    sqe_frame_type frame;
    sqe_frame_edge start, end;
} sqe_window_func;

typedef struct sqe_plan sqe_plan;
struct sqe_plan {
    sqe_plan_kind kind;
    int n_children; /* 0 for SCAN and VALUES; 2 for joins and SET_OP; >= 1 for UNION_ALL */
    sqe_plan **children;
    int n_out;
    sqe_type *out_types;
    const char **out_names;
    double est_rows; /* planner's size estimate in bytes (< 0: unknown); join sides */
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
            /* Under a LIMIT (through filters and projections only) with no
             * partition predicate: partitions are read newest first, one
             * at a time, each listed only when reached (SPEC §9.1;
             * lazy_scan.c). EXPLAIN: LazyPartitionScanExec. */
            bool lazy;
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
            /* per aggregate: FILTER (WHERE ...) or NULL; the array may be NULL */
            sqe_expr **agg_filters;
            /* GROUPING SETS with empty sets: the last group key is the group
             * id, and a group with each of these ids (every other key NULL)
             * is emitted even when no input row reached it (Trino's default
             * row of the () set over empty input). */
            int n_default_groups;
            int64_t *default_gids;
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
        /* HASH_JOIN (n_keys >= 1) and NL_JOIN (n_keys == 0). NULL keys never
         * match. The residual is evaluated on candidate pairs (a batch of
         * children[0]'s columns followed by children[1]'s); a pair matches
         * when it is TRUE. */
        struct {
            sqe_join_type type;
            int n_keys;
            sqe_expr **left_keys;  /* over children[0]'s output */
            sqe_expr **right_keys; /* over children[1]'s output; type of left_keys[i] */
            sqe_expr *residual;    /* NULL: none */
            /* MARK (IN) / ANTI (NOT IN): the LAST key is the IN operand and
             * follows SQL's three-valued IN: for a probe row whose other keys
             * match a non-empty group G of build rows, mark = TRUE if some row
             * of G equals it, else NULL if its key is NULL or G holds a NULL
             * key, else FALSE; ANTI keeps the row only when mark is FALSE. */
            bool null_aware;
            /* Scalar subquery (LEFT): a probe row matching more than one
             * build row fails with "Scalar sub-query has returned multiple rows". */
            bool single_match;
        } join;
        struct {
            sqe_set_op op; /* SQE_SET_INTERSECT or SQE_SET_EXCEPT (sql.h) */
            bool all;      /* multiset semantics (INTERSECT ALL / EXCEPT ALL) */
        } set_op;
        struct {
            int n_partition;
            sqe_expr **partition; /* over the child's columns */
            int n_order;
            sqe_expr **order;         /* over the child's columns */
            sqe_sort_key *order_keys; /* .col = index into order[] */
            int n_funcs;
            sqe_window_func *funcs;
        } window;
        /* Output: children[0]'s columns pass_cols, then the n_keys grouping
         * key columns (NULL where the set does not contain the key), then a
         * BIGINT group id: bit (n_keys - 1 - k) set when key k is NOT in the
         * set (so grouping(a, b, ...) is a projection of it), plus, when
         * n_keys <= 31, the number of identical sets before it shifted
         * left by 32, so that duplicate sets stay distinct groups. */
        struct {
            int n_pass;
            int *pass_cols;
            int n_keys;
            int *key_cols;
            int n_sets;
            int *set_len;
            int **sets; /* indexes into key_cols */
        } group_id;
    } u;
};

static inline sqe_plan *sqe_plan_child(const sqe_plan *p) {
    return p->n_children ? p->children[0] : NULL;
}

/* Calls fn on p and every node below it, parents before children. */
void sqe_plan_walk(sqe_plan *p, void (*fn)(sqe_plan *node, void *ctx), void *ctx);

/* Binds and plans a query. The catalog resolves table names. Errors name the
 * offending column/function/type with its line:column. */
sqe_plan *sqe_plan_query(sqe_arena *arena, sqe_hive_catalog *cat, const sqe_ast_query *q,
                         sqe_error *err);
/* The same with session time zone `zone` (a types/tz.c key; sqe_plan_query
 * uses UTC): the zone of current_timestamp, of casts to TIMESTAMP WITH TIME
 * ZONE and of every function that reads a plain TIMESTAMP as an instant. */
sqe_plan *sqe_plan_query_in_zone(sqe_arena *arena, sqe_hive_catalog *cat, uint16_t zone,
                                 const sqe_ast_query *q, sqe_error *err);

/* Binds and evaluates a constant expression with no columns in scope (SET
 * TIME ZONE's value); `what` names the clause in errors ("SET TIME ZONE
 * must be a constant"). The value (strings in arena) has the bound type. */
bool sqe_plan_eval_constant(sqe_arena *arena, sqe_hive_catalog *cat, uint16_t zone,
                            const sqe_ast_expr *e, const char *what, sqe_value *out,
                            sqe_error *err);

/* Frees the hive tables a plan holds (the rest dies with the arena). */
void sqe_plan_release(sqe_plan *p);

#endif
