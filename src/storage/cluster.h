/* The clusters of the server's configuration (<remote_servers>): a process-wide set,
 * installed by the front end (server/cluster_config.c reads config.xml) and read by
 * cluster(), clusterAllReplicas(), s3Cluster() and system.clusters.
 *
 * A cluster is shards; a shard is a weight, internal_replication and its replicas; a
 * replica is host, port and the user/password the initiator connects with. With a
 * <secret> (ClickHouse's inter-server authentication) the initiator sends neither: it
 * proves it knows the secret and the shard runs the query as the initiator's user
 * (storage/native_client.h, server/native_handler.c).
 *
 * Ownership: cluster_set_get returns a counted reference (cluster_set_put releases it), so
 * a config reload (cluster_set_install) never frees a set a query is using. Thread-safety:
 * a set is immutable once installed; install/get/put are thread-safe. Errors: -1 with
 * err_set (CLUSTER_DOESNT_EXIST, NOT_IMPLEMENTED). */
#ifndef SHALE_STORAGE_CLUSTER_H
#define SHALE_STORAGE_CLUSTER_H

#include "exec/query.h"
#include "exec/source.h"

#include <stdatomic.h>
#include <stdbool.h>

typedef struct cluster_replica {
    char *host;
    int port;
    char *user;                 /* "default" when the config names none */
    char *password;             /* "" when none */
    char *default_database;     /* "" when none */
    bool secure;
} cluster_replica;

typedef struct cluster_shard {
    int weight;
    bool internal_replication;
    int nreplicas;
    cluster_replica *replicas;
} cluster_shard;

typedef struct cluster_def {
    char *name;
    char *secret;               /* NULL when none */
    int nshards;
    cluster_shard *shards;
} cluster_def;

typedef struct cluster_set {
    _Atomic int refs;
    int tcp_port;               /* this server's (is_local compares with it) */
    int n;
    cluster_def *clusters;
    int nmacros;
    char **macro_names, **macro_values;
} cluster_set;

cluster_set *cluster_set_new(int tcp_port);
/* Replaces the process's set (taking s; NULL = none). */
void cluster_set_install(cluster_set *s);
/* The current set (never NULL: an empty one when none was installed); release with
 * cluster_set_put. */
cluster_set *cluster_set_get(void);
void cluster_set_put(cluster_set *s);

/* The cluster called name, or NULL with CLUSTER_DOESNT_EXIST set. */
const cluster_def *cluster_find(const cluster_set *s, const char *name);
/* The macro's value ({shard}, {replica}, … from <macros>), or NULL. */
const char *cluster_macro(const cluster_set *s, const char *name);
/* Expands {name} macros in text (a new string), NO_ELEMENTS_IN_CONFIG for an unknown one. */
int cluster_expand_macros(const cluster_set *s, const char *text, char **out);

/* The cluster as remote()'s addresses: shards separated by ',', replicas by '|'
 * (all_replicas: every replica is a shard of its own, clusterAllReplicas); *user and
 * *password are the replicas' (borrowed from c; unused with the cluster's secret).
 * NOT_IMPLEMENTED when the replicas use different users or passwords (without a secret)
 * or TLS (secure). */
int cluster_addresses(const cluster_def *c, bool all_replicas, char **addresses, const char **user,
                      const char **password);

/* Whether the replica is this server (its port is the set's tcp_port and its host one of
 * this machine's addresses), as system.clusters' is_local says. */
bool cluster_replica_is_local(const cluster_set *s, const cluster_replica *r);

/* system.clusters. */
int cluster_system_table(query_ctx *q, source **out);

#endif
