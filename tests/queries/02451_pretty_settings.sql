-- The Pretty formats' footer of names and their fallback to Vertical follow their settings.
SELECT number FROM numbers(55) FORMAT PrettyCompact SETTINGS output_format_pretty_display_footer_column_names = 0;
SELECT number FROM numbers(12) FORMAT PrettyCompact SETTINGS output_format_pretty_display_footer_column_names_min_rows = 10;
SELECT number FROM numbers(12) FORMAT PrettyCompact SETTINGS output_format_pretty_display_footer_column_names = 1, output_format_pretty_display_footer_column_names_min_rows = 13;
SELECT repeat('a', 60) a, repeat('b', 60) b, repeat('c', 60) c, repeat('d', 60) d, repeat('e', 60) e FORMAT Pretty;
SELECT repeat('a', 60) a, repeat('b', 60) b, repeat('c', 60) c, repeat('d', 60) d, repeat('e', 60) e FORMAT Pretty SETTINGS output_format_pretty_fallback_to_vertical = 0;
SELECT 'a' a, 'b' b, 'c' c FORMAT PrettyCompact SETTINGS output_format_pretty_fallback_to_vertical_min_columns = 3, output_format_pretty_fallback_to_vertical_min_table_width = 10;
SELECT 'a' a, 'b' b, 'c' c FROM numbers(3) FORMAT PrettyCompact SETTINGS output_format_pretty_fallback_to_vertical_min_columns = 3, output_format_pretty_fallback_to_vertical_min_table_width = 10, output_format_pretty_fallback_to_vertical_max_rows_per_chunk = 2;
