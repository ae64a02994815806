/* The analyzer: resolves a parsed SELECT (names, aliases, types, functions, aggregates)
 * into an executable plan (exec/select.h).
 *
 * Name resolution follows ClickHouse: aliases defined anywhere in the SELECT are visible
 * everywhere in it (and take precedence over columns of the same name, except inside
 * their own definition); ORDER BY / GROUP BY / LIMIT BY accept positions (1-based).
 * Errors come back as ClickHouse's (UNKNOWN_IDENTIFIER with "Maybe you meant",
 * NOT_AN_AGGREGATE, ILLEGAL_AGGREGATION, UNKNOWN_FUNCTION, ILLEGAL_TYPE_OF_ARGUMENT). */
#ifndef SHALE_SQL_ANALYZE_H
#define SHALE_SQL_ANALYZE_H

#include "exec/select.h"
#include "parse/ast.h"

/* A query: one or more SELECT plans whose results are concatenated (UNION ALL), or
 * (nparts == 0) a set operation over sub-plans (sql/set_ops.h). */
typedef struct query_plan {
    int nparts;
    select_plan **parts;
    schema *out_schema; /* the first part's names, the common types */
    /* set_op: SETOP_UNION (the subs concatenated), SETOP_INTERSECT or SETOP_EXCEPT
     * (subs[0] against subs[1]); set_distinct: each result row once */
    int set_op;
    bool set_distinct;
    int nsubs;
    struct query_plan **subs;
} query_plan;

int analyze_query(const ast *query, query_ctx *q, query_plan **out);
void query_plan_free(query_plan *p);
int query_plan_run(query_plan *p, query_ctx *q, block_sink *sink);
/* query_plan_run with the result converted to the types of `to` (a supertype of each). */
int query_plan_run_as(query_plan *p, query_ctx *q, const schema *to, block_sink *sink);

/* Runs a query into memory (subqueries, IN (SELECT …), scalar subqueries). */
int run_query_to_blocks(const ast *query, query_ctx *q, schema **sch, block ***blocks, int *nblocks);

/* Evaluates a table function's arguments to constant one-row columns (a bare identifier
 * is taken as a string: file('x', CSV)). *args has f->args.n entries, owned by the caller. */
int analyze_table_args(const ast *f, query_ctx *q, column ***args);

/* The arguments of remote(addresses, db.table | db, table | 'db.table' |
 * table_function(…) [, user [, password]]) and remoteSecure: target is the SQL after FROM
 * that a shard runs. Strings are new (remote_args_free); user and password may be NULL. */
typedef struct remote_args {
    char *addresses, *target, *user, *password;
    char *cluster, *secret; /* cluster(): its name and inter-server secret (NULL: none) */
    bool secure;
} remote_args;
int analyze_remote_args(const ast *f, query_ctx *q, remote_args *out);
void remote_args_free(remote_args *a);

/* Analyzes one SELECT reading src (taken, freed on error too) instead of its FROM; the
 * FROM's alias still qualifies columns; top: the outermost query (its totals are the
 * result's). */
int analyze_select_over(const ast *sel, source *src, query_ctx *q, bool top, select_plan **out);

/* A SELECT that aggregates over a table function with shards (remote(), remoteSecure),
 * split as ClickHouse splits it (sql/dist_split.h, sql/dist_plan.c): every shard runs the
 * shard query to WithMergeableState and sends the keys and the aggregates' states; the
 * plan merges the states, then applies HAVING, ORDER BY, LIMIT and the projection.
 * Returns 0 with *out; 1 (error cleared) when the query is not split — it does not
 * aggregate, its FROM has no shards, or a part cannot be split or has no serializable
 * state (the caller then runs it over the shards' rows, which is always right); -1 with
 * the error of the shards (connection, unknown table). cluster(), Distributed tables and
 * s3Cluster() (on its initiator: the nodes aggregate the objects they are handed, round by
 * round, storage/tablefunc.h tablefunc_s3cluster_mergeable) are split the same way. */
int analyze_split_distributed(const ast *sel, query_ctx *q, bool top, select_plan **out);

/* A source over the result of a query (SELECT or UNION ALL), analyzed now, run when the
 * source is first read. */
int analyze_subquery_source(const ast *sub, query_ctx *q, source **out);

/* cluster(), clusterAllReplicas() and s3Cluster() (sql/cluster_tf.c). */
bool analyze_is_cluster_function(const char *name);
int analyze_cluster_function(const ast *f, query_ctx *q, source **out);
/* cluster() / clusterAllReplicas() as remote()'s arguments (the cluster's addresses, user
 * and password, the target). */
int analyze_cluster_remote_args(const ast *f, query_ctx *q, remote_args *ra);

/* Compiles an expression whose columns index src's schema directly (JOIN ON keys). */
int analyze_expr_on(const ast *e, const source *src, query_ctx *q, expr **out);
/* A source over a view's SELECT (query_ctx.read_view); takes the reference to view. */
int analyze_view_source(struct table *view, query_ctx *q, source **out);

/* Joins two sources as the AST_JOIN j says (sql/join.c); *out is a new in-memory source
 * whose columns are left's then right's (USING keys once), with qualifiers. where (may be
 * NULL): the WHERE of the SELECT reading the join; a CROSS join (or comma) takes its
 * equalities between the two sides as keys, an INNER join as ClickHouse's
 * cross_to_inner_join_rewrite does (WHERE still filters the result). */
int join_sources(source *left, source *right, const ast *j, const ast *where, query_ctx *q, source **out);

/* Resolves a table expression (AST_TABLE: table function, system table or subquery). */
int analyze_table(const ast *table, query_ctx *q, source **out);

#endif
