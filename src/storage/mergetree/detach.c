/* ALTER TABLE … DETACH / DROP PART and PARTITION: a part leaves the active set; detached
 * parts move to detached/ (where ATTACH PART finds them), dropped ones are removed once no
 * query reads them. */
#include "storage/mergetree/mt.h"

#include "base/err.h"
#include "base/mem.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static int detach_locked_parts(mt_table *m, mt_part **sel, int n, bool drop)
{
    int rc = 0;
    if (!drop) {
        char *det = mt_sprintf("%sdetached", m->t->data_dir);
        if (mkdir(det, 0755) && errno != EEXIST)
            rc = err_set(ERR_CANNOT_CREATE_DIRECTORY, "Cannot create directory %s: %s", det, strerror(errno));
        for (int i = 0; i < n && !rc; i++) {
            /* Copy the files aside by renaming the directory; readers holding the part
             * keep their open files. */
            char *from = mt_sprintf("%s%s", m->t->data_dir, sel[i]->name);
            char *to = mt_sprintf("%s/%s", det, sel[i]->name);
            if (rename(from, to))
                rc = err_set(ERR_ATOMIC_RENAME_FAIL, "Cannot move part %s to %s: %s", from, to, strerror(errno));
            free(from);
            free(to);
        }
        free(det);
    }
    pthread_mutex_lock(&m->lock);
    double now = (double)time(NULL);
    for (int i = 0; i < n; i++) {
        sel[i]->state = PART_OUTDATED;
        sel[i]->remove_time = now - (double)m->set.old_parts_lifetime; /* removable now */
        if (!drop) {
            /* Its directory moved: removal must not touch detached/. */
            free(sel[i]->dir);
            sel[i]->dir = mt_sprintf("%s.detached-gone", m->t->data_dir);
        }
    }
    pthread_cond_broadcast(&m->cond);
    pthread_mutex_unlock(&m->lock);
    mt_remove_outdated(m, true);
    return rc;
}

/* Takes the active parts matching (name or partition) once no merge holds them. */
static int take_parts(mt_table *m, const char *name, const char *partition_id, mt_part ***out)
{
    pthread_mutex_lock(&m->lock);
    for (;;) {
        bool busy = false;
        for (int i = 0; i < m->nparts; i++) {
            mt_part *p = m->parts[i];
            if (p->state == PART_ACTIVE && p->merging &&
                ((name && !strcmp(p->name, name)) || (partition_id && !strcmp(p->partition_id, partition_id))))
                busy = true;
        }
        if (!busy)
            break;
        pthread_cond_wait(&m->cond, &m->lock);
    }
    mt_part **sel = xcalloc((size_t)m->nparts + 1, sizeof *sel);
    int n = 0;
    for (int i = 0; i < m->nparts; i++) {
        mt_part *p = m->parts[i];
        if (p->state == PART_ACTIVE &&
            ((name && !strcmp(p->name, name)) || (partition_id && !strcmp(p->partition_id, partition_id))))
            sel[n++] = p;
    }
    pthread_mutex_unlock(&m->lock);
    *out = sel;
    return n;
}

int mt_detach_part(mt_table *m, const char *name, bool drop)
{
    if (mt_check_part_name(m, name))
        return -1;
    mt_part **sel;
    int n = take_parts(m, name, NULL, &sel);
    int rc = n ? detach_locked_parts(m, sel, n, drop)
               : err_set(ERR_NO_SUCH_DATA_PART, "No part %s in committed state", name);
    free(sel);
    return rc;
}

int mt_detach_partition(mt_table *m, const char *partition_id, bool drop)
{
    mt_part **sel;
    int n = take_parts(m, NULL, partition_id, &sel);
    int rc = n ? detach_locked_parts(m, sel, n, drop) : 0;
    free(sel);
    return rc;
}
