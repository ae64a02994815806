/* INSERT INTO <Distributed> SELECT … FROM s3Cluster(…) with parallel_distributed_insert_select
 * (ClickHouse's distributedWriteFromClusterStorage): instead of the initiator reading every
 * row and routing it, every node of the s3Cluster's cluster runs the INSERT itself over the
 * objects the initiator hands it (the s3Cluster task protocol):
 *   1  each node runs INSERT INTO <the Distributed table> SELECT … (it routes its rows by
 *      the sharding key, so the table must exist on every node);
 *   2  each node runs INSERT INTO <the shards' table> SELECT … (its rows stay on it).
 * 0, or a SELECT that is not a single SELECT from s3Cluster(), is the ordinary INSERT.
 * Thread-safety: none needed (one statement). Errors: -1 with err_set — the nodes' errors
 * name the node; a value above 2 is BAD_ARGUMENTS. */
#ifndef SHALE_INTERP_DIST_INSERT_H
#define SHALE_INTERP_DIST_INSERT_H

#include "parse/ast.h"
#include "storage/table.h"

/* 0 when the nodes ran the INSERT, 1 when it is not such an INSERT (nothing done), -1 on
 * error. st is the INSERT statement, t its (Distributed) table. */
int dist_insert_parallel(table *t, const ast *st, query_ctx *q);

#endif
