-- topK's state type names its parameters only when written, as ClickHouse does (a
-- remote() initiator compares the shards' header types by name).
SELECT toTypeName(topKState(toString(number))), toTypeName(topKState(5)(number)), toTypeName(topKWeightedState(number, 1)) FROM numbers(3);
SELECT topKMerge(s) FROM (SELECT topKState(toString(number % 3)) AS s FROM numbers(30));
