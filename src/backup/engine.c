/* The backup engine: push, restore and verify of files (see engine.h). */
#include "backup/engine.h"

#include "backup/backup.h"
#include "backup/pgpage.h"
#include "base/err.h"
#include "base/mem.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <lz4frame.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <linux/aio_abi.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

#define ALIGN 4096

/* ---- block codecs ---- */

size_t bk_compress_bound(size_t n)
{
    size_t a = LZ4F_compressFrameBound(n, NULL), b = ZSTD_compressBound(n);
    return (a > b ? a : b) + 64;
}

long bk_compress(const char *method, int level, const void *src, size_t n, void *dst, size_t cap)
{
    if (!strcmp(method, "lz4")) {
        /* The default (level 0) is lz4's fast mode at acceleration 4 (LZ4F level -3) over
         * independent 64 KiB blocks. Measured on pgbench relation files: independent blocks at
         * acceleration 2 ran 1.6× as fast as linked blocks at acceleration 1 for the same ratio,
         * and acceleration 4 runs another 1.2–1.35× faster on table data with text (0.2049 of the
         * input against 0.2033) and ~1.05× on pgbench_accounts (0.0675 vs 0.0671); lz4 is most
         * of a push's CPU. */
        LZ4F_preferences_t prefs = {.frameInfo = {.contentSize = n, .blockMode = LZ4F_blockIndependent},
                                    .compressionLevel = level ? level : -3};
        size_t z = LZ4F_compressFrame(dst, cap, src, n, &prefs);
        if (LZ4F_isError(z))
            return err_set(ERR_CANNOT_COMPRESS, "lz4: %s", LZ4F_getErrorName(z));
        return (long)z;
    }
    if (!strcmp(method, "zstd")) {
        size_t z = ZSTD_compress(dst, cap, src, n, level ? level : 1);
        if (ZSTD_isError(z))
            return err_set(ERR_CANNOT_COMPRESS, "zstd: %s", ZSTD_getErrorName(z));
        return (long)z;
    }
    if (!strcmp(method, "none")) {
        if (n > cap)
            return err_set(ERR_CANNOT_COMPRESS, "block larger than its buffer");
        memcpy(dst, src, n);
        return (long)n;
    }
    return err_set(ERR_UNKNOWN_COMPRESSION_METHOD, "Unknown compression method '%s'", method);
}

int bk_decompress(const char *method, const void *src, size_t zn, void *dst, size_t rawlen)
{
    if (!strcmp(method, "lz4")) {
        LZ4F_dctx *d;
        if (LZ4F_isError(LZ4F_createDecompressionContext(&d, LZ4F_VERSION)))
            return err_set(ERR_CANNOT_DECOMPRESS, "lz4: cannot create a context");
        size_t in = zn, out = rawlen, r = LZ4F_decompress(d, dst, &out, src, &in, NULL);
        int rc = 0;
        if (LZ4F_isError(r))
            rc = err_set(ERR_CANNOT_DECOMPRESS, "lz4: %s", LZ4F_getErrorName(r));
        else if (r != 0 || in != zn || out != rawlen)
            rc = err_set(ERR_CANNOT_DECOMPRESS, "lz4: the frame does not hold the %zu bytes expected", rawlen);
        LZ4F_freeDecompressionContext(d);
        return rc;
    }
    if (!strcmp(method, "zstd")) {
        size_t r = ZSTD_decompress(dst, rawlen, src, zn);
        if (ZSTD_isError(r))
            return err_set(ERR_CANNOT_DECOMPRESS, "zstd: %s", ZSTD_getErrorName(r));
        if (r != rawlen)
            return err_set(ERR_CANNOT_DECOMPRESS, "zstd: %zu bytes instead of %zu", r, rawlen);
        return 0;
    }
    if (!strcmp(method, "none")) {
        if (zn != rawlen)
            return err_set(ERR_CANNOT_DECOMPRESS, "stored block of %zu bytes, expected %zu", zn, rawlen);
        memcpy(dst, src, zn);
        return 0;
    }
    return err_set(ERR_UNKNOWN_COMPRESSION_METHOD, "Unknown compression method '%s'", method);
}

static const char *ext_of(const char *method) { return !strcmp(method, "zstd") ? "zst" : !strcmp(method, "lz4") ? "lz4" : "raw"; }

/* ---- pacing ---- */

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_s(double s)
{
    if (s <= 0)
        return;
    struct timespec ts = {.tv_sec = (time_t)s, .tv_nsec = (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

void bk_pace_init(bk_pace *p, int readers)
{
    atomic_store(&p->readers, readers);
    atomic_store(&p->rate, 0);
    pthread_mutex_init(&p->lock, NULL);
    p->next_start = 0;
}

void bk_pace_wait(bk_pace *p, int reader, size_t bytes)
{
    /* reader 0 is never parked, so the backup always progresses */
    while (reader > 0 && reader >= atomic_load(&p->readers))
        sleep_s(0.01);
    uint64_t rate = atomic_load(&p->rate);
    if (!rate)
        return;
    pthread_mutex_lock(&p->lock);
    double now = mono_s(), start = p->next_start > now ? p->next_start : now;
    p->next_start = start + (double)bytes / (double)rate;
    pthread_mutex_unlock(&p->lock);
    sleep_s(start - now);
}

int bk_pace_adjust(bk_pace *p, int max_readers, double p99_ms, double bound_ms)
{
    int readers = atomic_load(&p->readers);
    uint64_t rate = atomic_load(&p->rate);
    if (p99_ms > bound_ms) {
        if (readers > 1) {
            atomic_store(&p->readers, readers - 1);
            return -1;
        }
        uint64_t lower = rate ? rate / 2 : 256ull << 20;
        if (lower < (4ull << 20))
            lower = 4ull << 20;
        if (lower == rate)
            return 0;
        atomic_store(&p->rate, lower);
        return -1;
    }
    if (p99_ms < bound_ms / 2) {
        if (rate) {
            atomic_store(&p->rate, rate * 2 >= (1ull << 30) ? 0 : rate * 2);
            return 1;
        }
        if (readers < max_readers) {
            atomic_store(&p->readers, readers + 1);
            return 1;
        }
    }
    return 0;
}

/* ---- push ---- */

typedef struct push_ctx {
    bk_repo *r;
    const bk_settings *s;
    bk_manifest *m;
    char *const *abs;
    const bk_manifest *parent;
    bk_pace *pace;       /* may be NULL */
    FILE *log;
    size_t *order;       /* file indexes, largest first */
    size_t norder;
    _Atomic size_t next;
    _Atomic bool failed;
    pthread_mutex_t lock; /* m->objects, stats, first error, log */
    err_saved err;
    bk_push_stats *st;
    uint64_t object_limit;
} push_ctx;

/* A buffer of a file's bytes, read ahead for the worker that compresses it. */
typedef struct chunk {
    uint8_t *buf;        /* aligned, rcap bytes */
    size_t fi;           /* the file (index into m->files) */
    uint64_t pos;        /* its offset in the file */
    size_t have;         /* bytes in buf */
    bool first, eof;     /* the file's first and last chunk */
    bool vanished;       /* the file was gone at open: no bytes, skip it */
    bool failed;         /* the reader failed (fail_ctx done): stop */
    bool direct;         /* with eof: the file was read with O_DIRECT to the end */
} chunk;

/* Each worker has a reader thread up to BK_READ_AHEAD - 1 buffers ahead of it: while the
 * worker checksums, compresses and writes one buffer, the reader fills the others, so the disk
 * never waits for the CPU nor the CPU for the disk (on 2 vCPUs sharing their time with the
 * database, the two alternated and the push ran at half the device's speed). More than one
 * buffer ahead absorbs the times the worker is not scheduled for a while (a busy machine)
 * and runs of small files. */
typedef struct worker {
    push_ctx *c;
    int id;
    size_t rcap;
    chunk slot[BK_READ_AHEAD]; /* a ring: the reader fills at next_fill, the worker takes at next_take */
    int full[BK_READ_AHEAD];   /* slot filled, waiting for the worker */
    int next_fill, next_take;
    bool reader_done;    /* no more chunks will come */
    aio_context_t aio;   /* the reader's native AIO context, 0 when unavailable */
    long aio_res[BK_READ_AHEAD]; /* per slot: the read's result once aio_done */
    bool aio_done[BK_READ_AHEAD];
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint8_t *zbuf, *pbuf;
    size_t zcap;
    outstream *out;      /* the current object */
    uint32_t obj;        /* its index in m->objects */
    int seq;
} worker;

static void fail_ctx(push_ctx *c)
{
    pthread_mutex_lock(&c->lock);
    if (!atomic_load(&c->failed)) {
        err_save(&c->err);
        atomic_store(&c->failed, true);
    }
    pthread_mutex_unlock(&c->lock);
}

static int open_object(worker *w)
{
    push_ctx *c = w->c;
    char tail[64];
    snprintf(tail, sizeof tail, "data/%d-%d.%s", w->id, w->seq++, ext_of(c->s->compression));
    char *key = bk_backup_key(c->m->name, tail);
    int rc = bk_repo_writer(c->r, key, c->s->part_size, c->s->parts_in_flight, c->s->direct_io, &w->out);
    if (!rc) {
        pthread_mutex_lock(&c->lock);
        c->m->objects = xrealloc(c->m->objects, (c->m->nobjects + 1) * sizeof *c->m->objects);
        c->m->objects[c->m->nobjects] = xstrdup(tail);
        w->obj = (uint32_t)c->m->nobjects++;
        pthread_mutex_unlock(&c->lock);
    }
    free(key);
    return rc;
}

static int close_object(worker *w)
{
    if (!w->out)
        return 0;
    outstream *o = w->out;
    w->out = NULL;
    return o->close(o);
}

/* payload_sum: bk_block_sum of payload (the caller has it already for a full block) */
static int emit_block(worker *w, bk_file *f, uint32_t idx, const uint8_t *payload, size_t n, uint64_t payload_sum)
{
    push_ctx *c = w->c;
    if (w->out && w->out->offset >= c->object_limit && close_object(w))
        return -1;
    if (!w->out && open_object(w))
        return -1;
    long z = bk_compress(c->s->compression, c->s->level, payload, n, w->zbuf, w->zcap);
    if (z < 0)
        return err_prefix("Cannot compress block %u of %s: ", idx, f->path);
    bk_block b = {.idx = idx, .obj = w->obj, .off = w->out->offset, .zlen = (uint32_t)z, .rawlen = (uint32_t)n,
                  .sum = payload_sum};
    if (w->out->write(w->out, w->zbuf, (size_t)z))
        return -1;
    f->blocks = xrealloc(f->blocks, (f->nblocks + 1) * sizeof *f->blocks);
    f->blocks[f->nblocks++] = b;
    pthread_mutex_lock(&c->lock);
    c->m->stored_bytes += (uint64_t)z;
    c->st->bytes_stored += (uint64_t)z;
    pthread_mutex_unlock(&c->lock);
    return 0;
}

/* The whole-file checksum folds the blocks' checksums (bk_manifest.sum_of_blocks): hashing
 * every byte twice cost a sixth of a push's CPU. */
static void fold_block_sum(XXH64_state_t *h, uint64_t block_sum)
{
    uint8_t le[8];
    for (int i = 0; i < 8; i++)
        le[i] = (uint8_t)(block_sum >> (8 * i));
    XXH64_update(h, le, sizeof le);
}

static void note_fallback(push_ctx *c, const char *path, const char *why)
{
    pthread_mutex_lock(&c->lock);
    c->st->files_buffered_fallback++;
    if (!c->st->fallback_example[0])
        snprintf(c->st->fallback_example, sizeof c->st->fallback_example, "%s: %s", path, why);
    pthread_mutex_unlock(&c->lock);
}

/* Reads [pos, pos + n) into dst, as much as the file has; switches *fd to buffered I/O
 * when O_DIRECT is refused mid-file. Returns bytes read (short only at end of file). */
static ssize_t read_some(push_ctx *c, const char *path, int *fd, bool *direct, uint8_t *dst, size_t n, uint64_t pos)
{
    size_t got = 0;
    while (got < n) {
        ssize_t g = pread(*fd, dst + got, n - got, (off_t)(pos + got));
        if (g < 0 && errno == EINTR)
            continue;
        if (g < 0 && errno == EINVAL && *direct) {
            /* the filesystem accepted O_DIRECT at open but not for this read */
            int nfd = open(path, O_RDONLY | O_CLOEXEC);
            if (nfd < 0)
                return err_set(ERR_CANNOT_OPEN_FILE, "Cannot reopen %s: %s", path, strerror(errno));
            close(*fd);
            *fd = nfd;
            *direct = false;
            note_fallback(c, path, "O_DIRECT read refused (EINVAL): read buffered");
            continue;
        }
        if (g < 0)
            return err_set(ERR_CANNOT_READ_FROM_FILE_DESCRIPTOR, "Cannot read %s at offset %" PRIu64 ": %s", path,
                           pos + got, strerror(errno));
        if (g == 0)
            break;
        got += (size_t)g;
        if (*direct && (size_t)g % ALIGN)
            break; /* a short direct read: the end of the file */
    }
    return (ssize_t)got;
}

/* ---- the reader side: files in, chunks out ---- */

/* Claims the next slot of the ring for filling: its index, or -1 when the push fails or, with
 * !wait, when the slot is still the worker's. Slots are handed over in the order claimed. */
static int slot_claim(worker *w, bool wait)
{
    pthread_mutex_lock(&w->mu);
    while (wait && w->full[w->next_fill] && !atomic_load(&w->c->failed))
        pthread_cond_wait(&w->cv, &w->mu);
    int k = -1;
    if (!w->full[w->next_fill] && !atomic_load(&w->c->failed)) {
        k = w->next_fill;
        w->next_fill = (w->next_fill + 1) % BK_READ_AHEAD;
    }
    pthread_mutex_unlock(&w->mu);
    return k;
}

/* Gives back the last n claimed slots, not handed over (reads past the end of a file). */
static void slot_unclaim(worker *w, int n)
{
    pthread_mutex_lock(&w->mu);
    w->next_fill = (w->next_fill + BK_READ_AHEAD - n) % BK_READ_AHEAD;
    pthread_mutex_unlock(&w->mu);
}

static void slot_hand(worker *w, int k)
{
    pthread_mutex_lock(&w->mu);
    w->full[k] = 1;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

/* Sends a chunk without bytes (vanished file or failure). Returns false when stopping. */
static bool send_mark(worker *w, size_t fi, bool vanished, bool failed)
{
    int s = slot_claim(w, true);
    if (s < 0)
        return false;
    chunk *k = &w->slot[s];
    *k = (chunk){.buf = k->buf, .fi = fi, .first = true, .eof = true, .vanished = vanished, .failed = failed};
    slot_hand(w, s);
    return true;
}

/* ---- native AIO: several O_DIRECT reads of one file in flight per reader ---- */

/* A reader issuing one pread at a time leaves the disk idle from each read's completion until
 * it runs again and issues the next — on a busy machine (the database, a low CPU weight) that
 * wait is the scheduler's, a few milliseconds per 1 MiB read. With native AIO
 * the reader keeps a read in flight for every free slot of its ring (BK_READ_AHEAD, so the
 * buffer bound is unchanged), each of read_size bytes: the read size rule holds, the queue
 * depth grows. Only for O_DIRECT (buffered AIO is synchronous) with read_size >= 1 MiB (a chunk
 * is one read); anything unexpected (a short read, an error, EINVAL) drains the reads in flight
 * and the file continues with the synchronous reads, which handle every case. */
static long sys_io_setup(unsigned n, aio_context_t *ctx) { return syscall(SYS_io_setup, n, ctx); }
static long sys_io_destroy(aio_context_t ctx) { return syscall(SYS_io_destroy, ctx); }
static long sys_io_submit(aio_context_t ctx, long n, struct iocb **cbs) { return syscall(SYS_io_submit, ctx, n, cbs); }
static long sys_io_getevents(aio_context_t ctx, long min, long max, struct io_event *ev)
{
    return syscall(SYS_io_getevents, ctx, min, max, ev, NULL);
}

/* Waits until slot k's read has completed (recording every completion that comes). */
static int aio_wait(worker *w, int k)
{
    while (!w->aio_done[k]) {
        struct io_event ev[BK_READ_AHEAD];
        long got = sys_io_getevents(w->aio, 1, BK_READ_AHEAD, ev);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            /* cannot tell when the reads end: io_destroy waits for them, then no more AIO */
            int e = errno;
            sys_io_destroy(w->aio);
            w->aio = 0;
            return err_set(ERR_CANNOT_READ_FROM_FILE_DESCRIPTOR, "io_getevents: %s", strerror(e));
        }
        for (long i = 0; i < got; i++) {
            w->aio_res[ev[i].data] = (long)ev[i].res;
            w->aio_done[ev[i].data] = true;
        }
    }
    return 0;
}

/* Reads chunks of file fi from *pos with up to BK_READ_AHEAD reads in flight. 1: the file is
 * done; 0: continue synchronously from *pos (*first updated); -1: the push fails. */
static int read_chunks_aio(worker *w, size_t fi, int fd, bool delta, uint64_t *pos, bool *first)
{
    push_ctx *c = w->c;
    size_t rcap = w->rcap;
    int q[BK_READ_AHEAD], n = 0; /* claimed slots in flight, oldest first */
    uint64_t next = *pos;        /* offset of the next read to submit */
    for (;;) {
        while (n < BK_READ_AHEAD && !atomic_load(&c->failed)) {
            int k = slot_claim(w, n == 0);
            if (k < 0)
                break;
            if (c->pace)
                bk_pace_wait(c->pace, w->id, rcap);
            struct iocb cb = {.aio_data = (uint64_t)k, .aio_lio_opcode = IOCB_CMD_PREAD, .aio_fildes = (uint32_t)fd,
                              .aio_buf = (uint64_t)(uintptr_t)w->slot[k].buf, .aio_nbytes = rcap,
                              .aio_offset = (int64_t)next};
            struct iocb *cbs[1] = {&cb};
            w->aio_done[k] = false;
            if (sys_io_submit(w->aio, 1, cbs) != 1) {
                slot_unclaim(w, 1);
                break;
            }
            q[n++] = k;
            next += rcap;
        }
        if (n == 0) /* nothing could be submitted: a failure, or AIO refused this file */
            return atomic_load(&c->failed) ? -1 : 0;
        int k = q[0];
        if (aio_wait(w, k))
            return -1;
        long r = w->aio_res[k];
        /* a short read is the end of the file when fstat agrees (ends at a block boundary) */
        struct stat fs;
        bool eof = r >= 0 && (size_t)r < rcap &&
                   (r % ALIGN || (fstat(fd, &fs) == 0 && (uint64_t)fs.st_size <= *pos + (uint64_t)r));
        if (r < 0 || ((size_t)r < rcap && !eof)) {
            /* an error or a short aligned read: the synchronous reads redo it and go on */
            for (int i = 1; i < n; i++)
                if (aio_wait(w, q[i]))
                    return -1;
            slot_unclaim(w, n);
            return 0;
        }
        if (eof) { /* reads past the end are dropped */
            for (int i = 1; i < n; i++)
                if (aio_wait(w, q[i]))
                    return -1;
            slot_unclaim(w, n - 1);
            n = 1;
        }
        size_t have = (size_t)r;
        if (delta)
            have -= have % BK_PAGE_SIZE; /* a page being appended: WAL replay completes it */
        chunk *ck = &w->slot[k];
        *ck = (chunk){.buf = ck->buf, .fi = fi, .pos = *pos, .have = have, .first = *first, .eof = eof, .direct = true};
        *first = false;
        slot_hand(w, k);
        *pos += have;
        memmove(q, q + 1, (size_t)(--n) * sizeof *q);
        if (eof)
            return 1;
    }
}

static int open_source(push_ctx *c, const char *path, bool *direct, bool *vanished)
{
    *vanished = false;
    int fd = -1;
    if (*direct) {
        fd = open(path, O_RDONLY | O_CLOEXEC | O_DIRECT);
        if (fd < 0 && errno == EINVAL) {
            *direct = false;
            note_fallback(c, path, "O_DIRECT refused at open (EINVAL): read buffered");
        } else if (fd < 0 && errno == ENOENT) {
            *vanished = true;
            return -1;
        }
    }
    if (fd < 0 && !*direct)
        fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT)
        *vanished = true;
    else if (fd < 0)
        err_set(ERR_CANNOT_OPEN_FILE, "Cannot open %s: %s", path, strerror(errno));
    return fd;
}

/* Reads file fi into chunks of rcap bytes (reads of read_size each). Returns false when
 * the push stops (a failure here or elsewhere). */
static bool read_file(worker *w, size_t fi)
{
    push_ctx *c = w->c;
    bk_file *f = &c->m->files[fi];
    const char *path = c->abs[fi];
    bool direct = c->s->direct_io, vanished;
    int fd = open_source(c, path, &direct, &vanished);
    if (fd < 0) {
        if (!vanished)
            fail_ctx(c);
        return send_mark(w, fi, vanished, !vanished) && vanished;
    }
    /* set before the first chunk is handed over (the worker reads it after) */
    const bk_file *pf = c->parent && bk_pg_is_relation(f->path) ? bk_manifest_find(c->parent, f->path) : NULL;
    f->delta = pf && pf->type == BK_FILE && f->size % BK_PAGE_SIZE == 0;
    size_t rs = c->s->read_size < w->rcap ? c->s->read_size : w->rcap;
    uint64_t pos = 0;
    bool ok = true, first = true;
    if (w->aio && direct && rs == w->rcap) {
        int a = read_chunks_aio(w, fi, fd, f->delta, &pos, &first);
        if (a > 0) {
            pthread_mutex_lock(&c->lock);
            c->st->files_aio++;
            pthread_mutex_unlock(&c->lock);
        }
        if (a) {
            if (a < 0)
                fail_ctx(c);
            close(fd);
            return a > 0;
        }
    }
    for (;; first = false) {
        int s = slot_claim(w, true);
        if (s < 0) {
            ok = false;
            break;
        }
        chunk *k = &w->slot[s];
        size_t have = 0;
        bool eof = false, failed = false;
        while (have < w->rcap) {
            if (c->pace)
                bk_pace_wait(c->pace, w->id, rs);
            ssize_t g = read_some(c, path, &fd, &direct, k->buf + have, rs, pos + have);
            if (g < 0) {
                fail_ctx(c);
                failed = true;
                break;
            }
            have += (size_t)g;
            if ((size_t)g < rs) {
                eof = true;
                break;
            }
        }
        if (f->delta)
            have -= have % BK_PAGE_SIZE; /* a page being appended: WAL replay completes it */
        *k = (chunk){.buf = k->buf, .fi = fi, .pos = pos, .have = failed ? 0 : have, .first = first,
                     .eof = eof || failed, .failed = failed, .direct = direct};
        slot_hand(w, s);
        pos += have;
        if (failed || eof) {
            ok = !failed;
            break;
        }
    }
    close(fd);
    return ok;
}

static void *reader_main(void *arg)
{
    worker *w = arg;
    push_ctx *c = w->c;
    if (c->s->direct_io && sys_io_setup(BK_READ_AHEAD, &w->aio))
        w->aio = 0; /* no native AIO (ENOSYS, aio-max-nr reached): synchronous reads */
    while (!atomic_load(&c->failed)) {
        size_t k = atomic_fetch_add(&c->next, 1);
        if (k >= c->norder || !read_file(w, c->order[k]))
            break;
    }
    if (w->aio)
        sys_io_destroy(w->aio);
    pthread_mutex_lock(&w->mu);
    w->reader_done = true;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* ---- the worker side: chunks in, compressed blocks out ---- */

/* The next filled chunk, or NULL when the reader is done. */
static chunk *slot_to_take(worker *w)
{
    pthread_mutex_lock(&w->mu);
    while (!w->full[w->next_take] && !w->reader_done)
        pthread_cond_wait(&w->cv, &w->mu);
    chunk *k = w->full[w->next_take] ? &w->slot[w->next_take] : NULL;
    pthread_mutex_unlock(&w->mu);
    return k;
}

static void slot_taken(worker *w)
{
    pthread_mutex_lock(&w->mu);
    w->full[w->next_take] = 0;
    w->next_take = (w->next_take + 1) % BK_READ_AHEAD;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

/* Checksums and ships one chunk's blocks (full blocks, or pgpage.h payloads of a delta). */
static int ship_chunk(worker *w, bk_file *f, const chunk *k, XXH64_state_t *h, uint64_t parent_pages)
{
    push_ctx *c = w->c;
    int rc = 0;
    for (size_t o = 0; o < k->have && !rc; o += BK_BLOCK_SIZE) {
        size_t n = k->have - o < BK_BLOCK_SIZE ? k->have - o : BK_BLOCK_SIZE;
        uint32_t idx = (uint32_t)((k->pos + o) / BK_BLOCK_SIZE);
        uint64_t raw_sum = bk_block_sum(c->m, k->buf + o, n);
        fold_block_sum(h, raw_sum);
        if (f->delta) {
            size_t pn = bk_pg_delta_encode(k->buf + o, n, (k->pos + o) / BK_PAGE_SIZE, parent_pages,
                                           c->parent->start_lsn, w->pbuf);
            size_t shipped = pn ? (pn - BK_DELTA_BITMAP) / BK_PAGE_SIZE : 0;
            pthread_mutex_lock(&c->lock);
            c->st->pages_shipped += shipped;
            c->st->pages_skipped += n / BK_PAGE_SIZE - shipped;
            pthread_mutex_unlock(&c->lock);
            if (pn)
                rc = emit_block(w, f, idx, w->pbuf, pn, bk_block_sum(c->m, w->pbuf, pn));
        } else {
            rc = emit_block(w, f, idx, k->buf + o, n, raw_sum);
        }
    }
    return rc;
}

/* The file's record once its last chunk is shipped. */
static void finish_file(push_ctx *c, bk_file *f, const chunk *k, XXH64_state_t *h)
{
    if (k->vanished) {
        /* dropped while the backup ran (a table dropped, a temp file): WAL replay removes it too */
        f->size = 0;
        f->sum = XXH64(NULL, 0, 0);
        f->mode = 0; /* marked: restore skips it */
        if (c->log) {
            pthread_mutex_lock(&c->lock);
            fprintf(c->log, "note: %s vanished during the backup (skipped)\n", f->path);
            pthread_mutex_unlock(&c->lock);
        }
        return;
    }
    f->size = k->pos + k->have;
    f->sum = XXH64_digest(h);
    f->direct = k->direct;
    pthread_mutex_lock(&c->lock);
    c->st->files++;
    c->st->bytes_read += f->size;
    c->st->files_direct += f->direct;
    c->st->files_delta += f->delta;
    pthread_mutex_unlock(&c->lock);
}

static void *push_main(void *arg)
{
    worker *w = arg;
    push_ctx *c = w->c;
    XXH64_state_t *h = XXH64_createState();
    uint64_t parent_pages = 0;
    for (chunk *k; (k = slot_to_take(w));) {
        bk_file *f = &c->m->files[k->fi];
        if (k->first) {
            XXH64_reset(h, 0);
            const bk_file *pf = f->delta ? bk_manifest_find(c->parent, f->path) : NULL;
            parent_pages = pf ? pf->size / BK_PAGE_SIZE : 0;
        }
        bool stop = k->failed || atomic_load(&c->failed);
        if (!stop && ship_chunk(w, f, k, h, parent_pages)) {
            fail_ctx(c);
            stop = true;
        }
        if (!stop && k->eof)
            finish_file(c, f, k, h);
        slot_taken(w); /* also wakes a reader waiting on a failure */
    }
    XXH64_freeState(h);
    if (atomic_load(&c->failed)) {
        if (w->out)
            bk_repo_writer_abort(c->r, w->out);
        w->out = NULL;
    } else if (close_object(w)) {
        fail_ctx(c);
    }
    return NULL;
}

static const bk_file *sort_files;
static int cmp_size_desc(const void *a, const void *b)
{
    uint64_t x = sort_files[*(const size_t *)a].size, y = sort_files[*(const size_t *)b].size;
    return x < y ? 1 : x > y ? -1 : 0;
}

int bk_push_files(bk_repo *r, const bk_settings *s, bk_manifest *m, char *const *abs, const bk_manifest *parent,
                  bk_pace *pace, FILE *log, bk_push_stats *st)
{
    push_ctx c = {.r = r, .s = s, .m = m, .abs = abs, .parent = parent, .pace = pace, .log = log, .st = st,
                  .lock = PTHREAD_MUTEX_INITIALIZER};
    /* one object stays under S3's 10 000 parts; local objects are cut at the same size */
    c.object_limit = s->part_size * 9000;
    m->sum_of_blocks = true; /* how this push computes bk_file.sum */
    m->block_sum = BK_SUM_XXH3;
    c.order = xcalloc(m->nfiles + 1, sizeof *c.order);
    for (size_t i = 0; i < m->nfiles; i++)
        if (m->files[i].type == BK_FILE)
            c.order[c.norder++] = i;
    sort_files = m->files;
    qsort(c.order, c.norder, sizeof *c.order, cmp_size_desc);
    int nw = s->concurrency;
    worker *ws = xcalloc((size_t)nw, sizeof *ws);
    pthread_t *th = xcalloc((size_t)nw * 2, sizeof *th); /* worker i: th[2i], its reader: th[2i + 1] */
    bool *up = xcalloc((size_t)nw * 2, sizeof *up);
    size_t rcap = s->read_size > BK_BLOCK_SIZE ? s->read_size : BK_BLOCK_SIZE;
    for (int i = 0; i < nw; i++) {
        worker *w = &ws[i];
        w->c = &c;
        w->id = i;
        w->rcap = rcap;
        pthread_mutex_init(&w->mu, NULL);
        pthread_cond_init(&w->cv, NULL);
        w->zcap = bk_compress_bound(BK_BLOCK_SIZE + BK_DELTA_BITMAP);
        w->zbuf = xmalloc(w->zcap);
        w->pbuf = xmalloc(BK_BLOCK_SIZE + BK_DELTA_BITMAP);
        bool bufs = true;
        for (int b = 0; b < BK_READ_AHEAD; b++)
            if (posix_memalign((void **)&w->slot[b].buf, ALIGN, rcap)) {
                w->slot[b].buf = NULL;
                bufs = false;
            }
        if (!bufs) {
            err_set(ERR_CANNOT_ALLOCATE_MEMORY, "Cannot allocate an aligned read buffer of %zu bytes", rcap);
            fail_ctx(&c);
            break;
        }
        if (pthread_create(&th[2 * i], NULL, push_main, w) == 0)
            up[2 * i] = true;
        if (up[2 * i] && pthread_create(&th[2 * i + 1], NULL, reader_main, w) == 0) {
            up[2 * i + 1] = true;
            continue;
        }
        err_set(ERR_CANNOT_ALLOCATE_MEMORY, "Cannot start a reader thread");
        fail_ctx(&c);
        if (up[2 * i]) { /* its reader never came: end the worker */
            pthread_mutex_lock(&w->mu);
            w->reader_done = true;
            pthread_cond_broadcast(&w->cv);
            pthread_mutex_unlock(&w->mu);
        }
        break;
    }
    for (int i = 0; i < 2 * nw; i++)
        if (up[i])
            pthread_join(th[i], NULL);
    for (int i = 0; i < nw; i++) {
        for (int b = 0; b < BK_READ_AHEAD; b++)
            free(ws[i].slot[b].buf);
        free(ws[i].zbuf);
        free(ws[i].pbuf);
        pthread_mutex_destroy(&ws[i].mu);
        pthread_cond_destroy(&ws[i].cv);
    }
    free(ws);
    free(th);
    free(up);
    free(c.order);
    /* files that vanished are dropped from the manifest */
    size_t k = 0;
    for (size_t i = 0; i < m->nfiles; i++) {
        if (m->files[i].type == BK_FILE && m->files[i].mode == 0) {
            free(m->files[i].path);
            free(m->files[i].blocks);
            continue;
        }
        m->files[k++] = m->files[i];
    }
    m->nfiles = k;
    if (atomic_load(&c.failed))
        return err_restore(&c.err);
    return 0;
}

/* ---- restore and verify ---- */

typedef struct task {
    const bk_manifest *m;
    const bk_file *f;
} task;

typedef struct restore_ctx {
    bk_repo *r;
    const char *target;
    bk_path_map_fn map;
    void *map_ctx;
    task *tasks;
    size_t ntasks;
    _Atomic size_t next;
    _Atomic bool failed;
    bool verify_only;
    FILE *log;
    pthread_mutex_t lock;
    err_saved err;
    uint64_t bad;
} restore_ctx;

static char *target_path(restore_ctx *c, const char *rel)
{
    if (c->map)
        return c->map(c->map_ctx, rel);
    size_t n = strlen(c->target) + strlen(rel) + 2;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/%s", c->target, rel);
    return p;
}

typedef struct page_put {
    int fd;
    uint64_t base;
    const char *path;
} page_put;

static int put_page(void *ctx, unsigned page, const uint8_t *data)
{
    page_put *p = ctx;
    off_t at = (off_t)(p->base + (uint64_t)page * BK_PAGE_SIZE);
    if (pwrite(p->fd, data, BK_PAGE_SIZE, at) != (ssize_t)BK_PAGE_SIZE)
        return err_set(ERR_CANNOT_WRITE_TO_FILE_DESCRIPTOR, "Cannot write %s at %lld: %s", p->path, (long long)at,
                       strerror(errno));
    return 0;
}

static void report_bad(restore_ctx *c)
{
    pthread_mutex_lock(&c->lock);
    c->bad++;
    if (c->log)
        fprintf(c->log, "%s\n", err_msg());
    pthread_mutex_unlock(&c->lock);
}

/* Fetches, checks and (unless verifying) writes the blocks of one file. */
static int restore_one(restore_ctx *c, const task *t, uint8_t **zb, size_t *zcap, uint8_t *raw)
{
    const bk_file *f = t->f;
    const bk_manifest *m = t->m;
    char *path = NULL;
    int fd = -1, rc = 0;
    if (!c->verify_only) {
        path = target_path(c, f->path);
        fd = open(path, O_WRONLY | O_CLOEXEC | (f->delta ? 0 : O_CREAT | O_TRUNC), 0600);
        if (fd < 0) {
            rc = err_set(ERR_CANNOT_OPEN_FILE, "Cannot %s %s: %s", f->delta ? "open (to apply a delta)" : "create",
                         path, strerror(errno));
            free(path);
            return rc;
        }
        if (ftruncate(fd, (off_t)f->size)) {
            rc = err_set(ERR_CANNOT_TRUNCATE_FILE, "Cannot set the size of %s: %s", path, strerror(errno));
            goto done;
        }
    }
    XXH64_state_t *h = NULL;
    if (!f->delta) {
        h = XXH64_createState();
        XXH64_reset(h, 0);
    }
    bool file_bad = false;
    for (size_t i = 0; i < f->nblocks && !rc;) {
        /* a run of consecutive stored blocks of one object, up to 16 MiB */
        size_t j = i + 1;
        uint64_t len = f->blocks[i].zlen;
        while (j < f->nblocks && f->blocks[j].obj == f->blocks[i].obj &&
               f->blocks[j].off == f->blocks[j - 1].off + f->blocks[j - 1].zlen && len + f->blocks[j].zlen <= (16u << 20))
            len += f->blocks[j++].zlen;
        if (len > *zcap) {
            *zb = xrealloc(*zb, len);
            *zcap = len;
        }
        char *key = bk_backup_key(m->name, m->objects[f->blocks[i].obj]);
        rc = bk_repo_read(c->r, key, f->blocks[i].off, len, *zb);
        free(key);
        if (rc) {
            err_prefix("Backup %s, file %s, blocks %u..%u: ", m->name, f->path, f->blocks[i].idx, f->blocks[j - 1].idx);
            break;
        }
        uint64_t o = 0;
        for (size_t k = i; k < j && !rc; k++) {
            const bk_block *b = &f->blocks[k];
            int bad = bk_decompress(m->compression, *zb + o, b->zlen, raw, b->rawlen);
            if (!bad && bk_block_sum(m, raw, b->rawlen) != b->sum)
                bad = err_set(ERR_CHECKSUM_DOESNT_MATCH, "checksum mismatch");
            if (bad) {
                err_prefix("Backup %s: file %s, block %u (object %s, offset %" PRIu64 "): ", m->name, f->path, b->idx,
                           m->objects[b->obj], b->off);
                err_suffix(" — the repository copy is corrupt");
                if (!c->verify_only) {
                    rc = -1;
                    break;
                }
                report_bad(c);
                file_bad = true;
                if (h) {
                    XXH64_freeState(h);
                    h = NULL;
                }
                o += b->zlen;
                continue;
            }
            o += b->zlen;
            if (h && m->sum_of_blocks)
                fold_block_sum(h, b->sum); /* b->sum was just checked against raw */
            else if (h)
                XXH64_update(h, raw, b->rawlen);
            if (c->verify_only)
                continue;
            if (f->delta) {
                page_put pp = {fd, (uint64_t)b->idx * BK_BLOCK_SIZE, path};
                rc = bk_pg_delta_apply(raw, b->rawlen, put_page, &pp);
                if (rc)
                    err_prefix("%s, block %u: ", f->path, b->idx);
            } else if (pwrite(fd, raw, b->rawlen, (off_t)b->idx * BK_BLOCK_SIZE) != (ssize_t)b->rawlen) {
                rc = err_set(ERR_CANNOT_WRITE_TO_FILE_DESCRIPTOR, "Cannot write %s: %s", path, strerror(errno));
            }
        }
        i = j;
    }
    if (h) {
        if (!rc && !file_bad && XXH64_digest(h) != f->sum) {
            int e = err_set(ERR_CHECKSUM_DOESNT_MATCH,
                            "Backup %s: file %s: the whole-file checksum does not match (blocks missing or reordered)",
                            m->name, f->path);
            if (c->verify_only)
                report_bad(c);
            else
                rc = e;
        }
        XXH64_freeState(h);
    }
done:
    if (fd >= 0) {
        if (!rc) {
            struct timespec ts[2] = {{.tv_sec = f->mtime}, {.tv_sec = f->mtime}};
            futimens(fd, ts);
            fchmod(fd, f->mode & 07777);
        }
        close(fd);
    }
    free(path);
    return rc;
}

static void *restore_main(void *arg)
{
    restore_ctx *c = arg;
    uint8_t *zb = NULL, *raw = xmalloc(BK_BLOCK_SIZE + BK_DELTA_BITMAP + 64);
    size_t zcap = 0;
    for (;;) {
        if (atomic_load(&c->failed))
            break;
        size_t k = atomic_fetch_add(&c->next, 1);
        if (k >= c->ntasks)
            break;
        if (restore_one(c, &c->tasks[k], &zb, &zcap, raw)) {
            pthread_mutex_lock(&c->lock);
            if (!atomic_load(&c->failed)) {
                err_save(&c->err);
                atomic_store(&c->failed, true);
            }
            pthread_mutex_unlock(&c->lock);
            break;
        }
    }
    free(zb);
    free(raw);
    return NULL;
}

static int run_tasks(restore_ctx *c, int concurrency)
{
    if (concurrency < 1)
        concurrency = 1;
    pthread_t *th = xcalloc((size_t)concurrency, sizeof *th);
    int started = 0;
    for (int i = 0; i < concurrency; i++)
        if (pthread_create(&th[i], NULL, restore_main, c) == 0)
            started++;
    if (!started)
        restore_main(c);
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    free(th);
    return atomic_load(&c->failed) ? err_restore(&c->err) : 0;
}

/* Removes regular files under dir (relative rel) that the last manifest does not hold. */
static int prune(restore_ctx *c, const bk_manifest *last, const char *rel)
{
    char *dir = target_path(c, rel);
    DIR *d = opendir(dir);
    if (!d) {
        free(dir);
        return 0;
    }
    int rc = 0;
    struct dirent *de;
    while (!rc && (de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        size_t n = strlen(rel) + strlen(de->d_name) + 2;
        char *child = xmalloc(n);
        snprintf(child, n, "%s%s%s", rel, *rel ? "/" : "", de->d_name);
        char *full = target_path(c, child);
        struct stat st;
        if (stat(full, &st) == 0) {
            if (S_ISDIR(st.st_mode))
                rc = prune(c, last, child);
            else if (S_ISREG(st.st_mode) && !bk_manifest_find(last, child) && unlink(full))
                rc = err_set(ERR_CANNOT_UNLINK, "Cannot remove %s: %s", full, strerror(errno));
        }
        free(full);
        free(child);
    }
    closedir(d);
    free(dir);
    return rc;
}

int bk_restore(bk_repo *r, bk_manifest *const *chain, size_t n, const char *target, bk_path_map_fn map, void *map_ctx,
               int concurrency, FILE *log)
{
    restore_ctx c = {.r = r, .target = target, .map = map, .map_ctx = map_ctx, .log = log,
                     .lock = PTHREAD_MUTEX_INITIALIZER};
    int rc = 0;
    for (size_t k = 0; k < n && !rc; k++) {
        const bk_manifest *m = chain[k];
        /* directories first (sorted by path, so parents come before children) */
        for (size_t i = 0; i < m->nfiles && !rc; i++) {
            if (m->files[i].type != BK_DIR)
                continue;
            char *p = target_path(&c, m->files[i].path);
            rc = bk_mkdirs(p, m->files[i].mode & 07777);
            free(p);
        }
        if (rc)
            break;
        c.tasks = xcalloc(m->nfiles + 1, sizeof *c.tasks);
        c.ntasks = 0;
        atomic_store(&c.next, 0);
        for (size_t i = 0; i < m->nfiles; i++)
            if (m->files[i].type == BK_FILE) {
                if (k > 0 && !m->files[i].delta) {
                    /* a whole file replacing an older copy: its directory may be new */
                    char *p = target_path(&c, m->files[i].path);
                    char *sl = strrchr(p, '/');
                    if (sl) {
                        *sl = 0;
                        rc = bk_mkdirs(p, 0700);
                    }
                    free(p);
                }
                c.tasks[c.ntasks++] = (task){m, &m->files[i]};
            }
        if (!rc)
            rc = run_tasks(&c, concurrency);
        free(c.tasks);
        c.tasks = NULL;
        if (!rc && log)
            fprintf(log, "applied %s (%s, %zu files)\n", m->name, m->parent ? "delta" : "full", c.ntasks);
    }
    if (!rc && n > 1)
        rc = prune(&c, chain[n - 1], "");
    return rc;
}

int bk_verify(bk_repo *r, const bk_manifest *m, int concurrency, FILE *log)
{
    restore_ctx c = {.r = r, .verify_only = true, .log = log, .lock = PTHREAD_MUTEX_INITIALIZER};
    c.tasks = xcalloc(m->nfiles + 1, sizeof *c.tasks);
    for (size_t i = 0; i < m->nfiles; i++)
        if (m->files[i].type == BK_FILE)
            c.tasks[c.ntasks++] = (task){m, &m->files[i]};
    int rc = run_tasks(&c, concurrency);
    free(c.tasks);
    if (!rc && c.bad)
        rc = err_set(ERR_CHECKSUM_DOESNT_MATCH, "Backup %s: %" PRIu64 " corrupt block(s) or file(s), listed above",
                     m->name, c.bad);
    return rc;
}
