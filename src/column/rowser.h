/* rowser: one row of a column as compact bytes, and back — fixed-width values as raw
 * bytes, strings and arrays length-prefixed (u32), a NULL flag byte before a Nullable
 * value, tuple fields one after another.
 *
 * Used for GROUP BY keys (exec/agg_hash.c: equal rows give equal bytes, so keys compare
 * and hash as bytes) and for aggregate states written to spill files (func/agg/spill_state.c).
 * The bytes are for this process only (native byte order, no version). Not thread-safe per
 * column; reading trusts the bytes (they were written by col_row_write for the same type). */
#ifndef SHALE_COLUMN_ROWSER_H
#define SHALE_COLUMN_ROWSER_H

#include "base/buf.h"
#include "column/column.h"

/* Appends row `row` of c to out (const columns: their value). */
void col_row_write(buf *out, const column *c, size_t row);
/* Reads one row written by col_row_write into c (appending), advancing *p. */
void col_row_read(const char **p, column *c);

#endif
