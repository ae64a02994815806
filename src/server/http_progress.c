/* X-ClickHouse-Progress header lines while a query runs (see http_progress.h). */
#include "server/http_progress.h"

#include "base/mem.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

struct http_progress {
    srv_response *resp;
    query_ctx *q;
    int64_t interval_ms;
    void (*json)(buf *out, query_ctx *q);
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;       /* signalled by stop */
    bool stop;
};

static void *progress_main(void *arg)
{
    http_progress *p = arg;
    uint64_t last_rows = 0, last_bytes = 0, last_total = 0;
    bool sent_any = false;
    buf line = {0};
    pthread_mutex_lock(&p->mu);
    for (;;) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        int64_t ns = until.tv_nsec + (p->interval_ms % 1000) * 1000000;
        until.tv_sec += p->interval_ms / 1000 + ns / 1000000000;
        until.tv_nsec = ns % 1000000000;
        while (!p->stop && pthread_cond_timedwait(&p->cv, &p->mu, &until) != ETIMEDOUT)
            ;
        if (p->stop)
            break;
        uint64_t rows = atomic_load(&p->q->read_rows), bytes = atomic_load(&p->q->read_bytes),
                 total = atomic_load(&p->q->total_rows_to_read);
        /* A line when something moved (ClickHouse sends them from its progress callback). */
        if (sent_any && rows == last_rows && bytes == last_bytes && total == last_total)
            continue;
        last_rows = rows;
        last_bytes = bytes;
        last_total = total;
        sent_any = true;
        line.len = 0;
        p->json(&line, p->q);
        pthread_mutex_unlock(&p->mu); /* stop must not wait on a slow client here */
        int rc = srv_response_header_line(p->resp, "X-ClickHouse-Progress", buf_cstr(&line));
        pthread_mutex_lock(&p->mu);
        if (rc)
            break;
    }
    pthread_mutex_unlock(&p->mu);
    buf_free(&line);
    return NULL;
}

http_progress *http_progress_start(srv_response *resp, query_ctx *q, int64_t interval_ms,
                                   void (*json)(buf *out, query_ctx *q))
{
    http_progress *p = xcalloc(1, sizeof *p);
    p->resp = resp;
    p->q = q;
    p->interval_ms = interval_ms > 0 ? interval_ms : 1;
    p->json = json;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    if (pthread_create(&p->thread, NULL, progress_main, p) != 0) {
        pthread_mutex_destroy(&p->mu);
        pthread_cond_destroy(&p->cv);
        free(p);
        return NULL;
    }
    return p;
}

void http_progress_stop(http_progress *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->thread, NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    free(p);
}
