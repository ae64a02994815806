-- topK under -If, -OrNull, -OrDefault, -Distinct, with Nullable arguments (no flag byte in
-- the state) and NULL literals (NULL, as ClickHouse's AggregateFunctionNothing gives; also
-- groupArray(NULL) and groupUniqArray(NULL)); parameter errors.
SELECT topKIf(2)(toString(number % 5), number % 2 = 0), hex(topKIfState(2)(toString(number % 5), number > 3)), topKOrNull(2)(toString(number)), groupUniqArrayOrNull(2)(number) FROM numbers(30) SETTINGS max_threads = 1;
SELECT topKOrNull(2)(toString(number)), toTypeName(topKOrNull(2)(toString(number))), groupUniqArrayOrNull(2)(number), groupArrayOrNull(number), topKOrDefault(2)(number) FROM numbers(0);
SELECT topKDistinct(2)(toString(number % 3)) FROM numbers(10) SETTINGS max_threads = 1;
SELECT hex(topKState(2)(x)), hex(topKState(2)(y)), topK(2)(x) FROM (SELECT if(number % 3 = 0, NULL, toString(number % 4)) x, if(number % 3 = 0, NULL, number % 4) y FROM numbers(20)) SETTINGS max_threads = 1;
SELECT hex(topKIfState(2)(x, number % 2 = 0)), topKIf(2)(x, number % 2 = 1) FROM (SELECT number, if(number % 3 = 0, NULL, toString(number % 4)) x FROM numbers(20)) SETTINGS max_threads = 1;
SELECT hex(topKWeightedState(2)(x, w)) FROM (SELECT toString(number % 3) x, if(number % 4 = 0, NULL, number) w FROM numbers(20)) SETTINGS max_threads = 1;
SELECT groupArray(NULL), groupUniqArray(NULL), uniq(NULL), count(NULL), topK(2)(NULL), topKWeighted(2)(NULL, 1), topKWeighted(2)(1, NULL);
SELECT toTypeName(groupArray(NULL)), toTypeName(topK(NULL)), toTypeName(topKWeighted(2)(NULL, 1));
SELECT topK(0)(number) FROM numbers(3); -- { serverError ARGUMENT_OUT_OF_BOUND }
SELECT topK(2, 0)(number) FROM numbers(3); -- { serverError ARGUMENT_OUT_OF_BOUND }
-- a GROUP BY that spills its topK states to disk
SELECT k, topK(2)(toString(number % 13)), topKWeighted(1)([number % 7], number % 3) FROM (SELECT number, number % 1000 k FROM numbers(200000)) GROUP BY k ORDER BY k LIMIT 3 SETTINGS max_bytes_before_external_group_by = 100000, max_threads = 1;
