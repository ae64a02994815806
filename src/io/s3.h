/* An S3 client: URLs, credentials, signed requests and the object operations shale uses,
 * on io/http.h (retries) and io/sigv4.h (signing).
 *
 * URLs: path-style "http(s)://host[:port]/bucket/key" (any custom endpoint) and the AWS
 * forms "https://bucket.s3[.-]region.amazonaws.com/key" (virtual-hosted) and
 * "https://s3.region.amazonaws.com/bucket/key". Credentials: explicit key/secret[/token],
 * NOSIGN (anonymous), or AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN;
 * region from the host, else AWS_REGION, else us-east-1. Reads are signed with
 * UNSIGNED-PAYLOAD, writes with the payload's SHA-256.
 *
 * Ownership: an s3_client owns copies of its URL parts and credentials; it borrows the
 * counters, which must outlive it. Thread-safety: a client is immutable after s3_client_new
 * and may be used from many threads at once. Errors: -1 with err_set; messages name the
 * bucket/key/URL and S3's code and message, never the secret or the token. */
#ifndef SHALE_IO_S3_H
#define SHALE_IO_S3_H

#include "io/http.h"
#include "io/stream.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct s3_url {
    char *endpoint;    /* "http://127.0.0.1:7480" or "https://bucket.s3.eu-west-1.amazonaws.com" */
    char *host;        /* Host header: "127.0.0.1:7480" (default ports dropped) */
    char *bucket;
    char *key;         /* may be "" and may hold glob characters */
    char *region;      /* from the host for AWS, else NULL */
    bool virtual_host; /* the bucket is in the host name */
} s3_url;

int s3_url_parse(const char *url, s3_url *out);
void s3_url_free(s3_url *u);

typedef struct s3_creds {
    const char *key_id;  /* NULL with secret NULL: from the environment */
    const char *secret;
    const char *token;   /* may be NULL */
    bool nosign;
} s3_creds;

typedef struct s3_client s3_client;

/* Copies what it needs from u and creds (resolving the environment). */
s3_client *s3_client_new(const s3_url *u, const s3_creds *creds, http_counters *counters);
void s3_client_free(s3_client *c);
const s3_url *s3_client_url(const s3_client *c);

/* How the client's requests retry (see io/http.h); zero fields keep http.h's defaults.
 * The names in brackets are the settings that set them (storage/tablefunc/s3.c). */
typedef struct s3_retry_opts {
    int max_retries;              /* failures before the body [s3_retry_attempts] */
    int max_read_retries;         /* failures after the body started [s3_max_single_read_retries] */
    uint64_t initial_backoff_ms;  /* [http_retry_initial_backoff_ms] */
    uint64_t max_backoff_ms;      /* [http_retry_max_backoff_ms] */
    long connect_timeout_ms;      /* [s3_connect_timeout_ms] */
    long request_timeout_ms;      /* no byte sent or received for this long [s3_request_timeout_ms] */
    uint64_t time_budget_ms;      /* one request, retries included [s3_retry_budget_ms] */
    bool slow_all_on_network_error; /* [s3_slow_all_threads_after_network_error] */
} s3_retry_opts;
/* Call before the client is shared between threads. */
void s3_client_set_retry(s3_client *c, const s3_retry_opts *o);
/* "http://host:port/bucket/key" for messages and the _path column's bucket/key part. */
char *s3_object_url(const s3_client *c, const char *key);

typedef struct s3_object {
    char *key;
    uint64_t size;
    char *etag;        /* with its quotes, as S3 sends it */
} s3_object;

void s3_objects_free(s3_object *o, size_t n);

/* Parses one ListObjectsV2 page, appending to objs and n; next is the continuation token
 * (malloc'ed) when the listing is truncated, else NULL. */
int s3_parse_list_page(const char *xml, size_t len, s3_object **objs, size_t *n, char **next);

/* Every object whose key starts with prefix, all pages (continuation tokens). */
int s3_list(s3_client *c, const char *prefix, s3_object **objs, size_t *n);
/* Size and ETag of a key; ERR_S3_ERROR with "NoSuchKey"-like text when missing. */
int s3_head(s3_client *c, const char *key, uint64_t *size, char **etag);
/* Bytes [from, to] (inclusive) to on_data; etag (may be NULL) is sent as If-Match and
 * compared with the response's ETag, so a changed object fails (ERR_S3_ERROR "Object ...
 * changed while it was being read") instead of mixing versions. */
int s3_get_range(s3_client *c, const char *key, const char *etag, uint64_t from, uint64_t to, http_data_fn on_data,
                 void *ctx);
/* One attempt of the same GET on m (io/http.h: http_multi_get), into dst (to - from + 1
 * bytes): done(ctx, false) means the caller reads the range with s3_get_range, under all
 * the retry rules. 0, or -1 with err_set (done not called). */
int s3_get_range_async(s3_client *c, http_multi *m, const char *key, const char *etag, uint64_t from, uint64_t to,
                       uint8_t *dst, http_multi_done_fn done, void *ctx);
int s3_put(s3_client *c, const char *key, const void *data, size_t n);
int s3_multipart_create(s3_client *c, const char *key, char **upload_id);
/* *etag is malloc'ed. */
int s3_multipart_part(s3_client *c, const char *key, const char *upload_id, int part, const void *data, size_t n,
                      char **etag);
int s3_multipart_complete(s3_client *c, const char *key, const char *upload_id, char *const *etags, int nparts);
int s3_multipart_abort(s3_client *c, const char *key, const char *upload_id);
/* Deletes up to 1000 keys per request, as many requests as needed. */
int s3_delete_objects(s3_client *c, char *const *keys, size_t n);

/* A sequential stream over an object of known size, fetched in `piece` byte ranged GETs,
 * the next piece prefetched by a background thread while the current one is consumed.
 * Every piece must come from the same version of the object: with etag NULL, the ETag of
 * the first piece received is required of all others (If-Match and a comparison), so an
 * object overwritten during the read fails with an error naming it, never mixed data.
 * The stream borrows c (which must outlive it); etag may be NULL. Same as
 * instream_open_s3_opts with threads = 1. */
int instream_open_s3(s3_client *c, const char *key, uint64_t size, const char *etag, size_t piece, instream **out);

/* How an object is read (ClickHouse's settings): objects larger than 2 × piece
 * (max_download_buffer_size) are fetched by `threads` (max_download_threads) concurrent
 * ranged GETs of `piece` bytes, delivered in order, at most threads + 1 pieces in memory;
 * smaller ones are prefetched by one background thread; sync (remote_filesystem_read_method
 * = 'read') fetches each piece in the reading thread when it is needed. Time the reader
 * spends waiting for data is added to the client's counters (wait_ns). */
typedef struct s3_read_opts {
    size_t piece;  /* 0: 10 MiB */
    int threads;   /* <= 0: 1 */
    bool sync;
} s3_read_opts;
int instream_open_s3_opts(s3_client *c, const char *key, uint64_t size, const char *etag, const s3_read_opts *o,
                          instream **out);

/* A write stream that becomes the object `key` when closed successfully: one PUT if at
 * most max_single bytes were written, else a multipart upload whose parts are uploaded
 * concurrently (at most max_inflight at a time, each a buffer held in memory) while
 * writing continues. Part n (1-based) is min_part × factor^((n-1) / threshold) bytes,
 * capped at max_part, so that 10 000 parts reach 5 TiB; the first part holds whatever
 * was buffered when the output outgrew max_single. A failed part upload fails the next
 * write() or close(); close() failing and outstream_s3_abort() abort the multipart upload,
 * so no partial object becomes visible. Borrows c. */
typedef struct s3_write_opts {
    uint64_t min_part;     /* 0: 16 MiB */
    uint64_t max_part;     /* 0: 5 GiB */
    uint64_t factor;       /* 0: 2 */
    uint64_t threshold;    /* 0: 500 */
    uint64_t max_single;   /* 0: 32 MiB */
    int max_inflight;      /* <= 0: 20 */
} s3_write_opts;
int outstream_open_s3(s3_client *c, const char *key, const s3_write_opts *o, outstream **out);
/* Gives up: waits for the parts in flight, aborts the multipart upload, frees s. */
void outstream_s3_abort(outstream *s);

/* Loads the libraries requests need (libcurl, libcrypto for the signatures) in a detached
 * background thread, so that a process that is about to use S3 or URLs overlaps their
 * loading (tens of ms on a busy machine) with its own start-up; errors are left for the
 * first request to report. */
void s3_preload_libraries_async(void);

/* The literal part of a glob before its first '*', '?' or '{' (the listing prefix). */
size_t s3_glob_prefix_len(const char *pattern);

#endif
