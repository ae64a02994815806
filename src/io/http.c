/* HTTP requests with retries on libcurl; see http.h. */
#include "io/http.h"

#include "base/err.h"
#include "base/lazylib.h"
#include "base/mem.h"
#include "io/xml.h"

#include <curl/curl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

void http_headers_add(http_headers *h, const char *name, const char *value)
{
    h->v = xrealloc(h->v, sizeof *h->v * (size_t)(h->n + 1));
    size_t len = strlen(name) + strlen(value) + 3;
    h->v[h->n] = xmalloc(len);
    snprintf(h->v[h->n], len, "%s: %s", name, value);
    h->n++;
}

void http_headers_free(http_headers *h)
{
    for (int i = 0; i < h->n; i++)
        free(h->v[i]);
    free(h->v);
    h->v = NULL;
    h->n = 0;
}

void http_response_free(http_response *resp) { buf_free(&resp->body); }

/* ---- libcurl, loaded on first use (base/lazylib.h) ---- */

static struct {
    __typeof__(curl_global_init) *global_init;
    __typeof__(curl_easy_init) *easy_init;
    __typeof__(curl_easy_reset) *easy_reset;
    __typeof__(curl_easy_cleanup) *easy_cleanup;
    __typeof__(curl_easy_setopt) *easy_setopt;
    __typeof__(curl_easy_getinfo) *easy_getinfo;
    __typeof__(curl_easy_perform) *easy_perform;
    __typeof__(curl_easy_strerror) *easy_strerror;
    __typeof__(curl_slist_append) *slist_append;
    __typeof__(curl_slist_free_all) *slist_free_all;
    __typeof__(curl_multi_init) *multi_init;
    __typeof__(curl_multi_cleanup) *multi_cleanup;
    __typeof__(curl_multi_add_handle) *multi_add_handle;
    __typeof__(curl_multi_remove_handle) *multi_remove_handle;
    __typeof__(curl_multi_perform) *multi_perform;
    __typeof__(curl_multi_poll) *multi_poll;
    __typeof__(curl_multi_wakeup) *multi_wakeup;
    __typeof__(curl_multi_info_read) *multi_info_read;
} curl;

static const lazy_sym curl_syms[] = {
    {"curl_global_init", (void **)&curl.global_init},
    {"curl_easy_init", (void **)&curl.easy_init},
    {"curl_easy_reset", (void **)&curl.easy_reset},
    {"curl_easy_cleanup", (void **)&curl.easy_cleanup},
    {"curl_easy_setopt", (void **)&curl.easy_setopt},
    {"curl_easy_getinfo", (void **)&curl.easy_getinfo},
    {"curl_easy_perform", (void **)&curl.easy_perform},
    {"curl_easy_strerror", (void **)&curl.easy_strerror},
    {"curl_slist_append", (void **)&curl.slist_append},
    {"curl_slist_free_all", (void **)&curl.slist_free_all},
    {"curl_multi_init", (void **)&curl.multi_init},
    {"curl_multi_cleanup", (void **)&curl.multi_cleanup},
    {"curl_multi_add_handle", (void **)&curl.multi_add_handle},
    {"curl_multi_remove_handle", (void **)&curl.multi_remove_handle},
    {"curl_multi_perform", (void **)&curl.multi_perform},
    {"curl_multi_poll", (void **)&curl.multi_poll},
    {"curl_multi_wakeup", (void **)&curl.multi_wakeup},
    {"curl_multi_info_read", (void **)&curl.multi_info_read},
    {NULL, NULL},
};

static lazylib curl_lib = LAZYLIB_INIT("libcurl.so.4", "s3(), url() and other HTTP access", curl_syms);

/* ---- one easy handle per thread ---- */

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static pthread_key_t g_key;

static void free_handle(void *h) { curl.easy_cleanup(h); }

static void global_init(void)
{
    curl.global_init(CURL_GLOBAL_DEFAULT);
    pthread_key_create(&g_key, free_handle);
}

int http_load(void)
{
    if (lazylib_load(&curl_lib))
        return -1;
    pthread_once(&g_once, global_init);
    return 0;
}

static CURL *thread_handle(void)
{
    pthread_once(&g_once, global_init);
    CURL *h = pthread_getspecific(g_key);
    if (!h) {
        h = curl.easy_init();
        pthread_setspecific(g_key, h);
    } else {
        curl.easy_reset(h); /* options go, the connection cache stays */
    }
    return h;
}

uint64_t http_backoff_ms(int attempt, uint64_t cap_ms) { return http_backoff_ms_from(attempt, 100, cap_ms); }

uint64_t http_backoff_ms_from(int attempt, uint64_t initial_ms, uint64_t cap_ms)
{
    static _Thread_local unsigned seed;
    if (!seed)
        seed = (unsigned)time(NULL) ^ (unsigned)(uintptr_t)&seed;
    uint64_t max = initial_ms ? initial_ms : 1;
    for (int i = 0; i < attempt && max < cap_ms; i++)
        max *= 2;
    if (max > cap_ms)
        max = cap_ms;
    return max ? (uint64_t)rand_r(&seed) % (max + 1) : 0;
}

bool http_s3_error_text(const char *body, size_t n, buf *out)
{
    if (!body || !n)
        return false;
    char *code = xml_text(body, body + n, "Code");
    if (!code)
        return false;
    char *msg = xml_text(body, body + n, "Message");
    if (msg && *msg)
        buf_printf(out, "%s (%s)", msg, code);
    else
        buf_printf(out, "%s", code);
    free(code);
    free(msg);
    return true;
}

/* ---- the endpoint limiter ---- */

enum { LIMIT_MAX = 1024, LIMIT_ENDPOINTS = 256 };

typedef struct endpoint {
    char key[200];
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint64_t not_before_ns; /* CLOCK_MONOTONIC */
    double budget;          /* concurrent requests allowed */
    int inflight;
    int streak;             /* consecutive SlowDowns: the shared backoff grows with it */
    uint64_t last_cut_ns;   /* last halving: one halving per burst of SlowDowns */
    uint64_t slowdowns, waits;
} endpoint;

static pthread_mutex_t g_ep_mu = PTHREAD_MUTEX_INITIALIZER;
static endpoint *g_eps[LIMIT_ENDPOINTS];
static int g_neps;

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

void http_endpoint_key(const char *url, char *out, size_t cap)
{
    const char *p = strstr(url, "://");
    if (!p) {
        snprintf(out, cap, "%s", url);
        return;
    }
    size_t sl = (size_t)(p - url);
    const char *auth = p + 3;
    size_t al = strcspn(auth, "/?#");
    bool has_port = memchr(auth, ':', al) != NULL && auth[0] != '[';
    const char *port = (sl == 5 && strncasecmp(url, "https", 5) == 0) ? "443" : "80";
    snprintf(out, cap, "%.*s://%.*s%s%s", (int)sl, url, (int)al, auth, has_port ? "" : ":", has_port ? "" : port);
    for (char *c = out; *c && c < out + sl; c++)
        *c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
}

static endpoint *find_endpoint(const char *url, bool create)
{
    /* SHALE_S3_NO_ENDPOINT_LIMITER=1: every request backs off on its own (for comparisons in tests) */
    static int disabled = -1;
    if (disabled < 0) {
        const char *v = getenv("SHALE_S3_NO_ENDPOINT_LIMITER");
        disabled = v && *v && strcmp(v, "0") != 0;
    }
    if (disabled && create)
        return NULL;
    char key[200];
    http_endpoint_key(url, key, sizeof key);
    pthread_mutex_lock(&g_ep_mu);
    endpoint *e = NULL;
    for (int i = 0; i < g_neps && !e; i++)
        if (strcmp(g_eps[i]->key, key) == 0)
            e = g_eps[i];
    if (!e && create && g_neps < LIMIT_ENDPOINTS) {
        e = xcalloc(1, sizeof *e);
        snprintf(e->key, sizeof e->key, "%s", key);
        pthread_mutex_init(&e->mu, NULL);
        pthread_condattr_t ca;
        pthread_condattr_init(&ca);
        pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
        pthread_cond_init(&e->cv, &ca);
        pthread_condattr_destroy(&ca);
        e->budget = LIMIT_MAX;
        g_eps[g_neps++] = e;
    }
    pthread_mutex_unlock(&g_ep_mu);
    return e; /* NULL when the table is full: no shared limiting for that endpoint */
}

bool http_limiter_get(const char *url, http_limiter_state *out)
{
    endpoint *e = find_endpoint(url, false);
    if (!e)
        return false;
    pthread_mutex_lock(&e->mu);
    *out = (http_limiter_state){.budget = e->budget, .inflight = e->inflight, .slowdowns = e->slowdowns,
                                .waits = e->waits};
    pthread_mutex_unlock(&e->mu);
    return true;
}

/* Waits until the endpoint lets one more request start; false if deadline_ns (0: none)
 * comes first. */
static bool limiter_enter(endpoint *e, uint64_t deadline_ns)
{
    if (!e)
        return true;
    pthread_mutex_lock(&e->mu);
    bool waited = false;
    for (;;) {
        uint64_t now = now_ns();
        if (now >= e->not_before_ns && e->inflight < (int)e->budget)
            break;
        if (deadline_ns && now >= deadline_ns) {
            pthread_mutex_unlock(&e->mu);
            return false;
        }
        waited = true;
        uint64_t until = now + 100000000u; /* re-check at least every 100 ms */
        if (now < e->not_before_ns && e->not_before_ns < until)
            until = e->not_before_ns;
        if (deadline_ns && deadline_ns < until)
            until = deadline_ns;
        struct timespec ts = {.tv_sec = (time_t)(until / 1000000000u), .tv_nsec = (long)(until % 1000000000u)};
        pthread_cond_timedwait(&e->cv, &e->mu, &ts);
    }
    if (waited)
        e->waits++;
    e->inflight++;
    pthread_mutex_unlock(&e->mu);
    return true;
}

enum { OUT_OK, OUT_SLOWDOWN, OUT_NETWORK, OUT_OTHER };

/* started_ns: when the attempt entered (limiter_enter's time). */
static void limiter_leave(endpoint *e, int outcome, uint64_t started_ns, uint64_t initial_ms, uint64_t cap_ms,
                          bool slow_all)
{
    if (!e)
        return;
    pthread_mutex_lock(&e->mu);
    int inflight = e->inflight--;
    uint64_t now = now_ns();
    if (outcome == OUT_SLOWDOWN) {
        e->slowdowns++;
        /* Multiplicative decrease, once per window: the answers to requests that were
         * already in flight at the last cut say nothing about the new budget. */
        if (started_ns >= e->last_cut_ns) {
            double b = (double)inflight < e->budget ? (double)inflight : e->budget;
            e->budget = b / 2 < 1 ? 1 : b / 2;
            e->last_cut_ns = now;
            e->streak++;
        }
        uint64_t nb = now + http_backoff_ms_from(e->streak - 1, initial_ms, cap_ms) * 1000000u;
        if (nb > e->not_before_ns)
            e->not_before_ns = nb;
    } else if (outcome == OUT_NETWORK && slow_all) {
        uint64_t nb = now + http_backoff_ms_from(0, initial_ms, cap_ms) * 1000000u;
        if (nb > e->not_before_ns)
            e->not_before_ns = nb;
    } else if (outcome == OUT_OK) {
        e->streak = 0;
        if (e->budget < LIMIT_MAX)
            e->budget += 0.2 / e->budget; /* additive increase: +1 per 5 x budget successes */
        if (e->budget > LIMIT_MAX)
            e->budget = LIMIT_MAX;
    }
    pthread_cond_broadcast(&e->cv);
    pthread_mutex_unlock(&e->mu);
}

/* ---- SHALE_HTTP_TRACE: one line per attempt on stderr ---- */

/* The process's start on CLOCK_MONOTONIC (taken before main), so that trace times compare
 * with a whole process's wall time. */
static uint64_t g_process_start_ns;
__attribute__((constructor)) static void note_process_start(void) { g_process_start_ns = now_ns(); }

static bool trace_on(void)
{
    static _Atomic int on = -1; /* threads may race to set it, to the same value */
    int v = atomic_load_explicit(&on, memory_order_relaxed);
    if (v < 0) {
        const char *e = getenv("SHALE_HTTP_TRACE");
        v = e && *e && strcmp(e, "0") != 0;
        atomic_store_explicit(&on, v, memory_order_relaxed);
    }
    return v;
}

void http_trace_note(const char *what)
{
    if (trace_on())
        fprintf(stderr, "http: %.4f %s\n", (double)(now_ns() - g_process_start_ns) / 1e9, what);
}

/* "http: 0.1203 0.1391 +conn GET 206 <url> bytes=a-b 1234 B": start and end of the attempt in
 * seconds since the process started, whether it opened a connection, status, body bytes. */
static void trace_attempt(CURL *h, const char *method, const char *url, const char *range, uint64_t started_ns,
                          long status, uint64_t bytes)
{
    long conns = 0;
    curl.easy_getinfo(h, CURLINFO_NUM_CONNECTS, &conns);
    fprintf(stderr, "http: %.4f %.4f %s %s %ld %s %s %llu B\n", (double)(started_ns - g_process_start_ns) / 1e9,
            (double)(now_ns() - g_process_start_ns) / 1e9, conns ? "+conn" : "reuse", method, status, url,
            range ? range : "-", (unsigned long long)bytes);
}

/* ---- one attempt ---- */

typedef struct attempt {
    const http_request *r;
    http_response *resp;
    CURL *h;
    bool ranged;            /* sent a Range header: range */
    char range[64];
    uint64_t t0;            /* when it started, for SHALE_HTTP_TRACE (0: no trace) */
    long status;            /* of the final response, once known */
    bool error_body;        /* status >= 300: collect the body for the message */
    buf err;
    uint64_t expect_from;   /* the first byte this attempt must deliver */
    uint64_t got;           /* bytes delivered by this attempt */
    uint64_t want;          /* bytes this attempt may deliver (UINT64_MAX: all) */
    bool range_checked;
    bool callback_failed;
    bool etag_changed;
    char want_etag[136];    /* the ETag every 2xx response must carry ("": any) */
    err_saved cb_err;
} attempt;

static size_t on_header(char *p, size_t size, size_t n, void *ctx)
{
    attempt *a = ctx;
    size_t len = size * n;
    if (len >= 5 && memcmp(p, "HTTP/", 5) == 0) {
        /* a new response (after 100 Continue or a redirect): forget earlier headers */
        a->resp->content_length = -1;
        a->resp->total_size = 0;
        a->resp->etag[0] = 0;
        return len;
    }
    const char *colon = memchr(p, ':', len);
    if (!colon)
        return len;
    size_t nl = (size_t)(colon - p);
    const char *v = colon + 1;
    const char *end = p + len;
    while (v < end && (*v == ' ' || *v == '\t'))
        v++;
    while (end > v && (end[-1] == '\r' || end[-1] == '\n' || end[-1] == ' '))
        end--;
    size_t vl = (size_t)(end - v);
    char val[160];
    if (vl >= sizeof val)
        vl = sizeof val - 1;
    memcpy(val, v, vl);
    val[vl] = 0;
    if (nl == 14 && strncasecmp(p, "content-length", 14) == 0) {
        a->resp->content_length = strtoll(val, NULL, 10);
    } else if (nl == 13 && strncasecmp(p, "content-range", 13) == 0) {
        const char *slash = strchr(val, '/');
        if (slash && slash[1] != '*')
            a->resp->total_size = strtoull(slash + 1, NULL, 10);
        /* "bytes a-b/N": check that the server starts where we asked */
        unsigned long long from = 0;
        if (sscanf(val, "bytes %llu-", &from) == 1 && from != a->expect_from)
            a->range_checked = false;
        else
            a->range_checked = true;
    } else if (nl == 4 && strncasecmp(p, "etag", 4) == 0) {
        snprintf(a->resp->etag, sizeof a->resp->etag, "%s", val);
    }
    return len;
}

static size_t on_body(char *p, size_t size, size_t n, void *ctx)
{
    attempt *a = ctx;
    size_t len = size * n;
    if (!a->status)
        curl.easy_getinfo(a->h, CURLINFO_RESPONSE_CODE, &a->status);
    if (a->status >= 300) {
        a->error_body = true;
        if (a->err.len < (64 << 10))
            buf_append(&a->err, p, len);
        return len;
    }
    if (a->got == 0 && a->status >= 200 && a->status < 300) {
        /* first body byte of this attempt: the object must be the one we started with */
        if (a->want_etag[0] && a->resp->etag[0] && strcmp(a->want_etag, a->resp->etag) != 0) {
            a->etag_changed = true;
            return 0;
        }
        if (a->resp->delivered == 0)
            snprintf(a->resp->first_etag, sizeof a->resp->first_etag, "%s", a->resp->etag);
    }
    if (a->r->has_range || a->expect_from > 0) {
        if (a->status == 206 && !a->range_checked)
            return 0; /* Content-Range does not start where asked: fail, retry */
        if (a->status == 200 && a->expect_from > 0)
            return 0; /* server ignored Range on a resumed request */
    }
    size_t take = len;
    if (a->got + take > a->want)
        take = (size_t)(a->want - a->got); /* a 200 to a ranged request: stop at the end */
    if (take) {
        if (a->r->on_data) {
            if (a->r->on_data(a->r->data_ctx, p, take)) {
                a->callback_failed = true;
                err_save(&a->cb_err);
                return 0;
            }
        } else {
            buf_append(&a->resp->body, p, take);
        }
    }
    a->got += take;
    a->resp->delivered += take;
    if (a->r->counters)
        atomic_fetch_add(&a->r->counters->bytes_in, len);
    return len;
}

static void count_request(const http_request *r)
{
    http_counters *c = r->counters;
    if (!c)
        return;
    const char *m = r->method;
    if (strcmp(m, "GET") == 0)
        atomic_fetch_add(&c->get, 1);
    else if (strcmp(m, "HEAD") == 0)
        atomic_fetch_add(&c->head, 1);
    else if (strcmp(m, "PUT") == 0)
        atomic_fetch_add(&c->put, 1);
    else if (strcmp(m, "POST") == 0)
        atomic_fetch_add(&c->post, 1);
    else if (strcmp(m, "DELETE") == 0)
        atomic_fetch_add(&c->del, 1);
    if (r->body_len)
        atomic_fetch_add(&c->bytes_out, r->body_len);
}

enum { ATT_OK, ATT_RETRY, ATT_FAIL };

typedef struct attempt_result {
    int st;       /* ATT_* */
    int outcome;  /* OUT_* for the limiter */
    bool midbody; /* failed after the body started: counts against max_read_retries */
} attempt_result;

/* Fewer bytes than Content-Length announced (or than the range asked for, when a server
 * answered 200 to a ranged request and we stopped at the range's end). */
static bool short_body(const attempt *a, const http_response *resp)
{
    int64_t expected = resp->content_length;
    if (a->want != UINT64_MAX && (expected < 0 || a->want < (uint64_t)expected))
        expected = resp->content_length < 0 ? -1 : (int64_t)a->want;
    return expected >= 0 && a->got < (uint64_t)expected;
}

/* Prepares one attempt of r on h from byte `from` (ranged: up to `to`, UINT64_MAX for the
 * end): the headers (r->prepare), the options and the callbacks into a, which must stay
 * where it is until the attempt ends. *list: the header list to free after the attempt.
 * Returns 0, or -1 with err_set (prepare failed). */
static int attempt_setup(attempt *a, CURL *h, const http_request *r, http_response *resp, uint64_t from, bool ranged,
                         uint64_t to, struct curl_slist **list)
{
    *a = (attempt){.r = r, .resp = resp, .h = h, .expect_from = from, .want = UINT64_MAX, .ranged = ranged};
    /* a resumed GET must continue the object it started on */
    const char *want = r->expect_etag ? r->expect_etag : resp->delivered ? resp->first_etag : "";
    snprintf(a->want_etag, sizeof a->want_etag, "%s", want);
    resp->content_length = -1;
    resp->total_size = 0;
    resp->etag[0] = 0;
    resp->status = 0;
    const char *range_arg = NULL;
    if (ranged) {
        if (to == UINT64_MAX)
            snprintf(a->range, sizeof a->range, "bytes=%llu-", (unsigned long long)from);
        else
            snprintf(a->range, sizeof a->range, "bytes=%llu-%llu", (unsigned long long)from, (unsigned long long)to);
        range_arg = a->range;
        if (to != UINT64_MAX)
            a->want = to - from + 1;
    }
    http_headers hs = {0};
    if (r->prepare) {
        if (r->prepare(r->prepare_ctx, r->method, range_arg, &hs)) {
            http_headers_free(&hs);
            return -1;
        }
    } else if (range_arg) {
        http_headers_add(&hs, "Range", range_arg);
    }
    *list = NULL;
    for (int i = 0; i < hs.n; i++)
        *list = curl.slist_append(*list, hs.v[i]);
    http_headers_free(&hs);
    *list = curl.slist_append(*list, "Expect:"); /* no 100-continue round trip */
    if (r->body_len || strcmp(r->method, "POST") == 0 || strcmp(r->method, "PUT") == 0)
        *list = curl.slist_append(*list, "Content-Type:");
    curl.easy_setopt(h, CURLOPT_URL, r->url);
    curl.easy_setopt(h, CURLOPT_HTTPHEADER, *list);
    curl.easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(h, CURLOPT_TCP_NODELAY, 1L);
    curl.easy_setopt(h, CURLOPT_BUFFERSIZE, 512L * 1024);
    curl.easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, r->connect_timeout_ms > 0 ? r->connect_timeout_ms : 10000L);
    long stall = r->stall_timeout_ms > 0 ? r->stall_timeout_ms : 30000L;
    curl.easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl.easy_setopt(h, CURLOPT_LOW_SPEED_TIME, (stall + 999) / 1000);
    curl.easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
    curl.easy_setopt(h, CURLOPT_HEADERDATA, a);
    curl.easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
    curl.easy_setopt(h, CURLOPT_WRITEDATA, a);
    if (strcmp(r->method, "HEAD") == 0) {
        curl.easy_setopt(h, CURLOPT_NOBODY, 1L);
    } else if (strcmp(r->method, "GET") != 0) {
        curl.easy_setopt(h, CURLOPT_POSTFIELDS, r->body ? r->body : "");
        curl.easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)r->body_len);
        curl.easy_setopt(h, CURLOPT_CUSTOMREQUEST, r->method);
    }
    return 0;
}

/* The attempt goes on the wire now: counted, and timed for the trace. */
static void attempt_start(attempt *a)
{
    const http_request *r = a->r;
    count_request(r);
    if (r->counters) {
        uint64_t now = atomic_fetch_add(&r->counters->inflight, 1) + 1;
        uint64_t max = atomic_load(&r->counters->max_inflight);
        while (now > max && !atomic_compare_exchange_weak(&r->counters->max_inflight, &max, now))
            ;
    }
    a->t0 = trace_on() ? now_ns() : 0;
}

/* Judges an attempt that ended with rc; ATT_RETRY leaves a message in the thread's error
 * slot for the final error. */
static attempt_result attempt_end(attempt *a, CURLcode rc)
{
    const http_request *r = a->r;
    http_response *resp = a->resp;
    uint64_t from = a->expect_from;
    attempt_result res = {.st = ATT_FAIL, .outcome = OUT_OTHER};
    if (r->counters)
        atomic_fetch_sub(&r->counters->inflight, 1);
    long status = 0;
    curl.easy_getinfo(a->h, CURLINFO_RESPONSE_CODE, &status);
    if (a->t0)
        trace_attempt(a->h, r->method, r->url, a->ranged ? a->range : NULL, a->t0, status, a->got);
    resp->status = status;
    int out;
    const char *etag_now = resp->etag[0] ? resp->etag : "(none)";
    if (a->callback_failed) {
        err_restore(&a->cb_err);
        out = ATT_FAIL;
    } else if (a->etag_changed) {
        err_set(ERR_S3_ERROR,
                "Object %s changed while it was being read: bytes from %llu came with ETag %s, earlier ones with %s; "
                "not mixing data of two versions",
                r->url, (unsigned long long)from, etag_now, a->want_etag);
        out = ATT_FAIL;
    } else if (status == 412 && a->want_etag[0]) {
        err_set(ERR_S3_ERROR,
                "Object %s changed while it was being read: the GET of bytes from %llu failed If-Match: %s "
                "(412 PreconditionFailed); not mixing data of two versions",
                r->url, (unsigned long long)from, a->want_etag);
        out = ATT_FAIL;
    } else if (status >= 300 || (rc == CURLE_OK && status < 200)) {
        buf msg = {0};
        bool slowdown = status == 429;
        bool has_code = http_s3_error_text((const char *)a->err.p, a->err.len, &msg);
        if (has_code && status == 503 && strstr(buf_cstr(&msg), "(SlowDown)"))
            slowdown = true;
        bool retry = status >= 500 || status == 429 || status == 408 || status == 0;
        if (has_code)
            err_set(ERR_S3_ERROR, "%s: HTTP %ld for %s %s", buf_cstr(&msg), status, r->method, r->url);
        else /* HEAD, or a proxy's non-S3 answer: the status is all there is */
            err_set(ERR_S3_ERROR, "HTTP %ld for %s %s", status, r->method, r->url);
        buf_free(&msg);
        out = retry ? ATT_RETRY : ATT_FAIL;
        res.outcome = slowdown ? OUT_SLOWDOWN : OUT_OTHER;
        /* 404 for HEAD and NoSuchKey etc. are definitive */
    } else if (rc != CURLE_OK) {
        err_set(ERR_NETWORK_ERROR, "%s for %s %s (after %llu bytes of the body)", curl.easy_strerror(rc), r->method,
                r->url, (unsigned long long)a->got);
        out = ATT_RETRY;
        res.outcome = OUT_NETWORK;
        res.midbody = a->got > 0 || (status >= 200 && status < 300);
    } else if (strcmp(r->method, "HEAD") != 0 && short_body(a, resp)) {
        err_set(ERR_CANNOT_READ_ALL_DATA, "Truncated body for %s %s: got %llu of the bytes expected", r->method, r->url,
                (unsigned long long)a->got);
        out = ATT_RETRY;
        res.outcome = OUT_NETWORK;
        res.midbody = true;
    } else {
        out = ATT_OK;
        res.outcome = OUT_OK;
    }
    if (out != ATT_OK || !resp->total_size) {
        if (status == 200 && resp->content_length >= 0 && !a->ranged)
            resp->total_size = (uint64_t)resp->content_length;
    }
    buf_free(&a->err);
    res.st = out;
    return res;
}

/* One attempt in this thread's handle. */
static attempt_result run_attempt(const http_request *r, http_response *resp, uint64_t from, bool ranged, uint64_t to)
{
    attempt a;
    struct curl_slist *list;
    if (attempt_setup(&a, thread_handle(), r, resp, from, ranged, to, &list))
        return (attempt_result){.st = ATT_FAIL, .outcome = OUT_OTHER};
    attempt_start(&a);
    CURLcode rc = curl.easy_perform(a.h);
    curl.slist_free_all(list);
    return attempt_end(&a, rc);
}

int http_run(const http_request *r, http_response *resp)
{
    int retries = r->max_retries < 0 ? 0 : r->max_retries == 0 ? 8 : r->max_retries;
    int read_retries = r->max_read_retries < 0 ? 0 : r->max_read_retries == 0 ? 4 : r->max_read_retries;
    uint64_t initial = r->initial_backoff_ms ? r->initial_backoff_ms : 100;
    uint64_t cap = r->max_backoff_ms ? r->max_backoff_ms : 5000;
    if (http_load())
        return -1;
    bool is_get = strcmp(r->method, "GET") == 0;
    endpoint *ep = find_endpoint(r->url, true);
    uint64_t t0 = now_ns();
    uint64_t deadline = r->time_budget_ms ? t0 + r->time_budget_ms * 1000000u : 0;
    int failed = 0, failed_mid = 0; /* retries used of each kind */
    for (int k = 0;; k++) {
        /* resume after the bytes already delivered */
        uint64_t from = (r->has_range ? r->range_from : 0) + resp->delivered;
        bool ranged = r->has_range || (is_get && resp->delivered > 0);
        uint64_t to = r->has_range ? r->range_to : UINT64_MAX;
        if (r->has_range && from > to)
            return 0;
        if (!limiter_enter(ep, deadline)) {
            if (k == 0)
                return err_set(ERR_TIMEOUT_EXCEEDED, "Timed out waiting for the request rate limit of %s for %s %s",
                               ep->key, r->method, r->url);
            /* keep the last attempt's error, which says what the fault is */
            return err_suffix(" (gave up after %d retries in %.1f s: the retry time budget ran out while the "
                              "endpoint was slowed down)",
                              k, (double)(now_ns() - t0) / 1e9);
        }
        uint64_t started = now_ns(); /* launched: after any wait for the limiter */
        attempt_result ar = run_attempt(r, resp, from, ranged, to);
        limiter_leave(ep, ar.outcome, started, initial, cap, r->slow_all_on_network_error);
        resp->retries = k;
        if (ar.st == ATT_OK)
            return 0;
        if (ar.st == ATT_FAIL)
            return k ? err_suffix(" (after %d retries)", k) : -1;
        if (ar.midbody ? failed_mid >= read_retries : failed >= retries)
            return k ? err_suffix(" (gave up after %d retries in %.1f s)", k, (double)(now_ns() - t0) / 1e9) : -1;
        if (ar.midbody)
            failed_mid++;
        else
            failed++;
        uint64_t ms = http_backoff_ms_from(ar.midbody ? failed_mid - 1 : failed - 1, initial, cap);
        uint64_t now = now_ns();
        if (deadline && now + ms * 1000000u >= deadline)
            return err_suffix(" (gave up after %d retries in %.1f s: the retry time budget of %.1f s ran out)", k,
                              (double)(now - t0) / 1e9, (double)r->time_budget_ms / 1e3);
        if (r->counters)
            atomic_fetch_add(&r->counters->retries, 1);
        if (ms)
            usleep((useconds_t)(ms * 1000));
    }
}

/* ---- many first attempts from one thread (libcurl multi) ----
 *
 * Submitters prepare a transfer (headers signed, easy handle set up) in their own thread
 * and queue it; the loop thread starts queued transfers while fewer than max_inflight run
 * and the endpoint limiter lets them (limiter_try_enter: the loop never blocks on it),
 * drives them all with curl_multi_perform/poll, and judges each with attempt_end, exactly
 * as http_run judges an attempt. It never retries: a failure goes back to the submitter
 * (done(ctx, false)), which runs the request with http_run. */

typedef struct mtransfer {
    struct mtransfer *next;
    http_request r;         /* the submitter's, with url owned and on_data into dst */
    char *url;
    http_response resp;
    attempt a;
    struct curl_slist *headers;
    endpoint *ep;
    bool waited;            /* counted once in the limiter's waits */
    uint64_t started_ns;
    uint8_t *dst;
    uint64_t want, got;
    http_multi_done_fn done;
    void *ctx;
} mtransfer;

struct http_multi {
    pthread_mutex_t mu;
    pthread_t thread;
    CURLM *m;
    int max_inflight;
    int active;             /* started, not finished */
    mtransfer *queued, *queued_tail;
    mtransfer *live;        /* started */
    CURL **idle;            /* easy handles of finished transfers, for reuse */
    int nidle;
    bool stop;
};

/* Lets one more request to e start now if the limiter allows (never waits). */
static bool limiter_try_enter(endpoint *e, bool *waited)
{
    if (!e)
        return true;
    pthread_mutex_lock(&e->mu);
    bool ok = now_ns() >= e->not_before_ns && e->inflight < (int)e->budget;
    if (ok)
        e->inflight++;
    else if (!*waited)
        e->waits++;
    *waited |= !ok;
    pthread_mutex_unlock(&e->mu);
    return ok;
}

static int mt_data(void *ctx, const void *p, size_t n)
{
    mtransfer *t = ctx;
    /* on_body never hands more than the range (a->want) */
    memcpy(t->dst + t->got, p, n);
    t->got += n;
    return 0;
}

static void mt_free(http_multi *m, mtransfer *t)
{
    curl.slist_free_all(t->headers);
    http_response_free(&t->resp);
    free(t->url);
    pthread_mutex_lock(&m->mu);
    m->idle = xrealloc(m->idle, sizeof *m->idle * (size_t)(m->nidle + 1));
    m->idle[m->nidle++] = t->a.h;
    pthread_mutex_unlock(&m->mu);
    free(t);
}

/* A started transfer ended with rc (loop thread, m->mu not held). */
static void mt_finish(http_multi *m, mtransfer *t, CURLcode rc)
{
    curl.multi_remove_handle(m->m, t->a.h);
    pthread_mutex_lock(&m->mu);
    for (mtransfer **pp = &m->live; *pp; pp = &(*pp)->next)
        if (*pp == t) {
            *pp = t->next;
            break;
        }
    m->active--;
    pthread_mutex_unlock(&m->mu);
    attempt_result ar = attempt_end(&t->a, rc);
    const http_request *r = &t->r;
    limiter_leave(t->ep, ar.outcome, t->started_ns, r->initial_backoff_ms ? r->initial_backoff_ms : 100,
                  r->max_backoff_ms ? r->max_backoff_ms : 5000, r->slow_all_on_network_error);
    bool ok = ar.st == ATT_OK && t->got == t->want && t->resp.status >= 200 && t->resp.status < 300;
    if (!ok && ar.st == ATT_RETRY && r->counters)
        atomic_fetch_add(&r->counters->retries, 1); /* the submitter's http_run retries it */
    err_clear();
    http_multi_done_fn done = t->done;
    void *ctx = t->ctx;
    mt_free(m, t);
    done(ctx, ok);
}

static void *multi_main(void *arg)
{
    http_multi *m = arg;
    pthread_mutex_lock(&m->mu);
    while (!m->stop) {
        bool limited = false;
        while (m->queued && m->active < m->max_inflight) {
            mtransfer *t = m->queued;
            if (!limiter_try_enter(t->ep, &t->waited)) {
                limited = true; /* "not before" or the budget: look again soon */
                break;
            }
            m->queued = t->next;
            if (!m->queued)
                m->queued_tail = NULL;
            t->next = m->live;
            m->live = t;
            m->active++;
            t->started_ns = now_ns();
            attempt_start(&t->a);
            curl.multi_add_handle(m->m, t->a.h);
        }
        pthread_mutex_unlock(&m->mu);
        int running;
        curl.multi_perform(m->m, &running);
        CURLMsg *msg;
        int left;
        bool ended = false;
        while ((msg = curl.multi_info_read(m->m, &left)))
            if (msg->msg == CURLMSG_DONE) {
                mtransfer *t;
                curl.easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&t);
                mt_finish(m, t, msg->data.result);
                ended = true;
            }
        pthread_mutex_lock(&m->mu);
        if (ended && m->queued && m->active < m->max_inflight)
            continue; /* room for the next ones: start them before waiting */
        pthread_mutex_unlock(&m->mu);
        curl.multi_poll(m->m, NULL, 0, limited ? 5 : 1000, NULL);
        pthread_mutex_lock(&m->mu);
    }
    /* cancelled: what runs and what waits fails back to its submitter */
    mtransfer *all = m->queued;
    m->queued = m->queued_tail = NULL;
    while (m->live) {
        mtransfer *t = m->live;
        m->live = t->next;
        m->active--;
        curl.multi_remove_handle(m->m, t->a.h);
        if (t->r.counters)
            atomic_fetch_sub(&t->r.counters->inflight, 1);
        limiter_leave(t->ep, OUT_OTHER, t->started_ns, 100, 100, false);
        t->next = all;
        all = t;
    }
    pthread_mutex_unlock(&m->mu);
    while (all) {
        mtransfer *t = all;
        all = t->next;
        http_multi_done_fn done = t->done;
        void *ctx = t->ctx;
        buf_free(&t->a.err);
        mt_free(m, t);
        done(ctx, false);
    }
    return NULL;
}

http_multi *http_multi_new(int max_inflight)
{
    if (http_load())
        return NULL;
    http_multi *m = xcalloc(1, sizeof *m);
    m->max_inflight = max_inflight > 0 ? max_inflight : 1;
    m->m = curl.multi_init();
    pthread_mutex_init(&m->mu, NULL);
    if (!m->m || pthread_create(&m->thread, NULL, multi_main, m) != 0) {
        if (m->m)
            curl.multi_cleanup(m->m);
        pthread_mutex_destroy(&m->mu);
        free(m);
        err_set(ERR_CANNOT_ALLOCATE_MEMORY, "Cannot start the HTTP transfer thread");
        return NULL;
    }
    return m;
}

int http_multi_get(http_multi *m, const http_request *r, uint8_t *dst, http_multi_done_fn done, void *ctx)
{
    if (strcmp(r->method, "GET") != 0 || !r->has_range || r->range_to < r->range_from)
        return err_set(ERR_LOGICAL_ERROR, "http_multi_get takes ranged GETs only");
    mtransfer *t = xcalloc(1, sizeof *t);
    t->url = xstrdup(r->url);
    t->r = *r;
    t->r.url = t->url;
    t->r.on_data = mt_data;
    t->r.data_ctx = t;
    t->dst = dst;
    t->want = r->range_to - r->range_from + 1;
    t->done = done;
    t->ctx = ctx;
    t->ep = find_endpoint(r->url, true);
    pthread_mutex_lock(&m->mu);
    CURL *h = m->nidle ? m->idle[--m->nidle] : NULL;
    pthread_mutex_unlock(&m->mu);
    if (h)
        curl.easy_reset(h);
    else
        h = curl.easy_init();
    /* the headers (the signature) are made now, with r's prepare and context */
    int rc = attempt_setup(&t->a, h, &t->r, &t->resp, r->range_from, true, r->range_to, &t->headers);
    t->r.prepare = NULL;
    t->r.prepare_ctx = NULL;
    t->r.expect_etag = NULL; /* copied into the attempt (want_etag); r's are borrowed no longer */
    if (rc) {
        t->headers = NULL;
        mt_free(m, t);
        return -1;
    }
    curl.easy_setopt(h, CURLOPT_PRIVATE, (char *)t);
    /* small ranges, many handles: curl's default buffer, not http_run's 512 KiB each */
    curl.easy_setopt(h, CURLOPT_BUFFERSIZE, 64L * 1024);
    pthread_mutex_lock(&m->mu);
    if (m->queued_tail)
        m->queued_tail->next = t;
    else
        m->queued = t;
    m->queued_tail = t;
    pthread_mutex_unlock(&m->mu);
    curl.multi_wakeup(m->m);
    return 0;
}

void http_multi_free(http_multi *m)
{
    if (!m)
        return;
    pthread_mutex_lock(&m->mu);
    m->stop = true;
    pthread_mutex_unlock(&m->mu);
    curl.multi_wakeup(m->m);
    pthread_join(m->thread, NULL);
    for (int i = 0; i < m->nidle; i++)
        curl.easy_cleanup(m->idle[i]);
    free(m->idle);
    curl.multi_cleanup(m->m);
    pthread_mutex_destroy(&m->mu);
    free(m);
}
