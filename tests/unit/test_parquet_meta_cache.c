/* The Parquet metadata cache (format/parquet/meta_cache.h): the LRU bounds in entries and
 * bytes, invalidation by version and size, footers held across eviction, concurrent use,
 * the disk level (a new process's view, its byte bound, corrupt entries ignored with a log
 * line), and local files through parquet_file_open_cached (mtime and footer changes). */
#include "check.h"

#include "base/cityhash.h"
#include "base/err.h"
#include "base/mem.h"
#include "format/parquet/meta_cache.h"
#include "format/parquet/reader.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *FILE_ = "tests/data/parquet/ch_row_groups.parquet"; /* 8 row groups of 1000 rows */
static uint8_t *file_bytes;
static size_t file_len;

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc((size_t)n + 1);
    *len = fread(p, 1, (size_t)n, f);
    fclose(f);
    return p;
}

static void write_file(const char *path, const uint8_t *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(p, 1, n, f) == n);
    if (f)
        fclose(f);
}

static pq_footer *footer(void)
{
    pq_meta *m = parquet_read_meta_mem(file_bytes, file_len, FILE_);
    return m ? pq_footer_new(m, NULL, NULL, file_len) : NULL;
}

static pq_footer *decode(void *ctx, const uint8_t *raw, size_t len, uint64_t size)
{
    int *calls = ctx;
    (*calls)++;
    pq_meta *m = len + 8 <= size ? pq_meta_decode(raw, len, size - 8 - len, "disk") : NULL;
    err_clear();
    return m ? pq_footer_new(m, NULL, NULL, size) : NULL;
}

static bool cached(const char *key, const char *ver)
{
    pq_footer *f = pqmc_get(key, ver, UINT64_MAX, decode, &(int){0});
    pq_footer_release(f);
    return f != NULL;
}

static void put_new(const char *key, const char *ver)
{
    pq_footer *f = footer();
    pqmc_put(key, ver, f);
    pq_footer_release(f);
}

static void mem_only(uint64_t max_bytes, uint64_t max_entries)
{
    pqmc_configure(&(pqmc_config){.max_bytes = max_bytes, .max_entries = max_entries});
}

static void test_lru(void)
{
    mem_only(PQMC_DEFAULT_MAX_BYTES, 3);
    pqmc_clear();
    put_new("s3://b/k1", "\"e1\"");
    put_new("s3://b/k2", "\"e1\"");
    put_new("s3://b/k3", "\"e1\"");
    CHECK(cached("s3://b/k1", "\"e1\"")); /* k1 becomes the most recent: k2 is the oldest */
    put_new("s3://b/k4", "\"e1\"");
    CHECK(!cached("s3://b/k2", "\"e1\""));
    CHECK(cached("s3://b/k1", "\"e1\""));
    CHECK(cached("s3://b/k3", "\"e1\""));
    CHECK(cached("s3://b/k4", "\"e1\""));
    pqmc_stats st;
    pqmc_get_stats(&st);
    CHECK(st.entries == 3);
    /* the byte bound: room for two footers */
    pq_footer *f = footer();
    size_t charge = f->charge;
    pq_footer_release(f);
    mem_only(charge * 2 + charge / 2, 100);
    pqmc_get_stats(&st);
    CHECK(st.entries == 2 && st.bytes <= charge * 2 + charge / 2);
    CHECK(!cached("s3://b/k1", "\"e1\"")); /* k1 was the least recently used of the three left */
    CHECK(cached("s3://b/k3", "\"e1\"") && cached("s3://b/k4", "\"e1\""));
    /* a footer larger than the whole bound is not cached */
    mem_only(charge / 2, 100);
    put_new("s3://b/big", "\"e1\"");
    CHECK(!cached("s3://b/big", "\"e1\""));
    /* 0 turns the cache off */
    mem_only(0, 100);
    put_new("s3://b/k5", "\"e1\"");
    CHECK(!cached("s3://b/k5", "\"e1\""));
}

static void test_invalidation(void)
{
    mem_only(PQMC_DEFAULT_MAX_BYTES, PQMC_DEFAULT_MAX_ENTRIES);
    pqmc_clear();
    put_new("s3://b/k", "\"v1\"");
    /* a footer held by a reader outlives its eviction (ASan checks the use) */
    pq_footer *held = pqmc_get("s3://b/k", "\"v1\"", file_len, decode, &(int){0});
    CHECK(held != NULL);
    CHECK(pqmc_get("s3://b/k", "\"v1\"", file_len + 1, decode, &(int){0}) == NULL); /* another size: stale */
    CHECK(!cached("s3://b/k", "\"v1\""));                                           /* and dropped */
    put_new("s3://b/k", "\"v1\"");
    CHECK(!cached("s3://b/k", "\"v2\"")); /* a new ETag: the object was rewritten */
    CHECK(!cached("s3://b/k", "\"v1\""));
    CHECK(held && held->m->nrgs == 8);
    pq_footer_release(held);
    put_new("s3://b/k", "\"v1\"");
    put_new("s3://b/k", "\"v2\""); /* replacing an entry */
    CHECK(cached("s3://b/k", "\"v2\""));
    pqmc_clear();
    CHECK(!cached("s3://b/k", "\"v2\""));
}

typedef struct worker {
    int id;
    long hits;
} worker;

static void *hammer(void *arg)
{
    worker *w = arg;
    char key[32];
    for (int i = 0; i < 4000; i++) {
        snprintf(key, sizeof key, "s3://b/%d", (i * 7 + w->id) % 23);
        const char *ver = (i / 500) % 2 ? "\"a\"" : "\"b\"";
        pq_footer *f = pqmc_get(key, ver, UINT64_MAX, decode, &(int){0});
        if (f) {
            w->hits += f->m->nrgs == 8;
            pq_footer_release(f);
        } else {
            put_new(key, ver);
        }
    }
    return NULL;
}

static void test_concurrent(void)
{
    mem_only(PQMC_DEFAULT_MAX_BYTES, 10);
    pqmc_clear();
    pthread_t th[4];
    worker w[4] = {{0}, {1}, {2}, {3}};
    for (int i = 0; i < 4; i++)
        pthread_create(&th[i], NULL, hammer, &w[i]);
    for (int i = 0; i < 4; i++)
        pthread_join(th[i], NULL);
    pqmc_stats st;
    pqmc_get_stats(&st);
    CHECK(st.entries <= 10);
    CHECK(w[0].hits + w[1].hits + w[2].hits + w[3].hits > 0);
    pqmc_clear();
}

static char logged[2048];
static void capture(const char *msg) { snprintf(logged, sizeof logged, "%s", msg); }

static int count_files(const char *dir)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "ls %s/*.pqm 2>/dev/null | wc -l", dir);
    FILE *p = popen(cmd, "r");
    int n = -1;
    if (p && fscanf(p, "%d", &n) != 1)
        n = -1;
    if (p)
        pclose(p);
    return n;
}

static void corrupt_first(const char *dir, long off, bool truncate_it)
{
    char cmd[512], path[512] = "";
    snprintf(cmd, sizeof cmd, "ls %s/*.pqm | head -1", dir);
    FILE *p = popen(cmd, "r");
    if (p && fgets(path, sizeof path, p))
        path[strcspn(path, "\n")] = 0;
    if (p)
        pclose(p);
    int fd = open(path, O_RDWR);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    if (truncate_it) {
        CHECK(ftruncate(fd, off) == 0);
    } else {
        uint8_t b;
        CHECK(pread(fd, &b, 1, off) == 1);
        b ^= 0x5a;
        CHECK(pwrite(fd, &b, 1, off) == 1);
    }
    close(fd);
}

/* A new process: memory empty, the disk level scanned again. */
static void restart(const char *dir, uint64_t disk_max)
{
    mem_only(0, 0);
    pqmc_configure(&(pqmc_config){.max_bytes = PQMC_DEFAULT_MAX_BYTES, .max_entries = PQMC_DEFAULT_MAX_ENTRIES,
                                  .disk_dir = dir, .disk_max_bytes = disk_max});
}

static void test_disk(void)
{
    char dir[] = "/tmp/shale-pqmc-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char sub[600];
    snprintf(sub, sizeof sub, "%s/cache/pq", dir); /* made on the first write */
    pqmc_set_logger(capture);
    restart(sub, PQMC_DEFAULT_DISK_BYTES);
    pqmc_clear();
    put_new("s3://b/d1", "\"e1\"");
    put_new("s3://b/d2", "\"e1\"");
    CHECK(count_files(sub) == 2);
    restart(sub, PQMC_DEFAULT_DISK_BYTES);
    int calls = 0;
    pq_footer *f = pqmc_get("s3://b/d1", "\"e1\"", file_len, decode, &calls);
    CHECK(f && calls == 1 && f->m->nrgs == 8 && f->m->num_rows == 8000);
    pq_footer_release(f);
    calls = 0;
    f = pqmc_get("s3://b/d1", "\"e1\"", file_len, decode, &calls); /* now in memory */
    CHECK(f && calls == 0);
    pq_footer_release(f);
    pqmc_stats st;
    pqmc_get_stats(&st);
    CHECK(st.disk_hits == 1 && st.disk_entries == 2);
    /* another version on disk: a miss, not corruption */
    restart(sub, PQMC_DEFAULT_DISK_BYTES);
    CHECK(!cached("s3://b/d2", "\"e2\""));
    pqmc_get_stats(&st);
    CHECK(st.corrupt == 0);

    /* corrupt entries: never trusted, removed, logged */
    static const struct {
        long off;
        bool truncate_it;
    } damage[] = {{40, false}, {0, false}, {200, false}, {100, true}, {3, true}};
    for (size_t i = 0; i < sizeof damage / sizeof damage[0]; i++) {
        pqmc_clear();
        put_new("s3://b/c", "\"e1\"");
        CHECK(count_files(sub) == 1);
        corrupt_first(sub, damage[i].off, damage[i].truncate_it);
        restart(sub, PQMC_DEFAULT_DISK_BYTES);
        logged[0] = 0;
        calls = 0;
        CHECK(pqmc_get("s3://b/c", "\"e1\"", file_len, decode, &calls) == NULL);
        CHECK(strstr(logged, "ignoring a corrupt Parquet metadata cache entry") != NULL);
        CHECK(count_files(sub) == 0);
    }
    pqmc_get_stats(&st);
    CHECK(st.corrupt == 5);


    /* a checksum that holds over bytes that do not decode: still not trusted */
    pqmc_clear();
    const char *key = "s3://b/g", *ver = "\"e1\"", *junk = "\x15\x02\x19\xff\xff\xff\xff\x0f";
    uint8_t e[256] = "SHPQMC01";
    size_t kl = strlen(key), vl = strlen(ver), rl = strlen(junk), n = 32 + kl + vl + rl + 8;
    uint64_t fsize = 1000;
    for (int i = 0; i < 4; i++) {
        e[8 + i] = (uint8_t)(kl >> (8 * i));
        e[12 + i] = (uint8_t)(vl >> (8 * i));
        e[24 + i] = (uint8_t)(rl >> (8 * i));
    }
    for (int i = 0; i < 8; i++)
        e[16 + i] = (uint8_t)(fsize >> (8 * i));
    memcpy(e + 32, key, kl);
    memcpy(e + 32 + kl, ver, vl);
    memcpy(e + 32 + kl + vl, junk, rl);
    uint64_t h = cityhash64_v102(e, n - 8);
    for (int i = 0; i < 8; i++)
        e[n - 8 + i] = (uint8_t)(h >> (8 * i));
    char name[700];
    snprintf(name, sizeof name, "%s/%016llx.pqm", sub, (unsigned long long)cityhash64_v102(key, kl));
    write_file(name, e, n);
    restart(sub, PQMC_DEFAULT_DISK_BYTES);
    logged[0] = 0;
    calls = 0;
    CHECK(pqmc_get(key, ver, UINT64_MAX, decode, &calls) == NULL && calls == 1);
    CHECK(strstr(logged, "does not decode") != NULL);
    CHECK(count_files(sub) == 0);
    pqmc_clear();

    /* the disk bound: room for two entries, the least recently used goes */
    put_new("s3://b/x", "\"e1\"");
    char probe[600];
    snprintf(probe, sizeof probe, "du -b %s/*.pqm | head -1 | cut -f1", sub);
    FILE *p = popen(probe, "r");
    long one = 0;
    if (p && fscanf(p, "%ld", &one) != 1)
        one = 0;
    if (p)
        pclose(p);
    CHECK(one > 0);
    pqmc_clear();
    restart(sub, (uint64_t)one * 2 + 10);
    put_new("s3://b/x1", "\"e1\"");
    put_new("s3://b/x2", "\"e1\"");
    restart(sub, (uint64_t)one * 2 + 10);
    CHECK(cached("s3://b/x1", "\"e1\"")); /* x1 used last: x2 goes next */
    put_new("s3://b/x3", "\"e1\"");
    CHECK(count_files(sub) == 2);
    restart(sub, (uint64_t)one * 2 + 10);
    CHECK(cached("s3://b/x1", "\"e1\"") && cached("s3://b/x3", "\"e1\"") && !cached("s3://b/x2", "\"e1\""));
    pqmc_clear();
    pqmc_set_logger(NULL);
    mem_only(PQMC_DEFAULT_MAX_BYTES, PQMC_DEFAULT_MAX_ENTRIES);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
}

static long count_rows(parquet_file *pf)
{
    long n = 0;
    for (int g = 0; g < parquet_file_row_groups(pf); g++)
        n += (long)parquet_file_row_group_rows(pf, g);
    return n;
}


/* Local files: keyed by path, versioned by size, mtime and inode, and checked against the
 * footer bytes (a same-size rewrite within one mtime tick). */
static void test_local_files(void)
{
    mem_only(PQMC_DEFAULT_MAX_BYTES, PQMC_DEFAULT_MAX_ENTRIES);
    pqmc_clear();
    char dir[] = "/tmp/shale-pqmc-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[600];
    snprintf(path, sizeof path, "%s/x.parquet", dir);
    write_file(path, file_bytes, file_len);
    _Atomic uint64_t hits = 0, misses = 0;
    fmt_cache_key ck = {.hits = &hits, .misses = &misses};
    parquet_file *pf;
    CHECK(parquet_file_open_cached(path, &ck, &pf) == 0 && count_rows(pf) == 8000);
    parquet_file_free(pf);
    CHECK(parquet_file_open_cached(path, &ck, &pf) == 0 && count_rows(pf) == 8000);
    parquet_file_free(pf);
    CHECK(hits == 1 && misses == 1);
    /* a new mtime: a miss */
    struct timespec ts[2] = {{.tv_sec = 1000000000}, {.tv_sec = 1000000000}};
    CHECK(utimensat(AT_FDCWD, path, ts, 0) == 0);
    CHECK(parquet_file_open_cached(path, &ck, &pf) == 0 && count_rows(pf) == 8000);
    parquet_file_free(pf);
    CHECK(hits == 1 && misses == 2);
    /* the same size, mtime and inode but another footer: a miss (the row count changed) */
    uint8_t *p = malloc(file_len);
    memcpy(p, file_bytes, file_len);
    uint32_t flen;
    memcpy(&flen, p + file_len - 8, 4);
    pq_meta *m = parquet_read_meta_mem(p, file_len, "x");
    /* num_rows is field 3 of FileMetaData: find its zigzag varint of 8000 after the schema */
    uint8_t *foot = p + file_len - 8 - flen;
    bool patched = false;
    for (uint32_t i = 0; i + 3 < flen && !patched; i++)
        if (foot[i] == 0x16 && foot[i + 1] == 0x80 && foot[i + 2] == 0x7d) { /* i64 field 3: zigzag(8000) */
            foot[i + 2] = 0x7e;                                               /* 8000 → 8064 */
            patched = true;
        }
    CHECK(patched && m);
    pq_meta_free(m);
    int fd = open(path, O_WRONLY);
    CHECK(fd >= 0 && pwrite(fd, p, file_len, 0) == (ssize_t)file_len);
    close(fd);
    CHECK(utimensat(AT_FDCWD, path, ts, 0) == 0);
    CHECK(parquet_file_open_cached(path, &ck, &pf) == 0);
    CHECK(hits == 1 && misses == 3);
    parquet_file_free(pf);
    /* off: no counting, no entry */
    CHECK(parquet_file_open(path, &pf) == 0);
    parquet_file_free(pf);
    CHECK(hits == 1 && misses == 3);
    free(p);
    unlink(path);
    rmdir(dir);
    pqmc_clear();
}

int main(void)
{
    file_bytes = slurp(FILE_, &file_len);
    CHECK(file_bytes != NULL);
    if (!file_bytes)
        return check_done("parquet_meta_cache");
    test_lru();
    test_invalidation();
    test_concurrent();
    test_disk();
    test_local_files();
    free(file_bytes);
    return check_done("parquet_meta_cache");
}
