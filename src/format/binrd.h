/* Byte reading shared by the binary input formats (Native, RowBinary): exact-length reads
 * and VarUInt from an rbuf, failing with CANNOT_READ_ALL_DATA / INCORRECT_DATA plus the
 * location the format's where() appends (block, row, column, byte offset). Private to
 * src/format; not thread-safe per instance. */
#ifndef SHALE_FORMAT_BINRD_H
#define SHALE_FORMAT_BINRD_H

#include "base/buf.h"
#include "column/column.h"
#include "io/stream.h"

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
/* Reads one aggregate function state of AggregateFunction type t (not length-prefixed:
 * its own layout says where it ends) and appends it to c. */
int binrd_aggstate(const binrd *b, const type *t, column *c);

#endif
