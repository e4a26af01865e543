/*
 * plan_int.h - private to plan/: binder scopes and contexts shared by
 * binder.c (expressions) and planner.c (query shapes, scan pushdown).
 *
 */
#ifndef SQE_PLAN_INT_H
#define SQE_PLAN_INT_H

#include "plan/plan.h"

/* One column visible to expressions: `index` is its position in the input
 * batch of the node that evaluates the expression. */
typedef struct scope_col {
    const char *qualifier; /* table alias or table name (lower-case), may be NULL */
    bool qualified_only;   /* JOIN ... USING: the side's own copy of a USING column is
                              reachable only through its qualifier, and not by '*' */
    const char *database;  /* for db.table.col references, may be NULL */
    const char *root;      /* for root.db.table.col references (the catalog), may be NULL */
    const char *name;      /* lower-case column name */
    sqe_type type;
    int index;
} scope_col;

typedef struct scope {
    int n;
    scope_col *cols;
} scope;

/* Aggregate context: set while binding expressions that run above a hash
 * aggregate (select list, HAVING, ORDER BY of a grouped query). */
typedef struct agg_ctx {
    const scope *source; /* the scope below the aggregate */
    int n_groups;
    sqe_expr **groups; /* bound against source */
    const sqe_ast_expr **group_asts;
    int n_aggs;
    sqe_agg_binding *aggs;
    sqe_expr **agg_args;
    char **agg_keys; /* dedupe keys: "sum|0|<arg text>" */
    int gid_col;     /* GROUPING SETS: the group-id column (a group index), else -1 */
    int cap_aggs;
} agg_ctx;

struct subq_ctx;
typedef SQE_ARRAY(sqe_expr *) sqe_expr_list;

/* Window calls already planned below the select list: call AST -> column. */
typedef struct win_map {
    int n;
    const sqe_ast_expr **asts;
    int *cols;
    sqe_type *types;
} win_map;

typedef struct bind_ctx {
    const struct bind_ctx *outer; /* the enclosing query's context (correlated subquery) */
    struct subq_ctx *subq;        /* non-NULL where subqueries may appear (planner) */
    const win_map *win;           /* non-NULL where window calls may appear (select list) */
    sqe_arena *arena;
    sqe_hive_catalog *cat;
    const scope *scope;  /* columns visible (NULL: none) */
    agg_ctx *agg;        /* non-NULL: post-aggregation binding */
    bool collecting;     /* agg collection pass: aggregates allowed, bind args */
    bool collect_trial;  /* collecting inside a subquery's WHERE: keep the aggregates whose
                            argument binds against this query's source, skip the others */
    const char *clause;  /* "WHERE", "GROUP BY", ... for error messages */
    sqe_func_stmt *stmt; /* the statement's instant and session zone (planner.stmt) or NULL */
    int lazy;            /* > 0 inside an operand that may never be evaluated (CASE
                            branches, later COALESCE/IF arguments, right side of
                            AND/OR): a constant CAST that fails is left to run time */
} bind_ctx;

/* A WITH entry visible to FROM: references re-plan the query (inlining). */
typedef struct cte_def {
    const sqe_ast_cte *cte;
    struct cte_def *prev; /* the WITH entries visible where this one was defined */
} cte_def;

/* The planner's state for one statement. */
typedef struct planner planner;
struct planner {
    sqe_arena *arena;
    sqe_hive_catalog *cat;
    SQE_ARRAY(sqe_hive_table *) tables; /* resolved tables, freed on failure */
    cte_def *ctes;                      /* innermost visible WITH entry */
    struct corr_ctx *corr;              /* set for the top SELECT of a subquery being planned */
    int depth;                          /* nesting of query expressions (limit) */
    sqe_func_stmt stmt;                 /* what every function call shares: the statement's instant
                                           (now()/current_*) and the session time zone */
};

/* planner.c */
sqe_plan *sqe_plan_select(planner *pl, const sqe_ast_query *q, sqe_error *err);
scope sqe_plan_scope_of(sqe_arena *a, const sqe_plan *p, const char *qualifier, const char *db,
                        const char *root);
/* A constant, non-negative integer for LIMIT/OFFSET (`what` names it). */
bool sqe_plan_const_count(planner *pl, const sqe_ast_expr *e, const char *what, uint64_t *out,
                          sqe_error *err);
sqe_plan *sqe_plan_table(planner *pl, const sqe_ast_from *f, scope *out_scope, sqe_error *err);
/* A SCAN of every column of t (data columns, then partition keys); the
 * caller has registered t in pl->tables. */
sqe_plan *sqe_plan_scan_node(planner *pl, sqe_hive_table *t, char *display_name);
/* table_func.c: read_csv / read_json / read_parquet in FROM. */
sqe_plan *sqe_plan_table_function(planner *pl, const sqe_ast_from *f, scope *out_scope,
                                  sqe_error *err);
/* part_pred.c: ANDs conjunct `conj` (over the scan's table columns, data
 * then partition keys) into scan->u.scan.prune when it can be expressed as
 * a partition predicate; otherwise nothing happens. */
void sqe_plan_add_part_pred(sqe_arena *a, sqe_plan *scan, const sqe_expr *conj);
bool sqe_plan_push_filter_into_scan(sqe_arena *a, sqe_plan *scan, sqe_expr *pred, sqe_error *err);
/* Same output schema as child (types and names copied). */
sqe_plan *sqe_plan_same_schema(sqe_arena *a, sqe_plan_kind kind, sqe_plan *child);

/* relation.c: query expressions (WITH, set operations, VALUES, ORDER BY /
 * LIMIT over them) and FROM items (tables, CTE references, subqueries,
 * joins). */
sqe_plan *sqe_plan_query_expr(planner *pl, const sqe_ast_query *q, sqe_error *err);
sqe_plan *sqe_plan_from(planner *pl, const sqe_ast_from *f, scope *out_scope, sqe_error *err);
/* Places a predicate (bound over p's output) as low in p as it may go:
 * into scans, below joins on the side it references, as join keys. */
sqe_plan *sqe_plan_add_filter(planner *pl, sqe_plan *p, sqe_expr *pred, sqe_error *err);
/* Appends the key pair le (over j's left input) = re (over its right
 * input), coerced to their common type; j becomes a hash join. false when
 * the types have none. */
bool sqe_plan_join_append_key(planner *pl, sqe_plan *j, sqe_expr *le, sqe_expr *re);
/* A condition over j's concatenated columns: a hash key when it is an
 * equality between the two sides (returns true), else ANDed into the
 * residual (returns false). */
bool sqe_plan_join_add_cond(planner *pl, sqe_plan *j, sqe_expr *c);
/* Splits an AND tree into conjuncts (appended to *out). */
void sqe_plan_conjuncts(sqe_arena *a, sqe_expr *e, sqe_expr_list *out);
/* Deep copy with column indexes mapped through map[] (map[i] < 0: keep). */
sqe_expr *sqe_plan_expr_remap(sqe_arena *a, const sqe_expr *e, const int *map);
/* Deep copy with every column index shifted by delta. */
sqe_expr *sqe_plan_expr_shift(sqe_arena *a, const sqe_expr *e, int delta);

/* subquery.c. While a clause is bound, subqueries in it become joins
 * stacked on the clause's input (*cur): a join keeps its left input's
 * column indexes, so the clause's scope stays valid. */
typedef struct subq_ctx {
    struct planner *pl;
    sqe_plan **cur;
} subq_ctx;

/* The correlation of a subquery being planned: conjuncts of its WHERE that
 * reference the enclosing query (OUTER_COL), rewritten over the
 * subquery's output (inner columns appended as extra output columns). */
typedef struct corr_ctx {
    const bind_ctx *outer; /* binds outer references */
    sqe_expr_list conds;   /* correlated conjuncts (COLUMN = subquery output, OUTER_COL = outer) */
    int n_visible;         /* the subquery's own select-list width (extra columns follow) */
    bool global_agg;       /* an aggregate without GROUP BY (before correlation keys) */
    sqe_expr **deferred;   /* NULL, or per visible item: the item over the subquery's output
                              when it reads the enclosing query (OUTER_COL), evaluated above
                              the join; the item itself outputs NULL (planner.c) */
    int marker;            /* output column that is non-NULL on every row, or -1 */
} corr_ctx;

/* Binds a subquery expression (scalar, EXISTS, IN) found in cx's clause. */
sqe_expr *sqe_plan_subquery(bind_ctx *cx, const sqe_ast_expr *e, sqe_error *err);
/* WHERE conjunct [NOT] EXISTS / [NOT] IN (subquery): a semi or anti join
 * on *cur. *handled = false when e is not of that form. *cond (NULL
 * unless set) is left for the caller to treat as a bound WHERE conjunct
 * over *cur that references the enclosing query: a subquery that read two
 * levels up became a join whose outer part is that correlation. */
bool sqe_plan_subquery_filter(bind_ctx *cx, const sqe_ast_expr *e, bool *handled, sqe_expr **cond,
                              sqe_error *err);
/* The level an OUTER_COL refers to, kept in its (otherwise unused) n_in:
 * 0 the enclosing query, 1 the query enclosing that one (a subquery of a
 * subquery; subquery.c hoists or pulls it up a level). */
#define SQE_OUTER_LEVEL(e) ((e)->n_in)
/* True when e contains an OUTER_COL. */
bool sqe_expr_has_outer(const sqe_expr *e);

/* window_bind.c: plans the window calls found in roots as WINDOW nodes
 * over cur (returned; cur itself when there are none) and fills map for
 * the binder (cx->win). */
sqe_plan *sqe_plan_windows(bind_ctx *cx, sqe_plan *cur, const sqe_ast_expr *const *roots,
                           int n_roots, win_map *map, sqe_error *err);
bool sqe_plan_has_windows(sqe_arena *a, const sqe_ast_expr *e);

/* join_sides.c: puts the smaller input of each join on the build side. */
void sqe_plan_choose_build_sides(sqe_arena *a, sqe_plan *root);
/* Estimated size in bytes of p's output (< 0: unknown); lists the files
 * of scans below p once (cached in the scan's est_rows). */
double sqe_plan_estimate(sqe_plan *p);
/* join_order.c: greedy order of each region of inner joins by estimate. */
void sqe_plan_order_joins(planner *pl, sqe_plan *root);

/* lazy_scan.c: marks the scans that read partitions newest first, one at
 * a time (SPEC §9.1). */
void sqe_plan_mark_lazy_scans(sqe_plan *root);

/* prune.c: every node outputs only the columns an ancestor reads. */
void sqe_plan_prune_columns(sqe_arena *a, sqe_plan *root);

/* plan_node.c: a node with the given children (copied into an arena array)
 * and n_out output columns (types and names to be filled by the caller). */
sqe_plan *sqe_plan_node_new(sqe_arena *a, sqe_plan_kind kind, int n_children, sqe_plan **children,
                            int n_out);
/* One child, or none when child is NULL. */
sqe_plan *sqe_plan_unary_new(sqe_arena *a, sqe_plan_kind kind, sqe_plan *child, int n_out);

/* binder.c */
sqe_expr *sqe_bind_expr(bind_ctx *cx, const sqe_ast_expr *e, sqe_error *err);
/* A scalar function call with overload resolution and argument coercion
 * ("=", "+", "coalesce" ...); args is taken over. */
sqe_expr *sqe_bind_call(bind_ctx *cx, const char *name, int n, sqe_expr **args, sqe_pos pos,
                        sqe_error *err);
/* agg(x) FILTER (WHERE c) as agg(CASE WHEN c THEN x END); returns the new
 * argument (count(*) becomes a count of a constant). */
sqe_expr *sqe_bind_agg_filter(bind_ctx *cx, const scope *source, const sqe_ast_expr *e,
                              sqe_agg_binding *ab, sqe_expr *arg, sqe_error *err);
/* Casts e to `to` (no-op when already that type). */
sqe_expr *sqe_bind_coerce(bind_ctx *cx, sqe_expr *e, sqe_type to, sqe_error *err);
bool sqe_bind_literal(sqe_arena *a, const sqe_ast_expr *e, sqe_value *out, sqe_error *err);
bool sqe_bind_is_aggregate_call(const sqe_ast_expr *e);
bool sqe_bind_contains_aggregate(const sqe_ast_expr *e);
/* The first aggregate call in e (for error positions), or NULL. */
const sqe_ast_expr *sqe_bind_first_aggregate(const sqe_ast_expr *e);
/* Collects and binds every aggregate call in e into cx->agg. */
bool sqe_bind_collect_aggs(bind_ctx *cx, const sqe_ast_expr *e, sqe_error *err);
bool sqe_expr_equal(const sqe_expr *a, const sqe_expr *b);
/* Calls fn for every COLUMN node (pointer to its col index). */
void sqe_expr_visit_cols(sqe_expr *e, void (*fn)(int *col, void *ctx), void *ctx);
sqe_expr *sqe_bind_and(sqe_arena *a, sqe_expr *l, sqe_expr *r);

/* infoschema.c: `information_schema.t` / `root.information_schema.t`. */
bool sqe_plan_is_information_schema(int n_parts, const char *const *parts);
sqe_plan *sqe_plan_information_schema(sqe_arena *a, sqe_hive_catalog *cat, int n_parts,
                                      const char *const *parts, sqe_pos pos, sqe_error *err);

/* Error helper: "... at line L:C". */
bool sqe_bind_error(sqe_error *err, sqe_error_class cls, sqe_pos pos, const char *fmt, ...)
    SQE_PRINTF(4, 5);

#endif
