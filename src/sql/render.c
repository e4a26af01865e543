/*
 * render.c - expressions back to SQL text, and operator names.
 *
 * Used for the column names of unaliased select items ("sum(amount)",
 * "count(*)"), for EXPLAIN and for error messages. The output is readable
 * SQL in Trino's style, not a byte-exact copy of the input: unquoted
 * identifiers come out lower-case, quoted ones as written without quotes,
 * keywords upper-case, every binary operation in parentheses "(a + b)",
 * strings in single quotes with ' doubled. Subqueries are not rendered
 * (the AST keeps no text for them) and show as "(SELECT ...)".
 */
#include "sql_int.h"

#include <ctype.h>
#include <string.h>

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

static void put_ident(sqe_strbuf *sb, const sqe_ident *id) {
    if (id->quoted) {
        sqe_strbuf_puts(sb, id->name);
        return;
    }
    for (const char *c = id->name; *c; c++) sqe_strbuf_putc(sb, (char)tolower((unsigned char)*c));
}

static void put_qname(sqe_strbuf *sb, const sqe_qname *q) {
    for (int i = 0; i < q->n_parts; i++) {
        if (i) sqe_strbuf_putc(sb, '.');
        put_ident(sb, &q->parts[i]);
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

static void render(sqe_strbuf *sb, const sqe_ast_expr *e);

static void render_list(sqe_strbuf *sb, sqe_ast_expr *const *xs, int n) {
    for (int i = 0; i < n; i++) {
        if (i) sqe_strbuf_puts(sb, ", ");
        render(sb, xs[i]);
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

static void render(sqe_strbuf *sb, const sqe_ast_expr *e) {
    if (!e) return;
    switch (e->kind) {
    case SQE_AST_LITERAL:
        render_literal(sb, e);
        break;
    case SQE_AST_COLUMN:
        put_qname(sb, &e->u.column);
        break;
    case SQE_AST_STAR:
        if (e->u.star.qualifier) {
            put_qname(sb, e->u.star.qualifier);
            sqe_strbuf_putc(sb, '.');
        }
        sqe_strbuf_putc(sb, '*');
        break;
    case SQE_AST_UNARY:
        if (e->u.unary.op == SQE_OP_NOT) {
            sqe_strbuf_puts(sb, "(NOT ");
            render(sb, e->u.unary.arg);
            sqe_strbuf_putc(sb, ')');
        } else {
            /* "-x", or "- -x" so the output does not read as a comment */
            sqe_strbuf arg;
            sqe_strbuf_init(&arg);
            render(&arg, e->u.unary.arg);
            sqe_strbuf_putc(sb, e->u.unary.op == SQE_OP_NEG ? '-' : '+');
            if (arg.len && (arg.data[0] == '-' || arg.data[0] == '+')) sqe_strbuf_putc(sb, ' ');
            sqe_strbuf_append(sb, arg.data ? arg.data : "", arg.len);
            sqe_strbuf_free(&arg);
        }
        break;
    case SQE_AST_BINARY:
        sqe_strbuf_putc(sb, '(');
        render(sb, e->u.binary.left);
        sqe_strbuf_printf(sb, " %s ", sqe_sql_binop_name(e->u.binary.op));
        render(sb, e->u.binary.right);
        sqe_strbuf_putc(sb, ')');
        break;
    case SQE_AST_FUNCTION:
        put_qname(sb, &e->u.func.name);
        sqe_strbuf_putc(sb, '(');
        if (e->u.func.star) sqe_strbuf_putc(sb, '*');
        if (e->u.func.distinct) sqe_strbuf_puts(sb, "DISTINCT ");
        render_list(sb, e->u.func.args, e->u.func.n_args);
        sqe_strbuf_putc(sb, ')');
        break;
    case SQE_AST_CASE:
        sqe_strbuf_puts(sb, "CASE");
        if (e->u.case_.operand) {
            sqe_strbuf_putc(sb, ' ');
            render(sb, e->u.case_.operand);
        }
        for (int i = 0; i < e->u.case_.n_whens; i++) {
            sqe_strbuf_puts(sb, " WHEN ");
            render(sb, e->u.case_.whens[i].cond);
            sqe_strbuf_puts(sb, " THEN ");
            render(sb, e->u.case_.whens[i].result);
        }
        if (e->u.case_.else_) {
            sqe_strbuf_puts(sb, " ELSE ");
            render(sb, e->u.case_.else_);
        }
        sqe_strbuf_puts(sb, " END");
        break;
    case SQE_AST_CAST:
        sqe_strbuf_puts(sb, e->u.cast.try_ ? "TRY_CAST(" : "CAST(");
        render(sb, e->u.cast.arg);
        sqe_strbuf_printf(sb, " AS %s)",
                          e->u.cast.type.text ? e->u.cast.type.text : e->u.cast.type.name);
        break;
    case SQE_AST_IN_LIST:
        sqe_strbuf_putc(sb, '(');
        render(sb, e->u.in_list.arg);
        sqe_strbuf_puts(sb, e->u.in_list.negated ? " NOT IN (" : " IN (");
        render_list(sb, e->u.in_list.items, e->u.in_list.n_items);
        sqe_strbuf_puts(sb, "))");
        break;
    case SQE_AST_BETWEEN:
        sqe_strbuf_putc(sb, '(');
        render(sb, e->u.between.arg);
        sqe_strbuf_puts(sb, e->u.between.negated ? " NOT BETWEEN " : " BETWEEN ");
        render(sb, e->u.between.low);
        sqe_strbuf_puts(sb, " AND ");
        render(sb, e->u.between.high);
        sqe_strbuf_putc(sb, ')');
        break;
    case SQE_AST_LIKE:
        sqe_strbuf_putc(sb, '(');
        render(sb, e->u.like.arg);
        sqe_strbuf_puts(sb, e->u.like.negated ? " NOT" : "");
        sqe_strbuf_puts(sb, e->u.like.ilike ? " ILIKE " : " LIKE ");
        render(sb, e->u.like.pattern);
        if (e->u.like.escape) {
            sqe_strbuf_puts(sb, " ESCAPE ");
            render(sb, e->u.like.escape);
        }
        sqe_strbuf_putc(sb, ')');
        break;
    case SQE_AST_IS_NULL:
        sqe_strbuf_putc(sb, '(');
        render(sb, e->u.is_null.arg);
        sqe_strbuf_puts(sb, e->u.is_null.negated ? " IS NOT NULL)" : " IS NULL)");
        break;
    case SQE_AST_IS_DISTINCT:
        sqe_strbuf_putc(sb, '(');
        render(sb, e->u.is_distinct.left);
        sqe_strbuf_puts(sb,
                        e->u.is_distinct.negated ? " IS NOT DISTINCT FROM " : " IS DISTINCT FROM ");
        render(sb, e->u.is_distinct.right);
        sqe_strbuf_putc(sb, ')');
        break;
    case SQE_AST_SUBQUERY:
        sqe_strbuf_puts(sb, "(SELECT ...)");
        break;
    case SQE_AST_EXISTS:
        sqe_strbuf_puts(sb, "EXISTS (SELECT ...)");
        break;
    case SQE_AST_IN_SUBQUERY:
        sqe_strbuf_putc(sb, '(');
        render(sb, e->u.in_subquery.arg);
        sqe_strbuf_puts(sb,
                        e->u.in_subquery.negated ? " NOT IN (SELECT ...))" : " IN (SELECT ...))");
        break;
    }
}

char *sqe_sql_expr_to_string(sqe_arena *arena, const sqe_ast_expr *e) {
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    render(&sb, e);
    char *out = sqe_arena_strndup(arena, sb.data ? sb.data : "", sb.len);
    sqe_strbuf_free(&sb);
    return out;
}
