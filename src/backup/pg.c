/* PostgreSQL push, fetch, list, verify and delete (see pg.h). */
#include "backup/pg.h"

#include "backup/backup.h"
#include "backup/cgroup.h"
#include "backup/engine.h"
#include "backup/manifest.h"
#include "backup/wal.h"
#include "base/err.h"
#include "base/lazylib.h"
#include "base/mem.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libpq-fe.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- libpq, loaded on first use (base/lazylib.h) ---- */

static struct {
    __typeof__(PQconnectdb) *connectdb;
    __typeof__(PQstatus) *status;
    __typeof__(PQerrorMessage) *error_message;
    __typeof__(PQfinish) *finish;
    __typeof__(PQexec) *exec;
    __typeof__(PQexecParams) *exec_params;
    __typeof__(PQresultStatus) *result_status;
    __typeof__(PQresultErrorMessage) *result_error;
    __typeof__(PQclear) *clear;
    __typeof__(PQntuples) *ntuples;
    __typeof__(PQgetvalue) *getvalue;
    __typeof__(PQgetisnull) *getisnull;
    __typeof__(PQserverVersion) *server_version;
} pq;

static const lazy_sym pq_syms[] = {
    {"PQconnectdb", (void **)&pq.connectdb},
    {"PQstatus", (void **)&pq.status},
    {"PQerrorMessage", (void **)&pq.error_message},
    {"PQfinish", (void **)&pq.finish},
    {"PQexec", (void **)&pq.exec},
    {"PQexecParams", (void **)&pq.exec_params},
    {"PQresultStatus", (void **)&pq.result_status},
    {"PQresultErrorMessage", (void **)&pq.result_error},
    {"PQclear", (void **)&pq.clear},
    {"PQntuples", (void **)&pq.ntuples},
    {"PQgetvalue", (void **)&pq.getvalue},
    {"PQgetisnull", (void **)&pq.getisnull},
    {"PQserverVersion", (void **)&pq.server_version},
    {NULL, NULL},
};
static lazylib pq_lib = LAZYLIB_INIT("libpq.so.5", "shale backup pg push", pq_syms);

static void trim_nl(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
        s[--n] = 0;
}

/* Runs sql with params; on success *res holds a tuples result with at least one row. */
static int query(PGconn *c, const char *sql, int nparams, const char *const *params, PGresult **res)
{
    PGresult *r = pq.exec_params(c, sql, nparams, NULL, params, NULL, NULL, 0);
    if (!r || pq.result_status(r) != PGRES_TUPLES_OK || pq.ntuples(r) < 1) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", r ? pq.result_error(r) : pq.error_message(c));
        trim_nl(msg);
        if (r)
            pq.clear(r);
        return err_set(ERR_RECEIVED_ERROR_FROM_REMOTE_IO_SERVER, "PostgreSQL: %s failed: %s", sql, msg);
    }
    *res = r;
    return 0;
}

static char *val(PGresult *r, int col) { return pq.getisnull(r, 0, col) ? NULL : xstrdup(pq.getvalue(r, 0, col)); }

static void iso_now(char *out, size_t cap, bool compact)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, cap, compact ? "%Y%m%dT%H%M%SZ" : "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* ---- enumeration of the data directory ---- */

typedef struct enum_acc {
    bk_manifest *m;
    char **abs;
    size_t cap;
} enum_acc;

static void add_entry(enum_acc *a, const char *rel, const char *abs, const struct stat *st, char type)
{
    bk_manifest *m = a->m;
    if (m->nfiles == a->cap) {
        a->cap = a->cap ? a->cap * 2 : 256;
        m->files = xrealloc(m->files, a->cap * sizeof *m->files);
        a->abs = xrealloc(a->abs, a->cap * sizeof *a->abs);
    }
    bk_file *f = &m->files[m->nfiles];
    memset(f, 0, sizeof *f);
    f->path = xstrdup(rel);
    f->type = type;
    f->mode = st->st_mode & 07777;
    f->mtime = st->st_mtime;
    f->size = type == BK_FILE ? (uint64_t)st->st_size : 0;
    a->abs[m->nfiles++] = xstrdup(abs);
}

static bool top_dir_contents_skipped(const char *rel)
{
    static const char *dirs[] = {"pg_wal", "pg_dynshmem", "pg_notify", "pg_replslot", "pg_serial",
                                 "pg_snapshots", "pg_stat_tmp", "pg_subtrans", NULL};
    for (int i = 0; dirs[i]; i++)
        if (!strcmp(rel, dirs[i]))
            return true;
    return false;
}

static bool skipped_file(const char *rel, const char *name)
{
    static const char *top[] = {"postmaster.pid", "postmaster.opts", "backup_label", "tablespace_map",
                                "backup_manifest", "recovery.signal", "standby.signal", "postgresql.auto.conf.tmp",
                                "current_logfiles", "backup_label.old", NULL};
    if (!strcmp(name, "pg_internal.init") || !strncmp(name, "pgsql_tmp", 9))
        return true;
    if (strchr(rel, '/'))
        return false;
    for (int i = 0; top[i]; i++)
        if (!strcmp(rel, top[i]))
            return true;
    return false;
}

static int walk(enum_acc *a, const char *abs, const char *rel, int depth)
{
    if (depth > 64)
        return err_set(ERR_BAD_ARGUMENTS, "%s: directories nested too deep", abs);
    DIR *d = opendir(abs);
    if (!d)
        return err_set(ERR_CANNOT_OPEN_FILE, "Cannot list %s: %s", abs, strerror(errno));
    int rc = 0;
    struct dirent *de;
    while (!rc && (de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        char cabs[PATH_MAX], crel[PATH_MAX];
        snprintf(cabs, sizeof cabs, "%s/%s", abs, de->d_name);
        snprintf(crel, sizeof crel, "%s%s%s", rel, *rel ? "/" : "", de->d_name);
        if (skipped_file(crel, de->d_name))
            continue;
        struct stat st;
        if (lstat(cabs, &st)) {
            if (errno == ENOENT)
                continue; /* removed while we looked */
            rc = err_set(ERR_CANNOT_STAT, "Cannot stat %s: %s", cabs, strerror(errno));
            break;
        }
        bool is_ts = !strcmp(rel, "pg_tblspc");
        if (S_ISLNK(st.st_mode)) {
            char target[PATH_MAX];
            ssize_t n = readlink(cabs, target, sizeof target - 1);
            if (n < 0 || stat(cabs, &st)) {
                rc = err_set(ERR_CANNOT_STAT, "Cannot follow the link %s: %s", cabs, strerror(errno));
                break;
            }
            target[n] = 0;
            if (is_ts) {
                bk_manifest *m = a->m;
                m->tblspcs = xrealloc(m->tblspcs, (m->ntblspcs + 1) * sizeof *m->tblspcs);
                m->tblspcs[m->ntblspcs].oid = xstrdup(de->d_name);
                m->tblspcs[m->ntblspcs++].path = xstrdup(target);
            }
        }
        if (S_ISDIR(st.st_mode)) {
            add_entry(a, crel, cabs, &st, BK_DIR);
            if (!top_dir_contents_skipped(crel))
                rc = walk(a, cabs, crel, depth + 1);
        } else if (S_ISREG(st.st_mode)) {
            add_entry(a, crel, cabs, &st, BK_FILE);
        }
    }
    closedir(d);
    return rc;
}

/* ---- push ---- */

static void human(uint64_t b, char *out, size_t cap)
{
    if (b >= (1ull << 30))
        snprintf(out, cap, "%.2f GiB", (double)b / (1ull << 30));
    else if (b >= (1ull << 20))
        snprintf(out, cap, "%.1f MiB", (double)b / (1ull << 20));
    else
        snprintf(out, cap, "%" PRIu64 " bytes", b);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           (double)ru.ru_stime.tv_usec / 1e6;
}

/* ---- pacing against the database's latency (--max-latency-ms) ---- */

typedef struct pacer {
    PGconn *conn;
    bk_pace *pace;
    int max_readers;
    double bound_ms;
    _Atomic bool stop;
    pthread_t th;
    /* results */
    uint64_t probes, lowered, raised;
    double worst_ms;
    int min_readers;
    uint64_t min_rate;
} pacer;

/* Runs a probe every 100 ms on its own connection; once a second feeds the p99 of the last
 * ten probes (their maximum) to bk_pace_adjust. */
static void *pacer_main(void *arg)
{
    pacer *pc = arg;
    double win[10];
    int k = 0;
    while (!atomic_load(&pc->stop)) {
        double t0 = now_s();
        PGresult *r = pq.exec(pc->conn, "SELECT 1");
        double ms = (now_s() - t0) * 1000;
        bool ok = r && pq.result_status(r) == PGRES_TUPLES_OK;
        if (r)
            pq.clear(r);
        if (!ok)
            break; /* the probe connection failed: stop pacing, the backup goes on */
        pc->probes++;
        if (ms > pc->worst_ms)
            pc->worst_ms = ms;
        win[k++] = ms;
        if (k == 10) {
            double p99 = 0;
            for (int i = 0; i < 10; i++)
                p99 = win[i] > p99 ? win[i] : p99;
            int d = bk_pace_adjust(pc->pace, pc->max_readers, p99, pc->bound_ms);
            pc->lowered += d < 0;
            pc->raised += d > 0;
            int rd = atomic_load(&pc->pace->readers);
            uint64_t rate = atomic_load(&pc->pace->rate);
            if (rd < pc->min_readers)
                pc->min_readers = rd;
            if (rate && (!pc->min_rate || rate < pc->min_rate))
                pc->min_rate = rate;
            k = 0;
        }
        double left = 0.1 - (now_s() - t0);
        if (left > 0) {
            struct timespec ts = {0, (long)(left * 1e9)};
            nanosleep(&ts, NULL);
        }
    }
    return NULL;
}

static int pick_name(bk_repo *r, char *name, size_t cap)
{
    char base[32];
    iso_now(base, sizeof base, true);
    char **names;
    size_t n;
    if (bk_list_names(r, &names, &n))
        return -1;
    snprintf(name, cap, "%s", base);
    /* a name never reused, complete or not: look for any object under it */
    for (int k = 2;; k++) {
        char *prefix = bk_backup_key(name, "");
        char **keys;
        uint64_t *sizes;
        size_t nk;
        int rc = bk_repo_list(r, prefix, &keys, &sizes, &nk);
        free(prefix);
        if (rc) {
            bk_names_free(names, n);
            return -1;
        }
        bk_repo_list_free(keys, sizes, nk);
        if (nk == 0)
            break;
        snprintf(name, cap, "%s-%d", base, k);
    }
    bk_names_free(names, n);
    return 0;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000};
    nanosleep(&ts, NULL);
}

/* pg_backup_stop, then the wait until the WAL the backup needs is archived. The server's own
 * wait (pg_backup_stop(true)) looks once a second, which added a second to every push for a
 * segment the archiver takes milliseconds over; on a primary whose archive_status the push can
 * read, it stops without the server's wait and watches pg_wal/archive_status itself every
 * 5 ms (100 ms after the first second) by the server's rule, for the same two files: the
 * last segment and the backup history file. A standby keeps the server's wait. *res: lsn,
 * labelfile, spcmapfile. */
static int stop_backup(PGconn *conn, const char *pgdata, const bk_manifest *m, PGresult **res, FILE *log)
{
    static const char *const stop_wait = "SELECT lsn::text, labelfile, spcmapfile FROM pg_backup_stop(true)";
    PGresult *q;
    if (query(conn,
              "SELECT pg_is_in_recovery()::text, current_setting('archive_mode'), "
              "(SELECT setting FROM pg_settings WHERE name = 'wal_segment_size')",
              0, NULL, &q))
        return -1;
    bool standby = !strcmp(pq.getvalue(q, 0, 0), "true"), archiving = strcmp(pq.getvalue(q, 0, 1), "off") != 0;
    uint64_t seg = strtoull(pq.getvalue(q, 0, 2), NULL, 10);
    pq.clear(q);
    char walp[PATH_MAX + 32];
    snprintf(walp, sizeof walp, "%s/pg_wal", pgdata);
    char status[PATH_MAX + 64];
    snprintf(status, sizeof status, "%s/archive_status", walp);
    if (standby || seg == 0 || (seg & (seg - 1)) || access(status, R_OK | X_OK))
        return query(conn, stop_wait, 0, NULL, res);
    if (query(conn, "SELECT lsn::text, labelfile, spcmapfile, pg_walfile_name(lsn) FROM pg_backup_stop(false)", 0,
              NULL, res))
        return -1;
    if (!archiving)
        return 0; /* the server does not wait either */
    char last[25], hist[41];
    snprintf(last, sizeof last, "%s", pq.getvalue(*res, 0, 3));
    char tli_hex[9];
    snprintf(tli_hex, sizeof tli_hex, "%s", last);
    bk_wal_history_name((uint32_t)strtoul(tli_hex, NULL, 16), m->start_lsn, seg, hist);
    double t0 = now_s();
    bool noted = false;
    while (!bk_wal_archive_done(walp, last) || !bk_wal_archive_done(walp, hist)) {
        double waited = now_s() - t0;
        if (!noted && waited > 60) {
            fprintf(log, "note: still waiting for %s and %s to be archived (check that archive_command works)\n",
                    last, hist);
            noted = true;
        }
        sleep_ms(waited < 1 ? 5 : 100);
    }
    return 0;
}

int bk_pg_push(bk_repo *r, const bk_pg_push_opts *o)
{
    FILE *log = o->log;
    bk_manifest parent = {0}, m = {0};
    bool have_parent = false;
    PGconn *conn = NULL;
    PGresult *res = NULL;
    enum_acc acc = {.m = &m};
    bk_cgroup cg = {0};
    char note[512], cgrep[700];
    int rc = 0;
    bk_settings s = o->settings;
    double t0 = now_s(), c0 = cpu_s();
    bool started = false;

    if (bk_settings_fit(&s, o->s3, note, sizeof note))
        return -1;
    char lim[32], plan[32];
    human(s.buffer_limit, lim, sizeof lim);
    human(bk_settings_planned(&s, o->s3), plan, sizeof plan);
    fprintf(log, "settings: read size %" PRIu64 " KiB, %d readers, %s, %s, buffers %s of the %s bound (5 %% of RAM is %" PRIu64 " MiB)%s%s\n",
            s.read_size >> 10, s.concurrency, s.direct_io ? "O_DIRECT" : "buffered reads", s.compression, plan, lim,
            s.ram / 20 >> 20, note[0] ? "; " : "", note);
    if (o->delta_from) {
        if (bk_manifest_load(r, o->delta_from, &parent))
            return err_prefix("--delta-from: ");
        have_parent = true;
    }
    struct stat st;
    if (stat(o->pgdata, &st) || !S_ISDIR(st.st_mode) ) {
        rc = err_set(ERR_FILE_DOESNT_EXIST, "--pgdata %s is not a directory", o->pgdata);
        goto out;
    }
    char pv[PATH_MAX];
    snprintf(pv, sizeof pv, "%s/PG_VERSION", o->pgdata);
    if (access(pv, R_OK)) {
        rc = err_set(ERR_FILE_DOESNT_EXIST, "--pgdata %s is not a PostgreSQL data directory (no PG_VERSION)", o->pgdata);
        goto out;
    }
    bk_cgroup_enter(&cg, s.cpu_weight, cgrep, sizeof cgrep);
    fprintf(log, "%s\n", cgrep);
    if ((rc = lazylib_load(&pq_lib)))
        goto out;
    conn = pq.connectdb(o->conninfo ? o->conninfo : "");
    if (!conn || pq.status(conn) != CONNECTION_OK) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", conn ? pq.error_message(conn) : "out of memory");
        trim_nl(msg);
        rc = err_set(ERR_NETWORK_ERROR, "Cannot connect to PostgreSQL: %s", msg);
        goto out;
    }
    m.pg_version = pq.server_version(conn);
    if (m.pg_version < 150000) {
        rc = err_set(ERR_NOT_IMPLEMENTED, "PostgreSQL %d is not supported: shale backup needs 15 or later (pg_backup_start)",
                     m.pg_version);
        goto out;
    }
    if ((rc = query(conn, "SELECT system_identifier::text, current_setting('data_directory') FROM pg_control_system()",
                    0, NULL, &res)))
        goto out;
    m.system_id = val(res, 0);
    {
        char a[PATH_MAX], b[PATH_MAX];
        const char *dd = pq.getvalue(res, 0, 1);
        if (!realpath(o->pgdata, a) || !realpath(dd, b) || strcmp(a, b))
            fprintf(log, "note: the server's data_directory is %s, --pgdata is %s\n", dd, o->pgdata);
    }
    pq.clear(res);
    res = NULL;
    if (have_parent && parent.system_id && strcmp(parent.system_id, m.system_id)) {
        rc = err_set(ERR_BAD_ARGUMENTS, "--delta-from %s belongs to another cluster (system identifier %s, this one %s)",
                     parent.name, parent.system_id, m.system_id);
        goto out;
    }
    char name[64];
    if ((rc = pick_name(r, name, sizeof name)))
        goto out;
    m.name = xstrdup(name);
    m.parent = have_parent ? xstrdup(parent.name) : NULL;
    m.tool_version = xstrdup(BK_TOOL_VERSION);
    m.compression = xstrdup(s.compression);
    char ts[40];
    iso_now(ts, sizeof ts, false);
    m.start_time = xstrdup(ts);
    {
        char label[128];
        snprintf(label, sizeof label, "shale backup %s", name);
        const char *p[] = {label};
        if ((rc = query(conn, "SELECT pg_backup_start($1, true)::text", 1, p, &res)))
            goto out;
        started = true;
        rc = bk_lsn_parse(pq.getvalue(res, 0, 0), &m.start_lsn);
        pq.clear(res);
        res = NULL;
        if (rc)
            goto out;
    }
    if ((rc = query(conn, "SELECT timeline_id FROM pg_control_checkpoint()", 0, NULL, &res)))
        goto out;
    m.timeline = (uint32_t)strtoul(pq.getvalue(res, 0, 0), NULL, 10);
    pq.clear(res);
    res = NULL;
    {
        char lsn[24];
        bk_lsn_format(m.start_lsn, lsn);
        fprintf(log, "backup %s: started at %s%s%s\n", name, lsn, have_parent ? ", delta from " : "",
                have_parent ? parent.name : "");
    }
    if ((rc = walk(&acc, o->pgdata, "", 0)))
        goto out;
    bk_push_stats stats = {0};
    bk_pace pace;
    bk_pace_init(&pace, s.concurrency);
    pacer pc = {.pace = &pace, .max_readers = s.concurrency, .bound_ms = o->max_latency_ms,
                .min_readers = s.concurrency};
    bool pacing = false;
    if (o->max_latency_ms > 0) {
        pc.conn = pq.connectdb(o->conninfo ? o->conninfo : "");
        if (pc.conn && pq.status(pc.conn) == CONNECTION_OK && pthread_create(&pc.th, NULL, pacer_main, &pc) == 0)
            pacing = true;
        else
            fprintf(log, "pacing: off (cannot open the probe connection)\n");
    }
    double tr = now_s();
    rc = bk_push_files(r, &s, &m, acc.abs, have_parent ? &parent : NULL, pacing ? &pace : NULL, log, &stats);
    double read_s = now_s() - tr;
    if (pacing) {
        atomic_store(&pc.stop, true);
        pthread_join(pc.th, NULL);
        char lowest[32] = "unlimited";
        if (pc.min_rate)
            snprintf(lowest, sizeof lowest, "%" PRIu64 " MiB/s", pc.min_rate >> 20);
        fprintf(log,
                "pacing: bound %d ms, %" PRIu64 " probes, worst %.1f ms; lowered %" PRIu64 " times, raised %" PRIu64
                " times; fewest readers %d, lowest rate %s\n",
                o->max_latency_ms, pc.probes, pc.worst_ms, pc.lowered, pc.raised, pc.min_readers, lowest);
    }
    if (pc.conn)
        pq.finish(pc.conn);
    if (rc)
        goto out;
    if ((rc = stop_backup(conn, o->pgdata, &m, &res, log)))
        goto out;
    started = false;
    rc = bk_lsn_parse(pq.getvalue(res, 0, 0), &m.stop_lsn);
    m.backup_label = val(res, 1);
    m.tablespace_map = val(res, 2);
    pq.clear(res);
    res = NULL;
    if (rc)
        goto out;
    iso_now(ts, sizeof ts, false);
    m.stop_time = xstrdup(ts);
    bk_settings_to_used(&s, o->s3, &m.settings);
    bk_manifest_sort(&m);
    {
        buf j = {0};
        bk_manifest_to_json(&m, &j);
        char *key = bk_backup_key(name, "manifest.json");
        rc = bk_repo_put(r, key, j.p, j.len);
        free(key);
        buf_free(&j);
        if (rc)
            goto out;
    }
    {
        char a[32], b[32], lsn[24];
        human(stats.bytes_read, a, sizeof a);
        human(stats.bytes_stored, b, sizeof b);
        bk_lsn_format(m.stop_lsn, lsn);
        double secs = now_s() - t0;
        fprintf(log, "backup %s: complete at %s; %" PRIu64 " files, %s read in %.2f s (%.0f MB/s), %s stored (ratio %.2f)\n",
                name, lsn, stats.files, a, read_s, read_s > 0 ? (double)stats.bytes_read / 1e6 / read_s : 0.0, b,
                stats.bytes_stored ? (double)stats.bytes_read / (double)stats.bytes_stored : 0.0);
        fprintf(log,
                "reads: %" PRIu64 " files with O_DIRECT (%" PRIu64 " with up to %d reads in flight per reader), %" PRIu64
                " buffered%s%s%s\n",
                stats.files_direct, stats.files_aio, BK_READ_AHEAD, stats.files - stats.files_direct,
                stats.files_buffered_fallback ? " (O_DIRECT refused; first: " : "", stats.fallback_example,
                stats.files_buffered_fallback ? ")" : "");
        if (have_parent)
            fprintf(log, "delta: %" PRIu64 " relation files by page, %" PRIu64 " pages shipped, %" PRIu64 " unchanged\n",
                    stats.files_delta, stats.pages_shipped, stats.pages_skipped);
        char pk[32];
        human(bk_peak_rss(), pk, sizeof pk);
        fprintf(log, "total %.2f s, CPU %.2f s, peak RSS %s (buffer bound %s, planned %s)\n", secs, cpu_s() - c0, pk,
                lim, plan);
    }
out:
    if (res)
        pq.clear(res);
    if (started && conn) {
        /* leave backup mode; closing the session would too */
        PGresult *x = pq.exec(conn, "SELECT pg_backup_stop(false)");
        if (x)
            pq.clear(x);
    }
    if (conn)
        pq.finish(conn);
    bk_cgroup_leave(&cg);
    for (size_t i = 0; i < m.nfiles; i++)
        free(acc.abs[i]);
    free(acc.abs);
    bk_manifest_free(&m);
    if (have_parent)
        bk_manifest_free(&parent);
    return rc;
}

/* ---- fetch ---- */

typedef struct map_ctx {
    const char *target;
    const bk_manifest *last;
    const bk_pg_fetch_opts *o;
} map_ctx;

static const char *ts_dir(const map_ctx *mc, const char *oid)
{
    for (size_t i = 0; i < mc->o->nts_map; i++)
        if (!strcmp(mc->o->ts_map[i].oid, oid))
            return mc->o->ts_map[i].dir;
    for (size_t i = 0; i < mc->last->ntblspcs; i++)
        if (!strcmp(mc->last->tblspcs[i].oid, oid))
            return mc->last->tblspcs[i].path;
    return NULL;
}

static char *map_path(void *ctx, const char *rel)
{
    map_ctx *mc = ctx;
    if (!strncmp(rel, "pg_tblspc/", 10)) {
        const char *oid = rel + 10, *sl = strchr(oid, '/');
        char o[64];
        size_t ol = sl ? (size_t)(sl - oid) : strlen(oid);
        if (ol < sizeof o) {
            memcpy(o, oid, ol);
            o[ol] = 0;
            const char *d = ts_dir(mc, o);
            if (d) {
                size_t n = strlen(d) + (sl ? strlen(sl) : 0) + 1;
                char *p = xmalloc(n);
                snprintf(p, n, "%s%s", d, sl ? sl : "");
                return p;
            }
        }
    }
    size_t n = strlen(mc->target) + strlen(rel) + 2;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/%s", mc->target, rel);
    return p;
}

static bool dir_empty_or_absent(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return errno == ENOENT;
    struct dirent *de;
    bool empty = true;
    while ((de = readdir(d)))
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
            empty = false;
            break;
        }
    closedir(d);
    return empty;
}

static int write_text(const char *path, const char *text, bool append)
{
    FILE *f = fopen(path, append ? "a" : "w");
    if (!f)
        return err_set(ERR_CANNOT_OPEN_FILE, "Cannot write %s: %s", path, strerror(errno));
    fputs(text, f);
    if (fclose(f))
        return err_set(ERR_CANNOT_WRITE_TO_FILE_DESCRIPTOR, "Cannot write %s: %s", path, strerror(errno));
    return 0;
}

/* Appends s to b as a single-quoted PostgreSQL configuration value. */
static void conf_quote(buf *b, const char *s)
{
    buf_putc(b, '\'');
    for (; *s; s++) {
        if (*s == '\'')
            buf_putc(b, '\'');
        buf_putc(b, *s);
    }
    buf_putc(b, '\'');
}

/* Appends s to b quoted for /bin/sh (restore_command runs through the shell). */
static void sh_quote(buf *b, const char *s)
{
    buf_putc(b, '\'');
    for (; *s; s++) {
        if (*s == '\'')
            buf_puts(b, "'\\''");
        else
            buf_putc(b, *s);
    }
    buf_putc(b, '\'');
}

static int load_chain(bk_repo *r, const char *name, bk_manifest **chain, size_t *n)
{
    size_t cap = 8, k = 0;
    bk_manifest *ms = xcalloc(cap, sizeof *ms);
    const char *want = name;
    char *next = NULL;
    int rc = 0;
    for (;;) {
        if (k == cap) {
            cap *= 2;
            ms = xrealloc(ms, cap * sizeof *ms);
        }
        if ((rc = bk_manifest_load(r, want, &ms[k]))) {
            if (k)
                err_prefix("Backup %s depends on a missing parent: ", ms[k - 1].name);
            break;
        }
        free(next);
        next = ms[k].parent ? xstrdup(ms[k].parent) : NULL;
        k++;
        if (!next)
            break;
        if (k > 1000) {
            rc = err_set(ERR_CORRUPTED_DATA, "Backup chain of %s is longer than 1000 (a cycle?)", name);
            break;
        }
        want = next;
    }
    free(next);
    if (rc) {
        for (size_t i = 0; i < k; i++)
            bk_manifest_free(&ms[i]);
        free(ms);
        return -1;
    }
    /* reverse: the full backup first */
    for (size_t i = 0; i < k / 2; i++) {
        bk_manifest t = ms[i];
        ms[i] = ms[k - 1 - i];
        ms[k - 1 - i] = t;
    }
    *chain = ms;
    *n = k;
    return 0;
}

int bk_pg_fetch(bk_repo *r, const bk_pg_fetch_opts *o)
{
    bk_manifest *ms = NULL;
    size_t n = 0;
    if (load_chain(r, o->backup, &ms, &n))
        return -1;
    bk_manifest *last = &ms[n - 1];
    int rc = 0;
    bk_manifest **chain = xcalloc(n, sizeof *chain);
    for (size_t i = 0; i < n; i++)
        chain[i] = &ms[i];
    map_ctx mc = {.target = o->target, .last = last, .o = o};
    buf b = {0};
    if (!dir_empty_or_absent(o->target)) {
        rc = err_set(ERR_DIRECTORY_ALREADY_EXISTS, "--target %s exists and is not empty", o->target);
        goto out;
    }
    for (size_t i = 0; i < last->ntblspcs; i++) {
        const char *d = ts_dir(&mc, last->tblspcs[i].oid);
        if (!dir_empty_or_absent(d)) {
            rc = err_set(ERR_DIRECTORY_ALREADY_EXISTS,
                         "Tablespace %s would be restored into %s, which is not empty (map it elsewhere with "
                         "--tablespace %s=DIR)",
                         last->tblspcs[i].oid, d, last->tblspcs[i].oid);
            goto out;
        }
    }
    if (mkdir(o->target, 0700) && errno != EEXIST) {
        rc = err_set(ERR_CANNOT_CREATE_DIRECTORY, "Cannot create %s: %s", o->target, strerror(errno));
        goto out;
    }
    chmod(o->target, 0700);
    if ((rc = bk_restore(r, chain, n, o->target, map_path, &mc, o->concurrency, o->log)))
        goto out;
    /* tablespace links and map, with the locations used */
    for (size_t i = 0; i < last->ntblspcs; i++) {
        const char *d = ts_dir(&mc, last->tblspcs[i].oid);
        char link[PATH_MAX];
        snprintf(link, sizeof link, "%s/pg_tblspc/%s", o->target, last->tblspcs[i].oid);
        unlink(link);
        if (symlink(d, link)) {
            rc = err_set(ERR_CANNOT_CREATE_FILE, "Cannot create the link %s: %s", link, strerror(errno));
            goto out;
        }
        buf_printf(&b, "%s %s\n", last->tblspcs[i].oid, d);
    }
    char path[PATH_MAX];
    if (last->ntblspcs) {
        snprintf(path, sizeof path, "%s/tablespace_map", o->target);
        if ((rc = write_text(path, buf_cstr(&b), false)))
            goto out;
    }
    snprintf(path, sizeof path, "%s/backup_label", o->target);
    if (!last->backup_label) {
        rc = err_set(ERR_CORRUPTED_DATA, "Backup %s has no backup_label", last->name);
        goto out;
    }
    if ((rc = write_text(path, last->backup_label, false)))
        goto out;
    /* recovery: restore_command through this binary */
    b.len = 0;
    buf_puts(&b, "\n# added by shale backup pg fetch\n");
    buf cmd = {0};
    sh_quote(&cmd, o->self);
    buf_puts(&cmd, " backup wal fetch --repo ");
    sh_quote(&cmd, bk_repo_url(r));
    buf_puts(&cmd, " %f %p");
    buf_puts(&b, "restore_command = ");
    conf_quote(&b, buf_cstr(&cmd));
    buf_free(&cmd);
    buf_putc(&b, '\n');
    if (o->target_lsn) {
        buf_puts(&b, "recovery_target_lsn = ");
        conf_quote(&b, o->target_lsn);
        buf_puts(&b, "\nrecovery_target_action = 'promote'\n");
    } else if (o->target_time) {
        buf_puts(&b, "recovery_target_time = ");
        conf_quote(&b, o->target_time);
        buf_puts(&b, "\nrecovery_target_action = 'promote'\n");
    }
    snprintf(path, sizeof path, "%s/postgresql.auto.conf", o->target);
    if ((rc = write_text(path, buf_cstr(&b), true)))
        goto out;
    snprintf(path, sizeof path, "%s/recovery.signal", o->target);
    if ((rc = write_text(path, "", false)))
        goto out;
    char lsn[24];
    bk_lsn_format(last->stop_lsn, lsn);
    fprintf(o->log, "fetched %s (%zu backup%s in the chain) into %s; consistent at %s after WAL replay\n", last->name, n,
            n > 1 ? "s" : "", o->target, lsn);
out:
    buf_free(&b);
    for (size_t i = 0; i < n; i++)
        bk_manifest_free(&ms[i]);
    free(ms);
    free(chain);
    return rc;
}

/* ---- list, verify, delete ---- */

int bk_pg_list(bk_repo *r, FILE *out)
{
    char **names;
    size_t n;
    if (bk_list_names(r, &names, &n))
        return -1;
    int rc = 0;
    fprintf(out, "name\tkind\tparent\tstart_time\tstop_time\tstart_lsn\tstop_lsn\tfiles\tsize\tstored\n");
    for (size_t i = 0; i < n && !rc; i++) {
        bk_manifest m;
        if ((rc = bk_manifest_load(r, names[i], &m)))
            break;
        uint64_t size = 0, files = 0;
        for (size_t k = 0; k < m.nfiles; k++)
            if (m.files[k].type == BK_FILE) {
                size += m.files[k].size;
                files++;
            }
        char a[24], z[24];
        bk_lsn_format(m.start_lsn, a);
        bk_lsn_format(m.stop_lsn, z);
        fprintf(out, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\n", m.name,
                m.parent ? "delta" : "full", m.parent ? m.parent : "-", m.start_time ? m.start_time : "",
                m.stop_time ? m.stop_time : "", a, z, files, size, m.stored_bytes);
        bk_manifest_free(&m);
    }
    bk_names_free(names, n);
    return rc;
}

int bk_pg_verify(bk_repo *r, const char *backup, int concurrency, FILE *log)
{
    bk_manifest *ms;
    size_t n;
    if (load_chain(r, backup, &ms, &n))
        return -1;
    bk_manifest *m = &ms[n - 1];
    int rc = bk_verify(r, m, concurrency, log);
    if (!rc) {
        uint64_t blocks = 0, files = 0;
        for (size_t i = 0; i < m->nfiles; i++)
            if (m->files[i].type == BK_FILE) {
                files++;
                blocks += m->files[i].nblocks;
            }
        fprintf(log, "backup %s: %" PRIu64 " files, %" PRIu64 " blocks verified; chain of %zu complete\n", m->name,
                files, blocks, n);
    }
    for (size_t i = 0; i < n; i++)
        bk_manifest_free(&ms[i]);
    free(ms);
    return rc;
}

/* "START WAL LOCATION: 0/2000028 (file 000000010000000000000002)" -> the file name */
static bool start_wal_file(const char *label, char out[25])
{
    const char *p = label ? strstr(label, "(file ") : NULL;
    if (!p || strlen(p + 6) < 24)
        return false;
    memcpy(out, p + 6, 24);
    out[24] = 0;
    return true;
}

static bool hex24(const char *f)
{
    for (int i = 0; i < 24; i++)
        if (!strchr("0123456789ABCDEF", f[i]))
            return false;
    return true;
}

static int delete_backup(bk_repo *r, const char *name)
{
    char *mk = bk_backup_key(name, "manifest.json");
    char *km[] = {mk};
    int rc = bk_repo_delete(r, km, 1); /* the manifest first: the backup stops existing */
    free(mk);
    if (rc)
        return -1;
    char *prefix = bk_backup_key(name, "");
    char **keys;
    uint64_t *sizes;
    size_t nk;
    rc = bk_repo_list(r, prefix, &keys, &sizes, &nk);
    free(prefix);
    if (rc)
        return -1;
    rc = bk_repo_delete(r, keys, nk);
    bk_repo_list_free(keys, sizes, nk);
    return rc;
}

/* Prefixes without a manifest (pushes that failed or were killed) whose name — the time
 * they started — is older than the oldest retained backup: a push still running then
 * would have started before a backup that has since completed and been kept. */
static int delete_incomplete(bk_repo *r, const char *oldest_kept, FILE *log)
{
    char **keys;
    uint64_t *sizes;
    size_t nk;
    if (bk_repo_list(r, "backups/", &keys, &sizes, &nk))
        return -1;
    char **names = NULL;
    size_t nn = 0;
    int rc = bk_list_names(r, &names, &nn);
    char **del = xcalloc(nk + 1, sizeof *del);
    size_t nd = 0;
    char last[256] = "";
    for (size_t i = 0; !rc && i < nk; i++) {
        const char *k = keys[i] + 8, *sl = strchr(k, '/');
        if (strncmp(keys[i], "backups/", 8) || !sl || (size_t)(sl - k) >= sizeof last)
            continue;
        char name[256];
        memcpy(name, k, (size_t)(sl - k));
        name[sl - k] = 0;
        bool complete = false;
        for (size_t j = 0; j < nn && !complete; j++)
            complete = !strcmp(names[j], name);
        if (complete || strcmp(name, oldest_kept) >= 0)
            continue;
        del[nd++] = keys[i];
        if (strcmp(last, name)) {
            fprintf(log, "deleted incomplete backup %s\n", name);
            snprintf(last, sizeof last, "%s", name);
        }
    }
    if (!rc)
        rc = bk_repo_delete(r, del, nd);
    free(del);
    bk_names_free(names, nn);
    bk_repo_list_free(keys, sizes, nk);
    return rc;
}

int bk_pg_delete_retain(bk_repo *r, int retain, FILE *log)
{
    if (retain < 1)
        return err_set(ERR_BAD_ARGUMENTS, "--retain must be at least 1");
    char **names;
    size_t n;
    if (bk_list_names(r, &names, &n))
        return -1;
    bool *keep = xcalloc(n + 1, sizeof *keep);
    int rc = 0;
    char oldest_wal[25] = "";
    /* keep the newest `retain` backups and every backup they depend on */
    for (size_t i = n > (size_t)retain ? n - (size_t)retain : 0; i < n && !rc; i++) {
        const char *want = names[i];
        char *next = NULL;
        while (want && !rc) {
            size_t k = 0;
            while (k < n && strcmp(names[k], want))
                k++;
            if (k == n) {
                rc = err_set(ERR_CORRUPTED_DATA, "Backup %s depends on %s, which is missing", names[i], want);
                break;
            }
            bk_manifest m;
            if ((rc = bk_manifest_load(r, names[k], &m)))
                break;
            keep[k] = true;
            char w[25];
            if (start_wal_file(m.backup_label, w) && (!oldest_wal[0] || strcmp(w + 8, oldest_wal + 8) < 0))
                memcpy(oldest_wal, w, 25);
            free(next);
            next = m.parent ? xstrdup(m.parent) : NULL;
            want = next;
            bk_manifest_free(&m);
        }
        free(next);
    }
    size_t oldest_kept = n;
    for (size_t i = 0; i < n && !rc; i++) {
        if (keep[i]) {
            if (oldest_kept == n)
                oldest_kept = i;
            continue;
        }
        if (!(rc = delete_backup(r, names[i])))
            fprintf(log, "deleted backup %s\n", names[i]);
    }
    if (!rc && oldest_kept < n)
        rc = delete_incomplete(r, names[oldest_kept], log);
    if (!rc && oldest_wal[0]) {
        /* WAL before the oldest retained backup's start is no longer needed */
        char **keys;
        uint64_t *sizes;
        size_t nk;
        if (!(rc = bk_repo_list(r, "wal/", &keys, &sizes, &nk))) {
            char **del = xcalloc(nk + 1, sizeof *del);
            size_t nd = 0;
            for (size_t i = 0; i < nk; i++) {
                const char *f = keys[i] + 4;
                if (strlen(f) >= 24 && !strstr(f, ".history") && hex24(f) &&
                    strncmp(f + 8, oldest_wal + 8, 16) < 0)
                    del[nd++] = keys[i];
            }
            rc = bk_repo_delete(r, del, nd);
            if (!rc)
                fprintf(log, "deleted %zu WAL files older than %s\n", nd, oldest_wal);
            free(del);
            bk_repo_list_free(keys, sizes, nk);
        }
    }
    free(keep);
    bk_names_free(names, n);
    return rc;
}
