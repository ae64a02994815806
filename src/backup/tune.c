/* Settings from the hardware, env files and the memory bound (see tune.h). */
#include "backup/tune.h"

#include "backup/backup.h"
#include "backup/repo.h"
#include "base/err.h"
#include "base/mem.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define MIB (1ull << 20)
#define S3_MIN_PART (5 * MIB)

/* First line of root + path as text (trailing newline cut); false if unreadable. */
static bool read_line(const char *root, const char *path, char *out, size_t cap)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s%s", root, path);
    FILE *f = fopen(p, "r");
    if (!f)
        return false;
    bool ok = fgets(out, (int)cap, f) != NULL;
    fclose(f);
    if (ok)
        out[strcspn(out, "\n")] = 0;
    return ok;
}

static long long read_num(const char *root, const char *path, long long dflt)
{
    char line[64];
    if (!read_line(root, path, line, sizeof line))
        return dflt;
    char *end;
    long long v = strtoll(line, &end, 10);
    return end == line ? dflt : v;
}

static const char *norm_root(const char *root) { return root && strcmp(root, "/") ? root : ""; }

/* The device directory under /sys for a block device number, relative to root: the whole
 * disk for a partition. "" if not found. */
static void dev_dir(const char *root, unsigned maj, unsigned min, char *out, size_t cap)
{
    char link[PATH_MAX], real[PATH_MAX];
    snprintf(link, sizeof link, "%s/sys/dev/block/%u:%u", root, maj, min);
    out[0] = 0;
    if (!realpath(link, real))
        return;
    char part[PATH_MAX + 16];
    snprintf(part, sizeof part, "%s/partition", real);
    if (access(part, F_OK) == 0) {
        char *sl = strrchr(real, '/');
        if (sl)
            *sl = 0;
    }
    size_t rl = strlen(root);
    /* realpath resolved root's own symlinks too; keep the part under root's real path */
    char rootreal[PATH_MAX];
    if (rl && realpath(root, rootreal)) {
        size_t rrl = strlen(rootreal);
        if (strncmp(real, rootreal, rrl) == 0) {
            snprintf(out, cap, "%s", real + rrl);
            return;
        }
    }
    snprintf(out, cap, "%s", real);
}

static bool is_nvme_name(const char *dir)
{
    const char *base = strrchr(dir, '/');
    base = base ? base + 1 : dir;
    return strncmp(base, "nvme", 4) == 0;
}

void bk_stripe_detect_dev(const char *root, unsigned maj, unsigned min, bk_stripe *out)
{
    root = norm_root(root);
    memset(out, 0, sizeof *out);
    out->data_drives = 1;
    out->members = 1;
    char d[PATH_MAX];
    dev_dir(root, maj, min, d, sizeof d);
    if (!d[0]) {
        snprintf(out->how, sizeof out->how, "device %u:%u not under /sys/dev/block: plain device", maj, min);
        return;
    }
    const char *name = strrchr(d, '/') ? strrchr(d, '/') + 1 : d;
    char p[PATH_MAX + 32], level[32] = "";
    /* members: slaves/ */
    int members = 0, nvme = 0;
    snprintf(p, sizeof p, "%s%s/slaves", root, d);
    DIR *sd = opendir(p);
    if (sd) {
        struct dirent *de;
        while ((de = readdir(sd))) {
            if (de->d_name[0] == '.')
                continue;
            members++;
            if (strncmp(de->d_name, "nvme", 4) == 0)
                nvme++;
        }
        closedir(sd);
    }
    snprintf(p, sizeof p, "%s/md/level", d);
    if (read_line(root, p, level, sizeof level)) {
        snprintf(p, sizeof p, "%s/md/raid_disks", d);
        long long disks = read_num(root, p, members > 0 ? members : 1);
        snprintf(p, sizeof p, "%s/md/chunk_size", d);
        long long chunk = read_num(root, p, 0);
        long long data = 1;
        if (!strcmp(level, "raid0"))
            data = disks;
        else if (!strcmp(level, "raid10"))
            data = disks / 2;
        else if (!strcmp(level, "raid5"))
            data = disks - 1;
        else if (!strcmp(level, "raid6"))
            data = disks - 2;
        out->data_drives = data >= 1 ? (int)data : 1;
        out->members = disks >= 1 ? (int)disks : 1;
        out->nvme_members = nvme;
        out->chunk = chunk > 0 ? (uint64_t)chunk : 0;
        snprintf(out->how, sizeof out->how, "%s: md %s, %lld drives (%d data), %lld KiB chunks", name, level, disks,
                 out->data_drives, chunk / 1024);
        return;
    }
    snprintf(p, sizeof p, "%s/queue/optimal_io_size", d);
    long long opt = read_num(root, p, 0);
    snprintf(p, sizeof p, "%s/queue/minimum_io_size", d);
    long long mini = read_num(root, p, 0);
    if (opt > 0 && mini > 0 && opt > mini && opt % mini == 0) {
        out->data_drives = (int)(opt / mini);
        out->members = members > out->data_drives ? members : out->data_drives;
        out->nvme_members = nvme;
        out->chunk = (uint64_t)mini;
        snprintf(out->how, sizeof out->how, "%s: striped (optimal_io_size %lld = %d × %lld)%s", name, opt,
                 out->data_drives, mini, members ? ", stacked device" : "");
        return;
    }
    out->nvme_members = members ? nvme : is_nvme_name(d);
    snprintf(out->how, sizeof out->how, "%s: plain device (no md RAID, optimal_io_size %lld)", name, opt);
}

void bk_stripe_detect(const char *root, const char *path, bk_stripe *out)
{
    struct stat st;
    if (stat(path, &st)) {
        memset(out, 0, sizeof *out);
        out->data_drives = out->members = 1;
        snprintf(out->how, sizeof out->how, "cannot stat %s (%s): plain device", path, strerror(errno));
        return;
    }
    if (major(st.st_dev) == 0) {
        memset(out, 0, sizeof *out);
        out->data_drives = out->members = 1;
        snprintf(out->how, sizeof out->how, "%s is on a filesystem without a block device: plain", path);
        return;
    }
    bk_stripe_detect_dev(root, major(st.st_dev), minor(st.st_dev), out);
}

static uint64_t cgroup_mem_limit(const char *root)
{
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (!f)
        return 0;
    char line[512];
    uint64_t lim = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2)
            continue;
        char p[600];
        long long v = -1;
        if (strncmp(c1 + 1, "memory:", 7) == 0) {
            snprintf(p, sizeof p, "/sys/fs/cgroup/memory%s/memory.limit_in_bytes", c2 + 1);
            v = read_num(root, p, -1);
        } else if (c1[1] == ':') {
            snprintf(p, sizeof p, "/sys/fs/cgroup%s/memory.max", c2 + 1);
            v = read_num(root, p, -1); /* "max" parses as -1 */
        }
        if (v > 0 && (lim == 0 || (uint64_t)v < lim))
            lim = (uint64_t)v;
    }
    fclose(f);
    return lim;
}

void bk_hw_detect(const char *root, const char *datadir, bk_hw *hw)
{
    root = norm_root(root);
    memset(hw, 0, sizeof *hw);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    hw->vcpus = n > 0 ? (int)n : 1;
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    hw->ram = pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz : 1ull << 30;
    uint64_t lim = cgroup_mem_limit(root);
    if (lim && lim < hw->ram)
        hw->ram = lim;
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/sys/block", root);
    DIR *d = opendir(p);
    if (d) {
        struct dirent *de;
        while ((de = readdir(d)))
            if (strncmp(de->d_name, "nvme", 4) == 0)
                hw->nvme_drives++;
        closedir(d);
    }
    bk_stripe_detect(root, datadir ? datadir : "/", &hw->stripe);
    hw->dense_nvme = (hw->stripe.nvme_members >= 2 && hw->stripe.data_drives >= 2) || hw->nvme_drives >= 4;
}

static uint64_t five_percent(uint64_t ram) { return ram / 20; }

void bk_settings_plain(bk_settings *s, const bk_hw *hw)
{
    memset(s, 0, sizeof *s);
    s->read_size = MIB;
    s->concurrency = 1;
    s->direct_io = false;
    s->ram = hw->ram;
    s->buffer_limit = five_percent(hw->ram);
    s->cpu_weight = 0;
    snprintf(s->compression, sizeof s->compression, "lz4");
    s->part_size = 16 * MIB;
    s->parts_in_flight = 2;
}

void bk_settings_tune(bk_settings *s, const bk_hw *hw)
{
    bk_settings_plain(s, hw);
    s->read_size = MIB * (uint64_t)hw->stripe.data_drives;
    s->concurrency = hw->dense_nvme || hw->vcpus <= 2 ? hw->vcpus : hw->vcpus / 2;
    if (s->concurrency < 1)
        s->concurrency = 1;
    s->direct_io = true;
    s->cpu_weight = 25;
    s->part_size = 16 * MIB;
    s->parts_in_flight = 3;
}

static int parse_size(const char *v, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    if (end == v || errno || v[0] == '-')
        return -1;
    uint64_t mul = 1;
    if (!strcasecmp(end, "k") || !strcasecmp(end, "kib"))
        mul = 1ull << 10;
    else if (!strcasecmp(end, "m") || !strcasecmp(end, "mib"))
        mul = MIB;
    else if (!strcasecmp(end, "g") || !strcasecmp(end, "gib"))
        mul = 1ull << 30;
    else if (*end)
        return -1;
    *out = (uint64_t)n * mul;
    return 0;
}

int bk_settings_set(bk_settings *s, const char *k, const char *v)
{
    uint64_t n;
    if (!strcmp(k, "SHALE_BACKUP_READ_SIZE")) {
        if (parse_size(v, &n) || n < 4096 || n > 256 * MIB || (n < MIB ? MIB % n : n % MIB))
            return err_set(ERR_BAD_ARGUMENTS, "%s=%s: a size that divides 1 MiB or is a multiple of it (4 KiB..256 MiB)", k, v);
        s->read_size = n;
    } else if (!strcmp(k, "SHALE_BACKUP_CONCURRENCY")) {
        if (parse_size(v, &n) || n < 1 || n > 1024)
            return err_set(ERR_BAD_ARGUMENTS, "%s=%s: expected 1..1024", k, v);
        s->concurrency = (int)n;
    } else if (!strcmp(k, "SHALE_BACKUP_DIRECT_IO")) {
        if (strcmp(v, "0") && strcmp(v, "1"))
            return err_set(ERR_BAD_ARGUMENTS, "%s=%s: expected 0 or 1", k, v);
        s->direct_io = v[0] == '1';
    } else if (!strcmp(k, "SHALE_BACKUP_BUFFER_BYTES")) {
        if (parse_size(v, &n) || n == 0)
            return err_set(ERR_BAD_ARGUMENTS, "%s=%s: expected a byte count", k, v);
        s->buffer_limit = n;
    } else if (!strcmp(k, "SHALE_BACKUP_CPU_WEIGHT")) {
        if (parse_size(v, &n) || n > 10000)
            return err_set(ERR_BAD_ARGUMENTS, "%s=%s: expected 0 (leave alone) or 1..10000", k, v);
        s->cpu_weight = (int)n;
    } else if (!strcmp(k, "SHALE_BACKUP_COMPRESSION")) {
        if (strcmp(v, "lz4") && strcmp(v, "zstd") && strcmp(v, "none"))
            return err_set(ERR_UNKNOWN_COMPRESSION_METHOD, "%s=%s: expected lz4, zstd or none", k, v);
        snprintf(s->compression, sizeof s->compression, "%s", v);
    } else if (!strcmp(k, "SHALE_BACKUP_COMPRESSION_LEVEL")) {
        if (parse_size(v, &n) || n > 22)
            return err_set(ERR_BAD_ARGUMENTS, "%s=%s: expected 0..22", k, v);
        s->level = (int)n;
    } else if (!strcmp(k, "SHALE_BACKUP_PART_SIZE")) {
        if (parse_size(v, &n) || n < S3_MIN_PART || n > 5ull << 30)
            return err_set(ERR_BAD_ARGUMENTS, "%s=%s: expected 5 MiB..5 GiB (S3's part limits)", k, v);
        s->part_size = n;
    } else if (!strcmp(k, "SHALE_BACKUP_PARTS_IN_FLIGHT")) {
        if (parse_size(v, &n) || n < 1 || n > 64)
            return err_set(ERR_BAD_ARGUMENTS, "%s=%s: expected 1..64", k, v);
        s->parts_in_flight = (int)n;
    } else {
        return err_set(ERR_UNKNOWN_SETTING, "Unknown setting %s", k);
    }
    return 0;
}

int bk_settings_read_env(bk_settings *s, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return err_set(ERR_CANNOT_OPEN_FILE, "Cannot open env file %s: %s", path, strerror(errno));
    char line[1024];
    int lineno = 0, rc = 0;
    while (!rc && fgets(line, sizeof line, f)) {
        lineno++;
        char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        p[strcspn(p, "\r\n")] = 0;
        if (!*p || *p == '#')
            continue;
        if (!strncmp(p, "export ", 7))
            p += 7;
        char *eq = strchr(p, '=');
        if (!eq) {
            rc = err_set(ERR_CANNOT_PARSE_TEXT, "%s:%d: expected KEY=VALUE", path, lineno);
            break;
        }
        *eq = 0;
        char *v = eq + 1;
        size_t vl = strlen(v);
        if (vl >= 2 && (v[0] == '"' || v[0] == '\'') && v[vl - 1] == v[0]) {
            v[vl - 1] = 0;
            v++;
        }
        if (bk_settings_set(s, p, v))
            rc = err_prefix("%s:%d: ", path, lineno);
    }
    fclose(f);
    return rc;
}

void bk_settings_write_env(const bk_settings *s, const bk_hw *hw, FILE *f)
{
    fprintf(f, "# shale backup settings for this machine (shale backup tune)\n");
    fprintf(f, "# %d vCPUs, %.1f GiB RAM, %d NVMe drives%s; data: %s\n", hw->vcpus, (double)hw->ram / (1 << 30),
            hw->nvme_drives, hw->dense_nvme ? " (dense NVMe)" : "", hw->stripe.how);
    fprintf(f, "# read size = 1 MiB x %d data drives; concurrency = %s\n", hw->stripe.data_drives,
            hw->dense_nvme || hw->vcpus <= 2 ? "vCPUs (dense NVMe or <= 2 vCPUs)" : "vCPUs / 2");
    fprintf(f, "SHALE_BACKUP_READ_SIZE=%" PRIu64 "\n", s->read_size);
    fprintf(f, "SHALE_BACKUP_CONCURRENCY=%d\n", s->concurrency);
    fprintf(f, "SHALE_BACKUP_DIRECT_IO=%d\n", s->direct_io ? 1 : 0);
    fprintf(f, "# all buffers together, at most 5 %% of RAM\n");
    fprintf(f, "SHALE_BACKUP_BUFFER_BYTES=%" PRIu64 "\n", s->buffer_limit);
    fprintf(f, "# cgroup v2 cpu.weight (cgroup v1: cpu.shares = weight x 1024 / 100); 0 leaves it alone\n");
    fprintf(f, "SHALE_BACKUP_CPU_WEIGHT=%d\n", s->cpu_weight);
    fprintf(f, "SHALE_BACKUP_COMPRESSION=%s\n", s->compression);
    fprintf(f, "SHALE_BACKUP_PART_SIZE=%" PRIu64 "\n", s->part_size);
    fprintf(f, "SHALE_BACKUP_PARTS_IN_FLIGHT=%d\n", s->parts_in_flight);
}

uint64_t bk_settings_planned(const bk_settings *s, bool s3)
{
    uint64_t rd = s->read_size > BK_BLOCK_SIZE ? s->read_size : BK_BLOCK_SIZE;
    /* the ring of read buffers (read ahead while one is compressed), a delta payload and a
     * compressed block (the bound of either method) */
    uint64_t per = BK_READ_AHEAD * rd + (BK_BLOCK_SIZE + 4096) + (BK_BLOCK_SIZE + 64 * 1024);
    if (s3)
        per += 2 * s->part_size * (uint64_t)(s->parts_in_flight + 1);
    else if (s->direct_io)
        per += BK_REPO_STAGE; /* the local writer's O_DIRECT staging buffer */
    return per * (uint64_t)s->concurrency;
}

int bk_settings_fit(bk_settings *s, bool s3, char *note, size_t note_cap)
{
    note[0] = 0;
    uint64_t cap = five_percent(s->ram);
    if (s->buffer_limit > cap)
        return err_set(ERR_BAD_ARGUMENTS,
                       "Buffer bound %" PRIu64 " bytes exceeds 5 %% of RAM (%" PRIu64 " of %" PRIu64 " bytes)",
                       s->buffer_limit, cap, s->ram);
    bk_settings orig = *s;
    while (bk_settings_planned(s, s3) > s->buffer_limit) {
        if (s3 && s->parts_in_flight > 1)
            s->parts_in_flight--;
        else if (s3 && s->part_size > S3_MIN_PART)
            s->part_size = s->part_size / 2 > S3_MIN_PART ? s->part_size / 2 : S3_MIN_PART;
        else if (s->concurrency > 1)
            s->concurrency--;
        else if (s->read_size > BK_BLOCK_SIZE)
            s->read_size = s->read_size / 2 > BK_BLOCK_SIZE ? (s->read_size / 2) / BK_BLOCK_SIZE * BK_BLOCK_SIZE
                                                            : BK_BLOCK_SIZE;
        else
            return err_set(ERR_NOT_ENOUGH_SPACE,
                           "The buffer bound of %" PRIu64 " bytes is too small: one reader needs %" PRIu64 " bytes",
                           s->buffer_limit, bk_settings_planned(s, s3));
    }
    if (s->parts_in_flight != orig.parts_in_flight || s->part_size != orig.part_size ||
        s->concurrency != orig.concurrency || s->read_size != orig.read_size)
        snprintf(note, note_cap,
                 "lowered to fit the buffer bound: parts in flight %d -> %d, part size %" PRIu64 " -> %" PRIu64
                 " MiB, concurrency %d -> %d, read size %" PRIu64 " -> %" PRIu64 " KiB",
                 orig.parts_in_flight, s->parts_in_flight, orig.part_size >> 20, s->part_size >> 20, orig.concurrency,
                 s->concurrency, orig.read_size >> 10, s->read_size >> 10);
    return 0;
}

void bk_settings_to_used(const bk_settings *s, bool s3, bk_settings_used *u)
{
    memset(u, 0, sizeof *u);
    u->read_size = s->read_size;
    u->concurrency = s->concurrency;
    u->direct_io = s->direct_io;
    u->buffer_limit = s->buffer_limit;
    u->buffer_planned = bk_settings_planned(s, s3);
    u->part_size = s3 ? s->part_size : 0;
    u->parts_in_flight = s3 ? s->parts_in_flight : 0;
    u->cpu_weight = s->cpu_weight;
    snprintf(u->compression, sizeof u->compression, "%s", s->compression);
    u->level = s->level;
}

uint64_t bk_peak_rss(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return 0;
    char line[256];
    uint64_t kb = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %" SCNu64 " kB", &kb) == 1)
            break;
    fclose(f);
    return kb * 1024;
}
