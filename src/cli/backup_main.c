/* `shale backup`: tune, pg push/fetch/list/verify/delete, wal push/fetch (src/backup/). */
#include "cli/backup_main.h"

#include "backup/pg.h"
#include "backup/repo.h"
#include "backup/tune.h"
#include "backup/wal.h"
#include "base/err.h"
#include "base/mem.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *usage =
    "Usage:\n"
    "  shale backup tune [--pgdata DIR] [--sys-root DIR]          print an env file tuned to this machine\n"
    "  shale backup pg push --pgdata DIR --repo URL [--delta-from NAME|LATEST] [--conn CONNINFO]\n"
    "                       [--max-latency-ms N]  (slow down while the database's p99 is above N)\n"
    "  shale backup pg fetch --repo URL --backup NAME|LATEST --target DIR [--tablespace OID=DIR]...\n"
    "                        [--target-lsn LSN | --target-time TIME]\n"
    "  shale backup pg list --repo URL\n"
    "  shale backup pg verify --repo URL [--backup NAME|LATEST]\n"
    "  shale backup pg delete --repo URL --retain N\n"
    "  shale backup wal push --repo URL PATH                     (archive_command: ... %p)\n"
    "  shale backup wal fetch --repo URL NAME DEST [--prefetch N] (restore_command: ... %f %p)\n"
    "Settings (push): tuned from the hardware unless --plain-defaults; then --env FILE; then\n"
    "  --buffered (no O_DIRECT), --direct-io, --read-size N, --concurrency N, --compression lz4|zstd|none,\n"
    "  --buffer-bytes N (<= 5 % of RAM), --cpu-weight N (0: leave the cgroup alone).\n"
    "Repository: file:///dir or http(s)://host[:port]/bucket/prefix (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY).\n";

static int fail(void)
{
    fprintf(stderr, "shale backup: %s (%s)\n", err_msg(), err_name(err_code()));
    return 1;
}

static int bad_usage(const char *what)
{
    fprintf(stderr, "shale backup: %s\n%s", what, usage);
    return 2;
}

typedef struct opts {
    const char *repo, *pgdata, *delta_from, *conn, *env, *backup, *target, *target_lsn, *target_time, *sys_root;
    const char *read_size, *concurrency, *compression, *buffer_bytes, *cpu_weight, *prefetch, *retain, *max_latency;
    bool buffered, direct, plain;
    bk_ts_map ts[64];
    size_t nts;
    const char *pos[4];
    int npos;
} opts;

static int parse(int argc, char **argv, opts *o)
{
    static const struct { const char *name; size_t off; } vals[] = {
        {"--repo", offsetof(opts, repo)}, {"--pgdata", offsetof(opts, pgdata)},
        {"--delta-from", offsetof(opts, delta_from)}, {"--conn", offsetof(opts, conn)},
        {"--env", offsetof(opts, env)}, {"--backup", offsetof(opts, backup)},
        {"--target", offsetof(opts, target)}, {"--target-lsn", offsetof(opts, target_lsn)},
        {"--target-time", offsetof(opts, target_time)}, {"--sys-root", offsetof(opts, sys_root)},
        {"--read-size", offsetof(opts, read_size)}, {"--concurrency", offsetof(opts, concurrency)},
        {"--compression", offsetof(opts, compression)}, {"--buffer-bytes", offsetof(opts, buffer_bytes)},
        {"--cpu-weight", offsetof(opts, cpu_weight)}, {"--prefetch", offsetof(opts, prefetch)},
        {"--retain", offsetof(opts, retain)}, {"--max-latency-ms", offsetof(opts, max_latency)},
    };
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--buffered")) {
            o->buffered = true;
            continue;
        }
        if (!strcmp(a, "--direct-io")) {
            o->direct = true;
            continue;
        }
        if (!strcmp(a, "--plain-defaults")) {
            o->plain = true;
            continue;
        }
        if (!strcmp(a, "--tablespace")) {
            if (i + 1 >= argc || !strchr(argv[i + 1], '=') || o->nts == 64) {
                fprintf(stderr, "shale backup: --tablespace expects OID=DIR\n");
                return -1;
            }
            char *eq = strchr(argv[++i], '=');
            *eq = 0;
            o->ts[o->nts].oid = argv[i];
            o->ts[o->nts++].dir = eq + 1;
            continue;
        }
        bool found = false;
        for (size_t k = 0; k < sizeof vals / sizeof vals[0]; k++) {
            if (strcmp(a, vals[k].name))
                continue;
            if (i + 1 >= argc) {
                fprintf(stderr, "shale backup: %s needs a value\n", a);
                return -1;
            }
            *(const char **)((char *)o + vals[k].off) = argv[++i];
            found = true;
            break;
        }
        if (found)
            continue;
        if (a[0] == '-' && a[1]) {
            fprintf(stderr, "shale backup: unknown option %s\n", a);
            return -1;
        }
        if (o->npos == 4) {
            fprintf(stderr, "shale backup: too many arguments (%s)\n", a);
            return -1;
        }
        o->pos[o->npos++] = a;
    }
    return 0;
}

/* Settings: tuned (or plain), then the env file, then flags. */
static int settings_from(const opts *o, bk_settings *s, bk_hw *hw)
{
    bk_hw_detect(o->sys_root, o->pgdata ? o->pgdata : ".", hw);
    if (o->plain)
        bk_settings_plain(s, hw);
    else
        bk_settings_tune(s, hw);
    if (o->env && bk_settings_read_env(s, o->env))
        return -1;
    static const struct { const char *flag; const char *key; } map[] = {
        {"read_size", "SHALE_BACKUP_READ_SIZE"}, {"concurrency", "SHALE_BACKUP_CONCURRENCY"},
        {"compression", "SHALE_BACKUP_COMPRESSION"}, {"buffer_bytes", "SHALE_BACKUP_BUFFER_BYTES"},
        {"cpu_weight", "SHALE_BACKUP_CPU_WEIGHT"}};
    const char *vals[] = {o->read_size, o->concurrency, o->compression, o->buffer_bytes, o->cpu_weight};
    for (size_t i = 0; i < 5; i++) {
        if (!vals[i])
            continue;
        if (bk_settings_set(s, map[i].key, vals[i]))
            return err_prefix("--%s: ", map[i].flag);
    }
    if (o->buffered)
        s->direct_io = false;
    if (o->direct)
        s->direct_io = true;
    return 0;
}

static int need(const char *v, const char *flag)
{
    if (v)
        return 0;
    fprintf(stderr, "shale backup: %s is required\n%s", flag, usage);
    return -1;
}

static int with_repo(const opts *o, bk_repo **r)
{
    if (need(o->repo, "--repo"))
        return 2;
    if (bk_repo_open(o->repo, r))
        return fail();
    return 0;
}

static int pg_cmd(const char *sub, opts *o)
{
    bool push = !strcmp(sub, "push"), fetch = !strcmp(sub, "fetch"), del = !strcmp(sub, "delete");
    if (!push && !fetch && !del && strcmp(sub, "list") && strcmp(sub, "verify"))
        return bad_usage("unknown pg command");
    if ((push && need(o->pgdata, "--pgdata")) || (fetch && (need(o->backup, "--backup") || need(o->target, "--target"))) ||
        (del && need(o->retain, "--retain")))
        return 2;
    long retain = 0, max_lat = 0;
    if (o->max_latency) {
        char *end;
        max_lat = strtol(o->max_latency, &end, 10);
        if (*end || max_lat < 1 || max_lat > 600000)
            return bad_usage("--max-latency-ms expects milliseconds (1..600000)");
    }
    if (del) {
        char *end;
        retain = strtol(o->retain, &end, 10);
        if (*end || retain < 1 || retain > 100000)
            return bad_usage("--retain expects a number >= 1");
    }
    char self[PATH_MAX] = "", target[PATH_MAX] = "";
    if (fetch) {
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        if (n < 0) {
            err_set(ERR_CANNOT_STAT, "Cannot find this binary's path (/proc/self/exe)");
            return fail();
        }
        self[n] = 0;
        char cwd[PATH_MAX] = "";
        if (o->target[0] != '/' && !getcwd(cwd, sizeof cwd))
            cwd[0] = 0;
        snprintf(target, sizeof target, "%s%s%s", o->target[0] != '/' ? cwd : "", o->target[0] != '/' ? "/" : "",
                 o->target);
    }
    bk_hw hw;
    bk_settings s;
    if (settings_from(o, &s, &hw))
        return fail();
    bk_repo *r = NULL;
    int rc = with_repo(o, &r);
    if (rc)
        return rc;
    int readers = s.concurrency > 2 ? s.concurrency : 2; /* fetch and verify: at least two */
    int st;
    if (push) {
        bk_pg_push_opts po = {.pgdata = o->pgdata, .conninfo = o->conn, .delta_from = o->delta_from, .settings = s,
                              .s3 = bk_repo_is_s3(r), .max_latency_ms = (int)max_lat, .log = stdout};
        st = bk_pg_push(r, &po);
    } else if (fetch) {
        bk_pg_fetch_opts fo = {.backup = o->backup, .target = target, .ts_map = o->ts, .nts_map = o->nts,
                               .target_lsn = o->target_lsn, .target_time = o->target_time, .self = self,
                               .concurrency = readers, .log = stdout};
        st = bk_pg_fetch(r, &fo);
    } else if (del) {
        st = bk_pg_delete_retain(r, (int)retain, stdout);
    } else if (!strcmp(sub, "list")) {
        st = bk_pg_list(r, stdout);
    } else {
        st = bk_pg_verify(r, o->backup ? o->backup : "LATEST", readers, stdout);
    }
    bk_repo_close(r);
    fflush(stdout);
    return st ? fail() : 0;
}

static int wal_cmd(const char *sub, opts *o)
{
    bk_repo *r = NULL;
    int rc = with_repo(o, &r);
    if (rc)
        return rc;
    int st;
    if (!strcmp(sub, "push") && o->npos == 1) {
        st = bk_wal_push(r, o->pos[0]);
    } else if (!strcmp(sub, "fetch") && o->npos == 2) {
        int pf = o->prefetch ? atoi(o->prefetch) : 8;
        st = bk_wal_fetch(r, o->pos[0], o->pos[1], pf);
        if (st == 1) {
            bk_repo_close(r);
            fprintf(stderr, "shale backup: WAL file %s is not in the archive\n", o->pos[0]);
            return 1;
        }
    } else {
        bk_repo_close(r);
        return bad_usage("wal push takes PATH; wal fetch takes NAME DEST");
    }
    bk_repo_close(r);
    return st ? fail() : 0;
}

int backup_main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        fputs(usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *cmd = argv[1];
    opts o = {0};
    if (!strcmp(cmd, "tune")) {
        if (parse(argc - 2, argv + 2, &o))
            return 2;
        bk_hw hw;
        bk_settings s;
        if (settings_from(&o, &s, &hw))
            return fail();
        bk_settings_write_env(&s, &hw, stdout);
        return 0;
    }
    if ((!strcmp(cmd, "pg") || !strcmp(cmd, "wal")) && argc >= 3) {
        if (parse(argc - 3, argv + 3, &o))
            return 2;
        return !strcmp(cmd, "pg") ? pg_cmd(argv[2], &o) : wal_cmd(argv[2], &o);
    }
    return bad_usage("unknown command");
}
