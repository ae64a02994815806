/* The Parquet metadata cache (see meta_cache.h).
 *
 * Memory level: a chained hash table of entries by key, and a doubly linked list in order
 * of use (head: most recent). Disk level: one file per key, <dir>/<16 hex digits of
 * cityhash64(key)>.pqm, laid out as
 *     "SHPQMC01" | u32 key_len | u32 version_len | u64 file_size | u32 raw_len | u32 0 |
 *     key | version | raw footer bytes | u64 cityhash64 of everything before it
 * (little-endian), and an index of the files (hash, bytes, last use) built by scanning the
 * directory on first use, which decides what to evict. Two processes sharing a directory
 * only ever see whole files (written to a temporary name, then renamed); each keeps the
 * bound by its own index. */
#include "format/parquet/meta_cache.h"

#include "base/cityhash.h"
#include "base/mem.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- footers ---- */

pq_footer *pq_footer_new(pq_meta *m, void *schema, void (*schema_free)(void *), uint64_t file_size)
{
    pq_footer *f = xcalloc(1, sizeof *f);
    f->m = m;
    f->schema = schema;
    f->schema_free = schema_free;
    f->file_size = file_size;
    f->charge = sizeof *f + (m ? m->a.total : 0) + 256;
    atomic_init(&f->refs, 1);
    return f;
}

void pq_footer_release(pq_footer *f)
{
    if (!f || atomic_fetch_sub(&f->refs, 1) != 1)
        return;
    /* decoded with no query tracker attached (see meta_cache.h): freed the same way */
    mem_tracker *prev = mem_tracker_attach(NULL);
    if (f->schema_free)
        f->schema_free(f->schema);
    pq_meta_free(f->m);
    mem_tracker_attach(prev);
    free(f);
}

static void log_stderr(const char *msg) { fprintf(stderr, "shale: %s\n", msg); }
static void (*logger)(const char *msg) = log_stderr;

void pqmc_set_logger(void (*fn)(const char *msg)) { logger = fn ? fn : log_stderr; }

static void logf_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logf_(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    logger(msg);
}

/* ---- memory level ---- */

typedef struct entry {
    char *key, *version;
    uint64_t hash;
    pq_footer *f;
    struct entry *next_in_bucket;
    struct entry *newer, *older;   /* use order */
} entry;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static entry **buckets;
static size_t nbuckets;
static entry *newest, *oldest;
static uint64_t nentries, nbytes;
static uint64_t max_bytes = PQMC_DEFAULT_MAX_BYTES, max_entries = PQMC_DEFAULT_MAX_ENTRIES;
static uint64_t hits, misses, disk_hits, evictions, corrupt;

static uint64_t key_hash(const char *key) { return cityhash64_v102(key, strlen(key)); }

static void unlink_use(entry *e)
{
    if (e->newer)
        e->newer->older = e->older;
    else
        newest = e->older;
    if (e->older)
        e->older->newer = e->newer;
    else
        oldest = e->newer;
    e->newer = e->older = NULL;
}

static void push_newest(entry *e)
{
    e->older = newest;
    e->newer = NULL;
    if (newest)
        newest->newer = e;
    newest = e;
    if (!oldest)
        oldest = e;
}

static entry **find_slot(const char *key, uint64_t h)
{
    if (!nbuckets)
        return NULL;
    entry **p = &buckets[h & (nbuckets - 1)];
    while (*p && ((*p)->hash != h || strcmp((*p)->key, key) != 0))
        p = &(*p)->next_in_bucket;
    return p;
}

/* Removes e from the table and the use list; returns its footer for release outside. */
static pq_footer *remove_entry(entry **slot)
{
    entry *e = *slot;
    *slot = e->next_in_bucket;
    unlink_use(e);
    nentries--;
    nbytes -= e->f->charge;
    pq_footer *f = e->f;
    free(e->key);
    free(e->version);
    free(e);
    return f;
}

/* Footers to release after the lock is dropped (a release may free megabytes). */
typedef struct release_list {
    pq_footer **v;
    size_t n, cap;
} release_list;

static void defer_release(release_list *r, pq_footer *f)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 8;
        r->v = xrealloc(r->v, r->cap * sizeof *r->v);
    }
    r->v[r->n++] = f;
}

static void run_releases(release_list *r)
{
    for (size_t i = 0; i < r->n; i++)
        pq_footer_release(r->v[i]);
    free(r->v);
}

static void evict_to_bounds(release_list *r)
{
    while (oldest && (nbytes > max_bytes || nentries > max_entries)) {
        entry **slot = find_slot(oldest->key, oldest->hash);
        defer_release(r, remove_entry(slot));
        evictions++;
    }
}

static void grow_table(void)
{
    if (nentries + 1 <= nbuckets)
        return;
    size_t nn = nbuckets ? nbuckets * 2 : 64;
    entry **nb = xcalloc(nn, sizeof *nb);
    for (size_t i = 0; i < nbuckets; i++)
        for (entry *e = buckets[i], *next; e; e = next) {
            next = e->next_in_bucket;
            e->next_in_bucket = nb[e->hash & (nn - 1)];
            nb[e->hash & (nn - 1)] = e;
        }
    free(buckets);
    buckets = nb;
    nbuckets = nn;
}

/* Under mu: f (a new reference) as the entry of key, replacing any other. */
static void insert_locked(const char *key, const char *version, uint64_t h, pq_footer *f, release_list *r)
{
    grow_table();
    entry **slot = find_slot(key, h);
    if (*slot)
        defer_release(r, remove_entry(slot));
    entry *e = xcalloc(1, sizeof *e);
    *e = (entry){.key = xstrdup(key), .version = xstrdup(version), .hash = h, .f = f};
    atomic_fetch_add(&f->refs, 1);
    *find_slot(key, h) = e;
    push_newest(e);
    nentries++;
    nbytes += f->charge;
    evict_to_bounds(r);
}

/* ---- disk level ---- */

typedef struct disk_file {
    uint64_t hash, bytes, used;   /* used: last use, ns since the epoch */
} disk_file;

static pthread_mutex_t dmu = PTHREAD_MUTEX_INITIALIZER;
static char *disk_dir;
static uint64_t disk_max;
static bool disk_scanned, disk_failed_logged;
static disk_file *dfiles;
static size_t ndfiles, capdfiles;
static uint64_t disk_bytes;
static uint64_t tmp_seq;

enum { HDR = 8 + 4 + 4 + 8 + 4 + 4, MAX_FIELD = 1 << 16, MAX_RAW = 256 << 20 };
static const char MAGIC[8] = {'S', 'H', 'P', 'Q', 'M', 'C', '0', '1'};

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void file_name(char *out, size_t cap, const char *dir, uint64_t h)
{
    snprintf(out, cap, "%s/%016" PRIx64 ".pqm", dir, h);
}

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t get_u32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}
static uint64_t get_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static disk_file *dfind(uint64_t h)
{
    for (size_t i = 0; i < ndfiles; i++)
        if (dfiles[i].hash == h)
            return &dfiles[i];
    return NULL;
}

static void dforget(uint64_t h)
{
    disk_file *d = dfind(h);
    if (!d)
        return;
    disk_bytes -= d->bytes;
    *d = dfiles[--ndfiles];
}

static void dnote(uint64_t h, uint64_t bytes, uint64_t used)
{
    dforget(h);
    if (ndfiles == capdfiles) {
        capdfiles = capdfiles ? capdfiles * 2 : 64;
        dfiles = xrealloc(dfiles, capdfiles * sizeof *dfiles);
    }
    dfiles[ndfiles++] = (disk_file){.hash = h, .bytes = bytes, .used = used};
    disk_bytes += bytes;
}

/* Under dmu: the index of the directory, built once. */
static void disk_scan(void)
{
    if (disk_scanned || !disk_dir)
        return;
    disk_scanned = true;
    DIR *d = opendir(disk_dir);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t n = strlen(de->d_name);
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", disk_dir, de->d_name);
        if (n > 4 && strncmp(de->d_name, ".tmp", 4) == 0) {
            struct stat st; /* a writer that died before its rename, a while ago */
            if (stat(path, &st) == 0 && st.st_mtime < time(NULL) - 3600)
                unlink(path);
            continue;
        }
        char *end;
        if (n != 20 || strcmp(de->d_name + 16, ".pqm") != 0)
            continue;
        uint64_t h = strtoull(de->d_name, &end, 16);
        struct stat st;
        if (end != de->d_name + 16 || stat(path, &st) != 0)
            continue;
        dnote(h, (uint64_t)st.st_size, (uint64_t)st.st_mtim.tv_sec * 1000000000ull + (uint64_t)st.st_mtim.tv_nsec);
    }
    closedir(d);
}

/* Under dmu: removes the least recently used files until `incoming` more bytes fit. */
static void disk_evict(uint64_t incoming)
{
    while (ndfiles && disk_bytes + incoming > disk_max) {
        size_t o = 0;
        for (size_t i = 1; i < ndfiles; i++)
            if (dfiles[i].used < dfiles[o].used)
                o = i;
        char path[4200];
        file_name(path, sizeof path, disk_dir, dfiles[o].hash);
        unlink(path);
        dforget(dfiles[o].hash);
    }
}

static void drop_corrupt(const char *path, uint64_t h, const char *why)
{
    logf_("ignoring a corrupt Parquet metadata cache entry %s (%s); the footer is read from the object", path, why);
    unlink(path);
    pthread_mutex_lock(&dmu);
    dforget(h);
    corrupt++;
    pthread_mutex_unlock(&dmu);
}

static bool read_whole(int fd, uint8_t *p, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t k = read(fd, p + got, n - got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        got += (size_t)k;
    }
    return true;
}

/* The footer of key from disk (decoded by decode), or NULL. */
static pq_footer *disk_get(const char *key, const char *version, uint64_t h, uint64_t expect_size,
                           pqmc_decode_fn decode, void *ctx)
{
    char dir[4096];
    pthread_mutex_lock(&dmu);
    bool have = disk_dir && disk_max;
    if (have) {
        disk_scan();
        snprintf(dir, sizeof dir, "%s", disk_dir);
        have = dfind(h) != NULL;
    }
    pthread_mutex_unlock(&dmu);
    if (!have)
        return NULL;
    char path[4200];
    file_name(path, sizeof path, dir, h);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    uint8_t *p = NULL;
    const char *why = NULL;
    pq_footer *f = NULL;
    if (fstat(fd, &st) != 0 || st.st_size < HDR + 8 || (uint64_t)st.st_size > (uint64_t)MAX_RAW + 2 * MAX_FIELD + HDR + 8) {
        why = "bad size";
        goto out;
    }
    size_t n = (size_t)st.st_size;
    p = xmalloc(n);
    if (!read_whole(fd, p, n)) {
        why = "short read";
        goto out;
    }
    if (memcmp(p, MAGIC, 8) != 0) {
        why = "bad magic";
        goto out;
    }
    uint32_t klen = get_u32(p + 8), vlen = get_u32(p + 12), rlen = get_u32(p + 24);
    uint64_t fsize = get_u64(p + 16);
    if ((uint64_t)HDR + klen + vlen + rlen + 8 != n) {
        why = "lengths do not add up";
        goto out;
    }
    if (cityhash64_v102(p, n - 8) != get_u64(p + n - 8)) {
        why = "checksum mismatch";
        goto out;
    }
    const char *k = (const char *)p + HDR, *v = k + klen;
    if (strlen(key) != klen || memcmp(k, key, klen) != 0) {
        close(fd); /* another key with the same hash: not corrupt, just not ours */
        free(p);
        return NULL;
    }
    if (strlen(version) != vlen || memcmp(v, version, vlen) != 0 ||
        (expect_size != UINT64_MAX && expect_size != fsize)) {
        close(fd); /* an older version of the object: replaced by the next put */
        free(p);
        return NULL;
    }
    mem_tracker *prev = mem_tracker_attach(NULL);
    f = decode(ctx, (const uint8_t *)v + vlen, rlen, fsize);
    mem_tracker_attach(prev);
    if (!f) {
        why = "the footer does not decode";
        goto out;
    }
    futimens(fd, NULL); /* the last use, for the next process's eviction order */
    pthread_mutex_lock(&dmu);
    disk_file *d = dfind(h);
    if (d)
        d->used = now_ns();
    pthread_mutex_unlock(&dmu);
out:
    close(fd);
    free(p);
    if (why)
        drop_corrupt(path, h, why);
    return f;
}

static void disk_put(const char *key, const char *version, uint64_t h, const pq_footer *f)
{
    size_t klen = strlen(key), vlen = strlen(version), rlen = f->m->raw_len;
    if (klen > MAX_FIELD || vlen > MAX_FIELD || rlen > MAX_RAW)
        return;
    size_t n = HDR + klen + vlen + rlen + 8;
    char dir[4096];
    uint64_t seq;
    pthread_mutex_lock(&dmu);
    bool on = disk_dir && disk_max && n <= disk_max;
    if (on) {
        disk_scan();
        snprintf(dir, sizeof dir, "%s", disk_dir);
        seq = ++tmp_seq;
    }
    pthread_mutex_unlock(&dmu);
    if (!on)
        return;
    uint8_t *p = xmalloc(n);
    memcpy(p, MAGIC, 8);
    put_u32(p + 8, (uint32_t)klen);
    put_u32(p + 12, (uint32_t)vlen);
    put_u64(p + 16, f->file_size);
    put_u32(p + 24, (uint32_t)rlen);
    put_u32(p + 28, 0);
    memcpy(p + HDR, key, klen);
    memcpy(p + HDR + klen, version, vlen);
    memcpy(p + HDR + klen + vlen, f->m->raw, rlen);
    put_u64(p + n - 8, cityhash64_v102(p, n - 8));
    char tmp[4200], path[4200];
    snprintf(tmp, sizeof tmp, "%s/.tmp.%ld.%" PRIu64, dir, (long)getpid(), seq);
    file_name(path, sizeof path, dir, h);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0 && errno == ENOENT) { /* the directory: made on first write */
        char part[4096];
        snprintf(part, sizeof part, "%s", dir);
        for (char *s = part + 1; *s; s++)
            if (*s == '/') {
                *s = 0;
                mkdir(part, 0755);
                *s = '/';
            }
        mkdir(part, 0755);
        fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    }
    bool ok = fd >= 0;
    size_t done = 0;
    while (ok && done < n) {
        ssize_t k = write(fd, p + done, n - done);
        if (k < 0 && errno == EINTR)
            continue;
        ok = k > 0;
        if (ok)
            done += (size_t)k;
    }
    int saved = errno;
    if (fd >= 0 && close(fd) != 0)
        ok = false;
    free(p);
    if (ok && rename(tmp, path) != 0) {
        saved = errno;
        ok = false;
    }
    pthread_mutex_lock(&dmu);
    if (ok) {
        disk_evict(n);
        dnote(h, n, now_ns());
    } else if (!disk_failed_logged) {
        disk_failed_logged = true;
        logf_("cannot write the Parquet metadata cache in %s: %s (the disk level is skipped)", dir, strerror(saved));
    }
    pthread_mutex_unlock(&dmu);
    if (!ok)
        unlink(tmp);
}

/* ---- API ---- */

void pqmc_configure(const pqmc_config *c)
{
    release_list r = {0};
    pthread_mutex_lock(&mu);
    max_bytes = c->max_bytes;
    max_entries = c->max_entries;
    evict_to_bounds(&r);
    pthread_mutex_unlock(&mu);
    run_releases(&r);
    pthread_mutex_lock(&dmu);
    free(disk_dir);
    disk_dir = c->disk_dir && c->disk_dir[0] ? xstrdup(c->disk_dir) : NULL;
    disk_max = disk_dir ? c->disk_max_bytes : 0;
    ndfiles = 0;
    disk_bytes = 0;
    disk_scanned = false;
    disk_failed_logged = false;
    if (disk_dir && disk_max) {
        disk_scan();
        disk_evict(0);
    }
    pthread_mutex_unlock(&dmu);
}

pq_footer *pqmc_get(const char *key, const char *version, uint64_t expect_size, pqmc_decode_fn decode, void *ctx)
{
    uint64_t h = key_hash(key);
    pq_footer *f = NULL, *stale = NULL;
    pthread_mutex_lock(&mu);
    bool on = max_bytes && max_entries;
    entry **slot = on ? find_slot(key, h) : NULL;
    if (slot && *slot) {
        entry *e = *slot;
        if (strcmp(e->version, version) == 0 && (expect_size == UINT64_MAX || expect_size == e->f->file_size)) {
            f = e->f;
            atomic_fetch_add(&f->refs, 1);
            unlink_use(e);
            push_newest(e);
            hits++;
        } else {
            stale = remove_entry(slot); /* the object changed */
        }
    }
    pthread_mutex_unlock(&mu);
    pq_footer_release(stale);
    if (f || !on)
        return f;
    f = disk_get(key, version, h, expect_size, decode, ctx);
    if (f) {
        pthread_mutex_lock(&mu);
        disk_hits++;
        hits++;
        pthread_mutex_unlock(&mu);
        /* into memory only: the disk already holds it */
        release_list r = {0};
        pthread_mutex_lock(&mu);
        if (max_bytes && max_entries && f->charge <= max_bytes)
            insert_locked(key, version, h, f, &r);
        pthread_mutex_unlock(&mu);
        run_releases(&r);
        return f;
    }
    pthread_mutex_lock(&mu);
    misses++;
    pthread_mutex_unlock(&mu);
    return NULL;
}

void pqmc_put(const char *key, const char *version, pq_footer *f)
{
    uint64_t h = key_hash(key);
    release_list r = {0};
    pthread_mutex_lock(&mu);
    bool on = max_bytes && max_entries && f->charge <= max_bytes;
    if (on)
        insert_locked(key, version, h, f, &r);
    pthread_mutex_unlock(&mu);
    run_releases(&r);
    if (on && f->m && f->m->raw)
        disk_put(key, version, h, f);
}

void pqmc_clear(void)
{
    release_list r = {0};
    pthread_mutex_lock(&mu);
    while (oldest)
        defer_release(&r, remove_entry(find_slot(oldest->key, oldest->hash)));
    pthread_mutex_unlock(&mu);
    run_releases(&r);
    pthread_mutex_lock(&dmu);
    if (disk_dir) {
        disk_scan();
        for (size_t i = 0; i < ndfiles; i++) {
            char path[4200];
            file_name(path, sizeof path, disk_dir, dfiles[i].hash);
            unlink(path);
        }
        ndfiles = 0;
        disk_bytes = 0;
    }
    pthread_mutex_unlock(&dmu);
}

void pqmc_get_stats(pqmc_stats *s)
{
    pthread_mutex_lock(&mu);
    *s = (pqmc_stats){.entries = nentries, .bytes = nbytes, .hits = hits, .misses = misses,
                      .disk_hits = disk_hits, .evictions = evictions};
    pthread_mutex_unlock(&mu);
    pthread_mutex_lock(&dmu);
    s->disk_entries = ndfiles;
    s->disk_bytes = disk_bytes;
    s->corrupt = corrupt;
    pthread_mutex_unlock(&dmu);
}
