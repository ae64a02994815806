/* arena: a bump allocator for things that live and die together (an AST, a query plan,
 * aggregation states of one thread, strings copied into a hash table).
 *
 * Memory comes from mem_alloc in chunks, so it is tracked. Nothing is freed individually;
 * arena_free releases everything. Not thread-safe: one arena per thread or per owner. */
#ifndef SHALE_BASE_ARENA_H
#define SHALE_BASE_ARENA_H

#include <stddef.h>

typedef struct arena_chunk arena_chunk;

typedef struct arena {
    arena_chunk *head;
    char *pos;
    char *end;
    size_t next_size;
    size_t total;      /* bytes in chunks */
} arena;

void arena_init(arena *a);
void *arena_alloc_slow(arena *a, size_t n, size_t align);

/* Never NULL. n may be 0. */
static inline void *arena_alloc(arena *a, size_t n, size_t align)
{
    size_t mis = (size_t)a->pos & (align - 1);
    size_t pad = mis ? align - mis : 0;
    if (a->pos && (size_t)(a->end - a->pos) >= n + pad) {
        void *p = a->pos + pad;
        a->pos += n + pad;
        return p;
    }
    return arena_alloc_slow(a, n, align);
}

#define ARENA_NEW(a, T) ((T *)arena_zalloc((a), sizeof(T), _Alignof(T)))
#define ARENA_ARRAY(a, T, n) ((T *)arena_zalloc((a), sizeof(T) * (n), _Alignof(T)))

void *arena_zalloc(arena *a, size_t n, size_t align);
char *arena_strndup(arena *a, const char *s, size_t n);
char *arena_strdup(arena *a, const char *s);
char *arena_printf(arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void arena_free(arena *a);

#endif
