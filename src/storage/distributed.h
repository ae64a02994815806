/* ENGINE = Distributed(cluster, database, table [, sharding_key [, policy]]): a table whose
 * data lives in `database.table` on the shards of a cluster of the server's configuration
 * (storage/cluster.h). It holds no data itself.
 *
 *   SELECT  every shard is read once (one replica, remote()'s failover), a shard that has
 *           this server as a replica in the server itself (prefer_localhost_replica = 1,
 *           the default); a query that aggregates is split by the analyzer
 *           (sql/dist_plan.c: the shards run to WithMergeableState, the initiator merges)
 *           through distributed_layout; others read the shards' rows (the engine's
 *           read()) and the initiator runs the whole query over them.
 *   INSERT  synchronous with distributed_foreground_insert = 1; with 0 the remote
 *           destinations' rows go to the background queue (storage/dist_queue.h) and the
 *           INSERT returns once they are on disk. Each row goes to the shard its
 *           sharding key selects, ClickHouse's rule: slot = key (as unsigned of its width)
 *           modulo the sum of the shards' weights, the slots laid out shard by shard, a
 *           shard of weight w taking w of them. A shard is written on one replica when
 *           internal_replication is true, else on each of its replicas. The local shard
 *           is written directly when its table has the Distributed table's columns,
 *           else through this server's own native port. No sharding key and more than
 *           one shard: STORAGE_REQUIRES_PARAMETER, as ClickHouse.
 *
 * Thread-safety: the table's state is immutable after open(); the cluster set is read at
 * every query (a config reload takes effect at the next one). Errors: -1 with err_set:
 * CLUSTER_DOESNT_EXIST, TYPE_MISMATCH (sharding key), UNKNOWN_POLICY, the shards' errors
 * (ALL_CONNECTION_TRIES_FAILED naming the replicas tried). */
#ifndef SHALE_STORAGE_DISTRIBUTED_H
#define SHALE_STORAGE_DISTRIBUTED_H

#include "exec/source.h"
#include "storage/table.h"

extern const table_engine engine_distributed;

static inline bool table_is_distributed(const table *t) { return t && t->engine == &engine_distributed; }

/* Where a query over the table goes, from the current cluster set. Strings are new
 * (dist_layout_free). */
typedef struct dist_layout {
    char *database, *table;     /* the shards' table */
    char *target;               /* the same as SQL: `db`.`table` */
    char *remote_addresses;     /* the shards read remotely in remote()'s syntax (replicas
                                 * of a shard joined by '|'), NULL when every shard is local */
    char *user, *password;      /* the cluster's (one user and password for all replicas) */
    char *cluster;              /* the cluster's name, macros expanded */
    char *secret;               /* its inter-server <secret> (NULL: none): every connection
                                 * authenticates with it, the shards run the query as the
                                 * initiator's user (user and password are not sent) */
    int nlocal;                 /* shards read from this server's own table */
} dist_layout;

int distributed_layout(const table *t, query_ctx *q, dist_layout *out);
void dist_layout_free(dist_layout *l);

/* This server's own copy of the shards' table for a local shard (a reference), checked not
 * to be a Distributed table (which would read itself). */
int distributed_local_table(const dist_layout *l, query_ctx *q, table **out);

/* A source whose tasks are the tasks of parts[0..n) in turn, with the columns of sch:
 * by_name maps each of sch's columns to the part's column of that name (a query reading
 * a column a part lacks fails with NO_SUCH_COLUMN_IN_TABLE, a different type with
 * TYPE_MISMATCH), else by position. Filters go to every part. Takes sch and the parts. */
source *source_concat(schema *sch, source **parts, int n, bool by_name);

/* SYSTEM FLUSH DISTRIBUTED t: sends the table's queued files now (the first failure is
 * the error). */
int distributed_flush(table *t);
/* SYSTEM STOP / START DISTRIBUTED SENDS [t]: t NULL for every Distributed table. */
void distributed_set_sends_blocked(table *t, bool blocked);

#endif
