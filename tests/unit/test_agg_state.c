/* Aggregate function states (func/agg_state.h): type checks, the functions whose states
 * are NOT_IMPLEMENTED, bounds on malformed input, AggregateFunction defaults, and
 * state lengths in a stream that cannot look ahead (agg_state_span_need). Expected bytes
 * come from ClickHouse (chdb). */
#include "base/err.h"
#include "check.h"
#include "func/agg_state.h"

#include <stdlib.h>
#include <string.h>

static const type *T(const char *s) { return type_parse_cstr(s); }

static void test_types(void)
{
    const type *t = T("AggregateFunction(sum, UInt64)");
    CHECK(t && t->id == T_AGGSTATE);
    CHECK_STR(t ? t->name : NULL, "AggregateFunction(sum, UInt64)");
    t = T("AggregateFunction(groupArray(3.0), Nullable(String))");
    CHECK_STR(t ? t->name : NULL, "AggregateFunction(groupArray(3), Nullable(String))");
    t = T("SimpleAggregateFunction(max, UInt64)");
    CHECK(t && t->simple_agg && t->id == T_UINT64 && type_strip_simple_agg(t) == T("UInt64"));
    /* functions whose states are not written yet: NOT_IMPLEMENTED, never a wrong state
     * (uniq of arrays: ClickHouse keys them by a SipHash that shale does not compute) */
    static const char *const nyi[] = {"AggregateFunction(uniq, Array(String))", "AggregateFunction(uniqCombined, Array(UInt8))",
                                      "AggregateFunction(uniqExact, Array(UInt8))", "AggregateFunction(uniqHLL12, Array(String))",
                                      "AggregateFunction(sumMap, Map(UInt128, UInt64))"};
    for (size_t i = 0; i < sizeof nyi / sizeof nyi[0]; i++) {
        err_clear();
        CHECK(T(nyi[i]) == NULL && err_code() == ERR_NOT_IMPLEMENTED);
    }
    /* states written since: the statistics and uniqExact of numbers, strings, several args */
    static const char *const done[] = {"AggregateFunction(varSamp, Float64)", "AggregateFunction(corr, Float32, UInt8)",
                                       "AggregateFunction(uniqExact, Decimal(9, 2))", "AggregateFunction(uniqExact, UUID)",
                                       "AggregateFunction(uniqCombined(12), String)", "AggregateFunction(uniqHLL12, Int8)",
                                       "AggregateFunction(quantileTDigest(0.9), Float64)",
                                       "AggregateFunction(topK(3), String)",
                                       "AggregateFunction(topKWeighted(2), Array(String), UInt8)",
                                       "AggregateFunction(uniqExact, UInt64)", "AggregateFunction(uniqExact, String)",
                                       "AggregateFunction(uniqExact, UInt8, String)", "AggregateFunction(uniq, String)",
                                       "AggregateFunction(uniq, UInt8, String)",
                                       "AggregateFunction(quantilesExact(0.5, 0.9), Float32)",
                                       "AggregateFunction(quantile(0.5), UInt64)",
                                       "AggregateFunction(quantiles(0.5, 0.9), Float64)",
                                       "AggregateFunction(sumMap, Array(UInt8), Array(UInt64))",
                                       "AggregateFunction(minMap, Array(String), Array(Float32), Array(Int8))",
                                       "AggregateFunction(sumMap, Map(String, UInt64))",
                                       "AggregateFunction(maxMap, Map(Int8, Nullable(Float64)))",
                                       "SimpleAggregateFunction(sumMap, Tuple(Array(UInt8), Array(UInt64)))"};
    for (size_t i = 0; i < sizeof done / sizeof done[0]; i++)
        CHECK(T(done[i]) != NULL);
    err_clear();
    CHECK(T("AggregateFunction(nosuch, UInt64)") == NULL && err_code() == ERR_UNKNOWN_AGGREGATE_FUNCTION);
    err_clear();
    CHECK(T("SimpleAggregateFunction(uniq, UInt64)") == NULL && err_code() == ERR_BAD_ARGUMENTS);
    err_clear();
    CHECK(T("SimpleAggregateFunction(sum, UInt32)") == NULL && err_code() == ERR_BAD_ARGUMENTS);
    err_clear();
    agg_call *a;
    const type *u64 = T("UInt64");
    const type *arr = T("Array(String)");
    CHECK(agg_resolve("uniqState", 1, &arr, 0, NULL, &a) < 0 && err_code() == ERR_NOT_IMPLEMENTED);
    err_clear();
    const type *str = T("String");
    CHECK(agg_resolve("topKState", 1, &str, 0, NULL, &a) == 0);
    agg_call_free(a);
    CHECK(agg_resolve("topKState", 1, &u64, 0, NULL, &a) == 0);
    agg_call_free(a);
    /* sumMap's result type is what SimpleAggregateFunction(sumMap, T) must store: the
     * values promoted (UInt8 sums are UInt64) */
    err_clear();
    CHECK(T("SimpleAggregateFunction(sumMap, Tuple(Array(UInt8), Array(UInt8)))") == NULL &&
          err_code() == ERR_BAD_ARGUMENTS);
    /* sumMap's array form is versioned: its state type names version 1, written or not;
     * version 0 (values unpromoted) is not read */
    t = T("AggregateFunction(sumMap, Array(UInt8), Array(UInt64))");
    CHECK(t && t == T("AggregateFunction(1, sumMap, Array(UInt8), Array(UInt64))"));
    CHECK_STR(t ? t->name : NULL, "AggregateFunction(1, sumMap, Array(UInt8), Array(UInt64))");
    CHECK_STR(T("AggregateFunction(sumMap, Map(String, UInt8))")->name, "AggregateFunction(sumMap, Map(String, UInt8))");
    err_clear();
    CHECK(T("AggregateFunction(0, sumMap, Array(UInt8), Array(UInt64))") == NULL && err_code() == ERR_NOT_IMPLEMENTED);
    err_clear();
    const type *wide_map = T("Map(UInt128, UInt64)");
    CHECK(agg_resolve("sumMapState", 1, &wide_map, 0, NULL, &a) < 0 && err_code() == ERR_NOT_IMPLEMENTED);
    CHECK(agg_resolve("sumMap", 1, &wide_map, 0, NULL, &a) == 0); /* results without a state */
    agg_call_free(a);
    err_clear();
}

static void test_defaults(void)
{
    /* An AggregateFunction column's default is the empty state, as ClickHouse's. */
    column *c = col_new_defaults(T("AggregateFunction(avg, UInt64)"), 2);
    size_t n;
    const char *p = col_str(c, 1, &n);
    CHECK(c->len == 2 && n == 9 && memcmp(p, "\0\0\0\0\0\0\0\0\0", 9) == 0);
    col_free(c);
    c = col_new_defaults(T("AggregateFunction(any, String)"), 1);
    p = col_str(c, 0, &n);
    CHECK(n == 4 && memcmp(p, "\xff\xff\xff\xff", 4) == 0);
    col_free(c);
}

static void test_malformed(void)
{
    const type *t = T("AggregateFunction(groupArray, String)");
    size_t used, need;
    /* a count far beyond the data */
    const uint8_t huge[] = {0xff, 0xff, 0xff, 0xff, 0x0f};
    CHECK(agg_state_span(t, huge, sizeof huge, &used) < 0 && err_code() == ERR_TOO_LARGE_ARRAY_SIZE);
    err_clear();
    /* two strings announced, one present: short by the second's length byte */
    const uint8_t two[] = {0x02, 0x01, 0x30};
    CHECK(agg_state_span_need(t, two, sizeof two, &used, &need) < 0 && err_code() == ERR_CANNOT_READ_ALL_DATA &&
          need == 1);
    err_clear();
    const uint8_t ok[] = {0x02, 0x01, 0x30, 0x01, 0x31, 0x99};
    CHECK(agg_state_span(t, ok, sizeof ok, &used) == 0 && used == 5);
    /* a Nullable wrapper's flag must be 0 or 1 */
    const uint8_t bad_flag[] = {0x07};
    CHECK(agg_state_span(T("AggregateFunction(sum, Nullable(UInt64))"), bad_flag, 1, &used) < 0 &&
          err_code() == ERR_INCORRECT_DATA);
    err_clear();
    /* String single value: size beyond the data */
    const uint8_t sv[] = {0x10, 0, 0, 0, 'a'};
    CHECK(agg_state_span_need(T("AggregateFunction(min, String)"), sv, sizeof sv, &used, &need) < 0 && need == 15);
    err_clear();
    /* a uniqCombined(12) HyperLogLog state (kind 3, 2560 bytes of ranks, 22 counts per
     * rank, UInt16 zeros): read when its counts match its buckets, refused otherwise */
    {
        static uint8_t hll[1 + 2650];
        const type *ht = T("AggregateFunction(uniqCombined(12), UInt64)");
        hll[0] = 3;
        uint32_t all = 4096;
        memcpy(hll + 1 + 2560, &all, 4);
        uint16_t z = 4096;
        memcpy(hll + 1 + 2648, &z, 2);
        CHECK(agg_state_span(ht, hll, sizeof hll, &used) == 0 && used == sizeof hll);
        z = 4000;
        memcpy(hll + 1 + 2648, &z, 2);
        CHECK(agg_state_span(ht, hll, sizeof hll, &used) < 0 && err_code() == ERR_INCORRECT_DATA);
        err_clear();
        CHECK(agg_state_span_need(ht, hll, 100, &used, &need) < 0 && err_code() == ERR_CANNOT_READ_ALL_DATA);
        err_clear();
    }
    /* merge of a valid state with trailing bytes fails */
    const agg_call *a = agg_state_call(T("AggregateFunction(sum, UInt64)"));
    void *st = agg_state_new(a);
    const uint8_t nine[9] = {1};
    CHECK(agg_state_merge_bytes(a, st, nine, 9) < 0 && err_code() == ERR_INCORRECT_DATA);
    err_clear();
    CHECK(agg_state_merge_bytes(a, st, nine, 8) == 0);
    buf b = {0};
    agg_state_write(a, st, &b);
    CHECK(b.len == 8 && b.p[0] == 1);
    buf_free(&b);
    agg_state_free(a, st);
}

int main(void)
{
    test_types();
    test_defaults();
    test_malformed();
    return check_done("agg_state");
}
