/* The WithMergeableState split of an aggregating SELECT (sql/dist_split.h): the shard query
 * as text and under ClickHouse's planner names, the initiator's half, and the queries that
 * are not split. The end-to-end results are in tests/server/run-remote-tests.sh. */
#include "base/err.h"
#include "sql/dist_split.h"

#include "check.h"

static arena a;

static const ast *parse(const char *sql)
{
    size_t pos = 0;
    ast *st = NULL;
    if (sql_parse_statement(&a, sql, strlen(sql), &pos, 1000, &st) || !st)
        return NULL;
    return st->sub;
}

/* The shard's text (from_sql as FROM), or the error code when not split. */
static const char *shard_text(const char *sql, const char *from_sql, bool states)
{
    static char out[2048];
    const ast *sel = parse(sql);
    dist_split ds;
    err_clear();
    if (!sel || dist_split_select(&a, sel, &ds)) {
        snprintf(out, sizeof out, "not split %d", err_code());
        return out;
    }
    buf b = {0};
    if (dist_format_select(&b, states ? ds.shard_states : ds.shard, from_sql))
        snprintf(out, sizeof out, "format error %d", err_code());
    else
        snprintf(out, sizeof out, "%s", buf_cstr(&b));
    buf_free(&b);
    return out;
}

int main(void)
{
    arena_init(&a);
    /* As ClickHouse's initiator sends it: HAVING, ORDER BY and LIMIT stay with the initiator. */
    CHECK_STR(shard_text("SELECT `__table1`.`k` AS `k`, count() AS `count()`, sum(`__table1`.`x`) AS `sum(x)` "
                         "FROM `default`.`t` AS `__table1` WHERE `__table1`.`x` > 3 GROUP BY `__table1`.`k` "
                         "HAVING count() > 1 ORDER BY sum(`__table1`.`x`) DESC LIMIT 3",
                         NULL, true),
              "SELECT `__table1`.`k` AS `__table1.k`, countState() AS `count()`, sumState(`__table1`.`x`) AS "
              "`sum(__table1.x)` FROM `default`.`t` AS `__table1` WHERE greater(`__table1`.`x`, 3) GROUP BY "
              "`__table1`.`k`");
    /* Aliases inlined, one state per distinct aggregate, parameters named as the planner does. */
    CHECK_STR(shard_text("SELECT k % 2 AS m, count() AS c, quantile(0.5)(x) FROM r WHERE m = 1 GROUP BY m "
                         "HAVING c > 1 ORDER BY count() DESC",
                         "`db`.`t`", false),
              "SELECT modulo(`k`, 2) AS `modulo(k, 2_UInt8)`, count() AS `count()`, quantile((0.5))(`x`) AS "
              "`quantile(0.5_Float64)(x)` FROM `db`.`t` WHERE equals(modulo(`k`, 2), 1) GROUP BY modulo(`k`, 2)");
    CHECK_STR(shard_text("SELECT x IN (1, 2) AS i, max(s) FROM t GROUP BY i", "t", false),
              "SELECT (`x` IN (1, 2)) AS `in(x, tuple(1_UInt8, 2_UInt8))`, max(`s`) AS `max(s)` FROM t GROUP BY "
              "(`x` IN (1, 2))");

    /* The initiator's half reads the key and state columns. */
    const ast *sel = parse("SELECT k, sum(x) / count() AS r FROM t GROUP BY k HAVING r > 1 ORDER BY k LIMIT 2");
    dist_split ds;
    CHECK(sel && dist_split_select(&a, sel, &ds) == 0);
    CHECK(ds.nkeys == 1 && ds.naggs == 2);
    buf b = {0};
    ast item = *ds.outer->select.items[1];
    item.alias = NULL;
    ast_format_name(&b, &item);
    CHECK_STR(buf_cstr(&b), "divide(sumMerge(__shale_agg_0), countMerge(__shale_agg_1))");
    CHECK_STR(ds.outer->select.items[1]->alias, "r");
    CHECK_STR(ds.outer->select.items[0]->alias, "k");
    CHECK(ds.outer->limit && ds.outer->having && ds.outer->order_by.n == 1 && ds.outer->group_by.n == 1);
    buf_free(&b);

    /* Not split: the rows path (remote()) or an error (a shard). */
    CHECK_STR(shard_text("SELECT count(DISTINCT x) FROM t", "t", false), "not split 48");
    CHECK_STR(shard_text("SELECT k, count() FROM t GROUP BY GROUPING SETS ((k), ())", "t", false), "not split 48");
    CHECK_STR(shard_text("SELECT k, count() FROM t GROUP BY 1", "t", false), "not split 48");
    CHECK_STR(shard_text("SELECT sum(x) OVER (), count() FROM t", "t", false), "not split 48");
    CHECK_STR(shard_text("SELECT count() FROM t WHERE x IN (SELECT 1)", "t", false), "not split 48");
    CHECK(!dist_select_aggregates(parse("SELECT x, sum(x) OVER () FROM t")));
    CHECK(dist_select_aggregates(parse("SELECT 1 FROM t HAVING 1")));
    arena_free(&a);
    return check_done("dist_split");
}
