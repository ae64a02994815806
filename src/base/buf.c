#include "base/buf.h"

#include "base/mem.h"

#include <stdio.h>

void buf_reserve_slow(buf *b, size_t need)
{
    size_t cap = b->cap ? b->cap * 2 : 64;
    while (cap < need)
        cap *= 2;
    b->p = mem_realloc(b->p, cap);
    b->cap = cap;
}

void buf_vprintf(buf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    char tmp[256];
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    if (n < 0) {
        va_end(ap2);
        return;
    }
    if ((size_t)n < sizeof tmp) {
        buf_append(b, tmp, (size_t)n);
    } else {
        buf_reserve(b, (size_t)n + 1);
        vsnprintf((char *)b->p + b->len, (size_t)n + 1, fmt, ap2);
        b->len += (size_t)n;
    }
    va_end(ap2);
}

void buf_printf(buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void buf_resize_zero(buf *b, size_t n)
{
    if (n > b->len) {
        buf_reserve(b, n - b->len);
        memset(b->p + b->len, 0, n - b->len);
    }
    b->len = n;
}

void buf_free(buf *b)
{
    mem_free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}

const char *buf_cstr(buf *b)
{
    buf_reserve(b, 1);
    b->p[b->len] = 0;
    return (const char *)b->p;
}
