/* The server's shared state, between the listener (server.c), the HTTP handler
 * (http_handler.c) and the session registry (sessions.c). Not a public API.
 *
 * Locking: `mu` guards sessions, the watch list and the connection count; `auth_mu`
 * guards the auth pointer (a reload swaps it; requests hold a reference). Counters are
 * atomics. */
#ifndef SHALE_SERVER_SERVER_INT_H
#define SHALE_SERVER_SERVER_INT_H

#include "interp/session.h"
#include "server/config.h"
#include "server/http_conn.h"
#include "server/users.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

/* Users and profiles as last loaded; replaced as a whole by a reload. */
typedef struct server_auth {
    config *cfg;
    user_set *users;
    _Atomic int refs;
} server_auth;

/* A named HTTP session (session_id=…): its interp session outlives requests. */
typedef struct http_session {
    char id[128];
    char user[64];
    session *sess;
    double last_used;          /* monotonic seconds */
    int timeout_s;
    bool busy;                 /* a request is using it: another gets SESSION_IS_LOCKED */
    struct http_session *next;
} http_session;

/* A query whose client the watchdog watches for a disconnect. */
typedef struct watched {
    int fd;
    query_ctx *q;
    struct watched *next;
} watched;

typedef struct http_pool http_pool;

typedef struct server {
    instance *inst;
    char *config_path;
    int noverrides;
    char **overrides;          /* "name=value" from after `--` */
    server_auth *auth;
    pthread_mutex_t auth_mu;
    char display_name[256];
    char timezone[64];
    int64_t max_concurrent_queries;  /* 0 = unlimited */
    _Atomic int running_queries;
    int keep_alive_timeout_s;
    int receive_timeout_s;
    int send_timeout_s;
    int64_t max_connections;
    int shutdown_wait_s;
    volatile int stop;
    _Atomic int reload_requested;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    http_session *sessions;
    watched *watch;
    int nconns;
    http_pool *pool;               /* HTTP connections (http_pool.h) */
    _Atomic uint64_t tag_seq;      /* exception tags */
} server;

/* A reference to the current users/profiles (release with server_auth_put). */
server_auth *server_auth_get(server *s);
void server_auth_put(server_auth *a);
/* Loads the configuration again and swaps users and profiles in. */
int server_reload(server *s);

/* Starts a detached thread with a stack for running queries; -1 with errno. */
int server_start_thread(void *(*fn)(void *), void *arg);
/* A connection ended (the count max_connections and shutdown wait on). */
void server_connection_done(server *s);
/* A line of the server log (level: "Error", "Information", …), also to system.text_log. */
void server_log(const char *level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Serves one native-protocol connection until it closes (native_handler.c); the caller
 * closes fd. */
void native_serve(server *srv, int fd, const char *peer);

/* Handles one request; writes the whole response. */
void http_handle(server *srv, http_conn *c, srv_request *rq, srv_response *resp);

/* Sessions (sessions.c). Finds or creates session `id` of user (SESSION_NOT_FOUND when
 * check is set and it does not exist; SESSION_IS_LOCKED when busy; a session of another
 * user is not found). Marks it busy; release with sessions_release. */
int sessions_acquire(server *s, const char *id, const char *user, int timeout_s, bool check, http_session **out);
void sessions_release(server *s, http_session *hs);
/* Drops sessions idle past their timeout (not busy ones). */
void sessions_expire(server *s);
void sessions_free_all(server *s);

#endif
