/* The statement layer's state: an instance (the data directory and its catalog, shared by
 * every session of a process) and sessions (what one client changes with SET, USE and
 * query parameters), and the queries a session runs.
 *
 * Every front end — `shale local`, the HTTP handler, the native handler — creates
 * sessions on one instance and runs statements through interp.h; none of them executes
 * a statement itself.
 *
 * Ownership: the instance owns its catalog; a session owns its settings and parameters
 * and borrows the instance. Thread-safety: an instance is shared by all threads; a
 * session runs one statement at a time (the front end serialises them), while its
 * `current` query may be read (to cancel it) from any thread.
 * Errors: -1 with err_set (base/err.h). */
#ifndef SHALE_INTERP_SESSION_H
#define SHALE_INTERP_SESSION_H

#include "exec/query.h"

#include <stdbool.h>

struct catalog;
struct ast_list;
struct session;

typedef struct instance {
    char *data_path;
    bool temp_path;          /* created by us: removed by instance_close */
    int status_fd;           /* the flock on <data_path>/status (status_file.h), or -1 */
    struct catalog *catalog; /* databases and tables, opened from data_path */
    char *user_files_path;   /* file() is confined to it (the server's); NULL = anywhere */
    char *tmp_path;          /* the server's <tmp_path>; NULL = <data_path>/tmp */
    int nbackup_paths;       /* where File() backups may go (<backups><allowed_path>); */
    char **backup_paths;     /* none: <data_path>/backups */
    /* Set by a server (NULL in `shale local`): SYSTEM RELOAD CONFIG reloads its users and
     * profiles; each finished query is reported for its text log (the text masked). */
    int (*reload_config)(void *ctx);
    void (*query_done)(void *ctx, struct session *s, query_ctx *q, const char *masked_text, int code,
                       const char *error);
    void *hooks_ctx;
} instance;

/* Opens the data directory (a temporary one when path is NULL) and loads its tables. */
int instance_open(const char *path, instance **out);
/* Closes every table and frees the instance; removes a temporary data directory. */
void instance_close(instance *in);

typedef struct session {
    instance *inst;            /* borrowed */
    settings *st;              /* session settings: SET changes them */
    char database[256];        /* the current database: USE changes it */
    char user[64];             /* who runs the queries (the query log's user) */
    int nparams;               /* query parameters {name:Type} */
    char **param_names;
    char **param_values;
    struct catalog *temp;      /* temporary tables (opened on first use), or NULL */
    char *temp_dir;
    bool remote;               /* a server's client: readonly = 1 also forbids setting changes
                                * (clickhouse-local does not check them, ClickHouse's server does) */
    unsigned query_seq;
    _Atomic(query_ctx *) current; /* the running query, for cancellation */
} session;

session *session_new(instance *inst);
void session_free(session *s);
/* The session's catalog of temporary tables, opened on first use under the instance's
 * data directory and removed with the session. */
int session_temp_catalog(session *s, query_ctx *q, struct catalog **out);
/* Sets (or replaces) the value of query parameter `name`. */
void session_set_param(session *s, const char *name, const char *value);

/* A new query of the session, with a copy of the session's settings (the statement's
 * SETTINGS are applied to q->st next). The caller frees it with query_free. */
query_ctx *query_new(session *s);
/* Applies SETTINGS name = value, … to st (the values are literals or bare identifiers). */
int settings_apply_ast(settings *st, const struct ast_list *l);
/* Fixes what derives from the query's settings once they are final: time zone, threads,
 * the memory limit, format settings. output_tty selects Pretty colours for "auto". */
int query_prepare(query_ctx *q, bool output_tty);
void query_free(query_ctx *q);

#endif
