#include "base/arena.h"

#include "base/mem.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct arena_chunk {
    arena_chunk *next;
    size_t size;
    /* data follows, aligned to 16 */
    _Alignas(16) char data[];
};

void arena_init(arena *a)
{
    memset(a, 0, sizeof *a);
    a->next_size = 4096;
}

void *arena_alloc_slow(arena *a, size_t n, size_t align)
{
    if (!a->next_size)
        a->next_size = 4096;
    size_t size = a->next_size;
    while (size < n + align)
        size *= 2;
    /* Chunks grow geometrically up to 1 MiB so small arenas stay small and big ones
     * don't make millions of chunks. */
    if (a->next_size < (1u << 20))
        a->next_size *= 2;
    arena_chunk *c = mem_alloc(sizeof *c + size);
    c->next = a->head;
    c->size = size;
    a->head = c;
    a->total += size;
    a->pos = c->data;
    a->end = c->data + size;
    return arena_alloc(a, n, align);
}

void *arena_zalloc(arena *a, size_t n, size_t align)
{
    void *p = arena_alloc(a, n, align);
    memset(p, 0, n);
    return p;
}

char *arena_strndup(arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1, 1);
    if (n)
        memcpy(p, s, n); /* s may be NULL when n is 0 (an empty token) */
    p[n] = 0;
    return p;
}

char *arena_strdup(arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

char *arena_printf(arena *a, const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = arena_alloc(a, (size_t)(n < 0 ? 0 : n) + 1, 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return p;
}

void arena_free(arena *a)
{
    arena_chunk *c = a->head;
    while (c) {
        arena_chunk *next = c->next;
        mem_free(c);
        c = next;
    }
    arena_init(a);
}
