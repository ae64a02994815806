-- concat() of arrays only concatenates the arrays (arrayConcat); with any other argument it
-- concatenates the arguments' text.
SELECT concat([], ['Hello'], []), concat([1], [2, 3]), concat([[1]], [[]]);
SELECT concat([1], 'a'), concat([1], 2), concat('x', [2]);
SELECT toTypeName(concat([1], [2, 3])), toTypeName(concat([1], 'a'));
