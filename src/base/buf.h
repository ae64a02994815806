/* buf: a growable byte vector in tracked memory (mem_alloc).
 *
 * The owner of a buf frees it with buf_free. Growth at least doubles capacity, so appends
 * are amortised O(1). Not thread-safe; one owner at a time. Allocation never fails (see
 * mem.h), so none of these return an error. */
#ifndef SHALE_BASE_BUF_H
#define SHALE_BASE_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct buf {
    uint8_t *p;
    size_t len;
    size_t cap;
} buf;

void buf_reserve_slow(buf *b, size_t need);

/* Ensures room for `extra` more bytes beyond len. */
static inline void buf_reserve(buf *b, size_t extra)
{
    if (b->len + extra > b->cap)
        buf_reserve_slow(b, b->len + extra);
}

/* Grows len by n (uninitialised) and returns a pointer to the new bytes. */
static inline void *buf_grow(buf *b, size_t n)
{
    buf_reserve(b, n ? n : 1); /* never hand out NULL + 0 */
    void *p = b->p + b->len;
    b->len += n;
    return p;
}

static inline void buf_append(buf *b, const void *src, size_t n)
{
    buf_reserve(b, n);
    if (n)
        memcpy(b->p + b->len, src, n);
    b->len += n;
}

static inline void buf_putc(buf *b, char c)
{
    buf_reserve(b, 1);
    b->p[b->len++] = (uint8_t)c;
}

static inline void buf_puts(buf *b, const char *s) { buf_append(b, s, strlen(s)); }

void buf_printf(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vprintf(buf *b, const char *fmt, va_list ap);

/* Sets len to n, zero-filling any new bytes. */
void buf_resize_zero(buf *b, size_t n);
void buf_free(buf *b);
/* Returns the bytes as a NUL-terminated string owned by the buf (len unchanged). */
const char *buf_cstr(buf *b);

#endif
