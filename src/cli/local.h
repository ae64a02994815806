/* `shale local`: runs scripts of statements through the statement layer (interp/) with
 * clickhouse-local's behaviour: results on stdout, errors in ClickHouse's layout on
 * stderr, the summary after each query with --time, progress with --progress, and the
 * test hints of ClickHouse's test files with --testmode. Single-threaded (queries
 * themselves use worker threads). */
#ifndef SHALE_CLI_LOCAL_H
#define SHALE_CLI_LOCAL_H

#include "interp/session.h"

#include <stdbool.h>

typedef struct local_shell {
    instance *inst;               /* owned */
    session *sess;                /* owned */
    const char *default_format;   /* --format; NULL = by terminal */
    bool stdout_tty;
    bool print_summary;           /* --time or interactive */
    bool progress;                /* --progress */
    bool testmode;                /* --testmode: honour -- { serverError X } hints */
    bool interactive;
    /* stdin data for `table` / input() (--input-format, --structure) */
    const char *input_format;
    const char *input_structure;
} local_shell;

/* Opens the data directory (a temporary one when path is NULL) and a session on it. */
int local_open(local_shell *l, const char *path);
void local_close(local_shell *l);
/* Runs every statement of a script. Stops at the first error unless testmode expects
 * it (or the shell is interactive). Returns 0, or the ClickHouse code of the error that
 * stopped it. */
int local_run_script(local_shell *l, const char *sql, size_t len);
/* Prints an error in ClickHouse's layout to stderr: "Code: N. DB::Exception: …. (NAME)". */
void print_error(int code, const char *msg);

#endif
