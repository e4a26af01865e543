/*
 * tz.c - time zones: a bounded reader for the system's TZif files
 * (/usr/share/zoneinfo, Debian's tzdata package; RFC 8536 version 2+),
 * the POSIX TZ rule in the file's footer for instants past the table,
 * fixed offsets, and the process-wide zone keys TIMESTAMP WITH TIME ZONE
 * values carry.
 *
 * Why not ICU: the zone database is all sqe needs from it (Joda patterns
 * are done in func/datefmt.c), and tzdata is already on every Debian host.
 *
 * Zone names: "UTC" (also "Z", "GMT", "UT", "Etc/UTC"), fixed offsets
 * "+hh:mm" / "-hh:mm" / "+hhmm" / "+hh" (|offset| <= 14:00, printed
 * "+hh:mm"), or an IANA name of ASCII letters, digits, '/', '_', '-', '+'
 * (at most 64 bytes, no "." segments) read from the zoneinfo folder. An
 * unknown name is INVALID_ARGUMENT "Time zone not supported: Mars/Base"
 * (Trino's text).
 *
 * Reading is bounded: the file must be at most 1 MiB, every count is checked
 * against the bytes present before use, at most 20000 transitions and 256
 * local time types; the v1 block is skipped and the 64-bit v2 block read.
 * A footer that does not parse leaves the last offset in force.
 *
 * Keys (uint16, 12 bits used in values): 0 is UTC; 1..2047 IANA zones
 * interned on first use in a process-wide table (a cache of immutable
 * system data, filled under a mutex, read lock-free through atomic
 * pointers); 2048 + 840 + minutes are fixed offsets -14:00..+14:00.
 *
 * Local -> UTC (with_timezone, casts): in a gap (spring forward) the time is
 * moved forward by the gap, in an overlap (fall back) the earlier instant
 * wins, as Joda-Time (Trino) resolves them.
 */
#include "types/types_int.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TZ_DIR "/usr/share/zoneinfo/"
#define TZ_MAX_FILE (1 << 20)
#define TZ_MAX_TRANS 20000
#define TZ_MAX_TYPES 256
#define TZ_MAX_NAMED 2048
#define TZ_OFFSET_BASE 2048

typedef struct tz_rule_date {
    char kind; /* 'J' (1..365, no Feb 29), 'N' (0..365), 'M' (month.week.day) */
    int a, b, c;
    int32_t time; /* seconds after local midnight */
} tz_rule_date;

typedef struct sqe_tz {
    char name[72];
    int n_trans;
    int64_t *trans;     /* UTC seconds */
    int32_t *trans_off; /* offset in force from trans[i] */
    int32_t first_off;  /* before trans[0] */
    bool has_rule;
    int32_t std_off, dst_off; /* seconds east of UTC */
    bool has_dst;
    tz_rule_date start, end;
} sqe_tz;

/* ------------------------------------------------------- TZif parsing */

static uint32_t tz_be32(const unsigned char *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int64_t tz_be64(const unsigned char *p) {
    return (int64_t)((uint64_t)tz_be32(p) << 32 | tz_be32(p + 4));
}

/* POSIX offset "[+-]hh[:mm[:ss]]"; returns seconds (as written: west +). */
static const char *tz_posix_time(const char *s, int32_t *out) {
    int sign = 1;
    if (*s == '+' || *s == '-') sign = *s++ == '-' ? -1 : 1;
    int parts[3] = {0, 0, 0}, k = 0;
    for (; k < 3; k++) {
        if (*s < '0' || *s > '9') return k ? s : NULL;
        int v = 0;
        while (*s >= '0' && *s <= '9' && v < 1000) v = v * 10 + (*s++ - '0');
        parts[k] = v;
        if (*s != ':') {
            k++;
            break;
        }
        s++;
    }
    *out = sign * (parts[0] * 3600 + parts[1] * 60 + parts[2]);
    return s;
}

static const char *tz_posix_name(const char *s) {
    if (*s == '<') {
        while (*s && *s != '>') s++;
        return *s ? s + 1 : NULL;
    }
    const char *b = s;
    while ((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')) s++;
    return s - b >= 3 ? s : NULL;
}

static const char *tz_posix_date(const char *s, tz_rule_date *d) {
    d->time = 7200;
    if (*s == 'M') {
        d->kind = 'M';
        if (sscanf(s + 1, "%d.%d.%d", &d->a, &d->b, &d->c) != 3) return NULL;
        s++;
        for (int dots = 0; *s && (*s == '.' || (*s >= '0' && *s <= '9')); s++) dots += *s == '.';
    } else {
        d->kind = *s == 'J' ? 'J' : 'N';
        if (*s == 'J') s++;
        if (*s < '0' || *s > '9') return NULL;
        d->a = 0;
        while (*s >= '0' && *s <= '9' && d->a < 1000) d->a = d->a * 10 + (*s++ - '0');
    }
    if (d->kind == 'M' && (d->a < 1 || d->a > 12 || d->b < 1 || d->b > 5 || d->c < 0 || d->c > 6))
        return NULL;
    if (*s == '/') return tz_posix_time(s + 1, &d->time);
    return s;
}

/* "EST5EDT,M3.2.0,M11.1.0" and the like; false leaves no rule. */
static bool tz_parse_rule(sqe_tz *z, const char *s) {
    int32_t off;
    if (!(s = tz_posix_name(s)) || !(s = tz_posix_time(s, &off))) return false;
    z->std_off = -off;
    z->dst_off = z->std_off;
    z->has_dst = false;
    if (*s == '\0') return z->has_rule = true;
    if (!(s = tz_posix_name(s))) return false;
    z->dst_off = z->std_off + 3600;
    if (*s != ',' && *s != '\0') {
        if (!(s = tz_posix_time(s, &off))) return false;
        z->dst_off = -off;
    }
    if (*s != ',' || !(s = tz_posix_date(s + 1, &z->start)) || *s != ',' ||
        !(s = tz_posix_date(s + 1, &z->end)) || *s != '\0')
        return false;
    return z->has_dst = z->has_rule = true;
}

/* Reads the v2+ data block at p (n bytes left) into z. */
static bool tz_parse_v2(sqe_tz *z, const unsigned char *p, size_t n) {
    if (n < 44 || memcmp(p, "TZif", 4) != 0) return false;
    uint32_t isut = tz_be32(p + 20), isstd = tz_be32(p + 24), leap = tz_be32(p + 28),
             timecnt = tz_be32(p + 32), typecnt = tz_be32(p + 36), charcnt = tz_be32(p + 40);
    if (timecnt > TZ_MAX_TRANS || typecnt == 0 || typecnt > TZ_MAX_TYPES || charcnt > 4096 ||
        leap > 10000 || isut > TZ_MAX_TYPES || isstd > TZ_MAX_TYPES)
        return false;
    size_t need =
        44 + (size_t)timecnt * 9 + (size_t)typecnt * 6 + charcnt + (size_t)leap * 12 + isstd + isut;
    if (need > n) return false;
    const unsigned char *times = p + 44, *idx = times + (size_t)timecnt * 8, *types = idx + timecnt;
    z->n_trans = (int)timecnt;
    z->trans = malloc(sizeof(int64_t) * (timecnt ? timecnt : 1));
    z->trans_off = malloc(sizeof(int32_t) * (timecnt ? timecnt : 1));
    if (!z->trans || !z->trans_off) return false;
    for (uint32_t i = 0; i < timecnt; i++) {
        if (idx[i] >= typecnt) return false;
        z->trans[i] = tz_be64(times + (size_t)i * 8);
        z->trans_off[i] = (int32_t)tz_be32(types + (size_t)idx[i] * 6);
        if (i && z->trans[i] <= z->trans[i - 1]) return false;
    }
    z->first_off = (int32_t)tz_be32(types);
    const unsigned char *foot = p + need;
    size_t fn = n - need;
    if (fn >= 2 && foot[0] == '\n') {
        const unsigned char *nl = memchr(foot + 1, '\n', fn - 1);
        if (nl && nl - foot - 1 < 128) {
            char rule[128];
            memcpy(rule, foot + 1, (size_t)(nl - foot - 1));
            rule[nl - foot - 1] = '\0';
            if (!tz_parse_rule(z, rule)) z->has_rule = false;
        }
    }
    return true;
}

static bool tz_parse_file(sqe_tz *z, const unsigned char *p, size_t n) {
    if (n < 44 || memcmp(p, "TZif", 4) != 0 || p[4] < '2') return false;
    uint32_t isut = tz_be32(p + 20), isstd = tz_be32(p + 24), leap = tz_be32(p + 28),
             timecnt = tz_be32(p + 32), typecnt = tz_be32(p + 36), charcnt = tz_be32(p + 40);
    if (timecnt > TZ_MAX_TRANS || typecnt > TZ_MAX_TYPES || charcnt > 4096 || leap > 10000 ||
        isut > TZ_MAX_TYPES || isstd > TZ_MAX_TYPES)
        return false;
    size_t v1 =
        44 + (size_t)timecnt * 5 + (size_t)typecnt * 6 + charcnt + (size_t)leap * 8 + isstd + isut;
    return v1 < n && tz_parse_v2(z, p + v1, n - v1);
}

static bool tz_name_ok(const char *s, size_t n) {
    if (n == 0 || n > 64 || s[0] == '/') return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                  c == '/' || c == '_' || c == '-' || c == '+';
        if (!ok || (c == '/' && i + 1 < n && s[i + 1] == '/')) return false;
    }
    return true;
}

/* Loads the zone file for name; NULL when missing or malformed. */
static sqe_tz *tz_load_file(const char *name, size_t n) {
    char path[128];
    snprintf(path, sizeof path, TZ_DIR "%.*s", (int)n, name);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char *buf = malloc(TZ_MAX_FILE);
    size_t got = buf ? fread(buf, 1, TZ_MAX_FILE, f) : 0;
    fclose(f);
    sqe_tz *z = calloc(1, sizeof *z);
    bool ok = buf && z && got < TZ_MAX_FILE && tz_parse_file(z, buf, got);
    free(buf);
    if (!ok) {
        if (z) free(z->trans), free(z->trans_off);
        free(z);
        return NULL;
    }
    snprintf(z->name, sizeof z->name, "%.*s", (int)n, name);
    return z;
}

/* ----------------------------------------------------------- offsets */

static int64_t tz_floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static bool tz_leap(int64_t y) {
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* Local seconds (since the epoch) at which the rule date happens in year y. */
static int64_t tz_rule_local(const tz_rule_date *d, int y) {
    int64_t jan1 = sqe_date_from_ymd(y, 1, 1), day;
    if (d->kind == 'J') {
        day = jan1 + d->a - 1 + (tz_leap(y) && d->a >= 60 ? 1 : 0);
    } else if (d->kind == 'N') {
        day = jan1 + d->a;
    } else {
        static const int k_dim[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
        int dim = d->a == 2 && tz_leap(y) ? 29 : k_dim[d->a - 1];
        int64_t first = sqe_date_from_ymd(y, d->a, 1);
        int dow_first = (int)((first % 7 + 7 + 4) % 7); /* 1970-01-01 was a Thursday (4) */
        int dom = 1 + (d->c - dow_first + 7) % 7 + (d->b - 1) * 7;
        while (dom > dim) dom -= 7;
        day = first + dom - 1;
    }
    return day * 86400 + d->time;
}

static int32_t tz_rule_offset(const sqe_tz *z, int64_t t) {
    if (!z->has_dst) return z->std_off;
    int64_t days = tz_floor_div(t + z->std_off, 86400);
    if (days < -1800000000LL || days > 1800000000LL) return z->std_off;
    int y, m, d;
    sqe_date_to_ymd((int32_t)days, &y, &m, &d);
    int64_t start = tz_rule_local(&z->start, y) - z->std_off;
    int64_t end = tz_rule_local(&z->end, y) - z->dst_off;
    bool dst = start < end ? (t >= start && t < end) : !(t >= end && t < start);
    return dst ? z->dst_off : z->std_off;
}

static int32_t tz_offset(const sqe_tz *z, int64_t t) {
    if (z->n_trans == 0) return z->has_rule ? tz_rule_offset(z, t) : z->first_off;
    if (t < z->trans[0]) return z->first_off;
    if (t >= z->trans[z->n_trans - 1] && z->has_rule) return tz_rule_offset(z, t);
    int lo = 0, hi = z->n_trans - 1; /* largest i with trans[i] <= t */
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (z->trans[mid] <= t)
            lo = mid;
        else
            hi = mid - 1;
    }
    return z->trans_off[lo];
}

/* ----------------------------------------------------------- zone keys */

static _Atomic(sqe_tz *) g_zones[TZ_MAX_NAMED];
static int g_n_zones = 1; /* 0 is UTC; guarded by g_zones_mu */
static pthread_mutex_t g_zones_mu = PTHREAD_MUTEX_INITIALIZER;

static bool tz_is_utc(const char *s, size_t n) {
    static const char *const k_utc[] = {"UTC", "Z", "GMT", "UT", "Etc/UTC", "Etc/GMT", "utc"};
    for (size_t i = 0; i < sizeof k_utc / sizeof k_utc[0]; i++)
        if (strlen(k_utc[i]) == n && memcmp(k_utc[i], s, n) == 0) return true;
    return false;
}

/* "+hh:mm", "-hhmm", "+h": minutes east, or false. */
static bool tz_fixed(const char *s, size_t n, int *minutes) {
    if (n < 2 || (s[0] != '+' && s[0] != '-')) return false;
    size_t i = 1;
    int h = 0, m = 0, k = 0;
    while (i < n && k < 2 && s[i] >= '0' && s[i] <= '9') h = h * 10 + (s[i++] - '0'), k++;
    if (k == 0) return false;
    if (i < n && s[i] == ':') i++;
    if (i < n) {
        if (n - i != 2 || s[i] < '0' || s[i] > '5' || s[i + 1] < '0' || s[i + 1] > '9')
            return false;
        m = (s[i] - '0') * 10 + (s[i + 1] - '0');
    }
    int total = h * 60 + m;
    if (total > 14 * 60) return false;
    *minutes = s[0] == '-' ? -total : total;
    return true;
}

static bool tz_unknown(const char *s, size_t n, sqe_error *err) {
    return sqe_error_set(err, SQE_ERR_INVALID_ARGUMENT, "Time zone not supported: %.*s",
                         (int)(n > 100 ? 100 : n), s);
}

bool sqe_tz_key(const char *s, size_t n, uint16_t *key, sqe_error *err) {
    int minutes;
    if (tz_is_utc(s, n)) {
        *key = 0;
        return true;
    }
    if (tz_fixed(s, n, &minutes)) {
        *key = minutes == 0 ? 0 : (uint16_t)(TZ_OFFSET_BASE + 840 + minutes);
        return true;
    }
    if (!tz_name_ok(s, n) || memmem(s, n, "..", 2)) return tz_unknown(s, n, err);
    pthread_mutex_lock(&g_zones_mu);
    for (int i = 1; i < g_n_zones; i++) {
        sqe_tz *z = atomic_load(&g_zones[i]);
        if (strlen(z->name) == n && memcmp(z->name, s, n) == 0) {
            pthread_mutex_unlock(&g_zones_mu);
            *key = (uint16_t)i;
            return true;
        }
    }
    sqe_tz *z = g_n_zones < TZ_MAX_NAMED ? tz_load_file(s, n) : NULL;
    if (z) {
        *key = (uint16_t)g_n_zones;
        atomic_store(&g_zones[g_n_zones++], z);
    }
    pthread_mutex_unlock(&g_zones_mu);
    return z ? true : tz_unknown(s, n, err);
}

const char *sqe_tz_key_name(uint16_t key, char *buf, size_t len) {
    if (key == 0 || key >= TZ_OFFSET_BASE + 2 * 840 + 1) {
        snprintf(buf, len, "UTC");
    } else if (key >= TZ_OFFSET_BASE) {
        int m = key - TZ_OFFSET_BASE - 840, a = m < 0 ? -m : m;
        snprintf(buf, len, "%c%02d:%02d", m < 0 ? '-' : '+', a / 60, a % 60);
    } else {
        sqe_tz *z = atomic_load(&g_zones[key]);
        snprintf(buf, len, "%s", z ? z->name : "UTC");
    }
    return buf;
}

int32_t sqe_tz_offset(uint16_t key, int64_t utc_seconds) {
    if (key == 0 || key >= TZ_OFFSET_BASE + 2 * 840 + 1) return 0;
    if (key >= TZ_OFFSET_BASE) return (key - TZ_OFFSET_BASE - 840) * 60;
    sqe_tz *z = atomic_load(&g_zones[key]);
    return z ? tz_offset(z, utc_seconds) : 0;
}

int64_t sqe_tz_local_to_utc(uint16_t key, int64_t local) {
    /* Offsets around the local time (at most one transition within a day). */
    int32_t before = sqe_tz_offset(key, local - 86400), after = sqe_tz_offset(key, local + 86400);
    int32_t first = before > after ? before : after, second = before > after ? after : before;
    if (sqe_tz_offset(key, local - first) == first) return local - first; /* earlier instant */
    if (sqe_tz_offset(key, local - second) == second) return local - second;
    return local - before; /* in a gap: moved forward by the gap */
}

/* ------------------------------------------- TIMESTAMP WITH TIME ZONE */

int64_t sqe_tstz_local_micros(int64_t v) {
    int64_t ms = sqe_tstz_millis(v);
    int32_t off = sqe_tz_offset(sqe_tstz_key(v), tz_floor_div(ms, 1000));
    return (ms + (int64_t)off * 1000) * 1000;
}

bool sqe_tstz_from_local(int64_t local_micros, uint16_t key, int64_t *out) {
    int64_t ms = tz_floor_div(local_micros + 500, 1000);
    int64_t secs = tz_floor_div(ms, 1000), frac = ms - secs * 1000;
    int64_t utc = sqe_tz_local_to_utc(key, secs) * 1000 + frac;
    if (utc <= -SQE_TSTZ_MAX_MILLIS || utc >= SQE_TSTZ_MAX_MILLIS) return false;
    *out = sqe_tstz_pack(utc, key);
    return true;
}

size_t sqe_tstz_format(int64_t v, char *buf, size_t buf_len) {
    size_t n = sqe_timestamp_format_p(sqe_tstz_local_micros(v), 3, buf, buf_len);
    char zone[80];
    sqe_tz_key_name(sqe_tstz_key(v), zone, sizeof zone);
    int k = snprintf(buf + n, buf_len - n, " %s", zone);
    if (k < 0) return n;
    return n + (size_t)k < buf_len ? n + (size_t)k : (buf_len ? buf_len - 1 : 0);
}
