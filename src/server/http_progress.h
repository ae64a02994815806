/* X-ClickHouse-Progress headers (send_progress_in_http_headers = 1): while a query runs and
 * its result has not started, a thread of the request sends a header line with the
 * query's counters every http_headers_progress_interval_ms when they moved, as ClickHouse
 * does. The first line sends the status (200) and the headers set so far: an error after
 * that keeps the status, with X-ClickHouse-Exception-Code among the remaining headers.
 *
 * Thread-safety: start and stop are called by the request's thread; between them that
 * thread must not write to the response (it may set headers: srv_response guards them).
 * Errors: a failed write ends the progress lines only (the handler finds the connection
 * broken on its next write). */
#ifndef SHALE_SERVER_HTTP_PROGRESS_H
#define SHALE_SERVER_HTTP_PROGRESS_H

#include "base/buf.h"
#include "exec/query.h"
#include "server/http_conn.h"

typedef struct http_progress http_progress;

/* Starts the thread; json renders the counters of q (the same fields as
 * X-ClickHouse-Summary). NULL if the thread cannot start (no progress lines then). */
http_progress *http_progress_start(srv_response *resp, query_ctx *q, int64_t interval_ms,
                                   void (*json)(buf *out, query_ctx *q));
/* Stops and joins the thread and frees p; NULL is fine. */
void http_progress_stop(http_progress *p);

#endif
