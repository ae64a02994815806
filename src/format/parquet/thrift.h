/* Parquet metadata: a Thrift compact-protocol decoder and the FileMetaData / PageHeader
 * structures of parquet.thrift (apache/parquet-format) that shale uses.
 *
 * Decoding is bounds-checked throughout: every read checks the remaining bytes, list
 * lengths are capped by the bytes left, nesting is capped, and the first problem stops the
 * decoder with a message naming the byte offset (relative to `base_off`, so callers pass
 * the file offset of the buffer). Nothing here crashes or reads past `end` on bad input.
 *
 * Ownership: pq_meta owns everything it points to (an arena); strings and statistics
 * point into that arena. Thread-safety: a decoded pq_meta is read-only and may be shared. */
#ifndef SHALE_FORMAT_PARQUET_THRIFT_H
#define SHALE_FORMAT_PARQUET_THRIFT_H

#include "base/arena.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- compact protocol ---- */

enum { TH_STOP = 0, TH_TRUE = 1, TH_FALSE = 2, TH_BYTE = 3, TH_I16 = 4, TH_I32 = 5, TH_I64 = 6, TH_DOUBLE = 7,
       TH_BINARY = 8, TH_LIST = 9, TH_SET = 10, TH_MAP = 11, TH_STRUCT = 12 };

typedef struct th_rd {
    const uint8_t *base, *p, *end;
    uint64_t base_off;  /* file offset of base, for messages */
    const char *what;   /* "footer", "page header" */
    bool failed;
    char msg[160];
} th_rd;

void th_init(th_rd *t, const void *p, size_t n, uint64_t base_off, const char *what);
/* Reads a field header: returns false at STOP (or after an error); *id and *type set. */
bool th_field(th_rd *t, int16_t *last_id, int16_t *id, int *type);
uint64_t th_varint(th_rd *t);
int64_t th_zigzag(th_rd *t);
int32_t th_i32(th_rd *t, int type);   /* accepts BYTE/I16/I32 */
int64_t th_i64(th_rd *t, int type);   /* accepts BYTE/I16/I32/I64 */
bool th_bool(th_rd *t, int type);     /* field bools carry the value in the type */
/* Binary/string: pointer into the buffer. */
const uint8_t *th_binary(th_rd *t, uint32_t *len);
/* List header: element type and count (count ≤ bytes left). */
uint32_t th_list(th_rd *t, int *etype);
void th_skip(th_rd *t, int type);
/* Records an error (first one wins) at the current position. */
void th_fail(th_rd *t, const char *why);

/* ---- parquet.thrift ---- */

enum { PQ_BOOLEAN, PQ_INT32, PQ_INT64, PQ_INT96, PQ_FLOAT, PQ_DOUBLE, PQ_BYTE_ARRAY, PQ_FIXED_LEN_BYTE_ARRAY };
enum { PQ_REQUIRED, PQ_OPTIONAL, PQ_REPEATED };
enum { PQ_CT_NONE = -1, PQ_CT_UTF8 = 0, PQ_CT_MAP, PQ_CT_MAP_KEY_VALUE, PQ_CT_LIST, PQ_CT_ENUM, PQ_CT_DECIMAL,
       PQ_CT_DATE, PQ_CT_TIME_MILLIS, PQ_CT_TIME_MICROS, PQ_CT_TIMESTAMP_MILLIS, PQ_CT_TIMESTAMP_MICROS,
       PQ_CT_UINT_8, PQ_CT_UINT_16, PQ_CT_UINT_32, PQ_CT_UINT_64, PQ_CT_INT_8, PQ_CT_INT_16, PQ_CT_INT_32,
       PQ_CT_INT_64, PQ_CT_JSON, PQ_CT_BSON, PQ_CT_INTERVAL };
/* LogicalType union member ids as in parquet.thrift. */
enum { PQ_LT_NONE = 0, PQ_LT_STRING = 1, PQ_LT_MAP = 2, PQ_LT_LIST = 3, PQ_LT_ENUM = 4, PQ_LT_DECIMAL = 5,
       PQ_LT_DATE = 6, PQ_LT_TIME = 7, PQ_LT_TIMESTAMP = 8, PQ_LT_INTEGER = 10, PQ_LT_UNKNOWN = 11,
       PQ_LT_JSON = 12, PQ_LT_BSON = 13, PQ_LT_UUID = 14, PQ_LT_FLOAT16 = 15 };
enum { PQ_UNIT_MILLIS = 1, PQ_UNIT_MICROS = 2, PQ_UNIT_NANOS = 3 };
enum { PQ_UNCOMPRESSED, PQ_SNAPPY, PQ_GZIP, PQ_LZO, PQ_BROTLI, PQ_LZ4, PQ_ZSTD, PQ_LZ4_RAW };
enum { PQ_PLAIN = 0, PQ_PLAIN_DICTIONARY = 2, PQ_RLE = 3, PQ_BIT_PACKED = 4, PQ_DELTA_BINARY_PACKED = 5,
       PQ_DELTA_LENGTH_BYTE_ARRAY = 6, PQ_DELTA_BYTE_ARRAY = 7, PQ_RLE_DICTIONARY = 8, PQ_BYTE_STREAM_SPLIT = 9 };
enum { PQ_PAGE_DATA = 0, PQ_PAGE_INDEX = 1, PQ_PAGE_DICTIONARY = 2, PQ_PAGE_DATA_V2 = 3 };

typedef struct pq_schema_el {
    const char *name;
    int type;             /* -1 for groups */
    int type_length;
    int repetition;       /* -1 when absent (the root) */
    int num_children;
    int converted;        /* PQ_CT_*, PQ_CT_NONE when absent */
    int scale, precision;
    int logical;          /* PQ_LT_*, PQ_LT_NONE when absent */
    int lt_bits;          /* INTEGER */
    bool lt_signed;
    bool lt_utc;          /* TIME / TIMESTAMP */
    int lt_unit;          /* PQ_UNIT_* */
    int lt_scale, lt_precision; /* DECIMAL */
} pq_schema_el;

typedef struct pq_stats {
    const uint8_t *min, *max;       /* min_value/max_value, else the legacy min/max */
    uint32_t min_len, max_len;
    bool has_min, has_max, legacy;  /* legacy: only the deprecated fields were present */
    int64_t null_count;             /* -1 when absent */
    int64_t distinct_count;         /* -1 when absent */
} pq_stats;

typedef struct pq_column_meta {
    int type;
    uint32_t encodings;             /* bit per encoding id */
    const char **path;
    int npath;
    int codec;
    int64_t num_values, total_uncompressed_size, total_compressed_size;
    int64_t data_page_offset, index_page_offset, dictionary_page_offset; /* -1 when absent */
    pq_stats stats;
} pq_column_meta;

typedef struct pq_chunk {
    const char *file_path;          /* NULL: this file */
    int64_t file_offset;
    bool has_meta;
    pq_column_meta meta;
    int64_t offset_index_offset, column_index_offset; /* -1 when absent */
    int32_t offset_index_length, column_index_length;
} pq_chunk;

typedef struct pq_row_group {
    pq_chunk *cols;
    int ncols;
    int64_t num_rows, total_byte_size, file_offset, total_compressed_size;
} pq_row_group;

typedef struct pq_kv {
    const char *key, *value;        /* value NULL when absent */
} pq_kv;

typedef struct pq_meta {
    arena a;
    int version;
    pq_schema_el *schema;
    int nschema;
    int64_t num_rows;
    pq_row_group *rgs;
    int nrgs;
    pq_kv *kv;
    int nkv;
    const char *created_by;
    const uint8_t *raw;             /* the FileMetaData bytes decoded (in the arena) */
    size_t raw_len;
} pq_meta;

/* Decodes FileMetaData from buf[0..n) (a copy is kept). base_off: file offset of buf.
 * Returns NULL with err_set(ERR_INCORRECT_DATA, ...) on malformed input. */
pq_meta *pq_meta_decode(const void *buf, size_t n, uint64_t base_off, const char *file);
void pq_meta_free(pq_meta *m);

/* The page index of one column chunk (ColumnIndex + OffsetIndex), decoded together.
 * Pages in chunk order; min/max point into `raw` (the bytes as read, owned). */
typedef struct pq_page_index {
    int npages;
    int64_t *offset;                /* file offset of each page */
    int32_t *size;                  /* compressed size with the header */
    int64_t *first_row;             /* row of the row group where each page starts */
    bool has_stats;                 /* a ColumnIndex was present */
    bool *null_page;                /* only NULLs: min/max meaningless */
    const uint8_t **min, **max;
    uint32_t *min_len, *max_len;
    uint8_t *raw;
} pq_page_index;

/* Decodes the OffsetIndex at oi[0..oi_n) and, when ci is not NULL, the ColumnIndex at
 * ci[0..ci_n) (both copied). base offsets for messages. NULL with err_set
 * (ERR_INCORRECT_DATA naming the file and byte offset) when malformed, or when the two
 * disagree on the number of pages. */
pq_page_index *pq_page_index_decode(const void *oi, size_t oi_n, uint64_t oi_off, const void *ci, size_t ci_n,
                                    uint64_t ci_off, const char *file);
void pq_page_index_free(pq_page_index *x);

typedef struct pq_page_header {
    int type;
    int32_t uncompressed_size, compressed_size;
    int32_t num_values;             /* data / dictionary pages */
    int encoding;
    int def_encoding, rep_encoding; /* v1 */
    int32_t num_nulls, num_rows;    /* v2 */
    int32_t def_len, rep_len;       /* v2 level byte lengths */
    bool is_compressed;             /* v2 (default true) */
    bool has_crc;                   /* crc is set: CRC-32 of the page body as stored */
    uint32_t crc;
} pq_page_header;

/* Decodes a PageHeader at buf[0..n); *used = its size. Returns -1 with err_set when the
 * header is malformed, 1 when it may be cut off by the end of the buffer (read more). */
int pq_page_header_decode(const void *buf, size_t n, uint64_t base_off, const char *file, pq_page_header *h,
                          size_t *used);

#endif
