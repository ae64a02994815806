/* Data blocks of ClickHouse's native client/server protocol (src/server/native_*.c): the
 * FORMAT Native layout (native.c) with two additions the protocol has —
 *   BlockInfo first: VarUInt field number, value, …, 0 (field 1 is_overflows UInt8, field 2
 *   bucket_num Int32);
 *   from revision 54454 on, a serialization-kind byte after each column's type name
 *   (0 = the default serialization; shale writes 0 and refuses the sparse kind on input).
 * Compression, when the query asked for it, wraps these bytes (the server's business).
 *
 * Ownership: native_block_read returns a new schema and block (the caller frees both).
 * Errors: -1 with err_set (INCORRECT_DATA, CANNOT_READ_ALL_DATA, NOT_IMPLEMENTED for sparse
 * columns) naming the column and byte offset. Not thread-safe per rbuf. */
#ifndef SHALE_FORMAT_NATIVE_BLOCK_H
#define SHALE_FORMAT_NATIVE_BLOCK_H

#include "column/block.h"
#include "io/stream.h"
#include "base/buf.h"

#include <stdint.h>

/* DBMS_MIN_REVISION_WITH_CUSTOM_SERIALIZATION */
#define NATIVE_REVISION_WITH_CUSTOM_SERIALIZATION 54454

/* Appends the block (NULL or zero rows: just the header's columns) for a peer at revision;
 * revision 0 writes plain FORMAT Native (no BlockInfo, no serialization kinds). */
void native_block_write(buf *b, const schema *header, const block *blk, uint64_t revision);
/* The same, handing the bytes to flush (which sends them and empties b, or keeps what it
 * cannot use yet) whenever b holds NATIVE_CHUNK bytes or more — within a long String or
 * fixed-width column too — so that a large block is never whole in memory. flush's
 * error (-1) ends the writing. */
#define NATIVE_CHUNK ((size_t)1 << 20)
typedef int (*native_flush_fn)(void *ctx, buf *b);
int native_block_write_flushed(buf *b, const schema *header, const block *blk, uint64_t revision,
                               native_flush_fn flush, void *ctx);
/* Reads one block; its columns and types are the sender's. */
int native_block_read(rbuf *in, uint64_t revision, schema **header, block **out);
/* Reads one block and writes it to out as FORMAT Native — the bytes native_block_write
 * with revision 0 writes for the decoded block — without decoding what needs none: the
 * values of fixed-width types, String, and Nullable, Array, Map and Tuple of them are
 * checked and written as they come, from the read buffer (null maps as 0/1, String
 * lengths canonical); other columns (LowCardinality, AggregateFunction, Nothing) are
 * decoded and written again. A block of no rows writes nothing. *rows: the block's rows.
 * On error part of the block may have been written. */
int native_block_pass(rbuf *in, uint64_t revision, outstream *out, uint64_t *rows);

#endif
