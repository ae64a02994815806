/* See binrd.h. */
#include "format/binrd.h"
#include "format/rd.h"

#include "base/err.h"
#include "func/agg_state.h"

#include <stdarg.h>
#include <stdio.h>

int binrd_truncated(const binrd *b, uint64_t got, uint64_t want)
{
    err_set(ERR_CANNOT_READ_ALL_DATA, "Cannot read all data. Bytes read: %llu. Bytes expected: %llu",
            (unsigned long long)got, (unsigned long long)want);
    return binrd_where(b);
}

int binrd_corrupt(const binrd *b, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    err_set(ERR_INCORRECT_DATA, "%s", msg);
    return binrd_where(b);
}

int binrd_append(const binrd *b, buf *dst, uint64_t n)
{
    /* The room at once (a block's column arrives in pieces of the read buffer: growing by
     * doubling would copy it again and again); capped, since n comes from the input and a
     * corrupt length must fail at the input's end, not in the allocation. */
    if (n > (uint64_t)(b->in->end - b->in->pos))
        buf_reserve(dst, (size_t)(n < ((uint64_t)1 << 26) ? n : (uint64_t)1 << 26));
    uint64_t got = 0;
    while (got < n) {
        if (b->in->pos == b->in->end) {
            long r = rbuf_fill(b->in);
            if (r < 0)
                return -1;
            if (r == 0)
                return binrd_truncated(b, got, n);
        }
        size_t avail = (size_t)(b->in->end - b->in->pos);
        size_t k = n - got < avail ? (size_t)(n - got) : avail;
        buf_append(dst, b->in->pos, k);
        b->in->pos += k;
        got += k;
    }
    return 0;
}

int binrd_varuint(const binrd *b, uint64_t *v)
{
    *v = 0;
    for (int i = 0; i < 10; i++) {
        int c = rd_peek(b->in, 0);
        if (c == -2)
            return -1;
        if (c == -1)
            return binrd_truncated(b, (uint64_t)i, (uint64_t)i + 1);
        b->in->pos++;
        *v |= (uint64_t)(c & 0x7F) << (7 * i);
        if (!(c & 0x80))
            return 0;
    }
    return binrd_corrupt(b, "Malformed VarUInt: more than 10 bytes");
}

int binrd_aggstate(const binrd *b, const type *t, column *c)
{
    /* Ask the stream only for bytes the state certainly has: a network stream must not
     * wait for (or a compressed one decode into) bytes past the end of its packet. A
     * truncated stream ends with CANNOT_READ_ALL_DATA. */
    size_t want = 1;
    for (;;) {
        long avail = rbuf_need(b->in, want);
        if (avail < 0)
            return -1;
        size_t used, need = 0;
        if (agg_state_span_need(t, (const uint8_t *)b->in->pos, (size_t)avail, &used, &need) == 0) {
            col_push_str(c, b->in->pos, used);
            b->in->pos += used;
            return 0;
        }
        if (err_code() != ERR_CANNOT_READ_ALL_DATA || (size_t)avail < want || need == 0)
            return binrd_where(b);
        want = (size_t)avail + need;
    }
}
