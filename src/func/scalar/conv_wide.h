/* Numeric conversions where either side is Int256, UInt256 or Decimal256 (conv.c hands
 * them here; the narrower kinds keep conv.c's int128 paths).
 *
 * conv_wide(src, to, fail, skip, accurate, out): src is a plain (non-Nullable) numeric-like
 * column, `to` a plain numeric-like type. A row that cannot be converted sets the error;
 * then, when skip[i] is set the row is ignored, when fail is given fail[i] is set and the
 * error cleared (OrNull / OrZero), else the call returns -1. accurate asks for accurateCast's
 * range checks. On success *out is a new column of type `to` owned by the caller.
 * Thread-safe; allocates only the result. */
#ifndef SHALE_FUNC_SCALAR_CONV_WIDE_H
#define SHALE_FUNC_SCALAR_CONV_WIDE_H

#include "column/column.h"

int conv_wide(const column *src, const type *to, uint8_t *fail, const uint8_t *skip, bool accurate, column **out);

/* Whether conv_wide converts between these plain types. */
bool conv_wide_ok(const type *from, const type *to);

#endif
