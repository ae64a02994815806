#include "cli/progress.h"

#include "base/mem.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct progress {
    query_ctx *q;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool stop;
    bool drawn;
};

/* ---- readable numbers, as ClickHouse's client prints them ---- */

void readable_quantity(double v, char *out, size_t cap)
{
    static const char *units[] = {"", " thousand", " million", " billion", " trillion", " quadrillion"};
    int u = 0;
    while (v >= 1000 && u < 5) {
        v /= 1000;
        u++;
    }
    snprintf(out, cap, "%.2f%s", v, units[u]);
}

void readable_size_decimal(double v, char *out, size_t cap)
{
    static const char *units[] = {"B", "KB", "MB", "GB", "TB", "PB", "EB"};
    int u = 0;
    while (v >= 1000 && u < 6) {
        v /= 1000;
        u++;
    }
    snprintf(out, cap, "%.2f %s", v, units[u]);
}


static void draw(progress *p)
{
    query_ctx *q = p->q;
    double elapsed = clock_monotonic() - q->start_time;
    uint64_t rows = atomic_load(&q->read_rows), b = atomic_load(&q->read_bytes);
    uint64_t total = atomic_load(&q->total_rows_to_read);
    char r[48], bb[48], rr[48], br[48];
    readable_quantity((double)rows, r, sizeof r);
    readable_size_decimal((double)b, bb, sizeof bb);
    readable_quantity(elapsed > 0 ? (double)rows / elapsed : 0, rr, sizeof rr);
    readable_size_decimal(elapsed > 0 ? (double)b / elapsed : 0, br, sizeof br);
    char pct[16] = "";
    if (total)
        snprintf(pct, sizeof pct, " %3d%%", (int)(rows * 100 / total > 100 ? 100 : rows * 100 / total));
    fprintf(stderr, "\r\033[KProgress: %s rows, %s (%s rows/s., %s/s.)%s", r, bb, rr, br, pct);
    fflush(stderr);
    p->drawn = true;
}

static void *run(void *arg)
{
    progress *p = arg;
    pthread_mutex_lock(&p->lock);
    while (!p->stop) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 100 * 1000 * 1000;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&p->cond, &p->lock, &ts);
        if (!p->stop && clock_monotonic() - p->q->start_time > 0.5)
            draw(p);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

progress *progress_start(query_ctx *q)
{
    progress *p = xcalloc(1, sizeof *p);
    p->q = q;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->cond, NULL);
    if (pthread_create(&p->thread, NULL, run, p) != 0) {
        pthread_mutex_destroy(&p->lock);
        pthread_cond_destroy(&p->cond);
        free(p);
        return NULL;
    }
    return p;
}

void progress_stop(progress *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->stop = true;
    pthread_cond_signal(&p->cond);
    pthread_mutex_unlock(&p->lock);
    pthread_join(p->thread, NULL);
    if (p->drawn) {
        fprintf(stderr, "\r\033[K");
        fflush(stderr);
    }
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->cond);
    free(p);
}
