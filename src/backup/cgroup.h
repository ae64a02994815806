/* cgroup: the backup's own cgroup with a low CPU weight, so that when the CPU is busy the
 * database (weight 100 / shares 1024) gets the larger share (SPEC §5).
 *
 * cgroup v2 (a unified hierarchy with the cpu controller): a child "shale-backup-PID" of
 * the process's cgroup with cpu.weight = weight. cgroup v1 (a "cpu" hierarchy, as on these
 * machines): the same child there with cpu.shares = weight × 1024 / 100 (25 -> 256). The
 * whole process moves (cgroup.procs), so call it before starting threads; bk_cgroup_leave
 * moves it back and removes the child. Where the process may not (no permission, no cpu
 * controller, v2's no-internal-process rule), nothing changes and the report says why.
 *
 * Thread-safety: call from the main thread only. Errors: never fails; see the report. */
#ifndef SHALE_BACKUP_CGROUP_H
#define SHALE_BACKUP_CGROUP_H

#include <stdbool.h>
#include <stddef.h>

typedef struct bk_cgroup {
    bool entered;
    char child[512];   /* the directory created */
    char parent[512];  /* where the process was: its cgroup.procs */
} bk_cgroup;

/* weight 0: leave the process alone. report: one line, what was done. */
void bk_cgroup_enter(bk_cgroup *cg, int weight, char *report, size_t cap);
void bk_cgroup_leave(bk_cgroup *cg);

#endif
