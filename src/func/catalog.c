/*
 * catalog.c - what the registry knows, for people: SHOW FUNCTIONS and the
 * "did you mean" hint of an unknown function's error.
 *
 * SHOW FUNCTIONS [LIKE 'pattern'] is generated from the same signature
 * tables the binder resolves against (registry.c walks them for us through
 * sqe_func_for_each_sig), so the listing cannot drift from what binds: one
 * row per overload with Trino's columns Function, Return Type, Argument
 * Types, Function Type (scalar / aggregate / window) and Description.
 * Aggregates and window functions are bound elsewhere (aggregate.c,
 * plan/window_bind.c) by code rather than tables, so their rows come from
 * k_other below, one row per function with the argument and result types
 * written as text.
 *
 * Descriptions are kept per name in k_desc (lookup is linear, SHOW
 * FUNCTIONS is rare; new families append their rows at the end). A name without one
 * shows an empty description. Operators (+, =, ||...) and the internal
 * names the binder rewrites sugar into (like, ilike, is_distinct_from) are
 * not listed, as in Trino.
 *
 * Suggestions: the names within a small edit distance (Levenshtein, ASCII
 * case folded, at most max(1, len/3) and at most 3 edits) of the unknown
 * name, best first, at most three.
 */
#include "func/func_int.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct fdesc {
    const char *name;
    const char *desc;
} fdesc;

/* Scalar descriptions (Trino's documentation wording, shortened). New
 * families append their rows. */
static const fdesc k_desc[] = {
    {"abs", "Absolute value of x"},
    {"cbrt", "Cube root of x"},
    {"ceil", "x rounded up to the nearest integer"},
    {"ceiling", "x rounded up to the nearest integer"},
    {"concat", "Concatenation of the arguments"},
    {"cos", "Cosine of x (radians)"},
    {"current_date", "The current date at the start of the query"},
    {"current_timestamp", "The current timestamp at the start of the query"},
    {"date", "Casts x to a date"},
    {"date_add", "Adds an interval of the given unit to a date or timestamp"},
    {"date_diff", "Whole units between two dates or timestamps"},
    {"date_trunc", "Truncates a date or timestamp to the unit"},
    {"day", "Day of the month"},
    {"day_of_month", "Day of the month"},
    {"day_of_week", "ISO day of the week (1 = Monday)"},
    {"day_of_year", "Day of the year"},
    {"dow", "ISO day of the week (1 = Monday)"},
    {"doy", "Day of the year"},
    {"e", "Euler's number"},
    {"exp", "Euler's number raised to x"},
    {"floor", "x rounded down to the nearest integer"},
    {"from_unixtime", "Timestamp from a UNIX time in seconds"},
    {"greatest", "The largest of the arguments"},
    {"hour", "Hour of the day"},
    {"infinity", "Positive infinity"},
    {"is_finite", "Whether x is finite"},
    {"is_infinite", "Whether x is infinite"},
    {"is_nan", "Whether x is not-a-number"},
    {"last_day_of_month", "Last day of the month"},
    {"least", "The smallest of the arguments"},
    {"length", "Length of the string in characters"},
    {"ln", "Natural logarithm of x"},
    {"localtimestamp", "The current timestamp at the start of the query"},
    {"log", "Logarithm of x to base b"},
    {"log10", "Base 10 logarithm of x"},
    {"log2", "Base 2 logarithm of x"},
    {"lower", "The string converted to lower case"},
    {"lpad", "Left-pads the string to size characters with padstring"},
    {"ltrim", "Removes leading whitespace (or the given characters)"},
    {"millisecond", "Millisecond of the second"},
    {"minute", "Minute of the hour"},
    {"mod", "Modulus (remainder) of n divided by m"},
    {"month", "Month of the year"},
    {"nan", "Not-a-number"},
    {"now", "The current timestamp at the start of the query"},
    {"pi", "The constant pi"},
    {"pow", "x raised to the power of p"},
    {"power", "x raised to the power of p"},
    {"quarter", "Quarter of the year"},
    {"replace", "Replaces every occurrence of search with replace"},
    {"reverse", "The string with its characters in reverse order"},
    {"round", "x rounded half away from zero (to d decimal places)"},
    {"rpad", "Right-pads the string to size characters with padstring"},
    {"rtrim", "Removes trailing whitespace (or the given characters)"},
    {"second", "Second of the minute"},
    {"sign", "Signum of x"},
    {"split_part", "Field index (1-based) of the string split on the delimiter"},
    {"sqrt", "Square root of x"},
    {"starts_with", "Whether the string starts with the prefix"},
    {"strpos", "Position (1-based) of the instance-th occurrence of substring, 0 if none"},
    {"substr", "Substring from start (1-based) of length characters"},
    {"substring", "Substring from start (1-based) of length characters"},
    {"to_unixtime", "UNIX time in seconds of a timestamp"},
    {"trim", "Removes leading and trailing whitespace (or the given characters)"},
    {"truncate", "x with its fractional part (beyond n digits) removed"},
    {"typeof", "Name of the type of the argument"},
    {"upper", "The string converted to upper case"},
    {"week", "ISO week of the year"},
    {"week_of_year", "ISO week of the year"},
    {"year", "Year"},
    {"year_of_week", "Year of the ISO week"},
    {"yow", "Year of the ISO week"},
    {"regexp_count", "Number of matches of the regular expression in the string"},
    {"regexp_extract", "First match of the regular expression (or of its group)"},
    {"regexp_extract_all", "All matches of the regular expression (needs ARRAY: not supported)"},
    {"regexp_like", "Whether the regular expression matches anywhere in the string"},
    {"regexp_position", "Position (1-based) of the n-th match at or after start, -1 if none"},
    {"regexp_replace", "Replaces every match; $g and ${name} insert groups"},
    {"regexp_split", "Splits on the regular expression (needs ARRAY: not supported)"},
    {"concat_ws", "The strings joined with the separator (NULL strings skipped)"},
    {"chr", "The character with the Unicode code point n"},
    {"codepoint", "Unicode code point of the only character of the string"},
    {"translate", "Replaces each character found in from by the one at its index in to"},
    {"levenshtein_distance", "Levenshtein edit distance of the two strings"},
    {"hamming_distance", "Positions at which two strings of equal length differ"},
    {"normalize", "Unicode normalization form NFC (default), NFD, NFKC or NFKD"},
    {"soundex", "American Soundex code of the string"},
    {"luhn_check", "Whether the string of digits passes the Luhn check"},
    {"format", "Java-style formatted string (%s %d %f %x ... subset)"},
    {"json_extract", "JSON text of the value at the JSONPath (NULL if missing)"},
    {"json_extract_scalar", "The scalar at the JSONPath as text (NULL if missing or not scalar)"},
    {"json_query", "JSON text of the item at the SQL/JSON path (lax/strict basics)"},
    {"json_value", "The scalar at the SQL/JSON path as text (lax/strict basics)"},
    {"json_exists", "Whether the SQL/JSON path finds an item (ON ERROR: argument 3)"},
    {"json_size", "Number of members or elements at the JSONPath (0 for a scalar)"},
    {"json_parse", "Validates JSON text and returns it compact"},
    {"json_format", "Compact JSON text of the JSON value"},
    {"json_array_length", "Length of the JSON array (NULL if not an array)"},
    {"json_array_contains", "Whether the JSON array contains the value"},
    {"json_array_get", "Element of the JSON array at the 0-based index (negative: from the end)"},
    {"is_json_scalar", "Whether the JSON value is a scalar"},
    {"to_hex", "Hex text (upper case) of the binary"},
    {"from_hex", "Binary from hex text"},
    {"to_utf8", "UTF-8 bytes of the string"},
    {"from_utf8", "String from UTF-8 bytes (invalid sequences replaced)"},
    {"to_base64", "Base64 text of the binary"},
    {"from_base64", "Binary from base64 text"},
    {"to_base64url", "URL-safe base64 text of the binary"},
    {"from_base64url", "Binary from URL-safe base64 text"},
    {"md5", "MD5 digest of the binary"},
    {"sha1", "SHA-1 digest of the binary"},
    {"sha256", "SHA-256 digest of the binary"},
    {"sha512", "SHA-512 digest of the binary"},
    {"xxhash64", "XXH64 hash (seed 0) of the binary, 8 bytes big-endian"},
    {"crc32", "CRC-32 of the binary"},
    {"url_extract_protocol", "Scheme of the URL"},
    {"url_extract_host", "Host of the URL"},
    {"url_extract_port", "Port of the URL (NULL if none)"},
    {"url_extract_path", "Decoded path of the URL"},
    {"url_extract_query", "Decoded query string of the URL"},
    {"url_extract_fragment", "Decoded fragment of the URL"},
    {"url_extract_parameter", "First value of the query parameter"},
    {"url_encode", "Escapes the string for a URL query parameter"},
    {"url_decode", "Unescapes a URL-encoded string"},
    {"width_bucket", "Bucket number of x in bound1..bound2 split into n equal buckets"},
    {"random", "Pseudo-random double in [0, 1), or integer in [0, n) / [m, n)"},
    {"rand", "Pseudo-random double in [0, 1), or integer in [0, n) / [m, n)"},
    {"bitwise_and", "Bitwise AND in two's complement"},
    {"bitwise_or", "Bitwise OR in two's complement"},
    {"bitwise_xor", "Bitwise XOR in two's complement"},
    {"bitwise_not", "Bitwise NOT in two's complement"},
    {"bitwise_left_shift", "value shifted left by shift bits"},
    {"bitwise_right_shift", "value shifted right by shift bits (logical)"},
    {"bitwise_right_shift_arithmetic", "value shifted right by shift bits (sign kept)"},
    {"from_base", "Integer from its text in the radix"},
    {"to_base", "Text of the integer in the radix"},
};

typedef struct fother {
    const char *name, *ret, *args, *kind, *desc;
} fother;

static const fother k_other[] = {
    {"approx_distinct", "bigint", "T", "aggregate", "Number of distinct non-null values"},
    {"arbitrary", "T", "T", "aggregate", "An arbitrary non-null value of the group"},
    {"any_value", "T", "T", "aggregate", "An arbitrary non-null value of the group"},
    {"avg", "double | decimal(p,s)", "T", "aggregate", "Average of the non-null values"},
    {"bool_and", "boolean", "boolean", "aggregate", "TRUE if every value is TRUE"},
    {"bool_or", "boolean", "boolean", "aggregate", "TRUE if any value is TRUE"},
    {"count", "bigint", "T", "aggregate", "Number of non-null values (count(*): rows)"},
    {"count_if", "bigint", "boolean", "aggregate", "Number of TRUE values"},
    {"every", "boolean", "boolean", "aggregate", "TRUE if every value is TRUE"},
    {"max", "T", "T", "aggregate", "Maximum value"},
    {"min", "T", "T", "aggregate", "Minimum value"},
    {"stddev", "double", "double", "aggregate", "Sample standard deviation"},
    {"stddev_pop", "double", "double", "aggregate", "Population standard deviation"},
    {"stddev_samp", "double", "double", "aggregate", "Sample standard deviation"},
    {"sum", "bigint | double | decimal(38,s)", "T", "aggregate", "Sum of the non-null values"},
    {"var_pop", "double", "double", "aggregate", "Population variance"},
    {"var_samp", "double", "double", "aggregate", "Sample variance"},
    {"variance", "double", "double", "aggregate", "Sample variance"},
    {"cume_dist", "double", "", "window", "Cumulative distribution of the row in its partition"},
    {"dense_rank", "bigint", "", "window", "Rank without gaps"},
    {"first_value", "T", "T", "window", "Value at the first row of the frame"},
    {"lag", "T", "T, bigint, T", "window", "Value offset rows before the current row"},
    {"last_value", "T", "T", "window", "Value at the last row of the frame"},
    {"lead", "T", "T, bigint, T", "window", "Value offset rows after the current row"},
    {"nth_value", "T", "T, bigint", "window", "Value at the n-th row of the frame"},
    {"ntile", "bigint", "bigint", "window", "Bucket number 1..n of the row"},
    {"percent_rank", "double", "", "window", "(rank - 1) / (rows in partition - 1)"},
    {"rank", "bigint", "", "window", "Rank with gaps"},
    {"row_number", "bigint", "", "window", "Sequential number of the row in its partition"},
    {"coalesce", "T", "T, ...", "scalar",
     "The first non-null argument (later ones evaluated only if needed)"},
    {"if", "T", "boolean, T[, T]", "scalar",
     "The second argument if the condition is true, else the third"},
    {"nullif", "T", "T, T", "scalar", "NULL if the arguments are equal, else the first"},
    {"try", "T", "T", "scalar",
     "The value, or NULL where it fails with a data error (division by zero, bad cast, out of "
     "range, invalid argument)"},
};

static const char *const k_hidden[] = {"like", "ilike", "is_distinct_from"};

static const char *desc_of(const char *name) {
    for (size_t i = 0; i < SQE_ARRAY_LEN(k_desc); i++)
        if (strcmp(k_desc[i].name, name) == 0) return k_desc[i].desc;
    return "";
}

static bool listed(const char *name) {
    if (!((name[0] >= 'a' && name[0] <= 'z') || name[0] == '_')) return false;
    for (size_t i = 0; i < SQE_ARRAY_LEN(k_hidden); i++)
        if (strcmp(k_hidden[i], name) == 0) return false;
    return true;
}

/* ------------------------------------------------------- SHOW FUNCTIONS */

typedef struct show_row {
    char *name, *ret, *args;
    const char *kind, *desc;
} show_row;

typedef struct show_ctx {
    const char *like;
    SQE_ARRAY(show_row) rows;
} show_ctx;

static bool show_match(const show_ctx *cx, const char *name) {
    return !cx->like || sqe_like_match(name, strlen(name), cx->like, strlen(cx->like), 0, false);
}

static void show_add_sig(const sqe_func_sig *s, void *ctx) {
    show_ctx *cx = ctx;
    if (!listed(s->name) || !show_match(cx, s->name)) return;
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    sqe_func_append_params(&sb, s);
    show_row r = {sqe_strdup(s->name), sqe_strdup(sqe_func_ret_name(s)), sqe_strbuf_detach(&sb),
                  "scalar", desc_of(s->name)};
    if (!r.args) r.args = sqe_strdup("");
    SQE_ARRAY_PUSH(NULL, cx->rows, r);
}

static int show_cmp(const void *a, const void *b) {
    const show_row *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c) return c;
    c = strcmp(x->kind, y->kind);
    return c ? c : strcmp(x->args, y->args);
}

bool sqe_func_show(const char *like, sqe_resultset **out, sqe_error *err) {
    show_ctx cx = {like, {0}};
    sqe_func_for_each_sig(show_add_sig, &cx);
    for (size_t i = 0; i < SQE_ARRAY_LEN(k_other); i++) {
        const fother *o = &k_other[i];
        if (!show_match(&cx, o->name)) continue;
        show_row r = {sqe_strdup(o->name), sqe_strdup(o->ret), sqe_strdup(o->args), o->kind,
                      o->desc};
        SQE_ARRAY_PUSH(NULL, cx.rows, r);
    }
    if (cx.rows.len) qsort(cx.rows.items, cx.rows.len, sizeof(show_row), show_cmp);
    static const char *const names[] = {"Function", "Return Type", "Argument Types",
                                        "Function Type", "Description"};
    sqe_type types[5];
    for (int i = 0; i < 5; i++) types[i] = sqe_type_make(SQE_T_VARCHAR);
    *out = sqe_resultset_new(5, names, types);
    for (size_t i = 0; i < cx.rows.len; i++) {
        show_row *r = &cx.rows.items[i];
        const char *row[5] = {r->name, r->ret, r->args, r->kind, r->desc};
        /* Overloads that print alike (decimal(p,s) twice) show once. */
        bool dup = i > 0 && show_cmp(r, &cx.rows.items[i - 1]) == 0 &&
                   strcmp(r->ret, cx.rows.items[i - 1].ret) == 0;
        if (!dup) sqe_resultset_add_text_row(*out, row);
    }
    for (size_t i = 0; i < cx.rows.len; i++) {
        sqe_free(cx.rows.items[i].name);
        sqe_free(cx.rows.items[i].ret);
        sqe_free(cx.rows.items[i].args);
    }
    SQE_ARRAY_FREE(cx.rows);
    (void)err;
    return true;
}

/* ---------------------------------------------------------- suggestions */

static inline char fold(char c) {
    return c >= 'A' && c <= 'Z' ? (char)(c + 32) : c;
}

/* Levenshtein distance of a and b (ASCII case folded), capped at cap + 1. */
static int edit_distance(const char *a, const char *b, int cap) {
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64) return cap + 1;
    int row[65];
    for (size_t j = 0; j <= lb; j++) row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = row[0], best = (int)i;
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j];
            int cost = fold(a[i - 1]) == fold(b[j - 1]) ? 0 : 1;
            int v = SQE_MIN(SQE_MIN(up + 1, row[j - 1] + 1), diag + cost);
            row[j] = v;
            diag = up;
            best = SQE_MIN(best, v);
        }
        if (best > cap) return cap + 1;
    }
    return row[lb];
}

typedef struct sugg_ctx {
    const char *name;
    int cap;
    const char *best[3];
    int dist[3];
} sugg_ctx;

static void sugg_offer(sugg_ctx *cx, const char *cand) {
    if (!listed(cand)) return;
    for (int i = 0; i < 3; i++)
        if (cx->best[i] && strcmp(cx->best[i], cand) == 0) return;
    int d = edit_distance(cx->name, cand, cx->cap);
    if (d > cx->cap) return;
    for (int i = 0; i < 3; i++) {
        if (cx->best[i] && cx->dist[i] <= d) continue;
        for (int k = 2; k > i; k--) {
            cx->best[k] = cx->best[k - 1];
            cx->dist[k] = cx->dist[k - 1];
        }
        cx->best[i] = cand;
        cx->dist[i] = d;
        return;
    }
}

static void sugg_sig(const sqe_func_sig *s, void *ctx) {
    sugg_offer(ctx, s->name);
}

size_t sqe_func_suggest(const char *name, char *buf, size_t buf_len) {
    size_t len = strlen(name);
    sugg_ctx cx = {name, (int)SQE_MIN(3, SQE_MAX(1, len / 3)), {0}, {0}};
    sqe_func_for_each_sig(sugg_sig, &cx);
    for (size_t i = 0; i < SQE_ARRAY_LEN(k_other); i++) sugg_offer(&cx, k_other[i].name);
    size_t w = 0;
    if (buf_len) buf[0] = '\0';
    for (int i = 0; i < 3 && cx.best[i]; i++) {
        int k = snprintf(buf + w, buf_len - w, "%s%s", i ? ", " : "", cx.best[i]);
        if (k < 0 || (size_t)k >= buf_len - w) break;
        w += (size_t)k;
    }
    return w;
}
