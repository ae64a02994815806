/* The split of an aggregating SELECT between the shards of a distributed query and its
 * initiator, as ClickHouse splits it (QueryProcessingStage WithMergeableState).
 *
 *   original:  SELECT exprs FROM d WHERE w GROUP BY keys HAVING h ORDER BY o LIMIT l
 *   shard:     SELECT key_1, …, f_1(args), … FROM d WHERE w GROUP BY keys
 *              (run to the mergeable stage: each aggregate f(args) as its state,
 *               AggregateFunction(f, T…); shard_states spells it fState(args))
 *   initiator: SELECT exprs' FROM <the shards' blocks> GROUP BY key columns HAVING h'
 *              ORDER BY o' LIMIT l
 *              where exprs', h', o' read the key columns (DIST_KEY_COL j) and merge the
 *              states (fMerge(params)(DIST_AGG_COL i)); the output columns keep the
 *              original names.
 * Aliases of the select list are inlined first, so every part stands alone. The shard's
 * select items are named as ClickHouse's planner names them (`__table1.k`, `count()`,
 * `sum(__table1.x)`, `modulo(__table1.k, 2_UInt8)`): the header a ClickHouse initiator
 * expects from a shard at WithMergeableState.
 *
 * Users: the native server (a shard query at WithMergeableState that aggregates runs
 * shard_states), and the initiator of remote() (sql/analyze.c, dist_split_source; any
 * other table function whose source has shards can call the same: see
 * analyze_split_distributed in analyze.h).
 *
 * What is not split (dist_split_select returns 1 with NOT_IMPLEMENTED and the reason):
 * WITH, PREWHERE, ARRAY JOIN, JOIN, GROUP BY ALL / positions / GROUPING SETS, window
 * functions, DISTINCT aggregates, subqueries and lambdas in the aggregating parts,
 * INTERPOLATE, expressions the shard text cannot spell. Callers that can run the query
 * another way (remote()'s rows path) do so; the server returns the error.
 *
 * Memory: every node and string lives in the caller's arena. Thread-safety: none needed
 * (pure functions of the AST). */
#ifndef SHALE_SQL_DIST_SPLIT_H
#define SHALE_SQL_DIST_SPLIT_H

#include "base/buf.h"
#include "parse/ast.h"

#include <stdbool.h>

#define DIST_KEY_COL "__shale_key_%d"
#define DIST_AGG_COL "__shale_agg_%d"

typedef struct dist_split {
    ast *shard;         /* AST_SELECT: keys then aggregates (as written), FROM = the original's */
    ast *shard_states;  /* the same with each aggregate f as fState */
    ast *outer;         /* AST_SELECT without FROM over DIST_KEY_COL / DIST_AGG_COL columns */
    int nkeys, naggs;
} dist_split;

/* True when the SELECT aggregates (GROUP BY, HAVING, WITH TOTALS or an aggregate function
 * outside a window in its select list, HAVING or ORDER BY). */
bool dist_select_aggregates(const ast *sel);

/* Splits sel (an AST_SELECT that aggregates). 0 on success; 1 with NOT_IMPLEMENTED set
 * when the query is not split (see above). */
int dist_split_select(arena *a, const ast *sel, dist_split *out);

/* The shard query as SQL text, its FROM being from_sql (a table or table function as the
 * shard names it; NULL: the AST's own FROM, which must then be a plain table). Returns -1
 * with NOT_IMPLEMENTED for an expression it cannot spell. */
int dist_format_select(buf *out, const ast *sel, const char *from_sql);

/* The name ClickHouse's planner gives an expression in a block it expects from a shard:
 * columns as written ("__table1.k"), constants as value and type ("1_UInt8",
 * "'a'_String", "0.5_Float64"), functions as name(arguments) and name(params)(arguments).
 * 0, or -1 when the expression has another shape. */
int dist_planner_name(const ast *e, buf *out);

#endif
