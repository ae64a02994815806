#include "base/mem.h"

#include "base/err.h"

#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

mem_tracker mem_global;
static _Thread_local mem_tracker *tl_tracker;

/* Each block carries a header: its requested size, so mem_free can release the charge,
 * and its capacity (at least the size; more for a block reused from the cache). */
#define HDR 16

static size_t hdr_size(const char *block)
{
    size_t n;
    memcpy(&n, block, sizeof n);
    return n;
}

static size_t hdr_cap(const char *block)
{
    size_t n;
    memcpy(&n, block + sizeof n, sizeof n);
    return n;
}

static void hdr_set(char *block, size_t n, size_t cap)
{
    memcpy(block, &n, sizeof n);
    memcpy(block + sizeof n, &cap, sizeof cap);
}

/* Freed large blocks kept for reuse. An insert or a scan allocates the same large column
 * buffers block after block; glibc returns each to the kernel (munmap) and the next one
 * comes back as fresh pages that the kernel zeroes on first touch: a fifth of an insert's
 * CPU here. Up to 128 MiB of freed blocks are kept instead and handed out again to
 * requests that fit them closely (cached memory counts in RSS, so the bound is small);
 * mem_cache_release() returns them to the kernel. */
#define CACHE_FROM ((size_t)1 << 20)
#define CACHE_SLOTS 128
#define CACHE_MAX_BYTES ((size_t)128 << 20)

/* Under AddressSanitizer every block is really freed, so use-after-free stays visible. */
#if defined(__SANITIZE_ADDRESS__)
#define CACHE_ON 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CACHE_ON 0
#endif
#endif
#ifndef CACHE_ON
#define CACHE_ON 1
#endif

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static char *cache_block[CACHE_SLOTS];
static _Atomic size_t cache_bytes; /* read without the lock by mem_cache_release */

/* A cached block whose capacity holds n bytes and is at most twice n, or NULL. (Column
 * buffers grow by doubling, so sizes come in powers of two of each other.) */
static char *cache_take(size_t n)
{
    if (!CACHE_ON || n < CACHE_FROM)
        return NULL;
    char *best = NULL;
    int at = -1;
    pthread_mutex_lock(&cache_lock);
    for (int i = 0; i < CACHE_SLOTS; i++) {
        char *b = cache_block[i];
        if (b && hdr_cap(b) >= n && hdr_cap(b) <= n + n / 4 && (!best || hdr_cap(b) < hdr_cap(best))) {
            best = b;
            at = i;
        }
    }
    if (best) {
        cache_block[at] = NULL;
        cache_bytes -= hdr_cap(best);
    }
    pthread_mutex_unlock(&cache_lock);
    return best;
}

/* Keeps a freed block for reuse if there is room; else frees it. */
static void cache_put(char *block)
{
    size_t cap = hdr_cap(block);
    if (CACHE_ON && cap >= CACHE_FROM) {
        pthread_mutex_lock(&cache_lock);
        for (int i = 0; i < CACHE_SLOTS && cache_bytes + cap <= CACHE_MAX_BYTES; i++)
            if (!cache_block[i]) {
                cache_block[i] = block;
                cache_bytes += cap;
                block = NULL;
                break;
            }
        pthread_mutex_unlock(&cache_lock);
    }
    free(block);
}

size_t mem_cache_bytes(void)
{
    pthread_mutex_lock(&cache_lock);
    size_t n = cache_bytes;
    pthread_mutex_unlock(&cache_lock);
    return n;
}

void mem_cache_release(void)
{
    if (!cache_bytes) /* nothing cached: no lock, no syscalls (a server calls this per query) */
        return;
    pthread_mutex_lock(&cache_lock);
    for (int i = 0; i < CACHE_SLOTS; i++) {
        free(cache_block[i]);
        cache_block[i] = NULL;
    }
    cache_bytes = 0;
    pthread_mutex_unlock(&cache_lock);
}

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

/* `exceeded` goes 0 → EXCEEDED_WRITING (one thread won the right to write the message)
 * → EXCEEDED_READY (the message is complete): a reader that saw the flag before the
 * message was written reported an empty error. */
enum { EXCEEDED_WRITING = 1, EXCEEDED_READY = 2 };

static void publish_exceeded(mem_tracker *t, const char *what, int64_t now, int64_t n, int64_t limit)
{
    char would[32], chunk[32], max[32];
    mem_format_binary((double)now, would, sizeof would);
    mem_format_binary((double)n, chunk, sizeof chunk);
    mem_format_binary((double)limit, max, sizeof max);
    snprintf(t->exceeded_msg, sizeof t->exceeded_msg,
             "%s: would use %s (attempt to allocate chunk of %s), maximum: %s.", what, would, chunk, max);
    atomic_store_explicit(&t->exceeded, EXCEEDED_READY, memory_order_release);
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
        if (atomic_compare_exchange_strong(&t->exceeded, &expected, EXCEEDED_WRITING))
            /* ClickHouse 26.7's wording (older releases said "Memory limit (for query)
             * exceeded"). */
            publish_exceeded(t, "Query memory limit exceeded", now, n, t->limit);
    }
}

/* The process-wide limit (a server's max_server_memory_usage) fails the query whose
 * allocation crosses it, not the process: the query's own tracker takes the error, and
 * the process tracker stays usable for the queries that follow. */
static void charge_total(mem_tracker *query, int64_t n)
{
    int64_t now = atomic_fetch_add_explicit(&mem_global.used, n, memory_order_relaxed) + n;
    if (n <= 0)
        return;
    int64_t peak = atomic_load_explicit(&mem_global.peak, memory_order_relaxed);
    while (now > peak &&
           !atomic_compare_exchange_weak_explicit(&mem_global.peak, &peak, now, memory_order_relaxed,
                                                  memory_order_relaxed))
        ;
    if (mem_global.limit > 0 && now > mem_global.limit && query &&
        !atomic_load_explicit(&query->exceeded, memory_order_relaxed)) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&query->exceeded, &expected, EXCEEDED_WRITING))
            publish_exceeded(query, "(total) memory limit exceeded", now, n, mem_global.limit);
    }
}

void mem_charge(int64_t n)
{
    for (mem_tracker *t = tl_tracker; t; t = t->parent) {
        if (t == &mem_global)
            charge_total(tl_tracker != &mem_global ? tl_tracker : NULL, n);
        else
            charge_one(t, n);
    }
    if (!tl_tracker)
        charge_total(NULL, n);
}

int mem_tracker_check(mem_tracker *t)
{
    if (!t || !atomic_load_explicit(&t->exceeded, memory_order_acquire))
        return 0;
    /* The writer is between its flag and its store of READY: a few hundred nanoseconds. */
    while (atomic_load_explicit(&t->exceeded, memory_order_acquire) != EXCEEDED_READY)
        sched_yield();
    return err_set(ERR_MEMORY_LIMIT_EXCEEDED, "%s", t->exceeded_msg);
}

/* A first touch of a page costs 10–30 µs on these (virtualised) machines, and a query
 * over a few hundred Parquet files touches thousands of fresh heap pages (footers,
 * buffers): that was a third of its time. The main heap's first HEAP_HUGE bytes are
 * therefore taken at once and marked for transparent huge pages, so that a first touch
 * maps 2 MiB; freeing the block leaves it as the heap's top (below the trim threshold),
 * where later allocations come from. RSS grows by at most the huge pages touched. */
#define HEAP_HUGE ((size_t)32 << 20)
#define HEAP_HUGE_THREAD ((size_t)16 << 20)

/* Marks [p, p + n) for huge pages where whole 2 MiB pages fit. */
static void advise_range(uintptr_t p, uintptr_t end)
{
    uintptr_t from = (p + ((uintptr_t)2 << 20) - 1) & ~(((uintptr_t)2 << 20) - 1);
    uintptr_t to = end & ~(((uintptr_t)2 << 20) - 1);
    if (to > from)
        madvise((void *)from, to - from, MADV_HUGEPAGE);
}

/* A thread's malloc arena (not the main heap) lives in heaps of 64 MiB aligned to their
 * size; each is prepared once: its first 2 MiB, whose first page glibc has touched already
 * (so no huge page can map it), is taken by a block that is never freed nor touched
 * (address space only); the next HEAP_HUGE_THREAD bytes are grown with blocks below the
 * mmap threshold (the threshold itself is left alone: other threads may be allocating),
 * marked for huge pages and freed, so that later allocations come from there. */
#define ARENA_HEAP ((uintptr_t)64 << 20)
#define MAX_PREPARED 64

static pthread_mutex_t prepared_lock = PTHREAD_MUTEX_INITIALIZER;
static uintptr_t prepared[MAX_PREPARED];
static int nprepared;
static uintptr_t main_heap_lo, main_heap_hi; /* the brk heap's block marked in mem_init */

static void prepare_thread_arena(void)
{
#ifndef __SANITIZE_ADDRESS__
    char *probe = malloc(64);
    if (!probe)
        return;
    uintptr_t at = (uintptr_t)probe, heap = at & ~(ARENA_HEAP - 1);
    free(probe);
    if ((at >= main_heap_lo && at < main_heap_hi) || at - heap > ((uintptr_t)2 << 20))
        return; /* the main heap, or not where a fresh arena heap hands out memory */
    pthread_mutex_lock(&prepared_lock);
    bool seen = false;
    for (int i = 0; i < nprepared && !seen; i++)
        seen = prepared[i] == heap;
    bool mine = !seen && nprepared < MAX_PREPARED;
    if (mine)
        prepared[nprepared++] = heap;
    pthread_mutex_unlock(&prepared_lock);
    if (!mine)
        return;
    /* One block, so that no chunk header touches a page inside the span before it is
     * marked (a touched page keeps its 2 MiB range on small pages). The mmap threshold
     * is raised for it under prepared_lock; a concurrent allocation of 4–32 MiB by another
     * thread may meanwhile come from its arena instead of mmap, which is harmless. */
    size_t pad = ((size_t)2 << 20) - (at - heap) - 4096;
    pthread_mutex_lock(&prepared_lock);
    void *keep = malloc(pad); /* kept for the life of the process, never touched */
    mallopt(M_MMAP_THRESHOLD, (int)(2 * HEAP_HUGE_THREAD));
    char *p = keep ? malloc(HEAP_HUGE_THREAD) : NULL;
    mallopt(M_MMAP_THRESHOLD, 4 << 20);
    pthread_mutex_unlock(&prepared_lock);
    if (p && ((uintptr_t)p & ~(ARENA_HEAP - 1)) == heap)
        advise_range((uintptr_t)p, (uintptr_t)p + HEAP_HUGE_THREAD);
    free(p);
#endif
}

void mem_thread_init(void)
{
    static _Thread_local bool done;
    if (!done) {
        done = true;
        prepare_thread_arena();
    }
}

void mem_init_server(void)
{
    /* Measured with `bench/server/http-bench.sh` (SELECT 1, 16 keep-alive clients, 2 cores):
     * with one arena per core, threads met on the arena locks about four times per request
     * (futex calls from malloc/calloc/realloc); four per core: 20 900 → 23 800 requests/s. */
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    mallopt(M_ARENA_MAX, 4 * (ncpu > 1 ? (int)ncpu : 1));
}

void mem_init(void)
{
    /* Measured on the 6 M-row posts INSERT (bench/results, docs/performance.md): blocks of
     * 4 MiB and more are mmap'd, so freeing them returns their pages, and the cache above
     * (128 MiB) keeps the ones that come back; one arena per core limits the memory glibc
     * holds in per-thread arenas. Together: peak RSS ~1.2 GiB instead of ~1.8 GiB for a
     * second more of the 18 s. */
    mallopt(M_MMAP_THRESHOLD, 4 << 20);
    mallopt(M_TRIM_THRESHOLD, 128 << 20);
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    mallopt(M_ARENA_MAX, ncpu > 1 ? (int)ncpu : 1);
    /* still single-threaded: the mmap threshold may be raised for one block */
    mallopt(M_MMAP_THRESHOLD, (int)(2 * HEAP_HUGE));
    char *p = malloc(HEAP_HUGE);
    mallopt(M_MMAP_THRESHOLD, 4 << 20);
    if (p) {
        main_heap_lo = (uintptr_t)p;
        main_heap_hi = (uintptr_t)p + HEAP_HUGE;
        advise_range(main_heap_lo, main_heap_hi);
        free(p);
    }
}

/* Large blocks (column buffers of an insert batch, decoded pages) are mmap'd by glibc and
 * first touched by a copy; faulting them in 4 KiB at a time cost a fifth of an insert's
 * CPU here. Transparent huge pages fault 2 MiB at a time; the kernel uses them for regions
 * that ask (the usual "madvise" setting). */
#define HUGE_FROM ((size_t)8 << 20)
#define HUGE_PAGE ((uintptr_t)2 << 20)

static void advise_huge(char *p, size_t n)
{
    if (n < HUGE_FROM)
        return;
    uintptr_t from = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    uintptr_t to = ((uintptr_t)p + n) & ~(HUGE_PAGE - 1);
    if (to > from)
        madvise((void *)from, to - from, MADV_HUGEPAGE); /* a hint: failure changes nothing */
}

static void oom(size_t n)
{
    fprintf(stderr, "shale: out of memory allocating %zu bytes\n", n);
    exit(173);
}

void *mem_alloc(size_t n)
{
    char *p = cache_take(n);
    if (p) {
        hdr_set(p, n, hdr_cap(p));
    } else {
        if (!(p = malloc(n + HDR)))
            oom(n);
        hdr_set(p, n, n);
        advise_huge(p, n + HDR);
    }
    mem_charge((int64_t)n);
    return p + HDR;
}

void *mem_calloc(size_t n)
{
    char *p = calloc(1, n + HDR);
    if (!p)
        oom(n);
    hdr_set(p, n, n);
    mem_charge((int64_t)n);
    return p + HDR;
}

size_t mem_size(const void *p) { return hdr_size((const char *)p - HDR); }

void *mem_realloc(void *p, size_t n)
{
    if (!p)
        return mem_alloc(n);
    char *b = (char *)p - HDR;
    size_t old = hdr_size(b), cap = hdr_cap(b);
    if (n <= cap && (n >= cap - cap / 8 || (n > old && n >= cap / 2))) {
        /* fits its block: growing into a reused block's spare room, or shrinking a little
         * (a larger shrink goes to realloc, which gives the pages back) */
        hdr_set(b, n, cap);
        mem_charge((int64_t)n - (int64_t)old);
        return p;
    }
    char *q = cache_take(n);
    if (q) {
        memcpy(q + HDR, p, old < n ? old : n);
        cache_put(b);
        hdr_set(q, n, hdr_cap(q));
    } else {
        if (!(q = realloc(b, n + HDR)))
            oom(n);
        hdr_set(q, n, n);
        if (n > old)
            advise_huge(q, n + HDR);
    }
    mem_charge((int64_t)n - (int64_t)old);
    return q + HDR;
}

void mem_free(void *p)
{
    if (!p)
        return;
    char *b = (char *)p - HDR;
    mem_charge(-(int64_t)hdr_size(b));
    cache_put(b);
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
