/* A connection's sending thread (see send_thread.h). */
#include "server/send_thread.h"

#include "base/err.h"
#include "base/mem.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

struct send_thread {
    int (*send)(void *ctx, const buf *bytes, int kind);
    void *ctx;
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;    /* any change of the fields below */
    buf waiting;          /* the piece put and not yet taken (full: its bytes count) */
    int waiting_kind;
    bool full;
    bool busy;            /* the thread is sending a piece */
    bool stop;
    bool failed;          /* a send failed: err holds why */
    err_saved err;
};

static void swap_buf(buf *a, buf *b)
{
    buf t = *a;
    *a = *b;
    *b = t;
}

static void *run(void *arg)
{
    send_thread *t = arg;
    buf sending = {0};
    pthread_mutex_lock(&t->mu);
    for (;;) {
        while (!t->full && !t->stop)
            pthread_cond_wait(&t->cv, &t->mu);
        if (t->stop)
            break;
        swap_buf(&sending, &t->waiting);
        int kind = t->waiting_kind;
        t->full = false;
        t->busy = true;
        pthread_cond_broadcast(&t->cv);
        pthread_mutex_unlock(&t->mu);
        /* After a failure the rest is dropped: the connection is broken anyway. */
        bool ok = t->failed || t->send(t->ctx, &sending, kind) == 0;
        sending.len = 0;
        pthread_mutex_lock(&t->mu);
        if (!ok && !t->failed) {
            err_save(&t->err);
            t->failed = true;
        }
        t->busy = false;
        pthread_cond_broadcast(&t->cv);
    }
    pthread_mutex_unlock(&t->mu);
    buf_free(&sending);
    return NULL;
}

send_thread *send_thread_new(int (*send)(void *ctx, const buf *bytes, int kind), void *ctx)
{
    send_thread *t = xcalloc(1, sizeof *t);
    t->send = send;
    t->ctx = ctx;
    pthread_mutex_init(&t->mu, NULL);
    pthread_cond_init(&t->cv, NULL);
    if (pthread_create(&t->th, NULL, run, t) != 0) {
        pthread_mutex_destroy(&t->mu);
        pthread_cond_destroy(&t->cv);
        free(t);
        return NULL;
    }
    return t;
}

int send_thread_put(send_thread *t, buf *b, int kind)
{
    pthread_mutex_lock(&t->mu);
    while (t->full && !t->failed)
        pthread_cond_wait(&t->cv, &t->mu);
    int rc = 0;
    if (t->failed) {
        rc = err_restore(&t->err);
    } else {
        /* waiting is empty here (the thread took its bytes): b gets its memory back. */
        swap_buf(b, &t->waiting);
        t->waiting_kind = kind;
        t->full = true;
        pthread_cond_broadcast(&t->cv);
    }
    pthread_mutex_unlock(&t->mu);
    b->len = 0;
    return rc;
}

int send_thread_drain(send_thread *t)
{
    pthread_mutex_lock(&t->mu);
    while ((t->full || t->busy) && !t->failed)
        pthread_cond_wait(&t->cv, &t->mu);
    int rc = t->failed ? err_restore(&t->err) : 0;
    pthread_mutex_unlock(&t->mu);
    return rc;
}

void send_thread_free(send_thread *t)
{
    if (!t)
        return;
    pthread_mutex_lock(&t->mu);
    t->stop = true;
    pthread_cond_broadcast(&t->cv);
    pthread_mutex_unlock(&t->mu);
    pthread_join(t->th, NULL);
    buf_free(&t->waiting);
    pthread_mutex_destroy(&t->mu);
    pthread_cond_destroy(&t->cv);
    free(t);
}
