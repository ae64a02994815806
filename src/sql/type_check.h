/* The checks ClickHouse makes on a type before it creates columns of it (a CAST's target,
 * a CREATE TABLE / ALTER … ADD COLUMN column) and that settings turn off:
 *   allow_suspicious_low_cardinality_types = 0: LowCardinality of anything but String or
 *     FixedString (Nullable or not) → SUSPICIOUS_TYPE_FOR_LOW_CARDINALITY;
 *   allow_suspicious_fixed_string_types = 0: FixedString(N) with N > 256 → ILLEGAL_COLUMN;
 * at any depth inside Array, Tuple, Map and Nullable.
 * Pure functions of their arguments; thread-safe. Errors: -1 with err_set. */
#ifndef SHALE_SQL_TYPE_CHECK_H
#define SHALE_SQL_TYPE_CHECK_H

#include "column/type.h"
#include "exec/settings.h"

int type_check_suspicious(const type *t, const settings *st);

#endif
