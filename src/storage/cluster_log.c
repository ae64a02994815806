/* The cluster functions' log hook (see cluster_log.h). */
#include "storage/cluster_log.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>

static _Atomic(cluster_logger) g_logger;

void cluster_log_install(cluster_logger fn) { atomic_store(&g_logger, fn); }

void cluster_log(const char *level, const char *fmt, ...)
{
    cluster_logger fn = atomic_load(&g_logger);
    if (!fn)
        return;
    char msg[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fn(level, "%s", msg);
}
