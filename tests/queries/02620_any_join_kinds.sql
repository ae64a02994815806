-- ANY JOIN of each kind, as ClickHouse: LEFT takes the key's first right row for every left
-- row, INNER is one-to-one per key, RIGHT joins every right row with one left row.
-- One thread and small blocks, so "first" is the same row in both engines.
SET max_threads = 1, max_block_size = 4;
SELECT a.k, a.x, b.y FROM (SELECT number % 3 AS k, number AS x FROM numbers(9)) a ANY INNER JOIN (SELECT number % 2 AS k, number AS y FROM numbers(6)) b ON a.k = b.k ORDER BY a.k, a.x;
SELECT a.k, a.x, b.y FROM (SELECT number % 3 AS k, number AS x FROM numbers(9)) a ANY LEFT JOIN (SELECT number % 2 AS k, number AS y FROM numbers(6)) b ON a.k = b.k ORDER BY a.x, b.y;
SELECT a.k, a.x, b.y FROM (SELECT number % 3 AS k, number AS x FROM numbers(9)) a ANY RIGHT JOIN (SELECT number % 4 AS k, number AS y FROM numbers(8)) b ON a.k = b.k ORDER BY b.y, a.x;
SELECT count(), sum(a.x), sum(b.y) FROM (SELECT number % 10 AS k, number AS x FROM numbers(100)) a ANY INNER JOIN (SELECT number % 5 AS k, number AS y FROM numbers(50)) b ON a.k = b.k;
SELECT count(), sum(a.x), sum(b.y) FROM (SELECT number % 10 AS k, number AS x FROM numbers(100)) a ANY RIGHT JOIN (SELECT number % 20 AS k, number AS y FROM numbers(50)) b ON a.k = b.k;
SELECT k, x, y FROM (SELECT toString(number % 3) AS k, number AS x FROM numbers(7)) a ANY INNER JOIN (SELECT toString(number % 4) AS k, number AS y FROM numbers(9)) b USING (k) ORDER BY k;
SELECT a.k, a.x, b.y FROM (SELECT if(number % 4 = 0, NULL, number % 2) AS k, number AS x FROM numbers(8)) a ANY INNER JOIN (SELECT toNullable(number % 2) AS k, number AS y FROM numbers(4)) b ON a.k = b.k ORDER BY a.x;
