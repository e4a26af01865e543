/*
 * datetime.c - DATE and TIMESTAMP: calendar conversion, text parsing and
 * formatting.
 *
 * DATE is int32 days since 1970-01-01; TIMESTAMP is int64 microseconds since
 * 1970-01-01 00:00:00, without a time zone (Trino's `timestamp`, Hive's
 * TIMESTAMP). The calendar is proleptic Gregorian, converted with Howard
 * Hinnant's days_from_civil / civil_from_days, which are exact for every
 * int32 day count and need no tables.
 *
 * Accepted text (the shape Trino's and Hive's parsers share):
 *     date       [+-]YYYY[YY]-M[M]-D[D]          (4 to 6 year digits)
 *     timestamp  date [( |T)H[H]:M[M][:S[S][.f...]]]
 * Fractional digits past microseconds are truncated. No time zones.
 * Parsers take a length and never read past it (text readers hand in
 * slices of a file buffer that are not NUL-terminated).
 */
#include "types/types_int.h"

#include <stdio.h>
#include <string.h>

#define MICROS_PER_SECOND 1000000LL
#define MICROS_PER_DAY 86400000000LL

static int64_t sqe_floor_mod_i64(int64_t a, int64_t b) {
    int64_t r = a % b;
    return r < 0 ? r + b : r;
}

/* ----------------------------------------------------------- calendar */

static bool is_leap(long y) {
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int days_in_month(long y, int m) {
    static const int k_days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && is_leap(y) ? 29 : k_days[m - 1];
}

bool sqe_ymd_valid(int y, int m, int d) {
    return m >= 1 && m <= 12 && d >= 1 && d <= days_in_month(y, m);
}

static int64_t days_from_civil(int64_t y, int m, int d) {
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;                                  /* [0, 399] */
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1; /* [0, 365] */
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;          /* [0, 146096] */
    return era * 146097 + doe - 719468;
}

int32_t sqe_date_from_ymd(int y, int m, int d) {
    return (int32_t)days_from_civil(y, m, d);
}

void sqe_date_to_ymd(int32_t days, int *y, int *m, int *d) {
    int64_t z = (int64_t)days + 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    int dd = (int)(doy - (153 * mp + 2) / 5 + 1);
    int mm = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = (int)(yoe + era * 400 + (mm <= 2));
    *m = mm;
    *d = dd;
}

/* ---------------------------------------------------------- formatting */

static size_t format_ymd(int y, int m, int d, char *buf, size_t buf_len) {
    int n;
    if (y > 9999)
        n = snprintf(buf, buf_len, "+%d-%02d-%02d", y, m, d);
    else if (y < 0)
        n = snprintf(buf, buf_len, "-%04d-%02d-%02d", -y, m, d);
    else
        n = snprintf(buf, buf_len, "%04d-%02d-%02d", y, m, d);
    if (n < 0) return 0;
    return (size_t)n < buf_len ? (size_t)n : (buf_len ? buf_len - 1 : 0);
}

size_t sqe_date_format(int32_t days, char *buf, size_t buf_len) {
    int y, m, d;
    sqe_date_to_ymd(days, &y, &m, &d);
    return format_ymd(y, m, d, buf, buf_len);
}

size_t sqe_timestamp_format(int64_t micros, char *buf, size_t buf_len) {
    int64_t days = micros / MICROS_PER_DAY, rem = micros % MICROS_PER_DAY;
    if (rem < 0) {
        rem += MICROS_PER_DAY;
        days -= 1;
    }
    int y, m, d;
    sqe_date_to_ymd((int32_t)days, &y, &m, &d);
    size_t n = format_ymd(y, m, d, buf, buf_len);
    int64_t secs = rem / MICROS_PER_SECOND, frac = rem % MICROS_PER_SECOND;
    int k;
    if (frac % 1000 == 0)
        k = snprintf(buf + n, buf_len - n, " %02d:%02d:%02d.%03d", (int)(secs / 3600),
                     (int)(secs / 60 % 60), (int)(secs % 60), (int)(frac / 1000));
    else
        k = snprintf(buf + n, buf_len - n, " %02d:%02d:%02d.%06d", (int)(secs / 3600),
                     (int)(secs / 60 % 60), (int)(secs % 60), (int)frac);
    if (k < 0) return n;
    return n + (size_t)k < buf_len ? n + (size_t)k : (buf_len ? buf_len - 1 : 0);
}

bool sqe_timestamp_round(int64_t micros, int p, int64_t *out) {
    if (p < 0 || p >= 6) {
        *out = micros;
        return true;
    }
    static const int64_t k_unit[6] = {1000000, 100000, 10000, 1000, 100, 10};
    int64_t unit = k_unit[p], r;
    if (__builtin_add_overflow(micros, unit / 2, &r)) return false;
    r = r / unit - (r % unit < 0); /* floor */
    return !__builtin_mul_overflow(r, unit, out);
}

size_t sqe_timestamp_format_p(int64_t micros, int p, char *buf, size_t buf_len) {
    if (p < 0) return sqe_timestamp_format(micros, buf, buf_len);
    size_t n = sqe_timestamp_format(micros, buf, buf_len);
    /* The plain form ends in ".fff" or ".ffffff": rewrite the fraction. */
    char *dot = n ? memrchr(buf, '.', n) : NULL;
    if (!dot) return n;
    size_t at = (size_t)(dot - buf);
    int64_t frac = sqe_floor_mod_i64(micros, MICROS_PER_SECOND);
    char digits[16];
    snprintf(digits, sizeof digits, "%06lld000000", (long long)frac);
    if (p == 0) {
        buf[at] = '\0';
        return at;
    }
    size_t want = at + 1 + (size_t)p;
    if (want + 1 > buf_len) return n;
    memcpy(buf + at + 1, digits, (size_t)p);
    buf[want] = '\0';
    return want;
}

/* -------------------------------------------------------------- parsing */

/* Reads min..max ASCII digits at *i into *out. */
static bool read_digits(const char *p, size_t n, size_t *i, int min, int max, long *out) {
    long v = 0;
    int k = 0;
    while (*i < n && k < max && (unsigned)(p[*i] - '0') < 10) {
        v = v * 10 + (p[*i] - '0');
        (*i)++;
        k++;
    }
    if (k < min || (*i < n && (unsigned)(p[*i] - '0') < 10)) return false;
    *out = v;
    return true;
}

/* Parses the date part at the start of p; *i is left after it. */
static bool parse_date_prefix(const char *p, size_t n, size_t *i, int64_t *days) {
    bool neg = false;
    long y, m, d;
    if (*i < n && (p[*i] == '-' || p[*i] == '+')) neg = p[(*i)++] == '-';
    if (!read_digits(p, n, i, 4, 6, &y)) return false;
    if (*i >= n || p[*i] != '-') return false;
    (*i)++;
    if (!read_digits(p, n, i, 1, 2, &m)) return false;
    if (*i >= n || p[*i] != '-') return false;
    (*i)++;
    if (!read_digits(p, n, i, 1, 2, &d)) return false;
    if (neg) y = -y;
    if (!sqe_ymd_valid((int)y, (int)m, (int)d)) return false;
    *days = days_from_civil(y, (int)m, (int)d);
    return true;
}

bool sqe_parse_date(const char *p, size_t n, int32_t *days) {
    size_t i = 0;
    int64_t dd;
    if (!parse_date_prefix(p, n, &i, &dd) || i != n) return false;
    *days = (int32_t)dd; /* 6-digit years stay well inside int32 */
    return true;
}

bool sqe_parse_timestamp(const char *p, size_t n, int64_t *micros) {
    size_t i = 0;
    int64_t days;
    if (!parse_date_prefix(p, n, &i, &days)) return false;
    long hh = 0, mi = 0, ss = 0, frac = 0;
    if (i < n) {
        if (p[i] != ' ' && p[i] != 'T') return false;
        i++;
        if (!read_digits(p, n, &i, 1, 2, &hh)) return false;
        if (i >= n || p[i] != ':') return false;
        i++;
        if (!read_digits(p, n, &i, 1, 2, &mi)) return false;
        if (i < n && p[i] == ':') {
            i++;
            if (!read_digits(p, n, &i, 1, 2, &ss)) return false;
            if (i < n && p[i] == '.') {
                i++;
                int k = 0;
                while (i < n && (unsigned)(p[i] - '0') < 10) {
                    if (k < 6) frac = frac * 10 + (p[i] - '0');
                    k++;
                    i++;
                }
                if (k == 0) return false;
                for (; k < 6; k++) frac *= 10;
            }
        }
        if (i != n) return false;
        if (hh > 23 || mi > 59 || ss > 59) return false;
    }
    int64_t day_us, t;
    int64_t tod = ((int64_t)hh * 3600 + mi * 60 + ss) * MICROS_PER_SECOND + frac;
    if (__builtin_mul_overflow(days, MICROS_PER_DAY, &day_us) ||
        __builtin_add_overflow(day_us, tod, &t))
        return false;
    *micros = t;
    return true;
}

/* --------------------------------------------------------------- TIME */

bool sqe_parse_time(const char *p, size_t n, int64_t *micros, int *digits) {
    size_t i = 0;
    long h, m, s = 0;
    *digits = 0;
    if (!read_digits(p, n, &i, 1, 2, &h) || i >= n || p[i++] != ':' ||
        !read_digits(p, n, &i, 1, 2, &m))
        return false;
    int64_t frac = 0;
    if (i < n && p[i] == ':') {
        i++;
        if (!read_digits(p, n, &i, 1, 2, &s)) return false;
        if (i < n && p[i] == '.') {
            i++;
            int k = 0;
            while (i < n && (unsigned)(p[i] - '0') < 10) {
                if (k < 6) frac = frac * 10 + (p[i] - '0');
                i++, k++;
            }
            if (k == 0 || k > 12) return false;
            for (int d = k; d < 6; d++) frac *= 10;
            *digits = k;
        }
    }
    if (i != n || h > 23 || m > 59 || s > 59) return false;
    *micros = ((int64_t)h * 3600 + m * 60 + s) * MICROS_PER_SECOND + frac;
    return true;
}

size_t sqe_time_format(int64_t micros, int p, char *buf, size_t buf_len) {
    int64_t secs = micros / MICROS_PER_SECOND, frac = micros % MICROS_PER_SECOND;
    int k = snprintf(buf, buf_len, "%02d:%02d:%02d", (int)(secs / 3600), (int)(secs / 60 % 60),
                     (int)(secs % 60));
    if (k < 0) return 0;
    size_t n = (size_t)k;
    if (p > 0 && n + 1 + (size_t)p < buf_len) {
        char digits[16];
        snprintf(digits, sizeof digits, "%06lld000000", (long long)frac);
        buf[n++] = '.';
        memcpy(buf + n, digits, (size_t)p);
        n += (size_t)p;
        buf[n] = '\0';
    }
    return n < buf_len ? n : (buf_len ? buf_len - 1 : 0);
}
