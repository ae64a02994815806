/* EXPLAIN: the statement's text result, for the EXPLAIN statement (interp/interp.c) and
 * for EXPLAIN as a table expression (SELECT … FROM (EXPLAIN AST SELECT …)).
 *
 * EXPLAIN AST and EXPLAIN SYNTAX print ClickHouse 26.7's text (or fail with
 * NOT_IMPLEMENTED where they would not); EXPLAIN PLAN prints shale's own plan, which is
 * not ClickHouse's text, so as a table expression (whose rows a query would filter as
 * if they were ClickHouse's) it is NOT_IMPLEMENTED; PIPELINE, QUERY TREE, ESTIMATE and
 * the others are NOT_IMPLEMENTED.
 *
 * Errors: -1 with err_set. Ownership: *sch and *b are new. */
#ifndef SHALE_SQL_EXPLAIN_H
#define SHALE_SQL_EXPLAIN_H

#include "exec/source.h"
#include "parse/ast.h"

/* The rows of EXPLAIN stmt (AST_STMT_EXPLAIN): one String column `explain`, a row per
 * line. as_table: the statement is a table expression. */
int explain_block(const ast *stmt, query_ctx *q, bool as_table, schema **sch, block **b);
/* FROM (EXPLAIN …): a source over explain_block's rows. */
int explain_source(const ast *stmt, query_ctx *q, source **out);

#endif
