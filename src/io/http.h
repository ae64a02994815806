/* HTTP client on libcurl, with the retry rules object storage needs.
 *
 * One request = http_run(): it performs attempts until one succeeds or fails for good.
 * Retried with exponential backoff and full jitter: connection errors (refused, reset),
 * timeouts, 5xx (including 503 SlowDown), 429 and 408, and bodies shorter than announced.
 * Failures before any body byte count against max_retries (ClickHouse's
 * s3_retry_attempts); failures after the body started (cut, reset, stalled) against
 * max_read_retries (s3_max_single_read_retries). A GET whose body was cut after some bytes
 * were delivered is resumed from the last byte received (Range: bytes=<next>-<end>), so a
 * completed part is never fetched or delivered twice; the resumed response must carry the
 * ETag of the first one, else the request fails (the object changed). Other 4xx fail at
 * once; S3's XML <Code> and <Message> go in the error. time_budget_ms bounds the whole
 * request (attempts, backoff and waits), so a persistent fault fails in bounded time.
 * Because signatures cover the Range header and the date, the caller's prepare() builds
 * the headers of every attempt.
 *
 * Endpoint limiter: all requests of the process to one endpoint (scheme://host:port)
 * share a limiter. A SlowDown (503 with <Code>SlowDown</Code>, or 429) seen by any request
 * halves the endpoint's concurrency budget (to half the requests then in flight, at least
 * 1) and sets a shared "not before" time (the backoff), so every thread slows down instead
 * of each retrying on its own; successes raise the budget again by 1/budget each
 * (additive increase, multiplicative decrease). Network errors also set "not before"
 * when slow_all_on_network_error is set.
 *
 * Connections: one curl easy handle per thread, reused across requests (keep-alive) and
 * freed when the thread exits. Thread-safety: http_run may be called from any thread;
 * counters are atomics shared by the threads of a query; the limiter table is process-wide
 * (entries live until exit). Errors: -1 with err_set (ERR_S3_ERROR for S3/HTTP errors,
 * ERR_NETWORK_ERROR when retries ran out on network failures, ERR_TIMEOUT_EXCEEDED when the
 * time budget ran out while waiting); messages name the method and URL (which never
 * carries credentials). */
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
    /* Parquet footers found in / missing from the metadata cache (format/parquet/meta_cache.h) */
    _Atomic uint64_t pq_meta_hits, pq_meta_misses;
    /* requests under way now, and the most at once (the concurrency the object store saw) */
    _Atomic uint64_t inflight, max_inflight;
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
    int max_retries;          /* failures before the body; < 0: 0; 0 means the default 8 */
    int max_read_retries;     /* failures after the body started; < 0: 0; 0: 4 */
    uint64_t initial_backoff_ms; /* 0: 100 ms */
    uint64_t max_backoff_ms;  /* 0: 5 s */
    uint64_t time_budget_ms;  /* whole request incl. retries; 0: unbounded */
    bool slow_all_on_network_error; /* a network error also delays the endpoint's other requests */
    const char *expect_etag;  /* a 2xx response with another ETag (or a 412) fails: object changed */
    http_counters *counters;  /* may be NULL */
} http_request;

typedef struct http_response {
    long status;
    buf body;                 /* when on_data is NULL */
    int64_t content_length;   /* -1 when absent */
    uint64_t total_size;      /* from Content-Range ".../N", else 0 */
    char etag[136];
    uint64_t delivered;       /* body bytes handed over across all attempts */
    char first_etag[136];     /* ETag of the attempt that delivered the first bytes */
    int retries;              /* attempts after the first */
} http_response;

/* Loads libcurl and initialises it (http_run does it on first use): 0, or -1 with err_set. */
int http_load(void);

/* Runs the request (with retries). On success resp->status is 2xx. The caller frees resp
 * with http_response_free whatever the result. */
int http_run(const http_request *r, http_response *resp);
void http_response_free(http_response *resp);

/* "<Message> (<Code>)" from an S3 error body, into out; false if the body has no <Code>. */
bool http_s3_error_text(const char *body, size_t n, buf *out);

/* Retry delay for attempt k (0-based): uniform in [0, min(cap, 100 ms * 2^k)]. */
uint64_t http_backoff_ms(int attempt, uint64_t cap_ms);
/* The same with another initial delay: uniform in [0, min(cap, initial * 2^k)]. */
uint64_t http_backoff_ms_from(int attempt, uint64_t initial_ms, uint64_t cap_ms);

/* With SHALE_HTTP_TRACE=1 in the environment, every attempt prints a line on stderr
 * ("http: <start s> <end s> +conn|reuse <method> <status> <url> <range|-> <bytes> B", times
 * since the process started); http_trace_note adds "http: <now s> <what>" (for marking the
 * phases of a query). */
void http_trace_note(const char *what);

/* Many first attempts from one thread (libcurl's multi interface), so that a caller keeps
 * a hundred small ranged GETs in flight without a thread each. http_multi_get queues one
 * attempt of a ranged GET (its headers — the signature — made at once by r->prepare); the
 * multi's thread starts it when fewer than max_inflight run and the endpoint limiter lets
 * it (the same budget and "not before" as http_run; SlowDowns and network errors seen here
 * count there), and judges it as http_run judges an attempt (status, ETag, Content-Range,
 * body length). It never retries: done(ctx, true) when exactly the range arrived with a 2xx,
 * done(ctx, false) for anything else (non-2xx, network error, short body, cancelled) — the
 * caller then runs the request with http_run, whose retry, limiter and ETag rules apply, so
 * behaviour under faults is http_run's. Attempts are counted (counters, in flight, trace)
 * like http_run's; a retryable failure counts one retry.
 *
 * Ownership: dst (range_to - range_from + 1 bytes) and ctx must stay valid until done runs;
 * r and what it points to are borrowed only during the call. Thread-safety: http_multi_get
 * from any thread; done runs on the multi's thread (also for the transfers http_multi_free
 * cancels, before it returns), without any lock of the multi held, and may submit again but
 * must not free the multi. Errors: http_multi_new NULL and http_multi_get -1 with err_set
 * (done is then not called). */
typedef struct http_multi http_multi;
typedef void (*http_multi_done_fn)(void *ctx, bool ok);
http_multi *http_multi_new(int max_inflight);
int http_multi_get(http_multi *m, const http_request *r, uint8_t *dst, http_multi_done_fn done, void *ctx);
void http_multi_free(http_multi *m);

/* The endpoint limiter (see above), exposed for tests and diagnostics. */
typedef struct http_limiter_state {
    double budget;        /* concurrent requests allowed */
    int inflight;
    uint64_t slowdowns;   /* SlowDown / 429 answers seen */
    uint64_t waits;       /* attempts that had to wait for the budget or "not before" */
} http_limiter_state;
/* "scheme://host:port" of url into out (default ports made explicit). */
void http_endpoint_key(const char *url, char *out, size_t cap);
/* false if the endpoint has not been used yet. */
bool http_limiter_get(const char *url, http_limiter_state *out);

#endif
