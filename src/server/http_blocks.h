/* ClickHouse's compressed blocks over HTTP: `compress=1` (the response) and `decompress=1`
 * (the request body), in the block format of MergeTree's .bin files
 * (codec/compress.h: CityHash128 checksum, method byte, sizes, data).
 *
 * Ownership: both wrappers take over the stream they wrap and close it when closed (also
 * when creating the wrapper fails). Errors: -1 with err_set; a corrupt or truncated body is
 * ERR_CHECKSUM_DOESNT_MATCH / ERR_CORRUPTED_DATA / ERR_CANNOT_READ_ALL_DATA naming the
 * stream and the block's offset; a method ClickHouse does not accept for the network is
 * ERR_UNKNOWN_COMPRESSION_METHOD / ERR_BAD_ARGUMENTS. Not thread-safe (one user). */
#ifndef SHALE_SERVER_HTTP_BLOCKS_H
#define SHALE_SERVER_HTTP_BLOCKS_H

#include "io/stream.h"

#include <stdint.h>

/* Writes what it is given as compressed blocks of up to 1 MiB (ClickHouse's buffer size)
 * with `method` (network_compression_method: LZ4, LZ4HC, ZSTD or NONE, any case) and
 * zstd_level (network_zstd_compression_level) for ZSTD. */
int outstream_blocks(outstream *to, const char *method, int64_t zstd_level, outstream **out);
/* Reads a body of compressed blocks (any method ClickHouse writes) as the bytes they hold. */
int instream_blocks(instream *from, instream **out);

#endif
