-- NULL IN (1, 2): shale 0, ClickHouse NULL
SELECT NULL IN (1, 2);
-- table function format(): Unknown table function format
DESCRIBE format(CSV, '1,"a",2.5');
DESCRIBE format(JSONEachRow, '{"x": 1, "y": "s", "z": [1, 2]}');
SELECT * FROM format(CSV, '1,"a"\n2,"b"') ORDER BY c1;
SELECT * FROM format(TSV, 'x\t1\ny\t2');
-- ORDER BY ALL: Unknown expression identifier `ALL`
SELECT * FROM file('data/t_1.csv', CSVWithNames) ORDER BY ALL;
