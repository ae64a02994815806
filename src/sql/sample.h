/* SAMPLE k [OFFSET m] on a MergeTree table with SAMPLE BY (ClickHouse's sampling).
 *
 * The ratio k (and m) is read exactly as a fraction ("0.1" = 1/10, "1/3"); k > 1 is a
 * row count, turned into the fraction k / rows (the table's rows; at most 1). The
 * SAMPLE BY expression's type (UInt8 … UInt64) spans [0, 2^bits); the rows kept are those
 * whose value lies in [m * 2^bits, (m + k) * 2^bits), each bound truncated to an integer
 * and left out when it is 0 or past the end — the same rows ClickHouse keeps for the same
 * data. Errors: SAMPLING_NOT_SUPPORTED (no SAMPLE BY), ARGUMENT_OUT_OF_BOUND, the type
 * check's ILLEGAL_TYPE_OF_COLUMN_FOR_FILTER. */
#ifndef SHALE_SQL_SAMPLE_H
#define SHALE_SQL_SAMPLE_H

#include "exec/source.h"
#include "parse/ast.h"
#include "storage/table.h"

/* t: the AST_TABLE with sample_size set; *src: the table's source, replaced by the
 * sampled one (taken either way: freed on error). */
int sample_source(const table *tbl, const ast *t, query_ctx *q, source **src);

#endif
