/* The text log: the server's log lines as a table, system.text_log, with ClickHouse's
 * column names (the first ten; source location and value1..10 are not kept). Appended to
 * <data path>/system/text_log.tsv one row per write(2), like the query log (so SYSTEM
 * FLUSH LOGS has nothing to flush and the rows persist across restarts).
 *
 * Thread-safety: appends from any thread. Errors: -1 with err_set when the file cannot be
 * written (the caller decides whether that matters; the server reports it on stderr). */
#ifndef SHALE_EXEC_TEXT_LOG_H
#define SHALE_EXEC_TEXT_LOG_H

#include <stddef.h>

/* level: ClickHouse's names (Fatal, Critical, Error, Warning, Notice, Information, Debug,
 * Trace). query_id may be NULL or "". The message must not hold secrets: the caller masks
 * them (query text through interp/mask.h). */
int text_log_append(const char *data_path, const char *level, const char *logger, const char *query_id,
                    const char *message);
extern const char TEXT_LOG_STRUCTURE[];
void text_log_path(const char *data_path, char *out, size_t cap);

#endif
