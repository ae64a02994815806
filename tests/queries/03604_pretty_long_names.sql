-- Long column names that are not identifiers are cut in the middle; values wider than
-- output_format_pretty_max_value_width are cut with ⋯ (a single value only when
-- output_format_pretty_max_value_width_apply_for_single_value says so).
SELECT concat('Hello world long', toString(number)) || 'abcdefghijklmnopq' FROM numbers(2) FORMAT PrettyCompact;
SELECT 1 AS very_long_identifier_name_that_is_never_cut FORMAT PrettyCompact;
SELECT 'ab' AS `a name with spaces that is long enough to be cut` FORMAT Pretty;
SET output_format_pretty_max_column_name_width_cut_to = 10, output_format_pretty_max_column_name_width_min_chars_to_cut = 2;
SELECT 'ab' AS `a name with spaces that is long enough to be cut`, 'abcdefghijklmnop' AS `x + y + z + w` FORMAT PrettySpace;
SET output_format_pretty_max_value_width = 5;
SELECT 'abcdefghij' AS x, 'ab' AS y FORMAT PrettyCompact;
SELECT 'abcdefghij' AS x FORMAT PrettyCompact;
SET output_format_pretty_max_value_width_apply_for_single_value = 1;
SELECT 'abcdefghij' AS x FORMAT PrettyCompact;
SET output_format_pretty_color = 1;
SELECT 'abcdefghij' AS x, 'ab' AS y FORMAT PrettyCompact;
