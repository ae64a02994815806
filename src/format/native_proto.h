/* ClickHouse's native TCP protocol: packet numbers, revisions, and the encoding and
 * decoding of every packet shale reads or writes, as a server (server/native_handler.c runs
 * that conversation) and as a client (storage/native_client.c): one implementation of each
 * layout, so that both sides agree by construction. Layouts as ClickHouse 26.7 reads and writes them (src/Server/TCPHandler,
 * src/Client/Connection, src/Core/ProtocolDefines.h), restricted to what a peer at the
 * negotiated revision — min(client, NATIVE_SERVER_REVISION) — expects:
 *
 *   client Hello    VarUInt 0, String client name, VarUInt major, minor, revision, String
 *                   database, user, password; then (revision ≥ 54458) the addendum:
 *                   String quota key.
 *   server Hello    VarUInt 0, String name, VarUInt major, minor, revision, String time zone
 *                   (≥ 54058), String display name (≥ 54372), VarUInt patch (≥ 54401),
 *                   VarUInt 0 password rules (≥ 54461), UInt64 nonce (≥ 54462).
 *   client Query    String query id; client info (≥ 54032: query kind, initial user/query
 *                   id/address, start time ≥ 54449, interface, TCP fields or HTTP fields,
 *                   quota key ≥ 54060, distributed depth ≥ 54448, patch ≥ 54401, OpenTelemetry
 *                   ≥ 54442, parallel replicas ≥ 54453); settings as strings with flags (name,
 *                   VarUInt flags, value; "" ends them); String inter-server hash (≥ 54441);
 *                   VarUInt stage, VarUInt compression, String query; parameters (≥ 54459,
 *                   like settings).
 *   client Data     VarUInt 2, String table name, a block (native_block.h), compressed in
 *                   ClickHouse's frames when the query said so.
 *   server Data / Totals / Extremes  the same with packet 1 / 7 / 8.
 *   Exception       Int32 code, String name, String message, String stack trace, UInt8 nested.
 *   Progress        VarUInt read rows, read bytes, total rows, total bytes (≥ 54463), written
 *                   rows and bytes (≥ 54420), elapsed ns (≥ 54460).
 *   ProfileInfo     VarUInt rows, blocks, bytes, UInt8 applied limit, VarUInt rows before
 *                   limit, UInt8 calculated, and (≥ 54469) UInt8 applied aggregation, VarUInt
 *                   rows before aggregation.
 *   TablesStatusRequest/Response  VarUInt n, (String db, String table)…; the response adds
 *                   UInt8 is_replicated (0 for every shale table) per table.
 *
 * Reading trusts nothing: strings and counts are bounded, a short read is
 * CANNOT_READ_ALL_DATA, a bad value INCORRECT_DATA/UNKNOWN_PACKET_FROM_CLIENT.
 * Ownership: decoded packets own their strings (free with the matching *_free).
 * Thread-safety: none needed (one connection, one thread). Errors: -1 with err_set. */
#ifndef SHALE_FORMAT_NATIVE_PROTO_H
#define SHALE_FORMAT_NATIVE_PROTO_H

#include "base/buf.h"
#include "column/block.h"
#include "io/stream.h"

#include <stdbool.h>
#include <stdint.h>

/* The revision shale speaks: ClickHouse 24.x's, before chunked packets (54470). A newer
 * client talks to shale at this revision; an older one at its own. */
#define NATIVE_SERVER_REVISION 54469
/* The *Cluster functions' ReadTaskResponse: version 1 is the object's path alone (2 adds
 * data-lake metadata shale does not read or send). */
#define NATIVE_CLUSTER_PROTOCOL_VERSION 1
/* Settings as strings (54429) are the oldest layout shale reads. */
#define NATIVE_MIN_CLIENT_REVISION 54429

enum {
    NC_HELLO = 0,
    NC_QUERY = 1,
    NC_DATA = 2,
    NC_CANCEL = 3,
    NC_PING = 4,
    NC_TABLES_STATUS_REQUEST = 5,
    NC_KEEP_ALIVE = 6,
    NC_SCALAR = 7,
    NC_IGNORED_PART_UUIDS = 8,
    NC_READ_TASK_RESPONSE = 9,
};

enum {
    NS_HELLO = 0,
    NS_DATA = 1,
    NS_EXCEPTION = 2,
    NS_PROGRESS = 3,
    NS_PONG = 4,
    NS_END_OF_STREAM = 5,
    NS_PROFILE_INFO = 6,
    NS_TOTALS = 7,
    NS_EXTREMES = 8,
    NS_TABLES_STATUS_RESPONSE = 9,
    NS_LOG = 10,
    NS_TABLE_COLUMNS = 11,
    NS_PART_UUIDS = 12,
    NS_READ_TASK_REQUEST = 13,
    NS_PROFILE_EVENTS = 14,
    NS_TIMEZONE_UPDATE = 17,
};

/* QueryProcessingStage */
enum { NATIVE_STAGE_FETCH_COLUMNS = 0, NATIVE_STAGE_WITH_MERGEABLE_STATE = 1, NATIVE_STAGE_COMPLETE = 2 };

/* The user name of ClickHouse's inter-server Hello (EncodedUserInfo::USER_INTERSERVER_MARKER):
 * with an empty password it announces a connection from another server of a cluster with a
 * <secret>; the cluster's name and a salt follow the password, and every query carries
 * the hash of native_interserver_hash. */
#define NATIVE_INTERSERVER_USER " INTERSERVER SECRET "

typedef struct native_hello {
    char *client_name;
    uint64_t major, minor, revision;
    char *database;
    char *user;
    char *password;
    bool interserver;          /* user NATIVE_INTERSERVER_USER, password "" */
    char *cluster;             /* interserver: the cluster's name */
    size_t salt_len;           /* interserver: the salt (at most 32 bytes, binary) */
    unsigned char salt[32];
} native_hello;

typedef struct native_kv {
    char *name;
    char *value;
    uint64_t flags;            /* 1 = important: an unknown name is an error */
} native_kv;

typedef struct native_query {
    char *query_id;
    uint8_t query_kind;        /* 0 none, 1 initial, 2 secondary */
    char *initial_user;
    char *initial_query_id;
    char *client_name;
    int nsettings;
    native_kv *settings;
    int nparams;
    native_kv *params;         /* values as sent (a quoted literal from ClickHouse's client) */
    uint64_t stage;
    uint64_t compression;      /* 0 or 1 */
    char *text;
    size_t hash_len;           /* the inter-server hash (0 or 32 bytes, binary) */
    unsigned char hash[32];
} native_query;

/* Readers of the parts of client packets after the packet number. */
int native_read_varuint(rbuf *in, uint64_t *v);
/* On failure h / q hold what was read so far: free them all the same. */
int native_read_hello(rbuf *in, native_hello *h);
void native_hello_free(native_hello *h);
int native_read_addendum(rbuf *in, uint64_t revision);
int native_read_query(rbuf *in, uint64_t revision, native_query *q);
void native_query_free(native_query *q);
/* TablesStatusRequest: the tables as "db" "table" pairs in *names (2 × *n strings; nothing
 * to free on failure). */
int native_read_tables_status(rbuf *in, char ***names, int *n);
/* A Data packet's rest: the table name (dropped) and the block, decompressing ClickHouse's
 * frames when compressed. A block of no columns and no rows ends a stream of blocks. */
int native_read_data(rbuf *in, uint64_t revision, bool compressed, schema **header, block **b);
/* The same packet's block written to out as FORMAT Native (native_block_pass: nothing
 * for a block of no rows; on error part of the block may have been written). */
int native_pass_data(rbuf *in, uint64_t revision, bool compressed, outstream *out, uint64_t *rows);

/* Writers of server packets, appended to out. */
/* The server's Hello; *nonce (NULL: not wanted) gets the nonce of inter-server secret v2
 * when the revision has one (true returned), which the query hashes must include. */
bool native_write_hello(buf *out, uint64_t revision, const char *timezone, const char *display_name, uint64_t *nonce);
void native_write_exception(buf *out, int code, const char *message);
typedef struct native_progress {
    uint64_t read_rows, read_bytes, total_rows, total_bytes, written_rows, written_bytes, elapsed_ns;
} native_progress;
void native_write_progress(buf *out, uint64_t revision, const native_progress *p);
void native_write_profile_info(buf *out, uint64_t revision, uint64_t rows, uint64_t blocks, uint64_t bytes,
                               bool applied_limit, uint64_t rows_before_limit);
/* Data, Totals or Extremes (packet): the block (NULL = the header's columns, no rows),
 * compressed with codec (an mt_codec, NULL = uncompressed) in frames of at most 1 MiB.
 * scratch holds the uncompressed bytes (the caller's, reused from block to block). */
struct mt_codec;
void native_write_block(buf *out, buf *scratch, int packet, uint64_t revision, const struct mt_codec *codec,
                        const schema *header, const block *b);
/* The same packet handed to send in pieces of about a frame (the packet's bytes in
 * order), so that a large block is never whole in memory: out and scratch are the
 * caller's buffers, reused. send must not keep the pointer, but may take the bytes by
 * swapping another buffer's memory in (a sending thread: no copy); what the buffer then
 * holds is dropped. -1: send's error. */
typedef int (*native_send_fn)(void *ctx, buf *bytes);
int native_send_block(buf *out, buf *scratch, int packet, uint64_t rev, const struct mt_codec *codec,
                      const schema *header, const block *b, native_send_fn send, void *ctx);
/* The compressed packet for a caller that compresses elsewhere (a sending thread): the
 * packet's head goes to send as it is, then each frame's uncompressed bytes (cut where
 * native_send_block cuts them) to send_frame, which sends them compressed as one frame
 * (mt_compress_block with the connection's codec). */
int native_send_block_frames(buf *out, buf *scratch, int packet, uint64_t rev, const schema *header,
                             const block *b, native_send_fn send, native_send_fn send_frame, void *ctx);
void native_write_tables_status(buf *out, char **names, const bool *exists, int n);
/* TableColumns: the table's columns (kinds[i] "DEFAULT"/"MATERIALIZED"/"ALIAS"/… and
 * exprs[i] the expression's SQL, both NULL when the column has no default). */
void native_write_table_columns(buf *out, int n, const char *const *names, const char *const *types,
                                const char *const *kinds, const char *const *exprs);

/* ---- the client's side ---- */

/* Primitive writers (for the one-byte packets Ping and Cancel and for tests). */
void native_put_varuint(buf *b, uint64_t v);
void native_put_string(buf *b, const char *s);

/* Client Hello (packet 0) announcing NATIVE_SERVER_REVISION; the addendum after the
 * server's Hello (a quota key, when the negotiated revision has it). */
void native_write_client_hello(buf *out, const char *client_name, const char *database, const char *user,
                               const char *password);
void native_write_addendum(buf *out, uint64_t revision);
/* After an inter-server Hello (user NATIVE_INTERSERVER_USER, password ""): the cluster's
 * name and the salt. */
void native_write_cluster_and_salt(buf *out, const char *cluster, const unsigned char *salt, size_t salt_len);

/* The inter-server hash of a secondary query, as ClickHouse's initiator computes it and its
 * shard checks it: SHA-256 (32 raw bytes) of salt, the server's nonce in decimal (when the
 * Hello had one), the cluster's secret, the query's text, its query id and the initial
 * user. -1 with CANNOT_DLOPEN when libcrypto cannot be loaded. */
int native_interserver_hash(const unsigned char *salt, size_t salt_len, bool has_nonce, uint64_t nonce,
                            const char *secret, const char *query, const char *query_id, const char *initial_user,
                            unsigned char out[32]);

/* The server's Hello after its packet number. */
typedef struct native_server_hello {
    char *name;
    uint64_t major, minor, revision, patch;
    char *timezone;
    char *display_name;
    bool has_nonce;            /* the revision's Hello has the inter-server nonce */
    uint64_t nonce;
} native_server_hello;
int native_read_server_hello(rbuf *in, uint64_t our_revision, native_server_hello *h);
void native_server_hello_free(native_server_hello *h);

/* Query (packet 1) over TCP: client info naming client_name and user (the initial user),
 * the settings and parameters as strings (flags 0), the stage and the compression flag.
 * initial_query_id NULL: an initial query; else a secondary one (a shard's part of
 * remote()) of that initial query. secret_hash: the inter-server hash (NULL = none). */
void native_write_query(buf *out, uint64_t revision, const char *query_id, const char *initial_query_id,
                        const char *client_name, const char *user, const native_kv *settings, int nsettings,
                        const unsigned char *secret_hash, uint64_t stage, bool compression, const char *text,
                        const native_kv *params, int nparams);

/* An Exception packet's rest (the nested ones joined as ClickHouse prints them: the
 * outer message, then ": " and each nested one). *message is new (free it). */
int native_read_exception(rbuf *in, int *code, char **message);
int native_read_progress(rbuf *in, uint64_t revision, native_progress *p);
typedef struct native_profile_info {
    uint64_t rows, blocks, bytes, rows_before_limit, rows_before_aggregation;
    bool applied_limit, calculated_rows_before_limit, applied_aggregation;
} native_profile_info;
int native_read_profile_info(rbuf *in, uint64_t revision, native_profile_info *p);
/* TableColumns: the external table's name (dropped) and the columns text (*text new). */
int native_read_table_columns(rbuf *in, char **text);
/* TimezoneUpdate: the new time zone (*tz new). */
int native_read_string(rbuf *in, const char *what, char **out);

#endif
