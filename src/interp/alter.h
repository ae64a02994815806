/* ALTER TABLE and DELETE FROM (AST_STMT_ALTER).
 *
 * Column commands (ADD / DROP / RENAME / MODIFY / COMMENT COLUMN, MODIFY COMMENT) change
 * the table's definition, which the catalog persists and the engine reopens with
 * (storage/catalog.h catalog_alter_table). On MergeTree tables, DROP / RENAME / MODIFY
 * COLUMN with a new type also record a mutation that rewrites the parts, and DELETE /
 * UPDATE / lightweight DELETE are mutations (storage/mergetree/mutate.c); the statement
 * waits for them when mutations_sync is 1 or 2 (lightweight DELETE always waits, as
 * ClickHouse's lightweight_deletes_sync = 2 default makes it). The part and partition
 * commands (ATTACH / DETACH / DROP PART …) go to the engine's alter().
 * Errors: -1 with ClickHouse's code (NO_SUCH_COLUMN_IN_TABLE, ILLEGAL_COLUMN,
 * DUPLICATE_COLUMN, ALTER_OF_COLUMN_IS_FORBIDDEN, CANNOT_UPDATE_COLUMN, NOT_IMPLEMENTED
 * for engines and commands shale does not alter). */
#ifndef SHALE_INTERP_ALTER_H
#define SHALE_INTERP_ALTER_H

#include "exec/query.h"
#include "parse/ast.h"

int alter_run(const ast *stmt, query_ctx *q);

#endif
