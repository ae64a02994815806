/* A session of `shale local`: session settings, the data directory, query parameters,
 * and execution of statements one at a time with ClickHouse-style output, summaries and
 * query-log rows. Single-threaded (queries themselves use worker threads). */
#ifndef SHALE_CLI_SESSION_H
#define SHALE_CLI_SESSION_H

#include "exec/query.h"

#include <stdbool.h>
#include <stdio.h>

typedef struct session {
    settings *st;
    char *data_path;
    bool temp_path;               /* created by us: removed at exit */
    const char *default_format;   /* --format; NULL = by terminal */
    bool stdout_tty;
    bool print_summary;           /* --time or interactive */
    bool progress;                /* --progress */
    bool testmode;                /* --testmode: honour -- { serverError X } hints */
    bool interactive;
    int nparams;
    char **param_names;
    char **param_values;
    int query_seq;
    _Atomic(query_ctx *) current; /* the running query, for Ctrl-C */
    /* stdin data for `table` / input() (--input-format, --structure) */
    const char *input_format;
    const char *input_structure;
    struct catalog *catalog;      /* databases and tables, opened from data_path */
} session;

int session_init(session *s, const char *path);
void session_close(session *s);
/* Runs every statement of a script. Stops at the first error unless testmode expects
 * it. Returns 0, or the ClickHouse code of the error that stopped it. */
int session_run_script(session *s, const char *sql, size_t len);
void session_add_param(session *s, const char *name, const char *value);
/* Prints an error in ClickHouse's layout to stderr: "Code: N. DB::Exception: …. (NAME)". */
void print_error(int code, const char *msg);

#endif
