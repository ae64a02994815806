/* S3 client; see s3.h. */
#include "io/s3.h"

#include "base/err.h"
#include "base/mem.h"
#include "io/crypto.h"
#include "io/sigv4.h"
#include "io/xml.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

typedef struct s3_out s3_out;

struct s3_client {
    s3_url u;
    char *key_id, *secret, *token;
    char *region;
    bool nosign;
    http_counters *counters;
    s3_retry_opts retry;
};

/* ---- URLs ---- */

void s3_url_free(s3_url *u)
{
    free(u->endpoint);
    free(u->host);
    free(u->bucket);
    free(u->key);
    free(u->region);
    memset(u, 0, sizeof *u);
}

/* "s3.eu-west-1.amazonaws.com" / "s3-eu-west-1.amazonaws.com" / "s3.amazonaws.com":
 * returns the region (malloc'ed, "us-east-1" for the global name) or NULL if h is not one. */
static char *aws_region_of(const char *h, size_t n)
{
    static const char suffix[] = ".amazonaws.com";
    size_t sl = sizeof suffix - 1;
    if (n < 2 + sl || memcmp(h + n - sl, suffix, sl) != 0 || memcmp(h, "s3", 2) != 0)
        return NULL;
    size_t mid = n - sl; /* h[0..mid) = "s3" or "s3.region" or "s3-region" */
    if (mid == 2)
        return xstrdup("us-east-1");
    if (h[2] != '.' && h[2] != '-')
        return NULL;
    return xstrndup(h + 3, mid - 3);
}

int s3_url_parse(const char *url, s3_url *out)
{
    memset(out, 0, sizeof *out);
    const char *p = strstr(url, "://");
    if (!p)
        return err_set(ERR_BAD_ARGUMENTS, "Bad S3 URL '%s': expected http://host/bucket/key or https://...", url);
    size_t scheme_len = (size_t)(p - url);
    bool https = scheme_len == 5 && strncasecmp(url, "https", 5) == 0;
    if (!https && !(scheme_len == 4 && strncasecmp(url, "http", 4) == 0))
        return err_set(ERR_BAD_ARGUMENTS, "Bad S3 URL '%s': the scheme must be http or https", url);
    const char *auth = p + 3;
    const char *slash = strchr(auth, '/');
    size_t alen = slash ? (size_t)(slash - auth) : strlen(auth);
    if (alen == 0)
        return err_set(ERR_BAD_ARGUMENTS, "Bad S3 URL '%s': no host", url);
    const char *path = slash ? slash + 1 : "";
    /* A '?' starts a query only for versionId (as in ClickHouse); otherwise it is a glob
     * character of the key. */
    size_t plen = strlen(path);
    const char *qm = strstr(path, "?versionId=");
    if (qm)
        plen = (size_t)(qm - path);
    /* host without a default port, as curl sends it */
    size_t hlen = alen;
    const char *colon = memchr(auth, ':', alen);
    size_t name_len = colon ? (size_t)(colon - auth) : alen;
    if (colon && ((https && alen - name_len == 4 && memcmp(colon, ":443", 4) == 0) ||
                  (!https && alen - name_len == 3 && memcmp(colon, ":80", 3) == 0)))
        hlen = name_len;
    out->endpoint = xmalloc(scheme_len + 3 + alen + 1);
    snprintf(out->endpoint, scheme_len + 3 + alen + 1, "%.*s://%.*s", (int)scheme_len, url, (int)alen, auth);
    out->host = xstrndup(auth, hlen);
    /* virtual-hosted AWS: bucket.s3.region.amazonaws.com */
    const char *dot = memchr(auth, '.', name_len);
    char *region = NULL;
    if (dot && (region = aws_region_of(dot + 1, name_len - (size_t)(dot + 1 - auth))) != NULL) {
        out->virtual_host = true;
        out->bucket = xstrndup(auth, (size_t)(dot - auth));
        out->key = xstrndup(path, plen);
        out->region = region;
        return 0;
    }
    out->region = aws_region_of(auth, name_len);
    const char *bs = memchr(path, '/', plen);
    size_t blen = bs ? (size_t)(bs - path) : plen;
    if (blen == 0) {
        s3_url_free(out);
        return err_set(ERR_BAD_ARGUMENTS, "Bad S3 URL '%s': no bucket (expected http://host/bucket/key)", url);
    }
    out->bucket = xstrndup(path, blen);
    out->key = bs ? xstrndup(bs + 1, plen - blen - 1) : xstrdup("");
    return 0;
}

size_t s3_glob_prefix_len(const char *pattern) { return strcspn(pattern, "*?{"); }

/* ---- client ---- */

static char *env_dup(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? xstrdup(v) : NULL;
}

s3_client *s3_client_new(const s3_url *u, const s3_creds *creds, http_counters *counters)
{
    s3_client *c = xcalloc(1, sizeof *c);
    c->u.endpoint = xstrdup(u->endpoint);
    c->u.host = xstrdup(u->host);
    c->u.bucket = xstrdup(u->bucket);
    c->u.key = xstrdup(u->key);
    c->u.virtual_host = u->virtual_host;
    c->counters = counters;
    c->region = u->region ? xstrdup(u->region) : env_dup("AWS_REGION");
    if (!c->region)
        c->region = env_dup("AWS_DEFAULT_REGION");
    if (!c->region)
        c->region = xstrdup("us-east-1");
    if (creds && creds->nosign) {
        c->nosign = true;
    } else if (creds && creds->key_id && creds->secret) {
        c->key_id = xstrdup(creds->key_id);
        c->secret = xstrdup(creds->secret);
        c->token = creds->token && *creds->token ? xstrdup(creds->token) : NULL;
    } else {
        c->key_id = env_dup("AWS_ACCESS_KEY_ID");
        c->secret = env_dup("AWS_SECRET_ACCESS_KEY");
        c->token = env_dup("AWS_SESSION_TOKEN");
        if (!c->key_id || !c->secret)
            c->nosign = true; /* no credentials anywhere: anonymous, as ClickHouse falls back */
    }
    return c;
}

static void wipe_free(char *s)
{
    if (s) {
        memset(s, 0, strlen(s));
        free(s);
    }
}

void s3_client_free(s3_client *c)
{
    if (!c)
        return;
    s3_url_free(&c->u);
    free(c->key_id);
    wipe_free(c->secret);
    wipe_free(c->token);
    free(c->region);
    free(c);
}

const s3_url *s3_client_url(const s3_client *c) { return &c->u; }

void s3_client_set_retry(s3_client *c, const s3_retry_opts *o) { c->retry = *o; }


/* "/bucket/enc(key)" or "/enc(key)" (virtual host); key NULL = the bucket itself. */
static void canonical_path(const s3_client *c, const char *key, buf *out)
{
    buf_putc(out, '/');
    if (!c->u.virtual_host) {
        sigv4_uri_encode(out, c->u.bucket, strlen(c->u.bucket), false);
        if (key)
            buf_putc(out, '/');
    }
    if (key)
        sigv4_uri_encode(out, key, strlen(key), true);
}

char *s3_object_url(const s3_client *c, const char *key)
{
    buf b = {0};
    buf_puts(&b, c->u.endpoint);
    if (!c->u.virtual_host)
        buf_printf(&b, "/%s", c->u.bucket);
    buf_printf(&b, "/%s", key);
    char *s = xstrdup(buf_cstr(&b));
    buf_free(&b);
    return s;
}

typedef struct sign_ctx {
    const s3_client *c;
    const char *path;
    const sigv4_kv *q;
    int nq;
    const char *payload_hash;
    const char *etag;       /* If-Match, unsigned */
    const char *content_md5;
} sign_ctx;

static int prepare(void *ctx, const char *method, const char *range, http_headers *out)
{
    sign_ctx *s = ctx;
    const s3_client *c = s->c;
    if (range)
        http_headers_add(out, "Range", range);
    if (s->etag)
        http_headers_add(out, "If-Match", s->etag);
    if (s->content_md5)
        http_headers_add(out, "Content-MD5", s->content_md5);
    if (c->nosign)
        return 0;
    char date[17];
    sigv4_amz_date(time(NULL), date);
    sigv4_kv h[7];
    int nh = 0;
    h[nh++] = (sigv4_kv){"host", c->u.host};
    h[nh++] = (sigv4_kv){"x-amz-content-sha256", s->payload_hash};
    h[nh++] = (sigv4_kv){"x-amz-date", date};
    if (c->token)
        h[nh++] = (sigv4_kv){"x-amz-security-token", c->token};
    if (range)
        h[nh++] = (sigv4_kv){"range", range};
    if (s->content_md5)
        h[nh++] = (sigv4_kv){"content-md5", s->content_md5};
    sigv4_params p = {.method = method, .path = s->path, .query = s->q, .nquery = s->nq, .headers = h, .nheaders = nh,
                      .payload_hash = s->payload_hash, .amz_date = date, .region = c->region, .service = "s3",
                      .key_id = c->key_id, .secret = c->secret};
    sigv4_result r;
    sigv4_sign(&p, &r);
    http_headers_add(out, "Host", c->u.host);
    http_headers_add(out, "x-amz-content-sha256", s->payload_hash);
    http_headers_add(out, "x-amz-date", date);
    if (c->token)
        http_headers_add(out, "x-amz-security-token", c->token);
    http_headers_add(out, "Authorization", r.authorization);
    sigv4_result_free(&r);
    return 0;
}

typedef struct s3_call {
    const char *method;
    const char *key;        /* NULL: the bucket */
    const sigv4_kv *q;
    int nq;
    const void *body;
    size_t body_len;
    bool has_range;
    uint64_t from, to;
    const char *etag;
    const char *content_md5;
    http_data_fn on_data;
    void *ctx;
    char *etag_out;         /* [136]: the ETag of the response (of the first bytes), may be NULL */
} s3_call;

/* What to do with a built request: run it (http_run), or queue it on a multi. */
typedef int (*s3_go_fn)(const http_request *r, void *arg);

/* Builds the signed request of call and hands it to go (r lives during the call only). */
static int s3_request(s3_client *c, const s3_call *call, s3_go_fn go, void *arg)
{
    if (crypto_load())
        return -1;
    buf path = {0}, url = {0};
    canonical_path(c, call->key, &path);
    buf_printf(&url, "%s%s", c->u.endpoint, buf_cstr(&path));
    if (call->nq) {
        buf_putc(&url, '?');
        sigv4_canonical_query(&url, call->q, call->nq);
    }
    char hash[65];
    const char *ph = SIGV4_UNSIGNED_PAYLOAD;
    if (call->body_len || strcmp(call->method, "PUT") == 0 || strcmp(call->method, "POST") == 0) {
        sigv4_sha256_hex(call->body ? call->body : "", call->body_len, hash);
        ph = hash;
    }
    sign_ctx sc = {.c = c, .path = buf_cstr(&path), .q = call->q, .nq = call->nq, .payload_hash = ph,
                   .etag = call->etag, .content_md5 = call->content_md5};
    http_request r = {.method = call->method, .url = buf_cstr(&url), .body = call->body, .body_len = call->body_len,
                      .prepare = prepare, .prepare_ctx = &sc, .has_range = call->has_range,
                      .range_from = call->from, .range_to = call->to, .on_data = call->on_data,
                      .data_ctx = call->ctx, .counters = c->counters, .expect_etag = call->etag,
                      .max_retries = c->retry.max_retries, .max_read_retries = c->retry.max_read_retries,
                      .initial_backoff_ms = c->retry.initial_backoff_ms, .max_backoff_ms = c->retry.max_backoff_ms,
                      .connect_timeout_ms = c->retry.connect_timeout_ms,
                      .stall_timeout_ms = c->retry.request_timeout_ms, .time_budget_ms = c->retry.time_budget_ms,
                      .slow_all_on_network_error = c->retry.slow_all_on_network_error};
    int rc = go(&r, arg);
    buf_free(&path);
    buf_free(&url);
    return rc;
}

typedef struct run_arg {
    const s3_call *call;
    http_response *resp;
} run_arg;

static int go_run(const http_request *r, void *arg)
{
    run_arg *a = arg;
    int rc = http_run(r, a->resp);
    if (a->call->etag_out)
        snprintf(a->call->etag_out, 136, "%s", a->resp->first_etag[0] ? a->resp->first_etag : a->resp->etag);
    return rc;
}

static int s3_do(s3_client *c, const s3_call *call, http_response *resp)
{
    memset(resp, 0, sizeof *resp); /* callers free it whatever the outcome */
    run_arg a = {.call = call, .resp = resp};
    return s3_request(c, call, go_run, &a);
}

typedef struct async_arg {
    http_multi *m;
    uint8_t *dst;
    http_multi_done_fn done;
    void *ctx;
} async_arg;

static int go_async(const http_request *r, void *arg)
{
    async_arg *a = arg;
    return http_multi_get(a->m, r, a->dst, a->done, a->ctx);
}

int s3_get_range_async(s3_client *c, http_multi *m, const char *key, const char *etag, uint64_t from, uint64_t to,
                       uint8_t *dst, http_multi_done_fn done, void *ctx)
{
    s3_call call = {.method = "GET", .key = key, .has_range = true, .from = from, .to = to, .etag = etag};
    async_arg a = {.m = m, .dst = dst, .done = done, .ctx = ctx};
    return s3_request(c, &call, go_async, &a);
}

static void *preload_main(void *arg)
{
    (void)arg;
    if (crypto_load() || http_load())
        err_clear(); /* remembered by lazylib: the first request reports it */
    return NULL;
}

void s3_preload_libraries_async(void)
{
    pthread_t t;
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &at, preload_main, NULL) != 0)
        preload_main(NULL);
    pthread_attr_destroy(&at);
}

/* ---- listing ---- */

void s3_objects_free(s3_object *o, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(o[i].key);
        free(o[i].etag);
    }
    free(o);
}

int s3_parse_list_page(const char *xml, size_t len, s3_object **objs, size_t *n, char **next)
{
    const char *p = xml, *end = xml + len;
    *next = NULL;
    const char *v;
    size_t vl;
    if (!xml_find(p, end, "ListBucketResult", &v, &vl, NULL))
        return err_set(ERR_S3_ERROR, "Unexpected ListObjectsV2 response (no <ListBucketResult>): %.200s", xml);
    const char *after;
    while (xml_find(p, end, "Contents", &v, &vl, &after)) {
        char *key = xml_text(v, v + vl, "Key");
        if (!key)
            return err_set(ERR_S3_ERROR, "ListObjectsV2 response: <Contents> without <Key>");
        char *size = xml_text(v, v + vl, "Size");
        *objs = xrealloc(*objs, sizeof **objs * (*n + 1));
        (*objs)[*n].key = key;
        (*objs)[*n].size = size ? strtoull(size, NULL, 10) : 0;
        (*objs)[*n].etag = xml_text(v, v + vl, "ETag");
        (*n)++;
        free(size);
        p = after;
    }
    char *trunc = xml_text(xml, end, "IsTruncated");
    if (trunc && strcmp(trunc, "true") == 0) {
        *next = xml_text(xml, end, "NextContinuationToken");
        if (!*next) {
            free(trunc);
            return err_set(ERR_S3_ERROR, "ListObjectsV2 response is truncated but has no NextContinuationToken");
        }
    }
    free(trunc);
    return 0;
}

int s3_list(s3_client *c, const char *prefix, s3_object **objs, size_t *n)
{
    *objs = NULL;
    *n = 0;
    char *token = NULL;
    for (;;) {
        sigv4_kv q[3] = {{"list-type", "2"}, {"prefix", prefix}};
        int nq = 2;
        if (token)
            q[nq++] = (sigv4_kv){"continuation-token", token};
        s3_call call = {.method = "GET", .q = q, .nq = nq};
        http_response resp;
        if (c->counters)
            atomic_fetch_add(&c->counters->list, 1);
        int rc = s3_do(c, &call, &resp);
        free(token);
        token = NULL;
        if (!rc)
            rc = s3_parse_list_page((const char *)resp.body.p, resp.body.len, objs, n, &token);
        http_response_free(&resp);
        if (rc) {
            err_prefix("Cannot list bucket '%s' (prefix '%s'): ", c->u.bucket, prefix);
            s3_objects_free(*objs, *n);
            *objs = NULL;
            *n = 0;
            return -1;
        }
        if (!token)
            return 0;
    }
}

/* ---- objects ---- */

int s3_head(s3_client *c, const char *key, uint64_t *size, char **etag)
{
    s3_call call = {.method = "HEAD", .key = key};
    http_response resp;
    int rc = s3_do(c, &call, &resp);
    if (!rc) {
        *size = resp.content_length >= 0 ? (uint64_t)resp.content_length : 0;
        if (etag)
            *etag = resp.etag[0] ? xstrdup(resp.etag) : NULL;
    } else if (resp.status >= 400 && resp.status < 500) {
        /* HEAD has no body to say why: ask again with a one-byte GET, whose error body
         * carries S3's code and message (SignatureDoesNotMatch, NoSuchKey, ...). */
        err_saved head_err;
        err_save(&head_err);
        s3_call get = {.method = "GET", .key = key, .has_range = true, .from = 0, .to = 0};
        http_response r2;
        if (s3_do(c, &get, &r2) == 0 || r2.status == 416)
            err_restore(&head_err);
        http_response_free(&r2);
    }
    http_response_free(&resp);
    return rc;
}

static int get_range(s3_client *c, const char *key, const char *etag, uint64_t from, uint64_t to,
                     http_data_fn on_data, void *ctx, char *etag_out)
{
    s3_call call = {.method = "GET", .key = key, .has_range = true, .from = from, .to = to, .etag = etag,
                    .on_data = on_data, .ctx = ctx, .etag_out = etag_out};
    http_response resp;
    int rc = s3_do(c, &call, &resp);
    http_response_free(&resp);
    return rc;
}

int s3_get_range(s3_client *c, const char *key, const char *etag, uint64_t from, uint64_t to, http_data_fn on_data,
                 void *ctx)
{
    s3_call call = {.method = "GET", .key = key, .has_range = true, .from = from, .to = to, .etag = etag,
                    .on_data = on_data, .ctx = ctx};
    http_response resp;
    int rc = s3_do(c, &call, &resp);
    http_response_free(&resp);
    return rc;
}

int s3_put(s3_client *c, const char *key, const void *data, size_t n)
{
    s3_call call = {.method = "PUT", .key = key, .body = data, .body_len = n};
    http_response resp;
    int rc = s3_do(c, &call, &resp);
    http_response_free(&resp);
    return rc;
}

int s3_multipart_create(s3_client *c, const char *key, char **upload_id)
{
    sigv4_kv q[] = {{"uploads", ""}};
    s3_call call = {.method = "POST", .key = key, .q = q, .nq = 1};
    http_response resp;
    int rc = s3_do(c, &call, &resp);
    if (!rc) {
        *upload_id = xml_text((const char *)resp.body.p, (const char *)resp.body.p + resp.body.len, "UploadId");
        if (!*upload_id)
            rc = err_set(ERR_S3_ERROR, "CreateMultipartUpload for '%s' returned no UploadId", key);
    }
    http_response_free(&resp);
    return rc;
}

int s3_multipart_part(s3_client *c, const char *key, const char *upload_id, int part, const void *data, size_t n,
                      char **etag)
{
    char num[16];
    snprintf(num, sizeof num, "%d", part);
    sigv4_kv q[] = {{"partNumber", num}, {"uploadId", upload_id}};
    s3_call call = {.method = "PUT", .key = key, .q = q, .nq = 2, .body = data, .body_len = n};
    http_response resp;
    int rc = s3_do(c, &call, &resp);
    if (!rc) {
        if (!resp.etag[0])
            rc = err_set(ERR_S3_ERROR, "UploadPart %d of '%s' returned no ETag", part, key);
        else
            *etag = xstrdup(resp.etag);
    }
    http_response_free(&resp);
    return rc;
}

/* S3 may answer 200 and still fail CompleteMultipartUpload / DeleteObjects in the body. */
static int body_error(const http_response *resp, const char *what)
{
    const char *b = (const char *)resp->body.p, *e = b + resp->body.len;
    const char *v;
    size_t vl;
    if (!xml_find(b, e, "Error", &v, &vl, NULL))
        return 0;
    buf m = {0};
    http_s3_error_text(v, vl, &m);
    err_set(ERR_S3_ERROR, "%s: %s", what, buf_cstr(&m));
    buf_free(&m);
    return -1;
}

int s3_multipart_complete(s3_client *c, const char *key, const char *upload_id, char *const *etags, int nparts)
{
    buf body = {0};
    buf_puts(&body, "<CompleteMultipartUpload>");
    for (int i = 0; i < nparts; i++)
        buf_printf(&body, "<Part><PartNumber>%d</PartNumber><ETag>%s</ETag></Part>", i + 1, etags[i]);
    buf_puts(&body, "</CompleteMultipartUpload>");
    sigv4_kv q[] = {{"uploadId", upload_id}};
    s3_call call = {.method = "POST", .key = key, .q = q, .nq = 1, .body = body.p, .body_len = body.len};
    http_response resp;
    int rc = s3_do(c, &call, &resp);
    if (!rc)
        rc = body_error(&resp, "CompleteMultipartUpload failed");
    http_response_free(&resp);
    buf_free(&body);
    return rc;
}

int s3_multipart_abort(s3_client *c, const char *key, const char *upload_id)
{
    sigv4_kv q[] = {{"uploadId", upload_id}};
    s3_call call = {.method = "DELETE", .key = key, .q = q, .nq = 1};
    http_response resp;
    int rc = s3_do(c, &call, &resp);
    http_response_free(&resp);
    return rc;
}

static void xml_escape(buf *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': buf_puts(out, "&amp;"); break;
        case '<': buf_puts(out, "&lt;"); break;
        case '>': buf_puts(out, "&gt;"); break;
        case '"': buf_puts(out, "&quot;"); break;
        case '\'': buf_puts(out, "&apos;"); break;
        default: buf_putc(out, *s);
        }
    }
}

int s3_delete_objects(s3_client *c, char *const *keys, size_t n)
{
    for (size_t at = 0; at < n; at += 1000) {
        size_t m = n - at < 1000 ? n - at : 1000;
        buf body = {0};
        buf_puts(&body, "<Delete><Quiet>true</Quiet>");
        for (size_t i = 0; i < m; i++) {
            buf_puts(&body, "<Object><Key>");
            xml_escape(&body, keys[at + i]);
            buf_puts(&body, "</Key></Object>");
        }
        buf_puts(&body, "</Delete>");
        unsigned char md[16];
        crypto_md5(body.p, body.len, md);
        char md5[32];
        crypto_base64(md, 16, md5);
        sigv4_kv q[] = {{"delete", ""}};
        s3_call call = {.method = "POST", .q = q, .nq = 1, .body = body.p, .body_len = body.len, .content_md5 = md5};
        http_response resp;
        int rc = s3_do(c, &call, &resp);
        if (!rc)
            rc = body_error(&resp, "DeleteObjects failed");
        http_response_free(&resp);
        buf_free(&body);
        if (rc)
            return -1;
    }
    return 0;
}

/* ---- reading stream: parallel ranged GETs, delivered in order ----
 *
 * Pieces k = 0..npieces-1 are fetched by nthreads workers into a ring of nslots =
 * nthreads + 1 buffers: a worker claims the next piece (in order) only once the reader
 * has consumed the piece that last used its slot (k < cur + nslots), so at most nslots
 * pieces are in memory and the reader never waits on a piece that nobody claimed (a
 * failed fetch stops further claims, but every claimed piece before it completes). With
 * nthreads = 0 the reader fetches each piece itself (synchronous reads). */

enum { SLOT_EMPTY, SLOT_READY, SLOT_FAILED };

typedef struct slot {
    uint8_t *p;
    size_t len;
    int state;
    err_saved err;
} slot;

typedef struct s3_in {
    instream base;
    s3_client *c;
    char *key;
    char *etag;
    char *url;
    char seen_etag[136]; /* with etag NULL: the ETag of the first piece received (under mu) */
    uint64_t size;
    size_t piece;
    uint64_t npieces;
    int nslots;
    slot *slots;
    int nthreads;
    int nstarted;
    pthread_t *threads;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool stop;           /* close(): workers quit, transfers are cut short */
    bool failed;         /* a fetch failed: no more claims */
    uint64_t next_fetch; /* next piece to claim */
    uint64_t cur;        /* piece being consumed */
    size_t pos;          /* within it */
} s3_in;

typedef struct fill_ctx {
    slot *s;
    size_t cap;
    s3_in *in;
} fill_ctx;

static int fill(void *ctx, const void *p, size_t n)
{
    fill_ctx *f = ctx;
    if (f->s->len + n > f->cap)
        return err_set(ERR_S3_ERROR, "Server sent more bytes than asked for in a ranged GET of %s", f->in->url);
    memcpy(f->s->p + f->s->len, p, n);
    f->s->len += n;
    if (f->in->nthreads == 0)
        return 0;
    pthread_mutex_lock(&f->in->mu);
    bool stop = f->in->stop;
    pthread_mutex_unlock(&f->in->mu);
    return stop ? err_set(ERR_QUERY_WAS_CANCELLED, "cancelled") : 0;
}

/* Fetches piece k into s (no lock held); 0 or -1 with err_set. */
static int fetch_piece(s3_in *in, uint64_t k, slot *s)
{
    uint64_t from = k * in->piece;
    uint64_t to = from + in->piece - 1 < in->size - 1 ? from + in->piece - 1 : in->size - 1;
    size_t want = (size_t)(to - from + 1);
    if (!s->p)
        s->p = xmalloc(in->piece);
    s->len = 0;
    fill_ctx fc = {.s = s, .cap = want, .in = in};
    char expect[136] = "", got[136] = "";
    if (!in->etag) {
        if (in->nthreads)
            pthread_mutex_lock(&in->mu);
        memcpy(expect, in->seen_etag, sizeof expect);
        if (in->nthreads)
            pthread_mutex_unlock(&in->mu);
    }
    const char *etag = in->etag ? in->etag : expect[0] ? expect : NULL;
    int rc = get_range(in->c, in->key, etag, from, to, fill, &fc, got);
    if (!rc && !in->etag && got[0]) {
        /* pieces fetched before the first ETag was known are checked here */
        if (in->nthreads)
            pthread_mutex_lock(&in->mu);
        if (!in->seen_etag[0])
            memcpy(in->seen_etag, got, sizeof got);
        else if (strcmp(in->seen_etag, got) != 0)
            rc = err_set(ERR_S3_ERROR,
                         "Object %s changed while it was being read: bytes from %llu came with ETag %s, earlier ones with %s; "
                         "not mixing data of two versions",
                         in->url, (unsigned long long)from, got, in->seen_etag);
        if (in->nthreads)
            pthread_mutex_unlock(&in->mu);
    }
    if (!rc && s->len != want)
        rc = err_set(ERR_CANNOT_READ_ALL_DATA,
                     "Object %s is shorter than listed: got %zu of %zu bytes at offset %llu (did it change?)", in->url,
                     s->len, want, (unsigned long long)from);
    return rc;
}

static void *fetch_main(void *arg)
{
    s3_in *in = arg;
    pthread_mutex_lock(&in->mu);
    for (;;) {
        while (!in->stop && !in->failed && in->next_fetch < in->npieces &&
               in->next_fetch >= in->cur + (uint64_t)in->nslots)
            pthread_cond_wait(&in->cv, &in->mu);
        if (in->stop || in->failed || in->next_fetch >= in->npieces)
            break;
        uint64_t k = in->next_fetch++;
        slot *s = &in->slots[k % (uint64_t)in->nslots];
        pthread_mutex_unlock(&in->mu);
        int rc = fetch_piece(in, k, s);
        if (rc)
            err_save(&s->err);
        pthread_mutex_lock(&in->mu);
        s->state = rc ? SLOT_FAILED : SLOT_READY;
        if (rc)
            in->failed = true;
        pthread_cond_broadcast(&in->cv);
    }
    pthread_mutex_unlock(&in->mu);
    return NULL;
}

static uint64_t elapsed_ns(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (uint64_t)((t1.tv_sec - t0->tv_sec) * 1000000000LL + (t1.tv_nsec - t0->tv_nsec));
}

static int s3_in_read(instream *base, void *dst, size_t cap, size_t *got)
{
    s3_in *in = (s3_in *)base;
    *got = 0;
    while (*got < cap && in->cur < in->npieces) {
        slot *s = &in->slots[in->cur % (uint64_t)in->nslots];
        int st;
        if (in->nthreads == 0) {
            if (s->state == SLOT_EMPTY) {
                struct timespec t0;
                clock_gettime(CLOCK_MONOTONIC, &t0);
                int rc = fetch_piece(in, in->cur, s);
                if (in->c->counters)
                    atomic_fetch_add(&in->c->counters->wait_ns, elapsed_ns(&t0));
                if (rc) {
                    err_save(&s->err);
                    s->state = SLOT_FAILED;
                } else {
                    s->state = SLOT_READY;
                }
            }
            st = s->state;
        } else {
            pthread_mutex_lock(&in->mu);
            if (s->state == SLOT_EMPTY) {
                struct timespec t0;
                clock_gettime(CLOCK_MONOTONIC, &t0);
                while (s->state == SLOT_EMPTY)
                    pthread_cond_wait(&in->cv, &in->mu);
                if (in->c->counters)
                    atomic_fetch_add(&in->c->counters->wait_ns, elapsed_ns(&t0));
            }
            st = s->state;
            pthread_mutex_unlock(&in->mu);
        }
        if (st == SLOT_FAILED) {
            if (*got)
                break; /* deliver what we have; the error comes with the next read */
            return err_restore(&s->err);
        }
        size_t n = s->len - in->pos;
        if (n > cap - *got)
            n = cap - *got;
        memcpy((char *)dst + *got, s->p + in->pos, n);
        *got += n;
        in->pos += n;
        if (in->pos == s->len) {
            if (in->nthreads)
                pthread_mutex_lock(&in->mu);
            s->state = SLOT_EMPTY;
            in->cur++;
            in->pos = 0;
            if (in->nthreads) {
                pthread_cond_broadcast(&in->cv);
                pthread_mutex_unlock(&in->mu);
            }
        }
    }
    in->base.offset += *got;
    return 0;
}

static void s3_in_close(instream *base)
{
    s3_in *in = (s3_in *)base;
    if (in->nstarted) {
        pthread_mutex_lock(&in->mu);
        in->stop = true;
        pthread_cond_broadcast(&in->cv);
        pthread_mutex_unlock(&in->mu);
        for (int i = 0; i < in->nstarted; i++)
            pthread_join(in->threads[i], NULL);
    }
    pthread_mutex_destroy(&in->mu);
    pthread_cond_destroy(&in->cv);
    for (int i = 0; i < in->nslots; i++)
        free(in->slots[i].p);
    free(in->slots);
    free(in->threads);
    free(in->key);
    free(in->etag);
    free(in->url);
    free(in);
}

int instream_open_s3_opts(s3_client *c, const char *key, uint64_t size, const char *etag, const s3_read_opts *o,
                          instream **out)
{
    s3_in *in = xcalloc(1, sizeof *in);
    in->c = c;
    in->key = xstrdup(key);
    in->etag = etag ? xstrdup(etag) : NULL;
    in->url = s3_object_url(c, key);
    in->size = size;
    size_t piece = o->piece ? o->piece : 10u << 20;
    int threads = o->threads > 0 ? o->threads : 1;
    if (size <= 2 * (uint64_t)piece) {
        /* small objects: one background prefetch, one buffer of their size if it fits */
        threads = 1;
        if (size && size < piece)
            piece = (size_t)size;
    }
    in->piece = piece;
    in->npieces = size ? (size + piece - 1) / piece : 0;
    if (o->sync)
        threads = 0;
    if ((uint64_t)threads > in->npieces)
        threads = (int)in->npieces;
    in->nthreads = threads;
    in->nslots = threads + 1;
    in->slots = xcalloc((size_t)in->nslots, sizeof *in->slots);
    in->threads = xcalloc((size_t)threads + 1, sizeof *in->threads);
    pthread_mutex_init(&in->mu, NULL);
    pthread_cond_init(&in->cv, NULL);
    in->base.read = s3_in_read;
    in->base.close = s3_in_close;
    in->base.name = in->url;
    in->base.size_hint = size;
    for (int i = 0; i < threads; i++) {
        if (pthread_create(&in->threads[i], NULL, fetch_main, in) != 0) {
            s3_in_close(&in->base);
            return err_set(ERR_S3_ERROR, "Cannot start a download thread for %s", key);
        }
        in->nstarted++;
    }
    *out = &in->base;
    return 0;
}

int instream_open_s3(s3_client *c, const char *key, uint64_t size, const char *etag, size_t piece, instream **out)
{
    s3_read_opts o = {.piece = piece ? piece : 8u << 20, .threads = 1};
    return instream_open_s3_opts(c, key, size, etag, &o, out);
}

/* ---- writing stream: PUT or parallel multipart upload ---- */

typedef struct s3_part {
    s3_out *out;
    int num;          /* 1-based */
    buf data;
    char *etag;
    int rc;
    err_saved err;
    pthread_t thread;
    bool running;     /* a thread was started and not yet joined */
    _Atomic bool done;
} s3_part;

struct s3_out {
    outstream base;
    s3_client *c;
    char *key;
    char *url;
    s3_write_opts o;
    buf cur;
    char *upload_id;
    s3_part **parts;
    int nparts;
    int joined;       /* parts [0, joined) are finished and checked */
    bool failed;
    err_saved err;
};

static void *part_main(void *arg)
{
    s3_part *p = arg;
    p->rc = s3_multipart_part(p->out->c, p->out->key, p->out->upload_id, p->num, p->data.p, p->data.len, &p->etag);
    if (p->rc)
        err_save(&p->err);
    atomic_store(&p->done, true);
    return NULL;
}

/* Waits for the oldest part in flight; -1 (with its error) if it failed. */
static int join_oldest(s3_out *w)
{
    s3_part *p = w->parts[w->joined++];
    if (p->running) {
        pthread_join(p->thread, NULL);
        p->running = false;
    }
    buf_free(&p->data);
    if (p->rc && !w->failed) {
        w->failed = true;
        w->err = p->err;
    }
    return p->rc ? -1 : 0;
}

static uint64_t part_size(const s3_out *w, int num)
{
    uint64_t sz = w->o.min_part;
    for (uint64_t k = (uint64_t)(num - 1) / w->o.threshold; k > 0 && sz < w->o.max_part; k--)
        sz *= w->o.factor;
    return sz < w->o.max_part ? sz : w->o.max_part;
}

static int launch_part(s3_out *w)
{
    if (!w->upload_id && s3_multipart_create(w->c, w->key, &w->upload_id))
        return -1;
    if (w->nparts == 10000)
        return err_set(ERR_S3_ERROR, "Cannot write %s: more than 10000 parts (raise s3_min_upload_part_size)", w->url);
    while (w->nparts - w->joined >= w->o.max_inflight)
        if (join_oldest(w))
            return err_restore(&w->err);
    s3_part *p = xcalloc(1, sizeof *p);
    p->out = w;
    p->num = w->nparts + 1;
    p->data = w->cur;
    memset(&w->cur, 0, sizeof w->cur);
    w->parts = xrealloc(w->parts, sizeof *w->parts * (size_t)(w->nparts + 1));
    w->parts[w->nparts++] = p;
    if (pthread_create(&p->thread, NULL, part_main, p) != 0) {
        part_main(p); /* no thread: upload it here */
    } else {
        p->running = true;
    }
    return 0;
}

static int s3_out_write(outstream *base, const void *src, size_t n)
{
    s3_out *w = (s3_out *)base;
    if (w->failed)
        return err_restore(&w->err);
    buf_append(&w->cur, src, n);
    w->base.offset += n;
    uint64_t limit = w->upload_id ? part_size(w, w->nparts + 1) : w->o.max_single;
    if (w->cur.len > limit || (w->upload_id && w->cur.len == limit))
        return launch_part(w);
    /* a part that finished early reports its failure without waiting for the next launch */
    if (w->joined < w->nparts && atomic_load(&w->parts[w->joined]->done))
        return join_oldest(w) ? err_restore(&w->err) : 0;
    return 0;
}

static void s3_out_free(s3_out *w)
{
    for (int i = 0; i < w->nparts; i++) {
        buf_free(&w->parts[i]->data);
        free(w->parts[i]->etag);
        free(w->parts[i]);
    }
    free(w->parts);
    buf_free(&w->cur);
    free(w->upload_id);
    free(w->key);
    free(w->url);
    free(w);
}

void outstream_s3_abort(outstream *base)
{
    s3_out *w = (s3_out *)base;
    err_saved keep;
    err_save(&keep);
    while (w->joined < w->nparts)
        join_oldest(w);
    if (w->upload_id)
        s3_multipart_abort(w->c, w->key, w->upload_id); /* best effort: the error is already set */
    err_restore(&keep);
    s3_out_free(w);
}

static int s3_out_close(outstream *base)
{
    s3_out *w = (s3_out *)base;
    int rc = 0;
    if (!w->upload_id) {
        rc = s3_put(w->c, w->key, w->cur.p, w->cur.len);
        if (rc)
            err_prefix("Cannot write object %s: ", w->url);
        s3_out_free(w);
        return rc;
    }
    if (w->failed || (w->cur.len && launch_part(w))) {
        if (w->failed)
            err_restore(&w->err);
        outstream_s3_abort(base);
        return -1;
    }
    while (w->joined < w->nparts)
        if (join_oldest(w))
            rc = -1;
    if (rc) {
        err_restore(&w->err);
        outstream_s3_abort(base);
        return -1;
    }
    char **etags = xcalloc((size_t)w->nparts, sizeof *etags);
    for (int i = 0; i < w->nparts; i++)
        etags[i] = w->parts[i]->etag;
    rc = s3_multipart_complete(w->c, w->key, w->upload_id, etags, w->nparts);
    free(etags);
    if (rc) {
        err_prefix("Cannot complete the upload of %s: ", w->url);
        outstream_s3_abort(base);
        return -1;
    }
    s3_out_free(w);
    return 0;
}

int outstream_open_s3(s3_client *c, const char *key, const s3_write_opts *o, outstream **out)
{
    s3_out *w = xcalloc(1, sizeof *w);
    w->c = c;
    w->key = xstrdup(key);
    w->url = s3_object_url(c, key);
    w->o = *o;
    if (!w->o.min_part)
        w->o.min_part = 16u << 20;
    if (!w->o.max_part)
        w->o.max_part = 5ull << 30;
    if (w->o.max_part < w->o.min_part)
        w->o.max_part = w->o.min_part;
    if (w->o.factor < 1)
        w->o.factor = 2;
    if (!w->o.threshold)
        w->o.threshold = 500;
    if (!w->o.max_single)
        w->o.max_single = 32u << 20;
    if (w->o.max_inflight <= 0)
        w->o.max_inflight = 20;
    w->base.write = s3_out_write;
    w->base.close = s3_out_close;
    w->base.name = w->url;
    *out = &w->base;
    return 0;
}
