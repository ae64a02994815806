/* query_ctx: everything one running query shares between its threads: settings, the
 * memory tracker, progress counters, cancellation, the function environment.
 *
 * Counters and the cancel flag are atomics (workers update them); the rest is read-only
 * while the query runs. Created and freed by the statement runner (exec/run.c). */
#ifndef SHALE_EXEC_QUERY_H
#define SHALE_EXEC_QUERY_H

#include "base/mem.h"
#include "exec/settings.h"
#include "format/format.h"
#include "func/func.h"
#include "io/http.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct ast;
struct expr;
struct source;
struct instream;
struct table;

typedef struct query_ctx {
    settings *st;                 /* owned: session settings + the query's SETTINGS */
    mem_tracker mem;
    func_env env;
    fmt_settings fmt;
    int max_threads;
    _Atomic uint64_t read_rows;
    _Atomic uint64_t read_bytes;
    _Atomic uint64_t total_rows_to_read; /* for progress; 0 = unknown */
    _Atomic int cancelled;        /* set by Ctrl-C or a failing worker */
    http_counters io;             /* object-storage requests of this query (s3(), INSERT INTO s3) */
    bool started;                 /* execution began (analysis succeeded): for the query log */
    double start_time;            /* monotonic seconds */
    char query_id[40];
    const char *data_path;        /* the --path directory */
    const char *tmp_path;         /* where spill files go (exec/spill.h); NULL = <data_path>/tmp */
    struct session *session;      /* the owning session */
    struct catalog *catalog;      /* databases and tables (storage/catalog.h) */
    struct catalog *temp_catalog; /* the session's temporary tables (its "default" database), or NULL */
    const char *database;         /* the current database (USE), borrowed from the session */
    const char *user_files_path;  /* file() is confined to it (a server's); NULL = anywhere */
    /* Query parameters ({name:Type} ← --param_name=value), borrowed from the session. */
    int nparams;
    char *const *param_names;
    char *const *param_values;
    /* Common table expressions in scope (WITH name AS (SELECT …)), innermost last;
     * pointers into the statement's AST, pushed and popped by the analyzer. */
    const char *sql_text;         /* the script the statement came from (AST offsets index it) */
    size_t sql_len;
    const char *stdin_format;     /* --input-format, for `table` / input() */
    const char *stdin_structure;  /* --structure */
    int nctes;
    const void *ctes[64];
    /* A materialized view's SELECT running over a block inserted into its source table
     * (interp/mview.c): wherever the query names the table mv_source (a struct table *),
     * the analyzer reads mv_block (t->sch's columns, borrowed) instead. NULL otherwise. */
    const void *mv_source;
    const struct block *mv_block;
    /* The Join table (struct table *) being read as a JOIN's right side (sql/join_engine.h),
     * whose rows with NULL keys the JOIN sees and a SELECT does not; NULL otherwise. */
    const void *join_right_table;
    /* The Join table an INSERT … SELECT writes into while its SELECT is analyzed: reading
     * it then fails with DEADLOCK_AVOIDED, as in ClickHouse (storage/joinset.h). */
    const void *insert_join_target;
    int mv_depth;                 /* views nested in one INSERT (a chain), bounded */
    /* The analyzer's expression compiler (sql/analyze.h analyze_expr_on), installed by the
     * statement layer (interp/) when it creates the query: storage engines compile their
     * key, partition and default expressions through it without depending on the analyzer,
     * which stands above them. */
    /* The data that follows the statement (INSERT … FORMAT without inline data, input()),
     * opened by the front end (interp.h hooks); NULL = standard input. */
    int (*open_input)(void *ctx, struct query_ctx *q, struct instream **is);
    void *input_ctx;
    /* The columns an INSERT reads from open_input, set by the statement layer just before
     * it opens it (the native protocol sends them to its client first); else NULL. */
    const schema *input_schema;
    int (*compile_expr)(const struct ast *e, const struct source *src, struct query_ctx *q, struct expr **out);
    /* Reads a view (the statement layer expands views; storage's Merge tables read views
     * through this): takes the table reference; NULL where no statement layer runs. */
    int (*read_view)(struct table *view, struct query_ctx *q, struct source **out);
    /* A worker's query of s3Cluster (a secondary query over the native protocol): asks the
     * initiator for the next object (ReadTaskRequest); *path is new, "" when none is left.
     * Thread-safe (requests are serialised). NULL for every other query. */
    int (*read_task)(void *ctx, char **path);
    void *read_task_ctx;
} query_ctx;

double clock_monotonic(void);
double clock_realtime(void);

/* -1 with ERR_QUERY_WAS_CANCELLED / ERR_MEMORY_LIMIT_EXCEEDED / ERR_TIMEOUT_EXCEEDED when
 * the query must stop; operators call it once per block. */
int query_check(query_ctx *q);
void query_add_read(query_ctx *q, uint64_t rows, uint64_t bytes);
/* The path file() reads or writes for `path` as the user wrote it: relative paths are
 * under q->user_files_path when set, and the result (after . and .. and, for existing
 * files, symbolic links) must stay inside it (DATABASE_ACCESS_DENIED otherwise). Without
 * user_files_path the path is returned as written. Returns a new string. */
int query_file_path(query_ctx *q, const char *path, char **out);
/* Opens the data that follows the statement (q->open_input, else standard input); the
 * caller closes it. */
int query_open_input(query_ctx *q, struct instream **is);
/* Compiles e over src's columns through q->compile_expr; ERR_LOGICAL_ERROR when the query
 * was created without a compiler. *out is owned by the caller (expr_free). */
int query_compile_expr(query_ctx *q, const struct ast *e, const struct source *src, struct expr **out);

#endif
