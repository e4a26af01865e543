/*
 * func_int.h - private to src/func/: the signature tables every function
 * family contributes, and the helpers kernels share (selection loops, NULL
 * propagation, UTF-8 walking, building strings in an output vector).
 *
 * A family file (arith.c, compare.c, string.c, ...) exports one table of
 * sqe_func_sig entries; registry.c scans the tables by name, scores each
 * overload against the actual argument types and fills the binding. Nothing
 * here is visible outside src/func/.
 */
#ifndef SQE_FUNC_INT_H
#define SQE_FUNC_INT_H

#include "func/func.h"

#include <string.h>

/* Parameter kinds beyond sqe_type_id values (sqe_func_sig.params). */
enum {
    SQE_FP_ANY = 100, /* any type; all FP_ANY arguments coerce to their common type */
    SQE_FP_TOSTR,     /* any type; non-varchar arguments are cast to varchar */
    SQE_FP_ASIS,      /* any type, passed as it is (untyped NULL included) */
};

/* Return kinds beyond sqe_type_id values (sqe_func_sig.ret). */
enum {
    SQE_FR_ARG0 = 100, /* the exact (bound) type of argument 0 */
    SQE_FR_BIND,       /* computed by the signature's bind callback */
};

typedef struct sqe_func_sig sqe_func_sig;

/* Called after the registry has chosen `sig` and filled b->arg_types (exact
 * types, coercions applied), b->ret (unless SQE_FR_BIND), b->kernel and
 * b->name. May change any of them and set b->data (arena). const_args as in
 * sqe_func_bind_scalar (NULL or per-argument constant or NULL). */
typedef bool (*sqe_func_bind_fn)(const sqe_func_sig *sig, sqe_arena *arena, sqe_func_binding *b,
                                 const sqe_value *const *const_args, sqe_error *err);

struct sqe_func_sig {
    const char *name;  /* lower-case SQL name or operator symbol */
    int8_t n_params;   /* parameters listed in params */
    bool variadic;     /* the last parameter repeats: n_args >= n_params */
    uint8_t params[4]; /* sqe_type_id, or SQE_FP_* */
    uint8_t ret;       /* sqe_type_id, or SQE_FR_* */
    sqe_scalar_kernel kernel;
    sqe_func_bind_fn bind; /* optional */
};

typedef struct sqe_func_sig_table {
    const sqe_func_sig *sigs;
    size_t n;
} sqe_func_sig_table;

/* One table per family file. */
extern const sqe_func_sig_table sqe_func_arith_table;
extern const sqe_func_sig_table sqe_func_compare_table;
extern const sqe_func_sig_table sqe_func_string_table;
extern const sqe_func_sig_table sqe_func_math_table;
extern const sqe_func_sig_table sqe_func_datetime_table;
extern const sqe_func_sig_table sqe_func_cast_table;
extern const sqe_func_sig_table sqe_func_regex_table;
extern const sqe_func_sig_table sqe_func_text_table;
extern const sqe_func_sig_table sqe_func_json_table;
extern const sqe_func_sig_table sqe_func_binary_table;
extern const sqe_func_sig_table sqe_func_url_table;
extern const sqe_func_sig_table sqe_func_math_more_table;
extern const sqe_func_sig_table sqe_func_interval_table;
extern const sqe_func_sig_table sqe_func_datefmt_table;
extern const sqe_func_sig_table sqe_func_tstz_table;

#define SQE_FUNC_TABLE(var, arr)                                                                   \
    const sqe_func_sig_table var = {arr, sizeof(arr) / sizeof((arr)[0])}

/* The kernel signature, for declaring kernels tersely. */
#define SQE_KERNEL(name)                                                                           \
    bool name(const sqe_func_binding *b, sqe_vector *const *args, const uint16_t *sel, uint32_t n, \
              sqe_vector *out, sqe_error *err)

/* ------------------------------------------------------ selection loops */

/* Runs the statements in __VA_ARGS__ for every selected physical row, with
 * `row` (uint32_t) bound to it. Two loops so the common sel == NULL case
 * stays a plain counted loop the compiler can vectorize. */
#define SQE_FOR_ROWS(sel, n, row, ...)                                                             \
    do {                                                                                           \
        if (sel) {                                                                                 \
            for (uint32_t i_##row = 0; i_##row < (n); i_##row++) {                                 \
                uint32_t row = (sel)[i_##row];                                                     \
                __VA_ARGS__                                                                        \
            }                                                                                      \
        } else {                                                                                   \
            for (uint32_t row = 0; row < (n); row++) {                                             \
                __VA_ARGS__                                                                        \
            }                                                                                      \
        }                                                                                          \
    } while (0)

/* Sets out's validity for the selected rows to the AND of the arguments'
 * validity (SQL NULL propagation); other rows keep their bits. Returns
 * whether any selected row may be NULL (false: every selected row is valid,
 * kernels may skip validity checks). */
bool sqe_func_propagate_nulls(sqe_vector *const *args, int n_args, const uint16_t *sel, uint32_t n,
                              sqe_vector *out);
/* Marks every selected row of out valid. */
void sqe_func_set_all_valid(sqe_vector *out, const uint16_t *sel, uint32_t n);

static inline bool sqe_func_row_valid(const sqe_vector *v, uint32_t row) {
    return !v->has_nulls || (v->validity[row >> 6] >> (row & 63) & 1);
}

/* ------------------------------------------------------------- strings */

static inline const char *sqe_func_str(const sqe_vector *v, uint32_t row, uint32_t *len) {
    const sqe_string *s = &SQE_VEC_DATA(v, sqe_string)[row];
    *len = s->len;
    return sqe_string_data(s);
}

/* Space for building a string result of at most `cap` bytes for one row:
 * `small` (>= SQE_STRING_INLINE bytes, caller's stack) when it fits inline,
 * else out's heap. Finish with sqe_func_str_finish. NULL when out's memory
 * account refuses the bytes (the query's memory limit): the kernel then
 * fails with sqe_func_mem_error. The same holds for sqe_vector_set_string
 * returning false. */
static inline char *sqe_func_str_begin(sqe_vector *out, size_t cap, char *small) {
    return cap <= SQE_STRING_INLINE ? small : sqe_vector_heap_alloc(out, cap);
}
/* RESOURCE_EXHAUSTED "query exceeded the memory limit of N bytes in
 * <name>": a string result did not fit the query's memory limit. */
static inline bool sqe_func_mem_error(const sqe_vector *out, const char *name, sqe_error *err) {
    return sqe_mem_account_error(out->acct, name, err);
}
static inline void sqe_func_str_finish(sqe_vector *out, uint32_t row, const char *p, size_t len) {
    SQE_VEC_DATA(out, sqe_string)[row] = sqe_string_ref(p, (uint32_t)len);
}

/* Byte length of the UTF-8 sequence starting with lead byte c (1 for
 * invalid bytes, so walking never stalls). */
static inline int sqe_utf8_len(unsigned char c) {
    if (c < 0xC0) return 1;
    if (c < 0xE0) return 2;
    if (c < 0xF0) return 3;
    return 4;
}
/* Byte offset of code point `k` (0-based) in p[0..n), or n when past it. */
size_t sqe_utf8_offset(const char *p, size_t n, size_t k);
/* Decodes one code point at p (n > 0 bytes left); *len gets its byte size.
 * Invalid bytes decode as themselves with length 1. */
uint32_t sqe_utf8_decode(const char *p, size_t n, int *len);

/* ------------------------------------------------------------- misc */

/* The registry's tables, for catalog.c: calls fn for every signature. */
void sqe_func_for_each_sig(void (*fn)(const sqe_func_sig *s, void *ctx), void *ctx);
/* "varchar, bigint, ..." (parameter kinds as the candidates list shows them). */
void sqe_func_append_params(sqe_strbuf *sb, const sqe_func_sig *s);
/* Result type of s as text ("bigint", "depends on arguments"); a thread-local buffer. */
const char *sqe_func_ret_name(const sqe_func_sig *s);

/* Type name for messages: "integer", "decimal(10,2)". */
const char *sqe_func_type_name(sqe_type t, char *buf, size_t buf_len);

/* Date/time helpers shared by datetime.c and cast.c. */
#define SQE_MICROS_PER_SECOND 1000000LL
#define SQE_MICROS_PER_DAY 86400000000LL
static inline int64_t sqe_floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
static inline int64_t sqe_floor_mod(int64_t a, int64_t b) {
    return a - sqe_floor_div(a, b) * b;
}
/* Adds n months to a day number, clamping the day to the new month's
 * length (Jan 31 + 1 month = Feb 28/29); false when the year leaves
 * +-5,000,000 (datetime.c). */
bool sqe_func_add_months(int64_t days, int64_t n, int64_t *out);

/* Decimal helpers (arith.c), used by math.c and aggregate.c. */
/* q = round_half_up(n / d) for d != 0. */
sqe_i128 sqe_func_div_round(sqe_i128 n, sqe_i128 d);
/* Computes round_half_up(a * 10^k / d) exactly with a 256-bit intermediate;
 * false when the quotient does not fit 127 bits. d != 0, 0 <= k <= 38. */
bool sqe_func_decimal_div(sqe_i128 a, int k, sqe_i128 d, sqe_i128 *out);

/* A one-argument string kernel (binary.c): for each live row whose argument
 * is not NULL, codec(bytes) writes the result into a buffer that becomes
 * the row's value (VARCHAR or VARBINARY; over 256 MiB fails naming the
 * function). A codec fails with its own error naming fn and the value. */
typedef bool (*sqe_func_str_codec)(const char *p, size_t n, sqe_strbuf *sb, const char *fn,
                                   sqe_error *err);
bool sqe_func_codec_kernel(const sqe_func_binding *b, sqe_vector *const *args, const uint16_t *sel,
                           uint32_t n, sqe_vector *out, sqe_func_str_codec codec, sqe_error *err);

#endif
