/*
 * parse_group.c - GROUP BY, with GROUPING SETS, ROLLUP, CUBE and ().
 *
 *   group_by := [ALL|DISTINCT] element, ...
 *   element  := GROUPING SETS ( set, ... ) | ROLLUP ( [set, ...] ) | CUBE ( [set, ...] )
 *             | set
 *   set      := ( [e, ...] ) | e
 *
 * Semantics (Trino's). Each element stands for a list of grouping sets: a
 * plain set for itself, GROUPING SETS for its sets, ROLLUP (s1, ..., sn)
 * for the n+1 prefixes s1..sn, ..., s1, (), CUBE (s1, ..., sn) for all 2^n
 * combinations (from all of them down to none). The query's grouping sets
 * are the cross product of its elements' lists, each combination the union
 * of its parts: GROUP BY a, ROLLUP (b, c) makes {a,b,c}, {a,b}, {a}. Without
 * DISTINCT, duplicate sets stay (they duplicate rows, as in Trino); GROUP BY
 * DISTINCT drops sets equal (as sets) to an earlier one. GROUP BY ALL is
 * the default quantifier when elements follow; bare "GROUP BY ALL" (DuckDB's
 * "every non-aggregate select item") is not supported.
 *
 * Result, as sql.h documents: q->group_by holds each distinct grouping
 * expression once, in order of first appearance, deduplicated on
 * sqe_sql_expr_canonical text; when any element is GROUPING SETS, ROLLUP,
 * CUBE or (), q->grouping_sets[i] lists indexes into q->group_by
 * (q->grouping_set_len[i] of them, 0 for the empty set), else
 * n_grouping_sets is 0 and every group_by expression is a key.
 *
 * "(a, b)" is a set only when its ')' ends the element: GROUP BY (a) + 1 is
 * an expression (sqe_p_paren_is_element). Elements are parsed first and
 * expanded by sqe_p_finish_group_by after the SELECT body's named windows
 * are resolved, since rendering needs every OVER filled in.
 *
 * Limits: at most SQE_SQL_MAX_GROUPING_SETS sets (checked before expanding,
 * so CUBE over many columns cannot blow up) and at most
 * SQE_SQL_MAX_CUBE_ELEMENTS elements in one CUBE.
 */
#include "sql_int.h"

#include <string.h>

typedef enum elem_kind { ELEM_SET, ELEM_GROUPING_SETS, ELEM_ROLLUP, ELEM_CUBE } elem_kind;

typedef struct expr_set {
    int n;
    sqe_ast_expr **xs;
    int *idx; /* xs[i]'s index in q->group_by (filled by finish) */
} expr_set;

typedef struct group_elem {
    elem_kind kind;
    int n_sets;
    expr_set *sets;
} group_elem;

struct sqe_p_group_by {
    bool distinct;
    bool any_sets; /* an element other than a non-empty plain set */
    sqe_pos pos;
    int n_elems;
    group_elem *elems;
};

/* Total grouping-key entries over all sets, so a long key list times many
 * sets cannot exhaust memory. */
#define MAX_SET_ENTRIES (1 << 20)

static bool at_subquery(sqe_parser *p) {
    return sqe_p_is(p, 1, "select") || sqe_p_is(p, 1, "with") || sqe_p_starts_values(p, 1);
}

/* ( [e, ...] ) when the parentheses make the whole set, else one e. */
static bool parse_set(sqe_parser *p, expr_set *out) {
    SQE_ARRAY(sqe_ast_expr *) xs = {0};
    if (sqe_p_paren_is_element(p, 0) && !at_subquery(p)) {
        sqe_p_next(p);
        if (!sqe_p_accept_tok(p, SQE_TK_RPAREN)) {
            do {
                sqe_ast_expr *e = sqe_p_parse_expr(p);
                if (!e) return false;
                SQE_ARRAY_PUSH(p->arena, xs, e);
            } while (sqe_p_accept_tok(p, SQE_TK_COMMA));
            if (!sqe_p_expect_tok(p, SQE_TK_RPAREN, "',' or ')'")) return false;
        }
    } else {
        sqe_ast_expr *e = sqe_p_parse_expr(p);
        if (!e) return false;
        SQE_ARRAY_PUSH(p->arena, xs, e);
    }
    out->n = (int)xs.len;
    out->xs = xs.items;
    return true;
}

static bool at_grouping_sets(sqe_parser *p) {
    return sqe_p_is(p, 0, "grouping") && sqe_p_is(p, 1, "sets") &&
           sqe_p_peek(p, 2)->kind == SQE_TK_LPAREN;
}

static bool at_rollup_or_cube(sqe_parser *p) {
    return (sqe_p_is(p, 0, "rollup") || sqe_p_is(p, 0, "cube")) && sqe_p_paren_is_element(p, 1);
}

/* GROUPING SETS ( ... ), ROLLUP ( ... ), CUBE ( ... ); the first word is next. */
static bool parse_construct(sqe_parser *p, group_elem *el) {
    sqe_token *t = sqe_p_next(p);
    const char *name = el->kind == ELEM_GROUPING_SETS ? "GROUPING SETS"
                       : el->kind == ELEM_ROLLUP      ? "ROLLUP"
                                                      : "CUBE";
    if (el->kind == ELEM_GROUPING_SETS) sqe_p_next(p); /* SETS */
    sqe_p_next(p);                                     /* ( */
    SQE_ARRAY(expr_set) sets = {0};
    /* ROLLUP () and CUBE () are allowed (one empty set); GROUPING SETS () is not */
    if (el->kind == ELEM_GROUPING_SETS || !sqe_p_accept_tok(p, SQE_TK_RPAREN)) {
        do {
            if (at_grouping_sets(p) || at_rollup_or_cube(p))
                return sqe_p_error_at(p, sqe_p_peek(p, 0)->pos, "%s cannot be nested inside %s",
                                      at_grouping_sets(p)        ? "GROUPING SETS"
                                      : sqe_p_is(p, 0, "rollup") ? "ROLLUP"
                                                                 : "CUBE",
                                      name);
            expr_set s = {0};
            if (!parse_set(p, &s)) return false;
            SQE_ARRAY_PUSH(p->arena, sets, s);
        } while (sqe_p_accept_tok(p, SQE_TK_COMMA));
        if (!sqe_p_expect_tok(p, SQE_TK_RPAREN, "',' or ')'")) return false;
    }
    if (el->kind == ELEM_CUBE && sets.len > SQE_SQL_MAX_CUBE_ELEMENTS)
        return sqe_p_error_at(p, t->pos,
                              "CUBE of %zu elements would make 2^%zu grouping sets; at most %d "
                              "elements are allowed",
                              sets.len, sets.len, SQE_SQL_MAX_CUBE_ELEMENTS);
    el->n_sets = (int)sets.len;
    el->sets = sets.items;
    return true;
}

sqe_p_group_by *sqe_p_parse_group_by(sqe_parser *p) {
    sqe_p_group_by *g = sqe_arena_alloc(p->arena, sizeof *g);
    g->pos = sqe_p_peek(p, 0)->pos;
    if (sqe_p_is(p, 0, "all")) {
        if (sqe_p_ends_element(p, 1))
            return sqe_p_not_supported(p, "GROUP BY ALL (grouping by every select item that is "
                                          "not an aggregate) is not supported; list the grouping "
                                          "expressions"),
                   NULL;
        sqe_p_next(p);
    } else if (sqe_p_accept(p, "distinct")) {
        g->distinct = true;
    }
    SQE_ARRAY(group_elem) elems = {0};
    do {
        group_elem el = {0};
        if (at_grouping_sets(p) || at_rollup_or_cube(p)) {
            el.kind = at_grouping_sets(p)        ? ELEM_GROUPING_SETS
                      : sqe_p_is(p, 0, "rollup") ? ELEM_ROLLUP
                                                 : ELEM_CUBE;
            if (!parse_construct(p, &el)) return NULL;
            g->any_sets = true;
        } else {
            el.kind = ELEM_SET;
            el.n_sets = 1;
            el.sets = sqe_arena_alloc(p->arena, sizeof *el.sets);
            if (!parse_set(p, &el.sets[0])) return NULL;
            if (el.sets[0].n == 0) g->any_sets = true; /* () */
        }
        SQE_ARRAY_PUSH(p->arena, elems, el);
    } while (sqe_p_accept_tok(p, SQE_TK_COMMA));
    g->n_elems = (int)elems.len;
    g->elems = elems.items;
    return g;
}

/* ------------------------------------------------------------- expand */

typedef SQE_ARRAY(int) int_list;
typedef SQE_ARRAY(int_list) set_list;

typedef struct expander {
    sqe_parser *p;
    int *stamp; /* per group_by index: the set it was last added to (dedup in a union) */
    int n_stamp;
    size_t n_entries;
} expander;

/* out = a ∪ the sets parts[0..n) (indexes deduplicated, first order kept). */
static bool union_into(expander *x, int_list *out, const int_list *a, const expr_set *const *parts,
                       int n) {
    int mark = ++x->n_stamp;
    int_list r = {0};
    for (size_t i = 0; a && i < a->len; i++) {
        x->stamp[a->items[i]] = mark;
        SQE_ARRAY_PUSH(x->p->arena, r, a->items[i]);
    }
    for (int k = 0; k < n; k++)
        for (int i = 0; i < parts[k]->n; i++) {
            int v = parts[k]->idx[i];
            if (x->stamp[v] == mark) continue;
            x->stamp[v] = mark;
            SQE_ARRAY_PUSH(x->p->arena, r, v);
        }
    x->n_entries += r.len;
    *out = r;
    return x->n_entries <= MAX_SET_ENTRIES;
}

/* The grouping sets element el stands for, each combined with every set of
 * `in`. */
static bool cross(expander *x, const group_elem *el, const set_list *in, set_list *out) {
    const expr_set **parts = sqe_arena_alloc(x->p->arena, sizeof *parts * (size_t)(el->n_sets + 1));
    for (size_t r = 0; r < in->len; r++) {
        const int_list *a = &in->items[r];
        int n_alts = el->kind == ELEM_SET             ? 1
                     : el->kind == ELEM_GROUPING_SETS ? el->n_sets
                     : el->kind == ELEM_ROLLUP        ? el->n_sets + 1
                                                      : 1 << el->n_sets;
        for (int alt = 0; alt < n_alts; alt++) {
            int n = 0;
            if (el->kind == ELEM_SET) {
                parts[n++] = &el->sets[0];
            } else if (el->kind == ELEM_GROUPING_SETS) {
                parts[n++] = &el->sets[alt];
            } else if (el->kind == ELEM_ROLLUP) { /* the first n_sets - alt sets */
                for (int k = 0; k < el->n_sets - alt; k++) parts[n++] = &el->sets[k];
            } else { /* CUBE: mask counts down from all sets; sets[0] is the top bit */
                int mask = (1 << el->n_sets) - 1 - alt;
                for (int k = 0; k < el->n_sets; k++)
                    if (mask & (1 << (el->n_sets - 1 - k))) parts[n++] = &el->sets[k];
            }
            int_list s;
            if (!union_into(x, &s, a, parts, n)) return false;
            SQE_ARRAY_PUSH(x->p->arena, *out, s);
        }
    }
    return true;
}

/* Drops sets equal, as sets, to an earlier one (GROUP BY DISTINCT). */
static void drop_duplicate_sets(sqe_parser *p, set_list *sets, int n_keys) {
    sqe_strmap *seen = sqe_strmap_new();
    bool *in = sqe_arena_alloc(p->arena, (size_t)n_keys + 1);
    sqe_strbuf key;
    sqe_strbuf_init(&key);
    size_t kept = 0;
    for (size_t i = 0; i < sets->len; i++) {
        const int_list *s = &sets->items[i];
        memset(in, 0, (size_t)n_keys + 1);
        for (size_t j = 0; j < s->len; j++) in[s->items[j]] = true;
        sqe_strbuf_clear(&key);
        sqe_strbuf_putc(&key, '{');
        for (int v = 0; v < n_keys; v++)
            if (in[v]) sqe_strbuf_printf(&key, "%d,", v);
        if (!sqe_strmap_put(seen, key.data, sets)) sets->items[kept++] = *s;
    }
    sets->len = kept;
    sqe_strbuf_free(&key);
    sqe_strmap_free(seen);
}

bool sqe_p_finish_group_by(sqe_parser *p, const sqe_p_group_by *g, sqe_ast_query *q) {
    /* distinct expressions, by canonical text */
    SQE_ARRAY(sqe_ast_expr *) keys = {0};
    sqe_strmap *index = sqe_strmap_new();
    for (int e = 0; e < g->n_elems; e++) {
        for (int s = 0; s < g->elems[e].n_sets; s++) {
            expr_set *set = &g->elems[e].sets[s];
            set->idx = sqe_arena_alloc(p->arena, sizeof(int) * (size_t)(set->n + 1));
            for (int i = 0; i < set->n; i++) {
                const char *text = sqe_sql_expr_canonical(p->arena, set->xs[i]);
                void *v = sqe_strmap_get(index, text);
                if (!v) {
                    SQE_ARRAY_PUSH(p->arena, keys, set->xs[i]);
                    v = (void *)(intptr_t)keys.len; /* index + 1 */
                    sqe_strmap_put(index, text, v);
                }
                set->idx[i] = (int)((intptr_t)v - 1);
            }
        }
    }
    sqe_strmap_free(index);
    q->n_group_by = (int)keys.len;
    q->group_by = keys.items;
    if (!g->any_sets) return true;

    /* count first, so nothing large is built before the limit is checked */
    long long n_sets = 1;
    for (int e = 0; e < g->n_elems; e++) {
        const group_elem *el = &g->elems[e];
        long long n = el->kind == ELEM_SET             ? 1
                      : el->kind == ELEM_GROUPING_SETS ? el->n_sets
                      : el->kind == ELEM_ROLLUP        ? el->n_sets + 1
                                                       : 1LL << el->n_sets;
        n_sets *= n;
        if (n_sets > SQE_SQL_MAX_GROUPING_SETS)
            return sqe_p_error_at(p, g->pos, "GROUP BY makes more than %d grouping sets",
                                  SQE_SQL_MAX_GROUPING_SETS);
    }
    expander x = {p, sqe_arena_alloc(p->arena, sizeof(int) * (size_t)(keys.len + 1)), 0, 0};
    set_list cur = {0};
    int_list empty = {0};
    SQE_ARRAY_PUSH(p->arena, cur, empty);
    for (int e = 0; e < g->n_elems; e++) {
        set_list next = {0};
        if (!cross(&x, &g->elems[e], &cur, &next))
            return sqe_p_error_at(p, g->pos,
                                  "GROUP BY grouping sets are too large (more than %d grouping "
                                  "keys over all sets)",
                                  MAX_SET_ENTRIES);
        cur = next;
    }
    if (g->distinct) drop_duplicate_sets(p, &cur, (int)keys.len);
    q->n_grouping_sets = (int)cur.len;
    q->grouping_set_len = sqe_arena_alloc(p->arena, sizeof(int) * cur.len);
    q->grouping_sets = sqe_arena_alloc(p->arena, sizeof(int *) * cur.len);
    for (size_t i = 0; i < cur.len; i++) {
        q->grouping_set_len[i] = (int)cur.items[i].len;
        q->grouping_sets[i] = cur.items[i].items;
    }
    return true;
}
