/*
 * registry.c - scalar function lookup and overload resolution, plus the
 * helpers every kernel file shares (NULL propagation, UTF-8 walking).
 *
 * Where it sits: the binder (plan/) calls sqe_func_bind_scalar once per call
 * site with the argument types it inferred; the binding it gets back names
 * the exact argument types (the binder wraps the others in a CAST), the
 * result type and the vectorized kernel the executor (exec/expr) runs over
 * each batch.
 *
 * Resolution (Trino's rules, simplified):
 *   1. Every family table (arith, compare, string, math, datetime, cast,
 *      regex, text, json, binary, url, math_more: k_tables) is scanned for
 *      signatures with the name (case-insensitive) and arity.
 *   2. Each argument is scored: exact type id 0; an untyped NULL 1; an
 *      implicit widening the distance along
 *        tinyint < smallint < integer < bigint < decimal < real < double
 *      (so integer + decimal picks decimal before double); date -> timestamp
 *      1; anything -> varchar for SQE_FP_TOSTR 20. A signature with an
 *      argument that cannot coerce is not viable.
 *   3. The cheapest viable signature wins; ties go to the first in table
 *      order (tables list the narrow types first).
 *   4. Exact argument types: a parametric type (decimal, varchar) keeps the
 *      argument's own parameters; integer -> decimal becomes decimal(3|5|10|
 *      19, 0); SQE_FP_ANY arguments all get their common type
 *      (sqe_type_common; NULL with NULL gives varchar).
 *   5. The signature's bind callback may refine the result type (decimal
 *      precision rules), pick a type-specialised kernel or pre-compile a
 *      constant argument into b->data.
 *
 * Errors: unknown name -> NOT_FOUND "function 'foo' not registered", with
 * "; did you mean x, y?" when registered names are close (catalog.c); an
 * aggregate name -> NOT_FOUND naming it as an aggregate; no viable
 * overload -> TYPE_MISMATCH "unexpected parameters (varchar, integer) for
 * function abs; expected: abs(tinyint), ...".
 */
#include "func/func_int.h"

#include <stdio.h>

/* One table per line (families append theirs), kept so by clang-format. */
// clang-format off
static const sqe_func_sig_table *const k_tables[] = {
    &sqe_func_arith_table,
    &sqe_func_compare_table,
    &sqe_func_string_table,
    &sqe_func_math_table,
    &sqe_func_datetime_table,
    &sqe_func_cast_table,
    &sqe_func_regex_table,
    &sqe_func_text_table,
    &sqe_func_json_table,
    &sqe_func_binary_table,
    &sqe_func_url_table,
    &sqe_func_math_more_table,
    &sqe_func_interval_table, /* interval.c: interval operators */
    &sqe_func_datefmt_table,  /* datefmt.c: date/time text functions */
    &sqe_func_tstz_table,     /* tstz.c: timestamp with time zone functions */
};
// clang-format on

/* ------------------------------------------------------------ helpers */

const char *sqe_func_type_name(sqe_type t, char *buf, size_t buf_len) {
    if (t.id == SQE_T_NULL) {
        snprintf(buf, buf_len, "unknown");
        return buf;
    }
    return sqe_type_sql_name(t, buf, buf_len);
}

bool sqe_func_propagate_nulls(sqe_vector *const *args, int n_args, const uint16_t *sel, uint32_t n,
                              sqe_vector *out) {
    bool any = false;
    for (int a = 0; a < n_args; a++) any |= args[a]->has_nulls;
    if (!any) {
        if (out->has_nulls) sqe_func_set_all_valid(out, sel, n);
        return false;
    }
    if (!out->has_nulls) {
        memset(out->validity, 0xff, sizeof out->validity);
        out->has_nulls = true;
    }
    if (sel) {
        for (uint32_t i = 0; i < n; i++) {
            uint32_t row = sel[i];
            uint64_t bit = 1ULL << (row & 63);
            bool valid = true;
            for (int a = 0; a < n_args; a++) valid &= sqe_func_row_valid(args[a], row);
            if (valid)
                out->validity[row >> 6] |= bit;
            else
                out->validity[row >> 6] &= ~bit;
        }
        return true;
    }
    uint32_t n_words = (n + 63) / 64;
    for (uint32_t w = 0; w < n_words; w++) {
        uint64_t mask = (w == n_words - 1 && (n & 63)) ? (1ULL << (n & 63)) - 1 : ~0ULL;
        uint64_t v = ~0ULL;
        for (int a = 0; a < n_args; a++)
            if (args[a]->has_nulls) v &= args[a]->validity[w];
        out->validity[w] = (out->validity[w] & ~mask) | (v & mask);
    }
    return true;
}

void sqe_func_set_all_valid(sqe_vector *out, const uint16_t *sel, uint32_t n) {
    if (!out->has_nulls) return;
    if (sel) {
        for (uint32_t i = 0; i < n; i++) out->validity[sel[i] >> 6] |= 1ULL << (sel[i] & 63);
        return;
    }
    uint32_t n_words = (n + 63) / 64;
    for (uint32_t w = 0; w < n_words; w++) {
        uint64_t mask = (w == n_words - 1 && (n & 63)) ? (1ULL << (n & 63)) - 1 : ~0ULL;
        out->validity[w] |= mask;
    }
}

size_t sqe_utf8_offset(const char *p, size_t n, size_t k) {
    size_t i = 0;
    while (k > 0 && i < n) {
        i += (size_t)sqe_utf8_len((unsigned char)p[i]);
        k--;
    }
    return i < n ? i : n;
}

uint32_t sqe_utf8_decode(const char *p, size_t n, int *len) {
    const unsigned char *s = (const unsigned char *)p;
    int l = sqe_utf8_len(s[0]);
    if (l == 1 || (size_t)l > n) {
        *len = 1;
        return s[0];
    }
    uint32_t cp = s[0] & (0xFF >> (l + 1));
    for (int i = 1; i < l; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            *len = 1;
            return s[0];
        }
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    *len = l;
    return cp;
}

/* ------------------------------------------------------------ scoring */

static int numeric_rank(sqe_type_id id) {
    switch (id) {
    case SQE_T_TINYINT:
        return 1;
    case SQE_T_SMALLINT:
        return 2;
    case SQE_T_INTEGER:
        return 3;
    case SQE_T_BIGINT:
        return 4;
    case SQE_T_DECIMAL:
        return 5;
    case SQE_T_REAL:
        return 6;
    case SQE_T_DOUBLE:
        return 7;
    default:
        return 0;
    }
}

/* Cost of passing an argument of type `from` to parameter kind `p`; -1 when
 * it cannot be passed. */
static int coerce_cost(sqe_type from, uint8_t p) {
    if (p == SQE_FP_ANY || p == SQE_FP_ASIS) return 0;
    if (p == SQE_FP_TOSTR) return from.id == SQE_T_VARCHAR || from.id == SQE_T_NULL ? 0 : 20;
    if (from.id == p) return 0;
    if (from.id == SQE_T_NULL) return 1;
    int rf = numeric_rank((sqe_type_id)from.id), rt = numeric_rank((sqe_type_id)p);
    if (rf && rt && rt > rf) return rt - rf;
    if (from.id == SQE_T_DATE && p == SQE_T_TIMESTAMP) return 1;
    return -1;
}

static int integer_digits(sqe_type_id id) {
    switch (id) {
    case SQE_T_TINYINT:
        return 3;
    case SQE_T_SMALLINT:
        return 5;
    case SQE_T_INTEGER:
        return 10;
    default:
        return 19;
    }
}

/* The exact type an argument of type `from` gets for parameter kind p
 * (p is a plain type id here). */
static sqe_type exact_param_type(sqe_type from, uint8_t p) {
    if (from.id == p) return from;
    if (p == SQE_T_DECIMAL) {
        if (sqe_type_is_integer(from))
            return sqe_type_decimal(integer_digits((sqe_type_id)from.id), 0);
        return sqe_type_decimal(1, 0); /* untyped NULL */
    }
    return sqe_type_make((sqe_type_id)p);
}

static uint8_t sig_param(const sqe_func_sig *s, int i) {
    return s->params[i < s->n_params ? i : s->n_params - 1];
}

static bool arity_ok(const sqe_func_sig *s, int n_args) {
    return s->variadic ? n_args >= s->n_params : n_args == s->n_params;
}

/* Common type of the FP_ANY arguments; false when there is none. */
static bool any_common(const sqe_func_sig *s, int n_args, const sqe_type *types, sqe_type *out) {
    sqe_type c = sqe_type_make(SQE_T_NULL);
    bool seen = false;
    for (int i = 0; i < n_args; i++) {
        if (sig_param(s, i) != SQE_FP_ANY) continue;
        if (!seen) {
            c = types[i];
            seen = true;
            continue;
        }
        /* comparisons (boolean result): CHAR against any string stays CHAR */
        if (!(s->ret == SQE_T_BOOLEAN ? sqe_type_compare_common(c, types[i], &c)
                                      : sqe_type_common(c, types[i], &c)))
            return false;
    }
    if (c.id == SQE_T_NULL) c = sqe_type_make(SQE_T_VARCHAR);
    *out = c;
    return true;
}

/* Total cost of sig for the arguments, or -1. */
static int sig_cost(const sqe_func_sig *s, int n_args, const sqe_type *types) {
    int total = 0;
    bool has_any = false;
    for (int i = 0; i < n_args; i++) {
        uint8_t p = sig_param(s, i);
        has_any |= p == SQE_FP_ANY;
        int c = coerce_cost(types[i], p);
        if (c < 0) return -1;
        total += c;
    }
    if (has_any) {
        sqe_type common;
        if (!any_common(s, n_args, types, &common)) return -1;
    }
    return total;
}

/* "decimal(p,s)"-style parameter names for candidate lists. */
static const char *param_name(uint8_t p, char *buf, size_t n) {
    switch (p) {
    case SQE_FP_ANY:
        return "T";
    case SQE_FP_TOSTR:
        return "varchar";
    case SQE_FP_ASIS:
        return "T";
    case SQE_T_DECIMAL:
        return "decimal(p,s)";
    default:
        return sqe_func_type_name(sqe_type_make((sqe_type_id)p), buf, n);
    }
}

void sqe_func_append_params(sqe_strbuf *sb, const sqe_func_sig *s) {
    char buf[48];
    for (int i = 0; i < s->n_params; i++) {
        if (i) sqe_strbuf_puts(sb, ", ");
        sqe_strbuf_puts(sb, param_name(s->params[i], buf, sizeof buf));
    }
    if (s->variadic) sqe_strbuf_puts(sb, ", ...");
}

const char *sqe_func_ret_name(const sqe_func_sig *s) {
    static _Thread_local char buf[48];
    switch (s->ret) {
    case SQE_FR_ARG0:
        return s->n_params ? param_name(s->params[0], buf, sizeof buf) : "unknown";
    case SQE_FR_BIND:
        return "depends on arguments";
    default:
        return param_name(s->ret, buf, sizeof buf);
    }
}

void sqe_func_for_each_sig(void (*fn)(const sqe_func_sig *s, void *ctx), void *ctx) {
    for (size_t t = 0; t < SQE_ARRAY_LEN(k_tables); t++)
        for (size_t i = 0; i < k_tables[t]->n; i++) fn(&k_tables[t]->sigs[i], ctx);
}

static void append_sig(sqe_strbuf *sb, const sqe_func_sig *s) {
    sqe_strbuf_printf(sb, "%s(", s->name);
    sqe_func_append_params(sb, s);
    sqe_strbuf_putc(sb, ')');
}

static bool mismatch_error(const char *name, int n_args, const sqe_type *types, sqe_error *err) {
    sqe_strbuf sb;
    char buf[48];
    sqe_strbuf_init(&sb);
    sqe_strbuf_puts(&sb, "unexpected parameters (");
    for (int i = 0; i < n_args; i++) {
        if (i) sqe_strbuf_puts(&sb, ", ");
        sqe_strbuf_puts(&sb, sqe_func_type_name(types[i], buf, sizeof buf));
    }
    sqe_strbuf_printf(&sb, ") for function %s; expected: ", name);
    bool first = true;
    for (size_t t = 0; t < SQE_ARRAY_LEN(k_tables); t++) {
        for (size_t i = 0; i < k_tables[t]->n; i++) {
            const sqe_func_sig *s = &k_tables[t]->sigs[i];
            if (!sqe_str_ieq(s->name, name)) continue;
            if (sb.len > SQE_ERROR_MSG_MAX - 80) {
                sqe_strbuf_puts(&sb, ", ...");
                goto done;
            }
            if (!first) sqe_strbuf_puts(&sb, ", ");
            first = false;
            append_sig(&sb, s);
        }
    }
done:
    sqe_error_set(err, SQE_ERR_TYPE_MISMATCH, "%s", sb.data);
    sqe_strbuf_free(&sb);
    return false;
}

/* ------------------------------------------------------------ binding */

/* Trino functions whose arguments or result are types sqe lacks (MAP,
 * ARRAY beyond what regex.c refuses itself): the type, for a NOT_SUPPORTED
 * error instead of "not registered". */
static const char *needs_missing_type(const char *name) {
    static const char *const k_needs[][2] = {
        {"cosine_similarity", "MAP(varchar, double) arguments"},
        {"map", "the MAP type"},
        {"map_keys", "the MAP type"},
        {"map_values", "the MAP type"},
        {"element_at", "the ARRAY and MAP types"},
        {"cardinality", "the ARRAY and MAP types"},
        {"array_join", "the ARRAY type"},
        {"split", "the ARRAY type (split_part returns one piece)"},
        {"json_extract_array", "the ARRAY type"},
    };
    for (size_t i = 0; i < SQE_ARRAY_LEN(k_needs); i++)
        if (sqe_str_ieq(name, k_needs[i][0])) return k_needs[i][1];
    return NULL;
}

bool sqe_func_bind_scalar(sqe_arena *arena, const char *name, int n_args, const sqe_type *arg_types,
                          const sqe_value *const *const_args, sqe_func_binding *out,
                          sqe_error *err) {
    const sqe_func_sig *best = NULL;
    int best_cost = -1;
    bool known = false;
    for (size_t t = 0; t < SQE_ARRAY_LEN(k_tables); t++) {
        for (size_t i = 0; i < k_tables[t]->n; i++) {
            const sqe_func_sig *s = &k_tables[t]->sigs[i];
            if (!sqe_str_ieq(s->name, name)) continue;
            known = true;
            if (!arity_ok(s, n_args)) continue;
            int c = sig_cost(s, n_args, arg_types);
            if (c < 0) continue;
            if (!best || c < best_cost) {
                best = s;
                best_cost = c;
            }
        }
    }
    if (!known) {
        const char *needs = needs_missing_type(name);
        if (needs)
            return sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                                 "function '%s' is not supported yet: it needs %s, which sqe does "
                                 "not have yet",
                                 name, needs);
        if (sqe_func_is_aggregate(name))
            return sqe_error_set(
                err, SQE_ERR_NOT_FOUND,
                "function '%s' not registered as a scalar function (it is an aggregate)", name);
        char hint[160];
        if (sqe_func_suggest(name, hint, sizeof hint))
            return sqe_error_set(err, SQE_ERR_NOT_FOUND,
                                 "function '%s' not registered; did you mean %s?", name, hint);
        return sqe_error_set(err, SQE_ERR_NOT_FOUND, "function '%s' not registered", name);
    }
    if (!best) return mismatch_error(name, n_args, arg_types, err);

    memset(out, 0, sizeof *out);
    out->name = best->name;
    out->kernel = best->kernel;
    out->n_args = n_args;
    out->arg_types = n_args ? sqe_arena_alloc(arena, sizeof(sqe_type) * (size_t)n_args) : NULL;
    sqe_type common = sqe_type_make(SQE_T_VARCHAR);
    any_common(best, n_args, arg_types, &common);
    for (int i = 0; i < n_args; i++) {
        uint8_t p = sig_param(best, i);
        sqe_type from = arg_types[i];
        if (p == SQE_FP_ANY)
            out->arg_types[i] = common;
        else if (p == SQE_FP_TOSTR)
            out->arg_types[i] = from.id == SQE_T_VARCHAR ? from : sqe_type_make(SQE_T_VARCHAR);
        else if (p == SQE_FP_ASIS)
            out->arg_types[i] = from;
        else
            out->arg_types[i] = exact_param_type(from, p);
    }
    if (best->ret == SQE_FR_ARG0)
        out->ret = n_args ? out->arg_types[0] : sqe_type_make(SQE_T_NULL);
    else if (best->ret != SQE_FR_BIND)
        out->ret = sqe_type_make((sqe_type_id)best->ret);
    if (best->bind && !best->bind(best, arena, out, const_args, err)) return false;
    return true;
}
