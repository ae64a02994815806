/* Byte reading shared by the binary input formats (Native, RowBinary): exact-length reads
 * and VarUInt from an rbuf, failing with CANNOT_READ_ALL_DATA / INCORRECT_DATA plus the
 * location the format's where() appends (block, row, column, byte offset). Private to
 * src/format (but binrd_whole_string); not thread-safe per instance. */
#ifndef SHALE_FORMAT_BINRD_H
#define SHALE_FORMAT_BINRD_H

#include "base/buf.h"
#include "column/column.h"
#include "io/stream.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct binrd {
    rbuf *in;
    /* Appends the location to the current error (err_suffix) and returns -1; gets the
     * binrd, which the format embeds first in its own context. */
    int (*where)(const struct binrd *b);
} binrd;

static inline int binrd_where(const binrd *b) { return b->where(b); }
int binrd_truncated(const binrd *b, uint64_t got, uint64_t want);
int binrd_corrupt(const binrd *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends exactly n input bytes to dst (dst grows only as the data actually arrives, so a
 * lying length cannot make us allocate much). */
int binrd_append(const binrd *b, buf *dst, uint64_t n);
int binrd_varuint(const binrd *b, uint64_t *v);
/* The length-prefixed String value at q (VarUInt length + bytes) when it lies wholly
 * before end and its length is at most max (canonical: and its VarUInt is the shortest,
 * as a writer would write it again): its length and its prefix's length. False: the value
 * needs the careful way (it crosses end, or is too long or malformed, which that way
 * reports). Shared with MergeTree's String reader, which parses values in place too. */
static inline bool binrd_whole_string(const uint8_t *q, const uint8_t *end, uint64_t max, bool canonical,
                                      uint64_t *len, size_t *h)
{
    uint64_t v = q[0];
    size_t n = 1;
    if (v & 0x80) {
        v &= 0x7F;
        bool more = true;
        while (more && n < 10 && q + n < end) {
            v |= (uint64_t)(q[n] & 0x7F) << (7 * n);
            more = q[n++] & 0x80;
        }
        if (more || (canonical && q[n - 1] == 0))
            return false;
    }
    if (v > max || v > (uint64_t)(end - q) - n)
        return false;
    *len = v;
    *h = n;
    return true;
}

/* Reads one aggregate function state of AggregateFunction type t (not length-prefixed:
 * its own layout says where it ends) and appends it to c. */
int binrd_aggstate(const binrd *b, const type *t, column *c);

#endif
