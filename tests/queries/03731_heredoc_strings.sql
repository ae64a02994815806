-- Heredoc string literals, as ClickHouse's lexer reads them: $$...$$ and $tag$...$tag$,
-- the bytes between the tags taken as they are (no escapes).
SELECT $$hello$$ FORMAT TSVWithNames;
SELECT $$it's "quoted" \n not an escape$$;
SELECT $tag$has $$ inside$tag$, length($tag$abc$tag$);
SELECT $$$$ = '', toTypeName($$x$$);
SELECT concat($a$multi
line$a$, '!');
SELECT $1$one$1$;
SELECT x FROM (SELECT $$a$$ AS x UNION ALL SELECT $$b$$) ORDER BY x;
SELECT 'a' || $$b$$ || 'c';
-- without a closing tag, `$` starts an identifier
SELECT 1 AS $alias$name$ FORMAT TSVWithNames;
SELECT 2 AS $x, $x + 1;
