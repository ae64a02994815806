/* sum / avg over Int256, UInt256 and Decimal256: see sum_wide.c. Sets up the agg_call
 * (ret, state, ops, data owned by the call) and returns 0. */
#ifndef SHALE_FUNC_AGG_SUM_WIDE_H
#define SHALE_FUNC_AGG_SUM_WIDE_H

#include "func/agg.h"

int agg_sum_wide_resolve(agg_call *a, bool avg);

#endif
