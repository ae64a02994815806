/* system.text_log rows (see text_log.h). */
#include "exec/text_log.h"

#include "base/buf.h"
#include "column/datetime.h"
#include "exec/query_log.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

const char TEXT_LOG_STRUCTURE[] =
    "hostname String, event_date Date, event_time DateTime, event_time_microseconds DateTime64(6), "
    "thread_name String, thread_id UInt64, "
    "level Enum8('Fatal' = 1, 'Critical' = 2, 'Error' = 3, 'Warning' = 4, 'Notice' = 5, 'Information' = 6, "
    "'Debug' = 7, 'Trace' = 8, 'Test' = 9), "
    "query_id String, logger_name String, message String";

static log_file text_log_file = LOG_FILE_INIT;

void text_log_path(const char *data_path, char *out, size_t cap)
{
    snprintf(out, cap, "%s/system/text_log.tsv", data_path);
}

int text_log_append(const char *data_path, const char *level, const char *logger, const char *query_id,
                    const char *message)
{
    if (!data_path)
        return 0;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    int64_t secs = (int64_t)ts.tv_sec;
    int64_t days = secs >= 0 ? secs / 86400 : (secs - 86399) / 86400;
    char date[16];
    date[dt_format_date(days, date)] = 0;
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    char thread[16] = "";
    pthread_getname_np(pthread_self(), thread, sizeof thread);
    buf b = {0};
    log_put_escaped(&b, host);
    /* DateTime64(6) as its text in TabSeparated input: seconds since the epoch with the
     * fraction (the table's time zone applies when shown). */
    buf_printf(&b, "\t%s\t%lld\t%lld.%06ld\t", date, (long long)secs, (long long)secs, ts.tv_nsec / 1000);
    log_put_escaped(&b, thread);
    buf_printf(&b, "\t%ld\t%s\t", (long)syscall(SYS_gettid), level);
    log_put_escaped(&b, query_id ? query_id : "");
    buf_putc(&b, '\t');
    log_put_escaped(&b, logger);
    buf_putc(&b, '\t');
    log_put_escaped(&b, message);
    buf_putc(&b, '\n');
    char path[4096];
    text_log_path(data_path, path, sizeof path);
    int rc = log_file_append(&text_log_file, path, "text log", b.p, b.len);
    buf_free(&b);
    return rc;
}
