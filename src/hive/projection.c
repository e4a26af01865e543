/*
 * projection.c - Athena partition projection (SPEC §7): the partitions of a
 * table with TBLPROPERTIES 'projection.enabled'='true' are computed from
 * its properties at plan time, never discovered by listing LOCATION.
 *
 * Configuration (hive_projection_build, run by manifest validation at
 * CREATE and on every load, and again when a table is built, so a manifest
 * that validates always builds): one pj_key per partition key, by
 * `projection.<key>.type`:
 *   enum      `values` comma-separated, kept as written (white space is
 *             part of a value, as in Athena); each must parse as the key's
 *             type.
 *   integer   `range` "a,b" (inclusive, signed 64-bit, spaces trimmed),
 *             `interval` (default 1), `digits` (zero padding of the text).
 *   date      `range` "a,b", each an absolute date in `format` or NOW
 *             arithmetic `NOW[(+|-)<n><unit>]` (unit YEARS .. SECONDS,
 *             singular accepted), evaluated in UTC when the partitions are
 *             computed; `format` a Joda/Java pattern (func/'s compiler);
 *             `interval` (default 1) and `interval.unit` (default the
 *             format's finest field when that is YEARS, MONTHS or DAYS;
 *             required for a finer format).
 *   injected  values only from an equality or IN on the key in the query;
 *             without one, the key's NULL partition (SPEC §7.2)
 *             (hive_projection_partitions fails without one, as Athena
 *             does: CONSTRAINT_VIOLATION there, USAGE here).
 * `storage.location.template` ('${key}' placeholders, each key once or
 * more, nothing else; values substituted as written; in the store of
 * LOCATION, since a table is read through one store) gives a partition's
 * folder; without it the folder is `<LOCATION>/k=v/...` with Hive's path
 * escaping.
 *
 * Candidates. Each non-enum key is an arithmetic sequence of steps
 * 0..last (value(k) computed in O(1), never stored). Pruning happens before
 * anything is materialized: when the typed values of a key ascend with k
 * (`monotone`: integer and date keys, and string keys whose text sorts as
 * the value does: fixed-width zero-padded non-negative integers, date
 * formats like yyyy-MM-dd or yyyy/MM/dd/HH), sqe_hive_prune_key_bounds'
 * range becomes a step range by binary search, so a ten-year daily range
 * with a one-day predicate visits one step. A date key whose text does not
 * sort (dd-MM-yyyy) still narrows an equality: the literal parsed with the
 * format names the one step that can print it. Then the cross product is
 * walked level by level, each candidate value checked with
 * sqe_hive_prune_admits before the next level is entered. The walk stops
 * with RESOURCE_EXHAUSTED when it would return more than
 * HIVE_PROJECTION_MAX_PARTITIONS partitions (Athena's limit) or visit more
 * than HIVE_PROJECTION_MAX_VISITS candidates.
 *
 * Without a predicate, a cross product over the partition limit is refused
 * before anything is built.
 *
 * Dates are seconds since the epoch (UTC) here; a NOW end is truncated to
 * the format's finest field (NOW-2DAYS with a daily format is that day's
 * midnight), so NOW-2DAYS,NOW is three days; absolute ends are the dates
 * written. Steps in months or years are added to the start (Java's
 * plusMonths: 2024-01-31 + 1 month = 2024-02-29), not chained.
 *
 * Memory: the configuration is malloc'd (hive_projection_free); partitions
 * and their strings live in the caller's arena.
 */
#include "func/func.h"
#include "hive/hive_int.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef enum { PJ_ENUM, PJ_INTEGER, PJ_DATE, PJ_INJECTED } pj_type;

typedef enum {
    PJ_YEARS = 0,
    PJ_MONTHS,
    PJ_WEEKS,
    PJ_DAYS,
    PJ_HOURS,
    PJ_MINUTES,
    PJ_SECONDS,
    PJ_UNIT_NONE
} pj_unit;

static const char *const k_units[] = {"YEARS", "MONTHS",  "WEEKS",  "DAYS",
                                      "HOURS", "MINUTES", "SECONDS"};
static const int64_t k_unit_secs[] = {0, 0, 7 * 86400, 86400, 3600, 60, 1};

/* One end of a date range: an absolute instant, or NOW + n units. */
typedef struct pj_end {
    bool now;
    int64_t secs; /* absolute */
    int64_t n;    /* NOW offset */
    pj_unit unit;
} pj_end;

typedef struct pj_key {
    pj_type type;
    char *name;     /* the partition key, lower-case */
    sqe_type ktype; /* the key's declared type */
    int n_values;   /* enum */
    char **values;
    int64_t lo, hi;    /* integer range */
    uint64_t interval; /* integer, date */
    int digits;        /* integer: 0 = no padding */
    sqe_joda_pattern *fmt;
    char *fmt_text;
    pj_end start, end;
    pj_unit unit; /* date step unit */
    pj_unit res;  /* date: the format's finest field */
    bool monotone;
} pj_key;

struct hive_projection {
    int n_keys;
    pj_key *keys;
    char *template_; /* NULL: <LOCATION>/k=v/ */
};

/* ------------------------------------------------------------ errors */

typedef struct pj_where {
    const char *mpath; /* NULL at CREATE */
    sqe_error *err;
} pj_where;

static bool pj_fail(const pj_where *w, const char *prop, const char *fmt, ...) SQE_PRINTF(3, 4);
static bool pj_fail(const pj_where *w, const char *prop, const char *fmt, ...) {
    char body[SQE_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    if (w->mpath)
        return sqe_error_set(w->err, SQE_ERR_HIVE_EXTERNAL, "manifest '%s': Parameters.%s: %s",
                             w->mpath, prop, body);
    return sqe_error_set(w->err, SQE_ERR_HIVE_EXTERNAL, "TBLPROPERTIES '%s': %s", prop, body);
}

void hive_projection_free(hive_projection *p) {
    if (!p) return;
    for (int i = 0; i < p->n_keys; i++) {
        pj_key *k = &p->keys[i];
        sqe_free(k->name);
        for (int j = 0; j < k->n_values; j++) sqe_free(k->values[j]);
        sqe_free(k->values);
        sqe_joda_free(k->fmt);
        sqe_free(k->fmt_text);
    }
    sqe_free(p->keys);
    sqe_free(p->template_);
    sqe_free(p);
}

/* ------------------------------------------------------------ dates */

static int64_t pj_floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static int pj_month_days(int y, int m) {
    static const int d[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 && leap ? 29 : d[m - 1];
}

/* `secs` plus `months` calendar months, the day clamped to the month's
 * length (Java's plusMonths). */
static int64_t pj_add_months(int64_t secs, int64_t months) {
    int64_t days = pj_floor_div(secs, 86400), tod = secs - days * 86400;
    int y, m, d;
    sqe_date_to_ymd((int32_t)days, &y, &m, &d);
    int64_t total = (int64_t)y * 12 + (m - 1) + months;
    int ny = (int)pj_floor_div(total, 12), nm = (int)(total - (int64_t)ny * 12) + 1;
    int nd = SQE_MIN(d, pj_month_days(ny, nm));
    return (int64_t)sqe_date_from_ymd(ny, nm, nd) * 86400 + tod;
}

static int64_t pj_add(int64_t secs, int64_t n, pj_unit u) {
    if (u == PJ_YEARS) return pj_add_months(secs, n * 12);
    if (u == PJ_MONTHS) return pj_add_months(secs, n);
    return secs + n * k_unit_secs[u];
}

/* Truncates to the start of its unit (weeks: days). */
static int64_t pj_trunc(int64_t secs, pj_unit u) {
    int64_t days = pj_floor_div(secs, 86400);
    int y, m, d;
    switch (u) {
    case PJ_YEARS:
    case PJ_MONTHS:
        sqe_date_to_ymd((int32_t)days, &y, &m, &d);
        return (int64_t)sqe_date_from_ymd(y, u == PJ_YEARS ? 1 : m, 1) * 86400;
    case PJ_WEEKS:
    case PJ_DAYS:
        return days * 86400;
    case PJ_HOURS:
        return pj_floor_div(secs, 3600) * 3600;
    case PJ_MINUTES:
        return pj_floor_div(secs, 60) * 60;
    default:
        return secs;
    }
}

static bool pj_unit_word(const char *s, size_t n, pj_unit *out) {
    for (int u = 0; u < PJ_UNIT_NONE; u++) {
        size_t l = strlen(k_units[u]);
        /* plural as Athena writes it, or the singular */
        if ((n == l || n == l - 1) && sqe_str_ieqn(s, k_units[u], n)) {
            *out = (pj_unit)u;
            return true;
        }
    }
    return false;
}

/* "NOW", "NOW-3YEARS", "NOW+1DAYS" (case-insensitive). */
static bool pj_parse_now(const char *s, size_t n, pj_end *out) {
    if (n < 3 || !sqe_str_ieqn(s, "NOW", 3)) return false;
    out->now = true;
    out->n = 0;
    out->unit = PJ_DAYS;
    if (n == 3) return true;
    if (s[3] != '+' && s[3] != '-') return false;
    size_t i = 4, digits = 0;
    int64_t v = 0;
    while (i < n && isdigit((unsigned char)s[i]) && digits < 9)
        v = v * 10 + (s[i++] - '0'), digits++;
    if (!digits || !pj_unit_word(s + i, n - i, &out->unit)) return false;
    /* at most 10,000 years either way: keeps every date in range */
    static const int64_t approx_secs[] = {366 * 86400, 31 * 86400, 7 * 86400, 86400, 3600, 60, 1};
    if (v > 10000LL * 366 * 86400 / approx_secs[out->unit]) return false;
    out->n = s[3] == '-' ? -v : v;
    return true;
}

static int64_t pj_end_secs(const pj_end *e, int64_t now, pj_unit res) {
    if (!e->now) return e->secs;
    return pj_trunc(pj_add(now, e->n, e->unit), res);
}

/* The finest field of a Joda pattern (letters outside quotes), and whether
 * its text sorts as the instant does: fields y M d H m s in that order,
 * each the next finer one, fixed width (yyyy, then two letters each). */
static void pj_pattern_shape(const char *f, pj_unit *res, bool *monotone) {
    static const char order[] = "yMdHms";
    *res = PJ_UNIT_NONE;
    *monotone = true;
    int next = 0;
    for (size_t i = 0; f[i];) {
        if (f[i] == '\'') {
            const char *q = strchr(f + i + 1, '\'');
            i = q ? (size_t)(q - f) + 1 : strlen(f);
            continue;
        }
        if (!isalpha((unsigned char)f[i])) {
            i++;
            continue;
        }
        char c = f[i];
        size_t cnt = 0;
        while (f[i] == c) i++, cnt++;
        pj_unit u = PJ_UNIT_NONE;
        if (c == 'y' || c == 'Y' || c == 'x')
            u = PJ_YEARS;
        else if (c == 'M')
            u = PJ_MONTHS;
        else if (c == 'd' || c == 'D' || c == 'e' || c == 'E')
            u = PJ_DAYS;
        else if (c == 'H' || c == 'k' || c == 'K' || c == 'h')
            u = PJ_HOURS;
        else if (c == 'm')
            u = PJ_MINUTES;
        else if (c == 's' || c == 'S')
            u = PJ_SECONDS;
        if (u != PJ_UNIT_NONE && (*res == PJ_UNIT_NONE || u > *res)) *res = u;
        const char *pos = strchr(order, c);
        if (!pos || pos - order != next || cnt != (next == 0 ? 4u : 2u)) *monotone = false;
        next++;
    }
    if (*res == PJ_UNIT_NONE) *monotone = false;
}

/* ------------------------------------------------------------ typing */

/* Text as a value of the key type (VARCHAR points into s), by the rules
 * of listed partition folders (hive_part_value, partitions.c). */
static bool pj_typed(sqe_type t, const char *s, size_t n, sqe_value *out) {
    sqe_hive_column key = {.name = "", .type = t};
    return hive_part_value(&key, s, n, out);
}

static const char *pj_type_name(sqe_type t) {
    switch (t.id) {
    case SQE_T_VARCHAR:
        return "string";
    case SQE_T_INTEGER:
        return "int";
    case SQE_T_BIGINT:
        return "bigint";
    case SQE_T_DATE:
        return "date";
    default:
        return "other";
    }
}

/* ------------------------------------------------------------ building */

static const char *pj_param(const hive_manifest *m, const char *key, const char *prop,
                            char *name_buf, size_t name_len) {
    snprintf(name_buf, name_len, "projection.%s.%s", key, prop);
    for (size_t i = 0; i < m->params.len; i++)
        if (sqe_str_ieq(m->params.items[i].key, name_buf)) {
            snprintf(name_buf, name_len, "%s", m->params.items[i].key);
            return m->params.items[i].value;
        }
    return NULL;
}

static void pj_trim(const char **s, size_t *n) {
    while (*n && isspace((unsigned char)**s)) (*s)++, (*n)--;
    while (*n && isspace((unsigned char)(*s)[*n - 1])) (*n)--;
}

/* "a,b" -> two trimmed parts; false unless exactly one comma. */
static bool pj_split2(const char *v, const char **a, size_t *an, const char **b, size_t *bn) {
    const char *comma = strchr(v, ',');
    if (!comma || strchr(comma + 1, ',')) return false;
    *a = v, *an = (size_t)(comma - v);
    *b = comma + 1, *bn = strlen(comma + 1);
    pj_trim(a, an);
    pj_trim(b, bn);
    return *an > 0 && *bn > 0;
}

/* interval / digits: a whole number 1..999999999 (spaces trimmed). */
static bool pj_count(const char *v, uint64_t *out) {
    size_t n = strlen(v);
    pj_trim(&v, &n);
    int64_t x;
    if (!n || n > 12 || !sqe_parse_int64(v, n, &x) || x < 1 || x > 999999999) return false;
    *out = (uint64_t)x;
    return true;
}

static bool pj_build_enum(const hive_manifest *m, pj_key *k, const pj_where *w) {
    char prop[400];
    const char *v = pj_param(m, k->name, "values", prop, sizeof prop);
    if (!v) return pj_fail(w, prop, "an enum projection of partition key '%s' needs it", k->name);
    for (const char *p = v;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        sqe_value tv;
        if (!pj_typed(k->ktype, p, n, &tv))
            return pj_fail(w, prop, "value '%.*s' is not a valid %s for partition key '%s'",
                           (int)SQE_MIN(n, 200), p, pj_type_name(k->ktype), k->name);
        k->values = sqe_realloc(k->values, sizeof(char *) * (size_t)(k->n_values + 1));
        k->values[k->n_values++] = sqe_strndup(p, n);
        if (!comma) break;
        p = comma + 1;
    }
    return true;
}

static bool pj_build_integer(const hive_manifest *m, pj_key *k, const pj_where *w) {
    char prop[400];
    if (k->ktype.id == SQE_T_DATE)
        return pj_fail(w, pj_param(m, k->name, "type", prop, sizeof prop) ? prop : "type",
                       "an integer projection of partition key '%s' needs an int, bigint or "
                       "string key, not date",
                       k->name);
    const char *v = pj_param(m, k->name, "range", prop, sizeof prop);
    if (!v)
        return pj_fail(w, prop, "an integer projection of partition key '%s' needs it", k->name);
    const char *a, *b;
    size_t an, bn;
    if (!pj_split2(v, &a, &an, &b, &bn) || !sqe_parse_int64(a, an, &k->lo) ||
        !sqe_parse_int64(b, bn, &k->hi))
        return pj_fail(w, prop, "invalid range '%s': expected '<first>,<last>', two integers", v);
    if (k->lo > k->hi)
        return pj_fail(w, prop, "invalid range '%s': the first value is above the last", v);
    if (k->ktype.id == SQE_T_INTEGER && (k->lo < INT32_MIN || k->hi > INT32_MAX))
        return pj_fail(w, prop, "range '%s' does not fit partition key '%s' of type int", v,
                       k->name);
    uint64_t d = 0;
    k->interval = 1;
    if ((v = pj_param(m, k->name, "interval", prop, sizeof prop)) && !pj_count(v, &k->interval))
        return pj_fail(w, prop, "invalid interval '%s': expected an integer from 1 to 999999999",
                       v);
    if ((v = pj_param(m, k->name, "digits", prop, sizeof prop)) && (!pj_count(v, &d) || d > 20))
        return pj_fail(w, prop, "invalid digits '%s': expected an integer from 1 to 20", v);
    k->digits = (int)d;
    char hi[32];
    int hi_w = snprintf(hi, sizeof hi, "%lld", (long long)k->hi);
    k->monotone = k->ktype.id != SQE_T_VARCHAR || (k->lo >= 0 && k->digits >= hi_w);
    return true;
}

/* One end of a date range: NOW arithmetic or a date in the format. */
static bool pj_date_end(pj_key *k, const char *s, size_t n, const char *prop, const char *range,
                        pj_end *out, const pj_where *w) {
    if (n >= 3 && sqe_str_ieqn(s, "NOW", 3)) {
        if (!pj_parse_now(s, n, out))
            return pj_fail(w, prop,
                           "invalid range '%s': '%.*s' is not NOW, NOW+<n><unit> or "
                           "NOW-<n><unit> (unit YEARS, MONTHS, WEEKS, DAYS, HOURS, MINUTES or "
                           "SECONDS; at most 10000 years)",
                           range, (int)SQE_MIN(n, 100), s);
        return true;
    }
    int64_t us;
    sqe_error perr;
    sqe_error_clear(&perr);
    if (!sqe_joda_parse(k->fmt, "projection", s, n, &us, &perr))
        return pj_fail(w, prop, "invalid range '%s': '%.*s' does not match format '%s' (%s)", range,
                       (int)SQE_MIN(n, 100), s, k->fmt_text, perr.msg);
    out->now = false;
    out->secs = pj_floor_div(us, 1000000);
    return true;
}

static bool pj_date_format(const hive_manifest *m, pj_key *k, const pj_where *w) {
    char prop[400];
    const char *v = pj_param(m, k->name, "format", prop, sizeof prop);
    if (!v) return pj_fail(w, prop, "a date projection of partition key '%s' needs it", k->name);
    sqe_error perr;
    sqe_error_clear(&perr);
    if (!(k->fmt = sqe_joda_compile(v, &perr)))
        return pj_fail(w, prop, "invalid date format '%s': %s", v, perr.msg);
    k->fmt_text = sqe_strdup(v);
    bool mono;
    pj_pattern_shape(v, &k->res, &mono);
    if (k->res == PJ_UNIT_NONE)
        return pj_fail(w, prop, "date format '%s' has no year, month, day or time field", v);
    k->monotone = k->ktype.id == SQE_T_DATE || mono;
    k->interval = 1;
    if ((v = pj_param(m, k->name, "interval", prop, sizeof prop)) && !pj_count(v, &k->interval))
        return pj_fail(w, prop, "invalid interval '%s': expected an integer from 1 to 999999999",
                       v);
    if ((v = pj_param(m, k->name, "interval.unit", prop, sizeof prop))) {
        size_t n = strlen(v);
        pj_trim(&v, &n);
        if (!pj_unit_word(v, n, &k->unit) || n != strlen(k_units[k->unit]))
            return pj_fail(w, prop,
                           "invalid interval.unit '%s': expected YEARS, MONTHS, WEEKS, DAYS, "
                           "HOURS, MINUTES or SECONDS",
                           v);
    } else if (k->res == PJ_YEARS || k->res == PJ_MONTHS || k->res == PJ_DAYS) {
        k->unit = k->res;
    } else {
        return pj_fail(w, prop,
                       "a date projection of partition key '%s' with format '%s' (finer than a "
                       "day) needs it: set it to HOURS, MINUTES or SECONDS",
                       k->name, k->fmt_text);
    }
    return true;
}

static bool pj_build_date(const hive_manifest *m, pj_key *k, const pj_where *w) {
    if (!pj_date_format(m, k, w)) return false;
    char prop[400];
    const char *v = pj_param(m, k->name, "range", prop, sizeof prop);
    if (!v) return pj_fail(w, prop, "a date projection of partition key '%s' needs it", k->name);
    const char *a, *b;
    size_t an, bn;
    if (!pj_split2(v, &a, &an, &b, &bn))
        return pj_fail(w, prop, "invalid range '%s': expected '<start>,<end>'", v);
    if (!pj_date_end(k, a, an, prop, v, &k->start, w) ||
        !pj_date_end(k, b, bn, prop, v, &k->end, w))
        return false;
    /* text sorts like the date only while years print as four digits */
    const int64_t y0 = (int64_t)sqe_date_from_ymd(0, 1, 1) * 86400,
                  y10k = (int64_t)sqe_date_from_ymd(10000, 1, 1) * 86400;
    if ((!k->start.now && (k->start.secs < y0 || k->start.secs >= y10k)) ||
        (!k->end.now && (k->end.secs < y0 || k->end.secs >= y10k)))
        k->monotone = k->ktype.id == SQE_T_DATE;
    /* reversed: certain when both ends are absolute or both are NOW-relative */
    if (k->start.now == k->end.now &&
        pj_end_secs(&k->start, 0, k->res) > pj_end_secs(&k->end, 0, k->res))
        return pj_fail(w, prop, "invalid range '%s': the start is after the end", v);
    return true;
}

static bool pj_build_key(const hive_manifest *m, int ki, pj_key *k, const pj_where *w) {
    char prop[400];
    k->name = sqe_strdup(m->part_keys[ki].name);
    k->ktype = m->part_keys[ki].type;
    const char *type = pj_param(m, k->name, "type", prop, sizeof prop);
    if (!type)
        return pj_fail(w, prop, "projection.enabled is true but partition key '%s' has no type",
                       k->name);
    size_t tn = strlen(type);
    pj_trim(&type, &tn);
    if (k->ktype.id != SQE_T_VARCHAR && k->ktype.id != SQE_T_INTEGER &&
        k->ktype.id != SQE_T_BIGINT && k->ktype.id != SQE_T_DATE)
        return pj_fail(w, prop, "partition key '%s' has a type projection does not support",
                       k->name);
    if (tn == 4 && sqe_str_ieqn(type, "enum", 4)) {
        k->type = PJ_ENUM;
        return pj_build_enum(m, k, w);
    }
    if (tn == 7 && sqe_str_ieqn(type, "integer", 7)) {
        k->type = PJ_INTEGER;
        return pj_build_integer(m, k, w);
    }
    if (tn == 4 && sqe_str_ieqn(type, "date", 4)) {
        k->type = PJ_DATE;
        return pj_build_date(m, k, w);
    }
    if (tn == 8 && sqe_str_ieqn(type, "injected", 8)) {
        k->type = PJ_INJECTED;
        return true;
    }
    return pj_fail(w, prop,
                   "unknown projection type '%s': expected enum, integer, date or injected", type);
}

/* The store a URL is served by, for comparing a template with LOCATION:
 * "s3://bucket" (any other scheme: up to its first '/' after "://"), or
 * "" for local paths. */
static size_t pj_store_prefix(const char *url) {
    const char *sep = strstr(url, "://");
    if (!sep || sqe_str_ieqn(url, "file:", 5)) return 0;
    const char *slash = strchr(sep + 3, '/');
    return slash ? (size_t)(slash - url) : strlen(url);
}

/* storage.location.template: `${key}` placeholders naming partition keys,
 * each key at least once; the text before them absolute like LOCATION. */
static bool pj_template(const hive_manifest *m, hive_projection *p, const char *tpl,
                        const pj_where *w) {
    const char *prop = "storage.location.template";
    bool *seen = sqe_calloc((size_t)m->n_part_keys + 1, sizeof *seen);
    bool ok = true;
    for (const char *s = strstr(tpl, "${"); s && ok; s = strstr(s, "${")) {
        const char *close = strchr(s, '}');
        if (!close) {
            ok = pj_fail(w, prop, "template '%s' has '${' without a closing '}'", tpl);
            break;
        }
        int found = -1;
        size_t n = (size_t)(close - s - 2);
        for (int i = 0; i < m->n_part_keys; i++)
            if (strlen(m->part_keys[i].name) == n && sqe_str_ieqn(m->part_keys[i].name, s + 2, n))
                found = i;
        if (found < 0)
            ok = pj_fail(w, prop, "placeholder '${%.*s}' in template '%s' is not a partition key",
                         (int)SQE_MIN(n, 200), s + 2, tpl);
        else
            seen[found] = true;
        s = close + 1;
    }
    for (int i = 0; ok && i < m->n_part_keys; i++)
        if (!seen[i])
            ok = pj_fail(w, prop,
                         "template '%s' has no '${%s}': every partition key must appear in it, "
                         "or partitions with different values would read the same folder",
                         tpl, m->part_keys[i].name);
    sqe_free(seen);
    if (!ok) return false;
    const char *why = NULL;
    char *norm = hive_location_normalize(tpl, &why);
    if (!norm) return pj_fail(w, prop, "template '%s' %s", tpl, why);
    /* sqe reads a table through one store: the one serving LOCATION */
    const char *loc = m->location ? m->location : "";
    size_t tn = pj_store_prefix(norm), ln = pj_store_prefix(loc);
    if (tn != ln || !sqe_str_ieqn(norm, loc, tn)) {
        bool bad = pj_fail(w, prop,
                           "template '%s' is not in the store of LOCATION '%s': sqe reads a "
                           "table's partitions through the store (local disk or bucket) of its "
                           "LOCATION",
                           tpl, loc);
        sqe_free(norm);
        return bad;
    }
    size_t n = strlen(norm);
    p->template_ = n && norm[n - 1] == '/' ? norm : sqe_asprintf("%s/", norm);
    if (p->template_ != norm) sqe_free(norm);
    return true;
}

bool hive_projection_build(const hive_manifest *m, const char *mpath, hive_projection **out,
                           sqe_error *err) {
    *out = NULL;
    const char *on = hive_kv_get(&m->params, "projection.enabled");
    if (!on || !sqe_str_ieq(on, "true") || m->n_part_keys == 0 || m->is_view) return true;
    pj_where w = {mpath, err};
    hive_projection *p = sqe_calloc(1, sizeof *p);
    p->keys = sqe_calloc((size_t)m->n_part_keys, sizeof *p->keys);
    p->n_keys = m->n_part_keys;
    bool ok = true;
    for (int i = 0; ok && i < m->n_part_keys; i++) ok = pj_build_key(m, i, &p->keys[i], &w);
    const char *tpl = hive_kv_get(&m->params, "storage.location.template");
    if (ok && tpl) ok = pj_template(m, p, tpl, &w);
    if (!ok) {
        hive_projection_free(p);
        return false;
    }
    *out = p;
    return true;
}

/* ------------------------------------------------------------ candidates */

/* The steps of one key that survive its bounds: [klo, khi] of 0..last,
 * or the injected values. */
typedef struct pj_level {
    bool empty;
    uint64_t last, klo, khi;
    int64_t start; /* integer: lo; date: start instant (seconds) */
    int n_inj;
    sqe_value *inj;
} pj_level;

typedef struct pj_walk {
    const hive_projection *p;
    const sqe_hive_table *t;
    const sqe_hive_prune *prune;
    sqe_arena *arena;
    pj_level *lv;
    sqe_value *vals;
    const char **texts;
    uint64_t visits, considered, pruned;
    SQE_ARRAY(sqe_hive_partition) out; /* arena-backed */
    sqe_error *err;
} pj_walk;

/* Text of a typed injected value, as it appears in a folder name. */
static const char *pj_value_text(sqe_arena *a, const sqe_value *v) {
    if (v->type.id == SQE_T_VARCHAR) return sqe_arena_strndup(a, v->v.s.ptr, v->v.s.len);
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    sqe_value_format(v, &sb);
    const char *s = sqe_arena_strdup(a, sb.data ? sb.data : "");
    sqe_strbuf_free(&sb);
    return s;
}

/* Candidate `i` of level `L`: its typed value and its text. */
static bool pj_candidate(pj_walk *w, int L, uint64_t i, sqe_value *val, const char **text) {
    const pj_key *k = &w->p->keys[L];
    const pj_level *lv = &w->lv[L];
    char buf[64];
    switch (k->type) {
    case PJ_ENUM:
        *text = sqe_arena_strdup(w->arena, k->values[i]);
        break;
    case PJ_INJECTED:
        *val = lv->inj[i];
        if (val->is_null) {
            *text = "__HIVE_DEFAULT_PARTITION__";
            return true;
        }
        *text = pj_value_text(w->arena, val);
        if (val->type.id == SQE_T_VARCHAR) val->v.s.ptr = *text; /* the arena's copy */
        return true;
    case PJ_INTEGER: {
        int64_t v = (int64_t)((uint64_t)lv->start + i * k->interval);
        if (k->ktype.id != SQE_T_VARCHAR) {
            *val = sqe_value_int(k->ktype.id, v);
            snprintf(buf, sizeof buf, "%0*lld", k->digits, (long long)v);
            *text = sqe_arena_strdup(w->arena, buf);
            return true;
        }
        snprintf(buf, sizeof buf, "%0*lld", k->digits, (long long)v);
        *text = sqe_arena_strdup(w->arena, buf);
        break;
    }
    case PJ_DATE: {
        int64_t secs = pj_add(lv->start, (int64_t)(i * k->interval), k->unit);
        sqe_strbuf sb;
        sqe_strbuf_init(&sb);
        sqe_joda_print(k->fmt, secs * 1000000, &sb);
        *text = sqe_arena_strdup(w->arena, sb.data ? sb.data : "");
        sqe_strbuf_free(&sb);
        if (k->ktype.id == SQE_T_DATE) {
            *val = sqe_value_int(SQE_T_DATE, pj_floor_div(secs, 86400));
            val->type = k->ktype;
            return true;
        }
        break;
    }
    }
    if (!pj_typed(k->ktype, *text, strlen(*text), val))
        return sqe_error_set(w->err, SQE_ERR_HIVE_EXTERNAL,
                             "projected value '%s' is not a valid %s for partition key '%s'", *text,
                             pj_type_name(k->ktype), k->name);
    return true;
}

/* Does candidate i satisfy the lower (want_lo) or upper bound? */
static bool pj_in_bound(pj_walk *w, int L, uint64_t i, const sqe_hive_key_bounds *b, bool want_lo,
                        bool *ok) {
    sqe_value v;
    const char *text;
    if (!pj_candidate(w, L, i, &v, &text)) return false;
    int c = sqe_value_cmp(&v, want_lo ? &b->lo : &b->hi);
    *ok = want_lo ? (c > 0 || (c == 0 && b->lo_incl)) : (c < 0 || (c == 0 && b->hi_incl));
    return true;
}

/* Narrows [klo, khi] of a monotone level to the key's bounds by binary
 * search (values ascend with the step). Inclusive ends throughout: khi may
 * be UINT64_MAX (a full 64-bit integer range). */
static bool pj_narrow(pj_walk *w, int L, const sqe_hive_key_bounds *b) {
    pj_level *lv = &w->lv[L];
    bool ok;
    if (b->has_lo) { /* the first step meeting the lower bound */
        if (!pj_in_bound(w, L, lv->khi, b, true, &ok)) return false;
        if (!ok) {
            lv->empty = true;
            return true;
        }
        uint64_t lo = lv->klo, hi = lv->khi;
        while (lo < hi) {
            uint64_t mid = lo + (hi - lo) / 2;
            if (!pj_in_bound(w, L, mid, b, true, &ok)) return false;
            if (ok)
                hi = mid;
            else
                lo = mid + 1;
        }
        lv->klo = lo;
    }
    if (b->has_hi) { /* the last step meeting the upper bound */
        if (!pj_in_bound(w, L, lv->klo, b, false, &ok)) return false;
        if (!ok) {
            lv->empty = true;
            return true;
        }
        uint64_t lo = lv->klo, hi = lv->khi;
        while (lo < hi) {
            uint64_t mid = hi - (hi - lo) / 2;
            if (!pj_in_bound(w, L, mid, b, false, &ok)) return false;
            if (ok)
                lo = mid;
            else
                hi = mid - 1;
        }
        lv->khi = lo;
    }
    return true;
}

/* ------------------------------------------------------------ injected */

typedef SQE_ARRAY(sqe_value) pj_vals;

/* Whether the predicate implies `key` IN (values); when it does, the
 * values are appended to out. AND: its first kid that implies it (the
 * others are re-checked per candidate); OR: every kid must. */
static bool pj_collect(const sqe_hive_ppred *p, int key, sqe_arena *a, pj_vals *out) {
    if (p->kind == SQE_HIVE_PP_TERM) {
        if (p->term.col != key || (p->term.op != SQE_FPRED_EQ && p->term.op != SQE_FPRED_IN))
            return false;
        int n = p->term.op == SQE_FPRED_EQ ? SQE_MIN(p->term.n_vals, 1) : p->term.n_vals;
        for (int i = 0; i < n; i++) SQE_ARRAY_PUSH(a, *out, p->term.vals[i]);
        return true;
    }
    if (p->kind == SQE_HIVE_PP_AND) {
        for (int i = 0; i < p->n_kids; i++) {
            pj_vals mine = {0};
            if (pj_collect(p->kids[i], key, a, &mine)) {
                for (size_t j = 0; j < mine.len; j++) SQE_ARRAY_PUSH(a, *out, mine.items[j]);
                return true;
            }
        }
        return false;
    }
    pj_vals all = {0};
    for (int i = 0; i < p->n_kids; i++)
        if (!pj_collect(p->kids[i], key, a, &all)) return false;
    for (size_t j = 0; j < all.len; j++) SQE_ARRAY_PUSH(a, *out, all.items[j]);
    return p->n_kids > 0;
}

static int pj_value_qcmp(const void *a, const void *b) {
    return sqe_value_cmp(a, b);
}

static bool pj_injected(pj_walk *w, int L) {
    const pj_key *k = &w->p->keys[L];
    pj_level *lv = &w->lv[L];
    pj_vals v = {0};
    if (!w->prune || !w->prune->pred || !pj_collect(w->prune->pred, L, w->arena, &v)) {
        /* SPEC §7.2: no constant for the key -> its NULL partition
         * (__HIVE_DEFAULT_PARTITION__); the predicate still prunes it */
        v.len = 0;
        SQE_ARRAY_PUSH(w->arena, v, sqe_value_null(k->ktype));
    }
    if (v.len > 1) qsort(v.items, v.len, sizeof *v.items, pj_value_qcmp);
    size_t n = 0;
    for (size_t i = 0; i < v.len; i++)
        if (n == 0 || sqe_value_cmp(&v.items[n - 1], &v.items[i]) != 0) v.items[n++] = v.items[i];
    lv->inj = v.items;
    lv->n_inj = (int)n;
    lv->empty = n == 0;
    lv->last = lv->khi = n ? n - 1 : 0;
    return true;
}

/* ------------------------------------------------------------ levels */

static uint64_t pj_date_last(const pj_key *k, int64_t s, int64_t e) {
    if (k->unit != PJ_YEARS && k->unit != PJ_MONTHS)
        return (uint64_t)(e - s) / (k->interval * (uint64_t)k_unit_secs[k->unit]);
    int64_t step = (int64_t)k->interval * (k->unit == PJ_YEARS ? 12 : 1);
    int sy, sm, sd, ey, em, ed;
    sqe_date_to_ymd((int32_t)pj_floor_div(s, 86400), &sy, &sm, &sd);
    sqe_date_to_ymd((int32_t)pj_floor_div(e, 86400), &ey, &em, &ed);
    int64_t last = (((int64_t)ey * 12 + em) - ((int64_t)sy * 12 + sm)) / step;
    while (last > 0 && pj_add_months(s, last * step) > e) last--;
    return (uint64_t)last;
}

/* The step range of level L before bounds. */
static bool pj_level_init(pj_walk *w, int L, int64_t now) {
    const pj_key *k = &w->p->keys[L];
    pj_level *lv = &w->lv[L];
    memset(lv, 0, sizeof *lv);
    switch (k->type) {
    case PJ_ENUM:
        lv->last = (uint64_t)k->n_values - 1;
        break;
    case PJ_INTEGER:
        lv->start = k->lo;
        lv->last = ((uint64_t)k->hi - (uint64_t)k->lo) / k->interval;
        break;
    case PJ_DATE: {
        int64_t s = pj_end_secs(&k->start, now, k->res), e = pj_end_secs(&k->end, now, k->res);
        lv->start = s;
        lv->empty = e < s; /* a NOW end passed the other one */
        lv->last = lv->empty ? 0 : pj_date_last(k, s, e);
        break;
    }
    case PJ_INJECTED:
        return pj_injected(w, L);
    }
    lv->khi = lv->last;
    return true;
}

/* A date key whose text does not sort like the date, bounded to one
 * string (an equality): the literal parsed with the format gives the one
 * step that can print it; when that step prints exactly the literal the
 * level is that step. Otherwise (the literal does not parse, a lossy
 * format such as 'MM-dd') the level stays whole: only an optimization. */
static bool pj_date_equality(pj_walk *w, int L, const sqe_hive_key_bounds *b) {
    const pj_key *k = &w->p->keys[L];
    pj_level *lv = &w->lv[L];
    if (k->type != PJ_DATE || k->ktype.id != SQE_T_VARCHAR || !b->has_lo || !b->has_hi ||
        !b->lo_incl || !b->hi_incl || sqe_value_cmp(&b->lo, &b->hi) != 0)
        return true;
    int64_t us;
    sqe_error perr;
    sqe_error_clear(&perr);
    if (!sqe_joda_parse(k->fmt, "projection", b->lo.v.s.ptr, b->lo.v.s.len, &us, &perr))
        return true;
    int64_t t = pj_floor_div(us, 1000000);
    if (t < lv->start) return true;
    uint64_t i = pj_date_last(k, lv->start, t);
    if (i < lv->klo || i > lv->khi) return true;
    sqe_value v;
    const char *text;
    if (!pj_candidate(w, L, i, &v, &text)) return false;
    if (strlen(text) == b->lo.v.s.len && memcmp(text, b->lo.v.s.ptr, b->lo.v.s.len) == 0)
        lv->klo = lv->khi = i;
    return true;
}

/* Applies the predicate's bounds on the key to its level. */
static bool pj_level_bounds(pj_walk *w, int L) {
    const pj_key *k = &w->p->keys[L];
    pj_level *lv = &w->lv[L];
    sqe_hive_key_bounds b;
    if (k->type == PJ_INJECTED)
        return true; /* its candidates (maybe NULL) are checked one by one */
    if (!sqe_hive_prune_key_bounds(w->prune, L, &b) || b.empty) {
        lv->empty = true; /* projected values are never NULL */
        return true;
    }
    if (lv->empty || k->type == PJ_ENUM) return true;
    return k->monotone ? pj_narrow(w, L, &b) : pj_date_equality(w, L, &b);
}

/* ------------------------------------------------------------ the walk */

static char *pj_path(pj_walk *w) {
    const hive_projection *p = w->p;
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    if (p->template_) {
        for (const char *s = p->template_; *s;) {
            const char *close = s[0] == '$' && s[1] == '{' ? strchr(s, '}') : NULL;
            int key = -1;
            for (int i = 0; close && i < p->n_keys; i++)
                if (strlen(p->keys[i].name) == (size_t)(close - s - 2) &&
                    sqe_str_ieqn(p->keys[i].name, s + 2, (size_t)(close - s - 2)))
                    key = i;
            if (key < 0) {
                sqe_strbuf_putc(&sb, *s++);
                continue;
            }
            sqe_strbuf_puts(&sb, w->texts[key]);
            s = close + 1;
        }
    } else {
        char *loc = sqe_io_join(w->t->location ? w->t->location : "", "");
        sqe_strbuf_puts(&sb, loc);
        sqe_free(loc);
        for (int i = 0; i < p->n_keys; i++) {
            hive_escape_path_value(&sb, p->keys[i].name, strlen(p->keys[i].name));
            sqe_strbuf_putc(&sb, '=');
            hive_escape_path_value(&sb, w->texts[i], strlen(w->texts[i]));
            sqe_strbuf_putc(&sb, '/');
        }
    }
    char *out = sqe_arena_strdup(w->arena, sb.data ? sb.data : "");
    sqe_strbuf_free(&sb);
    return out;
}

static bool pj_walk_level(pj_walk *w, int L) {
    int n = w->p->n_keys;
    if (L == n) {
        if (w->out.len >= HIVE_PROJECTION_MAX_PARTITIONS)
            return sqe_error_set(w->err, SQE_ERR_RESOURCE_EXHAUSTED,
                                 "table '%s' projects more than %d partitions for this query "
                                 "(HIVE_PROJECTION_MAX_PARTITIONS, Athena's limit too): add a "
                                 "predicate on its partition keys",
                                 w->t->name, HIVE_PROJECTION_MAX_PARTITIONS);
        sqe_hive_partition part = {0};
        part.path = pj_path(w);
        part.values = sqe_arena_alloc(w->arena, sizeof(sqe_value) * (size_t)n);
        memcpy(part.values, w->vals, sizeof(sqe_value) * (size_t)n);
        SQE_ARRAY_PUSH(w->arena, w->out, part);
        return true;
    }
    const pj_level *lv = &w->lv[L];
    if (lv->empty) return true;
    for (uint64_t i = lv->klo; i <= lv->khi; i++) {
        if (++w->visits > HIVE_PROJECTION_MAX_VISITS)
            return sqe_error_set(w->err, SQE_ERR_RESOURCE_EXHAUSTED,
                                 "table '%s': projecting its partitions would examine more than "
                                 "%d candidates (HIVE_PROJECTION_MAX_VISITS): add a predicate "
                                 "that bounds each partition key",
                                 w->t->name, HIVE_PROJECTION_MAX_VISITS);
        if (!pj_candidate(w, L, i, &w->vals[L], &w->texts[L])) return false;
        if (L == w->p->n_keys - 1) w->considered++;
        if (!sqe_hive_prune_admits(w->prune, w->vals, L + 1)) {
            w->pruned++;
            continue;
        }
        if (!pj_walk_level(w, L + 1)) return false;
        if (i == UINT64_MAX) break;
    }
    return true;
}

static int pj_part_cmp(const void *pa, const void *pb, void *arg) {
    const sqe_hive_partition *a = pa, *b = pb;
    int n = *(const int *)arg;
    for (int k = 0; k < n; k++) {
        int r = sqe_value_cmp(&a->values[k], &b->values[k]);
        if (r) return r;
    }
    return strcmp(a->path, b->path);
}

/* Without a predicate every candidate is a partition: refuse a cross
 * product over the limit before building any of it. */
static bool pj_check_unpruned(pj_walk *w) {
    if (w->prune && w->prune->pred) return true;
    double product = 1;
    for (int i = 0; i < w->p->n_keys; i++)
        product *= w->lv[i].empty ? 0 : (double)(w->lv[i].khi - w->lv[i].klo) + 1;
    if (product <= HIVE_PROJECTION_MAX_PARTITIONS) return true;
    return sqe_error_set(w->err, SQE_ERR_RESOURCE_EXHAUSTED,
                         "table '%s' projects %.0f partitions, more than %d "
                         "(HIVE_PROJECTION_MAX_PARTITIONS, Athena's limit too): add a predicate "
                         "on its partition keys",
                         w->t->name, product, HIVE_PROJECTION_MAX_PARTITIONS);
}

bool hive_projection_partitions(const hive_projection *p, const sqe_hive_table *t,
                                const sqe_hive_prune *prune, sqe_arena *arena,
                                sqe_hive_partition **out, size_t *n_out, sqe_hive_part_stats *stats,
                                sqe_error *err) {
    pj_walk w = {p, t, prune, arena, NULL, NULL, NULL, 0, 0, 0, {0}, err};
    w.lv = sqe_arena_alloc(arena, sizeof *w.lv * (size_t)p->n_keys);
    w.vals = sqe_arena_alloc(arena, sizeof *w.vals * (size_t)p->n_keys);
    w.texts = sqe_arena_alloc(arena, sizeof *w.texts * (size_t)p->n_keys);
    int64_t now = (int64_t)time(NULL);
    for (int i = 0; i < p->n_keys; i++)
        if (!pj_level_init(&w, i, now)) return false;
    for (int i = 0; i < p->n_keys; i++)
        if (!pj_level_bounds(&w, i)) return false;
    if (!pj_check_unpruned(&w) || !pj_walk_level(&w, 0)) return false;
    int n_keys = p->n_keys;
    if (w.out.len > 1) qsort_r(w.out.items, w.out.len, sizeof *w.out.items, pj_part_cmp, &n_keys);
    *out = w.out.items;
    *n_out = w.out.len;
    if (stats) stats->considered = w.considered, stats->pruned = w.pruned, stats->lists = 0;
    return true;
}

bool sqe_hive_table_projected(const sqe_hive_table *t) {
    return hive_table_projection(t) != NULL;
}
