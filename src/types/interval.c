/*
 * interval.c - the two interval types: parsing INTERVAL literal text and
 * printing values the way Trino prints them.
 *
 * Representation (as Trino): INTERVAL DAY TO SECOND is a signed count of
 * milliseconds in an int64; INTERVAL YEAR TO MONTH a signed count of months
 * (int64 in vectors, but kept within int32 as Trino's int field is, so a
 * literal or an arithmetic result beyond it is OUT_OF_RANGE).
 *
 * Literal text per qualifier (the SQL standard forms Trino accepts):
 *     YEAR 'y'    MONTH 'm'    YEAR TO MONTH 'y-m'
 *     DAY 'd'     HOUR 'h'     MINUTE 'm'    SECOND 's[.fff]'
 *     DAY TO HOUR 'd h'   DAY TO MINUTE 'd h:m'   DAY TO SECOND 'd h:m:s[.fff]'
 *     HOUR TO MINUTE 'h:m'   HOUR TO SECOND 'h:m:s[.fff]'   MINUTE TO SECOND 'm:s[.fff]'
 * An optional sign may lead the text; the parser also passes a sign written
 * before the string (INTERVAL -'2' DAY), so up to two signs are accepted and
 * multiply. Fields after the first are not range checked (Joda's period
 * parser, which Trino uses, does not either: '0 25:00' is a day and an
 * hour). Fractional seconds beyond milliseconds are truncated. Every number
 * has at most 18 digits and the total is computed in 128 bits, so no input
 * overflows silently.
 *
 * Text form: day to second "[-]d hh:mm:ss.fff", year to month "[-]y-m"
 * (Trino's IntervalDayTime/IntervalYearMonth formatting).
 */
#include "types/types_int.h"

#include <stdio.h>
#include <string.h>

bool sqe_type_is_interval(sqe_type t) {
    return t.id == SQE_T_INTERVAL_DS || t.id == SQE_T_INTERVAL_YM;
}

typedef enum { IV_YEAR, IV_MONTH, IV_DAY, IV_HOUR, IV_MINUTE, IV_SECOND, IV__N } iv_field;

static const char *const k_iv_names[IV__N] = {"year", "month", "day", "hour", "minute", "second"};
/* Milliseconds (or months for year/month) per unit of each field. */
static const int64_t k_iv_scale[IV__N] = {12, 1, 86400000, 3600000, 60000, 1000};
/* Separator written before each field when it is not the first. */
static const char k_iv_sep[IV__N] = {0, '-', 0, ' ', ':', ':'};
/* The expected shape, for messages. */
static const char *const k_iv_shape[IV__N] = {"y", "m", "d", "h", "m", "s[.fff]"};

static int iv_field_of(const char *s, size_t n) {
    for (int f = 0; f < IV__N; f++)
        if (strlen(k_iv_names[f]) == n && memcmp(k_iv_names[f], s, n) == 0) return f;
    return -1;
}

/* "day" or "day to second" -> first and last field. */
static bool iv_unit(const char *unit, int *from, int *to) {
    const char *sp = strstr(unit, " to ");
    *from = iv_field_of(unit, sp ? (size_t)(sp - unit) : strlen(unit));
    *to = sp ? iv_field_of(sp + 4, strlen(sp + 4)) : *from;
    if (*from < 0 || *to < 0 || *to < *from) return false;
    return (*from <= IV_MONTH) == (*to <= IV_MONTH);
}

/* Reads 1..18 digits at *p; false when there are none or too many. */
static bool iv_number(const char **p, const char *end, int64_t *out) {
    const char *s = *p;
    int64_t v = 0;
    int n = 0;
    while (s < end && *s >= '0' && *s <= '9' && n < 18) v = v * 10 + (*s++ - '0'), n++;
    if (n == 0 || (s < end && *s >= '0' && *s <= '9')) return false;
    *p = s;
    *out = v;
    return true;
}

static bool iv_bad(const char *text, const char *unit, int from, int to, sqe_error *err) {
    char shape[64] = "", upper[32];
    size_t k = 0;
    for (int f = from; f <= to; f++) {
        if (f > from) shape[k++] = k_iv_sep[f];
        k += (size_t)snprintf(shape + k, sizeof shape - k, "%s", k_iv_shape[f]);
    }
    snprintf(upper, sizeof upper, "%s", unit);
    for (char *c = upper; *c; c++) *c = (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c);
    return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                         "invalid INTERVAL %s literal '%.64s' (expected '%s')", upper, text, shape);
}

/* Sum of the fields from..to in text [p, end), in millis or months. */
static bool iv_fields(const char *p, const char *end, int from, int to, __int128 *total) {
    *total = 0;
    for (int f = from; f <= to; f++) {
        if (f > from) {
            if (p >= end || *p != k_iv_sep[f]) return false;
            p++;
        }
        int64_t v;
        if (!iv_number(&p, end, &v)) return false;
        *total += (__int128)v * k_iv_scale[f];
    }
    if (to == IV_SECOND && p < end && *p == '.') {
        p++;
        int64_t ms = 0;
        int digits = 0;
        while (p < end && *p >= '0' && *p <= '9') {
            if (digits < 3) ms = ms * 10 + (*p - '0');
            digits++, p++;
        }
        if (digits == 0 || digits > 9) return false;
        for (int d = digits; d < 3; d++) ms *= 10;
        *total += ms;
    }
    return p == end;
}

bool sqe_interval_parse(const char *text, const char *unit, bool negate, sqe_value *out,
                        sqe_error *err) {
    int from, to;
    if (!iv_unit(unit, &from, &to))
        return sqe_error_set(err, SQE_ERR_NOT_SUPPORTED, "unsupported interval qualifier '%s'",
                             unit);
    const char *p = text, *end = text + strlen(text);
    while (p < end && *p == ' ') p++;
    while (end > p && end[-1] == ' ') end--;
    bool neg = negate;
    for (int k = 0; k < 2 && p < end && (*p == '-' || *p == '+'); k++) neg ^= *p++ == '-';
    __int128 total;
    if (!iv_fields(p, end, from, to, &total)) return iv_bad(text, unit, from, to, err);
    if (neg) total = -total;
    bool ym = from <= IV_MONTH;
    __int128 lo = ym ? INT32_MIN : INT64_MIN, hi = ym ? INT32_MAX : INT64_MAX;
    if (total < lo || total > hi)
        return sqe_error_set(err, SQE_ERR_OUT_OF_RANGE, "INTERVAL literal '%.64s' out of range",
                             text);
    *out = sqe_value_int(ym ? SQE_T_INTERVAL_YM : SQE_T_INTERVAL_DS, (int64_t)total);
    return true;
}

size_t sqe_interval_format(sqe_type_id id, int64_t v, char *buf, size_t buf_len) {
    const char *sign = v < 0 ? "-" : "";
    uint64_t a = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    int n;
    if (id == SQE_T_INTERVAL_YM) {
        n = snprintf(buf, buf_len, "%s%llu-%llu", sign, (unsigned long long)(a / 12),
                     (unsigned long long)(a % 12));
    } else {
        uint64_t ms = a % 1000, s = a / 1000;
        n = snprintf(buf, buf_len, "%s%llu %02llu:%02llu:%02llu.%03llu", sign,
                     (unsigned long long)(s / 86400), (unsigned long long)(s / 3600 % 24),
                     (unsigned long long)(s / 60 % 60), (unsigned long long)(s % 60),
                     (unsigned long long)ms);
    }
    return n < 0 ? 0 : SQE_MIN((size_t)n, buf_len ? buf_len - 1 : 0);
}
