-- Window functions with the bounded window step (a sort that spills under
-- max_bytes_before_external_sort, rows released once no frame reaches them): the results
-- are those of the in-memory step. Aggregated with cityHash64 to keep the output small.
SET max_bytes_before_external_sort = 1000000, max_threads = 2;

-- one partition of 300 000 rows, a sliding ROWS frame
SELECT count(), sum(cityHash64(number, s)) FROM (
  SELECT number, sum(number) OVER (ORDER BY number ROWS BETWEEN 10 PRECEDING AND CURRENT ROW) AS s
  FROM numbers(300000));

-- descending order, a frame ahead of the row, values released behind it
SELECT count(), sum(cityHash64(number, a, b, c)) FROM (
  SELECT number,
         max(number) OVER (ORDER BY number DESC ROWS BETWEEN 3 PRECEDING AND 5 FOLLOWING) AS a,
         leadInFrame(number, 2) OVER (ORDER BY number DESC ROWS BETWEEN CURRENT ROW AND 4 FOLLOWING) AS b,
         nth_value(number, 2) OVER (ORDER BY number DESC ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING) AS c
  FROM numbers(200000));

-- many small partitions: ranks, running sums (RANGE, peers), lagInFrame
SELECT count(), sum(cityHash64(number, rn, rk, dr, rs, lg)) FROM (
  SELECT number,
         row_number() OVER w AS rn,
         rank() OVER (PARTITION BY number % 1000 ORDER BY intDiv(number, 7000)) AS rk,
         dense_rank() OVER (PARTITION BY number % 1000 ORDER BY intDiv(number, 7000)) AS dr,
         sum(number) OVER (PARTITION BY number % 1000 ORDER BY intDiv(number, 7000)) AS rs,
         lagInFrame(number, 1, 42) OVER (w ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS lg
  FROM numbers(200000) WINDOW w AS (PARTITION BY number % 1000 ORDER BY number));

-- functions that need the whole partition: its size, a frame to its end, RANGE offsets
SELECT count(), sum(cityHash64(number, pr, cd, nt, tail, rg)) FROM (
  SELECT number,
         percent_rank() OVER (PARTITION BY number % 100 ORDER BY intDiv(number, 300)) AS pr,
         cume_dist() OVER (PARTITION BY number % 100 ORDER BY intDiv(number, 300)) AS cd,
         ntile(7) OVER (PARTITION BY number % 100 ORDER BY number ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS nt,
         sum(number) OVER (PARTITION BY number % 100 ORDER BY number ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS tail,
         count() OVER (PARTITION BY number % 100 ORDER BY number RANGE BETWEEN 500 PRECEDING AND 300 FOLLOWING) AS rg
  FROM numbers(100000));

-- a running count over one partition with peer groups across blocks; OVER () with no keys
SELECT count(), sum(cityHash64(k, c, t)) FROM (
  SELECT intDiv(number, 70000) AS k, count() OVER (ORDER BY intDiv(number, 70000)) AS c, count() OVER () AS t
  FROM numbers(300000));

-- two windows: the columns come out in the query's order, the rows in the last window's
SELECT number, sum(number) OVER (ORDER BY number DESC ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS a,
       row_number() OVER (PARTITION BY number % 3 ORDER BY number) AS b,
       max(number) OVER (ORDER BY number ROWS BETWEEN CURRENT ROW AND 2 FOLLOWING) AS c
FROM numbers(10) ORDER BY number;

-- Strings carried through the spilled sort
SELECT sum(cityHash64(s, f)) FROM (
  SELECT toString(number) AS s, first_value(toString(number)) OVER (PARTITION BY number % 10 ORDER BY toString(number) ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS f
  FROM numbers(150000));

-- a memory limit alone also selects the bounded step
SELECT count(), sum(cityHash64(number, s)) FROM (
  SELECT number, sum(number) OVER (PARTITION BY number % 10 ORDER BY number ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING) AS s
  FROM numbers(200000)) SETTINGS max_bytes_before_external_sort = 0, max_memory_usage = 1000000000;
