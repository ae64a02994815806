/* A live progress line on the terminal (stderr) for queries running longer than half a
 * second, like clickhouse-client's: rows and bytes read, rates, and a percentage when the
 * source knows its size. Started and stopped around each query by the session. */
#ifndef SHALE_CLI_PROGRESS_H
#define SHALE_CLI_PROGRESS_H

#include "exec/query.h"

typedef struct progress progress;

/* Numbers as ClickHouse's client prints them: "1.62 million", "18.86 MB" (powers of 1000). */
void readable_quantity(double v, char *out, size_t cap);
void readable_size_decimal(double v, char *out, size_t cap);

/* Starts the reporter thread for q (borrowed until progress_stop). */
progress *progress_start(query_ctx *q);
/* Stops it and erases the line. NULL is accepted. */
void progress_stop(progress *p);

#endif
