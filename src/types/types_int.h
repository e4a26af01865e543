/*
 * types_int.h - private helpers shared by the files of src/types/. Other
 * modules use types.h only.
 */
#ifndef SQE_TYPES_INT_H
#define SQE_TYPES_INT_H

#include "types/types.h"

/* Java Double.toString / Float.toString style text (shortest round-trip
 * digits; plain notation for 1e-3 <= |x| < 1e7, else "1.5E-4"). Writes a NUL
 * terminated string (buf_len >= 32 always suffices) and returns its length. */
size_t sqe_types_format_double(double d, char *buf, size_t buf_len);
size_t sqe_types_format_real(float f, char *buf, size_t buf_len);

/* Outcome of decimal text parsing: distinguishes bad syntax from a valid
 * number that does not fit the precision (casts report them differently). */
typedef enum sqe_decimal_parse_status {
    SQE_DECIMAL_PARSE_OK = 0,
    SQE_DECIMAL_PARSE_SYNTAX,
    SQE_DECIMAL_PARSE_OVERFLOW,
} sqe_decimal_parse_status;

sqe_decimal_parse_status sqe_types_parse_decimal(const char *p, size_t n, int precision, int scale,
                                                 sqe_i128 *out);

/* Formats a signed 128-bit integer in base 10; returns the length. */
size_t sqe_types_format_i128(sqe_i128 v, char *buf, size_t buf_len);

/* |v| as unsigned (safe for the most negative value). */
static inline unsigned __int128 sqe_types_abs_i128(sqe_i128 v) {
    return v < 0 ? (unsigned __int128)0 - (unsigned __int128)v : (unsigned __int128)v;
}

#endif
