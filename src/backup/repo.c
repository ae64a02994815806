/* Backup repositories: a local directory and S3 (see repo.h). */
#include "backup/repo.h"

#include "base/err.h"
#include "base/mem.h"
#include "io/s3.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct bk_repo {
    char *url;
    char *dir;          /* local: the root directory, no trailing '/' */
    s3_client *s3;      /* S3: the client; keys are prefix + key */
    char *prefix;       /* S3: "" or "some/prefix/" */
    http_counters counters;
};

int bk_repo_open(const char *url, bk_repo **out)
{
    return bk_repo_open_creds(url, NULL, NULL, out);
}

int bk_repo_open_creds(const char *url, const char *key_id, const char *secret, bk_repo **out)
{
    bk_repo *r = xcalloc(1, sizeof *r);
    r->url = xstrdup(url);
    if (strncmp(url, "file://", 7) == 0 || url[0] == '/') {
        const char *p = url[0] == '/' ? url : url + 7;
        if (p[0] != '/') {
            bk_repo_close(r);
            return err_set(ERR_BAD_ARGUMENTS, "Repository '%s': a file:// URL needs an absolute path (file:///dir)", url);
        }
        r->dir = xstrdup(p);
        size_t n = strlen(r->dir);
        while (n > 1 && r->dir[n - 1] == '/')
            r->dir[--n] = 0;
    } else if (strncmp(url, "http://", 7) == 0 || strncmp(url, "https://", 8) == 0) {
        s3_url u;
        if (s3_url_parse(url, &u)) {
            bk_repo_close(r);
            return err_prefix("Repository '%s': ", url);
        }
        size_t kl = strlen(u.key);
        r->prefix = xmalloc(kl + 2);
        memcpy(r->prefix, u.key, kl + 1);
        if (kl && u.key[kl - 1] != '/')
            strcat(r->prefix, "/");
        s3_creds cr = {.key_id = key_id, .secret = secret};
        r->s3 = s3_client_new(&u, &cr, &r->counters);
        s3_url_free(&u);
        if (!r->s3) {
            bk_repo_close(r);
            return err_prefix("Repository '%s': ", url);
        }
    } else {
        bk_repo_close(r);
        return err_set(ERR_BAD_ARGUMENTS, "Repository '%s': expected file:///dir or http(s)://host/bucket/prefix", url);
    }
    *out = r;
    return 0;
}

void bk_repo_close(bk_repo *r)
{
    if (!r)
        return;
    if (r->s3)
        s3_client_free(r->s3);
    free(r->url);
    free(r->dir);
    free(r->prefix);
    free(r);
}

const char *bk_repo_url(const bk_repo *r) { return r->url; }
bool bk_repo_is_s3(const bk_repo *r) { return r->s3 != NULL; }

static char *local_path(const bk_repo *r, const char *key)
{
    size_t n = strlen(r->dir) + strlen(key) + 2;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/%s", r->dir, key);
    return p;
}

static char *s3_key(const bk_repo *r, const char *key)
{
    size_t n = strlen(r->prefix) + strlen(key) + 1;
    char *p = xmalloc(n);
    snprintf(p, n, "%s%s", r->prefix, key);
    return p;
}

int bk_mkdirs(const char *dir, unsigned mode)
{
    char *p = xstrdup(dir);
    int rc = 0;
    for (char *s = p + 1;; s++) {
        if (*s && *s != '/')
            continue;
        char keep = *s;
        *s = 0;
        if (mkdir(p, keep ? 0700 : (mode_t)mode) && errno != EEXIST) {
            rc = err_set(ERR_CANNOT_CREATE_DIRECTORY, "Cannot create directory %s: %s", p, strerror(errno));
            break;
        }
        if (!keep)
            break;
        *s = keep;
    }
    free(p);
    return rc;
}

/* mkdir -p of the directory part of path. */
static int make_parents(const char *path)
{
    char *d = xstrdup(path);
    char *sl = strrchr(d, '/');
    int rc = 0;
    if (sl && sl != d) {
        *sl = 0;
        rc = bk_mkdirs(d, 0700);
    }
    free(d);
    return rc;
}

static int fsync_dir_of(const char *path)
{
    char *d = xstrdup(path);
    char *sl = strrchr(d, '/');
    if (sl)
        *(sl == d ? sl + 1 : sl) = 0;
    int fd = open(d, O_RDONLY | O_DIRECTORY);
    int rc = 0;
    if (fd < 0 || fsync(fd))
        rc = err_set(ERR_CANNOT_FSYNC, "Cannot fsync directory %s: %s", d, strerror(errno));
    if (fd >= 0)
        close(fd);
    free(d);
    return rc;
}

int bk_write_all(int fd, const void *p, size_t n, const char *path)
{
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return err_set(w < 0 && errno == ENOSPC ? ERR_NOT_ENOUGH_SPACE : ERR_CANNOT_WRITE_TO_FILE_DESCRIPTOR,
                           "Cannot write %s: %s", path, w < 0 ? strerror(errno) : "no progress");
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

int bk_repo_put(bk_repo *r, const char *key, const void *p, size_t n)
{
    if (r->s3) {
        char *k = s3_key(r, key);
        int rc = s3_put(r->s3, k, p, n);
        free(k);
        return rc ? err_prefix("Repository %s: cannot write %s: ", r->url, key) : 0;
    }
    char *path = local_path(r, key);
    size_t tl = strlen(path) + 32;
    char *tmp = xmalloc(tl);
    snprintf(tmp, tl, "%s.tmp.%d", path, (int)getpid());
    int rc = make_parents(path);
    int fd = -1;
    if (!rc) {
        fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd < 0)
            rc = err_set(ERR_CANNOT_OPEN_FILE, "Cannot create %s: %s", tmp, strerror(errno));
    }
    if (!rc)
        rc = bk_write_all(fd, p, n, tmp);
    if (!rc && fsync(fd))
        rc = err_set(ERR_CANNOT_FSYNC, "Cannot fsync %s: %s", tmp, strerror(errno));
    if (!rc)
        (void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED); /* see WRITE_BEHIND */
    if (fd >= 0)
        close(fd);
    if (!rc && rename(tmp, path))
        rc = err_set(ERR_ATOMIC_RENAME_FAIL, "Cannot rename %s to %s: %s", tmp, path, strerror(errno));
    if (!rc)
        rc = fsync_dir_of(path);
    if (rc)
        unlink(tmp);
    free(tmp);
    free(path);
    return rc;
}

static bool s3_missing(void)
{
    const char *m = err_msg();
    return strstr(m, "NoSuchKey") || strstr(m, "404") || strstr(m, "Not Found");
}

static int append_cb(void *ctx, const void *p, size_t n)
{
    buf_append(ctx, p, n);
    return 0;
}

int bk_repo_get(bk_repo *r, const char *key, buf *out, bool *missing)
{
    if (missing)
        *missing = false;
    if (r->s3) {
        char *k = s3_key(r, key);
        uint64_t size;
        char *etag = NULL;
        int rc = s3_head(r->s3, k, &size, &etag);
        if (rc && missing && s3_missing()) {
            err_clear();
            *missing = true;
            free(k);
            return 0;
        }
        if (!rc && size)
            rc = s3_get_range(r->s3, k, etag, 0, size - 1, append_cb, out);
        free(etag);
        free(k);
        return rc ? err_prefix("Repository %s: cannot read %s: ", r->url, key) : 0;
    }
    char *path = local_path(r, key);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        if (e == ENOENT && missing) {
            *missing = true;
            free(path);
            return 0;
        }
        err_set(e == ENOENT ? ERR_FILE_DOESNT_EXIST : ERR_CANNOT_OPEN_FILE, "Cannot open %s: %s", path, strerror(e));
        free(path);
        return -1;
    }
    int rc = 0;
    for (;;) {
        void *d = buf_grow(out, 1 << 20);
        ssize_t g = read(fd, d, 1 << 20);
        if (g < 0 && errno == EINTR) {
            out->len -= 1 << 20;
            continue;
        }
        if (g < 0) {
            out->len -= 1 << 20;
            rc = err_set(ERR_CANNOT_READ_FROM_FILE_DESCRIPTOR, "Cannot read %s: %s", path, strerror(errno));
            break;
        }
        out->len -= (size_t)((1 << 20) - g);
        if (g == 0)
            break;
    }
    close(fd);
    free(path);
    return rc;
}

typedef struct range_ctx {
    char *dst;
    size_t want, got;
} range_ctx;

static int range_cb(void *ctx, const void *p, size_t n)
{
    range_ctx *c = ctx;
    if (c->got + n > c->want)
        return err_set(ERR_S3_ERROR, "more bytes than requested");
    memcpy(c->dst + c->got, p, n);
    c->got += n;
    return 0;
}

int bk_repo_read(bk_repo *r, const char *key, uint64_t off, size_t n, void *dst)
{
    if (n == 0)
        return 0;
    if (r->s3) {
        char *k = s3_key(r, key);
        range_ctx c = {dst, n, 0};
        int rc = s3_get_range(r->s3, k, NULL, off, off + n - 1, range_cb, &c);
        free(k);
        if (!rc && c.got != n)
            rc = err_set(ERR_CANNOT_READ_ALL_DATA, "%zu of %zu bytes at offset %llu", c.got, n, (unsigned long long)off);
        return rc ? err_prefix("Repository %s: cannot read %s: ", r->url, key) : 0;
    }
    char *path = local_path(r, key);
    int rc = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        rc = err_set(errno == ENOENT ? ERR_FILE_DOESNT_EXIST : ERR_CANNOT_OPEN_FILE, "Cannot open %s: %s", path,
                     strerror(errno));
    } else {
        size_t got = 0;
        while (got < n) {
            ssize_t g = pread(fd, (char *)dst + got, n - got, (off_t)(off + got));
            if (g < 0 && errno == EINTR)
                continue;
            if (g <= 0) {
                rc = err_set(ERR_CANNOT_READ_ALL_DATA, "Cannot read %zu bytes at offset %llu of %s: %s", n,
                             (unsigned long long)off, path, g < 0 ? strerror(errno) : "the object is shorter");
                break;
            }
            got += (size_t)g;
        }
        close(fd);
    }
    free(path);
    return rc;
}

/* ---- streaming writers ---- */

/* A backup must not push the database's pages out of the page cache, and on a local repository
 * the objects it writes would: written pages are charged to the backup's memory cgroup — the
 * database's, when they share one — and stay there until reclaimed. So objects are written with
 * O_DIRECT from an aligned staging buffer of BK_REPO_STAGE bytes: the bytes go from the buffer to
 * the disk, never through the page cache, which also saves the kernel's copy, its page-cache
 * bookkeeping and the later writeback and invalidation (a tenth of a push's CPU with buffered
 * writes). The tail that is not a multiple of the alignment is written buffered at close, after
 * clearing O_DIRECT, then fsync'ed and dropped from the cache.
 *
 * Without O_DIRECT (a push with --buffered, or a filesystem that refuses it: EINVAL at open or
 * at the first write, as some FUSE and network filesystems do) writes are buffered with
 * write-behind: writeback starts for
 * every WRITE_BEHIND bytes as they are written and, one window later, the writer waits for that
 * range and drops it from the cache, so the cache holds at most two windows. */
#define WRITE_BEHIND ((off_t)8 << 20)
#define DIO_ALIGN 4096

typedef struct file_out {
    outstream base;
    int fd;
    char *path;
    bool direct;     /* O_DIRECT writes from stage */
    uint8_t *stage;  /* direct: aligned, BK_REPO_STAGE bytes, [0, staged) not yet written */
    size_t staged;
    off_t written;   /* direct: [0, written) is on disk (a multiple of DIO_ALIGN) */
    off_t flushed;   /* buffered: writeback started for [0, flushed) */
    off_t dropped;   /* buffered: [0, dropped) is on disk and out of the page cache */
} file_out;

/* Buffered mode from here on: O_DIRECT cleared, write()s continue at f->written. */
static int file_out_to_buffered(file_out *f)
{
    int fl = fcntl(f->fd, F_GETFL);
    if (fl < 0 || fcntl(f->fd, F_SETFL, fl & ~O_DIRECT) < 0 || lseek(f->fd, f->written, SEEK_SET) < 0)
        return err_set(ERR_CANNOT_WRITE_TO_FILE_DESCRIPTOR, "Cannot switch %s to buffered writes: %s", f->path,
                       strerror(errno));
    f->direct = false;
    return 0;
}

static int buffered_write(file_out *f, const void *p, size_t n, off_t end)
{
    if (bk_write_all(f->fd, p, n, f->path))
        return -1;
    while (end - f->flushed >= WRITE_BEHIND) {
        /* errors here only lose the optimisation: fsync at close reports real write errors */
        (void)sync_file_range(f->fd, f->flushed, WRITE_BEHIND, SYNC_FILE_RANGE_WRITE);
        f->flushed += WRITE_BEHIND;
        if (f->flushed - f->dropped > WRITE_BEHIND) {
            (void)sync_file_range(f->fd, f->dropped, WRITE_BEHIND,
                                  SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER);
            (void)posix_fadvise(f->fd, f->dropped, WRITE_BEHIND, POSIX_FADV_DONTNEED);
            f->dropped += WRITE_BEHIND;
        }
    }
    return 0;
}

/* Writes the first n bytes of stage (a multiple of DIO_ALIGN) with O_DIRECT at f->written. A
 * filesystem refusing it (EINVAL before anything was written) turns the writer buffered. */
static int stage_flush(file_out *f, size_t n)
{
    size_t done = 0;
    while (done < n) {
        ssize_t w = pwrite(f->fd, f->stage + done, n - done, f->written + (off_t)done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && errno == EINVAL && f->written == 0 && done == 0) {
            if (file_out_to_buffered(f))
                return -1;
            return buffered_write(f, f->stage, n, (off_t)n);
        }
        if (w <= 0)
            return err_set(w < 0 && errno == ENOSPC ? ERR_NOT_ENOUGH_SPACE : ERR_CANNOT_WRITE_TO_FILE_DESCRIPTOR,
                           "Cannot write %s: %s", f->path, w < 0 ? strerror(errno) : "no progress");
        done += (size_t)w;
        if (done % DIO_ALIGN) /* a short direct write left an unaligned offset */
            return err_set(ERR_CANNOT_WRITE_TO_FILE_DESCRIPTOR, "Cannot write %s: a short direct write of %zu bytes",
                           f->path, done);
    }
    f->written += (off_t)n;
    return 0;
}

static int file_out_write(outstream *s, const void *p, size_t n)
{
    file_out *f = (file_out *)s;
    const uint8_t *src = p;
    while (n && f->direct) {
        size_t take = BK_REPO_STAGE - f->staged < n ? BK_REPO_STAGE - f->staged : n;
        memcpy(f->stage + f->staged, src, take);
        f->staged += take;
        src += take;
        n -= take;
        s->offset += take;
        if (f->staged == BK_REPO_STAGE) {
            f->staged = 0;
            if (stage_flush(f, BK_REPO_STAGE))
                return -1;
        }
    }
    if (!n)
        return 0;
    s->offset += n;
    return buffered_write(f, src, n, (off_t)s->offset);
}

static void file_out_free(file_out *f)
{
    if (f->fd >= 0)
        close(f->fd);
    free(f->stage);
    free(f->path);
    free(f);
}

static int file_out_close(outstream *s)
{
    file_out *f = (file_out *)s;
    int rc = 0;
    if (f->direct && f->staged) {
        size_t whole = f->staged - f->staged % DIO_ALIGN, tail = f->staged - whole;
        rc = whole ? stage_flush(f, whole) : 0;
        if (!rc && tail && f->direct)
            rc = file_out_to_buffered(f);
        if (!rc && tail)
            rc = bk_write_all(f->fd, f->stage + whole, tail, f->path);
    }
    if (!rc && fsync(f->fd))
        rc = err_set(ERR_CANNOT_FSYNC, "Cannot fsync %s: %s", f->path, strerror(errno));
    if (!rc) {
        (void)posix_fadvise(f->fd, 0, 0, POSIX_FADV_DONTNEED); /* see WRITE_BEHIND */
        rc = fsync_dir_of(f->path);
    }
    file_out_free(f);
    return rc;
}

int bk_repo_writer(bk_repo *r, const char *key, uint64_t part_size, int in_flight, bool direct, outstream **out)
{
    if (r->s3) {
        char *k = s3_key(r, key);
        /* Constant part sizes (the threshold is never reached), so the memory bound that
         * bk_settings_fit computed holds for every part. */
        s3_write_opts o = {.min_part = part_size, .max_part = part_size, .factor = 2, .threshold = 100000,
                           .max_single = part_size, .max_inflight = in_flight};
        int rc = outstream_open_s3(r->s3, k, &o, out);
        free(k);
        return rc;
    }
    file_out *f = xcalloc(1, sizeof *f);
    f->path = local_path(r, key);
    if (make_parents(f->path)) {
        f->fd = -1;
        file_out_free(f);
        return -1;
    }
    f->direct = direct && posix_memalign((void **)&f->stage, DIO_ALIGN, BK_REPO_STAGE) == 0;
    if (!f->direct)
        f->stage = NULL;
    f->fd = f->direct ? open(f->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_DIRECT, 0600) : -1;
    if (f->fd < 0 && (!f->direct || errno == EINVAL)) { /* no buffer, or O_DIRECT refused at open */
        f->direct = false;
        f->fd = open(f->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    }
    if (f->fd < 0) {
        err_set(ERR_CANNOT_OPEN_FILE, "Cannot create %s: %s", f->path, strerror(errno));
        file_out_free(f);
        return -1;
    }
    f->base.write = file_out_write;
    f->base.close = file_out_close;
    f->base.name = f->path;
    *out = &f->base;
    return 0;
}

void bk_repo_writer_abort(bk_repo *r, outstream *w)
{
    if (r->s3) {
        outstream_s3_abort(w);
        return;
    }
    file_out *f = (file_out *)w;
    unlink(f->path);
    file_out_free(f);
}

/* ---- listing and deletion ---- */

typedef struct list_acc {
    char **keys;
    uint64_t *sizes;
    size_t n, cap;
} list_acc;

static void acc_add(list_acc *a, const char *key, uint64_t size)
{
    if (a->n == a->cap) {
        a->cap = a->cap ? a->cap * 2 : 64;
        a->keys = xrealloc(a->keys, a->cap * sizeof *a->keys);
        a->sizes = xrealloc(a->sizes, a->cap * sizeof *a->sizes);
    }
    a->keys[a->n] = xstrdup(key);
    a->sizes[a->n++] = size;
}

static int walk_local(const char *root, const char *rel, list_acc *a)
{
    size_t pl = strlen(root) + strlen(rel) + 2;
    char *path = xmalloc(pl);
    snprintf(path, pl, "%s%s%s", root, *rel ? "/" : "", rel);
    DIR *d = opendir(path);
    if (!d) {
        int e = errno;
        free(path);
        if (e == ENOENT || e == ENOTDIR)
            return 0;
        return err_set(ERR_CANNOT_OPEN_FILE, "Cannot list %s: %s", root, strerror(e));
    }
    int rc = 0;
    struct dirent *de;
    while (!rc && (de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        size_t cl = strlen(rel) + strlen(de->d_name) + 2;
        char *child = xmalloc(cl);
        snprintf(child, cl, "%s%s%s", rel, *rel ? "/" : "", de->d_name);
        size_t fl = strlen(root) + cl + 2;
        char *full = xmalloc(fl);
        snprintf(full, fl, "%s/%s", root, child);
        struct stat st;
        if (lstat(full, &st) == 0) {
            if (S_ISDIR(st.st_mode))
                rc = walk_local(root, child, a);
            else if (S_ISREG(st.st_mode) && !strstr(de->d_name, ".tmp."))
                acc_add(a, child, (uint64_t)st.st_size);
        }
        free(full);
        free(child);
    }
    closedir(d);
    free(path);
    return rc;
}

int bk_repo_list(bk_repo *r, const char *prefix, char ***keys, uint64_t **sizes, size_t *n)
{
    list_acc a = {0};
    int rc;
    if (r->s3) {
        char *k = s3_key(r, prefix);
        s3_object *objs = NULL;
        size_t no = 0;
        rc = s3_list(r->s3, k, &objs, &no);
        free(k);
        size_t pl = strlen(r->prefix);
        for (size_t i = 0; !rc && i < no; i++)
            if (strlen(objs[i].key) >= pl)
                acc_add(&a, objs[i].key + pl, objs[i].size);
        s3_objects_free(objs, no);
        if (rc)
            err_prefix("Repository %s: ", r->url);
    } else {
        /* the prefix is a directory path here ("backups/", "wal/") */
        char *dirp = xstrdup(prefix);
        size_t l = strlen(dirp);
        while (l && dirp[l - 1] == '/')
            dirp[--l] = 0;
        rc = walk_local(r->dir, dirp, &a);
        free(dirp);
    }
    if (rc) {
        bk_repo_list_free(a.keys, a.sizes, a.n);
        return -1;
    }
    *keys = a.keys;
    *sizes = a.sizes;
    *n = a.n;
    return 0;
}

void bk_repo_list_free(char **keys, uint64_t *sizes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(keys[i]);
    free(keys);
    free(sizes);
}

int bk_repo_delete(bk_repo *r, char *const *keys, size_t n)
{
    if (!n)
        return 0;
    if (r->s3) {
        char **k = xcalloc(n, sizeof *k);
        for (size_t i = 0; i < n; i++)
            k[i] = s3_key(r, keys[i]);
        int rc = s3_delete_objects(r->s3, k, n);
        for (size_t i = 0; i < n; i++)
            free(k[i]);
        free(k);
        return rc ? err_prefix("Repository %s: ", r->url) : 0;
    }
    for (size_t i = 0; i < n; i++) {
        char *p = local_path(r, keys[i]);
        if (unlink(p) && errno != ENOENT) {
            err_set(ERR_CANNOT_UNLINK, "Cannot remove %s: %s", p, strerror(errno));
            free(p);
            return -1;
        }
        /* remove the directories this emptied, up to the root */
        for (char *sl = strrchr(p, '/'); sl && (size_t)(sl - p) > strlen(r->dir); sl = strrchr(p, '/')) {
            *sl = 0;
            if (rmdir(p))
                break;
        }
        free(p);
    }
    return 0;
}
