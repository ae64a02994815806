/* Parser tests: AST shapes, ClickHouse column names (checked against ClickHouse 26.7),
 * statements, error messages and depth limits. */
#include "base/err.h"
#include "parse/ast.h"

#include "check.h"

#include <stdlib.h>

static arena A;
static char namebuf[8192];

static ast *parse1(const char *sql)
{
    size_t pos = 0;
    ast *st = NULL;
    if (sql_parse_statement(&A, sql, strlen(sql), &pos, 1000, &st) < 0) {
        fprintf(stderr, "parse error: %s\n  in: %s\n", err_msg(), sql);
        return NULL;
    }
    return st;
}

/* names of the select list of "SELECT <list>", tab-separated */
static const char *names(const char *list)
{
    char sql[4096];
    snprintf(sql, sizeof sql, "SELECT %s", list);
    ast *st = parse1(sql);
    if (!st)
        return "<error>";
    buf b = {0};
    ast *s = st->sub;
    for (int k = 0; k < s->select.n; k++) {
        if (k)
            buf_putc(&b, '\t');
        ast_format_name(&b, s->select.items[k]);
    }
    snprintf(namebuf, sizeof namebuf, "%.*s", (int)b.len, (const char *)b.p);
    buf_free(&b);
    return namebuf;
}

static const char *error_of(const char *sql)
{
    size_t pos = 0;
    ast *st = NULL;
    err_clear();
    if (sql_parse_statement(&A, sql, strlen(sql), &pos, 1000, &st) == 0)
        return "<ok>";
    snprintf(namebuf, sizeof namebuf, "%d %s", err_code(), err_msg());
    return namebuf;
}

static void test_names(void)
{
    /* window functions as ClickHouse 26.7 names them: ASC written, frames in BETWEEN form */
    CHECK_STR(names("sum(x) OVER (PARTITION BY a % 2, b ORDER BY c DESC NULLS FIRST, d ROWS UNBOUNDED PRECEDING), "
                    "count() OVER (RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING), rank() OVER w, "
                    "sum(x) OVER (w ORDER BY y), lag(x, 1) OVER ()"),
              "sum(x) OVER (PARTITION BY modulo(a, 2), b ORDER BY c DESC NULLS FIRST, d ASC ROWS BETWEEN UNBOUNDED "
              "PRECEDING AND CURRENT ROW)\tcount() OVER (RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)\t"
              "rank() OVER w\tsum(x) OVER (w ORDER BY y ASC)\tlag(x, 1) OVER ()");
    CHECK_STR(names("1+1, toString(1), 'a', [1,2], (1,'x'), -1, 1.5, 1e21, 1e22, 1e-7, "
                    "123456789012345678901234567890, 0.1, 1/3, 7 % 7 = 3"),
              "plus(1, 1)\ttoString(1)\t'a'\t[1, 2]\t(1, 'x')\t-1\t1.5\t1e21\t1e22\t1e-7\t1.2345678901234568e29\t0.1\t"
              "divide(1, 3)\tequals(modulo(7, 7), 3)");
    CHECK_STR(names("1 IN (1,2), CAST(1 AS String), 1::Int32, 1 ? 1 : 2, CASE WHEN 1=1 THEN 2 END, NOT 1, "
                    "-(1+1), [1,2][1], 1 IS NULL, 1 BETWEEN 1 AND 2, 'it''s', 1 + 2 * 3, 'a\\nb\\tc\\\\d', 'a\\0b'"),
              "in(1, (1, 2))\tCAST(1, 'String')\tCAST('1', 'Int32')\tif(1, 1, 2)\tmultiIf(equals(1, 1), 2, NULL)\t"
              "not(1)\tnegate(plus(1, 1))\tarrayElement([1, 2], 1)\tisNull(1)\t"
              "and(greaterOrEquals(1, 1), lessOrEquals(1, 2))\t'it\\'s'\tplus(1, multiply(2, 3))\t"
              "'a\\nb\\tc\\\\d'\t'a\\0b'");
    CHECK_STR(names("count(), quantile(0.9)(1), count(DISTINCT 1), count(*), sum(DISTINCT 1), uniqExact(1, 2), "
                    "countIf(1 = 1)"),
              "count()\tquantile(0.9)(1)\tcountDistinct(1)\tcount()\tsumDistinct(1)\tuniqExact(1, 2)\t"
              "countIf(equals(1, 1))");
    CHECK_STR(names("INTERVAL 1 DAY, NULL, true, false, INTERVAL 2 MONTH, INTERVAL 1 + 1 HOUR, 1 NOT IN (1), "
                    "1 GLOBAL IN (1), 'x'::String, [1,2]::Array(UInt8), (1,2).1, tuple(1,'a').2, ('a' AS x), x"),
              "toIntervalDay(1)\tNULL\ttrue\tfalse\ttoIntervalMonth(2)\ttoIntervalHour(plus(1, 1))\tnotIn(1, 1)\t"
              "globalIn(1, 1)\tCAST('x', 'String')\tCAST('[1,2]', 'Array(UInt8)')\ttupleElement((1, 2), 1)\t"
              "tupleElement((1, 'a'), 2)\tx\tx");
    CHECK_STR(names("1 AND 0 AND 1, 1 OR 0 OR 1, 1 AND (0 OR 1), 1 < 2, 1 > 2, 1 <= 2, 1 >= 2, 1 - 2 - 3, "
                    "1 - (2 - 3), 2 * 3 / 4, -1 - -2, - - 1, NOT NOT 1, 1 = 1 = 1"),
              "and(1, 0, 1)\tor(1, 0, 1)\tand(1, or(0, 1))\tless(1, 2)\tgreater(1, 2)\tlessOrEquals(1, 2)\t"
              "greaterOrEquals(1, 2)\tminus(minus(1, 2), 3)\tminus(1, minus(2, 3))\tdivide(multiply(2, 3), 4)\t"
              "minus(-1, -2)\tnegate(-1)\tnot(not(1))\tequals(equals(1, 1), 1)");
    CHECK_STR(names("CAST(1 AS Nullable(String)), CAST('2020-01-01' AS DateTime64(3, 'UTC')), "
                    "CAST('a' AS Enum8('a' = 1)), CAST(1 AS   Decimal( 9 ,2 ) )"),
              "CAST(1, 'Nullable(String)')\tCAST('2020-01-01', 'DateTime64(3, \\'UTC\\')')\t"
              "CAST('a', 'Enum8(\\'a\\' = 1)')\tCAST(1, 'Decimal(9, 2)')");
    CHECK_STR(names("toDate('2020-01-01') + INTERVAL 1 DAY, now() - INTERVAL '2 hours', 'abc' ILIKE 'a%', "
                    "concat('a','b') || 'c' || 'd', isNull(NULL), materialize(1)::UInt8"),
              "plus(toDate('2020-01-01'), toIntervalDay(1))\tminus(now(), toIntervalHour(2))\tilike('abc', 'a%')\t"
              "concat(concat('a', 'b'), 'c', 'd')\tisNull(NULL)\tCAST(materialize(1), 'UInt8')");
    CHECK_STR(names("CASE number WHEN 1 THEN 2 ELSE 3 END, CAST(1, 'String'), -1.5, 1e10, .5, 1., inf, -inf, nan, "
                    "0x10, 0b11, -(1), - 1, -number"),
              "caseWithExpression(number, 1, 2, 3)\tCAST(1, 'String')\t-1.5\t10000000000.\t0.5\t1.\tinf\t-inf\tnan\t"
              "16\t3\tnegate(1)\t-1\tnegate(number)");
    CHECK_STR(names("EXTRACT(YEAR FROM toDate('2020-01-01')), DATE '2020-01-01', TIMESTAMP '2020-01-01 00:00:00', "
                    "SUBSTRING('abc' FROM 1 FOR 2), TRIM(BOTH 'x' FROM 'xax'), POSITION('a' IN 'abc'), "
                    "INTERVAL '1 day', 1 <> 2, 1 != 2, 1 == 1, 18446744073709551615, 18446744073709551616, "
                    "-9223372036854775808, 1.0, 1.50, 0.1e5"),
              "toYear(toDate('2020-01-01'))\ttoDate('2020-01-01')\ttoDateTime('2020-01-01 00:00:00')\t"
              "substring('abc', 1, 2)\ttrimBoth('xax', 'x')\tposition('abc', 'a')\ttoIntervalDay(1)\t"
              "notEquals(1, 2)\tnotEquals(1, 2)\tequals(1, 1)\t18446744073709551615\t18446744073709552000.\t"
              "-9223372036854775808\t1.\t1.5\t10000.");
    CHECK_STR(names("number AS x, x + 1, (1 AS y) + y, 1 DIV 2, 1 MOD 2, trim(LEADING 'x' FROM 'xa'), "
                    "trim(TRAILING 'x' FROM 'ax'), 1::Nullable(String), CAST(1 AS Decimal(9, 2)), [], (), tuple(), "
                    "5 NOT BETWEEN 1 AND 2, NOT 1 = 2"),
              "x\tplus(x, 1)\tplus(y, y)\tintDiv(1, 2)\tmodulo(1, 2)\ttrimLeft('xa', 'x')\ttrimRight('ax', 'x')\t"
              "CAST('1', 'Nullable(String)')\tCAST(1, 'Decimal(9, 2)')\t[]\t()\t()\t"
              "or(less(5, 1), greater(5, 2))\tnot(equals(1, 2))");
    CHECK_STR(names("arrayMap(x -> x + 1, [1]), (number, 1), [number], tuple(1, 2), `a b`, plus(`a b`, 1)"),
              "arrayMap(lambda(tuple(x), plus(x, 1)), [1])\t(number, 1)\t[number]\t(1, 2)\ta b\tplus(a b, 1)");
    CHECK_STR(names("1e300*10, -0, -0.0, 0.000001, 1e-5, 123.456e2, 1e20, 1e15, 100000000000000000000.0"),
              "multiply(1e300, 10)\t0\t-0.\t0.000001\t0.00001\t12345.6\t100000000000000000000.\t1000000000000000.\t"
              "100000000000000000000.");
    CHECK_STR(names("a.1, (1, (2, 3)), [(1, 2)], [-1, 2], 'a' NOT LIKE 'b', 1 IS NOT NULL, ((1)), 1 IN 1"),
              "tupleElement(a, 1)\t(1, (2, 3))\t[(1, 2)]\t[-1, 2]\tnotLike('a', 'b')\tisNotNull(1)\t1\tin(1, 1)");
    CHECK_STR(names("arrayMap((x, y) -> x, [1], [2]), t.*, *, {p:UInt8}, x -> 1"),
              "arrayMap(lambda(tuple(x, y), x), [1], [2])\tt.*\t*\t{p:UInt8}\tlambda(tuple(x), 1)");
}

static void test_shapes(void)
{
    ast *st = parse1("WITH 1 AS one, t AS (SELECT 2) SELECT DISTINCT a, b c, d AS e FROM db.t1 AS x FINAL "
                     "LEFT OUTER ANY JOIN t2 y ON x.a = y.a INNER JOIN t3 USING (a, b), t4 "
                     "PREWHERE a WHERE b GROUP BY a, b WITH TOTALS HAVING c ORDER BY a DESC NULLS FIRST, "
                     "b COLLATE 'en' LIMIT 2 BY a LIMIT 5, 10 SETTINGS max_threads = 1 "
                     "INTO OUTFILE 'o.tsv' FORMAT TSV SETTINGS x = 'y'");
    CHECK(st && st->kind == AST_STMT_SELECT);
    if (!st)
        return;
    ast *s = st->sub;
    CHECK(s->kind == AST_SELECT);
    CHECK(s->with.n == 2 && s->with.items[1]->kind == AST_SUBQUERY);
    CHECK_STR(s->with.items[0]->alias, "one");
    CHECK(s->select_distinct && s->select.n == 3);
    CHECK_STR(s->select.items[1]->alias, "c");
    CHECK_STR(s->from->database, "db");
    CHECK_STR(s->from->table_name, "t1");
    CHECK_STR(s->from->alias, "x");
    CHECK(s->from->final);
    ast *j = s->from->join;
    CHECK(j && !strcmp(j->join_kind, "LEFT") && !strcmp(j->join_strictness, "ANY") && j->on);
    CHECK_STR(j->sub->alias, "y");
    ast *j2 = j->sub->join;
    CHECK(j2 && !strcmp(j2->join_kind, "INNER") && j2->using_cols.n == 2);
    ast *j3 = j2->sub->join;
    CHECK(j3 && !strcmp(j3->join_kind, "CROSS"));
    CHECK_STR(j3->sub->table_name, "t4");
    CHECK(s->prewhere && s->where && s->group_by.n == 2 && s->with_totals && s->having);
    CHECK(s->order_by.n == 2 && s->order_by.items[0]->desc && s->order_by.items[0]->nulls == 1);
    CHECK(s->limit_by.n == 1 && s->limit_by_limit->u == 2);
    CHECK(s->limit->u == 10 && s->offset->u == 5);
    CHECK(s->settings.n == 1);
    CHECK_STR(st->outfile, "o.tsv");
    CHECK_STR(st->format, "TSV");
    CHECK(st->settings.n == 1);

    st = parse1("SELECT 1 UNION ALL (SELECT 2 UNION ALL SELECT 3) UNION DISTINCT SELECT 4");
    CHECK(st && st->sub->kind == AST_UNION && st->sub->args.n == 3 &&
          st->sub->set_ops[1] == (SETOP_UNION | SETOP_ALL) && st->sub->set_ops[2] == (SETOP_UNION | SETOP_DISTINCT));
    st = parse1("SELECT * FROM numbers(10) LIMIT 3 OFFSET 2");
    CHECK(st && st->sub->from->table_func && st->sub->limit->u == 3 && st->sub->offset->u == 2);
    st = parse1("SELECT x FROM (SELECT 1 AS x) GROUP BY ALL");
    CHECK(st && st->sub->from->sub && st->sub->group_by_all);
    st = parse1("(SELECT 1)");
    CHECK(st && st->sub->kind == AST_SELECT);
    st = parse1("SELECT 1 -- comment\n # another\n /* block /* nested */ */ + 2");
    CHECK(st && st->sub->select.n == 1);
    st = parse1("SELECT x FROM t ORDER BY x WITH FILL");
    CHECK(st && st->sub->order_by.items[0]->with_fill);
}

static void test_statements(void)
{
    const char *sql = "INSERT INTO db.t (a, b) FORMAT CSV\n1,2\n3,4\n";
    ast *st = parse1(sql);
    CHECK(st && st->kind == AST_STMT_INSERT && st->insert_columns.n == 2);
    if (st) {
        CHECK_STR(st->format, "CSV");
        CHECK(st->insert_data_len == 8 && !memcmp(st->insert_data, "1,2\n3,4\n", 8));
    }
    st = parse1("INSERT INTO t VALUES (1, 'a;b'), (2, 'c')");
    CHECK(st && !strcmp(st->format, "Values") && st->insert_data_len == 20);
    size_t pos = 0;
    const char *two = "INSERT INTO t VALUES (1); SELECT 2";
    CHECK(sql_parse_statement(&A, two, strlen(two), &pos, 1000, &st) == 0 && st->insert_data_len == 3);
    CHECK(sql_parse_statement(&A, two, strlen(two), &pos, 1000, &st) == 0 && st->kind == AST_STMT_SELECT);
    CHECK(sql_parse_statement(&A, two, strlen(two), &pos, 1000, &st) == 0 && st == NULL);
    st = parse1("INSERT INTO TABLE t SELECT * FROM u");
    CHECK(st && st->sub && !strcmp(st->table_name, "t"));
    st = parse1("INSERT INTO FUNCTION file('x.csv', 'CSV') PARTITION BY a SELECT 1");
    CHECK(st && st->table_func && st->partition_by.n == 1 && st->sub);
    st = parse1("SET max_threads = 4, x = 'a'");
    CHECK(st && st->kind == AST_STMT_SET && st->settings.n == 2);
    st = parse1("DESC TABLE db.t");
    CHECK(st && st->kind == AST_STMT_DESCRIBE && !strcmp(st->sub->table_name, "t"));
    st = parse1("DESCRIBE file('a.csv')");
    CHECK(st && st->sub->table_func);
    st = parse1("DESCRIBE (SELECT 1)");
    CHECK(st && st->sub->sub);
    st = parse1("EXPLAIN SYNTAX SELECT 1");
    CHECK(st && st->kind == AST_STMT_EXPLAIN && !strcmp(st->explain_kind, "SYNTAX") && st->sub->kind == AST_STMT_SELECT);
    st = parse1("CREATE TABLE IF NOT EXISTS db.t (a UInt8 NOT NULL DEFAULT 1 CODEC(ZSTD(1)) COMMENT 'c', "
                "b Nullable(String) MATERIALIZED toString(a), c Array(Tuple(x UInt8, y String)) NULL) "
                "ENGINE = MergeTree() PARTITION BY a ORDER BY (a, b) PRIMARY KEY a SETTINGS index_granularity = 8192");
    CHECK(st && st->kind == AST_STMT_CREATE_TABLE && st->if_not_exists && st->columns.n == 3);
    if (st) {
        ast *c = st->columns.items[0];
        CHECK(c->kind == AST_COLUMN_DEF && c->nullable == -1 && c->sub && c->codec.n == 1);
        CHECK_STR(c->default_kind, "DEFAULT");
        CHECK_STR(c->comment, "c");
        CHECK_STR(st->columns.items[1]->str, "Nullable(String)");
        CHECK_STR(st->columns.items[2]->str, "Array(Tuple(x UInt8, y String))");
        CHECK(st->order_by_key.n == 2 && st->primary_key.n == 1 && st->partition_key && st->settings.n == 1);
        CHECK_STR(st->engine->name, "MergeTree");
    }
    st = parse1("CREATE TABLE t ENGINE = Memory AS SELECT 1");
    CHECK(st && st->as_select);
    st = parse1("CREATE DATABASE IF NOT EXISTS d ENGINE = Atomic");
    CHECK(st && st->kind == AST_STMT_CREATE_DATABASE && !strcmp(st->database, "d"));
    st = parse1("DROP TABLE IF EXISTS d.t");
    CHECK(st && st->kind == AST_STMT_DROP && st->if_exists && !strcmp(st->show_what, "TABLE"));
    st = parse1("DROP DATABASE d");
    CHECK(st && !strcmp(st->database, "d"));
    st = parse1("TRUNCATE TABLE t");
    CHECK(st && st->kind == AST_STMT_TRUNCATE);
    st = parse1("RENAME TABLE a TO b, c TO d.e");
    CHECK(st && st->kind == AST_STMT_RENAME && st->args.n == 4);
    st = parse1("SHOW TABLES FROM db LIKE 'x%'");
    CHECK(st && st->kind == AST_STMT_SHOW && !strcmp(st->database, "db") && st->sub);
    st = parse1("SHOW CREATE TABLE t FORMAT TSVRaw");
    CHECK(st && !strcmp(st->show_what, "CREATE TABLE") && !strcmp(st->format, "TSVRaw"));
    st = parse1("USE db");
    CHECK(st && st->kind == AST_STMT_USE);
    st = parse1("OPTIMIZE TABLE t FINAL");
    CHECK(st && st->final);
    st = parse1("SYSTEM DROP MARK CACHE");
    CHECK(st && !strcmp(st->str, "DROP MARK CACHE"));
    st = parse1("CHECK TABLE t");
    CHECK(st && st->kind == AST_STMT_CHECK);
    st = parse1("ALTER TABLE t ATTACH PART 'all_1_1_0'");
    CHECK(st && st->kind == AST_STMT_ALTER && !strcmp(st->str, "ATTACH PART 'all_1_1_0'"));
}

static void test_split(void)
{
    const char *s = "SELECT ';'; SELECT 2 /* ; */; INSERT INTO t FORMAT CSV\n1;2\n";
    size_t e1 = sql_statement_end(s, strlen(s), 0);
    CHECK(e1 == 11);
    size_t e2 = sql_statement_end(s, strlen(s), e1);
    CHECK(e2 == 29);
    CHECK(sql_statement_end(s, strlen(s), e2) == strlen(s));
}

static void test_errors(void)
{
    CHECK(!strncmp(error_of("SELECT 1 +"), "62 Syntax error: failed at position 11 (end of query): . Expected", 62));
    CHECK(!strncmp(error_of("SELECT 1 1"), "62 Syntax error: failed at position 10 (1): 1. Expected", 50));
    CHECK(strstr(error_of("SELECT 1,\n 2 +"), "(line 2, col 5)") != NULL);
    CHECK(strstr(error_of("SELECT 'abc"), "Single quoted string is not closed") != NULL);
    const char *bad[] = {"SELEC 1", "SELECT (1", "SELECT [1", "SELECT f(1", "SELECT 1 FROM", "SELECT CAST(1 AS)",
                         "SELECT CASE END", "SELECT {x}", "SELECT 1 ARRAY JOIN [1] AS x",
                         "SELECT x FROM t LEFT ARRAY a", "SELECT 1 EXCEPT",
                         "SELECT a FROM t JOIN u", "INSERT INTO t", "CREATE VIEW v", "DROP x",
                         "SELECT INTERVAL 1 FORTNIGHT", "SELECT 1 IS 2", "SELECT 1 BETWEEN 2", "SELECT `",
                         "SELECT \"\"", "SELECT 1 !", "SELECT 1 |", "SELECT $", "SELECT 1::", "SELECT (1,2).x.",
                         "SHOW x", "SELECT 1 FROM t WHERE", "SET", "SELECT sum(x) OVER (", "SELECT sum(x) OVER (ROWS 1)",
                         "SELECT sum(x) OVER (ROWS BETWEEN 1 PRECEDING)", "SELECT 1 FROM t WINDOW w", "SELECT t.1.", NULL};
    for (int k = 0; bad[k]; k++) {
        const char *e = error_of(bad[k]);
        if (strncmp(e, "62 ", 3) != 0)
            fprintf(stderr, "no syntax error for %s: %s\n", bad[k], e);
        CHECK(!strncmp(e, "62 ", 3));
    }
    /* empty input */
    size_t pos = 0;
    ast *st = (ast *)1;
    CHECK(sql_parse_statement(&A, " ;; -- x\n", 9, &pos, 1000, &st) == 0 && st == NULL);
}

static void test_depth(void)
{
    char *q = malloc(200100);
    strcpy(q, "SELECT ");
    size_t n = 7;
    for (int k = 0; k < 100000; k++)
        q[n++] = '(';
    q[n++] = '1';
    for (int k = 0; k < 100000; k++)
        q[n++] = ')';
    q[n] = 0;
    CHECK(!strncmp(error_of(q), "167 Maximum parse depth (1000) exceeded.", 40));
    n = 7;
    for (int k = 0; k < 50000; k++)
        q[n++] = '-', q[n++] = ' ';
    q[n++] = 'x';
    q[n] = 0;
    CHECK(!strncmp(error_of(q), "167 ", 4));
    /* a moderately deep expression parses */
    n = 7;
    for (int k = 0; k < 50; k++)
        q[n++] = '[';
    for (int k = 0; k < 50; k++)
        q[n++] = ']';
    q[n] = 0;
    CHECK_STR(error_of(q), "<ok>");
    free(q);
}

static void test_format_dump(void)
{
    ast *st = parse1("SELECT a, b AS c, f(1, [1], x.y) FROM db.t AS q JOIN u USING (a) WHERE a = 1 ORDER BY x DESC "
                     "LIMIT 3 SETTINGS max_threads = 1");
    buf b = {0};
    ast_dump(&b, st, 0);
    CHECK_STR(buf_cstr(&b), "SelectWithUnionQuery (children 1)\n"
                            " ExpressionList (children 1)\n"
                            "  SelectQuery (children 6)\n"
                            "   ExpressionList (children 3)\n"
                            "    Identifier a\n"
                            "    Identifier b (alias c)\n"
                            "    Function f (children 1)\n"
                            "     ExpressionList (children 3)\n"
                            "      Literal UInt64_1\n"
                            "      Literal Array_[UInt64_1]\n"
                            "      Identifier x.y\n"
                            "   TablesInSelectQuery (children 2)\n"
                            "    TablesInSelectQueryElement (children 1)\n"
                            "     TableExpression (children 1)\n"
                            "      TableIdentifier db.t (alias q)\n"
                            "    TablesInSelectQueryElement (children 2)\n"
                            "     TableExpression (children 1)\n"
                            "      TableIdentifier u\n"
                            "     TableJoin (children 1)\n"
                            "      ExpressionList (children 1)\n"
                            "       Identifier a\n"
                            "   Function equals (children 1)\n"
                            "    ExpressionList (children 2)\n"
                            "     Identifier a\n"
                            "     Literal UInt64_1\n"
                            "   ExpressionList (children 1)\n"
                            "    OrderByElement (children 1)\n"
                            "     Identifier x\n"
                            "   Literal UInt64_3\n"
                            "   Set\n");
    b.len = 0;
    ast_format_sql(&b, parse1("SELECT a AS x, count() FROM t WHERE x > 1 GROUP BY a ORDER BY a DESC LIMIT 1, 2"));
    CHECK_STR(buf_cstr(&b), "SELECT a AS x, count() FROM t WHERE greater(x, 1) GROUP BY a ORDER BY a DESC LIMIT 1, 2");
    /* ARRAY JOIN clauses after FROM (and after its joins), in order, with LEFT */
    b.len = 0;
    ast_format_sql(&b, parse1("SELECT x FROM t AS a JOIN u ON a.k = u.k LEFT ARRAY JOIN arr AS x, b ARRAY JOIN [1, 2] AS y WHERE x > 0"));
    CHECK_STR(buf_cstr(&b), "SELECT x FROM t AS a INNER JOIN u ON equals(a.k, u.k) LEFT ARRAY JOIN arr AS x, b ARRAY JOIN [1, 2] AS y "
                            "WHERE greater(x, 0)");
    buf_free(&b);
}

int main(void)
{
    arena_init(&A);
    test_names();
    test_shapes();
    test_statements();
    test_split();
    test_errors();
    test_depth();
    test_format_dump();
    arena_free(&A);
    return check_done("parser");
}
