/* libFuzzer target: the aggregate function state deserializer (func/agg_state.h). The first
 * byte picks an AggregateFunction type; the rest is read as one state of it. A state that
 * reads is written again, the copy must read back to as many bytes, and both are merged
 * and finalized. */
#include "base/err.h"
#include "column/type.h"
#include "func/agg_state.h"

#include <stdio.h>
#include <stdlib.h>

static const char *const types[] = {
    "AggregateFunction(count)",
    "AggregateFunction(sum, UInt64)",
    "AggregateFunction(sum, Nullable(Int32))",
    "AggregateFunction(avg, Decimal(9, 2))",
    "AggregateFunction(avg, Float64)",
    "AggregateFunction(min, String)",
    "AggregateFunction(max, Int16)",
    "AggregateFunction(any, Array(Nullable(String)))",
    "AggregateFunction(anyLast, Tuple(UInt8, String))",
    "AggregateFunction(argMin, String, UInt64)",
    "AggregateFunction(argMax, Array(UInt8), String)",
    "AggregateFunction(groupArray, String)",
    "AggregateFunction(groupArray(3), UInt32)",
    "AggregateFunction(groupArray, Array(Nullable(UInt64)))",
    "AggregateFunction(groupArray, Tuple(UInt64, String))",
    "AggregateFunction(sumOrNull, UInt64)",
    "AggregateFunction(sumIf, UInt64, UInt8)",
    "AggregateFunction(count, Nullable(UInt8))",
    "AggregateFunction(uniq, UInt64)",
    "AggregateFunction(uniq, Nullable(Float32))",
    "AggregateFunction(varSamp, Float32)",
    "AggregateFunction(corr, Float64, UInt8)",
    "AggregateFunction(uniqExact, UInt64)",
    "AggregateFunction(uniqExact, String)",
    "AggregateFunction(uniqExact, UInt8, String)",
    "AggregateFunction(groupUniqArray(3), UInt16)",
    "AggregateFunction(uniq, String)",
    "AggregateFunction(uniq, UInt64, String)",
    "AggregateFunction(quantileExact(0.5), Int16)",
    "AggregateFunction(quantiles(0.1, 0.9), Int8)",
    "AggregateFunction(topK(1), UInt8)",
    "AggregateFunction(uniqCombined(12), UInt64)",
    "AggregateFunction(uniqCombined64, String)",
    "AggregateFunction(uniqHLL12, Int128)",
    "AggregateFunction(quantileTDigest, Float64)",
    "AggregateFunction(quantilesTDigestWeighted(0.1, 0.9), UInt32, UInt8)",
    "AggregateFunction(groupUniqArray(4), String)",
    "AggregateFunction(groupUniqArray, FixedString(3))",
    "AggregateFunction(uniqExact, Decimal(18, 3))",
    "AggregateFunction(uniqExact, UUID)",
};

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 1)
        return 0;
    const type *t = type_parse_cstr(types[d[0] % (sizeof types / sizeof types[0])]);
    const agg_call *a = t ? agg_state_call(t) : NULL;
    if (!a)
        abort(); /* every listed type must resolve */
    void *st = agg_state_new(a);
    size_t used;
    if (agg_state_read(a, st, d + 1, n - 1, &used) < 0) {
        err_clear();
        agg_state_free(a, st);
        return 0;
    }
    buf out = {0};
    agg_state_write(a, st, &out);
    void *st2 = agg_state_new(a);
    size_t used2;
    if (agg_state_read(a, st2, out.p, out.len, &used2) < 0 || used2 != out.len)
        abort(); /* what we write must read back */
    buf again = {0};
    agg_state_write(a, st2, &again);
    /* the same length (the bytes may differ: a hash set read from cells in an order it would
     * not have written them lays them out afresh, in ClickHouse too) */
    if (again.len != out.len)
        abort();
    a->ops.merge(a, st, st2);
    column *res = col_new(a->ret);
    if (a->ops.finalize(a, st, res) < 0)
        err_clear();
    col_free(res);
    agg_state_free(a, st2);
    agg_state_free(a, st);
    buf_free(&out);
    buf_free(&again);
    return 0;
}
