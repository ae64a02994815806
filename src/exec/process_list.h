/* The running queries of the process: what system.processes shows and KILL QUERY cancels.
 *
 * The statement layer registers a query when its execution starts and removes it before
 * the query is freed; the list keeps a pointer to the live query_ctx, so snapshots read
 * its counters while it runs. Thread-safety: every call takes the list's lock.
 * Errors: process_list_add fails with QUERY_WITH_SAME_ID_IS_ALREADY_RUNNING. */
#ifndef SHALE_EXEC_PROCESS_LIST_H
#define SHALE_EXEC_PROCESS_LIST_H

#include "exec/query.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct process_info {
    char query_id[40];
    char user[64];
    char database[256];
    char *query;              /* owned by the snapshot */
    double elapsed;           /* seconds */
    bool is_cancelled;
    uint64_t read_rows, read_bytes, total_rows_approx;
    int64_t memory_usage, peak_memory_usage;
} process_info;

int process_list_add(query_ctx *q, const char *user, const char *query_text, size_t len);
void process_list_remove(query_ctx *q);
/* A copy of the list (free with process_list_free_snapshot). */
void process_list_snapshot(process_info **out, int *n);
void process_list_free_snapshot(process_info *p, int n);
/* Cancels the query with this id; false when it is not running. */
bool process_list_cancel(const char *query_id);
/* True while the query with this id is registered. */
bool process_list_running(const char *query_id);

#endif
