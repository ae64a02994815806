-- output_format_pretty_squash_consecutive_ms = 0: a table per block, row numbers going on
-- (not in the MonoBlock forms); output_format_pretty_grid_charset = 'ASCII'.
SET output_format_pretty_squash_consecutive_ms = 0;
SELECT 1 UNION ALL SELECT 1 UNION ALL SELECT 1 FORMAT PrettySpace;
SELECT number AS hello, toString(number) AS world FROM system.numbers LIMIT 10 SETTINGS max_block_size = 5 FORMAT PrettyCompact;
SELECT number AS hello, toString(number) AS world FROM system.numbers LIMIT 10 SETTINGS max_block_size = 5 FORMAT PrettyCompactMonoBlock;
SET output_format_pretty_max_rows = 6;
SELECT number AS hello FROM system.numbers LIMIT 10 SETTINGS max_block_size = 4 FORMAT Pretty;
SET output_format_pretty_squash_consecutive_ms = 50, output_format_pretty_grid_charset = 'ASCII';
SELECT number AS hello, 'a\nb' AS s FROM numbers(10) FORMAT Pretty;
SELECT number AS hello, 'a\nb' AS s FROM numbers(10) FORMAT PrettyCompact;
SELECT number AS hello, 'a\nb' AS s FROM numbers(10) FORMAT PrettySpace;
SELECT 'ab' AS `a name with spaces that is long enough to be cut` FORMAT PrettyCompact;
