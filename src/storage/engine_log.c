/* ENGINE = Log, TinyLog, StripeLog: small tables written once and read whole, persisted.
 *
 * Results are those of ClickHouse's Log family: rows come back in insertion order, each
 * INSERT appends, TRUNCATE empties, nothing is sorted or merged. The data lives in the
 * table's data directory as one Native stream (data.native) of the inserted blocks; the
 * file `size.txt` holds the length of its committed prefix. An INSERT appends its blocks,
 * fsyncs, then replaces size.txt (write tmp, fsync, rename), so a crash mid-INSERT leaves
 * bytes past the committed length that the next INSERT overwrites and that loading ignores.
 * The layout is shale's own (ClickHouse's per-column files are not produced).
 *
 * The blocks are also kept in memory (loaded at start, appended by INSERT), as the Memory
 * engine keeps them: these engines hold small tables.
 *
 * The Join and Set engines (engine_joinset.c) keep their inserted rows in the same store
 * (storage/log_store.h), on disk only with their setting persistent = 1.
 *
 * Thread-safety: storage/block_store.h; the store's mutex also serialises INSERTs' file
 * writes and TRUNCATE. */
#include "base/err.h"
#include "base/mem.h"
#include "format/format.h"
#include "io/stream.h"
#include "storage/block_store.h"
#include "storage/log_store.h"
#include "storage/table.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct log_table {
    block_store store;  /* its mutex also serialises the INSERTs' file writes */
    uint64_t committed; /* bytes of data.native that hold committed blocks */
    bool persistent;    /* false: memory only (Join and Set with persistent = 0) */
    void *extra;        /* the engine's own state (log_store_open), freed with the table */
} log_table;

static void path_of(const table *t, const char *file, char *out, size_t cap)
{
    snprintf(out, cap, "%s%s", t->data_dir, file);
}

static int read_committed(const table *t, uint64_t *size)
{
    char path[4096], text[64] = "";
    path_of(t, "size.txt", path, sizeof path);
    *size = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return errno == ENOENT ? 0 : err_set(ERR_CANNOT_OPEN_FILE, "Cannot open %s: %s", path, strerror(errno));
    bool ok = fgets(text, sizeof text, f) != NULL;
    fclose(f);
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (!ok || end == text || (*end && *end != '\n'))
        return err_set(ERR_CORRUPTED_DATA, "Table %s: %s does not hold a length", table_full_name(t), path);
    *size = v;
    return 0;
}

/* Loads the committed blocks of data.native. */
static int load_blocks(table *t, log_table *m)
{
    if (read_committed(t, &m->committed) || m->committed == 0)
        return m->committed == 0 ? 0 : -1;
    char path[4096];
    path_of(t, "data.native", path, sizeof path);
    instream *in;
    if (instream_open_file_range(path, 0, m->committed, &in))
        return err_prefix("Table %s: ", table_full_name(t));
    fmt_settings fs;
    fmt_settings_default(&fs);
    fmt_reader *r = NULL; /* owns the rbuf, which owns the stream */
    int rc = fmt_reader_new("Native", rbuf_new(in, 1 << 16), t->sch, &fs, &r);
    while (!rc) {
        block *b = NULL;
        rc = fmt_reader_next(r, &b);
        if (rc || !b)
            break;
        block_store_append_locked(&m->store, &b, 1);
    }
    if (r)
        fmt_reader_free(r);
    return rc ? err_prefix("Table %s, file %s: ", table_full_name(t), path) : 0;
}

int log_store_open(table *t, bool created, bool persistent, void *extra)
{
    log_table *m = xcalloc(1, sizeof *m);
    block_store_init(&m->store);
    m->persistent = persistent;
    m->extra = extra;
    t->impl = m;
    return created || !persistent ? 0 : load_blocks(t, m);
}

block_store *log_store_blocks(table *t) { return &((log_table *)t->impl)->store; }

void *log_store_extra(const table *t) { return ((const log_table *)t->impl)->extra; }

static int log_open(table *t, bool created, query_ctx *q)
{
    (void)q;
    if (t->create->engine && t->create->engine->args.n)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Engine %s doesn't support any arguments (%d given)",
                       t->engine->name, t->create->engine->args.n);
    return log_store_open(t, created, true, NULL);
}

static int log_read(table *t, bool final, query_ctx *q, source **out)
{
    (void)q;
    if (final)
        return err_set(ERR_ILLEGAL_FINAL, "Storage %s doesn't support FINAL", t->engine->name);
    *out = block_store_read(&((log_table *)t->impl)->store, t->sch);
    return 0;
}

/* Writes size.txt = size durably (tmp file, fsync, rename). */
static int write_committed(const table *t, uint64_t size)
{
    char path[4096], tmp[4112], text[32];
    path_of(t, "size.txt", path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    int len = snprintf(text, sizeof text, "%" PRIu64 "\n", size);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return err_set(ERR_CANNOT_OPEN_FILE, "Cannot open %s: %s", tmp, strerror(errno));
    bool ok = write(fd, text, (size_t)len) == len && fsync(fd) == 0;
    close(fd);
    if (!ok || rename(tmp, path) != 0)
        return err_set(ERR_CANNOT_WRITE_TO_FILE_DESCRIPTOR, "Cannot write %s: %s", path, strerror(errno));
    return 0;
}

/* Writes blocks bs[0..n) to `file` of the table's directory after its first `start`
 * bytes (what follows is cut); *end is the new length. Caller holds the table's mutex. */
static int append_blocks(table *t, const char *file, block **bs, int n, uint64_t start, uint64_t *end)
{
    char path[4096];
    path_of(t, file, path, sizeof path);
    int fd = open(path, O_WRONLY | O_CREAT, 0644);
    if (fd < 0)
        return err_set(ERR_CANNOT_OPEN_FILE, "Cannot open %s: %s", path, strerror(errno));
    if (ftruncate(fd, (off_t)start) != 0 || lseek(fd, (off_t)start, SEEK_SET) < 0) {
        close(fd);
        return err_set(ERR_CANNOT_WRITE_TO_FILE_DESCRIPTOR, "Cannot position %s: %s", path, strerror(errno));
    }
    outstream *os = outstream_from_fd(fd, path);
    fmt_settings fs;
    fmt_settings_default(&fs);
    fmt_writer *w;
    int rc = fmt_writer_new("Native", t->sch, &fs, os, &w);
    for (int i = 0; !rc && i < n; i++)
        rc = fmt_writer_write(w, bs[i]);
    if (!rc)
        rc = fmt_writer_finish(w, NULL);
    if (w)
        fmt_writer_free(w);
    if (os->close(os) && !rc)
        rc = -1;
    if (!rc && fsync(fd) != 0)
        rc = err_set(ERR_CANNOT_FSYNC, "Cannot fsync %s: %s", path, strerror(errno));
    off_t pos = lseek(fd, 0, SEEK_END);
    close(fd);
    *end = (uint64_t)pos;
    return rc;
}

static int log_finish(table_sink *ts)
{
    collect_sink *s = (collect_sink *)ts;
    log_table *m = s->t->impl;
    pthread_mutex_lock(&m->store.mu);
    uint64_t end = m->committed;
    int rc = s->n && m->persistent ? append_blocks(s->t, "data.native", s->blocks, s->n, m->committed, &end) : 0;
    if (!rc && s->n && m->persistent)
        rc = write_committed(s->t, end);
    if (!rc) {
        m->committed = end;
        block_store_append_locked(&m->store, s->blocks, s->n);
    } else {
        err_prefix("INSERT INTO %s: ", table_full_name(s->t));
    }
    pthread_mutex_unlock(&m->store.mu);
    collect_sink_free(s, rc != 0);
    return rc;
}

static void log_abort(table_sink *ts) { collect_sink_free((collect_sink *)ts, true); }

int log_store_insert(table *t, query_ctx *q, table_sink **out)
{
    (void)q;
    collect_sink *s = collect_sink_new(t, sizeof *s);
    s->base.finish = log_finish;
    s->base.abort = log_abort;
    *out = &s->base;
    return 0;
}

int log_store_truncate(table *t, query_ctx *q)
{
    (void)q;
    log_table *m = t->impl;
    pthread_mutex_lock(&m->store.mu);
    int rc = m->persistent ? write_committed(t, 0) : 0;
    if (!rc) {
        block_store_clear_locked(&m->store);
        m->committed = 0;
    }
    pthread_mutex_unlock(&m->store.mu);
    return rc;
}

int log_store_replace(table *t, block *b)
{
    log_table *m = t->impl;
    pthread_mutex_lock(&m->store.mu);
    uint64_t end = 0;
    int rc = 0;
    if (m->persistent) {
        /* The new stream goes beside the old one and replaces it whole; size.txt follows.
         * A crash between the two renames leaves a length that does not fit the new file,
         * which loading reports (as ClickHouse, a mutation of a Join table is not atomic). */
        char from[4096], to[4096];
        path_of(t, "data.native.tmp", from, sizeof from);
        path_of(t, "data.native", to, sizeof to);
        rc = append_blocks(t, "data.native.tmp", &b, b->rows ? 1 : 0, 0, &end);
        if (!rc && rename(from, to) != 0)
            rc = err_set(ERR_CANNOT_WRITE_TO_FILE_DESCRIPTOR, "Cannot rename %s: %s", from, strerror(errno));
        if (!rc)
            rc = write_committed(t, end);
    }
    if (!rc) {
        m->committed = end;
        block_store_clear_locked(&m->store);
        if (b->rows)
            block_store_append_locked(&m->store, &b, 1);
        else
            block_free(b);
    } else {
        block_free(b);
        err_prefix("Table %s: ", table_full_name(t));
    }
    pthread_mutex_unlock(&m->store.mu);
    return rc;
}

void log_store_close(table *t)
{
    log_table *m = t->impl;
    if (!m)
        return;
    block_store_destroy(&m->store);
    free(m->extra);
    free(m);
    t->impl = NULL;
}

#define LOG_ENGINE(var, engine_name)                                                                         \
    const table_engine var = {                                                                               \
        .name = engine_name,                                                                                 \
        .has_data_dir = true,                                                                                \
        .open = log_open,                                                                                    \
        .read = log_read,                                                                                    \
        .insert = log_store_insert,                                                                          \
        .truncate = log_store_truncate,                                                                      \
        .close = log_store_close,                                                                            \
    }

LOG_ENGINE(engine_log, "Log");
LOG_ENGINE(engine_tinylog, "TinyLog");
LOG_ENGINE(engine_stripelog, "StripeLog");
