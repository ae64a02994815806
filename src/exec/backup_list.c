/* The BACKUP / RESTORE operations of the process (see backup_list.h). */
#include "exec/backup_list.h"

#include "base/err.h"
#include "base/mem.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t async_done = PTHREAD_COND_INITIALIZER;
static backup_info *ops;
static int nops, capops;
static int running_async;

static int64_t now_us(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
}

int backup_list_add(const backup_info *b, int *slot)
{
    pthread_mutex_lock(&mu);
    for (int i = 0; i < nops; i++)
        if (strcmp(ops[i].id, b->id) == 0 && (ops[i].status == BACKUP_CREATING || ops[i].status == BACKUP_RESTORING)) {
            pthread_mutex_unlock(&mu);
            return err_set(ERR_BACKUP_ALREADY_EXISTS, "Backup or restore with ID '%s' is already running", b->id);
        }
    if (nops == capops) {
        capops = capops ? capops * 2 : 8;
        ops = xrealloc(ops, (size_t)capops * sizeof *ops);
    }
    backup_info *e = &ops[nops];
    *e = *b;
    e->name = xstrdup(b->name ? b->name : "");
    e->base_backup_name = xstrdup(b->base_backup_name ? b->base_backup_name : "");
    e->error = xstrdup("");
    e->start_us = now_us();
    e->end_us = 0;
    *slot = nops++;
    pthread_mutex_unlock(&mu);
    return 0;
}

void backup_list_update(int slot, const backup_info *b)
{
    pthread_mutex_lock(&mu);
    backup_info *e = &ops[slot];
    e->num_files = b->num_files;
    e->total_size = b->total_size;
    e->num_entries = b->num_entries;
    e->uncompressed_size = b->uncompressed_size;
    e->compressed_size = b->compressed_size;
    e->files_read = b->files_read;
    e->bytes_read = b->bytes_read;
    pthread_mutex_unlock(&mu);
}

void backup_list_finish(int slot, backup_status status, const char *error)
{
    pthread_mutex_lock(&mu);
    backup_info *e = &ops[slot];
    e->status = status;
    free(e->error);
    e->error = xstrdup(error ? error : "");
    e->end_us = now_us();
    pthread_mutex_unlock(&mu);
}

void backup_list_snapshot(backup_info **out, int *n)
{
    pthread_mutex_lock(&mu);
    backup_info *v = xcalloc((size_t)nops + 1, sizeof *v);
    for (int i = 0; i < nops; i++) {
        v[i] = ops[i];
        v[i].name = xstrdup(ops[i].name);
        v[i].base_backup_name = xstrdup(ops[i].base_backup_name);
        v[i].error = xstrdup(ops[i].error);
    }
    *n = nops;
    pthread_mutex_unlock(&mu);
    *out = v;
}

void backup_list_free_snapshot(backup_info *b, int n)
{
    for (int i = 0; i < n; i++) {
        free(b[i].name);
        free(b[i].base_backup_name);
        free(b[i].error);
    }
    free(b);
}

void backup_list_begin_async(void)
{
    pthread_mutex_lock(&mu);
    running_async++;
    pthread_mutex_unlock(&mu);
}

void backup_list_end_async(void)
{
    pthread_mutex_lock(&mu);
    if (--running_async == 0)
        pthread_cond_broadcast(&async_done);
    pthread_mutex_unlock(&mu);
}

void backup_list_wait_async(void)
{
    pthread_mutex_lock(&mu);
    while (running_async > 0)
        pthread_cond_wait(&async_done, &mu);
    pthread_mutex_unlock(&mu);
}
