-- ANY FULL JOIN is not implemented in ClickHouse; ANY RIGHT JOIN not with partial_merge
-- (shale refuses partial_merge for every join: docs/spill.md).
SELECT * FROM (SELECT 1 AS x) t1 ANY FULL JOIN (SELECT 1 AS x) t0 USING (x); -- { serverError NOT_IMPLEMENTED }
SELECT * FROM (SELECT 1 AS x) t1 ANY FULL JOIN (SELECT 1 AS x) t0 ON t1.x = t0.x; -- { serverError NOT_IMPLEMENTED }
SELECT * FROM (SELECT 1 AS x) t1 ANY RIGHT JOIN (SELECT 1 AS x) t0 USING (x);
SET join_algorithm = 'partial_merge';
SELECT * FROM (SELECT 1 AS x) t1 ANY RIGHT JOIN (SELECT 1 AS x) t0 USING (x); -- { serverError NOT_IMPLEMENTED }
