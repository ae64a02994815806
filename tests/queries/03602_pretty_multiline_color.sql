-- Multi-line values (a final newline opens no extra line) and the ANSI colours of
-- output_format_pretty_color = 1: bold names, grey row numbers and line marks, underlined
-- thousands digits, red underlined trailing spaces; none in the NoEscapes forms.
SET output_format_pretty_fallback_to_vertical = 0;
SELECT * FROM VALUES(('Hello', 'World'), ('Hel\nlo', 'World'), ('Hello\n', 'World'), ('\nHello\n\n', 'Wor  \n ld')) FORMAT PrettyCompact;
SET output_format_pretty_color = 1;
SELECT * FROM VALUES(('Hello', 'World'), ('Hel\nlo', 'World'), ('Hello\n', 'World'), ('\nHello\n\n', 'Wor  \n ld')) FORMAT Pretty;
SELECT * FROM VALUES(('Hello', 'World'), ('Hel\nlo', 'World'), ('Hello\n', 'World'), ('\nHello\n\n', 'Wor  \n ld')) FORMAT PrettySpace;
SELECT number * 1234567 AS n, 'x  ' AS s, -number * 12345.5 AS f FROM numbers(3) FORMAT PrettyCompact;
SELECT number * 1234567 AS n, 'x  ' AS s FROM numbers(3) FORMAT PrettyCompactNoEscapes;
SET output_format_pretty_highlight_digit_groups = 0, output_format_pretty_highlight_trailing_spaces = 0;
SELECT number * 1234567 AS n, 'x  ' AS s FROM numbers(3) FORMAT PrettyCompact;
SET output_format_pretty_color = 0, output_format_pretty_multiline_fields = 0;
SELECT 'a\nb' AS x, 1 FORMAT PrettyCompact;
SET output_format_pretty_fallback_to_vertical = 1;
SELECT 'a\nb' AS x, 2, 3, 4, 5 FORMAT PrettyCompact;
SET output_format_pretty_multiline_fields = 1;
SELECT 'a\nb' AS x, 2, 3, 4, 5 FORMAT PrettyCompact;
