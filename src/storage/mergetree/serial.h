/* Column serialization in MergeTree Wide parts, byte-compatible with ClickHouse.
 *
 * A column is stored as one or more substreams, each its own file pair
 * (<stream>.bin compressed data, <stream>.mrk2 marks):
 *   T (numbers, dates, enums, decimals, UUID)  <name>          values, little-endian
 *   String                                     <name>          varuint length + bytes
 *     (string_serialization_version              <name>.size     UInt64 length of each value
 *      'with_size_stream', ClickHouse's default) <name>          the bytes only
 *   FixedString(n)                             <name>          n bytes each
 *   Nullable(T)                                <name>.null     UInt8 null map, then T's streams
 *   Array(T)                                   <name>.size0    UInt64 sizes, then T's streams
 *                                                              (nested arrays: .size1, …)
 *   Tuple(a T, b U)                            <name>.a / <name>.1 …  each field's streams
 *   LowCardinality(T)                          <name>.dict     the shared dictionary
 *                                              <name>          keys (with per-chunk headers)
 * In the size-stream form every String that owns its stream gets a .size stream right before
 * its data stream, with the same substream path: "n.size" for Nullable(String),
 * "a.size" for Array(String) (after a.size0), "t%2Ey.size" for a tuple field, "n%2Ex.size"
 * for a Nested column. LowCardinality dictionaries keep their own format and FixedString
 * is unaffected (checked against ClickHouse 26.7).
 * File names escape the column name as ClickHouse's escapeForFileName does (every byte
 * that is not [A-Za-z0-9_] becomes %XX).
 *
 * A writer serializes granules one after another (rows [from, from+n) of a column); a
 * reader deserializes n rows at a time after mt_serial_read_start() at the part's start or
 * at a granule's marks. The byte I/O of each stream goes through mt_byte_sink/mt_byte_src
 * (the part writer puts compression behind them).
 *
 * Ownership: mt_serial owns its stream names and state. Not thread-safe (one per column
 * per writer/reader). Errors: -1 with err_set (ERR_CANNOT_READ_ALL_DATA,
 * ERR_INCORRECT_DATA naming the stream and row). */
#ifndef SHALE_STORAGE_MERGETREE_SERIAL_H
#define SHALE_STORAGE_MERGETREE_SERIAL_H

#include "base/buf.h"
#include "column/column.h"

#include <stddef.h>
#include <stdint.h>

/* Where a stream's bytes go / come from. */
typedef struct mt_byte_sink {
    void (*write)(void *ctx, const void *p, size_t n);
    void *ctx;
} mt_byte_sink;
typedef struct mt_byte_src {
    /* reads exactly n bytes; -1 with err_set at the end of data */
    int (*read)(void *ctx, void *dst, size_t n);
    void *ctx;
    /* Optional (NULL: only read): the bytes available without copying (*avail = 0 at the
     * end of data; valid until the next call on the source), and consuming k of them.
     * String values are parsed in place through them. */
    int (*peek)(void *ctx, const uint8_t **p, size_t *avail);
    void (*skip)(void *ctx, size_t k);
} mt_byte_src;

typedef struct mt_serial mt_serial;

/* How a part stores the column (from its serialization.json). */
typedef struct mt_serial_opts {
    /* "types_serialization_versions":{"string":1} — String values as a .size stream of
     * UInt64 lengths plus a data stream of the bytes (string_serialization_version =
     * 'with_size_stream'); false = the classic varuint-length-prefixed single stream. */
    bool string_size_stream;
    /* "kind":"Sparse" for the column: a <name>.sparse.idx stream (before the value
     * streams) holds, per granule, VarUInt counts of default rows before each non-default
     * row and a final count of trailing defaults | 1<<62; the value streams hold only the
     * non-default rows (default = empty String / all-zero bytes, so -0.0 is not one, as in
     * ClickHouse). Read and written. Only for plain values (numbers, String, FixedString,
     * dates, decimals, UUID): ignored for Nullable, Array, Tuple, LowCardinality. */
    bool sparse;
    /* For a Tuple column: bit i set = element i is sparse ("subcolumns":[{"kind":"Sparse"}…]
     * in serialization.json): "<name>%2E<elem>.sparse.idx" before the element's streams.
     * Elements 0..63 only. */
    uint64_t sparse_elems;
} mt_serial_opts;

/* The substreams of column `name` of type t (see above). mt_serial_new = all opts false. */
mt_serial *mt_serial_new(const char *name, const type *t);
mt_serial *mt_serial_new_ex(const char *name, const type *t, const mt_serial_opts *opts);
void mt_serial_free(mt_serial *s);
int mt_serial_nstreams(const mt_serial *s);
/* File name of stream k without extension ("Tags.size0"); in the order the writer first
 * touches them (ClickHouse's enumerateStreams order). */
const char *mt_serial_stream_name(const mt_serial *s, int k);

/* Writing: prefix once at the part's start, then granules, then suffix once at the end.
 * sinks[k] is stream k's sink. The part writer takes marks of every stream before each
 * granule. */
void mt_serial_write_prefix(mt_serial *s, mt_byte_sink *sinks);
void mt_serial_write(mt_serial *s, const column *c, size_t from, size_t n, mt_byte_sink *sinks);
void mt_serial_write_suffix(mt_serial *s, mt_byte_sink *sinks);
/* Writing rows picked from several columns without gathering them first (an INSERT
 * writes its sorted parts straight from the source blocks): row i of the granule is row
 * (uint32_t)ids[i] of srcs[ids[i] >> 32]; the bytes are those mt_serial_write would write
 * for the gathered column. Only for a column whose serialization is one plain value
 * stream (mt_serial_can_write_picked: fixed-width values or String, not sparse), and
 * srcs of its type that are neither constant nor dictionary-coded. */
bool mt_serial_can_write_picked(const mt_serial *s);
void mt_serial_write_picked(mt_serial *s, const column *const *srcs, const uint64_t *ids, size_t n,
                            mt_byte_sink *sinks);

/* Reading: read_start at the part's start (prefix) or after every stream was moved to a
 * granule's marks (at_part_start = false: the reader keeps the prefix it read before);
 * read appends n rows to c (a column of the type). */
int mt_serial_read_start(mt_serial *s, mt_byte_src *srcs, bool at_part_start);
int mt_serial_read(mt_serial *s, column *c, size_t n, mt_byte_src *srcs);

/* Reading a String column dictionary-coded (column.h), for a query that filters or groups
 * by it (source.accept_codes): each value read is looked up in a dictionary of the values
 * seen so far and only its code is kept, so that the query's conditions run once per
 * distinct value and its GROUP BY finds each group once per block.
 *
 * mt_codes: the dictionary of one column of one reader; not thread-safe. mt_codes_dict
 * returns a reference to the dictionary as it stands: a coded column holds it, and since
 * consumers may cache per-entry results by its address, a dictionary that is held
 * elsewhere is never changed again (a new value goes into a copy). */
typedef struct mt_codes mt_codes;
mt_codes *mt_codes_new(const type *t);
void mt_codes_free(mt_codes *d);
size_t mt_codes_size(const mt_codes *d);
column *mt_codes_dict(mt_codes *d);
/* The code of the value (p, len), added when new. */
uint32_t mt_codes_put(mt_codes *d, const uint8_t *p, size_t len);
/* Whether the column can be read coded (a String, not sparse). */
bool mt_serial_codable(const mt_serial *s);
/* Reads n values like mt_serial_read, appending their uint32 codes in d to codes and
 * adding their bytes to *value_bytes. */
int mt_serial_read_codes(mt_serial *s, mt_codes *d, buf *codes, size_t n, mt_byte_src *srcs, uint64_t *value_bytes);

/* low_cardinality_max_dictionary_size for the writer (default 8192, as ClickHouse's):
 * when the shared dictionary of a LowCardinality column reaches it, the writer flushes it
 * to .dict and starts a new one; keys that do not fit go into the granule's additional
 * keys. 0 writes no shared dictionary at all: every granule carries its keys as additional
 * keys (ClickHouse reads both). Call before writing. */
void mt_serial_set_lc_max_dict(mt_serial *s, size_t n);

/* One value in ClickHouse's binary form (serializeBinary) — primary.idx, minmax_*.idx,
 * partition.dat: numbers little-endian, String varuint length + bytes, Nullable a UInt8
 * null flag then the value, LowCardinality as its inner type. */
void mt_value_write(const column *c, size_t row, buf *out);
/* Appends one value read from p (n bytes available) to c; *used = bytes consumed. */
int mt_value_read(column *c, const uint8_t *p, size_t n, size_t *used);

/* escapeForFileName: appends the escaped form of name. */
void mt_escape_file_name(const char *name, buf *out);

#endif
