/* Parquet page codecs and value encodings (the layer below the column reader).
 *
 * All decoders take a byte range and an expected count, never read outside the range, and
 * return -1 with err_set(ERR_INCORRECT_DATA or ERR_CANNOT_DECOMPRESS, ...) on malformed
 * input; messages say what was being decoded (the caller appends file/column/offset).
 * Outputs go to caller-provided arrays or bufs, which are reused between pages, so the
 * hot paths allocate nothing per value. Thread-safety: stateless except pq_codec_ctx,
 * which one thread owns. */
#ifndef SHALE_FORMAT_PARQUET_DECODE_H
#define SHALE_FORMAT_PARQUET_DECODE_H

#include "base/buf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decompression state reused across pages (zstd contexts are per thread instead). */
typedef struct pq_codec_ctx {
    void *deflate;
} pq_codec_ctx;

void pq_codec_free(pq_codec_ctx *c);
/* Decompresses src[0..n) with codec (thrift PQ_* id) into exactly out_n bytes at out. */
int pq_decompress(pq_codec_ctx *c, int codec, const uint8_t *src, size_t n, uint8_t *out, size_t out_n);
const char *pq_codec_name(int codec);

/* RLE / bit-packed hybrid: decodes exactly `count` values of bit width bw (0..32) from
 * p[0..n). u8: values must fit a byte (levels); u32: dictionary indices. */
int pq_rle_u8(const uint8_t *p, size_t n, int bw, uint8_t *out, size_t count);
int pq_rle_u32(const uint8_t *p, size_t n, int bw, uint32_t *out, size_t count);
/* Unpacks count values of bw bits (LSB first) starting at bit 0 of p (p has ≥ ceil(count*bw/8) bytes). */
void pq_unpack32(const uint8_t *p, size_t avail, int bw, uint32_t *out, size_t count);

/* PLAIN BOOLEAN: count bits, LSB first, to one byte each. */
int pq_plain_bool(const uint8_t *p, size_t n, uint8_t *out, size_t count);
/* PLAIN BYTE_ARRAY: count values (4-byte length + bytes) appended to a String layout
 * (data bytes, offs uint64 ends). *used = bytes consumed. */
int pq_plain_byte_array(const uint8_t *p, size_t n, size_t count, buf *data, buf *offs, size_t *used);
/* DELTA_BINARY_PACKED into int32 (w = 4) or int64 (w = 8) values. *used = bytes consumed. */
int pq_delta_binary(const uint8_t *p, size_t n, int w, void *out, size_t count, size_t *used);
/* DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY into a String layout. */
int pq_delta_length_byte_array(const uint8_t *p, size_t n, size_t count, buf *data, buf *offs);
int pq_delta_byte_array(const uint8_t *p, size_t n, size_t count, buf *data, buf *offs);
/* BYTE_STREAM_SPLIT of count values of w bytes. */
int pq_byte_stream_split(const uint8_t *p, size_t n, int w, uint8_t *out, size_t count);

#endif
