/* The engine on a local repository: O_DIRECT (native AIO) with unaligned tails, a file that
 * refuses O_DIRECT (read buffered, reported), restore byte for byte, verify, a corrupt block
 * named, a page delta applied over its parent. */
#include "check.h"
#include "backup/backup.h"
#include "backup/engine.h"
#include "backup/manifest.h"
#include "backup/repo.h"
#include "base/err.h"
#include "base/mem.h"

#include <fcntl.h>
#include <linux/aio_abi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static char root[256];

static void write_file(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(p, 1, n, f);
        fclose(f);
    }
}

static bool same_file(const char *a, const char *b)
{
    buf x = {0}, y = {0};
    FILE *f = fopen(a, "rb"), *g = fopen(b, "rb");
    bool ok = f && g;
    int c;
    while (ok && (c = fgetc(f)) != EOF)
        buf_putc(&x, (char)c);
    while (ok && (c = fgetc(g)) != EOF)
        buf_putc(&y, (char)c);
    ok = ok && x.len == y.len && (x.len == 0 || memcmp(x.p, y.p, x.len) == 0);
    if (f)
        fclose(f);
    if (g)
        fclose(g);
    buf_free(&x);
    buf_free(&y);
    return ok;
}

static void add(bk_manifest *m, char **abs, const char *rel, const char *path)
{
    struct stat st;
    stat(path, &st);
    bk_file *f = &m->files[m->nfiles];
    memset(f, 0, sizeof *f);
    f->path = xstrdup(rel);
    f->type = BK_FILE;
    f->mode = 0600;
    f->size = (uint64_t)st.st_size;
    abs[m->nfiles++] = xstrdup(path);
}

static void set_lsn(uint8_t *page, uint64_t lsn)
{
    uint32_t hi = (uint32_t)(lsn >> 32), lo = (uint32_t)lsn;
    memcpy(page, &hi, 4);
    memcpy(page + 4, &lo, 4);
}

int main(void)
{
    snprintf(root, sizeof root, "/tmp/shale-test-engine-%d", (int)getpid());
    mkdir(root, 0700);
    char p[512], q[512];
    /* a 3.5 MiB random file (unaligned tail), a 5000-byte file, and a relation-like file of 40 pages */
    size_t big = (7u << 19) + 123;
    uint8_t *data = malloc(big);
    srand(7);
    for (size_t i = 0; i < big; i++)
        data[i] = (uint8_t)(i % 251 < 120 ? (size_t)rand() : i % 7);
    snprintf(p, sizeof p, "%s/big", root);
    write_file(p, data, big);
    snprintf(p, sizeof p, "%s/small", root);
    write_file(p, data, 5000);
    size_t relsz = 40 * BK_PAGE_SIZE;
    uint8_t *rel = calloc(1, relsz);
    for (size_t i = 0; i < 40; i++) {
        set_lsn(rel + i * BK_PAGE_SIZE, 1000 + i);
        memset(rel + i * BK_PAGE_SIZE + 64, (int)i, 100);
    }
    snprintf(p, sizeof p, "%s/rel", root);
    write_file(p, rel, relsz);

    bk_repo *r;
    snprintf(q, sizeof q, "file://%s/repo", root);
    CHECK(bk_repo_open(q, &r) == 0);
    bk_settings s = {.read_size = 2u << 20, .concurrency = 2, .direct_io = true, .compression = "lz4",
                     .part_size = 5u << 20, .parts_in_flight = 1};

    bk_manifest m = {0};
    m.name = xstrdup("full");
    m.compression = xstrdup("lz4");
    m.files = calloc(8, sizeof *m.files);
    char *abs[8];
    snprintf(p, sizeof p, "%s/big", root);
    add(&m, abs, "big", p);
    snprintf(p, sizeof p, "%s/small", root);
    add(&m, abs, "small", p);
    snprintf(p, sizeof p, "%s/rel", root);
    add(&m, abs, "base/5/16384", p);
    add(&m, abs, "proc_version", "/proc/version"); /* refuses O_DIRECT */
    bk_push_stats st = {0};
    CHECK(bk_push_files(r, &s, &m, abs, NULL, NULL, NULL, &st) == 0);
    CHECK(st.files == 4);
    CHECK(st.files_direct == 3);
    /* the three read with AIO: an unaligned tail, a small file, an aligned end found by fstat */
    aio_context_t probe = 0;
    if (syscall(SYS_io_setup, 4, &probe) == 0) {
        syscall(SYS_io_destroy, probe);
        CHECK(st.files_aio == 3);
    }
    CHECK(st.files_buffered_fallback == 1);
    CHECK(strstr(st.fallback_example, "/proc/version") && strstr(st.fallback_example, "O_DIRECT"));
    bk_manifest_sort(&m);
    const bk_file *bf = bk_manifest_find(&m, "big");
    CHECK(bf && bf->size == big && bf->nblocks == 4 && bf->direct);
    CHECK(bf && bf->blocks[3].rawlen == big - 3 * BK_BLOCK_SIZE);
    buf j = {0};
    bk_manifest_to_json(&m, &j);
    CHECK(bk_repo_put(r, "backups/full/manifest.json", j.p, j.len) == 0);
    buf_free(&j);

    /* restore: byte for byte */
    snprintf(q, sizeof q, "%s/out1", root);
    bk_manifest *chain[2] = {&m, NULL};
    mkdir(q, 0700);
    snprintf(p, sizeof p, "%s/out1/base/5", root);
    CHECK(bk_mkdirs(p, 0700) == 0);
    CHECK(bk_restore(r, chain, 1, q, NULL, NULL, 2, NULL) == 0);
    char a[600], b[600];
    snprintf(a, sizeof a, "%s/big", root);
    snprintf(b, sizeof b, "%s/out1/big", root);
    CHECK(same_file(a, b));
    snprintf(a, sizeof a, "%s/small", root);
    snprintf(b, sizeof b, "%s/out1/small", root);
    CHECK(same_file(a, b));
    snprintf(b, sizeof b, "%s/out1/proc_version", root);
    CHECK(same_file("/proc/version", b));
    CHECK(bk_verify(r, &m, 2, NULL) == 0);

    /* a delta: pages 3 and 38 changed (LSN above the parent's start), a page appended */
    bk_manifest d = {0};
    d.name = xstrdup("delta");
    d.parent = xstrdup("full");
    d.compression = xstrdup("zstd");
    d.files = calloc(4, sizeof *d.files);
    m.start_lsn = 5000;
    set_lsn(rel + 3 * BK_PAGE_SIZE, 6000);
    memset(rel + 3 * BK_PAGE_SIZE + 64, 0xAB, 100);
    set_lsn(rel + 38 * BK_PAGE_SIZE, 6001);
    memset(rel + 38 * BK_PAGE_SIZE + 64, 0xCD, 100);
    rel = realloc(rel, relsz + BK_PAGE_SIZE);
    memset(rel + relsz, 0, BK_PAGE_SIZE);
    set_lsn(rel + relsz, 10);
    snprintf(p, sizeof p, "%s/rel", root);
    write_file(p, rel, relsz + BK_PAGE_SIZE);
    char *dabs[4];
    add(&d, dabs, "base/5/16384", p);
    bk_settings sz = s;
    snprintf(sz.compression, sizeof sz.compression, "zstd");
    memset(&st, 0, sizeof st);
    CHECK(bk_push_files(r, &sz, &d, dabs, &m, NULL, NULL, &st) == 0);
    CHECK(st.files_delta == 1);
    CHECK(st.pages_shipped == 3); /* pages 3, 38 and the new page 40 */
    CHECK(d.files[0].delta && d.files[0].nblocks == 1);
    buf j2 = {0};
    bk_manifest_sort(&d);
    bk_manifest_to_json(&d, &j2);
    CHECK(bk_repo_put(r, "backups/delta/manifest.json", j2.p, j2.len) == 0);
    buf_free(&j2);
    snprintf(q, sizeof q, "%s/out2", root);
    mkdir(q, 0700);
    snprintf(p, sizeof p, "%s/out2/base/5", root);
    CHECK(bk_mkdirs(p, 0700) == 0);
    chain[1] = &d;
    CHECK(bk_restore(r, chain, 2, q, NULL, NULL, 2, NULL) == 0);
    snprintf(a, sizeof a, "%s/rel", root);
    snprintf(b, sizeof b, "%s/out2/base/5/16384", root);
    CHECK(same_file(a, b));
    /* files absent from the last manifest are removed */
    snprintf(b, sizeof b, "%s/out2/big", root);
    CHECK(access(b, F_OK) != 0);

    /* a corrupt byte in the full backup's object: verify names the file and block */
    bf = bk_manifest_find(&m, "big");
    snprintf(p, sizeof p, "%s/repo/backups/full/%s", root, m.objects[bf->blocks[2].obj]);
    int fd = open(p, O_RDWR);
    uint8_t c = 0;
    off_t at = (off_t)(bf->blocks[2].off + bf->blocks[2].zlen / 2);
    CHECK(fd >= 0 && pread(fd, &c, 1, at) == 1);
    c ^= 0x5A;
    CHECK(pwrite(fd, &c, 1, at) == 1);
    close(fd);
    CHECK(bk_verify(r, &m, 2, NULL) == -1);
    CHECK(err_code() == ERR_CHECKSUM_DOESNT_MATCH);
    snprintf(q, sizeof q, "%s/out3", root);
    snprintf(p, sizeof p, "%s/out3/base/5", root);
    CHECK(bk_mkdirs(p, 0700) == 0);
    CHECK(bk_restore(r, chain, 1, q, NULL, NULL, 1, NULL) == -1);
    CHECK(strstr(err_msg(), "file big, block 2") != NULL);

    bk_manifest_free(&m);
    bk_manifest_free(&d);
    for (int i = 0; i < 4; i++)
        free(abs[i]);
    free(dabs[0]);
    bk_repo_close(r);
    free(data);
    free(rel);
    snprintf(p, sizeof p, "rm -rf %s", root);
    if (system(p))
        fprintf(stderr, "cannot remove %s\n", root);
    return check_done("backup_engine");
}
