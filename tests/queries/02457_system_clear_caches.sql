-- Dropping caches changes no result (shale has none of these caches: nothing to drop).
SYSTEM CLEAR QUERY CACHE;
SYSTEM DROP QUERY CACHE;
SYSTEM CLEAR QUERY CONDITION CACHE;
SYSTEM DROP MARK CACHE;
SYSTEM DROP UNCOMPRESSED CACHE;
SELECT sum(number) FROM numbers(10) SETTINGS use_query_cache = 1;
SYSTEM CLEAR QUERY CACHE;
SELECT sum(number) FROM numbers(10);
