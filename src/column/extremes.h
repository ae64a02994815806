/* The extremes of a result (setting extremes = 1): per column, the least and the greatest
 * value of every row written, as ClickHouse's ExtremesTransform computes them.
 *
 * Per block, a column's minimum and maximum are found as IColumn::getExtremes does (NaN
 * and NULL never win over a value; a column of NaNs or NULLs gives NaN or NULL); across
 * blocks they are combined as ClickHouse compares its Fields (a NaN never replaces nor is
 * replaced, NULL is below every value). ClickHouse's chunks and shale's blocks need not
 * cut a result at the same rows, which can matter only for NaN and NULL in several
 * blocks.
 *
 * Ownership: extremes_take hands over a new block; the tracker copies the rows it keeps.
 * Not thread-safe (one per result). */
#ifndef SHALE_COLUMN_EXTREMES_H
#define SHALE_COLUMN_EXTREMES_H

#include "column/block.h"

typedef struct extremes extremes;

extremes *extremes_new(const schema *sch);
void extremes_add(extremes *e, const block *b);
/* A block of two rows (minimums, then maximums) of the schema's columns, or NULL when no
 * row was added. */
block *extremes_take(extremes *e);
void extremes_free(extremes *e);

#endif
