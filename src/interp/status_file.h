/* The data directory's status file: one process at a time opens a data directory.
 *
 * As ClickHouse's server and clickhouse-local do, `shale server` and `shale local --path D`
 * hold an exclusive flock on D/status for as long as the directory is open, and write who
 * holds it (PID, start time, version) into it. A second process on the same directory fails
 * at start with CANNOT_OPEN_FILE instead of running two sets of merges and catalog writes over
 * the same parts. The lock goes with the process (kill -9 included), so a crash never leaves a
 * directory that cannot be opened; a stale file without a lock is simply taken over.
 *
 * Not thread-safe (called once at open and once at close). Errors through err_set. */
#ifndef SHALE_INTERP_STATUS_FILE_H
#define SHALE_INTERP_STATUS_FILE_H

/* Locks <dir>/status and writes the holder's details; returns its descriptor (>= 0) or -1
 * with the error set (another process holds it, or the file cannot be created). */
int status_file_lock(const char *dir);
/* Removes <dir>/status and releases the lock (fd from status_file_lock; -1 does nothing). */
void status_file_release(const char *dir, int fd);

#endif
