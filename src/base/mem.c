#include "base/mem.h"

#include "base/err.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

mem_tracker mem_global;
static _Thread_local mem_tracker *tl_tracker;

/* Each block carries its requested size in a header so mem_free can release the charge. */
#define HDR 16

void mem_tracker_init(mem_tracker *t, int64_t limit, mem_tracker *parent)
{
    atomic_store(&t->used, 0);
    atomic_store(&t->peak, 0);
    atomic_store(&t->exceeded, 0);
    t->limit = limit;
    t->exceeded_msg[0] = 0;
    t->parent = parent;
}

mem_tracker *mem_tracker_attach(mem_tracker *t)
{
    mem_tracker *old = tl_tracker;
    tl_tracker = t;
    return old;
}

mem_tracker *mem_tracker_current(void) { return tl_tracker; }

void mem_format_binary(double bytes, char *out, size_t cap)
{
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int u = 0;
    double v = bytes < 0 ? -bytes : bytes;
    while (v >= 1024 && u < 6) {
        v /= 1024;
        u++;
    }
    snprintf(out, cap, "%s%.2f %s", bytes < 0 ? "-" : "", v, units[u]);
}

static void charge_one(mem_tracker *t, int64_t n)
{
    int64_t now = atomic_fetch_add_explicit(&t->used, n, memory_order_relaxed) + n;
    if (n <= 0)
        return;
    int64_t peak = atomic_load_explicit(&t->peak, memory_order_relaxed);
    while (now > peak &&
           !atomic_compare_exchange_weak_explicit(&t->peak, &peak, now, memory_order_relaxed,
                                                  memory_order_relaxed))
        ;
    if (t->limit > 0 && now > t->limit && !atomic_load_explicit(&t->exceeded, memory_order_relaxed)) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&t->exceeded, &expected, 1)) {
            char would[32], chunk[32], max[32];
            mem_format_binary((double)now, would, sizeof would);
            mem_format_binary((double)n, chunk, sizeof chunk);
            mem_format_binary((double)t->limit, max, sizeof max);
            /* ClickHouse 26.7's wording (older releases said "Memory limit (for query)
             * exceeded"). */
            snprintf(t->exceeded_msg, sizeof t->exceeded_msg,
                     "Query memory limit exceeded: would use %s (attempt to allocate chunk of %s), maximum: %s.", would,
                     chunk, max);
        }
    }
}

void mem_charge(int64_t n)
{
    for (mem_tracker *t = tl_tracker; t; t = t->parent)
        charge_one(t, n);
    if (!tl_tracker)
        charge_one(&mem_global, n);
}

int mem_tracker_check(mem_tracker *t)
{
    if (t && atomic_load_explicit(&t->exceeded, memory_order_acquire))
        return err_set(ERR_MEMORY_LIMIT_EXCEEDED, "%s", t->exceeded_msg);
    return 0;
}

void mem_init(void)
{
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 512 << 20);
}

static void oom(size_t n)
{
    fprintf(stderr, "shale: out of memory allocating %zu bytes\n", n);
    exit(173);
}

void *mem_alloc(size_t n)
{
    char *p = malloc(n + HDR);
    if (!p)
        oom(n);
    memcpy(p, &n, sizeof n);
    mem_charge((int64_t)n);
    return p + HDR;
}

void *mem_calloc(size_t n)
{
    char *p = calloc(1, n + HDR);
    if (!p)
        oom(n);
    memcpy(p, &n, sizeof n);
    mem_charge((int64_t)n);
    return p + HDR;
}

size_t mem_size(const void *p)
{
    size_t n;
    memcpy(&n, (const char *)p - HDR, sizeof n);
    return n;
}

void *mem_realloc(void *p, size_t n)
{
    if (!p)
        return mem_alloc(n);
    size_t old = mem_size(p);
    char *q = realloc((char *)p - HDR, n + HDR);
    if (!q)
        oom(n);
    memcpy(q, &n, sizeof n);
    mem_charge((int64_t)n - (int64_t)old);
    return q + HDR;
}

void mem_free(void *p)
{
    if (!p)
        return;
    mem_charge(-(int64_t)mem_size(p));
    free((char *)p - HDR);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        oom(n);
    return p;
}

void *xcalloc(size_t n, size_t m)
{
    void *p = calloc(n ? n : 1, m ? m : 1);
    if (!p)
        oom(n * m);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        oom(n);
    return q;
}

char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }

char *xstrndup(const char *s, size_t n)
{
    char *p = xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}
