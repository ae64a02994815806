/* Where the cluster table functions (s3Cluster) write their log lines: a lost worker, the
 * objects each node read. The storage layer cannot call the server's logger (it stands
 * above), so the server installs it here at start; without one (shale local) the lines
 * go nowhere.
 *
 * Thread-safety: cluster_log_install is called once before any query runs; cluster_log
 * from any thread (the installed logger must be thread-safe, as server_log is). */
#ifndef SHALE_STORAGE_CLUSTER_LOG_H
#define SHALE_STORAGE_CLUSTER_LOG_H

/* level: ClickHouse's names (Error, Warning, Information, Debug). */
typedef void (*cluster_logger)(const char *level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void cluster_log_install(cluster_logger fn);
void cluster_log(const char *level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
