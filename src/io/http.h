/* HTTP client on libcurl, with the retry rules object storage needs.
 *
 * One request = http_run(): it performs attempts until one succeeds or fails for good.
 * Retried (exponential backoff, full jitter, at most max_retries times): connection
 * errors, resets, timeouts, 5xx (including 503 SlowDown), 429, and bodies shorter than
 * announced. A GET whose body was cut after some bytes were delivered is resumed from the
 * last byte received (Range: bytes=<next>-<end>), so a completed part is never fetched or
 * delivered twice. Other 4xx fail at once; S3's XML <Code> and <Message> go in the error.
 * Because signatures cover the Range header and the date, the caller's prepare() builds
 * the headers of every attempt.
 *
 * Connections: one curl easy handle per thread, reused across requests (keep-alive) and
 * freed when the thread exits. Thread-safety: http_run may be called from any thread;
 * counters are atomics shared by the threads of a query. Errors: -1 with err_set
 * (ERR_S3_ERROR for S3/HTTP errors, ERR_NETWORK_ERROR when retries ran out on network
 * failures); messages name the method and URL (which never carries credentials). */
#ifndef SHALE_IO_HTTP_H
#define SHALE_IO_HTTP_H

#include "base/buf.h"
#include "base/err.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Per-query I/O counters; zero-initialise, share between threads. */
typedef struct http_counters {
    _Atomic uint64_t get, head, put, post, del; /* attempts by method */
    _Atomic uint64_t bytes_in, bytes_out;
    _Atomic uint64_t retries;
    _Atomic uint64_t list;    /* ListObjectsV2 requests (also counted in get) */
    _Atomic uint64_t wait_ns; /* time readers waited for object data */
} http_counters;

typedef struct http_headers {
    char **v; /* "Name: value" */
    int n;
} http_headers;

void http_headers_add(http_headers *h, const char *name, const char *value);
void http_headers_free(http_headers *h);

/* Builds the headers of one attempt. range is NULL or "bytes=a-b"; when non-NULL prepare
 * must add it as the Range header itself (so that it can sign it). Returns 0 or -1. */
typedef int (*http_prepare_fn)(void *ctx, const char *method, const char *range, http_headers *out);
/* Receives body bytes of a successful response; returning -1 (with err_set) stops the
 * request without retrying. */
typedef int (*http_data_fn)(void *ctx, const void *p, size_t n);

typedef struct http_request {
    const char *method;       /* GET HEAD PUT POST DELETE */
    const char *url;
    const void *body;         /* PUT/POST payload, borrowed */
    size_t body_len;
    http_prepare_fn prepare;  /* may be NULL: no extra headers (Range is then added here) */
    void *prepare_ctx;
    bool has_range;           /* bytes range_from..range_to inclusive */
    uint64_t range_from, range_to;
    http_data_fn on_data;     /* NULL: collect into http_response.body */
    void *data_ctx;
    long connect_timeout_ms;  /* 0: 10 s */
    long stall_timeout_ms;    /* no byte for this long = failure (retried); 0: 30 s */
    int max_retries;          /* < 0: 0; 0 means the default 8 */
    uint64_t max_backoff_ms;  /* 0: 5 s */
    http_counters *counters;  /* may be NULL */
} http_request;

typedef struct http_response {
    long status;
    buf body;                 /* when on_data is NULL */
    int64_t content_length;   /* -1 when absent */
    uint64_t total_size;      /* from Content-Range ".../N", else 0 */
    char etag[136];
    uint64_t delivered;       /* body bytes handed over across all attempts */
} http_response;

/* Runs the request (with retries). On success resp->status is 2xx. The caller frees resp
 * with http_response_free whatever the result. */
int http_run(const http_request *r, http_response *resp);
void http_response_free(http_response *resp);

/* "<Message> (<Code>)" from an S3 error body, into out; false if the body has no <Code>. */
bool http_s3_error_text(const char *body, size_t n, buf *out);

/* Retry delay for attempt k (0-based): uniform in [0, min(cap, 100 ms * 2^k)]. */
uint64_t http_backoff_ms(int attempt, uint64_t cap_ms);

#endif
