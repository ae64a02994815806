-- Results longer than output_format_pretty_max_rows: the first (max + 1) / 2 and the last
-- max / 2 rows with a filler between, then "Showed N out of M rows." (also when M = max).
SET output_format_pretty_max_rows = 10;
SELECT number, 'Hello' || toString(number) FROM numbers(25) FORMAT Pretty;
SELECT number, 'Hello' || toString(number) FROM numbers(25) FORMAT PrettyCompact;
SELECT number, 'Hello' || toString(number) FROM numbers(25) FORMAT PrettySpace;
SET output_format_pretty_max_rows = 5;
SELECT number FROM numbers(12) FORMAT PrettyCompact;
SELECT number FROM numbers(12) FORMAT PrettySpace;
SELECT number FROM numbers(5) FORMAT PrettyCompact;
SELECT number FROM numbers(4) FORMAT PrettySpace;
SET output_format_pretty_max_rows = 100, output_format_pretty_display_footer_column_names_min_rows = 3;
SELECT number, toString(number) AS s FROM numbers(4) FORMAT PrettySpace;
SELECT number, toString(number) AS s FROM numbers(4) FORMAT PrettyCompact;
SELECT number, toString(number) AS s FROM numbers(4) FORMAT Pretty;
