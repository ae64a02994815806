#include "exec/spill.h"

#include "base/err.h"
#include "base/mem.h"
#include "format/native_block.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SPILL_BUF ((size_t)1 << 20)

struct spill_file {
    int fd;
    uint64_t size;  /* bytes written, flushed or not */
    uint64_t flushed;
    char *buf;      /* SPILL_BUF bytes, tracked */
    size_t used;
};

static _Atomic int64_t open_files;
static _Atomic uint64_t bytes_written;

int64_t spill_open_files(void) { return atomic_load(&open_files); }
uint64_t spill_bytes_written(void) { return atomic_load(&bytes_written); }

void spill_dir(const query_ctx *q, char *out, size_t cap)
{
    if (q && q->tmp_path && q->tmp_path[0]) {
        snprintf(out, cap, "%s", q->tmp_path);
    } else if (q && q->data_path) {
        snprintf(out, cap, "%s/tmp", q->data_path);
    } else {
        const char *t = getenv("TMPDIR");
        snprintf(out, cap, "%s", t && *t ? t : "/tmp");
    }
}

/* mkdir -p: tmp_path may name a directory several levels below an existing one. */
static int make_dirs(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        if (mkdir(path, 0755) != 0 && errno != EEXIST)
            return err_set(ERR_CANNOT_CREATE_DIRECTORY, "Cannot create directory %s for temporary files: %s", path,
                           strerror(errno));
        *p = '/';
    }
    if (mkdir(path, 0755) != 0 && errno != EEXIST)
        return err_set(ERR_CANNOT_CREATE_DIRECTORY, "Cannot create directory %s for temporary files: %s", path,
                       strerror(errno));
    return 0;
}

int spill_file_create(const char *dir, spill_file **out)
{
    *out = NULL;
    if (make_dirs(dir))
        return -1;
    int fd = -1;
#ifdef O_TMPFILE
    fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
    if (fd < 0) { /* a file system without O_TMPFILE: a named file, unlinked at once */
        char path[4096];
        snprintf(path, sizeof path, "%s/tmp_spill_XXXXXX", dir);
        fd = mkstemp(path);
        if (fd >= 0)
            unlink(path);
    }
    if (fd < 0)
        return err_set(ERR_CANNOT_OPEN_FILE, "Cannot create a temporary file in %s: %s", dir, strerror(errno));
    spill_file *f = xcalloc(1, sizeof *f);
    f->fd = fd;
    f->buf = mem_alloc(SPILL_BUF);
    atomic_fetch_add(&open_files, 1);
    *out = f;
    return 0;
}

static int write_all(spill_file *f, const char *p, size_t n)
{
    while (n) {
        ssize_t w = pwrite(f->fd, p, n, (off_t)f->flushed);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = w < 0 ? errno : ENOSPC;
            return err_set(e == ENOSPC ? ERR_NOT_ENOUGH_SPACE : ERR_CANNOT_WRITE_TO_FILE_DESCRIPTOR,
                           "Cannot write to a temporary file: %s", strerror(e));
        }
        p += w;
        n -= (size_t)w;
        f->flushed += (uint64_t)w;
        atomic_fetch_add(&bytes_written, (uint64_t)w);
    }
    return 0;
}

int spill_flush(spill_file *f)
{
    int rc = write_all(f, f->buf, f->used);
    f->used = 0;
    return rc;
}

int spill_write(spill_file *f, const void *p, size_t n)
{
    f->size += n;
    if (f->used + n <= SPILL_BUF) {
        memcpy(f->buf + f->used, p, n);
        f->used += n;
        return 0;
    }
    if (spill_flush(f))
        return -1;
    if (n >= SPILL_BUF)
        return write_all(f, p, n);
    memcpy(f->buf, p, n);
    f->used = n;
    return 0;
}

uint64_t spill_size(const spill_file *f) { return f->size; }

int spill_read_at(spill_file *f, uint64_t off, void *dst, size_t n)
{
    if (off + n > f->flushed)
        return err_set(ERR_CANNOT_READ_ALL_DATA, "Cannot read %zu bytes at offset %llu of a temporary file of %llu bytes",
                       n, (unsigned long long)off, (unsigned long long)f->flushed);
    char *d = dst;
    while (n) {
        ssize_t r = pread(f->fd, d, n, (off_t)off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return err_set(ERR_CANNOT_READ_FROM_FILE_DESCRIPTOR, "Cannot read from a temporary file: %s",
                           r < 0 ? strerror(errno) : "unexpected end of file");
        d += r;
        n -= (size_t)r;
        off += (uint64_t)r;
    }
    return 0;
}

int spill_write_block(spill_file *f, buf *io, const schema *hdr, const block *b)
{
    io->len = 0;
    native_block_write(io, hdr, b, 1); /* 1: with BlockInfo, which the reader expects */
    uint64_t len = io->len;
    return spill_write(f, &len, 8) || spill_write(f, io->p, io->len) ? -1 : 0;
}

int spill_read_block(spill_file *f, uint64_t *pos, buf *io, block **out)
{
    *out = NULL;
    uint64_t len;
    if (spill_read_at(f, *pos, &len, 8))
        return -1;
    io->len = 0;
    buf_reserve(io, len);
    if (spill_read_at(f, *pos + 8, io->p, len))
        return -1;
    *pos += 8 + len;
    rbuf *in = rbuf_new(instream_from_memory(io->p, len, "temporary file"), 1 << 16);
    schema *h = NULL;
    int rc = native_block_read(in, 1, &h, out);
    rbuf_free(in);
    schema_free(h);
    return rc;
}

void spill_file_close(spill_file *f)
{
    if (!f)
        return;
    close(f->fd);
    mem_free(f->buf);
    free(f);
    atomic_fetch_sub(&open_files, 1);
}

int spill_threshold(const query_ctx *q, const char *bytes_setting, const char *ratio_setting, uint64_t *out)
{
    *out = 0;
    int64_t bytes = settings_int(q->st, bytes_setting);
    double ratio = settings_float(q->st, ratio_setting);
    if (ratio < 0 || ratio >= 1)
        return err_set(ERR_BAD_ARGUMENTS, "Setting %s should be >= 0 and < 1 (%.3f)", ratio_setting, ratio);
    if (bytes > 0) {
        *out = (uint64_t)bytes;
        return 0;
    }
    if (ratio == 0)
        return 0;
    int64_t avail = -1;
    for (const mem_tracker *t = q->mem.parent; t; t = t->parent)
        if (t->limit > 0) {
            int64_t left = t->limit - atomic_load(&t->used);
            if (left < 0)
                left = 0;
            if (avail < 0 || left < avail)
                avail = left;
        }
    if (avail > 0)
        *out = (uint64_t)((double)avail * ratio);
    return 0;
}
