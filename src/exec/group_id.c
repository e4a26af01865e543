/*
 * group_id.c - GroupIdExec: the expansion step of GROUPING SETS, ROLLUP and
 * CUBE. Every input row comes out once per grouping set, with the keys
 * outside that set replaced by NULL and a group id that tells the sets
 * apart; the hash aggregate above then groups by (keys..., group id).
 *
 * Output schema (plan.h, u.group_id): children[0]'s columns pass_cols, then
 * the n_keys key columns key_cols (NULL where the set lacks the key), then
 * a BIGINT group id whose bit (n_keys - 1 - k) is set when key k is NOT in
 * the set, Trino's grouping() bit order, so grouping(a, b, ...) is a
 * projection of it. The id is a 64-bit integer: keys k with
 * n_keys - 1 - k >= 63 get no bit (Trino itself limits grouping() to 63
 * arguments' worth of bits).
 *
 * Where it sits: a streaming operator, part of a scan pipeline
 * (sqe_exec_pipeline_scan walks through it), so each pipeline copy of a
 * parallel drain has its own GroupIdExec.
 *
 * Per input batch, one output batch per set (a cursor `next_set` over the
 * sets of the batch being expanded), and no row is copied: the output batch
 * owns no vectors. Pass and present key columns are the child's vectors;
 * an absent key is an all-NULL vector of the key's type made once at open;
 * the group id is a BIGINT vector holding the set's id in all
 * SQE_BATCH_ROWS rows, made once per set at open. Row count and selection
 * are the child batch's (out->sel points at the child's selection, as in
 * ProjectExec), so an empty grouping set `()` is simply a set with no key
 * present. Everything handed out stays valid until the child's next batch,
 * which is pulled only after the last set of the current one went out.
 */
#include "exec/exec_int.h"

typedef struct group_id_op {
    sqe_op base;
    int n_pass, n_keys, n_sets;
    uint8_t *in_set;    /* n_sets * n_keys: in_set[s * n_keys + k] = key k is in set s */
    sqe_vector **nulls; /* per key: all rows NULL, the key's output type */
    sqe_vector **gids;  /* per set: all rows = the set's group id */
    sqe_batch *out;     /* owns no vectors */
    sqe_batch *in;      /* the child batch being expanded, NULL: pull the next one */
    int next_set;
} group_id_op;

/* The set's group id: bit (n_keys - 1 - k) for every key k not in it. */
static int64_t group_id_of(const group_id_op *g, int s) {
    uint64_t id = 0;
    for (int k = 0; k < g->n_keys; k++) {
        int bit = g->n_keys - 1 - k;
        if (!g->in_set[(size_t)s * (size_t)g->n_keys + (size_t)k] && bit < 63)
            id |= (uint64_t)1 << bit;
    }
    return (int64_t)id;
}

static bool group_id_check(const sqe_plan *p, sqe_error *err) {
    const int n_pass = p->u.group_id.n_pass, n_keys = p->u.group_id.n_keys;
    if (n_pass < 0 || n_keys < 0 || p->u.group_id.n_sets < 0 || p->n_out != n_pass + n_keys + 1)
        return sqe_error_set(err, SQE_ERR_INTERNAL, "GroupIdExec: %d outputs for %d + %d + 1",
                             p->n_out, n_pass, n_keys);
    const sqe_plan *in = p->children[0];
    for (int i = 0; i < n_pass; i++)
        if (p->u.group_id.pass_cols[i] < 0 || p->u.group_id.pass_cols[i] >= in->n_out)
            return sqe_error_set(err, SQE_ERR_INTERNAL, "GroupIdExec: bad pass column");
    for (int k = 0; k < n_keys; k++)
        if (p->u.group_id.key_cols[k] < 0 || p->u.group_id.key_cols[k] >= in->n_out)
            return sqe_error_set(err, SQE_ERR_INTERNAL, "GroupIdExec: bad key column");
    for (int s = 0; s < p->u.group_id.n_sets; s++)
        for (int j = 0; j < p->u.group_id.set_len[s]; j++)
            if (p->u.group_id.sets[s][j] < 0 || p->u.group_id.sets[s][j] >= n_keys)
                return sqe_error_set(err, SQE_ERR_INTERNAL, "GroupIdExec: bad set member");
    return true;
}

static bool group_id_open(sqe_op *op, sqe_error *err) {
    group_id_op *g = (group_id_op *)op;
    const sqe_plan *p = op->plan;
    if (!group_id_check(p, err)) return false;
    g->n_pass = p->u.group_id.n_pass;
    g->n_keys = p->u.group_id.n_keys;
    g->n_sets = p->u.group_id.n_sets;
    g->in_set = sqe_calloc((size_t)g->n_sets * (size_t)g->n_keys + 1, 1);
    for (int s = 0; s < g->n_sets; s++)
        for (int j = 0; j < p->u.group_id.set_len[s]; j++)
            g->in_set[(size_t)s * (size_t)g->n_keys + (size_t)p->u.group_id.sets[s][j]] = 1;
    g->nulls = sqe_calloc((size_t)g->n_keys + 1, sizeof *g->nulls);
    for (int k = 0; k < g->n_keys; k++) {
        g->nulls[k] = sqe_vector_new(p->out_types[g->n_pass + k]);
        for (uint32_t r = 0; r < SQE_BATCH_ROWS; r++) sqe_vector_set_null(g->nulls[k], r);
    }
    g->gids = sqe_calloc((size_t)g->n_sets + 1, sizeof *g->gids);
    for (int s = 0; s < g->n_sets; s++) {
        g->gids[s] = sqe_vector_new(sqe_type_make(SQE_T_BIGINT));
        /* A repeated set gets its repeat count above bit 32, so duplicate
         * sets stay apart (GROUP BY a, ROLLUP (a) has two identical sets,
         * and Trino returns a row for each); grouping() reads only the
         * low bits. */
        int64_t id = group_id_of(g, s);
        int64_t dup = 0;
        for (int e = 0; e < s; e++)
            dup += memcmp(g->in_set + (size_t)e * (size_t)g->n_keys,
                          g->in_set + (size_t)s * (size_t)g->n_keys, (size_t)g->n_keys) == 0;
        if (g->n_keys <= 31) id |= dup << 32;
        for (uint32_t r = 0; r < SQE_BATCH_ROWS; r++) SQE_VEC_DATA(g->gids[s], int64_t)[r] = id;
    }
    g->out = sqe_batch_new_empty(p->n_out);
    g->in = NULL;
    g->next_set = 0;
    return sqe_op_open(sqe_op_child(op), err);
}

/* Points the output batch at set s of the current input batch. */
static void group_id_fill(group_id_op *g, int s) {
    const sqe_plan *p = g->base.plan;
    sqe_batch *in = g->in, *out = g->out;
    for (int i = 0; i < g->n_pass; i++) out->cols[i] = in->cols[p->u.group_id.pass_cols[i]];
    for (int k = 0; k < g->n_keys; k++)
        out->cols[g->n_pass + k] = g->in_set[(size_t)s * (size_t)g->n_keys + (size_t)k]
                                       ? in->cols[p->u.group_id.key_cols[k]]
                                       : g->nulls[k];
    out->cols[g->n_pass + g->n_keys] = g->gids[s];
    out->n_rows = in->n_rows;
    out->sel = in->sel;
    out->n_sel = in->n_sel;
}

static bool group_id_next(sqe_op *op, sqe_batch **out, bool *eof, sqe_error *err) {
    group_id_op *g = (group_id_op *)op;
    if (g->n_sets == 0) { /* no set: no output (the planner never builds this) */
        *eof = true;
        return true;
    }
    if (!g->in || g->next_set >= g->n_sets) {
        g->in = NULL;
        sqe_batch *b = NULL;
        if (!sqe_op_next(sqe_op_child(op), &b, eof, err)) return false;
        if (*eof) return true;
        g->in = b;
        g->next_set = 0;
    }
    group_id_fill(g, g->next_set++);
    *eof = false;
    *out = g->out;
    return true;
}

static void group_id_close(sqe_op *op) {
    group_id_op *g = (group_id_op *)op;
    if (g->nulls)
        for (int k = 0; k < g->n_keys; k++) sqe_vector_free(g->nulls[k]);
    if (g->gids)
        for (int s = 0; s < g->n_sets; s++) sqe_vector_free(g->gids[s]);
    sqe_free(g->nulls);
    g->nulls = NULL;
    sqe_free(g->gids);
    g->gids = NULL;
    sqe_free(g->in_set);
    g->in_set = NULL;
    sqe_batch_free(g->out); /* owns no vectors */
    g->out = NULL;
    g->in = NULL;
}

static const sqe_op_vtable group_id_vtable = {"GroupIdExec", group_id_open, group_id_next,
                                              group_id_close};

sqe_op *sqe_exec_group_id_new(sqe_exec_ctx *ctx, const sqe_plan *p) {
    group_id_op *g = sqe_calloc(1, sizeof *g);
    g->base.vt = &group_id_vtable;
    g->base.plan = p;
    g->base.ctx = ctx;
    return &g->base;
}
