/*
 * parse_secret.c - CREATE SECRET, DROP SECRET and SHOW SECRETS (SPEC §12.3),
 * in DuckDB's spelling:
 *
 *   CREATE [OR REPLACE] [TEMPORARY | PERSISTENT] SECRET [IF NOT EXISTS] name
 *       (TYPE S3, KEY_ID '...', SECRET '...', SESSION_TOKEN '...',
 *        REGION '...', ENDPOINT '...', URL_STYLE 'path' | 'vhost',
 *        USE_SSL true | false, SCOPE 's3://bucket/prefix')
 *   DROP [TEMPORARY | PERSISTENT] SECRET [IF EXISTS] name
 *   SHOW SECRETS
 *
 * The parser only checks the shape: options are kept as (lower-case name,
 * value text) pairs in the order written, and the engine judges names and
 * values (engine/secrets.c). A value is a string literal, a word (TYPE s3)
 * or true/false.
 *
 * Secret values must never reach an error message. The generic "expected
 * X, found '<token>'" error quotes the token it stopped at, and inside the
 * parentheses that token may be a key or secret (a string that should have
 * been an option name, an unquoted value). Every error here is therefore
 * worded without the token's text: it names the position and the option.
 * After the closing parenthesis only the end of the statement may follow;
 * anything else is refused here too, without its text.
 */
#include "sql_int.h"

#include <string.h>

#define SECRET_MAX_OPTIONS 32

static bool secret_err(sqe_parser *p, const sqe_token *t, const char *what) {
    if (t->kind == SQE_TK_ERROR) /* a lexer message ("unterminated string") has no value */
        return sqe_error_set(p->err, SQE_ERR_SYNTAX, "%s", t->text);
    return sqe_p_error_at(p, t->pos,
                          "expected %s in CREATE SECRET (the text found there is "
                          "not shown: it may be a secret)",
                          what);
}

/* name value, where value is a string, a word or a boolean. */
static bool secret_option(sqe_parser *p, sqe_ast_kv *kv) {
    sqe_token *k = sqe_p_peek(p, 0);
    if (k->kind != SQE_TK_IDENT) return secret_err(p, k, "an option name such as KEY_ID");
    sqe_p_next(p);
    kv->key = sqe_str_lower(sqe_arena_strdup(p->arena, k->text));
    kv->pos = k->pos;
    sqe_token *v = sqe_p_peek(p, 0);
    if (v->kind != SQE_TK_STRING && v->kind != SQE_TK_IDENT) {
        char *what = sqe_arena_sprintf(p->arena, "a value (a string literal) after %s",
                                       sqe_p_upper_word(p, k));
        return secret_err(p, v, what);
    }
    sqe_p_next(p);
    kv->value = sqe_arena_strdup(p->arena, v->text);
    return true;
}

bool sqe_p_parse_create_secret(sqe_parser *p, sqe_ast_stmt *st, bool or_replace, bool temporary) {
    bool persistent = sqe_p_accept(p, "persistent");
    sqe_p_next(p); /* SECRET */
    st->kind = SQE_STMT_CREATE_SECRET;
    st->u.create_secret.or_replace = or_replace;
    st->u.create_secret.persistent = persistent;
    (void)temporary; /* TEMPORARY is what sqe's secrets are: session-scoped */
    if (sqe_p_is(p, 0, "if") && sqe_p_is(p, 1, "not") && sqe_p_is(p, 2, "exists")) {
        p->cur += 3;
        st->u.create_secret.if_not_exists = true;
    }
    if (!sqe_p_parse_ident(p, &st->u.create_secret.name, "secret name")) return false;
    sqe_token *lp = sqe_p_peek(p, 0);
    if (lp->kind != SQE_TK_LPAREN) return secret_err(p, lp, "'(' and the secret's options");
    sqe_p_next(p);
    sqe_ast_kv *opts = sqe_arena_alloc(p->arena, SECRET_MAX_OPTIONS * sizeof *opts);
    int n = 0;
    do {
        if (n == SECRET_MAX_OPTIONS)
            return sqe_p_error_at(p, sqe_p_peek(p, 0)->pos,
                                  "CREATE SECRET takes at most %d options", SECRET_MAX_OPTIONS);
        if (!secret_option(p, &opts[n++])) return false;
    } while (sqe_p_accept_tok(p, SQE_TK_COMMA));
    sqe_token *t = sqe_p_peek(p, 0);
    if (t->kind != SQE_TK_RPAREN) return secret_err(p, t, "',' or ')'");
    sqe_p_next(p);
    t = sqe_p_peek(p, 0);
    if (t->kind != SQE_TK_EOF && t->kind != SQE_TK_SEMI)
        return secret_err(p, t, "the end of the statement after ')'");
    st->u.create_secret.n_options = n;
    st->u.create_secret.options = opts;
    return true;
}

bool sqe_p_parse_drop_secret(sqe_parser *p, sqe_ast_stmt *st) {
    if (!sqe_p_accept(p, "temporary")) sqe_p_accept(p, "persistent");
    sqe_p_next(p); /* SECRET */
    st->kind = SQE_STMT_DROP_SECRET;
    if (sqe_p_is(p, 0, "if") && sqe_p_is(p, 1, "exists")) {
        p->cur += 2;
        st->u.drop_secret.if_exists = true;
    }
    return sqe_p_parse_ident(p, &st->u.drop_secret.name, "secret name");
}
