-- engine: src/exec/settings.c defaults output_format_json_quote_64bit_integers to 1; ClickHouse 26.7 uses 0
SELECT number AS n, 'q"u\\o' AS s, number / 3 AS f, [number, 1] AS arr, NULL AS z FROM numbers(2) FORMAT JSONEachRow;
SELECT number AS n, toString(number) AS s, toInt64(number) - 1 AS i64 FROM numbers(2) FORMAT JSON SETTINGS output_format_write_statistics = 0;
SELECT number AS n, 0.5 AS f, nan AS x, inf AS y FROM numbers(2) FORMAT JSONCompact SETTINGS output_format_write_statistics = 0;
SELECT number AS n, toNullable(number) AS nn FROM numbers(2) FORMAT JSONCompactEachRow;
