/*
 * s3_int.h - private to io/ (and its unit tests): the bounded XML scanner
 * S3 responses are read with, and test hooks of the S3 store.
 */
#ifndef SQE_IO_S3_INT_H
#define SQE_IO_S3_INT_H

#include "io/s3.h"

/* ------------------------------------------------------------ XML (s3_xml.c)
 *
 * S3 answers in small, flat, machine-written XML. The scanner looks for
 * literal "<Tag>" / "<Tag ...>" and the next "</Tag>" inside [doc, doc+len):
 * no recursion, no allocation, every step bounded by len. Element text is
 * entity-decoded separately. Keys never contain a raw '<' (S3 escapes it),
 * so a tag found by search cannot be part of a key. */
typedef struct sqe_xml_span {
    const char *p;
    size_t n;
} sqe_xml_span;

/* Finds the next <tag> element at or after *pos in doc[0, len); on success
 * *inner is its content and *pos the offset after its closing tag. An
 * element without a closing tag, or "<tag/>", is not found (the latter
 * gives an empty inner span and true). */
bool sqe_xml_next(const char *doc, size_t len, size_t *pos, const char *tag, sqe_xml_span *inner);
/* The first <tag> inside span, or false. */
bool sqe_xml_child(sqe_xml_span span, const char *tag, sqe_xml_span *inner);
/* Decodes XML entities (&amp; &lt; &gt; &quot; &apos; &#N; &#xH;) of span
 * into a malloc'd NUL-terminated string. A malformed or unknown entity, a
 * character reference that is not a valid code point, or a decoded NUL gives
 * NULL (the caller reports the response as malformed). */
char *sqe_xml_text(sqe_xml_span span);

/* Decodes, in place, a value of a listing made with encoding-type=url:
 * %XX escapes and '+' for a space (as AWS writes them). false (s left
 * unspecified) for a malformed escape or an encoded NUL. */
bool sqe_s3_url_decode(char *s);

/* ------------------------------------------------------------ store hooks */

/* Test hooks (tests only): multipart threshold and part size (bytes; part
 * size at least 5 MiB on real S3), listing page size (max-keys, 0: server
 * default), base delay of the retry backoff in ms. */
void sqe_io_s3_set_test_limits(sqe_store *s, uint64_t multipart_threshold, uint64_t part_size,
                               int list_page_size, int backoff_base_ms);

/* Parses an S3 ISO-8601 time ("2009-10-12T17:50:30.000Z") or an HTTP date
 * ("Wed, 21 Oct 2015 07:28:00 GMT") to microseconds since the epoch; 0 if
 * neither. */
int64_t sqe_s3_parse_time(const char *s);

#endif
