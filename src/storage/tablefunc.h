/* Table functions and system tables: constructors of sources (exec/source.h).
 * args are constant one-row columns evaluated by the analyzer. */
#ifndef SHALE_STORAGE_TABLEFUNC_H
#define SHALE_STORAGE_TABLEFUNC_H

#include "exec/select.h"
#include "exec/source.h"
#include "parse/ast.h"

int tablefunc_numbers(column *const *args, int nargs, bool is_system_numbers, query_ctx *q, source **out);
int tablefunc_file(column *const *args, int nargs, query_ctx *q, source **out);
/* file()'s reader over a path already resolved (query_file_path) or owned by an engine
 * (ENGINE = File): format NULL = from the name; structure NULL = inferred (copied
 * otherwise); compression NULL = "auto" (from the extension). */
int file_source_open(const char *pattern, const char *format, const schema *structure, const char *compression,
                     query_ctx *q, source **out);
/* s3(url [, NOSIGN | key, secret [, token]] [, format] [, structure] [, compression]). */
int tablefunc_s3(column *const *args, int nargs, query_ctx *q, source **out);
/* The roles of s3()'s positional arguments v[0..n) as ClickHouse's TableFunctionS3 reads
 * them: a[0..6] = url, key, secret, token, format, structure, compression (views of v,
 * NULL when absent); *nosign for NOSIGN. */
int tablefunc_s3_split_args(char **v, int n, const char **a, bool *nosign);
/* s3Cluster(cluster, url [, …s3()'s arguments]) (storage/tablefunc/s3cluster.c): args are
 * s3()'s. On the initiator the glob is listed once and each shard's replica reads the
 * objects it asks for; in a worker's query (q->read_task set) the objects come from the
 * initiator. */
int tablefunc_s3cluster(const char *cluster, column *const *args, int nargs, query_ctx *q, source **out);
/* INSERT INTO <Distributed> SELECT … FROM s3Cluster(…) with parallel_distributed_insert_select
 * (interp/ddl.c), over a source tablefunc_s3cluster made on the initiator:
 * call_args gives the s3Cluster call as every node must run it — the cluster's name, then
 * s3()'s arguments with the format, structure and compression the initiator found (*out
 * and its strings new) — for the caller to build the statement; run sends `sql` to one
 * replica of every shard as a secondary query, hands out the objects as a SELECT's, and
 * returns when every node has finished (the first node's error fails it). */
int tablefunc_s3cluster_call_args(source *s, char ***out, int *n);
int tablefunc_s3cluster_run(source *s, const char *sql, query_ctx *q);
/* A query that aggregates over s3Cluster (sql/dist_plan.c): s, made by tablefunc_s3cluster
 * on the initiator and not read yet, becomes the source of the nodes' keys and aggregate
 * states. Each node runs shard_sql (the keys-and-aggregates query over the s3Cluster call
 * of tablefunc_s3cluster_call_args, sql/dist_split.h) to WithMergeableState, once per
 * round, asking for objects as a SELECT's worker does; a round's states are committed at
 * its EndOfStream and dropped with it when the node is lost. The source's columns become
 * header's (names the initiator's plan reads, the types of the states: each block is
 * checked by position, TYPE_MISMATCH otherwise). */
int tablefunc_s3cluster_mergeable(source *s, const char *shard_sql, const schema *header);
/* url(url [, format [, structure [, compression]]]): http(s) URLs (storage/tablefunc/url.c). */
int tablefunc_url(column *const *args, int nargs, query_ctx *q, source **out);
/* Data on stdin: the table `table` and input([structure]); structure NULL = --structure
 * or inference. */
int tablefunc_stdin(const char *structure, query_ctx *q, source **out);
/* values(['structure',] row, …): constant rows (storage/tablefunc/values.c). */
int tablefunc_values(column *const *args, int nargs, query_ctx *q, source **out);
/* merge([db,] 'regexp'): the tables of db (default: the current database) whose names
 * match, as one source with the union of their columns (storage/merge.h). */
int tablefunc_merge(column *const *args, int nargs, query_ctx *q, source **out);
/* format(format, [structure,] data): the data argument parsed as a table. */
int tablefunc_format(column *const *args, int nargs, query_ctx *q, source **out);

/* remote(addresses, target [, user [, password]]) (storage/tablefunc/remote.c): target is
 * the SQL after FROM that each shard runs (`db`.`table`, a table function call);
 * remoteSecure (secure) is NOT_IMPLEMENTED. */
int tablefunc_remote(const char *addresses, const char *target, const char *user, const char *password, bool secure,
                     query_ctx *q, source **out);

/* cluster(): remote() over a cluster's addresses (storage/cluster.h, cluster_addresses):
 * with round_robin (cluster(): its addresses are the cluster's shards in order),
 * load_balancing = 'round_robin' rotates per shard of the named cluster across queries (a
 * remote() starts afresh each query, as ClickHouse's); secret: the cluster's inter-server
 * <secret> (NULL: none), with which user and password are not sent and every shard runs
 * the query as the initiator's user (cluster names the cluster to the shards). */
int tablefunc_remote_cluster(const char *addresses, const char *target, const char *user, const char *password,
                             const char *cluster, const char *secret, bool round_robin, query_ctx *q, source **out);

/* remote() at WithMergeableState (sql/dist_plan.c): every shard runs shard_sql (keys and
 * aggregates, sql/dist_split.h) to the mergeable stage; the source's columns are header's
 * (the names the initiator's plan reads, the types it expects: each block is checked by
 * position against them, TYPE_MISMATCH when a shard sends another type). The schema
 * is header's copy; no discovery round trip. Failover, skip_unavailable_shards and the
 * query's settings as tablefunc_remote; cluster, secret and round_robin as
 * tablefunc_remote_cluster's (NULL, NULL, false for remote()). */
int tablefunc_remote_mergeable(const char *addresses, const char *user, const char *password, const char *cluster,
                               const char *secret, bool round_robin, const char *shard_sql, const schema *header,
                               query_ctx *q, source **out);

struct table_sink;
/* INSERT INTO FUNCTION remote(addresses, target …) [(columns)]: one shard; columns is the
 * INSERT's column list as SQL ("(`a`, `b`)") or NULL; sch the SELECT's columns, sent by
 * position and cast to the shard's types; cluster and secret: a cluster's inter-server
 * secret as tablefunc_remote_cluster's (NULL: user and password). */
int tablefunc_remote_sink(const char *addresses, const char *target, const char *user, const char *password,
                          bool secure, const char *cluster, const char *secret, const char *columns,
                          const schema *sch, query_ctx *q, struct table_sink **out);

/* A destination of INSERT: blocks go to write(); finish() commits (and frees), abort()
 * discards what it can (and frees). */
typedef struct table_sink {
    block_sink base;
    int (*finish)(struct table_sink *s);
    void (*abort)(struct table_sink *s);
} table_sink;

/* INSERT INTO FUNCTION file(...): sch names the columns written. */
int tablefunc_file_sink(column *const *args, int nargs, const schema *sch, query_ctx *q, table_sink **out);
/* The same over a resolved path: format NULL = from the name, compression NULL = "auto".
 * A file with data is appended to when the format allows it (without the header of
 * *WithNames formats), truncated with engine_file_truncate_on_insert, written as the next
 * free data.N.<ext> with engine_file_allow_create_multiple_files, else
 * CANNOT_APPEND_TO_FILE. */
int file_sink_open(const char *path, const char *format, const char *compression, const schema *sch, query_ctx *q,
                   table_sink **out);
/* INSERT INTO FUNCTION s3(url [, NOSIGN | key, secret [, token]] [, format [, structure
 * [, compression]]]): one object, PUT or multipart (io/s3.h); abort() aborts the upload. */
int tablefunc_s3_sink(column *const *args, int nargs, const schema *sch, query_ctx *q, table_sink **out);

typedef int (*tablefunc_sink_fn)(column *const *args, int nargs, const schema *sch, query_ctx *q, table_sink **out);
/* INSERT INTO FUNCTION f(…) PARTITION BY key: a sink that opens one open(…) sink per value
 * of key, with {_partition_id} in args[0] (the path or URL) replaced by the value as text;
 * BAD_ARGUMENTS when args[0] has no {_partition_id}. fname names f in errors. */
int tablefunc_partitioned_sink(tablefunc_sink_fn open, const char *fname, column *const *args, int nargs,
                               const schema *sch, const ast *key, query_ctx *q, table_sink **out);

/* system.<name>; ERR_UNKNOWN_TABLE for an unknown name. */
int system_table(const char *name, query_ctx *q, source **out);
/* A system log kept as a TSV file (path NULL or missing: empty) with this structure. */
int system_log_source(const char *structure, const char *path, query_ctx *q, source **out);
/* system.query_log, read from the data directory. */
int query_log_source(query_ctx *q, source **out);

#endif
