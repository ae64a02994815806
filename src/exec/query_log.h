/* The query log: one row per finished (or failed) query, appended to
 * <data path>/system/query_log.tsv and readable as system.query_log with ClickHouse's
 * column names. Rows are buffered in memory and written in batches, as ClickHouse's
 * system logs are (a write(2) and a lock held across it per query were a tenth of a short
 * query's cost over HTTP): at most a second old, flushed before the logs are read, by
 * SYSTEM FLUSH LOGS, by the server's watchdog and at exit. A crash loses at most the
 * last second of rows, never corrupts earlier ones (whole rows per write(2), O_APPEND). */
#ifndef SHALE_EXEC_QUERY_LOG_H
#define SHALE_EXEC_QUERY_LOG_H

#include "exec/query.h"

#include "base/buf.h"
#include "exec/source.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct query_log_entry {
    const char *query_id;
    const char *query;
    int type;                /* 2 QueryFinish, 3 ExceptionBeforeStart, 4 ExceptionWhileProcessing */
    double start_time;       /* unix seconds */
    uint64_t duration_ms;
    uint64_t read_rows, read_bytes;
    uint64_t result_rows, result_bytes;
    int64_t memory_usage;
    int exception_code;
    const char *exception;
    /* ProfileEvents (ClickHouse's Map(String, UInt64), stored as its Names/Values array
     * aliases): the non-zero counters of the query's object-storage I/O; may be NULL. */
    const http_counters *io;
} query_log_entry;

int query_log_append(const char *data_path, const query_log_entry *e);
/* The table's structure (for structure_parse) and the log file's path. */
extern const char QUERY_LOG_STRUCTURE[];
void query_log_path(const char *data_path, char *out, size_t cap, bool make_dir);

/* A log file shared by the threads of a process (the query log, the text log): rows are
 * buffered and written whole; opened on first use (its directory too), reopened when the
 * path changes or the file was replaced. Thread-safe. */
typedef struct log_file {
    pthread_mutex_t mu;
    char path[4096];
    int fd;
    double checked_at;
    buf pending;        /* rows not yet written, all for `path` */
    double flushed_at;  /* clock_monotonic of the last write */
    const char *what;   /* names the log in errors ("query log") */
    bool registered;    /* in the list log_files_flush walks */
} log_file;
#define LOG_FILE_INIT {.mu = PTHREAD_MUTEX_INITIALIZER, .fd = -1}
/* Appends one row (buffered; see above). An error to open or write the file is reported
 * by the call that writes: the rows of that batch are dropped, not retried forever. */
int log_file_append(log_file *f, const char *path, const char *what, const void *row, size_t len);
/* Writes every log's buffered rows. Returns -1 with the error of the first that failed. */
int log_files_flush(void);
/* A TabSeparated field: tab, newline and backslash escaped. */
void log_put_escaped(buf *b, const char *s);

#endif
