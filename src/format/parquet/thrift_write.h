/* Thrift compact-protocol encoder (the counterpart of thrift.h's decoder), used by the
 * Parquet writer for page headers and FileMetaData.
 *
 * Output is appended to a caller-owned buf. Nested structs are tracked with a small stack
 * of "last field id" values (compact protocol encodes field ids as deltas); nesting deeper
 * than TW_MAX_DEPTH is a programming error and is clamped (the writer never nests that
 * deep). Allocation never fails; nothing here can fail. Not thread-safe per tw object. */
#ifndef SHALE_FORMAT_PARQUET_THRIFT_WRITE_H
#define SHALE_FORMAT_PARQUET_THRIFT_WRITE_H

#include "base/buf.h"
#include "format/parquet/thrift.h"

#include <stdbool.h>
#include <stdint.h>

#define TW_MAX_DEPTH 16

typedef struct tw {
    buf *b;
    int16_t last[TW_MAX_DEPTH];
    int depth;
} tw;

void tw_init(tw *t, buf *b);
void tw_varint(buf *b, uint64_t v);
/* Field header for field `id` of compact type `type` in the current struct. */
void tw_field(tw *t, int16_t id, int type);
/* Field helpers: header and value. */
void tw_i32(tw *t, int16_t id, int32_t v);
void tw_i64(tw *t, int16_t id, int64_t v);
void tw_bool(tw *t, int16_t id, bool v);
void tw_binary(tw *t, int16_t id, const void *p, size_t n);
void tw_string(tw *t, int16_t id, const char *s);
/* A struct-typed field: header, then the struct's fields, then tw_struct_end. */
void tw_struct_begin(tw *t, int16_t id);
void tw_struct_end(tw *t);
/* A list-typed field: header with element type and count. For struct elements, wrap each
 * element in tw_elem_begin/tw_struct_end; scalar elements use tw_elem_* below. */
void tw_list(tw *t, int16_t id, int etype, uint32_t n);
void tw_elem_begin(tw *t);
void tw_elem_i32(tw *t, int32_t v);
void tw_elem_binary(tw *t, const void *p, size_t n);
/* Top-level struct: starts at depth 0; end with tw_stop. */
void tw_stop(tw *t);

#endif
