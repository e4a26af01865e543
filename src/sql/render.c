/*
 * render.c - expressions back to SQL text, and operator names.
 *
 * Used for the column names of unaliased select items ("sum(amount)",
 * "count(*)"), for EXPLAIN and for error messages. The output is readable
 * SQL in Trino's style, not a byte-exact copy of the input: unquoted
 * identifiers come out lower-case, quoted ones as written without quotes,
 * keywords upper-case, every binary operation in parentheses "(a + b)",
 * strings in single quotes with ' doubled. Calls carry their FILTER
 * (WHERE ...), IGNORE NULLS and OVER (...) (named windows are already
 * resolved, so the spec is written out; a frame always in BETWEEN form), so
 * the text parses back to the same expression. Subqueries are not rendered
 * (the AST keeps no text for them) and show as "(SELECT ...)".
 *
 * The canonical form (sqe_sql_expr_canonical, for GROUP BY deduplication)
 * differs in two ways so that different expressions never share a text:
 * names that are not plain lower-case words are double-quoted, and each
 * subquery is named by its address.
 */
#include "sql_int.h"

#include <ctype.h>
#include <string.h>

typedef struct renderer {
    sqe_strbuf sb;
    bool canonical;
} renderer;

const char *sqe_sql_binop_name(sqe_binop op) {
    switch (op) {
    case SQE_OP_ADD:
        return "+";
    case SQE_OP_SUB:
        return "-";
    case SQE_OP_MUL:
        return "*";
    case SQE_OP_DIV:
        return "/";
    case SQE_OP_MOD:
        return "%";
    case SQE_OP_EQ:
        return "=";
    case SQE_OP_NE:
        return "<>";
    case SQE_OP_LT:
        return "<";
    case SQE_OP_LE:
        return "<=";
    case SQE_OP_GT:
        return ">";
    case SQE_OP_GE:
        return ">=";
    case SQE_OP_AND:
        return "AND";
    case SQE_OP_OR:
        return "OR";
    case SQE_OP_CONCAT:
        return "||";
    }
    return "?";
}

/* Canonical form: the name as the binder sees it (unquoted folded to lower
 * case), bare when it is a plain lower-case word, else double-quoted. */
static void put_ident(renderer *r, const sqe_ident *id) {
    sqe_strbuf *sb = &r->sb;
    if (r->canonical) {
        bool plain = !isdigit((unsigned char)id->name[0]) && id->name[0];
        for (const char *c = id->name; *c && plain; c++) {
            char l = id->quoted ? *c : (char)tolower((unsigned char)*c);
            plain = (l >= 'a' && l <= 'z') || (l >= '0' && l <= '9') || l == '_';
        }
        if (!plain) {
            sqe_strbuf_putc(sb, '"');
            for (const char *c = id->name; *c; c++) {
                char l = id->quoted ? *c : (char)tolower((unsigned char)*c);
                if (l == '"') sqe_strbuf_putc(sb, '"');
                sqe_strbuf_putc(sb, l);
            }
            sqe_strbuf_putc(sb, '"');
            return;
        }
    }
    if (id->quoted) {
        sqe_strbuf_puts(sb, id->name);
        return;
    }
    for (const char *c = id->name; *c; c++) sqe_strbuf_putc(sb, (char)tolower((unsigned char)*c));
}

static void put_qname(renderer *r, const sqe_qname *q) {
    for (int i = 0; i < q->n_parts; i++) {
        if (i) sqe_strbuf_putc(&r->sb, '.');
        put_ident(r, &q->parts[i]);
    }
}

static void put_string(sqe_strbuf *sb, const char *s) {
    sqe_strbuf_putc(sb, '\'');
    for (; s && *s; s++) {
        if (*s == '\'') sqe_strbuf_putc(sb, '\'');
        sqe_strbuf_putc(sb, *s);
    }
    sqe_strbuf_putc(sb, '\'');
}

static void put_upper(sqe_strbuf *sb, const char *s) {
    for (; s && *s; s++) sqe_strbuf_putc(sb, (char)toupper((unsigned char)*s));
}

static void render(renderer *r, const sqe_ast_expr *e);

static void render_list(renderer *r, sqe_ast_expr *const *xs, int n) {
    for (int i = 0; i < n; i++) {
        if (i) sqe_strbuf_puts(&r->sb, ", ");
        render(r, xs[i]);
    }
}

static void render_literal(sqe_strbuf *sb, const sqe_ast_expr *e) {
    switch (e->u.lit.kind) {
    case SQE_LIT_NULL:
        sqe_strbuf_puts(sb, "NULL");
        break;
    case SQE_LIT_BOOL:
        sqe_strbuf_puts(sb, e->u.lit.b ? "true" : "false");
        break;
    case SQE_LIT_INTEGER:
    case SQE_LIT_DECIMAL:
    case SQE_LIT_DOUBLE:
        sqe_strbuf_puts(sb, e->u.lit.text ? e->u.lit.text : "");
        break;
    case SQE_LIT_STRING:
        put_string(sb, e->u.lit.text);
        break;
    case SQE_LIT_TYPED:
        put_upper(sb, e->u.lit.type_name);
        sqe_strbuf_putc(sb, ' ');
        put_string(sb, e->u.lit.text);
        break;
    case SQE_LIT_INTERVAL:
        sqe_strbuf_puts(sb, "INTERVAL ");
        put_string(sb, e->u.lit.text);
        sqe_strbuf_putc(sb, ' ');
        put_upper(sb, e->u.lit.type_name);
        break;
    }
}

static void render_bound(renderer *r, const sqe_ast_frame_bound *b) {
    switch (b->kind) {
    case SQE_BOUND_UNBOUNDED_PRECEDING:
        sqe_strbuf_puts(&r->sb, "UNBOUNDED PRECEDING");
        break;
    case SQE_BOUND_PRECEDING:
        render(r, b->offset);
        sqe_strbuf_puts(&r->sb, " PRECEDING");
        break;
    case SQE_BOUND_CURRENT_ROW:
        sqe_strbuf_puts(&r->sb, "CURRENT ROW");
        break;
    case SQE_BOUND_FOLLOWING:
        render(r, b->offset);
        sqe_strbuf_puts(&r->sb, " FOLLOWING");
        break;
    case SQE_BOUND_UNBOUNDED_FOLLOWING:
        sqe_strbuf_puts(&r->sb, "UNBOUNDED FOLLOWING");
        break;
    }
}

/* " OVER (PARTITION BY a ORDER BY b DESC NULLS FIRST ROWS BETWEEN ... AND ...)" */
static void render_window(renderer *r, const sqe_ast_window *w) {
    sqe_strbuf *sb = &r->sb;
    const char *sep = "";
    sqe_strbuf_puts(sb, " OVER (");
    if (w->n_partition) {
        sqe_strbuf_puts(sb, "PARTITION BY ");
        render_list(r, w->partition, w->n_partition);
        sep = " ";
    }
    for (int i = 0; i < w->n_order; i++) {
        sqe_strbuf_puts(sb, i ? ", " : sep);
        if (!i) sqe_strbuf_puts(sb, "ORDER BY ");
        render(r, w->order[i].expr);
        if (w->order[i].desc) sqe_strbuf_puts(sb, " DESC");
        if (w->order[i].nulls)
            sqe_strbuf_puts(sb, w->order[i].nulls == 1 ? " NULLS FIRST" : " NULLS LAST");
        sep = " ";
    }
    if (w->unit != SQE_FRAME_DEFAULT) {
        sqe_strbuf_puts(sb, sep);
        sqe_strbuf_puts(sb, w->unit == SQE_FRAME_ROWS    ? "ROWS BETWEEN "
                            : w->unit == SQE_FRAME_RANGE ? "RANGE BETWEEN "
                                                         : "GROUPS BETWEEN ");
        render_bound(r, &w->start);
        sqe_strbuf_puts(sb, " AND ");
        render_bound(r, &w->end);
    }
    sqe_strbuf_putc(sb, ')');
}

static void render_subquery(renderer *r, const sqe_ast_query *q) {
    if (r->canonical)
        sqe_strbuf_printf(&r->sb, "(SELECT ... #%p)", (const void *)q);
    else
        sqe_strbuf_puts(&r->sb, "(SELECT ...)");
}

static void render(renderer *r, const sqe_ast_expr *e) {
    sqe_strbuf *sb = &r->sb;
    if (!e) return;
    switch (e->kind) {
    case SQE_AST_LITERAL:
        render_literal(sb, e);
        break;
    case SQE_AST_COLUMN:
        put_qname(r, &e->u.column);
        break;
    case SQE_AST_STAR:
        if (e->u.star.qualifier) {
            put_qname(r, e->u.star.qualifier);
            sqe_strbuf_putc(sb, '.');
        }
        sqe_strbuf_putc(sb, '*');
        break;
    case SQE_AST_UNARY:
        if (e->u.unary.op == SQE_OP_NOT) {
            sqe_strbuf_puts(sb, "(NOT ");
            render(r, e->u.unary.arg);
            sqe_strbuf_putc(sb, ')');
        } else {
            /* "-x", or "- -x" so the output does not read as a comment */
            renderer arg = {.canonical = r->canonical};
            sqe_strbuf_init(&arg.sb);
            render(&arg, e->u.unary.arg);
            sqe_strbuf_putc(sb, e->u.unary.op == SQE_OP_NEG ? '-' : '+');
            if (arg.sb.len && (arg.sb.data[0] == '-' || arg.sb.data[0] == '+'))
                sqe_strbuf_putc(sb, ' ');
            sqe_strbuf_append(sb, arg.sb.data ? arg.sb.data : "", arg.sb.len);
            sqe_strbuf_free(&arg.sb);
        }
        break;
    case SQE_AST_BINARY:
        sqe_strbuf_putc(sb, '(');
        render(r, e->u.binary.left);
        sqe_strbuf_printf(sb, " %s ", sqe_sql_binop_name(e->u.binary.op));
        render(r, e->u.binary.right);
        sqe_strbuf_putc(sb, ')');
        break;
    case SQE_AST_FUNCTION:
        put_qname(r, &e->u.func.name);
        sqe_strbuf_putc(sb, '(');
        if (e->u.func.star) sqe_strbuf_putc(sb, '*');
        if (e->u.func.distinct) sqe_strbuf_puts(sb, "DISTINCT ");
        render_list(r, e->u.func.args, e->u.func.n_args);
        sqe_strbuf_putc(sb, ')');
        if (e->u.func.filter) {
            sqe_strbuf_puts(sb, " FILTER (WHERE ");
            render(r, e->u.func.filter);
            sqe_strbuf_putc(sb, ')');
        }
        if (e->u.func.ignore_nulls) sqe_strbuf_puts(sb, " IGNORE NULLS");
        if (e->u.func.over) render_window(r, e->u.func.over);
        break;
    case SQE_AST_CASE:
        sqe_strbuf_puts(sb, "CASE");
        if (e->u.case_.operand) {
            sqe_strbuf_putc(sb, ' ');
            render(r, e->u.case_.operand);
        }
        for (int i = 0; i < e->u.case_.n_whens; i++) {
            sqe_strbuf_puts(sb, " WHEN ");
            render(r, e->u.case_.whens[i].cond);
            sqe_strbuf_puts(sb, " THEN ");
            render(r, e->u.case_.whens[i].result);
        }
        if (e->u.case_.else_) {
            sqe_strbuf_puts(sb, " ELSE ");
            render(r, e->u.case_.else_);
        }
        sqe_strbuf_puts(sb, " END");
        break;
    case SQE_AST_CAST:
        sqe_strbuf_puts(sb, e->u.cast.try_ ? "TRY_CAST(" : "CAST(");
        render(r, e->u.cast.arg);
        sqe_strbuf_printf(sb, " AS %s)",
                          e->u.cast.type.text ? e->u.cast.type.text : e->u.cast.type.name);
        break;
    case SQE_AST_IN_LIST:
        sqe_strbuf_putc(sb, '(');
        render(r, e->u.in_list.arg);
        sqe_strbuf_puts(sb, e->u.in_list.negated ? " NOT IN (" : " IN (");
        render_list(r, e->u.in_list.items, e->u.in_list.n_items);
        sqe_strbuf_puts(sb, "))");
        break;
    case SQE_AST_BETWEEN:
        sqe_strbuf_putc(sb, '(');
        render(r, e->u.between.arg);
        sqe_strbuf_puts(sb, e->u.between.negated ? " NOT BETWEEN " : " BETWEEN ");
        render(r, e->u.between.low);
        sqe_strbuf_puts(sb, " AND ");
        render(r, e->u.between.high);
        sqe_strbuf_putc(sb, ')');
        break;
    case SQE_AST_LIKE:
        sqe_strbuf_putc(sb, '(');
        render(r, e->u.like.arg);
        sqe_strbuf_puts(sb, e->u.like.negated ? " NOT" : "");
        sqe_strbuf_puts(sb, e->u.like.ilike ? " ILIKE " : " LIKE ");
        render(r, e->u.like.pattern);
        if (e->u.like.escape) {
            sqe_strbuf_puts(sb, " ESCAPE ");
            render(r, e->u.like.escape);
        }
        sqe_strbuf_putc(sb, ')');
        break;
    case SQE_AST_IS_NULL:
        sqe_strbuf_putc(sb, '(');
        render(r, e->u.is_null.arg);
        sqe_strbuf_puts(sb, e->u.is_null.negated ? " IS NOT NULL)" : " IS NULL)");
        break;
    case SQE_AST_IS_DISTINCT:
        sqe_strbuf_putc(sb, '(');
        render(r, e->u.is_distinct.left);
        sqe_strbuf_puts(sb,
                        e->u.is_distinct.negated ? " IS NOT DISTINCT FROM " : " IS DISTINCT FROM ");
        render(r, e->u.is_distinct.right);
        sqe_strbuf_putc(sb, ')');
        break;
    case SQE_AST_SUBQUERY:
        render_subquery(r, e->u.subquery.query);
        break;
    case SQE_AST_EXISTS:
        sqe_strbuf_puts(sb, "EXISTS ");
        render_subquery(r, e->u.subquery.query);
        break;
    case SQE_AST_IN_SUBQUERY:
        sqe_strbuf_putc(sb, '(');
        render(r, e->u.in_subquery.arg);
        sqe_strbuf_puts(sb, e->u.in_subquery.negated ? " NOT IN " : " IN ");
        render_subquery(r, e->u.in_subquery.query);
        sqe_strbuf_putc(sb, ')');
        break;
    }
}

static char *render_to_arena(sqe_arena *arena, const sqe_ast_expr *e, bool canonical) {
    renderer r = {.canonical = canonical};
    sqe_strbuf_init(&r.sb);
    render(&r, e);
    char *out = sqe_arena_strndup(arena, r.sb.data ? r.sb.data : "", r.sb.len);
    sqe_strbuf_free(&r.sb);
    return out;
}

char *sqe_sql_expr_to_string(sqe_arena *arena, const sqe_ast_expr *e) {
    return render_to_arena(arena, e, false);
}

char *sqe_sql_expr_canonical(sqe_arena *arena, const sqe_ast_expr *e) {
    return render_to_arena(arena, e, true);
}
