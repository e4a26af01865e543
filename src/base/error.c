/*
 * error.c - error values: a class (client-visible name + SQLSTATE) and a
 * message naming the offending thing. Library code fills an sqe_error and
 * returns false; it never prints and never exits (sqe_debug_fail, for a
 * broken internal invariant in debug builds, is the one exception).
 *
 * Messages are formatted here, not with vsnprintf, because the values they
 * quote come from users and files and must stay visible (SPEC: every
 * rejection names the offending thing):
 *  - in every %s / %c argument, bytes a reader cannot see are escaped: NUL
 *    as \0, TAB/LF/CR as \t \n \r, other C0 controls and DEL as \xhh,
 *    bytes that are not UTF-8 as \xhh, and invisible code points (BOM
 *    U+FEFF, zero-width and bidirectional marks, C1 controls) as \uhhhh.
 *    The format's own text is copied as written; backslashes are never
 *    doubled, so escaping an already escaped message changes nothing.
 *  - %.*s prints exactly that many bytes, NULs included (callers pass the
 *    value's real length); %.Ns (a number) stops at a NUL as printf does.
 *  - a %s written right after a quote ('%s' or "%s") is a quoted value: at
 *    most SQE_ERROR_VALUE_MAX bytes of it are shown (whole UTF-8
 *    characters), then "...". The rest of the message is never cut for it.
 *  - a message longer than SQE_ERROR_MSG_MAX keeps its start and its end
 *    (where the cause is: "...: File name too long") with " ... " between.
 * Other conversions (d i u x o c f e g p, with flags, width, precision and
 * length modifiers) behave as in printf.
 */
#include "base.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

static const struct {
    const char *name;
    const char *sqlstate;
} k_classes[SQE_ERR__COUNT] = {
    [SQE_OK] = {"OK", "00000"},
    [SQE_ERR_SYNTAX] = {"SYNTAX_ERROR", "42601"},
    [SQE_ERR_NOT_FOUND] = {"NOT_FOUND", "42P01"},
    [SQE_ERR_ALREADY_EXISTS] = {"ALREADY_EXISTS", "42P07"},
    [SQE_ERR_PERMISSION_DENIED] = {"PERMISSION_DENIED", "42501"},
    [SQE_ERR_TYPE_MISMATCH] = {"TYPE_MISMATCH", "42804"},
    [SQE_ERR_INVALID_ARGUMENT] = {"INVALID_ARGUMENT", "22023"},
    [SQE_ERR_INVALID_DATA] = {"INVALID_DATA", "22P02"},
    [SQE_ERR_DIVISION_BY_ZERO] = {"DIVISION_BY_ZERO", "22012"},
    [SQE_ERR_OUT_OF_RANGE] = {"NUMERIC_VALUE_OUT_OF_RANGE", "22003"},
    [SQE_ERR_HIVE_EXTERNAL] = {"HIVE_EXTERNAL", "42000"},
    [SQE_ERR_NOT_SUPPORTED] = {"NOT_SUPPORTED", "0A000"},
    [SQE_ERR_STORAGE] = {"STORAGE", "58030"},
    [SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE] = {"STORAGE_CREDENTIALS_UNAVAILABLE", "28000"},
    [SQE_ERR_CATALOG_TIMEOUT] = {"CATALOG_TIMEOUT", "57014"},
    [SQE_ERR_CANCELLED] = {"CANCELLED", "57014"},
    [SQE_ERR_RESOURCE_EXHAUSTED] = {"RESOURCE_EXHAUSTED", "53000"},
    [SQE_ERR_USAGE] = {"USAGE_ERROR", "42000"},
    [SQE_ERR_INTERNAL] = {"INTERNAL", "XX000"},
};

void sqe_error_clear(sqe_error *err) {
    if (!err) return;
    err->cls = SQE_OK;
    err->msg[0] = '\0';
}

/* Length of the valid UTF-8 sequence at s (at most avail bytes) and its
 * code point, or 0 when the bytes are not UTF-8. */
static size_t utf8_decode(const unsigned char *s, size_t avail, uint32_t *cp_out) {
    unsigned char c = s[0];
    size_t n;
    uint32_t cp;
    if (c < 0x80) {
        *cp_out = c;
        return 1;
    }
    if ((c & 0xE0) == 0xC0) {
        n = 2;
        cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
        n = 3;
        cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
        n = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if (n > avail) return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
        (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
        return 0;
    *cp_out = cp;
    return n;
}

/* Code points that print as nothing (or reorder what follows). */
static bool invisible_cp(uint32_t cp) {
    return (cp >= 0x80 && cp <= 0x9F) || cp == 0xAD || cp == 0x61C || cp == 0x180E ||
           (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202E) ||
           (cp >= 0x2060 && cp <= 0x206F) || cp == 0xFEFF || (cp >= 0xFFF9 && cp <= 0xFFFB);
}

void sqe_error_escape_append(sqe_strbuf *sb, const char *v, size_t len) {
    const unsigned char *s = (const unsigned char *)v, *e = s + len, *run = s;
    while (s < e) {
        char esc[16];
        const char *x = NULL;
        size_t n = 1;
        uint32_t cp = 0;
        if (*s == 0) {
            x = "\\0";
        } else if (*s == '\t') {
            x = "\\t";
        } else if (*s == '\n') {
            x = "\\n";
        } else if (*s == '\r') {
            x = "\\r";
        } else if (*s < 0x20 || *s == 0x7F) {
            snprintf(esc, sizeof esc, "\\x%02x", *s);
            x = esc;
        } else if (*s >= 0x80) {
            n = utf8_decode(s, (size_t)(e - s), &cp);
            if (n == 0) {
                snprintf(esc, sizeof esc, "\\x%02x", *s);
                x = esc;
                n = 1;
            } else if (invisible_cp(cp)) {
                snprintf(esc, sizeof esc, "\\u%04x", (unsigned)cp);
                x = esc;
            }
        }
        if (x) {
            sqe_strbuf_append(sb, (const char *)run, (size_t)(s - run));
            sqe_strbuf_puts(sb, x);
            s += n;
            run = s;
        } else {
            s += n;
        }
    }
    sqe_strbuf_append(sb, (const char *)run, (size_t)(s - run));
}

/* Appends one value: capped when quoted, escaped, padded to width. */
static void put_value(sqe_strbuf *sb, const char *v, size_t len, bool quoted, int width,
                      bool left) {
    size_t start = sb->len;
    const char *more = "";
    if (quoted && len > SQE_ERROR_VALUE_MAX) {
        len = SQE_ERROR_VALUE_MAX;
        while (len > 0 && ((unsigned char)v[len] & 0xC0) == 0x80) len--; /* whole characters */
        more = "...";
    }
    sqe_error_escape_append(sb, v, len);
    sqe_strbuf_puts(sb, more);
    size_t shown = sb->len - start;
    if (width > 0 && shown < (size_t)width) {
        size_t pad = (size_t)width - shown;
        for (size_t i = 0; i < pad; i++) sqe_strbuf_putc(sb, ' ');
        if (!left) { /* right-aligned: move the padding in front */
            memmove(sb->data + start + pad, sb->data + start, shown);
            memset(sb->data + start, ' ', pad);
        }
    }
}

/* One non-string conversion, spelled as `spec` (flags, width and precision
 * as numbers, length, conversion), with its argument taken from ap. */
static void put_number(sqe_strbuf *sb, const char *spec, const char *len_mod, char conv,
                       va_list *ap) {
    bool is_l = !strcmp(len_mod, "l"), is_ll = !strcmp(len_mod, "ll");
    bool is_z = !strcmp(len_mod, "z"), is_j = !strcmp(len_mod, "j"), is_t = !strcmp(len_mod, "t");
    switch (conv) {
    case 'd':
    case 'i':
        if (is_l)
            sqe_strbuf_printf(sb, spec, va_arg(*ap, long));
        else if (is_ll)
            sqe_strbuf_printf(sb, spec, va_arg(*ap, long long));
        else if (is_z)
            sqe_strbuf_printf(sb, spec, va_arg(*ap, ssize_t));
        else if (is_j)
            sqe_strbuf_printf(sb, spec, va_arg(*ap, intmax_t));
        else if (is_t)
            sqe_strbuf_printf(sb, spec, va_arg(*ap, ptrdiff_t));
        else
            sqe_strbuf_printf(sb, spec, va_arg(*ap, int));
        break;
    case 'u':
    case 'o':
    case 'x':
    case 'X':
        if (is_l)
            sqe_strbuf_printf(sb, spec, va_arg(*ap, unsigned long));
        else if (is_ll)
            sqe_strbuf_printf(sb, spec, va_arg(*ap, unsigned long long));
        else if (is_z)
            sqe_strbuf_printf(sb, spec, va_arg(*ap, size_t));
        else if (is_j)
            sqe_strbuf_printf(sb, spec, va_arg(*ap, uintmax_t));
        else if (is_t)
            sqe_strbuf_printf(sb, spec, va_arg(*ap, ptrdiff_t));
        else
            sqe_strbuf_printf(sb, spec, va_arg(*ap, unsigned));
        break;
    case 'p':
        sqe_strbuf_printf(sb, spec, va_arg(*ap, void *));
        break;
    default: /* f F e E g G a A */
        if (!strcmp(len_mod, "L"))
            sqe_strbuf_printf(sb, spec, va_arg(*ap, long double));
        else
            sqe_strbuf_printf(sb, spec, va_arg(*ap, double));
        break;
    }
}

void sqe_error_vformat(sqe_strbuf *sb, const char *fmt, va_list ap_in) {
    va_list ap;
    va_copy(ap, ap_in);
    const char *f = fmt;
    while (*f) {
        const char *pct = strchr(f, '%');
        if (!pct) {
            sqe_strbuf_puts(sb, f);
            break;
        }
        sqe_strbuf_append(sb, f, (size_t)(pct - f));
        bool quoted = pct > fmt && (pct[-1] == '\'' || pct[-1] == '"');
        const char *p = pct + 1;
        char flags[8];
        size_t nf = 0;
        while (*p && strchr("-+ #0", *p)) {
            if (nf + 1 < sizeof flags) flags[nf++] = *p;
            p++;
        }
        flags[nf] = '\0';
        int width = -1, prec = -1;
        bool prec_star = false;
        if (*p == '*') {
            width = va_arg(ap, int);
            p++;
        } else if (*p >= '1' && *p <= '9') {
            for (width = 0; *p >= '0' && *p <= '9'; p++) width = width * 10 + (*p - '0');
        }
        if (*p == '.') {
            p++;
            if (*p == '*') {
                prec = va_arg(ap, int);
                prec_star = true;
                p++;
            } else {
                for (prec = 0; *p >= '0' && *p <= '9'; p++) prec = prec * 10 + (*p - '0');
            }
        }
        char len_mod[3] = {0};
        size_t nl = 0;
        while (*p && strchr("hlzjtL", *p) && nl < 2) len_mod[nl++] = *p++;
        char conv = *p;
        if (!conv) break;
        f = p + 1;
        if (conv == '%') {
            sqe_strbuf_putc(sb, '%');
        } else if (conv == 's') {
            const char *v = va_arg(ap, const char *);
            size_t n;
            if (!v)
                v = "(null)", n = 6;
            else if (prec_star && prec >= 0)
                n = (size_t)prec; /* the caller's length: NULs inside are shown */
            else if (prec >= 0)
                n = strnlen(v, (size_t)prec);
            else
                n = strlen(v);
            put_value(sb, v, n, quoted, width, strchr(flags, '-') != NULL);
        } else if (conv == 'c') {
            char c = (char)va_arg(ap, int);
            put_value(sb, &c, 1, false, width, strchr(flags, '-') != NULL);
        } else if (conv == 'n') {
            (void)va_arg(ap, int *); /* never written */
        } else if (strchr("diuoxXpfFeEgGaA", conv)) {
            char spec[48];
            int k = snprintf(spec, sizeof spec, "%%%s", flags);
            if (width >= 0) k += snprintf(spec + k, sizeof spec - (size_t)k, "%d", width);
            if (prec >= 0) k += snprintf(spec + k, sizeof spec - (size_t)k, ".%d", prec);
            snprintf(spec + k, sizeof spec - (size_t)k, "%s%c", len_mod, conv);
            put_number(sb, spec, len_mod, conv, &ap);
        } else {
            sqe_strbuf_append(sb, pct, (size_t)(f - pct)); /* unknown: as written */
        }
    }
    va_end(ap);
}

/* Copies text into err->msg. When it does not fit, the start and the end
 * are kept (the end holds the cause), joined by " ... ", both cut at whole
 * UTF-8 characters. */
static void store_msg(sqe_error *err, const char *text, size_t len) {
    if (len < sizeof err->msg) {
        memcpy(err->msg, text, len);
        err->msg[len] = '\0';
        return;
    }
    static const char sep[] = " ... ";
    size_t room = sizeof err->msg - 1 - (sizeof sep - 1);
    size_t tail = room / 3, head = room - tail;
    while (head > 0 && ((unsigned char)text[head] & 0xC0) == 0x80) head--;
    size_t tail_start = len - tail;
    while (tail_start < len && ((unsigned char)text[tail_start] & 0xC0) == 0x80) tail_start++;
    memcpy(err->msg, text, head);
    memcpy(err->msg + head, sep, sizeof sep - 1);
    memcpy(err->msg + head + sizeof sep - 1, text + tail_start, len - tail_start);
    err->msg[head + sizeof sep - 1 + len - tail_start] = '\0';
}

bool sqe_error_setv(sqe_error *err, sqe_error_class cls, const char *fmt, va_list ap) {
    if (!err) return false;
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    sqe_error_vformat(&sb, fmt, ap);
    const char *text = sb.data ? sb.data : "";
    err->cls = cls;
    if (cls == SQE_ERR_HIVE_EXTERNAL && strncmp(text, "hive_external:", 14) != 0) {
        sqe_strbuf full;
        sqe_strbuf_init(&full);
        sqe_strbuf_puts(&full, "hive_external: ");
        sqe_strbuf_append(&full, text, sb.len);
        store_msg(err, full.data, full.len);
        sqe_strbuf_free(&full);
    } else {
        store_msg(err, text, sb.len);
    }
    sqe_strbuf_free(&sb);
    return false;
}

bool sqe_error_set(sqe_error *err, sqe_error_class cls, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    sqe_error_setv(err, cls, fmt, ap);
    va_end(ap);
    return false;
}

bool sqe_error_prefix(sqe_error *err, const char *fmt, ...) {
    if (!err) return false;
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    va_list ap;
    va_start(ap, fmt);
    sqe_error_vformat(&sb, fmt, ap);
    va_end(ap);
    sqe_strbuf_puts(&sb, err->msg);
    store_msg(err, sb.data ? sb.data : "", sb.len);
    sqe_strbuf_free(&sb);
    return false;
}

const char *sqe_error_class_name(sqe_error_class cls) {
    if ((unsigned)cls >= SQE_ERR__COUNT) return "INTERNAL";
    return k_classes[cls].name;
}

const char *sqe_error_sqlstate(sqe_error_class cls) {
    if ((unsigned)cls >= SQE_ERR__COUNT) return "XX000";
    return k_classes[cls].sqlstate;
}

void sqe_debug_fail(const char *expr, const char *file, int line) {
    fprintf(stderr, "sqe: debug check failed: %s (%s:%d)\n", expr, file, line);
    abort();
}
