/* The BACKUP and RESTORE operations of the process: what system.backups shows.
 *
 * The statement layer registers an operation when it starts (status CREATING_BACKUP or
 * RESTORING), updates its counters as files go by and sets its final status; entries stay
 * for the life of the process, as ClickHouse keeps them until restart. An ASYNC operation
 * runs on its own thread: backup_list_begin_async / backup_list_end_async count them so
 * that the process waits for them before it exits (backup_list_wait_async).
 * Thread-safety: every call takes the list's lock. Errors: backup_list_add fails with
 * BACKUP_ALREADY_EXISTS when an operation with the same id is running. */
#ifndef SHALE_EXEC_BACKUP_LIST_H
#define SHALE_EXEC_BACKUP_LIST_H

#include <stdbool.h>
#include <stdint.h>

/* ClickHouse's Enum8 values of system.backups.status. */
typedef enum backup_status {
    BACKUP_CREATING = 0,
    BACKUP_CREATED = 1,
    BACKUP_FAILED = 2,
    BACKUP_RESTORING = 3,
    BACKUP_RESTORED = 4,
    BACKUP_RESTORE_FAILED = 5,
} backup_status;

#define BACKUP_STATUS_TYPE                                                                                             \
    "Enum8('CREATING_BACKUP' = 0, 'BACKUP_CREATED' = 1, 'BACKUP_FAILED' = 2, 'RESTORING' = 3, 'RESTORED' = 4, "      \
    "'RESTORE_FAILED' = 5, 'BACKUP_CANCELLED' = 6, 'RESTORE_CANCELLED' = 7)"

typedef struct backup_info {
    char id[64];
    char *name;               /* File('…'), S3('…', '…', '[HIDDEN]') */
    char *base_backup_name;   /* "" when none */
    char query_id[40];
    backup_status status;
    char *error;              /* "" unless failed */
    int64_t start_us, end_us; /* microseconds since the epoch; end 0 while running */
    uint64_t num_files;       /* files in the backup */
    uint64_t total_size;      /* their bytes */
    uint64_t num_entries;     /* objects stored in this backup's destination */
    uint64_t uncompressed_size, compressed_size; /* bytes stored */
    uint64_t files_read, bytes_read;             /* RESTORE: files and bytes read */
} backup_info;

/* Registers an operation (strings copied); *slot identifies it for the calls below. */
int backup_list_add(const backup_info *b, int *slot);
/* Replaces the counters of the operation (not its id, names or start time). */
void backup_list_update(int slot, const backup_info *b);
/* Final status; error NULL when it succeeded. */
void backup_list_finish(int slot, backup_status status, const char *error);
/* A copy of the list (free with backup_list_free_snapshot). */
void backup_list_snapshot(backup_info **out, int *n);
void backup_list_free_snapshot(backup_info *b, int n);

void backup_list_begin_async(void);
void backup_list_end_async(void);
/* Waits until no ASYNC operation runs. */
void backup_list_wait_async(void);

#endif
