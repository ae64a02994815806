-- The empty tuple: tuple() / () and the type Tuple(): text, type name, use in ORDER BY,
-- GROUP BY, arrays and maps; comparisons are NOT_IMPLEMENTED, as in ClickHouse.
SELECT tuple(), (), toTypeName(tuple()) FORMAT TSVWithNames;
SELECT CAST(tuple(), 'Tuple()'), [(), ()], map(1, ()), toTypeName([()]);
SELECT tuple() FORMAT JSONEachRow;
SELECT tuple() FROM numbers(3);
SELECT number FROM numbers(3) ORDER BY tuple();
SELECT (), count() FROM numbers(3) GROUP BY ();
SELECT toString(()), length([(), (), ()]);
SELECT tuple() = tuple(); -- { serverError NOT_IMPLEMENTED }
SELECT tuple() < (); -- { serverError NOT_IMPLEMENTED }
DROP TABLE IF EXISTS et_03733;
CREATE TABLE et_03733 (k UInt8, x Tuple()) ENGINE = Memory;
INSERT INTO et_03733 VALUES (1, ()), (2, ());
INSERT INTO et_03733 SELECT 3, tuple();
SELECT k, x, toTypeName(x) FROM et_03733 ORDER BY k;
SELECT x FROM et_03733 ORDER BY k FORMAT JSONEachRow;
SELECT x FROM et_03733 ORDER BY k FORMAT CSV;
DROP TABLE et_03733;
