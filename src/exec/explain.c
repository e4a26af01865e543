/*
 * explain.c - EXPLAIN: the physical plan as an indented operator tree, one
 * operator per line with its pushed-down work (scan columns, partition
 * filter, row filter, listing prune), join keys and window functions.
 */
#include "exec/exec_int.h"

char *sqe_exec_agg_to_string(sqe_arena *a, const sqe_agg_binding *b, const sqe_expr *arg) {
    if (b->star || !arg) return sqe_arena_sprintf(a, "%s(*)", b->name ? b->name : "?");
    return sqe_arena_sprintf(a, "%s(%s%s)", b->name ? b->name : "?", b->distinct ? "DISTINCT " : "",
                             sqe_expr_to_string(a, arg));
}

static void put_value(sqe_strbuf *sb, const sqe_value *v, sqe_arena *a) {
    sqe_expr e;
    memset(&e, 0, sizeof e);
    e.kind = SQE_EXPR_CONST;
    e.type = v->type;
    e.value = *v;
    sqe_strbuf_puts(sb, sqe_expr_to_string(a, &e));
}

/* The partition predicate: top-level AND kids joined with ", ". */
static void put_ppred(sqe_strbuf *sb, const sqe_hive_ppred *pp, const sqe_hive_table *t,
                      sqe_arena *a, bool top) {
    static const char *const k_ops[] = {"=", "<>", "<", "<=", ">", ">="};
    if (pp->kind != SQE_HIVE_PP_TERM) {
        bool and = pp->kind == SQE_HIVE_PP_AND;
        if (!(top && and)) sqe_strbuf_putc(sb, '(');
        for (int i = 0; i < pp->n_kids; i++) {
            if (i) sqe_strbuf_puts(sb, top && and? ", " : and? " AND " : " OR ");
            put_ppred(sb, pp->kids[i], t, a, false);
        }
        if (!(top && and)) sqe_strbuf_putc(sb, ')');
        return;
    }
    const sqe_fpred_term *term = &pp->term;
    int k = term->col;
    sqe_strbuf_puts(sb, k >= 0 && k < t->n_part_keys ? t->part_keys[k].name : "?");
    if (term->op == SQE_FPRED_IS_NULL || term->op == SQE_FPRED_IS_NOT_NULL) {
        sqe_strbuf_puts(sb, term->op == SQE_FPRED_IS_NULL ? " IS NULL" : " IS NOT NULL");
    } else if (term->op == SQE_FPRED_IN) {
        sqe_strbuf_puts(sb, " IN (");
        for (int j = 0; j < term->n_vals; j++) {
            if (j) sqe_strbuf_puts(sb, ", ");
            put_value(sb, &term->vals[j], a);
        }
        sqe_strbuf_putc(sb, ')');
    } else if (term->n_vals == 1 && (size_t)term->op < SQE_ARRAY_LEN(k_ops)) {
        sqe_strbuf_printf(sb, " %s ", k_ops[term->op]);
        put_value(sb, &term->vals[0], a);
    }
}

static void put_sort_keys(sqe_strbuf *sb, const sqe_plan *p) {
    const sqe_plan *in = sqe_plan_child(p);
    sqe_strbuf_puts(sb, "keys=[");
    for (int k = 0; k < p->u.sort.n_keys; k++) {
        const sqe_sort_key *key = &p->u.sort.keys[k];
        if (k) sqe_strbuf_puts(sb, ", ");
        const char *name = in && key->col >= 0 && key->col < in->n_out && in->out_names
                               ? in->out_names[key->col]
                               : NULL;
        if (name)
            sqe_strbuf_puts(sb, name);
        else
            sqe_strbuf_printf(sb, "#%d", key->col);
        sqe_strbuf_printf(sb, " %s NULLS %s", key->desc ? "DESC" : "ASC",
                          key->nulls_first ? "FIRST" : "LAST");
    }
    sqe_strbuf_putc(sb, ']');
}

static const char *join_type_name(sqe_join_type t) {
    switch (t) {
    case SQE_JT_INNER:
        return "INNER";
    case SQE_JT_LEFT:
        return "LEFT";
    case SQE_JT_RIGHT:
        return "RIGHT";
    case SQE_JT_FULL:
        return "FULL";
    case SQE_JT_SEMI:
        return "SEMI";
    case SQE_JT_ANTI:
        return "ANTI";
    case SQE_JT_MARK:
        return "MARK";
    }
    return "?";
}

static void explain_join(sqe_strbuf *sb, const sqe_plan *p, sqe_arena *a) {
    sqe_strbuf_printf(sb, "%s: type=%s",
                      p->kind == SQE_PLAN_HASH_JOIN ? "HashJoinExec" : "NestedLoopJoinExec",
                      join_type_name(p->u.join.type));
    if (p->u.join.n_keys) {
        sqe_strbuf_puts(sb, ", keys=[");
        for (int i = 0; i < p->u.join.n_keys; i++) {
            if (i) sqe_strbuf_puts(sb, ", ");
            sqe_strbuf_printf(sb, "%s = %s", sqe_expr_to_string(a, p->u.join.left_keys[i]),
                              sqe_expr_to_string(a, p->u.join.right_keys[i]));
        }
        sqe_strbuf_putc(sb, ']');
    }
    if (p->u.join.residual)
        sqe_strbuf_printf(sb, ", filter=%s", sqe_expr_to_string(a, p->u.join.residual));
    if (p->u.join.null_aware) sqe_strbuf_puts(sb, ", null_aware");
    if (p->u.join.single_match) sqe_strbuf_puts(sb, ", single_match");
}

static const char *window_kind_name(const sqe_window_func *f) {
    static const char *names[] = {"",           "row_number", "rank", "dense_rank", "percent_rank",
                                  "cume_dist",  "ntile",      "lag",  "lead",       "first_value",
                                  "last_value", "nth_value"};
    if (f->kind == SQE_WIN_AGGREGATE) return f->agg.name ? f->agg.name : "?";
    return (int)f->kind < (int)(sizeof names / sizeof names[0]) ? names[f->kind] : "?";
}

static void explain_window(sqe_strbuf *sb, const sqe_plan *p, sqe_arena *a) {
    sqe_strbuf_puts(sb, "WindowExec: partition=[");
    for (int i = 0; i < p->u.window.n_partition; i++) {
        if (i) sqe_strbuf_puts(sb, ", ");
        sqe_strbuf_puts(sb, sqe_expr_to_string(a, p->u.window.partition[i]));
    }
    sqe_strbuf_puts(sb, "], order=[");
    for (int i = 0; i < p->u.window.n_order; i++) {
        const sqe_sort_key *k = &p->u.window.order_keys[i];
        if (i) sqe_strbuf_puts(sb, ", ");
        sqe_strbuf_printf(sb, "%s %s NULLS %s", sqe_expr_to_string(a, p->u.window.order[k->col]),
                          k->desc ? "DESC" : "ASC", k->nulls_first ? "FIRST" : "LAST");
    }
    sqe_strbuf_puts(sb, "], funcs=[");
    for (int i = 0; i < p->u.window.n_funcs; i++) {
        const sqe_window_func *f = &p->u.window.funcs[i];
        if (i) sqe_strbuf_puts(sb, ", ");
        sqe_strbuf_printf(sb, "%s(", window_kind_name(f));
        for (int j = 0; j < f->n_args; j++) {
            if (j) sqe_strbuf_puts(sb, ", ");
            sqe_strbuf_puts(sb, f->args[j] ? sqe_expr_to_string(a, f->args[j]) : "NULL");
        }
        sqe_strbuf_putc(sb, ')');
    }
    sqe_strbuf_putc(sb, ']');
}

static void explain_stats(sqe_strbuf *sb, sqe_exec_ctx *ctx, const sqe_plan *p) {
    sqe_exec_stats *st = NULL;
    for (size_t i = 0; ctx && i < ctx->stats.len && !st; i++)
        if (ctx->stats.items[i]->plan == p) st = ctx->stats.items[i];
    if (!ctx) return;
    if (!st) {
        sqe_strbuf_puts(sb, " (never run)");
        return;
    }
    sqe_strbuf_printf(
        sb, " (rows=%llu, batches=%llu, time=%.3f ms, copies=%llu",
        (unsigned long long)atomic_load(&st->rows), (unsigned long long)atomic_load(&st->batches),
        (double)atomic_load(&st->ns) / 1e6, (unsigned long long)atomic_load(&st->copies));
    if (p->kind == SQE_PLAN_SCAN)
        sqe_strbuf_printf(sb, ", partitions=%llu, files=%llu, bytes=%llu",
                          (unsigned long long)atomic_load(&st->partitions),
                          (unsigned long long)atomic_load(&st->files),
                          (unsigned long long)atomic_load(&st->bytes));
    int src = p->kind == SQE_PLAN_SCAN ? atomic_load(&st->part_source) : 0;
    if (src)
        sqe_strbuf_printf(sb,
                          ", partition_source=%s, partitions_considered=%llu, "
                          "partitions_pruned=%llu",
                          src == 2   ? "index"
                          : src == 3 ? "projection"
                                     : "listing",
                          (unsigned long long)atomic_load(&st->parts_considered),
                          (unsigned long long)atomic_load(&st->parts_pruned));
    if (p->kind == SQE_PLAN_SCAN && atomic_load(&st->row_groups) > 0)
        sqe_strbuf_printf(sb, ", row_groups=%llu, row_groups_pruned=%llu",
                          (unsigned long long)atomic_load(&st->row_groups),
                          (unsigned long long)atomic_load(&st->row_groups_pruned));
    if (p->kind == SQE_PLAN_SCAN && atomic_load(&st->has_dyn))
        sqe_strbuf_printf(sb, ", dynamic_filter: row_groups_pruned=%llu, rows_pruned=%llu",
                          (unsigned long long)atomic_load(&st->dyn_row_groups),
                          (unsigned long long)atomic_load(&st->dyn_rows));
    sqe_strbuf_putc(sb, ')');
}

static void explain_node(const sqe_plan *p, int depth, sqe_strbuf *sb, sqe_arena *a,
                         sqe_exec_ctx *ctx) {
    for (int i = 0; i < depth; i++) sqe_strbuf_puts(sb, "  ");
    switch (p->kind) {
    case SQE_PLAN_SCAN: {
        const sqe_hive_table *t = p->u.scan.table;
        sqe_strbuf_printf(sb, "%s: table=%s, format=%s, columns=[",
                          p->u.scan.lazy ? "LazyPartitionScanExec" : "HiveScanExec",
                          p->u.scan.table_name ? p->u.scan.table_name
                                               : (t && t->name ? t->name : "?"),
                          t ? sqe_format_name(t->format) : "?");
        for (int i = 0; i < p->u.scan.n_cols; i++) {
            if (i) sqe_strbuf_puts(sb, ", ");
            const char *name = p->out_names && i < p->n_out ? p->out_names[i] : NULL;
            int c = p->u.scan.cols[i];
            if (!name && t)
                name = c < t->n_cols ? t->cols[c].name : t->part_keys[c - t->n_cols].name;
            sqe_strbuf_puts(sb, name ? name : "?");
        }
        sqe_strbuf_putc(sb, ']');
        if (p->u.scan.partition_filter)
            sqe_strbuf_printf(sb, ", partition_filter=%s",
                              sqe_expr_to_string(a, p->u.scan.partition_filter));
        if (p->u.scan.filter)
            sqe_strbuf_printf(sb, ", filter=%s", sqe_expr_to_string(a, p->u.scan.filter));
        if (p->u.scan.prune && t) {
            sqe_strbuf_puts(sb, ", prune=[");
            put_ppred(sb, p->u.scan.prune->pred, t, a, true);
            sqe_strbuf_putc(sb, ']');
        }
        if (t && sqe_hive_table_projected(t)) sqe_strbuf_puts(sb, ", partitions=projection");
        break;
    }
    case SQE_PLAN_VALUES:
        sqe_strbuf_printf(sb, "ValuesExec: rows=%d", p->u.values.n_rows);
        break;
    case SQE_PLAN_FILTER:
        sqe_strbuf_printf(sb, "FilterExec: %s", sqe_expr_to_string(a, p->u.filter.pred));
        break;
    case SQE_PLAN_PROJECT:
        sqe_strbuf_puts(sb, "ProjectExec: [");
        for (int i = 0; i < p->n_out; i++) {
            if (i) sqe_strbuf_puts(sb, ", ");
            sqe_strbuf_puts(sb, sqe_expr_to_string(a, p->u.project.exprs[i]));
        }
        sqe_strbuf_putc(sb, ']');
        break;
    case SQE_PLAN_AGGREGATE:
        sqe_strbuf_puts(sb, "HashAggregateExec: groups=[");
        for (int i = 0; i < p->u.aggregate.n_groups; i++) {
            if (i) sqe_strbuf_puts(sb, ", ");
            sqe_strbuf_puts(sb, sqe_expr_to_string(a, p->u.aggregate.groups[i]));
        }
        sqe_strbuf_puts(sb, "], aggs=[");
        for (int i = 0; i < p->u.aggregate.n_aggs; i++) {
            if (i) sqe_strbuf_puts(sb, ", ");
            const sqe_expr *arg = p->u.aggregate.agg_args ? p->u.aggregate.agg_args[i] : NULL;
            sqe_strbuf_puts(sb, sqe_exec_agg_to_string(a, &p->u.aggregate.aggs[i], arg));
        }
        sqe_strbuf_putc(sb, ']');
        break;
    case SQE_PLAN_SORT:
        sqe_strbuf_puts(sb, "SortExec: ");
        put_sort_keys(sb, p);
        break;
    case SQE_PLAN_TOPN:
        sqe_strbuf_printf(sb, "TopNExec: limit=%llu offset=%llu ",
                          (unsigned long long)p->u.sort.limit,
                          (unsigned long long)p->u.sort.offset);
        put_sort_keys(sb, p);
        break;
    case SQE_PLAN_LIMIT:
        if (p->u.limit.has_limit)
            sqe_strbuf_printf(sb, "LimitExec: limit=%llu offset=%llu",
                              (unsigned long long)p->u.limit.limit,
                              (unsigned long long)p->u.limit.offset);
        else
            sqe_strbuf_printf(sb, "LimitExec: limit=ALL offset=%llu",
                              (unsigned long long)p->u.limit.offset);
        break;
    case SQE_PLAN_HASH_JOIN:
    case SQE_PLAN_NL_JOIN:
        explain_join(sb, p, a);
        break;
    case SQE_PLAN_UNION_ALL:
        sqe_strbuf_printf(sb, "UnionAllExec: inputs=%d", p->n_children);
        break;
    case SQE_PLAN_SET_OP:
        sqe_strbuf_printf(sb, "SetOpExec: %s%s",
                          p->u.set_op.op == SQE_SET_INTERSECT ? "INTERSECT" : "EXCEPT",
                          p->u.set_op.all ? " ALL" : "");
        break;
    case SQE_PLAN_WINDOW:
        explain_window(sb, p, a);
        break;
    case SQE_PLAN_GROUP_ID:
        sqe_strbuf_printf(sb, "GroupIdExec: keys=%d, sets=%d", p->u.group_id.n_keys,
                          p->u.group_id.n_sets);
        break;
    case SQE_PLAN_SINGLE_ROW:
        sqe_strbuf_puts(sb, "SingleRowExec");
        break;
    default:
        sqe_strbuf_printf(sb, "UnknownExec: kind=%d", (int)p->kind);
        break;
    }
    explain_stats(sb, ctx, p);
    sqe_strbuf_putc(sb, '\n');
    for (int i = 0; i < p->n_children; i++) explain_node(p->children[i], depth + 1, sb, a, ctx);
}

void sqe_exec_explain(const sqe_plan *plan, sqe_strbuf *out) {
    sqe_arena *a = sqe_arena_new(0);
    explain_node(plan, 0, out, a, NULL);
    sqe_arena_free(a);
}

bool sqe_exec_explain_analyze(const sqe_plan *plan, const sqe_exec_options *opts, sqe_strbuf *out,
                              sqe_error *err) {
    sqe_exec_options o = opts ? *opts : (sqe_exec_options){0};
    o.analyze = true;
    sqe_exec_ctx ctx;
    sqe_exec_ctx_init(&ctx, &o);
    uint64_t t0 = sqe_clock_ns();
    sqe_op *root = sqe_op_build(&ctx, plan, NULL, err);
    bool ok = root && sqe_op_open(root, err);
    uint64_t rows = 0;
    while (ok) {
        sqe_batch *b = NULL;
        bool eof = false;
        if (!(ok = sqe_op_next(root, &b, &eof, err)) || eof) break;
        rows += sqe_batch_live(b);
    }
    sqe_op_free(root);
    if (ok) {
        sqe_arena *a = sqe_arena_new(0);
        explain_node(plan, 0, out, a, &ctx);
        sqe_arena_free(a);
        sqe_strbuf_printf(
            out, "Query: rows=%llu, time=%.3f ms, threads=%d, peak tracked memory=%zu bytes",
            (unsigned long long)rows, (double)(sqe_clock_ns() - t0) / 1e6, ctx.n_threads,
            (size_t)atomic_load(&ctx.mem_peak));
        uint64_t sf = atomic_load(&ctx.spill_files);
        if (sf) /* only when something spilled, so plans that fit read as before */
            sqe_strbuf_printf(out, ", spilled %llu files, %llu bytes", (unsigned long long)sf,
                              (unsigned long long)atomic_load(&ctx.spill_bytes));
        sqe_strbuf_putc(out, '\n');
    }
    sqe_exec_ctx_destroy(&ctx);
    return ok;
}
