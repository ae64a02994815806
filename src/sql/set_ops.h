/* Set operations between SELECTs: UNION DISTINCT, INTERSECT [ALL | DISTINCT] and
 * EXCEPT [ALL | DISTINCT] (UNION ALL alone stays the flat list of analyze.c).
 *
 * Grouping follows ClickHouse: INTERSECT binds to the SELECT just before it (inside the
 * right side of a preceding EXCEPT), EXCEPT takes everything to its left as one UNION, and
 * in a UNION list every part up to the last UNION DISTINCT forms one DISTINCT union. An
 * operator written without ALL / DISTINCT takes union_default_mode, intersect_default_mode
 * or except_default_mode (empty: EXPECTED_ALL_OR_DISTINCT).
 *
 * Semantics as ClickHouse 26.7 computes them: INTERSECT ALL and EXCEPT ALL are multiset
 * operations over the left side's rows in their order (a left row is kept — INTERSECT — or
 * dropped — EXCEPT — while the right side still has an unused equal row); the DISTINCT forms
 * keep each distinct left row once that is (INTERSECT) or is not (EXCEPT) on the right.
 * NULLs compare equal. Each side is converted to the columns' common supertypes first.
 *
 * Ownership: plans are freed with query_plan_free. Errors: -1 with err_set. A plan runs on
 * one thread (its SELECTs use their own threads). */
#ifndef SHALE_SQL_SET_OPS_H
#define SHALE_SQL_SET_OPS_H

#include "sql/analyze.h"

/* Analyzes a query that is not a SELECT or a UNION ALL of them (analyze.c's own plans). */
typedef int (*set_ops_analyze_fn)(const ast *query, query_ctx *q, bool top, query_plan **out);

/* Whether query (an AST_UNION, through nested UNION ALLs) uses any other set operator. */
bool set_ops_needed(const ast *query);
/* Plans an AST_UNION with set operators; leaf analyzes each SELECT / parenthesised part. */
int set_ops_analyze(const ast *u, query_ctx *q, bool top, set_ops_analyze_fn leaf, query_plan **out);
/* Runs a plan made by set_ops_analyze (p->nsubs > 0) into sink. */
int set_ops_run(query_plan *p, query_ctx *q, block_sink *sink);

#endif
