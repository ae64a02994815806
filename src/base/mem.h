/* Tracked memory.
 *
 * Large and per-query allocations (column buffers, hash tables, arenas) go through mem_*
 * so that a query's memory is counted, its peak reported and `max_memory_usage` enforced.
 * Each thread has a current tracker (mem_tracker_attach); allocations made while no
 * tracker is attached are counted only globally.
 *
 * Enforcement is soft by design: an allocation that crosses the limit still succeeds, but
 * marks the tracker as exceeded with ClickHouse's message; operators poll
 * mem_tracker_check() at block boundaries and fail the query there. So a query overshoots
 * its limit by at most one block's allocations, and no allocation site needs an error path.
 * If malloc itself fails the process reports and exits (Linux overcommit makes that a
 * kernel OOM situation, not a recoverable one).
 *
 * Thread-safety: trackers are updated with atomics; attach is per thread. */
#ifndef SHALE_BASE_MEM_H
#define SHALE_BASE_MEM_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

typedef struct mem_tracker {
    _Atomic int64_t used;
    _Atomic int64_t peak;
    int64_t limit;                /* bytes; 0 = unlimited */
    _Atomic int exceeded;         /* nonzero once the limit was crossed (see mem.c) */
    char exceeded_msg[512];       /* complete once mem_tracker_check reports it */
    struct mem_tracker *parent;   /* charged too (e.g. the process tracker) */
} mem_tracker;

void mem_tracker_init(mem_tracker *t, int64_t limit, mem_tracker *parent);
/* Makes t the calling thread's tracker; returns the previous one. */
mem_tracker *mem_tracker_attach(mem_tracker *t);
mem_tracker *mem_tracker_current(void);
/* 0, or -1 with ERR_MEMORY_LIMIT_EXCEEDED set when the limit was crossed. */
int mem_tracker_check(mem_tracker *t);
/* Charges (or with a negative n, releases) bytes against the thread's tracker chain. */
void mem_charge(int64_t n);

/* Tunes glibc's allocator for column buffers (mmap threshold, trim threshold, arenas);
 * see mem.c for the measurements behind the values. Call once at startup. */
void mem_init(void);
/* For a server, after mem_init: more malloc arenas (4 per core instead of 1), because many
 * connection threads allocating small objects at once queue on a shared arena's lock. */
void mem_init_server(void);
/* Call first in a thread that will allocate much (query workers): prepares its malloc
 * arena for transparent huge pages, as mem_init does for the main heap. Cheap when
 * repeated. */
void mem_thread_init(void);

/* The process-wide tracker, parent of every query tracker. */
extern mem_tracker mem_global;

void *mem_alloc(size_t n);              /* uninitialised; never NULL */
void *mem_calloc(size_t n);             /* zeroed; never NULL */
void *mem_realloc(void *p, size_t n);   /* p may be NULL */
void mem_free(void *p);                 /* p may be NULL */
size_t mem_size(const void *p);         /* requested size of a mem_alloc block */
/* Freed blocks of 1 MiB and more are kept (up to 128 MiB) and reused by later requests of
 * about their size, so that column buffers do not come back from the kernel as fresh pages
 * block after block. This returns them to the kernel; call it when a statement ends. */
void mem_cache_release(void);
/* Bytes of freed blocks held for reuse now (always 0 under AddressSanitizer, which must
 * see every free). */
size_t mem_cache_bytes(void);

/* Untracked helpers for small long-lived things: exit on OOM instead of returning NULL. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* "1.50 GiB": ClickHouse's formatReadableSizeWithBinarySuffix. */
void mem_format_binary(double bytes, char *out, size_t cap);

#endif
