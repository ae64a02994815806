/* What the parser accepts but shale does not implement must be an error at analysis
 * (never accepted and ignored): clauses, modifiers and setting values. ClickHouse runs
 * these queries, so they cannot live in tests/queries (whose references come from it). */
#include "base/err.h"
#include "func/func.h"
#include "sql/analyze.h"

#include "check.h"

#include <stdlib.h>

/* Analyses sql (its SELECT-level SETTINGS applied first, as the session does); returns
 * the error code, 0 on success. */
static int analyze_code(const char *sql)
{
    arena a;
    arena_init(&a);
    size_t pos = 0;
    ast *st = NULL;
    int code = -1;
    if (sql_parse_statement(&a, sql, strlen(sql), &pos, 1000, &st) < 0 || !st) {
        arena_free(&a);
        return -1;
    }
    query_ctx q = {0};
    q.st = settings_new();
    q.env.timezone = "UTC";
    q.max_threads = 1;
    q.sql_text = sql;
    q.sql_len = strlen(sql);
    const ast *sel = st->sub;
    while (sel && sel->kind == AST_UNION)
        sel = sel->args.items[sel->args.n - 1];
    for (int i = 0; sel && i < sel->settings.n; i++) {
        const ast *v = sel->settings.items[i]->sub;
        char val[64];
        snprintf(val, sizeof val, "%s", v->lit == LIT_STRING ? v->str : v->lit == LIT_BOOL ? (v->u ? "1" : "0") : v->text);
        if (settings_set(q.st, sel->settings.items[i]->name, val)) {
            code = err_code();
            goto out;
        }
    }
    query_plan *p;
    code = analyze_query(st->sub, &q, &p) ? err_code() : 0;
    if (!code)
        query_plan_free(p);
out:
    settings_free(q.st);
    arena_free(&a);
    return code;
}

int main(void)
{
    func_registry_init();
    static const char *not_implemented[] = {
        "SELECT * FROM (SELECT number % 2 AS k, count() FROM numbers(4) GROUP BY k WITH TOTALS)",
        "SELECT number FROM numbers(3) ORDER BY number WITH FILL STALENESS 2",
        "SELECT number % 2 AS k, count() FROM numbers(4) GROUP BY GROUPING SETS ((k), ()) WITH TOTALS",
        "SELECT number % 2 AS k, count() AS c FROM numbers(4) GROUP BY ROLLUP(k) WITH TOTALS HAVING c > 1",
        "SELECT number % 2 AS k, row_number() OVER () FROM numbers(4) GROUP BY ROLLUP(k)",
        "SELECT toString(number) AS s FROM numbers(3) ORDER BY s COLLATE 'en'",
        "SELECT 1 SETTINGS aggregate_functions_null_for_empty = 1",
        "SELECT * FROM (SELECT toUInt8(1) AS id) AS a RIGHT JOIN (SELECT toUInt16(3) AS id) AS b USING (id)",
        "SELECT * FROM (SELECT toUInt8(1) AS id) AS a FULL JOIN (SELECT toNullable(toUInt8(3)) AS id) AS b USING (id)",
        "SELECT * FROM numbers(2) AS a LEFT SEMI JOIN numbers(1) AS b ON a.number = b.number SETTINGS join_use_nulls = 1",
        "SELECT * FROM numbers(2) AS a LEFT JOIN (SELECT 0 AS number, (1, 2) AS t) AS b ON a.number = b.number SETTINGS join_use_nulls = 1",
        "SELECT 1 SETTINGS cast_keep_nullable = 1",
        "SELECT 1 SETTINGS prefer_column_name_to_alias = 1",
        "SELECT 1 SETTINGS max_result_rows = 10",
        "SELECT 1 SETTINGS date_time_input_format = 'best_effort'",
        "SELECT 1 SETTINGS date_time_output_format = 'iso'",
        "SELECT count() FROM (SELECT number FROM numbers(10) SETTINGS limit = 3)",
        "SELECT x FROM (SELECT number AS x FROM numbers(3) SETTINGS transform_null_in = 1)",
    };
    for (size_t i = 0; i < sizeof not_implemented / sizeof not_implemented[0]; i++) {
        int code = analyze_code(not_implemented[i]);
        if (code != ERR_NOT_IMPLEMENTED)
            fprintf(stderr, "expected NOT_IMPLEMENTED (got %d: %s): %s\n", code, err_msg(), not_implemented[i]);
        CHECK(code == ERR_NOT_IMPLEMENTED);
    }
    static const char *fine[] = {
        "SELECT 1 SETTINGS extremes = 0, join_use_nulls = 0, cast_keep_nullable = false",
        "SELECT 1 SETTINGS extremes = 1", /* implemented since (03751) */
        "SELECT x FROM (SELECT number AS x FROM numbers(3) SETTINGS max_threads = 1)",
        "SELECT x FROM (SELECT number AS x FROM numbers(3) SETTINGS transform_null_in = 1) SETTINGS transform_null_in = 1",
        "SELECT number % 2 AS k, count() FROM numbers(4) GROUP BY ALL",
        /* implemented since (set operations, 03580) */
        "SELECT 1 SETTINGS union_default_mode = 'ALL'",
        "SELECT 1 UNION DISTINCT SELECT 1",
    };
    for (size_t i = 0; i < sizeof fine / sizeof fine[0]; i++) {
        int code = analyze_code(fine[i]);
        if (code)
            fprintf(stderr, "expected success (got %d: %s): %s\n", code, err_msg(), fine[i]);
        CHECK(code == 0);
    }
    return check_done("unsupported");
}
