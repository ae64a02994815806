/* Aggregate function states in ClickHouse's binary format.
 *
 * An AggregateFunction(f, T...) column (column/type.h, T_AGGSTATE) holds one serialized
 * state per row, byte for byte what ClickHouse writes for it (Native, RowBinary, MergeTree
 * and, escaped, the text formats). States are live (an agg_call's state in memory) only
 * while being aggregated: -State serializes at finalize, -Merge / finalizeAggregation
 * deserialize and merge. Users: the -State / -Merge / -MergeState combinators (agg.c),
 * finalizeAggregation, the binary formats and MergeTree (which need the length of a state
 * that is not length-prefixed on the wire: agg_state_span), AggregatingMergeTree and the
 * remote()/WithMergeableState code, which moves states between nodes.
 *
 * Thread-safety: agg_state_call caches one resolved call per type for the life of the
 * process (behind a mutex); the returned call is read-only and may be shared. The other
 * functions keep no state.
 *
 * Errors: err_set codes — UNKNOWN_AGGREGATE_FUNCTION / ILLEGAL_TYPE_OF_ARGUMENT for types
 * naming a function that does not exist or does not take those arguments,
 * NOT_IMPLEMENTED for functions whose state format shale does not write yet,
 * CANNOT_READ_ALL_DATA for a truncated state, INCORRECT_DATA for a malformed one. */
#ifndef SHALE_FUNC_AGG_STATE_H
#define SHALE_FUNC_AGG_STATE_H

#include "func/agg.h"

#include <stddef.h>
#include <stdint.h>

/* The resolved call whose states an AggregateFunction type holds (cached, never freed). */
const agg_call *agg_state_call(const type *t);

/* Resolves "name" or "name(p1, p2)" (numeric parameters) with the given argument types. */
int agg_resolve_spec(const char *spec, int nargs, const type *const *types, agg_call **out);

/* Serializes state (of call a) to out. a must support serialization (agg_state_call's
 * result always does). */
void agg_state_write(const agg_call *a, const void *state, buf *out);

/* Reads one serialized state from p[0..n) into state (initialised by the caller with
 * a->ops.init; destroy it with a->ops.destroy even on error). *used = bytes consumed. */
int agg_state_read(const agg_call *a, void *state, const uint8_t *p, size_t n, size_t *used);

/* Length of the first serialized state of type t in p[0..n) (states are concatenated
 * without lengths in Native, RowBinary and MergeTree columns). */
int agg_state_span(const type *t, const uint8_t *p, size_t n, size_t *used);
/* The same; when the state is cut short (CANNOT_READ_ALL_DATA), *need is a number of
 * further bytes that the state certainly has (at least 1), else 0. Readers of streams that
 * cannot look ahead (MergeTree) read exactly that much more and try again. */
int agg_state_span_need(const type *t, const uint8_t *p, size_t n, size_t *used, size_t *need);

/* Merges the serialized state p[0..n) into dst (a live state of a). */
int agg_state_merge_bytes(const agg_call *a, void *dst, const uint8_t *p, size_t n);

/* Appends the empty (initial) state of type t to out: an AggregateFunction column's default. */
void agg_state_default(const type *t, buf *out);

/* Byte readers for deserializers: -1 with CANNOT_READ_ALL_DATA when the input is short. */
int agg_rd_bytes(agg_rd *r, void *dst, size_t n);
int agg_rd_varuint(agg_rd *r, uint64_t *v);
/* Fails with CANNOT_READ_ALL_DATA for a value of n bytes that does not fit (sets short_by). */
int agg_rd_short(agg_rd *r, size_t n);
void agg_put_varuint(buf *b, uint64_t v);

/* One value of type t (its physical layout) in ClickHouse's binary serialization (as in
 * RowBinary: numbers little-endian, String VarUInt length + bytes, Nullable a flag byte,
 * Array a VarUInt count, Tuple its fields): append row i of c / read into dst. */
void agg_put_value(buf *b, const column *c, size_t i);
int agg_get_value(agg_rd *r, column *dst);

/* The same value as ClickHouse lays it out in an arena (IColumn::serializeValueIntoArena):
 * String as a UInt64 size counting a trailing NUL, the bytes and the NUL; Array a UInt64
 * count; Nullable a flag byte; numbers raw. groupArray of non-numeric types uses it. */
void agg_put_arena(buf *b, const column *c, size_t i);
int agg_get_arena(agg_rd *r, column *dst);

#endif
