/*
 * codec.h - decompression, internal to format/.
 *
 * Two shapes of use:
 *   - blocks of known size: a Parquet page is compressed as one unit and its
 *     header states the uncompressed size, so sqe_codec_decompress fills a
 *     caller-sized buffer and fails when the output would be larger or
 *     smaller than stated;
 *   - streams: a compressed text or JSON file (SPEC §4.5) is read front to
 *     back through an sqe_byte_stream, which fetches the object in chunks
 *     with the store's get_range and decompresses incrementally, so memory
 *     stays bounded by the chunk and window sizes, never by the file.
 *
 * Libraries (Debian): zlib (gzip, deflate), libzstd, libsnappy (its C API),
 * liblz4, libbrotli (decoder), libbz2. Every length read from compressed
 * data is checked before it is used; a bomb cannot make a block larger than
 * the caller's buffer, and a stream never holds more than one output chunk.
 *
 * Errors are INVALID_DATA and start with `what` (the caller's description of
 * the data: "file 'F', column 'c', page at byte N"), then name the codec and
 * the problem: "...: gzip data is truncated", "...: zstd: Unknown frame
 * descriptor".
 */
#ifndef SQE_FORMAT_CODEC_H
#define SQE_FORMAT_CODEC_H

#include "io/io.h"

typedef enum sqe_codec {
    SQE_CODEC_NONE = 0,
    SQE_CODEC_SNAPPY,     /* Parquet SNAPPY: one raw snappy block; files: see sqe_codec_for_path */
    SQE_CODEC_GZIP,       /* gzip, any number of members */
    SQE_CODEC_ZSTD,       /* zstd frames */
    SQE_CODEC_LZ4_RAW,    /* Parquet LZ4_RAW: one raw LZ4 block */
    SQE_CODEC_LZ4_HADOOP, /* Parquet's legacy LZ4: Hadoop block framing, falling back to raw */
    SQE_CODEC_LZ4_FRAME,  /* .lz4 files: LZ4 frame format (lz4 CLI) or Hadoop framing */
    SQE_CODEC_BROTLI,
    SQE_CODEC_BZIP2,
    SQE_CODEC_DEFLATE, /* .deflate files: a zlib stream (Hadoop DefaultCodec) */
    SQE_CODEC_LZO,     /* recognized only to be refused with NOT_SUPPORTED */
    SQE_CODEC__COUNT
} sqe_codec;

/* "gzip", "zstd", ... (lower case, as users write extensions). */
const char *sqe_codec_name(sqe_codec c);

/* The codec a file's name asks for (SPEC §4.5): .gz, .bz2, .zst/.zstd,
 * .lz4, .snappy, .deflate, .br, .lzo (case-insensitive); NONE otherwise.
 * .snappy files are Hadoop's SnappyCodec block framing or the snappy framing
 * format (stream identifier chunk), told apart by their first bytes; .lz4
 * files likewise LZ4 frames or Hadoop's framing. */
sqe_codec sqe_codec_for_path(const char *path);

/* Decompresses one block into dst, which must end up exactly dst_len bytes
 * (Parquet's uncompressed_page_size). NOT_SUPPORTED for LZO and for codecs
 * that are not block codecs (BZIP2, LZ4_FRAME, DEFLATE are accepted too:
 * they are decoded as a whole stream into dst). */
bool sqe_codec_decompress(sqe_codec c, const void *src, size_t src_len, void *dst, size_t dst_len,
                          const char *what, sqe_error *err);

/* ----------------------------------------------------------- streams */

typedef struct sqe_byte_stream sqe_byte_stream;

/* Opens a sequential reader of `path` (size bytes, from the listing) from
 * byte `start` (0 for compressed files), fetching chunk_size bytes per
 * get_range. codec NONE passes bytes through. `what` prefixes errors and is
 * copied (normally "file 'F'"). */
sqe_byte_stream *sqe_byte_stream_open(sqe_store *store, const char *path, uint64_t size,
                                      uint64_t start, sqe_codec codec, size_t chunk_size,
                                      sqe_error *err);
/* Reads up to cap bytes of (decompressed) data into buf. *n is the count;
 * *eof is set on the call that finds no more data (then *n == 0). A file
 * that ends inside a compressed member, or shorter than its listed size, is
 * INVALID_DATA naming the file. */
bool sqe_byte_stream_read(sqe_byte_stream *s, void *buf, size_t cap, size_t *n, bool *eof,
                          sqe_error *err);
/* Bytes fetched from the store so far (compressed bytes for a codec). */
uint64_t sqe_byte_stream_raw_bytes(const sqe_byte_stream *s);
void sqe_byte_stream_close(sqe_byte_stream *s);

#endif
