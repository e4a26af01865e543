/*
 * parse_window.c - window specifications, OVER, and named windows.
 *
 *   over        := OVER name | OVER '(' spec ')'
 *   spec        := [name] [PARTITION BY e, ...] [ORDER BY order_item, ...] [frame]
 *   frame       := (ROWS|RANGE|GROUPS) (bound | BETWEEN bound AND bound)
 *   bound       := UNBOUNDED PRECEDING | UNBOUNDED FOLLOWING | CURRENT ROW
 *                | e PRECEDING | e FOLLOWING
 *   window      := WINDOW name AS '(' spec ')', ...      (after HAVING)
 *
 * The binder never sees a window name: every call gets a resolved
 * sqe_ast_window of its own. `OVER w` copies w's spec; `OVER (w ORDER BY x)`
 * takes w's PARTITION BY and ORDER BY and adds its own ORDER BY and frame,
 * with Trino's rules: the referencing spec may not repeat PARTITION BY, may
 * not add ORDER BY to a window that has one, and may not reference a window
 * with a frame. A WINDOW definition may build on one defined before it.
 * "ROWS x" alone is "ROWS BETWEEN x AND CURRENT ROW"; impossible frames
 * (starting at UNBOUNDED FOLLOWING, ending at UNBOUNDED PRECEDING, ending
 * before they start) are syntax errors, as Trino reports them.
 *
 * Resolution order. A SELECT body opens a window scope before its select
 * list (sqe_p_window_scope_open). OVER w met before the WINDOW clause (in
 * the select list, HAVING, ...) waits in the scope; when the body ends,
 * sqe_p_window_scope_close resolves what waits against all definitions.
 * Inside the WINDOW clause, references resolve at once against the
 * definitions before the one being parsed (so no spec can end up inside
 * itself), and after the body (the query's ORDER BY) against all of them.
 * Nested SELECT bodies open their own scopes; VALUES rows and the ORDER BY
 * of a set operation have none, so OVER w there is an unknown window.
 */
#include "sql_int.h"

#include <string.h>

typedef struct named_window {
    sqe_ident name;
    const char *key; /* sqe_p_ident_key(name) */
    uint64_t hash;
    sqe_ast_window *spec;
} named_window;

/* A reference to a named window: OVER w (own == NULL) or OVER (w ...). */
typedef struct window_ref {
    sqe_ast_expr *call; /* whose over to fill; NULL inside a WINDOW definition */
    sqe_ident name;
    sqe_ast_window *own; /* the clauses written next to the name */
    sqe_pos pos;         /* OVER, or the definition's '(' */
    sqe_pos partition_pos, order_pos;
} window_ref;

struct sqe_p_window_scope {
    const sqe_ast_query *query; /* the SELECT body */
    sqe_p_window_scope *outer;  /* restored on close */
    SQE_ARRAY(named_window) named;
    int *slots; /* hash table over named (index + 1, 0 empty), n_slots a power of two */
    size_t n_slots;
    SQE_ARRAY(window_ref) waiting;
    int n_visible; /* -1: references wait; else resolve at once against named[0..n_visible) */
};

/* The slot of key in s->slots: its entry, or the empty slot it would take. */
static size_t find_slot(const sqe_p_window_scope *s, const char *key, uint64_t h) {
    size_t mask = s->n_slots - 1, i = h & mask;
    while (s->slots[i]) {
        const named_window *nw = &s->named.items[s->slots[i] - 1];
        if (nw->hash == h && strcmp(nw->key, key) == 0) break;
        i = (i + 1) & mask;
    }
    return i;
}

/* Index in s->named of the window called key, or -1. */
static int lookup(const sqe_p_window_scope *s, const char *key) {
    if (!s || !s->n_slots) return -1;
    size_t i = find_slot(s, key, sqe_hash_bytes(key, strlen(key), 0));
    return s->slots[i] - 1;
}

/* Appends nw to s->named and its hash table (arena, so nothing to free). */
static void add_named(sqe_parser *p, sqe_p_window_scope *s, named_window nw) {
    SQE_ARRAY_PUSH(p->arena, s->named, nw);
    if (s->named.len * 2 > s->n_slots) {
        s->n_slots = s->n_slots ? s->n_slots * 2 : 16;
        s->slots = sqe_arena_alloc(p->arena, sizeof(int) * s->n_slots);
        for (size_t k = 0; k < s->named.len; k++) {
            const named_window *w = &s->named.items[k];
            s->slots[find_slot(s, w->key, w->hash)] = (int)k + 1;
        }
    } else {
        s->slots[find_slot(s, nw.key, nw.hash)] = (int)s->named.len;
    }
}

sqe_p_window_scope *sqe_p_window_scope_open(sqe_parser *p, const sqe_ast_query *q) {
    sqe_p_window_scope *s = sqe_arena_alloc(p->arena, sizeof *s);
    s->query = q;
    s->outer = p->win;
    s->n_visible = -1;
    p->win = s;
    return s;
}

/* The resolved window for ref against named[0..n_visible), or NULL with
 * the error set. */
static sqe_ast_window *resolve(sqe_parser *p, const sqe_p_window_scope *s, const window_ref *ref,
                               int n_visible) {
    int idx = lookup(s, sqe_p_ident_key(p, &ref->name));
    const sqe_ast_window *base = idx >= 0 && idx < n_visible ? s->named.items[idx].spec : NULL;
    if (!base)
        return sqe_p_error_at(p, ref->name.pos, "window '%s' is not defined", ref->name.name), NULL;
    sqe_ast_window *w = sqe_arena_alloc(p->arena, sizeof *w);
    if (!ref->own) {
        *w = *base;
        w->pos = ref->pos;
        return w;
    }
    const sqe_ast_window *own = ref->own;
    if (own->n_partition)
        return sqe_p_error_at(
                   p, ref->partition_pos,
                   "a window specification that references window '%s' cannot specify PARTITION BY",
                   ref->name.name),
               NULL;
    if (own->n_order && base->n_order)
        return sqe_p_error_at(p, ref->order_pos,
                              "cannot specify ORDER BY: the referenced window '%s' has its own "
                              "ORDER BY",
                              ref->name.name),
               NULL;
    if (base->unit != SQE_FRAME_DEFAULT)
        return sqe_p_error_at(p, ref->name.pos,
                              "cannot reference window '%s' in a window specification: it has a "
                              "frame (ROWS, RANGE or GROUPS)",
                              ref->name.name),
               NULL;
    *w = *own;
    w->pos = ref->pos;
    w->n_partition = base->n_partition;
    w->partition = base->partition;
    if (!own->n_order) {
        w->n_order = base->n_order;
        w->order = base->order;
    }
    return w;
}

/* Resolves ref now if the scope allows, else queues it. */
static bool add_ref(sqe_parser *p, const window_ref *ref) {
    sqe_p_window_scope *s = p->win;
    if (s && s->n_visible < 0) {
        SQE_ARRAY_PUSH(p->arena, s->waiting, *ref);
        return true;
    }
    sqe_ast_window *w = resolve(p, s, ref, s ? s->n_visible : 0);
    if (!w) return false;
    ref->call->u.func.over = w;
    return true;
}

bool sqe_p_window_scope_close(sqe_parser *p, sqe_p_window_scope *s, bool ok) {
    s->n_visible = (int)s->named.len;
    for (size_t i = 0; ok && i < s->waiting.len; i++) {
        const window_ref *ref = &s->waiting.items[i];
        sqe_ast_window *w = resolve(p, s, ref, s->n_visible);
        if (w)
            ref->call->u.func.over = w;
        else
            ok = false;
    }
    s->waiting.len = 0;
    p->win = s->outer;
    p->win_last = s;
    return ok;
}

sqe_p_window_scope *sqe_p_window_scope_of(sqe_parser *p, const sqe_ast_query *q) {
    return p->win_last && p->win_last->query == q ? p->win_last : NULL;
}

/* ------------------------------------------------------------- frames */

static bool parse_bound(sqe_parser *p, sqe_ast_frame_bound *b) {
    if (sqe_p_is(p, 0, "unbounded") &&
        (sqe_p_is(p, 1, "preceding") || sqe_p_is(p, 1, "following"))) {
        sqe_p_next(p);
        b->kind = sqe_p_is(p, 0, "preceding") ? SQE_BOUND_UNBOUNDED_PRECEDING
                                              : SQE_BOUND_UNBOUNDED_FOLLOWING;
        sqe_p_next(p);
        return true;
    }
    if (sqe_p_is(p, 0, "current") && sqe_p_is(p, 1, "row")) {
        sqe_p_next(p);
        sqe_p_next(p);
        b->kind = SQE_BOUND_CURRENT_ROW;
        return true;
    }
    if (!(b->offset = sqe_p_parse_expr(p))) return false;
    if (sqe_p_accept(p, "preceding"))
        b->kind = SQE_BOUND_PRECEDING;
    else if (sqe_p_accept(p, "following"))
        b->kind = SQE_BOUND_FOLLOWING;
    else
        return sqe_p_error_expected(p, "PRECEDING or FOLLOWING");
    return true;
}

/* (ROWS|RANGE|GROUPS) ...; the unit word is next. */
static bool parse_frame(sqe_parser *p, sqe_ast_window *w) {
    sqe_token *t = sqe_p_next(p);
    w->unit = sqe_p_tok_is(t, "rows")    ? SQE_FRAME_ROWS
              : sqe_p_tok_is(t, "range") ? SQE_FRAME_RANGE
                                         : SQE_FRAME_GROUPS;
    sqe_pos start_pos = sqe_p_peek(p, 0)->pos, end_pos = start_pos;
    if (sqe_p_accept(p, "between")) {
        start_pos = sqe_p_peek(p, 0)->pos;
        if (!parse_bound(p, &w->start)) return false;
        if (!sqe_p_expect(p, "AND")) return false;
        end_pos = sqe_p_peek(p, 0)->pos;
        if (!parse_bound(p, &w->end)) return false;
    } else {
        if (!parse_bound(p, &w->start)) return false;
        w->end.kind = SQE_BOUND_CURRENT_ROW;
    }
    sqe_frame_bound_kind a = w->start.kind, b = w->end.kind;
    if (a == SQE_BOUND_UNBOUNDED_FOLLOWING)
        return sqe_p_error_at(p, start_pos, "window frame start cannot be UNBOUNDED FOLLOWING");
    if (b == SQE_BOUND_UNBOUNDED_PRECEDING)
        return sqe_p_error_at(p, end_pos, "window frame end cannot be UNBOUNDED PRECEDING");
    if (a == SQE_BOUND_CURRENT_ROW && b == SQE_BOUND_PRECEDING)
        return sqe_p_error_at(p, end_pos,
                              "window frame starting from CURRENT ROW cannot end with PRECEDING");
    if (a == SQE_BOUND_FOLLOWING && (b == SQE_BOUND_PRECEDING || b == SQE_BOUND_CURRENT_ROW))
        return sqe_p_error_at(p, end_pos, "window frame starting from FOLLOWING cannot end with %s",
                              b == SQE_BOUND_PRECEDING ? "PRECEDING" : "CURRENT ROW");
    return true;
}

/* -------------------------------------------------------------- specs */

static bool at_frame_unit(sqe_parser *p, int ahead) {
    return sqe_p_is(p, ahead, "rows") || sqe_p_is(p, ahead, "range") ||
           sqe_p_is(p, ahead, "groups");
}

/* The inside of '(' spec ')'; '(' has been read, ')' is consumed. A leading
 * name is a window reference when what follows it could follow one. */
static bool parse_spec(sqe_parser *p, window_ref *ref, bool *has_name) {
    sqe_ast_window *w = sqe_arena_alloc(p->arena, sizeof *w);
    w->pos = ref->pos;
    ref->own = w;
    *has_name = false;
    if (sqe_p_tok_is_ident(sqe_p_peek(p, 0)) &&
        (sqe_p_peek(p, 1)->kind == SQE_TK_RPAREN || sqe_p_is(p, 1, "partition") ||
         sqe_p_is(p, 1, "order") || at_frame_unit(p, 1))) {
        if (!sqe_p_parse_ident(p, &ref->name, "window name")) return false;
        *has_name = true;
    }
    const char *what = "PARTITION BY, ORDER BY, ROWS, RANGE, GROUPS or ')'";
    if (sqe_p_is(p, 0, "partition")) {
        ref->partition_pos = sqe_p_next(p)->pos;
        if (!sqe_p_expect(p, "BY")) return false;
        SQE_ARRAY(sqe_ast_expr *) xs = {0};
        do {
            sqe_ast_expr *e = sqe_p_parse_expr(p);
            if (!e) return false;
            SQE_ARRAY_PUSH(p->arena, xs, e);
        } while (sqe_p_accept_tok(p, SQE_TK_COMMA));
        w->n_partition = (int)xs.len;
        w->partition = xs.items;
        what = "',', ORDER BY, ROWS, RANGE, GROUPS or ')'";
    }
    if (sqe_p_is(p, 0, "order")) {
        ref->order_pos = sqe_p_next(p)->pos;
        if (!sqe_p_expect(p, "BY") || !sqe_p_parse_order_items(p, &w->n_order, &w->order))
            return false;
        what = "',', ROWS, RANGE, GROUPS or ')'";
    }
    if (at_frame_unit(p, 0)) {
        if (!parse_frame(p, w)) return false;
        what = "')'";
    }
    return sqe_p_expect_tok(p, SQE_TK_RPAREN, what);
}

bool sqe_p_parse_over(sqe_parser *p, sqe_ast_expr *call) {
    window_ref ref = {0};
    ref.call = call;
    ref.pos = sqe_p_next(p)->pos; /* OVER */
    if (sqe_p_peek(p, 0)->kind != SQE_TK_LPAREN) {
        if (!sqe_p_parse_ident(p, &ref.name, "window name or '('")) return false;
        return add_ref(p, &ref);
    }
    sqe_p_next(p);
    bool has_name;
    if (!parse_spec(p, &ref, &has_name)) return false;
    if (has_name) return add_ref(p, &ref);
    call->u.func.over = ref.own;
    return true;
}

bool sqe_p_parse_window_clause(sqe_parser *p) {
    sqe_p_window_scope *s = p->win;
    sqe_p_next(p); /* WINDOW */
    do {
        named_window nw = {0};
        if (!sqe_p_parse_ident(p, &nw.name, "window name")) return false;
        nw.key = sqe_p_ident_key(p, &nw.name);
        nw.hash = sqe_hash_bytes(nw.key, strlen(nw.key), 0);
        if (lookup(s, nw.key) >= 0)
            return sqe_p_error_at(p, nw.name.pos, "WINDOW name '%s' specified more than once",
                                  nw.name.name);
        if (!sqe_p_expect(p, "AS")) return false;
        window_ref ref = {0};
        ref.pos = sqe_p_peek(p, 0)->pos;
        if (!sqe_p_expect_tok(p, SQE_TK_LPAREN, "'('")) return false;
        /* calls inside this definition see only the ones before it */
        s->n_visible = (int)s->named.len;
        bool has_name;
        bool ok = parse_spec(p, &ref, &has_name);
        s->n_visible = -1;
        if (!ok) return false;
        nw.spec = has_name ? resolve(p, s, &ref, (int)s->named.len) : ref.own;
        if (!nw.spec) return false;
        add_named(p, s, nw);
    } while (sqe_p_accept_tok(p, SQE_TK_COMMA));
    return true;
}
