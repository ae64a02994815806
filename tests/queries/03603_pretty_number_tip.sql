-- The readable tip ("-- 12.35 million") follows every row whose last column is a number
-- above the threshold, except numbers in the range of 64-bit hashes.
SELECT cityHash64('') FORMAT Pretty;
SELECT 123456789 FORMAT Pretty;
SELECT 'a', number * 10000000 FROM numbers(3) FORMAT PrettyCompact;
SELECT number * 10000000, 'a' FROM numbers(3) FORMAT PrettyCompact;
SELECT 'a', toNullable(12345678) FORMAT PrettyCompact;
SELECT 'a', CAST(NULL, 'Nullable(Int64)') AS n FORMAT PrettyCompact;
SELECT -12345678.5 FORMAT PrettySpace;
SELECT 2e18 AS h FORMAT PrettyCompact;
SELECT 2e19 AS big FORMAT PrettyCompact;
SELECT 1e300 AS huge FORMAT PrettyCompact;
SELECT 'a', -1.5e25 AS neg FORMAT PrettyCompact;
SELECT 999999.999 AS f, 1000000.5 AS g FORMAT PrettyCompact;
SELECT cityHash64('') AS h, 123456789 AS n FORMAT Vertical;
SET output_format_pretty_single_large_number_tip_threshold = 0;
SELECT 123456789 FORMAT Pretty;
