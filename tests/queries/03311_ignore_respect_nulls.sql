-- f(…) IGNORE NULLS is what aggregate and window functions do anyway; RESPECT NULLS is not
-- implemented (a clear error); other functions cannot take either.
SELECT first_value(x) IGNORE NULLS, any(x) ignore nulls, anyLast(x) IGNORE NULLS, last_value(x) IGNORE NULLS, sum(x) IGNORE NULLS FROM (SELECT arrayJoin([NULL, 1, NULL, 2]) AS x) FORMAT TSVWithNames;
SELECT lagInFrame(x) IGNORE NULLS OVER () AS l FROM (SELECT arrayJoin([NULL, 1, NULL]) AS x);
SELECT sum(x) RESPECT NULLS FROM (SELECT arrayJoin([NULL, 1, NULL]) AS x); -- { serverError NOT_IMPLEMENTED }
SELECT lower(x) IGNORE NULLS FROM (SELECT 'a' AS x); -- { serverError SYNTAX_ERROR }
SELECT lower(x) RESPECT NULLS FROM (SELECT 'a' AS x); -- { serverError SYNTAX_ERROR }
