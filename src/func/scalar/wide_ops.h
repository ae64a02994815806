/* Arithmetic, comparison and bit operations when an operand is Int256, UInt256 or
 * Decimal256. The generic resolvers (arith.c, compare.c, bits.c) hand such calls here
 * before they look at the types; the kernels read the operation from the function's name
 * and the types from the call, so they need no state of their own (the caller's state
 * stays in c->state and is freed by its own free function).
 *
 * Each resolver sets c->ret and c->exec, or returns -1 with ClickHouse's error for
 * operand types it does not take. Kernels are thread-safe and allocate only the result. */
#ifndef SHALE_FUNC_SCALAR_WIDE_OPS_H
#define SHALE_FUNC_SCALAR_WIDE_OPS_H

#include "func/func.h"

/* plus minus multiply divide intDiv intDivOrZero modulo moduloOrZero */
int wide_arith_resolve(fn_call *c);
/* equals notEquals less greater lessOrEquals greaterOrEquals */
int wide_cmp_resolve(fn_call *c);
/* negate abs bitNot (one argument); bitAnd bitOr bitXor (two) */
int wide_unary_resolve(fn_call *c);
int wide_bit_resolve(fn_call *c);

#endif
