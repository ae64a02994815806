/* The local repository's object writer: O_DIRECT from its staging buffer (objects of every
 * size round trip byte for byte, written bytes do not enter the page cache before close), the
 * buffered writer with write-behind (--buffered, and where O_DIRECT is refused), and the WAL
 * archive-status rules the push waits on (wal.h). */
#include "check.h"
#include "backup/repo.h"
#include "backup/wal.h"
#include "base/buf.h"
#include "base/err.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static void fill(uint8_t *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)((i * 2654435761u + seed) >> 13);
}

/* Pages of path resident in the page cache (mincore), or -1. */
static long resident_pages(const char *path)
{
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) || st.st_size == 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED)
        return -1;
    long ps = sysconf(_SC_PAGESIZE), np = (long)((st.st_size + ps - 1) / ps), n = 0;
    unsigned char *v = malloc((size_t)np);
    if (mincore(m, (size_t)st.st_size, v) == 0)
        for (long i = 0; i < np; i++)
            n += v[i] & 1;
    else
        n = -1;
    free(v);
    munmap(m, (size_t)st.st_size);
    return n;
}

/* Whether dir's filesystem takes O_DIRECT opens. */
static bool takes_direct(const char *dir)
{
    char p[512];
    snprintf(p, sizeof p, "%s/probe", dir);
    int fd = open(p, O_WRONLY | O_CREAT | O_DIRECT, 0600);
    if (fd >= 0)
        close(fd);
    unlink(p);
    return fd >= 0;
}

/* Writes objects of several sizes in uneven pieces through bk_repo_writer under root and reads
 * them back; with check_cache, asserts that nothing written is cached before close. */
static void round_trips(const char *root, bool direct, bool check_cache)
{
    char url[512];
    snprintf(url, sizeof url, "file://%s", root);
    bk_repo *r;
    CHECK(bk_repo_open(url, &r) == 0);
    const size_t sizes[] = {0, 1, 4095, 4096, 4097, BK_REPO_STAGE - 1, BK_REPO_STAGE, 3 * BK_REPO_STAGE + 12345};
    const size_t max = 3 * BK_REPO_STAGE + 12345;
    uint8_t *src = malloc(max);
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        size_t n = sizes[k];
        fill(src, n, (unsigned)k);
        char key[64];
        snprintf(key, sizeof key, "backups/x/data/%zu.raw", n);
        outstream *w;
        CHECK(bk_repo_writer(r, key, 16u << 20, 2, direct, &w) == 0);
        /* pieces of 100 KiB + 7 bytes: none aligned, some crossing the stage's end */
        for (size_t o = 0; o < n;) {
            size_t piece = n - o < 102407 ? n - o : 102407;
            CHECK(w->write(w, src + o, piece) == 0);
            o += piece;
        }
        CHECK(w->offset == n);
        if (check_cache && n >= BK_REPO_STAGE) {
            char path[600];
            snprintf(path, sizeof path, "%s/%s", root, key);
            CHECK(resident_pages(path) == 0);
        }
        CHECK(w->close(w) == 0);
        buf got = {0};
        CHECK(bk_repo_get(r, key, &got, NULL) == 0);
        CHECK(got.len == n);
        CHECK(n == 0 || (got.len == n && memcmp(got.p, src, n) == 0));
        buf_free(&got);
        uint8_t mid[16];
        if (n > 5000) { /* a ranged read across the tail the writer wrote buffered */
            CHECK(bk_repo_read(r, key, n - 16, 16, mid) == 0);
            CHECK(memcmp(mid, src + n - 16, 16) == 0);
        }
    }
    /* an aborted writer leaves nothing */
    outstream *w;
    CHECK(bk_repo_writer(r, "backups/x/data/aborted.raw", 16u << 20, 2, direct, &w) == 0);
    CHECK(w->write(w, src, BK_REPO_STAGE + 10) == 0);
    bk_repo_writer_abort(r, w);
    char path[600];
    snprintf(path, sizeof path, "%s/backups/x/data/aborted.raw", root);
    CHECK(access(path, F_OK) != 0);
    free(src);
    bk_repo_close(r);
}

static void rm_tree(const char *root)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", root);
}

static void archive_status(void)
{
    char hist[41];
    /* 16 MiB segments: LSN 2/1B000028 is segment 0x21B of timeline 1 (log 2, seg 0x1B) */
    bk_wal_history_name(1, 0x21B000028ull, 16u << 20, hist);
    CHECK_STR(hist, "00000001000000020000001B.00000028.backup");
    /* 1 GiB segments: 4 per log */
    bk_wal_history_name(3, 0x2C0000100ull, 1u << 30, hist);
    CHECK_STR(hist, "000000030000000200000003.00000100.backup");

    char dir[256], p[512];
    snprintf(dir, sizeof dir, "/tmp/shale-test-walstatus-%d", (int)getpid());
    snprintf(p, sizeof p, "%s/archive_status", dir);
    mkdir(dir, 0700);
    mkdir(p, 0700);
    const char *seg = "000000010000000000000007";
    snprintf(p, sizeof p, "%s/%s", dir, seg);
    close(open(p, O_WRONLY | O_CREAT, 0600));
    CHECK(!bk_wal_archive_done(dir, seg)); /* the file, no status yet: the archiver has not seen it */
    snprintf(p, sizeof p, "%s/archive_status/%s.ready", dir, seg);
    close(open(p, O_WRONLY | O_CREAT, 0600));
    CHECK(!bk_wal_archive_done(dir, seg)); /* .ready: waiting for archive_command */
    char q[512];
    snprintf(q, sizeof q, "%s/archive_status/%s.done", dir, seg);
    CHECK(rename(p, q) == 0);
    CHECK(bk_wal_archive_done(dir, seg)); /* .done */
    unlink(q);
    snprintf(p, sizeof p, "%s/%s", dir, seg);
    unlink(p);
    CHECK(bk_wal_archive_done(dir, seg)); /* removed by a checkpoint: archived before */
    rm_tree(dir);
}

int main(void)
{
    char root[256];
    snprintf(root, sizeof root, "/tmp/shale-test-writer-%d", (int)getpid());
    mkdir(root, 0700);
    bool direct = takes_direct(root);
    if (!direct)
        printf("note: %s refuses O_DIRECT: the writer falls back to buffered writes\n", root);
    round_trips(root, true, direct);
    rm_tree(root);
    mkdir(root, 0700);
    round_trips(root, false, false);
    rm_tree(root);
    archive_status();
    return check_done("backup_writer");
}
