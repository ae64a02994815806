/* Byte streams.
 *
 * instream: a pull interface for sequential reading (a local file, stdin, a decompressor
 * wrapped around another stream, later an HTTP body). outstream: a push interface for
 * writing. rbuf: a read buffer over an instream, which parsers use.
 *
 * Ownership: a stream is freed by its close(); a wrapping stream (decompressor) owns and
 * closes the stream it wraps. Errors: read/write return -1 with err_set naming the stream
 * (`name`) and the byte offset. Not thread-safe; one reader at a time. */
#ifndef SHALE_IO_STREAM_H
#define SHALE_IO_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct instream {
    /* Reads up to cap bytes into dst; *got = 0 means end of stream. */
    int (*read)(struct instream *s, void *dst, size_t cap, size_t *got);
    void (*close)(struct instream *s);
    const char *name;     /* file path or URL, for messages */
    uint64_t offset;      /* bytes delivered so far */
    uint64_t size_hint;   /* total size when known, else 0 (for progress) */
} instream;

typedef struct outstream {
    int (*write)(struct outstream *s, const void *src, size_t n);
    /* Flushes and closes; returns -1 if buffered data could not be written. */
    int (*close)(struct outstream *s);
    const char *name;
    uint64_t offset;
} outstream;

/* Local files. path "-" or NULL with fd: stdin/stdout. */
int instream_open_file(const char *path, instream **out);
instream *instream_from_fd(int fd, const char *name); /* does not close fd */
/* Bytes [offset, offset + len) of a local file, read with pread. */
int instream_open_file_range(const char *path, uint64_t offset, uint64_t len, instream **out);
/* Reads up to n bytes at offset of a local file into dst; *got is what was read. */
int file_pread(const char *path, uint64_t offset, void *dst, size_t n, size_t *got);
instream *instream_from_memory(const void *p, size_t n, const char *name); /* borrows p */
int outstream_open_file(const char *path, bool append, outstream **out);
outstream *outstream_from_fd(int fd, const char *name); /* does not close fd */

/* rbuf: a refillable window over an instream.
 *   pos..end are unread bytes; rbuf_fill moves unread bytes to the front and reads more.
 * Parsers look at pos/end directly and call rbuf_fill when they need more. */
typedef struct rbuf {
    instream *in;         /* owned */
    char *base;
    char *pos;
    char *end;
    size_t cap;
    bool eof;
    uint64_t consumed;    /* stream offset of base */
} rbuf;

rbuf *rbuf_new(instream *in, size_t cap);
/* Reads more data; keeps unread bytes. Returns bytes now available (0 at EOF) or -1. */
long rbuf_fill(rbuf *r);
/* Ensures at least n unread bytes unless EOF comes first; returns available count or -1. */
long rbuf_need(rbuf *r, size_t n);
static inline uint64_t rbuf_offset(const rbuf *r) { return r->consumed + (uint64_t)(r->pos - r->base); }
void rbuf_free(rbuf *r);

#endif
