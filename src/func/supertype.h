/* The least common supertype of a list of types (ClickHouse's getLeastSupertype), used by
 * if/multiIf/coalesce/greatest/array() and by the analyzer for UNION ALL, IN, CASE.
 *
 * Rules: Nothing is ignored; any Nullable makes the result Nullable; String/FixedString
 * mix to String (equal FixedStrings stay); integers widen (mixed signedness needs a signed
 * type twice the unsigned width, none beyond 64 bits); integers with floats give Float32
 * up to 16-bit integers, Float64 up to 32-bit, else no supertype; decimals keep the
 * largest integral digits and scale; Date < Date32 < DateTime < DateTime64; arrays and
 * tuples element-wise. Failure: NULL with ERR_NO_COMMON_TYPE (386) and ClickHouse's text.
 *
 * type_cast_super converts a column to a supertype produced above (widening only: number
 * to wider number, decimal rescale, date to time, FixedString to String, wrapping into
 * Nullable, arrays/tuples element-wise). A FixedString becomes a String without its trailing
 * zero bytes, as ClickHouse's CAST (array(), arrayConcat, map(), greatest, transform, …);
 * type_cast_super_padded keeps them at the top level (array elements and tuple fields are
 * still CAST), as ClickHouse's if/coalesce do. A Date becomes its midnight in the target's time
 * zone, else in `zone` (the session's; NULL: the process default). Returns a new column or
 * NULL with an error.
 * Thread-safe. */
#ifndef SHALE_FUNC_SUPERTYPE_H
#define SHALE_FUNC_SUPERTYPE_H

#include "column/column.h"


const type *type_supertype(int n, const type *const *types);
/* type_supertype, except that with a signed integer among the types, a UInt64 argument
 * known as a constant (consts[i] non-NULL) whose value fits Int64 counts as Int64: as
 * ClickHouse's [-1, 4294967296] is Array(Int64) and if(c, -1, 4294967296) Int64.
 * consts may be NULL (then it is type_supertype). */
const type *type_supertype_consts(int n, const type *const *types, column *const *consts);
column *type_cast_super(const column *c, const type *from, const type *to, const char *zone);
column *type_cast_super_padded(const column *c, const type *from, const type *to, const char *zone);

#endif
