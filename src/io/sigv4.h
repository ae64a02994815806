/* AWS Signature Version 4 (header-based), as S3 and every AWS service verify it.
 *
 * The caller lists the query parameters unencoded and the headers to sign; sigv4 builds
 * the canonical request (RFC 3986 encoding, parameters sorted by encoded key then value,
 * header names lowercased, values trimmed with inner runs of spaces folded, duplicates
 * joined by ','), the string to sign, the signing key
 * (HMAC-SHA256 chain over date, region, service, "aws4_request") and the Authorization
 * header value. The same sigv4_canonical_query() string must be sent as the URL's query,
 * so that what is signed is what the server sees (radosgw rejects any difference).
 *
 * Ownership: sigv4_result's strings are malloc'ed; free with sigv4_result_free. Inputs are
 * borrowed. Thread-safety: all functions are reentrant. Errors: none can fail (allocation
 * never fails); the secret never leaves this module except inside the HMAC. */
#ifndef SHALE_IO_SIGV4_H
#define SHALE_IO_SIGV4_H

#include "base/buf.h"

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#define SIGV4_EMPTY_SHA256 "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
#define SIGV4_UNSIGNED_PAYLOAD "UNSIGNED-PAYLOAD"

typedef struct sigv4_kv {
    const char *k;
    const char *v; /* may be "" (e.g. "uploads=") */
} sigv4_kv;

typedef struct sigv4_params {
    const char *method;         /* "GET" */
    const char *path;           /* canonical URI, already encoded: "/bucket/a%20b" */
    const sigv4_kv *query;      /* unencoded */
    int nquery;
    const sigv4_kv *headers;    /* every header to sign, including host and x-amz-date */
    int nheaders;
    const char *payload_hash;   /* hex SHA-256 of the body, or SIGV4_UNSIGNED_PAYLOAD */
    const char *amz_date;       /* "20150830T123600Z" */
    const char *region;         /* "us-east-1" */
    const char *service;        /* "s3" */
    const char *key_id;
    const char *secret;
} sigv4_params;

typedef struct sigv4_result {
    char *canonical_request;
    char *string_to_sign;
    char *signed_headers;       /* "host;x-amz-date" */
    char signature[65];
    char *authorization;        /* "AWS4-HMAC-SHA256 Credential=..., SignedHeaders=..., Signature=..." */
} sigv4_result;

void sigv4_sign(const sigv4_params *p, sigv4_result *out);
void sigv4_result_free(sigv4_result *r);

/* RFC 3986 percent-encoding of s[0..n): unreserved characters (A-Z a-z 0-9 - . _ ~) are
 * kept, '/' too when keep_slash, every other byte becomes %XX (upper-case hex). */
void sigv4_uri_encode(buf *out, const char *s, size_t n, bool keep_slash);

/* "k1=v1&k2=v2": encoded, sorted by encoded key then encoded value. Appends to out. */
void sigv4_canonical_query(buf *out, const sigv4_kv *q, int n);

/* Lower-case hex SHA-256 of data into hex[65]. */
void sigv4_sha256_hex(const void *data, size_t n, char hex[65]);

/* "YYYYMMDDTHHMMSSZ" for t (UTC) into out[17]. */
void sigv4_amz_date(time_t t, char out[17]);

#endif
