/* Part names and the small metadata files of a part: checksums.txt, count.txt,
 * columns.txt, primary.idx, partition.dat, minmax_*.idx — and loading a part. */
#include "storage/mergetree/mt.h"

#include "base/err.h"
#include "base/mem.h"
#include "column/datetime.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

mt_part *mt_part_ref(mt_part *p)
{
    atomic_fetch_add(&p->refs, 1);
    return p;
}

void mt_part_unref(mt_part *p)
{
    if (!p || atomic_fetch_sub(&p->refs, 1) != 1)
        return;
    free(p->name);
    free(p->dir);
    free(p->partition_id);
    free(p->granule_start);
    free(p->opts);
    free(p->col_bytes);
    free(p->colmap);
    if (p->psch)
        schema_free(p->psch);
    for (size_t i = 0; p->index && p->index[i]; i++)
        col_free(p->index[i]);
    free(p->index);
    for (size_t i = 0; p->minmax && p->minmax[i]; i++)
        col_free(p->minmax[i]);
    free(p->minmax);
    block_free(p->partition);
    free(p);
}

char *mt_sprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    buf b = {0};
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    char *s = xstrdup(buf_cstr(&b));
    buf_free(&b);
    return s;
}

/* ---- names ---- */

static bool parse_i64(const char *s, size_t n, int64_t *out)
{
    if (n == 0 || n > 19)
        return false;
    int64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return true;
}

int mt_parse_part_name(const char *name, char **partition_id, int64_t *min_block, int64_t *max_block,
                       uint32_t *level)
{
    /* Split on '_' from the right: the partition ID itself may contain '_'? ClickHouse's
     * IDs never do (numbers joined by '-', or hex), so the first '_' ends it. */
    const char *f[5];
    size_t len[5];
    int nf = 0;
    const char *p = name;
    while (nf < 5) {
        const char *u = strchr(p, '_');
        f[nf] = p;
        len[nf] = u ? (size_t)(u - p) : strlen(p);
        nf++;
        if (!u)
            break;
        p = u + 1;
    }
    if (nf < 4 || (nf == 5 && strchr(f[4], '_')) || len[0] == 0)
        return -1;
    int64_t a, b, l, mut;
    if (!parse_i64(f[1], len[1], &a) || !parse_i64(f[2], len[2], &b) || !parse_i64(f[3], len[3], &l) || a > b ||
        l > UINT32_MAX || (nf == 5 && !parse_i64(f[4], len[4], &mut)))
        return -1;
    for (size_t i = 0; i < len[0]; i++) {
        char c = f[0][i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-'))
            return -1;
    }
    if (partition_id)
        *partition_id = xstrndup(f[0], len[0]);
    *min_block = a;
    *max_block = b;
    *level = (uint32_t)l;
    return 0;
}

char *mt_part_name(const char *partition_id, int64_t min_block, int64_t max_block, uint32_t level)
{
    return mt_sprintf("%s_%" PRId64 "_%" PRId64 "_%u", partition_id, min_block, max_block, level);
}

char *mt_part_name_ex(const char *partition_id, int64_t min_block, int64_t max_block, uint32_t level,
                      int64_t mutation)
{
    if (!mutation)
        return mt_part_name(partition_id, min_block, max_block, level);
    return mt_sprintf("%s_%" PRId64 "_%" PRId64 "_%u_%" PRId64, partition_id, min_block, max_block, level, mutation);
}

int64_t mt_part_name_mutation(const char *name)
{
    int n = 0;
    const char *last = name;
    for (const char *p = name; *p; p++)
        if (*p == '_') {
            n++;
            last = p + 1;
        }
    int64_t v = 0;
    if (n != 4 || !parse_i64(last, strlen(last), &v))
        return 0;
    return v;
}

/* An old-format name: YYYYMMDD_YYYYMMDD_<min>_<max>_<level>[_<mutation>], both dates in
 * one month (ClickHouse's MergeTreePartInfo for format version 0). */
static int parse_old_name(const char *name, mt_name *out)
{
    const char *f[7];
    size_t len[7];
    int nf = 0;
    for (const char *p = name; nf < 7;) {
        const char *u = strchr(p, '_');
        f[nf] = p;
        len[nf++] = u ? (size_t)(u - p) : strlen(p);
        if (!u)
            break;
        p = u + 1;
    }
    int64_t v[6] = {0};
    if (nf < 5 || nf > 6 || len[0] != 8 || len[1] != 8)
        return -1;
    for (int i = 0; i < nf; i++)
        if (!parse_i64(f[i], len[i], &v[i]))
            return -1;
    int32_t days[2];
    for (int i = 0; i < 2; i++) {
        unsigned mo = (unsigned)(v[i] / 100 % 100), d = (unsigned)(v[i] % 100);
        if (mo < 1 || mo > 12 || d < 1 || d > 31)
            return -1;
        days[i] = (int32_t)dt_days_from_civil(v[i] / 10000, mo, d);
    }
    if (v[0] / 100 != v[1] / 100 || days[0] > days[1] || v[2] > v[3] || v[4] > UINT32_MAX)
        return -1;
    out->prefix = xstrndup(name, 17);
    out->partition_id = xstrndup(name, 6);
    out->min_date = days[0];
    out->max_date = days[1];
    out->min_block = v[2];
    out->max_block = v[3];
    out->level = (uint32_t)v[4];
    out->mutation = nf == 6 ? v[5] : 0;
    return 0;
}

int mt_name_parse(const mt_table *m, const char *name, mt_name *out)
{
    memset(out, 0, sizeof *out);
    if (m->old_format)
        return parse_old_name(name, out);
    if (mt_parse_part_name(name, &out->partition_id, &out->min_block, &out->max_block, &out->level))
        return -1;
    out->prefix = xstrdup(out->partition_id);
    out->mutation = mt_part_name_mutation(name);
    return 0;
}

int mt_check_part_name(const mt_table *m, const char *name)
{
    mt_name nm;
    if (mt_name_parse(m, name, &nm))
        return err_set(ERR_BAD_DATA_PART_NAME, "Unexpected part name: %s for format version: %d", name,
                       m->old_format ? 0 : 1);
    mt_name_free(&nm);
    return 0;
}

void mt_name_free(mt_name *n)
{
    free(n->prefix);
    free(n->partition_id);
}

char *mt_part_prefix(const mt_table *m, const mt_part *p)
{
    return m->old_format ? xstrndup(p->name, 17) : xstrdup(p->partition_id);
}

char *mt_date_prefix(int32_t min_date, int32_t max_date)
{
    int64_t y[2];
    unsigned mo[2], d[2];
    dt_civil_from_days(min_date, &y[0], &mo[0], &d[0]);
    dt_civil_from_days(max_date, &y[1], &mo[1], &d[1]);
    return mt_sprintf("%04" PRId64 "%02u%02u_%04" PRId64 "%02u%02u", y[0], mo[0], d[0], y[1], mo[1], d[1]);
}

/* columns.txt: "columns format version: 1\nN columns:\n`name` Type\n…" */
static int read_columns_txt(const char *dir, schema **out)
{
    buf b = {0};
    if (mt_read_small_file(dir, "columns.txt", &b))
        return -1;
    buf_putc(&b, 0);
    const char *s = (const char *)b.p;
    int n = -1;
    const char *nl = strchr(s, '\n');
    if (nl && sscanf(nl + 1, "%d columns:", &n) != 1)
        n = -1;
    const char *p = nl ? strchr(nl + 1, '\n') : NULL;
    schema *sch = n >= 0 && n < 100000 ? schema_new(n) : NULL;
    int i = 0;
    for (; sch && p && i < n; i++) {
        p++;
        if (*p != '`')
            break;
        buf name = {0};
        for (p++; *p && *p != '`'; p++) {
            if (*p == '\\' && p[1])
                p++;
            buf_putc(&name, *p);
        }
        if (*p != '`' || p[1] != ' ') {
            buf_free(&name);
            break;
        }
        p += 2;
        const char *e = strchr(p, '\n');
        if (!e)
            e = p + strlen(p);
        const type *t = type_parse(p, (size_t)(e - p));
        if (t)
            schema_set(sch, i, buf_cstr(&name), t);
        buf_free(&name);
        if (!t)
            break;
        p = e;
    }
    buf_free(&b);
    if (!sch || i < n) {
        if (sch)
            schema_free(sch);
        return err_set(ERR_CORRUPTED_DATA, "Cannot parse columns.txt of part %s", dir);
    }
    *out = sch;
    return 0;
}

/* ---- files ---- */

static char *path_join(const char *dir, const char *name) { return mt_sprintf("%s%s", dir, name); }

int mt_fsync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd < 0)
        return err_set(ERR_CANNOT_OPEN_FILE, "Cannot open directory %s: %s", dir, strerror(errno));
    int rc = fsync(fd);
    int e = errno;
    close(fd);
    if (rc)
        return err_set(ERR_CANNOT_FSYNC, "Cannot fsync directory %s: %s", dir, strerror(e));
    return 0;
}

void mt_remove_tree(const char *path)
{
    DIR *d = opendir(path);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            char *p = mt_sprintf("%s/%s", path, e->d_name);
            struct stat st;
            if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
                mt_remove_tree(p);
            else
                unlink(p);
            free(p);
        }
        closedir(d);
    }
    rmdir(path);
}

static int write_all(int fd, const void *data, size_t n, const char *path)
{
    const char *p = data;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return err_set(errno == ENOSPC ? ERR_NOT_ENOUGH_SPACE : ERR_CANNOT_WRITE_TO_FILE_DESCRIPTOR,
                           "Cannot write to file %s: %s", path, strerror(errno));
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static void hash_bytes(const void *data, size_t n, u128 *out)
{
    mt_hasher h;
    mt_hasher_init(&h);
    mt_hasher_update(&h, data, n);
    *out = mt_hasher_final(&h);
}

int mt_write_small_file(const char *dir, const char *name, const void *data, size_t n, mt_checksums *c)
{
    char *path = path_join(dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        err_set(ERR_CANNOT_OPEN_FILE, "Cannot open file %s for writing: %s", path, strerror(errno));
        free(path);
        return -1;
    }
    int rc = write_all(fd, data, n, path);
    if (!rc && fsync(fd))
        rc = err_set(ERR_CANNOT_FSYNC, "Cannot fsync file %s: %s", path, strerror(errno));
    close(fd);
    free(path);
    if (!rc && c) {
        mt_file_checksum s = {.file_size = n};
        hash_bytes(data, n, &s.file_hash);
        mt_checksums_add(c, name, &s);
    }
    return rc;
}

int mt_read_small_file(const char *dir, const char *name, buf *out)
{
    char *path = path_join(dir, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        err_set(e == ENOENT ? ERR_FILE_DOESNT_EXIST : ERR_CANNOT_OPEN_FILE, "Cannot open file %s: %s", path,
                strerror(e));
        free(path);
        return -1;
    }
    char tmp[65536];
    for (;;) {
        ssize_t r = read(fd, tmp, sizeof tmp);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            err_set(ERR_CANNOT_READ_FROM_FILE_DESCRIPTOR, "Cannot read file %s: %s", path, strerror(errno));
            close(fd);
            free(path);
            return -1;
        }
        if (r == 0)
            break;
        buf_append(out, tmp, (size_t)r);
    }
    close(fd);
    free(path);
    return 0;
}

/* Decompresses the ClickHouse compressed blocks in p[0..n) (offsets reported from `base`
 * in the file `where`), appending their bytes to out. */
static int decompress_all(const uint8_t *p, size_t n, size_t base, const char *where, buf *out)
{
    for (size_t off = 0; off < n;) {
        uint32_t cs, us;
        if (mt_block_header(p + off, n - off, &cs, &us, where, base + off))
            return -1;
        if (cs > n - off - 16)
            return err_set(ERR_CORRUPTED_DATA, "Truncated compressed block in %s at offset %zu", where, base + off);
        if (mt_decompress_block(p + off, n - off, out, where, base + off))
            return -1;
        off += 16 + (size_t)cs;
    }
    return 0;
}

/* A small file that ClickHouse may store plain (`plain`) or in compressed blocks
 * (`packed`, e.g. .cmrk2 and primary.cidx, its 24+ defaults): its bytes either way. */
static int read_plain_or_packed(const char *dir, const char *plain, const char *packed, buf *out)
{
    char *path = path_join(dir, plain);
    bool is_plain = access(path, F_OK) == 0;
    free(path);
    if (is_plain)
        return mt_read_small_file(dir, plain, out);
    buf raw = {0};
    int rc = mt_read_small_file(dir, packed, &raw);
    if (!rc) {
        char *where = path_join(dir, packed);
        rc = decompress_all(raw.p, raw.len, 0, where, out);
        free(where);
    }
    buf_free(&raw);
    return rc;
}

/* ---- checksums.txt ---- */

void mt_checksums_add(mt_checksums *c, const char *name, const mt_file_checksum *s)
{
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 16;
        c->names = xrealloc(c->names, sizeof *c->names * (size_t)c->cap);
        c->sums = xrealloc(c->sums, sizeof *c->sums * (size_t)c->cap);
    }
    c->names[c->n] = xstrdup(name);
    c->sums[c->n] = *s;
    c->n++;
}

void mt_checksums_free(mt_checksums *c)
{
    for (int i = 0; i < c->n; i++)
        free(c->names[i]);
    free(c->names);
    free(c->sums);
    memset(c, 0, sizeof *c);
}

static void put_varuint(buf *b, uint64_t v)
{
    while (v >= 0x80) {
        buf_putc(b, (char)(v | 0x80));
        v >>= 7;
    }
    buf_putc(b, (char)v);
}

static void put_u128(buf *b, u128 h)
{
    buf_append(b, &h.lo, 8);
    buf_append(b, &h.hi, 8);
}

static int cmp_names(const void *a, const void *b, void *ctx)
{
    const mt_checksums *c = ctx;
    return strcmp(c->names[*(const int *)a], c->names[*(const int *)b]);
}

int mt_checksums_write(const mt_checksums *c, const char *dir)
{
    /* Format version 4: a text header line, then the list compressed in ClickHouse's block
     * format (LZ4): count, then per file (sorted by name) name, size, hash, is_compressed
     * and, for compressed files, the uncompressed size and hash. */
    int *order = xmalloc(sizeof(int) * (size_t)(c->n + 1));
    for (int i = 0; i < c->n; i++)
        order[i] = i;
    qsort_r(order, (size_t)c->n, sizeof(int), cmp_names, (void *)c);
    buf body = {0};
    put_varuint(&body, (uint64_t)c->n);
    for (int k = 0; k < c->n; k++) {
        int i = order[k];
        size_t nl = strlen(c->names[i]);
        put_varuint(&body, nl);
        buf_append(&body, c->names[i], nl);
        put_varuint(&body, c->sums[i].file_size);
        put_u128(&body, c->sums[i].file_hash);
        buf_putc(&body, c->sums[i].is_compressed ? 1 : 0);
        if (c->sums[i].is_compressed) {
            put_varuint(&body, c->sums[i].uncompressed_size);
            put_u128(&body, c->sums[i].uncompressed_hash);
        }
    }
    free(order);
    buf out = {0};
    buf_puts(&out, "checksums format version: 4\n");
    mt_codec *lz4;
    int rc = mt_codec_parse("LZ4", NULL, &lz4);
    if (!rc) {
        mt_compress_block(lz4, body.p, body.len, &out);
        mt_codec_free(lz4);
        rc = mt_write_small_file(dir, "checksums.txt", out.p, out.len, NULL);
    }
    buf_free(&body);
    buf_free(&out);
    return rc;
}

typedef struct rd {
    const uint8_t *p, *end;
} rd;

static bool get_varuint(rd *r, uint64_t *v)
{
    uint64_t x = 0;
    for (int s = 0; s < 64; s += 7) {
        if (r->p >= r->end)
            return false;
        uint8_t b = *r->p++;
        x |= (uint64_t)(b & 0x7f) << s;
        if (!(b & 0x80)) {
            *v = x;
            return true;
        }
    }
    return false;
}

static bool get_bytes(rd *r, void *dst, size_t n)
{
    if ((size_t)(r->end - r->p) < n)
        return false;
    memcpy(dst, r->p, n);
    r->p += n;
    return true;
}

int mt_checksums_read(const char *dir, mt_checksums *out)
{
    memset(out, 0, sizeof *out);
    buf f = {0};
    if (mt_read_small_file(dir, "checksums.txt", &f))
        return -1;
    static const char hdr[] = "checksums format version: ";
    const char *s = (const char *)f.p;
    const char *nl = f.len ? memchr(s, '\n', f.len) : NULL;
    if (f.len < sizeof hdr || memcmp(s, hdr, sizeof hdr - 1) != 0 || !nl) {
        buf_free(&f);
        return err_set(ERR_CORRUPTED_DATA, "Bad checksums.txt in %s: no format header", dir);
    }
    int version = atoi(s + sizeof hdr - 1);
    if (version != 4) {
        buf_free(&f);
        return err_set(ERR_CORRUPTED_DATA, "Bad checksums.txt in %s: format version %d is not supported (4 is)", dir,
                       version);
    }
    size_t off = (size_t)(nl + 1 - s);
    buf body = {0};
    char *where = mt_sprintf("%schecksums.txt", dir);
    int rc = decompress_all(f.p + off, f.len - off, off, where, &body);
    free(where);
    if (rc) {
        buf_free(&f);
        buf_free(&body);
        return -1;
    }
    buf_free(&f);
    rd r = {body.p, body.p + body.len};
    uint64_t n;
    bool ok = get_varuint(&r, &n) && n < 1000000;
    for (uint64_t i = 0; ok && i < n; i++) {
        uint64_t nl2;
        mt_file_checksum cs = {0};
        ok = get_varuint(&r, &nl2) && nl2 < 4096 && (size_t)(r.end - r.p) >= nl2;
        if (!ok)
            break;
        char *name = xstrndup((const char *)r.p, nl2);
        r.p += nl2;
        uint8_t comp = 0;
        ok = get_varuint(&r, &cs.file_size) && get_bytes(&r, &cs.file_hash.lo, 8) && get_bytes(&r, &cs.file_hash.hi, 8) &&
             get_bytes(&r, &comp, 1);
        cs.is_compressed = comp != 0;
        if (ok && comp)
            ok = get_varuint(&r, &cs.uncompressed_size) && get_bytes(&r, &cs.uncompressed_hash.lo, 8) &&
                 get_bytes(&r, &cs.uncompressed_hash.hi, 8);
        if (ok)
            mt_checksums_add(out, name, &cs);
        free(name);
    }
    buf_free(&body);
    if (!ok) {
        mt_checksums_free(out);
        return err_set(ERR_CORRUPTED_DATA, "Bad checksums.txt in %s: truncated or malformed list", dir);
    }
    return 0;
}

/* ---- loading ---- */

static int find_checksum(const mt_checksums *c, const char *name)
{
    for (int i = 0; i < c->n; i++)
        if (!strcmp(c->names[i], name))
            return i;
    return -1;
}

int mt_read_marks(const char *dir, const char *stream, buf *out)
{
    char *plain = mt_sprintf("%s.mrk2", stream), *packed = mt_sprintf("%s.cmrk2", stream);
    int rc = read_plain_or_packed(dir, plain, packed, out);
    free(plain);
    free(packed);
    if (!rc && out->len % 24)
        rc = err_set(ERR_CORRUPTED_DATA, "Marks file of stream %s in %s has %zu bytes, not a multiple of 24", stream,
                     dir, out->len);
    return rc;
}

/* Reads `nvals` rows of values for columns of types[0..n) stored row by row. */
static int read_values(const char *what, const buf *data, int n, const type *const *types, size_t nvals,
                       column ***out)
{
    column **cols = xcalloc((size_t)n + 1, sizeof *cols);
    for (int i = 0; i < n; i++)
        cols[i] = col_new(types[i]);
    size_t off = 0;
    for (size_t r = 0; r < nvals; r++) {
        for (int i = 0; i < n; i++) {
            size_t used;
            if (mt_value_read(cols[i], data->p + off, data->len - off, &used)) {
                err_prefix("Cannot read %s (value %zu, byte %zu): ", what, r, off);
                for (int k = 0; k < n; k++)
                    col_free(cols[k]);
                free(cols);
                return -1;
            }
            off += used;
        }
    }
    *out = cols;
    return 0;
}

/* Reads index rows until the data ends (the count is what the data holds). */
static int read_index(const char *dir, const buf *data, int n, const type *const *types, size_t *nvals,
                      column ***out)
{
    column **cols = xcalloc((size_t)n + 1, sizeof *cols);
    for (int i = 0; i < n; i++)
        cols[i] = col_new(types[i]);
    size_t off = 0, rows = 0;
    while (off < data->len && n > 0) {
        for (int i = 0; i < n; i++) {
            size_t used;
            if (mt_value_read(cols[i], data->p + off, data->len - off, &used)) {
                err_prefix("Cannot read the primary index of part %s (entry %zu, byte %zu): ", dir, rows, off);
                for (int k = 0; k < n; k++)
                    col_free(cols[k]);
                free(cols);
                return -1;
            }
            off += used;
        }
        rows++;
    }
    *nvals = rows;
    *out = cols;
    return 0;
}

static uint64_t dir_size(const char *dir)
{
    uint64_t total = 0;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char *p = mt_sprintf("%s%s", dir, e->d_name);
        struct stat st;
        if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
            total += (uint64_t)st.st_size;
        free(p);
    }
    closedir(d);
    return total;
}

/* The end of the JSON value starting at p (an object, array or string), or NULL. */
static const char *json_skip(const char *p)
{
    if (*p == '"') {
        for (p++; *p && *p != '"'; p++)
            if (*p == '\\' && p[1])
                p++;
        return *p ? p + 1 : NULL;
    }
    if (*p != '{' && *p != '[')
        return NULL;
    int depth = 0;
    for (; *p; p++) {
        if (*p == '"') {
            p = json_skip(p);
            if (!p)
                return NULL;
            p--;
        } else if (*p == '{' || *p == '[') {
            depth++;
        } else if ((*p == '}' || *p == ']') && --depth == 0) {
            return p + 1;
        }
    }
    return NULL;
}

/* The string value of "key" directly inside the object [obj, end), copied; NULL if absent. */
static char *json_str(const char *obj, const char *end, const char *key)
{
    size_t kl = strlen(key);
    for (const char *p = obj + 1; p && p < end;) {
        while (p < end && *p != '"' && *p != '{' && *p != '[')
            p++;
        if (p >= end)
            break;
        if (*p != '"') {
            p = json_skip(p);
            continue;
        }
        const char *k = p + 1;
        const char *ke = json_skip(p);
        if (!ke)
            return NULL;
        p = ke;
        while (p < end && (*p == ' ' || *p == ':'))
            p++;
        if ((size_t)(ke - k - 1) == kl && !memcmp(k, key, kl) && *p == '"') {
            const char *ve = json_skip(p);
            if (!ve)
                return NULL;
            buf v = {0};
            for (const char *c = p + 1; c < ve - 1; c++) {
                if (*c == '\\' && c + 1 < ve - 1)
                    c++;
                buf_putc(&v, *c);
            }
            char *r = xstrdup(buf_cstr(&v));
            buf_free(&v);
            return r;
        }
        if (p < end && (*p == '"' || *p == '{' || *p == '['))
            p = json_skip(p);
    }
    return NULL;
}

/* Fills per-column serialization options from serialization.json: string size streams
 * ("types_serialization_versions":{"string":1}) and sparse columns ("kind":"Sparse", for
 * a Tuple per element in "subcolumns"). Unknown content is ignored. */
static void parse_serialization_json(const char *js, const schema *sch, mt_serial_opts *opts)
{
    bool size_stream = strstr(js, "\"string\":1") != NULL;
    for (int i = 0; i < sch->n; i++)
        opts[i].string_size_stream = size_stream;
    const char *cols = strstr(js, "\"columns\":[");
    if (!cols)
        return;
    const char *p = cols + 10;
    const char *arr_end = json_skip(p);
    if (!arr_end)
        return;
    p++;
    while (p < arr_end) {
        while (p < arr_end && *p != '{')
            p++;
        if (p >= arr_end)
            break;
        const char *oe = json_skip(p);
        if (!oe)
            return;
        char *name = json_str(p, oe, "name");
        char *kind = json_str(p, oe, "kind");
        int c = name ? schema_find(sch, name) : -1;
        if (c >= 0) {
            opts[c].sparse = kind && !strcmp(kind, "Sparse");
            const char *sub = strstr(p, "\"subcolumns\":[");
            if (sub && sub < oe) {
                const char *q = sub + 14, *se = json_skip(q);
                int elem = 0;
                for (q++; se && q < se && elem < 64;) {
                    while (q < se && *q != '{')
                        q++;
                    if (q >= se)
                        break;
                    const char *e2 = json_skip(q);
                    if (!e2)
                        break;
                    char *k2 = json_str(q, e2, "kind");
                    if (k2 && !strcmp(k2, "Sparse"))
                        opts[c].sparse_elems |= 1ull << elem;
                    free(k2);
                    elem++;
                    q = e2;
                }
            }
        }
        free(name);
        free(kind);
        p = oe;
    }
}

/* The partition value toYYYYMM(date) and the date's min/max of an old-format part. */
static void old_format_keys(const mt_table *m, mt_part *p, const char *name)
{
    mt_name nm;
    if (parse_old_name(name, &nm))
        return; /* checked by the caller */
    p->partition = block_new(1, 1);
    p->partition->cols[0] = col_new(m->part_key.types[0]);
    uint32_t yyyymm = (uint32_t)strtoul(nm.partition_id, NULL, 10);
    col_push_fixed(p->partition->cols[0], &yyyymm);
    p->minmax = xcalloc((size_t)m->nminmax + 1, sizeof *p->minmax);
    for (int i = 0; i < m->nminmax; i++) {
        p->minmax[i] = col_new(m->t->sch->types[m->minmax_cols[i]]);
        uint16_t lo = (uint16_t)nm.min_date, hi = (uint16_t)nm.max_date;
        col_push_fixed(p->minmax[i], &lo);
        col_push_fixed(p->minmax[i], &hi);
    }
    mt_name_free(&nm);
}

int mt_part_load(mt_table *m, const char *dir, const char *name, mt_part **out)
{
    mt_part *p = xcalloc(1, sizeof *p);
    p->refs = 1;
    p->name = xstrdup(name);
    p->dir = xstrdup(dir);
    mt_name pn;
    if (mt_name_parse(m, name, &pn)) {
        mt_part_unref(p);
        return err_set(ERR_BAD_DATA_PART_NAME, "Unexpected part name: %s", name);
    }
    p->partition_id = pn.partition_id;
    pn.partition_id = NULL;
    p->min_block = pn.min_block;
    p->max_block = pn.max_block;
    p->level = pn.level;
    p->mutation = pn.mutation;
    mt_name_free(&pn);
    /* ClickHouse writes small parts in its Compact layout (every column in one data.bin);
     * shale reads the Wide layout only. */
    bool is_compact = false;
    static const char *compact_marks[] = {"mrk3", "cmrk3", "mrk4", "cmrk4"}; /* Wide: .mrk2 / .cmrk2 */
    for (int i = 0; i < 4 && !is_compact; i++) {
        char *f = mt_sprintf("%sdata.%s", dir, compact_marks[i]);
        is_compact = access(f, F_OK) == 0;
        free(f);
    }
    if (is_compact) {
        mt_part_unref(p);
        return err_set(ERR_UNKNOWN_PART_TYPE, "Part %s is in ClickHouse's Compact format, which shale does not read "
                       "(only Wide parts; on the ClickHouse table, min_bytes_for_wide_part = 0 makes every part Wide)",
                       name);
    }
    buf b = {0};
    int rc = 0;
    /* The part's own columns: an ALTER may have added, dropped, renamed or retyped
     * columns since it was written. */
    table *t = m->t;
    if (read_columns_txt(dir, &p->psch)) {
        mt_part_unref(p);
        return -1;
    }
    /* psch keeps the names the files have; the mapping uses them renamed */
    schema *renamed = schema_clone(p->psch);
    mt_mutations_rename(m, mt_part_version(p), renamed);
    p->colmap = xcalloc((size_t)t->sch->n + 1, sizeof *p->colmap);
    p->same_layout = p->psch->n == t->sch->n;
    for (int c = 0; c < t->sch->n; c++) {
        p->colmap[c] = schema_find(renamed, t->sch->names[c]);
        if (p->colmap[c] >= 0 && strcmp(renamed->names[p->colmap[c]], p->psch->names[p->colmap[c]]))
            p->same_layout = false;
        if (p->colmap[c] != c || strcmp(p->psch->types[c]->name, t->sch->types[c]->name))
            p->same_layout = false;
    }
    schema_free(renamed);
    /* serialization.json (ClickHouse 22.x+): the serialization of each column. */
    p->opts = xcalloc((size_t)p->psch->n + 1, sizeof *p->opts);
    char *sj = mt_sprintf("%sserialization.json", dir);
    bool has_sj = access(sj, F_OK) == 0;
    free(sj);
    if (has_sj && !(rc = mt_read_small_file(dir, "serialization.json", &b)))
        parse_serialization_json(buf_cstr(&b), p->psch, p->opts);
    b.len = 0;
    if (!rc)
        rc = mt_read_small_file(dir, "count.txt", &b);
    if (!rc) {
        buf_putc(&b, 0);
        char *end;
        p->rows = strtoull((const char *)b.p, &end, 10);
        if (end == (const char *)b.p)
            rc = err_set(ERR_CORRUPTED_DATA, "Bad count.txt in part %s", dir);
    }
    buf_free(&b);
    /* Granules from the marks of the first column's first stream. */
    const schema *ps = p->psch;
    if (!rc && ps->n) {
        mt_serial *s = mt_serial_new_ex(ps->names[0], ps->types[0], &p->opts[0]);
        buf marks = {0};
        rc = mt_read_marks(dir, mt_serial_stream_name(s, 0), &marks);
        mt_serial_free(s);
        if (!rc) {
            size_t nm = marks.len / 24;
            const uint64_t *mk = (const uint64_t *)(const void *)marks.p;
            p->granule_start = xmalloc(sizeof(uint64_t) * (nm + 1));
            uint64_t acc = 0;
            size_t g = 0;
            for (size_t i = 0; i < nm; i++) {
                uint64_t r = mk[i * 3 + 2];
                if (r == 0 && i == nm - 1)
                    break; /* the final mark */
                p->granule_start[g++] = acc;
                acc += r;
            }
            p->granule_start[g] = acc;
            p->ngranules = g;
            if (acc != p->rows)
                rc = err_set(ERR_CORRUPTED_DATA, "Part %s: marks cover %" PRIu64 " rows but count.txt says %" PRIu64, dir,
                             acc, p->rows);
        }
        buf_free(&marks);
    }
    /* Primary index. */
    if (!rc && m->nprimary) {
        buf idx = {0};
        rc = read_plain_or_packed(dir, "primary.idx", "primary.cidx", &idx);
        if (!rc)
            rc = read_index(dir, &idx, m->nprimary, m->sort.types, &p->nindex, &p->index);
        if (!rc && p->nindex < p->ngranules)
            rc = err_set(ERR_CORRUPTED_DATA, "Part %s: the primary index has %zu entries for %zu granules", dir,
                         p->nindex, p->ngranules);
        buf_free(&idx);
    }
    /* Partition value and minmax: an old-format part has them in its name. */
    if (!rc && m->old_format)
        old_format_keys(m, p, name);
    else if (!rc && m->part_key.n) {
        buf pd = {0};
        rc = mt_read_small_file(dir, "partition.dat", &pd);
        column **vals = NULL;
        if (!rc)
            rc = read_values("partition.dat", &pd, m->part_key.n, m->part_key.types, 1, &vals);
        buf_free(&pd);
        if (!rc) {
            p->partition = block_new(m->part_key.n, 1);
            for (int i = 0; i < m->part_key.n; i++)
                p->partition->cols[i] = vals[i];
            free(vals);
        }
        p->minmax = xcalloc((size_t)m->nminmax + 1, sizeof *p->minmax);
        for (int i = 0; !rc && i < m->nminmax; i++) {
            buf fname = {0};
            buf_puts(&fname, "minmax_");
            mt_escape_file_name(t->sch->names[m->minmax_cols[i]], &fname);
            buf_puts(&fname, ".idx");
            buf mm = {0};
            rc = mt_read_small_file(dir, buf_cstr(&fname), &mm);
            const type *ty = t->sch->types[m->minmax_cols[i]];
            if (!rc && mm.len) {
                rc = read_values(buf_cstr(&fname), &mm, 1, &ty, 2, &vals);
                if (!rc) {
                    p->minmax[i] = vals[0];
                    free(vals);
                }
            } else if (!rc) {
                p->minmax[i] = col_new(ty); /* empty part */
            }
            buf_free(&mm);
            buf_free(&fname);
        }
    }
    /* Sizes from checksums.txt (the compressed and uncompressed sizes of the .bin files). */
    mt_checksums cs;
    if (!rc && !(rc = mt_checksums_read(dir, &cs))) {
        for (int i = 0; i < cs.n; i++) {
            size_t l = strlen(cs.names[i]);
            if (l > 4 && !strcmp(cs.names[i] + l - 4, ".bin")) {
                p->data_compressed_bytes += cs.sums[i].file_size;
                p->data_uncompressed_bytes += cs.sums[i].uncompressed_size;
            }
        }
        /* Every stream of every column must be there. */
        p->col_bytes = xcalloc((size_t)ps->n + 1, sizeof *p->col_bytes);
        for (int c = 0; !rc && c < ps->n; c++) {
            mt_serial *s = mt_serial_new_ex(ps->names[c], ps->types[c], &p->opts[c]);
            for (int k = 0; !rc && k < mt_serial_nstreams(s); k++) {
                char *bin = mt_sprintf("%s.bin", mt_serial_stream_name(s, k));
                int at = find_checksum(&cs, bin);
                if (at >= 0)
                    p->col_bytes[c] += cs.sums[at].uncompressed_size;
                else
                    rc = err_set(ERR_NO_SUCH_COLUMN_IN_TABLE,
                                 "Part %s has no file %s for column %s of type %s (listed in checksums.txt)", dir, bin,
                                 ps->names[c], ps->types[c]->name);
                free(bin);
            }
            mt_serial_free(s);
        }
        mt_checksums_free(&cs);
    }
    if (rc) {
        mt_part_unref(p);
        return -1;
    }
    p->bytes_on_disk = dir_size(dir);
    struct stat st;
    p->modification_time = stat(dir, &st) == 0 ? (int64_t)st.st_mtime : (int64_t)time(NULL);
    p->state = PART_ACTIVE;
    *out = p;
    return 0;
}

int mt_part_check(mt_table *m, const mt_part *p)
{
    (void)m;
    mt_checksums cs;
    if (mt_checksums_read(p->dir, &cs))
        return -1;
    int rc = 0;
    for (int i = 0; !rc && i < cs.n; i++) {
        buf data = {0};
        rc = mt_read_small_file(p->dir, cs.names[i], &data);
        if (!rc && data.len != cs.sums[i].file_size)
            rc = err_set(ERR_CHECKSUM_DOESNT_MATCH, "Part %s: file %s has %zu bytes, checksums.txt says %" PRIu64, p->dir,
                         cs.names[i], data.len, cs.sums[i].file_size);
        if (!rc) {
            u128 h;
            hash_bytes(data.p, data.len, &h);
            if (h.lo != cs.sums[i].file_hash.lo || h.hi != cs.sums[i].file_hash.hi)
                rc = err_set(ERR_CHECKSUM_DOESNT_MATCH, "Part %s: checksum of file %s doesn't match", p->dir, cs.names[i]);
        }
        buf_free(&data);
    }
    mt_checksums_free(&cs);
    return rc;
}
