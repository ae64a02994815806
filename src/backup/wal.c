/* WAL archiving and restore with prefetch (see wal.h). */
#include "backup/wal.h"

#include "backup/engine.h"
#include "base/err.h"
#include "base/mem.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <lz4frame.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

bool bk_wal_is_segment(const char *name)
{
    if (strlen(name) != 24)
        return false;
    for (int i = 0; i < 24; i++)
        if (!strchr("0123456789ABCDEF", name[i]))
            return false;
    return true;
}

void bk_wal_next(const char *name, uint64_t seg_size, char *out)
{
    unsigned tli, log, seg;
    sscanf(name, "%8X%8X%8X", &tli, &log, &seg);
    uint64_t per = seg_size ? 0x100000000ull / seg_size : 256;
    if ((uint64_t)seg + 1 >= per) {
        log++;
        seg = 0;
    } else {
        seg++;
    }
    snprintf(out, 25, "%08X%08X%08X", tli, log, seg);
}

void bk_wal_history_name(uint32_t tli, uint64_t start_lsn, uint64_t seg_size, char *out)
{
    uint64_t seg = start_lsn / seg_size, per = 0x100000000ull / seg_size;
    snprintf(out, 41, "%08X%08X%08X.%08X.backup", tli, (unsigned)(seg / per), (unsigned)(seg % per),
             (unsigned)(start_lsn % seg_size));
}

/* 1 exists, 0 does not (ENOENT), -1 cannot tell */
static int exists_in(const char *dir, const char *sub, const char *name, const char *suffix)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/%s%s%s", dir, sub, name, suffix);
    struct stat st;
    return stat(p, &st) == 0 ? 1 : errno == ENOENT ? 0 : -1;
}

bool bk_wal_archive_done(const char *pg_wal_dir, const char *name)
{
    if (exists_in(pg_wal_dir, "archive_status/", name, ".done") == 1)
        return true;
    if (exists_in(pg_wal_dir, "archive_status/", name, ".ready") == 1)
        return false;
    /* the archiver may have renamed .ready to .done between the two looks */
    if (exists_in(pg_wal_dir, "archive_status/", name, ".done") == 1)
        return true;
    return exists_in(pg_wal_dir, "", name, "") == 0;
}

static char *wal_key(const char *name)
{
    size_t n = strlen(name) + 16;
    char *k = xmalloc(n);
    snprintf(k, n, "wal/%s.lz4", name);
    return k;
}

static int read_file(const char *path, buf *out)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return err_set(ERR_CANNOT_OPEN_FILE, "Cannot open %s: %s", path, strerror(errno));
    int rc = 0;
    for (;;) {
        buf_reserve(out, 1 << 20);
        ssize_t g = read(fd, out->p + out->len, out->cap - out->len);
        if (g < 0 && errno == EINTR)
            continue;
        if (g < 0) {
            rc = err_set(ERR_CANNOT_READ_FROM_FILE_DESCRIPTOR, "Cannot read %s: %s", path, strerror(errno));
            break;
        }
        if (g == 0)
            break;
        out->len += (size_t)g;
    }
    close(fd);
    return rc;
}

/* Decompresses one lz4 frame whose header records its content size. */
static int unpack(const buf *z, buf *raw, const char *what)
{
    LZ4F_dctx *d;
    if (LZ4F_isError(LZ4F_createDecompressionContext(&d, LZ4F_VERSION)))
        return err_set(ERR_CANNOT_DECOMPRESS, "lz4: cannot create a context");
    LZ4F_frameInfo_t fi;
    size_t in = z->len;
    size_t r = LZ4F_getFrameInfo(d, &fi, z->p, &in);
    int rc = 0;
    if (LZ4F_isError(r) || fi.contentSize > (1ull << 32)) {
        rc = err_set(ERR_CANNOT_DECOMPRESS, "%s: not an lz4 frame with a content size", what);
    } else {
        size_t pos = in, outn = (size_t)fi.contentSize;
        buf_reserve(raw, outn + 1);
        size_t zin = z->len - pos;
        r = LZ4F_decompress(d, raw->p + raw->len, &outn, z->p + pos, &zin, NULL);
        if (LZ4F_isError(r) || r != 0 || outn != fi.contentSize || pos + zin != z->len)
            rc = err_set(ERR_CANNOT_DECOMPRESS, "%s: corrupt lz4 frame (%s)", what,
                         LZ4F_isError(r) ? LZ4F_getErrorName(r) : "size mismatch");
        else
            raw->len += outn;
    }
    LZ4F_freeDecompressionContext(d);
    return rc;
}

int bk_wal_push(bk_repo *r, const char *path)
{
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    buf raw = {0}, z = {0}, old = {0}, oldraw = {0};
    char *key = wal_key(name);
    int rc = read_file(path, &raw);
    if (!rc) {
        LZ4F_preferences_t prefs = {.frameInfo = {.contentSize = raw.len, .contentChecksumFlag = LZ4F_contentChecksumEnabled}};
        size_t cap = LZ4F_compressFrameBound(raw.len, &prefs);
        buf_reserve(&z, cap);
        size_t n = LZ4F_compressFrame(z.p, cap, raw.p, raw.len, &prefs);
        if (LZ4F_isError(n))
            rc = err_set(ERR_CANNOT_COMPRESS, "lz4: %s", LZ4F_getErrorName(n));
        else
            z.len = n;
    }
    bool missing = true;
    if (!rc)
        rc = bk_repo_get(r, key, &old, &missing);
    if (!rc && !missing) {
        rc = unpack(&old, &oldraw, key);
        if (!rc && (oldraw.len != raw.len || memcmp(oldraw.p, raw.p, raw.len)))
            rc = err_set(ERR_FILE_ALREADY_EXISTS, "WAL file %s is already archived in %s with different content",
                         name, bk_repo_url(r));
    } else if (!rc) {
        rc = bk_repo_put(r, key, z.p, z.len);
    }
    buf_free(&raw);
    buf_free(&z);
    buf_free(&old);
    buf_free(&oldraw);
    free(key);
    return rc;
}

/* Writes data to path through a temporary file and a rename. */
static int write_atomic(const char *path, const void *p, size_t n)
{
    size_t tl = strlen(path) + 32;
    char *tmp = xmalloc(tl);
    snprintf(tmp, tl, "%s.shale-tmp.%d", path, (int)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    int rc = 0;
    if (fd < 0) {
        rc = err_set(ERR_CANNOT_OPEN_FILE, "Cannot create %s: %s", tmp, strerror(errno));
    } else {
        rc = bk_write_all(fd, p, n, tmp);
        close(fd);
        if (!rc && rename(tmp, path))
            rc = err_set(ERR_ATOMIC_RENAME_FAIL, "Cannot rename %s: %s", tmp, strerror(errno));
        if (rc)
            unlink(tmp);
    }
    free(tmp);
    return rc;
}

/* 0 fetched into dest, 1 missing, -1 error; *size = bytes. */
static int fetch_to(bk_repo *r, const char *name, const char *dest, uint64_t *size)
{
    char *key = wal_key(name);
    buf z = {0}, raw = {0};
    bool missing = false;
    int rc = bk_repo_get(r, key, &z, &missing);
    if (!rc && missing)
        rc = 1;
    if (!rc)
        rc = unpack(&z, &raw, key);
    if (!rc)
        rc = write_atomic(dest, raw.p, raw.len);
    if (!rc && size)
        *size = raw.len;
    buf_free(&z);
    buf_free(&raw);
    free(key);
    return rc;
}

typedef struct prefetch_job {
    bk_repo *r;
    const char *dir;
    char names[64][25];
    int n;
    _Atomic int next;
} prefetch_job;

static void *prefetch_main(void *arg)
{
    prefetch_job *j = arg;
    for (;;) {
        int k = atomic_fetch_add(&j->next, 1);
        if (k >= j->n)
            break;
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", j->dir, j->names[k]);
        if (access(path, F_OK) == 0)
            continue;
        if (fetch_to(j->r, j->names[k], path, NULL) != 0) {
            err_clear();
            atomic_store(&j->next, j->n); /* not archived yet: stop */
        }
    }
    return NULL;
}

/* In a detached child: fetch the segments after name into dir. */
static void start_prefetch(bk_repo *r, const char *name, uint64_t seg_size, const char *dir, int count)
{
    if (count <= 0 || !bk_wal_is_segment(name))
        return;
    if (count > 64)
        count = 64;
    fflush(NULL);
    pid_t pid = fork();
    if (pid != 0)
        return; /* parent (or fork failed): restore_command returns now */
    setsid();
    int devnull = open("/dev/null", O_RDWR);
    if (devnull >= 0) {
        dup2(devnull, 0);
        dup2(devnull, 1);
        dup2(devnull, 2);
    }
    char lock[4200];
    snprintf(lock, sizeof lock, "%s/.lock", dir);
    int lfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (lfd < 0 || flock(lfd, LOCK_EX | LOCK_NB))
        _exit(0); /* another prefetcher runs */
    prefetch_job j = {.r = r, .dir = dir};
    char cur[25];
    snprintf(cur, sizeof cur, "%s", name);
    for (int i = 0; i < count; i++) {
        bk_wal_next(cur, seg_size, j.names[j.n]);
        snprintf(cur, sizeof cur, "%s", j.names[j.n++]);
    }
    pthread_t th[4];
    int started = 0;
    for (int i = 0; i < 4; i++)
        if (pthread_create(&th[i], NULL, prefetch_main, &j) == 0)
            started++;
    if (!started)
        prefetch_main(&j);
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    _exit(0);
}

int bk_wal_fetch(bk_repo *r, const char *name, const char *dest, int prefetch)
{
    if (strchr(name, '/') || !*name)
        return err_set(ERR_BAD_ARGUMENTS, "Bad WAL file name '%s'", name);
    char *dir = xstrdup(dest);
    char *sl = strrchr(dir, '/');
    if (sl)
        *sl = 0;
    else
        strcpy(dir, ".");
    size_t pl = strlen(dir) + 32;
    char *pdir = xmalloc(pl);
    snprintf(pdir, pl, "%s/.shale-prefetch", dir);
    size_t ppl = pl + strlen(name) + 2;
    char *ppath = xmalloc(ppl);
    snprintf(ppath, ppl, "%s/%s", pdir, name);
    int rc;
    uint64_t size = 0;
    struct stat st;
    if (stat(ppath, &st) == 0 && rename(ppath, dest) == 0) {
        size = (uint64_t)st.st_size;
        rc = 0;
    } else {
        rc = fetch_to(r, name, dest, &size);
    }
    if (rc == 0 && prefetch > 0 && bk_wal_is_segment(name) && size && (size & (size - 1)) == 0) {
        if (mkdir(pdir, 0700) == 0 || errno == EEXIST)
            start_prefetch(r, name, size, pdir, prefetch);
    }
    free(ppath);
    free(pdir);
    free(dir);
    return rc;
}
