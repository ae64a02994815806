/* ClickHouse's compressed-block format and column codecs, as MergeTree parts store them and
 * the native protocol frames its blocks (the mt_ prefix is from MergeTree, their first user).
 *
 * A compressed file (<column>.bin) is a sequence of blocks, each:
 *   16 bytes  CityHash128 v1.0.2 of the rest of the block (method byte onwards),
 *             low 64 bits first
 *    1 byte   method (0x02 NONE, 0x82 LZ4/LZ4HC, 0x90 ZSTD, 0x91 Multiple, 0x92 Delta,
 *             0x93 T64, 0x94 DoubleDelta, 0x95 Gorilla, …)
 *    4 bytes  compressed size, little-endian, including this 9-byte header
 *    4 bytes  uncompressed size
 *   data
 * A codec chain (CODEC(Delta(4), ZSTD(1))) is written as method Multiple with the list of
 * methods; the reader needs only the bytes (every parameter a decoder needs is inside).
 *
 * Marks address a position as (offset of the block in the compressed file, offset in the
 * block's uncompressed data).
 *
 * Thread-safety: codecs are immutable after parsing and may be shared; writers and readers
 * belong to one thread. Errors: -1 with err_set; decompression errors are
 * ERR_CHECKSUM_DOESNT_MATCH / ERR_CORRUPTED_DATA / ERR_UNKNOWN_COMPRESSION_METHOD naming the
 * file (`where`) and the byte offset of the block. */
#ifndef SHALE_CODEC_COMPRESS_H
#define SHALE_CODEC_COMPRESS_H

#include "base/buf.h"
#include "base/cityhash.h"
#include "column/type.h"
#include "parse/ast.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>



/* A parsed codec chain. */
typedef struct mt_codec mt_codec;

/* From a column's CODEC(...) arguments (NULL = the table default, LZ4), for values of
 * type t (Delta/DoubleDelta/Gorilla/T64 take their width from it when not given, and are
 * refused for types they cannot encode, as ClickHouse refuses them). Names and arguments
 * are checked: ZSTD(level 1..22), LZ4HC(level), Delta(1|2|4|8), …; errors are
 * ERR_UNKNOWN_CODEC / ERR_ILLEGAL_CODEC_PARAMETER / ERR_BAD_ARGUMENTS naming the codec. */
int mt_codec_from_ast(const ast_list *args, const type *t, mt_codec **out);
/* By text, e.g. "LZ4" or "Delta(4), ZSTD(1)" (the part's default_compression_codec). */
int mt_codec_parse(const char *text, const type *t, mt_codec **out);
/* As mt_codec_from_ast; allow_suspicious skips ClickHouse's allow_suspicious_codecs checks
 * (NONE with others, transformations after a generic codec, chains that do not compress,
 * Gorilla on non-float columns). */
int mt_codec_from_ast_ex(const ast_list *args, const type *t, bool allow_suspicious, mt_codec **out);
/* The generic (LZ4/LZ4HC/ZSTD/NONE) codecs of c, or LZ4 when it has none: what ClickHouse
 * uses for the streams a specialised codec does not apply to (null maps, array sizes). */
int mt_codec_generic_part(const mt_codec *c, mt_codec **out);
bool mt_codec_is_default(const mt_codec *c); /* plain LZ4, printed without CODEC() */
void mt_codec_free(mt_codec *c);
/* "CODEC(Delta(4), ZSTD(1))" — as ClickHouse prints it in SHOW CREATE TABLE. */
const char *mt_codec_text(const mt_codec *c);

/* Compresses n bytes into one block appended to out. */
void mt_compress_block(const mt_codec *c, const void *src, size_t n, buf *out);
/* Reads the header of the block at p: *compressed_size (with header) and
 * *uncompressed_size. -1 when fewer than 25 bytes are available or sizes are absurd. */
int mt_block_header(const uint8_t *p, size_t avail, uint32_t *compressed_size, uint32_t *uncompressed_size,
                    const char *where, uint64_t offset);
/* Checks the checksum and decompresses the block at p (avail >= its compressed size),
 * appending its bytes to out. offset: the block's position in the file, for messages. */
int mt_decompress_block(const uint8_t *p, size_t avail, buf *out, const char *where, uint64_t offset);

/* Writes a compressed file: data is buffered and compressed into blocks of at most
 * max_block bytes; mt_cwriter_granule_end() closes the current block once it holds at
 * least min_block bytes (ClickHouse's min/max_compress_block_size: 65536 / 1048576). */
typedef struct mt_cwriter mt_cwriter;
int mt_cwriter_open(const char *path, const mt_codec *c, size_t min_block, size_t max_block, mt_cwriter **out);
void mt_cwriter_write(mt_cwriter *w, const void *p, size_t n);
int mt_cwriter_granule_end(mt_cwriter *w);
/* The current position as a mark. */
void mt_cwriter_mark(const mt_cwriter *w, uint64_t *compressed_offset, uint64_t *uncompressed_offset);
/* Flushes, fsyncs and closes; fills what checksums.txt records. Frees w either way. */
typedef struct mt_file_checksum {
    uint64_t file_size;
    u128 file_hash;
    bool is_compressed;
    uint64_t uncompressed_size;
    u128 uncompressed_hash;
} mt_file_checksum;
int mt_cwriter_finish(mt_cwriter *w, mt_file_checksum *sum);
void mt_cwriter_abort(mt_cwriter *w); /* closes without syncing; the caller removes the file */

/* Reads a compressed file: seek to a mark, then read decompressed bytes. Reads the file
 * with pread in chunks; never holds more than one block plus a read-ahead buffer. */
typedef struct mt_creader mt_creader;
int mt_creader_open(const char *path, mt_creader **out);
int mt_creader_seek(mt_creader *r, uint64_t compressed_offset, uint64_t uncompressed_offset);
/* Reads exactly n bytes (ERR_CANNOT_READ_ALL_DATA at the end of the file). */
int mt_creader_read(mt_creader *r, void *dst, size_t n);
/* Reads up to n bytes; *got = 0 at the end of the file. */
int mt_creader_read_some(mt_creader *r, void *dst, size_t n, size_t *got);
/* The decompressed bytes not read yet of the current block, loading the next block when
 * the current one is used up: *avail = 0 at the end of the file. The pointer is valid
 * until the next call on r; mt_creader_skip(r, k) (k <= *avail) consumes k of them. Lets
 * a decoder parse values in place instead of copying them out a few bytes at a time. */
int mt_creader_peek(mt_creader *r, const uint8_t **p, size_t *avail);
void mt_creader_skip(mt_creader *r, size_t k);
bool mt_creader_eof(mt_creader *r);
void mt_creader_close(mt_creader *r);

#endif
