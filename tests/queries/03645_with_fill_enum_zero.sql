-- ORDER BY … WITH FILL fills the other columns with their zero: an Enum without a 0
-- element fails (UNKNOWN_ELEMENT_OF_ENUM), as in ClickHouse (found by difftest).
SELECT number * 2 AS n, CAST('a' AS Enum8('a' = 1)) AS e FROM numbers(2) ORDER BY n WITH FILL; -- { serverError UNKNOWN_ELEMENT_OF_ENUM }
SELECT number * 2 AS n, CAST('a' AS Enum8('a' = 1, 'z' = 0)) AS e FROM numbers(2) ORDER BY n WITH FILL;
SELECT number * 2 AS n, CAST('a' AS Nullable(Enum8('a' = 1))) AS e FROM numbers(2) ORDER BY n WITH FILL;
SELECT number * 2 AS n, CAST('b' AS Enum16('b' = 300, '' = 0)) AS e FROM numbers(2) ORDER BY n WITH FILL;
