SELECT CAST('(1, \'a\', [2,3])' AS Tuple(UInt8, String, Array(UInt8)));
SELECT CAST('[(1,2),(3,4)]' AS Array(Tuple(UInt8, UInt8)));
SELECT * FROM format(TSV, 't Tuple(a UInt8, b String)', '(1,\'x\')\n(2,\'y\')');
SELECT CAST('(1, 2' AS Tuple(UInt8, UInt8)); -- { serverError CANNOT_PARSE_INPUT_ASSERTION_FAILED }
