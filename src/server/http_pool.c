/* HTTP connections served by a pool of threads (see http_pool.h). */
#include "server/http_pool.h"

#include "base/err.h"
#include "base/mem.h"
#include "server/server_int.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { SPARE_WORKERS = 2, IDLE_WAIT_MS = 1000 };
/* How long every worker may stay busy before the monitor adds one (see worker_main). */
#define STARVED_S 0.002

typedef struct pconn {
    http_conn c;
    double parked_at;          /* monotonic seconds */
    bool in_epoll;             /* added to the epoll set once; re-armed after */
    bool shut;                 /* its socket was shut down while parked */
    struct pconn *prev, *next; /* in the parked list while parked */
} pconn;

struct http_pool {
    int epfd;
    pthread_mutex_t mu;        /* guards everything below */
    pthread_cond_t cv;         /* workers == 0 */
    pconn *parked;
    int workers, waiting;
    int base_workers;          /* started at once when none waits; more only by the monitor */
    double starved_since;      /* when the last waiting worker took a connection; 0: one waits */
    pthread_t monitor;
    pthread_cond_t monitor_cv; /* wakes the monitor from its idle wait */
    bool monitor_idle;
    bool stopping;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void unlink_locked(http_pool *pl, pconn *pc)
{
    if (pc->prev)
        pc->prev->next = pc->next;
    else
        pl->parked = pc->next;
    if (pc->next)
        pc->next->prev = pc->prev;
    pc->prev = pc->next = NULL;
}

static void close_conn(server *srv, pconn *pc);

/* Puts pc in the parked list, then arms its socket. Once armed, another worker may take
 * it at once: it must be listed before, and this thread must not touch it after. */
static void park(server *srv, pconn *pc)
{
    http_pool *pl = srv->pool;
    pthread_mutex_lock(&pl->mu);
    pc->parked_at = now_s();
    pc->shut = false;
    pc->prev = NULL;
    pc->next = pl->parked;
    if (pl->parked)
        pl->parked->prev = pc;
    pl->parked = pc;
    pthread_mutex_unlock(&pl->mu);
    int op = pc->in_epoll ? EPOLL_CTL_MOD : EPOLL_CTL_ADD;
    pc->in_epoll = true;
    struct epoll_event ev = {.events = EPOLLIN | EPOLLRDHUP | EPOLLONESHOT, .data.ptr = pc};
    if (epoll_ctl(pl->epfd, op, pc->c.fd, &ev) == 0)
        return;
    /* Cannot wait for it (out of memory): end it as the keep-alive timeout would. */
    server_log("Error", "Cannot wait for the next request of %s: %s", pc->c.peer, strerror(errno));
    pthread_mutex_lock(&pl->mu);
    unlink_locked(pl, pc);
    pthread_mutex_unlock(&pl->mu);
    close_conn(srv, pc);
}

/* A lingering close: what the client is still sending (a request refused before its end)
 * is read and dropped for a moment, so that the client reads our answer instead of a
 * connection reset. */
static void close_conn(server *srv, pconn *pc)
{
    shutdown(pc->c.fd, SHUT_WR);
    char sink[16384];
    size_t dropped = 0;
    for (;;) {
        struct pollfd pfd = {.fd = pc->c.fd, .events = POLLIN};
        if (poll(&pfd, 1, 500) <= 0)
            break;
        ssize_t n = recv(pc->c.fd, sink, sizeof sink, 0);
        if (n <= 0 || (dropped += (size_t)n) > (4u << 20))
            break;
    }
    close(pc->c.fd); /* also leaves the epoll set */
    http_conn_free(&pc->c);
    free(pc);
    server_connection_done(srv);
}

/* Serves pc's requests while they come without waiting; then parks or closes it. */
static void serve(server *srv, pconn *pc)
{
    http_conn *c = &pc->c;
    for (;;) {
        srv_request rq;
        int status;
        c->recv_timeout_ms = srv->receive_timeout_s * 1000;
        int rc = srv_read_request(c, &rq, &status);
        if (rc == 1) {
            srv_request_free(&rq);
            break;
        }
        srv_response resp;
        if (rc < 0) {
            srv_response_init(&resp, c, false);
            char msg[ERR_MSG_MAX + 8];
            int n = snprintf(msg, sizeof msg, "%s\n", err_msg());
            srv_response_send_full(&resp, status, "text/plain; charset=UTF-8", msg,
                                   (size_t)(n < (int)sizeof msg ? n : (int)sizeof msg - 1));
            srv_response_free(&resp);
            srv_request_free(&rq);
            break;
        }
        bool keep = rq.keep_alive && !srv->stop;
        srv_response_init(&resp, c, keep);
        http_handle(srv, c, &rq, &resp);
        if (!resp.finished)
            srv_response_finish(&resp);
        /* What the handler left unread of the body must go before the next request. */
        if (keep && !c->broken && http_body_drain(&rq))
            c->broken = true;
        bool again = resp.keep_alive && !c->broken && !srv->stop;
        srv_response_free(&resp);
        srv_request_free(&rq);
        if (!again)
            break;
        if (c->in_pos == c->in_len) { /* nothing pipelined: wait parked, not on a thread */
            park(srv, pc);
            return;
        }
    }
    close_conn(srv, pc);
}

static void *worker_main(void *arg);

/* Starts a worker; the caller holds pl->mu. */
static void start_worker_locked(server *srv)
{
    http_pool *pl = srv->pool;
    if (pl->workers >= srv->max_connections + SPARE_WORKERS)
        return;
    if (server_start_thread(worker_main, srv) == 0)
        pl->workers++;
    else
        server_log("Error", "Cannot start an HTTP worker thread: %s", strerror(errno));
}

static void *worker_main(void *arg)
{
    server *srv = arg;
    http_pool *pl = srv->pool;
    mem_thread_init();
    pthread_mutex_lock(&pl->mu);
    for (;;) {
        pl->waiting++;
        pl->starved_since = 0;
        pthread_mutex_unlock(&pl->mu);
        struct epoll_event ev;
        int n = epoll_wait(pl->epfd, &ev, 1, IDLE_WAIT_MS);
        pthread_mutex_lock(&pl->mu);
        pl->waiting--;
        if (n == 1) {
            pconn *pc = ev.data.ptr;
            unlink_locked(pl, pc);
            if (pl->waiting == 0 && !pl->stopping) {
                /* Keep a worker listening: up to base_workers at once; beyond, only if all
                 * stay busy for STARVED_S (the monitor), because a worker per connection
                 * makes every request wake a sleeping thread — with fewer workers than
                 * connections a worker finds the next request ready and never sleeps. */
                if (pl->workers < pl->base_workers) {
                    start_worker_locked(srv);
                } else if (pl->starved_since == 0) {
                    pl->starved_since = now_s();
                    if (pl->monitor_idle)
                        pthread_cond_signal(&pl->monitor_cv);
                }
            }
            pthread_mutex_unlock(&pl->mu);
            serve(srv, pc);
            pthread_mutex_lock(&pl->mu);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        /* A second without work: leave if enough others wait, or when the pool stops. */
        if (pl->stopping || pl->waiting >= SPARE_WORKERS || n < 0)
            break;
    }
    pl->workers--;
    pthread_cond_broadcast(&pl->cv);
    pthread_mutex_unlock(&pl->mu);
    return NULL;
}

/* Adds a worker when every worker has been busy for STARVED_S (a long query on each):
 * polls while any worker is busy, sleeps on monitor_cv while none is. */
static void *monitor_main(void *arg)
{
    server *srv = arg;
    http_pool *pl = srv->pool;
    pthread_mutex_lock(&pl->mu);
    while (!pl->stopping) {
        if (pl->workers - pl->waiting <= 0 && pl->starved_since == 0) {
            pl->monitor_idle = true;
            pthread_cond_wait(&pl->monitor_cv, &pl->mu);
            pl->monitor_idle = false;
            continue;
        }
        pthread_mutex_unlock(&pl->mu);
        struct timespec ts = {0, (long)(STARVED_S * 1e9)};
        nanosleep(&ts, NULL);
        pthread_mutex_lock(&pl->mu);
        double now = now_s();
        if (pl->starved_since != 0 && pl->waiting == 0 && now - pl->starved_since >= STARVED_S && !pl->stopping) {
            start_worker_locked(srv);
            pl->starved_since = now;
        }
    }
    pthread_mutex_unlock(&pl->mu);
    return NULL;
}

int http_pool_start(server *srv)
{
    http_pool *pl = xcalloc(1, sizeof *pl);
    pl->epfd = epoll_create1(EPOLL_CLOEXEC);
    if (pl->epfd < 0) {
        free(pl);
        return err_set(ERR_CANNOT_OPEN_FILE, "Cannot create the HTTP connections' epoll set: %s", strerror(errno));
    }
    pthread_mutex_init(&pl->mu, NULL);
    pthread_cond_init(&pl->cv, NULL);
    pthread_cond_init(&pl->monitor_cv, NULL);
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    pl->base_workers = (ncpu > 1 ? (int)ncpu : 1) + 1;
    srv->pool = pl;
    int e = pthread_create(&pl->monitor, NULL, monitor_main, srv);
    if (e) {
        close(pl->epfd);
        free(pl);
        srv->pool = NULL;
        return err_set(ERR_CANNOT_SCHEDULE_TASK, "Cannot start the HTTP pool's monitor thread: %s", strerror(e));
    }
    pthread_mutex_lock(&pl->mu);
    start_worker_locked(srv);
    pthread_mutex_unlock(&pl->mu);
    return 0;
}

void http_pool_add(server *srv, int fd, const char *peer)
{
    pconn *pc = xcalloc(1, sizeof *pc);
    http_conn_init(&pc->c, fd);
    snprintf(pc->c.peer, sizeof pc->c.peer, "%s", peer);
    pc->c.send_timeout_ms = srv->send_timeout_s * 1000;
    pc->c.stop = &srv->stop;
    park(srv, pc); /* its first request is read by the worker that sees it arrive */
}

void http_pool_expire(server *srv)
{
    http_pool *pl = srv->pool;
    if (!pl)
        return;
    double now = now_s();
    pthread_mutex_lock(&pl->mu);
    for (pconn *pc = pl->parked; pc; pc = pc->next) {
        if (pc->shut || (!srv->stop && now - pc->parked_at < srv->keep_alive_timeout_s))
            continue;
        /* A request that has arrived is served (a worker is about to take it), even
         * during shutdown: ClickHouse answers what it accepted. */
        char b;
        if (recv(pc->c.fd, &b, 1, MSG_PEEK | MSG_DONTWAIT) == 1)
            continue;
        shutdown(pc->c.fd, SHUT_RDWR); /* its worker reads the end and closes it */
        pc->shut = true;
    }
    pthread_mutex_unlock(&pl->mu);
}

void http_pool_stop(server *srv)
{
    http_pool *pl = srv->pool;
    if (!pl)
        return;
    pthread_mutex_lock(&pl->mu);
    pl->stopping = true;
    pthread_cond_signal(&pl->monitor_cv);
    while (pl->workers > 0)
        pthread_cond_wait(&pl->cv, &pl->mu);
    pthread_mutex_unlock(&pl->mu);
    pthread_join(pl->monitor, NULL);
    close(pl->epfd);
    pthread_mutex_destroy(&pl->mu);
    pthread_cond_destroy(&pl->cv);
    pthread_cond_destroy(&pl->monitor_cv);
    free(pl);
    srv->pool = NULL;
}
