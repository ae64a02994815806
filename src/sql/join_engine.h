/* What the analyzer does with Join and Set tables (storage/joinset.h): the checks a JOIN
 * whose right side is a Join table must pass (ClickHouse's StorageJoin::getJoinLocked),
 * joinGet / joinGetOrNull, and the rows of a table named on the right of IN.
 *
 * Ownership: returned tables are references (table_unref), blocks and columns the
 * caller's. Errors: -1 with err_set. */
#ifndef SHALE_SQL_JOIN_ENGINE_H
#define SHALE_SQL_JOIN_ENGINE_H

#include "exec/expr.h"
#include "parse/ast.h"
#include "storage/table.h"

/* The JOIN clause j (its right side j->sub): when that is a Join table, checks that the
 * JOIN matches the table (strictness and kind, join_use_nulls) and gives the table in
 * *out; *out = NULL when the right side is something else. */
int join_engine_check(const ast *j, query_ctx *q, table **out);
/* Once the JOIN's keys are known (js, over right, the rows of the Join table t): they
 * must be the table's keys, and ON may hold nothing else. */
struct join_spec;
struct source;
int join_engine_check_keys(const struct join_spec *js, const struct source *right, const table *t);

/* joinGet(table, column, keys…) or joinGetOrNull (fname): table_name "db.name" or "name",
 * keys the compiled key arguments (taken, also on error). *out is the compiled lookup. */
int join_get_compile(const char *fname, const char *table_name, const char *colname, expr **keys, int nkeys,
                     query_ctx *q, expr **out);

/* ALTER TABLE t DELETE WHERE … (cmds) on a Join table; other commands are NOT_IMPLEMENTED. */
int join_engine_mutate(table *t, const ast_list *cmds, query_ctx *q);

/* `x IN name` where name (an identifier, maybe db.name) is a table: its rows (a Set
 * table's for IN, which allows no SELECT). 1 with *out set when name is a table, 0 when
 * there is no such table (nothing set), -1 on error. */
int in_table_rows(const ast *name, query_ctx *q, schema **sch, block ***bs, int *nb);

#endif
