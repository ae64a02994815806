/* The background INSERT queue of a Distributed table (distributed_foreground_insert = 0,
 * ClickHouse's default): an INSERT writes each remote destination's rows into one file of
 * a directory under the table's data directory — ClickHouse's compact names,
 * shard<N>_replica<M>/ (internal_replication false: one per replica) or
 * shard<N>_all_replicas/ (true: one replica takes it, with failover) — and is acknowledged
 * once the file is on disk: written to tmp/<n>.bin, fsync'ed, renamed to <n>.bin, the
 * directory fsync'ed. A sender thread per table sends the files of every directory in
 * number order (an INSERT over the native protocol, as the synchronous INSERT's shard
 * sink, with the cluster's user, password or inter-server secret) and removes each once
 * the shard has answered EndOfStream; a failure leaves the file and retries after
 * distributed_background_insert_sleep_time_ms, doubling up to
 * distributed_background_insert_max_sleep_time_ms (from the last INSERT's settings). A
 * file that cannot be read is moved to broken/. A server restart finds the files and
 * sends them.
 *
 * Exactly once: every file carries a block id, sent as insert_deduplication_token; a file
 * sent again after its shard committed it (the sender died between the shard's answer and
 * the unlink) is skipped by a shard MergeTree that keeps a deduplication window
 * (non_replicated_deduplication_window > 0, as ClickHouse's Replicated tables do by
 * default).
 *
 * File format (shale's, not ClickHouse's .bin: a ClickHouse server cannot read a shale
 * queue nor the reverse): String magic "shale-distributed-queue-1", String the shards'
 * table as SQL, String the column list as SQL, String the initial user, String the block id, VarUInt n and n × (String name,
 * String value) of the INSERT's changed settings, then blocks in FORMAT Native until the
 * end of the file (uncompressed).
 *
 * Thread-safety: every function may be called from any thread; one mutex per queue guards
 * its state and another serialises sending (the sender and SYSTEM FLUSH DISTRIBUTED).
 * Errors: -1 with err_set (CANNOT_OPEN_FILE, CANNOT_WRITE_TO_FILE_DESCRIPTOR,
 * CANNOT_FSYNC, the shards' errors). */
#ifndef SHALE_STORAGE_DIST_QUEUE_H
#define SHALE_STORAGE_DIST_QUEUE_H

#include "exec/source.h"
#include "storage/tablefunc.h"

typedef struct dist_queue dist_queue;

/* The queue of the table db.name whose data directory is dir (ends with '/'): cluster is
 * the cluster's name as written (macros expanded at each send), target the shards' table
 * as SQL, columns the INSERT's column list as SQL. Removes tmp/ leftovers (never
 * acknowledged) and starts the sender when files are queued. */
dist_queue *dist_queue_open(const char *dir, const char *db, const char *name, const char *cluster,
                            const char *target, const char *columns);
/* Stops the sender (after the file in flight) and frees; the files stay. */
void dist_queue_close(dist_queue *dq);
/* A sink writing one file into the directory dir_name (shard<N>_…); its finish() makes
 * the file durable and wakes the sender. The sleep settings of q become the sender's. */
int dist_queue_sink(dist_queue *dq, const char *dir_name, const schema *sch, query_ctx *q, table_sink **out);
/* SYSTEM FLUSH DISTRIBUTED: sends every queued file now (even with sends stopped); the
 * first failure is the error (files not sent stay queued). */
int dist_queue_flush(dist_queue *dq);
/* SYSTEM STOP / START DISTRIBUTED SENDS [table]: dq NULL for every queue. */
void dist_queue_set_blocked(dist_queue *dq, bool blocked);
/* system.distribution_queue: one row per directory of every open queue. */
int dist_queue_system_table(query_ctx *q, source **out);

#endif
