/*
 * datefmt.c - date/time text functions with Trino's semantics:
 *   date_format(ts, fmt) / date_parse(s, fmt)        MySQL-style patterns
 *   format_datetime(ts, fmt) / parse_datetime(s, fmt) Joda-Time patterns
 *
 * Both pattern languages compile to one small program (df_pattern: a list
 * of df_op, at most DF_MAX_OPS) that one printer and one parser run, the
 * way Trino builds a Joda DateTimeFormatter from either syntax:
 *
 *   MySQL (Trino's createDateTimeFormatter): %a %b %c %d %e %f %H %h %I %i
 *     %j %k %l %M %m %p %r %S %s %T %v %W %x %Y %y %% and %<other> = the
 *     character itself; %D %U %u %V %w %X are INVALID_ARGUMENT
 *     "%D not supported in date format string" (Trino's text).
 *   Joda (DateTimeFormat.forPattern): G C Y x w e E y D M d a K h H k m s S
 *     z Z, quoted 'text' and '' for a quote; other ASCII letters are
 *     "Illegal pattern component: Q" (Joda's text). A numeric field
 *     directly followed by another numeric field parses exactly its letter
 *     count of digits ("yyyyMMdd"), as Joda does.
 *
 * Printing (Joda's printers): numbers are zero-padded to the minimum width;
 * %f / S print the millisecond fraction (Trino formats through Joda, which
 * keeps milliseconds: sub-millisecond digits are truncated); names are
 * English. Parsing (Joda's parsers): numbers take 1..max digits (years a
 * sign), names match case-insensitively (full or short), literals match
 * case-insensitively, the whole input must be consumed. Fields default to
 * 1970-01-01 00:00:00.000; a field out of range fails as Joda does
 * ("Cannot parse "2022-02-30": Value 30 for dayOfMonth must be in the range
 * [1,28]"), malformed text with Joda's "Invalid format: "x" is malformed at
 * "y"" / "is too short". Every message is followed by the function and the
 * pattern, e.g. "(date_parse with format '%Y-%m-%d')". Two-digit years
 * (%y) pivot on 2020 (1970..2069) as Trino's PIVOT_YEAR; Joda 'yy' pivots
 * on the current year - 30 as Joda does. date_parse returns milliseconds
 * (Trino's timestamp(3)).
 *
 * Time zones: a TIMESTAMP WITH TIME ZONE argument is printed in its own
 * zone (its wall time; z/zzzz/ZZZ print the zone id, Z/ZZ the offset in
 * force); a plain TIMESTAMP is a wall time in the session time zone
 * (binding->zone; Trino coerces it to timestamp with time zone), so its
 * z/Z print that zone. parse_datetime and from_iso8601_timestamp return
 * timestamp(3) with time zone: the offset written (+hh:mm, +hhmm, Z) or,
 * without one, the wall time read in the session zone;
 * parsing a zone name (z) is NOT_SUPPORTED. date_parse returns a plain
 * timestamp(3) as Trino's does.
 *
 * A constant pattern is compiled once at bind time (b->data); a pattern
 * that varies per row is compiled per row into a stack program.
 */
#include "func/func_int.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define DF_MAX_OPS 128

typedef enum {
    DF_LIT,
    DF_YEAR,
    DF_YEAR2,
    DF_WEEKYEAR,
    DF_CENTURY,
    DF_ERA,
    DF_MONTH,
    DF_MONTH_TEXT,
    DF_DAY,
    DF_DOY,
    DF_WEEK,
    DF_DOW_NUM,
    DF_DOW_TEXT,
    DF_HOUR24,  /* H 0..23 */
    DF_CLOCK24, /* k 1..24 */
    DF_HOUR12,  /* K 0..11 */
    DF_CLOCK12, /* h 1..12 */
    DF_MINUTE,
    DF_SECOND,
    DF_FRAC,
    DF_AMPM,
    DF_ZONE_NAME,
    DF_ZONE_OFFSET,
} df_kind;

typedef struct df_op {
    uint8_t kind;
    uint8_t min, max; /* digits (numbers), 1 = short / 2 = full (text) */
    char lit;
} df_op;

typedef struct df_pattern {
    int n;
    int pivot; /* two-digit years: pivot - 50 .. pivot + 49 */
    df_op ops[DF_MAX_OPS];
} df_pattern;

static const char *const k_month_full[12] = {"January",   "February", "March",    "April",
                                             "May",       "June",     "July",     "August",
                                             "September", "October",  "November", "December"};
static const char *const k_dow_full[7] = {"Monday", "Tuesday",  "Wednesday", "Thursday",
                                          "Friday", "Saturday", "Sunday"};

static bool df_is_numeric(df_kind k) {
    return k != DF_LIT && k != DF_ERA && k != DF_MONTH_TEXT && k != DF_DOW_TEXT && k != DF_AMPM &&
           k != DF_ZONE_NAME && k != DF_ZONE_OFFSET;
}

static bool df_push(df_pattern *p, df_kind k, int min, int max, char lit, sqe_error *err) {
    if (p->n == DF_MAX_OPS)
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                             "date/time format has more than %d fields", DF_MAX_OPS);
    df_op o = {(uint8_t)k, (uint8_t)min, (uint8_t)max, lit};
    p->ops[p->n++] = o;
    return true;
}

/* ---------------------------------------------------------- compiling */

/* One MySQL specifier (the character after '%'). */
static bool df_mysql_spec(df_pattern *p, char c, sqe_error *err) {
    switch (c) {
    case 'a':
        return df_push(p, DF_DOW_TEXT, 1, 1, 0, err);
    case 'b':
        return df_push(p, DF_MONTH_TEXT, 1, 1, 0, err);
    case 'c':
        return df_push(p, DF_MONTH, 1, 2, 0, err);
    case 'd':
        return df_push(p, DF_DAY, 2, 2, 0, err);
    case 'e':
        return df_push(p, DF_DAY, 1, 2, 0, err);
    case 'f':
        return df_push(p, DF_FRAC, 6, 9, 0, err);
    case 'H':
        return df_push(p, DF_HOUR24, 2, 2, 0, err);
    case 'h':
    case 'I':
        return df_push(p, DF_CLOCK12, 2, 2, 0, err);
    case 'i':
        return df_push(p, DF_MINUTE, 2, 2, 0, err);
    case 'j':
        return df_push(p, DF_DOY, 3, 3, 0, err);
    case 'k':
        return df_push(p, DF_HOUR24, 1, 2, 0, err);
    case 'l':
        return df_push(p, DF_CLOCK12, 1, 2, 0, err);
    case 'M':
        return df_push(p, DF_MONTH_TEXT, 2, 2, 0, err);
    case 'm':
        return df_push(p, DF_MONTH, 2, 2, 0, err);
    case 'p':
        return df_push(p, DF_AMPM, 0, 0, 0, err);
    case 'r':
        return df_push(p, DF_CLOCK12, 2, 2, 0, err) && df_push(p, DF_LIT, 0, 0, ':', err) &&
               df_push(p, DF_MINUTE, 2, 2, 0, err) && df_push(p, DF_LIT, 0, 0, ':', err) &&
               df_push(p, DF_SECOND, 2, 2, 0, err) && df_push(p, DF_LIT, 0, 0, ' ', err) &&
               df_push(p, DF_AMPM, 0, 0, 0, err);
    case 'S':
    case 's':
        return df_push(p, DF_SECOND, 2, 2, 0, err);
    case 'T':
        return df_push(p, DF_HOUR24, 2, 2, 0, err) && df_push(p, DF_LIT, 0, 0, ':', err) &&
               df_push(p, DF_MINUTE, 2, 2, 0, err) && df_push(p, DF_LIT, 0, 0, ':', err) &&
               df_push(p, DF_SECOND, 2, 2, 0, err);
    case 'v':
        return df_push(p, DF_WEEK, 2, 2, 0, err);
    case 'x':
        return df_push(p, DF_WEEKYEAR, 4, 4, 0, err);
    case 'W':
        return df_push(p, DF_DOW_TEXT, 2, 2, 0, err);
    case 'Y':
        return df_push(p, DF_YEAR, 4, 4, 0, err);
    case 'y':
        return df_push(p, DF_YEAR2, 2, 2, 0, err);
    case 'w':
    case 'U':
    case 'u':
    case 'V':
    case 'X':
    case 'D':
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                             "%%%c not supported in date format string", c);
    default:
        return df_push(p, DF_LIT, 0, 0, c, err);
    }
}

static bool df_compile_mysql(const char *f, size_t n, df_pattern *p, sqe_error *err) {
    p->n = 0;
    p->pivot = 2020;
    for (size_t i = 0; i < n; i++) {
        if (f[i] == '%' && i + 1 < n) {
            if (!df_mysql_spec(p, f[++i], err)) return false;
        } else if (f[i] != '%' && !df_push(p, DF_LIT, 0, 0, f[i], err)) {
            return false;
        }
    }
    return true;
}

/* One Joda letter run: `c` repeated `cnt` times. */
static bool df_joda_field(df_pattern *p, char c, int cnt, sqe_error *err) {
    int mn = SQE_MIN(cnt, 9);
    switch (c) {
    case 'G':
        return df_push(p, DF_ERA, 0, 0, 0, err);
    case 'C':
        return df_push(p, DF_CENTURY, mn, 9, 0, err);
    case 'Y':
    case 'y':
        return cnt == 2 ? df_push(p, DF_YEAR2, 2, 2, 0, err) : df_push(p, DF_YEAR, mn, 9, 0, err);
    case 'x':
        return df_push(p, DF_WEEKYEAR, mn, 9, 0, err);
    case 'w':
        return df_push(p, DF_WEEK, mn, 2, 0, err);
    case 'e':
        return df_push(p, DF_DOW_NUM, mn, 1, 0, err);
    case 'E':
        return df_push(p, DF_DOW_TEXT, cnt >= 4 ? 2 : 1, 0, 0, err);
    case 'D':
        return df_push(p, DF_DOY, mn, 3, 0, err);
    case 'M':
        if (cnt >= 3) return df_push(p, DF_MONTH_TEXT, cnt >= 4 ? 2 : 1, 0, 0, err);
        return df_push(p, DF_MONTH, mn, 2, 0, err);
    case 'd':
        return df_push(p, DF_DAY, mn, 2, 0, err);
    case 'a':
        return df_push(p, DF_AMPM, 0, 0, 0, err);
    case 'K':
        return df_push(p, DF_HOUR12, mn, 2, 0, err);
    case 'h':
        return df_push(p, DF_CLOCK12, mn, 2, 0, err);
    case 'H':
        return df_push(p, DF_HOUR24, mn, 2, 0, err);
    case 'k':
        return df_push(p, DF_CLOCK24, mn, 2, 0, err);
    case 'm':
        return df_push(p, DF_MINUTE, mn, 2, 0, err);
    case 's':
        return df_push(p, DF_SECOND, mn, 2, 0, err);
    case 'S':
        return df_push(p, DF_FRAC, mn, mn, 0, err);
    case 'z':
        return df_push(p, DF_ZONE_NAME, cnt >= 4 ? 2 : 1, 0, 0, err);
    case 'Z':
        return df_push(p, DF_ZONE_OFFSET, SQE_MIN(cnt, 3), 0, 0, err);
    default: {
        char run[16];
        int k = SQE_MIN(cnt, (int)sizeof run - 1);
        memset(run, c, (size_t)k);
        run[k] = '\0';
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT, "Illegal pattern component: %s", run);
    }
    }
}

/* Quoted text starting after the opening quote; returns the index past it. */
static size_t df_joda_quote(const char *f, size_t n, size_t i, df_pattern *p, sqe_error *err) {
    if (i < n && f[i] == '\'') return df_push(p, DF_LIT, 0, 0, '\'', err) ? i + 1 : 0;
    for (; i < n; i++) {
        if (f[i] == '\'') {
            if (i + 1 < n && f[i + 1] == '\'') {
                i++;
            } else {
                return i + 1;
            }
        }
        if (!df_push(p, DF_LIT, 0, 0, f[i], err)) return 0;
    }
    return n; /* unterminated: Joda takes the rest as text */
}

static bool df_compile_joda(const char *f, size_t n, df_pattern *p, sqe_error *err) {
    p->n = 0;
    time_t now = time(NULL);
    struct tm tmv;
    gmtime_r(&now, &tmv);
    p->pivot = tmv.tm_year + 1900 - 30;
    for (size_t i = 0; i < n;) {
        char c = f[i];
        if (c == '\'') {
            if (!(i = df_joda_quote(f, n, i + 1, p, err))) return false;
        } else if (isalpha((unsigned char)c)) {
            size_t j = i;
            while (j < n && f[j] == c) j++;
            if (!df_joda_field(p, c, (int)SQE_MIN(j - i, 64), err)) return false;
            i = j;
        } else {
            if (!df_push(p, DF_LIT, 0, 0, c, err)) return false;
            i++;
        }
    }
    /* Adjacent numeric fields parse exactly their width (Joda). */
    for (int k = 0; k + 1 < p->n; k++)
        if (df_is_numeric((df_kind)p->ops[k].kind) && df_is_numeric((df_kind)p->ops[k + 1].kind))
            p->ops[k].max = SQE_MAX(p->ops[k].min, 1);
    return true;
}

/* ----------------------------------------------------------- printing */

typedef struct df_tm {
    int64_t year, weekyear;
    int month, day, doy, dow, week, hour, minute, second, millis;
    uint16_t key;   /* zone key (UTC for a plain timestamp) */
    int32_t offset; /* seconds east of UTC in force */
} df_tm;

static void df_split(int64_t us, df_tm *t) {
    int64_t days = sqe_floor_div(us, SQE_MICROS_PER_DAY);
    int64_t tod = us - days * SQE_MICROS_PER_DAY;
    int y, m, d;
    sqe_date_to_ymd((int32_t)days, &y, &m, &d);
    t->year = y;
    t->month = m;
    t->day = d;
    t->doy = (int)(days - sqe_date_from_ymd(y, 1, 1)) + 1;
    t->dow = (int)sqe_floor_mod(days + 3, 7) + 1;
    int64_t thursday = days - t->dow + 4;
    int wy, wm, wd;
    sqe_date_to_ymd((int32_t)thursday, &wy, &wm, &wd);
    t->weekyear = wy;
    t->week = (int)((thursday - sqe_date_from_ymd(wy, 1, 1)) / 7) + 1;
    t->hour = (int)(tod / (3600 * SQE_MICROS_PER_SECOND));
    t->minute = (int)(tod / (60 * SQE_MICROS_PER_SECOND) % 60);
    t->second = (int)(tod / SQE_MICROS_PER_SECOND % 60);
    t->millis = (int)(tod / 1000 % 1000);
}

static void df_put_num(sqe_strbuf *sb, int64_t v, int min) {
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%0*lld", v < 0 ? min + 1 : min, (long long)v);
    sqe_strbuf_append(sb, buf, (size_t)n);
}

static void df_put_text(sqe_strbuf *sb, const char *full, int width) {
    sqe_strbuf_append(sb, full, width == 2 ? strlen(full) : 3);
}

/* Milliseconds as a fraction of `digits` digits (truncated or zero-padded). */
static void df_put_frac(sqe_strbuf *sb, int millis, int digits) {
    char buf[16];
    snprintf(buf, sizeof buf, "%03d000000", millis);
    sqe_strbuf_append(sb, buf, (size_t)SQE_MIN(digits, 9));
}

/* z/zzzz: the zone id ("UTC" spelled out for zzzz); Z "+0100", ZZ "+01:00",
 * ZZZ the zone id. Joda would print short/long zone names ("EST"); sqe prints
 * the id. */
static void df_put_zone(const df_op *o, const df_tm *t, sqe_strbuf *sb) {
    char name[80];
    sqe_tz_key_name(t->key, name, sizeof name);
    if (o->kind == DF_ZONE_NAME || o->min >= 3) {
        bool utc_long = o->kind == DF_ZONE_NAME && o->min == 2 && strcmp(name, "UTC") == 0;
        sqe_strbuf_puts(sb, utc_long ? "Coordinated Universal Time" : name);
        return;
    }
    int a = t->offset < 0 ? -t->offset : t->offset;
    sqe_strbuf_printf(sb, o->min == 1 ? "%c%02d%02d" : "%c%02d:%02d", t->offset < 0 ? '-' : '+',
                      a / 3600, a / 60 % 60);
}

static void df_print_op(const df_op *o, const df_tm *t, sqe_strbuf *sb) {
    switch ((df_kind)o->kind) {
    case DF_LIT:
        sqe_strbuf_putc(sb, o->lit);
        break;
    case DF_YEAR:
        df_put_num(sb, t->year, o->min);
        break;
    case DF_YEAR2:
        df_put_num(sb, sqe_floor_mod(t->year, 100), 2);
        break;
    case DF_WEEKYEAR:
        df_put_num(sb, t->weekyear, o->min);
        break;
    case DF_CENTURY:
        df_put_num(sb, (t->year > 0 ? t->year : 1 - t->year) / 100, o->min);
        break;
    case DF_ERA:
        sqe_strbuf_puts(sb, t->year > 0 ? "AD" : "BC");
        break;
    case DF_MONTH:
        df_put_num(sb, t->month, o->min);
        break;
    case DF_MONTH_TEXT:
        df_put_text(sb, k_month_full[t->month - 1], o->min);
        break;
    case DF_DAY:
        df_put_num(sb, t->day, o->min);
        break;
    case DF_DOY:
        df_put_num(sb, t->doy, o->min);
        break;
    case DF_WEEK:
        df_put_num(sb, t->week, o->min);
        break;
    case DF_DOW_NUM:
        df_put_num(sb, t->dow, o->min);
        break;
    case DF_DOW_TEXT:
        df_put_text(sb, k_dow_full[t->dow - 1], o->min);
        break;
    case DF_HOUR24:
        df_put_num(sb, t->hour, o->min);
        break;
    case DF_CLOCK24:
        df_put_num(sb, t->hour == 0 ? 24 : t->hour, o->min);
        break;
    case DF_HOUR12:
        df_put_num(sb, t->hour % 12, o->min);
        break;
    case DF_CLOCK12:
        df_put_num(sb, t->hour % 12 == 0 ? 12 : t->hour % 12, o->min);
        break;
    case DF_MINUTE:
        df_put_num(sb, t->minute, o->min);
        break;
    case DF_SECOND:
        df_put_num(sb, t->second, o->min);
        break;
    case DF_FRAC:
        df_put_frac(sb, t->millis, o->min);
        break;
    case DF_AMPM:
        sqe_strbuf_puts(sb, t->hour < 12 ? "AM" : "PM");
        break;
    case DF_ZONE_NAME:
    case DF_ZONE_OFFSET:
        df_put_zone(o, t, sb);
        break;
    }
}

/* Prints local wall time `us` of zone `key` (offset seconds in force). */
static void df_print(const df_pattern *p, int64_t us, uint16_t key, int32_t offset,
                     sqe_strbuf *sb) {
    df_tm t;
    df_split(us, &t);
    t.key = key;
    t.offset = offset;
    for (int i = 0; i < p->n; i++) df_print_op(&p->ops[i], &t, sb);
}

/* ------------------------------------------------------------ parsing */

typedef struct df_fields {
    int64_t year, weekyear;
    int month, day, doy, week, dow;
    int hour24, clock24, hour12, clock12, ampm, minute, second, millis, era;
    int offset_min;
    bool has_year, has_weekyear, has_doy, has_week, has_dow, has_offset;
} df_fields;

typedef struct df_input {
    const char *s;
    size_t n, pos;
} df_input;

/* 1..max digits (with a sign when `sign`); false when there are none. */
static bool df_parse_num(df_input *in, int max, bool sign, int64_t *out) {
    size_t p = in->pos;
    bool neg = false;
    if (sign && p < in->n && (in->s[p] == '-' || in->s[p] == '+')) neg = in->s[p++] == '-';
    int64_t v = 0;
    int k = 0;
    while (p < in->n && k < max && in->s[p] >= '0' && in->s[p] <= '9')
        v = v * 10 + (in->s[p++] - '0'), k++;
    if (k == 0) return false;
    in->pos = p;
    *out = neg ? -v : v;
    return true;
}

/* Case-insensitive match of the longest full or 3-letter name; -1 if none. */
static int df_parse_name(df_input *in, const char *const *names, int count) {
    int best = -1;
    size_t best_len = 0;
    for (int i = 0; i < count; i++) {
        size_t full = strlen(names[i]);
        for (size_t len = full; len >= 3; len = len == full ? 3 : 0) {
            if (len > best_len && in->n - in->pos >= len &&
                sqe_str_ieqn(in->s + in->pos, names[i], len)) {
                best = i;
                best_len = len;
            }
            if (len == 3) break;
        }
    }
    in->pos += best_len;
    return best;
}

static bool df_parse_offset(df_input *in, df_fields *f) {
    if (in->pos < in->n && (in->s[in->pos] == 'Z' || in->s[in->pos] == 'z')) {
        in->pos++;
        f->has_offset = true;
        f->offset_min = 0;
        return true;
    }
    if (in->pos >= in->n || (in->s[in->pos] != '+' && in->s[in->pos] != '-')) return false;
    int sign = in->s[in->pos++] == '-' ? -1 : 1;
    int64_t h, m = 0;
    if (!df_parse_num(in, 2, false, &h)) return false;
    if (in->pos < in->n && in->s[in->pos] == ':') in->pos++;
    df_parse_num(in, 2, false, &m);
    if (h > 23 || m > 59) return false;
    f->has_offset = true;
    f->offset_min = sign * (int)(h * 60 + m);
    return true;
}

/* Two-digit year in [pivot - 50, pivot + 49] (Joda's TwoDigitYear). */
static int64_t df_two_digit(int64_t v, int pivot) {
    int low = pivot - 50, base = low - (int)sqe_floor_mod(low, 100);
    int64_t y = base + v;
    return y < low ? y + 100 : y;
}

/* Parses one op at in->pos; false when the text does not match. */
/* The numeric fields: 1..max digits (years signed) into their slot. */
static bool df_parse_number_op(const df_op *o, df_input *in, df_fields *f) {
    int64_t v;
    bool sign = o->kind == DF_YEAR || o->kind == DF_WEEKYEAR;
    if (!df_parse_num(in, o->max, sign, &v)) return false;
    switch ((df_kind)o->kind) {
    case DF_YEAR:
        f->year = v, f->has_year = true;
        break;
    case DF_WEEKYEAR:
        f->weekyear = v, f->has_weekyear = true;
        break;
    case DF_CENTURY:
        f->year = v * 100 + sqe_floor_mod(f->year, 100), f->has_year = true;
        break;
    case DF_MONTH:
        f->month = (int)v;
        break;
    case DF_DAY:
        f->day = (int)v;
        break;
    case DF_DOY:
        f->doy = (int)v, f->has_doy = true;
        break;
    case DF_WEEK:
        f->week = (int)v, f->has_week = true;
        break;
    case DF_DOW_NUM:
        f->dow = (int)v, f->has_dow = true;
        break;
    case DF_HOUR24:
        f->hour24 = (int)v;
        break;
    case DF_CLOCK24:
        f->clock24 = (int)v;
        break;
    case DF_HOUR12:
        f->hour12 = (int)v;
        break;
    case DF_CLOCK12:
        f->clock12 = (int)v;
        break;
    case DF_MINUTE:
        f->minute = (int)v;
        break;
    case DF_SECOND:
        f->second = (int)v;
        break;
    default:
        break;
    }
    return true;
}

static bool df_parse_op(const df_op *o, const df_pattern *p, df_input *in, df_fields *f) {
    int64_t v;
    int i;
    switch ((df_kind)o->kind) {
    case DF_LIT:
        if (in->pos >= in->n ||
            tolower((unsigned char)in->s[in->pos]) != tolower((unsigned char)o->lit))
            return false;
        in->pos++;
        return true;
    case DF_YEAR2: {
        size_t start = in->pos;
        if (!df_parse_num(in, o->max, o->max > 2, &v)) return false;
        f->year = in->pos - start == 2 ? df_two_digit(v, p->pivot) : v;
        f->has_year = true;
        return true;
    }
    case DF_MONTH_TEXT:
        if ((i = df_parse_name(in, k_month_full, 12)) < 0) return false;
        f->month = i + 1;
        return true;
    case DF_DOW_TEXT:
        if ((i = df_parse_name(in, k_dow_full, 7)) < 0) return false;
        f->dow = i + 1;
        f->has_dow = true;
        return true;
    case DF_AMPM:
    case DF_ERA: {
        if (in->n - in->pos < 2) return false;
        const char *t = in->s + in->pos;
        bool am = sqe_str_ieqn(t, o->kind == DF_AMPM ? "AM" : "BC", 2);
        if (!am && !sqe_str_ieqn(t, o->kind == DF_AMPM ? "PM" : "AD", 2)) return false;
        in->pos += 2;
        *(o->kind == DF_AMPM ? &f->ampm : &f->era) = am ? 0 : 1;
        return true;
    }
    case DF_ZONE_OFFSET:
        return df_parse_offset(in, f);
    case DF_FRAC: {
        size_t start = in->pos;
        if (!df_parse_num(in, o->max, false, &v)) return false;
        int digits = (int)(in->pos - start);
        for (; digits > 3; digits--) v /= 10;
        for (; digits < 3; digits++) v *= 10;
        f->millis = (int)v;
        return true;
    }
    default:
        break;
    }
    return df_parse_number_op(o, in, f);
}

/* The context for messages: "(date_parse with format '%Y')". */
typedef struct df_ctx {
    const char *fn;
    const char *fmt;
    size_t fmt_len;
} df_ctx;

static bool df_invalid(const df_ctx *c, const df_input *in, size_t at, sqe_error *err) {
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    int shown = (int)SQE_MIN(in->n, 64);
    sqe_strbuf_printf(&sb, "Invalid format: \"%.*s\"", shown, in->s);
    if (at > 0 && at >= in->n)
        sqe_strbuf_puts(&sb, " is too short");
    else if (at > 0)
        sqe_strbuf_printf(&sb, " is malformed at \"%.*s\"", (int)SQE_MIN(in->n - at, 64),
                          in->s + at);
    sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT, "%s (%s with format '%.*s')", sb.data, c->fn,
                  (int)SQE_MIN(c->fmt_len, 64), c->fmt);
    sqe_strbuf_free(&sb);
    return false;
}

static bool df_range(const df_ctx *c, const df_input *in, int64_t v, const char *field, int64_t lo,
                     int64_t hi, sqe_error *err) {
    if (v >= lo && v <= hi) return true;
    return sqe_error_set(
        err, SQE_ERR_INVALID_ARGUMENT,
        "Cannot parse \"%.*s\": Value %lld for %s must be in the range [%lld,%lld] "
        "(%s with format '%.*s')",
        (int)SQE_MIN(in->n, 64), in->s, (long long)v, field, (long long)lo, (long long)hi, c->fn,
        (int)SQE_MIN(c->fmt_len, 64), c->fmt);
}

#define DF_MAX_YEAR 5000000 /* keeps every day number inside int32 */

static bool df_leap(int64_t y) {
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* The day number the parsed date fields name (validated). */
static bool df_resolve_date(const df_ctx *c, const df_input *in, const df_fields *f, int64_t *days,
                            sqe_error *err) {
    int64_t y = f->has_year ? f->year : 1970;
    if (f->era == 0) y = 1 - y; /* BC */
    if (!df_range(c, in, y, "year", -DF_MAX_YEAR, DF_MAX_YEAR, err)) return false;
    if (f->has_doy) {
        if (!df_range(c, in, f->doy, "dayOfYear", 1, df_leap(y) ? 366 : 365, err)) return false;
        *days = sqe_date_from_ymd((int)y, 1, 1) + f->doy - 1;
    } else if (f->has_week || f->has_weekyear) {
        int64_t wy = f->has_weekyear ? f->weekyear : y;
        if (!df_range(c, in, wy, "weekyear", -DF_MAX_YEAR, DF_MAX_YEAR, err)) return false;
        int64_t jan4 = sqe_date_from_ymd((int)wy, 1, 4);
        int64_t week1 = jan4 - (sqe_floor_mod(jan4 + 3, 7));
        int64_t next = sqe_date_from_ymd((int)wy + 1, 1, 4);
        int64_t weeks = (next - sqe_floor_mod(next + 3, 7) - week1) / 7;
        int week = f->has_week ? f->week : 1;
        if (!df_range(c, in, week, "weekOfWeekyear", 1, weeks, err)) return false;
        *days = week1 + (week - 1) * 7 + 3; /* Thursday, as Joda's base instant */
    } else {
        if (!df_range(c, in, f->month, "monthOfYear", 1, 12, err)) return false;
        static const int k_dim[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
        int dim = f->month == 2 && df_leap(y) ? 29 : k_dim[f->month - 1];
        if (!df_range(c, in, f->day, "dayOfMonth", 1, dim, err)) return false;
        *days = sqe_date_from_ymd((int)y, f->month, f->day);
    }
    if (f->has_dow) {
        if (!df_range(c, in, f->dow, "dayOfWeek", 1, 7, err)) return false;
        *days += f->dow - (sqe_floor_mod(*days + 3, 7) + 1); /* moves within the ISO week */
    }
    return true;
}

static bool df_resolve_hour(const df_ctx *c, const df_input *in, const df_fields *f, int *hour,
                            sqe_error *err) {
    if (f->hour24 >= 0) {
        *hour = f->hour24;
        return df_range(c, in, f->hour24, "hourOfDay", 0, 23, err);
    }
    if (f->clock24 >= 0) {
        *hour = f->clock24 % 24;
        return df_range(c, in, f->clock24, "clockhourOfDay", 1, 24, err);
    }
    int h12 = 0;
    if (f->clock12 >= 0) {
        if (!df_range(c, in, f->clock12, "clockhourOfHalfday", 1, 12, err)) return false;
        h12 = f->clock12 % 12;
    } else if (f->hour12 >= 0) {
        if (!df_range(c, in, f->hour12, "hourOfHalfday", 0, 11, err)) return false;
        h12 = f->hour12;
    }
    *hour = h12 + (f->ampm == 1 ? 12 : 0);
    return true;
}

/* Parses text with the program into microseconds since the epoch (UTC). */
static bool df_parse(const df_pattern *p, const df_ctx *c, const char *s, size_t n, int64_t *out,
                     int *offset_out, sqe_error *err) {
    df_fields f = {.month = 1,
                   .day = 1,
                   .hour24 = -1,
                   .clock24 = -1,
                   .hour12 = -1,
                   .clock12 = -1,
                   .ampm = -1,
                   .era = -1};
    df_input in = {s, n, 0};
    for (int i = 0; i < p->n; i++) {
        if (p->ops[i].kind == DF_ZONE_NAME)
            return sqe_error_set(err, SQE_ERR_NOT_SUPPORTED,
                                 "parsing time zone names (z) is not supported yet in %s", c->fn);
        size_t at = in.pos;
        if (!df_parse_op(&p->ops[i], p, &in, &f)) return df_invalid(c, &in, at, err);
    }
    if (in.pos < n) return df_invalid(c, &in, in.pos, err);
    int64_t days;
    int hour;
    if (!df_resolve_date(c, &in, &f, &days, err) || !df_resolve_hour(c, &in, &f, &hour, err) ||
        !df_range(c, &in, f.minute, "minuteOfHour", 0, 59, err) ||
        !df_range(c, &in, f.second, "secondOfMinute", 0, 59, err))
        return false;
    int64_t secs = days * 86400 + hour * 3600 + f.minute * 60 + f.second - f.offset_min * 60;
    /* years up to DF_MAX_YEAR fit a day number, not microseconds (about
     * 292,000 years either way) */
    if (secs >= INT64_MAX / SQE_MICROS_PER_SECOND || secs <= INT64_MIN / SQE_MICROS_PER_SECOND)
        return sqe_error_set(err, SQE_ERR_OUT_OF_RANGE,
                             "Cannot parse \"%.*s\": the instant is out of the timestamp range "
                             "(%s with format '%.*s')",
                             (int)SQE_MIN(n, 64), s, c->fn, (int)SQE_MIN(c->fmt_len, 64), c->fmt);
    *out = secs * SQE_MICROS_PER_SECOND + f.millis * 1000;
    *offset_out = f.has_offset ? f.offset_min : INT32_MIN;
    return true;
}

/* The packed TIMESTAMP WITH TIME ZONE for a parsed UTC instant and the
 * offset written (INT32_MIN: none; utc_us is then the wall time in the
 * session zone `zone`). */
static bool df_tstz(int64_t utc_us, int offset_min, uint16_t zone, int64_t *out, sqe_error *err) {
    uint16_t key = 0;
    if (offset_min == INT32_MIN && zone != 0) {
        if (!sqe_tstz_from_local(utc_us, zone, out))
            return sqe_error_set(err, SQE_ERR_OUT_OF_RANGE,
                                 "timestamp with time zone out of range");
        return true;
    }
    if (offset_min != INT32_MIN && offset_min != 0) {
        char z[16];
        int a = offset_min < 0 ? -offset_min : offset_min;
        snprintf(z, sizeof z, "%c%02d:%02d", offset_min < 0 ? '-' : '+', a / 60, a % 60);
        if (!sqe_tz_key(z, strlen(z), &key, err)) return false;
    }
    int64_t ms = sqe_floor_div(utc_us, 1000);
    if (ms <= -SQE_TSTZ_MAX_MILLIS || ms >= SQE_TSTZ_MAX_MILLIS)
        return sqe_error_set(err, SQE_ERR_OUT_OF_RANGE, "timestamp with time zone out of range");
    *out = sqe_tstz_pack(ms, key);
    return true;
}

/* ------------------------------------------------------------ kernels */

typedef struct df_bind {
    bool joda;
    const df_pattern *pat; /* compiled constant pattern, or NULL */
} df_bind;

/* Appends " (fn with format 'f')" to a pattern error. */
static bool df_wrap_error(sqe_error *err, const char *fn, const char *f, size_t n) {
    char msg[SQE_ERROR_MSG_MAX];
    snprintf(msg, sizeof msg, "%s", err->msg);
    return sqe_error_set(err, err->cls, "%s (%s with format '%.*s')", msg, fn, (int)SQE_MIN(n, 64),
                         f);
}

static bool df_compile(bool joda, const char *f, size_t n, df_pattern *p, sqe_error *err) {
    return joda ? df_compile_joda(f, n, p, err) : df_compile_mysql(f, n, p, err);
}

/* The program for a row: the constant one, or the row's pattern compiled
 * into *scratch (reused while the pattern text repeats). */
static const df_pattern *df_row_pattern(const sqe_func_binding *b, sqe_vector *fmt, uint32_t row,
                                        df_pattern *scratch, sqe_string *last, df_ctx *c,
                                        sqe_error *err) {
    const df_bind *db = b->data;
    uint32_t len;
    c->fn = b->name;
    c->fmt = sqe_func_str(fmt, row, &len);
    c->fmt_len = len;
    if (db->pat) return db->pat;
    const sqe_string *s = &SQE_VEC_DATA(fmt, sqe_string)[row];
    if (last->len != UINT32_MAX && sqe_string_eq(last, s)) return scratch;
    if (!df_compile(db->joda, c->fmt, len, scratch, err)) {
        last->len = UINT32_MAX;
        df_wrap_error(err, b->name, c->fmt, len);
        return NULL;
    }
    *last = *s;
    return scratch;
}

static SQE_KERNEL(df_format_kernel) {
    const int64_t *x = SQE_VEC_DATA(args[0], int64_t);
    bool tz = b->arg_types[0].id == SQE_T_TIMESTAMP_TZ;
    bool nulls = sqe_func_propagate_nulls(args, 2, sel, n, out);
    df_pattern scratch;
    sqe_string last = {.len = UINT32_MAX};
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    bool ok = true;
    SQE_FOR_ROWS(sel, n, row, {
        if (!ok || (nulls && !sqe_func_row_valid(out, row))) continue;
        df_ctx c;
        const df_pattern *p = df_row_pattern(b, args[1], row, &scratch, &last, &c, err);
        if (!p) {
            ok = false;
            continue;
        }
        sqe_strbuf_clear(&sb);
        if (tz) {
            int64_t ms = sqe_tstz_millis(x[row]);
            uint16_t key = sqe_tstz_key(x[row]);
            df_print(p, sqe_tstz_local_micros(x[row]), key,
                     sqe_tz_offset(key, sqe_floor_div(ms, 1000)), &sb);
        } else if (b->zone == 0) {
            df_print(p, x[row], 0, 0, &sb);
        } else { /* the wall time in the session zone (a gap moves it forward) */
            int64_t secs = sqe_floor_div(x[row], SQE_MICROS_PER_SECOND);
            int64_t utc = sqe_tz_local_to_utc(b->zone, secs);
            int32_t off = sqe_tz_offset(b->zone, utc);
            df_print(p, x[row] + (utc + off - secs) * SQE_MICROS_PER_SECOND, b->zone, off, &sb);
        }
        if (!sqe_vector_set_string(out, row, sb.data ? sb.data : "", sb.len))
            ok = sqe_func_mem_error(out, b->name, err);
    });
    sqe_strbuf_free(&sb);
    return ok;
}

static SQE_KERNEL(df_parse_kernel) {
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    bool tz = b->ret.id == SQE_T_TIMESTAMP_TZ;
    bool nulls = sqe_func_propagate_nulls(args, 2, sel, n, out);
    df_pattern scratch;
    sqe_string last = {.len = UINT32_MAX};
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        df_ctx c;
        const df_pattern *p = df_row_pattern(b, args[1], row, &scratch, &last, &c, err);
        uint32_t len;
        const char *s = sqe_func_str(args[0], row, &len);
        int off;
        if (!p || !df_parse(p, &c, s, len, &o[row], &off, err)) return false;
        if (tz && !df_tstz(o[row], off, b->zone, &o[row], err)) return false;
    });
    return true;
}

static bool df_bind_fn(const sqe_func_sig *sig, sqe_arena *arena, sqe_func_binding *b,
                       const sqe_value *const *const_args, sqe_error *err) {
    df_bind *db = sqe_arena_alloc(arena, sizeof *db);
    db->joda =
        strcmp(sig->name, "format_datetime") == 0 || strcmp(sig->name, "parse_datetime") == 0;
    db->pat = NULL;
    const sqe_value *f = const_args ? const_args[1] : NULL;
    if (f && !f->is_null && f->type.id == SQE_T_VARCHAR) {
        df_pattern *p = sqe_arena_alloc(arena, sizeof *p);
        if (!df_compile(db->joda, f->v.s.ptr, f->v.s.len, p, err))
            return df_wrap_error(err, sig->name, f->v.s.ptr, f->v.s.len);
        db->pat = p;
    }
    b->data = db;
    if (b->ret.id == SQE_T_TIMESTAMP) b->ret = sqe_type_timestamp(3); /* Trino: timestamp(3) */
    return true;
}

/* ------------------------------------------------------------ ISO 8601 */

/* yyyy[-MM[-dd]] | yyyy-Www[-e] | yyyy-DDD (Joda's dateElementParser). */
static bool iso_date(df_input *in, df_fields *f) {
    int64_t v;
    if (!df_parse_num(in, 9, true, &f->year)) return false;
    f->has_year = true;
    if (in->pos >= in->n || in->s[in->pos] != '-') return true;
    in->pos++;
    if (in->pos < in->n && in->s[in->pos] == 'W') {
        in->pos++;
        f->weekyear = f->year, f->has_weekyear = true, f->has_year = false;
        if (!df_parse_num(in, 2, false, &v)) return false;
        f->week = (int)v, f->has_week = true;
        f->dow = 1, f->has_dow = true;
        if (in->pos + 1 < in->n && in->s[in->pos] == '-') {
            in->pos++;
            if (!df_parse_num(in, 1, false, &v)) return false;
            f->dow = (int)v;
        }
        return true;
    }
    size_t start = in->pos;
    if (!df_parse_num(in, 3, false, &v)) return false;
    if (in->pos - start == 3) {
        f->doy = (int)v, f->has_doy = true;
        return true;
    }
    in->pos = start;
    if (!df_parse_num(in, 2, false, &v)) return false;
    f->month = (int)v;
    if (in->pos < in->n && in->s[in->pos] == '-') {
        in->pos++;
        if (!df_parse_num(in, 2, false, &v)) return false;
        f->day = (int)v;
    }
    return true;
}

/* Thh[:mm[:ss[.f]]][offset] after a date. */
static bool iso_time(df_input *in, df_fields *f) {
    int64_t v;
    in->pos++; /* T */
    if (!df_parse_num(in, 2, false, &v)) return false;
    f->hour24 = (int)v;
    int64_t *parts[2] = {NULL, NULL};
    int64_t mi = 0, se = 0;
    parts[0] = &mi, parts[1] = &se;
    for (int k = 0; k < 2 && in->pos < in->n && in->s[in->pos] == ':'; k++) {
        in->pos++;
        if (!df_parse_num(in, 2, false, parts[k])) return false;
    }
    f->minute = (int)mi, f->second = (int)se;
    if (in->pos < in->n && (in->s[in->pos] == '.' || in->s[in->pos] == ',')) {
        in->pos++;
        df_op frac = {DF_FRAC, 1, 9, 0};
        if (!df_parse_op(&frac, NULL, in, f)) return false;
    }
    if (in->pos < in->n) return df_parse_offset(in, f);
    return true;
}

static bool iso_parse(const char *fn, const char *s, size_t n, bool with_time, int64_t *out,
                      int *offset_out, sqe_error *err) {
    df_fields f = {.month = 1,
                   .day = 1,
                   .hour24 = -1,
                   .clock24 = -1,
                   .hour12 = -1,
                   .clock12 = -1,
                   .ampm = -1,
                   .era = -1};
    df_input in = {s, n, 0};
    df_ctx c = {fn, "ISO 8601", 8};
    size_t at = 0;
    bool ok = iso_date(&in, &f);
    if (ok && with_time && in.pos < n && in.s[in.pos] == 'T') {
        at = in.pos;
        ok = iso_time(&in, &f);
    }
    if (!ok || in.pos < n) return df_invalid(&c, &in, ok ? in.pos : SQE_MAX(at, in.pos), err);
    int64_t days;
    int hour = f.hour24 < 0 ? 0 : f.hour24;
    if (!df_resolve_date(&c, &in, &f, &days, err) ||
        !df_range(&c, &in, hour, "hourOfDay", 0, 23, err) ||
        !df_range(&c, &in, f.minute, "minuteOfHour", 0, 59, err) ||
        !df_range(&c, &in, f.second, "secondOfMinute", 0, 59, err))
        return false;
    if (!with_time) {
        *out = days;
        return true;
    }
    int64_t secs = days * 86400 + hour * 3600 + f.minute * 60 + f.second - f.offset_min * 60;
    /* years up to DF_MAX_YEAR fit a day number, not microseconds (about
     * 292,000 years either way) */
    if (secs >= INT64_MAX / SQE_MICROS_PER_SECOND || secs <= INT64_MIN / SQE_MICROS_PER_SECOND)
        return sqe_error_set(err, SQE_ERR_OUT_OF_RANGE,
                             "Cannot parse \"%.*s\": the instant is out of the timestamp range "
                             "(%s)",
                             (int)SQE_MIN(n, 64), s, c.fn);
    *out = secs * SQE_MICROS_PER_SECOND + f.millis * 1000;
    *offset_out = f.has_offset ? f.offset_min : INT32_MIN;
    return true;
}

static SQE_KERNEL(iso_ts_kernel) {
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    bool nulls = sqe_func_propagate_nulls(args, 1, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t len;
        const char *s = sqe_func_str(args[0], row, &len);
        int off;
        if (!iso_parse(b->name, s, len, true, &o[row], &off, err) ||
            !df_tstz(o[row], off, b->zone, &o[row], err))
            return false;
    });
    return true;
}

static SQE_KERNEL(iso_date_kernel) {
    int32_t *o = SQE_VEC_DATA(out, int32_t);
    bool nulls = sqe_func_propagate_nulls(args, 1, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t len;
        int64_t days;
        const char *s = sqe_func_str(args[0], row, &len);
        int off;
        if (!iso_parse(b->name, s, len, false, &days, &off, err)) return false;
        o[row] = (int32_t)days;
    });
    return true;
}

static SQE_KERNEL(to_iso_kernel) {
    bool is_date = b->arg_types[0].id == SQE_T_DATE;
    bool tz = b->arg_types[0].id == SQE_T_TIMESTAMP_TZ;
    bool nulls = sqe_func_propagate_nulls(args, 1, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        char buf[64];
        size_t len;
        if (is_date) {
            len = sqe_date_format(SQE_VEC_DATA(args[0], int32_t)[row], buf, sizeof buf);
        } else if (tz) { /* Joda's ISO form: "2020-05-11T11:15:05.055+01:00", "Z" for UTC */
            int64_t v = SQE_VEC_DATA(args[0], int64_t)[row];
            len = sqe_timestamp_format_p(sqe_tstz_local_micros(v), 3, buf, sizeof buf);
            char *sp = memchr(buf, ' ', len);
            if (sp) *sp = 'T';
            int off = sqe_tz_offset(sqe_tstz_key(v), sqe_floor_div(sqe_tstz_millis(v), 1000)) / 60;
            int a = off < 0 ? -off : off;
            if (off == 0)
                len += (size_t)snprintf(buf + len, sizeof buf - len, "Z");
            else
                len += (size_t)snprintf(buf + len, sizeof buf - len, "%c%02d:%02d",
                                        off < 0 ? '-' : '+', a / 60, a % 60);
        } else {
            len = sqe_timestamp_format(SQE_VEC_DATA(args[0], int64_t)[row], buf, sizeof buf);
            char *sp = memchr(buf, ' ', len);
            if (sp) *sp = 'T';
        }
        if (!sqe_vector_set_string(out, row, buf, len))
            return sqe_func_mem_error(out, b->name, err);
    });
    return true;
}

/* ------------------------------------------------- durations as text */

/* "93 weeks, 1 day, 8 hours, 31 minutes, 3 seconds" (Trino: seconds
 * rounded half up, the sign dropped, zero units left out). */
static void hrs_format(double x, sqe_strbuf *sb) {
    static const struct {
        const char *unit;
        int64_t secs;
    } k_units[] = {{"week", 604800}, {"day", 86400}, {"hour", 3600}, {"minute", 60}, {"second", 1}};
    double r = floor(fabs(x) + 0.5);
    int64_t s = r >= 9.2e18 ? INT64_MAX : (int64_t)r;
    if (s == 0) {
        sqe_strbuf_puts(sb, "0 seconds");
        return;
    }
    bool first = true;
    for (size_t i = 0; i < SQE_ARRAY_LEN(k_units); i++) {
        int64_t v = s / k_units[i].secs;
        s %= k_units[i].secs;
        if (v == 0) continue;
        sqe_strbuf_printf(sb, "%s%lld %s%s", first ? "" : ", ", (long long)v, k_units[i].unit,
                          v == 1 ? "" : "s");
        first = false;
    }
}

static SQE_KERNEL(hrs_kernel) {
    const double *x = SQE_VEC_DATA(args[0], double);
    bool nulls = sqe_func_propagate_nulls(args, 1, sel, n, out);
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    bool ok = true;
    SQE_FOR_ROWS(sel, n, row, {
        if (!ok || (nulls && !sqe_func_row_valid(out, row))) continue;
        if (isnan(x[row]) || isinf(x[row])) {
            ok = sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT, "Invalid argument found: %s",
                               isnan(x[row]) ? "NaN" : "Infinity");
            continue;
        }
        sqe_strbuf_clear(&sb);
        hrs_format(x[row], &sb);
        if (!sqe_vector_set_string(out, row, sb.data, sb.len))
            ok = sqe_func_mem_error(out, b->name, err);
    });
    sqe_strbuf_free(&sb);
    return ok;
}

/* airlift Duration.valueOf: "\s*digits[.digits]\s*unit\s*", unit one of
 * ns us ms s m h d (case-sensitive); milliseconds rounded half up. */
static bool pd_parse(const char *s, size_t n, int64_t *ms, sqe_error *err) {
    static const struct {
        const char *u;
        double ms;
    } k_units[] = {{"ns", 1e-6}, {"us", 1e-3}, {"ms", 1},    {"s", 1e3},
                   {"m", 6e4},   {"h", 3.6e6}, {"d", 8.64e7}};
    size_t i = 0, j;
    while (i < n && isspace((unsigned char)s[i])) i++;
    size_t num = i;
    while (i < n && isdigit((unsigned char)s[i])) i++;
    bool ok = i > num;
    if (ok && i < n && s[i] == '.') {
        j = ++i;
        while (i < n && isdigit((unsigned char)s[i])) i++;
        ok = i > j;
    }
    size_t num_end = i;
    while (i < n && isspace((unsigned char)s[i])) i++;
    size_t u = i;
    while (i < n && isalpha((unsigned char)s[i])) i++;
    size_t u_end = i;
    while (i < n && isspace((unsigned char)s[i])) i++;
    if (!ok || u_end == u || i != n || num_end - num > 300)
        return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT,
                             "duration is not a valid data duration string: %.*s",
                             (int)SQE_MIN(n, 100), s);
    for (size_t k = 0; k < SQE_ARRAY_LEN(k_units); k++) {
        if (strlen(k_units[k].u) != u_end - u || memcmp(k_units[k].u, s + u, u_end - u) != 0)
            continue;
        char buf[320];
        memcpy(buf, s + num, num_end - num);
        buf[num_end - num] = '\0';
        double r = floor(strtod(buf, NULL) * k_units[k].ms + 0.5);
        if (!(r < 9.2e18))
            return sqe_error_set(err, SQE_ERR_OUT_OF_RANGE, "duration %.*s is out of range",
                                 (int)SQE_MIN(n, 100), s);
        *ms = (int64_t)r;
        return true;
    }
    return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT, "Unknown time unit: %.*s",
                         (int)SQE_MIN(u_end - u, 100), s + u);
}

static SQE_KERNEL(pd_kernel) {
    int64_t *o = SQE_VEC_DATA(out, int64_t);
    bool nulls = sqe_func_propagate_nulls(args, 1, sel, n, out);
    SQE_FOR_ROWS(sel, n, row, {
        if (nulls && !sqe_func_row_valid(out, row)) continue;
        uint32_t len;
        const char *s = sqe_func_str(args[0], row, &len);
        if (!pd_parse(s, len, &o[row], err)) return false;
    });
    return true;
}

/* --------------------------------------------------------------- table */

#define TS SQE_T_TIMESTAMP
#define V SQE_T_VARCHAR

static const sqe_func_sig k_sigs[] = {
    {"date_format", 2, false, {TS, V}, V, df_format_kernel, df_bind_fn},
    {"date_format", 2, false, {SQE_T_TIMESTAMP_TZ, V}, V, df_format_kernel, df_bind_fn},
    {"format_datetime", 2, false, {TS, V}, V, df_format_kernel, df_bind_fn},
    {"format_datetime", 2, false, {SQE_T_TIMESTAMP_TZ, V}, V, df_format_kernel, df_bind_fn},
    {"date_parse", 2, false, {V, V}, TS, df_parse_kernel, df_bind_fn},
    {"parse_datetime", 2, false, {V, V}, SQE_T_TIMESTAMP_TZ, df_parse_kernel, df_bind_fn},
    {"from_iso8601_timestamp", 1, false, {V}, SQE_T_TIMESTAMP_TZ, iso_ts_kernel, NULL},
    {"from_iso8601_date", 1, false, {V}, SQE_T_DATE, iso_date_kernel, NULL},
    {"to_iso8601", 1, false, {SQE_T_DATE}, V, to_iso_kernel, NULL},
    {"to_iso8601", 1, false, {TS}, V, to_iso_kernel, NULL},
    {"to_iso8601", 1, false, {SQE_T_TIMESTAMP_TZ}, V, to_iso_kernel, NULL},
    {"human_readable_seconds", 1, false, {SQE_T_DOUBLE}, V, hrs_kernel, NULL},
    {"parse_duration", 1, false, {V}, SQE_T_INTERVAL_DS, pd_kernel, NULL},
};

SQE_FUNC_TABLE(sqe_func_datefmt_table, k_sigs);

/* ------------------------------------------- Joda patterns outside SQL */

/* func.h: the pattern text is kept for messages. */
struct sqe_joda_pattern {
    df_pattern p;
    char *text;
};

sqe_joda_pattern *sqe_joda_compile(const char *pattern, sqe_error *err) {
    sqe_joda_pattern *j = sqe_calloc(1, sizeof *j);
    if (!df_compile_joda(pattern, strlen(pattern), &j->p, err)) {
        sqe_free(j);
        return NULL;
    }
    j->text = sqe_strdup(pattern);
    return j;
}

void sqe_joda_print(const sqe_joda_pattern *p, int64_t us, sqe_strbuf *sb) {
    df_print(&p->p, us, 0, 0, sb);
}

bool sqe_joda_parse(const sqe_joda_pattern *p, const char *fn, const char *s, size_t n, int64_t *us,
                    sqe_error *err) {
    df_ctx c = {fn, p->text, strlen(p->text)};
    int offset;
    return df_parse(&p->p, &c, s, n, us, &offset, err);
}

void sqe_joda_free(sqe_joda_pattern *p) {
    if (!p) return;
    sqe_free(p->text);
    sqe_free(p);
}
