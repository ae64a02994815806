-- The threads' groupArray states stay under the limit while rows are read; merging them
-- passes it (64 MiB against 57 MiB): the query fails as ClickHouse's does, no answer leaks.
SELECT length(groupArray(number)) FROM numbers(4000000) SETTINGS max_threads = 2, max_memory_usage = 60000000; -- { serverError MEMORY_LIMIT_EXCEEDED }
SELECT length(groupArray(number)) FROM numbers(4000000) SETTINGS max_threads = 2, max_memory_usage = 0;
SELECT number FROM numbers(10) ORDER BY number DESC LIMIT 3 SETTINGS max_memory_usage = 60000000;
