/* http_run against a scripted HTTP server in a thread (127.0.0.1, ephemeral port): retries of
 * SlowDown with the endpoint limiter, resumption of a cut body from the last byte received,
 * a changed ETag between attempts, If-Match failures, 4xx without retries, the time budget;
 * and http_multi's single attempts: exact bytes on success, every kind of failure handed
 * back (done(ctx, false)) with the counters and the limiter told. */
#include "check.h"
#include "base/err.h"
#include "base/mem.h"
#include "io/http.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { SC_SLOWDOWN3, SC_TRUNCATE, SC_ETAG_CHANGE, SC_NOSUCHKEY, SC_ALWAYS500, SC_PRECONDITION };

static _Atomic int g_scenario;
static _Atomic int g_requests;
static char g_last_range[64];
static int g_listen;
static char g_data[100];

static void send_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = send(fd, c, n, MSG_NOSIGNAL);
        if (w <= 0)
            return;
        c += w;
        n -= (size_t)w;
    }
}

static void error_reply(int fd, int status, const char *code, const char *msg)
{
    char body[256], head[256];
    int bl = snprintf(body, sizeof body, "<Error><Code>%s</Code><Message>%s</Message></Error>", code, msg);
    int hl = snprintf(head, sizeof head, "HTTP/1.1 %d X\r\nContent-Length: %d\r\nConnection: close\r\n\r\n", status,
                      bl);
    send_all(fd, head, (size_t)hl);
    send_all(fd, body, (size_t)bl);
}

/* bytes [from, to] with an ETag; send only `cut` bytes of them when cut < length */
static void data_reply(int fd, unsigned from, unsigned to, const char *etag, unsigned cut)
{
    char head[256];
    unsigned len = to - from + 1;
    int hl = snprintf(head, sizeof head,
                      "HTTP/1.1 206 Partial Content\r\nContent-Length: %u\r\nContent-Range: bytes %u-%u/100\r\n"
                      "ETag: %s\r\nConnection: close\r\n\r\n",
                      len, from, to, etag);
    send_all(fd, head, (size_t)hl);
    send_all(fd, g_data + from, cut < len ? cut : len);
}

static void serve(int fd)
{
    char req[4096];
    size_t n = 0;
    while (n < sizeof req - 1) {
        ssize_t r = recv(fd, req + n, sizeof req - 1 - n, 0);
        if (r <= 0)
            return;
        n += (size_t)r;
        req[n] = 0;
        if (strstr(req, "\r\n\r\n"))
            break;
    }
    int k = atomic_fetch_add(&g_requests, 1);
    unsigned from = 0, to = 99;
    const char *rg = strcasestr(req, "\r\nRange: bytes=");
    if (rg) {
        sscanf(rg + 15, "%u-%u", &from, &to);
        snprintf(g_last_range, sizeof g_last_range, "%u-%u", from, to);
    }
    switch (atomic_load(&g_scenario)) {
    case SC_SLOWDOWN3:
        if (k < 3)
            error_reply(fd, 503, "SlowDown", "Please reduce your request rate.");
        else
            data_reply(fd, from, to, "\"e1\"", 1000);
        break;
    case SC_TRUNCATE:
        data_reply(fd, from, to, "\"e1\"", k == 0 ? 40 : 1000); /* the first answer stops after 40 bytes */
        break;
    case SC_ETAG_CHANGE:
        data_reply(fd, from, to, k == 0 ? "\"e1\"" : "\"e2\"", k == 0 ? 40 : 1000);
        break;
    case SC_NOSUCHKEY: error_reply(fd, 404, "NoSuchKey", "The specified key does not exist."); break;
    case SC_ALWAYS500: error_reply(fd, 500, "InternalError", "We encountered an internal error."); break;
    case SC_PRECONDITION:
        error_reply(fd, 412, "PreconditionFailed", "At least one of the pre-conditions you specified did not hold");
        break;
    }
}

static void *server_main(void *arg)
{
    (void)arg;
    for (;;) {
        int fd = accept(g_listen, NULL, NULL);
        if (fd < 0)
            return NULL;
        serve(fd);
        shutdown(fd, SHUT_RDWR);
        close(fd);
    }
}

typedef struct sink {
    char b[200];
    size_t n;
} sink;

static int on_data(void *ctx, const void *p, size_t n)
{
    sink *s = ctx;
    if (s->n + n > sizeof s->b)
        return err_set(ERR_S3_ERROR, "too much");
    memcpy(s->b + s->n, p, n);
    s->n += n;
    return 0;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* GET bytes [from, to] of the scripted object. */
static int get(const char *url, int scenario, unsigned from, unsigned to, const char *etag, uint64_t budget_ms,
               sink *s, http_response *resp, http_counters *c)
{
    atomic_store(&g_scenario, scenario);
    atomic_store(&g_requests, 0);
    g_last_range[0] = 0;
    memset(s, 0, sizeof *s);
    memset(resp, 0, sizeof *resp);
    http_request r = {.method = "GET", .url = url, .has_range = true, .range_from = from, .range_to = to,
                      .on_data = on_data, .data_ctx = s, .initial_backoff_ms = 10, .max_backoff_ms = 100,
                      .time_budget_ms = budget_ms, .expect_etag = etag, .counters = c, .max_retries = 1000};
    return http_run(&r, resp);
}

/* http_multi: n GETs of len bytes from `from` on, back to back into dst, at once; returns
 * how many succeeded. */
typedef struct mwait {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int left, ok;
} mwait;

static void on_mdone(void *ctx, bool ok)
{
    mwait *w = ctx;
    pthread_mutex_lock(&w->mu);
    w->left--;
    w->ok += ok;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

static int mget(http_multi *m, const char *url, int scenario, int first_request, unsigned from, unsigned len, int n,
                const char *etag, uint8_t *dst, http_counters *c)
{
    atomic_store(&g_scenario, scenario);
    atomic_store(&g_requests, first_request);
    mwait w = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER, .left = n};
    for (int i = 0; i < n; i++) {
        unsigned a = from + len * (unsigned)i;
        http_request r = {.method = "GET", .url = url, .has_range = true, .range_from = a, .range_to = a + len - 1,
                          .expect_etag = etag, .counters = c};
        memset(dst + len * (unsigned)i, 0, len);
        CHECK(http_multi_get(m, &r, dst + len * (unsigned)i, on_mdone, &w) == 0);
    }
    pthread_mutex_lock(&w.mu);
    while (w.left)
        pthread_cond_wait(&w.cv, &w.mu);
    pthread_mutex_unlock(&w.mu);
    return w.ok;
}

int main(void)
{
    for (int i = 0; i < 100; i++)
        g_data[i] = (char)('a' + i % 26);
    g_listen = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    CHECK(bind(g_listen, (struct sockaddr *)&a, sizeof a) == 0);
    socklen_t al = sizeof a;
    getsockname(g_listen, (struct sockaddr *)&a, &al);
    listen(g_listen, 16);
    pthread_t th;
    pthread_create(&th, NULL, server_main, NULL);
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/bkt/obj", ntohs(a.sin_port));

    char key[80], want_key[80];
    http_endpoint_key(url, key, sizeof key);
    snprintf(want_key, sizeof want_key, "http://127.0.0.1:%d", ntohs(a.sin_port));
    CHECK_STR(key, want_key);
    http_endpoint_key("HTTPS://s3.amazonaws.com/b/k", key, sizeof key);
    CHECK_STR(key, "https://s3.amazonaws.com:443");
    for (int k = 0; k < 20; k++)
        CHECK(http_backoff_ms_from(k, 30, 400) <= 400);
    CHECK(http_backoff_ms_from(0, 30, 400) <= 30);

    sink s;
    http_response resp;
    http_counters c = {0};

    /* three SlowDowns, then data: retried, and the endpoint's budget was cut */
    CHECK(get(url, SC_SLOWDOWN3, 10, 59, NULL, 0, &s, &resp, &c) == 0);
    CHECK(s.n == 50 && memcmp(s.b, g_data + 10, 50) == 0);
    CHECK(resp.retries == 3 && atomic_load(&c.retries) == 3);
    http_limiter_state ls;
    CHECK(http_limiter_get(url, &ls));
    CHECK(ls.slowdowns == 3 && ls.budget < 2 && ls.inflight == 0);
    http_response_free(&resp);

    /* a cut body resumes from the last byte received; nothing is delivered twice */
    http_counters c2 = {0};
    CHECK(get(url, SC_TRUNCATE, 0, 99, NULL, 0, &s, &resp, &c2) == 0);
    CHECK(s.n == 100 && memcmp(s.b, g_data, 100) == 0);
    CHECK_STR(g_last_range, "40-99");
    CHECK(atomic_load(&c2.bytes_in) == 100);
    CHECK(atomic_load(&g_requests) == 2);
    http_response_free(&resp);

    /* the resumed response is another version of the object: fail, no mixing */
    CHECK(get(url, SC_ETAG_CHANGE, 0, 99, NULL, 0, &s, &resp, NULL) == -1);
    CHECK(strstr(err_msg(), "changed while it was being read") != NULL);
    CHECK(strstr(err_msg(), "\"e2\"") && strstr(err_msg(), "\"e1\""));
    CHECK(s.n == 40);
    http_response_free(&resp);

    /* an expected ETag that the first response does not carry */
    CHECK(get(url, SC_TRUNCATE, 0, 99, "\"other\"", 0, &s, &resp, NULL) == -1);
    CHECK(strstr(err_msg(), "changed while it was being read") != NULL && s.n == 0);
    http_response_free(&resp);
    CHECK(get(url, SC_PRECONDITION, 0, 99, "\"e1\"", 0, &s, &resp, NULL) == -1);
    CHECK(strstr(err_msg(), "failed If-Match: \"e1\" (412 PreconditionFailed)") != NULL);
    CHECK(atomic_load(&g_requests) == 1);
    http_response_free(&resp);

    /* other 4xx: at once, with S3's code and message */
    CHECK(get(url, SC_NOSUCHKEY, 0, 99, NULL, 0, &s, &resp, NULL) == -1);
    CHECK(err_code() == ERR_S3_ERROR);
    CHECK(strstr(err_msg(), "The specified key does not exist. (NoSuchKey): HTTP 404 for GET") != NULL);
    CHECK(atomic_load(&g_requests) == 1);
    http_response_free(&resp);

    /* a persistent 500 gives up when the time budget runs out */
    double t0 = now_s();
    CHECK(get(url, SC_ALWAYS500, 0, 99, NULL, 300, &s, &resp, NULL) == -1);
    double took = now_s() - t0;
    CHECK(took < 1.0);
    CHECK(strstr(err_msg(), "(InternalError): HTTP 500") != NULL);
    CHECK(strstr(err_msg(), "retry time budget of 0.3 s ran out") != NULL || (fprintf(stderr, "%s\n", err_msg()), 0));
    CHECK(atomic_load(&g_requests) >= 3);
    http_response_free(&resp);

    /* http_multi: one attempt each, failures handed back to the caller */
    http_multi *m = http_multi_new(4);
    CHECK(m != NULL);
    uint8_t dst[100];
    http_counters mc = {0};
    CHECK(mget(m, url, SC_SLOWDOWN3, 3, 0, 10, 8, NULL, dst, &mc) == 8); /* past the SlowDowns: data */
    CHECK(memcmp(dst, g_data, 80) == 0);
    CHECK(atomic_load(&mc.get) == 8 && atomic_load(&mc.retries) == 0 && atomic_load(&mc.inflight) == 0);
    CHECK(atomic_load(&mc.max_inflight) >= 1 && atomic_load(&mc.max_inflight) <= 4);
    CHECK(atomic_load(&mc.bytes_in) == 80);
    http_counters mc2 = {0};
    CHECK(mget(m, url, SC_TRUNCATE, 0, 0, 100, 1, NULL, dst, &mc2) == 0); /* a cut body: not retried here */
    CHECK(atomic_load(&g_requests) == 1 && atomic_load(&mc2.retries) == 1);
    http_limiter_state before, after;
    CHECK(http_limiter_get(url, &before));
    CHECK(mget(m, url, SC_SLOWDOWN3, 0, 0, 10, 1, NULL, dst, NULL) == 0); /* a SlowDown reaches the limiter */
    CHECK(http_limiter_get(url, &after));
    CHECK(after.slowdowns == before.slowdowns + 1 && after.inflight == 0);
    http_counters mc3 = {0};
    CHECK(mget(m, url, SC_NOSUCHKEY, 0, 0, 10, 1, NULL, dst, &mc3) == 0); /* a 4xx: no retry counted */
    CHECK(atomic_load(&mc3.retries) == 0);
    CHECK(mget(m, url, SC_SLOWDOWN3, 3, 0, 10, 1, "\"other\"", dst, NULL) == 0); /* another ETag */
    CHECK(mget(m, url, SC_SLOWDOWN3, 3, 20, 10, 2, "\"e1\"", dst, NULL) == 2);
    CHECK(memcmp(dst, g_data + 20, 20) == 0);
    http_multi_free(m);

    shutdown(g_listen, SHUT_RDWR);
    close(g_listen);
    pthread_join(th, NULL);
    return check_done("http_faults");
}
