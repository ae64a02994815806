/* Resumable bulk loads (shale's addition; setting resumable_insert = 1): an INSERT … SELECT
 * from file()/s3() loads its source objects one at a time and records each finished
 * object (name and version: the S3 ETag, or size and mtime of a local file) in
 * <table>/resume.log; a re-run of the same statement skips recorded objects.
 *
 * Exactly-once per object: before an object's rows are written the log gets
 * "begin <first block number> <name> <version>", after all its parts are committed
 * "done …" (fsync'd). The object's parts are the active parts whose min block is at least
 * the first block number: merges leave them alone while the load runs (resume_floor),
 * a failed load removes them and logs "abort", and a crash leaves a "begin" without an
 * end, whose parts the next start removes before anything else runs. */
#include "storage/mergetree/mt.h"

#include "base/err.h"
#include "base/mem.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int log_line(mt_table *m, const char *kind, int64_t first, const char *name, const char *version)
{
    char *path = mt_sprintf("%sresume.log", m->t->data_dir);
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    int rc = 0;
    if (fd < 0) {
        rc = err_set(ERR_CANNOT_OPEN_FILE, "Cannot open %s: %s", path, strerror(errno));
    } else {
        buf b = {0};
        /* names never hold tabs or newlines in practice; escape them anyway */
        buf_printf(&b, "%s\t%" PRId64 "\t", kind, first);
        for (const char *p = name; *p; p++)
            buf_putc(&b, *p == '\t' || *p == '\n' ? ' ' : *p);
        buf_putc(&b, '\t');
        for (const char *p = version; *p; p++)
            buf_putc(&b, *p == '\t' || *p == '\n' ? ' ' : *p);
        buf_putc(&b, '\n');
        ssize_t w = write(fd, b.p, b.len);
        if (w != (ssize_t)b.len)
            rc = err_set(ERR_CANNOT_WRITE_TO_FILE_DESCRIPTOR, "Cannot write %s: %s", path, strerror(errno));
        else if (fsync(fd))
            rc = err_set(ERR_CANNOT_FSYNC, "Cannot fsync %s: %s", path, strerror(errno));
        close(fd);
        buf_free(&b);
    }
    free(path);
    return rc;
}

/* Marks every active part with min_block >= first outdated and removes it. */
static void drop_from(mt_table *m, int64_t first)
{
    pthread_mutex_lock(&m->lock);
    while (m->running_merges)
        pthread_cond_wait(&m->cond, &m->lock);
    double now = (double)time(NULL);
    for (int i = 0; i < m->nparts; i++)
        if (m->parts[i]->state == PART_ACTIVE && m->parts[i]->min_block >= first) {
            m->parts[i]->state = PART_OUTDATED;
            m->parts[i]->remove_time = now - (double)m->set.old_parts_lifetime;
        }
    pthread_mutex_unlock(&m->lock);
    mt_remove_outdated(m, true);
}

typedef struct entry {
    char kind[8];
    int64_t first;
    char *name, *version;
} entry;

/* Reads resume.log; *n entries (caller frees). A torn last line is ignored. */
static entry *read_log(mt_table *m, int *n)
{
    *n = 0;
    buf b = {0};
    if (mt_read_small_file(m->t->data_dir, "resume.log", &b)) {
        err_clear();
        buf_free(&b);
        return NULL;
    }
    entry *v = NULL;
    const char *p = (const char *)b.p, *end = p + b.len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            break;
        char *line = xstrndup(p, (size_t)(nl - p));
        char *f[4] = {0};
        int nf = 0;
        for (char *s = line, *tok; nf < 4 && (tok = strsep(&s, "\t"));)
            f[nf++] = tok;
        if (nf == 4 && strlen(f[0]) < sizeof v->kind) {
            v = xrealloc(v, sizeof *v * (size_t)(*n + 1));
            entry *e = &v[(*n)++];
            snprintf(e->kind, sizeof e->kind, "%s", f[0]);
            e->first = strtoll(f[1], NULL, 10);
            e->name = xstrdup(f[2]);
            e->version = xstrdup(f[3]);
        }
        free(line);
        p = nl + 1;
    }
    buf_free(&b);
    return v;
}

static void free_log(entry *v, int n)
{
    for (int i = 0; i < n; i++) {
        free(v[i].name);
        free(v[i].version);
    }
    free(v);
}

void mt_resume_recover(mt_table *m)
{
    int n;
    entry *v = read_log(m, &n);
    if (n && !strcmp(v[n - 1].kind, "begin")) {
        /* The process stopped while loading this object: its parts are partial. */
        drop_from(m, v[n - 1].first);
        if (!log_line(m, "abort", v[n - 1].first, v[n - 1].name, v[n - 1].version))
            fprintf(stderr, "shale: table %s: removed the partial load of %s (resumable INSERT)\n",
                    table_full_name(m->t), v[n - 1].name);
        err_clear();
    }
    free_log(v, n);
}

int mergetree_resume_lookup(table *t, const char *name, char **version)
{
    *version = NULL;
    if (!mt_is_mergetree(t))
        return err_set(ERR_NOT_IMPLEMENTED, "resumable_insert needs a MergeTree-family table; %s is %s",
                       table_full_name(t), t->engine->name);
    mt_table *m = t->impl;
    int n;
    entry *v = read_log(m, &n);
    for (int i = n - 1; i >= 0 && !*version; i--)
        if (!strcmp(v[i].kind, "done") && !strcmp(v[i].name, name))
            *version = xstrdup(v[i].version);
    free_log(v, n);
    return 0;
}

int mergetree_resume_begin(table *t, const char *name, const char *version, int64_t *first)
{
    mt_table *m = t->impl;
    pthread_mutex_lock(&m->lock);
    *first = m->next_block;
    m->resume_floor = *first;
    pthread_mutex_unlock(&m->lock);
    return log_line(m, "begin", *first, name, version);
}

int mergetree_resume_end(table *t, const char *name, const char *version, int64_t first, bool ok)
{
    mt_table *m = t->impl;
    int rc = 0;
    if (ok) {
        rc = log_line(m, "done", first, name, version);
    }
    if (!ok || rc) {
        char saved[ERR_MSG_MAX];
        int code = err_code();
        snprintf(saved, sizeof saved, "%s", err_msg());
        drop_from(m, first);
        log_line(m, "abort", first, name, version);
        err_set(code, "%s", saved);
        rc = -1;
    }
    pthread_mutex_lock(&m->lock);
    m->resume_floor = INT64_MAX;
    pthread_cond_broadcast(&m->cond);
    pthread_mutex_unlock(&m->lock);
    return ok ? rc : -1;
}
