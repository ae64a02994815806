/* A live progress line on the terminal (stderr) for queries running longer than half a
 * second, like clickhouse-client's: rows and bytes read, rates, and a percentage when the
 * source knows its size. Started and stopped around each query by the session. */
#ifndef SHALE_CLI_PROGRESS_H
#define SHALE_CLI_PROGRESS_H

#include "exec/query.h"

typedef struct progress progress;

/* Starts the reporter thread for q (borrowed until progress_stop). */
progress *progress_start(query_ctx *q);
/* Stops it and erases the line. NULL is accepted. */
void progress_stop(progress *p);

#endif
