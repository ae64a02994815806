/* A client of ClickHouse's native TCP protocol: one connection to a shale or ClickHouse
 * server, used by remote() (storage/tablefunc/remote.c) and `shale client` (cli/client.c).
 * The packets are format/native_proto.h's, the ones the server side uses too.
 *
 * A conversation: nclient_connect (TCP, Hello both ways at min(our, the server's)
 * revision, the addendum) → nclient_query → nclient_receive until EndOfStream or an
 * Exception; for an INSERT whose data the client sends, the server first answers with a
 * Data packet holding the table's header (after TableColumns): send blocks with
 * nclient_send_data, then an empty one, and read on to EndOfStream. nclient_cancel asks
 * the server to stop a query (the server still answers with EndOfStream or an Exception,
 * read them). Compression (LZ4 or ZSTD in ClickHouse's checksummed frames) applies to
 * Data packets both ways when opts.compression is set.
 *
 * Ownership: the packet's header, block and strings belong to the packet until
 * nclient_packet_clear. Thread-safety: one thread per connection (nclient_cancel may be
 * called from another thread while one receives: it only sends one byte). Errors: -1
 * with err_set; an Exception from the server is a packet (type NS_EXCEPTION), not an
 * error; a broken connection or a malformed packet is an error and the connection must
 * be closed. */
#ifndef SHALE_STORAGE_NATIVE_CLIENT_H
#define SHALE_STORAGE_NATIVE_CLIENT_H

#include "format/native_proto.h"

#include <stdbool.h>

typedef struct nclient_opts {
    const char *host;
    int port;
    const char *user;          /* NULL = "default" */
    const char *password;      /* NULL = "" */
    const char *database;      /* NULL = "" (the user's default) */
    const char *client_name;   /* NULL = "shale" */
    int connect_timeout_ms;    /* 0 = ClickHouse's connect_timeout_with_failover_ms, 1000 */
    int receive_timeout_ms;    /* 0 = 300 s */
    int send_timeout_ms;       /* 0 = 300 s */
    const char *compression;   /* NULL or "" none, "lz4", "zstd" */
    /* A cluster's inter-server <secret> (NULL: none): the Hello then names the user
     * NATIVE_INTERSERVER_USER, no password, the cluster and a salt; user and password
     * above are not sent, and every secondary query carries its hash (nclient_query). */
    const char *cluster;
    const char *secret;
} nclient_opts;

typedef struct nclient nclient;

int nclient_connect(const nclient_opts *o, nclient **out);
/* The first of o[0..n) (a shard's replicas) that accepts a connection; a server that
 * answers with an error (a wrong password) stops the tries. None:
 * ALL_CONNECTION_TRIES_FAILED with every attempt's error in the message. */
int nclient_connect_any(const nclient_opts *o, int n, nclient **out);

/* ---- a shard's replicas: ClickHouse's load balancing and failover ----
 * The order replicas are tried in is ClickHouse's (GetPriorityForLoadBalancing and
 * PoolWithFailoverBase): by each strategy's priority, ties broken at random —
 *   random                          all equal: a random order
 *   nearest_hostname                fewest differing characters (position by position,
 *                                   over the shorter length) from this host's name
 *   hostname_levenshtein_distance   smallest Levenshtein distance from this host's name
 *   hostname_longest_common_prefix  longest common prefix with this host's name
 *   hostname_longest_common_suffix  longest common suffix with this host's name
 *   in_order                        as listed
 *   first_or_random                 the replica load_balancing_first_offset first, the others at random
 *   round_robin                     rotating: call k starts at replica (k + 1) mod n (a
 *                                   counter per shard; *rr, NULL = a fresh one, as remote()
 *                                   makes its pools per query)
 * Then every replica is tried in that order, the round repeated up to
 * connections_with_failover_max_tries times, each attempt bounded by
 * connect_timeout_with_failover_ms. ClickHouse also moves replicas with recent errors to
 * the back (errors_count with decay); shale keeps no error history. */
typedef struct nclient_failover {
    int lb;                       /* NLB_* */
    int first_offset;             /* load_balancing_first_offset */
    int max_tries;                /* connections_with_failover_max_tries, >= 1 */
    int connect_timeout_ms;       /* connect_timeout_with_failover_ms */
} nclient_failover;
enum { NLB_RANDOM, NLB_NEAREST_HOSTNAME, NLB_LEVENSHTEIN, NLB_COMMON_PREFIX, NLB_COMMON_SUFFIX, NLB_IN_ORDER,
       NLB_FIRST_OR_RANDOM, NLB_ROUND_ROBIN };
struct settings;
/* The query's load_balancing, load_balancing_first_offset, connections_with_failover_max_tries
 * and connect_timeout_with_failover_ms. */
void nclient_failover_from(const struct settings *st, nclient_failover *f);
/* order[0..n): the indexes of hosts[0..n) in the order they are tried. */
void nclient_replica_order(const nclient_failover *f, const char *const *hosts, int n, _Atomic unsigned *rr,
                           int *order);
/* A connection to one of the replicas o[0..n) as above (o[i].connect_timeout_ms is replaced
 * by f's); errors as nclient_connect_any. */
int nclient_connect_replicas(const nclient_opts *o, int n, const nclient_failover *f, _Atomic unsigned *rr,
                             nclient **out);
void nclient_close(nclient *c);
/* "host:port" as connected. */
const char *nclient_peer(const nclient *c);
const native_server_hello *nclient_server(const nclient *c);
uint64_t nclient_revision(const nclient *c);
/* Ping → Pong (other packets in between are errors). */
int nclient_ping(nclient *c);

/* Sends Query and the empty block that ends the (absent) external tables. query_id NULL:
 * the server makes one. initial_query_id: NULL for an initial query, else the initial
 * query this one is part of. initial_user: the user of the initial query (NULL: the
 * connection's); over a connection with a secret it is the user the shard runs the query
 * as, and the query carries the inter-server hash (only a secondary query can: an
 * initial one is NOT_IMPLEMENTED there). */
int nclient_query(nclient *c, const char *query_id, const char *initial_query_id, const char *text, const native_kv *settings, int nsettings,
                  const native_kv *params, int nparams, int stage, const char *initial_user);

typedef struct nclient_packet {
    int type;                  /* NS_* */
    schema *header;            /* Data, Totals, Extremes, Log, ProfileEvents */
    block *b;
    native_progress progress;
    native_profile_info profile;
    int code;                  /* Exception */
    char *message;             /* Exception: the server's text ("DB::Exception: …") */
    char *text;                /* TableColumns: the description; TimezoneUpdate: the zone */
    uint64_t rows;             /* Data with nclient_pass_native: the rows written */
} nclient_packet;

/* The next packet from the server. Packets a client never expects (ReadTaskRequest,
 * PartUUIDs, parallel-replica requests) are UNEXPECTED_PACKET_FROM_SERVER errors, unknown
 * numbers UNKNOWN_PACKET_FROM_SERVER. */
int nclient_receive(nclient *c, nclient_packet *p);
void nclient_packet_clear(nclient_packet *p);
/* out not NULL: from now on the blocks of Data packets (not Totals or Extremes) are
 * written to out as FORMAT Native as they arrive (native_pass_data), and the packets
 * carry only their row count — for a client whose output is FORMAT Native, which then
 * decodes only what it must. NULL: Data packets carry their blocks again. */
void nclient_pass_native(nclient *c, outstream *out);

/* A Data packet of the INSERT's data (b NULL: the empty block that ends it). */
int nclient_send_data(nclient *c, const schema *header, const block *b);
int nclient_cancel(nclient *c);

/* s3Cluster's initiator: nclient_receive returns the server's ReadTaskRequest packets
 * (NS_READ_TASK_REQUEST, else an error), each answered with nclient_send_read_task_response:
 * ReadTaskResponse = the cluster-processing protocol version, then the object's path ("" =
 * no more objects), as ClickHouse's initiator writes it for a worker of version 1. */
void nclient_serve_read_tasks(nclient *c);
int nclient_send_read_task_response(nclient *c, const char *path);

/* An error (code, "Received from host:port. message") for an Exception packet: what
 * remote() raises, as ClickHouse's initiator does. Returns -1. */
int nclient_raise(const nclient *c, const nclient_packet *p);

#endif
