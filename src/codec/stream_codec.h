/* Whole-stream compression of raw files (file('x.csv.gz'), INTO OUTFILE ... COMPRESSION).
 *
 * Methods, as ClickHouse names them in its `compression` argument:
 *   gzip (gz; multi-member files), deflate (zlib framing; read: zlib or gzip), br (brotli; the
 *   encoder is loaded on first use), zstd (zst), xz (lzma), lz4 (LZ4 frame format), bz2
 *   (bzip2), none, auto (pick by file extension).
 *
 * Ownership: instream_decompress / outstream_compress take over the wrapped stream and
 * close it when the wrapper is closed (also on failure to create the wrapper).
 * Errors: ERR_UNKNOWN_COMPRESSION_METHOD for unknown names; ERR_CANNOT_DECOMPRESS for
 * corrupt or truncated input, naming the stream and the compressed byte offset;
 * ERR_CANNOT_COMPRESS for compressor failures. Streams are not thread-safe (one user). */
#ifndef SHALE_CODEC_STREAM_CODEC_H
#define SHALE_CODEC_STREAM_CODEC_H

#include "io/stream.h"

/* The method implied by a path's extension: "gzip", "deflate", "br", "zstd", "xz", "lz4",
 * "bz2" or "none". */
const char *codec_method_from_path(const char *path);

/* Canonical method for a user-given name (case-insensitive): "gzip", "deflate", "br", "zstd",
 * "xz", "lz4", "bz2", "none" or "auto". -1 with ERR_UNKNOWN_COMPRESSION_METHOD for others. */
int codec_method_canonical(const char *name, const char **out);

/* Wraps `in` in a decompressor for a canonical method ("none" returns `in` itself;
 * "auto" picks by in->name's extension). */
int instream_decompress(instream *in, const char *method, instream **out);

/* Wraps `out` in a compressor; level <= 0 means the method's default. */
int outstream_compress(outstream *out, const char *method, int level, outstream **res);

#endif
