#include "io/stream.h"

#include "base/buf.h"
#include "base/err.h"
#include "base/mem.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- file descriptors ---- */

typedef struct fd_in {
    instream base;
    int fd;
    bool owns_fd;
    char *name;
} fd_in;

static int fd_read(instream *s, void *dst, size_t cap, size_t *got)
{
    fd_in *f = (fd_in *)s;
    for (;;) {
        ssize_t n = read(f->fd, dst, cap);
        if (n >= 0) {
            *got = (size_t)n;
            s->offset += (uint64_t)n;
            return 0;
        }
        if (errno != EINTR)
            return err_set(ERR_CANNOT_READ_FROM_FILE_DESCRIPTOR, "Cannot read from file '%s' at offset %llu: %s",
                           s->name, (unsigned long long)s->offset, strerror(errno));
    }
}

static void fd_in_close(instream *s)
{
    fd_in *f = (fd_in *)s;
    if (f->owns_fd)
        close(f->fd);
    free(f->name);
    free(f);
}

static fd_in *fd_in_new(int fd, const char *name, bool owns)
{
    fd_in *f = xcalloc(1, sizeof *f);
    f->fd = fd;
    f->owns_fd = owns;
    f->name = xstrdup(name);
    f->base.read = fd_read;
    f->base.close = fd_in_close;
    f->base.name = f->name;
    return f;
}

int instream_open_file(const char *path, instream **out)
{
    if (!path || strcmp(path, "-") == 0) {
        *out = instream_from_fd(0, "stdin");
        return 0;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT)
            return err_set(ERR_FILE_DOESNT_EXIST, "File %s doesn't exist", path);
        return err_set(ERR_CANNOT_OPEN_FILE, "Cannot open file %s: %s", path, strerror(errno));
    }
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        close(fd);
        return err_set(ERR_CANNOT_READ_FROM_FILE_DESCRIPTOR, "Cannot read file %s: it is a directory", path);
    }
    fd_in *f = fd_in_new(fd, path, true);
    if (S_ISREG(st.st_mode))
        f->base.size_hint = (uint64_t)st.st_size;
    *out = &f->base;
    return 0;
}

instream *instream_from_fd(int fd, const char *name) { return &fd_in_new(fd, name, false)->base; }

/* ---- a byte range of a file ---- */

typedef struct range_in {
    instream base;
    int fd;
    uint64_t pos, end;
    char *name;
} range_in;

static int range_read(instream *s, void *dst, size_t cap, size_t *got)
{
    range_in *r = (range_in *)s;
    size_t want = r->end - r->pos < cap ? (size_t)(r->end - r->pos) : cap;
    if (want == 0) {
        *got = 0;
        return 0;
    }
    for (;;) {
        ssize_t n = pread(r->fd, dst, want, (off_t)r->pos);
        if (n >= 0) {
            if (n == 0)
                return err_set(ERR_CANNOT_READ_ALL_DATA,
                               "Cannot read all data from file '%s': it ended at offset %llu, expected %llu bytes more",
                               s->name, (unsigned long long)r->pos, (unsigned long long)(r->end - r->pos));
            r->pos += (uint64_t)n;
            s->offset += (uint64_t)n;
            *got = (size_t)n;
            return 0;
        }
        if (errno != EINTR)
            return err_set(ERR_CANNOT_READ_FROM_FILE_DESCRIPTOR, "Cannot read from file '%s' at offset %llu: %s",
                           s->name, (unsigned long long)r->pos, strerror(errno));
    }
}

static void range_close(instream *s)
{
    range_in *r = (range_in *)s;
    close(r->fd);
    free(r->name);
    free(r);
}

int instream_open_file_range(const char *path, uint64_t offset, uint64_t len, instream **out)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return err_set(errno == ENOENT ? ERR_FILE_DOESNT_EXIST : ERR_CANNOT_OPEN_FILE, "Cannot open file %s: %s", path,
                       strerror(errno));
    range_in *r = xcalloc(1, sizeof *r);
    r->fd = fd;
    r->pos = offset;
    r->end = offset + len;
    r->name = xstrdup(path);
    r->base.read = range_read;
    r->base.close = range_close;
    r->base.name = r->name;
    r->base.size_hint = len;
    *out = &r->base;
    return 0;
}

int file_pread(const char *path, uint64_t offset, void *dst, size_t n, size_t *got)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return err_set(ERR_CANNOT_OPEN_FILE, "Cannot open file %s: %s", path, strerror(errno));
    size_t done = 0;
    while (done < n) {
        ssize_t k = pread(fd, (char *)dst + done, n - done, (off_t)(offset + done));
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0) {
            close(fd);
            return err_set(ERR_CANNOT_READ_FROM_FILE_DESCRIPTOR, "Cannot read from file '%s' at offset %llu: %s", path,
                           (unsigned long long)(offset + done), strerror(errno));
        }
        if (k == 0)
            break;
        done += (size_t)k;
    }
    close(fd);
    *got = done;
    return 0;
}

/* ---- memory ---- */

typedef struct mem_in {
    instream base;
    const char *p;
    size_t n;
    size_t pos;
    char *name;
} mem_in;

static int mem_read(instream *s, void *dst, size_t cap, size_t *got)
{
    mem_in *m = (mem_in *)s;
    size_t k = m->n - m->pos < cap ? m->n - m->pos : cap;
    memcpy(dst, m->p + m->pos, k);
    m->pos += k;
    s->offset += k;
    *got = k;
    return 0;
}

static void mem_close(instream *s)
{
    mem_in *m = (mem_in *)s;
    free(m->name);
    free(m);
}

instream *instream_from_memory(const void *p, size_t n, const char *name)
{
    mem_in *m = xcalloc(1, sizeof *m);
    m->p = p;
    m->n = n;
    m->name = xstrdup(name ? name : "memory");
    m->base.read = mem_read;
    m->base.close = mem_close;
    m->base.name = m->name;
    m->base.size_hint = n;
    return &m->base;
}

/* ---- output ---- */

typedef struct fd_out {
    outstream base;
    int fd;
    bool owns_fd;
    char *name;
    buf pending; /* small writes are gathered so each write(2) moves at least 64 KiB */
} fd_out;

static int write_all(fd_out *f, const void *src, size_t n)
{
    const char *p = src;
    while (n) {
        ssize_t k = write(f->fd, p, n);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return err_set(ERR_CANNOT_WRITE_TO_FILE_DESCRIPTOR, "Cannot write to file '%s': %s", f->name,
                           strerror(errno));
        }
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

static int fd_write(outstream *s, const void *src, size_t n)
{
    fd_out *f = (fd_out *)s;
    s->offset += n;
    if (f->pending.len + n < (64u << 10)) {
        buf_append(&f->pending, src, n);
        return 0;
    }
    if (f->pending.len) {
        if (write_all(f, f->pending.p, f->pending.len))
            return -1;
        f->pending.len = 0;
    }
    return write_all(f, src, n);
}

static int fd_out_close(outstream *s)
{
    fd_out *f = (fd_out *)s;
    int rc = 0;
    if (f->pending.len)
        rc = write_all(f, f->pending.p, f->pending.len);
    if (f->owns_fd && close(f->fd) != 0 && rc == 0)
        rc = err_set(ERR_CANNOT_CLOSE_FILE, "Cannot close file '%s': %s", f->name, strerror(errno));
    buf_free(&f->pending);
    free(f->name);
    free(f);
    return rc;
}

static fd_out *fd_out_new(int fd, const char *name, bool owns)
{
    fd_out *f = xcalloc(1, sizeof *f);
    f->fd = fd;
    f->owns_fd = owns;
    f->name = xstrdup(name);
    f->base.write = fd_write;
    f->base.close = fd_out_close;
    f->base.name = f->name;
    return f;
}

int outstream_open_file(const char *path, bool append, outstream **out)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0644);
    if (fd < 0)
        return err_set(ERR_CANNOT_OPEN_FILE, "Cannot open file %s for writing: %s", path, strerror(errno));
    *out = &fd_out_new(fd, path, true)->base;
    return 0;
}

outstream *outstream_from_fd(int fd, const char *name) { return &fd_out_new(fd, name, false)->base; }

/* ---- rbuf ---- */

rbuf *rbuf_new(instream *in, size_t cap)
{
    rbuf *r = xcalloc(1, sizeof *r);
    r->in = in;
    r->cap = cap < 4096 ? 4096 : cap;
    r->base = mem_alloc(r->cap);
    r->pos = r->end = r->base;
    return r;
}

long rbuf_fill(rbuf *r)
{
    size_t unread = (size_t)(r->end - r->pos);
    if (r->eof)
        return (long)unread;
    if (r->pos != r->base) {
        r->consumed += (uint64_t)(r->pos - r->base);
        memmove(r->base, r->pos, unread);
        r->pos = r->base;
        r->end = r->base + unread;
    }
    if (unread == r->cap) { /* a value longer than the buffer: grow */
        r->cap *= 2;
        char *nb = mem_realloc(r->base, r->cap);
        r->pos = nb;
        r->end = nb + unread;
        r->base = nb;
    }
    size_t got;
    if (r->in->read(r->in, r->end, r->cap - unread, &got))
        return -1;
    if (got == 0)
        r->eof = true;
    r->end += got;
    return (long)(r->end - r->pos);
}

long rbuf_need(rbuf *r, size_t n)
{
    while ((size_t)(r->end - r->pos) < n && !r->eof)
        if (rbuf_fill(r) < 0)
            return -1;
    return (long)(r->end - r->pos);
}

void rbuf_free(rbuf *r)
{
    if (!r)
        return;
    if (r->in)
        r->in->close(r->in);
    mem_free(r->base);
    free(r);
}
