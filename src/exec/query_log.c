#include "exec/query_log.h"

#include "base/buf.h"
#include "base/err.h"
#include "base/mem.h"
#include "column/datetime.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char QUERY_LOG_STRUCTURE[] =
    "type Enum8('QueryStart' = 1, 'QueryFinish' = 2, 'ExceptionBeforeStart' = 3, 'ExceptionWhileProcessing' = 4), "
    "event_date Date, event_time DateTime, query_start_time DateTime, query_duration_ms UInt64, read_rows UInt64, "
    "read_bytes UInt64, result_rows UInt64, result_bytes UInt64, memory_usage UInt64, query String, "
    "exception_code Int32, exception String, query_id String, `ProfileEvents.Names` Array(String), "
    "`ProfileEvents.Values` Array(UInt64)";

/* ClickHouse's ProfileEvents names for the counters shale keeps. */
static void put_profile_events(buf *b, const http_counters *io)
{
    uint64_t get = 0, list = 0, head = 0, put = 0, post = 0, in = 0, out = 0, retries = 0, wait_us = 0, pq_hits = 0,
             pq_misses = 0;
    if (io) {
        list = atomic_load(&io->list);
        get = atomic_load(&io->get);
        get = get > list ? get - list : 0;
        head = atomic_load(&io->head);
        put = atomic_load(&io->put);
        post = atomic_load(&io->post);
        in = atomic_load(&io->bytes_in);
        out = atomic_load(&io->bytes_out);
        retries = atomic_load(&io->retries);
        wait_us = atomic_load(&io->wait_ns) / 1000;
        pq_hits = atomic_load(&io->pq_meta_hits);
        pq_misses = atomic_load(&io->pq_meta_misses);
    }
    struct {
        const char *name;
        uint64_t v;
    } ev[] = {{"S3GetObject", get},         {"S3ListObjects", list},          {"S3HeadObject", head},
              {"S3PutObject", put},         {"S3PostRequests", post},
              {"ReadBufferFromS3Bytes", in}, {"WriteBufferFromS3Bytes", out}, {"S3Retries", retries},
              {"RemoteFSPrefetchedReadsWaitMicroseconds", wait_us},
              {"ParquetMetadataCacheHits", pq_hits}, {"ParquetMetadataCacheMisses", pq_misses}};
    /* S3PutObject counts PUT attempts, UploadPart included; S3PostRequests counts
     * CreateMultipartUpload, CompleteMultipartUpload and DeleteObjects. */
    int n = (int)(sizeof ev / sizeof ev[0]);
    buf_putc(b, '[');
    bool first = true;
    for (int i = 0; i < n; i++) {
        if (!ev[i].v)
            continue;
        buf_printf(b, "%s'%s'", first ? "" : ",", ev[i].name);
        first = false;
    }
    buf_puts(b, "]\t[");
    first = true;
    for (int i = 0; i < n; i++) {
        if (!ev[i].v)
            continue;
        buf_printf(b, "%s%llu", first ? "" : ",", (unsigned long long)ev[i].v);
        first = false;
    }
    buf_putc(b, ']');
}

void log_put_escaped(buf *b, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '\t': buf_puts(b, "\\t"); break;
        case '\n': buf_puts(b, "\\n"); break;
        case '\\': buf_puts(b, "\\\\"); break;
        default: buf_putc(b, *s);
        }
    }
}

void query_log_path(const char *data_path, char *out, size_t cap, bool make_dir)
{
    snprintf(out, cap, "%s/system", data_path);
    if (make_dir)
        mkdir(out, 0755);
    snprintf(out, cap, "%s/system/query_log.tsv", data_path);
}

static log_file query_log_file = LOG_FILE_INIT;

/* The file stays open (O_APPEND keeps rows whole between threads and processes) and is
 * reopened only for another path (log_file_append closes it), or when it was removed or replaced (its inode changed;
 * checked at most once a second: two stat(2) calls per query were a measurable part of a
 * short query over HTTP). */
static int log_open(log_file *f)
{
    double now = clock_monotonic();
    if (f->fd >= 0 && now - f->checked_at < 1.0)
        return f->fd;
    f->checked_at = now;
    struct stat a, b;
    if (f->fd >= 0 && fstat(f->fd, &a) == 0 && stat(f->path, &b) == 0 && a.st_ino == b.st_ino && a.st_dev == b.st_dev)
        return f->fd;
    if (f->fd >= 0)
        close(f->fd);
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", f->path);
    char *slash = strrchr(dir, '/');
    if (slash) {
        *slash = 0;
        mkdir(dir, 0755);
    }
    f->fd = open(f->path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    return f->fd;
}

enum { LOG_BATCH_BYTES = 256 << 10, MAX_LOG_FILES = 8 };
static const double LOG_FLUSH_SECONDS = 1.0;

static pthread_mutex_t files_mu = PTHREAD_MUTEX_INITIALIZER;
static log_file *files[MAX_LOG_FILES];
static int nfiles;

static void flush_at_exit(void) { log_files_flush(); }

static void register_file(log_file *f)
{
    pthread_mutex_lock(&files_mu);
    if (nfiles == 0)
        atexit(flush_at_exit);
    if (nfiles < MAX_LOG_FILES)
        files[nfiles++] = f;
    pthread_mutex_unlock(&files_mu);
    f->registered = true;
}

/* Writes f's pending rows; the caller holds f->mu. */
static int flush_locked(log_file *f)
{
    int rc = 0;
    if (f->pending.len) {
        int fd = log_open(f);
        if (fd < 0)
            rc = err_set(ERR_CANNOT_OPEN_FILE, "Cannot open the %s %s: %s", f->what, f->path, strerror(errno));
        else if (write(fd, f->pending.p, f->pending.len) != (ssize_t)f->pending.len)
            rc = err_set(ERR_CANNOT_WRITE_TO_FILE_DESCRIPTOR, "Cannot append to the %s %s: %s", f->what, f->path,
                         strerror(errno));
        f->pending.len = 0;
    }
    f->flushed_at = clock_monotonic();
    return rc;
}

int log_file_append(log_file *f, const char *path, const char *what, const void *row, size_t len)
{
    pthread_mutex_lock(&f->mu);
    if (!f->registered)
        register_file(f);
    int rc = 0;
    if (strcmp(path, f->path) != 0) { /* another data path: the old one's rows go first */
        rc = flush_locked(f);
        if (f->fd >= 0)
            close(f->fd);
        f->fd = -1;
        snprintf(f->path, sizeof f->path, "%s", path);
    }
    f->what = what;
    buf_append(&f->pending, row, len);
    if (f->pending.len >= LOG_BATCH_BYTES || clock_monotonic() - f->flushed_at >= LOG_FLUSH_SECONDS) {
        int wrc = flush_locked(f);
        rc = rc ? rc : wrc;
    }
    pthread_mutex_unlock(&f->mu);
    return rc;
}

int log_files_flush(void)
{
    pthread_mutex_lock(&files_mu);
    int n = nfiles, rc = 0;
    log_file *list[MAX_LOG_FILES];
    memcpy(list, files, sizeof list);
    pthread_mutex_unlock(&files_mu);
    for (int i = 0; i < n; i++) {
        pthread_mutex_lock(&list[i]->mu);
        int frc = flush_locked(list[i]);
        pthread_mutex_unlock(&list[i]->mu);
        rc = rc ? rc : frc;
    }
    return rc;
}

int query_log_append(const char *data_path, const query_log_entry *e)
{
    if (!data_path)
        return 0;
    char path[4096];
    buf b = {0};
    char date[16];
    int64_t now = (int64_t)(e->start_time + (double)e->duration_ms / 1000.0);
    int64_t days = now >= 0 ? now / 86400 : (now - 86399) / 86400;
    date[dt_format_date(days, date)] = 0;
    buf_printf(&b, "%d\t%s\t%lld\t%lld\t%llu\t%llu\t%llu\t%llu\t%llu\t%lld\t", e->type, date, (long long)now,
               (long long)e->start_time, (unsigned long long)e->duration_ms, (unsigned long long)e->read_rows,
               (unsigned long long)e->read_bytes, (unsigned long long)e->result_rows,
               (unsigned long long)e->result_bytes, (long long)(e->memory_usage > 0 ? e->memory_usage : 0));
    log_put_escaped(&b, e->query);
    buf_printf(&b, "\t%d\t", e->exception_code);
    log_put_escaped(&b, e->exception);
    buf_putc(&b, '\t');
    log_put_escaped(&b, e->query_id);
    buf_putc(&b, '\t');
    put_profile_events(&b, e->io);
    buf_putc(&b, '\n');
    query_log_path(data_path, path, sizeof path, false);
    int rc = log_file_append(&query_log_file, path, "query log", b.p, b.len);
    buf_free(&b);
    return rc;
}

