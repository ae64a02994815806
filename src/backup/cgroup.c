/* The backup's low-CPU-weight cgroup (see cgroup.h). */
#include "backup/cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int rc = fputs(text, f) < 0 ? -1 : 0;
    if (fclose(f))
        rc = -1;
    return rc;
}

static bool has_token(const char *list, const char *tok)
{
    size_t tl = strlen(tok);
    for (const char *p = list; (p = strstr(p, tok)); p += tl)
        if ((p == list || p[-1] == ',' || p[-1] == ' ') && (p[tl] == 0 || p[tl] == ',' || p[tl] == ' ' || p[tl] == '\n'))
            return true;
    return false;
}

/* Removes empty cgroups left by backups that were killed (their process is gone). */
static void remove_stale(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d))) {
        int pid;
        if (sscanf(de->d_name, "shale-backup-%d", &pid) != 1 || pid == (int)getpid())
            continue;
        if (kill(pid, 0) == 0 || errno != ESRCH)
            continue;
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
        rmdir(p);
    }
    closedir(d);
}

/* Creates dir/shale-backup-PID, writes value into its knob, moves the process there. */
static bool try_enter(bk_cgroup *cg, const char *dir, const char *knob, const char *value, char *why, size_t cap)
{
    char pid[32];
    snprintf(pid, sizeof pid, "%d\n", (int)getpid());
    remove_stale(dir);
    snprintf(cg->child, sizeof cg->child, "%s/shale-backup-%d", dir, (int)getpid());
    snprintf(cg->parent, sizeof cg->parent, "%s/cgroup.procs", dir);
    if (mkdir(cg->child, 0755) && errno != EEXIST) {
        snprintf(why, cap, "cannot create %s: %s", cg->child, strerror(errno));
        return false;
    }
    char p[600];
    snprintf(p, sizeof p, "%s/%s", cg->child, knob);
    if (write_file(p, value)) {
        snprintf(why, cap, "cannot write %s: %s", p, strerror(errno));
        rmdir(cg->child);
        return false;
    }
    snprintf(p, sizeof p, "%s/cgroup.procs", cg->child);
    if (write_file(p, pid)) {
        snprintf(why, cap, "cannot move into %s: %s", cg->child, strerror(errno));
        rmdir(cg->child);
        return false;
    }
    cg->entered = true;
    return true;
}

void bk_cgroup_enter(bk_cgroup *cg, int weight, char *report, size_t cap)
{
    memset(cg, 0, sizeof *cg);
    if (weight <= 0) {
        snprintf(report, cap, "cpu weight: left alone (SHALE_BACKUP_CPU_WEIGHT=0)");
        return;
    }
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (!f) {
        snprintf(report, cap, "cpu weight: not set (no /proc/self/cgroup)");
        return;
    }
    char line[1024], v1path[512] = "", v1ctl[128] = "", v2path[512] = "";
    bool v1 = false, v2 = false;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2)
            continue;
        *c2 = 0;
        if (c1[1] == 0) {
            v2 = true;
            snprintf(v2path, sizeof v2path, "%s", strcmp(c2 + 1, "/") ? c2 + 1 : "");
        } else if (has_token(c1 + 1, "cpu")) {
            v1 = true;
            snprintf(v1ctl, sizeof v1ctl, "%s", c1 + 1);
            snprintf(v1path, sizeof v1path, "%s", strcmp(c2 + 1, "/") ? c2 + 1 : "");
        }
    }
    fclose(f);
    char why2[400] = "", why1[400] = "";
    char val[32];
    if (v2) {
        /* the unified hierarchy: /sys/fs/cgroup itself, or /sys/fs/cgroup/unified (hybrid) */
        static const char *mounts[] = {"/sys/fs/cgroup", "/sys/fs/cgroup/unified"};
        snprintf(why2, sizeof why2, "cgroup v2 has no cpu controller here");
        for (int i = 0; i < 2 && !cg->entered; i++) {
            char dir[600], ctl[700], text[256] = "";
            snprintf(dir, sizeof dir, "%s%s", mounts[i], v2path);
            snprintf(ctl, sizeof ctl, "%s/cgroup.controllers", dir);
            FILE *c = fopen(ctl, "r");
            if (!c)
                continue;
            bool ok = fgets(text, sizeof text, c) != NULL && has_token(text, "cpu");
            fclose(c);
            if (!ok)
                continue;
            snprintf(ctl, sizeof ctl, "%s/cgroup.subtree_control", dir);
            write_file(ctl, "+cpu"); /* may fail if already on or not allowed; try_enter tells */
            snprintf(val, sizeof val, "%d\n", weight);
            if (try_enter(cg, dir, "cpu.weight", val, why2, sizeof why2)) {
                snprintf(report, cap, "cpu weight: moved into cgroup v2 %s with cpu.weight %d", cg->child, weight);
                return;
            }
        }
    }
    if (v1) {
        char dir[700];
        snprintf(dir, sizeof dir, "/sys/fs/cgroup/%s%s", v1ctl, v1path);
        struct stat st;
        if (stat(dir, &st))
            snprintf(dir, sizeof dir, "/sys/fs/cgroup/cpu%s", v1path);
        int shares = weight * 1024 / 100;
        if (shares < 2)
            shares = 2;
        snprintf(val, sizeof val, "%d\n", shares);
        if (try_enter(cg, dir, "cpu.shares", val, why1, sizeof why1)) {
            snprintf(report, cap, "cpu weight: moved into cgroup v1 %s with cpu.shares %d (weight %d)", cg->child,
                     shares, weight);
            return;
        }
    } else {
        snprintf(why1, sizeof why1, "no cgroup v1 cpu hierarchy");
    }
    snprintf(report, cap, "cpu weight: not set (%s; %s)", v2 ? why2 : "no cgroup v2", why1);
}

void bk_cgroup_leave(bk_cgroup *cg)
{
    if (!cg->entered)
        return;
    char pid[32];
    snprintf(pid, sizeof pid, "%d\n", (int)getpid());
    if (write_file(cg->parent, pid) == 0)
        rmdir(cg->child);
    cg->entered = false;
}
