/* Statements on the catalog: CREATE / DROP / RENAME / TRUNCATE / USE / SHOW / EXISTS /
 * DESCRIBE of tables, OPTIMIZE / CHECK / ALTER handed to engines, and INSERT INTO a table.
 *
 * Each runner takes a parsed statement and the query (q->catalog must be set).
 * Statements with a result return it as one block (*out, with *sch, both owned by the
 * caller; NULL when the statement has no result). Errors: -1 with ClickHouse's code and
 * message. Single statement at a time per session; tables do their own locking. */
#ifndef SHALE_INTERP_DDL_H
#define SHALE_INTERP_DDL_H

#include "column/block.h"
#include "exec/query.h"
#include "parse/ast.h"

/* CREATE TABLE/DATABASE, DROP, TRUNCATE, RENAME, USE, SHOW, OPTIMIZE, CHECK, ALTER. */
int ddl_run(const ast *stmt, query_ctx *q, schema **sch, block **out);
/* The canonical CREATE TABLE text (what the catalog persists) of a CREATE statement's
 * columns and storage clauses, for the table db.name; columns are checked as CREATE
 * checks them. Appends to out. */
int ddl_canonical_create(const ast *st, const char *db, const char *name, query_ctx *q, buf *out);
/* DESCRIBE of a catalog table; returns 1 (nothing set) when `table` does not name one
 * (table functions, subqueries, system tables), so the caller describes it otherwise. */
int ddl_describe(const ast *table, query_ctx *q, schema **sch, block **out);
/* INSERT INTO [db.]t [(cols)] VALUES … / FORMAT fmt [data | stdin] / SELECT …;
 * *rows gets the number of rows written. */
int ddl_insert(const ast *stmt, query_ctx *q, uint64_t *rows);

#endif
