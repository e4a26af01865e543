/*
 * spill.c - temporary files that hold batches an operator cannot keep in
 * memory, and the "reserve or spill" memory check that decides when to
 * write them.
 *
 * Where it sits: SortExec (and TopNExec when its OFFSET is too large to
 * keep in memory) writes sorted runs here and merges them back (sort.c);
 * the hash aggregate and hash join can write grace partitions the same way.
 * Nothing in this file knows about sorting: a spill file is a sequence of
 * batches of a fixed schema, written once, then read back (any number of
 * times, after sqe_spill_rewind).
 *
 * Lifetime: sqe_spill_create makes the file with mkostemp under the query's
 * temp folder (ctx->temp_dir) and unlinks it at once, so only the open
 * descriptor keeps it alive: closing it (sqe_spill_close on every path) or
 * the process dying for any reason gives the space back, and nothing is
 * ever left in the folder.
 *
 * Encoding of one batch (native byte order: the file never outlives the
 * process that wrote it):
 *
 *   u32 magic "SQEB"   u32 n (live rows written, 1..SQE_BATCH_ROWS)
 *   per column:
 *     u8 has_nulls; when 1: ceil(n / 64) u64 validity words (bit set = valid)
 *     fixed width types: n values of sqe_type_width bytes (NULL rows zeroed);
 *       REAL/DOUBLE as their bits (NaN payloads and -0.0 kept), DECIMAL as
 *       the 128-bit unscaled value
 *     VARCHAR/VARBINARY: n u32 lengths (0 for NULL), then the bytes of every
 *       string back to back
 *     NULL type: nothing (every row NULL)
 *
 * I/O goes through one buffer of SQE_SPILL_BUF_BYTES per file, with write(2)
 * and read(2) retried on EINTR and short counts. A failed write names the
 * operator: RESOURCE_EXHAUSTED "could not write temporary file for SortExec:
 * No space left on device" (also for EDQUOT and EFBIG), STORAGE for other
 * errors; the file then refuses further writes.
 */
#include "exec/exec_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define SPILL_MAGIC 0x42455153u /* "SQEB" read as little-endian bytes */

struct sqe_spill_file {
    sqe_exec_ctx *ctx;
    int fd;
    int n_cols;
    sqe_type *types; /* owned copy */
    const char *op_name;
    bool reading;
    bool failed; /* a write failed: the contents are unusable */
    char *buf;
    size_t len; /* writing: bytes buffered; reading: bytes valid in buf */
    size_t pos; /* reading: next byte in buf */
    uint64_t rows, batches, bytes;
    size_t max_batch_bytes;
};

/* ---------------------------------------------------------------- memory */

bool sqe_exec_mem_reserve(sqe_exec_ctx *ctx, size_t *tracked, size_t now) {
    size_t old = *tracked;
    if (now <= old) {
        atomic_fetch_sub(&ctx->mem_used, old - now);
        *tracked = now;
        return true;
    }
    size_t add = now - old;
    size_t cur = atomic_load(&ctx->mem_used);
    do {
        if (ctx->memory_limit > 0 && (cur + add > ctx->memory_limit || cur + add < cur))
            return false;
    } while (!atomic_compare_exchange_weak(&ctx->mem_used, &cur, cur + add));
    size_t total = cur + add;
    size_t peak = atomic_load(&ctx->mem_peak);
    while (total > peak && !atomic_compare_exchange_weak(&ctx->mem_peak, &peak, total)) {
    }
    *tracked = now;
    return true;
}

/* ----------------------------------------------------------------- create */

sqe_spill_file *sqe_spill_create(sqe_exec_ctx *ctx, int n_cols, const sqe_type *types,
                                 const char *op_name, sqe_error *err) {
    const char *dir = ctx->temp_dir && *ctx->temp_dir ? ctx->temp_dir : "/tmp";
    char *path = sqe_asprintf("%s/sqe-spill-XXXXXX", dir);
    int fd = mkostemp(path, O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        sqe_error_set(
            err, e == ENOSPC || e == EDQUOT ? SQE_ERR_RESOURCE_EXHAUSTED : SQE_ERR_STORAGE,
            "could not create temporary file in '%s' for %s: %s", dir, op_name, strerror(e));
        sqe_free(path);
        return NULL;
    }
    unlink(path); /* the descriptor keeps it alive; no exit path leaves it behind */
    sqe_free(path);
    sqe_spill_file *f = sqe_calloc(1, sizeof *f);
    f->ctx = ctx;
    f->fd = fd;
    f->n_cols = n_cols;
    f->types = sqe_calloc((size_t)(n_cols > 0 ? n_cols : 1), sizeof *f->types);
    for (int c = 0; c < n_cols; c++) f->types[c] = types[c];
    f->op_name = op_name;
    atomic_fetch_add(&ctx->spill_files, 1);
    return f;
}

void sqe_spill_close(sqe_spill_file *f) {
    if (!f) return;
    close(f->fd);
    sqe_free(f->buf);
    sqe_free(f->types);
    sqe_free(f);
}

uint64_t sqe_spill_rows(const sqe_spill_file *f) {
    return f->rows;
}

uint64_t sqe_spill_bytes(const sqe_spill_file *f) {
    return f->bytes;
}

size_t sqe_spill_max_batch_bytes(const sqe_spill_file *f) {
    return f->max_batch_bytes;
}

/* ------------------------------------------------------------------ write */

static bool write_fail(sqe_spill_file *f, int e, sqe_error *err) {
    f->failed = true;
    sqe_error_class cls =
        e == ENOSPC || e == EDQUOT || e == EFBIG ? SQE_ERR_RESOURCE_EXHAUSTED : SQE_ERR_STORAGE;
    return sqe_error_set(err, cls, "could not write temporary file for %s: %s", f->op_name,
                         strerror(e));
}

static bool flush_buf(sqe_spill_file *f, sqe_error *err) {
    size_t off = 0;
    while (off < f->len) {
        ssize_t w = write(f->fd, f->buf + off, f->len - off);
        if (w < 0) {
            if (errno == EINTR) continue;
            return write_fail(f, errno, err);
        }
        if (w == 0) return write_fail(f, ENOSPC, err);
        off += (size_t)w;
    }
    atomic_fetch_add(&f->ctx->spill_bytes, f->len);
    f->bytes += f->len;
    f->len = 0;
    return true;
}

/* Returns room for len (<= SQE_SPILL_BUF_BYTES) bytes at the end of the
 * buffer, flushing first when needed; the caller fills it and adds len. */
static char *w_room(sqe_spill_file *f, size_t len, sqe_error *err) {
    if (SQE_SPILL_BUF_BYTES - f->len < len && !flush_buf(f, err)) return NULL;
    return f->buf + f->len;
}

static bool w_put(sqe_spill_file *f, const void *p, size_t len, sqe_error *err) {
    const char *s = p;
    while (len > 0) {
        if (f->len == SQE_SPILL_BUF_BYTES && !flush_buf(f, err)) return false;
        size_t take = SQE_MIN(len, SQE_SPILL_BUF_BYTES - f->len);
        memcpy(f->buf + f->len, s, take);
        f->len += take;
        s += take;
        len -= take;
    }
    return true;
}

static bool is_str_type(sqe_type t) {
    return t.id == SQE_T_VARCHAR || t.id == SQE_T_VARBINARY;
}

/* Copies n fixed-width values (rows sel[i] or i of src) to dst, zeroing
 * NULL rows so the file's bytes do not depend on stale memory. */
static void pack_fixed(char *dst, const sqe_vector *src, const uint16_t *sel, uint32_t n,
                       size_t w) {
    const char *s = src->data;
    if (!sel) {
        memcpy(dst, s, (size_t)n * w);
    } else {
        switch (w) {
        case 1:
            for (uint32_t i = 0; i < n; i++) ((uint8_t *)dst)[i] = ((const uint8_t *)s)[sel[i]];
            break;
        case 2:
            for (uint32_t i = 0; i < n; i++) memcpy(dst + 2 * i, s + 2 * (size_t)sel[i], 2);
            break;
        case 4:
            for (uint32_t i = 0; i < n; i++) memcpy(dst + 4 * i, s + 4 * (size_t)sel[i], 4);
            break;
        case 8:
            for (uint32_t i = 0; i < n; i++) memcpy(dst + 8 * i, s + 8 * (size_t)sel[i], 8);
            break;
        default:
            for (uint32_t i = 0; i < n; i++) memcpy(dst + w * i, s + w * (size_t)sel[i], w);
        }
    }
    if (src->has_nulls)
        for (uint32_t i = 0; i < n; i++)
            if (sqe_vector_is_null(src, sel ? sel[i] : i)) memset(dst + w * i, 0, w);
}

static bool write_batch(sqe_spill_file *f, const sqe_batch *b, const uint16_t *sel, uint32_t n,
                        sqe_error *err) {
    uint32_t head[2] = {SPILL_MAGIC, n};
    if (!w_put(f, head, sizeof head, err)) return false;
    size_t mem = 0; /* what the batch takes once read back */
    for (int c = 0; c < f->n_cols; c++) {
        sqe_type t = f->types[c];
        const sqe_vector *v = b->cols[c];
        size_t w = sqe_type_width(t);
        mem += (size_t)SQE_BATCH_ROWS * w;
        if (t.id == SQE_T_NULL) continue;
        bool all_null = v->type.id == SQE_T_NULL;
        /* validity of the written rows, compacted */
        uint64_t valid[SQE_VALIDITY_WORDS];
        uint8_t has_nulls = 0;
        if (all_null || v->has_nulls) {
            memset(valid, 0, sizeof valid);
            for (uint32_t i = 0; i < n; i++) {
                bool ok = !all_null && !sqe_vector_is_null(v, sel ? sel[i] : i);
                if (ok)
                    valid[i >> 6] |= 1ULL << (i & 63);
                else
                    has_nulls = 1;
            }
        }
        if (!w_put(f, &has_nulls, 1, err)) return false;
        if (has_nulls && !w_put(f, valid, ((n + 63) / 64) * sizeof(uint64_t), err)) return false;
        if (!is_str_type(t)) {
            char *d = w_room(f, (size_t)n * w, err);
            if (!d) return false;
            if (all_null)
                memset(d, 0, (size_t)n * w);
            else
                pack_fixed(d, v, sel, n, w);
            f->len += (size_t)n * w;
            continue;
        }
        char *lens = w_room(f, (size_t)n * sizeof(uint32_t), err);
        if (!lens) return false;
        const sqe_string *sv = all_null ? NULL : v->data;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t r = sel ? sel[i] : i;
            bool null = all_null || sqe_vector_is_null(v, r);
            uint32_t len = null ? 0 : sv[r].len;
            memcpy(lens + (size_t)i * sizeof len, &len, sizeof len);
        }
        f->len += (size_t)n * sizeof(uint32_t);
        if (all_null) continue;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t r = sel ? sel[i] : i;
            if (sqe_vector_is_null(v, r) || sv[r].len == 0) continue;
            if (!w_put(f, sqe_string_data(&sv[r]), sv[r].len, err)) return false;
            if (sv[r].len > SQE_STRING_INLINE) mem += sv[r].len;
        }
    }
    f->rows += n;
    f->batches++;
    if (mem > f->max_batch_bytes) f->max_batch_bytes = mem;
    return true;
}

bool sqe_spill_write(sqe_spill_file *f, const sqe_batch *b, const uint16_t *sel, uint32_t n,
                     sqe_error *err) {
    if (f->failed || f->reading)
        return sqe_error_set(err, SQE_ERR_INTERNAL, "temporary file for %s is not writable",
                             f->op_name);
    if (!f->buf) f->buf = sqe_malloc(SQE_SPILL_BUF_BYTES);
    /* Split so one encoded column (n u32 lengths or n values) always fits
     * the buffer: SQE_BATCH_ROWS rows of 16 bytes is far below it. */
    uint32_t done = 0;
    while (done < n) {
        uint32_t m = SQE_MIN(n - done, (uint32_t)SQE_BATCH_ROWS);
        uint16_t part[SQE_BATCH_ROWS];
        const uint16_t *s = NULL;
        if (sel) {
            s = sel + done;
        } else if (done > 0) {
            for (uint32_t i = 0; i < m; i++) part[i] = (uint16_t)(done + i);
            s = part;
        }
        if (!write_batch(f, b, s, m, err)) return false;
        done += m;
    }
    return true;
}

bool sqe_spill_rewind(sqe_spill_file *f, sqe_error *err) {
    if (f->failed)
        return sqe_error_set(err, SQE_ERR_INTERNAL, "temporary file for %s is not readable",
                             f->op_name);
    if (!f->reading) {
        if (f->buf && !flush_buf(f, err)) return false;
        f->reading = true;
    }
    sqe_free(f->buf); /* idle runs hold no buffer; the next read allocates one */
    f->buf = NULL;
    if (lseek(f->fd, 0, SEEK_SET) < 0)
        return sqe_error_set(err, SQE_ERR_STORAGE, "could not read temporary file for %s: %s",
                             f->op_name, strerror(errno));
    f->len = f->pos = 0;
    return true;
}

/* ------------------------------------------------------------------- read */

static bool read_fail(sqe_spill_file *f, const char *why, sqe_error *err) {
    return sqe_error_set(err, SQE_ERR_STORAGE, "could not read temporary file for %s: %s",
                         f->op_name, why);
}

/* Refills the buffer; *got = 0 at the end of the file. */
static bool refill(sqe_spill_file *f, size_t *got, sqe_error *err) {
    for (;;) {
        ssize_t r = read(f->fd, f->buf, SQE_SPILL_BUF_BYTES);
        if (r < 0) {
            if (errno == EINTR) continue;
            return read_fail(f, strerror(errno), err);
        }
        f->len = (size_t)r;
        f->pos = 0;
        *got = (size_t)r;
        return true;
    }
}

/* Reads exactly len bytes (a short file is corrupt). */
static bool r_get(sqe_spill_file *f, void *p, size_t len, sqe_error *err) {
    char *d = p;
    while (len > 0) {
        if (f->pos == f->len) {
            size_t got;
            if (!refill(f, &got, err)) return false;
            if (got == 0) return read_fail(f, "unexpected end of file", err);
        }
        size_t take = SQE_MIN(len, f->len - f->pos);
        memcpy(d, f->buf + f->pos, take);
        f->pos += take;
        d += take;
        len -= take;
    }
    return true;
}

bool sqe_spill_read(sqe_spill_file *f, sqe_batch *out, bool *eof, sqe_error *err) {
    *eof = false;
    if (!f->reading && !sqe_spill_rewind(f, err)) return false;
    if (!f->buf) f->buf = sqe_malloc(SQE_SPILL_BUF_BYTES);
    if (f->pos == f->len) {
        size_t got;
        if (!refill(f, &got, err)) return false;
        if (got == 0) { /* the end: give the buffer back until a rewind */
            sqe_free(f->buf);
            f->buf = NULL;
            f->len = f->pos = 0;
            *eof = true;
            return true;
        }
    }
    uint32_t head[2];
    if (!r_get(f, head, sizeof head, err)) return false;
    uint32_t n = head[1];
    if (head[0] != SPILL_MAGIC || n == 0 || n > SQE_BATCH_ROWS)
        return read_fail(f, "bad batch header", err);
    sqe_batch_reset(out);
    for (int c = 0; c < f->n_cols; c++) {
        sqe_type t = f->types[c];
        sqe_vector *v = out->cols[c];
        size_t w = sqe_type_width(t);
        if (t.id == SQE_T_NULL) {
            for (uint32_t i = 0; i < n; i++) sqe_vector_set_null(v, i);
            continue;
        }
        uint8_t has_nulls;
        if (!r_get(f, &has_nulls, 1, err)) return false;
        if (has_nulls) {
            memset(v->validity, 0, sizeof v->validity);
            if (!r_get(f, v->validity, ((n + 63) / 64) * sizeof(uint64_t), err)) return false;
            v->has_nulls = true;
        }
        if (!is_str_type(t)) {
            if (!r_get(f, v->data, (size_t)n * w, err)) return false;
            continue;
        }
        sqe_string *sv = v->data;
        uint32_t lens[SQE_BATCH_ROWS];
        if (!r_get(f, lens, (size_t)n * sizeof *lens, err)) return false;
        size_t long_bytes = 0;
        for (uint32_t i = 0; i < n; i++)
            if (lens[i] > SQE_STRING_INLINE) long_bytes += lens[i];
        char *heap = long_bytes ? sqe_vector_heap_alloc(v, long_bytes) : NULL;
        for (uint32_t i = 0; i < n; i++) {
            sqe_string *s = &sv[i];
            memset(s, 0, sizeof *s);
            s->len = lens[i];
            if (lens[i] <= SQE_STRING_INLINE) {
                if (lens[i] && !r_get(f, (char *)s + offsetof(sqe_string, prefix), lens[i], err))
                    return false;
                continue;
            }
            if (!r_get(f, heap, lens[i], err)) return false;
            memcpy(s->prefix, heap, 4);
            s->u.ptr = heap;
            heap += lens[i];
        }
    }
    out->n_rows = n;
    out->sel = NULL;
    out->n_sel = 0;
    return true;
}
