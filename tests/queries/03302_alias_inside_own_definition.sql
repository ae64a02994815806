-- Inside `expr AS name`, `name` is the column, not the alias being defined.
SELECT number * 2 AS number, number * 10 + 1 AS joined FROM numbers(3);
SELECT number + 1 AS number FROM numbers(2) WHERE number > 1;
SELECT x * 2 AS x FROM (SELECT 5 AS x);
SELECT toString(number) AS number, length(number) FROM numbers(11) ORDER BY number DESC LIMIT 2;
