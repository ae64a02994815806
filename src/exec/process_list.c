/* The running queries (see process_list.h). */
#include "exec/process_list.h"

#include "base/err.h"
#include "base/mem.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct entry {
    query_ctx *q;
    char user[64];
    char *query;
    struct entry *next;
} entry;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static entry *head;

int process_list_add(query_ctx *q, const char *user, const char *query_text, size_t len)
{
    entry *e = xcalloc(1, sizeof *e);
    e->q = q;
    snprintf(e->user, sizeof e->user, "%s", user ? user : "default");
    e->query = xstrndup(query_text ? query_text : "", query_text ? len : 0);
    pthread_mutex_lock(&mu);
    for (entry *x = head; x; x = x->next)
        if (strcmp(x->q->query_id, q->query_id) == 0) {
            pthread_mutex_unlock(&mu);
            free(e->query);
            free(e);
            return err_set(ERR_QUERY_WITH_SAME_ID_IS_ALREADY_RUNNING, "Query with id = %s is already running.",
                           q->query_id);
        }
    e->next = head;
    head = e;
    pthread_mutex_unlock(&mu);
    return 0;
}

void process_list_remove(query_ctx *q)
{
    pthread_mutex_lock(&mu);
    for (entry **pp = &head; *pp; pp = &(*pp)->next)
        if ((*pp)->q == q) {
            entry *e = *pp;
            *pp = e->next;
            free(e->query);
            free(e);
            break;
        }
    pthread_mutex_unlock(&mu);
}

void process_list_snapshot(process_info **out, int *n)
{
    pthread_mutex_lock(&mu);
    int count = 0;
    for (entry *e = head; e; e = e->next)
        count++;
    process_info *p = xcalloc((size_t)(count ? count : 1), sizeof *p);
    int i = 0;
    double now = clock_monotonic();
    for (entry *e = head; e; e = e->next, i++) {
        query_ctx *q = e->q;
        snprintf(p[i].query_id, sizeof p[i].query_id, "%s", q->query_id);
        snprintf(p[i].user, sizeof p[i].user, "%s", e->user);
        snprintf(p[i].database, sizeof p[i].database, "%s", q->database ? q->database : "default");
        p[i].query = xstrdup(e->query);
        p[i].elapsed = now - q->start_time;
        p[i].is_cancelled = atomic_load(&q->cancelled) != 0;
        p[i].read_rows = atomic_load(&q->read_rows);
        p[i].read_bytes = atomic_load(&q->read_bytes);
        p[i].total_rows_approx = atomic_load(&q->total_rows_to_read);
        p[i].memory_usage = atomic_load(&q->mem.used);
        p[i].peak_memory_usage = atomic_load(&q->mem.peak);
    }
    pthread_mutex_unlock(&mu);
    *out = p;
    *n = count;
}

void process_list_free_snapshot(process_info *p, int n)
{
    for (int i = 0; i < n; i++)
        free(p[i].query);
    free(p);
}

bool process_list_cancel(const char *query_id)
{
    bool found = false;
    pthread_mutex_lock(&mu);
    for (entry *e = head; e; e = e->next)
        if (strcmp(e->q->query_id, query_id) == 0) {
            atomic_store(&e->q->cancelled, 1);
            found = true;
        }
    pthread_mutex_unlock(&mu);
    return found;
}

bool process_list_running(const char *query_id)
{
    bool found = false;
    pthread_mutex_lock(&mu);
    for (entry *e = head; e && !found; e = e->next)
        found = strcmp(e->q->query_id, query_id) == 0;
    pthread_mutex_unlock(&mu);
    return found;
}
