-- JSON_EXISTS, JSON_VALUE and JSON_QUERY with ClickHouse's JSONPath subset (members, quoted members, [*], index
-- lists and ranges), its parse errors, and simdjson's number and string text; references from ClickHouse.
SELECT JSON_VALUE('{"a":{"b":[1,2,3]}}', '$.a.b[0]'), JSON_VALUE('{"a":{"b":[1,2,3]}}', '$.a.b'), JSON_QUERY('{"a":{"b":[1,2,3]}}', '$.a.b'), JSON_QUERY('{"a":{"b":[1,2,3]}}', '$.a.b[1]'), JSON_EXISTS('{"a":{"b":[1,2,3]}}', '$.a.b[5]'), JSON_EXISTS('{"a":{"b":[1,2,3]}}', '$.a.b[2]');
SELECT JSON_VALUE('{"a":"x\\ny"}', '$.a'), JSON_VALUE('{"a":1.50}', '$.a'), JSON_VALUE('{"a":true}', '$.a'), JSON_VALUE('{"a":null}', '$.a'), JSON_VALUE('{"a":{"b":1}}', '$.a'), JSON_QUERY('{"a":"s"}', '$.a'), JSON_QUERY('{"a":1}', '$'), JSON_VALUE('{"a":1}', '$');
SELECT JSON_QUERY('{"a":[{"b":1},{"b":2}]}', '$.a[*].b'), JSON_QUERY('{"a":[1,2,3,4]}', '$.a[1 to 3]'), JSON_QUERY('{"a":[1,2,3,4]}', '$.a[0, 2]'), JSON_QUERY('{"a":{"x":1,"y":2}}', '$.a.*'), JSON_VALUE('{"a":[1,2]}', '$.a[*]'), JSON_QUERY('{"a b":1}', '$["a b"]'), JSON_QUERY('{"a":1}', '$.a.b'); -- { serverError BAD_ARGUMENTS }
SELECT JSON_VALUE('bad', '$.a'), JSON_QUERY('bad', '$.a'), JSON_EXISTS('bad', '$.a'), toTypeName(JSON_VALUE('{}', '$')), toTypeName(JSON_QUERY('{}', '$')), toTypeName(JSON_EXISTS('{}', '$'));
SELECT JSON_VALUE('{"a":1}', 'a'); -- { serverError BAD_ARGUMENTS }
SELECT JSON_VALUE('{"a":1}', '$.'); -- { serverError BAD_ARGUMENTS }
SELECT JSON_VALUE('{"a":1}', '$..a'); -- { serverError BAD_ARGUMENTS }
SELECT JSON_VALUE('{"a":1}', '$[-1]'); -- { serverError BAD_ARGUMENTS }
SELECT JSON_VALUE('{"a":1}', '$.a['); -- { serverError BAD_ARGUMENTS }
SELECT JSON_VALUE('{"a":1}', p) FROM (SELECT arrayJoin(['$.a']) AS p); -- { serverError ILLEGAL_COLUMN }
SELECT JSON_QUERY('{"a":[1,2,3]}', '$.a[-1]'), JSON_QUERY('{"a":[1,2,3]}', '$.a[3 to 1]'), JSON_QUERY('{"a":[1,2,3]}', '$.a[0 to 0]'), JSON_QUERY('{"a":[[1,2],[3]]}', '$.a[*][0]'), JSON_QUERY('[1,2]', '$[1]'), JSON_VALUE('{"a":{"b":"c"}}', '$.a["b"]'), JSON_VALUE('{"a":{"b":"c"}}', '$.a[\'b\']'); -- { serverError BAD_ARGUMENTS }
SELECT JSON_VALUE('{"a-b":1, "_x1":2, "1a":3}', '$.a-b'), JSON_VALUE('{"_x1":2}', '$._x1'), JSON_VALUE('{"1a":3}', '$.1a'), JSON_VALUE(' {"a" : 1} ', ' $.a '), JSON_VALUE('{"a":1}', '$ .a'), JSON_VALUE('{"a":1}', '$.A'); -- { serverError BAD_ARGUMENTS }
SELECT JSON_QUERY('{"a":1,"a":2}', '$.a'), JSON_VALUE('{"a":[1,2]}', '$.a[0,1]'), JSON_QUERY('{"a":"é\\u00e9"}', '$.a'), JSON_VALUE('{"a":"é\\u00e9"}', '$.a'), JSON_VALUE('{"a":18446744073709551615}', '$.a'), JSON_VALUE('{"a":1e300}', '$.a');
SELECT JSON_QUERY('{"a":[{"b":1},{"b":2}]}', '$.a[*].b');
SELECT JSON_QUERY('{"a":[1,2,3,4]}', '$.a[1 to 3]');
SELECT JSON_QUERY('{"a":[1,2,3,4]}', '$.a[0, 2]');
SELECT JSON_QUERY('{"a":{"x":1,"y":2}}', '$.a.*'); -- { serverError BAD_ARGUMENTS }
SELECT JSON_VALUE('{"a":[1,2]}', '$.a[*]');
SELECT JSON_QUERY('{"a b":1}', '$["a b"]');
SELECT JSON_QUERY('{"a":1}', '$.a.b');
SELECT JSON_QUERY('{"a":[1,2,3]}', '$.a[3 to 1]'); -- { serverError BAD_ARGUMENTS }
SELECT JSON_QUERY('{"a":[1,2,3]}', '$.a[0 to 0]'); -- { serverError BAD_ARGUMENTS }
SELECT JSON_QUERY('{"a":[[1,2],[3]]}', '$.a[*][0]');
SELECT JSON_QUERY('[1,2]', '$[1]');
SELECT JSON_VALUE('{"a":{"b":"c"}}', '$.a["b"]');
SELECT JSON_VALUE('{"a":{"b":"c"}}', '$.a[\'b\']');
SELECT JSON_VALUE('{"a-b":1}', '$.a-b'); -- { serverError BAD_ARGUMENTS }
SELECT JSON_VALUE('{"_x1":2}', '$._x1');
SELECT JSON_VALUE('{"1a":3}', '$.1a');
SELECT JSON_VALUE(' {"a" : 1} ', ' $.a ');
SELECT JSON_VALUE('{"a":1}', '$ .a');
SELECT JSON_VALUE('{"a":1}', '$.A');
SELECT JSON_VALUE('{"a":1}', '$.`a`');
SELECT JSON_VALUE('{"a":1}', '$."a"');
SELECT JSON_VALUE('{"a":[1,2,3]}', '$.a[1,2]');
SELECT JSON_QUERY('{"a":[1,2,3]}', '$.a[0 to 2, 2]');
SELECT JSON_QUERY('{"a":[1,2,3]}', '$.a[*, 1]'); -- { serverError BAD_ARGUMENTS }
SELECT JSON_QUERY('{"a":[1,2,3]}', '$.a[0][0]');
SELECT JSON_QUERY('{"a":{"b":{"c":5}}}', '$.a.*.c'); -- { serverError BAD_ARGUMENTS }
SELECT JSON_QUERY('{"a":[1,2,3]}', '$.a.*'); -- { serverError BAD_ARGUMENTS }
SELECT JSON_QUERY('{"a":[1,2,3]}', '$.a[1.5]'); -- { serverError BAD_GET }
SELECT JSON_QUERY('{"a":[1,2,3]}', '$.a[ 1 ]');
SELECT JSON_QUERY('{"a":[1,2,3]}', '$.a[1 TO 2]');
SELECT JSON_QUERY('{"a":[1,2,3]}', '$.a[0x1]');
SELECT JSON_QUERY('{"a":[1,2,3]}', '$.a[01]');
SELECT JSON_QUERY('{"a":[1,2,3]}', '$');
SELECT JSON_QUERY('{"a":[1,2,3]}', ''); -- { serverError BAD_ARGUMENTS }
SELECT JSON_QUERY('{"a":[1,2,3]}', '$$'); -- { serverError BAD_ARGUMENTS }
SELECT JSON_QUERY('{"a":[1,2,3]}', '$.a[]'); -- { serverError BAD_ARGUMENTS }
SELECT JSON_QUERY('{"a":{"b":1}}', '$.a.b.'); -- { serverError BAD_ARGUMENTS }
SELECT JSON_QUERY('{"a":{"b":1}}', '$[0]');
SELECT JSON_QUERY('{"a":{"b":1}}', '$.a[0]');
SELECT JSON_QUERY('{"a":{"b":1}}', '$.a[*]');
SELECT JSON_QUERY('{"a":[{"b":1},{"c":2},{"b":3}]}', '$.a[*].b');
SELECT JSON_QUERY('{"a":1} ', '$.a /* c */');
SELECT JSON_QUERY('{"a":1} ', '$.a -- c');
SELECT JSON_QUERY('{"ab":1}', '$.a b'); -- { serverError BAD_ARGUMENTS }
SELECT x, JSON_VALUE(concat('{"a":', x, '}'), '$.a'), JSON_QUERY(concat('{"a":[', x, ']}'), '$.a') FROM (SELECT arrayJoin(['1.5', '1e300', '0.1', '1e16', '1e15', '1e-5', '0.0001', '123456789.123456789', '-0.0', '1.0', '5e-324', '1e21', '-1', '18446744073709551615', '"a\\"b\\u0001/"', 'null', 'true', '{"x" : [1, {"y":"z"}]}', '"\\u2028"']) AS x);
SELECT JSON_QUERY('[[1]]', '$[0][0]');
